/* lower/calls.c — calls from one compiled function to another. */
#include "lower/lower.h"

/* The CUDA thread a device function runs as, for its callee: int64
 * tid[3], bid[3], bdim[3], gdim[3] in memory. */
LLVMValueRef lo_thread_record(Lower *l) {
  LLVMTypeRef tty = LLVMArrayType2(l->mod->i64, 12);
  LLVMValueRef th = lo_alloca(l, tty, "thread");
  LLVMValueRef *parts[4] = {l->tid, l->bid, l->bdim, l->gdim};
  for (int k = 0; k < 12; k++) {
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, k)};
    LLVMValueRef v = parts[k / 3][k % 3] ? parts[k / 3][k % 3] : const_i64(l, 0);
    LLVMBuildStore(l->b, v, LLVMBuildGEP2(l->b, tty, th, ix, 2, ""));
  }
  return th;
}

/* After a call: a failure status propagates (the callee already recorded
 * the error). */
void lo_check_call(Lower *l, LLVMValueRef status) {
  LLVMBasicBlockRef fail = new_block(l, "call.fail"), ok = new_block(l, "call.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, RT_OK), ""), fail, ok);
  position(l, fail);
  LLVMBuildStore(l->b, status, l->status);
  LLVMBuildBr(l->b, l->exit_bb);
  position(l, ok);
}

/* A recursive call: straight to the body, arguments and result as values. */
static LLVMValueRef lo_self_call(Lower *l, Node *n) {
  int na = n->list.len;
  LLVMValueRef *args = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(na + 1));
  for (int i = 0; i < na; i++) args[i] = lo_expr_as(l, n->list.items[i], l->f->var_types[i]);
  if (l->opts->device) args[na] = lo_thread_record(l);
  LLVMValueRef r = LLVMBuildCall2(l->b, LLVMGlobalGetValueType(l->impl), l->impl, args,
                                  (unsigned)(na + l->opts->device), "");
  for (int i = 0; i < na; i++) lo_done_with(l, n->list.items[i], args[i]);
  lo_check_call(l, LLVMBuildExtractValue(l->b, r, 0, "status"));
  return n->ty->kind == TY_NONE ? LLVMGetUndef(l->mod->i8) : LLVMBuildExtractValue(l->b, r, 1, "");
}

/* A call to another ruchey function through the entry ABI: arguments in
 * their storage layout, the result read back. */
LLVMValueRef lo_jit_call(Lower *l, Node *n) {
  if (l->mod->gpu) return lo_gpu_call(l, n);
  if (n->target->self) return lo_self_call(l, n);
  int na = n->list.len;
  LLVMTypeRef argvty = LLVMArrayType2(l->mod->ptr, (uint64_t)(na + 1));
  LLVMValueRef argv = lo_alloca(l, argvty, "argv");
  if (l->opts->kernel || l->opts->device) {  /* the device function learns which CUDA thread it runs as */
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, na)};
    LLVMBuildStore(l->b, lo_thread_record(l), LLVMBuildGEP2(l->b, argvty, argv, ix, 2, ""));
  }
  LLVMValueRef *vals = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(na ? na : 1));
  for (int i = 0; i < na; i++) {
    Node *a = n->list.items[i];
    LLVMValueRef slot = lo_alloca(l, lo_storage_type(l, a->ty), "arg");
    vals[i] = lo_expr(l, a);
    lo_store_storage(l, a->ty, slot, vals[i]);
    LLVMValueRef idx[2] = {const_i64(l, 0), const_i64(l, i)};
    LLVMBuildStore(l->b, slot, LLVMBuildGEP2(l->b, argvty, argv, idx, 2, ""));
  }
  LLVMValueRef ret = lo_alloca(l, lo_storage_type(l, n->ty), "ret");
  LLVMTypeRef params[2] = {l->mod->ptr, l->mod->ptr};
  LLVMTypeRef ft = LLVMFunctionType(l->mod->i32, params, 2, 0);
  LLVMValueRef fn = LLVMConstIntToPtr(LLVMConstInt(l->mod->i64, (unsigned long long)(uintptr_t)n->target->entry, 0), l->mod->ptr);
  if (n->target->indirect)  /* compiled after this function: read its entry when called */
    fn = LLVMBuildLoad2(l->b, l->mod->ptr, LLVMConstIntToPtr(LLVMConstInt(l->mod->i64, (unsigned long long)(uintptr_t)n->target->indirect, 0), l->mod->ptr), "entry");
  LLVMValueRef cargs[2] = {ret, argv};
  LLVMValueRef status = LLVMBuildCall2(l->b, ft, fn, cargs, 2, "status");
  for (int i = 0; i < na; i++) lo_done_with(l, n->list.items[i], vals[i]);
  lo_check_call(l, status);
  return n->ty->kind == TY_NONE ? LLVMGetUndef(l->mod->i8) : lo_load_storage(l, n->ty, ret);
}
