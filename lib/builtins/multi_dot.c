/* builtins/multi_dot.c — numpy.linalg.multi_dot(arrays): the product of a
 * chain of matrices, multiplied in the order that costs the fewest scalar
 * multiplications (NumPy's choice: the textbook dynamic programme over the
 * chain's dimensions, ties to the first split), each product by
 * rt_matrix_product (BLAS). The first array may be a vector (a row), the
 * last a vector (a column); the others are matrices.
 *
 * arrays is a tuple or a list written out (each array of its own dtype
 * and dimensions, converted to their common dtype before the run-time
 * call), or a typed list of matrices (or of two vectors).
 */
#include <math.h>
#include <stdlib.h>

#include "builtins/blas.h"
#include "builtins/builtins.h"
#include "containers.h"

/* ---------------------------------------------------------------- typing */

/* The element type and dimensions of the chain's arrays: their common
 * dtype, the first's and the last's dimensions; NULL after a TypingError. */
static const Type *chain_type(Infer *in, Node *n, const Type *seq, int *first_nd, int *last_nd) {
  const char *name = n->bi->name;
  if (seq->kind == TY_LIST) {
    const Type *t = seq->elem;
    if (!t || t->kind != TY_ARRAY || t->ndim < 1 || t->ndim > 2 || !ty_is_scalar(t->elem))
      return ty_error(in, n, "%s() needs a list of 1-d or 2-d arrays of numbers, got %s", name, seq->name);
    *first_nd = *last_nd = t->ndim;
    return t->elem;
  }
  if (seq->kind != TY_TUPLE) return ty_error(in, n, "%s() needs a tuple or list of arrays, got %s", name, seq->name);
  if (seq->nfields < 2) return ty_error(in, n, "%s(): Expecting at least two arrays.", name);
  const Type *e = NULL;
  for (int i = 0; i < seq->nfields; i++) {
    const Type *t = seq->fields[i];
    bool end = i == 0 || i == seq->nfields - 1;
    if (t->kind != TY_ARRAY || !ty_is_scalar(t->elem))
      return ty_error(in, n, "%s() multiplies arrays of numbers, got %s", name, t->name);
    if (t->ndim != 2 && !(end && t->ndim == 1))
      return ty_error(in, n, "%s(): %d-dimensional array given. Array must be two-dimensional", name, t->ndim);
    e = e ? np_promote(e, t->elem) : t->elem;
  }
  *first_nd = seq->fields[0]->ndim;
  *last_nd = seq->fields[seq->nfields - 1]->ndim;
  return e;
}

/* a matrix, a vector (one end a vector), or a number (both ends) */
static const Type *ty_multi_dot(Infer *in, Node *n, const Type **args) {
  int first_nd, last_nd;
  const Type *e = chain_type(in, n, args[0], &first_nd, &last_nd);
  if (!e) return NULL;
  int nd = (first_nd == 2) + (last_nd == 2);
  return nd ? ty_array(e, nd, 'C', false) : e;
}

/* ---------------------------------------------------------------- lowering */

/* rt_multi_dot(kind, arrays, count, first_nd, last_nd, out, scalar) of a
 * tuple's arrays, each converted to e where it is not of e. */
static LLVMValueRef tuple_chain(Lower *l, Node *arg, LLVMValueRef seq, const Type *e, LLVMValueRef out,
                                LLVMValueRef scalar) {
  const Type *t = arg->ty;
  int count = t->nfields;
  LLVMValueRef arrays = lo_alloca(l, LLVMArrayType2(l->mod->rtarray, (uint64_t)count), "chain");
  LLVMValueRef *copies = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)count);
  for (int i = 0; i < count; i++) {
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(l->b, l->mod->rtarray, arrays, (LLVMValueRef[]){const_i64(l, i)}, 1, "");
    LLVMValueRef p = bi_array_operand(l, t->fields[i], LLVMBuildExtractValue(l->b, seq, (unsigned)i, ""), e, &copies[i]);
    LLVMBuildMemCpy(l->b, slot, 8, p, 8, LLVMSizeOf(l->mod->rtarray));
  }
  LLVMTypeRef p[7] = {l->mod->i32, l->mod->ptr, l->mod->i64, l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->ptr};
  LLVMValueRef args[7] = {const_i32(l, (int)e->kind), arrays, const_i64(l, count), const_i32(l, t->fields[0]->ndim),
                          const_i32(l, t->fields[count - 1]->ndim), out, scalar};
  LLVMValueRef status = lo_call_fn(l, "rt_multi_dot", l->mod->i32, p, args, 7);
  for (int i = 0; i < count; i++)
    if (copies[i]) lo_release_temp(l, ty_array(e, t->fields[i]->ndim, 'C', false), copies[i]);
  return status;
}

/* rt_multi_dot_list(kind, list, nd, out, scalar) of a typed list */
static LLVMValueRef list_chain(Lower *l, Node *arg, LLVMValueRef seq, const Type *e, LLVMValueRef out,
                               LLVMValueRef scalar) {
  LLVMTypeRef p[5] = {l->mod->i32, l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->ptr};
  LLVMValueRef args[5] = {const_i32(l, (int)e->kind), seq, const_i32(l, arg->ty->elem->ndim), out, scalar};
  return lo_call_fn(l, "rt_multi_dot_list", l->mod->i32, p, args, 5);
}

static LLVMValueRef lo_multi_dot(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *e = elem_of(n->ty);
  LLVMValueRef seq = lo_expr(l, arg);
  LLVMValueRef out = lo_alloca(l, l->mod->rtarray, "multi_dot"), scalar = lo_alloca(l, lo_storage_type(l, e), "dot");
  LLVMValueRef status = arg->ty->kind == TY_LIST ? list_chain(l, arg, seq, e, out, scalar)
                                                 : tuple_chain(l, arg, seq, e, out, scalar);
  lo_done_with(l, arg, seq);
  LLVMBasicBlockRef fail = new_block(l, "multi_dot.fail"), ok = new_block(l, "multi_dot.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, RT_OK), ""), fail, ok);
  position(l, fail);
  lo_raise_status(l, status);
  position(l, ok);
  return n->ty->kind == TY_ARRAY ? lo_load_storage(l, n->ty, out) : lo_load_scalar(l, e, scalar);
}

/* ---------------------------------------------------------------- at run time */

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
  int nda, ndb;
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

/* ---------------------------------------------------------------- the row */

const Builtin bi_multi_dot[] = {
  {"numpy.linalg.multi_dot", "numpy.linalg", "multi_dot", BK_FUNCTION, 0, 1, 1, NULL,
   BF_ALLOCATES | BF_RAISES | BF_BLAS | BF_COMPLEX, 0, 0, ty_multi_dot, lo_multi_dot},
  BI_END,
};
