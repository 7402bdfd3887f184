/* lower.c — typed IR to LLVM IR.
 *
 * One LLVM function per specialisation, with the entry ABI
 *   i32 f(ptr ret, ptr args)
 * where args points to one pointer per parameter (to an i64, a double, a
 * byte for bool, or an RtArray) and ret receives the result in its storage
 * layout. The i32 is an RtStatus; on failure the thread's RtError holds the
 * message. Locals are allocas (SROA/mem2reg make them SSA). Arrays carry a
 * reference-counted meminfo: every array value an expression makes is a new
 * reference, variables own one each, and every exit releases them.
 */
#include <stdarg.h>
#include <math.h>
#include <stdio.h>

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include "ruchey.h"
#include "stages.h"

typedef struct Loop {
  LLVMBasicBlockRef brk, cont;
} Loop;

typedef struct Lower {
  Func *f;
  const CompileOptions *opts;
  LLVMContextRef c;
  LLVMModuleRef m;
  LLVMBuilderRef b;
  LLVMValueRef fn;
  LLVMValueRef impl;         /* the body, arguments as values: recursive calls go here */
  LLVMValueRef ret_val;       /* the body's result, returned with the status */
  LLVMValueRef status;       /* i32 alloca read by the exit block */
  LLVMValueRef *slots;       /* one alloca per variable */
  LLVMValueRef *assigned;    /* i1 allocas: variables that may be read unassigned */
  LLVMValueRef launch;       /* kernels: the LaunchConfig */
  LLVMBasicBlockRef exit_bb; /* releases the locals and returns status */
  Loop *loop;                /* innermost loop, for break/continue */
  LLVMTypeRef i1, i8, i32, i64, f32, f64, ptr;
  LLVMTypeRef rtarray;       /* RtArray's memory layout */
  CompileResult *res;        /* for warnings */
  /* Arrays made by the statement being emitted and not yet handed to an
   * owner: an error raised now releases them. */
  LLVMValueRef temps[64];
  const Type *temp_types[64];
  int ntemps;
  /* kernels (CPU backend): the current thread and block, as SSA values */
  LLVMValueRef tid[3], bid[3], bdim[3], gdim[3];
  LLVMValueRef nthreads;      /* threads in a block */
  LLVMValueRef thread;        /* the linear index of the current thread */
  LLVMBasicBlockRef next_thread; /* where a return goes: the next thread */
  bool fission;               /* the kernel has barriers: variables per thread */
  bool gpu;                   /* lowering for NVPTX: one thread per call, real barriers */
  LLVMValueRef *var_base;     /* fission: each variable's per-thread storage */
  bool *uniform;              /* fission: variables equal in every thread of a block */
  bool fibers;                /* the block's threads run as fibers (see fiber.c) */
  Node **remat;               /* fission: a variable's one defining value, recomputed per thread */
  int *remat_order, nremat;
  LLVMValueRef done;          /* fission: per-thread "has returned" bytes */
  LLVMValueRef dyn_shared;    /* cuda.shared.array(0, ...) storage */
  Node **mem_nodes;           /* shared/local array call sites ... */
  LLVMValueRef *mem_base;     /* ... and their storage */
  int nmem;
  int nregions;              /* parallel regions outlined so far */
  LLVMValueRef deferred;     /* i1 alloca: checks set it instead of raising (lo_range_loop) */
} Lower;

static LLVMValueRef lo_expr(Lower *l, Node *n);
static void lo_block(Lower *l, NodeList *b);
static LLVMValueRef range_count(Lower *l, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef step);
static void lo_store_view(Lower *l, Node *target, const Type *t, LLVMValueRef v);
static void lo_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc);
static void lo_stmt(Lower *l, Node *n);
static void mark_assigned(Lower *l, int var);
static LLVMValueRef lo_grid(Lower *l, Node *n);
static LLVMValueRef lo_cuda_array(Lower *l, Node *n);
static LLVMValueRef lo_atomic(Lower *l, Node *n);
static LLVMTypeRef launch_type(Lower *l);
static void walk_body(Func *f, void (*visit)(Node *n, void *ctx), void *ctx);
static void walk_tree(Node *n, void (*visit)(Node *n, void *ctx), void *ctx);
static void unbound_flags(Lower *l);
static void lo_init(Lower *l, LLVMContextRef c);

/* ---------------------------------------------------------------- types */

static LLVMTypeRef lo_type(Lower *l, const Type *t) {
  switch (t->kind) {
  case TY_BOOL: return l->i1;
  case TY_I8: case TY_U8: return l->i8;
  case TY_I16: case TY_U16: return LLVMInt16TypeInContext(l->c);
  case TY_I32: case TY_U32: return l->i32;
  case TY_I64: case TY_U64: return l->i64;
  case TY_F32: return l->f32;
  case TY_F64: return l->f64;
  case TY_ARRAY: {
    LLVMTypeRef dims = LLVMArrayType2(l->i64, (uint64_t)t->ndim);
    LLVMTypeRef f[5] = {l->ptr, l->ptr, l->ptr, dims, dims};
    return LLVMStructTypeInContext(l->c, f, 5, 0);
  }
  case TY_TUPLE: {
    LLVMTypeRef f[64];
    for (int i = 0; i < t->nfields; i++) f[i] = lo_type(l, t->fields[i]);
    return LLVMStructTypeInContext(l->c, f, (unsigned)t->nfields, 0);
  }
  default: return l->i8;  /* none, range, dtype: never loaded */
  }
}

/* How a value of type t lies in memory: array elements, arguments, results. */
static LLVMTypeRef lo_storage_type(Lower *l, const Type *t) {
  if (t->kind == TY_BOOL) return l->i8;
  if (t->kind == TY_ARRAY) return l->rtarray;
  if (t->kind == TY_TUPLE) {
    LLVMTypeRef f[64];
    for (int i = 0; i < t->nfields; i++) f[i] = lo_storage_type(l, t->fields[i]);
    return LLVMStructTypeInContext(l->c, f, (unsigned)t->nfields, 0);
  }
  return lo_type(l, t);
}

static bool has_arrays(const Type *t) {
  if (t->kind == TY_ARRAY) return true;
  if (t->kind == TY_TUPLE)
    for (int i = 0; i < t->nfields; i++)
      if (has_arrays(t->fields[i])) return true;
  return false;
}

static LLVMValueRef const_i64(Lower *l, int64_t v) {
  return LLVMConstInt(l->i64, (unsigned long long)v, 1);
}

static LLVMValueRef const_i32(Lower *l, int v) {
  return LLVMConstInt(l->i32, (unsigned long long)v, 1);
}

/* ---------------------------------------------------------------- blocks, helpers */

static LLVMBasicBlockRef new_block(Lower *l, const char *name) {
  return LLVMAppendBasicBlockInContext(l->c, l->fn, name);
}

static void position(Lower *l, LLVMBasicBlockRef bb) { LLVMPositionBuilderAtEnd(l->b, bb); }

/* An alloca in the entry block, so that mem2reg can promote it. */
static LLVMValueRef entry_alloca(Lower *l, LLVMTypeRef t, const char *name) {
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(l->b);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(l->fn);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first)
    LLVMPositionBuilderBefore(l->b, first);
  else
    position(l, entry);
  LLVMValueRef a = LLVMBuildAlloca(l->b, t, name);
  position(l, cur);
  return a;
}

/* Declares (once) a function of the module or an external one. */
static LLVMValueRef get_fn(Lower *l, const char *name, LLVMTypeRef ty) {
  LLVMValueRef f = LLVMGetNamedFunction(l->m, name);
  return f ? f : LLVMAddFunction(l->m, name, ty);
}

static LLVMValueRef call(Lower *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                         LLVMValueRef *args, unsigned n) {
  LLVMTypeRef ft = LLVMFunctionType(ret, params, n, 0);
  return LLVMBuildCall2(l->b, ft, get_fn(l, name, ft), args, n, "");
}

void lo_add_fp_flags(LLVMModuleRef m, LLVMFastMathFlags flags) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
        if (LLVMCanValueUseFastMathFlags(i)) LLVMSetFastMathFlags(i, LLVMGetFastMathFlags(i) | flags);
}

/* With fastmath, float32 on the GPU takes the hardware's approximations,
 * as numba-cuda's fastmath: division, square root (NVPTX picks them only
 * for a whole target's unsafe math, so they are asked for by name) and
 * libdevice's fast functions. */
static bool gpu_fast_f32(Lower *l, LLVMTypeRef t) { return l->gpu && l->opts->fastmath && t == l->f32; }

static bool fast_libdevice(Lower *l, const char *name, LLVMTypeRef t) {
  static const char *const fast[] = {"sin", "cos", "tan", "exp", "log", "log2", "log10", "pow"};
  if (!gpu_fast_f32(l, t)) return false;
  for (size_t i = 0; i < sizeof fast / sizeof fast[0]; i++)
    if (!strcmp(name, fast[i])) return true;
  return false;
}

/* NVPTX has no instructions for these: on the GPU they are libdevice's. */
static const char *libdevice_name(const char *intrinsic) {
  static const char *const mapped[][2] = {
    {"llvm.exp", "exp"}, {"llvm.exp2", "exp2"}, {"llvm.log", "log"}, {"llvm.log2", "log2"},
    {"llvm.log10", "log10"}, {"llvm.sin", "sin"}, {"llvm.cos", "cos"}, {"llvm.pow", "pow"},
  };
  for (size_t i = 0; i < sizeof mapped / sizeof mapped[0]; i++)
    if (!strcmp(intrinsic, mapped[i][0])) return mapped[i][1];
  return NULL;
}

static LLVMValueRef intrinsic(Lower *l, const char *name, LLVMTypeRef *overloads, unsigned no,
                              LLVMValueRef *args, unsigned n) {
  const char *dev = l->gpu ? libdevice_name(name) : NULL;
  if (dev) {
    char buf[32];
    snprintf(buf, sizeof buf, "__nv_%s%s%s", fast_libdevice(l, dev, overloads[0]) ? "fast_" : "", dev,
             overloads[0] == l->f32 ? "f" : "");
    LLVMTypeRef params[2] = {overloads[0], overloads[0]};
    return call(l, buf, overloads[0], params, args, n);
  }
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(l->m, id, overloads, no);
  return LLVMBuildCall2(l->b, LLVMIntrinsicGetType(l->c, id, overloads, no), f, args, n, "");
}

/* Raises status with a constant message: records it, then leaves through the
 * exit block, which releases the locals. */
static LLVMValueRef const_string(Lower *l, const char *s) {
  return s ? LLVMBuildGlobalStringPtr(l->b, s, "msg") : LLVMConstNull(l->ptr);
}

static void raise_status(Lower *l, RtStatus status, const char *msg) {
  if (l->gpu) {  /* a GPU thread cannot raise: stop the kernel, the launch reports it */
    intrinsic(l, "llvm.trap", NULL, 0, NULL, 0);
    LLVMBuildUnreachable(l->b);
    return;
  }
  for (int i = 0; i < l->ntemps; i++) lo_refcount(l, l->temp_types[i], l->temps[i], false);
  LLVMValueRef text = const_string(l, msg);
  if ((l->opts->kernel || l->opts->device) && l->tid[0]) {  /* say which thread: a GPU could not */
    LLVMTypeRef p[8] = {l->i32, l->ptr, l->i64, l->i64, l->i64, l->i64, l->i64, l->i64};
    LLVMValueRef a[8] = {const_i32(l, status), text, l->tid[0], l->tid[1], l->tid[2], l->bid[0], l->bid[1], l->bid[2]};
    call(l, "rt_kernel_error", LLVMVoidTypeInContext(l->c), p, a, 8);
  } else {
    LLVMTypeRef p[2] = {l->i32, l->ptr};
    LLVMValueRef a[2] = {const_i32(l, status), text};
    call(l, "rt_set_error", LLVMVoidTypeInContext(l->c), p, a, 2);
  }
  LLVMBuildStore(l->b, const_i32(l, status), l->status);
  LLVMBuildBr(l->b, l->exit_bb);
}

/* if (cond) raise status; execution continues in a fresh block. In a loop
 * run with its errors deferred, cond is only noted. */
static void raise_if(Lower *l, LLVMValueRef cond, RtStatus status, const char *msg) {
  if (l->deferred) {
    LLVMBuildStore(l->b, LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->i1, l->deferred, ""), cond, ""), l->deferred);
    return;
  }
  LLVMBasicBlockRef fail = new_block(l, "raise"), ok = new_block(l, "ok");
  LLVMValueRef expect = LLVMConstInt(l->i1, 0, 0);
  LLVMTypeRef ov[1] = {l->i1};
  LLVMValueRef args[2] = {cond, expect};
  cond = intrinsic(l, "llvm.expect.i1", ov, 1, args, 2);
  LLVMBuildCondBr(l->b, cond, fail, ok);
  position(l, fail);
  raise_status(l, status, msg);
  position(l, ok);
}

/* ---------------------------------------------------------------- reference counts */

/* incref/decref of a meminfo (NULL for borrowed argument arrays): small
 * internal functions that LLVM inlines. */
static LLVMValueRef refcount_fn(Lower *l, bool inc) {
  const char *name = inc ? "rc.incref" : "rc.decref";
  LLVMValueRef f = LLVMGetNamedFunction(l->m, name);
  if (f) return f;
  LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(l->c), &l->ptr, 1, 0);
  f = LLVMAddFunction(l->m, name, ft);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(l->c);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(l->c, f, "entry");
  LLVMBasicBlockRef live = LLVMAppendBasicBlockInContext(l->c, f, "live");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(l->c, f, "done");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef mi = LLVMGetParam(f, 0);
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, mi, ""), done, live);
  LLVMPositionBuilderAtEnd(b, live);
  LLVMValueRef old = LLVMBuildAtomicRMW(b, inc ? LLVMAtomicRMWBinOpAdd : LLVMAtomicRMWBinOpSub,
                                        mi, LLVMConstInt(l->i64, 1, 0),
                                        LLVMAtomicOrderingAcquireRelease, 0);
  if (inc) {
    LLVMBuildBr(b, done);
  } else {
    LLVMBasicBlockRef release = LLVMAppendBasicBlockInContext(l->c, f, "release");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, old, LLVMConstInt(l->i64, 1, 0), ""), release,
                    done);
    LLVMPositionBuilderAtEnd(b, release);
    LLVMTypeRef rft = LLVMFunctionType(LLVMVoidTypeInContext(l->c), &l->ptr, 1, 0);
    LLVMValueRef rel = get_fn(l, "rt_meminfo_free", rft);
    LLVMBuildCall2(b, rft, rel, &mi, 1, "");
    LLVMBuildBr(b, done);
  }
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

/* Adjusts the reference counts of every array inside a value of type t. */
static void lo_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc) {
  /* kernel arrays are arguments, shared or local (and GPU code allocates
   * none): none owns memory */
  if (l->opts->kernel || l->gpu) return;
  if (t->kind == TY_ARRAY) {
    LLVMValueRef mi = LLVMBuildExtractValue(l->b, v, 0, "meminfo");
    LLVMValueRef f = refcount_fn(l, inc);
    LLVMBuildCall2(l->b, LLVMGlobalGetValueType(f), f, &mi, 1, "");
  } else if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->nfields; i++)
      if (has_arrays(t->fields[i]))
        lo_refcount(l, t->fields[i], LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), inc);
  }
}

/* Whether evaluating n yields a new reference (an allocation, a tuple or
 * conditional built from owned parts) rather than a borrowed one. */
static bool is_fresh(const Node *n) {
  /* a view holds its own reference */
  if (n->kind == N_INDEX || n->kind == N_ATTR) return n->ty->kind == TY_ARRAY;
  return n->kind == N_CALL || n->kind == N_TUPLE || n->kind == N_IFEXP || n->kind == N_BOOLOP;
}

/* Evaluates n as an owned reference. */
static void temp_made(Lower *l, const Type *t, LLVMValueRef v) {
  if (l->ntemps == 64) return;  /* deeper nests only leak on errors */
  l->temps[l->ntemps] = v;
  l->temp_types[l->ntemps++] = t;
}

static void temp_taken(Lower *l, LLVMValueRef v) {
  for (int i = l->ntemps - 1; i >= 0; i--)
    if (l->temps[i] == v) {
      memmove(&l->temps[i], &l->temps[i + 1], sizeof(LLVMValueRef) * (size_t)(l->ntemps - i - 1));
      memmove(&l->temp_types[i], &l->temp_types[i + 1], sizeof(Type *) * (size_t)(l->ntemps - i - 1));
      l->ntemps--;
      return;
    }
}

static LLVMValueRef lo_owned(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr(l, n);
  if (!has_arrays(n->ty)) return v;
  if (is_fresh(n)) temp_taken(l, v);
  else lo_refcount(l, n->ty, v, true);
  return v;
}

/* Releases what evaluating n made, once its value has been used. */
static void lo_done_with(Lower *l, Node *n, LLVMValueRef v) {
  if (!is_fresh(n) || !has_arrays(n->ty)) return;
  temp_taken(l, v);
  lo_refcount(l, n->ty, v, false);
}

/* ---------------------------------------------------------------- conversions */

static LLVMValueRef lo_truth(Lower *l, LLVMValueRef v, const Type *t) {
  if (t->kind == TY_BOOL) return v;
  if (ty_is_float(t)) return LLVMBuildFCmp(l->b, LLVMRealUNE, v, LLVMConstNull(lo_type(l, t)), "");
  return LLVMBuildICmp(l->b, LLVMIntNE, v, LLVMConstNull(lo_type(l, t)), "");
}

static LLVMValueRef lo_convert(Lower *l, LLVMValueRef v, const Type *from, const Type *to) {
  if (ty_equal(from, to) || from->kind == TY_ARRAY) return v;  /* layouts share a struct */
  LLVMTypeRef dst = lo_type(l, to);
  if (to->kind == TY_TUPLE) {
    LLVMValueRef r = LLVMGetUndef(dst);
    for (int i = 0; i < to->nfields; i++) {
      LLVMValueRef f = LLVMBuildExtractValue(l->b, v, (unsigned)i, "");
      r = LLVMBuildInsertValue(l->b, r, lo_convert(l, f, from->fields[i], to->fields[i]),
                               (unsigned)i, "");
    }
    return r;
  }
  if (to->kind == TY_BOOL) return lo_truth(l, v, from);
  if (from->kind == TY_BOOL)
    return ty_is_float(to) ? LLVMBuildUIToFP(l->b, v, dst, "") : LLVMBuildZExt(l->b, v, dst, "");
  if (ty_is_int(from) && ty_is_int(to))
    return LLVMBuildIntCast2(l->b, v, dst, ty_is_signed(from), "");
  if (ty_is_int(from))
    return ty_is_signed(from) ? LLVMBuildSIToFP(l->b, v, dst, "") : LLVMBuildUIToFP(l->b, v, dst, "");
  if (ty_is_int(to)) {
    /* saturating, so NaN and out-of-range values are defined */
    LLVMTypeRef ov[2] = {dst, lo_type(l, from)};
    return intrinsic(l, ty_is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat", ov, 2, &v, 1);
  }
  return LLVMBuildFPCast(l->b, v, dst, "");
}

/* Evaluates n and converts it to t. */
static LLVMValueRef lo_expr_as(Lower *l, Node *n, const Type *t) {
  return lo_convert(l, lo_expr(l, n), n->ty, t);
}

/* ---------------------------------------------------------------- arrays */

static LLVMValueRef arr_field(Lower *l, LLVMValueRef a, unsigned field, unsigned i) {
  unsigned idx[2] = {field, i};
  return LLVMBuildExtractValue(l->b, LLVMBuildExtractValue(l->b, a, idx[0], ""), idx[1], "");
}

static LLVMValueRef arr_shape(Lower *l, LLVMValueRef a, int d) { return arr_field(l, a, 3, (unsigned)d); }

/* The byte stride of dimension d. Contiguous layouts compute it from the
 * shape, which lets LLVM see unit strides and vectorise. */
static LLVMValueRef arr_stride(Lower *l, const Type *t, LLVMValueRef a, int d) {
  if (t->layout == 'A') return arr_field(l, a, 4, (unsigned)d);
  LLVMValueRef s = const_i64(l, ty_bits(t->elem) / 8);
  if (t->layout == 'C')
    for (int k = t->ndim - 1; k > d; k--) s = LLVMBuildMul(l->b, s, arr_shape(l, a, k), "");
  else
    for (int k = 0; k < d; k++) s = LLVMBuildMul(l->b, s, arr_shape(l, a, k), "");
  return s;
}

/* The address of a[idx...]: negative indices wrap as in Python; with
 * boundscheck, out-of-range indices raise IndexError. */
static LLVMValueRef lo_element_addr(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef *idx) {
  LLVMValueRef offset = const_i64(l, 0);
  for (int d = 0; d < t->ndim; d++) {
    LLVMValueRef n = arr_shape(l, a, d), i = idx[d];
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), "");
    i = LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, i, n, ""), i, "idx");
    if (l->opts->boundscheck) {
      LLVMValueRef bad = LLVMBuildICmp(l->b, LLVMIntUGE, i, n, "");
      raise_if(l, bad, RT_ERR_INDEX, "index is out of bounds");
    }
    offset = LLVMBuildAdd(l->b, offset, LLVMBuildMul(l->b, i, arr_stride(l, t, a, d), ""), "");
  }
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "data");
  return LLVMBuildInBoundsGEP2(l->b, l->i8, data, &offset, 1, "elt");  /* in bounds: lets LLVM see affine addresses */
}

static LLVMValueRef lo_load_scalar(Lower *l, const Type *t, LLVMValueRef addr) {
  LLVMValueRef v = LLVMBuildLoad2(l->b, lo_storage_type(l, t), addr, "");
  return t->kind == TY_BOOL ? LLVMBuildTrunc(l->b, v, l->i1, "") : v;
}

static void lo_store_scalar(Lower *l, const Type *t, LLVMValueRef addr, LLVMValueRef v) {
  if (t->kind == TY_BOOL) v = LLVMBuildZExt(l->b, v, l->i8, "");
  LLVMBuildStore(l->b, v, addr);
}

/* Evaluates the indices of an N_INDEX as int64s. */
static void lo_indices(Lower *l, Node *idx, LLVMValueRef *out) {
  if (idx->ty->kind == TY_TUPLE) {
    LLVMValueRef t = lo_expr(l, idx);
    for (int i = 0; i < idx->ty->nfields; i++)
      out[i] = lo_convert(l, LLVMBuildExtractValue(l->b, t, (unsigned)i, ""), idx->ty->fields[i],
                          TYS(TY_I64));
  } else {
    out[0] = lo_expr_as(l, idx, TYS(TY_I64));
  }
}

/* The address of the array element an N_INDEX names; *base gets the array. */
static LLVMValueRef lo_index_addr(Lower *l, Node *n, LLVMValueRef *base) {
  *base = lo_expr(l, n->lhs);
  LLVMValueRef idx[RC_MAX_NDIM];
  lo_indices(l, n->rhs, idx);
  return lo_element_addr(l, n->lhs->ty, *base, idx);
}

/* Reads an array from its RtArray memory layout. */
static LLVMValueRef lo_load_rtarray(Lower *l, const Type *t, LLVMValueRef p) {
  LLVMValueRef v = LLVMGetUndef(lo_type(l, t));
  for (unsigned f = 0; f < 3; f++) {
    LLVMValueRef fp = LLVMBuildStructGEP2(l->b, l->rtarray, p, f, "");
    v = LLVMBuildInsertValue(l->b, v, LLVMBuildLoad2(l->b, l->ptr, fp, ""), f, "");
  }
  for (unsigned f = 3; f < 5; f++) {
    LLVMValueRef dims = LLVMBuildStructGEP2(l->b, l->rtarray, p, f, "");
    for (int d = 0; d < t->ndim; d++) {
      LLVMValueRef idx[2] = {const_i64(l, 0), const_i64(l, d)};
      LLVMValueRef dp = LLVMBuildGEP2(l->b, LLVMArrayType2(l->i64, RC_MAX_NDIM), dims, idx, 2, "");
      unsigned path[2] = {f, (unsigned)d};
      LLVMValueRef agg = LLVMBuildExtractValue(l->b, v, path[0], "");
      agg = LLVMBuildInsertValue(l->b, agg, LLVMBuildLoad2(l->b, l->i64, dp, ""), path[1], "");
      v = LLVMBuildInsertValue(l->b, v, agg, f, "");
    }
  }
  return v;
}

static void lo_store_rtarray(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {
  for (unsigned f = 0; f < 3; f++)
    LLVMBuildStore(l->b, LLVMBuildExtractValue(l->b, v, f, ""),
                   LLVMBuildStructGEP2(l->b, l->rtarray, p, f, ""));
  for (unsigned f = 3; f < 5; f++) {
    LLVMValueRef dims = LLVMBuildStructGEP2(l->b, l->rtarray, p, f, "");
    for (int d = 0; d < t->ndim; d++) {
      LLVMValueRef idx[2] = {const_i64(l, 0), const_i64(l, d)};
      LLVMValueRef dp = LLVMBuildGEP2(l->b, LLVMArrayType2(l->i64, RC_MAX_NDIM), dims, idx, 2, "");
      LLVMValueRef val = f == 4 ? arr_stride(l, t, v, d) : arr_field(l, v, f, (unsigned)d);
      LLVMBuildStore(l->b, val, dp);
    }
  }
}

/* Loads or stores a value of any type in its storage layout. */
static LLVMValueRef lo_load_storage(Lower *l, const Type *t, LLVMValueRef p) {
  if (t->kind == TY_ARRAY) return lo_load_rtarray(l, t, p);
  if (t->kind == TY_TUPLE) {
    LLVMValueRef v = LLVMGetUndef(lo_type(l, t));
    for (int i = 0; i < t->nfields; i++) {
      LLVMValueRef fp = LLVMBuildStructGEP2(l->b, lo_storage_type(l, t), p, (unsigned)i, "");
      v = LLVMBuildInsertValue(l->b, v, lo_load_storage(l, t->fields[i], fp), (unsigned)i, "");
    }
    return v;
  }
  return lo_load_scalar(l, t, p);
}

static void lo_store_storage(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {
  if (t->kind == TY_ARRAY) {
    lo_store_rtarray(l, t, p, v);
  } else if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->nfields; i++) {
      LLVMValueRef fp = LLVMBuildStructGEP2(l->b, lo_storage_type(l, t), p, (unsigned)i, "");
      lo_store_storage(l, t->fields[i], fp, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""));
    }
  } else {
    lo_store_scalar(l, t, p, v);
  }
}

/* Fills n contiguous elements from data with value v. */
static void lo_fill(Lower *l, const Type *elem, LLVMValueRef data, LLVMValueRef n, LLVMValueRef v) {
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(l->b);
  LLVMBasicBlockRef head = new_block(l, "fill"), body = new_block(l, "fill.body"),
                    done = new_block(l, "fill.done");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef i = LLVMBuildPhi(l->b, l->i64, "i");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, i, n, ""), body, done);
  position(l, body);
  LLVMValueRef p = LLVMBuildGEP2(l->b, lo_storage_type(l, elem), data, &i, 1, "");
  lo_store_scalar(l, elem, p, v);
  LLVMValueRef next = LLVMBuildAdd(l->b, i, const_i64(l, 1), "");
  LLVMBuildBr(l->b, head);
  LLVMValueRef in_v[2] = {const_i64(l, 0), next};
  LLVMBasicBlockRef in_b[2] = {pre, body};
  LLVMAddIncoming(i, in_v, in_b, 2);
  position(l, done);
}

/* A new C-contiguous array of type t with the given shape; fill is 0 (zeros),
 * 1 (ones) or -1 (uninitialised). */
static LLVMValueRef lo_alloc_array(Lower *l, const Type *t, LLVMValueRef *shape, int fill) {
  LLVMValueRef count = const_i64(l, 1), anyneg = LLVMConstInt(l->i1, 0, 0);
  for (int d = 0; d < t->ndim; d++) {
    count = LLVMBuildMul(l->b, count, shape[d], "");
    anyneg = LLVMBuildOr(l->b, anyneg, LLVMBuildICmp(l->b, LLVMIntSLT, shape[d], const_i64(l, 0), ""), "");
  }
  raise_if(l, anyneg, RT_ERR_VALUE, "negative dimensions are not allowed");
  int itemsize = ty_bits(t->elem) / 8;
  LLVMValueRef nbytes = LLVMBuildMul(l->b, count, const_i64(l, itemsize), "nbytes");
  LLVMValueRef mi = call(l, "rt_alloc", l->ptr, &l->i64, &nbytes, 1);
  raise_if(l, LLVMBuildIsNull(l->b, mi, ""), RT_ERR_MEMORY, "cannot allocate array");
  LLVMValueRef datap = LLVMBuildStructGEP2(
      l->b, LLVMStructTypeInContext(l->c, (LLVMTypeRef[]){l->i64, l->ptr}, 2, 0), mi, 1, "");
  LLVMValueRef data = LLVMBuildLoad2(l->b, l->ptr, datap, "data");
  LLVMValueRef a = LLVMGetUndef(lo_type(l, t));
  a = LLVMBuildInsertValue(l->b, a, mi, 0, "");
  a = LLVMBuildInsertValue(l->b, a, LLVMConstNull(l->ptr), 1, "");
  a = LLVMBuildInsertValue(l->b, a, data, 2, "");
  LLVMValueRef shp = LLVMGetUndef(LLVMArrayType2(l->i64, (uint64_t)t->ndim)), str = shp;
  LLVMValueRef stride = const_i64(l, itemsize);
  for (int d = t->ndim - 1; d >= 0; d--) {
    shp = LLVMBuildInsertValue(l->b, shp, shape[d], (unsigned)d, "");
    str = LLVMBuildInsertValue(l->b, str, stride, (unsigned)d, "");
    stride = LLVMBuildMul(l->b, stride, shape[d], "");
  }
  a = LLVMBuildInsertValue(l->b, a, shp, 3, "");
  a = LLVMBuildInsertValue(l->b, a, str, 4, "");
  if (fill == 0) {
    LLVMBuildMemSet(l->b, data, LLVMConstInt(l->i8, 0, 0), nbytes, 64);
  } else if (fill == 1) {
    LLVMValueRef one = ty_is_float(t->elem) ? LLVMConstReal(lo_type(l, t->elem), 1.0)
                                            : LLVMConstInt(lo_type(l, t->elem), 1, 0);
    lo_fill(l, t->elem, data, count, one);
  }
  return a;
}

/* ---------------------------------------------------------------- arithmetic */

static LLVMValueRef lo_int_divmod(Lower *l, int op, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  LLVMTypeRef ty = lo_type(l, t);
  LLVMValueRef zero = LLVMConstNull(ty);
  LLVMValueRef bzero = LLVMBuildICmp(l->b, LLVMIntEQ, b, zero, "");
  if (!l->opts->error_model_numpy) {
    raise_if(l, bzero, RT_ERR_ZERODIV,
             op == OP_MOD ? "integer modulo by zero" : "integer division or modulo by zero");
  } else {  /* NumPy gives 0 for integer division by zero */
    b = LLVMBuildSelect(l->b, bzero, LLVMConstInt(ty, 1, 0), b, "");
  }
  LLVMValueRef r;
  if (!ty_is_signed(t)) {
    r = op == OP_MOD ? LLVMBuildURem(l->b, a, b, "") : LLVMBuildUDiv(l->b, a, b, "");
  } else {
    /* MIN // -1 overflows the machine division: -1 always divides exactly,
     * so divide by 1 and negate (wrapping), as int64 arithmetic does. */
    LLVMValueRef minus1 = LLVMBuildICmp(l->b, LLVMIntEQ, b, LLVMConstAllOnes(ty), "");
    LLVMValueRef bb = LLVMBuildSelect(l->b, minus1, LLVMConstInt(ty, 1, 0), b, "");
    LLVMValueRef q = LLVMBuildSDiv(l->b, a, bb, ""), m = LLVMBuildSRem(l->b, a, bb, "");
    q = LLVMBuildSelect(l->b, minus1, LLVMBuildNeg(l->b, a, ""), q, "");
    /* floor: a remainder whose sign differs from the divisor moves down */
    LLVMValueRef adjust = LLVMBuildAnd(
        l->b, LLVMBuildICmp(l->b, LLVMIntNE, m, zero, ""),
        LLVMBuildICmp(l->b, LLVMIntSLT, LLVMBuildXor(l->b, m, b, ""), zero, ""), "");
    if (op == OP_MOD)
      r = LLVMBuildSelect(l->b, adjust, LLVMBuildAdd(l->b, m, b, ""), m, "");
    else
      r = LLVMBuildSelect(l->b, adjust, LLVMBuildSub(l->b, q, LLVMConstInt(ty, 1, 0), ""), q, "");
  }
  if (l->opts->error_model_numpy) r = LLVMBuildSelect(l->b, bzero, zero, r, "");
  return r;
}

/* Python's float floor division and modulo (CPython's float_divmod). */
static LLVMValueRef lo_float_divmod(Lower *l, int op, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  LLVMTypeRef ty = lo_type(l, t);
  LLVMValueRef zero = LLVMConstReal(ty, 0.0);
  if (!l->opts->error_model_numpy)
    raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOEQ, b, zero, ""), RT_ERR_ZERODIV,
             op == OP_MOD ? "float modulo" : "float floor division by zero");
  LLVMValueRef mod = LLVMBuildFRem(l->b, a, b, "");
  LLVMValueRef div = LLVMBuildFDiv(l->b, LLVMBuildFSub(l->b, a, mod, ""), b, "");
  LLVMValueRef modnz = LLVMBuildFCmp(l->b, LLVMRealUNE, mod, zero, "");
  LLVMValueRef signs = LLVMBuildXor(l->b, LLVMBuildFCmp(l->b, LLVMRealOLT, b, zero, ""),
                                    LLVMBuildFCmp(l->b, LLVMRealOLT, mod, zero, ""), "");
  LLVMValueRef fix = LLVMBuildAnd(l->b, modnz, signs, "");
  LLVMValueRef one = LLVMConstReal(ty, 1.0);
  LLVMTypeRef ov[1] = {ty};
  if (op == OP_MOD) {
    LLVMValueRef cs[2] = {zero, b};
    LLVMValueRef signed_zero = intrinsic(l, "llvm.copysign", ov, 1, cs, 2);
    LLVMValueRef m = LLVMBuildSelect(l->b, fix, LLVMBuildFAdd(l->b, mod, b, ""), mod, "");
    return LLVMBuildSelect(l->b, modnz, m, signed_zero, "");
  }
  div = LLVMBuildSelect(l->b, fix, LLVMBuildFSub(l->b, div, one, ""), div, "");
  LLVMValueRef fl = intrinsic(l, "llvm.floor", ov, 1, &div, 1);
  LLVMValueRef up = LLVMBuildFCmp(l->b, LLVMRealOGT, LLVMBuildFSub(l->b, div, fl, ""),
                                  LLVMConstReal(ty, 0.5), "");
  fl = LLVMBuildSelect(l->b, up, LLVMBuildFAdd(l->b, fl, one, ""), fl, "");
  LLVMValueRef cs[2] = {zero, LLVMBuildFDiv(l->b, a, b, "")};
  LLVMValueRef signed_zero = intrinsic(l, "llvm.copysign", ov, 1, cs, 2);
  LLVMValueRef divnz = LLVMBuildFCmp(l->b, LLVMRealUNE, div, zero, "");
  return LLVMBuildSelect(l->b, divnz, fl, signed_zero, "");
}

/* Integer power by repeated squaring; a negative exponent raises, since the
 * result type was fixed as an integer. */
static LLVMValueRef lo_int_pow(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef e) {
  LLVMTypeRef ty = lo_type(l, t);
  if (ty_is_signed(t))
    raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, e, LLVMConstNull(ty), ""), RT_ERR_VALUE,
             "integer power with a negative exponent: use a float base");
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(l->b);
  LLVMBasicBlockRef head = new_block(l, "pow"), body = new_block(l, "pow.body"),
                    done = new_block(l, "pow.done");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef acc = LLVMBuildPhi(l->b, ty, "acc"), base = LLVMBuildPhi(l->b, ty, "base"),
               exp = LLVMBuildPhi(l->b, ty, "exp");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, exp, LLVMConstNull(ty), ""), body, done);
  position(l, body);
  LLVMValueRef odd = LLVMBuildTrunc(l->b, exp, l->i1, "");
  LLVMValueRef acc2 = LLVMBuildSelect(l->b, odd, LLVMBuildMul(l->b, acc, base, ""), acc, "");
  LLVMValueRef base2 = LLVMBuildMul(l->b, base, base, "");
  LLVMValueRef exp2 = LLVMBuildLShr(l->b, exp, LLVMConstInt(ty, 1, 0), "");
  LLVMBuildBr(l->b, head);
  LLVMBasicBlockRef from[2] = {pre, body};
  LLVMValueRef acc_in[2] = {LLVMConstInt(ty, 1, 0), acc2}, base_in[2] = {a, base2},
               exp_in[2] = {e, exp2};
  LLVMAddIncoming(acc, acc_in, from, 2);
  LLVMAddIncoming(base, base_in, from, 2);
  LLVMAddIncoming(exp, exp_in, from, 2);
  position(l, done);
  return acc;
}

/* Shifts as on Python ints, wrapped to the width: a negative count raises,
 * counts past the width give 0 (or -1 for a negative value shifted right). */
static LLVMValueRef lo_shift(Lower *l, int op, const Type *t, LLVMValueRef a, LLVMValueRef n) {
  LLVMTypeRef ty = lo_type(l, t);
  if (ty_is_signed(t))
    raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, n, LLVMConstNull(ty), ""), RT_ERR_VALUE,
             "negative shift count");
  LLVMValueRef width = LLVMConstInt(ty, (unsigned long long)ty_bits(t), 0);
  LLVMValueRef big = LLVMBuildICmp(l->b, LLVMIntUGE, n, width, "");
  LLVMValueRef safe = LLVMBuildSelect(l->b, big, LLVMConstNull(ty), n, "");
  if (op == OP_LSHIFT)
    return LLVMBuildSelect(l->b, big, LLVMConstNull(ty), LLVMBuildShl(l->b, a, safe, ""), "");
  if (!ty_is_signed(t))
    return LLVMBuildSelect(l->b, big, LLVMConstNull(ty), LLVMBuildLShr(l->b, a, safe, ""), "");
  LLVMValueRef sh = LLVMBuildSelect(l->b, big, LLVMConstInt(ty, (unsigned long long)ty_bits(t) - 1, 0), n, "");
  return LLVMBuildAShr(l->b, a, sh, "");
}

/* a / b for floats (gpu_fast_f32: div.approx.ftz). */
static LLVMValueRef float_div(Lower *l, LLVMValueRef a, LLVMValueRef b) {
  if (!gpu_fast_f32(l, LLVMTypeOf(a))) return LLVMBuildFDiv(l->b, a, b, "");
  LLVMValueRef args[2] = {a, b};
  return intrinsic(l, "llvm.nvvm.div.approx.ftz.f", NULL, 0, args, 2);
}

/* a op b, both already converted to t (the operation's operand type). */
static LLVMValueRef lo_arith(Lower *l, int op, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  bool fl = ty_is_float(t);
  LLVMTypeRef ty = lo_type(l, t);
  switch (op) {
  case OP_ADD: return fl ? LLVMBuildFAdd(l->b, a, b, "") : LLVMBuildAdd(l->b, a, b, "");
  case OP_SUB: return fl ? LLVMBuildFSub(l->b, a, b, "") : LLVMBuildSub(l->b, a, b, "");
  case OP_MUL: return fl ? LLVMBuildFMul(l->b, a, b, "") : LLVMBuildMul(l->b, a, b, "");
  case OP_DIV:
    if (!l->opts->error_model_numpy)
      raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOEQ, b, LLVMConstReal(ty, 0.0), ""), RT_ERR_ZERODIV,
               "division by zero");
    return float_div(l, a, b);
  case OP_FLOORDIV: case OP_MOD:
    return fl ? lo_float_divmod(l, op, t, a, b) : lo_int_divmod(l, op, t, a, b);
  case OP_POW:
    if (fl) {
      LLVMTypeRef ov[1] = {ty};
      LLVMValueRef args[2] = {a, b};
      LLVMValueRef zero = LLVMConstReal(ty, 0.0), inf = LLVMConstReal(ty, INFINITY);
      if (!l->opts->error_model_numpy)
        raise_if(l, LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, a, zero, ""),
                                 LLVMBuildFCmp(l->b, LLVMRealOLT, b, zero, ""), ""),
                 RT_ERR_ZERODIV, "0.0 cannot be raised to a negative power");
      LLVMValueRef r = intrinsic(l, "llvm.pow", ov, 1, args, 2);
      if (!l->opts->error_model_numpy) {  /* finite ** finite overflowing, as CPython */
        LLVMValueRef fin = LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOLT, intrinsic(l, "llvm.fabs", ov, 1, &a, 1), inf, ""),
                                        LLVMBuildFCmp(l->b, LLVMRealOLT, intrinsic(l, "llvm.fabs", ov, 1, &b, 1), inf, ""), "");
        LLVMValueRef big = LLVMBuildFCmp(l->b, LLVMRealOEQ, intrinsic(l, "llvm.fabs", ov, 1, &r, 1), inf, "");
        raise_if(l, LLVMBuildAnd(l->b, fin, big, ""), RT_ERR_OVERFLOW, "(34, 'Numerical result out of range')");
      }
      return r;
    }
    return lo_int_pow(l, t, a, b);
  case OP_LSHIFT: case OP_RSHIFT: return lo_shift(l, op, t, a, b);
  case OP_BITAND: return LLVMBuildAnd(l->b, a, b, "");
  case OP_BITOR: return LLVMBuildOr(l->b, a, b, "");
  default: return LLVMBuildXor(l->b, a, b, "");
  }
}

/* The type both operands of op are converted to before it is applied:
 * true division works in floats even when the result type came from ints. */
static const Type *operand_type(int op, const Type *result) {
  if (op == OP_DIV && !ty_is_float(result)) return TYS(TY_F64);
  if (result->kind == TY_BOOL && op >= OP_BITAND && op <= OP_BITXOR) return TYS(TY_BOOL);
  return result;
}

/* int / int rounded once, as CPython: small operands divide exactly as
 * doubles; larger ones divide in 128-bit integers, scaled so the quotient
 * has 64 significant bits, with a sticky bit for the remainder, and the
 * conversion to double rounds that once. */
static LLVMValueRef lo_int_truediv(Lower *l, LLVMValueRef a, LLVMValueRef b) {
  if (!l->opts->error_model_numpy)
    raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, b, const_i64(l, 0), ""), RT_ERR_ZERODIV, "division by zero");
  LLVMTypeRef ov[1] = {l->i64};
  LLVMValueRef absargs[2] = {a, LLVMConstInt(l->i1, 0, 0)};
  LLVMValueRef na = intrinsic(l, "llvm.abs", ov, 1, absargs, 2);
  absargs[0] = b;
  LLVMValueRef nb = intrinsic(l, "llvm.abs", ov, 1, absargs, 2);
  LLVMValueRef limit = const_i64(l, (int64_t)1 << 53);
  LLVMValueRef small = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntULE, na, limit, ""),
                                    LLVMBuildICmp(l->b, LLVMIntULE, nb, limit, ""), "");
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(l->b), wide = new_block(l, "div.wide"), done = new_block(l, "div.done");
  LLVMValueRef quick = LLVMBuildFDiv(l->b, LLVMBuildSIToFP(l->b, a, l->f64, ""), LLVMBuildSIToFP(l->b, b, l->f64, ""), "");
  LLVMBuildCondBr(l->b, small, done, wide);
  position(l, wide);
  LLVMTypeRef i128 = LLVMInt128TypeInContext(l->c);
  LLVMValueRef zu[2] = {na, LLVMConstInt(l->i1, 0, 0)};
  LLVMValueRef lz = intrinsic(l, "llvm.ctlz", ov, 1, zu, 2);
  LLVMValueRef k = LLVMBuildAdd(l->b, const_i64(l, 64), lz, "k");
  LLVMValueRef num = LLVMBuildShl(l->b, LLVMBuildZExt(l->b, na, i128, ""), LLVMBuildZExt(l->b, k, i128, ""), "");
  LLVMValueRef den = LLVMBuildZExt(l->b, nb, i128, "");
  LLVMValueRef q = LLVMBuildUDiv(l->b, num, den, ""), r = LLVMBuildURem(l->b, num, den, "");
  LLVMValueRef sticky = LLVMBuildZExt(l->b, LLVMBuildICmp(l->b, LLVMIntNE, r, LLVMConstNull(i128), ""), i128, "");
  LLVMValueRef mag = LLVMBuildUIToFP(l->b, LLVMBuildOr(l->b, q, sticky, ""), l->f64, "");
  /* 2**-k, built from its exponent bits */
  LLVMValueRef scale = LLVMBuildBitCast(l->b, LLVMBuildShl(l->b, LLVMBuildSub(l->b, const_i64(l, 1023), k, ""), const_i64(l, 52), ""), l->f64, "");
  mag = LLVMBuildFMul(l->b, mag, scale, "");
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, LLVMBuildXor(l->b, a, b, ""), const_i64(l, 0), "");
  LLVMValueRef exact = LLVMBuildSelect(l->b, neg, LLVMBuildFNeg(l->b, mag, ""), mag, "");
  LLVMBasicBlockRef wide_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef res = LLVMBuildPhi(l->b, l->f64, "quot");
  LLVMAddIncoming(res, (LLVMValueRef[]){quick, exact}, (LLVMBasicBlockRef[]){pre, wide_end}, 2);
  return res;
}

static LLVMValueRef lo_binop_values(Lower *l, int op, const Type *result, LLVMValueRef a,
                                    const Type *ta, LLVMValueRef b, const Type *tb) {
  if (op == OP_DIV && !ty_is_float(ta) && !ty_is_float(tb) && ta->kind != TY_U64 && tb->kind != TY_U64 &&
      !l->gpu)
    return lo_convert(l, lo_int_truediv(l, lo_convert(l, a, ta, TYS(TY_I64)), lo_convert(l, b, tb, TYS(TY_I64))),
                      TYS(TY_F64), result);
  const Type *t = operand_type(op, result);
  return lo_arith(l, op, t, lo_convert(l, a, ta, t), lo_convert(l, b, tb, t));
}

static LLVMValueRef lo_binop(Lower *l, Node *n) {
  LLVMValueRef a = lo_expr(l, n->lhs), b = lo_expr(l, n->rhs);
  return lo_binop_values(l, n->op, n->ty, a, n->lhs->ty, b, n->rhs->ty);
}

static LLVMValueRef lo_unary(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr(l, n->lhs);
  if (n->op == OP_NOT) return LLVMBuildNot(l->b, lo_truth(l, v, n->lhs->ty), "");
  v = lo_convert(l, v, n->lhs->ty, n->ty);
  if (n->op == OP_POS) return v;
  if (n->op == OP_INVERT) return LLVMBuildNot(l->b, v, "");
  return ty_is_float(n->ty) ? LLVMBuildFNeg(l->b, v, "") : LLVMBuildNeg(l->b, v, "");
}

/* A signed int against a float, exactly as Python compares them: the int
 * rounded to a float decides unless it ties, then the float (integral
 * there) decides as an int. */
static LLVMValueRef compare_int_float(Lower *l, int op, LLVMValueRef i, LLVMValueRef x, bool int_first) {
  LLVMValueRef fi = LLVMBuildSIToFP(l->b, i, l->f64, "");
  LLVMValueRef a = int_first ? fi : x, b = int_first ? x : fi;
  static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
  static const LLVMIntPredicate ip[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  LLVMValueRef by_float = LLVMBuildFCmp(l->b, fp[op - OP_EQ], a, b, "");
  LLVMValueRef tie = LLVMBuildFCmp(l->b, LLVMRealOEQ, fi, x, "");
  /* at a tie x is integral; 2**63 itself is above every int64 */
  LLVMValueRef top = LLVMBuildFCmp(l->b, LLVMRealOGE, x, LLVMConstReal(l->f64, 9223372036854775808.0), "");
  LLVMValueRef xi = LLVMBuildSelect(l->b, top, LLVMConstInt(l->i64, INT64_MAX, 0),
                                    LLVMBuildFPToSI(l->b, LLVMBuildSelect(l->b, top, LLVMConstReal(l->f64, 0), x, ""), l->i64, ""), "");
  LLVMValueRef ia = int_first ? i : xi, ib = int_first ? xi : i;
  LLVMValueRef by_int = LLVMBuildICmp(l->b, ip[op - OP_EQ], ia, ib, "");
  /* x = 2**63 ties with INT64_MAX rounded, yet is above every int64 */
  LLVMValueRef at_top = LLVMBuildSelect(l->b, top,
      LLVMConstInt(l->i1, (op == OP_NE || (int_first ? (op == OP_LT || op == OP_LE) : (op == OP_GT || op == OP_GE))), 0),
      by_int, "");
  return LLVMBuildSelect(l->b, tie, at_top, by_float, "");
}

static LLVMValueRef lo_compare_values(Lower *l, int op, LLVMValueRef a, const Type *ta,
                                      LLVMValueRef b, const Type *tb) {
  if (ty_is_float(ta) != ty_is_float(tb) && (ty_is_signed(ta) || ty_is_signed(tb)) &&
      (ta->kind == TY_I64 || tb->kind == TY_I64)) {
    bool int_first = !ty_is_float(ta);
    LLVMValueRef x = int_first ? lo_convert(l, b, tb, TYS(TY_F64)) : lo_convert(l, a, ta, TYS(TY_F64));
    return compare_int_float(l, op, int_first ? a : b, x, int_first);
  }
  const Type *t = ty_is_float(ta) || ty_is_float(tb) ? TYS(TY_F64)
                  : ta->kind == TY_BOOL && tb->kind == TY_BOOL ? TYS(TY_I64)
                  : (ta->kind == TY_U64 || tb->kind == TY_U64) &&
                            ty_is_signed(ta) != ty_is_signed(tb) ? TYS(TY_F64)
                  : ta->kind == TY_U64 && tb->kind == TY_U64 ? TYS(TY_U64) : TYS(TY_I64);
  if (ty_is_float(ta) && ty_equal(ta, tb)) t = ta;
  a = lo_convert(l, a, ta, t);
  b = lo_convert(l, b, tb, t);
  if (ty_is_float(t)) {
    static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                           LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
    return LLVMBuildFCmp(l->b, fp[op - OP_EQ], a, b, "");
  }
  static const LLVMIntPredicate sp[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  static const LLVMIntPredicate up[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
  return LLVMBuildICmp(l->b, (ty_is_signed(t) ? sp : up)[op - OP_EQ], a, b, "");
}

/* a < b < c: each operand evaluated once, stopping at the first false. */
static LLVMValueRef lo_compare(Lower *l, Node *n) {
  LLVMValueRef result = entry_alloca(l, l->i1, "cmp");
  LLVMBasicBlockRef done = new_block(l, "cmp.done");
  LLVMValueRef a = lo_expr(l, n->list.items[0]);
  for (int i = 0; i + 1 < n->list.len; i++) {
    LLVMValueRef b = lo_expr(l, n->list.items[i + 1]);
    LLVMValueRef c = lo_compare_values(l, n->ops[i], a, n->list.items[i]->ty, b,
                                       n->list.items[i + 1]->ty);
    LLVMBuildStore(l->b, c, result);
    if (i + 2 < n->list.len) {
      LLVMBasicBlockRef next = new_block(l, "cmp.next");
      LLVMBuildCondBr(l->b, c, next, done);
      position(l, next);
    }
    a = b;
  }
  LLVMBuildBr(l->b, done);
  position(l, done);
  return LLVMBuildLoad2(l->b, l->i1, result, "");
}

/* and/or give the first operand that decides, as Python does. */
static LLVMValueRef lo_boolop(Lower *l, Node *n) {
  LLVMValueRef result = entry_alloca(l, lo_type(l, n->ty), "boolop");
  LLVMBasicBlockRef done = new_block(l, "boolop.done");
  for (int i = 0; i < n->list.len; i++) {
    Node *e = n->list.items[i];
    LLVMValueRef v = lo_expr(l, e);
    LLVMBuildStore(l->b, lo_convert(l, v, e->ty, n->ty), result);
    if (i + 1 < n->list.len) {
      LLVMBasicBlockRef next = new_block(l, "boolop.next");
      LLVMValueRef t = lo_truth(l, v, e->ty);
      if (n->op == OP_AND)
        LLVMBuildCondBr(l->b, t, next, done);
      else
        LLVMBuildCondBr(l->b, t, done, next);
      position(l, next);
    }
  }
  LLVMBuildBr(l->b, done);
  position(l, done);
  return LLVMBuildLoad2(l->b, lo_type(l, n->ty), result, "");
}

static LLVMValueRef lo_ifexp(Lower *l, Node *n) {
  LLVMValueRef result = entry_alloca(l, lo_type(l, n->ty), "ifexp");
  LLVMBasicBlockRef then = new_block(l, "ifexp.then"), other = new_block(l, "ifexp.else"),
                    done = new_block(l, "ifexp.done");
  LLVMBuildCondBr(l->b, lo_truth(l, lo_expr(l, n->cond), n->cond->ty), then, other);
  position(l, then);
  LLVMBuildStore(l->b, lo_convert(l, lo_owned(l, n->lhs), n->lhs->ty, n->ty), result);
  LLVMBuildBr(l->b, done);
  position(l, other);
  LLVMBuildStore(l->b, lo_convert(l, lo_owned(l, n->rhs), n->rhs->ty, n->ty), result);
  LLVMBuildBr(l->b, done);
  position(l, done);
  return LLVMBuildLoad2(l->b, lo_type(l, n->ty), result, "");
}

/* ---------------------------------------------------------------- math */

static const char *const libm_names[MF_COUNT] = {
#define X(id, m, np, n, libm) libm,
  RC_MATH_FUNCS(X)
#undef X
};

static LLVMValueRef fconst(Lower *l, const Type *t, double v) { return LLVMConstReal(lo_type(l, t), v); }

static LLVMValueRef call_intrinsic1(Lower *l, const char *name, const Type *t, LLVMValueRef x) {
  LLVMTypeRef ov[1] = {lo_type(l, t)};
  return intrinsic(l, name, ov, 1, &x, 1);
}

static LLVMValueRef call_intrinsic2(Lower *l, const char *name, const Type *t, LLVMValueRef x,
                                    LLVMValueRef y) {
  LLVMTypeRef ov[1] = {lo_type(l, t)};
  LLVMValueRef a[2] = {x, y};
  return intrinsic(l, name, ov, 1, a, 2);
}

/* A libm function by name: sin for float64, sinf for float32. It may set
 * errno, which nothing reads: declared as touching no memory, so loops
 * calling it can vectorise (jit.c's vector math) and calls can move. */
static LLVMValueRef call_libm(Lower *l, const char *name, const Type *t, LLVMValueRef *args, unsigned n) {
  char buf[32];
  LLVMTypeRef ft = lo_type(l, t), params[2] = {ft, ft};
  snprintf(buf, sizeof buf, "%s%s%s%s", l->gpu ? "__nv_" : "", fast_libdevice(l, name, ft) ? "fast_" : "",
           name, t->kind == TY_F32 ? "f" : "");
  LLVMValueRef r = call(l, buf, ft, params, args, n);
  LLVMValueRef fn = LLVMGetCalledValue(r);
  static const char *const attrs[] = {"nounwind", "willreturn", "nosync", "nofree", "memory"};
  for (int i = 0; i < 5; i++) {
    unsigned kind = LLVMGetEnumAttributeKindForName(attrs[i], strlen(attrs[i]));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(l->c, kind, 0));
  }
  return r;
}

static LLVMValueRef is_integral(Lower *l, const Type *t, LLVMValueRef x) {
  return LLVMBuildFCmp(l->b, LLVMRealOEQ, call_intrinsic1(l, "llvm.floor", t, x), x, "");
}

static LLVMValueRef fcmp(Lower *l, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFCmp(l->b, p, a, b, "");
}

/* CPython's math module raises ValueError outside a function's domain. */
static void math_domain_check(Lower *l, MathFn f, const Type *t, LLVMValueRef *a) {
  LLVMValueRef x = a[0], bad = NULL, zero = fconst(l, t, 0), one = fconst(l, t, 1);
  LLVMValueRef ax = call_intrinsic1(l, "llvm.fabs", t, x), inf = fconst(l, t, INFINITY);
  switch (f) {
  case MF_SQRT: bad = fcmp(l, LLVMRealOLT, x, zero); break;
  case MF_LOG: case MF_LOG2: case MF_LOG10: bad = fcmp(l, LLVMRealOLE, x, zero); break;
  case MF_LOG1P: bad = fcmp(l, LLVMRealOLE, x, LLVMConstReal(lo_type(l, t), -1)); break;
  case MF_ASIN: case MF_ACOS: bad = fcmp(l, LLVMRealOGT, ax, one); break;
  case MF_ACOSH: bad = fcmp(l, LLVMRealOLT, x, one); break;
  case MF_ATANH: bad = fcmp(l, LLVMRealOGE, ax, one); break;
  case MF_SIN: case MF_COS: case MF_TAN: bad = fcmp(l, LLVMRealOEQ, ax, inf); break;
  case MF_GAMMA: case MF_LGAMMA:
    bad = LLVMBuildAnd(l->b, fcmp(l, LLVMRealOLE, x, zero), is_integral(l, t, x), "");
    bad = LLVMBuildAnd(l->b, bad, fcmp(l, LLVMRealONE, x, LLVMConstReal(lo_type(l, t), -INFINITY)), "");
    if (f == MF_GAMMA) bad = LLVMBuildOr(l->b, bad, fcmp(l, LLVMRealOEQ, x, LLVMConstReal(lo_type(l, t), -INFINITY)), "");
    break;
  case MF_FMOD:
    bad = LLVMBuildOr(l->b, fcmp(l, LLVMRealOEQ, a[1], zero), fcmp(l, LLVMRealOEQ, ax, inf), "");
    bad = LLVMBuildAnd(l->b, bad, fcmp(l, LLVMRealORD, a[1], x), "");
    break;
  case MF_POW: {
    LLVMValueRef y = a[1];
    LLVMValueRef zero_neg = LLVMBuildAnd(l->b, fcmp(l, LLVMRealOEQ, x, zero), fcmp(l, LLVMRealOLT, y, zero), "");
    LLVMValueRef yfinite = fcmp(l, LLVMRealOLT, call_intrinsic1(l, "llvm.fabs", t, y), inf);
    LLVMValueRef neg_frac = LLVMBuildAnd(l->b, LLVMBuildAnd(l->b, fcmp(l, LLVMRealOLT, x, zero),
                                         fcmp(l, LLVMRealOGT, x, LLVMConstReal(lo_type(l, t), -INFINITY)), ""),
                                         LLVMBuildAnd(l->b, yfinite, LLVMBuildNot(l->b, is_integral(l, t, y), ""), ""), "");
    bad = LLVMBuildOr(l->b, zero_neg, neg_frac, "");
    break;
  }
  default: return;
  }
  raise_if(l, bad, RT_ERR_VALUE, "math domain error");
}

/* ... and OverflowError where a finite argument gives an infinite result. */
static void math_range_check(Lower *l, MathFn f, const Type *t, LLVMValueRef *a, int n, LLVMValueRef r) {
  if (f != MF_EXP && f != MF_EXP2 && f != MF_EXPM1 && f != MF_SINH && f != MF_COSH && f != MF_POW &&
      f != MF_GAMMA && f != MF_LGAMMA)
    return;
  LLVMValueRef inf = fconst(l, t, INFINITY);
  LLVMValueRef bad = fcmp(l, LLVMRealOEQ, call_intrinsic1(l, "llvm.fabs", t, r), inf);
  for (int i = 0; i < n; i++)
    bad = LLVMBuildAnd(l->b, bad, fcmp(l, LLVMRealOLT, call_intrinsic1(l, "llvm.fabs", t, a[i]), inf), "");
  raise_if(l, bad, RT_ERR_OVERFLOW, "math range error");
}

/* float -> int as Python's int(): NaN and infinities raise. */
static LLVMValueRef float_to_int_checked(Lower *l, const Type *t, LLVMValueRef x) {
  raise_if(l, fcmp(l, LLVMRealUNO, x, x), RT_ERR_VALUE, "cannot convert float NaN to integer");
  raise_if(l, fcmp(l, LLVMRealOEQ, call_intrinsic1(l, "llvm.fabs", t, x), fconst(l, t, INFINITY)),
           RT_ERR_OVERFLOW, "cannot convert float infinity to integer");
  return lo_convert(l, x, t, TYS(TY_I64));
}

/* A math function on values already converted to the float type t. */
static LLVMValueRef lo_math_float(Lower *l, MathFn f, bool is_np, const Type *t, LLVMValueRef *a, int n) {
  static const char *const intrinsics[MF_COUNT] = {
    [MF_EXP] = "llvm.exp", [MF_EXP2] = "llvm.exp2", [MF_LOG] = "llvm.log",
    [MF_LOG2] = "llvm.log2", [MF_LOG10] = "llvm.log10", [MF_SIN] = "llvm.sin", [MF_COS] = "llvm.cos",
    [MF_FABS] = "llvm.fabs", [MF_NPABS] = "llvm.fabs", [MF_FLOOR] = "llvm.floor",
    [MF_CEIL] = "llvm.ceil", [MF_TRUNC] = "llvm.trunc", [MF_RINT] = "llvm.rint",
  };
  if (!is_np) math_domain_check(l, f, t, a);
  LLVMValueRef x = a[0], r;
  switch (f) {
  case MF_ISNAN: return fcmp(l, LLVMRealUNO, x, x);
  case MF_ISINF: return fcmp(l, LLVMRealOEQ, call_intrinsic1(l, "llvm.fabs", t, x), fconst(l, t, INFINITY));
  case MF_ISFINITE: return fcmp(l, LLVMRealOLT, call_intrinsic1(l, "llvm.fabs", t, x), fconst(l, t, INFINITY));
  case MF_DEGREES: return LLVMBuildFMul(l->b, x, fconst(l, t, 180.0 / M_PI), "");
  case MF_RADIANS: return LLVMBuildFMul(l->b, x, fconst(l, t, M_PI / 180.0), "");
  case MF_COPYSIGN: return call_intrinsic2(l, "llvm.copysign", t, x, a[1]);
  case MF_FMIN: return call_intrinsic2(l, "llvm.minimum", t, x, a[1]);
  case MF_FMAX: return call_intrinsic2(l, "llvm.maximum", t, x, a[1]);
  case MF_SIGN: {
    LLVMValueRef pos = LLVMBuildUIToFP(l->b, fcmp(l, LLVMRealOGT, x, fconst(l, t, 0)), lo_type(l, t), "");
    LLVMValueRef neg = LLVMBuildUIToFP(l->b, fcmp(l, LLVMRealOLT, x, fconst(l, t, 0)), lo_type(l, t), "");
    r = LLVMBuildFSub(l->b, pos, neg, "");
    return LLVMBuildSelect(l->b, fcmp(l, LLVMRealUNO, x, x), x, r, "");
  }
  case MF_POW: r = call_intrinsic2(l, "llvm.pow", t, x, a[1]); break;
  case MF_SQRT:  /* gpu_fast_f32: sqrt.approx.ftz */
    r = gpu_fast_f32(l, lo_type(l, t)) ? intrinsic(l, "llvm.nvvm.sqrt.approx.ftz.f", NULL, 0, &x, 1)
                                       : call_intrinsic1(l, "llvm.sqrt", t, x);
    break;
  default:
    r = intrinsics[f] ? call_intrinsic1(l, intrinsics[f], t, x) : call_libm(l, libm_names[f], t, a, (unsigned)n);
  }
  if (!is_np) math_range_check(l, f, t, a, n, r);
  if (!is_np && (f == MF_FLOOR || f == MF_CEIL || f == MF_TRUNC)) return float_to_int_checked(l, t, r);
  return r;
}

/* numpy functions that keep integer arguments integers. */
static LLVMValueRef lo_math_int(Lower *l, MathFn f, const Type *t, LLVMValueRef *a) {
  LLVMTypeRef ty = lo_type(l, t);
  LLVMValueRef zero = LLVMConstNull(ty);
  switch (f) {
  case MF_NPABS: {
    LLVMTypeRef ov[1] = {ty};
    LLVMValueRef args[2] = {a[0], LLVMConstInt(l->i1, 0, 0)};
    return ty_is_signed(t) ? intrinsic(l, "llvm.abs", ov, 1, args, 2) : a[0];
  }
  case MF_SIGN: {
    LLVMValueRef pos = LLVMBuildZExt(l->b, LLVMBuildICmp(l->b, ty_is_signed(t) ? LLVMIntSGT : LLVMIntUGT, a[0], zero, ""), ty, "");
    LLVMValueRef neg = LLVMBuildZExt(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, a[0], zero, ""), ty, "");
    return LLVMBuildSub(l->b, pos, ty_is_signed(t) ? neg : zero, "");
  }
  case MF_FMIN: case MF_FMAX: {
    LLVMValueRef lt = lo_compare_values(l, f == MF_FMIN ? OP_LT : OP_GT, a[0], t, a[1], t);
    return LLVMBuildSelect(l->b, lt, a[0], a[1], "");
  }
  default: return lo_int_pow(l, t, a[0], a[1]);
  }
}

static LLVMValueRef lo_math(Lower *l, Node *n) {
  bool is_np = n->op >= BI_NP;
  MathFn f = (MathFn)(n->op - (is_np ? BI_NP : BI_MATH));
  LLVMValueRef a[2] = {NULL, NULL};
  bool int_args = true;
  for (int i = 0; i < n->list.len; i++) int_args = int_args && !ty_is_float(n->list.items[i]->ty);
  if (int_args && (f == MF_ISNAN || f == MF_ISINF)) return LLVMConstInt(l->i1, 0, 0);
  if (int_args && f == MF_ISFINITE) return LLVMConstInt(l->i1, 1, 0);
  if (!is_np && int_args && (f == MF_FLOOR || f == MF_CEIL || f == MF_TRUNC))
    return lo_expr_as(l, n->list.items[0], TYS(TY_I64));
  if (ty_is_int(n->ty) && is_np) {
    for (int i = 0; i < n->list.len; i++) a[i] = lo_expr_as(l, n->list.items[i], n->ty);
    return lo_math_int(l, f, n->ty, a);
  }
  /* the float type the function computes in */
  const Type *t = ty_is_float(n->ty) ? n->ty : TYS(TY_F64);
  if (n->ty->kind == TY_BOOL || ty_is_int(n->ty)) {
    t = TYS(TY_F64);
    for (int i = 0; i < n->list.len; i++)
      if (n->list.items[i]->ty->kind == TY_F32 && is_np) t = TYS(TY_F32);
  }
  for (int i = 0; i < n->list.len; i++) a[i] = lo_expr_as(l, n->list.items[i], t);
  return lo_math_float(l, f, is_np, t, a, n->list.len);
}

/* int(x) for a finite x beyond int64, wrapped like the int64 arithmetic it
 * stands for: such an x is its 53-bit significand shifted left by
 * exponent - 52 (at least 11), so modulo 2**64 it is that shift done in
 * 64-bit integers, negated for a negative x. Integer operations without
 * branches or calls: loops calling int() stay small enough to unroll. */
static LLVMValueRef wrap_big_float(Lower *l, LLVMValueRef x) {
  LLVMValueRef bits = LLVMBuildBitCast(l->b, x, l->i64, "");
  LLVMValueRef exp = LLVMBuildAnd(l->b, LLVMBuildLShr(l->b, bits, const_i64(l, 52), ""), const_i64(l, 0x7ff), "");
  LLVMValueRef shift = LLVMBuildSub(l->b, exp, const_i64(l, 1075), "");
  LLVMValueRef mant = LLVMBuildOr(l->b, LLVMBuildAnd(l->b, bits, const_i64(l, (1LL << 52) - 1), ""),
                                  const_i64(l, 1LL << 52), "");
  LLVMValueRef big = LLVMBuildICmp(l->b, LLVMIntUGE, shift, const_i64(l, 64), "");
  LLVMValueRef mag = LLVMBuildSelect(l->b, big, const_i64(l, 0), LLVMBuildShl(l->b, mant, shift, ""), "");
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, bits, const_i64(l, 0), "");
  return LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, mag, ""), mag, "");
}

/* int(x) of a float: NaN and infinities raise as in Python; values beyond
 * int64 wrap (wrap_big_float). */
static LLVMValueRef lo_python_int(Lower *l, Node *arg) {
  const Type *t = TYS(TY_F64);
  LLVMValueRef x = lo_expr_as(l, arg, t);
  LLVMValueRef direct, fits;
#if defined(__x86_64__)
  if (!l->gpu) {
    /* cvttsd2si gives INT64_MIN for NaN and anything beyond int64: one
     * integer test (the slow path also gets x == -2**63, and agrees) */
    LLVMTypeRef v2 = LLVMVectorType(l->f64, 2);
    LLVMValueRef xv = LLVMBuildInsertElement(l->b, LLVMGetUndef(v2), x, const_i32(l, 0), "");
    direct = call(l, "llvm.x86.sse2.cvttsd2si64", l->i64, &v2, &xv, 1);
    fits = LLVMBuildICmp(l->b, LLVMIntNE, direct, const_i64(l, INT64_MIN), "");
  } else
#endif
  {
    /* in int64's range (NaN is not) */
    fits = LLVMBuildAnd(l->b, fcmp(l, LLVMRealOLT, x, fconst(l, t, 9223372036854775808.0)),
                        fcmp(l, LLVMRealOGE, x, fconst(l, t, -9223372036854775808.0)), "");
    direct = LLVMBuildFPToSI(l->b, LLVMBuildSelect(l->b, fits, x, fconst(l, t, 0), ""), l->i64, "");
  }
  /* NaN, infinities and wrapping live on the slow path */
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(l->b), slow = new_block(l, "int.slow"), done = new_block(l, "int.done");
  LLVMValueRef likely[2] = {fits, LLVMConstInt(l->i1, 1, 0)};
  LLVMTypeRef ov[1] = {l->i1};
  LLVMBuildCondBr(l->b, intrinsic(l, "llvm.expect.i1", ov, 1, likely, 2), done, slow);
  position(l, slow);
  /* one test in the loop for both: the raise blocks are outside it */
  LLVMBasicBlockRef bad = new_block(l, "int.bad"), wrap = new_block(l, "int.wrap");
  LLVMBuildCondBr(l->b, fcmp(l, LLVMRealUGE, call_intrinsic1(l, "llvm.fabs", t, x), fconst(l, t, INFINITY)), bad, wrap);
  position(l, bad);
  raise_if(l, fcmp(l, LLVMRealUNO, x, x), RT_ERR_VALUE, "cannot convert float NaN to integer");
  raise_if(l, LLVMConstInt(l->i1, 1, 0), RT_ERR_OVERFLOW, "cannot convert float infinity to integer");
  LLVMBuildBr(l->b, wrap);
  position(l, wrap);
  LLVMValueRef wrapped = wrap_big_float(l, x);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef r = LLVMBuildPhi(l->b, l->i64, "int");
  LLVMAddIncoming(r, (LLVMValueRef[]){direct, wrapped}, (LLVMBasicBlockRef[]){pre, wrap}, 2);
  return r;
}

/* round(x) to the nearest int, halves to even; round(x, nd) keeps the type. */
static LLVMValueRef lo_round(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  if (n->list.len == 1) {
    if (!ty_is_float(x->ty)) return lo_expr_as(l, x, TYS(TY_I64));
    LLVMValueRef v = lo_expr(l, x);
    return float_to_int_checked(l, x->ty, call_intrinsic1(l, "llvm.roundeven", x->ty, v));
  }
  LLVMValueRef nd = lo_expr_as(l, n->list.items[1], TYS(TY_I64));
  if (ty_is_float(n->ty)) {
    const Type *t = n->ty;
    LLVMValueRef v = lo_expr_as(l, x, t);
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, nd, const_i64(l, 0), "");
    LLVMValueRef mag = LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, nd, ""), nd, "");
    LLVMValueRef p = call_intrinsic2(l, "llvm.pow", t, fconst(l, t, 10.0), LLVMBuildSIToFP(l->b, mag, lo_type(l, t), ""));
    LLVMValueRef up = LLVMBuildFDiv(l->b, call_intrinsic1(l, "llvm.roundeven", t, LLVMBuildFMul(l->b, v, p, "")), p, "");
    LLVMValueRef down = LLVMBuildFMul(l->b, call_intrinsic1(l, "llvm.roundeven", t, LLVMBuildFDiv(l->b, v, p, "")), p, "");
    LLVMValueRef r = LLVMBuildSelect(l->b, neg, down, up, "");
    /* values too large to have digits at that place come back unchanged */
    LLVMValueRef finite = fcmp(l, LLVMRealOLT, call_intrinsic1(l, "llvm.fabs", t, r), fconst(l, t, INFINITY));
    return LLVMBuildSelect(l->b, finite, r, v, "");
  }
  /* an int rounded to a negative number of digits: to a multiple of 10**-nd, halves to even */
  LLVMValueRef v = lo_expr_as(l, x, TYS(TY_I64));
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, nd, const_i64(l, 0), "");
  LLVMValueRef p = lo_int_pow(l, TYS(TY_I64), const_i64(l, 10),
                              LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, nd, ""), const_i64(l, 0), ""));
  LLVMValueRef q = lo_int_divmod(l, OP_FLOORDIV, TYS(TY_I64), v, p);
  LLVMValueRef r = LLVMBuildSub(l->b, v, LLVMBuildMul(l->b, q, p, ""), "");
  LLVMValueRef twice = LLVMBuildMul(l->b, r, const_i64(l, 2), "");
  LLVMValueRef above = LLVMBuildICmp(l->b, LLVMIntSGT, twice, p, "");
  LLVMValueRef half_odd = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, twice, p, ""),
                                       LLVMBuildTrunc(l->b, q, l->i1, ""), "");
  q = LLVMBuildSelect(l->b, LLVMBuildOr(l->b, above, half_odd, ""), LLVMBuildAdd(l->b, q, const_i64(l, 1), ""), q, "");
  return LLVMBuildMul(l->b, q, p, "");
}

/* numpy.arange: int arguments count exactly; float ones as NumPy does,
 * ceil((stop - start) / step) values start + i*step. */
static LLVMValueRef lo_arange(Lower *l, Node *n) {
  bool floats = false;
  for (int i = 0; i < n->list.len; i++) floats = floats || ty_is_float(n->list.items[i]->ty);
  const Type *t = floats ? TYS(TY_F64) : TYS(TY_I64);
  LLVMValueRef start = floats ? fconst(l, t, 0) : const_i64(l, 0), stop, step = floats ? fconst(l, t, 1) : const_i64(l, 1);
  if (n->list.len == 1) {
    stop = lo_expr_as(l, n->list.items[0], t);
  } else {
    start = lo_expr_as(l, n->list.items[0], t);
    stop = lo_expr_as(l, n->list.items[1], t);
    if (n->list.len == 3) step = lo_expr_as(l, n->list.items[2], t);
  }
  LLVMValueRef count;
  if (floats) {
    raise_if(l, fcmp(l, LLVMRealOEQ, step, fconst(l, t, 0)), RT_ERR_ZERODIV, "division by zero");
    LLVMValueRef c = call_intrinsic1(l, "llvm.ceil", t, LLVMBuildFDiv(l->b, LLVMBuildFSub(l->b, stop, start, ""), step, ""));
    c = call_intrinsic2(l, "llvm.maxnum", t, c, fconst(l, t, 0));
    count = lo_convert(l, c, t, TYS(TY_I64));
  } else {
    raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, step, const_i64(l, 0), ""), RT_ERR_ZERODIV, "division by zero");
    count = range_count(l, start, stop, step);
  }
  LLVMValueRef a = lo_alloc_array(l, n->ty, &count, -1);
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "");
  /* fill: data[i] = start + i*step */
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(l->b);
  LLVMBasicBlockRef head = new_block(l, "arange"), body = new_block(l, "arange.body"), done = new_block(l, "arange.done");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef i = LLVMBuildPhi(l->b, l->i64, "i");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, i, count, ""), body, done);
  position(l, body);
  LLVMValueRef iv = floats ? LLVMBuildSIToFP(l->b, i, lo_type(l, t), "") : i;
  LLVMValueRef v = floats ? LLVMBuildFAdd(l->b, start, LLVMBuildFMul(l->b, iv, step, ""), "")
                          : LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, iv, step, ""), "");
  LLVMValueRef p = LLVMBuildGEP2(l->b, lo_storage_type(l, n->ty->elem), data, &i, 1, "");
  lo_store_scalar(l, n->ty->elem, p, lo_convert(l, v, t, n->ty->elem));
  LLVMValueRef next = LLVMBuildAdd(l->b, i, const_i64(l, 1), "");
  LLVMBuildBr(l->b, head);
  LLVMValueRef in_v[2] = {const_i64(l, 0), next};
  LLVMBasicBlockRef in_b[2] = {pre, body};
  LLVMAddIncoming(i, in_v, in_b, 2);
  position(l, done);
  return a;
}

typedef void (*ElementBody)(Lower *l, LLVMValueRef *idx, void *arg);

/* Runs body for every index of an array of the given shape, in C order. */
static void for_each_index(Lower *l, int ndim, LLVMValueRef *shape, ElementBody body, void *arg) {
  LLVMValueRef idx[RC_MAX_NDIM], counters[RC_MAX_NDIM];
  if (ndim == 0) {  /* a 0-d array has one element */
    body(l, idx, arg);
    return;
  }
  LLVMBasicBlockRef heads[RC_MAX_NDIM], latches[RC_MAX_NDIM] = {NULL}, done = new_block(l, "each.done");
  for (int d = 0; d < ndim; d++) {
    counters[d] = entry_alloca(l, l->i64, "k");
    LLVMBuildStore(l->b, const_i64(l, 0), counters[d]);
    heads[d] = new_block(l, "each");
    latches[d] = new_block(l, "each.next");
    LLVMBuildBr(l->b, heads[d]);
    position(l, heads[d]);
    idx[d] = LLVMBuildLoad2(l->b, l->i64, counters[d], "");
    LLVMBasicBlockRef inner = new_block(l, "each.body");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, idx[d], shape[d], ""), inner, d ? latches[d - 1] : done);
    position(l, inner);
  }
  body(l, idx, arg);
  LLVMBuildBr(l->b, latches[ndim - 1]);
  for (int d = ndim - 1; d >= 0; d--) {
    position(l, latches[d]);
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->i64, counters[d], ""), const_i64(l, 1), ""), counters[d]);
    if (d + 1 < ndim) LLVMBuildStore(l->b, const_i64(l, 0), counters[d + 1]);
    LLVMBuildBr(l->b, heads[d]);
  }
  position(l, done);
}

typedef struct CopyArgs {
  const Type *from, *to;
  LLVMValueRef src, dst, scalar;  /* scalar: a value to fill with instead of src */
} CopyArgs;

static void copy_element(Lower *l, LLVMValueRef *idx, void *arg) {
  CopyArgs *c = arg;
  LLVMValueRef v = c->scalar ? c->scalar
                             : lo_convert(l, lo_load_scalar(l, c->from->elem, lo_element_addr(l, c->from, c->src, idx)),
                                          c->from->elem, c->to->elem);
  lo_store_scalar(l, c->to->elem, lo_element_addr(l, c->to, c->dst, idx), v);
}

/* a.copy(): a new C-contiguous array; contiguous sources are one memcpy,
 * others a loop over every element. */
static LLVMValueRef lo_copy(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  const Type *st = arg->ty;
  LLVMValueRef src = lo_expr(l, arg), shape[RC_MAX_NDIM];
  for (int d = 0; d < st->ndim; d++) shape[d] = arr_shape(l, src, d);
  LLVMValueRef dst = lo_alloc_array(l, n->ty, shape, -1);
  if (st->layout == 'C') {
    LLVMValueRef bytes = const_i64(l, ty_bits(st->elem) / 8);
    for (int d = 0; d < st->ndim; d++) bytes = LLVMBuildMul(l->b, bytes, shape[d], "");
    LLVMBuildMemCpy(l->b, LLVMBuildExtractValue(l->b, dst, 2, ""), 1, LLVMBuildExtractValue(l->b, src, 2, ""), 1, bytes);
  } else {
    for_each_index(l, st->ndim, shape, copy_element, &(CopyArgs){st, n->ty, src, dst, NULL});
  }
  lo_done_with(l, arg, src);
  return dst;
}

/* view[...] = value: a scalar fills the view; an array of the same shape is
 * copied into it element by element (shapes checked). */
static void lo_store_view(Lower *l, Node *target, const Type *t, LLVMValueRef v) {
  const Type *vt = target->ty;
  LLVMValueRef view = lo_expr(l, target), shape[RC_MAX_NDIM];
  for (int d = 0; d < vt->ndim; d++) shape[d] = arr_shape(l, view, d);
  if (t->kind == TY_ARRAY) {
    LLVMValueRef bad = LLVMConstInt(l->i1, 0, 0);
    for (int d = 0; d < vt->ndim; d++)
      bad = LLVMBuildOr(l->b, bad, LLVMBuildICmp(l->b, LLVMIntNE, shape[d], arr_shape(l, v, d), ""), "");
    raise_if(l, bad, RT_ERR_VALUE, "could not broadcast: the shapes differ");
    for_each_index(l, vt->ndim, shape, copy_element, &(CopyArgs){t, vt, v, view, NULL});
  } else {
    for_each_index(l, vt->ndim, shape, copy_element, &(CopyArgs){NULL, vt, NULL, view, lo_convert(l, v, t, vt->elem)});
  }
  lo_done_with(l, target, view);
}

/* The CUDA thread a device function runs as, for its callee: int64
 * tid[3], bid[3], bdim[3], gdim[3] in memory. */
static LLVMValueRef thread_record(Lower *l) {
  LLVMTypeRef tty = LLVMArrayType2(l->i64, 12);
  LLVMValueRef th = entry_alloca(l, tty, "thread");
  LLVMValueRef *parts[4] = {l->tid, l->bid, l->bdim, l->gdim};
  for (int k = 0; k < 12; k++) {
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, k)};
    LLVMValueRef v = parts[k / 3][k % 3] ? parts[k / 3][k % 3] : const_i64(l, 0);
    LLVMBuildStore(l->b, v, LLVMBuildGEP2(l->b, tty, th, ix, 2, ""));
  }
  return th;
}

/* After a call: a failure status propagates (the callee already recorded
 * the error). */
static void check_call(Lower *l, LLVMValueRef status) {
  LLVMBasicBlockRef fail = new_block(l, "call.fail"), ok = new_block(l, "call.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, RT_OK), ""), fail, ok);
  position(l, fail);
  LLVMBuildStore(l->b, status, l->status);
  LLVMBuildBr(l->b, l->exit_bb);
  position(l, ok);
}

/* A recursive call: straight to the body, arguments and result as values. */
static LLVMValueRef lo_self_call(Lower *l, Node *n) {
  int na = n->list.len;
  LLVMValueRef *args = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(na + 1));
  for (int i = 0; i < na; i++) args[i] = lo_expr_as(l, n->list.items[i], l->f->var_types[i]);
  if (l->opts->device) args[na] = thread_record(l);
  LLVMValueRef r = LLVMBuildCall2(l->b, LLVMGlobalGetValueType(l->impl), l->impl, args,
                                  (unsigned)(na + l->opts->device), "");
  for (int i = 0; i < na; i++) lo_done_with(l, n->list.items[i], args[i]);
  check_call(l, LLVMBuildExtractValue(l->b, r, 0, "status"));
  return n->ty->kind == TY_NONE ? LLVMGetUndef(l->i8) : LLVMBuildExtractValue(l->b, r, 1, "");
}

static LLVMValueRef lo_gpu_call(Lower *l, Node *n);

/* A call to another ruchey function through the entry ABI: arguments in
 * their storage layout, the result read back. */
static LLVMValueRef lo_jit_call(Lower *l, Node *n) {
  if (l->gpu) return lo_gpu_call(l, n);
  if (n->target->self) return lo_self_call(l, n);
  int na = n->list.len;
  LLVMTypeRef argvty = LLVMArrayType2(l->ptr, (uint64_t)(na + 1));
  LLVMValueRef argv = entry_alloca(l, argvty, "argv");
  if (l->opts->kernel || l->opts->device) {  /* the device function learns which CUDA thread it runs as */
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, na)};
    LLVMBuildStore(l->b, thread_record(l), LLVMBuildGEP2(l->b, argvty, argv, ix, 2, ""));
  }
  LLVMValueRef *vals = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(na ? na : 1));
  for (int i = 0; i < na; i++) {
    Node *a = n->list.items[i];
    LLVMValueRef slot = entry_alloca(l, lo_storage_type(l, a->ty), "arg");
    vals[i] = lo_expr(l, a);
    lo_store_storage(l, a->ty, slot, vals[i]);
    LLVMValueRef idx[2] = {const_i64(l, 0), const_i64(l, i)};
    LLVMBuildStore(l->b, slot, LLVMBuildGEP2(l->b, argvty, argv, idx, 2, ""));
  }
  LLVMValueRef ret = entry_alloca(l, lo_storage_type(l, n->ty), "ret");
  LLVMTypeRef params[2] = {l->ptr, l->ptr};
  LLVMTypeRef ft = LLVMFunctionType(l->i32, params, 2, 0);
  LLVMValueRef fn = LLVMConstIntToPtr(LLVMConstInt(l->i64, (unsigned long long)(uintptr_t)n->target->entry, 0), l->ptr);
  if (n->target->indirect)  /* compiled after this function: read its entry when called */
    fn = LLVMBuildLoad2(l->b, l->ptr, LLVMConstIntToPtr(LLVMConstInt(l->i64, (unsigned long long)(uintptr_t)n->target->indirect, 0), l->ptr), "entry");
  LLVMValueRef cargs[2] = {ret, argv};
  LLVMValueRef status = LLVMBuildCall2(l->b, ft, fn, cargs, 2, "status");
  for (int i = 0; i < na; i++) lo_done_with(l, n->list.items[i], vals[i]);
  check_call(l, status);
  return n->ty->kind == TY_NONE ? LLVMGetUndef(l->i8) : lo_load_storage(l, n->ty, ret);
}

/* ---------------------------------------------------------------- calls */

static LLVMValueRef lo_minmax(Lower *l, Node *n) {
  LLVMValueRef r = lo_expr_as(l, n->list.items[0], n->ty);
  for (int i = 1; i < n->list.len; i++) {
    LLVMValueRef v = lo_expr_as(l, n->list.items[i], n->ty);
    /* min keeps the first of equal (or unordered) values, as Python's does */
    LLVMValueRef better = lo_compare_values(l, n->op == BI_MIN ? OP_LT : OP_GT, v, n->ty, r, n->ty);
    r = LLVMBuildSelect(l->b, better, v, r, "");
  }
  return r;
}

static LLVMValueRef lo_abs(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr_as(l, n->list.items[0], n->ty);
  LLVMTypeRef ov[1] = {lo_type(l, n->ty)};
  if (ty_is_float(n->ty)) return intrinsic(l, "llvm.fabs", ov, 1, &v, 1);
  if (!ty_is_signed(n->ty)) return v;
  LLVMValueRef args[2] = {v, LLVMConstInt(l->i1, 0, 0)};
  return intrinsic(l, "llvm.abs", ov, 1, args, 2);
}

static LLVMValueRef lo_alloc_call(Lower *l, Node *n) {
  LLVMValueRef shape[RC_MAX_NDIM];
  int fill = n->op == BI_NP_ZEROS || n->op == BI_NP_ZEROS_LIKE ? 0
             : n->op == BI_NP_ONES || n->op == BI_NP_ONES_LIKE ? 1 : -1;
  Node *arg = n->list.items[0];
  LLVMValueRef v = lo_expr(l, arg);
  if (n->op >= BI_NP_EMPTY_LIKE) {
    for (int d = 0; d < n->ty->ndim; d++) shape[d] = arr_shape(l, v, d);
    lo_done_with(l, arg, v);
  } else if (arg->ty->kind == TY_TUPLE) {
    for (int d = 0; d < n->ty->ndim; d++)
      shape[d] = lo_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)d, ""), arg->ty->fields[d],
                            TYS(TY_I64));
  } else {
    shape[0] = lo_convert(l, v, arg->ty, TYS(TY_I64));
  }
  return lo_alloc_array(l, n->ty, shape, fill);
}

static LLVMValueRef lo_call(Lower *l, Node *n) {
  switch (n->op) {
  case BI_LEN: {
    Node *a = n->list.items[0];
    if (a->ty->kind == TY_TUPLE) return const_i64(l, a->ty->nfields);
    LLVMValueRef v = lo_expr(l, a);
    LLVMValueRef len = a->ty->ndim ? arr_shape(l, v, 0) : const_i64(l, 0);
    lo_done_with(l, a, v);
    return len;
  }
  case BI_ABS: return lo_abs(l, n);
  case BI_MIN: case BI_MAX: return lo_minmax(l, n);
  case BI_INT:
    if (ty_is_float(n->list.items[0]->ty)) return lo_python_int(l, n->list.items[0]);
    return lo_expr_as(l, n->list.items[0], n->ty);
  case BI_FLOAT: case BI_BOOL: return lo_expr_as(l, n->list.items[0], n->ty);
  case BI_ROUND: return lo_round(l, n);
  case BI_RANGE: case BI_PRANGE: return LLVMGetUndef(l->i8);  /* only reached through lo_for */
  case BI_NP_ARANGE: return lo_arange(l, n);
  case BI_COPY: return lo_copy(l, n);
  case BI_CAST: return lo_expr_as(l, n->list.items[0], n->ty);
  case BI_THREAD_ID: return call(l, "pool_thread_id", l->i64, NULL, NULL, 0);
  case BI_NUM_THREADS: return call(l, "pool_get_num_threads", l->i64, NULL, NULL, 0);
  case BI_JIT: return lo_jit_call(l, n);
  case BI_CUDA_TID: return l->tid[n->ival];
  case BI_CUDA_BID: return l->bid[n->ival];
  case BI_CUDA_BDIM: return l->bdim[n->ival];
  case BI_CUDA_GDIM: return l->gdim[n->ival];
  case BI_CUDA_GRID: case BI_CUDA_GRIDSIZE: return lo_grid(l, n);
  case BI_CUDA_SYNC:
    if (l->gpu) call(l, "llvm.nvvm.barrier0", LLVMVoidTypeInContext(l->c), NULL, NULL, 0);
    else if (l->fibers || l->opts->device) {  /* the site tells apart barriers threads wait at */
      char site[300];
      snprintf(site, sizeof site, "%s:%d", l->f->filename, n->line);
      LLVMValueRef text = const_string(l, site);
      call(l, "rt_fiber_barrier", LLVMVoidTypeInContext(l->c), &l->ptr, &text, 1);
    }
    return LLVMGetUndef(l->i8);  /* on the CPU, a segment boundary placed by lo_kernel_block */
  case BI_CUDA_SHARED: case BI_CUDA_LOCAL: return lo_cuda_array(l, n);
  case BI_CUDA_ATOMIC: return lo_atomic(l, n);
  default: return n->op >= BI_MATH ? lo_math(l, n) : lo_alloc_call(l, n);
  }
}

/* ---------------------------------------------------------------- other expressions */

static LLVMValueRef lo_attr(Lower *l, Node *n) {
  const Type *t = n->lhs->ty;
  if (n->op == ATTR_NDIM || n->op == ATTR_DTYPE) return const_i64(l, t->ndim);
  LLVMValueRef a = lo_expr(l, n->lhs), r;
  if (n->op == ATTR_T) {
    r = a;
    for (int d = 0; d < t->ndim; d++) {
      unsigned s3[2] = {3, (unsigned)(t->ndim - 1 - d)}, s4[2] = {4, (unsigned)(t->ndim - 1 - d)};
      LLVMValueRef shp = LLVMBuildExtractValue(l->b, r, 3, ""), str = LLVMBuildExtractValue(l->b, r, 4, "");
      shp = LLVMBuildInsertValue(l->b, shp, arr_shape(l, a, d), s3[1], "");
      str = LLVMBuildInsertValue(l->b, str, arr_stride(l, t, a, d), s4[1], "");
      r = LLVMBuildInsertValue(l->b, LLVMBuildInsertValue(l->b, r, shp, 3, ""), str, 4, "");
    }
    lo_refcount(l, n->ty, r, true);
    lo_done_with(l, n->lhs, a);
    return r;
  }
  if (n->op == ATTR_SHAPE) {
    r = LLVMGetUndef(lo_type(l, n->ty));
    for (int d = 0; d < t->ndim; d++)
      r = LLVMBuildInsertValue(l->b, r, arr_shape(l, a, d), (unsigned)d, "");
  } else {
    r = const_i64(l, 1);
    for (int d = 0; d < t->ndim; d++) r = LLVMBuildMul(l->b, r, arr_shape(l, a, d), "");
  }
  lo_done_with(l, n->lhs, a);
  return r;
}

/* Python's slice.indices() for one dimension of length len: start, step,
 * and the length of the view. */
static void slice_bounds(Lower *l, Node *sl, LLVMValueRef len, LLVMValueRef *start,
                         LLVMValueRef *step, LLVMValueRef *count) {
  LLVMValueRef zero = const_i64(l, 0), one = const_i64(l, 1);
  *step = sl->cond ? lo_expr_as(l, sl->cond, TYS(TY_I64)) : one;
  if (sl->cond)
    raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, *step, zero, ""), RT_ERR_VALUE, "slice step cannot be zero");
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, *step, zero, "");
  LLVMValueRef lower = LLVMBuildSelect(l->b, neg, const_i64(l, -1), zero, "");
  LLVMValueRef upper = LLVMBuildSelect(l->b, neg, LLVMBuildSub(l->b, len, one, ""), len, "");
  LLVMValueRef bound[2];
  Node *given[2] = {sl->lhs, sl->rhs};
  for (int k = 0; k < 2; k++) {
    LLVMValueRef dflt = LLVMBuildSelect(l->b, neg, k ? lower : upper, k ? upper : lower, "");
    if (!given[k]) {
      bound[k] = dflt;
      continue;
    }
    LLVMValueRef v = lo_expr_as(l, given[k], TYS(TY_I64));
    LLVMValueRef isneg = LLVMBuildICmp(l->b, LLVMIntSLT, v, zero, "");
    v = LLVMBuildSelect(l->b, isneg, LLVMBuildAdd(l->b, v, len, ""), v, "");
    v = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, v, lower, ""), lower, v, "");
    bound[k] = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, v, upper, ""), upper, v, "");
  }
  *start = bound[0];
  *count = range_count(l, bound[0], bound[1], *step);
}

/* a[...] with slices: a view sharing a's memory (and holding a reference). */
static LLVMValueRef lo_view(Lower *l, Node *n) {
  const Type *bt = n->lhs->ty;
  LLVMValueRef base = lo_expr(l, n->lhs);
  Node *single[1] = {n->rhs};
  Node **items = n->rhs->kind == N_TUPLE ? n->rhs->list.items : single;
  int nidx = n->rhs->kind == N_TUPLE ? n->rhs->list.len : 1;
  LLVMValueRef offset = const_i64(l, 0);
  LLVMTypeRef dims = LLVMArrayType2(l->i64, (uint64_t)n->ty->ndim);
  LLVMValueRef shape = LLVMGetUndef(dims), strides = LLVMGetUndef(dims);
  unsigned out = 0;
  for (int d = 0; d < bt->ndim; d++) {
    LLVMValueRef len = arr_shape(l, base, d), stride = arr_stride(l, bt, base, d);
    if (d < nidx && items[d]->kind != N_SLICE) {
      LLVMValueRef i = lo_expr_as(l, items[d], TYS(TY_I64));
      LLVMValueRef isneg = LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), "");
      i = LLVMBuildSelect(l->b, isneg, LLVMBuildAdd(l->b, i, len, ""), i, "");
      raise_if(l, LLVMBuildICmp(l->b, LLVMIntUGE, i, len, ""), RT_ERR_INDEX, "index is out of bounds");
      offset = LLVMBuildAdd(l->b, offset, LLVMBuildMul(l->b, i, stride, ""), "");
      continue;
    }
    if (d < nidx) {
      LLVMValueRef start, step, count;
      slice_bounds(l, items[d], len, &start, &step, &count);
      offset = LLVMBuildAdd(l->b, offset, LLVMBuildMul(l->b, start, stride, ""), "");
      len = count;
      stride = LLVMBuildMul(l->b, stride, step, "");
    }
    shape = LLVMBuildInsertValue(l->b, shape, len, out, "");
    strides = LLVMBuildInsertValue(l->b, strides, stride, out++, "");
  }
  LLVMValueRef data = LLVMBuildExtractValue(l->b, base, 2, "");
  LLVMValueRef v = LLVMGetUndef(lo_type(l, n->ty));
  v = LLVMBuildInsertValue(l->b, v, LLVMBuildExtractValue(l->b, base, 0, ""), 0, "");
  v = LLVMBuildInsertValue(l->b, v, LLVMBuildExtractValue(l->b, base, 1, ""), 1, "");
  v = LLVMBuildInsertValue(l->b, v, LLVMBuildGEP2(l->b, l->i8, data, &offset, 1, ""), 2, "");
  v = LLVMBuildInsertValue(l->b, v, shape, 3, "");
  v = LLVMBuildInsertValue(l->b, v, strides, 4, "");
  lo_refcount(l, n->ty, v, true);
  lo_done_with(l, n->lhs, base);
  return v;
}

static LLVMValueRef lo_index(Lower *l, Node *n) {
  if (n->ty->kind == TY_ARRAY) return lo_view(l, n);
  if (n->lhs->ty->kind == TY_TUPLE) {
    int64_t i = n->rhs->kind == N_INT ? n->rhs->ival : -n->rhs->lhs->ival;
    if (i < 0) i += n->lhs->ty->nfields;
    LLVMValueRef t = lo_expr(l, n->lhs);
    return LLVMBuildExtractValue(l->b, t, (unsigned)i, "");
  }
  LLVMValueRef base;
  LLVMValueRef addr = lo_index_addr(l, n, &base);
  LLVMValueRef v = lo_load_scalar(l, n->ty, addr);
  lo_done_with(l, n->lhs, base);
  return v;
}

static LLVMValueRef lo_tuple(Lower *l, Node *n) {
  LLVMValueRef t = LLVMGetUndef(lo_type(l, n->ty));
  for (int i = 0; i < n->list.len; i++)
    t = LLVMBuildInsertValue(l->b, t, lo_owned(l, n->list.items[i]), (unsigned)i, "");
  return t;
}

/* Python raises UnboundLocalError for a read of a variable not assigned on
 * the path taken; variables that may be read so carry an "assigned" flag,
 * which LLVM folds away wherever a store visibly precedes the read. */
static LLVMValueRef lo_load_var(Lower *l, Node *n) {
  if (l->assigned && l->assigned[n->var]) {
    char msg[300];
    snprintf(msg, sizeof msg, "cannot access local variable '%s' where it is not associated with a value",
             l->f->var_names[n->var]);
    LLVMValueRef set = LLVMBuildLoad2(l->b, l->i1, l->assigned[n->var], "");
    raise_if(l, LLVMBuildNot(l->b, set, ""), RT_ERR_UNBOUND, arena_strdup(l->f->arena, msg));
  }
  return LLVMBuildLoad2(l->b, lo_type(l, n->ty), l->slots[n->var], l->f->var_names[n->var]);
}

static void mark_assigned(Lower *l, int var) {
  if (l->assigned && l->assigned[var]) LLVMBuildStore(l->b, LLVMConstInt(l->i1, 1, 0), l->assigned[var]);
}

static LLVMValueRef lo_expr_kind(Lower *l, Node *n) {
  switch (n->kind) {
  case N_INT: return const_i64(l, n->ival);
  case N_FLOAT: return LLVMConstReal(l->f64, n->fval);
  case N_BOOL: return LLVMConstInt(l->i1, (unsigned long long)n->ival, 0);
  case N_VAR: return lo_load_var(l, n);
  case N_BINOP: return lo_binop(l, n);
  case N_UNARY: return lo_unary(l, n);
  case N_COMPARE: return lo_compare(l, n);
  case N_BOOLOP: return lo_boolop(l, n);
  case N_IFEXP: return lo_ifexp(l, n);
  case N_CALL: return lo_call(l, n);
  case N_INDEX: return lo_index(l, n);
  case N_ATTR: return lo_attr(l, n);
  case N_TUPLE: return lo_tuple(l, n);
  default: return LLVMGetUndef(l->i8);  /* dtypes and modules have no runtime value */
  }
}

static LLVMValueRef lo_expr(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr_kind(l, n);
  if (is_fresh(n) && has_arrays(n->ty)) temp_made(l, n->ty, v);
  return v;
}

/* ---------------------------------------------------------------- statements */

/* Stores an owned value into a target: a variable (releasing what it held),
 * an array element, or a tuple of targets. */
static void lo_store(Lower *l, Node *target, const Type *t, LLVMValueRef v) {
  if (target->kind == N_VAR) {
    const Type *vt = l->f->var_types[target->var];
    LLVMValueRef slot = l->slots[target->var];
    if (has_arrays(vt)) lo_refcount(l, vt, LLVMBuildLoad2(l->b, lo_type(l, vt), slot, ""), false);
    LLVMBuildStore(l->b, lo_convert(l, v, t, vt), slot);
    mark_assigned(l, target->var);
  } else if (target->kind == N_INDEX && target->ty->kind == TY_ARRAY) {
    lo_store_view(l, target, t, v);
    if (has_arrays(t)) lo_refcount(l, t, v, false);  /* the stored value was owned */
  } else if (target->kind == N_INDEX) {
    LLVMValueRef base;
    LLVMValueRef addr = lo_index_addr(l, target, &base);
    lo_store_scalar(l, target->ty, addr, lo_convert(l, v, t, target->ty));
    lo_done_with(l, target->lhs, base);
  } else {
    for (int i = 0; i < target->list.len; i++)
      lo_store(l, target->list.items[i], t->fields[i], LLVMBuildExtractValue(l->b, v, (unsigned)i, ""));
  }
}

/* a op= b. For an element a[i] the address is computed once. n->ty is the
 * type of the operation's result, converted to the target's type on store. */
static void lo_augassign(Lower *l, Node *n) {
  Node *target = n->lhs;
  if (target->kind == N_VAR) {
    LLVMValueRef cur = lo_expr(l, target), rhs = lo_expr(l, n->rhs);
    LLVMValueRef r = lo_binop_values(l, n->op, n->ty, cur, target->ty, rhs, n->rhs->ty);
    lo_store(l, target, n->ty, r);
    return;
  }
  LLVMValueRef base;
  LLVMValueRef addr = lo_index_addr(l, target, &base);
  LLVMValueRef cur = lo_load_scalar(l, target->ty, addr);
  LLVMValueRef rhs = lo_expr(l, n->rhs);
  LLVMValueRef r = lo_binop_values(l, n->op, n->ty, cur, target->ty, rhs, n->rhs->ty);
  lo_store_scalar(l, target->ty, addr, lo_convert(l, r, n->ty, target->ty));
  lo_done_with(l, target->lhs, base);
}

static bool terminated(Lower *l) { return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(l->b)) != NULL; }

static void lo_if(Lower *l, Node *n) {
  LLVMBasicBlockRef then = new_block(l, "then"), other = new_block(l, "else"),
                    done = new_block(l, "endif");
  LLVMBuildCondBr(l->b, lo_truth(l, lo_expr(l, n->cond), n->cond->ty), then, other);
  position(l, then);
  lo_block(l, &n->body);
  if (!terminated(l)) LLVMBuildBr(l->b, done);
  position(l, other);
  lo_block(l, &n->orelse);
  if (!terminated(l)) LLVMBuildBr(l->b, done);
  position(l, done);
}

static void lo_loop_body(Lower *l, Node *n, LLVMBasicBlockRef brk, LLVMBasicBlockRef cont) {
  Loop loop = {brk, cont}, *outer = l->loop;
  l->loop = &loop;
  lo_block(l, &n->body);
  if (!terminated(l)) LLVMBuildBr(l->b, cont);
  l->loop = outer;
}

static void lo_while(Lower *l, Node *n) {
  LLVMBasicBlockRef head = new_block(l, "while"), body = new_block(l, "while.body"),
                    other = new_block(l, "while.else"), done = new_block(l, "while.end");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMBuildCondBr(l->b, lo_truth(l, lo_expr(l, n->cond), n->cond->ty), body, other);
  position(l, body);
  lo_loop_body(l, n, done, head);
  position(l, other);
  lo_block(l, &n->orelse);
  if (!terminated(l)) LLVMBuildBr(l->b, done);
  position(l, done);
}

/* The number of values of range(start, stop, step), computed in unsigned
 * arithmetic so that ranges spanning the whole int64 line are exact. */
static LLVMValueRef range_count(Lower *l, LLVMValueRef start, LLVMValueRef stop, LLVMValueRef step) {
  LLVMValueRef zero = const_i64(l, 0), one = const_i64(l, 1);
  LLVMValueRef up = LLVMBuildICmp(l->b, LLVMIntSGT, step, zero, "");
  LLVMValueRef lo = LLVMBuildSelect(l->b, up, start, stop, ""), hi = LLVMBuildSelect(l->b, up, stop, start, "");
  LLVMValueRef mag = LLVMBuildSelect(l->b, up, step, LLVMBuildNeg(l->b, step, ""), "");
  LLVMValueRef span = LLVMBuildSub(l->b, LLVMBuildSub(l->b, hi, lo, ""), one, "");
  LLVMValueRef n = LLVMBuildAdd(l->b, LLVMBuildUDiv(l->b, span, mag, ""), one, "");
  n = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, lo, hi, ""), n, zero, "");
  /* No loop runs 2**62 times (that would take a century): saying so lets
   * LLVM prove the counter and small offsets of it non-negative, so index
   * wrap-around checks fold away and stencils vectorise. A range longer
   * than that can only be left by a break, long before the count matters. */
  LLVMValueRef small = LLVMBuildICmp(l->b, LLVMIntULE, n, const_i64(l, (int64_t)1 << 62), "");
  intrinsic(l, "llvm.assume", NULL, 0, &small, 1);
  return n;
}

/* for v in range(start, stop, step): a counted loop k = 0..n-1 with
 * v = start + k*step. The counter is separate from v, so that v keeps its
 * last value after the loop, and a body that assigns v does not change the
 * iteration, as in Python. */
/* Evaluates range(...)'s start and step and its number of values. */
static LLVMValueRef lo_range(Lower *l, Node *r, LLVMValueRef *start, LLVMValueRef *step) {
  LLVMValueRef stop;
  *start = const_i64(l, 0);
  *step = const_i64(l, 1);
  if (r->list.len == 1) {
    stop = lo_expr_as(l, r->list.items[0], TYS(TY_I64));
  } else {
    *start = lo_expr_as(l, r->list.items[0], TYS(TY_I64));
    stop = lo_expr_as(l, r->list.items[1], TYS(TY_I64));
  }
  if (r->list.len == 3) {
    *step = lo_expr_as(l, r->list.items[2], TYS(TY_I64));
    if (!LLVMIsAConstantInt(*step) || LLVMConstIntGetSExtValue(*step) == 0)
      raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, *step, const_i64(l, 0), ""), RT_ERR_VALUE,
               "range() arg 3 must not be zero");
  }
  return range_count(l, *start, stop, *step);
}

static void lo_parallel_for(Lower *l, Node *n, const ParPlan *plan);

/* Marks the loop ending in latch as not to be vectorised, and with
 * `unroll` false as not to be unrolled either. */
static void loop_hints(Lower *l, LLVMValueRef latch, bool unroll) {
  LLVMMetadataRef self = LLVMTemporaryMDNode(l->c, NULL, 0);
  const char *vec = "llvm.loop.vectorize.enable", *unr = "llvm.loop.unroll.disable";
  LLVMMetadataRef hint[2] = {LLVMMDStringInContext2(l->c, vec, strlen(vec)),
                             LLVMValueAsMetadata(LLVMConstInt(l->i1, 0, 0))};
  LLVMMetadataRef no_unroll = LLVMMDStringInContext2(l->c, unr, strlen(unr));
  LLVMMetadataRef ops[3] = {self, LLVMMDNodeInContext2(l->c, hint, 2), LLVMMDNodeInContext2(l->c, &no_unroll, 1)};
  LLVMMetadataRef loop = LLVMMDNodeInContext2(l->c, ops, unroll ? 2 : 3);
  LLVMMetadataReplaceAllUsesWith(self, loop);
  LLVMSetMetadata(latch, LLVMGetMDKindIDInContext(l->c, "llvm.loop", 9), LLVMMetadataAsValue(l->c, loop));
}

/* ---------------------------------------------------------------- loops with deferred errors */

/* A loop whose body can raise (math domain errors, int() of NaN) has an
 * exit to the error on every iteration, and LLVM vectorises no loop with
 * two exits. When the body changes nothing but scalar variables and arrays
 * the function made itself, it may first run with its checks only noted
 * (Lower.deferred): one exit, so it vectorises. If a check failed, the
 * variables get back their values from before the loop and it runs again
 * with its checks, raising where Python would; what the first run wrote
 * past that point is in arrays that die with the exception. Loops that
 * write other arrays, read the arrays they write, allocate, call compiled
 * functions or could trap when a check is skipped (integer division,
 * bounds checks) are left as they are. */
typedef struct Defer {
  Lower *l;
  bool *written;  /* per variable: an array the loop writes */
  bool *changed;  /* per variable: a scalar the loop assigns (not the loop variable) */
  int loop_var;
} Defer;

static bool deferrable_expr(const Defer *d, const Node *n);

/* An index the first run may use although a check failed: made of
 * literals, the loop variable and values the loop does not change, by + -
 * and *. (int(nan) or a value computed from it would be a wild address.) */
static bool safe_index(const Defer *d, const Node *n) {
  switch (n->kind) {
  case N_INT: return true;
  case N_VAR:  /* and bound: an unbound one would be read as garbage */
    return !d->changed[n->var] && ty_is_int(n->ty) &&
           (n->var == d->loop_var || !d->l->assigned || !d->l->assigned[n->var]);
  case N_UNARY: return n->op == OP_NEG && safe_index(d, n->lhs);
  case N_BINOP:
    return (n->op == OP_ADD || n->op == OP_SUB || n->op == OP_MUL) && safe_index(d, n->lhs) && safe_index(d, n->rhs);
  case N_TUPLE:
    for (int i = 0; i < n->list.len; i++)
      if (!safe_index(d, n->list.items[i])) return false;
    return true;
  default: return false;
  }
}

static bool deferrable_list(const Defer *d, const NodeList *list) {
  for (int i = 0; i < list->len; i++)
    if (!deferrable_expr(d, list->items[i])) return false;
  return true;
}

/* a / b, a // b, a % b on integers divide in hardware, which traps on zero */
static bool integer_division(int op, const Type *a, const Type *b) {
  return (op == OP_DIV || op == OP_FLOORDIV || op == OP_MOD) && !ty_is_float(a) && !ty_is_float(b);
}

static bool deferrable_expr(const Defer *d, const Node *n) {
  switch (n->kind) {
  case N_INT: case N_FLOAT: case N_BOOL: case N_MODULE: case N_DTYPE: return true;
  case N_VAR: return !d->written[n->var];
  case N_BINOP:
    return !integer_division(n->op, n->lhs->ty, n->rhs->ty) && deferrable_expr(d, n->lhs) &&
           deferrable_expr(d, n->rhs);
  case N_UNARY: return deferrable_expr(d, n->lhs);
  case N_COMPARE: case N_BOOLOP: case N_TUPLE: return deferrable_list(d, &n->list);
  case N_IFEXP: return deferrable_expr(d, n->cond) && deferrable_expr(d, n->lhs) && deferrable_expr(d, n->rhs);
  case N_INDEX: return ty_is_scalar(n->ty) && n->lhs->kind == N_VAR && deferrable_expr(d, n->lhs) &&
                       safe_index(d, n->rhs);
  case N_ATTR: return (ty_is_scalar(n->ty) || n->ty->kind == TY_TUPLE) && deferrable_expr(d, n->lhs);
  case N_CALL:
    if (!ty_is_scalar(n->ty) || n->kw.len) return false;
    switch (n->op) {
    case BI_ABS: case BI_MIN: case BI_MAX: case BI_INT: case BI_FLOAT: case BI_BOOL: case BI_LEN:
    case BI_CAST: case BI_THREAD_ID: case BI_NUM_THREADS:
      return deferrable_list(d, &n->list);
    case BI_ROUND: return n->list.len == 1 && deferrable_list(d, &n->list);
    default: return n->op >= BI_MATH && deferrable_list(d, &n->list);
    }
  default: return false;
  }
}

static bool deferrable_target(const Defer *d, const Node *t) {
  if (t->kind == N_TUPLE) {
    for (int i = 0; i < t->list.len; i++)
      if (!deferrable_target(d, t->list.items[i])) return false;
    return true;
  }
  if (t->kind == N_INDEX)  /* an element of an array the function made */
    return ty_is_scalar(t->ty) && t->lhs->kind == N_VAR && d->written[t->lhs->var] && safe_index(d, t->rhs);
  return t->kind == N_VAR && ty_is_scalar(d->l->f->var_types[t->var]);
}

static bool deferrable_body(const Defer *d, const NodeList *body) {
  for (int i = 0; i < body->len; i++) {
    const Node *n = body->items[i];
    switch (n->kind) {
    case N_ASSIGN:
      if (!deferrable_target(d, n->lhs) || !deferrable_expr(d, n->rhs)) return false;
      break;
    case N_AUGASSIGN:
      if (n->lhs->kind != N_VAR || !deferrable_target(d, n->lhs) ||
          integer_division(n->op, n->lhs->ty, n->rhs->ty) || !deferrable_expr(d, n->rhs))
        return false;
      break;
    case N_IF:
      if (!deferrable_expr(d, n->cond) || !deferrable_body(d, &n->body) || !deferrable_body(d, &n->orelse))
        return false;
      break;
    case N_CONTINUE: case N_PASS: break;
    default: return false;
    }
  }
  return true;
}

/* Whether variable var only ever holds arrays this call allocated. */
typedef struct { int var; bool fresh; } Fresh;

static bool names_var(const Node *t, int var) {
  if (t->kind == N_VAR) return t->var == var;
  if (t->kind == N_TUPLE)
    for (int i = 0; i < t->list.len; i++)
      if (names_var(t->list.items[i], var)) return true;
  return false;
}

static void check_fresh(Node *n, void *ctx) {
  Fresh *c = ctx;
  if ((n->kind != N_ASSIGN && n->kind != N_AUGASSIGN) || !names_var(n->lhs, c->var)) return;
  bool allocates = n->kind == N_ASSIGN && n->lhs->kind == N_VAR && n->rhs->kind == N_CALL &&
                   ((n->rhs->op >= BI_NP_EMPTY && n->rhs->op <= BI_NP_ARANGE) || n->rhs->op == BI_COPY);
  if (!allocates) c->fresh = false;
}

/* The arrays the loop's element stores write, if each is one the function
 * made itself; false if some store writes another. */
static bool note_written(Lower *l, const NodeList *body, bool *written) {
  for (int i = 0; i < body->len; i++) {
    const Node *n = body->items[i];
    if (n->kind == N_IF && (!note_written(l, &n->body, written) || !note_written(l, &n->orelse, written)))
      return false;
    if (n->kind != N_ASSIGN || n->lhs->kind != N_INDEX) continue;
    const Node *base = n->lhs->lhs;
    if (base->kind != N_VAR || base->var < l->f->nparams) return false;
    Fresh c = {base->var, true};
    walk_body(l->f, check_fresh, &c);
    if (!c.fresh) return false;
    written[base->var] = true;
  }
  return true;
}

static void assigned_in(const NodeList *body, bool *out);

/* What deferring would buy: the checks in the loop, and whether it calls
 * a math function dearer than an instruction. */
typedef struct { bool checked, dear; } Gain;

static void note_gain(Node *n, void *ctx) {
  Gain *g = ctx;
  if (n->kind == N_CALL && n->op >= BI_MATH) {
    int f = (n->op - BI_MATH) % MF_COUNT;
    g->checked = true;
    g->dear |= f != MF_SQRT && f != MF_FABS && f != MF_NPABS && f != MF_FLOOR && f != MF_CEIL &&
               f != MF_TRUNC && f != MF_RINT && f != MF_ISNAN && f != MF_ISINF && f != MF_ISFINITE &&
               f != MF_DEGREES && f != MF_RADIANS && f != MF_SIGN && f != MF_COPYSIGN && f != MF_FMIN &&
               f != MF_FMAX;
  }
  if (n->kind == N_CALL && (n->op == BI_INT || n->op == BI_ROUND)) g->checked = true;
  if (n->kind == N_BINOP && (n->op == OP_DIV || n->op == OP_FLOORDIV || n->op == OP_MOD || n->op == OP_POW))
    g->checked = true;
  if (n->kind == N_AUGASSIGN && (n->op == OP_DIV || n->op == OP_FLOORDIV || n->op == OP_MOD || n->op == OP_POW))
    g->checked = true;
}

/* Deferring compiles the loop twice: worth it for a loop that writes
 * arrays (a map over sqrt then runs 8 lanes wide) or calls a dear math
 * function, not for a reduction whose only check guards a sqrt (its
 * vector form, bound by the ordered sum, gains little). Fills `changed`
 * with the scalars the loop assigns. */
static bool deferrable_loop(Lower *l, Node *n, bool *changed) {
  if (l->deferred || l->opts->boundscheck || l->opts->kernel || l->opts->device || l->gpu) return false;
  Gain g = {false, false};
  for (int i = 0; i < n->body.len; i++) walk_tree(n->body.items[i], note_gain, &g);
  Defer d = {l, arena_alloc(l->f->arena, (size_t)l->f->nvars), changed, n->lhs->var};
  if (!g.checked || !note_written(l, &n->body, d.written)) return false;
  assigned_in(&n->body, changed);
  bool writes = false;
  for (int v = 0; v < l->f->nvars; v++) writes |= d.written[v];
  return (g.dear || writes) && deferrable_body(&d, &n->body);
}

/* The scalar variables the loop assigns. */
static void note_assigned(const Node *t, bool *out) {
  if (t->kind == N_VAR) out[t->var] = true;
  else if (t->kind == N_TUPLE)
    for (int i = 0; i < t->list.len; i++) note_assigned(t->list.items[i], out);
}

static void assigned_in(const NodeList *body, bool *out) {
  for (int i = 0; i < body->len; i++) {
    const Node *n = body->items[i];
    if (n->kind == N_ASSIGN || n->kind == N_AUGASSIGN) note_assigned(n->lhs, out);
    if (n->kind == N_IF) {
      assigned_in(&n->body, out);
      assigned_in(&n->orelse, out);
    }
  }
}

/* for var in range: the iterations k0 <= k < k1, var = start + k * step;
 * on to `exhausted` when they are done, to `brk` on break. A step that is
 * not a constant touches memory at a stride LLVM cannot see: its vector
 * loop would compute each lane's address and store the lanes one by one,
 * slower than the plain loop (a sieve's inner loop ran 25% slower). A
 * rerun (see lo_range_loop) runs only to raise: it is left plain, to
 * compile fast. */
static void lo_counted_loop(Lower *l, Node *n, LLVMValueRef start, LLVMValueRef step, LLVMValueRef k0,
                            LLVMValueRef k1, LLVMBasicBlockRef exhausted, LLVMBasicBlockRef brk, bool rerun) {
  LLVMValueRef counter = entry_alloca(l, l->i64, "counter");
  LLVMBuildStore(l->b, k0, counter);
  LLVMBasicBlockRef head = new_block(l, "for"), body = new_block(l, "for.body"), latch = new_block(l, "for.next");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef k = LLVMBuildLoad2(l->b, l->i64, counter, "k");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, k, k1, ""), body, exhausted);
  position(l, body);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, k, step, ""), ""), l->slots[n->lhs->var]);
  mark_assigned(l, n->lhs->var);
  lo_loop_body(l, n, brk, latch);
  position(l, latch);
  LLVMValueRef next = LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->i64, counter, ""), const_i64(l, 1), "");
  LLVMBuildStore(l->b, next, counter);
  LLVMValueRef back = LLVMBuildBr(l->b, head);
  if (rerun || !LLVMIsAConstant(step)) loop_hints(l, back, !rerun);
}

/* lo_counted_loop, first with errors deferred where the body allows it. */
static void lo_range_loop(Lower *l, Node *n, LLVMValueRef start, LLVMValueRef step, LLVMValueRef k0,
                          LLVMValueRef k1, LLVMBasicBlockRef exhausted, LLVMBasicBlockRef brk) {
  int nv = l->f->nvars;
  bool *vars = arena_alloc(l->f->arena, (size_t)nv);  /* the scalars the loop assigns */
  if (!deferrable_loop(l, n, vars)) {
    lo_counted_loop(l, n, start, step, k0, k1, exhausted, brk, false);
    return;
  }
  LLVMValueRef *saved = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)nv);
  vars[n->lhs->var] = true;
  /* the values, and whether each is bound (UnboundLocalError), as before the loop */
  LLVMValueRef *bound = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)nv);
  for (int v = 0; v < nv; v++) {
    if (!vars[v]) continue;
    saved[v] = LLVMBuildLoad2(l->b, lo_type(l, l->f->var_types[v]), l->slots[v], "");
    if (l->assigned && l->assigned[v]) bound[v] = LLVMBuildLoad2(l->b, l->i1, l->assigned[v], "");
  }
  l->deferred = entry_alloca(l, l->i1, "deferred");
  LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), l->deferred);
  LLVMBasicBlockRef checked = new_block(l, "for.checked"), again = new_block(l, "for.again");
  lo_counted_loop(l, n, start, step, k0, k1, checked, brk, false);
  position(l, checked);
  LLVMValueRef failed = LLVMBuildLoad2(l->b, l->i1, l->deferred, "");
  l->deferred = NULL;
  LLVMBuildCondBr(l->b, failed, again, exhausted);
  position(l, again);
  for (int v = 0; v < nv; v++) {
    if (vars[v]) LLVMBuildStore(l->b, saved[v], l->slots[v]);
    if (bound[v]) LLVMBuildStore(l->b, bound[v], l->assigned[v]);
  }
  lo_counted_loop(l, n, start, step, k0, k1, exhausted, brk, true);
}

static void lo_for(Lower *l, Node *n) {
  if (n->cond->op == BI_PRANGE && l->opts->parallel) {
    ParPlan plan = {0};
    if (par_analyse(l->f, n, &plan)) {
      lo_parallel_for(l, n, &plan);
      return;
    }
    if (l->res && !l->res->warning[0])
      snprintf(l->res->warning, sizeof l->res->warning,
               "%s:%d: this prange loop runs serially: it has %s", l->f->filename, plan.line, plan.why);
  }
  LLVMValueRef start, step;
  LLVMValueRef trips = lo_range(l, n->cond, &start, &step);
  LLVMBasicBlockRef other = new_block(l, "for.else"), done = new_block(l, "for.end");
  lo_range_loop(l, n, start, step, const_i64(l, 0), trips, other, done);
  position(l, other);
  lo_block(l, &n->orelse);
  if (!terminated(l)) LLVMBuildBr(l->b, done);
  position(l, done);
}

static void lo_return(Lower *l, Node *n) {
  if (l->opts->kernel) {  /* this thread is done: on to the next */
    if (l->fission)
      LLVMBuildStore(l->b, LLVMConstInt(l->i8, 1, 0), LLVMBuildGEP2(l->b, l->i8, l->done, &l->thread, 1, ""));
    LLVMBuildBr(l->b, l->next_thread);
    return;
  }
  if (n->lhs) {
    LLVMValueRef v = lo_convert(l, lo_owned(l, n->lhs), n->lhs->ty, l->f->ret_type);
    LLVMBuildStore(l->b, v, l->ret_val);
  }
  LLVMBuildStore(l->b, const_i32(l, RT_OK), l->status);
  LLVMBuildBr(l->b, l->exit_bb);
}

static void lo_stmt(Lower *l, Node *n) {
  l->ntemps = 0;  /* every statement hands its arrays to an owner or releases them */
  switch (n->kind) {
  case N_ASSIGN: lo_store(l, n->lhs, n->rhs->ty, lo_owned(l, n->rhs)); break;
  case N_AUGASSIGN: lo_augassign(l, n); break;
  case N_IF: lo_if(l, n); break;
  case N_WHILE: lo_while(l, n); break;
  case N_FOR: lo_for(l, n); break;
  case N_RETURN: lo_return(l, n); break;
  case N_BREAK: case N_CONTINUE:
    if (!l->loop)  /* out of a loop that holds a syncthreads, from one thread */
      raise_status(l, RT_ERR_RUNTIME, "break/continue out of a loop containing cuda.syncthreads() is not supported");
    else
      LLVMBuildBr(l->b, n->kind == N_BREAK ? l->loop->brk : l->loop->cont);
    break;
  case N_EXPR: {
    LLVMValueRef v = lo_expr(l, n->lhs);
    lo_done_with(l, n->lhs, v);
    break;
  }
  case N_BLOCK: lo_block(l, &n->body); break;
  case N_ASSERT: {
    LLVMValueRef ok = lo_truth(l, lo_expr(l, n->cond), n->cond->ty);
    raise_if(l, LLVMBuildNot(l->b, ok, ""), RT_ERR_ASSERT, n->str);
    break;
  }
  case N_RAISE: {
    LLVMValueRef cls = LLVMConstIntToPtr(LLVMConstInt(l->i64, (unsigned long long)(uintptr_t)n->callee, 0), l->ptr);
    LLVMTypeRef p[2] = {l->ptr, l->ptr};
    LLVMValueRef a[2] = {cls, const_string(l, n->str)};
    call(l, "rt_raise", LLVMVoidTypeInContext(l->c), p, a, 2);
    LLVMBuildStore(l->b, const_i32(l, RT_ERR_RAISE), l->status);
    LLVMBuildBr(l->b, l->exit_bb);
    break;
  }
  default: break;
  }
}

/* Statements after a return, break or continue are unreachable: they are
 * not emitted. */
static void lo_block(Lower *l, NodeList *b) {
  for (int i = 0; i < b->len && !terminated(l); i++) lo_stmt(l, b->items[i]);
}

/* Starts an internal function named after the current one plus suffix and
 * makes it the one being emitted: entry and exit blocks, status RT_OK. */
static void begin_outlined(Lower *l, const char *suffix, LLVMTypeRef ft) {
  char name[200];
  snprintf(name, sizeof name, "%s%s", LLVMGetValueName(l->fn), suffix);
  l->fn = LLVMAddFunction(l->m, name, ft);
  LLVMSetLinkage(l->fn, LLVMInternalLinkage);
  LLVMBasicBlockRef entry = new_block(l, "entry");
  l->exit_bb = new_block(l, "exit");
  l->loop = NULL;
  position(l, entry);
  l->status = entry_alloca(l, l->i32, "status");
  LLVMBuildStore(l->b, const_i32(l, RT_OK), l->status);
}

/* ---------------------------------------------------------------- parallel loops */

/* The identity of a reduction: what each thread's partial starts from. */
static LLVMValueRef reduction_identity(Lower *l, int op, const Type *t) {
  LLVMTypeRef ty = lo_type(l, t);
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
  case OP_GT: return sgn ? LLVMConstInt(ty, 1ull << (bits - 1), 0) : LLVMConstNull(ty);
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
enum { CTX_STATUS, CTX_MSG, CTX_CLASS, CTX_START, CTX_STEP, CTX_PARTIALS, CTX_VARS };

static LLVMTypeRef region_context_type(Lower *l, const ParPlan *plan, int *field) {
  LLVMTypeRef f[CTX_VARS + 256];
  int nf = CTX_VARS;
  f[CTX_STATUS] = l->i32;
  f[CTX_MSG] = f[CTX_CLASS] = f[CTX_PARTIALS] = l->ptr;
  f[CTX_START] = f[CTX_STEP] = l->i64;
  for (int v = 0; v < l->f->nvars && nf < CTX_VARS + 256; v++)
    if (plan->kind[v] == PAR_SHARED) {
      field[v] = nf;
      f[nf++] = lo_type(l, l->f->var_types[v]);
    }
  return LLVMStructTypeInContext(l->c, f, (unsigned)nf, 0);
}

static LLVMTypeRef partials_type(Lower *l, const ParPlan *plan, int *slot) {
  LLVMTypeRef f[256];
  int nf = 0;
  for (int v = 0; v < l->f->nvars; v++)
    if (plan->kind[v] == PAR_REDUCTION) {
      slot[v] = nf;
      f[nf++] = lo_type(l, l->f->var_types[v]);
    }
  if (!nf) f[nf++] = l->i8;
  return LLVMStructTypeInContext(l->c, f, (unsigned)nf, 0);
}

/* The exit of a chunk run on the pool: the first failing chunk records its
 * error in ctx (an RtError) for the caller; the builder is left where the
 * chunk returns. */
static void chunk_exit(Lower *l, LLVMValueRef ctx) {
  position(l, l->exit_bb);
  LLVMBasicBlockRef save = new_block(l, "save"), ret = new_block(l, "ret");
  LLVMValueRef failed = LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildLoad2(l->b, l->i32, l->status, ""), const_i32(l, 0), "");
  LLVMBuildCondBr(l->b, failed, save, ret);
  position(l, save);
  call(l, "rt_error_save", LLVMVoidTypeInContext(l->c), &l->ptr, &ctx, 1);
  LLVMBuildBr(l->b, ret);
  position(l, ret);
}

/* The outlined body: void chunk(ctx, begin, end, thread) runs iterations
 * [begin, end) with its own copies of the private and reduction variables. */
static LLVMValueRef lo_region_body(Lower *l, Node *n, const ParPlan *plan, LLVMTypeRef ctxty,
                                   const int *field, LLVMTypeRef partty, const int *slot,
                                   LLVMValueRef start, LLVMValueRef step) {
  Lower saved = *l;
  l->assigned = NULL;  /* the caller's flags; every variable here is given a value first */
  char suffix[32];
  snprintf(suffix, sizeof suffix, ".prange%d", l->nregions++);
  LLVMTypeRef params[4] = {l->ptr, l->i64, l->i64, l->i64};
  begin_outlined(l, suffix, LLVMFunctionType(LLVMVoidTypeInContext(l->c), params, 4, 0));
  LLVMValueRef ctx = LLVMGetParam(l->fn, 0);
  l->slots = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)l->f->nvars);
  for (int v = 0; v < l->f->nvars; v++) {
    const Type *t = l->f->var_types[v];
    if (plan->kind[v] == PAR_UNUSED || !t) continue;
    l->slots[v] = entry_alloca(l, lo_type(l, t), l->f->var_names[v]);
    LLVMValueRef init = NULL;
    if (plan->kind[v] == PAR_SHARED)
      init = LLVMBuildLoad2(l->b, lo_type(l, t), LLVMBuildStructGEP2(l->b, ctxty, ctx, (unsigned)field[v], ""), "");
    else if (plan->kind[v] == PAR_REDUCTION)
      init = reduction_identity(l, plan->red_op[v], t);
    else if (has_arrays(t))
      init = LLVMConstNull(lo_type(l, t));
    if (init) LLVMBuildStore(l->b, init, l->slots[v]);
  }
  /* a constant start and step (the caller's range) stay constants: x[i]
   * then reads memory at a stride LLVM can see, and i is known not to be
   * negative (read from ctx, they made the vector loop gather) */
  if (!LLVMIsAConstant(start))
    start = LLVMBuildLoad2(l->b, l->i64, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_START, ""), "");
  if (!LLVMIsAConstant(step))
    step = LLVMBuildLoad2(l->b, l->i64, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_STEP, ""), "");
  /* chunks never start below 0: iteration numbers are not negative, nor
   * (with a literal start of 0 or more) the indices made from them */
  LLVMValueRef begin = LLVMGetParam(l->fn, 1);
  LLVMValueRef nonneg = LLVMBuildICmp(l->b, LLVMIntSGE, begin, const_i64(l, 0), "");
  intrinsic(l, "llvm.assume", NULL, 0, &nonneg, 1);
  LLVMBasicBlockRef done = new_block(l, "chunk.end");
  lo_range_loop(l, n, start, step, begin, LLVMGetParam(l->fn, 2), done, done);
  position(l, done);
  LLVMValueRef parts = LLVMBuildLoad2(l->b, l->ptr, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_PARTIALS, ""), "");
  LLVMValueRef mine = LLVMBuildGEP2(l->b, partty, parts, (LLVMValueRef[]){LLVMGetParam(l->fn, 3)}, 1, "");
  for (int v = 0; v < l->f->nvars; v++)
    if (plan->kind[v] == PAR_REDUCTION)
      LLVMBuildStore(l->b, LLVMBuildLoad2(l->b, lo_type(l, l->f->var_types[v]), l->slots[v], ""),
                     LLVMBuildStructGEP2(l->b, partty, mine, (unsigned)slot[v], ""));
  LLVMBuildBr(l->b, l->exit_bb);
  chunk_exit(l, ctx);
  for (int v = 0; v < l->f->nvars; v++) {
    const Type *t = l->f->var_types[v];
    if (plan->kind[v] == PAR_PRIVATE && t && has_arrays(t))
      lo_refcount(l, t, LLVMBuildLoad2(l->b, lo_type(l, t), l->slots[v], ""), false);
  }
  LLVMBuildRetVoid(l->b);
  LLVMValueRef fn = l->fn;
  int nregions = l->nregions;
  *l = saved;
  l->nregions = nregions;
  position(l, LLVMGetInsertBlock(saved.b));
  return fn;
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

static void init_partial(Lower *l, LLVMValueRef *chunk, void *arg) {
  Partials *pa = arg;
  LLVMBuildStore(l->b, reduction_identity(l, pa->plan->red_op[pa->var], l->f->var_types[pa->var]),
                 partial_addr(l, pa, chunk[0]));
}

static void combine_partial(Lower *l, LLVMValueRef *chunk, void *arg) {
  Partials *pa = arg;
  const Type *t = l->f->var_types[pa->var];
  LLVMValueRef part = LLVMBuildLoad2(l->b, lo_type(l, t), partial_addr(l, pa, chunk[0]), "");
  LLVMValueRef acc = l->slots[pa->var];
  LLVMValueRef cur = LLVMBuildLoad2(l->b, lo_type(l, t), acc, "");
  LLVMBuildStore(l->b, reduction_combine(l, pa->plan->red_op[pa->var], t, cur, part), acc);
}

/* for i in prange(...) with parallel=True: the body is outlined and run
 * over the pool; each chunk reduces into its own partial, and the caller
 * combines the partials in chunk order. */
static void lo_parallel_for(Lower *l, Node *n, const ParPlan *plan) {
  int *field = arena_alloc(l->f->arena, sizeof(int) * (size_t)l->f->nvars);
  int *slot = arena_alloc(l->f->arena, sizeof(int) * (size_t)l->f->nvars);
  LLVMTypeRef ctxty = region_context_type(l, plan, field);
  LLVMTypeRef partty = partials_type(l, plan, slot);
  LLVMValueRef start, step;
  LLVMValueRef trips = lo_range(l, n->cond, &start, &step);
  LLVMBasicBlockRef here = LLVMGetInsertBlock(l->b);
  LLVMValueRef body = lo_region_body(l, n, plan, ctxty, field, partty, slot, start, step);
  position(l, here);
  LLVMValueRef ctx = entry_alloca(l, ctxty, "region");
  LLVMBuildStore(l->b, const_i32(l, RT_OK), LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_STATUS, ""));
  LLVMBuildStore(l->b, start, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_START, ""));
  LLVMBuildStore(l->b, step, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_STEP, ""));
  for (int v = 0; v < l->f->nvars; v++)
    if (plan->kind[v] == PAR_SHARED)
      LLVMBuildStore(l->b, LLVMBuildLoad2(l->b, lo_type(l, l->f->var_types[v]), l->slots[v], ""),
                     LLVMBuildStructGEP2(l->b, ctxty, ctx, (unsigned)field[v], ""));
  /* the partials live on the stack for the duration of the loop only */
  LLVMTypeRef ptrov[1] = {l->ptr};
  LLVMValueRef sp = intrinsic(l, "llvm.stacksave", ptrov, 1, NULL, 0);
  LLVMValueRef nchunks = call(l, "pool_chunk_count", l->i64, &l->i64, &trips, 1);
  LLVMValueRef parts = LLVMBuildArrayAlloca(l->b, partty, nchunks, "partials");
  LLVMBuildStore(l->b, parts, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_PARTIALS, ""));
  /* a serial run fills partial 0 only: the others stay at the identity */
  Partials pa = {plan, partty, parts, slot, 0};
  for (pa.var = 0; pa.var < l->f->nvars; pa.var++)
    if (plan->kind[pa.var] == PAR_REDUCTION) for_each_index(l, 1, &nchunks, init_partial, &pa);
  LLVMTypeRef pp[4] = {l->ptr, l->ptr, l->i64, l->i64};
  call(l, "pool_parallel_for", LLVMVoidTypeInContext(l->c), pp, (LLVMValueRef[]){body, ctx, trips, nchunks}, 4);
  LLVMValueRef st = LLVMBuildLoad2(l->b, l->i32, LLVMBuildStructGEP2(l->b, ctxty, ctx, CTX_STATUS, ""), "");
  LLVMBasicBlockRef fail = new_block(l, "region.fail"), ok = new_block(l, "region.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, const_i32(l, 0), ""), fail, ok);
  position(l, fail);
  call(l, "rt_error_restore", LLVMVoidTypeInContext(l->c), &l->ptr, &ctx, 1);
  intrinsic(l, "llvm.stackrestore", ptrov, 1, &sp, 1);
  LLVMBuildStore(l->b, st, l->status);
  LLVMBuildBr(l->b, l->exit_bb);
  position(l, ok);
  /* the variable's value before the loop, then every chunk's partial in order */
  for (pa.var = 0; pa.var < l->f->nvars; pa.var++)
    if (plan->kind[pa.var] == PAR_REDUCTION) for_each_index(l, 1, &nchunks, combine_partial, &pa);
  intrinsic(l, "llvm.stackrestore", ptrov, 1, &sp, 1);
  /* the loop variable ends at the last value, as after a serial loop */
  LLVMValueRef ran = LLVMBuildICmp(l->b, LLVMIntSGT, trips, const_i64(l, 0), "");
  LLVMValueRef last = LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, LLVMBuildSub(l->b, trips, const_i64(l, 1), ""), step, ""), "");
  LLVMValueRef var = l->slots[n->lhs->var];
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, ran, last, LLVMBuildLoad2(l->b, l->i64, var, ""), ""), var);
  LLVMValueRef *flag = l->assigned ? &l->assigned[n->lhs->var] : NULL;
  if (flag && *flag)
    LLVMBuildStore(l->b, LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->i1, *flag, ""), ran, ""), *flag);
}

/* ---------------------------------------------------------------- kernels on the CPU */

/* A @cuda.jit kernel becomes: an entry that runs the grid's blocks over the
 * thread pool, and a chunk function that runs blocks [begin, end) one after
 * the other. A block without syncthreads is one loop over its threads (tx
 * innermost, so LLVM can vectorise across threads). A block with
 * syncthreads is split at each barrier into loops over all its threads
 * (loop fission, as MCUDA and PoCL do): statements that contain a barrier
 * (if/for/while around it) run once per block with their conditions checked
 * to be the same for every thread, and every variable lives in per-thread
 * storage so values cross the barriers. */

static LLVMValueRef lo_grid(Lower *l, Node *n) {
  int nd = (int)n->list.items[0]->ival;
  LLVMValueRef v[3];
  for (int d = 0; d < nd; d++)
    v[d] = n->op == BI_CUDA_GRID
               ? LLVMBuildAdd(l->b, l->tid[d], LLVMBuildMul(l->b, l->bid[d], l->bdim[d], ""), "")
               : LLVMBuildMul(l->b, l->bdim[d], l->gdim[d], "");
  if (nd == 1) return v[0];
  LLVMValueRef t = LLVMGetUndef(lo_type(l, n->ty));
  for (int d = 0; d < nd; d++) t = LLVMBuildInsertValue(l->b, t, v[d], (unsigned)d, "");
  return t;
}

static int64_t array_elems(const Type *t, const Node *shape, int64_t *dims) {
  int64_t count = 1;
  for (int d = 0; d < t->ndim; d++) {
    dims[d] = shape->kind == N_TUPLE ? shape->list.items[d]->ival : shape->ival;
    count *= dims[d];
  }
  return count;
}

static Node *cuda_shape(Node *n) {
  if (n->list.len) return n->list.items[0];
  for (int i = 0; i < n->kw.len; i++)
    if (!strcmp(n->kw_names[i], "shape")) return n->kw.items[i];
  return NULL;
}

/* cuda.shared.array / cuda.local.array: storage made at the chunk's entry
 * (see kernel_memory); local arrays under fission have one per thread. */
static LLVMValueRef gpu_array_data(Lower *l, Node *n, int64_t count);

static LLVMValueRef lo_cuda_array(Lower *l, Node *n) {
  int64_t dims[RC_MAX_NDIM];
  int64_t count = array_elems(n->ty, cuda_shape(n), dims);
  int size = ty_bits(n->ty->elem) / 8;
  LLVMValueRef data = NULL, shape0 = const_i64(l, dims[0]);
  if (l->gpu) data = gpu_array_data(l, n, count);
  else if (l->fibers && n->op == BI_CUDA_LOCAL)  /* on the fiber's own stack */
    data = entry_alloca(l, LLVMArrayType2(lo_storage_type(l, n->ty->elem), (uint64_t)count), "local");
  for (int i = 0; i < l->nmem; i++)
    if (l->mem_nodes[i] == n) data = l->mem_base[i];
  if (l->gpu) {
    if (n->op == BI_CUDA_SHARED && count == 0)  /* the launch says how much: no bound known here */
      shape0 = const_i64(l, INT64_MAX / size);
  } else if (n->op == BI_CUDA_SHARED && count == 0) {
    data = l->dyn_shared;
    LLVMValueRef bytes = LLVMBuildLoad2(l->b, l->i64, LLVMBuildStructGEP2(l->b, launch_type(l), l->launch, 2, ""), "");
    shape0 = LLVMBuildSDiv(l->b, bytes, const_i64(l, size), "");
  } else if (n->op == BI_CUDA_LOCAL && l->fission) {
    LLVMValueRef off = LLVMBuildMul(l->b, l->thread, const_i64(l, count * size), "");
    data = LLVMBuildGEP2(l->b, l->i8, data, &off, 1, "");
  }
  LLVMValueRef a = LLVMConstNull(lo_type(l, n->ty));
  a = LLVMBuildInsertValue(l->b, a, data, 2, "");
  LLVMValueRef shp = LLVMGetUndef(LLVMArrayType2(l->i64, (uint64_t)n->ty->ndim));
  for (int d = 0; d < n->ty->ndim; d++)
    shp = LLVMBuildInsertValue(l->b, shp, d ? const_i64(l, dims[d]) : shape0, (unsigned)d, "");
  return LLVMBuildInsertValue(l->b, a, shp, 3, "");
}

static LLVMValueRef lo_atomic(Lower *l, Node *n) {
  Node *arr = n->list.items[0];
  const Type *elem = arr->ty->elem;
  LLVMValueRef base = lo_expr(l, arr), idx[RC_MAX_NDIM];
  lo_indices(l, n->list.items[1], idx);
  LLVMValueRef addr = lo_element_addr(l, arr->ty, base, idx);
  LLVMValueRef v = lo_expr_as(l, n->list.items[2], elem);
  if (n->ival == ATOM_CAS) {
    LLVMValueRef nv = lo_expr_as(l, n->list.items[3], elem);
    LLVMValueRef r = LLVMBuildAtomicCmpXchg(l->b, addr, v, nv, LLVMAtomicOrderingMonotonic,
                                            LLVMAtomicOrderingMonotonic, 0);
    return LLVMBuildExtractValue(l->b, r, 0, "");
  }
  bool fl = ty_is_float(elem), sgn = ty_is_signed(elem);
  LLVMAtomicRMWBinOp op;
  switch (n->ival) {
  case ATOM_ADD: op = fl ? LLVMAtomicRMWBinOpFAdd : LLVMAtomicRMWBinOpAdd; break;
  case ATOM_SUB: op = fl ? LLVMAtomicRMWBinOpFSub : LLVMAtomicRMWBinOpSub; break;
  case ATOM_MAX: op = fl ? LLVMAtomicRMWBinOpFMax : sgn ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax; break;
  case ATOM_MIN: op = fl ? LLVMAtomicRMWBinOpFMin : sgn ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin; break;
  default: op = LLVMAtomicRMWBinOpXchg; break;
  }
  return LLVMBuildAtomicRMW(l->b, op, addr, v, LLVMAtomicOrderingMonotonic, 0);
}

static LLVMTypeRef launch_type(Lower *l) {
  LLVMTypeRef three = LLVMArrayType2(l->i64, 3);
  LLVMTypeRef f[3] = {three, three, l->i64};
  return LLVMStructTypeInContext(l->c, f, 3, 0);
}

static bool stmt_has_barrier(const Node *n);

static bool block_has_barrier(const NodeList *b) {
  for (int i = 0; i < b->len; i++)
    if (stmt_has_barrier(b->items[i])) return true;
  return false;
}

static bool stmt_has_barrier(const Node *n) {
  if (n->kind == N_EXPR) return n->lhs->kind == N_CALL && n->lhs->op == BI_CUDA_SYNC;
  return block_has_barrier(&n->body) || block_has_barrier(&n->orelse);
}

/* Calls visit on n and every node below it, in source order. */
static void walk_tree(Node *n, void (*visit)(Node *n, void *ctx), void *ctx) {
  if (!n) return;
  visit(n, ctx);
  Node *kids[3] = {n->lhs, n->rhs, n->cond};
  for (int i = 0; i < 3; i++) walk_tree(kids[i], visit, ctx);
  NodeList *lists[4] = {&n->list, &n->kw, &n->body, &n->orelse};
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < lists[k]->len; i++) walk_tree(lists[k]->items[i], visit, ctx);
}

static void walk_body(Func *f, void (*visit)(Node *n, void *ctx), void *ctx) {
  for (int i = 0; i < f->body.len; i++) walk_tree(f->body.items[i], visit, ctx);
}

/* Collects the shared and local array call sites. */
static void note_memory(Node *n, void *ctx) {
  Lower *l = ctx;
  if (n->kind == N_CALL && (n->op == BI_CUDA_SHARED || n->op == BI_CUDA_LOCAL) && l->nmem < 256)
    l->mem_nodes[l->nmem++] = n;
}

/* Storage for every shared/local array at the chunk's entry. */
static void kernel_memory(Lower *l) {
  l->mem_nodes = arena_alloc(l->f->arena, sizeof(Node *) * 256);
  l->mem_base = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * 256);
  walk_body(l->f, note_memory, l);
  for (int i = 0; i < l->nmem; i++) {
    Node *n = l->mem_nodes[i];
    int64_t dims[RC_MAX_NDIM];
    int64_t bytes = array_elems(n->ty, cuda_shape(n), dims) * (ty_bits(n->ty->elem) / 8);
    if (n->op == BI_CUDA_LOCAL && l->fibers) continue;  /* on each fiber's own stack */
    LLVMValueRef count = const_i64(l, bytes ? bytes : 1);
    if (n->op == BI_CUDA_LOCAL && l->fission) count = LLVMBuildMul(l->b, count, l->nthreads, "");
    LLVMValueRef a = LLVMBuildArrayAlloca(l->b, l->i8, count, "shared");
    LLVMSetAlignment(a, 64);
    l->mem_base[i] = a;
  }
  LLVMValueRef dyn = LLVMBuildLoad2(l->b, l->i64, LLVMBuildStructGEP2(l->b, launch_type(l), l->launch, 2, ""), "");
  l->dyn_shared = LLVMBuildArrayAlloca(l->b, l->i8, LLVMBuildAdd(l->b, dyn, const_i64(l, 1), ""), "dynshared");
  LLVMSetAlignment(l->dyn_shared, 64);
}

/* Points every variable's slot at thread t's storage (fission). */
static void bind_thread_slots(Lower *l, LLVMValueRef t) {
  l->thread = t;
  if (!l->fission) return;
  for (int v = 0; v < l->f->nvars; v++)
    if (l->var_base[v])
      l->slots[v] = LLVMBuildGEP2(l->b, lo_type(l, l->f->var_types[v]), l->var_base[v], &t, 1, "");
  for (int i = 0; i < l->nremat; i++) {  /* cheaper to recompute than to keep per thread */
    int v = l->remat_order[i];
    Node *rhs = l->remat[v];
    LLVMBuildStore(l->b, lo_convert(l, lo_expr(l, rhs), rhs->ty, l->f->var_types[v]), l->slots[v]);
  }
}

typedef void (*ThreadBody)(Lower *l, void *arg);

/* for tz, ty, tx over the block: body(arg) for each live thread. */
static void thread_loop(Lower *l, ThreadBody body, void *arg) {
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(l->b);
  LLVMBasicBlockRef heads[3], latches[3], bodies[3];
  LLVMValueRef idx[3];
  LLVMBasicBlockRef after = new_block(l, "threads.done");
  for (int d = 2; d >= 0; d--) {
    heads[d] = new_block(l, "thread");
    bodies[d] = new_block(l, "thread.body");
    latches[d] = new_block(l, "thread.next");
    LLVMBuildBr(l->b, heads[d]);
    position(l, heads[d]);
    idx[d] = LLVMBuildPhi(l->b, l->i64, "t");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, idx[d], l->bdim[d], ""), bodies[d],
                    d == 2 ? after : latches[d + 1]);
    position(l, bodies[d]);
  }
  for (int d = 0; d < 3; d++) l->tid[d] = idx[d];
  LLVMValueRef t = LLVMBuildAdd(l->b, LLVMBuildMul(l->b, LLVMBuildAdd(l->b, LLVMBuildMul(l->b, idx[2], l->bdim[1], ""), idx[1], ""),
                                                  l->bdim[0], ""), idx[0], "tid");
  bind_thread_slots(l, t);
  l->next_thread = latches[0];
  if (l->fission) {  /* threads that returned sit out the rest of the block */
    LLVMBasicBlockRef live = new_block(l, "thread.live");
    LLVMValueRef gone = LLVMBuildLoad2(l->b, l->i8, LLVMBuildGEP2(l->b, l->i8, l->done, &t, 1, ""), "");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, gone, LLVMConstInt(l->i8, 0, 0), ""), latches[0], live);
    position(l, live);
  }
  body(l, arg);
  if (!terminated(l)) LLVMBuildBr(l->b, latches[0]);
  for (int d = 0; d < 3; d++) {
    position(l, latches[d]);
    LLVMValueRef next = LLVMBuildAdd(l->b, idx[d], const_i64(l, 1), "");
    LLVMBuildBr(l->b, heads[d]);
    LLVMBasicBlockRef from_outer = d == 2 ? pre : bodies[d + 1];
    LLVMAddIncoming(idx[d], (LLVMValueRef[]){const_i64(l, 0), next}, (LLVMBasicBlockRef[]){from_outer, latches[d]}, 2);
  }
  position(l, after);
  memset(l->tid, 0, sizeof l->tid);
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

static void init_params(Lower *l, void *arg) {
  LLVMValueRef *vals = arg;
  for (int v = 0; v < l->f->nparams; v++)
    if (l->slots[v]) LLVMBuildStore(l->b, vals[v], l->slots[v]);
}

static void store_loop_var(Lower *l, void *arg) {
  LLVMValueRef *kv = arg;
  LLVMBuildStore(l->b, kv[1], l->slots[(int)LLVMConstIntGetSExtValue(kv[0])]);
}

static void lo_kernel_block(Lower *l, NodeList *b);
static bool expr_uniform(Lower *l, const Node *n);

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
    LLVMValueRef trips = lo_range(l, n->cond, &start, &step);
    memset(l->tid, 0, sizeof l->tid);
    LLVMValueRef counter = entry_alloca(l, l->i64, "ufor");
    LLVMBuildStore(l->b, const_i64(l, 0), counter);
    LLVMBasicBlockRef head = new_block(l, "ufor"), body = new_block(l, "ufor.body"), done = new_block(l, "ufor.end");
    LLVMBuildBr(l->b, head);
    position(l, head);
    LLVMValueRef k = LLVMBuildLoad2(l->b, l->i64, counter, "");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, k, trips, ""), body, done);
    position(l, body);
    LLVMValueRef kv[2] = {const_i64(l, n->lhs->var), LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, k, step, ""), "")};
    if (l->uniform[n->lhs->var])
      LLVMBuildStore(l->b, kv[1], l->slots[n->lhs->var]);
    else
      thread_loop(l, store_loop_var, kv);
    lo_kernel_block(l, &n->body);
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->i64, counter, ""), const_i64(l, 1), ""), counter);
    LLVMBuildBr(l->b, head);
    position(l, done);
    lo_kernel_block(l, &n->orelse);
  }
}

/* Uniformity (fission only): a variable is uniform when every thread of a
 * block holds the same value in it — assigned only from uniform values
 * (constants, parameters, blockIdx/blockDim/gridDim, shared arrays, other
 * uniform variables) by statements every thread runs the same way. Uniform
 * variables need one slot per block, their updates run once per block, and
 * conditions on them need no per-thread check. */
static bool expr_uniform(Lower *l, const Node *n) {
  if (!n) return true;
  switch (n->kind) {
  case N_INT: case N_FLOAT: case N_BOOL: case N_DTYPE: case N_MODULE: return true;
  case N_VAR: return l->uniform[n->var];
  case N_INDEX: return n->lhs->ty->kind == TY_TUPLE && expr_uniform(l, n->lhs);
  case N_CALL:
    switch (n->op) {
    case BI_CUDA_TID: case BI_CUDA_GRID: case BI_CUDA_LOCAL: case BI_CUDA_ATOMIC: case BI_JIT:
    case BI_CUDA_SYNC:
      return false;
    case BI_CUDA_SHARED: return true;  /* one per block */
    default: break;
    }
    for (int i = 0; i < n->list.len; i++)
      if (!expr_uniform(l, n->list.items[i])) return false;
    return true;
  default:
    if (!expr_uniform(l, n->lhs) || !expr_uniform(l, n->rhs) || !expr_uniform(l, n->cond)) return false;
    for (int i = 0; i < n->list.len; i++)
      if (!expr_uniform(l, n->list.items[i])) return false;
    return true;
  }
}

static bool demote(Lower *l, int v) {
  bool was = l->uniform[v];
  l->uniform[v] = false;
  return was;
}

/* Demotes what a statement run inside a thread loop assigns non-uniformly;
 * top: not nested in a per-thread if/loop. Returns whether anything changed. */
static bool uniform_thread_stmt(Lower *l, const Node *n, bool ctx, bool top) {
  bool changed = false;
  const Node *t = n->lhs;
  switch (n->kind) {
  case N_ASSIGN:
    if (t->kind == N_VAR && !(ctx && top && expr_uniform(l, n->rhs))) changed |= demote(l, t->var);
    if (t->kind == N_TUPLE)
      for (int i = 0; i < t->list.len; i++)
        if (t->list.items[i]->kind == N_VAR) changed |= demote(l, t->list.items[i]->var);
    return changed;
  case N_AUGASSIGN:
    if (t->kind == N_VAR && !(ctx && top && expr_uniform(l, n->rhs))) changed |= demote(l, t->var);
    return changed;
  case N_FOR:
    changed |= demote(l, t->var);
    __attribute__((fallthrough));  /* its body runs per thread, as an if's */
  case N_IF: case N_WHILE:
    for (int i = 0; i < n->body.len; i++) changed |= uniform_thread_stmt(l, n->body.items[i], ctx, false);
    for (int i = 0; i < n->orelse.len; i++) changed |= uniform_thread_stmt(l, n->orelse.items[i], ctx, false);
    return changed;
  case N_BLOCK:
    for (int i = 0; i < n->body.len; i++) changed |= uniform_thread_stmt(l, n->body.items[i], ctx, top);
    return changed;
  default: return false;
  }
}

static bool uniform_block(Lower *l, const NodeList *b, bool ctx) {
  bool changed = false;
  for (int i = 0; i < b->len; i++) {
    const Node *n = b->items[i];
    if (!stmt_has_barrier(n)) {
      changed |= uniform_thread_stmt(l, n, ctx, true);
      continue;
    }
    bool c = ctx;
    if (n->kind == N_IF || n->kind == N_WHILE) c = ctx && expr_uniform(l, n->cond);
    if (n->kind == N_FOR) {
      for (int k = 0; k < n->cond->list.len; k++) c = c && expr_uniform(l, n->cond->list.items[k]);
      if (!c) changed |= demote(l, n->lhs->var);
    }
    changed |= uniform_block(l, &n->body, c) | uniform_block(l, &n->orelse, c);
  }
  return changed;
}

/* Counts the assignments of each variable anywhere in n. */
static void count_stores(const Node *n, int *stores) {
  if (!n) return;
  if ((n->kind == N_ASSIGN || n->kind == N_AUGASSIGN || n->kind == N_FOR) && n->lhs->kind == N_VAR)
    stores[n->lhs->var] += n->kind == N_AUGASSIGN ? 2 : 1;
  if (n->kind == N_ASSIGN && n->lhs->kind == N_TUPLE)
    for (int i = 0; i < n->lhs->list.len; i++)
      if (n->lhs->list.items[i]->kind == N_VAR) stores[n->lhs->list.items[i]->var] += 2;
  const NodeList *lists[2] = {&n->body, &n->orelse};
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < lists[k]->len; i++) count_stores(lists[k]->items[i], stores);
}

/* A value each thread can recompute at no risk: thread and block indices,
 * constants, unchanged parameters, earlier recomputable variables, and
 * arithmetic that cannot raise. */
static bool thread_pure(Lower *l, const Node *n, const int *stores) {
  if (!n) return true;
  switch (n->kind) {
  case N_INT: case N_FLOAT: case N_BOOL: return true;
  case N_VAR:
    /* variables that never change after their one assignment */
    return (n->var < l->f->nparams && stores[n->var] == 0) || l->remat[n->var] ||
           (l->uniform[n->var] && stores[n->var] <= 1);
  case N_CALL:
    return n->op >= BI_CUDA_TID && n->op <= BI_CUDA_GRIDSIZE;
  case N_BINOP:
    if (n->op == OP_DIV || n->op == OP_FLOORDIV || n->op == OP_MOD || n->op == OP_POW) return false;
    return thread_pure(l, n->lhs, stores) && thread_pure(l, n->rhs, stores);
  case N_UNARY: case N_ATTR: return thread_pure(l, n->lhs, stores);
  case N_COMPARE:
    for (int i = 0; i < n->list.len; i++)
      if (!thread_pure(l, n->list.items[i], stores)) return false;
    return true;
  default: return false;
  }
}

static void find_remat(Lower *l) {
  int *stores = arena_alloc(l->f->arena, sizeof(int) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  for (int i = 0; i < l->f->body.len; i++) count_stores(l->f->body.items[i], stores);
  l->remat = arena_alloc(l->f->arena, sizeof(Node *) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  l->remat_order = arena_alloc(l->f->arena, sizeof(int) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  for (int i = 0; i < l->f->body.len; i++) {
    Node *n = l->f->body.items[i];
    if (n->kind != N_ASSIGN || n->lhs->kind != N_VAR) continue;
    int v = n->lhs->var;
    /* uniform ones already live once per block */
    if (stores[v] != 1 || l->uniform[v] || !ty_is_scalar(n->lhs->ty) || !thread_pure(l, n->rhs, stores)) continue;
    l->remat[v] = n->rhs;
    l->remat_order[l->nremat++] = v;
  }
}

static void find_uniform(Lower *l) {
  l->uniform = arena_alloc(l->f->arena, sizeof(bool) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  for (int v = 0; v < l->f->nvars; v++) l->uniform[v] = l->f->var_types[v] != NULL;
  while (uniform_block(l, &l->f->body, true)) {
  }
  find_remat(l);
}

/* A barrier-free statement that updates a uniform variable: run once per block. */
static bool uniform_update(Lower *l, const Node *n) {
  return (n->kind == N_ASSIGN || n->kind == N_AUGASSIGN) && n->lhs->kind == N_VAR && l->uniform[n->lhs->var];
}

/* Splits statements at barriers: runs of barrier-free statements become
 * loops over the block's threads. */
static void lo_kernel_block(Lower *l, NodeList *b) {
  int from = 0;
  for (int i = 0; i <= b->len; i++) {
    bool once = i < b->len && !stmt_has_barrier(b->items[i]) && uniform_update(l, b->items[i]);
    if (i < b->len && !stmt_has_barrier(b->items[i]) && !once) continue;
    if (i > from) thread_loop(l, run_segment, &(Segment){b, from, i});
    if (once) lo_stmt(l, b->items[i]);
    else if (i < b->len && b->items[i]->kind != N_EXPR) lo_kernel_uniform(l, b->items[i]);
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
  intrinsic(l, "llvm.assume", NULL, 0, &c, 1);
}

/* Reads the LaunchConfig after the kernel's arguments: grid and block
 * dimensions. The launch was checked: telling LLVM their ranges lets it
 * prove a kernel's index arithmetic non-negative and vectorise across
 * threads. */
static void load_launch(Lower *l, LLVMValueRef args) {
  LLVMValueRef li = const_i64(l, l->f->nparams);
  l->launch = LLVMBuildLoad2(l->b, l->ptr, LLVMBuildGEP2(l->b, l->ptr, args, &li, 1, ""), "launch");
  LLVMTypeRef lt = launch_type(l), three = LLVMArrayType2(l->i64, 3);
  LLVMValueRef grid = LLVMBuildStructGEP2(l->b, lt, l->launch, 0, ""), block = LLVMBuildStructGEP2(l->b, lt, l->launch, 1, "");
  for (int d = 0; d < 3; d++) {
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, d)};
    l->gdim[d] = LLVMBuildLoad2(l->b, l->i64, LLVMBuildGEP2(l->b, three, grid, ix, 2, ""), "");
    l->bdim[d] = LLVMBuildLoad2(l->b, l->i64, LLVMBuildGEP2(l->b, three, block, ix, 2, ""), "");
    assume_below(l, l->bdim[d], 1025);
    assume_below(l, l->gdim[d], (int64_t)1 << 31);
  }
}

/* ---------------------------------------------------------------- kernels as fibers */

/* Whether every barrier sits under conditions and loops the same in every
 * thread, so that loop fission can run it. */
static bool barriers_uniform(Lower *l, const NodeList *b) {
  for (int i = 0; i < b->len; i++) {
    const Node *n = b->items[i];
    if (!stmt_has_barrier(n) || n->kind == N_EXPR) continue;
    if ((n->kind == N_IF || n->kind == N_WHILE) && !expr_uniform(l, n->cond)) return false;
    if (n->kind == N_FOR)
      for (int k = 0; k < n->cond->list.len; k++)
        if (!expr_uniform(l, n->cond->list.items[k])) return false;
    if (!barriers_uniform(l, &n->body) || !barriers_uniform(l, &n->orelse)) return false;
  }
  return true;
}

/* Notes a call to a device function that reaches cuda.syncthreads(). */
static void note_barrier_call(Node *n, void *ctx) {
  if (n->kind == N_CALL && n->op == BI_JIT && n->target && n->target->barrier) *(bool *)ctx = true;
}

/* What a fiber thread reads of its block: the arguments, the block's index,
 * the dynamic and static shared memory. */
enum { BCTX_ARGS, BCTX_BID, BCTX_DYN, BCTX_MEM };

static LLVMTypeRef block_context_type(Lower *l) {
  LLVMTypeRef f[4] = {l->ptr, LLVMArrayType2(l->i64, 3), l->ptr,
                      LLVMArrayType2(l->ptr, (uint64_t)(l->nmem ? l->nmem : 1))};
  return LLVMStructTypeInContext(l->c, f, 4, 0);
}

static LLVMValueRef bctx_field(Lower *l, LLVMTypeRef bty, LLVMValueRef bctx, unsigned f, int i) {
  LLVMValueRef ix[3] = {const_i64(l, 0), const_i32(l, (int)f), const_i64(l, i)};
  return LLVMBuildGEP2(l->b, bty, bctx, ix, f == BCTX_BID || f == BCTX_MEM ? 3 : 2, "");
}

/* i32 thread(bctx, t): one CUDA thread of a block, run as a fiber. */
static LLVMValueRef lo_fiber_thread(Lower *l, LLVMTypeRef bty) {
  Lower saved = *l;
  LLVMTypeRef params[2] = {l->ptr, l->i64};
  begin_outlined(l, ".thread", LLVMFunctionType(l->i32, params, 2, 0));
  l->next_thread = l->exit_bb;
  l->fission = false;
  LLVMValueRef bctx = LLVMGetParam(l->fn, 0), t = LLVMGetParam(l->fn, 1);
  LLVMValueRef args = LLVMBuildLoad2(l->b, l->ptr, bctx_field(l, bty, bctx, BCTX_ARGS, 0), "args");
  load_launch(l, args);
  for (int d = 0; d < 3; d++) l->bid[d] = LLVMBuildLoad2(l->b, l->i64, bctx_field(l, bty, bctx, BCTX_BID, d), "");
  l->tid[0] = LLVMBuildSRem(l->b, t, l->bdim[0], "");
  LLVMValueRef rest = LLVMBuildSDiv(l->b, t, l->bdim[0], "");
  l->tid[1] = LLVMBuildSRem(l->b, rest, l->bdim[1], "");
  l->tid[2] = LLVMBuildSDiv(l->b, rest, l->bdim[1], "");
  l->thread = t;
  l->dyn_shared = LLVMBuildLoad2(l->b, l->ptr, bctx_field(l, bty, bctx, BCTX_DYN, 0), "");
  l->mem_base = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * 256);
  for (int i = 0; i < l->nmem; i++)
    l->mem_base[i] = LLVMBuildLoad2(l->b, l->ptr, bctx_field(l, bty, bctx, BCTX_MEM, i), "");
  l->slots = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  for (int v = 0; v < l->f->nvars; v++) {
    const Type *ty = l->f->var_types[v];
    if (!ty) continue;
    l->slots[v] = entry_alloca(l, lo_type(l, ty), l->f->var_names[v]);
    if (v < l->f->nparams) {
      LLVMValueRef idx = const_i64(l, v);
      LLVMValueRef p = LLVMBuildLoad2(l->b, l->ptr, LLVMBuildGEP2(l->b, l->ptr, args, &idx, 1, ""), "");
      LLVMBuildStore(l->b, lo_load_storage(l, ty, p), l->slots[v]);
    }
  }
  lo_block(l, &l->f->body);
  if (!terminated(l)) LLVMBuildBr(l->b, l->exit_bb);
  position(l, l->exit_bb);
  LLVMBuildRet(l->b, LLVMBuildLoad2(l->b, l->i32, l->status, ""));
  LLVMValueRef fn = l->fn;
  *l = saved;
  return fn;
}

/* A block as fibers: one per thread, scheduled by rt_fiber_block. */
static void lo_fiber_block(Lower *l, LLVMValueRef fn, LLVMTypeRef bty, LLVMValueRef bctx) {
  for (int d = 0; d < 3; d++) LLVMBuildStore(l->b, l->bid[d], bctx_field(l, bty, bctx, BCTX_BID, d));
  LLVMTypeRef p[3] = {l->ptr, l->ptr, l->i64};
  LLVMValueRef st = call(l, "rt_fiber_block", l->i32, p, (LLVMValueRef[]){fn, bctx, l->nthreads}, 3);
  LLVMBasicBlockRef fail = new_block(l, "block.fail"), ok = new_block(l, "block.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, const_i32(l, 0), ""), fail, ok);
  position(l, fail);
  LLVMBuildStore(l->b, st, l->status);
  LLVMBuildBr(l->b, l->exit_bb);
  position(l, ok);
}

/* void chunk(ctx, begin, end, thread): blocks [begin, end) of the grid. */
static LLVMValueRef lo_kernel_chunk(Lower *l, LLVMTypeRef ctxty) {
  LLVMTypeRef params[4] = {l->ptr, l->i64, l->i64, l->i64};
  begin_outlined(l, ".blocks", LLVMFunctionType(LLVMVoidTypeInContext(l->c), params, 4, 0));
  LLVMValueRef ctx = LLVMGetParam(l->fn, 0);
  LLVMValueRef args = LLVMBuildLoad2(l->b, l->ptr, LLVMBuildStructGEP2(l->b, ctxty, ctx, 3, ""), "args");
  load_launch(l, args);
  l->nthreads = LLVMBuildMul(l->b, LLVMBuildMul(l->b, l->bdim[0], l->bdim[1], ""), l->bdim[2], "nthreads");
  LLVMValueRef *vals = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(l->f->nparams + 1));
  for (int v = 0; v < l->f->nparams; v++) {
    LLVMValueRef idx = const_i64(l, v);
    LLVMValueRef p = LLVMBuildLoad2(l->b, l->ptr, LLVMBuildGEP2(l->b, l->ptr, args, &idx, 1, ""), "");
    vals[v] = lo_load_storage(l, l->f->var_types[v], p);
  }
  l->slots = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  l->var_base = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  for (int v = 0; v < l->f->nvars; v++) {
    const Type *t = l->f->var_types[v];
    if (!t) continue;
    if (l->fission && !l->uniform[v] && !l->remat[v])
      l->var_base[v] = LLVMBuildArrayAlloca(l->b, lo_type(l, t), l->nthreads, l->f->var_names[v]);
    else
      l->slots[v] = entry_alloca(l, lo_type(l, t), l->f->var_names[v]);
  }
  if (l->fission) l->done = LLVMBuildArrayAlloca(l->b, l->i8, l->nthreads, "done");
  kernel_memory(l);
  LLVMTypeRef bty = NULL;
  LLVMValueRef bctx = NULL, thread_fn = NULL;
  if (l->fibers) {
    bty = block_context_type(l);
    bctx = LLVMBuildAlloca(l->b, bty, "block");
    LLVMBuildStore(l->b, args, bctx_field(l, bty, bctx, BCTX_ARGS, 0));
    LLVMBuildStore(l->b, l->dyn_shared, bctx_field(l, bty, bctx, BCTX_DYN, 0));
    for (int i = 0; i < l->nmem; i++) LLVMBuildStore(l->b, l->mem_base[i], bctx_field(l, bty, bctx, BCTX_MEM, i));
    LLVMBasicBlockRef here = LLVMGetInsertBlock(l->b);
    thread_fn = lo_fiber_thread(l, bty);
    position(l, here);
  }
  /* the blocks of this chunk */
  LLVMValueRef counter = entry_alloca(l, l->i64, "block");
  LLVMBuildStore(l->b, LLVMGetParam(l->fn, 1), counter);
  LLVMBasicBlockRef head = new_block(l, "blocks"), body = new_block(l, "blocks.body"), done = new_block(l, "blocks.end");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef b = LLVMBuildLoad2(l->b, l->i64, counter, "");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, b, LLVMGetParam(l->fn, 2), ""), body, done);
  position(l, body);
  l->bid[0] = LLVMBuildSRem(l->b, b, l->gdim[0], "");
  LLVMValueRef rest = LLVMBuildSDiv(l->b, b, l->gdim[0], "");
  l->bid[1] = LLVMBuildSRem(l->b, rest, l->gdim[1], "");
  l->bid[2] = LLVMBuildSDiv(l->b, rest, l->gdim[1], "");
  for (int d = 0; d < 3; d++) assume_below(l, l->bid[d], (int64_t)1 << 31);
  if (l->fibers) {
    lo_fiber_block(l, thread_fn, bty, bctx);
  } else if (l->fission) {
    LLVMBuildMemSet(l->b, l->done, LLVMConstInt(l->i8, 0, 0), l->nthreads, 1);
    thread_loop(l, init_params, vals);
    lo_kernel_block(l, &l->f->body);
  } else {
    thread_loop(l, run_whole_body, vals);
  }
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->i64, counter, ""), const_i64(l, 1), ""), counter);
  LLVMBuildBr(l->b, head);
  position(l, done);
  LLVMBuildBr(l->b, l->exit_bb);
  chunk_exit(l, ctx);
  LLVMBuildRetVoid(l->b);
  return l->fn;
}

/* The kernel's entry: the grid's blocks over the pool. */
static void lo_kernel(Lower *l) {
  LLVMTypeRef f[4] = {l->i32, l->ptr, l->ptr, l->ptr};  /* RtError, then the arguments */
  LLVMTypeRef ctxty = LLVMStructTypeInContext(l->c, f, 4, 0);
  LLVMValueRef entry_fn = l->fn;
  LLVMBasicBlockRef entry = LLVMGetInsertBlock(l->b);
  l->fission = block_has_barrier(&l->f->body);
  if (l->fission) find_uniform(l);
  /* barriers the fission cannot reach: under conditions that differ
   * between threads, or inside device functions */
  bool barrier_calls = false;
  walk_body(l->f, note_barrier_call, &barrier_calls);
  l->fibers = barrier_calls || (l->fission && !barriers_uniform(l, &l->f->body));
  if (l->fibers) l->fission = false;
  LLVMValueRef chunk = lo_kernel_chunk(l, ctxty);
  l->fn = entry_fn;
  position(l, entry);
  LLVMValueRef args = LLVMGetParam(l->fn, 1);
  LLVMValueRef ctx = LLVMBuildAlloca(l->b, ctxty, "ctx");
  LLVMBuildStore(l->b, const_i32(l, RT_OK), LLVMBuildStructGEP2(l->b, ctxty, ctx, 0, ""));
  LLVMBuildStore(l->b, args, LLVMBuildStructGEP2(l->b, ctxty, ctx, 3, ""));
  LLVMValueRef li = const_i64(l, l->f->nparams);
  LLVMValueRef launch = LLVMBuildLoad2(l->b, l->ptr, LLVMBuildGEP2(l->b, l->ptr, args, &li, 1, ""), "launch");
  LLVMValueRef nblocks = const_i64(l, 1);
  for (int d = 0; d < 3; d++) {
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, d)};
    LLVMValueRef g = LLVMBuildLoad2(l->b, l->i64, LLVMBuildGEP2(l->b, LLVMArrayType2(l->i64, 3),
                                    LLVMBuildStructGEP2(l->b, launch_type(l), launch, 0, ""), ix, 2, ""), "");
    nblocks = LLVMBuildMul(l->b, nblocks, g, "");
  }
  LLVMValueRef nchunks = call(l, "pool_chunk_count", l->i64, &l->i64, &nblocks, 1);
  LLVMTypeRef pp[4] = {l->ptr, l->ptr, l->i64, l->i64};
  call(l, "pool_parallel_for", LLVMVoidTypeInContext(l->c), pp, (LLVMValueRef[]){chunk, ctx, nblocks, nchunks}, 4);
  LLVMValueRef st = LLVMBuildLoad2(l->b, l->i32, LLVMBuildStructGEP2(l->b, ctxty, ctx, 0, ""), "");
  LLVMBasicBlockRef fail = new_block(l, "fail"), ok = new_block(l, "ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, const_i32(l, 0), ""), fail, ok);
  position(l, fail);
  call(l, "rt_error_restore", LLVMVoidTypeInContext(l->c), &l->ptr, &ctx, 1);
  LLVMBuildRet(l->b, st);
  position(l, ok);
  LLVMBuildRet(l->b, const_i32(l, RT_OK));
}

/* ---------------------------------------------------------------- kernels on the GPU (NVPTX) */

/* On the GPU a kernel is one function run by every thread: thread indices
 * are special registers, syncthreads is bar.sync, shared arrays are globals
 * in address space 3, local arrays allocas. Arrays arrive as (data,
 * shape..., strides...) parameters. */

static LLVMValueRef sreg(Lower *l, const char *reg, int axis) {
  char name[64];
  snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s.%c", reg, "xyz"[axis]);
  return LLVMBuildZExt(l->b, call(l, name, l->i32, NULL, NULL, 0), l->i64, "");
}

static LLVMValueRef gpu_array_data(Lower *l, Node *n, int64_t count) {
  LLVMTypeRef elem = lo_storage_type(l, n->ty->elem);
  if (n->op == BI_CUDA_LOCAL)
    return entry_alloca(l, LLVMArrayType2(elem, (uint64_t)count), "local");
  LLVMTypeRef ty = LLVMArrayType2(elem, (uint64_t)count);
  LLVMValueRef g = LLVMAddGlobalInAddressSpace(l->m, ty, count ? "shared" : "dynshared", 3);
  if (count) {  /* one per call site */
    LLVMSetInitializer(g, LLVMGetUndef(ty));
    LLVMSetLinkage(g, LLVMInternalLinkage);
  } else {  /* extern: sized by the launch */
    LLVMSetLinkage(g, LLVMExternalLinkage);
  }
  LLVMSetAlignment(g, 16);
  return LLVMBuildAddrSpaceCast(l->b, g, l->ptr, "");
}

/* Parameters: scalars as themselves, arrays as data, shape[ndim], strides[ndim]. */
static LLVMTypeRef gpu_kernel_type(Lower *l) {
  LLVMTypeRef params[256];
  unsigned np = 0;
  for (int v = 0; v < l->f->nparams && np < 240; v++) {
    const Type *t = l->f->var_types[v];
    if (t->kind != TY_ARRAY) {
      params[np++] = lo_type(l, t);
      continue;
    }
    params[np++] = l->ptr;
    for (int d = 0; d < 2 * t->ndim; d++) params[np++] = l->i64;
  }
  return LLVMFunctionType(LLVMVoidTypeInContext(l->c), params, np, 0);
}

/* The entry block of a GPU function: the thread's indices from the special
 * registers, a slot per variable. */
static void gpu_prologue(Lower *l) {
  LLVMBasicBlockRef entry = new_block(l, "entry");
  l->exit_bb = new_block(l, "exit");
  position(l, entry);
  l->status = entry_alloca(l, l->i32, "status");
  for (int d = 0; d < 3; d++) {
    l->tid[d] = sreg(l, "tid", d);
    l->bid[d] = sreg(l, "ctaid", d);
    l->bdim[d] = sreg(l, "ntid", d);
    l->gdim[d] = sreg(l, "nctaid", d);
  }
  l->slots = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(l->f->nvars ? l->f->nvars : 1));
}

static void lo_gpu_kernel(Lower *l, const char *symbol) {
  l->fn = LLVMAddFunction(l->m, symbol, gpu_kernel_type(l));
  LLVMSetFunctionCallConv(l->fn, 71);  /* PTX_Kernel: an entry point, not a .func */
  gpu_prologue(l);
  l->next_thread = l->exit_bb;  /* return: this thread is done */
  unsigned p = 0;
  for (int v = 0; v < l->f->nvars; v++) {
    const Type *t = l->f->var_types[v];
    if (!t) continue;
    l->slots[v] = entry_alloca(l, lo_type(l, t), l->f->var_names[v]);
    if (v >= l->f->nparams) continue;
    LLVMValueRef val;
    if (t->kind != TY_ARRAY) {
      val = LLVMGetParam(l->fn, p++);
    } else {
      val = LLVMConstNull(lo_type(l, t));
      val = LLVMBuildInsertValue(l->b, val, LLVMGetParam(l->fn, p++), 2, "");
      for (unsigned f = 3; f < 5; f++)
        for (int d = 0; d < t->ndim; d++) {
          unsigned path[2] = {f, (unsigned)d};
          LLVMValueRef agg = LLVMBuildExtractValue(l->b, val, path[0], "");
          agg = LLVMBuildInsertValue(l->b, agg, LLVMGetParam(l->fn, p++), path[1], "");
          val = LLVMBuildInsertValue(l->b, val, agg, f, "");
        }
    }
    LLVMBuildStore(l->b, val, l->slots[v]);
  }
  lo_block(l, &l->f->body);
  if (!terminated(l)) LLVMBuildBr(l->b, l->exit_bb);
  position(l, l->exit_bb);
  LLVMBuildRetVoid(l->b);
}

/* A device function on the GPU: a .func taking its arguments as values
 * (arrays as their descriptor) and returning its result. Errors trap, as in
 * kernels, so there is no status to return. */
static LLVMTypeRef gpu_device_type(Lower *l) {
  LLVMTypeRef params[64];
  for (int v = 0; v < l->f->nparams; v++) params[v] = lo_type(l, l->f->var_types[v]);
  const Type *rt = l->f->ret_type;
  LLVMTypeRef ret = rt->kind == TY_NONE ? LLVMVoidTypeInContext(l->c) : lo_type(l, rt);
  return LLVMFunctionType(ret, params, (unsigned)l->f->nparams, 0);
}

static void lo_gpu_device(Lower *l, LLVMValueRef fn) {
  l->fn = fn;
  gpu_prologue(l);
  const Type *rt = l->f->ret_type;
  if (rt->kind != TY_NONE) l->ret_val = entry_alloca(l, lo_type(l, rt), "result");
  for (int v = 0; v < l->f->nvars; v++) {
    const Type *t = l->f->var_types[v];
    if (!t) continue;
    l->slots[v] = entry_alloca(l, lo_type(l, t), l->f->var_names[v]);
    if (v < l->f->nparams) LLVMBuildStore(l->b, LLVMGetParam(fn, (unsigned)v), l->slots[v]);
  }
  unbound_flags(l);
  lo_block(l, &l->f->body);
  if (!terminated(l)) LLVMBuildBr(l->b, l->exit_bb);
  position(l, l->exit_bb);
  if (rt->kind == TY_NONE) LLVMBuildRetVoid(l->b);
  else LLVMBuildRet(l->b, LLVMBuildLoad2(l->b, lo_type(l, rt), l->ret_val, ""));
}

/* The callee of a call on the GPU, lowered into this module the first time
 * it is called (target->symbol is one per callee and argument types). */
static LLVMValueRef gpu_callee(Lower *l, const CallTarget *target) {
  LLVMValueRef fn = LLVMGetNamedFunction(l->m, target->symbol);
  if (fn) return fn;
  Lower sub = {.f = target->func, .opts = target->func_opts, .res = l->res, .gpu = true, .m = l->m};
  lo_init(&sub, l->c);
  sub.b = LLVMCreateBuilderInContext(l->c);
  fn = LLVMAddFunction(l->m, target->symbol, gpu_device_type(&sub));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  lo_gpu_device(&sub, fn);
  LLVMDisposeBuilder(sub.b);
  return fn;
}

static LLVMValueRef lo_gpu_call(Lower *l, Node *n) {
  LLVMValueRef fn = n->target->self ? l->fn : gpu_callee(l, n->target);
  LLVMValueRef args[64];
  int na = n->list.len;
  for (int i = 0; i < na; i++) args[i] = lo_expr(l, n->list.items[i]);
  LLVMValueRef r = LLVMBuildCall2(l->b, LLVMGlobalGetValueType(fn), fn, args, (unsigned)na, "");
  return n->ty->kind == TY_NONE ? LLVMGetUndef(l->i8) : r;
}

/* ---------------------------------------------------------------- the function */

/* The exit block: release every local that can hold arrays, return the
 * status and the result. */
static void lo_exit(Lower *l) {
  position(l, l->exit_bb);
  for (int v = 0; v < l->f->nvars; v++) {
    const Type *t = l->f->var_types[v];
    if (t && has_arrays(t)) lo_refcount(l, t, LLVMBuildLoad2(l->b, lo_type(l, t), l->slots[v], ""), false);
  }
  LLVMTypeRef rty = LLVMGetReturnType(LLVMGlobalGetValueType(l->fn));
  LLVMValueRef r = LLVMBuildInsertValue(l->b, LLVMGetUndef(rty), LLVMBuildLoad2(l->b, l->i32, l->status, "status"), 0, "");
  r = LLVMBuildInsertValue(l->b, r, LLVMBuildLoad2(l->b, lo_type(l, l->f->ret_type), l->ret_val, ""), 1, "");
  LLVMBuildRet(l->b, r);
}

/* A device function reads the CUDA thread it runs as (thread_record). */
static void load_thread(Lower *l, LLVMValueRef th) {
  LLVMValueRef *parts[4] = {l->tid, l->bid, l->bdim, l->gdim};
  for (int k = 0; k < 12; k++) {
    LLVMValueRef ix = const_i64(l, k);
    parts[k / 3][k % 3] = LLVMBuildLoad2(l->b, l->i64, LLVMBuildGEP2(l->b, l->i64, th, &ix, 1, ""), "");
  }
}

/* Marks variables whose first appearance in the body is an assignment at
 * its top level (or a parameter): those are assigned before any read. */
static void first_uses(const Node *n, bool top, signed char *state);

static void first_uses_list(const NodeList *b, bool top, signed char *state) {
  for (int i = 0; i < b->len; i++) first_uses(b->items[i], top, state);
}

static void first_uses(const Node *n, bool top, signed char *state) {
  if (!n) return;
  if (n->kind == N_VAR) {
    if (!state[n->var]) state[n->var] = -1;  /* read first: may be unassigned */
    return;
  }
  if (n->kind == N_ASSIGN) {
    first_uses(n->rhs, top, state);
    const Node *t = n->lhs;
    if (t->kind == N_VAR) {
      if (!state[t->var]) state[t->var] = top ? 1 : -1;
    } else if (t->kind == N_TUPLE) {
      for (int i = 0; i < t->list.len; i++) {
        const Node *e = t->list.items[i];
        if (e->kind == N_VAR) { if (!state[e->var]) state[e->var] = top ? 1 : -1; }
        else first_uses(e, top, state);
      }
    } else {
      first_uses(t, top, state);
    }
    return;
  }
  bool nested = n->kind == N_IF || n->kind == N_WHILE || n->kind == N_FOR;
  first_uses(n->cond, top, state);
  if (n->kind == N_FOR && !state[n->lhs->var]) state[n->lhs->var] = -1;  /* the loop may not run */
  if (n->kind != N_FOR) first_uses(n->lhs, top, state);
  first_uses(n->rhs, top, state);
  first_uses_list(&n->list, top, state);
  first_uses_list(&n->kw, top, state);
  first_uses_list(&n->body, top && !nested, state);
  first_uses_list(&n->orelse, top && !nested, state);
}

static void unbound_flags(Lower *l) {
  signed char *state = arena_alloc(l->f->arena, (size_t)(l->f->nvars ? l->f->nvars : 1));
  for (int v = 0; v < l->f->nparams; v++) state[v] = 1;
  first_uses_list(&l->f->body, true, state);
  l->assigned = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  for (int v = 0; v < l->f->nvars; v++) {
    if (state[v] != -1 || !l->f->var_types[v]) continue;
    l->assigned[v] = entry_alloca(l, l->i1, "assigned");
    LLVMBuildStore(l->b, LLVMConstInt(l->i1, 0, 0), l->assigned[v]);
  }
}

/* The body's start: its arguments (values, then a device function's
 * thread record) into their variables. */
static void lo_prologue(Lower *l) {
  if (l->opts->device) load_thread(l, LLVMGetParam(l->fn, (unsigned)l->f->nparams));
  l->status = entry_alloca(l, l->i32, "status");
  l->slots = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(l->f->nvars ? l->f->nvars : 1));
  for (int v = 0; v < l->f->nvars; v++) {
    const Type *t = l->f->var_types[v];
    if (!t) continue;  /* never assigned: never read either */
    l->slots[v] = entry_alloca(l, lo_type(l, t), l->f->var_names[v]);
    if (v < l->f->nparams) {
      LLVMValueRef value = LLVMGetParam(l->fn, (unsigned)v);
      /* the exit releases every local, parameters too: take a reference */
      if (has_arrays(t)) lo_refcount(l, t, value, true);
      LLVMBuildStore(l->b, value, l->slots[v]);
    } else if (has_arrays(t)) {
      LLVMBuildStore(l->b, LLVMConstNull(lo_type(l, t)), l->slots[v]);
    }
  }
  unbound_flags(l);
}

static void add_noalias(Lower *l, LLVMValueRef fn, unsigned param) {
  unsigned kind = LLVMGetEnumAttributeKindForName("noalias", 7);
  LLVMAddAttributeAtIndex(fn, param + 1, LLVMCreateEnumAttribute(l->c, kind, 0));
}

/* The body as an internal function: {i32 status, result} (the arguments
 * as values..., [a device function's thread record]). Recursive calls pass
 * everything in registers: when the body cannot fail, LLVM drops the
 * status and can turn fib(n - 1) + fib(n - 2) into a loop and one call. */
static void lo_impl(Lower *l, const char *symbol) {
  int np = l->f->nparams + l->opts->device;
  LLVMTypeRef *params = arena_alloc(l->f->arena, sizeof(LLVMTypeRef) * (size_t)(np ? np : 1));
  for (int v = 0; v < l->f->nparams; v++) params[v] = lo_type(l, l->f->var_types[v]);
  if (l->opts->device) params[np - 1] = l->ptr;
  LLVMTypeRef result[2] = {l->i32, lo_type(l, l->f->ret_type)};
  char name[300];
  snprintf(name, sizeof name, "%s.body", symbol);
  LLVMTypeRef ft = LLVMFunctionType(LLVMStructTypeInContext(l->c, result, 2, 0), params, (unsigned)np, 0);
  l->impl = l->fn = LLVMAddFunction(l->m, name, ft);
  LLVMSetLinkage(l->fn, LLVMInternalLinkage);
  LLVMBasicBlockRef entry = new_block(l, "entry");
  l->exit_bb = new_block(l, "exit");
  position(l, entry);
  l->ret_val = entry_alloca(l, result[1], "result");
  lo_prologue(l);
  lo_block(l, &l->f->body);
  if (!terminated(l)) {  /* falling off the end returns None */
    LLVMBuildStore(l->b, const_i32(l, RT_OK), l->status);
    LLVMBuildBr(l->b, l->exit_bb);
  }
  lo_exit(l);
}

/* The entry ABI, int entry(void *ret, void **args): each argument read
 * from its storage layout, the body called, its result stored in ret. */
static void lo_entry(Lower *l) {
  position(l, new_block(l, "entry"));
  int np = l->f->nparams + l->opts->device;
  LLVMValueRef *vals = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(np ? np : 1));
  LLVMValueRef args = LLVMGetParam(l->fn, 1);
  for (int v = 0; v < np; v++) {
    LLVMValueRef idx = const_i64(l, v);
    LLVMValueRef p = LLVMBuildLoad2(l->b, l->ptr, LLVMBuildGEP2(l->b, l->ptr, args, &idx, 1, ""), "");
    vals[v] = v < l->f->nparams ? lo_load_storage(l, l->f->var_types[v], p) : p;
  }
  LLVMValueRef r = LLVMBuildCall2(l->b, LLVMGlobalGetValueType(l->impl), l->impl, vals, (unsigned)np, "");
  if (l->f->ret_type->kind != TY_NONE)
    lo_store_storage(l, l->f->ret_type, LLVMGetParam(l->fn, 0), LLVMBuildExtractValue(l->b, r, 1, ""));
  LLVMBuildRet(l->b, LLVMBuildExtractValue(l->b, r, 0, "status"));
}

static void lo_init(Lower *l, LLVMContextRef c) {
  l->c = c;
  l->i1 = LLVMInt1TypeInContext(c);
  l->i8 = LLVMInt8TypeInContext(c);
  l->i32 = LLVMInt32TypeInContext(c);
  l->i64 = LLVMInt64TypeInContext(c);
  l->f32 = LLVMFloatTypeInContext(c);
  l->f64 = LLVMDoubleTypeInContext(c);
  l->ptr = LLVMPointerTypeInContext(c, 0);
  LLVMTypeRef dims = LLVMArrayType2(l->i64, RC_MAX_NDIM);
  LLVMTypeRef f[5] = {l->ptr, l->ptr, l->ptr, dims, dims};
  l->rtarray = LLVMStructTypeInContext(c, f, 5, 0);
}

LLVMModuleRef lo_function(Func *f, const CompileOptions *opts, LLVMContextRef c, const char *symbol,
                          CompileResult *res) {
  Lower l = {.f = f, .opts = opts, .res = res};
  lo_init(&l, c);
  l.m = LLVMModuleCreateWithNameInContext(f->name, c);
  l.b = LLVMCreateBuilderInContext(c);
  if (opts->gpu_cc) {
    l.gpu = true;
    if (opts->device)  /* compile_ptx(device=True): the device function alone */
      lo_gpu_device(&l, LLVMAddFunction(l.m, symbol, gpu_device_type(&l)));
    else
      lo_gpu_kernel(&l, symbol);
    LLVMDisposeBuilder(l.b);
    return l.m;
  }
  LLVMTypeRef params[2] = {l.ptr, l.ptr};
  LLVMValueRef entry_fn = LLVMAddFunction(l.m, symbol, LLVMFunctionType(l.i32, params, 2, 0));
  for (unsigned i = 0; i < 2; i++) add_noalias(&l, entry_fn, i);
  l.fn = entry_fn;
  if (opts->kernel) {
    position(&l, new_block(&l, "entry"));
    lo_kernel(&l);
    LLVMDisposeBuilder(l.b);
    return l.m;
  }
  lo_impl(&l, symbol);
  l.fn = entry_fn;
  lo_entry(&l);
  LLVMDisposeBuilder(l.b);
  return l.m;
}
