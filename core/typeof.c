/* typeof.c — the type of each argument a compiled function is called with.
 *
 * Specialisations are keyed on interned types (libruchey's types.c: equal
 * types are one object). The common arguments — Python ints, floats and
 * bools, NumPy scalars and arrays — get theirs through a small integer
 * fingerprint (kind, ndim, layout, writability) and a table from it to
 * the type, as Numba's _typeof.cpp does: no allocation, no call into
 * libruchey on the call path.
 */
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL ruchey_ARRAY_API
#include "core.h"

#include <numpy/arrayobject.h>

#if NPY_ABI_VERSION < 0x02000000  /* NumPy 1.x: no accessor, the field */
#define PyDataType_ELSIZE(d) ((d)->elsize)
#endif

const Type *core_plain;

/* ---------------------------------------------------------------- dtypes */

int disp_dtype_kind(int type_num) {
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
  case NPY_COMPLEX64: return TY_C64;
  case NPY_COMPLEX128: return TY_C128;
  case NPY_HALF: return TY_F16;
  default:
    /* long and longlong are both 64-bit on the platforms we build for */
    if (type_num == NPY_INT64 || type_num == NPY_LONGLONG) return TY_I64;
    if (type_num == NPY_UINT64 || type_num == NPY_ULONGLONG) return TY_U64;
    return -1;
  }
}

int disp_kind_type_num(TypeKind k) {
  static const int nums[TY_COUNT] = {
    [TY_BOOL] = NPY_BOOL, [TY_I8] = NPY_INT8, [TY_I16] = NPY_INT16, [TY_I32] = NPY_INT32,
    [TY_I64] = NPY_INT64, [TY_U8] = NPY_UINT8, [TY_U16] = NPY_UINT16, [TY_U32] = NPY_UINT32,
    [TY_U64] = NPY_UINT64, [TY_F32] = NPY_FLOAT32, [TY_F64] = NPY_FLOAT64,
    [TY_C64] = NPY_COMPLEX64, [TY_C128] = NPY_COMPLEX128, [TY_F16] = NPY_HALF,
    [TY_DATETIME] = NPY_DATETIME, [TY_TIMEDELTA] = NPY_TIMEDELTA, [TY_PYOBJECT] = NPY_OBJECT,
  };
  return nums[k];
}

/* ---------------------------------------------------------------- datetimes */

/* Made once per kind and unit: typing an argument takes no lock. */
static const Type *time_types[2][TU_COUNT];

/* datetime64[unit] or timedelta64[unit] for a native M8 or m8 dtype; NULL
 * for any other, and for a multiple of a unit ('10D'), which compiled code
 * does not carry. */
#if NPY_ABI_VERSION < 0x02000000  /* NumPy 1.x's headers: the descriptor's field itself */
#define PyDataType_C_METADATA(d) ((d)->c_metadata)
#endif

const Type *disp_time_type(PyArray_Descr *d) {
  if ((d->type_num != NPY_DATETIME && d->type_num != NPY_TIMEDELTA) || !PyArray_ISNBO(d->byteorder)) return NULL;
  PyArray_DatetimeMetaData *m = &((PyArray_DatetimeDTypeMetaData *)PyDataType_C_METADATA(d))->meta;
  if (m->num != 1 || m->base < 0 || (int)m->base >= TU_COUNT || !core_api()->unit_name(m->base)) return NULL;
  bool delta = d->type_num == NPY_TIMEDELTA;
  const Type **t = &time_types[delta][m->base];
  if (!*t) *t = core_api()->time(delta ? TY_TIMEDELTA : TY_DATETIME, m->base);
  return *t;
}

/* A NumPy dtype (np.dtype("f4")) or scalar type (np.float32) as a value:
 * its type dtype(float32), which has none at run time (np.empty(n, dt) is
 * typed by it); the object dtype's dtype(pyobject), as Numba's (code may
 * take it and pass it on); NULL for other dtypes and byte orders. */
static const Type *dtype_value_type(PyObject *o) {
  PyArray_Descr *d = PyArray_DescrCheck(o) ? (PyArray_Descr *)Py_NewRef(o) : PyArray_DescrFromTypeObject(o);
  int kind = d && PyArray_ISNBO(d->byteorder) ? disp_dtype_kind(d->type_num) : -1;
  if (d && d->type_num == NPY_OBJECT) kind = TY_PYOBJECT;
  const Type *elem = kind >= 0 ? &core_plain[kind] : d ? disp_time_type(d) : NULL;
  Py_XDECREF(d);
  PyErr_Clear();
  if (!elem) return NULL;
  static const Type *plain_dtypes[TY_COUNT];  /* a number's dtype interned once, not on every call */
  if (kind < 0) return core_api()->dtype(elem);
  if (!plain_dtypes[kind]) plain_dtypes[kind] = core_api()->dtype(elem);
  return plain_dtypes[kind];
}

const Type *disp_dtype_time(PyObject *o) { return PyArray_DescrCheck(o) ? disp_time_type((PyArray_Descr *)o) : NULL; }

const Type *disp_dtype_text(PyObject *o) {
  PyArray_Descr *d = PyArray_DescrCheck(o) ? (PyArray_Descr *)o : NULL;
  if (!d || !PyDataType_ELSIZE(d)) return NULL;  /* ('U': no width) */
  if (d->type_num == NPY_UNICODE) return core_api()->charseq((int)(PyDataType_ELSIZE(d) / 4));
  return d->type_num == NPY_STRING ? core_api()->byteseq((int)PyDataType_ELSIZE(d)) : NULL;
}

/* numpy.str_ and numpy.bytes_ as a dtype: the widthless '<U0' and '|S0'
 * Numba makes numpy.zeros(n, numpy.str_) of (NumPy itself would widen
 * them to one character); NULL for any other object. */
const Type *disp_text_class(PyObject *o) {
  if (o == (PyObject *)&PyUnicodeArrType_Type) return core_api()->charseq(0);
  return o == (PyObject *)&PyStringArrType_Type ? core_api()->byteseq(0) : NULL;
}

int disp_time_class_kind(PyObject *cls) {
  if (cls == (PyObject *)&PyDatetimeArrType_Type) return TY_DATETIME;
  return cls == (PyObject *)&PyTimedeltaArrType_Type ? TY_TIMEDELTA : -1;
}

const Type *disp_scalar_time(PyObject *o) {
  if (!PyArray_IsScalar(o, Datetime) && !PyArray_IsScalar(o, Timedelta)) return NULL;
  PyArray_Descr *d = PyArray_DescrFromScalar(o);
  const Type *t = d ? disp_time_type(d) : NULL;
  Py_XDECREF(d);
  return t;
}

/* The dtype of a datetime type (a new reference): M8[D], m8[ns], M8. */
PyArray_Descr *disp_time_descr(const Type *t) {
  static PyArray_Descr *descrs[2][TU_COUNT];
  PyArray_Descr **d = &descrs[t->kind == TY_TIMEDELTA][t->unit];
  if (!*d) {
    const char *unit = core_api()->unit_name(t->unit);
    PyObject *spec = PyUnicode_FromFormat("%s%s%s%s", t->kind == TY_TIMEDELTA ? "m8" : "M8", *unit ? "[" : "", unit,
                                          *unit ? "]" : "");
    if (!spec || !PyArray_DescrConverter(spec, d)) *d = NULL;
    Py_XDECREF(spec);
    if (!*d) return NULL;
  }
  Py_INCREF(*d);
  return *d;
}

/* ---------------------------------------------------------------- arrays */

/* An array's fingerprint: its place in the table below. */
enum { NLAYOUTS = 3, NARRAYS = (TY_F16 + 1) * (RC_MAX_NDIM + 1) * NLAYOUTS * 2 };
static const Type *array_types[NARRAYS];

/* An array of records: off the table, its dtype's type from records.c. */
static const Type *record_array_type(PyArrayObject *a, int lay) {
  const Type *elem = disp_record_type(PyArray_DESCR(a));
  return elem ? core_api()->array(elem, PyArray_NDIM(a), "CFA"[lay], !PyArray_ISWRITEABLE(a)) : NULL;
}

static const Type *array_type(PyArrayObject *a) {
  PyArray_Descr *d = PyArray_DESCR(a);
  int kind = disp_dtype_kind(d->type_num), nd = PyArray_NDIM(a);
  const Type *time = kind < 0 && nd <= RC_MAX_NDIM ? disp_time_type(d) : NULL;
  if (time)  /* off the table too: one type per unit */
    return core_api()->array(time, nd, nd == 0 || PyArray_IS_C_CONTIGUOUS(a) ? 'C' : PyArray_IS_F_CONTIGUOUS(a) ? 'F' : 'A',
                             !PyArray_ISWRITEABLE(a));
  if (kind < 0 && PyDataType_HASFIELDS(d) && nd <= RC_MAX_NDIM)
    return record_array_type(a, nd == 0 || PyArray_IS_C_CONTIGUOUS(a) ? 0 : PyArray_IS_F_CONTIGUOUS(a) ? 1 : 2);
  if (d->type_num == NPY_UNICODE && PyArray_ISNBO(d->byteorder) && PyDataType_ELSIZE(d) && nd <= RC_MAX_NDIM)
    return core_api()->array(core_api()->charseq((int)(PyDataType_ELSIZE(d) / 4)), nd,
                             nd == 0 || PyArray_IS_C_CONTIGUOUS(a) ? 'C' : PyArray_IS_F_CONTIGUOUS(a) ? 'F' : 'A',
                             !PyArray_ISWRITEABLE(a));
  if (d->type_num == NPY_STRING && PyDataType_ELSIZE(d) && nd <= RC_MAX_NDIM)  /* '|Sn': bytes have no byte order */
    return core_api()->array(core_api()->byteseq((int)PyDataType_ELSIZE(d)), nd,
                             nd == 0 || PyArray_IS_C_CONTIGUOUS(a) ? 'C' : PyArray_IS_F_CONTIGUOUS(a) ? 'F' : 'A',
                             !PyArray_ISWRITEABLE(a));
  if (kind < 0 || !PyArray_ISNBO(d->byteorder) || nd > RC_MAX_NDIM) return NULL;
  int lay = nd == 0 || PyArray_IS_C_CONTIGUOUS(a) ? 0 : PyArray_IS_F_CONTIGUOUS(a) ? 1 : 2;
  bool readonly = !PyArray_ISWRITEABLE(a);
  int print = ((kind * (RC_MAX_NDIM + 1) + nd) * NLAYOUTS + lay) * 2 + readonly;
  const Type *t = array_types[print];
  if (!t)
    t = array_types[print] = core_api()->array(&core_plain[kind], nd, "CFA"[lay], readonly);
  return t;
}

/* Whether a subclass of ndarray indexes as a plain array: none of its
 * classes up to ndarray redefines indexing (numpy.ma.MaskedArray,
 * numpy.matrix and user classes that do would silently lose their mask or
 * their override), numpy.memmap excepted (its __getitem__ only changes the
 * class of what it returns). With Numba's readings (install_as_numba()),
 * the others are taken as Numba takes them, as plain arrays (galois passes
 * its field arrays so), the mask and the matrix operators still refused. */
/* The class module.name (NumPy's, the standard library's), looked up once (kept: such classes live as long as the process). */
static PyTypeObject *numpy_class(PyObject **cache, const char *module, const char *name) {
  if (!*cache) {
    PyObject *m = PyImport_ImportModule(module);
    *cache = m ? PyObject_GetAttrString(m, name) : NULL;
    Py_XDECREF(m);
    if (*cache && !PyType_Check(*cache)) Py_CLEAR(*cache);
    PyErr_Clear();
  }
  return (PyTypeObject *)*cache;
}

/* Whether Numba's readings refuse the subclass t too: a masked array or a matrix. */
static bool refused_by_numba_too(PyTypeObject *t) {
  static PyObject *masked, *matrix;
  PyTypeObject *a = numpy_class(&masked, "numpy.ma", "MaskedArray"), *b = numpy_class(&matrix, "numpy", "matrix");
  return (a && PyType_IsSubtype(t, a)) || (b && PyType_IsSubtype(t, b));
}

/* array.array, Python's typed arrays (a buffer of one of C's number types). */
static PyTypeObject *python_array_class(void) {
  static PyObject *array;
  return numpy_class(&array, "array", "array");
}

static bool indexes_plainly(PyTypeObject *t) {
  if (disp_numba_semantics && !refused_by_numba_too(t)) return true;
  PyObject *mro = t->tp_mro;
  for (Py_ssize_t i = 0; mro && i < PyTuple_GET_SIZE(mro); i++) {
    PyTypeObject *c = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
    if (c == &PyArray_Type) return true;
    if (!strcmp(c->tp_name, "numpy.memmap") || !strcmp(c->tp_name, "memmap")) continue;
    PyObject *dict = c->tp_dict;
    if (dict && (PyDict_GetItemString(dict, "__getitem__") || PyDict_GetItemString(dict, "__setitem__")))
      return false;
  }
  return true;
}

/* A compiled function passed as an argument: a type of its own, so that
 * the callee's specialisation calls it directly (and inlines it). */
const Type *disp_function_type(Dispatcher *d) {
  if (d->as_value) return d->as_value;
  if (d->opts.kernel) return NULL;
  PyObject *name = PyObject_GetAttrString(d->py_func, "__name__");
  const char *text = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "?";
  PyErr_Clear();
  d->as_value = core_api()->function(d, text);
  Py_XDECREF(name);
  Py_INCREF(d);
  return d->as_value;
}

/* ---------------------------------------------------------------- tuples */

/* A tuple's type is built from its items' types and interned by
 * libruchey; a direct-mapped table of recent ones in front of it keeps
 * the call path to a hash of a few pointers (the GIL guards the table). */
enum { TUPLE_CACHE = 64, CACHED_FIELDS = 8, MAX_TUPLE_DEPTH = 8 };
typedef struct {
  int n;
  const Type *fields[CACHED_FIELDS];
  const Type *type;
} CachedTuple;
static CachedTuple tuple_types[TUPLE_CACHE];

static const Type *interned_tuple(int n, const Type *const *fields) {
  if (n > CACHED_FIELDS) return core_api()->tuple(n, fields);
  size_t h = (size_t)n;
  for (int i = 0; i < n; i++) h = h * 31 + ((uintptr_t)fields[i] >> 4);
  h ^= h >> 7;
  CachedTuple *e = &tuple_types[h % TUPLE_CACHE];
  if (e->type && e->n == n && !memcmp(e->fields, fields, sizeof(Type *) * (size_t)n)) return e->type;
  const Type *t = core_api()->tuple(n, fields);
  e->n = n;
  memcpy(e->fields, fields, sizeof(Type *) * (size_t)n);
  e->type = t;
  return t;
}

/* numpy.random.Generator's class, found once numpy.random is imported
 * (an object of it can exist only then). */
bool disp_is_generator(PyObject *o) {
  static PyObject *generator;
  if (!generator) {
    PyObject *random = PyDict_GetItemString(PyImport_GetModuleDict(), "numpy.random");
    if (!random) return false;
    if (!(generator = PyObject_GetAttrString(random, "Generator"))) {
      PyErr_Clear();
      return false;
    }
  }
  return (PyObject *)Py_TYPE(o) == generator;
}

static const Type *typeof_depth(PyObject *o, int depth);

/* A @cfunc (ruchey/ccallback.py) passed as a value: a first-class function
 * of its signature, its _function_type described; so too another native
 * function (ruchey/native.py): an object of the WrapperAddressProtocol, of
 * its signature(), a ctypes function pointer, of its argtypes and restype,
 * a cffi function, of its C type. */
bool disp_may_be_native(PyObject *o) {
  if (PyType_Check(o)) return false;
  PyObject *owner = PyCFunction_Check(o) ? PyCFunction_GET_SELF(o) : o;  /* (an out-of-line cffi lib's function) */
  if (owner && !strncmp(Py_TYPE(owner)->tp_name, "_cffi_backend.", strlen("_cffi_backend."))) return true;
  PyObject *cls = (PyObject *)Py_TYPE(o);
  bool may = PyObject_HasAttrString(cls, "__wrapper_address__") || PyObject_HasAttrString(cls, "argtypes");
  PyErr_Clear();
  return may;
}

static const Type *cfunc_typeof(PyObject *o) {
  if (PyType_Check(o)) return NULL;
  PyObject *d = NULL;
  if (!strcmp(Py_TYPE(o)->tp_name, "CFunc")) {
    d = PyObject_GetAttrString(o, "_function_type");
  } else if (disp_may_be_native(o)) {
    PyObject *native = PyImport_ImportModule("ruchey.native");
    d = native ? PyObject_CallMethod(native, "wrapper_function_type", "O", o) : NULL;
    Py_XDECREF(native);
  }
  const Type *t = d && d != Py_None ? disp_described_type(d) : NULL;
  Py_XDECREF(d);
  if (!t) PyErr_Clear();
  return t;
}

const Type *disp_type_object(PyObject *o) {
  if (PyType_Check(o)) return NULL;
  PyObject *module = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__module__");
  bool ours = module && PyUnicode_Check(module) && !strcmp(PyUnicode_AsUTF8(module), "ruchey.types");
  Py_XDECREF(module);
  PyObject *d = ours ? PyObject_CallMethod(o, "describe", NULL) : NULL;
  const Type *t = d ? disp_described_type(d) : NULL;
  Py_XDECREF(d);
  PyErr_Clear();
  return t;
}

/* A ruchey type object (types.int64, Tuple([float64, int64])) passed as a
 * value, as Numba passes a number class or a type reference: dtype(its
 * type), no value at run time, so that typed.List.empty_list(t) of it
 * compiles (pysheds passes its priority queue's item type). A scalar type
 * or a tuple of them; an array type is not taken. */
static const Type *type_object_typeof(PyObject *o) {
  const Type *t = disp_type_object(o);
  bool scalars = t && (ty_is_scalar(t) || t->kind == TY_TUPLE);
  for (int i = 0; scalars && t->kind == TY_TUPLE && i < t->nfields; i++) scalars = ty_is_scalar(t->fields[i]);
  return scalars ? core_api()->dtype(t) : NULL;
}

/* A slice of ints and Nones: which parts are ints in its type. */
static const Type *slice_type(PyObject *o) {
  PySliceObject *s = (PySliceObject *)o;
  PyObject *parts[3] = {s->start, s->stop, s->step};
  int given = 0;
  for (int k = 0; k < 3; k++)
    if (parts[k] != Py_None) {
      if (!PyLong_Check(parts[k]) && !PyArray_IsScalar(parts[k], Integer)) return NULL;
      given |= 1 << k;
    }
  return core_api()->slice(given);
}

/* NULL where an item has no type (or the tuple nests or grows too far). */
/* The compiled functions among a tuple's first-class functions (cfuncs,
 * native functions) of one FunctionType: of that type too, as Numba
 * unifies them (each compiled for its signature when unboxed), so that
 * the tuple can be iterated. */
static void unify_function_items(const Type **fields, Py_ssize_t n) {
  const Type *ptr = NULL;
  for (Py_ssize_t i = 0; i < n; i++) {
    if (fields[i]->kind != TY_FUNCPTR) continue;
    if (ptr && ptr != fields[i]) return;
    ptr = fields[i];
  }
  for (Py_ssize_t i = 0; ptr && i < n; i++)
    if (fields[i]->kind == TY_FUNCTION) fields[i] = ptr;
}

/* (A long tuple's items' types are held on the heap, a short one's, the
 * common case on the call path, on the stack.) */
static const Type *tuple_type(PyObject *o, int depth) {
  Py_ssize_t n = PyTuple_GET_SIZE(o), i = 0;
  if (n > TY_MAX_FIELDS || depth >= MAX_TUPLE_DEPTH) return NULL;
  const Type *few[CACHED_FIELDS], **fields = n <= CACHED_FIELDS ? few : PyMem_Malloc(sizeof(Type *) * (size_t)n), *t = NULL;
  if (!fields) return NULL;
  while (i < n && (fields[i] = typeof_depth(PyTuple_GET_ITEM(o, i), depth + 1))) i++;
  if (i == n) {
    unify_function_items(fields, n);
    t = PyTuple_CheckExact(o) ? interned_tuple((int)n, fields) : disp_named_tuple_type(Py_TYPE(o), (int)n, fields);
  }
  if (fields != few) PyMem_Free(fields);
  return t;
}

PyObject *disp_buffer_array(PyObject *o) { return PyArray_FromAny(o, NULL, 0, 0, 0, NULL); }

/* A bytearray (an array of uint8), memoryview or array.array (of its
 * format's items, read-only as it is): the array of its buffer's type,
 * marked as which it is (kind: 'B', 'M' or 'P'); NULL for a format NumPy
 * or ruchey has no dtype for. */
static const Type *buffer_type(PyObject *o, char kind) {
  static const Type *bytearray;  /* interned once, not on every call */
  if (PyByteArray_CheckExact(o))
    return bytearray ? bytearray : (bytearray = core_api()->buffer(core_api()->array(&core_plain[TY_U8], 1, 'C', false), 'B'));
  PyObject *view = disp_buffer_array(o);
  const Type *t = view && PyArray_CheckExact(view) ? array_type((PyArrayObject *)view) : NULL;
  if (t) t = core_api()->buffer(t, kind);
  Py_XDECREF(view);
  PyErr_Clear();
  return t;
}

/* (the types live in libruchey: typing a value before anything was compiled,
 * as typed.List([numpy.float32(1)]) does, loads it) */
const Type *disp_typeof(PyObject *o) { return core_plain || core_api() ? typeof_depth(o, 0) : NULL; }

/* A Python int: int64 where it fits, else uint64 where that holds it, as
 * Numba types one (2**64 - 1, a hash's constant); int64 past both, whose
 * unboxing raises OverflowError. */
static const Type *python_int_type(PyObject *o) {
  int overflow;
  PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow <= 0) return &core_plain[TY_I64];
  PyLong_AsUnsignedLongLong(o);
  bool fits = !PyErr_Occurred();
  PyErr_Clear();
  return &core_plain[fits ? TY_U64 : TY_I64];
}

static const Type *typeof_depth(PyObject *o, int depth) {
  PyTypeObject *t = Py_TYPE(o);
  if (t == &PyFloat_Type) return &core_plain[TY_F64];
  if (t == &PyLong_Type) return python_int_type(o);
  if (t == &PyBool_Type) return &core_plain[TY_BOOL];
  if (o == Py_None) return &core_plain[TY_NONE];
  if (o == Py_Ellipsis) return &core_plain[TY_ELLIPSIS];
  if (t == &PyTuple_Type) return tuple_type(o, depth);
  if (t == &DispatcherType) return disp_function_type((Dispatcher *)o);
  if (t == &PyComplex_Type) return &core_plain[TY_C128];
  if (t == &PyUnicode_Type) return &core_plain[TY_STR];
  if (t == &PyBytes_Type) return &core_plain[TY_BYTES];
  if (t == &PyByteArray_Type || t == &PyMemoryView_Type) return buffer_type(o, 'M');
  if (t == python_array_class()) return buffer_type(o, 'P');
  if (t == &PySlice_Type) return slice_type(o);  /* in a tuple too: an index a[(0, s)] passed in */
  if (t == &PyArray_Type || (PyArray_Check(o) && indexes_plainly(t))) return array_type((PyArrayObject *)o);
  if (PyArray_Check(o)) return NULL;
  if (PyTuple_Check(o)) return tuple_type(o, depth);  /* a named tuple's class: the type names it */
  if (PySet_Check(o)) return typed_set_typeof(o);  /* in a tuple too, reflected as Numba's (typed.Set too) */
  if (t == &PyList_Type) return typed_pylist_typeof(o);  /* in a tuple too, reflected as Numba's */
  const Type *member = disp_enum_recent(o);  /* before the other classes' checks: a member of a class just seen */
  if (member) return member;
  const Type *jc = jitclass_typeof(o);
  if (jc) return jc;
  const Type *typed = typed_typeof(o);
  if (typed) return typed;
  if (disp_is_generator(o)) return &core_plain[TY_GENERATOR];
  if (PyArray_IsScalar(o, Generic)) {
    PyArray_Descr *d = PyArray_DescrFromScalar(o);
    int kind = disp_dtype_kind(d->type_num);
    /* numpy.str_ is a str, as Numba's unicode_type; numpy.bytes_ (a bytes array's item, Numba's CharSeq,
     * which its unboxing refuses) is bytes, as ruchey reads those items */
    if (d->type_num == NPY_UNICODE) kind = TY_STR;
    if (d->type_num == NPY_STRING) kind = TY_BYTES;
    const Type *other = kind >= 0 ? NULL : PyDataType_HASFIELDS(d) ? disp_record_type(d) : disp_time_type(d);
    Py_DECREF(d);
    return kind < 0 ? other : &core_plain[kind];
  }
  if (PyArray_DescrCheck(o) || (PyType_Check(o) && PyType_IsSubtype((PyTypeObject *)o, &PyGenericArrType_Type)))
    return dtype_value_type(o);
  member = disp_enum_typeof(o);
  if (member || PyErr_Occurred()) return member;
  const Type *ref = type_object_typeof(o);
  if (ref) return ref;
  const Type *value = disp_value_typeof(o);
  if (value) return value;
  return cfunc_typeof(o);
}

/* Why a tuple cannot be passed: its first item that cannot, or its size. */
static PyObject *tuple_refusal(PyObject *o) {
  Py_ssize_t n = PyTuple_GET_SIZE(o);
  if (n > TY_MAX_FIELDS)
    return PyUnicode_FromFormat("is a tuple of %zd items (at most %d are supported: pass an array or a list)", n,
                                TY_MAX_FIELDS);
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *item = PyTuple_GET_ITEM(o, i);
    if (typeof_depth(item, 1)) continue;
    if (disp_typeof(item) && !PyArray_IsScalar(item, Void) && !PySet_CheckExact(item))  /* a cfunc */
      return PyUnicode_FromFormat("is a tuple whose item %zd, a %s, is taken alone but not inside a tuple", i,
                                  Py_TYPE(item)->tp_name);
    PyObject *why = disp_refusal(item);
    PyObject *r = why ? PyUnicode_FromFormat("is a tuple whose item %zd %U", i, why) : NULL;
    Py_XDECREF(why);
    return r;
  }
  return PyUnicode_FromFormat("is a tuple nested more than %d deep", MAX_TUPLE_DEPTH);
}

/* Why compiled code cannot take o, for a TypeError: an array's class or
 * its dtype named (with its byte order), or o's class. */
PyObject *disp_refusal(PyObject *o) {
  if (PyTuple_CheckExact(o)) return tuple_refusal(o);
  PyObject *typed = typed_refusal(o);
  if (typed) return typed;
  PyObject *member = disp_enum_refusal(o);
  if (member) return member;
  PyObject *value = disp_value_refusal(o);
  if (value || PyErr_Occurred()) return value;
  if (PyArray_IsScalar(o, Void)) {
    PyArray_Descr *d = PyArray_DescrFromScalar(o);
    PyObject *r = PyDataType_HASFIELDS(d) ? disp_record_refusal(d) : NULL;
    Py_DECREF(d);
    if (r) return r;
  }
  if (!PyArray_Check(o))
    return PyUnicode_FromFormat("of type '%s' is not supported", Py_TYPE(o)->tp_name);
  PyArrayObject *a = (PyArrayObject *)o;
  if (!indexes_plainly(Py_TYPE(o))) {
    PyObject *module = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__module__");
    PyObject *qualname = module ? PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__qualname__") : NULL;
    PyObject *r = qualname ? PyUnicode_FromFormat("is a %S.%S, an ndarray subclass with its own indexing, which "
                                                  "compiled code would ignore: pass numpy.asarray(a)%s",
                                                  module, qualname, strstr(Py_TYPE(o)->tp_name, "Masked")
                                                                       ? " with a.mask, or a.filled(value)" : "")
                           : NULL;
    Py_XDECREF(module); Py_XDECREF(qualname);
    return r;
  }
  if (PyArray_NDIM(a) > RC_MAX_NDIM)
    return PyUnicode_FromFormat("is an array of %d dimensions (at most %d are supported)", PyArray_NDIM(a), RC_MAX_NDIM);
  PyArray_Descr *d = PyArray_DESCR(a);
  if (PyDataType_HASFIELDS(d)) return disp_record_refusal(d);
  PyObject *name = PyObject_GetAttrString((PyObject *)d, "name"), *str = PyObject_GetAttrString((PyObject *)d, "str");
  const char *order = d->byteorder == '>' ? "big-endian" : d->byteorder == '|' ? "no byte order" : "little-endian";
  PyObject *r = name && str ? PyUnicode_FromFormat("is an array of dtype %U ('%U', %s), which is not supported%s",
                                                    name, str, order,
                                                    disp_dtype_kind(d->type_num) >= 0
                                                        ? ": convert it to native byte order, a.astype(a.dtype.newbyteorder('='))"
                                                        : "")
                            : NULL;
  Py_XDECREF(name); Py_XDECREF(str);
  return r;
}

/* ---------------------------------------------------------------- descriptions */

/* A list describes a tuple, item by item. */
static const Type *described_tuple(PyObject *d) {
  Py_ssize_t n = PyList_GET_SIZE(d);
  if (n > TY_MAX_FIELDS) {
    PyErr_Format(PyExc_ValueError, "tuples of more than %d items are not supported", TY_MAX_FIELDS);
    return NULL;
  }
  const Type **fields = PyMem_Malloc(sizeof(Type *) * (size_t)(n ? n : 1)), *t = NULL;
  if (!fields) return (const Type *)PyErr_NoMemory();
  Py_ssize_t i = 0;
  while (i < n && (fields[i] = disp_described_type(PyList_GET_ITEM(d, i)))) i++;
  if (i == n) t = core_api()->tuple((int)n, fields);
  PyMem_Free(fields);
  return t;
}

/* ("function", [the parameters'], the result's): a first-class function
 * of that signature (Numba's FunctionType). */
static const Type *described_funcptr(PyObject *d) {
  PyObject *params = PyTuple_GET_ITEM(d, 1);
  if (!PyList_Check(params) || PyList_GET_SIZE(params) > MAX_ARGS) {
    PyErr_SetString(PyExc_ValueError, "invalid type description");
    return NULL;
  }
  const Type *types[MAX_ARGS];
  int n = (int)PyList_GET_SIZE(params);
  for (int i = 0; i < n; i++)
    if (!(types[i] = disp_described_type(PyList_GET_ITEM(params, i)))) return NULL;
  const Type *ret = disp_described_type(PyTuple_GET_ITEM(d, 2));
  return ret ? core_api()->funcptr(ret, n, types) : NULL;
}

/* Whether a description's layout is one: "C", "F", "A", each with an "R" (readonly) or without. */
static bool described_layout(const char *layout) {
  return layout[0] && strchr("CFA", layout[0]) && (!layout[1] || !strcmp(layout + 1, "R"));
}

/* ("record", a structured dtype, ndim, layout): its records (ndim 0) or
 * an array of them, as types.from_dtype(dtype) and its [:] give them. */
static const Type *described_record(PyObject *d) {
  PyObject *dtype;
  int ndim;
  const char *layout;
  if (!PyArg_ParseTuple(d, "sOis", &(const char *){NULL}, &dtype, &ndim, &layout)) return NULL;
  if (!PyArray_DescrCheck(dtype) || !PyDataType_HASFIELDS((PyArray_Descr *)dtype) || ndim < 0 ||
      ndim > RC_MAX_NDIM || !described_layout(layout)) {
    PyErr_SetString(PyExc_ValueError, "invalid record type description");
    return NULL;
  }
  const Type *t = disp_record_type((PyArray_Descr *)dtype);
  if (!t) {
    PyObject *why = disp_record_refusal((PyArray_Descr *)dtype);
    if (why) PyErr_Format(PyExc_TypeError, "a record type %U", why);
    Py_XDECREF(why);
    return NULL;
  }
  return ndim ? core_api()->array(t, ndim, layout[0], layout[1] == 'R') : t;
}

/* ("text", "U" or "S", n, ndim, layout): an array of '<Un' or '|Sn'
 * (Numba's UnicodeCharSeq(n)[:], CharSeq(n)[:]); one alone is a field's
 * type, never an argument's (a str or bytes is passed). */
static const Type *described_text(PyObject *d) {
  const char *code, *layout;
  int n, ndim;
  if (!PyArg_ParseTuple(d, "ssiis", &(const char *){NULL}, &code, &n, &ndim, &layout)) return NULL;
  if ((strcmp(code, "U") && strcmp(code, "S")) || n < 0 || ndim < 0 || ndim > RC_MAX_NDIM ||
      !described_layout(layout)) {
    PyErr_SetString(PyExc_ValueError, "invalid type description");
    return NULL;
  }
  if (!ndim) {
    PyErr_Format(PyExc_TypeError, "[%s x %d] is a record field's or an array element's type, not an argument's: "
                 "declare the argument %s", code[0] == 'U' ? "unichr" : "char", n,
                 code[0] == 'U' ? "unicode_type (a str)" : "Bytes(uint8, 1, 'C', readonly=True) (a bytes)");
    return NULL;
  }
  const Type *e = code[0] == 'U' ? core_api()->charseq(n) : core_api()->byteseq(n);
  return core_api()->array(e, ndim, layout[0], layout[1] == 'R');
}

/* ("0d", a scalar's, layout): a 0-d array of those scalars (Numba's Array(float64, 0, "C")) */
static const Type *described_0d(PyObject *d) {
  const Type *e = disp_described_type(PyTuple_GET_ITEM(d, 1));
  if (!e) return NULL;
  const char *layout = PyUnicode_Check(PyTuple_GET_ITEM(d, 2)) ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(d, 2)) : "";
  if ((!ty_is_scalar(e) && !ty_is_time(e)) || !described_layout(layout)) {
    PyErr_SetString(PyExc_ValueError, "invalid type description");
    return NULL;
  }
  return core_api()->array(e, 0, layout[0], layout[1] == 'R');
}

const Type *disp_described_type(PyObject *d) {
  int kind, ndim;
  const char *layout;
  if (PyList_Check(d)) return described_tuple(d);
  if (PyUnicode_Check(d) && !strcmp(PyUnicode_AsUTF8(d), "none")) return &core_plain[TY_NONE];  /* an Optional's None */
  if (PyUnicode_Check(d) && !strcmp(PyUnicode_AsUTF8(d), core_plain[TY_BYTES].name))  /* types.Bytes(uint8, 1, "C"), by the name */
    return &core_plain[TY_BYTES];                                                      /* disp_describe_type gives it */
  if (PyUnicode_Check(d) && !strcmp(PyUnicode_AsUTF8(d), core_plain[TY_GENERATOR].name))  /* types.npy_rng, by the name */
    return &core_plain[TY_GENERATOR];
  if (PyUnicode_Check(d) && !strcmp(PyUnicode_AsUTF8(d), core_plain[TY_ELLIPSIS].name))  /* types.ellipsis, by the name */
    return &core_plain[TY_ELLIPSIS];
  if (PyTuple_Check(d) && PyTuple_GET_SIZE(d) == 2 && PyUnicode_Check(PyTuple_GET_ITEM(d, 0)) &&
      !strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(d, 0)), "optional")) {  /* ("optional", a scalar's) */
    const Type *elem = disp_described_type(PyTuple_GET_ITEM(d, 1));
    return elem && ty_is_scalar(elem) ? core_api()->optional(elem) : NULL;
  }
  const char *tag = PyTuple_Check(d) && PyTuple_GET_SIZE(d) >= 2 && PyUnicode_Check(PyTuple_GET_ITEM(d, 0))
                        ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(d, 0)) : "";
  if (!strcmp(tag, "list") && PyTuple_GET_SIZE(d) == 2) {  /* ("list", the items'): a typed List */
    const Type *item = disp_described_type(PyTuple_GET_ITEM(d, 1));
    return item ? core_api()->list(item) : NULL;
  }
  if (!strcmp(tag, "set") && PyTuple_GET_SIZE(d) == 2) {  /* ("set", the items'): a set, reflected or made here */
    const Type *item = disp_described_type(PyTuple_GET_ITEM(d, 1));
    return item ? typed_set_type(item) : NULL;
  }
  if (!strcmp(tag, "dtype") && PyTuple_GET_SIZE(d) == 2) {  /* ("dtype", a scalar's): numpy.float32 as a value */
    const Type *elem = disp_described_type(PyTuple_GET_ITEM(d, 1));
    if (elem && !ty_is_scalar(elem))
      PyErr_Format(PyExc_TypeError, "a NumberClass in a signature is of a scalar type, not %s", elem->name);
    return elem && ty_is_scalar(elem) ? core_api()->dtype(elem) : NULL;
  }
  if (!strcmp(tag, "namedtuple") && PyTuple_GET_SIZE(d) == 3 && PyType_Check(PyTuple_GET_ITEM(d, 1)) &&
      PyList_Check(PyTuple_GET_ITEM(d, 2))) {  /* ("namedtuple", its class, its items') */
    const Type *t = described_tuple(PyTuple_GET_ITEM(d, 2));
    const Type *named = t ? disp_named_tuple_type((PyTypeObject *)PyTuple_GET_ITEM(d, 1), t->nfields, t->fields) : NULL;
    if (t && !named && !PyErr_Occurred())
      PyErr_Format(PyExc_TypeError, "%R is not a named tuple class of %d fields", PyTuple_GET_ITEM(d, 1), t->nfields);
    return named;
  }
  if (!strcmp(tag, "function") && PyTuple_GET_SIZE(d) == 3) return described_funcptr(d);
  if (!strcmp(tag, "dispatcher") && PyTuple_GET_SIZE(d) == 2 &&  /* ("dispatcher", f): f alone, as a value */
      PyObject_TypeCheck(PyTuple_GET_ITEM(d, 1), &DispatcherType)) {
    const Type *t = disp_function_type((Dispatcher *)PyTuple_GET_ITEM(d, 1));
    if (!t) PyErr_SetString(PyExc_TypeError, "a CUDA kernel has no type as a value");
    return t;
  }
  if (!strcmp(tag, "0d") && PyTuple_GET_SIZE(d) == 3) return described_0d(d);
  if (!strcmp(tag, "record")) return described_record(d);
  if (!strcmp(tag, "text")) return described_text(d);
  if (!strcmp(tag, "meminfo")) return &core_plain[TY_MEMINFO];  /* ("meminfo", what it points to) */
  if (!strcmp(tag, "class") && PyTuple_GET_SIZE(d) == 2) {  /* ("class", a jitclass): its instances, a signature's */
    const Type *t = jitclass_class_instances(PyTuple_GET_ITEM(d, 1));
    if (!t) PyErr_Format(PyExc_TypeError, "%R is no jitclass whose fields are given", PyTuple_GET_ITEM(d, 1));
    return t;
  }
  if (!strcmp(tag, "enum") && PyTuple_GET_SIZE(d) == 2) {  /* ("enum", its class): a member of it */
    const Type *t = core_is_enum_class(PyTuple_GET_ITEM(d, 1)) ? disp_enum_type(PyTuple_GET_ITEM(d, 1)) : NULL;
    if (!t) PyErr_Format(PyExc_TypeError, "%R is no enum class whose members compiled code holds", PyTuple_GET_ITEM(d, 1));
    return t;
  }
  if (!strcmp(tag, "dict") && PyTuple_GET_SIZE(d) == 3) {  /* ("dict", the keys', the values'): a typed Dict */
    const Type *k = disp_described_type(PyTuple_GET_ITEM(d, 1)), *v = k ? disp_described_type(PyTuple_GET_ITEM(d, 2)) : NULL;
    return v ? core_api()->dict(k, v) : NULL;
  }
  const char *unit = NULL;
  if (!PyArg_ParseTuple(d, "iis|s", &kind, &ndim, &layout, &unit)) return NULL;
  if (kind == TY_STR && !ndim) return &core_plain[TY_STR];  /* unicode_type */
  if (kind < 0 || kind >= TY_COUNT || !(core_plain[kind].flags & TF_SCALAR) || ndim < 0 ||
      ndim > RC_MAX_NDIM || !described_layout(layout)) {
    PyErr_SetString(PyExc_ValueError, "invalid type description");
    return NULL;
  }
  const Type *elem = &core_plain[kind];
  if ((core_plain[kind].flags & TF_TIME) && unit) {  /* (kind, ndim, layout, unit) */
    int u = -1;
    for (int i = 0; i < TU_COUNT && u < 0; i++)
      if (core_api()->unit_name(i) && !strcmp(core_api()->unit_name(i), unit)) u = i;
    if (u < 0) {
      PyErr_Format(PyExc_ValueError, "invalid datetime unit '%s'", unit);
      return NULL;
    }
    elem = core_api()->time((TypeKind)kind, u);
  }
  if (!ndim) return elem;
  return core_api()->array(elem, ndim, layout[0], layout[1] == 'R');  /* "CR": readonly */
}

/* A record or an array of records as described_record takes it: ("record",
 * its structured dtype, ndim, layout), so that typing functions see the
 * fields (Numba's ty.dtype.fields); NULL without an error for a record no
 * dtype made (it is described by its name). */
static PyObject *described_record_of(const Type *t) {
  const Type *e = t->kind == TY_ARRAY ? t->elem : t;
  PyArray_Descr *d = disp_record_descr(e);
  if (!d) {
    PyErr_Clear();
    return NULL;
  }
  char layout[3] = {t->kind == TY_ARRAY ? t->layout : 'C', t->kind == TY_ARRAY && t->readonly ? 'R' : 0, 0};
  return Py_BuildValue("(sNis)", "record", (PyObject *)d, t->kind == TY_ARRAY ? t->ndim : 0, layout);
}

PyObject *disp_describe_type(const Type *t) {
  if (t->kind == TY_NONE) return PyUnicode_FromString("none");
  if (t->kind == TY_MEMINFO) return Py_BuildValue("(ss)", "meminfo", "none");
  const Type *e = t->kind == TY_ARRAY ? t->elem : t;
  if (e->kind == TY_RECORD && (t->kind != TY_ARRAY || t->ndim)) {  /* (a 0-d array of them: by its name) */
    PyObject *record = described_record_of(t);
    if (record || PyErr_Occurred()) return record;
  }
  if (t->kind == TY_ARRAY && !ty_is_scalar(e) && !ty_is_time(e))
    return PyUnicode_FromString(t->name);  /* an array of other items: by its name */
  char layout[3] = {t->kind == TY_ARRAY ? t->layout : 'C', t->kind == TY_ARRAY && t->readonly ? 'R' : 0, 0};
  int ndim = t->kind == TY_ARRAY ? t->ndim : 0;
  if (t->kind == TY_ARRAY && !t->ndim) return Py_BuildValue("(sNs)", "0d", disp_describe_type(e), layout);
  if (ty_is_time(e)) return Py_BuildValue("(iiss)", (int)e->kind, ndim, layout, core_api()->unit_name(e->unit));
  if (ty_is_scalar(t) || t->kind == TY_ARRAY) return Py_BuildValue("(iis)", (int)e->kind, ndim, layout);
  if (t->kind == TY_LITDICT) {  /* ("litdict", its keys, its values' descriptions) */
    PyObject *keys = PyList_New(t->nfields), *values = PyList_New(t->nfields);
    for (int i = 0; keys && values && i < t->nfields; i++) {
      PyObject *key = PyUnicode_FromString(t->names[i]), *value = key ? disp_describe_type(t->fields[i]) : NULL;
      if (!value) {
        Py_XDECREF(key);
        Py_CLEAR(keys);
        break;
      }
      PyList_SET_ITEM(keys, i, key);
      PyList_SET_ITEM(values, i, value);
    }
    if (!keys || !values) {
      Py_XDECREF(keys);
      Py_XDECREF(values);
      return NULL;
    }
    return Py_BuildValue("(sNN)", "litdict", keys, values);
  }
  if (t->kind == TY_TUPLE) {
    PyObject *items = PyList_New(t->nfields);
    /* a named tuple, a package's value type among them (typing functions
     * see its own type object): its class with its items */
    bool value = t->callee != NULL;
    for (int i = 0; items && i < t->nfields; i++) {
      PyObject *item = disp_describe_type(t->fields[i]);
      if (!item) Py_CLEAR(items);
      else PyList_SET_ITEM(items, i, item);
    }
    return value && items ? Py_BuildValue("(sON)", "namedtuple", (PyObject *)t->callee, items) : items;
  }
  return PyUnicode_FromString(t->name);
}

/* _core.typeof_described(value): the type compiled code is given value
 * as, described (ruchey.types.typeof's for values it has no object for);
 * a TypeError saying why where it takes no such value. */
PyObject *disp_typeof_described(PyObject *module, PyObject *o) {
  const Type *t = disp_typeof(o);
  if (t) return disp_describe_type(t);
  if (PyErr_Occurred()) return NULL;
  PyObject *why = disp_refusal(o);
  if (why) PyErr_Format(PyExc_TypeError, "ruchey has no type for %s values (a value %U)", Py_TYPE(o)->tp_name, why);
  Py_XDECREF(why);
  return NULL;
}

/* unify_described(a, b): the type a variable holding values of the types a
 * and b describe has, as compiled code unifies them, described; None where
 * they do not unify (numba.core.typing.Context's unify_pairs). */
PyObject *disp_unify_described(PyObject *module, PyObject *args) {
  PyObject *a, *b;
  const RucheyAPI *api = core_api();  /* (the types' table loaded first) */
  if (!api || !PyArg_ParseTuple(args, "OO", &a, &b)) return NULL;
  const Type *ta = disp_described_type(a), *tb = ta ? disp_described_type(b) : NULL;
  if (!tb) return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "not a type description: %R", ta ? b : a);
  const Type *u = api->unify(ta, tb);
  if (u) return disp_describe_type(u);
  Py_RETURN_NONE;
}

PyObject *disp_signature_text(const Type *const *types, int n) {
  char buf[4096] = "(";
  size_t used = 1;
  for (int i = 0; i < n && used < sizeof buf; i++)
    used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? ", " : "", types[i]->name);
  if (used < sizeof buf) snprintf(buf + used, sizeof buf - used, n == 1 ? ",)" : ")");
  return PyUnicode_FromString(buf);
}

/* What converting a number of type have to want costs, in Numba's ranks:
 * 1 promotes (to a wider type of the same kind), 2 is safe (an int to a
 * float that holds it exactly, a real to a complex), 4 may lose (to a
 * narrower type or another sign), 5 loses more (an int to float32, which
 * float64 would hold better). */
static int scalar_conversion(const Type *want, const Type *have) {
  if (ty_is_complex(have) && !ty_is_complex(want)) return -1;
  if (ty_is_complex(want)) return !ty_is_complex(have) ? 2 : want->size >= have->size ? 1 : 4;
  if (ty_is_float(want) && ty_is_float(have)) return want->size >= have->size ? 1 : 4;
  if (ty_is_float(want)) {  /* from an int or a bool: exact where the mantissa holds it */
    int mantissa = want->size == 8 ? 53 : want->size == 4 ? 24 : 11;
    return (int)have->size * 8 <= mantissa ? 2 : want->size == 8 ? 4 : 5;
  }
  if (!ty_is_int(want) || ty_is_float(have)) return -1;  /* a float is no int, nor any number a bool */
  if (have->kind == TY_BOOL) return 1;
  bool same_sign = ty_is_unsigned(want) == ty_is_unsigned(have);
  bool widens = want->size > have->size || (want->size == have->size && same_sign);
  return widens && (same_sign || !ty_is_unsigned(want)) ? 1 : 4;
}

int disp_conversion_cost(const Type *want, const Type *have) {
  if (want == have) return 0;
  if (want->kind == TY_RECORD && have->kind == TY_RECORD) return core_api()->record_subtype(want, have) ? 1 : -1;
  if (want->kind == TY_FUNCPTR)  /* compiled for it as it is unboxed (each of several, as it is passed) */
    return have->kind == TY_FUNCTION || have->kind == TY_FUNCS ? 1 : -1;
  if (want->kind == TY_ARRAY && have->kind == TY_ARRAY)
    return want->elem == have->elem && want->ndim == have->ndim &&
           (want->layout == 'A' || want->layout == have->layout) && (want->readonly || !have->readonly) ? 1 : -1;
  if (want->kind == TY_TUPLE && have->kind == TY_TUPLE) {
    int cost = want->nfields == have->nfields ? 0 : -1;
    for (int i = 0; cost >= 0 && i < want->nfields; i++) {
      int c = disp_conversion_cost(want->fields[i], have->fields[i]);
      cost = c < 0 ? -1 : cost + c;
    }
    return cost;
  }
  if (have->kind == TY_OPTIONAL && ty_is_scalar(want)) {  /* unwrapped, None refused when called: unsafe */
    int cost = disp_conversion_cost(want, have->elem);
    return cost < 0 ? -1 : cost > 4 ? cost : 4;
  }
  if (!ty_is_scalar(want) || !ty_is_scalar(have)) return -1;
  return scalar_conversion(want, have);
}
