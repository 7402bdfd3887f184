/* jitclass.c — jitclass instances between Python and compiled code.
 *
 * ruchey.experimental.jitclass makes a Python class deriving from the
 * class it compiles and _core.JitObject: each of its instances (a box)
 * holds one reference to the native object (RtObject) and the object's
 * type, so that typing an argument is a field's read and unboxing hands
 * compiled code the pointer (borrowed for the call: mutations are the
 * caller's object's). A compiled result of the type becomes a new box of
 * the class, taking the reference over. The class names its members for
 * compiled code (_ruchey_members: methods; _ruchey_getters,
 * _ruchey_setters: properties), each a dispatcher taking the object first.
 */
#include "frontend.h"
#include "containers.h"

typedef struct {
  PyObject_HEAD
  RtObject *obj;
  const Type *type;
} JitObject;

static void jitobject_dealloc(JitObject *self) {
  if (self->obj) rt_object_release(self->obj);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *jitobject_new(PyTypeObject *cls, PyObject *args, PyObject *kw) {
  PyErr_Format(PyExc_TypeError, "%s instances are made by calling the jitclass", cls->tp_name);
  return NULL;
}

/* For tests and debugging: the native object's reference count. */
static PyObject *jitobject_refcount(JitObject *self, PyObject *unused) {
  return PyLong_FromLongLong(self->obj ? self->obj->refcount : 0);
}

/* An instance's attributes are its class's fields and properties alone. A
 * jitclass is a subclass of its Python class, as Numba's, and so inherits
 * that class's __dict__ where it has one: a name no data descriptor of the
 * class sets would go there, unseen by compiled code. */
static int jitobject_setattro(PyObject *self, PyObject *name, PyObject *value) {
  PyObject *descr = PyUnicode_Check(name) ? _PyType_Lookup(Py_TYPE(self), name) : NULL;
  if (!descr || !Py_TYPE(descr)->tp_descr_set) {
    PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%S'", Py_TYPE(self)->tp_name, name);
    return -1;
  }
  return PyObject_GenericSetAttr(self, name, value);
}

static PyMethodDef jitobject_methods[] = {
  {"_meminfo_refcount", (PyCFunction)jitobject_refcount, METH_NOARGS,
   "How many references the native object has (this box's included)."},
  {NULL},
};

PyTypeObject JitObjectType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "ruchey._core.JitObject",
  .tp_basicsize = sizeof(JitObject),
  .tp_dealloc = (destructor)jitobject_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "An instance of a jitclass: a reference to its native object.",
  .tp_new = jitobject_new,
  .tp_setattro = jitobject_setattro,
  .tp_methods = jitobject_methods,
};

/* ---------------------------------------------------------------- between Python and compiled code */

const Type *jitclass_typeof(PyObject *o) {
  return PyObject_TypeCheck(o, &JitObjectType) ? ((JitObject *)o)->type : NULL;
}

void *jitclass_unbox(PyObject *o) { return ((JitObject *)o)->obj; }

PyObject *jitclass_box(const Type *t, void *obj) {
  PyTypeObject *cls = (PyTypeObject *)t->callee;
  JitObject *box = (JitObject *)cls->tp_alloc(cls, 0);
  if (!box) {
    rt_object_release(obj);
    return NULL;
  }
  box->obj = obj;
  box->type = t;
  return (PyObject *)box;
}

/* A jitclass (the Python class) and its instances' type, or NULL. */
static const Type *class_type(PyObject *cls) {
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &JitObjectType)) return NULL;
  PyObject *cap = PyObject_GetAttrString(cls, "__ruchey_type__");
  const Type *t = cap && PyCapsule_CheckExact(cap) ? PyCapsule_GetPointer(cap, "ruchey.jitclass") : NULL;
  Py_XDECREF(cap);
  PyErr_Clear();
  return t;
}

bool jitclass_is_class(PyObject *o) { return class_type(o) != NULL; }

const Type *jitclass_class_instances(PyObject *cls) {
  const Type *t = class_type(cls);
  return t && t->offsets ? t : NULL;
}

/* Point.class_type.instance_type (an object whose jitclass is the class,
 * its fields defined): the instances' type, or NULL. */
const Type *jitclass_instance_type(PyObject *o) {
  PyObject *cls = PyType_Check(o) ? NULL : PyObject_GetAttrString(o, "jitclass");
  if (!cls) PyErr_Clear();
  const Type *t = cls ? class_type(cls) : NULL;
  Py_XDECREF(cls);
  return t && t->offsets ? t : NULL;
}

/* The allocator a jitclass's constructor calls (an object whose
 * __ruchey_new__ is the class): the instances' type, or NULL. */
const Type *jitclass_new_type(PyObject *o) {
  if (PyType_Check(o) || PyModule_Check(o)) return NULL;
  PyObject *cls = PyObject_GetAttrString(o, "__ruchey_new__");
  if (!cls) PyErr_Clear();
  const Type *t = cls ? class_type(cls) : NULL;
  Py_XDECREF(cls);
  return t;
}

/* The dispatcher a jitclass gives for a member (a borrowed reference, the
 * class keeps it), or NULL: name "=x" asks for property x's setter. */
void *jitclass_member(const Type *t, const char *name, bool attribute) {
  const char *table = !attribute ? "_ruchey_members" : name[0] == '=' ? "_ruchey_setters" : "_ruchey_getters";
  PyObject *members = PyObject_GetAttrString((PyObject *)t->callee, table);
  PyObject *disp = members && PyDict_Check(members) ? PyDict_GetItemString(members, name + (name[0] == '=')) : NULL;
  Py_XDECREF(members);
  PyErr_Clear();
  return disp && PyObject_TypeCheck(disp, &DispatcherType) ? disp : NULL;
}

/* ---------------------------------------------------------------- the type of a class */

static void keeper_retain(void *obj) {
  PyGILState_STATE g = PyGILState_Ensure();
  Py_INCREF((PyObject *)obj);
  PyGILState_Release(g);
}

static void keeper_release(void *obj) {
  PyGILState_STATE g = PyGILState_Ensure();
  Py_DECREF((PyObject *)obj);
  PyGILState_Release(g);
}

void jitclass_keep_objects(const RucheyAPI *api) {
  if (!api) rt_set_object_keeper(keeper_retain, keeper_release);  /* this extension's copy of the containers */
  else api->set_object_keeper(keeper_retain, keeper_release);
}

/* A field's type from its description: ("class", cls), ("list", item),
 * ("dict", key, value), ("optional", value), or ruchey.types' description
 * of the rest. */
static const Type *field_type(PyObject *d) {
  const RucheyAPI *api = core_api();
  const char *tag = PyTuple_Check(d) && PyTuple_GET_SIZE(d) >= 2 && PyUnicode_Check(PyTuple_GET_ITEM(d, 0))
                        ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(d, 0)) : "";
  if (!strcmp(tag, "class")) {
    const Type *t = class_type(PyTuple_GET_ITEM(d, 1));
    if (!t) PyErr_SetString(PyExc_TypeError, "not a jitclass");
    return t;
  }
  if (!strcmp(tag, "optional")) {
    const Type *value = field_type(PyTuple_GET_ITEM(d, 1));
    return value ? api->optional(value) : NULL;
  }
  if (!strcmp(tag, "list")) {
    const Type *item = field_type(PyTuple_GET_ITEM(d, 1));
    return item ? api->list(item) : NULL;
  }
  if (!strcmp(tag, "dict") && PyTuple_GET_SIZE(d) == 3) {
    const Type *k = field_type(PyTuple_GET_ITEM(d, 1)), *v = k ? field_type(PyTuple_GET_ITEM(d, 2)) : NULL;
    return v ? api->dict(k, v) : NULL;
  }
  return disp_described_type(d);
}

/* _core.jitclass_declare(cls): the instances' type made, without fields
 * yet (one per class, kept on the class as __ruchey_type__), so that
 * fields may name the class before jitclass_type gives them; its name
 * returned. */
PyObject *jitclass_declare(PyObject *self, PyObject *cls) {
  const RucheyAPI *api = core_api();
  if (!api) return NULL;
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &JitObjectType))
    return PyErr_Format(PyExc_TypeError, "jitclass_declare takes a jitclass");
  const Type *t = api->jitclass_declare(((PyTypeObject *)cls)->tp_name, cls);
  PyObject *cap = PyCapsule_New((void *)t, "ruchey.jitclass", NULL);
  if (!cap || PyObject_SetAttrString(cls, "__ruchey_type__", cap) < 0) {
    Py_XDECREF(cap);
    return NULL;
  }
  Py_DECREF(cap);
  Py_INCREF(cls);  /* the type names it as long as the process lives */
  return PyUnicode_FromString(t->name);
}

/* _core.jitclass_type(cls, names, descriptions): the declared class's
 * fields given, its full name returned. */
PyObject *jitclass_make_type(PyObject *self, PyObject *args) {
  PyObject *cls, *names, *descs;
  if (!PyArg_ParseTuple(args, "O!O!O!", &PyType_Type, &cls, &PyTuple_Type, &names, &PyTuple_Type, &descs)) return NULL;
  const RucheyAPI *api = core_api();
  Py_ssize_t n = PyTuple_GET_SIZE(names);
  const Type *t = class_type(cls);
  if (!api) return NULL;
  if (n != PyTuple_GET_SIZE(descs) || n > 256 || !t) return PyErr_Format(PyExc_ValueError, "invalid jitclass description");
  const Type *fields[256];
  const char *cnames[257];
  for (Py_ssize_t i = 0; i < n; i++) {
    if (!(fields[i] = field_type(PyTuple_GET_ITEM(descs, i)))) return NULL;
    if (!(cnames[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i)))) return NULL;
  }
  cnames[n] = ((PyTypeObject *)cls)->tp_name;
  api->jitclass_define(t, (int)n, fields, cnames);
  return PyUnicode_FromString(t->name);
}

int jitclass_add_to_module(PyObject *m) {
  if (PyType_Ready(&JitObjectType) < 0) return -1;
  return PyModule_AddObjectRef(m, "JitObject", (PyObject *)&JitObjectType);
}
