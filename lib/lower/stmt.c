/* lower/stmt.c — statements: assignments, conditionals, loops (a for
 * loop over range is a counted loop, run first with its errors deferred
 * where the analysis allows), return, raise, assert. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower/lower.h"
#include "ir.h"

/* ---------------------------------------------------------------- statements */

/* Stores an owned value into a target: a variable (releasing what it held),
 * an array element, or a tuple of targets. */
static void lo_store(Lower *l, Node *target, const Type *t, LLVMValueRef v) {
  if (ty_is_jitclass_field(target)) {
    lo_jitclass_store(l, target, t, v);
  } else if (target->kind == N_ATTR) {
    lo_record_store(l, target, t, v);
  } else if (target->kind == N_VAR) {
    const Type *vt = l->f->var_types[target->var];
    LLVMValueRef slot = l->slots[target->var];
    if (ty_has_arrays(vt)) lo_refcount(l, vt, LLVMBuildLoad2(l->b, lo_type(l, vt), slot, ""), false);
    lo_store_whole(l, vt, slot, lo_convert(l, v, t, vt));
    lo_mark_assigned(l, target->var);
  } else if (target->kind == N_INDEX && target->ty->kind == TY_ARRAY && target->lhs->ty->kind == TY_ARRAY) {
    lo_index_store(l, target, t, v);
    if (ty_has_arrays(t)) lo_refcount(l, t, v, false);  /* the stored value was owned */
  } else if (ty_is_flat_store(target)) {
    LLVMValueRef a, addr = lo_flat_addr(l, target, &a);
    lo_store_scalar(l, target->ty, addr, lo_convert(l, v, t, target->ty));
    lo_done_with(l, target->lhs->lhs, a);
  } else if (target->kind == N_INDEX && target->lhs->ty->kind == TY_ARRAY && ty_is_fixed_text(target->lhs->ty->elem)) {
    LLVMValueRef base, addr = lo_index_addr(l, target, &base);  /* '<Un', '|Sn': the str or bytes cut or padded to n */
    lo_text_write(l, target->lhs->ty->elem, addr, v);
    lo_refcount(l, t, v, false);  /* the stored value was owned */
    lo_done_with(l, target->lhs, base);
  } else if (target->kind == N_INDEX && target->lhs->ty->kind == TY_LIST && target->rhs->kind == N_SLICE) {
    lo_list_slice_store(l, target, t, v);
  } else if (target->kind == N_INDEX && t->kind == TY_ARRAY && t->ndim == 0) {
    /* a[i], a[j] = y, z of 0-d arrays (infer's ty_store): each one's element, read as it is stored */
    LLVMValueRef item = lo_load_scalar(l, t->elem, LLVMBuildExtractValue(l->b, v, 2, ""));
    lo_refcount(l, t, v, false);  /* the 0-d array was owned */
    lo_store(l, target, t->elem, item);
  } else if (target->kind == N_INDEX) {
    LLVMValueRef base;
    const Type *bt = target->lhs->ty;
    LLVMValueRef addr = bt->kind == TY_LIST   ? lo_list_index(l, target, &base, true)
                        : bt->kind == TY_DICT ? lo_dict_addr(l, target, &base, true)
                                              : lo_index_addr(l, target, &base);
    /* an item that holds a reference releases the one it replaces (none: a new dict entry's NULL) */
    LLVMValueRef old = ty_has_arrays(target->ty) ? lo_load_scalar(l, target->ty, addr) : NULL;
    if (old && target->ty->kind == TY_STR) v = lo_str_keep(l, v);
    lo_store_scalar(l, target->ty, addr, lo_convert(l, v, t, target->ty));
    if (bt->kind == TY_LIST) lo_list_item_stored(l, target->ty);
    if (old) lo_refcount(l, target->ty, old, false);
    lo_done_with(l, target->lhs, base);
  } else if (t->kind != TY_TUPLE) {  /* a nested target of an array or typed list (infer's ty_store) */
    const Type *tuple = ty_unpacked_tuple(t, target->list.len);
    LLVMValueRef items = lo_unpacked(l, t, v, tuple);
    lo_refcount(l, t, v, false);  /* the sequence was owned, its items now the tuple's */
    lo_store(l, target, tuple, items);
  } else {
    for (int i = 0; i < target->list.len; i++)
      lo_store(l, target->list.items[i], t->fields[i], LLVMBuildExtractValue(l->b, v, (unsigned)i, ""));
  }
}

/* a op= b. For an element a[i] the address is computed once. n->ty is the
 * type of the operation's result, converted to the target's type on store. */
static void lo_augassign(Lower *l, Node *n) {
  Node *target = n->lhs;
  if (target->ty->kind == TY_ARRAY) {
    if (ix_is_advanced(target)) lo_index_update(l, n);
    else lo_array_update(l, n);
    return;
  }
  if (ty_is_jitclass_field(target)) {
    lo_jitclass_update(l, n);
    return;
  }
  if (target->kind == N_ATTR) {
    lo_record_update(l, n);
    return;
  }
  if (target->ty->kind == TY_SET) {  /* in place, as Python's: every name for the set sees it */
    lo_set_update(l, n);
    return;
  }
  if (target->kind == N_VAR) {
    LLVMValueRef cur = lo_expr(l, target), rhs = lo_expr(l, n->rhs);
    LLVMValueRef r = lo_binop_values(l, n->op, n->ty, cur, target->ty, rhs, n->rhs->ty);
    if (n->ty->kind == TY_STR || n->ty->kind == TY_BYTES) lo_done_with(l, n->rhs, rhs);  /* s += t: a new string, t no longer needed */
    lo_store(l, target, n->ty, r);
    return;
  }
  if (target->kind == N_INDEX && target->lhs->ty->kind == TY_ARRAY && ty_is_fixed_text(target->lhs->ty->elem)) {
    const Type *elem = target->lhs->ty->elem;  /* a[i] += s of a '<Un' array: read, made anew, stored cut to n */
    LLVMValueRef base, addr = lo_index_addr(l, target, &base);
    LLVMValueRef cur = lo_text_read(l, elem, addr), rhs = lo_expr(l, n->rhs);
    LLVMValueRef r = lo_binop_values(l, n->op, n->ty, cur, target->ty, rhs, n->rhs->ty);
    lo_text_write(l, elem, addr, r);
    lo_refcount(l, target->ty, cur, false);
    lo_refcount(l, n->ty, r, false);
    lo_done_with(l, n->rhs, rhs);
    lo_done_with(l, target->lhs, base);
    return;
  }
  bool flat = ty_is_flat_store(target);  /* a.flat[i] op= v: a's own element, its index read once */
  LLVMValueRef base;
  LLVMValueRef addr = flat ? lo_flat_addr(l, target, &base) : lo_index_addr(l, target, &base);
  LLVMValueRef cur = lo_load_scalar(l, target->ty, addr);
  LLVMValueRef rhs = lo_expr(l, n->rhs);
  LLVMValueRef r = lo_binop_values(l, n->op, n->ty, cur, target->ty, rhs, n->rhs->ty);
  lo_store_scalar(l, target->ty, addr, lo_convert(l, r, n->ty, target->ty));
  if (n->ty->kind == TY_STR || n->ty->kind == TY_BYTES) {  /* x[i] += s: the item's old string and s released */
    lo_refcount(l, target->ty, cur, false);
    lo_done_with(l, n->rhs, rhs);
  }
  lo_done_with(l, flat ? target->lhs->lhs : target->lhs, base);
}

/* if c: s += t in a loop planned for it (analysis/function.c, sums_guarded_terms):
 * the term, or -0.0 where c is false, is added after the if. t is
 * evaluated before s is read, which nothing in t can assign. */
static void lo_guarded_sum(Lower *l, Node *n) {
  Node *a = n->body.items[0];
  LLVMBasicBlockRef then = new_block(l, "then"), done = new_block(l, "endif");
  LLVMBuildCondBr(l->b, lo_truth(l, lo_expr(l, n->cond), n->cond->ty), then, done);
  LLVMBasicBlockRef skipped = LLVMGetInsertBlock(l->b);
  position(l, then);
  LLVMValueRef t = lo_expr_as(l, a->rhs, a->ty);
  LLVMBasicBlockRef added = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef term = LLVMBuildPhi(l->b, lo_type(l, a->ty), "term");
  LLVMAddIncoming(term, (LLVMValueRef[]){t, LLVMConstReal(lo_type(l, a->ty), -0.0)},
                  (LLVMBasicBlockRef[]){added, skipped}, 2);
  LLVMValueRef r = lo_binop_values(l, OP_ADD, a->ty, lo_expr(l, a->lhs), a->lhs->ty, term, a->ty);
  lo_store(l, a->lhs, a->ty, r);
}

/* Whether n is lowered by lo_guarded_sum: its sum's variable is bound
 * (an unbound one is read only where c holds) and of the sum's type. */
static bool guarded_sum(Lower *l, Node *n) {
  if (!l->loop || !l->loop->plan || !l->loop->plan->guarded_sums || !an_guarded_sum(n)) return false;
  int v = n->body.items[0]->lhs->var;
  return !(l->assigned && l->assigned[v]) && l->f->var_types[v] == n->body.items[0]->ty;
}

static void lo_if(Lower *l, Node *n) {
  if (guarded_sum(l, n)) {
    lo_guarded_sum(l, n);
    return;
  }
  LLVMBasicBlockRef then = new_block(l, "then"), other = new_block(l, "else"),
                    done = new_block(l, "endif");
  LLVMBuildCondBr(l->b, lo_truth(l, lo_expr(l, n->cond), n->cond->ty), then, other);
  position(l, then);
  lo_block(l, &n->body);
  if (!terminated(l)) LLVMBuildBr(l->b, done);
  position(l, other);
  lo_block(l, &n->orelse);
  if (!terminated(l)) LLVMBuildBr(l->b, done);
  position(l, done);
}

static void lo_loop_body(Lower *l, Node *n, LLVMBasicBlockRef brk, LLVMBasicBlockRef cont) {
  Loop loop = {brk, cont, n->kind == N_FOR ? n->plan : NULL}, *outer = l->loop;
  l->loop = &loop;
  lo_block(l, &n->body);
  if (!terminated(l)) LLVMBuildBr(l->b, cont);
  l->loop = outer;
}

/* The number of values of range(start, stop, step), computed in unsigned
 * arithmetic so that ranges spanning the whole int64 line are exact: read
 * as unsigned, up to 2**64 - 1. */
LLVMValueRef lo_range_count(Lower *l, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef step) {
  LLVMValueRef zero = const_i64(l, 0), one = const_i64(l, 1);
  LLVMValueRef up = LLVMBuildICmp(l->b, LLVMIntSGT, step, zero, "");
  LLVMValueRef lo = LLVMBuildSelect(l->b, up, start, stop, ""), hi = LLVMBuildSelect(l->b, up, stop, start, "");
  LLVMValueRef mag = LLVMBuildSelect(l->b, up, step, LLVMBuildNeg(l->b, step, ""), "");
  LLVMValueRef span = LLVMBuildSub(l->b, LLVMBuildSub(l->b, hi, lo, ""), one, "");
  LLVMValueRef n = LLVMBuildAdd(l->b, LLVMBuildUDiv(l->b, span, mag, ""), one, "");
  return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, lo, hi, ""), n, zero, "");
}

/* No loop runs 2**62 times (that would take a century): saying so lets
 * LLVM prove the counter and small offsets of it non-negative, so index
 * wrap-around checks fold away and stencils vectorise. Only a loop that
 * can be left early (a break, a return or a raise in it: leaves_early) may
 * run over a longer range: it counts at most 2**62 iterations, exact until
 * then, and raises if it would run on past them (lo_range_end), as do
 * prange's loops and a kernel's loops around barriers. Another keeps the
 * plain count: a check before it (tried) made LLVM drop the assumption and
 * a sieve 25% slower. */
#define RANGE_MAX_TRIPS ((int64_t)1 << 62)

static void assume_small(Lower *l, LLVMValueRef trips) {
  LLVMValueRef small = LLVMBuildICmp(l->b, LLVMIntULE, trips, const_i64(l, RANGE_MAX_TRIPS), "");
  lo_intrinsic(l, "llvm.assume", NULL, 0, &small, 1);
}

LLVMValueRef lo_range_trips(Lower *l, LLVMValueRef count) {
  LLVMValueRef cap = const_i64(l, RANGE_MAX_TRIPS);
  LLVMValueRef n = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntULE, count, cap, ""), count, cap, "trips");
  assume_small(l, n);
  return n;
}

void lo_range_end(Lower *l, LLVMValueRef count) {
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntUGT, count, const_i64(l, RANGE_MAX_TRIPS), ""), RT_ERR_OVERFLOW,
              "a loop over a range of more than 2**62 values cannot run to its end");
}

static LLVMValueRef lo_range_fits(Lower *l, LLVMValueRef count) {
  assume_small(l, count);
  return count;
}

/* Whether a loop's body may leave it: a break of its own (not of a loop
 * inside it), a return, a raise or an assert. */
typedef struct Exits {
  bool nested;  /* inside a loop of the body: its breaks are that loop's */
  bool found;
} Exits;

static bool find_exit(Node *n, void *ctx) {
  Exits *e = ctx;
  if (n->kind == N_RETURN || n->kind == N_RAISE || n->kind == N_ASSERT || (n->kind == N_BREAK && !e->nested))
    e->found = true;
  if (n->kind != N_FOR && n->kind != N_WHILE) return !e->found;
  Exits inner = {true, false};
  ir_walk_list(&n->body, find_exit, &inner);
  ir_walk_list(&n->orelse, find_exit, e);  /* an else clause's break is the enclosing loop's */
  e->found |= inner.found;
  return false;
}

static bool leaves_early(Node *loop) {
  Exits e = {false, false};
  ir_walk_list(&loop->body, find_exit, &e);
  return e.found;
}

/* A range() argument as an int64. Floats are truncated as Numba takes
 * them, but saturating, so that nan or inf gives an empty or bounded loop
 * rather than one of 2**63 steps from INT64_MIN. */
static LLVMValueRef range_bound(Lower *l, Node *x) {
  if (!ty_is_float(x->ty)) return lo_expr_as(l, x, TYS(TY_I64));
  LLVMValueRef v = lo_expr(l, x);
  LLVMTypeRef ov[2] = {l->mod->i64, LLVMTypeOf(v)};
  return lo_intrinsic(l, "llvm.fptosi.sat", ov, 2, &v, 1);
}

/* range(...)'s start, stop and step: a call's arguments (a zero step
 * raises ValueError, as Python's), or the parts of a range value (a
 * variable holding one: {start, stop, step}). */
void lo_range_parts(Lower *l, Node *r, LLVMValueRef *start, LLVMValueRef *stop, LLVMValueRef *step) {
  if (!(r->kind == N_CALL && r->bi && (r->bi->flags & BF_RANGE))) {
    LLVMValueRef v = lo_expr(l, r);
    *start = LLVMBuildExtractValue(l->b, v, 0, "range.start");
    *stop = LLVMBuildExtractValue(l->b, v, 1, "range.stop");
    *step = LLVMBuildExtractValue(l->b, v, 2, "range.step");
    return;
  }
  *start = const_i64(l, 0);
  *step = const_i64(l, 1);
  if (r->list.len == 1) {
    *stop = range_bound(l, r->list.items[0]);
  } else {
    *start = range_bound(l, r->list.items[0]);
    *stop = range_bound(l, r->list.items[1]);
  }
  if (r->list.len == 3) {
    *step = range_bound(l, r->list.items[2]);
    if (!LLVMIsAConstantInt(*step) || LLVMConstIntGetSExtValue(*step) == 0)
      lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, *step, const_i64(l, 0), ""), RT_ERR_VALUE,
               "range() arg 3 must not be zero");
  }
}

/* Evaluates a range's start and step and its number of values (exact,
 * unsigned). A for
 * loop over it counts k = 0..n-1 with v = start + k*step: the counter is
 * separate from v, so that v keeps its last value after the loop, and a
 * body that assigns v does not change the iteration, as in Python. */
LLVMValueRef lo_range(Lower *l, Node *r, LLVMValueRef *start, LLVMValueRef *step) {
  LLVMValueRef stop;
  lo_range_parts(l, r, start, &stop, step);
  return lo_range_count(l, *start, stop, *step);
}

/* range(...) as a value: {start, stop, step} */
LLVMValueRef lo_range_struct(Lower *l, Node *r) {
  LLVMValueRef parts[3];
  lo_range_parts(l, r, &parts[0], &parts[1], &parts[2]);
  LLVMValueRef v = LLVMGetUndef(lo_type(l, TYS(TY_RANGE)));
  for (unsigned i = 0; i < 3; i++) v = LLVMBuildInsertValue(l->b, v, parts[i], i, "");
  return v;
}

/* r[i] of a range value: start + i * step, a negative i counting from the
 * end, IndexError outside it (Python's message); a for loop's walk (the
 * node's str set) indexes within it, unchecked. */
LLVMValueRef lo_range_index(Lower *l, Node *n) {
  LLVMValueRef start, step, count = lo_range(l, n->lhs, &start, &step);
  LLVMValueRef i = lo_expr_as(l, n->rhs, TYS(TY_I64));
  if (!n->str) {
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), "");
    i = LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, i, count, ""), i, "");
    LLVMValueRef out = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), ""),
                                   LLVMBuildICmp(l->b, LLVMIntSGE, i, count, ""), "");
    lo_raise_if(l, out, RT_ERR_INDEX, "range object index out of range");
  }
  return LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, i, step, ""), "");
}

/* A range loop's int64 value into its variable, which typing may have
 * made wider (`i = 0.5` before `for i in range(n)`: a float64, as Numba). */
LLVMValueRef lo_loop_value(Lower *l, int var, LLVMValueRef v) { return lo_convert(l, v, TYS(TY_I64), l->f->var_types[var]); }

void lo_store_loop_var(Lower *l, int var, LLVMValueRef v) { LLVMBuildStore(l->b, lo_loop_value(l, var, v), l->slots[var]); }

static bool find_loop(Node *n, void *ctx) {
  if (n->kind == N_FOR || n->kind == N_WHILE || n->kind == N_YIELD) *(bool *)ctx = true;
  return !*(bool *)ctx;
}

/* Whether loop holds loops or a yield: it polls on each iteration, in
 * one copy. A generator's loop that yields returns to its consumer from
 * the middle of an iteration: blocks of iterations would keep their
 * bookkeeping in the generator's state, and a copy for short ranges
 * would make each of its yields two places to resume at. */
static bool holds_loops(Node *loop) {
  bool found = false;
  ir_walk_list(&loop->body, find_loop, &found);
  return found;
}

/* How often a long innermost loop polls for Ctrl-C: after a block of
 * POLL_BLOCK iterations (under a millisecond of the cheapest work; the
 * block's loop prologue and epilogue cost nothing measurable at this
 * length), then of twice as many for as long as a block takes fewer than
 * POLL_CYCLES cycles of the CPU's counter (about a millisecond): a loop
 * LLVM folds into closed form (a count) thus still ends at once however
 * long its range, and one that works polls every millisecond or so. */
#define POLL_BLOCK ((int64_t)1 << 16)
#define POLL_CYCLES ((int64_t)1 << 21)
#define POLL_BLOCK_MAX ((int64_t)1 << 61)

/* The iterations of a while loop: on to `other` when its condition fails,
 * to `done` on break; each polling for Ctrl-C first if `poll`. */
static void lo_while_iterations(Lower *l, Node *n, bool poll, LLVMBasicBlockRef other, LLVMBasicBlockRef done) {
  LLVMBasicBlockRef head = new_block(l, "while"), body = new_block(l, "while.body");
  LLVMBuildBr(l->b, head);
  position(l, head);
  if (poll) lo_poll_interrupt(l);
  LLVMBuildCondBr(l->b, lo_truth(l, lo_expr(l, n->cond), n->cond->ty), body, other);
  position(l, body);
  lo_loop_body(l, n, done, head);
}

/* A counted while loop's counter or bound (an int literal or an int64
 * variable) at its entry. A variable may be unbound there (Python raises
 * when the condition reads it): whatever its slot holds then, frozen,
 * picks a copy of the loop, and either copy raises as Python does. */
static LLVMValueRef count_value(Lower *l, const Node *n) {
  if (n->kind == N_INT) return const_i64(l, n->ival);
  return LLVMBuildFreeze(l->b, LLVMBuildLoad2(l->b, l->mod->i64, l->slots[n->var], ""), "");
}

/* Whether a counted while loop (its plan's count_from, count_to) runs at
 * most POLL_BLOCK times from here: to - from, as unsigned, is exact
 * where from < to. */
static LLVMValueRef while_fits_block(Lower *l, const LoopPlan *p) {
  LLVMValueRef from = count_value(l, p->count_from), to = count_value(l, p->count_to);
  LLVMValueRef none = LLVMBuildICmp(l->b, LLVMIntSLE, to, from, "");
  LLVMValueRef left = LLVMBuildSub(l->b, to, from, "");
  LLVMValueRef few = LLVMBuildICmp(l->b, LLVMIntULT, left, const_i64(l, POLL_BLOCK + !p->count_inclusive), "");
  return LLVMBuildOr(l->b, none, few, "");
}

/* A while loop may run for ever: it polls for Ctrl-C on each iteration.
 * One over a compiled generator's values (a for loop's) runs as long as
 * the generator's loops, which poll. A counted one (its plan) has a copy
 * without the poll for entries that leave it at most POLL_BLOCK
 * iterations, as a range's block: a Mandelbrot pixel's loop (at most
 * max_iter iterations) then has the one test and branch per iteration
 * its condition needs, and the loop around it polls. */
static void lo_while(Lower *l, Node *n) {
  LLVMBasicBlockRef other = new_block(l, "while.else"), done = new_block(l, "while.end");
  bool poll = !ir_calls_builtin(n->cond, "generator resumed");
  if (poll && n->plan && !l->mod->gpu && !l->opts->kernel) {
    LLVMBasicBlockRef short_bb = new_block(l, "while.short"), long_bb = new_block(l, "while.long");
    LLVMBuildCondBr(l->b, while_fits_block(l, n->plan), short_bb, long_bb);
    position(l, short_bb);
    lo_while_iterations(l, n, false, other, done);
    position(l, long_bb);
  }
  lo_while_iterations(l, n, poll, other, done);
  position(l, other);
  lo_block(l, &n->orelse);
  if (!terminated(l)) LLVMBuildBr(l->b, done);
  position(l, done);
}

/* A block's loop (counted_loop_plain) runs up to POLL_BLOCK times each
 * time its block starts: told to LLVM (branch weights on the test at
 * its head), the registers go to its own values, the block's
 * bookkeeping (where it starts, its size, the clock) kept in memory
 * around it. By the default guess of a loop running some 32 times, the
 * loop calling a 10-element dot product reloaded three of its values
 * on every call, while the block's values and constants held
 * registers. */
static void runs_long(Lower *l, LLVMBasicBlockRef head) {
  LLVMMetadataRef w[3] = {LLVMMDStringInContext2(l->mod->c, "branch_weights", 14),
                          LLVMValueAsMetadata(const_i32(l, (int)POLL_BLOCK)),
                          LLVMValueAsMetadata(const_i32(l, 1))};
  LLVMSetMetadata(LLVMGetBasicBlockTerminator(head), LLVMGetMDKindIDInContext(l->mod->c, "prof", 4),
                  LLVMMetadataAsValue(l->mod->c, LLVMMDNodeInContext2(l->mod->c, w, 3)));
}

/* start + k * step for an iteration number k below the range's count.
 * With a step of 1 or -1 that value lies between start and stop, so the
 * sum cannot wrap: saying so (nsw) lets LLVM see that range(1, n)'s values
 * are positive (x[i] needs no wrap-around) and that an ema's out[i - 1] is
 * the out[i] just stored, kept in a register (half the instructions). A
 * larger step may wrap in k * step even where the sum does not. */
static LLVMValueRef range_value(Lower *l, LLVMValueRef start, LLVMValueRef k, LLVMValueRef step) {
  long long s = LLVMIsAConstantInt(step) ? LLVMConstIntGetSExtValue(step) : 0;
  if (s == 1) return LLVMBuildNSWAdd(l->b, start, k, "");
  if (s == -1) return LLVMBuildNSWSub(l->b, start, k, "");
  return LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, k, step, ""), "");
}

/* Whether a range's values are never negative: a constant start of 0 or
 * more and a constant step above 0 (`range(n)`, `range(1, n, 2)`). The
 * loop of blocks (counted_loop_plain) hides that from LLVM where the loop
 * holds others after inlining (a heap's sift loops): its indexing kept the
 * wrap-around of negative indices, four instructions an element. */
static bool counts_up_from_nonnegative(LLVMValueRef start, LLVMValueRef step) {
  return LLVMIsAConstantInt(start) && LLVMIsAConstantInt(step) && LLVMConstIntGetSExtValue(start) >= 0 &&
         LLVMConstIntGetSExtValue(step) > 0;
}

/* A loop streaming over whole arrays (LoopPlan.stream_bits, never a
 * kernel's or GPU code's): the lanes of the vectors jit.c finds data from
 * beyond the first-level cache streams fastest in, or 0 where the host's
 * own choice stands. */
static int stream_lanes(const Node *n) {
  int bits = n->plan->stream_bits ? jit_stream_vector_bits() : 0;
  return bits > n->plan->stream_bits ? bits / n->plan->stream_bits : 0;
}

/* The bytes of each array a streaming loop of fewer iterations moves,
 * which then most often stay in the first-level cache, where the widest
 * vectors load fastest: arr_sum over 1,000 float64 took 255 ns in 256-bit
 * vectors, 227 ns in 512-bit ones; over 10,000 the 256-bit loop was ahead. */
#define STREAM_SHORT_BYTES ((int64_t)32 << 10)

/* for var in range: the iterations k0 <= k < k1, var = start + k * step;
 * on to `exhausted` when they are done, to `brk` on break. A step that is
 * not a constant touches memory at a stride LLVM cannot see: its vector
 * loop would compute each lane's address and store the lanes one by one,
 * slower than the plain loop (a sieve's inner loop ran 25% slower). A
 * rerun (see lo_range_loop) runs only to raise: it is left plain, to
 * compile fast. A scalar sum (the plan's scalar) unrolls as other loops
 * do unless it is nested in another loop, where its trip count is most
 * often a few coordinates: a callee's, called from a loop, took a third
 * fewer instructions on 10 elements, counter updates and branches gone,
 * and a function's own (a Huber distance) a fifth fewer per element.
 * One whose checks are exits (not noted on a deferred first run) is
 * unrolled only by a trip count known when compiling: a squared
 * distance's, with the overflow check of (x-y)**2, took 6% longer
 * unrolled by 4, its adds in order bounding it either way. A first run
 * checked by its sums has no check: unrolled as others (8 wide, as
 * Numba's, 0.93x the checked loop's time). */
static void lo_counted_iterations(Lower *l, Node *n, LLVMValueRef start, LLVMValueRef step, LLVMValueRef base,
                                  LLVMValueRef k0, LLVMValueRef k1, LLVMBasicBlockRef exhausted,
                                  LLVMBasicBlockRef brk, bool rerun, bool poll, int lanes) {
  LoLoop loop = lo_loop_begin(l, k0, k1, exhausted, "for");
  if (base) runs_long(l, loop.head);
  if (poll) lo_poll_interrupt(l);
  LLVMValueRef k = base ? LLVMBuildNSWAdd(l->b, base, loop.index, "") : loop.index;
  LLVMValueRef v = range_value(l, start, k, step);
  if (l->range_up || (base && counts_up_from_nonnegative(start, step))) {
    LLVMValueRef nonneg = LLVMBuildICmp(l->b, LLVMIntSGE, v, const_i64(l, 0), "");
    lo_intrinsic(l, "llvm.assume", NULL, 0, &nonneg, 1);
  }
  lo_store_loop_var(l, n->lhs->var, v);
  lo_mark_assigned(l, n->lhs->var);
  lo_loop_body(l, n, brk, loop.latch);
  LLVMValueRef back = lo_loop_end(l, &loop);
  LoUnroll unroll = LO_UNROLL;
  if (rerun || (n->plan->scalar && l->loop)) unroll = LO_UNROLL_NEVER;
  else if (n->plan->scalar && n->plan->checked && !l->deferred && !l->powers_unchecked) unroll = LO_UNROLL_FULLY_ONLY;
  if (rerun || !LLVMIsAConstant(step) || n->plan->scalar) lo_loop_hints(l, back, unroll);
  else if (lanes) lo_loop_vector_width(l, back, lanes);
}

/* Before a block that more blocks follow (`more`): a poll for Ctrl-C, and
 * the cycle counter, to size the next block; 0 otherwise. A loop of one
 * block, a short loop called a million times from another (a 10-element
 * dot product), neither polls nor reads the clock: a read costs tens of
 * nanoseconds, more in a virtual machine, and its caller's loop polls. */
static LLVMValueRef block_start(Lower *l, LLVMValueRef more) {
  LLVMBasicBlockRef here = LLVMGetInsertBlock(l->b), read = new_block(l, "for.block.poll"),
                    run = new_block(l, "for.block.run");
  LLVMBuildCondBr(l->b, more, read, run);
  position(l, read);
  lo_poll_interrupt(l);  /* the chunks of a parallel loop not begun stop at once */
  LLVMValueRef t = lo_intrinsic(l, "llvm.readcyclecounter", NULL, 0, NULL, 0);
  LLVMBasicBlockRef read_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, run);
  position(l, run);
  LLVMValueRef t0 = LLVMBuildPhi(l->b, l->mod->i64, "block.clock");
  LLVMAddIncoming(t0, (LLVMValueRef[]){t, const_i64(l, 0)}, (LLVMBasicBlockRef[]){read_end, here}, 2);
  return t0;
}

/* Ctrl-C reaches every loop that can run long: one holding loops polls on
 * each iteration; an innermost one outside any loop runs its iterations in
 * blocks of POLL_BLOCK, polling before each block that another follows,
 * so that its own code (vector loops) is unchanged and a loop of one
 * block costs a comparison and two branches more than a plain one; one
 * inside a loop is bounded and left alone, as is one of a CPU kernel's
 * threads (the launch polls between blocks). A callee's loop (a
 * 10-element dot product called from a loop a million times) has a
 * second, plain copy for trip counts of one block: the block's
 * bookkeeping and the registers it holds cost that call a sixth more
 * instructions. Entry bodies keep one copy, compiled once. */
static void counted_loop_plain(Lower *l, Node *n, LLVMValueRef start, LLVMValueRef step, LLVMValueRef k0,
                               LLVMValueRef k1, LLVMBasicBlockRef exhausted, LLVMBasicBlockRef brk, bool rerun) {
  bool outer = holds_loops(n);
  if (l->mod->gpu || l->loop || l->opts->kernel || outer) {
    lo_counted_iterations(l, n, start, step, NULL, k0, k1, exhausted, brk, rerun, outer, 0);
    return;
  }
  LLVMTypeRef i64 = l->mod->i64;
  int lanes = rerun ? 0 : stream_lanes(n);
  /* a callee's loop is most often short, run once per call of a loop
   * around; a streaming loop's short runs keep the host's widest vectors */
  int64_t short_trips = lanes ? STREAM_SHORT_BYTES / (n->plan->stream_bits / 8) : POLL_BLOCK;
  if ((l->callee || lanes) && !rerun) {
    LLVMBasicBlockRef short_bb = new_block(l, "for.short"), long_bb = new_block(l, "for.long");
    LLVMValueRef fits = LLVMBuildICmp(l->b, LLVMIntSLE, LLVMBuildSub(l->b, k1, k0, ""), const_i64(l, short_trips), "");
    LLVMBuildCondBr(l->b, fits, short_bb, long_bb);
    position(l, short_bb);
    lo_counted_iterations(l, n, start, step, NULL, k0, k1, exhausted, brk, rerun, false, 0);
    position(l, long_bb);
  }
  LLVMValueRef at = lo_alloca(l, i64, "block.from"), size = lo_alloca(l, i64, "block.size");
  LLVMBuildStore(l->b, k0, at);
  LLVMBuildStore(l->b, const_i64(l, POLL_BLOCK), size);
  LLVMBasicBlockRef head = new_block(l, "for.block"), next = new_block(l, "for.block.next");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef from = LLVMBuildLoad2(l->b, i64, at, "");
  /* iteration numbers are never negative: indices made from them need no
   * wrap-around, and the block's vector loop its bounds */
  LLVMValueRef nonneg = LLVMBuildICmp(l->b, LLVMIntSGE, from, const_i64(l, 0), "");
  lo_intrinsic(l, "llvm.assume", NULL, 0, &nonneg, 1);
  /* an empty range leaves m <= 0: no iteration, no more blocks */
  LLVMValueRef sz = LLVMBuildLoad2(l->b, i64, size, ""), left = LLVMBuildNSWSub(l->b, k1, from, "");
  LLVMValueRef more = LLVMBuildICmp(l->b, LLVMIntSGT, left, sz, "");
  LLVMValueRef m = LLVMBuildSelect(l->b, more, sz, left, "");
  LLVMValueRef t0 = block_start(l, more);
  /* the block's iterations counted from 0: a trip count LLVM finds cheap enough to unroll by */
  lo_counted_iterations(l, n, start, step, from, const_i64(l, 0), m, next, brk, rerun, false, lanes);
  position(l, next);
  LLVMBasicBlockRef grow = new_block(l, "for.block.grow");
  LLVMBuildCondBr(l->b, more, grow, exhausted);
  position(l, grow);
  LLVMValueRef took = LLVMBuildSub(l->b, lo_intrinsic(l, "llvm.readcyclecounter", NULL, 0, NULL, 0), t0, "");
  /* a counter that reads 0 (a CPU without one) never grows the blocks */
  LLVMValueRef quick = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntUGT, took, const_i64(l, 0), ""),
                                    LLVMBuildICmp(l->b, LLVMIntULT, took, const_i64(l, POLL_CYCLES), ""), "");
  quick = LLVMBuildAnd(l->b, quick, LLVMBuildICmp(l->b, LLVMIntSLT, sz, const_i64(l, POLL_BLOCK_MAX), ""), "");
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, quick, LLVMBuildShl(l->b, sz, const_i64(l, 1), ""), sz, ""), size);
  LLVMBuildStore(l->b, LLVMBuildNSWAdd(l->b, from, m, ""), at);
  LLVMBuildBr(l->b, head);
  position(l, exhausted);
}

typedef struct { int var; bool found; } Indexing;

static bool see_indexing(Node *n, void *ctx) {
  Indexing *c = ctx;
  if (n->kind == N_INDEX && n->lhs->ty->kind == TY_ARRAY) {
    const Node *i = n->rhs;
    if (i->kind == N_VAR) c->found |= i->var == c->var;
    for (int j = 0; i->kind == N_TUPLE && j < i->list.len; j++)
      c->found |= i->list.items[j]->kind == N_VAR && i->list.items[j]->var == c->var;
  }
  return !c->found;
}

/* Whether a loop has a version for ranges that start at 0 or more and
 * count up: an innermost loop whose step is known only at run time and
 * whose variable indexes arrays (a sieve's range(i * i, n + 1, i)). Its
 * values are then not negative, and its indexing needs no wrap-around
 * (three instructions of five per element in a sieve). Such a loop is
 * never vectorised (lo_counted_iterations), so knowing it cannot turn its
 * stores into scatters, as it would for a literal step. A loop with
 * versions for its exponent (lo_counted_loop) has no more of them, nor a
 * kernel's, whose barriers are each lowered once. */
static bool versions_by_sign(Lower *l, Node *n, LLVMValueRef step, bool rerun) {
  if (rerun || l->range_up || l->pow_value || n->plan->pow_exponent || l->mod->gpu || l->opts->kernel ||
      l->opts->device || LLVMIsAConstant(step) || holds_loops(n))
    return false;
  Indexing c = {n->lhs->var, false};
  ir_walk_list(&n->body, see_indexing, &c);
  return c.found;
}

static void counted_loop(Lower *l, Node *n, LLVMValueRef start, LLVMValueRef step, LLVMValueRef k0,
                         LLVMValueRef k1, LLVMBasicBlockRef exhausted, LLVMBasicBlockRef brk, bool rerun) {
  if (!versions_by_sign(l, n, step, rerun)) {
    counted_loop_plain(l, n, start, step, k0, k1, exhausted, brk, rerun);
    return;
  }
  LLVMBasicBlockRef up = new_block(l, "for.up"), other = new_block(l, "for.any");
  LLVMValueRef is_up = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntSGE, start, const_i64(l, 0), ""),
                                    LLVMBuildICmp(l->b, LLVMIntSGT, step, const_i64(l, 0), ""), "");
  LLVMBuildCondBr(l->b, is_up, up, other);
  position(l, up);
  l->range_up = true;
  counted_loop_plain(l, n, start, step, k0, k1, exhausted, brk, rerun);
  l->range_up = false;
  position(l, other);
  counted_loop_plain(l, n, start, step, k0, k1, exhausted, brk, rerun);
}

/* A loop whose float ** int raises to a fixed parameter (its plan's
 * pow_exponent) has a version for each exponent of 1 to 3, in which the
 * power is that of a literal exponent (lower/arith.c), and one for the
 * others; a deferred loop's rerun, which only raises, has the last alone. */
static void lo_counted_loop(Lower *l, Node *n, LLVMValueRef start, LLVMValueRef step, LLVMValueRef k0,
                            LLVMValueRef k1, LLVMBasicBlockRef exhausted, LLVMBasicBlockRef brk, bool rerun) {
  Node *e = n->plan->pow_exponent;
  if (!e || rerun || l->pow_value || l->mod->gpu) {
    counted_loop(l, n, start, step, k0, k1, exhausted, brk, rerun);
    return;
  }
  LLVMBasicBlockRef general = new_block(l, "for.pow.n");
  LLVMValueRef sw = LLVMBuildSwitch(l->b, lo_expr_as(l, e, TYS(TY_I64)), general, 3);
  for (int k = 1; k <= 3; k++) {
    LLVMBasicBlockRef version = new_block(l, "for.pow.k");
    LLVMAddCase(sw, const_i64(l, k), version);
    position(l, version);
    l->pow_var = e->var;
    l->pow_value = k;
    counted_loop(l, n, start, step, k0, k1, exhausted, brk, false);
    l->pow_value = 0;
  }
  position(l, general);
  counted_loop(l, n, start, step, k0, k1, exhausted, brk, false);
}

/* Whether a deferred loop whose check failed leaves the function
 * (RT_ERR_RERUN) instead of running again with its checks: in the
 * compile's entry function, where a rerun of the whole function changes
 * nothing (FuncPlan.reruns, never for GPU code). The checked loop, as dear
 * to compile as the fast one, is then compiled only for a call that needs
 * it. */
static bool leaves_to_rerun(const Lower *l) { return l->f->plan->reruns && !l->callee && !l->outlined; }

/* Whether the first run of a loop checked by its sums (LoopPlan.sums)
 * missed an overflow: a sum is not finite (inf or NaN) */
static LLVMValueRef sum_not_finite(Lower *l, const bool *sums) {
  LLVMValueRef any = const_bool(l, false);
  for (int v = 0; v < l->f->nvars; v++) {
    if (!sums[v]) continue;
    const Type *t = l->f->var_types[v];
    LLVMValueRef s = LLVMBuildLoad2(l->b, lo_type(l, t), l->slots[v], "");
    LLVMValueRef mag = lo_intrinsic1(l, "llvm.fabs", t, s);
    any = LLVMBuildOr(l->b, any, LLVMBuildFCmp(l->b, LLVMRealUGE, mag, lo_fconst(l, t, INFINITY), ""), "");
  }
  return any;
}

/* lo_counted_loop, first with errors deferred where the analysis allows
 * it (analysis/defer.c): the loop runs with its checks only noted, and
 * again from its start with them if one failed, or the function leaves
 * for its checked version (leaves_to_rerun). A loop checked by its sums
 * runs first with its powers unchecked, and so again if a sum is not
 * finite. A loop inside a first run is not deferred again. */
void lo_range_loop(Lower *l, Node *n, LLVMValueRef start, LLVMValueRef step, LLVMValueRef k0,
                   LLVMValueRef k1, LLVMBasicBlockRef exhausted, LLVMBasicBlockRef brk) {
  const bool *sums = n->plan->sums;
  if (l->deferred || l->powers_unchecked || !(n->plan->deferrable || sums)) {
    lo_counted_loop(l, n, start, step, k0, k1, exhausted, brk, false);
    return;
  }
  bool leaves = leaves_to_rerun(l);
  int nv = l->f->nvars;
  LLVMValueRef *saved = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)nv);
  /* the values, and whether each is bound (UnboundLocalError), as before the loop */
  LLVMValueRef *bound = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)nv);
  for (int v = 0; v < nv && !leaves; v++) {
    if (!n->plan->assigned[v] && v != n->lhs->var) continue;
    saved[v] = LLVMBuildLoad2(l->b, lo_type(l, l->f->var_types[v]), l->slots[v], "");
    if (l->assigned && l->assigned[v]) bound[v] = LLVMBuildLoad2(l->b, l->mod->i1, l->assigned[v], "");
  }
  if (sums) {
    l->powers_unchecked = true;
  } else {
    l->deferred = lo_alloca(l, l->mod->i1, "deferred");
    LLVMBuildStore(l->b, const_bool(l, false), l->deferred);
  }
  LLVMBasicBlockRef checked = new_block(l, "for.checked"), again = new_block(l, leaves ? "for.rerun" : "for.again");
  lo_counted_loop(l, n, start, step, k0, k1, checked, brk, false);
  position(l, checked);
  LLVMValueRef failed = sums ? sum_not_finite(l, sums) : LLVMBuildLoad2(l->b, l->mod->i1, l->deferred, "");
  l->deferred = NULL;
  l->powers_unchecked = false;
  LLVMBuildCondBr(l->b, failed, again, exhausted);
  position(l, again);
  if (leaves) {
    lo_raise_status(l, const_i32(l, RT_ERR_RERUN));
    l->mod->res->reruns = true;
    return;
  }
  for (int v = 0; v < nv; v++) {
    if (saved[v]) LLVMBuildStore(l->b, saved[v], l->slots[v]);
    if (bound[v]) LLVMBuildStore(l->b, bound[v], l->assigned[v]);
  }
  lo_counted_loop(l, n, start, step, k0, k1, exhausted, brk, true);
}

/* The element reads of a dict or set (or a dict's view) in e, what a
 * loop's first assignment binds to its target (a tuple of them under zip()
 * and enumerate()): each container's size noted now, before the loop. */
static void note_iter_sizes(Lower *l, const Node *e) {
  if (!e) return;
  if (e->kind == N_INDEX && e->str && e->lhs->kind == N_VAR && e->lhs->ty &&
      (e->lhs->ty->kind == TY_DICT || e->lhs->ty->kind == TY_SET || e->lhs->ty->kind == TY_DICTVIEW)) {
    LLVMValueRef c = lo_expr(l, e->lhs), size = lo_alloca(l, l->mod->i64, "iter.size");
    LLVMBuildStore(l->b, lo_container_len(l, e->lhs->ty, c), size);
    lo_done_with(l, e->lhs, c);
    struct IterSize *noted = arena_alloc(l->f->arena, sizeof *noted);
    *noted = (struct IterSize){e, size, l->iter_sizes};
    l->iter_sizes = noted;
    return;
  }
  if (e->kind == N_TUPLE)
    for (int i = 0; i < e->list.len; i++) note_iter_sizes(l, e->list.items[i]);
}

void lo_check_iter_size(Lower *l, const Node *n, LLVMValueRef container) {
  for (const struct IterSize *s = l->iter_sizes; s; s = s->next) {
    if (s->at != n) continue;
    LLVMValueRef began = LLVMBuildLoad2(l->b, l->mod->i64, s->size, "");
    LLVMValueRef changed = LLVMBuildICmp(l->b, LLVMIntNE, lo_container_len(l, n->lhs->ty, container), began, "");
    lo_raise_if(l, changed, RT_ERR_RUNTIME, n->lhs->ty->kind == TY_SET ? "Set changed size during iteration"
                                                                       : "dictionary changed size during iteration");
    return;
  }
}

/* A loop that ran out of items: Python's last next() raises as the others
 * do where a container noted since `outer` changed size in the last pass
 * (checked in the order noted: zip() asks its first iterator first). */
static void check_iter_sizes(Lower *l, const struct IterSize *s, const struct IterSize *outer) {
  if (s == outer) return;
  check_iter_sizes(l, s->next, outer);
  LLVMValueRef c = lo_expr(l, s->at->lhs);
  lo_check_iter_size(l, s->at, c);
  lo_done_with(l, s->at->lhs, c);
}

static void lo_for(Lower *l, Node *n) {
  const ParPlan *plan = n->plan->par;
  if (plan && !plan->why[0]) {
    lo_parallel_for(l, n, plan);
    return;
  }
  if (plan && l->mod->res && !l->mod->res->warning[0])
    snprintf(l->mod->res->warning, sizeof l->mod->res->warning,
             "%s:%d: this prange loop runs serially: it has %s", l->f->filename, plan->line, plan->why);
  LLVMValueRef start, step;
  LLVMValueRef count = lo_range(l, n->cond, &start, &step);
  struct IterSize *outer = l->iter_sizes;
  int bind = 0;  /* (after the `if <walk ended>: break` that infer puts first where lists change) */
  while (bind < n->body.len && n->body.items[bind]->kind == N_IF) bind++;
  if (bind < n->body.len && n->body.items[bind]->kind == N_ASSIGN) note_iter_sizes(l, n->body.items[bind]->rhs);
  LLVMBasicBlockRef other = new_block(l, "for.else"), done = new_block(l, "for.end");
  bool leaves = leaves_early(n);
  LLVMValueRef trips = leaves ? lo_range_trips(l, count) : lo_range_fits(l, count);
  bool parfor_errors = l->parfor_errors;
  if (plan) l->parfor_errors = lo_prange_errors(l);
  lo_range_loop(l, n, start, step, const_i64(l, 0), trips, other, done);
  l->parfor_errors = parfor_errors;
  position(l, other);
  check_iter_sizes(l, l->iter_sizes, outer);
  l->iter_sizes = outer;
  if (leaves) lo_range_end(l, count);
  lo_block(l, &n->orelse);
  if (!terminated(l)) LLVMBuildBr(l->b, done);
  position(l, done);
}

/* The value a return hands to the caller, owned. A local variable's
 * arrays move out of it (the variable is left empty, so the exit does not
 * release them), rather than an incref now and a decref at the exit. */
static LLVMValueRef returned(Lower *l, Node *e) {
  if (e->kind != N_VAR || !ty_has_arrays(e->ty) || l->f->plan->borrowed[e->var]) return lo_owned(l, e);
  LLVMValueRef v = lo_expr(l, e);
  LLVMBuildStore(l->b, LLVMConstNull(lo_type(l, l->f->var_types[e->var])), l->slots[e->var]);
  return v;
}

static void lo_return(Lower *l, Node *n) {
  if (l->opts->kernel) {  /* this thread is done: on to the next */
    if (l->fission)
      LLVMBuildStore(l->b, LLVMConstInt(l->mod->i8, 1, 0), LLVMBuildGEP2(l->b, l->mod->i8, l->done, &l->thread, 1, ""));
    LLVMBuildBr(l->b, l->next_thread);
    return;
  }
  if (n->lhs) {
    LLVMValueRef v = lo_convert(l, returned(l, n->lhs), n->lhs->ty, l->f->ret_type);
    lo_set_result(l, l->f->ret_type, l->ret_val, v);
  }
  LLVMBasicBlockRef exit = l->tries ? lo_leave_tries(l, true) : l->exit_bb;
  if (terminated(l)) return;  /* a finally clause returned or raised instead */
  LLVMBuildStore(l->b, const_i32(l, RT_OK), l->status);
  LLVMBuildBr(l->b, exit);
}

/* A raise or assert statement's place, recorded with what it raised: the
 * extension adds it to the traceback as the function's frame, as a Python
 * function's raise shows there. */
static const char *where_of(Lower *l, const Node *n) {
  char *where = arena_alloc(l->f->arena, strlen(l->f->name) + strlen(l->f->filename) + 24);
  sprintf(where, "%d\x1f%s\x1f%s", n->line, l->f->name, l->f->filename);
  return where;
}

/* Records a raise statement's place; in a kernel compiled with debug=True
 * with the thread that raised, which numba-cuda's message names. */
static void record_raise_place(Lower *l, const Node *n) {
  LLVMValueRef where = lo_string(l, where_of(l, n));
  if (!l->opts->debug || !l->tid[0]) {
    lo_call_fn(l, "rt_raise_where", void_type(l), &l->mod->ptr, &where, 1);
    return;
  }
  LLVMTypeRef i64 = l->mod->i64, p[7] = {l->mod->ptr, i64, i64, i64, i64, i64, i64};
  LLVMValueRef a[7] = {where, l->tid[0], l->tid[1], l->tid[2], l->bid[0], l->bid[1], l->bid[2]};
  lo_call_fn(l, "rt_kernel_raise_where", void_type(l), p, a, 7);
}

/* One argument of a raise, v of type t, recorded by the runtime; a tuple
 * as its items between the tags ( and ). */
static void raise_arg(Lower *l, LLVMValueRef v, const Type *t) {
  LLVMTypeRef ptr = l->mod->ptr, i32 = l->mod->i32, i64 = l->mod->i64;
  if (t->kind == TY_STR) {
    lo_call_fn(l, "rt_raise_arg_str", void_type(l), &ptr, &v, 1);
    return;
  }
  int tag = t->kind == TY_TUPLE ? '(' : t->kind == TY_NONE ? 'n' : t->kind == TY_BOOL ? 'b' : ty_is_float(t) ? 'f'
            : ty_is_time(t) ? 't' : ty_is_signed(t) ? 'i' : 'u';
  LLVMValueRef bits = tag == 'n' || tag == '(' ? const_i64(l, 0) : tag == 't' ? v
                      : tag == 'f' ? LLVMBuildBitCast(l->b, lo_convert(l, v, t, TYS(TY_F64)), i64, "")
                      : lo_convert(l, v, t, ty_is_signed(t) || tag == 'b' ? TYS(TY_I64) : TYS(TY_U64));
  if (tag == 't') tag = (t->kind == TY_DATETIME ? 'M' : 'm') | t->unit << 8;
  lo_call_fn(l, "rt_raise_arg", void_type(l), (LLVMTypeRef[]){i32, i64}, (LLVMValueRef[]){const_i32(l, tag), bits}, 2);
  if (tag != '(') return;
  for (int i = 0; i < t->nfields; i++) raise_arg(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->fields[i]);
  lo_call_fn(l, "rt_raise_arg", void_type(l), (LLVMTypeRef[]){i32, i64}, (LLVMValueRef[]){const_i32(l, ')'), const_i64(l, 0)},
             2);
}

/* raise cls(a, b, ...) of values made at run time: all are computed
 * before the runtime records any (computing one may fail), each as the
 * extension makes it again in Python; one str alone is the message. */
static void raise_args(Lower *l, LLVMValueRef cls, NodeList *args) {
  LLVMTypeRef ptr = l->mod->ptr;
  if (args->len == 1 && args->items[0]->ty->kind == TY_STR) {  /* copied by the runtime */
    LLVMValueRef msg = lo_expr(l, args->items[0]);
    lo_call_fn(l, "rt_raise_str", void_type(l), (LLVMTypeRef[]){ptr, ptr}, (LLVMValueRef[]){cls, msg}, 2);
    lo_done_with(l, args->items[0], msg);
    return;
  }
  LLVMValueRef *v = calloc((size_t)args->len, sizeof *v);
  for (int i = 0; i < args->len; i++) v[i] = lo_expr(l, args->items[i]);
  lo_call_fn(l, "rt_raise_args_begin", void_type(l), NULL, NULL, 0);
  for (int i = 0; i < args->len; i++) {
    raise_arg(l, v[i], args->items[i]->ty);
    lo_done_with(l, args->items[i], v[i]);
  }
  free(v);
  lo_call_fn(l, "rt_raise", void_type(l), (LLVMTypeRef[]){ptr, ptr},
             (LLVMValueRef[]){cls, lo_call_fn(l, "rt_raise_args_text", ptr, NULL, NULL, 0)}, 2);
}

/* raise cls(a, b, ..., k=v, ...) where an argument is an array, a list, a
 * dict... or a keyword is given: the arguments laid out as a tuple (the
 * keywords' values last), each with a reference of its own, which the
 * extension boxes as they are (rt_raise_objects), the keywords named by
 * a constant text of their names, each ended by '\x1f'. The code holds the
 * tuple type's address, so it must never be cached: the class is named by
 * a symbol the cache cannot find again. */
static void raise_objects(Lower *l, Node *n) {
  int npos = n->list.len, nargs = npos + n->kw.len;
  const Type **f = arena_alloc(l->f->arena, sizeof *f * (size_t)nargs);
  Node **a = arena_alloc(l->f->arena, sizeof *a * (size_t)nargs);
  LLVMValueRef *items = arena_alloc(l->f->arena, sizeof *items * (size_t)nargs);
  for (int i = 0; i < nargs; i++) f[i] = (a[i] = i < npos ? n->list.items[i] : n->kw.items[i - npos])->ty;
  const Type *args_t = ty_tuple(nargs, f);
  LLVMValueRef v = LLVMGetUndef(lo_type(l, args_t));
  for (int i = 0; i < nargs; i++) items[i] = lo_expr(l, a[i]);
  for (int i = 0; i < nargs; i++) {
    lo_refcount(l, f[i], items[i], true);
    v = LLVMBuildInsertValue(l->b, v, items[i], (unsigned)i, "");
  }
  LLVMValueRef args = lo_alloca(l, lo_storage_type(l, args_t), "raise.args");
  lo_store_storage(l, args_t, args, v);
  size_t size = strlen(n->symbol) + 32, names = 1;
  char *symbol = arena_alloc(l->f->arena, size);
  snprintf(symbol, size, "%s (raised with boxed values)", n->symbol);
  for (int k = 0; k < n->kw.len; k++) names += strlen(n->kw_names[k]) + 1;
  char *keywords = arena_alloc(l->f->arena, names);
  keywords[0] = 0;
  for (int k = 0; k < n->kw.len; k++) strcat(strcat(keywords, n->kw_names[k]), "\x1f");
  LLVMValueRef type = LLVMConstIntToPtr(LLVMConstInt(l->mod->i64, (uint64_t)(uintptr_t)args_t, 0), l->mod->ptr);
  LLVMTypeRef ptr = l->mod->ptr, p[4] = {ptr, ptr, ptr, ptr};
  lo_call_fn(l, "rt_raise_objects", void_type(l), p,
             (LLVMValueRef[]){lo_extern(l, symbol, n->callee), type, args, lo_string(l, keywords)}, 4);
  for (int i = 0; i < nargs; i++) lo_done_with(l, a[i], items[i]);
}

static bool raises_objects(const Node *n) {
  for (int i = 0; i < n->list.len; i++)
    if (!ty_raised_as_text(n->list.items[i]->ty)) return true;
  return n->kw.len > 0;
}

void lo_stmt(Lower *l, Node *n) {
  l->ntemps = 0;  /* every statement hands its arrays to an owner or releases them */
  if (l->subprogram) lo_gpu_line(l, n->line, n->col);
  switch (n->kind) {
  case N_ASSIGN:
    if (n->lhs->kind == N_VAR && l->f->plan->frame_generators[n->lhs->var])
      lo_frame_generator_assign(l, n);
    else if (n->lhs->kind == N_INDEX && n->lhs->lhs->ty->kind == TY_ARRAY && ty_is_fixed_text(n->lhs->lhs->ty->elem) &&
             n->lhs->ty->kind != TY_ARRAY && ir_is_text_constant(n->rhs))  /* an item, not a view */
      lo_text_constant_store(l, n->lhs, n->rhs);
    else if (ty_is_text_field(n->lhs) && ir_is_text_constant(n->rhs))
      lo_record_text_constant_store(l, n->lhs, n->rhs);
    else
      lo_store(l, n->lhs, n->rhs->ty, lo_owned(l, n->rhs));
    break;
  case N_AUGASSIGN: lo_augassign(l, n); break;
  case N_IF: lo_if(l, n); break;
  case N_WHILE: lo_while(l, n); break;
  case N_FOR: lo_for(l, n); break;
  case N_RETURN: lo_return(l, n); break;
  case N_BREAK: case N_CONTINUE:
    if (!l->loop) {  /* out of a loop that holds a syncthreads, from one thread */
      lo_raise(l, RT_ERR_RUNTIME, "break/continue out of a loop containing cuda.syncthreads() is not supported");
      break;
    }
    if (l->tries) lo_leave_tries(l, false);
    if (!terminated(l)) LLVMBuildBr(l->b, n->kind == N_BREAK ? l->loop->brk : l->loop->cont);
    break;
  case N_EXPR: {
    LLVMValueRef v = lo_expr(l, n->lhs);
    lo_done_with(l, n->lhs, v);
    break;
  }
  case N_BLOCK: lo_block(l, &n->body); break;
  case N_ASSERT: {
    LLVMValueRef ok = lo_truth(l, lo_expr(l, n->cond), n->cond->ty);
    lo_raise_if_at(l, LLVMBuildNot(l->b, ok, ""), RT_ERR_ASSERT, n->str, where_of(l, n));
    break;
  }
  case N_TRY: lo_try(l, n); break;
  case N_YIELD: lo_yield(l, n); break;
  case N_RAISE: {
    if (!n->callee) {
      lo_reraise(l);
      break;
    }
    if (l->mod->gpu) {  /* a GPU thread cannot raise: it stops the kernel */
      lo_raise(l, RT_ERR_RAISE, n->str);
      break;
    }
    LLVMTypeRef p[2] = {l->mod->ptr, l->mod->ptr};
    if (raises_objects(n))
      raise_objects(l, n);
    else if (n->list.len)
      raise_args(l, lo_extern(l, n->symbol, n->callee), &n->list);
    else
      lo_call_fn(l, "rt_raise", void_type(l), p, (LLVMValueRef[]){lo_extern(l, n->symbol, n->callee), lo_string(l, n->str)}, 2);
    record_raise_place(l, n);
    LLVMBuildStore(l->b, const_i32(l, RT_ERR_RAISE), l->status);
    LLVMBuildBr(l->b, l->exit_bb);
    break;
  }
  default: break;
  }
}

/* Statements after a return, break or continue are unreachable: they are
 * not emitted. */
void lo_block(Lower *l, NodeList *b) {
  for (int i = 0; i < b->len && !terminated(l); i++) lo_stmt(l, b->items[i]);
}
