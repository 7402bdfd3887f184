/* stack_rt.c — numpy.linalg's functions of stacks of matrices: an array
 * of shape (..., M, N) is a stack of M x N matrices, and each result is
 * the stack of the results of its matrices (a number's result an array of
 * the stack's shape), as NumPy's gufuncs compute them.
 *
 * Each matrix is handed to the 2-D path (rt_linalg, rt_decomp) as a view;
 * its results are copied into the stacked ones, which are made after the
 * first matrix, when their shapes are known. An empty stack still needs
 * them: its shapes come from the results of one identity matrix of the
 * stack's core shape (which every function takes, and the square-only ones
 * refuse when it is not square, as NumPy's do).
 *
 * solve's b is a stack of vectors (..., M) only where it has one dimension
 * (NumPy 2's rule), else a stack of M x K matrices; the stacks of a and b
 * broadcast against each other.
 *
 * tensorsolve and tensorinv reshape a (copied in C order) into one matrix
 * and reshape the 2-D path's result back.
 */
#include <stdlib.h>
#include <string.h>

#include "builtins/blas.h"

typedef struct Stack {
  bool decomp;         /* rt_decomp's op, else rt_linalg's */
  int op, kind, flags;
  double p;
  int ndb;             /* b's core dimensions: 1 (a vector) or 2; 0 without b */
  int nbatch;          /* the broadcast stack's dimensions */
  int64_t batch[RC_MAX_NDIM];
} Stack;

/* A number result of one matrix: where rt_ puts it, which out slot holds
 * the stack of them, and its kind. */
typedef struct Number {
  int at, slot, kind;
  bool raw;            /* an element of kind at scalar (det), not doubles */
} Number;

static int real_kind(int kind) { return kind == TY_F32 || kind == TY_C64 ? TY_F32 : TY_F64; }
static int64_t item_of(int kind) { return ty_plain[kind].bits / 8; }

/* The core dimensions of out[i] of one matrix (0: no array there). */
static int core_ndim(const Stack *s, int i) {
  if (!s->decomp) return i == 0 && s->op != LA_DET ? (s->op == LA_SOLVE ? s->ndb : 2) : 0;
  bool v = s->flags & LF_VECTORS;
  switch (s->op) {
  case DC_EIGH: case DC_EIG: return i == 0 ? 1 : i == 1 && v ? 2 : 0;
  case DC_SVD: return v ? (i == 1 ? 1 : i < 3 ? 2 : 0) : i == 0;
  case DC_QR: return i == 1 || (i == 0 && !(s->flags & LF_R_ONLY)) ? 2 : 0;
  case DC_CHOLESKY: case DC_PINV: case DC_POWER: return i == 0 ? 2 : 0;
  default: return 0;
  }
}

/* The number results of one matrix (in num); how many. Their stacks go in
 * out[0] (det) or out[2], out[3] (rt_decomp's, past its arrays). */
static int numbers(const Stack *s, Number *num) {
  if (!s->decomp) return s->op == LA_DET ? (num[0] = (Number){0, 0, s->kind, true}, 1) : 0;
  switch (s->op) {
  case DC_SLOGDET:
    num[0] = (Number){0, 2, s->kind, false}, num[1] = (Number){2, 3, real_kind(s->kind), false};
    return 2;
  case DC_NORM: case DC_COND: num[0] = (Number){0, 2, real_kind(s->kind), false}; return 1;
  case DC_RANK: num[0] = (Number){0, 2, TY_I64, false}; return 1;
  default: return 0;
  }
}

static RtStatus one_matrix(const Stack *s, const RtArray *a, const RtArray *b, RtArray *out, double *scalar) {
  if (s->decomp) return rt_decomp(s->op, s->kind, a, 2, b, s->ndb, s->p, s->flags, out, scalar);
  return rt_linalg(s->op, s->kind, a, 2, b, s->ndb, out, scalar, NULL);
}

/* x's last core dimensions at stack index idx (its leading dimensions
 * broadcast against the stack's: the stack's last ones, size 1 repeated) */
static RtArray core_at(const Stack *s, const RtArray *x, int nd, int core, int64_t idx) {
  RtArray v = {.meminfo = NULL, .parent = NULL, .data = x->data};
  int lead = nd - core;
  for (int d = s->nbatch - 1; d >= 0; d--) {
    int64_t i = idx % s->batch[d];
    idx /= s->batch[d];
    int xd = d - (s->nbatch - lead);
    if (xd >= 0 && x->shape[xd] != 1) v.data += i * x->strides[xd];
  }
  for (int d = 0; d < core; d++) v.shape[d] = x->shape[lead + d], v.strides[d] = x->strides[lead + d];
  return v;
}

/* The broadcast stack of a's and b's leading dimensions, in s. */
static RtStatus broadcast(Stack *s, const RtArray *a, int nda, const RtArray *b, int ndb) {
  int la = nda - 2, lb = b ? ndb - s->ndb : 0;
  s->nbatch = la > lb ? la : lb;
  for (int d = 0; d < s->nbatch; d++) {
    int da = d - (s->nbatch - la), db = d - (s->nbatch - lb);
    int64_t x = da >= 0 ? a->shape[da] : 1, y = db >= 0 ? b->shape[db] : 1;
    if (x != y && x != 1 && y != 1) {
      rt_error_format(RT_ERR_VALUE, "operands could not be broadcast together: the stacks of matrices have "
                                    "sizes %lld and %lld in dimension %lld", x, y, d, 0);
      return RT_ERR_VALUE;
    }
    s->batch[d] = x == 1 ? y : x;
  }
  return RT_OK;
}

/* An identity matrix (or zeros, eye false) of x's core shape and kind, in
 * *buf: what an empty stack's one matrix is. */
static RtStatus stand_in(const RtArray *x, int nd, int core, int kind, bool eye, RtArray *v, char **buf) {
  int64_t item = item_of(kind), rows = x->shape[nd - core], cols = core == 2 ? x->shape[nd - 1] : 1;
  *buf = calloc((size_t)(rows * cols + 1), (size_t)item);
  if (!*buf) {
    rt_set_error(RT_ERR_MEMORY, "cannot allocate a matrix");
    return RT_ERR_MEMORY;
  }
  *v = (RtArray){.data = *buf, .shape = {rows, cols}, .strides = {cols * item, item}};
  for (int64_t i = 0; eye && i < rows && i < cols; i++) {
    char *p = *buf + (i * cols + i) * item;
    if (kind == TY_F32 || kind == TY_C64) *(float *)p = 1.0f;
    else *(double *)p = 1.0;
  }
  return RT_OK;
}

static void store_number(char *p, const Number *n, const double *scalar) {
  const double *v = scalar + n->at;
  if (n->raw) memcpy(p, v, (size_t)item_of(n->kind));
  else if (n->kind == TY_I64) *(int64_t *)p = (int64_t)v[0];
  else if (n->kind == TY_F32) *(float *)p = (float)v[0];
  else if (n->kind == TY_F64) *(double *)p = v[0];
  else if (n->kind == TY_C64) ((float *)p)[0] = (float)v[0], ((float *)p)[1] = (float)v[1];
  else ((double *)p)[0] = v[0], ((double *)p)[1] = v[1];
}

/* out's stacks, shaped by one matrix's results r */
static RtStatus make_stacks(const Stack *s, const RtArray *r, const Number *num, int nums, RtArray *out) {
  int64_t shape[RC_MAX_NDIM];
  memcpy(shape, s->batch, sizeof(int64_t) * (size_t)s->nbatch);
  RtStatus st = RT_OK;
  for (int i = 0; !st && i < 4; i++) {
    int core = core_ndim(s, i);
    if (!core) continue;
    for (int d = 0; d < core; d++) shape[s->nbatch + d] = r[i].shape[d];
    st = la_new_result(&out[i], s->nbatch + core, shape, r[i].strides[core - 1]);
  }
  for (int k = 0; !st && k < nums; k++) st = la_new_result(&out[num[k].slot], s->nbatch, shape, item_of(num[k].kind));
  return st;
}

/* one matrix's results r copied into the stacks at index idx */
static void place(const Stack *s, const RtArray *r, const double *scalar, const Number *num, int nums, RtArray *out,
                  int64_t idx) {
  for (int i = 0; i < 4; i++) {
    int core = core_ndim(s, i);
    if (!core) continue;
    int64_t bytes = r[i].strides[0] * r[i].shape[0];
    if (bytes) memcpy(out[i].data + idx * bytes, r[i].data, (size_t)bytes);
  }
  for (int k = 0; k < nums; k++) store_number(out[num[k].slot].data + idx * item_of(num[k].kind), &num[k], scalar);
}

static void release(RtArray *r, int slots) {
  for (int i = 0; i < slots; i++)
    if (r[i].meminfo) rt_meminfo_free(r[i].meminfo), r[i].meminfo = NULL;
}

static RtStatus stacked(Stack *s, const RtArray *a, int nda, const RtArray *b, int ndb, RtArray *out) {
  Number num[2];
  int nums = numbers(s, num);
  RtStatus st = broadcast(s, a, nda, b, ndb);
  if (st) return st;
  int64_t count = 1;
  for (int d = 0; d < s->nbatch; d++) count *= s->batch[d];
  RtArray ea = {0}, eb = {0}, r[4];
  char *abuf = NULL, *bbuf = NULL;
  double scalar[4];
  if (count == 0) {
    st = stand_in(a, nda, 2, s->kind, true, &ea, &abuf);
    if (!st && b) st = stand_in(b, ndb, s->ndb, s->kind, false, &eb, &bbuf);
  }
  for (int64_t idx = 0; !st && idx < (count ? count : 1); idx++) {
    RtArray ma = count ? core_at(s, a, nda, 2, idx) : ea, mb = b && count ? core_at(s, b, ndb, s->ndb, idx) : eb;
    for (int i = 0; i < 4; i++) r[i].meminfo = NULL;
    st = one_matrix(s, &ma, b ? &mb : NULL, r, scalar);
    if (!st && idx == 0) st = make_stacks(s, r, num, nums, out);
    if (!st && count) place(s, r, scalar, num, nums, out, idx);
    release(r, 4);
  }
  free(abuf), free(bbuf);
  if (st) release(out, s->decomp ? 4 : 1);  /* (rt_linalg has one out) */
  return st;
}

/* rt_linalg's solve, inv, det of stacks (nda > 2, or b a stack) */
int32_t rt_linalg_stack(int32_t op, int32_t kind, const RtArray *a, int32_t nda, const RtArray *b, int32_t ndb,
                        RtArray *out) {
  Stack s = {false, op, kind, 0, 0, op == LA_SOLVE ? (ndb == 1 ? 1 : 2) : 0};
  out[0].meminfo = NULL;
  return stacked(&s, a, nda, op == LA_SOLVE ? b : NULL, ndb, out);
}

/* rt_decomp's functions of a stack (nda > 2) */
int32_t rt_decomp_stack(int32_t op, int32_t kind, const RtArray *a, int32_t nda, double p, int32_t flags,
                        RtArray *out) {
  Stack s = {true, op, kind, flags, p, 0};
  for (int i = 0; i < 4; i++) out[i].meminfo = NULL;
  return stacked(&s, a, nda, NULL, 0, out);
}

/* ---------------------------------------------------------------- tensorsolve, tensorinv */

/* a's elements in C order, a new rows x cols matrix */
static RtStatus as_matrix(const RtArray *a, int nd, int64_t rows, int64_t cols, int kind, RtArray *m) {
  int64_t item = item_of(kind), shape[2] = {rows, cols}, strides[RC_MAX_NDIM], stride = item;
  RtStatus st = la_new_result(m, 2, shape, item);
  for (int d = nd - 1; d >= 0; d--) strides[d] = stride, stride *= a->shape[d];
  if (!st && rows && cols) rt_copy_strided(nd, a->shape, m->data, strides, a->data, a->strides, item);
  return st;
}

/* x (a new C-ordered array) given the shape of nd dimensions */
static void reshaped(RtArray *x, int nd, const int64_t *shape, int64_t item) {
  for (int d = nd - 1; d >= 0; d--) x->shape[d] = shape[d], x->strides[d] = item, item *= shape[d];
}

/* numpy.linalg.tensorsolve(a, b): a as a prod(a.shape[:b.ndim]) square
 * matrix, b as a vector; tensorinv(a, ind): a's first ind dimensions the
 * rows, its inverse shaped a.shape[ind:] + a.shape[:ind] */
int32_t rt_tensor(int32_t op, int32_t kind, const RtArray *a, int32_t nda, const RtArray *b, int32_t ndb, int64_t ind,
                  RtArray *out) {
  int64_t rows = 1, cols = 1, count = 1, shape[RC_MAX_NDIM];
  bool solve = op == LA_TENSORSOLVE;
  out->meminfo = NULL;
  if (!solve && ind <= 0) {
    rt_set_error(RT_ERR_VALUE, "Invalid ind argument.");
    return RT_ERR_VALUE;
  }
  int split = solve ? ndb : ind < nda ? (int)ind : nda;
  for (int d = 0; d < nda; d++) *(d < split ? &rows : &cols) *= a->shape[d];
  for (int d = 0; solve && d < ndb; d++) count *= b->shape[d];
  if (solve && rows != cols)
    return la_error("Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])");
  RtArray m = {0}, v = {0};
  double scalar[4];
  RtStatus st = as_matrix(a, nda, rows, cols, kind, &m);
  if (!st && solve) st = as_matrix(b, ndb, count, 1, kind, &v);
  if (!st) st = rt_linalg(solve ? LA_SOLVE : LA_INV, kind, &m, 2, &v, 1, out, scalar, NULL);
  if (m.meminfo) rt_meminfo_free(m.meminfo);
  if (v.meminfo) rt_meminfo_free(v.meminfo);
  if (st) return st;
  for (int d = split; d < nda; d++) shape[d - split] = a->shape[d];
  for (int d = 0; !solve && d < split; d++) shape[nda - split + d] = a->shape[d];
  reshaped(out, solve ? nda - split : nda, shape, item_of(kind));
  return RT_OK;
}
