/* stages.h — interfaces between libruchey's stages that speak LLVM.
 * (ruchey.h stays free of LLVM so the extension can include it.) */
#ifndef RUCHEY_STAGES_H
#define RUCHEY_STAGES_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "ruchey.h"

/* lower/function.c: one module holding the function `symbol` with the entry ABI. */
LLVMModuleRef lo_function(Func *f, const CompileOptions *opts, LLVMContextRef c, const char *symbol,
                          CompileResult *res);

/* lower/emit.c: adds flags to every floating-point operation of the module. */
void lo_add_fp_flags(LLVMModuleRef m, LLVMFastMathFlags flags);
/* lower/emit.c: LLVM's flags for fastmath's FM_* flags */
LLVMFastMathFlags lo_fp_flags(unsigned fastmath);

/* jit.c: the widest vectors a loop streaming over whole arrays is given
 * (lower/stmt.c), 0 where the host's own choice stands */
int jit_stream_vector_bits(void);

/* llvm.c: the steps jit.c and ptx.c share. Each false comes with d set. */
bool ll_fail(Diag *d, const char *fmt, const char *detail);
/* f lowered into a new module of context c for a target */
LLVMModuleRef ll_module(Func *f, const CompileOptions *opts, LLVMContextRef c, const char *symbol,
                        CompileResult *res, LLVMTargetMachineRef tm, const char *triple);
bool ll_verify(LLVMModuleRef m, Diag *d);
/* whether m runs any code more than once a call of entry: a loop in a
 * function it defines, or a call reached again (recursion) */
bool ll_has_loops(LLVMModuleRef m, LLVMValueRef entry);
typedef enum {
  LL_O3,             /* O3 without the vectorisers (NVPTX) */
  LL_O3_VECTORISE,   /* O3 with loop and SLP vectorisation and unrolling */
  LL_STRAIGHT_LINE,  /* inlining and simplification: for code without loops, run once a call (see jit.c) */
} LlPipeline;
bool ll_optimise(LLVMModuleRef m, LLVMTargetMachineRef tm, LlPipeline pipeline, Diag *d);
bool ll_emit(LLVMModuleRef m, LLVMTargetMachineRef tm, LLVMCodeGenFileType kind, LLVMMemoryBufferRef *out, Diag *d);
bool ll_emit_text(LLVMModuleRef m, LLVMTargetMachineRef tm, char **text, Diag *d);  /* assembly, malloc'd */

/* ptx.c: a kernel typed with opts->gpu_cc, as PTX text in res->text (out OUT_PTX) or as the GPU
 * module's LLVM IR before libdevice and optimisation (OUT_LLVM_IR). */
bool ptx_generate(Func *f, const CompileOptions *opts, OutputKind out, CompileResult *res, Diag *d);

#endif
