/* objmode.c — `with objmode(y="float64"):` blocks: Python code run by the
 * interpreter from inside compiled code, as Numba's numba.objmode.
 *
 * The frontend makes the block's statements a Python function
 * (ruchey._objmode._block) taking the compiled function's variables the
 * block reads and returning the variables the call names; the statement
 * becomes `(y, ...) = <an objmode block>(inputs...)`, typed with the
 * declared types. At run time compiled code hands the inputs, laid out as
 * a tuple, to call_block below (through libruchey's rt_objmode), which
 * takes the GIL, boxes them, calls the function and unboxes its results;
 * an exception inside is raised in compiled code as its class and message.
 * The code holds the function's and the types' addresses, so it is not
 * cached (the function does not pickle).
 */
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL ruchey_ARRAY_API
#include "frontend.h"
#include "containers.h"

#include <numpy/arrayobject.h>

/* ruchey.objmode, the class a with statement must call. */
static bool calls_ruchey(Fe *fe, PyObject *ctx, const char *name) {
  if (!is_kind(ctx, "Call")) return false;
  PyObject *func = field(ctx, "func"), *obj = static_object(fe, func);
  PyObject *ruchey = PyImport_ImportModule("ruchey"), *cls = ruchey ? PyObject_GetAttrString(ruchey, name) : NULL;
  bool is = obj && obj == cls;
  PyErr_Clear();
  Py_XDECREF(cls); Py_XDECREF(ruchey); Py_XDECREF(obj); Py_DECREF(func);
  return is;
}

/* A declared output's type: a name of ruchey.types as a string, or one of
 * its objects named in the call; numbers and bools. */
static const Type *output_type(Fe *fe, PyObject *value) {
  PyObject *given = is_kind(value, "Constant") ? field(value, "value") : static_object(fe, value);
  PyObject *helper = given ? PyImport_ImportModule("ruchey._objmode") : NULL;
  PyObject *desc = helper ? PyObject_CallMethod(helper, "_describe", "O", given) : NULL;
  const Type *t = desc ? disp_described_type(desc) : NULL;
  PyErr_Clear();
  Py_XDECREF(desc); Py_XDECREF(helper); Py_XDECREF(given);
  if (!t) return fe_error(fe, value, "an objmode output's type must be a type of ruchey.types or its name ('float64')");
  if (!ty_is_scalar(t) && !(t->kind == TY_OPTIONAL && ty_is_scalar(t->elem)) && t->kind != TY_ARRAY)
    return fe_error(fe, value, "objmode outputs are numbers, bools (or None, as optional(float64)) and arrays in "
                    "compiled code, not %s", t->name);
  return t;
}

/* The block's outputs (names and types) from the call's keywords. */
static bool read_outputs(Fe *fe, PyObject *ctx, PyObject *names, const Type ***types) {
  PyObject *args = field(ctx, "args"), *kws = field(ctx, "keywords");
  Py_ssize_t n = PyList_GET_SIZE(kws);
  bool ok = !PyList_GET_SIZE(args) || fe_error(fe, ctx, "objmode() takes its outputs as keywords: objmode(y='float64')");
  *types = arena_alloc(fe->arena, sizeof(Type *) * (size_t)(n ? n : 1));
  for (Py_ssize_t i = 0; ok && i < n; i++) {
    PyObject *kw = PyList_GET_ITEM(kws, i), *name = field(kw, "arg"), *value = field(kw, "value");
    ok = name != Py_None && PyList_Append(names, name) == 0 && ((*types)[i] = output_type(fe, value));
    if (name == Py_None) fe_error(fe, ctx, "objmode(**kwargs) is not supported");
    Py_DECREF(name); Py_DECREF(value);
  }
  Py_DECREF(args); Py_DECREF(kws);
  return ok;
}

static Node *var_read(Fe *fe, PyObject *e, const char *name) {
  Node *v = new_node(fe, N_VAR, e);
  v->var = fe_add_var(fe, name);
  return v;
}

/* The block's function and its inputs' names, from ruchey._objmode. */
static PyObject *block_function(Fe *fe, PyObject *s, PyObject *outputs) {
  PyObject *known = PyList_New(fe->nvars), *body = field(s, "body"), *helper = PyImport_ImportModule("ruchey._objmode");
  for (int i = 0; known && i < fe->nvars; i++) PyList_SET_ITEM(known, i, PyUnicode_FromString(fe->vars[i]));
  PyObject *r = known && helper ? PyObject_CallMethod(helper, "_block", "OOOOsi", body, known, outputs, fe->globals,
                                                      fe->f->filename, fe->line_offset)
                                : NULL;
  Py_XDECREF(known); Py_DECREF(body); Py_XDECREF(helper);
  if (!r || !PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 2) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *why = value ? PyObject_Str(value) : NULL;
    PyErr_Clear();
    fe_error(fe, s, "this objmode block cannot be made a Python function: %s", why ? PyUnicode_AsUTF8(why) : "?");
    Py_XDECREF(why); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
    PyErr_Clear();
    Py_XDECREF(r);
    return NULL;
  }
  return r;
}

/* with objmode(y='float64', ...): body  ->  (y, ...) = <block>(inputs);
 * with parallel_chunksize(n): body (fe_with_chunksize) */
Node *fe_with(Fe *fe, PyObject *s) {
  PyObject *items = field(s, "items");
  PyObject *item = PyList_GET_SIZE(items) == 1 ? PyList_GET_ITEM(items, 0) : NULL;
  PyObject *ctx = item ? field(item, "context_expr") : NULL, *as = item ? field(item, "optional_vars") : NULL;
  Py_DECREF(items);
  Node *n = NULL;
  PyObject *outputs = PyList_New(0), *made = NULL;
  const Type **types = NULL;
  if (ctx && as == Py_None && calls_ruchey(fe, ctx, "parallel_chunksize"))
    n = fe_with_chunksize(fe, s, ctx);
  else if (!ctx || as != Py_None || !calls_ruchey(fe, ctx, "objmode"))
    fe_error(fe, s, "'with' is not supported in compiled code, but for `with objmode(...):` and "
             "`with parallel_chunksize(n):` blocks");
  else if (read_outputs(fe, ctx, outputs, &types) && (made = block_function(fe, s, outputs))) {
    PyObject *inputs = PyTuple_GET_ITEM(made, 1);
    Node *call = new_node(fe, N_CALL, s);
    call->bi = core_builtin_named("an objmode block");
    call->callee = PyTuple_GET_ITEM(made, 0);  /* kept alive by ruchey._objmode */
    call->data = types;
    call->ival = PyList_GET_SIZE(outputs);
    call->list = new_list(fe, (int)PyList_GET_SIZE(inputs));
    for (int i = 0; i < call->list.len; i++) call->list.items[i] = var_read(fe, s, PyUnicode_AsUTF8(PyList_GET_ITEM(inputs, i)));
    n = new_node(fe, N_ASSIGN, s);
    n->lhs = new_node(fe, N_TUPLE, s);
    n->lhs->list = new_list(fe, (int)call->ival);
    for (int i = 0; i < (int)call->ival; i++) n->lhs->list.items[i] = var_read(fe, s, PyUnicode_AsUTF8(PyList_GET_ITEM(outputs, i)));
    n->rhs = call;
  }
  Py_XDECREF(ctx); Py_XDECREF(as); Py_XDECREF(outputs); Py_XDECREF(made);
  return n;
}

/* ---------------------------------------------------------------- at run time */

/* The exception set now, cleared: its class in *cls and its message
 * (fallback where it has none) written into text. */
static void take_exception(void **cls, char *text, size_t size, const char *fallback) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyObject *s = value ? PyObject_Str(value) : NULL;
  snprintf(text, size, "%s", s && PyUnicode_Check(s) ? PyUnicode_AsUTF8(s) : fallback);
  PyErr_Clear();
  *cls = type ? (void *)Py_NewRef(type) : (void *)Py_NewRef(PyExc_RuntimeError);  /* (classes live on) */
  Py_XDECREF(s); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
}

/* Whether the block's results r are arrays where out_t declares them, of
 * their dtype and ndim, and C or F contiguous where so declared (a
 * TypeError if not). */
static bool arrays_as_declared(PyObject *r, const Type *out_t) {
  for (int i = 0; i < out_t->nfields; i++) {
    const Type *want = out_t->fields[i];
    PyObject *item = PyTuple_GET_ITEM(r, i);
    const Type *got = want->kind == TY_ARRAY && PyArray_Check(item) ? disp_typeof(item) : NULL;
    if (want->kind != TY_ARRAY ||
        (got && got->elem == want->elem && got->ndim == want->ndim &&
         (want->layout == 'A' || got->layout == want->layout || (got->ndim <= 1 && got->layout != 'A'))))
      continue;
    PyErr_Format(PyExc_TypeError, "the objmode block's output %d is declared %s, got %s", i + 1, want->name,
                 got ? got->name : Py_TYPE(item)->tp_name);
    return false;
  }
  return true;
}

/* Runs a block (any thread; the GIL taken here): 0, or 1 with the
 * exception's class and message in *cls and *msg. An array output comes
 * out owned: its meminfo keeps a reference to the NumPy array. */
static int call_block(void *block, const Type *in_t, void *in, const Type *out_t, void *out, void **cls, const char **msg) {
  static _Thread_local char text[512];
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject *args = disp_box(in_t, in);
  PyObject *r = args ? PyObject_Call(block, args, NULL) : NULL;
  int failed = !r || (PyTuple_Check(r) && PyTuple_GET_SIZE(r) == out_t->nfields && !arrays_as_declared(r, out_t)) ||
               disp_unbox_tuple(r, out_t, out) < 0;
  for (int i = 0; !failed && i < out_t->nfields; i++)
    if (out_t->fields[i]->kind == TY_ARRAY) rt_array_keep((RtArray *)((char *)out + out_t->offsets[i]));
  if (failed) {
    take_exception(cls, text, sizeof text, "");
    *msg = text;
  }
  Py_XDECREF(args); Py_XDECREF(r);
  PyGILState_Release(g);
  return failed;
}

/* Issues a warning of the builtin class named category (any thread; the
 * GIL taken here): 0, or 1 with the exception a filter made of it. */
static int warn(const char *category, const char *msg, void **cls, const char **text) {
  static _Thread_local char kept[512];
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject *builtins = PyEval_GetBuiltins(), *kind = builtins ? PyDict_GetItemString(builtins, category) : NULL;
  int failed = PyErr_WarnEx(kind ? kind : PyExc_RuntimeWarning, msg, 1) < 0;
  if (failed) {
    take_exception(cls, kept, sizeof kept, msg);
    *text = kept;
  }
  PyGILState_Release(g);
  return failed;
}

void core_register_objmode(const RucheyAPI *api) {
  api->set_objmode_caller(call_block);
  api->set_warning_caller(warn);
}
