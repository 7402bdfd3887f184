/* builtins/heapq.c — Python's heapq module on typed lists in compiled
 * code: heapify, heappush, heappop, heapreplace, heappushpop (the heap's
 * steps are lib/containers.c's, CPython's own, so that the list holds the
 * items in CPython's order after each call), nlargest and nsmallest (of any iterable list() takes).
 * Items are ordered as sort() orders them: numbers, strs, tuples of
 * numbers and strs (lexicographically).
 */
#include "builtins/builtins.h"

enum { HEAPIFY, PUSH, POP, REPLACE, PUSHPOP };

/* the runtime's function of each row's ival */
static const char *const heap_fn[] = {"rt_heapify", "rt_heappush", "rt_heappop", "rt_heapreplace", "rt_heappushpop"};

/* The items' type elem refused as unordered, in CPython's words where
 * they are complex numbers (as Numba's), NULL. */
static const Type *unordered(Infer *in, Node *n, const Type *elem) {
  if (ty_is_complex(elem))
    return ty_error(in, n, "%s(): '<' not supported between instances of 'complex' and 'complex' (items of %s)",
                    n->bi->name, elem->name);
  return ty_error(in, n, "%s(): items of %s cannot be ordered ('<' is not supported between them)", n->bi->name,
                  elem->name);
}

/* A typed list's item type, ordered; NULL (after an error, or while an
 * empty list's type is not known yet). */
static const Type *ordered_item(Infer *in, Node *n, const Type *list) {
  const Type *elem = ty_list_item(in, n, list);
  if (elem && !ty_sort_ordered(elem)) return unordered(in, n, elem);
  return elem;
}

/* The heap's item type (ordered_item's). */
static const Type *heap_item(Infer *in, Node *n, const Type *heap) {
  if (heap->kind != TY_LIST)
    return ty_error(in, n, "%s() takes a typed list as its heap, got %s: heap argument must be a list", n->bi->name, heap->name);
  return ordered_item(in, n, heap);
}

/* heapify(x), heappop(h): the item type (None for heapify); heappush(h, v),
 * heapreplace(h, v), heappushpop(h, v): v put into h, as append's is. */
static const Type *ty_heap(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind == TY_LIST && n->list.len > 1 && !ty_list_takes(in, n, args, n->list.items[1], args[1]))
    return NULL;
  const Type *elem = heap_item(in, n, args[0]);
  if (n->list.len > 1 && !elem && args[0]->kind == TY_LIST && !ty_failed(in)) elem = args[1];  /* retyped by the item */
  if (!elem) return NULL;
  return n->bi->ival == HEAPIFY || n->bi->ival == PUSH ? TYS(TY_NONE) : elem;
}

/* The item given (if any) in a slot the runtime reads and writes; the
 * item taken out (if any) read back from it. */
static LLVMValueRef lo_heap(Lower *l, Node *n) {
  Node *h = n->list.items[0];
  const Type *elem = h->ty->elem;
  int op = n->bi->ival, nfields;
  LLVMValueRef lst = lo_expr(l, h), slot = lo_alloca(l, lo_storage_type(l, elem), "heap.item");
  LLVMValueRef item = n->list.len > 1 ? lo_item_value(l, n->list.items[1], elem) : NULL;
  if (item) lo_store_scalar(l, elem, slot, item);
  if (item && ty_has_arrays(elem)) lo_temp_made(l, elem, item);  /* still ours if the call raises (an empty heap) */
  if (op == PUSH) lo_list_settle(l, elem, lst);  /* an empty list's first item: it may have been made untyped */
  LLVMValueRef layout = lo_item_order(l, elem, &nfields);
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->ptr};
  LLVMValueRef a[4] = {lst, const_i32(l, nfields), layout, slot};
  lo_check_call(l, lo_call_fn(l, heap_fn[op], l->mod->i32, p, a, 4));
  if (item) lo_temp_taken(l, item);  /* the heap's now, or back in the slot as the result */
  lo_done_with(l, h, lst);
  return op == HEAPIFY || op == PUSH ? LLVMGetUndef(l->mod->i8) : lo_load_scalar(l, elem, slot);
}

/* nlargest(n, x), nsmallest(n, x) of any iterable list() takes (a list,
 * tuple, 1-d array...): a new list, sorted(x)[:n] (reversed for
 * nlargest), which is what CPython's heaps give, equal items too. */
static const Type *ty_nbest(Infer *in, Node *n, const Type **args) {
  if (!ty_is_int(args[0]) && args[0]->kind != TY_BOOL)
    return ty_error(in, n->list.items[0], "%s(): First argument 'n' must be an integer, got %s", n->bi->name,
                    args[0]->name);
  if (args[1]->kind == TY_LIST) {
    const Type *elem = ordered_item(in, n, args[1]);
    return elem ? ty_list(elem) : NULL;
  }
  if (ty_is_scalar(args[1]))  /* (a number, which no loop walks) */
    return ty_error(in, n->list.items[1], "%s(): Second argument 'iterable' must be iterable, got %s", n->bi->name,
                    args[1]->name);
  const Type *elem = ty_iterable_items(in, n->list.items[1], n->list.items[1], args[1], n->bi->name);
  if (elem && !ty_sort_ordered(elem)) return unordered(in, n, elem);
  return elem ? ty_list(elem) : NULL;
}

static LLVMValueRef lo_nbest(Lower *l, Node *n) {
  LLVMValueRef count = lo_expr_as(l, n->list.items[0], TYS(TY_I64));
  LLVMValueRef best = lo_iterable_list(l, n->list.items[1], n->ty->elem);
  lo_temp_made(l, n->ty, best);
  lo_list_sort(l, n->ty->elem, best, const_bool(l, n->bi->ival));
  LLVMValueRef negative = LLVMBuildICmp(l->b, LLVMIntSLT, count, const_i64(l, 0), "");
  count = LLVMBuildSelect(l->b, negative, const_i64(l, 0), count, "");
  LLVMTypeRef p[5] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64, l->mod->i32};
  LLVMValueRef a[5] = {best, count, const_i64(l, 0), const_i64(l, 1), const_i32(l, 1)};  /* del best[count:] */
  lo_check_call(l, lo_call_fn(l, "rt_list_delete_slice", l->mod->i32, p, a, 5));
  lo_temp_taken(l, best);
  return best;
}

/* BF_STRINGS: a constant string argument is a str; BF_LISTS: [1, 2] a list */
#define HEAP_FN(name, lo, hi, flags, ival, type, lower) \
  {"heapq." name, "heapq", name, BK_FUNCTION, 0, lo, hi, NULL, BF_RAISES | (flags), ival, 0, type, lower}

const Builtin bi_heapq[] = {
  HEAP_FN("heapify", 1, 1, BF_LISTS, HEAPIFY, ty_heap, lo_heap),
  HEAP_FN("heappush", 2, 2, BF_STRINGS | BF_LISTS, PUSH, ty_heap, lo_heap),
  HEAP_FN("heappop", 1, 1, 0, POP, ty_heap, lo_heap),
  HEAP_FN("heapreplace", 2, 2, BF_STRINGS | BF_LISTS, REPLACE, ty_heap, lo_heap),
  HEAP_FN("heappushpop", 2, 2, BF_STRINGS | BF_LISTS, PUSHPOP, ty_heap, lo_heap),
  HEAP_FN("nsmallest", 2, 2, BF_LISTS, 0, ty_nbest, lo_nbest),
  HEAP_FN("nlargest", 2, 2, BF_LISTS, 1, ty_nbest, lo_nbest),
  BI_END,
};
