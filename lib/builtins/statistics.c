/* builtins/statistics.c — NumPy's statistics beside the reductions, in
 * compiled code: cumsum and cumprod (nancumsum, nancumprod), diff and ediff1d, unwrap, median, percentile and quantile
 * (and nanmedian, nanpercentile, nanquantile, which leave NaNs out)
 * (a partial sort of a copy: quickselect at run time), isclose, allclose
 * and array_equal, as functions and (cumsum, cumprod) as array methods.
 * Their arithmetic and axis dispatch are reduce.c's (reduce.h).
 */
#include <math.h>
#include <stdio.h>

#include "builtins/reduce.h"

/* ---------------------------------------------------------------- cumsum, cumprod */

/* the nan forms take NaN as the operation's identity (0, 1) */
enum { CUM_SUM, CUM_PROD, CUM_NANSUM, CUM_NANPROD };

static bool adds(int op) { return op == CUM_SUM || op == CUM_NANSUM; }

/* x of type t as the running operation op takes it: a NaN of a nan form
 * its identity (a complex number with a NaN part: 0j or 1+0j, as NumPy's) */
static LLVMValueRef operand_of(Lower *l, int op, const Type *t, LLVMValueRef x) {
  if ((op != CUM_NANSUM && op != CUM_NANPROD) || !(ty_is_float(t) || ty_is_complex(t))) return x;
  const Type *p = lo_complex_part(t);
  LLVMValueRef re = ty_is_complex(t) ? lo_complex_real(l, x) : x, im = ty_is_complex(t) ? lo_complex_imag(l, x) : x;
  LLVMValueRef nan = LLVMBuildFCmp(l->b, LLVMRealUNO, re, im, "");
  LLVMValueRef identity = lo_fconst(l, p, adds(op) ? 0.0 : 1.0);
  if (ty_is_complex(t)) identity = lo_complex_make(l, t, identity, lo_fconst(l, p, 0.0));
  return LLVMBuildSelect(l->b, nan, identity, x, "");
}

static const Type *ty_accumulate(Infer *in, Node *n, const Type **args) {
  if (!ty_arraylike(in, n->list.items[0], args[0])) return NULL;  /* numpy.cumsum([x, y]), of a tuple or list */
  Node *a = n->list.items[0], *axis = bi_arg(n, 1, "axis");
  const Type *dtype;
  if (!bi_need_values(in, n, a) || (axis && !bi_check_axis_late(in, n, axis, ndim_of(a->ty))) ||
      !bi_check_dtype(in, n, bi_arg(n, 2, "dtype"), &dtype))
    return NULL;
  const Type *e = elem_of(a->ty);
  if (ty_is_time(e) && (e->kind == TY_DATETIME || n->bi->ival != CUM_SUM || dtype))  /* NumPy's add of timedeltas alone */
    return ty_error(in, n, "%s() of %s values is not supported%s", n->bi->name, e->name,
                    e->kind == TY_TIMEDELTA && !dtype ? ": cumsum is (a NaT makes the rest NaT)" : "");
  if (dtype && ty_is_complex(elem_of(a->ty)) != ty_is_complex(dtype))
    return ty_error(in, n, "%s(): dtype=%s of %s elements is not supported", n->bi->name, dtype->name, elem_of(a->ty)->name);
  if (!axis) return ty_array(rd_sum_dtype(elem_of(a->ty), dtype), 1, 'C', false);
  return ty_array(rd_sum_dtype(elem_of(a->ty), dtype), a->ty->ndim, np_like_layout(a->ty), false);  /* NumPy's order='K' */
}

/* Every element of e, in C order, to sink: by flat index where it can. */
static void each_element(Lower *l, Elements *e, LLVMValueRef count, ElementSink sink, void *arg) {
  LLVMValueRef flat = lo_elements_flat(l, e);
  LLVMBasicBlockRef done = new_block(l, "each.done");
  if (flat) {
    LLVMBasicBlockRef by_index = new_block(l, "each.flat"), strided = new_block(l, "each.strided");
    LLVMBuildCondBr(l->b, flat, by_index, strided);
    position(l, by_index);
    LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "each");
    sink(l, lo_element_at(l, e, loop.index), arg);
    lo_loop_end(l, &loop);
    LLVMBuildBr(l->b, done);
    position(l, strided);
  }
  lo_elements_each(l, e, sink, arg);
  LLVMBuildBr(l->b, done);
  position(l, done);
}

static LLVMValueRef elements_count(Lower *l, Elements *e, int ndim) {
  LLVMValueRef n = const_i64(l, 1);
  for (int d = 0; d < ndim; d++) n = LLVMBuildMul(l->b, n, lo_elements_shape(e, d), "");
  return n;
}

/* The running sum or product: the first element as it is, then op(previous, x)
 * (of timedeltas NaT from a NaT on, as NumPy adds them). */
static LLVMValueRef running(Lower *l, int op, const Type *t, LLVMValueRef first, LLVMValueRef prev, LLVMValueRef x) {
  x = operand_of(l, op, t, x);
  LLVMValueRef next = adds(op) ? rd_add(l, t, prev, x) : rd_mul(l, t, prev, x);
  if (ty_is_time(t)) next = rd_select(l, rd_or(l, rd_is_nan(l, t, prev), rd_is_nan(l, t, x)), const_i64(l, INT64_MIN), next);
  return rd_select(l, first, x, next);
}

typedef struct Running {
  int op;
  const Type *from, *to;
  LLVMValueRef data, k, acc;  /* the result's memory, the elements so far, the last result */
} Running;

static void running_element(Lower *l, LLVMValueRef v, void *arg) {
  Running *r = arg;
  LLVMValueRef k = rd_load(l, r->k), x = lo_convert(l, v, r->from, r->to);
  LLVMValueRef first = LLVMBuildICmp(l->b, LLVMIntEQ, k, const_i64(l, 0), "");
  LLVMValueRef y = running(l, r->op, r->to, first, rd_load(l, r->acc), x);
  LLVMBuildStore(l->b, y, r->acc);
  lo_store_scalar(l, r->to, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, r->to), r->data, &k, 1, ""), y);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, const_i64(l, 1), ""), r->k);
}

/* Over all the elements, in C order: a 1-d result. */
static LLVMValueRef accumulate_all(Lower *l, Node *n, Node *a) {
  const Type *to = n->ty->elem;
  if (a->ty->kind != TY_ARRAY) {
    LLVMValueRef one = const_i64(l, 1), out = lo_alloc_array(l, n->ty, &one, -1);
    lo_store_scalar(l, to, rd_data(l, out), lo_expr_as(l, a, to));
    return out;
  }
  Elements *e = lo_elements_begin(l, a);
  LLVMValueRef count = elements_count(l, e, a->ty->ndim), out = lo_alloc_array(l, n->ty, &count, -1);
  Running r = {n->bi->ival, a->ty->elem, to, rd_data(l, out), rd_var(l, const_i64(l, 0), "running.k"),
               rd_var(l, LLVMConstNull(lo_type(l, to)), "running")};
  each_element(l, e, count, running_element, &r);
  lo_elements_end(l, e);
  return out;
}

typedef struct RunningAlong {
  int op;
  const Type *t, *ot;
  LLVMValueRef v, out;
  int k;
} RunningAlong;

static void running_along_element(Lower *l, LLVMValueRef *idx, void *arg) {
  RunningAlong *r = arg;
  LLVMValueRef x = lo_convert(l, lo_load_scalar(l, r->t->elem, rd_element_ptr(l, r->t, r->v, idx)), r->t->elem, r->ot->elem);
  LLVMValueRef at = rd_element_ptr(l, r->ot, r->out, idx);
  LLVMValueRef first = LLVMBuildICmp(l->b, LLVMIntEQ, idx[r->k], const_i64(l, 0), "");
  /* the previous result along the axis (at the first, the slot itself: not used) */
  LLVMValueRef back = LLVMBuildNeg(l->b, lo_arr_stride(l, r->ot, r->out, r->k), "");
  LLVMValueRef prev = lo_load_scalar(l, r->ot->elem, rd_select(l, first, at, rd_byte_at(l, at, back)));
  lo_store_scalar(l, r->ot->elem, at, running(l, r->op, r->ot->elem, first, prev, x));
}

static LLVMValueRef accumulate_along(Lower *l, int k, void *arg) {
  RunningAlong *r = arg;
  LLVMValueRef shape[RC_MAX_NDIM];
  for (int d = 0; d < r->t->ndim; d++) shape[d] = lo_arr_shape(l, r->v, d);
  r->k = k;
  r->out = lo_alloc_array(l, r->ot, shape, -1);
  lo_for_each_index(l, r->t->ndim, shape, running_along_element, r);
  return r->out;
}

static LLVMValueRef lo_accumulate(Lower *l, Node *n) {
  Node *a = n->list.items[0], *axis = bi_arg(n, 1, "axis");
  if (!axis) return accumulate_all(l, n, a);
  RunningAlong r = {n->bi->ival, a->ty, n->ty, lo_expr(l, a)};
  LLVMValueRef out = rd_for_axis(l, axis, a->ty->ndim, n->ty, accumulate_along, &r, rd_axis_error);
  lo_done_with(l, a, r.v);
  return out;
}

/* ---------------------------------------------------------------- diff */

static const Type *ty_diff(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *order = bi_arg(n, 1, "n"), *axis = bi_arg(n, 2, "axis");
  int64_t k;
  if (a->ty->kind != TY_ARRAY || a->ty->ndim == 0)
    return ty_error(in, a, "numpy.diff(): diff requires input that is at least one dimensional");
  if (order && !ty_is_int(order->ty)) return ty_error(in, order, "numpy.diff(): n must be an integer, got %s", order->ty->name);
  if (order && bi_literal_int(order, &k) && k < 0)
    return ty_error(in, order, "numpy.diff(): order must be non-negative but got %lld", (long long)k);
  if (axis && !bi_check_axis_late(in, n, axis, a->ty->ndim)) return NULL;
  return ty_array(a->ty->elem, a->ty->ndim, np_like_layout(a->ty), false);  /* in a's order, as NumPy's */
}

typedef struct DiffPass {
  const Type *st, *dt;
  LLVMValueRef src, dst;
  int k;
  bool copy;  /* dst = src, not src's next along k minus src */
} DiffPass;

static void diff_element(Lower *l, LLVMValueRef *idx, void *arg) {
  DiffPass *d = arg;
  const Type *e = d->st->elem;
  LLVMValueRef p = rd_element_ptr(l, d->st, d->src, idx), x = lo_load_scalar(l, e, p);
  if (!d->copy) x = rd_sub(l, e, lo_load_scalar(l, e, rd_byte_at(l, p, lo_arr_stride(l, d->st, d->src, d->k))), x);
  lo_store_scalar(l, e, rd_element_ptr(l, d->dt, d->dst, idx), x);
}

/* Over dst's shape: in C order, so that src may be dst (each element is
 * read before it is written, and its next one after). */
static void diff_pass(Lower *l, DiffPass d, LLVMValueRef *shape) {
  lo_for_each_index(l, d.dt->ndim, shape, diff_element, &d);
}

typedef struct Diff {
  const Type *t, *ot;
  LLVMValueRef v, order;
} Diff;

static LLVMValueRef shorter(Lower *l, LLVMValueRef len, LLVMValueRef by) {
  LLVMValueRef r = LLVMBuildSub(l->b, len, by, "");
  return rd_select(l, LLVMBuildICmp(l->b, LLVMIntSLT, r, const_i64(l, 0), ""), const_i64(l, 0), r);
}

/* The n-th difference along k: once straight into the result; more times
 * in place in a temporary one shorter, then copied. */
static LLVMValueRef diff_along(Lower *l, int k, void *arg) {
  Diff *d = arg;
  int nd = d->t->ndim;
  LLVMValueRef shape[RC_MAX_NDIM], part[RC_MAX_NDIM], len = lo_arr_shape(l, d->v, k);
  for (int i = 0; i < nd; i++) shape[i] = part[i] = lo_arr_shape(l, d->v, i);
  shape[k] = shorter(l, len, d->order);
  LLVMValueRef out = lo_alloc_array(l, d->ot, shape, -1);
  LLVMBasicBlockRef copy = new_block(l, "diff.none"), once = new_block(l, "diff.once"), more = new_block(l, "diff.more");
  LLVMBasicBlockRef done = new_block(l, "diff.done");
  LLVMValueRef sw = LLVMBuildSwitch(l->b, d->order, more, 2);
  LLVMAddCase(sw, const_i64(l, 0), copy);
  LLVMAddCase(sw, const_i64(l, 1), once);
  position(l, copy);
  diff_pass(l, (DiffPass){d->t, d->ot, d->v, out, k, true}, shape);
  LLVMBuildBr(l->b, done);
  position(l, once);
  diff_pass(l, (DiffPass){d->t, d->ot, d->v, out, k, false}, shape);
  LLVMBuildBr(l->b, done);
  position(l, more);
  part[k] = shorter(l, len, const_i64(l, 1));
  LLVMValueRef tmp = lo_alloc_array(l, d->ot, part, -1);
  lo_temp_made(l, d->ot, tmp);
  diff_pass(l, (DiffPass){d->t, d->ot, d->v, tmp, k, false}, part);
  LoLoop again = lo_loop_begin(l, const_i64(l, 2), LLVMBuildAdd(l->b, d->order, const_i64(l, 1), ""), NULL, "diff.again");
  part[k] = shorter(l, len, again.index);
  diff_pass(l, (DiffPass){d->ot, d->ot, tmp, tmp, k, false}, part);
  lo_loop_end(l, &again);
  diff_pass(l, (DiffPass){d->ot, d->ot, tmp, out, k, true}, shape);
  lo_release_temp(l, d->ot, tmp);
  LLVMBuildBr(l->b, done);
  position(l, done);
  return out;
}

static LLVMValueRef lo_diff(Lower *l, Node *n) {
  Node *a = n->list.items[0], *order = bi_arg(n, 1, "n"), *axis = bi_arg(n, 2, "axis");
  Diff d = {a->ty, n->ty, lo_expr(l, a), order ? lo_expr_as(l, order, TYS(TY_I64)) : const_i64(l, 1)};
  rd_raise_with_int(l, LLVMBuildICmp(l->b, LLVMIntSLT, d.order, const_i64(l, 0), ""), RT_ERR_VALUE,
                 "order must be non-negative but got %lld", d.order);
  int nd = a->ty->ndim;
  LLVMValueRef r = axis ? rd_for_axis(l, axis, nd, n->ty, diff_along, &d, rd_axis_error) : diff_along(l, nd - 1, &d);
  lo_done_with(l, a, d.v);
  return r;
}

/* numpy.ediff1d(ary, to_end=None, to_begin=None): the differences of ary's
 * elements flattened, in its dtype, after to_begin's and before to_end's
 * (numbers or arrays, flattened), which NumPy casts to it 'same_kind' */
static const char *const ediff1d_kw[] = {"to_end", "to_begin", NULL};

static const Type *ty_ediff1d(Infer *in, Node *n, const Type **args) {
  if (!bi_need_values(in, n, n->list.items[0])) return NULL;
  const Type *e = elem_of(args[0]);
  if (e->kind == TY_BOOL)
    return ty_error(in, n, "numpy.ediff1d(): numpy boolean subtract, the `-` operator, is not supported");
  for (int i = 1; i < 3; i++) {
    Node *x = bi_arg_given(n, i, ediff1d_kw[i - 1]);
    if (x && !bi_need_values(in, n, x)) return NULL;
    if (x && !np_same_kind(elem_of(x->ty), e))
      return ty_error(in, x, "dtype of %s must be compatible with input ary", ediff1d_kw[i - 1]);
  }
  return ty_array(e, 1, 'C', false);
}

/* x's elements as e in a new 1-d temp (*count of them), or NULL (none) where x is */
static LLVMValueRef ediff1d_part(Lower *l, Node *x, const Type *e, LLVMValueRef *count) {
  *count = const_i64(l, 0);
  return x ? np_joined_elements(l, &x, 1, e, count) : NULL;
}

/* the count elements of the temp flat (if any) into to's data from element at on, and flat released */
static void ediff1d_put(Lower *l, const Type *e, LLVMValueRef flat, LLVMValueRef count, LLVMValueRef to, LLVMValueRef at) {
  if (!flat) return;
  LLVMValueRef size = LLVMBuildMul(l->b, count, const_i64(l, ty_bits(e) / 8), "");
  LLVMBuildMemCpy(l->b, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, e), to, &at, 1, ""), 1, rd_data(l, flat), 1, size);
  lo_release_temp(l, ty_array(e, 1, 'C', false), flat);
}

static LLVMValueRef lo_ediff1d(Lower *l, Node *n) {
  const Type *e = n->ty->elem;
  LLVMValueRef count, flat = np_joined_elements(l, n->list.items, 1, e, &count), from = rd_data(l, flat), ne, nb;
  LLVMValueRef end = ediff1d_part(l, bi_arg_given(n, 1, "to_end"), e, &ne), begin = ediff1d_part(l, bi_arg_given(n, 2, "to_begin"), e, &nb);
  LLVMValueRef len = shorter(l, count, const_i64(l, 1));
  LLVMValueRef total = LLVMBuildAdd(l->b, LLVMBuildAdd(l->b, nb, len, ""), ne, "");
  LLVMValueRef out = lo_alloc_array(l, n->ty, &total, -1), to = rd_data(l, out);
  LLVMTypeRef st = lo_storage_type(l, e);
  LoLoop i = lo_loop_begin(l, const_i64(l, 0), len, NULL, "ediff1d");
  LLVMValueRef next = LLVMBuildAdd(l->b, i.index, const_i64(l, 1), ""), at = LLVMBuildAdd(l->b, nb, i.index, "");
  LLVMValueRef x = lo_load_scalar(l, e, LLVMBuildInBoundsGEP2(l->b, st, from, &i.index, 1, ""));
  LLVMValueRef y = lo_load_scalar(l, e, LLVMBuildInBoundsGEP2(l->b, st, from, &next, 1, ""));
  lo_store_scalar(l, e, LLVMBuildInBoundsGEP2(l->b, st, to, &at, 1, ""), rd_sub(l, e, y, x));
  lo_loop_end(l, &i);
  ediff1d_put(l, e, begin, nb, to, const_i64(l, 0));
  ediff1d_put(l, e, end, ne, to, LLVMBuildAdd(l->b, nb, len, ""));
  lo_release_temp(l, ty_array(e, 1, 'C', false), flat);
  return out;
}

/* ---------------------------------------------------------------- unwrap */

/* a typed list as an array argument (a and q: percentile's): numpy.asarray of it, as NumPy reads array-likes */
static bool lists_as_arrays(Infer *in, Node *a, Node *q) {
  if (a->ty->kind == TY_LIST && !ty_wrap_call(in, a, "numpy.asarray")) return false;
  return !(q && q->ty->kind == TY_LIST && !ty_wrap_call(in, q, "numpy.asarray"));
}


/* numpy.unwrap(p, discont=None, axis=-1, period=2*pi): along the axis,
 * each step's jump by more than discont corrected by a multiple of period,
 * NumPy's expressions: its dtype is result_type(diff(p), period). */
static const char *const unwrap_kw[] = {"discont", "axis", "period", NULL};

/* the argument at pos (-1: keyword only) or by its keyword, unless absent or None */
static Node *given(Node *n, int pos, const char *name) {
  Node *x = pos < 0 ? ty_kwarg(n, name) : bi_arg(n, pos, name);
  return x && x->ty->kind != TY_NONE ? x : NULL;
}

static const Type *unwrap_dtype(Node *n, const Type *e) {
  Node *period = given(n, -1, "period");
  if (!period || ty_is_weak(period)) return ty_is_int(e) && !(period && ty_is_int(period->ty)) ? TYS(TY_F64) : e;
  return np_promote(e, period->ty);
}

static bool real_number(const Type *t) { return ty_is_int(t) || ty_is_float(t); }

static const Type *ty_unwrap(Infer *in, Node *n, const Type **args) {
  Node *p = n->list.items[0], *discont = given(n, 1, "discont"), *axis = given(n, 2, "axis"), *period = given(n, -1, "period");
  if (!lists_as_arrays(in, p, NULL)) return NULL;
  if (p->ty->kind != TY_ARRAY || !p->ty->ndim || !real_number(p->ty->elem))
    return ty_error(in, p, "numpy.unwrap() needs an array of at least one dimension of ints or floats, got %s", p->ty->name);
  if (discont && !real_number(discont->ty))
    return ty_error(in, discont, "numpy.unwrap(): discont must be a number or None, got %s", discont->ty->name);
  if (period && !real_number(period->ty))
    return ty_error(in, period, "numpy.unwrap(): period must be a number, got %s", period->ty->name);
  if (!axis && bi_arg(n, 2, "axis")) return ty_error(in, n, "numpy.unwrap(): axis must be an integer, got None");
  if (axis && !bi_check_axis(in, n, axis, p->ty->ndim)) return NULL;
  return ty_array(unwrap_dtype(n, p->ty->elem), p->ty->ndim, 'C', false);
}

/* The constants of the correction, in the result's dtype t. */
typedef struct Unwrap {
  const Type *t, *dt;  /* the result's dtype; discont's */
  LLVMValueRef period, low, high, ambiguous, discont;
} Unwrap;

static Unwrap unwrap_begin(Lower *l, Node *n, const Type *t) {
  Node *discont = given(n, 1, "discont"), *period = given(n, -1, "period");
  Unwrap u = {t, discont ? discont->ty : TYS(TY_F64)};
  const Type *pt = period ? period->ty : TYS(TY_F64);
  LLVMValueRef pv = period ? lo_expr(l, period) : lo_fconst(l, pt, 2 * M_PI);
  u.period = lo_convert(l, pv, pt, t);
  if (ty_is_int(t)) {  /* divmod(period, 2): a boundary only where period is even */
    u.high = lo_binop_values(l, OP_FLOORDIV, t, u.period, t, lo_convert(l, const_i64(l, 2), TYS(TY_I64), t), t);
    LLVMValueRef rem = lo_binop_values(l, OP_MOD, t, u.period, t, lo_convert(l, const_i64(l, 2), TYS(TY_I64), t), t);
    u.ambiguous = LLVMBuildICmp(l->b, LLVMIntEQ, rem, LLVMConstNull(LLVMTypeOf(rem)), "");
  } else {
    u.high = LLVMBuildFDiv(l->b, u.period, lo_fconst(l, t, 2), "");
    u.ambiguous = const_bool(l, true);
  }
  u.low = lo_binop_values(l, OP_SUB, t, LLVMConstNull(LLVMTypeOf(u.high)), t, u.high, t);
  /* discont=None is period/2, a float */
  u.discont = discont ? lo_expr(l, discont)
                      : LLVMBuildFDiv(l->b, lo_convert(l, pv, pt, TYS(TY_F64)), lo_fconst(l, TYS(TY_F64), 2), "");
  return u;
}

/* The phase correction of one step dd: mod(dd - low, period) + low,
 * the boundary's sign as dd's, less dd; none for a step below discont. */
static LLVMValueRef unwrap_correction(Lower *l, const Unwrap *u, LLVMValueRef dd) {
  const Type *t = u->t;
  LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(dd));
  LLVMValueRef m = lo_binop_values(l, OP_MOD, t, lo_binop_values(l, OP_SUB, t, dd, t, u->low, t), t, u->period, t);
  m = lo_binop_values(l, OP_ADD, t, m, t, u->low, t);
  LLVMValueRef boundary = LLVMBuildAnd(l->b, lo_compare_values(l, OP_EQ, m, t, u->low, t),
                                       lo_compare_values(l, OP_GT, dd, t, zero, t), "");
  m = LLVMBuildSelect(l->b, LLVMBuildAnd(l->b, u->ambiguous, boundary, ""), u->high, m, "");
  LLVMValueRef fix = lo_binop_values(l, OP_SUB, t, m, t, dd, t);
  LLVMValueRef size = LLVMBuildSelect(l->b, lo_compare_values(l, OP_LT, dd, t, zero, t),
                                      lo_binop_values(l, OP_SUB, t, zero, t, dd, t), dd, "");
  return LLVMBuildSelect(l->b, lo_compare_values(l, OP_LT, size, t, u->discont, u->dt), zero, fix, "");
}

/* Over a C-contiguous copy of p seen as (outer, len, inner) around the
 * axis: each lane's first value as it is, then each plus the running sum
 * of the corrections (NumPy's cumsum, in t). */
static LLVMValueRef lo_unwrap(Lower *l, Node *n) {
  Node *p = n->list.items[0], *axis = given(n, 2, "axis");
  const Type *pt = p->ty, *e = pt->elem, *t = n->ty->elem;
  int nd = pt->ndim;
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;  /* NumPy's mod: no ZeroDivisionError */
  LLVMValueRef pv = lo_expr(l, p), ax = axis ? np_runtime_axis(l, axis, nd) : const_i64(l, nd - 1);
  Unwrap u = unwrap_begin(l, n, t);
  const Type *ct = ty_array(e, nd, 'C', pt->readonly);
  LLVMValueRef c = np_as_contiguous(l, pt, pv, 'C'), shape[RC_MAX_NDIM];
  lo_temp_made(l, ct, c);
  LLVMValueRef outer = const_i64(l, 1), inner = const_i64(l, 1), len = const_i64(l, 1), one = const_i64(l, 1);
  for (int d = 0; d < nd; d++) {
    LLVMValueRef sd = shape[d] = lo_arr_shape(l, c, d), dv = const_i64(l, d);
    outer = LLVMBuildMul(l->b, outer, LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, dv, ax, ""), sd, one, ""), "");
    inner = LLVMBuildMul(l->b, inner, LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, dv, ax, ""), sd, one, ""), "");
    len = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, dv, ax, ""), sd, len, "");
  }
  LLVMValueRef out = lo_alloc_array(l, n->ty, shape, -1);
  LLVMValueRef src = LLVMBuildExtractValue(l->b, c, 2, ""), dst = LLVMBuildExtractValue(l->b, out, 2, "");
  LLVMValueRef sum = lo_alloca(l, lo_type(l, t), "unwrap.sum");
  LoLoop lo = lo_loop_begin(l, const_i64(l, 0), outer, NULL, "unwrap.outer");
  LoLoop li = lo_loop_begin(l, const_i64(l, 0), inner, NULL, "unwrap.inner");
  LLVMValueRef base = LLVMBuildAdd(l->b, LLVMBuildMul(l->b, LLVMBuildMul(l->b, lo.index, len, ""), inner, ""), li.index, "");
  LLVMBuildStore(l->b, LLVMConstNull(lo_type(l, t)), sum);
  LoLoop lk = lo_loop_begin(l, const_i64(l, 0), len, NULL, "unwrap.step");
  LLVMValueRef at = LLVMBuildAdd(l->b, base, LLVMBuildMul(l->b, lk.index, inner, ""), "");
  LLVMValueRef first = LLVMBuildICmp(l->b, LLVMIntEQ, lk.index, const_i64(l, 0), "");
  LLVMValueRef before = LLVMBuildSelect(l->b, first, at, LLVMBuildSub(l->b, at, inner, ""), "");
  LLVMValueRef x = lo_load_scalar(l, e, LLVMBuildGEP2(l->b, lo_storage_type(l, e), src, &at, 1, ""));
  LLVMValueRef prev = lo_load_scalar(l, e, LLVMBuildGEP2(l->b, lo_storage_type(l, e), src, &before, 1, ""));
  LLVMValueRef dd = lo_convert(l, lo_binop_values(l, OP_SUB, e, x, e, prev, e), e, t);  /* diff in p's dtype */
  LLVMValueRef fix = LLVMBuildSelect(l->b, first, LLVMConstNull(lo_type(l, t)), unwrap_correction(l, &u, dd), "");
  LLVMValueRef s = lo_binop_values(l, OP_ADD, t, LLVMBuildLoad2(l->b, lo_type(l, t), sum, ""), t, fix, t);
  LLVMBuildStore(l->b, s, sum);
  LLVMValueRef v = LLVMBuildSelect(l->b, first, lo_convert(l, x, e, t), lo_binop_values(l, OP_ADD, t, lo_convert(l, x, e, t), t, s, t), "");
  lo_store_scalar(l, t, LLVMBuildGEP2(l->b, lo_storage_type(l, t), dst, &at, 1, ""), v);
  lo_loop_end(l, &lk);
  lo_loop_end(l, &li);
  lo_loop_end(l, &lo);
  lo_release_temp(l, ct, c);
  lo_done_with(l, p, pv);
  l->numpy_semantics = saved;
  return out;
}

/* ---------------------------------------------------------------- median, percentile, quantile */

/* which quantile a row computes; Q_NAN: of the elements that are not NaN
 * (numpy.nanmedian, nanpercentile, nanquantile) */
enum { Q_MEDIAN, Q_PERCENTILE, Q_QUANTILE, Q_NAN = 4 };

static int quantile_kind(const Node *n) { return n->bi->ival & ~Q_NAN; }

/* NaNs skipped: only floats and complex numbers (a NaN part) hold them */
static bool skips_nan(const Node *n, const Type *e) { return (n->bi->ival & Q_NAN) && (ty_is_float(e) || ty_is_complex(e)); }

/* quantile(a, q) of an int q (0 or 1): an element itself, of a's dtype. */
static bool int_quantile(Node *n) {
  Node *q = bi_arg(n, 1, "q");
  return quantile_kind(n) == Q_QUANTILE && ty_is_scalar(q->ty) && !ty_is_float(q->ty);
}

/* The dtype of quantiles at an array of q (of dtype qe) of elements of
 * dtype e, as NumPy's: elements themselves at quantile's int q (0 or 1),
 * float64 at percentile's (q/100 is), else e and q's dtypes promoted, at
 * least to a float. */
static const Type *quantiles_dtype(Node *n, const Type *e, const Type *qe) {
  if (ty_is_int(qe)) return quantile_kind(n) == Q_QUANTILE ? e : TYS(TY_F64);
  const Type *t = np_promote(e, qe);
  return ty_is_float(t) ? t : TYS(TY_F64);
}

static const Type *ty_quantile(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *q = bi_arg(n, 1, "q");
  if (!lists_as_arrays(in, a, q) || !bi_need_values(in, n, a)) return NULL;
  const Type *e = elem_of(a->ty);
  if (quantile_kind(n) == Q_MEDIAN && e->kind == TY_DATETIME)
    return ty_error(in, n, "%s(): datetime64 values do not add (NumPy's median adds the middle two)", n->bi->name);
  if (quantile_kind(n) == Q_MEDIAN) return ty_is_complex(e) ? e : rd_mean_dtype(e);
  if (e->kind == TY_BOOL) return ty_error(in, n, "%s(): %s", n->bi->name, rd_boolean_subtract);
  if (!q) return ty_error(in, n, "%s() missing argument 'q'", n->bi->name);
  if (!ty_scalar_of_0d(in, q, q->ty)) return NULL;  /* a 0-d q read as its number: a number results, as NumPy's */
  if (q->ty->kind == TY_ARRAY && q->ty->ndim > 0 && q->ty->elem->kind != TY_BOOL)
    return ty_array(quantiles_dtype(n, e, q->ty->elem), q->ty->ndim, 'C', false);
  if (!ty_is_scalar(q->ty) || q->ty->kind == TY_BOOL)
    return ty_error(in, q, "%s(): q must be a number or an array of numbers, got %s", n->bi->name, q->ty->name);
  if (int_quantile(n)) return e;  /* q 0 or 1: an element itself */
  return ty_is_float(e) ? e : TYS(TY_F64);
}

typedef struct Gather {
  const Type *elem;
  LLVMValueRef data, k, nan, nans;  /* nans: how many are NaN */
  bool skip_nan;
} Gather;

/* v stored at k, which moves on unless v is a NaN to skip (the next overwrites it) */
static void gather_element(Lower *l, LLVMValueRef v, void *arg) {
  Gather *g = arg;
  LLVMValueRef k = rd_load(l, g->k), nan = rd_is_nan(l, g->elem, v);
  lo_store_scalar(l, g->elem, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, g->elem), g->data, &k, 1, ""), v);
  LLVMValueRef step = g->skip_nan ? LLVMBuildZExt(l->b, LLVMBuildNot(l->b, nan, ""), l->mod->i64, "") : const_i64(l, 1);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, step, ""), g->k);
  LLVMBuildStore(l->b, rd_or(l, rd_load(l, g->nan), nan), g->nan);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, rd_load(l, g->nans), LLVMBuildZExt(l->b, nan, l->mod->i64, ""), ""), g->nans);
}

/* a's elements in a new 1-d array (a temp, partitioned in place); their
 * number, whether one is NaN (skip_nan: the elements that are not NaN,
 * and whether there are none) and how many are. */
static LLVMValueRef gather(Lower *l, Node *a, bool skip_nan, LLVMValueRef *count, LLVMValueRef *nan, LLVMValueRef *nans) {
  const Type *e = elem_of(a->ty), *t = ty_array(e, 1, 'C', false);
  Elements *el = a->ty->kind == TY_ARRAY ? lo_elements_begin(l, a) : NULL;
  *count = el ? elements_count(l, el, a->ty->ndim) : const_i64(l, 1);
  LLVMValueRef work = lo_alloc_array(l, t, count, -1);
  lo_temp_made(l, t, work);
  Gather g = {e, rd_data(l, work), rd_var(l, const_i64(l, 0), "gather.k"), rd_var(l, const_bool(l, false), "gather.nan"),
              rd_var(l, const_i64(l, 0), "gather.nans"), skip_nan};
  if (el) {
    each_element(l, el, *count, gather_element, &g);
    lo_elements_end(l, el);
  } else {
    gather_element(l, lo_expr(l, a), &g);
  }
  *nan = rd_load(l, g.nan);
  *nans = rd_load(l, g.nans);
  if (skip_nan) {
    *count = rd_load(l, g.k);
    *nan = LLVMBuildICmp(l->b, LLVMIntEQ, *count, const_i64(l, 0), "");
  }
  return work;
}

/* The k-th smallest of n elements at data, which rt_partition moves into place. */
static LLVMValueRef kth(Lower *l, const Type *t, LLVMValueRef data, LLVMValueRef n, LLVMValueRef k) {
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i32};
  lo_call_fn(l, "rt_partition", void_type(l), p, (LLVMValueRef[]){data, n, k, const_i32(l, (int)t->kind)}, 4);
  return lo_load_scalar(l, t, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, t), data, &k, 1, ""));
}

/* NumPy's median: the mean of the middle one or two. */
static LLVMValueRef median_of(Lower *l, const Type *e, const Type *r, LLVMValueRef data, LLVMValueRef n) {
  LLVMValueRef half = LLVMBuildLShr(l->b, n, const_i64(l, 1), ""), hi = kth(l, e, data, n, half);
  LLVMValueRef out = rd_var(l, LLVMConstNull(lo_type(l, r)), "median"), zero = LLVMConstNull(lo_type(l, r));
  LLVMBasicBlockRef one = new_block(l, "median.odd"), two = new_block(l, "median.even"), done = new_block(l, "median");
  LLVMBuildCondBr(l->b, LLVMBuildTrunc(l->b, n, l->mod->i1, ""), one, two);
  position(l, one);
  LLVMValueRef middle = ty_is_time(e) ? hi : rd_divide(l, r, rd_add(l, r, zero, lo_convert(l, hi, e, r)), lo_fconst(l, TYS(TY_F64), 1));
  LLVMBuildStore(l->b, middle, out);
  LLVMBuildBr(l->b, done);
  position(l, two);
  LLVMValueRef lo = kth(l, e, data, half, LLVMBuildSub(l->b, half, const_i64(l, 1), ""));
  LLVMValueRef mean = ty_is_time(e) ? lo_time_divide(l, LLVMBuildAdd(l->b, lo, hi, ""), const_i64(l, 2))  /* (NumPy's mean) */
                     : rd_divide(l, r, rd_add(l, r, rd_add(l, r, zero, lo_convert(l, lo, e, r)), lo_convert(l, hi, e, r)),
                                 lo_fconst(l, TYS(TY_F64), 2));
  LLVMBuildStore(l->b, mean, out);
  LLVMBuildBr(l->b, done);
  position(l, done);
  return rd_load(l, out);
}

/* q (of type qt) as a float64 fraction, checked; a percentage divided
 * by 100 in float32 where q is one, as NumPy's q/100. */
static LLVMValueRef fraction(Lower *l, Node *n, LLVMValueRef q, const Type *qt) {
  bool percent = quantile_kind(n) == Q_PERCENTILE;
  const Type *f = qt->kind == TY_F32 ? qt : TYS(TY_F64);
  q = lo_convert(l, q, qt, f);
  if (percent) q = LLVMBuildFDiv(l->b, q, lo_fconst(l, f, 100), "");
  q = lo_convert(l, q, f, TYS(TY_F64));
  LLVMValueRef bad = rd_or(l, LLVMBuildFCmp(l->b, LLVMRealULT, q, lo_fconst(l, TYS(TY_F64), 0), ""),
                         LLVMBuildFCmp(l->b, LLVMRealUGT, q, lo_fconst(l, TYS(TY_F64), 1), ""));
  lo_raise_if(l, bad, RT_ERR_VALUE, percent ? "Percentiles must be in the range [0, 100]" : "Quantiles must be in the range [0, 1]");
  return q;
}

/* NumPy's "linear" quantile q of the n elements at data (none NaN), its
 * interpolation computed in type lt as NumPy's _lerp: from the lower
 * neighbour below gamma 0.5, from the upper one above. */
static LLVMValueRef quantile_of(Lower *l, const Type *e, const Type *lt, LLVMValueRef data, LLVMValueRef n, LLVMValueRef q) {
  const Type *f64 = TYS(TY_F64);
  LLVMValueRef last = LLVMBuildSub(l->b, n, const_i64(l, 1), ""), lastf = LLVMBuildSIToFP(l->b, last, l->mod->f64, "");
  LLVMValueRef at = LLVMBuildFMul(l->b, lastf, q, ""), below = lo_intrinsic1(l, "llvm.floor", f64, at);
  LLVMValueRef top = LLVMBuildFCmp(l->b, LLVMRealOGE, at, lastf, "");
  LLVMValueRef prev = rd_select(l, top, last, LLVMBuildFPToSI(l->b, below, l->mod->i64, ""));
  LLVMValueRef gamma = LLVMBuildFSub(l->b, at, rd_select(l, top, lo_fconst(l, f64, -1), below), "");
  LLVMValueRef a = kth(l, e, data, n, prev), b = rd_var(l, a, "quantile.next");
  LLVMBasicBlockRef next = new_block(l, "quantile.next"), done = new_block(l, "quantile");
  LLVMBuildCondBr(l->b, top, done, next);
  position(l, next);
  LLVMValueRef rest = LLVMBuildAdd(l->b, prev, const_i64(l, 1), "");
  LLVMValueRef after = LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, e), data, &rest, 1, "");
  LLVMBuildStore(l->b, kth(l, e, after, LLVMBuildSub(l->b, n, rest, ""), const_i64(l, 0)), b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef bv = rd_load(l, b), diff = lo_convert(l, rd_sub(l, e, bv, a), e, lt);
  LLVMValueRef t = lo_convert(l, gamma, f64, lt), rest_t = lo_convert(l, LLVMBuildFSub(l->b, lo_fconst(l, f64, 1), gamma, ""), f64, lt);
  LLVMValueRef low = rd_add(l, lt, lo_convert(l, a, e, lt), rd_mul(l, lt, diff, t));
  LLVMValueRef high = rd_sub(l, lt, lo_convert(l, bv, e, lt), rd_mul(l, lt, diff, rest_t));
  return rd_select(l, LLVMBuildFCmp(l->b, LLVMRealOGE, gamma, lo_fconst(l, f64, 0.5), ""), high, low);
}

/* f() unless the elements hold a NaN (then NaN of type t). */
typedef LLVMValueRef (*Quantile)(Lower *l, void *arg);

static LLVMValueRef unless_nan(Lower *l, LLVMValueRef nan, const Type *t, Quantile f, void *arg) {
  LLVMValueRef none = ty_is_float(t) ? lo_fconst(l, t, NAN) : ty_is_time(t) ? const_i64(l, INT64_MIN) : LLVMConstNull(lo_type(l, t));
  LLVMValueRef out = rd_var(l, none, "quantile.result");
  LLVMBasicBlockRef compute = new_block(l, "quantile.compute"), done = new_block(l, "quantile.done");
  LLVMBuildCondBr(l->b, nan, done, compute);
  position(l, compute);
  LLVMBuildStore(l->b, f(l, arg), out);
  LLVMBuildBr(l->b, done);
  position(l, done);
  return rd_load(l, out);
}

typedef struct QuantileArgs {
  Node *n;
  const Type *e, *t;
  LLVMValueRef data, count, q;
} QuantileArgs;

static LLVMValueRef median_value(Lower *l, void *arg) {
  QuantileArgs *a = arg;
  return median_of(l, a->e, a->t, a->data, a->count);
}

static LLVMValueRef quantile_value(Lower *l, void *arg) {
  QuantileArgs *a = arg;
  return quantile_of(l, a->e, a->t, a->data, a->count, a->q);
}

/* The median of complex elements, as NumPy's: NaN+NaNj of none; the last
 * in NumPy's order (NaNs last) where a NaN is among them (nanmedian: the
 * last element, where all are NaN); else the median of those without
 * NaN, first in that order once all are sorted. */
static LLVMValueRef complex_median(Lower *l, QuantileArgs *a, LLVMValueRef nans, bool skip) {
  const Type *p = lo_complex_part(a->t);
  LLVMValueRef out = rd_var(l, lo_complex_make(l, a->t, lo_fconst(l, p, NAN), lo_fconst(l, p, NAN)), "median");
  LLVMBasicBlockRef some = new_block(l, "median.some"), last = new_block(l, "median.last"), mid = new_block(l, "median.mid");
  LLVMBasicBlockRef done = new_block(l, "median.done");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, a->count, const_i64(l, 0), ""), done, some);
  position(l, some);
  LLVMValueRef top = LLVMBuildSub(l->b, a->count, const_i64(l, 1), ""), kept = LLVMBuildSub(l->b, a->count, nans, "");
  LLVMValueRef final = lo_load_scalar(l, a->e, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, a->e), a->data, &top, 1, ""));
  LLVMValueRef largest = kth(l, a->e, a->data, a->count, top);  /* (all sorted) */
  LLVMValueRef use_last = skip ? LLVMBuildICmp(l->b, LLVMIntEQ, kept, const_i64(l, 0), "")
                               : LLVMBuildICmp(l->b, LLVMIntNE, nans, const_i64(l, 0), "");
  LLVMBuildCondBr(l->b, use_last, last, mid);
  position(l, last);
  LLVMBuildStore(l->b, lo_convert(l, skip ? final : largest, a->e, a->t), out);
  LLVMBuildBr(l->b, done);
  position(l, mid);
  LLVMBuildStore(l->b, median_of(l, a->e, a->t, a->data, kept), out);
  LLVMBuildBr(l->b, done);
  position(l, done);
  return rd_load(l, out);
}

static LLVMValueRef element_value(Lower *l, void *arg) {
  QuantileArgs *a = arg;
  return kth(l, a->e, a->data, a->count, LLVMBuildMul(l->b, a->q, LLVMBuildSub(l->b, a->count, const_i64(l, 1), ""), ""));
}

/* NumPy's IndexError for a quantile of no elements: its partition's or its take's. */
static void check_not_empty(Lower *l, const Type *e, LLVMValueRef count, bool take) {
  const char *msg = ty_is_float(e) ? "index -1 is out of bounds for axis 0 with size 0"
                    : take ? "cannot do a non-empty take from an empty axes."
                           : "index 0 is out of bounds for axis 0 with size 0";
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, count, const_i64(l, 0), ""), RT_ERR_INDEX, msg);
}

typedef struct QuantileArray {
  QuantileArgs *a;
  const Type *qt;
  LLVMValueRef qv, out, nan;
  bool check;  /* the pass that checks every q, before any is computed */
} QuantileArray;

static void quantile_element(Lower *l, LLVMValueRef *idx, void *arg) {
  QuantileArray *qa = arg;
  LLVMValueRef q = lo_load_scalar(l, qa->qt->elem, rd_element_ptr(l, qa->qt, qa->qv, idx));
  qa->a->q = fraction(l, qa->a->n, q, qa->qt->elem);
  if (qa->check) return;
  LLVMValueRef r = unless_nan(l, qa->nan, qa->a->t, quantile_value, qa->a);
  lo_store_scalar(l, qa->a->t, rd_element_ptr(l, qa->a->n->ty, qa->out, idx), r);
}

static LLVMValueRef quantiles(Lower *l, QuantileArgs *a, Node *q, LLVMValueRef nan) {
  LLVMValueRef qv = lo_expr(l, q), shape[RC_MAX_NDIM];
  for (int d = 0; d < q->ty->ndim; d++) shape[d] = lo_arr_shape(l, qv, d);
  QuantileArray qa = {a, q->ty, qv, NULL, nan, true};
  lo_for_each_index(l, q->ty->ndim, shape, quantile_element, &qa);
  if (!skips_nan(a->n, a->e)) check_not_empty(l, a->e, a->count, false);
  qa.out = lo_alloc_array(l, a->n->ty, shape, -1);
  qa.check = false;
  lo_for_each_index(l, q->ty->ndim, shape, quantile_element, &qa);
  lo_done_with(l, q, qv);
  return qa.out;
}

static LLVMValueRef lo_quantile(Lower *l, Node *n) {
  Node *a = n->list.items[0], *q = bi_arg(n, 1, "q");
  const Type *e = elem_of(a->ty), *wt = ty_array(e, 1, 'C', false);
  QuantileArgs qa = {n, e, n->ty->kind == TY_ARRAY ? n->ty->elem : n->ty};
  bool skip = skips_nan(n, e);
  LLVMValueRef nan, nans, work = gather(l, a, skip && !ty_is_complex(e), &qa.count, &nan, &nans), r;
  qa.data = rd_data(l, work);
  if (ty_is_complex(e)) {
    r = complex_median(l, &qa, nans, skip);
  } else if (quantile_kind(n) == Q_MEDIAN) {
    nan = rd_or(l, nan, LLVMBuildICmp(l->b, LLVMIntEQ, qa.count, const_i64(l, 0), ""));
    r = unless_nan(l, nan, qa.t, median_value, &qa);
  } else if (q->ty->kind == TY_ARRAY) {
    r = quantiles(l, &qa, q, nan);
  } else if (int_quantile(n)) {
    qa.q = lo_expr_as(l, q, TYS(TY_I64));
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntUGT, qa.q, const_i64(l, 1), ""), RT_ERR_VALUE, "Quantiles must be in the range [0, 1]");
    check_not_empty(l, e, qa.count, true);
    r = unless_nan(l, nan, qa.t, element_value, &qa);
  } else {
    qa.q = fraction(l, n, lo_expr(l, q), q->ty);
    if (!skip) check_not_empty(l, e, qa.count, false);
    r = unless_nan(l, nan, qa.t, quantile_value, &qa);
  }
  lo_release_temp(l, wt, work);
  return r;
}

/* ---------------------------------------------------------------- isclose, allclose, array_equal */

static const char *const close_kw[] = {"rtol", "atol", "equal_nan", NULL};

/* isclose's and allclose's arguments made positional (a, b, rtol, atol,
 * equal_nan), NumPy's defaults where not given: isclose's elements are
 * then a ufunc's. */
static void close_arguments(Infer *in, Node *n) {
  if (n->list.len == 5) return;
  NodeList all = {arena_alloc(in->f->arena, 5 * sizeof(Node *)), 5};
  for (int i = 0; i < 5; i++) {
    Node *v = i < n->list.len ? n->list.items[i] : ty_kwarg(n, close_kw[i - 2]);
    if (!v) {
      v = arena_alloc(in->f->arena, sizeof *v);
      *v = (Node){.kind = i == 4 ? N_BOOL : N_FLOAT, .line = n->line, .col = n->col, .fval = i == 2 ? 1e-05 : 1e-08,
                  .ty = i == 4 ? TYS(TY_BOOL) : TYS(TY_F64)};
    }
    all.items[i] = v;
  }
  n->list = all;
  n->kw.len = 0;
}

static const Type *close_type(Infer *in, Node *n) {
  const Type *types[5];
  for (int i = 0; i < 5; i++) {
    types[i] = n->list.items[i]->ty;
    if (i >= 2 && !ty_is_scalar(types[i]))
      return ty_error(in, n->list.items[i], "%s(): %s must be a number, got %s", n->bi->name, close_kw[i - 2], types[i]->name);
  }
  if (types[0]->kind == TY_ARRAY || types[1]->kind == TY_ARRAY) return ty_elementwise(in, n, types, TYS(TY_BOOL));
  for (int i = 0; i < 2; i++)
    if (!ty_is_scalar(types[i])) return ty_error(in, n, "%s() needs arrays or numbers, got %s", n->bi->name, types[i]->name);
  return TYS(TY_BOOL);
}

static const Type *ty_isclose(Infer *in, Node *n, const Type **args) {
  close_arguments(in, n);
  return close_type(in, n);
}

/* ... of a pair holding a complex number: the magnitudes |x - y| and |y|
 * (infinite or NaN unless y is finite) in the pair's complex type (a
 * Python number's yielding to an array's), NaN where either part is */
static LLVMValueRef close_complex(Lower *l, Node *n, LLVMValueRef *args, const Type *tx, const Type *ty, bool xweak,
                                  bool yweak) {
  const Type *t = xweak && !yweak ? ty : yweak && !xweak ? tx : np_promote(tx, ty);
  t = TYS(t->kind == TY_C64 || t->kind == TY_F32 ? TY_C64 : TY_C128);
  const Type *p = lo_complex_part(t);
  LLVMValueRef xv = lo_convert(l, args[0], tx, t), yv = lo_convert(l, args[1], ty, t);
  LLVMValueRef rtol = lo_convert(l, args[2], n->list.items[2]->ty, p), atol = lo_convert(l, args[3], n->list.items[3]->ty, p);
  LLVMValueRef ay = lo_complex_abs(l, t, yv), d = lo_complex_abs(l, t, lo_arith(l, OP_SUB, t, xv, yv));
  LLVMValueRef tol = LLVMBuildFAdd(l->b, atol, LLVMBuildFMul(l->b, rtol, ay, ""), "");
  LLVMValueRef r = rd_and(l, LLVMBuildFCmp(l->b, LLVMRealOLE, d, tol, ""), LLVMBuildFCmp(l->b, LLVMRealOLT, ay, lo_fconst(l, p, INFINITY), ""));
  r = rd_or(l, r, lo_compare_values(l, OP_EQ, xv, t, yv, t));
  LLVMValueRef both_nan = rd_and(l, rd_is_nan(l, t, xv), rd_is_nan(l, t, yv));
  return rd_or(l, r, rd_and(l, lo_truth(l, args[4], n->list.items[4]->ty), both_nan));
}

/* NumPy's isclose of one pair: |x - y| <= atol + rtol*|y| where y is
 * finite, or x == y; y (and the tolerance) in y's float type, the
 * difference in x's and y's common one. */
static LLVMValueRef close_element(Lower *l, Node *n, LLVMValueRef *args) {
  Node *x = n->list.items[0], *y = n->list.items[1];
  const Type *tx = elem_of(x->ty), *ty = elem_of(y->ty), *f64 = TYS(TY_F64);
  bool xweak = ty_is_weak(x), yweak = ty_is_weak(y);
  if (ty_is_complex(tx) || ty_is_complex(ty)) return close_complex(l, n, args, tx, ty, xweak, yweak);
  const Type *yd = !yweak && ty_is_float(ty) ? ty : f64;
  const Type *t = yweak ? (!xweak && ty_is_float(tx) ? tx : f64) : xweak ? yd : np_promote(tx, yd);
  LLVMValueRef yv = lo_convert(l, args[1], ty, yd), xt = lo_convert(l, args[0], tx, t), yt = lo_convert(l, yv, yd, t);
  LLVMValueRef rtol = lo_convert(l, args[2], n->list.items[2]->ty, yd), atol = lo_convert(l, args[3], n->list.items[3]->ty, yd);
  LLVMValueRef ay = lo_intrinsic1(l, "llvm.fabs", yd, yv);
  LLVMValueRef tol = lo_convert(l, LLVMBuildFAdd(l->b, atol, LLVMBuildFMul(l->b, rtol, ay, ""), ""), yd, t);
  LLVMValueRef d = lo_intrinsic1(l, "llvm.fabs", t, LLVMBuildFSub(l->b, xt, yt, ""));
  LLVMValueRef r = rd_and(l, LLVMBuildFCmp(l->b, LLVMRealOLE, d, tol, ""), LLVMBuildFCmp(l->b, LLVMRealOLT, ay, lo_fconst(l, yd, INFINITY), ""));
  r = rd_or(l, r, LLVMBuildFCmp(l->b, LLVMRealOEQ, xt, yt, ""));
  LLVMValueRef both_nan = rd_and(l, rd_is_nan(l, tx, args[0]), rd_is_nan(l, ty, args[1]));
  return rd_or(l, r, rd_and(l, lo_truth(l, args[4], n->list.items[4]->ty), both_nan));
}

static LLVMValueRef lo_isclose(Lower *l, Node *n) {
  LLVMValueRef args[5];
  for (int i = 0; i < 5; i++) args[i] = lo_expr(l, n->list.items[i]);
  return close_element(l, n, args);
}

/* allclose is all() of an isclose call made here (n->lhs), the same arguments. */
static const Type *ty_allclose(Infer *in, Node *n, const Type **args) {
  close_arguments(in, n);
  Node *c = n->lhs;
  if (!c) {
    c = n->lhs = arena_alloc(in->f->arena, sizeof *c);
    *c = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .bi = bi_named("numpy.isclose"), .list = n->list, .ival = -1};
  }
  return (c->ty = close_type(in, c)) ? TYS(TY_BOOL) : NULL;
}

static LLVMValueRef lo_allclose(Lower *l, Node *n) {
  return rd_all(l, n->lhs);
}

/* Arrays of str (bytes) items compare with arrays of them alone, item by
 * item as NumPy's ==, as Numba's array_equal takes them. */
static const Type *ty_array_equal(Infer *in, Node *n, const Type **args) {
  const Type *ea = elem_of(args[0]), *eb = elem_of(args[1]);
  if ((ty_is_fixed_text(ea) || ty_is_fixed_text(eb)) &&
      (args[0]->kind != TY_ARRAY || args[1]->kind != TY_ARRAY || ea->kind != eb->kind))
    return ty_error(in, n, "%s() compares an array of str (bytes) with another array of str (bytes) in compiled "
                    "code, got %s and %s", n->bi->name, args[0]->name, args[1]->name);
  if (!bi_need_values(in, n, n->list.items[0]) || !bi_need_values(in, n, n->list.items[1]) ||
      !bi_check_number(in, n, bi_arg(n, 2, "equal_nan"), "equal_nan"))
    return NULL;
  return TYS(TY_BOOL);
}

typedef struct Equal {
  const Type *ta, *tb;
  LLVMValueRef va, vb, equal_nan, all;
} Equal;

/* (text items: x and y their addresses, of widths NumPy pads to compare) */
static LLVMValueRef pair_equal(Lower *l, const Equal *q, LLVMValueRef x, LLVMValueRef y) {
  const Type *ea = elem_of(q->ta), *eb = elem_of(q->tb);
  if (ty_is_fixed_text(ea))
    return lo_text_compare(l, OP_EQ, x, const_i64(l, ea->unit), y, const_i64(l, eb->unit), ea->kind == TY_CHARSEQ ? 4 : 1);
  const Type *t = np_promote(ea, eb);
  LLVMValueRef eq = lo_compare_values(l, OP_EQ, lo_convert(l, x, ea, t), t, lo_convert(l, y, eb, t), t);
  return rd_or(l, eq, rd_and(l, q->equal_nan, rd_and(l, rd_is_nan(l, ea, x), rd_is_nan(l, eb, y))));
}

static void equal_element(Lower *l, LLVMValueRef *idx, void *arg) {
  Equal *q = arg;
  LLVMValueRef x = lo_load_scalar(l, q->ta->elem, rd_element_ptr(l, q->ta, q->va, idx));
  LLVMValueRef y = lo_load_scalar(l, q->tb->elem, rd_element_ptr(l, q->tb, q->vb, idx));
  LLVMBuildStore(l->b, rd_and(l, rd_load(l, q->all), pair_equal(l, q, x, y)), q->all);
}

/* NumPy's array_equal: the same shape and equal elements (NaN equal to NaN with equal_nan). */
static LLVMValueRef lo_array_equal(Lower *l, Node *n) {
  Node *a = n->list.items[0], *b = n->list.items[1], *en = bi_arg(n, 2, "equal_nan");
  Equal q = {a->ty, b->ty, lo_expr(l, a), lo_expr(l, b), const_bool(l, false)};
  if (en) q.equal_nan = lo_truth(l, lo_expr(l, en), en->ty);
  int nd = ndim_of(a->ty);
  LLVMValueRef r;
  if (nd != ndim_of(b->ty)) {
    r = const_bool(l, false);
  } else if (nd == 0) {
    LLVMValueRef x = a->ty->kind == TY_ARRAY ? lo_load_scalar(l, a->ty->elem, rd_data(l, q.va)) : q.va;
    LLVMValueRef y = b->ty->kind == TY_ARRAY ? lo_load_scalar(l, b->ty->elem, rd_data(l, q.vb)) : q.vb;
    r = pair_equal(l, &q, x, y);
  } else {
    LLVMValueRef same = const_bool(l, true), shape[RC_MAX_NDIM];
    for (int d = 0; d < nd; d++) {
      shape[d] = lo_arr_shape(l, q.va, d);
      same = rd_and(l, same, LLVMBuildICmp(l->b, LLVMIntEQ, shape[d], lo_arr_shape(l, q.vb, d), ""));
    }
    q.all = rd_var(l, same, "equal");
    LLVMBasicBlockRef compare = new_block(l, "equal.compare"), done = new_block(l, "equal.done");
    LLVMBuildCondBr(l->b, same, compare, done);
    position(l, compare);
    lo_for_each_index(l, nd, shape, equal_element, &q);
    LLVMBuildBr(l->b, done);
    position(l, done);
    r = rd_load(l, q.all);
  }
  lo_done_with(l, b, q.vb);
  lo_done_with(l, a, q.va);
  return r;
}

/* ---------------------------------------------------------------- the rows */

static const char *const axis_dtype_kw[] = {"axis", "dtype", NULL};
static const char *const q_kw[] = {"q", NULL};
static const char *const diff_kw[] = {"n", "axis", NULL};
static const char *const equal_nan_kw[] = {"equal_nan", NULL};

/* a tuple or a literal list as the array or as q is an array (numpy.asarray of it) */
#define QUANTILE(name, id, hi, kw, flags) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, 1, hi, kw, RD_FLAGS | BF_ARRAYLIKE | (flags), id, 0, ty_quantile, lo_quantile}

const Builtin bi_statistics[] = {
  /* complex elements too: rd_add, rd_mul and rd_sub do NumPy's complex arithmetic */
  {"numpy.cumsum", "numpy", "cumsum", BK_FUNCTION, 0, 1, 3, axis_dtype_kw, RD_FLAGS | BF_COMPLEX, CUM_SUM, 0,
   ty_accumulate, lo_accumulate},
  {"array.cumsum", NULL, "cumsum", BK_METHOD, TY_ARRAY, 0, 2, axis_dtype_kw, RD_FLAGS | BF_COMPLEX, CUM_SUM, 0,
   ty_accumulate, lo_accumulate},
  {"numpy.cumprod", "numpy", "cumprod", BK_FUNCTION, 0, 1, 3, axis_dtype_kw, RD_FLAGS | BF_COMPLEX, CUM_PROD, 0,
   ty_accumulate, lo_accumulate},
  {"array.cumprod", NULL, "cumprod", BK_METHOD, TY_ARRAY, 0, 2, axis_dtype_kw, RD_FLAGS | BF_COMPLEX, CUM_PROD, 0,
   ty_accumulate, lo_accumulate},
  {"numpy.nancumsum", "numpy", "nancumsum", BK_FUNCTION, 0, 1, 3, axis_dtype_kw, RD_FLAGS | BF_COMPLEX, CUM_NANSUM, 0,
   ty_accumulate, lo_accumulate},
  {"numpy.nancumprod", "numpy", "nancumprod", BK_FUNCTION, 0, 1, 3, axis_dtype_kw, RD_FLAGS | BF_COMPLEX, CUM_NANPROD, 0,
   ty_accumulate, lo_accumulate},
  {"numpy.unwrap", "numpy", "unwrap", BK_FUNCTION, 0, 1, 3, unwrap_kw, RD_FLAGS | BF_ARRAYLIKE | BF_NONE, 0, 0, ty_unwrap, lo_unwrap},
  {"numpy.ediff1d", "numpy", "ediff1d", BK_FUNCTION, 0, 1, 3, ediff1d_kw, RD_FLAGS | BF_COMPLEX | BF_NONE, 0, 0, ty_ediff1d, lo_ediff1d},
  {"numpy.diff", "numpy", "diff", BK_FUNCTION, 0, 1, 3, diff_kw, RD_FLAGS | BF_COMPLEX, 0, 0, ty_diff, lo_diff},
  /* a median of complex numbers: the mean of the middle ones in NumPy's order (NaNs last); not a quantile */
  QUANTILE("median", Q_MEDIAN, 1, NULL, BF_COMPLEX),
  QUANTILE("percentile", Q_PERCENTILE, 2, q_kw, 0),
  QUANTILE("quantile", Q_QUANTILE, 2, q_kw, 0),
  QUANTILE("nanmedian", Q_MEDIAN | Q_NAN, 1, NULL, BF_COMPLEX),
  QUANTILE("nanpercentile", Q_PERCENTILE | Q_NAN, 2, q_kw, 0),
  QUANTILE("nanquantile", Q_QUANTILE | Q_NAN, 2, q_kw, 0),
  {"numpy.isclose", "numpy", "isclose", BK_FUNCTION, 0, 2, 5, close_kw, RD_FLAGS | BF_ARRAYLIKE | BF_COMPLEX, 0, 0, ty_isclose,
   lo_isclose, close_element},
  {"numpy.allclose", "numpy", "allclose", BK_FUNCTION, 0, 2, 5, close_kw, RD_FLAGS | BF_ARRAYLIKE | BF_COMPLEX, 0, 0,
   ty_allclose, lo_allclose},
  {"numpy.array_equal", "numpy", "array_equal", BK_FUNCTION, 0, 2, 3, equal_nan_kw, RD_FLAGS | BF_ARRAYLIKE | BF_COMPLEX, 0, 0,
   ty_array_equal, lo_array_equal},
  BI_END,
};
