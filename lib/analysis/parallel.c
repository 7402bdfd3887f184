/* analysis/parallel.c — which prange loops can run on several threads, and how.
 *
 * A prange body runs as chunks on the pool, so every variable it touches is
 * classified: shared (only read: captured by value), private (assigned
 * before any read on every path through an iteration — both branches of an
 * if count, a loop that may not run does not — and not used outside the
 * loop), or a
 * reduction (only updated by `v op= e` with op in + - * / | & ^, by its
 * spelled-out `v = v op e` (or `v = e op v` but for - and /) of a scalar v, or by
 * `v = min(v, e)` / `v = max(v, e)`; an array by `v += e`, `v -= e` or
 * `v *= e`, elementwise, as Numba's array reductions). Anything else — a variable carried
 * from one iteration to the next, a break out of the loop, a return — would
 * race, so the loop runs serially and the reason is given as a warning.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "ir.h"

typedef struct Use {
  int reads;          /* reads inside the loop body */
  int stores;         /* plain assignments inside the body */
  int reductions;     /* reduction-form updates inside the body */
  int update_reads;   /* the reads of v in those (v = min(v, e)), which the function's count has too */
  int item_updates;   /* v[i] op= e of an array v with op a reduction's, whose reads of v these are */
  int item_op;        /* their operator class; -1 where they differ */
  const Node *other_update; /* the first v op= e of another operator (/=), fine only where v is private */
  int red_op;         /* the reduction's operator (OP_ADD for + and -) */
  bool mixed;         /* reductions with incompatible operators */
  bool read_early;    /* read where an iteration may not have assigned it yet */
  bool seen;
} Use;

typedef struct Scan {
  Use *use;
  const Type **var_types;
  const char *unsafe;  /* why the loop cannot run in parallel */
  int unsafe_line;
  const Node *lent[16];  /* typed lists only read where they stand: l[i], len(l), for x in l (more: serial) */
  int nlent;
} Scan;

static void mark_seen(Scan *s, int v) { s->use[v].seen = true; }

static void set_unsafe(Scan *s, const Node *n, const char *why);

static bool is_list_var(const Node *n) { return n->kind == N_VAR && n->ty && n->ty->kind == TY_LIST; }

/* A typed list n reads where it stands, which threads may share: its
 * items read (l[i]), its length, a for loop over it. */
static void lend(Scan *s, const Node *n) {
  if (is_list_var(n) && s->nlent < (int)(sizeof s->lent / sizeof s->lent[0])) s->lent[s->nlent++] = n;
}

static bool lent(const Scan *s, const Node *n) {
  for (int i = 0; i < s->nlent; i++)
    if (s->lent[i] == n) return true;
  return false;
}

static bool note_read(Node *n, void *ctx) {
  Scan *s = ctx;
  if (n->kind == N_INDEX) lend(s, n->lhs);
  if (n->kind == N_CALL && n->bi && (!strcmp(n->bi->name, "len") || !strcmp(n->bi->name, "list walk ended")))
    lend(s, n->list.items[0]);  /* (a walk's step reads the length) */
  if (n->ty && ty_is_container(n->ty) && !lent(s, n))  /* appends would race, and so would a dict's compaction */
    set_unsafe(s, n, "a typed list or dict, which its threads cannot share");
  if (n->kind == N_VAR) {
    mark_seen(s, n->var);
    s->use[n->var].reads++;
  }
  return true;
}

/* Counts the reads of every variable in expression n. */
static void scan_expr(Scan *s, const Node *n) { ir_walk((Node *)n, note_read, s); }

static void set_unsafe(Scan *s, const Node *n, const char *why) {
  if (s->unsafe) return;
  s->unsafe = why;
  s->unsafe_line = n->line;
}

/* The operator that merges the partials: a chunk's partial of v -= e is
 * the negated sum of its e's (added to v), of v /= e the product of its
 * 1/e's (multiplied into v), as Numba merges them. */
static int reduction_class(int op) { return op == OP_SUB ? OP_ADD : op == OP_DIV ? OP_MUL : op; }

static void note_reduction(Scan *s, int v, int op) {
  Use *u = &s->use[v];
  mark_seen(s, v);
  if (u->reductions && u->red_op != reduction_class(op)) u->mixed = true;
  u->red_op = reduction_class(op);
  u->reductions++;
}

/* v[i] op= e of an array v (i not reading v), op a reduction's: part of
 * v's reduction where v is one (H_batch[0] += x beside H_batch += h: each
 * thread's partial takes it, as Numba's), a read of v otherwise. */
static bool reads_var(Node *n, void *ctx) {
  int *v = ctx;
  if (n->kind == N_VAR && n->var == *v) *v = -1;
  return *v >= 0;
}

static void note_item_update(Scan *s, const Node *n) {
  const Node *t = n->lhs;
  if (t->kind != N_INDEX || t->lhs->kind != N_VAR || !t->lhs->ty || t->lhs->ty->kind != TY_ARRAY ||
      (n->op != OP_ADD && n->op != OP_SUB && n->op != OP_MUL))
    return;
  int v = t->lhs->var, probe = v;
  ir_walk(t->rhs, reads_var, &probe);
  ir_walk(n->rhs, reads_var, &probe);
  if (probe < 0) return;
  Use *u = &s->use[v];
  u->item_op = u->item_updates && u->item_op != reduction_class(n->op) ? -1 : reduction_class(n->op);
  u->item_updates++;
}

/* v = min(v, e) or v = max(v, e), with e not reading v: the reduction's
 * other operand, or NULL. */
static const Node *minmax_update(const Node *assign) {
  const Node *t = assign->lhs, *r = assign->rhs;
  if (t->kind != N_VAR || r->kind != N_CALL || !r->bi->reduce_op ||
      r->list.len != 2 || r->kw.len)
    return NULL;
  for (int i = 0; i < 2; i++) {
    const Node *a = r->list.items[i], *other = r->list.items[1 - i];
    if (a->kind == N_VAR && a->var == t->var && !(other->kind == N_VAR && other->var == t->var))
      return other;
  }
  return NULL;
}

static bool reduction_op(int op) {
  return op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_BITOR || op == OP_BITAND || op == OP_BITXOR;
}

/* Whether v op= e makes v a reduction: op a reduction's, or / of a
 * scalar v (an array's v /= e stays a store). */
static bool reduces(const Scan *s, int v, int op) {
  return reduction_op(op) || (op == OP_DIV && ty_is_scalar(s->var_types[v]));
}

/* v = v op e, or v = e op v with op commutative, of a scalar v and e not
 * reading v: `v op= e` spelled out, which Numba takes for a reduction too
 * (csrgraph's total_loss = total_loss + abs(loss)); the other operand, or
 * NULL. */
static const Node *binop_update(const Scan *s, const Node *assign) {
  const Node *t = assign->lhs, *r = assign->rhs;
  if (t->kind != N_VAR || !ty_is_scalar(s->var_types[t->var]) || r->kind != N_BINOP ||
      !reduces(s, t->var, r->op))
    return NULL;
  for (int i = 0; i < (r->op == OP_SUB || r->op == OP_DIV ? 1 : 2); i++) {
    const Node *a = i ? r->rhs : r->lhs, *other = i ? r->lhs : r->rhs;
    int probe = t->var;
    ir_walk((Node *)other, reads_var, &probe);
    if (a->kind == N_VAR && a->var == t->var && probe >= 0) return other;
  }
  return NULL;
}

static void scan_target(Scan *s, const Node *t) {
  if (t->kind == N_VAR) {
    mark_seen(s, t->var);
    s->use[t->var].stores++;
  } else if ((t->kind == N_INDEX || t->kind == N_ATTR)) {
    if (t->lhs->ty && ty_is_container(t->lhs->ty)) set_unsafe(s, t, "a store into a typed list or dict");
    scan_expr(s, t);
  } else {
    for (int i = 0; i < t->list.len; i++) scan_target(s, t->list.items[i]);
  }
}

static void scan_block(Scan *s, const NodeList *b, int depth);

static void scan_stmt(Scan *s, const Node *n, int depth) {
  const Node *other;
  switch (n->kind) {
  case N_ASSIGN:
    if ((other = minmax_update(n))) {
      scan_expr(s, other);
      note_reduction(s, n->lhs->var, n->rhs->bi->reduce_op);
      s->use[n->lhs->var].update_reads++;
    } else if ((other = binop_update(s, n))) {
      scan_expr(s, other);
      note_reduction(s, n->lhs->var, n->rhs->op);
      s->use[n->lhs->var].update_reads++;
    } else {
      scan_expr(s, n->rhs);
      scan_target(s, n->lhs);
    }
    break;
  case N_AUGASSIGN:
    scan_expr(s, n->rhs);
    if (n->lhs->kind == N_VAR && reduces(s, n->lhs->var, n->op))
      note_reduction(s, n->lhs->var, n->op);
    else if (n->lhs->kind == N_VAR) {  /* v /= e: a store that reads v first, fine where v is the iteration's own */
      if (!s->use[n->lhs->var].other_update) s->use[n->lhs->var].other_update = n;
      scan_target(s, n->lhs);
    }
    else {
      scan_target(s, n->lhs);
      note_item_update(s, n);
    }
    break;
  case N_IF:
    scan_expr(s, n->cond);
    scan_block(s, &n->body, depth);
    scan_block(s, &n->orelse, depth);
    break;
  case N_WHILE:
    scan_expr(s, n->cond);
    scan_block(s, &n->body, depth + 1);
    scan_block(s, &n->orelse, depth);
    break;
  case N_FOR:
    lend(s, n->cond);
    scan_expr(s, n->cond);
    scan_target(s, n->lhs);
    scan_block(s, &n->body, depth + 1);
    scan_block(s, &n->orelse, depth);
    break;
  case N_BLOCK: scan_block(s, &n->body, depth); break;
  case N_BREAK:
    if (depth == 0) set_unsafe(s, n, "a break out of the prange loop");
    break;
  case N_RETURN: set_unsafe(s, n, "a return inside the prange loop"); break;
  case N_TRY: set_unsafe(s, n, "a try statement inside the prange loop"); break;
  case N_EXPR: scan_expr(s, n->lhs); break;
  case N_ASSERT: scan_expr(s, n->cond); break;
  case N_RAISE: for (int i = 0; i < n->list.len; i++) scan_expr(s, n->list.items[i]); break;
  default: break;
  }
}

static void scan_block(Scan *s, const NodeList *b, int depth) {
  for (int i = 0; i < b->len; i++) scan_stmt(s, b->items[i], depth);
}

static bool count_read(Node *n, void *ctx);

/* Reads inside an assignment target: the array and index of a[i], not the
 * names assigned. */
static void count_target_reads(Node *t, int *reads) {
  if ((t->kind == N_INDEX || t->kind == N_ATTR)) ir_walk(t, count_read, reads);
  else if (t->kind == N_TUPLE)
    for (int i = 0; i < t->list.len; i++) count_target_reads(t->list.items[i], reads);
}

/* Counts every read of each variable in the whole function, as scan_expr
 * does inside the loop. */
static bool count_read(Node *n, void *ctx) {
  int *reads = ctx;
  if (n->kind == N_VAR) reads[n->var]++;
  if (n->kind != N_ASSIGN && n->kind != N_AUGASSIGN && n->kind != N_FOR) return true;
  count_target_reads(n->lhs, reads);
  ir_walk(n->rhs, count_read, reads);
  ir_walk(n->cond, count_read, reads);
  ir_walk_list(&n->body, count_read, reads);
  ir_walk_list(&n->orelse, count_read, reads);
  return false;
}

/* ---------------------------------------------------------------- definite assignment */

/* Walks an iteration in order with `done`, the variables assigned on every
 * path so far; a read of one not in it is early. */
typedef struct Early {
  const bool *done;
  Use *use;
} Early;

static bool note_early(Node *n, void *ctx) {
  Early *e = ctx;
  if (n->kind == N_VAR && !e->done[n->var]) e->use[n->var].read_early = true;
  return true;
}

static void early_expr(const Node *n, const bool *done, Use *use) {
  ir_walk((Node *)n, note_early, &(Early){done, use});
}

static void early_target(const Node *t, bool *done, Use *use) {
  if (t->kind == N_VAR) done[t->var] = true;
  else if ((t->kind == N_INDEX || t->kind == N_ATTR)) early_expr(t, done, use);
  else
    for (int i = 0; i < t->list.len; i++) early_target(t->list.items[i], done, use);
}

static void early_block(const NodeList *b, bool *done, Use *use, int nvars, Arena *a);

static bool jumps_visit(Node *n, void *found) {
  if (n->kind == N_BREAK || n->kind == N_CONTINUE) *(bool *)found = true;
  return !*(bool *)found;
}

/* Whether loop n is a for over range() of constants that runs at least
 * once, its body without break or continue: it assigns what its body
 * assigns (pymatting's `for j in range(1): s = 0.0`). */
static bool runs_once_at_least(const Node *n) {
  const Node *r = n->cond;
  if (n->kind != N_FOR || !r || r->kind != N_CALL || !r->bi || !(r->bi->flags & BF_RANGE) || r->list.len < 1 ||
      r->list.len > 3 || n->lhs->kind != N_VAR)
    return false;
  int64_t v[3] = {0, 0, 1};
  for (int i = 0; i < r->list.len; i++)
    if (!ir_const_int(r->list.items[i], &v[r->list.len == 1 ? 1 : i])) return false;
  bool runs = v[2] > 0 ? v[0] < v[1] : v[2] < 0 && v[0] > v[1];
  bool jumps = false;
  ir_walk_list(&n->body, jumps_visit, &jumps);
  return runs && !jumps;
}

static void early_stmt(const Node *n, bool *done, Use *use, int nvars, Arena *a) {
  switch (n->kind) {
  case N_ASSIGN:
    early_expr(n->rhs, done, use);
    early_target(n->lhs, done, use);
    break;
  case N_AUGASSIGN:  /* reads its target: a reduction, or carried */
    early_expr(n->rhs, done, use);
    early_expr(n->lhs, done, use);
    break;
  case N_IF: {  /* assigned after the if: assigned in both branches */
    early_expr(n->cond, done, use);
    bool *other = arena_alloc(a, (size_t)nvars);
    memcpy(other, done, (size_t)nvars);
    early_block(&n->body, done, use, nvars, a);
    early_block(&n->orelse, other, use, nvars, a);
    for (int v = 0; v < nvars; v++) done[v] = done[v] && other[v];
    break;
  }
  case N_WHILE: case N_FOR: {  /* may run no iteration: assigns nothing for sure, */
    if (runs_once_at_least(n)) {  /* unless a range of constants says it runs */
      for (int i = 0; i < n->cond->list.len; i++) early_expr(n->cond->list.items[i], done, use);
      done[n->lhs->var] = true;
      early_block(&n->body, done, use, nvars, a);
      early_block(&n->orelse, done, use, nvars, a);
      break;
    }
    bool *inner = arena_alloc(a, (size_t)nvars);
    memcpy(inner, done, (size_t)nvars);
    if (n->kind == N_FOR) {
      for (int i = 0; i < n->cond->list.len; i++) early_expr(n->cond->list.items[i], done, use);
      inner[n->lhs->var] = true;
    } else {
      early_expr(n->cond, done, use);
    }
    early_block(&n->body, inner, use, nvars, a);
    early_block(&n->orelse, done, use, nvars, a);
    break;
  }
  case N_BLOCK: early_block(&n->body, done, use, nvars, a); break;
  case N_EXPR: early_expr(n->lhs, done, use); break;
  case N_ASSERT: early_expr(n->cond, done, use); break;
  case N_RAISE: for (int i = 0; i < n->list.len; i++) early_expr(n->list.items[i], done, use); break;
  default: break;
  }
}

static void early_block(const NodeList *b, bool *done, Use *use, int nvars, Arena *a) {
  for (int i = 0; i < b->len; i++) early_stmt(b->items[i], done, use, nvars, a);
}

/* Notes a call that draws random numbers (or changes other hidden state). */
static bool note_draw(Node *n, void *ctx) {
  if (n->kind == N_CALL && ((n->bi && (n->bi->flags & BF_STATE)) || (n->target && n->target->draws)))
    *(bool *)ctx = true;
  return true;
}

bool an_parallel(Func *f, const Node *loop, ParPlan *plan) {
  Arena *a = f->arena;
  Scan s = {.use = arena_alloc(a, sizeof(Use) * (size_t)f->nvars), .var_types = f->var_types};
  mark_seen(&s, loop->lhs->var);
  s.use[loop->lhs->var].stores++;
  scan_block(&s, &loop->body, 0);
  bool *done = arena_alloc(a, (size_t)(f->nvars ? f->nvars : 1));
  done[loop->lhs->var] = true;
  early_block(&loop->body, done, s.use, f->nvars, a);
  int *all_reads = arena_alloc(a, sizeof(int) * (size_t)f->nvars);
  ir_walk_list(&f->body, count_read, all_reads);
  plan->kind = arena_alloc(a, sizeof(int) * (size_t)f->nvars);
  plan->red_op = arena_alloc(a, sizeof(int) * (size_t)f->nvars);
  for (int v = 0; v < f->nvars && !s.unsafe; v++) {
    Use *u = &s.use[v];
    plan->kind[v] = PAR_UNUSED;
    if (!u->seen) continue;
    bool read_outside = all_reads[v] > u->reads + u->update_reads;
    if (u->stores && (!u->read_early || v == loop->lhs->var)) {
      /* assigned before any use in each iteration: each thread's own, even
       * when later updated with += */
      if (read_outside && v != loop->lhs->var)
        set_unsafe(&s, loop, "a variable assigned in the loop and used after it");
      plan->kind[v] = PAR_PRIVATE;
    } else if (u->other_update) {
      set_unsafe(&s, u->other_update, "an augmented assignment that is not a reduction (+ - * / | & ^)");
    } else if (u->reductions) {
      bool items = u->item_updates && u->item_op == u->red_op && f->var_types[v]->kind == TY_ARRAY;
      int reads = u->reads - (items ? u->item_updates : 0);  /* (an item update reads v once, in its target) */
      if (u->stores || reads || u->mixed) set_unsafe(&s, loop, "a reduction variable that is also read or assigned");
      plan->kind[v] = PAR_REDUCTION;
      plan->red_op[v] = u->red_op;
      const Type *t = f->var_types[v];
      bool array = t->kind == TY_ARRAY && (u->red_op == OP_ADD || u->red_op == OP_MUL);  /* arr += x: Numba's too */
      if (!ty_is_scalar(t) && !array) set_unsafe(&s, loop, "a reduction on a non-scalar variable");
    } else if (u->stores) {
      set_unsafe(&s, loop, "a variable carried between iterations");
      plan->kind[v] = PAR_PRIVATE;
    } else {
      plan->kind[v] = PAR_SHARED;
    }
    if (s.unsafe) snprintf(plan->why, sizeof plan->why, "%s ('%s')", s.unsafe, f->var_names[v]);
  }
  if (s.unsafe && !plan->why[0]) snprintf(plan->why, sizeof plan->why, "%s", s.unsafe);
  ir_walk_list(&loop->body, note_draw, &plan->fixed);
  plan->line = s.unsafe ? (s.unsafe_line ? s.unsafe_line : loop->line) : 0;
  return !s.unsafe;
}
