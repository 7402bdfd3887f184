/* builtins/extension.c — methods and attributes that user code registers
 * for ruchey's types (ruchey.extending's overload_method and
 * overload_attribute), found after the builtins' rows. Each is a ruchey
 * function taking the receiver first: a method's call, or an attribute
 * read as a call of its getter, typed and lowered as any call of a ruchey
 * function. An operator or a comparison with an operand of a package's
 * value type (a named tuple standing for clifford's MultiVector), and a
 * subscript of one (x[i], x[i] = v), is a call of the function overload
 * registers for the operator module's function. */
#include <stdio.h>
#include <string.h>

#include "builtins/builtins.h"

const Builtin *ty_extension_member(Infer *in, Node *n, const Type *receiver) {
  if (!in->opts || !in->opts->find_member) return NULL;
  bool attribute = n->kind == N_ATTR;
  void *callee = in->opts->find_member(in->opts->resolve_ctx, receiver, n->str, attribute);
  if (!callee) return NULL;
  Diag d = {0};  /* a method's keywords and defaults, bound by its typing function's parameters */
  if (!attribute && in->opts->bind_call && !in->opts->bind_call(in->opts->resolve_ctx, callee, n, &d)) {
    ty_error(in, n, "%s", d.msg);
    return NULL;
  }
  if (attribute) {
    Node **receiver_arg = arena_alloc(in->f->arena, sizeof(Node *));
    receiver_arg[0] = n->lhs;
    n->kind = N_CALL;
    n->list = (NodeList){receiver_arg, 1};
    n->lhs = NULL;
  }
  n->callee = callee;
  return n->bi = bi_named("a ruchey function");
}

/* The operator module's functions by operator, for their overloads. */
static const char *const operator_names[OP_COUNT] = {
  [OP_ADD] = "add", [OP_SUB] = "sub", [OP_MUL] = "mul", [OP_DIV] = "truediv", [OP_FLOORDIV] = "floordiv",
  [OP_MOD] = "mod", [OP_POW] = "pow", [OP_LSHIFT] = "lshift", [OP_RSHIFT] = "rshift", [OP_BITAND] = "and_",
  [OP_BITOR] = "or_", [OP_BITXOR] = "xor", [OP_NEG] = "neg", [OP_POS] = "pos", [OP_INVERT] = "invert",
  [OP_EQ] = "eq", [OP_NE] = "ne", [OP_LT] = "lt", [OP_LE] = "le", [OP_GT] = "gt", [OP_GE] = "ge",
};

/* The function overload registered for what the extension names key, for
 * the first operand of a package's value type (a named tuple's class
 * first: the extension checks the rest), or NULL. */
static void *value_overload(Infer *in, Node *const *xs, int nx, const char *key) {
  void *callee = NULL;
  for (int i = 0; !callee && i < nx; i++)
    if (xs[i]->ty && xs[i]->ty->kind == TY_TUPLE && xs[i]->ty->callee)
      callee = in->opts->find_member(in->opts->resolve_ctx, xs[i]->ty, key, false);
  return callee;
}

/* n made a call of callee with its arguments as they are, typed. */
static const Type *call_instead(Infer *in, Node *n, void *callee) {
  n->callee = callee;
  n->bi = bi_named("a ruchey function");
  Diag d = {0};
  if (in->opts->bind_call && !in->opts->bind_call(in->opts->resolve_ctx, callee, n, &d))
    return ty_error(in, n, "%s", d.msg);
  return ty_expr(in, n);
}

bool ty_extension_operator(Infer *in, Node *n, const Type **out) {
  int nx = n->kind == N_BINOP ? 2 : 1;
  Node *xs[2] = {n->lhs, nx == 2 ? n->rhs : NULL};
  const char *name = operator_names[n->op];
  if (!name || !in->opts || !in->opts->find_member) return false;
  char key[32];
  snprintf(key, sizeof key, "operator.%s", name);
  void *callee = value_overload(in, xs, nx, key);
  if (!callee) return false;
  Node **items = arena_alloc(in->f->arena, sizeof(Node *) * 2);
  for (int i = 0; i < nx; i++) items[i] = xs[i];
  *n = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .list = {items, nx}};
  *out = call_instead(in, n, callee);
  return true;
}

bool ty_extension_update(Infer *in, Node *n) {
  const char *name = operator_names[n->op];
  if (!name || !in->opts || !in->opts->find_member || n->lhs->kind != N_VAR) return false;
  char key[32];
  snprintf(key, sizeof key, "operator.%s", name);
  Node *xs[2] = {n->lhs, n->rhs};
  if (!value_overload(in, xs, 2, key)) return false;
  Node *read = arena_alloc(in->f->arena, sizeof(Node)), *op = arena_alloc(in->f->arena, sizeof(Node));
  *read = *n->lhs;
  *op = (Node){.kind = N_BINOP, .line = n->line, .col = n->col, .op = n->op, .lhs = read, .rhs = n->rhs};
  n->kind = N_ASSIGN;
  n->rhs = op;
  return true;
}

/* x[i] (args x, i) or x[i] = v (x, i, v), x of a package's value type: n
 * made a call of the overload of operator.getitem or setitem, a slice key
 * as the slice value it takes, and typed (*out; NULL after an error);
 * false where x is of no such type (a named tuple's items are indexed as
 * any tuple's). */
bool ty_extension_subscript(Infer *in, Node *n, Node *const *args, int nargs, const Type **out) {
  if (!in->opts || !in->opts->find_member) return false;
  void *callee = value_overload(in, args, 1, nargs == 2 ? "operator.getitem" : "operator.setitem");
  if (!callee) return false;
  Node **items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)nargs);
  for (int i = 0; i < nargs; i++) items[i] = i == 1 ? ty_slice_value(in, args[i]) : args[i];
  *n = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .list = {items, nargs}};
  *out = call_instead(in, n, callee);
  return true;
}

/* a == b (<, <=...), n the comparison of two, an operand of a package's
 * value type: n made a call of the overload of operator.eq (lt, le...)
 * and typed (*out; NULL after an error); false where there is none. */
bool ty_extension_compare(Infer *in, Node *n, const Type **out) {
  if (n->list.len != 2 || !in->opts || !in->opts->find_member) return false;
  char key[32];
  snprintf(key, sizeof key, "operator.%s", operator_names[n->ops[0]]);
  void *callee = value_overload(in, n->list.items, 2, key);
  if (!callee) return false;
  Node **items = arena_alloc(in->f->arena, sizeof(Node *) * 2);
  items[0] = n->list.items[0];
  items[1] = n->list.items[1];
  *n = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .list = {items, 2}};
  *out = call_instead(in, n, callee);
  return true;
}

bool ty_extension_text(Infer *in, Node *n, const Type **out) {
  static const struct { const char *builtin, *methods[2]; } text_methods[] = {
    {"str", {"__str__", "__repr__"}}, {"repr", {"__repr__"}},
  };
  if (n->list.len != 1 || n->kw.len || !in->opts || !in->opts->find_member) return false;
  for (size_t i = 0; i < sizeof text_methods / sizeof *text_methods; i++) {
    if (strcmp(n->bi->name, text_methods[i].builtin)) continue;
    for (int k = 0; k < 2 && text_methods[i].methods[k]; k++) {
      void *callee = value_overload(in, n->list.items, 1, text_methods[i].methods[k]);
      if (!callee) continue;
      Node **items = arena_alloc(in->f->arena, sizeof(Node *));
      items[0] = n->list.items[0];
      *n = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .list = {items, 1}};
      *out = call_instead(in, n, callee);
      return true;
    }
  }
  return false;
}
