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
 * constants, variables var_ok accepts, and arithmetic that cannot raise. */
typedef bool (*VarOk)(const Node *var, const void *ctx);

static bool recomputable(const Node *n, VarOk var_ok, const void *ctx) {
  if (!n) return true;
  switch (n->kind) {
  case N_INT: case N_FLOAT: case N_BOOL: return true;
  case N_VAR: return var_ok(n, ctx);
  case N_CALL:
    return n->bi && (n->bi->flags & BF_THREAD_INDEX);
  case N_BINOP:
    if (n->op == OP_DIV || n->op == OP_FLOORDIV || n->op == OP_MOD || n->op == OP_POW) return false;
    return recomputable(n->lhs, var_ok, ctx) && recomputable(n->rhs, var_ok, ctx);
  case N_UNARY: case N_ATTR: return recomputable(n->lhs, var_ok, ctx);
  case N_COMPARE:
    for (int i = 0; i < n->list.len; i++)
      if (!recomputable(n->list.items[i], var_ok, ctx)) return false;
    return true;
  default: return false;
  }
}

typedef struct Remat {
  const Func *f;
  const KernelPlan *k;
  const int *stores;
} Remat;

/* For rematerialising: variables that never change after their one assignment. */
static bool never_changes(const Node *n, const void *ctx) {
  const Remat *r = ctx;
  return (n->var < r->f->nparams && r->stores[n->var] == 0) || r->k->remat[n->var] ||
         (r->k->uniform[n->var] && r->stores[n->var] <= 1);
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
    if (stores[v] != 1 || k->uniform[v] || !ty_is_scalar(n->lhs->ty) ||
        !recomputable(n->rhs, never_changes, &(Remat){f, k, stores}))
      continue;
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

/* ---------------------------------------------------------------- loops in step */

/* A loop whose threads each walk their own range with a stride every
 * thread shares (`for i in range(cuda.grid(1), n, cuda.gridsize(1))`)
 * touches, thread after thread, addresses a whole stride apart, which on
 * the CPU miss the cache on every access. Run in step — iteration k of
 * every thread of the block, then iteration k + 1 — the threads read
 * neighbouring addresses together, as a warp does on the GPU, and the
 * loop over them vectorises. Threads between barriers may run in any
 * order, so this changes no result of a kernel free of data races, as
 * long as the body does nothing whose order shows: no print, atomics,
 * device function calls, returns, breaks or raises. Each pass
 * recomputes the thread's start and the step: they must be cheap, and
 * the body must not change what they read. */
typedef struct Step {
  bool *assigned;  /* per variable: the body assigns it */
  bool ok;
} Step;

static void note_target_var(const Node *t, bool *assigned) {
  if (t->kind == N_VAR) assigned[t->var] = true;
  if (t->kind == N_TUPLE)
    for (int i = 0; i < t->list.len; i++) note_target_var(t->list.items[i], assigned);
}

static bool see_step_body(Node *n, void *ctx) {
  Step *s = ctx;
  switch (n->kind) {
  case N_ASSIGN: case N_AUGASSIGN: case N_FOR: note_target_var(n->lhs, s->assigned); break;
  case N_RETURN: case N_BREAK: case N_RAISE: case N_ASSERT: case N_TRY: s->ok = false; break;
  case N_CALL:
    s->ok &= n->bi && !n->target && (n->bi->flags & (BF_PURE | BF_THREAD_INDEX | BF_RANGE)) &&
             !(n->bi->flags & BF_BLOCK_MEMORY);
    break;
  default: break;
  }
  return true;
}

static bool unassigned(const Node *n, const void *ctx) { return !((const Step *)ctx)->assigned[n->var]; }

static bool lockstep_loop(Func *f, const KernelPlan *k, const Node *n) {
  const Node *r = n->cond;
  if (!(r->kind == N_CALL && r->bi && (r->bi->flags & BF_RANGE)) || r->list.len < 2 || n->orelse.len) return false;
  if (an_uniform(k, r->list.items[0])) return false;  /* every thread the same range */
  for (int i = 1; i < r->list.len; i++)
    if (!an_uniform(k, r->list.items[i])) return false;
  Step s = {arena_alloc(f->arena, (size_t)(f->nvars ? f->nvars : 1)), true};
  s.assigned[n->lhs->var] = true;
  ir_walk_list((NodeList *)&n->body, see_step_body, &s);
  return s.ok && recomputable(r->list.items[0], unassigned, &s) &&
         (r->list.len < 3 || recomputable(r->list.items[2], unassigned, &s));
}

/* Marks the loops run in step among the statements fission runs per thread. */
static void find_lockstep(Func *f, KernelPlan *k, const NodeList *b) {
  for (int i = 0; i < b->len; i++) {
    Node *n = b->items[i];
    if (an_has_barrier(n)) {
      find_lockstep(f, k, &n->body);
      find_lockstep(f, k, &n->orelse);
    } else if (n->kind == N_FOR && lockstep_loop(f, k, n)) {
      n->plan->lockstep = k->lockstep = true;
    }
  }
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
    find_lockstep(f, k, &f->body);
  }
  return k;
}
