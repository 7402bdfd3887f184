/* builtins/searching.c — NumPy's searches of sorted arrays in compiled
 * code: searchsorted, digitize and interp (a binary search per needle,
 * emitted inline, in the dtype NumPy compares the two in, NaN sorting
 * last), bincount and histogram, isin and the set functions (union1d,
 * intersect1d, setdiff1d: searches of sorted copies; setxor1d: a sorted
 * copy's lone values), and v in a (any element equal).
 */
#include <math.h>
#include <string.h>

#include "builtins/builtins.h"

/* ---------------------------------------------------------------- a sorted 1-d array */

/* Its memory, as the searches read it: n elements from data, stride bytes
 * apart (negative: digitize's decreasing bins read from the end). */
typedef struct Sorted {
  const Type *elem, *cmp;  /* its elements' type, the type needles and elements are compared in */
  LLVMValueRef data, n, stride;
} Sorted;

/* The dtype NumPy compares a's elements and the needles in: their common
 * one (datetimes': the finer unit), but a Python float needle compares as
 * a float array's dtype; text items (str or bytes) as they are. */
static const Type *compare_type(const Type *a, Node *v) {
  const Type *e = elem_of(v->ty);
  if (ty_is_time(a)) return ty_time_unify(a, e);
  if (ty_is_fixed_text(a)) return a;
  if (ty_is_weak(v) && ty_is_float(a) && ty_is_float(e)) return a;
  return np_promote(a, e);
}

/* A text item or a str or bytes, as searches compare it (cmp, a text
 * item type, its key): its units' address and how many */
static LLVMTypeRef text_key_type(Lower *l) { return LLVMStructTypeInContext(l->mod->c, (LLVMTypeRef[]){l->mod->ptr, l->mod->i64}, 2, 0); }

static LLVMValueRef text_key(Lower *l, LLVMValueRef units, LLVMValueRef count) {
  LLVMValueRef k = LLVMBuildInsertValue(l->b, LLVMGetUndef(text_key_type(l)), units, 0, "");
  return LLVMBuildInsertValue(l->b, k, count, 1, "");
}

/* The key of the text item at p, of type e */
static LLVMValueRef item_key(Lower *l, const Type *e, LLVMValueRef p) { return text_key(l, p, const_i64(l, e->unit)); }

/* The LLVM type of a key compared as cmp */
static LLVMTypeRef key_type(Lower *l, const Type *cmp) { return ty_is_fixed_text(cmp) ? text_key_type(l) : lo_type(l, cmp); }

static Sorted sorted_of(Lower *l, const Type *t, LLVMValueRef a, const Type *cmp) {
  return (Sorted){t->elem, cmp, LLVMBuildExtractValue(l->b, a, 2, ""), lo_arr_shape(l, a, 0), lo_arr_stride(l, t, a, 0)};
}

static LLVMValueRef element_at(Lower *l, const Sorted *s, LLVMValueRef i) {
  LLVMValueRef offset = LLVMBuildMul(l->b, i, s->stride, "");
  LLVMValueRef p = LLVMBuildGEP2(l->b, l->mod->i8, s->data, &offset, 1, "");
  if (ty_is_fixed_text(s->elem)) return item_key(l, s->elem, p);
  return lo_convert(l, lo_load_scalar(l, s->elem, p), s->elem, s->cmp);
}

static LLVMValueRef is_nan(Lower *l, LLVMValueRef v) { return fcmp(l, LLVMRealUNO, v, v); }

/* x < y of complex numbers as NumPy sorts them (its npysort's CLT): by
 * the real parts, then the imaginary ones, a NaN part after every number */
static LLVMValueRef complex_sorts_before(Lower *l, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef xr = lo_complex_real(l, x), xi = lo_complex_imag(l, x), yr = lo_complex_real(l, y), yi = lo_complex_imag(l, y);
  LLVMValueRef xi_num = LLVMBuildNot(l->b, is_nan(l, xi), ""), yi_nan = is_nan(l, yi);
  LLVMValueRef below = LLVMBuildOr(l->b, xi_num, yi_nan, "");                    /* xr < yr */
  LLVMValueRef above = LLVMBuildAnd(l->b, yi_nan, xi_num, "");                   /* xr > yr */
  LLVMValueRef by_imag = LLVMBuildOr(l->b, fcmp(l, LLVMRealOLT, xi, yi), above, ""); /* equal (or both NaN) real parts */
  LLVMValueRef same = LLVMBuildOr(l->b, fcmp(l, LLVMRealOEQ, xr, yr), LLVMBuildAnd(l->b, is_nan(l, xr), is_nan(l, yr), ""), "");
  LLVMValueRef r = LLVMBuildSelect(l->b, same, by_imag, is_nan(l, yr), "");
  r = LLVMBuildSelect(l->b, fcmp(l, LLVMRealOGT, xr, yr), above, r, "");
  return LLVMBuildSelect(l->b, fcmp(l, LLVMRealOLT, xr, yr), below, r, "");
}

/* x < y as NumPy sorts: NaN (and NaT) after every number; text by its units (text keys) */
static LLVMValueRef sorts_before(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef y) {
  if (ty_is_complex(t)) return complex_sorts_before(l, x, y);
  if (ty_is_fixed_text(t))
    return lo_text_compare(l, OP_LT, LLVMBuildExtractValue(l->b, x, 0, ""), LLVMBuildExtractValue(l->b, x, 1, ""),
                           LLVMBuildExtractValue(l->b, y, 0, ""), LLVMBuildExtractValue(l->b, y, 1, ""),
                           t->kind == TY_CHARSEQ ? 4 : 1);
  if (ty_is_time(t)) return lo_time_sorts_before(l, x, y);
  if (!ty_is_float(t)) return lo_compare_values(l, OP_LT, x, t, y, t);
  LLVMValueRef lt = LLVMBuildFCmp(l->b, LLVMRealOLT, x, y, "");
  LLVMValueRef nan_after = LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealUNO, y, y, ""),
                                        LLVMBuildFCmp(l->b, LLVMRealORD, x, x, ""), "");
  return LLVMBuildOr(l->b, lt, nan_after, "");
}

/* key sorts after x, or is equal to it where right (an i1: a constant, or
 * searchsorted's side read when the call runs) */
static LLVMValueRef goes_right(Lower *l, const Type *t, LLVMValueRef key, LLVMValueRef x, LLVMValueRef right) {
  if (LLVMIsAConstantInt(right))
    return LLVMConstIntGetZExtValue(right) ? LLVMBuildNot(l->b, sorts_before(l, t, key, x), "") : sorts_before(l, t, x, key);
  return LLVMBuildSelect(l->b, right, LLVMBuildNot(l->b, sorts_before(l, t, key, x), ""), sorts_before(l, t, x, key), "");
}

/* A hint that element i of s is read soon (an index past the end only
 * names an address: a prefetch never faults). */
static void prefetch_element(Lower *l, const Sorted *s, LLVMValueRef i) {
  LLVMValueRef offset = LLVMBuildMul(l->b, i, s->stride, "");
  LLVMValueRef args[4] = {LLVMBuildGEP2(l->b, l->mod->i8, s->data, &offset, 1, ""), const_i32(l, 0), const_i32(l, 3),
                          const_i32(l, 1)};
  lo_intrinsic(l, "llvm.prefetch", &l->mod->ptr, 1, args, 4);
}

/* The first index i where key would keep s sorted: before the elements
 * equal to key (left) or after them (right), bisecting [*lo, *hi). The
 * bisection has no branch on the comparison (none to mispredict), so each
 * step's load waits for the one before it: both places the next step can
 * read are prefetched first, and the load of a large array's element
 * overlaps the step before it (searchsorted of 10,000 keys in 1M sorted
 * float64: 0.6x the time). */
static LLVMValueRef search_within(Lower *l, const Sorted *s, LLVMValueRef key, LLVMValueRef right, LLVMValueRef lo, LLVMValueRef hi) {
  LLVMBasicBlockRef head = new_block(l, "search.head"), body = new_block(l, "search.body"), done = new_block(l, "search.done");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef vlo = LLVMBuildLoad2(l->b, l->mod->i64, lo, ""), vhi = LLVMBuildLoad2(l->b, l->mod->i64, hi, "");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, vlo, vhi, ""), body, done);
  position(l, body);
  LLVMValueRef one = const_i64(l, 1), mid = LLVMBuildLShr(l->b, LLVMBuildAdd(l->b, vlo, vhi, ""), one, "");
  prefetch_element(l, s, LLVMBuildLShr(l->b, LLVMBuildAdd(l->b, vlo, mid, ""), one, ""));
  prefetch_element(l, s, LLVMBuildLShr(l->b, LLVMBuildAdd(l->b, LLVMBuildAdd(l->b, mid, one, ""), vhi, ""), one, ""));
  LLVMValueRef x = element_at(l, s, mid);
  LLVMValueRef go_right = goes_right(l, s->cmp, key, x, right);
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, go_right, LLVMBuildAdd(l->b, mid, const_i64(l, 1), ""), vlo, ""), lo);
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, go_right, vhi, mid, ""), hi);
  LLVMBuildBr(l->b, head);
  position(l, done);
  return vlo;
}

static LLVMValueRef search_on(Lower *l, const Sorted *s, LLVMValueRef key, LLVMValueRef right) {
  LLVMValueRef lo = lo_alloca(l, l->mod->i64, "search.lo"), hi = lo_alloca(l, l->mod->i64, "search.hi");
  LLVMBuildStore(l->b, const_i64(l, 0), lo);
  LLVMBuildStore(l->b, s->n, hi);
  return search_within(l, s, key, right, lo, hi);
}

static LLVMValueRef search(Lower *l, const Sorted *s, LLVMValueRef key, bool right) {
  return search_on(l, s, key, const_bool(l, right));
}

/* ---------------------------------------------------------------- each needle */

/* f of each needle (a number, or each element of an array, in C order,
 * as cmp): a number of type rt, or an array of them of the needles' shape. */
typedef LLVMValueRef (*NeedleFn)(Lower *l, LLVMValueRef needle, void *arg);

typedef struct Needles {
  const Type *t, *cmp, *rt;
  LLVMValueRef v, out, k;
  NeedleFn f;
  void *arg;
} Needles;

static void needle_at(Lower *l, LLVMValueRef *idx, void *arg) {
  Needles *ns = arg;
  const Type *e = ns->t->elem;
  LLVMValueRef p = lo_element_addr(l, ns->t, ns->v, idx);
  LLVMValueRef x = ty_is_fixed_text(e) ? item_key(l, e, p) : lo_convert(l, lo_load_scalar(l, e, p), e, ns->cmp);
  LLVMValueRef k = LLVMBuildLoad2(l->b, l->mod->i64, ns->k, "");
  LLVMValueRef at = LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, ns->rt), LLVMBuildExtractValue(l->b, ns->out, 2, ""), &k, 1, "");
  lo_store_scalar(l, ns->rt, at, ns->f(l, x, ns->arg));
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, const_i64(l, 1), ""), ns->k);
}

/* A str or bytes needle: f of its key */
static LLVMValueRef text_needle(Lower *l, Node *v, NeedleFn f, void *arg) {
  LLVMValueRef x = lo_expr(l, v), count, units = lo_text_units(l, x, v->ty, &count);
  LLVMValueRef r = f(l, text_key(l, units, count), arg);
  lo_done_with(l, v, x);
  return r;
}

static LLVMValueRef each_needle(Lower *l, Node *v, const Type *cmp, const Type *rt, NeedleFn f, void *arg) {
  if (v->ty->kind != TY_ARRAY && ty_is_fixed_text(cmp)) return text_needle(l, v, f, arg);
  if (v->ty->kind != TY_ARRAY) return f(l, lo_expr_as(l, v, cmp), arg);
  Needles ns = {v->ty, cmp, rt, lo_expr(l, v), NULL, lo_alloca(l, l->mod->i64, "needle.k"), f, arg};
  LLVMValueRef shape[RC_MAX_NDIM];
  for (int d = 0; d < v->ty->ndim; d++) shape[d] = lo_arr_shape(l, ns.v, d);
  ns.out = lo_alloc_array(l, ty_array(rt, v->ty->ndim, 'C', false), shape, -1);
  LLVMBuildStore(l->b, const_i64(l, 0), ns.k);
  lo_for_each_index(l, v->ty->ndim, shape, needle_at, &ns);
  lo_done_with(l, v, ns.v);
  return ns.out;
}

static const Type *needles_result(const Type *v, const Type *rt) {
  return v->kind == TY_ARRAY ? ty_array(rt, v->ndim, 'C', false) : rt;
}

static bool need_sorted_1d(Infer *in, Node *n, Node *a, const char *what) {
  if (a->ty->kind == TY_ARRAY && a->ty->ndim == 1) return true;
  return ty_error(in, a, "%s(): %s must be a 1-d array, got %s", n->bi->name, what, a->ty->name) != NULL;
}

static bool need_numbers(Infer *in, Node *n, Node *v, const char *what) {
  if (v && (ty_is_scalar(v->ty) || v->ty->kind == TY_ARRAY)) return true;
  return ty_error(in, v ? v : n, "%s(): %s must be a number or an array, got %s", n->bi->name, what,
                  v ? v->ty->name : "nothing") != NULL;
}

/* ---------------------------------------------------------------- searchsorted */

/* side: a constant str, or one read when the call runs (a parameter's
 * default passed on: def f(a, v, side='left'), which Numba takes as a
 * constant) */
static const char *const sides[] = {"left", "right", NULL};

/* Needles v of a sorted array a: str ('<Un') needles of str items, bytes
 * ('|Sn') of bytes; others are numbers of numbers. */
static bool need_matching_text(Infer *in, Node *n, const Type *a, Node *v) {
  const Type *t = v->ty, *ve = elem_of(t), *ae = a->elem;
  bool text_items = ty_is_fixed_text(ae), text_needles = t->kind == TY_STR || t->kind == TY_BYTES || ty_is_fixed_text(ve);
  if (!text_items && !text_needles) return true;
  TypeKind item = ae->kind, needle = t->kind == TY_STR ? TY_CHARSEQ : t->kind == TY_BYTES ? TY_BYTESEQ : ve->kind;
  if (text_items && text_needles && item == needle) return true;
  return ty_error(in, v, "%s(): %s searched for %s: compiled code searches arrays of str for str or a number, of "
                  "bytes for bytes and of numbers for numbers", n->bi->name, a->name, t->name) != NULL;
}

static const Type *ty_searchsorted(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *v = bi_arg(n, 1, "v"), *side = bi_arg(n, 2, "side");
  if (!need_sorted_1d(in, n, a, "a")) return NULL;
  /* a number searched for among str: NumPy's str of it (their common dtype's item) */
  if (v && a->ty->elem->kind == TY_CHARSEQ && ty_is_scalar(v->ty) && !ty_is_time(v->ty) && !ty_wrap_call(in, v, "str"))
    return NULL;
  bool text_needle = v && (v->ty->kind == TY_STR || v->ty->kind == TY_BYTES) && ty_is_fixed_text(a->ty->elem);
  if ((!text_needle && !need_numbers(in, n, v, "v")) || !need_matching_text(in, n, a->ty, v)) return NULL;
  const Type *ae = a->ty->elem, *ve = elem_of(v->ty);
  if ((ty_is_time(ae) || ty_is_time(ve)) && !ty_time_compare(in, v, ae, ve)) return NULL;  /* of one kind, in a common unit */
  if (bi_str_option(side, sides, 0) == BI_OPTION_BAD)
    return ty_error(in, side, "%s(): search side must be 'left' or 'right', got %s", n->bi->name,
                    side->kind == N_STRING ? side->str : side->ty->name);
  return needles_result(v->ty, TYS(TY_I64));
}

typedef struct Search {
  Sorted s;
  LLVMValueRef right;  /* an i1 */
  LLVMValueRef lo, hi, last;  /* an array of needles': the bounds the last needle left, and it */
} Search;

/* searchsorted's needles in turn, as NumPy's loop searches them: from the
 * last needle's bounds, kept below where the needle sorts after the last
 * one, else the bounds [0, hi + 1), so that on an array that is not
 * sorted the answers are NumPy's. */
static LLVMValueRef search_needle(Lower *l, LLVMValueRef key, void *arg) {
  Search *s = arg;
  if (!s->lo) return search_on(l, &s->s, key, s->right);
  LLVMValueRef last = LLVMBuildLoad2(l->b, key_type(l, s->s.cmp), s->last, "");
  LLVMValueRef after = goes_right(l, s->s.cmp, key, last, s->right);
  LLVMValueRef hi = LLVMBuildLoad2(l->b, l->mod->i64, s->hi, ""), n = s->s.n;
  LLVMValueRef wider = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, hi, n, ""), LLVMBuildAdd(l->b, hi, const_i64(l, 1), ""), n, "");
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, after, n, wider, ""), s->hi);
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, after, LLVMBuildLoad2(l->b, l->mod->i64, s->lo, ""), const_i64(l, 0), ""), s->lo);
  LLVMBuildStore(l->b, key, s->last);
  return search_within(l, &s->s, key, s->right, s->lo, s->hi);
}

static LLVMValueRef lo_searchsorted(Lower *l, Node *n) {
  Node *a = n->list.items[0], *v = bi_arg(n, 1, "v");
  const Type *cmp = compare_type(a->ty->elem, v);
  LLVMValueRef av = lo_expr(l, a);
  LLVMValueRef side = lo_str_option(l, bi_arg(n, 2, "side"), sides, 0, "search side must be 'left' or 'right'");
  Search s = {sorted_of(l, a->ty, av, cmp), LLVMBuildICmp(l->b, LLVMIntEQ, side, const_i32(l, 1), "")};
  if (v->ty->kind == TY_ARRAY) {  /* (the first needle's search is from [0, n) whatever last holds) */
    s.lo = lo_alloca(l, l->mod->i64, "search.lo");
    s.hi = lo_alloca(l, l->mod->i64, "search.hi");
    s.last = lo_alloca(l, key_type(l, cmp), "search.last");
    LLVMBuildStore(l->b, const_i64(l, 0), s.lo);
    LLVMBuildStore(l->b, s.s.n, s.hi);
    LLVMBuildStore(l->b, LLVMConstNull(key_type(l, cmp)), s.last);
  }
  LLVMValueRef r = each_needle(l, v, cmp, TYS(TY_I64), search_needle, &s);
  lo_done_with(l, a, av);
  return r;
}

/* ---------------------------------------------------------------- digitize */

static const Type *ty_digitize(Infer *in, Node *n, const Type **args) {
  Node *x = n->list.items[0], *bins = bi_arg(n, 1, "bins");
  Node *right = bi_arg(n, 2, "right");
  if (!need_numbers(in, n, x, "x") || !bins || !need_sorted_1d(in, n, bins, "bins")) return NULL;
  if (right && right->ty->kind != TY_BOOL && !ty_is_int(right->ty))
    return ty_error(in, right, "%s(): right must be True or False, got %s", n->bi->name, right->ty->name);
  return needles_result(x->ty, TYS(TY_I64));
}

typedef struct Digitize {
  Search up, down;  /* the bins as they are, and read from the end; each's side the other one than right= names */
  LLVMValueRef decreasing;
} Digitize;

/* NumPy's digitize: searchsorted on the other side than right= names;
 * for decreasing bins, len(bins) minus the search of them reversed. */
static LLVMValueRef digitize_needle(Lower *l, LLVMValueRef key, void *arg) {
  Digitize *d = arg;
  LLVMBasicBlockRef up = new_block(l, "digitize.up"), down = new_block(l, "digitize.down"), done = new_block(l, "digitize");
  LLVMBuildCondBr(l->b, d->decreasing, down, up);
  position(l, up);
  LLVMValueRef i = search_on(l, &d->up.s, key, d->up.right);
  LLVMBasicBlockRef up_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, down);
  LLVMValueRef j = LLVMBuildSub(l->b, d->down.s.n, search_on(l, &d->down.s, key, d->down.right), "");
  LLVMBasicBlockRef down_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef r = LLVMBuildPhi(l->b, l->mod->i64, "digitize");
  LLVMAddIncoming(r, (LLVMValueRef[]){i, j}, (LLVMBasicBlockRef[]){up_end, down_end}, 2);
  return r;
}

static LLVMValueRef lo_digitize(Lower *l, Node *n) {
  Node *x = n->list.items[0], *bins = bi_arg(n, 1, "bins"), *right = bi_arg(n, 2, "right");
  const Type *cmp = compare_type(bins->ty->elem, x);
  LLVMValueRef bv = lo_expr(l, bins);
  Sorted s = sorted_of(l, bins->ty, bv, cmp);
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i32};
  LLVMValueRef mono = lo_call_fn(l, "rt_monotonic", l->mod->i32, p,
                                 (LLVMValueRef[]){s.data, s.n, s.stride, const_i32(l, (int)bins->ty->elem->kind)}, 4);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, mono, const_i32(l, 0), ""), RT_ERR_VALUE,
              "bins must be monotonically increasing or decreasing");
  /* searchsorted's side: the other one than right= names (an i1 where right= is known only when it runs) */
  bool known = !right || right->kind == N_BOOL || right->kind == N_INT;
  LLVMValueRef side = known ? const_bool(l, !(right && right->ival))
                            : LLVMBuildNot(l->b, lo_truth(l, lo_expr(l, right), right->ty), "");
  LLVMValueRef last = LLVMBuildSub(l->b, s.n, const_i64(l, 1), ""), end = LLVMBuildMul(l->b, last, s.stride, "");
  Sorted reversed = s;
  reversed.data = LLVMBuildGEP2(l->b, l->mod->i8, s.data, &end, 1, "");
  reversed.stride = LLVMBuildNeg(l->b, s.stride, "");
  Digitize d = {{s, side}, {reversed, side}, LLVMBuildICmp(l->b, LLVMIntSLT, mono, const_i32(l, 0), "")};
  LLVMValueRef out = each_needle(l, x, cmp, TYS(TY_I64), digitize_needle, &d);
  lo_done_with(l, bins, bv);
  return out;
}

/* ---------------------------------------------------------------- interp */

static const Type *ty_interp(Infer *in, Node *n, const Type **args) {
  Node *x = n->list.items[0], *xp = bi_arg(n, 1, "xp"), *fp = bi_arg(n, 2, "fp");
  if (!need_numbers(in, n, x, "x")) return NULL;
  if (!xp || !fp) return ty_error(in, n, "%s() missing argument '%s'", n->bi->name, xp ? "fp" : "xp");
  if (!need_sorted_1d(in, n, xp, "xp") || !need_sorted_1d(in, n, fp, "fp") ||
      !bi_check_number(in, n, bi_arg(n, 3, "left"), "left") || !bi_check_number(in, n, bi_arg(n, 4, "right"), "right"))
    return NULL;
  if (ty_holds_complex(x->ty) || ty_holds_complex(xp->ty))
    return ty_error(in, ty_holds_complex(x->ty) ? x : xp, "%s(): x and xp must be real, got %s", n->bi->name,
                    ty_holds_complex(x->ty) ? x->ty->name : xp->ty->name);
  bool complex = ty_is_complex(fp->ty->elem);  /* complex values: complex128, as NumPy's */
  for (int i = 3; i < 5 && !complex; i++)
    if (bi_arg(n, i, i == 3 ? "left" : "right") && ty_is_complex(bi_arg(n, i, i == 3 ? "left" : "right")->ty))
      return ty_error(in, bi_arg(n, i, i == 3 ? "left" : "right"), "%s(): a complex left or right needs complex fp", n->bi->name);
  return needles_result(x->ty, TYS(complex ? TY_C128 : TY_F64));
}

typedef struct Interp {
  Sorted xp, fp;
  LLVMValueRef left, right;  /* the values below xp[0] and above xp[-1] */
  LLVMValueRef kind, guess;  /* xp's dtype (rt_interp_search reads it); the last x's segment */
  bool complex;              /* fp's values complex: each part so, the slope by 1 / dx as NumPy's */
} Interp;

static LLVMValueRef fselect(Lower *l, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildSelect(l->b, c, a, b, ""); }
static LLVMValueRef icmp(Lower *l, LLVMIntPredicate p, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildICmp(l->b, p, a, b, ""); }

/* x's segment: the points around it, its index j among n (-1 below, n above) */
typedef struct Segment {
  LLVMValueRef x, x0, x1, j, n, last, nan, single;
} Segment;

static LLVMValueRef interp_value(Lower *l, const Segment *g, LLVMValueRef y0, LLVMValueRef y1, LLVMValueRef yj,
                                 LLVMValueRef left, LLVMValueRef right, bool by_inverse);

/* NumPy's interp of one x, as its C loop: the segment j of x (searched
 * from the last x's, rt_interp_search), left below and right above the
 * points, fp[j] at the last point or at xp[j] itself, else the line
 * through (xp[j], fp[j]) and, where that gives NaN, through (xp[j+1],
 * fp[j+1]); NaN for NaN. With one point: left, right or fp[0]. */
static LLVMValueRef interp_needle(Lower *l, LLVMValueRef x, void *arg) {
  Interp *ip = arg;
  LLVMValueRef zero = const_i64(l, 0), one = const_i64(l, 1), n = ip->xp.n, last = LLVMBuildSub(l->b, n, one, "");
  LLVMTypeRef p[6] = {l->mod->f64, l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i32, l->mod->i64};
  LLVMValueRef searched = lo_call_fn(l, "rt_interp_search", l->mod->i64, p,
                                     (LLVMValueRef[]){x, ip->xp.data, n, ip->xp.stride, ip->kind,
                                                      LLVMBuildLoad2(l->b, l->mod->i64, ip->guess, "")}, 6);
  LLVMValueRef single = icmp(l, LLVMIntEQ, n, one), nan = is_nan(l, x);
  /* (NumPy's search is not made for NaN, nor for one point: j stays) */
  LLVMValueRef j = fselect(l, LLVMBuildOr(l->b, single, nan, ""), LLVMBuildLoad2(l->b, l->mod->i64, ip->guess, ""), searched);
  LLVMBuildStore(l->b, j, ip->guess);
  /* the points read at indices within [0, n): every branch is computed, one kept */
  LLVMValueRef jc = fselect(l, icmp(l, LLVMIntSLT, j, zero), zero, fselect(l, icmp(l, LLVMIntSGT, j, last), last, j));
  LLVMValueRef j0 = fselect(l, icmp(l, LLVMIntEQ, jc, last), fselect(l, single, zero, LLVMBuildSub(l->b, jc, one, "")), jc);
  LLVMValueRef j1 = fselect(l, single, zero, LLVMBuildAdd(l->b, j0, one, ""));
  LLVMValueRef x0 = element_at(l, &ip->xp, j0), x1 = element_at(l, &ip->xp, j1);
  LLVMValueRef y0 = element_at(l, &ip->fp, j0), y1 = element_at(l, &ip->fp, j1), yj = element_at(l, &ip->fp, jc);
  Segment g = {x, x0, x1, j, n, last, nan, single};
  if (!ip->complex) return interp_value(l, &g, y0, y1, yj, ip->left, ip->right, false);
  LLVMValueRef part[2];
  for (int k = 0; k < 2; k++) {
    LLVMValueRef (*of)(Lower *, LLVMValueRef) = k ? lo_complex_imag : lo_complex_real;
    part[k] = interp_value(l, &g, of(l, y0), of(l, y1), of(l, yj), of(l, ip->left), of(l, ip->right), true);
  }
  LLVMValueRef nan_x = LLVMBuildAnd(l->b, nan, LLVMBuildNot(l->b, single, ""), "");
  part[1] = fselect(l, nan_x, lo_fconst(l, TYS(TY_F64), 0), part[1]);  /* NaN x: NaN + 0j (one point: fp[0]) */
  return lo_complex_make(l, TYS(TY_C128), part[0], part[1]);
}

/* one part's value at x on segment g */
static LLVMValueRef interp_value(Lower *l, const Segment *g, LLVMValueRef y0, LLVMValueRef y1, LLVMValueRef yj,
                                 LLVMValueRef left, LLVMValueRef right, bool by_inverse) {
  LLVMValueRef x = g->x, x0 = g->x0, x1 = g->x1, j = g->j, n = g->n, last = g->last, nan = g->nan, single = g->single;
  LLVMValueRef dx = LLVMBuildFSub(l->b, x1, x0, ""), dy = LLVMBuildFSub(l->b, y1, y0, "");
  LLVMValueRef slope = by_inverse ? LLVMBuildFMul(l->b, dy, LLVMBuildFDiv(l->b, lo_fconst(l, TYS(TY_F64), 1), dx, ""), "")
                                  : LLVMBuildFDiv(l->b, dy, dx, "");
  LLVMValueRef r = LLVMBuildFAdd(l->b, LLVMBuildFMul(l->b, slope, LLVMBuildFSub(l->b, x, x0, ""), ""), y0, "");
  LLVMValueRef r1 = LLVMBuildFAdd(l->b, LLVMBuildFMul(l->b, slope, LLVMBuildFSub(l->b, x, x1, ""), ""), y1, "");
  r = fselect(l, is_nan(l, r), r1, r);
  r = fselect(l, LLVMBuildAnd(l->b, is_nan(l, r), fcmp(l, LLVMRealOEQ, y0, y1), ""), y0, r);
  LLVMValueRef at_point = LLVMBuildOr(l->b, icmp(l, LLVMIntEQ, j, last), fcmp(l, LLVMRealOEQ, x0, x), "");
  r = fselect(l, at_point, yj, r);
  r = fselect(l, icmp(l, LLVMIntEQ, j, n), right, r);
  r = fselect(l, icmp(l, LLVMIntEQ, j, const_i64(l, -1)), left, r);
  r = fselect(l, nan, x, r);
  LLVMValueRef one_point = fselect(l, fcmp(l, LLVMRealOLT, x, x0), left, fselect(l, fcmp(l, LLVMRealOGT, x, x0), right, y0));
  return fselect(l, single, one_point, r);
}

static LLVMValueRef lo_interp(Lower *l, Node *n) {
  Node *x = n->list.items[0], *xp = bi_arg(n, 1, "xp"), *fp = bi_arg(n, 2, "fp");
  Node *left = bi_arg(n, 3, "left"), *right = bi_arg(n, 4, "right");
  const Type *f64 = TYS(TY_F64), *ft = elem_of(n->ty);
  LLVMValueRef xv = lo_expr(l, xp), fv = lo_expr(l, fp);
  Interp ip = {sorted_of(l, xp->ty, xv, f64), sorted_of(l, fp->ty, fv, ft)};
  ip.complex = ty_is_complex(ft);
  ip.kind = const_i32(l, (int)xp->ty->elem->kind);
  ip.guess = lo_alloca(l, l->mod->i64, "interp.guess");
  LLVMBuildStore(l->b, const_i64(l, 0), ip.guess);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, ip.xp.n, const_i64(l, 0), ""), RT_ERR_VALUE, "array of sample points is empty");
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, ip.xp.n, ip.fp.n, ""), RT_ERR_VALUE, "fp and xp are not of the same length.");
  ip.left = left ? lo_expr_as(l, left, ft) : element_at(l, &ip.fp, const_i64(l, 0));
  ip.right = right ? lo_expr_as(l, right, ft) : element_at(l, &ip.fp, LLVMBuildSub(l->b, ip.fp.n, const_i64(l, 1), ""));
  LLVMValueRef r = each_needle(l, x, f64, ft, interp_needle, &ip);
  lo_done_with(l, fp, fv);
  lo_done_with(l, xp, xv);
  return r;
}

/* ---------------------------------------------------------------- bincount */


static const Type *ty_bincount(Infer *in, Node *n, const Type **args) {
  Node *x = n->list.items[0], *w = bi_arg_given(n, 1, "weights"), *minlength = bi_arg(n, 2, "minlength");
  if (!need_sorted_1d(in, n, x, "x")) return NULL;
  if (ty_is_float(x->ty->elem))
    return ty_error(in, x, "%s(): cannot cast array data from dtype('%s') to dtype('int64') according to the rule 'safe'",
                    n->bi->name, x->ty->elem->name);
  if (w && !need_sorted_1d(in, n, w, "weights")) return NULL;
  if (minlength && !ty_is_int(minlength->ty))
    return ty_error(in, minlength, "%s(): minlength must be an integer, got %s", n->bi->name, minlength->ty->name);
  return ty_array(w ? TYS(TY_F64) : TYS(TY_I64), 1, 'C', false);
}

static LLVMValueRef lo_bincount(Lower *l, Node *n) {
  Node *x = n->list.items[0], *w = bi_arg_given(n, 1, "weights"), *minlength = bi_arg(n, 2, "minlength");
  const Type *i64 = TYS(TY_I64), *f64 = TYS(TY_F64), *rt = n->ty->elem;
  LLVMValueRef xv = lo_expr(l, x), wv = w ? lo_expr(l, w) : NULL;
  Sorted xs = sorted_of(l, x->ty, xv, i64), ws = w ? sorted_of(l, w->ty, wv, f64) : xs;
  LLVMValueRef least = minlength ? lo_expr_as(l, minlength, i64) : const_i64(l, 0);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, least, const_i64(l, 0), ""), RT_ERR_VALUE, "'minlength' must not be negative");
  if (w) lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, xs.n, ws.n, ""), RT_ERR_VALUE, "The weights and list don't have the same length.");
  /* the largest value, and whether one is negative (uint64's above int64's range count as negative, as NumPy casts them) */
  LLVMValueRef top = lo_alloca(l, l->mod->i64, "bincount.top");
  LLVMBuildStore(l->b, const_i64(l, -1), top);
  LoLoop scan = lo_loop_begin(l, const_i64(l, 0), xs.n, NULL, "bincount.scan");
  LLVMValueRef v = element_at(l, &xs, scan.index);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, v, const_i64(l, 0), ""), RT_ERR_VALUE, "'list' argument must have no negative elements");
  LLVMValueRef t = LLVMBuildLoad2(l->b, l->mod->i64, top, "");
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, v, t, ""), v, t, ""), top);
  lo_loop_end(l, &scan);
  LLVMValueRef size = LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->mod->i64, top, ""), const_i64(l, 1), "");
  size = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, least, size, ""), least, size, "");
  LLVMValueRef out = lo_alloc_array(l, n->ty, &size, 0), data = LLVMBuildExtractValue(l->b, out, 2, "");
  LoLoop count = lo_loop_begin(l, const_i64(l, 0), xs.n, NULL, "bincount.count");
  LLVMValueRef at = LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, rt), data, (LLVMValueRef[]){element_at(l, &xs, count.index)}, 1, "");
  LLVMValueRef add = w ? element_at(l, &ws, count.index) : const_i64(l, 1), old = lo_load_scalar(l, rt, at);
  lo_store_scalar(l, rt, at, w ? LLVMBuildFAdd(l->b, old, add, "") : LLVMBuildAdd(l->b, old, add, ""));
  lo_loop_end(l, &count);
  if (w) lo_done_with(l, w, wv);
  lo_done_with(l, x, xv);
  return out;
}

/* ---------------------------------------------------------------- histogram */

static bool edges_given(Node *bins) { return bins && bins->ty->kind == TY_ARRAY; }

/* numpy.histogram(a, bins=10, range=None): (counts, edges); the edges of
 * an int bins are of a's float dtype (float64 for ints), given ones keep
 * their own. A range of None is a's extremes, as one not given. */
static const Type *ty_histogram(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *bins = bi_arg(n, 1, "bins"), *range = bi_arg_given(n, 2, "range");
  if (a->ty->kind != TY_ARRAY || a->ty->elem->kind == TY_BOOL)
    return ty_error(in, a, "%s() needs an array of numbers, got %s", n->bi->name, a->ty->name);
  if (bins && !ty_is_int(bins->ty) && !(edges_given(bins) && bins->ty->ndim == 1))
    return ty_error(in, bins, "%s(): bins must be an int or a 1-d array of edges, got %s", n->bi->name, bins->ty->name);
  if (range && !(range->ty->kind == TY_TUPLE && range->ty->nfields == 2 && ty_is_scalar(range->ty->fields[0]) &&
                 ty_is_scalar(range->ty->fields[1])))
    return ty_error(in, range, "%s(): range must be a tuple of two numbers, got %s", n->bi->name, range->ty->name);
  const Type *e = edges_given(bins) ? bins->ty->elem : ty_is_float(a->ty->elem) ? a->ty->elem : TYS(TY_F64);
  return ty_tuple(2, (const Type *[]){ty_array(TYS(TY_I64), 1, 'C', false), ty_array(e, 1, 'C', false)});
}

typedef struct Histogram {
  const Type *at, *et;        /* a's type, the edges' element type */
  LLVMValueRef a, counts, nbins;
  Sorted edges;               /* read as et, or in the type a and given edges compare in */
  LLVMValueRef first, last;   /* uniform bins: the outer edges, as et */
  LLVMValueRef ratio;         /* uniform bins counted by a multiplication: nbins / (last - first); NULL: a division */
  bool uniform;
} Histogram;

static LLVMValueRef ecmp(Lower *l, const Type *t, int op, LLVMValueRef a, LLVMValueRef b) {
  return lo_compare_values(l, op, a, t, b, t);
}

/* whether x is within the uniform bins' outer edges (a NaN is not) */
static LLVMValueRef within_edges(Lower *l, Histogram *h, LLVMValueRef x) {
  return LLVMBuildAnd(l->b, ecmp(l, h->et, OP_GE, x, h->first), ecmp(l, h->et, OP_LE, x, h->last), "");
}

/* NumPy's bin of x (within the outer edges) among uniform bins: computed,
 * then moved by one where the edges say (NumPy's decrement and increment).
 * The edges decide any bin computed within one of x's, which a multiply by
 * nbins / (last - first) is as well as NumPy's divide by last - first:
 * where the ratio is finite and nbins far below 1 / epsilon, its few
 * roundings move the computed bin by less than one (else: the division).
 * Both edges are read at the computed bin: after a decrement, x is below
 * the edge NumPy's increment then compares it with, so it cannot move up
 * again, and neither load waits for the other's comparison. */
static LLVMValueRef uniform_bin(Lower *l, Histogram *h, LLVMValueRef x) {
  const Type *et = h->et;
  LLVMValueRef nb = lo_convert(l, h->nbins, TYS(TY_I64), et);
  LLVMValueRef from_first = LLVMBuildFSub(l->b, x, h->first, "");
  LLVMValueRef f = h->ratio ? LLVMBuildFMul(l->b, from_first, h->ratio, "")
                            : LLVMBuildFMul(l->b, LLVMBuildFDiv(l->b, from_first, LLVMBuildFSub(l->b, h->last, h->first, ""), ""), nb, "");
  LLVMValueRef one = const_i64(l, 1), top = LLVMBuildSub(l->b, h->nbins, one, "");
  LLVMValueRef i = LLVMBuildFPToSI(l->b, f, l->mod->i64, "");
  i = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGE, i, h->nbins, ""), top, i, "");
  i = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), ""), const_i64(l, 0), i, "");
  LLVMValueRef down = ecmp(l, et, OP_LT, x, element_at(l, &h->edges, i));
  LLVMValueRef up = LLVMBuildAnd(l->b, ecmp(l, et, OP_GE, x, element_at(l, &h->edges, LLVMBuildAdd(l->b, i, one, ""))),
                                 LLVMBuildICmp(l->b, LLVMIntNE, i, top, ""), "");
  i = LLVMBuildSub(l->b, i, LLVMBuildZExt(l->b, down, l->mod->i64, ""), "");
  return LLVMBuildAdd(l->b, i, LLVMBuildZExt(l->b, up, l->mod->i64, ""), "");
}

/* x's bin among given edges: e[i] <= x < e[i+1], the last bin closed; -1 outside */
static LLVMValueRef given_bin(Lower *l, Histogram *h, LLVMValueRef x) {
  const Type *t = h->edges.cmp;
  LLVMValueRef last = LLVMBuildSub(l->b, h->edges.n, const_i64(l, 1), "");
  LLVMValueRef out = LLVMBuildOr(l->b, sorts_before(l, t, x, element_at(l, &h->edges, const_i64(l, 0))),
                                 sorts_before(l, t, element_at(l, &h->edges, last), x), "");
  LLVMValueRef i = LLVMBuildSub(l->b, search(l, &h->edges, x, true), const_i64(l, 1), "");
  i = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGE, i, h->nbins, ""), LLVMBuildSub(l->b, h->nbins, const_i64(l, 1), ""), i, "");
  return LLVMBuildSelect(l->b, out, const_i64(l, -1), i, "");
}

static void add_to_bin(Lower *l, Histogram *h, LLVMValueRef i, LLVMValueRef count) {
  LLVMValueRef at = LLVMBuildInBoundsGEP2(l->b, l->mod->i64, LLVMBuildExtractValue(l->b, h->counts, 2, ""), &i, 1, "");
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->mod->i64, at, ""), count, ""), at);
}

/* Uniform bins take no branch, as values outside a range given may come
 * at random: such a value adds 0 to the bin of first. */
static void count_element(Lower *l, LLVMValueRef *idx, void *arg) {
  Histogram *h = arg;
  LLVMValueRef x = lo_load_scalar(l, h->at->elem, lo_element_addr(l, h->at, h->a, idx));
  x = lo_convert(l, x, h->at->elem, h->uniform ? h->et : h->edges.cmp);
  if (h->uniform) {
    LLVMValueRef in = within_edges(l, h, x);
    add_to_bin(l, h, uniform_bin(l, h, LLVMBuildSelect(l->b, in, x, h->first, "")), LLVMBuildZExt(l->b, in, l->mod->i64, ""));
    return;
  }
  LLVMBasicBlockRef add = new_block(l, "histogram.add"), next = new_block(l, "histogram.next");
  LLVMValueRef i = given_bin(l, h, x);
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSGE, i, const_i64(l, 0), ""), add, next);
  position(l, add);
  add_to_bin(l, h, i, const_i64(l, 1));
  LLVMBuildBr(l->b, next);
  position(l, next);
}

typedef struct Extremes {
  const Type *t, *lt;
  LLVMValueRef a, lo, hi, nan;
} Extremes;

static void extreme_element(Lower *l, LLVMValueRef *idx, void *arg) {
  Extremes *e = arg;
  LLVMValueRef x = lo_convert(l, lo_load_scalar(l, e->t->elem, lo_element_addr(l, e->t, e->a, idx)), e->t->elem, e->lt);
  LLVMValueRef lo = LLVMBuildLoad2(l->b, lo_type(l, e->lt), e->lo, ""), hi = LLVMBuildLoad2(l->b, lo_type(l, e->lt), e->hi, "");
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, ecmp(l, e->lt, OP_LT, x, lo), x, lo, ""), e->lo);
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, ecmp(l, e->lt, OP_GT, x, hi), x, hi, ""), e->hi);
  LLVMValueRef nan = LLVMBuildFCmp(l->b, LLVMRealUNO, x, x, "");
  LLVMBuildStore(l->b, LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->mod->i1, e->nan, ""), nan, ""), e->nan);
}

/* a's smallest and largest elements, as lt (NaN both where one is NaN):
 * a row's by the reductions' vectorised pass, other layouts' element by element */
static void a_extremes(Lower *l, const Type *lt, const Type *t, LLVMValueRef a, LLVMValueRef *lo, LLVMValueRef *hi) {
  if (np_reads_as_row(t)) {
    np_extremes(l, t, a, lo, hi);
    *lo = lo_convert(l, *lo, t->elem, lt);
    *hi = lo_convert(l, *hi, t->elem, lt);
    return;
  }
  Extremes e = {t, lt, a, lo_alloca(l, lo_type(l, lt), "histogram.min"), lo_alloca(l, lo_type(l, lt), "histogram.max"),
                lo_alloca(l, l->mod->i1, "histogram.nan")};
  LLVMBuildStore(l->b, lo_fconst(l, lt, INFINITY), e.lo);
  LLVMBuildStore(l->b, lo_fconst(l, lt, -INFINITY), e.hi);
  LLVMBuildStore(l->b, const_bool(l, false), e.nan);
  LLVMValueRef shape[RC_MAX_NDIM];
  for (int d = 0; d < t->ndim; d++) shape[d] = lo_arr_shape(l, a, d);
  lo_for_each_index(l, t->ndim, shape, extreme_element, &e);
  LLVMValueRef nan = LLVMBuildLoad2(l->b, l->mod->i1, e.nan, ""), none = lo_fconst(l, lt, NAN);
  *lo = LLVMBuildSelect(l->b, nan, none, LLVMBuildLoad2(l->b, lo_type(l, lt), e.lo, ""), "");
  *hi = LLVMBuildSelect(l->b, nan, none, LLVMBuildLoad2(l->b, lo_type(l, lt), e.hi, ""), "");
}

/* whether x (a float of type t) is infinite or NaN */
static LLVMValueRef not_finite(Lower *l, const Type *t, LLVMValueRef x) {
  return LLVMBuildFCmp(l->b, LLVMRealUGE, lo_intrinsic1(l, "llvm.fabs", t, x), lo_fconst(l, t, INFINITY), "");
}

/* The outer edges, in lt: range's (checked), or a's smallest and largest
 * (0 and 1 when a is empty); widened by a half where equal, as NumPy's. */
static void outer_edges(Lower *l, Node *range, const Type *lt, const Type *t, LLVMValueRef a, LLVMValueRef size,
                        LLVMValueRef *first, LLVMValueRef *last) {
  if (range) {
    LLVMValueRef r = lo_expr(l, range);
    *first = lo_convert(l, LLVMBuildExtractValue(l->b, r, 0, ""), range->ty->fields[0], lt);
    *last = lo_convert(l, LLVMBuildExtractValue(l->b, r, 1, ""), range->ty->fields[1], lt);
    lo_raise_if(l, ecmp(l, lt, OP_GT, *first, *last), RT_ERR_VALUE, "max must be larger than min in range parameter.");
  } else {
    a_extremes(l, lt, t, a, first, last);
    LLVMValueRef empty = LLVMBuildICmp(l->b, LLVMIntEQ, size, const_i64(l, 0), "");
    *first = LLVMBuildSelect(l->b, empty, lo_fconst(l, lt, 0), *first, "");
    *last = LLVMBuildSelect(l->b, empty, lo_fconst(l, lt, 1), *last, "");
    lo_raise_if(l, LLVMBuildOr(l->b, not_finite(l, lt, *first), not_finite(l, lt, *last), ""), RT_ERR_VALUE,
                "autodetected range of the array is not finite");
  }
  LLVMValueRef same = ecmp(l, lt, OP_EQ, *first, *last), half = lo_fconst(l, lt, 0.5);
  *first = LLVMBuildSelect(l->b, same, LLVMBuildFSub(l->b, *first, half, ""), *first, "");
  *last = LLVMBuildSelect(l->b, same, LLVMBuildFAdd(l->b, *last, half, ""), *last, "");
  if (range)
    lo_raise_if(l, LLVMBuildOr(l->b, not_finite(l, lt, *first), not_finite(l, lt, *last), ""), RT_ERR_VALUE,
                "supplied range is not finite");
}

/* NumPy's linspace(first, last, nbins + 1) in lt, as et: i * step + first, the last one last */
static LLVMValueRef uniform_edges(Lower *l, const Type *lt, const Type *et, LLVMValueRef first, LLVMValueRef last, LLVMValueRef nbins) {
  const Type *t = ty_array(et, 1, 'C', false);
  LLVMValueRef count = LLVMBuildAdd(l->b, nbins, const_i64(l, 1), ""), out = lo_alloc_array(l, t, &count, -1);
  LLVMValueRef data = LLVMBuildExtractValue(l->b, out, 2, "");
  LLVMValueRef step = LLVMBuildFDiv(l->b, LLVMBuildFSub(l->b, last, first, ""), lo_convert(l, nbins, TYS(TY_I64), lt), "");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), nbins, NULL, "histogram.edges");
  LLVMValueRef e = LLVMBuildFAdd(l->b, LLVMBuildFMul(l->b, lo_convert(l, loop.index, TYS(TY_I64), lt), step, ""), first, "");
  lo_store_scalar(l, et, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, et), data, &loop.index, 1, ""), lo_convert(l, e, lt, et));
  lo_loop_end(l, &loop);
  lo_store_scalar(l, et, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, et), data, &nbins, 1, ""), lo_convert(l, last, lt, et));
  return out;
}

/* NumPy's ValueError where an edge is above the next one: given edges;
 * or not below it: the nbins computed ones. */
static void check_rising(Lower *l, Sorted e, LLVMValueRef nbins) {
  LLVMValueRef falls = lo_alloca(l, l->mod->i1, "histogram.falls");
  LLVMBuildStore(l->b, const_bool(l, false), falls);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 1), e.n, NULL, "histogram.rising");
  LLVMValueRef down = ecmp(l, e.cmp, nbins ? OP_GE : OP_GT, element_at(l, &e, LLVMBuildSub(l->b, loop.index, const_i64(l, 1), "")),
                           element_at(l, &e, loop.index));
  LLVMBuildStore(l->b, LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->mod->i1, falls, ""), down, ""), falls);
  lo_loop_end(l, &loop);
  LLVMValueRef bad = LLVMBuildLoad2(l->b, l->mod->i1, falls, "");
  if (nbins)
    lo_raise_format_if(l, bad, RT_ERR_VALUE, "Too many bins for data range. Cannot create %lld finite-sized bins.", &nbins, 1);
  else
    lo_raise_if(l, bad, RT_ERR_VALUE, "`bins` must increase monotonically, when an array");
}

/* bits of a float's significand: ratio_exact's bound on nbins is 2**(this - 8) */
static int significand_bits(const Type *t) { return t->kind == TY_F16 ? 11 : t->kind == TY_F32 ? 24 : 53; }

/* a's elements counted in uniform bins: by the ratio where it is exact
 * enough (see uniform_bin), else by NumPy's division */
static void count_uniform(Lower *l, Histogram *h, LLVMValueRef *shape) {
  const Type *et = h->et;
  LLVMValueRef ratio = LLVMBuildFDiv(l->b, lo_convert(l, h->nbins, TYS(TY_I64), et), LLVMBuildFSub(l->b, h->last, h->first, ""), "");
  LLVMValueRef fits = LLVMBuildICmp(l->b, LLVMIntSLE, h->nbins, const_i64(l, (int64_t)1 << (significand_bits(et) - 8)), "");
  LLVMValueRef exact = LLVMBuildAnd(l->b, fits, LLVMBuildNot(l->b, not_finite(l, et, ratio), ""), "");
  LLVMBasicBlockRef by_ratio = new_block(l, "histogram.ratio"), by_division = new_block(l, "histogram.division"),
                    done = new_block(l, "histogram.counted");
  LLVMBuildCondBr(l->b, exact, by_ratio, by_division);
  position(l, by_ratio);
  h->ratio = ratio;
  lo_for_each_index(l, h->at->ndim, shape, count_element, h);
  LLVMBuildBr(l->b, done);
  position(l, by_division);
  h->ratio = NULL;
  lo_for_each_index(l, h->at->ndim, shape, count_element, h);
  LLVMBuildBr(l->b, done);
  position(l, done);
}

static LLVMValueRef lo_histogram(Lower *l, Node *n) {
  Node *a = n->list.items[0], *bins = bi_arg(n, 1, "bins"), *range = bi_arg_given(n, 2, "range");
  const Type *et = n->ty->fields[1]->elem, *ct = ty_array(TYS(TY_I64), 1, 'C', false);
  Histogram h = {a->ty, et, lo_expr(l, a)};
  LLVMValueRef shape[RC_MAX_NDIM], size = const_i64(l, 1), edges;
  for (int d = 0; d < a->ty->ndim; d++) size = LLVMBuildMul(l->b, size, shape[d] = lo_arr_shape(l, h.a, d), "");
  if (edges_given(bins)) {
    LLVMValueRef bv = lo_expr(l, bins);
    edges = lo_copy_array(l, n->ty->fields[1], bins->ty, bv);
    lo_done_with(l, bins, bv);
    lo_temp_made(l, n->ty->fields[1], edges);
    h.edges = sorted_of(l, n->ty->fields[1], edges, np_promote(a->ty->elem, et));
    check_rising(l, sorted_of(l, n->ty->fields[1], edges, et), NULL);
    h.nbins = LLVMBuildSub(l->b, h.edges.n, const_i64(l, 1), "");
    h.nbins = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, h.nbins, const_i64(l, 0), ""), const_i64(l, 0), h.nbins, "");
  } else {
    h.uniform = true;
    h.nbins = bins ? lo_expr_as(l, bins, TYS(TY_I64)) : const_i64(l, 10);
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, h.nbins, const_i64(l, 1), ""), RT_ERR_VALUE, "`bins` must be positive, when an integer");
    const Type *lt = range || !ty_is_float(a->ty->elem) ? TYS(TY_F64) : et;
    LLVMValueRef first, last;
    outer_edges(l, range, lt, a->ty, h.a, size, &first, &last);
    edges = uniform_edges(l, lt, et, first, last, h.nbins);
    lo_temp_made(l, n->ty->fields[1], edges);
    check_rising(l, sorted_of(l, n->ty->fields[1], edges, et), h.nbins);
    h.first = lo_convert(l, first, lt, et);
    h.last = lo_convert(l, last, lt, et);
    h.edges = sorted_of(l, n->ty->fields[1], edges, et);
  }
  h.counts = lo_alloc_array(l, ct, &h.nbins, 0);
  if (h.uniform)
    count_uniform(l, &h, shape);
  else
    lo_for_each_index(l, a->ty->ndim, shape, count_element, &h);
  lo_done_with(l, a, h.a);
  lo_temp_taken(l, edges);
  LLVMValueRef tuple = LLVMBuildInsertValue(l->b, LLVMGetUndef(lo_type(l, n->ty)), h.counts, 0, "");
  return LLVMBuildInsertValue(l->b, tuple, edges, 1, "");
}

/* ---------------------------------------------------------------- isin and the set functions */

/* a sorted temp of elements of type t, as the searches read it */
static Sorted sorted_temp(Lower *l, LLVMValueRef a, LLVMValueRef count, const Type *t) {
  return (Sorted){t, t, LLVMBuildExtractValue(l->b, a, 2, ""), count, const_i64(l, ty_bits(t) / 8)};
}

/* x == y of two keys compared as t (text keys: their units, NUL-padded alike) */
static LLVMValueRef keys_equal(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef y) {
  if (!ty_is_fixed_text(t)) return lo_compare_values(l, OP_EQ, x, t, y, t);
  return lo_text_compare(l, OP_EQ, LLVMBuildExtractValue(l->b, x, 0, ""), LLVMBuildExtractValue(l->b, x, 1, ""),
                         LLVMBuildExtractValue(l->b, y, 0, ""), LLVMBuildExtractValue(l->b, y, 1, ""),
                         t->kind == TY_CHARSEQ ? 4 : 1);
}

/* whether key (of s's compare type) is among s's elements: equal to one, so never NaN */
static LLVMValueRef found(Lower *l, const Sorted *s, LLVMValueRef key) {
  LLVMValueRef i = search(l, s, key, false), inside = LLVMBuildICmp(l->b, LLVMIntSLT, i, s->n, "");
  LLVMValueRef safe = LLVMBuildSelect(l->b, inside, i, const_i64(l, 0), "");
  LLVMValueRef x = element_at(l, s, safe);
  return LLVMBuildAnd(l->b, inside, keys_equal(l, s->cmp, x, key), "");
}

static bool need_values(Infer *in, Node *n, Node *x, const char *what) {
  if (x && (x->ty->kind == TY_ARRAY || ty_is_scalar(x->ty))) return true;
  return ty_error(in, x ? x : n, "%s(): %s must be an array or a number, got %s", n->bi->name, what, x ? x->ty->name : "nothing") != NULL;
}

static bool need_flag(Infer *in, Node *n, Node *x, const char *what) {
  if (!x || x->ty->kind == TY_BOOL || ty_is_int(x->ty)) return true;
  return ty_error(in, x, "%s(): %s must be True or False, got %s", n->bi->name, what, x->ty->name) != NULL;
}

/* Text: an array of str (bytes) items searched for in another, or a str
 * (bytes) in one, as NumPy's isin compares them (items of any width). */
static bool text_isin(Infer *in, Node *n, Node *e, Node *test) {
  const Type *ee = e ? elem_of(e->ty) : NULL, *te = test ? elem_of(test->ty) : NULL;
  bool text = (ee && (ty_is_fixed_text(ee) || ee->kind == TY_STR || ee->kind == TY_BYTES)) || (te && ty_is_fixed_text(te));
  if (!text) return false;
  TypeKind item = te && te->kind == TY_BYTESEQ ? TY_BYTESEQ : TY_CHARSEQ;
  bool fits = test->ty->kind == TY_ARRAY && ty_is_fixed_text(te) &&
              (ee->kind == item || ee->kind == (item == TY_CHARSEQ ? TY_STR : TY_BYTES));
  if (!fits)
    ty_error(in, n, "%s() looks for str (bytes) items in an array of str (bytes) in compiled code, got %s in %s",
             n->bi->name, e->ty->name, test->ty->name);
  return true;
}

/* numpy.isin(element, test_elements, assume_unique=False, invert=False):
 * assume_unique only lets NumPy skip work (the answer is the same for
 * unique arrays), so it is read and not used */
static const Type *ty_isin(Infer *in, Node *n, const Type **args) {
  Node *e = n->list.items[0], *test = bi_arg(n, 1, "test_elements");
  bool text = test && text_isin(in, n, e, test);
  if (ty_failed(in)) return NULL;
  if ((!text && (!need_values(in, n, e, "element") || !need_values(in, n, test, "test_elements"))) ||
      !need_flag(in, n, bi_arg(n, 2, "assume_unique"), "assume_unique") || !need_flag(in, n, bi_arg(n, 3, "invert"), "invert"))
    return NULL;
  return ty_array(TYS(TY_BOOL), ndim_of(e->ty), 'C', false);  /* a 0-d array for a number, as NumPy's */
}

typedef struct Isin {
  Sorted s;
  LLVMValueRef invert;  /* an i1 */
} Isin;

static LLVMValueRef isin_needle(Lower *l, LLVMValueRef x, void *arg) {
  Isin *is = arg;
  return LLVMBuildXor(l->b, found(l, &is->s, x), is->invert, "");
}

static LLVMValueRef lo_isin(Lower *l, Node *n) {
  Node *e = n->list.items[0], *test = bi_arg(n, 1, "test_elements"), *invert = bi_arg(n, 3, "invert");
  const Type *te = elem_of(test->ty), *tt;
  const Type *cmp = ty_is_fixed_text(te) ? te : np_promote(elem_of(e->ty), te);  /* (text: as the items are) */
  tt = ty_array(cmp, 1, 'C', false);
  LLVMValueRef count, sorted = np_sorted_elements(l, &test, 1, cmp, false, &count);
  Node *unique = bi_arg(n, 2, "assume_unique");
  if (unique) lo_expr(l, unique);  /* (evaluated, not used) */
  Isin is = {sorted_temp(l, sorted, count, cmp), invert ? lo_truth(l, lo_expr(l, invert), invert->ty) : const_bool(l, false)};
  LLVMValueRef r = each_needle(l, e, cmp, TYS(TY_BOOL), isin_needle, &is);
  lo_release_temp(l, tt, sorted);
  if (e->ty->kind == TY_ARRAY) return r;
  LLVMValueRef out = lo_alloc_array(l, n->ty, NULL, -1);
  lo_store_scalar(l, TYS(TY_BOOL), LLVMBuildExtractValue(l->b, out, 2, ""), r);
  return out;
}

enum { SET_UNION, SET_INTERSECT, SET_DIFF, SET_XOR };

/* union1d, intersect1d: the common dtype; setdiff1d: the first array's.
 * assume_unique (intersect1d's, setdiff1d's, setxor1d's), known when the
 * call runs as Numba takes it: each array read as it is, raveled, where it
 * holds, else its distinct values sorted, as NumPy's algorithms read them.
 * intersect1d's answer is the same either way for arrays that are unique
 * (what the flag promises), so there it is read and not used. */
static const char *const set_kw[] = {"assume_unique", NULL};

static const Type *ty_set(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  if (!need_values(in, n, a, "ar1") || !need_values(in, n, b, "ar2") ||
      !need_flag(in, n, bi_arg(n, 2, "assume_unique"), "assume_unique"))
    return NULL;
  const Type *e = n->bi->ival == SET_DIFF ? elem_of(a->ty) : np_promote(elem_of(a->ty), elem_of(b->ty));
  return ty_array(e, 1, 'C', false);
}

/* assume_unique as an i1 (a constant where it is one); false where not given */
static LLVMValueRef assumed_unique(Lower *l, Node *n) {
  Node *unique = bi_arg(n, 2, "assume_unique");
  return unique ? lo_truth(l, lo_expr(l, unique), unique->ty) : const_bool(l, false);
}

/* x's elements as elem in a new 1-d temp (*count of them): in C order where
 * assumed (an i1) holds, else sorted, each once (numpy.unique's). */
static LLVMValueRef elements_assumed(Lower *l, Node *x, const Type *elem, LLVMValueRef assumed, LLVMValueRef *count) {
  if (LLVMIsAConstantInt(assumed) && !LLVMConstIntGetZExtValue(assumed)) return np_sorted_elements(l, &x, 1, elem, true, count);
  LLVMValueRef n, out = np_joined_elements(l, &x, 1, elem, &n);
  *count = n;
  if (LLVMIsAConstantInt(assumed)) return out;
  LLVMBasicBlockRef from = LLVMGetInsertBlock(l->b), distinct = new_block(l, "set.distinct"), done = new_block(l, "set.assumed");
  LLVMBuildCondBr(l->b, assumed, done, distinct);
  position(l, distinct);
  np_sort_flat(l, ty_array(elem, 1, 'C', false), out);
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[4] = {LLVMBuildExtractValue(l->b, out, 2, ""), n, const_i32(l, (int)elem->kind), LLVMConstNull(l->mod->ptr)};
  LLVMValueRef m = lo_call_fn(l, "rt_unique", l->mod->i64, p, args, 4);
  LLVMBasicBlockRef distinct_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  *count = LLVMBuildPhi(l->b, l->mod->i64, "set.count");
  LLVMAddIncoming(*count, (LLVMValueRef[]){n, m}, (LLVMBasicBlockRef[]){from, distinct_end}, 2);
  return out;
}

/* The elements of a (as its result type; its distinct ones sorted, or
 * each as it is where assumed holds) kept where their being among b's is
 * want: intersect1d and setdiff1d. */
static LLVMValueRef kept(Lower *l, Node *n, bool want, LLVMValueRef assumed) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  const Type *rt = n->ty->elem, *cmp = np_promote(elem_of(a->ty), elem_of(b->ty));
  LLVMValueRef na, nb, ua = elements_assumed(l, a, rt, assumed, &na), sb = np_sorted_elements(l, &b, 1, cmp, want, &nb);
  Sorted among = sorted_temp(l, sb, nb, cmp), from = sorted_temp(l, ua, na, rt);
  LLVMValueRef m = lo_alloca(l, l->mod->i64, "set.kept");
  LLVMBuildStore(l->b, const_i64(l, 0), m);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), na, NULL, "set.keep");
  LLVMValueRef x = element_at(l, &from, loop.index), in = found(l, &among, lo_convert(l, x, rt, cmp));
  LLVMBasicBlockRef keep = new_block(l, "set.keep"), next = new_block(l, "set.next");
  LLVMBuildCondBr(l->b, want ? in : LLVMBuildNot(l->b, in, ""), keep, next);
  position(l, keep);
  LLVMValueRef k = LLVMBuildLoad2(l->b, l->mod->i64, m, "");
  lo_store_scalar(l, rt, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, rt), from.data, &k, 1, ""), x);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, const_i64(l, 1), ""), m);
  LLVMBuildBr(l->b, next);
  position(l, next);
  lo_loop_end(l, &loop);
  LLVMValueRef r = np_first_elements(l, n->ty, ua, LLVMBuildLoad2(l->b, l->mod->i64, m, ""));
  lo_release_temp(l, ty_array(cmp, 1, 'C', false), sb);
  lo_release_temp(l, n->ty, ua);
  return r;
}

static LLVMValueRef lo_set(Lower *l, Node *n) {
  if (n->bi->ival == SET_INTERSECT) {
    if (bi_arg(n, 2, "assume_unique")) lo_expr(l, bi_arg(n, 2, "assume_unique"));  /* (evaluated, not used) */
    return kept(l, n, true, const_bool(l, false));
  }
  if (n->bi->ival == SET_DIFF) return kept(l, n, false, assumed_unique(l, n));
  LLVMValueRef count, all = np_sorted_elements(l, n->list.items, 2, n->ty->elem, true, &count);
  LLVMValueRef r = np_first_elements(l, n->ty, all, count);
  lo_release_temp(l, n->ty, all);
  return r;
}

/* ---------------------------------------------------------------- v in a */

/* v in a, for an array a: whether an element equals v, NumPy's (a == v).any();
 * of an array of '<Un' (or '|Sn') items, v a str (bytes) */
const Type *ty_array_contains(Infer *in, Node *n, const Type **args) {
  const Type *e = args[1]->elem;
  if (ty_is_fixed_text(e)) {
    TypeKind want = e->kind == TY_CHARSEQ ? TY_STR : TY_BYTES;
    if (args[0]->kind != want)
      return ty_error(in, n, "'in' an array of %s items needs a %s to look for, got %s", want == TY_STR ? "str" : "bytes",
                      want == TY_STR ? "str" : "bytes", args[0]->name);
    return TYS(TY_BOOL);
  }
  if (!ty_is_scalar(args[0]) && !ty_is_complex(args[0]))
    return ty_error(in, n, "'in' an array needs a number to look for, got %s", args[0]->name);
  return TYS(TY_BOOL);
}

typedef struct Contains {
  const Type *elem, *vt;
  LLVMValueRef v, any;
} Contains;

/* no early exit: the comparisons of a contiguous array vectorise (a text
 * item, x its address, is compared by rt_text_order) */
static void contains_element(Lower *l, LLVMValueRef x, void *arg) {
  Contains *c = arg;
  LLVMValueRef eq;
  if (ty_is_fixed_text(c->elem)) {
    LLVMValueRef nv, pv = lo_text_units(l, c->v, c->vt, &nv);
    eq = lo_text_compare(l, OP_EQ, x, const_i64(l, c->elem->unit), pv, nv, c->elem->kind == TY_CHARSEQ ? 4 : 1);
  } else {
    eq = lo_compare_values(l, OP_EQ, x, c->elem, c->v, c->vt);
  }
  LLVMBuildStore(l->b, LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->mod->i1, c->any, ""), eq, ""), c->any);
}

LLVMValueRef lo_array_contains(Lower *l, Node *n) {
  Node *v = n->list.items[0], *a = n->list.items[1];
  Contains c = {a->ty->elem, v->ty, lo_expr(l, v), lo_alloca(l, l->mod->i1, "contains")};
  LLVMBuildStore(l->b, const_bool(l, false), c.any);
  lo_for_each_element(l, a, contains_element, &c);
  lo_done_with(l, v, c.v);
  return LLVMBuildLoad2(l->b, l->mod->i1, c.any, "");
}

/* ---------------------------------------------------------------- setxor1d */

/* numpy.setxor1d(ar1, ar2, assume_unique=False): the sorted values in
 * one of the arrays but not both, as NumPy finds them: the distinct
 * values of each (or each as it is, assumed distinct) sorted together,
 * and those unlike both neighbours kept (a NaN is unlike every value, so
 * each array's NaN is kept, as NumPy's are) */

/* The elements of each array (elements_assumed's), one array's after the other's, sorted (*count: how many). */
static LLVMValueRef each_assumed_sorted(Lower *l, Node *n, const Type *ft, LLVMValueRef assumed, LLVMValueRef *count) {
  const Type *e = ft->elem;
  LLVMValueRef na, nb, ua = elements_assumed(l, n->list.items[0], e, assumed, &na);
  LLVMValueRef ub = elements_assumed(l, n->list.items[1], e, assumed, &nb);
  *count = LLVMBuildAdd(l->b, na, nb, "");
  LLVMValueRef aux = lo_alloc_array(l, ft, count, -1), data = LLVMBuildExtractValue(l->b, aux, 2, "");
  LLVMValueRef size = const_i64(l, ty_bits(e) / 8), from_b = LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, e), data, &na, 1, "");
  LLVMBuildMemCpy(l->b, data, 1, LLVMBuildExtractValue(l->b, ua, 2, ""), 1, LLVMBuildMul(l->b, na, size, ""));
  LLVMBuildMemCpy(l->b, from_b, 1, LLVMBuildExtractValue(l->b, ub, 2, ""), 1, LLVMBuildMul(l->b, nb, size, ""));
  lo_release_temp(l, ft, ub);
  lo_release_temp(l, ft, ua);
  lo_temp_made(l, ft, aux);
  np_sort_flat(l, ft, aux);
  return aux;
}

static LLVMValueRef lo_setxor(Lower *l, Node *n) {
  const Type *ft = n->ty, *e = ft->elem;
  LLVMValueRef count, aux = each_assumed_sorted(l, n, ft, assumed_unique(l, n), &count);
  Sorted s = sorted_temp(l, aux, count, e);
  LLVMValueRef kept = lo_alloca(l, l->mod->i64, "setxor.kept"), zero = const_i64(l, 0), one = const_i64(l, 1);
  LLVMBuildStore(l->b, zero, kept);
  LoLoop loop = lo_loop_begin(l, zero, count, NULL, "setxor");  /* kept in place: kept <= i */
  LLVMValueRef i = loop.index, x = element_at(l, &s, i);
  LLVMValueRef first = LLVMBuildICmp(l->b, LLVMIntEQ, i, zero, ""), last = LLVMBuildICmp(l->b, LLVMIntEQ, i, LLVMBuildSub(l->b, count, one, ""), "");
  LLVMValueRef prev = element_at(l, &s, LLVMBuildSelect(l->b, first, i, LLVMBuildSub(l->b, i, one, ""), ""));
  LLVMValueRef next = element_at(l, &s, LLVMBuildSelect(l->b, last, i, LLVMBuildAdd(l->b, i, one, ""), ""));
  LLVMValueRef lone = LLVMBuildAnd(l->b, LLVMBuildOr(l->b, first, lo_compare_values(l, OP_NE, prev, e, x, e), ""),
                                   LLVMBuildOr(l->b, last, lo_compare_values(l, OP_NE, next, e, x, e), ""), "");
  LLVMBasicBlockRef keep = new_block(l, "setxor.keep"), on = new_block(l, "setxor.next");
  LLVMBuildCondBr(l->b, lone, keep, on);
  position(l, keep);
  LLVMValueRef k = LLVMBuildLoad2(l->b, l->mod->i64, kept, "");
  lo_store_scalar(l, e, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, e), s.data, &k, 1, ""), x);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, one, ""), kept);
  LLVMBuildBr(l->b, on);
  position(l, on);
  lo_loop_end(l, &loop);
  LLVMValueRef r = np_first_elements(l, ft, aux, LLVMBuildLoad2(l->b, l->mod->i64, kept, ""));
  lo_release_temp(l, ft, aux);
  return r;
}

/* ---------------------------------------------------------------- the rows */

static const char *const searchsorted_kw[] = {"v", "side", NULL};
static const char *const digitize_kw[] = {"bins", "right", NULL};
static const char *const interp_kw[] = {"xp", "fp", "left", "right", NULL};
static const char *const bincount_kw[] = {"weights", "minlength", NULL};
static const char *const histogram_kw[] = {"bins", "range", NULL};
static const char *const isin_kw[] = {"test_elements", "assume_unique", "invert", NULL};

#define SEARCH_FLAGS (BF_ALLOCATES | BF_RAISES | BF_STRINGS)

const Builtin bi_searching[] = {
  {"numpy.searchsorted", "numpy", "searchsorted", BK_FUNCTION, 0, 1, 3, searchsorted_kw, SEARCH_FLAGS | BF_ARRAYLIKE | BF_COMPLEX, 0, 0, ty_searchsorted,
   lo_searchsorted},
  {"array.searchsorted", NULL, "searchsorted", BK_METHOD, TY_ARRAY, 0, 2, searchsorted_kw, SEARCH_FLAGS | BF_COMPLEX, 0, 0, ty_searchsorted,
   lo_searchsorted},
  {"numpy.digitize", "numpy", "digitize", BK_FUNCTION, 0, 1, 3, digitize_kw, BF_ALLOCATES | BF_RAISES | BF_ARRAYLIKE, 0, 0, ty_digitize,
   lo_digitize},
  {"numpy.interp", "numpy", "interp", BK_FUNCTION, 0, 1, 5, interp_kw, BF_ALLOCATES | BF_RAISES | BF_ARRAYLIKE | BF_COMPLEX, 0, 0, ty_interp, lo_interp},
  {"numpy.bincount", "numpy", "bincount", BK_FUNCTION, 0, 1, 3, bincount_kw, BF_ALLOCATES | BF_RAISES | BF_NONE | BF_ARRAYLIKE, 0, 0, ty_bincount,
   lo_bincount},
  {"numpy.histogram", "numpy", "histogram", BK_FUNCTION, 0, 1, 3, histogram_kw, BF_ALLOCATES | BF_RAISES | BF_NONE, 0, 0, ty_histogram,
   lo_histogram},
  {"numpy.isin", "numpy", "isin", BK_FUNCTION, 0, 1, 4, isin_kw, BF_ALLOCATES | BF_RAISES | BF_ARRAYLIKE | BF_COMPLEX, 0, 0,
   ty_isin, lo_isin},
  {"numpy.union1d", "numpy", "union1d", BK_FUNCTION, 0, 2, 2, NULL, BF_ALLOCATES | BF_RAISES | BF_ARRAYLIKE, SET_UNION, 0, ty_set, lo_set},
  {"numpy.intersect1d", "numpy", "intersect1d", BK_FUNCTION, 0, 2, 3, set_kw, BF_ALLOCATES | BF_RAISES | BF_ARRAYLIKE, SET_INTERSECT, 0, ty_set, lo_set},
  {"numpy.setdiff1d", "numpy", "setdiff1d", BK_FUNCTION, 0, 2, 3, set_kw, BF_ALLOCATES | BF_RAISES | BF_ARRAYLIKE, SET_DIFF, 0, ty_set, lo_set},
  {"numpy.setxor1d", "numpy", "setxor1d", BK_FUNCTION, 0, 2, 3, set_kw, BF_ALLOCATES | BF_RAISES | BF_ARRAYLIKE, SET_XOR, 0, ty_set,
   lo_setxor},
  BI_END,
};
