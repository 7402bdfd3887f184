/* builtins/warp.c — what threads do together: warps' lanes, shuffles,
 * votes and matches (cuda.shfl_sync, cuda.ballot_sync, ...), syncwarp,
 * syncthreads_count/_and/_or, and memory fences.
 *
 * A collective lowers three ways. On the GPU it is PTX's instruction. On
 * the CPU backend a kernel split at barriers (fission, kernel.c) gathers
 * every thread's arguments before the statement holding the collective
 * runs; the statement then reads its result (a shuffle computes it inline,
 * the others come from warp.c's rt_collective). Threads run as fibers
 * (and device functions, which run so) call rt_fiber_collective, which
 * waits for the lanes of the warp (fiber.c).
 */
#include <stdio.h>

#include "builtins/builtins.h"

/* ---------------------------------------------------------------- lanes */

static const Type *ty_lane(Infer *in, Node *n, const Type **args) { return TYS(TY_I64); }
static const Type *ty_lanemask(Infer *in, Node *n, const Type **args) { return TYS(TY_U32); }

static LLVMValueRef gpu_sreg(Lower *l, const char *reg) {
  char name[64];
  snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s", reg);
  return lo_call_fn(l, name, l->mod->i32, NULL, NULL, 0);
}

/* The thread's lane: its linear index in the block modulo 32. */
static LLVMValueRef lane_of(Lower *l) {
  if (l->mod->gpu) return LLVMBuildZExt(l->b, gpu_sreg(l, "laneid"), l->mod->i64, "");
  if (l->lane) return l->lane;
  return LLVMBuildAnd(l->b, lo_cuda_thread(l), const_i64(l, RC_WARP - 1), "lane");
}

static LLVMValueRef lo_laneid(Lower *l, Node *n) { return lane_of(l); }
static LLVMValueRef lo_warpsize(Lower *l, Node *n) { return const_i64(l, RC_WARP); }

static LLVMValueRef lo_lanemask_lt(Lower *l, Node *n) {
  if (l->mod->gpu) return gpu_sreg(l, "lanemask.lt");
  LLVMValueRef bit = LLVMBuildShl(l->b, const_i64(l, 1), lane_of(l), "");
  return LLVMBuildTrunc(l->b, LLVMBuildSub(l->b, bit, const_i64(l, 1), ""), l->mod->i32, "");
}

/* ---------------------------------------------------------------- typing the collectives */

/* The call's argument i, an integer (or a bool) named what in messages
 * (numba-cuda's words: "Mask type must be an integer"). */
static bool need_int(Infer *in, Node *n, int i, const Type **args, const char *what, bool bools) {
  if (ty_is_int(args[i]) || (bools && args[i]->kind == TY_BOOL)) return true;
  ty_error(in, n->list.items[i], "%s(): %s must be an integer%s, got %s", n->bi->name, what,
           bools ? " or boolean" : "", args[i]->name);
  return false;
}

/* Typing any collective: the function reaches a point its threads wait at,
 * so that kernels calling it run their threads as fibers on the CPU. */
static const Type *collective(Infer *in, const Type *t) {
  in->f->barrier = true;
  return t;
}

static bool mask_ok(Infer *in, Node *n, const Type **args) { return need_int(in, n, 0, args, "Mask type", false); }

/* shfl*_sync(mask, value, lane): the value's type */
static const Type *ty_shfl(Infer *in, Node *n, const Type **args) {
  if (!mask_ok(in, n, args) || !need_int(in, n, 2, args, "Lane or delta", false)) return NULL;
  if (!ty_is_int(args[1]) && !ty_is_float(args[1]))
    return ty_error(in, n->list.items[1], "%s() shuffles integers and floats, not %s", n->bi->name, args[1]->name);
  return collective(in, args[1]);
}

/* all/any/eq_sync(mask, predicate): a bool; ballot_sync: the lanes, a uint32 */
static const Type *ty_vote(Infer *in, Node *n, const Type **args) {
  if (!mask_ok(in, n, args) || !need_int(in, n, 1, args, "Predicate", true)) return NULL;
  return collective(in, n->bi->ival == COLL_BALLOT ? TYS(TY_U32) : TYS(TY_BOOL));
}

/* match_any_sync(mask, value): a uint32; match_all_sync: (uint32, bool) */
static const Type *ty_match(Infer *in, Node *n, const Type **args) {
  if (!mask_ok(in, n, args)) return NULL;
  if (!ty_is_int(args[1]) && !ty_is_float(args[1]))
    return ty_error(in, n->list.items[1], "%s() compares integers and floats, not %s", n->bi->name, args[1]->name);
  if (n->bi->ival == COLL_MATCH_ANY) return collective(in, TYS(TY_U32));
  const Type *f[2] = {TYS(TY_U32), TYS(TY_BOOL)};
  return collective(in, ty_tuple(2, f));
}

static const Type *ty_activemask(Infer *in, Node *n, const Type **args) { return collective(in, TYS(TY_U32)); }

/* syncwarp(mask=0xffffffff) */
static const Type *ty_syncwarp(Infer *in, Node *n, const Type **args) {
  if (n->list.len && !mask_ok(in, n, args)) return NULL;
  return collective(in, TYS(TY_NONE));
}

/* syncthreads_count/_and/_or(predicate): an int32 */
static const Type *ty_block_vote(Infer *in, Node *n, const Type **args) {
  if (!need_int(in, n, 0, args, "Predicate", true)) return NULL;
  return collective(in, TYS(TY_I32));
}

/* ---------------------------------------------------------------- on the GPU */

static LLVMValueRef as_i32(Lower *l, Node *arg) {
  return LLVMBuildTrunc(l->b, lo_to_bits(l, lo_expr(l, arg), arg->ty), l->mod->i32, "");
}

static LLVMValueRef truth(Lower *l, Node *arg) { return lo_truth(l, lo_expr(l, arg), arg->ty); }

/* shfl.sync moves 32 bits: a 64-bit value goes as two halves. */
static LLVMValueRef gpu_shfl(Lower *l, Node *n) {
  static const char *const modes[] = {[COLL_SHFL_IDX] = "idx", [COLL_SHFL_UP] = "up",
                                      [COLL_SHFL_DOWN] = "down", [COLL_SHFL_XOR] = "bfly"};
  char name[64];
  snprintf(name, sizeof name, "llvm.nvvm.shfl.sync.%s.i32", modes[n->bi->ival]);
  LLVMValueRef mask = as_i32(l, n->list.items[0]), lane = as_i32(l, n->list.items[2]);
  LLVMValueRef clamp = const_i32(l, n->bi->ival == COLL_SHFL_UP ? 0 : 0x1f);
  LLVMValueRef bits = lo_to_bits(l, lo_expr(l, n->list.items[1]), n->ty), out = const_i64(l, 0);
  LLVMTypeRef p[4] = {l->mod->i32, l->mod->i32, l->mod->i32, l->mod->i32};
  for (int half = 0; half < (n->ty->bits > 32 ? 2 : 1); half++) {
    LLVMValueRef part = LLVMBuildTrunc(l->b, LLVMBuildLShr(l->b, bits, const_i64(l, 32 * half), ""), l->mod->i32, "");
    LLVMValueRef r = lo_call_fn(l, name, l->mod->i32, p, (LLVMValueRef[]){mask, part, lane, clamp}, 4);
    out = LLVMBuildOr(l->b, out, LLVMBuildShl(l->b, LLVMBuildZExt(l->b, r, l->mod->i64, ""), const_i64(l, 32 * half), ""), "");
  }
  return lo_from_bits(l, out, n->ty);
}

static LLVMValueRef gpu_vote(Lower *l, Node *n) {
  static const char *const modes[] = {[COLL_ALL] = "all", [COLL_ANY] = "any", [COLL_EQ] = "uni", [COLL_BALLOT] = "ballot"};
  char name[64];
  snprintf(name, sizeof name, "llvm.nvvm.vote.%s.sync", modes[n->bi->ival]);
  LLVMTypeRef p[2] = {l->mod->i32, l->mod->i1};
  LLVMValueRef a[2] = {as_i32(l, n->list.items[0]), truth(l, n->list.items[1])};
  return lo_call_fn(l, name, n->bi->ival == COLL_BALLOT ? l->mod->i32 : l->mod->i1, p, a, 2);
}

static LLVMValueRef gpu_match(Lower *l, Node *n) {
  Node *v = n->list.items[1];
  int bits = v->ty->bits > 32 ? 64 : 32;
  LLVMTypeRef vt = LLVMIntTypeInContext(l->mod->c, (unsigned)bits), p[2] = {l->mod->i32, vt};
  LLVMValueRef a[2] = {as_i32(l, n->list.items[0]), LLVMBuildTrunc(l->b, lo_to_bits(l, lo_expr(l, v), v->ty), vt, "")};
  char name[64];
  if (n->bi->ival == COLL_MATCH_ANY) {
    snprintf(name, sizeof name, "llvm.nvvm.match.any.sync.i%d", bits);
    return lo_call_fn(l, name, l->mod->i32, p, a, 2);
  }
  snprintf(name, sizeof name, "llvm.nvvm.match.all.sync.i%dp", bits);
  LLVMTypeRef rt[2] = {l->mod->i32, l->mod->i1};
  return lo_call_fn(l, name, LLVMStructTypeInContext(l->mod->c, rt, 2, 0), p, a, 2);
}

static LLVMValueRef gpu_collective(Lower *l, Node *n) {
  LLVMTypeRef i32 = l->mod->i32;
  switch (n->bi->ival) {
  case COLL_SHFL_IDX: case COLL_SHFL_UP: case COLL_SHFL_DOWN: case COLL_SHFL_XOR: return gpu_shfl(l, n);
  case COLL_ALL: case COLL_ANY: case COLL_EQ: case COLL_BALLOT: return gpu_vote(l, n);
  case COLL_MATCH_ANY: case COLL_MATCH_ALL: return gpu_match(l, n);
  case COLL_ACTIVEMASK: return lo_call_fn(l, "llvm.nvvm.activemask", i32, NULL, NULL, 0);
  case COLL_SYNCWARP: {
    LLVMValueRef mask = n->list.len ? as_i32(l, n->list.items[0]) : const_i32(l, -1);
    lo_call_fn(l, "llvm.nvvm.bar.warp.sync", void_type(l), &i32, &mask, 1);
    return LLVMGetUndef(l->mod->i8);
  }
  default: {  /* syncthreads_count/_and/_or: bar.red */
    static const char *const red[] = {[COLL_BLOCK_COUNT] = "popc", [COLL_BLOCK_AND] = "and", [COLL_BLOCK_OR] = "or"};
    char name[64];
    snprintf(name, sizeof name, "llvm.nvvm.barrier0.%s", red[n->bi->ival]);
    LLVMValueRef pred = LLVMBuildZExt(l->b, truth(l, n->list.items[0]), i32, "");
    return lo_call_fn(l, name, i32, &i32, &pred, 1);
  }
  }
}

/* ---------------------------------------------------------------- on the CPU */

/* Thread i's value (slot 1): gathered, or in its variable's per-thread storage. */
static LLVMValueRef gathered_value(Lower *l, Node *n, LLVMValueRef i) {
  if (!l->coll_values)
    return LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i64, l->coll_args[1], &i, 1, ""), "");
  const Type *t = n->list.items[1]->ty;
  LLVMValueRef v = LLVMBuildLoad2(l->b, lo_type(l, t), LLVMBuildGEP2(l->b, lo_type(l, t), l->coll_values, &i, 1, ""), "");
  return lo_to_bits(l, v, t);
}

/* A shuffle in a kernel split by fission: every lane's value was gathered;
 * this thread reads the source lane's (its own where PTX says so: a lane
 * out of range, beyond the block, or returned). With a delta the same in
 * every thread and no thread returned, the source is a neighbour at a
 * fixed distance (for xor, a power of two, d below or d above): the
 * neighbour's value and the thread's own are both loaded, the gathered
 * slots having a warp's slack on each side, and one kept, which vectorises. */
static LLVMValueRef fission_shfl(Lower *l, Node *n) {
  int op = n->bi->ival;
  LLVMValueRef t = lo_cuda_thread(l), lane = lane_of(l);
  LLVMValueRef b = l->coll_lane ? l->coll_lane
                                : LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i64, l->coll_args[2], &t, 1, ""), "");
  LLVMValueRef d = LLVMBuildAnd(l->b, b, const_i64(l, RC_WARP - 1), "");
  LLVMValueRef j;  /* the source lane; below 0 (up) counts as out of range, as unsigned */
  switch (op) {
  case COLL_SHFL_IDX: j = d; break;
  case COLL_SHFL_UP: j = LLVMBuildSub(l->b, lane, d, ""); break;
  case COLL_SHFL_DOWN: j = LLVMBuildAdd(l->b, lane, d, ""); break;
  default: j = LLVMBuildXor(l->b, lane, d, ""); break;
  }
  LLVMValueRef src = LLVMBuildAdd(l->b, LLVMBuildSub(l->b, t, lane, ""), j, "");
  LLVMValueRef ok = LLVMBuildICmp(l->b, LLVMIntULT, j, const_i64(l, RC_WARP), "");
  if (!l->lane)  /* by warps (kernel.c), every warp is whole */
    ok = LLVMBuildAnd(l->b, ok, LLVMBuildICmp(l->b, LLVMIntULT, src, l->nthreads, ""), "");
  bool neighbours = l->coll_lane && op != COLL_SHFL_IDX && (op != COLL_SHFL_XOR || l->coll_pow2) && !l->kplan->returns;
  if (neighbours) {
    LLVMValueRef above = gathered_value(l, n, LLVMBuildAdd(l->b, t, d, ""));
    LLVMValueRef below = gathered_value(l, n, LLVMBuildSub(l->b, t, d, ""));
    LLVMValueRef has_d = LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildAnd(l->b, lane, d, ""), const_i64(l, 0), "");
    LLVMValueRef other = op == COLL_SHFL_DOWN ? above : op == COLL_SHFL_UP ? below : LLVMBuildSelect(l->b, has_d, below, above, "");
    return LLVMBuildSelect(l->b, ok, other, gathered_value(l, n, t), "");
  }
  LLVMValueRef from = LLVMBuildSelect(l->b, ok, src, t, "");
  if (l->kplan->returns) {
    LLVMValueRef gone = LLVMBuildLoad2(l->b, l->mod->i8, LLVMBuildGEP2(l->b, l->mod->i8, l->done, &from, 1, ""), "");
    from = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, gone, LLVMConstInt(l->mod->i8, 0, 0), ""), from, t, "");
  }
  return gathered_value(l, n, from);
}

/* The result's bits on the CPU backend. */
static LLVMValueRef cpu_collective(Lower *l, Node *n) {
  int op = n->bi->ival;
  if (l->coll == n) {
    if (op <= COLL_SHFL_XOR) return fission_shfl(l, n);
    LLVMValueRef t = lo_cuda_thread(l);
    return LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i64, l->coll_out, &t, 1, ""), "");
  }
  LLVMValueRef a[3] = {const_i64(l, -1), const_i64(l, 0), const_i64(l, 0)};
  for (int i = 0; i < n->list.len; i++)
    a[lo_collective_slot(op, i)] = lo_to_bits(l, lo_expr(l, n->list.items[i]), n->list.items[i]->ty);
  char site[300];  /* the call, for the lanes waiting at the same one */
  snprintf(site, sizeof site, "%s:%d:%d", l->f->filename, n->line, n->col);
  LLVMTypeRef p[5] = {l->mod->i32, l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64};
  LLVMValueRef args[5] = {const_i32(l, op), lo_string(l, arena_strdup(l->f->arena, site)), a[0], a[1], a[2]};
  return lo_call_fn(l, "rt_fiber_collective", l->mod->i64, p, args, 5);
}

static LLVMValueRef lo_collective(Lower *l, Node *n) {
  if (l->mod->gpu) return gpu_collective(l, n);
  LLVMValueRef bits = cpu_collective(l, n);
  if (n->ty->kind == TY_NONE) return LLVMGetUndef(l->mod->i8);
  if (n->ty->kind != TY_TUPLE) return lo_from_bits(l, bits, n->ty);
  LLVMValueRef r = LLVMGetUndef(lo_type(l, n->ty));  /* match_all_sync: (mask, all matched) */
  r = LLVMBuildInsertValue(l->b, r, LLVMBuildTrunc(l->b, bits, l->mod->i32, ""), 0, "");
  LLVMValueRef all = LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildLShr(l->b, bits, const_i64(l, 32), ""), const_i64(l, 0), "");
  return LLVMBuildInsertValue(l->b, r, all, 1, "");
}

/* ---------------------------------------------------------------- fences */

static const Type *ty_fence(Infer *in, Node *n, const Type **args) { return TYS(TY_NONE); }

/* On the CPU every fence is a full one: the pool's threads share memory. */
static LLVMValueRef lo_fence(Lower *l, Node *n) {
  static const char *const scopes[] = {"gl", "cta", "sys"};
  if (l->mod->gpu) {
    char name[64];
    snprintf(name, sizeof name, "llvm.nvvm.membar.%s", scopes[n->bi->ival]);
    lo_call_fn(l, name, void_type(l), NULL, NULL, 0);
  } else {
    LLVMBuildFence(l->b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
  }
  return LLVMGetUndef(l->mod->i8);
}

/* cuda.nanosleep(ns): PTX's nanosleep on the GPU. On the CPU nothing: the
 * PTX manual allows any sleep in [0, 2 * ns], and a thread that waits on
 * another there (a spin on a flag) is a fiber or a pool thread that the
 * sleep would only hold up. */
static const Type *ty_nanosleep(Infer *in, Node *n, const Type **args) {
  return need_int(in, n, 0, args, "the duration in nanoseconds", false) ? TYS(TY_NONE) : NULL;
}

static LLVMValueRef lo_nanosleep(Lower *l, Node *n) {
  if (l->mod->gpu) {
    Node *arg = n->list.items[0];
    LLVMValueRef ns = lo_convert(l, lo_expr(l, arg), arg->ty, TYS(TY_U32));
    lo_call_fn(l, "llvm.nvvm.nanosleep", void_type(l), (LLVMTypeRef[]){l->mod->i32}, &ns, 1);
  } else {
    lo_expr(l, n->list.items[0]);
  }
  return LLVMGetUndef(l->mod->i8);
}

/* ---------------------------------------------------------------- the rows */

#define ROW(name, flags, ival, type, lower, lo, hi) \
  {"cuda." name, "ruchey.cuda", name, BK_FUNCTION, 0, lo, hi, NULL, BF_KERNEL | (flags), ival, 0, type, lower}
#define COLLECTIVE(name, op, type, lo, hi) ROW(name, BF_WARP | BF_VARIES, op, type, lo_collective, lo, hi)
#define BLOCK_VOTE(name, op) ROW(name, BF_BARRIER | BF_VARIES, op, ty_block_vote, lo_collective, 1, 1)

const Builtin bi_warp[] = {
  ROW("laneid", BF_NOCALL | BF_THREAD_INDEX | BF_VARIES | BF_PURE | BF_CHEAP, 0, ty_lane, lo_laneid, 0, 0),
  ROW("warpsize", BF_NOCALL | BF_THREAD_INDEX | BF_PURE | BF_CHEAP, 0, ty_lane, lo_warpsize, 0, 0),
  ROW("lanemask_lt", BF_THREAD_INDEX | BF_VARIES | BF_PURE | BF_CHEAP, 0, ty_lanemask, lo_lanemask_lt, 0, 0),
  COLLECTIVE("shfl_sync", COLL_SHFL_IDX, ty_shfl, 3, 3),
  COLLECTIVE("shfl_up_sync", COLL_SHFL_UP, ty_shfl, 3, 3),
  COLLECTIVE("shfl_down_sync", COLL_SHFL_DOWN, ty_shfl, 3, 3),
  COLLECTIVE("shfl_xor_sync", COLL_SHFL_XOR, ty_shfl, 3, 3),
  COLLECTIVE("all_sync", COLL_ALL, ty_vote, 2, 2),
  COLLECTIVE("any_sync", COLL_ANY, ty_vote, 2, 2),
  COLLECTIVE("eq_sync", COLL_EQ, ty_vote, 2, 2),
  COLLECTIVE("ballot_sync", COLL_BALLOT, ty_vote, 2, 2),
  COLLECTIVE("match_any_sync", COLL_MATCH_ANY, ty_match, 2, 2),
  COLLECTIVE("match_all_sync", COLL_MATCH_ALL, ty_match, 2, 2),
  COLLECTIVE("activemask", COLL_ACTIVEMASK, ty_activemask, 0, 0),
  COLLECTIVE("syncwarp", COLL_SYNCWARP, ty_syncwarp, 0, 1),
  BLOCK_VOTE("syncthreads_count", COLL_BLOCK_COUNT),
  BLOCK_VOTE("syncthreads_and", COLL_BLOCK_AND),
  BLOCK_VOTE("syncthreads_or", COLL_BLOCK_OR),
  ROW("threadfence", 0, 0, ty_fence, lo_fence, 0, 0),
  ROW("threadfence_block", 0, 1, ty_fence, lo_fence, 0, 0),
  ROW("threadfence_system", 0, 2, ty_fence, lo_fence, 0, 0),
  ROW("nanosleep", 0, 0, ty_nanosleep, lo_nanosleep, 1, 1),
  BI_END,
};
