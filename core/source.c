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
#include <sys/stat.h>

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

/* Every function's code under code (its constants, recursively) keyed to
 * text. Code objects compare by value: one equal to a key already there
 * (the same text run again: fluids.numba execs each solver's source under
 * one name, its quad_adaptive twice) takes the entry over, as a weak key
 * the old one would remove when it dies, with it the new one's text. */
static void keep_functions(PyObject *code, PyObject *text) {
  PyObject *consts = PyObject_GetAttrString(code, "co_consts");
  for (Py_ssize_t i = 0; consts && i < PyTuple_GET_SIZE(consts); i++) {
    PyObject *c = PyTuple_GET_ITEM(consts, i);
    if (!PyCode_Check(c)) continue;
    if (PyObject_DelItem(exec_sources, c) < 0) PyErr_Clear();  /* (none there: KeyError) */
    if (PyObject_SetItem(exec_sources, c, text) == 0) keep_functions(c, text);
  }
  Py_XDECREF(consts);
}

/* Whether a string compiled under filename is one to keep: a name such as
 * "<string>", or a path where no file stands (code generated under a made-up
 * path); a text from a file is found in its file. */
static bool names_no_file(PyObject *filename) {
  if (PyUnicode_GET_LENGTH(filename) > 1 && PyUnicode_READ_CHAR(filename, 0) == '<') return true;
  PyObject *path = PyUnicode_EncodeFSDefault(filename);
  struct stat st;
  bool missing = path && stat(PyBytes_AS_STRING(path), &st) != 0;
  Py_XDECREF(path);
  return missing;
}

/* Whether o is a syntax tree (an ast.Module given to compile()). */
static bool is_tree(PyObject *o) {
  PyObject *ast = PyImport_ImportModule("ast");
  PyObject *node = ast ? PyObject_GetAttrString(ast, "AST") : NULL;
  bool tree = node && PyObject_IsInstance(o, node) == 1;
  Py_XDECREF(ast); Py_XDECREF(node);
  return tree;
}

/* Whether the code compiled from recent[i] is code, named by its file: a
 * tree compiled is reported without its file name (None), and kept for any
 * code, which the def's name, parameters and line then check. */
static bool compiled_from(int i, PyCodeObject *code) {
  return recent[i].filename &&
         (recent[i].filename == Py_None || !PyUnicode_Compare(code->co_filename, recent[i].filename));
}

/* Whether recent[i] is a tree compiled under the name of a file that
 * stands: an import hook's module (pytest's assertions rewritten, a macro
 * expander's), whose functions' defs are read from the file. Kept, each
 * such module's whole tree would live as long as its functions, and every
 * collection of the garbage collector would walk it. */
static bool from_file_tree(int i, PyCodeObject *code) {
  return recent[i].filename == Py_None && !names_no_file(code->co_filename);
}

/* "compile" (source, filename) comes first, then "exec" (code) when exec()
 * or eval() runs it. The source is a string, or a syntax tree that code
 * generators build (datashader's macros): kept as the tree itself. */
static int on_audit(const char *event, PyObject *args, void *unused) {
  bool compiled = !strcmp(event, "compile"), executed = !compiled && !strcmp(event, "exec");
  if ((!compiled && !executed) || busy || PyErr_Occurred() || !PyTuple_Check(args)) return 0;
  busy = true;
  if (compiled && PyTuple_GET_SIZE(args) == 2) {
    PyObject *text = PyTuple_GET_ITEM(args, 0), *filename = PyTuple_GET_ITEM(args, 1);
    bool string = (PyBytes_Check(text) || PyUnicode_Check(text)) && PyUnicode_Check(filename) && names_no_file(filename);
    if (string || (filename == Py_None && is_tree(text))) {
      newest = (newest + 1) % RECENT;
      Py_XSETREF(recent[newest].text, Py_NewRef(text));
      Py_XSETREF(recent[newest].filename, Py_NewRef(filename));
    }
  } else if (executed && PyTuple_GET_SIZE(args) >= 1) {
    PyObject *code = PyTuple_GET_ITEM(args, 0);
    if (PyCode_Check(code) && compiled_from(newest, (PyCodeObject *)code) && !from_file_tree(newest, (PyCodeObject *)code))
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

/* A kept source as candidate_texts gives it: a string as its lines, a
 * syntax tree as it is. */
static PyObject *text_or_tree(PyObject *text) {
  return PyBytes_Check(text) || PyUnicode_Check(text) ? text_lines(text) : Py_NewRef(text);
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
 * first is line 1 (or a syntax tree compiled), most likely first: the
 * string or tree exec() ran it from, the
 * last strings compiled under its file name, `python -c`'s text, and for
 * the REPL each statement typed (from its first line on), newest first. */
static PyObject *candidate_texts(PyCodeObject *code) {
  PyObject *texts = PyList_New(0);
  PyObject *text = texts ? PyObject_CallMethod(exec_sources, "get", "O", (PyObject *)code) : NULL;
  PyObject *lines = text && text != Py_None ? text_or_tree(text) : NULL;
  if (lines) PyList_Append(texts, lines);
  for (int age = 0; texts && age < RECENT; age++) {
    int i = (newest - age + RECENT) % RECENT;
    Py_XSETREF(lines, compiled_from(i, code) ? text_or_tree(recent[i].text) : NULL);
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

/* The statements of block (lines of text) parsed where they stand: an
 * indented block (a nested def, a lambda in a method) is parsed as the body
 * of an `if 1:` rather than dedented, so that its lines at column 0 (a
 * docstring's, a backslash continuation's) stay valid and every column is
 * the file's. Line 1 is the block's first line. */
static PyObject *parse_statements(PyObject *block) {
  PyObject *ast = PyImport_AddModule("ast");  /* borrowed */
  PyObject *empty = PyUnicode_FromString("");
  PyObject *src = empty ? PyUnicode_Join(empty, block) : NULL;
  Py_UCS4 c = src && PyUnicode_GET_LENGTH(src) ? PyUnicode_READ_CHAR(src, 0) : 0;
  bool indented = c == ' ' || c == '\t';
  if (indented) Py_XSETREF(src, PyUnicode_FromFormat("if 1:\n%U", src));
  PyObject *tree = src ? PyObject_CallMethod(ast, "parse", "O", src) : NULL;
  PyObject *body = tree ? PyObject_GetAttrString(tree, "body") : NULL;
  if (body && indented) {
    PyObject *moved = PyObject_CallMethod(ast, "increment_lineno", "Oi", tree, -1);
    PyObject *inner = moved && PyList_GET_SIZE(body) ? PyObject_GetAttrString(PyList_GET_ITEM(body, 0), "body") : NULL;
    Py_XDECREF(moved);
    Py_SETREF(body, inner);
  }
  Py_XDECREF(empty); Py_XDECREF(src); Py_XDECREF(tree);
  return body;
}

/* Where code's instructions stand in its file: the first (line, column)
 * and the last (end line, end column) of co_positions; false where Python
 * keeps no columns (3.10). */
static bool code_span(PyCodeObject *code, long span[4]) {
  PyObject *it = PyObject_CallMethod((PyObject *)code, "co_positions", NULL);
  PyObject *pos;
  bool any = false;
  while (it && (pos = PyIter_Next(it))) {
    long v[4];
    bool known = PyTuple_Check(pos) && PyTuple_GET_SIZE(pos) == 4;
    for (int i = 0; known && i < 4; i++)
      known = PyTuple_GET_ITEM(pos, i) != Py_None && (v[i] = PyLong_AsLong(PyTuple_GET_ITEM(pos, i))) >= 0;
    Py_DECREF(pos);
    if (!known || (v[0] == v[1] && v[2] == v[3])) continue;  /* no position, or none wide (RESUME) */
    if (!any || v[0] < span[0] || (v[0] == span[0] && v[2] < span[1])) span[0] = v[0], span[1] = v[2];
    if (!any || v[1] > span[2] || (v[1] == span[2] && v[3] > span[3])) span[2] = v[1], span[3] = v[3];
    any = true;
  }
  Py_XDECREF(it);
  PyErr_Clear();
  return any;
}

static long node_int(PyObject *node, const char *name) {
  PyObject *v = PyObject_GetAttrString(node, name);
  long r = v && v != Py_None ? PyLong_AsLong(v) : -1;
  Py_XDECREF(v);
  PyErr_Clear();
  return r;
}

/* The names a code object reads: its globals and attributes, parameters,
 * locals and free variables (a lambda compiled alone reads its free
 * variables as globals); a new set, or NULL. */
static PyObject *names_read(PyObject *code) {
  PyObject *names = PySet_New(NULL);
  const char *fields[] = {"co_names", "co_varnames", "co_freevars"};
  for (size_t i = 0; names && i < sizeof fields / sizeof *fields; i++) {
    PyObject *t = PyObject_GetAttrString(code, fields[i]);
    for (Py_ssize_t j = 0; names && t && PyTuple_Check(t) && j < PyTuple_GET_SIZE(t); j++)
      if (PySet_Add(names, PyTuple_GET_ITEM(t, j)) < 0) Py_CLEAR(names);
    if (!t) Py_CLEAR(names);
    Py_XDECREF(t);
  }
  return names;
}

/* Python 3.10 keeps no columns: whether the lambda, compiled alone, has
 * code's constants and names (x + 1 and x * 100, or math.floor(x) and
 * math.ceil(x), differ there). Lambdas that differ in nothing but their
 * operators are told apart by columns only (3.11 on). */
static bool same_constants(PyObject *lambda, PyCodeObject *code) {
  PyObject *ast = PyImport_AddModule("ast");
  PyObject *expr = PyObject_CallMethod(ast, "Expression", "O", lambda);
  PyObject *fixed = expr ? PyObject_CallMethod(ast, "fix_missing_locations", "O", expr) : NULL;
  PyObject *compile = PyDict_GetItemString(PyEval_GetBuiltins(), "compile");  /* borrowed */
  PyObject *module = fixed && compile ? PyObject_CallFunction(compile, "Oss", fixed, "<lambda>", "eval") : NULL;
  PyObject *outer = module ? PyObject_GetAttrString(module, "co_consts") : NULL;
  PyObject *mine = PyObject_GetAttrString((PyObject *)code, "co_consts"), *my_names = names_read((PyObject *)code);
  bool same = false;
  for (Py_ssize_t i = 0; outer && mine && my_names && i < PyTuple_GET_SIZE(outer); i++) {
    PyObject *c = PyTuple_GET_ITEM(outer, i);
    PyObject *theirs = PyCode_Check(c) ? PyObject_GetAttrString(c, "co_consts") : NULL;
    PyObject *their_names = PyCode_Check(c) ? names_read(c) : NULL;
    same |= theirs && their_names && PyObject_RichCompareBool(theirs, mine, Py_EQ) == 1 &&
            PyObject_RichCompareBool(their_names, my_names, Py_EQ) == 1;
    Py_XDECREF(theirs); Py_XDECREF(their_names);
  }
  Py_XDECREF(expr); Py_XDECREF(fixed); Py_XDECREF(module); Py_XDECREF(outer); Py_XDECREF(mine); Py_XDECREF(my_names);
  PyErr_Clear();
  return same;
}

/* Whether a lambda node (its lines counted from first_line) holds code's
 * instructions: by their columns, or where Python keeps none, by its
 * constants. */
static bool holds_code(PyObject *lambda, PyCodeObject *code, long first_line, bool spanned, const long span[4]) {
  if (!spanned) return same_constants(lambda, code);
  long line = node_int(lambda, "lineno") + first_line - 1, col = node_int(lambda, "col_offset");
  long end = node_int(lambda, "end_lineno") + first_line - 1, end_col = node_int(lambda, "end_col_offset");
  return (line < span[0] || (line == span[0] && col <= span[1])) &&
         (end > span[2] || (end == span[2] && end_col >= span[3]));
}

/* The lambda of code among the statements (their line 1 the text's line
 * first_line): of those on code's first line, the only one with its
 * parameters, or of several (`f = jit(lambda x: 1); g = jit(lambda x: 2)`)
 * the one at code's position, never merely the first on the line. A
 * lambda inside another (`lambda: jit(lambda: 1)()`) is held by both: the
 * innermost holding it is its own, and the walk meets it last. */
static PyObject *find_lambda(PyObject *body, PyCodeObject *code, long first_line) {
  PyObject *ast = PyImport_AddModule("ast"), *found = NULL;
  PyObject *module = PyObject_CallMethod(ast, "Module", "O[]", body);  /* one tree to walk */
  PyObject *walk = module ? PyObject_CallMethod(ast, "walk", "O", module) : NULL;
  PyObject *nodes = walk ? PySequence_List(walk) : NULL;
  long span[4];
  bool spanned = code_span(code, span), held = false;
  for (Py_ssize_t i = 0; nodes && i < PyList_GET_SIZE(nodes); i++) {
    PyObject *node = PyList_GET_ITEM(nodes, i);
    if (strcmp(Py_TYPE(node)->tp_name, "Lambda") || node_int(node, "lineno") + first_line - 1 != code->co_firstlineno ||
        !defines(node, code))
      continue;
    bool holds = holds_code(node, code, first_line, spanned, span);
    if (holds || (!held && !found)) found = node;  /* the first, unless one holds the code */
    held |= holds;
  }
  Py_XINCREF(found);
  Py_XDECREF(module); Py_XDECREF(walk); Py_XDECREF(nodes);
  PyErr_Clear();
  return found;
}

/* The def of code in block (the lines from its first, inspect's "block"),
 * or its lambda in the block; a new reference, or NULL (an exception only
 * if the block does not parse). Columns are the file's. */
static PyObject *parse_block(PyObject *block, PyCodeObject *code, int *col_offset) {
  PyObject *body = parse_statements(block), *def = NULL;
  *col_offset = 0;
  bool is_def = body && PyList_GET_SIZE(body) && !strcmp(Py_TYPE(PyList_GET_ITEM(body, 0))->tp_name, "FunctionDef");
  if (is_def && defines(PyList_GET_ITEM(body, 0), code)) {
    def = Py_NewRef(PyList_GET_ITEM(body, 0));
  } else if (body && PyList_GET_SIZE(body)) {  /* the line's statements: `import m; f = jit(lambda ...)`, */
    def = find_lambda(body, code, code->co_firstlineno);  /* or a one-line def holding it: */
  }                                                       /* `def g(): return jit(lambda ...)` */
  Py_XDECREF(body);
  return def;
}

/* The lambda of code in a whole text (lines of which the first is line 1),
 * where the block from its line is no statement: a lambda on a later line
 * of a call, a dict display or a list (`{"add": lambda a, b: a + b,`). */
static PyObject *lambda_in_text(PyObject *lines, PyCodeObject *code) {
  if (PyUnicode_CompareWithASCIIString(code->co_name, "<lambda>")) return NULL;
  PyObject *body = parse_statements(lines);
  PyObject *def = body ? find_lambda(body, code, 1) : NULL;
  Py_XDECREF(body);
  return def;
}

/* The def of code in a syntax tree compiled: the one of its name and
 * parameters starting at its first line (its first decorator's). Its
 * lines and columns are the tree's own. */
static PyObject *def_in_tree(PyObject *tree, PyCodeObject *code) {
  PyObject *ast = PyImport_AddModule("ast"), *found = NULL;
  PyObject *walk = PyObject_CallMethod(ast, "walk", "O", tree);
  PyObject *nodes = walk ? PySequence_List(walk) : NULL;
  for (Py_ssize_t i = 0; nodes && !found && i < PyList_GET_SIZE(nodes); i++) {
    PyObject *node = PyList_GET_ITEM(nodes, i);
    if (strcmp(Py_TYPE(node)->tp_name, "FunctionDef") || !defines(node, code)) continue;
    PyObject *decorators = PyObject_GetAttrString(node, "decorator_list");
    long line = decorators && PyList_GET_SIZE(decorators) ? node_int(PyList_GET_ITEM(decorators, 0), "lineno")
                                                         : node_int(node, "lineno");
    if (line == code->co_firstlineno) found = Py_NewRef(node);
    Py_XDECREF(decorators);
  }
  Py_XDECREF(walk); Py_XDECREF(nodes);
  PyErr_Clear();
  return found;
}

/* ---------------------------------------------------------------- the function's def */

/* Whether the pending exception says the text nests too deeply for Python's
 * own tokenizer or parser (RecursionError, MemoryError): that is the answer,
 * kept. Any other is cleared (another text may do). */
static bool nested_too_deep(void) {
  if (PyErr_ExceptionMatches(PyExc_RecursionError) || PyErr_ExceptionMatches(PyExc_MemoryError)) return true;
  PyErr_Clear();
  return false;
}

/* The block of lines from code's first line in a text's lines (inspect's
 * getblock), or NULL (with an exception only if nested too deeply). */
static PyObject *block_at(PyObject *inspect, PyObject *lines, PyCodeObject *code) {
  Py_ssize_t first = code->co_firstlineno - 1;
  if (first < 0 || first >= PyList_GET_SIZE(lines)) return NULL;
  PyObject *rest = PyList_GetSlice(lines, first, PyList_GET_SIZE(lines));
  PyObject *block = rest ? PyObject_CallMethod(inspect, "getblock", "O", rest) : NULL;
  Py_XDECREF(rest);
  if (block && !PyList_Check(block)) Py_SETREF(block, PySequence_List(block));
  if (!block || !PyList_GET_SIZE(block)) Py_CLEAR(block);
  nested_too_deep();
  return block;
}

/* The last line code's instructions stand on: co_positions' end (3.11
 * on), else co_lines'; 0 if unknown. */
static long last_line(PyCodeObject *code) {
  long span[4];
  if (code_span(code, span)) return span[2];
  PyObject *it = PyObject_CallMethod((PyObject *)code, "co_lines", NULL), *entry;
  long last = 0;
  while (it && (entry = PyIter_Next(it))) {
    PyObject *line = PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) == 3 ? PyTuple_GET_ITEM(entry, 2) : Py_None;
    if (line != Py_None && PyLong_AsLong(line) > last) last = PyLong_AsLong(line);
    Py_DECREF(entry);
  }
  Py_XDECREF(it);
  PyErr_Clear();
  return last;
}

/* The def of a function in a file, from the file's lines (linecache, as
 * inspect reads them) between its first line and the last its code stands
 * on, or NULL (no exception) where that span does not read as its def (a
 * lambda, a statement whose last line holds no code, a nested def last):
 * inspect's tokenizer then finds the block. Taken first, as that tokenizer
 * costs a process's first compile milliseconds (its patterns compiled) and
 * every compile a fraction of one. */
static PyObject *def_by_span(PyObject *pyfunc, PyCodeObject *code, int *col_offset) {
  if (!PyUnicode_CompareWithASCIIString(code->co_name, "<lambda>") || PyUnicode_READ_CHAR(code->co_filename, 0) == '<')
    return NULL;
  long first = code->co_firstlineno, last = last_line(code);
  PyObject *linecache = PyImport_ImportModule("linecache");
  PyObject *checked = linecache ? PyObject_CallMethod(linecache, "checkcache", "O", code->co_filename) : NULL;
  PyObject *lines = checked ? PyObject_CallMethod(linecache, "getlines", "OO", code->co_filename,
                                                  PyFunction_GetGlobals(pyfunc)) : NULL;
  PyObject *block = lines && PyList_Check(lines) && first >= 1 && last >= first && last <= PyList_GET_SIZE(lines)
                        ? PyList_GetSlice(lines, first - 1, last) : NULL;
  PyObject *def = block ? parse_block(block, code, col_offset) : NULL;
  Py_XDECREF(linecache); Py_XDECREF(checked); Py_XDECREF(lines); Py_XDECREF(block);
  PyErr_Clear();
  return def;
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

/* The def (or lambda) of code in one text (lines of which the first is
 * line 1, or a syntax tree compiled), or NULL (an exception only if the
 * text nests too deeply). */
static PyObject *def_in_text(PyObject *inspect, PyObject *text, PyCodeObject *code, int *line_offset, int *col_offset) {
  PyObject *def = NULL;
  if (!PyList_Check(text)) {  /* a syntax tree */
    if ((def = def_in_tree(text, code))) *col_offset = 0, *line_offset = 0;
    return def;
  }
  PyObject *block = block_at(inspect, text, code);
  def = block ? parse_block(block, code, col_offset) : NULL;
  *line_offset = code->co_firstlineno - 1;
  if (!def && !nested_too_deep() && (def = lambda_in_text(text, code))) *col_offset = 0, *line_offset = 0;
  Py_XDECREF(block);
  return def;
}

/* The def (or lambda) of code in the very text exec() ran it from, or
 * NULL (no exception unless nested too deeply). Asked before inspect: a
 * name such as "<string>" names every string, and linecache may hold
 * another one under it, whose def of the same name and parameters would
 * be compiled in this one's place. */
static PyObject *def_in_exec_text(PyObject *inspect, PyCodeObject *code, int *line_offset, int *col_offset) {
  PyObject *text = PyObject_CallMethod(exec_sources, "get", "O", (PyObject *)code);
  PyObject *lines = text && text != Py_None ? text_or_tree(text) : NULL;
  PyObject *def = lines ? def_in_text(inspect, lines, code, line_offset, col_offset) : NULL;
  Py_XDECREF(text);
  Py_XDECREF(lines);
  if (!def) nested_too_deep();
  return def;
}

/* The def (or lambda) of code wherever inspect or the kept texts find
 * it, or NULL with the TypingError saying what to do. */
static PyObject *def_by_search(PyObject *pyfunc, PyCodeObject *code, int *line_offset, int *col_offset) {
  PyObject *def = NULL, *inspect = PyImport_ImportModule("inspect");
  if (!inspect) return NULL;
  if ((def = def_in_exec_text(inspect, code, line_offset, col_offset)) || PyErr_Occurred()) {
    Py_DECREF(inspect);
    return def;
  }
  /* its file, where inspect finds it */
  PyObject *found = PyObject_CallMethod(inspect, "getsourcelines", "O", pyfunc);
  bool in_file = found && PyUnicode_READ_CHAR(code->co_filename, 0) != '<';
  if (found) {
    def = parse_block(PyTuple_GET_ITEM(found, 0), code, col_offset);
    *line_offset = (int)PyLong_AsLong(PyTuple_GET_ITEM(found, 1)) - 1;
  }
  bool deep = nested_too_deep();
  Py_XDECREF(found);
  found = def || deep || !in_file ? NULL : PyObject_CallMethod(inspect, "findsource", "O", pyfunc);
  if (found && (def = lambda_in_text(PyTuple_GET_ITEM(found, 0), code))) *col_offset = 0, *line_offset = 0;
  deep = deep || nested_too_deep();
  Py_XDECREF(found);
  PyObject *texts = def || deep ? NULL : candidate_texts(code);
  for (Py_ssize_t i = 0; texts && !def && !deep && i < PyList_GET_SIZE(texts); i++) {
    def = def_in_text(inspect, PyList_GET_ITEM(texts, i), code, line_offset, col_offset);
    deep = !def && nested_too_deep();
  }
  Py_XDECREF(texts);
  Py_DECREF(inspect);
  if (!def && !deep) no_source(pyfunc, code, in_file);
  return def;
}

PyObject *src_parse_function(PyObject *pyfunc, int *line_offset, int *col_offset) {
  PyCodeObject *code = (PyCodeObject *)PyFunction_GetCode(pyfunc);
  PyObject *ast = PyImport_ImportModule("ast");  /* parse_statements and its kin take it from sys.modules */
  PyObject *def = NULL;
  if (ast) {
    busy = true;
    if ((def = def_by_span(pyfunc, code, col_offset))) *line_offset = code->co_firstlineno - 1;
    else def = def_by_search(pyfunc, code, line_offset, col_offset);
    busy = false;
  }
  Py_XDECREF(ast);
  return def;
}
