/* records.c — NumPy structured dtypes as record types: the fields' types,
 * names and offsets read from the dtype, for arguments that are arrays of
 * records or record scalars (numpy.void).
 *
 * A dtype is read through its Python attributes once; a small table keyed
 * by the descriptor (holding a reference, so the key stays valid) gives its
 * type on later calls. Equal dtypes made apart intern to one type, so they
 * share specialisations.
 */
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL ruchey_ARRAY_API
#include "core.h"

#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

/* NumPy 1.x's headers have no accessors for these: its PyArray_Descr holds them */
#if NPY_ABI_VERSION < 0x02000000
#define PyDataType_ELSIZE(d) ((d)->elsize)
#define PyDataType_ALIGNMENT(d) ((d)->alignment)
#endif

enum { RECORD_CACHE = 32, MAX_RECORD_FIELDS = 256, MAX_RECORD_DEPTH = 8 };
static struct {
  PyArray_Descr *descr;
  const Type *type;
} cache[RECORD_CACHE];

/* The dtype of each record type made here, for boxing arrays of them
 * (types live as long as the process; so do these references). */
static struct {
  const Type **types;
  PyArray_Descr **descrs;
  int n, cap;
} made;

static void remember(const Type *t, PyArray_Descr *d) {
  for (int i = 0; i < made.n; i++)
    if (made.types[i] == t) return;
  if (made.n == made.cap) {
    int cap = made.cap ? 2 * made.cap : 16;
    const Type **types = realloc(made.types, sizeof(Type *) * (size_t)cap);
    PyArray_Descr **descrs = types ? realloc(made.descrs, sizeof(PyArray_Descr *) * (size_t)cap) : NULL;
    if (types) made.types = types;
    if (!descrs) return;
    made.descrs = descrs;
    made.cap = cap;
  }
  made.types[made.n] = t;
  made.descrs[made.n++] = (PyArray_Descr *)Py_NewRef((PyObject *)d);
}

PyArray_Descr *disp_record_descr(const Type *t) {
  for (int i = 0; i < made.n; i++)
    if (made.types[i] == t) return (PyArray_Descr *)Py_NewRef((PyObject *)made.descrs[i]);
  PyErr_Format(PyExc_TypeError, "ruchey: no dtype known for %s", t->name);
  return NULL;
}

static const Type *record_of(PyArray_Descr *d, int depth, char *why, size_t whylen);

static const Type *field_type(PyArray_Descr *f, const char *name, int depth, int64_t *shape, char *why,
                              size_t whylen);

/* A sub-array field ('v', 'f8', (3,)): a C-ordered array of numbers or
 * of records, its shape in shape. */
static const Type *subarray_type(PyArray_Descr *f, const char *name, int depth, int64_t *shape, char *why,
                                 size_t whylen) {
  PyObject *sub = PyObject_GetAttrString((PyObject *)f, "subdtype");  /* (base dtype, shape) */
  const Type *t = NULL;
  Py_ssize_t nd = sub && PyTuple_Check(sub) && PyTuple_Check(PyTuple_GET_ITEM(sub, 1)) ? PyTuple_GET_SIZE(PyTuple_GET_ITEM(sub, 1)) : -1;
  if (nd < 1 || nd > RC_MAX_NDIM) {
    snprintf(why, whylen, "field '%s' is a sub-array of more than %d dimensions", name, RC_MAX_NDIM);
  } else {
    for (Py_ssize_t d = 0; d < nd; d++) shape[d] = PyLong_AsLongLong(PyTuple_GET_ITEM(PyTuple_GET_ITEM(sub, 1), d));
    PyArray_Descr *base = (PyArray_Descr *)PyTuple_GET_ITEM(sub, 0);
    int64_t unused[RC_MAX_NDIM];
    const Type *e = PyDataType_HASSUBARRAY(base) ? NULL : field_type(base, name, depth, unused, why, whylen);
    if (!e && !why[0]) snprintf(why, whylen, "field '%s' is a sub-array of sub-arrays, which is not supported", name);
    t = e ? core_api()->array(e, (int)nd, 'C', false) : NULL;
  }
  Py_XDECREF(sub);
  return t;
}

/* A field's type: a number of native byte order, a fixed-width str or
 * bytes, a nested record, or a sub-array (its shape in shape). */
static const Type *field_type(PyArray_Descr *f, const char *name, int depth, int64_t *shape, char *why,
                              size_t whylen) {
  if (PyDataType_HASSUBARRAY(f)) return subarray_type(f, name, depth, shape, why, whylen);
  if (PyDataType_HASFIELDS(f)) return record_of(f, depth + 1, why, whylen);
  const Type *text = disp_dtype_text((PyObject *)f);  /* '<Un', '|Sn': read as a str or bytes, as Numba's */
  if (text && PyArray_ISNBO(f->byteorder)) return text;
  int kind = disp_dtype_kind(f->type_num);
  if (kind < 0 || !PyArray_ISNBO(f->byteorder)) {
    PyObject *s = PyObject_Str((PyObject *)f);
    snprintf(why, whylen, "field '%s' has dtype %s, which is not supported", name, s ? PyUnicode_AsUTF8(s) : "?");
    Py_XDECREF(s);
    PyErr_Clear();
    return NULL;
  }
  return &core_plain[kind];
}

/* The record type of a structured dtype, or NULL with why said. */
static const Type *record_of(PyArray_Descr *d, int depth, char *why, size_t whylen) {
  PyObject *names = PyObject_GetAttrString((PyObject *)d, "names");
  PyObject *fields = PyObject_GetAttrString((PyObject *)d, "fields");
  const Type *t = NULL;
  Py_ssize_t n = names && PyTuple_Check(names) ? PyTuple_GET_SIZE(names) : -1;
  if (n < 1 || n > MAX_RECORD_FIELDS || !fields || depth > MAX_RECORD_DEPTH) {
    snprintf(why, whylen, n == 0 ? "it has no fields" : "it has more than %d fields or nests more than %d deep",
             MAX_RECORD_FIELDS, MAX_RECORD_DEPTH);
    goto done;
  }
  const Type *types[MAX_RECORD_FIELDS];
  const char *fnames[MAX_RECORD_FIELDS], *titles[MAX_RECORD_FIELDS];
  bool titled = false;
  size_t offsets[MAX_RECORD_FIELDS];
  static int64_t shapes[MAX_RECORD_DEPTH + 2][MAX_RECORD_FIELDS * RC_MAX_NDIM];  /* (under the GIL) */
  int64_t *shape = shapes[depth];
  memset(shape, 0, sizeof shapes[0]);
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *name = PyTuple_GET_ITEM(names, i);
    PyObject *info = PyObject_GetItem(fields, name);  /* (dtype, offset[, title]), fields a mapping proxy */
    fnames[i] = PyUnicode_AsUTF8(name);
    bool ok = fnames[i] && info && PyTuple_Check(info) && PyTuple_GET_SIZE(info) >= 2;
    if (!ok) snprintf(why, whylen, "its fields cannot be read");
    if (ok) {
      PyObject *title = PyTuple_GET_SIZE(info) > 2 ? PyTuple_GET_ITEM(info, 2) : NULL;  /* a str, or any object */
      titles[i] = title && PyUnicode_Check(title) ? PyUnicode_AsUTF8(title) : NULL;
      titled |= titles[i] != NULL;
      offsets[i] = (size_t)PyLong_AsSsize_t(PyTuple_GET_ITEM(info, 1));
      ok = (types[i] = field_type((PyArray_Descr *)PyTuple_GET_ITEM(info, 0), fnames[i], depth,
                                  &shape[i * RC_MAX_NDIM], why, whylen));
    }
    Py_XDECREF(info);
    if (!ok) goto done;
  }
  size_t align = PyDataType_ALIGNMENT(d) > 0 ? (size_t)PyDataType_ALIGNMENT(d) : 1;
  /* numpy.record's flavour of an aligned dtype (a recarray's) says
   * alignment 1 but keeps the aligned flag: its fields' alignment, as the
   * plain dtype's, so that both are one type (Numba's Record(...;True)) */
  for (Py_ssize_t i = 0; PyDataType_FLAGCHK(d, NPY_ALIGNED_STRUCT) && i < n; i++) {
    const Type *f = types[i]->kind == TY_ARRAY ? types[i]->elem : types[i];
    if (f->align > align) align = f->align;
  }
  t = core_api()->record((int)n, types, fnames, titled ? titles : NULL, offsets, shape, (size_t)PyDataType_ELSIZE(d), align);
  if (t) remember(t, d);
done:
  PyErr_Clear();
  Py_XDECREF(names); Py_XDECREF(fields);
  return t;
}

const Type *disp_record_type(PyArray_Descr *d) {
  size_t h = ((uintptr_t)d >> 4) % RECORD_CACHE;
  if (cache[h].descr == d) return cache[h].type;
  char why[256] = "";
  const Type *t = record_of(d, 0, why, sizeof why);
  if (!t) return NULL;
  Py_XSETREF(cache[h].descr, (PyArray_Descr *)Py_NewRef((PyObject *)d));
  cache[h].type = t;
  return t;
}

PyObject *disp_record_refusal(PyArray_Descr *d) {
  char why[256] = "";
  record_of(d, 0, why, sizeof why);
  PyObject *s = PyObject_Str((PyObject *)d);
  PyObject *r = PyUnicode_FromFormat("has the structured dtype %S, which is not supported: %s", s,
                                     why[0] ? why : "its fields are not supported");
  Py_XDECREF(s);
  return r;
}

/* A structured dtype global to the module (numpy.empty(n, dtype=rec)):
 * its record type; NULL if obj is no structured dtype, or with a
 * TypeError if a field is not supported. */
const Type *disp_record_global(PyObject *obj) {
  if (!PyArray_DescrCheck(obj) || !PyDataType_HASFIELDS((PyArray_Descr *)obj)) return NULL;
  const Type *t = disp_record_type((PyArray_Descr *)obj);
  if (t) return t;
  PyObject *why = disp_record_refusal((PyArray_Descr *)obj);
  if (why) {
    PyErr_Format(PyExc_TypeError, "a dtype global %U", why);
    Py_DECREF(why);
  }
  return NULL;
}

/* The bytes of a record argument: a numpy.void's own (a record taken from
 * an array, a[0], is a view of the array's). */
void *disp_record_data(PyObject *o) { return ((PyVoidScalarObject *)o)->obval; }

/* A record returned to Python: a numpy.record of its own, as Numba
 * returns one: the item of a new one-element array holding a copy of its
 * bytes, so that r.x = v writes it (a scalar made without a base writes a
 * temporary copy of its bytes, the assignment lost). */
PyObject *disp_box_record(const Type *t, const char *p) {
  static PyObject *record_class;  /* numpy.record, which NumPy's C API does not name (held for good) */
  if (!record_class) {
    PyObject *np = PyImport_ImportModule("numpy");
    record_class = np ? PyObject_GetAttrString(np, "record") : NULL;
    Py_XDECREF(np);
    if (!record_class) return NULL;
  }
  PyArray_Descr *d = disp_record_descr(t);
  if (!d) return NULL;
  PyObject *flavoured = PyObject_CallFunction((PyObject *)&PyArrayDescr_Type, "((OO))", record_class, (PyObject *)d);
  Py_DECREF(d);
  if (!flavoured) return NULL;
  npy_intp one = 1;
  PyObject *a = PyArray_NewFromDescr(&PyArray_Type, (PyArray_Descr *)flavoured, 1, &one, NULL, NULL, 0, NULL);
  if (!a) return NULL;  /* (flavoured: stolen) */
  memcpy(PyArray_DATA((PyArrayObject *)a), p, t->size);
  PyObject *r = PySequence_GetItem(a, 0);
  Py_DECREF(a);
  return r;
}
