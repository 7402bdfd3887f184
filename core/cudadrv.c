/* cudadrv.c — the CUDA driver API, loaded with dlopen on first use.
 *
 * ruchey builds and imports without CUDA: nothing here runs until a GPU is
 * asked for. $RUCHEY_CUDA_DRIVER names another driver library to load
 * instead of libcuda.so.1 (the tests point it at a fake one). Each device is
 * used through its primary context, made current on every thread that
 * calls in. Errors become ruchey._core.CudaError naming the call, the
 * driver's error name and its description.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>

#include "core.h"

#include <structmember.h>

typedef int CUresult;
typedef int CUdevice;
typedef uint64_t CUdeviceptr;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;

enum {
  CUDA_ERROR_NOT_READY = 600,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_EVENT_DISABLE_TIMING = 2,
};

/* The entry points ruchey calls, with the names of their current versions. */
static struct {
  CUresult (*Init)(unsigned flags);
  CUresult (*GetErrorName)(CUresult r, const char **s);
  CUresult (*GetErrorString)(CUresult r, const char **s);
  CUresult (*DriverGetVersion)(int *v);
  CUresult (*DeviceGetCount)(int *n);
  CUresult (*DeviceGet)(CUdevice *d, int ordinal);
  CUresult (*DeviceGetName)(char *name, int len, CUdevice d);
  CUresult (*DeviceGetAttribute)(int *v, int attr, CUdevice d);
  CUresult (*DeviceTotalMem)(size_t *bytes, CUdevice d);
  CUresult (*DevicePrimaryCtxRetain)(CUcontext *c, CUdevice d);
  CUresult (*CtxSetCurrent)(CUcontext c);
  CUresult (*CtxSynchronize)(void);
  CUresult (*MemGetInfo)(size_t *free, size_t *total);
  CUresult (*ModuleLoadDataEx)(CUmodule *m, const void *image, unsigned n, int *opts, void **vals);
  CUresult (*ModuleGetFunction)(CUfunction *f, CUmodule m, const char *name);
  CUresult (*ModuleUnload)(CUmodule m);
  CUresult (*FuncSetAttribute)(CUfunction f, int attr, int value);
  CUresult (*FuncGetAttribute)(int *value, int attr, CUfunction f);
  CUresult (*LaunchKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                           unsigned by, unsigned bz, unsigned shared, CUstream s, void **params,
                           void **extra);
  CUresult (*LaunchCooperativeKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                      unsigned by, unsigned bz, unsigned shared, CUstream s, void **params);
  CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *blocks, CUfunction f, int threads, size_t shared);
  CUresult (*MemAlloc)(CUdeviceptr *p, size_t bytes);
  CUresult (*MemFree)(CUdeviceptr p);
  CUresult (*MemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
  CUresult (*MemcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
  CUresult (*MemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
  CUresult (*MemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t bytes, CUstream s);
  CUresult (*MemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t bytes, CUstream s);
  CUresult (*MemHostAlloc)(void **p, size_t bytes, unsigned flags);
  CUresult (*MemFreeHost)(void *p);
  CUresult (*MemHostGetDevicePointer)(CUdeviceptr *d, void *p, unsigned flags);
  CUresult (*MemHostRegister)(void *p, size_t bytes, unsigned flags);
  CUresult (*MemHostUnregister)(void *p);
  CUresult (*MemAllocManaged)(CUdeviceptr *p, size_t bytes, unsigned flags);
  CUresult (*StreamCreate)(CUstream *s, unsigned flags);
  CUresult (*StreamDestroy)(CUstream s);
  CUresult (*StreamSynchronize)(CUstream s);
  CUresult (*StreamWaitEvent)(CUstream s, CUevent e, unsigned flags);
  CUresult (*EventCreate)(CUevent *e, unsigned flags);
  CUresult (*EventDestroy)(CUevent e);
  CUresult (*EventRecord)(CUevent e, CUstream s);
  CUresult (*EventSynchronize)(CUevent e);
  CUresult (*EventQuery)(CUevent e);
  CUresult (*EventElapsedTime)(float *ms, CUevent start, CUevent end);
} cu;

#define ENTRY(field, name) {name, (void **)&cu.field}
static const struct { const char *name; void **slot; } entries[] = {
  ENTRY(Init, "cuInit"), ENTRY(GetErrorName, "cuGetErrorName"),
  ENTRY(GetErrorString, "cuGetErrorString"), ENTRY(DriverGetVersion, "cuDriverGetVersion"),
  ENTRY(DeviceGetCount, "cuDeviceGetCount"), ENTRY(DeviceGet, "cuDeviceGet"),
  ENTRY(DeviceGetName, "cuDeviceGetName"), ENTRY(DeviceGetAttribute, "cuDeviceGetAttribute"),
  ENTRY(DeviceTotalMem, "cuDeviceTotalMem_v2"),
  ENTRY(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
  ENTRY(CtxSetCurrent, "cuCtxSetCurrent"), ENTRY(CtxSynchronize, "cuCtxSynchronize"),
  ENTRY(MemGetInfo, "cuMemGetInfo_v2"), ENTRY(ModuleLoadDataEx, "cuModuleLoadDataEx"),
  ENTRY(ModuleGetFunction, "cuModuleGetFunction"), ENTRY(ModuleUnload, "cuModuleUnload"),
  ENTRY(FuncSetAttribute, "cuFuncSetAttribute"), ENTRY(FuncGetAttribute, "cuFuncGetAttribute"),
  ENTRY(LaunchKernel, "cuLaunchKernel"), ENTRY(LaunchCooperativeKernel, "cuLaunchCooperativeKernel"),
  ENTRY(OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor"),
  ENTRY(MemAlloc, "cuMemAlloc_v2"),
  ENTRY(MemFree, "cuMemFree_v2"), ENTRY(MemcpyHtoD, "cuMemcpyHtoD_v2"),
  ENTRY(MemcpyDtoH, "cuMemcpyDtoH_v2"), ENTRY(MemcpyDtoD, "cuMemcpyDtoD_v2"),
  ENTRY(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"), ENTRY(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
  ENTRY(MemHostAlloc, "cuMemHostAlloc"), ENTRY(MemFreeHost, "cuMemFreeHost"),
  ENTRY(MemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2"), ENTRY(MemAllocManaged, "cuMemAllocManaged"),
  ENTRY(MemHostRegister, "cuMemHostRegister_v2"), ENTRY(MemHostUnregister, "cuMemHostUnregister"),
  ENTRY(StreamCreate, "cuStreamCreate"), ENTRY(StreamDestroy, "cuStreamDestroy_v2"),
  ENTRY(StreamSynchronize, "cuStreamSynchronize"), ENTRY(StreamWaitEvent, "cuStreamWaitEvent"),
  ENTRY(EventCreate, "cuEventCreate"), ENTRY(EventDestroy, "cuEventDestroy_v2"),
  ENTRY(EventRecord, "cuEventRecord"), ENTRY(EventSynchronize, "cuEventSynchronize"),
  ENTRY(EventQuery, "cuEventQuery"), ENTRY(EventElapsedTime, "cuEventElapsedTime"),
};

static PyObject *CudaError;
static void *driver_lib;  /* the driver library, once loaded */
static enum { DRV_UNTRIED, DRV_READY, DRV_FAILED } driver_state;
static char driver_problem[1024];  /* why the driver cannot be used */

/* The device in use and its primary context, made current on each thread
 * as it first calls in (a context is current per thread). */
static int current_ordinal = -1;
static CUcontext current_ctx;
static int current_cc;
static _Thread_local CUcontext bound_ctx;

static bool cu_check(CUresult r, const char *call) {
  if (r == 0) return true;
  const char *name = NULL, *text = NULL;
  if (cu.GetErrorName) cu.GetErrorName(r, &name);
  if (cu.GetErrorString) cu.GetErrorString(r, &text);
  PyErr_Format(CudaError, "%s failed: %s (%d): %s", call, name ? name : "CUDA_ERROR_UNKNOWN", r,
               text ? text : "unknown error");
  return false;
}

static bool driver_failed(const char *fmt, const char *a, const char *b) {
  snprintf(driver_problem, sizeof driver_problem, fmt, a, b);
  driver_state = DRV_FAILED;
  PyErr_SetString(CudaError, driver_problem);
  return false;
}

/* Loads the driver library and initialises it, once. */
static bool cu_driver(void) {
  if (driver_state == DRV_READY) return true;
  if (driver_state == DRV_FAILED) {
    PyErr_SetString(CudaError, driver_problem);
    return false;
  }
  const char *path = getenv("RUCHEY_CUDA_DRIVER");
  if (!path || !*path) path = "libcuda.so.1";
  void *lib = driver_lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return driver_failed("the CUDA driver (%s) cannot be loaded: %s", path, dlerror());
  for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
    if (!(*entries[i].slot = dlsym(lib, entries[i].name)))
      return driver_failed("the CUDA driver %s has no %s: it is too old", path, entries[i].name);
  CUresult r = cu.Init(0);
  if (r) {
    const char *name = NULL;
    cu.GetErrorName(r, &name);
    return driver_failed("the CUDA driver did not start (cuInit: %s) %s", name ? name : "error",
                         "- is a GPU present and its kernel module loaded?");
  }
  driver_state = DRV_READY;
  return true;
}

static bool cu_select_ordinal(int ordinal) {
  if (!cu_driver()) return false;
  int n = 0;
  if (!cu_check(cu.DeviceGetCount(&n), "cuDeviceGetCount")) return false;
  if (ordinal < 0 || ordinal >= n) {
    PyErr_Format(CudaError, "there is no CUDA device %d (%d found)", ordinal, n);
    return false;
  }
  CUdevice dev;
  CUcontext ctx;
  int major = 0, minor = 0;
  if (!cu_check(cu.DeviceGet(&dev, ordinal), "cuDeviceGet") ||
      !cu_check(cu.DevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain") ||
      !cu_check(cu.DeviceGetAttribute(&major, 75, dev), "cuDeviceGetAttribute") ||
      !cu_check(cu.DeviceGetAttribute(&minor, 76, dev), "cuDeviceGetAttribute") ||
      !cu_check(cu.CtxSetCurrent(ctx), "cuCtxSetCurrent"))
    return false;
  current_ordinal = ordinal;
  current_ctx = bound_ctx = ctx;
  current_cc = major * 10 + minor;
  return true;
}

bool cu_ready(void) {
  if (current_ordinal < 0) return cu_select_ordinal(0);
  if (bound_ctx != current_ctx) {
    if (!cu_check(cu.CtxSetCurrent(current_ctx), "cuCtxSetCurrent")) return false;
    bound_ctx = current_ctx;
  }
  return true;
}

int cu_current_device(void) { return current_ordinal; }
int cu_current_cc(void) { return current_cc; }

void *cu_load_kernel(const char *ptx, const char *name, void **module) {
  if (!cu_ready()) return NULL;
  char log[8192] = "";
  int opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[2] = {log, (void *)(uintptr_t)sizeof log};
  CUmodule m;
  CUresult r = cu.ModuleLoadDataEx(&m, ptx, 2, opts, vals);
  if (r) {
    const char *err = NULL;
    cu.GetErrorName(r, &err);
    PyErr_Format(CudaError, "the CUDA driver could not load the PTX of kernel '%s' (%s):\n%s", name,
                 err ? err : "error", log[0] ? log : "(no log)");
    return NULL;
  }
  CUfunction f;
  if (!cu_check(cu.ModuleGetFunction(&f, m, name), "cuModuleGetFunction")) {
    cu.ModuleUnload(m);
    return NULL;
  }
  *module = m;
  return f;
}

void cu_unload(void *module) {
  if (driver_state == DRV_READY && module) cu.ModuleUnload(module);
}

/* Beyond 48 KiB of dynamic shared memory a kernel must opt in, up to what
 * the device allows a block (227 KiB on Hopper), as CUDA C does with
 * cudaFuncSetAttribute; ruchey opts in at the launch that asks. */
#define SHARED_WITHOUT_OPT_IN 49152
#define CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES 8
#define CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN 97

static bool allow_dynamic_shared(void *function, int64_t shared) {
  if (shared <= SHARED_WITHOUT_OPT_IN) return true;
  if (shared <= INT_MAX &&
      !cu.FuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)shared))
    return true;
  int most = 0;
  CUdevice dev;
  if (cu.DeviceGet(&dev, current_ordinal) ||
      cu.DeviceGetAttribute(&most, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev))
    most = SHARED_WITHOUT_OPT_IN;
  PyErr_Format(CudaError, "the launch asks for %lld bytes of dynamic shared memory; a block of "
               "this kernel may have at most %d bytes of shared memory on this device, its "
               "static shared arrays included", (long long)shared, most);
  return false;
}

bool cu_launch(void *function, const int64_t grid[3], const int64_t block[3], int64_t shared,
               uintptr_t stream, void **params, bool cooperative) {
  if (!cu_ready() || !allow_dynamic_shared(function, shared)) return false;
  if (cooperative)  /* every block resident at once, or CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE */
    return cu_check(cu.LaunchCooperativeKernel(function, (unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2],
                                               (unsigned)block[0], (unsigned)block[1], (unsigned)block[2],
                                               (unsigned)shared, (CUstream)stream, params),
                    "cuLaunchCooperativeKernel");
  return cu_check(cu.LaunchKernel(function, (unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2],
                                  (unsigned)block[0], (unsigned)block[1], (unsigned)block[2],
                                  (unsigned)shared, (CUstream)stream, params, NULL),
                  "cuLaunchKernel");
}

/* How many blocks of threads threads (and shared bytes of dynamic shared
 * memory) can be resident at once on the device: per multiprocessor, times
 * its multiprocessors. -1 with an exception on failure. */
int64_t cu_max_resident_blocks(void *function, int64_t threads, int64_t shared) {
  int per_sm = 0, sms = 0;
  CUdevice dev;
  if (!cu_ready() ||
      !cu_check(cu.OccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, function, (int)threads, (size_t)shared),
                "cuOccupancyMaxActiveBlocksPerMultiprocessor") ||
      !cu_check(cu.DeviceGet(&dev, current_ordinal), "cuDeviceGet") ||
      !cu_check(cu.DeviceGetAttribute(&sms, 16, dev), "cuDeviceGetAttribute"))  /* MULTIPROCESSOR_COUNT */
    return -1;
  return (int64_t)per_sm * sms;
}

/* One of the driver's attributes of a loaded kernel (CU_FUNC_ATTRIBUTE_*:
 * its registers, static shared, constant and local bytes, most threads per
 * block); -1 with the error set. */
int64_t cu_function_attribute(void *function, int attr) {
  int value = 0;
  if (!cu_ready() || !cu_check(cu.FuncGetAttribute(&value, attr, function), "cuFuncGetAttribute")) return -1;
  return value;
}

/* ---------------------------------------------------------------- device memory */

/* Device memory owned by a Python object: freed when the last device array
 * using it dies. Page-locked host memory the driver allocates (pinned,
 * mapped into the device's address space, or managed: one address for
 * both) is one too, its host side read through the buffer protocol. */
/* MEM_REGISTERED: host memory its owner (a NumPy array) holds, mapped into the GPU's for a while (cuda.mapped) */
typedef enum { MEM_DEVICE, MEM_PINNED, MEM_MAPPED, MEM_MANAGED, MEM_REGISTERED } MemKind;

typedef struct {
  PyObject_HEAD
  CUdeviceptr ptr;
  Py_ssize_t size;
  PyObject *owner;  /* memory another library allocated: kept alive, never freed here */
  MemKind kind;
  void *host;       /* the host's address of it (NULL for device memory) */
} DeviceMemory;

/* DeviceMemory(nbytes) allocates; DeviceMemory(nbytes, ptr, owner) stands
 * for memory that owner (a CuPy array, a PyTorch tensor, ...) holds. */
static PyObject *devmem_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
  Py_ssize_t size;
  unsigned long long ptr = 0;
  PyObject *owner = NULL;
  if (!PyArg_ParseTuple(args, "n|KO", &size, &ptr, &owner)) return NULL;
  if (size < 0) return PyErr_Format(PyExc_ValueError, "negative allocation size");
  if (PyTuple_GET_SIZE(args) == 2) return PyErr_Format(PyExc_TypeError, "foreign memory needs its owner");
  if (!cu_ready()) return NULL;
  DeviceMemory *self = (DeviceMemory *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->size = size;
  if (owner) {
    self->ptr = ptr;
    self->owner = Py_NewRef(owner);
    return (PyObject *)self;
  }
  /* a real allocation even for empty arrays: every array has an address */
  if (!cu_check(cu.MemAlloc(&self->ptr, size ? (size_t)size : 1), "cuMemAlloc")) {
    self->ptr = 0;
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject *)self;
}

/* Registered host memory no longer mapped into the GPU's (once). */
static bool unregister_host(DeviceMemory *self) {
  void *host = self->host;
  self->host = NULL, self->ptr = 0;
  return !host || !cu_ready() || cu_check(cu.MemHostUnregister(host), "cuMemHostUnregister");
}

static void devmem_dealloc(DeviceMemory *self) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);  /* it may die while an exception propagates */
  if (self->kind == MEM_REGISTERED && !unregister_host(self)) PyErr_Clear();
  if (self->owner)
    Py_DECREF(self->owner);
  else if ((self->kind == MEM_PINNED || self->kind == MEM_MAPPED) && self->host && cu_ready())
    cu.MemFreeHost(self->host);
  else if (self->ptr && cu_ready())
    cu.MemFree(self->ptr);
  PyErr_Restore(type, value, tb);   /* a driver already shut down has freed it */
  Py_TYPE(self)->tp_free(self);
}

/* The host's side of pinned, mapped and managed memory, as bytes. */
static int devmem_getbuffer(DeviceMemory *self, Py_buffer *view, int flags) {
  if (!self->host) {
    PyErr_SetString(PyExc_BufferError, "device memory has no host address");
    return -1;
  }
  return PyBuffer_FillInfo(view, (PyObject *)self, self->host, self->size, 0, flags);
}

static PyBufferProcs devmem_buffer = {.bf_getbuffer = (getbufferproc)devmem_getbuffer};

/* host_alloc(nbytes, kind): pinned (1), mapped (2) or managed (3) memory. */
static PyObject *py_host_alloc(PyObject *m, PyObject *args) {
  Py_ssize_t size;
  int kind;
  if (!PyArg_ParseTuple(args, "ni", &size, &kind) || !cu_ready()) return NULL;
  if (size < 0 || kind < MEM_PINNED || kind > MEM_MANAGED) return PyErr_Format(PyExc_ValueError, "bad host allocation");
  DeviceMemory *self = (DeviceMemory *)DeviceMemoryType.tp_alloc(&DeviceMemoryType, 0);
  if (!self) return NULL;
  self->size = size;
  self->kind = (MemKind)kind;
  size_t bytes = size ? (size_t)size : 1;
  bool ok;
  if (kind == MEM_MANAGED) {
    ok = cu_check(cu.MemAllocManaged(&self->ptr, bytes, 1 /* CU_MEM_ATTACH_GLOBAL */), "cuMemAllocManaged");
    self->host = ok ? (void *)(uintptr_t)self->ptr : NULL;
  } else {
    unsigned flags = kind == MEM_MAPPED ? 2 /* CU_MEMHOSTALLOC_DEVICEMAP */ : 0;
    ok = cu_check(cu.MemHostAlloc(&self->host, bytes, flags), "cuMemHostAlloc");
    if (ok && kind == MEM_MAPPED)
      ok = cu_check(cu.MemHostGetDevicePointer(&self->ptr, self->host, 0), "cuMemHostGetDevicePointer");
  }
  if (!ok) {
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject *)self;
}

/* host_register(address, nbytes, owner): the host memory owner holds at
 * address, mapped into the GPU's until release() (or the object's end). */
static PyObject *py_host_register(PyObject *m, PyObject *args) {
  unsigned long long address;
  Py_ssize_t size;
  PyObject *owner;
  if (!PyArg_ParseTuple(args, "KnO", &address, &size, &owner) || !cu_ready()) return NULL;
  if (size < 0) return PyErr_Format(PyExc_ValueError, "negative size");
  DeviceMemory *self = (DeviceMemory *)DeviceMemoryType.tp_alloc(&DeviceMemoryType, 0);
  if (!self) return NULL;
  self->size = size;
  self->kind = MEM_REGISTERED;
  self->owner = Py_NewRef(owner);
  void *host = (void *)(uintptr_t)address;
  if (!cu_check(cu.MemHostRegister(host, size ? (size_t)size : 1, 2 /* CU_MEMHOSTREGISTER_DEVICEMAP */),
                "cuMemHostRegister")) {
    Py_DECREF(self);
    return NULL;
  }
  self->host = host;
  if (!cu_check(cu.MemHostGetDevicePointer(&self->ptr, host, 0), "cuMemHostGetDevicePointer")) {
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject *)self;
}

/* release(): registered host memory no longer mapped into the GPU's, now
 * (the arrays over it must not be used after); nothing for other memory. */
static PyObject *devmem_release(DeviceMemory *self, PyObject *unused) {
  if (self->kind == MEM_REGISTERED && !unregister_host(self)) return NULL;
  Py_RETURN_NONE;
}

static PyMethodDef devmem_methods[] = {
  {"release", (PyCFunction)devmem_release, METH_NOARGS,
   "Registered host memory (cuda.mapped) unmapped from the GPU now; nothing for other memory."},
  {NULL, NULL, 0, NULL},
};

static PyMemberDef devmem_members[] = {
  {"ptr", T_ULONGLONG, offsetof(DeviceMemory, ptr), READONLY, "The device address."},
  {"size", T_PYSSIZET, offsetof(DeviceMemory, size), READONLY, "The size in bytes."},
  {"owner", T_OBJECT, offsetof(DeviceMemory, owner), READONLY,
   "The object holding foreign memory, or None for memory allocated here."},
  {"host", T_ULONGLONG, offsetof(DeviceMemory, host), READONLY,
   "The host's address of pinned, mapped or managed memory (0 for device memory)."},
  {NULL, 0, 0, 0, NULL},
};

PyTypeObject DeviceMemoryType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ruchey._core.DeviceMemory",
  .tp_basicsize = sizeof(DeviceMemory),
  .tp_dealloc = (destructor)devmem_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "DeviceMemory(nbytes): memory on the current CUDA device, freed with the object;\n"
            "DeviceMemory(nbytes, ptr, owner): memory that owner holds, kept alive by this object.",
  .tp_members = devmem_members,
  .tp_methods = devmem_methods,
  .tp_new = devmem_new,
  .tp_as_buffer = &devmem_buffer,
};

/* ---------------------------------------------------------------- module functions */

static PyObject *cu_none(bool ok) { return ok ? Py_NewRef(Py_None) : NULL; }

/* $RUCHEY_CUDA_BACKEND, read at each launch: the C library's environment,
 * which os.environ writes through, costs a tenth of os.environ's lookup. */
static PyObject *py_backend_variable(PyObject *m, PyObject *unused) {
  const char *value = getenv("RUCHEY_CUDA_BACKEND");
  return PyUnicode_DecodeFSDefault(value ? value : "");
}

static PyObject *py_driver(PyObject *m, PyObject *unused) {
  int version = 0;
  if (!cu_driver() || !cu_check(cu.DriverGetVersion(&version), "cuDriverGetVersion")) return NULL;
  return PyLong_FromLong(version);
}

static PyObject *py_device_count(PyObject *m, PyObject *unused) {
  int n = 0;
  if (!cu_driver() || !cu_check(cu.DeviceGetCount(&n), "cuDeviceGetCount")) return NULL;
  return PyLong_FromLong(n);
}

/* The attributes numba-cuda's Device has, by their driver numbers. */
static const struct { const char *name; int attr; } attributes[] = {
  {"MAX_THREADS_PER_BLOCK", 1}, {"MAX_BLOCK_DIM_X", 2}, {"MAX_BLOCK_DIM_Y", 3},
  {"MAX_BLOCK_DIM_Z", 4}, {"MAX_GRID_DIM_X", 5}, {"MAX_GRID_DIM_Y", 6}, {"MAX_GRID_DIM_Z", 7},
  {"MAX_SHARED_MEMORY_PER_BLOCK", 8}, {"WARP_SIZE", 10}, {"MULTIPROCESSOR_COUNT", 16},
  {"PCI_BUS_ID", 33}, {"PCI_DEVICE_ID", 34},
  /* what code sizes its pools of streams by (frbb's boosting) */
  {"CONCURRENT_KERNELS", 31}, {"ASYNC_ENGINE_COUNT", 40}, {"UNIFIED_ADDRESSING", 41},
};

/* device_info(ordinal): a dict of the device's name, compute capability,
 * total memory and attributes. */
static PyObject *py_device_info(PyObject *m, PyObject *arg) {
  int ordinal = PyLong_AsLong(arg);
  if (ordinal == -1 && PyErr_Occurred()) return NULL;
  CUdevice dev;
  char name[256] = "";
  size_t total = 0;
  int major = 0, minor = 0;
  if (!cu_driver() || !cu_check(cu.DeviceGet(&dev, ordinal), "cuDeviceGet") ||
      !cu_check(cu.DeviceGetName(name, sizeof name, dev), "cuDeviceGetName") ||
      !cu_check(cu.DeviceTotalMem(&total, dev), "cuDeviceTotalMem") ||
      !cu_check(cu.DeviceGetAttribute(&major, 75, dev), "cuDeviceGetAttribute") ||
      !cu_check(cu.DeviceGetAttribute(&minor, 76, dev), "cuDeviceGetAttribute"))
    return NULL;
  PyObject *d = Py_BuildValue("{s:s,s:(ii),s:K}", "name", name, "compute_capability", major, minor,
                              "total_memory", (unsigned long long)total);
  for (size_t i = 0; d && i < sizeof attributes / sizeof attributes[0]; i++) {
    int v = 0;
    PyObject *value = cu_check(cu.DeviceGetAttribute(&v, attributes[i].attr, dev), "cuDeviceGetAttribute")
                          ? PyLong_FromLong(v) : NULL;
    if (!value || PyDict_SetItemString(d, attributes[i].name, value) < 0) Py_CLEAR(d);
    Py_XDECREF(value);
  }
  return d;
}

static PyObject *py_select_device(PyObject *m, PyObject *arg) {
  int ordinal = PyLong_AsLong(arg);
  if (ordinal == -1 && PyErr_Occurred()) return NULL;
  return cu_none(cu_select_ordinal(ordinal));
}

static PyObject *py_current_device(PyObject *m, PyObject *unused) {
  if (!cu_ready()) return NULL;
  return PyLong_FromLong(current_ordinal);
}

static PyObject *py_synchronize(PyObject *m, PyObject *unused) {
  if (!cu_ready()) return NULL;
  CUresult r;
  Py_BEGIN_ALLOW_THREADS
  r = cu.CtxSynchronize();
  Py_END_ALLOW_THREADS
  return cu_none(cu_check(r, "cuCtxSynchronize"));
}

static PyObject *py_mem_info(PyObject *m, PyObject *unused) {
  size_t free_bytes = 0, total = 0;
  if (!cu_ready() || !cu_check(cu.MemGetInfo(&free_bytes, &total), "cuMemGetInfo")) return NULL;
  return Py_BuildValue("(KK)", (unsigned long long)free_bytes, (unsigned long long)total);
}

/* memcpy_htod(dst, host, nbytes[, stream]) / memcpy_dtoh(host, src,
 * nbytes[, stream]): host is a contiguous buffer of at least nbytes
 * (writable for dtoh), its bytes copied in memory order. On a stream (not
 * 0) the copy is queued there: with page-locked host memory the call
 * returns before it is done, as CUDA's asynchronous copies do. */
static PyObject *memcpy_host(PyObject *const *args, Py_ssize_t n, bool to_device) {
  if (n != 3 && n != 4) return PyErr_Format(PyExc_TypeError, "memcpy takes 3 or 4 arguments");
  unsigned long long dev = PyLong_AsUnsignedLongLong(args[to_device ? 0 : 1]);
  Py_ssize_t bytes = PyLong_AsSsize_t(args[2]);
  CUstream stream = n == 4 ? (CUstream)(uintptr_t)PyLong_AsUnsignedLongLong(args[3]) : NULL;
  if (PyErr_Occurred()) return NULL;
  Py_buffer view;
  int flags = PyBUF_ANY_CONTIGUOUS | (to_device ? 0 : PyBUF_WRITABLE);  /* C or Fortran order */
  if (PyObject_GetBuffer(args[to_device ? 1 : 0], &view, flags) < 0)
    return NULL;
  bool ok = bytes >= 0 && bytes <= view.len;
  if (!ok) PyErr_Format(PyExc_ValueError, "copy of %zd bytes with a host buffer of %zd", bytes, view.len);
  ok = ok && cu_ready();
  if (ok && bytes) {
    CUresult r;
    Py_BEGIN_ALLOW_THREADS
    if (stream)
      r = to_device ? cu.MemcpyHtoDAsync(dev, view.buf, (size_t)bytes, stream)
                    : cu.MemcpyDtoHAsync(view.buf, dev, (size_t)bytes, stream);
    else
      r = to_device ? cu.MemcpyHtoD(dev, view.buf, (size_t)bytes) : cu.MemcpyDtoH(view.buf, dev, (size_t)bytes);
    Py_END_ALLOW_THREADS
    ok = cu_check(r, stream ? (to_device ? "cuMemcpyHtoDAsync" : "cuMemcpyDtoHAsync")
                            : (to_device ? "cuMemcpyHtoD" : "cuMemcpyDtoH"));
  }
  PyBuffer_Release(&view);
  return cu_none(ok);
}

static PyObject *py_memcpy_htod(PyObject *m, PyObject *const *args, Py_ssize_t n) {
  return memcpy_host(args, n, true);
}

static PyObject *py_memcpy_dtoh(PyObject *m, PyObject *const *args, Py_ssize_t n) {
  return memcpy_host(args, n, false);
}

static PyObject *py_memcpy_dtod(PyObject *m, PyObject *args) {
  unsigned long long dst, src;
  Py_ssize_t bytes;
  if (!PyArg_ParseTuple(args, "KKn", &dst, &src, &bytes) || !cu_ready()) return NULL;
  return cu_none(!bytes || cu_check(cu.MemcpyDtoD(dst, src, (size_t)bytes), "cuMemcpyDtoD"));
}

/* Streams and events are plain handles (ints); their Python owners destroy
 * them. */
static PyObject *handle(void *h) { return PyLong_FromUnsignedLongLong((uintptr_t)h); }

/* One handle argument, with the driver ready. */
static bool read_handle(PyObject *o, void **h) {
  unsigned long long v = PyLong_AsUnsignedLongLong(o);
  *h = (void *)(uintptr_t)v;
  return !PyErr_Occurred() && cu_ready();
}

/* Two handle arguments (a tuple), with the driver ready; usage names them. */
static bool read_handles(PyObject *args, void **a, void **b, const char *usage) {
  if (PyTuple_GET_SIZE(args) != 2) {
    PyErr_Format(PyExc_TypeError, "%s", usage);
    return false;
  }
  return read_handle(PyTuple_GET_ITEM(args, 0), a) && read_handle(PyTuple_GET_ITEM(args, 1), b);
}

/* A wait on a stream or an event, without the GIL. */
static PyObject *wait_for(CUresult (*wait)(void *), void *h, const char *name) {
  CUresult r;
  Py_BEGIN_ALLOW_THREADS
  r = wait(h);
  Py_END_ALLOW_THREADS
  return cu_none(cu_check(r, name));
}

static PyObject *py_stream_create(PyObject *m, PyObject *unused) {
  CUstream s;
  if (!cu_ready() || !cu_check(cu.StreamCreate(&s, 0), "cuStreamCreate")) return NULL;
  return handle(s);
}

static PyObject *py_stream_destroy(PyObject *m, PyObject *arg) {
  void *s;
  return read_handle(arg, &s) ? cu_none(cu_check(cu.StreamDestroy(s), "cuStreamDestroy")) : NULL;
}

static PyObject *py_stream_synchronize(PyObject *m, PyObject *arg) {
  void *s;
  return read_handle(arg, &s) ? wait_for(cu.StreamSynchronize, s, "cuStreamSynchronize") : NULL;
}

static PyObject *py_stream_wait_event(PyObject *m, PyObject *args) {
  void *s, *e;
  if (!read_handles(args, &s, &e, "stream_wait_event(stream, event)")) return NULL;
  return cu_none(cu_check(cu.StreamWaitEvent(s, e, 0), "cuStreamWaitEvent"));
}

static PyObject *py_event_create(PyObject *m, PyObject *timing) {
  CUevent e;
  unsigned flags = PyObject_IsTrue(timing) ? 0 : CU_EVENT_DISABLE_TIMING;
  if (!cu_ready() || !cu_check(cu.EventCreate(&e, flags), "cuEventCreate")) return NULL;
  return handle(e);
}

static PyObject *py_event_destroy(PyObject *m, PyObject *arg) {
  void *e;
  return read_handle(arg, &e) ? cu_none(cu_check(cu.EventDestroy(e), "cuEventDestroy")) : NULL;
}

static PyObject *py_event_record(PyObject *m, PyObject *args) {
  void *e, *s;
  if (!read_handles(args, &e, &s, "event_record(event, stream)")) return NULL;
  return cu_none(cu_check(cu.EventRecord(e, s), "cuEventRecord"));
}

static PyObject *py_event_synchronize(PyObject *m, PyObject *arg) {
  void *e;
  return read_handle(arg, &e) ? wait_for(cu.EventSynchronize, e, "cuEventSynchronize") : NULL;
}

static PyObject *py_event_query(PyObject *m, PyObject *arg) {
  void *e;
  if (!read_handle(arg, &e)) return NULL;
  CUresult r = cu.EventQuery(e);
  if (r == CUDA_ERROR_NOT_READY) Py_RETURN_FALSE;
  return cu_check(r, "cuEventQuery") ? Py_NewRef(Py_True) : NULL;
}

static PyObject *py_event_elapsed_time(PyObject *m, PyObject *args) {
  void *a, *b;
  float ms = 0;
  if (!read_handles(args, &a, &b, "event_elapsed_time(start, end)") ||
      !cu_check(cu.EventElapsedTime(&ms, a, b), "cuEventElapsedTime"))
    return NULL;
  return PyFloat_FromDouble(ms);
}

/* cuda_profiler(on): cuProfilerStart/Stop, where the driver has them
 * (profiling is a tool's business: without them there is nothing to do). */
static PyObject *py_profiler(PyObject *m, PyObject *on) {
  if (!cu_ready()) return NULL;
  CUresult (*call)(void) = (CUresult(*)(void))dlsym(driver_lib, PyObject_IsTrue(on) ? "cuProfilerStart" : "cuProfilerStop");
  if (call && !cu_check(call(), PyObject_IsTrue(on) ? "cuProfilerStart" : "cuProfilerStop")) return NULL;
  Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- raw modules (SourceModule) */

/* cuda_module_load(ptx): a module handle, or CudaError with the JIT's log. */
static PyObject *py_module_load(PyObject *m, PyObject *ptx) {
  if (!PyBytes_Check(ptx)) return PyErr_Format(PyExc_TypeError, "PTX must be bytes");
  if (!cu_ready()) return NULL;
  char log[8192] = "";
  int opts[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[2] = {log, (void *)(uintptr_t)sizeof log};
  CUmodule mod;
  CUresult r = cu.ModuleLoadDataEx(&mod, PyBytes_AS_STRING(ptx), 2, opts, vals);
  if (r) {
    const char *err = NULL;
    cu.GetErrorName(r, &err);
    return PyErr_Format(CudaError, "the CUDA driver could not load the module (%s):\n%s", err ? err : "error",
                        log[0] ? log : "(no log)");
  }
  return handle(mod);
}

/* cuda_module_function((module, name)): the kernel's handle. */
static PyObject *py_module_function(PyObject *m, PyObject *args) {
  unsigned long long mod;
  const char *name;
  CUfunction f;
  if (!PyArg_ParseTuple(args, "Ks", &mod, &name) || !cu_ready() ||
      !cu_check(cu.ModuleGetFunction(&f, (CUmodule)(uintptr_t)mod, name), "cuModuleGetFunction"))
    return NULL;
  return handle(f);
}

static PyObject *py_module_unload(PyObject *m, PyObject *arg) {
  void *mod;
  if (!read_handle(arg, &mod)) return NULL;
  cu_unload(mod);
  Py_RETURN_NONE;
}

/* cuda_launch_raw(function, grid, block, shared, stream, params): params a
 * tuple of bytes objects, each a parameter's value as the kernel takes it. */
static PyObject *py_launch_raw(PyObject *m, PyObject *args) {
  unsigned long long f, stream;
  long long g[3], b[3], shared;
  PyObject *params;
  if (!PyArg_ParseTuple(args, "K(LLL)(LLL)LKO!", &f, &g[0], &g[1], &g[2], &b[0], &b[1], &b[2], &shared,
                        &stream, &PyTuple_Type, &params))
    return NULL;
  Py_ssize_t n = PyTuple_GET_SIZE(params);
  void *ptrs[256];
  if (n > 256) return PyErr_Format(PyExc_TypeError, "a kernel takes at most 256 parameters");
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *p = PyTuple_GET_ITEM(params, i);
    if (!PyBytes_Check(p)) return PyErr_Format(PyExc_TypeError, "parameter %zd must be bytes", i);
    ptrs[i] = PyBytes_AS_STRING(p);
  }
  int64_t grid[3] = {g[0], g[1], g[2]}, block[3] = {b[0], b[1], b[2]};
  if (!cu_launch((void *)(uintptr_t)f, grid, block, shared, (uintptr_t)stream, ptrs, false)) return NULL;
  Py_RETURN_NONE;
}

static PyMethodDef cu_methods[] = {
  {"cuda_host_alloc", py_host_alloc, METH_VARARGS, "Pinned (1), mapped (2) or managed (3) memory of n bytes."},
  {"cuda_host_register", py_host_register, METH_VARARGS,
   "host_register(address, nbytes, owner): owner's host memory mapped into the GPU's until release()."},
  {"cuda_module_load", py_module_load, METH_O, "Load PTX as a module; its handle."},
  {"cuda_module_function", py_module_function, METH_VARARGS, "A module's kernel by name; its handle."},
  {"cuda_module_unload", py_module_unload, METH_O, "Unload a module."},
  {"cuda_launch_raw", py_launch_raw, METH_VARARGS, "Launch a kernel with its parameters' bytes."},
  {"cuda_profiler", py_profiler, METH_O, "Start (True) or stop (False) the CUDA profiler."},
  {"cuda_backend_variable", py_backend_variable, METH_NOARGS, "The value of $RUCHEY_CUDA_BACKEND, or ''."},
  {"cuda_driver", py_driver, METH_NOARGS, "Load and start the CUDA driver; its version."},
  {"cuda_device_count", py_device_count, METH_NOARGS, "The number of CUDA devices."},
  {"cuda_device_info", py_device_info, METH_O, "A CUDA device's name, compute capability, memory and attributes."},
  {"cuda_select_device", py_select_device, METH_O, "Make a device's primary context current."},
  {"cuda_current_device", py_current_device, METH_NOARGS, "The ordinal of the device in use."},
  {"cuda_synchronize", py_synchronize, METH_NOARGS, "Wait for all work on the device."},
  {"cuda_mem_info", py_mem_info, METH_NOARGS, "(free, total) bytes of device memory."},
  {"cuda_memcpy_htod", (PyCFunction)(void (*)(void))py_memcpy_htod, METH_FASTCALL, "Copy host bytes to the device."},
  {"cuda_memcpy_dtoh", (PyCFunction)(void (*)(void))py_memcpy_dtoh, METH_FASTCALL, "Copy device bytes to the host."},
  {"cuda_memcpy_dtod", py_memcpy_dtod, METH_VARARGS, "Copy bytes between device addresses."},
  {"cuda_stream_create", py_stream_create, METH_NOARGS, "A new stream handle."},
  {"cuda_stream_destroy", py_stream_destroy, METH_O, "Destroy a stream."},
  {"cuda_stream_synchronize", py_stream_synchronize, METH_O, "Wait for a stream's work."},
  {"cuda_stream_wait_event", py_stream_wait_event, METH_VARARGS, "Make a stream wait for an event."},
  {"cuda_event_create", py_event_create, METH_O, "A new event handle (timing or not)."},
  {"cuda_event_destroy", py_event_destroy, METH_O, "Destroy an event."},
  {"cuda_event_record", py_event_record, METH_VARARGS, "Record an event on a stream."},
  {"cuda_event_synchronize", py_event_synchronize, METH_O, "Wait for an event."},
  {"cuda_event_query", py_event_query, METH_O, "Whether an event has completed."},
  {"cuda_event_elapsed_time", py_event_elapsed_time, METH_VARARGS, "Milliseconds between two events."},
  {NULL, NULL, 0, NULL},
};

int cu_add_to_module(PyObject *m) {
  CudaError = PyErr_NewExceptionWithDoc("ruchey._core.CudaError",
                                        "An error reported by the CUDA driver, or no usable driver.",
                                        PyExc_RuntimeError, NULL);
  if (!CudaError || PyModule_AddObjectRef(m, "CudaError", CudaError) < 0) return -1;
  if (PyType_Ready(&DeviceMemoryType) < 0 ||
      PyModule_AddObjectRef(m, "DeviceMemory", (PyObject *)&DeviceMemoryType) < 0)
    return -1;
  return PyModule_AddFunctions(m, cu_methods);
}
