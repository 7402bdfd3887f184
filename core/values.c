/* values.c — value types of a package's own (numba.extending's
 * typeof_impl, StructModel, unbox and box; ruchey/_values.py reads them):
 * an object of a class registered here is typed and unboxed as the named
 * tuple of its members its converter makes (what the package's unbox
 * reads of its attributes); such a named tuple is typed as any, and a
 * result of its type is boxed by its boxer (the package's box, recorded as
 * a call of its Python class) rather than by calling its class. A class
 * with a `_numba_type_` attribute (Numba's undocumented typeof, which
 * clifford's MultiVector has) goes to one converter reading it. A global
 * or closure object of such a class is frozen as the named tuple its
 * type's lower_constant makes.
 */
#include "core.h"

static PyObject *converters;  /* the package's class -> converter(obj) -> the named tuple of its members */
static PyObject *boxers;      /* that named tuple's class -> boxer(*members) -> the package's object */
static PyObject *by_numba_type;  /* converter(obj) of an object whose class has _numba_type_; None: not a value */
static PyObject *constant_of;    /* constant(obj) -> the named tuple a global is frozen as (lower_constant) */
static PyObject *later;  /* "module.qualname" of a class -> register(): registers it where first needed */

static PyObject *own_dict(PyObject **d) {
  if (!*d) *d = PyDict_New();
  return *d;
}

PyObject *core_value_class(PyObject *self, PyObject *args) {
  PyObject *cls, *converter;
  if (!PyArg_ParseTuple(args, "O!O", &PyType_Type, &cls, &converter)) return NULL;
  if (!own_dict(&converters) || PyDict_SetItem(converters, cls, converter) < 0) return NULL;
  Py_RETURN_NONE;
}

PyObject *core_value_boxer(PyObject *self, PyObject *args) {
  PyObject *cls, *boxer;
  if (!PyArg_ParseTuple(args, "O!O", &PyType_Type, &cls, &boxer)) return NULL;
  if (!own_dict(&boxers) || PyDict_SetItem(boxers, cls, boxer) < 0) return NULL;
  Py_RETURN_NONE;
}

PyObject *core_value_hooks(PyObject *self, PyObject *args) {
  PyObject *convert, *constant;
  if (!PyArg_ParseTuple(args, "OO", &convert, &constant)) return NULL;
  Py_XSETREF(by_numba_type, Py_NewRef(convert));
  Py_XSETREF(constant_of, Py_NewRef(constant));
  Py_RETURN_NONE;
}

PyObject *core_value_class_later(PyObject *self, PyObject *args) {
  PyObject *name, *reg;
  if (!PyArg_ParseTuple(args, "UO", &name, &reg)) return NULL;
  if (!own_dict(&later) || PyDict_SetItem(later, name, reg) < 0) return NULL;
  Py_RETURN_NONE;
}

/* Registers cls where it was registered for later (a class of a module
 * that is imported only by programs using it, as numpy.polynomial):
 * whether it was, false with an exception where registering failed. */
static bool register_later(PyObject *cls) {
  if (!later || !PyDict_GET_SIZE(later) || !PyType_Check(cls)) return false;
  PyObject *mod = PyObject_GetAttrString(cls, "__module__");
  PyObject *qual = mod ? PyObject_GetAttrString(cls, "__qualname__") : NULL;
  PyObject *key = qual ? PyUnicode_FromFormat("%S.%S", mod, qual) : NULL;
  PyObject *reg = key ? PyDict_GetItemWithError(later, key) : NULL;
  Py_XINCREF(reg);
  if (reg && PyDict_DelItem(later, key) == 0) Py_XSETREF(reg, PyObject_CallNoArgs(reg));
  bool done = reg && !PyErr_Occurred();
  if (!reg && PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();  /* a class without a module's name */
  Py_XDECREF(mod); Py_XDECREF(qual); Py_XDECREF(key); Py_XDECREF(reg);
  return done;
}

PyObject *core_value_register_later(PyObject *self, PyObject *cls) {
  if (register_later(cls)) Py_RETURN_TRUE;
  if (PyErr_Occurred()) return NULL;
  Py_RETURN_FALSE;
}

/* The converter of o's class, borrowed (by_numba_type where the class has
 * _numba_type_ only); NULL, no exception, where there is none. */
static PyObject *converter_of(PyObject *o) {
  PyObject *mro = converters ? Py_TYPE(o)->tp_mro : NULL, *conv = NULL;  /* a subclass's objects too, as Numba's */
  for (Py_ssize_t i = 0; !conv && mro && i < PyTuple_GET_SIZE(mro); i++)
    conv = PyDict_GetItemWithError(converters, PyTuple_GET_ITEM(mro, i));
  if (!conv && !PyErr_Occurred() && register_later((PyObject *)Py_TYPE(o))) return converter_of(o);
  if (!conv && by_numba_type && PyObject_HasAttrString((PyObject *)Py_TYPE(o), "_numba_type_")) conv = by_numba_type;
  return conv;
}

/* o's members as its named tuple (a new reference); NULL, no exception,
 * where o's class is not registered; NULL with the converter's exception
 * where o cannot be converted. */
static PyObject *converted(PyObject *o) {
  PyObject *conv = converter_of(o);
  if (!conv) return NULL;
  PyObject *shadow = PyObject_CallOneArg(conv, o);
  if (shadow == Py_None) Py_CLEAR(shadow);  /* its _numba_type_ is no value type of a package's */
  if (shadow && !PyTuple_Check(shadow)) {
    PyErr_Format(PyExc_TypeError, "the converter of %s gave %R, not a named tuple", Py_TYPE(o)->tp_name, shadow);
    Py_CLEAR(shadow);
  }
  return shadow;
}

PyObject *disp_value_constant(PyObject *o) {
  if (!constant_of || !converter_of(o)) return NULL;
  PyObject *shadow = PyObject_CallOneArg(constant_of, o);
  if (shadow == Py_None) Py_CLEAR(shadow);
  return shadow;
}

const Type *disp_value_typeof(PyObject *o) {
  PyObject *shadow = converted(o);
  const Type *t = shadow ? disp_typeof(shadow) : NULL;
  Py_XDECREF(shadow);
  PyErr_Clear();  /* disp_value_refusal says why */
  return t;
}

PyObject *disp_value_refusal(PyObject *o) {
  PyObject *shadow = converted(o);
  if (shadow) {  /* its members, one of which is refused */
    PyObject *why = disp_refusal(shadow);
    PyObject *r = why ? PyUnicode_FromFormat("is a %s whose members (%R) cannot be passed: %U", Py_TYPE(o)->tp_name,
                                             shadow, why) : NULL;
    Py_DECREF(shadow);
    Py_XDECREF(why);
    return r;
  }
  if (!PyErr_Occurred()) return NULL;
  /* what the package's unbox raised (a function compiled for it failing),
   * as it is, as Numba's; the converter's own TypeError (the object does
   * not fit) and NotImplementedError (code it cannot read) say why here */
  if (!PyErr_ExceptionMatches(PyExc_TypeError) && !PyErr_ExceptionMatches(PyExc_NotImplementedError)) return NULL;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyObject *text = value ? PyObject_Str(value) : NULL;
  PyObject *r = text ? PyUnicode_FromFormat("of type '%s' cannot be passed: %s: %U", Py_TYPE(o)->tp_name,
                                            ((PyTypeObject *)type)->tp_name, text) : NULL;
  Py_XDECREF(text); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
  return r;
}

int disp_unbox_value(PyObject *o, const Type *t, char *p) {
  PyObject *shadow = converted(o);
  if (!shadow) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_TypeError, "expected a tuple of %d items for %s, got %R", t->nfields, t->name, o);
    return -1;
  }
  /* its arrays are the object's (the converter checks that it stores them), alive after shadow goes */
  int rc = (PyObject *)Py_TYPE(shadow) == (PyObject *)t->callee ? disp_unbox_tuple(shadow, t, p) : -1;
  if (rc < 0 && !PyErr_Occurred())
    PyErr_Format(PyExc_TypeError, "expected an object of %s, got %R", t->name, o);
  Py_DECREF(shadow);
  return rc;
}

PyObject *disp_value_boxer(const Type *t) {
  return boxers && t->callee ? PyDict_GetItemWithError(boxers, (PyObject *)t->callee) : NULL;
}
