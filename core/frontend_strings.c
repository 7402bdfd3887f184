/* frontend_strings.c — f-strings: f"a{x}b{y:.3f}" read as
 * "a" + format(x, "") + "b" + format(y, ".3f"), each format() a call of
 * the builtin's row (lib/builtins/strings.c), which checks the spec; {x!r}
 * formats repr(x). A spec computed at run time ({x:{w}}) and the
 * conversion !a are refused, naming them. "a{}b{:.3f}".format(x, y) and
 * "a%sb%.3f" % (x, y) of a constant template are read as the same f-string. */
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

/* format(value, spec) of value converted by !r or !s (0: none) */
static Node *format_call(Fe *fe, PyObject *e, Node *value, int conversion, Node *spec) {
  if (!value || !spec) return NULL;
  if (conversion == 'a')
    return fe_error(fe, e, "the f-string conversion !%c is not supported in compiled code", conversion);
  Node *n = new_node(fe, N_CALL, e);
  n->bi = core_builtin_named("format");
  n->data = fe_interpreter_text(false);
  n->list = new_list(fe, 2);
  n->list.items[0] = conversion == 'r' ? fe_call_of(fe, e, "repr", value)
                     : conversion == 's' ? fe_call_of(fe, e, "str", value) : value;
  n->list.items[1] = spec;
  return n->list.items[0] ? n : NULL;
}

/* {value!conversion:spec} as format(value, spec), format(repr(value), spec) for !r */
static Node *formatted_value(Fe *fe, PyObject *e) {
  int conversion = ast_int_attr(e, "conversion");
  PyObject *value = field(e, "value"), *spec = field(e, "format_spec");
  Node *n = format_call(fe, e, fe_expr(fe, value), conversion < 0 ? 0 : conversion, spec_node(fe, e, spec));
  Py_DECREF(value); Py_DECREF(spec);
  return n;
}

/* r + p, the parts of a string so far and the next */
static Node *joined(Fe *fe, PyObject *e, Node *r, Node *p) {
  if (!r) return p;
  Node *sum = new_node(fe, N_BINOP, e);
  sum->op = OP_ADD;
  sum->lhs = r;
  sum->rhs = p;
  return sum;
}

Node *fe_fstring(Fe *fe, PyObject *e) {
  PyObject *values = field(e, "values");
  Node *r = NULL;
  bool ok = true;
  for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(values); i++) {
    PyObject *part = PyList_GET_ITEM(values, i);
    int mark = fe->pre.len;
    Node *p = is_kind(part, "FormattedValue") ? formatted_value(fe, part) : fe_expr(fe, part);
    if (p && r) fe_earlier_first(fe, e, &r, 1, &mark);  /* the parts before it run first */
    if ((ok = p != NULL)) r = joined(fe, e, r, p);
  }
  Py_DECREF(values);
  if (!ok) return NULL;
  return r ? r : text_node(fe, e, "", 0);
}

/* The argument a template's field names: {} the next positional one, {2}
 * the third, {name} a keyword's value; NULL (no error yet) where none is. */
static PyObject *field_argument(PyObject *name, PyObject *args, PyObject *kws, Py_ssize_t *next) {
  Py_ssize_t len = PyUnicode_GET_LENGTH(name), i = len ? -1 : (*next)++;
  if (len && PyUnicode_READ_CHAR(name, 0) >= '0' && PyUnicode_READ_CHAR(name, 0) <= '9') {
    PyObject *number = PyLong_FromUnicodeObject(name, 10);
    i = number ? PyLong_AsSsize_t(number) : -1;
    Py_XDECREF(number);
    PyErr_Clear();
  } else if (len) {
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(kws); k++) {
      PyObject *arg = field(PyList_GET_ITEM(kws, k), "arg");
      bool same = arg != Py_None && PyUnicode_Compare(arg, name) == 0;
      Py_DECREF(arg);
      if (same) return field(PyList_GET_ITEM(kws, k), "value");
    }
    return NULL;
  }
  return i >= 0 && i < PyList_GET_SIZE(args) ? Py_NewRef(PyList_GET_ITEM(args, i)) : NULL;
}

/* template.format(args) of a constant template: its literal text and
 * fields (_string.formatter_parser's reading) as an f-string's parts. A
 * field reads its argument where it stands, so an argument other than a
 * name or a constant may be named once only (Python evaluates it once). */
__attribute__((noinline)) Node *fe_str_format(Fe *fe, PyObject *e, PyObject *template) {
  PyObject *text = field(template, "value"), *args = field(e, "args"), *kws = field(e, "keywords");
  PyObject *module = PyImport_ImportModule("_string");
  PyObject *parts = module ? PyObject_CallMethod(module, "formatter_parser", "O", text) : NULL;
  PyObject *items = parts ? PySequence_List(parts) : NULL;
  Node *r = NULL;
  bool ok = items != NULL;
  Py_ssize_t next = 0, nargs = PyList_GET_SIZE(args);
  int *uses = arena_alloc(fe->arena, sizeof(int) * (size_t)(nargs + PyList_GET_SIZE(kws) + 1));
  if (!ok) fe_error(fe, template, "this str.format() template is not valid (Python raises ValueError)");
  PyErr_Clear();
  for (Py_ssize_t i = 0; ok && i < PyList_GET_SIZE(items); i++) {
    PyObject *literal, *name, *spec, *conversion;
    if (!(ok = PyArg_ParseTuple(PyList_GET_ITEM(items, i), "OOOO", &literal, &name, &spec, &conversion))) break;
    Py_ssize_t n;
    const char *lit = PyUnicode_AsUTF8AndSize(literal, &n);
    if (n) r = joined(fe, e, r, text_node(fe, e, lit, (size_t)n));
    if (name == Py_None) continue;
    PyObject *arg = field_argument(name, args, kws, &next);
    const char *spec_text = PyUnicode_AsUTF8AndSize(spec, &n);
    if (!arg || strchr(spec_text, '{')) {
      ok = fe_error(fe, template, "str.format() field '{%s}' is not supported in compiled code (fields name an "
                    "argument ({}, {0}, {name}) with a constant spec)", PyUnicode_AsUTF8(name)) != NULL;
      Py_XDECREF(arg);
      break;
    }
    Py_ssize_t which = -1;
    for (Py_ssize_t k = 0; k < nargs; k++)
      if (PyList_GET_ITEM(args, k) == arg) which = k;
    bool plain = is_kind(arg, "Name") || is_kind(arg, "Constant");
    if (!plain && which >= 0 && uses[which]++) {
      ok = fe_error(fe, arg, "str.format() names this argument twice: compiled code reads it where it is named; "
                    "assign it to a variable first") != NULL;
      Py_DECREF(arg);
      break;
    }
    int conv = conversion == Py_None ? 0 : (int)PyUnicode_READ_CHAR(conversion, 0);
    Node *p = format_call(fe, arg, fe_expr(fe, arg), conv, text_node(fe, arg, spec_text, (size_t)n));
    Py_DECREF(arg);
    if (!(ok = p != NULL)) break;
    r = joined(fe, e, r, p);
  }
  Py_XDECREF(items); Py_XDECREF(parts); Py_XDECREF(module);
  Py_DECREF(text); Py_DECREF(args); Py_DECREF(kws);
  PyErr_Clear();
  if (!ok) return NULL;
  return r ? r : text_node(fe, e, "", 0);
}

/* One conversion of a %-template (after its '%'): its format() spec (64
 * bytes), the call its value goes through (str, repr, int or none), and
 * its length; 0 where it is not of the subset (a mapping key, '*', a
 * precision of an int, %c). */
static size_t percent_spec(const char *t, char *spec, const char **through) {
  const char *p = t;
  bool left = false, zero = false, alternate = false;
  char sign = 0;
  for (; *p && strchr("-+ 0#", *p); p++) {
    if (*p == '-') left = true;
    else if (*p == '0') zero = true;
    else if (*p == '#') alternate = true;
    else if (sign != '+') sign = *p;
  }
  const char *width = p;
  while (*p >= '0' && *p <= '9') p++;
  int nwidth = (int)(p - width), nprec = -1;
  const char *prec = NULL;
  if (*p == '.') {
    prec = ++p;
    while (*p >= '0' && *p <= '9') p++;
    nprec = (int)(p - prec);
  }
  while (*p && strchr("hlL", *p)) p++;
  char type = *p;
  if (!type || !strchr("diusrfFeEgGxXo", type) || (prec && strchr("diuxXo", type)) || nwidth > 20 || nprec > 20)
    return 0;
  bool text = type == 's' || type == 'r', integer = strchr("diu", type) != NULL;
  *through = type == 's' ? "str" : type == 'r' ? "repr" : integer ? "int" : NULL;
  /* %-formats right-align text, format() left-aligns it; %d truncates a float as int() does */
  char *o = spec;
  if (left || text) *o++ = left ? '<' : '>';
  if (sign && !text) *o++ = sign;
  if (alternate && !text) *o++ = '#';
  if (zero && !left && !text && nwidth) *o++ = '0';
  o += sprintf(o, "%.*s", nwidth, width);
  if (prec) o += sprintf(o, ".%.*s", nprec, prec);
  if (!text) *o++ = integer ? 'd' : type;
  *o = 0;
  return (size_t)(p + 1 - t);
}

/* template % values of a constant template: its text and conversions as
 * an f-string's parts, each reading one of the values (a tuple written
 * out, or one value for a template of one conversion). */
__attribute__((noinline)) Node *fe_percent_format(Fe *fe, PyObject *e, PyObject *template, PyObject *values) {
  PyObject *text = field(template, "value");
  const char *t = PyUnicode_AsUTF8(text);
  PyObject *elts = is_kind(values, "Tuple") ? field(values, "elts") : NULL;
  Py_ssize_t nvalues = elts ? PyList_GET_SIZE(elts) : 1, used = 0;
  Node *r = NULL;
  bool ok = t != NULL;
  for (const char *p = t; ok && p && *p;) {
    const char *pct = strchr(p, '%');
    size_t n = pct ? (size_t)(pct - p) : strlen(p);
    if (n) r = joined(fe, e, r, text_node(fe, e, p, n));
    if (!pct) break;
    if (pct[1] == '%') {
      r = joined(fe, e, r, text_node(fe, e, "%", 1));
      p = pct + 2;
      continue;
    }
    char spec[64];
    const char *through = NULL;
    size_t len = percent_spec(pct + 1, spec, &through);
    if (!len) {
      ok = fe_error(fe, template, "this %%-format conversion is not supported in compiled code (%%s, %%r, %%d, %%f, "
                    "%%e, %%g, %%x and %%o with flags, width and precision are)") != NULL;
      break;
    }
    if (used++ >= nvalues) {
      ok = fe_error(fe, e, elts ? "not enough values for this %%-format" : "a %%-format of several conversions "
                    "takes its values as a tuple written out in compiled code") != NULL;
      break;
    }
    PyObject *v = elts ? PyList_GET_ITEM(elts, used - 1) : values;
    Node *value = fe_expr(fe, v);
    if (value && through) value = fe_call_of(fe, v, through, value);
    Node *part = format_call(fe, v, value, 0, text_node(fe, v, spec, strlen(spec)));
    if (!(ok = part != NULL)) break;
    r = joined(fe, e, r, part);
    p = pct + 1 + len;
  }
  if (ok && used != nvalues) ok = fe_error(fe, e, "not all values are converted by this %%-format") != NULL;
  Py_XDECREF(elts);
  Py_DECREF(text);
  if (!ok) return NULL;
  return r ? r : text_node(fe, e, "", 0);
}
