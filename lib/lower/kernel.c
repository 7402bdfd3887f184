/* lower/kernel.c — CUDA kernels on the CPU.
 *
 * A @cuda.jit kernel becomes: an entry that runs the grid's blocks over the
 * thread pool, and a chunk function that runs blocks [begin, end) one after
 * the other. A block without syncthreads is one loop over its threads (tx
 * innermost, so LLVM can vectorise across threads). A block with
 * syncthreads is split at each barrier into loops over all its threads
 * (loop fission, as MCUDA and PoCL do): statements that contain a barrier
 * (if/for/while around it) run once per block with their conditions checked
 * to be the same for every thread, and every variable lives in per-thread
 * storage so values cross the barriers. Which of these a kernel gets, and
 * which variables are uniform, analysis/kernel.c decides; barriers it
 * cannot split at make the threads fibers (fibers.c).
 */
#include <string.h>

#include "lower/lower.h"
#include "ir.h"

LLVMTypeRef lo_launch_type(Lower *l) {
  LLVMTypeRef three = LLVMArrayType2(l->mod->i64, 3);
  LLVMTypeRef f[3] = {three, three, l->mod->i64};
  return LLVMStructTypeInContext(l->mod->c, f, 3, 0);
}

/* Collects the shared and local array call sites. */
static bool note_memory(Node *n, void *ctx) {
  Lower *l = ctx;
  if (n->kind == N_CALL && (n->bi->flags & BF_BLOCK_MEMORY) && l->nmem < 256)
    l->mem_nodes[l->nmem++] = n;
  return true;
}

/* Storage of a block, count elements of elem: on the chunk's stack, or from
 * the heap when it is big (a local array times the block's threads can pass
 * any thread's stack; a GPU's local memory holds it), freed at the chunk's
 * exit from a slot that is null until then. */
#define STACK_STORAGE_MAX ((int64_t)64 << 10)

static LLVMValueRef null_slot(Lower *l, const char *name) {
  LLVMValueRef slot = lo_alloca(l, l->mod->ptr, name);
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(l->b);
  LLVMValueRef next = LLVMGetNextInstruction(slot);
  if (next) LLVMPositionBuilderBefore(l->b, next);
  else position(l, LLVMGetInstructionParent(slot));
  LLVMBuildStore(l->b, LLVMConstNull(l->mod->ptr), slot);
  position(l, cur);
  return slot;
}

static LLVMValueRef block_storage(Lower *l, LLVMTypeRef elem, LLVMValueRef count, const char *name) {
  LLVMValueRef bytes = LLVMBuildMul(l->b, count, LLVMSizeOf(elem), "");
  LLVMValueRef big = LLVMBuildICmp(l->b, LLVMIntSGT, bytes, const_i64(l, STACK_STORAGE_MAX), "");
  LLVMValueRef stack = LLVMBuildArrayAlloca(l->b, l->mod->i8, LLVMBuildSelect(l->b, big, const_i64(l, 1), bytes, ""), name);
  LLVMSetAlignment(stack, 64);
  LLVMValueRef asked = LLVMBuildSelect(l->b, big, bytes, const_i64(l, 0), "");
  LLVMValueRef heap = lo_call_fn(l, "rt_block_storage", l->mod->ptr, &l->mod->i64, &asked, 1);
  LLVMValueRef slot = null_slot(l, "storage.heap");
  LLVMBuildStore(l->b, heap, slot);
  l->heap_slots[l->nheap_slots++] = slot;
  lo_raise_if(l, LLVMBuildAnd(l->b, big, LLVMBuildIsNull(l->b, heap, ""), ""), RT_ERR_MEMORY,
              "cannot allocate the storage of a kernel's block");
  return LLVMBuildSelect(l->b, big, heap, stack, name);
}

static void free_block_storage(Lower *l) {
  for (int i = 0; i < l->nheap_slots; i++) {
    LLVMValueRef p = LLVMBuildLoad2(l->b, l->mod->ptr, l->heap_slots[i], "");
    lo_call_fn(l, "rt_block_storage_free", void_type(l), &l->mod->ptr, &p, 1);
  }
}

/* Storage for every shared/local array at the chunk's entry. */
static void kernel_memory(Lower *l) {
  l->mem_nodes = arena_alloc(l->f->arena, sizeof(Node *) * 256);
  l->mem_base = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * 256);
  ir_walk_list(&l->f->body, note_memory, l);
  for (int i = 0; i < l->nmem; i++) {
    Node *n = l->mem_nodes[i];
    int64_t bytes = lo_cuda_array_bytes(n);
    if ((n->bi->flags & BF_PER_THREAD) && l->fibers) continue;  /* on each fiber's own stack: mem_base NULL */
    LLVMValueRef count = const_i64(l, bytes ? bytes : 1);
    if ((n->bi->flags & BF_PER_THREAD) && l->fission) count = LLVMBuildMul(l->b, count, l->nthreads, "");
    count = LLVMBuildAdd(l->b, count, const_i64(l, lo_cuda_array_slack(n)), "");
    l->mem_base[i] = lo_cuda_aligned(l, n, block_storage(l, l->mod->i8, count, "shared"));
  }
  LLVMValueRef dyn = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildStructGEP2(l->b, lo_launch_type(l), l->launch, 2, ""), "");
  l->dyn_shared = block_storage(l, l->mod->i8, LLVMBuildAdd(l->b, dyn, const_i64(l, 1), ""), "dynshared");
}

LLVMValueRef lo_cuda_thread(Lower *l) {
  if (l->thread) return l->thread;
  LLVMValueRef yz = LLVMBuildAdd(l->b, LLVMBuildMul(l->b, l->tid[2], l->bdim[1], ""), l->tid[1], "");
  return LLVMBuildAdd(l->b, LLVMBuildMul(l->b, yz, l->bdim[0], ""), l->tid[0], "thread");
}

/* Points every variable's slot at thread t's storage (fission). */
static void bind_thread_slots(Lower *l, LLVMValueRef t) {
  l->thread = t;
  if (!l->fission) return;
  for (int v = 0; v < l->f->nvars; v++)
    if (l->var_base[v])
      l->slots[v] = LLVMBuildGEP2(l->b, lo_type(l, l->f->var_types[v]), l->var_base[v], &t, 1, "");
  for (int i = 0; i < l->kplan->nremat; i++) {  /* cheaper to recompute than to keep per thread */
    int v = l->kplan->remat_order[i];
    Node *rhs = l->kplan->remat[v];
    LLVMBuildStore(l->b, lo_convert(l, lo_expr(l, rhs), rhs->ty, l->f->var_types[v]), l->slots[v]);
  }
}

typedef void (*ThreadBody)(Lower *l, void *arg);

/* for tz, ty, tx over the block (tx below tx_end where given, else
 * blockDim.x): body(arg) for each live thread. */
static void thread_loop_to(Lower *l, LLVMValueRef tx_end, ThreadBody body, void *arg) {
  LoLoop loops[3];
  for (int d = 2; d >= 0; d--) {
    loops[d] = lo_loop_begin(l, const_i64(l, 0), d == 0 && tx_end ? tx_end : l->bdim[d], NULL, "thread");
    l->tid[d] = loops[d].index;
  }
  LLVMValueRef t = LLVMBuildAdd(l->b, LLVMBuildMul(l->b, LLVMBuildAdd(l->b, LLVMBuildMul(l->b, l->tid[2], l->bdim[1], ""), l->tid[1], ""),
                                                  l->bdim[0], ""), l->tid[0], "tid");
  bind_thread_slots(l, t);
  l->next_thread = loops[0].latch;
  if (l->fission && l->kplan->returns) {  /* threads that returned sit out the rest of the block */
    LLVMBasicBlockRef live = new_block(l, "thread.live");
    LLVMValueRef gone = LLVMBuildLoad2(l->b, l->mod->i8, LLVMBuildGEP2(l->b, l->mod->i8, l->done, &t, 1, ""), "");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, gone, LLVMConstInt(l->mod->i8, 0, 0), ""), loops[0].latch, live);
    position(l, live);
  }
  body(l, arg);
  for (int d = 0; d < 3; d++) lo_loop_end(l, &loops[d]);
  memset(l->tid, 0, sizeof l->tid);
}

static void thread_loop(Lower *l, ThreadBody body, void *arg) { thread_loop_to(l, NULL, body, arg); }

/* thread_loop for blocks whose rows hold whole warps (blockDim.x a
 * multiple of 32): tx runs as warps of 32 lanes, the lane a loop index
 * of its own, so that a shuffle's source lanes are fixed offsets the
 * vectoriser sees (warp.c) and no warp reaches past the block. */
static void warp_loop(Lower *l, ThreadBody body, void *arg) {
  LoLoop loops[3], lanes;
  for (int d = 2; d >= 0; d--) {
    LLVMValueRef to = d ? l->bdim[d] : LLVMBuildLShr(l->b, l->bdim[0], const_i64(l, 5), "");
    loops[d] = lo_loop_begin(l, const_i64(l, 0), to, NULL, d ? "thread" : "warp");
    l->tid[d] = loops[d].index;
  }
  lanes = lo_loop_begin(l, const_i64(l, 0), const_i64(l, RC_WARP), NULL, "lane");
  l->tid[0] = LLVMBuildAdd(l->b, LLVMBuildShl(l->b, loops[0].index, const_i64(l, 5), ""), lanes.index, "tx");
  l->lane = lanes.index;
  l->thread = NULL;  /* the previous loop's */
  bind_thread_slots(l, lo_cuda_thread(l));
  l->next_thread = lanes.latch;
  body(l, arg);
  lo_loop_end(l, &lanes);
  for (int d = 0; d < 3; d++) lo_loop_end(l, &loops[d]);
  memset(l->tid, 0, sizeof l->tid);
  l->lane = NULL;
}

typedef struct Segment {
  NodeList *stmts;
  int from, to;
} Segment;

static void run_segment(Lower *l, void *arg) {
  Segment *sg = arg;
  Loop *outer = l->loop;
  l->loop = NULL;  /* a break here cannot leave a loop run once per block */
  for (int i = sg->from; i < sg->to && !terminated(l); i++) lo_stmt(l, sg->stmts->items[i]);
  l->loop = outer;
}

/* body for each thread of the block: by warps where its rows hold whole
 * warps (blockDim.x a multiple of 32), else thread by thread. */
static void by_warps_where_whole(Lower *l, ThreadBody body, void *arg) {
  LLVMValueRef rows = LLVMBuildAnd(l->b, l->bdim[0], const_i64(l, RC_WARP - 1), "");
  LLVMBasicBlockRef warps = new_block(l, "warps"), threads = new_block(l, "threads"), done = new_block(l, "warps.done");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, rows, const_i64(l, 0), ""), warps, threads);
  position(l, warps);
  warp_loop(l, body, arg);
  LLVMBuildBr(l->b, done);
  position(l, threads);
  thread_loop(l, body, arg);
  LLVMBuildBr(l->b, done);
  position(l, done);
}

static void init_params(Lower *l, void *arg) {
  LLVMValueRef *vals = arg;
  for (int v = 0; v < l->f->nparams; v++)
    if (l->slots[v] && l->var_base[v]) LLVMBuildStore(l->b, vals[v], l->slots[v]);
}

static void store_loop_var(Lower *l, void *arg) {
  LLVMValueRef *kv = arg;
  LLVMBuildStore(l->b, kv[1], l->slots[(int)LLVMConstIntGetSExtValue(kv[0])]);
}

static void lo_kernel_block(Lower *l, NodeList *b);

/* ---------------------------------------------------------------- collectives */

/* What a shuffle on the CPU does not read: its member mask; and its lane
 * or delta where every thread gives the same (then read once, and the
 * source lanes are the thread's neighbours at a fixed distance, which
 * vectorises). */
static bool gathered(Lower *l, Node *call, int slot) {
  if (call->bi->ival > COLL_SHFL_XOR) return true;
  return slot == 1 || (slot == 2 && !l->coll_lane);
}

/* Phase one of a collective: the thread's arguments into the gathered slots. */
static void gather_arguments(Lower *l, void *arg) {
  Node *call = arg;
  LLVMValueRef t = l->thread;
  for (int i = 0; i < call->list.len; i++) {
    Node *a = call->list.items[i];
    int slot = lo_collective_slot(call->bi->ival, i);
    LLVMValueRef bits = lo_to_bits(l, lo_expr(l, a), a->ty);
    if (gathered(l, call, slot))
      LLVMBuildStore(l->b, bits, LLVMBuildGEP2(l->b, l->mod->i64, l->coll_args[slot], &t, 1, ""));
  }
}

/* Where a shuffle can read its lanes' values without gathering them: a
 * variable kept per thread, which the statement does not assign, or
 * assigns only behind its reads (shfl_down reads lanes at or above its
 * own, and the threads run in ascending order); with a lane or delta the
 * same in every thread, nothing is left to gather. NULL otherwise. */
static LLVMValueRef shuffled_in_place(Lower *l, Node *stmt, Node *call) {
  int op = call->bi->ival;
  Node *value = op <= COLL_SHFL_XOR ? call->list.items[1] : NULL;
  if (!value || !l->coll_lane || value->kind != N_VAR || !l->var_base[value->var]) return NULL;
  bool assigns = (stmt->kind == N_ASSIGN || stmt->kind == N_AUGASSIGN) && stmt->lhs->kind == N_VAR &&
                 stmt->lhs->var == value->var;
  return !assigns || op == COLL_SHFL_DOWN ? l->var_base[value->var] : NULL;
}

/* The statement holding the collective l->coll, run by every thread.
 * A shuffle by a delta every thread shares, in a kernel where no thread
 * returns, runs by warps when the block's rows hold whole warps. */
static void run_collective_statement(Lower *l, Node *stmt) {
  Segment sg = {&(NodeList){&stmt, 1}, 0, 1};
  int op = l->coll->bi->ival;
  bool by_warps = l->coll_lane && op != COLL_SHFL_IDX && op <= COLL_SHFL_XOR && !l->kplan->returns &&
                  (op != COLL_SHFL_XOR || l->coll_pow2);
  if (!by_warps) {
    thread_loop(l, run_segment, &sg);
    return;
  }
  by_warps_where_whole(l, run_segment, &sg);
}

/* A statement whose whole value is a collective (analysis/collective.c put
 * it so): every thread's arguments are gathered, the results computed for
 * the block (a shuffle computes its own, inline), then every thread runs
 * the statement with its result. The lanes of a warp so run in step. */
static void lo_kernel_collective(Lower *l, Node *stmt, Node *call) {
  int op = call->bi->ival;
  if (call->bi->flags & BF_GRID) {  /* the block waits for the grid's other blocks (fiber.c) */
    LLVMValueRef handle = LLVMGetParam(l->fn, 3);  /* the chunk's: which block of rt_grid_run it is */
    lo_call_fn(l, "rt_grid_sync", void_type(l), &l->mod->i64, &handle, 1);
    return;
  }
  if (!call->list.len && call->ty->kind == TY_NONE) return;  /* a barrier alone: the split is all */
  Node *lane = op <= COLL_SHFL_XOR ? call->list.items[2] : NULL;
  l->coll_lane = lane && an_uniform(l->kplan, lane) ? lo_to_bits(l, lo_expr(l, lane), lane->ty) : NULL;
  l->coll_values = shuffled_in_place(l, stmt, call);
  if (call->list.len && !l->coll_values) thread_loop(l, gather_arguments, call);
  if (op == COLL_SHFL_XOR && l->coll_lane && !l->kplan->returns) {
    /* lane ^ d is lane + d or lane - d when d is a power of two, as it is
     * in butterfly reductions: that loop vectorises, the other gathers */
    LLVMValueRef d = LLVMBuildAnd(l->b, l->coll_lane, const_i64(l, RC_WARP - 1), "");
    LLVMValueRef pow2 = LLVMBuildICmp(l->b, LLVMIntEQ, LLVMBuildAnd(l->b, d, LLVMBuildSub(l->b, d, const_i64(l, 1), ""), ""),
                                      const_i64(l, 0), "");
    LLVMBasicBlockRef fast = new_block(l, "xor.pow2"), slow = new_block(l, "xor.any"), done = new_block(l, "xor.done");
    LLVMBuildCondBr(l->b, pow2, fast, slow);
    for (int k = 0; k < 2; k++) {
      position(l, k ? slow : fast);
      l->coll = call;
      l->coll_pow2 = !k;
      run_collective_statement(l, stmt);
      LLVMBuildBr(l->b, done);
    }
    position(l, done);
    l->coll = NULL;
    l->coll_pow2 = false;
    l->coll_lane = NULL;
    l->coll_values = NULL;
    return;
  }
  if (op > COLL_SHFL_XOR && op != COLL_SYNCWARP) {
    LLVMTypeRef p[7] = {l->mod->i32, l->mod->i64, l->mod->ptr, l->mod->ptr, l->mod->ptr, l->mod->ptr, l->mod->ptr};
    LLVMValueRef a[7] = {const_i32(l, op), l->nthreads, l->done, l->coll_args[0], l->coll_args[1], l->coll_args[2], l->coll_out};
    lo_call_fn(l, "rt_collective", void_type(l), p, a, 7);
  }
  if (stmt->kind == N_EXPR && call->ty->kind == TY_NONE) return;  /* syncwarp(mask) */
  l->coll = call;
  run_collective_statement(l, stmt);
  l->coll = NULL;
  l->coll_lane = NULL;
  l->coll_values = NULL;
}

/* The condition of a statement holding a barrier, evaluated once per block:
 * it is uniform, or the kernel would run as fibers. */
static LLVMValueRef block_cond(Lower *l, Node *cond) {
  return lo_truth(l, lo_expr(l, cond), cond->ty);
}

/* A statement holding a barrier, run once per block. */
static void lo_kernel_uniform(Lower *l, Node *n) {
  if (n->kind == N_BLOCK) {
    lo_kernel_block(l, &n->body);
  } else if (n->kind == N_IF) {
    LLVMBasicBlockRef then = new_block(l, "uif.then"), other = new_block(l, "uif.else"), done = new_block(l, "uif.end");
    LLVMBuildCondBr(l->b, block_cond(l, n->cond), then, other);
    position(l, then);
    lo_kernel_block(l, &n->body);
    LLVMBuildBr(l->b, done);
    position(l, other);
    lo_kernel_block(l, &n->orelse);
    LLVMBuildBr(l->b, done);
    position(l, done);
  } else if (n->kind == N_WHILE) {
    LLVMBasicBlockRef head = new_block(l, "uwhile"), body = new_block(l, "uwhile.body"), done = new_block(l, "uwhile.end");
    LLVMBuildBr(l->b, head);
    position(l, head);
    LLVMBuildCondBr(l->b, block_cond(l, n->cond), body, done);
    position(l, body);
    lo_kernel_block(l, &n->body);
    LLVMBuildBr(l->b, head);
    position(l, done);
    lo_kernel_block(l, &n->orelse);
  } else {  /* N_FOR: the range as thread 0 sees it */
    for (int d = 0; d < 3; d++) l->tid[d] = const_i64(l, 0);
    bind_thread_slots(l, const_i64(l, 0));
    LLVMValueRef start, step;
    LLVMValueRef count = lo_range(l, n->cond, &start, &step);
    memset(l->tid, 0, sizeof l->tid);
    LoLoop loop = lo_loop_begin(l, const_i64(l, 0), lo_range_trips(l, count), NULL, "ufor");
    LLVMValueRef kv[2] = {const_i64(l, n->lhs->var),
                          lo_loop_value(l, n->lhs->var, LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, loop.index, step, ""), ""))};
    if (l->kplan->uniform[n->lhs->var])
      LLVMBuildStore(l->b, kv[1], l->slots[n->lhs->var]);
    else
      thread_loop(l, store_loop_var, kv);
    lo_kernel_block(l, &n->body);
    lo_loop_end(l, &loop);
    lo_range_end(l, count);
    lo_kernel_block(l, &n->orelse);
  }
}

static bool names_lane(Node *n, void *found) {
  if (n->bi && !strcmp(n->bi->name, "cuda.laneid")) *(bool *)found = true;
  return !*(bool *)found;
}

/* cuda.threadIdx.x, or a variable each thread sets to it once */
static bool thread_x(Lower *l, const Node *n) {
  if (n->kind == N_VAR && l->kplan->remat && l->kplan->remat[n->var]) n = l->kplan->remat[n->var];
  return n->bi && (n->bi->flags & BF_THREAD_INDEX) && !strcmp(n->bi->name, "cuda.threadIdx") && n->bi->ival == 0;
}

/* Where sg is one `if threadIdx.x < e:` with no else, e an int literal or
 * an int variable the same in every thread: the threads from e on do
 * nothing in it, and the loop over them ends at e (or at blockDim.x). A
 * tree reduction's halving step (`if tid < s: sh[tid] += sh[tid + s]`)
 * then runs s threads, not the whole block: 255 iterations for a block of
 * 256 over its 8 steps, not 2,048. NULL for other segments. */
static LLVMValueRef guarded_threads_end(Lower *l, const Segment *sg) {
  if (sg->to - sg->from != 1) return NULL;
  const Node *n = sg->stmts->items[sg->from], *c = n->cond;
  if (n->kind != N_IF || n->orelse.len || c->kind != N_COMPARE || c->list.len != 2 || c->ops[0] != OP_LT)
    return NULL;
  const Node *t = c->list.items[0], *e = c->list.items[1];
  bool whole = e->kind == N_INT || (e->kind == N_VAR && l->kplan->uniform[e->var] && !l->var_base[e->var] &&
                                    l->f->var_types[e->var]->kind == TY_I64);
  if (!thread_x(l, t) || !whole || e->ty->kind != TY_I64 || t->ty->kind != TY_I64) return NULL;
  LLVMValueRef end = e->kind == N_INT ? const_i64(l, e->ival)
                                      : LLVMBuildLoad2(l->b, l->mod->i64, l->slots[e->var], "");
  return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, end, l->bdim[0], ""), end, l->bdim[0], "");
}

/* body for each thread of the block, which runs the statements of sg.
 * Statements that read cuda.laneid (`if cuda.laneid == 0:` after a
 * warp's reduction) run by warps where the block's rows hold whole warps:
 * the lane is then a loop index, and the test of lane 0 peels off the
 * warp's first thread instead of testing every thread. */
static void run_threads(Lower *l, Segment *sg, ThreadBody body, void *arg) {
  bool lane = false;
  for (int i = sg->from; i < sg->to && !lane; i++) ir_walk(sg->stmts->items[i], names_lane, &lane);
  if (!lane || l->kplan->returns) {
    thread_loop_to(l, guarded_threads_end(l, sg), body, arg);
    return;
  }
  by_warps_where_whole(l, body, arg);
}

/* ---------------------------------------------------------------- loops in step */

/* A loop each thread runs over its own range (analysis/kernel.c's
 * lockstep_loop), run by the block's threads in step: iteration k of
 * every thread that has one, for k up to the most any thread has. Where
 * every thread's range starts at 0 or above and rises (a grid-stride
 * loop; below 2**61, so that no start + k * step overflows), a thread has
 * iteration k while start + k * step < stop, the thread with the least
 * start has the most, and the passes are told the values are never
 * negative: an index made of one then needs no wrap-around, and the
 * threads' elements load as one vector. Otherwise each thread's count of
 * iterations is kept per thread. */
typedef struct Lockstep {
  Node *loop;
  LLVMValueRef rising;      /* i1 alloca: every thread's range starts at 0 or above and rises */
  LLVMValueRef least;       /* i64 alloca: the least start */
  LLVMValueRef stop, step;  /* i64 allocas: the range's stop and step (the same in every thread) */
  LLVMValueRef most;        /* i64 alloca: the most iterations of any thread */
  LLVMValueRef k;           /* the iteration the threads run now */
  bool counted;             /* the passes read each thread's count (l->trips) */
} Lockstep;

static LLVMValueRef load_i64(Lower *l, LLVMValueRef slot) { return LLVMBuildLoad2(l->b, l->mod->i64, slot, ""); }

/* The thread's range (range()'s checks raise here): whether it rises from
 * 0 or above, the least start so far. */
static void see_range(Lower *l, void *arg) {
  Lockstep *ls = arg;
  LLVMValueRef start, stop, step, small = const_i64(l, (int64_t)1 << 61);
  lo_range_parts(l, ls->loop->cond, &start, &stop, &step);
  LLVMBuildStore(l->b, stop, ls->stop);
  LLVMBuildStore(l->b, step, ls->step);
  LLVMValueRef ok = LLVMBuildICmp(l->b, LLVMIntULT, start, small, "");  /* also not negative */
  ok = LLVMBuildAnd(l->b, ok, LLVMBuildICmp(l->b, LLVMIntSLT, stop, small, ""), "");
  ok = LLVMBuildAnd(l->b, ok, LLVMBuildICmp(l->b, LLVMIntSGT, step, const_i64(l, 0), ""), "");
  ok = LLVMBuildAnd(l->b, ok, LLVMBuildICmp(l->b, LLVMIntSLT, step, small, ""), "");
  LLVMBuildStore(l->b, LLVMBuildAnd(l->b, LLVMBuildLoad2(l->b, l->mod->i1, ls->rising, ""), ok, ""), ls->rising);
  LLVMValueRef least = load_i64(l, ls->least);
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, start, least, ""), start, least, ""), ls->least);
}

/* The thread's count of iterations, and the most so far. */
static void count_iterations(Lower *l, void *arg) {
  Lockstep *ls = arg;
  LLVMValueRef start, step;
  LLVMValueRef trips = lo_range_trips(l, lo_range(l, ls->loop->cond, &start, &step));
  LLVMBuildStore(l->b, trips, LLVMBuildGEP2(l->b, l->mod->i64, l->trips, &l->thread, 1, ""));
  LLVMValueRef most = load_i64(l, ls->most);
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntUGT, trips, most, ""), trips, most, ""), ls->most);
}

/* Iteration k of the thread, if it has one: its start and the step are
 * computed again (the analysis made sure they are cheap and unchanged). */
static void step_iteration(Lower *l, void *arg) {
  Lockstep *ls = arg;
  Node *n = ls->loop, *r = n->cond;
  LLVMValueRef start = lo_expr_as(l, r->list.items[0], TYS(TY_I64));
  LLVMValueRef step = r->list.len == 3 ? lo_expr_as(l, r->list.items[2], TYS(TY_I64)) : const_i64(l, 1);
  LLVMValueRef v = LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, ls->k, step, ""), "");
  LLVMValueRef has;
  if (ls->counted) {
    LLVMValueRef trips = load_i64(l, LLVMBuildGEP2(l->b, l->mod->i64, l->trips, &l->thread, 1, ""));
    has = LLVMBuildICmp(l->b, LLVMIntULT, ls->k, trips, "");
  } else {
    has = LLVMBuildICmp(l->b, LLVMIntSLT, v, load_i64(l, ls->stop), "");
  }
  LLVMBasicBlockRef go = new_block(l, "step.go");
  LLVMBuildCondBr(l->b, has, go, l->next_thread);
  position(l, go);
  if (!ls->counted) {
    LLVMValueRef c = LLVMBuildICmp(l->b, LLVMIntSGE, v, const_i64(l, 0), "");
    lo_intrinsic(l, "llvm.assume", NULL, 0, &c, 1);
  }
  lo_store_loop_var(l, n->lhs->var, v);
  lo_mark_assigned(l, n->lhs->var);
  Loop loop = {l->next_thread, l->next_thread, NULL}, *outer = l->loop;  /* continue: on to the next thread */
  l->loop = &loop;
  lo_block(l, &n->body);
  l->loop = outer;
}

static void lo_lockstep(Lower *l, NodeList *b, int i) {
  LLVMTypeRef i64 = l->mod->i64;
  Lockstep ls = {b->items[i], lo_alloca(l, l->mod->i1, "step.rising"), lo_alloca(l, i64, "step.least"),
                 lo_alloca(l, i64, "step.stop"), lo_alloca(l, i64, "step.step"), lo_alloca(l, i64, "step.most"), NULL, false};
  LLVMBuildStore(l->b, const_bool(l, true), ls.rising);
  LLVMBuildStore(l->b, const_i64(l, INT64_MAX), ls.least);
  LLVMBuildStore(l->b, const_i64(l, 0), ls.most);
  thread_loop(l, see_range, &ls);
  LLVMBasicBlockRef rising = new_block(l, "step.rising"), other = new_block(l, "step.counted"), done = new_block(l, "step.done");
  LLVMBuildCondBr(l->b, LLVMBuildLoad2(l->b, l->mod->i1, ls.rising, ""), rising, other);
  for (int counted = 0; counted < 2; counted++) {
    position(l, counted ? other : rising);
    ls.counted = counted;
    if (counted) thread_loop(l, count_iterations, &ls);
    LLVMValueRef most = counted ? load_i64(l, ls.most) : lo_range_count(l, load_i64(l, ls.least), load_i64(l, ls.stop), load_i64(l, ls.step));
    LoLoop k = lo_loop_begin(l, const_i64(l, 0), most, NULL, "step");
    ls.k = k.index;
    run_threads(l, &(Segment){b, i, i + 1}, step_iteration, &ls);
    lo_loop_end(l, &k);
    LLVMBuildBr(l->b, done);
  }
  position(l, done);
}

/* ---------------------------------------------------------------- prefetching the next block */

/* The loads a segment makes from an array the kernel was given, at an
 * index each thread computes from its thread and block indices alone
 * (`x[cuda.grid(1)]`), move on with the block: the next block of the
 * chunk reads the span past this one's. A block's segment reads its span
 * in a burst and then works on shared memory (a tree reduction) while
 * nothing asks for more; the hardware's prefetchers do not look that far
 * ahead, so each burst waited for memory. Before a segment runs, the
 * lines the next block's threads will read are prefetched (a hint: no
 * fault, no change in what the kernel computes). */
#define PREFETCH_SITES 4
#define PREFETCH_SPAN_MAX ((int64_t)64 << 10)

/* Whether n is an int64 each thread computes from its indices, constants
 * and variables the same in the whole block, by + - * (nothing that can
 * raise); *moves notes that it reads something that differs between
 * blocks (the block's index). */
static bool block_affine(Lower *l, const Node *n, bool *moves) {
  if (!n->ty || n->ty->kind != TY_I64) return false;
  switch (n->kind) {
  case N_INT: return true;
  case N_VAR:
    if (l->kplan->remat[n->var]) return block_affine(l, l->kplan->remat[n->var], moves);
    return l->kplan->uniform[n->var] && !l->var_base[n->var] && !(l->assigned && l->assigned[n->var]);
  case N_CALL:
    if (!n->bi || !(n->bi->flags & BF_THREAD_INDEX)) return false;
    *moves |= (n->bi->flags & BF_PER_BLOCK) != 0;
    return true;
  case N_BINOP:
    return (n->op == OP_ADD || n->op == OP_SUB || n->op == OP_MUL) && block_affine(l, n->lhs, moves) &&
           block_affine(l, n->rhs, moves);
  default: return false;
  }
}

/* A block_affine value for the thread and block in l->tid and l->bid. */
static LLVMValueRef block_affine_value(Lower *l, Node *n) {
  if (n->kind == N_VAR && l->kplan->remat[n->var]) return block_affine_value(l, l->kplan->remat[n->var]);
  if (n->kind != N_BINOP) return lo_expr(l, n);
  LLVMValueRef a = block_affine_value(l, n->lhs), b = block_affine_value(l, n->rhs);
  return n->op == OP_ADD ? LLVMBuildAdd(l->b, a, b, "") : n->op == OP_SUB ? LLVMBuildSub(l->b, a, b, "")
                                                         : LLVMBuildMul(l->b, a, b, "");
}

typedef struct Prefetch {
  Lower *l;
  Node *sites[PREFETCH_SITES];
  int n;
} Prefetch;

/* An element of an array argument (never reassigned per thread) at block_affine indices that move with the block. */
static bool note_prefetch_site(Node *n, void *ctx) {
  Prefetch *p = ctx;
  Lower *l = p->l;
  if (n->kind != N_INDEX || p->n == PREFETCH_SITES || n->lhs->kind != N_VAR || n->lhs->var >= l->f->nparams ||
      n->lhs->ty->kind != TY_ARRAY || n->ty->kind == TY_ARRAY || !l->kplan->uniform[n->lhs->var] ||
      l->var_base[n->lhs->var] || l->kplan->remat[n->lhs->var])
    return true;
  const Node *r = n->rhs;
  bool moves = false, ok = r->kind == N_TUPLE ? r->list.len == n->lhs->ty->ndim : n->lhs->ty->ndim == 1;
  for (int i = 0; ok && i < (r->kind == N_TUPLE ? r->list.len : 1); i++)
    ok = block_affine(l, r->kind == N_TUPLE ? r->list.items[i] : r, &moves);
  if (ok && moves) p->sites[p->n++] = n;
  return true;
}

/* The address of site's element for thread `corner` of the next block
 * (0: the first, 1: the last in every dimension); no wrap, no check. */
static LLVMValueRef next_block_address(Lower *l, Node *site, int corner) {
  LLVMValueRef tid[3], bid0 = l->bid[0], idx[RC_MAX_NDIM];
  memcpy(tid, l->tid, sizeof tid);
  l->bid[0] = LLVMBuildAdd(l->b, bid0, const_i64(l, 1), "");
  for (int d = 0; d < 3; d++) l->tid[d] = corner ? LLVMBuildSub(l->b, l->bdim[d], const_i64(l, 1), "") : const_i64(l, 0);
  Node *r = site->rhs;
  int nd = r->kind == N_TUPLE ? r->list.len : 1;
  for (int d = 0; d < nd; d++) idx[d] = block_affine_value(l, r->kind == N_TUPLE ? r->list.items[d] : r);
  LLVMValueRef a = lo_expr(l, site->lhs), offset = lo_strided_offset(l, site->lhs->ty, a, idx);
  memcpy(l->tid, tid, sizeof tid);
  l->bid[0] = bid0;
  return LLVMBuildPtrToInt(l->b, LLVMBuildGEP2(l->b, l->mod->i8, LLVMBuildExtractValue(l->b, a, 2, ""), &offset, 1, ""),
                           l->mod->i64, "");
}

/* Prefetches the cache lines between the next block's first and last
 * threads' elements of each site in sg, where that span is small. */
static void prefetch_next_block(Lower *l, const Segment *sg) {
  Prefetch p = {l, {0}, 0};
  for (int i = sg->from; i < sg->to; i++) ir_walk(sg->stmts->items[i], note_prefetch_site, &p);
  for (int i = 0; i < p.n; i++) {
    LLVMValueRef a = next_block_address(l, p.sites[i], 0), b = next_block_address(l, p.sites[i], 1);
    a = LLVMBuildFreeze(l->b, a, "");  /* from a slot a path may leave unset: any address will do, not poison */
    b = LLVMBuildFreeze(l->b, b, "");
    LLVMValueRef rising = LLVMBuildICmp(l->b, LLVMIntULE, a, b, "");
    LLVMValueRef lo = LLVMBuildSelect(l->b, rising, a, b, ""), hi = LLVMBuildSelect(l->b, rising, b, a, "");
    LLVMValueRef six = const_i64(l, 6);
    LLVMValueRef lines = LLVMBuildAdd(l->b, LLVMBuildSub(l->b, LLVMBuildLShr(l->b, hi, six, ""), LLVMBuildLShr(l->b, lo, six, ""), ""),
                                      const_i64(l, 1), "lines");
    LLVMValueRef small = LLVMBuildICmp(l->b, LLVMIntULE, lines, const_i64(l, PREFETCH_SPAN_MAX >> 6), "");
    LoLoop k = lo_loop_begin(l, const_i64(l, 0), LLVMBuildSelect(l->b, small, lines, const_i64(l, 0), ""), NULL, "prefetch");
    LLVMValueRef at = LLVMBuildAdd(l->b, LLVMBuildAnd(l->b, lo, const_i64(l, -64), ""), LLVMBuildShl(l->b, k.index, six, ""), "");
    LLVMValueRef args[4] = {LLVMBuildIntToPtr(l->b, at, l->mod->ptr, ""), const_i32(l, 0), const_i32(l, 3), const_i32(l, 1)};
    lo_intrinsic(l, "llvm.prefetch", &l->mod->ptr, 1, args, 4);
    lo_loop_end(l, &k);
  }
}

/* A barrier-free statement that updates a uniform variable: run once per block. */
static bool uniform_update(Lower *l, const Node *n) {
  return (n->kind == N_ASSIGN || n->kind == N_AUGASSIGN) && n->lhs->kind == N_VAR && l->kplan->uniform[n->lhs->var];
}

static bool in_step(const Node *n) { return n->kind == N_FOR && n->plan->lockstep; }

/* Splits statements at barriers: runs of barrier-free statements become
 * loops over the block's threads; a loop run in step ends such a run. */
static void lo_kernel_block(Lower *l, NodeList *b) {
  int from = 0;
  for (int i = 0; i <= b->len; i++) {
    bool barrier = i < b->len && an_has_barrier(b->items[i]);
    bool once = i < b->len && !barrier && uniform_update(l, b->items[i]);
    bool step = i < b->len && !barrier && in_step(b->items[i]);
    if (i < b->len && !barrier && !once && !step) continue;
    Segment sg = {b, from, i};
    if (i > from) {
      prefetch_next_block(l, &sg);
      run_threads(l, &sg, run_segment, &sg);
    }
    Node *call = i < b->len ? an_collective_call(b->items[i]) : NULL;
    if (once) lo_stmt(l, b->items[i]);
    else if (step) lo_lockstep(l, b, i);
    else if (call) lo_kernel_collective(l, b->items[i], call);
    else if (i < b->len) lo_kernel_uniform(l, b->items[i]);
    from = i + 1;
  }
}

static void run_whole_body(Lower *l, void *arg) {
  LLVMValueRef *vals = arg;
  for (int v = 0; v < l->f->nparams; v++)
    if (l->slots[v]) LLVMBuildStore(l->b, vals[v], l->slots[v]);
  lo_block(l, &l->f->body);
}

/* Tells LLVM that 0 <= v < limit. */
static void assume_below(Lower *l, LLVMValueRef v, int64_t limit) {
  LLVMValueRef c = LLVMBuildICmp(l->b, LLVMIntULT, v, const_i64(l, limit), "");
  lo_intrinsic(l, "llvm.assume", NULL, 0, &c, 1);
}

/* Reads the LaunchConfig after the kernel's arguments: grid and block
 * dimensions. The launch was checked: telling LLVM their ranges lets it
 * prove a kernel's index arithmetic non-negative and vectorise across
 * threads. */
void lo_load_launch(Lower *l, LLVMValueRef args) {
  LLVMValueRef li = const_i64(l, l->f->nparams);
  l->launch = LLVMBuildLoad2(l->b, l->mod->ptr, LLVMBuildGEP2(l->b, l->mod->ptr, args, &li, 1, ""), "launch");
  LLVMTypeRef lt = lo_launch_type(l), three = LLVMArrayType2(l->mod->i64, 3);
  LLVMValueRef grid = LLVMBuildStructGEP2(l->b, lt, l->launch, 0, ""), block = LLVMBuildStructGEP2(l->b, lt, l->launch, 1, "");
  for (int d = 0; d < 3; d++) {
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, d)};
    l->gdim[d] = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, three, grid, ix, 2, ""), "");
    l->bdim[d] = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, three, block, ix, 2, ""), "");
    assume_below(l, l->bdim[d], 1025);
    assume_below(l, l->gdim[d], (int64_t)1 << 31);
  }
}

/* Fission keeps a variable per thread unless it is the same in all of them
 * or recomputed by each. */
static bool per_thread(Lower *l, int v) {
  return l->fission && l->f->var_types[v] && !l->kplan->uniform[v] && !l->kplan->remat[v];
}

static LLVMValueRef once_per_block(Lower *l, int v, void *ctx) { return per_thread(l, v) ? LO_NO_SLOT : NULL; }

/* void chunk(ctx, begin, end, thread): blocks [begin, end) of the grid (in a
 * grid that waits for itself, the block and its handle for rt_grid_sync). */
static LLVMValueRef lo_kernel_chunk(Lower *kernel, LLVMTypeRef ctxty) {
  Lower sub, *l = &sub;
  LLVMTypeRef params[4] = {kernel->mod->ptr, kernel->mod->i64, kernel->mod->i64, kernel->mod->i64};
  lo_begin_outlined(l, kernel, ".blocks", LLVMFunctionType(void_type(kernel), params, 4, 0));
  /* the block's storage grows with its threads: a frame bigger than the
   * stack touches each page on the way down, and so faults at the guard
   * page under the stack rather than writing past it (a grid's blocks
   * have their stacks side by side, fiber.c) */
  LLVMAddAttributeAtIndex(l->fn, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(l->mod->c, "probe-stack", 11, "inline-asm", 10));
  l->kplan = kernel->kplan;
  l->fission = kernel->kplan->fission;
  l->fibers = kernel->kplan->fibers;
  LLVMValueRef ctx = LLVMGetParam(l->fn, 0);
  LLVMValueRef args = LLVMBuildLoad2(l->b, l->mod->ptr, LLVMBuildStructGEP2(l->b, ctxty, ctx, 1, ""), "args");
  lo_load_launch(l, args);
  l->nthreads = LLVMBuildMul(l->b, LLVMBuildMul(l->b, l->bdim[0], l->bdim[1], ""), l->bdim[2], "nthreads");
  LLVMValueRef *vals = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(l->f->nparams + 1));
  for (int v = 0; v < l->f->nparams; v++) {
    LLVMValueRef idx = const_i64(l, v);
    LLVMValueRef p = LLVMBuildLoad2(l->b, l->mod->ptr, LLVMBuildGEP2(l->b, l->mod->ptr, args, &idx, 1, ""), "");
    vals[v] = lo_load_storage(l, l->f->var_types[v], p);
  }
  lo_slots(l, once_per_block, NULL);
  l->var_base = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  /* each variable's, the arrays' (at most 256), done, trips, 4 exchanges, the dynamic shared memory */
  l->heap_slots = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(l->f->nvars + 256 + 8));
  l->nheap_slots = 0;
  for (int v = 0; v < l->f->nvars; v++)
    if (per_thread(l, v)) {
      /* with shuffles, a warp's slack on both sides, as the exchange arrays
       * below have: a shuffle may read its neighbours straight from here */
      LLVMValueRef slack = const_i64(l, l->kplan->exchange ? RC_WARP : 0);
      LLVMValueRef n = LLVMBuildAdd(l->b, l->nthreads, LLVMBuildAdd(l->b, slack, slack, ""), "");
      LLVMValueRef a = block_storage(l, lo_type(l, l->f->var_types[v]), n, l->f->var_names[v]);
      l->var_base[v] = LLVMBuildGEP2(l->b, lo_type(l, l->f->var_types[v]), a, &slack, 1, "");
    }
  if (l->fission) l->done = block_storage(l, l->mod->i8, l->nthreads, "done");
  /* only a return sets a thread's done: without one it stays clear, once for the chunk */
  if (l->fission && !l->kplan->returns) LLVMBuildMemSet(l->b, l->done, LLVMConstInt(l->mod->i8, 0, 0), l->nthreads, 1);
  if (l->kplan->lockstep) l->trips = block_storage(l, l->mod->i64, l->nthreads, "trips");
  /* a warp's worth of slack on both sides: a shuffle by a delta the same
   * in every thread loads its neighbours' values unconditionally, then
   * keeps its own where PTX says so (fission_shfl) */
  for (int k = 0; k < 4 && l->kplan->exchange; k++) {
    LLVMValueRef n = LLVMBuildAdd(l->b, l->nthreads, const_i64(l, 2 * RC_WARP), "");
    LLVMValueRef a = block_storage(l, l->mod->i64, n, "exchange");
    LLVMValueRef skip = const_i64(l, RC_WARP);
    a = LLVMBuildGEP2(l->b, l->mod->i64, a, &skip, 1, "");
    if (k < 3) l->coll_args[k] = a;
    else l->coll_out = a;
  }
  kernel_memory(l);
  LLVMTypeRef bty = NULL;
  LLVMValueRef bctx = NULL, thread_fn = NULL;
  if (l->fibers) {
    bty = lo_block_context_type(l);
    bctx = LLVMBuildAlloca(l->b, bty, "block");
    lo_fiber_context(l, bty, bctx, args);
    thread_fn = lo_fiber_thread(l, bty);
  }
  /* the blocks of this chunk */
  LoLoop blocks = lo_loop_begin(l, LLVMGetParam(l->fn, 1), LLVMGetParam(l->fn, 2), NULL, "blocks");
  if (!l->kplan->grid) lo_poll_interrupt(l);  /* Ctrl-C stops the launch between blocks */
  LLVMValueRef b = blocks.index;
  l->bid[0] = LLVMBuildSRem(l->b, b, l->gdim[0], "");
  LLVMValueRef rest = LLVMBuildSDiv(l->b, b, l->gdim[0], "");
  l->bid[1] = LLVMBuildSRem(l->b, rest, l->gdim[1], "");
  l->bid[2] = LLVMBuildSDiv(l->b, rest, l->gdim[1], "");
  for (int d = 0; d < 3; d++) assume_below(l, l->bid[d], (int64_t)1 << 31);
  if (l->fibers) {
    lo_fiber_block(l, thread_fn, bty, bctx);
  } else if (l->fission) {
    if (l->kplan->returns) LLVMBuildMemSet(l->b, l->done, LLVMConstInt(l->mod->i8, 0, 0), l->nthreads, 1);
    bool per_thread_params = false;
    for (int v = 0; v < l->f->nparams; v++) {
      if (l->slots[v] && !l->var_base[v]) LLVMBuildStore(l->b, vals[v], l->slots[v]);  /* the block's own */
      per_thread_params |= l->var_base[v] != NULL;
    }
    if (per_thread_params) thread_loop(l, init_params, vals);
    lo_kernel_block(l, &l->f->body);
  } else {
    thread_loop(l, run_whole_body, vals);
  }
  lo_loop_end(l, &blocks);
  LLVMBuildBr(l->b, l->exit_bb);
  lo_chunk_exit(l, ctx);
  free_block_storage(l);
  LLVMValueRef first = LLVMGetParam(l->fn, 1);
  lo_call_fn(l, "rt_print_flush", void_type(l), &l->mod->i64, &first, 1);  /* the chunk's blocks' print() lines */
  LLVMBuildRetVoid(l->b);
  lo_func_done(l);
  return l->fn;
}

/* The kernel's entry: the grid's blocks over the pool. */
void lo_kernel(Lower *l) {
  LLVMTypeRef f[2] = {lo_error_type(l), l->mod->ptr};  /* the first error, then the arguments */
  LLVMTypeRef ctxty = LLVMStructTypeInContext(l->mod->c, f, 2, 0);
  l->kplan = l->f->plan->kernel;
  LLVMValueRef chunk = lo_kernel_chunk(l, ctxty);
  LLVMValueRef args = LLVMGetParam(l->fn, 1);
  LLVMValueRef ctx = LLVMBuildAlloca(l->b, ctxty, "ctx");
  LLVMBuildStore(l->b, const_i32(l, RT_OK), LLVMBuildStructGEP2(l->b, ctxty, ctx, 0, ""));
  LLVMBuildStore(l->b, args, LLVMBuildStructGEP2(l->b, ctxty, ctx, 1, ""));
  LLVMValueRef li = const_i64(l, l->f->nparams);
  LLVMValueRef launch = LLVMBuildLoad2(l->b, l->mod->ptr, LLVMBuildGEP2(l->b, l->mod->ptr, args, &li, 1, ""), "launch");
  LLVMValueRef nblocks = const_i64(l, 1);
  for (int d = 0; d < 3; d++) {
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, d)};
    LLVMValueRef g = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, LLVMArrayType2(l->mod->i64, 3),
                                    LLVMBuildStructGEP2(l->b, lo_launch_type(l), launch, 0, ""), ix, 2, ""), "");
    nblocks = LLVMBuildMul(l->b, nblocks, g, "");
  }
  if (l->kplan->grid) {  /* every block at once, each a fiber */
    LLVMTypeRef gp[3] = {l->mod->ptr, l->mod->ptr, l->mod->i64};
    LLVMValueRef st = lo_call_fn(l, "rt_grid_run", l->mod->i32, gp, (LLVMValueRef[]){chunk, ctx, nblocks}, 3);
    LLVMBasicBlockRef refused = new_block(l, "grid.refused"), ran = new_block(l, "grid.ran");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, const_i32(l, 0), ""), refused, ran);
    position(l, refused);
    LLVMBuildRet(l->b, st);
    position(l, ran);
  } else {
    LLVMValueRef nchunks = lo_call_fn(l, "pool_chunk_count", l->mod->i64, &l->mod->i64, &nblocks, 1);
    LLVMTypeRef pp[4] = {l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i64};
    lo_call_fn(l, "pool_parallel_for", void_type(l), pp, (LLVMValueRef[]){chunk, ctx, nblocks, nchunks}, 4);
    lo_call_fn(l, "rt_print_write_out", void_type(l), NULL, NULL, 0);
  }
  LLVMValueRef st = LLVMBuildLoad2(l->b, l->mod->i32, LLVMBuildStructGEP2(l->b, ctxty, ctx, 0, ""), "");
  LLVMBasicBlockRef fail = new_block(l, "fail"), ok = new_block(l, "ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, const_i32(l, 0), ""), fail, ok);
  position(l, fail);
  lo_call_fn(l, "rt_error_restore", void_type(l), &l->mod->ptr, &ctx, 1);
  LLVMBuildRet(l->b, st);
  position(l, ok);
  LLVMBuildRet(l->b, const_i32(l, RT_OK));
}
