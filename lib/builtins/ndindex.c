/* builtins/ndindex.c — numpy.ndindex(shape) and numpy.ndenumerate(a) as
 * a for loop's iterable. The frontend walks them as any sequence, over a
 * hidden counter k running to the shape's size ("ndindex size"); the
 * loop's index is k unravelled in C order into a tuple of int64
 * ("ndindex at"). The shape is an int, a tuple of ints, or an array's
 * (ndenumerate's: its elements are read at that index).
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

#define HIDDEN(name, lo, hi, type, lower) \
  {name, NULL, NULL, BK_FUNCTION, 0, lo, hi, NULL, BF_PURE | BF_CHEAP, 0, 0, type, lower}

const Builtin bi_ndindex[] = {
  HIDDEN("ndindex size", 1, 1, ty_ndindex_size, lo_ndindex_size),
  HIDDEN("ndindex at", 2, 2, ty_ndindex_at, lo_ndindex_at),
  BI_END,
};
