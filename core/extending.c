/* extending.c — what compiled code calls through ruchey.extending
 * (register_jitable, overload, overload_method, overload_attribute).
 *
 * The Python module keeps the registrations; a function it registered is
 * a dispatcher here: register_jitable's compiles the function itself, an
 * overload's is generic (its _select picks, for the call's argument types,
 * the implementation the typing function returns, a dispatcher of its
 * own). Nothing is asked of Python where ruchey.extending was never
 * imported.
 */
#include <string.h>

#include "core.h"

/* ruchey.extending's function named name, a new reference; NULL, no
 * exception, where the module is not imported. */
static PyObject *extending_function(const char *name) {
  PyObject *modname = PyUnicode_FromString("ruchey.extending");
  PyObject *module = modname ? PyImport_GetModule(modname) : NULL;
  Py_XDECREF(modname);
  PyObject *fn = module ? PyObject_GetAttrString(module, name) : NULL;
  Py_XDECREF(module);
  if (!fn) PyErr_Clear();
  return fn;
}

PyObject *ext_callee(PyObject *obj) {
  PyObject *find = extending_function("_callee");
  PyObject *disp = find ? PyObject_CallOneArg(find, obj) : NULL;
  Py_XDECREF(find);
  if (disp && PyObject_TypeCheck(disp, &DispatcherType)) return disp;
  Py_XDECREF(disp);
  PyErr_Clear();
  return NULL;
}

void *ext_find_member(void *ctx, const Type *receiver, const char *name, bool attribute) {
  void *own = receiver->kind == TY_CLASS ? jitclass_member(receiver, name, attribute) : NULL;
  if (own) return own;  /* a jitclass's; a structref's come from overload_method, as other types' */
  PyObject *find = extending_function("_member");
  PyObject *desc = find ? disp_describe_type(receiver) : NULL;
  PyObject *disp = desc ? PyObject_CallFunction(find, "OsO", desc, name, attribute ? Py_True : Py_False) : NULL;
  Py_XDECREF(find);
  Py_XDECREF(desc);
  bool found = disp && PyObject_TypeCheck(disp, &DispatcherType);
  if (!found) PyErr_Clear();
  Py_XDECREF(disp);  /* the registry keeps it */
  return found ? disp : NULL;
}

/* A builtin function's Python object (numpy.shape), found by its module
 * and attribute path; NULL without an error where there is none. */
static PyObject *builtin_object(const Builtin *bi) {
  PyObject *obj = PyImport_ImportModule(bi->module);
  for (const char *p = bi->path; obj && p && *p;) {
    const char *dot = strchr(p, '.');
    size_t len = dot ? (size_t)(dot - p) : strlen(p);
    PyObject *name = PyUnicode_FromStringAndSize(p, (Py_ssize_t)len);
    Py_SETREF(obj, name ? PyObject_GetAttr(obj, name) : NULL);
    Py_XDECREF(name);
    p += len + (dot != NULL);
  }
  if (!obj) PyErr_Clear();
  return obj;
}

/* A package overloading a NumPy function for its own value type (fast_array_utils'
 * numpy.shape of a sparse matrix) has it called where an argument is one; the
 * builtin is typed as ever for every other argument. */
void *ext_find_overload(void *ctx, const Builtin *bi, const Type *const *args, int nargs) {
  bool value = false;
  for (int i = 0; i < nargs && !value; i++) value = args[i]->kind == TY_TUPLE && args[i]->callee && disp_value_boxer(args[i]);
  if (!value || !bi->module) return NULL;
  PyObject *obj = builtin_object(bi);
  PyObject *disp = obj ? ext_callee(obj) : NULL;
  Py_XDECREF(obj);
  Py_XDECREF(disp);  /* the registry keeps it */
  return disp;
}

/* ruchey._stdlib's function name (a register_jitable one), compiled for
 * the call that a builtin's typer hands it: a borrowed dispatcher, or NULL
 * without an error where there is none. */
void *ext_python_impl(void *ctx, const char *name) {
  (void)ctx;
  PyObject *module = PyImport_ImportModule("ruchey._stdlib");
  PyObject *fn = module ? PyObject_GetAttrString(module, name) : NULL;
  PyObject *disp = fn ? ext_callee(fn) : NULL;
  Py_XDECREF(module);
  Py_XDECREF(fn);
  Py_XDECREF(disp);  /* the registry keeps it */
  if (!disp) PyErr_Clear();
  return disp;
}

/* A constant typing knows (N_INT, N_BOOL, N_STRING) as a Python value;
 * NULL, without an error, for a tuple of them (a shape: its type alone, as
 * Numba types (2, 3) as a UniTuple, not a literal). */
static PyObject *constant_value(const Node *n) {
  if (n->kind == N_BOOL) return PyBool_FromLong((long)n->ival);
  if (n->kind == N_INT) return PyLong_FromLongLong(n->ival);
  if (n->kind == N_STRING) return PyUnicode_DecodeUTF8(n->str, (Py_ssize_t)n->ival, NULL);
  return NULL;
}

/* The arguments' descriptions for ruchey.extending; one whose value is
 * known (consts) as {"type": its description, "literal": its value}; an
 * argument the call omits, bound to the callee's default, as "omitted"
 * where that is None (Numba's overload typing functions see Python's
 * default for it), else with "omitted": true in its dict (a typing
 * function and implementation taking fewer parameters are not given it). */
static PyObject *described_args(const Type *const *args, const Node *const *consts, int nargs) {
  PyObject *t = PyTuple_New(nargs);
  for (int i = 0; t && i < nargs; i++) {
    const Node *c = consts ? consts[i] : NULL;
    if (c && c->kind == N_NONE) {
      PyTuple_SET_ITEM(t, i, PyUnicode_FromString("omitted"));
      continue;
    }
    if (c && c->kind == N_MODULE) c = NULL;
    PyObject *d = disp_describe_type(args[i]);
    PyObject *v = d && c ? constant_value(c) : NULL;
    if (v) d = Py_BuildValue("{sNsN}", "type", d, "literal", v);
    else PyErr_Clear();  /* (a value that cannot be one: the type alone) */
    if (v && d && c->defaulted && PyDict_SetItemString(d, "omitted", Py_True) < 0) Py_CLEAR(d);
    if (!d) Py_CLEAR(t);
    else PyTuple_SET_ITEM(t, i, d);
  }
  return t;
}

/* The exception the typing function raised, as the caller's Diag; where
 * user_errors_through, one that is no NumbaError (a ValueError the typer
 * raises on a bad constant) stays set too, for the compile to raise
 * unchanged, as Numba lets it through. */
static bool select_failed(Diag *diag, bool user_errors_through) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyObject *text = value ? PyObject_Str(value) : NULL;
  bool compilers = type && PyErr_GivenExceptionMatches(type, core_NumbaError);  /* its words alone */
  diag->kind = DIAG_TYPING;
  snprintf(diag->msg, sizeof diag->msg, "%s%s%s", compilers ? "" : type ? ((PyTypeObject *)type)->tp_name : "error",
           compilers ? "" : ": ", text ? PyUnicode_AsUTF8(text) : "?");
  Py_XDECREF(text);
  PyErr_Clear();
  if (user_errors_through && type && !compilers) {
    PyErr_Restore(type, value, tb);
    return false;
  }
  Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
  return false;
}

bool ext_select(Dispatcher **disp, const Type *const *args, const Node *const *consts, int nargs, bool device,
                Diag *diag) {
  PyObject *select = (*disp)->dict ? PyDict_GetItemString((*disp)->dict, "_select") : NULL;  /* borrowed */
  if (!select) return true;
  PyObject *descs = described_args(args, consts, nargs);
  PyObject *chosen = descs ? PyObject_CallFunction(select, "OO", descs, device ? Py_True : Py_False) : NULL;
  Py_XDECREF(descs);
  if (!chosen) return select_failed(diag, true);
  if (chosen == Py_None) {
    PyObject *sig = disp_signature_text(args, nargs);
    PyObject *name = PyObject_GetAttrString((PyObject *)*disp, "__qualname__");
    diag->kind = DIAG_TYPING;
    snprintf(diag->msg, sizeof diag->msg, "no implementation of %s for argument types %s",
             name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "the function", sig ? PyUnicode_AsUTF8(sig) : "?");
    Py_XDECREF(sig);
    Py_XDECREF(name);
    Py_DECREF(chosen);
    PyErr_Clear();
    return false;
  }
  if (!PyObject_TypeCheck(chosen, &DispatcherType)) {
    Py_DECREF(chosen);
    diag->kind = DIAG_TYPING;
    snprintf(diag->msg, sizeof diag->msg, "an overload's typing function must return a Python function or None");
    return false;
  }
  *disp = (Dispatcher *)chosen;
  Py_DECREF(chosen);  /* the overload keeps it */
  return true;
}

/* ---------------------------------------------------------------- @intrinsic */

IntrinsicCall *ext_intrinsic_call(PyObject *obj, Arena *arena) {
  if (PyType_Check(obj) || !PyObject_HasAttrString(obj, "__ruchey_intrinsic__")) {
    PyErr_Clear();
    return NULL;
  }
  IntrinsicCall *call = arena_alloc(arena, sizeof *call);
  *call = (IntrinsicCall){.owner = Py_NewRef(obj)};  /* the code's for good, as it names it */
  return call;
}

/* The intrinsic's __ruchey_intrinsic__(argument descriptions) gives
 * (return description, argument descriptions, IR text), which it keeps;
 * or a dispatcher, which it keeps too (ruchey/intrinsics.py: one that
 * builds a package's value type); or None where an argument is of a type
 * IR cannot take (call->ir left NULL, the caller refusing the argument). */
bool ext_intrinsic_code(void *ctx, IntrinsicCall *call, const Type *const *args, const Node *const *consts, int nargs,
                       Diag *diag) {
  PyObject *descs = described_args(args, consts, nargs);
  PyObject *method = descs ? PyUnicode_FromString("__ruchey_intrinsic__") : NULL;
  PyObject *got = method ? PyObject_CallMethodOneArg(call->owner, method, descs) : NULL;
  Py_XDECREF(method);
  Py_XDECREF(descs);
  if (!got) return select_failed(diag, true);
  if (got == Py_None || PyObject_TypeCheck(got, &DispatcherType)) {
    call->function = got == Py_None ? NULL : got;
    Py_DECREF(got);
    return true;
  }
  PyObject *ret, *argdescs, *ir;
  bool ok = PyArg_ParseTuple(got, "OO!U", &ret, &PyTuple_Type, &argdescs, &ir) && PyTuple_GET_SIZE(argdescs) <= 64;
  ok = ok && (call->ret = disp_described_type(ret)) != NULL;
  call->nargs = ok ? (int)PyTuple_GET_SIZE(argdescs) : 0;
  for (int i = 0; ok && i < call->nargs; i++) {
    PyObject *d = PyTuple_GET_ITEM(argdescs, i);
    if (PyUnicode_Check(d) && i < nargs && args[i]->kind == TY_DTYPE && !strcmp(PyUnicode_AsUTF8(d), args[i]->name))
      call->args[i] = args[i];  /* a scalar type passed as a value, described by its name */
    else
      ok = (call->args[i] = disp_described_type(d)) != NULL;
  }
  call->ir = ok ? PyUnicode_AsUTF8(ir) : NULL;
  Py_DECREF(got);
  if (!ok || !call->ir) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "an intrinsic's signature must be of ruchey types");
    return select_failed(diag, false);
  }
  return true;
}
