/* builtins/complex_reduce.c — NumPy's reductions of complex arrays in
 * compiled code: sum, prod and mean, var and std (float results: the mean
 * of |x - mean|**2, as NumPy computes them), any and all (an element is
 * true where either part is nonzero) and count_nonzero, min, max, argmin and argmax
 * (NumPy's order: by real part, then imaginary part; the first element
 * holding a NaN wins), ptp (max - min); nansum, nanprod, nanmean, nanvar,
 * nanstd, nanmin and nanmax (an element with a NaN part left out, as NumPy's), of the
 * whole array or along an axis (of a complex number: of the 0-d array of it); sums, products and means take a complex
 * dtype= to accumulate in.
 *
 * Arrays of str and bytes ('<Un', '|Sn') reduce here too, as Numba's: min,
 * max, argmin and argmax by NumPy's order of text (rt_text_order: code
 * points or unsigned bytes, the padding least; the first of equal items
 * wins), any, all and count_nonzero by an item's truth (not empty).
 *
 * reduce.c's passes run on vector lanes of numbers; a complex element is
 * a pair of them and a text item a run of bytes, so these run one element
 * at a time, in C order, with NumPy's complex arithmetic (reduce.h's rd_add
 * ...). reduce.c's rows hand complex and text arguments to the rows here by
 * name (BF_COMPLEX: "numpy.sum of complex", "numpy.argmax of text" ...).
 */
#include <stdio.h>

#include "builtins/reduce.h"

/* the row's ival */
enum {
  CR_SUM, CR_PROD, CR_MEAN, CR_VAR, CR_STD, CR_ANY, CR_ALL, CR_COUNT_NONZERO, CR_NANSUM, CR_NANPROD, CR_NANMEAN, CR_NANVAR, CR_NANSTD,
  CR_MIN, CR_MAX, CR_ARGMIN, CR_ARGMAX, CR_NANMIN, CR_NANMAX, CR_PTP,
};

static bool spreads(int which) { return which == CR_VAR || which == CR_STD || which == CR_NANVAR || which == CR_NANSTD; }
static bool picks(int which) { return which >= CR_MIN; }
static bool indexes(int which) { return which == CR_ARGMIN || which == CR_ARGMAX; }
static bool truths(int which) { return which == CR_ANY || which == CR_ALL; }
static bool counts(int which) { return which == CR_COUNT_NONZERO; }
/* nansum ... nanmax: an element with a NaN part counts as missing (NumPy's isnan of complex) */
static bool skips_nan(int which) {
  return (which >= CR_NANSUM && which <= CR_NANSTD) || which == CR_NANMIN || which == CR_NANMAX;
}

/* A complex number reduces as the 0-d array of it, as NumPy's. */
static const Type *array_of(const Type *t) { return t->kind == TY_ARRAY ? t : ty_array(t, 0, 'C', false); }

/* sum, prod, mean, var, std (a, axis=None, dtype=None, ddof=0) of a
 * complex array (or number): the elements' type (var, std: its part's), an array of
 * one dimension less along an axis. */
static const Type *ty_complex_reduce(Infer *in, Node *n, const Type **args) {
  Node *axis = bi_arg(n, 1, "axis"), *dtype = bi_arg(n, 2, "dtype");
  const Type *t = array_of(args[0]);
  const Type *acc = NULL;
  if (dtype && !bi_check_dtype(in, n, dtype, &acc)) return NULL;
  int which = (int)n->bi->ival;
  if (acc && (!ty_is_complex(acc) || spreads(which) || picks(which) || truths(which) || counts(which)))
    return ty_error(in, dtype, "%s() of a complex array takes a complex dtype alone in compiled code, got %s", n->bi->name,
                    acc->name);
  if ((axis && !bi_check_axis_late(in, n, axis, t->ndim)) || !bi_check_number(in, n, ty_kwarg(n, "ddof"), "ddof"))
    return NULL;
  const Type *e = acc ? acc : t->elem;  /* a dtype= accumulates in that complex type, as NumPy's */
  const Type *res = spreads(which)                     ? lo_complex_part(e)
                    : indexes(which) || counts(which) ? TYS(TY_I64)
                    : truths(which)                   ? TYS(TY_BOOL)
                                                      : e;
  if (!axis && !acc && in->opts && in->opts->numba_code && e->kind == TY_C64 && (spreads(which) || which == CR_NANMEAN))
    res = which == CR_NANMEAN ? TYS(TY_C128) : TYS(TY_F64);  /* Numba's loops add into a complex128 or a float64 */
  return axis && t->ndim > 1 ? ty_array(res, t->ndim - 1, 'C', false) : res;
}

/* min, max, argmin, argmax, any, all, count_nonzero (a, axis=None) of an
 * array of str or bytes: an index, a truth, a count, or min's and max's
 * item as a str (bytes); along an axis an array of them (min's and max's
 * of the items' dtype). */
static const Type *ty_text_reduce(Infer *in, Node *n, const Type **args) {
  Node *axis = bi_arg(n, 1, "axis");
  const Type *t = args[0];
  if (bi_none_as_default(axis)) axis = NULL;
  if (axis && !bi_check_axis_late(in, n, axis, t->ndim)) return NULL;
  int which = (int)n->bi->ival;
  bool along = axis && t->ndim > 1;
  const Type *item = along ? t->elem : t->elem->kind == TY_CHARSEQ ? TYS(TY_STR) : TYS(TY_BYTES);
  const Type *res = indexes(which) || counts(which) ? TYS(TY_I64) : truths(which) ? TYS(TY_BOOL) : item;
  if (along && ty_no_allocation(in))
    return ty_error(in, n, "kernels cannot allocate arrays: %s() along an axis makes one", n->bi->name);
  return along ? ty_array(res, t->ndim - 1, 'C', false) : res;
}

/* The row "numpy.f of text" for numpy.f's call of an array of str or
 * bytes; a TypingError if none (NumPy's arithmetic refuses text). */
const Type *ty_numpy_text_reduce(Infer *in, Node *n, const Type **args) {
  char name[64];
  snprintf(name, sizeof name, "%s of text", n->bi->name);
  const Builtin *bi = bi_named(name);
  if (!bi) return ty_error(in, n, "%s() does not support arrays of str or bytes in compiled code", n->bi->name);
  n->bi = bi;
  return bi->type(in, n, args);
}

/* A call being lowered: which reduction of which array, and where one
 * output's elements lie (the index of the output, the axis run along). */
typedef struct Reduce {
  int which;
  const Type *t;        /* the array's type */
  const Type *acc;      /* the type sums and products accumulate in: the elements' or dtype='s */
  LLVMValueRef v;       /* the array */
  LLVMValueRef ddof;    /* var, std: as a float64 */
  int axis;             /* the axis an output runs along; -1: all the elements */
  const Type *ot;       /* along an axis: the result array's type */
  LLVMValueRef out;     /* ... and the result */
} Reduce;

static LLVMValueRef part_const(Lower *l, const Type *t, double v) { return lo_fconst(l, lo_complex_part(t), v); }

/* Visits one output's elements in C order: `each` gets the element. */
typedef void (*Visit)(Lower *l, LLVMValueRef x, void *arg);

typedef struct Walk {
  const Reduce *r;
  Visit each;
  void *arg;
} Walk;

static void walk_element(Lower *l, LLVMValueRef *idx, void *arg) {
  Walk *w = arg;
  const Type *t = w->r->t;
  LLVMValueRef x = lo_load_scalar(l, t->elem, rd_element_ptr(l, t, w->r->v, idx));
  w->each(l, lo_convert(l, x, t->elem, w->r->acc), w->arg);
}

/* ... walked with the first index the fastest */
static void walk_element_backwards(Lower *l, LLVMValueRef *idx, void *arg) {
  Walk *w = arg;
  LLVMValueRef forwards[RC_MAX_NDIM];
  for (int d = 0; d < w->r->t->ndim; d++) forwards[d] = idx[w->r->t->ndim - 1 - d];
  walk_element(l, forwards, arg);
}

/* Whether all the elements are walked in memory order: a Fortran array's
 * in code written for Numba, whose nditer walks it so (NumPy's loops here,
 * and ruchey's own code, in C order). */
static bool walks_memory(Lower *l, const Reduce *r) {
  return l->opts->numba_code && r->axis < 0 && r->t->ndim > 1 && r->t->layout == 'F';
}

/* The elements of the output at `at` (along r->axis), or all of them. */
static void walk(Lower *l, const Reduce *r, LLVMValueRef *at, Visit each, void *arg) {
  Walk w = {r, each, arg};
  int nd = r->t->ndim;
  LLVMValueRef shape[RC_MAX_NDIM];
  if (r->axis < 0) {
    bool backwards = walks_memory(l, r);
    for (int d = 0; d < nd; d++) shape[d] = lo_arr_shape(l, r->v, backwards ? nd - 1 - d : d);
    lo_for_each_index(l, nd, shape, backwards ? walk_element_backwards : walk_element, &w);
    return;
  }
  LLVMValueRef idx[RC_MAX_NDIM];
  for (int d = 0, o = 0; d < nd; d++)
    if (d != r->axis) idx[d] = at[o++];
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), lo_arr_shape(l, r->v, r->axis), NULL, "creduce");
  idx[r->axis] = loop.index;
  walk_element(l, idx, &w);
  lo_loop_end(l, &loop);
}

/* the number of elements an output reduces, as a float64 */
static LLVMValueRef count_of(Lower *l, const Reduce *r) {
  LLVMValueRef n = const_i64(l, 1);
  for (int d = 0; d < r->t->ndim; d++)
    if (r->axis < 0 || d == r->axis) n = LLVMBuildMul(l->b, n, lo_arr_shape(l, r->v, d), "");
  return lo_convert(l, n, TYS(TY_I64), TYS(TY_F64));
}

enum { DEVIATIONS = -1, ANY = -2, ALL = -3, COUNT = -4, NONZERO = -5 };

static LLVMValueRef has_nan(Lower *l, LLVMValueRef x) {
  return LLVMBuildFCmp(l->b, LLVMRealUNO, lo_complex_real(l, x), lo_complex_imag(l, x), "");
}

typedef struct Acc {
  const Type *t;        /* the accumulator's type */
  const Type *elem;     /* the elements' */
  int op;               /* OP_ADD, OP_MUL; DEVIATIONS: add |x - center|**2; ANY, ALL: or, and x's truth;
                           COUNT: add 1.0 for an x without NaN; NONZERO: add 1 for a true x */
  LLVMValueRef var;     /* its alloca */
  LLVMValueRef center;  /* the mean the deviations are from */
  bool skip_nan;        /* an x with a NaN part adds nothing (multiplies by 1) */
} Acc;

/* x (of type t) is true where either part is nonzero; a text item (x its
 * address) where it is not empty */
static LLVMValueRef truth_of(Lower *l, const Type *t, LLVMValueRef x) {
  if (ty_is_fixed_text(t)) return lo_item_truth(l, t, x);
  LLVMValueRef zero = part_const(l, t, 0);
  return LLVMBuildOr(l->b, LLVMBuildFCmp(l->b, LLVMRealUNE, lo_complex_real(l, x), zero, ""),
                     LLVMBuildFCmp(l->b, LLVMRealUNE, lo_complex_imag(l, x), zero, ""), "");
}

static void accumulate(Lower *l, LLVMValueRef x, void *arg) {
  Acc *a = arg;
  LLVMValueRef cur = rd_load(l, a->var);
  if (a->op == COUNT) {
    LLVMValueRef one = LLVMBuildSelect(l->b, has_nan(l, x), lo_fconst(l, a->t, 0), lo_fconst(l, a->t, 1), "");
    LLVMBuildStore(l->b, LLVMBuildFAdd(l->b, cur, one, ""), a->var);
    return;
  }
  if (a->op == NONZERO) {
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, cur, LLVMBuildZExt(l->b, truth_of(l, a->elem, x), l->mod->i64, ""), ""), a->var);
    return;
  }
  if (a->op == ANY || a->op == ALL) {
    LLVMValueRef truth = truth_of(l, a->elem, x);
    LLVMBuildStore(l->b, a->op == ANY ? LLVMBuildOr(l->b, cur, truth, "") : LLVMBuildAnd(l->b, cur, truth, ""), a->var);
    return;
  }
  if (a->op != DEVIATIONS) {
    LLVMValueRef next = a->op == OP_MUL ? rd_mul(l, a->t, cur, x) : rd_add(l, a->t, cur, x);
    if (a->skip_nan) next = LLVMBuildSelect(l->b, has_nan(l, x), cur, next, "");
    LLVMBuildStore(l->b, next, a->var);
    return;
  }
  LLVMValueRef d = rd_sub(l, a->elem, x, a->center);
  LLVMValueRef re = lo_complex_real(l, d), im = lo_complex_imag(l, d);
  LLVMValueRef sq = LLVMBuildFAdd(l->b, LLVMBuildFMul(l->b, re, re, ""), LLVMBuildFMul(l->b, im, im, ""), "");
  sq = lo_convert(l, sq, lo_complex_part(a->elem), a->t);
  LLVMValueRef next = LLVMBuildFAdd(l->b, cur, sq, "");
  LLVMBuildStore(l->b, a->skip_nan ? LLVMBuildSelect(l->b, has_nan(l, x), cur, next, "") : next, a->var);
}

/* op over one output's elements, from init */
static LLVMValueRef fold(Lower *l, const Reduce *r, LLVMValueRef *at, const Type *t, int op, LLVMValueRef init,
                         LLVMValueRef center) {
  Acc a = {t, r->acc, op, rd_var(l, init, "cacc"), center, skips_nan(r->which)};
  walk(l, r, at, accumulate, &a);
  return rd_load(l, a.var);
}

/* NumPy's pairwise sum (rt_sum_complex; nansum's with an element holding
 * a NaN as 0) applies where it reads the elements as one run: all of a
 * 1-d array or of a contiguous one (in memory's order, as NumPy's), in
 * their own type, on the CPU; other sums add in C order. */
static bool one_run(const Reduce *r) {
  const Type *t = r->t;
  return r->axis < 0 && t->ndim > 0 && (t->ndim == 1 || t->layout != 'A') && r->acc == t->elem;
}

static LLVMValueRef pairwise_sum(Lower *l, const Reduce *r) {
  LLVMValueRef n = const_i64(l, 1);
  for (int d = 0; d < r->t->ndim; d++) n = LLVMBuildMul(l->b, n, lo_arr_shape(l, r->v, d), "");
  LLVMValueRef stride = r->t->ndim == 1 ? lo_arr_stride(l, r->t, r->v, 0) : const_i64(l, (int64_t)r->t->elem->size);
  LLVMValueRef out = lo_alloca(l, lo_type(l, r->acc), "csum");
  LLVMTypeRef params[6] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i32, l->mod->i1, l->mod->ptr};
  LLVMValueRef args[6] = {LLVMBuildExtractValue(l->b, r->v, 2, ""), n, stride, const_i32(l, (int)r->acc->kind),
                          LLVMConstInt(l->mod->i1, r->which == CR_NANSUM, 0), out};
  lo_call_fn(l, "rt_sum_complex", LLVMVoidTypeInContext(l->mod->c), params, args, 6);
  return lo_load_scalar(l, r->acc, out);
}

static LLVMValueRef sum_of(Lower *l, const Reduce *r, LLVMValueRef *at) {
  const Type *e = r->acc;
  if ((r->which == CR_NANSUM || !skips_nan(r->which)) && one_run(r) && !l->mod->gpu && !l->opts->numba_code)
    return pairwise_sum(l, r);  /* (Numba's adds one element after another) */
  return fold(l, r, at, e, OP_ADD, LLVMConstNull(lo_type(l, e)), NULL);
}

/* the elements counted: nanmean's, nanvar's, those without NaN */
static LLVMValueRef counted(Lower *l, const Reduce *r, LLVMValueRef *at) {
  const Type *f64 = TYS(TY_F64);
  return skips_nan(r->which) ? fold(l, r, at, f64, COUNT, lo_fconst(l, f64, 0), NULL) : count_of(l, r);
}

/* total / count as Numba's mean divides: Python's complex division (by
 * count + 0j, dividing where NumPy's multiplies by a reciprocal), in
 * complex128, rounded to the type of total, t. */
static LLVMValueRef divide_as_python(Lower *l, const Type *t, LLVMValueRef total, LLVMValueRef count) {
  const Type *c128 = TYS(TY_C128), *f64 = TYS(TY_F64);
  LLVMValueRef z = lo_convert(l, total, t, c128), re = lo_complex_real(l, z), im = lo_complex_imag(l, z);
  LLVMValueRef ratio = LLVMBuildFDiv(l->b, lo_fconst(l, f64, 0), count, "");
  LLVMValueRef denom = LLVMBuildFAdd(l->b, count, LLVMBuildFMul(l->b, lo_fconst(l, f64, 0), ratio, ""), "");
  LLVMValueRef qr = LLVMBuildFDiv(l->b, LLVMBuildFAdd(l->b, re, LLVMBuildFMul(l->b, im, ratio, ""), ""), denom, "");
  LLVMValueRef qi = LLVMBuildFDiv(l->b, LLVMBuildFSub(l->b, im, LLVMBuildFMul(l->b, re, ratio, ""), ""), denom, "");
  return lo_convert(l, lo_complex_make(l, c128, qr, qi), c128, t);
}

/* nanmean: over the elements without NaN (0/0, NaN, where none is); mean
 * and var's mean in code written for Numba as its a.mean() divides. */
static LLVMValueRef mean_of(Lower *l, const Reduce *r, LLVMValueRef *at) {
  if (l->opts->numba_code && !skips_nan(r->which)) return divide_as_python(l, r->acc, sum_of(l, r, at), count_of(l, r));
  return rd_divide(l, r->acc, sum_of(l, r, at), counted(l, r, at));
}

/* min, max, argmin, argmax: the element kept so far, its index, and the
 * index of the next */
typedef struct Pick {
  const Type *elem;
  bool max;
  bool skip_nan;             /* nanmin, nanmax: NumPy's fmin.reduce, fmax.reduce */
  LLVMValueRef best, at, i;  /* allocas */
} Pick;

/* Whether text item x (its address) orders strictly after (max) or before
 * the one kept, best */
static LLVMValueRef text_beyond(Lower *l, const Pick *p, LLVMValueRef x, LLVMValueRef best) {
  LLVMValueRef units = const_i64(l, p->elem->unit);
  return lo_text_compare(l, p->max ? OP_GT : OP_LT, x, units, best, units, p->elem->kind == TY_CHARSEQ ? 4 : 1);
}

/* x replaces the element kept where it is the first, or where that holds
 * no NaN and x holds one or is strictly smaller (larger: max); a text
 * item (held by its address) where it orders strictly beyond */
static void pick(Lower *l, LLVMValueRef x, void *arg) {
  Pick *p = arg;
  LLVMValueRef best = rd_load(l, p->best), i = rd_load(l, p->i);
  if (ty_is_fixed_text(p->elem)) {
    LLVMBasicBlockRef compare = new_block(l, "tpick.compare"), done = new_block(l, "tpick.done"), from = LLVMGetInsertBlock(l->b);
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, i, const_i64(l, 0), ""), done, compare);
    position(l, compare);  /* (the first item is kept unread: best holds no item yet) */
    LLVMValueRef beyond = text_beyond(l, p, x, best);
    LLVMBasicBlockRef compared = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    position(l, done);
    LLVMValueRef take = LLVMBuildPhi(l->b, l->mod->i1, "tpick.take");
    LLVMAddIncoming(take, (LLVMValueRef[]){const_bool(l, true), beyond}, (LLVMBasicBlockRef[]){from, compared}, 2);
    LLVMBuildStore(l->b, LLVMBuildSelect(l->b, take, x, best, ""), p->best);
    LLVMBuildStore(l->b, LLVMBuildSelect(l->b, take, i, rd_load(l, p->at), ""), p->at);
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, i, const_i64(l, 1), ""), p->i);
    return;
  }
  LLVMValueRef xr = lo_complex_real(l, x), xi = lo_complex_imag(l, x), br = lo_complex_real(l, best), bi = lo_complex_imag(l, best);
  LLVMRealPredicate beyond = p->max ? LLVMRealOGT : LLVMRealOLT;
  LLVMValueRef better = LLVMBuildOr(l->b, LLVMBuildFCmp(l->b, beyond, xr, br, ""),
                                    LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, xr, br, ""),
                                                 LLVMBuildFCmp(l->b, beyond, xi, bi, ""), ""), "");
  LLVMValueRef x_nan = LLVMBuildFCmp(l->b, LLVMRealUNO, xr, xi, ""), best_nan = LLVMBuildFCmp(l->b, LLVMRealUNO, br, bi, "");
  LLVMValueRef first = LLVMBuildICmp(l->b, LLVMIntEQ, i, const_i64(l, 0), "");
  LLVMValueRef take = p->skip_nan  /* an x without NaN replaces one with, or a farther one */
                        ? LLVMBuildAnd(l->b, LLVMBuildNot(l->b, x_nan, ""), LLVMBuildOr(l->b, best_nan, better, ""), "")
                        : LLVMBuildAnd(l->b, LLVMBuildNot(l->b, best_nan, ""), LLVMBuildOr(l->b, x_nan, better, ""), "");
  take = LLVMBuildOr(l->b, first, take, "");
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, take, x, best, ""), p->best);
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, take, i, rd_load(l, p->at), ""), p->at);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, i, const_i64(l, 1), ""), p->i);
}

static const char *const empty_messages[] = {
  [CR_MIN] = "zero-size array to reduction operation minimum which has no identity",
  [CR_MAX] = "zero-size array to reduction operation maximum which has no identity",
  [CR_ARGMIN] = "attempt to get argmin of an empty sequence",
  [CR_ARGMAX] = "attempt to get argmax of an empty sequence",
  [CR_NANMIN] = "zero-size array to reduction operation fmin which has no identity",
  [CR_NANMAX] = "zero-size array to reduction operation fmax which has no identity",
  [CR_PTP] = "zero-size array to reduction operation maximum which has no identity",
};

static LLVMValueRef pick_by(Lower *l, const Reduce *r, LLVMValueRef *at, bool max) {
  const Type *e = r->t->elem;
  LLVMValueRef zero = const_i64(l, 0);
  Pick p = {e, max, skips_nan(r->which), rd_var(l, LLVMConstNull(lo_type(l, e)), "cbest"), rd_var(l, zero, "cat"),
            rd_var(l, zero, "ci")};
  walk(l, r, at, pick, &p);
  return indexes(r->which) ? rd_load(l, p.at) : rd_load(l, p.best);
}

/* ptp: max - min, each NumPy's (a NaN wins) */
static LLVMValueRef pick_one(Lower *l, const Reduce *r, LLVMValueRef *at) {
  lo_raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOEQ, count_of(l, r), lo_fconst(l, TYS(TY_F64), 0), ""), RT_ERR_VALUE,
              empty_messages[r->which]);
  if (r->which == CR_PTP) return rd_sub(l, r->t->elem, pick_by(l, r, at, true), pick_by(l, r, at, false));
  return pick_by(l, r, at, r->which == CR_MAX || r->which == CR_ARGMAX || r->which == CR_NANMAX);
}

/* One output: NumPy divides var's sum by max(count - ddof, 0). */
static LLVMValueRef reduce_one(Lower *l, const Reduce *r, LLVMValueRef *at) {
  const Type *e = r->acc;
  if (picks(r->which)) return pick_one(l, r, at);
  switch (r->which) {
  case CR_SUM: case CR_NANSUM: return sum_of(l, r, at);
  case CR_PROD: case CR_NANPROD:
    return fold(l, r, at, e, OP_MUL, lo_complex_make(l, e, part_const(l, e, 1), part_const(l, e, 0)), NULL);
  case CR_MEAN: case CR_NANMEAN: return mean_of(l, r, at);
  case CR_ANY: return fold(l, r, at, TYS(TY_BOOL), ANY, LLVMConstInt(l->mod->i1, 0, 0), NULL);
  case CR_ALL: return fold(l, r, at, TYS(TY_BOOL), ALL, LLVMConstInt(l->mod->i1, 1, 0), NULL);
  case CR_COUNT_NONZERO: return fold(l, r, at, TYS(TY_I64), NONZERO, const_i64(l, 0), NULL);
  }
  LLVMValueRef m = mean_of(l, r, at);
  const Type *p = elem_of(r->ot);  /* the part's type (code written for Numba: a float64, as its var adds in) */
  LLVMValueRef ss = fold(l, r, at, p, DEVIATIONS, lo_fconst(l, p, 0), m);
  const Type *f64 = TYS(TY_F64);
  LLVMValueRef dof = LLVMBuildFSub(l->b, counted(l, r, at), r->ddof, ""), zero = lo_fconst(l, f64, 0);
  /* nanvar and nanstd: NaN where no degree of freedom is left, as NumPy's */
  LLVMValueRef below = LLVMBuildFCmp(l->b, skips_nan(r->which) ? LLVMRealOLE : LLVMRealOLT, dof, zero, "");
  dof = LLVMBuildSelect(l->b, below, skips_nan(r->which) ? lo_fconst(l, f64, __builtin_nan("")) : zero, dof, "");
  LLVMValueRef v = LLVMBuildFDiv(l->b, ss, lo_convert(l, dof, f64, p), "");
  return r->which == CR_STD || r->which == CR_NANSTD ? lo_intrinsic1(l, "llvm.sqrt", p, v) : v;
}

static void reduce_output(Lower *l, LLVMValueRef *idx, void *arg) {
  Reduce *r = arg;
  lo_store_scalar(l, r->ot->elem, rd_element_ptr(l, r->ot, r->out, idx), reduce_one(l, r, idx));
}

/* every output along axis k, into a new array */
static LLVMValueRef reduce_along(Lower *l, int k, void *arg) {
  Reduce *r = arg;
  LLVMValueRef shape[RC_MAX_NDIM];
  for (int d = 0, o = 0; d < r->t->ndim; d++)
    if (d != k) shape[o++] = lo_arr_shape(l, r->v, d);
  r->axis = k;
  r->out = lo_alloc_array(l, r->ot, shape, -1);
  lo_for_each_index(l, r->ot->ndim, shape, reduce_output, r);
  return r->out;
}

static LLVMValueRef lo_complex_reduce(Lower *l, Node *n) {
  Node *a = n->list.items[0], *axis = bi_arg(n, 1, "axis"), *ddof = ty_kwarg(n, "ddof");
  const Type *f64 = TYS(TY_F64);
  const Type *t = array_of(a->ty);
  bool text = ty_is_fixed_text(t->elem);
  if (text && bi_none_as_default(axis)) axis = NULL;
  const Type *acc = axis && t->ndim > 1 ? n->ty->elem : n->ty;
  if (!ty_is_complex(acc)) acc = t->elem;  /* var, std, any, argmax ... */
  if (l->opts->numba_code && skips_nan(n->bi->ival) && spreads(n->bi->ival) && !axis && t->elem->kind == TY_C64)
    acc = TYS(TY_C128);  /* Numba's nanvar: from nanmean's complex128 */
  LLVMValueRef v = lo_expr(l, a), x = v;
  if (t != a->ty) {  /* a number: in memory, seen through a 0-d array */
    LLVMValueRef slot = lo_alloca(l, lo_type(l, a->ty), "complex.number");
    lo_store_scalar(l, a->ty, slot, v);
    x = lo_pointer_array(l, t, slot);
  }
  Reduce r = {n->bi->ival, t, acc, x, ddof ? lo_expr_as(l, ddof, f64) : lo_fconst(l, f64, 0), -1, n->ty};
  if (axis && t->ndim == 1) np_runtime_axis(l, axis, 1);  /* (the one axis: the whole array, once it is checked) */
  LLVMValueRef res = axis && t->ndim > 1 ? rd_for_axis(l, axis, t->ndim, n->ty, reduce_along, &r, rd_axis_error)
                                         : reduce_one(l, &r, NULL);
  if (text && (n->ty->kind == TY_STR || n->ty->kind == TY_BYTES)) res = lo_text_read(l, t->elem, res);  /* min, max */
  lo_done_with(l, a, v);
  return res;
}

/* ---------------------------------------------------------------- the rows */

static const char *const axis_dtype_ddof_kw[] = {"axis", "dtype", "ddof", NULL};

/* (numpy.sum's row checked the arguments' places) */
#define REDUCE_OF_COMPLEX(name, which)                                                                              \
  {"numpy." name " of complex", NULL, NULL, BK_FUNCTION, 0, 1, 4, axis_dtype_ddof_kw, RD_FLAGS | BF_COMPLEX, which, 0,            \
   ty_complex_reduce, lo_complex_reduce},                                                                           \
  {"array." name " of complex", NULL, NULL, BK_FUNCTION, 0, 1, 4, axis_dtype_ddof_kw, RD_FLAGS | BF_COMPLEX, which, 0,            \
   ty_complex_reduce, lo_complex_reduce}

static const char *const axis_kw[] = {"axis", NULL};

/* (reduce.c's row checked the arguments' places) */
#define REDUCE_OF_TEXT(name, which)                                                                                \
  {"numpy." name " of text", NULL, NULL, BK_FUNCTION, 0, 1, 2, axis_kw, RD_FLAGS, which, 0, ty_text_reduce,              \
   lo_complex_reduce},                                                                                                \
  {"array." name " of text", NULL, NULL, BK_FUNCTION, 0, 1, 2, axis_kw, RD_FLAGS, which, 0, ty_text_reduce,              \
   lo_complex_reduce}

const Builtin bi_complex_reduce[] = {
  REDUCE_OF_COMPLEX("sum", CR_SUM), REDUCE_OF_COMPLEX("prod", CR_PROD), REDUCE_OF_COMPLEX("mean", CR_MEAN),
  REDUCE_OF_COMPLEX("var", CR_VAR), REDUCE_OF_COMPLEX("std", CR_STD), REDUCE_OF_COMPLEX("min", CR_MIN),
  REDUCE_OF_COMPLEX("max", CR_MAX), REDUCE_OF_COMPLEX("argmin", CR_ARGMIN), REDUCE_OF_COMPLEX("argmax", CR_ARGMAX),
  REDUCE_OF_COMPLEX("any", CR_ANY), REDUCE_OF_COMPLEX("all", CR_ALL), REDUCE_OF_COMPLEX("amin", CR_MIN),
  REDUCE_OF_COMPLEX("amax", CR_MAX), REDUCE_OF_COMPLEX("nansum", CR_NANSUM), REDUCE_OF_COMPLEX("nanprod", CR_NANPROD),
  REDUCE_OF_COMPLEX("nanmean", CR_NANMEAN), REDUCE_OF_COMPLEX("nanvar", CR_NANVAR),
  REDUCE_OF_COMPLEX("nanstd", CR_NANSTD), REDUCE_OF_COMPLEX("nanmin", CR_NANMIN),
  REDUCE_OF_COMPLEX("nanmax", CR_NANMAX), REDUCE_OF_COMPLEX("ptp", CR_PTP),
  REDUCE_OF_COMPLEX("count_nonzero", CR_COUNT_NONZERO),
  REDUCE_OF_TEXT("min", CR_MIN), REDUCE_OF_TEXT("max", CR_MAX), REDUCE_OF_TEXT("amin", CR_MIN),
  REDUCE_OF_TEXT("amax", CR_MAX), REDUCE_OF_TEXT("argmin", CR_ARGMIN), REDUCE_OF_TEXT("argmax", CR_ARGMAX),
  REDUCE_OF_TEXT("any", CR_ANY), REDUCE_OF_TEXT("all", CR_ALL), REDUCE_OF_TEXT("count_nonzero", CR_COUNT_NONZERO),
  BI_END,
};
