/* builtins/ndindex.c — numpy.ndindex(shape), numpy.ndenumerate(a) and
 * numpy.nditer(a) as a for loop's iterable. The frontend walks them as any
 * sequence, over a hidden counter k running to the shape's size ("ndindex
 * size"); the loop's index is k unravelled in C order into a tuple of
 * int64 ("ndindex at"). The shape is an int, a tuple of ints, or an
 * array's (ndenumerate's: its elements are read at that index). nditer's
 * operands, one array or a tuple of arrays and numbers, are broadcast
 * together; each step gives a 0-d read-only view per operand, "nditer at",
 * in NumPy's order='K' (memory order: axes by their strides, a reversed one
 * walked backwards) in ruchey's own code, in the order Numba's takes
 * (nditer_fortran: C order but where Fortran-ordered operands outnumber
 * C-ordered ones) in code written for Numba.
 */
#include "builtins/builtins.h"

#define MAX_DIMS 64  /* NumPy's */

/* How many dimensions the shape argument has, or -1 with a TypingError. */
static int shape_ndim(Infer *in, Node *n, const Type *t) {
  if (t->kind == TY_ARRAY) return t->ndim;
  if (ty_is_int(t)) return 1;
  if (t->kind == TY_TUPLE && t->nfields <= MAX_DIMS) {
    for (int i = 0; i < t->nfields; i++)
      if (!ty_is_int(t->fields[i])) break;
      else if (i + 1 == t->nfields) return t->nfields;
    if (!t->nfields) return 0;
  }
  ty_error(in, n, "numpy.ndindex() needs a shape (an int or a tuple of ints), got %s", t->name);
  return -1;
}

static const Type *ty_ndindex_size(Infer *in, Node *n, const Type **args) {
  return shape_ndim(in, n, args[0]) < 0 ? NULL : TYS(TY_I64);
}

static const Type *ty_ndindex_at(Infer *in, Node *n, const Type **args) {
  int nd = shape_ndim(in, n, args[0]);
  if (nd < 0) return NULL;
  const Type *fields[MAX_DIMS];
  for (int d = 0; d < nd; d++) fields[d] = TYS(TY_I64);
  return ty_tuple(nd, fields);
}

/* The shape's dimensions as int64 (a negative one counts as 0, as NumPy
 * refuses it: nothing is iterated); returns how many. */
static int shape_dims(Lower *l, Node *shape, LLVMValueRef *dims, int max) {
  const Type *t = shape->ty;
  int nd = t->kind == TY_ARRAY ? t->ndim : ty_is_int(t) ? 1 : t->nfields;
  LLVMValueRef v = lo_expr(l, shape);
  for (int d = 0; d < nd && d < max; d++)
    dims[d] = t->kind == TY_ARRAY ? lo_arr_shape(l, v, d)
            : ty_is_int(t)        ? lo_convert(l, v, t, TYS(TY_I64))
                                  : lo_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)d, ""), t->fields[d], TYS(TY_I64));
  lo_done_with(l, shape, v);
  return nd;
}

static LLVMValueRef lo_ndindex_size(Lower *l, Node *n) {
  LLVMValueRef dims[MAX_DIMS], size = const_i64(l, 1), zero = const_i64(l, 0);
  int nd = shape_dims(l, n->list.items[0], dims, MAX_DIMS);
  for (int d = 0; d < nd; d++) {
    LLVMValueRef dim = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, dims[d], zero, ""), zero, dims[d], "");
    size = LLVMBuildMul(l->b, size, dim, "");
  }
  return size;
}

/* k unravelled: the last index varies fastest. */
static LLVMValueRef lo_ndindex_at(Lower *l, Node *n) {
  LLVMValueRef dims[MAX_DIMS];
  int nd = shape_dims(l, n->list.items[0], dims, MAX_DIMS);
  LLVMValueRef k = lo_expr_as(l, n->list.items[1], TYS(TY_I64)), t = LLVMGetUndef(lo_type(l, n->ty));
  for (int d = nd - 1; d >= 0; d--) {
    LLVMValueRef i = d ? LLVMBuildURem(l->b, k, dims[d], "") : k;
    if (d) k = LLVMBuildUDiv(l->b, k, dims[d], "");
    t = LLVMBuildInsertValue(l->b, t, i, (unsigned)d, "");
  }
  return t;
}

/* numpy.nditer(a) of an array or a number, or numpy.nditer((a, b, ...)) of
 * arrays and numbers (complex ones too) broadcast together (NumPy's other
 * arguments and flags are not taken). */
static int nditer_count(const Type *t) { return t->kind == TY_TUPLE ? t->nfields : 1; }
static const Type *nditer_operand(const Type *t, int i) { return t->kind == TY_TUPLE ? t->fields[i] : t; }

static const Type *ty_nditer_size(Infer *in, Node *n, const Type **args) {
  int nops = nditer_count(args[0]);
  if (args[0]->kind != TY_TUPLE && args[0]->kind != TY_ARRAY && !ty_is_scalar(args[0]))
    return ty_error(in, n, "numpy.nditer() takes an array, a number or a tuple of arrays and numbers in compiled code, "
                    "got %s", args[0]->name);
  if (!nops) return ty_error(in, n, "numpy.nditer() needs at least one operand");
  for (int i = 0; i < nops; i++) {
    const Type *t = nditer_operand(args[0], i);
    if (t->kind == TY_ARRAY ? !ty_is_scalar(t->elem) && !ty_is_fixed_text(t->elem) : !ty_is_scalar(t))
      return ty_error(in, n, "numpy.nditer() takes arrays of numbers, str or bytes and numbers in compiled code, got %s",
                      t->name);
  }
  return TYS(TY_I64);
}

/* A 0-d read-only view per operand: one alone, several as a tuple (Numba's). */
static const Type *ty_nditer_at(Infer *in, Node *n, const Type **args) {
  if (!ty_nditer_size(in, n, args)) return NULL;
  const Type *views[MAX_DIMS];
  int nops = nditer_count(args[0]);
  if (nops > MAX_DIMS) return ty_error(in, n, "numpy.nditer() takes at most %d operands", MAX_DIMS);
  for (int i = 0; i < nops; i++) {
    const Type *t = nditer_operand(args[0], i);
    views[i] = ty_array(t->kind == TY_ARRAY ? t->elem : t, 0, 'C', true);
  }
  return args[0]->kind == TY_TUPLE && nops > 1 ? ty_tuple(nops, views) : views[0];
}

/* The order the broadcast shape is walked in, as Numba's: Fortran's (the
 * first index fastest) where more operands are Fortran-ordered than
 * C-ordered (a 1-d contiguous one counting as both), else C's. */
static bool nditer_fortran(const Type *t) {
  int c = 0, f = 0;
  for (int i = 0; i < nditer_count(t); i++) {
    const Type *op = nditer_operand(t, i);
    if (op->kind == TY_ARRAY && op->ndim >= 1) {
      bool one = op->ndim == 1 && op->layout != 'A';
      c += one || op->layout == 'C';
      f += one || op->layout == 'F';
    }
  }
  return f > c;
}

typedef struct Operands {
  int n, ndim;                  /* how many; the broadcast shape's dimensions */
  const Type *types[MAX_DIMS];
  LLVMValueRef values[MAX_DIMS];
  LLVMValueRef dims[RC_MAX_NDIM];  /* the broadcast shape */
} Operands;

/* The operands and their broadcast shape, NumPy's: dimensions matched from
 * the last, a 1 stretched to the other's length; ValueError where two
 * differ otherwise (check). */
static void nditer_broadcast(Lower *l, Node *arg, LLVMValueRef v, Operands *o, bool check) {
  o->n = nditer_count(arg->ty);
  o->ndim = 0;
  for (int i = 0; i < o->n; i++) {
    o->types[i] = nditer_operand(arg->ty, i);
    o->values[i] = arg->ty->kind == TY_TUPLE ? LLVMBuildExtractValue(l->b, v, (unsigned)i, "") : v;
    if (o->types[i]->kind == TY_ARRAY && o->types[i]->ndim > o->ndim) o->ndim = o->types[i]->ndim;
  }
  LLVMValueRef bad = const_bool(l, false);
  for (int d = 0; d < o->ndim; d++) o->dims[d] = const_i64(l, 1);
  for (int i = 0; i < o->n; i++) {
    const Type *t = o->types[i];
    LLVMValueRef s[RC_MAX_NDIM];
    for (int d = 0; t->kind == TY_ARRAY && d < t->ndim; d++) s[d] = lo_arr_shape(l, o->values[i], d);
    if (t->kind == TY_ARRAY) bad = np_broadcast_into(l, o->dims, o->ndim, s, t->ndim, bad);
  }
  if (check) lo_raise_if(l, bad, RT_ERR_VALUE, "operands could not be broadcast together");
}

static LLVMValueRef lo_nditer_size(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  LLVMValueRef v = lo_expr(l, arg), size = const_i64(l, 1);
  Operands o;
  nditer_broadcast(l, arg, v, &o, true);
  for (int d = 0; d < o.ndim; d++) size = LLVMBuildMul(l->b, size, o.dims[d], "");
  lo_done_with(l, arg, v);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, size, const_i64(l, 0), ""), RT_ERR_VALUE,
              "Iteration of zero-sized operands is not enabled");
  return size;
}

/* The 0-d view of operand i at the broadcast index idx: a view holding a
 * reference to an array's memory, or a new 0-d array holding a number. */
static LLVMValueRef nditer_view(Lower *l, const Operands *o, int i, LLVMValueRef *idx, const Type *vt) {
  const Type *t = o->types[i];
  if (t->kind != TY_ARRAY) {
    LLVMValueRef a = lo_alloc_array(l, ty_array(t, 0, 'C', false), NULL, -1);
    lo_store_scalar(l, t, LLVMBuildExtractValue(l->b, a, 2, ""), o->values[i]);
    return a;
  }
  LLVMValueRef at[RC_MAX_NDIM], zero = const_i64(l, 0), one = const_i64(l, 1);
  for (int d = 0; d < t->ndim; d++) {  /* a stretched dimension stays at 0 */
    LLVMValueRef s = lo_arr_shape(l, o->values[i], d);
    at[d] = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, s, one, ""), zero, idx[o->ndim - t->ndim + d], "");
  }
  LLVMValueRef v = LLVMGetUndef(lo_type(l, vt)), a = o->values[i];
  v = LLVMBuildInsertValue(l->b, v, LLVMBuildExtractValue(l->b, a, 0, ""), 0, "");
  v = LLVMBuildInsertValue(l->b, v, LLVMBuildExtractValue(l->b, a, 1, ""), 1, "");
  v = LLVMBuildInsertValue(l->b, v, lo_element_addr(l, t, a, at), 2, "");
  lo_refcount(l, vt, v, true);
  return v;
}

typedef enum { WALK_C, WALK_F, WALK_STRIDES } Walk;

/* The order the broadcast shape (of ndim dimensions) is walked in. NumPy's
 * order='K' is C order where every array is C-contiguous, Fortran order
 * where every one is Fortran-contiguous over the whole shape (or 1-d); for
 * others it is found from the strides at run time (rt_nditer_index). Code
 * written for Numba walks as Numba's, and so does GPU code. */
static Walk nditer_walk(Lower *l, const Type *t, int ndim) {
  if (l->opts->numba_code || l->mod->gpu) return nditer_fortran(t) ? WALK_F : WALK_C;
  bool c = true, f = ndim > 1;
  for (int i = 0; i < nditer_count(t); i++) {
    const Type *op = nditer_operand(t, i);
    if (op->kind != TY_ARRAY || op->ndim == 0) continue;
    bool one = op->ndim == 1 && op->layout != 'A';
    c &= one || op->layout == 'C';
    f &= one || (op->layout == 'F' && op->ndim == ndim);
  }
  return c ? WALK_C : f ? WALK_F : WALK_STRIDES;
}

/* k along one axis, backwards where some operand's stride is negative
 * and none positive (rt_nditer_index's rule, inline). */
static LLVMValueRef nditer_index_1d(Lower *l, const Operands *o, LLVMValueRef k) {
  LLVMValueRef none_positive = const_bool(l, true), some_negative = const_bool(l, false), zero = const_i64(l, 0);
  for (int i = 0; i < o->n; i++) {
    if (o->types[i]->kind != TY_ARRAY || o->types[i]->ndim == 0) continue;
    LLVMValueRef s = lo_broadcast_stride(l, o->types[i], o->values[i], 0);
    none_positive = LLVMBuildAnd(l->b, none_positive, LLVMBuildICmp(l->b, LLVMIntSLE, s, zero, ""), "");
    some_negative = LLVMBuildOr(l->b, some_negative, LLVMBuildICmp(l->b, LLVMIntSLT, s, zero, ""), "");
  }
  LLVMValueRef back = LLVMBuildSub(l->b, LLVMBuildSub(l->b, o->dims[0], const_i64(l, 1), ""), k, "");
  return LLVMBuildSelect(l->b, LLVMBuildAnd(l->b, none_positive, some_negative, ""), back, k, "");
}

/* k unravelled over the broadcast shape in NumPy's order='K' for the
 * operands' strides (0 along an axis an operand is broadcast over). */
static void nditer_index_by_strides(Lower *l, const Operands *o, LLVMValueRef k, LLVMValueRef *idx) {
  if (o->ndim == 1) {
    idx[0] = nditer_index_1d(l, o, k);
    return;
  }
  int nop = 0;
  for (int i = 0; i < o->n; i++) nop += o->types[i]->kind == TY_ARRAY;
  LLVMTypeRef i64 = l->mod->i64;
  LLVMValueRef dims = lo_alloca(l, LLVMArrayType2(i64, (uint64_t)o->ndim), "nditer.dims");
  LLVMValueRef strides = lo_alloca(l, LLVMArrayType2(i64, (uint64_t)(nop * o->ndim)), "nditer.strides");
  LLVMValueRef out = lo_alloca(l, LLVMArrayType2(i64, (uint64_t)o->ndim), "nditer.index");
  for (int d = 0; d < o->ndim; d++) {
    LLVMValueRef at = const_i64(l, d);
    LLVMBuildStore(l->b, o->dims[d], LLVMBuildGEP2(l->b, i64, dims, &at, 1, ""));
  }
  for (int i = 0, j = 0; i < o->n; i++) {
    const Type *t = o->types[i];
    if (t->kind != TY_ARRAY) continue;
    for (int d = 0; d < o->ndim; d++, j++) {
      int own = d - (o->ndim - t->ndim);
      LLVMValueRef s = own >= 0 ? lo_broadcast_stride(l, t, o->values[i], own) : const_i64(l, 0);
      LLVMValueRef at = const_i64(l, j);
      LLVMBuildStore(l->b, s, LLVMBuildGEP2(l->b, i64, strides, &at, 1, ""));
    }
  }
  LLVMTypeRef pt[6] = {l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->ptr, i64, l->mod->ptr};
  LLVMValueRef args[6] = {const_i32(l, o->ndim), const_i32(l, nop), dims, strides, k, out};
  lo_call_fn(l, "rt_nditer_index", LLVMVoidTypeInContext(l->mod->c), pt, args, 6);
  for (int d = 0; d < o->ndim; d++) {
    LLVMValueRef at = const_i64(l, d);
    idx[d] = LLVMBuildLoad2(l->b, i64, LLVMBuildGEP2(l->b, i64, out, &at, 1, ""), "");
  }
}

/* Each operand's element k of the broadcast shape (k unravelled in the
 * order nditer_walk picks), as a 0-d view read-only as NumPy's nditer
 * makes it. */
static LLVMValueRef lo_nditer_at(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  LLVMValueRef v = lo_expr(l, arg), k = lo_expr_as(l, n->list.items[1], TYS(TY_I64)), idx[RC_MAX_NDIM];
  Operands o;
  nditer_broadcast(l, arg, v, &o, false);
  Walk walk = nditer_walk(l, arg->ty, o.ndim);
  if (walk == WALK_STRIDES) nditer_index_by_strides(l, &o, k, idx);
  for (int i = 0; walk != WALK_STRIDES && i < o.ndim; i++) {
    int d = walk == WALK_F ? i : o.ndim - 1 - i;
    bool last = i == o.ndim - 1;
    idx[d] = last ? k : LLVMBuildURem(l->b, k, o.dims[d], "");
    if (!last) k = LLVMBuildUDiv(l->b, k, o.dims[d], "");
  }
  LLVMValueRef r;
  if (n->ty->kind == TY_TUPLE) {
    r = LLVMGetUndef(lo_type(l, n->ty));
    for (int i = 0; i < o.n; i++)
      r = LLVMBuildInsertValue(l->b, r, nditer_view(l, &o, i, idx, n->ty->fields[i]), (unsigned)i, "");
  } else {
    r = nditer_view(l, &o, 0, idx, n->ty);
  }
  lo_done_with(l, arg, v);
  return r;
}

/* (an array of any dtype gives its shape: complex ones too) */
#define HIDDEN(name, lo, hi, type, lower) \
  {name, NULL, NULL, BK_FUNCTION, 0, lo, hi, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0, type, lower}

const Builtin bi_ndindex[] = {
  HIDDEN("ndindex size", 1, 1, ty_ndindex_size, lo_ndindex_size),
  HIDDEN("ndindex at", 2, 2, ty_ndindex_at, lo_ndindex_at),
  {"nditer size", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, BF_RAISES | BF_COMPLEX, 0, 0, ty_nditer_size, lo_nditer_size},
  {"nditer at", NULL, NULL, BK_FUNCTION, 0, 2, 2, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0, ty_nditer_at, lo_nditer_at},
  BI_END,
};
