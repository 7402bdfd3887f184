/* builtins/unpack.c — x, y = a of an array, a typed list or a range a
 * (x, y = numpy.split(v, 2)): infer makes the value a call of "array
 * unpack" (a, its ival the targets' count), a tuple of a's elements, rows
 * (views, as a[i]), items or numbers, after
 * checking at run time that a has that many (Python's ValueError
 * otherwise, as for any sequence). A nested target takes a sequence that
 * is a field of the value (for i, (x, y) in enumerate(rows)): the store
 * unpacks it there, with the same check.
 */
#include "builtins/builtins.h"

/* what unpacking t gives each target: an element, a row (a[i]'s view) or an item */
static const Type *unpacked_item(const Type *t) {
  if (t->kind == TY_RANGE) return TYS(TY_I64);
  if (t->kind != TY_ARRAY || t->ndim == 1) return t->elem;
  return ty_array(t->elem, t->ndim - 1, t->layout == 'C' ? 'C' : 'A', t->readonly);
}

const Type *ty_unpacked_tuple(const Type *t, int count) {
  const Type *item = unpacked_item(t);
  return ty_tuple_repeat(1, &item, count);
}

const Type *ty_unpacked(Infer *in, Node *n, const Type *t, int count) {
  bool list = (t->kind == TY_LIST && t->elem) || t->kind == TY_RANGE;
  if (!list && (t->kind != TY_ARRAY || t->ndim < 1))
    return ty_error(in, n, "cannot unpack %s: only an array's rows, a typed list's items and a range are unpacked",
                    t->name);
  if (count > TY_MAX_FIELDS) return ty_error(in, n, "cannot unpack into more than %d targets", TY_MAX_FIELDS);
  return ty_unpacked_tuple(t, count);
}

/* a[i] of an array a of 2 or more dimensions: a view of its row, holding a reference */
static LLVMValueRef row_view(Lower *l, const Type *t, LLVMValueRef a, int i) {
  const Type *row = unpacked_item(t);
  LLVMValueRef shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  for (int d = 0; d < row->ndim; d++) {
    shape[d] = lo_arr_shape(l, a, d + 1);
    strides[d] = lo_arr_stride(l, t, a, d + 1);
  }
  LLVMValueRef offset = LLVMBuildMul(l->b, const_i64(l, i), lo_arr_stride(l, t, a, 0), "");
  LLVMValueRef data = LLVMBuildGEP2(l->b, l->mod->i8, LLVMBuildExtractValue(l->b, a, 2, ""), &offset, 1, "row");
  LLVMValueRef v = np_view(l, row, a, data, shape, strides);
  lo_refcount(l, row, v, true);
  return v;
}

static const Type *ty_array_unpack(Infer *in, Node *n, const Type **args) {
  return ty_unpacked(in, n, args[0], (int)n->ival);
}

/* range(start, stop, step)'s numbers, as many as it holds (lo_unpacked checked) */
static LLVMValueRef range_numbers(Lower *l, LLVMValueRef r, const Type *tuple) {
  LLVMValueRef t = LLVMGetUndef(lo_type(l, tuple)), k = LLVMBuildExtractValue(l->b, r, 0, "");
  LLVMValueRef step = LLVMBuildExtractValue(l->b, r, 2, "");
  for (int i = 0; i < tuple->nfields; i++, k = LLVMBuildAdd(l->b, k, step, ""))
    t = LLVMBuildInsertValue(l->b, t, k, (unsigned)i, "");
  return t;
}

static LLVMValueRef sequence_len(Lower *l, const Type *seq, LLVMValueRef v) {
  if (seq->kind == TY_LIST) return lo_list_len(l, v);
  if (seq->kind == TY_ARRAY) return lo_arr_shape(l, v, 0);
  return lo_range_count(l, LLVMBuildExtractValue(l->b, v, 0, ""), LLVMBuildExtractValue(l->b, v, 1, ""),
                        LLVMBuildExtractValue(l->b, v, 2, ""));
}

LLVMValueRef lo_unpacked(Lower *l, const Type *seq, LLVMValueRef v, const Type *tuple) {
  bool list = seq->kind == TY_LIST;
  LLVMValueRef len = sequence_len(l, seq, v), want = const_i64(l, tuple->nfields);
  lo_raise_format_if(l, LLVMBuildICmp(l->b, LLVMIntSGT, len, want, ""), RT_ERR_VALUE,
                     "too many values to unpack (expected %lld)", &want, 1);
  lo_raise_format_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, len, want, ""), RT_ERR_VALUE,
                     "not enough values to unpack (expected %lld, got %lld)", (LLVMValueRef[]){want, len}, 2);
  if (seq->kind == TY_RANGE) return range_numbers(l, v, tuple);
  LLVMValueRef t = LLVMGetUndef(lo_type(l, tuple));
  for (int i = 0; i < tuple->nfields && !list && seq->ndim > 1; i++)
    t = LLVMBuildInsertValue(l->b, t, row_view(l, seq, v, i), (unsigned)i, "");
  for (int i = 0; i < tuple->nfields && (list || seq->ndim == 1); i++) {
    LLVMValueRef at = list ? lo_list_item_addr(l, seq->elem, v, const_i64(l, i))
                           : lo_element_addr(l, seq, v, (LLVMValueRef[]){const_i64(l, i)});
    LLVMValueRef item = lo_load_scalar(l, seq->elem, at);
    if (ty_has_arrays(seq->elem)) lo_refcount(l, seq->elem, item, true);  /* the tuple's own, as an index's */
    t = LLVMBuildInsertValue(l->b, t, item, (unsigned)i, "");
  }
  return t;
}

static LLVMValueRef lo_array_unpack(Lower *l, Node *n) {
  Node *a = n->list.items[0];
  LLVMValueRef v = lo_expr(l, a), t = lo_unpacked(l, a->ty, v, n->ty);
  lo_done_with(l, a, v);
  return t;
}

const Builtin bi_unpack[] = {
  {"array unpack", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, BF_RAISES, 0, 0, ty_array_unpack, lo_array_unpack},
  BI_END,
};
