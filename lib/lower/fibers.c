/* lower/fibers.c — CUDA kernels on the CPU whose barriers loop fission
 * cannot reach (under conditions that differ between threads, or inside
 * device functions): each thread of a block runs as a fiber (fiber.c),
 * and a barrier switches to the next one. */
#include "lower/lower.h"

/* What a fiber thread reads of its block: the arguments, the block's index,
 * the dynamic and static shared memory. */
enum { BCTX_ARGS, BCTX_BID, BCTX_DYN, BCTX_MEM };

LLVMTypeRef lo_block_context_type(Lower *l) {
  LLVMTypeRef f[4] = {l->mod->ptr, LLVMArrayType2(l->mod->i64, 3), l->mod->ptr,
                      LLVMArrayType2(l->mod->ptr, (uint64_t)(l->nmem ? l->nmem : 1))};
  return LLVMStructTypeInContext(l->mod->c, f, 4, 0);
}

static LLVMValueRef bctx_field(Lower *l, LLVMTypeRef bty, LLVMValueRef bctx, unsigned f, int i) {
  LLVMValueRef ix[3] = {const_i64(l, 0), const_i32(l, (int)f), const_i64(l, i)};
  return LLVMBuildGEP2(l->b, bty, bctx, ix, f == BCTX_BID || f == BCTX_MEM ? 3 : 2, "");
}

/* A parameter's argument, read from the kernel's argument pointers. */
static LLVMValueRef stored_argument(Lower *l, int v, void *args) {
  if (v >= l->f->nparams) return NULL;
  LLVMValueRef idx = const_i64(l, v);
  LLVMValueRef p = LLVMBuildLoad2(l->b, l->mod->ptr, LLVMBuildGEP2(l->b, l->mod->ptr, args, &idx, 1, ""), "");
  return lo_load_storage(l, l->f->var_types[v], p);
}

/* i32 thread(bctx, t): one CUDA thread of a block, run as a fiber. */
LLVMValueRef lo_fiber_thread(Lower *chunk, LLVMTypeRef bty) {
  Lower sub, *l = &sub;
  LLVMTypeRef params[2] = {chunk->mod->ptr, chunk->mod->i64};
  lo_begin_outlined(l, chunk, ".thread", LLVMFunctionType(chunk->mod->i32, params, 2, 0));
  l->next_thread = l->exit_bb;
  l->kplan = chunk->kplan;
  l->fibers = true;
  l->nmem = chunk->nmem;
  l->mem_nodes = chunk->mem_nodes;
  LLVMValueRef bctx = LLVMGetParam(l->fn, 0), t = LLVMGetParam(l->fn, 1);
  LLVMValueRef args = LLVMBuildLoad2(l->b, l->mod->ptr, bctx_field(l, bty, bctx, BCTX_ARGS, 0), "args");
  lo_load_launch(l, args);
  for (int d = 0; d < 3; d++) l->bid[d] = LLVMBuildLoad2(l->b, l->mod->i64, bctx_field(l, bty, bctx, BCTX_BID, d), "");
  l->tid[0] = LLVMBuildSRem(l->b, t, l->bdim[0], "");
  LLVMValueRef rest = LLVMBuildSDiv(l->b, t, l->bdim[0], "");
  l->tid[1] = LLVMBuildSRem(l->b, rest, l->bdim[1], "");
  l->tid[2] = LLVMBuildSDiv(l->b, rest, l->bdim[1], "");
  l->thread = t;
  l->dyn_shared = LLVMBuildLoad2(l->b, l->mod->ptr, bctx_field(l, bty, bctx, BCTX_DYN, 0), "");
  l->mem_base = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * 256);
  for (int i = 0; i < l->nmem; i++)  /* local arrays are each fiber's own (lo_cuda_array) */
    if (!(l->mem_nodes[i]->bi->flags & BF_PER_THREAD))
      l->mem_base[i] = LLVMBuildLoad2(l->b, l->mod->ptr, bctx_field(l, bty, bctx, BCTX_MEM, i), "");
  lo_slots(l, stored_argument, args);
  lo_block(l, &l->f->body);
  if (!terminated(l)) LLVMBuildBr(l->b, l->exit_bb);
  position(l, l->exit_bb);
  LLVMBuildRet(l->b, LLVMBuildLoad2(l->b, l->mod->i32, l->status, ""));
  lo_func_done(l);
  return l->fn;
}

/* Fills what the block's fibers read (bctx): the arguments and the shared memory. */
void lo_fiber_context(Lower *l, LLVMTypeRef bty, LLVMValueRef bctx, LLVMValueRef args) {
  LLVMBuildStore(l->b, args, bctx_field(l, bty, bctx, BCTX_ARGS, 0));
  LLVMBuildStore(l->b, l->dyn_shared, bctx_field(l, bty, bctx, BCTX_DYN, 0));
  for (int i = 0; i < l->nmem; i++)
    if (l->mem_base[i]) LLVMBuildStore(l->b, l->mem_base[i], bctx_field(l, bty, bctx, BCTX_MEM, i));
}

/* The bytes of local arrays a fiber's stack must hold beyond its usual
 * frames: known once every function of the module is lowered (device
 * functions come after the kernel), so a constant lo_fiber_stack_done sets. */
static LLVMValueRef fiber_stack_global(Lower *l) {
  if (!l->mod->fiber_stack) {
    l->mod->fiber_stack = LLVMAddGlobal(l->mod->m, l->mod->i64, "fiber.local.bytes");
    LLVMSetLinkage(l->mod->fiber_stack, LLVMInternalLinkage);
    LLVMSetGlobalConstant(l->mod->fiber_stack, 1);
  }
  return l->mod->fiber_stack;
}

/* Once the module is lowered: the local arrays' bytes, and every function
 * of a kernel that runs as fibers probes its frame a page at a time, so a
 * frame beyond its stack faults at the guard page under it (fiber.c)
 * instead of writing over another thread's stack. */
void lo_fiber_stack_done(LowerModule *mod) {
  if (!mod->fiber_stack) return;
  LLVMSetInitializer(mod->fiber_stack, LLVMConstInt(mod->i64, (unsigned long long)mod->local_bytes, 0));
  for (LLVMValueRef f = LLVMGetFirstFunction(mod->m); f; f = LLVMGetNextFunction(f))
    if (LLVMCountBasicBlocks(f))
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(mod->c, "probe-stack", 11, "inline-asm", 10));
}

/* A block as fibers: one per thread, scheduled by rt_fiber_block. */
void lo_fiber_block(Lower *l, LLVMValueRef fn, LLVMTypeRef bty, LLVMValueRef bctx) {
  for (int d = 0; d < 3; d++) LLVMBuildStore(l->b, l->bid[d], bctx_field(l, bty, bctx, BCTX_BID, d));
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i64};
  LLVMValueRef local = LLVMBuildLoad2(l->b, l->mod->i64, fiber_stack_global(l), "local.bytes");
  LLVMValueRef st = lo_call_fn(l, "rt_fiber_block", l->mod->i32, p, (LLVMValueRef[]){fn, bctx, l->nthreads, local}, 4);
  LLVMBasicBlockRef fail = new_block(l, "block.fail"), ok = new_block(l, "block.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, const_i32(l, 0), ""), fail, ok);
  position(l, fail);
  LLVMBuildStore(l->b, st, l->status);
  LLVMBuildBr(l->b, l->exit_bb);
  position(l, ok);
}
