/* frontend_strings.c — f-strings: f"a{x}b{y:.3f}" read as
 * "a" + format(x, "") + "b" + format(y, ".3f"), each format() a call of
 * the builtin's row (lib/builtins/strings.c), which checks the spec; {x!r}
 * formats repr(x). A spec computed at run time ({x:{w}}) and the
 * conversion !a are refused, naming them. */
#include "frontend.h"

static Node *text_node(Fe *fe, PyObject *e, const char *text, size_t n) {
  Node *s = new_node(fe, N_STRING, e);
  char *copy = arena_alloc(fe->arena, n + 1);
  memcpy(copy, text, n);
  s->str = copy;
  s->ival = (int64_t)n;
  return s;
}

/* A format spec: a JoinedStr of constants only, as one string node. */
static Node *spec_node(Fe *fe, PyObject *e, PyObject *spec) {
  if (spec == Py_None) return text_node(fe, e, "", 0);
  PyObject *values = field(spec, "values");
  PyObject *joined = PyUnicode_FromString("");
  for (Py_ssize_t i = 0; joined && i < PyList_GET_SIZE(values); i++) {
    PyObject *part = PyList_GET_ITEM(values, i);
    PyObject *v = is_kind(part, "Constant") ? field(part, "value") : NULL;
    if (!v || !PyUnicode_Check(v)) {
      Py_XDECREF(v);
      Py_CLEAR(joined);
      break;
    }
    Py_SETREF(joined, PyUnicode_Concat(joined, v));
    Py_DECREF(v);
  }
  Py_DECREF(values);
  Py_ssize_t n;
  const char *text = joined ? PyUnicode_AsUTF8AndSize(joined, &n) : NULL;
  Node *s = text ? text_node(fe, e, text, (size_t)n) : NULL;
  PyErr_Clear();
  Py_XDECREF(joined);
  return s ? s : fe_error(fe, e, "f-string format specs computed at run time ({x:{width}}) are not supported in "
                                 "compiled code");
}

/* {value!conversion:spec} as format(value, spec), format(repr(value), spec) for !r */
static Node *formatted_value(Fe *fe, PyObject *e) {
  int conversion = ast_int_attr(e, "conversion");
  if (conversion == 'a')
    return fe_error(fe, e, "the f-string conversion !%c is not supported in compiled code", conversion);
  PyObject *value = field(e, "value"), *spec = field(e, "format_spec");
  Node *n = new_node(fe, N_CALL, e);
  n->bi = core_builtin_named("format");
  n->list = new_list(fe, 2);
  n->list.items[0] = conversion == 'r' ? fe_call_of(fe, e, "repr", fe_expr(fe, value)) : fe_expr(fe, value);
  n->list.items[1] = n->list.items[0] ? spec_node(fe, e, spec) : NULL;
  Py_DECREF(value); Py_DECREF(spec);
  return n->list.items[1] ? n : NULL;
}

Node *fe_fstring(Fe *fe, PyObject *e) {
  PyObject *values = field(e, "values");
  Node *r = NULL;
  bool ok = true;
  for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(values); i++) {
    PyObject *part = PyList_GET_ITEM(values, i);
    Node *p = is_kind(part, "FormattedValue") ? formatted_value(fe, part) : fe_expr(fe, part);
    if (!(ok = p != NULL)) break;
    if (r) {
      Node *sum = new_node(fe, N_BINOP, e);
      sum->op = OP_ADD;
      sum->lhs = r;
      sum->rhs = p;
      p = sum;
    }
    r = p;
  }
  Py_DECREF(values);
  if (!ok) return NULL;
  return r ? r : text_node(fe, e, "", 0);
}
