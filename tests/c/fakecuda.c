/* fakecuda.c — a fake CUDA driver for the tests of core/cudadrv.c, built
 * and loaded by tests/test_cudadrv.py (RUCHEY_CUDA_DRIVER=<this .so>):
 *
 *   cc -std=c11 -O1 -shared -fPIC tests/c/fakecuda.c -o fakecuda.so
 *
 * One device ("ruchey fake GPU", compute capability 9.0, 132 SMs, 80 GiB).
 * Device memory is host memory, so copies round-trip. Module loads parse
 * the PTX's .entry parameter lists, so that each cuLaunchKernel can be
 * recorded with its parameters' bytes; the tests read the records through
 * the fake_* functions below. A kernel named fake_double "runs": it doubles
 * the float64 vector given as its first three parameters (data, shape,
 * stride), so results can be checked end to end.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
enum {
  OK = 0, INVALID_VALUE = 1, NOT_INITIALIZED = 3, NO_DEVICE = 100, INVALID_DEVICE = 101,
  INVALID_PTX = 218, INVALID_HANDLE = 400, NOT_FOUND = 500, NOT_READY = 600,
  COOPERATIVE_TOO_LARGE = 720,
};

#define MAX_PARAMS 128
#define MAX_LAUNCHES 1024

typedef struct Function {
  char name[128];
  int nparams;
  int sizes[MAX_PARAMS];
  int max_dynamic_shared;  /* opted in by cuFuncSetAttribute; 48 KiB without */
} Function;

#define SHARED_DEFAULT 49152
#define SHARED_OPTIN 232448  /* an H100's or H200's shared memory per block */

typedef struct Module {
  int nfunctions;
  Function functions[16];
} Module;

typedef struct Launch {
  char name[128];
  int cooperative;  /* by cuLaunchCooperativeKernel */
  unsigned grid[3], block[3], shared;
  uint64_t stream;
  int nparams;
  int sizes[MAX_PARAMS];
  unsigned char bytes[MAX_PARAMS * 8];
} Launch;

typedef struct Event {
  int timing, recorded;
  double ms;
} Event;

static int initialised;
static Launch launches[MAX_LAUNCHES];
static int nlaunches;
static long live_allocations, live_modules, live_streams, live_events;
static char fail_log[1024];
static int fail_loads;

/* ---------------------------------------------------------------- what the tests read */

int fake_launches(void) { return nlaunches; }
long fake_live_allocations(void) { return live_allocations; }
long fake_live_modules(void) { return live_modules; }
long fake_live_streams(void) { return live_streams; }
long fake_live_events(void) { return live_events; }

/* Launch i: its kernel's name, grid, block, dynamic shared bytes and stream. */
int fake_launch_info(int i, char *name, int cap, unsigned *grid, unsigned *block, unsigned *shared,
                     uint64_t *stream) {
  if (i < 0 || i >= nlaunches) return -1;
  Launch *l = &launches[i];
  snprintf(name, (size_t)cap, "%s", l->name);
  memcpy(grid, l->grid, sizeof l->grid);
  memcpy(block, l->block, sizeof l->block);
  *shared = l->shared;
  *stream = l->stream;
  return 0;
}

/* Whether launch i was cooperative. */
int fake_launch_cooperative(int i) { return i >= 0 && i < nlaunches ? launches[i].cooperative : -1; }

/* Launch i's parameters: their sizes and their bytes, one after another. */
int fake_launch_params(int i, int *sizes, unsigned char *bytes) {
  if (i < 0 || i >= nlaunches) return -1;
  Launch *l = &launches[i];
  int off = 0;
  for (int p = 0; p < l->nparams; p++) off += l->sizes[p];
  memcpy(sizes, l->sizes, sizeof(int) * (size_t)l->nparams);
  memcpy(bytes, l->bytes, (size_t)off);
  return l->nparams;
}

/* Makes module loads fail with this JIT log (NULL: succeed again). */
void fake_fail_module_loads(const char *log) {
  fail_loads = log != NULL;
  snprintf(fail_log, sizeof fail_log, "%s", log ? log : "");
}

/* ---------------------------------------------------------------- errors, devices */

CUresult cuGetErrorName(CUresult r, const char **s) {
  switch (r) {
  case OK: *s = "CUDA_SUCCESS"; return OK;
  case INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; return OK;
  case NO_DEVICE: *s = "CUDA_ERROR_NO_DEVICE"; return OK;
  case INVALID_DEVICE: *s = "CUDA_ERROR_INVALID_DEVICE"; return OK;
  case INVALID_PTX: *s = "CUDA_ERROR_INVALID_PTX"; return OK;
  case INVALID_HANDLE: *s = "CUDA_ERROR_INVALID_HANDLE"; return OK;
  case NOT_FOUND: *s = "CUDA_ERROR_NOT_FOUND"; return OK;
  case NOT_READY: *s = "CUDA_ERROR_NOT_READY"; return OK;
  case COOPERATIVE_TOO_LARGE: *s = "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"; return OK;
  default: *s = NULL; return INVALID_VALUE;
  }
}

CUresult cuGetErrorString(CUresult r, const char **s) {
  const char *name;
  if (cuGetErrorName(r, &name)) return INVALID_VALUE;
  *s = r == INVALID_PTX ? "a PTX JIT compilation failed" : "the fake driver says so";
  return OK;
}

CUresult cuInit(unsigned flags) {
  if (getenv("FAKECUDA_NO_DEVICE")) return NO_DEVICE;
  initialised = 1;
  return OK;
}

CUresult cuDriverGetVersion(int *v) {
  *v = 12080;
  return OK;
}

CUresult cuDeviceGetCount(int *n) {
  *n = initialised;
  return initialised ? OK : NOT_INITIALIZED;
}

CUresult cuDeviceGet(int *d, int ordinal) {
  if (ordinal != 0) return INVALID_DEVICE;
  *d = 0;
  return OK;
}

CUresult cuDeviceGetName(char *name, int len, int d) {
  snprintf(name, (size_t)len, "ruchey fake GPU");
  return d == 0 ? OK : INVALID_DEVICE;
}

CUresult cuDeviceGetAttribute(int *v, int attr, int d) {
  switch (attr) {
  case 1: case 2: case 3: *v = 1024; break;
  case 4: *v = 64; break;
  case 5: *v = 2147483647; break;
  case 6: case 7: *v = 65535; break;
  case 8: *v = 49152; break;
  case 10: *v = 32; break;
  case 16: *v = 132; break;
  case 31: case 41: *v = 1; break;
  case 40: *v = 3; break;
  case 33: *v = 7; break;
  case 34: *v = 0; break;
  case 75: *v = 9; break;
  case 76: *v = 0; break;
  case 97: *v = SHARED_OPTIN; break;
  default: return INVALID_VALUE;
  }
  return d == 0 ? OK : INVALID_DEVICE;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, int d) {
  *bytes = (size_t)80 << 30;
  return OK;
}

CUresult cuDevicePrimaryCtxRetain(void **ctx, int d) {
  *ctx = (void *)(uintptr_t)0xc0de;
  return initialised ? OK : NOT_INITIALIZED;
}

CUresult cuCtxSetCurrent(void *ctx) { return ctx == (void *)(uintptr_t)0xc0de ? OK : INVALID_VALUE; }
CUresult cuCtxSynchronize(void) { return OK; }

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
  *total = (size_t)80 << 30;
  *free_bytes = *total - (size_t)live_allocations;
  return OK;
}

/* ---------------------------------------------------------------- modules */

static int param_size(const char *type) {
  if (!strncmp(type, ".u64", 4) || !strncmp(type, ".b64", 4) || !strncmp(type, ".s64", 4) ||
      !strncmp(type, ".f64", 4))
    return 8;
  if (!strncmp(type, ".u32", 4) || !strncmp(type, ".b32", 4) || !strncmp(type, ".s32", 4) ||
      !strncmp(type, ".f32", 4))
    return 4;
  if (!strncmp(type, ".u16", 4) || !strncmp(type, ".b16", 4) || !strncmp(type, ".s16", 4))
    return 2;
  if (!strncmp(type, ".u8", 3) || !strncmp(type, ".b8", 3) || !strncmp(type, ".s8", 3)) return 1;
  return -1;
}

/* Reads ".entry name(\n .param .u64 name_param_0, ...)" of each kernel. */
static int parse_entries(const char *ptx, Module *m) {
  for (const char *p = strstr(ptx, ".entry "); p && m->nfunctions < 16; p = strstr(p + 1, ".entry ")) {
    Function *f = &m->functions[m->nfunctions++];
    p += 7;
    size_t n = strcspn(p, "( \n");
    snprintf(f->name, sizeof f->name, "%.*s", (int)n, p);
    const char *end = strchr(p, ')');
    if (!end) return -1;
    for (const char *q = strstr(p, ".param "); q && q < end; q = strstr(q + 1, ".param ")) {
      int size = param_size(q + 7);
      if (size < 0 || f->nparams == MAX_PARAMS) return -1;
      f->sizes[f->nparams++] = size;
    }
  }
  return m->nfunctions ? 0 : -1;
}

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *opts, void **vals) {
  char *log = NULL;
  size_t cap = 0;
  for (unsigned i = 0; i < n; i++) {
    if (opts[i] == 5) log = vals[i];
    if (opts[i] == 6) cap = (size_t)(uintptr_t)vals[i];
  }
  Module *m = calloc(1, sizeof(Module));
  if (fail_loads || parse_entries(image, m) < 0) {
    if (log && cap) snprintf(log, cap, "%s", fail_loads ? fail_log : "fakecuda: no .entry to read");
    free(m);
    return INVALID_PTX;
  }
  live_modules++;
  *module = m;
  return OK;
}

CUresult cuModuleGetFunction(void **f, void *module, const char *name) {
  Module *m = module;
  for (int i = 0; i < m->nfunctions; i++)
    if (!strcmp(m->functions[i].name, name)) {
      *f = &m->functions[i];
      return OK;
    }
  return NOT_FOUND;
}

CUresult cuModuleUnload(void *module) {
  free(module);
  live_modules--;
  return OK;
}

/* ---------------------------------------------------------------- launches */

/* CU_FUNC_ATTRIBUTE_*: made-up values, each its own (max threads, shared, const, local, registers) */
CUresult cuFuncGetAttribute(int *value, int attr, void *function) {
  static const int values[] = {1024, 4096, 64, 16, 40};
  if (!function || attr < 0 || attr > 4) return INVALID_VALUE;
  *value = values[attr];
  return OK;
}

CUresult cuFuncSetAttribute(void *function, int attr, int value) {
  Function *f = function;
  if (!f || attr != 8 || value < 0 || value > SHARED_OPTIN) return INVALID_VALUE;
  f->max_dynamic_shared = value;
  return OK;
}

static void run_fake_double(void **params) {
  char *data = *(char **)params[0];
  int64_t n = *(int64_t *)params[1], stride = *(int64_t *)params[2];
  for (int64_t i = 0; i < n; i++) *(double *)(data + i * stride) *= 2;
}

CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, void *stream, void **params,
                        void **extra) {
  Function *f = function;
  if (!f || !params || nlaunches == MAX_LAUNCHES) return INVALID_VALUE;
  if (shared > SHARED_DEFAULT && shared > (unsigned)f->max_dynamic_shared) return INVALID_VALUE;
  Launch *l = &launches[nlaunches++];
  snprintf(l->name, sizeof l->name, "%s", f->name);
  unsigned dims[6] = {gx, gy, gz, bx, by, bz};
  memcpy(l->grid, dims, sizeof l->grid);
  memcpy(l->block, dims + 3, sizeof l->block);
  l->shared = shared;
  l->stream = (uint64_t)(uintptr_t)stream;
  l->nparams = f->nparams;
  int off = 0;
  for (int p = 0; p < f->nparams; p++) {
    l->sizes[p] = f->sizes[p];
    memcpy(l->bytes + off, params[p], (size_t)f->sizes[p]);
    off += f->sizes[p];
  }
  if (!strcmp(f->name, "fake_double") && f->nparams >= 3) run_fake_double(params);
  return OK;
}

/* As many blocks as fit: 2048 threads per multiprocessor. */
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, void *function, int threads, size_t shared) {
  if (!function || threads < 1 || threads > 1024) return INVALID_VALUE;
  *blocks = 2048 / threads;
  return OK;
}

/* A launch whose blocks must all be resident at once (grid.sync()): too
 * many is CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, as the driver says. */
CUresult cuLaunchCooperativeKernel(void *function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                   unsigned by, unsigned bz, unsigned shared, void *stream, void **params) {
  int per_sm;
  if (cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, function, (int)(bx * by * bz), shared) != OK)
    return INVALID_VALUE;
  if ((uint64_t)gx * gy * gz > (uint64_t)per_sm * 132) return COOPERATIVE_TOO_LARGE;
  CUresult r = cuLaunchKernel(function, gx, gy, gz, bx, by, bz, shared, stream, params, NULL);
  if (r == OK) launches[nlaunches - 1].cooperative = 1;
  return r;
}

/* ---------------------------------------------------------------- memory */

CUresult cuMemAlloc_v2(uint64_t *p, size_t bytes) {
  void *mem = malloc(bytes);
  if (!mem) return 2;
  live_allocations++;
  *p = (uint64_t)(uintptr_t)mem;
  return OK;
}

CUresult cuMemFree_v2(uint64_t p) {
  free((void *)(uintptr_t)p);
  live_allocations--;
  return OK;
}

CUresult cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t bytes) {
  memcpy((void *)(uintptr_t)dst, src, bytes);
  return OK;
}

CUresult cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t bytes) {
  memcpy(dst, (void *)(uintptr_t)src, bytes);
  return OK;
}

CUresult cuMemcpyDtoD_v2(uint64_t dst, uint64_t src, size_t bytes) {
  memmove((void *)(uintptr_t)dst, (void *)(uintptr_t)src, bytes);
  return OK;
}

/* Copies queued on a stream: done at once, as the fake runs nothing
 * concurrently; counted, so that the tests see which copies were. */
static long async_copies;
long fake_async_copies(void) { return async_copies; }

CUresult cuMemcpyHtoDAsync_v2(uint64_t dst, const void *src, size_t bytes, void *stream) {
  async_copies++;
  return cuMemcpyHtoD_v2(dst, src, bytes);
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, uint64_t src, size_t bytes, void *stream) {
  async_copies++;
  return cuMemcpyDtoH_v2(dst, src, bytes);
}

/* Page-locked host memory (here plain host memory): pinned, or mapped for
 * the device at an address of its own (here the same one); managed memory
 * is device memory the host reads too. */
static long live_host_allocations;
long fake_live_host_allocations(void) { return live_host_allocations; }

CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags) {
  *p = malloc(bytes);
  if (!*p) return INVALID_VALUE;
  live_host_allocations++;
  return OK;
}

CUresult cuMemFreeHost(void *p) {
  free(p);
  live_host_allocations--;
  return OK;
}

CUresult cuMemHostGetDevicePointer_v2(uint64_t *d, void *p, unsigned flags) {
  *d = (uint64_t)(uintptr_t)p;
  return OK;
}

CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags) {
  live_host_allocations++;  /* (counted as an allocation: each must be unregistered) */
  return OK;
}

CUresult cuMemHostUnregister(void *p) {
  live_host_allocations--;
  return OK;
}

CUresult cuMemAllocManaged(uint64_t *p, size_t bytes, unsigned flags) {
  return cuMemAlloc_v2(p, bytes);
}

/* ---------------------------------------------------------------- streams, events */

CUresult cuStreamCreate(void **s, unsigned flags) {
  *s = malloc(1);
  live_streams++;
  return OK;
}

CUresult cuStreamDestroy_v2(void *s) {
  free(s);
  live_streams--;
  return OK;
}

CUresult cuStreamSynchronize(void *s) { return OK; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned flags) { return e ? OK : INVALID_HANDLE; }

CUresult cuEventCreate(void **e, unsigned flags) {
  Event *ev = calloc(1, sizeof(Event));
  ev->timing = !(flags & 2);
  live_events++;
  *e = ev;
  return OK;
}

CUresult cuEventDestroy_v2(void *e) {
  free(e);
  live_events--;
  return OK;
}

CUresult cuEventRecord(void *e, void *s) {
  Event *ev = e;
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  ev->recorded = 1;
  ev->ms = (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
  return OK;
}

CUresult cuEventSynchronize(void *e) { return OK; }
CUresult cuEventQuery(void *e) { return OK; }  /* done, recorded or not, as the driver says */

CUresult cuEventElapsedTime(float *ms, void *a, void *b) {
  Event *start = a, *end = b;
  if (!start->timing || !end->timing) return INVALID_HANDLE;
  if (!start->recorded || !end->recorded) return NOT_READY;
  *ms = (float)(end->ms - start->ms);
  return OK;
}
