/* analysis/defer.c — which loops may run first with their errors deferred.
 *
 * A loop whose body can raise (math domain errors, int() of NaN) has an
 * exit to the error on every iteration, and LLVM vectorises no loop with
 * two exits. When the body changes nothing but scalar variables and arrays
 * the function made itself, it may first run with its checks only noted
 * (lowering's Lower.deferred): one exit, so it vectorises. If a check failed, the
 * variables get back their values from before the loop and it runs again
 * with its checks, raising where Python would; what the first run wrote
 * past that point is in arrays that die with the exception. Loops that
 * write other arrays, read the arrays they write, allocate, call compiled
 * functions or could trap when a check is skipped (integer division,
 * bounds checks) are left as they are.
 */
#include <string.h>

#include "analysis/analysis.h"
#include "ir.h"

typedef struct Defer {
  Func *f;
  bool *written;  /* per variable: an array the loop writes */
  bool *changed;  /* per variable: a scalar the loop assigns (not the loop variable) */
  int loop_var;
  bool whole;     /* the whole function's body (a ufunc's): returns allowed */
  bool *set;      /* a loop checked by its sums: the variables its statements so far assign */
} Defer;

static bool deferrable_expr(const Defer *d, const Node *n);

/* An index the first run may use although a check failed: made of
 * literals, the loop variable and values the loop does not change, by + -
 * and *. (int(nan) or a value computed from it would be a wild address.) */
static bool safe_index(const Defer *d, const Node *n) {
  switch (n->kind) {
  case N_INT: return true;
  case N_VAR:  /* and bound: an unbound one would be read as garbage */
    return !d->changed[n->var] && ty_is_int(n->ty) &&
           (n->var == d->loop_var || !d->f->plan->maybe_unbound[n->var]);
  case N_UNARY: return n->op == OP_NEG && safe_index(d, n->lhs);
  case N_BINOP:
    return (n->op == OP_ADD || n->op == OP_SUB || n->op == OP_MUL) && safe_index(d, n->lhs) && safe_index(d, n->rhs);
  case N_TUPLE:
    for (int i = 0; i < n->list.len; i++)
      if (!safe_index(d, n->list.items[i])) return false;
    return true;
  default: return false;
  }
}

static bool deferrable_list(const Defer *d, const NodeList *list) {
  for (int i = 0; i < list->len; i++)
    if (!deferrable_expr(d, list->items[i])) return false;
  return true;
}

/* a / b, a // b, a % b on integers divide in hardware, which traps on zero */
static bool integer_division(int op, const Type *a, const Type *b) {
  return (op == OP_DIV || op == OP_FLOORDIV || op == OP_MOD) && !ty_is_float(a) && !ty_is_float(b);
}

static bool deferrable_expr(const Defer *d, const Node *n) {
  if ((n->kind == N_BINOP || n->kind == N_UNARY || n->kind == N_COMPARE) && n->ty->kind == TY_ARRAY)
    return false;  /* an array expression: a new array */
  switch (n->kind) {
  case N_INT: case N_FLOAT: case N_BOOL: case N_MODULE: case N_DTYPE: return true;
  case N_VAR:  /* an Optional's value is checked: a first run past a None would read through NULL */
    return !d->written[n->var] && d->f->var_types[n->var]->kind != TY_OPTIONAL;
  case N_BINOP:
    return !integer_division(n->op, n->lhs->ty, n->rhs->ty) && deferrable_expr(d, n->lhs) &&
           deferrable_expr(d, n->rhs);
  case N_UNARY: return deferrable_expr(d, n->lhs);
  case N_COMPARE: case N_BOOLOP: case N_TUPLE: return deferrable_list(d, &n->list);
  case N_IFEXP: return deferrable_expr(d, n->cond) && deferrable_expr(d, n->lhs) && deferrable_expr(d, n->rhs);
  case N_INDEX: return ty_is_scalar(n->ty) && !ty_is_container(n->lhs->ty) && n->lhs->kind == N_VAR && deferrable_expr(d, n->lhs) &&
                       safe_index(d, n->rhs);
  case N_ATTR: return (ty_is_scalar(n->ty) || n->ty->kind == TY_TUPLE) && deferrable_expr(d, n->lhs);
  case N_CALL:
    if (!ty_is_scalar(n->ty) || n->kw.len) return false;
    return (n->bi->flags & BF_PURE) && deferrable_list(d, &n->list);
  default: return false;
  }
}

static bool deferrable_target(const Defer *d, const Node *t) {
  if (t->kind == N_TUPLE) {
    for (int i = 0; i < t->list.len; i++)
      if (!deferrable_target(d, t->list.items[i])) return false;
    return true;
  }
  if (t->kind == N_INDEX)  /* an element of an array the function made */
    return ty_is_scalar(t->ty) && t->lhs->kind == N_VAR && d->written[t->lhs->var] && safe_index(d, t->rhs);
  return t->kind == N_VAR && ty_is_scalar(d->f->var_types[t->var]);
}

static bool deferrable_body(const Defer *d, const NodeList *body) {
  for (int i = 0; i < body->len; i++) {
    const Node *n = body->items[i];
    switch (n->kind) {
    case N_ASSIGN:
      if (!deferrable_target(d, n->lhs) || !deferrable_expr(d, n->rhs)) return false;
      break;
    case N_AUGASSIGN:
      if (n->lhs->kind != N_VAR || !deferrable_target(d, n->lhs) ||
          integer_division(n->op, n->lhs->ty, n->rhs->ty) || !deferrable_expr(d, n->rhs))
        return false;
      break;
    case N_IF:
      if (!deferrable_expr(d, n->cond) || !deferrable_body(d, &n->body) || !deferrable_body(d, &n->orelse))
        return false;
      break;
    case N_CONTINUE: case N_PASS: break;
    case N_RETURN:
      if (!d->whole || (n->lhs && !deferrable_expr(d, n->lhs))) return false;
      break;
    default: return false;
    }
  }
  return true;
}

/* Whether variable var only ever holds arrays this call allocated. */
typedef struct { int var; bool fresh; } Fresh;

static bool names_var(const Node *t, int var) {
  if (t->kind == N_VAR) return t->var == var;
  if (t->kind == N_TUPLE)
    for (int i = 0; i < t->list.len; i++)
      if (names_var(t->list.items[i], var)) return true;
  return false;
}

static bool check_fresh(Node *n, void *ctx) {
  Fresh *c = ctx;
  if ((n->kind != N_ASSIGN && n->kind != N_AUGASSIGN) || !names_var(n->lhs, c->var)) return true;
  bool allocates = n->kind == N_ASSIGN && n->lhs->kind == N_VAR && n->rhs->kind == N_CALL &&
                   (n->rhs->bi->flags & BF_ALLOCATES);
  if (!allocates) c->fresh = false;
  return true;
}

/* The arrays the loop's element stores write, if each is one the function
 * made itself; false if some store writes another. */
static bool note_written(Func *f, const NodeList *body, bool *written) {
  for (int i = 0; i < body->len; i++) {
    const Node *n = body->items[i];
    if (n->kind == N_IF && (!note_written(f, &n->body, written) || !note_written(f, &n->orelse, written)))
      return false;
    if (n->kind != N_ASSIGN || n->lhs->kind != N_INDEX) continue;
    const Node *base = n->lhs->lhs;
    if (base->kind != N_VAR || base->var < f->nparams) return false;
    Fresh c = {base->var, true};
    ir_walk_list(&f->body, check_fresh, &c);
    if (!c.fresh) return false;
    written[base->var] = true;
  }
  return true;
}

/* The scalar variables the loop assigns. */
static void note_assigned(const Node *t, bool *out) {
  if (t->kind == N_VAR) out[t->var] = true;
  else if (t->kind == N_TUPLE)
    for (int i = 0; i < t->list.len; i++) note_assigned(t->list.items[i], out);
}

static void assigned_in(const NodeList *body, bool *out) {
  for (int i = 0; i < body->len; i++) {
    const Node *n = body->items[i];
    if (n->kind == N_ASSIGN || n->kind == N_AUGASSIGN) note_assigned(n->lhs, out);
    if (n->kind == N_IF) {
      assigned_in(&n->body, out);
      assigned_in(&n->orelse, out);
    }
  }
}


/* What deferring would buy: the checks in the loop, and whether it calls
 * a math function dearer than an instruction. */
typedef struct { bool checked, dear; } Gain;

static bool note_gain(Node *n, void *ctx) {
  Gain *g = ctx;
  if (n->kind == N_CALL) {
    g->checked |= (n->bi->flags & BF_RAISES) != 0;
    g->dear |= !(n->bi->flags & BF_CHEAP);
  }
  if (n->kind == N_BINOP && (n->op == OP_DIV || n->op == OP_FLOORDIV || n->op == OP_MOD || n->op == OP_POW))
    g->checked = true;
  if (n->kind == N_AUGASSIGN && (n->op == OP_DIV || n->op == OP_FLOORDIV || n->op == OP_MOD || n->op == OP_POW))
    g->checked = true;
  return true;
}

/* Deferring compiles the loop twice: worth it for a loop that writes
 * arrays (a map over sqrt then runs 8 lanes wide), calls a dear math
 * function or may reassociate (fastmath: its sums vectorise too), not for
 * a strict reduction whose only check guards a sqrt or a square (its
 * vector form, bound by the ordered sum, gains little). Fills `changed`
 * with the scalars the loop assigns. */
bool an_deferrable(Func *f, const CompileOptions *opts, const Node *n, bool *changed) {
  if (opts->boundscheck || opts->kernel || opts->device || opts->gpu_cc) return false;
  Gain g = {false, false};
  ir_walk_list(&n->body, note_gain, &g);
  Defer d = {f, arena_alloc(f->arena, (size_t)f->nvars), changed, n->lhs->var};
  if (!g.checked || !note_written(f, &n->body, d.written)) return false;
  assigned_in(&n->body, changed);
  bool writes = false;
  for (int v = 0; v < f->nvars; v++) writes |= d.written[v];
  return (g.dear || writes || (opts->fastmath & FM_REASSOC)) && deferrable_body(&d, &n->body);
}

/* Whether a whole function of scalars may run with its checks only noted,
 * as a ufunc's loop runs it first over contiguous elements (lower/function.c):
 * its body is what a deferrable loop body may be, returns included, and
 * it has checks to defer. */
bool an_function_deferrable(Func *f, const CompileOptions *opts) {
  if (opts->boundscheck || opts->kernel || opts->device || opts->gpu_cc) return false;
  Gain g = {false, false};
  ir_walk_list(&f->body, note_gain, &g);
  Defer d = {f, arena_alloc(f->arena, (size_t)(f->nvars ? f->nvars : 1)), NULL, -1, true};
  return g.checked && deferrable_body(&d, &f->body);
}

/* ---------------------------------------------------------------- sums checked by their result */

/* x ** k for a literal k of 0 to 3 (an int or an integral float), whose
 * one check is overflow: products (lower/arith.c pow_literal), or pow for
 * code written for Numba's x ** 3.0, whose check raises where it
 * overflows, run checked or not */
static bool literal_power(const Node *e) {
  double k = e->kind == N_INT ? (double)e->ival : e->kind == N_FLOAT ? e->fval : -1.0;
  return k == 0.0 || k == 1.0 || k == 2.0 || k == 3.0;
}

/* A variable a loop's statement reads, bound there: bound wherever it is
 * read, the loop variable, or assigned by an earlier statement of the
 * body (a straight line) */
static bool bound_in_loop(const Defer *d, int var) {
  return !d->f->plan->maybe_unbound[var] || var == d->loop_var || d->set[var];
}

/* A term of a sum checked by its result: numbers, bound scalar variables
 * and elements, by float + - * and negation; with `powers`, literal powers
 * too. None of them checks anything but a power's overflow, which gives
 * inf where Python raises, and inf through + - * is inf or NaN: a term
 * whose power overflowed is no finite number. */
static bool sum_term(const Defer *d, const Node *n, bool powers) {
  switch (n->kind) {
  case N_INT: case N_FLOAT: return true;
  case N_VAR: return (ty_is_float(n->ty) || ty_is_int(n->ty)) && bound_in_loop(d, n->var);
  case N_INDEX:
    return (ty_is_float(n->ty) || ty_is_int(n->ty)) && n->lhs->kind == N_VAR && n->lhs->ty->kind == TY_ARRAY &&
           bound_in_loop(d, n->lhs->var) && safe_index(d, n->rhs);
  case N_UNARY: return n->op == OP_NEG && ty_is_float(n->ty) && sum_term(d, n->lhs, powers);
  case N_BINOP:
    if (!ty_is_float(n->ty)) return false;
    if (n->op == OP_POW) return powers && literal_power(n->rhs) && sum_term(d, n->lhs, powers);
    return (n->op == OP_ADD || n->op == OP_SUB || n->op == OP_MUL) && sum_term(d, n->lhs, powers) &&
           sum_term(d, n->rhs, powers);
  default: return false;
  }
}

/* The body of a loop checked by its sums: `s += term` and `s -= term` into
 * float variables (sums[s]), and assignments of power-free terms to
 * other scalar variables. */
static bool sums_only(Defer *d, const NodeList *body, bool *sums) {
  for (int i = 0; i < body->len; i++) {
    const Node *n = body->items[i];
    if (n->kind == N_PASS) continue;
    if ((n->kind != N_ASSIGN && n->kind != N_AUGASSIGN) || n->lhs->kind != N_VAR) return false;
    const Type *t = d->f->var_types[n->lhs->var];
    if (n->kind == N_ASSIGN && (!ty_is_float(t) && !ty_is_int(t))) return false;
    if (n->kind == N_AUGASSIGN && (!ty_is_float(t) || (n->op != OP_ADD && n->op != OP_SUB))) return false;
    if (!sum_term(d, n->rhs, n->kind == N_AUGASSIGN) || (n->kind == N_AUGASSIGN && !bound_in_loop(d, n->lhs->var)))
      return false;
    if (n->kind == N_AUGASSIGN) sums[n->lhs->var] = true;
    d->set[n->lhs->var] = true;
  }
  return true;
}

/* Whether the loop may run first with its powers unchecked, and again
 * with their checks only if one of its sums (filled in: per variable) is
 * not finite at its end: its only checks are powers' overflows, each in a
 * term that reaches a sum by + - * alone (then inf or NaN, and a sum once
 * inf or NaN stays so), and its body changes nothing but scalar
 * variables (filled into `assigned`), the sums changed by += and -= only.
 * No flag is noted per element, and a sum of squares unrolls as the
 * unchecked loop does (Numba's has no check). Not with fastmath, whose
 * flags let LLVM take every value for finite. */
bool an_checked_by_sums(Func *f, const CompileOptions *opts, const Node *n, bool *assigned, bool *sums) {
  if (opts->boundscheck || opts->kernel || opts->device || opts->gpu_cc || opts->fastmath) return false;
  Defer d = {f, arena_alloc(f->arena, (size_t)f->nvars), assigned, n->lhs->var, false,
             arena_alloc(f->arena, (size_t)f->nvars)};
  assigned_in(&n->body, assigned);
  if (!sums_only(&d, &n->body, sums)) return false;
  for (int i = 0; i < n->body.len; i++)  /* a sum assigned anew could be finite again */
    if (n->body.items[i]->kind == N_ASSIGN && sums[n->body.items[i]->lhs->var]) return false;
  return true;
}

/* ---------------------------------------------------------------- a rerun of the whole function */

typedef struct { Func *f; bool ok; } Rerun;

/* A store that a rerun repeats harmlessly: into a variable (a number
 * or the name of a value, never an array in place), or into an element
 * of an array the function made. */
static bool rerun_target(Func *f, const Node *t, bool augmented) {
  if (t->kind == N_TUPLE) {
    for (int i = 0; i < t->list.len; i++)
      if (!rerun_target(f, t->list.items[i], augmented)) return false;
    return true;
  }
  if (t->kind == N_VAR) return !augmented || ty_is_scalar(f->var_types[t->var]);
  if (t->kind != N_INDEX || t->lhs->kind != N_VAR || t->lhs->var < f->nparams) return false;
  Fresh c = {t->lhs->var, true};
  ir_walk_list(&f->body, check_fresh, &c);
  return c.fresh;
}

/* Whether a call writes an array it is given: NumPy's out=, by keyword or
 * by position (the positional arguments past the required ones take the
 * row's keywords in order: numpy.dot(a, b, c)). */
static bool writes_out(const Node *call) {
  for (int i = 0; i < call->kw.len; i++)
    if (!strcmp(call->kw_names[i], "out")) return true;
  const Builtin *bi = call->bi;
  int given = call->list.len - (bi->kind == BK_METHOD);
  for (int k = 0; bi->keywords && bi->keywords[k]; k++)
    if (bi->min_args + k < given && !strcmp(bi->keywords[k], "out")) return true;
  return false;
}

static bool rerun_visit(Node *n, void *ctx) {
  Rerun *r = ctx;
  switch (n->kind) {
  case N_CALL:  /* a builtin without effects: a number, a range, an array it made, literally() */
    r->ok &= !n->target && n->bi && (n->bi->flags & (BF_PURE | BF_ALLOCATES | BF_RANGE | BF_LITERAL)) &&
             !(n->bi->flags & BF_STATE) && !writes_out(n);
    break;
  case N_ASSIGN: r->ok &= rerun_target(r->f, n->lhs, false); break;
  case N_AUGASSIGN: r->ok &= rerun_target(r->f, n->lhs, true); break;
  case N_RAISE: r->ok &= n->callee != NULL; break;  /* a bare raise re-raises what an except caught */
  case N_TRY: case N_EXCEPT: case N_YIELD: case N_FUNC: r->ok = false; break;
  default: break;
  }
  return r->ok;
}

/* Whether f, run again from its start after a first run left it at a
 * failed deferred check, does what a single run would: it changes nothing
 * outside itself (its stores go to its variables and to arrays it made,
 * its calls are builtins without effects, no compiled function) and
 * catches nothing. Then its deferred loops may leave it where a check
 * failed (CompileOptions.lazy_rerun), and the checked loops are compiled
 * only if one ever does. */
bool an_reruns_whole(Func *f, const CompileOptions *opts) {
  if (!opts->lazy_rerun || opts->parallel || opts->kernel || opts->device || opts->gpu_cc || opts->ufunc_loop ||
      opts->c_entry || opts->reports_failure || opts->boundscheck)
    return false;
  Rerun r = {f, true};
  ir_walk_list(&f->body, rerun_visit, &r);
  return r.ok;
}
