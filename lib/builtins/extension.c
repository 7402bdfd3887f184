/* builtins/extension.c — methods and attributes that user code registers
 * for ruchey's types (ruchey.extending's overload_method and
 * overload_attribute), found after the builtins' rows. Each is a ruchey
 * function taking the receiver first: a method's call, or an attribute
 * read as a call of its getter, typed and lowered as any call of a ruchey
 * function. */
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
