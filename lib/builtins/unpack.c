/* builtins/unpack.c — x, y = a of an array or a typed list a (x, y =
 * numpy.split(v, 2)): infer makes the value a call of "array unpack" (a,
 * its ival the targets' count), a tuple of a's elements or items (of a
 * 2-d or higher array, views of its rows, as Numba's iteration gives),
 * after checking at run time that a has that many (Python's ValueError
 * otherwise, as for any sequence).
 */
#include "builtins/builtins.h"

static const Type *ty_array_unpack(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0], *fields[64];
  bool list = t->kind == TY_LIST && t->elem;
  if (!list && (t->kind != TY_ARRAY || t->ndim < 1))
    return ty_error(in, n, "cannot unpack %s: only an array's rows and a typed list's items are unpacked", t->name);
  if (n->ival > 64) return ty_error(in, n, "cannot unpack into more than 64 targets");
  const Type *item = list || t->ndim == 1 ? t->elem : ty_array(t->elem, t->ndim - 1, t->layout == 'C' ? 'C' : 'A', t->readonly);
  for (int i = 0; i < n->ival; i++) fields[i] = item;
  return ty_tuple((int)n->ival, fields);
}

/* Row i of array v (of type t, 2-d or more): a view sharing v's memory. */
static LLVMValueRef row_view(Lower *l, const Type *t, const Type *row, LLVMValueRef v, int64_t i) {
  LLVMTypeRef dims = LLVMArrayType2(l->mod->i64, (uint64_t)row->ndim);
  LLVMValueRef shape = LLVMGetUndef(dims), strides = LLVMGetUndef(dims);
  for (int d = 1; d < t->ndim; d++) {
    shape = LLVMBuildInsertValue(l->b, shape, lo_arr_shape(l, v, d), (unsigned)d - 1, "");
    strides = LLVMBuildInsertValue(l->b, strides, lo_arr_stride(l, t, v, d), (unsigned)d - 1, "");
  }
  LLVMValueRef offset = LLVMBuildMul(l->b, const_i64(l, i), lo_arr_stride(l, t, v, 0), "");
  LLVMValueRef data = LLVMBuildInBoundsGEP2(l->b, l->mod->i8, LLVMBuildExtractValue(l->b, v, 2, ""), &offset, 1, "");
  LLVMValueRef r = LLVMGetUndef(lo_type(l, row));
  r = LLVMBuildInsertValue(l->b, r, LLVMBuildExtractValue(l->b, v, 0, ""), 0, "");
  r = LLVMBuildInsertValue(l->b, r, LLVMBuildExtractValue(l->b, v, 1, ""), 1, "");
  r = LLVMBuildInsertValue(l->b, r, data, 2, "");
  r = LLVMBuildInsertValue(l->b, r, shape, 3, "");
  return LLVMBuildInsertValue(l->b, r, strides, 4, "");
}

static LLVMValueRef lo_array_unpack(Lower *l, Node *n) {
  Node *a = n->list.items[0];
  bool list = a->ty->kind == TY_LIST;
  LLVMValueRef v = lo_expr(l, a), len = list ? lo_list_len(l, v) : lo_arr_shape(l, v, 0), want = const_i64(l, n->ival);
  lo_raise_format_if(l, LLVMBuildICmp(l->b, LLVMIntSGT, len, want, ""), RT_ERR_VALUE,
                     "too many values to unpack (expected %lld)", &want, 1);
  lo_raise_format_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, len, want, ""), RT_ERR_VALUE,
                     "not enough values to unpack (expected %lld, got %lld)", (LLVMValueRef[]){want, len}, 2);
  LLVMValueRef t = LLVMGetUndef(lo_type(l, n->ty));
  for (int i = 0; i < n->ival && !list && a->ty->ndim > 1; i++) {
    const Type *row = n->ty->fields[i];
    LLVMValueRef item = row_view(l, a->ty, row, v, i);
    lo_refcount(l, row, item, true);  /* the tuple's own, as an index's */
    t = LLVMBuildInsertValue(l->b, t, item, (unsigned)i, "");
  }
  for (int i = 0; i < n->ival && (list || a->ty->ndim == 1); i++) {
    LLVMValueRef at = list ? lo_list_item_addr(l, a->ty->elem, v, const_i64(l, i))
                           : lo_element_addr(l, a->ty, v, (LLVMValueRef[]){const_i64(l, i)});
    LLVMValueRef item = lo_load_scalar(l, a->ty->elem, at);
    if (ty_has_arrays(a->ty->elem)) lo_refcount(l, a->ty->elem, item, true);  /* the tuple's own, as an index's */
    t = LLVMBuildInsertValue(l->b, t, item, (unsigned)i, "");
  }
  lo_done_with(l, a, v);
  return t;
}

const Builtin bi_unpack[] = {
  {"array unpack", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, BF_RAISES, 0, 0, ty_array_unpack, lo_array_unpack},
  BI_END,
};
