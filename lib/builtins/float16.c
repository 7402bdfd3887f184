/* builtins/float16.c — which builtins take float16 numbers and arrays.
 *
 * float16 values are LLVM's half: loads, stores, conversions (fpext and
 * correctly rounded fptrunc) and the operators (done in float32 and
 * rounded, lower/arith.c, as NumPy's half loops) are generic. A builtin
 * takes them only where it is checked to compute as NumPy does (many
 * others pick float32 or float64 code by width, or call BLAS): the rows
 * below; the others refuse float16 with a TypingError.
 */
#include "builtins/builtins.h"

static const char *const takes_half[] = {
  /* Python's */
  "len", "abs", "min", "max", "float", "int", "bool", "round", "a NumPy scalar type",
  "math.sqrt", "math.exp", "math.log", "math.sin", "math.cos", "math.floor", "math.ceil", "math.isnan",
  "math.isinf", "math.isfinite", "math.log2", "math.log10", "math.exp2", "math.fabs", "math.trunc",
  /* creation and copies */
  "numpy.empty", "numpy.zeros", "numpy.ones", "numpy.full", "numpy.empty_like", "numpy.zeros_like",
  "numpy.ones_like", "numpy.full_like", "numpy.arange", "numpy.array", "numpy.asarray", "numpy.copy", "array.copy",
  "array.astype", "numpy.where", "numpy.clip", "array.clip",
  /* views, and elements moved (insert's values converted as any store's) */
  "numpy.array_split", "numpy.split", "numpy.hsplit", "numpy.vsplit", "numpy.dsplit", "numpy.broadcast_arrays",
  "numpy.trim_zeros", "numpy.lib.stride_tricks.as_strided", "numpy.lib.stride_tricks.sliding_window_view",
  "numpy.delete", "numpy.insert",
  /* shapes, views and copies: elements moved as their bytes, never computed */
  "numpy.moveaxis", "numpy.swapaxes", "array.swapaxes", "numpy.transpose", "array.transpose", "numpy.reshape",
  "array.reshape", "numpy.ravel", "array.ravel", "array.flatten", "numpy.squeeze", "array.squeeze",
  "numpy.expand_dims", "numpy.atleast_1d", "numpy.atleast_2d", "numpy.atleast_3d", "numpy.concatenate",
  "numpy.stack", "numpy.vstack", "numpy.hstack", "numpy.dstack", "numpy.column_stack", "numpy.row_stack",
  "numpy.append", "numpy.flip", "numpy.fliplr", "numpy.flipud", "numpy.rot90", "numpy.roll", "numpy.repeat",
  "array.repeat", "numpy.tile", "numpy.broadcast_to", "numpy.resize", "numpy.diag", "numpy.diagflat",
  "numpy.tril", "numpy.triu", "numpy.take", "array.take", "numpy.ascontiguousarray", "numpy.asfortranarray",
  "array.fill", "array.view", "array.item", "nditer size", "nditer at",
  /* the truth of each element (not zero: NaN is true), as NumPy's */
  "numpy.nonzero", "array.nonzero", "numpy.argwhere", "numpy.flatnonzero", "numpy.count_nonzero", "numpy.any",
  "array.any", "numpy.all", "array.all",
  /* ndenumerate's counter over the shape (its elements are read as a[i]) */
  "ndindex size", "ndindex at",
  /* elementwise, in float32 as NumPy's loops for half */
  "numpy.sqrt", "numpy.exp", "numpy.log", "numpy.sin", "numpy.cos", "numpy.absolute", "numpy.abs", "numpy.floor",
  "numpy.ceil", "numpy.negative", "numpy.isnan", "numpy.isinf", "numpy.isfinite", "numpy.add", "numpy.subtract",
  "numpy.multiply", "numpy.divide",
  /* the operators' comparisons, one operand picked (NaN's rules as NumPy's), a sign, a product as a * a */
  "numpy.equal", "numpy.not_equal", "numpy.less", "numpy.less_equal", "numpy.greater", "numpy.greater_equal",
  "numpy.maximum", "numpy.minimum", "numpy.fmax", "numpy.fmin", "numpy.positive", "numpy.sign", "numpy.signbit",
  "numpy.square",
  /* the parts of a float, computed in float64, which holds a half's exactly */
  "numpy.frexp", "numpy.modf", "numpy.frexp mantissa", "numpy.frexp exponent", "numpy.modf fraction",
  "numpy.modf integral",
  /* a ufunc's out=, its call checked on its own: elements converted as any store's */
  "numpy.ufunc.out",
  /* reductions: sums and products accumulate in float32, as NumPy's */
  "numpy.sum", "array.sum", "numpy.prod", "array.prod", "numpy.mean", "array.mean", "numpy.max", "array.max",
  "numpy.min", "array.min", "numpy.amax", "numpy.amin", "numpy.argmax", "array.argmax", "numpy.argmin",
  "array.argmin",
  /* typed lists' items and dicts' values (not keys: dicts.c), as any number's */
  "list literal", "list", "sorted", "in", "list.append", "list.insert", "list.extend", "list.pop",
  "list.__delitem__", "list.__delslice__", "list.index", "list.count", "list.remove", "list.clear",
  "list.reverse", "list.sort", "list.copy", "dict literal", "dict.get", "dict.pop", "dict.setdefault",
  "dict.__delitem__", "dict.popitem", "dict.update", "dict.clear", "dict.copy", "dict.keys", "dict.values",
  "dict.items",
  /* in kernels (cuda.fp16.* are fp16.c's) */
  "cuda.shared.array", "cuda.local.array", "cuda.const.array_like", "cuda.shfl_sync", "cuda.shfl_up_sync",
  "cuda.shfl_down_sync", "cuda.shfl_xor_sync", "cuda.ldca", "cuda.ldcg", "cuda.ldcs", "cuda.ldlu", "cuda.ldcv",
  "cuda.stcg", "cuda.stcs", "cuda.stwb", "cuda.stwt",
  /* written by the interpreter (print.c) */
  "print", NULL,
};

static bool holds_half(const Type *t) {
  if (!t) return false;
  if (t->kind == TY_ARRAY || t->kind == TY_DTYPE || t->kind == TY_OPTIONAL) return holds_half(t->elem);
  if (t->kind == TY_TUPLE)
    for (int i = 0; i < t->nfields; i++)
      if (holds_half(t->fields[i])) return true;
  return t->kind == TY_F16;
}

bool ty_check_float16(Infer *in, Node *n, const Type **args) {
  if (n->callee || !strncmp(n->bi->name, "cuda.fp16.", 10)) return true;
  for (int i = 0; takes_half[i]; i++)
    if (!strcmp(n->bi->name, takes_half[i])) return true;
  for (int i = 0; i < n->list.len + n->kw.len; i++) {
    Node *x = i < n->list.len ? n->list.items[i] : n->kw.items[i - n->list.len];
    if (holds_half(i < n->list.len ? args[i] : x->ty))
      return ty_error(in, x, "%s() does not support float16 in compiled code", n->bi->name) != NULL;
  }
  return true;
}
