/* jit.c — from a Func to callable machine code, and libruchey's API table
 * (what libruchey_rt's table forwards to once it has loaded this library).
 *
 * LLVM starts on the first compile (never when the library loads): one
 * TargetMachine for the host CPU with all its features (without them the
 * code would be SSE2 only), one LLJIT per process. Each specialisation is
 * typed, lowered into its own module, optimised by our TargetMachine (O3,
 * or a short pipeline for straight-line code: pipeline_for), emitted as an object file
 * and added to the JIT. Typing (which may call back into the extension to
 * compile callees) and generating are separate calls, so the extension can
 * let other Python threads run while LLVM works; generation needs no lock:
 * each compile has its own LLVM context, each thread its own
 * TargetMachine, and the LLJIT is thread-safe.
 */
#include <pthread.h>
#include <stdio.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Support.h>
#include <dlfcn.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "builtins/builtins.h"
#include "stages.h"

#define EXPORT __attribute__((visibility("default")))

static struct {
  pthread_once_t once;
  LLVMTargetRef target;
  char *triple;
  bool started;             /* the target and the JIT are ready */
  LLVMOrcLLJITRef jit;
  char *cpu, *features;
  char error[512];  /* why initialisation failed, if it did */
  void *libmvec;    /* glibc's vector math library, when it loads */
  unsigned long counter;  /* makes each specialisation's symbol unique */
  pthread_mutex_t externs_lock;
  char **externs;   /* the objects' symbols defined so far (CompileResult.externs) */
  size_t nexterns;
  pthread_mutex_t shared_lock;
  struct JitCode *shared;  /* code some result or J.released holds, by the module it came from (share_code) */
  struct JitCode *released[64];  /* the code last let go by every result, oldest at released_next (keep_released) */
  unsigned released_next;
} J = {PTHREAD_ONCE_INIT, .externs_lock = PTHREAD_MUTEX_INITIALIZER, .shared_lock = PTHREAD_MUTEX_INITIALIZER};

/* A TargetMachine is not safe to share between concurrent compiles: each
 * thread makes its own, released when the thread exits. */
static pthread_key_t tm_key, straight_line_tm_key;

static void dispose_tm(void *tm) { LLVMDisposeTargetMachine(tm); }

static LLVMTargetMachineRef thread_tm(pthread_key_t key, LLVMCodeGenOptLevel level) {
  LLVMTargetMachineRef tm = pthread_getspecific(key);
  if (!tm) {
    tm = LLVMCreateTargetMachine(J.target, J.triple, J.cpu, J.features, level, LLVMRelocDefault,
                                 LLVMCodeModelJITDefault);
    pthread_setspecific(key, tm);
  }
  return tm;
}

static LLVMTargetMachineRef host_tm(void) { return thread_tm(tm_key, LLVMCodeGenLevelAggressive); }

/* Code generation of code without loops, which runs once a call: the
 * fast instruction selector and register allocator. They take a fifth of
 * the time the full ones take (the test suite's loop-free modules: 1.2
 * ms, not 5.5, each) for code 1.8 times as long, which a call does not
 * notice beside its dispatch (eight such functions, called from Python:
 * 59.4 ns a call before, 59.5 after, geometric mean). */
static LLVMTargetMachineRef straight_line_tm(void) {
  return thread_tm(straight_line_tm_key, LLVMCodeGenLevelNone);
}

static void take_error(LLVMErrorRef err, char *buf, size_t n) {
  char *msg = LLVMGetErrorMessage(err);
  snprintf(buf, n, "%s", msg);
  LLVMDisposeErrorMessage(msg);
}

/* Runtime functions are defined in the JIT by address: libruchey is loaded
 * RTLD_LOCAL, so the process symbol table does not see them. They go in
 * batches, each defined when full (the first error kept). */
typedef struct SymbolBatch {
  LLVMOrcCSymbolMapPair pairs[32];
  size_t n;
  LLVMErrorRef err;
} SymbolBatch;

static void define_batch(SymbolBatch *b) {
  if (b->n && !b->err)
    b->err = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(J.jit), LLVMOrcAbsoluteSymbols(b->pairs, b->n));
  b->n = 0;
}

static void add_symbol(const char *name, void *addr, void *ctx) {
  SymbolBatch *b = ctx;
  LLVMJITSymbolFlags flags = {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0};
  b->pairs[b->n].Name = LLVMOrcLLJITMangleAndIntern(J.jit, name);
  b->pairs[b->n].Sym = (LLVMJITEvaluatedSymbol){(LLVMOrcExecutorAddress)(uintptr_t)addr, flags};
  if (++b->n == sizeof b->pairs / sizeof b->pairs[0]) define_batch(b);
}

/* ---------------------------------------------------------------- where a compile's time goes */

/* RUCHEY_COMPILE_LOG=path appends a line per module generated: its symbol,
 * how it was made (the pipeline, or "shared": an equal module's code), the
 * hash of its bitcode (equal modules, equal hashes), its instructions
 * before optimisation and the calling thread's CPU milliseconds in each
 * step: lowering, the equal-module key, verifying and choosing the
 * pipeline, optimising, and code generation with loading. Read by
 * bench/compile_stages.py. */
typedef enum { STEP_LOWER, STEP_KEY, STEP_CHECK, STEP_OPTIMISE, STEP_CODEGEN, NSTEPS } Step;

typedef struct StepTimes {
  double ms[NSTEPS];
  double last;  /* the thread's CPU time when the last step ended */
  unsigned instructions;
} StepTimes;

static FILE *compile_log;
static pthread_mutex_t compile_log_lock = PTHREAD_MUTEX_INITIALIZER;

static void open_compile_log(void) {
  const char *path = getenv("RUCHEY_COMPILE_LOG");
  if (path && *path) compile_log = fopen(path, "a");
}

static double thread_cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Ends step s; ok passes through, so a step is timed where it is chained. */
static bool step_done(StepTimes *t, Step s, bool ok) {
  if (compile_log) {
    double now = thread_cpu_ms();
    t->ms[s] += now - t->last;
    t->last = now;
  }
  return ok;
}

static unsigned count_instructions(LLVMModuleRef m) {
  unsigned n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) n++;
  return n;
}

static void log_compile(const char *symbol, const char *how, uint64_t key, const StepTimes *t) {
  if (!compile_log) return;
  pthread_mutex_lock(&compile_log_lock);
  fprintf(compile_log, "%s\t%s\t%016llx\t%u", symbol, how, (unsigned long long)key, t->instructions);
  for (int s = 0; s < NSTEPS; s++) fprintf(compile_log, "\t%.3f", t->ms[s]);
  fputc('\n', compile_log);
  fflush(compile_log);
  pthread_mutex_unlock(&compile_log_lock);
}

static const char *const pipeline_names[] = {
  [LL_O3] = "O3", [LL_O3_VECTORISE] = "O3-vectorise", [LL_STRAIGHT_LINE] = "straight-line",
};

/* LLVM's options, set once before the first compile.
 *
 * An int converted to float (vcvtsi2sd) merges into a register it leaves
 * undefined; LLVM adds a dependency-breaking xor only if it saw that
 * register written nearby, and it does not count a call's clobbers. After
 * a call to sin in a loop, the next conversion then waited for the
 * register sin wrote last: calls that could overlap ran one after another
 * (2.5x slower than C). Any clearance is now too short: always the xor.
 *
 * A float reduction (s += f(x[i])) may not be reassociated, which kept such
 * loops scalar. Ordered reductions vectorise them anyway: the f(x[i]) of
 * several iterations are computed at once and added to s one by one, in
 * the loop's order, so the sum is exactly the serial one.
 *
 * sin, exp and the like vectorise only when LLVM may call glibc's vector
 * math library (libmvec): load it so the JIT finds it. LLVM is told of it
 * call by call (add_vector_math), not with -vector-library, which would
 * hold for every module of the process: code written for Numba calls
 * glibc's scalar functions in its loops, as Numba's does.
 *
 * A compiled function returns {status, value}; inlined into a loop, its
 * exit block rebuilds the value with an insertvalue per scalar (a view:
 * 7 for 1-d, 2 more per dimension), dead once the caller's extractvalues
 * fold but not yet deleted when jump threading runs. Counted against its
 * threshold of 6, they kept the caller's test of the status from being
 * threaded into the helper's paths: the index check of `return m[i]`
 * stayed a branch in the loop besides the exit it leads to (a row helper
 * 1.9x its loop written inline). A view of up to 5 dimensions fits 16.
 *
 * A loop that can raise has an exit to the error per check besides its
 * end, and LLVM unrolls by a trip count known only at run time just loops
 * of one exit: a histogram's int() of each value kept its loop rolled (4x
 * unrolled, 7% faster; Numba's has no check). Unrolling such loops is
 * allowed; an ordered sum with a check is kept rolled (lower/stmt.c). */
static void set_llvm_options(void) {
  const char *argv[] = {"ruchey", "-undef-reg-clearance=1000000000", "-force-ordered-reductions",
                        "-jump-threading-threshold=16", "-unroll-runtime-multi-exit"};
#if defined(__x86_64__)
  J.libmvec = dlopen("libmvec.so.1", RTLD_NOW | RTLD_GLOBAL);
#endif
  LLVMParseCommandLineOptions(sizeof argv / sizeof argv[0], argv, NULL);
}

static void jit_start(void) {
  open_compile_log();
  set_llvm_options();
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  LLVMInitializeNativeAsmParser();  /* inline asm (an @intrinsic's builder.asm) is parsed as the object is emitted */
  pthread_key_create(&tm_key, dispose_tm);
  pthread_key_create(&straight_line_tm_key, dispose_tm);
  J.triple = LLVMGetDefaultTargetTriple();
  J.cpu = LLVMGetHostCPUName();
  J.features = LLVMGetHostCPUFeatures();
  char *msg = NULL;
  if (LLVMGetTargetFromTriple(J.triple, &J.target, &msg)) {
    snprintf(J.error, sizeof J.error, "no LLVM target for %s: %s", J.triple, msg);
    LLVMDisposeMessage(msg);
    return;
  }
  J.started = host_tm() != NULL;
  LLVMErrorRef err = LLVMOrcCreateLLJIT(&J.jit, NULL);
  if (err) {
    take_error(err, J.error, sizeof J.error);
    J.started = false;
    return;
  }
  LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(J.jit);
  /* libm and libc for math functions called by compiled code */
  LLVMOrcDefinitionGeneratorRef gen;
  err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
      &gen, LLVMOrcLLJITGetGlobalPrefix(J.jit), NULL, NULL);
  if (!err) LLVMOrcJITDylibAddGenerator(jd, gen);
  else LLVMConsumeError(err);
  SymbolBatch batch = {.n = 0};
  rt_register_symbols(add_symbol, &batch);
  define_batch(&batch);
  if (batch.err) take_error(batch.err, J.error, sizeof J.error);
}

/* Marks every defined function with the host CPU, so code generation and
 * the optimiser's cost model agree on what the CPU can do. */
static void set_target_attributes(LLVMModuleRef m) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) continue;
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(c, "target-cpu", 10, J.cpu, (unsigned)strlen(J.cpu)));
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(c, "target-features", 15, J.features,
                                                      (unsigned)strlen(J.features)));
    /* on AVX-512 CPUs LLVM prefers 256-bit vectors unless told otherwise */
    if (strstr(J.features, "+avx512f"))
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(c, "prefer-vector-width", 19, "512", 3));
  }
}

/* On AVX-512 hosts, told to prefer 512-bit vectors above, a loop that
 * streams arrays through the caches (arr_sum's out[i] = x[i] + y[i] over
 * 1M float64, 24 MB) ran 1.12x NumPy's x + y, whose loop is 256 bits
 * wide: 512-bit loads of data from beyond the first-level cache took
 * longer per byte than 256-bit ones (the same loop in C, operands in
 * the last-level cache or memory: 1.09-1.14x with 512-bit loads, 0.98-1.03x
 * with 256-bit ones, at any alignment), while loops over data they reuse
 * (a matrix product's rows) run a third faster at 512. */
int jit_stream_vector_bits(void) { return J.features && strstr(J.features, "+avx512f") ? 256 : 0; }

/* ---------------------------------------------------------------- vector math */

/* LLVM's own list of libmvec functions stops at sin, cos, exp, log and pow
 * in 2 and 4 lanes. glibc (2.35 on) has far more, and 8-lane AVX-512
 * versions: each math call is told about every vector version this CPU
 * can run and this libmvec has, so a loop calling erf or tanh vectorises
 * too, 8 lanes wide on AVX-512. A call marked no builtin keeps the scalar
 * function: x ** y is glibc's pow (lower/emit.c's lo_pow), libmvec's is an
 * ulp off it (Numba's, CPython's) in about one result in five; pow stays
 * vector where LLVM's may be (fastmath). */
static const char *const vector_math[] = {
  "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cos", "cosh", "erf", "erfc", "exp",
  "exp10", "exp2", "expm1", "log", "log10", "log1p", "log2", "sin", "sinh", "tan", "tanh",
  "atan2", "hypot", "pow",  /* two arguments */
};

static bool no_builtin(LLVMValueRef call) {
  unsigned kind = LLVMGetEnumAttributeKindForName("nobuiltin", 9);
  return LLVMGetCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, kind) != NULL;
}

/* libmvec's name of a call's function: "sin" for llvm.sin.f64, sin and
 * llvm.sin.f32 / sinf alike (the float version is the type's business). */
static bool vector_math_base(const char *callee, bool f32, char *base, size_t n) {
  const char *name = strncmp(callee, "llvm.", 5) ? callee : callee + 5;
  size_t len = strcspn(name, ".");
  if (f32 && name == callee && len && name[len - 1] == 'f') len--;  /* sinf */
  if (len >= n) return false;
  memcpy(base, name, len);
  base[len] = 0;
  for (size_t i = 0; i < sizeof vector_math / sizeof vector_math[0]; i++)
    if (!strcmp(base, vector_math[i])) return true;
  return false;
}

/* Declares the vector versions of one call and names them in its
 * vector-function-abi-variant attribute; `used` collects the declarations. */
static void add_vector_versions(LLVMModuleRef m, LLVMValueRef call, LLVMValueRef *used, unsigned *nused) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  LLVMTypeRef fty = LLVMGlobalGetValueType(callee);
  LLVMTypeRef ret = LLVMGetReturnType(fty);
  bool f32 = LLVMGetTypeKind(ret) == LLVMFloatTypeKind;
  unsigned arity = LLVMCountParamTypes(fty);
  char base[32];
  if ((!f32 && LLVMGetTypeKind(ret) != LLVMDoubleTypeKind) || arity < 1 || arity > 2 || no_builtin(call) ||
      !vector_math_base(LLVMGetValueName(callee), f32, base, sizeof base))
    return;
  /* ISA letter, lanes for float64, the CPU feature it needs */
  static const struct { char isa; unsigned lanes; const char *feature; } isas[] = {
    {'b', 2, "+sse4.2"}, {'d', 4, "+avx2"}, {'e', 8, "+avx512f"},
  };
  char variants[1024] = "";
  size_t len = 0;
  for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
    if (!strstr(J.features, isas[i].feature)) continue;
    unsigned lanes = isas[i].lanes * (f32 ? 2 : 1);
    char vname[64];
    snprintf(vname, sizeof vname, "_ZGV%cN%u%s_%s%s", isas[i].isa, lanes, arity == 2 ? "vv" : "v", base,
             f32 ? "f" : "");
    if (!dlsym(J.libmvec, vname)) continue;  /* an older libmvec */
    LLVMValueRef vf = LLVMGetNamedFunction(m, vname);
    if (!vf) {
      LLVMTypeRef vty = LLVMVectorType(ret, lanes), params[2] = {vty, vty};
      vf = LLVMAddFunction(m, vname, LLVMFunctionType(vty, params, arity, 0));
      if (*nused < 64) used[(*nused)++] = vf;
    }
    len += (size_t)snprintf(variants + len, sizeof variants - len, "%s_ZGV_LLVM_N%u%s_%s(%s)", len ? "," : "",
                            lanes, arity == 2 ? "vv" : "v", LLVMGetValueName(callee), vname);
  }
  if (!len) return;
  LLVMContextRef c = LLVMGetModuleContext(m);
  const char *key = "vector-function-abi-variant";
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                           LLVMCreateStringAttribute(c, key, (unsigned)strlen(key), variants, (unsigned)len));
}

/* Every math call of m learns its vector versions; the declarations are
 * kept alive (llvm.compiler.used) until the vectoriser has looked. Not in
 * code written for Numba: Numba's LLVM knows no vector library, so its
 * loops call the scalar functions (widened, LLVM calls them lane by lane),
 * whose results are up to 4 ulps from libmvec's. */
static void add_vector_math(LLVMModuleRef m, const CompileOptions *opts) {
  if (!J.libmvec || opts->numba_code) return;
  LLVMValueRef used[64];
  unsigned nused = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
        if (LLVMIsACallInst(i) && LLVMIsAFunction(LLVMGetCalledValue(i))) add_vector_versions(m, i, used, &nused);
  if (!nused || LLVMGetNamedGlobal(m, "llvm.compiler.used")) return;
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(c, 0);
  LLVMValueRef g = LLVMAddGlobal(m, LLVMArrayType2(ptr, nused), "llvm.compiler.used");
  LLVMSetLinkage(g, LLVMAppendingLinkage);
  LLVMSetSection(g, "llvm.metadata");
  LLVMSetInitializer(g, LLVMConstArray2(ptr, used, nused));
}

/* The module a piece of code came from: its bitcode before optimisation,
 * the entry renamed (each compile names its entry anew). */
typedef struct ModuleKey {
  char *bytes;
  size_t size;
  uint64_t hash;
} ModuleKey;

/* Code in the JIT (CompileResult.code): its own resource tracker, held by
 * every result that took it (refs), freed when the last lets go. */
typedef struct JitCode {
  RtCode base;
  LLVMOrcResourceTrackerRef tracker;
  int (*entry)(void *ret, void **args);
  int refs;              /* under J.shared_lock */
  ModuleKey key;         /* bytes NULL: code not shared (loaded from the on-disk cache) */
  struct JitCode *next;  /* in J.shared */
} JitCode;

static void release_tracker(LLVMOrcResourceTrackerRef rt) {
  LLVMErrorRef err = LLVMOrcResourceTrackerRemove(rt);
  if (err) LLVMConsumeError(err);
  LLVMOrcReleaseResourceTracker(rt);
}

static void drop_shared(JitCode *code) {
  for (JitCode **p = &J.shared; *p; p = &(*p)->next)
    if (*p == code) {
      *p = code->next;
      return;
    }
}

/* Code no one will call again: its memory goes back (the exception
 * classes it named stay defined for the process). */
static void free_code(JitCode *code) {
  release_tracker(code->tracker);
  free(code->key.bytes);
  free(code);
}

/* Under J.shared_lock: shared code that no result holds any more stays
 * loaded, held by J.released, until as many other pieces of code have been
 * let go as J.released holds. The same function is often compiled for the
 * same types again soon after its dispatcher died: a closure or a function
 * defined anew on each call, the cases of a parametrised test (in the test
 * suite, one module in eleven was equal to one whose code its process had
 * freed before). The code J.released lets go of to make room, if no result took
 * it meanwhile, is returned to be freed. */
static JitCode *keep_released(JitCode *code) {
  JitCode *oldest = J.released[J.released_next];
  J.released[J.released_next] = code;
  J.released_next = (J.released_next + 1) % (sizeof J.released / sizeof J.released[0]);
  code->refs = 1;
  if (!oldest || --oldest->refs) return NULL;
  drop_shared(oldest);
  return oldest;
}

static void release_code(RtCode *base) {
  JitCode *code = (JitCode *)base, *unused = NULL;
  pthread_mutex_lock(&J.shared_lock);
  if (--code->refs == 0) unused = code->key.bytes ? keep_released(code) : code;
  pthread_mutex_unlock(&J.shared_lock);
  if (unused) free_code(unused);
}

/* ---------------------------------------------------------------- code shared by equal modules */

/* A process often compiles a module equal to one it compiled before: the
 * same function for the same types in another dispatcher (a function
 * defined again, a closure made anew; a fifth of the test suite's
 * modules). Optimising and emitting take nearly all of a compile's time,
 * so an equal module takes the code already loaded, for as long as some
 * result holds it or it is among the code last released. Equal means the same bitcode, compared whole: a
 * module naming an address (an object frozen at compile time) equals
 * only modules naming the same one. */
static uint64_t fnv1a(const char *p, size_t n) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
  return h;
}

static bool module_key(LLVMModuleRef m, const char *symbol, ModuleKey *key) {
  LLVMValueRef entry = LLVMGetNamedFunction(m, symbol);
  if (!entry) return false;
  LLVMSetValueName2(entry, "ruchey.entry", 12);
  LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
  LLVMSetValueName2(entry, symbol, strlen(symbol));
  if (!buf) return false;
  key->size = LLVMGetBufferSize(buf);
  if ((key->bytes = malloc(key->size))) {
    memcpy(key->bytes, LLVMGetBufferStart(buf), key->size);
    key->hash = fnv1a(key->bytes, key->size);
  }
  LLVMDisposeMemoryBuffer(buf);
  return key->bytes != NULL;
}

static bool same_module(const ModuleKey *a, const ModuleKey *b) {
  return a->hash == b->hash && a->size == b->size && !memcmp(a->bytes, b->bytes, a->size);
}

/* The code of an equal module, now held by res too. */
static bool take_shared(const ModuleKey *key, CompileResult *res) {
  pthread_mutex_lock(&J.shared_lock);
  JitCode *code = J.shared;
  while (code && !same_module(&code->key, key)) code = code->next;
  if (code) {
    code->refs++;
    res->entry = code->entry;
    res->code = code;
  }
  pthread_mutex_unlock(&J.shared_lock);
  return code != NULL;
}

/* res's fresh code, offered to the equal modules to come (it takes key's bytes). */
static void share_code(CompileResult *res, ModuleKey *key) {
  JitCode *code = res->code;
  pthread_mutex_lock(&J.shared_lock);
  code->key = *key;
  code->next = J.shared;
  J.shared = code;
  pthread_mutex_unlock(&J.shared_lock);
  key->bytes = NULL;
}

/* The objects the code names by symbol (exception classes) as absolute
 * symbols of the JIT, each defined once for the process. */
static LLVMErrorRef define_externs(const CompileResult *res) {
  pthread_mutex_lock(&J.externs_lock);
  SymbolBatch batch = {.n = 0};
  for (int i = 0; i < res->nexterns && !batch.err; i++) {
    bool known = false;
    for (size_t k = 0; k < J.nexterns && !known; k++) known = !strcmp(J.externs[k], res->externs[i].name);
    char **grown = known ? NULL : realloc(J.externs, sizeof(char *) * (J.nexterns + 1));
    if (!grown) continue;
    J.externs = grown;
    J.externs[J.nexterns++] = strdup(res->externs[i].name);
    add_symbol(res->externs[i].name, res->externs[i].addr, &batch);
  }
  define_batch(&batch);
  pthread_mutex_unlock(&J.externs_lock);
  return batch.err;
}

/* Adds the object to the JIT, under a resource tracker of its own (so that
 * release_code frees it when its dispatcher dies), and finds the entry
 * point's address. */
static bool load_object(LLVMMemoryBufferRef obj, const char *symbol, CompileResult *res, Diag *d) {
  LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(J.jit);
  LLVMOrcResourceTrackerRef rt = LLVMOrcJITDylibCreateResourceTracker(jd);
  char buf[512];
  LLVMErrorRef err = define_externs(res);
  if (!err) err = LLVMOrcLLJITAddObjectFileWithRT(J.jit, rt, obj);
  else LLVMDisposeMemoryBuffer(obj);
  LLVMOrcExecutorAddress addr = 0;
  if (!err) err = LLVMOrcLLJITLookup(J.jit, &addr, symbol);
  JitCode *code = err ? NULL : malloc(sizeof *code);
  if (!code) {
    release_tracker(rt);
    if (!err) return ll_fail(d, "%s", "out of memory loading compiled code");
    take_error(err, buf, sizeof buf);
    return ll_fail(d, "loading compiled code failed: %s", buf);
  }
  *code = (JitCode){{release_code}, rt, (int (*)(void *, void **))(uintptr_t)addr, 1};
  res->entry = code->entry;
  res->code = code;
  return true;
}

/* The entry's symbol: unique in this process, and for code kept for the
 * on-disk cache unique among processes too (another process may load it
 * beside code of its own). */
static void entry_symbol(const Func *f, OutputKind out, char *symbol, size_t n) {
  unsigned long k = __atomic_add_fetch(&J.counter, 1, __ATOMIC_RELAXED);
  if (out != OUT_JIT_KEEP) {
    snprintf(symbol, n, "%.100s.%lu", f->name, k);
    return;
  }
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  unsigned long long stamp = (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
  snprintf(symbol, n, "%.100s.k%llx.%x.%lu", f->name, stamp, (unsigned)getpid(), k);
}

/* The object file, copied for the cache before the JIT takes it. */
static bool keep_object(LLVMMemoryBufferRef buf, const char *symbol, CompileResult *res, Diag *d) {
  res->object_size = LLVMGetBufferSize(buf);
  res->object = malloc(res->object_size);
  res->symbol = strdup(symbol);
  if (res->object && res->symbol) {
    memcpy(res->object, LLVMGetBufferStart(buf), res->object_size);
    return true;
  }
  LLVMDisposeMemoryBuffer(buf);
  return ll_fail(d, "%s", "out of memory keeping compiled code");
}

/* The first error LLVM reports through a module's context while making its
 * code (inline asm an @intrinsic wrote that the assembler refuses). Without
 * a handler LLVM prints it and ends the process. */
typedef struct LlvmErrors {
  bool failed;
  char msg[400];
} LlvmErrors;

static void note_llvm_error(LLVMDiagnosticInfoRef info, void *context) {
  LlvmErrors *errors = context;
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError || errors->failed) return;  /* (warnings and remarks: not ours) */
  char *text = LLVMGetDiagInfoDescription(info);
  snprintf(errors->msg, sizeof errors->msg, "%s", text);
  LLVMDisposeMessage(text);
  errors->failed = true;
}

static bool no_llvm_error(const LlvmErrors *errors, Diag *d) {
  return !errors->failed || ll_fail(d, "LLVM code generation failed: %s", errors->msg);
}

/* The optimised module as out asks: text, or code loaded into the JIT,
 * generated by tm. */
static bool emit_output(LLVMModuleRef m, LLVMTargetMachineRef tm, OutputKind out, const char *symbol,
                        CompileResult *res, const LlvmErrors *errors, Diag *d) {
  if (out == OUT_LLVM_IR) {
    res->text = LLVMPrintModuleToString(m);
    return true;
  }
  if (out == OUT_ASM) return ll_emit_text(m, tm, &res->text, d) && no_llvm_error(errors, d);
  LLVMMemoryBufferRef buf = NULL;
  if (!ll_emit(m, tm, LLVMObjectFile, &buf, d)) return false;
  if (!no_llvm_error(errors, d)) {
    LLVMDisposeMemoryBuffer(buf);
    return false;
  }
  return (out != OUT_JIT_KEEP || keep_object(buf, symbol, res, d)) && load_object(buf, symbol, res, d);
}

/* The optimisation a module gets. Code without loops runs once a call from
 * Python: its time is the call's (about 100 ns), and O3 finds little in
 * it that O1 does not (the test suite's loop-free modules: 2% more
 * instructions after O1) while taking a third longer to run; the short
 * pipeline LL_STRAIGHT_LINE names finds as much as O1 in half O1's time,
 * and the fast code generator (straight_line_tm) emits it. Code C calls
 * per item or per thread (a @cfunc, a CUDA kernel or device function on
 * the CPU) and code with loops or recursion get O3 and the vectorisers. */
static LlPipeline pipeline_for(LLVMModuleRef m, const char *symbol, const CompileOptions *opts) {
  bool called_by_c = opts->c_entry || opts->reports_failure || opts->kernel || opts->device || opts->ufunc_loop;
  LLVMValueRef entry = LLVMGetNamedFunction(m, symbol);
  if (called_by_c || opts->parallel || !entry || ll_has_loops(m, entry)) return LL_O3_VECTORISE;
  return LL_STRAIGHT_LINE;
}

static bool generate(Func *f, const CompileOptions *opts, OutputKind out, CompileResult *res, Diag *d) {
  char symbol[192];
  entry_symbol(f, out, symbol, sizeof symbol);
  StepTimes times = {.last = compile_log ? thread_cpu_ms() : 0};
  LLVMContextRef c = LLVMContextCreate();
  LlvmErrors errors = {0};
  LLVMContextSetDiagnosticHandler(c, note_llvm_error, &errors);
  LLVMModuleRef m = ll_module(f, opts, c, symbol, res, host_tm(), J.triple);
  set_target_attributes(m);
  add_vector_math(m, opts);
  step_done(&times, STEP_LOWER, true);
  ModuleKey key = {NULL, 0, 0};
  bool ok = step_done(&times, STEP_KEY, out == OUT_JIT && module_key(m, symbol, &key) && take_shared(&key, res));
  const char *how = "shared";
  if (!ok) {
    if (compile_log) {  /* (the count is not the compile's) */
      times.instructions = count_instructions(m);
      times.last = thread_cpu_ms();
    }
    LlPipeline pipeline = pipeline_for(m, symbol, opts);
    LLVMTargetMachineRef tm = pipeline == LL_STRAIGHT_LINE ? straight_line_tm() : host_tm();
    how = pipeline_names[pipeline];
    ok = step_done(&times, STEP_CHECK, ll_verify(m, d)) &&
         step_done(&times, STEP_OPTIMISE, ll_optimise(m, host_tm(), pipeline, d)) &&
         step_done(&times, STEP_CODEGEN, emit_output(m, tm, out, symbol, res, &errors, d));
    if (ok && key.bytes) share_code(res, &key);
  }
  if (ok) log_compile(symbol, how, key.hash, &times);
  free(key.bytes);
  LLVMDisposeModule(m);
  LLVMContextDispose(c);
  return ok;
}

static bool jit_started(Diag *d) {
  pthread_once(&J.once, jit_start);
  return J.started || ll_fail(d, "LLVM could not start: %s", J.error);
}

static bool jit_infer(Func *f, const Type **argtypes, const CompileOptions *opts, Diag *d) {
  return jit_started(d) && ty_infer(f, argtypes, opts, d);
}

static bool jit_generate(Func *f, const CompileOptions *opts, OutputKind out, CompileResult *res, Diag *d) {
  memset(res, 0, sizeof *res);
  if (!jit_started(d)) return false;
  res->ret_type = f->ret_type;
  res->barrier = f->barrier;
  res->grid_sync = f->grid_sync;
  bool gpu = out == OUT_PTX || (out == OUT_LLVM_IR && opts->gpu_cc);
  return gpu ? ptx_generate(f, opts, out, res, d) : generate(f, opts, out, res, d);
}

static const char *host_cpu(void) {
  pthread_once(&J.once, jit_start);
  return J.cpu ? J.cpu : "unknown";
}

static const char *host_features(void) {
  pthread_once(&J.once, jit_start);
  return J.features ? J.features : "";
}

/* Code OUT_JIT_KEEP made, read back from the cache (a copy: the JIT owns
 * its buffer). A damaged object is refused by the JIT's loader. */
static bool load_cached(const void *object, size_t size, const char *symbol, CompileResult *res, Diag *d) {
  if (!jit_started(d)) return false;
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(object, size, symbol);
  return load_object(buf, symbol, res, d);
}

EXPORT const RucheyCompiler *ruchey_compiler(void) {
  static const RucheyCompiler api = {
    .version = RUCHEY_API_VERSION,
    .infer = jit_infer,
    .generate = jit_generate,
    .describe_analyses = an_describe,
    .unify = ty_unify,
    .builtin_at = bi_at,
    .host_cpu = host_cpu,
    .host_features = host_features,
    .load_object = load_cached,
  };
  return &api;
}
