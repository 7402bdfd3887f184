/* builtins/numpy.c — NumPy arrays in compiled code: allocation
 * (numpy.empty, zeros, ones, the *_like forms, arange, copy), the
 * attributes of an array (shape, size, ndim, dtype, T) and its methods.
 */
#include "builtins/builtins.h"

/* ---------------------------------------------------------------- arguments */

static const char *const dtype_kw[] = {"dtype", NULL};

/* The dtype argument of an allocation: positional slot pos or dtype=. */
static const Type *dtype_arg(Infer *in, Node *n, int pos, const Type *dflt) {
  Node *d = n->list.len > pos ? n->list.items[pos] : ty_kwarg(n, "dtype");
  if (!d) return dflt;
  if (d->ty->kind != TY_DTYPE) return ty_error(in, d, "dtype must be a NumPy scalar type such as numpy.float64");
  return d->ty->elem;
}

/* The shape argument of numpy.empty/zeros/ones: an int or a tuple of ints. */
static int shape_ndim(Infer *in, Node *shape) {
  const Type *t = shape->ty;
  if (ty_is_int(t)) return 1;
  if (t->kind == TY_TUPLE && t->nfields <= RC_MAX_NDIM) {
    int ints = 0;
    while (ints < t->nfields && ty_is_int(t->fields[ints])) ints++;
    if (ints == t->nfields) return t->nfields;
  }
  ty_error(in, shape, "shape must be an int or a tuple of ints, got %s", t->name);
  return -1;
}

/* ---------------------------------------------------------------- allocation */

/* numpy.empty/zeros/ones(shape, dtype=float64); the row's ival is the
 * fill: 0 (zeros), 1 (ones) or -1 (uninitialised) */
static const Type *ty_alloc(Infer *in, Node *n, const Type **args) {
  int ndim = shape_ndim(in, n->list.items[0]);
  const Type *elem = ndim > 0 ? dtype_arg(in, n, 1, TYS(TY_F64)) : NULL;
  return elem ? ty_array(elem, ndim, 'C', false) : NULL;
}

/* numpy.empty_like/zeros_like/ones_like(a, dtype=a.dtype) */
static const Type *ty_alloc_like(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind != TY_ARRAY) return ty_error(in, n, "%s() needs an array, got %s", n->bi->name, args[0]->name);
  const Type *elem = dtype_arg(in, n, 1, args[0]->elem);
  return elem ? ty_array(elem, args[0]->ndim, 'C', false) : NULL;
}

static LLVMValueRef lo_alloc(Lower *l, Node *n) {
  LLVMValueRef shape[RC_MAX_NDIM];
  Node *arg = n->list.items[0];
  LLVMValueRef v = lo_expr(l, arg);
  if (arg->ty->kind == TY_ARRAY) {  /* the *_like forms */
    for (int d = 0; d < n->ty->ndim; d++) shape[d] = lo_arr_shape(l, v, d);
    lo_done_with(l, arg, v);
  } else if (arg->ty->kind == TY_TUPLE) {
    for (int d = 0; d < n->ty->ndim; d++)
      shape[d] = lo_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)d, ""), arg->ty->fields[d], TYS(TY_I64));
  } else {
    shape[0] = lo_convert(l, v, arg->ty, TYS(TY_I64));
  }
  return lo_alloc_array(l, n->ty, shape, n->bi->ival);
}

/* numpy.full(shape, fill_value, dtype=fill_value's type) */
static const Type *ty_full(Infer *in, Node *n, const Type **args) {
  int ndim = shape_ndim(in, n->list.items[0]);
  if (ndim < 0 || !ty_need_scalar(in, n->list.items[1], args[1], "numpy.full()'s fill value")) return NULL;
  const Type *elem = dtype_arg(in, n, 2, args[1]);
  return elem ? ty_array(elem, ndim, 'C', false) : NULL;
}

static LLVMValueRef lo_full(Lower *l, Node *n) {
  LLVMValueRef a = lo_alloc(l, n);
  LLVMValueRef v = lo_expr_as(l, n->list.items[1], n->ty->elem), count = const_i64(l, 1);
  for (int d = 0; d < n->ty->ndim; d++) count = LLVMBuildMul(l->b, count, lo_arr_shape(l, a, d), "");
  lo_fill(l, n->ty->elem, LLVMBuildExtractValue(l->b, a, 2, "data"), count, v);
  return a;
}

static const Type *ty_arange(Infer *in, Node *n, const Type **args) {
  const Type *t = TYS(TY_I64);
  for (int i = 0; i < n->list.len; i++) {
    if (!ty_is_scalar(args[i])) return ty_error(in, n->list.items[i], "numpy.arange() needs numbers, got %s", args[i]->name);
    if (ty_is_float(args[i])) t = TYS(TY_F64);
  }
  const Type *elem = dtype_arg(in, n, 99, t);
  return elem ? ty_array(elem, 1, 'C', false) : NULL;
}

/* numpy.arange: int arguments count exactly; float ones as NumPy does,
 * ceil((stop - start) / step) values start + i*step. */
static LLVMValueRef lo_arange(Lower *l, Node *n) {
  bool floats = false;
  for (int i = 0; i < n->list.len; i++) floats = floats || ty_is_float(n->list.items[i]->ty);
  const Type *t = floats ? TYS(TY_F64) : TYS(TY_I64);
  LLVMValueRef start = floats ? lo_fconst(l, t, 0) : const_i64(l, 0), stop, step = floats ? lo_fconst(l, t, 1) : const_i64(l, 1);
  if (n->list.len == 1) {
    stop = lo_expr_as(l, n->list.items[0], t);
  } else {
    start = lo_expr_as(l, n->list.items[0], t);
    stop = lo_expr_as(l, n->list.items[1], t);
    if (n->list.len == 3) step = lo_expr_as(l, n->list.items[2], t);
  }
  LLVMValueRef count;
  if (floats) {
    lo_raise_if(l, fcmp(l, LLVMRealOEQ, step, lo_fconst(l, t, 0)), RT_ERR_ZERODIV, "division by zero");
    LLVMValueRef c = lo_intrinsic1(l, "llvm.ceil", t, LLVMBuildFDiv(l->b, LLVMBuildFSub(l->b, stop, start, ""), step, ""));
    c = lo_intrinsic2(l, "llvm.maxnum", t, c, lo_fconst(l, t, 0));
    count = lo_convert(l, c, t, TYS(TY_I64));
  } else {
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, step, const_i64(l, 0), ""), RT_ERR_ZERODIV, "division by zero");
    count = lo_range_count(l, start, stop, step);
  }
  LLVMValueRef a = lo_alloc_array(l, n->ty, &count, -1);
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "");
  /* fill: data[i] = start + i*step */
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "arange");
  LLVMValueRef i = loop.index;
  LLVMValueRef iv = floats ? LLVMBuildSIToFP(l->b, i, lo_type(l, t), "") : i;
  LLVMValueRef v = floats ? LLVMBuildFAdd(l->b, start, LLVMBuildFMul(l->b, iv, step, ""), "")
                          : LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, iv, step, ""), "");
  LLVMValueRef p = LLVMBuildGEP2(l->b, lo_storage_type(l, n->ty->elem), data, &i, 1, "");
  lo_store_scalar(l, n->ty->elem, p, lo_convert(l, v, t, n->ty->elem));
  lo_loop_end(l, &loop);
  return a;
}

/* ---------------------------------------------------------------- calls */

/* numpy.copy(a) and a.copy(): a new C-contiguous array */
static const Type *ty_copy(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind != TY_ARRAY) return ty_error(in, n, "copy() copies an array, not %s", args[0]->name);
  return ty_array(args[0]->elem, args[0]->ndim, 'C', false);
}

/* ---------------------------------------------------------------- attributes */

static const Type *ty_shape(Infer *in, Node *n, const Type **args) {
  const Type *f[RC_MAX_NDIM];
  for (int i = 0; i < args[0]->ndim; i++) f[i] = TYS(TY_I64);
  return ty_tuple(args[0]->ndim, f);
}

static LLVMValueRef lo_shape(Lower *l, Node *n) {
  LLVMValueRef a = lo_expr(l, n->lhs), r = LLVMGetUndef(lo_type(l, n->ty));
  for (int d = 0; d < n->lhs->ty->ndim; d++) r = LLVMBuildInsertValue(l->b, r, lo_arr_shape(l, a, d), (unsigned)d, "");
  lo_done_with(l, n->lhs, a);
  return r;
}

static const Type *ty_int_attr(Infer *in, Node *n, const Type **args) { return TYS(TY_I64); }

static LLVMValueRef lo_size(Lower *l, Node *n) {
  LLVMValueRef a = lo_expr(l, n->lhs), r = const_i64(l, 1);
  for (int d = 0; d < n->lhs->ty->ndim; d++) r = LLVMBuildMul(l->b, r, lo_arr_shape(l, a, d), "");
  lo_done_with(l, n->lhs, a);
  return r;
}

static LLVMValueRef lo_ndim(Lower *l, Node *n) { return const_i64(l, n->lhs->ty->ndim); }

/* a.dtype: a type, used as an allocation's argument; no value at run time */
static const Type *ty_dtype_attr(Infer *in, Node *n, const Type **args) { return ty_dtype(args[0]->elem); }
static LLVMValueRef lo_no_value(Lower *l, Node *n) { return LLVMGetUndef(l->mod->i8); }

/* a.T: a view with the dimensions reversed */
static const Type *ty_transpose(Infer *in, Node *n, const Type **args) {
  const Type *a = args[0];
  char layout = a->ndim < 2 ? a->layout : a->layout == 'C' ? 'F' : a->layout == 'F' ? 'C' : 'A';
  return ty_array(a->elem, a->ndim, layout, a->readonly);
}

static LLVMValueRef lo_transpose(Lower *l, Node *n) {
  const Type *t = n->lhs->ty;
  LLVMValueRef a = lo_expr(l, n->lhs), r = a;
  for (int d = 0; d < t->ndim; d++) {
    unsigned to = (unsigned)(t->ndim - 1 - d);
    LLVMValueRef shp = LLVMBuildExtractValue(l->b, r, 3, ""), str = LLVMBuildExtractValue(l->b, r, 4, "");
    shp = LLVMBuildInsertValue(l->b, shp, lo_arr_shape(l, a, d), to, "");
    str = LLVMBuildInsertValue(l->b, str, lo_arr_stride(l, t, a, d), to, "");
    r = LLVMBuildInsertValue(l->b, LLVMBuildInsertValue(l->b, r, shp, 3, ""), str, 4, "");
  }
  lo_refcount(l, n->ty, r, true);
  lo_done_with(l, n->lhs, a);
  return r;
}

/* ---------------------------------------------------------------- the rows */

#define ALLOC(name, lo, hi, fill, type, lower) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, lo, hi, dtype_kw, BF_ALLOCATES, fill, 0, type, lower}
#define ATTRIBUTE(name, flags, type, lower) \
  {"array." name, NULL, name, BK_ATTRIBUTE, TY_ARRAY, 0, 0, NULL, BF_PURE | BF_CHEAP | (flags), 0, 0, type, lower}

const Builtin bi_numpy[] = {
  ALLOC("empty", 1, 2, -1, ty_alloc, lo_alloc),
  ALLOC("zeros", 1, 2, 0, ty_alloc, lo_alloc),
  ALLOC("ones", 1, 2, 1, ty_alloc, lo_alloc),
  ALLOC("empty_like", 1, 2, -1, ty_alloc_like, lo_alloc),
  ALLOC("zeros_like", 1, 2, 0, ty_alloc_like, lo_alloc),
  ALLOC("ones_like", 1, 2, 1, ty_alloc_like, lo_alloc),
  ALLOC("full", 2, 3, -1, ty_full, lo_full),
  ALLOC("arange", 1, 3, 0, ty_arange, lo_arange),
  {"numpy.copy", "numpy", "copy", BK_FUNCTION, 0, 1, 1, NULL, BF_ALLOCATES, 0, 0, ty_copy, lo_copy},
  {"array.copy", NULL, "copy", BK_METHOD, TY_ARRAY, 0, 0, NULL, BF_ALLOCATES, 0, 0, ty_copy, lo_copy},
  ATTRIBUTE("shape", 0, ty_shape, lo_shape),
  ATTRIBUTE("size", 0, ty_int_attr, lo_size),
  ATTRIBUTE("ndim", 0, ty_int_attr, lo_ndim),
  ATTRIBUTE("dtype", 0, ty_dtype_attr, lo_no_value),
  ATTRIBUTE("T", 0, ty_transpose, lo_transpose),
  BI_END,
};
