/* lower/prange.c — prange loops of parallel functions (analysis/parallel.c
 * decides which): the body is outlined into a chunk function the thread
 * pool runs over parts of the range; each chunk reduces into its own
 * partial, and the caller combines the partials in chunk order, so a float
 * sum comes out the same on every run. An array reduced (arr += x) has a
 * partial array per chunk, of its shape, from the identity; the caller
 * adds (or multiplies) them into the array's own elements. */
#include <math.h>

#include "lower/lower.h"

/* The identity of a reduction: what each thread's partial starts from. */
static LLVMValueRef reduction_identity(Lower *l, int op, const Type *t) {
  LLVMTypeRef ty = lo_type(l, t);
  if (ty_is_complex(t)) return lo_convert(l, const_i64(l, op == OP_MUL), TYS(TY_I64), t);  /* + and * only */
  if (ty_is_float(t)) {
    double v = op == OP_MUL ? 1.0 : op == OP_LT ? INFINITY : op == OP_GT ? -INFINITY : 0.0;
    return LLVMConstReal(ty, v);
  }
  bool sgn = ty_is_signed(t);
  int bits = t->kind == TY_BOOL ? 1 : ty_bits(t);
  switch (op) {
  case OP_MUL: return LLVMConstInt(ty, 1, 0);
  case OP_BITAND: return LLVMConstAllOnes(ty);
  case OP_LT: return sgn ? LLVMConstInt(ty, (1ull << (bits - 1)) - 1, 0) : LLVMConstAllOnes(ty);
  case OP_GT:  /* a datetime's least is NaT, which compares false: one more */
    return sgn ? LLVMConstInt(ty, (1ull << (bits - 1)) + ty_is_time(t), 0) : LLVMConstNull(ty);
  default: return LLVMConstNull(ty);
  }
}

static LLVMValueRef reduction_combine(Lower *l, int op, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (op == OP_LT || op == OP_GT)
    return LLVMBuildSelect(l->b, lo_compare_values(l, op, b, t, a, t), b, a, "");
  if (t->kind == TY_BOOL) return op == OP_BITAND ? LLVMBuildAnd(l->b, a, b, "") : LLVMBuildOr(l->b, a, b, "");
  return lo_arith(l, op, t, a, b);
}

/* The context a region's chunks share: the first error, the range, the
 * partials of the reductions, and the shared variables by value. */
enum { CTX_ERROR, CTX_START, CTX_STEP, CTX_PARTIALS, CTX_VARS };

static bool array_reduction(Lower *l, const ParPlan *plan, int v) {
  return plan->kind[v] == PAR_REDUCTION && l->f->var_types[v]->kind == TY_ARRAY;
}

/* (an array reduced is there too: its partials take its shape) */
static LLVMTypeRef region_context_type(Lower *l, const ParPlan *plan, int *field) {
  LLVMTypeRef f[CTX_VARS + 256];
  int nf = CTX_VARS;
  f[CTX_ERROR] = lo_error_type(l);
  f[CTX_PARTIALS] = l->mod->ptr;
  f[CTX_START] = f[CTX_STEP] = l->mod->i64;
  for (int v = 0; v < l->f->nvars && nf < CTX_VARS + 256; v++)
    if (plan->kind[v] == PAR_SHARED || array_reduction(l, plan, v)) {
      field[v] = nf;
      f[nf++] = lo_type(l, l->f->var_types[v]);
    }
  return LLVMStructTypeInContext(l->mod->c, f, (unsigned)nf, 0);
}

static LLVMTypeRef partials_type(Lower *l, const ParPlan *plan, int *slot) {
  LLVMTypeRef f[256];
  int nf = 0;
  for (int v = 0; v < l->f->nvars; v++)
    if (plan->kind[v] == PAR_REDUCTION) {
      slot[v] = nf;
      f[nf++] = lo_type(l, l->f->var_types[v]);
    }
  if (!nf) f[nf++] = l->mod->i8;
  return LLVMStructTypeInContext(l->mod->c, f, (unsigned)nf, 0);
}

typedef struct ChunkStart {
  const ParPlan *plan;
  LLVMTypeRef ctxty;
  LLVMValueRef ctx;
  const int *field;   /* each shared variable's field of ctx */
} ChunkStart;

/* A chunk's variables: the shared ones read from the context, the
 * reductions from their identity (an array's: a new array of its shape
 * filled with it), the private ones holding arrays empty. */
static LLVMValueRef chunk_start(Lower *l, int v, void *arg) {
  ChunkStart *c = arg;
  const Type *t = l->f->var_types[v];
  LLVMValueRef given = c->plan->kind[v] == PAR_SHARED || array_reduction(l, c->plan, v)
      ? LLVMBuildLoad2(l->b, lo_type(l, t), LLVMBuildStructGEP2(l->b, c->ctxty, c->ctx, (unsigned)c->field[v], ""), "")
      : NULL;
  switch (c->plan->kind[v]) {
  case PAR_UNUSED: return LO_NO_SLOT;
  case PAR_SHARED: return given;
  case PAR_REDUCTION:
    if (given) {
      LLVMValueRef shape[RC_MAX_NDIM];
      for (int d = 0; d < t->ndim; d++) shape[d] = lo_arr_shape(l, given, d);
      return lo_alloc_array(l, t, shape, c->plan->red_op[v] == OP_MUL ? 1 : 0);
    }
    return reduction_identity(l, c->plan->red_op[v], t);
  default: return ty_has_arrays(t) ? LLVMConstNull(lo_type(l, t)) : NULL;
  }
}

/* The outlined body: void chunk(ctx, begin, end, thread) runs iterations
 * [begin, end) with its own copies of the private and reduction variables. */
static LLVMValueRef lo_region_body(Lower *caller, Node *n, const ParPlan *plan, LLVMTypeRef ctxty,
                                   const int *field, LLVMTypeRef partty, const int *slot,
                                   LLVMValueRef start, LLVMValueRef step) {
  /* no "assigned" flags: every variable here is given a value first */
  Lower sub, *l = &sub;
  LLVMTypeRef params[4] = {caller->mod->ptr, caller->mod->i64, caller->mod->i64, caller->mod->i64};
  lo_begin_outlined(l, caller, ".prange", LLVMFunctionType(void_type(caller), params, 4, 0));
  l->parfor_errors = lo_prange_errors(caller);
  LLVMValueRef ctx = LLVMGetParam(l->fn, 0);
  lo_slots(l, chunk_start, &(ChunkStart){plan, ctxty, ctx, field});
  /* a constant start and step (the caller's range) stay constants: x[i]
   * then reads memory at a stride LLVM can see, and i is known not to be
   * negative (read from ctx, they made the vector loop gather) */
  if (!LLVMIsAConstant(start))
    start = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_START, ""), "");
  if (!LLVMIsAConstant(step))
    step = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_STEP, ""), "");
  /* chunks never start below 0: iteration numbers are not negative, nor
   * (with a literal start of 0 or more) the indices made from them */
  LLVMValueRef begin = LLVMGetParam(l->fn, 1);
  LLVMValueRef nonneg = LLVMBuildICmp(l->b, LLVMIntSGE, begin, const_i64(l, 0), "");
  lo_intrinsic(l, "llvm.assume", NULL, 0, &nonneg, 1);
  LLVMBasicBlockRef done = new_block(l, "chunk.end");
  lo_range_loop(l, n, start, step, begin, LLVMGetParam(l->fn, 2), done, done);
  position(l, done);
  LLVMValueRef parts = LLVMBuildLoad2(l->b, l->mod->ptr, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_PARTIALS, ""), "");
  LLVMValueRef mine = LLVMBuildGEP2(l->b, partty, parts, (LLVMValueRef[]){LLVMGetParam(l->fn, 3)}, 1, "");
  for (int v = 0; v < l->f->nvars; v++)
    if (plan->kind[v] == PAR_REDUCTION) {
      LLVMTypeRef vt = lo_type(l, l->f->var_types[v]);
      LLVMBuildStore(l->b, LLVMBuildLoad2(l->b, vt, l->slots[v], ""), LLVMBuildStructGEP2(l->b, partty, mine, (unsigned)slot[v], ""));
      if (array_reduction(l, plan, v)) LLVMBuildStore(l->b, LLVMConstNull(vt), l->slots[v]);  /* the partials own it now */
    }
  LLVMBuildBr(l->b, l->exit_bb);
  lo_chunk_exit(l, ctx);
  for (int v = 0; v < l->f->nvars; v++) {  /* (an array reduced: its partial where the chunk raised) */
    const Type *t = l->f->var_types[v];
    if ((plan->kind[v] == PAR_PRIVATE || array_reduction(l, plan, v)) && t && ty_has_arrays(t))
      lo_refcount(l, t, LLVMBuildLoad2(l->b, lo_type(l, t), l->slots[v], ""), false);
  }
  LLVMBuildRetVoid(l->b);
  lo_func_done(l);
  return l->fn;
}

/* The reduction partials of a region: one struct per chunk. */
typedef struct Partials {
  const ParPlan *plan;
  LLVMTypeRef type;
  LLVMValueRef base;
  const int *slot;   /* each reduction variable's field */
  int var;           /* the reduction being initialised or combined */
} Partials;

static LLVMValueRef partial_addr(Lower *l, const Partials *pa, LLVMValueRef chunk) {
  LLVMValueRef p = LLVMBuildGEP2(l->b, pa->type, pa->base, &chunk, 1, "");
  return LLVMBuildStructGEP2(l->b, pa->type, p, (unsigned)pa->slot[pa->var], "");
}

/* (an array's partial starts as no array: a chunk that never runs leaves none) */
static void init_partial(Lower *l, LLVMValueRef *chunk, void *arg) {
  Partials *pa = arg;
  const Type *t = l->f->var_types[pa->var];
  LLVMValueRef identity = t->kind == TY_ARRAY ? LLVMConstNull(lo_type(l, t)) : reduction_identity(l, pa->plan->red_op[pa->var], t);
  LLVMBuildStore(l->b, identity, partial_addr(l, pa, chunk[0]));
}

/* An array's partial combined into its elements, then released. */
typedef struct ArrayCombine {
  int op;
  const Type *t;
  LLVMValueRef acc, part;
} ArrayCombine;

static void combine_element(Lower *l, LLVMValueRef *idx, void *arg) {
  ArrayCombine *c = arg;
  const Type *e = c->t->elem;
  LLVMValueRef to = lo_element_addr(l, c->t, c->acc, idx), from = lo_element_addr(l, c->t, c->part, idx);
  lo_store_scalar(l, e, to, reduction_combine(l, c->op, e, lo_load_scalar(l, e, to), lo_load_scalar(l, e, from)));
}

static void combine_array_partial(Lower *l, const Partials *pa, LLVMValueRef chunk) {
  const Type *t = l->f->var_types[pa->var];
  LLVMValueRef part = LLVMBuildLoad2(l->b, lo_type(l, t), partial_addr(l, pa, chunk), "");
  LLVMBasicBlockRef add = new_block(l, "reduce.array"), done = new_block(l, "reduce.array_done");
  LLVMBuildCondBr(l->b, LLVMBuildIsNull(l->b, LLVMBuildExtractValue(l->b, part, 0, ""), ""), done, add);
  position(l, add);
  ArrayCombine c = {pa->plan->red_op[pa->var], t, LLVMBuildLoad2(l->b, lo_type(l, t), l->slots[pa->var], ""), part};
  LLVMValueRef shape[RC_MAX_NDIM];
  for (int d = 0; d < t->ndim; d++) shape[d] = lo_arr_shape(l, part, d);
  lo_for_each_index(l, t->ndim, shape, combine_element, &c);
  lo_refcount(l, t, part, false);
  LLVMBuildBr(l->b, done);
  position(l, done);
}

/* Where a chunk raised: the arrays the others reduced into, released. */
static void release_partial(Lower *l, LLVMValueRef *chunk, void *arg) {
  Partials *pa = arg;
  const Type *t = l->f->var_types[pa->var];
  lo_refcount(l, t, LLVMBuildLoad2(l->b, lo_type(l, t), partial_addr(l, pa, chunk[0]), ""), false);
}

static void combine_partial(Lower *l, LLVMValueRef *chunk, void *arg) {
  Partials *pa = arg;
  const Type *t = l->f->var_types[pa->var];
  if (t->kind == TY_ARRAY) {
    combine_array_partial(l, pa, chunk[0]);
    return;
  }
  LLVMValueRef part = LLVMBuildLoad2(l->b, lo_type(l, t), partial_addr(l, pa, chunk[0]), "");
  LLVMValueRef acc = l->slots[pa->var];
  LLVMValueRef cur = LLVMBuildLoad2(l->b, lo_type(l, t), acc, "");
  LLVMBuildStore(l->b, reduction_combine(l, pa->plan->red_op[pa->var], t, cur, part), acc);
}

/* for i in prange(...) with parallel=True: the body is outlined and run
 * over the pool; each chunk reduces into its own partial, and the caller
 * combines the partials in chunk order. */
void lo_parallel_for(Lower *l, Node *n, const ParPlan *plan) {
  int *field = arena_alloc(l->f->arena, sizeof(int) * (size_t)l->f->nvars);
  int *slot = arena_alloc(l->f->arena, sizeof(int) * (size_t)l->f->nvars);
  LLVMTypeRef ctxty = region_context_type(l, plan, field);
  LLVMTypeRef partty = partials_type(l, plan, slot);
  LLVMValueRef start, step;
  LLVMValueRef count = lo_range(l, n->cond, &start, &step), trips = lo_range_trips(l, count);
  LLVMValueRef body = lo_region_body(l, n, plan, ctxty, field, partty, slot, start, step);
  LLVMValueRef ctx = lo_alloca(l, ctxty, "region");
  LLVMBuildStore(l->b, const_i32(l, RT_OK), LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_ERROR, ""));
  LLVMBuildStore(l->b, start, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_START, ""));
  LLVMBuildStore(l->b, step, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_STEP, ""));
  for (int v = 0; v < l->f->nvars; v++)
    if (plan->kind[v] == PAR_SHARED || array_reduction(l, plan, v))
      LLVMBuildStore(l->b, LLVMBuildLoad2(l->b, lo_type(l, l->f->var_types[v]), l->slots[v], ""),
                     LLVMBuildStructGEP2(l->b, ctxty, ctx, (unsigned)field[v], ""));
  /* the partials live on the stack for the duration of the loop only */
  LLVMTypeRef ptrov[1] = {l->mod->ptr};
  LLVMValueRef sp = lo_intrinsic(l, "llvm.stacksave", ptrov, 1, NULL, 0);
  const char *count_fn = plan->fixed ? "pool_static_chunk_count" : "pool_chunk_count";
  LLVMValueRef nchunks = lo_call_fn(l, count_fn, l->mod->i64, &l->mod->i64, &trips, 1);
  LLVMValueRef parts = LLVMBuildArrayAlloca(l->b, partty, nchunks, "partials");
  LLVMBuildStore(l->b, parts, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_PARTIALS, ""));
  /* a serial run fills partial 0 only: the others stay at the identity */
  Partials pa = {plan, partty, parts, slot, 0};
  for (pa.var = 0; pa.var < l->f->nvars; pa.var++)
    if (plan->kind[pa.var] == PAR_REDUCTION) lo_for_each_index(l, 1, &nchunks, init_partial, &pa);
  LLVMTypeRef pp[4] = {l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i64};
  lo_call_fn(l, plan->fixed ? "pool_parallel_for_static" : "pool_parallel_for", void_type(l), pp,
             (LLVMValueRef[]){body, ctx, trips, nchunks}, 4);
  LLVMValueRef st = LLVMBuildLoad2(l->b, l->mod->i32, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_ERROR, ""), "");
  LLVMBasicBlockRef fail = new_block(l, "region.fail"), ok = new_block(l, "region.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, const_i32(l, 0), ""), fail, ok);
  position(l, fail);
  for (pa.var = 0; pa.var < l->f->nvars; pa.var++)
    if (array_reduction(l, plan, pa.var)) lo_for_each_index(l, 1, &nchunks, release_partial, &pa);
  lo_call_fn(l, "rt_error_restore", void_type(l), &l->mod->ptr, &ctx, 1);
  lo_intrinsic(l, "llvm.stackrestore", ptrov, 1, &sp, 1);
  LLVMBuildStore(l->b, st, l->status);
  LLVMBuildBr(l->b, l->exit_bb);
  position(l, ok);
  /* the variable's value before the loop, then every chunk's partial in order */
  for (pa.var = 0; pa.var < l->f->nvars; pa.var++)
    if (plan->kind[pa.var] == PAR_REDUCTION) lo_for_each_index(l, 1, &nchunks, combine_partial, &pa);
  lo_intrinsic(l, "llvm.stackrestore", ptrov, 1, &sp, 1);
  lo_range_end(l, count);
  /* the loop variable ends at the last value, as after a serial loop */
  LLVMValueRef ran = LLVMBuildICmp(l->b, LLVMIntSGT, trips, const_i64(l, 0), "");
  LLVMValueRef last = LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, LLVMBuildSub(l->b, trips, const_i64(l, 1), ""), step, ""), "");
  LLVMValueRef var = l->slots[n->lhs->var];
  LLVMTypeRef vt = lo_type(l, l->f->var_types[n->lhs->var]);
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, ran, lo_loop_value(l, n->lhs->var, last), LLVMBuildLoad2(l->b, vt, var, ""), ""), var);
  LLVMValueRef *flag = l->assigned ? &l->assigned[n->lhs->var] : NULL;
  if (flag && *flag)
    LLVMBuildStore(l->b, LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->mod->i1, *flag, ""), ran, ""), *flag);
}

/* ---------------------------------------------------------------- whole-array loops */

/* Runs chunk(ctx, begin, end, thread) over [0, trips) on the pool; ctx
 * (of type ctxty) begins with an RtError, where the first failing chunk
 * left its error, raised here once all are done. */
void lo_pool_run(Lower *l, LLVMValueRef chunk, LLVMTypeRef ctxty, LLVMValueRef ctx, LLVMValueRef trips) {
  LLVMValueRef nchunks = lo_call_fn(l, "pool_chunk_count", l->mod->i64, &l->mod->i64, &trips, 1);
  LLVMTypeRef pp[4] = {l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i64};
  lo_call_fn(l, "pool_parallel_for", void_type(l), pp, (LLVMValueRef[]){chunk, ctx, trips, nchunks}, 4);
  LLVMValueRef st = LLVMBuildLoad2(l->b, l->mod->i32, LLVMBuildStructGEP2(l->b, ctxty, ctx, 0, ""), "");
  LLVMBasicBlockRef fail = new_block(l, "pool.fail"), ok = new_block(l, "pool.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, const_i32(l, RT_OK), ""), fail, ok);
  position(l, fail);
  lo_call_fn(l, "rt_error_restore", void_type(l), &l->mod->ptr, &ctx, 1);
  lo_raise_status(l, st);
  position(l, ok);
}

typedef struct IndexLoop {
  LLVMValueRef *vals;
  int nvals;
  LoIndexBody body;
  void *arg;
} IndexLoop;

/* void chunk(ctx, begin, end, thread): the body for i in [begin, end),
 * with the caller's values read from ctx (an RtError, then the values);
 * a constant stays one, for the optimiser. */
static LLVMValueRef index_chunk(Lower *caller, const IndexLoop *x, LLVMTypeRef ctxty) {
  Lower sub, *l = &sub;
  LLVMTypeRef params[4] = {caller->mod->ptr, caller->mod->i64, caller->mod->i64, caller->mod->i64};
  lo_begin_outlined(l, caller, ".elements", LLVMFunctionType(void_type(caller), params, 4, 0));
  LLVMValueRef ctx = LLVMGetParam(l->fn, 0);
  LLVMValueRef *vals = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(x->nvals ? x->nvals : 1));
  for (int i = 0; i < x->nvals; i++)
    vals[i] = LLVMIsAConstant(x->vals[i]) ? x->vals[i]
            : LLVMBuildLoad2(l->b, LLVMTypeOf(x->vals[i]), LLVMBuildStructGEP2(l->b, ctxty, ctx, (unsigned)(1 + i), ""), "");
  LoLoop loop = lo_loop_begin(l, LLVMGetParam(l->fn, 1), LLVMGetParam(l->fn, 2), NULL, "element");
  x->body(l, loop.index, vals, x->arg);
  lo_loop_end(l, &loop);
  LLVMBuildBr(l->b, l->exit_bb);
  lo_chunk_exit(l, ctx);
  LLVMBuildRetVoid(l->b);
  lo_func_done(l);
  return l->fn;
}

static void index_loop_on_pool(Lower *l, LLVMValueRef count, const IndexLoop *x) {
  LLVMTypeRef *f = arena_alloc(l->f->arena, sizeof(LLVMTypeRef) * (size_t)(1 + x->nvals));
  f[0] = lo_error_type(l);
  for (int i = 0; i < x->nvals; i++) f[1 + i] = LLVMTypeOf(x->vals[i]);
  LLVMTypeRef ctxty = LLVMStructTypeInContext(l->mod->c, f, (unsigned)(1 + x->nvals), 0);
  LLVMValueRef chunk = index_chunk(l, x, ctxty), ctx = lo_alloca(l, ctxty, "elements");
  LLVMBuildStore(l->b, const_i32(l, RT_OK), LLVMBuildStructGEP2(l->b, ctxty, ctx, 0, ""));
  for (int i = 0; i < x->nvals; i++) LLVMBuildStore(l->b, x->vals[i], LLVMBuildStructGEP2(l->b, ctxty, ctx, (unsigned)(1 + i), ""));
  lo_pool_run(l, chunk, ctxty, ctx, count);
}

void lo_index_loop(Lower *l, LLVMValueRef count, LLVMValueRef *vals, int nvals, LoIndexBody body, void *arg) {
  IndexLoop x = {vals, nvals, body, arg};
  LLVMBasicBlockRef done = NULL;
  if (lo_pool_allowed(l)) {
    LLVMBasicBlockRef pool = new_block(l, "elements.pool"), here = new_block(l, "elements.here");
    done = new_block(l, "elements.done");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSGE, count, const_i64(l, LO_POOL_MIN_ELEMENTS), ""), pool, here);
    position(l, pool);
    index_loop_on_pool(l, count, &x);
    LLVMBuildBr(l->b, done);
    position(l, here);
  }
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "element");
  body(l, loop.index, vals, arg);
  lo_loop_end(l, &loop);
  if (done) {
    LLVMBuildBr(l->b, done);
    position(l, done);
  }
}
