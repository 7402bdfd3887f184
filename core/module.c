/* module.c — the ruchey._core module: loading libruchey_rt, the identities
 * of the Python objects compiled code may name, and TypingError.
 *
 * Importing this module loads nothing more: core_api() loads libruchey_rt
 * (the runtime, no LLVM) on first use, and that loads the compiler
 * (libruchey, LLVM inside) on the first compile.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <libgen.h>

#include "core.h"

PyObject *core_NumbaError;
PyObject *core_TypingError;
PyObject *core_ArgumentTypeError;
PyObject *core_TypingAttributeError;
PyObject *core_LiteralRequest;

/* print() in @njit code: the line goes to sys.stdout, in order with the
 * interpreter's own output (and to whatever replaced it: a test's capture). */
static void print_to_stdout(const char *text, size_t len) {
  PyGILState_STATE gil = PyGILState_Ensure();
  PyObject *line = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "replace");
  PyObject *out = PySys_GetObject("stdout");  /* borrowed */
  PyObject *r = line && out && out != Py_None ? PyObject_CallMethod(out, "write", "O", line) : NULL;
  if (!r && PyErr_Occurred()) PyErr_WriteUnraisable(out);  /* as print() where stdout is gone */
  Py_XDECREF(r);
  Py_XDECREF(line);
  PyGILState_Release(gil);
}

/* From what magnitude the installed NumPy writes a float32 with an
 * exponent: 1e6 in NumPy 2 (str(float32(1e6)) is '1e+06'), 1e16 before. */
static double float32_exponent_from(void) {
  PyObject *r = PyRun_String("str(__import__('numpy').float32(1e6)) == '1e+06'", Py_eval_input, PyEval_GetBuiltins(), NULL);
  double from = r == Py_True ? 1e6 : 1e16;
  Py_XDECREF(r);
  PyErr_Clear();
  return from;
}

/* An except clause's test of a class raised in compiled code, which may
 * run without the GIL (nogil, parallel, a pool thread): both are classes
 * the frontend checked and keeps alive, and PyType_IsSubtype only reads
 * the raised class's MRO. */
static int exception_matches(void *cls, void *base) {
  return PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)base);
}

/* The installed NumPy's version, major * 100 + minor, for the rules and
 * random streams NumPy's releases changed */
static int numpy_version(void) {
  PyObject *r = PyRun_String("(lambda v: int(v[0]) * 100 + int(v[1]))(__import__('numpy').__version__.split('.'))",
                             Py_eval_input, PyEval_GetBuiltins(), NULL);
  long version = r ? PyLong_AsLong(r) : 200;
  Py_XDECREF(r);
  PyErr_Clear();
  return version > 0 ? (int)version : 200;
}

/* hash() of a str in compiled code gives the interpreter's: its key (set
 * per process unless PYTHONHASHSEED fixes it) and which SipHash it runs.
 * The key is the interpreter's exported _Py_HashSecret, SipHash's k0 and k1
 * first: looked up at run time, since 3.13 declares it in its internal
 * headers only (where an interpreter does not export it, compiled code
 * hashes strs its own way). */
static void set_str_hash(const RucheyAPI *a) {
  const char *name = PyHash_GetFuncDef()->name;
  int rounds = !strcmp(name, "siphash13") ? 1 : !strcmp(name, "siphash24") ? 2 : 0;
  const uint64_t *key = dlsym(RTLD_DEFAULT, "_Py_HashSecret");
  a->set_str_hash(key ? key[0] : 0, key ? key[1] : 0, key ? rounds : 0);
}

const RucheyAPI *core_api(void) {
  static const RucheyAPI *api;
  if (api) return api;
  Dl_info info;
  if (!dladdr((void *)core_api, &info) || !info.dli_fname) {
    PyErr_SetString(PyExc_ImportError, "ruchey: cannot locate the _core extension on disk");
    return NULL;
  }
  char dir[4096], path[4200];
  snprintf(dir, sizeof dir, "%s", info.dli_fname);
  snprintf(path, sizeof path, "%s/libruchey_rt.so", dirname(dir));
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    PyErr_Format(PyExc_ImportError, "ruchey: cannot load the runtime library: %s", dlerror());
    return NULL;
  }
  const RucheyAPI *(*get)(void) = (const RucheyAPI *(*)(void))dlsym(lib, "ruchey_api");
  const RucheyAPI *a = get ? get() : NULL;
  if (!a || a->version != RUCHEY_API_VERSION) {
    PyErr_Format(PyExc_ImportError, "ruchey: %s does not match this extension", path);
    return NULL;
  }
  core_plain = a->plain;
  a->set_print_sink(print_to_stdout, float32_exponent_from());
  *a->numpy_version = numpy_version();
  core_interrupted = a->interrupted;
  a->set_exception_matcher(exception_matches);
  set_str_hash(a);
  core_register_objmode(a);
  a->set_cfunc_failure(cfunc_report_failure);
  jitclass_keep_objects(a);
  return api = a;
}

/* ---------------------------------------------------------------- Ctrl-C */

static int32_t no_flag;
volatile int32_t *core_interrupted = &no_flag;
unsigned long core_main_thread;

/* The interpreter's main thread, where KeyboardInterrupt is raised: the
 * threading module's word if it is loaded, else (no thread of Python's
 * started yet) the importing thread. */
static unsigned long main_thread_ident(void) {
  unsigned long id = PyThread_get_thread_ident();
  PyObject *name = PyUnicode_FromString("threading");
  PyObject *mod = name ? PyImport_GetModule(name) : NULL;
  PyObject *main = mod ? PyObject_CallMethod(mod, "main_thread", NULL) : NULL;
  PyObject *ident = main ? PyObject_GetAttrString(main, "ident") : NULL;
  if (ident && PyLong_Check(ident)) id = PyLong_AsUnsignedLong(ident);
  PyErr_Clear();
  Py_XDECREF(name); Py_XDECREF(mod); Py_XDECREF(main); Py_XDECREF(ident);
  return id;
}

void core_watch_interrupts(void) {
  const RucheyAPI *a = core_api();
  if (a) a->watch_interrupts(core_main_thread);
  PyErr_Clear();
}

/* ---------------------------------------------------------------- BLAS */

/* Linear algebra calls BLAS and LAPACK through the function pointers SciPy
 * exports from scipy.linalg.cython_blas and cython_lapack (a capsule per
 * routine in __pyx_capi__), found once, by the first compile that names
 * such a function. Without SciPy the pointers stay NULL: products of
 * integers still run, what needs a routine raises a RuntimeError naming
 * SciPy. numpy.linalg.LinAlgError is held for the life of the process. */
static void load_routines(const RucheyAPI *a, const char *module, const char *const *names) {
  PyObject *mod = PyImport_ImportModule(module);
  PyObject *capi = mod ? PyObject_GetAttrString(mod, "__pyx_capi__") : NULL;
  for (; capi && PyDict_Check(capi) && *names; names++) {
    PyObject *cap = PyDict_GetItemString(capi, *names);  /* borrowed */
    void *fn = cap && PyCapsule_CheckExact(cap) ? PyCapsule_GetPointer(cap, PyCapsule_GetName(cap)) : NULL;
    if (fn) a->set_routine(*names, fn);
  }
  PyErr_Clear();
  Py_XDECREF(capi);
  Py_XDECREF(mod);
}

int core_blas_requests;

void core_load_blas(void) {
  static bool tried;
  core_blas_requests++;
  const RucheyAPI *a = core_api();
  if (tried || !a) {
    PyErr_Clear();
    return;
  }
  tried = true;
  load_routines(a, "scipy.linalg.cython_blas", a->blas_names);
  load_routines(a, "scipy.linalg.cython_lapack", a->lapack_names);
  PyObject *linalg = PyImport_ImportModule("numpy.linalg");
  PyObject *cls = linalg ? PyObject_GetAttrString(linalg, "LinAlgError") : NULL;  /* kept */
  if (cls) a->set_linalg_error(cls);
  PyErr_Clear();
  Py_XDECREF(linalg);
}

/* ---------------------------------------------------------------- object identities */

/* A dict from Python object to small int, filled by name on first use. */
typedef struct { const char *module, *name; int id; } Named;

/* name may be dotted: "threadIdx.x" is an attribute of an attribute. */
static void table_add(PyObject *table, const char *module, const char *name, int id) {
  /* sys.modules first: an import of a module already there still runs
   * importlib's Python code, dear across hundreds of rows */
  PyObject *modname = PyUnicode_FromString(module);
  PyObject *mod = modname ? PyImport_GetModule(modname) : NULL;
  Py_XDECREF(modname);
  if (!mod && !PyErr_Occurred()) mod = PyImport_ImportModule(module);
  PyObject *obj = mod ? Py_NewRef(mod) : NULL;
  char part[64];
  for (const char *p = name; obj && *p;) {
    size_t n = strcspn(p, ".");
    snprintf(part, sizeof part, "%.*s", (int)n, p);
    Py_SETREF(obj, PyObject_GetAttrString(obj, part));
    p += n + (p[n] == '.');
  }
  PyObject *key = PyLong_FromLong(id);
  if (obj && key) PyDict_SetItem(table, obj, key);
  PyErr_Clear();  /* a name missing from this NumPy version is simply absent */
  Py_XDECREF(mod); Py_XDECREF(obj); Py_XDECREF(key);
}

static PyObject *build_table(const Named *entries, size_t n) {
  PyObject *table = PyDict_New();
  for (size_t i = 0; table && i < n; i++)
    table_add(table, entries[i].module, entries[i].name, entries[i].id);
  return table;
}

static int lookup(PyObject *table, PyObject *obj) {
  PyObject *id = table ? PyDict_GetItemWithError(table, obj) : NULL;  /* unhashable: not ours */
  if (!id) {
    PyErr_Clear();
    return -1;
  }
  return (int)PyLong_AsLong(id);
}

/* The builtins' rows (lib/builtins) whose Python objects compiled code may
 * name, from the object to the row's number. Rows of modules not imported
 * yet (numpy.polynomial, heapq, ruchey.cuda) wait in pending, by module,
 * and are added once theirs is: no object of theirs can exist before, and
 * code that uses none of them pays nothing for them (importing them here
 * cost every process's first compile milliseconds). added: the modules
 * whose rows are in the table. */
static void add_builtins(PyObject *table, PyObject *added, PyObject *pending, const RucheyAPI *api) {
  PyObject *modules = PyImport_GetModuleDict(), *now = PyDict_New();  /* the modules this pass adds */
  const Builtin *b;
  PyDict_Clear(pending);
  for (int i = 0; now && (b = api->builtin_at(i)); i++) {
    if (b->kind != BK_FUNCTION || !b->module || PyDict_GetItemString(added, b->module)) continue;
    if (!PyDict_GetItemString(modules, b->module)) {
      PyDict_SetItemString(pending, b->module, Py_True);
    } else {
      table_add(table, b->module, b->path, i);
      PyDict_SetItemString(now, b->module, Py_True);
    }
  }
  if (now) PyDict_Update(added, now);
  Py_XDECREF(now);
  PyErr_Clear();
}

/* Whether one of the modules whose rows wait is imported now. */
static bool pending_imported(PyObject *pending) {
  PyObject *modules = PyImport_GetModuleDict(), *name;
  Py_ssize_t pos = 0;
  while (PyDict_Next(pending, &pos, &name, NULL))
    if (PyDict_GetItem(modules, name)) return true;
  return false;
}

const Builtin *core_builtin(PyObject *obj) {
  static PyObject *table, *added, *pending;
  const RucheyAPI *api = core_api();
  if (!api) return NULL;
  if (!table) {
    if (!(table = PyDict_New()) || !(added = PyDict_New()) || !(pending = PyDict_New())) {
      Py_CLEAR(table);
      Py_CLEAR(added);
      PyErr_Clear();
      return NULL;
    }
    add_builtins(table, added, pending, api);
  } else if (PyDict_GET_SIZE(pending) && pending_imported(pending)) {
    add_builtins(table, added, pending, api);
  }
  int id = lookup(table, obj);
  return id < 0 ? NULL : api->builtin_at(id);
}

const Builtin *core_builtin_named(const char *name) {
  const RucheyAPI *api = core_api();
  const Builtin *b;
  for (int i = 0; api && (b = api->builtin_at(i)); i++)
    if (!strcmp(b->name, name)) return b;
  return NULL;
}

bool core_method_flags(const char *name, unsigned *flags) {
  const RucheyAPI *api = core_api();
  const Builtin *b;
  bool found = false;
  *flags = 0;
  for (int i = 0; api && (b = api->builtin_at(i)); i++)
    if (b->kind == BK_METHOD && !strcmp(b->path, name)) {
      *flags |= b->flags;
      found = true;
    }
  return found;
}

int core_module_id(PyObject *obj) {
  if (!PyModule_Check(obj)) return -1;
  const char *name = PyModule_GetName(obj);
  if (!name) { PyErr_Clear(); return -1; }
  if (!strcmp(name, "numpy")) return MOD_NUMPY;
  if (!strcmp(name, "math")) return MOD_MATH;
  return -1;
}

PyObject *core_module_object(int id) {
  return PyImport_ImportModule(id == MOD_NUMPY ? "numpy" : "math");
}

bool core_is_unicode_type(PyObject *obj) {
  static PyObject *unicode_type;
  if (!unicode_type) {
    PyObject *types = PyImport_ImportModule("ruchey.types");
    unicode_type = types ? PyObject_GetAttrString(types, "unicode_type") : NULL;  /* kept */
    Py_XDECREF(types);
    PyErr_Clear();
  }
  return unicode_type && obj == unicode_type;
}

int core_dtype_kind(PyObject *obj) {
  static const Named dtypes[] = {
    {"numpy", "bool_", TY_BOOL}, {"numpy", "int8", TY_I8}, {"numpy", "int16", TY_I16},
    {"numpy", "int32", TY_I32}, {"numpy", "int64", TY_I64}, {"numpy", "uint8", TY_U8},
    {"numpy", "uint16", TY_U16}, {"numpy", "uint32", TY_U32}, {"numpy", "uint64", TY_U64},
    {"numpy", "float32", TY_F32}, {"numpy", "float64", TY_F64},
    {"numpy", "complex64", TY_C64}, {"numpy", "complex128", TY_C128}, {"numpy", "float16", TY_F16},
    /* C's long long: a class of its own beside int64 (C's long) where both are 64-bit */
    {"numpy", "longlong", TY_I64}, {"numpy", "ulonglong", TY_U64},
    {"builtins", "bool", TY_BOOL}, {"builtins", "int", TY_I64}, {"builtins", "float", TY_F64},
    {"builtins", "complex", TY_C128},
    /* ruchey's own type objects, as numba.float64 is used for dtypes */
    {"ruchey", "bool_", TY_BOOL}, {"ruchey", "boolean", TY_BOOL}, {"ruchey", "int8", TY_I8},
    {"ruchey", "int16", TY_I16}, {"ruchey", "int32", TY_I32}, {"ruchey", "int64", TY_I64},
    {"ruchey", "intp", TY_I64}, {"ruchey", "uint8", TY_U8}, {"ruchey", "uint16", TY_U16},
    {"ruchey", "uint32", TY_U32}, {"ruchey", "uint64", TY_U64}, {"ruchey", "float32", TY_F32},
    {"ruchey", "float64", TY_F64}, {"ruchey", "double", TY_F64},
    {"ruchey", "complex64", TY_C64}, {"ruchey", "complex128", TY_C128}, {"ruchey", "float16", TY_F16},
  };
  static PyObject *table;
  if (!table) table = build_table(dtypes, sizeof dtypes / sizeof dtypes[0]);
  static PyObject *dtype_class;
  if (!dtype_class) {
    PyObject *numpy = PyImport_ImportModule("numpy");
    dtype_class = numpy ? PyObject_GetAttrString(numpy, "dtype") : NULL;
    Py_XDECREF(numpy);
    PyErr_Clear();
  }
  int kind = lookup(table, obj);
  if (kind < 0 && dtype_class && PyObject_IsInstance(obj, dtype_class) == 1) {
    /* a dtype object (numpy.dtype("f4")) stands for its scalar type */
    PyObject *type = PyObject_GetAttrString(obj, "type");
    kind = type ? lookup(table, type) : -1;
    Py_XDECREF(type);
  }
  PyErr_Clear();
  return kind;
}

/* ---------------------------------------------------------------- errors */

void core_raise_diag(const Diag *d, const char *filename) {
  if (d->kind == DIAG_RECURSION) {
    PyErr_Format(PyExc_RecursionError, "%s (%s, line %d)", d->msg, filename, d->line);
    return;
  }
  if (d->kind != DIAG_TYPING && d->kind != DIAG_PENDING && d->kind != DIAG_TYPE) {
    PyErr_Format(PyExc_RuntimeError, "ruchey internal error: %s", d->msg);
    return;
  }
  PyObject *linecache = PyImport_ImportModule("linecache");
  PyObject *line = linecache ? PyObject_CallMethod(linecache, "getline", "si", filename, d->line) : NULL;
  Py_XDECREF(linecache);
  const char *src = line ? PyUnicode_AsUTF8(line) : "";
  PyErr_Clear();
  size_t n = strlen(src);
  while (n && (src[n - 1] == '\n' || src[n - 1] == '\r')) n--;
  /* the column is in UTF-8 bytes (Python's ast); people count characters */
  int col = d->col;
  for (size_t i = 0; i < (size_t)d->col && i < n; i++) col -= ((unsigned char)src[i] & 0xC0) == 0x80;
  char text[sizeof d->msg + 8192], *mark;
  snprintf(text, sizeof text, "%s\n\nFile \"%s\", line %d, column %d:\n    %.*s\n    %*s^", d->msg,
           filename, d->line, col + 1, (int)n, src, col, "");
  while ((mark = strchr(text, DIAG_ATTRIBUTE_MARK))) memmove(mark, mark + 1, strlen(mark));  /* (a callee's too) */
  PyErr_SetString(d->kind == DIAG_TYPE                ? PyExc_TypeError
                  : d->msg[0] == DIAG_ATTRIBUTE_MARK ? core_TypingAttributeError
                                                     : core_TypingError,
                  text);
  Py_XDECREF(line);
}

/* ---------------------------------------------------------------- the module */

static PyObject *core_llvm_version(PyObject *self, PyObject *unused) {
  const RucheyAPI *api = core_api();
  return api ? PyUnicode_FromString(api->llvm_version()) : NULL;
}

static PyObject *core_host_cpu(PyObject *self, PyObject *unused) {
  const RucheyAPI *api = core_api();
  return api ? PyUnicode_FromString(api->host_cpu()) : NULL;
}

/* ---------------------------------------------------------------- the thread pool */

/* These load libruchey but start no thread: the pool starts with the first
 * parallel loop. */

static PyObject *core_get_num_threads(PyObject *self, PyObject *unused) {
  const RucheyAPI *api = core_api();
  return api ? PyLong_FromLongLong(api->get_num_threads()) : NULL;
}

static PyObject *core_max_threads(PyObject *self, PyObject *unused) {
  const RucheyAPI *api = core_api();
  return api ? PyLong_FromLongLong(api->max_threads()) : NULL;
}

static PyObject *core_pool_sized(PyObject *self, PyObject *unused) {
  const RucheyAPI *api = core_api();
  return api ? PyBool_FromLong(api->pool_sized()) : NULL;
}

static PyObject *core_numba_semantics(PyObject *self, PyObject *args) {
  PyObject *flag = NULL;
  if (!PyArg_ParseTuple(args, "|O", &flag)) return NULL;
  int on = flag ? PyObject_IsTrue(flag) : disp_numba_semantics;
  if (on < 0) return NULL;
  disp_numba_semantics = on;
  return PyBool_FromLong(on);
}

static PyObject *core_get_thread_id(PyObject *self, PyObject *unused) {
  const RucheyAPI *api = core_api();
  return api ? PyLong_FromLongLong(api->thread_id()) : NULL;
}

/* Any integer (an int, a NumPy integer) is accepted; one out of [1, pool
 * size], however large, is a ValueError as in Numba. */
static PyObject *core_set_num_threads(PyObject *self, PyObject *arg) {
  const RucheyAPI *api = core_api();
  if (!api) return NULL;
  PyObject *index = PyNumber_Index(arg);
  if (!index) {
    PyErr_Format(PyExc_TypeError, "The number of threads specified must be an integer, not %.100s",
                 Py_TYPE(arg)->tp_name);
    return NULL;
  }
  int overflow;
  long long n = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (n == -1 && PyErr_Occurred()) return NULL;
  if (overflow || api->set_num_threads(n) < 0) {
    PyErr_Format(PyExc_ValueError, "The number of threads must be between 1 and %lld",
                 (long long)api->max_threads());
    return NULL;
  }
  Py_RETURN_NONE;
}

/* Any integer (an int, a NumPy integer) of at least 0, as Numba's. */
static PyObject *core_set_parallel_chunksize(PyObject *self, PyObject *arg) {
  const RucheyAPI *api = core_api();
  if (!api) return NULL;
  if (!PyIndex_Check(arg)) return PyErr_Format(PyExc_TypeError, "The parallel chunksize must be an integer");
  PyObject *index = PyNumber_Index(arg);
  if (!index) return NULL;
  int overflow;
  long long n = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (n == -1 && PyErr_Occurred()) return NULL;
  if (n < 0 || overflow < 0) return PyErr_Format(PyExc_ValueError, "chunksize must be greater than or equal to zero");
  return PyLong_FromLongLong(api->set_chunksize(overflow ? INT64_MAX : n));
}

static PyObject *core_get_parallel_chunksize(PyObject *self, PyObject *unused) {
  const RucheyAPI *api = core_api();
  return api ? PyLong_FromLongLong(api->get_chunksize()) : NULL;
}

/* For the tests: one parallel loop over range(n), GIL released, whose body
 * records each chunk. Returns [(begin, end, chunk, pool_thread_id()), ...]
 * in chunk order. */
typedef struct { const RucheyAPI *api; int64_t (*chunks)[4]; } ChunkLog;

static void log_chunk(void *ctx, int64_t begin, int64_t end, int64_t chunk) {
  ChunkLog *log = ctx;
  int64_t *c = log->chunks[chunk];
  c[0] = begin, c[1] = end, c[2] = chunk, c[3] = log->api->thread_id();
}

static PyObject *core_parallel_chunks(PyObject *self, PyObject *arg) {
  const RucheyAPI *api = core_api();
  long long n = api ? PyLong_AsLongLong(arg) : -1;
  if (!api || (n == -1 && PyErr_Occurred())) return NULL;
  int64_t count = api->chunk_count(n);
  ChunkLog log = {api, PyMem_Calloc((size_t)count, sizeof *log.chunks)};
  if (!log.chunks) return PyErr_NoMemory();
  for (int64_t i = 0; i < count; i++) log.chunks[i][2] = -1;
  Py_BEGIN_ALLOW_THREADS
  api->parallel_for(log_chunk, &log, n, count);
  Py_END_ALLOW_THREADS
  PyObject *list = PyList_New(0);
  for (int64_t i = 0; list && i < count; i++) {
    int64_t *c = log.chunks[i];
    PyObject *t = c[2] < 0 ? NULL : Py_BuildValue("(LLLL)", c[0], c[1], c[2], c[3]);
    if (t && PyList_Append(list, t) < 0) Py_CLEAR(list);
    Py_XDECREF(t);
  }
  PyMem_Free(log.chunks);
  return list;
}

/* The builtins' table as Python sees it, for tests generated from it:
 * [(name, module, path, kind, min_args, max_args, {flag names}), ...]. */
static PyObject *core_builtins(PyObject *self, PyObject *unused) {
  static const struct { unsigned flag; const char *name; } flags[] = {
    {BF_PURE, "pure"}, {BF_RAISES, "raises"}, {BF_CHEAP, "cheap"}, {BF_ALLOCATES, "allocates"},
    {BF_KERNEL, "kernel"}, {BF_VARIES, "varies"}, {BF_THREAD_INDEX, "thread_index"}, {BF_PER_BLOCK, "per_block"},
    {BF_BARRIER, "barrier"}, {BF_BLOCK_MEMORY, "block_memory"}, {BF_PER_THREAD, "per_thread"},
    {BF_NOCALL, "nocall"}, {BF_RANGE, "range"}, {BF_PARALLEL, "parallel"}, {BF_WARP, "warp"},
    {BF_STRINGS, "strings"}, {BF_GRID, "grid"}, {BF_NONE, "none"}, {BF_BLAS, "blas"},
  };
  static const char *const kinds[] = {[BK_FUNCTION] = "function", [BK_METHOD] = "method", [BK_ATTRIBUTE] = "attribute"};
  const RucheyAPI *api = core_api();
  PyObject *list = api ? PyList_New(0) : NULL;
  const Builtin *b;
  for (int i = 0; list && (b = api->builtin_at(i)); i++) {
    PyObject *names = PySet_New(NULL);
    for (size_t f = 0; names && f < sizeof flags / sizeof flags[0]; f++) {
      if (!(b->flags & flags[f].flag)) continue;
      PyObject *name = PyUnicode_FromString(flags[f].name);
      if (!name || PySet_Add(names, name) < 0) Py_CLEAR(names);
      Py_XDECREF(name);
    }
    PyObject *row = names ? Py_BuildValue("(szzsiiN)", b->name, b->module, b->path, kinds[b->kind], b->min_args,
                                          b->max_args, names) : NULL;
    if (!row || PyList_Append(list, row) < 0) Py_CLEAR(list);
    Py_XDECREF(row);
  }
  return list;
}

static PyMethodDef core_methods[] = {
  {"jitclass_declare", jitclass_declare, METH_O,
   "A jitclass's instances' type made, its fields given later: class -> its name."},
  {"_value_class", core_value_class, METH_VARARGS,
   "(class, converter): objects of class are passed as the named tuple converter(obj) makes (ruchey._values)."},
  {"_value_class_later", core_value_class_later, METH_VARARGS,
   "(\"module.qualname\", register): register() is called where an object of that class is first seen."},
  {"_value_register_later", core_value_register_later, METH_O,
   "Registers a class given to _value_class_later now; whether it was one."},
  {"_value_hooks", core_value_hooks, METH_VARARGS,
   "(converter, constant): objects whose class has _numba_type_ are passed as converter(obj) makes, None "
   "where it is no value type; a global such object is frozen as constant(obj) (ruchey._values)."},
  {"_value_boxer", core_value_boxer, METH_VARARGS,
   "(named tuple class, boxer): results of its type are boxer(*items), not the class called (ruchey._values)."},
  {"typeof_described", disp_typeof_described, METH_O,
   "The type compiled code is given a value as, described (ruchey.types.typeof's fallback)."},
  {"unify_described", disp_unify_described, METH_VARARGS,
   "(a, b) described types: the type a variable holding both has, described; None where they do not unify."},
  {"jitclass_type", jitclass_make_type, METH_VARARGS,
   "A declared jitclass's fields given: (class, field names, field type descriptions) -> its name."},
  {"_analyses", cp_analyses, METH_VARARGS,
   "For tests: (pyfunc, argument types[, parallel, kernel]) typed and analysed, described as text."},
  {"builtins", core_builtins, METH_NOARGS,
   "The builtins compiled code can call, one row each: (name, module, path, kind, min_args, max_args, flags)."},
  {"compile_ptx", cp_compile_ptx, METH_VARARGS,
   "A kernel (or a device function) as PTX: (pyfunc, argument types, cc[, device])."},
  {"_ufunc_loop", ufunc_compile_loop, METH_VARARGS,
   "A function of scalars compiled as a ufunc inner loop: (dispatcher, argument types, return type or None)."},
  {"_cfunc", cfunc_compile, METH_VARARGS,
   "A function compiled as a C callback: (dispatcher, argument types, return type, llvm) -> (address, code) or its LLVM IR."},
  {"_make_ufunc", ufunc_make, METH_VARARGS,
   "A numpy.ufunc of compiled loops: (name, doc, nin, identity, [(loop, type numbers)], parallel)."},
  {"_gufunc_loop", gufunc_compile_loop, METH_VARARGS,
   "A function compiled for a gufunc's loop: (dispatcher, argument types) -> (entry, type numbers)."},
  {"_make_gufunc", gufunc_make, METH_VARARGS,
   "A generalized numpy.ufunc of compiled functions: (name, doc, nin, nout, signature, loops, parallel, dispatcher, writable inputs)."},
  {"llvm_version", core_llvm_version, METH_NOARGS, "The version of LLVM inside libruchey (without loading it)."},
  {"host_cpu", core_host_cpu, METH_NOARGS, "The CPU LLVM compiles for (loads it)."},
  {"get_num_threads", core_get_num_threads, METH_NOARGS,
   "The number of threads a parallel loop started by this thread uses."},
  {"set_num_threads", core_set_num_threads, METH_O,
   "Sets the number of threads parallel loops started by this thread use, 1 to max_threads()."},
  {"set_parallel_chunksize", core_set_parallel_chunksize, METH_O,
   "Sets how many iterations each chunk of the parallel loops this thread starts takes (0: the pool's own "
   "split); returns the chunksize before."},
  {"get_parallel_chunksize", core_get_parallel_chunksize, METH_NOARGS,
   "The parallel chunksize of this thread (0 inside a parallel loop's body)."},
  {"max_threads", core_max_threads, METH_NOARGS,
   "The size of the thread pool: RUCHEY_NUM_THREADS, else the CPUs available."},
  {"pool_sized", core_pool_sized, METH_NOARGS,
   "Whether the pool's size is fixed yet (a parallel loop, get_num_threads or set_num_threads has run)."},
  {"_numba_semantics", core_numba_semantics, METH_VARARGS,
   "([flag]) Whether code runs with Numba's readings where ruchey is stricter (install_as_numba() sets it): "
   "functions decorated from now on read a variable not assigned on the path taken as its type's zero, and "
   "calls take ndarray subclasses with their own indexing as plain arrays."},
  {"get_thread_id", core_get_thread_id, METH_NOARGS,
   "The index of the pool thread running this code: 0 outside parallel loops."},
  {"_parallel_chunks", core_parallel_chunks, METH_O,
   "Tests the pool: runs an empty parallel loop over range(n), returns its chunks."},
  {"_typed_variables", cp_typed_variables, METH_VARARGS,
   "A function typed for argument types: each variable's type, and the return type (inspect_types)."},
  {"_grid_sync", cp_grid_sync, METH_VARARGS,
   "Whether a function typed as a kernel for argument types waits for its whole grid (numba-cuda's cooperative)."},
  {"_class_symbol", cache_class_symbol, METH_O,
   "The symbol compiled code names an exception class by (the on-disk cache checks it)."},
  {"_trace_memory", core_trace_memory, METH_O,
   "(on) Whether tracemalloc traces: the arrays compiled code makes are told to it only then."},
  {"_host_key", cache_host_key, METH_NOARGS, "What compiled code is made for: LLVM's version and the processor."},
  {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
  PyModuleDef_HEAD_INIT, "ruchey._core", "ruchey's compiler front end and dispatcher.", -1,
  core_methods,
};

/* The scalar types' names, numbered as their kinds, for ruchey.types
 * (types.def puts the scalars first). */
static PyObject *scalar_names(void) {
  static const struct { const char *name; unsigned flags; } kinds[] = {
#define X(kind, name, flags, bits) {name, flags},
#include "types.def"
#undef X
  };
  int n = 0;
  while (kinds[n].flags & TF_SCALAR) n++;
  PyObject *t = PyTuple_New(n);
  for (int k = 0; t && k < n; k++) PyTuple_SET_ITEM(t, k, PyUnicode_FromString(kinds[k].name));
  return t;
}

PyMODINIT_FUNC PyInit__core(void) {
  if (disp_init_numpy() < 0 || src_watch() < 0) return NULL;
  core_main_thread = main_thread_ident();
  jitclass_keep_objects(NULL);
  PyObject *m = PyModule_Create(&core_module);
  if (!m) return NULL;
  PyObject *names = scalar_names();
  /* Numba's numba.core.errors.NumbaError, the base that code written for Numba catches TypingError by */
  PyObject *base = core_NumbaError = PyErr_NewExceptionWithDoc("ruchey.NumbaError",
                                                               "The base of the compiler's errors, as Numba's.", NULL, NULL);
  core_TypingError = base ? PyErr_NewExceptionWithDoc(
      "ruchey.TypingError", "Code that ruchey cannot compile: the message points at the source line.",
      base, NULL) : NULL;
  core_LiteralRequest = core_TypingError ? PyErr_NewExceptionWithDoc(
      "ruchey.LiteralRequest", "A compile needed the value of an argument the function takes literally() of, "
      "and was given only its type.", core_TypingError, NULL) : NULL;
  PyObject *bases = core_TypingError ? PyTuple_Pack(2, core_TypingError, PyExc_TypeError) : NULL;
  core_ArgumentTypeError = bases ? PyErr_NewExceptionWithDoc(
      "ruchey.ArgumentTypeError", "An argument of a type compiled code cannot take: a TypingError, as Numba "
      "raises, and a TypeError.", bases, NULL) : NULL;
  Py_XDECREF(bases);
  bases = core_TypingError ? PyTuple_Pack(2, core_TypingError, PyExc_AttributeError) : NULL;
  core_TypingAttributeError = bases ? PyErr_NewExceptionWithDoc(
      "ruchey.TypingAttributeError", "getattr() in compiled code of an attribute the value's type has not: a "
      "TypingError, and an AttributeError as Numba raises.", bases, NULL) : NULL;
  Py_XDECREF(bases);
  if (!core_LiteralRequest || !core_ArgumentTypeError || !core_TypingAttributeError ||
      PyModule_AddObjectRef(m, "TypingAttributeError", core_TypingAttributeError) < 0 || PyModule_AddObjectRef(m, "NumbaError", base) < 0 ||
      PyModule_AddObjectRef(m, "TypingError", core_TypingError) < 0 ||
      PyModule_AddObjectRef(m, "LiteralRequest", core_LiteralRequest) < 0 ||
      PyModule_AddObjectRef(m, "ArgumentTypeError", core_ArgumentTypeError) < 0 ||
      PyType_Ready(&DispatcherType) < 0 || PyType_Ready(&MemInfoType) < 0 || PyType_Ready(&YieldsType) < 0 || typed_add_to_module(m) < 0 ||
      PyModule_AddObjectRef(m, "Dispatcher", (PyObject *)&DispatcherType) < 0 ||
      !names || PyModule_AddObjectRef(m, "SCALAR_NAMES", names) < 0 || cu_add_to_module(m) < 0 ||
      nvrtc_add_to_module(m) < 0 || jitclass_add_to_module(m) < 0 || PyModule_AddIntConstant(m, "STR_KIND", TY_STR) < 0) {
    Py_XDECREF(names);
    Py_DECREF(m);
    return NULL;
  }
  Py_DECREF(names);
  return m;
}
