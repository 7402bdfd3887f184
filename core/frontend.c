/* frontend.c — reads a Python function into ruchey's IR.
 *
 * The source comes from inspect, the tree from Python's own ast module; this
 * file walks that tree and builds IR nodes in the compile's arena, with the
 * file line and column of every node. Global names are resolved here, at
 * compile time, as Numba does: modules, known functions, numeric constants
 * (frozen). Anything outside the subset is a TypingError pointing at it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdarg.h>

#include "core.h"

typedef struct Fe {
  Arena *arena;
  Func *f;
  PyObject *globals;    /* the function's __globals__ */
  PyObject *builtins;   /* the builtins module's dict */
  PyObject *pyfunc;     /* the function read */
  int line_offset;      /* added to ast line numbers to give file lines */
  int col_offset;       /* indentation removed by dedent */
  const char **vars;
  int nvars, cap;
  int ntemps;
  Diag *diag;
} Fe;

static Node *fe_expr(Fe *fe, PyObject *e);
static bool fe_block(Fe *fe, PyObject *stmts, NodeList *out);

/* ---------------------------------------------------------------- helpers */

static int ast_int_attr(PyObject *o, const char *name) {
  PyObject *v = PyObject_GetAttrString(o, name);
  if (!v) { PyErr_Clear(); return 0; }
  long r = v == Py_None ? 0 : PyLong_AsLong(v);
  Py_DECREF(v);
  return (int)r;
}

static const char *ast_kind(PyObject *o) { return Py_TYPE(o)->tp_name; }

static bool is_kind(PyObject *o, const char *k) { return strcmp(ast_kind(o), k) == 0; }

/* The attribute of an ast node; a new reference (never NULL for ast fields). */
static PyObject *field(PyObject *o, const char *name) {
  PyObject *v = PyObject_GetAttrString(o, name);
  if (!v) { PyErr_Clear(); Py_INCREF(Py_None); v = Py_None; }
  return v;
}

static void set_pos(Fe *fe, int *line, int *col, PyObject *e) {
  *line = ast_int_attr(e, "lineno") + fe->line_offset;
  *col = ast_int_attr(e, "col_offset") + fe->col_offset;
}

/* Records a TypingError at the node e; always returns NULL/false. */
static void *fe_error(Fe *fe, PyObject *e, const char *fmt, ...) {
  if (fe->diag->kind) return NULL;  /* keep the first error */
  fe->diag->kind = DIAG_TYPING;
  set_pos(fe, &fe->diag->line, &fe->diag->col, e);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(fe->diag->msg, sizeof fe->diag->msg, fmt, ap);
  va_end(ap);
  return NULL;
}

static Node *new_node(Fe *fe, NodeKind kind, PyObject *e) {
  Node *n = arena_alloc(fe->arena, sizeof(Node));
  n->kind = kind;
  set_pos(fe, &n->line, &n->col, e);
  return n;
}

static NodeList new_list(Fe *fe, int len) {
  NodeList l = {arena_alloc(fe->arena, sizeof(Node *) * (size_t)(len ? len : 1)), len};
  return l;
}

/* ---------------------------------------------------------------- variables */

static int find_var(Fe *fe, const char *name) {
  for (int i = 0; i < fe->nvars; i++)
    if (strcmp(fe->vars[i], name) == 0) return i;
  return -1;
}

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
  if (is_kind(node, "Name")) {
    PyObject *ctx = field(node, "ctx");
    if (is_kind(ctx, "Store")) {
      PyObject *id = field(node, "id");
      add_var(fe, PyUnicode_AsUTF8(id));
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
  PyObject *free = cells ? PyCode_GetFreevars(code) : NULL;
  PyObject *value = NULL;
  for (Py_ssize_t i = 0; free && i < PyTuple_GET_SIZE(free); i++)
    if (!strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(free, i)), name)) {
      value = PyCell_GET(PyTuple_GET_ITEM(cells, i));
      Py_XINCREF(value);
    }
  Py_XDECREF(free);
  return value;
}

/* A global or attribute path that names a Python object at compile time
 * (numpy, numpy.empty, math.pi, a constant); a new reference or NULL. */
static PyObject *static_object(Fe *fe, PyObject *e) {
  if (is_kind(e, "Name")) {
    PyObject *id = field(e, "id");
    const char *name = PyUnicode_AsUTF8(id);
    PyObject *obj = NULL;
    if (find_var(fe, name) < 0 && (obj = closure_value(fe, name))) {
      Py_DECREF(id);
      return obj;
    }
    if (find_var(fe, name) < 0) {
      obj = PyDict_GetItemWithError(fe->globals, id);
      if (!obj && !PyErr_Occurred()) obj = PyDict_GetItemWithError(fe->builtins, id);
      Py_XINCREF(obj);
      PyErr_Clear();
    }
    Py_DECREF(id);
    return obj;
  }
  if (is_kind(e, "Attribute")) {
    PyObject *value = field(e, "value");
    PyObject *base = static_object(fe, value);
    Py_DECREF(value);
    /* modules, and ruchey.cuda's namespaces (cuda.threadIdx, cuda.atomic) */
    if (!base || !(PyModule_Check(base) || PyObject_HasAttrString(base, "__ruchey_namespace__"))) {
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

static Node *constant_node(Fe *fe, PyObject *obj, PyObject *e) {
  if (PyBool_Check(obj)) {
    Node *n = new_node(fe, N_BOOL, e);
    n->ival = obj == Py_True;
    return n;
  }
  if (PyLong_Check(obj)) {
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow) return fe_error(fe, e, "integer constant does not fit in int64");
    Node *n = new_node(fe, N_INT, e);
    n->ival = v;
    return n;
  }
  if (PyFloat_Check(obj)) {
    Node *n = new_node(fe, N_FLOAT, e);
    n->fval = PyFloat_AS_DOUBLE(obj);
    return n;
  }
  if (PyTuple_Check(obj)) {  /* a global tuple of numbers, frozen like they are */
    Node *n = new_node(fe, N_TUPLE, e);
    n->list = new_list(fe, (int)PyTuple_GET_SIZE(obj));
    for (int i = 0; i < n->list.len; i++)
      if (!(n->list.items[i] = constant_node(fe, PyTuple_GET_ITEM(obj, i), e))) return NULL;
    return n;
  }
  return NULL;
}

/* A global value used in an expression: a frozen constant, a module, or a
 * dtype. Functions are only valid as callees. */
static Node *global_value(Fe *fe, PyObject *obj, PyObject *e, const char *name) {
  Node *n = constant_node(fe, obj, e);
  if (n || fe->diag->kind) return n;
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
  int dtype = core_dtype_kind(obj);
  if (dtype >= 0) {
    n = new_node(fe, N_DTYPE, e);
    n->ival = dtype;
    return n;
  }
  if (PyModule_Check(obj))
    return fe_error(fe, e, "module '%s' is not supported in compiled code (numpy and math are)",
                    PyModule_GetName(obj) ? PyModule_GetName(obj) : "?");
  return fe_error(fe, e, "global '%s' of Python type '%s' cannot be used in compiled code",
                  name, Py_TYPE(obj)->tp_name);
}

/* ---------------------------------------------------------------- expressions */

static Node *fe_name(Fe *fe, PyObject *e) {
  PyObject *id = field(e, "id");
  const char *name = PyUnicode_AsUTF8(id);
  int v = find_var(fe, name);
  Node *n = NULL;
  if (v >= 0) {
    n = new_node(fe, N_VAR, e);
    n->var = v;
  } else {
    PyObject *obj = static_object(fe, e);
    if (!obj)
      n = fe_error(fe, e, "name '%s' is not defined", name);
    else
      n = global_value(fe, obj, e, name);
    Py_XDECREF(obj);
  }
  Py_DECREF(id);
  return n;
}

static Node *fe_constant(Fe *fe, PyObject *e) {
  PyObject *v = field(e, "value");
  Node *n = constant_node(fe, v, e);
  if (!n && !fe->diag->kind) {
    if (PyUnicode_Check(v))
      fe_error(fe, e, "strings are not supported in compiled code");
    else if (v == Py_None)
      fe_error(fe, e, "None is only supported as a return value");
    else
      fe_error(fe, e, "constants of type '%s' are not supported", Py_TYPE(v)->tp_name);
  }
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
static bool fe_exprs(Fe *fe, PyObject *list, NodeList *out) {
  *out = new_list(fe, (int)PyList_GET_SIZE(list));
  for (int i = 0; i < out->len; i++)
    if (!(out->items[i] = fe_expr(fe, PyList_GET_ITEM(list, i)))) return false;
  return true;
}

static Node *fe_binop(Fe *fe, PyObject *e) {
  PyObject *op = field(e, "op"), *l = field(e, "left"), *r = field(e, "right");
  Node *n = new_node(fe, N_BINOP, e);
  n->op = op_from_ast(op);
  n->lhs = fe_expr(fe, l);
  n->rhs = n->lhs ? fe_expr(fe, r) : NULL;
  Py_DECREF(op); Py_DECREF(l); Py_DECREF(r);
  if (n->op < 0) return fe_error(fe, e, "this operator is not supported");
  return n->rhs ? n : NULL;
}

static Node *fe_unary(Fe *fe, PyObject *e) {
  PyObject *op = field(e, "op"), *v = field(e, "operand");
  /* -9223372036854775808: the literal alone would not fit in int64 */
  if (is_kind(op, "USub") && is_kind(v, "Constant")) {
    PyObject *c = field(v, "value");
    PyObject *neg = PyLong_CheckExact(c) ? PyNumber_Negative(c) : NULL;
    Node *n = neg ? constant_node(fe, neg, e) : NULL;
    Py_XDECREF(neg);
    Py_DECREF(c);
    if (n || fe->diag->kind) {
      Py_DECREF(op); Py_DECREF(v);
      return n;
    }
  }
  Node *n = new_node(fe, N_UNARY, e);
  n->op = op_from_ast(op);
  n->lhs = fe_expr(fe, v);
  Py_DECREF(op); Py_DECREF(v);
  return n->lhs ? n : NULL;
}

static Node *fe_compare(Fe *fe, PyObject *e) {
  PyObject *left = field(e, "left"), *ops = field(e, "ops"), *comps = field(e, "comparators");
  Node *n = new_node(fe, N_COMPARE, e);
  int k = (int)PyList_GET_SIZE(comps);
  n->list = new_list(fe, k + 1);
  n->ops = arena_alloc(fe->arena, sizeof(int) * (size_t)k);
  bool ok = (n->list.items[0] = fe_expr(fe, left)) != NULL;
  for (int i = 0; ok && i < k; i++) {
    n->ops[i] = op_from_ast(PyList_GET_ITEM(ops, i));
    if (n->ops[i] < 0)
      ok = fe_error(fe, e, "comparison with 'is' or 'in' is not supported") != NULL;
    else
      ok = (n->list.items[i + 1] = fe_expr(fe, PyList_GET_ITEM(comps, i))) != NULL;
  }
  Py_DECREF(left); Py_DECREF(ops); Py_DECREF(comps);
  return ok ? n : NULL;
}

static Node *fe_boolop(Fe *fe, PyObject *e) {
  PyObject *op = field(e, "op"), *values = field(e, "values");
  Node *n = new_node(fe, N_BOOLOP, e);
  n->op = op_from_ast(op);
  bool ok = fe_exprs(fe, values, &n->list);
  Py_DECREF(op); Py_DECREF(values);
  return ok ? n : NULL;
}

static Node *fe_ifexp(Fe *fe, PyObject *e) {
  PyObject *t = field(e, "test"), *b = field(e, "body"), *o = field(e, "orelse");
  Node *n = new_node(fe, N_IFEXP, e);
  n->cond = fe_expr(fe, t);
  n->lhs = n->cond ? fe_expr(fe, b) : NULL;
  n->rhs = n->lhs ? fe_expr(fe, o) : NULL;
  Py_DECREF(t); Py_DECREF(b); Py_DECREF(o);
  return n->rhs ? n : NULL;
}

static bool is_none_constant(PyObject *e) {
  if (!is_kind(e, "Constant")) return false;
  PyObject *v = field(e, "value");
  Py_DECREF(v);
  return v == Py_None;
}

/* Converts the call's positional and keyword arguments into n. A builtin's
 * keyword given None is left out: NumPy's None means the default (axis=None,
 * dtype=None). */
static bool fe_call_args(Fe *fe, PyObject *e, Node *n, bool builtin) {
  PyObject *args = field(e, "args"), *kws = field(e, "keywords");
  bool ok = fe_exprs(fe, args, &n->list);
  int nk = (int)PyList_GET_SIZE(kws);
  n->kw = new_list(fe, nk);
  n->kw.len = 0;
  n->kw_names = arena_alloc(fe->arena, sizeof(char *) * (size_t)(nk ? nk : 1));
  for (int i = 0; ok && i < nk; i++) {
    PyObject *kw = PyList_GET_ITEM(kws, i);
    PyObject *name = field(kw, "arg"), *value = field(kw, "value");
    if (name == Py_None) {
      ok = fe_error(fe, e, "**kwargs in calls is not supported") != NULL;
    } else if (!builtin || !is_none_constant(value)) {
      n->kw_names[n->kw.len] = arena_strdup(fe->arena, PyUnicode_AsUTF8(name));
      ok = (n->kw.items[n->kw.len++] = fe_expr(fe, value)) != NULL;
    }
    Py_DECREF(name); Py_DECREF(value);
  }
  Py_DECREF(args); Py_DECREF(kws);
  return ok;
}

/* A call to another ruchey function: keyword arguments and defaults are
 * bound here, like Python binds them, so the call is positional. */
static bool fe_bind_jit_call(Fe *fe, PyObject *e, Node *n, PyObject *disp) {
  PyObject *func = PyObject_GetAttrString(disp, "py_func");
  PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(func);
  int np = code->co_argcount;
  PyObject *defaults = PyFunction_GetDefaults(func);
  int nd = defaults ? (int)PyTuple_GET_SIZE(defaults) : 0;
  PyObject *names = PyCode_GetVarnames(code);
  NodeList bound = new_list(fe, np);
  bool ok = n->list.len <= np ||
            fe_error(fe, e, "too many arguments in call to %s()", PyUnicode_AsUTF8(code->co_name));
  for (int i = 0; ok && i < n->list.len; i++) bound.items[i] = n->list.items[i];
  for (int k = 0; ok && k < n->kw.len; k++) {
    int slot = -1;
    for (int i = 0; i < np; i++) {
      PyObject *name = PyTuple_GET_ITEM(names, i);
      if (!strcmp(PyUnicode_AsUTF8(name), n->kw_names[k])) slot = i;
    }
    if (slot < 0 || bound.items[slot])
      ok = fe_error(fe, e, "%s() got an unexpected or repeated keyword argument '%s'",
                    PyUnicode_AsUTF8(code->co_name), n->kw_names[k]) != NULL;
    else
      bound.items[slot] = n->kw.items[k];
  }
  for (int i = 0; ok && i < np; i++) {
    if (bound.items[i]) continue;
    int d = i - (np - nd);
    if (d < 0)
      ok = fe_error(fe, e, "%s() missing argument '%s'", PyUnicode_AsUTF8(code->co_name),
                    PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i))) != NULL;
    else if (!(bound.items[i] = constant_node(fe, PyTuple_GET_ITEM(defaults, d), e)))
      ok = fe_error(fe, e, "the default of parameter '%s' must be a number or bool",
                    PyUnicode_AsUTF8(PyTuple_GET_ITEM(names, i))) != NULL;
  }
  Py_DECREF(names);
  Py_DECREF(func);
  n->list = bound;
  n->kw.len = 0;
  n->callee = disp;
  return ok;
}

/* value.name(args): the receiver is the first argument; infer finds the
 * method from its type. */
static Node *fe_method_call(Fe *fe, PyObject *e, PyObject *func) {
  PyObject *attr = field(func, "attr"), *value = field(func, "value");
  Node *n = new_node(fe, N_CALL, e);
  n->str = arena_strdup(fe->arena, PyUnicode_AsUTF8(attr));
  Node *receiver = fe_expr(fe, value);
  if (!receiver || !fe_call_args(fe, e, n, true)) {
    n = NULL;
  } else {
    NodeList args = new_list(fe, n->list.len + 1);
    args.items[0] = receiver;
    for (int i = 0; i < n->list.len; i++) args.items[i + 1] = n->list.items[i];
    n->list = args;
  }
  Py_DECREF(attr); Py_DECREF(value);
  return n;
}

static Node *fe_call(Fe *fe, PyObject *e) {
  PyObject *func = field(e, "func");
  PyObject *obj = static_object(fe, func);
  if (!obj && is_kind(func, "Attribute")) {
    PyObject *base = field(func, "value");
    PyObject *base_obj = static_object(fe, base);
    Py_DECREF(base);
    if (!base_obj) {  /* a method of a value */
      Node *n = fe_method_call(fe, e, func);
      Py_DECREF(func);
      return n;
    }
    Py_DECREF(base_obj);
  }
  bool is_jit = obj && PyObject_TypeCheck(obj, &DispatcherType);
  const Builtin *builtin = is_jit ? core_builtin_named("a ruchey function") : obj ? core_builtin(obj) : NULL;
  int cast = !builtin && obj ? core_dtype_kind(obj) : -1;
  if (cast >= 0) builtin = core_builtin_named("a NumPy scalar type");
  Node *n = NULL;
  if (!builtin) {
    PyObject *desc = obj ? PyObject_Repr(obj) : NULL;
    if (!obj)
      fe_error(fe, e, "only calls to ruchey functions and known functions (numpy, math, builtins) are supported");
    else
      fe_error(fe, e, "cannot call %s from compiled code: it is not a ruchey function or a supported "
               "numpy, math or builtin function", desc ? PyUnicode_AsUTF8(desc) : "this object");
    Py_XDECREF(desc);
    PyErr_Clear();
  } else {
    n = new_node(fe, N_CALL, e);
    n->bi = builtin;
    n->ival = cast;
    if (!fe_call_args(fe, e, n, !is_jit) || (is_jit && !fe_bind_jit_call(fe, e, n, obj))) n = NULL;
  }
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

/* An index: an expression, a slice, or a tuple of those. */
static Node *fe_index(Fe *fe, PyObject *e) {
  if (is_kind(e, "Slice")) return fe_slice(fe, e);
  if (!is_kind(e, "Tuple")) return fe_expr(fe, e);
  PyObject *elts = field(e, "elts");
  Node *n = new_node(fe, N_TUPLE, e);
  n->list = new_list(fe, (int)PyList_GET_SIZE(elts));
  for (int i = 0; n && i < n->list.len; i++)
    if (!(n->list.items[i] = fe_index(fe, PyList_GET_ITEM(elts, i)))) n = NULL;
  Py_DECREF(elts);
  return n;
}

static Node *fe_subscript(Fe *fe, PyObject *e) {
  PyObject *v = field(e, "value"), *s = field(e, "slice");
  Node *n = new_node(fe, N_INDEX, e);
  if (!(n->lhs = fe_expr(fe, v)) || !(n->rhs = fe_index(fe, s))) n = NULL;
  Py_DECREF(v); Py_DECREF(s);
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
  const char *name = PyUnicode_AsUTF8(attr);
  Node *n = new_node(fe, N_ATTR, e);
  n->str = arena_strdup(fe->arena, name);
  if (!(n->lhs = fe_expr(fe, v)))
    n = NULL;
  else if (n->lhs->kind == N_MODULE)
    n = fe_error(fe, e, "module has no supported attribute '%s'", name);
  Py_DECREF(attr); Py_DECREF(v);
  return n;
}

static Node *fe_tuple(Fe *fe, PyObject *e) {
  PyObject *elts = field(e, "elts");
  Node *n = new_node(fe, N_TUPLE, e);
  bool ok = fe_exprs(fe, elts, &n->list);
  Py_DECREF(elts);
  return ok ? n : NULL;
}

static const struct { const char *kind, *what; } unsupported_exprs[] = {
  {"List", "lists"}, {"Dict", "dicts"}, {"Set", "sets"},
  {"ListComp", "list comprehensions"}, {"DictComp", "dict comprehensions"},
  {"SetComp", "set comprehensions"}, {"GeneratorExp", "generator expressions"},
  {"Lambda", "lambda"}, {"JoinedStr", "f-strings"}, {"Await", "await"},
  {"Yield", "generators (yield)"}, {"YieldFrom", "generators (yield from)"},
  {"NamedExpr", "the walrus operator"}, {"Starred", "starred expressions"},
  {"Slice", "slices"},
};

static Node *fe_expr(Fe *fe, PyObject *e) {
  if (fe->diag->kind) return NULL;
  const char *k = ast_kind(e);
  if (!strcmp(k, "Constant")) return fe_constant(fe, e);
  if (!strcmp(k, "Name")) return fe_name(fe, e);
  if (!strcmp(k, "BinOp")) return fe_binop(fe, e);
  if (!strcmp(k, "UnaryOp")) return fe_unary(fe, e);
  if (!strcmp(k, "Compare")) return fe_compare(fe, e);
  if (!strcmp(k, "BoolOp")) return fe_boolop(fe, e);
  if (!strcmp(k, "IfExp")) return fe_ifexp(fe, e);
  if (!strcmp(k, "Call")) return fe_call(fe, e);
  if (!strcmp(k, "Subscript")) return fe_subscript(fe, e);
  if (!strcmp(k, "Attribute")) return fe_attribute(fe, e);
  if (!strcmp(k, "Tuple")) return fe_tuple(fe, e);
  for (size_t i = 0; i < sizeof unsupported_exprs / sizeof unsupported_exprs[0]; i++)
    if (!strcmp(k, unsupported_exprs[i].kind))
      return fe_error(fe, e, "%s are not supported in compiled code", unsupported_exprs[i].what);
  return fe_error(fe, e, "expression '%s' is not supported in compiled code", k);
}

/* ---------------------------------------------------------------- statements */

/* An assignment target: a local name, an array element, or a tuple of targets. */
static Node *fe_target(Fe *fe, PyObject *t) {
  if (is_kind(t, "Name") || is_kind(t, "Subscript")) {
    Node *n = fe_expr(fe, t);
    if (n && n->kind != N_VAR && n->kind != N_INDEX)
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

static Node *fe_assign(Fe *fe, PyObject *s) {
  PyObject *targets = field(s, "targets"), *value = field(s, "value");
  Node *n = NULL;
  Node *rhs = fe_expr(fe, value);
  int nt = (int)PyList_GET_SIZE(targets);
  if (rhs && nt == 1) {
    n = new_node(fe, N_ASSIGN, s);
    n->rhs = rhs;
    if (!(n->lhs = fe_target(fe, PyList_GET_ITEM(targets, 0)))) n = NULL;
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

static Node *fe_augassign(Fe *fe, PyObject *s) {
  PyObject *t = field(s, "target"), *op = field(s, "op"), *v = field(s, "value");
  Node *n = new_node(fe, N_AUGASSIGN, s);
  n->op = op_from_ast(op);
  n->lhs = fe_target(fe, t);
  n->rhs = n->lhs ? fe_expr(fe, v) : NULL;
  if (n->lhs && n->lhs->kind == N_TUPLE) n = fe_error(fe, s, "illegal augmented assignment");
  else if (!n->rhs) n = NULL;
  Py_DECREF(t); Py_DECREF(op); Py_DECREF(v);
  return n;
}

/* if/while: test, body, orelse. */
static Node *fe_cond_stmt(Fe *fe, PyObject *s, NodeKind kind) {
  PyObject *t = field(s, "test"), *b = field(s, "body"), *o = field(s, "orelse");
  Node *n = new_node(fe, kind, s);
  bool ok = (n->cond = fe_expr(fe, t)) && fe_block(fe, b, &n->body) && fe_block(fe, o, &n->orelse);
  Py_DECREF(t); Py_DECREF(b); Py_DECREF(o);
  return ok ? n : NULL;
}

static Node *fe_for(Fe *fe, PyObject *s) {
  PyObject *t = field(s, "target"), *it = field(s, "iter"), *b = field(s, "body"),
           *o = field(s, "orelse");
  Node *n = new_node(fe, N_FOR, s);
  bool ok = true;
  if (!is_kind(t, "Name"))
    ok = fe_error(fe, t, "for-loop target must be a single name") != NULL;
  else
    ok = (n->lhs = fe_target(fe, t)) != NULL;
  ok = ok && (n->cond = fe_expr(fe, it)) != NULL;
  if (ok && !(n->cond->kind == N_CALL && n->cond->bi && (n->cond->bi->flags & BF_RANGE)))
    ok = fe_error(fe, it, "for loops must iterate over range(...) or prange(...)") != NULL;
  ok = ok && fe_block(fe, b, &n->body) && fe_block(fe, o, &n->orelse);
  Py_DECREF(t); Py_DECREF(it); Py_DECREF(b); Py_DECREF(o);
  return ok ? n : NULL;
}

static Node *fe_return(Fe *fe, PyObject *s) {
  PyObject *v = field(s, "value");
  Node *n = new_node(fe, N_RETURN, s);
  bool is_none = v == Py_None;
  if (!is_none && is_kind(v, "Constant")) {
    PyObject *c = field(v, "value");
    is_none = c == Py_None;
    Py_DECREF(c);
  }
  if (!is_none && !(n->lhs = fe_expr(fe, v))) n = NULL;
  Py_DECREF(v);
  return n;
}

static Node *fe_expr_stmt(Fe *fe, PyObject *s) {
  PyObject *v = field(s, "value");
  Node *n = NULL;
  if (is_kind(v, "Constant")) {
    n = new_node(fe, N_PASS, s);  /* a docstring or a bare constant does nothing */
  } else {
    n = new_node(fe, N_EXPR, s);
    if (!(n->lhs = fe_expr(fe, v))) n = NULL;
  }
  Py_DECREF(v);
  return n;
}

/* A message argument: a constant string, or nothing. */
static bool fe_message(Fe *fe, PyObject *e, const char **out) {
  *out = NULL;
  if (e == Py_None) return true;
  PyObject *v = is_kind(e, "Constant") ? field(e, "value") : NULL;
  bool ok = v && PyUnicode_Check(v);
  if (ok) *out = arena_strdup(fe->arena, PyUnicode_AsUTF8(v));
  Py_XDECREF(v);
  return ok || fe_error(fe, e, "the message must be a constant string");
}

static Node *fe_assert(Fe *fe, PyObject *s) {
  PyObject *t = field(s, "test"), *m = field(s, "msg");
  Node *n = new_node(fe, N_ASSERT, s);
  if (!(n->cond = fe_expr(fe, t)) || !fe_message(fe, m, &n->str)) n = NULL;
  Py_DECREF(t); Py_DECREF(m);
  return n;
}

/* The symbol compiled code names a class by: "exc:<module>.<qualname>",
 * with "#n" after it where another class took that name first. The class
 * is kept alive (here) for as long as the code may run. */
static const char *class_symbol(Fe *fe, PyObject *cls) {
  static PyObject *by_class, *by_name;  /* class -> name, name -> class */
  if (!by_class && (!(by_class = PyDict_New()) || !(by_name = PyDict_New()))) return NULL;
  PyObject *name = PyDict_GetItemWithError(by_class, cls);
  if (name) return arena_strdup(fe->arena, PyUnicode_AsUTF8(name));
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
  const char *symbol = arena_strdup(fe->arena, PyUnicode_AsUTF8(name));
  Py_DECREF(name);
  return symbol;
}

/* raise E, raise E("constant"): E must be an exception class known at
 * compile time. */
static Node *fe_raise(Fe *fe, PyObject *s) {
  PyObject *exc = field(s, "exc");
  Node *n = new_node(fe, N_RAISE, s);
  PyObject *call = NULL, *cls = NULL;
  if (exc == Py_None) {
    n = fe_error(fe, s, "bare 'raise' is not supported in compiled code");
    goto done;
  }
  if (is_kind(exc, "Call")) {
    call = field(exc, "func");
    PyObject *args = field(exc, "args"), *kws = field(exc, "keywords");
    if (PyList_GET_SIZE(args) > 1 || PyList_GET_SIZE(kws))
      n = fe_error(fe, exc, "an exception raised in compiled code takes at most one constant message");
    else if (PyList_GET_SIZE(args) == 1 && !fe_message(fe, PyList_GET_ITEM(args, 0), &n->str))
      n = NULL;
    Py_DECREF(args); Py_DECREF(kws);
  }
  cls = n ? static_object(fe, call ? call : exc) : NULL;
  if (n && !(cls && PyType_Check(cls) && PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)PyExc_Exception)))
    n = fe_error(fe, s, "raise needs an exception class known at compile time");
  if (n) {
    n->callee = cls;
    if (!(n->symbol = class_symbol(fe, cls))) n = NULL;
  }
done:
  Py_XDECREF(cls); Py_XDECREF(call); Py_DECREF(exc);
  return n;
}

static const struct { const char *kind, *what; } unsupported_stmts[] = {
  {"Try", "try/except"}, {"TryStar", "try/except*"}, {"With", "with"},
  {"AsyncWith", "async with"}, {"FunctionDef", "nested functions"},
  {"AsyncFunctionDef", "nested functions"}, {"ClassDef", "classes"},
  {"Global", "global declarations"}, {"Nonlocal", "nonlocal declarations"},
  {"Delete", "del"}, {"Import", "import"}, {"ImportFrom", "import"},
  {"AsyncFor", "async for"}, {"Match", "match"},
};

static Node *fe_stmt(Fe *fe, PyObject *s) {
  const char *k = ast_kind(s);
  if (!strcmp(k, "Assign")) return fe_assign(fe, s);
  if (!strcmp(k, "AugAssign")) return fe_augassign(fe, s);
  if (!strcmp(k, "If")) return fe_cond_stmt(fe, s, N_IF);
  if (!strcmp(k, "While")) return fe_cond_stmt(fe, s, N_WHILE);
  if (!strcmp(k, "For")) return fe_for(fe, s);
  if (!strcmp(k, "Return")) return fe_return(fe, s);
  if (!strcmp(k, "Expr")) return fe_expr_stmt(fe, s);
  if (!strcmp(k, "Pass")) return new_node(fe, N_PASS, s);
  if (!strcmp(k, "Break")) return new_node(fe, N_BREAK, s);
  if (!strcmp(k, "Continue")) return new_node(fe, N_CONTINUE, s);
  if (!strcmp(k, "Assert")) return fe_assert(fe, s);
  if (!strcmp(k, "Raise")) return fe_raise(fe, s);
  for (size_t i = 0; i < sizeof unsupported_stmts / sizeof unsupported_stmts[0]; i++)
    if (!strcmp(k, unsupported_stmts[i].kind))
      return fe_error(fe, s, "'%s' is not supported in compiled code", unsupported_stmts[i].what);
  return fe_error(fe, s, "statement '%s' is not supported in compiled code", k);
}

static bool fe_block(Fe *fe, PyObject *stmts, NodeList *out) {
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
  if (vararg != Py_None || kwarg != Py_None || PyList_GET_SIZE(kwonly))
    ok = fe_error(fe, def, "*args, **kwargs and keyword-only parameters are not supported") != NULL;
  for (int pass = 0; ok && pass < 2; pass++) {
    PyObject *list = pass ? plain : posonly;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
      PyObject *name = field(PyList_GET_ITEM(list, i), "arg");
      add_var(fe, PyUnicode_AsUTF8(name));
      Py_DECREF(name);
    }
  }
  fe->f->nparams = fe->nvars;
  Py_DECREF(posonly); Py_DECREF(plain); Py_DECREF(vararg); Py_DECREF(kwarg);
  Py_DECREF(kwonly); Py_DECREF(args);
  return ok;
}

/* Parses the source of pyfunc; returns the FunctionDef node (new ref) and
 * sets the line/column offsets that map its positions to the file. */
static PyObject *parse_function(Fe *fe, PyObject *pyfunc) {
  PyObject *inspect = PyImport_ImportModule("inspect");
  PyObject *ast = inspect ? PyImport_ImportModule("ast") : NULL;
  PyObject *textwrap = ast ? PyImport_ImportModule("textwrap") : NULL;
  PyObject *lines = NULL, *src = NULL, *dedented = NULL, *tree = NULL, *def = NULL;
  if (!textwrap) goto done;
  lines = PyObject_CallMethod(inspect, "getsourcelines", "O", pyfunc);
  if (!lines) {
    if (PyErr_ExceptionMatches(PyExc_OSError)) {  /* python -c, or a plain REPL */
      PyErr_Clear();
      PyErr_Format(core_TypingError,
                   "cannot read the source of %S: ruchey compiles from source, so define "
                   "the function in a file (or in IPython/Jupyter, which keep the source)", pyfunc);
    }
    goto done;
  }
  PyObject *sep = PyUnicode_FromString("");
  src = PyUnicode_Join(sep, PyTuple_GET_ITEM(lines, 0));
  Py_DECREF(sep);
  if (!src) goto done;
  fe->line_offset = (int)PyLong_AsLong(PyTuple_GET_ITEM(lines, 1)) - 1;
  dedented = PyObject_CallMethod(textwrap, "dedent", "O", src);
  if (!dedented) goto done;
  /* dedent removes the same indentation from every line: the first line's
   * indentation is the column offset. */
  {
    PyObject *first = PyList_GET_ITEM(PyTuple_GET_ITEM(lines, 0), 0);
    const char *s = PyUnicode_AsUTF8(first);
    int indent = 0;
    while (s[indent] == ' ' || s[indent] == '\t') indent++;
    fe->col_offset = indent;
  }
  tree = PyObject_CallMethod(ast, "parse", "O", dedented);
  if (!tree) goto done;
  PyObject *body = field(tree, "body");
  if (PyList_GET_SIZE(body) >= 1) def = PyList_GET_ITEM(body, 0);
  Py_XINCREF(def);
  Py_DECREF(body);
  if (def && !is_kind(def, "FunctionDef")) {
    /* a lambda: the first one on its source line */
    PyObject *walk = PyObject_CallMethod(ast, "walk", "O", def);
    PyObject *nodes = walk ? PySequence_List(walk) : NULL;
    Py_CLEAR(def);
    for (Py_ssize_t i = 0; nodes && !def && i < PyList_GET_SIZE(nodes); i++)
      if (is_kind(PyList_GET_ITEM(nodes, i), "Lambda")) def = Py_NewRef(PyList_GET_ITEM(nodes, i));
    Py_XDECREF(walk);
    Py_XDECREF(nodes);
    if (!def && !PyErr_Occurred())
      PyErr_SetString(PyExc_TypeError, "ruchey can only compile functions defined with def or lambda");
  }
done:
  Py_XDECREF(inspect); Py_XDECREF(ast); Py_XDECREF(textwrap);
  Py_XDECREF(lines); Py_XDECREF(src); Py_XDECREF(dedented); Py_XDECREF(tree);
  return def;
}

Func *fe_read_function(PyObject *pyfunc, Arena *arena, Diag *diag) {
  Fe fe = {.arena = arena, .diag = diag};
  fe.f = arena_alloc(arena, sizeof(Func));
  fe.f->arena = arena;
  fe.pyfunc = pyfunc;
  fe.globals = PyFunction_GetGlobals(pyfunc);
  fe.builtins = PyEval_GetBuiltins();
  PyObject *code = PyFunction_GetCode(pyfunc);
  fe.f->filename = arena_strdup(arena, PyUnicode_AsUTF8(((PyCodeObject *)code)->co_filename));
  fe.f->name = arena_strdup(arena, PyUnicode_AsUTF8(((PyCodeObject *)code)->co_name));
  PyObject *def = parse_function(&fe, pyfunc);
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
  if (ok) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(body); i++)
      collect_locals(&fe, PyList_GET_ITEM(body, i));
    ok = fe_block(&fe, body, &fe.f->body);
  }
  Py_DECREF(body);
  Py_DECREF(def);
  if (!ok) return NULL;
  fe.f->nvars = fe.nvars;
  fe.f->var_names = fe.vars;
  fe.f->var_types = arena_alloc(arena, sizeof(Type *) * (size_t)(fe.nvars ? fe.nvars : 1));
  return fe.f;
}
