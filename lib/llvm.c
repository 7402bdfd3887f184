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

/* A graph of LLVM values (a function's blocks, a module's functions), the
 * entry node 0; each node's successors are to[start[i]] to
 * to[start[i + 1] - 1]. Values are found by address in a sorted copy. */
typedef struct NodeAt {
  LLVMValueRef value;
  int index;
} NodeAt;

typedef struct Graph {
  int n, nedges, cap;
  LLVMValueRef *nodes;
  NodeAt *sorted;  /* the nodes by address */
  int *start;      /* n + 1 */
  int *to;
} Graph;

static int by_address(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const NodeAt *)a)->value, y = (uintptr_t)((const NodeAt *)b)->value;
  return (x > y) - (x < y);
}

/* A graph of n nodes without edges yet; false when out of memory. */
static bool graph_open(Graph *g, int n) {
  *g = (Graph){.n = n};
  g->nodes = malloc(sizeof(LLVMValueRef) * ((size_t)(unsigned)n + 1));
  g->sorted = malloc(sizeof(NodeAt) * ((size_t)(unsigned)n + 1));
  g->start = calloc((size_t)(unsigned)n + 1, sizeof(int));
  return g->nodes && g->sorted && g->start;
}

static void graph_index(Graph *g) {
  for (int i = 0; i < g->n; i++) g->sorted[i] = (NodeAt){g->nodes[i], i};
  qsort(g->sorted, (size_t)g->n, sizeof(NodeAt), by_address);
}

/* An edge from the node whose edges are being added (nodes in order) to
 * v, if v is a node. */
static bool graph_edge(Graph *g, LLVMValueRef v) {
  NodeAt key = {v, 0}, *at = bsearch(&key, g->sorted, (size_t)g->n, sizeof key, by_address);
  if (!at) return true;
  if (g->nedges == g->cap) {
    int cap = g->cap ? 2 * g->cap : 16;
    int *grown = realloc(g->to, sizeof(int) * (size_t)cap);
    if (!grown) return false;
    g->to = grown;
    g->cap = cap;
  }
  g->to[g->nedges++] = at->index;
  return true;
}

static void graph_close(Graph *g) {
  free(g->nodes);
  free(g->sorted);
  free(g->start);
  free(g->to);
}

/* Whether a cycle is reachable from the entry: a depth-first walk meeting
 * a node still on its path. */
static bool has_cycle(const Graph *g) {
  enum { UNSEEN, ON_PATH, DONE };
  unsigned char *state = calloc((size_t)g->n, 1);
  int *path = malloc(sizeof(int) * (size_t)g->n), *next = malloc(sizeof(int) * (size_t)g->n);
  bool cycle = !state || !path || !next;  /* out of memory: assume the worst */
  int depth = 0;
  if (!cycle) {
    memcpy(next, g->start, sizeof(int) * (size_t)g->n);
    state[path[depth++] = 0] = ON_PATH;
  }
  while (depth && !cycle) {
    int node = path[depth - 1];
    if (next[node] == g->start[node + 1]) {
      state[node] = DONE;
      depth--;
      continue;
    }
    int to = g->to[next[node]++];
    if (state[to] == ON_PATH) cycle = true;
    else if (state[to] == UNSEEN) state[path[depth++] = to] = ON_PATH;
  }
  free(state);
  free(path);
  free(next);
  return cycle;
}

static bool function_loops(LLVMValueRef f) {
  Graph g = {.n = 0};
  int n = (int)LLVMCountBasicBlocks(f);
  LLVMBasicBlockRef *blocks = malloc(sizeof *blocks * ((size_t)(unsigned)n + 1));
  bool ok = blocks && graph_open(&g, n);
  if (ok) {
    LLVMGetBasicBlocks(f, blocks);
    for (int i = 0; i < n; i++) g.nodes[i] = LLVMBasicBlockAsValue(blocks[i]);
    graph_index(&g);
    for (int i = 0; i < n && ok; i++) {
      LLVMValueRef term = LLVMGetBasicBlockTerminator(blocks[i]);
      unsigned nsucc = term ? LLVMGetNumSuccessors(term) : 0;
      for (unsigned k = 0; k < nsucc && ok; k++) ok = graph_edge(&g, LLVMBasicBlockAsValue(LLVMGetSuccessor(term, k)));
      g.start[i + 1] = g.nedges;
    }
  }
  bool loops = !ok || has_cycle(&g);
  free(blocks);
  graph_close(&g);
  return loops;
}

bool ll_has_loops(LLVMModuleRef m, LLVMValueRef entry) {
  int n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f)) {
      if (function_loops(f)) return true;
      n++;
    }
  /* the calls between the functions defined, the walk from the entry */
  Graph g = {.n = 0};
  bool ok = graph_open(&g, n);
  if (ok) {
    n = 0;
    g.nodes[n++] = entry;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
      if (!LLVMIsDeclaration(f) && f != entry) g.nodes[n++] = f;
    graph_index(&g);
  }
  for (int i = 0; i < n && ok; i++) {
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(g.nodes[i]); b && ok; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef in = LLVMGetFirstInstruction(b); in && ok; in = LLVMGetNextInstruction(in))
        if (LLVMIsACallInst(in)) ok = graph_edge(&g, LLVMGetCalledValue(in));
    g.start[i + 1] = g.nedges;
  }
  bool loops = !ok || has_cycle(&g);
  graph_close(&g);
  return loops;
}

/* ---------------------------------------------------------------- pipelines */

/* A module is the entry's wrapper (unboxing, the call, boxing) and the
 * functions it calls. The default pipelines' inliner simplifies each
 * callee whole before inlining it, then its caller again with the
 * callee's body inside: the kernel was simplified twice. Inlining first,
 * with no simplification in between, leaves one function to simplify:
 * O3 takes a fifth less time (test modules with loops: 10.1 to 8.1 ms)
 * for the same instructions after it (131 of 150 modules the same; the
 * rest differ in shape checks outside loops, or a loop unrolled by 4 not
 * 8, no slower), O1 8% less for the same code.
 *
 * Code without loops gets inlining and the function passes that simplify
 * straight-line code, not O1's whole pipeline (whose loop passes, attribute
 * inference and interprocedural passes find nothing to do there): half the
 * time (the test suite's loop-free modules: 1.2 ms, not 2.5, each), as many
 * instructions after it (151 a module, O1's 150). llvm.expect becomes
 * branch weights first, as in O1, so the error paths it marks stay out of
 * the way. */
static const char *const pipelines[] = {
  [LL_O3] = "default<O3>",
  [LL_O3_VECTORISE] = "cgscc(inline),default<O3>",
  [LL_STRAIGHT_LINE] = "cgscc(inline),function(lower-expect,sroa<modify-cfg>,early-cse<memssa>,"
                       "instcombine<no-verify-fixpoint>,simplifycfg,sccp,adce,instcombine<no-verify-fixpoint>,"
                       "simplifycfg),globaldce",
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
