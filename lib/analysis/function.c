/* analysis/function.c — every analysis of a function, run once before it
 * is lowered; lowering only reads what they leave on the Func and its
 * loops. */
#include <stdarg.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "ir.h"

typedef struct Planner {
  Func *f;
  const CompileOptions *opts;
  bool in_try;  /* in the body of a try statement */
} Planner;

/* What a loop body holds, for ordered_sum_only. */
typedef struct Body {
  bool float_sum;   /* a float variable += or -= */
  bool other;       /* anything a vector loop would speed up */
} Body;

static bool cheap_call(const Node *n, int depth);

/* A callee's body that is straight arithmetic: no loop, no memory written
 * or made (an array expression makes an array; a view of an argument does
 * not), only cheap calls. */
typedef struct Straight {
  bool ok;
  int depth;
} Straight;

static bool see_straight(Node *n, void *ctx) {
  Straight *s = ctx;
  switch (n->kind) {
  case N_FOR: case N_WHILE: s->ok = false; break;
  case N_ASSIGN: case N_AUGASSIGN: s->ok &= n->lhs->kind == N_VAR; break;
  case N_BINOP: case N_UNARY: case N_COMPARE: s->ok &= !ty_has_arrays(n->ty); break;
  case N_CALL: s->ok &= !ty_has_arrays(n->ty) && cheap_call(n, s->depth + 1); break;
  default: break;
  }
  return s->ok;
}

/* A builtin flagged cheap, or a ruchey function whose body is straight
 * arithmetic (a distance's term): inlined, the loop calling it is the
 * loop with its body written out, and is planned as that one. */
static bool cheap_call(const Node *n, int depth) {
  const CallTarget *t = n->target;
  if (!t) return n->bi && (n->bi->flags & BF_CHEAP);
  if (t->self || !t->func || depth > 4) return false;
  Straight s = {true, depth};
  ir_walk_list(&t->func->body, see_straight, &s);
  return s.ok;
}

/* A float division: its throughput, not the adds, bounds a sum of its
 * quotients (5 cycles a division, 3 an add), and a vector loop divides
 * several at once. One by a literal is a multiplication. */
static bool divides(const Node *n) {
  return n->kind == N_BINOP && n->op == OP_DIV && ty_is_float(n->ty) && n->rhs->kind != N_FLOAT;
}

static bool see_body(Node *n, void *ctx) {
  Body *b = ctx;
  switch (n->kind) {
  case N_AUGASSIGN:
    if (n->lhs->kind == N_VAR && ty_is_float(n->lhs->ty) && (n->op == OP_ADD || n->op == OP_SUB)) b->float_sum = true;
    else b->other = true;
    break;
  case N_ASSIGN: b->other |= n->lhs->kind != N_VAR; break;
  case N_BINOP: b->other |= divides(n); break;
  case N_CALL: b->other |= !cheap_call(n, 0) || (ty_has_arrays(n->ty) && !n->target); break;
  case N_FOR: case N_WHILE: b->other = true; break;
  default: break;
  }
  return !b->other;
}

/* A float sum of cheap terms (a dot product, a distance): its adds stay
 * in order, so a vector loop computes the terms ahead and adds them one
 * by one at the scalar loop's speed, after a prologue that short arrays
 * (10 to 100 elements, called a million times) pay on every call. Such
 * a loop stays a plain scalar loop: the in-order adds bound it anyway, and
 * unrolling's remainder loop cost a 3-element distance nested in a loop
 * more than it saved (one not nested still unrolls: lower/stmt.c). */
static bool ordered_sum_only(const Node *loop) {
  Body b = {false, false};
  ir_walk_list(&loop->body, see_body, &b);
  return b.float_sum && !b.other;
}

bool an_guarded_sum(const Node *n) {
  if (n->kind != N_IF || n->orelse.len || n->body.len != 1) return false;
  const Node *a = n->body.items[0];
  return a->kind == N_AUGASSIGN && a->op == OP_ADD && a->lhs->kind == N_VAR && ty_is_float(a->ty) &&
         a->lhs->ty == a->ty;
}

static bool see_costly(Node *n, void *ctx) {
  bool *costly = ctx;
  *costly |= divides(n) || (n->kind == N_CALL && !cheap_call(n, 0));
  return !*costly;
}

typedef struct Guarded {
  bool costly;  /* a guarded sum's term divides or calls what is not cheap */
  bool loops;   /* the body holds a loop */
} Guarded;

static bool see_guarded(Node *n, void *ctx) {
  Guarded *g = ctx;
  g->loops |= n->kind == N_FOR || n->kind == N_WHILE;
  if (an_guarded_sum(n)) ir_walk(n->body.items[0]->rhs, see_costly, &g->costly);
  return !g->loops;
}

/* `if c: s += t` keeps its add in a branch, which no vector loop takes for
 * an ordered sum: the vectoriser sees a reduction only in an add that runs
 * on every iteration. Added after the if, with -0.0 where c is false (s +
 * -0.0 is s for every s, zeros and NaNs included), the terms of several
 * iterations are computed at once, each lane's in the branch's place, and
 * added one by one in order: the sum is the serial one to the bit. Only
 * for a costly term (a division, as a Canberra distance's): an add on
 * every iteration costs a sparse guard's loop more than it saves. */
static bool sums_guarded_terms(const Node *loop) {
  Guarded g = {false, false};
  ir_walk_list(&loop->body, see_guarded, &g);
  return g.costly && !g.loops;
}

typedef struct Exponent {
  const Func *f;
  Node *var;  /* the first fixed integer parameter a float is raised to */
} Exponent;

static bool see_exponent(Node *n, void *ctx) {
  Exponent *e = ctx;
  Node *p = n->rhs;
  if (n->kind == N_BINOP && n->op == OP_POW && ty_is_float(n->ty) && p->kind == N_VAR && p->var < e->f->nparams &&
      e->f->plan->fixed[p->var] && ty_is_int(p->ty) && p->ty->kind != TY_U64)
    e->var = p;
  return !e->var;
}

/* `abs(x[i] - y[i]) ** p` (a Minkowski distance), p an int parameter:
 * multiplications for p of 1 to 3, chosen per element by a jump table
 * (lower/arith.c float_pow_int); a version of the loop per exponent
 * makes the choice once, and each version's products as a literal
 * exponent's (x * x), which vectorise. */
static Node *loop_exponent(const Func *f, const CompileOptions *opts, Node *loop) {
  if (opts->kernel || opts->gpu_cc) return NULL;
  Exponent e = {f, NULL};
  ir_walk_list(&loop->body, see_exponent, &e);
  return e.var;
}

typedef struct Stream {
  int var;   /* the loop's variable */
  int bits;  /* the widest element read or written so far */
} Stream;

/* a[i], a a C-contiguous 1-d array of numbers, i the loop's variable */
static bool stream_element(const Node *n, Stream *s) {
  const Type *a = n->lhs->ty;
  if (n->lhs->kind != N_VAR || n->rhs->kind != N_VAR || n->rhs->var != s->var) return false;
  if (a->kind != TY_ARRAY || a->ndim != 1 || a->layout != 'C') return false;
  if (!(ty_is_int(a->elem) || ty_is_float(a->elem)) || (a->elem->flags & TF_BOOL)) return false;
  if (a->elem->bits > s->bits) s->bits = a->elem->bits;
  return true;
}

static bool is_number(const Type *t) { return (ty_is_int(t) || ty_is_float(t)) && !(t->flags & TF_BOOL); }

/* Sums, differences and products of such elements, scalars and literals */
static bool stream_operand(const Node *n, Stream *s) {
  switch (n->kind) {
  case N_INT: case N_FLOAT: return true;
  case N_VAR: return n->var != s->var && is_number(n->ty);
  case N_INDEX: return stream_element(n, s);
  case N_UNARY: return n->op == OP_NEG && is_number(n->ty) && stream_operand(n->lhs, s);
  case N_BINOP:
    return (n->op == OP_ADD || n->op == OP_SUB || n->op == OP_MUL) && is_number(n->ty) &&
           stream_operand(n->lhs, s) && stream_operand(n->rhs, s);
  default: return false;
  }
}

/* A loop that streams over whole arrays: `for i in range(n)` (or from a
 * literal start) whose every statement stores such an operand, of the
 * element's own type (no conversion as it is stored), into a[i]. Bound
 * by memory, not by its arithmetic, for arrays of any size worth timing;
 * the widest element's bits, or 0 for another loop. Its vector loop
 * computes each element as the scalar one does (no call, no conversion
 * to an integer), so how many lanes it takes changes no result. */
static int stream_bits(const Node *loop) {
  const NodeList *args = &loop->cond->list;
  bool from_zero = args->len == 1 || (args->len == 2 && args->items[0]->kind == N_INT && args->items[0]->ival >= 0);
  if (!from_zero || loop->orelse.len || !loop->body.len || loop->lhs->kind != N_VAR) return 0;
  Stream s = {loop->lhs->var, 0};
  for (int i = 0; i < loop->body.len; i++) {
    const Node *st = loop->body.items[i];
    if (st->kind != N_ASSIGN || st->lhs->kind != N_INDEX || !stream_element(st->lhs, &s)) return 0;
    if (st->rhs->ty != st->lhs->lhs->ty->elem || !stream_operand(st->rhs, &s)) return 0;
  }
  return s.bits;
}

typedef struct Checks {
  bool found;
  int depth;
} Checks;

static bool see_check(Node *n, void *ctx);

/* Whether a compiled callee's body may raise; one recursive or nested
 * deeper than a helper's helpers is assumed to. */
static bool callee_checks(const CallTarget *t, int depth) {
  if (t->self || !t->func || depth > 4) return true;
  Checks c = {false, depth};
  ir_walk_list(&t->func->body, see_check, &c);
  return c.found;
}

/* A division by what may be zero, a power (its overflow, a negative
 * exponent of 0), a raise, or a call that may raise; indexing is not
 * counted (its check is the loop's bound more often than not). */
static bool see_check(Node *n, void *ctx) {
  Checks *c = ctx;
  bool divides = n->op == OP_DIV || n->op == OP_FLOORDIV || n->op == OP_MOD;
  switch (n->kind) {
  case N_BINOP: case N_AUGASSIGN:
    c->found |= n->op == OP_POW || (divides && !(n->rhs->kind == N_FLOAT && n->rhs->fval != 0.0));
    break;
  case N_RAISE: c->found = true; break;
  case N_CALL:
    c->found |= n->target ? callee_checks(n->target, c->depth + 1) : n->bi && (n->bi->flags & BF_RAISES);
    break;
  default: break;
  }
  return !c->found;
}

static bool loop_checks(const Node *loop) {
  Checks c = {false, 0};
  ir_walk_list(&loop->body, see_check, &c);
  return c.found;
}

static bool plan_loop(Node *n, void *ctx);

/* ---------------------------------------------------------------- while loops that count */

typedef struct Counter {
  int var;         /* the variable counting the iterations */
  int bound;       /* the variable it is kept below, or -1 (a literal) */
  int assignments; /* statements assigning var */
  bool spoilt;     /* bound assigned, or a continue, a loop or a yield in the body */
} Counter;

static bool assigns(const Node *target, int var) {
  if (target->kind == N_VAR) return target->var == var;
  for (int i = 0; target->kind == N_TUPLE && i < target->list.len; i++)
    if (assigns(target->list.items[i], var)) return true;
  return false;
}

static bool see_counter(Node *n, void *ctx) {
  Counter *c = ctx;
  switch (n->kind) {
  case N_ASSIGN: case N_AUGASSIGN:
    c->assignments += assigns(n->lhs, c->var);
    c->spoilt |= c->bound >= 0 && assigns(n->lhs, c->bound);
    break;
  case N_CONTINUE: case N_FOR: case N_WHILE: case N_YIELD: c->spoilt = true; break;
  default: break;
  }
  return !c->spoilt;
}

/* `v += k` or `v = v + k`, k a positive int literal */
static bool steps_up(const Node *st, int var) {
  const Node *k = NULL;
  if (st->kind == N_AUGASSIGN && st->op == OP_ADD) k = st->rhs;
  if (st->kind == N_ASSIGN && st->rhs->kind == N_BINOP && st->rhs->op == OP_ADD && st->rhs->lhs->kind == N_VAR &&
      st->rhs->lhs->var == var)
    k = st->rhs->rhs;
  return k && st->lhs->kind == N_VAR && st->lhs->var == var && k->kind == N_INT && k->ival > 0;
}

static bool int64_var(const Func *f, const Node *n) {
  return n->kind == N_VAR && n->ty->kind == TY_I64 && f->var_types[n->var]->kind == TY_I64;
}

/* `v < e`, `v <= e`, `e > v` or `e >= v` of int64s, e an int literal or
 * another variable: noted in plan */
static bool counts_to(const Func *f, Node *cmp, LoopPlan *plan) {
  if (cmp->kind != N_COMPARE || cmp->list.len != 2) return false;
  int op = cmp->ops[0];
  bool up = op == OP_LT || op == OP_LE;
  if (!up && op != OP_GT && op != OP_GE) return false;
  Node *from = cmp->list.items[up ? 0 : 1], *to = cmp->list.items[up ? 1 : 0];
  bool limit = (to->kind == N_INT && to->ty->kind == TY_I64) || (int64_var(f, to) && to->var != from->var);
  if (!int64_var(f, from) || !limit) return false;
  *plan = (LoopPlan){.count_from = from, .count_to = to, .count_inclusive = op == OP_LE || op == OP_GE};
  return true;
}

/* The body (and the condition) assign the counter once, in a statement
 * of the body's own that steps it up: every iteration that goes on to
 * the next steps it, as no continue skips that statement. */
static bool counted_body(const Node *loop, const LoopPlan *plan) {
  Counter c = {plan->count_from->var, plan->count_to->kind == N_VAR ? plan->count_to->var : -1, 0, false};
  ir_walk(loop->cond, see_counter, &c);
  ir_walk_list(&loop->body, see_counter, &c);
  bool stepped = false;
  for (int i = 0; i < loop->body.len; i++) stepped |= steps_up(loop->body.items[i], c.var);
  return stepped && c.assignments == 1 && !c.spoilt;
}

/* `while n < max_iter and ...: ...; n += 1` (a Mandelbrot pixel's
 * iterations): a while loop whose condition, or one of its and-ed terms,
 * keeps a counter below a bound, with no loop inside. Its trip count
 * known at its entry, lowering leaves out the Ctrl-C poll of each
 * iteration where that count is short (lower/stmt.c lo_while). NULL for
 * other while loops, and in kernels and GPU code. */
static LoopPlan *counted_while(Func *f, const CompileOptions *opts, Node *loop) {
  if (opts->kernel || opts->gpu_cc) return NULL;
  Node *cond = loop->cond;
  bool all = cond->kind == N_BOOLOP && cond->op == OP_AND;  /* each term holds in every iteration */
  LoopPlan *plan = arena_alloc(f->arena, sizeof(LoopPlan));
  for (int i = 0; i < (all ? cond->list.len : 1); i++)
    if (counts_to(f, all ? cond->list.items[i] : cond, plan) && counted_body(loop, plan)) return plan;
  return NULL;
}

/* A prange loop in the body of a try with except clauses runs serially,
 * as Numba's: the except clause sees the loop's variables as the
 * iteration that raised left them. A try/finally alone (with
 * parallel_chunksize(n): restores the chunksize) catches nothing: its
 * loops stay parallel, as a with block's are in Numba. */
static bool plan_try(Node *n, Planner *p) {
  Planner body = *p;
  body.in_try = p->in_try || n->list.len > 0;
  ir_walk_list(&n->body, plan_loop, &body);
  ir_walk_list(&n->list, plan_loop, p);
  ir_walk_list(&n->orelse, plan_loop, p);
  ir_walk(n->lhs, plan_loop, p);
  return false;
}

static bool plan_loop(Node *n, void *ctx) {
  Planner *p = ctx;
  if (n->kind == N_TRY) return plan_try(n, p);
  if (n->kind == N_WHILE) n->plan = counted_while(p->f, p->opts, n);
  if (n->kind != N_FOR) return true;
  Func *f = p->f;
  LoopPlan *plan = arena_alloc(f->arena, sizeof(LoopPlan));
  if ((n->cond->bi->flags & BF_PARALLEL) && p->opts->parallel) {
    plan->par = arena_alloc(f->arena, sizeof(ParPlan));
    if (!p->in_try) {
      an_parallel(f, n, plan->par);
    } else {
      snprintf(plan->par->why, sizeof plan->par->why, "a try statement around it");
      plan->par->line = n->line;
    }
  }
  plan->assigned = arena_alloc(f->arena, (size_t)(f->nvars ? f->nvars : 1));
  plan->deferrable = an_deferrable(f, p->opts, n, plan->assigned);
  bool reassociates = p->opts->fastmath & FM_REASSOC;
  plan->scalar = !reassociates && !p->opts->kernel && ordered_sum_only(n);
  plan->checked = loop_checks(n);
  bool *sums = arena_alloc(f->arena, (size_t)(f->nvars ? f->nvars : 1));
  if (plan->checked && !plan->deferrable && !plan->par && an_checked_by_sums(f, p->opts, n, plan->assigned, sums))
    plan->sums = sums;
  plan->guarded_sums = !reassociates && !p->opts->kernel && !plan->scalar && sums_guarded_terms(n);
  plan->pow_exponent = loop_exponent(f, p->opts, n);
  n->plan = plan;
  return true;
}

/* Loops nested in no other (a nested loop's data is most often reused by
 * the loop around it, in the first-level cache): which stream. */
static bool plan_streams(Node *n, void *ctx) {
  const CompileOptions *opts = ctx;
  if (n->kind == N_WHILE) return false;
  if (n->kind != N_FOR) return true;
  if (!n->plan->par && !opts->kernel && !opts->gpu_cc) n->plan->stream_bits = stream_bits(n);
  return false;
}

static void note_target(const Node *t, bool *assigned) {
  if (t->kind == N_VAR) assigned[t->var] = true;
  if (t->kind == N_TUPLE)
    for (int i = 0; i < t->list.len; i++) note_target(t->list.items[i], assigned);
}

static bool note_assignment(Node *n, void *ctx) {
  if (n->kind == N_ASSIGN || n->kind == N_AUGASSIGN || n->kind == N_FOR) note_target(n->lhs, ctx);
  return true;
}

/* Parameters that no statement assigns: they hold the caller's values
 * for the whole call. */
static bool *fixed_params(Func *f) {
  size_t n = (size_t)(f->nvars ? f->nvars : 1);
  bool *assigned = arena_alloc(f->arena, n), *fixed = arena_alloc(f->arena, n);
  ir_walk_list(&f->body, note_assignment, assigned);
  for (int v = 0; v < f->nparams; v++) fixed[v] = !assigned[v];
  return fixed;
}

/* Fixed parameters holding arrays: the caller keeps its reference for the
 * whole call, so the body need not take its own (an atomic add and
 * subtract per array per call). Kernels keep theirs. */
static bool *borrowed_params(Func *f, const CompileOptions *opts) {
  bool *borrowed = arena_alloc(f->arena, (size_t)(f->nvars ? f->nvars : 1));
  if (opts->kernel || f->generator) return borrowed;  /* a generator's state outlives the call */
  for (int v = 0; v < f->nparams; v++)
    borrowed[v] = f->plan->fixed[v] && f->var_types[v] && ty_has_arrays(f->var_types[v]);
  return borrowed;
}

typedef struct Holding {
  const Func *f;
  bool found;
} Holding;

static bool note_holding(Node *n, void *ctx) {
  Holding *h = ctx;
  bool borrowed = n->kind == N_VAR && h->f->plan->borrowed[n->var];
  if ((n->ty && ty_has_arrays(n->ty) && !borrowed) || n->kind == N_TRY) h->found = true;
  return !h->found;
}

/* Whether a frame of f must be left on its own when a RecursionError
 * passes: a variable or a temporary of the body may own a reference (a
 * parameter it borrows does not), or a try statement's clauses may catch
 * the error or its finally clause run (lower/function.c). */
static bool unwinds(const Func *f) {
  for (int v = 0; v < f->nvars; v++)
    if (f->var_types[v] && ty_has_arrays(f->var_types[v]) && !f->plan->borrowed[v]) return true;
  Holding h = {f, false};
  ir_walk_list(&f->body, note_holding, &h);
  return h.found;
}

void an_function(Func *f, const CompileOptions *opts) {
  if (f->plan) return;
  f->plan = arena_alloc(f->arena, sizeof(FuncPlan));
  if (opts->kernel && !opts->gpu_cc) an_hoist_collectives(f);
  f->plan->maybe_unbound = an_maybe_unbound(f);
  f->plan->fixed = fixed_params(f);
  f->plan->borrowed = borrowed_params(f, opts);
  f->plan->frame_generators = an_frame_generators(f, opts);
  f->plan->unwinds = f->recursive && unwinds(f);  /* read only by a recursive body (lower/function.c) */
  f->plan->reruns = an_reruns_whole(f, opts);
  ir_walk_list(&f->body, plan_loop, &(Planner){f, opts, false});
  ir_walk_list(&f->body, plan_streams, (void *)opts);
  if (opts->kernel && !opts->gpu_cc) f->plan->kernel = an_kernel(f);
}

/* ---------------------------------------------------------------- described, for tests */

typedef struct Text {
  char *buf;
  size_t len, cap;
} Text;

static void put(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(Text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (t->len + (size_t)n + 1 > t->cap) {
    t->cap = 2 * (t->len + (size_t)n + 1);
    t->buf = realloc(t->buf, t->cap);
  }
  va_start(ap, fmt);
  vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
  t->len += (size_t)n;
}

static void put_vars(Text *t, const Func *f, const char *what, const bool *set) {
  put(t, "%s:", what);
  for (int v = 0; v < f->nvars; v++)
    if (set[v]) put(t, " %s", f->var_names[v]);
  put(t, "\n");
}

static const char *reduction_name(int op) {
  switch (op) {
  case OP_ADD: return "+";
  case OP_MUL: return "*";
  case OP_BITOR: return "|";
  case OP_BITAND: return "&";
  case OP_BITXOR: return "^";
  case OP_LT: return "min";
  default: return "max";
  }
}

/* "while counted: n < max_iter" (the bound a literal's digits) */
static void describe_counted_while(Text *t, const Func *f, const LoopPlan *p) {
  put(t, "while counted: %s %s ", f->var_names[p->count_from->var], p->count_inclusive ? "<=" : "<");
  if (p->count_to->kind == N_INT) put(t, "%lld\n", (long long)p->count_to->ival);
  else put(t, "%s\n", f->var_names[p->count_to->var]);
}

static bool describe_loop(Node *n, void *ctx) {
  Text *t = ((void **)ctx)[0];
  const Func *f = ((void **)ctx)[1];
  if (n->kind == N_WHILE && n->plan) describe_counted_while(t, f, n->plan);
  if (n->kind != N_FOR) return true;
  const LoopPlan *p = n->plan;
  if (p->deferrable) put_vars(t, f, "deferrable loop, assigning", p->assigned);
  else if (p->sums) put_vars(t, f, "loop checked by its sums", p->sums);
  else put(t, "loop\n");
  if (p->stream_bits) put(t, "streams: %d\n", p->stream_bits);
  if (!p->par) return true;
  if (p->par->why[0]) {
    put(t, "prange serial: %s\n", p->par->why);
    return true;
  }
  static const char *const kinds[] = {[PAR_SHARED] = "shared", [PAR_PRIVATE] = "private", [PAR_REDUCTION] = "reduction"};
  put(t, "prange parallel:");
  for (int v = 0; v < f->nvars; v++) {
    int k = p->par->kind[v];
    if (k == PAR_UNUSED) continue;
    put(t, " %s=%s", f->var_names[v], kinds[k]);
    if (k == PAR_REDUCTION) put(t, "(%s)", reduction_name(p->par->red_op[v]));
  }
  put(t, "\n");
  return true;
}

static bool describe_lockstep(Node *n, void *ctx) {
  Text *t = ((void **)ctx)[0];
  const Func *f = ((void **)ctx)[1];
  if (n->kind == N_FOR && n->plan->lockstep) put(t, " %s", f->var_names[n->lhs->var]);
  return true;
}

char *an_describe(Func *f, const CompileOptions *opts) {
  an_function(f, opts);
  Text t = {0};
  put_vars(&t, f, "maybe unbound", f->plan->maybe_unbound);
  put(&t, "reruns whole: %s\n", f->plan->reruns ? "yes" : "no");
  ir_walk_list(&f->body, describe_loop, (void *[]){&t, f});
  const KernelPlan *k = f->plan->kernel;
  if (k) {
    put(&t, "kernel: %s\n", k->fibers ? "fibers" : k->fission ? "fission" : "loop");
    if (k->fission) {
      put_vars(&t, f, "uniform", k->uniform);
      put(&t, "recomputed:");
      for (int i = 0; i < k->nremat; i++) put(&t, " %s", f->var_names[k->remat_order[i]]);
      put(&t, "\nin step:");
      ir_walk_list(&f->body, describe_lockstep, (void *[]){&t, f});
      put(&t, "\n");
    }
  }
  return t.buf;
}
