/* dispatch.c — the object @jit returns.
 *
 * A call computes a small integer code per argument (Python type; for arrays
 * dtype, ndim, layout, writability), finds the specialisation with those
 * codes, unboxes the arguments onto the C stack, calls the machine code and
 * boxes its result. No tuple is built and nothing is allocated on that path.
 * A miss compiles a new specialisation: frontend (here) → libruchey.
 */
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include "core.h"

#include <numpy/arrayobject.h>
#include <structmember.h>
#include <stddef.h>

#define MAX_ARGS 32

/* Python's small ints, -5 to 256, held here: an int64 result among them is
 * returned without a call into CPython (a few ns of every call's cost). */
enum { SMALL_MIN = -5, SMALL_MAX = 256 };
static PyObject *small_ints[SMALL_MAX - SMALL_MIN + 1];

static PyObject *box_int64(int64_t v) {
  if (v >= SMALL_MIN && v <= SMALL_MAX && small_ints[v - SMALL_MIN]) return Py_NewRef(small_ints[v - SMALL_MIN]);
  return PyLong_FromLongLong(v);
}

int disp_init_numpy(void) {
  import_array1(-1);
  for (int v = SMALL_MIN; v <= SMALL_MAX; v++)
    if (!(small_ints[v - SMALL_MIN] = PyLong_FromLong(v))) return -1;
  return 0;
}

/* ---------------------------------------------------------------- type codes */

/* Code layout: scalars are their TypeKind + 1; arrays set bit 31 and pack
 * kind, ndim, layout and readonly. 0 means "cannot be compiled". */
enum { CODE_ARRAY = 1u << 31 };

static int dtype_kind(int type_num) {
  switch (type_num) {
  case NPY_BOOL: return TY_BOOL;
  case NPY_INT8: return TY_I8;
  case NPY_INT16: return TY_I16;
  case NPY_INT32: return TY_I32;
  case NPY_UINT8: return TY_U8;
  case NPY_UINT16: return TY_U16;
  case NPY_UINT32: return TY_U32;
  case NPY_FLOAT32: return TY_F32;
  case NPY_FLOAT64: return TY_F64;
  default:
    /* long and longlong are both 64-bit on the platforms we build for */
    if (type_num == NPY_INT64 || type_num == NPY_LONGLONG) return TY_I64;
    if (type_num == NPY_UINT64 || type_num == NPY_ULONGLONG) return TY_U64;
    return -1;
  }
}

static int kind_type_num(TypeKind k) {
  static const int nums[TY_F64 + 1] = {NPY_BOOL, NPY_INT8, NPY_INT16, NPY_INT32, NPY_INT64,
                                       NPY_UINT8, NPY_UINT16, NPY_UINT32, NPY_UINT64,
                                       NPY_FLOAT32, NPY_FLOAT64};
  return nums[k];
}

static uint32_t array_code(PyArrayObject *a) {
  PyArray_Descr *d = PyArray_DESCR(a);
  int kind = dtype_kind(d->type_num);
  if (kind < 0 || !PyArray_ISNBO(d->byteorder) || PyArray_NDIM(a) > RC_MAX_NDIM) return 0;
  int nd = PyArray_NDIM(a);
  char layout = PyArray_IS_C_CONTIGUOUS(a) ? 'C' : PyArray_IS_F_CONTIGUOUS(a) ? 'F' : 'A';
  if (nd == 0) layout = 'C';
  uint32_t lay = layout == 'C' ? 0 : layout == 'F' ? 1 : 2;
  return CODE_ARRAY | (uint32_t)kind << 16 | (uint32_t)nd << 8 | lay << 1 |
         (PyArray_ISWRITEABLE(a) ? 0 : 1);
}

static uint32_t type_code(PyObject *o) {
  PyTypeObject *t = Py_TYPE(o);
  if (t == &PyFloat_Type) return TY_F64 + 1;
  if (t == &PyLong_Type) return TY_I64 + 1;
  if (t == &PyBool_Type) return TY_BOOL + 1;
  if (PyArray_Check(o)) return array_code((PyArrayObject *)o);
  if (PyArray_IsScalar(o, Generic)) {
    PyArray_Descr *d = PyArray_DescrFromScalar(o);
    int kind = dtype_kind(d->type_num);
    Py_DECREF(d);
    return kind < 0 ? 0 : (uint32_t)kind + 1;
  }
  return 0;
}

/* The ruchey Type a code stands for, allocated in arena. */
static const Type *code_type(uint32_t code, Arena *arena) {
  if (!(code & CODE_ARRAY)) return TYS(code - 1);
  Type *t = arena_alloc(arena, sizeof(Type));
  t->kind = TY_ARRAY;
  t->elem = TYS((code >> 16) & 0xff);
  t->ndim = (int)(code >> 8) & 0xff;
  t->layout = "CFA"[(code >> 1) & 3];
  t->readonly = code & 1;
  return t;
}

/* ---------------------------------------------------------------- memory owners */

/* The Python owner of a reference to memory allocated by compiled code: the
 * base of every array returned from compiled code. */
typedef struct {
  PyObject_HEAD
  RtMemInfo *mi;
} MemInfoObject;

static void meminfo_dealloc(MemInfoObject *self) {
  core_api()->meminfo_release(self->mi);
  Py_TYPE(self)->tp_free(self);
}

PyTypeObject MemInfoType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ruchey._core.MemInfo",
  .tp_basicsize = sizeof(MemInfoObject),
  .tp_dealloc = (destructor)meminfo_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "Owns memory allocated by compiled code.",
};

/* ---------------------------------------------------------------- boxing */

/* Size and alignment of a type's storage layout (as LLVM lays out structs). */
static size_t storage_align(const Type *t);

static size_t storage_size(const Type *t) {
  if (t->kind == TY_ARRAY) return sizeof(RtArray);
  if (t->kind == TY_TUPLE) {
    size_t off = 0, align = 1;
    for (int i = 0; i < t->nfields; i++) {
      size_t a = storage_align(t->fields[i]);
      off = (off + a - 1) / a * a + storage_size(t->fields[i]);
      if (a > align) align = a;
    }
    return (off + align - 1) / align * align;
  }
  if (t->kind == TY_NONE) return 0;
  return (size_t)ty_bits(t) / 8;
}

static size_t storage_align(const Type *t) {
  if (t->kind == TY_ARRAY) return 8;
  if (t->kind == TY_TUPLE) {
    size_t align = 1;
    for (int i = 0; i < t->nfields; i++)
      if (storage_align(t->fields[i]) > align) align = storage_align(t->fields[i]);
    return align;
  }
  return t->kind == TY_NONE ? 1 : storage_size(t);
}

static __attribute__((noinline)) PyObject *box_array(const Type *t, RtArray *a) {
  npy_intp shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  for (int d = 0; d < t->ndim; d++) {
    shape[d] = (npy_intp)a->shape[d];
    strides[d] = (npy_intp)a->strides[d];
  }
  PyObject *base;
  if (a->meminfo) {
    MemInfoObject *owner = PyObject_New(MemInfoObject, &MemInfoType);
    if (!owner) {
      core_api()->meminfo_release(a->meminfo);
      return NULL;
    }
    owner->mi = a->meminfo;
    base = (PyObject *)owner;
  } else {
    /* an argument array (or a view of one) handed back */
    PyArrayObject *p = (PyArrayObject *)a->parent;
    if (PyArray_DATA(p) == a->data && PyArray_NDIM(p) == t->ndim &&
        !memcmp(PyArray_DIMS(p), shape, sizeof(npy_intp) * (size_t)t->ndim) &&
        !memcmp(PyArray_STRIDES(p), strides, sizeof(npy_intp) * (size_t)t->ndim))
      return Py_NewRef((PyObject *)p);
    base = Py_NewRef((PyObject *)p);
  }
  PyArray_Descr *descr = PyArray_DescrFromType(kind_type_num(t->elem->kind));
  int flags = t->readonly ? 0 : NPY_ARRAY_WRITEABLE;
  PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, descr, t->ndim, shape, strides, a->data,
                                       flags, NULL);
  if (!arr || PyArray_SetBaseObject((PyArrayObject *)arr, base) < 0) {
    Py_XDECREF(arr);
    Py_DECREF(base);
    return NULL;
  }
  return arr;
}

static __attribute__((noinline)) PyObject *box_tuple(const Type *t, char *p);

/* A result as a Python object. Inline on the call path: the scalars need
 * no frame of their own; arrays and tuples are boxed out of line. */
static inline PyObject *box(const Type *t, char *p) {
  switch (t->kind) {
  case TY_NONE: Py_RETURN_NONE;
  case TY_BOOL: return PyBool_FromLong(*(uint8_t *)p);
  case TY_I8: return PyLong_FromLong(*(int8_t *)p);
  case TY_I16: return PyLong_FromLong(*(int16_t *)p);
  case TY_I32: return PyLong_FromLong(*(int32_t *)p);
  case TY_I64: return box_int64(*(int64_t *)p);
  case TY_U8: return PyLong_FromUnsignedLong(*(uint8_t *)p);
  case TY_U16: return PyLong_FromUnsignedLong(*(uint16_t *)p);
  case TY_U32: return PyLong_FromUnsignedLong(*(uint32_t *)p);
  case TY_U64: return PyLong_FromUnsignedLongLong(*(uint64_t *)p);
  case TY_F32: return PyFloat_FromDouble(*(float *)p);
  case TY_F64: return PyFloat_FromDouble(*(double *)p);
  case TY_ARRAY: return box_array(t, (RtArray *)p);
  case TY_TUPLE: return box_tuple(t, p);
  default:
    PyErr_SetString(PyExc_TypeError, "ruchey: cannot return this type to Python");
    return NULL;
  }
}

static PyObject *box_tuple(const Type *t, char *p) {
  PyObject *tup = PyTuple_New(t->nfields);
  size_t off = 0;
  for (int i = 0; tup && i < t->nfields; i++) {
    size_t a = storage_align(t->fields[i]);
    off = (off + a - 1) / a * a;
    PyObject *item = box(t->fields[i], p + off);
    if (!item) Py_CLEAR(tup);
    else PyTuple_SET_ITEM(tup, i, item);
    off += storage_size(t->fields[i]);
  }
  return tup;
}

/* ---------------------------------------------------------------- unboxing */

/* One argument's unboxed value: scalars in the union, arrays in an RtArray. */
typedef union Slot {
  int64_t i;
  uint64_t u;
  double f;
  float f32;
  uint8_t b;
  RtArray *arr;
} Slot;

/* Unboxes o as the type `code` stands for. The exact type is the fast
 * path; a compatible one (an int for a float64 parameter of an explicit
 * signature) is converted as Python would. */
static int unbox(PyObject *o, uint32_t code, Slot *slot, RtArray *arr, void **arg) {
  *arg = slot;
  if (code & CODE_ARRAY) {
    PyArrayObject *a = (PyArrayObject *)o;
    arr->meminfo = NULL;
    arr->parent = o;
    arr->data = PyArray_DATA(a);
    int nd = PyArray_NDIM(a);
    memcpy(arr->shape, PyArray_DIMS(a), sizeof(int64_t) * (size_t)nd);
    memcpy(arr->strides, PyArray_STRIDES(a), sizeof(int64_t) * (size_t)nd);
    *arg = arr;
    return 0;
  }
  /* the common scalars first: a Python int for int64, a float for float64 */
  if (code == TY_I64 + 1 && PyLong_CheckExact(o)) {
    int overflow;
    slot->i = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) return 0;
    PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to int64");
    return -1;
  }
  if (code == TY_F64 + 1 && PyFloat_CheckExact(o)) {
    slot->f = PyFloat_AS_DOUBLE(o);
    return 0;
  }
  TypeKind k = (TypeKind)(code - 1);
  if (type_code(o) == code) {
    if (PyArray_IsScalar(o, Generic)) {
      PyArray_ScalarAsCtype(o, slot);
      return 0;
    }
    if (k == TY_F64) {
      slot->f = PyFloat_AS_DOUBLE(o);
      return 0;
    }
    if (k == TY_BOOL) {
      slot->b = o == Py_True;
      return 0;
    }
  }
  if (k == TY_F64 || k == TY_F32) {
    double v = PyFloat_AsDouble(o);
    if (k == TY_F64) slot->f = v;
    else slot->f32 = (float)v;
    return v == -1.0 && PyErr_Occurred() ? -1 : 0;
  }
  if (k == TY_BOOL) {
    int t = PyObject_IsTrue(o);
    slot->b = (uint8_t)t;
    return t < 0 ? -1 : 0;
  }
  PyObject *index = PyNumber_Index(o);
  if (!index) return -1;
  int overflow;
  int64_t v = ty_is_signed(TYS(k)) ? PyLong_AsLongLongAndOverflow(index, &overflow)
                                   : (int64_t)PyLong_AsUnsignedLongLong(index);
  Py_DECREF(index);
  if (PyErr_Occurred()) return -1;
  if (ty_is_signed(TYS(k)) && overflow) {
    PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to int64");
    return -1;
  }
  switch (ty_bits(TYS(k))) {  /* store at the parameter's width */
  case 8: slot->b = (uint8_t)v; break;
  case 16: memcpy(slot, &(int16_t){(int16_t)v}, 2); break;
  case 32: memcpy(slot, &(int32_t){(int32_t)v}, 4); break;
  default: slot->i = v; break;
  }
  return 0;
}

/* Whether an argument of type `have` can be passed as `want`: the same, an
 * array of any layout for an 'A' parameter, or a number for a wider one. */
static bool code_accepts(uint32_t want, uint32_t have) {
  if (want == have) return true;
  if ((want & CODE_ARRAY) && (have & CODE_ARRAY)) {
    bool same = (want >> 8) == (have >> 8);                    /* kind and ndim */
    bool layout = ((want >> 1) & 3) == 2 || ((want >> 1) & 3) == ((have >> 1) & 3);
    bool writable = (want & 1) || !(have & 1);
    return same && layout && writable;
  }
  if ((want | have) & CODE_ARRAY) return false;
  TypeKind w = (TypeKind)(want - 1), h = (TypeKind)(have - 1);
  if (ty_is_float(TYS(w))) return true;
  return ty_is_int(TYS(w)) && (h == TY_BOOL || ty_is_int(TYS(h)));
}

/* ---------------------------------------------------------------- the dispatcher */

typedef struct Spec {
  uint32_t codes[MAX_ARGS];
  int (*entry)(void *ret, void **args);
  const Type *ret_type;   /* in the dispatcher's arena */
  const Type *declared_ret; /* the explicit signature's return type, or NULL */
  bool device;            /* called from kernels: takes the CUDA thread after its arguments */
  bool barrier;           /* reaches cuda.syncthreads() */
  int narrays;            /* array arguments, for the call's unboxing space */
  size_t ret_size;
} Spec;

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *py_func;
  PyObject *dict;
  PyObject *signatures;   /* list of str, one per Spec */
  PyObject *weakrefs;
  CompileOptions opts;
  bool nogil;
  bool sealed;            /* explicit signatures given: no compiles on a miss */
  /* One thread compiles this function at a time, so that threads calling a
   * new signature at once get one compilation. Re-entered by its owner
   * (compiling f(int) may compile f(float) for a call inside it). */
  PyThread_type_lock compile_lock;
  unsigned long lock_owner;
  int lock_depth;
  int nparams;
  Spec *specs;
  int nspecs;
  Arena arena;            /* return types of the specialisations */
  struct GpuSpec *gpu_specs; /* a kernel's specialisations loaded on GPUs */
  int ngpu_specs;
  PyObject *gpu_signatures;  /* list of str, one per GpuSpec */
} Dispatcher;

/* A kernel specialisation compiled to PTX and loaded on one CUDA device. */
typedef struct GpuSpec {
  uint32_t codes[MAX_ARGS];
  int device;
  void *module, *function;
} GpuSpec;

static const Type *clone_type(const Type *t, Arena *a) {
  if (ty_is_scalar(t) || t->kind == TY_NONE) return TYS(t->kind);
  Type *c = arena_alloc(a, sizeof(Type));
  *c = *t;
  if (t->elem) c->elem = TYS(t->elem->kind);
  if (t->kind == TY_TUPLE) {
    c->fields = arena_alloc(a, sizeof(Type *) * (size_t)(t->nfields ? t->nfields : 1));
    for (int i = 0; i < t->nfields; i++) c->fields[i] = clone_type(t->fields[i], a);
  }
  return c;
}

static PyObject *signature_text(const uint32_t *codes, int n) {
  char buf[4096] = "(", tb[256];
  size_t used = 1;
  Arena tmp = {0};
  for (int i = 0; i < n && used < sizeof buf; i++) {
    ty_format(code_type(codes[i], &tmp), tb, sizeof tb);
    used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? ", " : "", tb);
  }
  arena_free(&tmp);
  if (used < sizeof buf) snprintf(buf + used, sizeof buf - used, n == 1 ? ",)" : ")");
  return PyUnicode_FromString(buf);
}

static Spec *find_spec(Dispatcher *self, const uint32_t *codes, bool device);
static Spec *add_spec(Dispatcher *self, const uint32_t *codes, const Type *declared_ret, bool device);
static Spec *compile_miss(Dispatcher *self, const uint32_t *codes, bool device);

/* The compiles in progress on this thread, innermost last: a call that
 * names one of them is recursion. */
typedef struct Compiling {
  Dispatcher *disp;
  const uint32_t *codes;
  Func *func;          /* its return type so far, for a mutually recursive call */
  void **entry_cell;   /* where its entry will be, for code compiled meanwhile */
  bool cell_used;      /* some code calls through the cell: it lives forever */
} Compiling;
static _Thread_local Compiling compiling[64];
static _Thread_local int ncompiling;

static uint32_t code_of_type(const Type *t) {
  if (ty_is_scalar(t)) return (uint32_t)t->kind + 1;
  if (t->kind != TY_ARRAY) return 0;
  uint32_t lay = t->layout == 'C' ? 0 : t->layout == 'F' ? 1 : 2;
  return CODE_ARRAY | (uint32_t)t->elem->kind << 16 | (uint32_t)t->ndim << 8 | lay << 1 | t->readonly;
}

static bool diag_from_exception(Diag *diag) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyObject *text = value ? PyObject_Str(value) : NULL;
  diag->kind = type == core_TypingError ? DIAG_TYPING : DIAG_INTERNAL;
  snprintf(diag->msg, sizeof diag->msg, "%s", text ? PyUnicode_AsUTF8(text) : "error");
  Py_XDECREF(text); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
  PyErr_Clear();
  return false;
}

/* ResolveCall for libruchey: compiles (or finds) the callee's
 * specialisation for the argument types. */
/* The type codes of a call's arguments to disp; false with diag set when
 * they cannot be passed. */
static bool call_codes(Dispatcher *disp, const Type **args, int nargs, uint32_t *codes, Diag *diag) {
  char tb[128];
  if (nargs != disp->nparams) {
    snprintf(diag->msg, sizeof diag->msg, "wrong number of arguments");
    diag->kind = DIAG_TYPING;
    return false;
  }
  for (int i = 0; i < nargs; i++) {
    if (!(codes[i] = code_of_type(args[i]))) {
      ty_format(args[i], tb, sizeof tb);
      diag->kind = DIAG_TYPING;
      snprintf(diag->msg, sizeof diag->msg, "argument %d of type %s cannot be passed to a ruchey function", i + 1, tb);
      return false;
    }
  }
  return true;
}

static bool resolve_call(void *ctx, void *callee, const Type **args, int nargs, bool device,
                         CallTarget *out, Diag *diag) {
  Dispatcher *disp = callee;
  uint32_t codes[MAX_ARGS] = {0};
  if (!call_codes(disp, args, nargs, codes, diag)) return false;
  for (int i = 0; i < ncompiling; i++) {
    if (compiling[i].disp != disp || memcmp(compiling[i].codes, codes, sizeof(uint32_t) * (size_t)nargs)) continue;
    if (i == ncompiling - 1) {
      out->self = true;
      return true;
    }
    /* mutual recursion: call through the cell its entry will be put in */
    if (!compiling[i].entry_cell) {
      diag->kind = DIAG_TYPING;
      snprintf(diag->msg, sizeof diag->msg, "mutual recursion is not supported here");
      return false;
    }
    compiling[i].cell_used = true;
    out->self = false;
    out->indirect = compiling[i].entry_cell;
    out->ret_type = compiling[i].func->ret_type;
    return true;
  }
  Spec *s = find_spec(disp, codes, device);
  if (!s && !(s = compile_miss(disp, codes, device))) return diag_from_exception(diag);
  out->self = false;
  out->entry = s->entry;
  out->ret_type = s->ret_type;
  out->barrier = s->barrier;
  return true;
}

/* ---------------------------------------------------------------- device functions on the GPU */

/* A kernel's PTX holds every function it calls: each callee is read and
 * typed into the kernel's arena, once per argument types, and lowered into
 * the kernel's module under its own symbol. */
typedef struct GpuCallee {
  Dispatcher *disp;
  uint32_t codes[MAX_ARGS];
  Func *func;
  CompileOptions opts;
  const char *symbol;
  bool typing;            /* being typed now: a call to it is recursion */
} GpuCallee;

typedef struct GpuCalls {
  Arena *arena;           /* the kernel's compile */
  int cc;
  GpuCallee callees[32];
  int n;
} GpuCalls;

static bool gpu_call_error(Diag *diag, const char *msg) {
  diag->kind = DIAG_TYPING;
  snprintf(diag->msg, sizeof diag->msg, "%s", msg);
  return false;
}

static void gpu_target(GpuCallee *c, bool self, CallTarget *out) {
  out->self = self;
  out->func = c->func;
  out->func_opts = &c->opts;
  out->symbol = c->symbol;
  out->ret_type = c->func->ret_type;
}

static bool resolve_gpu_call(void *ctx, void *callee, const Type **args, int nargs, bool device,
                             CallTarget *out, Diag *diag) {
  GpuCalls *g = ctx;
  Dispatcher *disp = callee;
  uint32_t codes[MAX_ARGS] = {0};
  if (!call_codes(disp, args, nargs, codes, diag)) return false;
  int innermost = -1;  /* the function being typed now */
  for (int i = 0; i < g->n; i++)
    if (g->callees[i].typing) innermost = i;
  for (int i = 0; i < g->n; i++) {
    GpuCallee *c = &g->callees[i];
    if (c->disp != disp || memcmp(c->codes, codes, sizeof(uint32_t) * (size_t)nargs)) continue;
    if (c->typing && i != innermost)
      return gpu_call_error(diag, "mutual recursion between device functions is not supported on the GPU");
    gpu_target(c, c->typing, out);
    return true;
  }
  if (g->n == (int)(sizeof g->callees / sizeof g->callees[0]))
    return gpu_call_error(diag, "a kernel calls too many different device functions");
  Func *f = fe_read_function(disp->py_func, g->arena, diag);
  if (!f) return diag->kind ? false : diag_from_exception(diag);
  GpuCallee *c = &g->callees[g->n++];
  *c = (GpuCallee){.disp = disp, .func = f, .opts = disp->opts, .typing = true};
  memcpy(c->codes, codes, sizeof(uint32_t) * (size_t)nargs);
  c->opts.kernel = false;
  c->opts.device = true;
  c->opts.gpu_cc = g->cc;
  c->opts.declared_ret = NULL;
  c->opts.resolve = resolve_gpu_call;
  c->opts.resolve_ctx = g;
  char symbol[256];
  snprintf(symbol, sizeof symbol, "%s_%d", f->name, g->n);
  c->symbol = arena_strdup(g->arena, symbol);
  const Type **argtypes = arena_alloc(g->arena, sizeof(Type *) * (size_t)(nargs ? nargs : 1));
  memcpy(argtypes, args, sizeof(Type *) * (size_t)nargs);
  bool ok = core_api()->infer(f, argtypes, &c->opts, diag);
  c->typing = false;
  if (ok) gpu_target(c, false, out);
  return ok;
}

/* Entry cells that compiled code reads: kept for the life of the process,
 * as the code is. */
static void keep_cell(void **cell) {
  static void ***kept;
  static size_t nkept;
  void ***grown = PyMem_Realloc(kept, sizeof(void **) * (nkept + 1));
  if (!grown) return;  /* then the cell is simply never freed */
  kept = grown;
  kept[nkept++] = cell;
}

/* What a mutually recursive call reaches when its callee failed to compile. */
static int failed_callee(void *ret, void **args) {
  RtError *e = core_api()->last_error();
  e->status = RT_ERR_RUNTIME;
  e->msg = "this calls a ruchey function whose compilation failed";
  e->exc_class = NULL;
  return RT_ERR_RUNTIME;
}

/* Reads the function and compiles it for the argument codes. */
static bool compile_for(Dispatcher *self, const uint32_t *codes, const Type *declared_ret, bool device,
                        OutputKind out, int gpu_cc, CompileResult *res, Arena *arena) {
  const RucheyAPI *api = core_api();
  if (!api) return false;
  Diag diag = {0};
  Func *f = fe_read_function(self->py_func, arena, &diag);
  if (!f) {
    if (diag.kind) {
      PyObject *file = ((PyCodeObject *)PyFunction_GetCode(self->py_func))->co_filename;
      core_raise_diag(&diag, PyUnicode_AsUTF8(file));
    }
    return false;
  }
  const Type **argtypes = arena_alloc(arena, sizeof(Type *) * (size_t)(self->nparams ? self->nparams : 1));
  for (int i = 0; i < self->nparams; i++) argtypes[i] = code_type(codes[i], arena);
  if (ncompiling == 64) {
    PyErr_SetString(PyExc_RecursionError, "ruchey: calls between compiled functions nest too deeply");
    return false;
  }
  CompileOptions opts = self->opts;
  opts.resolve = resolve_call;
  opts.declared_ret = declared_ret;
  opts.device = device;
  GpuCalls *gpu = NULL;
  if (out == OUT_PTX) {
    gpu = arena_alloc(arena, sizeof(GpuCalls));
    gpu->arena = arena;
    gpu->cc = gpu_cc;
    opts.gpu_cc = gpu_cc;
    opts.resolve = resolve_gpu_call;
    opts.resolve_ctx = gpu;
  }
  void **cell = out == OUT_JIT ? PyMem_Calloc(1, sizeof(void *)) : NULL;
  compiling[ncompiling++] = (Compiling){self, codes, f, cell, false};
  bool ok = api->infer(f, argtypes, &opts, &diag);
  bool cell_used = compiling[--ncompiling].cell_used;
  if (ok) {
    Py_BEGIN_ALLOW_THREADS  /* LLVM's part: other Python threads run meanwhile */
    ok = api->generate(f, &opts, out, res, &diag);
    Py_END_ALLOW_THREADS
  }
  if (cell) *cell = ok ? (void *)res->entry : (void *)failed_callee;
  if (!cell_used) PyMem_Free(cell);
  else keep_cell(cell);
  if (!ok) core_raise_diag(&diag, f->filename);
  return ok;
}

static Spec *add_spec(Dispatcher *self, const uint32_t *codes, const Type *declared_ret, bool device) {
  Arena arena = {0};
  CompileResult res;
  bool ok = compile_for(self, codes, declared_ret, device, OUT_JIT, 0, &res, &arena);
  Spec *s = NULL;
  if (ok && res.warning[0] && PyErr_WarnEx(PyExc_RuntimeWarning, res.warning, 1) < 0) ok = false;
  if (ok) {
    Spec *grown = PyMem_Realloc(self->specs, sizeof(Spec) * (size_t)(self->nspecs + 1));
    PyObject *sig = signature_text(codes, self->nparams);
    if (grown && sig && PyList_Append(self->signatures, sig) == 0) {
      self->specs = grown;
      s = &grown[self->nspecs++];
      memset(s->codes, 0, sizeof s->codes);
      memcpy(s->codes, codes, sizeof(uint32_t) * (size_t)self->nparams);
      s->entry = res.entry;
      s->ret_type = clone_type(res.ret_type, &self->arena);
      s->declared_ret = declared_ret ? s->ret_type : NULL;
      s->device = device;
      s->barrier = res.barrier;
      s->narrays = 0;
      for (int i = 0; i < self->nparams; i++) s->narrays += (codes[i] & CODE_ARRAY) != 0;
      s->ret_size = storage_size(s->ret_type);
    } else {
      if (grown) self->specs = grown;
      if (!PyErr_Occurred()) PyErr_NoMemory();
    }
    Py_XDECREF(sig);
  }
  arena_free(&arena);
  return s;
}

/* On every call: a plain loop, since most functions have a few arguments
 * and one or two specialisations. */
static Spec *find_spec(Dispatcher *self, const uint32_t *codes, bool device) {
  for (int i = 0; i < self->nspecs; i++) {
    Spec *s = &self->specs[i];
    int a = 0;
    while (a < self->nparams && s->codes[a] == codes[a]) a++;
    if (a == self->nparams && s->device == device) return s;
  }
  return NULL;
}

/* The first explicit signature the arguments can be converted to. */
static Spec *find_compatible(Dispatcher *self, const uint32_t *codes) {
  for (int i = 0; i < self->nspecs; i++) {
    bool ok = !self->specs[i].device;
    for (int a = 0; ok && a < self->nparams; a++) ok = code_accepts(self->specs[i].codes[a], codes[a]);
    if (ok) return &self->specs[i];
  }
  return NULL;
}

static PyObject *raise_runtime_error(void) {
  RtError *e = core_api()->last_error();
  PyObject *exc;
  switch (e->status) {
  case RT_ERR_ZERODIV: exc = PyExc_ZeroDivisionError; break;
  case RT_ERR_INDEX: exc = PyExc_IndexError; break;
  case RT_ERR_VALUE: exc = PyExc_ValueError; break;
  case RT_ERR_MEMORY: exc = PyExc_MemoryError; break;
  case RT_ERR_ASSERT: exc = PyExc_AssertionError; break;
  case RT_ERR_OVERFLOW: exc = PyExc_OverflowError; break;
  case RT_ERR_UNBOUND: exc = PyExc_UnboundLocalError; break;
  default: exc = PyExc_RuntimeError; break;
  }
  if (e->status == RT_ERR_RAISE) exc = e->exc_class;
  if (e->msg)
    PyErr_SetString(exc, e->msg);
  else
    PyErr_SetNone(exc);
  return NULL;
}

static PyObject *type_error(Dispatcher *self, PyObject *const *args, int i) {
  PyObject *sep = PyUnicode_FromString(", ");
  PyObject *accepted = sep ? PyUnicode_Join(sep, self->signatures) : NULL;
  Py_XDECREF(sep);
  PyErr_Format(PyExc_TypeError,
               "%S: argument %d of type '%s' is not supported (accepted: int, float, bool, "
               "NumPy scalars and arrays of bool, int8-64, uint8-64, float32/64; compiled so far: [%U])",
               self->py_func, i + 1, Py_TYPE(args[i])->tp_name, accepted ? accepted : Py_None);
  Py_XDECREF(accepted);
  return NULL;
}

static PyObject *no_match(Dispatcher *self, const uint32_t *codes) {
  PyObject *seen = signature_text(codes, self->nparams);
  PyObject *sep = PyUnicode_FromString(", ");
  PyObject *accepted = sep ? PyUnicode_Join(sep, self->signatures) : NULL;
  PyErr_Format(PyExc_TypeError, "%S: no matching definition for argument types %U; compiled signatures: [%U]",
               self->py_func, seen, accepted);
  Py_XDECREF(seen); Py_XDECREF(sep); Py_XDECREF(accepted);
  return NULL;
}

static void lock_compiles(Dispatcher *self) {
  unsigned long me = PyThread_get_thread_ident();
  if (self->lock_owner == me) {
    self->lock_depth++;
    return;
  }
  if (!PyThread_acquire_lock(self->compile_lock, NOWAIT_LOCK)) {
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(self->compile_lock, WAIT_LOCK);
    Py_END_ALLOW_THREADS
  }
  self->lock_owner = me;
  self->lock_depth = 1;
}

static void unlock_compiles(Dispatcher *self) {
  if (--self->lock_depth) return;
  self->lock_owner = 0;
  PyThread_release_lock(self->compile_lock);
}

/* A miss: compile the signature unless another thread just did. */
static Spec *compile_miss(Dispatcher *self, const uint32_t *codes, bool device) {
  lock_compiles(self);
  Spec *s = find_spec(self, codes, device);
  if (!s) s = add_spec(self, codes, NULL, device);
  unlock_compiles(self);
  return s;
}

/* Each argument's type code; false, with the TypeError raised, for an
 * argument that cannot be compiled. */
static inline bool read_codes(Dispatcher *self, PyObject *const *args, uint32_t *codes) {
  for (int i = 0; i < self->nparams; i++)
    if (!(codes[i] = type_code(args[i]))) {
      type_error(self, args, i);
      return false;
    }
  return true;
}

/* Calls with positional arguments exactly matching the parameters; extra,
 * if not NULL, is passed after them (a kernel's LaunchConfig). */
static inline __attribute__((always_inline)) PyObject *call_with(Dispatcher *self, PyObject *const *args,
                                                                 void *extra) {
  uint32_t codes[MAX_ARGS];  /* the first nparams only */
  if (!read_codes(self, args, codes)) return NULL;
  Spec *s = find_spec(self, codes, false);
  if (!s && self->sealed && !(s = find_compatible(self, codes))) return no_match(self, codes);
  if (!s && !(s = compile_miss(self, codes, false))) return NULL;
  /* what the call needs from s: another thread may grow self->specs while
   * this one runs without the GIL */
  int (*entry)(void *, void **) = s->entry;
  const Type *ret_type = s->ret_type;
  /* a small frame: no stack probes on the hot path; many arrays go to the heap */
  Slot slots[MAX_ARGS];
  RtArray few[4];
  RtArray *arrays = s->narrays <= 4 ? few : PyMem_Malloc(sizeof(RtArray) * (size_t)s->narrays);
  void *argp[MAX_ARGS + 1];
  _Alignas(16) char ret[256];
  char *retp = s->ret_size <= sizeof ret ? ret : PyMem_Malloc(s->ret_size);
  if (!arrays || !retp) {
    if (arrays && arrays != few) PyMem_Free(arrays);
    if (retp && retp != ret) PyMem_Free(retp);
    return PyErr_NoMemory();
  }
  int a = 0;
  for (int i = 0; i < self->nparams; i++) {
    RtArray *slot_array = (s->codes[i] & CODE_ARRAY) ? &arrays[a++] : NULL;
    if (unbox(args[i], s->codes[i], &slots[i], slot_array, &argp[i]) < 0) {
      if (arrays != few) PyMem_Free(arrays);
      if (retp != ret) PyMem_Free(retp);
      return NULL;
    }
  }
  argp[self->nparams] = extra;
  int status;
  if (self->nogil) {
    Py_BEGIN_ALLOW_THREADS
    status = entry(retp, argp);
    Py_END_ALLOW_THREADS
  } else {
    status = entry(retp, argp);
  }
  PyObject *result = status ? raise_runtime_error() : box(ret_type, retp);
  if (retp != ret) PyMem_Free(retp);
  if (arrays != few) PyMem_Free(arrays);
  return result;
}

/* Keyword arguments and defaults: bind like Python, then call. */
static PyObject *call_binding(Dispatcher *self, PyObject *const *args, size_t nargs, PyObject *kwnames) {
  PyObject *inspect = PyImport_ImportModule("inspect");
  PyObject *sig = inspect ? PyObject_CallMethod(inspect, "signature", "O", self->py_func) : NULL;
  Py_XDECREF(inspect);
  if (!sig) return NULL;
  PyObject *pos = PyTuple_New((Py_ssize_t)nargs), *kw = PyDict_New();
  for (size_t i = 0; pos && i < nargs; i++) PyTuple_SET_ITEM(pos, (Py_ssize_t)i, Py_NewRef(args[i]));
  for (Py_ssize_t i = 0; kwnames && kw && i < PyTuple_GET_SIZE(kwnames); i++)
    PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, i), args[nargs + (size_t)i]);
  PyObject *bind = PyObject_GetAttrString(sig, "bind");
  PyObject *bound = bind && pos && kw ? PyObject_Call(bind, pos, kw) : NULL;
  PyObject *result = NULL;
  if (bound && PyObject_CallMethod(bound, "apply_defaults", NULL)) {
    Py_DECREF(Py_None);
    PyObject *full = PyObject_GetAttrString(bound, "args");
    if (full && PyTuple_GET_SIZE(full) == self->nparams)
      result = call_with(self, &PyTuple_GET_ITEM(full, 0), NULL);
    Py_XDECREF(full);
  }
  Py_XDECREF(bound); Py_XDECREF(bind); Py_XDECREF(pos); Py_XDECREF(kw); Py_DECREF(sig);
  return result;
}

static PyObject *dispatcher_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                       PyObject *kwnames) {
  Dispatcher *self = (Dispatcher *)callable;
  size_t nargs = PyVectorcall_NARGS(nargsf);
  if (self->opts.kernel)
    return PyErr_Format(PyExc_ValueError,
                        "launch configuration was not specified: launch a kernel as kernel[blocks, threads](args)");
  if (!kwnames && nargs == (size_t)self->nparams) return call_with(self, args, NULL);
  return call_binding(self, args, nargs, kwnames);
}

static int dispatcher_init(Dispatcher *self, PyObject *args, PyObject *kwds) {
  static char *kwlist[] = {"py_func", "boundscheck", "fastmath", "error_model", "nogil", "parallel",
                           "kernel", "debug", NULL};
  PyObject *func;
  int boundscheck = 0, fastmath = 0, nogil = 0, parallel = 0, kernel = 0, debug = 0;
  const char *error_model = "python";
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|ppspppp", kwlist, &func, &boundscheck, &fastmath,
                                   &error_model, &nogil, &parallel, &kernel, &debug))
    return -1;
  if (!PyFunction_Check(func)) {
    PyErr_SetString(PyExc_TypeError, "ruchey.jit needs a Python function");
    return -1;
  }
  if (strcmp(error_model, "python") && strcmp(error_model, "numpy")) {
    PyErr_SetString(PyExc_ValueError, "error_model must be 'python' or 'numpy'");
    return -1;
  }
  PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(func);
  if (code->co_argcount + code->co_kwonlyargcount > MAX_ARGS) {
    PyErr_Format(PyExc_TypeError, "ruchey compiles functions of at most %d parameters", MAX_ARGS);
    return -1;
  }
  if (!self->compile_lock && !(self->compile_lock = PyThread_allocate_lock())) {
    PyErr_NoMemory();
    return -1;
  }
  Py_XSETREF(self->py_func, Py_NewRef(func));
  Py_XSETREF(self->signatures, PyList_New(0));
  Py_XSETREF(self->gpu_signatures, PyList_New(0));
  if (!self->signatures || !self->gpu_signatures) return -1;
  self->nparams = code->co_argcount;
  self->opts.boundscheck = boundscheck;
  self->opts.fastmath = fastmath;
  self->opts.error_model_numpy = !strcmp(error_model, "numpy");
  self->opts.parallel = parallel;
  self->opts.kernel = kernel;
  self->opts.debug = debug;
  self->opts.boundscheck = boundscheck || debug;
  /* the pool must not wait on a thread that holds the GIL */
  self->nogil = nogil || parallel || kernel;
  self->vectorcall = dispatcher_vectorcall;
  return 0;
}

static void dispatcher_dealloc(Dispatcher *self) {
  PyObject_GC_UnTrack(self);
  if (self->weakrefs) PyObject_ClearWeakRefs((PyObject *)self);
  Py_CLEAR(self->py_func);
  Py_CLEAR(self->dict);
  Py_CLEAR(self->signatures);
  PyMem_Free(self->specs);
  for (int i = 0; i < self->ngpu_specs; i++) cu_unload(self->gpu_specs[i].module);
  PyMem_Free(self->gpu_specs);
  Py_CLEAR(self->gpu_signatures);
  arena_free(&self->arena);
  if (self->compile_lock) PyThread_free_lock(self->compile_lock);
  Py_TYPE(self)->tp_free(self);
}

static int dispatcher_traverse(Dispatcher *self, visitproc visit, void *arg) {
  Py_VISIT(self->py_func);
  Py_VISIT(self->dict);
  return 0;
}

static int dispatcher_clear(Dispatcher *self) {
  Py_CLEAR(self->dict);
  return 0;
}

/* Adds the text of one specialisation to d, under its signature: compiled
 * again (the JIT keeps only machine code). */
static bool add_text(PyObject *d, PyObject *sig, Dispatcher *self, const uint32_t *codes,
                     const Type *declared, bool device, OutputKind out, int gpu_cc) {
  Arena arena = {0};
  CompileResult res;
  bool ok = compile_for(self, codes, declared, device, out, gpu_cc, &res, &arena);
  arena_free(&arena);
  PyObject *text = ok ? PyUnicode_FromString(res.text) : NULL;
  if (ok) free(res.text);
  ok = text && PyDict_SetItem(d, sig, text) == 0;
  Py_XDECREF(text);
  return ok;
}

/* inspect_llvm() / inspect_asm() / inspect_ptx(): the text of each
 * specialisation, those only launched on a GPU too. */
static PyObject *inspect_text(Dispatcher *self, OutputKind out, int gpu_cc) {
  PyObject *d = PyDict_New();
  for (int i = 0; d && i < self->nspecs; i++)
    if (!add_text(d, PyList_GET_ITEM(self->signatures, i), self, self->specs[i].codes,
                  self->specs[i].declared_ret, self->specs[i].device, out, gpu_cc))
      Py_CLEAR(d);
  for (int i = 0; d && i < self->ngpu_specs; i++) {
    PyObject *sig = PyList_GET_ITEM(self->gpu_signatures, i);
    int known = PyDict_Contains(d, sig);
    if (known < 0 || (!known && !add_text(d, sig, self, self->gpu_specs[i].codes, NULL, false, out,
                                          gpu_cc)))
      Py_CLEAR(d);
  }
  return d;
}

static PyObject *dispatcher_inspect_llvm(Dispatcher *self, PyObject *unused) {
  return inspect_text(self, OUT_LLVM_IR, 0);
}

static PyObject *dispatcher_inspect_asm(Dispatcher *self, PyObject *unused) {
  return inspect_text(self, OUT_ASM, 0);
}

/* inspect_ptx(cc): each compiled signature of a kernel as PTX for compute
 * capability cc. */
static PyObject *dispatcher_inspect_ptx(Dispatcher *self, PyObject *arg) {
  int cc = PyLong_AsLong(arg);
  if (cc == -1 && PyErr_Occurred()) return NULL;
  if (!self->opts.kernel) return PyErr_Format(PyExc_TypeError, "%S is not a kernel", self->py_func);
  return inspect_text(self, OUT_PTX, cc);
}

/* Reads (kind, ndim, layout) as a type code; "none" as the none type. */
static bool describe_code(PyObject *d, uint32_t *code) {
  int kind, ndim;
  const char *layout;
  if (!PyArg_ParseTuple(d, "iis", &kind, &ndim, &layout)) return false;
  if (kind < 0 || kind > TY_F64 || ndim < 0 || ndim > RC_MAX_NDIM || !strchr("CFA", layout[0])) {
    PyErr_SetString(PyExc_ValueError, "invalid type description");
    return false;
  }
  Type t = {.kind = TY_ARRAY, .elem = TYS(kind), .ndim = ndim, .layout = layout[0]};
  *code = code_of_type(ndim ? &t : TYS(kind));
  return true;
}

/* _compile(args, ret): compiles an explicit signature now; args is a tuple
 * of (kind, ndim, layout), ret one of those, "none", or None (inferred). */
static PyObject *dispatcher_compile_signature(Dispatcher *self, PyObject *a) {
  PyObject *args, *ret;
  if (!PyArg_ParseTuple(a, "O!O", &PyTuple_Type, &args, &ret)) return NULL;
  if (PyTuple_GET_SIZE(args) != self->nparams)
    return PyErr_Format(PyExc_TypeError, "the signature has %zd arguments, the function %d",
                        PyTuple_GET_SIZE(args), self->nparams);
  uint32_t codes[MAX_ARGS] = {0};
  for (int i = 0; i < self->nparams; i++)
    if (!describe_code(PyTuple_GET_ITEM(args, i), &codes[i])) return NULL;
  const Type *declared = NULL;
  Arena tmp = {0};
  if (PyUnicode_Check(ret)) {
    declared = TYS(TY_NONE);
  } else if (ret != Py_None) {
    uint32_t rc;
    if (!describe_code(ret, &rc)) return NULL;
    declared = code_type(rc, &tmp);
  }
  self->sealed = true;
  lock_compiles(self);
  Spec *s = find_spec(self, codes, false);
  bool ok = s || add_spec(self, codes, declared, false);
  unlock_compiles(self);
  arena_free(&tmp);
  if (!ok) return NULL;
  Py_RETURN_NONE;
}

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
static PyObject *dispatcher_launch(Dispatcher *self, PyObject *a) {
  PyObject *grid, *block, *args;
  long long dyn;
  LaunchConfig cfg;
  if (!PyArg_ParseTuple(a, "OOLO!", &grid, &block, &dyn, &PyTuple_Type, &args) ||
      !read_launch(self, grid, block, dyn, args, &cfg))
    return NULL;
  return call_with(self, &PyTuple_GET_ITEM(args, 0), &cfg);
}

/* ---------------------------------------------------------------- kernels on the GPU */

static GpuSpec *find_gpu_spec(Dispatcher *self, const uint32_t *codes, int device) {
  size_t n = sizeof(uint32_t) * (size_t)self->nparams;
  for (int i = 0; i < self->ngpu_specs; i++)
    if (self->gpu_specs[i].device == device && !memcmp(self->gpu_specs[i].codes, codes, n))
      return &self->gpu_specs[i];
  return NULL;
}

/* Compiles the kernel to PTX for the current device and loads it there. */
static GpuSpec *add_gpu_spec(Dispatcher *self, const uint32_t *codes) {
  Arena arena = {0};
  CompileResult res;
  GpuSpec *s = NULL;
  if (compile_for(self, codes, NULL, false, OUT_PTX, cu_current_cc(), &res, &arena)) {
    const char *name = PyUnicode_AsUTF8(((PyCodeObject *)PyFunction_GetCode(self->py_func))->co_name);
    void *module = NULL;
    void *function = name ? cu_load_kernel(res.text, name, &module) : NULL;
    free(res.text);
    GpuSpec *grown = function ? PyMem_Realloc(self->gpu_specs, sizeof(GpuSpec) * (size_t)(self->ngpu_specs + 1)) : NULL;
    PyObject *sig = grown ? signature_text(codes, self->nparams) : NULL;
    if (grown) self->gpu_specs = grown;
    if (sig && PyList_Append(self->gpu_signatures, sig) == 0) {
      s = &grown[self->ngpu_specs++];
      memcpy(s->codes, codes, sizeof s->codes);
      s->device = cu_current_device();
      s->module = module;
      s->function = function;
    } else if (function) {
      cu_unload(module);
      if (!PyErr_Occurred()) PyErr_NoMemory();
    }
    Py_XDECREF(sig);
  }
  arena_free(&arena);
  return s;
}

static GpuSpec *compile_gpu_miss(Dispatcher *self, const uint32_t *codes) {
  lock_compiles(self);
  GpuSpec *s = find_gpu_spec(self, codes, cu_current_device());
  if (!s) s = add_gpu_spec(self, codes);
  unlock_compiles(self);
  return s;
}

/* Kernel parameters: one 8-byte slot each, as lower.c's gpu_kernel_type
 * declares them: a scalar as itself; an array as its data pointer, shape
 * and strides (in bytes). Arrays here are device arrays seen through NumPy:
 * their data pointer is a device address. */
static int pack_params(Dispatcher *self, PyObject *const *args, const uint32_t *codes, uint64_t *slots,
                       void **params) {
  int np = 0;
  for (int i = 0; i < self->nparams; i++) {
    if (codes[i] & CODE_ARRAY) {
      PyArrayObject *a = (PyArrayObject *)args[i];
      int nd = PyArray_NDIM(a);
      slots[np++] = (uint64_t)(uintptr_t)PyArray_DATA(a);
      for (int d = 0; d < nd; d++) slots[np++] = (uint64_t)PyArray_DIMS(a)[d];
      for (int d = 0; d < nd; d++) slots[np++] = (uint64_t)PyArray_STRIDES(a)[d];
      continue;
    }
    Slot value = {0};
    void *unused;
    if (unbox(args[i], codes[i], &value, NULL, &unused) < 0) return -1;
    memcpy(&slots[np++], &value, sizeof(uint64_t));
  }
  for (int p = 0; p < np; p++) params[p] = &slots[p];
  return np;
}

/* Launches the kernel for these arguments (numbers and NumPy views of
 * device memory) on the current device. */
static PyObject *launch_on_gpu(Dispatcher *self, PyObject *const *argv, const LaunchConfig *cfg,
                               uintptr_t stream) {
  uint32_t codes[MAX_ARGS] = {0};
  if (!read_codes(self, argv, codes) || !cu_ready()) return NULL;
  GpuSpec *s = find_gpu_spec(self, codes, cu_current_device());
  if (!s && !(s = compile_gpu_miss(self, codes))) return NULL;
  void *function = s->function;  /* s may move once the GIL is let go */
  uint64_t slots[MAX_ARGS * (1 + 2 * RC_MAX_NDIM)];
  void *params[MAX_ARGS * (1 + 2 * RC_MAX_NDIM)];
  if (pack_params(self, argv, codes, slots, params) < 0) return NULL;
  if (!cu_launch(function, cfg->grid, cfg->block, cfg->dynamic_shared, stream, params)) return NULL;
  Py_RETURN_NONE;
}

/* What a GPU launch passes for one argument: a number as it is, a device
 * array in the GPU's memory as its NumPy view of that memory (a new
 * reference either way). NULL without an error for anything else (a host
 * array, a device array on the CPU backend): the caller copies those to
 * the GPU first. */
static PyObject *gpu_argument(PyObject *arg) {
  static PyObject *mem_name, *ary_name;
  if (PyLong_Check(arg) || PyFloat_Check(arg) || PyComplex_Check(arg) || PyArray_IsScalar(arg, Generic))
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
static PyObject *dispatcher_launch_gpu(Dispatcher *self, PyObject *a) {
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

/* A return type as Python sees it: (kind, ndim, layout) like a signature's
 * types, "none", or the type's name. */
static PyObject *describe_type(const Type *t) {
  if (t->kind == TY_NONE) return PyUnicode_FromString("none");
  if (ty_is_scalar(t)) return Py_BuildValue("(iis)", (int)t->kind, 0, "C");
  if (t->kind == TY_ARRAY) return Py_BuildValue("(iiC)", (int)t->elem->kind, t->ndim, t->layout);
  char buf[256];
  ty_format(t, buf, sizeof buf);
  return PyUnicode_FromString(buf);
}

/* compile_ptx(pyfunc, args, cc, device, fastmath): a kernel (or with device
 * a device function, as a .func) as PTX for compute capability cc (e.g. 80),
 * args as for _compile. Returns (ptx, return type as describe_type gives it). */
PyObject *disp_compile_ptx(PyObject *module, PyObject *a) {
  PyObject *func, *args;
  int cc, device = 0, fastmath = 0;
  if (!PyArg_ParseTuple(a, "O!O!i|pp", &PyFunction_Type, &func, &PyTuple_Type, &args, &cc, &device,
                        &fastmath))
    return NULL;
  const RucheyAPI *api = core_api();
  if (!api) return NULL;
  int n = (int)PyTuple_GET_SIZE(args);
  if (n > MAX_ARGS) return PyErr_Format(PyExc_TypeError, "too many arguments");
  Arena arena = {0};
  Diag diag = {0};
  PyObject *result = NULL;
  Func *f = fe_read_function(func, &arena, &diag);
  if (!f) {
    if (diag.kind) core_raise_diag(&diag, PyUnicode_AsUTF8(((PyCodeObject *)PyFunction_GetCode(func))->co_filename));
    goto done;
  }
  if (f->nparams != n) {
    PyErr_Format(PyExc_TypeError, "the signature has %d arguments, the function %d", n, f->nparams);
    goto done;
  }
  const Type **argtypes = arena_alloc(&arena, sizeof(Type *) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    uint32_t code;
    if (!describe_code(PyTuple_GET_ITEM(args, i), &code)) goto done;
    argtypes[i] = code_type(code, &arena);
  }
  GpuCalls *gpu = arena_alloc(&arena, sizeof(GpuCalls));
  gpu->arena = &arena;
  gpu->cc = cc;
  CompileOptions opts = {.kernel = !device, .device = device, .gpu_cc = cc, .error_model_numpy = true,
                         .fastmath = fastmath,
                         .resolve = resolve_gpu_call, .resolve_ctx = gpu};
  CompileResult res;
  bool ok = api->infer(f, argtypes, &opts, &diag);
  if (ok) {
    Py_BEGIN_ALLOW_THREADS
    ok = api->generate(f, &opts, OUT_PTX, &res, &diag);
    Py_END_ALLOW_THREADS
  }
  if (!ok) {
    if (!PyErr_Occurred()) core_raise_diag(&diag, f->filename);
    goto done;
  }
  PyObject *restype = describe_type(f->ret_type);
  if (restype) result = Py_BuildValue("(sN)", res.text, restype);
  free(res.text);
done:
  arena_free(&arena);
  return result;
}

static PyObject *dispatcher_get(PyObject *self, PyObject *obj, PyObject *type) {
  return Py_NewRef(self);  /* a jitted function stored on a class stays a plain function */
}

static PyMethodDef dispatcher_methods[] = {
  {"inspect_llvm", (PyCFunction)dispatcher_inspect_llvm, METH_NOARGS,
   "The optimised LLVM IR of each compiled signature, as a dict."},
  {"_launch", (PyCFunction)dispatcher_launch, METH_VARARGS, "Run a kernel over a grid on the CPU backend."},
  {"_launch_gpu", (PyCFunction)dispatcher_launch_gpu, METH_VARARGS,
   "Launch a kernel on the current CUDA device: (grid, block, shared bytes, stream handle, args)."},
  {"inspect_ptx", (PyCFunction)dispatcher_inspect_ptx, METH_O,
   "A kernel's PTX for compute capability cc (e.g. 80), per compiled signature, as a dict."},
  {"_compile", (PyCFunction)dispatcher_compile_signature, METH_VARARGS,
   "Compile an explicit signature now (used by jit with signatures)."},
  {"inspect_asm", (PyCFunction)dispatcher_inspect_asm, METH_NOARGS,
   "The machine code of each compiled signature, as assembly text in a dict."},
  {NULL, NULL, 0, NULL},
};

static PyMemberDef dispatcher_members[] = {
  {"py_func", T_OBJECT, offsetof(Dispatcher, py_func), READONLY, "The Python function compiled."},
  {"signatures", T_OBJECT, offsetof(Dispatcher, signatures), READONLY,
   "The argument types of each compiled specialisation."},
  {"gpu_signatures", T_OBJECT, offsetof(Dispatcher, gpu_signatures), READONLY,
   "A kernel's: the argument types of each specialisation loaded on a GPU."},
  {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef dispatcher_getset[] = {
  {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject DispatcherType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ruchey.Dispatcher",
  .tp_basicsize = sizeof(Dispatcher),
  .tp_dealloc = (destructor)dispatcher_dealloc,
  .tp_vectorcall_offset = offsetof(Dispatcher, vectorcall),
  .tp_call = PyVectorcall_Call,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
              Py_TPFLAGS_BASETYPE,
  .tp_doc = "A function compiled by ruchey on first call for each set of argument types.",
  .tp_traverse = (traverseproc)dispatcher_traverse,
  .tp_clear = (inquiry)dispatcher_clear,
  .tp_methods = dispatcher_methods,
  .tp_members = dispatcher_members,
  .tp_getset = dispatcher_getset,
  .tp_descr_get = dispatcher_get,
  .tp_dictoffset = offsetof(Dispatcher, dict),
  .tp_weaklistoffset = offsetof(Dispatcher, weakrefs),
  .tp_init = (initproc)dispatcher_init,
  .tp_new = PyType_GenericNew,
};
