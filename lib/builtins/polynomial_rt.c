/* builtins/polynomial_rt.c — numpy.polynomial.polynomial's functions of
 * coefficient vectors at run time (rt_poly): polyadd, polysub, polymul,
 * polydiv, polyint, polyder, NumPy's loops in their order; see
 * polynomial.c for the typers and lowerers.
 *
 * The operands come converted to the result's dtype (float32, float64 or
 * complex); the arithmetic is done in double, complex double for complex
 * kinds, each result stored back in its own precision. polyint and
 * polyder take an N-d c as NumPy does: the polynomials along axis 0 side
 * by side, one a column.
 */
#include <complex.h>
#include <stdlib.h>

#include "builtins/blas.h"

/* Vectors of coefficients side by side, read into doubles (complex:
 * pairs): coefficient i of column j at c[i * cols + j]. */
typedef struct Poly {
  zdouble *c;
  int64_t n;
  int64_t cols;
} Poly;


/* the products and quotients of real kinds in real arithmetic: a complex
 * one's rounding (and its inf * 0 in the imaginary part) left out */
static zdouble mul(zdouble a, zdouble b, int kind) { return la_is_complex(kind) ? a * b : creal(a) * creal(b); }
static zdouble quotient(zdouble a, zdouble b, int kind) { return la_is_complex(kind) ? a / b : creal(a) / creal(b); }

static RtStatus no_memory(void) {
  rt_set_error(RT_ERR_MEMORY, "cannot allocate a polynomial's coefficients");
  return RT_ERR_MEMORY;
}

/* n zeroed coefficients in each of cols columns (room for one at least) */
static RtStatus new_polys(Poly *p, int64_t n, int64_t cols) {
  p->n = n, p->cols = cols;
  p->c = calloc((size_t)(n * cols > 0 ? n * cols : 1), sizeof(zdouble));
  return p->c ? RT_OK : no_memory();
}

static RtStatus new_poly(Poly *p, int64_t n) { return new_polys(p, n, 1); }

/* a of nd dimensions: column j the vector along axis 0 at the j-th index
 * of the others, in C order */
static RtStatus read_poly(Poly *p, const RtArray *a, int nd, int kind) {
  int64_t cols = 1;
  for (int d = 1; d < nd; d++) cols *= a->shape[d];
  RtStatus st = new_polys(p, a->shape[0], cols);
  for (int64_t j = 0; !st && j < cols; j++) {
    int64_t offset = 0, rest = j;
    for (int d = nd - 1; d >= 1; d--) offset += rest % a->shape[d] * a->strides[d], rest /= a->shape[d];
    for (int64_t i = 0; i < p->n; i++) p->c[i * cols + j] = la_load(a->data + offset + i * a->strides[0], kind);
  }
  return st;
}

/* polyutils.trimseq: the trailing zeros dropped, one coefficient kept */
static void trim(Poly *p) {
  while (p->n > 1 && p->c[p->n - 1] == 0) p->n--;
}

/* polyutils.as_series of the two operands: read and trimmed, none empty */
static RtStatus as_series(Poly *x, Poly *y, const RtArray *a, const RtArray *b, int kind) {
  x->c = y->c = NULL;
  if (a->shape[0] == 0 || b->shape[0] == 0) {
    rt_set_error(RT_ERR_VALUE, "Coefficient array is empty");
    return RT_ERR_VALUE;
  }
  RtStatus st = read_poly(x, a, 1, kind);
  if (!st) st = read_poly(y, b, 1, kind);
  trim(x), trim(y);
  return st;
}

/* p into a new C-ordered array of nd dimensions: p->n, then a's others */
static RtStatus result_shaped(RtArray *out, const Poly *p, int kind, const RtArray *a, int nd) {
  int64_t item = la_item_size(kind), shape[RC_MAX_NDIM] = {p->n};
  for (int d = 1; d < nd; d++) shape[d] = a->shape[d];
  RtStatus st = la_new_result(out, nd, shape, item);
  for (int64_t i = 0; !st && i < p->n * p->cols; i++) la_store(out->data + i * item, kind, p->c[i]);
  return st;
}

static RtStatus result(RtArray *out, const Poly *p, int kind) { return result_shaped(out, p, kind, NULL, 1); }

/* NumPy's _add and _sub: into the longer one, its sum trimmed */
static RtStatus add(const Poly *x, const Poly *y, bool subtract, Poly *r) {
  RtStatus st = new_poly(r, x->n > y->n ? x->n : y->n);
  for (int64_t i = 0; !st && i < r->n; i++) {
    zdouble a = i < x->n ? x->c[i] : 0, b = i < y->n ? y->c[i] : 0;
    r->c[i] = subtract ? a - b : a + b;
  }
  if (!st) trim(r);
  return st;
}

/* numpy.convolve(x, y), trimmed */
static RtStatus multiply(const Poly *x, const Poly *y, int kind, Poly *r) {
  RtStatus st = new_poly(r, x->n + y->n - 1);
  for (int64_t k = 0; !st && k < r->n; k++) {
    zdouble s = 0;
    for (int64_t i = k < y->n ? 0 : k - y->n + 1; i < x->n && i <= k; i++) s += mul(x->c[i], y->c[k - i], kind);
    r->c[k] = s;
  }
  if (!st) trim(r);
  return st;
}

/* NumPy's long division: the quotient's coefficients from the highest,
 * each the remainder's leading one over y's; the remainder trimmed */
static RtStatus divide(Poly *x, const Poly *y, int kind, Poly *q) {
  zdouble lead = y->c[y->n - 1];
  if (lead == 0) {
    rt_set_error(RT_ERR_ZERODIV, "");
    return RT_ERR_ZERODIV;
  }
  if (x->n < y->n) {  /* quotient x[:1]*0, remainder x */
    RtStatus st = new_poly(q, 1);
    if (!st) q->c[0] = mul(x->c[0], 0.0, kind);
    return st;
  }
  if (y->n == 1) {  /* quotient x/y[-1], remainder x[:1]*0 */
    RtStatus st = new_poly(q, x->n);
    for (int64_t i = 0; !st && i < x->n; i++) q->c[i] = quotient(x->c[i], lead, kind);
    x->c[0] = mul(x->c[0], 0.0, kind), x->n = 1;
    return st;
  }
  RtStatus st = new_poly(q, x->n - y->n + 1);
  for (int64_t i = q->n - 1; !st && i >= 0; i--) {
    zdouble k = quotient(x->c[x->n - 1], lead, kind);
    for (int64_t j = 0; j < x->n - 1; j++) x->c[j] -= mul(k, j >= i ? y->c[j - i] : 0.0, kind);
    x->n--;
    q->c[i] = k;
  }
  trim(x);
  return st;
}

/* whether p is one coefficient, zero in every column */
static bool lone_zero(const Poly *p) {
  if (p->n != 1) return false;
  for (int64_t j = 0; j < p->cols; j++)
    if (p->c[j] != 0) return false;
  return true;
}

/* polyint(c, m): m times, c[j]/(j + 1) moved up one place, the constant
 * 0 - polyval(0, ...) (NumPy's k=[], lbnd=0); a lone zero stays */
static RtStatus integrate(Poly *p, int64_t m, int kind) {
  if (m < 0) {
    rt_set_error(RT_ERR_VALUE, "The order of integration must be non-negative");
    return RT_ERR_VALUE;
  }
  for (int64_t t = 0; t < m; t++) {
    if (lone_zero(p)) continue;
    if (p->n == 0) {
      rt_set_error(RT_ERR_INDEX, "index 0 is out of bounds for axis 0 with size 0");
      return RT_ERR_INDEX;
    }
    Poly r;
    int64_t w = p->cols;
    RtStatus st = new_polys(&r, p->n + 1, w);
    if (st) return st;
    for (int64_t k = 0; k < w; k++) {
      r.c[k] = mul(p->c[k], 0.0, kind), r.c[w + k] = p->c[k];
      for (int64_t j = 1; j < p->n; j++) r.c[(j + 1) * w + k] = quotient(p->c[j * w + k], (double)(j + 1), kind);
      zdouble at0 = r.c[(r.n - 1) * w + k] + 0.0;  /* polyval(0, r) as Horner's rule sums it */
      for (int64_t j = r.n - 2; j >= 0; j--) at0 = r.c[j * w + k] + mul(at0, 0.0, kind);
      r.c[k] += 0.0 - at0;
    }
    free(p->c);
    *p = r;
  }
  return RT_OK;
}

/* polyder(c, m): m times, j*c[j] moved down one place; c[:1]*0 where m
 * reaches c's length */
static RtStatus differentiate(Poly *p, int64_t m, int kind) {
  if (m < 0) {
    rt_set_error(RT_ERR_VALUE, "The order of derivation must be non-negative");
    return RT_ERR_VALUE;
  }
  if (m == 0) return RT_OK;
  int64_t w = p->cols;
  if (m >= p->n) {
    for (int64_t k = 0; p->n && k < w; k++) p->c[k] = mul(p->c[k], 0.0, kind);
    if (p->n) p->n = 1;
    return RT_OK;
  }
  for (int64_t t = 0; t < m; t++) {
    for (int64_t j = 1; j < p->n; j++)
      for (int64_t k = 0; k < w; k++) p->c[(j - 1) * w + k] = mul((double)j, p->c[j * w + k], kind);
    p->n--;
  }
  return RT_OK;
}

int32_t rt_poly(int32_t op, int32_t kind, const RtArray *a, int32_t nda, const RtArray *b, int64_t m, RtArray *out) {
  for (int i = 0; i < 2; i++) out[i].meminfo = NULL;
  Poly x = {0}, y = {0}, r = {0};
  RtStatus st;
  switch (op) {
  case PL_ADD: case PL_SUB:
    st = as_series(&x, &y, a, b, kind);
    if (!st) st = add(&x, &y, op == PL_SUB, &r);
    break;
  case PL_MUL:
    st = as_series(&x, &y, a, b, kind);
    if (!st) st = multiply(&x, &y, kind, &r);
    break;
  case PL_DIV:
    st = as_series(&x, &y, a, b, kind);
    if (!st) st = divide(&x, &y, kind, &r);
    if (!st) st = result(&out[1], &x, kind);
    break;
  default:
    st = read_poly(&x, a, nda, kind);
    if (!st) st = op == PL_INT ? integrate(&x, m, kind) : differentiate(&x, m, kind);
    r = x, x.c = NULL;
    break;
  }
  if (!st) st = op >= PL_INT ? result_shaped(&out[0], &r, kind, a, nda) : result(&out[0], &r, kind);
  if (st)
    for (int i = 0; i < 2; i++)
      if (out[i].meminfo) rt_meminfo_free(out[i].meminfo), out[i].meminfo = NULL;
  free(x.c), free(y.c), free(r.c);
  return st;
}
