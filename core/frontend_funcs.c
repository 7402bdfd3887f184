/* frontend_funcs.c — functions as values in a function's syntax tree: a
 * compiled function named as a value (passed to another), a call of a
 * variable that holds one, lambdas, and import statements.
 *
 * A compiled function as a value has a type of its own (TY_FUNCTION, one
 * per dispatcher) and nothing at run time: a call through it is a call to
 * the function its type names, compiled into the caller, as Numba's
 * first-class dispatchers are. A lambda becomes a compiled function of its
 * own, read from its syntax tree here (no source of its own to find): the
 * variables of the enclosing function it reads become parameters after its
 * own, which each call where it is defined passes (by keyword, so that its
 * own parameters bind as Python binds them). Used as a value (passed to
 * another compiled function, returned), such a lambda is a variant of its
 * own that takes those variables frozen as globals, which they can be only
 * where each is a constant assigned once (inner_value), as Numba's closures
 * that leave the function; one that reads none is a value like any
 * compiled function.
 * Another inner def calls it, or takes it as an argument, by defining it
 * again in its own body (sibling_prelude, inner_variant), as Numba's
 * inlining of both allows. A def that assigns variables of the enclosing
 * function (nonlocal) returns their new values after its own, and each
 * call where it is defined assigns them back (written_back).
 * Imports inside the function bind names at compile time, as globals are.
 */
#include "frontend.h"

/* ---------------------------------------------------------------- values */

Node *fe_function_value(Fe *fe, PyObject *disp, PyObject *e) {
  if (!disp_function_type((Dispatcher *)disp))
    return fe_error(fe, e, "a CUDA kernel cannot be used as a value in compiled code");
  Node *n = new_node(fe, N_FUNC, e);
  n->callee = disp;
  PyObject *name = PyObject_GetAttrString(((Dispatcher *)disp)->py_func, "__name__");
  n->str = arena_strdup(fe->arena, name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "?");
  PyErr_Clear();
  Py_XDECREF(name);
  return n;
}

/* ---------------------------------------------------------------- lambdas */

/* The code of each lambda made here -> (its syntax tree, line offset,
 * column offset), for fe_read_function; and (the enclosing function's
 * code, or the function itself where it is a closure, line, column) of
 * each lambda -> (its dispatcher, the names it captures), so that every
 * compile of the enclosing function finds the same one. Both live as long
 * as the process. */
static PyObject *inner_defs, *inner_made;

PyObject *fe_inner_function(PyObject *pyfunc, int *line_offset, int *col_offset) {
  PyObject *entry = inner_defs ? PyDict_GetItemWithError(inner_defs, PyFunction_GetCode(pyfunc)) : NULL;
  if (!entry) return NULL;
  *line_offset = (int)PyLong_AsLong(PyTuple_GET_ITEM(entry, 1));
  *col_offset = (int)PyLong_AsLong(PyTuple_GET_ITEM(entry, 2));
  return Py_NewRef(PyTuple_GET_ITEM(entry, 0));
}

/* The names a function's body (a lambda's expression) stores into (its
 * own variables) or reads. */
static PyObject *body_names(PyObject *node, const char *ctx_kind) {
  PyObject *ast = PyImport_AddModule("ast"), *body = field(node, "body");
  PyObject *root = PyList_Check(body) ? PyObject_CallMethod(ast, "Module", "O[]", body) : Py_NewRef(body);
  PyObject *walk = root ? PyObject_CallMethod(ast, "walk", "O", root) : NULL;
  Py_XDECREF(root);
  PyObject *it = walk ? PyObject_GetIter(walk) : NULL, *names = PyList_New(0), *n;
  while (it && names && (n = PyIter_Next(it))) {
    if (is_kind(n, "Name")) {
      PyObject *ctx = field(n, "ctx"), *id = field(n, "id");
      if (is_kind(ctx, ctx_kind) && !PySequence_Contains(names, id)) PyList_Append(names, id);
      Py_DECREF(ctx); Py_DECREF(id);
    }
    Py_DECREF(n);
  }
  Py_XDECREF(it); Py_XDECREF(walk); Py_DECREF(body);
  if (PyErr_Occurred()) Py_CLEAR(names);
  return names;
}

/* The variables of the enclosing function the inner function reads (not
 * its parameters, nor its own variables), in order. */
static PyObject *captured_names(Fe *fe, PyObject *node, PyObject *params) {
  PyObject *reads = body_names(node, "Load"), *own = body_names(node, "Store"), *names = PyList_New(0);
  for (Py_ssize_t i = 0; reads && own && names && i < PyList_GET_SIZE(reads); i++) {
    PyObject *id = PyList_GET_ITEM(reads, i);
    if (find_var(fe, PyUnicode_AsUTF8(id)) >= 0 && !PySequence_Contains(params, id) && !PySequence_Contains(own, id))
      PyList_Append(names, id);
  }
  if (!reads || !own) Py_CLEAR(names);
  Py_XDECREF(reads); Py_XDECREF(own);
  return names;
}

/* The names the inner function's code finds as globals: the module's, and
 * the enclosing function's closure variables and imports (frozen, as
 * there), and frozen (NULL, or a dict: the variables of the enclosing
 * function an inner function used as a value takes frozen). */
static PyObject *inner_globals(Fe *fe, PyObject *frozen) {
  PyObject *cells = PyFunction_GetClosure(fe->pyfunc);
  if (!cells && !fe->imports && !frozen) return Py_NewRef(fe->globals);
  PyObject *g = PyDict_Copy(fe->globals);
  PyObject *free = g && cells ? PyObject_GetAttrString(PyFunction_GetCode(fe->pyfunc), "co_freevars") : NULL;
  for (Py_ssize_t i = 0; free && i < PyTuple_GET_SIZE(free); i++) {
    PyObject *v = PyCell_GET(PyTuple_GET_ITEM(cells, i));
    if (v && PyDict_SetItem(g, PyTuple_GET_ITEM(free, i), v) < 0) Py_CLEAR(g);
  }
  Py_XDECREF(free);
  if (g && fe->imports && PyDict_Update(g, fe->imports) < 0) Py_CLEAR(g);
  if (g && frozen && PyDict_Update(g, frozen) < 0) Py_CLEAR(g);
  return g;
}

/* Whether the def's body yields (a generator). */
static bool yields(PyObject *node) {
  PyObject *walk = PyObject_CallMethod(PyImport_AddModule("ast"), "walk", "O", node);
  PyObject *it = walk ? PyObject_GetIter(walk) : NULL, *n;
  bool found = false;
  while (it && !found && (n = PyIter_Next(it))) {
    found = is_kind(n, "Yield") || is_kind(n, "YieldFrom");
    Py_DECREF(n);
  }
  Py_XDECREF(it); Py_XDECREF(walk);
  PyErr_Clear();
  return found;
}

/* The variables of the enclosing function that a def declares nonlocal
 * and assigns, in order: each call passes them in, as any it reads, and
 * takes their new values back (fe_local_call). NULL after an error. */
static PyObject *nonlocal_writes(Fe *fe, PyObject *node) {
  PyObject *writes = PyList_New(0);
  if (!writes || !is_kind(node, "FunctionDef")) return writes;
  PyObject *body = field(node, "body"), *stores = body_names(node, "Store");
  bool generator = yields(node);
  for (Py_ssize_t i = 0; writes && stores && i < PyList_GET_SIZE(body); i++) {
    PyObject *stmt = PyList_GET_ITEM(body, i), *names = is_kind(stmt, "Nonlocal") ? field(stmt, "names") : NULL;
    for (Py_ssize_t k = 0; writes && names && k < PyList_GET_SIZE(names); k++) {
      PyObject *id = PyList_GET_ITEM(names, k);
      if (PySequence_Contains(stores, id) != 1) continue;
      if (generator || find_var(fe, PyUnicode_AsUTF8(id)) < 0) {
        fe_error(fe, stmt, "a nested %s that assigns to a variable of %s (nonlocal %s) is not supported in compiled "
                 "code: return the new value instead", generator ? "generator" : "function",
                 generator ? "the enclosing function" : "a function outside the one it is in", PyUnicode_AsUTF8(id));
        Py_CLEAR(writes);
      } else if (PyList_Append(writes, id) < 0) {
        Py_CLEAR(writes);
      }
    }
    Py_XDECREF(names);
  }
  if (!stores) Py_CLEAR(writes);
  Py_DECREF(body); Py_XDECREF(stores);
  return writes;
}

/* (value, *writes): what a def that assigns nonlocal variables returns
 * where it returned value (NULL: None). */
static PyObject *value_and_writes(PyObject *value, PyObject *writes) {
  PyObject *ast = PyImport_AddModule("ast"), *load = PyObject_CallMethod(ast, "Load", NULL);
  PyObject *items = load ? PyList_New(0) : NULL;
  PyObject *first = value && value != Py_None ? Py_NewRef(value) : PyObject_CallMethod(ast, "Constant", "O", Py_None);
  if (!first || !items || PyList_Append(items, first) < 0) Py_CLEAR(items);
  for (Py_ssize_t i = 0; items && i < PyList_GET_SIZE(writes); i++) {
    PyObject *name = PyObject_CallMethod(ast, "Name", "OO", PyList_GET_ITEM(writes, i), load);
    if (!name || PyList_Append(items, name) < 0) Py_CLEAR(items);
    Py_XDECREF(name);
  }
  PyObject *tuple = items ? PyObject_CallMethod(ast, "Tuple", "OO", items, load) : NULL;
  Py_XDECREF(first); Py_XDECREF(items); Py_XDECREF(load);
  return tuple;
}

/* Each return of node's own (not of the functions and lambdas in it)
 * made to return (value, *writes). node is a copy of the def's. */
static bool return_writes(PyObject *node, PyObject *writes) {
  if (PyList_Check(node)) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(node); i++)
      if (!return_writes(PyList_GET_ITEM(node, i), writes)) return false;
    return true;
  }
  if (is_kind(node, "FunctionDef") || is_kind(node, "Lambda") || is_kind(node, "ClassDef")) return true;
  if (is_kind(node, "Return")) {
    PyObject *value = field(node, "value"), *tuple = value_and_writes(value, writes);
    bool ok = tuple && PyObject_SetAttrString(node, "value", tuple) == 0;
    Py_DECREF(value); Py_XDECREF(tuple);
    return ok;
  }
  PyObject *fields = PyObject_GetAttrString((PyObject *)Py_TYPE(node), "_fields");
  if (!fields) {
    PyErr_Clear();
    return true;
  }
  bool ok = true;
  for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(fields); i++) {
    PyObject *v = field(node, PyUnicode_AsUTF8(PyTuple_GET_ITEM(fields, i)));
    if (PyList_Check(v) || PyObject_HasAttrString(v, "_fields")) ok = return_writes(v, writes);
    Py_DECREF(v);
  }
  Py_DECREF(fields);
  return ok;
}

/* The body of made (a shallow copy of the def node, given a list of its
 * own): the definitions of the prelude, then node's statements without
 * its `nonlocal` declarations. A nonlocal variable the def only reads is
 * a captured variable like any other read (a parameter of made); where it
 * assigns some (writes), its statements are copies that return the new
 * values of those after the value (return_writes), falling off the end
 * too. Numba inlines such a closure. */
static bool nonlocal_body(PyObject *node, PyObject *made, PyObject *prelude, PyObject *writes) {
  PyObject *body = field(node, "body"), *kept = PyList_New(0);
  PyObject *copy_module = PyList_GET_SIZE(writes) ? PyImport_ImportModule("copy") : NULL;
  PyObject *deepcopy = copy_module ? PyObject_GetAttrString(copy_module, "deepcopy") : NULL;
  Py_XDECREF(copy_module);
  for (Py_ssize_t i = 0; kept && i < PyList_GET_SIZE(prelude); i++)
    if (PyList_Append(kept, PyTuple_GET_ITEM(PyList_GET_ITEM(prelude, i), 1)) < 0) Py_CLEAR(kept);
  Py_ssize_t own = kept ? PyList_GET_SIZE(kept) : 0;
  bool ok = kept != NULL && (deepcopy || !PyList_GET_SIZE(writes));
  for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(body); i++) {
    PyObject *stmt = PyList_GET_ITEM(body, i);
    if (is_kind(stmt, "Nonlocal")) continue;
    PyObject *copy = deepcopy ? PyObject_CallOneArg(deepcopy, stmt) : Py_NewRef(stmt);
    ok = copy && (!deepcopy || return_writes(copy, writes)) && PyList_Append(kept, copy) == 0;
    Py_XDECREF(copy);
  }
  Py_ssize_t n = ok ? PyList_GET_SIZE(kept) : 0;
  if (ok && deepcopy && (n == own || !is_kind(PyList_GET_ITEM(kept, n - 1), "Return"))) {
    PyObject *value = value_and_writes(NULL, writes);
    PyObject *ret = value ? PyObject_CallMethod(PyImport_AddModule("ast"), "Return", "O", value) : NULL;
    ok = ret && PyList_Append(kept, ret) == 0;
    Py_XDECREF(value); Py_XDECREF(ret);
  }
  ok = ok && PyObject_SetAttrString(made, "body", kept) == 0;
  Py_XDECREF(body); Py_XDECREF(kept); Py_XDECREF(deepcopy);
  return ok;
}

/* The positional parameters of args not in bound (a dict by name). */
static PyObject *unbound_parameters(PyObject *args, PyObject *bound) {
  PyObject *all = field(args, "args"), *kept = PyList_New(0);
  for (Py_ssize_t i = 0; kept && i < PyList_GET_SIZE(all); i++) {
    PyObject *id = field(PyList_GET_ITEM(all, i), "arg");
    if (!PyDict_Contains(bound, id) && PyList_Append(kept, PyList_GET_ITEM(all, i)) < 0) Py_CLEAR(kept);
    Py_DECREF(id);
  }
  Py_DECREF(all);
  return kept;
}

static PyObject *constant_of(Fe *fe, PyObject *e);
static PyObject *constant_variable(Fe *fe, PyObject *id, int *count);

/* The value of the default d of an inner function's parameter where it is
 * known when compiled (a literal, a global's value, a variable of the
 * function holding a constant for good: constant_variable); a new
 * reference, or NULL. */
static PyObject *default_value(Fe *fe, PyObject *d) {
  PyObject *id = is_kind(d, "Name") ? field(d, "id") : NULL;
  int count;
  PyObject *v = id && find_var(fe, PyUnicode_AsUTF8(id)) >= 0 ? constant_variable(fe, id, &count) : constant_of(fe, d);
  Py_XDECREF(id);
  return v;
}

/* The hidden variable of the enclosing function that holds the default of
 * parameter param of the inner function node, evaluated where the def
 * runs (a value known only then: late_defaults_assigned). */
static PyObject *late_default_name(PyObject *node, PyObject *param) {
  return PyUnicode_FromFormat("%U.default.%d.%d", param, ast_int_attr(node, "lineno"), ast_int_attr(node, "col_offset"));
}

static void free_late_default(PyObject *capsule) {
  Py_XDECREF((PyObject *)PyCapsule_GetPointer(capsule, FE_LATE_DEFAULT));
}

/* What each_default calls for a default d of parameter param: false
 * after an error; *replace (a new reference), where it sets one, is put
 * in d's place. */
typedef bool (*DefaultVisit)(Fe *fe, void *ctx, PyObject *d, PyObject *param, PyObject **replace);

/* Visits each default of the parameters args (an ast.arguments) that is
 * not None or a literal (those Python's compile takes as they are); the
 * defaults lists are set again where a visit replaced an item. */
static bool each_default(Fe *fe, PyObject *args, DefaultVisit visit, void *ctx) {
  PyObject *posonly = field(args, "posonlyargs"), *plain = field(args, "args");
  PyObject *params = PySequence_Concat(posonly, plain), *kwonly = field(args, "kwonlyargs");
  bool ok = params != NULL;
  for (int kw = 0; ok && kw < 2; kw++) {
    const char *which = kw ? "kw_defaults" : "defaults";
    PyObject *given = field(args, which), *made = PySequence_List(given), *owners = kw ? kwonly : params;
    bool replaced = false;
    ok = made != NULL;
    Py_ssize_t first = PyList_GET_SIZE(owners) - (made ? PyList_GET_SIZE(made) : 0);
    for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(made); i++) {
      PyObject *d = PyList_GET_ITEM(made, i), *replace = NULL;
      if (d == Py_None || is_kind(d, "Constant")) continue;
      PyObject *param = field(PyList_GET_ITEM(owners, first + i), "arg");
      ok = visit(fe, ctx, d, param, &replace);
      if (replace) {
        PyList_SetItem(made, i, replace);  /* (steals it) */
        replaced = true;
      }
      Py_DECREF(param);
    }
    ok = ok && (!replaced || PyObject_SetAttrString(args, which, made) == 0);
    Py_XDECREF(made); Py_DECREF(given);
  }
  Py_DECREF(posonly); Py_DECREF(plain); Py_XDECREF(params); Py_DECREF(kwonly);
  return ok;
}

typedef struct Hoisting {
  PyObject *node, *names, *load;
  bool leaves;
} Hoisting;

/* A default as hoisted_defaults gives it: the name of a global of the
 * code that holds its value (in names). */
static bool hoist_default(Fe *fe, void *ctx, PyObject *d, PyObject *param, PyObject **replace) {
  Hoisting *h = ctx;
  PyObject *hidden = PyUnicode_FromFormat("_ruchey_default_%U", param);
  PyObject *v = default_value(fe, d), *late = !v && !h->leaves ? late_default_name(h->node, param) : NULL;
  if (!v && late) v = PyCapsule_New(late, FE_LATE_DEFAULT, free_late_default);
  if (!v && !late && !PyErr_Occurred())
    fe_error(fe, d, "Cannot capture the non-constant default value of parameter '%s' in a nested function used "
             "as a value: such a function takes its defaults frozen, which must be constants", PyUnicode_AsUTF8(param));
  else if (!v)
    Py_XDECREF(late);
  PyObject *name = v && hidden ? PyObject_CallMethod(PyImport_AddModule("ast"), "Name", "OO", hidden, h->load) : NULL;
  bool ok = name && PyDict_SetItem(h->names, hidden, v) == 0;
  if (ok) *replace = name;
  else Py_XDECREF(name);
  Py_XDECREF(v); Py_XDECREF(hidden);
  return ok;
}

/* The defaults of an inner function's parameters (after make_inner's
 * copy, new_args), each as Python's compile of its code can take it: a
 * global of its code (in names) holding the value known when compiled
 * (default_value), or else, where it does not leave the function, a
 * marker naming the hidden variable that holds the value (the call binds
 * that variable: fe_bind_jit_call), as Numba evaluates a closure's
 * defaults where its def runs. */
static bool hoisted_defaults(Fe *fe, PyObject *node, PyObject *new_args, PyObject *names, bool leaves) {
  Hoisting h = {node, names, PyObject_CallMethod(PyImport_AddModule("ast"), "Load", NULL), leaves};
  bool ok = h.load && each_default(fe, new_args, hoist_default, &h);
  Py_XDECREF(h.load);
  return ok;
}

/* A default not known when compiled assigned to its hidden variable
 * before the statement being read (late_defaults_assigned). */
static bool assign_late_default(Fe *fe, void *node, PyObject *d, PyObject *param, PyObject **replace) {
  (void)replace;
  PyObject *v = default_value(fe, d);
  if (v) {
    Py_DECREF(v);
    return true;
  }
  PyObject *late = late_default_name(node, param);
  Node *a = late ? new_node(fe, N_ASSIGN, d) : NULL;
  bool ok = a != NULL;
  if (a) {
    a->lhs = fe_var_node(fe, d, fe_add_var(fe, PyUnicode_AsUTF8(late)));
    ok = (a->rhs = fe_expr(fe, d)) != NULL;
    if (ok) fe_add_pre(fe, a);
  }
  Py_XDECREF(late);
  return ok;
}

/* The statements that give the hidden variables of node's defaults not
 * known when compiled (hoisted_defaults) their values, run before the
 * statement being read (the def, or the one a lambda is in), as Python
 * evaluates defaults where the def runs. */
static bool late_defaults_assigned(Fe *fe, PyObject *node) {
  PyObject *args = field(node, "args");
  bool ok = each_default(fe, args, assign_late_default, node);
  Py_DECREF(args);
  return ok;
}

/* The inner function (a lambda or a def) with the captured variables as
 * parameters after its own and a def's prelude (sibling_prelude) at the
 * top of its body (returning the values of writes after its own:
 * nonlocal_body), compiled by Python into a function of the enclosing
 * function's module, made a compiled function; the names of frozen (a
 * dict) are globals of its code, and so are its defaults
 * (hoisted_defaults; leaves: it is used as a value). */
static PyObject *make_inner(Fe *fe, PyObject *node, PyObject *captured, PyObject *prelude, PyObject *bound,
                            PyObject *writes, PyObject *frozen, bool leaves) {
  PyObject *ast = PyImport_AddModule("ast"), *copy = PyImport_ImportModule("copy");
  bool def = is_kind(node, "FunctionDef");
  /* the captured variables are keyword-only parameters after its own (each call passes them by
   * keyword), so that its own may have defaults */
  PyObject *args = field(node, "args"), *own = field(args, "kwonlyargs"), *own_defaults = field(args, "kw_defaults");
  PyObject *params = PySequence_List(own);  /* copies: the enclosing function's tree stays as it is */
  PyObject *defaults = PySequence_List(own_defaults);
  for (Py_ssize_t i = 0; params && defaults && i < PyList_GET_SIZE(captured); i++) {
    PyObject *arg = PyObject_CallMethod(ast, "arg", "O", PyList_GET_ITEM(captured, i));
    if (!arg || PyList_Append(params, arg) < 0 || PyList_Append(defaults, Py_None) < 0) Py_CLEAR(params);
    Py_XDECREF(arg);
  }
  Py_XDECREF(own_defaults);
  PyObject *new_args = params && defaults && copy ? PyObject_CallMethod(copy, "copy", "O", args) : NULL;
  PyObject *made = new_args ? PyObject_CallMethod(copy, "copy", "O", node) : NULL;
  PyObject *none = PyList_New(0);
  PyObject *positional = bound && new_args ? unbound_parameters(new_args, bound) : NULL;
  if (bound && !positional) Py_CLEAR(new_args);
  if (made && ((positional && PyObject_SetAttrString(new_args, "args", positional) < 0) ||
               PyObject_SetAttrString(new_args, "kwonlyargs", params) < 0 ||
               PyObject_SetAttrString(new_args, "kw_defaults", defaults) < 0 ||
               !hoisted_defaults(fe, node, new_args, frozen, leaves) ||
               PyObject_SetAttrString(made, "args", new_args) < 0 ||
               (def && PyObject_SetAttrString(made, "decorator_list", none) < 0) || (def && !nonlocal_body(node, made, prelude, writes))))
    Py_CLEAR(made);
  PyObject *tree = !made ? NULL : def ? PyObject_CallMethod(ast, "Module", "[O]O", made, none)
                                      : PyObject_CallMethod(ast, "Expression", "O", made);
  if (tree) Py_XDECREF(PyObject_CallMethod(ast, "fix_missing_locations", "O", tree));
  PyObject *filename = PyObject_GetAttrString(PyFunction_GetCode(fe->pyfunc), "co_filename");
  PyObject *code = tree && filename ? PyObject_CallFunction(PyDict_GetItemString(fe->builtins, "compile"), "OOs",
                                                            tree, filename, def ? "exec" : "eval")
                                    : NULL;
  PyObject *globals = code ? inner_globals(fe, frozen) : NULL, *ns = PyDict_New(), *fn = NULL;
  PyObject *ran = globals && ns ? PyEval_EvalCode(code, globals, ns) : NULL;
  if (ran && def) {  /* the def ran: the function is in ns */
    PyObject *name = field(node, "name");
    fn = Py_XNewRef(PyDict_GetItemWithError(ns, name));
    Py_DECREF(name);
    Py_DECREF(ran);
  } else {
    fn = ran;
  }
  PyObject *disp = fn ? PyObject_CallFunctionObjArgs((PyObject *)&DispatcherType, fn, NULL) : NULL;
  if (disp) ((Dispatcher *)disp)->inherits = true;
  PyObject *entry = disp ? Py_BuildValue("(Oii)", made, fe->line_offset, fe->col_offset) : NULL;
  if ((!inner_defs && !(inner_defs = PyDict_New())) || !entry ||
      PyDict_SetItem(inner_defs, PyFunction_GetCode(fn), entry) < 0)
    Py_CLEAR(disp);
  Py_XDECREF(entry); Py_XDECREF(fn); Py_XDECREF(ns); Py_XDECREF(globals); Py_XDECREF(code); Py_XDECREF(filename);
  Py_XDECREF(tree); Py_XDECREF(none); Py_XDECREF(made); Py_XDECREF(new_args); Py_XDECREF(params); Py_XDECREF(own);
  Py_XDECREF(args); Py_XDECREF(copy); Py_XDECREF(defaults); Py_XDECREF(positional);
  return disp;
}

static bool captures(PyObject *entry) { return PyTuple_GET_SIZE(PyTuple_GET_ITEM(entry, 1)) > 0; }

/* Whether the inner function of entry assigns nonlocal variables: only a
 * call where it is defined takes their values back. */
static bool writes_back(Fe *fe, PyObject *entry, PyObject *e, const char *where) {
  if (!PyTuple_GET_SIZE(PyTuple_GET_ITEM(entry, 4))) return false;
  fe_error(fe, e, "a nested function that assigns to a variable of the enclosing function (nonlocal %s) can only be "
           "called where it is defined, not %s", PyUnicode_AsUTF8(PyTuple_GET_ITEM(PyTuple_GET_ITEM(entry, 4), 0)), where);
  return true;
}

/* (name, statement) appended to prelude unless a statement there binds name already. */
static bool add_binding(PyObject *prelude, PyObject *name, PyObject *stmt) {
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(prelude); i++)
    if (PyUnicode_Compare(PyTuple_GET_ITEM(PyList_GET_ITEM(prelude, i), 0), name) == 0) return true;
  PyObject *item = stmt ? PyTuple_Pack(2, name, stmt) : NULL;
  bool ok = item && PyList_Append(prelude, item) == 0;
  Py_XDECREF(item);
  return ok;
}

/* The statements that bind name to the inner function of entry in another
 * function's body: those of its own prelude, then its def under that name
 * (a copy, renamed where name is another name for it), or name = its
 * lambda. */
static bool add_definition(PyObject *prelude, PyObject *entry, PyObject *name) {
  PyObject *ast = PyImport_AddModule("ast"), *node = PyTuple_GET_ITEM(entry, 2), *own = PyTuple_GET_ITEM(entry, 3);
  bool ok = true;
  for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(own); i++)
    ok = add_binding(prelude, PyTuple_GET_ITEM(PyList_GET_ITEM(own, i), 0), PyTuple_GET_ITEM(PyList_GET_ITEM(own, i), 1));
  PyObject *stmt = NULL;
  if (ok && is_kind(node, "FunctionDef")) {
    PyObject *copy = PyImport_ImportModule("copy");
    stmt = copy ? PyObject_CallMethod(copy, "copy", "O", node) : NULL;
    if (stmt && PyObject_SetAttrString(stmt, "name", name) < 0) Py_CLEAR(stmt);
    Py_XDECREF(copy);
  } else if (ok) {
    PyObject *store = PyObject_CallMethod(ast, "Store", NULL);
    PyObject *target = store ? PyObject_CallMethod(ast, "Name", "OO", name, store) : NULL;
    stmt = target ? PyObject_CallMethod(ast, "Assign", "[O]O", target, node) : NULL;
    if (stmt) Py_XDECREF(PyObject_CallMethod(ast, "copy_location", "OO", stmt, node));
    Py_XDECREF(target); Py_XDECREF(store);
  }
  ok = ok && add_binding(prelude, name, stmt);
  Py_XDECREF(stmt);
  return ok && !PyErr_Occurred();
}

/* A def's prelude: the other inner functions of the enclosing function,
 * bound before it, that it reads and that read the enclosing function's
 * variables themselves (which a value cannot carry) are defined again at
 * the top of its body, as (name, statement) pairs, and the variables they
 * read become its own captured ones in their place (captured changes). So
 * an inner function calls a sibling closure, as Numba's inlining lets it. */
static PyObject *sibling_prelude(Fe *fe, PyObject *node, PyObject *captured) {
  PyObject *prelude = PyList_New(0);
  for (Py_ssize_t i = 0; prelude && i < PyList_GET_SIZE(captured);) {
    PyObject *id = PyList_GET_ITEM(captured, i);
    PyObject *entry = fe->lambdas ? PyDict_GetItemWithError(fe->lambdas, id) : NULL;
    if (!entry || !captures(entry)) {
      i++;
      continue;
    }
    if (writes_back(fe, entry, node, "from another nested function")) {
      Py_CLEAR(prelude);
      break;
    }
    Py_INCREF(id);
    PyObject *reads = PyTuple_GET_ITEM(entry, 1);
    bool ok = PySequence_DelItem(captured, i) == 0 && add_definition(prelude, entry, id);
    for (Py_ssize_t k = 0; ok && k < PyTuple_GET_SIZE(reads); k++)
      if (!PySequence_Contains(captured, PyTuple_GET_ITEM(reads, k)))
        ok = PyList_Append(captured, PyTuple_GET_ITEM(reads, k)) == 0;
    Py_DECREF(id);
    if (!ok) Py_CLEAR(prelude);
  }
  return prelude;
}

/* Each parameter of bound (name -> the name of an inner function that
 * reads variables, passed to it where it is called) defined in prelude as
 * that function, whose variables become captured ones. */
static bool bind_parameters(Fe *fe, PyObject *node, PyObject *bound, PyObject *captured, PyObject *prelude) {
  Py_ssize_t pos = 0;
  PyObject *param, *name;
  while (bound && PyDict_Next(bound, &pos, &param, &name)) {
    PyObject *entry = PyDict_GetItemWithError(fe->lambdas, name), *reads = PyTuple_GET_ITEM(entry, 1);
    if (writes_back(fe, entry, node, "passed to another one") || !add_definition(prelude, entry, param)) return false;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(reads); k++)
      if (!PySequence_Contains(captured, PyTuple_GET_ITEM(reads, k)) &&
          PyList_Append(captured, PyTuple_GET_ITEM(reads, k)) < 0)
        return false;
  }
  return true;
}

/* ---------------------------------------------------------------- inner functions as values */

/* How many times node binds id, up to two: assignments to it and defs of
 * its name in the enclosing function's own scope (not inside the nested
 * functions and lambdas, whose variables are their own); *assigned (where
 * not NULL) the value of a plain `id = value` among them (borrowed). */
static int bindings_of(PyObject *node, PyObject *id, int count, PyObject **assigned) {
  bool def = is_kind(node, "FunctionDef"), name = is_kind(node, "Name");
  if (def || name) {
    PyObject *named = field(node, def ? "name" : "id"), *ctx = name ? field(node, "ctx") : NULL;
    count += PyUnicode_Compare(named, id) == 0 && (def || is_kind(ctx, "Store"));
    Py_DECREF(named); Py_XDECREF(ctx);
  }
  if (def || name || is_kind(node, "Lambda")) return count;
  if (assigned && is_kind(node, "Assign")) {
    PyObject *targets = field(node, "targets"), *target = PyList_GET_SIZE(targets) == 1 ? PyList_GET_ITEM(targets, 0) : NULL;
    PyObject *named = target && is_kind(target, "Name") ? field(target, "id") : NULL;
    if (named && PyUnicode_Compare(named, id) == 0) {
      PyObject *value = field(node, "value");
      *assigned = value;  /* node holds it */
      Py_DECREF(value);
    }
    Py_XDECREF(named); Py_DECREF(targets);
  }
  PyObject *children = PyObject_CallMethod(PyImport_AddModule("ast"), "iter_child_nodes", "O", node);
  PyObject *it = children ? PyObject_GetIter(children) : NULL, *child;
  while (it && count < 2 && (child = PyIter_Next(it))) {
    count = bindings_of(child, id, count, assigned);
    Py_DECREF(child);
  }
  Py_XDECREF(it); Py_XDECREF(children);
  return count;
}

/* How many times the function's body binds id, up to two (bindings_of). */
static int bindings_in_body(Fe *fe, PyObject *id, PyObject **assigned) {
  int count = 0;
  for (Py_ssize_t i = 0; count < 2 && i < PyList_GET_SIZE(fe->body); i++)
    count = bindings_of(PyList_GET_ITEM(fe->body, i), id, count, assigned);
  PyErr_Clear();
  return count;
}

static bool bound_more_than_once(Fe *fe, PyObject *id) { return bindings_in_body(fe, id, NULL) > 1; }

/* Whether id names a parameter of the function being read. */
static bool is_parameter(Fe *fe, PyObject *id) {
  PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(fe->pyfunc);
  int n = code->co_argcount + code->co_kwonlyargcount + !!(code->co_flags & CO_VARARGS) +
          !!(code->co_flags & CO_VARKEYWORDS);
  PyObject *names = PyObject_GetAttrString((PyObject *)code, "co_varnames");
  bool found = false;
  for (int i = 0; names && i < n && i < PyTuple_GET_SIZE(names); i++)
    found = found || PyUnicode_Compare(PyTuple_GET_ITEM(names, i), id) == 0;
  Py_XDECREF(names);
  PyErr_Clear();
  return found;
}

/* The value of an expression known before the code runs: a literal (10,
 * -1.5, a tuple of them; Python folds these into constants), or a global
 * or a module's attribute through names the function does not bind. A new
 * reference, or NULL. */
static PyObject *constant_of(Fe *fe, PyObject *e) {
  PyObject *root = Py_NewRef(e);
  while (is_kind(root, "Attribute")) Py_SETREF(root, field(root, "value"));
  PyObject *id = is_kind(root, "Name") ? field(root, "id") : NULL;
  Py_DECREF(root);
  PyObject *v = NULL;
  if (id) {
    v = find_var(fe, PyUnicode_AsUTF8(id)) < 0 ? static_object(fe, e) : NULL;
  } else if (!is_kind(e, "List") && !is_kind(e, "Dict") && !is_kind(e, "Set")) {  /* (containers: built when run) */
    v = PyObject_CallMethod(PyImport_AddModule("ast"), "literal_eval", "O", e);
  }
  Py_XDECREF(id);
  PyErr_Clear();
  return v;
}

/* Whether a nested function of the function's body declares id nonlocal
 * (and so may assign it where it is called). */
static bool declared_nonlocal(Fe *fe, PyObject *id) {
  PyObject *ast = PyImport_AddModule("ast");
  PyObject *root = PyObject_CallMethod(ast, "Module", "O[]", fe->body);
  PyObject *walk = root ? PyObject_CallMethod(ast, "walk", "O", root) : NULL;
  PyObject *it = walk ? PyObject_GetIter(walk) : NULL, *n;
  bool found = !it;  /* (where it cannot tell: declared) */
  while (it && !found && (n = PyIter_Next(it))) {
    PyObject *names = is_kind(n, "Nonlocal") ? field(n, "names") : NULL;
    found = names && PySequence_Contains(names, id) == 1;
    Py_XDECREF(names);
    Py_DECREF(n);
  }
  Py_XDECREF(it); Py_XDECREF(walk); Py_XDECREF(root);
  PyErr_Clear();
  return found;
}

/* The value of variable id of the function where it holds it for good: a
 * constant (constant_of) it assigns once, never a parameter, nor assigned
 * by a nested function (nonlocal); *count how many times the body binds
 * it, up to two. A new reference, or NULL. */
static PyObject *constant_variable(Fe *fe, PyObject *id, int *count) {
  PyObject *assigned = NULL;
  *count = bindings_in_body(fe, id, &assigned);
  if (*count != 1 || !assigned || is_parameter(fe, id) || declared_nonlocal(fe, id)) return NULL;
  return constant_of(fe, assigned);
}

/* The value variable id of the function holds for good, which an inner
 * function used as a value takes frozen into its code, as Numba does: a
 * constant assigned once (constant_variable), or a nested function that
 * reads nothing of the function. A new reference; NULL with the error (at
 * e) otherwise. */
static PyObject *frozen_value(Fe *fe, PyObject *id, PyObject *e) {
  PyObject *entry = fe->lambdas ? PyDict_GetItemWithError(fe->lambdas, id) : NULL;
  if (entry && !captures(entry)) return Py_NewRef(PyTuple_GET_ITEM(entry, 0));
  int count;
  PyObject *v = constant_variable(fe, id, &count);
  if (!v && count > 1)
    return fe_error(fe, e, "Cannot capture a constant value for variable '%s' in a nested function used as a value: "
                    "the function assigns it more than once", PyUnicode_AsUTF8(id));
  if (!v)
    fe_error(fe, e, "Cannot capture the non-constant value associated with variable '%s' in a nested function used "
             "as a value: such a function takes what it reads of the enclosing one frozen, which must be a constant "
             "assigned once (pass '%s' as an argument instead)", PyUnicode_AsUTF8(id), PyUnicode_AsUTF8(id));
  return v;
}

/* The variables of captured, each with its frozen value (a new dict), for
 * an inner function used as a value; NULL after an error. One that
 * assigns variables (writes) cannot give them back. */
static PyObject *frozen_captures(Fe *fe, PyObject *node, PyObject *captured, PyObject *writes) {
  if (PyList_GET_SIZE(writes)) {
    fe_error(fe, node, "a nested function that assigns to a variable of the enclosing function (nonlocal %s) can only "
             "be called where it is defined, not used as a value", PyUnicode_AsUTF8(PyList_GET_ITEM(writes, 0)));
    return NULL;
  }
  PyObject *frozen = PyDict_New();
  for (Py_ssize_t i = 0; frozen && i < PyList_GET_SIZE(captured); i++) {
    PyObject *v = frozen_value(fe, PyList_GET_ITEM(captured, i), node);
    if (!v || PyDict_SetItem(frozen, PyList_GET_ITEM(captured, i), v) < 0) Py_CLEAR(frozen);
    Py_XDECREF(v);
  }
  return frozen;
}

/* The variables of captured that hold constants for good
 * (constant_variable), taken out of it, each with its value (a new dict):
 * globals of the inner function's code, so that what it passes on of them
 * (a closure of its own, reading them too) is as constant there as here,
 * as Numba's inlining of the closure sees them. NULL after an error. */
static PyObject *constant_captures(Fe *fe, PyObject *captured, PyObject *writes) {
  PyObject *constants = PyDict_New();
  for (Py_ssize_t i = 0; constants && i < PyList_GET_SIZE(captured);) {
    PyObject *id = PyList_GET_ITEM(captured, i);
    int count;
    PyObject *v = PySequence_Contains(writes, id) ? NULL : constant_variable(fe, id, &count);
    if (!v) {
      i++;
    } else if (PyDict_SetItem(constants, id, v) < 0 || PySequence_DelItem(captured, i) < 0) {
      Py_CLEAR(constants);
    }
    Py_XDECREF(v);
  }
  return constants;
}

/* (dispatcher, captured names, syntax tree, prelude, the nonlocal
 * variables it assigns: nonlocal_writes) of an inner function
 * in the syntax tree, borrowed (inner_made keeps it), made on first sight;
 * NULL after an error. With bound (NULL, or a dict: parameter name -> the
 * name of an inner function that reads variables, which no value can
 * carry), the variant of a def that has those parameters defined as
 * those functions at the top of its body instead (bind_parameters). Where
 * frozen, the variant used as a value: what it reads of the function are
 * globals of its code, their values frozen (frozen_captures), and it
 * captures nothing. */
static PyObject *inner_variant(Fe *fe, PyObject *node, PyObject *bound, bool frozen) {
  /* a closure's inner function sees its frozen variables: one per function object */
  PyObject *owner = PyFunction_GetClosure(fe->pyfunc) ? fe->pyfunc : PyFunction_GetCode(fe->pyfunc);
  PyObject *items = bound ? PyDict_Items(bound) : Py_NewRef(Py_None);
  PyObject *key = items ? Py_BuildValue("(OiiNO)", owner, ast_int_attr(node, "lineno"), ast_int_attr(node, "col_offset"),
                                        bound ? PyList_AsTuple(items) : Py_NewRef(Py_None), frozen ? Py_True : Py_False)
                        : NULL;
  Py_XDECREF(items);
  if (!inner_made && !(inner_made = PyDict_New())) return NULL;
  PyObject *entry = key ? PyDict_GetItemWithError(inner_made, key) : NULL;
  if (entry || !key) {
    Py_XDECREF(key);
    return entry;
  }
  PyObject *args = field(node, "args");
  PyObject *vararg = field(args, "vararg"), *kwarg = field(args, "kwarg"), *kwonly = field(args, "kwonlyargs"),
           *params = field(args, "args"), *decorators = field(node, "decorator_list");
  PyObject *captured = NULL, *writes = NULL, *prelude = NULL, *disp = NULL;
  if (kwarg != Py_None) {  /* (as a compiled function's own: each call would give it a dict of its keywords) */
    fe_error(fe, node, "a %s with **kwargs is not supported in compiled code",
             is_kind(node, "Lambda") ? "lambda" : "nested function");
  } else if (PyList_Check(decorators) && PyList_GET_SIZE(decorators)) {
    fe_error(fe, node, "a nested function in compiled code cannot have decorators");
  } else {
    PyObject *names = PyList_New(0);
    for (Py_ssize_t i = 0; names && i < PyList_GET_SIZE(params) + PyList_GET_SIZE(kwonly); i++) {
      Py_ssize_t k = i - PyList_GET_SIZE(params);
      PyObject *id = field(k < 0 ? PyList_GET_ITEM(params, i) : PyList_GET_ITEM(kwonly, k), "arg");
      if (!bound || !PyDict_Contains(bound, id)) PyList_Append(names, id);
      Py_DECREF(id);
    }
    PyObject *rest = vararg != Py_None ? field(vararg, "arg") : NULL;  /* *args: a tuple of its own */
    if (names && rest && PyList_Append(names, rest) < 0) Py_CLEAR(names);
    Py_XDECREF(rest);
    captured = names ? captured_names(fe, node, names) : NULL;
    writes = captured ? nonlocal_writes(fe, node) : NULL;
    for (Py_ssize_t i = 0; writes && i < PyList_GET_SIZE(writes); i++)
      if (!PySequence_Contains(captured, PyList_GET_ITEM(writes, i)) && PyList_Append(captured, PyList_GET_ITEM(writes, i)) < 0)
        Py_CLEAR(writes);
    prelude = !writes ? NULL : is_kind(node, "FunctionDef") ? sibling_prelude(fe, node, captured) : PyList_New(0);
    if (prelude && !bind_parameters(fe, node, bound, captured, prelude)) Py_CLEAR(prelude);
    PyObject *self = is_kind(node, "FunctionDef") ? field(node, "name") : NULL, *values = NULL;
    if (captured && self && PySequence_Contains(captured, self) == 1) {
      fe_error(fe, node, "a nested function that calls itself is not supported in compiled code: make it a "
               "function of its module");
    } else if (prelude && frozen && (values = frozen_captures(fe, node, captured, writes))) {
      Py_SETREF(captured, PyList_New(0));
      disp = captured ? make_inner(fe, node, captured, prelude, bound, writes, values, true) : NULL;
    } else if (prelude && !frozen && (values = constant_captures(fe, captured, writes))) {
      disp = make_inner(fe, node, captured, prelude, bound, writes, values, false);
    }
    Py_XDECREF(self); Py_XDECREF(values);
    Py_XDECREF(names);
    if (!disp && !fe->diag->kind)
      fe_python_error(fe, node, is_kind(node, "Lambda") ? "cannot compile this lambda" : "cannot compile this nested function",
                      "error");
  }
  entry = disp ? Py_BuildValue("(ONOON)", disp, PyList_AsTuple(captured), node, prelude, PyList_AsTuple(writes)) : NULL;
  if (entry && PyDict_SetItem(inner_made, key, entry) < 0) Py_CLEAR(entry);
  Py_XDECREF(entry);  /* the dict holds it */
  Py_XDECREF(disp); Py_XDECREF(captured); Py_XDECREF(writes); Py_XDECREF(prelude); Py_DECREF(key); Py_DECREF(decorators);
  Py_DECREF(vararg); Py_DECREF(kwarg); Py_DECREF(kwonly); Py_DECREF(params); Py_DECREF(args);
  return entry;
}

static PyObject *inner_entry(Fe *fe, PyObject *node) { return inner_variant(fe, node, NULL, false); }

/* The inner function of entry as a value at e (passed to another compiled
 * function, returned, put in a tuple): itself where it reads nothing of the
 * function, else its frozen variant (inner_variant), as Numba makes such a
 * closure a compiled function of its own bound to the constants it reads. */
static Node *inner_value(Fe *fe, PyObject *entry, PyObject *e) {
  if (entry && captures(entry)) entry = inner_variant(fe, PyTuple_GET_ITEM(entry, 2), NULL, true);
  return entry ? fe_function_value(fe, PyTuple_GET_ITEM(entry, 0), e) : NULL;
}

Node *fe_lambda(Fe *fe, PyObject *e) { return inner_value(fe, inner_entry(fe, e), e); }

Node *fe_closure_value(Fe *fe, PyObject *name, PyObject *e) {
  return inner_value(fe, PyDict_GetItemWithError(fe->lambdas, name), e);
}


/* name = the inner function: its variable holds the function's value, and
 * calls of it where it is defined pass the variables it captures. A name
 * bound to functions that capture nothing more than once (f = one lambda
 * or another, by a condition) is a variable like any other holding
 * function values, called through its type, as Numba calls it. */
static Node *bind_inner(Fe *fe, PyObject *s, PyObject *id, PyObject *entry, PyObject *at) {
  Node *n = new_node(fe, N_ASSIGN, s);
  bool value = bound_more_than_once(fe, id);
  if ((value && captures(entry)) ||
      (!value && ((!fe->lambdas && !(fe->lambdas = PyDict_New())) || PyDict_Contains(fe->lambdas, id) ||
                  PyDict_SetItem(fe->lambdas, id, entry) < 0)))
    return fe_error(fe, s, "'%s' is assigned a function more than once: compiled code needs one lambda or nested "
                    "function per name where it reads variables of the function", PyUnicode_AsUTF8(id));
  n->lhs = new_node(fe, N_VAR, s);
  n->lhs->var = find_var(fe, PyUnicode_AsUTF8(id));
  return (n->rhs = fe_function_value(fe, PyTuple_GET_ITEM(entry, 0), at)) ? n : NULL;
}

/* The inner function def bound to the name in holder's field key. */
static Node *bind_def(Fe *fe, PyObject *s, PyObject *holder, const char *key, PyObject *def) {
  PyObject *entry = inner_entry(fe, def);
  if (!entry || !late_defaults_assigned(fe, def)) return NULL;
  PyObject *id = field(holder, key);
  Node *n = bind_inner(fe, s, id, entry, def);
  Py_DECREF(id);
  return n;
}

static PyObject *closure_entry(Fe *fe, PyObject *e);

/* name = lambda ..., or name = inner where inner reads the function's
 * variables: another name for it, called as it is. */
Node *fe_lambda_assign(Fe *fe, PyObject *s, PyObject *target, PyObject *lambda) {
  if (!is_kind(lambda, "Name")) return bind_def(fe, s, target, "id", lambda);
  PyObject *id = field(target, "id");
  Node *n = bind_inner(fe, s, id, closure_entry(fe, lambda), lambda);
  Py_DECREF(id);
  return n;
}

Node *fe_def(Fe *fe, PyObject *s) {
  PyObject *id = field(s, "name");
  bool made = fe_is_alias(fe, id);  /* @stencil def f: f is what the decorator made (made_def) */
  Py_DECREF(id);
  return made ? new_node(fe, N_PASS, s) : bind_def(fe, s, s, "name", s);
}

bool fe_captures_of(Fe *fe, PyObject *name) {
  PyObject *entry = fe->lambdas ? PyDict_GetItemWithError(fe->lambdas, name) : NULL;
  return entry && captures(entry);
}

/* The entry of a lambda expression or of a name bound to an inner
 * function, or NULL (borrowed). */
static PyObject *closure_entry(Fe *fe, PyObject *e) {
  if (is_kind(e, "Lambda")) return inner_entry(fe, e);
  if (!is_kind(e, "Name") || !fe->lambdas) return NULL;
  PyObject *id = field(e, "id");
  PyObject *entry = PyDict_GetItemWithError(fe->lambdas, id);
  Py_DECREF(id);
  return entry;
}

bool fe_is_closure(Fe *fe, PyObject *e) {
  PyObject *entry = closure_entry(fe, e);
  return entry && captures(entry);
}

/* sort(key=lambda v: abs(v - c)): a key is called once per item, where
 * the sort is, so it may read the function's variables: its value, with
 * the variables it reads as N_VARs in its list, passed after the item. */
Node *fe_closure_key(Fe *fe, PyObject *e) {
  PyObject *entry = closure_entry(fe, e);
  if (writes_back(fe, entry, e, "as a key")) return NULL;
  Node *n = fe_function_value(fe, PyTuple_GET_ITEM(entry, 0), e);
  PyObject *names = PyTuple_GET_ITEM(entry, 1);
  if (!n) return NULL;
  n->list = new_list(fe, (int)PyTuple_GET_SIZE(names));
  for (int i = 0; i < n->list.len; i++) {
    Node *v = n->list.items[i] = new_node(fe, N_VAR, e);
    v->var = find_var(fe, PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i)));
  }
  return n;
}

/* ---------------------------------------------------------------- calls */

bool fe_is_local_call(Fe *fe, PyObject *func) {
  /* fns[i](x): an item of a tuple of functions (PyMPDATA's formulae per
   * dimension), called through its type as a variable's function is; so is
   * g(c)(x), the function a call returns */
  if (is_kind(func, "Call")) return !fe_is_made_value(fe, func);  /* (stencil(kernel)(a): a global's call) */
  if (is_kind(func, "Lambda") || is_kind(func, "Subscript")) return true;
  if (is_kind(func, "BinOp") || is_kind(func, "UnaryOp")) return true;  /* (a * b)(2): a package value type's __call__ */
  if (!is_kind(func, "Name")) return false;
  PyObject *id = field(func, "id");
  bool local = find_var(fe, PyUnicode_AsUTF8(id)) >= 0;
  Py_DECREF(id);
  return local;
}

/* The variables a lambda reads, passed by keyword after the call's own. */
static void pass_captured(Fe *fe, Node *n, PyObject *names, PyObject *e) {
  int nc = (int)PyTuple_GET_SIZE(names), nk = n->kw.len;
  NodeList kw = new_list(fe, nk + nc);
  const char **kw_names = arena_alloc(fe->arena, sizeof(char *) * (size_t)(nk + nc));
  for (int i = 0; i < nk; i++) {
    kw.items[i] = n->kw.items[i];
    kw_names[i] = n->kw_names[i];
  }
  for (int i = 0; i < nc; i++) {
    const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i));
    Node *v = new_node(fe, N_VAR, e);
    v->var = find_var(fe, name);
    kw.items[nk + i] = v;
    kw_names[nk + i] = arena_strdup(fe->arena, name);
  }
  n->kw = kw;
  n->kw_names = kw_names;
}

/* g(f, x) of an inner def g, where f is an inner function that reads
 * variables (which its value cannot carry): bound (a new dict) maps each
 * such parameter of g to the function's name, and *call becomes the call
 * without those arguments, to the variant of g that defines them
 * (inner_variant), as Numba inlines both. Only g's positional parameters
 * without defaults, passed by position. NULL bound where none is. */
static bool closure_arguments(Fe *fe, PyObject *def, PyObject **call, PyObject **bound) {
  *bound = NULL;
  if (!is_kind(def, "FunctionDef")) return true;
  PyObject *args = field(*call, "args"), *sig = field(def, "args"), *params = field(sig, "args"),
           *defaults = field(sig, "defaults"), *kept = PyList_New(0);
  Py_ssize_t plain = PyList_GET_SIZE(params) - PyList_GET_SIZE(defaults);
  bool ok = kept != NULL;
  for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(args); i++) {
    PyObject *a = PyList_GET_ITEM(args, i), *id = i < plain && is_kind(a, "Name") ? field(a, "id") : NULL;
    if (id && fe_captures_of(fe, id)) {
      PyObject *param = field(PyList_GET_ITEM(params, i), "arg");
      ok = (*bound || (*bound = PyDict_New())) && PyDict_SetItem(*bound, param, id) == 0;
      Py_DECREF(param);
    } else {
      ok = PyList_Append(kept, a) == 0;
    }
    Py_XDECREF(id);
  }
  PyObject *copy = ok && *bound ? PyImport_ImportModule("copy") : NULL;
  PyObject *made = copy ? PyObject_CallMethod(copy, "copy", "O", *call) : NULL;
  if (made && PyObject_SetAttrString(made, "args", kept) == 0) Py_SETREF(*call, Py_NewRef(made));
  else if (*bound) ok = false;
  Py_XDECREF(made); Py_XDECREF(copy); Py_XDECREF(kept); Py_DECREF(defaults); Py_DECREF(params); Py_DECREF(sig);
  Py_DECREF(args);
  if (!ok) Py_CLEAR(*bound);
  return ok;
}

/* item k of the hidden variable var. */
static Node *item_of(Fe *fe, PyObject *e, int var, int k) {
  Node *n = new_node(fe, N_INDEX, e);
  n->lhs = fe_var_node(fe, e, var);
  n->rhs = new_node(fe, N_INT, e);
  n->rhs->ival = k;
  return n;
}

/* call, of an inner function that assigns the nonlocal variables writes
 * and returns their new values after its own (nonlocal_body): it runs
 * before the statement (or where a branch runs: fe_branch_expr), as a
 * comprehension does, into a hidden variable;
 * the variables take their values from it there, and the call's value is
 * its first item. */
static Node *written_back(Fe *fe, PyObject *e, Node *call, PyObject *writes) {
  int var = fe_assign_before(fe, e, "call", call);
  for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(writes); k++) {
    Node *a = new_node(fe, N_ASSIGN, e);
    a->lhs = fe_var_node(fe, e, find_var(fe, PyUnicode_AsUTF8(PyTuple_GET_ITEM(writes, k))));
    a->rhs = item_of(fe, e, var, (int)k + 1);
    fe_add_pre(fe, a);
  }
  return item_of(fe, e, var, 0);
}

/* A call of a lambda (where it is defined) is a call of its compiled
 * function; a call of any other variable goes through its type. */
Node *fe_local_call(Fe *fe, PyObject *e, PyObject *func) {
  PyObject *entry = NULL;
  if (is_kind(func, "Lambda")) {
    if (!(entry = inner_entry(fe, func)) || !late_defaults_assigned(fe, func)) return NULL;
  } else if (fe->lambdas) {
    PyObject *id = field(func, "id");
    entry = PyDict_GetItemWithError(fe->lambdas, id);
    Py_DECREF(id);
  }
  Node *n = new_node(fe, N_CALL, e);
  if (entry && fe_has_starred(e)) {  /* (lambda a, b: ...)(*t), as map(f, *t) calls f */
    n->bi = core_builtin_named("a ruchey function");
    if (PyTuple_GET_SIZE(PyTuple_GET_ITEM(entry, 1)))
      return fe_error(fe, e, "a call with *args of a lambda that reads the function's variables is not supported");
    return fe_bind_spread_call(fe, e, n, PyTuple_GET_ITEM(entry, 0), fe_spread_args(fe, e)) ? n : NULL;
  }
  if (entry) {
    n->bi = core_builtin_named("a ruchey function");
    PyObject *call = Py_NewRef(e), *bound = NULL;
    if (closure_arguments(fe, PyTuple_GET_ITEM(entry, 2), &call, &bound) && bound)
      entry = inner_variant(fe, PyTuple_GET_ITEM(entry, 2), bound, false);
    bool ok = entry && !PyErr_Occurred() && fe_call_args(fe, call, n, 0);
    Py_DECREF(call);
    Py_XDECREF(bound);
    if (!ok) return NULL;
    pass_captured(fe, n, PyTuple_GET_ITEM(entry, 1), e);
    if (!fe_bind_jit_call(fe, e, n, PyTuple_GET_ITEM(entry, 0))) return NULL;
    return PyTuple_GET_SIZE(PyTuple_GET_ITEM(entry, 4)) ? written_back(fe, e, n, PyTuple_GET_ITEM(entry, 4)) : n;
  }
  n->bi = core_builtin_named("a function value");
  if (!(n->lhs = fe_expr(fe, func))) return NULL;
  if (fe_has_starred(e)) {  /* f(x, *args): bound once f's type names the function */
    n->bi = core_builtin_named("a function value with *args");
    n->list = new_list(fe, 1);
    return (n->list.items[0] = fe_spread_args(fe, e)) ? n : NULL;
  }
  return fe_call_args(fe, e, n, 0) ? n : NULL;
}

/* Whether statements of a def's body are read in place of a call: no
 * return (the call is a statement, whose value nobody reads; a final one
 * is taken apart before: valued_body), no yield, and no function or class
 * of its own (whose names a renaming would have to follow). */
static bool inlinable_body(PyObject *body) {
  PyObject *walk = NULL, *it = NULL, *n;
  PyObject *root = PyObject_CallMethod(PyImport_AddModule("ast"), "Module", "O[]", body);
  walk = root ? PyObject_CallMethod(PyImport_AddModule("ast"), "walk", "O", root) : NULL;
  it = walk ? PyObject_GetIter(walk) : NULL;
  bool ok = it != NULL;
  while (ok && (n = PyIter_Next(it))) {
    ok = !is_kind(n, "Return") && !is_kind(n, "Yield") && !is_kind(n, "YieldFrom") && !is_kind(n, "FunctionDef") &&
         !is_kind(n, "Lambda") && !is_kind(n, "ClassDef") && !is_kind(n, "Global");
    Py_DECREF(n);
  }
  Py_XDECREF(it); Py_XDECREF(walk); Py_XDECREF(root);
  PyErr_Clear();
  return ok;
}

/* Whether e makes an empty list, dict or set ([], {}, list(), dict(),
 * set()): a container whose types what is stored into it gives. */
static bool makes_empty_container(PyObject *e) {
  if (is_kind(e, "List") || is_kind(e, "Set") || is_kind(e, "Dict")) {
    PyObject *items = field(e, is_kind(e, "Dict") ? "keys" : "elts");
    bool empty = PyList_GET_SIZE(items) == 0;
    Py_DECREF(items);
    return empty;
  }
  if (!is_kind(e, "Call")) return false;
  PyObject *func = field(e, "func"), *args = field(e, "args"), *kws = field(e, "keywords");
  PyObject *id = is_kind(func, "Name") ? field(func, "id") : NULL;
  const char *name = id ? PyUnicode_AsUTF8(id) : "";
  bool empty = !PyList_GET_SIZE(args) && !PyList_GET_SIZE(kws) &&
               (!strcmp(name, "list") || !strcmp(name, "dict") || !strcmp(name, "set"));
  Py_XDECREF(id); Py_DECREF(func); Py_DECREF(args); Py_DECREF(kws);
  return empty;
}

/* Whether the def reads a variable of the function that is made an empty
 * container once (makes_empty_container): where what it stores types the
 * container, its body is read in place of a call whose value is used
 * too (valued_body), as Numba inlines a closure, so that the container's
 * types come from it; elsewhere a call stays a call. */
static bool fills_empty_container(Fe *fe, PyObject *def) {
  PyObject *reads = body_names(def, "Load");
  bool fills = false;
  for (Py_ssize_t i = 0; reads && !fills && i < PyList_GET_SIZE(reads); i++) {
    PyObject *id = PyList_GET_ITEM(reads, i), *assigned = NULL;
    fills = find_var(fe, PyUnicode_AsUTF8(id)) >= 0 && bindings_in_body(fe, id, &assigned) == 1 && assigned &&
            makes_empty_container(assigned);
  }
  Py_XDECREF(reads);
  PyErr_Clear();
  return fills;
}

/* The statements of a def's body read in place of the call in statement s
 * (x = f(a), x += f(a), return f(a)) where the body ends in its one
 * return: those before it, then s with the returned value in the call's
 * place, so that it is renamed with the body (the placeholder statement
 * `value`, made s after renaming: valued_statement). NULL where the body
 * is not such (a new reference). */
static PyObject *valued_body(PyObject *body) {
  Py_ssize_t n = PyList_GET_SIZE(body);
  PyObject *last = n ? PyList_GET_ITEM(body, n - 1) : NULL, *value = last && is_kind(last, "Return") ? field(last, "value") : NULL;
  PyObject *walked = value && value != Py_None ? PyList_GetSlice(body, 0, n - 1) : NULL;
  PyObject *stmt = walked ? PyObject_CallMethod(PyImport_AddModule("ast"), "Expr", "O", value) : NULL;
  bool ok = stmt && PyList_Append(walked, stmt) == 0 && inlinable_body(walked);
  Py_XDECREF(value); Py_XDECREF(stmt);
  if (!ok) Py_CLEAR(walked);
  PyErr_Clear();
  return walked;
}

/* s (a copy) with the renamed body's last statement's value (valued_body)
 * as its value, in that statement's place. */
static bool valued_statement(PyObject *own, PyObject *s) {
  Py_ssize_t n = PyList_GET_SIZE(own);
  PyObject *copy = PyImport_ImportModule("copy"), *value = field(PyList_GET_ITEM(own, n - 1), "value");
  PyObject *made = copy ? PyObject_CallMethod(copy, "copy", "O", s) : NULL;
  bool ok = made && PyObject_SetAttrString(made, "value", value) == 0 && PyList_SetItem(own, n - 1, made) == 0;
  if (!ok) Py_XDECREF(made);
  Py_XDECREF(copy); Py_DECREF(value);
  return ok;
}

/* The def's parameters and the names its body assigns that are not
 * declared nonlocal, each mapped to a hidden name (x to x.<n>): its own
 * variables, where its body is read in the enclosing function. */
static PyObject *own_names(Fe *fe, PyObject *def, PyObject *params) {
  PyObject *names = PyDict_New(), *stores = body_names(def, "Store"), *body = field(def, "body");
  PyObject *declared = PyList_New(0);
  for (Py_ssize_t i = 0; declared && i < PyList_GET_SIZE(body); i++) {
    PyObject *stmt = PyList_GET_ITEM(body, i), *list = is_kind(stmt, "Nonlocal") ? field(stmt, "names") : NULL;
    if (list && PyList_SetSlice(declared, PyList_GET_SIZE(declared), PyList_GET_SIZE(declared), list) < 0) Py_CLEAR(declared);
    Py_XDECREF(list);
  }
  for (Py_ssize_t i = 0; names && stores && declared && i < PyList_GET_SIZE(params) + PyList_GET_SIZE(stores); i++) {
    PyObject *id = i < PyList_GET_SIZE(params) ? field(PyList_GET_ITEM(params, i), "arg")
                                               : Py_NewRef(PyList_GET_ITEM(stores, i - PyList_GET_SIZE(params)));
    PyObject *hidden = PySequence_Contains(declared, id) == 1 ? NULL : PyUnicode_FromFormat("%U.%d", id, fe->ntemps++);
    if (hidden && (PyDict_SetItem(names, id, hidden) < 0 || fe_add_var(fe, PyUnicode_AsUTF8(hidden)) < 0)) Py_CLEAR(names);
    Py_DECREF(id); Py_XDECREF(hidden);
  }
  if (!stores || !declared) Py_CLEAR(names);
  Py_XDECREF(stores); Py_XDECREF(declared); Py_DECREF(body);
  return names;
}

/* f(a, b) as a statement, f a nested def (inlinable_body) called with its
 * positional parameters only: its body read in the enclosing function,
 * its parameters and variables its own (own_names), each parameter
 * assigned its argument first, as Numba inlines such a closure. So what it
 * does to the enclosing function's variables (appending to a list made
 * empty there, assigning a nonlocal one) types and runs there. So is the
 * call that is the value of s (x = f(a), x += f(a), return f(a)) of a def
 * that fills a container made empty there (fills_empty_container) and
 * ends in its one return (valued_body). NULL, no error, where the call is
 * not such. */
Node *fe_inlined_call(Fe *fe, PyObject *s, PyObject *call) {
  if (!is_kind(call, "Call") || fe->inlining >= 8 || !fe->lambdas) return NULL;
  PyObject *func = field(call, "func"), *id = is_kind(func, "Name") ? field(func, "id") : NULL;
  PyObject *entry = id ? PyDict_GetItemWithError(fe->lambdas, id) : NULL;
  PyObject *def = entry ? PyTuple_GET_ITEM(entry, 2) : NULL;
  Py_DECREF(func); Py_XDECREF(id);
  if (!def || !is_kind(def, "FunctionDef")) return NULL;
  PyObject *sig = field(def, "args"), *params = field(sig, "args"), *args = field(call, "args"), *kws = field(call, "keywords");
  PyObject *vararg = field(sig, "vararg"), *kwarg = field(sig, "kwarg"), *kwonly = field(sig, "kwonlyargs");
  bool plain = vararg == Py_None && kwarg == Py_None && !PyList_GET_SIZE(kwonly) && !PyList_GET_SIZE(kws) &&
               PyList_GET_SIZE(args) == PyList_GET_SIZE(params);
  for (Py_ssize_t i = 0; plain && i < PyList_GET_SIZE(args); i++) {  /* (an inner function passed: its own variant) */
    PyObject *a = PyList_GET_ITEM(args, i), *name = is_kind(a, "Name") ? field(a, "id") : NULL;
    plain = !is_kind(a, "Starred") && !(name && PyDict_Contains(fe->lambdas, name) == 1);
    Py_XDECREF(name);
  }
  Py_DECREF(vararg); Py_DECREF(kwarg); Py_DECREF(kwonly); Py_DECREF(kws);
  bool valued = !is_kind(s, "Expr");
  PyObject *written = field(def, "body");
  if (valued && plain) Py_SETREF(written, fills_empty_container(fe, def) ? valued_body(written) : NULL);
  PyObject *names = plain && written && (valued || inlinable_body(written)) ? own_names(fe, def, params) : NULL;
  PyObject *body = names ? PyList_New(0) : NULL;
  for (Py_ssize_t i = 0; body && i < PyList_GET_SIZE(written); i++)  /* (its nonlocal names are the function's) */
    if (!is_kind(PyList_GET_ITEM(written, i), "Nonlocal") && PyList_Append(body, PyList_GET_ITEM(written, i)) < 0)
      Py_CLEAR(body);
  Py_XDECREF(written);
  PyObject *own = body ? fe_renamed(body, names) : NULL;
  if (own && valued && !valued_statement(own, s)) Py_CLEAR(own);
  Node *n = NULL;
  NodeList values, stmts;
  if (own && fe_exprs(fe, args, &values)) {
    fe->inlining++;
    bool ok = fe_block(fe, own, &stmts);
    fe->inlining--;
    n = ok ? new_node(fe, N_BLOCK, s) : NULL;
    if (n) n->body = new_list(fe, values.len + stmts.len);
    for (int i = 0; n && i < values.len; i++) {
      PyObject *param = field(PyList_GET_ITEM(params, i), "arg");
      Node *a = n->body.items[i] = new_node(fe, N_ASSIGN, s);
      a->lhs = fe_var_node(fe, s, find_var(fe, PyUnicode_AsUTF8(PyDict_GetItem(names, param))));
      a->rhs = values.items[i];
      Py_DECREF(param);
    }
    for (int i = 0; n && i < stmts.len; i++) n->body.items[values.len + i] = stmts.items[i];
  }
  if (names && !own && !fe->diag->kind) fe_error(fe, s, "cannot read this call");
  PyErr_Clear();
  Py_XDECREF(names); Py_XDECREF(body); Py_XDECREF(own); Py_DECREF(sig); Py_DECREF(params); Py_DECREF(args);
  return n;
}

/* ---------------------------------------------------------------- imports */

PyObject *fe_imported(Fe *fe, PyObject *name) {
  return fe->imports ? PyDict_GetItemWithError(fe->imports, name) : NULL;
}

/* ---------------------------------------------------------------- values made at compile time */

/* The __ruchey_compile_time__ hook of the maker that node calls (a
 * call's callee, or a def's one decorator, called or not: @stencil,
 * @stencil(cval=1)); NULL if it calls none. */
static PyObject *maker_hook(Fe *fe, PyObject *node) {
  bool def = is_kind(node, "FunctionDef");
  if (!def && !is_kind(node, "Call")) return NULL;
  PyObject *decorators = def ? field(node, "decorator_list") : NULL;
  PyObject *maker_expr = !def ? field(node, "func")
                         : PyList_GET_SIZE(decorators) == 1 ? Py_NewRef(PyList_GET_ITEM(decorators, 0)) : NULL;
  if (def && maker_expr && is_kind(maker_expr, "Call")) Py_SETREF(maker_expr, field(maker_expr, "func"));  /* @stencil(cval=1) */
  Py_XDECREF(decorators);
  PyObject *maker = maker_expr ? static_object(fe, maker_expr) : NULL;
  Py_XDECREF(maker_expr);
  PyObject *hook = maker ? PyObject_GetAttrString(maker, "__ruchey_compile_time__") : NULL;
  Py_XDECREF(maker);
  PyErr_Clear();
  return hook;
}

bool fe_is_made_value(Fe *fe, PyObject *node) {
  PyObject *hook = maker_hook(fe, node);
  Py_XDECREF(hook);
  return hook != NULL;
}

/* The object a call of a maker makes (ruchey.stencil(kernel, ...), or a
 * nested def with such a decorator, @stencil): the maker's hook makes it
 * from the call's (the def's) syntax tree, the function's body (where a
 * kernel named by a nested def's name is) and the names its code sees,
 * once per place in the function (the hook keeps what it made), as Numba
 * makes a stencil while it types the caller. Calls of that object are as
 * of a global's. NULL where node is no such call; NULL with the error
 * where the hook raised. A new reference. */
PyObject *fe_made_value(Fe *fe, PyObject *node) {
  PyObject *hook = maker_hook(fe, node);
  if (!hook) return NULL;
  PyObject *owner = PyFunction_GetClosure(fe->pyfunc) ? fe->pyfunc : PyFunction_GetCode(fe->pyfunc);
  PyObject *names = inner_globals(fe, NULL);
  PyObject *made = names ? PyObject_CallFunctionObjArgs(hook, node, fe->body, names, owner, NULL) : NULL;
  Py_XDECREF(names);
  Py_DECREF(hook);
  return made ? made : fe_python_error(fe, node, NULL, "it cannot be made at compile time");
}

/* ---------------------------------------------------------------- local names of builtins */

/* An if statement's test known before the code runs, as typing prunes on
 * it: a global bool or int (a module attribute too) through names the
 * function never binds (sktime's `if NUMPY1:`), `not` of one; 1 or 0, -1
 * where not known. */
static int static_test(Fe *fe, PyObject *test) {
  if (is_kind(test, "UnaryOp")) {
    PyObject *op = field(test, "op"), *x = field(test, "operand");
    int t = is_kind(op, "Not") ? static_test(fe, x) : -1;
    Py_DECREF(op); Py_DECREF(x);
    return t < 0 ? t : !t;
  }
  PyObject *root = Py_NewRef(test);
  while (is_kind(root, "Attribute")) Py_SETREF(root, field(root, "value"));
  PyObject *id = is_kind(root, "Name") ? field(root, "id") : NULL;
  PyObject *code = id ? PyFunction_GetCode(fe->pyfunc) : NULL;
  PyObject *locals = code ? PyObject_GetAttrString(code, "co_varnames") : NULL;
  PyObject *cells = locals ? PyObject_GetAttrString(code, "co_cellvars") : NULL;
  bool global = cells && !PySequence_Contains(locals, id) && !PySequence_Contains(cells, id);
  PyObject *obj = global ? static_object(fe, test) : NULL;
  int t = obj && (PyBool_Check(obj) || PyLong_CheckExact(obj)) ? PyObject_IsTrue(obj) : -1;
  PyErr_Clear();
  Py_XDECREF(obj); Py_XDECREF(cells); Py_XDECREF(locals); Py_XDECREF(id); Py_DECREF(root);
  return t;
}

/* The statements of an if statement that run where its test is known
 * (static_test): a new reference, or NULL. */
static PyObject *static_branch(Fe *fe, PyObject *node) {
  if (!is_kind(node, "If")) return NULL;
  PyObject *test = field(node, "test");
  int t = static_test(fe, test);
  Py_DECREF(test);
  return t < 0 ? NULL : field(node, t ? "body" : "orelse");
}

/* How many times each name is bound (stored or deleted) in the body, its
 * nested functions' and classes' own names apart, a branch never taken
 * apart too: name -> count. */
static void count_bindings(Fe *fe, PyObject *node, PyObject *counts) {
  if (!fe_room(fe, node) || PyErr_Occurred()) return;
  PyObject *live = static_branch(fe, node);
  if (live) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(live); i++) count_bindings(fe, PyList_GET_ITEM(live, i), counts);
    Py_DECREF(live);
    return;
  }
  if (is_kind(node, "FunctionDef") || is_kind(node, "AsyncFunctionDef") || is_kind(node, "ClassDef") ||
      is_kind(node, "Lambda"))
    return;  /* (its name counts as the Assign's would not: such a name is never an alias) */
  if (is_kind(node, "Name")) {
    PyObject *ctx = field(node, "ctx"), *id = field(node, "id");
    if (!is_kind(ctx, "Load")) {
      PyObject *was = PyDict_GetItemWithError(counts, id);
      PyObject *now = PyLong_FromLong(was ? PyLong_AsLong(was) + 1 : 1);
      if (now) PyDict_SetItem(counts, id, now);
      Py_XDECREF(now);
    }
    Py_DECREF(ctx); Py_DECREF(id);
    return;
  }
  PyObject *fields = PyObject_GetAttrString((PyObject *)Py_TYPE(node), "_fields");
  if (!fields) PyErr_Clear();  /* a name (global x's), not a node */
  for (Py_ssize_t i = 0; fields && i < PyTuple_GET_SIZE(fields); i++) {
    PyObject *v = field(node, PyUnicode_AsUTF8(PyTuple_GET_ITEM(fields, i)));
    if (PyList_Check(v))
      for (Py_ssize_t j = 0; j < PyList_GET_SIZE(v); j++) count_bindings(fe, PyList_GET_ITEM(v, j), counts);
    else if (PyObject_HasAttrString((PyObject *)Py_TYPE(v), "_fields"))
      count_bindings(fe, v, counts);
    Py_DECREF(v);
  }
  Py_XDECREF(fields);
}

/* The builtin a name of an alias assignment is bound to: value names a
 * function compiled code knows (math.sqrt, numpy.sin, operator.lt), or a
 * module it knows (m = numpy: m.arange(n) is numpy.arange(n), as Numba
 * types m a Module) or a namespace of ruchey.cuda's (cuda.threadIdx),
 * through names the body never binds; NULL otherwise (a value read without
 * a call, as cuda.threadIdx.x, stays a variable). A new reference. */
static PyObject *aliased_builtin(Fe *fe, PyObject *value, PyObject *counts) {
  PyObject *root = Py_NewRef(value);
  while (is_kind(root, "Attribute") || is_kind(root, "Call"))
    Py_SETREF(root, field(root, is_kind(root, "Call") ? "func" : "value"));
  PyObject *id = is_kind(root, "Name") ? field(root, "id") : NULL;
  bool outside = id && !PyDict_GetItemWithError(counts, id) && !PyErr_Occurred();
  Py_XDECREF(id); Py_DECREF(root);
  if (is_kind(value, "Call")) return outside ? fe_made_value(fe, value) : NULL;  /* f = stencil(kernel) */
  PyObject *obj = outside ? static_object(fe, value) : NULL;
  if (obj && (core_module_id(obj) >= 0 || PyObject_HasAttrString(obj, "__ruchey_namespace__")))
    return obj;  /* (t = cuda.threadIdx: t.x is cuda.threadIdx.x, as numba-cuda types t a Dim3) */
  const Builtin *bi = obj ? core_builtin(obj) : NULL;
  if (obj && !fe_is_operator_function(obj) && (!bi || bi->kind != BK_FUNCTION || (bi->flags & BF_NOCALL) || PyObject_TypeCheck(obj, &DispatcherType)))
    Py_CLEAR(obj);
  PyErr_Clear();
  return obj;
}

/* An assignment binding names to builtins only (f = math.sqrt;
 * _sqrt, _exp = sqrt, exp), or a name to what a maker makes (f =
 * stencil(kernel)), each name bound nowhere else: those names are the
 * objects themselves for the whole body, as an import binds them, and
 * the statement does nothing (fe_assign). */
static void alias_assignment(Fe *fe, PyObject *s, PyObject *counts) {
  PyObject *targets = field(s, "targets"), *value = field(s, "value");
  PyObject *target = PyList_GET_SIZE(targets) == 1 ? PyList_GET_ITEM(targets, 0) : NULL;
  PyObject *names = NULL, *values = NULL;
  if (target && is_kind(target, "Name")) {
    names = PyList_New(1), values = PyList_New(1);
    if (names && values) {
      PyList_SET_ITEM(names, 0, Py_NewRef(target));
      PyList_SET_ITEM(values, 0, Py_NewRef(value));
    }
  } else if (target && is_kind(target, "Tuple") && is_kind(value, "Tuple")) {
    names = field(target, "elts"), values = field(value, "elts");
  }
  PyObject *bound = PyDict_New();
  bool all = names && values && bound && PyList_GET_SIZE(names) == PyList_GET_SIZE(values);
  for (Py_ssize_t i = 0; all && i < PyList_GET_SIZE(names); i++) {
    PyObject *name = PyList_GET_ITEM(names, i), *id = is_kind(name, "Name") ? field(name, "id") : NULL;
    PyObject *count = id ? PyDict_GetItemWithError(counts, id) : NULL;
    PyObject *obj = count && PyLong_AsLong(count) == 1 ? aliased_builtin(fe, PyList_GET_ITEM(values, i), counts) : NULL;
    all = obj && PyDict_SetItem(bound, id, obj) == 0;
    Py_XDECREF(obj); Py_XDECREF(id);
  }
  if (all && (fe->imports || (fe->imports = PyDict_New()))) PyDict_Update(fe->imports, bound);
  PyErr_Clear();
  Py_XDECREF(bound); Py_XDECREF(names); Py_XDECREF(values); Py_DECREF(targets); Py_DECREF(value);
}

/* A nested def decorated by a maker (@stencil), its name bound nowhere
 * else (no assignment, no other def): the name is what the maker made,
 * as an import binds it, and the def does nothing (fe_def). */
static void made_def(Fe *fe, PyObject *node, PyObject *counts) {
  PyObject *id = field(node, "name");
  if (!PyDict_GetItemWithError(counts, id) && !PyErr_Occurred() && !bound_more_than_once(fe, id)) {
    PyObject *made = fe_made_value(fe, node);
    if (made && (fe->imports || (fe->imports = PyDict_New()))) PyDict_SetItem(fe->imports, id, made);
    Py_XDECREF(made);
  }
  PyErr_Clear();
  Py_DECREF(id);
}

static void find_aliases(Fe *fe, PyObject *node, PyObject *counts) {
  if (!fe_room(fe, node)) return;
  PyObject *live = static_branch(fe, node);
  if (live) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(live); i++) find_aliases(fe, PyList_GET_ITEM(live, i), counts);
    Py_DECREF(live);
    return;
  }
  if (is_kind(node, "FunctionDef")) {
    made_def(fe, node, counts);
    return;
  }
  if (is_kind(node, "AsyncFunctionDef") || is_kind(node, "ClassDef") || is_kind(node, "Lambda")) return;
  if (is_kind(node, "Assign")) {
    alias_assignment(fe, node, counts);
    return;
  }
  static const char *const blocks[] = {"body", "orelse", "finalbody", "handlers"};
  for (int b = 0; b < 4; b++) {
    if (!PyObject_HasAttrString(node, blocks[b])) continue;
    PyObject *list = field(node, blocks[b]);
    for (Py_ssize_t i = 0; PyList_Check(list) && i < PyList_GET_SIZE(list); i++)
      find_aliases(fe, PyList_GET_ITEM(list, i), counts);
    Py_DECREF(list);
  }
}

/* How a name is read in a syntax tree: only as the callee of calls, or
 * also otherwise (passed on, returned, read inside a nested function). */
typedef struct {
  PyObject *id;
  bool read;       /* read at all */
  bool otherwise;  /* read other than as a callee in this function's own code */
} Reads;

static bool names(PyObject *node, PyObject *id) {
  if (!is_kind(node, "Name")) return false;
  PyObject *name = field(node, "id");
  bool same = PyUnicode_Compare(name, id) == 0;
  Py_DECREF(name);
  return same;
}

static void find_reads(Fe *fe, PyObject *node, Reads *r, bool nested) {
  if (!fe_room(fe, node) || r->otherwise) return;
  if (names(node, r->id)) {
    r->read = true;
    r->otherwise = true;  /* (a callee's name is never walked to) */
    return;
  }
  nested |= is_kind(node, "FunctionDef") || is_kind(node, "Lambda") || is_kind(node, "ClassDef");
  bool called = is_kind(node, "Call") && !nested;
  PyObject *func = called ? field(node, "func") : NULL;
  if (func && names(func, r->id)) r->read = true;
  else if (func) find_reads(fe, func, r, nested);
  PyObject *fields = PyObject_GetAttrString((PyObject *)Py_TYPE(node), "_fields");
  if (!fields) PyErr_Clear();  /* (a name, not a node) */
  for (Py_ssize_t i = 0; fields && i < PyTuple_GET_SIZE(fields); i++) {
    const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(fields, i));
    if (called && !strcmp(name, "func")) continue;
    PyObject *v = field(node, name);
    if (PyList_Check(v))
      for (Py_ssize_t j = 0; j < PyList_GET_SIZE(v); j++) find_reads(fe, PyList_GET_ITEM(v, j), r, nested);
    else if (PyObject_HasAttrString((PyObject *)Py_TYPE(v), "_fields"))
      find_reads(fe, v, r, nested);
    Py_DECREF(v);
  }
  Py_XDECREF(fields);
  Py_XDECREF(func);
}

/* The attribute an alias assignment's value names: x.name, or
 * getattr(x, "name") of Python's getattr (a new ast.Attribute node);
 * a new reference, or NULL. */
static PyObject *named_attribute(Fe *fe, PyObject *value, PyObject *counts) {
  if (is_kind(value, "Attribute")) return Py_NewRef(value);
  PyObject *func = is_kind(value, "Call") ? field(value, "func") : NULL;
  PyObject *args = func ? field(value, "args") : NULL, *kw = func ? field(value, "keywords") : NULL;
  PyObject *getattr = PyUnicode_FromString("getattr"), *attr = NULL;
  bool builtin = getattr && func && names(func, getattr) && !PyDict_GetItemWithError(counts, getattr) &&
                 !PyDict_GetItemWithError(fe->globals, getattr);
  if (builtin && PyList_GET_SIZE(args) == 2 && !PyList_GET_SIZE(kw)) {
    PyObject *name = PyList_GET_ITEM(args, 1);
    PyObject *text = is_kind(name, "Constant") ? field(name, "value") : NULL;
    PyObject *ast = PyImport_AddModule("ast"), *load = text && PyUnicode_Check(text) ? PyObject_CallMethod(ast, "Load", NULL) : NULL;
    attr = load ? PyObject_CallMethod(ast, "Attribute", "OOO", PyList_GET_ITEM(args, 0), text, load) : NULL;
    if (attr) Py_XDECREF(PyObject_CallMethod(ast, "copy_location", "OO", attr, value));
    Py_XDECREF(load); Py_XDECREF(text);
  }
  PyErr_Clear();
  Py_XDECREF(getattr); Py_XDECREF(func); Py_XDECREF(args); Py_XDECREF(kw);
  return attr;
}

/* Whether statement s (at the function's top level) binds name alone. */
static bool binds_only(PyObject *s, PyObject *id) {
  if (!is_kind(s, "Assign")) return false;
  PyObject *targets = field(s, "targets");
  bool only = PyList_GET_SIZE(targets) == 1 && names(PyList_GET_ITEM(targets, 0), id);
  Py_DECREF(targets);
  return only;
}

/* m = x.name (or getattr(x, "name")) at the function's top level, m bound
 * nowhere else and read only as a callee, after it; x a parameter never
 * bound again or a variable bound once, before, at the top level too: m is
 * the method x.name, bound to x's one value, as Numba's BoundFunction
 * values are; each m(args) is x.name(args) and the statement does nothing. */
static void method_alias(Fe *fe, PyObject *body, Py_ssize_t at, PyObject *counts) {
  PyObject *s = PyList_GET_ITEM(body, at);
  PyObject *targets = is_kind(s, "Assign") ? field(s, "targets") : NULL;
  PyObject *m = targets && PyList_GET_SIZE(targets) == 1 && is_kind(PyList_GET_ITEM(targets, 0), "Name")
                    ? field(PyList_GET_ITEM(targets, 0), "id") : NULL;
  PyObject *value = m ? field(s, "value") : NULL;
  PyObject *attr = value ? named_attribute(fe, value, counts) : NULL;
  PyObject *x = attr ? field(attr, "value") : NULL, *xid = x && is_kind(x, "Name") ? field(x, "id") : NULL;
  PyObject *mcount = xid ? PyDict_GetItemWithError(counts, m) : NULL, *xcount = mcount ? PyDict_GetItemWithError(counts, xid) : NULL;
  int var = xid ? find_var(fe, PyUnicode_AsUTF8(xid)) : -1;
  bool bound_before = false;  /* x's one binding, a statement before this one */
  for (Py_ssize_t i = 0; xcount && PyLong_AsLong(xcount) == 1 && i < at; i++)
    bound_before |= binds_only(PyList_GET_ITEM(body, i), xid);
  bool ok = mcount && PyLong_AsLong(mcount) == 1 && !PyErr_Occurred() &&
            (xcount ? bound_before : var >= 0 && var < fe->f->nparams);
  Reads r = {m, false, false};
  for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(body); i++) {
    if (i == at) {
      find_reads(fe, value, &r, false);
      ok = !r.read;
      continue;
    }
    find_reads(fe, PyList_GET_ITEM(body, i), &r, false);
    ok = !r.otherwise && !(r.read && i < at);
  }
  if (ok && (fe->methods || (fe->methods = PyDict_New()))) PyDict_SetItem(fe->methods, m, attr);
  PyErr_Clear();
  Py_XDECREF(targets); Py_XDECREF(m); Py_XDECREF(value); Py_XDECREF(attr); Py_XDECREF(x); Py_XDECREF(xid);
}

void fe_collect_aliases(Fe *fe, PyObject *body) {
  PyObject *counts = PyDict_New();
  for (Py_ssize_t i = 0; counts && i < PyList_GET_SIZE(body); i++) count_bindings(fe, PyList_GET_ITEM(body, i), counts);
  for (Py_ssize_t i = 0; counts && i < PyList_GET_SIZE(body); i++) find_aliases(fe, PyList_GET_ITEM(body, i), counts);
  for (Py_ssize_t i = 0; counts && i < PyList_GET_SIZE(body); i++) method_alias(fe, body, i, counts);
  PyErr_Clear();
  Py_XDECREF(counts);
}

bool fe_is_alias(Fe *fe, PyObject *name) {
  bool alias = (fe->imports && PyDict_GetItemWithError(fe->imports, name)) ||
               (fe->methods && PyDict_GetItemWithError(fe->methods, name));
  return alias && find_var(fe, PyUnicode_AsUTF8(name)) < 0;
}

PyObject *fe_method_alias(Fe *fe, PyObject *func) {
  if (!fe->methods || !is_kind(func, "Name")) return NULL;
  PyObject *id = field(func, "id"), *attr = PyDict_GetItemWithError(fe->methods, id);
  Py_DECREF(id);
  PyErr_Clear();
  return attr;
}

/* "a" of "a.b.c": a new reference. */
static PyObject *top_name(PyObject *name) {
  Py_ssize_t dot = PyUnicode_FindChar(name, '.', 0, PyUnicode_GET_LENGTH(name), 1);
  return dot < 0 ? Py_NewRef(name) : PyUnicode_Substring(name, 0, dot);
}

/* import a.b [as c], from a import b [as c]: imported now, the names bound
 * to the objects for the rest of the function. */
static PyObject *imported_object(Fe *fe, PyObject *s, PyObject *base, PyObject *name, PyObject *asname) {
  if (base) {
    PyObject *obj = PyObject_GetAttr(base, name);
    if (!obj) {  /* a submodule not imported yet */
      PyErr_Clear();
      PyObject *full = PyUnicode_FromFormat("%s.%U", PyModule_GetName(base), name);
      obj = full ? PyImport_Import(full) : NULL;
      Py_XDECREF(full);
    }
    return obj;
  }
  PyObject *leaf = PyImport_Import(name);
  if (!leaf || asname != Py_None) return leaf;
  Py_DECREF(leaf);  /* import a.b binds a */
  PyObject *first = top_name(name);
  PyObject *top = first ? PyImport_Import(first) : NULL;
  Py_XDECREF(first);
  return top;
}

Node *fe_import(Fe *fe, PyObject *s) {
  if (!fe->imports && !(fe->imports = PyDict_New())) return NULL;
  PyObject *names = field(s, "names"), *base = NULL;
  Node *n = new_node(fe, N_PASS, s);
  if (is_kind(s, "ImportFrom")) {
    PyObject *module = field(s, "module");
    PyObject *fromlist = PyList_New(0);
    for (Py_ssize_t i = 0; fromlist && i < PyList_GET_SIZE(names); i++) {
      PyObject *name = field(PyList_GET_ITEM(names, i), "name");
      PyList_Append(fromlist, name);
      Py_DECREF(name);
    }
    PyObject *empty = PyUnicode_FromString("");
    base = fromlist ? PyImport_ImportModuleLevelObject(module == Py_None ? empty : module, fe->globals, NULL,
                                                       fromlist, ast_int_attr(s, "level"))
                    : NULL;
    Py_XDECREF(empty); Py_XDECREF(fromlist); Py_DECREF(module);
    if (!base) n = NULL;
  }
  for (Py_ssize_t i = 0; n && i < PyList_GET_SIZE(names); i++) {
    PyObject *alias = PyList_GET_ITEM(names, i);
    PyObject *name = field(alias, "name"), *asname = field(alias, "asname");
    PyObject *obj = NULL, *key = asname != Py_None ? asname : name;
    if (!strcmp(PyUnicode_AsUTF8(name), "*")) {
      n = fe_error(fe, s, "'from ... import *' is not supported in compiled code");
    } else if (!(obj = imported_object(fe, s, base, name, asname))) {
      n = NULL;
    } else {
      PyObject *bound = !base && asname == Py_None ? top_name(name) : Py_NewRef(key);
      if (!bound || PyDict_SetItem(fe->imports, bound, obj) < 0) n = NULL;
      Py_XDECREF(bound);
    }
    Py_XDECREF(obj);
    Py_DECREF(name); Py_DECREF(asname);
  }
  if (!n && !fe->diag->kind) fe_python_error(fe, s, "cannot import here", "error");
  PyErr_Clear();
  Py_XDECREF(base);
  Py_DECREF(names);
  return n;
}

/* f(x) where f holds a compiled function, bound once f's type names it
 * (infer asks): keywords and defaults as fe_bind_jit_call binds them
 * (f(x, *t): as fe_bind_spread_call does, the tuple packed already), the
 * nodes made with no source position of their own (Py_None has none). */
bool fe_bind_value_call(Arena *arena, Diag *diag, Node *call, PyObject *disp) {
  Fe fe = {.arena = arena, .diag = diag};
  bool ok = call->bi == core_builtin_named("a function value with *args")
                ? fe_bind_spread_call(&fe, Py_None, call, disp, call->list.items[0])
                : fe_bind_jit_call(&fe, Py_None, call, disp);
  PyErr_Clear();
  return ok;
}

/* ---------------------------------------------------------------- native functions */

/* A native function (a @cfunc, a WrapperAddressProtocol object, a ctypes
 * function pointer with argtypes, a cffi function) named as a value, not called: the
 * compiled function calling its address (ruchey.native.wrapper_dispatcher,
 * what such an argument runs as), a function value like any other; NULL
 * for any other object. */
Node *fe_native_value(Fe *fe, PyObject *obj, PyObject *e) {
  if (!disp_may_be_native(obj)) return NULL;
  PyObject *native = PyImport_ImportModule("ruchey.native");
  PyObject *type = native ? PyObject_CallMethod(native, "wrapper_function_type", "O", obj) : NULL;
  PyObject *disp = type && type != Py_None ? PyObject_CallMethod(native, "wrapper_dispatcher", "O", obj) : NULL;
  Py_XDECREF(native); Py_XDECREF(type);
  PyErr_Clear();  /* (no signature a function value can have: the global is refused as its type) */
  Node *n = disp && PyObject_TypeCheck(disp, &DispatcherType) ? fe_function_value(fe, disp, e) : NULL;
  Py_XDECREF(disp);
  return n;
}

/* Whether obj's class is cffi's (cffi.api's or _cffi_backend's) of this
 * name (or this name and a suffix: ffi.dlopen's FFILibrary_libm.so.6). */
static bool is_cffi_object(PyObject *obj, const char *name) {
  if (!obj) return false;
  PyObject *cls = PyObject_GetAttrString((PyObject *)Py_TYPE(obj), "__name__");
  PyObject *module = PyObject_GetAttrString((PyObject *)Py_TYPE(obj), "__module__");
  bool is = cls && module && PyUnicode_Check(cls) && PyUnicode_Check(module) &&
            !strncmp(PyUnicode_AsUTF8(cls), name, strlen(name)) &&
            (!strcmp(PyUnicode_AsUTF8(module), "cffi.api") || !strcmp(PyUnicode_AsUTF8(module), "_cffi_backend"));
  Py_XDECREF(cls); Py_XDECREF(module);
  PyErr_Clear();
  return is;
}

/* A cffi FFI: cffi.FFI (an in-line module's) or a compiled out-of-line
 * module's ffi. */
bool fe_is_cffi_ffi(PyObject *obj) { return is_cffi_object(obj, "FFI") && !is_cffi_object(obj, "FFILibrary"); }

/* A cffi library, whose functions code names as lib.f: an in-line one
 * (ffi.dlopen's) or an out-of-line module's lib. */
bool fe_is_cffi_lib(PyObject *obj) { return is_cffi_object(obj, "FFILibrary") || is_cffi_object(obj, "Lib"); }

/* ffi.from_buffer of a cffi FFI, the one FFI method Numba compiles. */
bool fe_is_from_buffer(PyObject *obj) {
  PyObject *self = PyMethod_Check(obj) ? PyMethod_GET_SELF(obj) : PyCFunction_Check(obj) ? PyCFunction_GET_SELF(obj) : NULL;
  if (!fe_is_cffi_ffi(self)) return false;
  PyObject *name = PyObject_GetAttrString(obj, "__name__");
  bool is = name && PyUnicode_Check(name) && !strcmp(PyUnicode_AsUTF8(name), "from_buffer");
  Py_XDECREF(name);
  PyErr_Clear();
  return is;
}

/* f(...) of a ctypes function taking Python objects (py_object arguments,
 * ruchey.native.python_object_call): the Python function an objmode block
 * runs it by, giving its result (of type *result) as a 1-tuple, or an
 * empty one where it has none (*result NULL); NULL for any other object,
 * and NULL with *failed set where its types cannot be (reported). The
 * function is borrowed: ruchey.native holds it for good. */
PyObject *fe_python_object_call(Fe *fe, PyObject *e, PyObject *obj, const Type **result, bool *failed) {
  if (!disp_may_be_native(obj)) return NULL;
  PyObject *native = PyImport_ImportModule("ruchey.native");
  PyObject *d = native ? PyObject_CallMethod(native, "python_object_call", "O", obj) : NULL;
  Py_XDECREF(native);
  PyObject *block = NULL;
  int kind = 0;
  if (!d) {
    fe_python_error(fe, e, NULL, "this ctypes function cannot be called");
    *failed = true;
  } else if (d == Py_None || !PyArg_ParseTuple(d, "Oi", &block, &kind) || kind < -1 || kind >= TY_COUNT) {
    block = NULL;
  } else {
    *result = kind < 0 ? NULL : &core_plain[kind];
  }
  PyErr_Clear();
  Py_XDECREF(d);
  return block;
}

/* A kind ruchey.native.describe gives: a scalar's number, -1 for no
 * result, "meminfo" for a MemInfoPointer (an ExternalFunction's), a pair
 * (uint64's, its items') for a typed pointer, whose items go to *pointee. */
static TypeKind native_kind(PyObject *k, TypeKind *pointee) {
  if (PyTuple_Check(k) && PyTuple_GET_SIZE(k) == 2) {
    *pointee = native_kind(PyTuple_GET_ITEM(k, 1), pointee);
    return native_kind(PyTuple_GET_ITEM(k, 0), pointee);
  }
  if (PyUnicode_Check(k)) return TY_MEMINFO;
  long v = PyLong_AsLong(k);
  return v < 0 ? TY_NONE : (TypeKind)v;
}

/* f(...) of a native function (ruchey/native.py): its address and C
 * signature from ruchey.native.describe, in the function's arena; NULL for
 * any other object, and NULL with *failed set where describe refuses it
 * (reported). Only an object that can be one is asked about
 * (disp_may_be_native). */
NativeSig *fe_native_signature(Fe *fe, PyObject *e, PyObject *obj, bool *failed) {
  if (!disp_may_be_native(obj)) return NULL;
  PyObject *native = PyImport_ImportModule("ruchey.native");
  PyObject *d = native ? PyObject_CallMethod(native, "describe", "O", obj) : NULL;
  Py_XDECREF(native);
  NativeSig *sig = NULL;
  PyObject *args = NULL;
  unsigned long long addr = 0;
  PyObject *ret = NULL;
  if (!d) {
    fe_python_error(fe, e, NULL, "this native function cannot be called");
    *failed = true;
  } else if (d != Py_None && PyArg_ParseTuple(d, "KOO!", &addr, &ret, &PyTuple_Type, &args) &&
             PyTuple_GET_SIZE(args) <= 64) {
    sig = arena_alloc(fe->arena, sizeof *sig);
    *sig = (NativeSig){.addr = (void *)(uintptr_t)addr, .owner = Py_NewRef(obj),  /* the code's for good */
                       .ret_pointee = TY_NONE, .nargs = (int)PyTuple_GET_SIZE(args)};
    sig->ret = native_kind(ret, &sig->ret_pointee);
    for (int i = 0; i < sig->nargs; i++) {
      sig->pointee[i] = TY_NONE;
      sig->args[i] = native_kind(PyTuple_GET_ITEM(args, i), &sig->pointee[i]);
    }
  }
  PyErr_Clear();
  Py_XDECREF(d);
  return sig;
}
