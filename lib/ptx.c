/* ptx.c — kernels to PTX through LLVM's NVPTX backend.
 *
 * The kernel is lowered for the GPU (lower.c, lo_gpu_kernel), linked with
 * the libdevice functions it calls, optimised at O3 for the chosen
 * compute capability and printed as PTX. LLVM 19 emits up to sm_90 (newer
 * devices JIT-compile sm_90 PTX); CUDA 13's ptxas starts at sm_75.
 */
#include <pthread.h>
#include <stdio.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "stages.h"

#define NVPTX_TRIPLE "nvptx64-nvidia-cuda"

static pthread_once_t nvptx_once = PTHREAD_ONCE_INIT;

static void nvptx_start(void) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
}

/* Compute capabilities below 7.5 are refused by current ptxas; above 9.0
 * LLVM 19 has no target, and sm_90 PTX runs there through the driver. */
static int clamp_cc(int cc) { return cc < 75 ? 75 : cc > 90 ? 90 : cc; }

/* PTX ISA 7.0 (CUDA 11) at least: LLVM would write sm_75's as 6.3, which
 * lacks tanh.approx.f32 (numba-cuda's fastmath tanh from sm_75 on); a
 * newer device's own version is kept (LLVM takes the highest asked). */
#define PTX_FEATURES "+ptx70"

/* The target's name: sm_90a for sm_90's architecture-specific features;
 * a newer one's (sm_100a) is clamped to sm_90 as its plain cc is, since
 * ruchey emits none of those features. */
static void nvptx_cpu(char *cpu, size_t size, int cc, bool arch_specific) {
  snprintf(cpu, size, "sm_%d%s", clamp_cc(cc), arch_specific && cc == 90 ? "a" : "");
}

static LLVMTargetMachineRef nvptx_tm(int cc, bool arch_specific, bool unoptimised, Diag *d) {
  pthread_once(&nvptx_once, nvptx_start);
  LLVMTargetRef target;
  char *msg = NULL;
  if (LLVMGetTargetFromTriple(NVPTX_TRIPLE, &target, &msg)) {
    ll_fail(d, "no NVPTX target in this LLVM: %s", msg);
    LLVMDisposeMessage(msg);
    return NULL;
  }
  char cpu[16];
  nvptx_cpu(cpu, sizeof cpu, cc, arch_specific);
  return LLVMCreateTargetMachine(target, NVPTX_TRIPLE, cpu, PTX_FEATURES,
                                 unoptimised ? LLVMCodeGenLevelNone : LLVMCodeGenLevelAggressive,
                                 LLVMRelocDefault, LLVMCodeModelDefault);
}

/* libdevice.10.bc from the CUDA toolkit: $CUDA_HOME first, then the
 * standard location. */
static LLVMMemoryBufferRef read_libdevice(Diag *d) {
  const char *home = getenv("CUDA_HOME");
  char path[4096];
  const char *bases[] = {home, "/usr/local/cuda"};
  for (int i = 0; i < 2; i++) {
    if (!bases[i]) continue;
    snprintf(path, sizeof path, "%s/nvvm/libdevice/libdevice.10.bc", bases[i]);
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    if (!LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) return buf;
    LLVMDisposeMessage(msg);
  }
  ll_fail(d, "%s", "libdevice.10.bc not found: set CUDA_HOME to the CUDA toolkit");
  return NULL;
}

static bool calls_libdevice(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMIsDeclaration(f) && !strncmp(LLVMGetValueName(f), "__nv_", 5)) return true;
  return false;
}

/* Links the libdevice functions the kernel calls. Making every libdevice
 * function linkonce_odr first lets the linker take only what is used. */
static bool link_libdevice(LLVMModuleRef m, Diag *d, bool ftz) {
  if (!calls_libdevice(m)) return true;
  LLVMMemoryBufferRef buf = read_libdevice(d);
  if (!buf) return false;
  LLVMModuleRef lib;
  bool bad = LLVMParseBitcodeInContext2(LLVMGetModuleContext(m), buf, &lib);
  LLVMDisposeMemoryBuffer(buf);
  if (bad) return ll_fail(d, "%s", "libdevice.10.bc could not be read");
  for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f)) LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
  LLVMSetTarget(lib, NVPTX_TRIPLE);
  LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(m));
  if (LLVMLinkModules2(m, lib)) return ll_fail(d, "%s", "linking libdevice failed");
  /* NVVMReflect (inside O3) reads this: libdevice flushes float32
   * denormals to zero only with fastmath */
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMAddModuleFlag(m, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                    LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(c), ftz, 0)));
  return true;
}

/* A float multiply followed by an add may become one fused multiply-add,
 * as nvcc (--fmad=true) and numba-cuda (NVVM's -fma=1) do by default: an
 * FMA is one instruction where the pair is two, and it rounds once. With
 * fastmath, as numba-cuda: all of FM_TRUE's flags and float32 denormals
 * flushed to zero (lower.c asks for the approximate division and square
 * root). Only the kernel's own code is marked, before libdevice is linked.
 * Unoptimised (opt=False), nothing fuses, as numba-cuda's NVVM at -opt=0. */
static void set_fp_options(LLVMModuleRef m, bool fastmath, bool unoptimised) {
  LLVMFastMathFlags contract = unoptimised ? 0 : LLVMFastMathAllowContract;
  lo_add_fp_flags(m, contract | (fastmath ? lo_fp_flags(FM_TRUE) : 0));
  if (!fastmath) return;
  LLVMContextRef c = LLVMGetModuleContext(m);
  static const char key[] = "denormal-fp-math-f32", value[] = "preserve-sign,preserve-sign";
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(c, key, sizeof key - 1, value, sizeof value - 1));
}

/* Every symbol the module defines (the kernel, its device functions: a
 * lambda's is "<lambda>") spelled as PTX names may be: LLVM's NVPTX backend
 * aborts the process on any other. */
static void valid_symbols(LLVMModuleRef m) {
  for (LLVMValueRef v = LLVMGetFirstFunction(m); v; v = LLVMGetNextFunction(v))
    if (!LLVMIsDeclaration(v)) {
      size_t n;
      char name[512];
      snprintf(name, sizeof name, "%s", LLVMGetValueName2(v, &n));
      ptx_symbol(name);
      LLVMSetValueName2(v, name, strlen(name));
    }
}

bool ptx_generate(Func *f, const CompileOptions *opts, OutputKind out, CompileResult *res, Diag *d) {
  LLVMTargetMachineRef tm = nvptx_tm(opts->gpu_cc, opts->gpu_arch_specific, opts->unoptimised, d);
  if (!tm) return false;
  res->grid_sync = f->grid_sync;
  LLVMContextRef c = LLVMContextCreate();
  LLVMModuleRef m = ll_module(f, opts, c, f->name, res, tm, NVPTX_TRIPLE);
  bool ok = ll_verify(m, d);
  valid_symbols(m);
  if (ok) set_fp_options(m, opts->fastmath != 0, opts->unoptimised);
  /* (unoptimised, NVVMReflect still runs: the NVPTX code generator's own IR passes hold it) */
  if (ok && out == OUT_LLVM_IR) res->text = LLVMPrintModuleToString(m);
  else ok = ok && link_libdevice(m, d, opts->fastmath != 0) && (opts->unoptimised || ll_optimise(m, tm, LL_O3, d)) &&
       ll_emit_text(m, tm, &res->text, d);
  LLVMDisposeModule(m);
  LLVMContextDispose(c);
  LLVMDisposeTargetMachine(tm);
  return ok;
}
