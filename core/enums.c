/* enums.c — enum members between Python and compiled code, as Numba's
 * EnumMember and IntEnumMember: a member of an enum.Enum (enum.Flag) or
 * enum.IntEnum class is typed by its class and the type all the class's
 * values share (ty_enum: numbers, bools, str or tuples of numbers), held in compiled code
 * as its value (a str member's for the call, released after it), and boxed
 * as the member of that value, the very object Python has (cls(value)). The
 * frontend freezes the members a function names through their class
 * (Color.RED, Color["RED"]); the class is no value of its own. A member
 * that is an int, a float or a str besides (enum.IntFlag, enum.StrEnum,
 * class C(str, Enum)) but no IntEnum's is that value, as Numba types it.
 */
#include "frontend.h"

/* The enum module's classes, once: Enum, IntEnum, IntFlag. */
enum { ENUM, INT_ENUM, INT_FLAG, BASES };
static PyObject *bases[BASES];
/* The names read on every call, made once: a member's value; a class's
 * map from values to members */
static PyObject *value_name, *map_name;

static bool load_bases(void) {
  if (bases[ENUM]) return true;
  if (!value_name && !(value_name = PyUnicode_InternFromString("_value_"))) return false;
  if (!map_name && !(map_name = PyUnicode_InternFromString("_value2member_map_"))) return false;
  PyObject *module = PyImport_ImportModule("enum");
  static const char *const names[BASES] = {"Enum", "IntEnum", "IntFlag"};
  for (int i = 0; module && i < BASES; i++)
    if (!(bases[i] = PyObject_GetAttrString(module, names[i]))) {
      for (int k = 0; k < i; k++) Py_CLEAR(bases[k]);
      break;
    }
  Py_XDECREF(module);
  PyErr_Clear();
  return bases[ENUM] != NULL;
}

static bool subclass_of(PyObject *o, int base) {
  return PyType_Check(o) && load_bases() && PyType_IsSubtype((PyTypeObject *)o, (PyTypeObject *)bases[base]);
}

bool core_is_enum_class(PyObject *o) { return subclass_of(o, ENUM); }

const char *core_enum_name(PyObject *cls) {
  const char *dot = strrchr(((PyTypeObject *)cls)->tp_name, '.');
  return dot ? dot + 1 : ((PyTypeObject *)cls)->tp_name;
}

/* ---------------------------------------------------------------- a class's type */

/* Each class typed so far: its members' type, or why it has none (a str);
 * the dict keeps the classes alive as long as the types naming them. A
 * direct-mapped table in front keeps an argument's typing off the dict. */
static PyObject *typed_classes;
enum { RECENT = 16 };
static struct { PyTypeObject *cls; const Type *type; } recent[RECENT];

/* A value's type, as Numba types it: an int past int64 a uint64 (as the
 * frontend freezes one), NULL past that. */
static const Type *value_typeof(PyObject *v) {
  if (!PyLong_CheckExact(v)) return disp_typeof(v);
  int overflow;
  PyLong_AsLongLongAndOverflow(v, &overflow);
  if (!overflow) return &core_plain[TY_I64];
  if (overflow > 0) PyLong_AsUnsignedLongLong(v);
  bool fits = overflow > 0 && !PyErr_Occurred();
  PyErr_Clear();
  return fits ? &core_plain[TY_U64] : NULL;
}

/* Whether t is a number, or a tuple of them (nested too). */
static bool numbers(const Type *t) {
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (!numbers(t->fields[i])) return false;
  return t->kind == TY_TUPLE || ty_is_scalar(t);
}

/* A value compiled code holds a member as: a number, a bool, a str, or a
 * tuple of numbers (Python's own example of Enum: the planets' masses and
 * radii), compared item by item as Python's tuples. */
static bool holdable_value(const Type *t) { return t->kind == TY_STR || numbers(t); }

/* Why the values of cls cannot be held, or NULL with *value their type. */
static PyObject *value_type(PyObject *cls, const Type **value) {
  PyObject *members = PyObject_GetAttrString(cls, "__members__");
  PyObject *list = members ? PyMapping_Values(members) : NULL;
  Py_XDECREF(members);
  if (!list) {
    PyErr_Clear();
    return PyUnicode_FromString("its members cannot be read");
  }
  *value = NULL;
  PyObject *why = PyList_GET_SIZE(list) ? NULL : PyUnicode_FromString("it has no members");
  for (Py_ssize_t i = 0; !why && i < PyList_GET_SIZE(list); i++) {
    PyObject *v = PyObject_GetAttrString(PyList_GET_ITEM(list, i), "_value_");
    const Type *t = v ? value_typeof(v) : NULL;
    PyErr_Clear();
    if (!t && v && PyLong_Check(v))
      why = PyUnicode_FromFormat("its value %R fits in neither int64 nor uint64", v);
    else if (!t || !holdable_value(t))
      why = PyUnicode_FromFormat("its values are of type '%s': compiled code holds enum members whose values "
                                 "are numbers, bools, str or tuples of numbers", v ? Py_TYPE(v)->tp_name : "?");
    else if (*value && t != *value)
      why = PyUnicode_FromFormat("its values differ in type (%s and %s): compiled code holds enum members whose "
                                 "values share one type, as Numba", (*value)->name, t->name);
    *value = t;
    Py_XDECREF(v);
  }
  Py_DECREF(list);
  return why;
}

/* The type of cls's members (of ints: each member's value and str(),
 * which print() writes, kept for the process's life as the type is), or
 * the str saying why there is none; a borrowed reference (the dict's),
 * NULL on an error. */
static const Type *member_type(PyObject *cls, const Type *value) {
  TypeKind kind = subclass_of(cls, INT_ENUM) ? TY_INTENUM : TY_ENUM;
  PyObject *list = ty_is_int(value) || value->kind == TY_BOOL ? PySequence_List(cls) : NULL;  /* no aliases */
  Py_ssize_t n = list ? PyList_GET_SIZE(list) : 0;
  int64_t *values = n ? PyMem_RawCalloc((size_t)n, sizeof(int64_t)) : NULL;
  const char **texts = n ? PyMem_RawCalloc((size_t)n, sizeof(char *)) : NULL;
  for (Py_ssize_t i = 0; values && texts && i < n; i++) {
    PyObject *m = PyList_GET_ITEM(list, i), *v = PyObject_GetAttrString(m, "_value_"), *s = PyObject_Str(m);
    const char *u = s ? PyUnicode_AsUTF8(s) : NULL;
    values[i] = v ? (int64_t)PyLong_AsUnsignedLongLongMask(v) : 0;
    texts[i] = u ? strdup(u) : NULL;
    if (!texts[i]) n = 0;  /* print() refuses it */
    Py_XDECREF(v);
    Py_XDECREF(s);
  }
  PyErr_Clear();
  Py_XDECREF(list);
  return core_api()->enum_member(kind, value, cls, core_enum_name(cls), values && texts ? (int)n : 0, values, texts);
}

/* The type of cls's members, or the str saying why there is none; a
 * borrowed reference (the dict's), NULL on an error. */
static PyObject *class_entry(PyObject *cls) {
  if (!typed_classes && !(typed_classes = PyDict_New())) return NULL;
  PyObject *entry = PyDict_GetItemWithError(typed_classes, cls);
  if (entry || PyErr_Occurred()) return entry;
  const Type *value = NULL;
  PyObject *why = value_type(cls, &value);
  entry = why ? why : PyLong_FromVoidPtr((void *)member_type(cls, value));
  int rc = entry ? PyDict_SetItem(typed_classes, cls, entry) : -1;
  Py_XDECREF(entry);
  return rc < 0 ? NULL : PyDict_GetItem(typed_classes, cls);
}

const Type *disp_enum_type(PyObject *cls) {
  PyObject *entry = class_entry(cls);
  PyErr_Clear();
  return entry && PyLong_Check(entry) ? PyLong_AsVoidPtr(entry) : NULL;
}

/* ---------------------------------------------------------------- arguments */

const Type *disp_enum_recent(PyObject *o) {
  PyTypeObject *cls = Py_TYPE(o);
  size_t h = ((uintptr_t)cls >> 4) % RECENT;
  return recent[h].cls == cls ? recent[h].type : NULL;
}

const Type *disp_enum_typeof(PyObject *o) {
  PyTypeObject *cls = Py_TYPE(o);
  size_t h = ((uintptr_t)cls >> 4) % RECENT;
  if (recent[h].cls == cls) return recent[h].type;
  if (!subclass_of((PyObject *)cls, ENUM)) return NULL;
  /* a member that is also an int, a float or a str (IntFlag, StrEnum,
   * class C(str, Enum)) but no IntEnum's: that value, as Numba types it */
  bool plain = !subclass_of((PyObject *)cls, INT_ENUM);
  const Type *t = plain && PyLong_Check(o) ? &core_plain[TY_I64] : plain && PyFloat_Check(o) ? &core_plain[TY_F64]
                  : plain && PyUnicode_Check(o) ? &core_plain[TY_STR] : disp_enum_type((PyObject *)cls);
  if (t) {
    recent[h].cls = cls;  /* (the dict keeps the class) */
    recent[h].type = t;
  }
  return t;
}

PyObject *disp_enum_refusal(PyObject *o) {
  if (!subclass_of((PyObject *)Py_TYPE(o), ENUM)) return NULL;
  PyObject *why = class_entry((PyObject *)Py_TYPE(o));
  if (!why || !PyUnicode_Check(why)) {
    PyErr_Clear();
    return NULL;
  }
  return PyUnicode_FromFormat("is a member of enum class '%s', which compiled code cannot hold: %U",
                              core_enum_name((PyObject *)Py_TYPE(o)), why);
}

int disp_unbox_enum(PyObject *o, const Type *t, Slot *slot, RtArray *arr, void **arg) {
  if ((PyObject *)Py_TYPE(o) != t->callee) {
    PyErr_Format(PyExc_TypeError, "expected a member of %s, got %R", t->name, o);
    return -1;
  }
  PyObject *v = PyObject_GetAttr(o, value_name);  /* (the class's type was checked: the names are made) */
  int rc = v ? disp_unbox(v, t->elem, slot, arr, arg) : -1;  /* (arr: a tuple value's room) */
  Py_XDECREF(v);
  return rc;
}

/* A class's map of values to members, read once per class lately boxed
 * (the class holds it as long as it lives, as the type does the class). */
static struct { const Type *type; PyObject *map; } maps[RECENT];

static PyObject *member_map(const Type *t) {
  size_t h = ((uintptr_t)t >> 4) % RECENT;
  if (maps[h].type == t) return maps[h].map;
  PyObject *map = PyObject_GetAttr((PyObject *)t->callee, map_name);
  Py_XDECREF(map);  /* (borrowed: the class's) */
  if (!map || !PyDict_Check(map)) {
    PyErr_Clear();
    return NULL;
  }
  maps[h].type = t;
  maps[h].map = map;
  return map;
}

/* The member of value v: from the class's map of values to members, as
 * cls(v) finds it without running the class's Python code; else cls(v). */
PyObject *disp_box_enum(const Type *t, char *p) {
  PyObject *v = disp_box(t->elem, p), *map = v ? member_map(t) : NULL;
  PyObject *member = map ? PyDict_GetItemWithError(map, v) : NULL;
  PyErr_Clear();
  member = member ? Py_NewRef(member) : v ? PyObject_CallOneArg((PyObject *)t->callee, v) : NULL;
  Py_XDECREF(v);
  return member;
}

/* ---------------------------------------------------------------- members in compiled code */

/* A member frozen: a call of "enum member" of its value, typed by the
 * member's type (data); NULL (no error) where obj is no enum member. */
Node *fe_enum_member(Fe *fe, PyObject *obj, PyObject *e) {
  if (PyType_Check(obj) || !subclass_of((PyObject *)Py_TYPE(obj), ENUM)) return NULL;
  const Type *t = disp_enum_typeof(obj);
  if (!t) {
    PyObject *why = disp_enum_refusal(obj), *text = PyObject_Repr(obj);
    PyErr_Clear();
    Node *n = fe_error(fe, e, "%s %s", text ? PyUnicode_AsUTF8(text) : "this enum member",
                       why ? PyUnicode_AsUTF8(why) : "cannot be used in compiled code");
    Py_XDECREF(why); Py_XDECREF(text);
    return n;
  }
  PyObject *v = PyObject_GetAttrString(obj, "_value_");
  Node *x = v ? fe_frozen_value(fe, v, e) : NULL;
  Py_XDECREF(v);
  PyErr_Clear();
  if (!x && !fe->diag->kind) return fe_error(fe, e, "cannot read the value of enum member %s", core_enum_name((PyObject *)Py_TYPE(obj)));
  if (!x || !ty_is_enum(t)) return x;  /* an int, float or str besides: its value (disp_enum_typeof) */
  Node *n = fe_call_of(fe, e, "enum member", x);
  if (n) n->data = t;
  return n;
}

/* The member of enum class cls named name (a str object), frozen, or a
 * TypingError naming the class's members. */
Node *fe_enum_named(Fe *fe, PyObject *cls, PyObject *name, PyObject *e) {
  PyObject *members = PyObject_GetAttrString(cls, "__members__");
  PyObject *member = members && PyUnicode_Check(name) ? PyObject_GetItem(members, name) : NULL;
  Py_XDECREF(members);
  PyErr_Clear();
  if (!member)
    return fe_error(fe, e, "enum class '%s' has no member '%s'", core_enum_name(cls),
                    PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "?");
  Node *n = fe_enum_member(fe, member, e);
  Py_DECREF(member);
  return n;
}

/* cls[key] of an enum class: the member of a constant name, as Numba's. */
Node *fe_enum_subscript(Fe *fe, PyObject *cls, PyObject *e) {
  PyObject *s = field(e, "slice"), *key = is_kind(s, "Constant") ? field(s, "value") : NULL;
  Node *n = key && PyUnicode_Check(key)
                ? fe_enum_named(fe, cls, key, e)
                : fe_error(fe, e, "%s[name] in compiled code needs a constant str naming a member (%s['X'])",
                           core_enum_name(cls), core_enum_name(cls));
  Py_XDECREF(key);
  Py_DECREF(s);
  return n;
}
