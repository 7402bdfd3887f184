/* ufunc.c — NumPy ufuncs whose inner loops are compiled code (@vectorize).
 *
 * Each loop is a function of scalars compiled with CompileOptions.ufunc_loop:
 * its entry walks NumPy's strided inner-loop arguments with the function
 * inlined (lower/function.c). NumPy calls a small trampoline here with the
 * entry as its data; the trampoline turns a failed element into the Python
 * exception, taking the GIL where NumPy released it, and NumPy reports it
 * when the call returns. With target="parallel" the trampoline splits a
 * long loop over the thread pool.
 */
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL ruchey_ARRAY_API
#define PY_UFUNC_UNIQUE_SYMBOL ruchey_UFUNC_API
#include "core.h"

#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

typedef int (*UfuncLoop)(char **args, const npy_intp *dims, const npy_intp *steps, void *data);

/* ---------------------------------------------------------------- compiling a loop */

static bool record_loop(Dispatcher *disp, const Type *const *types, int n, const Type *declared) {
  const Type *(*grown)[MAX_ARGS] = PyMem_Realloc(disp->ufunc_loops, sizeof *grown * (size_t)(disp->nufunc_loops + 1));
  if (!grown) {
    PyErr_NoMemory();
    return false;
  }
  disp->ufunc_loops = grown;
  memcpy(grown[disp->nufunc_loops], types, sizeof(Type *) * (size_t)n);
  grown[disp->nufunc_loops++][n] = declared;  /* (n < MAX_UFUNC_OPERANDS <= MAX_ARGS) */
  return true;
}

static bool casts_safely(const Type *from, const Type *to) {
  return ty_is_scalar(from) && PyArray_CanCastSafely(disp_kind_type_num(from->kind), disp_kind_type_num(to->kind));
}

/* The first loop each argument casts to safely, or -1. */
static int find_loop(Dispatcher *disp, const Type *const *args, int n) {
  for (int k = 0; k < disp->nufunc_loops; k++) {
    int i = 0;
    while (i < n && casts_safely(args[i], disp->ufunc_loops[k][i])) i++;
    if (i == n) return k;
  }
  return -1;
}

/* A loop for args, which compiled code calls a DUFunc's function with,
 * noted in its list _loops_wanted (types' descriptions): the DUFunc adds
 * it to its ufunc when that is next read, as Numba's DUFunc grows, after
 * the compile (not during it). */
static void want_loop(Dispatcher *disp, const Type *const *args, int n) {
  PyObject *wanted = PyObject_GetAttrString((PyObject *)disp, "_loops_wanted"), *descs = PyTuple_New(n);
  for (int i = 0; descs && i < n; i++) {
    PyObject *d = disp_describe_type(args[i]);
    if (!d) Py_CLEAR(descs);
    else PyTuple_SET_ITEM(descs, i, d);
  }
  if (wanted && PyList_Check(wanted) && descs) PyList_Append(wanted, descs);
  Py_XDECREF(wanted); Py_XDECREF(descs);
  PyErr_Clear();  /* (a function of no DUFunc's: nothing to note) */
}

/* The loop of exactly these input types, or -1. */
static int exact_loop(Dispatcher *disp, const Type *const *args, int n) {
  for (int k = 0; k < disp->nufunc_loops; k++)
    if (!memcmp(disp->ufunc_loops[k], args, sizeof(Type *) * (size_t)n)) return k;
  return -1;
}

/* The loop compiled code runs, as Numba's DUFunc finds it: the one of the
 * inputs' own types, compiled for them where there is none (and added to
 * the ufunc: want_loop); once it compiles no more loops, as a call from
 * Python finds it (the ufunc's linear search), the first the inputs cast
 * to safely. */
bool ufunc_loop_types(Dispatcher *disp, const Type *const *args, int n, const Type **out, const Type **ret, Diag *diag) {
  int k = disp->sealed ? find_loop(disp, args, n) : exact_loop(disp, args, n);
  *ret = NULL;
  if (k >= 0) {
    memcpy(out, disp->ufunc_loops[k], sizeof(Type *) * (size_t)n);
    *ret = disp->ufunc_loops[k][n];
    return true;
  }
  if (!disp->sealed) {
    memcpy(out, args, sizeof(Type *) * (size_t)n);
    want_loop(disp, args, n);
    return true;
  }
  PyObject *seen = disp_signature_text(args, n);
  diag->kind = DIAG_TYPING;
  snprintf(diag->msg, sizeof diag->msg, "ufunc '%s' not supported for the input types %s: none of its loops "
           "takes them", PyUnicode_AsUTF8(((PyCodeObject *)PyFunction_GetCode(disp->py_func))->co_name),
           seen ? PyUnicode_AsUTF8(seen) : "");
  Py_XDECREF(seen);
  PyErr_Clear();
  return false;
}

/* _ufunc_loop(disp, args, ret): disp's function compiled as a ufunc loop
 * for argument types args (ruchey.types descriptions, scalars), returning
 * ret (a description, or None: inferred). Returns (address, NumPy type
 * numbers of the inputs and the output). */
PyObject *ufunc_compile_loop(PyObject *module, PyObject *a) {
  Dispatcher *disp;
  PyObject *args, *ret;
  if (!PyArg_ParseTuple(a, "O!O!O", &DispatcherType, &disp, &PyTuple_Type, &args, &ret) || !core_api())
    return NULL;
  int n = (int)PyTuple_GET_SIZE(args);
  if (n != disp->nparams)
    return PyErr_Format(PyExc_TypeError, "the signature has %d arguments, the function %d", n, disp->nparams);
  const Type *types[MAX_ARGS], *declared = NULL;
  for (int i = 0; i < n; i++)
    if (!(types[i] = disp_described_type(PyTuple_GET_ITEM(args, i)))) return NULL;
  if (ret != Py_None && !(declared = disp_described_type(ret))) return NULL;
  for (int i = 0; i <= n; i++) {
    const Type *t = i < n ? types[i] : declared;
    if (t && !ty_is_scalar(t))
      return PyErr_Format(PyExc_TypeError, "a ufunc's signature takes and returns scalars, not %s", t->name);
  }
  Arena arena = {0};
  CompileResult res;
  disp_lock_compiles(disp);
  bool ok = cache_compile(disp, types, declared, ENTRY_UFUNC_LOOP, &res, &arena);
  disp_unlock_compiles(disp);
  if (ok) ok = record_loop(disp, types, n, declared);
  PyObject *nums = ok ? PyTuple_New(n + 1) : NULL;
  for (int i = 0; nums && i <= n; i++)
    PyTuple_SET_ITEM(nums, i, PyLong_FromLong(disp_kind_type_num(i < n ? types[i]->kind : res.ret_type->kind)));
  arena_free(&arena);
  return nums ? Py_BuildValue("(KN)", (unsigned long long)(uintptr_t)res.entry, nums) : NULL;
}

/* ---------------------------------------------------------------- running a loop */

void ufunc_raise_from_loop(void) {
  PyGILState_STATE g = PyGILState_Ensure();
  disp_raise_runtime_error();
  PyGILState_Release(g);
}

static void run_serial(char **args, const npy_intp *dims, const npy_intp *steps, void *data) {
  if (((UfuncLoop)data)(args, dims, steps, NULL)) ufunc_raise_from_loop();
}

/* Below this many elements the pool costs more than it saves. */
enum { PARALLEL_MIN = 1 << 14 };

typedef struct Chunked {
  UfuncLoop loop;
  char **args;
  const npy_intp *steps;
  int nargs;
  RtError error;     /* the first chunk that failed */
} Chunked;

void ufunc_save_error(RtError *dst) {
  RtError *e = core_api()->last_error();
  int ok = RT_OK;
  if (__atomic_compare_exchange_n((int *)&dst->status, &ok, (int)e->status, false, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE)) {
    dst->msg = e->msg;
    dst->exc_class = e->exc_class;
  }
}

void ufunc_raise_saved(const RtError *e) {
  *core_api()->last_error() = *e;
  ufunc_raise_from_loop();
}

static void run_chunk(void *ctx, int64_t begin, int64_t end, int64_t chunk) {
  Chunked *c = ctx;
  char *args[MAX_UFUNC_OPERANDS];
  for (int k = 0; k < c->nargs; k++) args[k] = c->args[k] + begin * c->steps[k];
  npy_intp n = end - begin;
  if (c->loop(args, &n, c->steps, NULL)) ufunc_save_error(&c->error);
}

/* target="parallel": data points at the loop's Chunked template (its loop
 * and number of operands). The pool must not wait on a thread holding the
 * GIL, which NumPy keeps for short loops. */
static void run_parallel(char **args, const npy_intp *dims, const npy_intp *steps, void *data) {
  const Chunked *t = data;
  const RucheyAPI *api = core_api();
  if (dims[0] < PARALLEL_MIN) {
    if (t->loop(args, dims, steps, NULL)) ufunc_raise_from_loop();
    return;
  }
  Chunked c = {.loop = t->loop, .args = args, .steps = steps, .nargs = t->nargs};
  PyThreadState *saved = PyGILState_Check() ? PyEval_SaveThread() : NULL;
  api->parallel_for(run_chunk, &c, dims[0], api->chunk_count(dims[0]));
  if (saved) PyEval_RestoreThread(saved);
  if (c.error.status) ufunc_raise_saved(&c.error);
}

/* ---------------------------------------------------------------- the ufunc */

/* What a ufunc points at, kept alive by its obj: NumPy copies none of it. */
typedef struct UfuncTables {
  PyUFuncGenericFunction *funcs;
  void **data;
  char *types;
  Chunked *chunked;  /* target="parallel": one per loop */
  char *name, *doc;
} UfuncTables;

static void free_tables(PyObject *capsule) {
  UfuncTables *t = PyCapsule_GetPointer(capsule, "ruchey.ufunc");
  if (!t) return;
  PyMem_Free(t->funcs); PyMem_Free(t->data); PyMem_Free(t->types); PyMem_Free(t->chunked);
  PyMem_Free(t->name); PyMem_Free(t->doc);
  PyMem_Free(t);
}

char *ufunc_copy_text(const char *s) {
  char *c = PyMem_Malloc(strlen(s) + 1);
  if (c) strcpy(c, s);
  return c;
}

/* Fills t from loops, a list of (address, type numbers); false with an
 * exception set. */
static bool fill_tables(UfuncTables *t, PyObject *loops, int nargs, bool parallel) {
  Py_ssize_t n = PyList_GET_SIZE(loops);
  size_t m = (size_t)(n ? n : 1);
  t->funcs = PyMem_Calloc(m, sizeof *t->funcs);
  t->data = PyMem_Calloc(m, sizeof *t->data);
  t->types = PyMem_Calloc(m * (size_t)nargs, 1);
  t->chunked = parallel ? PyMem_Calloc(m, sizeof *t->chunked) : NULL;
  if (!t->funcs || !t->data || !t->types || (parallel && !t->chunked)) {
    PyErr_NoMemory();
    return false;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    unsigned long long addr;
    PyObject *nums;
    if (!PyArg_ParseTuple(PyList_GET_ITEM(loops, i), "KO!", &addr, &PyTuple_Type, &nums)) return false;
    if (PyTuple_GET_SIZE(nums) != nargs) {
      PyErr_SetString(PyExc_ValueError, "a loop's types do not match the ufunc's arguments");
      return false;
    }
    for (int k = 0; k < nargs; k++) t->types[i * nargs + k] = (char)PyLong_AsLong(PyTuple_GET_ITEM(nums, k));
    UfuncLoop loop = (UfuncLoop)(uintptr_t)addr;
    if (parallel) {
      t->chunked[i] = (Chunked){.loop = loop, .nargs = nargs};
      t->funcs[i] = run_parallel;
      t->data[i] = &t->chunked[i];
    } else {
      t->funcs[i] = run_serial;
      t->data[i] = (void *)loop;
    }
  }
  return !PyErr_Occurred();
}

bool ufunc_api_ready(void) {
  static bool ready;
  if (!ready) {
    import_umath1(false);
    ready = true;
  }
  return true;
}

/* Each ufunc made here, to the Dispatcher of its function of scalars: a
 * call from compiled code calls that. Ufuncs live as long as their module,
 * so the entries are never removed. */
static PyObject *scalar_functions;

Dispatcher *ufunc_scalar_function(PyObject *obj) {
  if (PyObject_TypeCheck(obj, &DispatcherType) || PyModule_Check(obj) || PyType_Check(obj)) return NULL;
  PyObject *d = scalar_functions ? PyDict_GetItemWithError(scalar_functions, obj) : NULL;
  if (d) return (Dispatcher *)d;
  PyErr_Clear();  /* an unhashable object is none of them */
  d = PyObject_GetAttrString(obj, "_ruchey_scalar_function");  /* a DUFunc's; it holds it */
  Py_XDECREF(d);
  PyErr_Clear();
  return d && PyObject_TypeCheck(d, &DispatcherType) ? (Dispatcher *)d : NULL;
}

/* Whether a ufunc (or a DUFunc, by the ufunc it holds) reduces along
 * several axes at once: NumPy's rule, that it has an identity or was made
 * "reorderable". */
bool ufunc_reorderable(PyObject *obj) {
  if (!ufunc_api_ready()) return false;
  PyObject *u = PyObject_TypeCheck(obj, &PyUFunc_Type) ? Py_NewRef(obj) : PyObject_GetAttrString(obj, "ufunc");
  PyErr_Clear();
  bool reorderable = u && PyObject_TypeCheck(u, &PyUFunc_Type) && ((PyUFuncObject *)u)->identity != PyUFunc_None;
  Py_XDECREF(u);
  return reorderable;
}

/* The inputs of NumPy's own ufunc obj (numpy.add: 2) where it has one
 * output; -1 for any other object. */
int ufunc_numpy_inputs(PyObject *obj) {
  if (!ufunc_api_ready() || !PyObject_TypeCheck(obj, &PyUFunc_Type) || ((PyUFuncObject *)obj)->nout != 1) return -1;
  return ((PyUFuncObject *)obj)->nin;
}

/* NumPy's kind of a ufunc's identity: None (no identity), "reorderable"
 * (none, yet it reduces along several axes) or a value. */
int ufunc_identity_kind(PyObject *identity) {
  if (identity == Py_None) return PyUFunc_None;
  if (PyUnicode_Check(identity) && !PyUnicode_CompareWithASCIIString(identity, "reorderable"))
    return PyUFunc_ReorderableNone;
  return PyUFunc_IdentityValue;
}

/* _make_ufunc(name, doc, nin, identity, loops, parallel, dispatcher): a
 * numpy.ufunc with one output and the compiled loops, tried in order as
 * NumPy does. identity: None (no identity), "reorderable" or a value. */
PyObject *ufunc_make(PyObject *module, PyObject *a) {
  const char *name, *doc;
  int nin, parallel;
  PyObject *identity, *loops, *disp;
  if (!PyArg_ParseTuple(a, "ssiOO!pO!", &name, &doc, &nin, &identity, &PyList_Type, &loops, &parallel,
                        &DispatcherType, &disp))
    return NULL;
  if (nin < 1 || nin + 1 > MAX_UFUNC_OPERANDS)
    return PyErr_Format(PyExc_TypeError, "a ufunc takes 1 to %d arguments", MAX_UFUNC_OPERANDS - 1);
  if (!ufunc_api_ready()) return NULL;
  UfuncTables *t = PyMem_Calloc(1, sizeof *t);
  PyObject *capsule = t ? PyCapsule_New(t, "ruchey.ufunc", free_tables) : NULL;
  if (!capsule) {
    PyMem_Free(t);
    return PyErr_NoMemory();
  }
  t->name = ufunc_copy_text(name);
  t->doc = ufunc_copy_text(doc);
  if (!t->name || !t->doc || !fill_tables(t, loops, nin + 1, parallel)) {
    Py_DECREF(capsule);
    return PyErr_Occurred() ? NULL : PyErr_NoMemory();
  }
  int kind = ufunc_identity_kind(identity);
  PyObject *u = PyUFunc_FromFuncAndDataAndSignatureAndIdentity(NULL, NULL, NULL, 0, nin, 1, kind, t->name, t->doc, 0,
                                                                 NULL, kind == PyUFunc_IdentityValue ? identity : NULL);
  if (!u) {
    Py_DECREF(capsule);
    return NULL;
  }
  /* The loops join after the ufunc is made, as Numba's DUFunc adds them:
   * NumPy takes an exact match among the loops a ufunc is made with first,
   * while it finds loops given later by its linear search, the first that
   * takes the operands safely, which is Numba's rule (float64(float64)
   * listed before float32(float32) takes float32 operands too). */
  PyUFuncObject *made = (PyUFuncObject *)u;
  made->functions = t->funcs;
  made->data = t->data;
  made->types = t->types;
  made->ntypes = (int)PyList_GET_SIZE(loops);
  ((PyUFuncObject *)u)->obj = capsule;  /* released with the ufunc */
  if (!scalar_functions && !(scalar_functions = PyDict_New())) Py_CLEAR(u);
  if (u && PyDict_SetItem(scalar_functions, u, disp) < 0) Py_CLEAR(u);
  return u;
}
