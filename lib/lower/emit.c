/* lower/emit.c — helpers every part of lowering emits with: allocas,
 * calls of runtime, libm, libdevice and LLVM intrinsic functions, raising
 * Python's exceptions, and the one builder of counted loops. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lower/lower.h"

/* An alloca in the entry block, so that mem2reg can promote it. */
LLVMValueRef lo_alloca(Lower *l, LLVMTypeRef t, const char *name) {
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(l->b);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(l->fn);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first)
    LLVMPositionBuilderBefore(l->b, first);
  else
    position(l, entry);
  LLVMValueRef a = LLVMBuildAlloca(l->b, t, name);
  position(l, cur);
  return a;
}

/* Declares (once) a function of the module or an external one. */
LLVMValueRef lo_get_fn(Lower *l, const char *name, LLVMTypeRef ty) {
  LLVMValueRef f = LLVMGetNamedFunction(l->mod->m, name);
  return f ? f : LLVMAddFunction(l->mod->m, name, ty);
}

LLVMValueRef lo_call_fn(Lower *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                        LLVMValueRef *args, unsigned n) {
  LLVMTypeRef ft = LLVMFunctionType(ret, params, n, 0);
  return LLVMBuildCall2(l->b, ft, lo_get_fn(l, name, ft), args, n, "");
}

static void add_fp_flags(LLVMValueRef f, LLVMFastMathFlags flags) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
      if (LLVMCanValueUseFastMathFlags(i)) LLVMSetFastMathFlags(i, LLVMGetFastMathFlags(i) | flags);
}

void lo_add_fp_flags(LLVMModuleRef m, LLVMFastMathFlags flags) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) add_fp_flags(f, flags);
}

LLVMFastMathFlags lo_fp_flags(unsigned fastmath) {
  static const struct { unsigned fm; LLVMFastMathFlags llvm; } flags[] = {
    {FM_REASSOC, LLVMFastMathAllowReassoc}, {FM_NNAN, LLVMFastMathNoNaNs}, {FM_NINF, LLVMFastMathNoInfs},
    {FM_NSZ, LLVMFastMathNoSignedZeros}, {FM_ARCP, LLVMFastMathAllowReciprocal},
    {FM_CONTRACT, LLVMFastMathAllowContract}, {FM_AFN, LLVMFastMathApproxFunc},
  };
  LLVMFastMathFlags out = LLVMFastMathNone;
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
    if (fastmath & flags[i].fm) out |= flags[i].llvm;
  return out;
}

/* fastmath on the CPU, function by function: a callee lowered into a
 * caller's module keeps its own options. Code generation's own unsafe
 * rewrites only with all of fastmath=True's flags. */
void lo_fastmath_function(Lower *l, LLVMValueRef fn) {
  if (!l->opts->fastmath || l->mod->gpu) return;
  add_fp_flags(fn, lo_fp_flags(l->opts->fastmath));
  if ((l->opts->fastmath & FM_TRUE) == FM_TRUE)
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(l->mod->c, "unsafe-fp-math", 14, "true", 4));
}

/* With fastmath, float32 on the GPU takes the hardware's approximations,
 * as numba-cuda's fastmath: division, square root (NVPTX picks them only
 * for a whole target's unsafe math, so they are asked for by name) and
 * libdevice's fast functions. */
bool lo_gpu_fast_f32(Lower *l, LLVMTypeRef t) { return l->mod->gpu && l->opts->fastmath && t == l->mod->f32; }

static bool fast_libdevice(Lower *l, const char *name, LLVMTypeRef t) {
  static const char *const fast[] = {"sin", "cos", "tan", "exp", "log", "log2", "log10", "pow"};
  if (!lo_gpu_fast_f32(l, t)) return false;
  for (size_t i = 0; i < sizeof fast / sizeof fast[0]; i++)
    if (!strcmp(name, fast[i])) return true;
  return false;
}

/* NVPTX has no instructions for these: on the GPU they are libdevice's. */
static const char *libdevice_name(const char *intrinsic) {
  static const char *const mapped[][2] = {
    {"llvm.exp", "exp"}, {"llvm.exp2", "exp2"}, {"llvm.log", "log"}, {"llvm.log2", "log2"},
    {"llvm.log10", "log10"}, {"llvm.sin", "sin"}, {"llvm.cos", "cos"}, {"llvm.pow", "pow"},
  };
  for (size_t i = 0; i < sizeof mapped / sizeof mapped[0]; i++)
    if (!strcmp(intrinsic, mapped[i][0])) return mapped[i][1];
  return NULL;
}

LLVMValueRef lo_intrinsic(Lower *l, const char *name, LLVMTypeRef *overloads, unsigned no,
                              LLVMValueRef *args, unsigned n) {
  const char *dev = l->mod->gpu ? libdevice_name(name) : NULL;
  if (dev) {
    char buf[32];
    snprintf(buf, sizeof buf, "__nv_%s%s%s", fast_libdevice(l, dev, overloads[0]) ? "fast_" : "", dev,
             overloads[0] == l->mod->f32 ? "f" : "");
    LLVMTypeRef params[2] = {overloads[0], overloads[0]};
    return lo_call_fn(l, buf, overloads[0], params, args, n);
  }
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(l->mod->m, id, overloads, no);
  return LLVMBuildCall2(l->b, LLVMIntrinsicGetType(l->mod->c, id, overloads, no), f, args, n, "");
}

LLVMValueRef lo_intrinsic1(Lower *l, const char *name, const Type *t, LLVMValueRef x) {
  LLVMTypeRef ov[1] = {lo_type(l, t)};
  return lo_intrinsic(l, name, ov, 1, &x, 1);
}

LLVMValueRef lo_intrinsic2(Lower *l, const char *name, const Type *t, LLVMValueRef x,
                                    LLVMValueRef y) {
  LLVMTypeRef ov[1] = {lo_type(l, t)};
  LLVMValueRef a[2] = {x, y};
  return lo_intrinsic(l, name, ov, 1, a, 2);
}

/* cond (an i1) through llvm.expect: the branch on it is laid out for the
 * likely side (the other out of the loop's way). */
LLVMValueRef lo_expect(Lower *l, LLVMValueRef cond, bool likely) {
  LLVMTypeRef i1 = l->mod->i1;
  return lo_intrinsic(l, "llvm.expect.i1", &i1, 1, (LLVMValueRef[]){cond, const_bool(l, likely)}, 2);
}

/* Function attributes without a value (nounwind, cold ...) given to fn. */
static void add_fn_attrs(Lower *l, LLVMValueRef fn, const char *const *attrs, int n) {
  for (int i = 0; i < n; i++) {
    unsigned kind = LLVMGetEnumAttributeKindForName(attrs[i], strlen(attrs[i]));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(l->mod->c, kind, 0));
  }
}

/* tanh of a float32 with fastmath: the hardware's tanh.approx.f32, as
 * numba-cuda's fastmath takes it (libdevice has no fast tanh). It needs
 * sm_75 and PTX 7.0, the least ptx.c writes (an older device asked for is
 * given sm_75's PTX). */
static bool fast_tanh(Lower *l, const char *name, LLVMTypeRef t) {
  return !strcmp(name, "tanh") && lo_gpu_fast_f32(l, t);
}

static LLVMValueRef tanh_approx(Lower *l, LLVMValueRef x) {
  static const char text[] = "tanh.approx.f32 $0, $1;", constraints[] = "=f,f";
  LLVMTypeRef ft = LLVMFunctionType(l->mod->f32, &l->mod->f32, 1, 0);
  LLVMValueRef fn = LLVMGetInlineAsm(ft, text, sizeof text - 1, constraints, sizeof constraints - 1, 0, 0,
                                     LLVMInlineAsmDialectATT, 0);
  return LLVMBuildCall2(l->b, ft, fn, &x, 1, "");
}

/* A libm function by name: sin for float64, sinf for float32. It may set
 * errno, which nothing reads: declared as touching no memory, so loops
 * calling it can vectorise (jit.c's vector math) and calls can move. */
LLVMValueRef lo_libm(Lower *l, const char *name, const Type *t, LLVMValueRef *args, unsigned n) {
  char buf[32];
  LLVMTypeRef ft = lo_type(l, t), params[2] = {ft, ft};
  if (fast_tanh(l, name, ft)) return tanh_approx(l, args[0]);
  snprintf(buf, sizeof buf, "%s%s%s%s", l->mod->gpu ? "__nv_" : "", fast_libdevice(l, name, ft) ? "fast_" : "",
           name, t->kind == TY_F32 ? "f" : "");
  LLVMValueRef r = lo_call_fn(l, buf, ft, params, args, n);
  LLVMValueRef fn = LLVMGetCalledValue(r);
  static const char *const attrs[] = {"nounwind", "willreturn", "nosync", "nofree", "memory"};
  add_fn_attrs(l, fn, attrs, 5);
  return r;
}

/* x ** y as the C library's pow computes it, as CPython's: LLVM rewrites
 * pow of some constant bases into other functions (pow(2.0**n, y) into
 * exp2(n * y), dozens of ulps away), so on the CPU the call is to libm's
 * pow, marked as no builtin, unless fastmath allows such rewrites. No
 * builtin, no vector version either (jit.c): a loop calling it calls
 * glibc's pow for each element, whose bits Numba's code gives. */
LLVMValueRef lo_pow(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef y) {
  if (l->mod->gpu || l->opts->fastmath) return lo_intrinsic2(l, "llvm.pow", t, x, y);
  LLVMBool lossy;
  if (LLVMIsAConstantFP(y) && LLVMConstRealGetDouble(y, &lossy) == 0.5) {
    /* x ** 0.5: the square root, correctly rounded (pow's result misses
     * the correct rounding in about one case in a thousand: the two agree
     * within 1 ulp, as float ** int does; Numba's pow becomes this too),
     * with pow's +0.0 for -0.0 and +inf for -inf */
    LLVMValueRef r = lo_intrinsic1(l, "llvm.fabs", t, lo_intrinsic1(l, "llvm.sqrt", t, x));
    LLVMValueRef inf = lo_fconst(l, t, INFINITY);
    return LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, x, LLVMBuildFNeg(l->b, inf, ""), ""), inf, r, "");
  }
  if (l->opts->numba_code && LLVMIsAConstantFP(y) && LLVMConstRealGetDouble(y, &lossy) == -1.0)
    return LLVMBuildFDiv(l->b, lo_fconst(l, t, 1.0), x, "");  /* LLVM's 1 / x for Numba's pow(x, -1.0) */
  LLVMValueRef args[2] = {x, y};
  LLVMValueRef r = lo_libm(l, "pow", t, args, 2);
  unsigned kind = LLVMGetEnumAttributeKindForName("nobuiltin", 9);
  LLVMAddCallSiteAttribute(r, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(l->mod->c, kind, 0));
  if (lo_numpy_errors(l)) return r;
  /* CPython answers 1.0 ** y and x ** 0.0 itself, before pow: 1.0 even for a
   * signalling NaN, which the C library's pow turns into NaN */
  LLVMValueRef one = lo_fconst(l, t, 1.0);
  LLVMValueRef trivial = LLVMBuildOr(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, x, one, ""),
                                     LLVMBuildFCmp(l->b, LLVMRealOEQ, y, lo_fconst(l, t, 0.0), ""), "");
  return LLVMBuildSelect(l->b, trivial, one, r, "");
}

/* A constant string (NULL: a null pointer). */
LLVMValueRef lo_string(Lower *l, const char *s) {
  return s ? LLVMBuildGlobalStringPtr(l->b, s, "msg") : LLVMConstNull(l->mod->ptr);
}

LLVMValueRef lo_extern(Lower *l, const char *name, void *addr) {
  LLVMValueRef g = LLVMGetNamedGlobal(l->mod->m, name);
  if (g) return g;
  g = LLVMAddGlobal(l->mod->m, l->mod->i8, name);
  LLVMSetLinkage(g, LLVMExternalLinkage);
  CompileResult *res = l->mod->res;
  if (res && (res->nexterns & (res->nexterns - 1)) == 0) {  /* full at 0, 1, 2, 4, ...: grow */
    void *grown = arena_alloc(l->f->arena, sizeof *res->externs * (size_t)(res->nexterns ? 2 * res->nexterns : 1));
    if (res->nexterns) memcpy(grown, res->externs, sizeof *res->externs * (size_t)res->nexterns);
    res->externs = grown;
  }
  if (res) {
    res->externs[res->nexterns].name = name;
    res->externs[res->nexterns++].addr = addr;
  }
  return g;
}

/* Raises status with the message text (a C string): records it (with
 * where, the statement's place for the traceback, if given), then leaves
 * through the exit block, which releases the locals. */
static void raise_text(Lower *l, RtStatus status, LLVMValueRef text, const char *where) {
  for (int i = 0; i < l->ntemps; i++) lo_refcount(l, l->temp_types[i], l->temps[i], false);
  if ((l->opts->kernel || l->opts->device) && l->tid[0]) {  /* say which thread: a GPU could not */
    LLVMTypeRef p[8] = {l->mod->i32, l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64, l->mod->i64, l->mod->i64, l->mod->i64};
    LLVMValueRef a[8] = {const_i32(l, status), text, l->tid[0], l->tid[1], l->tid[2], l->bid[0], l->bid[1], l->bid[2]};
    lo_call_fn(l, "rt_kernel_error", void_type(l), p, a, 8);
  } else {
    LLVMTypeRef p[2] = {l->mod->i32, l->mod->ptr};
    LLVMValueRef a[2] = {const_i32(l, status), text};
    lo_call_fn(l, "rt_set_error", void_type(l), p, a, 2);
    if (where) lo_call_fn(l, "rt_raise_where", void_type(l), &l->mod->ptr, (LLVMValueRef[]){lo_string(l, where)}, 1);
  }
  LLVMBuildStore(l->b, const_i32(l, status), l->status);
  LLVMBuildBr(l->b, l->exit_bb);
}

/* Raises status with a constant message. */
void lo_raise(Lower *l, RtStatus status, const char *msg) {
  if (l->mod->gpu) {  /* a GPU thread cannot raise: stop the kernel, the launch reports it */
    lo_intrinsic(l, "llvm.trap", NULL, 0, NULL, 0);
    LLVMBuildUnreachable(l->b);
    return;
  }
  raise_text(l, status, lo_string(l, msg), NULL);
}

void lo_raise_recorded(Lower *l, RtStatus status) { lo_raise_status(l, const_i32(l, status)); }

void lo_raise_status(Lower *l, LLVMValueRef status) {
  for (int i = 0; i < l->ntemps; i++) lo_refcount(l, l->temp_types[i], l->temps[i], false);
  LLVMBuildStore(l->b, status, l->status);
  LLVMBuildBr(l->b, l->exit_bb);
}

/* if (cond) raise status; execution continues in a fresh block. In a loop
 * run with its errors deferred, cond is only noted. */
void lo_raise_if(Lower *l, LLVMValueRef cond, RtStatus status, const char *msg) {
  lo_raise_if_at(l, cond, status, msg, NULL);
}

/* lo_raise_if, the raise's place recorded for the traceback (an assert's:
 * where as rt_raise_where takes it); not in a loop run with its errors
 * deferred, which raises after it. */
void lo_raise_if_at(Lower *l, LLVMValueRef cond, RtStatus status, const char *msg, const char *where) {
  if (l->deferred) {
    LLVMBuildStore(l->b, LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->mod->i1, l->deferred, ""), cond, ""), l->deferred);
    return;
  }
  LLVMBasicBlockRef fail = new_block(l, "raise"), ok = new_block(l, "ok");
  LLVMBuildCondBr(l->b, lo_expect(l, cond, false), fail, ok);
  position(l, fail);
  if (l->mod->gpu) lo_raise(l, status, msg);
  else raise_text(l, status, lo_string(l, msg), where);
  position(l, ok);
}

#if defined(__x86_64__)
/* rt_interrupt_poll behind a function of the preserve_all calling
 * convention, which saves every register it uses (on a path never taken
 * but when Ctrl-C came): see interrupt_poll_call. */
static LLVMValueRef interrupt_poll_fn(Lower *l, LLVMTypeRef ft) {
  static const char name[] = "ruchey.interrupt_poll";
  LLVMValueRef fn = LLVMGetNamedFunction(l->mod->m, name);
  if (fn) return fn;
  fn = LLVMAddFunction(l->mod->m, name, ft);
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  LLVMSetFunctionCallConv(fn, LLVMPreserveAllCallConv);
  static const char *const attrs[] = {"noinline", "cold"};
  add_fn_attrs(l, fn, attrs, 2);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(l->mod->c);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(l->mod->c, fn, "entry"));
  LLVMBuildRet(b, LLVMBuildCall2(b, ft, lo_get_fn(l, "rt_interrupt_poll", ft), NULL, 0, ""));
  LLVMDisposeBuilder(b);
  return fn;
}
#endif

/* The call of rt_interrupt_poll, on x86-64 through interrupt_poll_fn: the
 * loops that poll keep their values in registers across it. Called with
 * the C convention, a middle loop of a nest (a matmul's k) had 6
 * callee-saved registers for its values, spilled the rest and reloaded
 * them on every iteration (1.55x Numba's time at 192x192, 1.1x since). */
static LLVMValueRef interrupt_poll_call(Lower *l) {
  LLVMTypeRef ft = LLVMFunctionType(l->mod->i32, NULL, 0, 0);
#if defined(__x86_64__)
  LLVMValueRef call = LLVMBuildCall2(l->b, ft, interrupt_poll_fn(l, ft), NULL, 0, "");
  LLVMSetInstructionCallConv(call, LLVMPreserveAllCallConv);
  return call;
#else
  return LLVMBuildCall2(l->b, ft, lo_get_fn(l, "rt_interrupt_poll", ft), NULL, 0, "");
#endif
}

/* Leaves with KeyboardInterrupt if Ctrl-C came (interrupt.c): a relaxed
 * load of the flag, a test of its "up" bit and a branch LLVM is told is
 * not taken. Raised at once,
 * also in a loop run with its errors deferred: nothing of its state is
 * kept. GPU code cannot be interrupted. */
void lo_poll_interrupt(Lower *l) {
  if (l->mod->gpu) return;
  LLVMValueRef flag = LLVMGetNamedGlobal(l->mod->m, "rt_interrupted");
  if (!flag) {
    flag = LLVMAddGlobal(l->mod->m, l->mod->i32, "rt_interrupted");
    LLVMSetLinkage(flag, LLVMExternalLinkage);
  }
  LLVMValueRef up = LLVMBuildLoad2(l->b, l->mod->i32, flag, "interrupted");
  LLVMSetOrdering(up, LLVMAtomicOrderingMonotonic);
  LLVMSetAlignment(up, 4);
  up = LLVMBuildAnd(l->b, up, const_i32(l, RT_INTERRUPT_UP), "");
  LLVMValueRef cond = LLVMBuildICmp(l->b, LLVMIntNE, up, const_i32(l, 0), "");
  cond = lo_expect(l, cond, false);
  LLVMBasicBlockRef poll = new_block(l, "interrupt.poll"), stop = new_block(l, "interrupt"), ok = new_block(l, "go.on");
  LLVMBuildCondBr(l->b, cond, poll, ok);
  position(l, poll);
  LLVMValueRef status = interrupt_poll_call(l);
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, 0), ""), stop, ok);
  position(l, stop);
  lo_raise_status(l, status);
  position(l, ok);
}

/* Where cond holds, a message formatted at run time: positioned in that
 * branch, its way on returned; NULL where no message is formatted (a
 * deferred check notes it, the GPU traps), cond then raising fmt as it is. */
static LLVMBasicBlockRef formatted_raise_branch(Lower *l, LLVMValueRef cond, RtStatus status, const char *fmt) {
  if (l->deferred || l->mod->gpu) {
    lo_raise_if(l, cond, status, fmt);
    return NULL;
  }
  LLVMBasicBlockRef fail = new_block(l, "raise"), ok = new_block(l, "ok");
  LLVMBuildCondBr(l->b, cond, fail, ok);
  position(l, fail);
  return ok;
}

/* if (cond) raise status with a message holding up to four numbers known
 * at run time (fmt's %lld, see rt_error_format). */
void lo_raise_format_if(Lower *l, LLVMValueRef cond, RtStatus status, const char *fmt, LLVMValueRef *args, int n) {
  LLVMBasicBlockRef ok = formatted_raise_branch(l, cond, status, fmt);
  if (!ok) return;
  LLVMTypeRef p[6] = {l->mod->i32, l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64, l->mod->i64};
  LLVMValueRef a[6] = {const_i32(l, status), lo_string(l, fmt), const_i64(l, 0), const_i64(l, 0), const_i64(l, 0), const_i64(l, 0)};
  for (int i = 0; i < n && i < 4; i++) a[2 + i] = args[i];
  lo_call_fn(l, "rt_error_format", void_type(l), p, a, 6);
  lo_raise_recorded(l, status);
  position(l, ok);
}

/* if (cond) raise status with fmt's %s filled with the repr of the float x,
 * of float type t (rt_float_message; a kernel's names its thread too). */
void lo_raise_float_if(Lower *l, LLVMValueRef cond, RtStatus status, const char *fmt, const Type *t, LLVMValueRef x) {
  LLVMBasicBlockRef ok = formatted_raise_branch(l, cond, status, fmt);
  if (!ok) return;
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->f64};
  LLVMValueRef a[2] = {lo_string(l, fmt), lo_convert(l, x, t, TYS(TY_F64))};
  raise_text(l, status, lo_call_fn(l, "rt_float_message", l->mod->ptr, p, a, 2), NULL);
  position(l, ok);
}

/* Sets the loop metadata of the loop ending in latch: a node whose first
 * operand is itself (LLVM's form for loop IDs), then the n hints. */
static void set_loop_md(Lower *l, LLVMValueRef latch, LLVMMetadataRef *hints, int n) {
  LLVMMetadataRef ops[3], self = LLVMTemporaryMDNode(l->mod->c, NULL, 0);
  ops[0] = self;
  for (int i = 0; i < n; i++) ops[i + 1] = hints[i];
  LLVMMetadataRef loop = LLVMMDNodeInContext2(l->mod->c, ops, (size_t)n + 1);
  LLVMMetadataReplaceAllUsesWith(self, loop);
  LLVMSetMetadata(latch, LLVMGetMDKindIDInContext(l->mod->c, "llvm.loop", 9), LLVMMetadataAsValue(l->mod->c, loop));
}

/* A loop hint: the named option with an i32/i1 value. */
static LLVMMetadataRef loop_hint(Lower *l, const char *name, LLVMTypeRef t, unsigned long long value) {
  LLVMMetadataRef hint[2] = {LLVMMDStringInContext2(l->mod->c, name, strlen(name)),
                             LLVMValueAsMetadata(LLVMConstInt(t, value, 0))};
  return LLVMMDNodeInContext2(l->mod->c, hint, 2);
}

/* Marks the loop ending in latch as not to be vectorised, and unrolled
 * as `unroll` allows: by any count, only fully (by a trip count known
 * when compiling), or not at all. */
void lo_loop_hints(Lower *l, LLVMValueRef latch, LoUnroll unroll) {
  const char *unr = unroll == LO_UNROLL_NEVER ? "llvm.loop.unroll.disable" : "llvm.loop.unroll.runtime.disable";
  LLVMMetadataRef no_unroll = LLVMMDStringInContext2(l->mod->c, unr, strlen(unr));
  LLVMMetadataRef hints[2] = {loop_hint(l, "llvm.loop.vectorize.enable", l->mod->i1, 0),
                              LLVMMDNodeInContext2(l->mod->c, &no_unroll, 1)};
  set_loop_md(l, latch, hints, unroll == LO_UNROLL ? 1 : 2);
}

/* Marks the loop ending in latch to be vectorised `lanes` wide. */
void lo_loop_vector_width(Lower *l, LLVMValueRef latch, int lanes) {
  LLVMMetadataRef hint = loop_hint(l, "llvm.loop.vectorize.width", l->mod->i32, (unsigned long long)lanes);
  set_loop_md(l, latch, &hint, 1);
}

LoLoop lo_loop_begin(Lower *l, LLVMValueRef from, LLVMValueRef to, LLVMBasicBlockRef exit, const char *name) {
  LoLoop loop = {.counter = lo_alloca(l, l->mod->i64, name)};
  LLVMBuildStore(l->b, from, loop.counter);
  loop.head = new_block(l, name);
  LLVMBasicBlockRef body = new_block(l, "body");
  loop.latch = new_block(l, "next");
  loop.exit = exit ? exit : new_block(l, "end");
  LLVMBuildBr(l->b, loop.head);
  position(l, loop.head);
  loop.index = LLVMBuildLoad2(l->b, l->mod->i64, loop.counter, "k");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, loop.index, to, ""), body, loop.exit);
  position(l, body);
  return loop;
}

LLVMValueRef lo_loop_end(Lower *l, LoLoop *loop) {
  if (!terminated(l)) LLVMBuildBr(l->b, loop->latch);
  position(l, loop->latch);
  LLVMValueRef next = LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->mod->i64, loop->counter, ""), const_i64(l, 1), "");
  LLVMBuildStore(l->b, next, loop->counter);
  LLVMValueRef back = LLVMBuildBr(l->b, loop->head);
  position(l, loop->exit);
  return back;
}

void lo_for_each_index(Lower *l, int ndim, LLVMValueRef *shape, ElementBody body, void *arg) {
  LLVMValueRef idx[RC_MAX_NDIM];
  LoLoop loops[RC_MAX_NDIM];
  for (int d = 0; d < ndim; d++) {  /* a 0-d array has one element: no loop */
    loops[d] = lo_loop_begin(l, const_i64(l, 0), shape[d], NULL, "each");
    idx[d] = loops[d].index;
  }
  body(l, idx, arg);
  for (int d = ndim - 1; d >= 0; d--) lo_loop_end(l, &loops[d]);
}
