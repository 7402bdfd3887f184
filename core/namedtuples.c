/* namedtuples.c — named tuples between Python and compiled code: an
 * instance of a class made by collections.namedtuple or typing.NamedTuple
 * is typed as a tuple that names its items and its class (ty_named_tuple),
 * returned as an instance of that class, and the class called in compiled
 * code (Point(x, y=2)) builds one, its arguments bound as Python binds
 * them (keywords, the class's defaults).
 */
#include "frontend.h"

/* The item names of a named tuple class (a new reference), or NULL (no
 * exception) for any other class. */
PyObject *core_namedtuple_fields(PyTypeObject *cls) {
  if (!PyType_IsSubtype(cls, &PyTuple_Type) || cls == &PyTuple_Type) return NULL;
  PyObject *fields = PyObject_GetAttrString((PyObject *)cls, "_fields");
  bool names = fields && PyTuple_Check(fields);
  for (Py_ssize_t i = 0; names && i < PyTuple_GET_SIZE(fields); i++) names = PyUnicode_Check(PyTuple_GET_ITEM(fields, i));
  if (!names) {
    PyErr_Clear();
    Py_CLEAR(fields);
  }
  return fields;
}

/* Keeps cls alive as long as the process, as the types naming it are. */
static bool keep_class(PyObject *cls) {
  static PyObject *kept;
  if (!kept && !(kept = PySet_New(NULL))) return false;
  return PySet_Add(kept, cls) == 0;
}

/* The names as C strings in arena, the class's name last. The class
 * lives as long as the type (a reference is kept for it). */
static const char **names_of(Arena *arena, PyTypeObject *cls, PyObject *fields) {
  Py_ssize_t n = PyTuple_GET_SIZE(fields);
  const char **names = arena_alloc(arena, sizeof(char *) * (size_t)(n + 1));
  for (Py_ssize_t i = 0; i < n; i++) names[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(fields, i));
  const char *dot = strrchr(cls->tp_name, '.');
  names[n] = dot ? dot + 1 : cls->tp_name;
  return names;
}

const Type *disp_named_tuple_type(PyTypeObject *cls, int n, const Type *const *fields) {
  PyObject *names = core_namedtuple_fields(cls);
  if (!names || PyTuple_GET_SIZE(names) != n) {
    Py_XDECREF(names);
    return NULL;
  }
  Arena arena = {0};
  const Type *t = core_api()->named_tuple(n, fields, names_of(&arena, cls, names), cls);
  arena_free(&arena);
  Py_DECREF(names);
  if (!keep_class((PyObject *)cls)) {
    PyErr_Clear();
    return NULL;
  }
  return t;
}

/* A compiled result of a named tuple type: the class called with the items. */
PyObject *disp_box_named(const Type *t, PyObject *items) {
  PyObject *boxer = disp_value_boxer(t);  /* a package's value type: its own object */
  PyObject *r = items ? PyObject_Call(boxer ? boxer : (PyObject *)t->callee, items, NULL) : NULL;
  Py_XDECREF(items);
  return r;
}

/* ---------------------------------------------------------------- Point(x, y=...) in compiled code */

/* The item i's value: the argument given for it, or the class's default. */
static Node *default_item(Fe *fe, PyObject *e, PyObject *cls, PyObject *name) {
  PyObject *defaults = PyObject_GetAttrString(cls, "_field_defaults");
  PyObject *v = defaults && PyDict_Check(defaults) ? PyDict_GetItemWithError(defaults, name) : NULL;
  PyErr_Clear();
  Node *n = v ? fe_frozen_constant(fe, v, e)
              : fe_error(fe, e, "%s() missing required argument '%s'", ((PyTypeObject *)cls)->tp_name, PyUnicode_AsUTF8(name));
  Py_XDECREF(defaults);
  return n;
}

static int field_index(PyObject *fields, PyObject *name) {
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fields); i++)
    if (PyUnicode_Compare(PyTuple_GET_ITEM(fields, i), name) == 0) return (int)i;
  return -1;
}

/* The N_TUPLE t made a named tuple of class cls: it carries the class
 * (callee) and the names (kw_names, the class's name last). */
static Node *named_node(Fe *fe, PyObject *e, Node *t, PyObject *cls, PyObject *fields) {
  const char **names = names_of(fe->arena, (PyTypeObject *)cls, fields);
  for (Py_ssize_t i = 0; i <= PyTuple_GET_SIZE(fields); i++) names[i] = arena_strdup(fe->arena, names[i]);
  t->kw_names = names;
  t->callee = cls;
  if (keep_class(cls)) return t;
  PyErr_Clear();
  return fe_error(fe, e, "out of memory");
}

Node *fe_named_global(Fe *fe, PyObject *e, Node *t, PyObject *obj) {
  PyObject *fields = PyTuple_CheckExact(obj) ? NULL : core_namedtuple_fields(Py_TYPE(obj));
  if (fields && PyTuple_GET_SIZE(fields) == t->list.len) t = named_node(fe, e, t, (PyObject *)Py_TYPE(obj), fields);
  Py_XDECREF(fields);
  return t;
}

/* cls(args): an N_TUPLE of the items in order, named. */
Node *fe_namedtuple_call(Fe *fe, PyObject *e, PyObject *cls, PyObject *fields) {
  PyObject *args = field(e, "args"), *kws = field(e, "keywords");
  int n = (int)PyTuple_GET_SIZE(fields), na = (int)PyList_GET_SIZE(args);
  const char *cname = ((PyTypeObject *)cls)->tp_name;
  Node *t = new_node(fe, N_TUPLE, e);
  t->list = new_list(fe, n);
  t = named_node(fe, e, t, cls, fields);
  if (fe_has_starred(e)) t = fe_error(fe, e, "%s(*args) is not supported in compiled code", cname);
  else if (na > n) t = fe_error(fe, e, "%s() takes %d positional arguments but %d were given", cname, n, na);
  for (int i = 0; t && i < na; i++)
    if (!(t->list.items[i] = fe_expr(fe, PyList_GET_ITEM(args, i)))) t = NULL;
  for (Py_ssize_t k = 0; t && k < PyList_GET_SIZE(kws); k++) {
    PyObject *kw = PyList_GET_ITEM(kws, k), *name = field(kw, "arg"), *value = field(kw, "value");
    int i = name == Py_None ? -2 : field_index(fields, name);
    if (i == -2) t = fe_error(fe, e, "%s(**kwargs) is not supported in compiled code", cname);
    else if (i < 0) t = fe_error(fe, e, "%s() got an unexpected keyword argument '%s'", cname, PyUnicode_AsUTF8(name));
    else if (t->list.items[i]) t = fe_error(fe, e, "%s() got multiple values for argument '%s'", cname, PyUnicode_AsUTF8(name));
    else if (!(t->list.items[i] = fe_expr(fe, value))) t = NULL;
    Py_DECREF(name); Py_DECREF(value);
  }
  for (int i = 0; t && i < n; i++)
    if (!t->list.items[i] && !(t->list.items[i] = default_item(fe, e, cls, PyTuple_GET_ITEM(fields, i)))) t = NULL;
  Py_DECREF(args); Py_DECREF(kws);
  return t;
}
