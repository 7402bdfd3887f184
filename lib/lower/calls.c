/* lower/calls.c — calls from one compiled function to another: the
 * callee is lowered into the caller's module, and called directly. */
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

/* The body of the function target names, lowered into this module the
 * first time it is called (one per function and argument types). */
static LLVMValueRef callee_body(Lower *l, const CallTarget *target) {
  if (target->self) return l->impl;
  LLVMValueRef fn = LLVMGetNamedFunction(l->mod->m, target->func->symbol);
  if (fn) return fn;
  Lower sub;
  lo_func_init(&sub, l->mod, target->func, target->func_opts);
  fn = lo_body(&sub);
  lo_func_done(&sub);
  return fn;
}

/* A call to another ruchey function (or this one): straight to its body,
 * arguments and result as values, so LLVM may inline it. A recursive
 * call's type was fixed before the callee's was final: the result is
 * converted to it. */
LLVMValueRef lo_jit_call(Lower *l, Node *n) {
  if (l->mod->gpu) return lo_gpu_call(l, n);
  LLVMValueRef fn = callee_body(l, n->target);
  const Func *callee = n->target->func;
  int na = n->list.len;
  bool device = n->target->func_opts->device;
  LLVMValueRef *args = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(na + 1));
  for (int i = 0; i < na; i++) args[i] = lo_expr_as(l, n->list.items[i], callee->var_types[i]);
  if (device) args[na] = lo_thread_record(l);
  LLVMValueRef r = LLVMBuildCall2(l->b, LLVMGlobalGetValueType(fn), fn, args, (unsigned)(na + device), "");
  for (int i = 0; i < na; i++) lo_done_with(l, n->list.items[i], args[i]);
  lo_check_call(l, LLVMBuildExtractValue(l->b, r, 0, "status"));
  if (n->ty->kind == TY_NONE) return LLVMGetUndef(l->mod->i8);
  return lo_convert(l, LLVMBuildExtractValue(l->b, r, 1, ""), callee->ret_type, n->ty);
}

/* A @vectorize ufunc's function on one element of each array (values of
 * the arguments' element types), inside an array expression's loop. */
LLVMValueRef lo_jit_call_elem(Lower *l, Node *n, LLVMValueRef *vals) {
  LLVMValueRef fn = callee_body(l, n->target);
  const Func *callee = n->target->func;
  int na = n->list.len;
  LLVMValueRef *args = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(na ? na : 1));
  for (int i = 0; i < na; i++) {
    const Type *t = n->list.items[i]->ty;
    args[i] = lo_convert(l, vals[i], t->kind == TY_ARRAY ? t->elem : t, callee->var_types[i]);
  }
  LLVMValueRef r = LLVMBuildCall2(l->b, LLVMGlobalGetValueType(fn), fn, args, (unsigned)na, "");
  lo_check_call(l, LLVMBuildExtractValue(l->b, r, 0, "status"));
  return lo_convert(l, LLVMBuildExtractValue(l->b, r, 1, ""), callee->ret_type, n->ty->elem);
}
