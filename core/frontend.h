/* frontend.h — what the files of the frontend share: frontend.c reads a
 * function's syntax tree into IR, frontend_except.c its exceptions
 * (raise, try/except/finally). */
#ifndef RUCHEY_FRONTEND_H
#define RUCHEY_FRONTEND_H

#include "core.h"

typedef struct Fe {
  Arena *arena;
  Func *f;
  PyObject *globals;    /* the function's __globals__ */
  PyObject *builtins;   /* the builtins module's dict */
  PyObject *pyfunc;     /* the function read */
  PyObject *self;       /* the dispatcher compiling it, or NULL */
  int line_offset;      /* added to ast line numbers to give file lines */
  int col_offset;       /* indentation removed by dedent */
  const char **vars;
  int nvars, cap;
  int ntemps;
  NodeList pre;         /* statements a comprehension in the statement being read runs before it */
  int pre_cap;
  int in_place;         /* reading an expression that runs where it is written (a while loop's condition...):
                         * nothing of it may move before the statement */
  PyObject *first_value; /* what the statement being read evaluates before all else (an assignment's or
                          * return's value, or its left operand; a single target, once its value is moved
                          * first; an augmented assignment's target): a call there may move before it */
  Diag *diag;
  uintptr_t stack_limit;  /* rt_stack_limit: reading nests as deep as the code */
  int handlers;         /* except clauses being read around here: a bare raise re-raises */
  PyObject *imports;    /* names bound by import statements in the function: their objects */
  PyObject *methods;    /* names bound once to a local's attribute (m = x.append, getattr(x, "append")), called
                         * only: that attribute's syntax tree (m(v) is x.append(v), fe_method_alias) */
  PyObject *lambdas;    /* variables assigned a lambda: (its dispatcher, the names of the
                         * function's variables it reads) */
  PyObject *body;       /* the function's statements (borrowed) */
  PyObject *types_of;   /* variables assigned type(x): x's syntax tree (a name) */
  PyObject *exceptions; /* variables assigned an exception (fe_assign_exception): its call's syntax tree */
  PyObject *unrolled;   /* the names of variables last assigned literal_unroll(t) where read (a set) */
  int inlining;         /* nested defs' bodies being read in place of their calls (fe_inlined_call) */
  const Node *const *frozen; /* per parameter, the constant its calls freeze it to, or NULL (fe_frozen_module) */
} Fe;

/* frontend.c */
int ast_int_attr(PyObject *o, const char *name);  /* 0 where absent */
const char *ast_kind(PyObject *o);
bool is_kind(PyObject *o, const char *k);
/* The attribute of an ast node; a new reference (never NULL for ast fields). */
PyObject *field(PyObject *o, const char *name);
/* Records a TypingError at the node e; always returns NULL/false. */
void *fe_error(Fe *fe, PyObject *e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void *fe_python_error(Fe *fe, PyObject *e, const char *what, const char *otherwise);
Node *new_node(Fe *fe, NodeKind kind, PyObject *e);
NodeList new_list(Fe *fe, int len);
/* A call of the builtin named (core_builtin_named) with x its one argument;
 * NULL where x is NULL (an error read it). */
Node *fe_call_of(Fe *fe, PyObject *e, const char *builtin, Node *x);
/* A global or attribute path that names a Python object at compile time
 * (numpy, numpy.empty, math.pi, a constant); a new reference or NULL. */
PyObject *static_object(Fe *fe, PyObject *e);
/* A message argument: a constant string, or nothing. */
bool fe_message(Fe *fe, PyObject *e, const char **out);
bool fe_block(Fe *fe, PyObject *stmts, NodeList *out);
Node *fe_expr(Fe *fe, PyObject *e);
Node *fe_with_chunksize(Fe *fe, PyObject *s, PyObject *call);
bool fe_exprs(Fe *fe, PyObject *list, NodeList *out);  /* a Python list of expressions */
int find_var(Fe *fe, const char *name);
/* A call's arguments into n (how: ARGS_ flags, 0 for a compiled function's),
 * and a compiled function's bound to its parameters as Python binds them. */
bool fe_call_args(Fe *fe, PyObject *e, Node *n, unsigned how);
bool fe_bind_jit_call(Fe *fe, PyObject *e, Node *n, PyObject *disp);
/* A statement run before the one being read (what a comprehension in it fills). */
void fe_add_pre(Fe *fe, Node *s);
/* The operands items[0..n), read before one whose reading put statements
 * before the statement from pre[*mark] on: those that these statements could
 * change are computed ahead of them, as Python evaluates left to right. */
void fe_earlier_first(Fe *fe, PyObject *e, Node **items, int n, int *mark);
/* A hidden variable ($kind<n>) assigned value before the statement being read: its number */
int fe_assign_before(Fe *fe, PyObject *e, const char *kind, Node *value);
Node *fe_var_node(Fe *fe, PyObject *e, int var);  /* a read of variable var */
/* A copy of the syntax tree node in which each name that is a key of
 * names reads its value instead; NULL (a Python error) on failure. */
PyObject *fe_renamed(PyObject *node, PyObject *names);

/* frontend_funcs.c: functions as values */
Node *fe_function_value(Fe *fe, PyObject *disp, PyObject *e);  /* a dispatcher named as a value */
Node *fe_lambda(Fe *fe, PyObject *e);                           /* a lambda expression as a value */
/* The name of the capsules that stand for an inner function's defaults known only where its def runs. */
#define FE_LATE_DEFAULT "ruchey.late_default"
Node *fe_closure_value(Fe *fe, PyObject *name, PyObject *e);    /* a name of an inner function that reads the
                                                                 * function's variables, as a value (frozen) */
Node *fe_lambda_assign(Fe *fe, PyObject *s, PyObject *target, PyObject *lambda);  /* name = lambda ... */
Node *fe_def(Fe *fe, PyObject *s);                              /* a nested def, as name = lambda */
Node *fe_local_call(Fe *fe, PyObject *e, PyObject *func);       /* f(...) where f is a local, a lambda or fns[i] */
Node *fe_inlined_call(Fe *fe, PyObject *s, PyObject *call);     /* a statement f(args) of a nested def, inlined */
bool fe_is_local_call(Fe *fe, PyObject *func);
NativeSig *fe_native_signature(Fe *fe, PyObject *e, PyObject *obj, bool *failed);  /* ctypes', wrappers' */
PyObject *fe_python_object_call(Fe *fe, PyObject *e, PyObject *obj, const Type **result, bool *failed);
bool fe_is_cffi_ffi(PyObject *obj);  /* a cffi FFI object (cffi.FFI, a compiled module's ffi) */
bool fe_is_cffi_lib(PyObject *obj);  /* a cffi library (ffi.dlopen's, a compiled module's lib) */
bool fe_is_from_buffer(PyObject *obj);  /* ffi.from_buffer of one */
Node *fe_native_value(Fe *fe, PyObject *obj, PyObject *e);  /* a native function named as a value */
Node *fe_frozen_constant(Fe *fe, PyObject *obj, PyObject *e);   /* a number or bool, frozen */
Node *fe_frozen_value(Fe *fe, PyObject *obj, PyObject *e);      /* a number, bool or str, frozen */
/* namedtuples.c: cls(args) of a named tuple class whose items are fields */
Node *fe_namedtuple_call(Fe *fe, PyObject *e, PyObject *cls, PyObject *fields);
Node *fe_named_global(Fe *fe, PyObject *e, Node *t, PyObject *obj);  /* t of a global tuple obj: named if obj is */
/* enums.c: an enum member frozen (NULL, no error, for another object); the member
 * of enum class cls named name; cls[key] (e a Subscript) */
Node *fe_enum_member(Fe *fe, PyObject *obj, PyObject *e);
Node *fe_enum_named(Fe *fe, PyObject *cls, PyObject *name, PyObject *e);
Node *fe_enum_subscript(Fe *fe, PyObject *cls, PyObject *e);
int fe_add_var(Fe *fe, const char *name);                       /* its number, made if new */
/* objmode.c: with objmode(y='float64'): Python code inside compiled code */
Node *fe_with(Fe *fe, PyObject *s);
bool fe_raise_args(Fe *fe, PyObject *call, Node *n);
void *fe_interpreter_text(bool repr);  /* what makes str(x) (repr(x)) of what compiled code does not write */         /* raise E(a, *t, k=v) */
bool fe_has_starred(PyObject *e);                               /* f(a, *t) */
Node *fe_spread_args(Fe *fe, PyObject *e);                      /* its arguments as one tuple */
bool fe_bind_spread_call(Fe *fe, PyObject *e, Node *n, PyObject *disp, Node *packed);  /* that tuple, then disp's defaults */
Node *fe_import(Fe *fe, PyObject *s);
PyObject *fe_imported(Fe *fe, PyObject *name);                  /* borrowed, or NULL */
/* What a call of a maker (ruchey.stencil(kernel)) or a def it decorates
 * makes at compile time; NULL if node is neither (or with the error). */
PyObject *fe_made_value(Fe *fe, PyObject *node);
bool fe_is_made_value(Fe *fe, PyObject *node);                 /* whether node is such a call (or def) */
/* Local names bound once, to functions compiled code knows (_sqrt = math.sqrt):
 * found before the body is read, they are those functions, as imports are. */
void fe_collect_aliases(Fe *fe, PyObject *body);
/* Whether reading one level deeper at e leaves the stack room (a RecursionError if not). */
bool fe_room(Fe *fe, PyObject *e);
bool fe_is_alias(Fe *fe, PyObject *name);                       /* such a name, not a variable */
/* The attribute a call's callee names through fe->methods (borrowed), or NULL. */
PyObject *fe_method_alias(Fe *fe, PyObject *func);
/* The syntax tree of a lambda or nested def read out of a compiled
 * function (the function's own variables it reads made parameters), or
 * NULL */
PyObject *fe_inner_function(PyObject *pyfunc, int *line_offset, int *col_offset);
bool fe_captures_of(Fe *fe, PyObject *name);                    /* a lambda variable that captures */
bool fe_is_closure(Fe *fe, PyObject *e);       /* a lambda (or its name) that reads the function's variables */
Node *fe_closure_key(Fe *fe, PyObject *e);     /* such a lambda as key=: its variables in the value's list */

/* frontend_operator.c: operator.add(a, b) and its kin, as the operators' nodes;
 * NULL with *is_operator false where obj is none of them */
Node *fe_operator_call(Fe *fe, PyObject *e, PyObject *obj, bool *is_operator);
bool fe_is_operator_function(PyObject *obj);
/* operator.add named as a value: a compiled function calling it; NULL (no error) for another obj */
Node *fe_operator_value(Fe *fe, PyObject *obj, PyObject *e);
Node *fe_builtin_value(Fe *fe, PyObject *obj, PyObject *e);  /* numpy.amin as a value: a compiled function calling it */
/* frontend_strings.c */
Node *fe_fstring(Fe *fe, PyObject *e);  /* f"..." */
Node *fe_str_format(Fe *fe, PyObject *e, PyObject *template);  /* "...".format(...) of a constant template */
Node *fe_percent_format(Fe *fe, PyObject *e, PyObject *template, PyObject *values);  /* "..." % values */
/* frontend_except.c */
Node *fe_raise(Fe *fe, PyObject *s);
Node *fe_assert_raise(Fe *fe, PyObject *s, Node *cond, PyObject *msg);  /* assert c, msg made at run time */
/* e = E("constant"): what `raise e` raises; NULL, no error, for any other assignment. */
Node *fe_assign_exception(Fe *fe, PyObject *s, PyObject *target, PyObject *value);
Node *fe_try(Fe *fe, PyObject *s);

#endif
