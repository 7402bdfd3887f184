/* builtins/grid.c — cooperative groups: g = cuda.cg.this_grid() and
 * g.sync(), which waits until every thread of the grid has reached it.
 *
 * A kernel that reaches this_grid() is launched so that all its blocks run
 * at once, by cuLaunchCooperativeKernel on the GPU (cudadrv.c). There the
 * barrier is CUDA's own algorithm for cooperative groups written here in
 * LLVM IR (a counter in global memory whose top bit flips when the last
 * block arrives); on the CPU backend each block is a fiber (fiber.c's
 * rt_grid_run), and the barrier, placed once per block by loop fission
 * (kernel.c), switches out of the block until all have arrived.
 */
#include <stdio.h>

#include "builtins/builtins.h"

/* A kernel that takes its grid group is launched cooperatively, with or
 * without a g.sync(), as numba-cuda's (its this_grid() needs the grid's
 * handle from a cooperative launch): the kernel's overload says so. */
static const Type *ty_this_grid(Infer *in, Node *n, const Type **args) {
  in->f->grid_sync = true;
  return TYS(TY_GRID);
}

static LLVMValueRef lo_this_grid(Lower *l, Node *n) { return LLVMGetUndef(l->mod->i8); }

static const Type *ty_grid_sync(Infer *in, Node *n, const Type **args) {
  in->f->grid_sync = true;
  in->f->barrier = true;  /* in a device function: the kernel's threads run as fibers */
  return TYS(TY_NONE);
}

static LLVMValueRef sreg(Lower *l, const char *name) { return lo_call_fn(l, name, l->mod->i32, NULL, NULL, 0); }

/* The grid's barrier on the GPU: after the block's own barrier, its first
 * thread adds to a counter in global memory (block 0 adds 2^31 - (blocks -
 * 1), the others 1, so that the last arrival flips the top bit) and waits
 * for the flip; then the block's barrier again. */
static void gpu_grid_sync(Lower *l) {
  LLVMTypeRef i32 = l->mod->i32;
  LLVMValueRef counter = LLVMGetNamedGlobal(l->mod->m, "ruchey.grid.barrier");
  if (!counter) {
    counter = LLVMAddGlobalInAddressSpace(l->mod->m, i32, "ruchey.grid.barrier", 1);
    LLVMSetInitializer(counter, LLVMConstInt(i32, 0, 0));
    LLVMSetLinkage(counter, LLVMInternalLinkage);
    LLVMSetAlignment(counter, 4);
  }
  lo_call_fn(l, "llvm.nvvm.barrier0", void_type(l), NULL, NULL, 0);
  static const char *const axes = "xyz";
  LLVMValueRef first = const_bool(l, true), block0 = const_bool(l, true), blocks = LLVMConstInt(i32, 1, 0);
  for (int d = 0; d < 3; d++) {
    char name[64];
    snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.tid.%c", axes[d]);
    first = LLVMBuildAnd(l->b, first, LLVMBuildICmp(l->b, LLVMIntEQ, sreg(l, name), LLVMConstInt(i32, 0, 0), ""), "");
    snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.ctaid.%c", axes[d]);
    block0 = LLVMBuildAnd(l->b, block0, LLVMBuildICmp(l->b, LLVMIntEQ, sreg(l, name), LLVMConstInt(i32, 0, 0), ""), "");
    snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.nctaid.%c", axes[d]);
    blocks = LLVMBuildMul(l->b, blocks, sreg(l, name), "");
  }
  LLVMBasicBlockRef arrive = new_block(l, "grid.arrive"), wait = new_block(l, "grid.wait"), done = new_block(l, "grid.done");
  LLVMBuildCondBr(l->b, first, arrive, done);
  position(l, arrive);
  LLVMValueRef add = LLVMBuildSelect(l->b, block0, LLVMBuildSub(l->b, LLVMConstInt(i32, 0x80000001u, 0), blocks, ""),
                                     LLVMConstInt(i32, 1, 0), "");
  lo_call_fn(l, "llvm.nvvm.membar.gl", void_type(l), NULL, NULL, 0);
  LLVMValueRef old = LLVMBuildAtomicRMW(l->b, LLVMAtomicRMWBinOpAdd, counter, add, LLVMAtomicOrderingMonotonic, 0);
  LLVMBuildBr(l->b, wait);
  position(l, wait);
  LLVMValueRef now = LLVMBuildLoad2(l->b, i32, counter, "");
  LLVMSetVolatile(now, 1);
  LLVMValueRef flipped = LLVMBuildICmp(l->b, LLVMIntSLT, LLVMBuildXor(l->b, old, now, ""), LLVMConstInt(i32, 0, 0), "");
  LLVMBuildCondBr(l->b, flipped, done, wait);
  position(l, done);
  lo_call_fn(l, "llvm.nvvm.membar.gl", void_type(l), NULL, NULL, 0);
  lo_call_fn(l, "llvm.nvvm.barrier0", void_type(l), NULL, NULL, 0);
}

/* g.sync(): on the GPU the barrier above. On the CPU backend loop fission
 * places it once per block (kernel.c); reaching this lowerer means a
 * thread run as a fiber (in a device function, or under conditions that
 * differ between threads): it waits for its block's other threads, then
 * the block for the grid (fiber.c). */
static LLVMValueRef lo_grid_sync(Lower *l, Node *n) {
  if (l->mod->gpu) {
    gpu_grid_sync(l);
  } else {
    char site[300];
    snprintf(site, sizeof site, "%s:%d", l->f->filename, n->line);
    LLVMValueRef text = lo_string(l, site);
    lo_call_fn(l, "rt_fiber_grid_sync", void_type(l), &l->mod->ptr, &text, 1);
  }
  return LLVMGetUndef(l->mod->i8);
}

const Builtin bi_grid[] = {
  {"cuda.cg.this_grid", "ruchey.cuda", "cg.this_grid", BK_FUNCTION, 0, 0, 0, NULL, BF_KERNEL | BF_PURE | BF_CHEAP,
   0, 0, ty_this_grid, lo_this_grid},
  {"grid_group.sync", NULL, "sync", BK_METHOD, TY_GRID, 0, 0, NULL, BF_KERNEL | BF_BARRIER | BF_GRID | BF_VARIES,
   COLL_BLOCK_SYNC, 0, ty_grid_sync, lo_grid_sync},
  BI_END,
};
