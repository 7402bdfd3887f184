/* api.c — libruchey_rt's API table, what the extension loads first.
 *
 * The runtime, the types and the loader of cached code are here; the
 * compiler (libruchey, with LLVM inside: tens of megabytes, milliseconds
 * to load and start) is loaded on the first call of an entry that needs
 * it, so that importing ruchey and running code from the on-disk cache
 * never load LLVM.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>

#include "containers.h"
#include "rtstr.h"

#define EXPORT __attribute__((visibility("default")))

static struct {
  pthread_once_t once;
  const RucheyCompiler *api;
  char error[512];  /* why it did not load */
} C = {PTHREAD_ONCE_INIT};

/* libruchey, beside this library: its own copy of libruchey_rt is this one
 * (found by its soname), so both share the types and the runtime. */
static void load_compiler(void) {
  Dl_info info;
  char dir[4096], path[4200];
  if (!dladdr((void *)load_compiler, &info) || !info.dli_fname) {
    snprintf(C.error, sizeof C.error, "%s", "libruchey_rt cannot locate itself on disk");
    return;
  }
  snprintf(dir, sizeof dir, "%s", info.dli_fname);
  snprintf(path, sizeof path, "%s/libruchey.so", dirname(dir));
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  const RucheyCompiler *(*get)(void) = lib ? (const RucheyCompiler *(*)(void))dlsym(lib, "ruchey_compiler") : NULL;
  const RucheyCompiler *api = get ? get() : NULL;
  if (!lib) snprintf(C.error, sizeof C.error, "%s", dlerror());
  else if (!api || api->version != RUCHEY_API_VERSION)
    snprintf(C.error, sizeof C.error, "%.400s does not match libruchey_rt", path);
  else C.api = api;
}

static const RucheyCompiler *compiler(Diag *d) {
  pthread_once(&C.once, load_compiler);
  if (!C.api && d) {
    d->kind = DIAG_INTERNAL;
    snprintf(d->msg, sizeof d->msg, "ruchey cannot load its compiler: %s", C.error);
  }
  return C.api;
}

static bool infer(Func *f, const Type **argtypes, const CompileOptions *opts, Diag *d) {
  const RucheyCompiler *c = compiler(d);
  return c && c->infer(f, argtypes, opts, d);
}

static bool generate(Func *f, const CompileOptions *opts, OutputKind out, CompileResult *res, Diag *d) {
  const RucheyCompiler *c = compiler(d);
  return c && c->generate(f, opts, out, res, d);
}

static char *describe_analyses(Func *f, const CompileOptions *opts) {
  const RucheyCompiler *c = compiler(NULL);
  return c ? c->describe_analyses(f, opts) : NULL;
}

static const Type *unify(const Type *a, const Type *b) {
  const RucheyCompiler *c = compiler(NULL);
  return c ? c->unify(a, b) : NULL;
}

static const Builtin *builtin_at(int i) {
  const RucheyCompiler *c = compiler(NULL);
  return c ? c->builtin_at(i) : NULL;
}

static const char *host_cpu(void) {
  const RucheyCompiler *c = compiler(NULL);
  return c ? c->host_cpu() : "unknown";
}

static const char *host_features(void) {
  const RucheyCompiler *c = compiler(NULL);
  return c ? c->host_features() : "";
}

static const char *llvm_version(void) { return RUCHEY_LLVM_VERSION; }

/* host.c's identity of the processor, or where it has none LLVM's. */
static const char *host_identity(void) {
  static char llvm[8192];
  const char *id = rt_host_identity();
  if (id) return id;
  snprintf(llvm, sizeof llvm, "llvm:%s:%s", host_cpu(), host_features());
  return llvm;
}

/* Cached code: our own loader, else (an object it does not know) the JIT's. */
static bool load_object(const void *object, size_t size, const char *symbol, CompileResult *res, Diag *d) {
  RtLoad loaded = rt_load_object(object, size, symbol, res, d);
  if (loaded != RT_LOAD_NOT_KNOWN) return loaded == RT_LOADED;
  const RucheyCompiler *c = compiler(d);
  return c && c->load_object(object, size, symbol, res, d);
}

static void release_code(void *code) {
  RtCode *c = code;
  c->release(c);
}

EXPORT const RucheyAPI *ruchey_api(void) {
  static const RucheyAPI api = {
    .version = RUCHEY_API_VERSION,
    .plain = ty_plain,
    .array = ty_array,
    .tuple = ty_tuple,
    .optional = ty_optional,
    .builtin_at = builtin_at,
    .describe_analyses = describe_analyses,
    .unify = unify,
    .infer = infer,
    .generate = generate,
    .meminfo_release = rt_meminfo_release,
    .last_error = rt_last_error,
    .llvm_version = llvm_version,
    .host_cpu = host_cpu,
    .parallel_for = pool_parallel_for,
    .chunk_count = pool_chunk_count,
    .get_num_threads = pool_get_num_threads,
    .set_num_threads = pool_set_num_threads,
    .max_threads = pool_max_threads,
    .pool_sized = pool_sized,
    .thread_id = pool_thread_id,
    .set_print_sink = rt_set_print_sink,
    .release_code = release_code,
    .blas_names = la_blas_names,
    .lapack_names = la_lapack_names,
    .set_routine = rt_set_routine,
    .set_linalg_error = rt_set_linalg_error,
    .stack_limit = rt_stack_limit,
    .numpy_version = &rt_numpy_version,
    .watch_interrupts = rt_watch_interrupts,
    .interrupted = &rt_interrupted,
    .function = ty_function,
    .time = ty_time,
    .dtype = ty_dtype,
    .unit_name = ty_unit_name,
    .set_exception_matcher = rt_set_exception_matcher,
    .load_object = load_object,
    .host_features = host_features,
    .list = ty_list,
    .dict = ty_dict,
    .record = ty_record,
    .record_subtype = ty_record_subtype,
    .named_tuple = ty_named_tuple,
    .set_objmode_caller = rt_set_objmode_caller,
    .set = ty_set_of,
    .host_identity = host_identity,
    .set_cfunc_failure = rt_set_cfunc_failure,
    .set_warning_caller = rt_set_warning_caller,
    .jitclass_declare = ty_jitclass_declare,
    .jitclass_define = ty_jitclass_define,
    .set_object_keeper = rt_set_object_keeper,
    .set_str_hash = rt_set_str_hash,
    .charseq = ty_charseq,
    .byteseq = ty_byteseq,
    .slice = ty_slice,
    .funcptr = ty_funcptr,
    .enum_member = ty_enum,
    .buffer = ty_buffer,
    .funcs = ty_funcs,
    .set_chunksize = pool_set_chunksize,
    .get_chunksize = pool_get_chunksize,
    .set_gil_hooks = pool_set_gil_hooks,
    .dict_view = ty_dict_view,
    .set_memory_hooks = rt_set_memory_hooks,
    .set_raise_boxer = rt_set_raise_boxer,
  };
  return &api;
}
