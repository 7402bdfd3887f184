/* typed.c — ruchey.typed.List and ruchey.typed.Dict, as numba.typed's.
 *
 * Each Python object holds one reference to a C container of
 * include/containers.h, the memory compiled code works on: passed to a
 * compiled function it is not copied (the function borrows it), and a
 * container a compiled function returns becomes a new object holding it.
 * Items are of one type, known from List.empty_list / Dict.empty or from
 * the first item given (List(), Dict()): numbers, bools, strs, arrays
 * (the container keeps the array object alive, and gives it back),
 * tuples of these, typed containers (shared, not copied) and jitclass
 * instances; dict keys are numbers, strs or tuples of these.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "containers.h"
#include "core.h"
#include "rtstr.h"

/* The scalar types, without libruchey: what boxing and unboxing read of them. */
static const Type scalar[TY_COUNT] = {
#define X(k, nm, fl, b) [TY_##k] = {.kind = TY_##k, .flags = (fl), .bits = (b), .name = nm},
#include "types.def"
#undef X
};

/* The extension's copy of containers.c reports errors by their return
 * values alone: compiled code's error slot is libruchey's. */
void rt_set_error(int status, const char *msg) {}

/* item, key, value: the type of items that are not numbers or strs
 * (NULL: the container's kind says the type). */
typedef struct {
  PyObject_HEAD
  RtList *l;
  const Type *item;
} ListObject;

typedef struct {
  PyObject_HEAD
  RtDict *d;
  const Type *key, *value;
} DictObject;

static const Type *list_item_type_of(const ListObject *self) { return self->item ? self->item : &scalar[self->l->kind]; }
static const Type *dict_value_type_of(const DictObject *self) { return self->value ? self->value : &scalar[self->d->valkind]; }
static const Type *dict_key_type_of(const DictObject *self) { return self->key ? self->key : &scalar[self->d->keykind]; }

/* What a container object keeps of an item type: NULL for numbers and strs (a datetime keeps its unit). */
static const Type *kept_type(const Type *t) { return (ty_is_scalar(t) && !ty_is_time(t)) || t->kind == TY_STR ? NULL : t; }

/* An item's bytes: a str is a pointer to its RtStr, a reference the container holds. */
static int64_t item_size(int kind) { return kind == TY_STR ? (int64_t)sizeof(RtStr *) : ty_bits(&scalar[kind]) / 8; }

/* A typed container's or jitclass instance's count at p taken once more
 * (none for NULL: an Optional's None). */
static void retain_counted(const Type *t, char *p) {
  int64_t *counted = t->kind == TY_LIST || t->kind == TY_DICT || t->kind == TY_SET || t->kind == TY_CLASS ? *(int64_t **)p : NULL;
  if (counted) __atomic_add_fetch(counted, 1, __ATOMIC_ACQ_REL);
}

/* One more reference to each str and array an item at p holds (a
 * tuple's fields in turn), for a Python object made of it. */
static void retain_held(const Type *t, char *p) {
  if (t->kind == TY_OPTIONAL) retain_held(t->elem, p);  /* its value's; None's is zeros, holding nothing */
  if (t->kind == TY_STR) rt_str_retain(*(RtStr **)p);
  retain_counted(t, p);  /* the box's */
  RtMemInfo *mi = t->kind == TY_ARRAY || t->kind == TY_BYTES ? ((RtArray *)p)->meminfo : NULL;
  if (mi) __atomic_add_fetch(&mi->refcount, 1, __ATOMIC_ACQ_REL);  /* the array object's own */
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++) retain_held(t->fields[i], p + t->offsets[i]);
}

/* An item or value as a Python object, the container keeping its own reference. */
static PyObject *box_held(const Type *t, char *p) {
  retain_held(t, p);
  return disp_box(t, p);
}

static PyObject *box_item(const Type *t, char *p);

/* ---------------------------------------------------------------- items */

/* The scalar kind a Python value is first given as: bool, int64, float64,
 * or a NumPy scalar's; -1 with a TypeError for others. */
static int kind_of_value(PyObject *o) {
  if (PyUnicode_Check(o)) return TY_STR;
  if (PyBool_Check(o)) return TY_BOOL;
  if (PyLong_Check(o)) return TY_I64;
  if (PyFloat_Check(o)) return TY_F64;
  const Type *t = disp_typeof(o);
  if (t && ty_is_scalar(t) && t->kind != TY_F16 && !ty_is_time(t)) return (int)t->kind;
  return -1;
}

static bool typed_object(PyObject *o);
static bool pylist_item(const Type *t, int *refs);
static bool holdable_tuple(const Type *t, int *refs);
static bool is_named_tuple(const Type *t);

/* Whether a container may hold items of type t: numbers, bools, strs,
 * arrays (of numbers, of str or bytes: '<Un', '|Sn'), tuples of these, typed containers, instances;
 * bytes, which compiled code's lists hold; None (Numba's NoneType items,
 * of no bytes); a compiled function (a list's: the number of it among
 * its functions); any compiled function of a signature (a FunctionType:
 * its entry's address). */
static bool holdable(const Type *t) {
  int refs = 0;
  if (t->kind == TY_BYTES || t->kind == TY_FUNCS || t->kind == TY_NONE || t->kind == TY_FUNCPTR) return true;
  if (t->kind == TY_ARRAY) return (ty_is_scalar(t->elem) && t->elem->kind != TY_F16) || ty_is_fixed_text(t->elem);
  if (t->kind == TY_LIST) return t->elem != NULL;
  if (t->kind == TY_DICT) return t->nfields == 2;
  return t->kind == TY_CLASS || t->kind == TY_STR || pylist_item(t, &refs) || (refs = 0, holdable_tuple(t, &refs));
}

/* A tuple of what containers hold, typed Lists and Dicts and instances
 * among them (Numba's List.empty_list(Tuple((ListType(int64), int64)))),
 * each a reference the container holds as it holds an array's: at most
 * RT_HELD_FIELDS in all. */
static bool holdable_tuple(const Type *t, int *refs) {
  if (t->kind != TY_TUPLE || !t->nfields || (t->callee && !is_named_tuple(t))) return false;
  for (int i = 0; i < t->nfields; i++) {
    const Type *f = t->fields[i];
    if (f->kind == TY_TUPLE ? !holdable_tuple(f, refs) : !holdable(f)) return false;
    if (f->kind != TY_TUPLE && ty_has_arrays(f) && ++*refs > RT_HELD_FIELDS) return false;
  }
  return true;
}

/* A tuple of up to RT_KEY_FIELDS numbers (complex too), bools, strs and
 * such tuples (a dict's key, a set's item). */
static const Type *key_tuple(const Type *t) {
  if (!t || t->kind != TY_TUPLE || !t->nfields || t->nfields > RT_KEY_FIELDS) return NULL;
  for (int i = 0; i < t->nfields; i++) {
    const Type *f = t->fields[i];
    if (f->kind != TY_STR && !key_tuple(f) && (!ty_is_scalar(f) || f->kind == TY_F16)) return NULL;
  }
  return t;
}

static const char HOLDS[] = "numbers, bools, str, None, arrays, tuples of these, typed Lists and Dicts, jitclass "
                            "instances, compiled functions";

/* The type of the first item (or value) given to an untyped container;
 * NULL with a TypeError for what containers do not hold. */
static const Type *type_of_value(PyObject *o) {
  int kind = PyUnicode_Check(o) || PyBool_Check(o) || PyLong_Check(o) || PyFloat_Check(o) ? kind_of_value(o) : -1;
  if (kind >= 0) return &scalar[kind];
  const Type *t = jitclass_typeof(o);
  if (!t && !PyList_Check(o)) t = disp_typeof(o);  /* (a Python list is no typed container) */
  if (t && ty_is_container(t) && !typed_object(o)) t = NULL;
  if (t && t->kind == TY_FUNCTION) t = core_api()->funcs(1, &t);  /* typed.List([f]): Numba's List of f's type */
  if (t && (ty_is_scalar(t) ? t->kind != TY_F16 : holdable(t))) return t;  /* (a datetime64 with its unit) */
  PyErr_Clear();
  PyErr_Format(PyExc_TypeError, "typed containers hold %s, not %s", HOLDS, Py_TYPE(o)->tp_name);
  return NULL;
}

/* The type of a dict's first key: a number, a str or a tuple of these. */
static const Type *type_of_key(PyObject *o) {
  const Type *t = PyTuple_CheckExact(o) ? key_tuple(disp_typeof(o)) : type_of_value(o);
  if (t && !key_tuple(t) && !ty_is_scalar(t) && t->kind != TY_STR) t = NULL;
  if (!t && !PyErr_Occurred())
    PyErr_Format(PyExc_TypeError, "typed.Dict keys are numbers, bools, str or tuples of these, not %s",
                 Py_TYPE(o)->tp_name);
  return t;
}

/* An item type given as ruchey.int64 (a ruchey.types.Type), int, float or bool. */
static int kind_of_type(PyObject *t) {
  if (t == (PyObject *)&PyLong_Type) return TY_I64;
  if (t == (PyObject *)&PyFloat_Type) return TY_F64;
  if (t == (PyObject *)&PyBool_Type) return TY_BOOL;
  if (t == (PyObject *)&PyUnicode_Type) return TY_STR;
  PyObject *kind = PyObject_GetAttrString(t, "kind"), *ndim = kind ? PyObject_GetAttrString(t, "ndim") : NULL;
  long k = kind && PyLong_Check(kind) ? PyLong_AsLong(kind) : -1, nd = ndim && PyLong_Check(ndim) ? PyLong_AsLong(ndim) : 1;
  Py_XDECREF(kind); Py_XDECREF(ndim);
  PyErr_Clear();
  if (k >= 0 && k < TY_COUNT && nd == 0 && (((scalar[k].flags & TF_SCALAR) && k != TY_F16 && !(scalar[k].flags & TF_TIME)) || k == TY_STR)) return (int)k;
  return -1;
}

/* An item type given as a ruchey type (int64, float64[:], Tuple(...),
 * ListType(...), DictType(...), unicode_type) or int, float, bool, str;
 * NULL with a TypeError for others. */
static const Type *type_of_type(PyObject *t);

/* t as libruchey's types are (a scalar of this file's table as its own). */
static const Type *interned(const Type *t) { return ty_is_scalar(t) || t->kind == TY_STR ? &core_plain[t->kind] : t; }

/* o.name, or NULL without an error. */
static PyObject *attr_or_null(PyObject *o, const char *name) {
  PyObject *a = PyObject_GetAttrString(o, name);
  if (!a) PyErr_Clear();
  return a;
}

/* ListType(item) or DictType(key, value), a container type of ruchey.types; NULL for others. */
static const Type *container_type(PyObject *t) {
  PyObject *item = attr_or_null(t, "item_type"), *key = item ? NULL : attr_or_null(t, "key_type");
  PyObject *value = key ? attr_or_null(t, "value_type") : NULL;
  const Type *i = item ? type_of_type(item) : NULL, *k = value ? type_of_type(key) : NULL;
  const Type *v = k ? type_of_type(value) : NULL;
  Py_XDECREF(item); Py_XDECREF(key); Py_XDECREF(value);
  PyErr_Clear();
  if (i) return core_api()->list(interned(i));
  return v ? core_api()->dict(interned(k), interned(v)) : NULL;
}

/* A type ruchey.types describes (an array's, a tuple's); NULL for others. */
static const Type *described_type(PyObject *t) {
  PyObject *describe = attr_or_null(t, "describe"), *desc = describe ? PyObject_CallNoArgs(describe) : NULL;
  const Type *r = desc ? disp_described_type(desc) : NULL;
  Py_XDECREF(describe); Py_XDECREF(desc);
  PyErr_Clear();
  return r;
}

/* UnicodeCharSeq(n) or CharSeq(n), what from_dtype gives of a '<Un' or
 * '|Sn' dtype: compiled code reads such an item as a str or a bytes, so a
 * container of them holds those (and gives them back as Numba's does). */
static const Type *text_item_type(PyObject *t) {
  PyObject *describe = attr_or_null(t, "describe"), *desc = describe ? PyObject_CallNoArgs(describe) : NULL;
  const Type *r = NULL;
  if (desc && PyTuple_Check(desc) && PyTuple_GET_SIZE(desc) == 5 && PyUnicode_Check(PyTuple_GET_ITEM(desc, 0)) &&
      !strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(desc, 0)), "text") && PyUnicode_Check(PyTuple_GET_ITEM(desc, 1)) &&
      PyLong_Check(PyTuple_GET_ITEM(desc, 3)) && PyLong_AsLong(PyTuple_GET_ITEM(desc, 3)) == 0)
    r = &core_plain[!strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(desc, 1)), "U") ? TY_STR : TY_BYTES];
  Py_XDECREF(describe); Py_XDECREF(desc);
  PyErr_Clear();
  return r;
}

static const Type *type_of_type(PyObject *t) {
  int kind = kind_of_type(t);
  if (kind >= 0) return &scalar[kind];  /* (without libruchey, which the rest needs) */
  if (!core_api()) return NULL;
  const Type *r = jitclass_instance_type(t);
  if (!r) r = container_type(t);
  if (!r) r = text_item_type(t);
  if (!r) r = described_type(t);
  if (r && (ty_is_scalar(r) ? r->kind != TY_F16 : holdable(r))) return r;
  PyErr_Format(PyExc_TypeError, "typed containers hold %s: %R is not such a type", HOLDS, t);
  return NULL;
}

/* Room for one item: its own bytes when an item fits them (a number, a
 * str, an array, a small tuple), else the heap's (item_room). */
typedef struct ItemBuf {
  _Alignas(16) char bytes[256];
} ItemBuf;

static char *item_room(ItemBuf *buf, int64_t size) {
  char *p = size <= (int64_t)sizeof buf->bytes ? buf->bytes : PyMem_Malloc((size_t)size);
  if (!p) PyErr_NoMemory();
  return p;
}

static void item_room_free(ItemBuf *buf, char *p) {
  if (p != buf->bytes) PyMem_Free(p);
}

/* o stored at p as an item of kind (converted as Python converts). */
static int store_item(int kind, PyObject *o, char *p) {
  Slot slot;
  RtArray arr;
  void *arg;
  if (kind == TY_BOOL && !PyBool_Check(o) && !PyNumber_Check(o)) {  /* any object has a truth value */
    PyErr_Format(PyExc_TypeError, "a typed container of bools cannot hold %s", Py_TYPE(o)->tp_name);
    return -1;
  }
  if (disp_unbox(o, &scalar[kind], &slot, &arr, &arg) < 0) return -1;
  memcpy(p, arg, (size_t)item_size(kind));
  return 0;
}

static int store_instance(const Type *c, PyObject *o, char *p);
static int store_function(const Type *t, PyObject *o, char *p);

/* The arrays of an item at p (a tuple's fields in turn) made to keep
 * their Python objects alive while the container holds them. */
static void keep_arrays(const Type *t, char *p) {
  if (t->kind == TY_ARRAY || t->kind == TY_BYTES) rt_array_keep((RtArray *)p);
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++) keep_arrays(t->fields[i], p + t->offsets[i]);
}

/* The jitclass instances and typed containers of a tuple item at p
 * (unboxed borrowed, its fields in turn) made references the container
 * holds, as its strs are. */
static void retain_borrowed(const Type *t, char *p) {
  retain_counted(t, p);
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++) retain_borrowed(t->fields[i], p + t->offsets[i]);
}

/* A datetime64 or timedelta64 o stored at p as its count in t's unit:
 * one of that very type (the container's kind keeps no unit to convert
 * between, as a Dict's time keys take one of the keys' type alone). */
static int store_time(const Type *t, PyObject *o, char *p) {
  Slot slot;
  void *arg;
  if (disp_typeof(o) == t && disp_unbox(o, t, &slot, NULL, &arg) == 0) {
    memcpy(p, &slot.u, sizeof slot.u);
    return 0;
  }
  PyErr_Clear();
  PyErr_Format(PyExc_TypeError, "a typed container of %s cannot hold %R", t->name, o);
  return -1;
}

/* Whether each field of tuple o that t types a typed List or Dict is one,
 * not a Python list or dict (which would be copied, and the copy not seen). */
static bool typed_fields(const Type *t, PyObject *o) {
  for (Py_ssize_t i = 0; t->kind == TY_TUPLE && PyTuple_Check(o) && i < t->nfields && i < PyTuple_GET_SIZE(o); i++) {
    PyObject *f = PyTuple_GET_ITEM(o, i);
    if ((ty_is_container(t->fields[i]) && !typed_object(f)) || !typed_fields(t->fields[i], f)) return false;
  }
  return true;
}

/* o stored at p as an item of type t, holding its own references (a
 * new str, the array object, the typed container, the instance); -1 with
 * a TypeError naming t where o is of another type. */
static int store_value(const Type *t, PyObject *o, char *p) {
  if (ty_is_time(t)) return store_time(t, o, p);
  if (ty_is_scalar(t) || t->kind == TY_STR) return store_item((int)t->kind, o, p);
  if (t->kind == TY_CLASS) return store_instance(t, o, p);
  if (t->kind == TY_FUNCS) return store_function(t, o, p);
  /* a member of its class: its value; a function of the signature: its entry */
  if (t->kind == TY_FUNCPTR || (ty_is_enum(t) && ty_is_scalar(t->elem))) {
    Slot slot;
    void *arg;
    if (disp_unbox(o, t, &slot, NULL, &arg) < 0) return -1;
    memcpy(p, arg, t->size);
    return 0;
  }
  const Type *have = PyList_Check(o) ? NULL : disp_typeof(o);
  bool fits = have == t || (have && (t->kind == TY_ARRAY || t->kind == TY_TUPLE) && disp_conversion_cost(t, have) >= 0);
  if (fits && ty_is_container(t) && !typed_object(o)) fits = false, have = NULL;  /* a set: a Python object */
  if (fits && t->kind == TY_TUPLE && !typed_fields(t, o)) fits = false;
  if (!fits) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "a typed container of %s cannot hold %s", t->name,
                 have ? have->name : Py_TYPE(o)->tp_name);
    return -1;
  }
  if (t->kind == TY_LIST || t->kind == TY_DICT) {
    void *c = typed_container(o);
    __atomic_add_fetch((int64_t *)c, 1, __ATOMIC_ACQ_REL);
    memcpy(p, &c, sizeof c);
    return 0;
  }
  Slot slot;
  void *arg;
  int rc = t->kind == TY_TUPLE ? disp_unbox_tuple(o, t, p) : disp_unbox(o, t, &slot, (RtArray *)p, &arg);
  if (rc < 0) return -1;
  keep_arrays(t, p);
  retain_borrowed(t, p);
  return 0;
}

/* Whether a tuple key's field of kind is an RtTupleKey of its own (a
 * tuple in the tuple, a complex number's parts), which tuple_key_bits
 * allocates. */
static bool field_in_memory(int kind) { return kind == TY_TUPLE || kind == TY_C64 || kind == TY_C128; }

/* A str key made for a lookup (key_bits), or a tuple key's strs and
 * fields in memory (tuple_key_bits), released after it. */
static void drop_key(int kind, uint64_t bits) {
  if (kind == TY_STR) rt_str_release((RtStr *)(uintptr_t)bits);
  RtTupleKey *t = kind == TY_TUPLE ? (RtTupleKey *)(uintptr_t)bits : NULL;
  for (int64_t i = 0; t && i < t->n; i++) {
    drop_key(t->fields[i].kind, t->fields[i].bits);
    if (field_in_memory(t->fields[i].kind)) free((void *)(uintptr_t)t->fields[i].bits);
  }
}


/* A key as the dict holds it: 64-bit bits, ints extended, floats as float64. */
static int key_bits(int kind, PyObject *o, uint64_t *bits) {
  ItemBuf item = {0};
  char *buf = item.bytes;
  if (store_item(kind, o, buf) < 0) return -1;
  if (kind == TY_F32 || kind == TY_F64) {
    double x = kind == TY_F32 ? *(float *)buf : *(double *)buf;
    memcpy(bits, &x, 8);
  } else if (scalar[kind].flags & TF_SIGNED) {
    int64_t v = kind == TY_I8 ? *(int8_t *)buf : kind == TY_I16 ? *(int16_t *)buf : kind == TY_I32 ? *(int32_t *)buf : *(int64_t *)buf;
    *bits = (uint64_t)v;
  } else {
    uint64_t v = 0;
    memcpy(&v, buf, (size_t)item_size(kind));
    *bits = v;
  }
  return 0;
}

/* A number key of kind (not a tuple's field): as key_bits makes it, but a
 * complex number's bits point to its parts as float64s in room, as
 * compiled code makes them. */
static int scalar_key(int kind, PyObject *o, RtTupleKey *room, uint64_t *bits) {
  if (!ty_is_complex(&scalar[kind])) return key_bits(kind, o, bits);
  ItemBuf item = {0};
  if (store_item(kind, o, item.bytes) < 0) return -1;
  double re = kind == TY_C64 ? ((float *)item.bytes)[0] : ((double *)item.bytes)[0];
  double im = kind == TY_C64 ? ((float *)item.bytes)[1] : ((double *)item.bytes)[1];
  room->n = 2;
  room->fields[0].kind = room->fields[1].kind = TY_F64;
  memcpy(&room->fields[0].bits, &re, 8);
  memcpy(&room->fields[1].bits, &im, 8);
  *bits = (uint64_t)(uintptr_t)room;
  return 0;
}

static PyObject *key_object(int kind, uint64_t bits) {
  if (kind == TY_C64 || kind == TY_C128) {  /* its parts, as scalar_key writes them */
    const RtTupleKey *k = (const RtTupleKey *)(uintptr_t)bits;
    double re, im;
    memcpy(&re, &k->fields[0].bits, 8);
    memcpy(&im, &k->fields[1].bits, 8);
    return PyComplex_FromDoubles(re, im);
  }
  if (kind == TY_TUPLE) {  /* an RtTupleKey, from compiled code */
    const RtTupleKey *k = (const RtTupleKey *)(uintptr_t)bits;
    PyObject *t = PyTuple_New(k->n);
    for (int64_t i = 0; t && i < k->n; i++) {
      PyObject *item = key_object(k->fields[i].kind, k->fields[i].bits);
      if (!item) Py_CLEAR(t);
      else PyTuple_SET_ITEM(t, i, item);
    }
    return t;
  }
  if (kind == TY_STR) {
    RtStr *s = (RtStr *)(uintptr_t)bits;
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, s->data, (Py_ssize_t)s->len);
  }
  if (kind == TY_F32 || kind == TY_F64) {
    double x;
    memcpy(&x, &bits, 8);
    return PyFloat_FromDouble(x);
  }
  if (kind == TY_BOOL) return PyBool_FromLong(bits != 0);
  return kind == TY_U64 ? PyLong_FromUnsignedLongLong(bits) : PyLong_FromLongLong((int64_t)bits);
}

/* A key or a set's item of type t as a Python object: a datetime64 or
 * timedelta64 with t's unit (the dict's kind has none), others by kind. */
static PyObject *key_box(const Type *t, int kind, uint64_t bits) {
  if (t && ty_is_time(t)) return disp_box(t, (char *)&bits);
  return key_object(kind, bits);
}

/* ---------------------------------------------------------------- List */

static PyTypeObject ListType;

/* A new List holding l's reference, its items of type item (NULL: l's kind). */
static ListObject *list_wrap(RtList *l, const Type *item) {
  ListObject *self = PyObject_New(ListObject, &ListType);
  if (!self) {
    rt_list_release(l);
  } else {
    self->l = l;
    self->item = item;
  }
  return self;
}

static RtList *untyped_list(void) { return rt_list_new(-1, 8, 0); }

/* An item's bytes in a container. */
static int64_t type_size(const Type *t) { return ty_is_scalar(t) || t->kind == TY_STR ? item_size((int)t->kind) : (int64_t)t->size; }

/* A tuple item's references (its strs' and arrays'), told to the container. */
static void hold_tuple_items(const Type *t, void *c, bool list) {
  int32_t kinds[RT_HELD_FIELDS];
  int64_t offsets[RT_HELD_FIELDS];
  if (t->kind != TY_TUPLE) return;
  int n = rt_held_fields(t, 0, 0, RT_HELD_FIELDS, kinds, offsets);
  if (list) rt_list_hold(c, n, kinds, offsets);
  else rt_dict_hold(c, n, kinds, offsets);
}

/* The first item types an untyped list (it has none yet). */
static int list_learn(ListObject *self, PyObject *o) {
  if (self->l->kind >= 0) return 0;
  const Type *t = type_of_value(o);
  if (!t) return -1;
  self->item = kept_type(t);
  rt_list_settle(self->l, (int32_t)t->kind, type_size(t));  /* (which also says which items hold references) */
  hold_tuple_items(t, self->l, true);
  return 0;
}

/* o stored at p as a container of jitclass instances holds one: a
 * reference to its object, taken. (Another class's object, or a
 * structref's of other field types, is named by its type too: its
 * Python class may be the same.) */
static int store_instance(const Type *c, PyObject *o, char *p) {
  const Type *given = jitclass_typeof(o);
  if (given != c) {
    if (given)
      PyErr_Format(PyExc_TypeError, "a typed container of %s cannot hold %s (%s)", c->name, Py_TYPE(o)->tp_name,
                   given->name);
    else
      PyErr_Format(PyExc_TypeError, "a typed container of %s cannot hold %s", c->name, Py_TYPE(o)->tp_name);
    return -1;
  }
  RtObject *obj = jitclass_unbox(o);
  __atomic_add_fetch(&obj->refcount, 1, __ATOMIC_ACQ_REL);
  memcpy(p, &obj, sizeof obj);
  return 0;
}

/* o stored at p as an item of one of the functions t: its number among
 * them; another function is refused, as Numba's List of one dispatcher's
 * type refuses another's. */
static int store_function(const Type *t, PyObject *o, char *p) {
  for (int64_t k = 0; k < t->nfields; k++)
    if (t->fields[k]->callee == (const void *)o) {
      memcpy(p, &k, sizeof k);
      return 0;
    }
  PyErr_Format(PyExc_TypeError, "a typed container of %s cannot hold %R", t->name, o);
  return -1;
}

/* o stored at p as an item of the list's. */
static int list_store(ListObject *self, PyObject *o, char *p) { return store_value(list_item_type_of(self), o, p); }

/* The references the item at p holds, released. */
static void list_release(ListObject *self, char *p) { rt_held_drop(&self->l->held, p); }

/* o stored past the list's last item, in the room reserved there: the
 * place it is stored before it is appended or moved where it goes. */
static char *list_stage(ListObject *self, PyObject *o) {
  if (list_learn(self, o) < 0) return NULL;
  if (rt_list_reserve(self->l, self->l->len + 1) != RT_OK) {
    PyErr_NoMemory();
    return NULL;
  }
  char *end = self->l->data + self->l->len * self->l->itemsize;
  return list_store(self, o, end) < 0 ? NULL : end;
}

/* 0, or -1 with Numba's ValueError where the list was made immutable (_make_immutable()). */
static int list_mutable(ListObject *self) {
  if (!self->l->immutable) return 0;
  PyErr_SetString(PyExc_ValueError, "list is immutable");
  return -1;
}

static PyObject *list_append(ListObject *self, PyObject *o) {
  if (list_mutable(self) < 0 || !list_stage(self, o)) return NULL;
  self->l->len++;
  Py_RETURN_NONE;
}

static PyObject *list_extend(ListObject *self, PyObject *items) {
  if (list_mutable(self) < 0) return NULL;
  PyObject *snapshot = items == (PyObject *)self ? PySequence_List(items) : NULL;  /* x.extend(x): its items once */
  PyObject *it = PyObject_GetIter(snapshot ? snapshot : items), *o;
  Py_XDECREF(snapshot);
  if (!it) return NULL;
  while ((o = PyIter_Next(it))) {
    PyObject *r = list_append(self, o);
    Py_DECREF(o);
    if (!r) break;
    Py_DECREF(r);
  }
  Py_DECREF(it);
  if (PyErr_Occurred()) return NULL;
  Py_RETURN_NONE;
}

static ListObject *empty_typed_list(const Type *item, Py_ssize_t allocated);

/* List(lsttype=ListType(t), allocated=n): the keywords Numba's List takes
 * for its own use, an empty list of t's; any other a TypeError. */
static PyObject *list_of_list_type(PyObject *args, PyObject *kw) {
  static char *names[] = {"lsttype", "allocated", NULL};
  PyObject *t = NULL;
  Py_ssize_t allocated = 0;
  if (PyTuple_GET_SIZE(args) || !PyArg_ParseTupleAndKeywords(args, kw, "|$On:List", names, &t, &allocated)) {
    PyErr_Clear();
    return PyErr_Format(PyExc_TypeError, "List() takes no keyword arguments");
  }
  const Type *lt = t ? type_of_type(t) : NULL;
  if (!lt || lt->kind != TY_LIST) {
    PyErr_Clear();
    return PyErr_Format(PyExc_TypeError, "*lsttype* must be a ListType");
  }
  return (PyObject *)empty_typed_list(lt->elem, allocated);
}

/* Whether o has a shape of no dimensions (a 0-d NumPy array). */
static bool zero_dimensional(PyObject *o) {
  if (PyList_Check(o) || PyTuple_Check(o)) return false;
  PyObject *ndim = PyObject_GetAttrString(o, "ndim");
  long n = ndim && PyLong_Check(ndim) ? PyLong_AsLong(ndim) : -1;
  Py_XDECREF(ndim);
  PyErr_Clear();
  return n == 0;
}

static PyObject *list_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  PyObject *items = NULL;
  if (kw && PyDict_GET_SIZE(kw)) return list_of_list_type(args, kw);
  if (!PyArg_ParseTuple(args, "|O:List", &items)) return NULL;
  RtList *l = untyped_list();
  if (l) l->typed = 1;
  ListObject *self = l ? (ListObject *)type->tp_alloc(type, 0) : NULL;
  if (!self) {
    if (l) rt_list_free(l);
    return PyErr_NoMemory();
  }
  self->l = l;
  if (items && zero_dimensional(items)) {  /* a 0-d array: its one item, as Numba's */
    PyObject *r = PyObject_CallMethod(items, "item", NULL);
    PyObject *one = r ? PyTuple_Pack(1, r) : NULL;
    Py_XDECREF(r);
    items = one;
    if (!one) Py_CLEAR(self);
  } else {
    Py_XINCREF(items);
  }
  if (self && items) {
    PyObject *r = list_extend(self, items);
    if (!r) Py_CLEAR(self);
    Py_XDECREF(r);
  }
  Py_XDECREF(items);
  return (PyObject *)self;
}

/* An empty typed.List of items of type item, room made for allocated of them. */
static ListObject *empty_typed_list(const Type *item, Py_ssize_t allocated) {
  RtList *l = rt_list_new((int32_t)item->kind, type_size(item), allocated > 0 ? allocated : 0);
  if (!l) return (ListObject *)PyErr_NoMemory();
  l->typed = 1;
  hold_tuple_items(item, l, true);
  return list_wrap(l, kept_type(item));
}

static PyObject *list_empty_list(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *names[] = {"item_type", "allocated", NULL};
  PyObject *t;
  Py_ssize_t allocated = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|n:empty_list", names, &t, &allocated)) return NULL;
  const Type *item = type_of_type(t);
  return item ? (PyObject *)empty_typed_list(item, allocated) : NULL;
}

static void list_dealloc(ListObject *self) {
  rt_list_release(self->l);
  Py_TYPE(self)->tp_free(self);
}

static Py_ssize_t list_len(ListObject *self) { return (Py_ssize_t)self->l->len; }

static PyObject *list_item(ListObject *self, Py_ssize_t i) {
  if (i < 0 || i >= self->l->len) {
    PyErr_SetString(PyExc_IndexError, "list index out of range");
    return NULL;
  }
  return box_item(list_item_type_of(self), self->l->data + i * self->l->itemsize);
}

static int list_ass_item(ListObject *self, Py_ssize_t i, PyObject *o) {
  if (list_mutable(self) < 0) return -1;
  if (i < 0 || i >= self->l->len) {
    PyErr_SetString(PyExc_IndexError, "list assignment index out of range");
    return -1;
  }
  char *at = self->l->data + i * self->l->itemsize;
  if (!o) {
    list_release(self, at);
    rt_list_close(self->l, i);
    return 0;
  }
  char *staged = list_stage(self, o);
  if (!staged) return -1;
  at = self->l->data + i * self->l->itemsize;  /* (the buffer may have moved) */
  list_release(self, at);
  memcpy(at, staged, (size_t)self->l->itemsize);
  return 0;
}

/* A slice's bounds as rt_list_slice takes them: start, stop and step as
 * given (None's the ends, which given's bits say are not given); -1 with
 * Python's error (a step of zero, a bound that is not an integer). */
static int slice_bounds(PyObject *key, Py_ssize_t *start, Py_ssize_t *stop, Py_ssize_t *step, int32_t *given) {
  if (PySlice_Unpack(key, start, stop, step) < 0) return -1;
  PySliceObject *s = (PySliceObject *)key;
  *given = (s->start != Py_None ? 1 : 0) | (s->stop != Py_None ? 2 : 0);
  return 0;
}

/* An index as Python's list takes one (an int, a NumPy integer, a bool),
 * counted from the end when negative; -1 with Python's error where it is
 * not an integer or lies outside the list (what: the IndexError's text). */
static int list_index_of(ListObject *self, PyObject *key, Py_ssize_t *i, const char *what) {
  if (!PyIndex_Check(key)) {
    PyErr_Format(PyExc_TypeError, "list indices must be integers or slices, not %.200s", Py_TYPE(key)->tp_name);
    return -1;
  }
  *i = PyNumber_AsSsize_t(key, PyExc_IndexError);
  if (*i == -1 && PyErr_Occurred()) return -1;
  if (*i < 0) *i += (Py_ssize_t)self->l->len;
  if (*i >= 0 && *i < (Py_ssize_t)self->l->len) return 0;
  PyErr_SetString(PyExc_IndexError, what);
  return -1;
}

/* x[i], x[a:b:c]: a slice is a new typed.List of those items, as Numba's. */
static PyObject *list_subscript(ListObject *self, PyObject *key) {
  Py_ssize_t i, start, stop, step;
  int32_t given;
  if (!PySlice_Check(key)) return list_index_of(self, key, &i, "list index out of range") < 0 ? NULL : list_item(self, i);
  if (slice_bounds(key, &start, &stop, &step, &given) < 0) return NULL;
  RtList *c = rt_list_slice(self->l, start, stop, step, given);
  if (!c) return PyErr_NoMemory();
  c->typed = 1;
  return (PyObject *)list_wrap(c, self->item);
}

/* The items of an iterable as a new list of this list's item type (each
 * converted as append converts it); the list itself where it is one. */
static ListObject *list_of_items(ListObject *self, PyObject *items) {
  if (Py_TYPE(items) == &ListType && ((ListObject *)items)->l->kind == self->l->kind &&
      list_item_type_of((ListObject *)items) == list_item_type_of(self))
    return (ListObject *)Py_NewRef(items);
  const Type *t = list_item_type_of(self);
  RtList *l = rt_list_new(self->l->kind, self->l->itemsize, 0);
  ListObject *r = l ? list_wrap(l, self->item) : NULL;
  if (!r) return l ? NULL : (ListObject *)PyErr_NoMemory();
  l->typed = 1;
  hold_tuple_items(t, l, true);
  PyObject *done = list_extend(r, items);
  if (!done) Py_CLEAR(r);
  Py_XDECREF(done);
  return r;
}

/* x[a:b:c] = items, del x[a:b:c], as a list's: a step of 1 replaces the
 * slice with any number of items, another needs as many as it has. */
static int list_ass_slice(ListObject *self, PyObject *key, PyObject *o) {
  Py_ssize_t start, stop, step;
  int32_t given;
  if (list_mutable(self) < 0 || slice_bounds(key, &start, &stop, &step, &given) < 0) return -1;
  if (!o) return rt_list_delete_slice(self->l, start, stop, step, given) == RT_OK ? 0 : (PyErr_NoMemory(), -1);
  Py_ssize_t a = start, b = stop, n = PySlice_AdjustIndices((Py_ssize_t)self->l->len, &a, &b, step);
  if (self->l->kind < 0) {  /* an empty list of no type yet: the items appended, the first typing it */
    PyObject *items = PySequence_List(o), *r = NULL;
    if (items && step != 1 && PyList_GET_SIZE(items))
      PyErr_Format(PyExc_ValueError, "attempt to assign sequence of size %zd to extended slice of size 0", PyList_GET_SIZE(items));
    else if (items)
      r = list_extend(self, items);
    Py_XDECREF(items);
    Py_XDECREF(r);
    return r ? 0 : -1;
  }
  ListObject *v = list_of_items(self, o);
  if (!v) return -1;
  int rc = 0;
  if (step != 1 && (Py_ssize_t)v->l->len != n) {
    PyErr_Format(PyExc_ValueError, "attempt to assign sequence of size %zd to extended slice of size %zd",
                 (Py_ssize_t)v->l->len, n);
    rc = -1;
  } else if (rt_list_assign_slice(self->l, start, stop, step, given, v->l) != RT_OK) {
    PyErr_NoMemory();
    rc = -1;
  }
  Py_DECREF(v);
  return rc;
}

/* x[i] = o, del x[i], and their slices. */
static int list_ass_subscript(ListObject *self, PyObject *key, PyObject *o) {
  Py_ssize_t i;
  if (PySlice_Check(key)) return list_ass_slice(self, key, o);
  if (list_index_of(self, key, &i, "list assignment index out of range") < 0) return -1;
  return list_ass_item(self, i, o);
}

static PyObject *list_pop(ListObject *self, PyObject *args) {
  Py_ssize_t i = -1;
  if (!PyArg_ParseTuple(args, "|n:pop", &i) || list_mutable(self) < 0) return NULL;
  if (!self->l->len) {
    PyErr_SetString(PyExc_IndexError, "pop from empty list");
    return NULL;
  }
  if (i < 0) i += self->l->len;
  if (i < 0 || i >= self->l->len) {
    PyErr_SetString(PyExc_IndexError, "pop index out of range");
    return NULL;
  }
  PyObject *v = list_item(self, i);
  if (v) list_release(self, self->l->data + i * self->l->itemsize);
  if (v) rt_list_close(self->l, i);
  return v;
}

static PyObject *list_insert(ListObject *self, PyObject *args) {
  Py_ssize_t i;
  PyObject *o;
  if (!PyArg_ParseTuple(args, "nO:insert", &i, &o) || list_mutable(self) < 0 || !list_stage(self, o)) return NULL;
  if (i < 0) i += self->l->len;
  i = i < 0 ? 0 : i > self->l->len ? self->l->len : i;
  int64_t size = self->l->itemsize;
  self->l->len++;  /* the staged item appended, then moved down to i */
  char *at = self->l->data + i * size, *end = self->l->data + (self->l->len - 1) * size;
  ItemBuf buf;
  char *moved = item_room(&buf, size);
  if (!moved) {
    self->l->len--;
    list_release(self, end);
    return NULL;
  }
  memcpy(moved, end, (size_t)size);
  memmove(at + size, at, (size_t)(end - at));
  memcpy(at, moved, (size_t)size);
  item_room_free(&buf, moved);
  Py_RETURN_NONE;
}

/* The items put in the order Python's sorted gives their keys (each
 * item's key(item), or the item itself): stable, reverse as Python's. */
static PyObject *list_sort_by_keys(ListObject *self, PyObject *key, int reverse) {
  PyObject *items = PySequence_List((PyObject *)self), *keys = NULL, *order = NULL;
  Py_ssize_t n = items ? PyList_GET_SIZE(items) : 0;
  if (items && key != Py_None) {
    keys = PyList_New(n);
    for (Py_ssize_t i = 0; keys && i < n; i++) {
      PyObject *k = PyObject_CallOneArg(key, PyList_GET_ITEM(items, i));
      if (!k) Py_CLEAR(keys);
      else PyList_SET_ITEM(keys, i, k);
    }
  } else {
    keys = Py_XNewRef(items);
  }
  PyObject *indices = keys ? PyObject_CallFunction((PyObject *)&PyRange_Type, "n", n) : NULL;
  PyObject *getitem = indices ? PyObject_GetAttrString(keys, "__getitem__") : NULL;
  PyObject *sorted = getitem ? PyDict_GetItemString(PyEval_GetBuiltins(), "sorted") : NULL;
  PyObject *kw = sorted ? Py_BuildValue("{sOsO}", "key", getitem, "reverse", reverse ? Py_True : Py_False) : NULL;
  PyObject *pos = kw ? PyTuple_Pack(1, indices) : NULL;
  if (pos) order = PyObject_Call(sorted, pos, kw);
  Py_XDECREF(pos); Py_XDECREF(kw); Py_XDECREF(getitem); Py_XDECREF(indices); Py_XDECREF(keys); Py_XDECREF(items);
  if (!order) return NULL;
  int64_t size = self->l->itemsize;
  char *moved = n == (Py_ssize_t)self->l->len ? PyMem_Malloc((size_t)(n * size) + 1) : NULL;
  if (!moved) {
    Py_DECREF(order);
    if (n != (Py_ssize_t)self->l->len) PyErr_SetString(PyExc_ValueError, "list modified during sort");
    return n == (Py_ssize_t)self->l->len ? PyErr_NoMemory() : NULL;
  }
  for (Py_ssize_t k = 0; k < n; k++)  /* a permutation: each item's references move with it */
    memcpy(moved + k * size, self->l->data + PyLong_AsSsize_t(PyList_GET_ITEM(order, k)) * size, (size_t)size);
  memcpy(self->l->data, moved, (size_t)(n * size));
  PyMem_Free(moved);
  Py_DECREF(order);
  Py_RETURN_NONE;
}

static PyObject *list_sort(ListObject *self, PyObject *args, PyObject *kw) {
  static char *names[] = {"key", "reverse", NULL};
  PyObject *key = Py_None;
  int reverse = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|$Op:sort", names, &key, &reverse) || list_mutable(self) < 0) return NULL;
  if (key != Py_None && !PyCallable_Check(key)) {
    PyErr_Format(PyExc_TypeError, "'%.200s' object is not callable", Py_TYPE(key)->tp_name);
    return NULL;
  }
  if (key != Py_None || self->item) return list_sort_by_keys(self, key, reverse);  /* (tuples, arrays: as Python compares them) */
  if (self->l->len > 1 && ty_is_complex(&scalar[self->l->kind])) {  /* Python's list of complex refuses, once it compares */
    PyErr_SetString(PyExc_TypeError, "'<' not supported between instances of 'complex' and 'complex'");
    return NULL;
  }
  if (self->l->kind >= 0 && rt_list_sort(self->l, reverse) != RT_OK) return PyErr_NoMemory();
  Py_RETURN_NONE;
}

/* The items as a Python list, its method `name` called with args (the read-only count and index). */
static PyObject *list_via_items(ListObject *self, const char *name, PyObject *args) {
  PyObject *items = PySequence_List((PyObject *)self);
  PyObject *m = items ? PyObject_GetAttrString(items, name) : NULL;
  PyObject *r = m ? PyObject_Call(m, args, NULL) : NULL;
  Py_XDECREF(m); Py_XDECREF(items);
  return r;
}

static PyObject *list_count(ListObject *self, PyObject *args) { return list_via_items(self, "count", args); }
static PyObject *list_index(ListObject *self, PyObject *args) { return list_via_items(self, "index", args); }

static PyObject *list_remove(ListObject *self, PyObject *x) {
  Py_ssize_t i = PySequence_Index((PyObject *)self, x);
  if (i < 0) {
    if (PyErr_ExceptionMatches(PyExc_ValueError)) PyErr_SetString(PyExc_ValueError, "list.remove(x): x not in list");
    return NULL;
  }
  if (list_ass_item(self, i, NULL) < 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject *list_clear(ListObject *self, PyObject *unused) {
  if (list_mutable(self) < 0) return NULL;
  rt_list_clear(self->l);
  Py_RETURN_NONE;
}

/* A new typed list of the same items (a shallow copy, as list.copy). */
static PyObject *list_copy(ListObject *self, PyObject *unused) {
  RtList *c = rt_list_copy(self->l);
  if (c) c->typed = 1;  /* a typed.List, returned as one by compiled code that passes it on */
  return c ? (PyObject *)list_wrap(c, self->item) : PyErr_NoMemory();
}

static PyObject *list_reverse(ListObject *self, PyObject *unused) {
  if (list_mutable(self) < 0) return NULL;
  rt_list_reverse(self->l);
  Py_RETURN_NONE;
}

/* As Numba's typed list's: its room (over-allocated as Numba's), whether it may change, and making it immutable. */
static PyObject *list_allocated(ListObject *self, PyObject *unused) { return PyLong_FromLongLong(rt_list_allocated(self->l)); }
static PyObject *list_is_mutable(ListObject *self, PyObject *unused) { return PyBool_FromLong(!self->l->immutable); }

static PyObject *list_make_immutable(ListObject *self, PyObject *unused) {
  rt_list_make_immutable(self->l);
  Py_RETURN_NONE;
}

static PyObject *list_repr(ListObject *self) {
  PyObject *items = PySequence_List((PyObject *)self);
  if (!items) return NULL;
  PyObject *r = self->l->kind < 0 ? PyUnicode_FromFormat("ListType[Undefined](%R)", items)  /* (Numba's spelling) */
                                  : PyUnicode_FromFormat("ListType[%s](%R)", list_item_type_of(self)->name, items);
  Py_DECREF(items);
  return r;
}

/* str(x): the items as a list's, as Numba's typed.List prints. */
static PyObject *list_str(ListObject *self) {
  PyObject *items = PySequence_List((PyObject *)self);
  PyObject *r = items ? PyObject_Str(items) : NULL;
  Py_XDECREF(items);
  return r;
}

/* Whether a typed list holds None (its items' type is none). */
static bool none_items(PyObject *x) {
  return ((ListObject *)x)->l->kind >= 0 && list_item_type_of((ListObject *)x)->kind == TY_NONE;
}

/* Numba's order of a list of None and a list of other items: by their
 * lengths, then the list of None first; never equal. */
static PyObject *none_list_richcompare(PyObject *a, PyObject *b, int op) {
  Py_ssize_t la = PySequence_Size(a), lb = PySequence_Size(b);
  int c = la != lb ? (la < lb ? -1 : 1) : none_items(a) ? -1 : 1;
  bool r = op == Py_NE || ((op == Py_LT || op == Py_LE) && c < 0) || ((op == Py_GT || op == Py_GE) && c > 0);
  return PyBool_FromLong(r);
}

/* As a sequence's comparisons, item by item, against a typed.List or a
 * list; against a number, a str or a tuple every operator is False, as
 * Numba's typed.List has it (and compiled code). */
static PyObject *list_richcompare(ListObject *self, PyObject *other, int op) {
  if (PyIndex_Check(other) || PyFloat_Check(other) || PyComplex_Check(other) || PyUnicode_Check(other) ||
      PyTuple_Check(other))
    Py_RETURN_FALSE;
  if (!PyList_Check(other) && Py_TYPE(other) != &ListType) Py_RETURN_NOTIMPLEMENTED;
  if (Py_TYPE(other) == &ListType && self->l->kind >= 0 && ((ListObject *)other)->l->kind >= 0 &&
      none_items((PyObject *)self) != none_items(other))
    return none_list_richcompare((PyObject *)self, other, op);
  PyObject *a = PySequence_List((PyObject *)self);
  PyObject *b = a ? PySequence_List(other) : NULL;
  PyObject *r = b ? PyObject_RichCompare(a, b, op) : NULL;
  Py_XDECREF(a); Py_XDECREF(b);
  if (!r && PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    Py_RETURN_NOTIMPLEMENTED;
  }
  return r;
}

/* `x in l`: an item equal to x, compared as Python compares (1 == 1.0). */
static int list_contains(ListObject *self, PyObject *x) {
  for (Py_ssize_t i = 0; i < (Py_ssize_t)self->l->len; i++) {
    PyObject *o = list_item(self, i);
    int eq = o ? PyObject_RichCompareBool(o, x, Py_EQ) : -1;
    Py_XDECREF(o);
    if (eq != 0) return eq;
  }
  return 0;
}

/* `l += items`: extended in place, as list's (and Numba's typed.List's). */
static PyObject *list_inplace_concat(ListObject *self, PyObject *items) {
  PyObject *r = list_extend(self, items);
  if (!r) return NULL;
  Py_DECREF(r);
  return Py_NewRef(self);
}

/* reversed(l): over a snapshot of the items, from the last. */
static PyObject *list_reversed(ListObject *self, PyObject *unused) {
  PyObject *items = PySequence_List((PyObject *)self);
  if (!items || PyList_Reverse(items) < 0) {
    Py_XDECREF(items);
    return NULL;
  }
  PyObject *it = PyObject_GetIter(items);
  Py_DECREF(items);
  return it;
}

static PyObject *list_item_type(ListObject *self, void *unused) {
  if (self->l->kind < 0) Py_RETURN_NONE;
  return PyUnicode_FromString(list_item_type_of(self)->name);
}

static PyMethodDef list_methods[] = {
  {"append", (PyCFunction)list_append, METH_O, "Appends an item."},
  {"extend", (PyCFunction)list_extend, METH_O, "Appends the items of an iterable."},
  {"pop", (PyCFunction)list_pop, METH_VARARGS, "Removes and returns the item at an index (the last)."},
  {"insert", (PyCFunction)list_insert, METH_VARARGS, "Inserts an item before an index."},
  {"sort", (PyCFunction)(void (*)(void))list_sort, METH_VARARGS | METH_KEYWORDS, "Sorts in place, stably."},
  {"reverse", (PyCFunction)list_reverse, METH_NOARGS, "Reverses in place."},
  {"count", (PyCFunction)list_count, METH_VARARGS, "How many items equal x."},
  {"index", (PyCFunction)list_index, METH_VARARGS, "The first index of an item equal to x (ValueError if none)."},
  {"remove", (PyCFunction)list_remove, METH_O, "Removes the first item equal to x (ValueError if none)."},
  {"clear", (PyCFunction)list_clear, METH_NOARGS, "Removes every item."},
  {"copy", (PyCFunction)list_copy, METH_NOARGS, "A new typed list of the same items."},
  {"_allocated", (PyCFunction)list_allocated, METH_NOARGS, "How many items the list has room for."},
  {"_is_mutable", (PyCFunction)list_is_mutable, METH_NOARGS, "Whether the list may change."},
  {"_make_immutable", (PyCFunction)list_make_immutable, METH_NOARGS, "Makes every later change a ValueError."},
  {"__reversed__", (PyCFunction)list_reversed, METH_NOARGS, "An iterator over the items from the last."},
  {"empty_list", (PyCFunction)(void (*)(void))list_empty_list, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "An empty list of items of item_type (ruchey.int64, ruchey.float64, int, float, bool ...)."},
  {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "List[item] in annotations."},
  {NULL},
};

/* ruchey.types.typeof(self) (a TypeError while its item type is unknown). */
static PyObject *list_numba_type(ListObject *self, void *unused) {
  PyObject *types = PyImport_ImportModule("ruchey.types");
  PyObject *t = types ? PyObject_CallMethod(types, "typeof", "O", (PyObject *)self) : NULL;
  Py_XDECREF(types);
  return t;
}

static PyObject *list_typed(ListObject *self, void *unused) { return PyBool_FromLong(self->l->kind >= 0); }

static PyObject *list_dtype(ListObject *self, void *unused) {
  if (self->l->kind < 0) return PyErr_Format(PyExc_RuntimeError, "invalid operation on untyped list");
  PyObject *t = list_numba_type(self, NULL), *item = t ? PyObject_GetAttrString(t, "item_type") : NULL;
  Py_XDECREF(t);
  return item;
}

static PyGetSetDef list_getset[] = {
  {"item_type", (getter)list_item_type, NULL, "The items' type's name (None while unknown).", NULL},
  /* as Numba's List's own attributes */
  {"_numba_type_", (getter)list_numba_type, NULL, "The list's ListType.", NULL},
  {"_typed", (getter)list_typed, NULL, "Whether the items' type is known.", NULL},
  {"_dtype", (getter)list_dtype, NULL, "The items' type (a RuntimeError while unknown).", NULL},
  {NULL},
};

static PyMappingMethods list_as_mapping = {
  .mp_length = (lenfunc)list_len,
  .mp_subscript = (binaryfunc)list_subscript,
  .mp_ass_subscript = (objobjargproc)list_ass_subscript,
};

static PySequenceMethods list_as_sequence = {
  .sq_length = (lenfunc)list_len,
  .sq_item = (ssizeargfunc)list_item,
  .sq_ass_item = (ssizeobjargproc)list_ass_item,
  .sq_contains = (objobjproc)list_contains,
  .sq_inplace_concat = (binaryfunc)list_inplace_concat,
};

static PyTypeObject ListType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ruchey.typed.List",
  .tp_basicsize = sizeof(ListObject),
  .tp_dealloc = (destructor)list_dealloc,
  .tp_repr = (reprfunc)list_repr,
  .tp_str = (reprfunc)list_str,
  .tp_as_sequence = &list_as_sequence,
  .tp_as_mapping = &list_as_mapping,
  .tp_iter = PySeqIter_New,  /* an __iter__, which pandas' is_list_like and others look for */
  .tp_richcompare = (richcmpfunc)list_richcompare,
  .tp_hash = PyObject_HashNotImplemented,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A list of numbers of one type, shared with compiled code without copying (numba.typed.List).",
  .tp_methods = list_methods,
  .tp_getset = list_getset,
  .tp_new = list_new,
};

/* ---------------------------------------------------------------- Dict */

static PyTypeObject DictType;

/* A new Dict holding d's reference, its keys and values of types key
 * and value (NULL: d's kinds). */
static DictObject *dict_wrap(RtDict *d, const Type *key, const Type *value) {
  DictObject *self = PyObject_New(DictObject, &DictType);
  if (!self) {
    rt_dict_release(d);
  } else {
    self->d = d;
    self->key = key;
    self->value = value;
  }
  return self;
}

static bool typed_object(PyObject *o) { return Py_TYPE(o) == &ListType || Py_TYPE(o) == &DictType; }

/* A dict made for keys of type k and values of type v (NULL: no memory). */
static DictObject *dict_settle(DictObject *self, const Type *k, const Type *v) {
  rt_dict_settle(self->d, (int32_t)k->kind, (int32_t)v->kind, type_size(v));
  hold_tuple_items(v, self->d, false);
  self->key = kept_type(k);
  self->value = kept_type(v);
  return self;
}

static int tuple_key_bits(PyObject *o, const Type *t, RtTupleKey *k);

/* A key given from Python, as the dict looks it up: its bits (a tuple's
 * point to the RtTupleKey here, a str's to a new RtStr, dropped after). */
typedef struct {
  uint64_t bits;
  RtTupleKey tuple;
} DictKey;

static int dict_key(DictObject *self, PyObject *k, DictKey *key) {
  const Type *t = self->key;
  if (!t) return scalar_key(self->d->keykind, k, &key->tuple, &key->bits);
  if (ty_is_time(t)) {  /* the count in the keys' unit: a key of that type alone */
    Slot slot;
    void *arg;
    if (disp_typeof(k) == t && disp_unbox(k, t, &slot, NULL, &arg) == 0) {
      key->bits = slot.u;
      return 0;
    }
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "a typed.Dict keyed by %s cannot take the key %R", t->name, k);
    return -1;
  }
  if (!PyTuple_Check(k) || PyTuple_GET_SIZE(k) != t->nfields) {
    PyErr_Format(PyExc_TypeError, "a typed.Dict keyed by %s cannot take the key %R", t->name, k);
    return -1;
  }
  key->bits = (uint64_t)(uintptr_t)&key->tuple;
  return tuple_key_bits(k, t, &key->tuple);
}

static void dict_key_drop(DictObject *self, DictKey *key) { drop_key(self->d->keykind, key->bits); }

/* Dict(), or Dict(pairs) (Dict(zip(keys, values)), a mapping too) filled
 * as its update() fills it, as Numba's typed.Dict(iterable) and Python's dict(). */
static PyObject *dict_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  PyObject *items = NULL;
  if (!PyArg_ParseTuple(args, "|O:Dict", &items)) return NULL;
  RtDict *d = rt_dict_new(-1, -1, 8);
  DictObject *self = d ? (DictObject *)type->tp_alloc(type, 0) : NULL;
  if (!self) {
    if (d) rt_dict_free(d);
    return PyErr_NoMemory();
  }
  self->d = d;
  PyObject *filled = items ? PyObject_CallMethod((PyObject *)self, "update", "(O)", items) : NULL;
  if (items && !filled) Py_CLEAR(self);
  Py_XDECREF(filled);
  return (PyObject *)self;
}

static PyObject *dict_empty(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *names[] = {"key_type", "value_type", "n_keys", NULL};
  PyObject *k, *v;
  Py_ssize_t n = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|n:empty", names, &k, &v, &n)) return NULL;
  const Type *key = type_of_type(k), *value = key ? type_of_type(v) : NULL;
  if (!value) return NULL;
  if (!key_tuple(key) && !ty_is_scalar(key) && key->kind != TY_STR) {
    PyErr_Format(PyExc_TypeError, "typed.Dict keys are numbers, bools, str or tuples of these, not %s", key->name);
    return NULL;
  }
  RtDict *d = rt_dict_new(-1, -1, 8);
  DictObject *self = d ? dict_wrap(d, NULL, NULL) : NULL;
  return self ? (PyObject *)dict_settle(self, key, value) : PyErr_NoMemory();
}

static void dict_dealloc(DictObject *self) {
  rt_dict_release(self->d);
  Py_TYPE(self)->tp_free(self);
}

static Py_ssize_t dict_len(DictObject *self) { return (Py_ssize_t)self->d->used; }

/* The value's address for key k, or NULL: with found false and no error
 * when k is not there (a key of another type is not there either). */
static char *dict_find(DictObject *self, PyObject *k) {
  DictKey key;
  if (self->d->keykind < 0) return NULL;
  if (dict_key(self, k, &key) < 0) {
    PyErr_Clear();
    return NULL;
  }
  char *v = rt_dict_lookup(self->d, key.bits);
  dict_key_drop(self, &key);
  return v;
}

static PyObject *dict_subscript(DictObject *self, PyObject *k) {
  char *v = dict_find(self, k);
  if (!v) {
    PyErr_SetObject(PyExc_KeyError, k);
    return NULL;
  }
  return box_item(dict_value_type_of(self), v);
}

static int dict_ass_subscript(DictObject *self, PyObject *k, PyObject *v) {
  RtDict *d = self->d;
  DictKey key;
  if (!v) {
    bool found = d->keykind >= 0 && dict_key(self, k, &key) == 0;
    bool deleted = found && rt_dict_delete(d, key.bits);
    if (found) dict_key_drop(self, &key);
    if (!deleted) {
      PyErr_Clear();
      PyErr_SetObject(PyExc_KeyError, k);
      return -1;
    }
    return 0;
  }
  if (d->keykind < 0) {  /* the first pair types the dict */
    const Type *kt = type_of_key(k), *vt = kt ? type_of_value(v) : NULL;
    if (!vt) return -1;
    dict_settle(self, kt, vt);
  }
  ItemBuf room;
  char *buf = item_room(&room, d->valsize);
  if (!buf) return -1;
  bool keyed = dict_key(self, k, &key) == 0;
  if (!keyed || store_value(dict_value_type_of(self), v, buf) < 0) {
    if (keyed) dict_key_drop(self, &key);
    item_room_free(&room, buf);
    return -1;
  }
  char *at = rt_dict_lookup(d, key.bits);
  if (at) rt_held_drop(&d->held, at);  /* the value replaced */
  else at = rt_dict_insert(d, key.bits);  /* a new str key: the dict takes its own reference */
  dict_key_drop(self, &key);
  if (at) memcpy(at, buf, (size_t)d->valsize);
  else rt_held_drop(&d->held, buf);
  item_room_free(&room, buf);
  if (!at) PyErr_NoMemory();
  return at ? 0 : -1;
}

static int dict_contains(DictObject *self, PyObject *k) { return dict_find(self, k) != NULL; }

/* keys (0), values (1) or items (2), in insertion order, as a Python list. */
static PyObject *dict_parts(DictObject *self, int which) {
  RtDict *d = self->d;
  PyObject *out = PyList_New(0);
  for (int64_t i = 0; out && i < d->used; i++) {
    char *e = rt_dict_entry(d, i);
    PyObject *k = which != 1 ? key_box(self->key, d->keykind, *(uint64_t *)(e + 8)) : NULL;
    PyObject *v = which != 0 ? box_item(dict_value_type_of(self), e + RT_DICT_VALUE) : NULL;
    PyObject *item = which == 0 ? k : which == 1 ? v : (k && v ? PyTuple_Pack(2, k, v) : NULL);
    if (which == 2) {
      Py_XDECREF(k);
      Py_XDECREF(v);
    }
    if (!item || PyList_Append(out, item) < 0) Py_CLEAR(out);
    Py_XDECREF(item);
  }
  return out;
}

static PyObject *dict_keys(DictObject *self, PyObject *unused) { return dict_parts(self, 0); }
static PyObject *dict_values(DictObject *self, PyObject *unused) { return dict_parts(self, 1); }
static PyObject *dict_items(DictObject *self, PyObject *unused) { return dict_parts(self, 2); }

static PyObject *dict_iter(DictObject *self) {
  PyObject *keys = dict_parts(self, 0);
  PyObject *it = keys ? PyObject_GetIter(keys) : NULL;
  Py_XDECREF(keys);
  return it;
}

/* The default get() and pop() give for a missing key: a number
 * converted to the dict's number values' type, as Numba's compiled get()
 * casts it (d.get(k, 5) of float values is 5.0); None and other values as
 * they are. */
static PyObject *default_as_value(DictObject *self, PyObject *dflt) {
  const Type *t = self->d->valkind < 0 ? NULL : dict_value_type_of(self);
  if (dflt == Py_None || !t || !ty_is_scalar(t) || ty_is_time(t)) return Py_NewRef(dflt);
  ItemBuf item = {0};
  return store_item((int)t->kind, dflt, item.bytes) < 0 ? NULL : box_item(t, item.bytes);
}

static PyObject *dict_get(DictObject *self, PyObject *args) {
  PyObject *k, *dflt = Py_None;
  if (!PyArg_ParseTuple(args, "O|O:get", &k, &dflt)) return NULL;
  char *v = dict_find(self, k);
  return v ? box_item(dict_value_type_of(self), v) : default_as_value(self, dflt);
}

static PyObject *dict_pop(DictObject *self, PyObject *args) {
  PyObject *k, *dflt = NULL;
  if (!PyArg_ParseTuple(args, "O|O:pop", &k, &dflt)) return NULL;
  char *v = dict_find(self, k);
  if (!v) {
    if (dflt) return default_as_value(self, dflt);
    PyErr_SetObject(PyExc_KeyError, k);
    return NULL;
  }
  PyObject *r = box_item(dict_value_type_of(self), v);
  if (r && dict_ass_subscript(self, k, NULL) < 0) Py_CLEAR(r);
  return r;
}

static PyObject *dict_setdefault(DictObject *self, PyObject *args) {
  PyObject *k, *dflt;
  if (!PyArg_ParseTuple(args, "OO:setdefault", &k, &dflt)) return NULL;
  char *v = dict_find(self, k);
  if (v) return box_item(dict_value_type_of(self), v);
  if (dict_ass_subscript(self, k, dflt) < 0) return NULL;
  return dict_subscript(self, k);
}

/* The last pair inserted, removed (as dict.popitem: last in, first out). */
static PyObject *dict_popitem(DictObject *self, PyObject *unused) {
  RtDict *d = self->d;
  if (d->used == 0) {
    PyErr_SetString(PyExc_KeyError, "popitem(): dictionary is empty");
    return NULL;
  }
  char *e = rt_dict_entry(d, d->used - 1);
  PyObject *k = key_box(self->key, d->keykind, *(uint64_t *)(e + 8));
  PyObject *v = k ? box_item(dict_value_type_of(self), e + RT_DICT_VALUE) : NULL;
  PyObject *pair = v && dict_ass_subscript(self, k, NULL) == 0 ? PyTuple_Pack(2, k, v) : NULL;
  Py_XDECREF(k); Py_XDECREF(v);
  return pair;
}

/* Pairs from a mapping (anything with keys(), as dict.update reads it) or
 * an iterable of pairs, stored in order: a key given twice keeps its
 * first place and its last value, as in a dict. */
static int dict_merge(DictObject *self, PyObject *from) {
  PyObject *pairs = PyDict_New();
  int rc = !pairs                             ? -1
           : PyObject_HasAttrString(from, "keys") ? PyDict_Merge(pairs, from, 1)
                                                  : PyDict_MergeFromSeq2(pairs, from, 1);
  PyObject *k, *v;
  for (Py_ssize_t at = 0; rc == 0 && PyDict_Next(pairs, &at, &k, &v);) rc = dict_ass_subscript(self, k, v);
  Py_XDECREF(pairs);
  return rc;
}

static PyObject *dict_update(DictObject *self, PyObject *args, PyObject *kw) {
  PyObject *from = NULL;
  if (!PyArg_UnpackTuple(args, "update", 0, 1, &from)) return NULL;
  if ((from && dict_merge(self, from) < 0) || (kw && dict_merge(self, kw) < 0)) return NULL;
  Py_RETURN_NONE;
}

static PyObject *dict_clear(DictObject *self, PyObject *unused) {
  rt_dict_clear(self->d);
  Py_RETURN_NONE;
}

/* A new typed dict of the same pairs (a shallow copy, as dict.copy). */
static PyObject *dict_copy(DictObject *self, PyObject *unused) {
  RtDict *c = rt_dict_copy(self->d);
  return c ? (PyObject *)dict_wrap(c, self->key, self->value) : PyErr_NoMemory();
}

/* The items as a Python dict. */
static PyObject *dict_plain(DictObject *self) {
  PyObject *items = dict_parts(self, 2), *plain = items ? PyDict_New() : NULL;
  for (Py_ssize_t i = 0; plain && i < PyList_GET_SIZE(items); i++) {
    PyObject *kv = PyList_GET_ITEM(items, i);
    if (PyDict_SetItem(plain, PyTuple_GET_ITEM(kv, 0), PyTuple_GET_ITEM(kv, 1)) < 0) Py_CLEAR(plain);
  }
  Py_XDECREF(items);
  return plain;
}

/* str(d): the items as a dict's, as Numba's typed.Dict prints. */
static PyObject *dict_str(DictObject *self) {
  PyObject *plain = dict_plain(self), *r = plain ? PyObject_Str(plain) : NULL;
  Py_XDECREF(plain);
  return r;
}

static PyObject *dict_repr(DictObject *self) {
  PyObject *plain = dict_plain(self), *r = NULL;
  if (plain)
    r = self->d->keykind < 0 ? PyUnicode_FromFormat("DictType[undefined,undefined](%R)", plain)
                             : PyUnicode_FromFormat("DictType[%s,%s](%R)", dict_key_type_of(self)->name,
                                                    dict_value_type_of(self)->name, plain);
  Py_XDECREF(plain);
  return r;
}

static PyMethodDef dict_methods[] = {
  {"keys", (PyCFunction)dict_keys, METH_NOARGS, "The keys, in insertion order (a list)."},
  {"values", (PyCFunction)dict_values, METH_NOARGS, "The values, in insertion order (a list)."},
  {"items", (PyCFunction)dict_items, METH_NOARGS, "The (key, value) pairs, in insertion order (a list)."},
  {"get", (PyCFunction)dict_get, METH_VARARGS, "d[k] if k is a key, else the default (None)."},
  {"pop", (PyCFunction)dict_pop, METH_VARARGS, "Removes k and returns its value (or the default)."},
  {"setdefault", (PyCFunction)dict_setdefault, METH_VARARGS, "d[k], set to the default first if missing."},
  {"popitem", (PyCFunction)dict_popitem, METH_NOARGS, "Removes the last pair inserted and returns it."},
  {"update", (PyCFunction)(void (*)(void))dict_update, METH_VARARGS | METH_KEYWORDS,
   "Stores the pairs of a mapping or an iterable of pairs, then the keywords'."},
  {"clear", (PyCFunction)dict_clear, METH_NOARGS, "Removes every pair."},
  {"copy", (PyCFunction)dict_copy, METH_NOARGS, "A new typed dict of the same pairs."},
  {"empty", (PyCFunction)(void (*)(void))dict_empty, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
   "An empty dict of key_type keys and value_type values (ruchey.int64, float, ...)."},
  {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, "Dict[key, value] in annotations."},
  {NULL},
};

static PyObject *dict_part_type(DictObject *self, void *value) {
  int kind = value ? self->d->valkind : self->d->keykind;
  if (kind < 0) Py_RETURN_NONE;
  return PyUnicode_FromString(value ? dict_value_type_of(self)->name : dict_key_type_of(self)->name);
}

static PyObject *dict_typed(DictObject *self, void *unused) { return PyBool_FromLong(self->d->keykind >= 0); }

static PyGetSetDef dict_getset[] = {
  {"_typed", (getter)dict_typed, NULL, "Whether the keys' and values' types are known.", NULL},
  {"key_type", (getter)dict_part_type, NULL, "The keys' type's name (None while unknown).", NULL},
  {"value_type", (getter)dict_part_type, NULL, "The values' type's name (None while unknown).", (void *)1},
  {NULL},
};

/* o as a dict of its (key, value) pairs: a dict, a typed.Dict or another mapping. */
static PyObject *plain_dict(PyObject *o) {
  PyObject *d = PyDict_New();
  if (d && PyDict_Merge(d, o, 1) < 0) Py_CLEAR(d);
  return d;
}

static int is_mapping(PyObject *o) {
  if (PyDict_Check(o) || Py_TYPE(o) == &DictType) return 1;
  PyObject *abc = PyImport_ImportModule("collections.abc");
  PyObject *mapping = abc ? PyObject_GetAttrString(abc, "Mapping") : NULL;
  int r = mapping ? PyObject_IsInstance(o, mapping) : -1;
  Py_XDECREF(mapping); Py_XDECREF(abc);
  return r;
}

/* As a Mapping's == and !=: the same pairs, in any order, against any
 * mapping; no order (<), and no hash, as a mutable mapping's. */
static PyObject *dict_richcompare(DictObject *self, PyObject *other, int op) {
  int mapping = op == Py_EQ || op == Py_NE ? is_mapping(other) : 0;
  if (mapping < 0) return NULL;
  if (!mapping) Py_RETURN_NOTIMPLEMENTED;
  PyObject *a = plain_dict((PyObject *)self), *b = a ? plain_dict(other) : NULL;
  PyObject *r = b ? PyObject_RichCompare(a, b, op) : NULL;
  Py_XDECREF(a); Py_XDECREF(b);
  return r;
}

static PyMappingMethods dict_as_mapping = {
  .mp_length = (lenfunc)dict_len,
  .mp_subscript = (binaryfunc)dict_subscript,
  .mp_ass_subscript = (objobjargproc)dict_ass_subscript,
};

static PySequenceMethods dict_as_sequence = {.sq_contains = (objobjproc)dict_contains};

static PyTypeObject DictType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ruchey.typed.Dict",
  .tp_basicsize = sizeof(DictObject),
  .tp_dealloc = (destructor)dict_dealloc,
  .tp_repr = (reprfunc)dict_repr,
  .tp_str = (reprfunc)dict_str,
  .tp_as_mapping = &dict_as_mapping,
  .tp_as_sequence = &dict_as_sequence,
  .tp_iter = (getiterfunc)dict_iter,
  .tp_richcompare = (richcmpfunc)dict_richcompare,
  .tp_hash = PyObject_HashNotImplemented,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A dict of numbers of two types, shared with compiled code without copying (numba.typed.Dict).",
  .tp_methods = dict_methods,
  .tp_getset = dict_getset,
  .tp_new = dict_new,
};

bool typed_is_dict_class(PyObject *o) { return o == (PyObject *)&DictType; }

/* ---------------------------------------------------------------- compiled code */

bool typed_is_class(PyObject *o) { return typed_class_kind(o) >= 0; }

int typed_class_kind(PyObject *o) { return o == (PyObject *)&ListType ? TY_LIST : o == (PyObject *)&DictType ? TY_DICT : -1; }

const Type *typed_typeof(PyObject *o) {
  if (Py_TYPE(o) == &ListType) {
    RtList *l = ((ListObject *)o)->l;
    const Type *item = ((ListObject *)o)->item;
    return l->kind < 0 ? NULL : core_api()->list(item ? item : &core_plain[l->kind]);
  }
  if (Py_TYPE(o) == &DictType) {
    RtDict *d = ((DictObject *)o)->d;
    const Type *key = ((DictObject *)o)->key, *value = ((DictObject *)o)->value;
    return d->keykind < 0 ? NULL : core_api()->dict(key ? key : &core_plain[d->keykind], value ? value : &core_plain[d->valkind]);
  }
  return NULL;
}

PyObject *typed_refusal(PyObject *o) {
  if (Py_TYPE(o) == &ListType || Py_TYPE(o) == &DictType)
    return PyUnicode_FromString("is an empty typed container whose item types are unknown: make it with "
                                "List.empty_list(type) or Dict.empty(key_type, value_type)");
  if (PyList_Check(o) && !typed_pylist_typeof(o)) return typed_pylist_refusal(o);
  if (PyDict_Check(o))
    return PyUnicode_FromString("is a Python dict, which compiled code does not take: pass a ruchey.typed.Dict");
  if (PyFrozenSet_Check(o)) return PyUnicode_FromString("is a frozenset, which compiled code does not take: pass a set");
  if (PyAnySet_Check(o) && !PySet_GET_SIZE(o))
    return PyUnicode_FromString("is an empty set, whose item type is unknown: compiled code takes sets of numbers, "
                                "bools or str");
  if (PyAnySet_Check(o))
    return PyUnicode_FromString("is a set whose items are not numbers, bools, str or tuples of these (hashable items of one type)");
  return NULL;
}

void *typed_container(PyObject *o) {
  return Py_TYPE(o) == &ListType ? (void *)((ListObject *)o)->l : (void *)((DictObject *)o)->d;
}

/* ---------------------------------------------------------------- containers of objects */

/* A list goes back to Python as Numba returns it: a list display, a
 * comprehension, list(), sorted() or a Python list's copy (Numba's
 * reflected list) as a Python list; one typed.List made (RtList.typed) as
 * a typed.List, whatever its items (arrays too). A Python list's items
 * are made while the call's arguments still hold theirs, as compiled code
 * only borrows an argument array it stores (its meminfo NULL); a typed
 * container's borrowed arrays are made to keep their objects
 * (typed_keep_arrays). A dict stays a typed.Dict, in a Python list too,
 * as Numba's (a cache of arrays one compiled function makes and another
 * reads, a dict keyed by tuples too). */
static bool python_container(const Type *t, void *c) { return t->kind == TY_LIST && !((RtList *)c)->typed; }

static PyObject *python_copy(const Type *t, void *c);

/* The item at p of a Python list as a new Python object, the container
 * keeping its reference: a typed.List or typed.Dict inside it shared, as
 * box_item's. */
static PyObject *box_object(const Type *t, char *p) {
  if ((t->kind == TY_LIST || t->kind == TY_DICT) && !python_container(t, *(void **)p)) {
    typed_keep_arrays(t, *(void **)p);
    return box_item(t, p);
  }
  if (t->kind == TY_LIST || t->kind == TY_DICT) return python_copy(t, *(void **)p);
  return box_held(t, p);
}

static PyObject *python_list(const Type *t, RtList *l) {
  PyObject *r = PyList_New(l->len);
  for (int64_t i = 0; r && i < l->len; i++) {
    PyObject *item = box_object(t->elem, l->data + i * l->itemsize);
    if (!item) Py_CLEAR(r);
    else PyList_SET_ITEM(r, i, item);
  }
  return r;
}

static PyObject *python_dict(const Type *t, RtDict *d) {
  PyObject *r = PyDict_New();
  for (int64_t i = 0; r && i < d->nentries; i++) {
    char *e = d->entries + i * d->entsize;
    if (*(int64_t *)e == RT_DELETED) continue;
    PyObject *k = key_box(t->fields[0], d->keykind, *(uint64_t *)(e + 8));
    PyObject *v = k ? box_object(t->fields[1], e + RT_DICT_VALUE) : NULL;
    if (!v || PyDict_SetItem(r, k, v) < 0) Py_CLEAR(r);
    Py_XDECREF(k);
    Py_XDECREF(v);
  }
  return r;
}

static PyObject *python_copy(const Type *t, void *c) {
  return t->kind == TY_LIST ? python_list(t, c) : python_dict(t, c);
}

/* c as a typed.List or typed.Dict of type t: one compiled code made
 * empty and never typed (List() alone, [List()]'s item) keeps no item type,
 * as List() in Python. */
static PyObject *container_object(const Type *t, void *c) {
  if (t->kind == TY_LIST) return (PyObject *)list_wrap(c, t->elem ? kept_type(t->elem) : NULL);
  return (PyObject *)dict_wrap(c, t->nfields ? kept_type(t->fields[0]) : NULL, t->nfields ? kept_type(t->fields[1]) : NULL);
}

/* A container compiled code returned (its reference handed over). */
PyObject *typed_box(const Type *t, void *c) {
  if (python_container(t, c)) {
    PyObject *r = python_copy(t, c);
    if (t->kind == TY_LIST) rt_list_release(c);
    else rt_dict_release(c);
    return r;
  }
  typed_keep_arrays(t, c);  /* (a list of bytes: those of arguments it borrows) */
  return container_object(t, c);
}

/* An item or value read from Python: a typed container the one held,
 * shared (not copied, as a container compiled code returns may be); an
 * array the array object stored where it was one. */
static PyObject *box_item(const Type *t, char *p) {
  if (t->kind != TY_LIST && t->kind != TY_DICT) return box_held(t, p);
  void *c = *(void **)p;
  __atomic_add_fetch((int64_t *)c, 1, __ATOMIC_ACQ_REL);
  return container_object(t, c);
}

/* ---------------------------------------------------------------- arrays compiled code stored */

/* Compiled code stores an argument array in a container as it is
 * (borrowed: its meminfo NULL), which is safe in a container the call
 * made; one made in Python outlives the call, so after it each array
 * borrowed there is made to keep its Python object alive (rt_array_keep),
 * in the containers inside too. */
static bool may_borrow(const Type *t) {
  if (!t) return false;
  if (t->kind == TY_ARRAY || t->kind == TY_BYTES) return true;
  if (t->kind == TY_LIST) return may_borrow(t->elem);
  if (t->kind == TY_DICT) return t->nfields && may_borrow(t->fields[1]);
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (may_borrow(t->fields[i])) return true;
  return false;
}

static void keep_borrowed(const Type *t, char *p);

static void keep_borrowed_in(const Type *t, void *c) {
  if (t->kind == TY_LIST) {
    RtList *l = c;
    for (int64_t i = 0; i < l->len; i++) keep_borrowed(t->elem, l->data + i * l->itemsize);
    return;
  }
  RtDict *d = c;
  for (int64_t i = 0; i < d->nentries; i++) {
    char *e = d->entries + i * d->entsize;
    if (*(int64_t *)e != RT_DELETED) keep_borrowed(t->fields[1], e + RT_DICT_VALUE);
  }
}

static void keep_borrowed(const Type *t, char *p) {
  if (t->kind == TY_ARRAY || t->kind == TY_BYTES) rt_array_keep((RtArray *)p);
  if ((t->kind == TY_LIST || t->kind == TY_DICT) && may_borrow(t)) keep_borrowed_in(t, *(void **)p);
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++) keep_borrowed(t->fields[i], p + t->offsets[i]);
}

void typed_keep_arrays(const Type *t, void *c) {
  if (!may_borrow(t)) return;
  keep_borrowed_in(t, c);
}

/* ---------------------------------------------------------------- Python sets */

/* A Python set argument, as Numba's reflected set: its items copied into a
 * new RtDict for the call, and the set made equal to it after the call
 * (typed_set_reflect), so that what compiled code adds or removes is seen. */

/* The item kind of a Python item: bool, int64, float64, complex128, str,
 * a NumPy scalar's; -1 for others. */
static int set_item_kind(PyObject *o) {
  if (PyUnicode_CheckExact(o)) return TY_STR;
  if (PyBool_Check(o)) return TY_BOOL;
  if (PyLong_CheckExact(o)) return TY_I64;
  if (PyFloat_CheckExact(o)) return TY_F64;
  if (PyComplex_CheckExact(o)) return TY_C128;
  const Type *t = disp_typeof(o);
  return t && ty_is_scalar(t) && t->kind != TY_F16 ? (int)t->kind : -1;
}

/* A tuple of up to RT_KEY_FIELDS numbers, bools and strs, as a set's
 * item: its type; NULL for others. */
static const Type *set_tuple_item(PyObject *o) { return PyTuple_CheckExact(o) ? key_tuple(disp_typeof(o)) : NULL; }

/* A typed.Set's key_type (of a subclass of set that has one) as a set's
 * item type; NULL for others. */
static const Type *declared_item_type(PyObject *o) {
  PyObject *k = attr_or_null(o, "key_type");
  const Type *t = k && k != Py_None ? type_of_type(k) : NULL;
  Py_XDECREF(k);
  PyErr_Clear();
  return t && (ty_is_scalar(t) || t->kind == TY_STR || key_tuple(t)) ? interned(t) : NULL;
}

/* set(item) as a signature names it (types.Set(int64)); NULL with a
 * TypeError for items no set holds (arrays, lists). */
const Type *typed_set_type(const Type *item) {
  if ((ty_is_scalar(item) && item->kind != TY_F16) || item->kind == TY_STR || key_tuple(item))
    return core_api()->set(interned(item));
  PyErr_Format(PyExc_TypeError, "types.Set(%s): a set holds numbers, bools, str or tuples of them", item->name);
  return NULL;
}

/* set(item), its item type a typed.Set's key_type or the first item's
 * (checked against the others when unboxed); NULL for an empty set or
 * unsupported items. */
const Type *typed_set_typeof(PyObject *o) {
  const Type *declared = PySet_CheckExact(o) ? NULL : declared_item_type(o);
  if (declared) return core_api()->set(declared);
  PyObject *it = PySet_GET_SIZE(o) ? PyObject_GetIter(o) : NULL, *item = it ? PyIter_Next(it) : NULL;
  int kind = item ? set_item_kind(item) : -1;
  const Type *tuple = item && kind < 0 ? set_tuple_item(item) : NULL;
  Py_XDECREF(item);
  Py_XDECREF(it);
  PyErr_Clear();
  if (tuple) return core_api()->set(tuple);
  return kind < 0 ? NULL : core_api()->set(&core_plain[kind]);
}

/* A tuple field o of type t as its key bits: a number's and a str's as
 * key_bits makes them, a tuple's and a complex number's a new RtTupleKey
 * (drop_key frees it after). */
static int field_key_bits(PyObject *o, const Type *t, uint64_t *bits) {
  if (!field_in_memory((int)t->kind)) return key_bits((int)t->kind, o, bits);
  RtTupleKey *k = malloc(RT_TUPLE_KEY_SIZE(t->kind == TY_TUPLE ? t->nfields : 2));
  int rc = !k                      ? (PyErr_NoMemory(), -1)
           : t->kind == TY_TUPLE ? (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == t->nfields
                                        ? tuple_key_bits(o, t, k)
                                        : (PyErr_Format(PyExc_TypeError, "expected a tuple for %s, got %R", t->name, o), -1))
                                 : scalar_key((int)t->kind, o, k, bits);
  if (rc < 0) free(k);
  else *bits = (uint64_t)(uintptr_t)k;
  return rc;
}

/* A tuple item o (of type t) as the RtTupleKey compiled code would make:
 * each number's key bits, a float's kind float64, a str's a new RtStr
 * (drop_key releases them after). */
static int tuple_key_bits(PyObject *o, const Type *t, RtTupleKey *k) {
  k->n = 0;
  for (int i = 0; i < t->nfields; i++) {
    int kind = (int)t->fields[i]->kind;
    k->fields[i].kind = kind == TY_F32 ? TY_F64 : kind;
    if (field_key_bits(PyTuple_GET_ITEM(o, i), t->fields[i], &k->fields[i].bits) < 0) {
      drop_key(TY_TUPLE, (uint64_t)(uintptr_t)k);
      return -1;
    }
    k->n = i + 1;
  }
  return 0;
}

/* o's items inserted into d, each of kind (a typed.Set's numbers
 * converted to it, as a typed.Dict converts its keys); -1 with a Python
 * error. */
static int set_items_into(RtDict *d, PyObject *o, int kind, const Type *t) {
  PyObject *it = PyObject_GetIter(o), *item;
  bool converted = !PySet_CheckExact(o) && ty_is_scalar(&scalar[kind]);
  while (it && (item = PyIter_Next(it))) {
    uint64_t bits;
    RtTupleKey tuple;  /* a tuple item's or a complex one's, copied by the set */
    int ok = kind == TY_TUPLE ? set_tuple_item(item) == t->fields[0]
             : converted      ? set_item_kind(item) >= 0 && set_item_kind(item) != TY_STR
                              : set_item_kind(item) == kind;
    if (!ok) PyErr_Format(PyExc_TypeError, "a set passed as %s holds %R, of another type: a set's items must have "
                          "one type", t->name, item);
    else if (kind == TY_TUPLE) {
      bits = (uint64_t)(uintptr_t)&tuple;
      if ((ok = tuple_key_bits(item, t->fields[0], &tuple) == 0)) {
        ok = rt_dict_insert(d, bits) != NULL;  /* strs in it: the set takes its own references */
        drop_key(TY_TUPLE, bits);
        if (!ok) PyErr_NoMemory();
      }
    } else if ((ok = scalar_key(kind, item, &tuple, &bits) == 0)) {
      ok = rt_dict_insert(d, bits) != NULL;  /* a str: the set takes its own reference */
      drop_key(kind, bits);
      if (!ok) PyErr_NoMemory();
    }
    Py_DECREF(item);
    if (!ok) break;
  }
  Py_XDECREF(it);
  return PyErr_Occurred() ? -1 : 0;
}

/* d, made of o's items (of type item) in its order, given o's table's
 * layout, so that it iterates as o does after changes too (a str's hash is
 * ruchey's own, not Python's randomized one: a set of strs, or of tuples
 * holding strs, keeps its own table). */
static int mirror_table(RtDict *d, PyObject *o, const Type *item) {
  PySetObject *so = (PySetObject *)o;
  if (item->kind == TY_STR || (item->kind == TY_TUPLE && ty_has_arrays(item)) || d->used != so->used) return 0;
  int64_t *slots = PyMem_Malloc(sizeof(int64_t) * (size_t)(so->mask + 1)), n = 0;
  if (!slots) return 0;
  for (Py_ssize_t i = 0; i <= so->mask; i++)
    slots[i] = !so->table[i].key ? -1 : so->table[i].hash == -1 ? -2 : n++;  /* hash -1: a dummy's */
  int rc = rt_set_mirror(d, so->mask + 1, slots, so->finger);
  PyMem_Free(slots);
  return rc == RT_ERR_MEMORY ? (PyErr_NoMemory(), -1) : 0;
}

int typed_set_unbox(PyObject *o, const Type *t, Slot *slot) {
  int kind = (int)t->fields[0]->kind;
  RtDict *d = PyAnySet_Check(o) ? rt_dict_new(kind, TY_SET, 0) : NULL;
  if (!d) {
    if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "expected a set for %s, got %s", t->name, Py_TYPE(o)->tp_name);
    return -1;
  }
  if (set_items_into(d, o, kind, t) < 0 || mirror_table(d, o, t->fields[0]) < 0) {
    rt_dict_free(d);
    return -1;
  }
  d->changes = 0;  /* (typed_set_reflect) */
  slot->u = (uint64_t)(uintptr_t)d;
  return 0;
}

#if !defined(Py_GIL_DISABLED)
/* The key CPython leaves in a set's slot when its item is removed (its
 * dummy), found as a discard leaves it: Python 3.13 took _PySet_Dummy out
 * of its public headers, while the table it marks stays public. NULL where
 * it cannot be found. */
static PyObject *set_dummy(void) {
  static PyObject *dummy;  /* (an object of the interpreter's own, never freed) */
  if (dummy) return dummy;
  PyObject *s = PySet_New(NULL), *one = PyLong_FromLong(1);
  if (s && one && PySet_Add(s, one) == 0 && PySet_Discard(s, one) == 1) {
    PySetObject *so = (PySetObject *)s;
    for (Py_ssize_t i = 0; i <= so->mask; i++)
      if (so->table[i].hash == -1) dummy = so->table[i].key;
  }
  Py_XDECREF(one);
  Py_XDECREF(s);
  PyErr_Clear();
  return dummy;
}
#endif

/* A Python set laid out as d's table, slot for slot, so that Python
 * iterates, grows and pops it as the compiled set would (both tables are
 * CPython's, containers.c's sets' table); NULL, without an error, where it
 * cannot be: strs (Python's hash is not ruchey's), an item whose hash
 * differs, a free-threaded Python (whose sets are shared between threads). */
static PyObject *set_laid_out(const Type *t, RtDict *d) {
#if !defined(Py_GIL_DISABLED)
  PyObject *dummy = set_dummy();
  if (d->keykind == TY_STR || !d->index || d->fill > d->mask || !dummy) return NULL;
  int64_t size = d->mask + 1, n = 0;
  PyObject **items = PyMem_Calloc((size_t)size, sizeof(PyObject *));
  Py_hash_t *hashes = PyMem_Calloc((size_t)size, sizeof(Py_hash_t));
  bool ok = items && hashes;
  for (int64_t i = 0; ok && i < size; i++) {
    if (d->index[i] < 0) continue;
    char *e = d->entries + d->index[i] * d->entsize;
    items[i] = key_box(t->nfields ? t->fields[0] : NULL, d->keykind, *(uint64_t *)(e + 8));
    hashes[i] = items[i] ? PyObject_Hash(items[i]) : -1;
    ok = items[i] && hashes[i] == *(int64_t *)e;
    n++;
  }
  PySetObject *so = ok && n == d->used ? (PySetObject *)PySet_New(NULL) : NULL;
  setentry *table = !so || size == PySet_MINSIZE ? (so ? so->smalltable : NULL) : PyMem_Calloc((size_t)size, sizeof(setentry));
  if (table) {
    for (int64_t i = 0; i < size; i++) {  /* the items' references handed to the set; a dummy is not counted */
      table[i].key = d->index[i] == -2 ? dummy : items[i];
      table[i].hash = d->index[i] == -2 ? -1 : d->index[i] >= 0 ? hashes[i] : 0;
      items[i] = NULL;
    }
    so->table = table;
    so->mask = (Py_ssize_t)d->mask;
    so->fill = (Py_ssize_t)d->fill;
    so->used = (Py_ssize_t)d->used;
    so->finger = (Py_ssize_t)d->finger;
  } else {
    Py_CLEAR(so);
  }
  for (int64_t i = 0; items && i < size; i++) Py_XDECREF(items[i]);
  PyMem_Free(items);
  PyMem_Free(hashes);
  PyErr_Clear();
  return (PyObject *)so;
#else
  (void)t, (void)d;
  return NULL;
#endif
}

/* A Python set of d's items (its table's layout where set_laid_out can
 * give it); d released (the reference handed over). */
PyObject *typed_set_box(const Type *t, RtDict *d) {
  PyObject *s = set_laid_out(t, d);
  if (s) {
    rt_dict_release(d);
    return s;
  }
  s = PySet_New(NULL);
  for (int64_t i = 0; s && i < d->used; i++) {
    PyObject *item = key_box(t->nfields ? t->fields[0] : NULL, d->keykind, *(uint64_t *)(rt_dict_entry(d, i) + 8));
    if (!item || PySet_Add(s, item) < 0) Py_CLEAR(s);
    Py_XDECREF(item);
  }
  rt_dict_release(d);
  return s;
}

/* o (a set, emptied) given the table of the set laid out (emptied), so
 * that o is what the compiled code made of it, slot for slot. */
static void take_table(PyObject *o, PyObject *laid_out) {
#if !defined(Py_GIL_DISABLED)
  PySetObject *so = (PySetObject *)o, *from = (PySetObject *)laid_out;
  if (from->table == from->smalltable) {
    memcpy(so->smalltable, from->smalltable, sizeof so->smalltable);
    so->table = so->smalltable;
  } else {
    so->table = from->table;
  }
  so->mask = from->mask;
  so->fill = from->fill;
  so->used = from->used;
  so->finger = from->finger;
  memset(from->smalltable, 0, sizeof from->smalltable);
  from->table = from->smalltable;
  from->mask = PySet_MINSIZE - 1;
  from->fill = from->used = 0;
#else
  (void)o, (void)laid_out;
#endif
}

/* After the call: o made to hold d's items where they differ (same size,
 * each of d's items in o: the same set), laid out as d's table where it
 * can be (set_laid_out); d released. */
int typed_set_reflect(PyObject *o, const Type *t, RtDict *d) {
  if (!d->changes) {  /* as Numba's: a set the call did not change keeps its items' objects */
    rt_dict_release(d);
    return 0;
  }
  PyObject *laid_out = PySet_CheckExact(o) ? set_laid_out(t, d) : NULL;
  if (laid_out) {
    int rc = PySet_Clear(o);
    if (!rc) take_table(o, laid_out);
    Py_DECREF(laid_out);
    rt_dict_release(d);
    return rc;
  }
  bool same = PySet_GET_SIZE(o) == d->used;
  for (int64_t i = 0; same && i < d->used; i++) {
    PyObject *item = key_box(t->nfields ? t->fields[0] : NULL, d->keykind, *(uint64_t *)(rt_dict_entry(d, i) + 8));
    same = item && PySet_Contains(o, item) == 1;
    Py_XDECREF(item);
  }
  if (same) {
    rt_dict_release(d);
    return 0;
  }
  int rc = PySet_Clear(o);
  for (int64_t i = 0; !rc && i < d->used; i++) {
    PyObject *item = key_box(t->nfields ? t->fields[0] : NULL, d->keykind, *(uint64_t *)(rt_dict_entry(d, i) + 8));
    rc = item ? PySet_Add(o, item) : -1;
    Py_XDECREF(item);
  }
  rt_dict_release(d);
  return rc;
}

/* ---------------------------------------------------------------- Python lists */

/* A Python list argument, as Numba's reflected list: its items copied
 * into a new RtList for the call (arrays borrowed, as the list holds
 * them), and the list made equal to it after the call, even one that
 * raised (typed_pylist_reflect), so that what compiled code appended,
 * popped or stored is seen. Its type is the first item's, as Numba types
 * it; every item must have that type. */

/* A tuple type of a named tuple class (Point(x, y)), boxed back as one:
 * not a package's value type, whose objects are not tuples. */
static bool is_named_tuple(const Type *t) {
  return t->callee && PyType_Check((PyObject *)t->callee) && PyType_IsSubtype((PyTypeObject *)t->callee, &PyTuple_Type);
}

/* An item type a Python list may have: a number, a bool, a str, an array,
 * or a tuple of these and jitclass instances (with at most RT_HELD_FIELDS
 * strs, arrays and instances), named or not. */
static bool pylist_item(const Type *t, int *refs) {
  if (t->kind == TY_STR || t->kind == TY_ARRAY || t->kind == TY_CLASS) return ++*refs <= RT_HELD_FIELDS;
  if (ty_is_enum(t)) return ty_is_scalar(t->elem);  /* a member of a class of numbers: its number, boxed back a member */
  if (ty_is_scalar(t)) return true;  /* float16 too: a list of them compiled code made comes back a Python list */
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (!pylist_item(t->fields[i], refs)) return false;
  return t->kind == TY_TUPLE && (!t->callee || is_named_tuple(t));
}

const Type *typed_pylist_typeof(PyObject *o) {
  static const Type *last_item, *last_list;  /* the GIL guards them */
  PyObject *first = PyList_GET_SIZE(o) ? PyList_GET_ITEM(o, 0) : NULL;
  const Type *item = first && !PyList_Check(first) ? disp_typeof(first) : NULL;
  if (item && item->kind == TY_FUNCTION) item = core_api()->funcs(1, &item);  /* [f]: Numba's list of f's type */
  int refs = 0;
  bool shared = item && ty_is_container(item) && typed_object(first);  /* typed.Lists and Dicts, shared with the call */
  if (!item || !(pylist_item(item, &refs) || item->kind == TY_CLASS || item->kind == TY_FUNCS || shared)) {  /* (a list's items, not a tuple's) */
    PyErr_Clear();
    return NULL;
  }
  if (item != last_item) {
    last_list = core_api()->list(item);
    last_item = item;
  }
  return last_list;
}

/* A list of lists, refused as an argument as Numba refuses it (it cannot
 * reflect one), is taken where a signature declares a typed List of lists
 * (ListType(List(int64))): ruchey returns a List of lists compiled code
 * made as a Python list of Python lists, where Numba returns a typed List,
 * which such a signature then takes back. Its type is its first list's,
 * one level deep; NULL for others. */
const Type *typed_pylist_of_lists(PyObject *o) {
  PyObject *first = PyList_Check(o) && PyList_GET_SIZE(o) ? PyList_GET_ITEM(o, 0) : NULL;
  const Type *item = first && PyList_CheckExact(first) ? typed_pylist_typeof(first) : NULL;
  PyErr_Clear();
  return item ? core_api()->list(item) : NULL;
}

PyObject *typed_pylist_refusal(PyObject *o) {
  if (!PyList_GET_SIZE(o))
    return PyUnicode_FromString("is an empty list, whose item type cannot be known (Numba: cannot compute "
                                "fingerprint of empty list): pass typed.List.empty_list(item_type)");
  PyObject *first = PyList_GET_ITEM(o, 0);
  if (PyList_Check(first))
    return PyUnicode_FromString("is a list of lists, which compiled code does not take (as Numba: cannot "
                                "reflect element of reflected container): pass a typed.List of typed.Lists");
  const Type *t = disp_typeof(first);
  PyErr_Clear();
  if (t)
    return PyUnicode_FromFormat("is a list of %s, which compiled code does not take as a Python list (numbers, "
                                "bools, str, arrays and tuples of these, jitclass instances, compiled functions, "
                                "typed Lists and Dicts are taken)", t->name);
  PyObject *why = disp_refusal(first);
  PyObject *r = why ? PyUnicode_FromFormat("is a list whose item 0 %U", why) : NULL;
  Py_XDECREF(why);
  return r;
}

/* The Python item o stored at p as an item of type t (a str a new one
 * the list holds, an array borrowed, a typed container shared where the
 * list's are: a reference it holds); -1 with a TypeError where o is of
 * another type. */
static int pylist_store(const Type *t, PyObject *o, char *p, Py_ssize_t i, bool shared) {
  if (t->kind == TY_F64 && PyFloat_CheckExact(o)) {
    *(double *)p = PyFloat_AS_DOUBLE(o);
    return 0;
  }
  if (t->kind == TY_FUNCS) return store_function(t, o, p);  /* its number among the list's functions */
  const Type *have = t->kind == TY_I64 && PyLong_CheckExact(o) ? t : disp_typeof(o);
  if (have != t) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_TypeError, "can't unbox heterogeneous list: item %zd is %s, the first %s (a list's items "
                   "must have one type)", i, have ? have->name : Py_TYPE(o)->tp_name, t->name);
    return -1;
  }
  if (t->kind == TY_TUPLE && disp_unbox_tuple(o, t, p) < 0) return -1;
  if (t->kind == TY_TUPLE) return retain_borrowed(t, p), 0;  /* its instances too: references the list holds */
  if (t->kind == TY_CLASS) return store_instance(t, o, p);  /* a reference the list holds, as a list compiled code made */
  if (shared && !typed_object(o)) {  /* typed containers and Python lists not mixed, as Numba's types differ */
    PyErr_Format(PyExc_TypeError, "can't unbox heterogeneous list: item %zd is a %s, the first a typed %s", i,
                 Py_TYPE(o)->tp_name, t->kind == TY_LIST ? "List" : "Dict");
    return -1;
  }
  if (shared) return store_value(t, o, p);
  if (t->kind == TY_LIST && !PyList_Check(o)) {  /* a typed List's is borrowed: only Python lists in a list of lists */
    PyErr_Format(PyExc_TypeError, "can't unbox heterogeneous list: item %zd is a %s, the first a list", i,
                 Py_TYPE(o)->tp_name);
    return -1;
  }
  Slot slot;
  void *arg;
  if (disp_unbox(o, t, &slot, (RtArray *)p, &arg) < 0) return -1;
  if (t->kind != TY_ARRAY) memcpy(p, arg, t->kind == TY_STR ? sizeof(RtStr *) : t->size);
  return 0;
}

int typed_pylist_unbox(PyObject *o, const Type *t, Slot *slot) {
  const Type *elem = t->elem;
  Py_ssize_t n = PyList_GET_SIZE(o);
  RtList *l = rt_list_new((int32_t)elem->kind, (int64_t)elem->size, n);
  if (!l) {
    PyErr_NoMemory();
    return -1;
  }
  int32_t kinds[RT_HELD_FIELDS];
  int64_t offsets[RT_HELD_FIELDS];
  if (elem->kind == TY_TUPLE) rt_list_hold(l, rt_held_fields(elem, 0, 0, RT_HELD_FIELDS, kinds, offsets), kinds, offsets);
  bool shared = n && typed_object(PyList_GET_ITEM(o, 0));
  for (Py_ssize_t i = 0; i < n; i++, l->len++)
    if (pylist_store(elem, PyList_GET_ITEM(o, i), l->data + i * l->itemsize, i, shared) < 0) {
      rt_list_release(l);  /* the items stored so far, with the strs they hold */
      return -1;
    }
  slot->u = (uint64_t)(uintptr_t)l;
  return 0;
}

/* Whether the Python item o is what the item at p (of type t) was made
 * from: the same number, str, array (the object, its data, shape and
 * strides) or tuple of these. */
static bool pylist_same(const Type *t, PyObject *o, const char *p) {
  if (t->kind == TY_F64 && PyFloat_CheckExact(o)) {
    double x = PyFloat_AS_DOUBLE(o);
    return !memcmp(p, &x, 8);  /* a NaN is itself, -0.0 not 0.0 */
  }
  if (t->kind == TY_TUPLE) {
    PyTypeObject *cls = t->callee ? (PyTypeObject *)t->callee : &PyTuple_Type;  /* a named tuple stays one */
    if (Py_TYPE(o) != cls || PyTuple_GET_SIZE(o) != t->nfields) return false;
    for (int i = 0; i < t->nfields; i++)
      if (!pylist_same(t->fields[i], PyTuple_GET_ITEM(o, i), p + t->offsets[i])) return false;
    return true;
  }
  if (t->kind == TY_ARRAY) {
    return disp_same_array(t, (const RtArray *)p, o);
  }
  if (t->kind == TY_STR) {
    const RtStr *s = *(RtStr *const *)p;
    if (!PyUnicode_Check(o) || PyUnicode_GET_LENGTH(o) != s->len) return false;
    int kind = PyUnicode_KIND(o);
    const void *data = PyUnicode_DATA(o);
    for (int64_t i = 0; i < s->len; i++)
      if (PyUnicode_READ(kind, data, i) != s->data[i]) return false;
    return true;
  }
  if (disp_typeof(o) != t) {
    PyErr_Clear();
    return false;
  }
  Slot slot;
  void *arg;
  if (disp_unbox(o, t, &slot, NULL, &arg) < 0) {
    PyErr_Clear();
    return false;
  }
  return !memcmp(arg, p, t->size);
}

/* A list of lists: each inner list the call had made equal to its
 * RtList, in place (the same objects, as Python code holding them sees
 * them); new ones for items beyond them; then the outer list's items. */
static int reflect_lists(PyObject *o, const Type *t, RtList *l) {
  PyObject *items = PyList_New(l->len);
  for (int64_t i = 0; items && i < l->len; i++) {
    RtList *inner = *(RtList **)(l->data + i * l->itemsize);
    PyObject *was = i < PyList_GET_SIZE(o) ? PyList_GET_ITEM(o, i) : NULL, *item = NULL;
    if (was && PyList_CheckExact(was)) {
      __atomic_add_fetch(&inner->refcount, 1, __ATOMIC_ACQ_REL);  /* typed_pylist_reflect releases it */
      if (typed_pylist_reflect(was, t->elem, inner) == 0) item = Py_NewRef(was);
    } else {
      item = python_list(t->elem, inner);
    }
    if (!item) Py_CLEAR(items);
    else PyList_SET_ITEM(items, i, item);
  }
  int rc = items ? PyList_SetSlice(o, 0, PY_SSIZE_T_MAX, items) : -1;
  Py_XDECREF(items);
  rt_list_release(l);
  return rc;
}

/* A list of typed containers, which the call shared: the arrays it
 * stored in them kept (typed_keep_arrays), and where it changed the list
 * (another container at an index, a length), o made to hold l's items,
 * each o's object where it held that container there, else a new one
 * sharing it (Numba makes them all anew). */
static int reflect_shared(PyObject *o, const Type *t, RtList *l) {
  typed_keep_arrays(t, l);
  Py_ssize_t n = PyList_GET_SIZE(o);
  bool same = n == l->len;
  for (int64_t i = 0; same && i < l->len; i++)
    same = typed_container(PyList_GET_ITEM(o, i)) == *(void **)(l->data + i * l->itemsize);
  PyObject *items = same ? NULL : PyList_New(l->len);
  for (int64_t i = 0; items && i < l->len; i++) {
    char *p = l->data + i * l->itemsize;
    PyObject *was = i < n ? PyList_GET_ITEM(o, i) : NULL;
    PyObject *item = was && typed_object(was) && typed_container(was) == *(void **)p ? Py_NewRef(was) : box_item(t->elem, p);
    if (!item) Py_CLEAR(items);
    else PyList_SET_ITEM(items, i, item);
  }
  int rc = same ? 0 : items ? PyList_SetSlice(o, 0, PY_SSIZE_T_MAX, items) : -1;
  Py_XDECREF(items);
  rt_list_release(l);
  return rc;
}

/* After the call: o made to hold l's items where l differs from what o
 * held (its length, or an item), as Numba writes back a list compiled
 * code changed; l released. Items of numbers are replaced one by one where
 * they differ; items holding arrays are all made before o lets go of any,
 * since an array o held may be one that only o kept alive. */
int typed_pylist_reflect(PyObject *o, const Type *t, RtList *l) {
  if (ty_is_container(t->elem) && PyList_GET_SIZE(o) && typed_object(PyList_GET_ITEM(o, 0))) return reflect_shared(o, t, l);
  if (t->elem->kind == TY_LIST) return reflect_lists(o, t, l);
  const Type *elem = t->elem;
  bool same_length = PyList_GET_SIZE(o) == l->len, in_place = same_length && !ty_has_arrays(elem);
  int64_t i = 0;
  for (; same_length && i < l->len; i++)
    if (!pylist_same(elem, PyList_GET_ITEM(o, i), l->data + i * l->itemsize)) {
      if (!in_place) break;
      PyObject *item = box_held(elem, l->data + i * l->itemsize);
      if (!item || PyList_SetItem(o, i, item) < 0) break;
    }
  bool rebuild = !same_length || (!in_place && i < l->len);
  PyObject *items = rebuild ? PyList_New(l->len) : NULL;
  for (i = 0; items && i < l->len; i++) {
    PyObject *item = box_held(elem, l->data + i * l->itemsize);
    if (!item) Py_CLEAR(items);
    else PyList_SET_ITEM(items, i, item);
  }
  int rc = PyErr_Occurred() ? -1 : rebuild ? PyList_SetSlice(o, 0, PY_SSIZE_T_MAX, items) : 0;
  Py_XDECREF(items);
  rt_list_release(l);
  return rc;
}

int typed_add_to_module(PyObject *m) {
  if (PyType_Ready(&ListType) < 0 || PyType_Ready(&DictType) < 0) return -1;
  if (PyModule_AddObjectRef(m, "List", (PyObject *)&ListType) < 0) return -1;
  return PyModule_AddObjectRef(m, "Dict", (PyObject *)&DictType);
}
