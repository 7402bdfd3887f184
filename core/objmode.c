/* objmode.c — `with objmode(y="float64"):` blocks: Python code run by the
 * interpreter from inside compiled code, as Numba's numba.objmode.
 *
 * The frontend makes the block's statements a Python function
 * (ruchey._objmode._block) taking the compiled function's variables the
 * block reads and returning the variables the call names; the statement
 * becomes `(y, ...) = <an objmode block>(inputs...)`, typed with the
 * declared types. At run time compiled code hands the inputs, laid out as
 * a tuple, to call_block below (through libruchey's rt_objmode), which
 * takes the GIL, boxes them, calls the function, writes back what it did
 * to the lists and sets it was lent as copies, and unboxes its results
 * (converted as Numba converts them); an exception inside is raised in
 * compiled code as its class and arguments (or message). The code holds the function's and the types' addresses, so it is not
 * cached (the function does not pickle).
 */
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL ruchey_ARRAY_API
#include "frontend.h"
#include "containers.h"

#include <numpy/arrayobject.h>

/* Whether e names the object ruchey.<name> (as a global, a closure's
 * variable, or an attribute of the module). */
static bool names_ruchey(Fe *fe, PyObject *e, const char *name) {
  PyObject *obj = static_object(fe, e);
  PyObject *ruchey = PyImport_ImportModule("ruchey"), *want = ruchey ? PyObject_GetAttrString(ruchey, name) : NULL;
  bool is = obj && obj == want;
  PyErr_Clear();
  Py_XDECREF(want); Py_XDECREF(ruchey); Py_XDECREF(obj);
  return is;
}

/* ruchey.<name>(...), a call of that object. */
static bool calls_ruchey(Fe *fe, PyObject *ctx, const char *name) {
  if (!is_kind(ctx, "Call")) return false;
  PyObject *func = field(ctx, "func");
  bool is = names_ruchey(fe, func, name);
  Py_DECREF(func);
  return is;
}

/* `with objmode(...):` or, with no outputs, `with objmode:`. */
static bool is_objmode(Fe *fe, PyObject *ctx) {
  return calls_ruchey(fe, ctx, "objmode") || names_ruchey(fe, ctx, "objmode");
}

/* Whether compiled code takes a block's output of type t: what unboxing
 * reads from any Python object of its kind (the block's results are
 * checked against it, results_as_declared). */
static bool taken_as_output(const Type *t) {
  if (ty_is_scalar(t) || t->kind == TY_ARRAY || t->kind == TY_STR || t->kind == TY_LIST || t->kind == TY_DICT ||
      t->kind == TY_CLASS)
    return true;
  if (t->kind == TY_OPTIONAL) return ty_is_scalar(t->elem);
  if (t->kind != TY_TUPLE || t->callee) return false;  /* (a package's value type) */
  for (int i = 0; i < t->nfields; i++)
    if (!taken_as_output(t->fields[i])) return false;
  return true;
}

/* A declared output's type: a name of ruchey.types as a string, or one of
 * its objects named in the call; numbers and bools. */
static const Type *output_type(Fe *fe, PyObject *value) {
  PyObject *given = is_kind(value, "Constant") ? field(value, "value") : static_object(fe, value);
  PyObject *helper = given ? PyImport_ImportModule("ruchey._objmode") : NULL;
  PyObject *desc = helper ? PyObject_CallMethod(helper, "_describe", "O", given) : NULL;
  const Type *t = desc ? disp_described_type(desc) : NULL;
  Py_XDECREF(desc); Py_XDECREF(helper); Py_XDECREF(given);
  if (!t)  /* (why, where _describe said: an unknown name, a value of no type) */
    return fe_python_error(fe, value, "an objmode output's type must be a type of ruchey.types or its name ('float64')",
                           "give it as a string, or by a global or closure variable (or an attribute of "
                           "one) holding it, which compiling reads");
  PyErr_Clear();
  if (!taken_as_output(t))
    return fe_error(fe, value, "objmode outputs are numbers, bools (or None, as optional(float64)), arrays, strs, "
                    "typed Lists and Dicts, jitclass instances and tuples of these in compiled code, not %s", t->name);
  return t;
}

/* The block's outputs (names and types) from the call's keywords (none
 * where objmode is not called). */
static bool read_outputs(Fe *fe, PyObject *ctx, PyObject *names, const Type ***types) {
  if (!is_kind(ctx, "Call")) {
    *types = arena_alloc(fe->arena, sizeof(Type *));
    return true;
  }
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

/* The block's function and its inputs' names, from ruchey._objmode
 * (which refuses, with a ValueError saying why, a block it cannot make
 * one: a return inside, outputs not declared or declared but not assigned). */
static PyObject *block_function(Fe *fe, PyObject *s, PyObject *outputs) {
  PyObject *known = PyList_New(fe->nvars), *helper = PyImport_ImportModule("ruchey._objmode");
  for (int i = 0; known && i < fe->nvars; i++) PyList_SET_ITEM(known, i, PyUnicode_FromString(fe->vars[i]));
  PyObject *r = known && helper ? PyObject_CallMethod(helper, "_block", "OOOOOsi", s, fe->body, known, outputs,
                                                      fe->pyfunc, fe->f->filename, fe->line_offset)
                                : NULL;
  Py_XDECREF(known); Py_XDECREF(helper);
  if (!r || !PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 2) {
    fe_python_error(fe, s, NULL, "this objmode block cannot be made a Python function");
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
  else if (!ctx || as != Py_None || !is_objmode(fe, ctx))
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

/* One argument of an exception, as compiled code's raise records it
 * (rt_raise_arg's text) at text[*n...size): false where it is not a str,
 * an int64, a float, a bool or None, or does not fit. */
static bool raise_arg_text(PyObject *a, char *text, size_t size, size_t *n) {
  int w = -1;
  int overflow = 0;
  long long i = PyLong_CheckExact(a) ? PyLong_AsLongLongAndOverflow(a, &overflow) : 0;
  if (PyUnicode_CheckExact(a)) {
    Py_ssize_t len;
    const char *utf8 = PyUnicode_AsUTF8AndSize(a, &len);
    w = utf8 && strlen(utf8) == (size_t)len ? snprintf(text + *n, size - *n, "s%zd:%s", len, utf8) : -1;
  } else if (a == Py_None) {
    w = snprintf(text + *n, size - *n, "n;");
  } else if (PyBool_Check(a)) {
    w = snprintf(text + *n, size - *n, "b%d;", a == Py_True);
  } else if (PyLong_CheckExact(a) && !overflow && !PyErr_Occurred()) {
    w = snprintf(text + *n, size - *n, "i%lld;", i);
  } else if (PyFloat_CheckExact(a)) {
    char *repr = PyOS_double_to_string(PyFloat_AS_DOUBLE(a), 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
    w = repr ? snprintf(text + *n, size - *n, "f%s;", repr) : -1;
    PyMem_Free(repr);
  }
  PyErr_Clear();
  if (w < 0 || (size_t)w >= size - *n) return false;
  *n += (size_t)w;
  return true;
}

/* Whether type(*args) is an exception that reads as value does (not so
 * an OSError's, whose file name is not among its args). */
static bool remade_alike(PyObject *type, PyObject *args, PyObject *value) {
  PyObject *remade = PyObject_Call(type, args, NULL);
  PyObject *was = remade ? PyObject_Str(value) : NULL, *is = was ? PyObject_Str(remade) : NULL;
  bool alike = is && PyUnicode_Compare(was, is) == 0;
  PyErr_Clear();
  Py_XDECREF(is); Py_XDECREF(was); Py_XDECREF(remade);
  return alike;
}

/* The arguments of value, an exception of a builtin class, as compiled
 * code's raise records them (the text after '\x02'), so that it is raised
 * again as it was made (KeyError('2') stays that, not KeyError("'2'")):
 * false where an argument is of another kind, the class is a program's
 * own (its __init__ may not take its args back), or the args alone do not
 * make the same exception. */
static bool args_text(PyObject *type, PyObject *value, char *text, size_t size) {
  PyObject *args = value && !(((PyTypeObject *)type)->tp_flags & Py_TPFLAGS_HEAPTYPE)
                       ? PyObject_GetAttrString(value, "args") : NULL;
  size_t n = (size_t)snprintf(text, size, "\x02");
  bool ok = args && PyTuple_Check(args) && remade_alike(type, args, value);
  for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(args); i++) ok = raise_arg_text(PyTuple_GET_ITEM(args, i), text, size, &n);
  PyErr_Clear();
  Py_XDECREF(args);
  return ok;
}

/* The exception set now, cleared: its class in *cls and its arguments
 * (args_text) or else its message (fallback where it has none) written
 * into text. */
static void take_exception(void **cls, char *text, size_t size, const char *fallback) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  bool by_args = type && args_text(type, value, text, size);
  PyObject *s = !by_args && value ? PyObject_Str(value) : NULL;
  if (!by_args) snprintf(text, size, "%s", s && PyUnicode_Check(s) ? PyUnicode_AsUTF8(s) : fallback);
  PyErr_Clear();
  *cls = type ? (void *)Py_NewRef(type) : (void *)Py_NewRef(PyExc_RuntimeError);  /* (classes live on) */
  Py_XDECREF(s); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
}

/* Whether item is what an output declared want (not a number, not a
 * tuple) may be read from: an array of its dtype and ndim, C or F
 * contiguous where so declared; a str, typed List or Dict, or jitclass
 * instance of its type (a Python list or dict is not one, as Numba's). */
static bool result_as_declared(PyObject *item, const Type *want) {
  if (ty_is_container(want) && (PyList_Check(item) || PyDict_Check(item))) return false;
  const Type *got = disp_typeof(item);
  PyErr_Clear();
  if (want->kind != TY_ARRAY) return got == want;
  return got && got->kind == TY_ARRAY && got->elem == want->elem && got->ndim == want->ndim &&
         (want->layout == 'A' || got->layout == want->layout || (got->ndim <= 1 && got->layout != 'A'));
}

/* Whether the block's results r (a tuple of t's size) are as t declares
 * them, into tuples (a TypeError if not; numbers are converted, and
 * unboxing checks them). */
static bool results_as_declared(PyObject *r, const Type *t) {
  for (int i = 0; i < t->nfields; i++) {
    const Type *want = t->fields[i];
    PyObject *item = PyTuple_GET_ITEM(r, i);
    bool ok = want->kind == TY_TUPLE ? PyTuple_Check(item) && PyTuple_GET_SIZE(item) == want->nfields
             : ty_is_scalar(want) || want->kind == TY_OPTIONAL || result_as_declared(item, want);
    if (ok && want->kind == TY_TUPLE && !results_as_declared(item, want)) return false;
    if (ok) continue;
    if (PyList_Check(item) || PyDict_Check(item)) {  /* (typeof's name of it is the typed container's) */
      const char *kind = PyList_Check(item) ? "list" : "dict";
      PyErr_Format(PyExc_TypeError, "the objmode block's output %d is declared %s, got a Python %s: can't unbox a "
                   "<class '%s'> as %s (make it with typed.%s)", i + 1, want->name, kind, kind, want->name,
                   PyList_Check(item) ? "List" : "Dict");
      return false;
    }
    const Type *got = disp_typeof(item);
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "the objmode block's output %d is declared %s, got %s", i + 1, want->name,
                 got ? got->name : Py_TYPE(item)->tp_name);
    return false;
  }
  return true;
}

/* The Python conversion of item, a block's output declared t, as Numba
 * unboxes objmode outputs: int() for an integer (a float truncated, a
 * numeral's text read), float() or complex() of a number, the truth of a
 * value for a bool; NULL where none applies (unboxing then says why). */
static PyObject *number_converter(const Type *t, PyObject *item) {
  bool number = PyNumber_Check(item);
  return ty_is_int(t)                  ? (PyObject *)&PyLong_Type
         : ty_is_float(t) && number    ? (PyObject *)&PyFloat_Type
         : ty_is_complex(t) && number  ? (PyObject *)&PyComplex_Type
         : t->kind == TY_BOOL          ? (PyObject *)&PyBool_Type
                                       : NULL;
}

/* Whether the block's results r hold no number to convert (nor tuples or
 * optionals, looked into by numbers_as_declared): the common case, taken
 * without a copy. */
static bool nothing_to_convert(PyObject *r, const Type *t) {
  for (int i = 0; i < t->nfields; i++) {
    const Type *f = t->fields[i];
    PyObject *item = PyTuple_GET_ITEM(r, i), *convert = number_converter(f, item);
    if (f->kind == TY_TUPLE || f->kind == TY_OPTIONAL || (convert && !Py_IS_TYPE(item, (PyTypeObject *)convert)))
      return false;
  }
  return true;
}

/* The block's results r (a tuple of t's size) with their numbers, in
 * tuples too, converted to their declared kind (number_converter); a new
 * reference, NULL with the conversion's exception set. */
static PyObject *numbers_as_declared(PyObject *r, const Type *t) {
  if (nothing_to_convert(r, t)) return Py_NewRef(r);
  PyObject *made = PyTuple_New(t->nfields);
  for (int i = 0; made && i < t->nfields; i++) {
    bool optional = t->fields[i]->kind == TY_OPTIONAL;
    const Type *f = optional ? t->fields[i]->elem : t->fields[i];
    PyObject *item = PyTuple_GET_ITEM(r, i), *convert = number_converter(f, item), *v;
    if (f->kind == TY_TUPLE && PyTuple_Check(item) && PyTuple_GET_SIZE(item) == f->nfields)
      v = numbers_as_declared(item, f);
    else if (!convert || Py_IS_TYPE(item, (PyTypeObject *)convert) || (optional && item == Py_None))
      v = Py_NewRef(item);
    else
      v = PyObject_CallOneArg(convert, item);
    if (!v) Py_CLEAR(made);
    else PyTuple_SET_ITEM(made, i, v);
  }
  return made;
}

/* What unboxing the block's results r put at out (of type t) made
 * compiled code's own: arrays kept alive by it, typed containers and
 * jitclass instances (lent by their Python objects) retained; strs are new. */
static void results_owned(PyObject *r, const Type *t, char *out) {
  for (int i = 0; i < t->nfields; i++) {
    const Type *f = t->fields[i];
    PyObject *item = PyTuple_GET_ITEM(r, i);
    char *at = out + t->offsets[i];
    if (f->kind == TY_ARRAY) rt_array_keep((RtArray *)at);
    else if (f->kind == TY_TUPLE) results_owned(item, f, at);
    else if (f->kind == TY_LIST || f->kind == TY_DICT || f->kind == TY_CLASS)  /* (a jitclass instance's box lends it) */
      __atomic_add_fetch(*(int64_t **)at, 1, __ATOMIC_ACQ_REL);  /* (the refcount, first in each) */
  }
}

/* The lists and sets compiled code lent the block as Python copies (a
 * list display's, a Python list or set argument's; a typed.List is lent
 * itself) given what the block did to them: 0, or -1 with the exception
 * set. */
static int copies_taken_back(PyObject *args, const Type *in_t, void *in) {
  for (int i = 0; i < in_t->nfields; i++) {
    const Type *t = in_t->fields[i];
    PyObject *item = PyTuple_GET_ITEM(args, i);
    bool list = t->kind == TY_LIST && PyList_Check(item), set = t->kind == TY_SET && PyAnySet_Check(item);
    if (!list && !set) continue;
    void *lent = *(void **)((char *)in + in_t->offsets[i]);
    Slot slot;
    if ((list ? typed_pylist_unbox(item, t, &slot) : typed_set_unbox(item, t, &slot)) < 0) return -1;
    void *made = (void *)(uintptr_t)slot.u;
    if (set) {
      rt_set_swap(lent, made);
      rt_dict_release(made);
      continue;
    }
    int32_t rc = rt_list_assign_slice(lent, 0, 0, 1, 0, made);  /* lent[:] = made */
    rt_list_release(made);
    if (rc != RT_OK) {
      PyErr_NoMemory();
      return -1;
    }
  }
  return 0;
}

/* copies_taken_back, so that compiled code sees what the block did to
 * them as Python would, also where the block raised after (its exception
 * kept pending). */
static int copies_written_back(PyObject *args, const Type *in_t, void *in) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  int rc = copies_taken_back(args, in_t, in);
  if (type) {
    PyErr_Clear();
    PyErr_Restore(type, value, tb);
  }
  return rc;
}

/* Runs a block (any thread; the GIL taken here): 0, or 1 with the
 * exception's class and message in *cls and *msg. The outputs come out
 * owned (results_owned): an array's meminfo keeps a reference to the
 * NumPy array. */
static int call_block(void *block, const Type *in_t, void *in, const Type *out_t, void *out, void **cls, const char **msg) {
  static _Thread_local char text[512];
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject *args = disp_box(in_t, in);
  PyObject *r = args ? PyObject_Call(block, args, NULL) : NULL;
  if (args && copies_written_back(args, in_t, in) < 0) Py_CLEAR(r);
  if (r && PyTuple_Check(r) && PyTuple_GET_SIZE(r) == out_t->nfields) Py_SETREF(r, numbers_as_declared(r, out_t));
  int failed = !r || (PyTuple_Check(r) && PyTuple_GET_SIZE(r) == out_t->nfields && !results_as_declared(r, out_t)) ||
               disp_unbox_tuple(r, out_t, out) < 0;
  if (!failed) results_owned(r, out_t, out);
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

/* The thread state of a thread that held the GIL, now released; NULL
 * where it did not hold it (a pool hook: a parallel loop's chunks on other
 * threads may then run objmode blocks). */
static void *gil_released(void) { return PyGILState_Check() ? (void *)PyEval_SaveThread() : NULL; }

static void gil_restored(void *state) { PyEval_RestoreThread(state); }

/* Array memory as tracemalloc sees it (Numba's arrays are, made by
 * PyMem_RawMalloc): told on the thread holding the GIL only, which a pool
 * thread making an array inside a parallel loop does not hold (its arrays
 * go untraced rather than wait for the lock). */
static void memory_made(void *block, size_t bytes) {
  if (PyGILState_Check()) PyTraceMalloc_Track(0, (uintptr_t)block, bytes);
}

static void memory_freed(void *block) {
  if (PyGILState_Check()) PyTraceMalloc_Untrack(0, (uintptr_t)block);
}

/* The hooks are the runtime's only while tracemalloc traces: told even
 * while it is off, each array made and freed cost 9 ns more (16.6 -> 26 ns
 * a call of a helper returning 16 items); unset, the runtime tests a NULL
 * pointer. ruchey follows tracemalloc.start and stop (ruchey/__init__.py). */
static const RucheyAPI *memory_api;  /* the runtime's, once loaded */
static bool memory_traced;

static void set_memory_hooks(void) {
  if (memory_api) memory_api->set_memory_hooks(memory_traced ? memory_made : NULL, memory_traced ? memory_freed : NULL);
}

PyObject *core_trace_memory(PyObject *self, PyObject *on) {
  int traced = PyObject_IsTrue(on);
  if (traced < 0) return NULL;
  memory_traced = traced;
  set_memory_hooks();
  Py_RETURN_NONE;
}

void core_register_objmode(const RucheyAPI *api) {
  api->set_objmode_caller(call_block);
  api->set_warning_caller(warn);
  api->set_raise_boxer(disp_keep_raise_args, disp_forget_raise_args);
  api->set_gil_hooks(gil_released, gil_restored);
  memory_api = api;
  set_memory_hooks();
}
