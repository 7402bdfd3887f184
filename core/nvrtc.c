/* nvrtc.c — NVRTC, CUDA's runtime compiler of CUDA C, loaded with dlopen
 * when a raw CUDA C kernel is first compiled (ruchey.cuda.SourceModule,
 * RawKernel): python/ruchey/cuda/sourcemodule.py finds the library (the
 * toolkit's, or the nvidia-cuda-nvrtc wheel's) and asks for PTX (whose
 * .entry lines give each kernel's parameters) and, for a GPU, machine code
 * for its architecture, which the driver loads (cudadrv.c) even where it is
 * older than the compiler (it could not JIT a newer PTX version). Nothing
 * here runs without a raw kernel.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "core.h"

typedef int nvrtcResult;
typedef struct Program *nvrtcProgram;

static struct {
  const char *(*GetErrorString)(nvrtcResult r);
  nvrtcResult (*Version)(int *major, int *minor);
  nvrtcResult (*CreateProgram)(nvrtcProgram *p, const char *src, const char *name, int nheaders,
                               const char *const *headers, const char *const *include_names);
  nvrtcResult (*DestroyProgram)(nvrtcProgram *p);
  nvrtcResult (*CompileProgram)(nvrtcProgram p, int nopts, const char *const *opts);
  nvrtcResult (*GetPTXSize)(nvrtcProgram p, size_t *size);
  nvrtcResult (*GetPTX)(nvrtcProgram p, char *ptx);
  nvrtcResult (*GetProgramLogSize)(nvrtcProgram p, size_t *size);
  nvrtcResult (*GetProgramLog)(nvrtcProgram p, char *log);
  /* NVRTC 11.1 on; NULL before */
  nvrtcResult (*GetCUBINSize)(nvrtcProgram p, size_t *size);
  nvrtcResult (*GetCUBIN)(nvrtcProgram p, char *cubin);
} rtc;

#define ENTRY(field, name) {name, (void **)&rtc.field}
static const struct { const char *name; void **slot; } entries[] = {
  ENTRY(GetErrorString, "nvrtcGetErrorString"), ENTRY(Version, "nvrtcVersion"),
  ENTRY(CreateProgram, "nvrtcCreateProgram"), ENTRY(DestroyProgram, "nvrtcDestroyProgram"),
  ENTRY(CompileProgram, "nvrtcCompileProgram"), ENTRY(GetPTXSize, "nvrtcGetPTXSize"),
  ENTRY(GetPTX, "nvrtcGetPTX"), ENTRY(GetProgramLogSize, "nvrtcGetProgramLogSize"),
  ENTRY(GetProgramLog, "nvrtcGetProgramLog"),
};

static void *nvrtc_lib;

/* nvrtc_load(path): loads NVRTC from path (once; later calls return the
 * loaded one's version); (major, minor), or OSError saying why not. */
static PyObject *py_nvrtc_load(PyObject *m, PyObject *path) {
  if (!nvrtc_lib) {
    const char *p = PyUnicode_AsUTF8(path);
    if (!p) return NULL;
    void *lib = dlopen(p, RTLD_NOW | RTLD_LOCAL);
    if (!lib) return PyErr_Format(PyExc_OSError, "%s", dlerror());
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
      if (!(*entries[i].slot = dlsym(lib, entries[i].name))) {
        dlclose(lib);
        return PyErr_Format(PyExc_OSError, "%s has no %s: it is not NVRTC, or too old", p, entries[i].name);
      }
    rtc.GetCUBINSize = dlsym(lib, "nvrtcGetCUBINSize");
    rtc.GetCUBIN = dlsym(lib, "nvrtcGetCUBIN");
    nvrtc_lib = lib;
  }
  int major = 0, minor = 0;
  rtc.Version(&major, &minor);
  return Py_BuildValue("(ii)", major, minor);
}

/* The program's log, as text. */
static PyObject *program_log(nvrtcProgram prog) {
  size_t n = 0;
  if (rtc.GetProgramLogSize(prog, &n) || n == 0) return PyUnicode_FromString("");
  char *text = PyMem_Malloc(n + 1);
  if (!text) return PyErr_NoMemory();
  text[0] = text[n] = 0;
  rtc.GetProgramLog(prog, text);
  PyObject *log = PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "replace");
  PyMem_Free(text);
  return log;
}

/* nvrtc_compile(source, name, options, cubin): (PTX, or with cubin the
 * machine code for the real architecture the options name, as bytes, or
 * None; the log; the error's name or None). The GIL is let go while NVRTC
 * compiles. */
static PyObject *py_nvrtc_compile(PyObject *m, PyObject *args) {
  const char *source, *name;
  PyObject *options;
  int cubin;
  if (!PyArg_ParseTuple(args, "ssO!p", &source, &name, &PyTuple_Type, &options, &cubin)) return NULL;
  if (!nvrtc_lib) return PyErr_Format(PyExc_RuntimeError, "NVRTC is not loaded");
  if (cubin && !rtc.GetCUBIN) return PyErr_Format(PyExc_RuntimeError, "this NVRTC makes no cubins (older than 11.1)");
  nvrtcResult (*get_size)(nvrtcProgram, size_t *) = cubin ? rtc.GetCUBINSize : rtc.GetPTXSize;
  nvrtcResult (*get)(nvrtcProgram, char *) = cubin ? rtc.GetCUBIN : rtc.GetPTX;
  Py_ssize_t nopts = PyTuple_GET_SIZE(options);
  const char **opts = PyMem_Calloc((size_t)nopts + 1, sizeof(char *));
  if (!opts) return PyErr_NoMemory();
  for (Py_ssize_t i = 0; i < nopts; i++)
    if (!(opts[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(options, i)))) {
      PyMem_Free(opts);
      return NULL;
    }
  nvrtcProgram prog = NULL;
  nvrtcResult r;
  Py_BEGIN_ALLOW_THREADS
  r = rtc.CreateProgram(&prog, source, name, 0, NULL, NULL);
  if (!r) r = rtc.CompileProgram(prog, (int)nopts, opts);
  Py_END_ALLOW_THREADS
  PyMem_Free(opts);
  PyObject *log = prog ? program_log(prog) : PyUnicode_FromString("");
  PyObject *ptx = NULL;
  size_t size = 0;
  if (!r && !(r = get_size(prog, &size)) && (ptx = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size)))
    r = get(prog, PyBytes_AS_STRING(ptx));
  if (prog) rtc.DestroyProgram(&prog);
  PyObject *result = log ? Py_BuildValue("(OOs)", r || !ptx ? Py_None : ptx, log, r ? rtc.GetErrorString(r) : NULL) : NULL;
  Py_XDECREF(ptx);
  Py_XDECREF(log);
  return result;
}

static PyObject *py_nvrtc_makes_cubins(PyObject *m, PyObject *unused) { return PyBool_FromLong(rtc.GetCUBIN != NULL); }

static PyMethodDef nvrtc_methods[] = {
  {"nvrtc_load", py_nvrtc_load, METH_O, "Load NVRTC from a path; its version."},
  {"nvrtc_compile", py_nvrtc_compile, METH_VARARGS, "CUDA C to PTX or a cubin: (code or None, log, error or None)."},
  {"nvrtc_makes_cubins", py_nvrtc_makes_cubins, METH_NOARGS, "Whether the loaded NVRTC makes cubins."},
  {NULL, NULL, 0, NULL},
};

int nvrtc_add_to_module(PyObject *m) { return PyModule_AddFunctions(m, nvrtc_methods); }
