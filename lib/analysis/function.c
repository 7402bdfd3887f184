/* analysis/function.c — every analysis of a function, run once before it
 * is lowered; lowering only reads what they leave on the Func and its
 * loops. */
#include "analysis/analysis.h"
#include "ir.h"

typedef struct Planner {
  Func *f;
  const CompileOptions *opts;
} Planner;

static bool plan_loop(Node *n, void *ctx) {
  Planner *p = ctx;
  if (n->kind != N_FOR) return true;
  Func *f = p->f;
  LoopPlan *plan = arena_alloc(f->arena, sizeof(LoopPlan));
  if ((n->cond->bi->flags & BF_PARALLEL) && p->opts->parallel) {
    plan->par = arena_alloc(f->arena, sizeof(ParPlan));
    an_parallel(f, n, plan->par);
  }
  plan->assigned = arena_alloc(f->arena, (size_t)(f->nvars ? f->nvars : 1));
  plan->deferrable = an_deferrable(f, p->opts, n, plan->assigned);
  n->plan = plan;
  return true;
}

void an_function(Func *f, const CompileOptions *opts) {
  if (f->plan) return;
  f->plan = arena_alloc(f->arena, sizeof(FuncPlan));
  f->plan->maybe_unbound = an_maybe_unbound(f);
  ir_walk_list(&f->body, plan_loop, &(Planner){f, opts});
  if (opts->kernel && !opts->gpu_cc) f->plan->kernel = an_kernel(f);
}
