/* stages.h — interfaces between libruchey's stages that speak LLVM.
 * (ruchey.h stays free of LLVM so the extension can include it.) */
#ifndef RUCHEY_STAGES_H
#define RUCHEY_STAGES_H

#include <llvm-c/Core.h>

#include "ruchey.h"

/* lower.c: one module holding the function `symbol` with the entry ABI. */
LLVMModuleRef lo_function(Func *f, const CompileOptions *opts, LLVMContextRef c, const char *symbol);

#endif
