/* builtins/picking.c — elements picked from an array, in compiled code:
 * numpy.take(a, indices, axis=None) and a.take(...) (of a flattened, or
 * along a constant axis), numpy.take_along_axis(arr, indices, axis=-1)
 * (along an axis, broadcasting; flattened for axis=None),
 * numpy.extract(condition, arr), numpy.flatnonzero(a), and
 * numpy.delete(arr, obj) (obj positions, a mask or a slice) and
 * numpy.insert(arr, obj, values) (no axis, as
 * Numba's: the result is 1-d). Those of a flattened array read it once (a
 * flat temporary, or for delete and insert the array itself where it is
 * C-contiguous); indices out of range are NumPy's IndexError.
 */
#include "builtins/builtins.h"

static LLVMValueRef flat_item(Lower *l, const Type *e, LLVMValueRef flat, LLVMValueRef i) {
  LLVMValueRef data = LLVMBuildExtractValue(l->b, flat, 2, "");
  return LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, e), data, &i, 1, "");
}

static LLVMValueRef counter(Lower *l, const char *name) {
  LLVMValueRef c = lo_alloca(l, l->mod->i64, name);
  LLVMBuildStore(l->b, const_i64(l, 0), c);
  return c;
}

static LLVMValueRef load_i64(Lower *l, LLVMValueRef p) { return LLVMBuildLoad2(l->b, l->mod->i64, p, ""); }

static void bump(Lower *l, LLVMValueRef p) { LLVMBuildStore(l->b, LLVMBuildAdd(l->b, load_i64(l, p), const_i64(l, 1), ""), p); }

/* ---------------------------------------------------------------- take */

static bool is_none(const Node *x) { return x && (x->kind == N_NONE || (x->ty && x->ty->kind == TY_NONE)); }

/* take's axis=: a constant int within a's dimensions (the result's shape
 * is a's with indices' in place of that axis); -1 where there is none, None,
 * or one checked when the call runs (a constant out of them too, as Numba) */
static int take_axis(Node *n) {
  Node *axis = bi_arg(n, 2, "axis");
  int64_t k;
  int ndim = ndim_of(n->list.items[0]->ty);
  if (is_none(axis) || !axis || !bi_axis_within(axis, ndim, &k)) return -1;
  return (int)(k < 0 ? k + ndim : k);
}

/* numpy.take(a, indices, axis=None), a.take(...): without an axis a number
 * for an int, else an array of indices' shape, read from a flattened; with
 * one, a's elements at indices along it */
static const Type *ty_take(Infer *in, Node *n, const Type **args) {
  if (!bi_need_values(in, n, n->list.items[0])) return NULL;
  const Type *ix = args[1], *e = elem_of(args[0]);
  Node *axis = bi_arg(n, 2, "axis");
  if ((ix->kind == TY_LIST || ix->kind == TY_TUPLE) && !(ix = ty_wrap_call(in, n->list.items[1], "numpy.asarray")))
    return NULL;  /* a list or tuple of indices: as the array of them, as NumPy and Numba take it */
  if (!ty_is_int(elem_of(ix)) || (ix->kind != TY_ARRAY && !ty_is_int(ix)))
    return ty_error(in, n->list.items[1], "%s(): indices must be an int or an array of ints in compiled code, got %s",
                    n->bi->name, ix->name);
  if (axis && !is_none(axis)) {
    int ndim = ndim_of(args[0]), out = ndim - 1 + ndim_of(ix);
    if (!bi_check_axis_late(in, n, axis, ndim)) return NULL;  /* (one known only when the call runs too) */
    if (out > RC_MAX_NDIM) return ty_error(in, n, "%s(): at most %d dimensions", n->bi->name, RC_MAX_NDIM);
    return out ? ty_array(e, out, 'C', false) : e;
  }
  return ix->kind == TY_ARRAY ? ty_array(e, ix->ndim, 'C', false) : e;
}

typedef struct Take {
  const Type *e, *it, *ot;
  LLVMValueRef flat, size, ix, out;
} Take;

/* the element at index i of the flat array (a negative i from its end) */
static LLVMValueRef taken(Lower *l, const Take *t, LLVMValueRef i) {
  LLVMValueRef at = lo_index_wrapped(l, lo_convert(l, i, elem_of(t->it), TYS(TY_I64)), t->size, 0);
  return lo_load_scalar(l, t->e, flat_item(l, t->e, t->flat, at));
}

static void take_element(Lower *l, LLVMValueRef *idx, void *arg) {
  Take *t = arg;
  LLVMValueRef i = lo_load_scalar(l, t->it->elem, lo_element_addr(l, t->it, t->ix, idx));
  lo_store_scalar(l, t->e, lo_element_addr(l, t->ot, t->out, idx), taken(l, t, i));
}

typedef struct TakeAxis {
  const Type *t, *it, *ot;
  int axis;
  LLVMValueRef a, ix, out;
} TakeAxis;

/* a[idx before axis, indices[idx in indices' dimensions], idx after] */
static LLVMValueRef taken_on_axis(Lower *l, const TakeAxis *c, LLVMValueRef *idx) {
  int k = c->axis, ni = ndim_of(c->it);
  LLVMValueRef j = ni ? lo_load_scalar(l, c->it->elem, lo_element_addr(l, c->it, c->ix, idx + k)) : c->ix, at[RC_MAX_NDIM];
  j = lo_index_wrapped(l, lo_convert(l, j, elem_of(c->it), TYS(TY_I64)), lo_arr_shape(l, c->a, k), k);
  for (int d = 0; d < c->t->ndim; d++) at[d] = d < k ? idx[d] : d == k ? j : idx[d - 1 + ni];
  return lo_load_scalar(l, c->t->elem, lo_element_addr(l, c->t, c->a, at));
}

static void take_on_axis(Lower *l, LLVMValueRef *idx, void *arg) {
  TakeAxis *c = arg;
  lo_store_scalar(l, c->t->elem, lo_element_addr(l, c->ot, c->out, idx), taken_on_axis(l, c, idx));
}

/* take along c's axis (a constant) of c's values: a's shape with indices' in place of the axis */
static LLVMValueRef take_axis_of(Lower *l, Node *n, TakeAxis *c) {
  LLVMValueRef r, shape[RC_MAX_NDIM];
  int axis = c->axis, ni = ndim_of(c->it), ndim = c->t->ndim - 1 + ni;
  if (!ndim) return taken_on_axis(l, c, NULL);
  for (int d = 0; d < ndim; d++)
    shape[d] = d < axis ? lo_arr_shape(l, c->a, d) : d < axis + ni ? lo_arr_shape(l, c->ix, d - axis)
                                                                : lo_arr_shape(l, c->a, d - ni + 1);
  r = c->out = lo_alloc_array(l, n->ty, shape, -1);
  lo_temp_made(l, n->ty, r);
  lo_for_each_index(l, ndim, shape, take_on_axis, c);
  lo_temp_taken(l, r);
  return r;
}

/* take along an axis: a constant one (axis >= 0), or the axis argument's
 * value when the call runs (Numba takes a variable), each of a's axes a
 * case of a switch on it: the result's ndim is the same whichever */
static LLVMValueRef lo_take_axis(Lower *l, Node *n, int axis) {
  Node *a = n->list.items[0], *ix = n->list.items[1];
  LLVMValueRef k = axis >= 0 ? NULL : np_runtime_axis(l, bi_arg(n, 2, "axis"), a->ty->ndim);
  TakeAxis c = {a->ty, ix->ty, n->ty, axis, lo_expr(l, a), lo_expr(l, ix), NULL};
  LLVMValueRef r;
  if (k) {
    int nd = a->ty->ndim;
    /* (cases zeroed for gcc's uninitialised warning: ndim >= 1 sets them all) */
    LLVMBasicBlockRef done = new_block(l, "take.axis"), cases[RC_MAX_NDIM] = {0}, ends[RC_MAX_NDIM];
    LLVMValueRef rs[RC_MAX_NDIM];
    for (int d = 0; d < nd; d++) cases[d] = new_block(l, "take.on");
    LLVMValueRef sw = LLVMBuildSwitch(l->b, k, cases[nd - 1], (unsigned)nd - 1);
    for (int d = 0; d + 1 < nd; d++) LLVMAddCase(sw, const_i64(l, d), cases[d]);
    for (int d = 0; d < nd; d++) {
      position(l, cases[d]);
      c.axis = d;
      rs[d] = take_axis_of(l, n, &c);
      ends[d] = LLVMGetInsertBlock(l->b);
      LLVMBuildBr(l->b, done);
    }
    position(l, done);
    r = LLVMBuildPhi(l->b, lo_type(l, n->ty), "take");
    LLVMAddIncoming(r, rs, ends, (unsigned)nd);
  } else {
    r = take_axis_of(l, n, &c);
  }
  lo_done_with(l, ix, c.ix);
  lo_done_with(l, a, c.a);
  return r;
}

static LLVMValueRef lo_take(Lower *l, Node *n) {
  int axis = take_axis(n);
  Node *given = bi_arg(n, 2, "axis");
  if (axis >= 0 || (given && !is_none(given))) return lo_take_axis(l, n, axis);
  Node *a = n->list.items[0], *ix = n->list.items[1];
  const Type *e = elem_of(a->ty), *ft = ty_array(e, 1, 'C', false);
  Take t = {e, ix->ty, n->ty, NULL, NULL, NULL, NULL};
  t.flat = np_joined_elements(l, &a, 1, e, &t.size);
  t.ix = lo_expr(l, ix);
  LLVMValueRef r;
  if (ix->ty->kind != TY_ARRAY) {
    r = taken(l, &t, t.ix);
  } else {
    LLVMValueRef shape[RC_MAX_NDIM];
    for (int d = 0; d < ix->ty->ndim; d++) shape[d] = lo_arr_shape(l, t.ix, d);
    r = t.out = lo_alloc_array(l, n->ty, shape, -1);
    lo_temp_made(l, n->ty, r);
    lo_for_each_index(l, ix->ty->ndim, shape, take_element, &t);
    lo_temp_taken(l, r);
  }
  lo_done_with(l, ix, t.ix);
  lo_release_temp(l, ft, t.flat);
  return r;
}

/* ---------------------------------------------------------------- extract, flatnonzero */

enum { EXTRACT, FLATNONZERO };

static const Type *ty_extract(Infer *in, Node *n, const Type **args) {
  if (n->bi->ival == FLATNONZERO && !(args[0] = ty_truth_operand(in, n->list.items[0], args[0]))) return NULL;
  for (int i = 0; i < n->list.len; i++)
    if (!bi_need_values(in, n, n->list.items[i])) return NULL;  /* (tuples and lists: the rows' BF_ARRAYLIKE) */
  return ty_array(n->bi->ival == EXTRACT ? elem_of(args[1]) : TYS(TY_I64), 1, 'C', false);
}

/* NumPy's take(ravel(arr), nonzero(ravel(condition))[0]): the true
 * positions of the condition counted (the first beyond arr an IndexError),
 * then arr's elements there (flatnonzero: the positions themselves) */
static LLVMValueRef lo_extract(Lower *l, Node *n) {
  bool positions = n->bi->ival == FLATNONZERO;
  Node *c = n->list.items[0];
  const Type *ce = elem_of(c->ty), *e = n->ty->elem, *ct = ty_array(ce, 1, 'C', false), *ft = ty_array(e, 1, 'C', false);
  LLVMValueRef nc, na = NULL, cond = np_joined_elements(l, &c, 1, ce, &nc), arr = NULL;
  if (!positions) arr = np_joined_elements(l, &n->list.items[1], 1, e, &na);
  LLVMValueRef count = counter(l, "extract.count");
  LoLoop scan = lo_loop_begin(l, const_i64(l, 0), nc, NULL, "extract.scan");
  LLVMValueRef truth = lo_item_truth(l, ce, flat_item(l, ce, cond, scan.index));
  if (!positions) {
    LLVMValueRef bad = LLVMBuildAnd(l->b, truth, LLVMBuildICmp(l->b, LLVMIntSGE, scan.index, na, ""), "");
    lo_raise_index_error_if(l, bad, 0, scan.index, const_i64(l, 0), na);
  }
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, load_i64(l, count), LLVMBuildZExt(l->b, truth, l->mod->i64, ""), ""), count);
  lo_loop_end(l, &scan);
  LLVMValueRef len = load_i64(l, count), out = lo_alloc_array(l, n->ty, &len, -1), at = counter(l, "extract.at");
  LoLoop pick = lo_loop_begin(l, const_i64(l, 0), nc, NULL, "extract.pick");
  LLVMValueRef keep = lo_item_truth(l, ce, flat_item(l, ce, cond, pick.index));
  LLVMBasicBlockRef put = new_block(l, "extract.put"), next = new_block(l, "extract.next");
  LLVMBuildCondBr(l->b, keep, put, next);
  position(l, put);
  LLVMValueRef v = positions ? pick.index : lo_load_scalar(l, e, flat_item(l, e, arr, pick.index));
  lo_store_scalar(l, e, flat_item(l, e, out, load_i64(l, at)), v);
  bump(l, at);
  LLVMBuildBr(l->b, next);
  position(l, next);
  lo_loop_end(l, &pick);
  if (arr) lo_release_temp(l, ft, arr);
  lo_release_temp(l, ct, cond);
  return out;
}

/* ---------------------------------------------------------------- delete, insert */

/* An empty list or tuple written in the call, read as an array (of
 * float64, as numpy.asarray([]) is): no positions, as NumPy reads it. */
static bool empty_literal(const Node *x) {
  return x->kind == N_CALL && x->list.len == 1 && x->list.items[0]->ty->kind == TY_TUPLE && !x->list.items[0]->ty->nfields;
}

/* obj of delete and insert: an int, or an array of ints (a literal list
 * or tuple is one); delete takes a 1-d array of bools too, a mask, and a
 * slice */
static bool need_positions(Infer *in, Node *n, Node *obj, bool deleting) {
  const Type *t = obj->ty;
  if (ty_is_int(t) || (t->kind == TY_ARRAY && ty_is_int(t->elem)) || empty_literal(obj)) return true;
  if (deleting && ((t->kind == TY_ARRAY && t->elem->kind == TY_BOOL && t->ndim == 1) || t->kind == TY_SLICE)) return true;
  return ty_error(in, obj, "%s(): obj must be an int or an array of ints%s in compiled code, got %s", n->bi->name,
                  deleting ? " (or a 1-d array of bools, or a slice)" : "", t->name) != NULL;
}

/* numpy.delete(arr, obj): arr flattened without the elements at obj's
 * positions (or where the mask obj is true) */
static const Type *ty_delete(Infer *in, Node *n, const Type **args) {
  Node *obj = n->list.items[1];
  if (!bi_need_values(in, n, n->list.items[0]) || !need_positions(in, n, obj, true)) return NULL;
  return ty_array(elem_of(args[0]), 1, 'C', false);
}

/* x's elements in C order as elements of e, in a C-contiguous array (of
 * type *t, which the caller releases with lo_release_temp): x itself where
 * it is an array of e and C-contiguous at run time, else a copy (a
 * number's of one element); *size: how many. */
static LLVMValueRef flat_of(Lower *l, Node *x, const Type *e, const Type **t, LLVMValueRef *size) {
  if (x->ty->kind != TY_ARRAY || x->ty->elem != e) {
    *t = ty_array(e, 1, 'C', false);
    return np_joined_elements(l, &x, 1, e, size);
  }
  LLVMValueRef v = lo_expr(l, x), c = np_as_contiguous(l, x->ty, v, 'C');
  *t = ty_array(e, x->ty->ndim, 'C', x->ty->readonly);
  lo_temp_made(l, *t, c);
  *size = const_i64(l, 1);
  for (int d = 0; d < x->ty->ndim; d++) *size = LLVMBuildMul(l->b, *size, lo_arr_shape(l, c, d), "");
  lo_done_with(l, x, v);
  return c;
}

/* A new 1-d array (of type rt) of those of flat's count elements whose flag in drop (bools) is false. */
static LLVMValueRef kept_elements(Lower *l, const Type *rt, LLVMValueRef flat, LLVMValueRef count, LLVMValueRef drop) {
  const Type *e = rt->elem, *b = TYS(TY_BOOL);
  LLVMValueRef kept = counter(l, "delete.kept");
  LoLoop scan = lo_loop_begin(l, const_i64(l, 0), count, NULL, "delete.count");
  LLVMValueRef keep = LLVMBuildNot(l->b, lo_truth(l, lo_load_scalar(l, b, flat_item(l, b, drop, scan.index)), b), "");
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, load_i64(l, kept), LLVMBuildZExt(l->b, keep, l->mod->i64, ""), ""), kept);
  lo_loop_end(l, &scan);
  LLVMValueRef len = load_i64(l, kept), out = lo_alloc_array(l, rt, &len, -1), at = counter(l, "delete.at");
  LoLoop copy = lo_loop_begin(l, const_i64(l, 0), count, NULL, "delete.copy");
  LLVMBasicBlockRef put = new_block(l, "delete.put"), next = new_block(l, "delete.next");
  LLVMBuildCondBr(l->b, lo_truth(l, lo_load_scalar(l, b, flat_item(l, b, drop, copy.index)), b), next, put);
  position(l, put);
  lo_store_scalar(l, e, flat_item(l, e, out, load_i64(l, at)), lo_load_scalar(l, e, flat_item(l, e, flat, copy.index)));
  bump(l, at);
  LLVMBuildBr(l->b, next);
  position(l, next);
  lo_loop_end(l, &copy);
  return out;
}

/* the flags (a new array of size bools, a temp) of the positions the
 * slice obj takes of size elements, as Python's slice.indices(size) */
static LLVMValueRef sliced_positions(Lower *l, Node *obj, LLVMValueRef size) {
  const Type *b = TYS(TY_BOOL), *bt = ty_array(b, 1, 'C', false);
  LLVMValueRef drop = lo_alloc_array(l, bt, &size, 0), s = lo_expr(l, obj), given[3], bound[3];
  lo_temp_made(l, bt, drop);
  for (unsigned k = 0; k < 3; k++)
    given[k] = obj->ty->unit & (1 << k) ? LLVMBuildExtractValue(l->b, s, k, "slice.part") : NULL;
  lo_slice_indices(l, given, size, bound);
  LoLoop mark = lo_loop_begin(l, const_i64(l, 0), lo_range_count(l, bound[0], bound[1], bound[2]), NULL, "delete.slice");
  LLVMValueRef i = LLVMBuildAdd(l->b, bound[0], LLVMBuildMul(l->b, mark.index, bound[2], ""), "");
  lo_store_scalar(l, b, flat_item(l, b, drop, i), const_bool(l, true));
  lo_loop_end(l, &mark);
  return drop;
}

static LLVMValueRef lo_delete(Lower *l, Node *n) {
  Node *arr = n->list.items[0], *obj = n->list.items[1];
  const Type *e = n->ty->elem, *b = TYS(TY_BOOL), *bt = ty_array(b, 1, 'C', false), *ft, *pt;
  LLVMValueRef size, count, flat = flat_of(l, arr, e, &ft, &size);
  if (obj->ty->kind == TY_SLICE) {
    LLVMValueRef drop = sliced_positions(l, obj, size), out = kept_elements(l, n->ty, flat, size, drop);
    lo_release_temp(l, bt, drop);
    lo_release_temp(l, ft, flat);
    return out;
  }
  bool mask = elem_of(obj->ty)->kind == TY_BOOL;
  LLVMValueRef pos = flat_of(l, obj, mask ? b : TYS(TY_I64), &pt, &count), drop = pos;
  if (mask) {
    lo_raise_format_if(l, LLVMBuildICmp(l->b, LLVMIntNE, count, size, ""), RT_ERR_VALUE, "boolean array argument obj "
                       "to delete must be one dimensional and match the axis length of %lld", &size, 1);
  } else {
    drop = lo_alloc_array(l, bt, &size, 0);
    lo_temp_made(l, bt, drop);
    LoLoop mark = lo_loop_begin(l, const_i64(l, 0), count, NULL, "delete.mark");
    LLVMValueRef i = lo_index_wrapped(l, lo_load_scalar(l, TYS(TY_I64), flat_item(l, TYS(TY_I64), pos, mark.index)), size, 0);
    lo_store_scalar(l, b, flat_item(l, b, drop, i), const_bool(l, true));
    lo_loop_end(l, &mark);
  }
  LLVMValueRef out = kept_elements(l, n->ty, flat, size, drop);
  if (!mask) lo_release_temp(l, bt, drop);
  lo_release_temp(l, pt, pos);
  lo_release_temp(l, ft, flat);
  return out;
}

/* numpy.insert(arr, obj, values): arr flattened with values put before
 * the positions obj names: all of them before one int (or a one-element
 * obj), else one before each (values' one element, or one each) */
/* Into an array of str (bytes): a str (a bytes) or an array of them, of
 * any width, each cut or NUL-padded to arr's as NumPy casts them. */
static bool text_values(Infer *in, Node *n, const Type *arr, Node *values) {
  const Type *t = values->ty, *e = elem_of(t);
  bool text_arr = ty_is_fixed_text(elem_of(arr));
  TypeKind str = elem_of(arr)->kind == TY_CHARSEQ ? TY_STR : TY_BYTES;
  if (text_arr && (t->kind == str || (t->kind == TY_ARRAY && e->kind == elem_of(arr)->kind))) return true;
  if (!text_arr && !ty_is_fixed_text(e) && t->kind != TY_STR && t->kind != TY_BYTES) return true;
  return ty_error(in, values, "%s() puts str into arrays of str, bytes into arrays of bytes and numbers into arrays of "
                  "numbers in compiled code, got %s into %s", n->bi->name, t->name, arr->name) != NULL;
}

static const Type *ty_insert(Infer *in, Node *n, const Type **args) {
  Node *obj = n->list.items[1], *values = n->list.items[2];
  if (!bi_need_values(in, n, n->list.items[0]) || !need_positions(in, n, obj, false) ||
      !text_values(in, n, args[0], values))
    return NULL;
  if (values->ty->kind != TY_STR && values->ty->kind != TY_BYTES && !bi_need_values(in, n, values)) return NULL;
  if (ndim_of(values->ty) > 1)
    return ty_error(in, values, "%s(): values must be a number or a 1-d array (arr is flattened), got %s", n->bi->name,
                    values->ty->name);
  return ty_array(elem_of(args[0]), 1, 'C', false);
}

/* count elements of e from src to dst, both flat arrays, at their elements from and to */
static void copy_run(Lower *l, const Type *e, LLVMValueRef dst, LLVMValueRef to, LLVMValueRef src, LLVMValueRef from,
                     LLVMValueRef count) {
  LLVMValueRef bytes = LLVMBuildMul(l->b, count, const_i64(l, (long long)e->size), "");
  LLVMBuildMemCpy(l->b, flat_item(l, e, dst, to), 1, flat_item(l, e, src, from), 1, bytes);
}

/* Each position from the end where negative, in place (NumPy's IndexError beyond [-size, size]). */
static void normalise_positions(Lower *l, LLVMValueRef pos, LLVMValueRef count, LLVMValueRef size) {
  const Type *i64 = TYS(TY_I64);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "insert.position");
  LLVMValueRef at = flat_item(l, i64, pos, loop.index), i = lo_load_scalar(l, i64, at);
  LLVMValueRef bad = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, i, LLVMBuildNeg(l->b, size, ""), ""),
                                 LLVMBuildICmp(l->b, LLVMIntSGT, i, size, ""), "");
  lo_raise_index_error_if(l, bad, 0, i, const_i64(l, 0), size);
  lo_store_scalar(l, i64, at, LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), ""),
                                              LLVMBuildAdd(l->b, i, size, ""), i, ""));
  lo_loop_end(l, &loop);
}

/* The value at flat's element i (of type ve; one str or bytes, text, where
 * flat is NULL) stored at dst, an element of e: numbers converted, text
 * items cut or NUL-padded to e's width */
static void put_value(Lower *l, const Type *e, LLVMValueRef dst, const Type *ve, LLVMValueRef flat, LLVMValueRef i,
                      LLVMValueRef text) {
  if (!flat) {
    lo_text_write(l, e, dst, text);
  } else if (ty_is_fixed_text(e)) {
    LLVMBuildMemSet(l->b, dst, LLVMConstInt(l->mod->i8, 0, 0), const_i64(l, (long long)e->size), 1);
    LLVMValueRef bytes = const_i64(l, (long long)(ve->size < e->size ? ve->size : e->size));
    LLVMBuildMemCpy(l->b, dst, 1, flat_item(l, ve, flat, i), 1, bytes);
  } else {
    lo_store_scalar(l, e, dst, lo_load_scalar(l, e, flat_item(l, e, flat, i)));
  }
}

/* The result in one pass over the insertions in order of position (ties
 * in obj's order, NumPy's stable order): the run of arr's elements
 * before each copied, then its value. With one position (an int, or obj
 * of one element) every value goes there, in order. */
static LLVMValueRef lo_insert(Lower *l, Node *n) {
  Node *arr = n->list.items[0], *obj = n->list.items[1], *values = n->list.items[2];
  const Type *e = n->ty->elem, *i64 = TYS(TY_I64), *it = ty_array(i64, 1, 'C', false), *ft, *vt;
  LLVMValueRef size, npos, nvals, flat = flat_of(l, arr, e, &ft, &size);
  LLVMValueRef pos = np_joined_elements(l, &obj, 1, i64, &npos);  /* a copy: normalised in place */
  /* values: a text array's items as they are (put_value fits them to e); one str or bytes in text */
  bool one_text = values->ty->kind == TY_STR || values->ty->kind == TY_BYTES;
  const Type *ve = ty_is_fixed_text(e) && !one_text ? values->ty->elem : e;
  LLVMValueRef text = one_text ? lo_expr(l, values) : NULL, vals = one_text ? NULL : flat_of(l, values, ve, &vt, &nvals);
  if (one_text) nvals = const_i64(l, 1);
  LLVMValueRef zero = const_i64(l, 0), one_value = LLVMBuildICmp(l->b, LLVMIntEQ, nvals, const_i64(l, 1), "");
  LLVMValueRef one = obj->ty->kind == TY_ARRAY ? LLVMBuildICmp(l->b, LLVMIntEQ, npos, const_i64(l, 1), "") : const_bool(l, true);
  LLVMValueRef mismatch = LLVMBuildAnd(l->b, LLVMBuildNot(l->b, one, ""),
                                       LLVMBuildAnd(l->b, LLVMBuildNot(l->b, one_value, ""),
                                                    LLVMBuildICmp(l->b, LLVMIntNE, nvals, npos, ""), ""), "");
  int ndims[2] = {1, 1};
  const LLVMValueRef *shapes[2] = {&nvals, &npos};
  lo_raise_shape_error(l, mismatch, 3, 2, ndims, shapes);
  normalise_positions(l, pos, npos, size);
  LLVMValueRef order = lo_alloc_array(l, it, &npos, -1);
  lo_temp_made(l, it, order);
  np_argsort_flat(l, it, pos, order);
  LLVMValueRef count = LLVMBuildSelect(l->b, one, nvals, npos, "insert.count");
  LLVMValueRef total = LLVMBuildAdd(l->b, size, count, ""), out = lo_alloc_array(l, n->ty, &total, -1);
  LLVMValueRef src = counter(l, "insert.src"), dst = counter(l, "insert.dst");
  LoLoop put = lo_loop_begin(l, zero, count, NULL, "insert.put");
  LLVMValueRef k = LLVMBuildSelect(l->b, one, zero, lo_load_scalar(l, i64, flat_item(l, i64, order, put.index)), "");
  LLVMValueRef p = lo_load_scalar(l, i64, flat_item(l, i64, pos, k)), from = load_i64(l, src), to = load_i64(l, dst);
  LLVMValueRef run = LLVMBuildSub(l->b, p, from, "");
  copy_run(l, e, out, to, flat, from, run);
  to = LLVMBuildAdd(l->b, to, run, "");
  LLVMValueRef v = LLVMBuildSelect(l->b, one, put.index, LLVMBuildSelect(l->b, one_value, zero, k, ""), "");
  put_value(l, e, flat_item(l, e, out, to), ve, vals, v, text);
  LLVMBuildStore(l->b, p, src);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, to, const_i64(l, 1), ""), dst);
  lo_loop_end(l, &put);
  LLVMValueRef rest = load_i64(l, src);  /* arr's elements after the last position */
  copy_run(l, e, out, load_i64(l, dst), flat, rest, LLVMBuildSub(l->b, size, rest, ""));
  lo_release_temp(l, it, order);
  if (vals) lo_release_temp(l, vt, vals);
  else lo_done_with(l, values, text);
  lo_release_temp(l, it, pos);
  lo_release_temp(l, ft, flat);
  return out;
}

/* ---------------------------------------------------------------- take_along_axis */

/* numpy.take_along_axis(arr, indices, axis=-1): arr's elements at indices
 * along axis, the other dimensions broadcast as NumPy's fancy indexing
 * broadcasts them; axis=None reads arr flattened (np.take's), with 1-d
 * indices. A C-ordered array of indices' broadcast shape. */
static const Type *ty_take_along_axis(Infer *in, Node *n, const Type **args) {
  Node *axis = bi_arg(n, 2, "axis");
  const Type *t = args[0], *it = args[1];
  if (t->kind != TY_ARRAY) return ty_error(in, n->list.items[0], "%s() needs an array, got %s", n->bi->name, t->name);
  if (it->kind != TY_ARRAY || !ty_is_int(it->elem))
    return ty_error(in, n->list.items[1], "%s(): indices must be an integer array, got %s", n->bi->name, it->name);
  if (is_none(axis))
    return it->ndim == 1 ? ty_array(t->elem, 1, 'C', false)
                         : ty_error(in, n->list.items[1], "%s(): when axis=None, indices must have a single dimension",
                                    n->bi->name);
  if (axis && !bi_check_axis(in, n, axis, t->ndim)) return NULL;  /* (a constant's bounds: Numba's TypingError too) */
  if (!axis && t->ndim == 0) return ty_error(in, n, "%s(): axis -1 is out of bounds for array of dimension 0", n->bi->name);
  if (it->ndim != t->ndim)
    return ty_error(in, n->list.items[1], "%s(): indices and arr must have the same number of dimensions, got %d and %d",
                    n->bi->name, it->ndim, t->ndim);
  return ty_array(t->elem, t->ndim, 'C', false);
}

typedef struct Along {
  const Type *t, *it, *ot;
  LLVMValueRef a, ix, out, axis, len;  /* len: arr's length along axis */
  LLVMValueRef shape[RC_MAX_NDIM], ishape[RC_MAX_NDIM];
} Along;

/* out[idx] = arr[idx with indices[idx] along axis], a length of 1 in
 * either array read at 0 */
static void take_along(Lower *l, LLVMValueRef *idx, void *arg) {
  Along *c = arg;
  LLVMValueRef one = const_i64(l, 1), zero = const_i64(l, 0), at_ix[RC_MAX_NDIM], at_a[RC_MAX_NDIM];
  for (int d = 0; d < c->t->ndim; d++)
    at_ix[d] = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, c->ishape[d], one, ""), zero, idx[d], "");
  LLVMValueRef j = lo_convert(l, lo_load_scalar(l, c->it->elem, lo_element_addr(l, c->it, c->ix, at_ix)), c->it->elem,
                              TYS(TY_I64));
  j = lo_index_wrapped_on(l, j, c->len, c->axis);
  for (int d = 0; d < c->t->ndim; d++) {
    LLVMValueRef own = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, c->shape[d], one, ""), zero, idx[d], "");
    at_a[d] = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, c->axis, const_i64(l, d), ""), j, own, "");
  }
  LLVMValueRef v = lo_load_scalar(l, c->t->elem, lo_element_addr(l, c->t, c->a, at_a));
  lo_store_scalar(l, c->t->elem, lo_element_addr(l, c->ot, c->out, idx), v);
}

static LLVMValueRef lo_take_along_axis(Lower *l, Node *n) {
  Node *arr = n->list.items[0], *ix = n->list.items[1], *axis = bi_arg(n, 2, "axis");
  if (is_none(axis)) return lo_take(l, n);
  Along c = {arr->ty, ix->ty, n->ty, lo_expr(l, arr), lo_expr(l, ix), NULL, NULL, NULL, {0}, {0}};
  int ndim = c.t->ndim;
  c.axis = axis ? np_runtime_axis(l, axis, ndim) : const_i64(l, ndim - 1);
  c.len = const_i64(l, 0);
  LLVMValueRef out_shape[RC_MAX_NDIM], one = const_i64(l, 1), bad = const_bool(l, false);
  for (int d = 0; d < ndim; d++) {
    c.shape[d] = lo_arr_shape(l, c.a, d);
    c.ishape[d] = lo_arr_shape(l, c.ix, d);
    LLVMValueRef along = LLVMBuildICmp(l->b, LLVMIntEQ, c.axis, const_i64(l, d), "");
    c.len = LLVMBuildSelect(l->b, along, c.shape[d], c.len, "");
    LLVMValueRef a1 = LLVMBuildICmp(l->b, LLVMIntEQ, c.shape[d], one, ""), i1 = LLVMBuildICmp(l->b, LLVMIntEQ, c.ishape[d], one, "");
    LLVMValueRef fits = LLVMBuildOr(l->b, LLVMBuildOr(l->b, a1, i1, ""), LLVMBuildICmp(l->b, LLVMIntEQ, c.shape[d], c.ishape[d], ""), "");
    bad = LLVMBuildOr(l->b, bad, LLVMBuildAnd(l->b, LLVMBuildNot(l->b, along, ""), LLVMBuildNot(l->b, fits, ""), ""), "");
    out_shape[d] = LLVMBuildSelect(l->b, LLVMBuildOr(l->b, along, a1, ""), c.ishape[d], c.shape[d], "");
  }
  lo_raise_if(l, bad, RT_ERR_INDEX, "shape mismatch: indexing arrays could not be broadcast together");
  c.out = lo_alloc_array(l, n->ty, out_shape, -1);
  lo_temp_made(l, n->ty, c.out);
  lo_for_each_index(l, ndim, out_shape, take_along, &c);
  lo_temp_taken(l, c.out);
  lo_done_with(l, ix, c.ix);
  lo_done_with(l, arr, c.a);
  return c.out;
}

/* ---------------------------------------------------------------- the rows */

#define PK_FLAGS (BF_ALLOCATES | BF_RAISES | BF_COMPLEX)

static const char *const axis_kw[] = {"axis", NULL};

const Builtin bi_picking[] = {
  {"numpy.take", "numpy", "take", BK_FUNCTION, 0, 2, 3, axis_kw, PK_FLAGS | BF_NONE, 0, 0, ty_take, lo_take},
  {"array.take", NULL, "take", BK_METHOD, TY_ARRAY, 1, 2, axis_kw, PK_FLAGS | BF_NONE, 0, 0, ty_take, lo_take},
  {"numpy.take_along_axis", "numpy", "take_along_axis", BK_FUNCTION, 0, 2, 3, axis_kw, PK_FLAGS | BF_NONE, 0, 0, ty_take_along_axis,
   lo_take_along_axis},
  {"numpy.extract", "numpy", "extract", BK_FUNCTION, 0, 2, 2, NULL, PK_FLAGS | BF_ARRAYLIKE, EXTRACT, 0, ty_extract, lo_extract},
  {"numpy.flatnonzero", "numpy", "flatnonzero", BK_FUNCTION, 0, 1, 1, NULL, PK_FLAGS | BF_ARRAYLIKE | BF_NONE, FLATNONZERO, 0, ty_extract, lo_extract},
  {"numpy.delete", "numpy", "delete", BK_FUNCTION, 0, 2, 2, NULL, PK_FLAGS | BF_ARRAYLIKE, 0, 0, ty_delete, lo_delete},
  {"numpy.insert", "numpy", "insert", BK_FUNCTION, 0, 3, 3, NULL, PK_FLAGS | BF_ARRAYLIKE, 0, 0, ty_insert, lo_insert},
  BI_END,
};
