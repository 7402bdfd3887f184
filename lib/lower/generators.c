/* lower/generators.c — generator functions: a call makes a generator
 * object, whose resume function runs the body on from where it last
 * yielded.
 *
 * The object is a pointer to its state on the heap: a header (RtGenState:
 * a reference count, the resume and drop functions, the resume point;
 * then the slot of the value last yielded), the call's arguments, then
 * the frame: every alloca of the resume function, moved into the state,
 * so that the locals keep their values between resumptions. The resume
 * function's entry switches on the resume point to the body's start or
 * to the block after the yield that suspended it, as Numba's generator
 * lowering does. The body is lowered as any other, each yield a branch
 * that may go on; values it keeps in registers from one block to another
 * are then demoted to allocas (as LLVM's reg2mem does), so that none
 * lives across a suspension in a register, and the yields' branches
 * become returns.
 */
#include <stdio.h>

#include "lower/lower.h"

/* The fields of the state, in order (the first four are RtGenState's). */
enum { GS_REFCOUNT, GS_RESUME, GS_DROP, GS_NEXT, GS_VALUE, GS_ARGS, GS_ALIGN };

struct GenLower {
  LLVMTypeRef state;         /* the state's header, value and arguments (the frame follows) */
  LLVMValueRef self;         /* the resume function's state parameter */
  LLVMBasicBlockRef *resumes;/* [k]: where the k-th yield goes on (k from 1) */
  LLVMValueRef *branches;    /* [k]: its branch, made a return once the body is lowered */
  int nyields, cap;
};

/* The state's type for f: the header, the value in its storage layout,
 * the arguments as values, padded to RT_GEN_ALIGN bytes (the state's own
 * alignment), so that the frame after it is aligned for any local, a
 * vector's too. */
static LLVMTypeRef state_type(Lower *l) {
  LowerModule *m = l->mod;
  int np = l->f->nparams;
  LLVMTypeRef *args = arena_alloc(l->f->arena, sizeof(LLVMTypeRef) * (size_t)(np ? np : 1));
  for (int v = 0; v < np; v++) args[v] = lo_type(l, l->f->var_types[v]);
  LLVMTypeRef f[GS_ALIGN + 1] = {m->i64, m->ptr, m->ptr, m->i32, lo_storage_type(l, l->f->yield_type),
                                 LLVMStructTypeInContext(m->c, args, (unsigned)np, 0),
                                 LLVMArrayType2(LLVMVectorType(m->i8, RT_GEN_ALIGN), 0)};
  return LLVMStructTypeInContext(m->c, f, GS_ALIGN + 1, 0);
}

/* What a consumer knows of any generator yielding t: the header and the value. */
static LLVMTypeRef header_type(Lower *l, const Type *t) {
  LowerModule *m = l->mod;
  LLVMTypeRef f[GS_VALUE + 1] = {m->i64, m->ptr, m->ptr, m->i32, lo_storage_type(l, t)};
  return LLVMStructTypeInContext(m->c, f, GS_VALUE + 1, 0);
}

static LLVMValueRef field_at(Lower *l, LLVMTypeRef st, LLVMValueRef state, unsigned i) {
  return LLVMBuildStructGEP2(l->b, st, state, i, "");
}

/* ---------------------------------------------------------------- the consumer's side */

/* Runs g's body to its next yield or its end: whether it yielded. A
 * failure in the body propagates. */
LLVMValueRef lo_generator_resume(Lower *l, const Type *t, LLVMValueRef g) {
  LLVMTypeRef ht = header_type(l, t), rt = LLVMFunctionType(l->mod->i32, &l->mod->ptr, 1, 0);
  LLVMValueRef fn = LLVMBuildLoad2(l->b, l->mod->ptr, field_at(l, ht, g, GS_RESUME), "resume");
  /* set once, where the state is made: once that is inlined here, the call is direct */
  unsigned invariant = LLVMGetMDKindIDInContext(l->mod->c, "invariant.load", 14);
  LLVMSetMetadata(fn, invariant, LLVMMetadataAsValue(l->mod->c, LLVMMDNodeInContext2(l->mod->c, NULL, 0)));
  lo_check_call(l, LLVMBuildCall2(l->b, rt, fn, &g, 1, "status"));
  LLVMValueRef next = LLVMBuildLoad2(l->b, l->mod->i32, field_at(l, ht, g, GS_NEXT), "");
  return LLVMBuildICmp(l->b, LLVMIntNE, next, const_i32(l, RT_GEN_DONE), "yielded");
}

/* What g last yielded, owned by the caller (the state's slot hands it over). */
LLVMValueRef lo_generator_value(Lower *l, const Type *t, LLVMValueRef g) {
  return lo_load_storage(l, t->elem, field_at(l, header_type(l, t->elem), g, GS_VALUE));
}

/* ---------------------------------------------------------------- a state in the frame */

/* The function of the generator function target's named what (init,
 * resume, drop), lowered into this module with its body. */
static LLVMValueRef made_function(Lower *l, const CallTarget *target, const char *what) {
  char name[300];
  snprintf(name, sizeof name, "%s.%s", LLVMGetValueName(lo_callee_body(l, target)), what);
  return LLVMGetNamedFunction(l->mod->m, name);
}

static LLVMValueRef frame_maker_call(Lower *l, const CallTarget *target, const char *what, LLVMValueRef *args, int n) {
  LLVMValueRef fn = made_function(l, target, what);
  return LLVMBuildCall2(l->b, LLVMGlobalGetValueType(fn), fn, args, (unsigned)n, "");
}

/* The generator variable v holds, where its state is the frame's: its
 * drop (when v holds one: a variable reassigned drops the one before). */
static void drop_frame_generator(Lower *l, int v) {
  LLVMValueRef s = LLVMBuildLoad2(l->b, l->mod->ptr, l->slots[v], "");
  LLVMBasicBlockRef drop = new_block(l, "gen.drop"), on = new_block(l, "gen.dropped");
  LLVMBuildCondBr(l->b, LLVMBuildIsNull(l->b, s, ""), on, drop);
  position(l, drop);
  frame_maker_call(l, l->f->plan->frame_generators[v], "drop", &s, 1);
  LLVMBuildBr(l->b, on);
  position(l, on);
}

/* v = gen(args), v's generator kept in the frame: the state an alloca of
 * the entry (one per variable: none outlives the next assignment), made
 * ready by gen's init; nothing counts references to it. */
void lo_frame_generator_assign(Lower *l, Node *assign) {
  int v = assign->lhs->var;
  Node *call = assign->rhs;
  const CallTarget *target = l->f->plan->frame_generators[v];
  char tname[300];
  snprintf(tname, sizeof tname, "%s.state", LLVMGetValueName(lo_callee_body(l, target)));
  LLVMValueRef state = lo_alloca(l, LLVMGetTypeByName2(l->mod->c, tname), "gen.state");
  LLVMSetAlignment(state, RT_GEN_ALIGN);
  LLVMValueRef *args = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(call->list.len + 1));
  args[0] = state;
  lo_call_args(l, call, args + 1);
  drop_frame_generator(l, v);
  frame_maker_call(l, target, "init", args, call->list.len + 1);
  lo_call_args_done(l, call, args + 1);
  LLVMBuildStore(l->b, state, l->slots[v]);
  lo_mark_assigned(l, v);
}

/* The exit: every variable's generator kept in the frame dropped. */
void lo_frame_generators_drop(Lower *l) {
  for (int v = 0; v < l->f->nvars; v++)
    if (l->f->plan->frame_generators[v]) drop_frame_generator(l, v);
}

/* Inlined where it is resumed, a frame's generator's state becomes the
 * consumer's registers (SROA) and the loop around it a plain loop; LLVM's
 * inliner, blind to that, leaves a body with an array and a loop (a
 * sieve's, 320 instructions as lowered) a call: 2.5 times the
 * instructions a value. Larger bodies (a window's slice summed, 371) are
 * left to it: forced, their consumer took 40% longer to compile (the
 * sieve's 19%). */
#define FRAME_INLINE_MAX 350

static int instructions(LLVMValueRef fn) {
  int n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) n++;
  return n;
}

LLVMValueRef lo_generator_resume_of(Lower *l, Node *g, LLVMValueRef s) {
  const CallTarget *target = g->kind == N_VAR ? l->f->plan->frame_generators[g->var] : NULL;
  if (!target) return lo_generator_resume(l, g->ty->elem, s);
  LLVMValueRef call = frame_maker_call(l, target, "resume", &s, 1);
  if (instructions(made_function(l, target, "resume")) <= FRAME_INLINE_MAX) {
    unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(l->mod->c, always, 0));
  }
  lo_check_call(l, call);
  LLVMValueRef next = LLVMBuildLoad2(l->b, l->mod->i32, field_at(l, header_type(l, g->ty->elem), s, GS_NEXT), "");
  return LLVMBuildICmp(l->b, LLVMIntNE, next, const_i32(l, RT_GEN_DONE), "yielded");
}

/* ---------------------------------------------------------------- yield */

void lo_yield(Lower *l, Node *n) {
  struct GenLower *g = l->gen;
  const Type *yt = l->f->yield_type;
  if (n->lhs && yt->kind != TY_NONE) {
    LLVMValueRef v = lo_convert(l, lo_owned(l, n->lhs), n->lhs->ty, yt);
    lo_store_storage(l, yt, field_at(l, g->state, g->self, GS_VALUE), v);
  } else if (n->lhs) {
    lo_done_with(l, n->lhs, lo_expr(l, n->lhs));
  }
  if (g->nyields + 2 > g->cap) {
    int cap = g->cap ? 2 * g->cap : 8;
    LLVMBasicBlockRef *resumes = arena_alloc(l->f->arena, sizeof *resumes * (size_t)cap);
    LLVMValueRef *branches = arena_alloc(l->f->arena, sizeof *branches * (size_t)cap);
    if (g->nyields) {
      memcpy(resumes, g->resumes, sizeof *resumes * (size_t)(g->nyields + 1));
      memcpy(branches, g->branches, sizeof *branches * (size_t)(g->nyields + 1));
    }
    g->resumes = resumes;
    g->branches = branches;
    g->cap = cap;
  }
  int k = ++g->nyields;
  LLVMBuildStore(l->b, const_i32(l, k), field_at(l, g->state, g->self, GS_NEXT));
  LLVMBasicBlockRef suspend = new_block(l, "yield"), on = new_block(l, "resume");
  /* the branch that will return: for now it may go on, so that the body's
   * values dominate their uses after the yield */
  g->branches[k] = LLVMBuildCondBr(l->b, LLVMGetPoison(l->mod->i1), suspend, on);
  g->resumes[k] = on;
  position(l, suspend);
  LLVMBuildRet(l->b, const_i32(l, RT_OK));
  position(l, on);
}

/* ---------------------------------------------------------------- registers to memory */

static LLVMValueRef entry_alloca(LLVMBuilderRef b, LLVMValueRef fn, LLVMTypeRef t) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
  return LLVMBuildAlloca(b, t, "demoted");
}

static LLVMValueRef first_after_phis(LLVMBasicBlockRef bb) {
  LLVMValueRef i = LLVMGetFirstInstruction(bb);
  while (i && LLVMIsAPHINode(i)) i = LLVMGetNextInstruction(i);
  return i;
}

/* Whether v is used outside its block or by a phi. */
static bool escapes(LLVMValueRef v) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAPHINode(user) || LLVMGetInstructionParent(user) != bb) return true;
  }
  return false;
}

/* v kept in an alloca: stored where it is made, loaded where it is used
 * (a phi's operand at the end of the block it comes from). */
static void demote_value(Lower *l, LLVMBuilderRef b, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMValueRef slot = entry_alloca(b, l->fn, t);
  int nusers = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) nusers++;
  LLVMValueRef *users = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(nusers ? nusers : 1));
  int n = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    bool seen = false;
    for (int i = 0; i < n && !seen; i++) seen = users[i] == user;
    if (!seen) users[n++] = user;
  }
  for (int i = 0; i < n; i++) {
    LLVMValueRef user = users[i];
    int nops = LLVMGetNumOperands(user);
    if (LLVMIsAPHINode(user)) {
      for (int k = 0; k < nops; k++)
        if (LLVMGetOperand(user, (unsigned)k) == v) {
          LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(user, (unsigned)k)));
          LLVMSetOperand(user, (unsigned)k, LLVMBuildLoad2(b, t, slot, ""));
        }
      continue;
    }
    LLVMPositionBuilderBefore(b, user);
    LLVMValueRef load = LLVMBuildLoad2(b, t, slot, "");
    for (int k = 0; k < nops; k++)
      if (LLVMGetOperand(user, (unsigned)k) == v) LLVMSetOperand(user, (unsigned)k, load);
  }
  LLVMPositionBuilderBefore(b, LLVMIsAPHINode(v) ? first_after_phis(LLVMGetInstructionParent(v)) : LLVMGetNextInstruction(v));
  LLVMBuildStore(b, v, slot);
}

/* A phi made a slot that each incoming edge stores to. */
static void demote_phi(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef phi) {
  LLVMTypeRef t = LLVMTypeOf(phi);
  LLVMValueRef slot = entry_alloca(b, fn, t);
  for (unsigned k = 0; k < LLVMCountIncoming(phi); k++) {
    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(phi, k)));
    LLVMBuildStore(b, LLVMGetIncomingValue(phi, k), slot);
  }
  LLVMPositionBuilderBefore(b, first_after_phis(LLVMGetInstructionParent(phi)));
  LLVMReplaceAllUsesWith(phi, LLVMBuildLoad2(b, t, slot, ""));
  LLVMInstructionEraseFromParent(phi);
}

/* Whether the demotion's round takes instruction i of block bb: first
 * every value used beyond its block, then every phi. */
static bool demoted_in_round(int round, LLVMBasicBlockRef bb, LLVMBasicBlockRef entry, LLVMValueRef i) {
  if (round) return LLVMIsAPHINode(i) != NULL;
  return !(bb == entry && LLVMIsAAllocaInst(i)) && LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind && escapes(i);
}

static void demote_registers(Lower *l) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(l->mod->c);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(l->fn);
  for (int round = 0; round < 2; round++) {
    int n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(l->fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) n += demoted_in_round(round, bb, entry, i);
    LLVMValueRef *work = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(n ? n : 1));
    n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(l->fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (demoted_in_round(round, bb, entry, i)) work[n++] = i;
    for (int k = 0; k < n; k++) round ? demote_phi(b, l->fn, work[k]) : demote_value(l, b, work[k]);
  }
  LLVMDisposeBuilder(b);
}

/* ---------------------------------------------------------------- the resume function */

/* A parameter's variable starts with its argument from the state (a
 * reference of its own: the exit releases it, the state keeps its own). */
static LLVMValueRef argument_from_state(Lower *l, int v, void *ctx) {
  const Type *t = l->f->var_types[v];
  if (v >= l->f->nparams) return ty_has_arrays(t) ? LLVMConstNull(lo_type(l, t)) : NULL;
  struct GenLower *g = l->gen;
  LLVMValueRef args = field_at(l, g->state, g->self, GS_ARGS);
  LLVMValueRef value = LLVMBuildLoad2(l->b, lo_type(l, t), LLVMBuildStructGEP2(l->b, LLVMStructGetTypeAtIndex(g->state, GS_ARGS), args, (unsigned)v, ""), "");
  if (ty_has_arrays(t)) lo_refcount(l, t, value, true);
  return value;
}

/* The end of the body (a return, its last statement, a raise): the
 * locals released, the generator done. */
static void resume_exit(Lower *l) {
  position(l, l->exit_bb);
  for (int v = 0; v < l->f->nvars; v++) {
    const Type *t = l->f->var_types[v];
    if (t && ty_has_arrays(t)) lo_refcount(l, t, LLVMBuildLoad2(l->b, lo_type(l, t), l->slots[v], ""), false);
  }
  LLVMBuildStore(l->b, const_i32(l, RT_GEN_DONE), field_at(l, l->gen->state, l->gen->self, GS_NEXT));
  LLVMBuildRet(l->b, LLVMBuildLoad2(l->b, l->mod->i32, l->status, "status"));
}

/* The entry's switch: the start, or on after the yield that suspended;
 * a generator done stays done. */
static void resume_switch(Lower *l, LLVMValueRef placeholder, LLVMBasicBlockRef start) {
  struct GenLower *g = l->gen;
  LLVMBasicBlockRef done = new_block(l, "done");
  position(l, done);
  LLVMBuildRet(l->b, const_i32(l, RT_OK));
  LLVMPositionBuilderBefore(l->b, placeholder);
  LLVMValueRef next = LLVMBuildLoad2(l->b, l->mod->i32, field_at(l, g->state, g->self, GS_NEXT), "next");
  LLVMValueRef sw = LLVMBuildSwitch(l->b, next, done, (unsigned)g->nyields + 1);
  LLVMAddCase(sw, const_i32(l, 0), start);
  for (int k = 1; k <= g->nyields; k++) {
    LLVMAddCase(sw, const_i32(l, k), g->resumes[k]);
    LLVMBasicBlockRef suspend = LLVMGetSuccessor(g->branches[k], 0);
    LLVMPositionBuilderBefore(l->b, g->branches[k]);
    LLVMBuildBr(l->b, suspend);
    LLVMInstructionEraseFromParent(g->branches[k]);
  }
  LLVMInstructionEraseFromParent(placeholder);
}

/* Every alloca of the entry made a field of the frame, after the state;
 * field[v]: variable v's (or -1). Returns the frame's type. */
static LLVMTypeRef allocas_to_frame(Lower *l, int *field) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(l->fn);
  int n = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(entry); i; i = LLVMGetNextInstruction(i)) n += LLVMIsAAllocaInst(i) != NULL;
  LLVMTypeRef *types = arena_alloc(l->f->arena, sizeof(LLVMTypeRef) * (size_t)(n ? n : 1));
  LLVMValueRef *allocas = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(n ? n : 1));
  n = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(entry); i; i = LLVMGetNextInstruction(i))
    if (LLVMIsAAllocaInst(i)) {
      allocas[n] = i;
      types[n++] = LLVMGetAllocatedType(i);
    }
  for (int v = 0; v < l->f->nvars; v++) {
    field[v] = -1;
    for (int k = 0; l->slots[v] && k < n; k++)
      if (allocas[k] == l->slots[v]) field[v] = k;
  }
  LLVMTypeRef frame = LLVMStructTypeInContext(l->mod->c, types, (unsigned)n, 0);
  LLVMValueRef after = LLVMGetFirstInstruction(entry);
  while (LLVMIsAAllocaInst(after)) after = LLVMGetNextInstruction(after);
  LLVMPositionBuilderBefore(l->b, after);
  LLVMValueRef one = const_i64(l, 1);
  LLVMValueRef base = LLVMBuildGEP2(l->b, l->gen->state, l->gen->self, &one, 1, "frame");
  for (int k = 0; k < n; k++) {
    LLVMReplaceAllUsesWith(allocas[k], LLVMBuildStructGEP2(l->b, frame, base, (unsigned)k, ""));
    LLVMInstructionEraseFromParent(allocas[k]);
  }
  return frame;
}

/* The body as `i32 resume(state)`: a status; the state's resume point
 * RT_GEN_DONE once the body has ended. */
static LLVMValueRef resume_function(Lower *l, struct GenLower *g, const char *name, LLVMValueRef init, int *field,
                                    LLVMTypeRef *frame) {
  char fname[300];
  snprintf(fname, sizeof fname, "%s.resume", name);
  Lower r;
  lo_func_init(&r, l->mod, l->f, l->opts);
  r.callee = l->callee;
  r.gen = g;
  r.impl = init;  /* a recursive call makes another generator */
  r.fn = LLVMAddFunction(l->mod->m, fname, LLVMFunctionType(l->mod->i32, &l->mod->ptr, 1, 0));
  LLVMSetLinkage(r.fn, LLVMInternalLinkage);
  /* nothing else reaches the state while its body runs: LLVM may keep the
   * frame's fields in registers through the body's loops */
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  LLVMAddAttributeAtIndex(r.fn, 1, LLVMCreateEnumAttribute(l->mod->c, noalias, 0));
  g->self = LLVMGetParam(r.fn, 0);
  LLVMBasicBlockRef entry = new_block(&r, "entry"), start = new_block(&r, "start");
  r.exit_bb = new_block(&r, "exit");
  position(&r, entry);
  LLVMValueRef placeholder = LLVMBuildBr(r.b, start);
  position(&r, start);
  r.status = lo_alloca(&r, l->mod->i32, "status");
  r.ret_val = lo_alloca(&r, l->mod->i8, "result");
  lo_slots(&r, argument_from_state, NULL);
  lo_unbound_flags(&r);
  lo_block(&r, &l->f->body);
  if (!terminated(&r)) {
    LLVMBuildStore(r.b, const_i32(&r, RT_OK), r.status);
    LLVMBuildBr(r.b, r.exit_bb);
  }
  resume_exit(&r);
  demote_registers(&r);
  resume_switch(&r, placeholder, start);
  *frame = allocas_to_frame(&r, field);
  lo_func_done(&r);
  return r.fn;
}

/* `void drop(state)`, run by the last release: a generator suspended in
 * its body releases its locals' arrays, and every state its arguments'. */
static LLVMValueRef drop_function(Lower *l, struct GenLower *g, const char *name, const int *field, LLVMTypeRef frame) {
  char fname[300];
  snprintf(fname, sizeof fname, "%s.drop", name);
  Lower d;
  lo_func_init(&d, l->mod, l->f, l->opts);
  d.fn = LLVMAddFunction(l->mod->m, fname, LLVMFunctionType(void_type(l), &l->mod->ptr, 1, 0));
  LLVMSetLinkage(d.fn, LLVMInternalLinkage);
  LLVMValueRef s = LLVMGetParam(d.fn, 0);
  LLVMBasicBlockRef entry = new_block(&d, "entry"), locals = new_block(&d, "locals"), args = new_block(&d, "args");
  position(&d, entry);
  LLVMValueRef next = LLVMBuildLoad2(d.b, l->mod->i32, field_at(&d, g->state, s, GS_NEXT), "");
  LLVMBuildCondBr(d.b, LLVMBuildICmp(d.b, LLVMIntSGT, next, const_i32(&d, 0), ""), locals, args);
  position(&d, locals);
  LLVMValueRef one = const_i64(&d, 1), base = LLVMBuildGEP2(d.b, g->state, s, &one, 1, "frame");
  for (int v = 0; v < l->f->nvars; v++) {
    const Type *t = l->f->var_types[v];
    if (!t || !ty_has_arrays(t) || field[v] < 0) continue;
    LLVMValueRef p = LLVMBuildStructGEP2(d.b, frame, base, (unsigned)field[v], "");
    lo_refcount(&d, t, LLVMBuildLoad2(d.b, lo_type(&d, t), p, ""), false);
  }
  LLVMBuildBr(d.b, args);
  position(&d, args);
  LLVMTypeRef at = LLVMStructGetTypeAtIndex(g->state, GS_ARGS);
  for (int v = 0; v < l->f->nparams; v++) {
    const Type *t = l->f->var_types[v];
    if (!ty_has_arrays(t)) continue;
    LLVMValueRef p = LLVMBuildStructGEP2(d.b, at, field_at(&d, g->state, s, GS_ARGS), (unsigned)v, "");
    lo_refcount(&d, t, LLVMBuildLoad2(d.b, lo_type(&d, t), p, ""), false);
  }
  LLVMBuildRetVoid(d.b);
  lo_func_done(&d);
  return d.fn;
}

/* `void init(state, arguments...)`: a state made ready to start, keeping
 * its arguments (the heap's, from the body; a frame's, lo_frame_generator). */
static LLVMValueRef init_function(Lower *l, struct GenLower *g, const char *name, LLVMValueRef resume, LLVMValueRef drop) {
  char fname[300];
  snprintf(fname, sizeof fname, "%s.init", name);
  int np = l->f->nparams;
  LLVMTypeRef *params = arena_alloc(l->f->arena, sizeof(LLVMTypeRef) * (size_t)(np + 1));
  params[0] = l->mod->ptr;
  for (int v = 0; v < np; v++) params[v + 1] = lo_type(l, l->f->var_types[v]);
  Lower i;
  lo_func_init(&i, l->mod, l->f, l->opts);
  i.fn = LLVMAddFunction(l->mod->m, fname, LLVMFunctionType(void_type(l), params, (unsigned)np + 1, 0));
  LLVMSetLinkage(i.fn, LLVMInternalLinkage);
  position(&i, new_block(&i, "entry"));
  LLVMValueRef s = LLVMGetParam(i.fn, 0);
  LLVMBuildStore(i.b, const_i64(&i, 1), field_at(&i, g->state, s, GS_REFCOUNT));
  LLVMBuildStore(i.b, resume, field_at(&i, g->state, s, GS_RESUME));
  LLVMBuildStore(i.b, drop, field_at(&i, g->state, s, GS_DROP));
  LLVMBuildStore(i.b, const_i32(&i, 0), field_at(&i, g->state, s, GS_NEXT));
  LLVMTypeRef at = LLVMStructGetTypeAtIndex(g->state, GS_ARGS);
  LLVMValueRef args = field_at(&i, g->state, s, GS_ARGS);
  for (int v = 0; v < np; v++) {
    LLVMValueRef value = LLVMGetParam(i.fn, (unsigned)v + 1);
    if (ty_has_arrays(l->f->var_types[v])) lo_refcount(&i, l->f->var_types[v], value, true);
    LLVMBuildStore(i.b, value, LLVMBuildStructGEP2(i.b, at, args, (unsigned)v, ""));
  }
  LLVMBuildRetVoid(i.b);
  lo_func_done(&i);
  return i.fn;
}

/* The state and its frame, named for a frame that keeps it (lo_frame_generator). */
static void name_state(Lower *l, struct GenLower *g, const char *name, LLVMTypeRef frame) {
  char tname[300];
  snprintf(tname, sizeof tname, "%s.state", name);
  LLVMTypeRef whole = LLVMStructCreateNamed(l->mod->c, tname), fields[2] = {g->state, frame};
  LLVMStructSetBody(whole, fields, 2, 0);
}

/* The generator function's body, as any function's ({status, result}
 * of its arguments, named name): it makes the state, keeping its
 * arguments, and returns it, not yet started. */
LLVMValueRef lo_generator_body(Lower *l, const char *name) {
  struct GenLower g = {.state = state_type(l)};
  int np = l->f->nparams, nall = np + 2 * lo_checks_stack(l, l->f, l->opts);
  LLVMTypeRef *params = arena_alloc(l->f->arena, sizeof(LLVMTypeRef) * (size_t)(nall ? nall : 1));
  for (int v = 0; v < np; v++) params[v] = lo_type(l, l->f->var_types[v]);
  if (nall > np) {
    params[np] = l->mod->ptr;
    params[np + 1] = l->mod->i64;
  }
  LLVMTypeRef result[2] = {l->mod->i32, l->mod->ptr};
  LLVMTypeRef rt = LLVMStructTypeInContext(l->mod->c, result, 2, 0);
  l->impl = l->fn = LLVMAddFunction(l->mod->m, name, LLVMFunctionType(rt, params, (unsigned)nall, 0));
  LLVMSetLinkage(l->fn, LLVMInternalLinkage);
  int *field = arena_alloc(l->f->arena, sizeof(int) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  LLVMTypeRef frame;
  LLVMValueRef resume = resume_function(l, &g, name, l->fn, field, &frame);
  LLVMValueRef drop = drop_function(l, &g, name, field, frame);
  LLVMValueRef init = init_function(l, &g, name, resume, drop);
  name_state(l, &g, name, frame);
  position(l, new_block(l, "entry"));
  LLVMValueRef size = LLVMBuildAdd(l->b, LLVMSizeOf(g.state), LLVMSizeOf(frame), "size");
  LLVMValueRef s = lo_call_fn(l, "rt_gen_new", l->mod->ptr, &l->mod->i64, &size, 1);
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);  /* new memory, as malloc's */
  LLVMAddAttributeAtIndex(LLVMGetCalledValue(s), LLVMAttributeReturnIndex, LLVMCreateEnumAttribute(l->mod->c, noalias, 0));
  LLVMBasicBlockRef made = new_block(l, "made"), done = new_block(l, "done");
  LLVMValueRef failed = LLVMBuildIsNull(l->b, s, "");
  LLVMBuildCondBr(l->b, failed, done, made);
  position(l, made);
  LLVMValueRef *args = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(np + 1));
  args[0] = s;
  for (int v = 0; v < np; v++) args[v + 1] = LLVMGetParam(l->fn, (unsigned)v);
  LLVMBuildCall2(l->b, LLVMGlobalGetValueType(init), init, args, (unsigned)np + 1, "");
  LLVMBuildBr(l->b, done);
  /* one return of the state made, its status from whether it was: inlined
   * into a caller, the state the caller resumes is the one whose resume
   * function was stored, and the call through it is direct */
  position(l, done);
  LLVMValueRef status = LLVMBuildSelect(l->b, failed, const_i32(l, RT_ERR_MEMORY), const_i32(l, RT_OK), "");
  LLVMValueRef r = LLVMBuildInsertValue(l->b, LLVMGetPoison(rt), status, 0, "");
  LLVMBuildRet(l->b, LLVMBuildInsertValue(l->b, r, s, 1, ""));
  return l->impl;
}
