/* builtins/numpy.c — NumPy arrays in compiled code: creation (numpy.empty,
 * zeros, ones, full and their *_like forms, arange, linspace, logspace,
 * geomspace, the windows hanning ... kaiser, eye, identity, indices, array,
 * asarray, copy, ascontiguousarray, asfortranarray, dtype), the attributes of
 * an array (shape, size, ndim, dtype, strides, T, flags' contiguity) and its copy;
 * numpy.shape, and isscalar, iscomplexobj, isrealobj, which the type answers.
 *
 * A dtype is written as NumPy allows: a scalar type (numpy.float32, float,
 * bool), a dtype object (numpy.dtype("f4"), a.dtype) or a dtype's name
 * ("f8", "int32"); the frontend reads names and dtype objects as the
 * scalar types they stand for. The shape functions are in shape.c.
 */
#include <math.h>
#include <string.h>

#include "builtins/builtins.h"

/* ---------------------------------------------------------------- arguments */

static const char *const dtype_kw[] = {"dtype", NULL};
static const char *const dtype_order_kw[] = {"dtype", "order", NULL};

/* Argument pos (counting a method's receiver) or the keyword name; NULL if
 * neither is given (or a dtype given None, read as not given: np_dtype_arg),
 * and an error if both are. */
Node *np_arg_node(Node *n, int pos, const char *name) {
  Node *kw = name ? ty_kwarg(n, name) : NULL, *x = n->list.len > pos ? n->list.items[pos] : kw;
  return x && x->kind == N_NONE && x->ival == 1 ? NULL : x;
}

Node *np_arg(Infer *in, Node *n, int pos, const char *name) {
  if (n->list.len > pos && name && ty_kwarg(n, name))
    ty_error(in, ty_kwarg(n, name), "%s() got multiple values for argument '%s'", n->bi->name, name);
  return np_arg_node(n, pos, name);
}

/* A str whose value typing knows (a variable assigned one, a global) read
 * as the dtype it names, as Numba reads a literal str: d becomes that
 * dtype. NULL with an error where NumPy has no such dtype (its TypeError's
 * words) or compiled code has none; NULL alone where the value is unknown. */
static const Type *str_dtype(Infer *in, Node *n, Node *d) {
  const char *name;
  bool known;
  const Type *t = np_named_dtype(in, d, &name, &known);
  if (!t && name && !known) return ty_error(in, d, "%s()'s dtype: data type '%s' not understood", n->bi->name, name);
  if (!t && name) return ty_error(in, d, "%s()'s dtype '%s' is not supported in compiled code", n->bi->name, name);
  return t;
}

const Type *np_named_dtype(Infer *in, Node *d, const char **name, bool *known) {
  const Node *c = ty_constant(in, d);
  *name = NULL;
  *known = false;
  if (!c || c->kind != N_STRING || !in->opts || !in->opts->dtype_named) return NULL;
  *name = c->str;
  const Type *t = in->opts->dtype_named(c->str, known);
  if (t)
    *d = (Node){.kind = N_DTYPE, .line = d->line, .col = d->col, .ival = t->kind, .data = t == TYS(t->kind) ? NULL : t,
                .ty = ty_dtype(t)};
  return t;
}

/* The functions that make arrays of a str or bytes dtype ('U5', a.dtype of
 * such an array): those Numba has, whose items start empty or unset. */
static const char *const text_makers[] = {"numpy.empty", "numpy.zeros", "numpy.empty_like", "numpy.zeros_like", NULL};

static const Type *dtype_made(Infer *in, Node *n, Node *d, const Type *e) {
  for (int i = 0; e && ty_is_fixed_text(e) && text_makers[i]; i++)
    if (!strcmp(n->bi->name, text_makers[i])) return e;
  if (e && ty_is_fixed_text(e))
    return ty_error(in, d, "%s() of a str or bytes dtype (%s) is not supported in compiled code", n->bi->name, e->name);
  return e;
}

/* A NumPy scalar given as a dtype (numpy.eye(n, dtype=numpy.complex64(1))):
 * NumPy reads its .dtype. Python's own numbers (int, float, complex, bool)
 * have none and NumPy refuses them, so a value of those types is taken
 * only where it is written as a call of a NumPy scalar type; d becomes
 * that dtype (what made the scalar is not run: a dtype is all it gives). */
static const Type *scalar_value_dtype(Node *d) {
  const Type *t = d->ty;
  if (!ty_is_scalar(t) || ty_is_time(t) || ty_is_enum(t)) return NULL;
  bool python_number = t->kind == TY_I64 || t->kind == TY_F64 || t->kind == TY_C128 || t->kind == TY_BOOL;
  if (python_number && !(d->kind == N_CALL && d->bi == bi_named("a NumPy scalar type"))) return NULL;
  *d = (Node){.kind = N_DTYPE, .line = d->line, .col = d->col, .ival = t->kind, .ty = ty_dtype(t)};
  return t;
}

const Type *np_dtype_arg(Infer *in, Node *n, int pos, const Type *dflt) {
  Node *d = np_arg(in, n, pos, "dtype");
  if (!d || ty_failed(in)) return ty_failed(in) ? NULL : dflt;
  if (bi_none_as_default(d)) return dflt;  /* numpy.zeros(n, None), as NumPy and Numba read it */
  const Type *scalar = scalar_value_dtype(d);
  if (scalar) return scalar;
  if (d->ty->kind == TY_STR) {
    const Type *t = str_dtype(in, n, d);
    if (t || ty_failed(in)) return dtype_made(in, n, d, t);
    return ty_error(in, d, "%s()'s dtype, a str, must be known when the function is compiled (written out, a "
                    "global, or a variable assigned it once), as Numba's string constant", n->bi->name);
  }
  if (!ty_is_numpy_dtype(d->ty))
    return ty_error(in, d, "%s()'s dtype must be a NumPy dtype, a scalar type such as numpy.float64 or a "
                    "dtype's name such as \"f8\", got %s", n->bi->name, d->ty->name);
  return dtype_made(in, n, d, d->ty->elem);
}

int np_shape_ndim(Infer *in, Node *shape) {
  const Type *t = shape->ty;
  if (ty_is_int(t)) return 1;
  if (t->kind == TY_TUPLE && t->nfields <= RC_MAX_NDIM) {
    int ints = 0;
    while (ints < t->nfields && (ty_is_int(t->fields[ints]) || t->fields[ints]->kind == TY_INTENUM)) ints++;  /* (an IntEnum member's int, as Numba's) */
    if (ints == t->nfields) return t->nfields;
  }
  ty_error(in, shape, "a shape must be an int or a tuple of at most %d ints, got %s", RC_MAX_NDIM, t->name);
  return -1;
}

int lo_shape_arg(Lower *l, Node *shape, LLVMValueRef *dims) {
  LLVMValueRef v = lo_expr(l, shape);
  if (shape->ty->kind != TY_TUPLE) {
    dims[0] = lo_convert(l, v, shape->ty, TYS(TY_I64));
    return 1;
  }
  for (int d = 0; d < shape->ty->nfields; d++)
    dims[d] = lo_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)d, ""), shape->ty->fields[d], TYS(TY_I64));
  return shape->ty->nfields;
}

static bool is_array(const Type *t) { return t->kind == TY_ARRAY; }

static const Type *need_array(Infer *in, Node *n, const Type *t) {
  if (!is_array(t)) return ty_error(in, n, "%s() needs an array, got %s", n->bi->name, t->name);
  return t;
}

/* The layout NumPy's order='K' gives a new array like one of type t:
 * Fortran order kept, C otherwise (NumPy follows the strides of other
 * views too, which ruchey's types do not know). */
char np_like_layout(const Type *t) { return t->layout == 'F' && t->ndim > 1 ? 'F' : 'C'; }

/* ---------------------------------------------------------------- empty, zeros, ones, full */

/* order= of the functions that make arrays: C or Fortran order, and the
 * *_like functions' 'A' and 'K' (their default), as their array's. */
static const char *const new_orders[] = {"C", "F", "A", "K", NULL};

/* The layout order= (at position pos, or by keyword) gives a new array of
 * ndim dimensions: 'C' (the default) or 'F' (of two or more dimensions:
 * one is both); a *_like function's 'A' and 'K' (its default) keep the
 * Fortran order of like (np_like_layout). 0 (an error) for another order, or
 * one not written out. */
static char new_layout(Infer *in, Node *n, int pos, int ndim, const Type *like) {
  Node *order = bi_arg(n, pos, "order");
  int k = bi_str_option(order, new_orders, like ? 3 : 0);
  if (k < 0 || (k > 1 && !like)) {
    ty_error(in, order, "%s()'s order must be %s written out", n->bi->name, like ? "'C', 'F', 'A' or 'K'" : "'C' or 'F'");
    return 0;
  }
  if (k > 1) return np_like_layout(like);
  return k == 1 && ndim > 1 ? 'F' : 'C';
}

/* numpy.empty/zeros/ones(shape, dtype=float64, order='C'); the row's ival
 * is the fill: 0 (zeros), 1 (ones) or -1 (uninitialised) */
static const Type *ty_alloc(Infer *in, Node *n, const Type **args) {
  int ndim = np_shape_ndim(in, n->list.items[0]);
  const Type *elem = ndim >= 0 ? np_dtype_arg(in, n, 1, TYS(TY_F64)) : NULL;
  char layout = elem ? new_layout(in, n, 2, ndim, NULL) : 0;
  return layout ? ty_array(elem, ndim, layout, false) : NULL;
}

/* What a *_like function makes its array like: an array, or a number or
 * a record, which NumPy takes as a 0-d array of its type
 * (numpy.zeros_like(1.5) is array(0.)), as Numba does. */
static const Type *like_operand(Infer *in, Node *n, const Type *t) {
  if ((ty_is_scalar(t) && !ty_is_time(t)) || t->kind == TY_RECORD) return ty_array(t, 0, 'C', false);
  return need_array(in, n, t);
}

static bool is_like_form(const Node *n) { return strstr(n->bi->name, "_like") != NULL; }

/* numpy.empty_like/zeros_like/ones_like(a, dtype=a.dtype, order='K') */
static const Type *ty_alloc_like(Infer *in, Node *n, const Type **args) {
  const Type *a = like_operand(in, n, args[0]);
  const Type *elem = a ? np_dtype_arg(in, n, 1, a->elem) : NULL;
  char layout = elem ? new_layout(in, n, 2, a->ndim, a) : 0;
  return layout ? ty_array(elem, a->ndim, layout, false) : NULL;
}

static LLVMValueRef lo_alloc(Lower *l, Node *n) {
  LLVMValueRef shape[RC_MAX_NDIM];
  Node *arg = n->list.items[0];
  if (is_like_form(n)) {  /* the shape of the array (a number's: none) */
    LLVMValueRef v = lo_expr(l, arg);
    for (int d = 0; d < n->ty->ndim; d++) shape[d] = lo_arr_shape(l, v, d);
    lo_done_with(l, arg, v);
  } else {
    lo_shape_arg(l, arg, shape);
  }
  return lo_alloc_array(l, n->ty, shape, n->bi->ival);
}

/* A str or bytes fill value, refused by name: Numba 0.68 refuses bytes,
 * and for a str makes an array of empty strings ('<U0') where NumPy gives
 * one of the fill value, which ruchey would rather not copy. */
static bool text_fill(Infer *in, Node *n, const Type *t, const char *what) {
  if (t->kind != TY_STR && t->kind != TY_BYTES) return false;
  ty_error(in, n, "%s() of a %s fill value is not supported in compiled code (%s): make the array in Python, or "
           "fill one of numbers", what, t->kind == TY_STR ? "str" : "bytes",
           t->kind == TY_STR ? "Numba gives an array of empty strings, not NumPy's array of the value" : "nor in Numba");
  return true;
}

/* numpy.full(shape, fill_value, dtype=fill_value's type) */
static const Type *ty_full(Infer *in, Node *n, const Type **args) {
  int ndim = np_shape_ndim(in, n->list.items[0]);
  if (text_fill(in, n->list.items[1], args[1], "numpy.full")) return NULL;
  if (ndim < 0 || !ty_need_scalar(in, n->list.items[1], args[1], "numpy.full()'s fill value")) return NULL;
  const Type *elem = np_dtype_arg(in, n, 2, args[1]);
  char layout = elem ? new_layout(in, n, 3, ndim, NULL) : 0;
  return layout ? ty_array(elem, ndim, layout, false) : NULL;
}

/* numpy.full_like(a, fill_value, dtype=a.dtype); of an array of str
 * (bytes) and a str (bytes), as Numba's: the value in every item, cut or
 * NUL-padded to their width as NumPy stores it */
static const Type *ty_full_like(Infer *in, Node *n, const Type **args) {
  const Type *a = like_operand(in, n, args[0]);
  if (a && ty_is_fixed_text(a->elem) && args[1]->kind == (a->elem->kind == TY_CHARSEQ ? TY_STR : TY_BYTES) &&
      !np_arg_node(n, 2, "dtype")) {
    char layout = new_layout(in, n, 3, a->ndim, a);
    return layout ? ty_array(a->elem, a->ndim, layout, false) : NULL;
  }
  if (!a || (!ty_is_fixed_text(a->elem) && text_fill(in, n->list.items[1], args[1], "numpy.full_like"))) return NULL;
  const Type *elem = np_dtype_arg(in, n, 2, a->elem);
  if (elem && ty_is_fixed_text(elem))
    return ty_error(in, n->list.items[1], "numpy.full_like() of an array of %s takes a %s fill value in compiled code, "
                    "got %s", elem->kind == TY_CHARSEQ ? "str" : "bytes", elem->kind == TY_CHARSEQ ? "str" : "bytes",
                    args[1]->name);
  if (!elem || !ty_need_scalar(in, n->list.items[1], args[1], "numpy.full_like()'s fill value")) return NULL;
  char layout = elem ? new_layout(in, n, 3, a->ndim, a) : 0;
  return layout ? ty_array(elem, a->ndim, layout, false) : NULL;
}

/* every one of count text items from data written with the str (bytes) v */
static void fill_text(Lower *l, const Type *elem, LLVMValueRef data, LLVMValueRef count, LLVMValueRef v) {
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "full.text");
  LLVMValueRef at = LLVMBuildMul(l->b, loop.index, const_i64(l, (long long)elem->size), "");
  lo_text_write(l, elem, LLVMBuildGEP2(l->b, l->mod->i8, data, &at, 1, ""), v);
  lo_loop_end(l, &loop);
}

static LLVMValueRef lo_full(Lower *l, Node *n) {
  LLVMValueRef a = lo_alloc(l, n);
  Node *fill = n->list.items[1];
  bool text = ty_is_fixed_text(n->ty->elem);
  LLVMValueRef v = text ? lo_expr(l, fill) : lo_expr_as(l, fill, n->ty->elem), count = const_i64(l, 1);
  for (int d = 0; d < n->ty->ndim; d++) count = LLVMBuildMul(l->b, count, lo_arr_shape(l, a, d), "");
  if (text) {
    fill_text(l, n->ty->elem, LLVMBuildExtractValue(l->b, a, 2, "data"), count, v);
    lo_done_with(l, fill, v);
  } else {
    lo_fill(l, n->ty->elem, LLVMBuildExtractValue(l->b, a, 2, "data"), count, v);
  }
  return a;
}

/* ---------------------------------------------------------------- arange, linspace */

/* The type arange's arguments are computed in: float64 if one is a float. */
static int arange_nargs(Node *n) { return n->list.len < 3 ? n->list.len : 3; }

static const Type *arange_args_type(Node *n) {
  for (int i = 0; i < arange_nargs(n); i++)
    if (ty_is_complex(n->list.items[i]->ty)) return TYS(TY_C128);
  for (int i = 0; i < arange_nargs(n); i++)
    if (ty_is_float(n->list.items[i]->ty)) return TYS(TY_F64);
  return TYS(TY_I64);
}

static Node *int_node(Infer *in, Node *at, int64_t v) {
  Node *x = arena_alloc(in->f->arena, sizeof(Node));
  *x = (Node){.kind = N_INT, .line = at->line, .col = at->col, .ival = v};
  ty_expr(in, x);
  return x;
}

/* arange's start, stop and step (named ones made positional by the
 * frontend's bind_arange) with None as not given, as NumPy reads them: a
 * stop None makes the start the stop (arange(n, None) is arange(n)), a
 * step None is 1. n's list becomes [stop], [start, stop] or [start, stop,
 * step] (a start of 0 and a step of 1 put in before what follows them),
 * then a dtype given by position. */
static bool arange_operands(Infer *in, Node *n, const Type **args) {
  Node *v[3] = {NULL, NULL, NULL}, *dtype = n->list.len > 3 ? n->list.items[3] : NULL;
  for (int i = 0; i < 3 && i < n->list.len; i++)
    if (args[i]->kind != TY_NONE) v[i] = n->list.items[i];
  if (n->list.len == 1 || !v[1]) v[1] = v[0], v[0] = NULL;
  if (!v[1]) return ty_error(in, n, "numpy.arange() needs a stop, got None") != NULL;
  if (!v[0] && (v[2] || dtype)) v[0] = int_node(in, n, 0);
  if (!v[2] && dtype) v[2] = int_node(in, n, 1);
  int count = dtype ? 4 : v[2] ? 3 : v[0] ? 2 : 1;
  Node **items = arena_alloc(in->f->arena, sizeof(Node *) * 4);
  if (count == 1) items[0] = v[1];
  else items[0] = v[0], items[1] = v[1], items[2] = v[2], items[3] = dtype;
  n->list = (NodeList){.items = items, .len = count};
  for (int i = 0; i < count; i++) args[i] = items[i]->ty;
  return true;
}

/* numpy.arange([start, ]stop[, step][, dtype]) */
static const Type *ty_arange(Infer *in, Node *n, const Type **args) {
  if (!arange_operands(in, n, args)) return NULL;
  for (int i = 0; i < arange_nargs(n); i++)
    if (!ty_is_scalar(args[i]))
      return ty_error(in, n->list.items[i], "numpy.arange() needs numbers in compiled code, got %s", args[i]->name);
  const Type *elem = np_dtype_arg(in, n, 3, arange_args_type(n));
  if (elem && ty_is_complex(arange_args_type(n)) && !ty_is_complex(elem))
    return ty_error(in, n, "numpy.arange() of complex bounds makes complex values, not %s", elem->name);
  if (elem && elem->kind == TY_BOOL)
    return ty_error(in, n, "numpy.arange() cannot make bools (NumPy has no fill function for them)");
  return elem ? ty_array(elem, 1, 'C', false) : NULL;
}

/* The number of values of arange(start, stop, step), as NumPy counts them:
 * ceil((stop - start) / step), at least 0. */
static LLVMValueRef arange_count(Lower *l, const Type *t, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef step) {
  if (!ty_is_float(t)) {
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, step, const_i64(l, 0), ""), RT_ERR_ZERODIV, "division by zero");
    LLVMValueRef count = lo_range_count(l, start, stop, step);  /* unsigned: over 2**63 - 1 reads negative */
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, count, const_i64(l, 0), ""), RT_ERR_VALUE,
                "Maximum allowed size exceeded");
    return count;
  }
  lo_raise_if(l, fcmp(l, LLVMRealOEQ, step, lo_fconst(l, t, 0)), RT_ERR_ZERODIV, "division by zero");
  LLVMValueRef c = lo_intrinsic1(l, "llvm.ceil", t, LLVMBuildFDiv(l->b, LLVMBuildFSub(l->b, stop, start, ""), step, ""));
  lo_raise_if(l, fcmp(l, LLVMRealUNO, c, c), RT_ERR_VALUE, "arange: cannot compute length");
  c = lo_intrinsic2(l, "llvm.maxnum", t, c, lo_fconst(l, t, 0));
  /* (a count past int64's, of a tiny step, converts to no number) */
  lo_raise_if(l, fcmp(l, LLVMRealOGE, c, lo_fconst(l, t, 9223372036854775808.0)), RT_ERR_VALUE,
              "Maximum allowed size exceeded");
  return lo_convert(l, c, t, TYS(TY_I64));
}

/* numpy.arange fills as NumPy does: the first two values are start and
 * start + step converted to the dtype, the others first + i*(second - first)
 * computed in the dtype (a complex dtype's: in its real parts, the
 * imaginary ones zero, as NumPy's complex fill of real bounds). */
static LLVMValueRef lo_arange_complex(Lower *l, Node *n);

/* arange(stop), arange(start, stop[, step]) read as t into the bounds;
 * start and step keep the defaults they hold where not given */
static void arange_bounds(Lower *l, Node *n, const Type *t, LLVMValueRef *start, LLVMValueRef *stop,
                          LLVMValueRef *step) {
  if (n->list.len == 1) {
    *stop = lo_expr_as(l, n->list.items[0], t);
    return;
  }
  *start = lo_expr_as(l, n->list.items[0], t);
  *stop = lo_expr_as(l, n->list.items[1], t);
  if (n->list.len >= 3) *step = lo_expr_as(l, n->list.items[2], t);
}

/* Value i of arange, of dtype c, into data: first + i * delta (vals) in
 * c's part. */
static void arange_one(Lower *l, LLVMValueRef index, LLVMValueRef *vals, void *dtype) {
  const Type *c = dtype, *e = lo_complex_part(c);
  LLVMValueRef data = vals[0], b0 = vals[1], delta = vals[2], i = lo_convert(l, index, TYS(TY_I64), e);
  LLVMValueRef v = ty_is_float(e) ? LLVMBuildFAdd(l->b, b0, LLVMBuildFMul(l->b, i, delta, ""), "")
                                  : LLVMBuildAdd(l->b, b0, LLVMBuildMul(l->b, i, delta, ""), "");
  if (c != e) v = lo_complex_make(l, c, v, lo_fconst(l, e, 0.0));
  lo_store_scalar(l, c, LLVMBuildGEP2(l->b, lo_storage_type(l, c), data, &index, 1, ""), v);
}

static LLVMValueRef lo_arange(Lower *l, Node *n) {
  const Type *t = arange_args_type(n), *c = n->ty->elem, *e = lo_complex_part(c);
  if (ty_is_complex(t)) return lo_arange_complex(l, n);
  bool floats = ty_is_float(t);
  LLVMValueRef start = floats ? lo_fconst(l, t, 0) : const_i64(l, 0), stop, step = floats ? lo_fconst(l, t, 1) : const_i64(l, 1);
  arange_bounds(l, n, t, &start, &stop, &step);
  LLVMValueRef count = arange_count(l, t, start, stop, step);
  LLVMValueRef second = floats ? LLVMBuildFAdd(l->b, start, step, "") : LLVMBuildAdd(l->b, start, step, "");
  LLVMValueRef b0 = lo_convert(l, start, t, e), b1 = lo_convert(l, second, t, e);
  LLVMValueRef delta = ty_is_float(e) ? LLVMBuildFSub(l->b, b1, b0, "") : LLVMBuildSub(l->b, b1, b0, "");
  LLVMValueRef a = lo_alloc_array(l, n->ty, &count, -1);
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "");
  lo_index_loop(l, count, (LLVMValueRef[]){data, b0, delta}, 3, arange_one, (void *)c);
  LLVMValueRef first[2] = {b0, b1};
  for (int k = 0; k < 2; k++) {
    LLVMBasicBlockRef put = new_block(l, "arange.first"), done = new_block(l, "arange.done");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, count, const_i64(l, k), ""), put, done);
    position(l, put);
    LLVMValueRef at = const_i64(l, k), v = c != e ? lo_complex_make(l, c, first[k], lo_fconst(l, e, 0.0)) : first[k];
    lo_store_scalar(l, c, LLVMBuildGEP2(l->b, lo_storage_type(l, c), data, &at, 1, ""), v);
    LLVMBuildBr(l->b, done);
    position(l, done);
  }
  return a;
}

/* arange of complex bounds, as NumPy's: as many values as the smaller of
 * the ceilings of (stop - start) / step's parts, start + i*(second - first)
 * in each part of the dtype, the first two start and start + step. */
static LLVMValueRef lo_arange_complex(Lower *l, Node *n) {
  const Type *t = TYS(TY_C128), *f = TYS(TY_F64), *c = n->ty->elem, *e = lo_complex_part(c);
  LLVMValueRef start = LLVMConstNull(lo_type(l, t)), stop, step = lo_complex_make(l, t, lo_fconst(l, f, 1), lo_fconst(l, f, 0));
  arange_bounds(l, n, t, &start, &stop, &step);
  lo_raise_if(l, LLVMBuildNot(l->b, lo_complex_truth(l, step, t), ""), RT_ERR_ZERODIV, "division by zero");
  LLVMValueRef q = lo_binop_values(l, OP_DIV, t, lo_binop_values(l, OP_SUB, t, stop, t, start, t), t, step, t);
  LLVMValueRef count = NULL;
  for (int k = 0; k < 2; k++) {
    LLVMValueRef part = k ? lo_complex_imag(l, q) : lo_complex_real(l, q);
    LLVMValueRef ceil = lo_intrinsic1(l, "llvm.ceil", f, part);
    lo_raise_if(l, fcmp(l, LLVMRealUNO, ceil, ceil), RT_ERR_VALUE, "arange: cannot compute length");
    ceil = lo_convert(l, lo_intrinsic2(l, "llvm.maxnum", f, ceil, lo_fconst(l, f, 0)), f, TYS(TY_I64));
    count = k ? LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, ceil, count, ""), ceil, count, "") : ceil;
  }
  LLVMValueRef first = lo_convert(l, start, t, c), second = lo_convert(l, lo_binop_values(l, OP_ADD, t, start, t, step, t), t, c);
  LLVMValueRef a = lo_alloc_array(l, n->ty, &count, -1);
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "arange");
  LLVMValueRef i = lo_convert(l, loop.index, TYS(TY_I64), e), part[2];
  for (int k = 0; k < 2; k++) {
    LLVMValueRef b0 = k ? lo_complex_imag(l, first) : lo_complex_real(l, first);
    LLVMValueRef b1 = k ? lo_complex_imag(l, second) : lo_complex_real(l, second);
    part[k] = LLVMBuildFAdd(l->b, b0, LLVMBuildFMul(l->b, i, LLVMBuildFSub(l->b, b1, b0, ""), ""), "");
  }
  LLVMValueRef v = lo_complex_make(l, c, part[0], part[1]);
  v = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, loop.index, const_i64(l, 0), ""), first, v, "");
  v = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, loop.index, const_i64(l, 1), ""), second, v, "");
  lo_store_scalar(l, c, LLVMBuildGEP2(l->b, lo_storage_type(l, c), data, &loop.index, 1, ""), v);
  lo_loop_end(l, &loop);
  return a;
}

static const char *const linspace_kw[] = {"num", "endpoint", "dtype", NULL};

/* The float type linspace computes in: float32 where its ends are (a
 * number written in the source yields), else float64; complex ends: the
 * complex type of those. */
static const Type *linspace_type(Node *n) {
  const Type *t = NULL;
  bool complex = false;
  for (int i = 0; i < 2; i++) {
    Node *a = n->list.items[i];
    complex |= ty_is_complex(a->ty);
    if (!ty_is_weak(a)) t = t ? np_promote(t, a->ty) : a->ty;
  }
  if (complex) return t && t->kind == TY_C64 ? t : TYS(TY_C128);
  return t && t->kind == TY_F32 ? t : TYS(TY_F64);
}

/* Whether the arguments of numpy.linspace or geomspace (start, stop,
 * num=50, endpoint=True, ...) are numbers, an int and a bool. */
static bool spacing_args(Infer *in, Node *n, const Type **args, const char *ends) {
  for (int i = 0; i < 2; i++)
    if (!ty_need_scalar(in, n->list.items[i], args[i], ends)) return false;
  Node *num = np_arg(in, n, 2, "num"), *endpoint = np_arg(in, n, 3, "endpoint");
  if (num && !ty_is_int(num->ty)) return ty_error(in, num, "%s()'s num must be an int, got %s", n->bi->name, num->ty->name);
  if (endpoint && !ty_is_scalar(endpoint->ty)) return ty_error(in, endpoint, "%s()'s endpoint must be a bool", n->bi->name);
  return !ty_failed(in);
}

/* numpy.linspace(start, stop, num=50, endpoint=True, dtype=None) */
static const Type *ty_linspace(Infer *in, Node *n, const Type **args) {
  const Type *elem = spacing_args(in, n, args, "numpy.linspace()'s start and stop") ? np_dtype_arg(in, n, 4, linspace_type(n)) : NULL;
  if (elem && ty_is_complex(linspace_type(n)) && !ty_is_complex(elem))
    return ty_error(in, n, "numpy.linspace() of complex ends makes complex values, not %s", elem->name);
  return elem ? ty_array(elem, 1, 'C', false) : NULL;
}

/* linspace's values as NumPy computes them, in float type t: y[i] =
 * i*step + start with step = (stop - start)/div, div being num - 1 with
 * the endpoint, num without; where step is 0 (the ends equal, or so close
 * that step underflows) y[i] = i/div*delta + start. */
typedef struct Linspace {
  const Type *t;
  LLVMValueRef start, stop, num, endpoint;
  LLVMValueRef fdiv, delta, step, positive, step_zero;
} Linspace;

/* num and endpoint read from n (numpy.linspace's positions), num checked */
static Linspace linspace_begin(Lower *l, Node *n, const Type *t, LLVMValueRef start, LLVMValueRef stop) {
  Linspace s = {t, start, stop};
  Node *num_node = np_arg_node(n, 2, "num"), *end_node = np_arg_node(n, 3, "endpoint");
  s.num = num_node ? lo_expr_as(l, num_node, TYS(TY_I64)) : const_i64(l, 50);
  s.endpoint = end_node ? lo_expr_as(l, end_node, TYS(TY_BOOL)) : const_bool(l, true);
  lo_raise_format_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, s.num, const_i64(l, 0), ""), RT_ERR_VALUE,
                     "Number of samples, %lld, must be non-negative.", &s.num, 1);
  LLVMValueRef div = LLVMBuildSelect(l->b, s.endpoint, LLVMBuildSub(l->b, s.num, const_i64(l, 1), ""), s.num, "");
  s.fdiv = lo_convert(l, div, TYS(TY_I64), t);
  s.delta = LLVMBuildFSub(l->b, stop, start, "");
  s.step = LLVMBuildFDiv(l->b, s.delta, s.fdiv, "");
  s.positive = LLVMBuildICmp(l->b, LLVMIntSGT, div, const_i64(l, 0), "");
  s.step_zero = fcmp(l, LLVMRealOEQ, s.step, lo_fconst(l, t, 0));
  return s;
}

static LLVMValueRef linspace_at(Lower *l, const Linspace *s, LLVMValueRef index) {
  LLVMValueRef i = lo_convert(l, index, TYS(TY_I64), s->t);
  LLVMValueRef tiny = LLVMBuildFMul(l->b, LLVMBuildFDiv(l->b, i, s->fdiv, ""), s->delta, "");
  LLVMValueRef y = LLVMBuildSelect(l->b, s->step_zero, tiny, LLVMBuildFMul(l->b, i, s->step, ""), "");
  y = LLVMBuildSelect(l->b, s->positive, y, LLVMBuildFMul(l->b, i, s->delta, ""), "");
  return LLVMBuildFAdd(l->b, y, s->start, "");
}

/* whether index is the last of an endpoint's linspace of more than one value */
static LLVMValueRef linspace_is_stop(Lower *l, const Linspace *s, LLVMValueRef index) {
  LLVMValueRef last = LLVMBuildICmp(l->b, LLVMIntEQ, index, LLVMBuildSub(l->b, s->num, const_i64(l, 1), ""), "");
  LLVMValueRef many = LLVMBuildICmp(l->b, LLVMIntSGT, s->num, const_i64(l, 1), "");
  return LLVMBuildAnd(l->b, s->endpoint, LLVMBuildAnd(l->b, last, many, ""), "");
}

/* What linspace_at and linspace_is_stop read of a Linspace, as a row of
 * values (that a chunk on the pool reads from its context), and back. */
enum { LS_VALUES = 8 };

static void linspace_values(const Linspace *s, LLVMValueRef *v) {
  LLVMValueRef f[LS_VALUES] = {s->start, s->num, s->endpoint, s->fdiv, s->delta, s->step, s->positive, s->step_zero};
  memcpy(v, f, sizeof f);
}

static Linspace linspace_of(const Type *t, const LLVMValueRef *v) {
  return (Linspace){.t = t, .start = v[0], .num = v[1], .endpoint = v[2], .fdiv = v[3], .delta = v[4],
                    .step = v[5], .positive = v[6], .step_zero = v[7]};
}

typedef struct LinspaceTypes {
  const Type *t, *e;  /* computed in, stored as */
} LinspaceTypes;

/* Value i into data (vals[0]): stop (vals[1]) or the parts' values (the
 * real part's Linspace from vals[2], the imaginary one's after it). */
static void linspace_one(Lower *l, LLVMValueRef i, LLVMValueRef *vals, void *arg) {
  const LinspaceTypes *k = arg;
  const Type *t = k->t, *e = k->e, *p = lo_complex_part(t);
  bool complex = ty_is_complex(t);
  Linspace s = linspace_of(p, vals + 2), si = complex ? linspace_of(p, vals + 2 + LS_VALUES) : s;
  LLVMValueRef y = complex ? lo_complex_make(l, t, linspace_at(l, &s, i), linspace_at(l, &si, i)) : linspace_at(l, &s, i);
  y = LLVMBuildSelect(l->b, linspace_is_stop(l, &s, i), vals[1], y, "");
  if (ty_is_int(e)) y = lo_intrinsic1(l, "llvm.floor", t, y);
  lo_store_scalar(l, e, LLVMBuildGEP2(l->b, lo_storage_type(l, e), vals[0], &i, 1, ""), lo_convert(l, y, t, e));
}

/* The last value is stop itself with the endpoint; ints are floored.
 * Complex ends: each part's values so, the step's parts zero both or
 * neither (NumPy's complex step == 0). */
static LLVMValueRef lo_linspace(Lower *l, Node *n) {
  const Type *t = linspace_type(n), *e = n->ty->elem, *p = lo_complex_part(t);
  LLVMValueRef start = lo_expr_as(l, n->list.items[0], t), stop = lo_expr_as(l, n->list.items[1], t);
  bool complex = ty_is_complex(t);
  Linspace s = linspace_begin(l, n, p, complex ? lo_complex_real(l, start) : start, complex ? lo_complex_real(l, stop) : stop);
  Linspace si = complex ? linspace_begin(l, n, p, lo_complex_imag(l, start), lo_complex_imag(l, stop)) : s;
  if (complex) s.step_zero = si.step_zero = LLVMBuildAnd(l->b, s.step_zero, si.step_zero, "");
  LLVMValueRef a = lo_alloc_array(l, n->ty, &s.num, -1), vals[2 + 2 * LS_VALUES];
  vals[0] = LLVMBuildExtractValue(l->b, a, 2, "");
  vals[1] = stop;
  linspace_values(&s, vals + 2);
  if (complex) linspace_values(&si, vals + 2 + LS_VALUES);
  lo_index_loop(l, s.num, vals, complex ? 2 + 2 * LS_VALUES : 2 + LS_VALUES, linspace_one, &(LinspaceTypes){t, e});
  return a;
}

/* numpy.geomspace(start, stop, num=50, endpoint=True, dtype=None): as
 * NumPy 2, start's sign out, 10 to the power of linspace's values from
 * log10(start) to log10(stop), the ends start and stop themselves, the
 * sign back; cast to dtype. Computed in NumPy's result_type of the ends,
 * float(num) and dtype (float64 if none): float32 where dtype and the ends
 * (those not written in the source) promote to it, else float64; complex64
 * or complex128 so where an end or dtype is complex. */
static const Type *geomspace_type(Node *n) {
  Node *d = np_arg_node(n, 4, "dtype");
  bool complex = ty_is_complex(n->list.items[0]->ty) || ty_is_complex(n->list.items[1]->ty);
  const Type *t = d ? d->ty->elem : TYS(TY_F64);
  for (int i = 0; i < 2 && d; i++)
    if (!ty_is_weak(n->list.items[i])) t = np_promote(t, n->list.items[i]->ty);
  bool single = t->kind == TY_F32 || t->kind == TY_C64;
  if (complex || ty_is_complex(t)) return TYS(single ? TY_C64 : TY_C128);
  return TYS(single ? TY_F32 : TY_F64);
}

static const Type *ty_geomspace(Infer *in, Node *n, const Type **args) {
  if (!spacing_args(in, n, args, "numpy.geomspace()'s start and stop")) return NULL;
  const Type *elem = np_dtype_arg(in, n, 4, NULL);
  if (ty_failed(in)) return NULL;
  if (elem && ty_is_complex(geomspace_type(n)) && !ty_is_complex(elem))
    return ty_error(in, n, "numpy.geomspace() of complex ends makes complex values, not %s", elem->name);
  return ty_array(elem ? elem : geomspace_type(n), 1, 'C', false);
}

/* geomspace of complex type t, as NumPy 2: the sign start/|start| out,
 * 10 to the power of the complex linspace (its parts each linspace's)
 * from log10(start) to log10(stop), the ends start and stop themselves */
static LLVMValueRef lo_complex_geomspace(Lower *l, Node *n, const Type *t) {
  const Type *p = lo_complex_part(t), *e = n->ty->elem;
  LLVMValueRef start = lo_expr_as(l, n->list.items[0], t), stop = lo_expr_as(l, n->list.items[1], t);
  LLVMValueRef zero = LLVMBuildNot(l->b, LLVMBuildAnd(l->b, lo_complex_truth(l, start, t), lo_complex_truth(l, stop, t), ""), "");
  lo_raise_if(l, zero, RT_ERR_VALUE, "Geometric sequence cannot include zero");
  LLVMValueRef mag = lo_complex_abs(l, t, start);
  LLVMValueRef sign = lo_complex_make(l, t, LLVMBuildFDiv(l->b, lo_complex_real(l, start), mag, ""),
                                      LLVMBuildFDiv(l->b, lo_complex_imag(l, start), mag, ""));
  start = lo_complex_binop(l, OP_DIV, t, start, t, sign, t);
  stop = lo_complex_binop(l, OP_DIV, t, stop, t, sign, t);
  LLVMValueRef ls = lo_numpy_cmath_of(l, CM_LOG10, start, t), le = lo_numpy_cmath_of(l, CM_LOG10, stop, t);
  Linspace s = linspace_begin(l, n, p, lo_complex_real(l, ls), lo_complex_real(l, le));
  Linspace si = linspace_begin(l, n, p, lo_complex_imag(l, ls), lo_complex_imag(l, le));
  s.step_zero = si.step_zero = LLVMBuildAnd(l->b, s.step_zero, si.step_zero, "");
  LLVMValueRef a = lo_alloc_array(l, n->ty, &s.num, -1), ten = lo_complex_make(l, t, lo_fconst(l, p, 10.0), lo_fconst(l, p, 0));
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), s.num, NULL, "geomspace");
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;  /* (NumPy's complex power) */
  LLVMValueRef y = lo_binop_values(l, OP_POW, t, ten, t,
                                   lo_complex_make(l, t, linspace_at(l, &s, loop.index), linspace_at(l, &si, loop.index)), t);
  l->numpy_semantics = saved;
  y = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, loop.index, const_i64(l, 0), ""), start, y, "");
  y = LLVMBuildSelect(l->b, linspace_is_stop(l, &s, loop.index), stop, y, "");
  y = lo_complex_binop(l, OP_MUL, t, y, t, sign, t);
  lo_store_scalar(l, e, LLVMBuildGEP2(l->b, lo_storage_type(l, e), data, &loop.index, 1, ""), lo_convert(l, y, t, e));
  lo_loop_end(l, &loop);
  return a;
}

static LLVMValueRef lo_geomspace(Lower *l, Node *n) {
  const Type *t = geomspace_type(n), *e = n->ty->elem;
  if (ty_is_complex(t)) return lo_complex_geomspace(l, n, t);
  LLVMValueRef start = lo_expr_as(l, n->list.items[0], t), stop = lo_expr_as(l, n->list.items[1], t);
  LLVMValueRef zero = lo_fconst(l, t, 0);
  lo_raise_if(l, LLVMBuildOr(l->b, fcmp(l, LLVMRealOEQ, start, zero), fcmp(l, LLVMRealOEQ, stop, zero), ""), RT_ERR_VALUE,
              "Geometric sequence cannot include zero");
  LLVMValueRef sign = LLVMBuildSelect(l->b, fcmp(l, LLVMRealOLT, start, zero), lo_fconst(l, t, -1),
                                      LLVMBuildSelect(l->b, fcmp(l, LLVMRealOGT, start, zero), lo_fconst(l, t, 1), start, ""), "");
  start = LLVMBuildFDiv(l->b, start, sign, "");
  stop = LLVMBuildFDiv(l->b, stop, sign, "");
  Linspace s = linspace_begin(l, n, t, lo_libm(l, "log10", t, &start, 1), lo_libm(l, "log10", t, &stop, 1));
  LLVMValueRef a = lo_alloc_array(l, n->ty, &s.num, -1);
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), s.num, NULL, "geomspace");
  LLVMValueRef y = lo_pow(l, t, lo_fconst(l, t, 10.0), linspace_at(l, &s, loop.index));
  y = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, loop.index, const_i64(l, 0), ""), start, y, "");
  y = LLVMBuildFMul(l->b, LLVMBuildSelect(l->b, linspace_is_stop(l, &s, loop.index), stop, y, ""), sign, "");
  lo_store_scalar(l, e, LLVMBuildGEP2(l->b, lo_storage_type(l, e), data, &loop.index, 1, ""), lo_convert(l, y, t, e));
  lo_loop_end(l, &loop);
  return a;
}

/* numpy.logspace(start, stop, num=50, endpoint=True, base=10.0): base to
 * the power of linspace's values, in their float type (float64 where a
 * base given as a float64 value is) */
static const char *const logspace_kw[] = {"num", "endpoint", "base", NULL};

static const Type *ty_logspace(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < 2; i++)
    if (!ty_need_scalar(in, n->list.items[i], args[i], "numpy.logspace()'s start and stop")) return NULL;
  Node *num = np_arg(in, n, 2, "num"), *endpoint = np_arg(in, n, 3, "endpoint"), *base = np_arg(in, n, 4, "base");
  if (num && !ty_is_int(num->ty)) return ty_error(in, num, "numpy.logspace()'s num must be an int, got %s", num->ty->name);
  if (endpoint && !ty_is_scalar(endpoint->ty)) return ty_error(in, endpoint, "numpy.logspace()'s endpoint must be a bool");
  if (base && !ty_is_scalar(base->ty)) return ty_error(in, base, "numpy.logspace()'s base must be a number, got %s", base->ty->name);
  const Type *e = linspace_type(n);
  if (base && !ty_is_weak(base) && base->ty->kind != TY_F32) e = TYS(TY_F64);
  return ty_array(e, 1, 'C', false);
}

static LLVMValueRef lo_logspace(Lower *l, Node *n) {
  const Type *e = n->ty->elem;
  Node *base_node = np_arg_node(n, 4, "base");
  LLVMValueRef a = lo_linspace(l, n), data = LLVMBuildExtractValue(l->b, a, 2, "");
  LLVMValueRef base = base_node ? lo_expr_as(l, base_node, e) : lo_fconst(l, e, 10.0);
  LLVMValueRef count = lo_arr_shape(l, a, 0);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "logspace");
  LLVMValueRef p = LLVMBuildGEP2(l->b, lo_storage_type(l, e), data, &loop.index, 1, "");
  lo_store_scalar(l, e, p, lo_pow(l, e, base, lo_load_scalar(l, e, p)));
  lo_loop_end(l, &loop);
  return a;
}

/* ---------------------------------------------------------------- window functions */

/* numpy.hanning, hamming, blackman, bartlett (M): the row's ival. */
enum { WIN_HANNING, WIN_HAMMING, WIN_BLACKMAN, WIN_BARTLETT };

static const Type *ty_window(Infer *in, Node *n, const Type **args) {
  if (!ty_is_int(args[0]) && args[0]->kind != TY_BOOL)
    return ty_error(in, n->list.items[0], "%s() takes an int M, got %s", n->bi->name, args[0]->name);
  return ty_array(TYS(TY_F64), 1, 'C', false);
}

/* Window value k of M > 1 as NumPy's expressions compute it, in their
 * order: n = 1 - M + 2k (its arange(1 - M, M, 2)), pi*n/(M-1) and so on. */
static LLVMValueRef window_value(Lower *l, int kind, LLVMValueRef n, LLVMValueRef m1) {
  const Type *f = TYS(TY_F64);
  LLVMBuilderRef b = l->b;
  LLVMValueRef pi = lo_fconst(l, f, M_PI), x = LLVMBuildFDiv(b, LLVMBuildFMul(b, pi, n, ""), m1, "");
  LLVMValueRef c = lo_libm(l, "cos", f, &x, 1);
  switch (kind) {
  case WIN_HANNING:
    return LLVMBuildFAdd(b, lo_fconst(l, f, 0.5), LLVMBuildFMul(b, lo_fconst(l, f, 0.5), c, ""), "");
  case WIN_HAMMING:
    return LLVMBuildFAdd(b, lo_fconst(l, f, 0.54), LLVMBuildFMul(b, lo_fconst(l, f, 0.46), c, ""), "");
  case WIN_BLACKMAN: {
    LLVMValueRef x2 = LLVMBuildFDiv(b, LLVMBuildFMul(b, lo_fconst(l, f, 2.0 * M_PI), n, ""), m1, "");
    LLVMValueRef c2 = lo_libm(l, "cos", f, &x2, 1);
    LLVMValueRef s = LLVMBuildFAdd(b, lo_fconst(l, f, 0.42), LLVMBuildFMul(b, lo_fconst(l, f, 0.5), c, ""), "");
    return LLVMBuildFAdd(b, s, LLVMBuildFMul(b, lo_fconst(l, f, 0.08), c2, ""), "");
  }
  default: {  /* bartlett: 1 + n/(M-1) up to the middle, 1 - n/(M-1) after */
    LLVMValueRef r = LLVMBuildFDiv(b, n, m1, "");
    LLVMValueRef rising = LLVMBuildFCmp(b, LLVMRealOLE, n, lo_fconst(l, f, 0), "");
    return LLVMBuildSelect(b, rising, LLVMBuildFAdd(b, lo_fconst(l, f, 1), r, ""), LLVMBuildFSub(b, lo_fconst(l, f, 1), r, ""), "");
  }
  }
}

/* M < 1: empty; M == 1: [1.0]; else M values of the window. */
static LLVMValueRef lo_window(Lower *l, Node *n) {
  const Type *f = TYS(TY_F64);
  LLVMBuilderRef b = l->b;
  LLVMValueRef m = lo_expr_as(l, n->list.items[0], TYS(TY_I64));
  LLVMValueRef count = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, m, const_i64(l, 0), ""), const_i64(l, 0), m, "");
  LLVMValueRef a = lo_alloc_array(l, n->ty, &count, -1);
  LLVMValueRef data = LLVMBuildExtractValue(b, a, 2, "");
  LLVMValueRef mf = lo_convert(l, m, TYS(TY_I64), f), m1 = LLVMBuildFSub(b, mf, lo_fconst(l, f, 1), "");
  LLVMValueRef one = LLVMBuildICmp(b, LLVMIntEQ, m, const_i64(l, 1), "");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "window");
  LLVMValueRef k = lo_convert(l, loop.index, TYS(TY_I64), f);
  LLVMValueRef nk = LLVMBuildFAdd(b, LLVMBuildFSub(b, lo_fconst(l, f, 1), mf, ""), LLVMBuildFMul(b, lo_fconst(l, f, 2), k, ""), "");
  LLVMValueRef v = LLVMBuildSelect(b, one, lo_fconst(l, f, 1), window_value(l, (int)n->bi->ival, nk, m1), "");
  lo_store_scalar(l, f, LLVMBuildGEP2(b, lo_storage_type(l, f), data, &loop.index, 1, ""), v);
  lo_loop_end(l, &loop);
  return a;
}

/* numpy.kaiser(M, beta): i0(beta*sqrt(1 - ((n - alpha)/alpha)**2))/i0(beta)
 * for n in 0..M-1, alpha = (M - 1)/2, NumPy's expressions in float64 with
 * its i0 (rt_i0); M == 1: [1.0]; M < 1: empty. */
static const Type *ty_kaiser(Infer *in, Node *n, const Type **args) {
  if (!ty_window(in, n, args)) return NULL;
  if (!ty_is_int(args[1]) && !ty_is_float(args[1]) && args[1]->kind != TY_BOOL)
    return ty_error(in, n->list.items[1], "numpy.kaiser() takes an int or float beta, got %s", args[1]->name);
  return ty_array(TYS(TY_F64), 1, 'C', false);
}

static LLVMValueRef i0(Lower *l, LLVMValueRef x) {
  return lo_call_fn(l, "rt_i0", l->mod->f64, &l->mod->f64, &x, 1);
}

static LLVMValueRef lo_kaiser(Lower *l, Node *n) {
  const Type *f = TYS(TY_F64);
  LLVMBuilderRef b = l->b;
  LLVMValueRef m = lo_expr_as(l, n->list.items[0], TYS(TY_I64)), beta = lo_expr_as(l, n->list.items[1], f);
  LLVMValueRef count = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, m, const_i64(l, 0), ""), const_i64(l, 0), m, "");
  LLVMValueRef a = lo_alloc_array(l, n->ty, &count, -1);
  LLVMValueRef data = LLVMBuildExtractValue(b, a, 2, "");
  LLVMValueRef one = LLVMBuildICmp(b, LLVMIntEQ, m, const_i64(l, 1), ""), fone = lo_fconst(l, f, 1);
  LLVMValueRef alpha = LLVMBuildFDiv(b, LLVMBuildFSub(b, lo_convert(l, m, TYS(TY_I64), f), fone, ""), lo_fconst(l, f, 2), "");
  LLVMValueRef peak = i0(l, beta);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "kaiser");
  LLVMValueRef r = LLVMBuildFDiv(b, LLVMBuildFSub(b, lo_convert(l, loop.index, TYS(TY_I64), f), alpha, ""), alpha, "");
  LLVMValueRef root = LLVMBuildFSub(b, fone, LLVMBuildFMul(b, r, r, ""), "");
  root = lo_intrinsic1(l, "llvm.sqrt", f, root);
  LLVMValueRef v = LLVMBuildFDiv(b, i0(l, LLVMBuildFMul(b, beta, root, "")), peak, "");
  v = LLVMBuildSelect(b, one, fone, v, "");
  lo_store_scalar(l, f, LLVMBuildGEP2(b, lo_storage_type(l, f), data, &loop.index, 1, ""), v);
  lo_loop_end(l, &loop);
  return a;
}

/* ---------------------------------------------------------------- eye, identity */

static const char *const eye_kw[] = {"N", "M", "k", "dtype", "order", NULL};

/* numpy.eye(N, M=N, k=0, dtype=float64) (every one by keyword too) and numpy.identity(n, dtype=float64) */
static const Type *ty_eye(Infer *in, Node *n, const Type **args) {
  bool eye = n->bi->ival;
  Node *rows = eye ? np_arg(in, n, 0, "N") : n->list.items[0];
  if (!rows) return ty_failed(in) ? NULL : ty_error(in, n, "%s() missing required argument 'N'", n->bi->name);
  Node *sizes[3] = {rows, eye ? np_arg(in, n, 1, "M") : NULL, eye ? np_arg(in, n, 2, "k") : NULL};
  for (int i = 0; i < 3; i++)
    if (sizes[i] && !ty_is_int(sizes[i]->ty))
      return ty_error(in, sizes[i], "%s() needs ints for its sizes, got %s", n->bi->name, sizes[i]->ty->name);
  const Type *elem = np_dtype_arg(in, n, eye ? 3 : 1, TYS(TY_F64));
  char layout = elem && eye ? new_layout(in, n, 4, 2, NULL) : 'C';  /* (identity has no order) */
  return elem && layout ? ty_array(elem, 2, layout, false) : NULL;
}

static LLVMValueRef lo_eye(Lower *l, Node *n) {
  bool eye = n->bi->ival;
  Node *m_node = eye ? np_arg_node(n, 1, "M") : NULL, *k_node = eye ? np_arg_node(n, 2, "k") : NULL;
  LLVMValueRef shape[2];
  shape[0] = lo_expr_as(l, eye ? np_arg_node(n, 0, "N") : n->list.items[0], TYS(TY_I64));
  shape[1] = m_node ? lo_expr_as(l, m_node, TYS(TY_I64)) : shape[0];
  LLVMValueRef k = k_node ? lo_expr_as(l, k_node, TYS(TY_I64)) : const_i64(l, 0);
  LLVMValueRef a = lo_alloc_array(l, n->ty, shape, 0);
  /* the ones: rows i with 0 <= i + k < M */
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), shape[0], NULL, "eye");
  LLVMValueRef j = LLVMBuildAdd(l->b, loop.index, k, "");
  LLVMValueRef inside = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntSGE, j, const_i64(l, 0), ""),
                                     LLVMBuildICmp(l->b, LLVMIntSLT, j, shape[1], ""), "");
  LLVMBasicBlockRef put = new_block(l, "eye.one"), next = new_block(l, "eye.next");
  LLVMBuildCondBr(l->b, inside, put, next);
  position(l, put);
  LLVMValueRef idx[2] = {loop.index, j};
  lo_store_scalar(l, n->ty->elem, lo_element_addr(l, n->ty, a, idx), lo_convert(l, const_i64(l, 1), TYS(TY_I64), n->ty->elem));
  LLVMBuildBr(l->b, next);
  position(l, next);
  lo_loop_end(l, &loop);
  return a;
}

/* ---------------------------------------------------------------- indices */

static const char *const indices_kw[] = {"dtype", "sparse", NULL};

/* numpy.indices(dimensions, dtype=int): the grid of each dimension's
 * indices, stacked: shape (len(dimensions), *dimensions), C order */
static const Type *ty_np_indices(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0];
  Node *sparse = np_arg(in, n, 2, "sparse");
  bool ints = t->kind == TY_TUPLE;
  for (int i = 0; ints && i < t->nfields; i++) ints = ty_is_int(t->fields[i]);
  if (!ints) return ty_error(in, n->list.items[0], "%s()'s dimensions must be a tuple of ints, got %s", n->bi->name, t->name);
  if (t->nfields + 1 > RC_MAX_NDIM) return ty_error(in, n, "%s(): at most %d dimensions", n->bi->name, RC_MAX_NDIM - 1);
  if (sparse && (sparse->kind != N_BOOL || sparse->ival))
    return ty_error(in, sparse, "%s(): sparse=True is not supported in compiled code", n->bi->name);
  const Type *elem = np_dtype_arg(in, n, 1, TYS(TY_I64));
  return elem ? ty_array(elem, t->nfields + 1, 'C', false) : NULL;
}

typedef struct Indices {
  const Type *t;
  LLVMValueRef a;
  int axis;  /* the grid being filled: out[axis] */
} Indices;

/* out[axis, i0, i1, ...] = i_axis */
static void index_of_axis(Lower *l, LLVMValueRef *idx, void *arg) {
  Indices *x = arg;
  LLVMValueRef at[RC_MAX_NDIM];
  at[0] = const_i64(l, x->axis);
  for (int d = 1; d < x->t->ndim; d++) at[d] = idx[d - 1];
  LLVMValueRef v = lo_convert(l, idx[x->axis], TYS(TY_I64), x->t->elem);
  lo_store_scalar(l, x->t->elem, lo_element_addr(l, x->t, x->a, at), v);
}

static LLVMValueRef lo_np_indices(Lower *l, Node *n) {
  const Type *t = n->ty;
  int ndim = t->ndim - 1;
  LLVMValueRef shape[RC_MAX_NDIM];
  shape[0] = const_i64(l, ndim);
  lo_shape_arg(l, n->list.items[0], shape + 1);
  Indices x = {t, lo_alloc_array(l, t, shape, -1), 0};
  for (x.axis = 0; x.axis < ndim; x.axis++) lo_for_each_index(l, ndim, shape + 1, index_of_axis, &x);
  return x.a;
}

/* ---------------------------------------------------------------- array, asarray */

/* numpy.array's argument: a number, an array, or nested tuples (lists in
 * the source) of numbers, of arrays or of lists of numbers (galois'
 * np.array([roots, powers])), each level of one length. Fills
 * dims (the nesting's lengths) and the dtype NumPy gives the values
 * (promote_types of all of them: a Python number is not weak here). */
typedef struct Nested {
  int ndim;                /* the tuples' levels */
  int64_t dims[RC_MAX_NDIM];
  const Type *elem;        /* the values' promoted dtype */
  const Type *leaf;        /* the first leaf's type where the leaves are arrays or lists, or NULL for numbers */
  bool ragged;
} Nested;

/* The dimensions a leaf gives: an array's, 1 for a list of numbers (its
 * length known when it runs, as an array's shape), 0 for a number; -1 for
 * anything else. */
static int leaf_ndim(const Type *t) {
  if (is_array(t)) return t->ndim;
  if (t->kind == TY_LIST) return t->elem && ty_is_scalar(t->elem) ? 1 : -1;
  return ty_is_scalar(t) ? 0 : -1;
}

static bool is_sequence_leaf(const Type *t) { return is_array(t) || t->kind == TY_LIST; }

static void nested_leaves(Nested *s, const Type *t, int depth) {
  if (t->kind == TY_TUPLE) {
    if (depth >= s->ndim || depth >= RC_MAX_NDIM || s->dims[depth] != t->nfields) {
      s->ragged = true;
      return;
    }
    for (int i = 0; i < t->nfields; i++) nested_leaves(s, t->fields[i], depth + 1);
    return;
  }
  int nd = leaf_ndim(t);
  if (depth != s->ndim || nd < 0 || (is_sequence_leaf(t) ? !s->leaf || leaf_ndim(s->leaf) != nd : s->leaf != NULL)) {
    s->ragged = true;
    return;
  }
  const Type *e = is_sequence_leaf(t) ? t->elem : t;
  s->elem = s->elem ? np_promote(s->elem, e) : e;
}

static Nested nested_shape(const Type *t) {
  Nested s = {0};
  const Type *first = t;
  while (first->kind == TY_TUPLE && s.ndim < RC_MAX_NDIM) {
    s.dims[s.ndim++] = first->nfields;
    if (!first->nfields) break;
    first = first->fields[0];
  }
  if (first->kind == TY_TUPLE && first->nfields) s.ragged = true;
  if (is_sequence_leaf(first)) s.leaf = first;
  nested_leaves(&s, t, 0);
  if (!s.elem) s.elem = TYS(TY_F64);  /* numpy.array(()) */
  return s;
}

/* The numbers each item of a list of type t has (a tuple's fields, of
 * one dtype promoted into *elem; none for empty tuples, float64 as
 * numpy.array([(), ()]) gives); 1 for numbers; -1 for other items. */
static int list_row(const Type *t, const Type **elem) {
  const Type *item = t->elem;
  if (item && ty_is_scalar(item)) {
    *elem = item;
    return 1;
  }
  if (!item || item->kind != TY_TUPLE) return -1;
  if (!item->nfields) *elem = TYS(TY_F64);
  for (int i = 0; i < item->nfields; i++) {
    if (!ty_is_scalar(item->fields[i])) return -1;
    *elem = i ? np_promote(*elem, item->fields[i]) : item->fields[i];
  }
  return item->nfields;
}

/* The dimensions numpy.array gives a list of type t: one per level of
 * lists of lists, and one or two for the innermost's numbers or tuples of
 * numbers (their dtype promoted into *elem); -1 for other items. */
static int list_ndim(const Type *t, const Type **elem) {
  if (t->elem && t->elem->kind == TY_LIST) {
    int nd = list_ndim(t->elem, elem);
    return nd < 0 || nd >= RC_MAX_NDIM ? -1 : nd + 1;
  }
  if (list_row(t, elem) < 0) return -1;
  return t->elem->kind == TY_TUPLE ? 2 : 1;
}

/* numpy.array(a list): of numbers 1-d, of tuples of numbers 2-d, of lists
 * of them one more per level, as Numba's of a reflected list; of arrays of
 * one shape, stacked (one more dimension, as numpy.stack; every length 0
 * for an empty one, as for empty lists of lists) */
static const Type *ty_array_of_list(Infer *in, Node *n, const Type *t) {
  const Type *row = NULL;
  if (!ty_list_item(in, n, t)) return NULL;  /* an empty list's items: typed by a later append, or the error */
  if (is_array(t->elem) && ty_is_scalar(t->elem->elem) && t->elem->ndim < RC_MAX_NDIM) {
    const Type *elem = np_dtype_arg(in, n, 1, t->elem->elem);
    return elem ? ty_array(elem, t->elem->ndim + 1, 'C', false) : NULL;
  }
  int ndim = list_ndim(t, &row);
  if (ndim < 0)
    return ty_error(in, n, "%s() of a list needs one of numbers, of tuples of numbers, of arrays or of lists of them, "
                    "got %s", n->bi->name, t->name);
  const Type *elem = np_dtype_arg(in, n, 1, row);
  return elem ? ty_array(elem, ndim, 'C', false) : NULL;
}

/* Whether t is a str or bytes, or a tuple or list holding one. */
static bool holds_text(const Type *t) {
  if (!t) return false;
  if (t->kind == TY_STR || t->kind == TY_BYTES || ty_is_fixed_text(t)) return true;
  if (t->kind == TY_LIST) return holds_text(t->elem);
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (holds_text(t->fields[i])) return true;
  return false;
}

/* numpy.array(object, dtype=None): always a new array */
static const Type *ty_array_of(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0];
  if (holds_text(t))  /* (Numba has no numpy.array of strs either) */
    return ty_error(in, n, "%s() of %s: arrays of strs or bytes are not made from str or bytes values in compiled "
                    "code: make one with numpy.empty(n, 'U5') (or numpy.zeros; 'S5' for bytes) and assign its items, "
                    "or pass it in", n->bi->name, t->name);
  if (is_array(t)) {
    const Type *elem = np_dtype_arg(in, n, 1, t->elem);
    return elem ? ty_array(elem, t->ndim, np_like_layout(t), false) : NULL;
  }
  if (t->kind == TY_LIST) return ty_array_of_list(in, n, t);
  if (!ty_is_scalar(t) && t->kind != TY_TUPLE)
    return ty_error(in, n, "%s() needs numbers, arrays or tuples or lists of them, got %s", n->bi->name, t->name);
  Nested s = nested_shape(t);
  int ndim = s.ndim + (s.leaf ? leaf_ndim(s.leaf) : 0);
  if (s.ragged || ndim > RC_MAX_NDIM)
    return ty_error(in, n, "%s(): the sequence %s has an inhomogeneous shape (each level must hold elements of "
                    "one length, all numbers or all arrays of one number of dimensions)", n->bi->name, t->name);
  const Type *elem = np_dtype_arg(in, n, 1, s.elem);
  return elem ? ty_array(elem, ndim, 'C', false) : NULL;
}

/* The characters (code points) of UTF-8 text of size bytes. */
static int code_points(const char *text, int64_t size) {
  int count = 0;
  for (int64_t i = 0; i < size; i++) count += ((unsigned char)text[i] & 0xC0) != 0x80;
  return count;
}

/* numpy.asarray(s) of a str known when the function is compiled: a 0-d
 * array of it, of NumPy's dtype '<Un' (n its characters, at least 1), as
 * Numba's of a string literal; NULL for any other argument. */
static const Type *text_constant_array(Infer *in, Node *n, const Type *t) {
  const Node *c = t->kind == TY_STR && n->list.len == 1 && !ty_kwarg(n, "dtype") ? ty_constant(in, n->list.items[0]) : NULL;
  if (!c || c->kind != N_STRING) return NULL;
  int chars = code_points(c->str, c->ival);
  return ty_array(ty_charseq(chars ? chars : 1), 0, 'C', false);
}

/* numpy.asarray(a, dtype=None): a itself when it is an array of that dtype */
static const Type *ty_asarray(Infer *in, Node *n, const Type **args) {
  if (is_array(args[0]) && np_dtype_arg(in, n, 1, args[0]->elem) == args[0]->elem) return args[0];
  if (text_constant_array(in, n, args[0])) return text_constant_array(in, n, args[0]);
  if (ty_no_allocation(in)) return ty_error(in, n, "kernels cannot allocate arrays: %s() here would", n->bi->name);
  return ty_array_of(in, n, args);
}

typedef struct Fill {
  const Type *to;          /* the new array */
  LLVMValueRef out;
  LLVMValueRef leaf_shape[RC_MAX_NDIM]; /* the first array leaf's shape */
  LLVMValueRef bad;        /* an array leaf's shape differs from the first's */
  int64_t at;              /* the next leaf's place, in leaves */
} Fill;

/* Calls leaf for each leaf of the nested tuple v of type t, in C order. */
static void each_leaf(Lower *l, Fill *f, const Type *t, LLVMValueRef v,
                      void (*leaf)(Lower *l, Fill *f, const Type *t, LLVMValueRef v)) {
  if (t->kind != TY_TUPLE) {
    leaf(l, f, t, v);
    return;
  }
  for (int i = 0; i < t->nfields; i++) each_leaf(l, f, t->fields[i], LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), leaf);
}

static LLVMValueRef leaf_length(Lower *l, const Type *t, LLVMValueRef v, int d) {
  return t->kind == TY_LIST ? lo_list_len(l, v) : lo_arr_shape(l, v, d);
}

static void check_leaf(Lower *l, Fill *f, const Type *t, LLVMValueRef v) {
  for (int d = 0; d < leaf_ndim(t); d++) {
    if (!f->leaf_shape[d]) f->leaf_shape[d] = leaf_length(l, t, v, d);
    f->bad = LLVMBuildOr(l->b, f->bad, LLVMBuildICmp(l->b, LLVMIntNE, leaf_length(l, t, v, d), f->leaf_shape[d], ""), "");
  }
}

/* A list's numbers into the row of its place. */
static void store_list_leaf(Lower *l, Fill *f, const Type *t, LLVMValueRef v) {
  const Type *e = f->to->elem;
  LLVMValueRef data = LLVMBuildExtractValue(l->b, f->out, 2, "");
  LLVMValueRef first = LLVMBuildMul(l->b, const_i64(l, f->at++), f->leaf_shape[0], "");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), f->leaf_shape[0], NULL, "array.list_leaf");
  LLVMValueRef item = lo_load_scalar(l, t->elem, lo_list_item_addr(l, t->elem, v, loop.index));
  LLVMValueRef at = LLVMBuildAdd(l->b, first, loop.index, "");
  lo_store_scalar(l, e, LLVMBuildGEP2(l->b, lo_storage_type(l, e), data, &at, 1, ""), lo_convert(l, item, t->elem, e));
  lo_loop_end(l, &loop);
}

/* A number stored at its place, or an array copied into its block. */
static void store_leaf(Lower *l, Fill *f, const Type *t, LLVMValueRef v) {
  const Type *e = f->to->elem;
  if (t->kind == TY_LIST) {
    store_list_leaf(l, f, t, v);
    return;
  }
  LLVMValueRef data = LLVMBuildExtractValue(l->b, f->out, 2, "");
  if (!is_array(t)) {
    LLVMValueRef at = const_i64(l, f->at++);
    lo_store_scalar(l, e, LLVMBuildGEP2(l->b, lo_storage_type(l, e), data, &at, 1, ""), lo_convert(l, v, t, e));
    return;
  }
  LLVMValueRef count = const_i64(l, 1), strides[RC_MAX_NDIM];
  for (int d = t->ndim - 1; d >= 0; d--) {
    strides[d] = LLVMBuildMul(l->b, count, const_i64(l, ty_bits(e) / 8), "");
    count = LLVMBuildMul(l->b, count, f->leaf_shape[d], "");
  }
  LLVMValueRef first = LLVMBuildMul(l->b, const_i64(l, f->at++), count, "");
  const Type *bt = ty_array(e, t->ndim, 'A', false);
  LLVMValueRef block = np_view(l, bt, f->out, LLVMBuildGEP2(l->b, lo_storage_type(l, e), data, &first, 1, ""),
                               f->leaf_shape, strides);
  lo_copy_elements(l, bt, block, t, v);
}

/* A list's items, each a number or a tuple of numbers, in the rows of a new array. */
static LLVMValueRef lo_array_of_list(Lower *l, Node *n, Node *arg) {
  const Type *item = arg->ty->elem, *e = n->ty->elem, *row = NULL;
  int k = list_row(arg->ty, &row);
  LLVMValueRef lst = lo_expr(l, arg);
  LLVMValueRef len = lo_list_len(l, lst), shape[2] = {len, const_i64(l, k)};
  LLVMValueRef out = lo_alloc_array(l, n->ty, shape, -1);
  LLVMValueRef data = LLVMBuildExtractValue(l->b, out, 2, "");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), len, NULL, "array.list");
  LLVMValueRef from = lo_list_item_addr(l, item, lst, loop.index);
  for (int j = 0; j < k; j++) {
    const Type *f = item->kind == TY_TUPLE ? item->fields[j] : item;
    LLVMValueRef field = item->kind == TY_TUPLE ? LLVMBuildGEP2(l->b, l->mod->i8, from, (LLVMValueRef[]){const_i64(l, (int64_t)item->offsets[j])}, 1, "") : from;
    LLVMValueRef at = LLVMBuildAdd(l->b, LLVMBuildMul(l->b, loop.index, const_i64(l, k), ""), const_i64(l, j), "");
    LLVMValueRef to = LLVMBuildGEP2(l->b, lo_storage_type(l, e), data, &at, 1, "");
    lo_store_scalar(l, e, to, lo_convert(l, lo_load_scalar(l, f, field), f, e));
  }
  lo_loop_end(l, &loop);
  lo_done_with(l, arg, lst);
  return out;
}

/* Lists of lists into an array: a first walk takes each level's length
 * (the first list met at a depth sets it, the others must match it), a
 * second stores the numbers in C order. */
typedef struct NestedList {
  const Type *e;                      /* the new array's dtype */
  LLVMValueRef len[RC_MAX_NDIM];      /* i64 allocas: a level's length, -1 until a list there is met */
  LLVMValueRef at;                    /* i64 alloca: the next number's flat place */
  LLVMValueRef data;                  /* the new array's data; NULL in the first walk */
} NestedList;

static void store_number(Lower *l, NestedList *f, const Type *t, LLVMValueRef addr) {
  LLVMValueRef at = LLVMBuildLoad2(l->b, l->mod->i64, f->at, "");
  lo_store_scalar(l, f->e, LLVMBuildGEP2(l->b, lo_storage_type(l, f->e), f->data, &at, 1, ""),
                  lo_convert(l, lo_load_scalar(l, t, addr), t, f->e));
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, at, const_i64(l, 1), ""), f->at);
}

static void walk_nested_list(Lower *l, NestedList *f, const Type *t, LLVMValueRef lst, int depth) {
  LLVMValueRef n = lo_list_len(l, lst);
  if (!f->data) {
    LLVMValueRef seen = LLVMBuildLoad2(l->b, l->mod->i64, f->len[depth], "");
    LLVMValueRef bad = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntSGE, seen, const_i64(l, 0), ""),
                                    LLVMBuildICmp(l->b, LLVMIntNE, seen, n, ""), "");
    lo_raise_if(l, bad, RT_ERR_VALUE, "setting an array element with a sequence: the lists have different lengths");
    LLVMBuildStore(l->b, n, f->len[depth]);
    if (t->elem->kind != TY_LIST) return;
  }
  const Type *item = t->elem;
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), n, NULL, "array.nested_list");
  LLVMValueRef addr = lo_list_item_addr(l, item, lst, loop.index);
  if (item->kind == TY_LIST)
    walk_nested_list(l, f, item, lo_load_storage(l, item, addr), depth + 1);
  else if (item->kind == TY_TUPLE)
    for (int j = 0; j < item->nfields; j++)
      store_number(l, f, item->fields[j], LLVMBuildGEP2(l->b, l->mod->i8, addr, (LLVMValueRef[]){const_i64(l, (int64_t)item->offsets[j])}, 1, ""));
  else
    store_number(l, f, item, addr);
  lo_loop_end(l, &loop);
}

static LLVMValueRef lo_array_of_nested_list(Lower *l, Node *n, Node *arg) {
  NestedList f = {.e = n->ty->elem, .at = lo_alloca(l, l->mod->i64, "array.at")};
  const Type *innermost = arg->ty;
  int levels = 0;
  for (; innermost->kind == TY_LIST; innermost = innermost->elem) {
    f.len[levels] = lo_alloca(l, l->mod->i64, "array.level_len");
    LLVMBuildStore(l->b, const_i64(l, -1), f.len[levels++]);
  }
  LLVMValueRef lst = lo_expr(l, arg), shape[RC_MAX_NDIM];
  walk_nested_list(l, &f, arg->ty, lst, 0);
  for (int d = 0; d < levels; d++) {  /* a level below empty lists only is empty */
    LLVMValueRef len = LLVMBuildLoad2(l->b, l->mod->i64, f.len[d], "");
    shape[d] = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, len, const_i64(l, 0), ""), const_i64(l, 0), len, "");
  }
  if (innermost->kind == TY_TUPLE) shape[levels] = const_i64(l, innermost->nfields);
  LLVMValueRef out = lo_alloc_array(l, n->ty, shape, -1);
  f.data = LLVMBuildExtractValue(l->b, out, 2, "");
  LLVMBuildStore(l->b, const_i64(l, 0), f.at);
  walk_nested_list(l, &f, arg->ty, lst, 0);
  lo_done_with(l, arg, lst);
  return out;
}

/* A 0-d array holding str x (text_constant_array's). */
static LLVMValueRef lo_text_array(Lower *l, Node *n, Node *x) {
  LLVMValueRef v = lo_expr(l, x), out = lo_alloc_array(l, n->ty, NULL, -1);
  lo_text_write(l, n->ty->elem, LLVMBuildExtractValue(l->b, out, 2, ""), v);
  lo_done_with(l, x, v);
  return out;
}

static LLVMValueRef lo_array_of(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  if (t->kind == TY_STR) return lo_text_array(l, n, arg);
  if (t->kind == TY_LIST && is_array(t->elem)) return np_stack_list(l, n->ty, arg);
  if (t->kind == TY_LIST) return t->elem->kind == TY_LIST ? lo_array_of_nested_list(l, n, arg) : lo_array_of_list(l, n, arg);
  if (is_array(t) && t == n->ty && !n->bi->ival) return lo_owned(l, arg);  /* asarray of an array */
  LLVMValueRef v = lo_expr(l, arg);
  if (is_array(t)) {
    LLVMValueRef r = lo_copy_array(l, n->ty, t, v);
    lo_done_with(l, arg, v);
    return r;
  }
  Nested s = nested_shape(t);
  Fill f = {.to = n->ty, .bad = const_bool(l, false)};
  LLVMValueRef shape[RC_MAX_NDIM];
  for (int d = 0; d < s.ndim; d++) shape[d] = const_i64(l, s.dims[d]);
  if (s.leaf) {
    each_leaf(l, &f, t, v, check_leaf);
    lo_raise_if(l, f.bad, RT_ERR_VALUE, "setting an array element with a sequence: the arrays have different shapes");
    for (int d = 0; d < leaf_ndim(s.leaf); d++) shape[s.ndim + d] = f.leaf_shape[d];
  }
  f.out = lo_alloc_array(l, n->ty, shape, -1);
  each_leaf(l, &f, t, v, store_leaf);
  lo_done_with(l, arg, v);
  return f.out;
}

/* numpy.asarray_chkfinite(a, dtype=None): asarray's array, with NumPy's
 * ValueError where an element (a part of a complex one) is NaN or infinite */
typedef struct Finite {
  const Type *t;
  LLVMValueRef a, bad;
} Finite;

static void note_nonfinite(Lower *l, LLVMValueRef *idx, void *arg) {
  Finite *c = arg;
  const Type *e = c->t->elem, *pt = lo_complex_part(e);
  LLVMValueRef v = lo_load_scalar(l, e, lo_element_addr(l, c->t, c->a, idx)), bad = LLVMBuildLoad2(l->b, l->mod->i1, c->bad, "");
  LLVMValueRef inf = LLVMConstReal(lo_type(l, pt), INFINITY);
  for (unsigned k = 0; k < (ty_is_complex(e) ? 2u : 1u); k++) {
    LLVMValueRef x = ty_is_complex(e) ? LLVMBuildExtractValue(l->b, v, k, "") : v;
    bad = LLVMBuildOr(l->b, bad, LLVMBuildFCmp(l->b, LLVMRealUEQ, lo_intrinsic1(l, "llvm.fabs", pt, x), inf, ""), "");
  }
  LLVMBuildStore(l->b, bad, c->bad);
}

static LLVMValueRef lo_asarray_chkfinite(Lower *l, Node *n) {
  LLVMValueRef r = lo_array_of(l, n), shape[RC_MAX_NDIM];
  const Type *t = n->ty;
  if (!ty_is_float(t->elem) && !ty_is_complex(t->elem)) return r;
  Finite c = {t, r, lo_alloca(l, l->mod->i1, "nonfinite")};
  LLVMBuildStore(l->b, const_bool(l, false), c.bad);
  for (int d = 0; d < t->ndim; d++) shape[d] = lo_arr_shape(l, r, d);
  lo_temp_made(l, t, r);
  lo_for_each_index(l, t->ndim, shape, note_nonfinite, &c);
  lo_raise_if(l, LLVMBuildLoad2(l->b, l->mod->i1, c.bad, ""), RT_ERR_VALUE, "array must not contain infs or NaNs");
  lo_temp_taken(l, r);
  return r;
}

/* ---------------------------------------------------------------- copies */

/* numpy.copy(a) keeps a Fortran array's order (order='K'); a.copy() is C
 * (order='C'). numpy.copy of a number is a 0-d array of it. */
static const Type *ty_copy(Infer *in, Node *n, const Type **args) {
  if (ty_is_scalar(args[0]) && !ty_is_time(args[0])) args[0] = ty_wrap_call(in, n->list.items[0], "numpy.asarray");
  if (!(args[0] = ty_arraylike(in, n->list.items[0], args[0])) || !need_array(in, n, args[0])) return NULL;
  return ty_array(args[0]->elem, args[0]->ndim, n->bi->kind == BK_METHOD ? 'C' : np_like_layout(args[0]), false);
}

/* numpy.ascontiguousarray(a, dtype=None) and numpy.asfortranarray(a,
 * dtype=None): a itself if contiguous in the row's order ('C' or 'F', its
 * ival; at run time) and of that dtype, else a copy in that order; at
 * least 1-d. A copy is writable, a itself keeps its read-only flag. */
static const Type *ty_ascontiguous(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0];
  if (ty_no_allocation(in)) return ty_error(in, n, "kernels cannot allocate arrays: %s() may copy", n->bi->name);
  if (!is_array(t) && !ty_is_scalar(t)) return ty_error(in, n, "%s() needs an array or a number, got %s", n->bi->name, t->name);
  const Type *elem = np_dtype_arg(in, n, 1, is_array(t) ? t->elem : t);
  if (!elem) return NULL;
  bool readonly = is_array(t) && t->readonly && elem == t->elem && !np_copies_read_only(t, (char)n->bi->ival);
  return ty_array(elem, is_array(t) && t->ndim ? t->ndim : 1, (char)n->bi->ival, readonly);
}

static LLVMValueRef lo_ascontiguous(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty, *ct = n->ty;
  LLVMValueRef v = lo_expr(l, arg), r, one = const_i64(l, 1);
  if (is_array(t) && !t->ndim && t->elem == ct->elem) {  /* a 0-d array: seen as 1-d, as NumPy's */
    LLVMValueRef stride = const_i64(l, ty_bits(t->elem) / 8);
    r = np_owned_view(l, ct, v, LLVMBuildExtractValue(l->b, v, 2, ""), &one, &stride);
  } else if (!is_array(t) || !t->ndim) {  /* a number, or a 0-d array of another dtype: 1 element */
    LLVMValueRef x = is_array(t) ? lo_load_scalar(l, t->elem, LLVMBuildExtractValue(l->b, v, 2, "")) : v;
    r = lo_alloc_array(l, ct, &one, -1);
    lo_store_scalar(l, ct->elem, LLVMBuildExtractValue(l->b, r, 2, ""), lo_convert(l, x, is_array(t) ? t->elem : t, ct->elem));
  } else if (t->elem != ct->elem || np_copies_read_only(t, ct->layout)) {
    r = lo_copy_array(l, ct, t, v);
  } else {
    r = np_as_contiguous(l, t, v, (char)n->bi->ival);
  }
  lo_done_with(l, arg, v);
  return r;
}

/* numpy.dtype(x): the dtype x names, as an argument of the functions that take one */
static const Type *ty_dtype_call(Infer *in, Node *n, const Type **args) {
  if (!ty_is_numpy_dtype(args[0]))
    return ty_error(in, n, "numpy.dtype() needs a dtype's name or a scalar type known at compile time, got %s", args[0]->name);
  return args[0];
}

static LLVMValueRef lo_no_value(Lower *l, Node *n) { return LLVMGetUndef(l->mod->i8); }

/* ---------------------------------------------------------------- attributes */

static const Type *ty_shape(Infer *in, Node *n, const Type **args) {
  const Type *f[RC_MAX_NDIM];
  for (int i = 0; i < args[0]->ndim; i++) f[i] = TYS(TY_I64);
  return ty_tuple(args[0]->ndim, f);
}

/* a.shape: its lengths with the sign bit cleared, which no length has,
 * so that LLVM knows them not negative: `k % a.shape[0]` for a k it knows
 * is not negative is then an unsigned remainder, without Python's sign
 * fix nor the wrap-around of a negative index (a row picked per call in
 * a loop). The mask is computed once, out of the loop. */
static LLVMValueRef lo_shape(Lower *l, Node *n) {
  LLVMValueRef a = lo_expr(l, n->lhs), r = LLVMGetUndef(lo_type(l, n->ty));
  for (int d = 0; d < n->lhs->ty->ndim; d++) {
    LLVMValueRef len = LLVMBuildAnd(l->b, lo_arr_shape(l, a, d), const_i64(l, INT64_MAX), "");
    r = LLVMBuildInsertValue(l->b, r, len, (unsigned)d, "");
  }
  lo_done_with(l, n->lhs, a);
  return r;
}

/* numpy.shape(x): an array's a.shape, a number's () */
static const Type *ty_shape_of(Infer *in, Node *n, const Type **args) {
  if (is_array(args[0])) return ty_shape(in, n, args);
  if (ty_is_scalar(args[0]) || ty_is_complex(args[0])) return ty_tuple(0, NULL);
  return ty_error(in, n, "%s() needs an array or a number, got %s", n->bi->name, args[0]->name);
}

static LLVMValueRef lo_shape_of(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef v = lo_expr(l, x), r = LLVMGetUndef(lo_type(l, n->ty));
  for (int d = 0; d < ndim_of(x->ty); d++) r = LLVMBuildInsertValue(l->b, r, lo_arr_shape(l, v, d), (unsigned)d, "");
  lo_done_with(l, x, v);
  return r;
}

/* numpy.ndim(x) and numpy.size(x, axis=None): an array's a.ndim and a.size
 * (a.shape[axis] with an axis), a number's 0 and 1 */
static const char *const axis_kw[] = {"axis", NULL};

static const Type *ty_size_of(Infer *in, Node *n, const Type **args) {
  Node *axis = bi_arg(n, 1, "axis");
  if (!is_array(args[0]) && !ty_is_scalar(args[0]) && !ty_is_complex(args[0]))
    return ty_error(in, n, "%s() needs an array or a number, got %s", n->bi->name, args[0]->name);
  if (axis && axis->ty->kind != TY_NONE && !ty_is_int(axis->ty))
    return ty_error(in, axis, "%s(): axis must be an int, got %s", n->bi->name, axis->ty->name);
  return TYS(TY_I64);
}

static LLVMValueRef lo_ndim_of(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  lo_done_with(l, x, lo_expr(l, x));
  return const_i64(l, ndim_of(x->ty));
}

static LLVMValueRef lo_size_of(Lower *l, Node *n) {
  Node *x = n->list.items[0], *axis = bi_arg(n, 1, "axis");
  LLVMValueRef v = lo_expr(l, x), r = const_i64(l, 1);
  int ndim = ndim_of(x->ty);
  if (axis && axis->ty->kind != TY_NONE) {
    LLVMValueRef k = np_axis_value(l, lo_expr_as(l, axis, TYS(TY_I64)), ndim);
    for (int d = 0; d < ndim; d++)
      r = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, k, const_i64(l, d), ""), lo_arr_shape(l, v, d), r, "");
  } else {
    for (int d = 0; d < ndim; d++) r = LLVMBuildMul(l->b, r, lo_arr_shape(l, v, d), "");
  }
  lo_done_with(l, x, v);
  return r;
}

/* numpy.isscalar, iscomplexobj, isrealobj: answered by the argument's type
 * (None's too: not a scalar, real); an Optional's by its value's type where
 * it holds one, by None's where not, as NumPy answers the value it holds. */
enum { IS_SCALAR, IS_COMPLEX_OBJ, IS_REAL_OBJ };

static const Type *ty_type_question(Infer *in, Node *n, const Type **args) {
  Node **x = &n->list.items[0];
  if ((*x)->kind == N_UNWRAP && (*x)->lhs->ty->kind == TY_OPTIONAL) {
    *x = (*x)->lhs;  /* an Optional read as it is: None is no TypeError here */
  } else if ((*x)->kind == N_VAR) {
    const Type *held = ty_maybe_none(in, *x);
    if (!held) return NULL;
    if (held->kind != TY_OPTIONAL) (*x)->ty = args[0];  /* as its value (an IntEnum member's int) */
  }
  return TYS(TY_BOOL);
}

static bool type_answer(int question, const Type *t) {
  const Type *e = is_array(t) ? t->elem : t;
  switch (question) {
  case IS_SCALAR: return ty_is_scalar(t) || ty_is_complex(t) || ty_is_time(t) || t->kind == TY_STR;
  case IS_COMPLEX_OBJ: return ty_is_complex(e);
  default: return !ty_is_complex(e);
  }
}

static LLVMValueRef lo_type_question(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef v = lo_expr(l, x);
  const Type *t = x->ty;
  int q = n->bi->ival;
  if (t->kind != TY_OPTIONAL) {
    lo_done_with(l, x, v);
    return const_bool(l, type_answer(q, t));
  }
  LLVMValueRef held = LLVMBuildExtractValue(l->b, v, 1, "");
  lo_done_with(l, x, v);
  return LLVMBuildSelect(l->b, held, const_bool(l, type_answer(q, t->elem)), const_bool(l, type_answer(q, TYS(TY_NONE))), "");
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

/* dtype.type: the scalar type (numpy.float64 for float64's dtype), which
 * a type here is the same as its dtype: callable as the type is (dtype.type(0)) */
static const Type *ty_dtype_type(Infer *in, Node *n, const Type **args) {
  if (!ty_is_numpy_dtype(args[0]))
    return ty_error(in, n, "%s.type is known in compiled code for a number's or a bool's dtype only", args[0]->name);
  return args[0];
}

/* NumPy's one-letter kind of a dtype's element type (numpy.dtype.kind). */
static char dtype_kind(const Type *e) {
  if (e->kind == TY_BOOL) return 'b';
  if (e->kind == TY_DATETIME) return 'M';
  if (e->kind == TY_TIMEDELTA) return 'm';
  if (e->kind == TY_RECORD) return 'V';
  if (e->kind == TY_CHARSEQ) return 'U';
  if (e->kind == TY_BYTESEQ) return 'S';
  return ty_is_complex(e) ? 'c' : ty_is_float(e) ? 'f' : ty_is_signed(e) ? 'i' : 'u';
}

/* dtype.kind ('f', 'i', 'u'...): a str known from the type, as Numba's StringLiteral */
static const Type *ty_dtype_kind(Infer *in, Node *n, const Type **args) {
  if (!ty_is_numpy_dtype(args[0]))
    return ty_error(in, n, "%s.kind is known in compiled code for a NumPy dtype only", args[0]->name);
  return TYS(TY_STR);
}

static LLVMValueRef lo_dtype_kind(Lower *l, Node *n) {
  char kind[2] = {dtype_kind(n->lhs->ty->elem), 0};
  return lo_str_constant(l, &(Node){.kind = N_STRING, .str = kind, .ival = 1});
}

/* a.dtype.type(v) of a '<Un' or '|Sn' dtype: numpy.str_ or numpy.bytes_ of a str or bytes (a 0-d array's element),
 * which is that value whatever the dtype's width, as Numba's str and bytes are NumPy's */
static const Type *ty_text_type_call(Infer *in, Node *n, const Type *dtype, const Type *v) {
  TypeKind want = dtype->elem->kind == TY_CHARSEQ ? TY_STR : TY_BYTES;
  if (v->kind != want)
    return ty_error(in, n, "%s.type() takes a %s or a 0-d array of them in compiled code, got %s", dtype->name,
                    want == TY_STR ? "str" : "bytes", v->name);
  return v;
}

/* a.dtype.type(v): v as that scalar type, as numpy.float64(v) (a 0-d v: its element) */
static const Type *ty_dtype_type_call(Infer *in, Node *n, const Type **args) {
  if (!ty_dtype_type(in, n, args)) return NULL;
  const Type *v = ty_scalar_of_0d(in, n->list.items[1], args[1]);
  if (v && ty_is_fixed_text(args[0]->elem)) return ty_text_type_call(in, n, args[0], v);
  if (v && ty_is_complex(v) && !ty_is_complex(args[0]->elem))
    return ty_error(in, n, "cannot convert %s to %s: take its .real or abs()", v->name, args[0]->elem->name);
  if (v && (ty_is_time(v) || ty_is_time(args[0]->elem)) && v != args[0]->elem)
    return ty_error(in, n, "cannot convert %s to %s in compiled code: datetimes keep their own type", v->name,
                    args[0]->elem->name);
  return v && ty_need_scalar(in, n, v, "conversion") ? args[0]->elem : NULL;
}

/* (a str or bytes, for a text dtype: the call's own reference to it, as any call's result is) */
static LLVMValueRef lo_dtype_type_call(Lower *l, Node *n) {
  return ty_has_arrays(n->ty) ? lo_owned(l, n->list.items[1]) : lo_expr_as(l, n->list.items[1], n->ty);
}

/* dtype.itemsize and array.itemsize: the bytes of one element */
static LLVMValueRef lo_itemsize(Lower *l, Node *n) { return const_i64(l, ty_bits(n->lhs->ty->elem) / 8); }

static LLVMValueRef lo_nbytes(Lower *l, Node *n) {
  return LLVMBuildMul(l->b, lo_size(l, n), const_i64(l, ty_bits(n->lhs->ty->elem) / 8), "");
}

/* a.strides: in bytes, as the array holds them (every array value has
 * them filled, as boxing reads them: a zero-size array's may be NumPy's 0) */
static LLVMValueRef lo_strides(Lower *l, Node *n) {
  LLVMValueRef a = lo_expr(l, n->lhs), r = LLVMGetUndef(lo_type(l, n->ty));
  for (int d = 0; d < n->lhs->ty->ndim; d++)
    r = LLVMBuildInsertValue(l->b, r, lo_arr_field(l, a, 4, (unsigned)d), (unsigned)d, "");
  lo_done_with(l, n->lhs, a);
  return r;
}

/* a.flags.c_contiguous (and .contiguous, the same) and a.flags.f_contiguous,
 * read as the array's attributes "flags.c_contiguous" ... (infer.c), or
 * as f.c_contiguous ... of f = a.flags, a value that holds the array (as
 * Numba's ArrayFlags), since its flags are what its strides say; and
 * .writeable, which its type says (a read-only array's is its own type). */
enum { FLAG_C, FLAG_F, FLAG_WRITEABLE };

static const Type *ty_flag(Infer *in, Node *n, const Type **args) { return TYS(TY_BOOL); }

static const Type *ty_flags_attr(Infer *in, Node *n, const Type **args) { return ty_flags_of(args[0]); }

static LLVMValueRef lo_flag(Lower *l, Node *n) {
  if (n->bi->ival == FLAG_WRITEABLE) return const_bool(l, !n->lhs->ty->readonly);
  LLVMValueRef a = lo_expr(l, n->lhs), r = np_contiguous(l, n->lhs->ty, a, n->bi->ival == FLAG_F);
  lo_done_with(l, n->lhs, a);
  return r;
}

/* m.contiguous, m.c_contiguous, m.f_contiguous and m.readonly of a
 * memoryview (an array typed from its buffer, typeof.c), as Python's
 * memoryview gives them: contiguous is either order; readonly is the
 * type's own, as the buffer was. Arrays have none of these. */
enum { VIEW_C = FLAG_C, VIEW_F = FLAG_F, VIEW_ANY_ORDER, VIEW_READONLY };

static const Type *ty_view_attr(Infer *in, Node *n, const Type **args) {
  const Type *t = n->lhs->ty;
  if (t->unit != 'M') return ty_error(in, n, "%s has no attribute '%s' in compiled code", t->name, n->bi->path);
  return TYS(TY_BOOL);
}

/* Python's rule for a 1-d memoryview, both orders: one item, or items
 * side by side (an empty view of a stride of more is not, unlike NumPy's
 * flags; past one dimension Python's rule is NumPy's). */
static LLVMValueRef view_contiguous_1d(Lower *l, const Type *t, LLVMValueRef a) {
  LLVMValueRef one = LLVMBuildICmp(l->b, LLVMIntEQ, lo_arr_shape(l, a, 0), const_i64(l, 1), "");
  LLVMValueRef packed = LLVMBuildICmp(l->b, LLVMIntEQ, lo_arr_stride(l, t, a, 0), const_i64(l, (int64_t)t->elem->size), "");
  return LLVMBuildOr(l->b, one, packed, "contiguous");
}

static LLVMValueRef lo_view_attr(Lower *l, Node *n) {
  const Type *t = n->lhs->ty;
  if (n->bi->ival == VIEW_READONLY) return const_bool(l, t->readonly);
  LLVMValueRef a = lo_expr(l, n->lhs);
  LLVMValueRef r = t->ndim == 1 ? view_contiguous_1d(l, t, a)
                   : n->bi->ival == VIEW_ANY_ORDER
                       ? LLVMBuildOr(l->b, np_contiguous(l, t, a, false), np_contiguous(l, t, a, true), "contiguous")
                       : np_contiguous(l, t, a, n->bi->ival == VIEW_F);
  lo_done_with(l, n->lhs, a);
  return r;
}

/* a.ctypes.data (c.data of c = a.ctypes): the address of a's first
 * element, a uintp, as Numba's ArrayCTypes gives. */
static const Type *ty_data_address(Infer *in, Node *n, const Type **args) { return TYS(TY_U64); }

/* a.ctypes: a's own reference, held for as long as the ctypes object is
 * (Numba's keeps the array's memory), for .data or a native function's
 * pointer parameter (native.c). */
static const Type *ty_array_ctypes(Infer *in, Node *n, const Type **args) { return ty_ctypes(args[0]); }

/* a.ctypes and a.flags: the array itself, a reference of their own */
static LLVMValueRef lo_array_held(Lower *l, Node *n) {
  LLVMValueRef a = lo_expr(l, n->lhs);
  if (lo_is_fresh(n->lhs)) lo_temp_taken(l, a);  /* (np.ones(n).ctypes: the temporary's reference is its now) */
  else lo_refcount(l, n->lhs->ty, a, true);
  return a;
}

static LLVMValueRef lo_data_address(Lower *l, Node *n) {
  LLVMValueRef a = lo_expr(l, n->lhs);
  LLVMValueRef r = LLVMBuildPtrToInt(l->b, LLVMBuildExtractValue(l->b, a, 2, "data"), l->mod->i64, "address");
  lo_done_with(l, n->lhs, a);
  return r;
}

/* ---------------------------------------------------------------- the rows */

#define ALLOC(name, lo, hi, kw, fill, type, lower) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, lo, hi, kw, BF_ALLOCATES, fill, 0, type, lower}
/* the same, for any dtype: complex too */
#define ALLOC_ANY(name, lo, hi, kw, fill, type, lower) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, lo, hi, kw, BF_ALLOCATES | BF_COMPLEX, fill, 0, type, lower}
/* the same, with order= (a str: 'C', 'F') after dtype */
#define ALLOC_ORDERED(name, lo, hi, fill, type, lower) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, lo, hi, dtype_order_kw, BF_ALLOCATES | BF_COMPLEX | BF_STRINGS, fill, 0, \
   type, lower}
#define ATTRIBUTE(name, flags, type, lower) \
  {"array." name, NULL, name, BK_ATTRIBUTE, TY_ARRAY, 0, 0, NULL, BF_PURE | BF_CHEAP | (flags), 0, 0, type, lower}
#define FLAG(name, which) \
  {"array.flags." name, NULL, "flags." name, BK_ATTRIBUTE, TY_ARRAY, 0, 0, NULL, BF_PURE | BF_CHEAP, which, 0, ty_flag, lo_flag}
/* the same of f = a.flags */
#define FLAGS_FIELD(name, which) \
  {"ArrayFlags." name, NULL, name, BK_ATTRIBUTE, TY_FLAGS, 0, 0, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, which, 0, ty_flag, lo_flag}
#define VIEW_ATTRIBUTE(name, which) \
  {"memoryview." name, NULL, name, BK_ATTRIBUTE, TY_ARRAY, 0, 0, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, which, 0, \
   ty_view_attr, lo_view_attr}

const Builtin bi_numpy[] = {
  ALLOC("hanning", 1, 1, NULL, WIN_HANNING, ty_window, lo_window),
  ALLOC("hamming", 1, 1, NULL, WIN_HAMMING, ty_window, lo_window),
  ALLOC("blackman", 1, 1, NULL, WIN_BLACKMAN, ty_window, lo_window),
  ALLOC("bartlett", 1, 1, NULL, WIN_BARTLETT, ty_window, lo_window),
  {"numpy.kaiser", "numpy", "kaiser", BK_FUNCTION, 0, 2, 2, NULL, BF_ALLOCATES, 0, 0, ty_kaiser, lo_kaiser},
  ALLOC_ORDERED("empty", 1, 3, -1, ty_alloc, lo_alloc),
  ALLOC_ORDERED("zeros", 1, 3, 0, ty_alloc, lo_alloc),
  ALLOC_ORDERED("ones", 1, 3, 1, ty_alloc, lo_alloc),
  ALLOC_ORDERED("empty_like", 1, 3, -1, ty_alloc_like, lo_alloc),
  ALLOC_ORDERED("zeros_like", 1, 3, 0, ty_alloc_like, lo_alloc),
  ALLOC_ORDERED("ones_like", 1, 3, 1, ty_alloc_like, lo_alloc),
  ALLOC_ORDERED("full", 2, 4, -1, ty_full, lo_full),
  ALLOC_ORDERED("full_like", 2, 4, -1, ty_full_like, lo_full),
  ALLOC_ANY("arange", 1, 4, dtype_kw, 0, ty_arange, lo_arange),
  ALLOC_ANY("linspace", 2, 5, linspace_kw, 0, ty_linspace, lo_linspace),
  ALLOC("logspace", 2, 5, logspace_kw, 0, ty_logspace, lo_logspace),
  ALLOC_ANY("geomspace", 2, 5, linspace_kw, 0, ty_geomspace, lo_geomspace),
  {"numpy.eye", "numpy", "eye", BK_FUNCTION, 0, 0, 5, eye_kw, BF_ALLOCATES | BF_COMPLEX | BF_STRINGS, 1, 0, ty_eye, lo_eye},
  ALLOC_ANY("identity", 1, 2, dtype_kw, 0, ty_eye, lo_eye),
  ALLOC("indices", 1, 3, indices_kw, 0, ty_np_indices, lo_np_indices),
  ALLOC_ANY("array", 1, 2, dtype_kw, 1, ty_array_of, lo_array_of),
  /* asarray, ascontiguousarray and asfortranarray may return their argument: not BF_ALLOCATES */
  {"numpy.asarray", "numpy", "asarray", BK_FUNCTION, 0, 1, 2, dtype_kw, BF_COMPLEX, 0, 0, ty_asarray, lo_array_of},
  {"numpy.asarray_chkfinite", "numpy", "asarray_chkfinite", BK_FUNCTION, 0, 1, 2, dtype_kw, BF_COMPLEX | BF_RAISES, 0, 0,
   ty_asarray, lo_asarray_chkfinite},
  {"numpy.ascontiguousarray", "numpy", "ascontiguousarray", BK_FUNCTION, 0, 1, 2, dtype_kw, BF_COMPLEX, 'C', 0, ty_ascontiguous,
   lo_ascontiguous},
  {"numpy.asfortranarray", "numpy", "asfortranarray", BK_FUNCTION, 0, 1, 2, dtype_kw, BF_COMPLEX, 'F', 0, ty_ascontiguous,
   lo_ascontiguous},
  ALLOC_ANY("copy", 1, 1, NULL, 0, ty_copy, lo_copy),
  {"array.copy", NULL, "copy", BK_METHOD, TY_ARRAY, 0, 0, NULL, BF_ALLOCATES | BF_COMPLEX, 0, 0, ty_copy, lo_copy},
  {"numpy.dtype", "numpy", "dtype", BK_FUNCTION, 0, 1, 1, NULL, BF_CHEAP | BF_COMPLEX, 0, 0, ty_dtype_call, lo_no_value},
  {"numpy.shape", "numpy", "shape", BK_FUNCTION, 0, 1, 1, NULL, BF_CHEAP | BF_COMPLEX, 0, 0, ty_shape_of, lo_shape_of},
  {"numpy.ndim", "numpy", "ndim", BK_FUNCTION, 0, 1, 1, NULL, BF_CHEAP | BF_COMPLEX, 0, 0, ty_size_of, lo_ndim_of},
  {"numpy.size", "numpy", "size", BK_FUNCTION, 0, 1, 2, axis_kw, BF_CHEAP | BF_COMPLEX | BF_NONE, 0, 0, ty_size_of, lo_size_of},
  {"numpy.isscalar", "numpy", "isscalar", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX | BF_NONE, IS_SCALAR, 0,
   ty_type_question, lo_type_question},
  {"numpy.iscomplexobj", "numpy", "iscomplexobj", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX | BF_NONE, IS_COMPLEX_OBJ, 0,
   ty_type_question, lo_type_question},
  {"numpy.isrealobj", "numpy", "isrealobj", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX | BF_NONE, IS_REAL_OBJ, 0,
   ty_type_question, lo_type_question},
  ATTRIBUTE("shape", 0, ty_shape, lo_shape),
  ATTRIBUTE("size", 0, ty_int_attr, lo_size),
  ATTRIBUTE("ndim", 0, ty_int_attr, lo_ndim),
  ATTRIBUTE("dtype", 0, ty_dtype_attr, lo_no_value),
  ATTRIBUTE("itemsize", 0, ty_int_attr, lo_itemsize),
  ATTRIBUTE("nbytes", 0, ty_int_attr, lo_nbytes),
  ATTRIBUTE("strides", 0, ty_shape, lo_strides),
  ATTRIBUTE("flags", BF_COMPLEX, ty_flags_attr, lo_array_held),
  FLAG("c_contiguous", FLAG_C), FLAG("contiguous", FLAG_C), FLAG("f_contiguous", FLAG_F),
  FLAG("writeable", FLAG_WRITEABLE),
  FLAGS_FIELD("c_contiguous", FLAG_C), FLAGS_FIELD("contiguous", FLAG_C), FLAGS_FIELD("f_contiguous", FLAG_F),
  FLAGS_FIELD("writeable", FLAG_WRITEABLE),
  VIEW_ATTRIBUTE("contiguous", VIEW_ANY_ORDER), VIEW_ATTRIBUTE("c_contiguous", VIEW_C),
  VIEW_ATTRIBUTE("f_contiguous", VIEW_F), VIEW_ATTRIBUTE("readonly", VIEW_READONLY),
  ATTRIBUTE("ctypes", BF_COMPLEX, ty_array_ctypes, lo_array_held),
  ATTRIBUTE("ctypes.data", BF_COMPLEX, ty_data_address, lo_data_address),
  {"ArrayCTypes.data", NULL, "data", BK_ATTRIBUTE, TY_CTYPES, 0, 0, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0,
   ty_data_address, lo_data_address},
  {"dtype.itemsize", NULL, "itemsize", BK_ATTRIBUTE, TY_DTYPE, 0, 0, NULL, BF_PURE | BF_CHEAP, 0, 0, ty_int_attr, lo_itemsize},
  {"dtype.kind", NULL, "kind", BK_ATTRIBUTE, TY_DTYPE, 0, 0, NULL, BF_PURE | BF_CHEAP, 0, 0, ty_dtype_kind, lo_dtype_kind},
  {"dtype.type", NULL, "type", BK_ATTRIBUTE, TY_DTYPE, 0, 0, NULL, BF_PURE | BF_CHEAP, 0, 0, ty_dtype_type, lo_no_value},
  {"dtype.type", NULL, "type", BK_METHOD, TY_DTYPE, 1, 1, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0, ty_dtype_type_call,
   lo_dtype_type_call},
  BI_END,
};
