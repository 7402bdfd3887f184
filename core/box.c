/* box.c — values between Python and compiled code: arguments unboxed onto
 * the caller's C stack, results boxed as Python objects (arrays made by
 * compiled code become NumPy arrays owning their memory).
 */
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL ruchey_ARRAY_API
#include "core.h"
#include <frameobject.h>  /* PyFrame_New: a compiled raise's traceback entry */
#include "containers.h"
#include "rtstr.h"
#include "rtgen.h"

#include <numpy/arrayobject.h>

#if NPY_ABI_VERSION < 0x02000000  /* NumPy 1.x: no accessor, the field */
#define PyDataType_SET_ELSIZE(d, size) ((d)->elsize = (int)(size))
#endif

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

/* Numba's MemInfo.refcount: the references compiled code and Python hold
 * to the memory (an array returned alone has one, its base's). */
static PyObject *meminfo_refcount(MemInfoObject *self, void *unused) {
  (void)unused;
  return PyLong_FromLongLong(__atomic_load_n(&self->mi->refcount, __ATOMIC_ACQUIRE));
}

static PyGetSetDef meminfo_getset[] = {
  {"refcount", (getter)meminfo_refcount, NULL, "references held to the memory", NULL},
  {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject MemInfoType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ruchey._core.MemInfo",
  .tp_basicsize = sizeof(MemInfoObject),
  .tp_dealloc = (destructor)meminfo_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_getset = meminfo_getset,
  .tp_doc = "Owns memory allocated by compiled code.",
};

/* ---------------------------------------------------------------- generator objects */

/* A compiled generator function's generator, called from Python: its
 * state (one reference), the call's arguments, kept alive while it may
 * run (arrays among them are borrowed by the state), and the dispatcher
 * whose code runs it. __next__ runs the compiled body to its next yield. */
typedef struct {
  PyObject_HEAD
  RtGenState *state;
  const Type *type;   /* generator(what it yields) */
  PyObject *args;     /* a tuple */
  PyObject *owner;    /* the dispatcher called: its code holds the resume and drop functions */
} YieldsObject;

static void yields_dealloc(YieldsObject *self) {
  RtGenState *s = self->state;
  if (__atomic_sub_fetch(&s->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
    s->drop(s);
    free(s);
  }
  Py_XDECREF(self->args);
  Py_XDECREF(self->owner);
  Py_TYPE(self)->tp_free(self);
}

/* NULL without an exception: the body has ended (StopIteration). */
static PyObject *yields_next(YieldsObject *self) {
  RtGenState *s = self->state;
  if (s->next == RT_GEN_DONE) return NULL;
  if (s->resume(s) != RT_OK) return disp_raise_runtime_error();
  if (s->next == RT_GEN_DONE) return NULL;
  const Type *t = self->type->elem;
  return disp_box(t, (char *)s + rt_gen_value_offset(t->align));
}

PyTypeObject YieldsType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ruchey._core.generator",
  .tp_basicsize = sizeof(YieldsObject),
  .tp_dealloc = (destructor)yields_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_iter = PyObject_SelfIter,
  .tp_iternext = (iternextfunc)yields_next,
  .tp_doc = "A compiled generator function's generator: iterating it runs the compiled body.",
};

PyObject *disp_box_yields(const Type *t, char *p, PyObject *owner, PyObject *const *args, int nargs) {
  YieldsObject *o = PyObject_New(YieldsObject, &YieldsType);
  RtGenState *s = *(RtGenState **)p;
  if (!o) {
    if (__atomic_sub_fetch(&s->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
      s->drop(s);
      free(s);
    }
    return NULL;
  }
  o->state = s;
  o->type = t;
  o->owner = Py_NewRef(owner);
  o->args = PyTuple_New(nargs);
  for (int i = 0; o->args && i < nargs; i++) PyTuple_SET_ITEM(o->args, i, Py_NewRef(args[i]));
  if (!o->args) Py_CLEAR(o);
  return (PyObject *)o;
}

/* ---------------------------------------------------------------- boxing */

/* Python's small ints, -5 to 256, held here: an int64 result among them is
 * returned without a call into CPython (a few ns of every call's cost). */
enum { SMALL_MIN = -5, SMALL_MAX = 256 };
static PyObject *small_ints[SMALL_MAX - SMALL_MIN + 1];

static PyObject *box_int64(int64_t v) {
  if (v >= SMALL_MIN && v <= SMALL_MAX) {
    PyObject **cached = &small_ints[v - SMALL_MIN];
    if (!*cached) *cached = PyLong_FromLong((long)v);
    return Py_XNewRef(*cached);
  }
  return PyLong_FromLongLong(v);
}

/* The dtype of an array's elements (a new reference). */
PyArray_Descr *disp_elem_descr(const Type *e) {
  if (ty_is_time(e)) return disp_time_descr(e);
  if (ty_is_fixed_text(e)) {  /* '<Un', '|Sn' */
    PyArray_Descr *d = PyArray_DescrNewFromType(e->kind == TY_CHARSEQ ? NPY_UNICODE : NPY_STRING);
    if (d) PyDataType_SET_ELSIZE(d, (npy_intp)e->size);
    return d;
  }
  return e->kind == TY_RECORD ? disp_record_descr(e) : PyArray_DescrFromType(disp_kind_type_num(e->kind));
}

/* A datetime64 or timedelta64 result: NumPy's scalar with its unit. */
static PyObject *box_time(const Type *t, char *p) {
  PyArray_Descr *d = disp_time_descr(t);
  PyObject *r = d ? PyArray_Scalar(p, d, NULL) : NULL;
  Py_XDECREF(d);
  return r;
}

/* A global array frozen into the code, returned: a read-only copy, since
 * the code's memory goes when its function does. */
static PyObject *box_frozen(const Type *t, char *data, npy_intp *shape, npy_intp *strides) {
  PyArray_Descr *descr = disp_elem_descr(t->elem);
  PyObject *view = PyArray_NewFromDescr(&PyArray_Type, descr, t->ndim, shape, strides, data, 0, NULL);
  PyObject *copy = view ? PyArray_NewCopy((PyArrayObject *)view, NPY_CORDER) : NULL;
  Py_XDECREF(view);
  if (copy && t->readonly) PyArray_CLEARFLAGS((PyArrayObject *)copy, NPY_ARRAY_WRITEABLE);
  return copy;
}

/* Whether a is the whole of o's buffer (a bytearray or memoryview
 * argument, of the type ty_buffer gives it): o itself is returned. */
static bool same_buffer(const Type *t, const RtArray *a, PyObject *o) {
  Py_buffer view;
  if (PyObject_GetBuffer(o, &view, PyBUF_RECORDS_RO) < 0) {
    PyErr_Clear();
    return false;
  }
  bool same = view.buf == a->data && view.ndim == t->ndim && view.itemsize == (Py_ssize_t)t->elem->size;
  Py_ssize_t stride = view.itemsize;  /* (no strides given: C order) */
  for (int d = view.ndim - 1; same && d >= 0; d--) {
    same = view.shape[d] == a->shape[d] && (view.strides ? view.strides[d] : stride) == a->strides[d];
    stride *= view.shape[d];
  }
  PyBuffer_Release(&view);
  return same;
}

bool disp_same_array(const Type *t, const RtArray *a, PyObject *o) {
  PyArrayObject *p = (PyArrayObject *)o;
  if (!PyArray_Check(o)) return t->unit && a->parent == o && same_buffer(t, a, o);  /* (a view of bytes: an array) */
  /* an empty array's strides say nothing (NumPy's are 0, compiled code's those of its layout) */
  bool empty = PyArray_SIZE(p) == 0;
  return a->parent == o && PyArray_DATA(p) == a->data && PyArray_NDIM(p) == t->ndim &&
         PyArray_TYPE(p) == disp_kind_type_num(t->elem->kind) &&
         (!ty_is_time(t->elem) || disp_time_type(PyArray_DESCR(p)) == t->elem) &&  /* (a view in another unit) */
         !memcmp(PyArray_DIMS(p), a->shape, sizeof(npy_intp) * (size_t)t->ndim) &&
         (empty || !memcmp(PyArray_STRIDES(p), a->strides, sizeof(npy_intp) * (size_t)t->ndim));
}

/* Whether array object o may stand for a value of t: not where t is
 * read-only and o writable (numpy.broadcast_to(a, a.shape) is a new
 * read-only view of a, as NumPy's, not a itself). */
static bool writability_kept(const Type *t, PyObject *o) {
  return !t->readonly || !PyArray_Check(o) || !PyArray_ISWRITEABLE((PyArrayObject *)o);
}

static __attribute__((noinline)) PyObject *box_array(const Type *t, RtArray *a) {
  npy_intp shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  for (int d = 0; d < t->ndim; d++) {
    shape[d] = (npy_intp)a->shape[d];
    strides[d] = (npy_intp)a->strides[d];
  }
  PyObject *base;
  if (!a->meminfo && !a->parent) return box_frozen(t, a->data, shape, strides);
  PyObject *kept = a->meminfo ? rt_keeper_object(a->meminfo) : NULL;
  if (kept && disp_same_array(t, a, kept) && writability_kept(t, kept)) {  /* an array a container kept: the array object itself */
    Py_INCREF(kept);  /* before the release, which may drop the keeper's reference, the last */
    core_api()->meminfo_release(a->meminfo);
    return kept;
  }
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
    if (disp_same_array(t, a, a->parent) && writability_kept(t, a->parent)) return Py_NewRef((PyObject *)a->parent);
    /* a view of a bytes, bytearray or memoryview argument: based on a
     * memoryview of it, whose export keeps a bytearray from resizing under
     * the view (as numpy.frombuffer's) */
    base = PyArray_Check((PyObject *)a->parent) ? Py_NewRef((PyObject *)a->parent)
                                                : PyMemoryView_FromObject((PyObject *)a->parent);
    if (!base) return NULL;
  }
  PyArray_Descr *descr = disp_elem_descr(t->elem);
  if (!descr) {
    Py_DECREF(base);
    return NULL;
  }
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

/* A bytes value: the bytes argument it is, else a new bytes of its
 * items (always contiguous), its memory's reference released. */
static PyObject *box_bytes(const Type *t, RtArray *a) {
  PyObject *o = a->meminfo ? rt_keeper_object(a->meminfo) : a->parent;
  PyObject *r = o && PyBytes_CheckExact(o) && PyBytes_AS_STRING(o) == a->data && PyBytes_GET_SIZE(o) == a->shape[0]
                    ? Py_NewRef(o)
                    : PyBytes_FromStringAndSize(a->data, (Py_ssize_t)a->shape[0]);
  if (a->meminfo) core_api()->meminfo_release(a->meminfo);
  return r;
}

static __attribute__((noinline)) PyObject *box_tuple(const Type *t, char *p) {
  PyObject *tup = PyTuple_New(t->nfields);
  for (int i = 0; tup && i < t->nfields; i++) {
    PyObject *item = disp_box(t->fields[i], p + t->offsets[i]);
    if (!item) Py_CLEAR(tup);
    else PyTuple_SET_ITEM(tup, i, item);
  }
  if (tup && ty_is_literal_list(t)) Py_SETREF(tup, PySequence_List(tup));  /* [1, 'a'] returned: the list it is */
  return t->callee ? disp_box_named(t, tup) : tup;
}

/* A literal dict returned: the Python dict of its keys and values. */
static PyObject *box_literal_dict(const Type *t, char *p) {
  PyObject *values = box_tuple(t, p), *d = values ? PyDict_New() : NULL;
  for (int i = 0; d && i < t->nfields; i++)
    if (PyDict_SetItemString(d, t->names[i], PyTuple_GET_ITEM(values, i)) < 0) Py_CLEAR(d);
  Py_XDECREF(values);
  return d;
}

/* A slice result: its parts not given are None. */
static PyObject *box_slice(const Type *t, const int64_t *p) {
  PyObject *parts[3] = {NULL, NULL, NULL}, *s = NULL;
  int k = 0;
  for (; k < 3; k++)
    if (!(parts[k] = t->unit & (1 << k) ? PyLong_FromLongLong(p[k]) : Py_NewRef(Py_None))) break;
  if (k == 3) s = PySlice_New(parts[0], parts[1], parts[2]);
  for (k = 0; k < 3; k++) Py_XDECREF(parts[k]);
  return s;
}

/* A range result (where Numba's range_state cannot be boxed): the Python range it stands for. */
static PyObject *box_range(const int64_t *p) {
  return PyObject_CallFunction((PyObject *)&PyRange_Type, "LLL", (long long)p[0], (long long)p[1], (long long)p[2]);
}

/* A slice argument into p: its int parts as int64 (those its type says are None, 0). */
static int unbox_slice(PyObject *o, const Type *t, int64_t *p) {
  if (disp_typeof(o) != t) {
    PyErr_Format(PyExc_TypeError, "expected a %s, got %R", t->name, o);
    return -1;
  }
  PySliceObject *s = (PySliceObject *)o;
  PyObject *parts[3] = {s->start, s->stop, s->step};
  for (int k = 0; k < 3; k++) {
    p[k] = 0;
    if (!(t->unit & (1 << k))) continue;
    PyObject *i = PyNumber_Index(parts[k]);
    p[k] = i ? PyLong_AsLongLong(i) : -1;
    Py_XDECREF(i);
    if (p[k] == -1 && PyErr_Occurred()) return -1;
  }
  return 0;
}

/* A float16 result: a numpy.float16, as Numba returns it. */
static PyObject *box_half(char *p) {
  PyArray_Descr *d = PyArray_DescrFromType(NPY_HALF);
  PyObject *r = PyArray_Scalar(p, d, NULL);
  Py_DECREF(d);
  return r;
}

static int unbox_generator(PyObject *o, Slot *slot);

/* A 128-bit int from its halves. */
static PyObject *int128(uint64_t hi, uint64_t lo) {
  PyObject *h = PyLong_FromUnsignedLongLong(hi), *l = PyLong_FromUnsignedLongLong(lo), *sh = PyLong_FromLong(64);
  PyObject *up = h && sh ? PyNumber_Lshift(h, sh) : NULL, *r = up && l ? PyNumber_Or(up, l) : NULL;
  Py_XDECREF(h), Py_XDECREF(l), Py_XDECREF(sh), Py_XDECREF(up);
  return r;
}

/* A Generator compiled code made: a numpy.random.Generator on a PCG64
 * with its state. */
static PyObject *box_made_generator(const Pcg64 *p) {
  PyObject *st = int128((uint64_t)(p->state >> 64), (uint64_t)p->state);
  PyObject *inc = int128((uint64_t)(p->inc >> 64), (uint64_t)p->inc);
  PyObject *state = st && inc ? Py_BuildValue("{s:s,s:{s:O,s:O},s:i,s:k}", "bit_generator", "PCG64", "state", "state", st,
                                              "inc", inc, "has_uint32", (int)p->has_uint32, "uinteger",
                                              (unsigned long)p->uinteger)
                              : NULL;
  PyObject *random = state ? PyImport_ImportModule("numpy.random") : NULL;
  PyObject *bg = random ? PyObject_CallMethod(random, "PCG64", NULL) : NULL;
  PyObject *gen = bg && PyObject_SetAttrString(bg, "state", state) == 0
                      ? PyObject_CallMethod(random, "Generator", "O", bg) : NULL;
  Py_XDECREF(st), Py_XDECREF(inc), Py_XDECREF(state), Py_XDECREF(random), Py_XDECREF(bg);
  return gen;
}

/* A Generator returned: one made in compiled code, boxed anew, or one of
 * the call's arguments (args, n of them; none inside a tuple), itself. */
PyObject *disp_box_generator(char *p, PyObject *const *args, int n) {
  void *bitgen = *(void **)p;
  OwnedGen *made = rt_generator_owned(bitgen);
  if (made) {  /* the reference the result held released */
    PyObject *gen = box_made_generator(&made->pcg);
    rt_generator_drop(bitgen);
    return gen;
  }
  for (int i = 0; i < n; i++) {
    Slot slot;
    if (!disp_is_generator(args[i]) || unbox_generator(args[i], &slot) < 0) {
      PyErr_Clear();
      continue;
    }
    if ((void *)(uintptr_t)slot.u == bitgen) return Py_NewRef(args[i]);
  }
  PyErr_SetString(PyExc_TypeError, "ruchey: a Generator passed in can be returned only as the function's result itself");
  return NULL;
}

/* A Generator's bit_generator returned: its Generator's (as
 * disp_box_generator finds or makes it) bit_generator attribute. */
PyObject *disp_box_bit_generator(char *p, PyObject *const *args, int n) {
  PyObject *gen = disp_box_generator(p, args, n);
  PyObject *bg = gen ? PyObject_GetAttrString(gen, "bit_generator") : NULL;
  Py_XDECREF(gen);
  return bg;
}

/* numpy.finfo or iinfo of a dtype, which its type alone says: NumPy's
 * object of that dtype. */
static PyObject *box_info(const Type *t) {
  PyObject *numpy = PyImport_ImportModule("numpy"), *dtype = (PyObject *)disp_elem_descr(t->elem), *r = NULL;
  if (numpy && dtype) r = PyObject_CallMethod(numpy, ty_is_int(t->elem) ? "iinfo" : "finfo", "O", dtype);
  Py_XDECREF(dtype);
  Py_XDECREF(numpy);
  return r;
}

/* Everything but the plain scalars: out of line, so that boxing a number
 * (every scalar call's result) needs no stack frame. */
static __attribute__((noinline)) PyObject *box_composite(const Type *t, char *p);

PyObject *disp_box(const Type *t, char *p) {
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
  default: return box_composite(t, p);
  }
}

/* A function value returned to Python: its dispatcher, as Numba returns
 * it, or the object the dispatcher compiles for (_boxes_as: a @cfunc's,
 * or the native function ruchey.native.wrapper_dispatcher calls). */
static PyObject *box_dispatcher(Dispatcher *d) {
  PyObject *object = d->dict ? PyDict_GetItemString(d->dict, "_boxes_as") : NULL;
  return Py_NewRef(object ? object : (PyObject *)d);
}

static PyObject *box_function(const Type *f) { return box_dispatcher((Dispatcher *)f->callee); }

/* A FunctionType value returned to Python: the function passed for it. */
static PyObject *box_funcptr(const Type *t, const void *entry) {
  Dispatcher *d = disp_of_entry(entry);
  if (d) return box_dispatcher(d);
  PyErr_Format(PyExc_TypeError, "ruchey: a value of %s made in compiled code cannot be returned to Python (one "
               "passed in can)", t->name);
  return NULL;
}

/* The one of the functions t a value k is; a TypeError, not a read past
 * them, for a number another list's functions gave (one a callee widened). */
static PyObject *box_funcs(const Type *t, int64_t k) {
  if (k >= 0 && k < t->nfields) return box_function(t->fields[k]);
  PyErr_Format(PyExc_TypeError, "ruchey: an item of a list of %s is none of these functions (a function it was "
               "passed to added another)", t->name);
  return NULL;
}

/* d.keys(), d.values(), d.items() compiled code returned: its dict boxed
 * (the reference handed over) and asked for that part, as Python code
 * would ask it (a typed.Dict gives a list, a dict its own view). */
static PyObject *box_dict_view(const Type *t, void *d) {
  PyObject *dict = typed_box(t->elem, d);
  PyObject *r = dict ? PyObject_CallMethod(dict, t->unit == 1 ? "values" : t->unit == 2 ? "items" : "keys", NULL) : NULL;
  Py_XDECREF(dict);
  return r;
}

static PyObject *box_composite(const Type *t, char *p) {
  switch (t->kind) {
  case TY_ELLIPSIS: return Py_NewRef(Py_Ellipsis);
  case TY_F16: return box_half(p);
  case TY_DATETIME: case TY_TIMEDELTA: return box_time(t, p);
  case TY_C64: return PyComplex_FromDoubles(((float *)p)[0], ((float *)p)[1]);
  case TY_C128: return PyComplex_FromDoubles(((double *)p)[0], ((double *)p)[1]);
  case TY_ARRAY: return box_array(t, (RtArray *)p);
  case TY_BYTES: return box_bytes(t, (RtArray *)p);
  case TY_TUPLE: return box_tuple(t, p);
  case TY_LITDICT: return box_literal_dict(t, p);
  case TY_SLICE: return box_slice(t, (const int64_t *)p);
  case TY_RANGE: return box_range((const int64_t *)p);
  case TY_OPTIONAL: return p[t->elem->size] ? disp_box(t->elem, p) : Py_NewRef(Py_None);  /* the flag follows the value */
  case TY_LIST: case TY_DICT: return typed_box(t, *(void **)p);
  case TY_DICTVIEW: return box_dict_view(t, *(void **)p);
  case TY_GENERATOR: return disp_box_generator(p, NULL, 0);
  case TY_BITGEN: return disp_box_bit_generator(p, NULL, 0);
  case TY_SET: return typed_set_box(t, *(void **)p);
  case TY_RECORD: return disp_box_record(t, p);
  case TY_CLASS: return jitclass_box(t, *(void **)p);
  case TY_ENUM: case TY_INTENUM: return disp_box_enum(t, p);
  case TY_DTYPE: return (PyObject *)disp_elem_descr(t->elem);  /* no value: its type says which (a.dtype) */
  case TY_INFO: return box_info(t);
  case TY_FUNCTION: return box_function(t);
  case TY_FUNCPTR: return box_funcptr(t, *(void **)p);
  case TY_FUNCS: return box_funcs(t, *(int64_t *)p);
  case TY_STR: {
    RtStr *s = *(RtStr **)p;
    PyObject *o = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, s->data, (Py_ssize_t)s->len);
    rt_str_release(s);
    return o;
  }
  case TY_MEMINFO:  /* C memory only compiled code and its library use, as Numba's: dropped */
    core_api()->meminfo_release(*(RtMemInfo **)p);
    PyErr_SetString(PyExc_TypeError, "ruchey: cannot return a MemInfoPointer to Python (compiled code and C code hold "
                                     "it: keep it in a structref's field)");
    return NULL;
  default:
    PyErr_Format(PyExc_TypeError, "ruchey: cannot convert native %s to a Python object: a value of this type cannot "
                 "be returned to Python", t->name);
    return NULL;
  }
}

/* ---------------------------------------------------------------- unboxing */

/* A bytes argument: its items borrowed for the call, as an array's. */
static int unbox_bytes(PyObject *o, RtArray *arr, void **arg) {
  if (!PyBytes_Check(o)) {
    PyErr_Format(PyExc_TypeError, "expected bytes, got %s", Py_TYPE(o)->tp_name);
    return -1;
  }
  *arr = (RtArray){.parent = o, .data = PyBytes_AS_STRING(o), .shape = {PyBytes_GET_SIZE(o)}, .strides = {1}};
  *arg = arr;
  return 0;
}

/* A bytearray or memoryview argument, typed as an array of its items
 * (typeof.c): its buffer borrowed for the call, o the parent. */
static int unbox_buffer(PyObject *o, RtArray *arr, void **arg) {
  PyObject *view = disp_buffer_array(o);
  if (!view) return -1;
  PyArrayObject *a = (PyArrayObject *)view;
  *arr = (RtArray){.parent = o, .data = PyArray_DATA(a)};
  memcpy(arr->shape, PyArray_DIMS(a), sizeof(int64_t) * (size_t)PyArray_NDIM(a));
  memcpy(arr->strides, PyArray_STRIDES(a), sizeof(int64_t) * (size_t)PyArray_NDIM(a));
  Py_DECREF(view);  /* (the buffer is o's, which the call holds) */
  *arg = arr;
  return 0;
}

static int unbox_array(PyObject *o, RtArray *arr, void **arg) {
  if (!PyArray_Check(o)) return unbox_buffer(o, arr, arg);
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

/* A number of another type for a scalar parameter (an explicit
 * signature's), converted as Python converts it. */
static int unbox_converted(PyObject *o, const Type *t, Slot *slot) {
  if (ty_is_complex(t)) {
    Py_complex v = PyComplex_AsCComplex(o);
    if (v.real == -1.0 && PyErr_Occurred()) return -1;
    if (t->kind == TY_C128) memcpy(slot, (double[2]){v.real, v.imag}, 16);
    else memcpy(slot, (float[2]){(float)v.real, (float)v.imag}, 8);
    return 0;
  }
  if (ty_is_float(t)) {
    double v = PyFloat_AsDouble(o);
    if (t->kind == TY_F64) slot->f = v;
    else if (t->kind == TY_F16) memcpy(slot, &(_Float16){(_Float16)v}, 2);  /* rounded once, from the double */
    else slot->f32 = (float)v;
    return v == -1.0 && PyErr_Occurred() ? -1 : 0;
  }
  if (t->kind == TY_BOOL) {
    int truth = PyObject_IsTrue(o);
    slot->b = (uint8_t)truth;
    return truth < 0 ? -1 : 0;
  }
  PyObject *index = PyNumber_Index(o);
  if (!index) return -1;
  int overflow = 0;
  int64_t v = ty_is_signed(t) ? PyLong_AsLongLongAndOverflow(index, &overflow)
                              : (int64_t)PyLong_AsUnsignedLongLong(index);
  Py_DECREF(index);
  if (PyErr_Occurred()) return -1;
  if (overflow) {
    PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to int64");
    return -1;
  }
  switch (ty_bits(t)) {  /* store at the parameter's width */
  case 8: slot->b = (uint8_t)v; break;
  case 16: memcpy(slot, &(int16_t){(int16_t)v}, 2); break;
  case 32: memcpy(slot, &(int32_t){(int32_t)v}, 4); break;
  default: slot->i = v; break;
  }
  return 0;
}

/* Whether a value of type t holds strs or lists unboxed for a call (a
 * str, a list, or a tuple with one among its items, or a record's copy):
 * the call releases them after (a Python list's copy and a record's
 * written back first). */
bool disp_holds_strings(const Type *t) {
  t = ty_enum_value(t);  /* (a member of a class of str values: its str) */
  if (t->kind == TY_STR || ty_is_container(t)) return true;  /* (a list, a set: a Python one's copy, reflected; a container: the result may be it) */
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (t->fields[i]->kind == TY_RECORD || disp_holds_strings(t->fields[i])) return true;
  return false;
}

/* A record in a tuple was a copy of its numpy.void's bytes: what the call
 * wrote goes back, as into the record itself where it is passed alone (the
 * bytes compared first: a read-only record left unwritten is not touched). */
static void write_back_record(PyObject *item, const char *at, size_t size) {
  char *data = disp_record_data(item);
  if (memcmp(data, at, size)) memcpy(data, at, size);
}

static void reflect(PyObject *o, const Type *t, void *c);

/* What a tuple's first n items at p hold for a call released (n: all,
 * after the call; fewer, when unboxing its item n failed): its strs, and
 * the copies of its Python lists, written back into the lists of o (the
 * tuple passed) first after a call (called), as Numba reflects them. */
static void release_tuple_items(const Type *t, char *p, int n, PyObject *o, bool called) {
  for (int i = 0; i < n; i++) {
    const Type *f = t->fields[i];
    char *at = p + t->offsets[i];
    PyObject *item = PyTuple_GET_ITEM(o, i);
    if (ty_enum_value(f)->kind == TY_STR) {
      rt_str_release(*(RtStr **)at);
    } else if (f->kind == TY_LIST && PyList_Check(item)) {
      if (called) reflect(item, f, *(RtList **)at);
      else rt_list_release(*(RtList **)at);
    } else if (f->kind == TY_SET) {
      if (called) reflect(item, f, *(RtDict **)at);
      else rt_dict_release(*(RtDict **)at);
    } else if (f->kind == TY_TUPLE) {
      release_tuple_items(f, at, f->nfields, item, called);
    } else if (f->kind == TY_RECORD && called) {
      write_back_record(item, at, f->size);
    }
  }
}

/* A tuple's items into its storage layout at p (t's field offsets):
 * numbers at their width, arrays as RtArrays, tuples in place, strs as
 * new RtStrs, Python lists as new RtLists, typed containers borrowed (the
 * caller releases what is new, disp_release_args). */
int disp_unbox_tuple(PyObject *o, const Type *t, char *p) {
  if (!PyTuple_Check(o) && t->callee) return disp_unbox_value(o, t, p);  /* a package's object: its members */
  if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != t->nfields) {
    PyErr_Format(PyExc_TypeError, "expected a tuple of %d items for %s, got %R", t->nfields, t->name, o);
    return -1;
  }
  for (int i = 0; i < t->nfields; i++) {
    const Type *f = t->fields[i];
    PyObject *item = PyTuple_GET_ITEM(o, i);
    char *at = p + t->offsets[i];
    if (f->kind == TY_F64 && PyFloat_CheckExact(item)) {  /* the common item, without a slot copied */
      *(double *)at = PyFloat_AS_DOUBLE(item);
      continue;
    }
    if (f->kind == TY_OPTIONAL) {  /* an objmode block's optional(T) output: the flag follows the value */
      memset(at, 0, f->size);
      if (item == Py_None) continue;
      f = f->elem;
      at[f->size] = 1;
    }
    void *unused;
    Slot slot;
    int rc = f->kind == TY_TUPLE   ? disp_unbox_tuple(item, f, at)
             : ty_enum_value(f)->kind == TY_TUPLE ? disp_unbox_enum(item, f, &slot, (RtArray *)at, &unused)  /* in place */
             : f->kind == TY_SLICE ? unbox_slice(item, f, (int64_t *)at)
             : f->kind == TY_ARRAY ? unbox_array(item, (RtArray *)at, &unused)
             : f->kind == TY_BYTES ? unbox_bytes(item, (RtArray *)at, &unused)
                                   : disp_unbox(item, f, &slot, NULL, &unused);
    if (rc < 0) {
      release_tuple_items(t, p, i, o, false);
      return -1;
    }
    if (ty_is_scalar(ty_enum_value(f))) memcpy(at, &slot, f->size);  /* (an enum member: its number) */
    else if (ty_enum_value(f)->kind == TY_STR || ty_is_container(f) || f->kind == TY_CLASS ||
             f->kind == TY_FUNCPTR || f->kind == TY_GENERATOR)
      /* (held as a pointer: a jitclass instance borrowed, a function's entry, a Generator's bitgen_t) */
      memcpy(at, &slot.u, sizeof(void *));
    else if (f->kind == TY_RECORD)  /* a record's bytes, in the tuple (its storage), of it or of a subtype's */
      memcpy(at, unused, f->size);
  }
  return 0;
}

/* numpy.random.Generator: its bit generator's bitgen_t (NumPy's C API),
 * from the capsule the bit generator keeps; borrowed for the call, as the
 * argument holds it. */
static int unbox_generator(PyObject *o, Slot *slot) {
  PyObject *bg = disp_is_generator(o) ? PyObject_GetAttrString(o, "bit_generator") : NULL;
  PyObject *cap = bg ? PyObject_GetAttrString(bg, "capsule") : NULL;
  void *bitgen = cap ? PyCapsule_GetPointer(cap, "BitGenerator") : NULL;
  Py_XDECREF(bg);
  Py_XDECREF(cap);
  if (!bitgen) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "expected a numpy.random.Generator");
    return -1;
  }
  slot->u = (uint64_t)(uintptr_t)bitgen;
  return 0;
}

/* A first-class function (FunctionType): the entry of a compiled
 * function, of a @cfunc's, or of one calling a WrapperAddressProtocol
 * object (kept by ruchey.native), compiled for t's signature; it lives as
 * long as the dispatcher, which the argument holds for the call. */
static int unbox_funcptr(PyObject *o, const Type *t, Slot *slot) {
  PyObject *disp = Py_TYPE(o) == &DispatcherType ? Py_NewRef(o) : NULL;
  if (!disp && disp_typeof(o) == t && !(disp = PyObject_GetAttrString(o, "_disp"))) {  /* a @cfunc of t's signature */
    PyErr_Clear();  /* another WrapperAddressProtocol object: a compiled function calling its address */
    PyObject *native = PyImport_ImportModule("ruchey.native");
    disp = native ? PyObject_CallMethod(native, "wrapper_dispatcher", "O", o) : NULL;
    Py_XDECREF(native);
  }
  if (!disp || Py_TYPE(disp) != &DispatcherType) {
    Py_XDECREF(disp);
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "expected a compiled function for %s, got %R", t->name, o);
    return -1;
  }
  void *entry = disp_function_entry((Dispatcher *)disp, t);
  Py_DECREF(disp);
  slot->u = (uint64_t)(uintptr_t)entry;
  return entry ? 0 : -1;
}

int disp_unbox(PyObject *o, const Type *t, Slot *slot, RtArray *arr, void **arg) {
  *arg = slot;
  if (t->kind == TY_ARRAY) return unbox_array(o, arr, arg);
  if (t->kind == TY_BYTES) return unbox_bytes(o, arr, arg);
  if (t->kind == TY_NONE || t->kind == TY_ELLIPSIS) return 0;  /* None, Ellipsis: nothing to pass */
  if (t->kind == TY_TUPLE) {  /* arr: room for t's storage */
    *arg = arr;
    if (arr) return disp_unbox_tuple(o, t, (char *)arr);
    PyErr_Format(PyExc_TypeError, "a tuple (%s) cannot be passed here", t->name);
    return -1;
  }
  if (t->kind == TY_SLICE) {  /* arr: room for its three int64 */
    *arg = arr;
    return unbox_slice(o, t, (int64_t *)arr);
  }
  if (t->kind == TY_DTYPE) {  /* no value: the dtype is in the type */
    if (disp_typeof(o) == t) return 0;
    PyErr_Format(PyExc_TypeError, "expected %s", t->name);
    return -1;
  }
  if (t->kind == TY_FUNCTION) {  /* no value: the function is in the type */
    if (Py_TYPE(o) == &DispatcherType && ((Dispatcher *)o)->as_value == t) return 0;
    PyErr_Format(PyExc_TypeError, "expected the compiled function %s", t->name);
    return -1;
  }
  if (t->kind == TY_GENERATOR) return unbox_generator(o, slot);
  if (t->kind == TY_FUNCPTR) return unbox_funcptr(o, t, slot);
  if (ty_is_enum(t)) return disp_unbox_enum(o, t, slot, arr, arg);
  if (t->kind == TY_RECORD) {  /* a pointer to the numpy.void's bytes, which it holds for the call */
    const Type *have = disp_typeof(o);
    if (have == t || (have && have->kind == TY_RECORD && disp_conversion_cost(t, have) >= 0)) {  /* or a subtype's */
      *arg = disp_record_data(o);
      return 0;
    }
    PyErr_Format(PyExc_TypeError, "expected a record of %s", t->name);
    return -1;
  }
  if (t->kind == TY_STR) {  /* a new string, released after the call (disp_release_args) */
    if (!PyUnicode_Check(o)) {
      PyErr_Format(PyExc_TypeError, "expected a str, got %s", Py_TYPE(o)->tp_name);
      return -1;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(o);
    RtStr *s = rt_str_alloc((int64_t)n);
    if (!s) {
      PyErr_NoMemory();
      return -1;
    }
    if (!PyUnicode_AsUCS4(o, s->data, n + 1, 1)) {
      free(s);
      return -1;
    }
    slot->u = (uint64_t)(uintptr_t)s;
    return 0;
  }
  if (t->kind == TY_SET) return typed_set_unbox(o, t, slot);  /* a new RtDict, released after the call (disp_release_args) */
  if (t->kind == TY_CLASS) {  /* borrowed: the box holds it for the call */
    slot->u = (uint64_t)(uintptr_t)jitclass_unbox(o);
    return 0;
  }
  if (t->kind == TY_LIST && PyList_Check(o)) return typed_pylist_unbox(o, t, slot);  /* a new RtList, reflected after the call */
  if (ty_is_container(t)) {  /* borrowed: the object holds it for the call */
    slot->u = (uint64_t)(uintptr_t)typed_container(o);
    return 0;
  }
  /* the common scalars first: a Python int for int64, a float for float64 */
  if (t->kind == TY_I64 && PyLong_CheckExact(o)) {
    int overflow;
    slot->i = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (!overflow) return 0;
    PyErr_SetString(PyExc_OverflowError, "Python int too large to convert to int64");
    return -1;
  }
  if (t->kind == TY_F64 && PyFloat_CheckExact(o)) {
    slot->f = PyFloat_AS_DOUBLE(o);
    return 0;
  }
  if (disp_typeof(o) == t) {
    if (PyArray_IsScalar(o, Generic)) {
      PyArray_ScalarAsCtype(o, slot);
      return 0;
    }
    if (t->kind == TY_F64) {
      slot->f = PyFloat_AS_DOUBLE(o);
      return 0;
    }
    if (t->kind == TY_BOOL) {
      slot->b = o == Py_True;
      return 0;
    }
  }
  if (ty_is_time(t)) {  /* no conversion between units or from numbers: NumPy's casts differ */
    PyErr_Format(PyExc_TypeError, "expected a numpy.%s, got %R", t->name, o);
    return -1;
  }
  return unbox_converted(o, t, slot);
}

/* A Python set or list argument o made equal to c, the container the call
 * worked on (of type t), an error the call left pending kept waiting. */
static void reflect(PyObject *o, const Type *t, void *c) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  int rc = t->kind == TY_SET ? typed_set_reflect(o, t, c) : typed_pylist_reflect(o, t, c);
  if (rc < 0) PyErr_WriteUnraisable(o);
  PyErr_Restore(type, value, tb);
}

/* After a call (called) or a failed unboxing of its first n arguments:
 * the strs, sets and Python lists made for them released (a tuple's strs
 * where argp points), the sets and lists of a call first written back
 * into the Python objects they came from; the arrays a call stored in a
 * typed container argument kept. */
void disp_release_args(const Type *const *types, Slot *slots, void *const *argp, int n, PyObject *const *args,
                       bool called) {
  for (int i = 0; i < n; i++) {
    const Type *t = types[i];
    void *c = (void *)(uintptr_t)slots[i].u;
    switch (ty_enum_value(t)->kind) {
    case TY_STR: rt_str_release(c); break;
    case TY_TUPLE: release_tuple_items(t, argp[i], t->nfields, args[i], called); break;
    case TY_SET:
      if (called) reflect(args[i], t, c);
      else rt_dict_release(c);
      break;
    case TY_LIST:
      if (!PyList_Check(args[i])) {
        if (called && !ty_is_scalar(t->elem)) typed_keep_arrays(t, c);  /* (numbers: nothing borrowed) */
      } else if (called) {
        reflect(args[i], t, c);
      } else {
        rt_list_release(c);
      }
      break;
    case TY_DICT:
      if (called && !ty_is_scalar(t->fields[1])) typed_keep_arrays(t, c);
      break;
    default: break;
    }
  }
}

/* ret, a list, dict or set (kind), the container a call took as o: o
 * itself, ret's reference released; else NULL. */
static PyObject *same_container(int kind, void *c, PyObject *o, void *ret) {
  if (!(kind == TY_LIST || kind == TY_DICT || kind == TY_SET) || c != ret) return NULL;
  if (kind == TY_LIST) rt_list_release(ret);
  else rt_dict_release(ret);  /* (a set is the runtime's dict) */
  return Py_NewRef(o);
}

/* The same for the items of a tuple argument o, held at p. */
static PyObject *same_in_tuple(const Type *t, char *p, PyObject *o, void *ret) {
  PyObject *same = NULL;
  for (int i = 0; !same && i < t->nfields; i++) {
    const Type *f = t->fields[i];
    char *at = p + t->offsets[i];
    same = f->kind == TY_TUPLE ? same_in_tuple(f, at, PyTuple_GET_ITEM(o, i), ret)
                               : same_container(f->kind, *(void **)at, PyTuple_GET_ITEM(o, i), ret);
  }
  return same;
}

/* A list, dict or set argument returned (ret, its reference released):
 * the argument itself (or a tuple argument's item), a Python list or set
 * as Numba returns a reflected one, a typed container as the object
 * passed; NULL for other containers. */
static PyObject *returned_arg(const Type *const *types, Slot *slots, void *const *argp, PyObject *const *args, int n,
                              void *ret) {
  PyObject *same = NULL;
  for (int i = 0; !same && i < n; i++)
    same = types[i]->kind == TY_TUPLE ? same_in_tuple(types[i], argp[i], args[i], ret)
                                      : same_container(types[i]->kind, (void *)(uintptr_t)slots[i].u, args[i], ret);
  return same;
}

bool disp_holds_container(const Type *t) {
  if (ty_is_container(t)) return true;
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (disp_holds_container(t->fields[i])) return true;
  return false;
}

PyObject *disp_box_returned(const Type *const *types, Slot *slots, void *const *argp, PyObject *const *args, int n,
                            const Type *t, char *p) {
  if (ty_is_container(t)) {
    PyObject *same = returned_arg(types, slots, argp, args, n, *(void **)p);
    return same ? same : disp_box(t, p);
  }
  if (!disp_holds_container(t)) return disp_box(t, p);
  PyObject *tup = PyTuple_New(t->nfields);  /* (return l, x: l the list passed, as Numba's) */
  for (int i = 0; tup && i < t->nfields; i++) {
    PyObject *item = disp_box_returned(types, slots, argp, args, n, t->fields[i], p + t->offsets[i]);
    if (!item) Py_CLEAR(tup);
    else PyTuple_SET_ITEM(tup, i, item);
  }
  return tup && t->callee ? disp_box_named(t, tup) : tup;
}

/* ---------------------------------------------------------------- errors */

/* numpy.exceptions.AxisError (numpy.AxisError before NumPy 1.25), looked
 * up once; ValueError, its base, where neither is found. */
static PyObject *axis_error_class(void) {
  static PyObject *cls;
  if (cls) return cls;
  PyObject *mod = PyImport_ImportModule("numpy.exceptions");
  if (!mod) {
    PyErr_Clear();
    mod = PyImport_ImportModule("numpy");
  }
  cls = mod ? PyObject_GetAttrString(mod, "AxisError") : NULL;
  Py_XDECREF(mod);
  if (!cls || !PyType_Check(cls)) {
    PyErr_Clear();
    Py_XDECREF(cls);
    cls = Py_NewRef(PyExc_ValueError);
  }
  return cls;
}

PyObject *disp_status_class(int status) {
  switch (status) {
  case RT_ERR_ZERODIV: return PyExc_ZeroDivisionError;
  case RT_ERR_INDEX: return PyExc_IndexError;
  case RT_ERR_VALUE: return PyExc_ValueError;
  case RT_ERR_MEMORY: return PyExc_MemoryError;
  case RT_ERR_ASSERT: return PyExc_AssertionError;
  case RT_ERR_OVERFLOW: return PyExc_OverflowError;
  case RT_ERR_UNBOUND: return PyExc_UnboundLocalError;
  case RT_ERR_TYPE: return PyExc_TypeError;
  case RT_ERR_RECURSION: return PyExc_RecursionError;
  case RT_ERR_INTERRUPT: return PyExc_KeyboardInterrupt;
  case RT_ERR_KEY: return PyExc_KeyError;
  case RT_ERR_STOP: return PyExc_StopIteration;
  case RT_ERR_AXIS: return axis_error_class();
  default: return PyExc_RuntimeError;
  }
}

/* A tuple key's text, "(1, 2.5)", or a complex one's, "(1.0+2.0j)", read
 * back as the tuple or number (NULL where it does not read, as "(nan, 1)"). */
static PyObject *tuple_key(const char *text) {
  PyObject *ast = text[0] == '(' ? PyImport_ImportModule("ast") : NULL;
  PyObject *key = ast ? PyObject_CallMethod(ast, "literal_eval", "s", text) : NULL;
  Py_XDECREF(ast);
  if (key && !PyTuple_Check(key) && !PyComplex_CheckExact(key)) Py_CLEAR(key);
  PyErr_Clear();
  return key;
}

static PyObject *disp_raise_key_error(const char *text) {
  char *end = NULL;
  double x = strtod(text, &end);
  PyObject *tuple = tuple_key(text), *wrapped = tuple ? PyTuple_Pack(1, tuple) : NULL;  /* KeyError((1, 2)), not KeyError(1, 2) */
  Py_XDECREF(tuple);
  PyObject *key = wrapped ? wrapped : !strcmp(text, "True") ? Py_NewRef(Py_True) : !strcmp(text, "False") ? Py_NewRef(Py_False)
                  : *text && strspn(text, "-0123456789") == strlen(text) ? PyLong_FromString(text, NULL, 10)
                  : *text && !*end                             ? PyFloat_FromDouble(x)
                                                               : PyUnicode_FromString(text);  /* a message */
  if (key) {
    PyErr_SetObject(PyExc_KeyError, key);
    Py_DECREF(key);
  }
  return NULL;
}

/* Compiled code caught a Ctrl-C (lower/try.c) and the call went on:
 * Python's handler runs now, as it would have before the clause ran, and
 * the KeyboardInterrupt it raises is the one the clause caught. Where the
 * call raised the interrupt again, raising it ran the handler. */
PyObject *disp_interrupt_caught(int status, PyObject *result) {
  __atomic_fetch_and(core_interrupted, ~RT_INTERRUPT_CAUGHT, __ATOMIC_RELAXED);
  if (status == RT_ERR_INTERRUPT) return result;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);  /* the call's own error, if it failed otherwise */
  if (PyErr_CheckSignals() < 0 && PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) PyErr_Clear();
  if (!PyErr_Occurred()) {
    PyErr_Restore(type, value, tb);
    return result;
  }
  Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);  /* a handler of the user's raised something else */
  Py_XDECREF(result);
  return NULL;
}

static PyObject *raise_arg(const char **text);

/* A tuple among a raise's arguments: its items up to the tag ')'. */
static PyObject *raise_tuple(const char **text) {
  PyObject *items = PyList_New(0), *x, *t = NULL;
  while (items && **text != ')' && (x = raise_arg(text))) {
    if (PyList_Append(items, x) < 0) Py_CLEAR(items);
    Py_DECREF(x);
  }
  const char *end = **text == ')' ? strchr(*text, ';') : NULL;
  if (items && end && !PyErr_Occurred()) {
    t = PyList_AsTuple(items);
    *text = end + 1;
  }
  Py_XDECREF(items);
  return t;
}

/* One argument of a raise's text (rt_raise_arg): a new value, *text moved
 * past it; NULL at the text's end or after an error. */
static PyObject *raise_arg(const char **text) {
  const char *p = *text, *end = strchr(p, p[0] == 's' ? ':' : ';');
  if (!p[0] || !end) return NULL;
  PyObject *v = NULL;
  if (p[0] == '(') {
    *text = end + 1;
    return raise_tuple(text);
  }
  if (p[0] == 's') {
    size_t len = strtoull(p + 1, NULL, 10);
    v = PyUnicode_DecodeUTF8(end + 1, (Py_ssize_t)len, "replace");
    *text = end + 1 + len;
    return v;
  }
  if (p[0] == 'n') v = Py_NewRef(Py_None);
  else if (p[0] == 'b') v = PyBool_FromLong(p[1] == '1');
  else if (p[0] == 'i') v = PyLong_FromLongLong(strtoll(p + 1, NULL, 10));
  else if (p[0] == 'u') v = PyLong_FromUnsignedLongLong(strtoull(p + 1, NULL, 10));
  else if (p[0] == 'M' || p[0] == 'm') {  /* unit,count */
    char *comma;
    long unit = strtol(p + 1, &comma, 10);
    int64_t count = strtoll(comma + 1, NULL, 10);
    const Type *t = unit >= 0 && unit < TU_COUNT ? core_api()->time(p[0] == 'M' ? TY_DATETIME : TY_TIMEDELTA, (int)unit) : NULL;
    v = t ? disp_box(t, (char *)&count) : NULL;
  }
  else if (p[0] == 'f') {
    char *stop;  /* the ';' after the repr */
    double d = PyOS_string_to_double(p + 1, &stop, NULL);
    v = d == -1.0 && PyErr_Occurred() ? NULL : PyFloat_FromDouble(d);
  }
  *text = end + 1;
  return v;
}

/* raise cls(a, b, ...) with the arguments compiled code recorded. */
static PyObject *disp_raise_args(PyObject *cls, const char *text) {
  PyObject *args = PyList_New(0), *v;
  while (args && (v = raise_arg(&text))) {
    if (PyList_Append(args, v) < 0) Py_CLEAR(args);
    Py_DECREF(v);
  }
  PyObject *tuple = args && !PyErr_Occurred() ? PyList_AsTuple(args) : NULL;
  PyObject *exc = tuple ? PyObject_Call(cls, tuple, NULL) : NULL;
  if (exc) PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
  Py_XDECREF(exc); Py_XDECREF(tuple); Py_XDECREF(args);
  return NULL;
}

/* A raise statement's place (RtError.where, "line\x1ffunction\x1ffile",
 * in a kernel compiled with debug=True then "\x1f" and the thread): its
 * parts as new strs; false if where is not one. */
typedef struct RaisePlace {
  long line;
  PyObject *function, *file, *thread;  /* thread: NULL where not told */
} RaisePlace;

static bool read_raise_place(const char *where, RaisePlace *place) {
  char *end;
  place->line = strtol(where, &end, 10);
  const char *func = end + 1, *file = strchr(func, '\x1f');
  if (*end != '\x1f' || !file) return false;
  const char *thread = strchr(file + 1, '\x1f');
  const char *file_end = thread ? thread : file + strlen(file);
  place->function = PyUnicode_FromStringAndSize(func, file - func);
  place->file = PyUnicode_FromStringAndSize(file + 1, file_end - file - 1);
  place->thread = thread ? PyUnicode_FromString(thread + 1) : NULL;
  if (place->function && place->file && (!thread || place->thread)) return true;
  Py_XDECREF(place->function); Py_XDECREF(place->file); Py_XDECREF(place->thread);
  PyErr_Clear();
  return false;
}

/* A traceback entry for the compiled function's raise statement, as the
 * interpreter adds one for each frame an exception leaves: a frame of an
 * empty code object at that line. */
static void add_raise_frame(const RaisePlace *place) {
  PyObject *globals = PyDict_New();
  PyCodeObject *code = globals ? PyCode_NewEmpty(PyUnicode_AsUTF8(place->file), PyUnicode_AsUTF8(place->function),
                                                 (int)place->line) : NULL;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyFrameObject *frame = code ? PyFrame_New(PyThreadState_Get(), code, globals, NULL) : NULL;
  PyErr_Restore(type, value, tb);
  if (frame) PyTraceBack_Here(frame);
  Py_XDECREF(frame); Py_XDECREF(code); Py_XDECREF(globals);
}

/* The exception raised again with numba-cuda's debug-mode message: "In
 * function 'f', file F, line N, tid=[z, y, x] ctaid=[z, y, x]", then ": "
 * and its first argument where it has one, as numba-cuda's launch raises
 * exccls(*args) after a kernel compiled with debug=True raised. */
static void name_raising_thread(const RaisePlace *place) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyObject *args = value ? PyObject_GetAttrString(value, "args") : NULL;
  PyObject *prefix = PyUnicode_FromFormat("In function %R, file %U, line %ld, %U", place->function, place->file,
                                          place->line, place->thread);
  PyObject *first = NULL, *named = NULL;
  if (args && PyTuple_Check(args) && prefix) {
    first = PyTuple_GET_SIZE(args) ? PyUnicode_FromFormat("%U: %S", prefix, PyTuple_GET_ITEM(args, 0))
                                   : Py_NewRef(prefix);
    PyObject *rest = PyTuple_GetSlice(args, 1, PY_SSIZE_T_MAX), *head = first ? PyTuple_Pack(1, first) : NULL;
    PyObject *all = rest && head ? PySequence_Concat(head, rest) : NULL;
    named = all ? PyObject_Call(type, all, NULL) : NULL;
    Py_XDECREF(all); Py_XDECREF(head); Py_XDECREF(rest);
  }
  Py_XDECREF(first); Py_XDECREF(prefix); Py_XDECREF(args);
  if (named) {  /* (an exception class whose arguments mean something else: kept as it was raised) */
    Py_SETREF(value, named);
    Py_CLEAR(tb);
  }
  PyErr_Clear();
  PyErr_Restore(type, value, tb);
}

static PyObject *raise_recorded(RtError *e);

PyObject *disp_raise_runtime_error(void) {
  RtError *e = core_api()->last_error();
  raise_recorded(e);
  RaisePlace place;
  if ((e->status == RT_ERR_RAISE || e->status == RT_ERR_ASSERT) && e->where && read_raise_place(e->where, &place)) {
    if (place.thread) name_raising_thread(&place);
    add_raise_frame(&place);
    Py_DECREF(place.function); Py_DECREF(place.file); Py_XDECREF(place.thread);
  }
  return NULL;
}

/* The arguments of compiled code's raises that are not numbers or str
 * (rt_raise_objects), boxed while the code held them: each raise's
 * (args tuple, keywords dict or None, message) under a serial number,
 * which its message names ("\x04" and the number), until Python gets
 * them (raise_kept) or compiled code catches the raise for good
 * (disp_forget_raise_args, called where a clause that does not raise it
 * again takes it, where a clause that may ends, and where a parallel
 * loop drops all failures but its first), so that a raise caught in
 * compiled code keeps its values for a bare raise after it however many
 * others come between. Under the GIL. */
static PyObject *kept_raises;

/* The values raise cls(*args, **kw) of tuple (args first, the keywords'
 * values last, each name in keywords ended by '\x1f') is made of: a new
 * (args, kw or None) pair; NULL with the exception set. */
static PyObject *split_keywords(PyObject *tuple, const char *keywords) {
  Py_ssize_t nkw = 0;
  for (const char *k = keywords; k && *k; k++) nkw += *k == '\x1f';
  Py_ssize_t npos = PyTuple_GET_SIZE(tuple) - nkw;
  PyObject *args = PyTuple_GetSlice(tuple, 0, npos), *kw = nkw ? PyDict_New() : Py_NewRef(Py_None);
  const char *name = keywords;
  for (Py_ssize_t i = 0; args && kw && i < nkw; i++) {
    const char *end = strchr(name, '\x1f');
    PyObject *key = PyUnicode_FromStringAndSize(name, end - name);
    if (!key || PyDict_SetItem(kw, key, PyTuple_GET_ITEM(tuple, npos + i)) < 0) Py_CLEAR(kw);
    Py_XDECREF(key);
    name = end + 1;
  }
  PyObject *pair = args && kw ? PyTuple_Pack(2, args, kw) : NULL;
  Py_XDECREF(args); Py_XDECREF(kw);
  return pair;
}

/* The values kept under serial, with their message: 0, or -1 with the exception set. */
static int keep_raise(PyObject *tuple, const char *keywords, uint64_t serial, const char **msg) {
  char text[24];
  snprintf(text, sizeof text, "\x04%llu", (unsigned long long)serial);
  PyObject *pair = split_keywords(tuple, keywords), *key = PyLong_FromUnsignedLongLong(serial);
  PyObject *message = PyBytes_FromString(text);
  PyObject *entry = pair && message ? PyTuple_Pack(2, pair, message) : NULL;
  if (!kept_raises && entry) kept_raises = PyDict_New();
  int rc = entry && key && kept_raises ? PyDict_SetItem(kept_raises, key, entry) : -1;
  if (rc == 0) *msg = PyBytes_AS_STRING(message);  /* (the entry holds it while the raise is kept) */
  Py_XDECREF(pair); Py_XDECREF(key); Py_XDECREF(message); Py_XDECREF(entry);
  return rc;
}

/* rt_raise_objects' boxer (any thread; the GIL taken here): 0 with the
 * message naming the kept values, or 1 with boxing's exception. */
int disp_keep_raise_args(const Type *args_t, void *args, const char *keywords, void **cls, const char **msg) {
  static uint64_t serial;
  static _Thread_local char text[512];
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject *tuple = disp_box(args_t, args);
  int failed = !tuple || keep_raise(tuple, keywords, ++serial, msg) < 0;
  if (failed) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *s = value ? PyObject_Str(value) : NULL;
    PyErr_Clear();
    snprintf(text, sizeof text, "%s", s ? PyUnicode_AsUTF8(s) : "an exception's arguments could not be boxed");
    PyErr_Clear();
    *cls = type ? type : Py_NewRef(PyExc_RuntimeError);  /* (classes live on) */
    *msg = text;
    Py_XDECREF(s); Py_XDECREF(value); Py_XDECREF(tb);
  }
  Py_XDECREF(tuple);
  PyGILState_Release(g);
  return failed;
}

/* The kept values a message of disp_keep_raise_args names, taken out (a
 * new (args, kw) pair), or NULL (no exception) where they are gone. */
static PyObject *take_kept(const char *text) {
  PyObject *key = PyLong_FromUnsignedLongLong(strtoull(text, NULL, 10));
  PyObject *entry = key && kept_raises ? PyDict_GetItemWithError(kept_raises, key) : NULL;
  PyObject *pair = entry ? Py_NewRef(PyTuple_GET_ITEM(entry, 0)) : NULL;
  if (entry && PyDict_DelItem(kept_raises, key) < 0) Py_CLEAR(pair);
  PyErr_Clear();
  Py_XDECREF(key);
  return pair;
}

void disp_forget_raise_args(const char *msg) {
  PyGILState_STATE g = PyGILState_Ensure();
  Py_XDECREF(take_kept(msg + 1));
  PyGILState_Release(g);
}

/* raise cls(*args, **kw) of the values a message of disp_keep_raise_args
 * names (taken: Python has them now); cls() where they are gone. */
static PyObject *raise_kept(PyObject *cls, const char *text) {
  PyObject *pair = take_kept(text);
  PyObject *kw = pair && PyTuple_GET_ITEM(pair, 1) != Py_None ? PyTuple_GET_ITEM(pair, 1) : NULL;
  PyObject *exc = pair ? PyObject_Call(cls, PyTuple_GET_ITEM(pair, 0), kw) : PyObject_CallNoArgs(cls);
  if (exc) PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
  Py_XDECREF(exc); Py_XDECREF(pair);
  return NULL;
}

/* A bare raise outside the function's except clauses (fe_raise): the
 * exception the calling Python code is handling, raised again with its
 * traceback, or cls(msg) where there is none. */
static PyObject *reraise_handled(PyObject *cls, const char *msg) {
  PyObject *type, *value, *tb;
  PyErr_GetExcInfo(&type, &value, &tb);
  if (value && value != Py_None) {
    PyErr_Restore(type, value, tb);
    return NULL;
  }
  Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
  PyErr_SetString(cls, msg);
  return NULL;
}

static PyObject *raise_recorded(RtError *e) {
  if (e->status == RT_ERR_INTERRUPT) {  /* Python's handler runs now: KeyboardInterrupt, or what the user's raises */
    *core_interrupted = 0;
    if (PyErr_CheckSignals() < 0) return NULL;
  }
  if (e->status == RT_ERR_KEY && e->msg && e->msg[0] == '\x02')  /* KeyError of a datetime (containers.c) */
    return disp_raise_args(PyExc_KeyError, e->msg + 1);
  if (e->status == RT_ERR_KEY && e->msg && e->msg[0] == '\x01') {  /* KeyError of a str key (containers.c) */
    PyObject *key = PyUnicode_DecodeUTF8(e->msg + 1, (Py_ssize_t)strlen(e->msg + 1), "replace");
    if (key) PyErr_SetObject(PyExc_KeyError, key);
    Py_XDECREF(key);
    return NULL;
  }
  if (e->status == RT_ERR_KEY && e->msg)  /* KeyError(key), the key a number as the message writes it */
    return disp_raise_key_error(e->msg);
  if (e->status == RT_ERR_RAISE && e->msg && e->msg[0] == '\x02') return disp_raise_args(e->exc_class, e->msg + 1);
  if (e->status == RT_ERR_RAISE && e->msg && e->msg[0] == '\x03') return reraise_handled(e->exc_class, e->msg + 1);
  if (e->status == RT_ERR_RAISE && e->msg && e->msg[0] == '\x04') return raise_kept(e->exc_class, e->msg + 1);
  PyObject *exc = e->status == RT_ERR_RAISE ? e->exc_class : disp_status_class(e->status);
  if (e->msg)
    PyErr_SetString(exc, e->msg);
  else
    PyErr_SetNone(exc);
  return NULL;
}
