/* lower.h — the lowering stage: typed IR to LLVM IR.
 *
 * Shared by the files of lib/lower/, one concern each:
 *   function.c  a function's entry and exit, the entry ABI, lo_function
 *   emit.c      LLVM helpers: blocks, allocas, calls, intrinsics, raising, loop nests
 *   model.c     how values of each type are held (LLVM types, storage layout, conversions)
 *   refcount.c  reference counts of array memory
 *   arith.c     arithmetic and comparisons with Python's semantics
 *   arrays.c    element addresses, views, allocation, copies
 *   expr.c      expressions
 *   stmt.c      statements and loops (errors deferred where the analysis allows)
 *   try.c       try/except/else/finally
 *   calls.c     calls between compiled functions
 *   generators.c generator functions: their state, resume function and consumers
 *   prange.c    parallel regions on the thread pool
 *   cfunc.c     the C entry of a @cfunc
 *   kernel.c    CUDA kernels on the CPU: blocks over the pool, threads as loops (fission)
 *   fibers.c    CUDA kernels on the CPU whose threads run as fibers
 *   gpu.c       CUDA kernels and device functions for NVPTX
 * The builtins' lowerers live with their typers in lib/builtins/ (each
 * N_CALL and N_ATTR is lowered by its row's lowerer).
 *
 * One module is lowered at a time (LowerModule); each function emitted into
 * it, outlined ones too, has its own state (Lower) pointing at the module.
 */
#ifndef RUCHEY_LOWER_H
#define RUCHEY_LOWER_H

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include "analysis/analysis.h"
#include "stages.h"

/* What every function of one module shares. */
typedef struct LowerModule {
  LLVMContextRef c;
  LLVMModuleRef m;
  LLVMTypeRef i1, i8, i32, i64, f32, f64, ptr;
  LLVMTypeRef rtarray;       /* RtArray's memory layout */
  CompileResult *res;        /* for warnings */
  bool gpu;                  /* lowering for NVPTX: one thread per call, real barriers */
  int nregions;              /* outlined functions so far, for unique names */
  int64_t local_bytes;       /* the CPU backend's cuda.local.arrays, all functions' together */
  LLVMValueRef fiber_stack;  /* the global that tells rt_fiber_block local_bytes, once a block needs it */
  LLVMDIBuilderRef lines;    /* the line table's builder (PTX with lineinfo), or NULL */
} LowerModule;

typedef struct Loop {
  LLVMBasicBlockRef brk, cont;
  const LoopPlan *plan;  /* a for loop's (NULL: another loop) */
} Loop;

/* The state of the one function being emitted. */
typedef struct Lower {
  LowerModule *mod;
  Func *f;
  const CompileOptions *opts;
  LLVMBuilderRef b;
  LLVMValueRef fn;
  LLVMValueRef impl;         /* the body, arguments as values: recursive calls go here */
  /* a recursive body's RtStackGuard and the stack address its calls are
   * told they start at, passed along (function.c) */
  LLVMValueRef stack_guard, stack_next;
  LLVMValueRef ret_val;      /* the body's result, returned with the status */
  LLVMValueRef status;       /* i32 alloca read by the exit block */
  LLVMValueRef *slots;       /* one alloca per variable */
  LLVMValueRef *assigned;    /* i1 allocas: variables that may be read unassigned */
  LLVMBasicBlockRef exit_bb; /* where a raise goes: the function's exit (which releases the
                              * locals and returns status), or the innermost try's except clauses */
  Loop *loop;                /* innermost loop, for break/continue */
  struct TryScope *tries;    /* the try statements around the code being emitted (try.c) */
  LLVMValueRef caught;       /* in an except clause that re-raises: the RtError it caught */
  /* Arrays made by the statement being emitted and not yet handed to an
   * owner: an error raised now releases them. */
  LLVMValueRef *temps;
  const Type **temp_types;
  int ntemps, temps_cap;
  bool numpy_semantics;      /* the elements of an array expression: NumPy's rules, not Python's (ufunc.c) */
  bool operator_quotient;    /* an array expression's binary `/`: complex quotients divided as Python's, as
                              * Numba's array expressions divide (np.divide and `/=` keep NumPy's), in code
                              * written for Numba raising ZeroDivisionError as Numba's (ufunc.c) */
  bool outlined;             /* a chunk the pool runs (lo_begin_outlined) */
  bool parfor_errors;        /* a prange loop's body in code written for Numba, which compiles it
                              * as a parfor, under error_model="numpy" (prange.c, stmt.c) */
  bool callee;               /* a body lowered for a call from another function (calls.c) */
  int pow_var, pow_value;    /* in a loop's version for one exponent (pow_value > 0), the parameter
                              * its float ** int raises to and that exponent (stmt.c) */
  LLVMValueRef deferred;     /* i1 alloca: checks set it instead of raising (stmt.c) */
  bool powers_unchecked;     /* the first run of a loop checked by its sums: no power checks its
                              * overflow (stmt.c, LoopPlan.sums) */
  bool range_up;             /* in a loop's version for ranges that start at 0 or more and count up (stmt.c) */
  /* CUDA kernels and device functions: the current thread and block */
  LLVMValueRef tid[3], bid[3], bdim[3], gdim[3];
  LLVMMetadataRef subprogram;/* with a line table: this function's, the scope of its statements' lines */
  LLVMValueRef launch;       /* CPU kernels: the LaunchConfig */
  LLVMValueRef nthreads;     /* threads in a block */
  LLVMValueRef thread;       /* the linear index of the current thread */
  LLVMBasicBlockRef next_thread; /* where a return goes: the next thread */
  const KernelPlan *kplan;   /* CPU kernels: the analysis' plan */
  bool fission;              /* the kernel has barriers: variables per thread */
  bool fibers;               /* the block's threads run as fibers (see fiber.c) */
  LLVMValueRef *var_base;    /* fission: each variable's per-thread storage */
  LLVMValueRef done;         /* fission: per-thread "has returned" bytes */
  LLVMValueRef dyn_shared;   /* cuda.shared.array(0, ...) storage */
  Node **mem_nodes;          /* shared/local array call sites ... */
  LLVMValueRef *mem_base;    /* ... and their storage */
  LLVMValueRef *heap_slots;  /* a kernel chunk's: the storage it took from the heap, freed at its exit */
  int nheap_slots;
  int nmem;
  /* fission: the collective whose statement runs now, its arguments as
   * every thread of the block gave them (i64 bits per thread, by slot:
   * mask, value, lane) and its results per thread (warp.c) */
  Node *coll;
  LLVMValueRef coll_args[3], coll_out;
  LLVMValueRef coll_lane;    /* a shuffle's lane or delta when the same in every thread, or NULL */
  bool coll_pow2;            /* and, for shfl_xor_sync, a power of two */
  LLVMValueRef coll_values;  /* or a shuffle's value read where its variable keeps it per thread (kernel.c) */
  LLVMValueRef lane;         /* the thread's lane where threads run by warps (kernel.c's warp_loop), or NULL */
  LLVMValueRef trips;        /* fission: each thread's iterations of the loop run in step (kernel.c) */
  struct GenLower *gen;      /* a generator's resume function: its state and yields (generators.c) */
  /* the dicts and sets that the for loops being emitted iterate, the
   * innermost first: each element's read and an i64 alloca of its
   * container's size when its loop began (stmt.c), which every next item
   * is checked against */
  struct IterSize { const Node *at; LLVMValueRef size; struct IterSize *next; } *iter_sizes;
} Lower;

/* ---------------------------------------------------------------- small helpers */

static inline LLVMValueRef const_i64(Lower *l, int64_t v) {
  return LLVMConstInt(l->mod->i64, (unsigned long long)v, 1);
}

static inline LLVMValueRef const_i32(Lower *l, int v) {
  return LLVMConstInt(l->mod->i32, (unsigned long long)v, 1);
}

static inline LLVMValueRef const_bool(Lower *l, bool v) { return LLVMConstInt(l->mod->i1, v, 0); }

static inline LLVMBasicBlockRef new_block(Lower *l, const char *name) {
  return LLVMAppendBasicBlockInContext(l->mod->c, l->fn, name);
}

static inline void position(Lower *l, LLVMBasicBlockRef bb) { LLVMPositionBuilderAtEnd(l->b, bb); }

/* Whether the block being emitted already ends (a return, break, raise). */
static inline bool terminated(Lower *l) {
  return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(l->b)) != NULL;
}

static inline LLVMValueRef fcmp(Lower *l, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFCmp(l->b, p, a, b, "");
}

static inline LLVMTypeRef void_type(Lower *l) { return LLVMVoidTypeInContext(l->mod->c); }

/* Division by zero gives inf, nan or 0 rather than raising: error_model="numpy",
 * the elements of array expressions, as NumPy computes them, and the body of
 * a prange loop written for Numba, as Numba's parfors. */
static inline bool lo_numpy_errors(Lower *l) {
  return l->opts->error_model_numpy || l->numpy_semantics || l->parfor_errors;
}
/* Whether a prange loop's body divides as Numba's parfors: in code written
 * for Numba, whether the loop runs on the pool or is left serial. */
static inline bool lo_prange_errors(Lower *l) { return l->parfor_errors || l->opts->numba_code; }
/* Whether compiled code gives CPython 3.14's answers where 3.14 changed
 * them: the running interpreter's (CompileOptions.python). */
static inline bool lo_python314(Lower *l) { return l->opts->python >= 0x030E0000; }
/* A ZeroDivisionError's message: 3.14 says "division by zero" for every
 * operator, 3.10 to 3.13 name it (before). */
static inline const char *lo_zero_division(Lower *l, const char *before) {
  return lo_python314(l) ? "division by zero" : before;
}

/* ---------------------------------------------------------------- emit.c */

LLVMValueRef lo_alloca(Lower *l, LLVMTypeRef t, const char *name);  /* in the entry block */
LLVMValueRef lo_get_fn(Lower *l, const char *name, LLVMTypeRef ty);
LLVMValueRef lo_call_fn(Lower *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                        LLVMValueRef *args, unsigned n);
LLVMValueRef lo_intrinsic(Lower *l, const char *name, LLVMTypeRef *overloads, unsigned no,
                          LLVMValueRef *args, unsigned n);
LLVMValueRef lo_intrinsic1(Lower *l, const char *name, const Type *t, LLVMValueRef x);
LLVMValueRef lo_intrinsic2(Lower *l, const char *name, const Type *t, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef lo_expect(Lower *l, LLVMValueRef cond, bool likely);  /* cond, told to LLVM as likely or not */
LLVMValueRef lo_libm(Lower *l, const char *name, const Type *t, LLVMValueRef *args, unsigned n);
LLVMValueRef lo_pow(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef y);  /* libm's pow, never rewritten */
/* x ** e of a NumPy array's float elements and one exponent e for all of them, as NumPy's loop (or its ** operator: op) */
LLVMValueRef lo_numpy_scalar_power(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef e, bool op);
bool lo_gpu_fast_f32(Lower *l, LLVMTypeRef t);
LLVMValueRef lo_string(Lower *l, const char *s);
/* The address of an object of the process the code names: a symbol the
 * linker resolves (CompileResult.externs), never a constant address. */
LLVMValueRef lo_extern(Lower *l, const char *name, void *addr);
void lo_raise(Lower *l, RtStatus status, const char *msg);
void lo_raise_if(Lower *l, LLVMValueRef cond, RtStatus status, const char *msg);
void lo_raise_if_at(Lower *l, LLVMValueRef cond, RtStatus status, const char *msg, const char *where);
void lo_raise_recorded(Lower *l, RtStatus status);  /* a runtime function recorded the message */
void lo_raise_status(Lower *l, LLVMValueRef status);  /* the same, with a status known at run time */
void lo_poll_interrupt(Lower *l);
/* stmt.c: a range loop's int64 value as its variable's type; stored there */
LLVMValueRef lo_loop_value(Lower *l, int var, LLVMValueRef v);
void lo_store_loop_var(Lower *l, int var, LLVMValueRef v);  /* raise KeyboardInterrupt if Ctrl-C came (interrupt.c) */
/* if (cond) raise status, fmt's %lld filled with up to four int64 args */
void lo_raise_format_if(Lower *l, LLVMValueRef cond, RtStatus status, const char *fmt, LLVMValueRef *args, int n);
/* if (cond) raise status, fmt's %s the repr of x, a float of type t */
void lo_raise_float_if(Lower *l, LLVMValueRef cond, RtStatus status, const char *fmt, const Type *t, LLVMValueRef x);
/* how far LLVM may unroll a loop lo_loop_hints marks */
typedef enum LoUnroll { LO_UNROLL, LO_UNROLL_FULLY_ONLY, LO_UNROLL_NEVER } LoUnroll;
void lo_loop_hints(Lower *l, LLVMValueRef latch, LoUnroll unroll);
void lo_loop_vector_width(Lower *l, LLVMValueRef latch, int lanes);  /* vectorised lanes wide */
void lo_fastmath_function(Lower *l, LLVMValueRef fn);  /* with fastmath=True, its float operations */

/* The one loop builder: for k in [from, to), the body emitted between
 * lo_loop_begin (which positions there, k in loop.index) and lo_loop_end
 * (which closes it and positions after it, at loop.exit). */
typedef struct LoLoop {
  LLVMValueRef counter;           /* i64 alloca */
  LLVMValueRef index;             /* the counter's value in the body */
  LLVMBasicBlockRef head, latch, exit;
} LoLoop;
/* exit: where the loop goes when done, or NULL for a new block */
LoLoop lo_loop_begin(Lower *l, LLVMValueRef from, LLVMValueRef to, LLVMBasicBlockRef exit, const char *name);
LLVMValueRef lo_loop_end(Lower *l, LoLoop *loop);  /* returns the back edge, for lo_loop_hints */

typedef void (*ElementBody)(Lower *l, LLVMValueRef *idx, void *arg);
/* Runs body for every index of an array of the given shape, in C order. */
void lo_for_each_index(Lower *l, int ndim, LLVMValueRef *shape, ElementBody body, void *arg);

/* ---------------------------------------------------------------- model.c */

LLVMTypeRef lo_type(Lower *l, const Type *t);
LLVMTypeRef lo_storage_type(Lower *l, const Type *t);
LLVMTypeRef lo_result_type(Lower *l, const Type *t);  /* a body's result of type t */
bool lo_result_in_memory(Lower *l, const Type *t);  /* a body's result of type t is stored through a pointer it is given */
bool lo_many_fields(const Type *t);  /* a tuple of more numbers than LLVM builds well in registers */
LLVMValueRef lo_loaded_from(Lower *l, LLVMValueRef v);  /* where v was just loaded whole from, unchanged since; or NULL */
void lo_store_whole(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v);  /* *p = v, a long tuple copied */
void lo_set_result(Lower *l, const Type *t, LLVMValueRef slot, LLVMValueRef v);  /* a return's */
LLVMValueRef lo_take_result(Lower *l, const Type *t, LLVMValueRef r);  /* a caller's value of it */
LLVMValueRef lo_fconst(Lower *l, const Type *t, double v);
LLVMValueRef lo_truth(Lower *l, LLVMValueRef v, const Type *t);
LLVMValueRef lo_item_truth(Lower *l, const Type *elem, LLVMValueRef addr);  /* an array item's, str and bytes too */
LLVMValueRef lo_convert(Lower *l, LLVMValueRef v, const Type *from, const Type *to);
LLVMValueRef lo_fp_to_int(Lower *l, LLVMValueRef v, LLVMTypeRef dst, bool is_signed);  /* C's truncation, the CPU's value outside the range */
LLVMValueRef lo_arr_field(Lower *l, LLVMValueRef a, unsigned field, unsigned i);
LLVMValueRef lo_arr_shape(Lower *l, LLVMValueRef a, int d);
LLVMValueRef lo_arr_stride(Lower *l, const Type *t, LLVMValueRef a, int d);
LLVMValueRef lo_broadcast_index(Lower *l, LLVMValueRef a, int d, LLVMValueRef i);
LLVMValueRef lo_broadcast_stride(Lower *l, const Type *t, LLVMValueRef a, int d);
/* The dimensions of a's shape (or strides) in memory (a stack array of i64), for a runtime function. */
LLVMValueRef lo_arr_dims_in_memory(Lower *l, const Type *t, LLVMValueRef a, bool strides);
LLVMValueRef lo_load_scalar(Lower *l, const Type *t, LLVMValueRef addr);
void lo_store_scalar(Lower *l, const Type *t, LLVMValueRef addr, LLVMValueRef v);
LLVMValueRef lo_load_storage(Lower *l, const Type *t, LLVMValueRef p);
void lo_store_storage(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v);
void lo_module_init(LowerModule *mod, LLVMContextRef c, LLVMModuleRef m, CompileResult *res);
LLVMValueRef lo_to_bits(Lower *l, LLVMValueRef v, const Type *t);       /* a scalar as i64 bits */
LLVMValueRef lo_from_bits(Lower *l, LLVMValueRef bits, const Type *t);  /* and back */

/* ---------------------------------------------------------------- refcount.c */

void lo_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc);  /* model.c: every array in v */
void lo_meminfo_refcount(Lower *l, LLVMValueRef meminfo, bool inc);  /* one array's memory (NULL: borrowed) */
/* the incref (or decref, freeing with free_fn) of memory counted in its first field */
LLVMValueRef lo_refcount_fn(Lower *l, bool inc, const char *free_fn);
bool lo_is_fresh(const Node *n);
void lo_temp_made(Lower *l, const Type *t, LLVMValueRef v);
void lo_temp_taken(Lower *l, LLVMValueRef v);  /* handed to an owner: no longer released on an error */
LLVMValueRef lo_owned(Lower *l, Node *n);
void lo_done_with(Lower *l, Node *n, LLVMValueRef v);
/* builtins/records.c: stores to a record's field (target an N_ATTR), target op= v */
void lo_record_store(Lower *l, Node *target, const Type *t, LLVMValueRef v);
void lo_record_text_constant_store(Lower *l, Node *target, const Node *text);  /* r.x = "XYZ" of a '<Un' field */
void lo_record_update(Lower *l, Node *n);
bool ty_is_text_field(const Node *n);  /* r.x of a '<Un' or '|Sn' field: a new str or bytes */
/* builtins/jitclass.c: a jitclass instance's field (an N_ATTR typed as one), stored and updated */
bool ty_is_jitclass_field(const Node *n);
bool ty_holds_object_of(const Node *n);  /* p.m as a value, or its __self__: p's reference passed on */
void lo_jitclass_store(Lower *l, Node *target, const Type *t, LLVMValueRef v);
void lo_jitclass_update(Lower *l, Node *n);
void lo_jitclass_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc);
/* builtins/shape.c: a.flat[i] = v (or op= v) where a's type is not C-contiguous (a.flat reads a
 * copy of it): the address of a's own element at C-order position i, as NumPy's flatiter
 * writes it; *array gets a, for lo_done_with(l, target->lhs->lhs, *array) */
bool ty_is_flat_store(const Node *target);
LLVMValueRef lo_flat_addr(Lower *l, Node *target, LLVMValueRef *array);
void lo_release_temp(Lower *l, const Type *t, LLVMValueRef v);  /* a temp made by lowering itself */

/* ---------------------------------------------------------------- arith.c */

LLVMValueRef lo_arith(Lower *l, int op, const Type *t, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef lo_int_divmod(Lower *l, int op, const Type *t, LLVMValueRef a, LLVMValueRef b);
/* builtins/datetime.c: datetime64 and timedelta64 */
LLVMValueRef lo_time_binop(Lower *l, int op, const Type *result, LLVMValueRef a, const Type *ta, LLVMValueRef b,
                           const Type *tb);
LLVMValueRef lo_time_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb);
LLVMValueRef lo_time_convert(Lower *l, LLVMValueRef v, const Type *from, const Type *to);
LLVMValueRef lo_time_sorts_before(Lower *l, LLVMValueRef x, LLVMValueRef y);  /* NaT last, as NumPy sorts */
LLVMValueRef lo_time_int(Lower *l, LLVMValueRef v);  /* int() of a datetime: TypeError for NaT */
LLVMValueRef lo_time_divide(Lower *l, LLVMValueRef v, LLVMValueRef n);  /* timedelta / int, truncated; lanes too */
LLVMValueRef lo_int_pow(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef e);
LLVMValueRef lo_binop_values(Lower *l, int op, const Type *result, LLVMValueRef a, const Type *ta,
                             LLVMValueRef b, const Type *tb);
LLVMValueRef lo_compare_values(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b,
                               const Type *tb);
LLVMValueRef lo_binop(Lower *l, Node *n);
LLVMValueRef lo_float_to_int(Lower *l, const Type *from, LLVMValueRef x);  /* Python's int(), wrapping beyond int64 */
void lo_float_to_int_refuse(Lower *l, LLVMValueRef x);  /* int()'s errors for a float64 no int64 holds */
#if defined(__x86_64__)
LLVMValueRef lo_float_to_int_x86(Lower *l, LLVMValueRef x);  /* unchecked: INT64_MIN where int() refuses */
#endif
LLVMValueRef lo_unary(Lower *l, Node *n);

/* ---------------------------------------------------------------- complex.c */

const Type *lo_complex_part(const Type *t);  /* a part's float type (t itself if not complex) */
LLVMValueRef lo_complex_make(Lower *l, const Type *t, LLVMValueRef re, LLVMValueRef im);
LLVMValueRef lo_complex_real(Lower *l, LLVMValueRef v);
LLVMValueRef lo_complex_imag(Lower *l, LLVMValueRef v);
LLVMValueRef lo_complex_truth(Lower *l, LLVMValueRef v, const Type *t);
LLVMValueRef lo_complex_convert(Lower *l, LLVMValueRef v, const Type *from, const Type *to);
LLVMValueRef lo_complex_binop(Lower *l, int op, const Type *t, LLVMValueRef a, const Type *ta, LLVMValueRef b,
                              const Type *tb);
LLVMValueRef lo_complex_neg(Lower *l, const Type *t, LLVMValueRef v);
LLVMValueRef lo_complex_conj(Lower *l, const Type *t, LLVMValueRef v);
LLVMValueRef lo_complex_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb);
LLVMValueRef lo_complex_abs(Lower *l, const Type *t, LLVMValueRef v);
/* In CUDA code, what rt_cmath computes (CM_*, ruchey.h) inline, complex128 in and out. */
LLVMValueRef lo_kernel_cmath(Lower *l, int fn, LLVMValueRef z);
void lo_check_status(Lower *l, LLVMValueRef status);  /* raises what a runtime call recorded, if it failed */

/* ---------------------------------------------------------------- arrays.c */

LLVMValueRef lo_element_addr(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef *idx);
LLVMValueRef lo_strided_offset(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef *idx);
void lo_indices(Lower *l, Node *idx, LLVMValueRef *out);
LLVMValueRef lo_index_addr(Lower *l, Node *n, LLVMValueRef *base);
LLVMValueRef lo_text_read(Lower *l, const Type *elem, LLVMValueRef addr);  /* a '<Un'/'|Sn' element: a new str/bytes */
void lo_text_write(Lower *l, const Type *elem, LLVMValueRef addr, LLVMValueRef v);  /* cut or NUL-padded */
void lo_text_constant_write(Lower *l, const Type *elem, LLVMValueRef addr, const Node *text);  /* no str made */
void lo_text_constant_store(Lower *l, Node *target, const Node *text);  /* a[i] = "XYZ" of a '<Un'/'|Sn' array */
LLVMValueRef lo_alloc_array(Lower *l, const Type *t, LLVMValueRef *shape, int fill);
void lo_fill(Lower *l, const Type *elem, LLVMValueRef data, LLVMValueRef n, LLVMValueRef v);
/* n contiguous elements of from at src into dst as to (a memmove, or a loop
 * on the pool with parallel=True where long): src and dst either the same
 * memory or apart */
void lo_copy_flat(Lower *l, const Type *to, LLVMValueRef dst, const Type *from, LLVMValueRef src, LLVMValueRef n);
LLVMValueRef lo_copy(Lower *l, Node *n);  /* a.copy(), numpy.copy(a): a new array of n's type */
/* A new array of type to (its dtype converting, in its layout) with src's elements. */
LLVMValueRef lo_copy_array(Lower *l, const Type *to, const Type *from, LLVMValueRef src);
/* Copies src's elements into dst of the same shape, converting dtypes. */
void lo_copy_elements(Lower *l, const Type *dt, LLVMValueRef dst, const Type *st, LLVMValueRef src);
void lo_store_view(Lower *l, Node *target, const Type *t, LLVMValueRef v);
LLVMValueRef lo_index(Lower *l, Node *n);
LLVMValueRef lo_const_array(Lower *l, Node *n);  /* a frozen global array, as constant data */

/* ---------------------------------------------------------------- expr.c */

LLVMValueRef lo_expr(Lower *l, Node *n);
LLVMValueRef lo_expr_as(Lower *l, Node *n, const Type *t);
LLVMValueRef lo_tuple(Lower *l, Node *n);  /* n's items as the tuple n->ty (a tuple or a literal list written out) */
void lo_mark_assigned(Lower *l, int var);

/* ---------------------------------------------------------------- stmt.c */

void lo_stmt(Lower *l, Node *n);
void lo_block(Lower *l, NodeList *b);
LLVMValueRef lo_range_count(Lower *l, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef step);
LLVMValueRef lo_range(Lower *l, Node *r, LLVMValueRef *start, LLVMValueRef *step);
/* range(...)'s start, stop and step (a zero step raises ValueError) */
void lo_range_parts(Lower *l, Node *r, LLVMValueRef *start, LLVMValueRef *stop, LLVMValueRef *step);
LLVMValueRef lo_range_struct(Lower *l, Node *r);  /* range(...) as a value: {start, stop, step} */
LLVMValueRef lo_range_index(Lower *l, Node *n);   /* r[i] of a range value */
LLVMValueRef lo_range_trips(Lower *l, LLVMValueRef count);
void lo_range_end(Lower *l, LLVMValueRef count);
/* for n's variable over iterations [k0, k1) of start + k*step, errors
 * deferred where the analysis allows; on to exhausted, or brk on break */
void lo_range_loop(Lower *l, Node *n, LLVMValueRef start, LLVMValueRef step, LLVMValueRef k0,
                   LLVMValueRef k1, LLVMBasicBlockRef exhausted, LLVMBasicBlockRef brk);

/* ---------------------------------------------------------------- try.c */

void lo_try(Lower *l, Node *n);
/* Before a return (all) or a break or continue of the innermost loop
 * leaves the try statements it is in: their finally clauses, innermost
 * first. Returns where a return then goes: the function's exit. */
LLVMBasicBlockRef lo_leave_tries(Lower *l, bool all);
void lo_reraise(Lower *l);  /* a bare raise in an except clause */

/* ---------------------------------------------------------------- calls.c */

LLVMValueRef lo_jit_call(Lower *l, Node *n);
LLVMValueRef lo_funcptr_call(Lower *l, Node *n);  /* through a first-class function's address */
/* builtins/funcsets.c: one of several compiled functions (TY_FUNCS): a call of it, a function (or one of
 * others) as one of to's, the one at run-time index i of a tuple t of functions */
LLVMValueRef lo_funcs_call(Lower *l, Node *n);
LLVMValueRef lo_funcs_entry(Lower *l, Node *n);  /* the entry of the one it is, for a FunctionType */
LLVMValueRef lo_funcs_convert(Lower *l, LLVMValueRef v, const Type *from, const Type *to);
LLVMValueRef lo_funcs_of_tuple(Lower *l, const Type *t, LLVMValueRef i, const Type *to);
LLVMValueRef lo_function_entry(Lower *l, Node *n);  /* a compiled function's entry, as such an address */
LLVMValueRef lo_jit_call_elem(Lower *l, Node *n, LLVMValueRef *vals);  /* a @vectorize ufunc on elements */
LLVMValueRef lo_call_target(Lower *l, const CallTarget *target, LLVMValueRef *args, int nargs);
/* The body of the function target names, lowered into this module the first time */
LLVMValueRef lo_callee_body(Lower *l, const CallTarget *target);
/* A plain call's arguments (no spread) as its callee's parameters; then done with */
void lo_call_args(Lower *l, Node *n, LLVMValueRef *args);
void lo_call_args_done(Lower *l, Node *n, LLVMValueRef *args);
LLVMValueRef lo_thread_record(Lower *l);
void lo_check_call(Lower *l, LLVMValueRef status);
bool lo_checks_stack(const Lower *l, const Func *f, const CompileOptions *opts);
bool lo_unwinds_spent_stack(const Func *f);  /* returns RecursionError rather than jump back (function.c) */
LLVMValueRef lo_guarded_call(Lower *l, LLVMValueRef body, const Func *callee, LLVMValueRef *args, unsigned n);
/* fn, callee's body (compiled with opts), called, through its guard where it is recursive;
 * args has room for two more than nargs */
LLVMValueRef lo_call_body(Lower *l, LLVMValueRef fn, const Func *callee, const CompileOptions *opts, LLVMValueRef *args,
                          int nargs);

/* ---------------------------------------------------------------- function.c */

/* The variables' slots (l->slots): one alloca per typed variable, stored
 * with the first value start gives it (NULL: none), or none for a variable
 * start answers LO_NO_SLOT. start NULL: every variable, no value. */
typedef LLVMValueRef (*SlotStart)(Lower *l, int var, void *ctx);
#define LO_NO_SLOT ((LLVMValueRef)(uintptr_t)1)
void lo_slots(Lower *l, SlotStart start, void *ctx);
/* Starts a function state for lowering f into mod (its own builder). */
void lo_func_init(Lower *l, LowerModule *mod, Func *f, const CompileOptions *opts);
void lo_func_done(Lower *l);
/* A function's body, as an internal function taking its arguments as values. */
LLVMValueRef lo_body(Lower *l);
/* generators.c: a generator function's body (it makes the state), a yield,
 * and a consumer's resume of a generator object g yielding t (whether it
 * yielded) and taking of its value (g's type t) */
LLVMValueRef lo_generator_body(Lower *l, const char *name);
void lo_yield(Lower *l, Node *n);
LLVMValueRef lo_generator_resume(Lower *l, const Type *t, LLVMValueRef g);
LLVMValueRef lo_generator_value(Lower *l, const Type *t, LLVMValueRef g);
/* the same for the generator expression g (its value s): straight to its
 * resume function where its state is the frame's */
LLVMValueRef lo_generator_resume_of(Lower *l, Node *g, LLVMValueRef s);
/* generators.c: a variable whose generator's state lives in the frame
 * (FuncPlan.frame_generators): assigned a new one, dropped at the exit */
void lo_frame_generator_assign(Lower *l, Node *assign);
void lo_frame_generators_drop(Lower *l);
void lo_c_entry(Lower *l, const char *symbol);  /* cfunc.c: a @cfunc's C entry calling the body */
/* builtins/intrinsic.c: the function being lowered, a callee, holds stack memory an intrinsic
 * allocated (or a callee returned, in an array it returns): always inlined into its callers, so
 * that the memory lives in their frames */
void lo_hold_stack_memory(Lower *l);
bool lo_holds_stack_memory(LLVMValueRef fn);
/* cfunc.c: the memory p points at as t, a 1-d array of no known length that owns nothing */
LLVMValueRef lo_pointer_array(Lower *l, const Type *t, LLVMValueRef p);
/* Starts an internal function named after l's own plus suffix, emitted by
 * sub (same module and Func): entry and exit blocks, status RT_OK. */
void lo_begin_outlined(Lower *sub, Lower *l, const char *suffix, LLVMTypeRef ft);
/* The exit of a chunk run on the pool: the first failing chunk records its
 * error in ctx (an RtError) for the caller. */
LLVMTypeRef lo_error_type(Lower *l);  /* RtError's layout: the head of every chunk's context */
void lo_chunk_exit(Lower *l, LLVMValueRef ctx);
/* Whether work may go to the pool here: with parallel=True, on the CPU,
 * not already inside a chunk (a nested loop would run serially anyway)
 * and not in a CPU kernel (its threads are the kernel's). Fewer elements
 * than LO_POOL_MIN_ELEMENTS are not worth waking the pool's threads for (a
 * wake-up costs a few microseconds, an element a nanosecond or so). */
bool lo_pool_allowed(Lower *l);
#define LO_POOL_MIN_ELEMENTS (1 << 15)

/* ---------------------------------------------------------------- prange.c */

void lo_parallel_for(Lower *l, Node *n, const ParPlan *plan);
/* chunk(ctx, begin, end, thread) over [0, trips) on the pool, ctx headed by
 * an RtError: the first chunk's error is raised once all are done */
void lo_pool_run(Lower *l, LLVMValueRef chunk, LLVMTypeRef ctxty, LLVMValueRef ctx, LLVMValueRef trips);
/* body(l, i, vals, arg) for i in [0, count): on the pool where
 * lo_pool_allowed and count reaches LO_POOL_MIN_ELEMENTS, else here. vals
 * are the values the body reads that it did not make (a chunk's own
 * function reads them from its context); each i must be independent of the
 * others, as a whole-array fill's elements are. */
typedef void (*LoIndexBody)(Lower *l, LLVMValueRef i, LLVMValueRef *vals, void *arg);
void lo_index_loop(Lower *l, LLVMValueRef count, LLVMValueRef *vals, int nvals, LoIndexBody body, void *arg);

/* ---------------------------------------------------------------- kernel.c, fibers.c, gpu.c */

void lo_kernel(Lower *l);
LLVMTypeRef lo_launch_type(Lower *l);
void lo_load_launch(Lower *l, LLVMValueRef args);
LLVMValueRef lo_fiber_thread(Lower *l, LLVMTypeRef bty);
LLVMTypeRef lo_block_context_type(Lower *l);
void lo_fiber_block(Lower *l, LLVMValueRef fn, LLVMTypeRef bty, LLVMValueRef bctx);
void lo_fiber_context(Lower *l, LLVMTypeRef bty, LLVMValueRef bctx, LLVMValueRef args);
void lo_fiber_stack_done(LowerModule *mod);
void lo_gpu_kernel(Lower *l, const char *symbol);
void lo_gpu_lines_begin(LowerModule *mod, const Func *f);  /* a line table for the module's functions */
void lo_gpu_lines_end(LowerModule *mod);
void lo_gpu_line(Lower *l, int line, int col);  /* the instructions built next are the source line's (col from 0) */
void lo_gpu_device(Lower *l, LLVMValueRef fn);
void lo_unbound_flags(Lower *l);
LLVMTypeRef lo_gpu_device_type(Lower *l);
LLVMValueRef lo_gpu_call(Lower *l, Node *n);
LLVMValueRef lo_gpu_array_data(Lower *l, Node *n, int64_t count);

/* ---------------------------------------------------------------- builtins/ufunc.c */

bool lo_is_elementwise(const Node *n);      /* lowered as one loop over the elements */
LLVMValueRef lo_array_expr(Lower *l, Node *n); /* a new array */
void lo_array_update(Lower *l, Node *n);     /* an augmented assignment to an array, in place */

/* The linear index of the CUDA thread being lowered in its block (CPU). */
LLVMValueRef lo_cuda_thread(Lower *l);
/* Which of a collective's three argument slots (mask, value, lane) its
 * argument i goes to: a block's collective has only a predicate. */
static inline int lo_collective_slot(int op, int i) { return COLL_IS_BLOCK(op) ? i + 1 : i; }

/* ---------------------------------------------------------------- builtins/indexing.c */

bool ix_is_advanced(const Node *n);   /* an N_INDEX with an array in its index: a new array */
LLVMValueRef lo_array_index(Lower *l, Node *n);  /* a[index] of an array type: a view or a new array */
LLVMValueRef lo_array_view(Lower *l, Node *n);   /* a[index], no array in the index: a view, no reference taken */
void lo_index_store(Lower *l, Node *target, const Type *t, LLVMValueRef v);  /* where it is an array */
void lo_index_update(Lower *l, Node *n);  /* a[advanced index] op= value */

/* builtins/unpack.c: the tuple (of type tuple) of v's elements, rows or items, v an array or typed
 * list of seq's type; a ValueError unless it has that many. v stays the caller's. */
LLVMValueRef lo_unpacked(Lower *l, const Type *seq, LLVMValueRef v, const Type *tuple);
const Type *ty_unpacked_tuple(const Type *seq, int count);  /* that tuple's type, count at most TY_MAX_FIELDS */

/* ---------------------------------------------------------------- builtins/tuples.c */

LLVMValueRef lo_tuple_index(Lower *l, Node *n);
LLVMValueRef lo_tuple_binop(Lower *l, Node *n);
LLVMValueRef lo_tuple_binop_values(Lower *l, int op, const Type *t, LLVMValueRef a, const Type *ta, LLVMValueRef b);
LLVMValueRef lo_tuple_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb);
LLVMValueRef lo_tuple_contains(Lower *l, Node *n);
/* A call with *t: the callee's arguments (its parameters' types) into args; how many */
int lo_spread_args(Lower *l, Node *n, const Func *callee, LLVMValueRef *args, LLVMValueRef *packed);

/* ---------------------------------------------------------------- builtins/lists.c, dicts.c */

void lo_container_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc);  /* model.c's row */
LLVMValueRef lo_keep_strs(Lower *l, const Type *t, LLVMValueRef v);  /* strs in v owned by a container */
LLVMValueRef lo_item_value(Lower *l, Node *n, const Type *elem);     /* n as a container's new item */
void lo_hold_items(Lower *l, const Type *elem, LLVMValueRef c, const char *fn);  /* a tuple item's references */
LLVMValueRef lo_container_len(Lower *l, const Type *t, LLVMValueRef v);
LLVMValueRef lo_list_len(Lower *l, LLVMValueRef lst);
LLVMValueRef lo_list_made_typed(Lower *l, LLVMValueRef lst);  /* an i1: made as a typed.List (RtList.typed) */
/* the store just built of a number into a list's item, tagged as one */
void lo_list_item_stored(Lower *l, const Type *elem);
/* x[i]'s address (IndexError, KeyError), x evaluated into *base; store:
 * for x[i] = v (a dict's key inserted) */
LLVMValueRef lo_list_index(Lower *l, Node *n, LLVMValueRef *base, bool store);
void lo_list_slice_store(Lower *l, Node *target, const Type *t, LLVMValueRef v);  /* x[a:b:c] = v */
LLVMValueRef lo_list_slice(Lower *l, Node *n);  /* x[a:b:c] */
LLVMValueRef lo_list_binop(Lower *l, Node *n);  /* x + y, x * n */
LLVMValueRef lo_list_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb);
LLVMValueRef lo_dict_addr(Lower *l, Node *n, LLVMValueRef *base, bool store);
LLVMValueRef lo_dict_index(Lower *l, Node *n);  /* d[k], or an entry's part in iteration */
/* RuntimeError where the dict or set that the element read n iterates has
 * changed size since its loop began, as Python's next() raises it */
void lo_check_iter_size(Lower *l, const Node *n, LLVMValueRef container);
LLVMValueRef lo_dict_contains(Lower *l, Node *n);
LLVMValueRef lo_key_exact(Lower *l, LLVMValueRef k, const Type *kt, const Type *key);  /* k equals a key value */
LLVMValueRef lo_dict_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb);
enum { DICT_KEYS, DICT_VALUES, DICT_ITEMS };  /* the parts of a dict's entries */
LLVMValueRef lo_literal_dict_index(Lower *l, Node *n);  /* d[k] of a literal dict */
LLVMValueRef lo_literal_dict_contains(Lower *l, Node *n);
LLVMValueRef lo_literal_dict_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb);
LLVMValueRef lo_dict_parts(Lower *l, Node *x, int part, const Type *elem);  /* a new list of x's parts */
LLVMValueRef lo_list_new(Lower *l, const Type *elem, LLVMValueRef cap);  /* MemoryError raised */
void lo_list_append(Lower *l, const Type *elem, LLVMValueRef lst, LLVMValueRef v);  /* v owned by the list */
/* dicts.c's keys, which sets.c's items are too (a set's type: {item, none}) */
LLVMValueRef lo_dict_new(Lower *l, const Type *t);
LLVMValueRef lo_dict_key_bits(Lower *l, const Type *d, LLVMValueRef k, const Type *kt);
LLVMValueRef lo_dict_insert(Lower *l, const Type *t, LLVMValueRef d, LLVMValueRef bits);  /* MemoryError raised */
int lo_key_error_kind(const Type *k);  /* a key type as rt_key_error takes it */
LLVMValueRef lo_dict_key_of_bits(Lower *l, const Type *key, LLVMValueRef bits);  /* a str's: borrowed */
/* whether a key's bits point to an RtTupleKey (a tuple's, a complex number's parts), which a
 * popped key hands over to be freed */
bool lo_key_in_memory(const Type *key);
/* builtins/sets.c */
LLVMValueRef lo_set_binop(Lower *l, Node *n);
void lo_set_update(Lower *l, Node *n);  /* s |= t and kin: s changed in place */
LLVMValueRef lo_set_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb);
LLVMValueRef lo_set_list(Lower *l, Node *x, const Type *elem);  /* list(x), sorted(x) of a set */

/* ---------------------------------------------------------------- builtins/strings.c */

void lo_str_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc);  /* model.c's row */
LLVMValueRef lo_str_len(Lower *l, LLVMValueRef s);
LLVMValueRef lo_str_keep(Lower *l, LLVMValueRef s);  /* an owned str a container will hold */
LLVMValueRef lo_str_truth(Lower *l, LLVMValueRef s);
LLVMValueRef lo_str_constant(Lower *l, Node *n);  /* an N_STRING */
LLVMValueRef lo_str_binop_values(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb);
LLVMValueRef lo_str_compare(Lower *l, Node *n);  /* a comparison with strs (or bytes) among its operands */
LLVMValueRef lo_str_compare_values(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb);
LLVMValueRef lo_str_contains(Lower *l, Node *n);
LLVMValueRef lo_str_index(Lower *l, Node *n);
LLVMValueRef lo_str_chars(Lower *l, Node *x);  /* a new list of its characters */
LLVMValueRef lo_str_to_number(Lower *l, Node *n);  /* int(s), float(s) */
/* builtins/bytes.c: bytes values */
LLVMValueRef lo_bytes_index(Lower *l, Node *n);
LLVMValueRef lo_bytes_compare_values(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb);
LLVMValueRef lo_bytes_contains(Lower *l, Node *n);
/* builtins/strings.c: a str's or a bytes' units for rt_text_order, and a comparison of two texts by it */
LLVMValueRef lo_text_units(Lower *l, LLVMValueRef v, const Type *t, LLVMValueRef *count);
LLVMValueRef lo_text_compare(Lower *l, int op, LLVMValueRef pa, LLVMValueRef na, LLVMValueRef pb, LLVMValueRef nb,
                             int width);
/* builtins/objmode.c: the Python function block called on a tuple (rt_objmode), its status */
LLVMValueRef lo_objmode_run(Lower *l, const void *block, const Type *in_t, LLVMValueRef in, const Type *out_t,
                            LLVMValueRef out);
LLVMValueRef lo_bytes_binop_values(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb);

/* ---------------------------------------------------------------- builtins/cuda.c */

/* A shared or local array's shape (its first argument or shape=), its
 * dimensions and its number of elements. */
Node *lo_cuda_shape(Node *n);
int64_t lo_cuda_array_elems(const Type *t, const Node *shape, int64_t *dims);
/* Its alignment= (0 where not given); its bytes (one thread's, of a local
 * array) rounded up to that, so that each thread's copy keeps it. */
int64_t lo_cuda_alignment(Node *n);
int64_t lo_cuda_array_bytes(Node *n);
/* On the CPU backend: the bytes its storage takes beyond its own, and its
 * data in that storage, at a multiple of its alignment. */
int64_t lo_cuda_array_slack(Node *n);
LLVMValueRef lo_cuda_aligned(Lower *l, Node *n, LLVMValueRef data);

#endif
