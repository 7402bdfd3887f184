/* builtins/objmode.c — `with objmode(y="float64"):` blocks (the extension
 * makes the statement `(y, ...) = <an objmode block>(inputs...)`, callee
 * its Python function, data its outputs' types, ival their count). The
 * inputs are laid out as a tuple on the stack, the outputs' tuple beside
 * them; rt_objmode hands both to the extension, which runs the block
 * under the GIL. The types' and the function's addresses are in the code,
 * which is therefore never cached (the function is an extern no cache
 * entry can name).
 */
#include <stdio.h>

#include "builtins/builtins.h"

static const Type *ty_objmode(Infer *in, Node *n, const Type **args) {
  if (ty_in_cuda(in) || in->opts->kernel || in->opts->device)
    return ty_error(in, n, "objmode blocks are not supported in CUDA kernels");
  return ty_tuple((int)n->ival, (const Type *const *)n->data);
}

static LLVMValueRef address(Lower *l, const void *p) {
  return LLVMConstIntToPtr(LLVMConstInt(l->mod->i64, (uint64_t)(uintptr_t)p, 0), l->mod->ptr);
}

/* Runs the Python function block on the tuple of type in_t at in, the
 * tuple of type out_t it returns put at out: the status, for the caller
 * to check once it has released what it holds. */
LLVMValueRef lo_objmode_run(Lower *l, const void *block, const Type *in_t, LLVMValueRef in, const Type *out_t,
                            LLVMValueRef out) {
  LLVMTypeRef ptr = l->mod->ptr, p[5] = {ptr, ptr, ptr, ptr, ptr};
  /* the function as an extern the cache cannot name again: code calling it is never cached */
  char *symbol = arena_alloc(l->f->arena, 48);
  snprintf(symbol, 48, "objmode_block_%p", block);
  LLVMValueRef args[5] = {lo_extern(l, symbol, (void *)block), address(l, in_t), in, address(l, out_t), out};  /* (named, never written) */
  return lo_call_fn(l, "rt_objmode", l->mod->i32, p, args, 5);
}

static LLVMValueRef lo_objmode(Lower *l, Node *n) {
  const Type *f[64] = {0};
  int nin = n->list.len < 64 ? n->list.len : 64;
  for (int i = 0; i < nin; i++) f[i] = n->list.items[i]->ty;
  const Type *in_t = ty_tuple(nin, f), *out_t = n->ty;
  LLVMValueRef in = lo_alloca(l, lo_storage_type(l, in_t), "objmode.in"), out = lo_alloca(l, lo_storage_type(l, out_t), "objmode.out");
  LLVMValueRef v = LLVMGetUndef(lo_type(l, in_t)), items[64];
  for (int i = 0; i < nin; i++) {
    items[i] = lo_expr(l, n->list.items[i]);
    lo_refcount(l, f[i], items[i], true);  /* boxing them for the block takes a reference of each */
    v = LLVMBuildInsertValue(l->b, v, items[i], (unsigned)i, "");
  }
  lo_store_storage(l, in_t, in, v);
  LLVMValueRef status = lo_objmode_run(l, n->callee, in_t, in, out_t, out);
  for (int i = 0; i < nin; i++) lo_done_with(l, n->list.items[i], items[i]);
  lo_check_status(l, status);
  return lo_load_storage(l, out_t, out);
}

const Builtin bi_objmode[] = {
  {"an objmode block", NULL, NULL, BK_FUNCTION, 0, 0, 64, NULL, BF_RAISES | BF_VARIES, 0, 0, ty_objmode, lo_objmode},
  BI_END,
};
