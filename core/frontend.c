/* frontend.c — reads a Python function into ruchey's IR.
 *
 * The tree comes from source.c (Python's own ast module); this
 * file walks that tree and builds IR nodes in the compile's arena, with the
 * file line and column of every node. Global names are resolved here, at
 * compile time, as Numba does: modules, known functions, numeric constants
 * (frozen). Anything outside the subset is a TypingError pointing at it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdarg.h>

#include "frontend.h"


static Node *tuple_node(Fe *fe, PyObject *e, int n);
static Node *binop_node(Fe *fe, PyObject *e, int op, Node *a, Node *b);

/* ---------------------------------------------------------------- helpers */

int ast_int_attr(PyObject *o, const char *name) {
  PyObject *v = PyObject_GetAttrString(o, name);
  if (!v) { PyErr_Clear(); return 0; }
  long r = v == Py_None ? 0 : PyLong_AsLong(v);
  Py_DECREF(v);
  return (int)r;
}

const char *ast_kind(PyObject *o) { return Py_TYPE(o)->tp_name; }

bool is_kind(PyObject *o, const char *k) { return strcmp(ast_kind(o), k) == 0; }

/* The attribute of an ast node; a new reference (never NULL for ast fields). */
PyObject *field(PyObject *o, const char *name) {
  PyObject *v = PyObject_GetAttrString(o, name);
  if (!v) { PyErr_Clear(); Py_INCREF(Py_None); v = Py_None; }
  return v;
}

static void set_pos(Fe *fe, int *line, int *col, PyObject *e) {
  *line = ast_int_attr(e, "lineno") + fe->line_offset;
  *col = ast_int_attr(e, "col_offset") + fe->col_offset;
}

/* Records a TypingError at the node e; always returns NULL/false. */
void *fe_error(Fe *fe, PyObject *e, const char *fmt, ...) {
  if (fe->diag->kind) return NULL;  /* keep the first error */
  fe->diag->kind = DIAG_TYPING;
  set_pos(fe, &fe->diag->line, &fe->diag->col, e);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(fe->diag->msg, sizeof fe->diag->msg, fmt, ap);
  va_end(ap);
  return NULL;
}

/* The Python exception just raised (by a module's code the frontend ran),
 * as the compile error at e: "what: its words", or its words alone where
 * what is NULL ("otherwise" where it has none); NULL. */
void *fe_python_error(Fe *fe, PyObject *e, const char *what, const char *otherwise) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyObject *text = value ? PyObject_Str(value) : NULL;
  const char *words = text && PyUnicode_Check(text) ? PyUnicode_AsUTF8(text) : otherwise;
  if (what) fe_error(fe, e, "%s: %s", what, words ? words : otherwise);
  else fe_error(fe, e, "%s", words ? words : otherwise);
  Py_XDECREF(text); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
  PyErr_Clear();
  return NULL;
}

/* Whether reading one level deeper at e leaves the stack room; if not, a
 * RecursionError (CPython's own compiler stops at its recursion limit). */
bool fe_room(Fe *fe, PyObject *e) {
  char here;
  if ((uintptr_t)&here > fe->stack_limit + RC_STACK_PER_NEST * 4) return true;
  if (!fe->diag->kind) {
    fe->diag->kind = DIAG_RECURSION;
    set_pos(fe, &fe->diag->line, &fe->diag->col, e);
    snprintf(fe->diag->msg, sizeof fe->diag->msg,
             "maximum recursion depth exceeded during compilation: the code nests deeper than this "
             "thread's stack can read");
  }
  return false;
}

Node *new_node(Fe *fe, NodeKind kind, PyObject *e) {
  Node *n = arena_alloc(fe->arena, sizeof(Node));
  n->kind = kind;
  set_pos(fe, &n->line, &n->col, e);
  return n;
}

NodeList new_list(Fe *fe, int len) {
  NodeList l = {arena_alloc(fe->arena, sizeof(Node *) * (size_t)(len ? len : 1)), len};
  return l;
}

Node *fe_call_of(Fe *fe, PyObject *e, const char *builtin, Node *x) {
  if (!x) return NULL;
  Node *n = new_node(fe, N_CALL, e);
  n->bi = core_builtin_named(builtin);
  n->list = new_list(fe, 1);
  n->list.items[0] = x;
  if (!strcmp(builtin, "str") || !strcmp(builtin, "repr")) n->data = fe_interpreter_text(!strcmp(builtin, "repr"));
  return n;
}

/* ---------------------------------------------------------------- variables */

int find_var(Fe *fe, const char *name) {
  for (int i = 0; i < fe->nvars; i++)
    if (strcmp(fe->vars[i], name) == 0) return i;
  return -1;
}

static int add_var(Fe *fe, const char *name);
int fe_add_var(Fe *fe, const char *name) { return add_var(fe, name); }

static int add_var(Fe *fe, const char *name) {
  int i = find_var(fe, name);
  if (i >= 0) return i;
  if (fe->nvars == fe->cap) {
    fe->cap = fe->cap ? fe->cap * 2 : 16;
    const char **v = arena_alloc(fe->arena, sizeof(char *) * (size_t)fe->cap);
    if (fe->nvars) memcpy(v, fe->vars, sizeof(char *) * (size_t)fe->nvars);
    fe->vars = v;
  }
  fe->vars[fe->nvars] = arena_strdup(fe->arena, name);
  return fe->nvars++;
}

/* Python decides locality for the whole function: a name assigned anywhere
 * in it is local everywhere in it. Collect those names before converting. */
static void collect_locals(Fe *fe, PyObject *node) {
  if (!fe_room(fe, node)) return;
  if (is_kind(node, "FunctionDef")) {  /* its name is a local (but what a decorator made); its variables are its own */
    PyObject *name = field(node, "name");
    if (!fe_is_alias(fe, name)) add_var(fe, PyUnicode_AsUTF8(name));
    Py_DECREF(name);
    return;
  }
  if (is_kind(node, "comprehension")) {  /* its target is the comprehension's own (comprehension_scoped) */
    PyObject *iter = field(node, "iter"), *ifs = field(node, "ifs");
    collect_locals(fe, iter);
    for (Py_ssize_t j = 0; j < PyList_GET_SIZE(ifs); j++) collect_locals(fe, PyList_GET_ITEM(ifs, j));
    Py_DECREF(iter); Py_DECREF(ifs);
    return;
  }
  if (is_kind(node, "MatchAs")) {  /* case x: / case P as x: binds x (a str, not a Name) */
    PyObject *name = field(node, "name"), *pattern = field(node, "pattern");
    if (PyUnicode_Check(name) && !fe_is_alias(fe, name)) add_var(fe, PyUnicode_AsUTF8(name));
    if (pattern != Py_None) collect_locals(fe, pattern);
    Py_DECREF(name); Py_DECREF(pattern);
    return;
  }
  if (is_kind(node, "Name")) {
    PyObject *ctx = field(node, "ctx");
    if (is_kind(ctx, "Store")) {
      PyObject *id = field(node, "id");
      if (!fe_is_alias(fe, id)) add_var(fe, PyUnicode_AsUTF8(id));  /* (a name of a builtin: no variable) */
      Py_DECREF(id);
    }
    Py_DECREF(ctx);
    return;
  }
  PyObject *fields = PyObject_GetAttrString((PyObject *)Py_TYPE(node), "_fields");
  if (!fields) { PyErr_Clear(); return; }
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fields); i++) {
    PyObject *v = field(node, PyUnicode_AsUTF8(PyTuple_GET_ITEM(fields, i)));
    if (PyList_Check(v)) {
      for (Py_ssize_t j = 0; j < PyList_GET_SIZE(v); j++)
        collect_locals(fe, PyList_GET_ITEM(v, j));
    } else if (v != Py_None && PyObject_HasAttrString(v, "_fields")) {
      collect_locals(fe, v);
    }
    Py_DECREF(v);
  }
  Py_DECREF(fields);
}

/* ---------------------------------------------------------------- globals */

/* A variable of an enclosing function (a closure cell), frozen like a
 * global; a new reference or NULL. */
static PyObject *closure_value(Fe *fe, const char *name) {
  PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(fe->pyfunc);
  PyObject *cells = PyFunction_GetClosure(fe->pyfunc);
  /* the attribute, not PyCode_GetFreevars, which Python 3.10 lacks */
  PyObject *free = cells ? PyObject_GetAttrString((PyObject *)code, "co_freevars") : NULL;
  PyObject *value = NULL;
  for (Py_ssize_t i = 0; free && i < PyTuple_GET_SIZE(free); i++)
    if (!strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(free, i)), name)) {
      value = PyCell_GET(PyTuple_GET_ITEM(cells, i));
      Py_XINCREF(value);
    }
  Py_XDECREF(free);
  return value;
}

/* t.x where t is a named tuple the function reads as a global or closure
 * variable and x one of its fields: the field's value, frozen alone as
 * Numba freezes the whole tuple, so that a catalogue of more fields than
 * a tuple type holds (PySDM's physical constants, its formulae) reads
 * alike, and a field holding a compiled function is called directly;
 * NULL for anything else. */
static PyObject *named_field(PyObject *base, PyObject *e) {
  if (!PyTuple_Check(base) || PyTuple_CheckExact(base)) return NULL;
  PyObject *fields = PyObject_GetAttrString(base, "_fields"), *attr = fields ? field(e, "attr") : NULL;
  int named = attr && PyTuple_Check(fields) ? PySequence_Contains(fields, attr) : 0;
  PyObject *obj = named > 0 ? PyObject_GetAttr(base, attr) : NULL;
  PyErr_Clear();
  Py_XDECREF(attr); Py_XDECREF(fields);
  return obj;
}

/* u.nin, u.nout, u.nargs, u.ntypes, u.identity, u.signature or u.__name__
 * of a @vectorize ufunc u, or of NumPy's own: its value when compiled, as Numba reads them;
 * NULL for another attribute. */
static PyObject *ufunc_attribute(PyObject *ufunc, PyObject *e) {
  static const char *const constant[] = {"nin", "nout", "nargs", "ntypes", "identity", "signature", "__name__"};
  PyObject *attr = field(e, "attr"), *v = NULL;
  for (size_t i = 0; !v && i < sizeof constant / sizeof *constant; i++)
    if (!PyUnicode_CompareWithASCIIString(attr, constant[i])) v = PyObject_GetAttr(ufunc, attr);
  PyErr_Clear();
  Py_DECREF(attr);
  return v;
}

/* The module a parameter named name holds where its calls pass one
 * (vector's compute functions take numpy as `lib` and call lib.sqrt):
 * the function is compiled for that module, its parameter read as the
 * module itself, as Numba types it a Module of it; a new reference, or
 * NULL for any other name. */
static PyObject *frozen_module(Fe *fe, const char *name) {
  int v = fe->frozen ? find_var(fe, name) : -1;
  if (v < 0 || v >= fe->f->nparams || !fe->frozen[v] || fe->frozen[v]->kind != N_MODULE) return NULL;
  return core_module_object((int)fe->frozen[v]->ival);
}

/* A global or attribute path that names a Python object at compile time
 * (numpy, numpy.empty, math.pi, a constant); a new reference or NULL. */
PyObject *static_object(Fe *fe, PyObject *e) {
  if (is_kind(e, "Name")) {
    PyObject *id = field(e, "id");
    const char *name = PyUnicode_AsUTF8(id);
    PyObject *obj = frozen_module(fe, name);
    if (obj || PyErr_Occurred()) {
      Py_DECREF(id);
      return obj;
    }
    if (find_var(fe, name) < 0 && (obj = fe_imported(fe, id))) {
      Py_DECREF(id);
      return Py_NewRef(obj);
    }
    if (find_var(fe, name) < 0 && (obj = closure_value(fe, name))) {
      Py_DECREF(id);
      return obj;
    }
    if (find_var(fe, name) < 0) {
      obj = PyDict_GetItemWithError(fe->globals, id);
      if (!obj && !PyErr_Occurred()) obj = PyDict_GetItemWithError(fe->builtins, id);
      /* a function calling itself, compiled for an explicit signature
       * before the decorator returns and the module binds its name (not a
       * kernel: what a kernel calls is its device function, which cuda.jit
       * has not made yet) */
      if (!obj && !PyErr_Occurred() && fe->self && !((Dispatcher *)fe->self)->opts.kernel && !strcmp(name, fe->f->name))
        obj = fe->self;
      Py_XINCREF(obj);
      PyErr_Clear();
    }
    Py_DECREF(id);
    return obj;
  }
  if (is_kind(e, "Call")) return fe_made_value(fe, e);  /* stencil(kernel)(a) */
  if (is_kind(e, "Attribute")) {
    PyObject *value = field(e, "value");
    PyObject *base = static_object(fe, value);
    Py_DECREF(value);
    if (base && core_is_enum_class(base)) {  /* Color.RED: the member (Color.X, no member, is NULL) */
      PyObject *attr = field(e, "attr"), *members = PyObject_GetAttrString(base, "__members__");
      PyObject *member = members ? PyObject_GetItem(members, attr) : NULL;
      PyErr_Clear();
      Py_XDECREF(members); Py_DECREF(attr); Py_DECREF(base);
      return member;
    }
    PyObject *field_obj = base ? named_field(base, e) : NULL;
    if (!field_obj && base && (ufunc_scalar_function(base) || ufunc_numpy_inputs(base) >= 0))
      field_obj = ufunc_attribute(base, e);
    if (field_obj) {
      Py_DECREF(base);
      return field_obj;
    }
    /* modules, ruchey.cuda's namespaces (cuda.threadIdx, cuda.atomic),
     * the typed containers' classes (typed.Dict.empty) and cffi's FFI
     * objects (ffi.from_buffer) and libraries (lib.f) */
    if (!base ||
        !(PyModule_Check(base) || PyObject_HasAttrString(base, "__ruchey_namespace__") || typed_is_class(base) ||
          jitclass_is_class(base) || fe_is_cffi_ffi(base) || fe_is_cffi_lib(base))) {  /* a jitclass's static methods */
      Py_XDECREF(base);
      return NULL;
    }
    PyObject *attr = field(e, "attr");
    PyObject *obj = PyObject_GetAttr(base, attr);
    if (!obj) PyErr_Clear();
    Py_DECREF(attr);
    Py_DECREF(base);
    return obj;
  }
  return NULL;
}

static Node *constant_node(Fe *fe, PyObject *obj, PyObject *e);

/* A node whose typing raises msg: an error of code Python would raise
 * only where it runs and Numba only where it is typed, so that a branch
 * pruned on a constant (if False:, a closure's flag) may hold it. */
static Node *error_where_typed(Fe *fe, PyObject *e, const char *msg) {
  Node *n = new_node(fe, N_CALL, e);
  n->bi = core_builtin_named("an error where typed");
  n->str = arena_strdup(fe->arena, msg);
  return n;
}

static Node *call_node(Fe *fe, PyObject *e, const char *builtin, Node **args, int n);
static Node *missing_class_attribute(Fe *fe, PyObject *base, PyObject *attr, PyObject *e);
static Node *string_node(Fe *fe, PyObject *e, PyObject *v);

/* A datetime64 or timedelta64 global, frozen: its count of its unit. */
static Node *time_scalar(Fe *fe, PyObject *obj, const Type *t, PyObject *e) {
  PyObject *count = PyObject_CallMethod(obj, "astype", "s", "int64");
  PyObject *v = count ? PyNumber_Long(count) : NULL;
  Py_XDECREF(count);
  if (!v) {
    PyErr_Clear();
    return fe_error(fe, e, "cannot read this NumPy scalar's value");
  }
  Node *x = new_node(fe, N_INT, e);
  x->ival = PyLong_AsLongLong(v);
  Py_DECREF(v);
  Node *n = fe_call_of(fe, e, "a NumPy datetime constant", x);
  n->data = t;
  return n;
}

/* x converted to the NumPy scalar type of kind, as numpy.<type>(x). */
static Node *as_numpy_scalar(Fe *fe, Node *x, int kind, PyObject *e) {
  Node *n = fe_call_of(fe, e, "a NumPy scalar type", x);
  n->ival = kind;
  return n;
}

/* A uint64 constant (above 2**63 too: its bits, which the conversion keeps). */
static Node *uint64_constant(Fe *fe, unsigned long long bits, PyObject *e) {
  Node *x = new_node(fe, N_INT, e);
  x->ival = (int64_t)bits;
  return as_numpy_scalar(fe, x, TY_U64, e);
}

/* A NumPy scalar global (numpy.float32(1e-7)), frozen as Numba freezes it:
 * its value converted to its own type, which it keeps in arithmetic (no
 * weak Python number); NULL if obj is none. */
static Node *numpy_scalar(Fe *fe, PyObject *obj, PyObject *e) {
  const Type *time = PyType_Check(obj) ? NULL : disp_scalar_time(obj);
  if (time) return time_scalar(fe, obj, time, e);
  int kind = PyType_Check(obj) ? -1 : core_dtype_kind((PyObject *)Py_TYPE(obj));
  if (kind < 0 || PyBool_Check(obj) || PyLong_CheckExact(obj) || PyFloat_CheckExact(obj) || PyComplex_CheckExact(obj))
    return NULL;
  Py_complex c = kind == TY_C64 || kind == TY_C128 ? PyComplex_AsCComplex(obj) : (Py_complex){0};
  PyObject *v = kind == TY_C64 || kind == TY_C128 ? (PyErr_Occurred() ? NULL : PyComplex_FromCComplex(c))
                : kind == TY_F32 || kind == TY_F64 || kind == TY_F16 ? PyNumber_Float(obj) : PyNumber_Long(obj);
  if (!v) {
    PyErr_Clear();
    return fe_error(fe, e, "cannot read this NumPy scalar's value");
  }
  bool bits = kind == TY_U64;  /* above 2**63 too: a uint64 constant of its bits */
  Node *x = bits ? uint64_constant(fe, PyLong_AsUnsignedLongLongMask(v), e) : constant_node(fe, v, e);
  Py_DECREF(v);
  return x && !bits ? as_numpy_scalar(fe, x, kind, e) : x;
}

Node *fe_frozen_constant(Fe *fe, PyObject *obj, PyObject *e) { return constant_node(fe, obj, e); }

Node *fe_frozen_value(Fe *fe, PyObject *obj, PyObject *e) {
  Node *n = constant_node(fe, obj, e);
  return n || fe->diag->kind || !PyUnicode_CheckExact(obj) ? n : string_node(fe, e, obj);
}

static Node *const_array(Fe *fe, PyObject *obj, PyObject *e);

/* A global object of a package's value type (clifford's MultiVector), frozen
 * as the named tuple its type's lower_constant makes; NULL where obj is of
 * no such type, or with the error where its lower_constant is missing or
 * unreadable (the TypeError saying so, of what the global is). */
static Node *value_constant(Fe *fe, PyObject *obj, PyObject *e, const char *what) {
  PyObject *frozen = disp_value_constant(obj);
  if (frozen) {
    Node *n = constant_node(fe, frozen, e);
    Py_DECREF(frozen);
    return n;
  }
  return PyErr_Occurred() ? fe_python_error(fe, e, what, "cannot be frozen") : NULL;
}

/* An item of a global tuple: a number or a tuple of them, a str, a
 * NumPy array (literal_unroll's items), None or a compiled function (a
 * closure's tuple of the functions it calls, some absent: PyMPDATA's
 * formulae per dimension), frozen as Numba freezes them. */
static Node *frozen_item(Fe *fe, PyObject *obj, PyObject *e) {
  Node *n = constant_node(fe, obj, e);
  if (n || fe->diag->kind) return n;
  if (obj == Py_None) return new_node(fe, N_NONE, e);
  if (obj == Py_Ellipsis) return new_node(fe, N_ELLIPSIS, e);  /* an index (..., 1) */
  if ((n = value_constant(fe, obj, e, "an item of a global tuple")) || fe->diag->kind) return n;  /* (e1, e2) */
  if (PyObject_TypeCheck(obj, &DispatcherType)) return fe_function_value(fe, obj, e);
  return PyUnicode_CheckExact(obj) ? string_node(fe, e, obj) : const_array(fe, obj, e);
}

/* b"..." in the source, or a bytes global: its bytes frozen as an
 * array's elements are (const_array), typed bytes. */
static Node *bytes_constant(Fe *fe, PyObject *obj, PyObject *e) {
  Node *n = new_node(fe, N_CONST_ARRAY, e);
  n->op = TY_BYTES;
  n->list = new_list(fe, 1);
  n->list.items[0] = new_node(fe, N_INT, e);
  n->ival = n->list.items[0]->ival = PyBytes_GET_SIZE(obj);
  void *data = arena_alloc(fe->arena, (size_t)n->ival + 1);
  memcpy(data, PyBytes_AS_STRING(obj), (size_t)n->ival);
  n->data = data;
  return n;
}

/* A slice of ints and Nones (a global, or an item of a global tuple),
 * frozen as the call slice(start, stop, step) of them, as Numba freezes
 * it; NULL for a slice of anything else. */
static Node *slice_constant(Fe *fe, PyObject *obj, PyObject *e) {
  PySliceObject *s = (PySliceObject *)obj;
  PyObject *parts[3] = {s->start, s->stop, s->step};
  Node *args[3];
  for (int i = 0; i < 3; i++) {
    if (parts[i] != Py_None && !PyLong_CheckExact(parts[i])) return NULL;
    args[i] = parts[i] == Py_None ? new_node(fe, N_NONE, e) : constant_node(fe, parts[i], e);
    if (!args[i]) return NULL;
  }
  return call_node(fe, e, "slice", args, 3);
}

static Node *constant_node(Fe *fe, PyObject *obj, PyObject *e) {
  Node *member = fe_enum_member(fe, obj, e);  /* before ints: an IntEnum member is one */
  if (member || fe->diag->kind) return member;
  Node *scalar = numpy_scalar(fe, obj, e);
  if (scalar || fe->diag->kind) return scalar;
  if (PyBool_Check(obj)) {
    Node *n = new_node(fe, N_BOOL, e);
    n->ival = obj == Py_True;
    return n;
  }
  if (PyLong_Check(obj)) {
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    unsigned long long above = overflow > 0 ? PyLong_AsUnsignedLongLong(obj) : 0;
    if (overflow > 0 && !PyErr_Occurred()) return uint64_constant(fe, above, e);  /* a uint64, as Numba types it */
    PyErr_Clear();
    if (overflow) return fe_error(fe, e, "integer constant does not fit in int64 or uint64");
    Node *n = new_node(fe, N_INT, e);
    n->ival = v;
    return n;
  }
  if (PyFloat_Check(obj)) {
    Node *n = new_node(fe, N_FLOAT, e);
    n->fval = PyFloat_AS_DOUBLE(obj);
    return n;
  }
  if (PyComplex_Check(obj)) {  /* 2j, or a global complex: complex(real, imag) */
    Node *n = new_node(fe, N_CALL, e);
    n->bi = core_builtin_named("complex");
    n->list = new_list(fe, 2);
    for (int i = 0; i < 2; i++) {
      n->list.items[i] = new_node(fe, N_FLOAT, e);
      n->list.items[i]->fval = i ? PyComplex_ImagAsDouble(obj) : PyComplex_RealAsDouble(obj);
    }
    return n;
  }
  if (PyBytes_CheckExact(obj)) return bytes_constant(fe, obj, e);
  if (PySlice_Check(obj)) return slice_constant(fe, obj, e);
  if (PyTuple_Check(obj) && PyTuple_GET_SIZE(obj) > TY_MAX_FIELDS)
    return fe_error(fe, e, "a global tuple of %zd items (a tuple type holds at most %d) is read in compiled code only "
                    "as a sequence of ints or floats: t[i], len(t), for x in t, x in t", PyTuple_GET_SIZE(obj),
                    TY_MAX_FIELDS);
  if (PyTuple_Check(obj)) {  /* a global tuple, frozen like its items */
    Node *n = new_node(fe, N_TUPLE, e);
    n->list = new_list(fe, (int)PyTuple_GET_SIZE(obj));
    for (int i = 0; i < n->list.len; i++)
      if (!(n->list.items[i] = frozen_item(fe, PyTuple_GET_ITEM(obj, i), e))) return NULL;
    return fe_named_global(fe, e, n, obj);
  }
  return NULL;
}

/* A NumPy array global to the module, frozen at compile time as Numba
 * freezes it (a copy of its elements in C order, read-only in compiled
 * code); NULL if obj is none. */
static Node *const_array(Fe *fe, PyObject *obj, PyObject *e) {
  const Type *t = core_api() ? disp_typeof(obj) : NULL;
  PyErr_Clear();
  if (!t || t->kind != TY_ARRAY) return NULL;
  PyObject *numpy = PyImport_ImportModule("numpy");
  PyObject *c = numpy ? PyObject_CallMethod(numpy, "ascontiguousarray", "O", obj) : NULL;
  Py_XDECREF(numpy);
  if (c && ty_is_time(t->elem)) {  /* their counts, read as int64s */
    PyObject *counts = PyObject_CallMethod(c, "view", "s", "int64");
    Py_SETREF(c, counts);
  }
  Py_buffer view;
  if (!c || PyObject_GetBuffer(c, &view, PyBUF_C_CONTIGUOUS | PyBUF_ND) < 0) {
    Py_XDECREF(c);
    PyErr_Clear();
    return fe_error(fe, e, "cannot read this NumPy array's elements");
  }
  Node *n = new_node(fe, N_CONST_ARRAY, e);
  n->op = t->elem->kind;
  /* a kind alone does not say a record's fields or a time's unit */
  n->callee = ty_is_time(t->elem) || t->elem->kind == TY_RECORD ? (void *)t->elem : NULL;
  n->list = new_list(fe, view.ndim);
  for (int d = 0; d < view.ndim; d++) {
    Node *dim = new_node(fe, N_INT, e);
    dim->ival = view.shape[d];
    n->list.items[d] = dim;
  }
  n->ival = view.len;
  void *data = arena_alloc(fe->arena, (size_t)view.len + 1);
  memcpy(data, view.buf, (size_t)view.len);
  n->data = data;
  PyBuffer_Release(&view);
  Py_DECREF(c);
  return n;
}

/* A tuple of more numbers than this, read in compiled code as a sequence
 * only, is frozen as an array of them: one constant, however long (a
 * tuple's type and code grow with its items, and its length may pass
 * what a tuple type holds). */
enum { LONG_TUPLE = 64 };

/* obj, a global or closure tuple of more than LONG_TUPLE items, all ints
 * or all floats (numpy.float64 too), where e reads it as a sequence only
 * (an item at an int index, len(), a for loop's sequence, `in`): frozen as
 * a read-only array of its items, which those reads find alike (pandas'
 * ewm closes over a tuple of its data's time deltas). NULL for anything
 * else. */
static Node *long_tuple_array(Fe *fe, PyObject *obj, PyObject *e) {
  Node *n = NULL;
  if (obj && PyTuple_CheckExact(obj) && PyTuple_GET_SIZE(obj) > LONG_TUPLE) {
    bool ints = true, floats = true;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(obj) && (ints || floats); i++) {
      PyObject *x = PyTuple_GET_ITEM(obj, i);
      ints &= PyLong_Check(x) && !PyBool_Check(x);
      floats &= PyFloat_Check(x);  /* numpy.float64 too */
    }
    PyObject *numpy = ints || floats ? PyImport_ImportModule("numpy") : NULL;
    PyObject *a = numpy ? PyObject_CallMethod(numpy, "array", "Os", obj, ints ? "int64" : "float64") : NULL;
    if (a) n = const_array(fe, a, e);
    else PyErr_Clear();  /* ints beyond int64: the tuple's own error */
    Py_XDECREF(a); Py_XDECREF(numpy);
  }
  return n;
}

/* The values of a list or tuple display of more than LONG_TUPLE items,
 * where each is a number written in the source (ast.literal_eval reads
 * it); NULL, no exception, for any other. */
static PyObject *long_display_values(PyObject *e) {
  if (!is_kind(e, "List") && !is_kind(e, "Tuple")) return NULL;
  PyObject *elts = field(e, "elts");
  bool long_one = elts && PyList_GET_SIZE(elts) > LONG_TUPLE;
  Py_XDECREF(elts);
  PyObject *ast = long_one ? PyImport_ImportModule("ast") : NULL;
  PyObject *values = ast ? PyObject_CallMethod(ast, "literal_eval", "O", e) : NULL;
  Py_XDECREF(ast);
  PyObject *items = values ? PySequence_Tuple(values) : NULL;
  Py_XDECREF(values);
  PyErr_Clear();
  return items;
}

/* The same of the global or closure value e names, or of a tuple display
 * of numbers written in the source (`for k in (1, 2, ..., 100)`). */
static Node *fe_long_tuple(Fe *fe, PyObject *e) {
  PyObject *obj = is_kind(e, "Name") || is_kind(e, "Attribute") ? static_object(fe, e)
                  : is_kind(e, "Tuple") ? long_display_values(e) : NULL;
  Node *n = long_tuple_array(fe, obj, e);
  Py_XDECREF(obj);
  return n;
}

/* A list or tuple display of more than LONG_TUPLE numbers or bools
 * written in the source as a new array of them, of the dtype NumPy gives
 * them (its reading of a display among a function's arguments:
 * numpy.array((0, 1, ..., 252)), as of a list display's items: ints and
 * floats together are floats); NULL for any other. */
static Node *long_display_array(Fe *fe, PyObject *e) {
  PyObject *values = long_display_values(e);
  PyObject *numpy = values ? PyImport_ImportModule("numpy") : NULL;
  PyObject *array = numpy ? PyObject_GetAttrString(numpy, "array") : NULL;
  PyObject *a = array ? PyObject_CallOneArg(array, values) : NULL;
  Py_XDECREF(array);
  PyObject *dtype = a ? PyObject_GetAttrString(a, "dtype") : NULL;
  PyObject *kind = dtype ? PyObject_GetAttrString(dtype, "kind") : NULL;
  const char *k = kind && PyUnicode_Check(kind) ? PyUnicode_AsUTF8(kind) : NULL;
  Node *frozen = k && strchr("biuf", k[0]) ? const_array(fe, a, e) : NULL;
  PyErr_Clear();  /* (ints beyond int64, strs: the display's own error) */
  Py_XDECREF(kind); Py_XDECREF(dtype); Py_XDECREF(a); Py_XDECREF(numpy); Py_XDECREF(values);
  return frozen ? call_node(fe, e, "numpy.array", &frozen, 1) : NULL;
}

/* None (numpy.newaxis) and Ellipsis, which only an index may hold (infer
 * says so elsewhere); NULL for other objects. */
static Node *index_constant(Fe *fe, PyObject *obj, PyObject *e) {
  if (obj == Py_None) return new_node(fe, N_NONE, e);
  if (obj == Py_Ellipsis) return new_node(fe, N_ELLIPSIS, e);
  return NULL;
}

/* The value of a constant written in an index: an int, None, a slice of
 * them or a tuple of these; NULL for any other expression. */
static PyObject *constant_key(PyObject *e) {
  if (is_kind(e, "Constant")) {
    PyObject *v = field(e, "value");
    if (v == Py_None || PyLong_CheckExact(v)) return v;
    Py_DECREF(v);
    return NULL;
  }
  if (is_kind(e, "Slice")) {
    PyObject *parts[3] = {field(e, "lower"), field(e, "upper"), field(e, "step")};
    for (int i = 0; i < 3; i++)
      if (parts[i] != Py_None) Py_SETREF(parts[i], constant_key(parts[i]));
    PyObject *s = parts[0] && parts[1] && parts[2] ? PySlice_New(parts[0], parts[1], parts[2]) : NULL;
    for (int i = 0; i < 3; i++) Py_XDECREF(parts[i]);
    return s;
  }
  if (!is_kind(e, "Tuple")) return NULL;
  PyObject *elts = field(e, "elts"), *t = PyTuple_New(PyList_GET_SIZE(elts));
  for (Py_ssize_t i = 0; t && i < PyList_GET_SIZE(elts); i++) {
    PyObject *k = constant_key(PyList_GET_ITEM(elts, i));
    if (!k) Py_CLEAR(t);
    else PyTuple_SET_ITEM(t, i, k);
  }
  Py_DECREF(elts);
  return t;
}

/* base[key] of a ruchey.types object named statically and a constant key
 * (types.float64[:, ::1]): the object it makes; NULL for any other. */
static PyObject *static_type_subscript(Fe *fe, PyObject *base_expr, PyObject *key_expr) {
  PyObject *base = static_object(fe, base_expr);
  PyObject *key = base && disp_type_object(base) ? constant_key(key_expr) : NULL;
  PyObject *made = key ? PyObject_GetItem(base, key) : NULL;
  PyErr_Clear();
  Py_XDECREF(key); Py_XDECREF(base);
  return made;
}

static PyObject *static_type_call(Fe *fe, PyObject *e, bool report);

/* A value a type expression may take: a constant (2, 'C'), a statically
 * named object (types.int64), a type made of these (types.float64[:],
 * types.ListType(types.int64)) or a tuple of them; NULL for any other. */
static PyObject *static_type_argument(Fe *fe, PyObject *e) {
  if (is_kind(e, "Constant")) return field(e, "value");
  if (is_kind(e, "Call")) return static_type_call(fe, e, false);
  if (is_kind(e, "Tuple") || is_kind(e, "List")) {  /* types.Tuple((types.int64, types.float64)) */
    PyObject *elts = field(e, "elts"), *t = PyTuple_New(PyList_GET_SIZE(elts));
    for (Py_ssize_t i = 0; t && i < PyList_GET_SIZE(elts); i++) {
      PyObject *v = static_type_argument(fe, PyList_GET_ITEM(elts, i));
      if (!v) Py_CLEAR(t);
      else PyTuple_SET_ITEM(t, i, v);
    }
    Py_DECREF(elts);
    return t;
  }
  if (!is_kind(e, "Subscript")) return static_object(fe, e);
  PyObject *v = field(e, "value"), *s = field(e, "slice"), *made = static_type_subscript(fe, v, s);
  Py_DECREF(v); Py_DECREF(s);
  return made;
}

/* A call of one of ruchey.types' type makers with arguments known at
 * compile time (types.ListType(types.float64), types.UniTuple(types.int64,
 * 3)): the type it makes, as a global of that value would be; NULL for
 * any other call, and where the maker refused its arguments (the
 * TypingError saying why where report). */
static PyObject *static_type_call(Fe *fe, PyObject *e, bool report) {
  PyObject *func = field(e, "func"), *maker = static_object(fe, func);
  Py_DECREF(func);
  PyObject *module = maker ? PyObject_GetAttrString(maker, "__module__") : NULL;
  bool of_types = module && PyUnicode_Check(module) && !PyUnicode_CompareWithASCIIString(module, "ruchey.types") &&
                  PyCallable_Check(maker) && !disp_type_object(maker);  /* (types.int64(x) converts a value) */
  Py_XDECREF(module);
  PyObject *args = of_types ? field(e, "args") : NULL, *kws = of_types ? field(e, "keywords") : NULL;
  PyObject *given = args ? PyTuple_New(PyList_GET_SIZE(args)) : NULL, *named = kws ? PyDict_New() : NULL;
  for (Py_ssize_t i = 0; given && i < PyTuple_GET_SIZE(given); i++) {
    PyObject *v = static_type_argument(fe, PyList_GET_ITEM(args, i));
    if (!v) Py_CLEAR(given);
    else PyTuple_SET_ITEM(given, i, v);
  }
  for (Py_ssize_t i = 0; given && named && i < PyList_GET_SIZE(kws); i++) {
    PyObject *kw = PyList_GET_ITEM(kws, i), *name = field(kw, "arg"), *value = field(kw, "value");
    PyObject *v = name != Py_None ? static_type_argument(fe, value) : NULL;
    if (!v || PyDict_SetItem(named, name, v) < 0) Py_CLEAR(given);
    Py_XDECREF(v); Py_DECREF(name); Py_DECREF(value);
  }
  PyObject *made = given && named ? PyObject_Call(maker, given, named) : NULL;
  PyObject *shown = report && made && !disp_type_object(made) ? PyObject_Repr(made) : NULL;
  if (shown) fe_error(fe, e, "this type cannot be made: it gives %s, not a type compiled code knows", PyUnicode_AsUTF8(shown));
  Py_XDECREF(shown);
  if (report && given && named && !made && PyErr_Occurred())
    fe_python_error(fe, e, "this type cannot be made", "error");
  if (made && !disp_type_object(made)) Py_CLEAR(made);
  PyErr_Clear();
  Py_XDECREF(given); Py_XDECREF(named); Py_XDECREF(args); Py_XDECREF(kws); Py_XDECREF(maker);
  return made;
}

/* obj as a dtype (numpy.float64, numpy.dtype('M8[ns]'), a structured dtype,
 * types.float64[:]): an N_DTYPE node; NULL (no error) for any other object. */
static Node *dtype_global(Fe *fe, PyObject *obj, PyObject *e) {
  /* a dtype whose type says more than its kind: a time's unit, a text's width */
  const Type *full = disp_dtype_time(obj);  /* numpy.dtype('M8[ns]') */
  if (!full) full = disp_text_class(obj);   /* numpy.str_: '<U0', as Numba reads it */
  if (full) {
    Node *n = new_node(fe, N_DTYPE, e);
    n->ival = (int)full->kind;
    n->data = (void *)full;
    return n;
  }
  const Type *record = disp_record_global(obj);  /* numpy.empty(n, dtype=rec): a structured dtype */
  const Type *instance = record || PyErr_Occurred() ? NULL : jitclass_instance_type(obj);  /* typed.List.empty_list(point_type) */
  if (record || instance) {
    Node *n = new_node(fe, N_DTYPE, e);
    n->ival = record ? TY_RECORD : TY_CLASS;
    n->data = record ? record : instance;
    return n;
  }
  if (PyErr_Occurred()) return fe_python_error(fe, e, NULL, "unsupported dtype");
  int dtype = core_is_unicode_type(obj) ? TY_STR : core_dtype_kind(obj);  /* unicode_type: typed containers' */
  if (dtype >= 0) {
    Node *n = new_node(fe, N_DTYPE, e);
    n->ival = dtype;
    return n;
  }
  const Type *described = disp_type_object(obj);  /* types.float64[:], types.ListType(types.int64) */
  if (described) {
    Node *n = new_node(fe, N_DTYPE, e);
    n->ival = (int)described->kind;
    n->data = (void *)described;
    return n;
  }
  return NULL;
}

/* A structured scalar (numpy.void, a recarray's numpy.record): frozen as
 * item 0 of a one-item array of its dtype, a record as an array's; NULL
 * for any other object. */
static Node *record_constant(Fe *fe, PyObject *obj, PyObject *e) {
  PyObject *numpy = PyImport_ImportModule("numpy");
  PyObject *void_type = numpy ? PyObject_GetAttrString(numpy, "void") : NULL;
  int is = void_type ? PyObject_IsInstance(obj, void_type) : 0;
  PyObject *fields = is == 1 ? PyObject_GetAttrString(obj, "dtype") : NULL;
  PyObject *names = fields ? PyObject_GetAttrString(fields, "names") : NULL;
  PyObject *one = names && names != Py_None ? PyObject_CallMethod(numpy, "asarray", "O", obj) : NULL;
  PyObject *arr = one ? PyObject_CallMethod(one, "reshape", "i", 1) : NULL;
  Py_XDECREF(numpy); Py_XDECREF(void_type); Py_XDECREF(fields); Py_XDECREF(names); Py_XDECREF(one);
  PyErr_Clear();
  if (!arr) return NULL;
  Node *a = const_array(fe, arr, e);
  Py_DECREF(arr);
  if (!a) return NULL;
  Node *n = new_node(fe, N_INDEX, e);
  n->lhs = a;
  n->rhs = new_node(fe, N_INT, e);
  return n;
}

/* A device array global to the module (cuda.to_device's), captured by
 * reference as numba-cuda captures it: compiled code reads and writes its
 * memory where it is, as it is at each launch, its shape frozen. Its
 * __ruchey_captured__() gives (a NumPy array of its shape, strides and
 * dtype, its data's address, whether that is in a GPU's memory); the
 * code holds the array for good. NULL where obj is none. */
static Node *captured_array(Fe *fe, PyObject *obj, PyObject *e) {
  if (PyType_Check(obj) || !PyObject_HasAttrString(obj, "__ruchey_captured__")) return NULL;
  PyObject *got = PyObject_CallMethod(obj, "__ruchey_captured__", NULL), *view, *address, *on_gpu;
  if (!got || !PyArg_ParseTuple(got, "OO!O", &view, &PyLong_Type, &address, &on_gpu)) {
    Py_XDECREF(got);
    return fe_python_error(fe, e, "a device array", "cannot be captured");
  }
  const Type *t = disp_typeof(view);
  PyObject *shape = PyObject_GetAttrString(view, "shape"), *strides = PyObject_GetAttrString(view, "strides");
  Node *n = NULL;
  if (t && t->kind == TY_ARRAY && shape && strides && PyTuple_Check(shape) && PyTuple_Check(strides)) {
    n = new_node(fe, N_CALL, e);
    n->bi = core_builtin_named("a captured device array");
    n->data = t;
    n->ival = PyObject_IsTrue(on_gpu) == 1;
    n->list = new_list(fe, 1 + 2 * t->ndim);  /* its address, shape and strides */
    for (int i = 0; i < n->list.len; i++) {
      PyObject *v = !i ? address : PyTuple_GET_ITEM(i <= t->ndim ? shape : strides, (i - 1) % t->ndim);
      n->list.items[i] = new_node(fe, N_INT, e);
      n->list.items[i]->ival = (int64_t)PyLong_AsUnsignedLongLongMask(v);
    }
    Py_INCREF(obj);  /* the code reads its memory for good */
  } else {
    PyErr_Clear();
    fe_error(fe, e, "this device array cannot be captured by compiled code");
  }
  Py_XDECREF(shape); Py_XDECREF(strides); Py_DECREF(got);
  return n;
}

/* A global value used in an expression: a frozen constant or array, a
 * device array (by reference), a module, or a dtype. Functions are only
 * valid as callees. */
static Node *global_value(Fe *fe, PyObject *obj, PyObject *e, const char *name) {
  Node *n = constant_node(fe, obj, e);
  if (!n && !fe->diag->kind) n = index_constant(fe, obj, e);
  if (!n && !fe->diag->kind && PyUnicode_CheckExact(obj)) n = string_node(fe, e, obj);  /* frozen, as Numba's */
  if (n || fe->diag->kind || (n = captured_array(fe, obj, e)) || fe->diag->kind) return n;
  if ((n = const_array(fe, obj, e)) || fe->diag->kind) return n;
  if (PyObject_TypeCheck(obj, &DispatcherType)) return fe_function_value(fe, obj, e);
  PyObject *overloaded = !PyType_Check(obj) ? ext_callee(obj) : NULL;
  if (overloaded) {  /* a function @overload implements or a CUDA kernel, passed as a value (interpolation's fmap(get_index, ...)) */
    n = fe_function_value(fe, overloaded, e);
    Py_DECREF(overloaded);
    return n;
  }
  if ((n = fe_native_value(fe, obj, e))) return n;
  int mod = core_module_id(obj);
  if (mod >= 0) {
    n = new_node(fe, N_MODULE, e);
    n->ival = mod;
    return n;
  }
  const Builtin *bi = core_builtin(obj);
  if (bi && (bi->flags & BF_NOCALL)) {  /* cuda.threadIdx.x and the like */
    n = new_node(fe, N_CALL, e);
    n->bi = bi;
    return n;
  }
  if ((n = dtype_global(fe, obj, e)) || fe->diag->kind) return n;
  if (core_is_enum_class(obj))
    return fe_error(fe, e, "enum class '%s' is used in compiled code only to name its members (%s.X, %s['X']), "
                    "as Numba", core_enum_name(obj), core_enum_name(obj), core_enum_name(obj));
  Node *op = fe_operator_value(fe, obj, e);
  if (op || fe->diag->kind) return op;
  if ((op = fe_builtin_value(fe, obj, e)) || fe->diag->kind) return op;
  if (PyModule_Check(obj))
    return fe_error(fe, e, "module '%s' is not supported in compiled code (numpy and math are)",
                    PyModule_GetName(obj) ? PyModule_GetName(obj) : "?");
  char what[300];
  snprintf(what, sizeof what, "global '%s'", name);
  if ((n = value_constant(fe, obj, e, what)) || fe->diag->kind) return n;
  if ((n = record_constant(fe, obj, e)) || fe->diag->kind) return n;
  char msg[512];  /* (dcor's `f = compiled_f if compiled else python_f`, compiled a closure's True) */
  snprintf(msg, sizeof msg, "global '%s' of Python type '%s' cannot be used in compiled code", name,
           Py_TYPE(obj)->tp_name);
  return error_where_typed(fe, e, msg);
}

/* ---------------------------------------------------------------- expressions */

/* type(x) as a value (numpy.empty(n, type(x)), T after T = type(x)): x's
 * type as a dtype. */
static Node *fe_type_value(Fe *fe, PyObject *e, PyObject *of) {
  return fe_call_of(fe, e, "type(x)", fe_expr(fe, of));
}

/* A parameter frozen to a module read as a value: the module, as a global
 * naming it is; NULL for any other name. Apart from fe_name, whose frame
 * every level of a deeply nested expression holds. */
static __attribute__((noinline)) Node *frozen_module_value(Fe *fe, PyObject *e, const char *name) {
  PyObject *module = frozen_module(fe, name);
  Node *n = module ? global_value(fe, module, e, name) : NULL;
  Py_XDECREF(module);
  return n;
}

static Node *fe_name(Fe *fe, PyObject *e) {
  PyObject *id = field(e, "id");
  PyObject *type_of = fe->types_of ? PyDict_GetItemWithError(fe->types_of, id) : NULL;
  if (type_of) {
    Py_DECREF(id);
    return fe_type_value(fe, e, type_of);
  }
  const char *name = PyUnicode_AsUTF8(id);
  int v = find_var(fe, name);
  Node *n = NULL;
  if (fe->exceptions && PyDict_Contains(fe->exceptions, id) == 1) {
    fe_error(fe, e, "'%s' holds an exception: compiled code can only raise it ('raise %s'), not use it as a value",
             name, name);
    Py_DECREF(id);
    return NULL;
  }
  if (v >= 0 && fe_captures_of(fe, id)) {
    PyObject *ctx = field(e, "ctx");
    bool store = is_kind(ctx, "Store");
    Py_DECREF(ctx);
    if (!store) {
      n = fe_closure_value(fe, id, e);
      Py_DECREF(id);
      return n;
    }
  }
  if (v >= 0 && fe->frozen && (n = frozen_module_value(fe, e, name))) {
    /* (passed on: rectify(lib, phi)) */
  } else if (v >= 0) {
    n = new_node(fe, N_VAR, e);
    n->var = v;
  } else {
    PyObject *obj = static_object(fe, e);
    if (!obj && !PyErr_Occurred()) {  /* an error where typing reaches it: a branch pruned never does (fluids'
                                       * `fprime2 is None or isnan(fcurv)`, fcurv assigned in lines it drops) */
      n = new_node(fe, N_CALL, e);
      n->bi = core_builtin_named("an undefined name");
      n->str = arena_strdup(fe->arena, name);
    } else if (!obj)
      n = fe_error(fe, e, "name '%s' is not defined", name);
    else
      n = global_value(fe, obj, e, name);
    Py_XDECREF(obj);
  }
  Py_DECREF(id);
  return n;
}

/* A constant string: its UTF-8 text (str) and bytes (ival); NUL characters kept. */
static Node *string_node(Fe *fe, PyObject *e, PyObject *v) {
  Py_ssize_t size;
  const char *text = PyUnicode_AsUTF8AndSize(v, &size);
  if (!text) {
    PyErr_Clear();
    return fe_error(fe, e, "this string cannot be encoded as UTF-8 (a lone surrogate?)");
  }
  Node *n = new_node(fe, N_STRING, e);
  char *copy = arena_alloc(fe->arena, (size_t)size + 1);
  memcpy(copy, text, (size_t)size + 1);
  n->str = copy;
  n->ival = size;
  return n;
}

static Node *fe_constant(Fe *fe, PyObject *e) {
  PyObject *v = field(e, "value");
  Node *n = constant_node(fe, v, e);
  if (!n && !fe->diag->kind) n = index_constant(fe, v, e);
  if (!n && !fe->diag->kind && PyUnicode_Check(v)) n = string_node(fe, e, v);
  if (!n && !fe->diag->kind) fe_error(fe, e, "constants of type '%s' are not supported", Py_TYPE(v)->tp_name);
  Py_DECREF(v);
  return n;
}

static int op_from_ast(PyObject *op) {
  static const struct { const char *name; Op op; } ops[] = {
    {"Add", OP_ADD}, {"Sub", OP_SUB}, {"Mult", OP_MUL}, {"Div", OP_DIV},
    {"FloorDiv", OP_FLOORDIV}, {"Mod", OP_MOD}, {"Pow", OP_POW},
    {"LShift", OP_LSHIFT}, {"RShift", OP_RSHIFT}, {"BitAnd", OP_BITAND},
    {"BitOr", OP_BITOR}, {"BitXor", OP_BITXOR},
    {"USub", OP_NEG}, {"UAdd", OP_POS}, {"Not", OP_NOT}, {"Invert", OP_INVERT},
    {"And", OP_AND}, {"Or", OP_OR},
    {"Eq", OP_EQ}, {"NotEq", OP_NE}, {"Lt", OP_LT}, {"LtE", OP_LE},
    {"Gt", OP_GT}, {"GtE", OP_GE},
  };
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (is_kind(op, ops[i].name)) return ops[i].op;
  return -1;
}

/* Converts a Python list of expressions. */
static Node *value_before(Fe *fe, PyObject *s, Node *rhs, int mark);

static bool targets(const Node *t, int var) {
  if (t->kind == N_VAR) return t->var == var;
  for (int i = 0; t->kind == N_TUPLE && i < t->list.len; i++)
    if (targets(t->list.items[i], var)) return true;
  return false;
}

/* Whether the statements of l, or those nested in them, assign variable var. */
static bool assigns(const NodeList *l, int var) {
  for (int i = 0; i < l->len; i++) {
    const Node *s = l->items[i];
    bool binds = s->kind == N_ASSIGN || s->kind == N_AUGASSIGN || s->kind == N_FOR;
    if ((binds && targets(s->lhs, var)) || assigns(&s->body, var) || assigns(&s->orelse, var)) return true;
  }
  return false;
}

/* Whether a statement from pre[mark] on assigns variable var (a call of
 * a nested function that assigns it: fe_local_call, maybe in a branch:
 * fe_branch_expr; a comprehension's loops assign only variables of its
 * own, comprehension_scoped). */
static bool assigned_since(Fe *fe, int mark, int var) {
  NodeList since = {fe->pre.items + mark, fe->pre.len - mark};
  return assigns(&since, var);
}

/* Whether reading x after the statements from pre[mark] on gives what
 * reading it before them gives: constants, variables they do not assign,
 * their attributes and tuples of such. */
static bool stays_put(Fe *fe, const Node *x, int mark) {
  switch (x->kind) {
  case N_INT: case N_FLOAT: case N_BOOL: case N_NONE: case N_STRING: case N_DTYPE: case N_MODULE:
  case N_CONST_ARRAY: case N_ELLIPSIS: case N_FUNC:
    return true;
  case N_VAR: return !assigned_since(fe, mark, x->var);
  case N_ATTR: case N_UNARY: return stays_put(fe, x->lhs, mark);
  case N_TUPLE:
    for (int i = 0; i < x->list.len; i++)
      if (!stays_put(fe, x->list.items[i], mark)) return false;
    return true;
  default: return false;
  }
}

/* The operands items[0..n), read before one whose reading (from pre[mark]
 * on) put statements before the statement (a comprehension, run there
 * once, or a call of a nested function that assigns variables): each
 * that does not stay put is computed first, into a hidden
 * variable ahead of those statements, as Python evaluates left to right
 * ((l.append(5), [x for x in l]) appends before it walks l). */
void fe_earlier_first(Fe *fe, PyObject *e, Node **items, int n, int *mark) {
  if (fe->pre.len == *mark) return;
  for (int i = 0; i < n; i++)
    if (!stays_put(fe, items[i], *mark)) items[i] = value_before(fe, e, items[i], (*mark)++);
}

bool fe_exprs(Fe *fe, PyObject *list, NodeList *out) {
  *out = new_list(fe, (int)PyList_GET_SIZE(list));
  for (int i = 0; i < out->len; i++) {
    int mark = fe->pre.len;
    if (!(out->items[i] = fe_expr(fe, PyList_GET_ITEM(list, i)))) return false;
    fe_earlier_first(fe, PyList_GET_ITEM(list, i), out->items, i, &mark);
  }
  return true;
}


static bool is_constant_str_node(PyObject *e) {
  PyObject *v = is_kind(e, "Constant") ? field(e, "value") : NULL;
  bool str = v && PyUnicode_Check(v);
  Py_XDECREF(v);
  return str;
}

/* ---------------------------------------------------------------- constant folding */

/* The most bits an int CPython folds a * b, a ** b or a << b into may
 * have (its compiler's MAX_INT_SIZE); the deepest expression of constants
 * folded here (a long sum's operations nest as deep as it has terms: none
 * is walked further, so that reading it stays linear). */
enum { FOLD_MAX_BITS = 128, FOLD_MAX_DEPTH = 64 };

/* The bits of an int's magnitude (int.bit_length()); (size_t)-1 on an error. */
static size_t int_bits(PyObject *v) {
  PyObject *bits = PyObject_CallMethod(v, "bit_length", NULL);
  size_t n = bits ? PyLong_AsSize_t(bits) : (size_t)-1;
  Py_XDECREF(bits);
  return n;
}

/* Whether CPython's compiler folds a op b of these ints: a product, a
 * power or a shift only while its result stays within FOLD_MAX_BITS (a
 * negative exponent or count is left to the operation itself). */
static bool folds_within_bits(PyObject *op, PyObject *a, PyObject *b) {
  bool mult = is_kind(op, "Mult"), pow = is_kind(op, "Pow"), shift = is_kind(op, "LShift");
  if (!(mult || pow || shift) || !PyObject_IsTrue(a) || !PyObject_IsTrue(b)) return true;
  size_t abits = int_bits(a), bbits = int_bits(b);
  if (abits == (size_t)-1 || bbits == (size_t)-1) return false;
  if (mult) return abits + bbits <= FOLD_MAX_BITS;
  size_t count = PyLong_AsSize_t(b);  /* (an OverflowError for a negative one) */
  if (count == (size_t)-1) return PyErr_Clear(), true;
  return pow ? abits <= FOLD_MAX_BITS / count : count <= FOLD_MAX_BITS && abits <= FOLD_MAX_BITS - count;
}

static PyObject *int_binop(PyObject *op, PyObject *a, PyObject *b) {
  if (is_kind(op, "Add")) return PyNumber_Add(a, b);
  if (is_kind(op, "Sub")) return PyNumber_Subtract(a, b);
  if (is_kind(op, "Mult")) return PyNumber_Multiply(a, b);
  if (is_kind(op, "FloorDiv")) return PyNumber_FloorDivide(a, b);
  if (is_kind(op, "Mod")) return PyNumber_Remainder(a, b);
  if (is_kind(op, "Pow")) return PyNumber_Power(a, b, Py_None);
  if (is_kind(op, "LShift")) return PyNumber_Lshift(a, b);
  if (is_kind(op, "RShift")) return PyNumber_Rshift(a, b);
  if (is_kind(op, "BitOr")) return PyNumber_Or(a, b);
  if (is_kind(op, "BitXor")) return PyNumber_Xor(a, b);
  if (is_kind(op, "BitAnd")) return PyNumber_And(a, b);
  return NULL;
}

/* The number an expression of int constants is, as CPython's compiler
 * folds it before Numba reads the bytecode: an int (2 ** 63, 1 << 63,
 * 2 ** 64 - 1, -2 ** 63: exact, a uint64 where int64 cannot hold it, where
 * int64 arithmetic would wrap), or the float an int to a negative int power
 * is (10 ** -8 is 1e-08 to Numba, where int64 arithmetic would give 0); NULL,
 * with no error set, for any other expression, or one CPython leaves to
 * run time (1 // 0, 0 ** -1, 2 ** 70). */
static PyObject *folded_number(PyObject *e, int depth) {
  PyObject *result = NULL;
  if (is_kind(e, "Constant")) {
    PyObject *v = field(e, "value");
    if (PyLong_CheckExact(v)) return v;
    Py_DECREF(v);
    return NULL;
  }
  bool unary = is_kind(e, "UnaryOp");
  if ((!unary && !is_kind(e, "BinOp")) || depth == FOLD_MAX_DEPTH) return NULL;
  PyObject *op = field(e, "op");
  PyObject *a = unary ? field(e, "operand") : field(e, "left"), *b = unary ? NULL : field(e, "right");
  /* the right operand first: a long sum's terms are its right operands, each
   * found not constant without walking down the sums to its left */
  PyObject *y = unary ? NULL : folded_number(b, depth + 1), *x = unary || y ? folded_number(a, depth + 1) : NULL;
  if (unary && x)
    result = is_kind(op, "USub") ? PyNumber_Negative(x) : is_kind(op, "UAdd") ? PyNumber_Positive(x)
           : is_kind(op, "Invert") ? PyNumber_Invert(x) : NULL;
  else if (x && y && PyLong_CheckExact(x) && PyLong_CheckExact(y) && folds_within_bits(op, x, y))
    result = int_binop(op, x, y);
  if (result && !PyLong_CheckExact(result) && !(PyFloat_CheckExact(result) && is_kind(op, "Pow")))
    Py_CLEAR(result);  /* (a float made of it, 10 ** -8 / 2, is computed as the float's operations are) */
  PyErr_Clear();
  Py_XDECREF(x); Py_XDECREF(y); Py_DECREF(op); Py_DECREF(a); Py_XDECREF(b);
  return result;
}

/* An operation on int constants: the constant CPython folds it into. */
static Node *folded_constant(Fe *fe, PyObject *e, bool *folded) {
  PyObject *v = folded_number(e, 0);
  *folded = v != NULL;
  Node *n = v ? constant_node(fe, v, e) : NULL;
  Py_XDECREF(v);
  return n;
}

static Node *fe_binop(Fe *fe, PyObject *e) {
  bool folded;
  Node *constant = folded_constant(fe, e, &folded);
  if (folded) return constant;
  PyObject *op = field(e, "op"), *l = field(e, "left"), *r = field(e, "right");
  if (is_kind(op, "MatMult")) {  /* a @ b is numpy.matmul(a, b) */
    Node *args[2] = {fe_expr(fe, l), NULL};
    args[1] = args[0] ? fe_expr(fe, r) : NULL;
    Py_DECREF(op); Py_DECREF(l); Py_DECREF(r);
    if (!args[1]) return NULL;
    core_load_blas();
    return call_node(fe, e, "numpy.matmul", args, 2);
  }
  if (is_kind(op, "Mod") && is_constant_str_node(l)) {  /* "%d items" % n */
    Node *f = fe_percent_format(fe, e, l, r);
    Py_DECREF(op); Py_DECREF(l); Py_DECREF(r);
    return f;
  }
  Node *n = new_node(fe, N_BINOP, e);
  n->op = op_from_ast(op);
  if (fe->first_value == e) fe->first_value = l;  /* what the statement evaluates first is the left operand */
  n->lhs = fe_expr(fe, l);
  int mark = fe->pre.len;
  n->rhs = n->lhs ? fe_expr(fe, r) : NULL;
  if (n->rhs) fe_earlier_first(fe, e, &n->lhs, 1, &mark);
  Py_DECREF(op); Py_DECREF(l); Py_DECREF(r);
  if (n->op < 0) return fe_error(fe, e, "this operator is not supported");
  return n->rhs ? n : NULL;
}

static Node *fe_unary(Fe *fe, PyObject *e) {
  bool folded;  /* -9223372036854775808: the literal alone would not fit in int64 */
  Node *constant = folded_constant(fe, e, &folded);
  if (folded) return constant;
  PyObject *op = field(e, "op"), *v = field(e, "operand");
  Node *n = new_node(fe, N_UNARY, e);
  n->op = op_from_ast(op);
  n->lhs = fe_expr(fe, v);
  Py_DECREF(op); Py_DECREF(v);
  return n->lhs ? n : NULL;
}

/* a is None, a is not None (either side None); between other values, a
 * call of "is" (which enum members take): the identity tests compiled
 * code makes, as Numba's. */
static Node *fe_is(Fe *fe, PyObject *e, PyObject *left, PyObject *op, PyObject *right) {
  Node *n = new_node(fe, N_IS_NONE, e);
  n->ival = is_kind(op, "IsNot");
  Node *a = fe_expr(fe, left), *b = a ? fe_expr(fe, right) : NULL;
  if (!b) return NULL;
  if (a->kind != N_NONE && b->kind != N_NONE) {
    Node *args[2] = {a, b}, *is = call_node(fe, e, "is", args, 2);
    if (!n->ival) return is;
    n = new_node(fe, N_UNARY, e);
    n->op = OP_NOT;
    n->lhs = is;
    return n;
  }
  n->lhs = a->kind == N_NONE ? b : a;
  return n;
}

/* v in x, v not in x (alone, not chained): the builtin "in" of v and x. */
static Node *fe_in(Fe *fe, PyObject *e, PyObject *left, PyObject *op, PyObject *right) {
  Node *args[2] = {fe_expr(fe, left), NULL};
  if (!args[0] || !((args[1] = fe_long_tuple(fe, right)) || (args[1] = fe_expr(fe, right)))) return NULL;
  Node *n = call_node(fe, e, "in", args, 2);
  if (is_kind(op, "In")) return n;
  Node *not = new_node(fe, N_UNARY, e);
  not->op = OP_NOT;
  not->lhs = n;
  return not;
}

static Node *fe_compare(Fe *fe, PyObject *e) {
  PyObject *left = field(e, "left"), *ops = field(e, "ops"), *comps = field(e, "comparators");
  PyObject *first = PyList_GET_ITEM(ops, 0);
  if (PyList_GET_SIZE(ops) == 1 && (is_kind(first, "In") || is_kind(first, "NotIn"))) {
    Node *in = fe_in(fe, e, left, first, PyList_GET_ITEM(comps, 0));
    Py_DECREF(left); Py_DECREF(ops); Py_DECREF(comps);
    return in;
  }
  int k = (int)PyList_GET_SIZE(comps);
  PyObject *op0 = PyList_GET_ITEM(ops, 0);
  if (k == 1 && (is_kind(op0, "Is") || is_kind(op0, "IsNot"))) {
    Node *n = fe_is(fe, e, left, op0, PyList_GET_ITEM(comps, 0));
    Py_DECREF(left); Py_DECREF(ops); Py_DECREF(comps);
    return n;
  }
  Node *n = new_node(fe, N_COMPARE, e);
  n->list = new_list(fe, k + 1);
  n->ops = arena_alloc(fe->arena, sizeof(int) * (size_t)k);
  bool ok = (n->list.items[0] = fe_expr(fe, left)) != NULL;
  for (int i = 0; ok && i < k; i++) {
    n->ops[i] = op_from_ast(PyList_GET_ITEM(ops, i));
    if (n->ops[i] < 0)
      ok = fe_error(fe, e, "comparison with 'is' or 'in' is not supported") != NULL;
    else {
      int mark = fe->pre.len;
      ok = (n->list.items[i + 1] = fe_expr(fe, PyList_GET_ITEM(comps, i))) != NULL;
      if (ok) fe_earlier_first(fe, e, n->list.items, i + 1, &mark);
    }
  }
  Py_DECREF(left); Py_DECREF(ops); Py_DECREF(comps);
  return ok ? n : NULL;
}

/* e, which runs a different number of times than the statement holding
 * it (a branch of a conditional expression, a later operand of and/or, a
 * while loop's condition): read where it is written (nothing of it moves
 * before the statement: in_place), but the statements a comprehension in
 * it puts before the statement go to *stmts instead, to run where e runs
 * (fe_ifexp, boolop_before, while_first). */
static Node *fe_branch_expr(Fe *fe, PyObject *e, NodeList *stmts) {
  int before = fe->pre.len;
  fe->in_place++;
  Node *n = fe_expr(fe, e);
  fe->in_place--;
  *stmts = new_list(fe, fe->pre.len - before);
  for (int i = 0; i < stmts->len; i++) stmts->items[i] = fe->pre.items[before + i];
  fe->pre.len = before;
  return n;
}

/* stmts, then `var = value`, then tail where there is one: a branch's
 * statements (fe_branch_expr). */
static NodeList branch_assigning(Fe *fe, PyObject *e, const NodeList *stmts, int var, Node *value, Node *tail) {
  NodeList l = new_list(fe, stmts->len + 1 + (tail != NULL));
  for (int i = 0; i < stmts->len; i++) l.items[i] = stmts->items[i];
  Node *a = l.items[stmts->len] = new_node(fe, N_ASSIGN, e);
  a->lhs = fe_var_node(fe, e, var);
  a->rhs = value;
  if (tail) l.items[stmts->len + 1] = tail;
  return l;
}

static Node *if_node(Fe *fe, PyObject *e, Node *cond, NodeList body, NodeList orelse) {
  Node *n = new_node(fe, N_IF, e);
  n->cond = cond;
  n->body = body;
  n->orelse = orelse;
  return n;
}

/* a and b and c (or: or) where a later operand has statements to run
 * before it (a comprehension): a hidden variable takes a, and, where it
 * is true (false for or), the next operand's statements run and it takes
 * that operand, and so on, before the statement, as Python evaluates
 * them only so far; the variable is the value. */
static Node *boolop_before(Fe *fe, PyObject *e, int op, Node **values, NodeList *stmts, int n) {
  char name[32];
  snprintf(name, sizeof name, "$boolop%d", fe->ntemps++);
  int var = add_var(fe, name);
  Node *tail = NULL;
  for (int i = n - 1; i >= 1; i--) {
    NodeList then = branch_assigning(fe, e, &stmts[i], var, values[i], tail), skip = new_list(fe, 1);
    skip.items[0] = new_node(fe, N_PASS, e);
    tail = if_node(fe, e, fe_var_node(fe, e, var), op == OP_AND ? then : skip, op == OP_AND ? (NodeList){0} : then);
  }
  NodeList none = {0};
  fe_add_pre(fe, branch_assigning(fe, e, &none, var, values[0], NULL).items[0]);
  fe_add_pre(fe, tail);
  return fe_var_node(fe, e, var);
}

static Node *fe_boolop(Fe *fe, PyObject *e) {
  PyObject *op = field(e, "op"), *values = field(e, "values");
  Node *n = new_node(fe, N_BOOLOP, e);
  n->op = op_from_ast(op);
  n->list = new_list(fe, (int)PyList_GET_SIZE(values));
  NodeList *stmts = arena_alloc(fe->arena, sizeof(NodeList) * (size_t)n->list.len);
  bool ok = true, before = false;
  for (int i = 0; ok && i < n->list.len; i++) {
    stmts[i] = (NodeList){0};
    ok = (n->list.items[i] = i ? fe_branch_expr(fe, PyList_GET_ITEM(values, i), &stmts[i])
                               : fe_expr(fe, PyList_GET_ITEM(values, i))) != NULL;
    before |= stmts[i].len > 0;
  }
  Py_DECREF(op); Py_DECREF(values);
  if (ok && before) return boolop_before(fe, e, n->op, n->list.items, stmts, n->list.len);
  return ok ? n : NULL;
}

static Node *fe_ifexp(Fe *fe, PyObject *e) {
  PyObject *t = field(e, "test"), *b = field(e, "body"), *o = field(e, "orelse");
  Node *n = new_node(fe, N_IFEXP, e);
  NodeList on_true = {0}, on_false = {0};
  n->cond = fe_expr(fe, t);
  n->lhs = n->cond ? fe_branch_expr(fe, b, &on_true) : NULL;
  n->rhs = n->lhs ? fe_branch_expr(fe, o, &on_false) : NULL;
  Py_DECREF(t); Py_DECREF(b); Py_DECREF(o);
  if (!n->rhs || (!on_true.len && !on_false.len)) return n->rhs ? n : NULL;
  /* a branch with statements to run first (a comprehension): the expression becomes an if statement
   * before the statement, assigning a hidden variable, which is its value */
  char name[32];
  snprintf(name, sizeof name, "$ifexp%d", fe->ntemps++);
  int var = add_var(fe, name);
  fe_add_pre(fe, if_node(fe, e, n->cond, branch_assigning(fe, e, &on_true, var, n->lhs, NULL),
                         branch_assigning(fe, e, &on_false, var, n->rhs, NULL)));
  return fe_var_node(fe, e, var);
}

/* A constant string argument of a builtin that takes them (print), or NULL. */
static Node *fe_string(Fe *fe, PyObject *e) {
  PyObject *v = is_kind(e, "Constant") ? field(e, "value") : NULL;
  Node *n = NULL;
  if (v && PyUnicode_Check(v)) n = string_node(fe, e, v);
  Py_XDECREF(v);
  return n;
}

/* numpy.dtype(s) with Python's warnings ignored: every constant str a
 * builtin is given is asked, and NumPy's DeprecationWarning for the 'a'
 * alias ("a", "a5") would name a dtype the code may not mean ('a' in
 * numpy.broadcast_to('a', n) is a str). */
static PyObject *dtype_quietly(PyObject *numpy, PyObject *s) {
  PyObject *warnings = PyImport_ImportModule("warnings");
  PyObject *quiet = warnings ? PyObject_CallMethod(warnings, "catch_warnings", NULL) : NULL;
  PyObject *entered = quiet ? PyObject_CallMethod(quiet, "__enter__", NULL) : NULL;
  PyObject *ignored = entered ? PyObject_CallMethod(warnings, "simplefilter", "s", "ignore") : NULL;
  PyObject *descr = ignored ? PyObject_CallMethod(numpy, "dtype", "O", s) : NULL;
  PyErr_Clear();
  PyObject *left = entered ? PyObject_CallMethod(quiet, "__exit__", "OOO", Py_None, Py_None, Py_None) : NULL;
  PyErr_Clear();
  Py_XDECREF(left); Py_XDECREF(ignored); Py_XDECREF(entered); Py_XDECREF(quiet); Py_XDECREF(warnings);
  return descr;
}

/* The dtype NumPy's numpy.dtype(s) gives, as ruchey's type (a scalar's, a
 * datetime's with its unit, a str's or bytes' of a width, a record's of
 * fields written out, "i4, (2,3)f8"); NULL for any other, *known saying
 * whether NumPy has that dtype. */
static const Type *named_dtype(PyObject *s, bool *known) {
  PyObject *numpy = PyImport_ImportModule("numpy");
  PyObject *descr = numpy ? dtype_quietly(numpy, s) : NULL;
  PyObject *type = descr ? PyObject_GetAttrString(descr, "type") : NULL;
  int kind = type ? core_dtype_kind(type) : -1;
  const Type *other = descr ? disp_dtype_time(descr) : NULL;
  if (!other && kind < 0) other = descr ? disp_dtype_text(descr) : NULL;
  if (!other && kind < 0 && descr) other = disp_record_global(descr);  /* (fields it refuses: no type) */
  *known = descr != NULL;
  PyErr_Clear();
  Py_XDECREF(numpy); Py_XDECREF(descr); Py_XDECREF(type);
  return other ? other : kind >= 0 ? &core_plain[kind] : NULL;
}

const Type *fe_dtype_named(const char *name, bool *known) {
  PyObject *s = PyUnicode_FromString(name);
  const Type *t = s ? named_dtype(s, known) : NULL;
  PyErr_Clear();
  Py_XDECREF(s);
  return t;
}

/* A string naming a NumPy dtype ("f8", "float32", "bool") as a dtype; NULL
 * (no error) for any other string. The str itself stays in str: a row
 * that reads text values takes it as the str it is (numpy.isin(a, "f8")). */
static Node *dtype_name(Fe *fe, PyObject *e, PyObject *s) {
  bool known;
  const Type *t = named_dtype(s, &known);
  if (!t) return NULL;
  Node *n = new_node(fe, N_DTYPE, e);
  n->ival = (int)t->kind;
  n->data = t == &core_plain[t->kind] ? NULL : t;  /* "M8[ns]", "U5": the type, with its unit or width, in data */
  Node *text = string_node(fe, e, s);
  if (!text) return NULL;
  n->str = text->str;
  return n;
}

static bool has_starred_elts(PyObject *elts);
static Node *starred_tuple(Fe *fe, PyObject *elts, Node *(*item)(Fe *, PyObject *));

/* An argument of a builtin: an expression, a dtype's name, or a literal
 * list, read as a tuple of its elements (numpy.array([[1, 2], [3, 4]]),
 * numpy.concatenate([a, b])) since compiled code has no list type. A str
 * is a dtype's name only as the argument itself: inside a literal list
 * it is a str (numpy.array(["a", "bb"]) holds no dtypes). */
static Node *fe_arg_items(Fe *fe, PyObject *e);

static Node *fe_arg(Fe *fe, PyObject *e) {
  if (is_kind(e, "Constant")) {
    PyObject *v = field(e, "value");
    Node *n = PyUnicode_Check(v) ? dtype_name(fe, e, v) : NULL;
    Py_DECREF(v);
    if (n) return n;
  }
  return fe_arg_items(fe, e);
}

static Node *fe_arg_items(Fe *fe, PyObject *e) {
  if (!is_kind(e, "List") && !is_kind(e, "Tuple")) return fe_expr(fe, e);
  Node *long_one = long_display_array(fe, e);
  if (long_one || fe->diag->kind) return long_one;
  PyObject *elts = field(e, "elts");
  if (has_starred_elts(elts)) {  /* numpy.zeros((n, *a.shape)): the tuples' sum, each item read as here */
    Node *n = starred_tuple(fe, elts, fe_arg_items);
    Py_DECREF(elts);
    return n;
  }
  Node *n = new_node(fe, N_TUPLE, e);
  n->list = new_list(fe, (int)PyList_GET_SIZE(elts));
  for (int i = 0; n && i < n->list.len; i++)
    if (!(n->list.items[i] = fe_arg_items(fe, PyList_GET_ITEM(elts, i)))) n = NULL;
  Py_DECREF(elts);
  return n;
}

/* A string constant that is not a dtype's name. */
static bool names_no_dtype(Fe *fe, PyObject *e) {
  if (!is_kind(e, "Constant")) return false;
  PyObject *v = field(e, "value");
  bool other = PyUnicode_Check(v) && !dtype_name(fe, e, v);
  Py_DECREF(v);
  return other;
}

/* How a call's arguments are read: those of a builtin may be dtype names
 * and literal lists (ARGS_BUILTIN), and of print and numpy.sort constant
 * strings too (ARGS_STRINGS); a keyword given None is left out (the
 * default) unless the builtin reads None as a value (ARGS_NONE); a ruchey
 * function's are expressions, spread where starred once typed where the
 * function is not known before (ARGS_SPREAD: a jitclass's method). */
enum { ARGS_BUILTIN = 1, ARGS_STRINGS = 2, ARGS_NONE = 4, ARGS_LISTS = 8, ARGS_WHOLE = 16, ARGS_SPREAD = 32 };

static unsigned builtin_args(unsigned flags) {
  return ARGS_BUILTIN | (flags & BF_STRINGS ? ARGS_STRINGS : 0) | (flags & BF_NONE ? ARGS_NONE : 0) |
         (flags & BF_LISTS ? ARGS_LISTS : 0);
}

static Node *fe_call_arg(Fe *fe, PyObject *a, unsigned how) {
  if (how & (ARGS_BUILTIN | ARGS_SPREAD) && is_kind(a, "Starred")) {  /* f(*t): its items, once t is typed */
    PyObject *v = field(a, "value");
    Node *n = new_node(fe, N_SPREAD, a);
    if (!(n->lhs = fe_expr(fe, v))) n = NULL;
    Py_DECREF(v);
    return n;
  }
  Node *n = how & ARGS_STRINGS ? fe_string(fe, a) : NULL;
  if (n) return n;
  if (how & ARGS_LISTS && is_kind(a, "List")) return fe_expr(fe, a);
  if (how & ARGS_STRINGS && is_kind(a, "Tuple"))
    return fe_expr(fe, a);  /* a value: ("a", 1) holds a str, not a dtype, in print() and containers' methods */
  return how & ARGS_BUILTIN ? fe_arg(fe, a) : fe_expr(fe, a);
}

static bool is_none_constant(PyObject *e) {
  if (!is_kind(e, "Constant")) return false;
  PyObject *v = field(e, "value");
  Py_DECREF(v);
  return v == Py_None;
}

static PyObject *ast_node(const char *kind, PyObject *kwargs, PyObject *loc);

/* The builtins that read a whole iterable before they answer; given a
 * generator expression, they get the list comprehension of it, whose
 * items are the same, computed the same way, in the same order (set()
 * takes its set comprehension: fe_set_call). */
static const char *const whole_consumers[] = {"sum", "min", "max", "sorted", "list", NULL};

/* The syntax tree of a comprehension of kind ("ListComp", "SetComp") with
 * a generator expression's item and loops; NULL (no error) on failure. */
static PyObject *generator_comprehension(PyObject *g, const char *kind) {
  PyObject *elt = field(g, "elt"), *gens = field(g, "generators");
  PyObject *comp = ast_node(kind, Py_BuildValue("{s:N,s:N}", "elt", elt, "generators", gens), g);
  PyErr_Clear();
  return comp;
}

/* A generator expression that is the only argument of one of them (or of
 * str.join, or of a compiled builtin called with ARGS_WHOLE: all, any) as a
 * list comprehension's syntax tree; NULL for any other. */
static PyObject *consumed_generator(const Node *call, PyObject *a, unsigned how) {
  if (!is_kind(a, "GeneratorExp")) return NULL;
  const char *name = call->bi && call->bi->module && !strcmp(call->bi->module, "builtins") ? call->bi->path : NULL;
  bool whole = (how & ARGS_WHOLE) || (!call->bi && call->str && !strcmp(call->str, "join"));
  for (int i = 0; name && whole_consumers[i] && !whole; i++) whole = !strcmp(name, whole_consumers[i]);
  return whole ? generator_comprehension(a, "ListComp") : NULL;
}

/* The comprehension of a generator expression (kind: "SetComp"), read. */
static Node *fe_generator_as(Fe *fe, PyObject *g, const char *kind) {
  PyObject *comp = generator_comprehension(g, kind);
  Node *n = comp ? fe_expr(fe, comp) : fe_error(fe, g, "generator expressions are not supported in compiled code");
  Py_XDECREF(comp);
  return n;
}

/* Converts the call's positional and keyword arguments into n. A builtin's
 * keyword given None is left out: NumPy's None means the default (axis=None,
 * dtype=None), except where the builtin reads it (ARGS_NONE). */
bool fe_call_args(Fe *fe, PyObject *e, Node *n, unsigned how) {
  PyObject *args = field(e, "args"), *kws = field(e, "keywords");
  bool ok = true, builtin = how & ARGS_BUILTIN;
  n->list = new_list(fe, (int)PyList_GET_SIZE(args));
  int first = 0;  /* len(t) of a long global tuple: its array */
  if (n->bi && !strcmp(n->bi->name, "len") && n->list.len == 1)
    first = (n->list.items[0] = fe_long_tuple(fe, PyList_GET_ITEM(args, 0))) != NULL;
  for (int i = first; ok && i < n->list.len; i++) {
    PyObject *a = PyList_GET_ITEM(args, i), *list = n->list.len == 1 ? consumed_generator(n, a, how) : NULL;
    int mark = fe->pre.len;
    ok = (n->list.items[i] = fe_call_arg(fe, list ? list : a, how)) != NULL;
    if (ok) fe_earlier_first(fe, a, n->list.items, i, &mark);
    Py_XDECREF(list);
  }
  int nk = (int)PyList_GET_SIZE(kws);
  n->kw = new_list(fe, nk);
  n->kw.len = 0;
  n->kw_names = arena_alloc(fe->arena, sizeof(char *) * (size_t)(nk ? nk : 1));
  for (int i = 0; ok && i < nk; i++) {
    PyObject *kw = PyList_GET_ITEM(kws, i);
    PyObject *name = field(kw, "arg"), *value = field(kw, "value");
    if (name == Py_None) {
      ok = fe_error(fe, e, "**kwargs in calls is not supported") != NULL;
    } else if (!builtin || (how & ARGS_NONE) || !is_none_constant(value)) {
      const char *kw_name = n->kw_names[n->kw.len] = arena_strdup(fe->arena, PyUnicode_AsUTF8(name));
      if (builtin && !(how & ARGS_STRINGS) && strcmp(kw_name, "dtype") && names_no_dtype(fe, value))
        ok = fe_error(fe, value, "%s() got an unsupported keyword argument '%s' (strings are only supported as "
                      "dtypes' names)", n->bi ? n->bi->name : n->str, kw_name) != NULL;
      else if (builtin && !strcmp(kw_name, "key") && fe_is_closure(fe, value))
        ok = (n->kw.items[n->kw.len++] = fe_closure_key(fe, value)) != NULL;
      else {
        int mark = fe->pre.len;
        ok = (n->kw.items[n->kw.len] = fe_call_arg(fe, value, how)) != NULL;
        if (ok) fe_earlier_first(fe, value, n->list.items, n->list.len, &mark);
        if (ok) fe_earlier_first(fe, value, n->kw.items, n->kw.len, &mark);
        n->kw.len++;
      }
    }
    Py_DECREF(name); Py_DECREF(value);
  }
  Py_DECREF(args); Py_DECREF(kws);
  return ok;
}

/* NumPy's and Python's leading parameters that calls may also name
 * (np.zeros(shape=n), sum(x, start=1), str(object=x)), per builtin: one
 * row each (NULL: one that cannot be named). */
static const struct {
  const char *builtin;
  const char *names[3];
} named_positionals[] = {
  {"numpy.empty", {"shape"}}, {"numpy.zeros", {"shape"}}, {"numpy.ones", {"shape"}},
  {"numpy.full", {"shape", "fill_value"}}, {"numpy.empty_like", {"prototype"}}, {"numpy.zeros_like", {"a"}},
  {"numpy.ones_like", {"a"}}, {"numpy.full_like", {"a", "fill_value"}},
  {"sum", {NULL, "start"}}, {"str", {"object"}},
  {"numpy.linspace", {"start", "stop", "num"}}, {"numpy.logspace", {"start", "stop", "num"}},
  {"numpy.geomspace", {"start", "stop", "num"}}, {"numpy.identity", {"n"}}, {"numpy.array", {"object"}},
  {"numpy.asarray", {"a"}}, {"numpy.ascontiguousarray", {"a"}}, {"numpy.asfortranarray", {"a"}},
  {"numpy.copy", {"a"}}, {"numpy.ravel", {"a"}}, {"numpy.reshape", {NULL, "shape"}},
  {"numpy.broadcast_to", {"array", "shape"}}, {"numpy.stack", {"arrays"}},
  {"numpy.hstack", {"tup"}}, {"numpy.vstack", {"tup"}}, {"numpy.column_stack", {"tup"}}, {"numpy.dstack", {"tup"}},
  {"numpy.squeeze", {"a"}}, {"numpy.expand_dims", {"a"}}, {"numpy.transpose", {"a"}},
  {"numpy.swapaxes", {"a", "axis1", "axis2"}}, {"numpy.moveaxis", {"a", "source", "destination"}},
  {"numpy.split", {"ary", "indices_or_sections"}}, {"numpy.array_split", {"ary", "indices_or_sections"}},
  {"numpy.flip", {"m"}}, {"numpy.roll", {"a", "shift"}}, {"numpy.tile", {"A", "reps"}},
  {"numpy.repeat", {"a", "repeats"}}, {"numpy.diag", {"v"}}, {"numpy.append", {"arr", "values"}},
  {"numpy.resize", {"a", "new_shape"}}, {"numpy.trim_zeros", {"filt"}},
  {"numpy.clip", {"a", "a_min", "a_max"}},
};

/* A builtin's positional arguments given by name, moved into place in
 * order while each next one is named: np.zeros(shape=(n, k)). */
static void bind_named_positionals(Fe *fe, Node *n) {
  for (size_t r = 0; r < sizeof named_positionals / sizeof named_positionals[0]; r++) {
    if (strcmp(named_positionals[r].builtin, n->bi->name)) continue;
    for (const char *name; n->list.len < 3 && (name = named_positionals[r].names[n->list.len]);) {
      int k = 0;
      while (k < n->kw.len && strcmp(n->kw_names[k], name)) k++;
      if (k == n->kw.len) return;
      NodeList list = new_list(fe, n->list.len + 1);
      for (int i = 0; i < n->list.len; i++) list.items[i] = n->list.items[i];
      list.items[n->list.len] = n->kw.items[k];
      n->list = list;
      for (int i = k + 1; i < n->kw.len; i++) n->kw.items[i - 1] = n->kw.items[i], n->kw_names[i - 1] = n->kw_names[i];
      n->kw.len--;
    }
    return;
  }
}

/* An @intrinsic's arguments given by name (unsafe_cast(src=p)), moved into
 * place by its typing function's parameters after the typing context, as
 * Numba binds them; a name it lacks, or one of its parameters given no
 * argument before the last given, is an error at the call. */
static bool bind_intrinsic_keywords(Fe *fe, PyObject *e, Node *n, PyObject *intrinsic) {
  if (!n->kw.len) return true;
  PyObject *typer = PyObject_GetAttrString(intrinsic, "_typer");
  PyCodeObject *code = typer && PyFunction_Check(typer) ? (PyCodeObject *)PyFunction_GetCode(typer) : NULL;
  PyObject *names = code ? PyObject_GetAttrString((PyObject *)code, "co_varnames") : NULL;
  int nparams = code && names ? code->co_argcount - 1 : 0, given = n->list.len;
  Node *slots[64] = {0};
  bool ok = names && nparams <= 64 && given <= nparams;
  if (!ok) fe_error(fe, e, "the intrinsic takes %d arguments, given %d and keywords", nparams, given);
  for (int i = 0; ok && i < given; i++) slots[i] = n->list.items[i];
  int count = given;
  for (int k = 0; ok && k < n->kw.len; k++) {
    int j = 0;
    while (j < nparams && strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, j + 1)), n->kw_names[k])) j++;
    if (j == nparams || slots[j]) {
      ok = fe_error(fe, e, j == nparams ? "the intrinsic has no parameter '%s'" : "the intrinsic got two values for '%s'",
                    n->kw_names[k]) != NULL;
    } else {
      slots[j] = n->kw.items[k];
      if (j >= count) count = j + 1;
    }
  }
  for (int j = 0; ok && j < count; j++)
    if (!slots[j]) ok = fe_error(fe, e, "the intrinsic's argument '%s' is missing",
                                 PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, j + 1))) != NULL;
  if (ok) {
    n->list = new_list(fe, count);
    for (int j = 0; j < count; j++) n->list.items[j] = slots[j];
    n->kw.len = 0;
  }
  Py_XDECREF(names);
  Py_XDECREF(typer);
  PyErr_Clear();
  return ok;
}

/* numpy.arange's start, stop and step given by name, made positional as
 * NumPy binds them: a stop named without a start starts at 0
 * (arange(stop=n)), and a step named after a lone first argument takes it
 * as the stop (arange(n, step=2)). Anything else is left to the row. */
static void bind_arange(Fe *fe, Node *n, PyObject *e) {
  static const char *const names[3] = {"start", "stop", "step"};
  Node *part[3] = {NULL, NULL, NULL};
  if (n->list.len > 3) return;
  for (int i = 0; i < n->list.len; i++) part[i] = n->list.items[i];
  int kept = 0;
  for (int k = 0; k < n->kw.len; k++) {
    int i = 0;
    while (i < 3 && strcmp(n->kw_names[k], names[i])) i++;
    if (i == 3 || part[i]) {  /* dtype=, or a part given twice: the row's to judge */
      n->kw.items[kept] = n->kw.items[k], n->kw_names[kept++] = n->kw_names[k];
      continue;
    }
    part[i] = n->kw.items[k];
  }
  if (!part[1] && !n->list.len) return;  /* arange(start=n): NumPy's TypeError, the row's here */
  if (!part[1] && n->list.len == 1 && part[2]) part[1] = part[0], part[0] = NULL;
  if (!part[0] && part[1]) {
    part[0] = new_node(fe, N_INT, e);
    part[0]->ival = 0;
  }
  int len = part[2] ? 3 : part[1] ? 2 : part[0] ? 1 : 0;
  for (int i = 0; i < len; i++)
    if (!part[i]) return;  /* a gap: refused by the row as given */
  n->kw.len = kept;
  n->list = new_list(fe, len);
  for (int i = 0; i < len; i++) n->list.items[i] = part[i];
}

/* A callee's default as an argument node: None, a number, a bool, a str,
 * a tuple of these, a dtype (pynapple's dtype=np.int64, which Numba
 * takes as its class), a NumPy array, frozen as a global one is
 * (strax's waveform_buffer_top=np.ones(1)), or a compiled function, as a
 * function value (pointpats' dmetric=_euclidean_distance); NULL for
 * anything else. */
static Node *default_node(Fe *fe, PyObject *d, PyObject *e) {
  if (d == Py_None) return new_node(fe, N_NONE, e);
  Node *n = fe_frozen_value(fe, d, e);
  if (n || fe->diag->kind || (n = dtype_global(fe, d, e)) || fe->diag->kind) return n;
  if (PyObject_TypeCheck(d, &DispatcherType)) return fe_function_value(fe, d, e);
  return const_array(fe, d, e);
}

/* The parameter named name takes the callee's default d at the call:
 * false (a TypingError) where d is no value compiled code holds. */
static bool bind_default(Fe *fe, PyObject *e, Node **slot, PyObject *d, PyObject *name) {
  if (PyCapsule_IsValid(d, FE_LATE_DEFAULT)) {  /* an inner function's default evaluated where its def ran */
    int var = find_var(fe, PyUnicode_AsUTF8(PyCapsule_GetPointer(d, FE_LATE_DEFAULT)));
    if (var >= 0) return (*slot = fe_var_node(fe, e, var)) != NULL;
    return fe_error(fe, e, "the default of parameter '%s' is a value of the function the callee is defined in: "
                    "pass '%s' here", PyUnicode_AsUTF8(name), PyUnicode_AsUTF8(name)) != NULL;
  }
  if ((*slot = default_node(fe, d, e))) (*slot)->defaulted = true;
  if (*slot || fe->diag->kind) return *slot != NULL;
  return fe_error(fe, e, "the default of parameter '%s' must be a number, a bool, a str, a dtype, an array, a "
                  "compiled function, a tuple of these or None", PyUnicode_AsUTF8(name)) != NULL;
}

/* A call to another ruchey function: keyword arguments and defaults are
 * bound here, like Python binds them, so the call is positional. */
bool fe_bind_jit_call(Fe *fe, PyObject *e, Node *n, PyObject *disp) {
  PyObject *func = PyObject_GetAttrString(disp, "py_func");
  PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(func);
  int np = code->co_argcount, nkw = code->co_kwonlyargcount;  /* keyword-only: after the others */
  bool varargs = code->co_flags & CO_VARARGS;
  PyObject *defaults = PyFunction_GetDefaults(func), *kwdefaults = PyFunction_GetKwDefaults(func);
  int nd = defaults ? (int)PyTuple_GET_SIZE(defaults) : 0;
  PyObject *names = PyObject_GetAttrString((PyObject *)code, "co_varnames");  /* 3.10 has no PyCode_GetVarnames */
  NodeList bound = new_list(fe, np + varargs + nkw);
  bool ok = n->list.len <= np || varargs ||
            fe_error(fe, e, "too many arguments in call to %s()", PyUnicode_AsUTF8(code->co_name));
  int given = n->list.len < np ? n->list.len : np;
  for (int i = 0; ok && i < given; i++) bound.items[i] = n->list.items[i];
  if (varargs) {  /* the extra arguments, as the tuple *args is: the last parameter (fe_params) */
    Node *extra = bound.items[np + nkw] = tuple_node(fe, e, n->list.len - given);
    for (int i = 0; i < extra->list.len; i++) extra->list.items[i] = n->list.items[given + i];
  }
  for (int k = 0; ok && k < n->kw.len; k++) {
    int slot = -1;
    for (int i = code->co_posonlyargcount; i < np + nkw; i++) {  /* positional-only: no keyword names them */
      PyObject *name = PyTuple_GET_ITEM(names, i);
      if (!strcmp(PyUnicode_AsUTF8(name), n->kw_names[k])) slot = i;
    }
    if (slot < 0 || bound.items[slot])
      ok = fe_error(fe, e, "%s() got an unexpected or repeated keyword argument '%s'",
                    PyUnicode_AsUTF8(code->co_name), n->kw_names[k]) != NULL;
    else
      bound.items[slot] = n->kw.items[k];
  }
  for (int i = np; ok && i < np + nkw; i++) {  /* a keyword-only parameter not given: its default */
    if (bound.items[i]) continue;
    PyObject *d = kwdefaults ? PyDict_GetItemWithError(kwdefaults, PyTuple_GET_ITEM(names, i)) : NULL;
    if (!d)
      ok = fe_error(fe, e, "%s() missing keyword-only argument '%s'", PyUnicode_AsUTF8(code->co_name),
                    PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i))) != NULL;
    else
      ok = bind_default(fe, e, &bound.items[i], d, PyTuple_GET_ITEM(names, i));
  }
  for (int i = 0; ok && i < np; i++) {
    if (bound.items[i]) continue;
    int d = i - (np - nd);
    if (d < 0)
      ok = fe_error(fe, e, "%s() missing argument '%s'", PyUnicode_AsUTF8(code->co_name),
                    PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i))) != NULL;
    else
      ok = bind_default(fe, e, &bound.items[i], PyTuple_GET_ITEM(defaults, d), PyTuple_GET_ITEM(names, i));
  }
  Py_DECREF(names);
  Py_DECREF(func);
  n->list = bound;
  n->kw.len = 0;
  n->callee = disp;
  return ok;
}

/* fe_bind_jit_call, its refusal of the arguments (too many, one missing, an
 * unknown keyword) made a node whose typing raises it, as Python raises it
 * only where the call runs and Numba only where it is typed: a branch pruned
 * on isinstance may call f(*t) in one and f(x) in the other. */
static bool bind_where_typed(Fe *fe, PyObject *e, Node **n, PyObject *disp) {
  Diag *outer = fe->diag, here = {0};
  fe->diag = &here;
  bool ok = fe_bind_jit_call(fe, e, *n, disp);
  fe->diag = outer;
  if (ok) return true;
  if (here.kind != DIAG_TYPING) {
    if (!outer->kind) *outer = here;
    return false;
  }
  *n = error_where_typed(fe, e, here.msg);
  return true;
}

/* A call to a ruchey function with *t among its arguments: how many
 * there are is known once t is typed, so infer binds them (ty_jit_call):
 * they come as one tuple, packed, (a,) + t + (b,), followed by the
 * callee's defaults; op is the callee's plain parameters + 1, ival
 * whether it takes *args. e is the call's source (Py_None where infer
 * binds a call through a function value). */
bool fe_bind_spread_call(Fe *fe, PyObject *e, Node *n, PyObject *disp, Node *packed) {
  PyObject *func = PyObject_GetAttrString(disp, "py_func");
  PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(func);
  PyObject *defaults = PyFunction_GetDefaults(func);
  int nd = defaults ? (int)PyTuple_GET_SIZE(defaults) : 0;
  bool ok = packed && (!code->co_kwonlyargcount ||
                       fe_error(fe, e, "a call with *args to a function with keyword-only parameters is not "
                                "supported") != NULL);
  n->list = new_list(fe, 1 + nd);
  n->list.items[0] = packed;
  for (int d = 0; ok && d < nd; d++)
    if (!(n->list.items[1 + d] = default_node(fe, PyTuple_GET_ITEM(defaults, d), e)))
      ok = fe->diag->kind ? false
                          : fe_error(fe, e, "a call with *args needs the function's defaults to be numbers, bools, "
                                     "strs, dtypes, tuples of these or None") != NULL;
  n->op = code->co_argcount + 1;
  n->ival = (code->co_flags & CO_VARARGS) != 0;
  n->kw.len = 0;
  n->callee = disp;
  Py_DECREF(func);
  return ok;
}

/* The positional arguments of a call with *t among them, as one tuple:
 * (a,) + t + (b,). */
Node *fe_spread_args(Fe *fe, PyObject *e) {
  PyObject *args = field(e, "args"), *kws = field(e, "keywords");
  bool ok = !PyList_GET_SIZE(kws) || fe_error(fe, e, "keyword arguments in a call with *args are not supported");
  Node *packed = NULL;
  for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(args); i++) {
    PyObject *a = PyList_GET_ITEM(args, i), *v = is_kind(a, "Starred") ? field(a, "value") : NULL;
    Node *part = v ? fe_expr(fe, v) : tuple_node(fe, a, 1);
    if (part && !v) ok = (part->list.items[0] = fe_expr(fe, a)) != NULL;
    Py_XDECREF(v);
    ok = ok && part;
    if (ok) packed = packed ? binop_node(fe, a, OP_ADD, packed, part) : part;
  }
  Py_DECREF(args); Py_DECREF(kws);
  return ok ? packed : NULL;
}

/* Whether a call has *t among its arguments. */
bool fe_has_starred(PyObject *e) {
  PyObject *args = field(e, "args");
  bool starred = false;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(args); i++) starred |= is_kind(PyList_GET_ITEM(args, i), "Starred");
  Py_DECREF(args);
  return starred;
}

/* An attribute's name as Python compiles it in a class's method: a private
 * one (self.__x, not __x__) becomes _Class__x, the class being the one the
 * function's __qualname__ names it in (a jitclass's method reads its
 * private fields and methods so, as Numba, which reads the bytecode). */
static const char *attr_name(Fe *fe, PyObject *attr) {
  const char *name = PyUnicode_AsUTF8(attr);
  size_t len = strlen(name);
  if (len < 3 || strncmp(name, "__", 2) || !strcmp(name + len - 2, "__") || strchr(name, '.')) return name;
  PyObject *qualname = PyObject_GetAttrString(fe->pyfunc, "__qualname__");
  PyObject *dot = qualname ? PyUnicode_FromString(".") : NULL;
  PyObject *parts = dot ? PyUnicode_Split(qualname, dot, -1) : NULL;
  /* the nearest class around it: a part of the qualname followed by one that is not <locals> (a
   * function's part is followed by <locals>), as Python mangles in functions nested in a method too */
  const char *owner = NULL;
  for (Py_ssize_t i = parts ? PyList_GET_SIZE(parts) - 2 : -1; i >= 0 && !owner; i--) {
    const char *part = PyUnicode_AsUTF8(PyList_GET_ITEM(parts, i));
    if (strcmp(part, "<locals>") && strcmp(PyUnicode_AsUTF8(PyList_GET_ITEM(parts, i + 1)), "<locals>")) owner = part;
  }
  const char *mangled = name;
  if (owner) {
    while (*owner == '_') owner++;
    if (*owner) {
      size_t size = strlen(owner) + len + 2;
      char *text = arena_alloc(fe->arena, size);
      snprintf(text, size, "_%s%s", owner, name);
      mangled = text;
    }
  }
  Py_XDECREF(parts); Py_XDECREF(dot); Py_XDECREF(qualname);
  PyErr_Clear();
  return mangled;
}

static void spreads_once(Fe *fe, PyObject *e, Node *call);

/* value.name(args): the receiver is the first argument; infer finds the
 * method from its type (a method of that name calling BLAS: SciPy's
 * routines found now, as for a function). */
static Node *fe_method_call(Fe *fe, PyObject *e, PyObject *func) {
  PyObject *attr = field(func, "attr"), *value = field(func, "value");
  if (is_constant_str_node(value) && !strcmp(attr_name(fe, attr), "format")) {
    Node *f = fe_str_format(fe, e, value);
    Py_DECREF(attr); Py_DECREF(value);
    return f;
  }
  Node *n = new_node(fe, N_CALL, e);
  n->str = arena_strdup(fe->arena, attr_name(fe, attr));
  unsigned flags;
  /* a method no builtin has is a compiled function's (c.m("b", [1]): a str and a list, not a dtype and a tuple) */
  unsigned how = core_method_flags(n->str, &flags) ? builtin_args(flags) : ARGS_SPREAD;
  if (flags & BF_BLAS) core_load_blas();
  Node *receiver = fe_expr(fe, value);
  int mark = fe->pre.len;
  if (!receiver || !fe_call_args(fe, e, n, how)) {
    n = NULL;
  } else {
    spreads_once(fe, e, n);  /* x.reshape(*p.shape[:-1], 1), before the receiver is moved ahead of it */
    fe_earlier_first(fe, e, &receiver, 1, &mark);
    NodeList args = new_list(fe, n->list.len + 1);
    args.items[0] = receiver;
    for (int i = 0; i < n->list.len; i++) args.items[i + 1] = n->list.items[i];
    n->list = args;
  }
  Py_DECREF(attr); Py_DECREF(value);
  return n;
}

/* What a function that cannot be called is called in messages: its module
 * and qualified name (numpy.fft.fft), else its repr. */
static PyObject *callee_title(PyObject *obj) {
  PyObject *module = PyObject_GetAttrString(obj, "__module__");
  PyObject *qualname = module && PyUnicode_Check(module) ? PyObject_GetAttrString(obj, "__qualname__") : NULL;
  PyObject *title = qualname && PyUnicode_Check(qualname) ? PyUnicode_FromFormat("%U.%U", module, qualname) : NULL;
  Py_XDECREF(module); Py_XDECREF(qualname);
  PyErr_Clear();
  return title ? title : PyObject_Repr(obj);
}

/* What a module or ruchey namespace is called in messages: a module by its
 * name, a namespace (cuda.fp16) as the source writes it. */
static PyObject *namespace_title(PyObject *base, PyObject *written) {
  if (PyModule_Check(base)) {
    PyObject *name = PyModule_GetNameObject(base);
    PyObject *title = name ? PyUnicode_FromFormat("module '%U'", name) : NULL;
    Py_XDECREF(name);
    return title;
  }
  PyObject *ast = PyImport_ImportModule("ast");
  PyObject *text = ast ? PyObject_CallMethod(ast, "unparse", "O", written) : NULL;
  PyObject *title = text ? PyUnicode_FromFormat("'%U'", text) : NULL;
  Py_XDECREF(ast); Py_XDECREF(text);
  return title;
}

/* structref.new(t): obj's __ruchey_new_from__ takes t, a value known at
 * compile time (a closure's), and gives the allocator of t's objects, a
 * new reference; NULL for any other callee, and NULL with the error
 * reported where t is not one. */
static PyObject *allocator_of_type(Fe *fe, PyObject *e, PyObject *obj) {
  if (PyType_Check(obj) || PyModule_Check(obj) || !PyObject_HasAttrString(obj, "__ruchey_new_from__")) {
    PyErr_Clear();
    return NULL;
  }
  PyObject *args = field(e, "args");
  PyObject *t = PyList_GET_SIZE(args) == 1 ? static_object(fe, PyList_GET_ITEM(args, 0)) : NULL;
  Py_DECREF(args);
  if (!t) return fe_error(fe, e, "structref.new takes one StructRef type known at compile time");
  PyObject *method = PyUnicode_FromString("__ruchey_new_from__");
  PyObject *allocator = method ? PyObject_CallMethodOneArg(obj, method, t) : NULL;
  Py_XDECREF(method);
  Py_DECREF(t);
  if (!allocator) fe_python_error(fe, e, NULL, "structref.new failed");
  return allocator;
}

/* Why func (a call's callee, or an attribute read) names nothing the
 * compiler knows, as Python would say it at run time: a name never defined, a module or ruchey
 * namespace without that attribute (with the nearest name it has), or, for
 * anything else, what calls are supported. */
static void fe_unknown_name(Fe *fe, PyObject *e, PyObject *func) {
  PyObject *value = is_kind(func, "Attribute") ? field(func, "value") : NULL;
  PyObject *base = value ? static_object(fe, value) : NULL;
  PyObject *attr = base ? field(func, "attr") : NULL;
  PyObject *title = attr ? namespace_title(base, value) : NULL;
  PyObject *names = title ? PyObject_Dir(base) : NULL;
  PyObject *difflib = names ? PyImport_ImportModule("difflib") : NULL;
  PyObject *near = difflib ? PyObject_CallMethod(difflib, "get_close_matches", "OOi", attr, names, 1) : NULL;
  if (is_kind(func, "Name")) {
    PyObject *id = field(func, "id");
    fe_error(fe, e, "name '%s' is not defined", PyUnicode_AsUTF8(id));
    Py_DECREF(id);
  } else if (title && near && PyList_GET_SIZE(near) &&
             PyObject_RichCompareBool(PyList_GET_ITEM(near, 0), attr, Py_NE) == 1) {  /* (not a base's, hidden) */
    fe_error(fe, e, "%s has no attribute '%s' (did you mean '%s'?)", PyUnicode_AsUTF8(title),
             PyUnicode_AsUTF8(attr), PyUnicode_AsUTF8(PyList_GET_ITEM(near, 0)));
  } else if (title) {
    fe_error(fe, e, "%s has no attribute '%s'", PyUnicode_AsUTF8(title), PyUnicode_AsUTF8(attr));
  } else {
    fe_error(fe, e, "only calls to ruchey functions and known functions (numpy, math, builtins) are supported");
  }
  Py_XDECREF(value); Py_XDECREF(base); Py_XDECREF(attr); Py_XDECREF(title);
  Py_XDECREF(names); Py_XDECREF(difflib); Py_XDECREF(near);
  PyErr_Clear();
}

/* x's syntax tree where func is type(x), or a variable assigned type(x)
 * (fe_assign_type), a new reference; NULL, no error, for anything else. */
static PyObject *type_of_what(Fe *fe, PyObject *func) {
  if (is_kind(func, "Name")) {
    PyObject *id = field(func, "id");
    PyObject *of = fe->types_of ? PyDict_GetItemWithError(fe->types_of, id) : NULL;
    Py_DECREF(id);
    return Py_XNewRef(of);
  }
  if (!is_kind(func, "Call")) return NULL;
  PyObject *inner = field(func, "func"), *args = field(func, "args"), *kw = field(func, "keywords");
  PyObject *obj = static_object(fe, inner);
  PyErr_Clear();
  PyObject *of = obj == (PyObject *)&PyType_Type && PyList_GET_SIZE(args) == 1 && !PyList_GET_SIZE(kw)
                     ? Py_NewRef(PyList_GET_ITEM(args, 0)) : NULL;
  Py_XDECREF(obj); Py_DECREF(inner); Py_DECREF(args); Py_DECREF(kw);
  return of;
}

/* T = type(x), x a variable or an element (a[0], p.x): T names x's type,
 * which is static (a variable has one type), so a call T(v) is
 * type(x)(v) and the assignment itself does nothing (an element is read
 * again where T is used); NULL, no error, for any other assignment. */
static Node *fe_assign_type(Fe *fe, PyObject *s, PyObject *target, PyObject *value) {
  PyObject *of = is_kind(target, "Name") && is_kind(value, "Call") ? type_of_what(fe, value) : NULL;
  Node *n = NULL;
  bool named = of && (is_kind(of, "Name") || is_kind(of, "Subscript") || is_kind(of, "Attribute"));
  if (named && (fe->types_of || (fe->types_of = PyDict_New()))) {
    PyObject *id = field(target, "id");
    if (PyDict_SetItem(fe->types_of, id, of) == 0) n = new_node(fe, N_PASS, s);
    Py_DECREF(id);
  }
  Py_XDECREF(of);
  return n;
}

/* type(x)(v), or T(v) after T = type(x): a call of a value's type, which
 * Numba types as a conversion of v to x's type (the row's list: v, then
 * x), or, of a named tuple x, as a new one of its class (any number of
 * items); NULL, no error, where func is neither. */
static Node *fe_call_of_type(Fe *fe, PyObject *e, PyObject *func, bool *failed) {
  PyObject *of = type_of_what(fe, func);
  if (!of) return NULL;
  PyObject *args = field(e, "args"), *kw = field(e, "keywords");
  Node *n = NULL;
  *failed = true;
  if (PyList_GET_SIZE(kw)) {
    fe_error(fe, e, "type(x)(...) takes no keyword arguments in compiled code");
  } else if (PyList_GET_SIZE(args) != 1 || fe_has_starred(e)) {  /* a named tuple's class: its items, then x */
    n = new_node(fe, N_CALL, e);
    n->bi = core_builtin_named("type(x)(...)");
    Node *x = fe_call_args(fe, e, n, ARGS_BUILTIN) ? fe_expr(fe, of) : NULL;
    NodeList list = new_list(fe, n->list.len + 1);
    for (int i = 0; i < n->list.len; i++) list.items[i] = n->list.items[i];
    list.items[n->list.len] = x;
    n->list = list;
    if (!x) n = NULL;
  } else {
    n = new_node(fe, N_CALL, e);
    n->bi = core_builtin_named("type(x)(v)");
    n->list = new_list(fe, 2);
    if (!(n->list.items[0] = fe_expr(fe, PyList_GET_ITEM(args, 0))) || !(n->list.items[1] = fe_expr(fe, of))) n = NULL;
  }
  Py_DECREF(args); Py_DECREF(kw); Py_DECREF(of);
  return n;
}

/* Builtins that are compiled functions of ruchey._iterators, walking their
 * argument as a for loop does, so that they take any iterable: iter(x), a
 * generator (a generator's own values passed on as they are yielded);
 * all(x) and any(x), which stop at the first item that decides them, as
 * Python's (*whole: a generator expression given them is read whole first,
 * as sum() reads it). Takes obj's reference. */
static PyObject *iterator_of_builtin(Fe *fe, PyObject *obj, bool *whole) {
  static const char *const helpers[][2] = {{"iter", "iterate"}, {"all", "all_items"}, {"any", "any_item"}};
  const char *helper = NULL;
  for (size_t i = 0; obj && !helper && i < sizeof helpers / sizeof *helpers; i++)
    if (obj == PyDict_GetItemString(fe->builtins, helpers[i][0])) helper = helpers[i][1], *whole = i > 0;
  if (!helper) return obj;
  PyObject *module = PyImport_ImportModule("ruchey._iterators");
  PyObject *compiled = module ? PyObject_GetAttrString(module, helper) : NULL;
  Py_XDECREF(module);
  if (!compiled) {
    PyErr_Clear();
    return obj;
  }
  Py_DECREF(obj);
  return compiled;
}

/* numpy.ndindex(...) or numpy.ndenumerate(a) as a value, not a for loop's
 * iterable (it = numpy.ndindex(shape); next(it); for i in it): a compiled
 * generator walking it as a for loop does (ruchey._iterators), as Numba's
 * iterator objects are walked. */
enum { NP_ITER_NONE, NP_ITER_NDINDEX, NP_ITER_NDENUMERATE, NP_ITER_NDITER, NP_ITER_PNDINDEX };
static int numpy_index_iterator(Fe *fe, PyObject *it);
static Node *ndindex_operand(Fe *fe, PyObject *it, int which);

static Node *index_iterator_call(Fe *fe, PyObject *e, int which) {
  PyObject *module = PyImport_ImportModule("ruchey._iterators");
  PyObject *gen = module ? PyObject_GetAttrString(module, which == NP_ITER_NDINDEX ? "ndindex" : "ndenumerate") : NULL;
  Py_XDECREF(module);
  if (!gen) {
    PyErr_Clear();
    return fe_error(fe, e, "numpy's index iterators are not available as values here");
  }
  Node *operand = ndindex_operand(fe, e, which), *n = NULL;
  if (operand) {
    n = new_node(fe, N_CALL, e);
    n->bi = core_builtin_named("a ruchey function");
    n->list = new_list(fe, 1);
    n->list.items[0] = operand;
    if (!fe_bind_jit_call(fe, e, n, gen)) n = NULL;
  }
  Py_DECREF(gen);  /* (the module keeps it) */
  return n;
}

/* ruchey._objmode._print, which writes the values print() hands the
 * interpreter (builtins/print.c): looked up once, and kept, as the module
 * keeps it, for the code that calls it. */
static void *interpreter_print(void) {
  static PyObject *print_values;
  if (!print_values) {
    PyObject *module = PyImport_ImportModule("ruchey._objmode");
    print_values = module ? PyObject_GetAttrString(module, "_print") : NULL;
    Py_XDECREF(module);
    PyErr_Clear();
  }
  return print_values;
}

/* ruchey._objmode._str (repr: _repr), which makes str(x) and repr(x)
 * of values compiled code does not write itself (builtins/print.c's
 * lo_text_by_interpreter): looked up once, and kept. */
void *fe_interpreter_text(bool repr) {
  static PyObject *functions[2];
  if (!functions[repr]) {
    PyObject *module = PyImport_ImportModule("ruchey._objmode");
    functions[repr] = module ? PyObject_GetAttrString(module, repr ? "_repr" : "_str") : NULL;
    Py_XDECREF(module);
    PyErr_Clear();
  }
  return functions[repr];
}

/* One class of isinstance's, added to c: a kind, or a type exactly, as
 * Numba matches them; false (with the error) for a class it refuses. */
static bool isinstance_class(Fe *fe, PyObject *e, PyObject *cls, IsClasses *c) {
  static const struct { const char *name; int kind; } kinds[] = {
    {"str", TY_STR}, {"tuple", TY_TUPLE}, {"list", TY_LIST}, {"dict", TY_DICT}, {"set", TY_SET}, {"range", TY_RANGE},
    {"bytes", TY_BYTES},
  };
  int dtype = core_dtype_kind(cls), typed = typed_class_kind(cls);
  const Type *instance = dtype < 0 && typed < 0 ? jitclass_class_instances(cls) : NULL;
  PyErr_Clear();
  if (cls == (PyObject *)Py_TYPE(Py_None)) typed = TY_NONE;
  if (typed < 0 && dtype < 0) typed = disp_time_class_kind(cls);  /* numpy.datetime64 holds every unit's */
  for (size_t i = 0; typed < 0 && PyType_Check(cls) && i < sizeof kinds / sizeof *kinds; i++) {
    PyObject *b = PyDict_GetItemString(fe->builtins, kinds[i].name);
    if (b == cls) typed = kinds[i].kind;
  }
  if (typed >= 0) {
    c->kinds |= (uint64_t)1 << typed;
    if (typed == TY_LIST) c->lists |= cls == PyDict_GetItemString(fe->builtins, "list") ? 1 : 2;
    if (typed == TY_DICT && cls == PyDict_GetItemString(fe->builtins, "dict"))  /* a literal dict is a dict too */
      c->kinds |= (uint64_t)1 << TY_LITDICT;
    return true;
  }
  if ((dtype >= 0 || instance) && c->n < (int)(sizeof c->types / sizeof *c->types)) {
    c->types[c->n++] = instance ? instance : &core_plain[dtype];
    return true;
  }
  PyObject *r = PyObject_Repr(cls);
  fe_error(fe, e, "isinstance() of %s is not supported in compiled code (classes: int, float, complex, bool, "
           "str, bytes, tuple, list, dict, set, range, NumPy's scalar types, datetime64, timedelta64, typed.List, "
           "typed.Dict, jitclasses)",
           r ? PyUnicode_AsUTF8(r) : "this class");
  Py_XDECREF(r);
  PyErr_Clear();
  return false;
}

/* isinstance(x, classes): the classes (a class or a tuple of them, named
 * by globals) read now; infer folds the call to True or False from x's
 * type, and prunes the branch it decides, as Numba does. */
static Node *fe_isinstance(Fe *fe, PyObject *e) {
  PyObject *args = field(e, "args");
  Node *n = NULL;
  if (PyList_GET_SIZE(args) != 2) {
    n = fe_error(fe, e, "isinstance() takes 2 arguments (a value and a class or tuple of classes)");
  } else {
    PyObject *spec = PyList_GET_ITEM(args, 1);
    IsClasses *c = arena_alloc(fe->arena, sizeof *c);
    *c = (IsClasses){0};
    PyObject *elts = is_kind(spec, "Tuple") ? field(spec, "elts") : NULL;
    bool ok = true;
    for (Py_ssize_t i = 0; ok && i < (elts ? PyList_GET_SIZE(elts) : 1); i++) {
      PyObject *item = elts ? PyList_GET_ITEM(elts, i) : spec;
      PyObject *cls = static_object(fe, item);
      ok = cls ? isinstance_class(fe, item, cls, c)
               : (fe_error(fe, item, "isinstance()'s classes must be named by globals (int, float, a jitclass...)"), false);
      Py_XDECREF(cls);
    }
    Py_XDECREF(elts);
    if (ok && (n = fe_call_of(fe, e, "isinstance", fe_expr(fe, PyList_GET_ITEM(args, 0))))) n->data = c;
  }
  Py_DECREF(args);
  return n;
}

/* obj registered with numba.extending.lower_builtin, its lowering one
 * atomic update of an array element (ruchey/_lowerings.py reads it): the
 * row of ruchey's own update, *kinds the element kinds it takes; NULL for
 * any other object. */
static const Builtin *lowered_atomic(PyObject *obj, int *kinds) {
  if (!PyObject_HasAttrString(obj, "__ruchey_lowering__")) return NULL;
  PyObject *module = PyImport_ImportModule("ruchey._lowerings");
  PyObject *r = module ? PyObject_CallMethod(module, "atomic_update", "O", obj) : NULL;
  const Builtin *bi = NULL;
  if (r && PyTuple_Check(r)) {
    char name[64];
    snprintf(name, sizeof name, "a lowering's atomic %s", PyUnicode_AsUTF8(PyTuple_GET_ITEM(r, 0)));
    bi = core_builtin_named(name);
    *kinds = (int)PyLong_AsLong(PyTuple_GET_ITEM(r, 1));
  }
  PyErr_Clear();  /* (its lowering unread: the call's refusal says why) */
  Py_XDECREF(r); Py_XDECREF(module);
  return bi;
}

/* A call compiled code cannot make (func names nothing it knows, or obj,
 * which it cannot call), or a module's attribute that does not exist
 * (func is e): a node whose typing raises the error. Python raises it
 * only if the code runs and Numba only if it is typed, so a branch pruned
 * on a constant (if False:, isinstance) may hold one. */
static Node *unsupported_call(Fe *fe, PyObject *e, PyObject *func, PyObject *obj) {
  Diag *outer = fe->diag, here = {0};
  fe->diag = &here;
  PyObject *desc = obj ? callee_title(obj) : NULL, *why = NULL;
  if (!obj)
    fe_unknown_name(fe, e, func);
  else if (core_is_enum_class(obj))  /* Color(1): Numba does not call the class either */
    fe_error(fe, e, "enum class '%s' cannot be called in compiled code, as in Numba: name its members (%s.X, %s['X'])",
             core_enum_name(obj), core_enum_name(obj), core_enum_name(obj));
  else if ((why = PyObject_GetAttrString(obj, "__ruchey_unsupported__")) && PyUnicode_Check(why))
    fe_error(fe, e, "cannot call %s from compiled code: %s", desc ? PyUnicode_AsUTF8(desc) : "this object",
             PyUnicode_AsUTF8(why));  /* one registered through a Numba API ruchey lacks (numba_shim) */
  else
    fe_error(fe, e, "cannot call %s from compiled code: it is not a ruchey function or a supported "
             "numpy, math or builtin function", desc ? PyUnicode_AsUTF8(desc) : "this object");
  Py_XDECREF(desc); Py_XDECREF(why);
  PyErr_Clear();
  fe->diag = outer;
  if (here.kind != DIAG_TYPING) {  /* not an error of the program's: reported now */
    if (!outer->kind) *outer = here;
    return NULL;
  }
  return error_where_typed(fe, e, here.msg);
}

/* hasattr(module, "name") of a module global: answered now, from the
 * module (math's functions differ between Pythons); NULL for any other
 * hasattr, which its typer answers from the type. */
static Node *module_hasattr(Fe *fe, PyObject *e) {
  PyObject *args = field(e, "args"), *kws = field(e, "keywords");
  Node *n = NULL;
  if (PyList_GET_SIZE(args) == 2 && !PyList_GET_SIZE(kws) && is_kind(PyList_GET_ITEM(args, 1), "Constant")) {
    PyObject *module = static_object(fe, PyList_GET_ITEM(args, 0)), *name = field(PyList_GET_ITEM(args, 1), "value");
    if (module && PyModule_Check(module) && PyUnicode_Check(name)) {
      n = new_node(fe, N_BOOL, e);
      n->ival = PyObject_HasAttr(module, name);
    }
    Py_XDECREF(module); Py_XDECREF(name);
  }
  PyErr_Clear();
  Py_DECREF(args); Py_DECREF(kws);
  return n;
}

/* getattr(module, "name"[, default]) of a module global: module.name where
 * the module has it (numpy.pi, as Numba reads a module's constants), else
 * the default; NULL for any other getattr, which its typer resolves by
 * the type. */
static Node *module_getattr(Fe *fe, PyObject *e) {
  PyObject *args = field(e, "args"), *kws = field(e, "keywords");
  Py_ssize_t na = PyList_GET_SIZE(args);
  Node *n = NULL;
  if ((na == 2 || na == 3) && !PyList_GET_SIZE(kws) && is_kind(PyList_GET_ITEM(args, 1), "Constant")) {
    PyObject *module = static_object(fe, PyList_GET_ITEM(args, 0)), *name = field(PyList_GET_ITEM(args, 1), "value");
    if (module && PyModule_Check(module) && PyUnicode_Check(name)) {
      if (PyObject_HasAttr(module, name)) {
        PyObject *load = ast_node("Load", PyDict_New(), e);
        PyObject *attr = load ? ast_node("Attribute", Py_BuildValue("{s:O,s:O,s:N}", "value", PyList_GET_ITEM(args, 0),
                                                                    "attr", name, "ctx", load), e) : NULL;
        n = attr ? fe_expr(fe, attr) : fe_error(fe, e, "cannot read this call");
        Py_XDECREF(attr);
      } else if (na == 3) {
        n = fe_expr(fe, PyList_GET_ITEM(args, 2));
      } else {
        n = fe_error(fe, e, "module '%s' has no attribute '%s'", PyModule_GetName(module), PyUnicode_AsUTF8(name));
      }
    }
    Py_XDECREF(module); Py_XDECREF(name);
  }
  PyErr_Clear();
  Py_DECREF(args); Py_DECREF(kws);
  return n;
}

static bool effect_free(const Node *x);

/* The arguments of a row that reads them twice (BF_ARGS_TWICE), each
 * computed once: one that is not a name or a constant goes into a hidden
 * variable before the statement where that changes nothing (it has no
 * effect, or the call is what the statement evaluates first); the typer
 * asks for variables where one stays. */
static void args_once(Fe *fe, PyObject *e, Node *call) {
  if (fe->in_place) return;
  for (int i = 0; i < call->list.len; i++) {
    Node *a = call->list.items[i];
    bool movable = effect_free(a) || fe->first_value == e;
    if (a->kind != N_VAR && a->kind != N_INT && a->kind != N_FLOAT && a->kind != N_BOOL && movable)
      call->list.items[i] = fe_var_node(fe, e, fe_assign_before(fe, e, "arg", a));
  }
}

/* f(*t) of a builtin, whose typer reads t's items one by one (infer.c's
 * spread_builtin_args): a t that is not a name or a name's attribute
 * (numpy.multiply(*a.shape[-2:])) goes into a hidden variable before the
 * statement, where args_once would move it. */
static void spreads_once(Fe *fe, PyObject *e, Node *call) {
  if (fe->in_place) return;
  for (int i = 0; i < call->list.len; i++) {
    Node *s = call->list.items[i];
    if (s->kind != N_SPREAD || s->lhs->kind == N_VAR || (s->lhs->kind == N_ATTR && s->lhs->lhs->kind == N_VAR)) continue;
    if (effect_free(s->lhs) || fe->first_value == e) s->lhs = fe_var_node(fe, e, fe_assign_before(fe, e, "spread", s->lhs));
  }
}

/* raise E(a, *t, k=v): E's arguments as a call's, each *t spread once
 * typed (infer.c) from a variable, the keywords by name (the exception is
 * made of them in Python: box.c's raise_kept). */
bool fe_raise_args(Fe *fe, PyObject *call, Node *n) {
  if (!fe_call_args(fe, call, n, ARGS_SPREAD)) return false;
  spreads_once(fe, call, n);
  return true;
}

/* numpy.datetime64(...) or numpy.timedelta64(...): made at compile time
 * from constants (numpy.timedelta64(1, 'D'), numpy.datetime64('2020-01-01'),
 * 'NaT'); from a run-time integer count and a constant unit (none: a
 * generic timedelta), that many of the unit (its one-unit timedelta times
 * operator.index(count), after the epoch for a datetime), as NumPy makes
 * them. */
static Node *time_scalar_call(Fe *fe, PyObject *e, PyObject *cls, bool datetime) {
  const char *name = datetime ? "numpy.datetime64" : "numpy.timedelta64";
  PyObject *args = field(e, "args"), *kws = field(e, "keywords");
  Py_ssize_t n = PyList_GET_SIZE(args);
  PyObject *values = PyTuple_New(n);
  for (Py_ssize_t i = 0; values && i < n; i++) {
    PyObject *v = is_kind(PyList_GET_ITEM(args, i), "Constant") ? field(PyList_GET_ITEM(args, i), "value") : NULL;
    if (!v) Py_CLEAR(values);
    else PyTuple_SET_ITEM(values, i, v);
  }
  PyObject *unit = n == 2 && is_kind(PyList_GET_ITEM(args, 1), "Constant") ? field(PyList_GET_ITEM(args, 1), "value") : NULL;
  Node *r = NULL;
  if (PyList_GET_SIZE(kws) || n < 1 || n > 2) {
    r = fe_error(fe, e, "%s() takes a count (or a str) and a unit in compiled code", name);
  } else if (values) {  /* every argument a constant */
    PyObject *made = PyObject_Call(cls, values, NULL);
    r = made ? global_value(fe, made, e, name) : fe_python_error(fe, e, name, "cannot be made");
    Py_XDECREF(made);
  } else if ((n == 2 && unit && PyUnicode_Check(unit)) || (n == 1 && !datetime)) {
    PyObject *numpy = PyImport_ImportModule("numpy");
    PyObject *step = !numpy ? NULL : unit ? PyObject_CallMethod(numpy, "timedelta64", "iO", 1, unit)
                                          : PyObject_CallMethod(numpy, "timedelta64", "i", 1);  /* generic */
    PyObject *epoch = step && datetime ? PyObject_CallMethod(numpy, "datetime64", "iO", 0, unit) : NULL;
    Py_XDECREF(numpy);
    if (!step || (datetime && !epoch)) {
      r = fe_python_error(fe, e, name, "cannot be made");
    } else {
      Node *count = fe_call_of(fe, e, "operator.index", fe_expr(fe, PyList_GET_ITEM(args, 0)));
      Node *one = count ? global_value(fe, step, e, name) : NULL, *start = one && datetime ? global_value(fe, epoch, e, name) : NULL;
      r = !one || (datetime && !start) ? NULL
          : datetime ? binop_node(fe, e, OP_ADD, start, binop_node(fe, e, OP_MUL, one, count))
                     : binop_node(fe, e, OP_MUL, one, count);
    }
    Py_XDECREF(step); Py_XDECREF(epoch);
  } else {
    r = fe_error(fe, e, "%s() in compiled code takes constants, or a run-time integer count and a constant unit "
                 "(%s(n, 'D'))", name, name);
  }
  Py_XDECREF(values); Py_XDECREF(unit); Py_DECREF(args); Py_DECREF(kws);
  return r;
}

/* The compiled scalar function of NumPy's own ufunc u (numpy.add): a
 * compiled function calling the builtin on its one or two inputs
 * (ruchey._ufunc_methods.numpy_scalar, made once); a new reference, NULL
 * where u is no ufunc of one output compiled code knows. */
static PyObject *numpy_ufunc_scalar(PyObject *u) {
  const Builtin *bi = core_builtin(u);
  int nin = ufunc_numpy_inputs(u);
  if (!bi || bi->kind != BK_FUNCTION || (nin != 1 && nin != 2)) return NULL;
  PyObject *module = PyImport_ImportModule("ruchey._ufunc_methods");
  PyObject *disp = module ? PyObject_CallMethod(module, "numpy_scalar", "Oi", u, nin) : NULL;
  Py_XDECREF(module);
  if (disp && PyObject_TypeCheck(disp, &DispatcherType)) return disp;
  Py_XDECREF(disp);
  PyErr_Clear();
  return NULL;
}

/* The compiled function calling ufunc u (NumPy's or a @vectorize one) on
 * its two inputs as compiled code calls u, arrays broadcast
 * (ruchey._ufunc_methods.whole_ufunc, made once); a new reference, NULL
 * where it cannot be made. */
static PyObject *whole_ufunc_function(PyObject *u) {
  PyObject *module = PyImport_ImportModule("ruchey._ufunc_methods");
  PyObject *disp = module ? PyObject_CallMethod(module, "whole_ufunc", "O", u) : NULL;
  Py_XDECREF(module);
  if (disp && PyObject_TypeCheck(disp, &DispatcherType)) return disp;
  Py_XDECREF(disp);
  PyErr_Clear();
  return NULL;
}

/* u.reduce(...), u.reduceat(...), u.accumulate(...), u.at(...) or u.outer(...) of a @vectorize ufunc u, or of NumPy's own
 * (numpy.add.at): a call of ruchey._ufunc_methods' function of that name
 * (at_unary for u.at of one input), given u's scalar function (a function
 * value; for outer, the function calling u whole on arrays), its name,
 * identity and whether it reorders (NumPy's rule for several axes) before
 * the call's own arguments; NULL, no error, where func names no such
 * method. */
static Node *ufunc_method_call(Fe *fe, PyObject *e, PyObject *func) {
  PyObject *base = is_kind(func, "Attribute") ? field(func, "value") : NULL;
  PyObject *ufunc = base ? static_object(fe, base) : NULL;
  Py_XDECREF(base);
  PyObject *scalar = ufunc ? Py_XNewRef((PyObject *)ufunc_scalar_function(ufunc)) : NULL;
  if (ufunc && !scalar) scalar = numpy_ufunc_scalar(ufunc);
  if (!scalar) {
    Py_XDECREF(ufunc);
    return NULL;
  }
  PyObject *attr = field(func, "attr");
  const char *method = PyUnicode_AsUTF8(attr);
  PyObject *module = PyImport_ImportModule("ruchey._ufunc_methods");
  PyObject *name = PyObject_GetAttrString(ufunc, "__name__"), *identity = PyObject_GetAttrString(ufunc, "identity");
  PyObject *nin = PyObject_GetAttrString(ufunc, "nin");
  long inputs = nin ? PyLong_AsLong(nin) : -1;
  bool binary = !strcmp(method, "reduce") || !strcmp(method, "reduceat") || !strcmp(method, "accumulate") ||
                !strcmp(method, "outer");
  bool known = binary ? inputs == 2 : !strcmp(method, "at") && (inputs == 1 || inputs == 2);
  PyObject *helper = module && known ? PyObject_CallMethod(module, "method_function", "Os", ufunc,
                                                           inputs == 1 ? "at_unary" : method) : NULL;
  PyErr_Clear();
  if (helper && !strcmp(method, "outer")) Py_SETREF(scalar, whole_ufunc_function(ufunc));
  Node *n = NULL;
  if (binary && inputs != 2) {
    fe_error(fe, e, "%s only supported for binary functions (%s takes %ld inputs)", method,
             name ? PyUnicode_AsUTF8(name) : "?", inputs);
  } else if (!helper || !name || !identity || !scalar) {
    fe_error(fe, e, "ufunc.%s is not supported in compiled code (reduce, reduceat, accumulate, at and outer are)",
             method);
  } else {
    n = new_node(fe, N_CALL, e);
    n->bi = core_builtin_named("a ruchey function");
    PyObject *has_identity = identity == Py_None ? Py_False : Py_True;
    PyObject *zero = PyLong_FromLong(0);
    PyObject *reorderable = ufunc_reorderable(ufunc) ? Py_True : Py_False;
    Node *given[5] = {fe_function_value(fe, scalar, e), global_value(fe, name, e, "the ufunc's name"),
                      global_value(fe, identity == Py_None ? zero : identity, e, "the ufunc's identity"),
                      global_value(fe, has_identity, e, "the ufunc's identity"),
                      global_value(fe, reorderable, e, "whether the ufunc reorders")};
    Py_XDECREF(zero);
    if (!given[0] || !given[1] || !given[2] || !given[3] || !given[4]) {
      n = NULL;
    } else if (fe_has_starred(e)) {  /* u.at(*args): the ufunc's five, then the call's, packed */
      Node *leading = tuple_node(fe, e, 5), *spread = fe_spread_args(fe, e);
      memcpy(leading->list.items, given, sizeof given);
      if (!spread || !fe_bind_spread_call(fe, e, n, helper, binop_node(fe, e, OP_ADD, leading, spread))) n = NULL;
    } else if (!fe_call_args(fe, e, n, 0)) {
      n = NULL;
    } else {
      NodeList all = new_list(fe, n->list.len + 5);
      memcpy(all.items, given, sizeof given);
      memcpy(all.items + 5, n->list.items, sizeof(Node *) * (size_t)n->list.len);
      n->list = all;
      if (!bind_where_typed(fe, e, &n, helper)) n = NULL;
    }
  }
  Py_XDECREF(helper); Py_XDECREF(module); Py_XDECREF(name); Py_XDECREF(identity); Py_XDECREF(nin);
  Py_DECREF(attr); Py_DECREF(ufunc); Py_XDECREF(scalar);
  return n ? n : (fe->diag->kind ? NULL : fe_error(fe, e, "this ufunc method call cannot be compiled"));
}

/* A @vectorize ufunc's output array in a call from compiled code: out=,
 * or the argument after its function's parameters (f(a, b, o)), taken
 * from n's arguments; NULL where the call has none. */
static Node *take_ufunc_out(Fe *fe, Node *n, PyObject *disp) {
  PyObject *func = PyObject_GetAttrString(disp, "py_func");
  int nin = func && PyFunction_Check(func) ? ((PyCodeObject *)PyFunction_GetCode(func))->co_argcount : -1;
  Py_XDECREF(func);
  PyErr_Clear();
  if (nin >= 0 && n->list.len == nin + 1) return n->list.items[--n->list.len];
  for (int i = 0; i < n->kw.len; i++)
    if (!strcmp(n->kw_names[i], "out")) {
      Node *out = n->kw.items[i];
      memmove(n->kw.items + i, n->kw.items + i + 1, sizeof(Node *) * (size_t)(n->kw.len - i - 1));
      memmove(n->kw_names + i, n->kw_names + i + 1, sizeof(char *) * (size_t)(n->kw.len - i - 1));
      n->kw.len--;
      return out;
    }
  return NULL;
}

/* The value of an objmode block run for a call (a ctypes function taking
 * Python objects): its one output, block(...)[0]; or None after it where
 * it has none, (block(...), None)[1]. */
static Node *output_of_block(Fe *fe, PyObject *e, Node *block) {
  Node *n = new_node(fe, N_INDEX, e), *which = new_node(fe, N_INT, e);
  which->ival = block->ival ? 0 : 1;
  n->lhs = block;
  n->rhs = which;
  if (!block->ival) {
    n->lhs = new_node(fe, N_TUPLE, e);
    n->lhs->list = new_list(fe, 2);
    n->lhs->list.items[0] = block;
    n->lhs->list.items[1] = new_node(fe, N_NONE, e);
  }
  return n;
}

/* The output taken by take_ufunc_out given back to the bound call as its
 * out=, which the ufunc's typing writes through (ty_ufunc_out). */
static void give_ufunc_out(Fe *fe, Node *n, Node *out) {
  NodeList kw = new_list(fe, n->kw.len + 1);
  const char **names = arena_alloc(fe->arena, sizeof(char *) * (size_t)(n->kw.len + 1));
  for (int i = 0; i < n->kw.len; i++) kw.items[i] = n->kw.items[i], names[i] = n->kw_names[i];
  kw.items[n->kw.len] = out;
  names[n->kw.len] = "out";
  n->kw = kw;
  n->kw_names = names;
}

static Node *fe_call(Fe *fe, PyObject *e) {
  PyObject *func = field(e, "func"), *bound = fe_method_alias(fe, func);
  Py_DECREF(func);
  if (bound) return fe_method_call(fe, e, bound);  /* m(v) of m = x.append */
  PyObject *type = static_type_call(fe, e, true);
  if (type || fe->diag->kind) {  /* types.ListType(types.int64): a type, as a dtype */
    Node *n = type ? global_value(fe, type, e, "a type") : NULL;
    Py_XDECREF(type);
    return n;
  }
  func = field(e, "func");
  bool typed = false;
  Node *of_type = fe_call_of_type(fe, e, func, &typed);
  if (of_type || typed) {
    Py_DECREF(func);
    return of_type;
  }
  if (fe_is_local_call(fe, func)) {
    Node *n = fe_local_call(fe, e, func);
    Py_DECREF(func);
    return n;
  }
  Node *method = ufunc_method_call(fe, e, func);
  if (method || fe->diag->kind) {
    Py_DECREF(func);
    return method;
  }
  int index_iterator = numpy_index_iterator(fe, e);
  if (index_iterator == NP_ITER_NDINDEX || index_iterator == NP_ITER_NDENUMERATE) {
    Py_DECREF(func);
    return index_iterator_call(fe, e, index_iterator);
  }
  bool whole = false;
  PyObject *obj = iterator_of_builtin(fe, static_object(fe, func), &whole);
  int time_kind = obj ? disp_time_class_kind(obj) : -1;
  if (time_kind >= 0) {  /* numpy.timedelta64(1, 'D') */
    Node *n = time_scalar_call(fe, e, obj, time_kind == TY_DATETIME);
    Py_DECREF(obj); Py_DECREF(func);
    return n;
  }
  if (!obj && is_kind(func, "Attribute")) {
    PyObject *base = field(func, "value");
    PyObject *base_obj = static_object(fe, base);
    Py_DECREF(base);
    bool value = !base_obj || !(PyModule_Check(base_obj) || PyObject_HasAttrString(base_obj, "__ruchey_namespace__"));
    PyObject *attr = value ? field(func, "attr") : NULL;
    Node *missing = attr ? missing_class_attribute(fe, base_obj, attr, func) : NULL;
    Py_XDECREF(attr);
    if (missing) {
      Py_XDECREF(base_obj); Py_DECREF(func);
      return missing;
    }
    if (value) {  /* a method of a value (a global array's too) */
      Py_XDECREF(base_obj);
      Node *n = fe_method_call(fe, e, func);
      Py_DECREF(func);
      return n;
    }
    Py_DECREF(base_obj);
  }
  bool is_operator = false;
  Node *op = obj ? fe_operator_call(fe, e, obj, &is_operator) : NULL;
  if (is_operator) {
    Py_DECREF(obj); Py_DECREF(func);
    return op;
  }
  PyObject *allocator = obj ? allocator_of_type(fe, e, obj) : NULL;
  if (fe->diag->kind) {
    Py_XDECREF(obj); Py_DECREF(func);
    return NULL;
  }
  if (allocator) Py_SETREF(obj, allocator);
  const Type *made = obj ? jitclass_new_type(obj) : NULL;
  if (made) {  /* a jitclass's constructor making its object */
    Node *n = new_node(fe, N_CALL, e);
    n->bi = core_builtin_named("jitclass new");
    n->data = made;
    Py_DECREF(obj); Py_DECREF(func);
    return n;
  }
  PyObject *names = obj && PyType_Check(obj) ? core_namedtuple_fields((PyTypeObject *)obj) : NULL;
  if (names) {  /* Point(x, y): a named tuple */
    Node *n = fe_namedtuple_call(fe, e, obj, names);
    Py_DECREF(names); Py_DECREF(obj); Py_DECREF(func);
    return n;
  }
  PyObject *registered = obj && !core_builtin(obj) ? ext_callee(obj) : NULL;
  if (registered) Py_SETREF(obj, registered);  /* ruchey.extending's: a dispatcher */
  Dispatcher *scalar_fn = obj && !core_builtin(obj) ? ufunc_scalar_function(obj) : NULL;
  if (scalar_fn) Py_SETREF(obj, Py_NewRef((PyObject *)scalar_fn));  /* a @vectorize ufunc: its function */
  bool is_jit = obj && PyObject_TypeCheck(obj, &DispatcherType);
  const Builtin *builtin = scalar_fn ? core_builtin_named("a ruchey ufunc")
                          : is_jit  ? core_builtin_named("a ruchey function")
                          : obj     ? core_builtin(obj) : NULL;
  if (obj && obj == PyDict_GetItemString(fe->builtins, "isinstance")) {
    Node *n = fe_isinstance(fe, e);
    Py_DECREF(obj); Py_DECREF(func);
    return n;
  }
  Node *known = !obj ? NULL
                : obj == PyDict_GetItemString(fe->builtins, "hasattr") ? module_hasattr(fe, e)
                : obj == PyDict_GetItemString(fe->builtins, "getattr") ? module_getattr(fe, e) : NULL;
  if (known || fe->diag->kind) {
    Py_XDECREF(obj); Py_DECREF(func);
    return known;
  }
  PyObject *args = obj == (PyObject *)&PyType_Type ? field(e, "args") : NULL;
  if (args && PyList_GET_SIZE(args) == 1) {  /* type(x) */
    Node *n = fe_type_value(fe, e, PyList_GET_ITEM(args, 0));
    Py_DECREF(args); Py_DECREF(obj); Py_DECREF(func);
    return n;
  }
  Py_XDECREF(args);
  int cast = !builtin && obj ? core_dtype_kind(obj) : -1;
  if (cast >= 0) builtin = core_builtin_named("a NumPy scalar type");
  bool refused = false;
  const Type **python_result = arena_alloc(fe->arena, sizeof(Type *));
  PyObject *python_call = !builtin && obj ? fe_python_object_call(fe, e, obj, python_result, &refused) : NULL;
  if (python_call) builtin = core_builtin_named("an objmode block");
  NativeSig *native = !builtin && obj && !refused ? fe_native_signature(fe, e, obj, &refused) : NULL;
  if (native) builtin = core_builtin_named("a native function");
  if (!builtin && !refused && obj && fe_is_from_buffer(obj)) builtin = core_builtin_named("ffi.from_buffer");
  IntrinsicCall *intrinsic = !builtin && obj ? ext_intrinsic_call(obj, fe->arena) : NULL;
  if (intrinsic) builtin = core_builtin_named("an intrinsic");
  int lowered_kinds = 0;
  if (!builtin && obj) builtin = lowered_atomic(obj, &lowered_kinds);
  Node *n = NULL;
  if (refused) {
    PyErr_Clear();
  } else if (!builtin) {
    n = unsupported_call(fe, e, func, obj);
  } else {
    if (builtin->flags & BF_BLAS) core_load_blas();
    n = new_node(fe, N_CALL, e);
    n->bi = builtin;
    n->ival = cast;
    n->callee = native ? (void *)native : python_call ? (void *)python_call : (void *)intrinsic;
    n->op = lowered_kinds;
    if (python_call) {  /* run as an objmode block of one output, its result (none: of no output) */
      n->data = python_result;
      n->ival = *python_result != NULL;
    }
    unsigned how = is_jit ? (whole ? ARGS_WHOLE : 0) : builtin_args(builtin->flags);
    if (is_jit && !scalar_fn && fe_has_starred(e)) {
      if (!fe_bind_spread_call(fe, e, n, obj, fe_spread_args(fe, e))) n = NULL;
    } else if (!fe_call_args(fe, e, n, how)) {
      n = NULL;
    } else if (scalar_fn) {  /* the function's own arguments bound, its out= (or one more positional) kept */
      Node *out = take_ufunc_out(fe, n, obj);
      if (!bind_where_typed(fe, e, &n, obj)) n = NULL;
      else if (out) give_ufunc_out(fe, n, out);
    } else if (is_jit && !bind_where_typed(fe, e, &n, obj)) {
      n = NULL;
    } else if (intrinsic && !bind_intrinsic_keywords(fe, e, n, obj)) {
      n = NULL;
    } else if (!is_jit) {
      if (!strcmp(builtin->name, "print")) n->data = interpreter_print();
      if (!strcmp(builtin->name, "str") || !strcmp(builtin->name, "format")) n->data = fe_interpreter_text(false);
      if (!strcmp(builtin->name, "repr")) n->data = fe_interpreter_text(true);
      bind_named_positionals(fe, n);
      if (!strcmp(builtin->name, "numpy.arange")) bind_arange(fe, n, e);
      if (builtin->flags & BF_ARGS_TWICE) args_once(fe, e, n);
      spreads_once(fe, e, n);
    }
  }
  if (n && python_call) n = output_of_block(fe, e, n);
  Py_XDECREF(obj);
  Py_DECREF(func);
  return n;
}

/* lower:upper:step inside an index; missing parts stay NULL. */
static Node *fe_slice(Fe *fe, PyObject *e) {
  PyObject *lo = field(e, "lower"), *hi = field(e, "upper"), *st = field(e, "step");
  Node *n = new_node(fe, N_SLICE, e);
  if ((lo != Py_None && !(n->lhs = fe_expr(fe, lo))) || (hi != Py_None && !(n->rhs = fe_expr(fe, hi))) ||
      (st != Py_None && !(n->cond = fe_expr(fe, st))))
    n = NULL;
  Py_DECREF(lo); Py_DECREF(hi); Py_DECREF(st);
  return n;
}

static Node *fe_index(Fe *fe, PyObject *e);

/* (a, *t, b): the tuples (a,) + t + (b,); [a, *x, b] (list set): the
 * lists [a] + list(x) + [b], x any iterable list() takes; each run of
 * items read by item (an index's by fe_index: slices and ... among them),
 * as Python builds it. */
static Node *starred_display(Fe *fe, PyObject *elts, Node *(*item)(Fe *, PyObject *), bool list) {
  Node *whole = NULL, *run = NULL;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(elts); i++) {
    PyObject *a = PyList_GET_ITEM(elts, i), *v = is_kind(a, "Starred") ? field(a, "value") : NULL;
    Node *part = NULL;
    if (v) {  /* *x: a list of x's items, or x itself once typing has found it a tuple */
      Node *x = fe_expr(fe, v);
      Py_DECREF(v);
      if (x && list) {
        part = call_node(fe, a, "list", &x, 1);
      } else if (x) {
        part = new_node(fe, N_SPREAD, a);
        part->lhs = x;
      }
      run = NULL;
    } else if (run) {  /* one more item of the run of plain ones */
      NodeList grown = new_list(fe, run->list.len + 1);
      memcpy(grown.items, run->list.items, sizeof(Node *) * (size_t)run->list.len);
      if (!(grown.items[run->list.len] = item(fe, a))) return NULL;
      run->list = grown;
      continue;
    } else {
      Node *first = item(fe, a);
      if (!first) return NULL;
      part = run = list ? call_node(fe, a, "list literal", &first, 1) : tuple_node(fe, a, 1);
      run->list.items[0] = first;
    }
    if (!part) return NULL;
    whole = whole ? binop_node(fe, a, OP_ADD, whole, part) : part;
  }
  return whole;
}

static Node *starred_tuple(Fe *fe, PyObject *elts, Node *(*item)(Fe *, PyObject *)) {
  return starred_display(fe, elts, item, false);
}

static bool has_starred_elts(PyObject *elts) {
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(elts); i++)
    if (is_kind(PyList_GET_ITEM(elts, i), "Starred")) return true;
  return false;
}

/* An index: an expression, a slice, or a tuple of those. */
static Node *fe_index(Fe *fe, PyObject *e) {
  if (is_kind(e, "Slice")) return fe_slice(fe, e);
  if (!is_kind(e, "Tuple")) return fe_expr(fe, e);
  PyObject *elts = field(e, "elts");
  if (has_starred_elts(elts)) {  /* a[(..., *idx)]: typing flattens the sum into one index tuple */
    Node *n = starred_tuple(fe, elts, fe_index);
    Py_DECREF(elts);
    return n;
  }
  Node *n = new_node(fe, N_TUPLE, e);
  n->list = new_list(fe, (int)PyList_GET_SIZE(elts));
  for (int i = 0; n && i < n->list.len; i++)
    if (!(n->list.items[i] = fe_index(fe, PyList_GET_ITEM(elts, i)))) n = NULL;
  Py_DECREF(elts);
  return n;
}

static bool all_effect_free(const NodeList *items) {
  for (int i = 0; i < items->len; i++)
    if (!effect_free(items->items[i])) return false;
  return true;
}

/* Whether x has no effect but its value (so reading it earlier changes
 * nothing): names, constants, operators, items and pure builtins of such. */
static bool effect_free(const Node *x) {
  if (!x) return true;
  switch (x->kind) {
  case N_INT: case N_FLOAT: case N_BOOL: case N_VAR: case N_NONE: case N_STRING: case N_DTYPE: case N_MODULE:
  case N_CONST_ARRAY: case N_ELLIPSIS:
    return true;
  case N_ATTR: case N_UNARY: return effect_free(x->lhs);
  case N_BINOP: case N_INDEX: return effect_free(x->lhs) && effect_free(x->rhs);
  case N_SLICE: return effect_free(x->lhs) && effect_free(x->rhs) && effect_free(x->cond);
  case N_COMPARE: case N_BOOLOP: case N_TUPLE: return all_effect_free(&x->list);
  case N_CALL:
    if (!x->bi || !(x->bi->flags & (BF_PURE | BF_INDEXES))) return false;
    for (int i = 0; i < x->kw.len; i++)
      if (!strcmp(x->kw_names[i], "out")) return false;  /* out= writes */
    return all_effect_free(&x->list) && all_effect_free(&x->kw);
  default: return false;
  }
}

/* Whether x calls a compiled function (a ruchey function, or one held by
 * a variable), whose result's type, a tuple maybe, typing learns later. */
static bool calls_compiled(const Node *x) {
  if (x->kind != N_CALL || !x->bi) return false;
  return !strcmp(x->bi->name, "a ruchey function") || !strcmp(x->bi->name, "a function value");
}

/* a[numpy.nonzero(m)], c[mlo(i, j)]: an index that is a tuple of index
 * arrays made by a call, or a compiled function's result (a tuple, as
 * Numba's temporaries hold one), is computed once, in a hidden variable
 * before the statement (as a comprehension is), and the array indexed by
 * that variable. A compiled function may have effects: its call moves
 * only where the statement evaluates nothing before it (first: the
 * subscript of a variable is what an assignment or return evaluates
 * first, or the assignment's target, whose value value_before moves
 * first). Where the expression must stay where it is written (a while
 * loop's condition, a branch of a conditional expression) it stays, to
 * be assigned first. */
static Node *index_once(Fe *fe, PyObject *e, Node *index, bool first) {
  if (fe->in_place || index->kind != N_CALL || !index->bi) return index;
  bool movable = calls_compiled(index) ? first : (index->bi->flags & BF_INDEXES) && effect_free(index);
  return movable ? fe_var_node(fe, e, fe_assign_before(fe, e, "index", index)) : index;
}

static Node *fe_subscript(Fe *fe, PyObject *e) {
  PyObject *v = field(e, "value"), *s = field(e, "slice"), *type = static_type_subscript(fe, v, s);
  if (type) {  /* types.float64[:]: an array type, as a dtype */
    Node *n = global_value(fe, type, e, "an array type");
    Py_DECREF(type); Py_DECREF(v); Py_DECREF(s);
    return n;
  }
  PyObject *cls = static_object(fe, v);
  if (cls && core_is_enum_class(cls)) {
    Node *n = fe_enum_subscript(fe, cls, e);
    Py_DECREF(cls); Py_DECREF(v); Py_DECREF(s);
    return n;
  }
  Node *n = new_node(fe, N_INDEX, e);
  Node *name = fe_string(fe, s);  /* r['x']: a record's field */
  Node *seq = is_kind(s, "Slice") || is_kind(s, "Tuple") ? NULL : long_tuple_array(fe, cls, v);  /* t[i] alone */
  Py_XDECREF(cls);
  if (!(n->lhs = seq ? seq : fe_expr(fe, v)) || !(n->rhs = name ? name : fe_index(fe, s))) n = NULL;
  if (n) n->rhs = index_once(fe, e, n->rhs, fe->first_value == e && n->lhs->kind == N_VAR);
  Py_DECREF(v); Py_DECREF(s);
  return n;
}

/* A TypingError for an attribute a namespace of ruchey.cuda's lacks, in
 * numba-cuda's words where it is a value of a type of numba-cuda's
 * ("Unknown attribute 'w' of type Dim3"), else as a call of one names it. */
static void unknown_namespace_attribute(Fe *fe, PyObject *ns, const char *attr, PyObject *e) {
  PyObject *type = PyObject_GetAttrString(ns, "_typename"), *name = PyObject_GetAttrString(ns, "_name");
  PyErr_Clear();
  if (type && PyUnicode_Check(type))
    fe_error(fe, e, "Unknown attribute '%s' of type %s", attr, PyUnicode_AsUTF8(type));
  else
    fe_error(fe, e, "'cuda.%s' has no attribute '%s'", name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "?",
             attr);
  Py_XDECREF(type);
  Py_XDECREF(name);
}

/* What a class read as a global lacks (types.Array.alloc where no
 * classmethod is overloaded for it): Numba's TypingError of the class's
 * TypeRef, where typing reaches it; NULL where base is no class or has it. */
static Node *missing_class_attribute(Fe *fe, PyObject *base, PyObject *attr, PyObject *e) {
  if (!base || !PyType_Check(base) || core_is_enum_class(base) || PyObject_HasAttr(base, attr)) return NULL;
  PyObject *msg = PyUnicode_FromFormat("Unknown attribute '%U' of type typeref[%R]", attr, base);
  Node *n = msg ? error_where_typed(fe, e, PyUnicode_AsUTF8(msg)) : NULL;
  Py_XDECREF(msg);
  PyErr_Clear();
  return n;
}

static Node *fe_attribute(Fe *fe, PyObject *e) {
  PyObject *obj = static_object(fe, e);
  if (obj) {  /* numpy.float64, math.pi, ... */
    PyObject *attr = field(e, "attr");
    Node *n = global_value(fe, obj, e, PyUnicode_AsUTF8(attr));
    Py_DECREF(attr);
    Py_DECREF(obj);
    return n;
  }
  /* an attribute of a value: infer finds it from the value's type */
  PyObject *attr = field(e, "attr"), *v = field(e, "value");
  const char *name = attr_name(fe, attr);
  PyObject *base = static_object(fe, v);
  if (base && core_is_enum_class(base)) {  /* a name that is no member */
    Node *n = fe_enum_named(fe, base, attr, e);
    Py_DECREF(base); Py_DECREF(attr); Py_DECREF(v);
    return n;
  }
  if (base && PyObject_HasAttrString(base, "__ruchey_namespace__")) {  /* cuda.threadIdx.w */
    unknown_namespace_attribute(fe, base, name, e);
    Py_DECREF(base); Py_DECREF(attr); Py_DECREF(v);
    return NULL;
  }
  Node *missing = missing_class_attribute(fe, base, attr, e);
  Py_XDECREF(base);
  if (missing) {
    Py_DECREF(attr); Py_DECREF(v);
    return missing;
  }
  Node *n = new_node(fe, N_ATTR, e);
  n->str = arena_strdup(fe->arena, name);
  n->lhs = fe_expr(fe, v);
  /* a module without it (numpy.trapz in NumPy 2): an error where typing reaches it, as a call's
   * (sktime's `if NUMPY1: trapz = np.trapz`, pruned on a global) */
  if (n->lhs && n->lhs->kind == N_MODULE) n = unsupported_call(fe, e, e, NULL);
  Py_DECREF(attr); Py_DECREF(v);
  return n;
}

static Node *fe_tuple(Fe *fe, PyObject *e) {
  PyObject *elts = field(e, "elts");
  if (has_starred_elts(elts)) {
    Node *n = starred_tuple(fe, elts, fe_expr);
    Py_DECREF(elts);
    return n;
  }
  Node *n = new_node(fe, N_TUPLE, e);
  bool ok = fe_exprs(fe, elts, &n->list);
  Py_DECREF(elts);
  return ok ? n : NULL;
}

/* [a, b, c] or {a, b, c}: the builtin `literal` ("list literal", "set
 * literal") of the items. */
static Node *fe_items_literal(Fe *fe, PyObject *e, const char *literal) {
  Node *long_one = long_display_array(fe, e);  /* more than a call takes: list() of an array of them */
  if (long_one || fe->diag->kind) return long_one ? call_node(fe, e, "list", &long_one, 1) : NULL;
  PyObject *elts = field(e, "elts");
  NodeList items;
  Node *n = !strcmp(literal, "list literal") && has_starred_elts(elts) ? starred_display(fe, elts, fe_expr, true)
            : fe_exprs(fe, elts, &items)                               ? call_node(fe, e, literal, items.items, items.len)
                                                                       : NULL;
  Py_DECREF(elts);
  return n;
}

/* {k: v, ...}: the builtin "dict literal" of keys and values in turn. */
static Node *fe_dict(Fe *fe, PyObject *e) {
  PyObject *keys = field(e, "keys"), *values = field(e, "values");
  int n = (int)PyList_GET_SIZE(keys);
  NodeList kv = new_list(fe, 2 * n);
  bool ok = true;
  for (int i = 0; ok && i < n; i++) {
    PyObject *k = PyList_GET_ITEM(keys, i);
    if (k == Py_None) ok = fe_error(fe, e, "**d in a dict literal is not supported in compiled code") != NULL;
    for (int half = 0; ok && half < 2 && k != Py_None; half++) {
      int mark = fe->pre.len;
      ok = (kv.items[2 * i + half] = fe_expr(fe, half ? PyList_GET_ITEM(values, i) : k)) != NULL;
      if (ok) fe_earlier_first(fe, e, kv.items, 2 * i + half, &mark);
    }
  }
  Py_DECREF(keys); Py_DECREF(values);
  return ok ? call_node(fe, e, "dict literal", kv.items, kv.len) : NULL;
}

static Node *fe_stmt(Fe *fe, PyObject *s);

/* A node of Python's ast module, placed at loc; NULL with a Python error. */
static PyObject *ast_node(const char *kind, PyObject *kwargs, PyObject *loc) {
  PyObject *ast = PyImport_AddModule("ast"), *empty = PyTuple_New(0);
  PyObject *cls = PyObject_GetAttrString(ast, kind);
  PyObject *n = cls && kwargs && empty ? PyObject_Call(cls, empty, kwargs) : NULL;
  if (n) Py_XDECREF(PyObject_CallMethod(ast, "copy_location", "OO", n, loc));
  Py_XDECREF(cls); Py_XDECREF(empty); Py_XDECREF(kwargs);
  return n;
}

void fe_add_pre(Fe *fe, Node *s) {
  if (fe->pre.len == fe->pre_cap) {
    fe->pre_cap = fe->pre_cap ? 2 * fe->pre_cap : 8;
    Node **items = arena_alloc(fe->arena, sizeof(Node *) * (size_t)fe->pre_cap);
    if (fe->pre.len) memcpy(items, fe->pre.items, sizeof(Node *) * (size_t)fe->pre.len);
    fe->pre.items = items;
  }
  fe->pre.items[fe->pre.len++] = s;
}

Node *fe_var_node(Fe *fe, PyObject *e, int var) {
  Node *n = new_node(fe, N_VAR, e);
  n->var = var;
  return n;
}

int fe_assign_before(Fe *fe, PyObject *e, const char *kind, Node *value) {
  char name[32];
  snprintf(name, sizeof name, "$%s%d", kind, fe->ntemps++);
  Node *init = new_node(fe, N_ASSIGN, e);
  init->lhs = fe_var_node(fe, e, add_var(fe, name));
  init->rhs = value;
  fe_add_pre(fe, init);
  return init->lhs->var;
}

/* The loops of [elt for t in it if c ...] (or {k: v ...}) around `inner`,
 * as Python's ast, the innermost generator last. */
static PyObject *comprehension_loops(PyObject *e, PyObject *gens, PyObject *inner) {
  PyObject *body = inner;
  for (Py_ssize_t g = PyList_GET_SIZE(gens) - 1; body && g >= 0; g--) {
    PyObject *gen = PyList_GET_ITEM(gens, g);
    PyObject *ifs = field(gen, "ifs"), *target = field(gen, "target"), *iter = field(gen, "iter");
    for (Py_ssize_t i = PyList_GET_SIZE(ifs) - 1; body && i >= 0; i--)
      body = ast_node("If", Py_BuildValue("{s:O,s:[N],s:[]}", "test", PyList_GET_ITEM(ifs, i), "body", body, "orelse"), e);
    body = body ? ast_node("For", Py_BuildValue("{s:O,s:O,s:[N],s:[]}", "target", target, "iter", iter, "body", body,
                                                "orelse"), e)
                : NULL;
    Py_DECREF(ifs); Py_DECREF(target); Py_DECREF(iter);
  }
  return body;
}

enum { COMP_LIST, COMP_DICT, COMP_SET };

PyObject *fe_renamed(PyObject *node, PyObject *names) {
  if (PyList_Check(node)) {
    PyObject *r = PyList_New(PyList_GET_SIZE(node));
    for (Py_ssize_t i = 0; r && i < PyList_GET_SIZE(node); i++) {
      PyObject *item = fe_renamed(PyList_GET_ITEM(node, i), names);
      if (!item) Py_CLEAR(r);
      else PyList_SET_ITEM(r, i, item);
    }
    return r;
  }
  PyObject *fields = PyObject_GetAttrString((PyObject *)Py_TYPE(node), "_fields");
  if (!fields) {  /* a constant, an identifier: kept */
    PyErr_Clear();
    return Py_NewRef(node);
  }
  PyObject *given = PyDict_New(), *r = NULL;  /* the fields, given when the node is made (Python 3.15 requires them) */
  bool ok = given != NULL;
  for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(fields); i++) {
    PyObject *name = PyTuple_GET_ITEM(fields, i), *v = PyObject_GetAttr(node, name);
    PyObject *to = !v ? NULL : is_kind(node, "Name") && !strcmp(PyUnicode_AsUTF8(name), "id")
                                   ? Py_XNewRef(PyDict_GetItemWithError(names, v)) : NULL;
    PyObject *copy = to ? to : v && !PyErr_Occurred() ? fe_renamed(v, names) : NULL;
    if (!v) PyErr_Clear();  /* an optional field left unset */
    else ok = copy && PyDict_SetItem(given, name, copy) == 0;
    Py_XDECREF(v); Py_XDECREF(copy);
  }
  PyObject *none = ok ? PyTuple_New(0) : NULL;
  if (none) r = PyObject_Call((PyObject *)Py_TYPE(node), none, given);
  Py_XDECREF(none); Py_XDECREF(given);
  Py_DECREF(fields);
  if (r) Py_XDECREF(PyObject_CallMethod(PyImport_AddModule("ast"), "copy_location", "OO", r, node));
  return r;
}

/* The names a comprehension's target binds, each mapped to a hidden
 * name of its own (x to x.<n>) in names. */
static bool name_targets(Fe *fe, PyObject *target, PyObject *names) {
  if (is_kind(target, "Name")) {
    PyObject *id = field(target, "id");
    PyObject *hidden = PyUnicode_FromFormat("%U.%d", id, fe->ntemps++);
    bool ok = hidden && PyDict_SetItem(names, id, hidden) == 0;
    Py_DECREF(id); Py_XDECREF(hidden);
    return ok;
  }
  PyObject *inner = is_kind(target, "Starred") ? field(target, "value") : NULL;
  PyObject *elts = is_kind(target, "Tuple") || is_kind(target, "List") ? field(target, "elts") : NULL;
  bool ok = inner ? name_targets(fe, inner, names) : true;
  for (Py_ssize_t i = 0; ok && elts && i < PyList_GET_SIZE(elts); i++) ok = name_targets(fe, PyList_GET_ITEM(elts, i), names);
  Py_XDECREF(inner); Py_XDECREF(elts);
  return ok;
}

/* The comprehension e with the variables its loops bind renamed to hidden
 * ones: they are the comprehension's own, as in Python, where a variable
 * of the function of the same name keeps its value and its type. Its
 * first iterable is read where the comprehension stands, and keeps the
 * function's names. */
static PyObject *comprehension_scoped(Fe *fe, PyObject *e) {
  PyObject *gens = field(e, "generators"), *names = PyDict_New();
  for (Py_ssize_t g = 0; names && g < PyList_GET_SIZE(gens); g++) {
    PyObject *target = field(PyList_GET_ITEM(gens, g), "target");
    if (!name_targets(fe, target, names)) Py_CLEAR(names);
    Py_DECREF(target);
  }
  PyObject *first = PyList_GET_SIZE(gens) ? field(PyList_GET_ITEM(gens, 0), "iter") : NULL;
  PyObject *r = names ? fe_renamed(e, names) : NULL;
  PyObject *r_gens = r ? field(r, "generators") : NULL;
  if (r_gens && first && PyObject_SetAttrString(PyList_GET_ITEM(r_gens, 0), "iter", first) < 0) Py_CLEAR(r);
  Py_DECREF(gens); Py_XDECREF(names); Py_XDECREF(first); Py_XDECREF(r_gens);
  return r;
}

/* [elt for ...], {k: v for ...} and {elt for ...}: a hidden variable made
 * empty, filled by loops that run before the statement holding the
 * comprehension (its names are the function's, where Python gives them a
 * scope of their own). */
static Node *fe_comprehension(Fe *fe, PyObject *written, int kind) {
  bool dict = kind == COMP_DICT;
  PyObject *e = comprehension_scoped(fe, written);
  if (!e) {
    PyErr_Clear();
    return fe_error(fe, written, "cannot read this comprehension");
  }
  char name[32];
  snprintf(name, sizeof name, "$comp%d", fe->ntemps++);
  int var = add_var(fe, name);
  PyObject *gens = field(e, "generators");
  for (Py_ssize_t g = 0; g < PyList_GET_SIZE(gens); g++) {
    PyObject *gen = PyList_GET_ITEM(gens, g), *target = field(gen, "target");
    PyObject *is_async = field(gen, "is_async");
    if (PyObject_IsTrue(is_async)) fe_error(fe, e, "async comprehensions are not supported");
    collect_locals(fe, target);
    Py_DECREF(target); Py_DECREF(is_async);
  }
  PyObject *load = ast_node("Load", PyDict_New(), e);
  PyObject *result = load ? ast_node("Name", Py_BuildValue("{s:s,s:O}", "id", name, "ctx", load), e) : NULL;
  PyObject *inner = NULL;
  if (result && dict) {
    PyObject *key = field(e, "key"), *value = field(e, "value"), *store = ast_node("Store", PyDict_New(), e);
    PyObject *slot = store ? ast_node("Subscript", Py_BuildValue("{s:O,s:O,s:O}", "value", result, "slice", key, "ctx", store), e) : NULL;
    inner = slot ? ast_node("Assign", Py_BuildValue("{s:[N],s:O}", "targets", slot, "value", value), e) : NULL;
    Py_DECREF(key); Py_DECREF(value); Py_XDECREF(store);
  } else if (result) {
    PyObject *elt = field(e, "elt");
    const char *add = kind == COMP_SET ? "add" : "append";
    PyObject *method = ast_node("Attribute", Py_BuildValue("{s:O,s:s,s:O}", "value", result, "attr", add, "ctx", load), e);
    PyObject *call = method ? ast_node("Call", Py_BuildValue("{s:N,s:[O],s:[]}", "func", method, "args", elt, "keywords"), e) : NULL;
    inner = call ? ast_node("Expr", Py_BuildValue("{s:N}", "value", call), e) : NULL;
    Py_DECREF(elt);
  }
  PyObject *loops = inner ? comprehension_loops(e, gens, inner) : NULL;
  Py_XDECREF(load); Py_XDECREF(result); Py_DECREF(gens);
  Node *loop = loops && !fe->diag->kind ? fe_stmt(fe, loops) : NULL;
  Py_XDECREF(loops);
  if (!loop) {
    if (!fe->diag->kind) fe_error(fe, e, "cannot read this comprehension");
    PyErr_Clear();
    Py_DECREF(e);
    return NULL;
  }
  Node *init = new_node(fe, N_ASSIGN, e);
  init->lhs = new_node(fe, N_VAR, e);
  init->lhs->var = var;
  init->rhs = call_node(fe, e, dict ? "dict literal" : kind == COMP_SET ? "set literal" : "list literal", NULL, 0);
  fe_add_pre(fe, init);
  fe_add_pre(fe, loop);
  Node *use = new_node(fe, N_VAR, e);
  use->var = var;
  Py_DECREF(e);
  return use;
}

/* [v for v in it] (kind COMP_LIST) or {v for v in it} (COMP_SET), made
 * for the call e: whatever a for loop walks, gathered. */
static Node *items_comprehension(Fe *fe, PyObject *e, PyObject *it, int kind) {
  char name[32];
  snprintf(name, sizeof name, "$item%d", fe->ntemps++);
  PyObject *load = ast_node("Load", PyDict_New(), e), *store = ast_node("Store", PyDict_New(), e);
  PyObject *elt = load ? ast_node("Name", Py_BuildValue("{s:s,s:O}", "id", name, "ctx", load), e) : NULL;
  PyObject *target = store ? ast_node("Name", Py_BuildValue("{s:s,s:O}", "id", name, "ctx", store), e) : NULL;
  PyObject *gen = elt && target ? ast_node("comprehension", Py_BuildValue("{s:O,s:O,s:[],s:i}", "target", target, "iter",
                                           it, "ifs", "is_async", 0), e) : NULL;
  PyObject *comp = gen ? ast_node(kind == COMP_SET ? "SetComp" : "ListComp",
                                  Py_BuildValue("{s:O,s:[O]}", "elt", elt, "generators", gen), e) : NULL;
  Node *r = comp ? fe_comprehension(fe, comp, kind) : NULL;
  if (!comp && !fe->diag->kind) fe_error(fe, e, "cannot read this call");
  Py_XDECREF(load); Py_XDECREF(store); Py_XDECREF(elt); Py_XDECREF(target); Py_XDECREF(gen); Py_XDECREF(comp);
  return r;
}

/* set() is an empty set; set(x) the comprehension {v for v in x}, so that
 * it takes whatever a for loop walks, and set(v for ...) a set comprehension. */
static Node *fe_set_call(Fe *fe, PyObject *e) {
  PyObject *args = field(e, "args"), *kws = field(e, "keywords");
  Py_ssize_t n = PyList_GET_SIZE(args);
  Node *r = NULL;
  if (PyList_GET_SIZE(kws) || n > 1) r = fe_error(fe, e, "set() takes at most one argument, and no keywords");
  else if (!n) r = call_node(fe, e, "set literal", NULL, 0);
  else if (is_kind(PyList_GET_ITEM(args, 0), "GeneratorExp")) r = fe_generator_as(fe, PyList_GET_ITEM(args, 0), "SetComp");
  else r = items_comprehension(fe, e, PyList_GET_ITEM(args, 0), COMP_SET);
  Py_DECREF(args); Py_DECREF(kws);
  return r;
}

/* ---------------------------------------------------------------- map, filter, dict(pairs) */

/* The name of the builtin that e calls (a function's or a type's: zip,
 * map), or NULL where e is no call of a builtin (a global shadowing one
 * is not); the callee looked up once. */
static const char *called_builtin(Fe *fe, PyObject *e) {
  if (!is_kind(e, "Call")) return NULL;
  PyObject *func = field(e, "func"), *obj = static_object(fe, func);
  const char *name = !obj ? NULL
                     : PyCFunction_Check(obj) ? ((PyCFunctionObject *)obj)->m_ml->ml_name
                     : PyType_Check(obj) ? ((PyTypeObject *)obj)->tp_name : NULL;
  if (name && obj != PyDict_GetItemString(fe->builtins, name)) name = NULL;
  Py_XDECREF(obj);
  Py_DECREF(func);
  PyErr_Clear();
  return name;
}

/* Whether e calls typed.Dict (ruchey's, or numba.typed's where ruchey is registered as numba). */
static bool typed_dict_call(Fe *fe, PyObject *e) {
  PyObject *func = field(e, "func"), *obj = func ? static_object(fe, func) : NULL;
  bool is = obj && typed_is_dict_class(obj);
  Py_XDECREF(obj);
  Py_XDECREF(func);
  PyErr_Clear();
  return is;
}

static bool names_builtin(const char *called, const char *name) { return called && !strcmp(called, name); }

/* map(f, a, ...) and filter(f, a) as the parts of a loop, in Python's ast:
 * `target` walks `iter`; each item is `item` (map: f of the target's
 * names), kept where `keep` holds (filter's test; NULL for map). A for
 * loop over them runs f as it reaches each item, as Python's iterators do. */
typedef struct FnWalk {
  PyObject *target, *iter, *item, *keep;
} FnWalk;

static void fn_walk_clear(FnWalk *w) {
  Py_XDECREF(w->target); Py_XDECREF(w->iter); Py_XDECREF(w->item); Py_XDECREF(w->keep);
}

static PyObject *name_ast(const char *id, const char *ctx, PyObject *loc) {
  PyObject *c = ast_node(ctx, PyDict_New(), loc);
  return c ? ast_node("Name", Py_BuildValue("{s:s,s:N}", "id", id, "ctx", c), loc) : NULL;
}

/* Whether name, read in this function at loc, is Python's builtin of that
 * name (no local, global or closure variable shadows it). */
static bool name_is_builtin(Fe *fe, const char *name, PyObject *loc) {
  PyObject *n = name_ast(name, "Load", loc), *obj = n ? static_object(fe, n) : NULL;
  bool is = obj && obj == PyDict_GetItemString(fe->builtins, name);
  Py_XDECREF(n); Py_XDECREF(obj);
  PyErr_Clear();
  return is;
}

/* The hidden names an item of each of n iterables is walked in: a list of
 * n Name nodes of context ctx. */
static PyObject *walk_names(int id, Py_ssize_t n, const char *ctx, PyObject *loc) {
  PyObject *names = PyList_New(n);
  for (Py_ssize_t i = 0; names && i < n; i++) {
    char name[40];
    snprintf(name, sizeof name, "$fn%d_%zd", id, i);
    PyObject *v = name_ast(name, ctx, loc);
    if (!v) Py_CLEAR(names);
    else PyList_SET_ITEM(names, i, v);
  }
  return names;
}

/* A loop's target over n iterables walked together, of hidden names: the
 * one Name, or a Tuple of them; *loads the list of the names read. NULL
 * (and *loads NULL) with a Python error. */
static PyObject *hidden_target(Fe *fe, Py_ssize_t n, PyObject *loc, PyObject **loads) {
  int id = fe->ntemps++;
  *loads = walk_names(id, n, "Load", loc);
  PyObject *stores = *loads ? walk_names(id, n, "Store", loc) : NULL, *target = NULL;
  if (stores && n == 1) {
    target = Py_NewRef(PyList_GET_ITEM(stores, 0));
  } else if (stores) {
    PyObject *store = ast_node("Store", PyDict_New(), loc);
    target = store ? ast_node("Tuple", Py_BuildValue("{s:O,s:N}", "elts", stores, "ctx", store), loc) : NULL;
  }
  Py_XDECREF(stores);
  if (!target) Py_CLEAR(*loads);
  return target;
}

/* Fills w for the call e of map (is_filter false) or filter; false with the
 * error when the call is not one compiled code takes. */
static bool fn_walk(Fe *fe, PyObject *e, bool is_filter, FnWalk *w) {
  PyObject *args = field(e, "args"), *kws = field(e, "keywords");
  Py_ssize_t n = PyList_GET_SIZE(args) - 1;
  *w = (FnWalk){0};
  if (PyList_GET_SIZE(kws) || n < 1 || (is_filter && n != 1)) {
    fe_error(fe, e, is_filter ? "filter() takes a function (or None) and one iterable"
                              : "map() takes a function and at least one iterable, and no keywords");
  } else if ((n > 1 || fe_has_starred(e)) && !name_is_builtin(fe, "zip", e)) {
    fe_error(fe, e, "map() of several iterables walks them with zip, which a global of this module shadows");
  } else {
    /* map(f, *t): walked as zip(*t), each item (a tuple) spread into f's arguments */
    bool spread = !is_filter && fe_has_starred(e);
    PyObject *f = PyList_GET_ITEM(args, 0), *loads, *seqs = PyList_GetSlice(args, 1, n + 1);
    w->target = hidden_target(fe, spread ? 1 : n, e, &loads);
    if (w->target && seqs)
      w->iter = n == 1 && !spread ? Py_NewRef(PyList_GET_ITEM(seqs, 0))
                                  : ast_node("Call", Py_BuildValue("{s:N,s:O,s:[]}", "func", name_ast("zip", "Load", e), "args",
                                                                   seqs, "keywords"), e);
    PyObject *first = loads ? PyList_GET_ITEM(loads, 0) : NULL;
    if (first && spread) {
      PyObject *load = ast_node("Load", PyDict_New(), e);
      PyObject *star = load ? ast_node("Starred", Py_BuildValue("{s:O,s:N}", "value", first, "ctx", load), e) : NULL;
      w->item = star ? ast_node("Call", Py_BuildValue("{s:O,s:[N],s:[]}", "func", f, "args", star, "keywords"), e) : NULL;
    } else if (first && !is_filter) {
      w->item = ast_node("Call", Py_BuildValue("{s:O,s:O,s:[]}", "func", f, "args", loads, "keywords"), e);
    } else if (first) {
      w->item = Py_NewRef(first);
      w->keep = is_none_constant(f) ? Py_NewRef(first)
                                    : ast_node("Call", Py_BuildValue("{s:O,s:[O],s:[]}", "func", f, "args", first, "keywords"), e);
    }
    Py_XDECREF(loads); Py_XDECREF(seqs);
    if (!w->target || !w->iter || !w->item || (is_filter && !w->keep)) {
      fn_walk_clear(w);
      PyErr_Clear();
      fe_error(fe, e, "cannot read this call");
    }
  }
  Py_DECREF(args); Py_DECREF(kws);
  return !fe->diag->kind;
}

/* map(...) or filter(...) outside a for loop's header (list(map(f, a)),
 * sum(filter(g, a))): the list of its items, as [f(x) for x in a] and
 * [x for x in a if g(x)] make it. */
static Node *fe_fn_call(Fe *fe, PyObject *e, bool is_filter) {
  FnWalk w;
  if (!fn_walk(fe, e, is_filter, &w)) return NULL;
  PyObject *gen = ast_node("comprehension", Py_BuildValue("{s:O,s:O,s:N,s:i}", "target", w.target, "iter", w.iter, "ifs",
                                                          w.keep ? Py_BuildValue("[O]", w.keep) : PyList_New(0), "is_async", 0), e);
  PyObject *comp = gen ? ast_node("ListComp", Py_BuildValue("{s:O,s:[N]}", "elt", w.item, "generators", gen), e) : NULL;
  fn_walk_clear(&w);
  Node *r = comp ? fe_comprehension(fe, comp, COMP_LIST) : NULL;
  if (!comp && !fe->diag->kind) fe_error(fe, e, "cannot read this call");
  PyErr_Clear();
  Py_XDECREF(comp);
  return r;
}

static Node *fe_map_call(Fe *fe, PyObject *e) { return fe_fn_call(fe, e, false); }
static Node *fe_filter_call(Fe *fe, PyObject *e) { return fe_fn_call(fe, e, true); }

/* dict(pairs) with one iterable of pairs (dict(zip(keys, values))): the
 * comprehension {k: v for k, v in pairs}; dict() stays the empty dict. */
static Node *fe_dict_call(Fe *fe, PyObject *e) {
  PyObject *args = field(e, "args"), *kws = field(e, "keywords");
  bool pairs = PyList_GET_SIZE(args) == 1 && !PyList_GET_SIZE(kws);
  Node *r = NULL;
  if (!pairs) {
    r = fe_call(fe, e);
  } else {
    PyObject *loads, *target = hidden_target(fe, 2, e, &loads);
    PyObject *gen = target ? ast_node("comprehension", Py_BuildValue("{s:N,s:O,s:[],s:i}", "target", target, "iter",
                                                                     PyList_GET_ITEM(args, 0), "ifs", "is_async", 0), e) : NULL;
    PyObject *comp = gen ? ast_node("DictComp", Py_BuildValue("{s:O,s:O,s:[N]}", "key", PyList_GET_ITEM(loads, 0), "value",
                                                              PyList_GET_ITEM(loads, 1), "generators", gen), e) : NULL;
    Py_XDECREF(loads);
    r = comp ? fe_comprehension(fe, comp, COMP_DICT) : NULL;
    if (!comp && !fe->diag->kind) fe_error(fe, e, "cannot read this call");
    PyErr_Clear();
    Py_XDECREF(comp);
  }
  Py_DECREF(args); Py_DECREF(kws);
  return r;
}

/* zip(...) and enumerate(...) outside a for loop's header (list(zip(a,
 * b)), sorted(enumerate(x))): a list of the tuples a for loop over them
 * walks. */
static Node *fe_walk_call(Fe *fe, PyObject *e) { return items_comprehension(fe, e, e, COMP_LIST); }

/* The builtins whose calls are comprehensions, each with its maker. */
static const struct {
  const char *name;
  Node *(*make)(Fe *, PyObject *);
} comprehended_calls[] = {
  {"set", fe_set_call}, {"dict", fe_dict_call}, {"map", fe_map_call}, {"filter", fe_filter_call},
  {"zip", fe_walk_call}, {"enumerate", fe_walk_call},
};

/* A call: one of comprehended_calls' builtins made by its maker, any other
 * by fe_call. */
static Node *fe_call_expr(Fe *fe, PyObject *e) {
  if (typed_dict_call(fe, e)) return fe_dict_call(fe, e);  /* typed.Dict(pairs), as dict(pairs) */
  const char *builtin = called_builtin(fe, e);
  for (size_t i = 0; builtin && i < sizeof comprehended_calls / sizeof *comprehended_calls; i++)
    if (!strcmp(builtin, comprehended_calls[i].name)) return comprehended_calls[i].make(fe, e);
  return fe_call(fe, e);
}

static const struct { const char *kind, *what; } unsupported_exprs[] = {
  {"GeneratorExp", "generator expressions"},
  {"Await", "await"},
  {"Yield", "the values of yield expressions (a generator's send())"},
  {"YieldFrom", "delegating generators (yield from)"},
  {"NamedExpr", "the walrus operator"}, {"Starred", "starred expressions"},
  {"Slice", "slices"},
};

Node *fe_expr(Fe *fe, PyObject *e) {
  if (fe->diag->kind || !fe_room(fe, e)) return NULL;
  const char *k = ast_kind(e);
  if (!strcmp(k, "Constant")) return fe_constant(fe, e);
  if (!strcmp(k, "Name")) return fe_name(fe, e);
  if (!strcmp(k, "BinOp")) return fe_binop(fe, e);
  if (!strcmp(k, "UnaryOp")) return fe_unary(fe, e);
  if (!strcmp(k, "Compare")) return fe_compare(fe, e);
  if (!strcmp(k, "BoolOp")) return fe_boolop(fe, e);
  if (!strcmp(k, "IfExp")) return fe_ifexp(fe, e);
  if (!strcmp(k, "Call")) return fe_call_expr(fe, e);
  if (!strcmp(k, "Subscript")) return fe_subscript(fe, e);
  if (!strcmp(k, "Attribute")) return fe_attribute(fe, e);
  if (!strcmp(k, "Tuple")) return fe_tuple(fe, e);
  if (!strcmp(k, "Lambda")) return fe_lambda(fe, e);
  if (!strcmp(k, "List")) return fe_items_literal(fe, e, "list literal");
  if (!strcmp(k, "Dict")) return fe_dict(fe, e);
  if (!strcmp(k, "Set")) return fe_items_literal(fe, e, "set literal");
  if (!strcmp(k, "ListComp")) return fe_comprehension(fe, e, COMP_LIST);
  if (!strcmp(k, "DictComp")) return fe_comprehension(fe, e, COMP_DICT);
  if (!strcmp(k, "SetComp")) return fe_comprehension(fe, e, COMP_SET);
  if (!strcmp(k, "JoinedStr")) return fe_fstring(fe, e);
  for (size_t i = 0; i < sizeof unsupported_exprs / sizeof unsupported_exprs[0]; i++)
    if (!strcmp(k, unsupported_exprs[i].kind))
      return fe_error(fe, e, "%s are not supported in compiled code", unsupported_exprs[i].what);
  return fe_error(fe, e, "expression '%s' is not supported in compiled code", k);
}

/* ---------------------------------------------------------------- statements */

/* An assignment target: a local name, an array element, or a tuple of targets. */
static Node *fe_target(Fe *fe, PyObject *t) {
  if (is_kind(t, "Name") || is_kind(t, "Subscript") || is_kind(t, "Attribute")) {  /* r.x: a record's field */
    Node *n = fe_expr(fe, t);
    if (n && n->kind != N_VAR && n->kind != N_INDEX && n->kind != N_ATTR)
      return fe_error(fe, t, "cannot assign to this name");
    return n;
  }
  if (is_kind(t, "Tuple") || is_kind(t, "List")) {
    PyObject *elts = field(t, "elts");
    Node *n = new_node(fe, N_TUPLE, t);
    n->list = new_list(fe, (int)PyList_GET_SIZE(elts));
    bool ok = true;
    for (int i = 0; ok && i < n->list.len; i++)
      ok = (n->list.items[i] = fe_target(fe, PyList_GET_ITEM(elts, i))) != NULL;
    Py_DECREF(elts);
    return ok ? n : NULL;
  }
  return fe_error(fe, t, "assignment to '%s' is not supported", ast_kind(t));
}

/* _sqrt, _exp = sqrt, exp: names of builtins (fe_collect_aliases), bound by nothing at run time. */
static bool binds_aliases(Fe *fe, PyObject *targets) {
  if (PyList_GET_SIZE(targets) != 1) return false;
  PyObject *t = PyList_GET_ITEM(targets, 0), *names = is_kind(t, "Tuple") ? field(t, "elts") : NULL;
  bool all = names ? PyList_GET_SIZE(names) > 0 : is_kind(t, "Name");
  for (Py_ssize_t i = 0; all && i < (names ? PyList_GET_SIZE(names) : 1); i++) {
    PyObject *name = names ? PyList_GET_ITEM(names, i) : t, *id = is_kind(name, "Name") ? field(name, "id") : NULL;
    all = id && fe_is_alias(fe, id);
    Py_XDECREF(id);
  }
  Py_XDECREF(names);
  return all;
}

/* Whether x holds literal_unroll(t): the call, or a variable noted so. */
static bool holds_unrolled(Fe *fe, const Node *x) {
  if (x->kind == N_CALL && x->bi && !strcmp(x->bi->name, "literal_unroll")) return true;
  if (x->kind != N_VAR || !fe->unrolled) return false;
  PyObject *name = PyUnicode_FromString(fe->vars[x->var]);
  bool held = name && PySet_Contains(fe->unrolled, name) == 1;
  Py_XDECREF(name);
  PyErr_Clear();
  return held;
}

/* v = value: v noted as holding literal_unroll(t) where value does, as
 * Numba follows such a variable (and another assigned it) to the loop
 * that walks it (fe_for); any other value forgets it. */
static bool note_unrolled(Fe *fe, PyObject *target, const Node *value) {
  if (!is_kind(target, "Name") || (!fe->unrolled && !holds_unrolled(fe, value))) return true;
  if (!fe->unrolled && !(fe->unrolled = PySet_New(NULL))) return false;
  PyObject *id = field(target, "id");
  bool ok = (holds_unrolled(fe, value) ? PySet_Add(fe->unrolled, id) : PySet_Discard(fe->unrolled, id)) >= 0;
  Py_DECREF(id);
  return ok;
}

/* c[f()] = g(): where the target's index went before the statement
 * (index_once), the value goes before it, in a hidden variable, so that
 * g runs before f as Python runs them; the statements at pre[mark] on
 * move after it. */
static Node *value_before(Fe *fe, PyObject *s, Node *rhs, int mark) {
  int var = fe_assign_before(fe, s, "value", rhs);
  Node *assign = fe->pre.items[fe->pre.len - 1];
  memmove(fe->pre.items + mark + 1, fe->pre.items + mark, sizeof(Node *) * (size_t)(fe->pre.len - 1 - mark));
  fe->pre.items[mark] = assign;
  return fe_var_node(fe, s, var);
}

static Node *fe_assign(Fe *fe, PyObject *s) {
  PyObject *targets = field(s, "targets"), *value = field(s, "value");
  if (binds_aliases(fe, targets)) {
    Py_DECREF(targets); Py_DECREF(value);
    return new_node(fe, N_PASS, s);
  }
  Node *n = NULL;
  int nt = (int)PyList_GET_SIZE(targets);
  if (nt == 1 && ((n = fe_inlined_call(fe, s, value)) || fe->diag->kind)) {
    Py_DECREF(targets); Py_DECREF(value);
    return n;
  }
  bool lambda = nt == 1 && (is_kind(value, "Lambda") || fe_is_closure(fe, value)) &&
                is_kind(PyList_GET_ITEM(targets, 0), "Name");
  Node *type = nt == 1 && !lambda ? fe_assign_type(fe, s, PyList_GET_ITEM(targets, 0), value) : NULL;
  if (!type && nt == 1 && !lambda) type = fe_assign_exception(fe, s, PyList_GET_ITEM(targets, 0), value);
  fe->first_value = value;
  Node *rhs = lambda || type ? NULL : fe_expr(fe, value);
  fe->first_value = NULL;
  if (type) {
    n = type;
  } else if (lambda) {
    n = fe_lambda_assign(fe, s, PyList_GET_ITEM(targets, 0), value);
  } else if (rhs && nt == 1) {
    n = new_node(fe, N_ASSIGN, s);
    n->rhs = rhs;
    int mark = fe->pre.len;
    fe->first_value = PyList_GET_ITEM(targets, 0);  /* (its calls go after the value: value_before) */
    n->lhs = fe_target(fe, fe->first_value);
    fe->first_value = NULL;
    if (!n->lhs) n = NULL;
    else if (fe->pre.len > mark && !effect_free(rhs)) n->rhs = value_before(fe, s, rhs, mark);
    if (n && !note_unrolled(fe, PyList_GET_ITEM(targets, 0), rhs)) n = NULL;
  } else if (rhs) {
    /* a = b = value: evaluate once into a hidden temporary, then assign it
     * to each target in order, as Python does. */
    char tmp[32];
    snprintf(tmp, sizeof tmp, "$chain%d", fe->ntemps++);
    Node *tv = new_node(fe, N_VAR, s);
    tv->var = add_var(fe, tmp);
    n = new_node(fe, N_BLOCK, s);
    n->body = new_list(fe, nt + 1);
    Node *first = new_node(fe, N_ASSIGN, s);
    first->lhs = tv;
    first->rhs = rhs;
    n->body.items[0] = first;
    for (int i = 0; n && i < nt; i++) {
      Node *a = new_node(fe, N_ASSIGN, s);
      Node *use = new_node(fe, N_VAR, s);
      use->var = tv->var;
      a->rhs = use;
      if (!(a->lhs = fe_target(fe, PyList_GET_ITEM(targets, i)))) n = NULL;
      else n->body.items[i + 1] = a;
    }
  }
  Py_DECREF(targets); Py_DECREF(value);
  return n;
}

/* x: T = value is x = value (the annotation is Python's alone, as in
 * Numba); x: T alone does nothing. */
static Node *fe_annassign(Fe *fe, PyObject *s) {
  PyObject *t = field(s, "target"), *v = field(s, "value");
  Node *n = new_node(fe, N_PASS, s);
  if (v != Py_None) {
    n->kind = N_ASSIGN;
    if (!(n->rhs = fe_expr(fe, v)) || !(n->lhs = fe_target(fe, t))) n = NULL;
  }
  Py_DECREF(t); Py_DECREF(v);
  return n;
}

static Node *fe_augassign(Fe *fe, PyObject *s) {
  PyObject *t = field(s, "target"), *op = field(s, "op"), *v = field(s, "value");
  Node *n = fe_inlined_call(fe, s, v);
  if (n || fe->diag->kind) {
    Py_DECREF(t); Py_DECREF(op); Py_DECREF(v);
    return n;
  }
  n = new_node(fe, N_AUGASSIGN, s);
  n->op = op_from_ast(op);
  fe->first_value = t;  /* x[i] += v: the target's index is evaluated first */
  n->lhs = fe_target(fe, t);
  fe->first_value = NULL;
  n->rhs = n->lhs ? fe_expr(fe, v) : NULL;
  if (n->lhs && n->lhs->kind == N_TUPLE) n = fe_error(fe, s, "illegal augmented assignment");
  else if (n->rhs && n->op < 0)  /* @=: Numba refuses it too; x = x @ y says whether a new array is meant */
    n = fe_error(fe, s, "in-place matrix multiplication (x @= y) is not supported in compiled code: write x = x @ y");
  else if (!n->rhs) n = NULL;
  Py_DECREF(t); Py_DECREF(op); Py_DECREF(v);
  return n;
}

/* while n->cond: n->body, where the condition has statements to run before
 * it each time (a comprehension): while True: stmts; if cond: pass;
 * else: break; body. (An else clause would run on that break: refused.) */
static Node *while_first(Fe *fe, PyObject *s, Node *n, const NodeList *stmts) {
  if (n->orelse.len)
    return fe_error(fe, s, "a comprehension in the condition of a while loop with an else clause is not supported "
                    "in compiled code: assign it to a variable first");
  NodeList pass = new_list(fe, 1), leave = new_list(fe, 1), body = new_list(fe, stmts->len + 1 + n->body.len);
  pass.items[0] = new_node(fe, N_PASS, s);
  leave.items[0] = new_node(fe, N_BREAK, s);
  for (int i = 0; i < stmts->len; i++) body.items[i] = stmts->items[i];
  body.items[stmts->len] = if_node(fe, s, n->cond, pass, leave);
  for (int i = 0; i < n->body.len; i++) body.items[stmts->len + 1 + i] = n->body.items[i];
  n->body = body;
  n->cond = new_node(fe, N_BOOL, s);
  n->cond->ival = 1;
  return n;
}

/* if/while: test, body, orelse. */
static Node *fe_cond_stmt(Fe *fe, PyObject *s, NodeKind kind) {
  PyObject *t = field(s, "test"), *b = field(s, "body"), *o = field(s, "orelse");
  Node *n = new_node(fe, kind, s);
  NodeList first = {0};
  n->cond = kind == N_WHILE ? fe_branch_expr(fe, t, &first) : fe_expr(fe, t);
  bool ok = n->cond && fe_block(fe, b, &n->body) && fe_block(fe, o, &n->orelse);
  Py_DECREF(t); Py_DECREF(b); Py_DECREF(o);
  return !ok ? NULL : first.len ? while_first(fe, s, n, &first) : n;
}

/* ---------------------------------------------------------------- for loops */

/* A for loop over anything but a range becomes a loop over a hidden
 * counter, so that every later stage sees a counted loop:
 *     for target in seq: body   ->   $seq = seq
 *                                     for $k in range(len($seq)):
 *                                         target = $seq[$k]; body
 * enumerate and zip (of arrays, ranges, and of each other) nest the same
 * way, the counter running to the shortest length. What is iterated is
 * evaluated once, before the loop, as Python does; its elements are read
 * as the loop reaches them (rows of an N-d array are views). */
typedef struct Walk {
  Node *pre[64];   /* statements before the loop: the sequences, evaluated once */
  int npre;
  Node *len[64];   /* their lengths */
  int nlen;
  int k;           /* the counter's variable */
  bool parallel;   /* the counter is a prange's (ruchey.pndindex) */
} Walk;

static Node *var_node(Fe *fe, int var, PyObject *e) {
  Node *v = new_node(fe, N_VAR, e);
  v->var = var;
  return v;
}

static int hidden_var(Fe *fe, const char *what) {
  char name[32];
  snprintf(name, sizeof name, "$%s%d", what, fe->ntemps++);
  return add_var(fe, name);
}

static Node *call_node(Fe *fe, PyObject *e, const char *builtin, Node **args, int n) {
  Node *c = new_node(fe, N_CALL, e);
  c->bi = core_builtin_named(builtin);
  c->list = new_list(fe, n);
  for (int i = 0; i < n; i++) c->list.items[i] = args[i];
  return c;
}

/* with parallel_chunksize(n): body  ->
 *   before = set_parallel_chunksize(n)
 *   try: body
 *   finally: set_parallel_chunksize(before) */
Node *fe_with_chunksize(Fe *fe, PyObject *s, PyObject *call) {
  PyObject *args = field(call, "args"), *kws = field(call, "keywords"), *body = field(s, "body");
  bool alone = PyList_GET_SIZE(args) == 1 && !PyList_GET_SIZE(kws);
  Node *size = alone ? fe_expr(fe, PyList_GET_ITEM(args, 0)) : fe_error(fe, call, "parallel_chunksize() takes the chunksize alone");
  int before = hidden_var(fe, "chunksize");
  Node *block = new_node(fe, N_BLOCK, s), *set = new_node(fe, N_ASSIGN, s), *guarded = new_node(fe, N_TRY, s);
  Node *restore = new_node(fe, N_EXPR, s), *previous = var_node(fe, before, s);
  set->lhs = var_node(fe, before, s);
  set->rhs = call_node(fe, call, "set_parallel_chunksize", &size, 1);
  restore->lhs = call_node(fe, s, "set_parallel_chunksize", &previous, 1);
  guarded->lhs = new_node(fe, N_BLOCK, s);
  guarded->lhs->body = new_list(fe, 1);
  guarded->lhs->body.items[0] = restore;
  block->body = new_list(fe, 2);
  block->body.items[0] = set;
  block->body.items[1] = guarded;
  bool ok = size && fe_block(fe, body, &guarded->body);
  Py_DECREF(args); Py_DECREF(kws); Py_DECREF(body);
  return ok ? block : NULL;
}

static Node *binop_node(Fe *fe, PyObject *e, int op, Node *a, Node *b) {
  Node *n = new_node(fe, N_BINOP, e);
  n->op = op;
  n->lhs = a;
  n->rhs = b;
  return n;
}

static Node *int_node(Fe *fe, PyObject *e, int64_t v) {
  Node *n = new_node(fe, N_INT, e);
  n->ival = v;
  return n;
}

/* value evaluated once, before the loop, into a hidden variable (its
 * number); -1 (with the error) past the limit. */
static int evaluated_once(Fe *fe, Walk *w, PyObject *e, Node *value) {
  if (w->npre == 64) {
    fe_error(fe, e, "this for loop iterates over too many sequences");
    return -1;
  }
  int var = hidden_var(fe, "seq");
  Node *a = new_node(fe, N_ASSIGN, e);
  a->lhs = var_node(fe, var, e);
  a->rhs = value;
  w->pre[w->npre++] = a;
  return var;
}

static Node *walk_element(Fe *fe, Walk *w, PyObject *it, Node *seq);

/* range(start, stop, step) walked: start + k * step, to its length. */
static Node *walk_range(Fe *fe, Walk *w, PyObject *it, Node *r) {
  if (r->bi->flags & BF_PARALLEL)
    return fe_error(fe, it, "prange() can only be the iterable of a for loop itself");
  if (r->kw.len) return fe_error(fe, it, "range() takes no keyword arguments");
  Node *uses[3];
  for (int i = 0; i < r->list.len; i++) {
    int var = evaluated_once(fe, w, it, r->list.items[i]);
    if (var < 0) return NULL;
    uses[i] = var_node(fe, var, it);
  }
  Node *range = call_node(fe, it, "range", uses, r->list.len);
  w->len[w->nlen++] = call_node(fe, it, "len", &range, 1);
  Node *start = r->list.len > 1 ? var_node(fe, uses[0]->var, it) : int_node(fe, it, 0);
  Node *step = r->list.len == 3 ? var_node(fe, uses[2]->var, it) : int_node(fe, it, 1);
  return binop_node(fe, it, OP_ADD, start, binop_node(fe, it, OP_MUL, var_node(fe, w->k, it), step));
}

static Node *tuple_node(Fe *fe, PyObject *e, int n) {
  Node *t = new_node(fe, N_TUPLE, e);
  t->list = new_list(fe, n);
  return t;
}

/* enumerate's start: its second argument, or its keyword start (borrowed
 * from the call's tree), or NULL; false (with the error) for others. */
static bool enumerate_start(Fe *fe, PyObject *it, PyObject *args, PyObject *kws, PyObject **start) {
  Py_ssize_t na = PyList_GET_SIZE(args), nk = PyList_GET_SIZE(kws);
  *start = na == 2 ? PyList_GET_ITEM(args, 1) : NULL;
  if (na < 1 || na + nk > 2) return fe_error(fe, it, "enumerate() takes a sequence and a start") != NULL;
  if (!nk) return true;
  PyObject *kw = PyList_GET_ITEM(kws, 0), *arg = field(kw, "arg"), *value = field(kw, "value");
  bool ok = arg != Py_None && !strcmp(PyUnicode_AsUTF8(arg), "start");
  if (ok) *start = value;  /* the tree holds it */
  Py_DECREF(arg); Py_DECREF(value);
  return ok || fe_error(fe, it, "enumerate() takes no keyword argument but start") != NULL;
}

/* enumerate(seq, start=0): (start + k, seq's element). */
static Node *walk_enumerate(Fe *fe, Walk *w, PyObject *it) {
  PyObject *args = field(it, "args"), *kws = field(it, "keywords"), *start;
  Node *t = NULL, *elem, *first = NULL;
  if (enumerate_start(fe, it, args, kws, &start) && (elem = walk_element(fe, w, PyList_GET_ITEM(args, 0), NULL)) &&
      (first = start ? fe_expr(fe, start) : int_node(fe, it, 0))) {
    if (first->kind != N_INT) first = call_node(fe, it, "operator.index", &first, 1);  /* an int, as Python's start */
    int var = first->kind == N_INT ? -1 : evaluated_once(fe, w, it, first);
    if (var >= 0) first = var_node(fe, var, it);
    if (!fe->diag->kind) {
      t = tuple_node(fe, it, 2);
      t->list.items[0] = binop_node(fe, it, OP_ADD, first, var_node(fe, w->k, it));
      t->list.items[1] = elem;
    }
  }
  Py_DECREF(args); Py_DECREF(kws);
  return t;
}

/* zip(a, b, ...): a tuple of their elements, to the shortest. */
/* zip(..., *t, ...)'s part for *t: the tuple of the items of t's sequences
 * at the counter, t's length and items known once typed (tuples.c). */
static Node *walk_spread(Fe *fe, Walk *w, PyObject *starred) {
  PyObject *value = field(starred, "value");
  Node *seqs = fe_expr(fe, value);
  int var = seqs ? evaluated_once(fe, w, value, seqs) : -1;
  Node *part = NULL;
  if (var >= 0) {
    Node *use = var_node(fe, var, value), *at[2] = {var_node(fe, var, value), var_node(fe, w->k, value)};
    w->len[w->nlen++] = call_node(fe, value, "zip spread len", &use, 1);
    part = call_node(fe, value, "zip spread at", at, 2);
  }
  Py_DECREF(value);
  return part;
}

/* zip(a, b, ...): the tuple of each sequence's item; with *t among them,
 * the sum of the tuples each run of arguments makes, as Python spreads t. */
static Node *walk_zip(Fe *fe, Walk *w, PyObject *it) {
  PyObject *args = field(it, "args"), *kws = field(it, "keywords");
  Node *t = NULL;
  int na = (int)PyList_GET_SIZE(args);
  bool spread = fe_has_starred(it);
  if (PyList_GET_SIZE(kws))
    fe_error(fe, it, "zip() keyword arguments (strict=) are not supported");
  else if ((t = tuple_node(fe, it, spread ? 0 : na)) && na == 0)
    w->len[w->nlen++] = int_node(fe, it, 0);  /* zip() yields nothing, as Python's */
  for (int i = 0; t && !spread && i < na; i++)
    if (!(t->list.items[i] = walk_element(fe, w, PyList_GET_ITEM(args, i), NULL))) t = NULL;
  for (int i = 0; t && spread && i < na; i++) {
    PyObject *a = PyList_GET_ITEM(args, i);
    Node *part = is_kind(a, "Starred") ? walk_spread(fe, w, a) : tuple_node(fe, a, 1);
    if (part && part->kind == N_TUPLE && !(part->list.items[0] = walk_element(fe, w, a, NULL))) part = NULL;
    t = part ? (i ? binop_node(fe, a, OP_ADD, t, part) : part) : NULL;
  }
  Py_DECREF(args); Py_DECREF(kws);
  return t;
}

/* Which of NumPy's index iterators `it` calls (or ruchey.pndindex, Numba's
 * parallel ndindex). */
static int numpy_index_iterator(Fe *fe, PyObject *it) {
  if (!is_kind(it, "Call")) return NP_ITER_NONE;
  static const struct { const char *module, *name; } iterators[] = {
    {"numpy", "ndindex"}, {"numpy", "ndenumerate"}, {"numpy", "nditer"}, {"ruchey", "pndindex"}};
  PyObject *func = field(it, "func"), *obj = static_object(fe, func);
  int which = NP_ITER_NONE;
  for (int i = 0; obj && i < 4 && !which; i++) {
    PyObject *module = PyImport_ImportModule(iterators[i].module);
    PyObject *f = module ? PyObject_GetAttrString(module, iterators[i].name) : NULL;
    if (f == obj) which = NP_ITER_NDINDEX + i;
    Py_XDECREF(f); Py_XDECREF(module);
  }
  PyErr_Clear();
  Py_XDECREF(obj); Py_DECREF(func);
  return which;
}

/* What numpy.ndindex(...) walks (its shape: its one argument, its
 * arguments as a tuple, or the tuple its starred ones make), or
 * ndenumerate's one array, nditer's array or tuple of operands. */
static Node *ndindex_operand(Fe *fe, PyObject *it, int which) {
  PyObject *args = field(it, "args"), *kws = field(it, "keywords");
  int na = (int)PyList_GET_SIZE(args);
  bool one = which != NP_ITER_NDINDEX;
  Node *shape = NULL;
  if (PyList_GET_SIZE(kws) || (one ? na != 1 : na < 1))
    fe_error(fe, it, which == NP_ITER_NDENUMERATE ? "numpy.ndenumerate() takes one array"
                     : which == NP_ITER_NDITER   ? "numpy.nditer() takes one array or a tuple of operands (no "
                                                   "flags) in compiled code"
                                                 : "numpy.ndindex() takes a shape");
  else if (fe_has_starred(it))  /* ndindex(*a.shape), ndindex(n, *rest): the shape packed into one tuple */
    shape = fe_spread_args(fe, it), na = 1;
  else if (na == 1)
    shape = fe_expr(fe, PyList_GET_ITEM(args, 0));
  else
    shape = tuple_node(fe, it, na);
  for (int i = 0; shape && na > 1 && i < na; i++)
    if (!(shape->list.items[i] = fe_expr(fe, PyList_GET_ITEM(args, i)))) shape = NULL;
  Py_DECREF(args); Py_DECREF(kws);
  return shape;
}

/* numpy.ndindex(shape) (or ndindex(d0, d1, ...)): the counter unravelled
 * into a tuple of indices; numpy.ndenumerate(a): (that index, a[index]);
 * numpy.nditer(a): a 0-d view of a at that index. */
static Node *walk_ndindex(Fe *fe, Walk *w, PyObject *it, int which) {
  if (which == NP_ITER_PNDINDEX) {  /* ndindex over a prange's counter */
    w->parallel = true;
    which = NP_ITER_NDINDEX;
  }
  Node *shape = ndindex_operand(fe, it, which);
  int var = shape ? evaluated_once(fe, w, it, shape) : -1;
  if (var < 0) return NULL;
  bool nditer = which == NP_ITER_NDITER;
  Node *use = var_node(fe, var, it), *at[2] = {var_node(fe, var, it), var_node(fe, w->k, it)};
  w->len[w->nlen++] = call_node(fe, it, nditer ? "nditer size" : "ndindex size", &use, 1);
  Node *index = call_node(fe, it, nditer ? "nditer at" : "ndindex at", at, 2);
  if (which != NP_ITER_NDENUMERATE) return index;
  Node *t = tuple_node(fe, it, 2), *elem = new_node(fe, N_INDEX, it);
  elem->lhs = var_node(fe, var, it);
  elem->rhs = index;
  t->list.items[0] = call_node(fe, it, "ndindex at", at, 2);
  t->list.items[1] = elem;
  return t;
}

/* The element at the counter of what `it` iterates (seq: it converted
 * already, or NULL). */
static Node *walk_element(Fe *fe, Walk *w, PyObject *it, Node *seq) {
  if (w->nlen == 64) return fe_error(fe, it, "this for loop iterates over too many sequences");
  const char *builtin = seq ? NULL : called_builtin(fe, it);
  if (names_builtin(builtin, "enumerate")) return walk_enumerate(fe, w, it);
  if (names_builtin(builtin, "zip")) return walk_zip(fe, w, it);
  int numpy_iter = seq ? 0 : numpy_index_iterator(fe, it);
  if (numpy_iter) return walk_ndindex(fe, w, it, numpy_iter);
  if (!seq && !(seq = fe_long_tuple(fe, it)) && !(seq = fe_expr(fe, it))) return NULL;
  if (seq->kind == N_CALL && seq->bi && (seq->bi->flags & BF_RANGE)) return walk_range(fe, w, it, seq);
  const char *part = "iteration";  /* d.keys(), d.values(), d.items(): d walked for that part */
  if (seq->kind == N_CALL && !seq->bi && seq->list.len == 1 && !seq->kw.len) {
    static const char *const parts[][2] = {{"keys", "iteration"}, {"values", "iteration values"}, {"items", "iteration items"}};
    for (int i = 0; i < 3; i++)
      if (!strcmp(seq->str, parts[i][0])) {
        part = parts[i][1];
        seq = seq->list.items[0];
        break;
      }
  }
  int var = evaluated_once(fe, w, it, seq);
  if (var < 0) return NULL;
  Node *use = var_node(fe, var, it);
  w->len[w->nlen++] = call_node(fe, it, "len", &use, 1);
  Node *e = new_node(fe, N_INDEX, it);
  e->str = part;
  e->lhs = var_node(fe, var, it);
  e->rhs = var_node(fe, w->k, it);
  return e;
}

/* for target in seq: the block of the walk's statements and the counted loop. */
static Node *fe_for_each(Fe *fe, PyObject *s, PyObject *t, PyObject *it, Node *seq, PyObject *b, PyObject *o) {
  Walk *w = arena_alloc(fe->arena, sizeof(Walk));
  w->k = hidden_var(fe, "k");
  Node *elem = walk_element(fe, w, it, seq);
  Node *bind = new_node(fe, N_ASSIGN, t);
  NodeList body;
  Node *loop = new_node(fe, N_FOR, s);
  if (!elem || !(bind->lhs = fe_target(fe, t)) || !fe_block(fe, b, &body) || !fe_block(fe, o, &loop->orelse))
    return NULL;
  bind->rhs = elem;
  Node *count = w->nlen == 1 ? w->len[0] : call_node(fe, it, "min", w->len, w->nlen);
  loop->lhs = var_node(fe, w->k, s);
  if (w->parallel && w->nlen > 1)
    return fe_error(fe, it, "pndindex() can only be the iterable of a for loop itself (or of enumerate())");
  loop->cond = call_node(fe, it, w->parallel ? "prange" : "range", &count, 1);
  loop->body = new_list(fe, body.len + 1);
  loop->body.items[0] = bind;
  for (int i = 0; i < body.len; i++) loop->body.items[i + 1] = body.items[i];
  Node *block = new_node(fe, N_BLOCK, s);
  block->body = new_list(fe, w->npre + 1);
  for (int i = 0; i < w->npre; i++) block->body.items[i] = w->pre[i];
  block->body.items[w->npre] = loop;
  return block;
}

/* for t in map(f, a, ...) / filter(f, a): the loop over the iterables, f
 * called as each item is reached:
 *     for $x in a:  t = f($x); body         (map)
 *     for $x in a:  if not f($x): continue; t = $x; body   (filter) */
static Node *fe_for_fn(Fe *fe, PyObject *s, PyObject *t, PyObject *it, PyObject *b, PyObject *o, bool is_filter) {
  FnWalk w;
  if (!fn_walk(fe, it, is_filter, &w)) return NULL;
  PyObject *body = PyList_New(0);
  if (body && w.keep) {
    PyObject *negate = ast_node("Not", PyDict_New(), it);
    PyObject *test = negate ? ast_node("UnaryOp", Py_BuildValue("{s:N,s:O}", "op", negate, "operand", w.keep), it) : NULL;
    PyObject *skip = ast_node("Continue", PyDict_New(), it);
    PyObject *guard = test && skip ? ast_node("If", Py_BuildValue("{s:N,s:[N],s:[]}", "test", test, "body", skip, "orelse"), it) : NULL;
    if (!guard || PyList_Append(body, guard) < 0) Py_CLEAR(body);
    Py_XDECREF(guard);
  }
  PyObject *bind = body ? ast_node("Assign", Py_BuildValue("{s:[O],s:O}", "targets", t, "value", w.item), t) : NULL;
  if (!bind || PyList_Append(body, bind) < 0 || PyList_SetSlice(body, PyList_GET_SIZE(body), PyList_GET_SIZE(body), b) < 0)
    Py_CLEAR(body);
  PyObject *loop = body ? ast_node("For", Py_BuildValue("{s:O,s:O,s:O,s:O}", "target", w.target, "iter", w.iter, "body", body,
                                                         "orelse", o), s) : NULL;
  Py_XDECREF(bind); Py_XDECREF(body);
  if (loop) collect_locals(fe, w.target);  /* the hidden names are locals, as the user's target is */
  fn_walk_clear(&w);
  Node *n = loop ? fe_stmt(fe, loop) : NULL;
  if (!loop) {
    PyErr_Clear();
    fe_error(fe, s, "cannot read this for loop");
  }
  Py_XDECREF(loop);
  return n;
}

static Node *fe_for(Fe *fe, PyObject *s) {
  PyObject *t = field(s, "target"), *it = field(s, "iter"), *b = field(s, "body"),
           *o = field(s, "orelse");
  Node *n = NULL, *seq = NULL;
  const char *builtin = called_builtin(fe, it);
  bool is_map = names_builtin(builtin, "map"), is_filter = names_builtin(builtin, "filter");
  bool walk = names_builtin(builtin, "enumerate") || names_builtin(builtin, "zip") || numpy_index_iterator(fe, it);
  if (!walk && !is_map && !is_filter) walk = (seq = fe_long_tuple(fe, it)) != NULL;  /* for x in t: a long tuple */
  if (is_map || is_filter) {
    n = fe_for_fn(fe, s, t, it, b, o, is_filter);
  } else if (!walk && !fe->diag->kind && (seq = fe_expr(fe, it))) {
    bool range = seq->kind == N_CALL && seq->bi && (seq->bi->flags & BF_RANGE);
    bool unroll = holds_unrolled(fe, seq);
    if (unroll && seq->kind == N_VAR) seq = fe_call_of(fe, it, "literal_unroll", seq);  /* (analysis/unroll.c) */
    walk = !range && !unroll;
    if (unroll) {  /* unrolled before typing (analysis/unroll.c), once its tuple's length is known */
      n = new_node(fe, N_FOR, s);
      n->cond = seq;
      if (!(n->lhs = fe_target(fe, t)) || !fe_block(fe, b, &n->body) || !fe_block(fe, o, &n->orelse)) n = NULL;
    } else if (range && !is_kind(t, "Name")) {
      fe_error(fe, t, "a for loop over range(...) or prange(...) takes a single name");
    } else if (range) {
      n = new_node(fe, N_FOR, s);
      n->cond = seq;
      if (!(n->lhs = fe_target(fe, t)) || !fe_block(fe, b, &n->body) || !fe_block(fe, o, &n->orelse)) n = NULL;
    }
  }
  if (walk && !fe->diag->kind) n = fe_for_each(fe, s, t, it, seq, b, o);
  Py_DECREF(t); Py_DECREF(it); Py_DECREF(b); Py_DECREF(o);
  return n;
}

static Node *fe_return(Fe *fe, PyObject *s) {
  PyObject *v = field(s, "value");
  Node *n = v != Py_None ? fe_inlined_call(fe, s, v) : NULL;
  if (n || fe->diag->kind) {
    Py_DECREF(v);
    return n;
  }
  n = new_node(fe, N_RETURN, s);
  bool is_none = v == Py_None;
  if (!is_none && is_kind(v, "Constant")) {
    PyObject *c = field(v, "value");
    is_none = c == Py_None;
    Py_DECREF(c);
  }
  fe->first_value = v;
  if (!is_none && !(n->lhs = fe_expr(fe, v))) n = NULL;
  fe->first_value = NULL;
  Py_DECREF(v);
  return n;
}

/* yield x as a statement: the function is a generator. */
static Node *fe_yield(Fe *fe, PyObject *s, PyObject *y) {
  PyObject *v = field(y, "value");
  Node *n = new_node(fe, N_YIELD, s);
  if (v != Py_None && !(n->lhs = fe_expr(fe, v))) n = NULL;
  fe->f->generator = true;
  Py_DECREF(v);
  return n;
}

/* `yield from it` as a statement: `for $yieldfrom in it: yield
 * $yieldfrom`, the items of it yielded in turn (what send() and throw()
 * would pass on, and the value of the statement, compiled generators do
 * not have). */
static Node *fe_yield_from(Fe *fe, PyObject *s, PyObject *v) {
  char name[32];
  snprintf(name, sizeof name, "$yieldfrom%d", fe->ntemps++);
  add_var(fe, name);  /* (a local Python's own names never clash with) */
  PyObject *ast = PyImport_AddModule("ast");
  PyObject *store = PyObject_CallMethod(ast, "Store", NULL), *load = PyObject_CallMethod(ast, "Load", NULL);
  PyObject *it = field(v, "value");
  PyObject *target = store ? ast_node("Name", Py_BuildValue("{s:s,s:O}", "id", name, "ctx", store), s) : NULL;
  PyObject *item = load ? ast_node("Name", Py_BuildValue("{s:s,s:O}", "id", name, "ctx", load), s) : NULL;
  PyObject *yield = item ? ast_node("Yield", Py_BuildValue("{s:O}", "value", item), s) : NULL;
  PyObject *body = yield ? ast_node("Expr", Py_BuildValue("{s:O}", "value", yield), s) : NULL;
  PyObject *loop = target && body ? ast_node("For", Py_BuildValue("{s:O,s:O,s:[O],s:[]}", "target", target, "iter", it,
                                                                  "body", body, "orelse"), s)
                                  : NULL;
  PyErr_Clear();
  Node *n = loop ? fe_stmt(fe, loop) : fe_error(fe, s, "cannot read this yield from");
  Py_XDECREF(store); Py_XDECREF(load); Py_DECREF(it); Py_XDECREF(target); Py_XDECREF(item); Py_XDECREF(yield);
  Py_XDECREF(body); Py_XDECREF(loop);
  return n;
}

static Node *fe_expr_stmt(Fe *fe, PyObject *s) {
  PyObject *v = field(s, "value");
  Node *n = NULL;
  if (is_kind(v, "Yield")) {
    n = fe_yield(fe, s, v);
  } else if (is_kind(v, "YieldFrom")) {
    n = fe_yield_from(fe, s, v);
  } else if (is_kind(v, "Constant")) {
    n = new_node(fe, N_PASS, s);  /* a docstring or a bare constant does nothing */
  } else if (!(n = fe_inlined_call(fe, s, v)) && !fe->diag->kind) {
    n = new_node(fe, N_EXPR, s);
    if (!(n->lhs = fe_expr(fe, v))) n = NULL;
  }
  Py_DECREF(v);
  return n;
}

/* A message argument: a constant string, or nothing. */
bool fe_message(Fe *fe, PyObject *e, const char **out) {
  *out = NULL;
  if (e == Py_None) return true;
  PyObject *v = is_kind(e, "Constant") ? field(e, "value") : NULL;
  bool ok = v && PyUnicode_Check(v);
  if (ok) *out = arena_strdup(fe->arena, PyUnicode_AsUTF8(v));
  Py_XDECREF(v);
  return ok || fe_error(fe, e, "the message must be a constant string");
}

/* assert c[, msg]: a constant message (or none) kept as the statement's
 * own; one made at run time raised as a raise statement raises it. */
static Node *fe_assert(Fe *fe, PyObject *s) {
  PyObject *t = field(s, "test"), *m = field(s, "msg");
  Node *n = new_node(fe, N_ASSERT, s);
  bool constant = m == Py_None || is_kind(m, "Constant");
  if (!(n->cond = fe_expr(fe, t))) n = NULL;
  else if (!constant) n = fe_assert_raise(fe, s, n->cond, m);
  else if (!fe_message(fe, m, &n->str)) n = NULL;
  Py_DECREF(t); Py_DECREF(m);
  return n;
}

/* global x: reading x is reading the global, as without the declaration
 * (Numba's too: the globals' values are frozen when compiling); storing to
 * it, Python's STORE_GLOBAL, Numba refuses, and so does ruchey. */
static Node *fe_global(Fe *fe, PyObject *s) {
  PyObject *names = field(s, "names");
  Node *n = new_node(fe, N_PASS, s);
  for (Py_ssize_t i = 0; n && i < PyList_GET_SIZE(names); i++) {
    const char *name = PyUnicode_AsUTF8(PyList_GET_ITEM(names, i));
    if (find_var(fe, name) >= 0)
      n = fe_error(fe, s, "assigning to the global variable '%s' is not supported in compiled code (its value "
                   "is read when compiling): return the new value instead", name);
  }
  Py_DECREF(names);
  return n;
}

static const struct { const char *kind, *what; } unsupported_stmts[] = {
  {"TryStar", "try/except*"},
  {"AsyncWith", "async with"},
  {"AsyncFunctionDef", "nested functions"}, {"ClassDef", "classes"},
  {"Nonlocal", "nonlocal declarations"},
  {"AsyncFor", "async for"},
};

/* ---------------------------------------------------------------- match */

/* match subject: case P [if guard]: body ... as the if/elif chain that
 * tests the subject (evaluated once, into a hidden variable unless a
 * name) against each pattern in turn, as Python's compiled match does for
 * these patterns: a literal or dotted name (==), None, True or False
 * (is), a capture or _ (always), P as x, P1 | P2. A capture binds its
 * name as the case's body starts. Sequence, mapping and class patterns
 * (and a guard reading a capture) are refused. */
static PyObject *match_name(const char *id, const char *ctx, PyObject *loc) {
  PyObject *c = ast_node(ctx, PyDict_New(), loc);
  return c ? ast_node("Name", Py_BuildValue("{s:s,s:N}", "id", id, "ctx", c), loc) : NULL;
}

/* The test of pattern p on the subject, a new reference (NULL with an
 * error set); its captures appended to binds (as Assign statements). */
static PyObject *match_test(Fe *fe, PyObject *p, const char *subject, PyObject *binds) {
  PyObject *test = NULL;
  if (is_kind(p, "MatchValue") || is_kind(p, "MatchSingleton")) {
    bool value = is_kind(p, "MatchValue");
    PyObject *v = field(p, "value");
    PyObject *operand = value ? Py_NewRef(v) : ast_node("Constant", Py_BuildValue("{s:O}", "value", v), p);
    PyObject *op = ast_node(value ? "Eq" : "Is", PyDict_New(), p), *left = match_name(subject, "Load", p);
    test = operand && op && left ? ast_node("Compare", Py_BuildValue("{s:N,s:[N],s:[N]}", "left", left, "ops", op,
                                                                     "comparators", operand), p) : NULL;
    Py_DECREF(v);
    return test;
  }
  if (is_kind(p, "MatchOr")) {
    PyObject *alts = field(p, "patterns"), *values = PyList_New(0);
    for (Py_ssize_t i = 0; values && i < PyList_GET_SIZE(alts); i++) {
      PyObject *t = match_test(fe, PyList_GET_ITEM(alts, i), subject, NULL);
      if (!t || PyList_Append(values, t) < 0) Py_CLEAR(values);
      Py_XDECREF(t);
    }
    PyObject *op = values ? ast_node("Or", PyDict_New(), p) : NULL;
    test = op ? ast_node("BoolOp", Py_BuildValue("{s:N,s:N}", "op", op, "values", values), p) : NULL;
    if (!op) Py_XDECREF(values);
    Py_DECREF(alts);
    return test;
  }
  if (is_kind(p, "MatchAs")) {
    PyObject *pattern = field(p, "pattern"), *name = field(p, "name");
    if (PyUnicode_Check(name) && !binds)
      PyErr_SetString(PyExc_SyntaxError, "a capture in an alternative of a '|' pattern");
    else if (pattern != Py_None)
      test = match_test(fe, pattern, subject, binds);
    else
      test = ast_node("Constant", Py_BuildValue("{s:O}", "value", Py_True), p);
    if (test && PyUnicode_Check(name)) {
      PyObject *target = match_name(PyUnicode_AsUTF8(name), "Store", p), *value = match_name(subject, "Load", p);
      PyObject *bind = target && value ? ast_node("Assign", Py_BuildValue("{s:[N],s:N}", "targets", target, "value",
                                                                          value), p) : NULL;
      if (!bind || PyList_Append(binds, bind) < 0) Py_CLEAR(test);
      Py_XDECREF(bind);
    }
    Py_DECREF(pattern); Py_DECREF(name);
    return test;
  }
  PyErr_Format(PyExc_SyntaxError, "a %s pattern", ast_kind(p));
  return NULL;
}

/* One case as an If whose orelse is rest (the later cases), or NULL with an error set. */
static PyObject *match_case(Fe *fe, PyObject *c, const char *subject, PyObject *rest) {
  PyObject *pattern = field(c, "pattern"), *guard = field(c, "guard"), *body = field(c, "body");
  PyObject *binds = PyList_New(0), *test = binds ? match_test(fe, pattern, subject, binds) : NULL, *n = NULL;
  if (test && guard != Py_None && PyList_GET_SIZE(binds)) {
    PyErr_SetString(PyExc_SyntaxError, "a guard of a case that binds names");
  } else if (test) {
    if (guard != Py_None) {
      PyObject *op = ast_node("And", PyDict_New(), c);
      PyObject *both = op ? ast_node("BoolOp", Py_BuildValue("{s:N,s:[O,O]}", "op", op, "values", test, guard), c) : NULL;
      Py_SETREF(test, both);
    }
    PyObject *stmts = PyList_GetSlice(binds, 0, PyList_GET_SIZE(binds));
    if (test && stmts && PyList_SetSlice(stmts, PyList_GET_SIZE(stmts), PyList_GET_SIZE(stmts), body) == 0)
      n = ast_node("If", Py_BuildValue("{s:O,s:O,s:O}", "test", test, "body", stmts, "orelse", rest), c);
    Py_XDECREF(stmts);
  }
  Py_XDECREF(test); Py_XDECREF(binds);
  Py_DECREF(pattern); Py_DECREF(guard); Py_DECREF(body);
  return n;
}

static Node *fe_match(Fe *fe, PyObject *s) {
  PyObject *subject = field(s, "subject"), *cases = field(s, "cases");
  char name[32];
  bool named = is_kind(subject, "Name");
  PyObject *id = named ? field(subject, "id") : NULL;
  snprintf(name, sizeof name, "$match%d", fe->ntemps++);
  const char *var = named ? PyUnicode_AsUTF8(id) : name;
  PyObject *chain = PyList_New(0);  /* the statements after the last case's: none */
  for (Py_ssize_t i = PyList_GET_SIZE(cases) - 1; chain && i >= 0; i--) {
    PyObject *n = match_case(fe, PyList_GET_ITEM(cases, i), var, chain);
    Py_SETREF(chain, n ? Py_BuildValue("[N]", n) : NULL);
  }
  PyObject *target = chain && !named ? match_name(name, "Store", s) : NULL;
  if (target) {  /* the subject, evaluated once */
    collect_locals(fe, target);
    PyObject *assign = ast_node("Assign", Py_BuildValue("{s:[N],s:O}", "targets", target, "value", subject), s);
    if (!assign || PyList_Insert(chain, 0, assign) < 0) Py_CLEAR(chain);
    Py_XDECREF(assign);
  }
  Node *n = NULL;
  if (chain) {
    n = new_node(fe, N_BLOCK, s);
    if (!fe_block(fe, chain, &n->body)) n = NULL;
  } else {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyObject *what = value ? PyObject_Str(value) : NULL;
    fe_error(fe, s, "%s is not supported in a compiled match statement (literals, names, None, True, False, "
             "captures, _, '|' and 'as' are)", what && PyUnicode_Check(what) ? PyUnicode_AsUTF8(what) : "this pattern");
    Py_XDECREF(what); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
  }
  Py_XDECREF(chain); Py_XDECREF(id); Py_DECREF(subject); Py_DECREF(cases);
  return n;
}

/* del x[i], del d[k]: the container's method __delitem__. */
static Node *fe_delete(Fe *fe, PyObject *s) {
  PyObject *targets = field(s, "targets");
  Node *n = new_node(fe, N_BLOCK, s);
  n->body = new_list(fe, (int)PyList_GET_SIZE(targets));
  for (int i = 0; n && i < n->body.len; i++) {
    PyObject *t = PyList_GET_ITEM(targets, i);
    Node *x = is_kind(t, "Subscript") ? fe_expr(fe, t) : fe_error(fe, t, "only del x[i] and del d[k] are supported in compiled code");
    if (!x || x->kind != N_INDEX) {  /* del d[i, j]: a tuple key; typing refuses it elsewhere */
      n = x ? fe_error(fe, t, "only del x[i] and del d[k] are supported in compiled code") : NULL;
      break;
    }
    Node *call = new_node(fe, N_CALL, t);
    call->str = "__delitem__";
    call->list = new_list(fe, 2);
    call->list.items[0] = x->lhs;
    call->list.items[1] = x->rhs;
    if (x->rhs->kind == N_SLICE) {  /* del x[a:b:c]: x.__delslice__(a, b, c), None where left out */
      Node *parts[3] = {x->rhs->lhs, x->rhs->rhs, x->rhs->cond};
      call->str = "__delslice__";
      call->list = new_list(fe, 4);
      call->list.items[0] = x->lhs;
      for (int k = 0; k < 3; k++) call->list.items[k + 1] = parts[k] ? parts[k] : new_node(fe, N_NONE, t);
    }
    n->body.items[i] = new_node(fe, N_EXPR, t);
    n->body.items[i]->lhs = call;
  }
  Py_DECREF(targets);
  return n;
}

static Node *fe_stmt_kind(Fe *fe, PyObject *s);

/* A statement, after what the comprehensions in it run first. */
static Node *fe_stmt(Fe *fe, PyObject *s) {
  int before = fe->pre.len;
  Node *n = fe_stmt_kind(fe, s);
  if (!n || fe->pre.len == before) return n;
  Node *block = new_node(fe, N_BLOCK, s);
  block->body = new_list(fe, fe->pre.len - before + 1);
  for (int i = before; i < fe->pre.len; i++) block->body.items[i - before] = fe->pre.items[i];
  block->body.items[fe->pre.len - before] = n;
  fe->pre.len = before;
  return block;
}

static Node *fe_stmt_kind(Fe *fe, PyObject *s) {
  const char *k = ast_kind(s);
  if (!strcmp(k, "Delete")) return fe_delete(fe, s);
  if (!strcmp(k, "Assign")) return fe_assign(fe, s);
  if (!strcmp(k, "AugAssign")) return fe_augassign(fe, s);
  if (!strcmp(k, "AnnAssign")) return fe_annassign(fe, s);
  if (!strcmp(k, "If")) return fe_cond_stmt(fe, s, N_IF);
  if (!strcmp(k, "Match")) return fe_match(fe, s);
  if (!strcmp(k, "While")) return fe_cond_stmt(fe, s, N_WHILE);
  if (!strcmp(k, "For")) return fe_for(fe, s);
  if (!strcmp(k, "Return")) return fe_return(fe, s);
  if (!strcmp(k, "Expr")) return fe_expr_stmt(fe, s);
  if (!strcmp(k, "Pass")) return new_node(fe, N_PASS, s);
  if (!strcmp(k, "Global")) return fe_global(fe, s);
  if (!strcmp(k, "Break")) return new_node(fe, N_BREAK, s);
  if (!strcmp(k, "Continue")) return new_node(fe, N_CONTINUE, s);
  if (!strcmp(k, "Assert")) return fe_assert(fe, s);
  if (!strcmp(k, "Raise")) return fe_raise(fe, s);
  if (!strcmp(k, "Try")) return fe_try(fe, s);
  if (!strcmp(k, "With")) return fe_with(fe, s);
  if (!strcmp(k, "FunctionDef")) return fe_def(fe, s);
  if (!strcmp(k, "Import") || !strcmp(k, "ImportFrom")) return fe_import(fe, s);
  for (size_t i = 0; i < sizeof unsupported_stmts / sizeof unsupported_stmts[0]; i++)
    if (!strcmp(k, unsupported_stmts[i].kind))
      return fe_error(fe, s, "'%s' is not supported in compiled code", unsupported_stmts[i].what);
  return fe_error(fe, s, "statement '%s' is not supported in compiled code", k);
}

bool fe_block(Fe *fe, PyObject *stmts, NodeList *out) {
  *out = new_list(fe, (int)PyList_GET_SIZE(stmts));
  for (int i = 0; i < out->len; i++)
    if (!(out->items[i] = fe_stmt(fe, PyList_GET_ITEM(stmts, i)))) return false;
  return true;
}

/* ---------------------------------------------------------------- the function */

static bool fe_params(Fe *fe, PyObject *def) {
  PyObject *args = field(def, "args");
  PyObject *posonly = field(args, "posonlyargs"), *plain = field(args, "args"),
           *vararg = field(args, "vararg"), *kwarg = field(args, "kwarg"),
           *kwonly = field(args, "kwonlyargs");
  bool ok = true;
  if (kwarg != Py_None)
    ok = fe_error(fe, def, "**kwargs is not supported: give the function named parameters (a wrapper such as "
                  "functools.wraps' cannot be compiled; compile the function it wraps)") != NULL;
  for (int pass = 0; ok && pass < 3; pass++) {  /* keyword-only ones last, as the code's variables list them */
    PyObject *list = pass == 2 ? kwonly : pass ? plain : posonly;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
      PyObject *name = field(PyList_GET_ITEM(list, i), "arg");
      add_var(fe, PyUnicode_AsUTF8(name));
      Py_DECREF(name);
    }
  }
  if (ok && vararg != Py_None) {  /* *args: one more parameter, the tuple of the extra arguments */
    PyObject *name = field(vararg, "arg");
    add_var(fe, PyUnicode_AsUTF8(name));
    Py_DECREF(name);
  }
  fe->f->nparams = fe->nvars;
  Py_DECREF(posonly); Py_DECREF(plain); Py_DECREF(vararg); Py_DECREF(kwarg);
  Py_DECREF(kwonly); Py_DECREF(args);
  return ok;
}

Func *fe_read_function(PyObject *pyfunc, PyObject *self, const Node *const *frozen, Arena *arena, Diag *diag) {
  Fe fe = {.arena = arena, .diag = diag, .stack_limit = core_api()->stack_limit(), .self = self, .frozen = frozen};
  fe.f = arena_alloc(arena, sizeof(Func));
  fe.f->arena = arena;
  fe.pyfunc = pyfunc;
  fe.globals = PyFunction_GetGlobals(pyfunc);
  fe.builtins = PyEval_GetBuiltins();
  PyObject *code = PyFunction_GetCode(pyfunc);
  fe.f->filename = arena_strdup(arena, PyUnicode_AsUTF8(((PyCodeObject *)code)->co_filename));
  fe.f->name = arena_strdup(arena, PyUnicode_AsUTF8(((PyCodeObject *)code)->co_name));
  PyObject *def = fe_inner_function(pyfunc, &fe.line_offset, &fe.col_offset);
  if (!def && !PyErr_Occurred()) def = src_parse_function(pyfunc, &fe.line_offset, &fe.col_offset);
  if (!def) return NULL;
  fe.f->line = ast_int_attr(def, "lineno") + fe.line_offset;
  PyObject *body = field(def, "body");
  if (is_kind(def, "Lambda")) {  /* lambda args: expr is def f(args): return expr */
    PyObject *ret = PyObject_CallMethod(PyImport_AddModule("ast"), "Return", "O", body);
    if (ret) Py_XDECREF(PyObject_CallMethod(PyImport_AddModule("ast"), "copy_location", "OO", ret, def));
    Py_SETREF(body, ret ? PyList_New(1) : NULL);
    if (!body) {
      Py_XDECREF(ret);
      Py_DECREF(def);
      return NULL;
    }
    PyList_SET_ITEM(body, 0, ret);
  }
  bool ok = fe_params(&fe, def);
  fe.body = body;
  if (ok) {
    fe_collect_aliases(&fe, body);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(body); i++)
      collect_locals(&fe, PyList_GET_ITEM(body, i));
    ok = !diag->kind && fe_block(&fe, body, &fe.f->body);
  }
  Py_DECREF(body);
  Py_DECREF(def);
  Py_XDECREF(fe.imports);
  Py_XDECREF(fe.methods);
  Py_XDECREF(fe.lambdas);
  Py_XDECREF(fe.types_of);
  Py_XDECREF(fe.exceptions);
  Py_XDECREF(fe.unrolled);
  if (!ok) return NULL;
  fe.f->nvars = fe.nvars;
  fe.f->var_names = fe.vars;
  fe.f->var_types = arena_alloc(arena, sizeof(Type *) * (size_t)(fe.nvars ? fe.nvars : 1));
  return fe.f;
}
