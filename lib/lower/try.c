/* lower/try.c — try/except/else/finally.
 *
 * Every raise in compiled code stores its status and branches to
 * l->exit_bb (lo_raise, a failed call's check, a parallel region's
 * failure). Inside a try body that block is the statement's except
 * clauses, which test the status in turn: ruchey's own errors by their
 * status, known at compile time for each clause (frontend), a raise
 * statement's class by a call to the runtime. The clause that matches
 * runs; none matching, the error goes on to the enclosing handler or the
 * function's exit. Nothing is left to release: a raise releases its
 * statement's arrays, a failing callee its own, and the variables keep
 * theirs until the function's exit, as on any other path.
 *
 * A finally clause is emitted on every way out of the statement: after
 * the body (and else) or a clause completes, for an error no clause
 * caught (which is then raised on, unless the finally clause raises or
 * returns instead), and before a return, break or continue that leaves
 * the statement (lo_leave_tries).
 *
 * The values a raise keeps for Python (rt_raise_objects) are let go
 * where compiled code is done with the error: where a clause that never
 * raises it again takes it, and where one that may (holding a copy of
 * it) is left other than by raising that copy again.
 */
#include "lower/lower.h"
#include "ir.h"

typedef struct TryScope {
  struct TryScope *outer;
  const Node *finally;           /* N_BLOCK, or NULL */
  const Loop *loop;              /* the innermost loop around the statement */
  LLVMBasicBlockRef outer_exit;  /* where a raise goes outside the statement */
  LLVMValueRef caught;           /* the copy of the error an except clause being lowered may raise again */
} TryScope;

/* A copy of the error being raised (an RtError on the stack). */
static LLVMValueRef saved_error(Lower *l) {
  LLVMValueRef copy = lo_alloca(l, LLVMArrayType2(l->mod->i8, sizeof(RtError)), "caught");
  LLVMSetAlignment(copy, _Alignof(RtError));
  lo_call_fn(l, "rt_error_copy", void_type(l), &l->mod->ptr, &copy, 1);
  return copy;
}

/* The copy raised again: the status is RtError's first field. */
static void raise_saved(Lower *l, LLVMValueRef copy) {
  lo_call_fn(l, "rt_error_restore", void_type(l), &l->mod->ptr, &copy, 1);
  LLVMBuildStore(l->b, LLVMBuildLoad2(l->b, l->mod->i32, copy, "status"), l->status);
  LLVMBuildBr(l->b, l->exit_bb);
}

void lo_reraise(Lower *l) {
  for (int i = 0; i < l->ntemps; i++) lo_refcount(l, l->temp_types[i], l->temps[i], false);
  raise_saved(l, l->caught);
}

/* Whether the clause catches the error raised, whose status is given. */
static LLVMValueRef clause_matches(Lower *l, const Node *h, LLVMValueRef status) {
  if (h->op == ~0) return const_bool(l, true);  /* a bare except (`except ():` catches nothing) */
  LLVMValueRef bit = LLVMBuildAnd(l->b, LLVMBuildLShr(l->b, const_i32(l, h->op), status, ""), const_i32(l, 1), "");
  LLVMValueRef caught = LLVMBuildICmp(l->b, LLVMIntNE, bit, const_i32(l, 0), "");
  void *const *classes = h->callee;
  const char *const *symbols = h->data;
  for (int i = 0; i < h->ival; i++) {
    LLVMValueRef cls = lo_extern(l, symbols[i], classes[i]);
    LLVMValueRef is = lo_call_fn(l, "rt_exception_matches", l->mod->i32, &l->mod->ptr, &cls, 1);
    caught = LLVMBuildOr(l->b, caught, LLVMBuildICmp(l->b, LLVMIntNE, is, const_i32(l, 0), ""), "");
  }
  return caught;
}

/* A Ctrl-C the clause caught is consumed, as in Python (interrupt.c). */
static void catch_interrupt(Lower *l, const Node *h, LLVMValueRef status) {
  if (l->mod->gpu || !(h->op & (1 << RT_ERR_INTERRUPT))) return;
  LLVMBasicBlockRef caught = new_block(l, "interrupt.caught"), on = new_block(l, "except.body");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, status, const_i32(l, RT_ERR_INTERRUPT), ""), caught, on);
  position(l, caught);
  lo_call_fn(l, "rt_catch_interrupt", void_type(l), NULL, NULL, 0);
  LLVMBuildBr(l->b, on);
  position(l, on);
}

static void forget(Lower *l, const char *fn, LLVMValueRef copy) {
  lo_call_fn(l, fn, void_type(l), &l->mod->ptr, &copy, 1);
}

/* An except clause that may raise its error again (a copy of it held):
 * the copy let go where the clause completes, leaves by a raise of
 * another error (through `landing`), or by a return, break or continue
 * (lo_leave_tries). */
static void lo_clause_holding(Lower *l, Node *h, LLVMBasicBlockRef completed) {
  LLVMBasicBlockRef outer_exit = l->exit_bb, landing = new_block(l, "except.left");
  l->tries->caught = l->caught;
  l->exit_bb = landing;
  lo_block(l, &h->body);
  if (!terminated(l)) {
    forget(l, "rt_error_forget", l->caught);
    LLVMBuildBr(l->b, completed);
  }
  position(l, landing);
  forget(l, "rt_error_forget_unless_raised", l->caught);
  LLVMBuildBr(l->b, outer_exit);
  l->exit_bb = outer_exit;
  l->tries->caught = NULL;
}

static bool find_reraise(Node *n, void *ctx) {
  if (n->kind == N_RAISE && !n->callee) *(bool *)ctx = true;
  return !*(bool *)ctx;
}

/* The except clauses, tried in order on the error just raised; each that
 * runs to its end goes on to `completed`. */
static void lo_handlers(Lower *l, Node *n, LLVMBasicBlockRef completed) {
  LLVMValueRef status = LLVMBuildLoad2(l->b, l->mod->i32, l->status, "raised");
  for (int i = 0; i < n->list.len; i++) {
    Node *h = n->list.items[i];
    LLVMBasicBlockRef run = new_block(l, "except.run"), next = new_block(l, "except.next");
    LLVMBuildCondBr(l->b, clause_matches(l, h, status), run, next);
    position(l, run);
    catch_interrupt(l, h, status);
    LLVMValueRef outer = l->caught;
    bool reraises = false;
    ir_walk_list(&h->body, find_reraise, &reraises);
    if (reraises) l->caught = saved_error(l);
    else lo_call_fn(l, "rt_error_forget_raised", void_type(l), NULL, NULL, 0);
    LLVMBuildStore(l->b, const_i32(l, RT_OK), l->status);
    if (reraises) {
      lo_clause_holding(l, h, completed);
    } else {
      lo_block(l, &h->body);
      if (!terminated(l)) LLVMBuildBr(l->b, completed);
    }
    l->caught = outer;
    position(l, next);
  }
  LLVMBuildBr(l->b, l->exit_bb);  /* none caught it: on outwards, its status as it is */
}

/* The finally clause on the way out of an error no clause caught: the
 * error is kept aside while it runs (it may catch errors of its own), and
 * raised again where it completes; the copy is let go where the clause
 * leaves otherwise: by a raise of another error (through `landing`), or
 * by a return, break or continue (lo_leave_tries, through a scope of its
 * own around the clause). */
static void finally_raised(Lower *l, const Node *fin) {
  LLVMValueRef copy = saved_error(l);
  LLVMBasicBlockRef outer_exit = l->exit_bb, landing = new_block(l, "finally.left");
  TryScope holding = {l->tries, NULL, l->loop, outer_exit, copy};
  l->tries = &holding;
  l->exit_bb = landing;
  lo_block(l, (NodeList *)&fin->body);
  if (!terminated(l)) raise_saved(l, copy);
  position(l, landing);
  forget(l, "rt_error_forget_unless_raised", copy);
  LLVMBuildBr(l->b, outer_exit);
  l->tries = holding.outer;
  l->exit_bb = outer_exit;
}

void lo_try(Lower *l, Node *n) {
  const Node *fin = n->lhs;
  TryScope scope = {l->tries, fin, l->loop, l->exit_bb, NULL};
  LLVMBasicBlockRef done = new_block(l, "try.end");
  LLVMBasicBlockRef completed = fin ? new_block(l, "finally") : done;
  LLVMBasicBlockRef unwinding = fin ? new_block(l, "finally.raised") : scope.outer_exit;
  LLVMBasicBlockRef handlers = n->list.len ? new_block(l, "except") : unwinding;
  l->tries = &scope;
  l->exit_bb = handlers;
  lo_block(l, &n->body);
  l->exit_bb = unwinding;  /* errors in else and in the clauses are not caught here */
  if (!terminated(l)) lo_block(l, &n->orelse);
  if (!terminated(l)) LLVMBuildBr(l->b, completed);
  if (n->list.len) {
    position(l, handlers);
    lo_handlers(l, n, completed);
  }
  l->tries = scope.outer;
  l->exit_bb = scope.outer_exit;
  if (fin) {
    position(l, completed);
    lo_block(l, (NodeList *)&fin->body);
    if (!terminated(l)) LLVMBuildBr(l->b, done);
    position(l, unwinding);
    finally_raised(l, fin);
  }
  position(l, done);
}

LLVMBasicBlockRef lo_leave_tries(Lower *l, bool all) {
  TryScope *inner = l->tries;
  LLVMBasicBlockRef raise_to = l->exit_bb, exit = l->exit_bb;
  for (TryScope *s = inner; s && (all || s->loop == l->loop); s = s->outer) {
    l->tries = s->outer;
    l->exit_bb = exit = s->outer_exit;
    if (s->caught) forget(l, "rt_error_forget", s->caught);
    if (!s->finally) continue;
    lo_block(l, (NodeList *)&s->finally->body);
    if (terminated(l)) break;
  }
  l->tries = inner;
  l->exit_bb = raise_to;
  return exit;
}
