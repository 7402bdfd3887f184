/* builtins/multi_dot_rt.c — numpy.linalg.multi_dot at run time (in the
 * runtime library: cached code calls it without the compiler): the
 * chain's alignment checked, NumPy's cheapest order found, the products
 * made through rt_matrix_product.
 */
#include <math.h>
#include <stdlib.h>

#include "builtins/blas.h"
#include "containers.h"

/* The chain: its arrays, their dimensions, and where the cheapest order
 * splits each stretch i..j (at split[i * count + j]: i..k times k+1..j). */
typedef struct Chain {
  int32_t kind;
  const RtArray *arrays;
  int64_t count;
  int32_t first_nd, last_nd;
  int64_t *split;
} Chain;

static int nd_of(const Chain *c, int64_t i) {
  return i == 0 ? c->first_nd : i == c->count - 1 ? c->last_nd : 2;
}

/* rows of array i (1 for a first vector), and its columns (1 for a last one) */
static int64_t rows_of(const Chain *c, int64_t i) { return i == 0 && c->first_nd == 1 ? 1 : c->arrays[i].shape[0]; }
static int64_t cols_of(const Chain *c, int64_t i) {
  const RtArray *a = &c->arrays[i];
  return i == c->count - 1 && c->last_nd == 1 ? 1 : nd_of(c, i) == 1 ? a->shape[0] : a->shape[1];
}

/* The first pair of neighbours whose dimensions disagree, multiplied to
 * have numpy.dot's ValueError; RT_OK where all agree. */
static RtStatus check_aligned(const Chain *c) {
  for (int64_t i = 0; i + 1 < c->count; i++) {
    if (cols_of(c, i) == rows_of(c, i + 1)) continue;
    RtArray out;
    char scalar[16];
    return rt_matrix_product(LA_DOT, c->kind, &c->arrays[i], nd_of(c, i), &c->arrays[i + 1], nd_of(c, i + 1), &out,
                             scalar, NULL);
  }
  return RT_OK;
}

/* The cheapest order: cost[i][j] the fewest multiplications of arrays
 * i..j, over every split k (dims p: array i is p[i] x p[i + 1]). */
static RtStatus cheapest_order(Chain *c) {
  int64_t n = c->count;
  double *cost = calloc((size_t)(n * n), sizeof *cost), *p = malloc((size_t)(n + 1) * sizeof *p);
  c->split = calloc((size_t)(n * n), sizeof *c->split);
  if (!cost || !p || !c->split) {
    free(cost), free(p);
    rt_set_error(RT_ERR_MEMORY, "cannot allocate multi_dot's order");
    return RT_ERR_MEMORY;
  }
  for (int64_t i = 0; i < n; i++) p[i] = (double)rows_of(c, i);
  p[n] = (double)cols_of(c, n - 1);
  for (int64_t len = 1; len < n; len++)
    for (int64_t i = 0; i + len < n; i++) {
      int64_t j = i + len;
      cost[i * n + j] = HUGE_VAL;
      for (int64_t k = i; k < j; k++) {
        double q = cost[i * n + k] + cost[(k + 1) * n + j] + p[i] * p[k + 1] * p[j + 1];
        if (q < cost[i * n + j]) cost[i * n + j] = q, c->split[i * n + j] = k;
      }
    }
  free(cost), free(p);
  return RT_OK;
}

/* The product of arrays i..j into *r (nd dimensions; a number at scalar,
 * which only the whole chain of two vector ends gives); *owned says
 * whether r is a new array, which its taker frees. */
static RtStatus product_of(const Chain *c, int64_t i, int64_t j, RtArray *r, int *nd, bool *owned, void *scalar) {
  if (i == j) {
    *r = c->arrays[i], *nd = nd_of(c, i), *owned = false;
    return RT_OK;
  }
  int64_t k = c->split[i * c->count + j];
  RtArray a, b;
  int nda = 0, ndb = 0;
  bool own_a = false, own_b = false;
  RtStatus st = product_of(c, i, k, &a, &nda, &own_a, scalar);
  if (!st) st = product_of(c, k + 1, j, &b, &ndb, &own_b, scalar);
  if (!st) st = rt_matrix_product(LA_DOT, c->kind, &a, nda, &b, ndb, r, scalar, NULL);
  *nd = (nda == 2) + (ndb == 2);
  *owned = !st && *nd;
  if (own_a) rt_meminfo_free(a.meminfo);
  if (own_b) rt_meminfo_free(b.meminfo);
  return st;
}

int32_t rt_multi_dot(int32_t kind, const RtArray *arrays, int64_t count, int32_t first_nd, int32_t last_nd,
                     RtArray *out, void *scalar) {
  Chain c = {kind, arrays, count, first_nd, last_nd, NULL};
  out->meminfo = NULL;
  if (count < 2) {
    rt_set_error(RT_ERR_VALUE, "Expecting at least two arrays.");
    return RT_ERR_VALUE;
  }
  RtStatus st = check_aligned(&c);
  if (!st) st = cheapest_order(&c);
  int nd;
  bool owned;
  if (!st) st = product_of(&c, 0, count - 1, out, &nd, &owned, scalar);
  free(c.split);
  return st;
}

int32_t rt_multi_dot_list(int32_t kind, const RtList *list, int32_t nd, RtArray *out, void *scalar) {
  if (nd == 1 && list->len > 2) {
    out->meminfo = NULL;
    return la_error("1-dimensional array given. Array must be two-dimensional");
  }
  return rt_multi_dot(kind, (const RtArray *)list->data, list->len, nd, nd, out, scalar);
}

