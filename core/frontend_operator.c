/* frontend_operator.c — the operator module's functions called in
 * compiled code (operator.add(a, b), operator.lt, operator.getitem ...).
 *
 * Each call becomes the node its operator's syntax makes (a + b, a < b,
 * a[i], b in a, a is b), so that it types, lowers and fails exactly as the
 * operator does, arrays and every other type included, as Numba types the
 * operators through these very functions. The in-place ones
 * (operator.iadd(a, b)) are Python's `t = a; t += b` on a hidden variable,
 * run before the statement as a comprehension is: arrays and lists change
 * in place and are returned, numbers and tuples give a new value;
 * operator.setitem(a, i, v) is `a[i] = v` run so, its value None.
 * Named as a value (passed to another compiled function), an operator
 * function is a compiled function of ruchey._operator_values calling it.
 */
#include "frontend.h"

typedef enum {
  FORM_BINARY,   /* a op b */
  FORM_INPLACE,  /* t = a; t op= b; t */
  FORM_UNARY,    /* op a */
  FORM_COMPARE,  /* a op b, a comparison */
  FORM_CALL,     /* a builtin of the argument: abs(a), operator.index(a) */
  FORM_TRUTH,    /* not not a: the truth `if a:` tests */
  FORM_CONTAINS, /* b in a */
  FORM_GETITEM,  /* a[b] */
  FORM_IS,       /* a is b (op 1: is not) */
  FORM_SETITEM,  /* a[b] = c, run before the statement; None */
  FORM_MATMUL,   /* a @ b: numpy.matmul(a, b), as the syntax makes it */
} Form;

static const struct {
  const char *name;
  Form form;
  int op;               /* the Op; FORM_IS: whether negated */
  const char *builtin;  /* FORM_CALL: the builtin called */
} operator_fns[] = {
  {"add", FORM_BINARY, OP_ADD}, {"sub", FORM_BINARY, OP_SUB}, {"mul", FORM_BINARY, OP_MUL},
  {"truediv", FORM_BINARY, OP_DIV}, {"floordiv", FORM_BINARY, OP_FLOORDIV}, {"mod", FORM_BINARY, OP_MOD},
  {"pow", FORM_BINARY, OP_POW}, {"lshift", FORM_BINARY, OP_LSHIFT}, {"rshift", FORM_BINARY, OP_RSHIFT},
  {"and_", FORM_BINARY, OP_BITAND}, {"or_", FORM_BINARY, OP_BITOR}, {"xor", FORM_BINARY, OP_BITXOR},
  {"iadd", FORM_INPLACE, OP_ADD}, {"isub", FORM_INPLACE, OP_SUB}, {"imul", FORM_INPLACE, OP_MUL},
  {"itruediv", FORM_INPLACE, OP_DIV}, {"ifloordiv", FORM_INPLACE, OP_FLOORDIV}, {"imod", FORM_INPLACE, OP_MOD},
  {"ipow", FORM_INPLACE, OP_POW}, {"ilshift", FORM_INPLACE, OP_LSHIFT}, {"irshift", FORM_INPLACE, OP_RSHIFT},
  {"iand", FORM_INPLACE, OP_BITAND}, {"ior", FORM_INPLACE, OP_BITOR}, {"ixor", FORM_INPLACE, OP_BITXOR},
  {"neg", FORM_UNARY, OP_NEG}, {"pos", FORM_UNARY, OP_POS}, {"not_", FORM_UNARY, OP_NOT},
  {"invert", FORM_UNARY, OP_INVERT}, {"inv", FORM_UNARY, OP_INVERT},
  {"eq", FORM_COMPARE, OP_EQ}, {"ne", FORM_COMPARE, OP_NE}, {"lt", FORM_COMPARE, OP_LT},
  {"le", FORM_COMPARE, OP_LE}, {"gt", FORM_COMPARE, OP_GT}, {"ge", FORM_COMPARE, OP_GE},
  {"abs", FORM_CALL, 0, "abs"}, {"truth", FORM_TRUTH}, {"index", FORM_CALL, 0, "operator.index"},
  {"contains", FORM_CONTAINS}, {"getitem", FORM_GETITEM},
  {"is_", FORM_IS, 0}, {"is_not", FORM_IS, 1}, {"setitem", FORM_SETITEM}, {"matmul", FORM_MATMUL},
};

#define NFNS (sizeof operator_fns / sizeof operator_fns[0])

/* obj's row: a function of the _operator module (operator.__add__ is
 * operator.add, named add), found by its name; -1 for anything else. */
static int operator_row(PyObject *obj) {
  if (!PyCFunction_Check(obj)) return -1;  /* (every call site asks: most callees are not builtins) */
  PyObject *module = PyObject_GetAttrString(obj, "__module__"), *name = PyObject_GetAttrString(obj, "__name__");
  const char *m = module && PyUnicode_Check(module) ? PyUnicode_AsUTF8(module) : NULL;
  const char *nm = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
  int row = -1;
  for (size_t i = 0; m && nm && !strcmp(m, "_operator") && row < 0 && i < NFNS; i++)
    if (!strcmp(nm, operator_fns[i].name)) row = (int)i;
  PyErr_Clear();
  Py_XDECREF(module); Py_XDECREF(name);
  return row;
}

bool fe_is_operator_function(PyObject *obj) { return operator_row(obj) >= 0; }

static int arity(Form form) {
  return form == FORM_UNARY || form == FORM_CALL || form == FORM_TRUTH ? 1 : form == FORM_SETITEM ? 3 : 2;
}

static Node *unary(Fe *fe, PyObject *e, int op, Node *x) {
  Node *n = new_node(fe, N_UNARY, e);
  n->op = op;
  n->lhs = x;
  return n;
}

static Node *two(Fe *fe, PyObject *e, NodeKind kind, int op, Node *a, Node *b) {
  Node *n = new_node(fe, kind, e);
  n->op = op;
  n->lhs = a;
  n->rhs = b;
  return n;
}

static Node *call(Fe *fe, PyObject *e, const char *builtin, Node *a, Node *b) {
  Node *n = new_node(fe, N_CALL, e);
  n->bi = core_builtin_named(builtin);
  n->list = new_list(fe, b ? 2 : 1);
  n->list.items[0] = a;
  if (b) n->list.items[1] = b;
  return n;
}

static Node *compare(Fe *fe, PyObject *e, int op, Node *a, Node *b) {
  Node *n = new_node(fe, N_COMPARE, e);
  n->list = new_list(fe, 2);
  n->list.items[0] = a;
  n->list.items[1] = b;
  n->ops = arena_alloc(fe->arena, sizeof(int));
  n->ops[0] = op;
  return n;
}

/* a is b as the syntax makes it: against None a test of the Optional */
static Node *is(Fe *fe, PyObject *e, bool negated, Node *a, Node *b) {
  if (a->kind == N_NONE || b->kind == N_NONE) {
    Node *n = new_node(fe, N_IS_NONE, e);
    n->ival = negated;
    n->lhs = a->kind == N_NONE ? b : a;
    return n;
  }
  Node *n = call(fe, e, "is", a, b);
  return negated ? unary(fe, e, OP_NOT, n) : n;
}

/* t = a; t op= b, run before the statement; t is the value */
static Node *in_place(Fe *fe, PyObject *e, int op, Node *a, Node *b) {
  int t = fe_assign_before(fe, e, "inplace", a);
  fe_add_pre(fe, two(fe, e, N_AUGASSIGN, op, fe_var_node(fe, e, t), b));
  return fe_var_node(fe, e, t);
}

static Node *set_item(Fe *fe, PyObject *e, Node *a, Node *i, Node *v) {
  fe_add_pre(fe, two(fe, e, N_ASSIGN, 0, two(fe, e, N_INDEX, 0, a, i), v));
  return new_node(fe, N_NONE, e);
}

static Node *operator_node(Fe *fe, PyObject *e, int row, Node **x) {
  int op = operator_fns[row].op;
  switch (operator_fns[row].form) {
  case FORM_BINARY: return two(fe, e, N_BINOP, op, x[0], x[1]);
  case FORM_INPLACE: return in_place(fe, e, op, x[0], x[1]);
  case FORM_UNARY: return unary(fe, e, op, x[0]);
  case FORM_COMPARE: return compare(fe, e, op, x[0], x[1]);
  case FORM_CALL: return call(fe, e, operator_fns[row].builtin, x[0], NULL);
  case FORM_TRUTH: return unary(fe, e, OP_NOT, unary(fe, e, OP_NOT, x[0]));
  case FORM_CONTAINS: return call(fe, e, "in", x[1], x[0]);
  case FORM_GETITEM: return two(fe, e, N_INDEX, 0, x[0], x[1]);
  case FORM_IS: return is(fe, e, op, x[0], x[1]);
  case FORM_SETITEM: return set_item(fe, e, x[0], x[1], x[2]);
  case FORM_MATMUL:
    core_load_blas();
    return call(fe, e, "numpy.matmul", x[0], x[1]);
  }
  return NULL;
}

Node *fe_operator_call(Fe *fe, PyObject *e, PyObject *obj, bool *is_operator) {
  int row = operator_row(obj);
  *is_operator = row >= 0;
  if (row < 0) return NULL;
  const char *name = operator_fns[row].name;
  PyObject *args = field(e, "args"), *kws = field(e, "keywords");
  int n = arity(operator_fns[row].form);
  Node *x[3] = {NULL, NULL, NULL}, *r = NULL;
  bool starred = false;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(args); i++) starred |= is_kind(PyList_GET_ITEM(args, i), "Starred");
  if (PyList_GET_SIZE(kws))
    fe_error(fe, e, "operator.%s() takes no keyword arguments", name);
  else if (starred)
    fe_error(fe, e, "operator.%s(*args) is not supported in compiled code: pass the arguments one by one", name);
  else if (PyList_GET_SIZE(args) != n)
    fe_error(fe, e, "operator.%s() takes exactly %d argument%s (%zd given)", name, n, n == 1 ? "" : "s",
             PyList_GET_SIZE(args));
  else {
    bool ok = true;
    for (int i = 0; ok && i < n; i++) ok = (x[i] = fe_expr(fe, PyList_GET_ITEM(args, i))) != NULL;
    if (ok) r = operator_node(fe, e, row, x);
  }
  Py_DECREF(args); Py_DECREF(kws);
  return r;
}

Node *fe_operator_value(Fe *fe, PyObject *obj, PyObject *e) {
  int row = operator_row(obj);
  if (row < 0) return NULL;
  const char *name = operator_fns[row].name;
  PyObject *module = PyImport_ImportModule("ruchey._operator_values");
  PyObject *disp = module ? PyObject_CallMethod(module, "value", "si", name, arity(operator_fns[row].form)) : NULL;
  Py_XDECREF(module);
  Node *n = disp && PyObject_TypeCheck(disp, &DispatcherType) ? fe_function_value(fe, disp, e) : NULL;
  if (!n && !fe->diag->kind) fe_error(fe, e, "operator.%s cannot be used as a value here", name);
  PyErr_Clear();
  Py_XDECREF(disp);
  return n;
}

/* A NumPy or math function as a value (_np_apply_along_axis(np.amin, 0, a),
 * as Numba passes its builtins' function types): a compiled function of
 * the builtin's required arguments, and its optional ones as *more,
 * calling it (ruchey/_operator_values.py), one per builtin. */
Node *fe_builtin_value(Fe *fe, PyObject *obj, PyObject *e) {
  const Builtin *bi = core_builtin(obj);
  if (!bi || bi->kind != BK_FUNCTION || (bi->flags & BF_NOCALL) || !bi->module || PyObject_TypeCheck(obj, &DispatcherType))
    return NULL;
  PyObject *module = PyImport_ImportModule("ruchey._operator_values");
  PyObject *disp = module ? PyObject_CallMethod(module, "builtin_value", "Oii", obj, bi->min_args, bi->max_args > bi->min_args) : NULL;
  Py_XDECREF(module);
  Node *n = disp && PyObject_TypeCheck(disp, &DispatcherType) ? fe_function_value(fe, disp, e) : NULL;
  if (!n && !fe->diag->kind) fe_error(fe, e, "%s cannot be used as a value here", bi->name);
  PyErr_Clear();
  Py_XDECREF(disp);
  return n;
}
