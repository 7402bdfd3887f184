/* lower/calls.c — calls from one compiled function to another: the
 * callee is lowered into the caller's module, and called directly. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

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
  lo_raise_status(l, status);  /* the statement's temporaries released, as for any raise */
  position(l, ok);
}

/* A call's result, r being {status, result}: a failure propagates, but a
 * @vectorize function's under Numba's readings (errors_ignored) gives the
 * zero of its type. */
static LLVMValueRef call_result(Lower *l, const CallTarget *t, LLVMValueRef r) {
  LLVMValueRef status = LLVMBuildExtractValue(l->b, r, 0, "status"), v = LLVMBuildExtractValue(l->b, r, 1, "");
  if (!t->errors_ignored) {
    lo_check_call(l, status);
    return v;
  }
  LLVMValueRef failed = LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, RT_OK), "");
  return LLVMBuildSelect(l->b, failed, LLVMConstNull(LLVMTypeOf(v)), v, "");
}

/* body's guarded entry, {status, result} (its arguments but the last two):
 * an RtStackGuard on its frame, set by _setjmp (in a function of its own,
 * which LLVM never inlines, so that the caller's optimisation is not
 * hindered), then the body; back from a spent stack, RecursionError. */
static LLVMValueRef guarded_entry(Lower *l, LLVMValueRef body) {
  char name[300];
  snprintf(name, sizeof name, "%s.guarded", LLVMGetValueName(body));
  LLVMValueRef fn = LLVMGetNamedFunction(l->mod->m, name);
  if (fn) return fn;
  LLVMTypeRef bt = LLVMGlobalGetValueType(body);
  unsigned n = LLVMCountParamTypes(bt) - 2;
  LLVMTypeRef params[n + 2];
  LLVMGetParamTypes(bt, params);
  fn = LLVMAddFunction(l->mod->m, name, LLVMFunctionType(LLVMGetReturnType(bt), params, n, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(l->mod->c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(l->mod->c, fn, "entry"));
  LLVMValueRef guard = LLVMBuildAlloca(b, LLVMArrayType2(l->mod->i8, sizeof(RtStackGuard)), "guard");
  LLVMSetAlignment(guard, _Alignof(RtStackGuard));
  LLVMTypeRef lt = LLVMFunctionType(l->mod->i64, NULL, 0, 0);
  LLVMBuildStore(b, LLVMBuildCall2(b, lt, lo_get_fn(l, "rt_stack_limit", lt), NULL, 0, ""), guard);
  LLVMValueRef off = const_i64(l, offsetof(RtStackGuard, back));
  LLVMValueRef back = LLVMBuildGEP2(b, l->mod->i8, guard, &off, 1, "");
  LLVMTypeRef st = LLVMFunctionType(LLVMInt32TypeInContext(l->mod->c), &l->mod->ptr, 1, 0);
  LLVMValueRef setjmp_fn = lo_get_fn(l, "_setjmp", st);
  unsigned twice = LLVMGetEnumAttributeKindForName("returns_twice", 13);
  LLVMAddAttributeAtIndex(setjmp_fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(l->mod->c, twice, 0));
  LLVMValueRef jumped = LLVMBuildCall2(b, st, setjmp_fn, &back, 1, "");
  LLVMAddCallSiteAttribute(jumped, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(l->mod->c, twice, 0));
  LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(l->mod->c, fn, "run");
  LLVMBasicBlockRef spent = LLVMAppendBasicBlockInContext(l->mod->c, fn, "spent");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, jumped, LLVMConstInt(LLVMInt32TypeInContext(l->mod->c), 0, 0), ""),
                  spent, run);
  LLVMPositionBuilderAtEnd(b, run);
  LLVMValueRef args[n + 2];
  for (unsigned i = 0; i < n; i++) args[i] = LLVMGetParam(fn, i);
  args[n] = guard;
  args[n + 1] = const_i64(l, -1);  /* no estimate yet: the real stack */
  /* returned field by field: where the body cannot fail, LLVM sees the
   * status is 0 and drops it from the body's result */
  LLVMValueRef r = LLVMBuildCall2(b, bt, body, args, n + 2, ""), ok = LLVMGetUndef(LLVMGetReturnType(bt));
  for (unsigned i = 0; i < 2; i++) ok = LLVMBuildInsertValue(b, ok, LLVMBuildExtractValue(b, r, i, ""), i, "");
  LLVMBuildRet(b, ok);
  LLVMPositionBuilderAtEnd(b, spent);
  LLVMValueRef failed = LLVMGetUndef(LLVMGetReturnType(bt));
  LLVMBuildRet(b, LLVMBuildInsertValue(b, failed, const_i32(l, RT_ERR_RECURSION), 0, ""));
  LLVMDisposeBuilder(b);
  return fn;
}

/* A call to a recursive body: inside its cycle (or another's) the guard
 * passes along; from outside, through the body's guarded entry, and so
 * too from a frame that returns RecursionError to a callee that jumps
 * back instead (the jump would pass over the caller's frame, and what it
 * holds). */
LLVMValueRef lo_guarded_call(Lower *l, LLVMValueRef body, const Func *callee, LLVMValueRef *args, unsigned n) {
  if (l->stack_guard && (lo_unwinds_spent_stack(callee) || !lo_unwinds_spent_stack(l->f))) {
    args[n] = l->stack_guard;
    args[n + 1] = l->stack_next;
    return LLVMBuildCall2(l->b, LLVMGlobalGetValueType(body), body, args, n + 2, "");
  }
  LLVMValueRef entry = guarded_entry(l, body);
  return LLVMBuildCall2(l->b, LLVMGlobalGetValueType(entry), entry, args, n, "");
}

/* The body of the function target names, lowered into this module the
 * first time it is called (one per function and argument types), as a
 * callee: its short loops run without poll blocks (stmt.c). */
LLVMValueRef lo_callee_body(Lower *l, const CallTarget *target) {
  if (target->self) return l->impl;
  LLVMValueRef fn = LLVMGetNamedFunction(l->mod->m, target->func->symbol);
  if (fn) return fn;
  Lower sub;
  lo_func_init(&sub, l->mod, target->func, target->func_opts);
  sub.callee = true;
  fn = lo_body(&sub);
  lo_func_done(&sub);
  return fn;
}

/* A body's {status, result} where it stored its result at out
 * (lo_result_in_memory): the result loaded whole, which the caller
 * stores whole (its entry) or reads field by field. */
static LLVMValueRef result_from_memory(Lower *l, const Type *rt, LLVMValueRef r, LLVMValueRef out) {
  LLVMTypeRef parts[2] = {l->mod->i32, lo_type(l, rt)};
  LLVMValueRef whole = LLVMGetUndef(LLVMStructTypeInContext(l->mod->c, parts, 2, 0));
  whole = LLVMBuildInsertValue(l->b, whole, LLVMBuildExtractValue(l->b, r, 0, ""), 0, "");
  return LLVMBuildInsertValue(l->b, whole, LLVMBuildLoad2(l->b, parts[1], out, ""), 1, "");
}

/* fn, the body of callee compiled with opts, called with args (room for
 * three more after them: where a result of many fields goes, a recursive
 * body's stack guard): {status, result}. */
LLVMValueRef lo_call_body(Lower *l, LLVMValueRef fn, const Func *callee, const CompileOptions *opts, LLVMValueRef *args,
                          int nargs) {
  const Type *rt = callee->ret_type;
  LLVMValueRef out = lo_result_in_memory(l, rt) ? lo_alloca(l, lo_type(l, rt), "result") : NULL, r;
  if (out) args[nargs++] = out;
  if (lo_checks_stack(l, callee, opts)) r = lo_guarded_call(l, fn, callee, args, (unsigned)nargs);
  else r = LLVMBuildCall2(l->b, LLVMGlobalGetValueType(fn), fn, args, (unsigned)nargs, "");
  return out ? result_from_memory(l, rt, r, out) : r;
}

/* An argument that is a view of a variable's array (m[k], a[1:, 0]): the
 * variable holds the memory for the whole call (no expression assigns a
 * variable), and the callee borrows its arguments (one it keeps or
 * assigns takes a reference of its own), so the view is made without
 * one: no atomic add and subtract on each call of a row's dot product. */
static bool borrowed_view(const Node *arg) {
  return arg->kind == N_INDEX && arg->ty->kind == TY_ARRAY && arg->lhs->kind == N_VAR &&
         arg->lhs->ty->kind == TY_ARRAY && !ix_is_advanced(arg);
}

static LLVMValueRef call_arg(Lower *l, Node *arg, const Type *t) {
  if (borrowed_view(arg)) return lo_convert(l, lo_array_view(l, arg), arg->ty, t);
  return lo_expr_as(l, arg, t);
}

/* The arguments of n, a call to a ruchey function without a spread
 * argument, as its parameters' types; then done with. */
void lo_call_args(Lower *l, Node *n, LLVMValueRef *args) {
  for (int i = 0; i < n->list.len; i++) args[i] = call_arg(l, n->list.items[i], n->target->func->var_types[i]);
}

void lo_call_args_done(Lower *l, Node *n, LLVMValueRef *args) {
  for (int i = 0; i < n->list.len; i++)
    if (!borrowed_view(n->list.items[i])) lo_done_with(l, n->list.items[i], args[i]);
}

/* A call to another ruchey function (or this one): straight to its body,
 * arguments and result as values, so LLVM may inline it. A recursive
 * call's type was fixed before the callee's was final: the result is
 * converted to it. */
/* An array over a callee's stack memory may come back from it: that
 * memory must live in the caller's frame. */
static void keep_callee_stack(Lower *l, LLVMValueRef fn, const Func *callee) {
  if (lo_holds_stack_memory(fn) && (callee->ret_type->kind == TY_ARRAY || callee->ret_type->kind == TY_TUPLE ||
                                   callee->ret_type->kind == TY_LITDICT))
    lo_hold_stack_memory(l);
}

LLVMValueRef lo_jit_call(Lower *l, Node *n) {
  if (l->mod->gpu) return lo_gpu_call(l, n);
  LLVMValueRef fn = lo_callee_body(l, n->target);
  const Func *callee = n->target->func;
  keep_callee_stack(l, fn, callee);
  int na = n->list.len;
  bool device = n->target->func_opts->device;
  LLVMValueRef *args = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(callee->nparams + na + 4)), packed;
  if (n->op) na = lo_spread_args(l, n, callee, args, &packed);
  else
    lo_call_args(l, n, args);
  int nargs = na;
  if (device) args[nargs++] = lo_thread_record(l);
  LLVMValueRef r = lo_call_body(l, fn, callee, n->target->func_opts, args, nargs);
  if (n->op) lo_done_with(l, n->list.items[0], packed);
  else
    lo_call_args_done(l, n, args);
  LLVMValueRef v = call_result(l, n->target, r);
  if (n->ty->kind == TY_NONE) return LLVMGetUndef(l->mod->i8);
  return lo_convert(l, lo_take_result(l, callee->ret_type, v), callee->ret_type, n->ty);
}

/* A call to the function target names with argument values of its
 * parameters' types (a sort's key function on each item): its result. */
LLVMValueRef lo_call_target(Lower *l, const CallTarget *target, LLVMValueRef *args, int nargs) {
  LLVMValueRef fn = lo_callee_body(l, target), with_guard[nargs + 3];
  memcpy(with_guard, args, sizeof(LLVMValueRef) * (size_t)nargs);
  LLVMValueRef r = lo_call_body(l, fn, target->func, target->func_opts, with_guard, nargs);
  lo_check_call(l, LLVMBuildExtractValue(l->b, r, 0, "status"));
  return lo_take_result(l, target->func->ret_type, LLVMBuildExtractValue(l->b, r, 1, ""));
}

/* A @vectorize ufunc's function on one element of each array (values of
 * the arguments' element types), inside an array expression's loop. */
LLVMValueRef lo_jit_call_elem(Lower *l, Node *n, LLVMValueRef *vals) {
  LLVMValueRef fn = lo_callee_body(l, n->target);
  const Func *callee = n->target->func;
  keep_callee_stack(l, fn, callee);
  int na = n->list.len;
  LLVMValueRef *args = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(na + 3));
  for (int i = 0; i < na; i++) {
    const Type *t = n->list.items[i]->ty;
    args[i] = lo_convert(l, vals[i], t->kind == TY_ARRAY ? t->elem : t, callee->var_types[i]);
  }
  LLVMValueRef r = lo_call_body(l, fn, callee, n->target->func_opts, args, na);
  return lo_convert(l, call_result(l, n->target, r), callee->ret_type, n->ty->elem);
}

/* f(args) through a first-class function (ty_funcptr_call): f is the
 * address of an entry as the dispatcher calls it, int entry(void *ret,
 * void **args), each argument in its storage layout; a failure the
 * callee recorded propagates as a direct call's does. */
LLVMValueRef lo_funcptr_call(Lower *l, Node *n) {
  const Type *f = n->lhs->ty;
  int na = f->nfields;
  LLVMValueRef fn = lo_expr(l, n->lhs);
  LLVMValueRef addrs = lo_alloca(l, LLVMArrayType2(l->mod->ptr, (unsigned)(na ? na : 1)), "fp.args");
  LLVMValueRef *vals = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(na ? na : 1));
  for (int i = 0; i < na; i++) {
    vals[i] = lo_expr_as(l, n->list.items[i], f->fields[i]);
    LLVMValueRef slot = lo_alloca(l, lo_storage_type(l, f->fields[i]), "fp.arg");
    lo_store_storage(l, f->fields[i], slot, vals[i]);
    LLVMValueRef idx[2] = {const_i64(l, 0), const_i64(l, i)};
    LLVMBuildStore(l->b, slot, LLVMBuildGEP2(l->b, LLVMArrayType2(l->mod->ptr, (unsigned)na), addrs, idx, 2, ""));
  }
  LLVMValueRef ret = lo_alloca(l, lo_storage_type(l, f->elem), "fp.ret");
  LLVMTypeRef params[2] = {l->mod->ptr, l->mod->ptr};
  LLVMTypeRef ft = LLVMFunctionType(l->mod->i32, params, 2, 0);
  LLVMValueRef call_args[2] = {ret, addrs};
  LLVMValueRef status = LLVMBuildCall2(l->b, ft, fn, call_args, 2, "status");
  for (int i = 0; i < na; i++) lo_done_with(l, n->list.items[i], vals[i]);
  lo_check_call(l, status);
  if (f->elem->kind == TY_NONE) return LLVMGetUndef(l->mod->i8);
  return lo_load_storage(l, f->elem, ret);  /* the entry handed over its result's references */
}
