/* llvm.c — what jit.c (the host CPU) and ptx.c (NVPTX) both do with LLVM:
 * lower a function into a module for a target, check it, run the O3
 * pipeline, emit code, and report LLVM's failures as internal errors. */
#include <stdio.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "stages.h"

bool ll_fail(Diag *d, const char *fmt, const char *detail) {
  d->kind = DIAG_INTERNAL;
  snprintf(d->msg, sizeof d->msg, fmt, detail);
  return false;
}

LLVMModuleRef ll_module(Func *f, const CompileOptions *opts, LLVMContextRef c, const char *symbol,
                        CompileResult *res, LLVMTargetMachineRef tm, const char *triple) {
  LLVMModuleRef m = lo_function(f, opts, c, symbol, res);
  LLVMSetTarget(m, triple);
  LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(m, layout);
  LLVMDisposeTargetData(layout);
  return m;
}

bool ll_verify(LLVMModuleRef m, Diag *d) {
  char *msg = NULL;
  bool ok = !LLVMVerifyModule(m, LLVMReturnStatusAction, &msg) || ll_fail(d, "internal error: invalid LLVM IR: %s", msg);
  LLVMDisposeMessage(msg);
  return ok;
}

bool ll_optimise(LLVMModuleRef m, LLVMTargetMachineRef tm, bool vectorise, Diag *d) {
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  if (vectorise) {
    LLVMPassBuilderOptionsSetLoopVectorization(po, 1);
    LLVMPassBuilderOptionsSetSLPVectorization(po, 1);
    LLVMPassBuilderOptionsSetLoopUnrolling(po, 1);
  }
  LLVMErrorRef err = LLVMRunPasses(m, "default<O3>", tm, po);
  LLVMDisposePassBuilderOptions(po);
  if (!err) return true;
  char *text = LLVMGetErrorMessage(err);
  ll_fail(d, "LLVM optimisation failed: %s", text);
  LLVMDisposeErrorMessage(text);
  return false;
}

bool ll_emit(LLVMModuleRef m, LLVMTargetMachineRef tm, LLVMCodeGenFileType kind, LLVMMemoryBufferRef *out, Diag *d) {
  char *msg = NULL;
  if (!LLVMTargetMachineEmitToMemoryBuffer(tm, m, kind, &msg, out)) return true;
  ll_fail(d, "LLVM code generation failed: %s", msg);
  LLVMDisposeMessage(msg);
  return false;
}

bool ll_emit_text(LLVMModuleRef m, LLVMTargetMachineRef tm, char **text, Diag *d) {
  LLVMMemoryBufferRef buf;
  if (!ll_emit(m, tm, LLVMAssemblyFile, &buf, d)) return false;
  size_t n = LLVMGetBufferSize(buf);
  *text = malloc(n + 1);
  memcpy(*text, LLVMGetBufferStart(buf), n);
  (*text)[n] = 0;
  LLVMDisposeMemoryBuffer(buf);
  return true;
}
