/* lower/function.c — a function's frame: its prologue (arguments into
 * variables), its exit (locals released, status and result returned), the
 * entry ABI through which Python and other code call it, and the start of
 * the functions lowering outlines (parallel regions, kernel chunks). */
#include <stdio.h>

#include "lower/lower.h"

void lo_func_init(Lower *l, LowerModule *mod, Func *f, const CompileOptions *opts) {
  *l = (Lower){.mod = mod, .f = f, .opts = opts};
  an_function(f, opts);
  l->b = LLVMCreateBuilderInContext(mod->c);
}

void lo_slots(Lower *l, SlotStart start, void *ctx) {
  l->slots = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  for (int v = 0; v < l->f->nvars; v++) {
    const Type *t = l->f->var_types[v];
    if (!t) continue;  /* never assigned: never read either */
    LLVMValueRef first = start ? start(l, v, ctx) : NULL;
    if (first == LO_NO_SLOT) continue;
    l->slots[v] = lo_alloca(l, lo_type(l, t), l->f->var_names[v]);
    if (first) LLVMBuildStore(l->b, first, l->slots[v]);
  }
}

void lo_func_done(Lower *l) {
  if (l->fn) lo_fastmath_function(l, l->fn);
  LLVMDisposeBuilder(l->b);
}

void lo_begin_outlined(Lower *sub, Lower *l, const char *suffix, LLVMTypeRef ft) {
  char name[200];
  snprintf(name, sizeof name, "%s%s%d", LLVMGetValueName(l->fn), suffix, l->mod->nregions++);
  lo_func_init(sub, l->mod, l->f, l->opts);
  sub->outlined = true;
  sub->fn = LLVMAddFunction(l->mod->m, name, ft);
  LLVMSetLinkage(sub->fn, LLVMInternalLinkage);
  LLVMBasicBlockRef entry = new_block(sub, "entry");
  sub->exit_bb = new_block(sub, "exit");
  position(sub, entry);
  sub->status = lo_alloca(sub, l->mod->i32, "status");
  LLVMBuildStore(sub->b, const_i32(sub, RT_OK), sub->status);
}

bool lo_pool_allowed(Lower *l) { return l->opts->parallel && !l->outlined && !l->mod->gpu && !l->kplan; }

/* RtError as LLVM lays it out, the head of every context a pool's chunks
 * share (lo_chunk_exit saves the first failure there): one definition, so
 * that a field added to RtError is never written over the context's next. */
LLVMTypeRef lo_error_type(Lower *l) {
  _Static_assert(offsetof(RtError, where) == 3 * sizeof(void *) && sizeof(RtError) == 4 * sizeof(void *),
                 "RtError is {status, msg, exc_class, where}");
  LLVMTypeRef f[4] = {l->mod->i32, l->mod->ptr, l->mod->ptr, l->mod->ptr};
  return LLVMStructTypeInContext(l->mod->c, f, 4, 0);
}

/* The exit of a chunk run on the pool: the first failing chunk records its
 * error in ctx (an RtError) for the caller; the builder is left where the
 * chunk returns. */
void lo_chunk_exit(Lower *l, LLVMValueRef ctx) {
  position(l, l->exit_bb);
  LLVMBasicBlockRef save = new_block(l, "save"), ret = new_block(l, "ret");
  LLVMValueRef failed = LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildLoad2(l->b, l->mod->i32, l->status, ""), const_i32(l, 0), "");
  LLVMBuildCondBr(l->b, failed, save, ret);
  position(l, save);
  lo_call_fn(l, "rt_error_save", void_type(l), &l->mod->ptr, &ctx, 1);
  LLVMBuildBr(l->b, ret);
  position(l, ret);
}

/* ---------------------------------------------------------------- the function */

/* The exit block: release every local that can hold arrays, return the
 * status and the result. */
static void lo_exit(Lower *l) {
  position(l, l->exit_bb);
  lo_frame_generators_drop(l);
  for (int v = 0; v < l->f->nvars; v++) {
    const Type *t = l->f->var_types[v];
    if (t && ty_has_arrays(t) && !l->f->plan->borrowed[v] && !l->f->plan->frame_generators[v])
      lo_refcount(l, t, LLVMBuildLoad2(l->b, lo_type(l, t), l->slots[v], ""), false);
  }
  LLVMTypeRef rty = LLVMGetReturnType(LLVMGlobalGetValueType(l->fn));
  LLVMValueRef status = LLVMBuildLoad2(l->b, l->mod->i32, l->status, "status");
  if (l->deferred)  /* a check failed: some nonzero status, the caller runs again to know which */
    status = LLVMBuildSelect(l->b, LLVMBuildLoad2(l->b, l->mod->i1, l->deferred, ""), const_i32(l, RT_ERR_VALUE), status, "");
  LLVMValueRef r = LLVMBuildInsertValue(l->b, LLVMGetUndef(rty), status, 0, "");
  if (!lo_result_in_memory(l, l->f->ret_type))  /* (else stored where the caller said: ret_val) */
    r = LLVMBuildInsertValue(l->b, r, LLVMBuildLoad2(l->b, lo_result_type(l, l->f->ret_type), l->ret_val, ""), 1, "");
  LLVMBuildRet(l->b, r);
}

/* A device function reads the CUDA thread it runs as (lo_thread_record). */
static void load_thread(Lower *l, LLVMValueRef th) {
  LLVMValueRef *parts[4] = {l->tid, l->bid, l->bdim, l->gdim};
  for (int k = 0; k < 12; k++) {
    LLVMValueRef ix = const_i64(l, k);
    parts[k / 3][k % 3] = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i64, th, &ix, 1, ""), "");
  }
}

/* Whether a type's zero bits are a value of it: numbers, arrays (an empty
 * one), None (and an Optional's None), tuples of these; not a pointer to a
 * str, a container or an object. */
static bool zero_is_a_value(const Type *t) {
  if (t->kind == TY_TUPLE || t->kind == TY_LITDICT) {
    for (int i = 0; i < t->nfields; i++)
      if (!zero_is_a_value(t->fields[i])) return false;
    return true;
  }
  if (t->kind == TY_OPTIONAL) return true;
  return ty_is_scalar(t) || t->kind == TY_ARRAY || (t->flags & TF_NOVALUE) || t->kind == TY_NONE;
}

/* An "assigned" flag for each variable a read may find unassigned
 * (analysis/unbound.c), false until a store sets it; where the options
 * read such a variable as Numba does, it starts as its type's zero
 * instead (a local holding arrays starts so already), where that zero is
 * a value (a str or a container read so stays UnboundLocalError). */
void lo_unbound_flags(Lower *l) {
  l->assigned = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  for (int v = 0; v < l->f->nvars; v++) {
    if (!l->f->plan->maybe_unbound[v]) continue;
    if (l->opts->numba_code && zero_is_a_value(l->f->var_types[v])) {
      if (l->slots[v]) LLVMBuildStore(l->b, LLVMConstNull(lo_type(l, l->f->var_types[v])), l->slots[v]);
      continue;
    }
    l->assigned[v] = lo_alloca(l, l->mod->i1, "assigned");
    LLVMBuildStore(l->b, const_bool(l, false), l->assigned[v]);
  }
}

/* An array parameter's lengths are never negative: told to LLVM in the
 * body, before its loops are unswitched (which freezes what they test,
 * and what is known of it with it), a remainder by one (m[k % rows]) is
 * a valid index without a test and Python's floored modulo by it the
 * machine's unsigned one. A loop calling a 10-element dot product of
 * such rows kept a test, a wrap-around and two copies of the length in
 * registers per call, its other values spilled. */
static void assume_lengths(Lower *l, const Type *t, LLVMValueRef a) {
  for (int d = 0; t->kind == TY_ARRAY && d < t->ndim; d++) {
    LLVMValueRef nonneg = LLVMBuildICmp(l->b, LLVMIntSGE, lo_arr_shape(l, a, d), const_i64(l, 0), "");
    lo_intrinsic(l, "llvm.assume", NULL, 0, &nonneg, 1);
  }
}

/* A parameter's argument; a local holding arrays starts empty (the exit
 * releases every local). */
static LLVMValueRef argument(Lower *l, int v, void *ctx) {
  const Type *t = l->f->var_types[v];
  if (v >= l->f->nparams) return ty_has_arrays(t) ? LLVMConstNull(lo_type(l, t)) : NULL;
  LLVMValueRef value = LLVMGetParam(l->fn, (unsigned)v);
  assume_lengths(l, t, value);
  if (ty_has_arrays(t) && !l->f->plan->borrowed[v]) lo_refcount(l, t, value, true);  /* released at the exit too */
  return value;
}

/* The body's start: its arguments (values, then a device function's
 * thread record) into their variables. */
static void lo_prologue(Lower *l) {
  if (l->opts->device) load_thread(l, LLVMGetParam(l->fn, (unsigned)l->f->nparams));
  l->status = lo_alloca(l, l->mod->i32, "status");
  lo_slots(l, argument, NULL);
  lo_unbound_flags(l);
}

/* A function on a cycle of calls checks the stack on entry, and raises
 * RecursionError where CPython would have run out of frames, before the
 * thread runs out of stack: its body takes the RtStackGuard made by the
 * call from outside the cycle (lo_guarded_call) and an address its stack
 * is taken to be at. A call passes on the lower of its own stack address
 * and the one it was given, less FRAME_ESTIMATE: LLVM turns tail calls
 * into loops and jumps, which take no stack, and the estimate still runs
 * out where real frames would (f(n) = f(n + 1) + 1 would otherwise loop
 * 2**63 times). A CUDA device function does not check: a GPU has no such
 * error, and on the CPU it may run on a fiber's stack. */
bool lo_checks_stack(const Lower *l, const Func *f, const CompileOptions *opts) {
  return f->recursive && !l->mod->gpu && !opts->device;
}

/* A function whose frames may own references or run except and finally
 * clauses (FuncPlan.unwinds) leaves a spent stack by returning
 * RecursionError, so that every frame on the way out releases what it
 * holds and may catch the error, as in Python; one whose frames do
 * neither jumps straight back to the guard, and its recursive calls need
 * no check of their status. */
bool lo_unwinds_spent_stack(const Func *f) { return f->plan->unwinds; }

#define FRAME_ESTIMATE 16  /* a return address, kept aligned: no real frame is smaller */

/* The stack pointer, read from its register where the target names it
 * (the frame address would cost a frame pointer in every call). */
static LLVMValueRef stack_address(Lower *l) {
#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__x86_64__)
  static const char reg[] = "rsp";
#else
  static const char reg[] = "sp";
#endif
  LLVMMetadataRef name = LLVMMDStringInContext2(l->mod->c, reg, sizeof reg - 1);
  LLVMValueRef arg = LLVMMetadataAsValue(l->mod->c, LLVMMDNodeInContext2(l->mod->c, &name, 1));
  return lo_intrinsic(l, "llvm.read_register", &l->mod->i64, 1, &arg, 1);
#else
  LLVMValueRef zero = LLVMConstInt(LLVMInt32TypeInContext(l->mod->c), 0, 0);
  return LLVMBuildPtrToInt(l->b, lo_intrinsic(l, "llvm.frameaddress", &l->mod->ptr, 1, &zero, 1), l->mod->i64, "");
#endif
}

/* The check jumps back to the guard's call rather than return a failure
 * where the frames own nothing: the body still cannot fail where it could
 * not before, and LLVM still turns fib(n - 1) + fib(n - 2) into a loop and
 * one call. */
static void check_stack(Lower *l, LLVMValueRef given) {
  LLVMValueRef sp = stack_address(l);
  LLVMValueRef here = lo_intrinsic(l, "llvm.umin", &l->mod->i64, 1, (LLVMValueRef[]){sp, given}, 2);
  LLVMValueRef limit = LLVMBuildLoad2(l->b, l->mod->i64, l->stack_guard, "limit");
  LLVMValueRef spent = LLVMBuildICmp(l->b, LLVMIntULT, here, limit, "");
  spent = lo_expect(l, spent, false);
  LLVMBasicBlockRef fail = new_block(l, "stack.spent"), ok = new_block(l, "stack.ok");
  LLVMBuildCondBr(l->b, spent, fail, ok);
  position(l, fail);
  if (lo_unwinds_spent_stack(l->f)) {
    lo_raise(l, RT_ERR_RECURSION, RT_RECURSION_MESSAGE);
  } else {
    LLVMValueRef call = lo_call_fn(l, "rt_recursion_error", void_type(l), &l->mod->ptr, &l->stack_guard, 1);
    unsigned kind = LLVMGetEnumAttributeKindForName("noreturn", 8);
    LLVMAddAttributeAtIndex(LLVMGetCalledValue(call), LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(l->mod->c, kind, 0));
    LLVMBuildUnreachable(l->b);
  }
  position(l, ok);
  l->stack_next = LLVMBuildSub(l->b, here, const_i64(l, FRAME_ESTIMATE), "");
}

static void add_noalias(LowerModule *mod, LLVMValueRef fn, unsigned param) {
  unsigned kind = LLVMGetEnumAttributeKindForName("noalias", 7);
  LLVMAddAttributeAtIndex(fn, param + 1, LLVMCreateEnumAttribute(mod->c, kind, 0));
}

/* The body as an internal function: {i32 status, result} (the arguments
 * as values..., [a device function's thread record], [where a result of
 * many fields goes: lo_result_in_memory, then an i8 in its place]), named f->symbol.
 * Calls between compiled functions pass everything in registers: LLVM can
 * inline them, and when a body cannot fail, drop the status and turn
 * fib(n - 1) + fib(n - 2) into a loop and one call. */
static LLVMValueRef body_function(Lower *l, const char *name, bool deferred) {
  if (l->f->generator) return lo_generator_body(l, name);
  bool checks = lo_checks_stack(l, l->f, l->opts), out = lo_result_in_memory(l, l->f->ret_type);
  int np = l->f->nparams + l->opts->device + out + 2 * checks;
  LLVMTypeRef *params = arena_alloc(l->f->arena, sizeof(LLVMTypeRef) * (size_t)(np ? np : 1));
  for (int v = 0; v < l->f->nparams; v++) params[v] = lo_type(l, l->f->var_types[v]);
  if (l->opts->device) params[l->f->nparams] = l->mod->ptr;
  if (out) params[l->f->nparams + l->opts->device] = l->mod->ptr;
  if (checks) {
    params[np - 2] = l->mod->ptr;
    params[np - 1] = l->mod->i64;
  }
  LLVMTypeRef result[2] = {l->mod->i32, out ? l->mod->i8 : lo_result_type(l, l->f->ret_type)};
  LLVMTypeRef ft = LLVMFunctionType(LLVMStructTypeInContext(l->mod->c, result, 2, 0), params, (unsigned)np, 0);
  l->impl = l->fn = LLVMAddFunction(l->mod->m, name, ft);
  LLVMSetLinkage(l->fn, LLVMInternalLinkage);
  LLVMBasicBlockRef entry = new_block(l, "entry");
  l->exit_bb = new_block(l, "exit");
  position(l, entry);
  l->ret_val = out ? LLVMGetParam(l->fn, (unsigned)(l->f->nparams + l->opts->device)) : lo_alloca(l, result[1], "result");
  if (l->f->ret_type->kind == TY_OPTIONAL)  /* a bare return, or the end, leaves None */
    LLVMBuildStore(l->b, LLVMConstNull(result[1]), l->ret_val);
  if (deferred) {
    l->deferred = lo_alloca(l, l->mod->i1, "deferred");
    LLVMBuildStore(l->b, const_bool(l, false), l->deferred);
  }
  lo_prologue(l);
  if (checks) {
    l->stack_guard = LLVMGetParam(l->fn, (unsigned)(np - 2));
    check_stack(l, LLVMGetParam(l->fn, (unsigned)(np - 1)));
  }
  lo_block(l, &l->f->body);
  if (!terminated(l)) {  /* falling off the end returns None */
    LLVMBuildStore(l->b, const_i32(l, RT_OK), l->status);
    LLVMBuildBr(l->b, l->exit_bb);
  }
  lo_exit(l);
  lo_fastmath_function(l, l->impl);
  return l->impl;
}

LLVMValueRef lo_body(Lower *l) { return body_function(l, l->f->symbol, false); }

/* A @cfunc's failure, where its entry is a FunctionType argument's: the
 * error handed to rt_cfunc_failed (written out as unraisable) and a zero
 * result returned with RT_OK, as its C entry does (lower/cfunc.c); the
 * builder left where the body succeeded, the status RT_OK. */
static LLVMValueRef reported_failure(Lower *l, LLVMValueRef status, const Type *ret_as) {
  LLVMBasicBlockRef failed = new_block(l, "failed"), ok = new_block(l, "ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, RT_OK), ""), failed, ok);
  position(l, failed);
  LLVMTypeRef p[1] = {l->mod->ptr};
  LLVMValueRef name = lo_string(l, l->f->name);
  lo_call_fn(l, "rt_cfunc_failed", void_type(l), p, &name, 1);
  if (ret_as->kind != TY_NONE) LLVMBuildStore(l->b, LLVMConstNull(lo_storage_type(l, ret_as)), LLVMGetParam(l->fn, 0));
  LLVMBuildRet(l->b, const_i32(l, RT_OK));
  position(l, ok);
  return const_i32(l, RT_OK);
}

/* The entry ABI, int entry(void *ret, void **args): each argument read
 * from its storage layout, the body called, its result stored in ret as
 * a value of type ret_as (its own, or a number it converts to). */
static void lo_entry_as(Lower *l, const Type *ret_as) {
  position(l, new_block(l, "entry"));
  l->stack_guard = NULL;  /* the body's parameter: the entry makes its own */
  int np = l->f->nparams + l->opts->device;
  LLVMValueRef *vals = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(np + 3));
  LLVMValueRef args = LLVMGetParam(l->fn, 1);
  for (int v = 0; v < np; v++) {
    LLVMValueRef idx = const_i64(l, v);
    LLVMValueRef p = LLVMBuildLoad2(l->b, l->mod->ptr, LLVMBuildGEP2(l->b, l->mod->ptr, args, &idx, 1, ""), "");
    if (v < l->f->nparams) {  /* the argument, as the parameter's variable holds it */
      const Type *pt = l->f->param_types[v];
      vals[v] = lo_convert(l, lo_load_storage(l, pt, p), pt, l->f->var_types[v]);
    } else {
      vals[v] = p;
    }
  }
  LLVMValueRef r = lo_call_body(l, l->impl, l->f, l->opts, vals, np);
  LLVMValueRef status = LLVMBuildExtractValue(l->b, r, 0, "status");
  if (l->opts->reports_failure) status = reported_failure(l, status, ret_as);
  const Type *rt = l->f->ret_type;
  if (rt->kind != TY_NONE)
    lo_store_storage(l, ret_as, LLVMGetParam(l->fn, 0),
                     lo_convert(l, lo_take_result(l, rt, LLVMBuildExtractValue(l->b, r, 1, "")), rt, ret_as));
  LLVMBuildRet(l->b, status);
}

static void lo_entry(Lower *l) { lo_entry_as(l, l->f->ret_type); }

/* The entry of the function n's target names, returning the result of
 * n's FunctionType, lowered into this module once: its address, a
 * first-class function's value (ty_function_entry). */
LLVMValueRef lo_function_entry(Lower *l, Node *n) {
  const CallTarget *target = n->target;
  char name[300];
  snprintf(name, sizeof name, "%s.entry.%s", target->func->symbol, n->ty->elem->name);
  LLVMValueRef fn = LLVMGetNamedFunction(l->mod->m, name);
  if (fn) return fn;
  LLVMValueRef body = lo_callee_body(l, target);
  Lower sub;
  lo_func_init(&sub, l->mod, target->func, target->func_opts);
  sub.callee = true;
  sub.impl = body;
  LLVMTypeRef params[2] = {l->mod->ptr, l->mod->ptr};
  sub.fn = fn = LLVMAddFunction(l->mod->m, name, LLVMFunctionType(l->mod->i32, params, 2, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  lo_entry_as(&sub, n->ty->elem);
  lo_func_done(&sub);
  return fn;
}

/* ---------------------------------------------------------------- ufunc loops */

/* Element k of every operand: the inputs' values in vals, the output's
 * address in vals[nin]; returns body's {status, result}. */
static LLVMValueRef ufunc_element(Lower *l, LLVMValueRef body, LLVMValueRef *base, LLVMValueRef *step,
                                  const Type **ty, LLVMValueRef k, LLVMValueRef *vals) {
  int nin = l->f->nparams;
  for (int i = 0; i <= nin; i++) {
    LLVMValueRef off = step ? LLVMBuildMul(l->b, k, step[i], "") : k;
    LLVMTypeRef unit = step ? l->mod->i8 : lo_storage_type(l, ty[i]);
    LLVMValueRef at = LLVMBuildGEP2(l->b, unit, base[i], &off, 1, "");
    vals[i] = i < nin ? lo_convert(l, lo_load_storage(l, ty[i], at), ty[i], l->f->var_types[i]) : at;
  }
  l->stack_guard = NULL;  /* a recursive body: the loop calls it from outside its cycle */
  return lo_call_body(l, body, l->f, l->opts, vals, nin);
}

/* One pass over the elements: at byte steps, or, with step NULL, indexing
 * each operand as an array of its type, which LLVM vectorises. As Numba's
 * loops, an element that fails leaves its output as it was and the others
 * are computed; the pass then returns the first failure, its error put
 * back in the error slot (later failures wrote theirs over it). */
static void ufunc_elements(Lower *l, LLVMValueRef *base, LLVMValueRef *step, const Type **ty,
                           LLVMValueRef count, LLVMBasicBlockRef done) {
  int nin = l->f->nparams;
  LLVMValueRef first = lo_alloca(l, lo_error_type(l), "first_failure");
  LLVMBuildStore(l->b, LLVMConstNull(lo_error_type(l)), first);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "elem");
  LLVMValueRef vals[MAX_UFUNC_OPERANDS];
  LLVMValueRef r = ufunc_element(l, l->impl, base, step, ty, loop.index, vals);
  LLVMValueRef status = LLVMBuildExtractValue(l->b, r, 0, "status");
  LLVMBasicBlockRef fail = new_block(l, "fail"), ok = new_block(l, "ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, RT_OK), ""), fail, ok);
  position(l, fail);
  lo_call_fn(l, "rt_error_save", void_type(l), &l->mod->ptr, &first, 1);  /* the first failure only */
  LLVMBuildBr(l->b, loop.latch);
  position(l, ok);
  lo_store_storage(l, ty[nin], vals[nin], LLVMBuildExtractValue(l->b, r, 1, ""));
  lo_loop_end(l, &loop);
  LLVMValueRef failed = LLVMBuildLoad2(l->b, l->mod->i32, first, "status");  /* RtError's first field */
  LLVMBasicBlockRef report = new_block(l, "report");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, failed, const_i32(l, RT_OK), ""), report, done);
  position(l, report);
  lo_call_fn(l, "rt_error_restore", void_type(l), &l->mod->ptr, &first, 1);
  LLVMBuildRet(l->b, failed);
}

/* The first pass over contiguous elements of a body whose checks can be
 * deferred (analysis/defer.c): every element computed and stored, a failed
 * check only noted, so the loop has one exit and vectorises. After a
 * failure the checked loop runs again from the start (exact), which raises
 * where Python would; the output then does not overlap an input, so the
 * second pass reads what the first did. */
static void ufunc_elements_deferred(Lower *l, LLVMValueRef body, LLVMValueRef *base, const Type **ty,
                                    LLVMValueRef count, LLVMBasicBlockRef exact, LLVMBasicBlockRef done) {
  int nin = l->f->nparams;
  LLVMValueRef failed = lo_alloca(l, l->mod->i1, "failed");
  LLVMBuildStore(l->b, const_bool(l, false), failed);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "elem");
  LLVMValueRef vals[MAX_UFUNC_OPERANDS];
  LLVMValueRef r = ufunc_element(l, body, base, NULL, ty, loop.index, vals);
  LLVMValueRef bad = LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildExtractValue(l->b, r, 0, ""), const_i32(l, RT_OK), "");
  LLVMBuildStore(l->b, LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->mod->i1, failed, ""), bad, ""), failed);
  lo_store_storage(l, ty[nin], vals[nin], LLVMBuildExtractValue(l->b, r, 1, ""));
  lo_loop_end(l, &loop);
  LLVMBuildCondBr(l->b, LLVMBuildLoad2(l->b, l->mod->i1, failed, ""), exact, done);
}

/* Whether the output's bytes [out, out + n * size) miss every input's. */
static LLVMValueRef output_apart(Lower *l, LLVMValueRef *base, const Type **ty, LLVMValueRef count) {
  int nin = l->f->nparams;
  LLVMValueRef apart = const_bool(l, true);
  LLVMValueRef lo[MAX_UFUNC_OPERANDS], hi[MAX_UFUNC_OPERANDS];
  for (int i = 0; i <= nin; i++) {
    lo[i] = LLVMBuildPtrToInt(l->b, base[i], l->mod->i64, "");
    hi[i] = LLVMBuildAdd(l->b, lo[i], LLVMBuildMul(l->b, count, const_i64(l, (int64_t)ty[i]->size), ""), "");
  }
  for (int i = 0; i < nin; i++) {
    LLVMValueRef below = LLVMBuildICmp(l->b, LLVMIntULE, hi[nin], lo[i], "");
    LLVMValueRef above = LLVMBuildICmp(l->b, LLVMIntULE, hi[i], lo[nin], "");
    apart = LLVMBuildAnd(l->b, apart, LLVMBuildOr(l->b, below, above, ""), "");
  }
  return apart;
}

/* The ufunc inner loop NumPy calls, int loop(char **args, int64 *dims,
 * int64 *steps, void *data): the body (inlined) over dims[0] elements,
 * inputs then the output at args[k] with byte steps steps[k]. Where every
 * step is its element's size (contiguous operands) a second copy of the
 * loop indexes the memory directly, so that it vectorises. */
static void lo_ufunc_loop(Lower *l) {
  position(l, new_block(l, "entry"));
  int nin = l->f->nparams;
  LLVMValueRef base[MAX_UFUNC_OPERANDS], step[MAX_UFUNC_OPERANDS];
  const Type *ty[MAX_UFUNC_OPERANDS];
  LLVMValueRef count = LLVMBuildLoad2(l->b, l->mod->i64, LLVMGetParam(l->fn, 1), "n");
  LLVMValueRef contiguous = const_bool(l, true);
  for (int k = 0; k <= nin; k++) {
    LLVMValueRef idx = const_i64(l, k);
    ty[k] = k < nin ? l->f->param_types[k] : l->f->ret_type;
    base[k] = LLVMBuildLoad2(l->b, l->mod->ptr, LLVMBuildGEP2(l->b, l->mod->ptr, LLVMGetParam(l->fn, 0), &idx, 1, ""), "");
    step[k] = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i64, LLVMGetParam(l->fn, 2), &idx, 1, ""), "");
    LLVMValueRef unit = LLVMBuildICmp(l->b, LLVMIntEQ, step[k], const_i64(l, (int64_t)ty[k]->size), "");
    contiguous = LLVMBuildAnd(l->b, contiguous, unit, "");
  }
  LLVMBasicBlockRef flat = new_block(l, "flat"), strided = new_block(l, "strided"), done = new_block(l, "done");
  LLVMValueRef deferred_body = NULL;
  if (an_function_deferrable(l->f, l->opts)) {
    Lower d;
    char name[200];
    snprintf(name, sizeof name, "%s.deferred", l->f->symbol);
    lo_func_init(&d, l->mod, l->f, l->opts);
    deferred_body = body_function(&d, name, true);
    lo_func_done(&d);
  }
  if (deferred_body) {
    LLVMBasicBlockRef first = new_block(l, "first"), contiguous_bb = new_block(l, "contiguous");
    LLVMBuildCondBr(l->b, contiguous, contiguous_bb, strided);
    position(l, contiguous_bb);
    LLVMBuildCondBr(l->b, output_apart(l, base, ty, count), first, flat);
    position(l, first);
    ufunc_elements_deferred(l, deferred_body, base, ty, count, flat, done);
  } else {
    LLVMBuildCondBr(l->b, contiguous, flat, strided);
  }
  position(l, flat);
  ufunc_elements(l, base, NULL, ty, count, done);
  position(l, strided);
  ufunc_elements(l, base, step, ty, count, done);
  position(l, done);
  LLVMBuildRet(l->b, const_i32(l, RT_OK));
}

LLVMModuleRef lo_function(Func *f, const CompileOptions *opts, LLVMContextRef c, const char *symbol,
                          CompileResult *res) {
  LowerModule mod;
  lo_module_init(&mod, c, LLVMModuleCreateWithNameInContext(f->name, c), res);
  mod.gpu = opts->gpu_cc != 0;
  if (mod.gpu && opts->lineinfo) lo_gpu_lines_begin(&mod, f);
  Lower l;
  lo_func_init(&l, &mod, f, opts);
  if (mod.gpu && opts->device) {  /* compile_ptx(device=True): the device function alone */
    lo_gpu_device(&l, LLVMAddFunction(mod.m, symbol, lo_gpu_device_type(&l)));
  } else if (mod.gpu) {
    lo_gpu_kernel(&l, symbol);
  } else if (opts->c_entry) {
    lo_body(&l);
    lo_c_entry(&l, symbol);
  } else {
    LLVMTypeRef params[4] = {mod.ptr, mod.ptr, mod.ptr, mod.ptr};
    LLVMValueRef entry_fn = LLVMAddFunction(mod.m, symbol, LLVMFunctionType(mod.i32, params, opts->ufunc_loop ? 4 : 2, 0));
    for (unsigned i = 0; i < 2; i++) add_noalias(&mod, entry_fn, i);
    l.fn = entry_fn;
    if (opts->kernel) {
      position(&l, new_block(&l, "entry"));
      lo_kernel(&l);
    } else {
      if (!f->symbol) f->symbol = arena_strdup(f->arena, symbol);
      lo_body(&l);
      l.fn = entry_fn;
      if (opts->ufunc_loop) lo_ufunc_loop(&l);
      else lo_entry(&l);
    }
  }
  lo_func_done(&l);
  lo_fiber_stack_done(&mod);
  if (mod.lines) lo_gpu_lines_end(&mod);
  return mod.m;
}
