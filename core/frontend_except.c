/* frontend_except.c — exceptions in a function's syntax tree: raise
 * statements and try/except/else/finally. Exception classes are resolved
 * at compile time, as Numba does; an except clause's classes are matched
 * against ruchey's own runtime errors here, by their status, and against
 * a raise statement's class at run time (by the extension's matcher). */
#include "frontend.h"

/* The symbol compiled code names a class by: "exc:<module>.<qualname>",
 * with "#n" after it where another class took that name first. The class
 * is kept alive (here) for as long as the code may run; the on-disk cache
 * finds classes again by these names (cache.c). */
PyObject *fe_class_symbol(PyObject *cls) {
  static PyObject *by_class, *by_name;  /* class -> name, name -> class */
  if (!by_class && (!(by_class = PyDict_New()) || !(by_name = PyDict_New()))) return NULL;
  PyObject *name = PyDict_GetItemWithError(by_class, cls);
  if (name) return Py_NewRef(name);
  PyObject *module = PyObject_GetAttrString(cls, "__module__");
  PyObject *qualname = PyObject_GetAttrString(cls, "__qualname__");
  PyErr_Clear();
  PyObject *base = PyUnicode_FromFormat("exc:%S.%S", module ? module : Py_None, qualname ? qualname : Py_None);
  Py_XDECREF(module); Py_XDECREF(qualname);
  name = base ? Py_NewRef(base) : NULL;
  for (int k = 1; name && PyDict_Contains(by_name, name) == 1; k++)
    Py_SETREF(name, PyUnicode_FromFormat("%U#%d", base, k));
  Py_XDECREF(base);
  if (!name || PyDict_SetItem(by_class, cls, name) < 0 || PyDict_SetItem(by_name, name, cls) < 0) {
    Py_XDECREF(name);
    return NULL;
  }
  return name;
}

static const char *class_symbol(Fe *fe, PyObject *cls) {
  PyObject *name = fe_class_symbol(cls);
  const char *symbol = name ? arena_strdup(fe->arena, PyUnicode_AsUTF8(name)) : NULL;
  Py_XDECREF(name);
  return symbol;
}

/* raise E, raise E("constant"), raise E(a, b, ...) of values made at run
 * time (n->list: "bad " + str(x), an f-string, a number; typing says which
 * types travel): E must be an exception class known at compile time; a
 * bare raise, inside an except clause, raises again what it caught. */
/* E("message"): the one argument a constant string, kept as the raise's
 * own (a GPU thread raises it too); one that starts as a raise's
 * arguments are marked (rt_raise_args_begin) travels as they do. */
static bool is_constant_str(PyObject *args) {
  if (PyList_GET_SIZE(args) != 1 || !is_kind(PyList_GET_ITEM(args, 0), "Constant")) return false;
  PyObject *v = field(PyList_GET_ITEM(args, 0), "value");
  bool str = PyUnicode_Check(v) && (!PyUnicode_GET_LENGTH(v) || PyUnicode_READ_CHAR(v, 0) != 2);
  Py_DECREF(v);
  return str;
}

/* An exception class, or NULL (no error) for another object. */
static PyObject *exception_class(Fe *fe, PyObject *e) {
  PyObject *cls = static_object(fe, e);
  PyErr_Clear();
  if (cls && PyType_Check(cls) && PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)PyExc_Exception)) return cls;
  Py_XDECREF(cls);
  return NULL;
}

/* The TypingError of raise e where e is no exception class: Numba's words
 * for a str and for another object known at compile time, ours else. */
static Node *not_an_exception_class(Fe *fe, PyObject *s, PyObject *e) {
  if (is_kind(e, "JoinedStr"))
    return fe_error(fe, s, "Directly raising a string constant as an exception is not supported: raise an "
                    "exception class, as ValueError(\"...\")");
  PyObject *obj = is_kind(e, "Constant") ? field(e, "value") : static_object(fe, e);
  PyErr_Clear();
  Node *n = NULL;
  if (!obj)
    n = fe_error(fe, s, "raise needs an exception class known at compile time");
  else if (PyUnicode_Check(obj))
    n = fe_error(fe, s, "Directly raising a string constant as an exception is not supported: raise an exception "
                 "class, as ValueError(\"...\")");
  else if (PyExceptionInstance_Check(obj))
    n = fe_error(fe, s, "Encountered unsupported constant type used for exception: an exception object made outside "
                 "the function (a %s) is not raised in compiled code; raise %s(...) in it", Py_TYPE(obj)->tp_name,
                 Py_TYPE(obj)->tp_name);
  else {
    PyObject *repr = PyType_Check(obj) ? PyUnicode_FromString(((PyTypeObject *)obj)->tp_name) : PyObject_Repr(obj);
    PyErr_Clear();
    n = fe_error(fe, s, "Encountered unsupported constant type used for exception: %.80s is not an exception class "
                 "(exceptions must derive from BaseException)", repr ? PyUnicode_AsUTF8(repr) : "the object");
    Py_XDECREF(repr);
  }
  Py_XDECREF(obj);
  return n;
}

/* E(...) with each argument that is no constant read into a hidden
 * variable before the statement s (its value when the exception is made),
 * and read from there; NULL (a Python error) on failure. */
static PyObject *arguments_read_now(Fe *fe, PyObject *s, PyObject *call) {
  PyObject *args = field(call, "args"), *read = PyList_New(PyList_GET_SIZE(args));
  PyObject *ast = PyImport_AddModule("ast"), *load = PyObject_CallMethod(ast, "Load", NULL);
  for (Py_ssize_t i = 0; read && load && i < PyList_GET_SIZE(args); i++) {
    PyObject *a = PyList_GET_ITEM(args, i), *item = NULL;
    if (is_kind(a, "Constant")) {
      item = Py_NewRef(a);
    } else {
      Node *value = fe_expr(fe, a);
      const char *name = value ? fe->vars[fe_assign_before(fe, a, "excarg", value)] : NULL;
      item = name ? PyObject_CallMethod(ast, "Name", "sO", name, load) : NULL;
      if (item) Py_XDECREF(PyObject_CallMethod(ast, "copy_location", "OO", item, a));
    }
    if (!item) Py_CLEAR(read);
    else PyList_SET_ITEM(read, i, item);
  }
  PyObject *func = field(call, "func");
  PyObject *made = read ? PyObject_CallMethod(ast, "Call", "OO[]", func, read) : NULL;
  if (made) Py_XDECREF(PyObject_CallMethod(ast, "copy_location", "OO", made, s));
  Py_DECREF(args); Py_DECREF(func); Py_XDECREF(read); Py_XDECREF(load);
  return made;
}

/* e = E(...), as Numba reads `raise e` from e's definition: the exception
 * is made where it is raised, of the arguments' values here (constants,
 * or hidden variables assigned them: arguments_read_now), so the
 * assignment itself does nothing. Once per name, where a raise cannot
 * tell which it gets. */
Node *fe_assign_exception(Fe *fe, PyObject *s, PyObject *target, PyObject *value) {
  if (!is_kind(target, "Name") || !is_kind(value, "Call")) return NULL;
  PyObject *func = field(value, "func"), *args = field(value, "args"), *kws = field(value, "keywords");
  bool plain = !PyList_GET_SIZE(kws);
  for (Py_ssize_t i = 0; plain && i < PyList_GET_SIZE(args); i++) plain = !is_kind(PyList_GET_ITEM(args, i), "Starred");
  PyObject *cls = plain ? exception_class(fe, func) : NULL, *id = field(target, "id");
  Node *n = NULL;
  if (cls && fe->exceptions && PyDict_Contains(fe->exceptions, id)) {
    n = fe_error(fe, s, "'%s' is assigned an exception more than once: compiled code needs one per name",
                 PyUnicode_AsUTF8(id));
  } else if (cls && (fe->exceptions || (fe->exceptions = PyDict_New()))) {
    PyObject *made = arguments_read_now(fe, s, value);
    if (made && PyDict_SetItem(fe->exceptions, id, made) == 0) n = new_node(fe, N_PASS, s);
    else if (!fe->diag->kind) n = fe_error(fe, s, "cannot read this exception");
    Py_XDECREF(made);
  }
  Py_XDECREF(cls); Py_DECREF(id); Py_DECREF(func); Py_DECREF(args); Py_DECREF(kws);
  return n;
}

/* A bare raise outside any except clause of the function raises again
 * what the Python caller is handling when it runs, as Python's and
 * Numba's, else Python's RuntimeError: the '\x03' before the message
 * marks it for the extension, which alone sees the caller's exception
 * (raise_recorded). */
static Node *no_active_exception(Fe *fe, Node *n) {
  n->str = "\x03No active exception to reraise";
  n->callee = PyExc_RuntimeError;  /* (a builtin class: it outlives the code) */
  return (n->symbol = class_symbol(fe, PyExc_RuntimeError)) ? n : NULL;
}

Node *fe_raise(Fe *fe, PyObject *s) {
  PyObject *exc = field(s, "exc");
  PyObject *id = is_kind(exc, "Name") && fe->exceptions ? field(exc, "id") : NULL;
  PyObject *made = id ? PyDict_GetItemWithError(fe->exceptions, id) : NULL;  /* raise e after e = E(...) */
  Py_XDECREF(id);
  if (made) Py_SETREF(exc, Py_NewRef(made));
  Node *n = new_node(fe, N_RAISE, s);
  PyObject *call = NULL, *cls = NULL;
  if (exc == Py_None) {
    if (!fe->handlers) n = no_active_exception(fe, n);
    goto done;
  }
  if (is_kind(exc, "Call")) {
    call = field(exc, "func");
    PyObject *args = field(exc, "args"), *kws = field(exc, "keywords");
    if (is_constant_str(args) && !PyList_GET_SIZE(kws) ? !fe_message(fe, PyList_GET_ITEM(args, 0), &n->str)
                                                       : !fe_raise_args(fe, exc, n))
      n = NULL;
    Py_DECREF(args); Py_DECREF(kws);
  }
  cls = n ? exception_class(fe, call ? call : exc) : NULL;
  if (n && !cls) n = not_an_exception_class(fe, s, call ? call : exc);
  if (n) {
    n->callee = cls;
    if (!(n->symbol = class_symbol(fe, cls))) n = NULL;
  }
done:
  Py_XDECREF(cls); Py_XDECREF(call); Py_DECREF(exc);
  return n;
}

/* assert c, msg of a message made at run time (an f-string, "n=" +
 * str(n)): if not c: raise AssertionError(msg), as Python's. */
Node *fe_assert_raise(Fe *fe, PyObject *s, Node *cond, PyObject *msg) {
  Node *r = new_node(fe, N_RAISE, s), *n = new_node(fe, N_IF, s), *test = new_node(fe, N_UNARY, s);
  r->list = new_list(fe, 1);
  if (!(r->list.items[0] = fe_expr(fe, msg)) || !(r->symbol = class_symbol(fe, PyExc_AssertionError))) return NULL;
  r->callee = PyExc_AssertionError;  /* (a builtin class: it outlives the code) */
  test->op = OP_NOT;
  test->lhs = cond;
  n->cond = test;
  n->body = new_list(fe, 1);
  n->body.items[0] = r;
  return n;
}

/* The classes an except clause names: a class, a tuple of them, or a
 * global holding such a tuple; a new list, or NULL after an error. */
static PyObject *handler_classes(Fe *fe, PyObject *type) {
  PyObject *list = PyList_New(0);
  PyObject *elts = is_kind(type, "Tuple") ? field(type, "elts") : NULL;
  for (Py_ssize_t i = 0; list && i < (elts ? PyList_GET_SIZE(elts) : 1); i++) {
    PyObject *obj = static_object(fe, elts ? PyList_GET_ITEM(elts, i) : type);
    PyObject *items = obj && PyTuple_Check(obj) ? PySequence_List(obj) : NULL;
    if (obj && !items && !PyTuple_Check(obj)) items = Py_BuildValue("[O]", obj);
    for (Py_ssize_t k = 0; items && k < PyList_GET_SIZE(items); k++) {
      PyObject *c = PyList_GET_ITEM(items, k);
      if (!PyType_Check(c) || !PyType_IsSubtype((PyTypeObject *)c, (PyTypeObject *)PyExc_BaseException))
        Py_CLEAR(items);
    }
    if (!items || PyList_SetSlice(list, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, items) < 0) {
      PyErr_Clear();
      Py_CLEAR(list);
      fe_error(fe, type, "an except clause needs exception classes known at compile time");
    }
    Py_XDECREF(items);
    Py_XDECREF(obj);
  }
  Py_XDECREF(elts);
  return list;
}

/* The statuses of ruchey's runtime errors (RtStatus) whose Python class is
 * one of classes; a raise statement's class is tested at run time. */
static int caught_statuses(PyObject *classes) {
  int mask = 0;
  for (int status = RT_OK + 1; status < 31; status++) {
    if (status == RT_ERR_RAISE) continue;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(classes); i++)
      if (PyType_IsSubtype((PyTypeObject *)disp_status_class(status), (PyTypeObject *)PyList_GET_ITEM(classes, i)))
        mask |= 1 << status;
  }
  return mask;
}

/* Whether a node of the function's statements names name: reads or binds
 * it (a variable, a parameter of a def or lambda in it, a global or
 * nonlocal declaration); an except clause's own "as" name is not counted. */
static bool names_anywhere(Fe *fe, PyObject *name) {
  PyObject *ast = PyImport_AddModule("ast");
  PyObject *module = PyObject_CallMethod(ast, "Module", "O[]", fe->body);  /* one tree to walk */
  PyObject *walk = module ? PyObject_CallMethod(ast, "walk", "O", module) : NULL;
  PyObject *it = walk ? PyObject_GetIter(walk) : NULL, *node;
  bool found = !it;
  while (it && !found && (node = PyIter_Next(it))) {
    const char *attr = is_kind(node, "Name") ? "id" : is_kind(node, "arg") ? "arg" : NULL;
    PyObject *v = attr ? field(node, attr) : is_kind(node, "Global") || is_kind(node, "Nonlocal") ? field(node, "names") : NULL;
    found = v && (PyUnicode_Check(v) ? PyUnicode_Compare(v, name) == 0 : PySequence_Contains(v, name) == 1);
    Py_XDECREF(v);
    Py_DECREF(node);
  }
  found |= PyErr_Occurred() != NULL;
  PyErr_Clear();
  Py_XDECREF(it); Py_XDECREF(walk); Py_XDECREF(module);
  return found;
}

/* except:, except E:, except (E1, E2): an exception bound with "as" is
 * refused, as Numba refuses it (compiled code has no exception objects),
 * but where the name is used nowhere in the function: Python unbinds it
 * after the clause, so nothing could see it. */
static Node *fe_except(Fe *fe, PyObject *h) {
  PyObject *type = field(h, "type"), *name = field(h, "name"), *body = field(h, "body");
  Node *n = new_node(fe, N_EXCEPT, h);
  PyObject *classes = NULL;
  if (name != Py_None && names_anywhere(fe, name)) {
    n = fe_error(fe, h, "'except ... as %s' is not supported in compiled code: the exception is not an object "
                 "there (as in Numba); write the except clause without 'as %s'", PyUnicode_AsUTF8(name),
                 PyUnicode_AsUTF8(name));
  } else if (type == Py_None) {
    n->op = ~0;
  } else if ((classes = handler_classes(fe, type))) {
    n->ival = PyList_GET_SIZE(classes);
    void **cls = arena_alloc(fe->arena, sizeof(void *) * (size_t)(n->ival + 1));
    const char **symbols = arena_alloc(fe->arena, sizeof(char *) * (size_t)(n->ival + 1));
    for (int i = 0; n && i < n->ival; i++) {
      cls[i] = PyList_GET_ITEM(classes, i);
      if (!(symbols[i] = class_symbol(fe, cls[i]))) n = NULL;
    }
    if (n) {
      n->callee = cls;
      n->data = symbols;
      n->op = caught_statuses(classes);
    }
  } else {
    n = NULL;
  }
  fe->handlers++;
  if (n && !fe_block(fe, body, &n->body)) n = NULL;
  fe->handlers--;
  Py_XDECREF(classes);
  Py_DECREF(type); Py_DECREF(name); Py_DECREF(body);
  return n;
}

Node *fe_try(Fe *fe, PyObject *s) {
  PyObject *body = field(s, "body"), *handlers = field(s, "handlers"), *orelse = field(s, "orelse"),
           *final = field(s, "finalbody");
  Node *n = new_node(fe, N_TRY, s);
  bool ok = fe_block(fe, body, &n->body);
  n->list = new_list(fe, (int)PyList_GET_SIZE(handlers));
  for (int i = 0; ok && i < n->list.len; i++) ok = (n->list.items[i] = fe_except(fe, PyList_GET_ITEM(handlers, i)));
  ok = ok && fe_block(fe, orelse, &n->orelse);
  if (ok && PyList_GET_SIZE(final)) {
    n->lhs = new_node(fe, N_BLOCK, s);
    ok = fe_block(fe, final, &n->lhs->body);
  }
  Py_DECREF(body); Py_DECREF(handlers); Py_DECREF(orelse); Py_DECREF(final);
  return ok ? n : NULL;
}
