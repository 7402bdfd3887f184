/* analysis/collective.c — collectives (cuda.shfl_sync, cuda.ballot_sync,
 * cuda.syncthreads_count, ...) in statements of their own.
 *
 * Loop fission (lower/kernel.c) runs a collective's statement in two loops
 * over the block's threads: the first gathers every thread's arguments,
 * the second completes the statement with each thread's result. So a
 * collective must be a statement's whole value: `x = shfl(...)`,
 * `x += shfl(...)`, `a[i] = shfl(...)` or a call alone. This pass moves a
 * collective nested in an expression into a statement of its own before
 * the one using it (`$coll0 = shfl(...)`), in the order Python evaluates
 * them. A collective that only some evaluations reach (after an and/or,
 * in a conditional expression's branch, late in a chained comparison, in
 * a while loop's condition) stays where it is, and the kernel's threads
 * then run as fibers.
 */
#include <stdio.h>

#include "analysis/analysis.h"
#include "ir.h"

static bool is_collective(const Node *n) {
  return n && n->kind == N_CALL && n->bi && (n->bi->flags & BF_COLLECTIVE);
}

Node *an_collective_call(const Node *stmt) {
  switch (stmt->kind) {
  case N_EXPR: return is_collective(stmt->lhs) ? stmt->lhs : NULL;
  case N_ASSIGN: case N_AUGASSIGN: return is_collective(stmt->rhs) ? stmt->rhs : NULL;
  default: return NULL;
  }
}

typedef struct Hoist {
  Func *f;
  Node **out;  /* the statement list being rebuilt */
  int len, cap;
} Hoist;

static void emit(Hoist *h, Node *stmt) {
  if (h->len == h->cap) {
    h->cap = h->cap ? 2 * h->cap : 16;
    Node **grown = arena_alloc(h->f->arena, sizeof(Node *) * (size_t)h->cap);
    if (h->len) memcpy(grown, h->out, sizeof(Node *) * (size_t)h->len);
    h->out = grown;
  }
  h->out[h->len++] = stmt;
}

/* A new variable of type t, named so that no Python name can clash. */
static int new_var(Func *f, const Type *t) {
  int v = f->nvars++;
  const char **names = arena_alloc(f->arena, sizeof(char *) * (size_t)f->nvars);
  const Type **types = arena_alloc(f->arena, sizeof(Type *) * (size_t)f->nvars);
  memcpy(names, f->var_names, sizeof(char *) * (size_t)v);
  memcpy(types, f->var_types, sizeof(Type *) * (size_t)v);
  char name[32];
  snprintf(name, sizeof name, "$coll%d", v);
  names[v] = arena_strdup(f->arena, name);
  types[v] = t;
  f->var_names = names;
  f->var_types = types;
  return v;
}

static Node *var_node(Func *f, const Node *at, int v) {
  Node *n = arena_alloc(f->arena, sizeof(Node));
  n->kind = N_VAR;
  n->line = at->line;
  n->col = at->col;
  n->var = v;
  n->ty = f->var_types[v];
  return n;
}

static void hoist_expr(Hoist *h, Node **slot, bool keep);

static void hoist_list(Hoist *h, NodeList *l) {
  for (int i = 0; i < l->len; i++) hoist_expr(h, &l->items[i], false);
}

/* Moves the collectives *slot evaluates on every evaluation into
 * statements before the one being rebuilt; keep: *slot itself stays (it
 * is the statement's whole value). */
static void hoist_expr(Hoist *h, Node **slot, bool keep) {
  Node *e = *slot;
  if (!e) return;
  switch (e->kind) {
  case N_BOOLOP: hoist_expr(h, &e->list.items[0], false); return;
  case N_IFEXP: hoist_expr(h, &e->cond, false); return;
  case N_COMPARE:  /* a < b < c evaluates c only when a < b */
    for (int i = 0; i < e->list.len && i < 2; i++) hoist_expr(h, &e->list.items[i], false);
    return;
  case N_CALL:
    hoist_list(h, &e->list);
    hoist_list(h, &e->kw);
    if (!is_collective(e) || keep || e->ty->kind == TY_NONE) return;
    {
      Node *assign = arena_alloc(h->f->arena, sizeof(Node));
      *assign = (Node){.kind = N_ASSIGN, .line = e->line, .col = e->col, .rhs = e};
      assign->lhs = var_node(h->f, e, new_var(h->f, e->ty));
      emit(h, assign);
      *slot = var_node(h->f, e, assign->lhs->var);
    }
    return;
  default:
    hoist_expr(h, &e->lhs, false);
    hoist_expr(h, &e->rhs, false);
    hoist_expr(h, &e->cond, false);
    hoist_list(h, &e->list);
    return;
  }
}

static void hoist_block(Func *f, NodeList *b);

static void hoist_stmt(Hoist *h, Node *s) {
  switch (s->kind) {
  case N_ASSIGN: case N_AUGASSIGN: hoist_expr(h, &s->rhs, true); break;
  case N_EXPR: hoist_expr(h, &s->lhs, true); break;
  case N_IF: case N_ASSERT: hoist_expr(h, &s->cond, false); break;
  case N_FOR: hoist_list(h, &s->cond->list); break;
  case N_RETURN: hoist_expr(h, &s->lhs, false); break;
  default: break;
  }
  hoist_block(h->f, &s->body);
  hoist_block(h->f, &s->orelse);
  emit(h, s);
}

static void hoist_block(Func *f, NodeList *b) {
  Hoist h = {.f = f};
  for (int i = 0; i < b->len; i++) hoist_stmt(&h, b->items[i]);
  if (h.len == b->len) return;  /* nothing moved */
  b->items = h.out;
  b->len = h.len;
}

void an_hoist_collectives(Func *f) { hoist_block(f, &f->body); }

/* ---------------------------------------------------------------- what is left */

typedef struct Count {
  int calls, statements;
} Count;

static bool count_collectives(Node *n, void *ctx) {
  Count *c = ctx;
  c->calls += is_collective(n);
  c->statements += an_collective_call(n) != NULL;
  return true;
}

bool an_loose_collectives(Func *f) {
  Count c = {0};
  ir_walk_list(&f->body, count_collectives, &c);
  return c.calls != c.statements;
}
