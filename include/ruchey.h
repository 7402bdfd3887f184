/* ruchey.h — the IR, the types and the C API of libruchey.
 *
 * Grouped by the stage that owns each part, in pipeline order:
 * arena and IR (built by the frontend in ruchey._core), types (infer.c),
 * compile options and results (jit.c), runtime (runtime.c).
 * libruchey itself contains no Python: the frontend and the dispatcher live
 * in the CPython extension and reach the library through RucheyAPI.
 */
#ifndef RUCHEY_H
#define RUCHEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RUCHEY_API_VERSION 4
#define RC_MAX_NDIM 8

/* ---------------------------------------------------------------- arena */

/* Every IR node and type of one compilation lives in one arena, freed
 * whole when the compilation ends. Inline so that the extension can build
 * the IR before libruchey is loaded. */
typedef struct ArenaBlock {
  struct ArenaBlock *next;
  size_t used, size;
  _Alignas(16) char data[];
} ArenaBlock;

typedef struct Arena {
  ArenaBlock *head;
} Arena;

static inline void *arena_alloc(Arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (!a->head || a->head->used + n > a->head->size) {
    size_t size = n > 16384 ? n : 16384;
    ArenaBlock *b = (ArenaBlock *)malloc(sizeof(ArenaBlock) + size);
    if (!b) abort();
    b->next = a->head;
    b->used = 0;
    b->size = size;
    a->head = b;
  }
  void *p = a->head->data + a->head->used;
  a->head->used += n;
  return memset(p, 0, n);
}

static inline char *arena_strdup(Arena *a, const char *s) {
  size_t n = strlen(s) + 1;
  return (char *)memcpy(arena_alloc(a, n), s, n);
}

static inline void arena_free(Arena *a) {
  while (a->head) {
    ArenaBlock *next = a->head->next;
    free(a->head);
    a->head = next;
  }
}

/* ---------------------------------------------------------------- types (types.c) */

/* What a kind of type is (types.def gives each kind its flags). */
enum {
  TF_SCALAR = 1 << 0,   /* a number or bool: held in a register */
  TF_INT = 1 << 1,
  TF_SIGNED = 1 << 2,
  TF_FLOAT = 1 << 3,
  TF_BOOL = 1 << 4,
  TF_REFS = 1 << 5,     /* holds arrays, whose memory is reference-counted */
  TF_NOVALUE = 1 << 6,  /* only used where it is written (range, dtype, module) */
};

typedef enum {
#define X(kind, name, flags, bits) TY_##kind,
#include "types.def"
#undef X
  TY_COUNT
} TypeKind;

/* A type. Types are interned by libruchey: equal types are the same
 * object, compared by address, and live as long as the process. */
typedef struct Type Type;
struct Type {
  TypeKind kind;
  unsigned flags;        /* the kind's TF_ flags, and TF_REFS for a tuple holding arrays */
  int bits;              /* a scalar's width */
  const Type *elem;      /* TY_ARRAY, TY_DTYPE: the scalar element type */
  int ndim;              /* TY_ARRAY */
  char layout;           /* TY_ARRAY: 'C' contiguous, 'F' Fortran, 'A' any strides */
  bool readonly;         /* TY_ARRAY: writing is a TypingError */
  int nfields;           /* TY_TUPLE */
  const Type *const *fields; /* TY_TUPLE */
  /* the data model: how a value lies in memory as an argument, a result,
   * an array element or a tuple field (as LLVM lays out its structs) */
  size_t size, align;
  const size_t *offsets; /* TY_TUPLE: each field's offset */
  const char *name;      /* as Numba spells it: "float64", "array(float64, 1d, C)", "(int64, float64)" */
};

static inline bool ty_is_scalar(const Type *t) { return t->flags & TF_SCALAR; }
static inline bool ty_is_int(const Type *t) { return t->flags & TF_INT; }
static inline bool ty_is_signed(const Type *t) { return t->flags & TF_SIGNED; }
static inline bool ty_is_float(const Type *t) { return t->flags & TF_FLOAT; }
static inline bool ty_is_unsigned(const Type *t) { return (t->flags & (TF_INT | TF_SIGNED)) == TF_INT; }
/* Whether a value of type t holds arrays (whose memory is reference-counted). */
static inline bool ty_has_arrays(const Type *t) { return t->flags & TF_REFS; }
/* Width in bits of a scalar; bool counts as 8 in memory. */
static inline int ty_bits(const Type *t) { return t->bits; }

#ifdef RUCHEY_LIB
/* The types' constructors, in libruchey (the extension reaches them through
 * RucheyAPI, so that there is one table of types in the process). */
extern const Type ty_plain[TY_COUNT];  /* the kinds without parameters */
#define TYS(k) (&ty_plain[(k)])
const Type *ty_array(const Type *elem, int ndim, char layout, bool readonly);
const Type *ty_tuple(int n, const Type *const *fields);
const Type *ty_dtype(const Type *elem);
#endif

/* ---------------------------------------------------------------- IR (frontend.c) */

typedef enum {
  /* expressions */
  N_INT,        /* ival: integer literal */
  N_FLOAT,      /* fval: float literal */
  N_BOOL,       /* ival: True/False */
  N_VAR,        /* var: a local variable (parameters first) */
  N_MODULE,     /* ival: a module (ModuleId) used as an attribute base */
  N_DTYPE,      /* ival: TypeKind of a NumPy scalar type used as a dtype */
  N_BINOP,      /* op: BinOp; lhs, rhs */
  N_UNARY,      /* op: UnaryOp; lhs */
  N_COMPARE,    /* list: operands, ops: CmpOp per pair (chained) */
  N_BOOLOP,     /* op: OP_AND/OP_OR; list: operands */
  N_IFEXP,      /* cond ? lhs : rhs */
  N_CALL,       /* op: Builtin; list: positional args; kw: keyword args */
  N_INDEX,      /* lhs[rhs]; rhs may be N_TUPLE */
  N_ATTR,       /* lhs.attr, op: AttrId */
  N_TUPLE,      /* list: elements */
  N_SLICE,      /* lhs:rhs:cond (each may be NULL), only inside an index */
  /* statements */
  N_ASSIGN,     /* lhs (N_VAR, N_INDEX or N_TUPLE of targets) = rhs */
  N_AUGASSIGN,  /* lhs op= rhs */
  N_IF,         /* if cond: body else: orelse */
  N_FOR,        /* for lhs(N_VAR) in cond(range call): body else: orelse */
  N_WHILE,      /* while cond: body else: orelse */
  N_BREAK, N_CONTINUE, N_PASS,
  N_RETURN,     /* return lhs (NULL: None) */
  N_EXPR,       /* an expression evaluated for its effect */
  N_BLOCK,      /* body: statements in sequence (a = b = c) */
  N_ASSERT,     /* assert cond, message (str: the message, or NULL) */
  N_RAISE,      /* raise exc(str): callee is the exception class */
  N_COUNT
} NodeKind;

typedef enum {
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_POW,
  OP_LSHIFT, OP_RSHIFT, OP_BITAND, OP_BITOR, OP_BITXOR,
  OP_NEG, OP_POS, OP_NOT, OP_INVERT,
  OP_AND, OP_OR,
  OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
  OP_COUNT
} Op;

typedef enum { MOD_NUMPY, MOD_MATH } ModuleId;

/* The math functions compiled code can call: X(id, name in math, name in
 * numpy, arity, libm function or NULL). math.* follows CPython (domain errors
 * raise ValueError, floor/ceil/trunc give ints); numpy.* follows NumPy (nan,
 * floats). */
#define RC_MATH_FUNCS(X)                                   \
  X(SQRT, "sqrt", "sqrt", 1, "sqrt")                       \
  X(EXP, "exp", "exp", 1, "exp")                           \
  X(EXP2, "exp2", "exp2", 1, "exp2")                       \
  X(EXPM1, "expm1", "expm1", 1, "expm1")                   \
  X(LOG, "log", "log", 1, "log")                           \
  X(LOG2, "log2", "log2", 1, "log2")                       \
  X(LOG10, "log10", "log10", 1, "log10")                   \
  X(LOG1P, "log1p", "log1p", 1, "log1p")                   \
  X(SIN, "sin", "sin", 1, "sin")                           \
  X(COS, "cos", "cos", 1, "cos")                           \
  X(TAN, "tan", "tan", 1, "tan")                           \
  X(ASIN, "asin", "arcsin", 1, "asin")                     \
  X(ACOS, "acos", "arccos", 1, "acos")                     \
  X(ATAN, "atan", "arctan", 1, "atan")                     \
  X(SINH, "sinh", "sinh", 1, "sinh")                       \
  X(COSH, "cosh", "cosh", 1, "cosh")                       \
  X(TANH, "tanh", "tanh", 1, "tanh")                       \
  X(ASINH, "asinh", "arcsinh", 1, "asinh")                 \
  X(ACOSH, "acosh", "arccosh", 1, "acosh")                 \
  X(ATANH, "atanh", "arctanh", 1, "atanh")                 \
  X(ERF, "erf", NULL, 1, "erf")                            \
  X(ERFC, "erfc", NULL, 1, "erfc")                         \
  X(GAMMA, "gamma", NULL, 1, "tgamma")                     \
  X(LGAMMA, "lgamma", NULL, 1, "lgamma")                   \
  X(CBRT, "cbrt", "cbrt", 1, "cbrt")                       \
  X(FABS, "fabs", "fabs", 1, NULL)                         \
  X(FLOOR, "floor", "floor", 1, NULL)                      \
  X(CEIL, "ceil", "ceil", 1, NULL)                         \
  X(TRUNC, "trunc", "trunc", 1, NULL)                      \
  X(RINT, NULL, "rint", 1, NULL)                           \
  X(ISNAN, "isnan", "isnan", 1, NULL)                      \
  X(ISINF, "isinf", "isinf", 1, NULL)                      \
  X(ISFINITE, "isfinite", "isfinite", 1, NULL)             \
  X(DEGREES, "degrees", "degrees", 1, NULL)                \
  X(RADIANS, "radians", "radians", 1, NULL)                \
  X(SIGN, NULL, "sign", 1, NULL)                           \
  X(ATAN2, "atan2", "arctan2", 2, "atan2")                 \
  X(HYPOT, "hypot", "hypot", 2, "hypot")                   \
  X(COPYSIGN, "copysign", "copysign", 2, NULL)             \
  X(FMOD, "fmod", "fmod", 2, "fmod")                       \
  X(POW, "pow", "power", 2, NULL)                          \
  X(NPABS, NULL, "absolute", 1, NULL)                      \
  X(FMIN, NULL, "minimum", 2, NULL)                        \
  X(FMAX, NULL, "maximum", 2, NULL)

#define RC_MATH_ENUM(id, m, np, n, libm) MF_##id,
typedef enum { RC_MATH_FUNCS(RC_MATH_ENUM) MF_COUNT } MathFn;
#undef RC_MATH_ENUM

typedef enum {
  BI_RANGE, BI_PRANGE, BI_LEN, BI_ABS, BI_MIN, BI_MAX, BI_INT, BI_FLOAT, BI_BOOL, BI_ROUND,
  BI_NP_EMPTY, BI_NP_ZEROS, BI_NP_ONES,
  BI_NP_EMPTY_LIKE, BI_NP_ZEROS_LIKE, BI_NP_ONES_LIKE, BI_NP_ARANGE,
  BI_COPY,                       /* numpy.copy(a), a.copy() */
  BI_THREAD_ID, BI_NUM_THREADS,  /* ruchey.get_thread_id(), ruchey.get_num_threads() */
  BI_JIT,                        /* a call to another ruchey function: Node.callee */
  /* CUDA kernels (ruchey.cuda): ival is the axis (0-2) or the atomic op */
  BI_CUDA_TID, BI_CUDA_BID, BI_CUDA_BDIM, BI_CUDA_GDIM,
  BI_CUDA_GRID, BI_CUDA_GRIDSIZE, BI_CUDA_SYNC, BI_CUDA_SHARED, BI_CUDA_LOCAL, BI_CUDA_ATOMIC,
  BI_CAST,                       /* numpy.float32(x) and the like: ival is the TypeKind */
  BI_MATH,                       /* math.<f>: BI_MATH + MathFn */
  BI_NP = BI_MATH + MF_COUNT,    /* numpy.<f>: BI_NP + MathFn */
  BI_COUNT = BI_NP + MF_COUNT
} Builtin;

typedef enum { ATTR_SHAPE, ATTR_SIZE, ATTR_NDIM, ATTR_DTYPE, ATTR_T } AttrId;

typedef enum { ATOM_ADD, ATOM_SUB, ATOM_MAX, ATOM_MIN, ATOM_EXCH, ATOM_CAS } AtomicOp;

typedef struct Node Node;

typedef struct NodeList {
  Node **items;
  int len;
} NodeList;

struct Node {
  NodeKind kind;
  int line, col;        /* 1-based line in the file, 0-based column */
  const Type *ty;       /* set by infer for expressions */
  int op;               /* Op, Builtin or AttrId by kind */
  int64_t ival;
  double fval;
  int var;              /* N_VAR: index into Func.var_names */
  Node *lhs, *rhs, *cond;
  NodeList list;        /* operands, elements, positional arguments */
  int *ops;             /* N_COMPARE: one CmpOp per adjacent pair */
  NodeList kw;          /* N_CALL: keyword argument values */
  const char **kw_names;/* N_CALL: their names */
  NodeList body, orelse;
  const char *str;      /* N_ASSERT, N_RAISE: the constant message */
  void *callee;         /* N_CALL BI_JIT: the dispatcher; N_RAISE: the class */
  struct CallTarget *target; /* N_CALL BI_JIT: set by infer */
  struct LoopPlan *plan;     /* N_FOR: set by the analyses (lib/analysis) */
};

typedef struct Func {
  const char *name;
  const char *filename;
  int nparams;          /* the first nparams variables are the parameters */
  int nvars;
  const char **var_names;
  const Type **var_types; /* set by infer */
  const Type *ret_type;   /* set by infer */
  NodeList body;
  Arena *arena;
  int line;             /* line of the def statement */
  bool barrier;         /* set by infer: reaches cuda.syncthreads() */
  struct FuncPlan *plan;  /* set by the analyses (lib/analysis) before lowering */
} Func;

/* ---------------------------------------------------------------- diagnostics */

typedef enum { DIAG_TYPING = 1, DIAG_INTERNAL } DiagKind;

/* A compile-time error at a source position; the extension turns it into
 * ruchey.TypingError quoting the line. */
typedef struct Diag {
  DiagKind kind;
  int line, col;
  char msg[1024];
} Diag;

/* ---------------------------------------------------------------- compile (jit.c) */

struct CompileOptions;

/* What a call to another ruchey function resolves to. */
typedef struct CallTarget {
  bool self;             /* a recursive call to the function being compiled */
  int (*entry)(void *ret, void **args);  /* otherwise: its compiled entry, */
  void **indirect;       /* or where that entry will be (mutual recursion) */
  bool barrier;          /* it reaches cuda.syncthreads(): callers run as fibers */
  const Type *ret_type;  /* NULL while a recursive call's type is unknown */
  /* On the GPU the callee is lowered into the caller's module: */
  Func *func;            /* the callee, typed for these arguments */
  const struct CompileOptions *func_opts; /* the options it was typed with */
  const char *symbol;    /* its name in the module, one per (callee, types) */
} CallTarget;

/* Asks the extension to compile callee for argument types (which may
 * recurse into compile); false with diag set on failure. */
typedef bool (*ResolveCall)(void *ctx, void *callee, const Type **args, int nargs, bool device,
                            CallTarget *out, Diag *diag);

typedef struct CompileOptions {
  ResolveCall resolve;     /* calls to other ruchey functions */
  void *resolve_ctx;
  const Type *declared_ret;/* an explicit signature's return type, or NULL */
  bool boundscheck;
  bool fastmath;
  bool parallel;           /* prange loops run on the thread pool */
  bool kernel;             /* a @cuda.jit kernel: runs a grid of blocks of threads */
  bool device;             /* a function called from a kernel: after its arguments comes the CUDA
                            * thread it runs as, int64 tid[3], bid[3], bdim[3], gdim[3]; with
                            * gpu_cc, a PTX .func taking its arguments as values */
  bool debug;              /* kernels: out-of-bounds indexing names the thread */
  int gpu_cc;              /* OUT_PTX: the compute capability (75 for 7.5); 0 for the CPU */
  bool error_model_numpy;  /* division by zero gives inf/nan instead of raising */
} CompileOptions;

typedef enum { OUT_JIT, OUT_LLVM_IR, OUT_ASM, OUT_PTX } OutputKind;



typedef struct CompileResult {
  /* OUT_JIT: int entry(void *ret, void **args); returns an RtStatus */
  int (*entry)(void *ret, void **args);
  const Type *ret_type;  /* allocated in the Func's arena */
  char *text;            /* OUT_LLVM_IR, OUT_ASM: malloc'd text */
  char warning[512];     /* a prange loop that runs serially, and why */
  bool barrier;          /* the function reaches cuda.syncthreads() */
} CompileResult;

/* ---------------------------------------------------------------- runtime (runtime.c) */

/* Reference-counted memory behind arrays allocated by compiled code. */
typedef struct RtMemInfo {
  int64_t refcount;
  void *data;
} RtMemInfo;

/* An array as compiled code sees it. Arrays that came in as arguments have
 * meminfo NULL and parent the PyObject they were unboxed from. */
typedef struct RtArray {
  RtMemInfo *meminfo;
  void *parent;
  char *data;
  int64_t shape[RC_MAX_NDIM];   /* only the first ndim are used */
  int64_t strides[RC_MAX_NDIM]; /* in bytes; follow shape[ndim] in LLVM */
} RtArray;

typedef enum {
  RT_OK = 0,
  RT_ERR_ZERODIV, RT_ERR_INDEX, RT_ERR_VALUE, RT_ERR_MEMORY,
  RT_ERR_ASSERT, RT_ERR_OVERFLOW, RT_ERR_RUNTIME, RT_ERR_UNBOUND,
  RT_ERR_RAISE   /* raise in compiled code: exc_class says which */
} RtStatus;

/* What a failed call left behind, per thread. */
typedef struct RtError {
  RtStatus status;
  const char *msg;       /* NULL: raised without a message */
  void *exc_class;       /* RT_ERR_RAISE: the Python exception class */
} RtError;

/* A kernel launch, passed after the kernel's arguments. */
typedef struct LaunchConfig {
  int64_t grid[3], block[3];
  int64_t dynamic_shared;  /* bytes of cuda.shared.array(0, ...) per block */
} LaunchConfig;

/* ---------------------------------------------------------------- thread pool (pool.c) */

/* One chunk of a parallel loop: iterations [begin, end), the loop's chunk
 * number `chunk` (0 when the loop runs serially: the whole range). */
typedef void (*PoolBody)(void *ctx, int64_t begin, int64_t end, int64_t chunk);

/* How many chunks pool_parallel_for cuts a loop of n iterations into when
 * called from this thread now: per-chunk storage (reduction partials) is
 * sized by it. At least 1. */
int64_t pool_chunk_count(int64_t n);
/* Runs body over [0, n) cut into `chunks` contiguous chunks, taken in turn
 * by the threads of the pool (started on first use) and the calling thread;
 * returns when every chunk is done. Called from inside a pool thread (a
 * nested parallel loop) it runs the whole range serially on that thread. */
void pool_parallel_for(PoolBody body, void *ctx, int64_t n, int64_t chunks);
int64_t pool_get_num_threads(void);  /* threads a parallel loop uses now */
int pool_set_num_threads(int64_t n); /* -1 if n < 1 or above the pool size */
int64_t pool_max_threads(void);      /* the pool size */
int64_t pool_thread_id(void);        /* 0 outside the pool */

/* ---------------------------------------------------------------- the library's API */

/* Everything the extension needs from libruchey, fetched with dlsym once. */
typedef struct RucheyAPI {
  int version;
  /* the types (types.c): one table in the process */
  const Type *plain;   /* the kinds without parameters (scalars, none), indexed by TypeKind */
  const Type *(*array)(const Type *elem, int ndim, char layout, bool readonly);
  const Type *(*tuple)(int n, const Type *const *fields);
  /* Types f for the argument types (calling opts->resolve for callees);
   * needs the caller's locks (the GIL) for those callbacks. */
  bool (*infer)(Func *f, const Type **argtypes, const CompileOptions *opts, Diag *diag);
  /* Lowers, optimises and loads a typed f; touches nothing of the caller's,
   * so it may run without the GIL and concurrently with other compiles. */
  bool (*generate)(Func *f, const CompileOptions *opts, OutputKind out, CompileResult *res, Diag *diag);
  void (*meminfo_release)(RtMemInfo *mi);
  RtError *(*last_error)(void);
  const char *(*llvm_version)(void);
  const char *(*host_cpu)(void);
  /* the thread pool (pool.c) */
  void (*parallel_for)(PoolBody body, void *ctx, int64_t n, int64_t chunks);
  int64_t (*chunk_count)(int64_t n);
  int64_t (*get_num_threads)(void);
  int (*set_num_threads)(int64_t n);
  int64_t (*max_threads)(void);
  int64_t (*thread_id)(void);
} RucheyAPI;

const RucheyAPI *ruchey_api(void);

/* Stage interfaces inside libruchey. */
bool ty_infer(Func *f, const Type **argtypes, const CompileOptions *opts, Diag *diag);
void rt_register_symbols(void (*define)(const char *name, void *addr, void *ctx), void *ctx);
RtError *rt_last_error(void);
void rt_set_error(int status, const char *msg);
/* fiber.c */
int rt_fiber_block(int (*body)(void *ctx, int64_t thread), void *ctx, int64_t n);
void rt_fiber_barrier(const char *site);
void rt_meminfo_release(RtMemInfo *mi);

#endif
