/* gufunc.c — NumPy generalized ufuncs of compiled functions (@guvectorize).
 *
 * The function takes arrays for the arguments with core dimensions, as
 * Numba's: g(x, y, out) for "(n),()->(n)" gets x and out as 1-d arrays, y
 * as a number (or a 1-element array where its signature says so). It is
 * compiled as any ruchey function; NumPy calls a loop here over the outer
 * (broadcast) dimensions that builds each argument's array from the core
 * dimensions and steps NumPy passes (no copy) and calls the function's
 * entry. A failure stops the loop with the Python exception set.
 */
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL ruchey_ARRAY_API
#define NO_IMPORT_UFUNC
#define PY_UFUNC_UNIQUE_SYMBOL ruchey_UFUNC_API
#include "core.h"

#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

/* How one loop reads each of its arguments. */
typedef struct GuArg {
  bool scalar;           /* passed as a number: the element itself */
  int ndim;              /* as an array: its dimensions (a "()" argument's array has one, of 1) */
  int dim[RC_MAX_NDIM];  /* each one's core dimension, an index into dims[1..] */
} GuArg;

typedef struct GuLoop {
  int (*entry)(void *ret, void **args);
  int nargs;
  GuArg args[MAX_ARGS];
} GuLoop;

/* Outer elements [begin, end): dims[0] of them in all; steps[0..nargs)
 * their steps, then each array argument's core-dimension steps in order.
 * Returns the first failure's status. */
static int gufunc_elements(const GuLoop *g, char **args, const npy_intp *dims, const npy_intp *steps,
                           npy_intp begin, npy_intp end) {
  RtArray arrays[MAX_ARGS];
  void *argp[MAX_ARGS + 1];
  _Alignas(16) char ret[64];
  const npy_intp *core_steps = steps + g->nargs;
  for (int k = 0; k < g->nargs; k++) {
    const GuArg *a = &g->args[k];
    arrays[k] = (RtArray){0};
    for (int d = 0; d < a->ndim; d++) {
      bool unit = a->dim[d] < 0;  /* a "()" argument's one element */
      arrays[k].shape[d] = unit ? 1 : dims[1 + a->dim[d]];
      arrays[k].strides[d] = unit ? 0 : *core_steps++;
    }
  }
  for (npy_intp i = begin; i < end; i++) {
    for (int k = 0; k < g->nargs; k++) {
      char *p = args[k] + i * steps[k];
      arrays[k].data = p;
      argp[k] = g->args[k].scalar ? (void *)p : (void *)&arrays[k];
    }
    int status = g->entry(ret, argp);
    if (status) return status;
  }
  return RT_OK;
}

static void run_gufunc(char **args, const npy_intp *dims, const npy_intp *steps, void *data) {
  if (gufunc_elements(data, args, dims, steps, 0, dims[0])) ufunc_raise_from_loop();
}

typedef struct GuChunked {
  const GuLoop *g;
  char **args;
  const npy_intp *dims, *steps;
  RtError error;  /* the first chunk that failed */
} GuChunked;

static void run_chunk(void *ctx, int64_t begin, int64_t end, int64_t chunk) {
  GuChunked *c = ctx;
  if (gufunc_elements(c->g, c->args, c->dims, c->steps, begin, end)) ufunc_save_error(&c->error);
}

/* target="parallel": the outer elements split over the thread pool, each
 * doing a whole call of the function; the GIL released while it runs. */
static void run_gufunc_parallel(char **args, const npy_intp *dims, const npy_intp *steps, void *data) {
  const RucheyAPI *api = core_api();
  GuChunked c = {.g = data, .args = args, .dims = dims, .steps = steps};
  PyThreadState *saved = PyGILState_Check() ? PyEval_SaveThread() : NULL;
  if (dims[0] > 1) api->parallel_for(run_chunk, &c, dims[0], api->chunk_count(dims[0]));
  else run_chunk(&c, 0, dims[0], 0);
  if (saved) PyEval_RestoreThread(saved);
  if (c.error.status) ufunc_raise_saved(&c.error);
}

/* _gufunc_loop(disp, args): disp compiled for argument types args
 * (ruchey.types descriptions). Returns (entry address, the dtype of each
 * argument's elements). */
PyObject *gufunc_compile_loop(PyObject *module, PyObject *a) {
  Dispatcher *disp;
  PyObject *args;
  if (!PyArg_ParseTuple(a, "O!O!", &DispatcherType, &disp, &PyTuple_Type, &args) || !core_api()) return NULL;
  int n = (int)PyTuple_GET_SIZE(args);
  if (n != disp->nparams)
    return PyErr_Format(PyExc_TypeError, "the signature has %d arguments, the function %d", n, disp->nparams);
  const Type *types[MAX_ARGS];
  for (int i = 0; i < n; i++)
    if (!(types[i] = disp_described_type(PyTuple_GET_ITEM(args, i)))) return NULL;
  Spec *s = disp_find_spec(disp, types, false);
  if (!s && !(s = disp_compile_miss(disp, types, false))) return NULL;
  PyObject *dtypes = PyTuple_New(n);
  for (int i = 0; dtypes && i < n; i++) {
    PyObject *d = (PyObject *)disp_elem_descr(types[i]->kind == TY_ARRAY ? types[i]->elem : types[i]);
    if (!d) Py_CLEAR(dtypes);
    else PyTuple_SET_ITEM(dtypes, i, d);
  }
  void *entry = dtypes ? disp_checked_entry(disp, (int)(s - disp->specs)) : NULL;
  if (!entry) Py_CLEAR(dtypes);
  return dtypes ? Py_BuildValue("(KN)", (unsigned long long)(uintptr_t)entry, dtypes) : NULL;
}

/* What a gufunc points at, kept alive by its obj: the loops' code is the
 * dispatcher's, freed with it. */
typedef struct GufuncTables {
  PyUFuncGenericFunction *funcs;
  void **data;
  char *types;
  PyArray_Descr **descrs; /* each loop's dtypes, datetimes with their units (types holds their numbers) */
  int ndescrs;            /* loops * arguments */
  bool timed;             /* whether a loop takes or gives datetimes */
  GuLoop *loops;
  char *name, *doc, *signature;
  PyObject *disp;
} GufuncTables;

static void free_tables(PyObject *capsule) {
  GufuncTables *t = PyCapsule_GetPointer(capsule, "ruchey.gufunc");
  if (!t) return;
  for (int i = 0; t->descrs && i < t->ndescrs; i++) Py_XDECREF(t->descrs[i]);
  PyMem_Free(t->descrs);
  PyMem_Free(t->funcs); PyMem_Free(t->data); PyMem_Free(t->types); PyMem_Free(t->loops);
  PyMem_Free(t->name); PyMem_Free(t->doc); PyMem_Free(t->signature);
  Py_XDECREF(t->disp);
  PyMem_Free(t);
}

/* One loop from (address, dtypes, per argument (scalar, core dimension
 * indices; -1 for a "()" argument's one element)). */
static bool fill_loop(GufuncTables *t, int i, PyObject *row, int nargs, bool parallel) {
  unsigned long long addr;
  PyObject *dtypes, *how;
  if (!PyArg_ParseTuple(row, "KO!O!", &addr, &PyTuple_Type, &dtypes, &PyTuple_Type, &how)) return false;
  if (PyTuple_GET_SIZE(dtypes) != nargs || PyTuple_GET_SIZE(how) != nargs) {
    PyErr_SetString(PyExc_ValueError, "a loop's arguments do not match the gufunc's");
    return false;
  }
  GuLoop *g = &t->loops[i];
  g->entry = (int (*)(void *, void **))(uintptr_t)addr;
  g->nargs = nargs;
  for (int k = 0; k < nargs; k++) {
    PyObject *d = PyTuple_GET_ITEM(dtypes, k);
    if (!PyArray_DescrCheck(d)) {
      PyErr_SetString(PyExc_TypeError, "a loop's argument types must be dtypes");
      return false;
    }
    t->descrs[i * nargs + k] = (PyArray_Descr *)Py_NewRef(d);
    t->types[i * nargs + k] = (char)((PyArray_Descr *)d)->type_num;
    t->timed |= PyTypeNum_ISDATETIME(((PyArray_Descr *)d)->type_num);
    int scalar;
    PyObject *dims;
    if (!PyArg_ParseTuple(PyTuple_GET_ITEM(how, k), "pO!", &scalar, &PyTuple_Type, &dims)) return false;
    g->args[k].scalar = scalar;
    g->args[k].ndim = (int)PyTuple_GET_SIZE(dims);
    if (g->args[k].ndim > RC_MAX_NDIM) {
      PyErr_SetString(PyExc_ValueError, "too many core dimensions");
      return false;
    }
    for (int d = 0; d < g->args[k].ndim; d++) g->args[k].dim[d] = (int)PyLong_AsLong(PyTuple_GET_ITEM(dims, d));
  }
  t->funcs[i] = parallel ? run_gufunc_parallel : run_gufunc;
  t->data[i] = g;
  return !PyErr_Occurred();
}

/* The dtypes of the first loop that takes the operands: a gufunc with
 * datetimes among its arguments. NumPy's own resolver finds none for a
 * datetime of a unit (M8[D]): its loops are of the unitless M8, to which
 * it casts no unit safely; a loop here has its signature's units. With an
 * explicit signature= (type_tup), NumPy's. */
static int resolve_timed_loop(PyUFuncObject *u, NPY_CASTING casting, PyArrayObject **ops, PyObject *type_tup,
                              PyArray_Descr **out) {
  GufuncTables *t = PyCapsule_GetPointer(u->obj, "ruchey.gufunc");
  int nargs = u->nargs;
  NPY_CASTING in_casting = casting > NPY_SAFE_CASTING ? NPY_SAFE_CASTING : casting;  /* (NumPy's rule for inputs) */
  for (int i = 0; t && !type_tup && i < u->ntypes; i++) {
    PyArray_Descr **loop = &t->descrs[i * nargs];
    bool takes = true;
    for (int k = 0; takes && k < u->nin; k++) takes = PyArray_CanCastTypeTo(PyArray_DESCR(ops[k]), loop[k], in_casting);
    if (!takes) continue;
    for (int k = 0; k < nargs; k++) out[k] = (PyArray_Descr *)Py_NewRef(loop[k]);
    return 0;
  }
  PyErr_Clear();
  return PyUFunc_DefaultTypeResolver(u, casting, ops, type_tup, out);
}

/* NumPy hands a gufunc's outputs (and the inputs named writable) over
 * read-write: where an operand needs a cast or a copy, NumPy's buffer starts
 * with the operand's values and is written back after the loop, so elements
 * the function leaves alone keep theirs, as in Numba's gufuncs. */
static bool set_writable_operands(PyUFuncObject *u, int nin, int nout, PyObject *writable) {
  for (int k = nin; k < nin + nout; k++) u->op_flags[k] |= NPY_ITER_READWRITE | NPY_ITER_UPDATEIFCOPY | NPY_ITER_ALLOCATE;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(writable); i++) {
    long k = PyLong_AsLong(PyTuple_GET_ITEM(writable, i));
    if (k < 0 || k >= nin) {
      if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "writable_args must name inputs, between 0 and %d", nin - 1);
      return false;
    }
    u->op_flags[k] |= NPY_ITER_READWRITE | NPY_ITER_UPDATEIFCOPY;
  }
  return true;
}

/* _make_gufunc(name, doc, nin, nout, signature, identity, loops, parallel,
 * disp, writable): a generalized numpy.ufunc of the compiled loops (disp's),
 * tried in order; identity as _make_ufunc's; writable the indices of the
 * inputs the function may write. */
PyObject *gufunc_make(PyObject *module, PyObject *a) {
  const char *name, *doc, *signature;
  int nin, nout, parallel;
  PyObject *identity, *loops, *disp, *writable;
  if (!PyArg_ParseTuple(a, "ssiisOO!pO!O!", &name, &doc, &nin, &nout, &signature, &identity, &PyList_Type, &loops,
                        &parallel, &DispatcherType, &disp, &PyTuple_Type, &writable))
    return NULL;
  int nargs = nin + nout;
  if (nin < 0 || nout < 0 || nargs < 1 || nargs > MAX_ARGS) return PyErr_Format(PyExc_TypeError, "a gufunc takes 1 to %d arguments", MAX_ARGS);
  if (!ufunc_api_ready()) return NULL;
  Py_ssize_t n = PyList_GET_SIZE(loops);
  size_t m = (size_t)(n ? n : 1);
  GufuncTables *t = PyMem_Calloc(1, sizeof *t);
  PyObject *capsule = t ? PyCapsule_New(t, "ruchey.gufunc", free_tables) : NULL;
  if (!capsule) {
    PyMem_Free(t);
    return PyErr_NoMemory();
  }
  t->disp = Py_NewRef(disp);
  t->funcs = PyMem_Calloc(m, sizeof *t->funcs);
  t->data = PyMem_Calloc(m, sizeof *t->data);
  t->types = PyMem_Calloc(m * (size_t)nargs, 1);
  t->descrs = PyMem_Calloc(m * (size_t)nargs, sizeof *t->descrs);
  t->ndescrs = (int)(m * (size_t)nargs);
  t->loops = PyMem_Calloc(m, sizeof *t->loops);
  t->name = ufunc_copy_text(name);
  t->doc = ufunc_copy_text(doc);
  t->signature = ufunc_copy_text(signature);
  bool ok = t->funcs && t->data && t->types && t->descrs && t->loops && t->name && t->doc && t->signature;
  if (!ok) PyErr_NoMemory();
  for (Py_ssize_t i = 0; ok && i < n; i++) ok = fill_loop(t, (int)i, PyList_GET_ITEM(loops, i), nargs, parallel);
  int kind = ufunc_identity_kind(identity);
  PyObject *u = ok ? PyUFunc_FromFuncAndDataAndSignatureAndIdentity(t->funcs, t->data, t->types, (int)n, nin, nout,
                                                                    kind, t->name, t->doc, 0, t->signature,
                                                                    kind == PyUFunc_IdentityValue ? identity : NULL)
                   : NULL;
  if (!u) {
    Py_DECREF(capsule);
    return NULL;
  }
  ((PyUFuncObject *)u)->obj = capsule;
  if (t->timed) ((PyUFuncObject *)u)->type_resolver = resolve_timed_loop;
  if (!set_writable_operands((PyUFuncObject *)u, nin, nout, writable)) Py_CLEAR(u);
  return u;
}
