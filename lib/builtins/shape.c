/* builtins/shape.c — NumPy's shape functions in compiled code: views
 * (reshape, ravel, a.flat, transpose and .T, swapaxes, moveaxis, rot90, squeeze, expand_dims, view, flip,
 * broadcast_to),
 * copies (flatten, astype, concatenate and the stacks, append, resize, roll, tile,
 * repeat), a.fill, numpy.nonzero, and numpy.where, numpy.select (nested
 * wheres) and numpy.clip, which are elementwise (their rows have a
 * lower_elem: ufunc.c fuses them into the array expressions around them).
 *
 * Results have NumPy's shapes, dtypes and layouts, and views share memory
 * where NumPy's do, with one difference: reshape and ravel of an array
 * that is not C-contiguous at run time copy it (NumPy makes a view where
 * the strides allow one), and of a read-only array whose type does not
 * say it is C-contiguous always copy it, so that the result's type can
 * say it is writable as a copy is (Numba's ravel does the same). Arguments that decide a result's number of
 * dimensions or its layout (transpose's, squeeze's and expand_dims' axes)
 * must be constants; others (concatenate's axis, roll's shift) may be
 * computed at run time.
 */
#include <stdio.h>

#include "builtins/builtins.h"
#include "ir.h"

/* ---------------------------------------------------------------- typing helpers */

/* An int written in the source. */
static bool const_int(const Node *n, int64_t *v) {
  if (n->kind != N_INT && n->kind != N_BOOL) return false;
  *v = n->ival;
  return true;
}

static bool is_array(const Type *t) { return t->kind == TY_ARRAY; }

/* The array a shape function works on (its first argument, a method's
 * receiver), or an error: of a view or of a function that makes no array
 * (a.T, numpy.flip, a.fill), CUDA code's too ... */
static const Type *any_array_operand(Infer *in, Node *n, const Type *t) {
  if (!t) return NULL;  /* (an array-like's numpy.asarray refused it) */
  if (!is_array(t)) return ty_error(in, n, "%s() needs an array, got %s", n->bi->name, t->name);
  return t;
}

/* ... of one that makes or may make an array, not CUDA code's (it has no heap) */
static const Type *array_operand(Infer *in, Node *n, const Type *t) {
  if (ty_in_cuda(in)) return ty_error(in, n, "%s() is not supported in CUDA kernels", n->bi->name);
  return any_array_operand(in, n, t);
}

/* In CUDA code reshape and ravel take only an array whose type says it is
 * contiguous in the order they read (t is a.T for Fortran's): a view of it,
 * as numba-cuda's; another would be copied, which a kernel cannot. */
static bool viewed_in_cuda(Infer *in, Node *n, const Type *t, char order) {
  if (!ty_in_cuda(in) || (t->layout == 'C' && !np_copies_read_only(t, 'C'))) return true;
  return ty_error(in, n, "%s() in CUDA kernels needs an array whose type says it is %c-contiguous (a copy "
                  "cannot be made there), got %s", n->bi->name, order, t->name) != NULL;
}

/* Constant axes, each normalised into [0, ndim) and distinct: an int or a
 * tuple of ints. Returns how many, or -1 with the error. */
static int const_axes(Infer *in, Node *n, Node *axis, int ndim, int *axes) {
  Node *one[1] = {axis};
  Node **items = axis->kind == N_TUPLE ? axis->list.items : one;
  int count = axis->kind == N_TUPLE ? axis->list.len : 1;
  if (axis->kind != N_TUPLE && axis->ty->kind == TY_TUPLE) count = -1;
  if (count < 0 || count > RC_MAX_NDIM) {
    ty_error(in, axis, "%s()'s axes must be constant ints, at most %d of them", n->bi->name, RC_MAX_NDIM);
    return -1;
  }
  for (int i = 0; i < count; i++) {
    int64_t v;
    if (!const_int(items[i], &v)) {
      ty_error(in, items[i], "%s()'s axis must be a constant int or a tuple of them", n->bi->name);
      return -1;
    }
    if (v < -ndim || v >= ndim) {
      ty_error(in, items[i], "%s(): axis %lld is out of bounds for array of dimension %d", n->bi->name, (long long)v, ndim);
      return -1;
    }
    axes[i] = (int)(v < 0 ? v + ndim : v);
    for (int k = 0; k < i; k++)
      if (axes[k] == axes[i]) {
        ty_error(in, items[i], "%s(): repeated axis", n->bi->name);
        return -1;
      }
  }
  return count;
}

static bool int_arg(Infer *in, Node *n, Node *a, const char *what) {
  if (a && !ty_is_int(a->ty) && a->ty->kind != TY_BOOL) {
    ty_error(in, a, "%s()'s %s must be an int, got %s", n->bi->name, what, a->ty->name);
    return false;
  }
  return true;
}

/* ---------------------------------------------------------------- lowering helpers */

LLVMValueRef np_view(Lower *l, const Type *t, LLVMValueRef base, LLVMValueRef data, const LLVMValueRef *shape,
                     const LLVMValueRef *strides) {
  LLVMTypeRef dims = LLVMArrayType2(l->mod->i64, (uint64_t)t->ndim);
  LLVMValueRef shp = LLVMGetUndef(dims), str = shp;
  for (int d = 0; d < t->ndim; d++) {
    shp = LLVMBuildInsertValue(l->b, shp, shape[d], (unsigned)d, "");
    str = LLVMBuildInsertValue(l->b, str, strides[d], (unsigned)d, "");
  }
  LLVMValueRef v = LLVMGetUndef(lo_type(l, t));
  v = LLVMBuildInsertValue(l->b, v, LLVMBuildExtractValue(l->b, base, 0, ""), 0, "");
  v = LLVMBuildInsertValue(l->b, v, LLVMBuildExtractValue(l->b, base, 1, ""), 1, "");
  v = LLVMBuildInsertValue(l->b, v, data, 2, "");
  v = LLVMBuildInsertValue(l->b, v, shp, 3, "");
  v = LLVMBuildInsertValue(l->b, v, str, 4, "");
  return v;
}

LLVMValueRef np_owned_view(Lower *l, const Type *t, LLVMValueRef base, LLVMValueRef data, const LLVMValueRef *shape,
                           const LLVMValueRef *strides) {
  LLVMValueRef v = np_view(l, t, base, data, shape, strides);
  lo_refcount(l, t, v, true);
  return v;
}

static LLVMValueRef data_of(Lower *l, LLVMValueRef a) { return LLVMBuildExtractValue(l->b, a, 2, "data"); }

static void shape_of(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef *shape, LLVMValueRef *strides) {
  for (int d = 0; d < t->ndim; d++) {
    shape[d] = lo_arr_shape(l, a, d);
    if (strides) strides[d] = lo_arr_stride(l, t, a, d);
  }
}

static LLVMValueRef size_of(Lower *l, int ndim, const LLVMValueRef *shape) {
  LLVMValueRef size = const_i64(l, 1);
  for (int d = 0; d < ndim; d++) size = LLVMBuildMul(l->b, size, shape[d], "");
  return size;
}

/* The strides of a contiguous array of the shape, in order 'C' (the last
 * dimension's elements next to each other) or 'F' (the first's). */
static void contiguous_strides(Lower *l, const Type *elem, int ndim, const LLVMValueRef *shape, LLVMValueRef *strides,
                               char order) {
  LLVMValueRef s = const_i64(l, ty_bits(elem) / 8);
  for (int k = 0; k < ndim; k++) {
    int d = order == 'C' ? ndim - 1 - k : k;
    strides[d] = s;
    s = LLVMBuildMul(l->b, s, shape[d], "");
  }
}

LLVMValueRef np_contiguous(Lower *l, const Type *t, LLVMValueRef a, bool fortran) {
  if (t->layout == (fortran ? 'F' : 'C') || t->ndim == 0 || (t->ndim == 1 && t->layout != 'A')) return const_bool(l, true);
  LLVMValueRef ok = const_bool(l, true), empty = const_bool(l, false), want = const_i64(l, ty_bits(t->elem) / 8);
  for (int k = 0; k < t->ndim; k++) {
    int d = fortran ? k : t->ndim - 1 - k;
    LLVMValueRef n = lo_arr_shape(l, a, d);
    LLVMValueRef fits = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, n, const_i64(l, 1), ""),
                                    LLVMBuildICmp(l->b, LLVMIntEQ, lo_arr_stride(l, t, a, d), want, ""), "");
    ok = LLVMBuildAnd(l->b, ok, fits, "");
    empty = LLVMBuildOr(l->b, empty, LLVMBuildICmp(l->b, LLVMIntEQ, n, const_i64(l, 0), ""), "");
    want = LLVMBuildMul(l->b, want, n, "");
  }
  return LLVMBuildOr(l->b, ok, empty, "");
}

/* Whether a read-only array t is always copied to make it contiguous in
 * order: its type does not say it is (a 1-d C or F array is in both
 * orders). Whether an array that may be either is copied is known only at
 * run time, where its type must say whether it is writable: it is copied
 * always then, as Numba does, and the copy is writable as NumPy's is. */
bool np_copies_read_only(const Type *t, char order) {
  return t->kind == TY_ARRAY && t->readonly && t->ndim && t->layout != order && (t->ndim > 1 || t->layout == 'A');
}

LLVMValueRef np_as_contiguous(Lower *l, const Type *t, LLVMValueRef a, char order) {
  const Type *ct = ty_array(t->elem, t->ndim, order, t->readonly);
  LLVMValueRef shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  shape_of(l, t, a, shape, NULL);
  contiguous_strides(l, t->elem, t->ndim, shape, strides, order);
  if (t->layout == order) return np_owned_view(l, ct, a, data_of(l, a), shape, strides);
  LLVMBasicBlockRef same = new_block(l, "contiguous.same"), copy = new_block(l, "contiguous.copy"),
                    done = new_block(l, "contiguous.done");
  LLVMBuildCondBr(l->b, np_contiguous(l, t, a, order == 'F'), same, copy);
  position(l, same);
  LLVMValueRef view = np_owned_view(l, ct, a, data_of(l, a), shape, strides);
  LLVMBasicBlockRef same_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, copy);
  LLVMValueRef copied = lo_copy_array(l, ty_array(t->elem, t->ndim, order, false), t, a);
  LLVMBasicBlockRef copy_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef r = LLVMBuildPhi(l->b, lo_type(l, ct), "contiguous");
  LLVMAddIncoming(r, (LLVMValueRef[]){view, copied}, (LLVMBasicBlockRef[]){same_end, copy_end}, 2);
  return r;
}

/* The address of a[idx...], indices in range. */
static LLVMValueRef addr_at(Lower *l, const Type *t, LLVMValueRef a, const LLVMValueRef *idx) {
  LLVMValueRef offset = const_i64(l, 0);
  for (int d = 0; d < t->ndim; d++)
    offset = LLVMBuildAdd(l->b, offset, LLVMBuildMul(l->b, idx[d], lo_arr_stride(l, t, a, d), ""), "");
  return LLVMBuildInBoundsGEP2(l->b, l->mod->i8, data_of(l, a), &offset, 1, "");
}

LLVMValueRef np_runtime_axis(Lower *l, Node *axis, int ndim) {
  return axis ? np_axis_value(l, lo_expr_as(l, axis, TYS(TY_I64)), ndim) : const_i64(l, 0);
}

/* np_axis_value, NumPy's AxisError message (fmt: of the axis and ndim) where it is not within them */
static LLVMValueRef axis_value_or(Lower *l, LLVMValueRef v, int ndim, const char *fmt) {
  LLVMValueRef n = const_i64(l, ndim);
  LLVMValueRef bad = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, v, LLVMBuildNeg(l->b, n, ""), ""),
                                 LLVMBuildICmp(l->b, LLVMIntSGE, v, n, ""), "");
  lo_raise_format_if(l, bad, RT_ERR_AXIS, fmt, (LLVMValueRef[]){v, n}, 2);
  return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, v, const_i64(l, 0), ""), LLVMBuildAdd(l->b, v, n, ""), v, "");
}

LLVMValueRef np_axis_value(Lower *l, LLVMValueRef v, int ndim) {
  return axis_value_or(l, v, ndim, "axis %lld is out of bounds for array of dimension %lld");
}

/* ... the message naming the argument, as NumPy's normalize_axis_tuple does (moveaxis's "source: axis ...") */
static LLVMValueRef named_axis_value(Lower *l, LLVMValueRef v, int ndim, const char *name) {
  char fmt[96];
  snprintf(fmt, sizeof fmt, "%s: axis %%lld is out of bounds for array of dimension %%lld", name);
  return axis_value_or(l, v, ndim, arena_strdup(l->f->arena, fmt));
}

static LLVMValueRef is_dim(Lower *l, LLVMValueRef axis, int d) {
  return LLVMBuildICmp(l->b, LLVMIntEQ, axis, const_i64(l, d), "");
}

static LLVMValueRef pick(Lower *l, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(l->b, c, a, b, "");
}

/* ---------------------------------------------------------------- reshape, ravel, flatten */

/* ravel's, flatten's and reshape's order=: read (and, reshaped, written)
 * in C order, in Fortran order, as the array's memory is laid out where it
 * is contiguous ('A'), or as it lies in memory ('K', not reshape's). */
static const char *const orders[] = {"C", "F", "A", "K", NULL};
static const char *const reshape_orders[] = {"C", "F", "A", NULL};

/* Whether order (given or NULL), one of choices, reads array type t in
 * Fortran order: 'F', and 'A' or 'K' of a Fortran array ('C' or nothing,
 * and 'A' or 'K' of a C array or of one dimension, read it in C order); -1
 * (an error) where the order is not written out, or is 'A' or 'K' of an
 * array whose type says neither (its order then known only at run time). */
static int fortran_order(Infer *in, Node *n, const Type *t, Node *order, const char *const *choices) {
  int k = bi_str_option(order, choices, 0);
  if (k < 0) {
    if (in) ty_error(in, order, "%s()'s order must be %s written out", n->bi->name,
                     choices[3] ? "'C', 'F', 'A' or 'K'" : "'C', 'F' or 'A'");
    return -1;
  }
  if (k <= 1 || t->ndim <= 1 || t->layout != 'A') return t->ndim > 1 && (k == 1 || (k > 1 && t->layout == 'F'));
  if (in) ty_error(in, order, "%s(order='%s') of an array of layout A is not supported in compiled code (its order is "
                   "known only at run time): give 'C' or 'F'", n->bi->name, choices[k]);
  return -1;
}

/* ravel's and flatten's order, given by position or keyword. */
static int ravel_order(Infer *in, Node *n, const Type *t) {
  return fortran_order(in, n, t, bi_arg(n, 1, "order"), orders);
}

/* reshape's order, by keyword (its positional arguments are the shape's):
 * 'F' writes the new shape in Fortran order whatever a's dimensions. */
static int reshape_order(Infer *in, Node *n, const Type *t) {
  Node *order = ty_kwarg(n, "order");
  return bi_str_option(order, reshape_orders, 0) == 1 ? 1 : fortran_order(in, n, t, order, reshape_orders);
}

/* The type of a viewed with its axes reversed (a.T): C and F swapped (of
 * two or more dimensions: one reversed is itself). */
static const Type *reversed_type(const Type *t) {
  if (t->ndim <= 1) return t;
  return ty_array(t->elem, t->ndim, t->layout == 'C' ? 'F' : t->layout == 'F' ? 'C' : 'A', t->readonly);
}

/* a (of type t) with its axes reversed: a view that holds no reference of its own. */
static LLVMValueRef reversed_view(Lower *l, const Type *t, LLVMValueRef a) {
  LLVMValueRef shape[RC_MAX_NDIM], strides[RC_MAX_NDIM], s[RC_MAX_NDIM], st[RC_MAX_NDIM];
  shape_of(l, t, a, s, st);
  for (int d = 0; d < t->ndim; d++) shape[d] = s[t->ndim - 1 - d], strides[d] = st[t->ndim - 1 - d];
  return np_view(l, reversed_type(t), a, data_of(l, a), shape, strides);
}

/* The new shape's arguments: the ints after the array, or one tuple. */
static Node **shape_items(Node *n, int *count, bool *tuple) {
  Node *first = n->list.len > 1 ? n->list.items[1] : NULL;
  *tuple = n->list.len == 2 && first->ty->kind == TY_TUPLE;
  if (*tuple) {
    *count = first->ty->nfields;
    return NULL;
  }
  *count = n->list.len - 1;
  return n->list.items + 1;
}

static const Type *ty_reshape(Infer *in, Node *n, const Type **args) {
  const Type *t = any_array_operand(in, n, args[0]);
  if (!t) return NULL;
  int count;
  bool tuple;
  Node **items = shape_items(n, &count, &tuple);
  if (!tuple && !count) return ty_error(in, n, "%s() needs the new shape", n->bi->name);
  if (tuple && np_shape_ndim(in, n->list.items[1]) < 0) return NULL;
  for (int i = 0; !tuple && i < count; i++)
    if (!ty_is_int(items[i]->ty))
      return ty_error(in, items[i], "%s()'s shape must be ints or a tuple of ints, got %s", n->bi->name, items[i]->ty->name);
  if (count > RC_MAX_NDIM) return ty_error(in, n, "%s(): at most %d dimensions", n->bi->name, RC_MAX_NDIM);
  int fortran = reshape_order(in, n, t);
  if (fortran < 0 || !viewed_in_cuda(in, n, fortran ? reversed_type(t) : t, fortran ? 'F' : 'C')) return NULL;
  if (fortran) {  /* a.T's C order reshaped to the shape reversed, viewed reversed: Fortran */
    const Type *r = reversed_type(t);
    return ty_array(t->elem, count, count > 1 ? 'F' : 'C', r->readonly && !np_copies_read_only(r, 'C'));
  }
  return ty_array(t->elem, count, 'C', t->readonly && !np_copies_read_only(t, 'C'));
}

/* The new shape's dimensions as int64s. */
static int reshape_dims(Lower *l, Node *n, LLVMValueRef *dims) {
  int count;
  bool tuple;
  Node **items = shape_items(n, &count, &tuple);
  if (tuple) return lo_shape_arg(l, n->list.items[1], dims);
  for (int i = 0; i < count; i++) dims[i] = lo_expr_as(l, items[i], TYS(TY_I64));
  return count;
}

static void reshape_error(Lower *l, LLVMValueRef bad, LLVMValueRef size, int ndim, const LLVMValueRef *dims) {
  if (l->mod->gpu) {  /* (no runtime there to format the shape) */
    lo_raise_if(l, bad, RT_ERR_VALUE, "cannot reshape array into the shape given");
    return;
  }
  LLVMBasicBlockRef fail = new_block(l, "reshape.bad"), ok = new_block(l, "reshape.ok");
  LLVMBuildCondBr(l->b, bad, fail, ok);
  position(l, fail);
  LLVMTypeRef arr = LLVMArrayType2(l->mod->i64, (uint64_t)(ndim ? ndim : 1));
  LLVMValueRef mem = lo_alloca(l, arr, "dims");
  for (int d = 0; d < ndim; d++) {
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, d)};
    LLVMBuildStore(l->b, dims[d], LLVMBuildGEP2(l->b, arr, mem, ix, 2, ""));
  }
  LLVMTypeRef p[3] = {l->mod->i64, l->mod->i64, l->mod->ptr};
  lo_call_fn(l, "rt_reshape_error", void_type(l), p, (LLVMValueRef[]){size, const_i64(l, ndim), mem}, 3);
  lo_raise_recorded(l, RT_ERR_VALUE);
  position(l, ok);
}

/* NumPy's rules: one negative dimension is the unknown one, the others'
 * product must divide the size (and not be 0); without one it must be
 * the size. Fills the unknown dimension in. */
static void check_new_shape(Lower *l, LLVMValueRef size, int ndim, LLVMValueRef *dims) {
  LLVMValueRef unknown = const_i64(l, 0), known = const_i64(l, 1), zero = const_i64(l, 0);
  for (int d = 0; d < ndim; d++) {
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, dims[d], zero, "");
    unknown = LLVMBuildAdd(l->b, unknown, LLVMBuildZExt(l->b, neg, l->mod->i64, ""), "");
    known = LLVMBuildMul(l->b, known, pick(l, neg, const_i64(l, 1), dims[d]), "");
  }
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSGT, unknown, const_i64(l, 1), ""), RT_ERR_VALUE,
              "can only specify one unknown dimension");
  LLVMValueRef has_unknown = LLVMBuildICmp(l->b, LLVMIntEQ, unknown, const_i64(l, 1), "");
  LLVMValueRef known_zero = LLVMBuildICmp(l->b, LLVMIntEQ, known, zero, "");
  LLVMValueRef divisor = pick(l, known_zero, const_i64(l, 1), known);
  LLVMValueRef rest = LLVMBuildSRem(l->b, size, divisor, "");
  LLVMValueRef bad_unknown = LLVMBuildOr(l->b, known_zero, LLVMBuildICmp(l->b, LLVMIntNE, rest, zero, ""), "");
  LLVMValueRef bad = pick(l, has_unknown, bad_unknown, LLVMBuildICmp(l->b, LLVMIntNE, size, known, ""));
  reshape_error(l, bad, size, ndim, dims);
  LLVMValueRef missing = LLVMBuildSDiv(l->b, size, divisor, "");
  for (int d = 0; d < ndim; d++)
    dims[d] = pick(l, LLVMBuildICmp(l->b, LLVMIntSLT, dims[d], zero, ""), missing, dims[d]);
}

/* a's memory with a new C-contiguous shape: a view if a is C-contiguous,
 * else of a copy (always of a copy where a read-only a's type does not
 * say it is: np_copies_read_only); an owned reference. */
static LLVMValueRef reshaped(Lower *l, const Type *rt, const Type *t, LLVMValueRef a, LLVMValueRef *dims) {
  LLVMValueRef c = np_copies_read_only(t, 'C') ? lo_copy_array(l, ty_array(t->elem, t->ndim, 'C', false), t, a)
                                               : np_as_contiguous(l, t, a, 'C');
  LLVMValueRef strides[RC_MAX_NDIM];
  contiguous_strides(l, rt->elem, rt->ndim, dims, strides, 'C');
  /* c's reference is the result's */
  return np_view(l, rt, c, data_of(l, c), dims, strides);
}

/* a's memory with a new Fortran-contiguous shape: a.T's C order in the
 * shape reversed, viewed with its axes reversed. */
static LLVMValueRef reshaped_fortran(Lower *l, const Type *rt, const Type *t, LLVMValueRef a, const LLVMValueRef *dims) {
  const Type *ct = reversed_type(rt);
  LLVMValueRef rdims[RC_MAX_NDIM];
  for (int d = 0; d < rt->ndim; d++) rdims[d] = dims[rt->ndim - 1 - d];
  LLVMValueRef c = reshaped(l, ct, reversed_type(t), reversed_view(l, t, a), rdims);
  /* c's reference is the result's */
  return reversed_view(l, ct, c);
}

static LLVMValueRef lo_reshape(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  LLVMValueRef a = lo_expr(l, arg), shape[RC_MAX_NDIM], dims[RC_MAX_NDIM];
  shape_of(l, t, a, shape, NULL);
  int ndim = reshape_dims(l, n, dims);
  check_new_shape(l, size_of(l, t->ndim, shape), ndim, dims);
  LLVMValueRef r = reshape_order(NULL, n, t) == 1 ? reshaped_fortran(l, n->ty, t, a, dims) : reshaped(l, n->ty, t, a, dims);
  lo_done_with(l, arg, a);
  return r;
}

/* numpy.ravel(a, order='C'), a.ravel(order): 1-d, a view where a is
 * contiguous in that order */
static const Type *ty_ravel(Infer *in, Node *n, const Type **args) {
  const Type *t = any_array_operand(in, n, args[0]);
  int fortran = t ? ravel_order(in, n, t) : -1;
  if (fortran < 0) return NULL;
  if (fortran) t = reversed_type(t);  /* a's Fortran order is a.T's C order */
  if (!viewed_in_cuda(in, n, t, fortran ? 'F' : 'C')) return NULL;
  return ty_array(t->elem, 1, 'C', t->readonly && !np_copies_read_only(t, 'C'));
}

/* arg's elements as the 1-d array of type to, in C order or (fortran) in
 * Fortran order: a view where it is contiguous so, a copy otherwise */
static LLVMValueRef ravelled(Lower *l, Node *arg, const Type *to, bool fortran) {
  const Type *t = fortran ? reversed_type(arg->ty) : arg->ty;
  LLVMValueRef a = lo_expr(l, arg), v = fortran ? reversed_view(l, arg->ty, a) : a, shape[RC_MAX_NDIM];
  shape_of(l, t, v, shape, NULL);
  LLVMValueRef size = size_of(l, t->ndim, shape);
  LLVMValueRef r = reshaped(l, to, t, v, &size);
  lo_done_with(l, arg, a);
  return r;
}

static LLVMValueRef lo_ravel(Lower *l, Node *n) {
  return ravelled(l, n->list.items[0], n->ty, ravel_order(NULL, n, n->list.items[0]->ty) == 1);
}

/* a.flat: its elements in C order, as a 1-d array: a 1-d array itself, a
 * view of a C-contiguous one (a.flat[i] = v writes a), read-only where a's
 * type is neither (a copy where the array is not C-contiguous at run
 * time, which a write would miss); iterated, indexed and len() as NumPy's
 * flatiter. */
static const Type *ty_flat(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0];
  if (t->ndim == 1) return t;
  return ty_array(t->elem, 1, 'C', t->readonly || t->layout != 'C');
}

static LLVMValueRef lo_flat(Lower *l, Node *n) {
  return n->lhs->ty->ndim == 1 ? lo_owned(l, n->lhs) : ravelled(l, n->lhs, n->ty, false);
}

bool ty_is_flat_store(const Node *target) {
  const Node *flat = target->lhs;
  if (target->kind != N_INDEX || flat->kind != N_ATTR || !flat->bi || flat->bi->type != ty_flat) return false;
  const Type *a = flat->lhs->ty;
  return a && a->kind == TY_ARRAY && a->ndim > 1 && a->layout != 'C' && !a->readonly && target->rhs->ty &&
         (ty_is_int(target->rhs->ty) || target->rhs->ty->kind == TY_BOOL);
}

LLVMValueRef lo_flat_addr(Lower *l, Node *target, LLVMValueRef *array) {
  Node *arr = target->lhs->lhs;
  const Type *at = arr->ty;
  LLVMValueRef a = *array = lo_expr(l, arr), shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  shape_of(l, at, a, shape, strides);
  LLVMValueRef i = lo_convert(l, lo_expr(l, target->rhs), target->rhs->ty, TYS(TY_I64));
  i = lo_index_wrapped(l, i, size_of(l, at->ndim, shape), 0);
  LLVMValueRef offset = const_i64(l, 0);
  for (int d = at->ndim - 1; d >= 0; d--) {  /* C order: the last axis varies fastest */
    offset = LLVMBuildAdd(l->b, offset, LLVMBuildMul(l->b, LLVMBuildURem(l->b, i, shape[d], ""), strides[d], ""), "");
    i = LLVMBuildUDiv(l->b, i, shape[d], "");
  }
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "");
  return LLVMBuildGEP2(l->b, l->mod->i8, data, &offset, 1, "flat.at");
}

/* a.flatten(order='C'): always a copy */
static const Type *ty_flatten(Infer *in, Node *n, const Type **args) {
  const Type *t = array_operand(in, n, args[0]);
  return t && ravel_order(in, n, t) >= 0 ? ty_array(t->elem, 1, 'C', false) : NULL;
}

static LLVMValueRef lo_flatten(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  bool fortran = ravel_order(NULL, n, arg->ty) == 1;
  const Type *t = fortran ? reversed_type(arg->ty) : arg->ty, *ct = ty_array(t->elem, t->ndim, 'C', false);
  LLVMValueRef a = lo_expr(l, arg), v = fortran ? reversed_view(l, arg->ty, a) : a, shape[RC_MAX_NDIM];
  LLVMValueRef copy = lo_copy_array(l, ct, t, v);
  shape_of(l, t, v, shape, NULL);
  LLVMValueRef size = size_of(l, t->ndim, shape), stride = const_i64(l, ty_bits(t->elem) / 8);
  LLVMValueRef r = np_view(l, n->ty, copy, data_of(l, copy), &size, &stride);  /* the copy's reference */
  lo_done_with(l, arg, a);
  return r;
}

/* a.tobytes(): a's elements' bytes in C order, a new bytes (a C-ordered
 * copy seen as its bytes). */
static const Type *ty_tobytes(Infer *in, Node *n, const Type **args) {
  const Type *t = array_operand(in, n, args[0]);
  if (t && !ty_is_scalar(t->elem))
    return ty_error(in, n, "array.tobytes() takes an array of numbers in compiled code, got %s", t->name);
  return t ? TYS(TY_BYTES) : NULL;
}

static LLVMValueRef lo_tobytes(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  LLVMValueRef a = lo_expr(l, arg), shape[RC_MAX_NDIM];
  LLVMValueRef copy = lo_copy_array(l, ty_array(t->elem, t->ndim, 'C', false), t, a);
  shape_of(l, t, a, shape, NULL);
  LLVMValueRef size = LLVMBuildMul(l->b, size_of(l, t->ndim, shape), const_i64(l, ty_bits(t->elem) / 8), "");
  LLVMValueRef r = np_view(l, n->ty, copy, data_of(l, copy), &size, (LLVMValueRef[]){const_i64(l, 1)});  /* the copy's reference */
  lo_done_with(l, arg, a);
  return r;
}

/* ---------------------------------------------------------------- transpose */

/* An int written in the source, within ndim dimensions where ndim is not -1. */
static bool constant_axis(const Node *axis, int ndim) {
  int64_t v;
  return const_int(axis, &v) && (ndim < 0 || (v >= -ndim && v < ndim));
}

/* Whether axis is constants (an int or a tuple of ints), within ndim
 * dimensions where ndim is not -1. */
static bool constant_axes(const Node *axis, int ndim) {
  if (axis->kind != N_TUPLE) return constant_axis(axis, ndim);
  for (int i = 0; i < axis->list.len; i++)
    if (!constant_axis(axis->list.items[i], ndim)) return false;
  return true;
}

/* An int, or a tuple of them, written in the source. */
static bool axes_written(const Node *axis) { return constant_axes(axis, -1); }

/* The item of v[0..len) at run-time index i (in range). */
static LLVMValueRef item_at(Lower *l, const LLVMValueRef *v, int len, LLVMValueRef i) {
  LLVMValueRef r = v[0];
  for (int k = 1; k < len; k++) r = pick(l, is_dim(l, i, k), v[k], r);
  return r;
}

/* Whether two of axes[0..count) are the same axis. */
static LLVMValueRef repeated_axis(Lower *l, const LLVMValueRef *axes, int count) {
  LLVMValueRef r = const_bool(l, false);
  for (int i = 0; i < count; i++)
    for (int k = 0; k < i; k++) r = LLVMBuildOr(l->b, r, LLVMBuildICmp(l->b, LLVMIntEQ, axes[i], axes[k], ""), "");
  return r;
}

/* transpose's axes (NULL: none given), a.transpose(1, 0, 2)'s made one
 * tuple in *tuple */
static Node *transpose_axes_node(Node *n, Node *tuple) {
  Node *axes = ty_kwarg(n, "axes");
  *tuple = (Node){.kind = N_TUPLE, .line = n->line, .col = n->col, .list = {n->list.items + 1, n->list.len - 1}};
  if (!axes && n->list.len == 2) axes = n->list.items[1];
  return !axes && n->list.len > 2 ? tuple : axes;
}

/* The permutation of transpose's axes: given as ints after the array, one
 * tuple, or axes=; reversed when none is given. -1 with the error (in
 * NULL when typing is done). */
static int transpose_axes(Infer *in, Node *n, int ndim, int *perm) {
  Node tuple, *axes = transpose_axes_node(n, &tuple);
  if (!axes) {
    for (int d = 0; d < ndim; d++) perm[d] = ndim - 1 - d;
    return ndim;
  }
  int count = const_axes(in, n, axes, ndim, perm);
  if (count >= 0 && count != ndim) {
    if (in) ty_error(in, axes, "%s(): axes don't match array", n->bi->name);
    return -1;
  }
  return count;
}

static char permuted_layout(const Type *t, const int *perm) {
  bool same = true, reversed = true;
  for (int d = 0; d < t->ndim; d++) {
    same = same && perm[d] == d;
    reversed = reversed && perm[d] == t->ndim - 1 - d;
  }
  if (same || t->ndim < 2) return t->layout;
  if (reversed) return t->layout == 'C' ? 'F' : t->layout == 'F' ? 'C' : 'A';
  return 'A';
}

/* How many axes transpose's axes known only at run time hold (ints, or a
 * tuple of them); -1 with the error. NULL: they are written. */
static int transpose_run_time_axes(Infer *in, Node *n, Node *axes) {
  bool spread = axes->kind == N_TUPLE;  /* (a.transpose(i, j)) */
  int count = spread ? axes->list.len : axes->ty->kind == TY_TUPLE ? axes->ty->nfields : 1;
  bool ints = count <= RC_MAX_NDIM;
  for (int k = 0; ints && k < count; k++)
    ints = ty_is_int(spread ? axes->list.items[k]->ty : axes->ty->kind == TY_TUPLE ? axes->ty->fields[k] : axes->ty);
  if (!ints) ty_error(in, axes, "%s()'s axes must be ints, at most %d of them", n->bi->name, RC_MAX_NDIM);
  return ints ? count : -1;
}

/* The type of a view by axes known only at run time: an 'A' array (the permutation is not known), as Numba's. */
static const Type *permuted_at_run_time_type(const Type *t) {
  return ty_array(t->elem, t->ndim, t->ndim > 1 ? 'A' : t->layout, t->readonly);
}

static const Type *ty_transpose(Infer *in, Node *n, const Type **args) {
  const Type *t = any_array_operand(in, n, args[0]);
  int perm[RC_MAX_NDIM];
  Node tuple, *axes = t ? transpose_axes_node(n, &tuple) : NULL;
  if (axes && !axes_written(axes)) {  /* known only at run time, as Numba takes them: an 'A' view */
    int count = transpose_run_time_axes(in, n, axes);
    if (count >= 0 && count != t->ndim) return ty_error(in, axes, "%s(): axes don't match array", n->bi->name);
    return count < 0 ? NULL : permuted_at_run_time_type(t);
  }
  if (!t || transpose_axes(in, n, t->ndim, perm) < 0) return NULL;
  return ty_array(t->elem, t->ndim, permuted_layout(t, perm), t->readonly);
}

static LLVMValueRef permuted(Lower *l, const Type *rt, const Type *t, LLVMValueRef a, const int *perm) {
  LLVMValueRef shape[RC_MAX_NDIM], strides[RC_MAX_NDIM], s[RC_MAX_NDIM], st[RC_MAX_NDIM];
  shape_of(l, t, a, s, st);
  for (int d = 0; d < t->ndim; d++) {
    shape[d] = s[perm[d]];
    strides[d] = st[perm[d]];
  }
  return np_owned_view(l, rt, a, data_of(l, a), shape, strides);
}

/* a viewed with its axes permuted by perm known only at run time (each in
 * range): transpose's and moveaxis's, of their axes given as variables. */
static LLVMValueRef permuted_at_run_time(Lower *l, const Type *rt, const Type *t, LLVMValueRef a, const LLVMValueRef *perm) {
  LLVMValueRef shape[RC_MAX_NDIM], strides[RC_MAX_NDIM], s[RC_MAX_NDIM], st[RC_MAX_NDIM];
  shape_of(l, t, a, s, st);
  for (int d = 0; d < t->ndim; d++) shape[d] = item_at(l, s, t->ndim, perm[d]), strides[d] = item_at(l, st, t->ndim, perm[d]);
  return np_owned_view(l, rt, a, data_of(l, a), shape, strides);
}

/* n's array argument viewed with its axes permuted by perm. */
static LLVMValueRef lo_permuted_arg(Lower *l, Node *n, const int *perm) {
  Node *arg = n->list.items[0];
  LLVMValueRef a = lo_expr(l, arg), r = permuted(l, n->ty, arg->ty, a, perm);
  lo_done_with(l, arg, a);
  return r;
}

/* a view of a by axes known at run time (ndim of them): each in range,
 * none repeated, as NumPy's transpose checks them */
static LLVMValueRef lo_permuted_at_run_time(Lower *l, Node *n, const Type *t, LLVMValueRef a, Node *axes) {
  LLVMValueRef perm[RC_MAX_NDIM];
  if (axes->kind == N_TUPLE)
    for (int d = 0; d < t->ndim; d++) perm[d] = lo_expr_as(l, axes->list.items[d], TYS(TY_I64));
  else
    lo_shape_arg(l, axes, perm);
  for (int d = 0; d < t->ndim; d++) perm[d] = np_axis_value(l, perm[d], t->ndim);
  lo_raise_if(l, repeated_axis(l, perm, t->ndim), RT_ERR_VALUE, "repeated axis in transpose");
  return permuted_at_run_time(l, n->ty, t, a, perm);
}

static LLVMValueRef lo_transpose(Lower *l, Node *n) {
  Node tuple, *axes = transpose_axes_node(n, &tuple), *arg = n->list.items[0];
  if (axes && !axes_written(axes)) {
    LLVMValueRef a = lo_expr(l, arg), r = lo_permuted_at_run_time(l, n, arg->ty, a, axes);
    lo_done_with(l, arg, a);
    return r;
  }
  int perm[RC_MAX_NDIM];
  transpose_axes(NULL, n, arg->ty->ndim, perm);
  return lo_permuted_arg(l, n, perm);
}

/* numpy.swapaxes(a, axis1, axis2) (and the method), numpy.moveaxis(a,
 * source, destination): views whose permutation constant axes give, or
 * axes known only at run time (moved_at_run_time) */
enum { MOVE_SWAP, MOVE_AXES };

/* The name of the axes argument i (1: from, 2: to) of n. */
static const char *moved_name(const Node *n, int i) {
  bool swap = n->bi->ival == MOVE_SWAP;
  return i == 1 ? (swap ? "axis1" : "source") : (swap ? "axis2" : "destination");
}

static int moved_axes(Infer *in, Node *n, int ndim, int *perm) {
  bool swap = n->bi->ival == MOVE_SWAP;
  Node *from = bi_arg(n, 1, moved_name(n, 1)), *to = bi_arg(n, 2, moved_name(n, 2));
  int src[RC_MAX_NDIM], dst[RC_MAX_NDIM], rest[RC_MAX_NDIM], nrest = 0;
  if (!from || !to) {  /* they may come by keyword: the row counts them optional */
    if (in) ty_error(in, n, "%s() missing required argument '%s'", n->bi->name, moved_name(n, !from ? 1 : 2));
    return -1;
  }
  int count = const_axes(in, n, from, ndim, src);
  if (count < 0 || const_axes(in, n, to, ndim, dst) != count) {
    if (count >= 0 && in && !ty_failed(in))
      ty_error(in, n, "%s(): `source` and `destination` arguments must have the same number of elements", n->bi->name);
    return -1;
  }
  if (swap && (from->kind == N_TUPLE || to->kind == N_TUPLE)) {
    if (in) ty_error(in, n, "%s(): its axes are ints", n->bi->name);
    return -1;
  }
  for (int d = 0; d < ndim; d++) perm[d] = d;
  if (swap) {
    perm[src[0]] = dst[0], perm[dst[0]] = src[0];
    return ndim;
  }
  bool moved[RC_MAX_NDIM] = {false}, placed[RC_MAX_NDIM] = {false};
  for (int i = 0; i < count; i++) moved[src[i]] = true, placed[dst[i]] = true, perm[dst[i]] = src[i];
  for (int d = 0; d < ndim; d++)
    if (!moved[d]) rest[nrest++] = d;
  for (int d = 0, k = 0; d < ndim; d++)
    if (!placed[d]) perm[d] = rest[k++];
  return ndim;
}

/* Whether n's axes are known only at run time: variables, as Numba takes
 * them (its moveaxis and swapaxes read them then, not as constants), or
 * constants out of a's dimensions, which Numba checks then (NumPy's
 * AxisError when the call runs: a line never run compiles). */
static bool moved_at_run_time(Node *n) {
  Node *from = bi_arg(n, 1, moved_name(n, 1)), *to = bi_arg(n, 2, moved_name(n, 2));
  if (!from || !to) return false;
  if (!axes_written(from) || !axes_written(to)) return true;
  const Type *t = n->list.items[0]->ty;
  return t && t->kind == TY_ARRAY && !(constant_axes(from, t->ndim) && constant_axes(to, t->ndim));
}

/* How many axes the argument i of n holds at run time (an int: 1; for
 * moveaxis a tuple of ints: its length); -1 with the error. */
static int run_time_axes(Infer *in, Node *n, int i) {
  const Type *t = bi_arg(n, i, moved_name(n, i))->ty;
  if (ty_is_int(t)) return 1;
  bool ints = t->kind == TY_TUPLE && n->bi->ival == MOVE_AXES && t->nfields <= RC_MAX_NDIM;
  for (int k = 0; ints && k < t->nfields; k++) ints = ty_is_int(t->fields[k]);
  if (!ints) {
    ty_error(in, n, "%s()'s %s must be %s, got %s", n->bi->name, moved_name(n, i),
             n->bi->ival == MOVE_AXES ? "an int or a tuple of ints" : "an int", t->name);
    return -1;
  }
  return t->nfields;
}

static const Type *ty_moved(Infer *in, Node *n, const Type **args) {
  const Type *t = any_array_operand(in, n, args[0]);
  int perm[RC_MAX_NDIM];
  if (t && moved_at_run_time(n)) {
    int count = run_time_axes(in, n, 1);
    if (count < 0 || run_time_axes(in, n, 2) < 0) return NULL;
    if (count != run_time_axes(in, n, 2))
      return ty_error(in, n, "%s(): `source` and `destination` arguments must have the same number of elements", n->bi->name);
    return permuted_at_run_time_type(t);
  }
  if (!t || moved_axes(in, n, t->ndim, perm) < 0) return NULL;
  return ty_array(t->elem, t->ndim, permuted_layout(t, perm), t->readonly);
}

/* moveaxis's permutation of axes known at run time (normalised, distinct):
 * axis src[i] goes to dst[i], the others keep their order in the places
 * left, the k-th of those places taking the k-th unmoved axis. */
static void moved_perm(Lower *l, int ndim, int count, const LLVMValueRef *src, const LLVMValueRef *dst, LLVMValueRef *perm) {
  LLVMValueRef placed[RC_MAX_NDIM], moved[RC_MAX_NDIM], place_rank[RC_MAX_NDIM], axis_rank[RC_MAX_NDIM];
  LLVMValueRef one = const_i64(l, 1), places = const_i64(l, 0), axes = const_i64(l, 0);
  for (int d = 0; d < ndim; d++) {
    perm[d] = const_i64(l, d), placed[d] = moved[d] = const_bool(l, false);
    for (int i = 0; i < count; i++) {
      LLVMValueRef here = is_dim(l, dst[i], d);
      placed[d] = LLVMBuildOr(l->b, placed[d], here, "");
      perm[d] = pick(l, here, src[i], perm[d]);
      moved[d] = LLVMBuildOr(l->b, moved[d], is_dim(l, src[i], d), "");
    }
    place_rank[d] = places, axis_rank[d] = axes;
    places = LLVMBuildAdd(l->b, places, pick(l, placed[d], const_i64(l, 0), one), "");
    axes = LLVMBuildAdd(l->b, axes, pick(l, moved[d], const_i64(l, 0), one), "");
  }
  for (int d = 0; d < ndim; d++) {
    LLVMValueRef axis = perm[d];
    for (int k = 0; k < ndim; k++) {
      LLVMValueRef kth = LLVMBuildAnd(l->b, LLVMBuildNot(l->b, moved[k], ""),
                                      LLVMBuildICmp(l->b, LLVMIntEQ, axis_rank[k], place_rank[d], ""), "");
      axis = pick(l, LLVMBuildAnd(l->b, LLVMBuildNot(l->b, placed[d], ""), kth, ""), const_i64(l, k), axis);
    }
    perm[d] = axis;
  }
}

static LLVMValueRef lo_moved_at_run_time(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  LLVMValueRef a = lo_expr(l, arg), src[RC_MAX_NDIM], dst[RC_MAX_NDIM], perm[RC_MAX_NDIM];
  int count = lo_shape_arg(l, bi_arg(n, 1, moved_name(n, 1)), src);
  lo_shape_arg(l, bi_arg(n, 2, moved_name(n, 2)), dst);
  for (int i = 0; i < count; i++)
    src[i] = named_axis_value(l, src[i], t->ndim, moved_name(n, 1)), dst[i] = named_axis_value(l, dst[i], t->ndim, moved_name(n, 2));
  lo_raise_if(l, repeated_axis(l, src, count), RT_ERR_VALUE, "repeated axis in `source` argument");
  lo_raise_if(l, repeated_axis(l, dst, count), RT_ERR_VALUE, "repeated axis in `destination` argument");
  if (n->bi->ival == MOVE_SWAP) {
    for (int d = 0; d < t->ndim; d++)
      perm[d] = pick(l, is_dim(l, src[0], d), dst[0], pick(l, is_dim(l, dst[0], d), src[0], const_i64(l, d)));
  } else {
    moved_perm(l, t->ndim, count, src, dst, perm);
  }
  LLVMValueRef r = permuted_at_run_time(l, n->ty, t, a, perm);
  lo_done_with(l, arg, a);
  return r;
}

static LLVMValueRef lo_moved(Lower *l, Node *n) {
  if (moved_at_run_time(n)) return lo_moved_at_run_time(l, n);
  int perm[RC_MAX_NDIM];
  moved_axes(NULL, n, n->list.items[0]->ty->ndim, perm);
  return lo_permuted_arg(l, n, perm);
}

/* numpy.rot90(m, k=1): m turned k quarter turns in the plane of its first
 * two axes, a view: k (taken modulo 4, at run time) picks its shape,
 * strides and first element among NumPy's four */
static const Type *ty_rot90(Infer *in, Node *n, const Type **args) {
  const Type *t = array_operand(in, n, args[0]);
  Node *k = bi_arg(n, 1, "k");
  if (!t) return NULL;
  if (t->ndim < 2) return ty_error(in, n, "%s(): Axes=(0, 1) out of range for array of ndim=%d.", n->bi->name, t->ndim);
  if (k && !int_arg(in, n, k, "k")) return NULL;
  return ty_array(t->elem, t->ndim, 'A', t->readonly);
}

static LLVMValueRef lo_rot90(Lower *l, Node *n) {
  Node *arg = n->list.items[0], *kn = bi_arg(n, 1, "k");
  const Type *t = arg->ty;
  LLVMValueRef a = lo_expr(l, arg), s[RC_MAX_NDIM], st[RC_MAX_NDIM], four = const_i64(l, 4), one = const_i64(l, 1);
  LLVMValueRef k = kn ? lo_expr_as(l, kn, TYS(TY_I64)) : one;
  k = LLVMBuildSRem(l->b, LLVMBuildAdd(l->b, LLVMBuildSRem(l->b, k, four, ""), four, ""), four, "");
  shape_of(l, t, a, s, st);
  LLVMValueRef is1 = is_dim(l, k, 1), is2 = is_dim(l, k, 2), is3 = is_dim(l, k, 3), odd = LLVMBuildOr(l->b, is1, is3, "");
  LLVMValueRef last0 = LLVMBuildMul(l->b, LLVMBuildSub(l->b, s[0], one, ""), st[0], "");
  LLVMValueRef last1 = LLVMBuildMul(l->b, LLVMBuildSub(l->b, s[1], one, ""), st[1], "");
  LLVMValueRef neg0 = LLVMBuildNeg(l->b, st[0], ""), neg1 = LLVMBuildNeg(l->b, st[1], ""), zero = const_i64(l, 0);
  LLVMValueRef shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  for (int d = 2; d < t->ndim; d++) shape[d] = s[d], strides[d] = st[d];
  shape[0] = pick(l, odd, s[1], s[0]);
  shape[1] = pick(l, odd, s[0], s[1]);
  /* k = 1: out[i, j] = m[j, n1 - 1 - i]; 2: m[n0 - 1 - i, n1 - 1 - j]; 3: m[n0 - 1 - j, i] */
  strides[0] = pick(l, is1, neg1, pick(l, is2, neg0, pick(l, is3, st[1], st[0])));
  strides[1] = pick(l, is1, st[0], pick(l, is2, neg1, pick(l, is3, neg0, st[1])));
  LLVMValueRef offset = pick(l, is1, last1, pick(l, is2, LLVMBuildAdd(l->b, last0, last1, ""), pick(l, is3, last0, zero)));
  LLVMValueRef empty = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, s[0], zero, ""), LLVMBuildICmp(l->b, LLVMIntEQ, s[1], zero, ""), "");
  offset = pick(l, empty, zero, offset);  /* no element: the data pointer as it is */
  LLVMValueRef data = LLVMBuildGEP2(l->b, l->mod->i8, data_of(l, a), &offset, 1, "");
  LLVMValueRef r = np_owned_view(l, n->ty, a, data, shape, strides);
  lo_done_with(l, arg, a);
  return r;
}

/* a.T: the dimensions reversed (also in CUDA code: a view makes nothing) */
static const Type *ty_T(Infer *in, Node *n, const Type **args) {
  int perm[RC_MAX_NDIM];
  for (int d = 0; d < args[0]->ndim; d++) perm[d] = args[0]->ndim - 1 - d;
  return ty_array(args[0]->elem, args[0]->ndim, permuted_layout(args[0], perm), args[0]->readonly);
}

static LLVMValueRef lo_T(Lower *l, Node *n) {
  int perm[RC_MAX_NDIM];
  for (int d = 0; d < n->lhs->ty->ndim; d++) perm[d] = n->lhs->ty->ndim - 1 - d;
  LLVMValueRef a = lo_expr(l, n->lhs), r = permuted(l, n->ty, n->lhs->ty, a, perm);
  lo_done_with(l, n->lhs, a);
  return r;
}

/* ---------------------------------------------------------------- squeeze, expand_dims */

static const char *const axis_kw[] = {"axis", NULL};

/* The axes squeeze removes (flags in drop); -1 with the error. Without
 * axis the dimensions of length 1 are removed, and which those are is
 * known only at run time: ruchey's types need the number of dimensions,
 * so axis is then required (Numba has no squeeze at all). */
static int squeeze_axes(Infer *in, Node *n, int ndim, bool *drop) {
  Node *axis = np_arg_node(n, 1, "axis");
  for (int d = 0; d < ndim; d++) drop[d] = false;
  if (!axis) {
    if (ndim == 0) return 0;
    if (in) ty_error(in, n, "%s() without axis removes the dimensions of length 1, which are known only at run "
                     "time: give the axes to remove, as axis=", n->bi->name);
    return -1;
  }
  int axes[RC_MAX_NDIM];
  int count = const_axes(in, n, axis, ndim, axes);
  for (int i = 0; i < count; i++) drop[axes[i]] = true;
  return count;
}

static const Type *ty_squeeze(Infer *in, Node *n, const Type **args) {
  const Type *t = any_array_operand(in, n, args[0]);
  bool drop[RC_MAX_NDIM];
  if (!t) return NULL;
  np_arg(in, n, 1, "axis");  /* an error if given twice */
  if (ty_failed(in)) return NULL;
  int count = squeeze_axes(in, n, t->ndim, drop);
  return count < 0 ? NULL : ty_array(t->elem, t->ndim - count, t->layout, t->readonly);
}

static LLVMValueRef lo_squeeze(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  bool drop[RC_MAX_NDIM];
  squeeze_axes(NULL, n, t->ndim, drop);
  LLVMValueRef a = lo_expr(l, arg), s[RC_MAX_NDIM], st[RC_MAX_NDIM], shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  shape_of(l, t, a, s, st);
  LLVMValueRef bad = const_bool(l, false);
  int k = 0;
  for (int d = 0; d < t->ndim; d++) {
    if (drop[d]) {
      bad = LLVMBuildOr(l->b, bad, LLVMBuildICmp(l->b, LLVMIntNE, s[d], const_i64(l, 1), ""), "");
      continue;
    }
    shape[k] = s[d];
    strides[k++] = st[d];
  }
  lo_raise_if(l, bad, RT_ERR_VALUE, "cannot select an axis to squeeze out which has size not equal to one");
  LLVMValueRef r = np_owned_view(l, n->ty, a, data_of(l, a), shape, strides);
  lo_done_with(l, arg, a);
  return r;
}

/* numpy.expand_dims(a, axis): axes of length 1 inserted at the (constant)
 * positions of the result */
static int expand_axes(Infer *in, Node *n, int ndim, bool *added) {
  Node *axis = np_arg_node(n, 1, "axis");
  int count = axis->kind == N_TUPLE ? axis->list.len : 1, axes[RC_MAX_NDIM];
  if (ndim + count > RC_MAX_NDIM) return in ? (ty_error(in, n, "%s(): at most %d dimensions", n->bi->name, RC_MAX_NDIM), -1) : -1;
  for (int d = 0; d < ndim + count; d++) added[d] = false;
  if (const_axes(in, n, axis, ndim + count, axes) < 0) return -1;
  for (int i = 0; i < count; i++) added[axes[i]] = true;
  return count;
}

/* One axis known only at run time (an int not written out): where it
 * goes is chosen then (expand_at_run_time). */
static bool expand_at_one_axis(Node *n) {
  Node *axis = np_arg_node(n, 1, "axis");
  int64_t v;
  return axis->kind != N_TUPLE && !const_int(axis, &v) && ty_is_int(axis->ty);
}

/* A number given where an array is taken, as the 0-d array NumPy reads it as
 * (numpy.atleast_1d(2.0)): numpy.asarray of it, in its place; else t. */
static const Type *number_as_array(Infer *in, Node *n, const Type *t) {
  return t && ty_is_scalar(t) && !ty_is_time(t) ? ty_wrap_call(in, n->list.items[0], "numpy.asarray") : t;
}

static const Type *ty_expand_dims(Infer *in, Node *n, const Type **args) {
  const Type *t = any_array_operand(in, n, number_as_array(in, n, args[0]));
  bool added[RC_MAX_NDIM];
  if (!t || !np_arg(in, n, 1, "axis")) return ty_failed(in) ? NULL : ty_error(in, n, "%s() needs axis", n->bi->name);
  if (expand_at_one_axis(n)) {
    if (t->ndim + 1 > RC_MAX_NDIM) return ty_error(in, n, "%s(): at most %d dimensions", n->bi->name, RC_MAX_NDIM);
    return ty_array(t->elem, t->ndim + 1, t->ndim ? t->layout : 'C', t->readonly);
  }
  int count = expand_axes(in, n, t->ndim, added);
  return count < 0 ? NULL : ty_array(t->elem, t->ndim + count, t->ndim ? t->layout : 'C', t->readonly);
}

/* n's array argument viewed with axes of length 1 where added says */
static LLVMValueRef view_with_axes(Lower *l, Node *n, const bool *added, int count) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  LLVMValueRef a = lo_expr(l, arg), s[RC_MAX_NDIM], st[RC_MAX_NDIM], shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  shape_of(l, t, a, s, st);
  /* an inserted axis takes the stride a C (or F) array of the new shape would
   * have there: the layout stays true */
  int k = 0;
  for (int d = 0; d < t->ndim + count; d++) {
    if (!added[d]) {
      shape[d] = s[k];
      strides[d] = st[k++];
    } else {
      shape[d] = const_i64(l, 1);
      strides[d] = NULL;
    }
  }
  LLVMValueRef cs[RC_MAX_NDIM];
  contiguous_strides(l, t->elem, t->ndim + count, shape, cs, 'C');
  for (int d = 0; d < t->ndim + count; d++)
    if (!strides[d]) strides[d] = cs[d];
  LLVMValueRef r = np_owned_view(l, n->ty, a, data_of(l, a), shape, strides);
  lo_done_with(l, arg, a);
  return r;
}

/* a viewed with an axis of length 1 at the run-time axis of the result
 * (checked as NumPy checks it), of the stride a C array would have there. */
static LLVMValueRef expand_at_run_time(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  int nd = t->ndim + 1;
  LLVMValueRef a = lo_expr(l, arg), s[RC_MAX_NDIM], st[RC_MAX_NDIM], shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  LLVMValueRef at = np_runtime_axis(l, np_arg_node(n, 1, "axis"), nd), one = const_i64(l, 1);
  shape_of(l, t, a, s, st);
  for (int d = 0; d < nd; d++) {
    LLVMValueRef before = LLVMBuildICmp(l->b, LLVMIntSGT, at, const_i64(l, d), "");
    LLVMValueRef here = d < t->ndim ? s[d] : one, past = d ? s[d - 1] : one;
    shape[d] = LLVMBuildSelect(l->b, is_dim(l, at, d), one, LLVMBuildSelect(l->b, before, here, past, ""), "");
    here = d < t->ndim ? st[d] : one, past = d ? st[d - 1] : one;
    strides[d] = LLVMBuildSelect(l->b, before, here, past, "");
  }
  LLVMValueRef cs[RC_MAX_NDIM];
  contiguous_strides(l, t->elem, nd, shape, cs, 'C');
  for (int d = 0; d < nd; d++) strides[d] = LLVMBuildSelect(l->b, is_dim(l, at, d), cs[d], strides[d], "");
  LLVMValueRef r = np_owned_view(l, n->ty, a, data_of(l, a), shape, strides);
  lo_done_with(l, arg, a);
  return r;
}

static LLVMValueRef lo_expand_dims(Lower *l, Node *n) {
  if (expand_at_one_axis(n)) return expand_at_run_time(l, n);
  bool added[RC_MAX_NDIM];
  int count = expand_axes(NULL, n, n->list.items[0]->ty->ndim, added);
  return view_with_axes(l, n, added, count);
}

/* numpy.atleast_1d/2d/3d(a) (the row's ival: how many dimensions) of one
 * array (of several: atleast_each): a view with axes of length 1 added where NumPy adds them, before
 * a 1-d array's axis (and, for 3-d, after it), after a 2-d array's. */
static int atleast_axes(int ndim, int want, bool *added) {
  for (int d = 0; d < RC_MAX_NDIM; d++) added[d] = false;
  if (ndim >= want) return 0;
  if (ndim == 0)
    for (int d = 0; d < want; d++) added[d] = true;
  else if (ndim == 1)
    added[0] = added[2] = true;  /* 2 only when want is 3 */
  else
    added[2] = true;
  if (want == 2) added[2] = false;
  return want - ndim;
}

/* numpy.atleast_1d(a, b, ...): the tuple of each one's, as NumPy 2 and
 * Numba give it; n becomes that tuple. */
static const Type *atleast_each(Infer *in, Node *n) {
  Node *tuple = arena_alloc(in->f->arena, sizeof(Node));
  *tuple = (Node){.kind = N_TUPLE, .line = n->line, .col = n->col};
  tuple->list = (NodeList){.items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)n->list.len), .len = n->list.len};
  for (int i = 0; i < n->list.len; i++) {
    Node *one = arena_alloc(in->f->arena, sizeof(Node));
    *one = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .bi = n->bi};
    one->list = (NodeList){.items = arena_alloc(in->f->arena, sizeof(Node *)), .len = 1};
    one->list.items[0] = n->list.items[i];
    tuple->list.items[i] = one;
  }
  *n = *tuple;
  return ty_expr(in, n);
}

static const Type *ty_atleast(Infer *in, Node *n, const Type **args) {
  if (n->list.len > 1) return atleast_each(in, n);
  const Type *t = array_operand(in, n, number_as_array(in, n, args[0]));
  if (!t) return NULL;
  int want = n->bi->ival;
  return t->ndim >= want ? t : ty_array(t->elem, want, t->ndim ? t->layout : 'C', t->readonly);
}

static LLVMValueRef lo_atleast(Lower *l, Node *n) {
  bool added[RC_MAX_NDIM];
  return view_with_axes(l, n, added, atleast_axes(n->list.items[0]->ty->ndim, n->bi->ival, added));
}

/* ---------------------------------------------------------------- astype, view, fill */

/* a.astype(dtype), a.view(dtype): a dtype given, None not (Numba refuses
 * a.astype(None), which NumPy reads as float64) */
static bool dtype_given(Infer *in, Node *n) {
  Node *d = np_arg(in, n, 1, "dtype");
  return d && d->kind != N_NONE;
}

/* a.astype(dtype): a converted copy, of a's order if Fortran (order='K') */
static const Type *ty_astype(Infer *in, Node *n, const Type **args) {
  const Type *t = array_operand(in, n, args[0]);
  if (!t) return NULL;
  if (!dtype_given(in, n)) return ty_failed(in) ? NULL : ty_error(in, n, "%s() needs a dtype", n->bi->name);
  const Type *elem = np_dtype_arg(in, n, 1, NULL);
  return elem ? ty_array(elem, t->ndim, np_like_layout(t), false) : NULL;
}

static LLVMValueRef lo_astype(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  LLVMValueRef a = lo_expr(l, arg), r = lo_copy_array(l, n->ty, arg->ty, a);
  lo_done_with(l, arg, a);
  return r;
}

/* a.view(dtype): the same memory read as another dtype (records too);
 * of another item size (NumPy's rule), the last axis, contiguous, holds
 * its bytes in items of the new size (a C array stays one). Nothing is
 * made: CUDA code takes it too. */
static const Type *ty_view(Infer *in, Node *n, const Type **args) {
  const Type *t = any_array_operand(in, n, args[0]);
  if (!t) return NULL;
  if (!dtype_given(in, n)) return ty_failed(in) ? NULL : ty_error(in, n, "%s() needs a dtype", n->bi->name);
  const Type *elem = np_dtype_arg(in, n, 1, NULL);
  if (!elem || ty_bits(elem) == ty_bits(t->elem)) return elem ? ty_array(elem, t->ndim, t->layout, t->readonly) : NULL;
  if (!t->ndim) return ty_array(elem, 0, 'C', t->readonly);  /* (NumPy's ValueError when it runs, as Numba's) */
  return ty_array(elem, t->ndim, t->layout == 'C' ? 'C' : 'A', t->readonly);
}

static LLVMValueRef lo_view_as(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  int64_t from = ty_bits(t->elem) / 8, to = ty_bits(n->ty->elem) / 8;
  if (from == to) return lo_owned(l, arg);
  if (!t->ndim) {  /* (the array evaluated first, as Python's call does) */
    lo_done_with(l, arg, lo_expr(l, arg));
    lo_raise_if(l, const_bool(l, true), RT_ERR_VALUE,
                "Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
    return LLVMGetUndef(lo_type(l, n->ty));
  }
  LLVMValueRef a = lo_expr(l, arg), shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  shape_of(l, t, a, shape, strides);
  int last = t->ndim - 1;
  LLVMValueRef one = LLVMBuildICmp(l->b, LLVMIntEQ, shape[last], const_i64(l, 1), "");
  LLVMValueRef empty = LLVMBuildICmp(l->b, LLVMIntEQ, size_of(l, t->ndim, shape), const_i64(l, 0), "");
  LLVMValueRef apart = LLVMBuildICmp(l->b, LLVMIntNE, strides[last], const_i64(l, from), "");
  lo_raise_if(l, LLVMBuildAnd(l->b, apart, LLVMBuildNot(l->b, LLVMBuildOr(l->b, one, empty, ""), ""), ""), RT_ERR_VALUE,
              "To change to a dtype of a different size, the last axis must be contiguous");
  if (to < from && from % to)  /* (records' sizes: a number's divides any larger number's) */
    lo_raise_if(l, const_bool(l, true), RT_ERR_VALUE,
                "When changing to a smaller dtype, its size must be a divisor of the size of original dtype");
  LLVMValueRef bytes = LLVMBuildMul(l->b, shape[last], const_i64(l, from), "");
  if (to > from)
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildSRem(l->b, bytes, const_i64(l, to), ""), const_i64(l, 0), ""),
                RT_ERR_VALUE, "When changing to a larger dtype, its size must be a divisor of the total size in bytes "
                "of the last axis of the array.");
  shape[last] = LLVMBuildSDiv(l->b, bytes, const_i64(l, to), "");
  strides[last] = const_i64(l, to);
  LLVMValueRef r = np_owned_view(l, n->ty, a, data_of(l, a), shape, strides);
  lo_done_with(l, arg, a);
  return r;
}

/* a.item(): the one element of an array of size 1 (NumPy's ValueError
 * otherwise), as its dtype's scalar (Numba's; NumPy gives a Python one). */
/* (of a '<Un' or '|Sn' array: a str or a bytes, as its items read) */
static const Type *ty_item(Infer *in, Node *n, const Type **args) {
  const Type *t = any_array_operand(in, n, args[0]);
  if (t && ty_is_fixed_text(t->elem) && ty_no_allocation(in))
    return ty_error(in, n, "array.item() of %s makes a new str or bytes, which kernels cannot", t->name);
  if (t && ty_is_fixed_text(t->elem)) return t->elem->kind == TY_CHARSEQ ? TYS(TY_STR) : TYS(TY_BYTES);
  if (t && t->elem->kind == TY_F16) return TYS(TY_F64);  /* a Python float, as NumPy's item() (exact) */
  return t ? t->elem : NULL;
}

static LLVMValueRef lo_item(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  LLVMValueRef a = lo_expr(l, arg), shape[RC_MAX_NDIM];
  shape_of(l, t, a, shape, NULL);
  if (t->ndim)
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, size_of(l, t->ndim, shape), const_i64(l, 1), ""), RT_ERR_VALUE,
                "can only convert an array of size 1 to a Python scalar");
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "");
  LLVMValueRef v = ty_is_fixed_text(t->elem) ? lo_text_read(l, t->elem, data)
                                              : lo_convert(l, lo_load_scalar(l, t->elem, data), t->elem, n->ty);
  lo_done_with(l, arg, a);
  return v;
}

/* The truth of an array where a condition reads it (if a[mask] >= x:),
 * as NumPy's and Numba's: its one element's; an empty array is false
 * before NumPy 2.2 and a ValueError since, as is an array of more. */
static const Type *ty_array_truth(Infer *in, Node *n, const Type **args) { return TYS(TY_BOOL); }

static LLVMValueRef lo_array_truth(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  LLVMValueRef a = lo_expr(l, arg), shape[RC_MAX_NDIM];
  shape_of(l, t, a, shape, NULL);
  LLVMValueRef size = size_of(l, t->ndim, shape);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSGT, size, const_i64(l, 1), ""), RT_ERR_VALUE,
              "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
  LLVMValueRef empty = LLVMBuildICmp(l->b, LLVMIntEQ, size, const_i64(l, 0), "");
  if (rt_numpy_version >= 202)  /* (the cache's key holds NumPy's version) */
    lo_raise_if(l, empty, RT_ERR_VALUE,
              "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is "
              "not empty.");
  LLVMBasicBlockRef from = LLVMGetInsertBlock(l->b), one = new_block(l, "truth.one"), done = new_block(l, "truth.done");
  LLVMBuildCondBr(l->b, empty, done, one);
  position(l, one);
  LLVMValueRef v = lo_truth(l, lo_load_scalar(l, t->elem, LLVMBuildExtractValue(l->b, a, 2, "")), t->elem);
  LLVMBasicBlockRef loaded = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef r = LLVMBuildPhi(l->b, l->mod->i1, "truth");
  LLVMValueRef values[2] = {LLVMConstInt(l->mod->i1, 0, 0), v};
  LLVMBasicBlockRef blocks[2] = {from, loaded};
  LLVMAddIncoming(r, values, blocks, 2);
  lo_done_with(l, arg, a);
  return r;
}

/* a.fill(value) */
static const Type *ty_fill(Infer *in, Node *n, const Type **args) {
  const Type *t = any_array_operand(in, n, args[0]);
  if (t && ty_is_fixed_text(t->elem) && ty_no_allocation(in))
    return ty_error(in, n, "array.fill() of %s calls the runtime, which kernels cannot", t->name);
  if (t && ty_is_fixed_text(t->elem)) {  /* '<Un' takes a str, '|Sn' a bytes, as their items */
    const Type *item = t->elem->kind == TY_CHARSEQ ? TYS(TY_STR) : TYS(TY_BYTES);
    if (args[1] != item) return ty_error(in, n->list.items[1], "array.fill() of %s takes a %s, got %s", t->name,
                                         item == TYS(TY_STR) ? "str" : "bytes", args[1]->name);
  } else if (!t || !ty_need_scalar(in, n->list.items[1], args[1], "array.fill()")) {
    return NULL;
  }
  if (t->readonly) return ty_error(in, n, "cannot write to a read-only array");
  return TYS(TY_NONE);
}

typedef struct FillArgs {
  const Type *t;
  LLVMValueRef a, v;
} FillArgs;

static void fill_one(Lower *l, LLVMValueRef *idx, void *arg) {
  FillArgs *f = arg;
  if (ty_is_fixed_text(f->t->elem)) lo_text_write(l, f->t->elem, addr_at(l, f->t, f->a, idx), f->v);
  else lo_store_scalar(l, f->t->elem, addr_at(l, f->t, f->a, idx), f->v);
}

static LLVMValueRef lo_fill_method(Lower *l, Node *n) {
  Node *arg = n->list.items[0], *val = n->list.items[1];
  bool text = ty_is_fixed_text(arg->ty->elem);
  LLVMValueRef a = lo_expr(l, arg), shape[RC_MAX_NDIM];
  LLVMValueRef v = text ? lo_expr(l, val) : lo_expr_as(l, val, arg->ty->elem);
  shape_of(l, arg->ty, a, shape, NULL);
  if (!text && (arg->ty->layout == 'C' || arg->ty->layout == 'F'))  /* in memory order, on the pool where many */
    lo_fill(l, arg->ty->elem, data_of(l, a), size_of(l, arg->ty->ndim, shape), v);
  else
    lo_for_each_index(l, arg->ty->ndim, shape, fill_one, &(FillArgs){arg->ty, a, v});
  if (text) lo_done_with(l, val, v);
  lo_done_with(l, arg, a);
  return LLVMGetUndef(l->mod->i8);
}

/* numpy.fill_diagonal(a, val, wrap=False): the elements (i, i, ...) set
 * to val, a number or an array (or a tuple or list of numbers) read in
 * turn in C order (cycled), as NumPy's a.flat[:end:step] = val: a 2-d array's diagonal is every (columns + 1)th
 * element in C order, within the first square unless wrap lets a tall
 * one's restart below it; more dimensions must all be equal. */
static const char *const fill_diagonal_kw[] = {"wrap", NULL};

static const Type *ty_fill_diagonal(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0], *v = args[1];
  if (t->kind != TY_ARRAY || t->ndim < 2)
    return ty_error(in, n, "numpy.fill_diagonal() takes an array of at least 2 dimensions, not %s", t->name);
  if (t->readonly) return ty_error(in, n, "cannot write to a read-only array");
  if (!(v = ty_arraylike(in, n->list.items[1], v))) return NULL;
  if (v->kind == TY_ARRAY && v->ndim != 1 && ty_is_scalar(v->elem)) v = ty_wrap_call(in, n->list.items[1], "numpy.ravel");
  if (!v) return NULL;
  const Type *elem = v->kind == TY_ARRAY ? v->elem : v;
  if (!ty_is_scalar(elem))
    return ty_error(in, n->list.items[1], "numpy.fill_diagonal() takes a number or an array of values, not %s", v->name);
  if (ty_is_complex(elem) && !ty_is_complex(t->elem))
    return ty_error(in, n->list.items[1], "cannot store %s values into an array of %s", elem->name, t->elem->name);
  Node *wrap = np_arg_node(n, 2, "wrap");
  if (wrap && wrap->ty->kind != TY_BOOL)
    return ty_error(in, wrap, "numpy.fill_diagonal(): wrap must be a bool, not %s", wrap->ty->name);
  return TYS(TY_NONE);
}

static LLVMValueRef lo_fill_diagonal(Lower *l, Node *n) {
  Node *arr = n->list.items[0], *val = n->list.items[1];
  const Type *t = arr->ty, *vt = val->ty;
  /* (shape zeroed for gcc's uninitialised warning: ndim >= 2 sets it) */
  LLVMValueRef a = lo_expr(l, arr), v = lo_expr(l, val), shape[RC_MAX_NDIM] = {0}, vshape[1];
  Node *wrap_arg = np_arg_node(n, 2, "wrap");
  LLVMValueRef wrap = wrap_arg ? lo_expr(l, wrap_arg) : LLVMConstInt(lo_type(l, TYS(TY_BOOL)), 0, 0);
  shape_of(l, t, a, shape, NULL);
  if (vt->kind == TY_ARRAY) shape_of(l, vt, v, vshape, NULL);
  LLVMBuilderRef b = l->b;
  LLVMValueRef count = shape[0], step = NULL, cols = shape[1];
  if (t->ndim == 2) {  /* the flat indices 0, cols + 1, ... below end */
    LLVMValueRef all = LLVMBuildMul(b, shape[0], cols, ""), square = LLVMBuildMul(b, cols, cols, "");
    LLVMValueRef tall = LLVMBuildICmp(b, LLVMIntSLT, square, all, "");
    LLVMValueRef end = LLVMBuildSelect(b, LLVMBuildAnd(b, tall, LLVMBuildNot(b, lo_truth(l, wrap, TYS(TY_BOOL)), ""), ""),
                                       square, all, "");
    step = LLVMBuildAdd(b, cols, const_i64(l, 1), "");
    count = LLVMBuildSDiv(b, LLVMBuildAdd(b, end, cols, ""), step, "");  /* ceil(end / step) */
  } else {
    LLVMValueRef unequal = LLVMConstInt(l->mod->i1, 0, 0);
    for (int d = 1; d < t->ndim; d++) unequal = LLVMBuildOr(b, unequal, LLVMBuildICmp(b, LLVMIntNE, shape[d], shape[0], ""), "");
    lo_raise_if(l, unequal, RT_ERR_VALUE, "All dimensions of input must be of equal length");
  }
  LLVMValueRef nvals = vt->kind == TY_ARRAY ? vshape[0] : NULL;
  LLVMBasicBlockRef done = new_block(l, "fill_diagonal.done");
  if (nvals) {  /* nothing to write from an empty array */
    LLVMBasicBlockRef go = new_block(l, "fill_diagonal.go");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, nvals, const_i64(l, 0), ""), go, done);
    position(l, go);
  }
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, done, "fill_diagonal");
  LLVMValueRef k = loop.index, idx[RC_MAX_NDIM];
  if (step) {
    LLVMValueRef f = LLVMBuildMul(b, k, step, "");
    idx[0] = LLVMBuildSDiv(b, f, cols, "");
    idx[1] = LLVMBuildSRem(b, f, cols, "");
  } else {
    for (int d = 0; d < t->ndim; d++) idx[d] = k;
  }
  LLVMValueRef x = v;
  if (nvals) {
    LLVMValueRef at = LLVMBuildSRem(b, k, nvals, "");
    x = lo_load_scalar(l, vt->elem, addr_at(l, vt, v, &at));
  }
  lo_store_scalar(l, t->elem, addr_at(l, t, a, idx), lo_convert(l, x, nvals ? vt->elem : vt, t->elem));
  lo_loop_end(l, &loop);
  position(l, done);
  lo_done_with(l, val, v);
  lo_done_with(l, arr, a);
  return LLVMGetUndef(l->mod->i8);
}

/* ---------------------------------------------------------------- concatenate and the stacks */

/* How each function sees its arrays before joining them along one axis:
 * the row's ival. */
enum { JOIN_CONCATENATE, JOIN_STACK, JOIN_HSTACK, JOIN_VSTACK, JOIN_COLUMNS, JOIN_DSTACK };

static const char *const join_kw[] = {"axis", "dtype", NULL};
static const char *const stack_kw[] = {"dtype", NULL};

/* The number of dimensions an array of ndim takes in the join. */
static int joined_ndim(int how, int ndim) {
  switch (how) {
  case JOIN_STACK: return ndim + 1;
  case JOIN_HSTACK: return ndim ? ndim : 1;
  case JOIN_VSTACK: case JOIN_COLUMNS: return ndim < 2 ? 2 : ndim;
  case JOIN_DSTACK: return ndim < 3 ? 3 : ndim;
  default: return ndim;
  }
}

/* NumPy's casting='same_kind': to a kind of number as general or more (bool,
 * unsigned, signed, float, complex, in that order). */
static int kind_rank(const Type *t) {
  return t->kind == TY_BOOL ? 0 : ty_is_complex(t) ? 4 : ty_is_float(t) ? 3 : ty_is_signed(t) ? 2 : 1;
}

static bool same_kind(const Type *from, const Type *to) { return kind_rank(from) <= kind_rank(to); }

/* NumPy orders a join's result as its inputs are ordered: Fortran where
 * every input of two or more dimensions is (arrays of fewer are both), C
 * otherwise (also for stack, whose result NumPy orders neither way when
 * its inputs are Fortran). */
static char joined_layout(int how, const Type *const *types, int count) {
  bool fortran = false;
  for (int i = 0; i < count; i++) {
    const Type *t = types[i];
    if (how == JOIN_DSTACK && t->ndim < 3) return 'C';  /* a Fortran (m, n) seen as (m, n, 1) is neither */
    if (t->ndim < 2) continue;
    if (t->layout != 'F') return 'C';
    fortran = true;
  }
  return fortran && how != JOIN_STACK ? 'F' : 'C';
}

/* The arrays' types a join's sequence holds: a tuple's fields, or a
 * list's one item type (its arrays counted at run time); 0 where it holds
 * none or other values. */
static int joined_types(const Type *seq, const Type *const **types) {
  if (seq->kind == TY_LIST && seq->elem && is_array(seq->elem)) {
    *types = &seq->elem;
    return 1;
  }
  *types = seq->fields;
  return seq->kind == TY_TUPLE ? seq->nfields : 0;
}

/* Whether two arrays' items can be joined: numbers, or text of one kind
 * (str with str, bytes with bytes: the wider holds either). */
static bool same_text_kind(const Type *a, const Type *b) {
  return (ty_is_fixed_text(a) || ty_is_fixed_text(b)) ? a->kind == b->kind : true;
}

static const Type *ty_join(Infer *in, Node *n, const Type **args) {
  const Type *seq = args[0], *elem = NULL, *const *types;
  if (ty_in_cuda(in)) return ty_error(in, n, "%s() is not supported in CUDA kernels", n->bi->name);
  int count = joined_types(seq, &types);
  if (!count) return ty_error(in, n, "%s() needs a tuple or list of arrays, got %s", n->bi->name, seq->name);
  int ndim = -1;
  for (int i = 0; i < count; i++) {
    const Type *t = types[i];
    if (!is_array(t)) return ty_error(in, n, "%s() joins arrays, got %s", n->bi->name, t->name);
    if (n->bi->ival == JOIN_CONCATENATE && !t->ndim)
      return ty_error(in, n, "%s(): zero-dimensional arrays cannot be concatenated", n->bi->name);
    int nd = joined_ndim((int)n->bi->ival, t->ndim);
    if (ndim >= 0 && nd != ndim)
      return ty_error(in, n, "%s(): all the input arrays must have the same number of dimensions, but %s and %s "
                      "differ", n->bi->name, types[0]->name, t->name);
    ndim = nd;
    if (elem && !same_text_kind(elem, t->elem))
      return ty_error(in, n, "%s() cannot join arrays of %s and %s in compiled code", n->bi->name, elem->name,
                      t->elem->name);
    elem = elem ? np_promote(elem, t->elem) : t->elem;
  }
  if (ndim > RC_MAX_NDIM) return ty_error(in, n, "%s(): at most %d dimensions", n->bi->name, RC_MAX_NDIM);
  Node *axis = np_arg(in, n, 1, n->bi->keywords == join_kw ? "axis" : NULL);
  if (axis && axis->kind == N_NONE)  /* (BF_NONE: read, not taken for the default 0) */
    return ty_error(in, axis, "%s(): axis=None (the arrays flattened, then joined) is not supported in compiled code: "
                    "join their ravel()s", n->bi->name);
  if (ty_failed(in) || !int_arg(in, n, axis, "axis")) return NULL;
  const Type *to = np_dtype_arg(in, n, 99, elem);
  for (int i = 0; to && i < count; i++)
    if (!same_kind(types[i]->elem, to))
      return ty_error(in, n, "%s(): Cannot cast array data from dtype('%s') to dtype('%s') according to the rule "
                      "'same_kind'", n->bi->name, types[i]->elem->name, to->name);
  return to ? ty_array(to, ndim, joined_layout((int)n->bi->ival, types, count), false) : NULL;
}

/* One array's shape and strides as the join sees it, in ndim dimensions
 * (axis: where stack puts its new one). */
static void joined_view(Lower *l, int how, const Type *t, LLVMValueRef a, int ndim, LLVMValueRef axis,
                        LLVMValueRef *shape, LLVMValueRef *strides) {
  LLVMValueRef s[RC_MAX_NDIM], st[RC_MAX_NDIM], one = const_i64(l, 1), zero = const_i64(l, 0);
  shape_of(l, t, a, s, st);
  int lead = ndim - t->ndim;  /* dimensions added */
  for (int d = 0; d < ndim; d++) {
    switch (how) {
    case JOIN_STACK: {  /* a new dimension at axis */
      LLVMValueRef before = LLVMBuildICmp(l->b, LLVMIntSLT, const_i64(l, d), axis, "");
      LLVMValueRef here = is_dim(l, axis, d);
      LLVMValueRef ss = d < t->ndim ? s[d] : one, sst = d < t->ndim ? st[d] : zero;
      LLVMValueRef ps = d ? s[d - 1] : one, pst = d ? st[d - 1] : zero;
      shape[d] = pick(l, before, ss, pick(l, here, one, ps));
      strides[d] = pick(l, before, sst, pick(l, here, zero, pst));
      break;
    }
    case JOIN_DSTACK: {  /* as atleast_3d: (n,) becomes (1, n, 1), (m, n) (m, n, 1), () (1, 1, 1) */
      int from = t->ndim == 1 ? 1 : 0;  /* where t's own dimensions start */
      bool own = d >= from && d < from + t->ndim;
      shape[d] = own ? s[d - from] : one;
      strides[d] = own ? st[d - from] : zero;
      break;
    }
    case JOIN_COLUMNS:  /* (n,) becomes (n, 1), () (1, 1) */
      if (lead) {
        shape[d] = d == 0 && t->ndim == 1 ? s[0] : one;
        strides[d] = d == 0 && t->ndim == 1 ? st[0] : zero;
        break;
      }
      /* fall through */
    default:  /* dimensions of length 1 added in front */
      shape[d] = d < lead ? one : s[d - lead];
      strides[d] = d < lead ? zero : st[d - lead];
    }
  }
}

/* The axis the arrays are joined along. */
static LLVMValueRef join_axis(Lower *l, Node *n, int ndim) {
  Node *axis = np_arg_node(n, 1, n->bi->keywords == join_kw ? "axis" : NULL);
  switch (n->bi->ival) {
  case JOIN_CONCATENATE: return np_runtime_axis(l, axis, ndim);
  case JOIN_STACK: return np_runtime_axis(l, axis, ndim);
  case JOIN_HSTACK: return const_i64(l, ndim == 1 ? 0 : 1);
  case JOIN_VSTACK: return const_i64(l, 0);
  case JOIN_DSTACK: return const_i64(l, 2);
  default: return const_i64(l, 1);
  }
}

/* out_shape grown by one more array of the join's (index i, shape): its
 * length along the axis added; NumPy's ValueError where another dimension
 * differs from the first array's. For stack, which needs every shape
 * equal, whether one differs (the caller raises). */
static LLVMValueRef join_grow(Lower *l, int how, int ndim, LLVMValueRef axis, const LLVMValueRef *first,
                              const LLVMValueRef *shape, LLVMValueRef i, LLVMValueRef *out_shape) {
  LLVMValueRef bad = const_bool(l, false);
  for (int d = 0; d < ndim; d++) {
    LLVMValueRef along = is_dim(l, axis, d);
    LLVMValueRef differ = LLVMBuildICmp(l->b, LLVMIntNE, shape[d], first[d], "");
    out_shape[d] = pick(l, along, LLVMBuildAdd(l->b, out_shape[d], shape[d], ""), out_shape[d]);
    if (how == JOIN_STACK) {
      bad = LLVMBuildOr(l->b, bad, differ, "");
      continue;
    }
    LLVMValueRef wrong = LLVMBuildAnd(l->b, differ, LLVMBuildNot(l->b, along, ""), "");
    LLVMValueRef args[4] = {const_i64(l, d), first[d], i, shape[d]};
    lo_raise_format_if(l, wrong, RT_ERR_VALUE, "all the input array dimensions except for the concatenation axis "
                       "must match exactly, but along dimension %lld, the array at index 0 has size %lld and the "
                       "array at index %lld has size %lld", args, 4);
  }
  return bad;
}

/* Array a (of type t, seen by the join with shape and strides) copied into
 * its block of out: a view of out starting at offset along the axis. The
 * offset of the next block. */
static LLVMValueRef join_block(Lower *l, const Type *rt, LLVMValueRef out, const LLVMValueRef *out_strides,
                               LLVMValueRef axis, LLVMValueRef offset, const Type *t, LLVMValueRef a,
                               LLVMValueRef *shape, LLVMValueRef *strides) {
  int ndim = rt->ndim;
  const Type *block_t = ty_array(rt->elem, ndim, 'A', false), *src_t = ty_array(t->elem, ndim, 'A', false);
  LLVMValueRef step = const_i64(l, 0), len = const_i64(l, 0);
  for (int d = 0; d < ndim; d++) {
    step = pick(l, is_dim(l, axis, d), out_strides[d], step);
    len = pick(l, is_dim(l, axis, d), shape[d], len);
  }
  LLVMValueRef at = LLVMBuildMul(l->b, offset, step, "");
  LLVMValueRef data = LLVMBuildGEP2(l->b, l->mod->i8, data_of(l, out), &at, 1, "");
  LLVMValueRef block = np_view(l, block_t, out, data, shape, out_strides);
  LLVMValueRef src = np_view(l, src_t, a, data_of(l, a), shape, strides);
  lo_copy_elements(l, block_t, block, src_t, src);
  return LLVMBuildAdd(l->b, offset, len, "");
}

static LLVMValueRef join_out(Lower *l, const Type *rt, LLVMValueRef *out_shape, LLVMValueRef *out_strides) {
  LLVMValueRef out = lo_alloc_array(l, rt, out_shape, -1);
  for (int d = 0; d < rt->ndim; d++) out_strides[d] = lo_arr_stride(l, rt, out, d);
  return out;
}

/* The join of a tuple's arrays, unrolled. */
static LLVMValueRef join_tuple(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *seq = arg->ty, *rt = n->ty;
  int how = (int)n->bi->ival, ndim = rt->ndim, count = seq->nfields;
  LLVMValueRef tuple = lo_expr(l, arg);
  LLVMValueRef axis = join_axis(l, n, ndim);
  LLVMValueRef *arrays = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)count);
  LLVMValueRef (*shapes)[RC_MAX_NDIM] = arena_alloc(l->f->arena, sizeof *shapes * (size_t)count);
  LLVMValueRef (*strides)[RC_MAX_NDIM] = arena_alloc(l->f->arena, sizeof *strides * (size_t)count);
  LLVMValueRef out_shape[RC_MAX_NDIM], bad = const_bool(l, false);
  for (int i = 0; i < count; i++) {
    arrays[i] = LLVMBuildExtractValue(l->b, tuple, (unsigned)i, "");
    joined_view(l, how, seq->fields[i], arrays[i], ndim, axis, shapes[i], strides[i]);
  }
  for (int d = 0; d < ndim; d++) out_shape[d] = shapes[0][d];
  for (int i = 1; i < count; i++)
    bad = LLVMBuildOr(l->b, bad, join_grow(l, how, ndim, axis, shapes[0], shapes[i], const_i64(l, i), out_shape), "");
  if (how == JOIN_STACK) lo_raise_if(l, bad, RT_ERR_VALUE, "all input arrays must have the same shape");
  LLVMValueRef out_strides[RC_MAX_NDIM], out = join_out(l, rt, out_shape, out_strides);
  LLVMValueRef offset = const_i64(l, 0);
  for (int i = 0; i < count; i++)
    offset = join_block(l, rt, out, out_strides, axis, offset, seq->fields[i], arrays[i], shapes[i], strides[i]);
  lo_done_with(l, arg, tuple);
  return out;
}

/* Item i of a list of arrays (borrowed: the list holds it) as the join sees it. */
static LLVMValueRef joined_item(Lower *l, int how, const Type *t, LLVMValueRef lst, LLVMValueRef i, int ndim,
                                LLVMValueRef axis, LLVMValueRef *shape, LLVMValueRef *strides) {
  LLVMValueRef a = lo_load_scalar(l, t, lo_list_item_addr(l, t, lst, i));
  joined_view(l, how, t, a, ndim, axis, shape, strides);
  return a;
}

/* The join (how) of the count (one or more) arrays of list lst, along
 * axis into a new array of type rt: a pass finding the result's shape,
 * then one copying each array into its block. */
static LLVMValueRef join_items(Lower *l, int how, const Type *rt, const Type *t, LLVMValueRef lst, LLVMValueRef count,
                               LLVMValueRef axis) {
  int ndim = rt->ndim;
  LLVMValueRef first[RC_MAX_NDIM], shape[RC_MAX_NDIM], strides[RC_MAX_NDIM], out_shape[RC_MAX_NDIM], grown[RC_MAX_NDIM];
  joined_item(l, how, t, lst, const_i64(l, 0), ndim, axis, first, strides);
  for (int d = 0; d < ndim; d++) {
    grown[d] = lo_alloca(l, l->mod->i64, "join.shape");
    LLVMBuildStore(l->b, first[d], grown[d]);
  }
  LoLoop measure = lo_loop_begin(l, const_i64(l, 1), count, NULL, "join.measure");
  joined_item(l, how, t, lst, measure.index, ndim, axis, shape, strides);
  for (int d = 0; d < ndim; d++) out_shape[d] = LLVMBuildLoad2(l->b, l->mod->i64, grown[d], "");
  LLVMValueRef bad = join_grow(l, how, ndim, axis, first, shape, measure.index, out_shape);
  if (how == JOIN_STACK) lo_raise_if(l, bad, RT_ERR_VALUE, "all input arrays must have the same shape");
  for (int d = 0; d < ndim; d++) LLVMBuildStore(l->b, out_shape[d], grown[d]);
  lo_loop_end(l, &measure);
  for (int d = 0; d < ndim; d++) out_shape[d] = LLVMBuildLoad2(l->b, l->mod->i64, grown[d], "");
  LLVMValueRef out_strides[RC_MAX_NDIM], out = join_out(l, rt, out_shape, out_strides);
  LLVMValueRef offset = lo_alloca(l, l->mod->i64, "join.offset");
  LLVMBuildStore(l->b, const_i64(l, 0), offset);
  LoLoop copy = lo_loop_begin(l, const_i64(l, 0), count, NULL, "join.copy");
  LLVMValueRef a = joined_item(l, how, t, lst, copy.index, ndim, axis, shape, strides);
  LLVMValueRef at = LLVMBuildLoad2(l->b, l->mod->i64, offset, "");
  LLVMBuildStore(l->b, join_block(l, rt, out, out_strides, axis, at, t, a, shape, strides), offset);
  lo_loop_end(l, &copy);
  return out;
}

static LLVMValueRef lo_join(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  if (arg->ty->kind != TY_LIST) return join_tuple(l, n);
  int how = (int)n->bi->ival;
  LLVMValueRef lst = lo_expr(l, arg), count = lo_list_len(l, lst), axis = join_axis(l, n, n->ty->ndim);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, count, const_i64(l, 0), ""), RT_ERR_VALUE,
              how == JOIN_STACK ? "need at least one array to stack" : "need at least one array to concatenate");
  LLVMValueRef r = join_items(l, how, n->ty, arg->ty->elem, lst, count, axis);
  lo_done_with(l, arg, lst);
  return r;
}

LLVMValueRef np_stack_list(Lower *l, const Type *rt, Node *list) {
  LLVMValueRef lst = lo_expr(l, list), count = lo_list_len(l, lst), zeros[RC_MAX_NDIM];
  LLVMBasicBlockRef none = new_block(l, "stack.none"), some = new_block(l, "stack.some"), done = new_block(l, "stack.done");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, count, const_i64(l, 0), ""), none, some);
  position(l, none);  /* every length 0, as numpy.array of empty lists of lists */
  for (int d = 0; d < rt->ndim; d++) zeros[d] = const_i64(l, 0);
  LLVMValueRef empty = lo_alloc_array(l, rt, zeros, -1);
  LLVMBasicBlockRef none_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, some);
  LLVMValueRef stacked = join_items(l, JOIN_STACK, rt, list->ty->elem, lst, count, const_i64(l, 0));
  LLVMBasicBlockRef some_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef r = LLVMBuildPhi(l->b, lo_type(l, rt), "stacked");
  LLVMAddIncoming(r, (LLVMValueRef[]){empty, stacked}, (LLVMBasicBlockRef[]){none_end, some_end}, 2);
  lo_done_with(l, list, lst);
  return r;
}

/* numpy.append(arr, values, axis=None): both flattened and joined; along
 * an axis, the call made numpy.concatenate((arr, values), axis), as NumPy's. */
static const Type *ty_append(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < 2; i++)
    if (!bi_need_values(in, n, n->list.items[i])) return NULL;
  Node *axis = bi_arg(n, 2, "axis");
  if (axis) {
    Node **pair = arena_alloc(in->f->arena, 2 * sizeof(Node *)), **items = arena_alloc(in->f->arena, 2 * sizeof(Node *));
    Node *t = arena_alloc(in->f->arena, sizeof *t);
    pair[0] = n->list.items[0], pair[1] = n->list.items[1];
    *t = (Node){.kind = N_TUPLE, .line = n->line, .col = n->col, .list = {pair, 2}};
    items[0] = t, items[1] = axis;
    *n = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .bi = bi_named("numpy.concatenate"), .list = {items, 2}};
    return ty_expr(in, n);
  }
  const Type *a = elem_of(args[0]), *b = elem_of(args[1]);
  if (!same_text_kind(a, b))
    return ty_error(in, n, "%s() cannot join arrays of %s and %s in compiled code", n->bi->name, a->name, b->name);
  return ty_array(np_promote(a, b), 1, 'C', false);
}

static LLVMValueRef lo_append(Lower *l, Node *n) {
  LLVMValueRef count, r = np_joined_elements(l, n->list.items, 2, n->ty->elem, &count);
  lo_temp_taken(l, r);
  return r;
}

/* ---------------------------------------------------------------- roll, tile, repeat */

/* numpy.roll(a, shift, axis=None): elements moved shift places along axis,
 * or along the flattened array. shift and axis may be tuples of ints, as
 * NumPy broadcasts them: each axis rolled by its shifts' sum (the
 * flattened array by all of them), by rt_roll where axis is a tuple. */
static bool ints_arg(Infer *in, Node *n, Node *a, const char *what) {
  if (!a || a->ty->kind != TY_TUPLE) return int_arg(in, n, a, what);
  for (int i = 0; i < a->ty->nfields; i++)
    if (!ty_is_int(a->ty->fields[i]) && a->ty->fields[i]->kind != TY_BOOL)
      return ty_error(in, a, "%s()'s %s must be an int or a tuple of ints, got %s", n->bi->name, what, a->ty->name) != NULL;
  if (a->ty->nfields > 2 * RC_MAX_NDIM)
    return ty_error(in, a, "%s()'s %s has more than %d items", n->bi->name, what, 2 * RC_MAX_NDIM) != NULL;
  return true;
}

static const Type *ty_roll(Infer *in, Node *n, const Type **args) {
  /* numpy.roll(x, k) of a number or a sequence x: of the array of it, as NumPy's and Numba's */
  if (ty_is_scalar(args[0]) && !(args[0] = ty_wrap_call(in, n->list.items[0], "numpy.asarray"))) return NULL;
  const Type *t = array_operand(in, n, ty_arraylike(in, n->list.items[0], args[0]));
  if (!t || !ints_arg(in, n, n->list.items[1], "shift")) return NULL;
  Node *axis = np_arg(in, n, 2, "axis");
  if (ty_failed(in) || !ints_arg(in, n, axis, "axis")) return NULL;
  /* along an axis NumPy fills empty_like(a): Fortran order kept (rt_roll's C order over several) */
  bool one_axis = axis && axis->ty->kind != TY_TUPLE;
  return ty_array(t->elem, t->ndim, one_axis ? np_like_layout(t) : 'C', false);
}

/* shift reduced into [0, n) (0 when n is 0) */
static LLVMValueRef wrap_shift(Lower *l, LLVMValueRef shift, LLVMValueRef n) {
  LLVMValueRef empty = LLVMBuildICmp(l->b, LLVMIntEQ, n, const_i64(l, 0), "");
  LLVMValueRef safe = pick(l, empty, const_i64(l, 1), n);
  LLVMValueRef r = LLVMBuildSRem(l->b, shift, safe, "");
  r = pick(l, LLVMBuildICmp(l->b, LLVMIntSLT, r, const_i64(l, 0), ""), LLVMBuildAdd(l->b, r, safe, ""), r);
  return pick(l, empty, const_i64(l, 0), r);
}

typedef struct Moved {
  const Type *t, *rt;
  LLVMValueRef a, out, flat;   /* flat: the element counter (flattened roll) */
  LLVMValueRef axis, shift, size;
  LLVMValueRef reps;           /* repeat: how many times */
  const Type *ct;              /* repeat of an array of counts: its type (NULL: reps), */
  LLVMValueRef counts, one, at; /* it, whether it has one count, the element counter */
  LLVMValueRef starts;         /* ... along an axis: where each position's copies start */
} Moved;

static LLVMValueRef plus_wrapped(Lower *l, LLVMValueRef i, LLVMValueRef s, LLVMValueRef n) {
  LLVMValueRef j = LLVMBuildAdd(l->b, i, s, "");
  return pick(l, LLVMBuildICmp(l->b, LLVMIntSGE, j, n, ""), LLVMBuildSub(l->b, j, n, ""), j);
}

static void roll_one(Lower *l, LLVMValueRef *idx, void *arg) {
  Moved *m = arg;
  LLVMValueRef v = lo_load_scalar(l, m->t->elem, addr_at(l, m->t, m->a, idx));
  if (!m->axis) {  /* flattened: out.flat[(i + shift) % size] = a.flat[i] */
    LLVMValueRef i = LLVMBuildLoad2(l->b, l->mod->i64, m->flat, "");
    LLVMValueRef j = plus_wrapped(l, i, m->shift, m->size);
    lo_store_scalar(l, m->t->elem, LLVMBuildGEP2(l->b, lo_storage_type(l, m->t->elem), data_of(l, m->out), &j, 1, ""), v);
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, i, const_i64(l, 1), ""), m->flat);
    return;
  }
  LLVMValueRef to[RC_MAX_NDIM];
  for (int d = 0; d < m->t->ndim; d++)
    to[d] = pick(l, is_dim(l, m->axis, d), plus_wrapped(l, idx[d], m->shift, lo_arr_shape(l, m->a, d)), idx[d]);
  lo_store_scalar(l, m->t->elem, addr_at(l, m->rt, m->out, to), v);
}

/* the int or the tuple of ints x as int64s into out; how many */
static int int_items(Lower *l, Node *x, LLVMValueRef *out) {
  LLVMValueRef v = lo_expr(l, x);
  if (x->ty->kind != TY_TUPLE) {
    out[0] = lo_convert(l, v, x->ty, TYS(TY_I64));
    return 1;
  }
  for (int i = 0; i < x->ty->nfields; i++)
    out[i] = lo_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), x->ty->fields[i], TYS(TY_I64));
  return x->ty->nfields;
}

/* values (count, one slot at least) in an i64 array on the stack */
static LLVMValueRef stack_i64s(Lower *l, const LLVMValueRef *values, int count) {
  LLVMTypeRef t = LLVMArrayType(l->mod->i64, count > 0 ? (unsigned)count : 1);
  LLVMValueRef p = lo_alloca(l, t, "roll.items");
  for (int i = 0; i < count; i++)
    LLVMBuildStore(l->b, values[i], LLVMBuildGEP2(l->b, t, p, (LLVMValueRef[]){const_i32(l, 0), const_i32(l, i)}, 2, ""));
  return p;
}

/* roll(a, shift, axis) of a tuple axis: NumPy's broadcast of shift and axis
 * (a length of 1 against any), then rt_roll */
static LLVMValueRef lo_roll_axes(Lower *l, Node *n, Node *arg, Node *axis) {
  const Type *t = arg->ty;
  LLVMValueRef a = lo_expr(l, arg), shifts[2 * RC_MAX_NDIM], axes[2 * RC_MAX_NDIM];
  int ns = int_items(l, n->list.items[1], shifts), na = int_items(l, axis, axes), count = ns > na ? ns : na;
  if (ns != na && ns != 1 && na != 1) {
    char msg[200];
    snprintf(msg, sizeof msg, "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
             "arg 0 with shape (%d,) and arg 1 with shape (%d,).", ns, na);
    lo_raise_if(l, const_bool(l, true), RT_ERR_VALUE, msg);
    count = 0;
  }
  for (int i = 1; i < count; i++) {
    if (ns == 1) shifts[i] = shifts[0];
    if (na == 1) axes[i] = axes[0];
  }
  LLVMValueRef copy, pa = bi_array_operand(l, t, a, t->elem, &copy);
  LLVMValueRef out = lo_alloca(l, l->mod->rtarray, "roll.out");
  LLVMTypeRef pt[8] = {l->mod->ptr, l->mod->i32, l->mod->i64, l->mod->i32, l->mod->ptr, l->mod->ptr, l->mod->i32,
                       l->mod->ptr};
  LLVMValueRef args[8] = {pa, const_i32(l, t->ndim), const_i64(l, (int64_t)t->elem->size), const_i32(l, count),
                          stack_i64s(l, axes, count), stack_i64s(l, shifts, count), const_i32(l, 0), out};
  LLVMValueRef st = lo_call_fn(l, "rt_roll", l->mod->i32, pt, args, 8);
  ArrayOperands ops = {.a = arg, .va = a, .ca = copy, .pa = pa};
  bi_array_call_end(l, &ops, t->elem, st);
  return lo_load_storage(l, n->ty, out);
}

static LLVMValueRef lo_roll(Lower *l, Node *n) {
  Node *arg = n->list.items[0], *axis = np_arg_node(n, 2, "axis");
  if (axis && axis->ty->kind == TY_TUPLE) return lo_roll_axes(l, n, arg, axis);
  const Type *t = arg->ty;
  LLVMValueRef a = lo_expr(l, arg), shape[RC_MAX_NDIM], shifts[2 * RC_MAX_NDIM];
  Moved m = {.t = t, .rt = n->ty, .a = a};
  int ns = int_items(l, n->list.items[1], shifts);
  LLVMValueRef shift = shifts[0];
  for (int i = 1; i < ns; i++) shift = LLVMBuildAdd(l->b, shift, shifts[i], "");  /* one axis: their sum */
  shape_of(l, t, a, shape, NULL);
  m.size = size_of(l, t->ndim, shape);
  if (axis) {
    m.axis = np_runtime_axis(l, axis, t->ndim);
    LLVMValueRef len = const_i64(l, 0);
    for (int d = 0; d < t->ndim; d++) len = pick(l, is_dim(l, m.axis, d), shape[d], len);
    m.shift = wrap_shift(l, shift, len);
  } else {
    m.shift = wrap_shift(l, shift, m.size);
    m.flat = lo_alloca(l, l->mod->i64, "flat");
    LLVMBuildStore(l->b, const_i64(l, 0), m.flat);
  }
  m.out = lo_alloc_array(l, n->ty, shape, -1);
  lo_for_each_index(l, t->ndim, shape, roll_one, &m);
  lo_done_with(l, arg, a);
  return m.out;
}

/* numpy.resize(a, new_shape): a's elements flattened, repeated cyclically
 * to fill the new shape (zeros where a is empty) */
static const Type *ty_resize(Infer *in, Node *n, const Type **args) {
  if (!(args[0] = ty_arraylike(in, n->list.items[0], args[0])) || !bi_need_values(in, n, n->list.items[0])) return NULL;
  int ndim = np_shape_ndim(in, n->list.items[1]);
  return ndim < 0 ? NULL : ty_array(elem_of(args[0]), ndim, 'C', false);
}

static LLVMValueRef lo_resize(Lower *l, Node *n) {
  const Type *e = n->ty->elem, *ft = ty_array(e, 1, 'C', false);
  LLVMValueRef count, flat = np_joined_elements(l, n->list.items, 1, e, &count), shape[RC_MAX_NDIM];
  int ndim = lo_shape_arg(l, n->list.items[1], shape);
  LLVMValueRef size = const_i64(l, 1), negative = const_bool(l, false);
  for (int d = 0; d < ndim; d++) {
    negative = LLVMBuildOr(l->b, negative, LLVMBuildICmp(l->b, LLVMIntSLT, shape[d], const_i64(l, 0), ""), "");
    size = LLVMBuildMul(l->b, size, shape[d], "");
  }
  lo_raise_if(l, negative, RT_ERR_VALUE, "all elements of `new_shape` must be non-negative");
  LLVMValueRef out = lo_alloc_array(l, n->ty, shape, 0), od = data_of(l, out), fd = data_of(l, flat);
  LLVMValueRef any = LLVMBuildICmp(l->b, LLVMIntNE, count, const_i64(l, 0), "");
  LoLoop i = lo_loop_begin(l, const_i64(l, 0), pick(l, any, size, const_i64(l, 0)), NULL, "resize");
  LLVMValueRef from = LLVMBuildURem(l->b, i.index, count, "");
  LLVMTypeRef st = lo_storage_type(l, e);
  LLVMValueRef v = lo_load_scalar(l, e, LLVMBuildInBoundsGEP2(l->b, st, fd, &from, 1, ""));
  lo_store_scalar(l, e, LLVMBuildInBoundsGEP2(l->b, st, od, &i.index, 1, ""), v);
  lo_loop_end(l, &i);
  lo_release_temp(l, ft, flat);
  return out;
}

/* Whether x is a str known when the function is compiled. */
static bool is_text_constant(Infer *in, Node *x, const Type *t) {
  const Node *c = t && t->kind == TY_STR ? ty_constant(in, x) : NULL;
  return c && c->kind == N_STRING;
}

/* The call's argument i, a str constant, made numpy.asarray(s): its 0-d
 * array of dtype '<Un', as NumPy and Numba take a str where an array is. */
static const Type *text_as_array(Infer *in, Node *n, int i) {
  Node *x = n->list.items[i], **items = arena_alloc(in->f->arena, sizeof(Node *));
  Node *call = arena_alloc(in->f->arena, sizeof *call);
  items[0] = x;
  *call = (Node){.kind = N_CALL, .line = x->line, .col = x->col, .bi = bi_named("numpy.asarray"), .list = {items, 1}};
  n->list.items[i] = call;
  return ty_expr(in, call);
}

/* numpy.broadcast_to(array, shape): a read-only view of array's elements
 * in the shape, its strides 0 along the dimensions it is broadcast in; a
 * number is a 0-d array, as NumPy and Numba take it (one element of new
 * memory, every stride 0); a tuple or list of numbers numpy.asarray's */
static const Type *ty_broadcast_to(Infer *in, Node *n, const Type **args) {
  if (is_text_constant(in, n->list.items[0], args[0]) && !(args[0] = text_as_array(in, n, 0))) return NULL;
  if (args[0]->kind == TY_STR)  /* (its length, the dtype's, known only at run time) */
    return ty_error(in, n, "%s() of a str needs one known when the function is compiled (written out, a global, or a "
                    "variable assigned it once), as Numba's string literal", n->bi->name);
  if (!(args[0] = ty_arraylike(in, n->list.items[0], args[0]))) return NULL;
  if (ty_is_scalar(args[0]) && !ty_in_cuda(in)) {
    int ndim = np_shape_ndim(in, n->list.items[1]);
    return ndim < 0 ? NULL : ty_array(args[0], ndim, 'A', true);
  }
  const Type *t = array_operand(in, n, args[0]);
  int ndim = t ? np_shape_ndim(in, n->list.items[1]) : -1;
  if (ndim < 0) return NULL;
  if (ndim < t->ndim) return ty_error(in, n, "%s(): input operand has more dimensions than allowed by the axis remapping", n->bi->name);
  return ty_array(t->elem, ndim, 'A', true);
}

static LLVMValueRef lo_broadcast_number(Lower *l, Node *n) {
  const Type *e = n->list.items[0]->ty, *one_t = ty_array(e, 1, 'C', false);
  LLVMValueRef v = lo_expr(l, n->list.items[0]);  /* the number before the shape, as Python evaluates them */
  LLVMValueRef shape[RC_MAX_NDIM], strides[RC_MAX_NDIM], one = const_i64(l, 1), bad = const_bool(l, false);
  int ndim = lo_shape_arg(l, n->list.items[1], shape);
  for (int d = 0; d < ndim; d++) {
    bad = LLVMBuildOr(l->b, bad, LLVMBuildICmp(l->b, LLVMIntSLT, shape[d], const_i64(l, 0), ""), "");
    strides[d] = const_i64(l, 0);
  }
  lo_raise_if(l, bad, RT_ERR_VALUE, "all elements of broadcast shape must be non-negative");
  LLVMValueRef box = lo_alloc_array(l, one_t, &one, -1);
  lo_store_scalar(l, e, data_of(l, box), v);
  LLVMValueRef r = np_owned_view(l, n->ty, box, data_of(l, box), shape, strides);
  lo_release_temp(l, one_t, box);
  return r;
}

static LLVMValueRef lo_broadcast_to(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  if (t->kind != TY_ARRAY) return lo_broadcast_number(l, n);
  LLVMValueRef a = lo_expr(l, arg), s[RC_MAX_NDIM], st[RC_MAX_NDIM], shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  int ndim = lo_shape_arg(l, n->list.items[1], shape), lead = ndim - t->ndim;
  shape_of(l, t, a, s, st);
  LLVMValueRef bad = const_bool(l, false), one = const_i64(l, 1);
  for (int d = 0; d < ndim; d++) {
    bad = LLVMBuildOr(l->b, bad, LLVMBuildICmp(l->b, LLVMIntSLT, shape[d], const_i64(l, 0), ""), "");
    if (d < lead) {
      strides[d] = const_i64(l, 0);
      continue;
    }
    LLVMValueRef same = LLVMBuildICmp(l->b, LLVMIntEQ, s[d - lead], shape[d], "");
    LLVMValueRef stretched = LLVMBuildICmp(l->b, LLVMIntEQ, s[d - lead], one, "");
    bad = LLVMBuildOr(l->b, bad, LLVMBuildNot(l->b, LLVMBuildOr(l->b, same, stretched, ""), ""), "");
    strides[d] = pick(l, same, st[d - lead], const_i64(l, 0));
  }
  lo_raise_if(l, bad, RT_ERR_VALUE, "operands could not be broadcast together with the requested shape");
  LLVMValueRef r = np_owned_view(l, n->ty, a, data_of(l, a), shape, strides);
  lo_done_with(l, arg, a);
  return r;
}

/* numpy.tile(A, reps): A repeated reps times along each dimension, reps an
 * int or a tuple of ints */
static int tile_ndim(const Type *t, const Type *reps) {
  int r = reps->kind == TY_TUPLE ? reps->nfields : 1;
  return t->ndim > r ? t->ndim : r;
}

static const Type *ty_tile(Infer *in, Node *n, const Type **args) {
  const Type *t = array_operand(in, n, args[0]);
  if (!t || np_shape_ndim(in, n->list.items[1]) < 0) return NULL;
  int ndim = tile_ndim(t, args[1]);
  if (ndim > RC_MAX_NDIM) return ty_error(in, n, "%s(): at most %d dimensions", n->bi->name, RC_MAX_NDIM);
  return ty_array(t->elem, ndim, 'C', false);
}

typedef struct Tiled {
  const Type *t, *rt;
  LLVMValueRef a, out;
  LLVMValueRef src_shape[RC_MAX_NDIM];  /* A's shape with 1s in front */
} Tiled;

static void tile_one(Lower *l, LLVMValueRef *idx, void *arg) {
  Tiled *c = arg;
  int lead = c->rt->ndim - c->t->ndim;
  LLVMValueRef from[RC_MAX_NDIM];
  for (int d = lead; d < c->rt->ndim; d++) from[d - lead] = LLVMBuildURem(l->b, idx[d], c->src_shape[d], "");
  LLVMValueRef v = lo_load_scalar(l, c->t->elem, addr_at(l, c->t, c->a, from));
  lo_store_scalar(l, c->rt->elem, addr_at(l, c->rt, c->out, idx), v);
}

static LLVMValueRef lo_tile(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty, *rt = n->ty;
  LLVMValueRef a = lo_expr(l, arg), reps[RC_MAX_NDIM], r[RC_MAX_NDIM], shape[RC_MAX_NDIM];
  int nreps = lo_shape_arg(l, n->list.items[1], reps);
  Tiled c = {.t = t, .rt = rt, .a = a};
  for (int d = 0; d < rt->ndim; d++) {
    int k = d - (rt->ndim - nreps), s = d - (rt->ndim - t->ndim);
    r[d] = k >= 0 ? reps[k] : const_i64(l, 1);
    c.src_shape[d] = s >= 0 ? lo_arr_shape(l, a, s) : const_i64(l, 1);
    shape[d] = LLVMBuildMul(l->b, c.src_shape[d], r[d], "");
  }
  /* NumPy's error for negative reps, before any product hides the sign */
  LLVMValueRef neg = const_bool(l, false);
  for (int d = 0; d < rt->ndim; d++) neg = LLVMBuildOr(l->b, neg, LLVMBuildICmp(l->b, LLVMIntSLT, r[d], const_i64(l, 0), ""), "");
  lo_raise_if(l, neg, RT_ERR_VALUE, "negative dimensions are not allowed");
  c.out = lo_alloc_array(l, rt, shape, -1);
  lo_for_each_index(l, rt->ndim, shape, tile_one, &c);
  lo_done_with(l, arg, a);
  return c.out;
}

/* numpy.repeat(a, repeats, axis=None), a.repeat(...): each element repeated,
 * along axis or in the flattened array; repeats one int, or a 1-d array
 * (or list) of ints, one per element (or position along axis) or one for
 * all */
static const Type *ty_repeat(Infer *in, Node *n, const Type **args) {
  /* numpy.repeat(x, k) of a number or a sequence x: of the array of it, as NumPy's and Numba's */
  if (ty_is_scalar(args[0]) && !(args[0] = ty_wrap_call(in, n->list.items[0], "numpy.asarray"))) return NULL;
  if (!(args[0] = ty_arraylike(in, n->list.items[0], args[0]))) return NULL;
  const Type *t = array_operand(in, n, args[0]);
  if (!t) return NULL;
  Node *axis = np_arg(in, n, 2, "axis");
  if (ty_failed(in) || !int_arg(in, n, axis, "axis")) return NULL;
  const Type *r = ty_is_int(args[1]) ? args[1] : ty_arraylike(in, n->list.items[1], args[1]);
  if (!r) return NULL;
  if (!ty_is_int(r) && (r->kind != TY_ARRAY || r->ndim != 1 || !ty_is_int(r->elem)))
    return ty_error(in, n->list.items[1], "%s()'s repeats must be an int or a 1-d array of ints, got %s",
                    n->bi->name, r->name);
  return ty_array(t->elem, axis ? t->ndim : 1, 'C', false);
}

static LLVMValueRef count_at(Lower *l, const Type *ct, LLVMValueRef counts, LLVMValueRef k) {
  return lo_convert(l, lo_load_scalar(l, ct->elem, lo_element_addr(l, ct, counts, &k)), ct->elem, TYS(TY_I64));
}

/* The count of the next element: counts[i], or counts[0] for all. */
static LLVMValueRef next_count(Lower *l, Moved *m) {
  LLVMValueRef i = LLVMBuildLoad2(l->b, l->mod->i64, m->at, "");
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, i, const_i64(l, 1), ""), m->at);
  return count_at(l, m->ct, m->counts, pick(l, m->one, const_i64(l, 0), i));
}

/* The length of the repeat of size elements (or positions along the
 * axis) by an array of counts (one per element or one for all), none
 * negative; m ready for next_count. */
static LLVMValueRef repeat_counts(Lower *l, Moved *m, Node *counts, LLVMValueRef size) {
  m->ct = counts->ty;
  m->counts = lo_expr(l, counts);
  LLVMValueRef len = lo_arr_shape(l, m->counts, 0);
  m->one = LLVMBuildICmp(l->b, LLVMIntEQ, len, const_i64(l, 1), "");
  lo_raise_format_if(l, LLVMBuildAnd(l->b, LLVMBuildNot(l->b, m->one, ""), LLVMBuildICmp(l->b, LLVMIntNE, len, size, ""), ""),
                     RT_ERR_VALUE, "operands could not be broadcast together with shape (%lld,) (%lld,)",
                     (LLVMValueRef[]){size, len}, 2);
  LLVMValueRef total = lo_alloca(l, l->mod->i64, "total");
  LLVMBuildStore(l->b, const_i64(l, 0), total);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), len, NULL, "counts");
  LLVMValueRef c = count_at(l, m->ct, m->counts, loop.index);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, c, const_i64(l, 0), ""), RT_ERR_VALUE, "repeats may not contain negative values.");
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->mod->i64, total, ""), c, ""), total);
  lo_loop_end(l, &loop);
  m->at = lo_alloca(l, l->mod->i64, "at");
  LLVMBuildStore(l->b, const_i64(l, 0), m->at);
  LLVMValueRef sum = LLVMBuildLoad2(l->b, l->mod->i64, total, "");
  return pick(l, m->one, LLVMBuildMul(l->b, sum, size, ""), sum);
}

/* where the copies of each of len positions along the axis start: the
 * sum of the counts before it, in a new int64 array (a temp) */
static LLVMValueRef repeat_starts(Lower *l, Moved *m, LLVMValueRef len) {
  const Type *it = ty_array(TYS(TY_I64), 1, 'C', false);
  LLVMValueRef starts = lo_alloc_array(l, it, &len, -1), sum = lo_alloca(l, l->mod->i64, "start");
  lo_temp_made(l, it, starts);
  LLVMBuildStore(l->b, const_i64(l, 0), sum);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), len, NULL, "starts");
  LLVMValueRef so_far = LLVMBuildLoad2(l->b, l->mod->i64, sum, "");
  lo_store_scalar(l, TYS(TY_I64), LLVMBuildGEP2(l->b, l->mod->i64, data_of(l, starts), &loop.index, 1, ""), so_far);
  LLVMValueRef c = count_at(l, m->ct, m->counts, pick(l, m->one, const_i64(l, 0), loop.index));
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, so_far, c, ""), sum);
  lo_loop_end(l, &loop);
  return starts;
}

/* idx's position along m's axis */
static LLVMValueRef along_axis(Lower *l, const Moved *m, LLVMValueRef *idx) {
  LLVMValueRef i = const_i64(l, 0);
  for (int d = 0; d < m->t->ndim; d++) i = pick(l, is_dim(l, m->axis, d), idx[d], i);
  return i;
}

static void repeat_one(Lower *l, LLVMValueRef *idx, void *arg) {
  Moved *m = arg;
  LLVMValueRef v = lo_load_scalar(l, m->t->elem, addr_at(l, m->t, m->a, idx)), times = m->reps, first = NULL;
  if (m->starts) {  /* counts along an axis: the copies of idx's position, from its start */
    LLVMValueRef i = along_axis(l, m, idx);
    times = count_at(l, m->ct, m->counts, pick(l, m->one, const_i64(l, 0), i));
    first = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i64, data_of(l, m->starts), &i, 1, ""), "");
  } else if (m->ct) {
    times = next_count(l, m);
  }
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), times, NULL, "repeat");
  if (!m->axis) {
    LLVMValueRef i = LLVMBuildLoad2(l->b, l->mod->i64, m->flat, "");
    lo_store_scalar(l, m->t->elem, LLVMBuildGEP2(l->b, lo_storage_type(l, m->t->elem), data_of(l, m->out), &i, 1, ""), v);
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, i, const_i64(l, 1), ""), m->flat);
  } else {
    LLVMValueRef to[RC_MAX_NDIM];
    for (int d = 0; d < m->t->ndim; d++) {
      LLVMValueRef start = first ? first : LLVMBuildMul(l->b, idx[d], m->reps, "");
      to[d] = pick(l, is_dim(l, m->axis, d), LLVMBuildAdd(l->b, start, loop.index, ""), idx[d]);
    }
    lo_store_scalar(l, m->t->elem, addr_at(l, m->rt, m->out, to), v);
  }
  lo_loop_end(l, &loop);
}

static LLVMValueRef lo_repeat(Lower *l, Node *n) {
  Node *arg = n->list.items[0], *reps = n->list.items[1], *axis = np_arg_node(n, 2, "axis");
  const Type *t = arg->ty;
  LLVMValueRef a = lo_expr(l, arg), shape[RC_MAX_NDIM], out_shape[RC_MAX_NDIM];
  Moved m = {.t = t, .rt = n->ty, .a = a};
  shape_of(l, t, a, shape, NULL);
  bool counted = reps->ty->kind == TY_ARRAY;
  LLVMValueRef len = size_of(l, t->ndim, shape), total = NULL;  /* len: of the flattened array, or along the axis */
  if (axis) {
    m.axis = np_runtime_axis(l, axis, t->ndim);
    len = along_axis(l, &m, shape);
  }
  if (counted)
    total = repeat_counts(l, &m, reps, len);
  else
    m.reps = lo_expr_as(l, reps, TYS(TY_I64));
  if (axis) {
    if (counted) m.starts = repeat_starts(l, &m, len);
    for (int d = 0; d < t->ndim; d++)
      out_shape[d] = pick(l, is_dim(l, m.axis, d), counted ? total : LLVMBuildMul(l->b, shape[d], m.reps, ""), shape[d]);
  } else {
    out_shape[0] = counted ? total : LLVMBuildMul(l->b, len, m.reps, "");
    m.flat = lo_alloca(l, l->mod->i64, "flat");
    LLVMBuildStore(l->b, const_i64(l, 0), m.flat);
  }
  m.out = lo_alloc_array(l, n->ty, out_shape, -1);
  lo_for_each_index(l, t->ndim, shape, repeat_one, &m);
  if (m.starts) lo_release_temp(l, ty_array(TYS(TY_I64), 1, 'C', false), m.starts);
  if (counted) lo_done_with(l, reps, m.counts);
  lo_done_with(l, arg, a);
  return m.out;
}

/* ---------------------------------------------------------------- flip */

/* numpy.flip(m, axis=None), fliplr (axis 1), flipud (axis 0): a view
 * walking the flipped dimensions backwards; the row's ival is the axis
 * of fliplr/flipud, -1 for flip */
static const Type *ty_flip(Infer *in, Node *n, const Type **args) {
  const Type *t = any_array_operand(in, n, args[0]);
  if (!t) return NULL;
  int need = (int)n->bi->ival + 1;
  if (t->ndim < need) return ty_error(in, n, "%s(): Input must be >= %d-d.", n->bi->name, need);
  Node *axis = np_arg(in, n, 1, "axis");
  if (ty_failed(in)) return NULL;
  if (axis && axis->ty->kind == TY_TUPLE) {
    for (int i = 0; i < axis->ty->nfields; i++)
      if (!ty_is_int(axis->ty->fields[i])) return ty_error(in, axis, "%s()'s axis must be ints", n->bi->name);
  } else if (!int_arg(in, n, axis, "axis")) {
    return NULL;
  }
  if (!t->ndim && !axis) return t->elem;  /* NumPy indexes a 0-d array with (), giving its element */
  return ty_array(t->elem, t->ndim, t->ndim ? 'A' : t->layout, t->readonly);
}

static LLVMValueRef lo_flip(Lower *l, Node *n) {
  Node *arg = n->list.items[0], *axis = np_arg_node(n, 1, "axis");
  const Type *t = arg->ty;
  LLVMValueRef a = lo_expr(l, arg), shape[RC_MAX_NDIM], strides[RC_MAX_NDIM], flipped[RC_MAX_NDIM];
  if (!is_array(n->ty)) {
    LLVMValueRef v = lo_load_scalar(l, t->elem, data_of(l, a));
    lo_done_with(l, arg, a);
    return v;
  }
  shape_of(l, t, a, shape, strides);
  for (int d = 0; d < t->ndim; d++) flipped[d] = const_bool(l, n->bi->ival < 0 ? !axis : d == n->bi->ival);
  if (axis) {
    LLVMValueRef v = lo_expr(l, axis);
    int count = axis->ty->kind == TY_TUPLE ? axis->ty->nfields : 1;
    for (int i = 0; i < count; i++) {
      LLVMValueRef ax = axis->ty->kind == TY_TUPLE
                            ? lo_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), axis->ty->fields[i], TYS(TY_I64))
                            : lo_convert(l, v, axis->ty, TYS(TY_I64));
      LLVMValueRef nd = const_i64(l, t->ndim);
      LLVMValueRef bad = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, ax, LLVMBuildNeg(l->b, nd, ""), ""),
                                     LLVMBuildICmp(l->b, LLVMIntSGE, ax, nd, ""), "");
      lo_raise_format_if(l, bad, RT_ERR_AXIS, "axis %lld is out of bounds for array of dimension %lld",
                         (LLVMValueRef[]){ax, nd}, 2);
      ax = pick(l, LLVMBuildICmp(l->b, LLVMIntSLT, ax, const_i64(l, 0), ""), LLVMBuildAdd(l->b, ax, nd, ""), ax);
      for (int d = 0; d < t->ndim; d++) flipped[d] = LLVMBuildOr(l->b, flipped[d], is_dim(l, ax, d), "");
    }
  }
  LLVMValueRef offset = const_i64(l, 0);
  for (int d = 0; d < t->ndim; d++) {
    LLVMValueRef last = LLVMBuildSub(l->b, shape[d], const_i64(l, 1), "");
    last = pick(l, LLVMBuildICmp(l->b, LLVMIntSLT, last, const_i64(l, 0), ""), const_i64(l, 0), last);
    offset = LLVMBuildAdd(l->b, offset, pick(l, flipped[d], LLVMBuildMul(l->b, last, strides[d], ""), const_i64(l, 0)), "");
    strides[d] = pick(l, flipped[d], LLVMBuildNeg(l->b, strides[d], ""), strides[d]);
  }
  LLVMValueRef data = LLVMBuildGEP2(l->b, l->mod->i8, data_of(l, a), &offset, 1, "");
  LLVMValueRef r = np_owned_view(l, n->ty, a, data, shape, strides);
  lo_done_with(l, arg, a);
  return r;
}

/* ---------------------------------------------------------------- nonzero */

/* numpy.nonzero(a), a.nonzero(), numpy.where(a): a tuple of index arrays,
 * one per dimension, of the elements that are true */
static const Type *ty_nonzero(Infer *in, Node *n, const Type **args) {
  const Type *t = array_operand(in, n, args[0]);
  if (!t) return NULL;
  if (!t->ndim)
    return ty_error(in, n, "%s(): Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
                    "instead.", n->bi->name);
  const Type *f[RC_MAX_NDIM];
  for (int d = 0; d < t->ndim; d++) f[d] = ty_array(TYS(TY_I64), 1, 'C', false);
  return ty_tuple(t->ndim, f);
}

typedef struct Nonzero {
  const Type *t;
  LLVMValueRef a, count;       /* count: i64 alloca */
  LLVMValueRef *out;           /* the index arrays, on the second pass */
  LLVMValueRef rows, total;    /* or argwhere's (total, ndim) Fortran array of them */
} Nonzero;

static void nonzero_one(Lower *l, LLVMValueRef *idx, void *arg) {
  Nonzero *z = arg;
  LLVMValueRef truth = lo_item_truth(l, z->t->elem, addr_at(l, z->t, z->a, idx));
  LLVMValueRef k = LLVMBuildLoad2(l->b, l->mod->i64, z->count, "");
  if (z->out || z->rows) {
    LLVMBasicBlockRef put = new_block(l, "nonzero.put"), next = new_block(l, "nonzero.next");
    LLVMBuildCondBr(l->b, truth, put, next);
    position(l, put);
    for (int d = 0; d < z->t->ndim; d++) {
      LLVMValueRef at = z->rows ? LLVMBuildAdd(l->b, LLVMBuildMul(l->b, const_i64(l, d), z->total, ""), k, "") : k;
      LLVMBuildStore(l->b, idx[d], LLVMBuildGEP2(l->b, l->mod->i64, data_of(l, z->rows ? z->rows : z->out[d]), &at, 1, ""));
    }
    LLVMBuildBr(l->b, next);
    position(l, next);
  }
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, LLVMBuildZExt(l->b, truth, l->mod->i64, ""), ""), z->count);
}

static LLVMValueRef lo_nonzero(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty, *it = ty_array(TYS(TY_I64), 1, 'C', false);
  LLVMValueRef a = lo_expr(l, arg), shape[RC_MAX_NDIM], out[RC_MAX_NDIM];
  shape_of(l, t, a, shape, NULL);
  Nonzero z = {.t = t, .a = a, .count = lo_alloca(l, l->mod->i64, "nonzero")};
  LLVMBuildStore(l->b, const_i64(l, 0), z.count);
  lo_for_each_index(l, t->ndim, shape, nonzero_one, &z);
  LLVMValueRef count = LLVMBuildLoad2(l->b, l->mod->i64, z.count, "");
  LLVMValueRef r = LLVMGetUndef(lo_type(l, n->ty));
  for (int d = 0; d < t->ndim; d++) {
    out[d] = lo_alloc_array(l, it, &count, -1);
    lo_temp_made(l, it, out[d]);  /* released if a later allocation fails */
    r = LLVMBuildInsertValue(l->b, r, out[d], (unsigned)d, "");
  }
  LLVMBuildStore(l->b, const_i64(l, 0), z.count);
  z.out = out;
  lo_for_each_index(l, t->ndim, shape, nonzero_one, &z);
  for (int d = 0; d < t->ndim; d++) lo_temp_taken(l, out[d]);
  lo_done_with(l, arg, a);
  return r;
}

/* None and a str where an array goes are 0-d arrays of one object and of
 * one str to NumPy, whose element's truth argwhere and flatnonzero read
 * (None false, a str as NumPy reads its elements): x becomes that truth, a
 * bool. */
const Type *ty_truth_operand(Infer *in, Node *x, const Type *t) {
  if (t->kind == TY_NONE) {
    ty_become_bool(x, false);
    return ty_expr(in, x);
  }
  return t->kind == TY_STR ? ty_wrap_call(in, x, "numpy str truth") : t;
}

/* numpy.argwhere(a): the indices of a's true elements, one row each, in C
 * order; a Fortran array, as NumPy's (the transpose of nonzero's rows).
 * A number or a 0-d array has one row (or none) of no index. */
static const Type *ty_argwhere(Infer *in, Node *n, const Type **args) {
  if (!(args[0] = ty_truth_operand(in, n->list.items[0], args[0]))) return NULL;
  if (ty_is_scalar(args[0]) && !(args[0] = ty_wrap_call(in, n->list.items[0], "numpy.asarray"))) return NULL;
  return array_operand(in, n, args[0]) ? ty_array(TYS(TY_I64), 2, 'F', false) : NULL;  /* (tuples: the row's BF_ARRAYLIKE) */
}

static LLVMValueRef lo_argwhere(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *t = arg->ty;
  LLVMValueRef a = lo_expr(l, arg), shape[RC_MAX_NDIM];
  shape_of(l, t, a, shape, NULL);
  Nonzero z = {.t = t, .a = a, .count = lo_alloca(l, l->mod->i64, "argwhere")};
  LLVMBuildStore(l->b, const_i64(l, 0), z.count);
  lo_for_each_index(l, t->ndim, shape, nonzero_one, &z);  /* counting */
  z.total = LLVMBuildLoad2(l->b, l->mod->i64, z.count, "");
  z.rows = lo_alloc_array(l, n->ty, (LLVMValueRef[]){z.total, const_i64(l, t->ndim)}, -1);
  LLVMBuildStore(l->b, const_i64(l, 0), z.count);
  lo_for_each_index(l, t->ndim, shape, nonzero_one, &z);
  lo_done_with(l, arg, a);
  return z.rows;
}

/* ---------------------------------------------------------------- where, clip */

/* Whether int literal x is outside int type e's range. */
static bool literal_beyond(const Node *x, const Type *e) {
  int64_t v, lo, hi;
  if (!ty_is_int(e) || e->kind == TY_BOOL || !bi_literal_int(x, &v)) return false;
  ty_int_bounds(e, &lo, &hi);
  return v < lo || v > hi;
}

/* The dtype NumPy gives values of these operands together: a Python
 * number written in the source is weak (NEP 50): it takes the others'
 * kind of number where it fits in it (an int among ints, any number among
 * floats), and only adds its own kind otherwise. An int the others' int
 * dtype cannot hold counts as an int64, as Numba takes it (NumPy's where
 * wraps numpy.where(c, int8_array, 300) to 44). */
static const Type *weak_promote(Node **nodes, int n) {
  const Type *strong = NULL;
  bool weak_int = false, weak_float = false;
  for (int i = 0; i < n; i++) {
    const Type *t = nodes[i]->ty, *e = is_array(t) ? t->elem : t;
    if (!is_array(t) && ty_is_weak(nodes[i])) {
      weak_float |= ty_is_float(e);
      weak_int |= !ty_is_float(e);
    } else {
      strong = strong ? np_promote(strong, e) : e;
    }
  }
  for (int i = 0; strong && i < n; i++)
    if (!is_array(nodes[i]->ty) && literal_beyond(nodes[i], strong)) strong = np_promote(strong, TYS(TY_I64));
  if (weak_float && (!strong || !ty_is_float(strong))) return TYS(TY_F64);
  if (weak_int && (!strong || strong->kind == TY_BOOL)) return TYS(TY_I64);
  return strong;
}


static bool text_array(const Type *t) { return t->kind == TY_ARRAY && ty_is_fixed_text(t->elem); }

/* where(c, x, y) of arrays of str (bytes) x and y, as Numba's: an array
 * of the wider of their dtypes, of the broadcast shape of the three; c an
 * array or a number, its items' truth NumPy's (a str's: not empty). Of a
 * text c and numbers x and y (arrays or not): an array of their promoted
 * dtype. A loop of its own (the elementwise loops read no text). */
static const Type *ty_text_where(Infer *in, Node *n, const Type **args) {
  const Type *x = args[1], *y = args[2];
  bool numbers = text_array(args[0]) && ty_is_scalar(elem_of(x)) && ty_is_scalar(elem_of(y)) &&
                 (is_array(x) || ty_is_scalar(x)) && (is_array(y) || ty_is_scalar(y));
  for (int i = 0; i < 3 && !numbers; i++)  /* (numbers stay numbers: weak where written in the call, read so) */
    if (ty_is_scalar(args[i]) && !(args[i] = ty_wrap_call(in, n->list.items[i], "numpy.asarray"))) return NULL;
  const Type *e = numbers ? weak_promote(n->list.items + 1, 2) : NULL;
  x = args[1], y = args[2];
  if (!numbers && (!is_array(args[0]) || !text_array(x) || !text_array(y) || x->elem->kind != y->elem->kind))
    return ty_error(in, n, "numpy.where() of text chooses between two arrays of str (or of bytes), or between numbers "
                    "where its condition is text, in compiled code, got %s, %s and %s", args[0]->name, x->name,
                    y->name);
  if (ty_no_allocation(in)) return ty_error(in, n, "numpy.where() of text arrays makes an array, which kernels cannot");
  if (!numbers) e = x->elem->size >= y->elem->size ? x->elem : y->elem;
  return ty_array(e, ty_broadcast_ndim(args, 3), 'C', false);
}

typedef struct TextWhere {
  const Type *t[3];      /* c's, x's, y's types */
  LLVMValueRef v[3];     /* their values */
  const Type *rt;
  LLVMValueRef out;
} TextWhere;

/* operand k's item at the result's index idx (broadcast: a length-1 axis read at 0) */
static LLVMValueRef broadcast_item(Lower *l, const TextWhere *w, int k, LLVMValueRef *idx) {
  const Type *t = w->t[k];
  LLVMValueRef at[RC_MAX_NDIM];
  for (int d = 0; d < t->ndim; d++) at[d] = lo_broadcast_index(l, w->v[k], d, idx[w->rt->ndim - t->ndim + d]);
  return addr_at(l, t, w->v[k], at);
}

/* operand k's number at the result's index idx, as the result's dtype */
static LLVMValueRef number_at(Lower *l, const TextWhere *w, int k, LLVMValueRef *idx) {
  const Type *t = w->t[k], *e = elem_of(t);
  LLVMValueRef v = t->kind == TY_ARRAY ? lo_load_scalar(l, e, broadcast_item(l, w, k, idx)) : w->v[k];
  return lo_convert(l, v, e, w->rt->elem);
}

static void chosen_number(Lower *l, TextWhere *w, LLVMValueRef truth, LLVMValueRef *idx) {
  LLVMValueRef x = number_at(l, w, 1, idx), y = number_at(l, w, 2, idx);
  lo_store_scalar(l, w->rt->elem, addr_at(l, w->rt, w->out, idx), LLVMBuildSelect(l->b, truth, x, y, ""));
}

/* the chosen item's bytes, then NULs to the result's width */
static void text_where_one(Lower *l, LLVMValueRef *idx, void *arg) {
  TextWhere *w = arg;
  LLVMValueRef truth = lo_item_truth(l, w->t[0]->elem, broadcast_item(l, w, 0, idx));
  if (!ty_is_fixed_text(w->rt->elem)) {
    chosen_number(l, w, truth, idx);
    return;
  }
  LLVMValueRef from = LLVMBuildSelect(l->b, truth, broadcast_item(l, w, 1, idx), broadcast_item(l, w, 2, idx), "");
  LLVMValueRef size = LLVMBuildSelect(l->b, truth, const_i64(l, (long long)w->t[1]->elem->size),
                                      const_i64(l, (long long)w->t[2]->elem->size), "");
  LLVMValueRef to = addr_at(l, w->rt, w->out, idx);
  LLVMBuildMemSet(l->b, to, LLVMConstInt(l->mod->i8, 0, 0), const_i64(l, (long long)w->rt->elem->size), 1);
  LLVMBuildMemCpy(l->b, to, 1, from, 1, size);
}

static LLVMValueRef lo_text_where(Lower *l, Node *n) {
  TextWhere w = {.rt = n->ty};
  int nd = n->ty->ndim, ndims[3];
  LLVMValueRef shape[RC_MAX_NDIM], shapes[3][RC_MAX_NDIM], bad = const_bool(l, false);
  const LLVMValueRef *each[3];
  for (int d = 0; d < nd; d++) shape[d] = const_i64(l, 1);
  for (int k = 0; k < 3; k++) {
    w.t[k] = n->list.items[k]->ty;
    w.v[k] = lo_expr(l, n->list.items[k]);
    ndims[k] = is_array(w.t[k]) ? w.t[k]->ndim : 0, each[k] = shapes[k];  /* (a number chosen: 0) */
    for (int d = 0; d < ndims[k]; d++) shapes[k][d] = lo_arr_shape(l, w.v[k], d);
    bad = np_broadcast_into(l, shape, nd, shapes[k], ndims[k], bad);
  }
  lo_raise_shape_error(l, bad, 0, 3, ndims, each);
  w.out = lo_alloc_array(l, n->ty, shape, -1);
  lo_for_each_index(l, nd, shape, text_where_one, &w);
  for (int k = 0; k < 3; k++) lo_done_with(l, n->list.items[k], w.v[k]);
  return w.out;
}

static const Type *ty_where(Infer *in, Node *n, const Type **args) {
  if (n->list.len == 1) return args[0]->kind == TY_NONE ? ty_error(in, n, "%s() does not take None here", n->bi->name)
                                                        : ty_nonzero(in, n, args);
  if (n->list.len == 2) return ty_error(in, n, "%s(): either both or neither of x and y should be given", n->bi->name);
  if (text_array(args[0]) || text_array(args[1]) || text_array(args[2])) {  /* the row below */
    n->bi = bi_named("numpy.where of text");
    return ty_text_where(in, n, args);
  }
  if (args[0]->kind == TY_STR && !(args[0] = ty_wrap_call(in, n->list.items[0], "numpy where str truth")))
    return NULL;  /* where('ab', x, y) */
  if (!(args[0] = ty_truth_operand(in, n->list.items[0], args[0]))) return NULL;  /* where(None, x, y) */
  for (int i = 0; i < 3; i++)
    if (!is_array(args[i]) && !ty_is_scalar(args[i]))
      return ty_error(in, n->list.items[i], "%s() needs arrays or numbers, got %s", n->bi->name, args[i]->name);
  return ty_elementwise(in, n, args, weak_promote(n->list.items + 1, 2));
}

static LLVMValueRef where_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *e = elem_of(n->ty);
  LLVMValueRef c = lo_truth(l, v[0], elem_of(n->list.items[0]->ty));
  LLVMValueRef x = lo_convert(l, v[1], elem_of(n->list.items[1]->ty), e);
  LLVMValueRef y = lo_convert(l, v[2], elem_of(n->list.items[2]->ty), e);
  return pick(l, c, x, y);
}

/* numpy.where(c) is numpy.nonzero(c); where(c, x, y) is elementwise
 * (ufunc.c calls where_elem) */
static LLVMValueRef lo_where(Lower *l, Node *n) { return lo_nonzero(l, n); }

/* numpy.select(condlist, choicelist, default=0) of tuples whose items the
 * compile knows (written in the call, or a tuple variable's): nested
 * numpy.where(c0, x0, where(c1, x1, ... default)), the first condition
 * true winning, fused as where is; n becomes the outermost where. Lists
 * (and homogeneous tuples beside them) are walked at run time. */
static Node *where_call(Infer *in, Node *at, Node *c, Node *x, Node *y) {
  Node *w = arena_alloc(in->f->arena, sizeof(Node));
  *w = (Node){.kind = N_CALL, .line = at->line, .col = at->col, .bi = bi_named("numpy.where")};
  w->list.len = 3;
  w->list.items = arena_alloc(in->f->arena, 3 * sizeof(Node *));
  w->list.items[0] = c, w->list.items[1] = x, w->list.items[2] = y;
  return w;
}

/* the items of x, a tuple written in the call or a tuple variable, as
 * nodes (*len of them); NULL where x is neither */
static Node **known_items(Infer *in, Node *x, int *len) {
  if (x->kind == N_TUPLE) {
    *len = x->list.len;
    return x->list.items;
  }
  if (x->kind != N_VAR || x->ty->kind != TY_TUPLE) return NULL;
  *len = x->ty->nfields;
  Node **items = arena_alloc(in->f->arena, (size_t)(*len ? *len : 1) * sizeof(Node *));
  for (int i = 0; i < *len; i++) {
    items[i] = ty_tuple_item(in, x, i);
    if (!ty_expr(in, items[i])) return NULL;
  }
  return items;
}

/* the type of the items of a list, or of a homogeneous tuple; NULL for others */
static const Type *sequence_item(const Type *t) {
  if (t->kind == TY_LIST) return t->elem;
  if (t->kind != TY_TUPLE || !t->nfields) return NULL;
  for (int i = 1; i < t->nfields; i++)
    if (t->fields[i] != t->fields[0]) return NULL;
  return t->fields[0];
}

static const Type *ty_select_sequences(Infer *in, Node *n, Node *conds, Node *choices, Node *dflt);

static const Type *ty_select(Infer *in, Node *n, const Type **args) {
  Node *conds = n->list.items[0], *choices = bi_arg(n, 1, "choicelist"), *dflt = bi_arg(n, 2, "default");
  if (!choices) return ty_error(in, n, "%s() missing required argument 'choicelist'", n->bi->name);
  int ncond, nchoice;
  Node **cond_items = known_items(in, conds, &ncond), **choice_items = known_items(in, choices, &nchoice);
  if (!cond_items || !choice_items) return ty_select_sequences(in, n, conds, choices, dflt);
  if (ncond != nchoice)
    return ty_error(in, n, "%s(): list of cases must be same length as list of conditions", n->bi->name);
  if (!ncond) return ty_error(in, n, "%s(): select with an empty condition list is not possible", n->bi->name);
  for (int i = 0; i < ncond; i++)
    if (elem_of(cond_items[i]->ty)->kind != TY_BOOL)
      return ty_error(in, cond_items[i], "%s(): invalid entry %d in condlist: should be boolean ndarray", n->bi->name, i);
  Node *r = dflt;
  if (!r) {
    r = arena_alloc(in->f->arena, sizeof(Node));
    *r = (Node){.kind = N_INT, .line = n->line, .col = n->col, .ival = 0};
    ty_expr(in, r);
  }
  /* NumPy's dtype: the choices' and default's, Python numbers weak; those
   * made that dtype, so that two of them side by side do not widen it */
  int count = nchoice;
  Node **values = arena_alloc(in->f->arena, (size_t)(count + 1) * sizeof(Node *));
  for (int i = 0; i < count; i++) values[i] = choice_items[i];
  values[count] = r;
  const Type *e = weak_promote(values, count + 1);
  for (int i = 0; i <= count; i++)
    if (!is_array(values[i]->ty) && ty_is_weak(values[i])) {
      Node *cast = arena_alloc(in->f->arena, sizeof(Node));
      *cast = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .bi = bi_named("a NumPy scalar type"), .ival = e->kind};
      cast->list.len = 1;
      cast->list.items = arena_alloc(in->f->arena, sizeof(Node *));
      cast->list.items[0] = values[i];
      values[i] = cast;
    }
  r = values[count];
  for (int i = count - 1; i >= 0; i--) r = where_call(in, n, cond_items[i], values[i], r);
  r->line = n->line, r->col = n->col;
  *n = *r;
  return ty_expr(in, n);
}

/* select of a list (or a homogeneous tuple) of conditions or choices: the
 * result (of the choices' dtype and the default's, a Python number weak;
 * the shape of them all broadcast) filled with the default, then each
 * choice put where its condition holds, the last first */
static const Type *ty_select_sequences(Infer *in, Node *n, Node *conds, Node *choices, Node *dflt) {
  const Type *ct = sequence_item(conds->ty), *xt = sequence_item(choices->ty);
  if (!ct || !xt || (!is_array(ct) && !ty_is_scalar(ct)) || (!is_array(xt) && !ty_is_scalar(xt)))
    return ty_error(in, n, "%s() takes its condlist and choicelist as lists or tuples of arrays in compiled code, got %s "
                    "and %s", n->bi->name, conds->ty->name, choices->ty->name);
  if (elem_of(ct)->kind != TY_BOOL)
    return ty_error(in, conds, "%s(): invalid entry 0 in condlist: should be boolean ndarray", n->bi->name);
  if (dflt && !is_array(dflt->ty) && !ty_is_scalar(dflt->ty))
    return ty_error(in, dflt, "%s(): default must be an array or a number, got %s", n->bi->name, dflt->ty->name);
  const Type *e = elem_of(xt), *d = dflt ? elem_of(dflt->ty) : TYS(TY_I64);
  if (!dflt || (!is_array(dflt->ty) && ty_is_weak(dflt)))
    e = ty_is_float(d) && !ty_is_float(e) && !ty_is_complex(e) ? TYS(TY_F64) : e->kind == TY_BOOL ? TYS(TY_I64) : e;
  else
    e = np_promote(e, d);
  int ndim = ndim_of(ct) > ndim_of(xt) ? ndim_of(ct) : ndim_of(xt);
  if (dflt && ndim_of(dflt->ty) > ndim) ndim = ndim_of(dflt->ty);
  if (!ndim) return ty_error(in, n, "%s(): condlist arrays must be of at least dimension 1", n->bi->name);
  return ty_array(e, ndim, 'C', false);
}

/* the value of item i of a list or homogeneous tuple (of type t) */
static LLVMValueRef sequence_at(Lower *l, const Type *t, LLVMValueRef v, LLVMValueRef i) {
  const Type *item = sequence_item(t);
  if (t->kind == TY_LIST) return lo_load_storage(l, item, lo_list_item_addr(l, item, v, i));
  LLVMTypeRef as_array;
  LLVMValueRef mem = lo_tuple_in_memory(l, t, v, &as_array), at[2] = {const_i64(l, 0), i};
  return LLVMBuildLoad2(l->b, lo_type(l, item), LLVMBuildGEP2(l->b, as_array, mem, at, 2, ""), "");
}

static LLVMValueRef sequence_len(Lower *l, const Type *t, LLVMValueRef v) {
  return t->kind == TY_LIST ? lo_list_len(l, v) : const_i64(l, t->nfields);
}

/* one operand of select's walk: its type and value, read broadcast to the result's ndim dimensions */
typedef struct {
  const Type *t;
  LLVMValueRef v;
} Operand;

static LLVMValueRef operand_shape_into(Lower *l, const Operand *o, LLVMValueRef *shape, int ndim, LLVMValueRef bad) {
  LLVMValueRef s[RC_MAX_NDIM];
  for (int d = 0; d < ndim_of(o->t); d++) s[d] = lo_arr_shape(l, o->v, d);
  return np_broadcast_into(l, shape, ndim, s, ndim_of(o->t), bad);
}

/* o's element at the result's index idx (ndim of them), as t */
static LLVMValueRef operand_at(Lower *l, const Operand *o, LLVMValueRef *idx, int ndim, const Type *t) {
  if (!is_array(o->t)) return lo_convert(l, o->v, o->t, t);
  LLVMValueRef at[RC_MAX_NDIM];
  for (int d = 0, skip = ndim - o->t->ndim; d < o->t->ndim; d++) at[d] = lo_broadcast_index(l, o->v, d, idx[d + skip]);
  return lo_convert(l, lo_load_scalar(l, o->t->elem, lo_element_addr(l, o->t, o->v, at)), o->t->elem, t);
}

typedef struct {
  const Type *rt;
  LLVMValueRef out;
  Operand cond, value;  /* cond.t NULL: every element takes value */
} SelectStep;

static void select_element(Lower *l, LLVMValueRef *idx, void *arg) {
  SelectStep *s = arg;
  int ndim = s->rt->ndim;
  LLVMValueRef addr = lo_element_addr(l, s->rt, s->out, idx);
  if (!s->cond.t) {
    lo_store_scalar(l, s->rt->elem, addr, operand_at(l, &s->value, idx, ndim, s->rt->elem));
    return;
  }
  LLVMBasicBlockRef put = new_block(l, "select.put"), next = new_block(l, "select.next");
  LLVMBuildCondBr(l->b, lo_truth(l, operand_at(l, &s->cond, idx, ndim, TYS(TY_BOOL)), TYS(TY_BOOL)), put, next);
  position(l, put);
  lo_store_scalar(l, s->rt->elem, addr, operand_at(l, &s->value, idx, ndim, s->rt->elem));
  LLVMBuildBr(l->b, next);
  position(l, next);
}

/* the result's shape while the items are walked: ndim lengths and
 * whether two of them clashed, in memory */
typedef struct {
  LLVMValueRef shape, bad;
  int ndim;
} Broadcast;

static LLVMValueRef broadcast_slot(Lower *l, const Broadcast *b, int d) {
  LLVMValueRef at[2] = {const_i64(l, 0), const_i64(l, d)};
  return LLVMBuildGEP2(l->b, LLVMArrayType2(l->mod->i64, (uint64_t)b->ndim), b->shape, at, 2, "");
}

static void broadcast_begin(Lower *l, Broadcast *b, int ndim) {
  b->ndim = ndim;
  b->shape = lo_alloca(l, LLVMArrayType2(l->mod->i64, (uint64_t)ndim), "select.shape");
  b->bad = lo_alloca(l, l->mod->i1, "select.bad");
  for (int d = 0; d < ndim; d++) LLVMBuildStore(l->b, const_i64(l, 1), broadcast_slot(l, b, d));
  LLVMBuildStore(l->b, const_bool(l, false), b->bad);
}

/* the shape so far into shape */
static void broadcast_shape(Lower *l, const Broadcast *b, LLVMValueRef *shape) {
  for (int d = 0; d < b->ndim; d++) shape[d] = LLVMBuildLoad2(l->b, l->mod->i64, broadcast_slot(l, b, d), "");
}

static void broadcast_with(Lower *l, Broadcast *b, const Operand *o) {
  LLVMValueRef shape[RC_MAX_NDIM];
  broadcast_shape(l, b, shape);
  LLVMValueRef bad = operand_shape_into(l, o, shape, b->ndim, LLVMBuildLoad2(l->b, l->mod->i1, b->bad, ""));
  for (int d = 0; d < b->ndim; d++) LLVMBuildStore(l->b, shape[d], broadcast_slot(l, b, d));
  LLVMBuildStore(l->b, bad, b->bad);
}

static LLVMValueRef lo_select(Lower *l, Node *n) {
  Node *conds = n->list.items[0], *choices = bi_arg(n, 1, "choicelist"), *dflt = bi_arg(n, 2, "default");
  const Type *rt = n->ty, *ct = conds->ty, *xt = choices->ty;
  LLVMValueRef cv = lo_expr(l, conds), xv = lo_expr(l, choices), shape[RC_MAX_NDIM];
  Operand d = {dflt ? dflt->ty : TYS(TY_I64), dflt ? lo_expr(l, dflt) : const_i64(l, 0)};
  LLVMValueRef count = sequence_len(l, ct, cv);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, count, sequence_len(l, xt, xv), ""), RT_ERR_VALUE,
              "list of cases must be same length as list of conditions");
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, count, const_i64(l, 0), ""), RT_ERR_VALUE,
              "select with an empty condition list is not possible");
  Broadcast b;
  broadcast_begin(l, &b, rt->ndim);
  broadcast_with(l, &b, &d);
  LoLoop each = lo_loop_begin(l, const_i64(l, 0), count, NULL, "select.broadcast");
  Operand c = {sequence_item(ct), sequence_at(l, ct, cv, each.index)}, x = {sequence_item(xt), sequence_at(l, xt, xv, each.index)};
  broadcast_with(l, &b, &c);
  broadcast_with(l, &b, &x);
  lo_loop_end(l, &each);
  lo_raise_if(l, LLVMBuildLoad2(l->b, l->mod->i1, b.bad, ""), RT_ERR_VALUE,
              "shape mismatch: objects cannot be broadcast to a single shape");
  broadcast_shape(l, &b, shape);
  LLVMValueRef out = lo_alloc_array(l, rt, shape, -1);
  lo_temp_made(l, rt, out);
  SelectStep step = {rt, out, {NULL, NULL}, d};
  lo_for_each_index(l, rt->ndim, shape, select_element, &step);
  /* from the last choice back, so that the first condition that holds wins */
  LoLoop back = lo_loop_begin(l, const_i64(l, 0), count, NULL, "select.choices");
  LLVMValueRef i = LLVMBuildSub(l->b, LLVMBuildSub(l->b, count, const_i64(l, 1), ""), back.index, "");
  step.cond = (Operand){sequence_item(ct), sequence_at(l, ct, cv, i)};
  step.value = (Operand){sequence_item(xt), sequence_at(l, xt, xv, i)};
  lo_for_each_index(l, rt->ndim, shape, select_element, &step);
  lo_loop_end(l, &back);
  lo_temp_taken(l, out);
  lo_done_with(l, conds, cv);
  lo_done_with(l, choices, xv);
  if (dflt) lo_done_with(l, dflt, d.v);
  return out;
}

/* A clip's bound given by keyword (numpy.clip's a_min=, a.clip's min=)
 * moved to its place in the list, a bound not given None; a.clip's
 * out given by position moved to out=, where numpy.clip's is moved
 * (infer.c's positional_out). */
static bool clip_operands(Infer *in, Node *n, const Type **args) {
  /* as NumPy 2's: numpy.clip takes both a_min and a_max, or neither and then min= and max=, None by default */
  bool method = n->bi->kind == BK_METHOD;
  bool old_names = ty_kwarg(n, "a_min") || ty_kwarg(n, "a_max");
  bool either = n->list.len > 1 || old_names;
  bool optional = method || !either;
  /* a.clip(a_min=, a_max=) as Numba's method takes them (NumPy's method has min= and max=), None by default */
  bool named_a = !optional || (method && old_names);
  const char *names[2] = {named_a ? "a_min" : "min", named_a ? "a_max" : "max"};
  if (n->list.len == 4) {  /* a.clip(lo, hi, out) */
    Node **items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)(n->kw.len + 1));
    const char **kw = arena_alloc(in->f->arena, sizeof(char *) * (size_t)(n->kw.len + 1));
    for (int i = 0; i < n->kw.len; i++) items[i] = n->kw.items[i], kw[i] = n->kw_names[i];
    items[n->kw.len] = n->list.items[--n->list.len], kw[n->kw.len] = "out";
    n->kw = (NodeList){.items = items, .len = n->kw.len + 1};
    n->kw_names = kw;
  }
  if (named_a && (ty_kwarg(n, "min") || ty_kwarg(n, "max")))
    return ty_error(in, n, "%s(): passing min or max when a_min and a_max are given is not allowed", n->bi->name) != NULL;
  for (int i = 1; i < 3; i++) {
    Node *named = ty_kwarg(n, names[i - 1]);
    if (named && i < n->list.len)
      return ty_error(in, named, "%s() got multiple values for argument '%s'", n->bi->name, names[i - 1]) != NULL;
  }
  if (n->list.len < 3) {
    Node **items = arena_alloc(in->f->arena, 3 * sizeof(Node *));
    for (int i = 0; i < 3; i++) {
      Node *x = i < n->list.len ? n->list.items[i] : ty_kwarg(n, names[i - 1]);
      if (!x && !optional)
        return ty_error(in, n, "%s() missing required argument '%s'", n->bi->name, names[i - 1]) != NULL;
      if (!x) {
        x = arena_alloc(in->f->arena, sizeof(Node));
        *x = (Node){.kind = N_NONE, .line = n->line, .col = n->col, .ty = TYS(TY_NONE)};
      }
      items[i] = x;
      args[i] = x->ty;
    }
    n->list = (NodeList){.items = items, .len = 3};
  }
  int kept = 0;  /* out=None: no out */
  for (int i = 0; i < n->kw.len; i++)
    if (strcmp(n->kw_names[i], names[0]) && strcmp(n->kw_names[i], names[1]) &&
        !(!strcmp(n->kw_names[i], "out") && n->kw.items[i]->kind == N_NONE))
      n->kw_names[kept] = n->kw_names[i], n->kw.items[kept++] = n->kw.items[i];
  n->kw.len = kept;
  return true;
}

/* The dtype of an array a clipped by bounds (given[0] is a): a bound
 * that is a number yields to a's dtype as ufuncs' operands do, a literal
 * or a value of Python's own types (int64, float64) read as NumPy reads
 * a Python number (int8_array clipped by an int argument stays int8, as
 * NumPy's and Numba's); bounds past the dtype's range: clip_bound. */
static const Type *clip_dtype(Node **given, int count) {
  const Type *a = given[0]->ty, *e = a->elem;
  for (int i = 1; i < count; i++) e = np_promote(e, ty_operand_dtype(given[i], given[i]->ty, a, false));
  return e;
}

/* numpy.clip(a, a_min, a_max), a.clip(min, max): elementwise on arrays,
 * a number of numbers; a bound None leaves that side unbounded (both None:
 * a's values, as NumPy 2 gives them). */
static const Type *ty_clip(Infer *in, Node *n, const Type **args) {
  if (!clip_operands(in, n, args)) return NULL;
  Node *given[3];
  const Type *types[3];
  int count = 0;
  for (int i = 0; i < 3; i++) {
    if (i && args[i]->kind == TY_NONE) continue;
    if (is_array(args[i]) ? !ty_is_scalar(args[i]->elem) : !ty_is_scalar(args[i]))
      return ty_error(in, n->list.items[i], "%s() needs arrays or numbers, got %s", n->bi->name, args[i]->name);
    given[count] = n->list.items[i];
    types[count++] = args[i];
  }
  const Type *e = is_array(args[0]) ? clip_dtype(given, count) : weak_promote(given, count);
  if (!ty_broadcast_ndim(types, count)) return e;
  if (ty_no_allocation(in))
    return ty_error(in, n, "array expressions are not supported in CUDA kernels: write the loop over the elements");
  return ty_broadcast_result(e, types, count);
}

/* A bound of an integer dtype wider than the result's (a Python int
 * beside an int8 array) beyond the range's end on its own side clips
 * nothing there, as NumPy's clip takes it (a conversion would wrap it);
 * beyond the other end it is NumPy's OverflowError. */
static LLVMValueRef clip_bound(Lower *l, Node *b, LLVMValueRef v, const Type *e, bool upper) {
  const Type *bt = elem_of(b->ty);
  if (!ty_is_int(e) || !ty_is_int(bt) || e->kind == TY_BOOL || bt->kind == TY_U64 || (e->kind == TY_I64))
    return lo_convert(l, v, bt, e);
  int64_t lo, hi;
  ty_int_bounds(e, &lo, &hi);
  LLVMValueRef x = lo_convert(l, v, bt, TYS(TY_I64)), lov = const_i64(l, lo), hiv = const_i64(l, hi);
  char fmt[64];
  snprintf(fmt, sizeof fmt, "Python integer %%lld out of bounds for %s", e->name);
  lo_raise_format_if(l, LLVMBuildICmp(l->b, upper ? LLVMIntSLT : LLVMIntSGT, x, upper ? lov : hiv, ""), RT_ERR_OVERFLOW,
                     fmt, &x, 1);
  x = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, x, lov, ""), lov, x, "");
  x = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, x, hiv, ""), hiv, x, "");
  return lo_convert(l, x, TYS(TY_I64), e);
}

/* x held to one side of bound b (its lower one: max(x, b); its upper:
 * min(x, b)), as NumPy's: a NaN on either side gives NaN; b None: x. */
static LLVMValueRef clip_side(Lower *l, Node *b, LLVMValueRef x, LLVMValueRef v, const Type *e, bool upper) {
  if (b->ty->kind == TY_NONE) return x;
  LLVMValueRef bound = clip_bound(l, b, v, e, upper);
  if (ty_is_float(e))
    return pick(l, LLVMBuildOr(l->b, fcmp(l, LLVMRealUNO, x, x), fcmp(l, upper ? LLVMRealOLT : LLVMRealOGT, x, bound), ""),
                x, bound);
  bool sign = ty_is_signed(e) && e->kind != TY_BOOL;
  LLVMIntPredicate keep = upper ? (sign ? LLVMIntSLT : LLVMIntULT) : (sign ? LLVMIntSGT : LLVMIntUGT);
  return pick(l, LLVMBuildICmp(l->b, keep, x, bound, ""), x, bound);
}

static LLVMValueRef clip_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *e = elem_of(n->ty);
  LLVMValueRef x = lo_convert(l, v[0], elem_of(n->list.items[0]->ty), e);
  x = clip_side(l, n->list.items[1], x, v[1], e, false);
  return clip_side(l, n->list.items[2], x, v[2], e, true);
}

static LLVMValueRef lo_clip(Lower *l, Node *n) {
  LLVMValueRef v[3];
  for (int i = 0; i < 3; i++) v[i] = lo_expr(l, n->list.items[i]);
  return clip_elem(l, n, v);
}

/* ---------------------------------------------------------------- round */

/* numpy.round(a, decimals=0, out=None) (around, round_, a.round): as
 * NumPy's, x * 10**d rounded half to even and divided back (x / 10**-d and
 * multiplied back for a negative d); ints are kept for d >= 0 and go through
 * float64 otherwise. The first operation is in a's precision, the others in
 * the result's: out's dtype, where NumPy's three ufuncs write to out.
 * A complex number's parts are rounded each, as NumPy's. */
static const Builtin round_out;

/* decimals and out, wherever given: decimals the second operand of the
 * elementwise call, out the keyword ty_ufunc_out reads. */
static void round_operands(Infer *in, Node *n, const Type **args) {
  Node *d = bi_arg(n, 1, "decimals"), *o = bi_arg(n, 2, "out");
  Node **items = arena_alloc(in->f->arena, sizeof(Node *) * 2);
  items[0] = n->list.items[0], items[1] = d;
  n->list = (NodeList){.items = items, .len = d ? 2 : 1};
  n->kw = (NodeList){.items = arena_alloc(in->f->arena, sizeof(Node *)), .len = o != NULL};
  n->kw.items[0] = o;
  n->kw_names = arena_alloc(in->f->arena, sizeof(char *));
  n->kw_names[0] = "out";
  if (d) args[1] = d->ty;
}

/* The call's result as out takes it: of out's dtype where that is a float,
 * whose precision NumPy's last two steps round in. */
static const Type *round_into(const Type *t, const Type *out) {
  if (!ty_is_float(out->elem)) return t;
  return is_array(t) ? ty_array(out->elem, t->ndim, t->layout, false) : out->elem;
}

/* numpy.round(a, d, out) made round_out's call (call, out) by ty_ufunc_out:
 * NumPy's rules for out, beyond a ufunc's. */
static const Type *ty_round_out(Infer *in, Node *n, const Type **args) {
  Node *call = n->list.items[0], *out = n->list.items[1];
  int64_t d;
  const char *name = call->bi->name;
  int ndim = is_array(args[0]) ? args[0]->ndim : 0;
  if (out->ty->kind == TY_ARRAY && out->ty->ndim != ndim)
    return ty_error(in, out, "%s(): invalid output shape: out has %d dimensions, the result %d", name,
                    out->ty->ndim, ndim);
  if (out->ty->kind == TY_ARRAY && ty_is_int(elem_of(args[0])) && ty_is_int(out->ty->elem) &&
      call->list.len > 1 && ir_const_int(call->list.items[1], &d) && d < 0)
    return ty_error(in, out, "Cannot cast ufunc 'divide' output from dtype('float64') to dtype('%s') with "
                    "casting rule 'same_kind'", out->ty->elem->name);
  if (!ty_out_operand(in, call, args[0], out)) return NULL;
  call->ty = round_into(args[0], out->ty);
  n->bi = &round_out;
  return out->ty;
}

static const Type *ty_np_round(Infer *in, Node *n, const Type **args) {
  round_operands(in, n, args);
  const Type *e = elem_of(args[0]);
  if (!is_array(args[0]) && !ty_is_scalar(args[0]))
    return ty_error(in, n->list.items[0], "%s() needs an array or a number, got %s", n->bi->name, args[0]->name);
  if (e->kind == TY_BOOL)
    return ty_error(in, n->list.items[0], "%s() of %s is not supported in compiled code", n->bi->name, e->name);
  if (n->list.len > 1 && !ty_is_int(n->list.items[1]->ty))
    return ty_error(in, n->list.items[1], "%s(): decimals must be an int, got %s", n->bi->name, n->list.items[1]->ty->name);
  const Type *t = is_array(args[0]) ? ty_elementwise(in, n, args, e) : e;
  if (!n->kw.len || !t) return t;
  if (!ty_ufunc_out(in, n, t)) return NULL;  /* n now (call, out) */
  const Type *both[2] = {t, n->list.items[1]->ty};
  return ty_round_out(in, n, both);
}

/* x of type a rounded to d decimals, into e (a float, or an int: see below) */
static LLVMValueRef round_number(Lower *l, LLVMValueRef x0, const Type *a, const Type *e, LLVMValueRef d) {
  const Type *f64 = TYS(TY_F64);
  LLVMValueRef up = LLVMBuildICmp(l->b, LLVMIntSGE, d, const_i64(l, 0), "");
  LLVMValueRef mag = LLVMBuildSelect(l->b, up, d, LLVMBuildNeg(l->b, d, ""), "");
  const Type *wa = ty_is_float(a) ? a : f64, *w = ty_is_float(e) ? e : f64;  /* the precisions it is computed in */
  LLVMValueRef f = lo_intrinsic2(l, "llvm.pow", f64, LLVMConstReal(lo_type(l, f64), 10.0),
                                 LLVMBuildSIToFP(l->b, mag, lo_type(l, f64), ""));
  LLVMValueRef fa = lo_convert(l, f, f64, wa), fw = lo_convert(l, f, f64, w);
  LLVMValueRef x = lo_convert(l, x0, a, wa);
  LLVMValueRef scaled = LLVMBuildSelect(l->b, up, LLVMBuildFMul(l->b, x, fa, ""), LLVMBuildFDiv(l->b, x, fa, ""), "");
  LLVMValueRef r = lo_intrinsic1(l, "llvm.rint", w, lo_convert(l, scaled, wa, w));
  r = LLVMBuildSelect(l->b, up, LLVMBuildFDiv(l->b, r, fw, ""), LLVMBuildFMul(l->b, r, fw, ""), "");
  if (ty_is_float(e)) return r;
  /* back to the int dtype as NumPy's astype: through int64, wrapping */
  LLVMValueRef back = e->kind == TY_U64 ? LLVMBuildFPToUI(l->b, r, l->mod->i64, "") : LLVMBuildFPToSI(l->b, r, l->mod->i64, "");
  if (ty_bits(e) < 64) back = LLVMBuildTrunc(l->b, back, lo_type(l, e), "");
  return LLVMBuildSelect(l->b, up, lo_convert(l, x0, a, e), back, "");
}

static LLVMValueRef np_round_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *e = elem_of(n->ty), *a = elem_of(n->list.items[0]->ty);
  LLVMValueRef d = n->list.len > 1 ? lo_convert(l, v[1], elem_of(n->list.items[1]->ty), TYS(TY_I64)) : const_i64(l, 0);
  if (!ty_is_complex(e)) return round_number(l, v[0], a, e, d);
  LLVMValueRef z = lo_convert(l, v[0], a, e);  /* (a complex a: e is a's or out's complex dtype) */
  const Type *p = lo_complex_part(e);
  return lo_complex_make(l, e, round_number(l, lo_complex_real(l, z), p, p, d), round_number(l, lo_complex_imag(l, z), p, p, d));
}

static LLVMValueRef lo_np_round(Lower *l, Node *n) {
  LLVMValueRef v[2];
  for (int i = 0; i < n->list.len; i++) v[i] = lo_expr(l, n->list.items[i]);
  return np_round_elem(l, n, v);
}

/* Ints into an int out with decimals < 0: NumPy's float64 quotient cannot
 * be cast there (a variable's decimals checked here; a constant's when typed). */
static LLVMValueRef lo_round_out(Lower *l, Node *n) {
  Node *call = n->list.items[0], *out = n->list.items[1];
  Node *d = call->list.len > 1 ? call->list.items[1] : NULL;
  if (d && d->kind == N_VAR && ty_is_int(elem_of(call->ty)) && ty_is_int(out->ty->elem)) {
    LLVMValueRef dv = lo_convert(l, lo_expr(l, d), d->ty, TYS(TY_I64));
    char msg[200];
    snprintf(msg, sizeof msg, "Cannot cast ufunc 'divide' output from dtype('float64') to dtype('%s') with casting "
             "rule 'same_kind'", out->ty->elem->name);
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, dv, const_i64(l, 0), ""), RT_ERR_TYPE, msg);
  }
  return lo_ufunc_into(l, n, true);
}

static const Builtin round_out = {"numpy.round", NULL, NULL, BK_FUNCTION, 0, 2, 2, NULL, BF_COMPLEX, 0, 0, ty_round_out,
                                  lo_round_out};

/* ---------------------------------------------------------------- the rows */

static const char *const round_kw[] = {"decimals", "out", NULL};
static const char *const clip_kw[] = {"a_min", "a_max", "out", "min", "max", NULL};
static const char *const clip_method_kw[] = {"min", "max", "out", "a_min", "a_max", NULL};

#define FUNCTION(name, lo, hi, kw, flags, ival, type, lower) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, lo, hi, kw, flags, ival, 0, type, lower}
#define METHOD(name, lo, hi, kw, flags, ival, type, lower) \
  {"array." name, NULL, name, BK_METHOD, TY_ARRAY, lo, hi, kw, flags, ival, 0, type, lower}

static const char *const transpose_kw[] = {"axes", NULL};
static const char *const order_kw[] = {"order", NULL};
static const char *const rot90_kw[] = {"k", NULL};
static const char *const select_kw[] = {"choicelist", "default", NULL};
static const char *const swapaxes_kw[] = {"axis1", "axis2", NULL};
static const char *const moveaxis_kw[] = {"source", "destination", NULL};
static const char *const dtype_kw[] = {"dtype", NULL};

/* BF_COMPLEX: these move elements of any dtype, and convert them as lo_convert does */
const Builtin bi_shape[] = {
  /* views (reshape and ravel copy an array that is not contiguous in their order) */
  FUNCTION("reshape", 2, 2, order_kw, BF_COMPLEX | BF_STRINGS, 0, ty_reshape, lo_reshape),
  METHOD("reshape", 1, RC_MAX_NDIM, order_kw, BF_COMPLEX | BF_STRINGS, 0, ty_reshape, lo_reshape),
  FUNCTION("ravel", 1, 2, order_kw, BF_COMPLEX | BF_STRINGS, 0, ty_ravel, lo_ravel),
  METHOD("ravel", 0, 1, order_kw, BF_COMPLEX | BF_STRINGS, 0, ty_ravel, lo_ravel),
  {"array.flat", NULL, "flat", BK_ATTRIBUTE, TY_ARRAY, 0, 0, NULL, BF_COMPLEX, 0, 0, ty_flat, lo_flat},
  FUNCTION("transpose", 1, 2, transpose_kw, BF_COMPLEX, 0, ty_transpose, lo_transpose),
  METHOD("transpose", 0, RC_MAX_NDIM, NULL, BF_COMPLEX, 0, ty_transpose, lo_transpose),
  FUNCTION("swapaxes", 1, 3, swapaxes_kw, BF_COMPLEX, MOVE_SWAP, ty_moved, lo_moved),
  METHOD("swapaxes", 0, 2, swapaxes_kw, BF_COMPLEX, MOVE_SWAP, ty_moved, lo_moved),
  FUNCTION("rot90", 1, 2, rot90_kw, BF_COMPLEX, 0, ty_rot90, lo_rot90),
  FUNCTION("moveaxis", 1, 3, moveaxis_kw, BF_COMPLEX, MOVE_AXES, ty_moved, lo_moved),
  {"array.T", NULL, "T", BK_ATTRIBUTE, TY_ARRAY, 0, 0, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0, ty_T, lo_T},
  FUNCTION("squeeze", 1, 2, axis_kw, BF_COMPLEX, 0, ty_squeeze, lo_squeeze),
  METHOD("squeeze", 0, 1, axis_kw, BF_COMPLEX, 0, ty_squeeze, lo_squeeze),
  FUNCTION("expand_dims", 1, 2, axis_kw, BF_COMPLEX, 0, ty_expand_dims, lo_expand_dims),
  FUNCTION("atleast_1d", 1, 32, NULL, BF_COMPLEX | BF_ARRAYLIKE, 1, ty_atleast, lo_atleast),
  FUNCTION("atleast_2d", 1, 32, NULL, BF_COMPLEX | BF_ARRAYLIKE, 2, ty_atleast, lo_atleast),
  FUNCTION("atleast_3d", 1, 32, NULL, BF_COMPLEX | BF_ARRAYLIKE, 3, ty_atleast, lo_atleast),
  METHOD("view", 0, 1, dtype_kw, BF_COMPLEX, 0, ty_view, lo_view_as),
  FUNCTION("flip", 1, 2, axis_kw, BF_COMPLEX, -1, ty_flip, lo_flip),
  FUNCTION("fliplr", 1, 1, NULL, BF_COMPLEX | BF_ARRAYLIKE, 1, ty_flip, lo_flip),
  FUNCTION("flipud", 1, 1, NULL, BF_COMPLEX | BF_ARRAYLIKE, 0, ty_flip, lo_flip),
  /* copies */
  METHOD("flatten", 0, 1, order_kw, BF_ALLOCATES | BF_COMPLEX | BF_STRINGS, 0, ty_flatten, lo_flatten),
  METHOD("astype", 0, 1, dtype_kw, BF_ALLOCATES | BF_COMPLEX, 0, ty_astype, lo_astype),
  FUNCTION("concatenate", 1, 2, join_kw, BF_ALLOCATES | BF_COMPLEX | BF_NONE, JOIN_CONCATENATE, ty_join, lo_join),
  FUNCTION("stack", 1, 2, join_kw, BF_ALLOCATES | BF_COMPLEX, JOIN_STACK, ty_join, lo_join),
  FUNCTION("hstack", 1, 1, stack_kw, BF_ALLOCATES | BF_COMPLEX, JOIN_HSTACK, ty_join, lo_join),
  /* vstack's alias, which NumPy 2 deprecates; NumPy 1's is vstack itself, whose row (the later) names it */
  FUNCTION("row_stack", 1, 1, stack_kw, BF_ALLOCATES | BF_COMPLEX, JOIN_VSTACK, ty_join, lo_join),
  FUNCTION("vstack", 1, 1, stack_kw, BF_ALLOCATES | BF_COMPLEX, JOIN_VSTACK, ty_join, lo_join),
  FUNCTION("column_stack", 1, 1, NULL, BF_ALLOCATES | BF_COMPLEX, JOIN_COLUMNS, ty_join, lo_join),
  FUNCTION("dstack", 1, 1, NULL, BF_ALLOCATES | BF_COMPLEX, JOIN_DSTACK, ty_join, lo_join),
  FUNCTION("append", 2, 3, axis_kw, BF_ALLOCATES | BF_COMPLEX, 0, ty_append, lo_append),
  FUNCTION("resize", 2, 2, NULL, BF_ALLOCATES | BF_COMPLEX | BF_RAISES, 0, ty_resize, lo_resize),
  FUNCTION("broadcast_to", 2, 2, NULL, BF_COMPLEX | BF_RAISES, 0, ty_broadcast_to, lo_broadcast_to),
  FUNCTION("roll", 2, 3, axis_kw, BF_ALLOCATES | BF_RAISES | BF_COMPLEX, 0, ty_roll, lo_roll),
  FUNCTION("tile", 2, 2, NULL, BF_ALLOCATES | BF_COMPLEX, 0, ty_tile, lo_tile),
  FUNCTION("repeat", 2, 3, axis_kw, BF_ALLOCATES | BF_COMPLEX, 0, ty_repeat, lo_repeat),
  METHOD("repeat", 1, 2, axis_kw, BF_ALLOCATES | BF_COMPLEX, 0, ty_repeat, lo_repeat),
  FUNCTION("nonzero", 1, 1, NULL, BF_ALLOCATES | BF_COMPLEX | BF_INDEXES, 0, ty_nonzero, lo_nonzero),
  FUNCTION("argwhere", 1, 1, NULL, BF_ALLOCATES | BF_COMPLEX | BF_ARRAYLIKE | BF_NONE, 0, ty_argwhere, lo_argwhere),
  METHOD("nonzero", 0, 0, NULL, BF_ALLOCATES | BF_COMPLEX, 0, ty_nonzero, lo_nonzero),
  METHOD("fill", 1, 1, NULL, BF_COMPLEX, 0, ty_fill, lo_fill_method),
  METHOD("tobytes", 0, 0, NULL, BF_ALLOCATES | BF_COMPLEX, 0, ty_tobytes, lo_tobytes),
  METHOD("item", 0, 0, NULL, BF_COMPLEX | BF_RAISES, 0, ty_item, lo_item),
  {"array truth", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, BF_COMPLEX | BF_RAISES, 0, 0, ty_array_truth, lo_array_truth},
  {"numpy.fill_diagonal", "numpy", "fill_diagonal", BK_FUNCTION, 0, 2, 3, fill_diagonal_kw, BF_RAISES | BF_COMPLEX, 0, 0,
   ty_fill_diagonal, lo_fill_diagonal},
  /* elementwise: fused into the array expressions around them */
  {"numpy.where", "numpy", "where", BK_FUNCTION, 0, 1, 3, NULL, BF_ALLOCATES | BF_COMPLEX | BF_ARRAYLIKE | BF_INDEXES | BF_NONE, 0, 0, ty_where,
   lo_where, where_elem},
  {"numpy.where of text", NULL, NULL, BK_FUNCTION, 0, 3, 3, NULL, BF_ALLOCATES | BF_RAISES | BF_COMPLEX, 0, 0, ty_text_where,
   lo_text_where},
  {"numpy.select", "numpy", "select", BK_FUNCTION, 0, 1, 3, select_kw, BF_ALLOCATES | BF_COMPLEX | BF_RAISES, 0, 0, ty_select,
   lo_select},
  {"numpy.clip", "numpy", "clip", BK_FUNCTION, 0, 1, 3, clip_kw, BF_PURE | BF_CHEAP | BF_NONE, 0, 0, ty_clip, lo_clip, clip_elem},
  {"array.clip", NULL, "clip", BK_METHOD, TY_ARRAY, 0, 3, clip_method_kw, BF_PURE | BF_CHEAP | BF_NONE, 0, 0, ty_clip, lo_clip, clip_elem},
  {"numpy.round", "numpy", "round", BK_FUNCTION, 0, 1, 3, round_kw, BF_COMPLEX, 0, 0, ty_np_round, lo_np_round, np_round_elem},
  {"numpy.around", "numpy", "around", BK_FUNCTION, 0, 1, 3, round_kw, BF_COMPLEX, 0, 0, ty_np_round, lo_np_round, np_round_elem},
  {"numpy.round_", "numpy", "round_", BK_FUNCTION, 0, 1, 3, round_kw, BF_COMPLEX, 0, 0, ty_np_round, lo_np_round, np_round_elem},
  {"array.round", NULL, "round", BK_METHOD, TY_ARRAY, 0, 2, round_kw, BF_COMPLEX, 0, 0, ty_np_round, lo_np_round, np_round_elem},
  BI_END,
};
