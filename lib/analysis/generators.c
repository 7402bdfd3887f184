/* analysis/generators.c — which generator objects a function makes and
 * uses up itself, so that their state can live in its frame.
 *
 * A generator object is a state on the heap, reference counted, resumed
 * through a pointer: it may outlive the frame that made it. Most never
 * do: `for x in gen(n)` assigns gen(n) to a hidden variable that only the
 * loop resumes. Such a variable's generator can keep its state in the
 * frame (lower/generators.c), which the frame drops when it reassigns the
 * variable or ends; once LLVM inlines the resume function the state's
 * fields are values in registers, as Numba's generators are (Numba's
 * state is always the consumer's: it cannot return or store a generator).
 *
 * A variable qualifies when every assignment to it is a plain call of the
 * same compiled generator function and every other use resumes it (a for
 * loop's steps, next()). Anything else (returned, passed on, stored, a
 * parameter, assigned another generator) keeps the heap object.
 */
#include <string.h>

#include "analysis/analysis.h"
#include "ir.h"

typedef struct FrameGenerators {
  const CallTarget **maker;  /* per variable: the call that makes its generator so far */
  bool *escapes;             /* per variable: some use needs the heap object */
} FrameGenerators;

/* A call the frame can make in its own memory: straight to a generator
 * function's body, its arguments one by one, not a recursive one (which
 * checks the stack with every call). */
static bool frame_call(const Node *n) {
  return n->kind == N_CALL && n->target && !n->target->self && n->target->func->generator && !n->op &&
         !n->target->func->recursive && !n->target->func_opts->device && ir_calls_builtin(n, "a ruchey function");
}

static bool same_maker(const CallTarget *a, const CallTarget *b) {
  return a->func == b->func || !strcmp(a->func->symbol, b->func->symbol);
}

static bool note_use(Node *n, void *ctx);

static void note_assignment(FrameGenerators *g, Node *n) {
  int v = n->lhs->var;
  const Node *call = n->rhs;
  if (!frame_call(call) || (g->maker[v] && !same_maker(g->maker[v], call->target)))
    g->escapes[v] = true;
  else
    g->maker[v] = call->target;
}

/* Resumed or read (a for loop's steps, next()): the generator stays here. */
static bool resumes(const Node *n) {
  return (ir_calls_builtin(n, "generator resumed") || ir_calls_builtin(n, "generator value") || ir_calls_builtin(n, "next")) &&
         n->list.len >= 1 && n->list.items[0]->kind == N_VAR;
}

static bool note_use(Node *n, void *ctx) {
  FrameGenerators *g = ctx;
  if (n->kind == N_ASSIGN && n->lhs->kind == N_VAR && n->lhs->ty && n->lhs->ty->kind == TY_YIELDS) {
    ir_walk(n->rhs, note_use, g);
    note_assignment(g, n);
    return false;
  }
  if (resumes(n)) {
    for (int i = 1; i < n->list.len; i++) ir_walk(n->list.items[i], note_use, g);
    return false;
  }
  if (n->kind == N_VAR) g->escapes[n->var] = true;
  return true;
}

const CallTarget **an_frame_generators(Func *f, const CompileOptions *opts) {
  size_t nv = (size_t)(f->nvars ? f->nvars : 1);
  FrameGenerators g = {arena_alloc(f->arena, sizeof(CallTarget *) * nv), arena_alloc(f->arena, nv)};
  /* a generator's frame is itself a state on the heap; a parallel
   * function's loops outline their bodies; a recursive one unwinds */
  if (f->generator || opts->kernel || opts->parallel || opts->device || f->recursive) return g.maker;
  ir_walk_list(&f->body, note_use, &g);
  for (int v = 0; v < f->nvars; v++)
    if (g.escapes[v] || v < f->nparams || !f->var_types[v] || f->var_types[v]->kind != TY_YIELDS) g.maker[v] = NULL;
  return g.maker;
}
