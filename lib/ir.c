/* ir.c — the one walker over ruchey's IR.
 *
 * Passes differ in what they do at a node, not in how they reach its
 * children: each gives a visitor, which sees a node before its children and
 * may take over a subtree (returning false) where it needs another order or
 * context, as an assignment target that is not a read.
 */
#include "ir.h"

void ir_walk_list(const NodeList *l, IrVisit visit, void *ctx) {
  for (int i = 0; i < l->len; i++) ir_walk(l->items[i], visit, ctx);
}

void ir_walk(Node *n, IrVisit visit, void *ctx) {
  if (!n || !visit(n, ctx)) return;
  switch (n->kind) {
  case N_ASSIGN:  /* the value, then the target */
    ir_walk(n->rhs, visit, ctx);
    ir_walk(n->lhs, visit, ctx);
    return;
  case N_FOR:  /* the iterable, the target, the body */
    ir_walk(n->cond, visit, ctx);
    ir_walk(n->lhs, visit, ctx);
    break;
  case N_IF: case N_WHILE: case N_IFEXP: case N_ASSERT:
    ir_walk(n->cond, visit, ctx);
    ir_walk(n->lhs, visit, ctx);
    ir_walk(n->rhs, visit, ctx);
    break;
  default:  /* the operands, the slice parts, then the arguments */
    ir_walk(n->lhs, visit, ctx);
    ir_walk(n->rhs, visit, ctx);
    ir_walk(n->cond, visit, ctx);
    break;
  }
  ir_walk_list(&n->list, visit, ctx);
  ir_walk_list(&n->kw, visit, ctx);
  ir_walk_list(&n->body, visit, ctx);
  ir_walk_list(&n->orelse, visit, ctx);
}
