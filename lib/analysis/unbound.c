/* analysis/unbound.c — which variables a read may find unassigned.
 *
 * Python raises UnboundLocalError when a read finds a local variable not
 * assigned on the path taken. A variable whose first appearance in the body
 * is an assignment at its top level (or a parameter) is assigned before any
 * read; any other carries an "assigned" flag at run time (lowering), which
 * LLVM folds away wherever a store visibly precedes the read.
 */
#include "analysis/analysis.h"
#include "ir.h"

/* state per variable: 0 unseen, 1 assigned first, -1 may be read first */
typedef struct FirstUse {
  signed char *state;
  bool top;         /* not nested in an if or a loop */
} FirstUse;

static bool first_use(Node *n, void *ctx);

static void see_assigned(FirstUse *u, const Node *t) {
  if (!u->state[t->var]) u->state[t->var] = u->top ? 1 : -1;
}

static void walk_nested(FirstUse *u, const NodeList *b, bool top) {
  FirstUse inner = {u->state, top};
  ir_walk_list(b, first_use, &inner);
}

static bool first_use(Node *n, void *ctx) {
  FirstUse *u = ctx;
  switch (n->kind) {
  case N_VAR:
    if (!u->state[n->var]) u->state[n->var] = -1;  /* read first: may be unassigned */
    return false;
  case N_ASSIGN: {
    ir_walk(n->rhs, first_use, u);
    const Node *t = n->lhs;
    if (t->kind == N_VAR) {
      see_assigned(u, t);
    } else if (t->kind == N_TUPLE) {
      for (int i = 0; i < t->list.len; i++) {
        Node *e = t->list.items[i];
        if (e->kind == N_VAR) see_assigned(u, e);
        else ir_walk(e, first_use, u);
      }
    } else {
      ir_walk(n->lhs, first_use, u);
    }
    return false;
  }
  case N_IF: case N_WHILE: case N_FOR:
    ir_walk(n->cond, first_use, u);
    if (n->kind == N_FOR && !u->state[n->lhs->var]) u->state[n->lhs->var] = -1;  /* the loop may not run */
    walk_nested(u, &n->body, false);
    walk_nested(u, &n->orelse, false);
    return false;
  case N_TRY:  /* a raise may leave any of its clauses before it assigns */
    walk_nested(u, &n->body, false);
    for (int i = 0; i < n->list.len; i++) walk_nested(u, &n->list.items[i]->body, false);
    walk_nested(u, &n->orelse, false);
    if (n->lhs) walk_nested(u, &n->lhs->body, false);
    return false;
  default:
    return true;
  }
}

bool *an_maybe_unbound(Func *f) {
  size_t n = (size_t)(f->nvars ? f->nvars : 1);
  signed char *state = arena_alloc(f->arena, n);
  for (int v = 0; v < f->nparams; v++) state[v] = 1;
  ir_walk_list(&f->body, first_use, &(FirstUse){state, true});
  bool *maybe = arena_alloc(f->arena, n);
  for (int v = 0; v < f->nvars; v++) maybe[v] = state[v] == -1 && f->var_types[v];
  return maybe;
}
