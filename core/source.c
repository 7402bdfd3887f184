/* source.c — the source of a function to compile, parsed by Python's ast.
 *
 * ruchey compiles from source (Numba from bytecode), so it looks wherever
 * Python keeps the text of a function: its file (inspect, through
 * linecache: also IPython's cells and Python 3.13's REPL), the strings run
 * by exec(), eval() and compile() (an audit hook keeps each one for the
 * functions defined in it, as long as they live), the text of `python -c`
 * (sys.orig_argv) and the lines typed into the plain REPL (readline's
 * history). A text is taken only if what stands at the function's first
 * line defines a function of its name and parameters: a file edited since
 * it was imported, or one "<string>" for another, is never compiled in the
 * function's place.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "core.h"

/* The strings compiled in this process, kept as linecache keeps files: a
 * WeakKeyDictionary from the code of each function defined in one that
 * exec() or eval() ran to its text, and the last few compiled, for code
 * never run (types.FunctionType(compile(...).co_consts[0], ...)). */
static PyObject *exec_sources;
#define RECENT 8
static struct {
  PyObject *text, *filename;
} recent[RECENT];
static int newest;  /* recent[newest] is the last string compiled */
/* Set while the hook's own Python code runs, and while ruchey parses a
 * source: neither is a string of the user's. */
static bool busy;

/* ---------------------------------------------------------------- watching exec() */

/* Every function's code under code (its constants, recursively) keyed to text. */
static void keep_functions(PyObject *code, PyObject *text) {
  PyObject *consts = PyObject_GetAttrString(code, "co_consts");
  for (Py_ssize_t i = 0; consts && i < PyTuple_GET_SIZE(consts); i++) {
    PyObject *c = PyTuple_GET_ITEM(consts, i);
    if (PyCode_Check(c) && PyObject_SetItem(exec_sources, c, text) == 0) keep_functions(c, text);
  }
  Py_XDECREF(consts);
}

/* "compile" (source, filename) comes first, then "exec" (code) when exec()
 * or eval() runs it. Only names such as "<string>" are kept: a text from a
 * file is found in its file. */
static int on_audit(const char *event, PyObject *args, void *unused) {
  bool compiled = !strcmp(event, "compile"), executed = !compiled && !strcmp(event, "exec");
  if ((!compiled && !executed) || busy || PyErr_Occurred() || !PyTuple_Check(args)) return 0;
  busy = true;
  if (compiled && PyTuple_GET_SIZE(args) == 2) {
    PyObject *text = PyTuple_GET_ITEM(args, 0), *filename = PyTuple_GET_ITEM(args, 1);
    if ((PyBytes_Check(text) || PyUnicode_Check(text)) && PyUnicode_Check(filename) &&
        PyUnicode_GET_LENGTH(filename) > 1 && PyUnicode_READ_CHAR(filename, 0) == '<') {
      newest = (newest + 1) % RECENT;
      Py_XSETREF(recent[newest].text, Py_NewRef(text));
      Py_XSETREF(recent[newest].filename, Py_NewRef(filename));
    }
  } else if (executed && PyTuple_GET_SIZE(args) >= 1 && recent[newest].filename) {
    PyObject *code = PyTuple_GET_ITEM(args, 0);
    if (PyCode_Check(code) &&
        PyUnicode_Compare(((PyCodeObject *)code)->co_filename, recent[newest].filename) == 0)
      keep_functions(code, recent[newest].text);
  }
  PyErr_Clear();  /* a hook that fails would fail the user's exec() */
  busy = false;
  return 0;
}

int src_watch(void) {
  static bool watching;
  if (watching) return 0;
  PyObject *weakref = PyImport_ImportModule("weakref");
  exec_sources = weakref ? PyObject_CallMethod(weakref, "WeakKeyDictionary", NULL) : NULL;
  Py_XDECREF(weakref);
  if (!exec_sources || PySys_AddAuditHook(on_audit, NULL) < 0) return -1;
  watching = true;
  return 0;
}

/* ---------------------------------------------------------------- where to look */

/* A text as a list of lines (str), as a file's; NULL without an exception
 * if it is not one. */
static PyObject *text_lines(PyObject *text) {
  PyObject *s = PyBytes_Check(text)
                    ? PyUnicode_DecodeUTF8(PyBytes_AS_STRING(text), PyBytes_GET_SIZE(text), "replace")
                    : Py_NewRef(text);
  PyObject *lines = s ? PyObject_CallMethod(s, "splitlines", "O", Py_True) : NULL;
  Py_XDECREF(s);
  if (!lines) PyErr_Clear();
  return lines;
}

/* The text `python -c` ran: sys.argv is ["-c", args...] and the text stands
 * in sys.orig_argv just before those args. */
static PyObject *command_text(void) {
  PyObject *argv = PySys_GetObject("argv"), *orig = PySys_GetObject("orig_argv");
  if (!argv || !orig || !PyList_Check(argv) || !PyList_Check(orig) || !PyList_GET_SIZE(argv)) return NULL;
  PyObject *first = PyList_GET_ITEM(argv, 0);
  Py_ssize_t at = PyList_GET_SIZE(orig) - PyList_GET_SIZE(argv);
  if (!PyUnicode_Check(first) || PyUnicode_CompareWithASCIIString(first, "-c") || at < 1) return NULL;
  return Py_NewRef(PyList_GET_ITEM(orig, at));
}

/* The lines typed into the plain REPL (readline's history), each ending in
 * a newline, oldest first; NULL where the REPL keeps none. */
static PyObject *history_lines(void) {
  PyObject *name = PyUnicode_FromString("readline");
  PyObject *readline = name ? PyImport_GetModule(name) : NULL;  /* only if the REPL loaded it */
  Py_XDECREF(name);
  PyObject *count = readline ? PyObject_CallMethod(readline, "get_current_history_length", NULL) : NULL;
  Py_ssize_t n = count ? PyLong_AsSsize_t(count) : 0;
  PyObject *lines = n > 0 ? PyList_New(0) : NULL;
  for (Py_ssize_t i = 1; lines && i <= n; i++) {
    PyObject *item = PyObject_CallMethod(readline, "get_history_item", "n", i);
    PyObject *line = item && PyUnicode_Check(item) ? PyUnicode_FromFormat("%U\n", item) : NULL;
    if (!line || PyList_Append(lines, line) < 0) Py_CLEAR(lines);
    Py_XDECREF(line);
    Py_XDECREF(item);
  }
  Py_XDECREF(count);
  Py_XDECREF(readline);
  PyErr_Clear();
  return lines;
}

/* Each text that may hold code's source, as a list of lines of which the
 * first is line 1, most likely first: the string exec() ran it from, the
 * last strings compiled under its file name, `python -c`'s text, and for
 * the REPL each statement typed (from its first line on), newest first. */
static PyObject *candidate_texts(PyCodeObject *code) {
  PyObject *texts = PyList_New(0);
  PyObject *text = texts ? PyObject_CallMethod(exec_sources, "get", "O", (PyObject *)code) : NULL;
  PyObject *lines = text && text != Py_None ? text_lines(text) : NULL;
  if (lines) PyList_Append(texts, lines);
  for (int age = 0; texts && age < RECENT; age++) {
    int i = (newest - age + RECENT) % RECENT;
    Py_XSETREF(lines, recent[i].filename && !PyUnicode_Compare(code->co_filename, recent[i].filename)
                          ? text_lines(recent[i].text) : NULL);
    if (lines) PyList_Append(texts, lines);
  }
  Py_XSETREF(text, PyUnicode_CompareWithASCIIString(code->co_filename, "<string>") ? NULL : command_text());
  Py_XSETREF(lines, text ? text_lines(text) : NULL);
  if (lines) PyList_Append(texts, lines);
  Py_XSETREF(lines, PyUnicode_CompareWithASCIIString(code->co_filename, "<stdin>") ? NULL : history_lines());
  for (Py_ssize_t i = lines ? PyList_GET_SIZE(lines) - 1 : -1; texts && i >= 0; i--) {
    Py_UCS4 c = PyUnicode_READ_CHAR(PyList_GET_ITEM(lines, i), 0);
    if (c == ' ' || c == '\t' || c == '\n') continue;  /* not a statement's first line */
    PyObject *statement = PyList_GetSlice(lines, i, PyList_GET_SIZE(lines));
    if (!statement || PyList_Append(texts, statement) < 0) Py_CLEAR(texts);
    Py_XDECREF(statement);
  }
  Py_XDECREF(lines);
  Py_XDECREF(text);
  PyErr_Clear();
  return texts;
}

/* ---------------------------------------------------------------- does it match */

/* The names of an ast node's list field, as a tuple of str. */
static PyObject *arg_names(PyObject *arguments, const char *list_name) {
  PyObject *list = PyObject_GetAttrString(arguments, list_name);
  PyObject *names = list ? PyTuple_New(PyList_GET_SIZE(list)) : NULL;
  for (Py_ssize_t i = 0; names && i < PyList_GET_SIZE(list); i++)
    PyTuple_SET_ITEM(names, i, PyObject_GetAttrString(PyList_GET_ITEM(list, i), "arg"));
  Py_XDECREF(list);
  return names;
}

/* Whether a def or lambda node has code's name and parameters. */
static bool defines(PyObject *def, PyCodeObject *code) {
  PyObject *name = PyObject_GetAttrString(def, "name");  /* a lambda has none */
  if (!name) PyErr_Clear();
  bool same = name ? !PyUnicode_Compare(name, code->co_name)
                   : !PyUnicode_CompareWithASCIIString(code->co_name, "<lambda>");
  PyObject *arguments = same ? PyObject_GetAttrString(def, "args") : NULL;
  PyObject *posonly = arguments ? arg_names(arguments, "posonlyargs") : NULL;
  PyObject *plain = posonly ? arg_names(arguments, "args") : NULL;
  PyObject *kwonly = plain ? arg_names(arguments, "kwonlyargs") : NULL;
  PyObject *params = kwonly ? PySequence_Concat(posonly, plain) : NULL;
  Py_XSETREF(params, params ? PySequence_Concat(params, kwonly) : NULL);
  PyObject *varnames = params ? PyObject_GetAttrString((PyObject *)code, "co_varnames") : NULL;
  PyObject *expected = varnames ? PyTuple_GetSlice(varnames, 0, PyTuple_GET_SIZE(params)) : NULL;
  same = expected && PyTuple_GET_SIZE(params) == code->co_argcount + code->co_kwonlyargcount &&
         PyObject_RichCompareBool(params, expected, Py_EQ) == 1;
  Py_XDECREF(name); Py_XDECREF(arguments); Py_XDECREF(posonly); Py_XDECREF(plain);
  Py_XDECREF(kwonly); Py_XDECREF(params); Py_XDECREF(varnames); Py_XDECREF(expected);
  PyErr_Clear();
  return same;
}

/* The def of code in block (the lines from its first, inspect's "block"),
 * or the first lambda in the block that matches; a new reference, or NULL
 * (an exception only if the block does not parse). */
static PyObject *parse_block(PyObject *block, PyCodeObject *code, int *col_offset) {
  PyObject *empty = PyUnicode_FromString("");
  PyObject *src = empty ? PyUnicode_Join(empty, block) : NULL;
  PyObject *dedented = src ? PyObject_CallMethod(PyImport_AddModule("textwrap"), "dedent", "O", src) : NULL;
  PyObject *tree = dedented ? PyObject_CallMethod(PyImport_AddModule("ast"), "parse", "O", dedented) : NULL;
  PyObject *body = tree ? PyObject_GetAttrString(tree, "body") : NULL;
  PyObject *def = NULL;
  if (body && PyList_GET_SIZE(body) && !strcmp(Py_TYPE(PyList_GET_ITEM(body, 0))->tp_name, "FunctionDef")) {
    if (defines(PyList_GET_ITEM(body, 0), code)) def = Py_NewRef(PyList_GET_ITEM(body, 0));
  } else if (body && PyList_GET_SIZE(body)) {  /* the line's statements: `import m; f = jit(lambda ...)` */
    PyObject *walk = PyObject_CallMethod(PyImport_AddModule("ast"), "walk", "O", tree);
    PyObject *nodes = walk ? PySequence_List(walk) : NULL;
    for (Py_ssize_t i = 0; nodes && !def && i < PyList_GET_SIZE(nodes); i++) {
      PyObject *node = PyList_GET_ITEM(nodes, i);
      if (!strcmp(Py_TYPE(node)->tp_name, "Lambda") && defines(node, code)) def = Py_NewRef(node);
    }
    Py_XDECREF(walk);
    Py_XDECREF(nodes);
  }
  /* dedent removes the same indentation from every line: the first line's
   * is the column offset */
  const char *first = def ? PyUnicode_AsUTF8(PyList_GET_ITEM(block, 0)) : "";
  *col_offset = 0;
  while (first[*col_offset] == ' ' || first[*col_offset] == '\t') ++*col_offset;
  Py_XDECREF(empty); Py_XDECREF(src); Py_XDECREF(dedented); Py_XDECREF(tree); Py_XDECREF(body);
  return def;
}

/* ---------------------------------------------------------------- the function's def */

/* The block of lines from code's first line in a text's lines (inspect's
 * getblock), or NULL without an exception. */
static PyObject *block_at(PyObject *inspect, PyObject *lines, PyCodeObject *code) {
  Py_ssize_t first = code->co_firstlineno - 1;
  if (first < 0 || first >= PyList_GET_SIZE(lines)) return NULL;
  PyObject *rest = PyList_GetSlice(lines, first, PyList_GET_SIZE(lines));
  PyObject *block = rest ? PyObject_CallMethod(inspect, "getblock", "O", rest) : NULL;
  Py_XDECREF(rest);
  if (block && !PyList_Check(block)) Py_SETREF(block, PySequence_List(block));
  if (!block || !PyList_GET_SIZE(block)) Py_CLEAR(block);
  PyErr_Clear();
  return block;
}

/* The TypingError that says what to do when no text defines the function. */
static void *no_source(PyObject *pyfunc, PyCodeObject *code, bool in_file) {
  if (in_file)
    return PyErr_Format(core_TypingError,
                        "the source of %S in %U, line %d, does not read as its definition: was the "
                        "file changed after it was imported (reload it), or is it a lambda over "
                        "several lines (write it on one line, or as a def)?",
                        pyfunc, code->co_filename, code->co_firstlineno);
  return PyErr_Format(core_TypingError,
                      "cannot find the source of %S (defined in %U): ruchey compiles from source; "
                      "define the function in a file, or in a string given to exec() or compile()",
                      pyfunc, code->co_filename);
}

PyObject *src_parse_function(PyObject *pyfunc, int *line_offset, int *col_offset) {
  PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(pyfunc);
  PyObject *inspect = PyImport_ImportModule("inspect");
  PyObject *ast = inspect ? PyImport_ImportModule("ast") : NULL;
  PyObject *textwrap = ast ? PyImport_ImportModule("textwrap") : NULL;
  PyObject *def = NULL;
  if (!textwrap) goto done;
  busy = true;
  /* its file first, where inspect finds it */
  PyObject *found = PyObject_CallMethod(inspect, "getsourcelines", "O", pyfunc);
  bool in_file = found && PyUnicode_READ_CHAR(code->co_filename, 0) != '<';
  if (found) {
    def = parse_block(PyTuple_GET_ITEM(found, 0), code, col_offset);
    *line_offset = (int)PyLong_AsLong(PyTuple_GET_ITEM(found, 1)) - 1;
  }
  PyErr_Clear();
  Py_XDECREF(found);
  PyObject *texts = def ? NULL : candidate_texts(code);
  for (Py_ssize_t i = 0; texts && !def && i < PyList_GET_SIZE(texts); i++) {
    PyObject *block = block_at(inspect, PyList_GET_ITEM(texts, i), code);
    def = block ? parse_block(block, code, col_offset) : NULL;
    *line_offset = code->co_firstlineno - 1;
    PyErr_Clear();
    Py_XDECREF(block);
  }
  Py_XDECREF(texts);
  busy = false;
  if (!def) no_source(pyfunc, code, in_file);
done:
  Py_XDECREF(inspect); Py_XDECREF(ast); Py_XDECREF(textwrap);
  return def;
}
