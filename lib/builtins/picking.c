/* builtins/picking.c — elements picked from an array read flattened (in C
 * order), in compiled code: numpy.take(a, indices) and a.take(indices)
 * (no axis), numpy.extract(condition, arr), numpy.flatnonzero(a). Each
 * reads its array once into a flat temporary; indices out of range are
 * NumPy's IndexError.
 */
#include "builtins/builtins.h"

static LLVMValueRef flat_item(Lower *l, const Type *e, LLVMValueRef flat, LLVMValueRef i) {
  LLVMValueRef data = LLVMBuildExtractValue(l->b, flat, 2, "");
  return LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, e), data, &i, 1, "");
}

static LLVMValueRef counter(Lower *l, const char *name) {
  LLVMValueRef c = lo_alloca(l, l->mod->i64, name);
  LLVMBuildStore(l->b, const_i64(l, 0), c);
  return c;
}

static LLVMValueRef load_i64(Lower *l, LLVMValueRef p) { return LLVMBuildLoad2(l->b, l->mod->i64, p, ""); }

static void bump(Lower *l, LLVMValueRef p) { LLVMBuildStore(l->b, LLVMBuildAdd(l->b, load_i64(l, p), const_i64(l, 1), ""), p); }

/* ---------------------------------------------------------------- take */

/* numpy.take(a, indices): a number for an int, else an array of indices' shape */
static const Type *ty_take(Infer *in, Node *n, const Type **args) {
  if (!bi_need_values(in, n, n->list.items[0])) return NULL;
  const Type *ix = args[1], *e = elem_of(args[0]);
  if (!ty_is_int(elem_of(ix)) || (ix->kind != TY_ARRAY && !ty_is_int(ix)))
    return ty_error(in, n->list.items[1], "%s(): indices must be an int or an array of ints in compiled code, got %s",
                    n->bi->name, ix->name);
  return ix->kind == TY_ARRAY ? ty_array(e, ix->ndim, 'C', false) : e;
}

typedef struct Take {
  const Type *e, *it, *ot;
  LLVMValueRef flat, size, ix, out;
} Take;

/* the element at index i of the flat array (a negative i from its end) */
static LLVMValueRef taken(Lower *l, const Take *t, LLVMValueRef i) {
  LLVMValueRef at = lo_index_wrapped(l, lo_convert(l, i, elem_of(t->it), TYS(TY_I64)), t->size, 0);
  return lo_load_scalar(l, t->e, flat_item(l, t->e, t->flat, at));
}

static void take_element(Lower *l, LLVMValueRef *idx, void *arg) {
  Take *t = arg;
  LLVMValueRef i = lo_load_scalar(l, t->it->elem, lo_element_addr(l, t->it, t->ix, idx));
  lo_store_scalar(l, t->e, lo_element_addr(l, t->ot, t->out, idx), taken(l, t, i));
}

static LLVMValueRef lo_take(Lower *l, Node *n) {
  Node *a = n->list.items[0], *ix = n->list.items[1];
  const Type *e = elem_of(a->ty), *ft = ty_array(e, 1, 'C', false);
  Take t = {e, ix->ty, n->ty, NULL, NULL, NULL, NULL};
  t.flat = np_joined_elements(l, &a, 1, e, &t.size);
  t.ix = lo_expr(l, ix);
  LLVMValueRef r;
  if (ix->ty->kind != TY_ARRAY) {
    r = taken(l, &t, t.ix);
  } else {
    LLVMValueRef shape[RC_MAX_NDIM];
    for (int d = 0; d < ix->ty->ndim; d++) shape[d] = lo_arr_shape(l, t.ix, d);
    r = t.out = lo_alloc_array(l, n->ty, shape, -1);
    lo_temp_made(l, n->ty, r);
    lo_for_each_index(l, ix->ty->ndim, shape, take_element, &t);
    lo_temp_taken(l, r);
  }
  lo_done_with(l, ix, t.ix);
  lo_release_temp(l, ft, t.flat);
  return r;
}

/* ---------------------------------------------------------------- extract, flatnonzero */

enum { EXTRACT, FLATNONZERO };

static const Type *ty_extract(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < n->list.len; i++)
    if (!bi_need_values(in, n, n->list.items[i])) return NULL;
  return ty_array(n->bi->ival == EXTRACT ? elem_of(args[1]) : TYS(TY_I64), 1, 'C', false);
}

/* NumPy's take(ravel(arr), nonzero(ravel(condition))[0]): the true
 * positions of the condition counted (the first beyond arr an IndexError),
 * then arr's elements there (flatnonzero: the positions themselves) */
static LLVMValueRef lo_extract(Lower *l, Node *n) {
  bool positions = n->bi->ival == FLATNONZERO;
  Node *c = n->list.items[0];
  const Type *ce = elem_of(c->ty), *e = n->ty->elem, *ct = ty_array(ce, 1, 'C', false), *ft = ty_array(e, 1, 'C', false);
  LLVMValueRef nc, na = NULL, cond = np_joined_elements(l, &c, 1, ce, &nc), arr = NULL;
  if (!positions) arr = np_joined_elements(l, &n->list.items[1], 1, e, &na);
  LLVMValueRef count = counter(l, "extract.count");
  LoLoop scan = lo_loop_begin(l, const_i64(l, 0), nc, NULL, "extract.scan");
  LLVMValueRef truth = lo_truth(l, lo_load_scalar(l, ce, flat_item(l, ce, cond, scan.index)), ce);
  if (!positions) {
    LLVMValueRef bad = LLVMBuildAnd(l->b, truth, LLVMBuildICmp(l->b, LLVMIntSGE, scan.index, na, ""), "");
    lo_raise_index_error_if(l, bad, 0, scan.index, const_i64(l, 0), na);
  }
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, load_i64(l, count), LLVMBuildZExt(l->b, truth, l->mod->i64, ""), ""), count);
  lo_loop_end(l, &scan);
  LLVMValueRef len = load_i64(l, count), out = lo_alloc_array(l, n->ty, &len, -1), at = counter(l, "extract.at");
  LoLoop pick = lo_loop_begin(l, const_i64(l, 0), nc, NULL, "extract.pick");
  LLVMValueRef keep = lo_truth(l, lo_load_scalar(l, ce, flat_item(l, ce, cond, pick.index)), ce);
  LLVMBasicBlockRef put = new_block(l, "extract.put"), next = new_block(l, "extract.next");
  LLVMBuildCondBr(l->b, keep, put, next);
  position(l, put);
  LLVMValueRef v = positions ? pick.index : lo_load_scalar(l, e, flat_item(l, e, arr, pick.index));
  lo_store_scalar(l, e, flat_item(l, e, out, load_i64(l, at)), v);
  bump(l, at);
  LLVMBuildBr(l->b, next);
  position(l, next);
  lo_loop_end(l, &pick);
  if (arr) lo_release_temp(l, ft, arr);
  lo_release_temp(l, ct, cond);
  return out;
}

/* ---------------------------------------------------------------- the rows */

#define PK_FLAGS (BF_ALLOCATES | BF_RAISES | BF_COMPLEX)

const Builtin bi_picking[] = {
  {"numpy.take", "numpy", "take", BK_FUNCTION, 0, 2, 2, NULL, PK_FLAGS, 0, 0, ty_take, lo_take},
  {"array.take", NULL, "take", BK_METHOD, TY_ARRAY, 1, 1, NULL, PK_FLAGS, 0, 0, ty_take, lo_take},
  {"numpy.extract", "numpy", "extract", BK_FUNCTION, 0, 2, 2, NULL, PK_FLAGS, EXTRACT, 0, ty_extract, lo_extract},
  {"numpy.flatnonzero", "numpy", "flatnonzero", BK_FUNCTION, 0, 1, 1, NULL, PK_FLAGS, FLATNONZERO, 0, ty_extract, lo_extract},
  BI_END,
};
