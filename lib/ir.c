/* ir.c — the one walker over ruchey's IR.
 *
 * Passes differ in what they do at a node, not in how they reach its
 * children: each gives a visitor, which sees a node before its children and
 * may take over a subtree (returning false) where it needs another order or
 * context, as an assignment target that is not a read.
 */
#include <stdlib.h>

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
  case N_TRY:  /* the body, the except clauses, else, then finally */
    ir_walk_list(&n->body, visit, ctx);
    ir_walk_list(&n->list, visit, ctx);
    ir_walk_list(&n->orelse, visit, ctx);
    ir_walk(n->lhs, visit, ctx);
    return;
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

typedef struct DepthItem {
  const Node *n;
  int depth;
} DepthItem;

typedef struct DepthStack {
  DepthItem *items;
  size_t len, cap;
  bool failed;
} DepthStack;

static void push_depth(DepthStack *s, const Node *n, int depth) {
  if (!n || s->failed) return;
  if (s->len == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 256;
    DepthItem *grown = realloc(s->items, sizeof(DepthItem) * cap);
    if (!grown) {
      s->failed = true;
      return;
    }
    s->items = grown;
    s->cap = cap;
  }
  s->items[s->len++] = (DepthItem){n, depth};
}

static void push_list_depth(DepthStack *s, const NodeList *l, int depth) {
  for (int i = 0; i < l->len; i++) push_depth(s, l->items[i], depth);
}

int ir_depth(const NodeList *body) {
  DepthStack s = {0};
  int most = 0;
  push_list_depth(&s, body, 1);
  while (s.len) {
    DepthItem it = s.items[--s.len];
    if (it.depth > most) most = it.depth;
    push_depth(&s, it.n->lhs, it.depth + 1);
    push_depth(&s, it.n->rhs, it.depth + 1);
    push_depth(&s, it.n->cond, it.depth + 1);
    push_list_depth(&s, &it.n->list, it.depth + 1);
    push_list_depth(&s, &it.n->kw, it.depth + 1);
    push_list_depth(&s, &it.n->body, it.depth + 1);
    push_list_depth(&s, &it.n->orelse, it.depth + 1);
  }
  free(s.items);
  return s.failed ? INT32_MAX : most;
}

typedef struct Assigned {
  int var, count;
  Node *value;
} Assigned;

static void count_target(Assigned *a, const Node *t) {
  if (t->kind == N_VAR && t->var == a->var) a->count++;
  if (t->kind == N_TUPLE)
    for (int i = 0; i < t->list.len; i++) count_target(a, t->list.items[i]);
}

static bool visit_assignment(Node *n, void *ctx) {
  Assigned *a = ctx;
  if (n->kind == N_ASSIGN || n->kind == N_AUGASSIGN || n->kind == N_FOR) {
    int before = a->count;
    count_target(a, n->lhs);
    if (a->count > before && n->kind == N_ASSIGN && n->lhs->kind == N_VAR) a->value = n->rhs;
  }
  return true;
}

int ir_assignments(const NodeList *body, int var, Node **value) {
  Assigned a = {var, 0, value ? *value : NULL};
  ir_walk_list(body, visit_assignment, &a);
  if (value) *value = a.value;
  return a.count;
}

bool ir_calls_builtin(const Node *n, const char *name) {
  return n->kind == N_CALL && n->bi && !strcmp(n->bi->name, name);
}

bool ir_is_text_constant(const Node *n) {
  return n->kind == N_STRING || (n->kind == N_CONST_ARRAY && n->op == TY_BYTES);
}

/* Python's floor division and modulo of ints (b != 0). */
static int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

bool ir_const_int(const Node *n, int64_t *out) {
  int64_t a, b;
  if (!n) return false;
  switch (n->kind) {
  case N_INT: *out = n->ival; return true;
  case N_UNARY:
    if (!ir_const_int(n->lhs, &a)) return false;
    if (n->op == OP_POS) { *out = a; return true; }
    if (n->op == OP_INVERT) { *out = ~a; return true; }
    return n->op == OP_NEG && !__builtin_sub_overflow(0, a, out);
  case N_BINOP:
    if (!ir_const_int(n->lhs, &a) || !ir_const_int(n->rhs, &b)) return false;
    switch (n->op) {
    case OP_ADD: return !__builtin_add_overflow(a, b, out);
    case OP_SUB: return !__builtin_sub_overflow(a, b, out);
    case OP_MUL: return !__builtin_mul_overflow(a, b, out);
    case OP_FLOORDIV: if (!b || (a == INT64_MIN && b == -1)) return false; *out = floor_div(a, b); return true;
    case OP_MOD: if (!b || (a == INT64_MIN && b == -1)) return false; *out = a - floor_div(a, b) * b; return true;
    case OP_LSHIFT: if (b < 0 || b > 62 || a < 0 || a > (INT64_MAX >> b)) return false; *out = a << b; return true;
    case OP_RSHIFT: if (b < 0) return false; *out = b > 63 ? (a < 0 ? -1 : 0) : a >> b; return true;
    case OP_BITAND: *out = a & b; return true;
    case OP_BITOR: *out = a | b; return true;
    case OP_BITXOR: *out = a ^ b; return true;
    case OP_POW:
      if (b < 0) return false;
      for (*out = 1; b > 0; b--)
        if (__builtin_mul_overflow(*out, a, out)) return false;
      return true;
    default: return false;
    }
  default: return false;
  }
}
