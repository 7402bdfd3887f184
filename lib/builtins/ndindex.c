/* builtins/ndindex.c — numpy.ndindex(shape), numpy.ndenumerate(a) and
 * numpy.nditer(a) as a for loop's iterable. The frontend walks them as any
 * sequence, over a hidden counter k running to the shape's size ("ndindex
 * size"); the loop's index is k unravelled in C order into a tuple of
 * int64 ("ndindex at"). The shape is an int, a tuple of ints, or an
 * array's (ndenumerate's: its elements are read at that index; nditer's:
 * each a 0-d read-only view of a, "nditer at", in memory order where a is
 * contiguous, C order otherwise, as Numba's: NumPy's order='K' walks a
 * strided array's memory order too).
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

/* numpy.nditer(a) of one array (NumPy's other operands and flags are not
 * taken). */
static const Type *ty_nditer_size(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind != TY_ARRAY)
    return ty_error(in, n, "numpy.nditer() takes one array in compiled code, got %s", args[0]->name);
  return TYS(TY_I64);
}

static const Type *ty_nditer_at(Infer *in, Node *n, const Type **args) {
  return ty_nditer_size(in, n, args) ? ty_array(args[0]->elem, 0, 'C', true) : NULL;
}

static LLVMValueRef lo_nditer_size(Lower *l, Node *n) {
  LLVMValueRef size = lo_ndindex_size(l, n);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, size, const_i64(l, 0), ""), RT_ERR_VALUE,
              "Iteration of zero-sized operands is not enabled");
  return size;
}

/* a's element k (k unravelled with the last index fastest, or the first
 * for a Fortran-ordered a) as a 0-d view holding a reference to a's
 * memory, read-only as NumPy's nditer makes it. */
static LLVMValueRef lo_nditer_at(Lower *l, Node *n) {
  Node *arr = n->list.items[0];
  const Type *t = arr->ty;
  LLVMValueRef a = lo_expr(l, arr), k = lo_expr_as(l, n->list.items[1], TYS(TY_I64)), idx[RC_MAX_NDIM];
  bool fortran = t->layout == 'F';
  for (int i = 0; i < t->ndim; i++) {
    int d = fortran ? i : t->ndim - 1 - i;
    bool last = i == t->ndim - 1;
    idx[d] = last ? k : LLVMBuildURem(l->b, k, lo_arr_shape(l, a, d), "");
    if (!last) k = LLVMBuildUDiv(l->b, k, lo_arr_shape(l, a, d), "");
  }
  LLVMValueRef v = LLVMGetUndef(lo_type(l, n->ty));
  v = LLVMBuildInsertValue(l->b, v, LLVMBuildExtractValue(l->b, a, 0, ""), 0, "");
  v = LLVMBuildInsertValue(l->b, v, LLVMBuildExtractValue(l->b, a, 1, ""), 1, "");
  v = LLVMBuildInsertValue(l->b, v, lo_element_addr(l, t, a, idx), 2, "");
  lo_refcount(l, n->ty, v, true);
  lo_done_with(l, arr, a);
  return v;
}

#define HIDDEN(name, lo, hi, type, lower) \
  {name, NULL, NULL, BK_FUNCTION, 0, lo, hi, NULL, BF_PURE | BF_CHEAP, 0, 0, type, lower}

const Builtin bi_ndindex[] = {
  HIDDEN("ndindex size", 1, 1, ty_ndindex_size, lo_ndindex_size),
  HIDDEN("ndindex at", 2, 2, ty_ndindex_at, lo_ndindex_at),
  {"nditer size", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, BF_RAISES, 0, 0, ty_nditer_size, lo_nditer_size},
  HIDDEN("nditer at", 2, 2, ty_nditer_at, lo_nditer_at),
  BI_END,
};
