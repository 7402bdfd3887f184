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
  int line_offset;      /* added to ast line numbers to give file lines */
  int col_offset;       /* indentation removed by dedent */
  const char **vars;
  int nvars, cap;
  int ntemps;
  Diag *diag;
  uintptr_t stack_limit;  /* rt_stack_limit: reading nests as deep as the code */
  int handlers;         /* except clauses being read around here: a bare raise re-raises */
} Fe;

/* frontend.c */
const char *ast_kind(PyObject *o);
bool is_kind(PyObject *o, const char *k);
/* The attribute of an ast node; a new reference (never NULL for ast fields). */
PyObject *field(PyObject *o, const char *name);
/* Records a TypingError at the node e; always returns NULL/false. */
void *fe_error(Fe *fe, PyObject *e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
Node *new_node(Fe *fe, NodeKind kind, PyObject *e);
NodeList new_list(Fe *fe, int len);
/* A global or attribute path that names a Python object at compile time
 * (numpy, numpy.empty, math.pi, a constant); a new reference or NULL. */
PyObject *static_object(Fe *fe, PyObject *e);
/* A message argument: a constant string, or nothing. */
bool fe_message(Fe *fe, PyObject *e, const char **out);
bool fe_block(Fe *fe, PyObject *stmts, NodeList *out);

/* frontend_except.c */
Node *fe_raise(Fe *fe, PyObject *s);
Node *fe_try(Fe *fe, PyObject *s);

#endif
