/* builtins/views.c — NumPy's functions that see an array's memory in new
 * pieces or through new strides, in compiled code: array_split, split,
 * hsplit, vsplit and dsplit (a list of views), broadcast_arrays (a tuple
 * of views), trim_zeros (a view), and numpy.lib.stride_tricks' as_strided
 * and sliding_window_view. No element is copied: writing through a view
 * writes the array it was made from, as in NumPy.
 *
 * Results' numbers of dimensions come from the arguments' types (a
 * tuple's length, an array's ndim); sizes, axes and indices may be
 * computed at run time. The pieces of a split are held in a typed list
 * of arrays of layout 'A' (a Python list where it is returned, as NumPy's
 * and Numba's).
 */

#include "builtins/builtins.h"

static bool is_array(const Type *t) { return t->kind == TY_ARRAY; }

static bool is_int(const Type *t) { return ty_is_int(t) || t->kind == TY_BOOL; }

/* A tuple of ints (an int counts as one where one is allowed): its length, or -1. */
static int int_tuple_len(const Type *t, bool one_int) {
  if (one_int && is_int(t)) return 1;
  if (t->kind != TY_TUPLE) return -1;
  for (int i = 0; i < t->nfields; i++)
    if (!is_int(t->fields[i])) return -1;
  return t->nfields;
}

/* The array these functions work on (the first argument), or an error. */
static const Type *array_operand(Infer *in, Node *n, const Type *t) {
  if (ty_in_cuda(in)) return ty_error(in, n, "%s() is not supported in CUDA kernels", n->bi->name);
  if (!t) return NULL;  /* (an array-like's numpy.asarray refused it) */
  if (!is_array(t)) return ty_error(in, n, "%s() needs an array, got %s", n->bi->name, t->name);
  return t;
}

static LLVMValueRef data_of(Lower *l, LLVMValueRef a) { return LLVMBuildExtractValue(l->b, a, 2, "data"); }

static void shape_of(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef *shape, LLVMValueRef *strides) {
  for (int d = 0; d < t->ndim; d++) {
    shape[d] = lo_arr_shape(l, a, d);
    strides[d] = lo_arr_stride(l, t, a, d);
  }
}

static LLVMValueRef pick(Lower *l, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(l->b, c, a, b, "");
}

static LLVMValueRef is_dim(Lower *l, LLVMValueRef axis, int d) {
  return LLVMBuildICmp(l->b, LLVMIntEQ, axis, const_i64(l, d), "");
}

/* v[axis] of an array of ndim values, axis known at run time */
static LLVMValueRef along(Lower *l, const LLVMValueRef *v, int ndim, LLVMValueRef axis) {
  LLVMValueRef r = const_i64(l, 0);
  for (int d = 0; d < ndim; d++) r = pick(l, is_dim(l, axis, d), v[d], r);
  return r;
}

static LLVMValueRef lt(Lower *l, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildICmp(l->b, LLVMIntSLT, a, b, ""); }

/* ---------------------------------------------------------------- array_split, split, hsplit, vsplit, dsplit */

/* The row's ival: the axis a split cuts along, and whether it must cut
 * into equal pieces (split and its kin do, array_split need not). */
enum { SPLIT_ANY, SPLIT_EQUAL, SPLIT_H, SPLIT_V, SPLIT_D };

static const char *const split_kw[] = {"indices_or_sections", "axis", NULL};
static const char *const hsplit_kw[] = {"indices_or_sections", NULL};

/* Whether t has the dimensions a split needs, the fewest hsplit, vsplit
 * and dsplit take (NumPy's ValueError, known here from the type), else
 * false after the error. */
static bool split_ndim_fits(Infer *in, Node *n, const Type *t) {
  static const int least[] = {[SPLIT_ANY] = 1, [SPLIT_EQUAL] = 1, [SPLIT_H] = 1, [SPLIT_V] = 2, [SPLIT_D] = 3};
  int how = (int)n->bi->ival;
  if (t->ndim >= least[how]) return true;
  if (how < SPLIT_H) return ty_error(in, n, "%s(): a 0-d array cannot be split (it has no axis 0)", n->bi->name) != NULL;
  return ty_error(in, n, "%s only works on arrays of %d or more dimensions", n->bi->path, least[how]) != NULL;
}

static const Type *ty_split(Infer *in, Node *n, const Type **args) {
  const Type *t = array_operand(in, n, ty_arraylike(in, n->list.items[0], args[0]));
  if (!t) return NULL;
  if (ty_no_allocation(in)) return ty_error(in, n, "kernels cannot make lists: %s() returns one", n->bi->name);
  if (!split_ndim_fits(in, n, t)) return NULL;
  Node *cuts = np_arg(in, n, 1, "indices_or_sections");
  Node *axis = n->bi->keywords == split_kw ? np_arg(in, n, 2, "axis") : NULL;
  if (ty_failed(in)) return NULL;
  if (!cuts) return ty_error(in, n, "%s() needs indices_or_sections", n->bi->name);
  const Type *c = cuts->ty;
  bool ints = is_int(c) || int_tuple_len(c, false) >= 0 || (c->kind == TY_LIST && c->elem && is_int(c->elem)) ||
              (is_array(c) && c->ndim == 1 && ty_is_int(c->elem));  /* NumPy's bools are no slice bounds */
  if (!ints)
    return ty_error(in, cuts, "%s(): indices_or_sections must be an int, or a tuple, list or 1-d array of ints, got %s",
                    n->bi->name, c->name);
  if (axis && !is_int(axis->ty)) return ty_error(in, axis, "%s()'s axis must be an int, got %s", n->bi->name, axis->ty->name);
  return ty_list(ty_array(t->elem, t->ndim, 'A', t->readonly));
}

/* The pieces being made: the array, its shape and strides, the axis and
 * its length, and the list the pieces go to. */
typedef struct Split {
  const Type *t, *piece;
  LLVMValueRef a, shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  LLVMValueRef axis, len, lst;
} Split;

/* The piece [start, start + size) along the axis, a view appended to the list. */
static void append_piece(Lower *l, Split *s, LLVMValueRef start, LLVMValueRef size) {
  LLVMValueRef shape[RC_MAX_NDIM];
  for (int d = 0; d < s->t->ndim; d++) shape[d] = pick(l, is_dim(l, s->axis, d), size, s->shape[d]);
  LLVMValueRef at = LLVMBuildMul(l->b, start, along(l, s->strides, s->t->ndim, s->axis), "");
  LLVMValueRef data = LLVMBuildGEP2(l->b, l->mod->i8, data_of(l, s->a), &at, 1, "");
  lo_list_append(l, s->piece, s->lst, np_owned_view(l, s->piece, s->a, data, shape, s->strides));
}

/* An int n: n pieces, the first len % n of them one longer (split:
 * NumPy's errors unless they are all as long). */
static void split_sections(Lower *l, Split *s, Node *cuts, bool equal) {
  LLVMValueRef n = lo_expr_as(l, cuts, TYS(TY_I64)), zero = const_i64(l, 0), one = const_i64(l, 1);
  if (equal) {
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, n, zero, ""), RT_ERR_ZERODIV, "integer modulo by zero");
    LLVMValueRef safe = pick(l, LLVMBuildICmp(l->b, LLVMIntEQ, n, const_i64(l, -1), ""), one, n);  /* INT64_MIN % -1 */
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildSRem(l->b, s->len, safe, ""), zero, ""), RT_ERR_VALUE,
                "array split does not result in an equal division");
  }
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLE, n, zero, ""), RT_ERR_VALUE, "number sections must be larger than 0.");
  LLVMValueRef each = LLVMBuildSDiv(l->b, s->len, n, ""), longer = LLVMBuildSRem(l->b, s->len, n, "");
  LLVMValueRef start = lo_alloca(l, l->mod->i64, "split.start");
  LLVMBuildStore(l->b, zero, start);
  LoLoop loop = lo_loop_begin(l, zero, n, NULL, "split");
  LLVMValueRef size = LLVMBuildAdd(l->b, each, LLVMBuildZExt(l->b, lt(l, loop.index, longer), l->mod->i64, ""), "");
  LLVMValueRef from = LLVMBuildLoad2(l->b, l->mod->i64, start, "");
  append_piece(l, s, from, size);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, from, size, ""), start);
  lo_loop_end(l, &loop);
}

/* Where a cut falls as Python's slice bounds take it: from the end when
 * negative, clamped into [0, len]. */
static LLVMValueRef clamped_cut(Lower *l, LLVMValueRef i, LLVMValueRef len) {
  LLVMValueRef zero = const_i64(l, 0);
  LLVMValueRef from_end = LLVMBuildAdd(l->b, i, len, "");
  from_end = pick(l, lt(l, from_end, zero), zero, from_end);
  return pick(l, lt(l, i, zero), from_end, pick(l, lt(l, len, i), len, i));
}

/* The cuts of a tuple, a typed list or a 1-d array of ints: their count,
 * and cut i read at run time (a tuple's stored in memory first). */
typedef struct Cuts {
  Node *x;
  LLVMValueRef v, mem;
} Cuts;

static LLVMValueRef cuts_count(Lower *l, Cuts *c) {
  const Type *t = c->x->ty;
  if (t->kind == TY_LIST) return lo_list_len(l, c->v);
  if (is_array(t)) return lo_arr_shape(l, c->v, 0);
  c->mem = lo_alloca(l, LLVMArrayType2(l->mod->i64, (uint64_t)(t->nfields ? t->nfields : 1)), "split.cuts");
  for (int i = 0; i < t->nfields; i++) {
    LLVMValueRef at[2] = {const_i64(l, 0), const_i64(l, i)};
    LLVMValueRef v = lo_convert(l, LLVMBuildExtractValue(l->b, c->v, (unsigned)i, ""), t->fields[i], TYS(TY_I64));
    LLVMBuildStore(l->b, v, LLVMBuildInBoundsGEP2(l->b, LLVMArrayType2(l->mod->i64, (uint64_t)t->nfields), c->mem, at, 2, ""));
  }
  return const_i64(l, t->nfields);
}

static LLVMValueRef cut_at(Lower *l, Cuts *c, LLVMValueRef i) {
  const Type *t = c->x->ty;
  if (t->kind == TY_TUPLE) return LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildInBoundsGEP2(l->b, l->mod->i64, c->mem, &i, 1, ""), "");
  LLVMValueRef addr = t->kind == TY_LIST ? lo_list_item_addr(l, t->elem, c->v, i) : lo_element_addr(l, t, c->v, &i);
  return lo_convert(l, lo_load_scalar(l, t->elem, addr), t->elem, TYS(TY_I64));
}

/* Cuts at the given indices: len(cuts) + 1 pieces, a[:c0], a[c0:c1], ..., a[ck:]. */
static void split_at(Lower *l, Split *s, Node *cuts) {
  Cuts c = {cuts, lo_expr(l, cuts), NULL};
  LLVMValueRef count = cuts_count(l, &c), zero = const_i64(l, 0);
  LLVMValueRef prev = lo_alloca(l, l->mod->i64, "split.prev");
  LLVMBuildStore(l->b, zero, prev);
  LoLoop loop = lo_loop_begin(l, zero, LLVMBuildAdd(l->b, count, const_i64(l, 1), ""), NULL, "split.at");
  LLVMValueRef last = LLVMBuildICmp(l->b, LLVMIntEQ, loop.index, count, "");
  LLVMValueRef safe = pick(l, last, zero, loop.index);  /* cut_at is not read past the end */
  LLVMValueRef to = pick(l, last, s->len, clamped_cut(l, cut_at(l, &c, safe), s->len));
  LLVMValueRef from = LLVMBuildLoad2(l->b, l->mod->i64, prev, "");
  LLVMValueRef size = LLVMBuildSub(l->b, to, from, "");
  append_piece(l, s, from, pick(l, lt(l, size, zero), zero, size));
  LLVMBuildStore(l->b, to, prev);
  lo_loop_end(l, &loop);
  lo_done_with(l, cuts, c.v);
}

static LLVMValueRef split_axis(Lower *l, Node *n, int ndim) {
  switch (n->bi->ival) {
  case SPLIT_H: return const_i64(l, ndim > 1 ? 1 : 0);
  case SPLIT_V: return const_i64(l, 0);
  case SPLIT_D: return const_i64(l, 2);
  default: return np_runtime_axis(l, np_arg_node(n, 2, "axis"), ndim);
  }
}

static LLVMValueRef lo_split(Lower *l, Node *n) {
  Node *arg = n->list.items[0], *cuts = np_arg_node(n, 1, "indices_or_sections");
  Split s = {.t = arg->ty, .piece = n->ty->elem, .a = lo_expr(l, arg)};
  shape_of(l, s.t, s.a, s.shape, s.strides);
  s.axis = split_axis(l, n, s.t->ndim);
  s.len = along(l, s.shape, s.t->ndim, s.axis);
  s.lst = lo_list_new(l, s.piece, const_i64(l, 0));
  lo_temp_made(l, n->ty, s.lst);
  if (is_int(cuts->ty)) split_sections(l, &s, cuts, n->bi->ival != SPLIT_ANY);
  else split_at(l, &s, cuts);
  lo_temp_taken(l, s.lst);
  lo_done_with(l, arg, s.a);
  return s.lst;
}

/* ---------------------------------------------------------------- broadcast_arrays */

/* numpy.broadcast_arrays(*args): a tuple of views of the arrays, all in
 * their broadcast shape (strides 0 along the dimensions they are
 * stretched in); each writeable where its array is, as NumPy's are. A
 * number is a 0-d array of it (numpy.asarray), a tuple or a list written
 * in the call an array (the row's BF_ARRAYLIKE). */
#define MAX_BROADCAST 32

/* The shape s (of sndim lengths) broadcast into out (of ndim, aligned at
 * the end): bad, or'ed with whether a length other than 1 meets another. */
LLVMValueRef np_broadcast_into(Lower *l, LLVMValueRef *out, int ndim, const LLVMValueRef *s, int sndim, LLVMValueRef bad) {
  LLVMValueRef one = const_i64(l, 1);
  for (int d = 0; d < sndim; d++) {
    LLVMValueRef *o = &out[ndim - sndim + d];
    LLVMValueRef clash = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntNE, s[d], one, ""),
                                      LLVMBuildICmp(l->b, LLVMIntNE, *o, one, ""), "");
    bad = LLVMBuildOr(l->b, bad, LLVMBuildAnd(l->b, clash, LLVMBuildICmp(l->b, LLVMIntNE, s[d], *o, ""), ""), "");
    *o = pick(l, LLVMBuildICmp(l->b, LLVMIntEQ, s[d], one, ""), *o, s[d]);
  }
  return bad;
}

static void raise_unbroadcast(Lower *l, LLVMValueRef bad, int count, int *ndims, const LLVMValueRef **shapes) {
  if (count <= 4) lo_raise_shape_error(l, bad, 0, count, ndims, shapes);  /* its message names four shapes at most */
  else lo_raise_if(l, bad, RT_ERR_VALUE, "shape mismatch: objects cannot be broadcast to a single shape");
}

static const Type *ty_broadcast_arrays(Infer *in, Node *n, const Type **args) {
  if (ty_in_cuda(in)) return ty_error(in, n, "%s() is not supported in CUDA kernels", n->bi->name);
  int ndim = 0;
  for (int i = 0; i < n->list.len; i++) {
    if (ty_is_scalar(args[i]) && !(args[i] = ty_wrap_call(in, n->list.items[i], "numpy.asarray"))) return NULL;
    if (!is_array(args[i]))
      return ty_error(in, n->list.items[i], "%s() takes arrays and numbers in compiled code, got %s", n->bi->name,
                      args[i]->name);
    if (args[i]->ndim > ndim) ndim = args[i]->ndim;
  }
  const Type *f[MAX_BROADCAST];
  for (int i = 0; i < n->list.len; i++) f[i] = ty_array(args[i]->elem, ndim, 'A', args[i]->readonly);
  return ty_tuple(n->list.len, f);
}

static LLVMValueRef lo_broadcast_arrays(Lower *l, Node *n) {
  int count = n->list.len, ndim = count ? n->ty->fields[0]->ndim : 0;
  LLVMValueRef a[MAX_BROADCAST], shapes[MAX_BROADCAST][RC_MAX_NDIM], strides[MAX_BROADCAST][RC_MAX_NDIM];
  const LLVMValueRef *described[MAX_BROADCAST];
  int ndims[MAX_BROADCAST];
  LLVMValueRef out[RC_MAX_NDIM], bad = const_bool(l, false);
  for (int d = 0; d < ndim; d++) out[d] = const_i64(l, 1);
  for (int i = 0; i < count; i++) {  /* the broadcast shape: dimensions aligned at the end */
    const Type *t = n->list.items[i]->ty;
    a[i] = lo_expr(l, n->list.items[i]);
    shape_of(l, t, a[i], shapes[i], strides[i]);
    described[i] = shapes[i];
    ndims[i] = t->ndim;
    bad = np_broadcast_into(l, out, ndim, shapes[i], t->ndim, bad);
  }
  raise_unbroadcast(l, bad, count, ndims, described);
  LLVMValueRef r = LLVMGetUndef(lo_type(l, n->ty));
  for (int i = 0; i < count; i++) {
    const Type *t = n->list.items[i]->ty;
    LLVMValueRef st[RC_MAX_NDIM];
    int lead = ndim - t->ndim;
    for (int d = 0; d < ndim; d++)
      st[d] = d < lead ? const_i64(l, 0)
                       : pick(l, LLVMBuildICmp(l->b, LLVMIntEQ, shapes[i][d - lead], out[d], ""), strides[i][d - lead],
                              const_i64(l, 0));
    LLVMValueRef v = np_owned_view(l, n->ty->fields[i], a[i], data_of(l, a[i]), out, st);
    r = LLVMBuildInsertValue(l->b, r, v, (unsigned)i, "");
    lo_done_with(l, n->list.items[i], a[i]);
  }
  return r;
}

/* numpy.broadcast_shapes(*shapes): the shape the shapes (ints or tuples of
 * ints) broadcast to, a tuple of ints; NumPy's ValueErrors */
static const Type *ty_broadcast_shapes(Infer *in, Node *n, const Type **args) {
  int ndim = 0;
  for (int i = 0; i < n->list.len; i++) {
    int k = np_shape_ndim(in, n->list.items[i]);
    if (k < 0) return NULL;
    if (k > ndim) ndim = k;
  }
  const Type *f[RC_MAX_NDIM];
  if (ndim > RC_MAX_NDIM) return ty_error(in, n, "%s(): at most %d dimensions", n->bi->name, RC_MAX_NDIM);
  for (int d = 0; d < ndim; d++) f[d] = TYS(TY_I64);
  return ty_tuple(ndim, f);
}

static LLVMValueRef lo_broadcast_shapes(Lower *l, Node *n) {
  int count = n->list.len, ndim = n->ty->nfields, ndims[MAX_BROADCAST];
  LLVMValueRef shapes[MAX_BROADCAST][RC_MAX_NDIM], out[RC_MAX_NDIM], bad = const_bool(l, false), negative = bad;
  const LLVMValueRef *described[MAX_BROADCAST];
  for (int d = 0; d < ndim; d++) out[d] = const_i64(l, 1);
  for (int i = 0; i < count; i++) {
    ndims[i] = lo_shape_arg(l, n->list.items[i], shapes[i]);
    described[i] = shapes[i];
    for (int d = 0; d < ndims[i]; d++)
      negative = LLVMBuildOr(l->b, negative, LLVMBuildICmp(l->b, LLVMIntSLT, shapes[i][d], const_i64(l, 0), ""), "");
    bad = np_broadcast_into(l, out, ndim, shapes[i], ndims[i], bad);
  }
  lo_raise_if(l, negative, RT_ERR_VALUE, "negative dimensions are not allowed");
  raise_unbroadcast(l, bad, count, ndims, described);
  LLVMValueRef r = LLVMGetUndef(lo_type(l, n->ty));
  for (int d = 0; d < ndim; d++) r = LLVMBuildInsertValue(l->b, r, out[d], (unsigned)d, "");
  return r;
}

/* ---------------------------------------------------------------- trim_zeros */

/* numpy.trim_zeros(filt, trim='fb'): the view of a 1-d array without its
 * leading ('f') and trailing ('b') zeros */
static const char *const trim_kw[] = {"trim", NULL};

/* trim: a str, constant or known when the call runs (Numba's), any case;
 * each choice's bits say which ends it trims */
static const char *const trims[] = {"fb", "bf", "f", "b", "FB", "BF", "F", "B", "Fb", "fB", "Bf", "bF", NULL};
static const unsigned trim_ends[] = {3, 3, 1, 2, 3, 3, 1, 2, 3, 3, 3, 3};
enum { TRIM_FRONT = 1, TRIM_BACK = 2 };

static const Type *ty_trim_zeros(Infer *in, Node *n, const Type **args) {
  const Type *t = array_operand(in, n, args[0]);
  Node *trim = np_arg(in, n, 1, "trim");
  if (!t || ty_failed(in)) return NULL;
  if (t->ndim != 1) return ty_error(in, n, "%s() takes a 1-d array in compiled code, got %s", n->bi->name, t->name);
  if (trim && trim->kind != N_STRING && trim->ty->kind != TY_STR)
    return ty_error(in, trim, "%s()'s trim must be a str, got %s", n->bi->name, trim->ty->name);
  if (bi_str_option(trim, trims, 0) == BI_OPTION_BAD)
    return ty_error(in, trim, "unexpected character(s) in `trim`: '%s'", trim->str);
  return t;
}

static LLVMValueRef is_zero(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef i) {
  return LLVMBuildNot(l->b, lo_item_truth(l, t->elem, lo_element_addr(l, t, a, &i)), "");
}

/* The first i from `from` on (stepping by step) whose element is not
 * zero, or `end` where there is none. */
static LLVMValueRef first_nonzero(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef from, LLVMValueRef end, int step) {
  LLVMValueRef at = lo_alloca(l, l->mod->i64, "trim.at");
  LLVMBuildStore(l->b, from, at);
  LLVMBasicBlockRef head = new_block(l, "trim.head"), body = new_block(l, "trim.body"), done = new_block(l, "trim.done");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef i = LLVMBuildLoad2(l->b, l->mod->i64, at, "");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, i, end, ""), body, done);
  position(l, body);
  LLVMBasicBlockRef next = new_block(l, "trim.next");
  LLVMBuildCondBr(l->b, is_zero(l, t, a, step > 0 ? i : LLVMBuildSub(l->b, i, const_i64(l, 1), "")), next, done);
  position(l, next);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, i, const_i64(l, step), ""), at);
  LLVMBuildBr(l->b, head);
  position(l, done);
  return LLVMBuildLoad2(l->b, l->mod->i64, at, "");
}

/* trim_ends as a vector, indexed by the choice */
static LLVMValueRef const_ends(Lower *l) {
  LLVMValueRef v[sizeof trim_ends / sizeof *trim_ends];
  for (size_t i = 0; i < sizeof trim_ends / sizeof *trim_ends; i++) v[i] = const_i32(l, (int)trim_ends[i]);
  return LLVMConstVector(v, sizeof trim_ends / sizeof *trim_ends);
}

static LLVMValueRef lo_trim_zeros(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  LLVMValueRef trim = lo_str_option(l, np_arg_node(n, 1, "trim"), trims, 0, "unexpected character(s) in `trim`");
  LLVMValueRef ends = LLVMBuildExtractElement(l->b, const_ends(l), trim, "");
  LLVMValueRef a = lo_expr(l, arg), len = lo_arr_shape(l, a, 0), zero = const_i64(l, 0);
  LLVMValueRef front = LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildAnd(l->b, ends, const_i32(l, TRIM_FRONT), ""), const_i32(l, 0), "");
  LLVMValueRef back = LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildAnd(l->b, ends, const_i32(l, TRIM_BACK), ""), const_i32(l, 0), "");
  LLVMValueRef first = first_nonzero(l, t, a, zero, pick(l, front, len, zero), 1);
  LLVMValueRef last = first_nonzero(l, t, a, len, pick(l, back, first, len), -1);
  LLVMValueRef stride = lo_arr_stride(l, t, a, 0), at = LLVMBuildMul(l->b, first, stride, "");
  LLVMValueRef size = LLVMBuildSub(l->b, last, first, "");
  size = pick(l, lt(l, size, zero), zero, size);
  LLVMValueRef data = LLVMBuildGEP2(l->b, l->mod->i8, data_of(l, a), &at, 1, "");
  LLVMValueRef r = np_owned_view(l, n->ty, a, data, &size, &stride);
  lo_done_with(l, arg, a);
  return r;
}

/* ---------------------------------------------------------------- as_strided, sliding_window_view */

/* writeable=: a constant bool (dflt where not given), or -1 with the error */
static int writeable_arg(Infer *in, Node *n, int pos, bool dflt) {
  Node *w = np_arg(in, n, pos, "writeable");
  if (ty_failed(in)) return -1;
  if (!w) return dflt;
  if (w->kind != N_BOOL) {
    ty_error(in, w, "%s()'s writeable must be a constant True or False in compiled code", n->bi->name);
    return -1;
  }
  return (int)w->ival;
}

/* numpy.lib.stride_tricks.as_strided(x, shape=None, strides=None,
 * writeable=True): a view of x's memory with the shape and strides (in
 * bytes) given, unchecked, as NumPy's; strides must be given (as Numba
 * asks: without them NumPy's depend on x's contiguity) */
static const char *const as_strided_kw[] = {"shape", "strides", "subok", "writeable", NULL};

/* The stride tricks' subok (argument 3: False alone) and writeable
 * (argument 4, else writeable_default) of an array operand t: writeable
 * (0 or 1), or -1 after an error. */
static int stride_trick_flags(Infer *in, Node *n, const Type *t, bool writeable_default) {
  Node *subok = np_arg(in, n, 3, "subok");
  int writeable = t && !ty_failed(in) ? writeable_arg(in, n, 4, writeable_default) : -1;
  if (writeable >= 0 && subok && (subok->kind != N_BOOL || subok->ival))
    return ty_error(in, subok, "%s(): subok=True is not supported in compiled code", n->bi->name), -1;
  return writeable;
}

static const Type *ty_as_strided(Infer *in, Node *n, const Type **args) {
  const Type *t = array_operand(in, n, args[0]);
  Node *shape = np_arg(in, n, 1, "shape"), *strides = np_arg(in, n, 2, "strides");
  int writeable = stride_trick_flags(in, n, t, true);
  if (writeable < 0) return NULL;
  if (!strides) return ty_error(in, n, "%s() strides argument cannot be None", n->bi->name);
  int ns = int_tuple_len(strides->ty, false), nd = shape ? int_tuple_len(shape->ty, false) : t->ndim;
  if (ns < 0) return ty_error(in, strides, "%s()'s strides must be a tuple of ints, got %s", n->bi->name, strides->ty->name);
  if (nd < 0) return ty_error(in, shape, "%s()'s shape must be a tuple of ints, got %s", n->bi->name, shape->ty->name);
  if (ns != nd) return ty_error(in, strides, "%s(): mismatch in length of strides and shape", n->bi->name);
  if (nd > RC_MAX_NDIM) return ty_error(in, n, "%s(): at most %d dimensions", n->bi->name, RC_MAX_NDIM);
  return ty_array(t->elem, nd, 'A', t->readonly || !writeable);
}

static LLVMValueRef lo_as_strided(Lower *l, Node *n) {
  Node *arg = n->list.items[0], *shape = np_arg_node(n, 1, "shape"), *strides = np_arg_node(n, 2, "strides");
  LLVMValueRef a = lo_expr(l, arg), sh[RC_MAX_NDIM], st[RC_MAX_NDIM];
  if (shape) lo_shape_arg(l, shape, sh);
  else
    for (int d = 0; d < arg->ty->ndim; d++) sh[d] = lo_arr_shape(l, a, d);
  lo_shape_arg(l, strides, st);
  LLVMValueRef r = np_owned_view(l, n->ty, a, data_of(l, a), sh, st);
  lo_done_with(l, arg, a);
  return r;
}

/* numpy.lib.stride_tricks.sliding_window_view(x, window_shape, axis=None,
 * subok=False, writeable=False): every window of the shape over x's axes
 * (all of them, or those given), as a view: x's shape trimmed along each
 * windowed axis, the window's shape after it; read-only unless
 * writeable=True, as NumPy's (in code written for Numba writeable unless
 * writeable=False, as Numba's view, which takes no writeable=) */
static const char *const window_kw[] = {"window_shape", "axis", "subok", "writeable", NULL};

static const Type *ty_sliding_window(Infer *in, Node *n, const Type **args) {
  const Type *t = array_operand(in, n, args[0]);
  Node *window = np_arg(in, n, 1, "window_shape"), *axis = np_arg(in, n, 2, "axis");
  int writeable = stride_trick_flags(in, n, t, false);
  if (writeable < 0) return NULL;
  if (in->opts && in->opts->numba_code && !np_arg_node(n, 4, "writeable")) writeable = 1;
  if (!window) return ty_error(in, n, "%s() needs window_shape", n->bi->name);
  int nw = int_tuple_len(window->ty, true), na = axis ? int_tuple_len(axis->ty, true) : t->ndim;
  if (nw < 0) return ty_error(in, window, "window_shape must be an integer or tuple of integers, got %s", window->ty->name);
  if (na < 0) return ty_error(in, axis, "axis must be None, an integer or tuple of integers, got %s", axis->ty->name);
  if (!axis && nw != na)
    return ty_error(in, window, "Since axis is `None`, must provide window_shape for all dimensions of `x`; got %d "
                    "window_shape elements and `x.ndim` is %d.", nw, t->ndim);
  if (nw != na)
    return ty_error(in, window, "Must provide matching length window_shape and axis; got %d window_shape elements "
                    "and %d axes elements.", nw, na);
  if (t->ndim + nw > RC_MAX_NDIM) return ty_error(in, n, "%s(): at most %d dimensions", n->bi->name, RC_MAX_NDIM);
  return ty_array(t->elem, t->ndim + nw, 'A', t->readonly || !writeable);
}

/* The windowed axes, each normalised (NumPy's AxisError): axis's, or every axis in turn. */
static void window_axes(Lower *l, Node *axis, int ndim, LLVMValueRef *axes) {
  if (!axis) {
    for (int d = 0; d < ndim; d++) axes[d] = const_i64(l, d);
    return;
  }
  if (axis->ty->kind != TY_TUPLE) {
    axes[0] = np_runtime_axis(l, axis, ndim);
    return;
  }
  LLVMValueRef v = lo_expr(l, axis);
  for (int i = 0; i < axis->ty->nfields; i++) {
    LLVMValueRef a = lo_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), axis->ty->fields[i], TYS(TY_I64));
    axes[i] = np_axis_value(l, a, ndim);
  }
}

static LLVMValueRef lo_sliding_window(Lower *l, Node *n) {
  Node *arg = n->list.items[0], *window = np_arg_node(n, 1, "window_shape"), *axis = np_arg_node(n, 2, "axis");
  const Type *t = arg->ty;
  int ndim = t->ndim;
  LLVMValueRef a = lo_expr(l, arg), shape[RC_MAX_NDIM], strides[RC_MAX_NDIM], dims[RC_MAX_NDIM], axes[RC_MAX_NDIM];
  LLVMValueRef zero = const_i64(l, 0), one = const_i64(l, 1);
  shape_of(l, t, a, shape, strides);
  int nw = lo_shape_arg(l, window, dims);
  LLVMValueRef negative = const_bool(l, false);
  for (int i = 0; i < nw; i++) negative = LLVMBuildOr(l->b, negative, lt(l, dims[i], zero), "");
  lo_raise_if(l, negative, RT_ERR_VALUE, "`window_shape` cannot contain negative values");
  window_axes(l, axis, ndim, axes);
  LLVMValueRef larger = const_bool(l, false), out[RC_MAX_NDIM];
  for (int d = 0; d < ndim; d++) out[d] = shape[d];
  for (int i = 0; i < nw; i++) {
    larger = LLVMBuildOr(l->b, larger, lt(l, along(l, shape, ndim, axes[i]), dims[i]), "");
    for (int d = 0; d < ndim; d++)  /* an axis windowed twice is trimmed twice */
      out[d] = pick(l, is_dim(l, axes[i], d), LLVMBuildSub(l->b, out[d], LLVMBuildSub(l->b, dims[i], one, ""), ""), out[d]);
    out[ndim + i] = dims[i];
    strides[ndim + i] = along(l, strides, ndim, axes[i]);
  }
  lo_raise_if(l, larger, RT_ERR_VALUE, "window shape cannot be larger than input array shape");
  LLVMValueRef negative_dim = const_bool(l, false);
  for (int d = 0; d < ndim; d++) negative_dim = LLVMBuildOr(l->b, negative_dim, lt(l, out[d], zero), "");
  lo_raise_if(l, negative_dim, RT_ERR_VALUE, "negative dimensions are not allowed");
  LLVMValueRef r = np_owned_view(l, n->ty, a, data_of(l, a), out, strides);
  lo_done_with(l, arg, a);
  return r;
}

/* ---------------------------------------------------------------- the rows */

#define FUNCTION(name, lo, hi, kw, flags, ival, type, lower) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, lo, hi, kw, flags, ival, 0, type, lower}
#define STRIDE_TRICK(name, lo, hi, kw, flags, type, lower) \
  {"numpy.lib.stride_tricks." name, "numpy.lib.stride_tricks", name, BK_FUNCTION, 0, lo, hi, kw, flags, 0, 0, type, lower}

/* BF_COMPLEX: views of any dtype */
const Builtin bi_views[] = {
  FUNCTION("array_split", 1, 3, split_kw, BF_COMPLEX | BF_RAISES, SPLIT_ANY, ty_split, lo_split),
  FUNCTION("split", 1, 3, split_kw, BF_COMPLEX | BF_RAISES, SPLIT_EQUAL, ty_split, lo_split),
  FUNCTION("hsplit", 1, 2, hsplit_kw, BF_COMPLEX | BF_RAISES, SPLIT_H, ty_split, lo_split),
  FUNCTION("vsplit", 1, 2, hsplit_kw, BF_COMPLEX | BF_RAISES, SPLIT_V, ty_split, lo_split),
  FUNCTION("dsplit", 1, 2, hsplit_kw, BF_COMPLEX | BF_RAISES, SPLIT_D, ty_split, lo_split),
  FUNCTION("broadcast_arrays", 0, MAX_BROADCAST, NULL, BF_COMPLEX | BF_RAISES | BF_ARRAYLIKE, 0, ty_broadcast_arrays, lo_broadcast_arrays),
  FUNCTION("broadcast_shapes", 0, MAX_BROADCAST, NULL, BF_RAISES, 0, ty_broadcast_shapes, lo_broadcast_shapes),
  FUNCTION("trim_zeros", 1, 2, trim_kw, BF_COMPLEX | BF_STRINGS, 0, ty_trim_zeros, lo_trim_zeros),
  STRIDE_TRICK("as_strided", 1, 5, as_strided_kw, BF_COMPLEX, ty_as_strided, lo_as_strided),
  STRIDE_TRICK("sliding_window_view", 1, 5, window_kw, BF_COMPLEX | BF_RAISES, ty_sliding_window, lo_sliding_window),
  BI_END,
};
