/* analysis/kernel.c — how a CPU kernel runs the threads of a block.
 *
 * A kernel without cuda.syncthreads() runs each block as one loop over its
 * threads. With barriers, the body is split at them into loops over the
 * threads (fission): statements holding a barrier run once per block, so
 * their conditions must be the same in every thread (uniform); barriers
 * the split cannot reach (under conditions that differ between threads, or
 * inside device functions) make the block's threads run as fibers. Warp
 * collectives (shuffles, votes) count as barriers: fission runs the warps'
 * lanes in step, as a barrier of the whole block does.
 */
#include "analysis/analysis.h"
#include "ir.h"

static bool block_has_barrier(const NodeList *b);

bool an_has_barrier(const Node *n) {
  if (an_collective_call(n)) return true;
  return block_has_barrier(&n->body) || block_has_barrier(&n->orelse);
}

static bool block_has_barrier(const NodeList *b) {
  for (int i = 0; i < b->len; i++)
    if (an_has_barrier(b->items[i])) return true;
  return false;
}

/* Uniformity (fission only): a variable is uniform when every thread of a
 * block holds the same value in it — assigned only from uniform values
 * (constants, parameters, blockIdx/blockDim/gridDim, shared arrays, other
 * uniform variables) by statements every thread runs the same way. Uniform
 * variables need one slot per block, their updates run once per block, and
 * conditions on them need no per-thread check. */
typedef struct Uniform {
  const KernelPlan *k;
  bool uniform;
} Uniform;

static bool note_varying(Node *n, void *ctx) {
  Uniform *u = ctx;
  switch (n->kind) {
  case N_VAR:
    u->uniform &= u->k->uniform[n->var];
    return false;
  case N_INDEX:  /* array memory may differ between threads; a tuple's fields do not */
    if (n->lhs->ty->kind != TY_TUPLE) u->uniform = false;
    ir_walk(n->lhs, note_varying, u);
    return false;
  case N_CALL:
    if (n->bi->flags & BF_VARIES) u->uniform = false;
    else ir_walk_list(&n->list, note_varying, u);
    return false;
  default:
    return u->uniform;
  }
}

bool an_uniform(const KernelPlan *k, const Node *n) {
  Uniform u = {k, true};
  ir_walk((Node *)n, note_varying, &u);
  return u.uniform;
}

static bool demote(KernelPlan *k, int v) {
  bool was = k->uniform[v];
  k->uniform[v] = false;
  return was;
}

/* Demotes what a statement run inside a thread loop assigns non-uniformly;
 * top: not nested in a per-thread if/loop. Returns whether anything changed. */
static bool uniform_thread_stmt(KernelPlan *k, const Node *n, bool ctx, bool top) {
  bool changed = false;
  const Node *t = n->lhs;
  switch (n->kind) {
  case N_ASSIGN:
    if (t->kind == N_VAR && !(ctx && top && an_uniform(k, n->rhs))) changed |= demote(k, t->var);
    if (t->kind == N_TUPLE)
      for (int i = 0; i < t->list.len; i++)
        if (t->list.items[i]->kind == N_VAR) changed |= demote(k, t->list.items[i]->var);
    return changed;
  case N_AUGASSIGN:
    if (t->kind == N_VAR && !(ctx && top && an_uniform(k, n->rhs))) changed |= demote(k, t->var);
    return changed;
  case N_FOR:
    changed |= demote(k, t->var);
    __attribute__((fallthrough));  /* its body runs per thread, as an if's */
  case N_IF: case N_WHILE:
    for (int i = 0; i < n->body.len; i++) changed |= uniform_thread_stmt(k, n->body.items[i], ctx, false);
    for (int i = 0; i < n->orelse.len; i++) changed |= uniform_thread_stmt(k, n->orelse.items[i], ctx, false);
    return changed;
  case N_BLOCK:
    for (int i = 0; i < n->body.len; i++) changed |= uniform_thread_stmt(k, n->body.items[i], ctx, top);
    return changed;
  default: return false;
  }
}

/* The range of a loop holding a barrier, as every thread sees it. */
static bool range_uniform(const KernelPlan *k, const Node *loop) {
  for (int i = 0; i < loop->cond->list.len; i++)
    if (!an_uniform(k, loop->cond->list.items[i])) return false;
  return true;
}

static bool uniform_block(KernelPlan *k, const NodeList *b, bool ctx) {
  bool changed = false;
  for (int i = 0; i < b->len; i++) {
    const Node *n = b->items[i];
    if (!an_has_barrier(n)) {
      changed |= uniform_thread_stmt(k, n, ctx, true);
      continue;
    }
    if (an_collective_call(n)) {  /* its value differs between threads */
      changed |= uniform_thread_stmt(k, n, false, true);
      continue;
    }
    bool c = ctx;
    if (n->kind == N_IF || n->kind == N_WHILE) c = ctx && an_uniform(k, n->cond);
    if (n->kind == N_FOR) {
      c = c && range_uniform(k, n);
      if (!c) changed |= demote(k, n->lhs->var);
    }
    changed |= uniform_block(k, &n->body, c) | uniform_block(k, &n->orelse, c);
  }
  return changed;
}

/* Counts the assignments of each variable anywhere in the body (an
 * augmented or unpacking one counts twice: never a single definition). */
static bool count_store(Node *n, void *ctx) {
  int *stores = ctx;
  if ((n->kind == N_ASSIGN || n->kind == N_AUGASSIGN || n->kind == N_FOR) && n->lhs->kind == N_VAR)
    stores[n->lhs->var] += n->kind == N_AUGASSIGN ? 2 : 1;
  if (n->kind == N_ASSIGN && n->lhs->kind == N_TUPLE)
    for (int i = 0; i < n->lhs->list.len; i++)
      if (n->lhs->list.items[i]->kind == N_VAR) stores[n->lhs->list.items[i]->var] += 2;
  return true;
}

/* A value each thread can recompute at no risk: thread and block indices,
 * constants, unchanged parameters, earlier recomputable variables, and
 * arithmetic that cannot raise. */
static bool thread_pure(const Func *f, const KernelPlan *k, const Node *n, const int *stores) {
  if (!n) return true;
  switch (n->kind) {
  case N_INT: case N_FLOAT: case N_BOOL: return true;
  case N_VAR:
    /* variables that never change after their one assignment */
    return (n->var < f->nparams && stores[n->var] == 0) || k->remat[n->var] ||
           (k->uniform[n->var] && stores[n->var] <= 1);
  case N_CALL:
    return n->bi->flags & BF_THREAD_INDEX;
  case N_BINOP:
    if (n->op == OP_DIV || n->op == OP_FLOORDIV || n->op == OP_MOD || n->op == OP_POW) return false;
    return thread_pure(f, k, n->lhs, stores) && thread_pure(f, k, n->rhs, stores);
  case N_UNARY: case N_ATTR: return thread_pure(f, k, n->lhs, stores);
  case N_COMPARE:
    for (int i = 0; i < n->list.len; i++)
      if (!thread_pure(f, k, n->list.items[i], stores)) return false;
    return true;
  default: return false;
  }
}

static void find_remat(Func *f, KernelPlan *k) {
  size_t nv = (size_t)(f->nvars ? f->nvars : 1);
  int *stores = arena_alloc(f->arena, sizeof(int) * nv);
  ir_walk_list(&f->body, count_store, stores);
  k->remat = arena_alloc(f->arena, sizeof(Node *) * nv);
  k->remat_order = arena_alloc(f->arena, sizeof(int) * nv);
  for (int i = 0; i < f->body.len; i++) {
    Node *n = f->body.items[i];
    if (n->kind != N_ASSIGN || n->lhs->kind != N_VAR) continue;
    int v = n->lhs->var;
    /* uniform ones already live once per block */
    if (stores[v] != 1 || k->uniform[v] || !ty_is_scalar(n->lhs->ty) || !thread_pure(f, k, n->rhs, stores)) continue;
    k->remat[v] = n->rhs;
    k->remat_order[k->nremat++] = v;
  }
}

static void find_uniform(Func *f, KernelPlan *k) {
  k->uniform = arena_alloc(f->arena, sizeof(bool) * (size_t)(f->nvars ? f->nvars : 1));
  for (int v = 0; v < f->nvars; v++) k->uniform[v] = f->var_types[v] != NULL;
  while (uniform_block(k, &f->body, true)) {
  }
  find_remat(f, k);
}

/* Whether every barrier sits under conditions and loops the same in every
 * thread, so that loop fission can run it. */
static bool barriers_uniform(const KernelPlan *k, const NodeList *b) {
  for (int i = 0; i < b->len; i++) {
    const Node *n = b->items[i];
    if (!an_has_barrier(n) || n->kind == N_EXPR) continue;
    if ((n->kind == N_IF || n->kind == N_WHILE) && !an_uniform(k, n->cond)) return false;
    if (n->kind == N_FOR && !range_uniform(k, n)) return false;
    if (!barriers_uniform(k, &n->body) || !barriers_uniform(k, &n->orelse)) return false;
  }
  return true;
}

/* Notes a collective passing values between threads (not a plain barrier). */
static bool note_exchange(Node *n, void *ctx) {
  const Node *call = an_collective_call(n);
  if (call && (call->list.len || call->ty->kind != TY_NONE)) *(bool *)ctx = true;
  return true;
}

/* Notes a grid.sync(), in the kernel or in a device function it calls. */
static bool note_grid_sync(Node *n, void *ctx) {
  if (n->kind == N_CALL && n->bi && (n->bi->flags & BF_GRID)) *(bool *)ctx = true;
  if (n->kind == N_CALL && n->target && n->target->grid_sync) *(bool *)ctx = true;
  return true;
}

static bool note_return(Node *n, void *ctx) {
  if (n->kind == N_RETURN) *(bool *)ctx = true;
  return true;
}

/* Notes a call to a device function that reaches cuda.syncthreads(). */
static bool note_barrier_call(Node *n, void *ctx) {
  if (n->kind == N_CALL && n->target && n->target->barrier) *(bool *)ctx = true;
  return true;
}

KernelPlan *an_kernel(Func *f) {
  KernelPlan *k = arena_alloc(f->arena, sizeof(KernelPlan));
  k->fission = block_has_barrier(&f->body);
  if (k->fission) find_uniform(f, k);
  bool barrier_calls = false;
  ir_walk_list(&f->body, note_barrier_call, &barrier_calls);
  k->fibers = barrier_calls || an_loose_collectives(f) || (k->fission && !barriers_uniform(k, &f->body));
  if (k->fibers) k->fission = false;
  ir_walk_list(&f->body, note_grid_sync, &k->grid);
  if (k->fission) {
    ir_walk_list(&f->body, note_exchange, &k->exchange);
    ir_walk_list(&f->body, note_return, &k->returns);
  }
  return k;
}
