/* builtins/unpack.c — x, y = a of a 1-d array or a typed list a (x, y =
 * numpy.split(v, 2)): infer makes the value a call of "array unpack" (a,
 * its ival the targets' count), a tuple of a's elements or items, after
 * checking at run time that a has that many (Python's ValueError
 * otherwise, as for any sequence).
 */
#include "builtins/builtins.h"

static const Type *ty_array_unpack(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0], *fields[64];
  bool list = t->kind == TY_LIST && t->elem;
  if (!list && (t->kind != TY_ARRAY || t->ndim != 1))
    return ty_error(in, n, "cannot unpack %s: only a 1-d array's elements and a typed list's items are unpacked", t->name);
  if (n->ival > 64) return ty_error(in, n, "cannot unpack into more than 64 targets");
  for (int i = 0; i < n->ival; i++) fields[i] = t->elem;
  return ty_tuple((int)n->ival, fields);
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
  for (int i = 0; i < n->ival; i++) {
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
