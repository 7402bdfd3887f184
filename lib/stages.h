/* stages.h — interfaces between libruchey's stages that speak LLVM.
 * (ruchey.h stays free of LLVM so the extension can include it.) */
#ifndef RUCHEY_STAGES_H
#define RUCHEY_STAGES_H

#include <llvm-c/Core.h>

#include "ruchey.h"

/* lower.c: one module holding the function `symbol` with the entry ABI. */
LLVMModuleRef lo_function(Func *f, const CompileOptions *opts, LLVMContextRef c, const char *symbol,
                          CompileResult *res);

/* What fastmath=True allows: reassociation (reductions vectorise), no
 * signed zeros, reciprocals, contraction and approximate functions. Not
 * "no NaNs" or "no infinities": the checks that raise Python's errors test
 * for those, and must not be folded away. */
#define LO_FASTMATH_FLAGS                                                           \
  (LLVMFastMathAllowReassoc | LLVMFastMathNoSignedZeros | LLVMFastMathAllowReciprocal | \
   LLVMFastMathAllowContract | LLVMFastMathApproxFunc)

/* lower.c: adds flags to every floating-point operation of the module. */
void lo_add_fp_flags(LLVMModuleRef m, LLVMFastMathFlags flags);

/* ptx.c: a kernel typed with opts->gpu_cc, as PTX text in res->text. */
bool ptx_generate(Func *f, const CompileOptions *opts, CompileResult *res, Diag *d);

/* parallel.c: how each variable is treated in a prange loop. */
typedef enum { PAR_UNUSED, PAR_SHARED, PAR_PRIVATE, PAR_REDUCTION } ParKind;

typedef struct ParPlan {
  int *kind;      /* ParKind per variable */
  int *red_op;    /* PAR_REDUCTION: OP_ADD (+ and -), OP_MUL, OP_BIT*, OP_LT (min), OP_GT (max) */
  int line;       /* where the reason to stay serial is */
  char why[256];  /* empty when the loop can run in parallel */
} ParPlan;

/* false (with plan->why) when the loop must run serially */
bool par_analyse(Func *f, const Node *loop, ParPlan *plan);

#endif
