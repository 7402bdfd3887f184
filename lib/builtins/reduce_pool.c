/* builtins/reduce_pool.c — a long pass of a reduction on the thread pool.
 *
 * With parallel=True (lo_pool_allowed), a pass over at least
 * LO_POOL_MIN_ELEMENTS elements of a row (np.sum(x), x.mean(),
 * np.argmax(x) ... of a contiguous or 1-d array, and each long row of an
 * axis reduction) or of an expression read by flat index (np.sum(a * b),
 * np.max(np.abs(x - y)) over contiguous arrays) is cut into the pool's
 * chunks: each chunk runs the serial pass (rd_run_row)
 * over its part into a partial of its own, and the caller merges the
 * partials in chunk order, as a prange reduction does. Chunk boundaries
 * depend only on the row's length and the thread count, so a result is
 * the same on every run with the same threads. Integer sums, min, max,
 * arg*, any and all are exactly the serial results; a float sum is the sum
 * of the chunks' pairwise sums, which may differ from NumPy's in the last
 * bits. A float product stays serial (reduce.c): in another order, a part
 * that underflowed to 0 times one that overflowed to inf would be NaN.
 */
#include <string.h>

#include "builtins/reduce.h"

/* The context the chunks share: the first error (an RtError, for
 * lo_chunk_exit), the row's memory, the pass's center, the partials, then
 * for an expression read by flat index the values of its operands. */
enum { RX_ERROR, RX_DATA, RX_DATA2, RX_STRIDE, RX_CENTER, RX_PARTS, RX_FIELDS };

static int operands_of(const Src *s) { return s->kind == SRC_FLAT ? lo_elements_operands(s->elems) : 0; }

static LLVMTypeRef context_type(Lower *l, const Pass *p, const Src *s) {
  int n = RX_FIELDS + operands_of(s);
  LLVMTypeRef *f = arena_alloc(l->f->arena, sizeof(LLVMTypeRef) * (size_t)n);
  LLVMTypeRef fixed[RX_FIELDS] = {lo_error_type(l), l->mod->ptr, l->mod->ptr, l->mod->i64,
                                  p->center ? LLVMTypeOf(p->center) : l->mod->i64, l->mod->ptr};
  memcpy(f, fixed, sizeof fixed);
  for (int i = RX_FIELDS; i < n; i++) f[i] = LLVMTypeOf(lo_elements_operand(s->elems, i - RX_FIELDS, &(const Type *){NULL}));
  return LLVMStructTypeInContext(l->mod->c, f, (unsigned)n, 0);
}

static LLVMValueRef field(Lower *l, LLVMTypeRef t, LLVMValueRef p, unsigned k) {
  return LLVMBuildStructGEP2(l->b, t, p, k, "");
}

static LLVMValueRef get(Lower *l, LLVMTypeRef ctxty, LLVMValueRef ctx, unsigned k, LLVMTypeRef t) {
  return LLVMBuildLoad2(l->b, t, field(l, ctxty, ctx, k), "");
}

static void put(Lower *l, LLVMTypeRef ctxty, LLVMValueRef ctx, unsigned k, LLVMValueRef v) {
  LLVMBuildStore(l->b, v, field(l, ctxty, ctx, k));
}

/* ------------------------------------------------ partials */

/* A partial holds the parts of a State the pass uses (a value, an index,
 * a NaN flag), in that order. */
static int state_parts(State s, LLVMValueRef out[3]) {
  int n = 0;
  out[n++] = s.v;
  if (s.i) out[n++] = s.i;
  if (s.nan) out[n++] = s.nan;
  return n;
}

static LLVMTypeRef partial_type(Lower *l, State s) {
  LLVMValueRef v[3];
  LLVMTypeRef f[3];
  int n = state_parts(s, v);
  for (int k = 0; k < n; k++) f[k] = LLVMTypeOf(v[k]);
  return LLVMStructTypeInContext(l->mod->c, f, (unsigned)n, 0);
}

static LLVMValueRef partial_at(Lower *l, LLVMTypeRef pt, LLVMValueRef parts, LLVMValueRef k) {
  return LLVMBuildInBoundsGEP2(l->b, pt, parts, &k, 1, "");
}

static void store_partial(Lower *l, LLVMTypeRef pt, LLVMValueRef at, State s) {
  LLVMValueRef v[3];
  int n = state_parts(s, v);
  for (int k = 0; k < n; k++) LLVMBuildStore(l->b, v[k], field(l, pt, at, (unsigned)k));
}

/* The partial at `at`, shaped as `like`. */
static State load_partial(Lower *l, LLVMTypeRef pt, LLVMValueRef at, State like) {
  unsigned k = 0;
  State s = {LLVMBuildLoad2(l->b, LLVMTypeOf(like.v), field(l, pt, at, k++), ""), NULL, NULL};
  if (like.i) s.i = LLVMBuildLoad2(l->b, LLVMTypeOf(like.i), field(l, pt, at, k++), "");
  if (like.nan) s.nan = LLVMBuildLoad2(l->b, LLVMTypeOf(like.nan), field(l, pt, at, k++), "");
  return s;
}

/* ------------------------------------------------ the chunks */

/* p + begin * bytes */
static LLVMValueRef moved(Lower *l, LLVMValueRef p, LLVMValueRef begin, LLVMValueRef bytes) {
  return rd_byte_at(l, p, LLVMBuildMul(l->b, begin, bytes, ""));
}

/* A row's part from element begin: its memory moved on by begin elements. */
static void row_part(Lower *l, Src *part, LLVMTypeRef ctxty, LLVMValueRef ctx, LLVMValueRef begin) {
  /* a constant stride stays one: the loads then vectorise as the serial pass's */
  if (!LLVMIsAConstant(part->stride)) part->stride = get(l, ctxty, ctx, RX_STRIDE, l->mod->i64);
  LLVMValueRef data = get(l, ctxty, ctx, RX_DATA, l->mod->ptr);
  if (part->data2) {  /* a product's factors, each contiguous */
    part->data = moved(l, data, begin, const_i64(l, rd_item_size(part->raw)));
    part->data2 = moved(l, get(l, ctxty, ctx, RX_DATA2, l->mod->ptr), begin, const_i64(l, rd_item_size(part->raw2)));
  } else {
    part->data = moved(l, data, begin, part->unit ? const_i64(l, rd_item_size(part->elem)) : part->stride);
  }
}

/* An expression's part from element begin: its operands' values from the
 * context, its flat indices from begin. */
static void flat_part(Lower *l, Src *part, LLVMTypeRef ctxty, LLVMValueRef ctx, LLVMValueRef begin) {
  int n = operands_of(part);
  LLVMValueRef *values = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    const Type *t;
    LLVMValueRef v = lo_elements_operand(part->elems, i, &t);
    /* a constant stays one (x ** 2 is then x * x) */
    values[i] = LLVMIsAConstant(v) ? v : get(l, ctxty, ctx, (unsigned)(RX_FIELDS + i), LLVMTypeOf(v));
  }
  part->elems = lo_elements_reading(l, part->elems, values);
  part->first = begin;
}

/* void chunk(ctx, begin, end, chunk): the pass over elements [begin, end)
 * of the row into partial number `chunk`. */
static LLVMValueRef row_chunk(Lower *caller, const Pass *p, const Src *s, LLVMTypeRef ctxty, LLVMTypeRef pt) {
  Lower sub, *l = &sub;
  LLVMTypeRef params[4] = {caller->mod->ptr, caller->mod->i64, caller->mod->i64, caller->mod->i64};
  lo_begin_outlined(l, caller, ".reduce", LLVMFunctionType(void_type(caller), params, 4, 0));
  LLVMValueRef ctx = LLVMGetParam(l->fn, 0), begin = LLVMGetParam(l->fn, 1), end = LLVMGetParam(l->fn, 2);
  Src part = *s;
  Pass q = *p;
  if (s->kind == SRC_FLAT)
    flat_part(l, &part, ctxty, ctx, begin);
  else
    row_part(l, &part, ctxty, ctx, begin);
  part.n = LLVMBuildSub(l->b, end, begin, "");
  if (p->center) q.center = get(l, ctxty, ctx, RX_CENTER, LLVMTypeOf(p->center));
  State r = rd_run_row(l, &q, &part, rd_identity(l, &q, 1), begin);
  LLVMValueRef parts = get(l, ctxty, ctx, RX_PARTS, l->mod->ptr);
  store_partial(l, pt, partial_at(l, pt, parts, LLVMGetParam(l->fn, 3)), r);
  LLVMBuildBr(l->b, l->exit_bb);
  lo_chunk_exit(l, ctx);
  LLVMBuildRetVoid(l->b);
  lo_func_done(l);
  return l->fn;
}

/* The first error a chunk raised (an element of an expression: 0 ** -1
 * of ints), raised here once all are done. */
static void raise_what_a_chunk_raised(Lower *l, LLVMTypeRef ctxty, LLVMValueRef ctx, LLVMValueRef sp) {
  LLVMValueRef st = get(l, ctxty, ctx, RX_ERROR, l->mod->i32);
  LLVMBasicBlockRef fail = new_block(l, "reduce.fail"), ok = new_block(l, "reduce.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, const_i32(l, RT_OK), ""), fail, ok);
  position(l, fail);
  lo_call_fn(l, "rt_error_restore", void_type(l), &l->mod->ptr, &ctx, 1);
  lo_intrinsic(l, "llvm.stackrestore", (LLVMTypeRef[]){l->mod->ptr}, 1, &sp, 1);
  lo_raise_status(l, st);
  position(l, ok);
}

/* The pass over nchunks chunks of the source on the pool, the partials
 * merged in chunk order. */
static State on_the_pool(Lower *l, const Pass *p, const Src *s, LLVMValueRef nchunks) {
  State id = rd_identity(l, p, 1);
  LLVMTypeRef ctxty = context_type(l, p, s), pt = partial_type(l, id);
  LLVMValueRef body = row_chunk(l, p, s, ctxty, pt);
  LLVMValueRef ctx = lo_alloca(l, ctxty, "reduce.pool");
  put(l, ctxty, ctx, RX_ERROR, const_i32(l, RT_OK));
  LLVMValueRef none = LLVMConstNull(l->mod->ptr);
  put(l, ctxty, ctx, RX_DATA, s->kind == SRC_ROW ? s->data : none);
  put(l, ctxty, ctx, RX_DATA2, s->data2 ? s->data2 : none);
  put(l, ctxty, ctx, RX_STRIDE, s->kind == SRC_ROW ? s->stride : const_i64(l, 0));
  for (int i = 0; i < operands_of(s); i++)
    put(l, ctxty, ctx, (unsigned)(RX_FIELDS + i), lo_elements_operand(s->elems, i, &(const Type *){NULL}));
  if (p->center) put(l, ctxty, ctx, RX_CENTER, p->center);
  /* the partials live on the stack for the duration of the pass only */
  LLVMTypeRef ptrov[1] = {l->mod->ptr};
  LLVMValueRef sp = lo_intrinsic(l, "llvm.stacksave", ptrov, 1, NULL, 0);
  LLVMValueRef parts = LLVMBuildArrayAlloca(l->b, pt, nchunks, "partials");
  put(l, ctxty, ctx, RX_PARTS, parts);
  /* a chunk no thread ran (the pool ran the row as one) stays the identity */
  LoLoop init = lo_loop_begin(l, const_i64(l, 0), nchunks, NULL, "partial");
  store_partial(l, pt, partial_at(l, pt, parts, init.index), id);
  lo_loop_end(l, &init);
  LLVMTypeRef pp[4] = {l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i64};
  lo_call_fn(l, "pool_parallel_for", void_type(l), pp, (LLVMValueRef[]){body, ctx, s->n, nchunks}, 4);
  raise_what_a_chunk_raised(l, ctxty, ctx, sp);
  StateVar acc = rd_state_var(l, id);
  LoLoop each = lo_loop_begin(l, const_i64(l, 0), nchunks, NULL, "merge");
  rd_state_store(l, &acc, rd_merge(l, p, rd_state_load(l, &acc), load_partial(l, pt, partial_at(l, pt, parts, each.index), id)));
  lo_loop_end(l, &each);
  State r = rd_state_load(l, &acc);
  lo_intrinsic(l, "llvm.stackrestore", ptrov, 1, &sp, 1);
  return r;
}

State rd_run_row_pooled(Lower *l, const Pass *p, const Src *s) {
  if (!lo_pool_allowed(l)) return rd_run_row(l, p, s, rd_identity(l, p, 1), const_i64(l, 0));
  StateVar out = rd_state_var(l, rd_identity(l, p, 1));
  LLVMBasicBlockRef count = new_block(l, "reduce.chunks"), pool = new_block(l, "reduce.pool");
  LLVMBasicBlockRef here = new_block(l, "reduce.here"), done = new_block(l, "reduce.done");
  LLVMValueRef big = LLVMBuildICmp(l->b, LLVMIntSGE, s->n, const_i64(l, LO_POOL_MIN_ELEMENTS), "");
  LLVMBuildCondBr(l->b, big, count, here);
  position(l, count);
  LLVMValueRef nchunks = lo_call_fn(l, "pool_chunk_count", l->mod->i64, &l->mod->i64, (LLVMValueRef[]){s->n}, 1);
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, nchunks, const_i64(l, 1), ""), pool, here);
  position(l, pool);
  rd_state_store(l, &out, on_the_pool(l, p, s, nchunks));
  LLVMBuildBr(l->b, done);
  position(l, here);
  rd_state_store(l, &out, rd_run_row(l, p, s, rd_identity(l, p, 1), const_i64(l, 0)));
  LLVMBuildBr(l->b, done);
  position(l, done);
  return rd_state_load(l, &out);
}
