/* launch.c — kernel launches: kernel[grid, block](args) on the CPU
 * backend (the compiled kernel runs the grid over the thread pool) or on
 * the current CUDA device (compiled to PTX, loaded once per device). */
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL ruchey_ARRAY_API
#include "core.h"

#include <numpy/arrayobject.h>

static bool read_dims(PyObject *t, int64_t *out, const char *what) {
  if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3) {
    PyErr_Format(PyExc_TypeError, "%s must be a 3-tuple", what);
    return false;
  }
  for (int d = 0; d < 3; d++) {
    out[d] = PyLong_AsLongLong(PyTuple_GET_ITEM(t, d));
    if (out[d] == -1 && PyErr_Occurred()) return false;
    if (out[d] < 1) {
      PyErr_Format(PyExc_ValueError, "%s must be positive, got %lld", what, (long long)out[d]);
      return false;
    }
  }
  return true;
}

/* A launch's grid and block (3-tuples), dynamic shared memory and
 * arguments, checked against the kernel. */
static bool read_launch(Dispatcher *self, PyObject *grid, PyObject *block, long long dyn, PyObject *args,
                        LaunchConfig *cfg) {
  *cfg = (LaunchConfig){.dynamic_shared = dyn};
  if (!self->opts.kernel)
    PyErr_Format(PyExc_TypeError, "%S is not a kernel", self->py_func);
  else if (!read_dims(grid, cfg->grid, "the grid") || !read_dims(block, cfg->block, "the block"))
    return false;
  else if (dyn < 0)
    PyErr_Format(PyExc_ValueError, "dynamic shared memory must not be negative");
  else if (PyTuple_GET_SIZE(args) != self->nparams)
    PyErr_Format(PyExc_TypeError, "%S takes %d arguments, got %zd", self->py_func, self->nparams,
                 PyTuple_GET_SIZE(args));
  else
    return true;
  return false;
}

/* _launch(grid, block, dynamic_shared_bytes, args): runs a kernel on the
 * CPU backend. */
PyObject *launch_cpu(Dispatcher *self, PyObject *a) {
  PyObject *grid, *block, *args;
  long long dyn;
  LaunchConfig cfg;
  if (!PyArg_ParseTuple(a, "OOLO!", &grid, &block, &dyn, &PyTuple_Type, &args) ||
      !read_launch(self, grid, block, dyn, args, &cfg))
    return NULL;
  return disp_call(self, &PyTuple_GET_ITEM(args, 0), &cfg);
}

/* ---------------------------------------------------------------- kernels on the GPU */

static GpuSpec *find_gpu_spec(Dispatcher *self, const Type *const *args, int device) {
  size_t n = sizeof(Type *) * (size_t)self->nparams;
  for (int i = 0; i < self->ngpu_specs; i++)
    if (self->gpu_specs[i].device == device && !memcmp(self->gpu_specs[i].args, args, n))
      return &self->gpu_specs[i];
  return NULL;
}

/* The kernel's PTX for the current device (from the cache with
 * cache=True) loaded there. */
static GpuSpec *add_gpu_spec(Dispatcher *self, const Type *const *args) {
  Arena arena = {0};
  CompileResult res;
  GpuSpec *s = NULL;
  memset(&res, 0, sizeof res);
  bool ok = cache_ptx(self, args, cu_current_cc(), &res, &arena);
  if (ok && res.warning[0] && PyErr_WarnEx(PyExc_RuntimeWarning, res.warning, 1) < 0) {  /* (an error by filter) */
    free(res.text);
    ok = false;
  }
  if (ok) {
    const char *co_name = PyUnicode_AsUTF8(((PyCodeObject *)PyFunction_GetCode(self->py_func))->co_name);
    char name[512];
    snprintf(name, sizeof name, "%s", co_name ? co_name : "");
    ptx_symbol(name);  /* (as the PTX spells it) */
    void *module = NULL;
    void *function = co_name ? cu_load_kernel(res.text, name, &module) : NULL;
    free(res.text);
    GpuSpec *grown = function ? PyMem_Realloc(self->gpu_specs, sizeof(GpuSpec) * (size_t)(self->ngpu_specs + 1)) : NULL;
    PyObject *sig = grown ? disp_signature_text(args, self->nparams) : NULL;
    if (grown) self->gpu_specs = grown;
    if (sig && PyList_Append(self->gpu_signatures, sig) == 0) {
      s = &grown[self->ngpu_specs++];
      memcpy(s->args, args, sizeof s->args);
      s->device = cu_current_device();
      s->module = module;
      s->function = function;
      s->cooperative = res.grid_sync;
    } else if (function) {
      cu_unload(module);
      if (!PyErr_Occurred()) PyErr_NoMemory();
    }
    Py_XDECREF(sig);
  }
  arena_free(&arena);
  return s;
}

static GpuSpec *compile_gpu_miss(Dispatcher *self, const Type *const *args) {
  disp_lock_compiles(self);
  GpuSpec *s = find_gpu_spec(self, args, cu_current_device());
  if (!s) s = add_gpu_spec(self, args);
  disp_unlock_compiles(self);
  return s;
}

/* One argument's kernel parameters, in lower/gpu.c's add_params order, at
 * slots[*np] (8 bytes each): a number as itself, a complex as its two
 * parts, an array as its data pointer, shape and strides (in bytes), a
 * tuple as its items', None and a dtype as none. Arrays here are device arrays seen
 * through NumPy: their data pointer is a device address. */
static int pack_param(PyObject *arg, const Type *t, uint64_t *slots, int np) {
  /* None and a dtype have no parameter (their type is their value); past 240, pack_params refuses the launch */
  if (t->kind == TY_NONE || t->kind == TY_DTYPE || np > 240) return np;
  if (ty_is_enum(t)) {  /* an enum member: its value */
    PyObject *v = (PyObject *)Py_TYPE(arg) == t->callee ? PyObject_GetAttrString(arg, "_value_") : NULL;
    if (!v && !PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "expected a member of %s, got %R", t->name, arg);
    np = v ? pack_param(v, t->elem, slots, np) : -1;
    Py_XDECREF(v);
    return np;
  }
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->nfields && np >= 0; i++) np = pack_param(PyTuple_GET_ITEM(arg, i), t->fields[i], slots, np);
    return np;
  }
  if (t->kind == TY_ARRAY) {
    PyArrayObject *a = (PyArrayObject *)arg;
    int nd = PyArray_NDIM(a);
    slots[np++] = (uint64_t)(uintptr_t)PyArray_DATA(a);
    for (int d = 0; d < nd; d++) slots[np++] = (uint64_t)PyArray_DIMS(a)[d];
    for (int d = 0; d < nd; d++) slots[np++] = (uint64_t)PyArray_STRIDES(a)[d];
    return np;
  }
  Slot value = {0};
  void *unused;
  if (disp_unbox(arg, t, &value, NULL, &unused) < 0) return -1;
  if (t->kind == TY_C64) {  /* {float, float} in the slot: each part in a slot of its own */
    float parts[2];
    memcpy(parts, &value, sizeof parts);
    slots[np] = slots[np + 1] = 0;
    memcpy(&slots[np++], &parts[0], 4);
    memcpy(&slots[np++], &parts[1], 4);
  } else if (t->kind == TY_C128) {
    memcpy(&slots[np++], &value.c[0], 8);
    memcpy(&slots[np++], &value.c[1], 8);
  } else {
    memcpy(&slots[np++], &value, sizeof(uint64_t));
  }
  return np;
}

static int pack_params(Dispatcher *self, PyObject *const *args, const Type *const *types, uint64_t *slots,
                       void **params) {
  int np = 0;
  for (int i = 0; i < self->nparams && np >= 0; i++) np = pack_param(args[i], types[i], slots, np);
  if (np > 240) {
    PyErr_Format(PyExc_TypeError, "%S's arguments make more than 240 kernel parameters", self->py_func);
    return -1;
  }
  for (int p = 0; p < np; p++) params[p] = &slots[p];
  return np;
}

/* Launches the kernel compiled for these types with these arguments (numbers
 * and NumPy views of device memory, of those types) on the current device. */
static PyObject *launch_converted(Dispatcher *self, PyObject *const *argv, const Type *const *types,
                                  const LaunchConfig *cfg, uintptr_t stream) {
  GpuSpec *s = find_gpu_spec(self, types, cu_current_device());
  if (!s && !(s = compile_gpu_miss(self, types))) return NULL;
  void *function = s->function;  /* s may move once the GIL is let go */
  bool cooperative = s->cooperative;
  uint64_t slots[512];  /* pack_params stops at 240, plus an argument's worth */
  void *params[512];
  if (pack_params(self, argv, types, slots, params) < 0) return NULL;
  if (!cu_launch(function, cfg->grid, cfg->block, cfg->dynamic_shared, stream, params, cooperative)) return NULL;
  Py_RETURN_NONE;
}

/* Launches the kernel for these arguments on the current device. */
static PyObject *launch_on_gpu(Dispatcher *self, PyObject *const *argv, const LaunchConfig *cfg,
                               uintptr_t stream) {
  const Type *given[MAX_ARGS];
  if (!disp_arg_types(self, argv, given) || !cu_ready()) return NULL;
  /* explicit signatures (sealed): the one the arguments take, as on the CPU backend */
  const Spec *sig = !self->sealed ? NULL : disp_find_spec(self, given, false);
  if (self->sealed && !sig && !(sig = disp_sealed_spec(self, given))) return NULL;
  const Type *const *types = sig ? sig->args : given;
  PyObject *args[MAX_ARGS];  /* argv converted to those types */
  int n = 0;
  for (; n < self->nparams; n++)
    if (!(args[n] = sig ? disp_converted_arg(argv[n], types[n], given[n]) : Py_NewRef(argv[n]))) break;
  PyObject *result = n < self->nparams ? NULL : launch_converted(self, args, types, cfg, stream);
  while (n > 0) Py_DECREF(args[--n]);
  return result;
}

static PyObject *gpu_argument(PyObject *arg);

/* A tuple's items as gpu_argument passes them, in a tuple of the same kind
 * (a named tuple stays one: the kernel reads its fields); NULL without an
 * error for another subclass of tuple, as for any argument it cannot pass. */
static PyObject *gpu_tuple_argument(PyObject *arg) {
  bool named = PyTuple_CheckExact(arg) ? false : PyObject_HasAttrString(arg, "_fields");
  if (!PyTuple_CheckExact(arg) && !named) return NULL;
  Py_ssize_t n = PyTuple_GET_SIZE(arg);
  PyObject *items = PyTuple_New(n);
  for (Py_ssize_t i = 0; items && i < n; i++) {
    PyObject *item = gpu_argument(PyTuple_GET_ITEM(arg, i));
    if (!item) Py_CLEAR(items);
    else PyTuple_SET_ITEM(items, i, item);
  }
  if (!items || !named) return items;
  PyObject *same = PyObject_Call((PyObject *)Py_TYPE(arg), items, NULL);
  Py_DECREF(items);
  return same;
}

/* Whether arg is a NumPy dtype or scalar type (np.float32): a kernel
 * parameter of no value, which a launch passes as it is. */
static bool is_dtype(PyObject *arg) {
  return PyArray_DescrCheck(arg) || (PyType_Check(arg) && PyType_IsSubtype((PyTypeObject *)arg, &PyGenericArrType_Type));
}

/* What a GPU launch passes for one argument: a number as it is, a device
 * array in the GPU's memory as its NumPy view of that memory (a new
 * reference either way), a tuple (a named one too) as one of its items so, None and a dtype as
 * themselves. NULL without an error for anything else (a host
 * array, a device array on the CPU backend): the caller copies those to
 * the GPU first. */
static PyObject *gpu_argument(PyObject *arg) {
  static PyObject *mem_name, *ary_name;
  if (PyTuple_Check(arg)) return gpu_tuple_argument(arg);
  if (arg == Py_None || is_dtype(arg) || PyLong_Check(arg) || PyFloat_Check(arg) || PyComplex_Check(arg) ||
      (PyArray_IsScalar(arg, Generic) && !PyArray_IsScalar(arg, Void)))  /* (a record's data is in host memory) */
    return Py_NewRef(arg);
  if (PyArray_Check(arg)) return NULL;
  if (!mem_name && (!(mem_name = PyUnicode_InternFromString("_mem")) ||
                    !(ary_name = PyUnicode_InternFromString("_ary"))))
    return NULL;
  PyObject *mem = PyObject_GetAttr(arg, mem_name);
  PyObject *ary = mem && Py_IS_TYPE(mem, &DeviceMemoryType) ? PyObject_GetAttr(arg, ary_name) : NULL;
  Py_XDECREF(mem);
  if (ary && PyArray_Check(ary)) return ary;
  Py_XDECREF(ary);
  PyErr_Clear();
  return NULL;
}

/* _launch_gpu(grid, block, dynamic_shared_bytes, stream, args): launches the
 * kernel on the current CUDA device, on the stream handle (0: the default
 * stream), compiling it for these argument types and the device first.
 * Returns NotImplemented, launching nothing, when an argument must be
 * copied to the GPU first (cuda/kernels.py does that, then launches). */
PyObject *launch_gpu(Dispatcher *self, PyObject *a) {
  PyObject *grid, *block, *args;
  long long dyn;
  unsigned long long stream;
  LaunchConfig cfg;
  if (!PyArg_ParseTuple(a, "OOLKO!", &grid, &block, &dyn, &stream, &PyTuple_Type, &args) ||
      !read_launch(self, grid, block, dyn, args, &cfg))
    return NULL;
  PyObject *argv[MAX_ARGS];
  int n = 0;
  for (; n < self->nparams; n++)
    if (!(argv[n] = gpu_argument(PyTuple_GET_ITEM(args, n)))) break;
  PyObject *result = NULL;
  if (n < self->nparams) {
    if (!PyErr_Occurred()) result = Py_NewRef(Py_NotImplemented);
  } else {
    result = launch_on_gpu(self, argv, &cfg, (uintptr_t)stream);
  }
  while (n > 0) Py_DECREF(argv[--n]);
  return result;
}

/* The kernel compiled for the described argument types (None: its first GPU
 * compile's; an int: the GPU compile of gpu_signatures' index) on the current
 * device, compiled now if it is not yet. */
static GpuSpec *gpu_spec_described(Dispatcher *self, PyObject *described) {
  if (!cu_ready()) return NULL;
  const Type *types[MAX_ARGS] = {0};
  if (PyLong_Check(described)) {
    Py_ssize_t i = PyLong_AsSsize_t(described);
    if (i < 0 || i >= self->ngpu_specs)
      return PyErr_Occurred() ? NULL : (PyErr_Format(PyExc_IndexError, "no GPU compile %zd", i), NULL);
    return &self->gpu_specs[i];
  }
  if (described == Py_None) {
    if (!self->ngpu_specs)
      return PyErr_Format(PyExc_TypeError, "%S has not been compiled for the GPU yet: give a signature, "
                          "or launch it once", self->py_func), NULL;
    memcpy(types, self->gpu_specs[0].args, sizeof types);
  } else if (!PyTuple_Check(described) || PyTuple_GET_SIZE(described) != self->nparams) {
    return PyErr_Format(PyExc_TypeError, "%S takes %d arguments, not the signature's", self->py_func,
                        self->nparams), NULL;
  } else {
    for (int i = 0; i < self->nparams; i++)
      if (!(types[i] = disp_described_type(PyTuple_GET_ITEM(described, i)))) return NULL;
  }
  GpuSpec *s = find_gpu_spec(self, types, cu_current_device());
  return s ? s : compile_gpu_miss(self, types);
}

/* _max_cooperative_blocks(argument type descriptions or None, threads,
 * dynamic shared bytes): how many blocks a cooperative launch of the
 * kernel, compiled for those types (None: as first compiled) and the
 * current device, may have. */
PyObject *launch_max_cooperative_blocks(Dispatcher *self, PyObject *a) {
  PyObject *described;
  long long threads, shared;
  if (!PyArg_ParseTuple(a, "OLL", &described, &threads, &shared)) return NULL;
  GpuSpec *s = gpu_spec_described(self, described);
  int64_t n = s ? cu_max_resident_blocks(s->function, threads, shared) : -1;
  return n < 0 ? NULL : PyLong_FromLongLong(n);
}

/* _function_attribute(argument type descriptions, None or an index, attr):
 * the driver's CU_FUNC_ATTRIBUTE_* attr of the kernel compiled for those
 * types (None: as first compiled; an index: gpu_signatures') for the current
 * device. */
PyObject *launch_function_attribute(Dispatcher *self, PyObject *a) {
  PyObject *described;
  int attr;
  if (!PyArg_ParseTuple(a, "Oi", &described, &attr)) return NULL;
  GpuSpec *s = gpu_spec_described(self, described);
  int64_t value = s ? cu_function_attribute(s->function, attr) : -1;
  return value < 0 ? NULL : PyLong_FromLongLong(value);
}

void launch_unload(Dispatcher *self) {
  for (int i = 0; i < self->ngpu_specs; i++) cu_unload(self->gpu_specs[i].module);
  PyMem_Free(self->gpu_specs);
  self->gpu_specs = NULL;
  self->ngpu_specs = 0;
}
