/* builtins/arraymath.c — small NumPy array functions in compiled code:
 * outer, cross (of 3- and 2-vectors, and Numba's cross2d), trace (of a 2-d array, complex too), vander, meshgrid
 * (of two arrays), trapezoid (along the last axis), convolve and correlate (complex too). Their arithmetic is
 * NumPy's on elements: ints wrap, bools are logical; float sums are
 * NumPy's pairwise sum (rt_sum at run time), so they are the same to the
 * bit.
 */
#include <string.h>

#include "builtins/builtins.h"

/* ---------------------------------------------------------------- elements */

static LLVMValueRef multiply(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (t->kind == TY_BOOL) return LLVMBuildAnd(l->b, a, b, "");
  if (ty_is_complex(t)) return lo_arith(l, OP_MUL, t, a, b);
  return ty_is_float(t) ? LLVMBuildFMul(l->b, a, b, "") : LLVMBuildMul(l->b, a, b, "");
}

static LLVMValueRef subtract(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (ty_is_complex(t)) return lo_arith(l, OP_SUB, t, a, b);
  return ty_is_float(t) ? LLVMBuildFSub(l->b, a, b, "") : LLVMBuildSub(l->b, a, b, "");
}

static LLVMValueRef add(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (t->kind == TY_BOOL) return LLVMBuildOr(l->b, a, b, "");
  if (ty_is_complex(t)) return lo_arith(l, OP_ADD, t, a, b);
  return ty_is_float(t) ? LLVMBuildFAdd(l->b, a, b, "") : LLVMBuildAdd(l->b, a, b, "");
}

/* element i (an i64) of the 1-d array of type t at data, stride bytes apart */
static LLVMValueRef load_at(Lower *l, const Type *t, LLVMValueRef data, LLVMValueRef stride, LLVMValueRef i) {
  LLVMValueRef offset = LLVMBuildMul(l->b, i, stride, "");
  return lo_load_scalar(l, t, LLVMBuildGEP2(l->b, l->mod->i8, data, &offset, 1, ""));
}

static LLVMValueRef data_of(Lower *l, LLVMValueRef a) { return LLVMBuildExtractValue(l->b, a, 2, ""); }

static LLVMValueRef item_ptr(Lower *l, const Type *t, LLVMValueRef data, LLVMValueRef i) {
  return LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, t), data, &i, 1, "");
}

/* The elements of an array or number x, in C order, as elem in a new 1-d
 * temp (its number of elements in *count). */
static LLVMValueRef flat_temp(Lower *l, Node *x, const Type *elem, LLVMValueRef *count) {
  return np_joined_elements(l, &x, 1, elem, count);
}

/* ---------------------------------------------------------------- outer */

static bool need_values(Infer *in, Node *n, Node *x, const char *what) {
  if (x && (x->ty->kind == TY_ARRAY || ty_is_scalar(x->ty))) return true;
  return ty_error(in, x ? x : n, "%s(): %s must be an array or a number, got %s", n->bi->name, what, x ? x->ty->name : "nothing") != NULL;
}

/* numpy.outer(a, b[, out]): out, a 2-d array taking the product's dtype,
 * gets the product (of its shape exactly) and is the result, as NumPy's. */
static const Type *ty_outer(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *b = n->list.items[1], *out = bi_arg(n, 2, "out");
  if (!need_values(in, n, a, "a") || !need_values(in, n, b, "b")) return NULL;
  const Type *t = ty_array(np_promote(elem_of(a->ty), elem_of(b->ty)), 2, 'C', false);
  if (!out) return t;
  if (out->ty->kind == TY_ARRAY && out->ty->ndim != 2)
    return ty_error(in, out, "%s()'s out= must have 2 dimensions, got %s", n->bi->name, out->ty->name);
  return ty_out_operand(in, n, t, out);
}

/* the product p (of type pt) copied into out, which must have its shape */
static LLVMValueRef outer_into(Lower *l, Node *out, const Type *pt, LLVMValueRef p) {
  LLVMValueRef o = lo_expr(l, out);
  LLVMValueRef got[2] = {lo_arr_shape(l, o, 0), lo_arr_shape(l, o, 1)}, want[2] = {lo_arr_shape(l, p, 0), lo_arr_shape(l, p, 1)};
  LLVMValueRef bad = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, got[0], want[0], ""),
                                 LLVMBuildICmp(l->b, LLVMIntNE, got[1], want[1], ""), "");
  lo_raise_shape_error(l, bad, 1, 2, (const int[]){2, 2}, (const LLVMValueRef *const[]){got, want});
  lo_copy_elements(l, out->ty, o, pt, p);
  lo_release_temp(l, pt, p);
  lo_refcount(l, out->ty, o, true);  /* the result is a new reference to out */
  lo_done_with(l, out, o);
  return o;
}

static LLVMValueRef lo_outer(Lower *l, Node *n) {
  Node *into = bi_arg(n, 2, "out");
  /* the product's own dtype: out's may differ, its elements converted */
  const Type *t = into ? np_promote(elem_of(n->list.items[0]->ty), elem_of(n->list.items[1]->ty)) : n->ty->elem;
  const Type *ft = ty_array(t, 1, 'C', false), *pt = ty_array(t, 2, 'C', false);
  LLVMValueRef na, nb, fa = flat_temp(l, n->list.items[0], t, &na), fb = flat_temp(l, n->list.items[1], t, &nb);
  LLVMValueRef out = lo_alloc_array(l, pt, (LLVMValueRef[]){na, nb}, -1), od = data_of(l, out);
  LLVMValueRef size = const_i64(l, ty_bits(t) / 8);
  LoLoop rows = lo_loop_begin(l, const_i64(l, 0), na, NULL, "outer.row");
  LLVMValueRef x = load_at(l, t, data_of(l, fa), size, rows.index), base = LLVMBuildMul(l->b, rows.index, nb, "");
  LoLoop cols = lo_loop_begin(l, const_i64(l, 0), nb, NULL, "outer.col");
  LLVMValueRef y = load_at(l, t, data_of(l, fb), size, cols.index);
  lo_store_scalar(l, t, item_ptr(l, t, od, LLVMBuildAdd(l->b, base, cols.index, "")), multiply(l, t, x, y));
  lo_loop_end(l, &cols);
  lo_loop_end(l, &rows);
  lo_release_temp(l, ft, fb);
  lo_release_temp(l, ft, fa);
  return into ? outer_into(l, into, pt, out) : out;
}

/* ---------------------------------------------------------------- cross */

/* numpy.cross(a, b) of vectors of 3 (or 2, z read as absent) elements
 * along the last axis, and Numba's numba.np.extensions.cross2d(a, b) of
 * 2-vectors (the z of their cross product); the other axes broadcast
 * as NumPy's. */
enum { CROSS_3D, CROSS_2D };

static const Type *ty_cross(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  for (int i = 0; i < 2; i++) {
    const Type *t = n->list.items[i]->ty;
    if (t->kind != TY_ARRAY || t->ndim == 0 || t->elem->kind == TY_BOOL)
      return ty_error(in, n->list.items[i], "%s() needs arrays of numbers (%d-vectors along the last axis), got %s",
                      n->bi->name, n->bi->ival == CROSS_2D ? 2 : 3, t->name);
  }
  int nd = a->ty->ndim > b->ty->ndim ? a->ty->ndim : b->ty->ndim;
  return ty_array(np_promote(a->ty->elem, b->ty->elem), n->bi->ival == CROSS_2D ? nd - 1 : nd, 'C', false);
}

typedef struct Cross {
  const Type *ta, *tb, *t;
  LLVMValueRef a, b, out;
  LLVMValueRef la, lb; /* the lengths of a's and b's last axes */
  int lead;            /* the result's axes before its vectors' */
  bool planar;         /* cross2d: the z alone */
} Cross;

/* component k (0, 1 or 2) of the vector of x (of type t, length len) at the
 * result's leading index idx, as c->t; *present: whether x has it */
static LLVMValueRef component(Lower *l, const Cross *c, const Type *t, LLVMValueRef x, LLVMValueRef len,
                              LLVMValueRef *idx, int k, LLVMValueRef *present) {
  LLVMValueRef at[RC_MAX_NDIM], one = const_i64(l, 1);
  int last = t->ndim - 1, skip = c->lead - last;
  for (int d = 0; d < last; d++)  /* a length of 1 broadcast */
    at[d] = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, lo_arr_shape(l, x, d), one, ""), const_i64(l, 0),
                            idx[skip + d], "");
  *present = k < 2 ? const_bool(l, true) : LLVMBuildICmp(l->b, LLVMIntEQ, len, const_i64(l, 3), "");
  at[last] = k < 2 ? const_i64(l, k) : LLVMBuildSub(l->b, len, one, "");  /* (a 2-vector's y, then not read) */
  return lo_convert(l, lo_load_scalar(l, t->elem, lo_element_addr(l, t, x, at)), t->elem, c->t);
}

static LLVMValueRef negate(Lower *l, const Type *t, LLVMValueRef v) {
  if (ty_is_complex(t)) return lo_complex_neg(l, t, v);
  return ty_is_float(t) ? LLVMBuildFNeg(l->b, v, "") : LLVMBuildNeg(l->b, v, "");
}

/* x_i*y_j - x_j*y_i, NumPy's: a term with an absent component left out
 * (the other alone, negated where it is the second) */
static LLVMValueRef cross_term(Lower *l, const Cross *c, LLVMValueRef *x, LLVMValueRef *px, LLVMValueRef *y,
                               LLVMValueRef *py, int i, int j) {
  LLVMValueRef p = multiply(l, c->t, x[i], y[j]), q = multiply(l, c->t, x[j], y[i]);
  LLVMValueRef has_p = LLVMBuildAnd(l->b, px[i], py[j], ""), has_q = LLVMBuildAnd(l->b, px[j], py[i], "");
  LLVMValueRef one = LLVMBuildSelect(l->b, has_p, p, negate(l, c->t, q), "");
  return LLVMBuildSelect(l->b, LLVMBuildAnd(l->b, has_p, has_q, ""), subtract(l, c->t, p, q), one, "");
}

/* one vector of the result (cross2d: one number) */
static void cross_vector(Lower *l, LLVMValueRef *idx, void *arg) {
  Cross *c = arg;
  int n = c->planar ? 2 : 3;
  LLVMValueRef x[3], y[3], px[3], py[3], at[RC_MAX_NDIM];
  for (int k = 0; k < n; k++) {
    x[k] = component(l, c, c->ta, c->a, c->la, idx, k, &px[k]);
    y[k] = component(l, c, c->tb, c->b, c->lb, idx, k, &py[k]);
  }
  for (int d = 0; d < c->lead; d++) at[d] = idx[d];
  const Type *ot = ty_array(c->t, c->lead + !c->planar, 'C', false);
  for (int k = c->planar ? 2 : 0; k < 3; k++) {
    at[c->lead] = const_i64(l, k);
    lo_store_scalar(l, c->t, lo_element_addr(l, ot, c->out, at), cross_term(l, c, x, px, y, py, (k + 1) % 3, (k + 2) % 3));
  }
}

/* ValueErrors where the vectors' lengths are not NumPy's (Numba's words) */
static void check_vector_lengths(Lower *l, const Cross *c) {
  LLVMValueRef two = const_i64(l, 2), three = const_i64(l, 3);
  LLVMValueRef a2 = LLVMBuildICmp(l->b, LLVMIntEQ, c->la, two, ""), b2 = LLVMBuildICmp(l->b, LLVMIntEQ, c->lb, two, "");
  if (c->planar) {
    lo_raise_if(l, LLVMBuildNot(l->b, LLVMBuildAnd(l->b, a2, b2, ""), ""), RT_ERR_VALUE,
                "Incompatible dimensions for 2D cross product\n(dimension must be 2 for both inputs)");
    return;
  }
  if (rt_numpy_version >= 205) {  /* NumPy 2.5 takes 3-vectors alone (2-vectors were deprecated in 2.0) */
    LLVMValueRef other = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, c->la, three, ""),
                                     LLVMBuildICmp(l->b, LLVMIntNE, c->lb, three, ""), "");
    lo_raise_format_if(l, other, RT_ERR_VALUE, "Both input arrays must be (arrays of) 3-dimensional vectors, but they "
                       "are %lld and %lld dimensional instead.", (LLVMValueRef[]){c->la, c->lb}, 2);
    return;
  }
  LLVMValueRef a_ok = LLVMBuildOr(l->b, a2, LLVMBuildICmp(l->b, LLVMIntEQ, c->la, three, ""), "");
  LLVMValueRef b_ok = LLVMBuildOr(l->b, b2, LLVMBuildICmp(l->b, LLVMIntEQ, c->lb, three, ""), "");
  lo_raise_if(l, LLVMBuildNot(l->b, LLVMBuildAnd(l->b, a_ok, b_ok, ""), ""), RT_ERR_VALUE,
              "Incompatible dimensions for cross product\n(dimension must be 2 or 3)");
  lo_raise_if(l, LLVMBuildAnd(l->b, a2, b2, ""), RT_ERR_VALUE,
              "Dimensions for both inputs is 2.\nPlease replace your numpy.cross(a, b) call with a call to "
              "`cross2d(a, b)` from `numba.np.extensions`.");
}

static LLVMValueRef lo_cross(Lower *l, Node *n) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  bool planar = n->bi->ival == CROSS_2D;
  int lead = (a->ty->ndim > b->ty->ndim ? a->ty->ndim : b->ty->ndim) - 1;
  Cross c = {a->ty, b->ty, n->ty->elem, lo_expr(l, a), lo_expr(l, b), NULL, NULL, NULL, lead, planar};
  c.la = lo_arr_shape(l, c.a, a->ty->ndim - 1), c.lb = lo_arr_shape(l, c.b, b->ty->ndim - 1);
  check_vector_lengths(l, &c);
  LLVMValueRef shape[RC_MAX_NDIM], sa[RC_MAX_NDIM], sb[RC_MAX_NDIM], bad = const_bool(l, false);
  for (int d = 0; d < lead; d++) shape[d] = const_i64(l, 1);
  for (int d = 0; d < a->ty->ndim - 1; d++) sa[d] = lo_arr_shape(l, c.a, d);
  for (int d = 0; d < b->ty->ndim - 1; d++) sb[d] = lo_arr_shape(l, c.b, d);
  bad = np_broadcast_into(l, shape, lead, sa, a->ty->ndim - 1, bad);
  bad = np_broadcast_into(l, shape, lead, sb, b->ty->ndim - 1, bad);
  lo_raise_if(l, bad, RT_ERR_VALUE, "shape mismatch: objects cannot be broadcast to a single shape");
  shape[lead] = const_i64(l, 3);
  c.out = lo_alloc_array(l, n->ty, shape, -1);
  shape[lead] = const_i64(l, 1);  /* one call a vector */
  lo_for_each_index(l, lead + 1, shape, cross_vector, &c);
  lo_done_with(l, b, c.b);
  lo_done_with(l, a, c.a);
  return c.out;
}

/* ---------------------------------------------------------------- trace */

/* NumPy's dtype of a sum: int64 for bools and signed ints, uint64 for unsigned ones */
static const Type *sum_dtype(const Type *e) {
  if (ty_is_float(e) || ty_is_complex(e)) return e;
  return e->kind == TY_U8 || e->kind == TY_U16 || e->kind == TY_U32 || e->kind == TY_U64 ? TYS(TY_U64) : TYS(TY_I64);
}

/* The sum of n elements of type t from p, stride bytes apart, as t: NumPy's
 * reduction for floats (rt_sum), a loop for ints (their order is no
 * matter) and complex numbers (in order, as Numba's trace adds them). */
static LLVMValueRef sum_of(Lower *l, const Type *e, const Type *t, LLVMValueRef p, LLVMValueRef n, LLVMValueRef stride) {
  if (ty_is_float(t)) {
    LLVMTypeRef params[4] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i32};
    LLVMValueRef r = lo_call_fn(l, "rt_sum", l->mod->f64, params, (LLVMValueRef[]){p, n, stride, const_i32(l, (int)t->kind)}, 4);
    return lo_convert(l, r, TYS(TY_F64), t);
  }
  LLVMValueRef total = lo_alloca(l, lo_type(l, t), "sum.total");
  LLVMBuildStore(l->b, LLVMConstNull(lo_type(l, t)), total);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), n, NULL, "sum");
  LLVMValueRef x = lo_convert(l, load_at(l, e, p, stride, loop.index), e, t);
  LLVMValueRef sum = LLVMBuildLoad2(l->b, lo_type(l, t), total, "");
  sum = ty_is_complex(t) ? lo_complex_binop(l, OP_ADD, t, sum, t, x, t) : LLVMBuildAdd(l->b, sum, x, "");
  LLVMBuildStore(l->b, sum, total);
  lo_loop_end(l, &loop);
  return LLVMBuildLoad2(l->b, lo_type(l, t), total, "");
}

static const Type *ty_trace(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *offset = bi_arg(n, 1, "offset");
  if (a->ty->kind != TY_ARRAY || a->ty->ndim != 2)
    return ty_error(in, a, "%s() in compiled code takes a 2-d array, got %s", n->bi->name, a->ty->name);
  if (offset && !ty_is_int(offset->ty)) return ty_error(in, offset, "%s(): offset must be an integer, got %s", n->bi->name, offset->ty->name);
  return sum_dtype(a->ty->elem);
}

static LLVMValueRef smax(Lower *l, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, a, b, ""), a, b, "");
}

/* the diagonal offset above the main one (below it where negative): a[i + r, i + c] */
static LLVMValueRef lo_trace(Lower *l, Node *n) {
  Node *a = n->list.items[0], *offset = bi_arg(n, 1, "offset");
  LLVMValueRef v = lo_expr(l, a), k = offset ? lo_expr_as(l, offset, TYS(TY_I64)) : const_i64(l, 0), zero = const_i64(l, 0);
  LLVMValueRef r = smax(l, LLVMBuildNeg(l->b, k, ""), zero), c = smax(l, k, zero);
  LLVMValueRef rows = LLVMBuildSub(l->b, lo_arr_shape(l, v, 0), r, ""), cols = LLVMBuildSub(l->b, lo_arr_shape(l, v, 1), c, "");
  LLVMValueRef count = smax(l, LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, rows, cols, ""), rows, cols, ""), zero);
  LLVMValueRef s0 = lo_arr_stride(l, a->ty, v, 0), s1 = lo_arr_stride(l, a->ty, v, 1);
  LLVMValueRef start = LLVMBuildAdd(l->b, LLVMBuildMul(l->b, r, s0, ""), LLVMBuildMul(l->b, c, s1, ""), "");
  LLVMValueRef p = LLVMBuildGEP2(l->b, l->mod->i8, data_of(l, v), &start, 1, "");
  LLVMValueRef total = sum_of(l, a->ty->elem, n->ty, p, count, LLVMBuildAdd(l->b, s0, s1, ""));
  lo_done_with(l, a, v);
  return total;
}

/* ---------------------------------------------------------------- vander */

static const Type *ty_vander(Infer *in, Node *n, const Type **args) {
  bi_none_as_default(bi_arg(n, 1, "N"));  /* N=None: as many columns as x has elements, as NumPy's default */
  Node *x = n->list.items[0], *count = bi_arg(n, 1, "N"), *increasing = bi_arg(n, 2, "increasing");
  if (x->ty->kind != TY_ARRAY || x->ty->ndim != 1)
    return ty_error(in, x, "%s(): x must be a one-dimensional array, got %s", n->bi->name, x->ty->name);
  if (count && !ty_is_int(count->ty)) return ty_error(in, count, "%s(): N must be an integer, got %s", n->bi->name, count->ty->name);
  if (increasing && increasing->ty->kind != TY_BOOL)
    return ty_error(in, increasing, "%s(): increasing must be a bool, got %s", n->bi->name, increasing->ty->name);
  return ty_array(np_promote(x->ty->elem, TYS(TY_I64)), 2, 'C', false);
}

/* NumPy's: column k (from the right unless increasing) holds x**k as
 * repeated products x*x*...*x, column 0 ones. */
static LLVMValueRef lo_vander(Lower *l, Node *n) {
  Node *x = n->list.items[0], *count = bi_arg(n, 1, "N"), *increasing = bi_arg(n, 2, "increasing");
  const Type *t = n->ty->elem;
  LLVMValueRef v = lo_expr(l, x), len = lo_arr_shape(l, v, 0), cols = count ? lo_expr_as(l, count, TYS(TY_I64)) : len;
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, cols, const_i64(l, 0), ""), RT_ERR_VALUE, "negative dimensions are not allowed");
  LLVMValueRef up = increasing ? lo_expr_as(l, increasing, TYS(TY_BOOL)) : const_bool(l, false);
  LLVMValueRef out = lo_alloc_array(l, n->ty, (LLVMValueRef[]){len, cols}, -1), od = data_of(l, out);
  LLVMValueRef power = lo_alloca(l, lo_type(l, t), "vander.power");
  LoLoop rows = lo_loop_begin(l, const_i64(l, 0), len, NULL, "vander.row");
  LLVMValueRef xi = lo_convert(l, load_at(l, x->ty->elem, data_of(l, v), lo_arr_stride(l, x->ty, v, 0), rows.index), x->ty->elem, t);
  LLVMValueRef base = LLVMBuildMul(l->b, rows.index, cols, "");
  LLVMBuildStore(l->b, lo_convert(l, const_i64(l, 1), TYS(TY_I64), t), power);
  LoLoop k = lo_loop_begin(l, const_i64(l, 0), cols, NULL, "vander.col");
  LLVMValueRef col = LLVMBuildSelect(l->b, up, k.index, LLVMBuildSub(l->b, LLVMBuildSub(l->b, cols, const_i64(l, 1), ""), k.index, ""), "");
  LLVMValueRef p = LLVMBuildLoad2(l->b, lo_type(l, t), power, "");
  lo_store_scalar(l, t, item_ptr(l, t, od, LLVMBuildAdd(l->b, base, col, "")), p);
  LLVMBuildStore(l->b, multiply(l, t, p, xi), power);
  lo_loop_end(l, &k);
  lo_loop_end(l, &rows);
  lo_done_with(l, x, v);
  return out;
}

/* ---------------------------------------------------------------- meshgrid */

static bool ij_indexing(Node *n) {
  Node *ix = bi_arg(n, 2, "indexing");
  return ix && !strcmp(ix->str, "ij");
}

static const Type *ty_meshgrid(Infer *in, Node *n, const Type **args) {
  Node *x = n->list.items[0], *y = bi_arg(n, 1, NULL), *ix = bi_arg(n, 2, "indexing");
  if (!need_values(in, n, x, "x1") || !need_values(in, n, y, "x2")) return NULL;
  if (ix && (ix->kind != N_STRING || (strcmp(ix->str, "xy") && strcmp(ix->str, "ij"))))
    return ty_error(in, ix, "%s(): Valid values for `indexing` are 'xy' and 'ij'.", n->bi->name);
  return ty_tuple(2, (const Type *[]){ty_array(elem_of(x->ty), 2, 'C', false), ty_array(elem_of(y->ty), 2, 'C', false)});
}

/* the grid of x's elements varying along axis `along` of a (rows, cols) array */
static LLVMValueRef grid(Lower *l, const Type *t, LLVMValueRef flat, LLVMValueRef rows, LLVMValueRef cols, int along) {
  LLVMValueRef out = lo_alloc_array(l, t, (LLVMValueRef[]){rows, cols}, -1), od = data_of(l, out);
  LLVMValueRef size = const_i64(l, ty_bits(t->elem) / 8);
  LoLoop r = lo_loop_begin(l, const_i64(l, 0), rows, NULL, "grid.row");
  LoLoop c = lo_loop_begin(l, const_i64(l, 0), cols, NULL, "grid.col");
  LLVMValueRef x = load_at(l, t->elem, data_of(l, flat), size, along ? c.index : r.index);
  lo_store_scalar(l, t->elem, item_ptr(l, t->elem, od, LLVMBuildAdd(l->b, LLVMBuildMul(l->b, r.index, cols, ""), c.index, "")), x);
  lo_loop_end(l, &c);
  lo_loop_end(l, &r);
  return out;
}

static LLVMValueRef lo_meshgrid(Lower *l, Node *n) {
  const Type *tx = n->ty->fields[0], *ty = n->ty->fields[1];
  const Type *fx = ty_array(tx->elem, 1, 'C', false), *fy = ty_array(ty->elem, 1, 'C', false);
  LLVMValueRef nx, ny, x = flat_temp(l, n->list.items[0], tx->elem, &nx), y = flat_temp(l, n->list.items[1], ty->elem, &ny);
  bool ij = ij_indexing(n);
  LLVMValueRef rows = ij ? nx : ny, cols = ij ? ny : nx;
  LLVMValueRef gx = grid(l, tx, x, rows, cols, !ij);
  lo_temp_made(l, tx, gx);
  LLVMValueRef gy = grid(l, ty, y, rows, cols, ij);
  lo_temp_taken(l, gx);
  lo_release_temp(l, fy, y);
  lo_release_temp(l, fx, x);
  LLVMValueRef r = LLVMBuildInsertValue(l->b, LLVMGetUndef(lo_type(l, n->ty)), gx, 0, "");
  return LLVMBuildInsertValue(l->b, r, gy, 1, "");
}

/* ---------------------------------------------------------------- trapezoid */

/* The types of NumPy's d * (y[1:] + y[:-1]) / 2.0: the sum's (y's), the
 * product's (with d: diff(x), or dx a Python float), the result's. */
typedef struct TrapTypes {
  const Type *sum, *product, *result;
} TrapTypes;

static TrapTypes trap_types(Node *y, Node *x) {
  const Type *s = y->ty->elem, *p = x ? np_promote(x->ty->elem, s) : ty_is_float(s) ? s : TYS(TY_F64);
  return (TrapTypes){s, p, ty_is_float(p) ? p : TYS(TY_F64)};
}

/* numpy.trapezoid(y, x=None, dx=1.0): along y's last axis (x a vector of
 * its length), of each of its lines for more dimensions than one, as
 * Numba's */
static const Type *ty_trapezoid(Infer *in, Node *n, const Type **args) {
  Node *y = n->list.items[0], *x = bi_arg(n, 1, "x"), *dx = bi_arg(n, 2, "dx");
  if (y->ty->kind != TY_ARRAY || y->ty->ndim == 0 || y->ty->elem->kind == TY_BOOL)
    return ty_error(in, y, "%s() in compiled code takes an array of numbers of at least one dimension, got %s",
                    n->bi->name, y->ty->name);
  if (x && (x->ty->kind != TY_ARRAY || x->ty->ndim != 1 || x->ty->elem->kind == TY_BOOL))
    return ty_error(in, x, "%s(): x must be a 1-d array of numbers, got %s", n->bi->name, x->ty->name);
  if (x && dx) return ty_error(in, dx, "%s(): give x or dx, not both", n->bi->name);
  if (dx && !ty_is_scalar(dx->ty)) return ty_error(in, dx, "%s(): dx must be a number, got %s", n->bi->name, dx->ty->name);
  const Type *r = trap_types(y, x).result;
  return y->ty->ndim == 1 ? r : ty_array(r, y->ty->ndim - 1, 'C', false);
}

/* A call's operands: y and x (or NULL) lowered, the length and strides of
 * their last axes, the step d where x is absent, and the terms' temporary
 * of len - 1 elements. */
typedef struct Trapezoid {
  TrapTypes tt;
  const Type *yt, *xt;
  LLVMValueRef yv, xv, len, ys, xs, d, terms, terms_n;
  LLVMValueRef out;  /* more dimensions than one: the result array */
  bool in_order;     /* the terms summed in order (of a Fortran-ordered y) */
} Trapezoid;

/* The n floats of type t at p summed in order, as NumPy's add.reduce runs
 * along an axis that is not the innermost of its iteration: from -0.0,
 * which changes no sum, to 0.0 where there is none */
static LLVMValueRef sum_in_order(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef n) {
  LLVMValueRef total = lo_alloca(l, lo_type(l, t), "sum.total");
  LLVMBuildStore(l->b, lo_fconst(l, t, -0.0), total);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), n, NULL, "sum");
  LLVMValueRef x = lo_load_scalar(l, t, item_ptr(l, t, p, loop.index));
  LLVMBuildStore(l->b, LLVMBuildFAdd(l->b, LLVMBuildLoad2(l->b, lo_type(l, t), total, ""), x, ""), total);
  lo_loop_end(l, &loop);
  LLVMValueRef none = LLVMBuildICmp(l->b, LLVMIntEQ, n, const_i64(l, 0), "");
  return LLVMBuildSelect(l->b, none, lo_fconst(l, t, 0.0), LLVMBuildLoad2(l->b, lo_type(l, t), total, ""), "");
}

/* The integral of the line of len elements at ydata: NumPy's terms
 * d * (y[i+1] + y[i]) / 2.0, summed pairwise as NumPy's sum does; of a
 * Fortran-ordered y NumPy's terms are Fortran-ordered too, and its sum
 * along their last axis adds them in order */
static LLVMValueRef trapezoid_line(Lower *l, const Trapezoid *z, LLVMValueRef ydata) {
  const Type *rt = z->tt.result;
  LLVMValueRef td = data_of(l, z->terms);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), z->terms_n, NULL, "trapezoid");
  LLVMValueRef next = LLVMBuildAdd(l->b, loop.index, const_i64(l, 1), "");
  LLVMValueRef s = add(l, z->tt.sum, load_at(l, z->tt.sum, ydata, z->ys, next), load_at(l, z->tt.sum, ydata, z->ys, loop.index));
  LLVMValueRef di = z->d;
  if (z->xv) {
    const Type *e = z->xt->elem;
    LLVMValueRef xd = data_of(l, z->xv);
    di = lo_convert(l, subtract(l, e, load_at(l, e, xd, z->xs, next), load_at(l, e, xd, z->xs, loop.index)), e, z->tt.product);
  }
  LLVMValueRef term = lo_convert(l, multiply(l, z->tt.product, di, lo_convert(l, s, z->tt.sum, z->tt.product)), z->tt.product, rt);
  lo_store_scalar(l, rt, item_ptr(l, rt, td, loop.index), LLVMBuildFDiv(l->b, term, lo_fconst(l, rt, 2.0), ""));
  lo_loop_end(l, &loop);
  if (z->in_order) return sum_in_order(l, rt, td, z->terms_n);
  return sum_of(l, rt, rt, td, z->terms_n, const_i64(l, ty_bits(rt) / 8));
}

/* one line of a y of more dimensions: the result's element at idx */
static void trapezoid_at(Lower *l, LLVMValueRef *idx, void *arg) {
  Trapezoid *z = arg;
  int nd = z->yt->ndim;
  LLVMValueRef at[RC_MAX_NDIM];
  for (int d = 0; d < nd - 1; d++) at[d] = idx[d];
  at[nd - 1] = const_i64(l, 0);  /* (an address only: a line of no element is not read) */
  const Type *ot = ty_array(z->tt.result, nd - 1, 'C', false);
  lo_store_scalar(l, z->tt.result, lo_element_addr(l, ot, z->out, idx),
                  trapezoid_line(l, z, lo_element_addr(l, z->yt, z->yv, at)));
}

static LLVMValueRef lo_trapezoid(Lower *l, Node *n) {
  Node *y = n->list.items[0], *x = bi_arg(n, 1, "x"), *dx = bi_arg(n, 2, "dx");
  int nd = y->ty->ndim;
  Trapezoid z = {trap_types(y, x), y->ty, x ? x->ty : NULL, lo_expr(l, y), x ? lo_expr(l, x) : NULL};
  z.in_order = nd > 1 && y->ty->layout == 'F';
  const Type *at = ty_array(z.tt.result, 1, 'C', false);
  z.len = lo_arr_shape(l, z.yv, nd - 1), z.ys = lo_arr_stride(l, y->ty, z.yv, nd - 1);
  z.xs = x ? lo_arr_stride(l, x->ty, z.xv, 0) : NULL;
  if (x) lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, lo_arr_shape(l, z.xv, 0), z.len, ""), RT_ERR_VALUE,
                     "numpy.trapezoid(): x and y must have the same length");
  z.d = x ? NULL : dx ? lo_expr_as(l, dx, z.tt.product) : lo_convert(l, const_i64(l, 1), TYS(TY_I64), z.tt.product);
  z.terms_n = smax(l, LLVMBuildSub(l->b, z.len, const_i64(l, 1), ""), const_i64(l, 0));
  z.terms = lo_alloc_array(l, at, &z.terms_n, -1);
  lo_temp_made(l, at, z.terms);
  LLVMValueRef r;
  if (nd == 1) {
    r = trapezoid_line(l, &z, data_of(l, z.yv));
  } else {
    LLVMValueRef shape[RC_MAX_NDIM];
    for (int d = 0; d < nd - 1; d++) shape[d] = lo_arr_shape(l, z.yv, d);
    r = z.out = lo_alloc_array(l, n->ty, shape, -1);
    lo_for_each_index(l, nd - 1, shape, trapezoid_at, &z);
  }
  lo_release_temp(l, at, z.terms);
  if (x) lo_done_with(l, x, z.xv);
  lo_done_with(l, y, z.yv);
  return r;
}

/* ---------------------------------------------------------------- convolve, correlate */

enum { CORRELATE, CONVOLVE };
/* mode: a str, constant or known when the call runs (Numba's) */
enum { MODE_VALID, MODE_SAME, MODE_FULL };
static const char *const modes[] = {"valid", "same", "full", NULL};

/* a and v: numbers or 1-d arrays (NumPy's "object too deep" of more
 * dimensions), complex too */
static bool need_vector(Infer *in, Node *n, Node *x, const char *what) {
  if (ty_is_complex(x->ty) || (x->ty->kind == TY_ARRAY && x->ty->ndim <= 1)) return true;
  if (x->ty->kind == TY_ARRAY)
    return ty_error(in, x, "%s(): %s must be a number or a 1-d array, got %s", n->bi->name, what, x->ty->name) != NULL;
  return need_values(in, n, x, what);
}

static const Type *ty_correlate(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *v = n->list.items[1], *m = bi_arg(n, 2, "mode");
  if (!need_vector(in, n, a, "a") || !need_vector(in, n, v, "v")) return NULL;
  if (bi_str_option(m, modes, 0) == BI_OPTION_BAD)
    return ty_error(in, m, "%s(): mode must be one of 'valid', 'same', or 'full'", n->bi->name);
  return ty_array(np_promote(elem_of(a->ty), elem_of(v->ty)), 1, 'C', false);
}

typedef struct Correlation {
  const Type *t;
  LLVMValueRef a, v, na, nv;  /* the longer, the shorter (their data) */
  LLVMValueRef step;          /* v's element step: -1 reads it backwards (convolve) */
  LLVMValueRef a_is_v;        /* whether a holds the second argument (the shorter is first) */
  bool conj;                  /* correlate's: the second argument's complex conjugate, as NumPy's */
} Correlation;

/* element i of the array at data, of the second argument conjugated where c says */
static LLVMValueRef operand_at(Lower *l, const Correlation *c, LLVMValueRef data, LLVMValueRef i, LLVMValueRef is_v) {
  LLVMValueRef x = load_at(l, c->t, data, const_i64(l, ty_bits(c->t) / 8), i);
  return c->conj ? LLVMBuildSelect(l->b, is_v, lo_complex_conj(l, c->t, x), x, "") : x;
}

/* out[i] = sum over j of a[i - left + j] * v[j], where a's index is within a */
static LLVMValueRef correlation_at(Lower *l, const Correlation *c, LLVMValueRef shift) {
  const Type *t = c->t;
  LLVMValueRef zero = const_i64(l, 0);
  LLVMValueRef from = smax(l, zero, LLVMBuildNeg(l->b, shift, ""));
  LLVMValueRef to = LLVMBuildSub(l->b, c->na, shift, "");
  to = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, c->nv, to, ""), c->nv, to, "");
  LLVMValueRef total = lo_alloca(l, lo_type(l, t), "correlate.sum");
  LLVMBuildStore(l->b, LLVMConstNull(lo_type(l, t)), total);
  LoLoop loop = lo_loop_begin(l, from, smax(l, from, to), NULL, "correlate");
  LLVMValueRef x = operand_at(l, c, c->a, LLVMBuildAdd(l->b, shift, loop.index, ""), c->a_is_v);
  LLVMValueRef vj = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, c->step, zero, ""),
                                    LLVMBuildSub(l->b, LLVMBuildSub(l->b, c->nv, const_i64(l, 1), ""), loop.index, ""), loop.index, "");
  LLVMValueRef y = operand_at(l, c, c->v, vj, LLVMBuildNot(l->b, c->a_is_v, ""));
  LLVMBuildStore(l->b, add(l, t, LLVMBuildLoad2(l->b, lo_type(l, t), total, ""), multiply(l, t, x, y)), total);
  lo_loop_end(l, &loop);
  return LLVMBuildLoad2(l->b, lo_type(l, t), total, "");
}

/* NumPy's: the longer array slides along the shorter (convolve: v
 * reversed); where a correlation's v is the longer, the result comes
 * reversed. Empty arrays are NumPy's ValueError. */
static LLVMValueRef lo_correlate(Lower *l, Node *n) {
  const Type *t = n->ty->elem, *ft = ty_array(t, 1, 'C', false);
  bool convolve = n->bi->ival == CONVOLVE;
  LLVMValueRef mode = lo_str_option(l, bi_arg(n, 2, "mode"), modes, convolve ? MODE_FULL : MODE_VALID,
                                "mode must be one of 'valid', 'same', or 'full'");
  LLVMValueRef n1, n2, fa = flat_temp(l, n->list.items[0], t, &n1), fv = flat_temp(l, n->list.items[1], t, &n2);
  LLVMValueRef zero = const_i64(l, 0), one = const_i64(l, 1);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, n1, zero, ""), RT_ERR_VALUE, convolve ? "a cannot be empty" : "first array argument cannot be empty");
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, n2, zero, ""), RT_ERR_VALUE, convolve ? "v cannot be empty" : "second array argument cannot be empty");
  LLVMValueRef swap = LLVMBuildICmp(l->b, LLVMIntSLT, n1, n2, "");
  Correlation c = {t, LLVMBuildSelect(l->b, swap, data_of(l, fv), data_of(l, fa), ""), LLVMBuildSelect(l->b, swap, data_of(l, fa), data_of(l, fv), ""),
                   LLVMBuildSelect(l->b, swap, n2, n1, ""), LLVMBuildSelect(l->b, swap, n1, n2, ""), const_i64(l, convolve ? -1 : 1),
                   swap, !convolve && ty_is_complex(t)};
  LLVMValueRef full = LLVMBuildICmp(l->b, LLVMIntEQ, mode, const_i32(l, MODE_FULL), "");
  LLVMValueRef same = LLVMBuildICmp(l->b, LLVMIntEQ, mode, const_i32(l, MODE_SAME), "");
  LLVMValueRef left = LLVMBuildSelect(l->b, full, LLVMBuildSub(l->b, c.nv, one, ""),
                                      LLVMBuildSelect(l->b, same, LLVMBuildLShr(l->b, c.nv, one, ""), zero, ""), "");
  LLVMValueRef len = LLVMBuildSelect(l->b, full, LLVMBuildSub(l->b, LLVMBuildAdd(l->b, c.na, c.nv, ""), one, ""),
                                     LLVMBuildSelect(l->b, same, c.na, LLVMBuildAdd(l->b, LLVMBuildSub(l->b, c.na, c.nv, ""), one, ""), ""), "");
  LLVMValueRef out = lo_alloc_array(l, n->ty, &len, -1), od = data_of(l, out);
  LLVMValueRef backwards = convolve ? const_bool(l, false) : swap;
  LoLoop loop = lo_loop_begin(l, zero, len, NULL, "correlate.out");
  LLVMValueRef r = correlation_at(l, &c, LLVMBuildSub(l->b, loop.index, left, ""));
  LLVMValueRef at = LLVMBuildSelect(l->b, backwards, LLVMBuildSub(l->b, LLVMBuildSub(l->b, len, one, ""), loop.index, ""), loop.index, "");
  lo_store_scalar(l, t, item_ptr(l, t, od, at), r);
  lo_loop_end(l, &loop);
  lo_release_temp(l, ft, fv);
  lo_release_temp(l, ft, fa);
  return out;
}

/* ---------------------------------------------------------------- the rows */

static const char *const out_kw[] = {"out", NULL};
static const char *const trace_kw[] = {"offset", NULL};
static const char *const vander_kw[] = {"N", "increasing", NULL};
static const char *const meshgrid_kw[] = {"indexing", NULL};
static const char *const trapezoid_kw[] = {"x", "dx", NULL};
static const char *const mode_kw[] = {"mode", NULL};

#define AM_FLAGS (BF_ALLOCATES | BF_RAISES | BF_ARRAYLIKE)

const Builtin bi_arraymath[] = {
  {"numpy.outer", "numpy", "outer", BK_FUNCTION, 0, 2, 3, out_kw, AM_FLAGS | BF_COMPLEX, 0, 0, ty_outer, lo_outer},
  {"numpy.cross", "numpy", "cross", BK_FUNCTION, 0, 2, 2, NULL, AM_FLAGS | BF_COMPLEX, CROSS_3D, 0, ty_cross, lo_cross},
  {"cross2d", "ruchey.np_extensions", "cross2d", BK_FUNCTION, 0, 2, 2, NULL, AM_FLAGS | BF_COMPLEX, CROSS_2D, 0, ty_cross,
   lo_cross},
  {"numpy.trace", "numpy", "trace", BK_FUNCTION, 0, 1, 2, trace_kw, BF_RAISES | BF_COMPLEX, 0, 0, ty_trace, lo_trace},
  {"array.trace", NULL, "trace", BK_METHOD, TY_ARRAY, 0, 1, trace_kw, BF_RAISES | BF_COMPLEX, 0, 0, ty_trace, lo_trace},
  {"numpy.vander", "numpy", "vander", BK_FUNCTION, 0, 1, 3, vander_kw, AM_FLAGS | BF_NONE | BF_COMPLEX, 0, 0, ty_vander,
   lo_vander},
  {"numpy.meshgrid", "numpy", "meshgrid", BK_FUNCTION, 0, 2, 2, meshgrid_kw, AM_FLAGS | BF_STRINGS, 0, 0, ty_meshgrid, lo_meshgrid},
  {"numpy.convolve", "numpy", "convolve", BK_FUNCTION, 0, 2, 3, mode_kw, AM_FLAGS | BF_STRINGS | BF_COMPLEX, CONVOLVE, 0, ty_correlate,
   lo_correlate},
  {"numpy.correlate", "numpy", "correlate", BK_FUNCTION, 0, 2, 3, mode_kw, AM_FLAGS | BF_STRINGS | BF_COMPLEX, CORRELATE, 0, ty_correlate,
   lo_correlate},
  {"numpy.trapezoid", "numpy", "trapezoid", BK_FUNCTION, 0, 1, 3, trapezoid_kw, AM_FLAGS, 0, 0, ty_trapezoid, lo_trapezoid},
  BI_END,
};
