/* llvm.c — what jit.c (the host CPU) and ptx.c (NVPTX) both do with LLVM:
 * lower a function into a module for a target, check it, run an
 * optimisation pipeline, emit code, and report LLVM's failures as
 * internal errors. */
#include <stdio.h>
#include <stdlib.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "stages.h"

bool ll_fail(Diag *d, const char *fmt, const char *detail) {
  d->kind = DIAG_INTERNAL;
  snprintf(d->msg, sizeof d->msg, fmt, detail);
  return false;
}

LLVMModuleRef ll_module(Func *f, const CompileOptions *opts, LLVMContextRef c, const char *symbol,
                        CompileResult *res, LLVMTargetMachineRef tm, const char *triple) {
  LLVMModuleRef m = lo_function(f, opts, c, symbol, res);
  LLVMSetTarget(m, triple);
  LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(m, layout);
  LLVMDisposeTargetData(layout);
  return m;
}

bool ll_verify(LLVMModuleRef m, Diag *d) {
  char *msg = NULL;
  bool ok = !LLVMVerifyModule(m, LLVMReturnStatusAction, &msg) || ll_fail(d, "internal error: invalid LLVM IR: %s", msg);
  LLVMDisposeMessage(msg);
  return ok;
}

/* ---------------------------------------------------------------- straight-line modules */

/* Whether a graph of n nodes (0 the entry) has a cycle reachable from the
 * entry: a depth-first walk meeting a node still on its path. succ(g, i,
 * k) is node i's k-th successor (-1 past the last). */
typedef int (*Successor)(void *g, int node, int k);

static bool has_cycle(void *g, int n, Successor succ) {
  enum { UNSEEN, ON_PATH, DONE };
  unsigned char *state = calloc((size_t)n, 1);
  int *path = malloc(sizeof(int) * (size_t)n), *next = calloc((size_t)n, sizeof(int));
  bool cycle = !state || !path || !next;  /* out of memory: assume the worst */
  int depth = 0;
  if (!cycle && n) state[path[depth++] = 0] = ON_PATH;
  while (depth && !cycle) {
    int node = path[depth - 1], to = succ(g, node, next[node]++);
    if (to < 0) state[node] = DONE, depth--;
    else if (state[to] == ON_PATH) cycle = true;
    else if (state[to] == UNSEEN) state[path[depth++] = to] = ON_PATH;
  }
  free(state);
  free(path);
  free(next);
  return cycle;
}

/* Nodes are LLVM values (blocks as values, functions), found by address
 * in a sorted copy of the list. */
typedef struct NodeAt {
  LLVMValueRef value;
  int index;
} NodeAt;

typedef struct ValueGraph {
  LLVMValueRef *nodes;  /* in the function's or module's order, the entry first */
  NodeAt *sorted;       /* by value */
  int n;
} ValueGraph;

static int by_address(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const NodeAt *)a)->value, y = (uintptr_t)((const NodeAt *)b)->value;
  return (x > y) - (x < y);
}

static bool graph_sort(ValueGraph *g) {
  if (!(g->sorted = malloc(sizeof(NodeAt) * ((size_t)(unsigned)g->n + 1)))) return false;
  for (int i = 0; i < g->n; i++) g->sorted[i] = (NodeAt){g->nodes[i], i};
  qsort(g->sorted, (size_t)g->n, sizeof(NodeAt), by_address);
  return true;
}

/* v's node (every successor is one: a block of the same function, a
 * function the module defines) */
static int node_index(const ValueGraph *g, LLVMValueRef v) {
  NodeAt key = {v, 0}, *at = bsearch(&key, g->sorted, (size_t)g->n, sizeof key, by_address);
  return at ? at->index : 0;
}

static int block_successor(void *graph, int node, int k) {
  ValueGraph *g = graph;
  LLVMValueRef term = LLVMGetBasicBlockTerminator(LLVMValueAsBasicBlock(g->nodes[node]));
  if (!term || k >= (int)LLVMGetNumSuccessors(term)) return -1;
  return node_index(g, LLVMBasicBlockAsValue(LLVMGetSuccessor(term, (unsigned)k)));
}

static bool function_loops(LLVMValueRef f) {
  ValueGraph g = {.n = (int)LLVMCountBasicBlocks(f)};
  LLVMBasicBlockRef *blocks = malloc(sizeof *blocks * (size_t)(g.n ? g.n : 1));
  g.nodes = malloc(sizeof(LLVMValueRef) * (size_t)(g.n ? g.n : 1));
  bool loops = !blocks || !g.nodes;
  if (!loops) {
    LLVMGetBasicBlocks(f, blocks);
    for (int i = 0; i < g.n; i++) g.nodes[i] = LLVMBasicBlockAsValue(blocks[i]);
    loops = !graph_sort(&g) || has_cycle(&g, g.n, block_successor);
  }
  free(blocks);
  free(g.nodes);
  free(g.sorted);
  return loops;
}

/* The k-th call of function node to a function the module defines. */
static int call_successor(void *graph, int node, int k) {
  ValueGraph *g = graph;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(g->nodes[node]); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
      if (callee && LLVMIsAFunction(callee) && !LLVMIsDeclaration(callee) && k-- == 0) return node_index(g, callee);
    }
  return -1;
}

bool ll_has_loops(LLVMModuleRef m, LLVMValueRef entry) {
  ValueGraph g = {.n = 0};
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f)) {
      if (function_loops(f)) return true;
      g.n++;
    }
  if (!(g.nodes = malloc(sizeof(LLVMValueRef) * (size_t)(g.n + 1)))) return true;
  int n = 0;
  g.nodes[n++] = entry;  /* the walk starts at the entry */
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && f != entry) g.nodes[n++] = f;
  g.n = n;
  bool loops = !graph_sort(&g) || has_cycle(&g, g.n, call_successor);
  free(g.nodes);
  free(g.sorted);
  return loops;
}

/* ---------------------------------------------------------------- pipelines */

static const char *const pipelines[] = {
  [LL_O3] = "default<O3>",
  [LL_O3_VECTORISE] = "default<O3>",
  [LL_STRAIGHT_LINE] = "default<O1>",
};

bool ll_optimise(LLVMModuleRef m, LLVMTargetMachineRef tm, LlPipeline pipeline, Diag *d) {
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  if (pipeline == LL_O3_VECTORISE) {
    LLVMPassBuilderOptionsSetLoopVectorization(po, 1);
    LLVMPassBuilderOptionsSetSLPVectorization(po, 1);
    LLVMPassBuilderOptionsSetLoopUnrolling(po, 1);
  }
  LLVMErrorRef err = LLVMRunPasses(m, pipelines[pipeline], tm, po);
  LLVMDisposePassBuilderOptions(po);
  if (!err) return true;
  char *text = LLVMGetErrorMessage(err);
  ll_fail(d, "LLVM optimisation failed: %s", text);
  LLVMDisposeErrorMessage(text);
  return false;
}

bool ll_emit(LLVMModuleRef m, LLVMTargetMachineRef tm, LLVMCodeGenFileType kind, LLVMMemoryBufferRef *out, Diag *d) {
  char *msg = NULL;
  if (!LLVMTargetMachineEmitToMemoryBuffer(tm, m, kind, &msg, out)) return true;
  ll_fail(d, "LLVM code generation failed: %s", msg);
  LLVMDisposeMessage(msg);
  return false;
}

bool ll_emit_text(LLVMModuleRef m, LLVMTargetMachineRef tm, char **text, Diag *d) {
  LLVMMemoryBufferRef buf;
  if (!ll_emit(m, tm, LLVMAssemblyFile, &buf, d)) return false;
  size_t n = LLVMGetBufferSize(buf);
  *text = malloc(n + 1);
  memcpy(*text, LLVMGetBufferStart(buf), n);
  (*text)[n] = 0;
  LLVMDisposeMemoryBuffer(buf);
  return true;
}
