/* builtins/matrices.c — NumPy's matrix-shaped constructions in compiled
 * code: tri, tril and triu (on the last two axes, a 1-d array as the rows
 * of a square), tril_indices and triu_indices (and their _from forms),
 * diag and diagflat, kron. Each result is a new C-ordered array filled by
 * one loop over its indices; shapes NumPy refuses by their dimensions are
 * TypingErrors.
 */
#include "builtins/builtins.h"

/* ---------------------------------------------------------------- shared */

static bool int_or_absent(Infer *in, Node *n, Node *x, const char *what) {
  if (!x || ty_is_int(x->ty)) return true;
  return ty_error(in, x, "%s(): %s must be an integer, got %s", n->bi->name, what, x->ty->name) != NULL;
}

static LLVMValueRef int_or(Lower *l, Node *x, int64_t dflt) {
  return x ? lo_expr_as(l, x, TYS(TY_I64)) : const_i64(l, dflt);
}

static LLVMValueRef clamp(Lower *l, LLVMValueRef v, LLVMValueRef lo, LLVMValueRef hi) {
  v = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, v, lo, ""), lo, v, "");
  return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, v, hi, ""), hi, v, "");
}

static LLVMValueRef element_at(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef *idx) {
  return lo_load_scalar(l, t->elem, lo_element_addr(l, t, a, idx));
}

/* NumPy's tri counts rows and columns with arange: fewer than none are none */
static LLVMValueRef at_least_zero(Lower *l, LLVMValueRef v) {
  LLVMValueRef zero = const_i64(l, 0);
  return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, v, zero, ""), zero, v, "");
}

/* Whether element (i, j) is kept: on or below diagonal k (tri, tril:
 * j - i <= k), or on or above it (triu: j - i >= k). */
enum { LOWER, UPPER };

static LLVMValueRef kept(Lower *l, int side, LLVMValueRef i, LLVMValueRef j, LLVMValueRef k) {
  LLVMValueRef d = LLVMBuildSub(l->b, j, i, "");
  return LLVMBuildICmp(l->b, side == UPPER ? LLVMIntSGE : LLVMIntSLE, d, k, "");
}

/* ---------------------------------------------------------------- tri */

/* numpy.tri(N, M=None, k=0, dtype=float) */
static const Type *ty_tri(Infer *in, Node *n, const Type **args) {
  bi_none_as_default(bi_arg(n, 1, "M"));  /* tri(n, None, k): M's default, N */
  if (!int_or_absent(in, n, n->list.items[0], "N") || !int_or_absent(in, n, bi_arg(n, 1, "M"), "M") ||
      !int_or_absent(in, n, bi_arg(n, 2, "k"), "k"))
    return NULL;
  const Type *e = np_dtype_arg(in, n, 3, TYS(TY_F64));
  return e ? ty_array(e, 2, 'C', false) : NULL;
}

typedef struct Triangle {
  const Type *src_t, *out_t;  /* src_t: NULL for tri's ones */
  LLVMValueRef src, out, k;
  int side;
} Triangle;

/* out[..., i, j]: the source's element where kept, else zero */
static void triangle_element(Lower *l, LLVMValueRef *idx, void *arg) {
  Triangle *t = arg;
  const Type *e = t->out_t->elem;
  int nd = t->out_t->ndim;
  LLVMValueRef keep = kept(l, t->side, idx[nd - 2], idx[nd - 1], t->k);
  LLVMValueRef v = lo_convert(l, const_i64(l, 1), TYS(TY_I64), e);
  if (t->src_t) v = element_at(l, t->src_t, t->src, t->src_t->ndim == 1 ? &idx[nd - 1] : idx);
  v = LLVMBuildSelect(l->b, keep, v, LLVMConstNull(lo_type(l, e)), "");
  lo_store_scalar(l, e, lo_element_addr(l, t->out_t, t->out, idx), v);
}

static LLVMValueRef lo_tri(Lower *l, Node *n) {
  LLVMValueRef rows = at_least_zero(l, lo_expr_as(l, n->list.items[0], TYS(TY_I64)));
  Node *m = bi_arg(n, 1, "M");
  LLVMValueRef cols = m ? at_least_zero(l, lo_expr_as(l, m, TYS(TY_I64))) : rows;
  Triangle t = {NULL, n->ty, NULL, NULL, int_or(l, bi_arg(n, 2, "k"), 0), LOWER};
  LLVMValueRef shape[2] = {rows, cols};
  t.out = lo_alloc_array(l, n->ty, shape, -1);
  lo_for_each_index(l, 2, shape, triangle_element, &t);
  return t.out;
}

/* ---------------------------------------------------------------- tril, triu */

/* numpy.tril(m, k=0), numpy.triu(m, k=0) */
static const Type *ty_triangle(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0];
  if (t->kind != TY_ARRAY || t->ndim == 0)
    return ty_error(in, n->list.items[0], "%s() takes an array of at least one dimension, got %s", n->bi->name, t->name);
  if (!int_or_absent(in, n, bi_arg(n, 1, "k"), "k")) return NULL;
  return ty_array(t->elem, t->ndim < 2 ? 2 : t->ndim, 'C', false);
}

static LLVMValueRef lo_triangle(Lower *l, Node *n) {
  Node *a = n->list.items[0];
  Triangle t = {a->ty, n->ty, lo_expr(l, a), NULL, int_or(l, bi_arg(n, 1, "k"), 0), (int)n->bi->ival};
  LLVMValueRef shape[RC_MAX_NDIM];
  int nd = n->ty->ndim;
  for (int d = 0; d < a->ty->ndim; d++) shape[d] = lo_arr_shape(l, t.src, d);
  if (a->ty->ndim == 1) shape[1] = shape[0];  /* the vector as every row of a square */
  t.out = lo_alloc_array(l, n->ty, shape, -1);
  lo_for_each_index(l, nd, shape, triangle_element, &t);
  lo_done_with(l, a, t.src);
  return t.out;
}

/* ---------------------------------------------------------------- tril_indices, triu_indices */

enum { INDICES, INDICES_FROM };  /* the row's ival: side * 2 + form */

static const Type *index_pair(void) {
  const Type *at = ty_array(TYS(TY_I64), 1, 'C', false);
  return ty_tuple(2, (const Type *[]){at, at});
}

/* numpy.tril_indices(n, k=0, m=None), numpy.tril_indices_from(arr, k=0) */
static const Type *ty_tri_indices(Infer *in, Node *n, const Type **args) {
  Node *x = n->list.items[0];
  if (n->bi->ival % 2 == INDICES_FROM) {
    if (x->ty->kind != TY_ARRAY || x->ty->ndim != 2)
      return ty_error(in, x, "%s(): input array must be 2-d, got %s", n->bi->name, x->ty->name);
  } else if (!int_or_absent(in, n, x, "n") || !int_or_absent(in, n, bi_arg(n, 2, "m"), "m")) {
    return NULL;
  }
  if (!int_or_absent(in, n, bi_arg(n, 1, "k"), "k")) return NULL;
  return index_pair();
}

typedef struct RowSpan {
  LLVMValueRef from, to;
} RowSpan;

/* the kept columns of row i of an (rows, cols) triangle: [from, to) */
static RowSpan row_span(Lower *l, int side, LLVMValueRef i, LLVMValueRef k, LLVMValueRef cols) {
  LLVMValueRef zero = const_i64(l, 0), diag = LLVMBuildAdd(l->b, i, k, "");
  if (side == UPPER) return (RowSpan){clamp(l, diag, zero, cols), cols};
  return (RowSpan){zero, clamp(l, LLVMBuildAdd(l->b, diag, const_i64(l, 1), ""), zero, cols)};
}

/* NumPy's nonzero(tri(...)): the kept (i, j) in C order, counted by
 * rows, then written */
static LLVMValueRef lo_tri_indices(Lower *l, Node *n) {
  int side = (int)n->bi->ival / 2;
  Node *x = n->list.items[0];
  LLVMValueRef rows, cols, k = int_or(l, bi_arg(n, 1, "k"), 0);
  if (n->bi->ival % 2 == INDICES_FROM) {
    LLVMValueRef v = lo_expr(l, x);
    rows = lo_arr_shape(l, v, 0), cols = lo_arr_shape(l, v, 1);
    lo_done_with(l, x, v);
  } else {
    Node *m = bi_arg(n, 2, "m");
    rows = at_least_zero(l, lo_expr_as(l, x, TYS(TY_I64)));
    cols = m ? at_least_zero(l, lo_expr_as(l, m, TYS(TY_I64))) : rows;
  }
  LLVMValueRef total = lo_alloca(l, l->mod->i64, "tri.count");
  LLVMBuildStore(l->b, const_i64(l, 0), total);
  LoLoop count = lo_loop_begin(l, const_i64(l, 0), rows, NULL, "tri.count");
  RowSpan s = row_span(l, side, count.index, k, cols);
  LLVMValueRef width = LLVMBuildSub(l->b, s.to, s.from, "");
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->mod->i64, total, ""), width, ""), total);
  lo_loop_end(l, &count);
  const Type *at = n->ty->fields[0], *e = at->elem;
  LLVMValueRef len = LLVMBuildLoad2(l->b, l->mod->i64, total, "");
  LLVMValueRef ri = lo_alloc_array(l, at, &len, -1);
  lo_temp_made(l, at, ri);
  LLVMValueRef ci = lo_alloc_array(l, at, &len, -1);
  lo_temp_taken(l, ri);
  LLVMValueRef at_pos = lo_alloca(l, l->mod->i64, "tri.at");
  LLVMBuildStore(l->b, const_i64(l, 0), at_pos);
  LoLoop row = lo_loop_begin(l, const_i64(l, 0), rows, NULL, "tri.row");
  s = row_span(l, side, row.index, k, cols);
  LoLoop col = lo_loop_begin(l, s.from, s.to, NULL, "tri.col");
  LLVMValueRef p = LLVMBuildLoad2(l->b, l->mod->i64, at_pos, "");
  lo_store_scalar(l, e, lo_element_addr(l, at, ri, &p), row.index);
  lo_store_scalar(l, e, lo_element_addr(l, at, ci, &p), col.index);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, p, const_i64(l, 1), ""), at_pos);
  lo_loop_end(l, &col);
  lo_loop_end(l, &row);
  LLVMValueRef r = LLVMBuildInsertValue(l->b, LLVMGetUndef(lo_type(l, n->ty)), ri, 0, "");
  return LLVMBuildInsertValue(l->b, r, ci, 1, "");
}

/* ---------------------------------------------------------------- diag, diagflat */

enum { DIAG, DIAGFLAT };

/* numpy.diag(v, k=0): a 1-d v on diagonal k of a square of zeros, a 2-d
 * v's diagonal k (a copy); numpy.diagflat(v, k=0): v flattened, on the
 * diagonal */
static const Type *ty_diagonal(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0];
  if (n->bi->ival == DIAGFLAT) {
    if (!bi_need_values(in, n, n->list.items[0])) return NULL;
  } else if (t->kind != TY_ARRAY || t->ndim < 1 || t->ndim > 2) {
    return ty_error(in, n->list.items[0], "%s(): Input must be 1- or 2-d., got %s", n->bi->name, t->name);
  }
  if (!int_or_absent(in, n, bi_arg(n, 1, "k"), "k")) return NULL;
  return ty_array(elem_of(t), n->bi->ival == DIAG && t->ndim == 2 ? 1 : 2, 'C', false);
}

/* the diagonal k of an (rows, cols) matrix: where it starts, (r, c), and its length */
typedef struct Diagonal {
  LLVMValueRef r, c, len;
} Diagonal;

static Diagonal diagonal(Lower *l, LLVMValueRef rows, LLVMValueRef cols, LLVMValueRef k) {
  LLVMValueRef zero = const_i64(l, 0), neg = LLVMBuildICmp(l->b, LLVMIntSLT, k, zero, "");
  LLVMValueRef r = LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, k, ""), zero, ""), c = LLVMBuildSelect(l->b, neg, zero, k, "");
  LLVMValueRef rn = LLVMBuildSub(l->b, rows, r, ""), cn = LLVMBuildSub(l->b, cols, c, "");
  LLVMValueRef len = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, rn, cn, ""), rn, cn, "");
  return (Diagonal){r, c, LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, len, zero, ""), zero, len, "")};
}

/* a 2-d array's diagonal k, in a new 1-d array */
static LLVMValueRef diagonal_of(Lower *l, Node *n, const Type *t, LLVMValueRef v, LLVMValueRef k) {
  Diagonal g = diagonal(l, lo_arr_shape(l, v, 0), lo_arr_shape(l, v, 1), k);
  LLVMValueRef out = lo_alloc_array(l, n->ty, &g.len, -1);
  LoLoop i = lo_loop_begin(l, const_i64(l, 0), g.len, NULL, "diag");
  LLVMValueRef idx[2] = {LLVMBuildAdd(l->b, g.r, i.index, ""), LLVMBuildAdd(l->b, g.c, i.index, "")};
  lo_store_scalar(l, t->elem, lo_element_addr(l, n->ty, out, &i.index), element_at(l, t, v, idx));
  lo_loop_end(l, &i);
  return out;
}

/* count elements of the 1-d array of type ft at flat on diagonal k of a new square of zeros */
static LLVMValueRef diagonal_matrix(Lower *l, Node *n, const Type *ft, LLVMValueRef flat, LLVMValueRef count, LLVMValueRef k) {
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, k, const_i64(l, 0), "");
  LLVMValueRef size = LLVMBuildAdd(l->b, count, LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, k, ""), k, ""), "");
  LLVMValueRef shape[2] = {size, size};
  LLVMValueRef out = lo_alloc_array(l, n->ty, shape, 0);
  Diagonal g = diagonal(l, size, size, k);
  LoLoop i = lo_loop_begin(l, const_i64(l, 0), count, NULL, "diagflat");
  LLVMValueRef idx[2] = {LLVMBuildAdd(l->b, g.r, i.index, ""), LLVMBuildAdd(l->b, g.c, i.index, "")};
  lo_store_scalar(l, ft->elem, lo_element_addr(l, n->ty, out, idx), element_at(l, ft, flat, &i.index));
  lo_loop_end(l, &i);
  return out;
}

static LLVMValueRef lo_diagonal(Lower *l, Node *n) {
  Node *v = n->list.items[0];
  LLVMValueRef k = int_or(l, bi_arg(n, 1, "k"), 0);
  if (n->bi->ival == DIAG && v->ty->ndim == 2) {
    LLVMValueRef a = lo_expr(l, v), r = diagonal_of(l, n, v->ty, a, k);
    lo_done_with(l, v, a);
    return r;
  }
  if (n->bi->ival == DIAG) {  /* a 1-d array: its elements where they are */
    LLVMValueRef a = lo_expr(l, v), r = diagonal_matrix(l, n, v->ty, a, lo_arr_shape(l, a, 0), k);
    lo_done_with(l, v, a);
    return r;
  }
  const Type *ft = ty_array(n->ty->elem, 1, 'C', false);
  LLVMValueRef count, flat = np_joined_elements(l, &v, 1, n->ty->elem, &count);
  LLVMValueRef r = diagonal_matrix(l, n, ft, flat, count, k);
  lo_release_temp(l, ft, flat);
  return r;
}

/* ---------------------------------------------------------------- kron */

/* numpy.kron(a, b): of arrays (or numbers) of NumPy's numbers, their
 * shapes padded in front with ones to the larger number of dimensions */
static const Type *ty_kron(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < 2; i++)
    if (!bi_need_values(in, n, n->list.items[i])) return NULL;
  int nd = ndim_of(args[0]) > ndim_of(args[1]) ? ndim_of(args[0]) : ndim_of(args[1]);
  if (2 * nd > RC_MAX_NDIM) return ty_error(in, n, "%s(): at most %d dimensions", n->bi->name, RC_MAX_NDIM / 2);
  return ty_array(np_promote(elem_of(args[0]), elem_of(args[1])), nd, 'C', false);
}

typedef struct Kron {
  const Type *ta, *tb, *out_t;
  LLVMValueRef a, b, out, bshape[RC_MAX_NDIM];
} Kron;

/* an operand's element at its part of idx (its last ndim entries of nd), or the number itself */
static LLVMValueRef operand_at(Lower *l, const Type *t, LLVMValueRef v, LLVMValueRef *idx, int nd) {
  if (t->kind != TY_ARRAY) return v;
  return element_at(l, t, v, idx + nd - t->ndim);
}

/* idx: a's index then b's, nd each: out[ia * shape(b) + ib] = a[ia] * b[ib] */
static void kron_element(Lower *l, LLVMValueRef *idx, void *arg) {
  Kron *k = arg;
  const Type *e = k->out_t->elem;
  int nd = k->out_t->ndim;
  LLVMValueRef at[RC_MAX_NDIM];
  for (int d = 0; d < nd; d++) at[d] = LLVMBuildAdd(l->b, LLVMBuildMul(l->b, idx[d], k->bshape[d], ""), idx[nd + d], "");
  LLVMValueRef x = lo_convert(l, operand_at(l, k->ta, k->a, idx, nd), elem_of(k->ta), e);
  LLVMValueRef y = lo_convert(l, operand_at(l, k->tb, k->b, idx + nd, nd), elem_of(k->tb), e);
  lo_store_scalar(l, e, lo_element_addr(l, k->out_t, k->out, at), lo_arith(l, OP_MUL, e, x, y));
}

static LLVMValueRef lo_kron(Lower *l, Node *n) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  int nd = n->ty->ndim;
  Kron k = {a->ty, b->ty, n->ty, lo_expr(l, a), lo_expr(l, b), NULL, {0}};
  LLVMValueRef loops[RC_MAX_NDIM], shape[RC_MAX_NDIM];
  for (int d = 0; d < nd; d++) {
    int da = d - (nd - ndim_of(a->ty)), db = d - (nd - ndim_of(b->ty));
    loops[d] = da >= 0 ? lo_arr_shape(l, k.a, da) : const_i64(l, 1);
    k.bshape[d] = loops[nd + d] = db >= 0 ? lo_arr_shape(l, k.b, db) : const_i64(l, 1);
    shape[d] = LLVMBuildMul(l->b, loops[d], k.bshape[d], "");
  }
  k.out = lo_alloc_array(l, n->ty, shape, -1);
  lo_for_each_index(l, 2 * nd, loops, kron_element, &k);
  lo_done_with(l, b, k.b);
  lo_done_with(l, a, k.a);
  return k.out;
}

/* ---------------------------------------------------------------- the rows */

static const char *const tri_kw[] = {"M", "k", "dtype", NULL};
static const char *const k_kw[] = {"k", NULL};
static const char *const indices_kw[] = {"k", "m", NULL};

#define MX_FLAGS (BF_ALLOCATES | BF_RAISES)
#define MX(name, lo, hi, kw, flags, ival, type, lower) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, lo, hi, kw, MX_FLAGS | (flags), ival, 0, type, lower}

const Builtin bi_matrices[] = {
  MX("tri", 1, 4, tri_kw, 0, LOWER, ty_tri, lo_tri),
  MX("tril", 1, 2, k_kw, BF_COMPLEX, LOWER, ty_triangle, lo_triangle),
  MX("triu", 1, 2, k_kw, BF_COMPLEX, UPPER, ty_triangle, lo_triangle),
  MX("tril_indices", 1, 3, indices_kw, BF_INDEXES, LOWER * 2 + INDICES, ty_tri_indices, lo_tri_indices),
  MX("triu_indices", 1, 3, indices_kw, BF_INDEXES, UPPER * 2 + INDICES, ty_tri_indices, lo_tri_indices),
  MX("tril_indices_from", 1, 2, k_kw, BF_COMPLEX | BF_INDEXES, LOWER * 2 + INDICES_FROM, ty_tri_indices, lo_tri_indices),
  MX("triu_indices_from", 1, 2, k_kw, BF_COMPLEX | BF_INDEXES, UPPER * 2 + INDICES_FROM, ty_tri_indices, lo_tri_indices),
  MX("diag", 1, 2, k_kw, BF_COMPLEX, DIAG, ty_diagonal, lo_diagonal),
  MX("diagflat", 1, 2, k_kw, BF_COMPLEX | BF_ARRAYLIKE, DIAGFLAT, ty_diagonal, lo_diagonal),
  MX("kron", 2, 2, NULL, BF_COMPLEX, 0, ty_kron, lo_kron),
  BI_END,
};
