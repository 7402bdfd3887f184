/* builtins/cuda.c — the CUDA kernel language (ruchey.cuda): the thread's
 * and block's indices, cuda.grid and cuda.gridsize, syncthreads, shared
 * and local arrays. Each lowers for the CPU backend (kernel.c, fibers.c:
 * indices are the loops' counters) and for the GPU (gpu.c: special
 * registers). Atomics are atomic.c's, warps' intrinsics warp.c's.
 */
#include <stdio.h>

#include "builtins/builtins.h"
#include "ir.h"

/* ---------------------------------------------------------------- indices */

static const Type *ty_index(Infer *in, Node *n, const Type **args) { return TYS(TY_I64); }

static LLVMValueRef lo_tid(Lower *l, Node *n) { return l->tid[n->bi->ival]; }
static LLVMValueRef lo_bid(Lower *l, Node *n) { return l->bid[n->bi->ival]; }
static LLVMValueRef lo_bdim(Lower *l, Node *n) { return l->bdim[n->bi->ival]; }
static LLVMValueRef lo_gdim(Lower *l, Node *n) { return l->gdim[n->bi->ival]; }

/* An integer constant argument (a literal, a global, TPB + 1), or -1. */
static int64_t literal_int(const Node *n) {
  int64_t v;
  return ir_const_int(n, &v) ? v : -1;
}

/* cuda.grid(ndim), cuda.gridsize(ndim): an int, or a tuple of 2 or 3 */
static const Type *ty_grid(Infer *in, Node *n, const Type **args) {
  int64_t nd = literal_int(n->list.items[0]);
  if (nd < 1 || nd > 3) return ty_error(in, n, "%s() takes a constant 1, 2 or 3", n->bi->name);
  if (nd == 1) return TYS(TY_I64);
  const Type *f[3] = {TYS(TY_I64), TYS(TY_I64), TYS(TY_I64)};
  return ty_tuple((int)nd, f);
}

static LLVMValueRef lo_grid(Lower *l, Node *n) {
  int nd = (int)literal_int(n->list.items[0]);
  LLVMValueRef v[3];
  for (int d = 0; d < nd; d++)
    v[d] = n->bi->flags & BF_VARIES
               ? LLVMBuildAdd(l->b, l->tid[d], LLVMBuildMul(l->b, l->bid[d], l->bdim[d], ""), "")
               : LLVMBuildMul(l->b, l->bdim[d], l->gdim[d], "");
  if (nd == 1) return v[0];
  LLVMValueRef t = LLVMGetUndef(lo_type(l, n->ty));
  for (int d = 0; d < nd; d++) t = LLVMBuildInsertValue(l->b, t, v[d], (unsigned)d, "");
  return t;
}

/* ---------------------------------------------------------------- syncthreads */

static const Type *ty_sync(Infer *in, Node *n, const Type **args) {
  in->f->barrier = true;
  return TYS(TY_NONE);
}

/* On the GPU bar.sync; on the CPU a fiber switch, or (fission) a boundary
 * between loops over the threads that kernel.c places. */
static LLVMValueRef lo_sync(Lower *l, Node *n) {
  if (l->mod->gpu) {
    lo_call_fn(l, "llvm.nvvm.barrier0", void_type(l), NULL, NULL, 0);
  } else if (l->fibers || l->opts->device) {  /* the site tells apart barriers threads wait at */
    char site[300];
    snprintf(site, sizeof site, "%s:%d", l->f->filename, n->line);
    LLVMValueRef text = lo_string(l, site);
    lo_call_fn(l, "rt_fiber_barrier", void_type(l), &l->mod->ptr, &text, 1);
  }
  return LLVMGetUndef(l->mod->i8);
}

/* ---------------------------------------------------------------- shared and local arrays */

static const char *const array_kw[] = {"shape", "dtype", "alignment", NULL};

static const Type *dtype_of(Infer *in, Node *n) {
  Node *d = n->list.len > 1 ? n->list.items[1] : ty_kwarg(n, "dtype");
  if (!d) return NULL;
  if (d->ty && d->ty->kind == TY_STR) {  /* a dtype's name known here: a global, a variable assigned it once */
    const char *name;
    bool known;
    const Type *t = np_named_dtype(in, d, &name, &known);
    if (t) return t;
    if (name && !known) return ty_error(in, d, "Invalid NumPy dtype specified: '%s'", name);  /* (numba-cuda's words) */
    if (name) return ty_error(in, d, "%s()'s dtype '%s' is not supported in compiled code", n->bi->name, name);
    return ty_error(in, d, "%s()'s dtype, a str, must be known when the function is compiled", n->bi->name);
  }
  if (!ty_is_numpy_dtype(d->ty))
    return ty_error(in, d, "dtype must be a NumPy scalar type such as numpy.float64");
  return d->ty->elem;
}

int64_t lo_cuda_array_elems(const Type *t, const Node *shape, int64_t *dims) {
  int64_t count = 1;
  for (int d = 0; d < t->ndim; d++) {
    dims[d] = literal_int(shape->kind == N_TUPLE ? shape->list.items[d] : shape);
    count *= dims[d];
  }
  return count;
}

Node *lo_cuda_shape(Node *n) {
  if (n->list.len) return n->list.items[0];
  for (int i = 0; i < n->kw.len; i++)
    if (!strcmp(n->kw_names[i], "shape")) return n->kw.items[i];
  return NULL;
}

/* alignment= of a shared or local array (its third argument), or NULL. */
static Node *alignment_arg(Node *n) {
  if (n->list.len > 2) return n->list.items[2];
  for (int i = 0; i < n->kw.len; i++)
    if (!strcmp(n->kw_names[i], "alignment")) return n->kw.items[i];
  return NULL;
}

int64_t lo_cuda_alignment(Node *n) {
  Node *a = alignment_arg(n);
  int64_t v;
  return a && a->kind != N_NONE && ir_const_int(a, &v) ? v : 0;
}

int64_t lo_cuda_array_bytes(Node *n) {
  int64_t dims[RC_MAX_NDIM], align = lo_cuda_alignment(n);
  int64_t bytes = lo_cuda_array_elems(n->ty, lo_cuda_shape(n), dims) * (ty_bits(n->ty->elem) / 8);
  return align ? (bytes + align - 1) / align * align : bytes;
}

/* The CPU backend's block storage is 64-byte aligned (block_storage,
 * rt_block_shared): an array asking for more is given its alignment in
 * bytes more, and starts at the first multiple of it. */
#define CPU_STORAGE_ALIGN 64

int64_t lo_cuda_array_slack(Node *n) {
  int64_t align = lo_cuda_alignment(n);
  return align > CPU_STORAGE_ALIGN ? align : 0;
}

LLVMValueRef lo_cuda_aligned(Lower *l, Node *n, LLVMValueRef data) {
  int64_t align = lo_cuda_array_slack(n);
  if (!align) return data;
  LLVMValueRef at = LLVMBuildAdd(l->b, LLVMBuildPtrToInt(l->b, data, l->mod->i64, ""), const_i64(l, align - 1), "");
  return LLVMBuildIntToPtr(l->b, LLVMBuildAnd(l->b, at, const_i64(l, ~(align - 1)), ""), l->mod->ptr, "aligned");
}

/* An alloca of a local array given its alignment= (LLVM realigns the stack). */
static LLVMValueRef aligned_alloca(Lower *l, Node *n, LLVMValueRef a) {
  if (lo_cuda_alignment(n) && LLVMIsAAllocaInst(a)) LLVMSetAlignment(a, (unsigned)lo_cuda_alignment(n));
  return a;
}

/* alignment= of cuda.shared.array / cuda.local.array, as numba-cuda takes
 * it: None, or a constant power of two that is a multiple of 8 (a
 * pointer's size); the array's data starts at a multiple of it. */
static bool check_alignment(Infer *in, Node *n) {
  Node *a = alignment_arg(n);
  int64_t v;
  if (!a || a->kind == N_NONE) return true;
  if (a->kind == N_BOOL || !ir_const_int(a, &v)) {
    ty_error(in, a, "alignment must be a constant integer, got %s", a->ty ? a->ty->name : "a value known at run time");
    return false;
  }
  if (v <= 0 || (v & (v - 1)) || v % 8) {
    ty_error(in, a, "alignment must be a positive power of 2 and a multiple of 8 (a pointer's size), got %lld",
             (long long)v);
    return false;
  }
  return true;
}

/* The local variables in x that the function assigns once, a constant
 * integer expression (N = 100; M = N // 2; cuda.shared.array((M, 2), ...)),
 * made those constants where they size an array, as Numba infers one. */
static void constant_locals(Infer *in, Node *x, int depth) {
  if (depth > 8) return;
  if (x->kind == N_BINOP) constant_locals(in, x->rhs, depth);
  if (x->kind == N_BINOP || x->kind == N_UNARY) constant_locals(in, x->lhs, depth);
  Node *value = NULL;
  int64_t v;
  if (x->kind != N_VAR || x->var < in->f->nparams || ir_assignments(&in->f->body, x->var, &value) != 1 || !value)
    return;
  constant_locals(in, value, depth + 1);
  if (ir_const_int(value, &v))
    *x = (Node){.kind = N_INT, .line = x->line, .col = x->col, .ival = v, .ty = TYS(TY_I64)};
}

/* *slot, a shape or one of its sizes, as the constant it is: a variable
 * bound once to one, or a parameter frozen to its caller's constant (a
 * device function called with one; asked for where not yet, as Numba
 * types the call again with literal arguments), put in its place for the
 * lowering to read. False where *slot is no such variable, or was asked. */
static bool known_size(Infer *in, Node *call, Node **slot, bool *asked) {
  Node *v = *slot;
  for (int hops = 0; v->kind == N_VAR && in->only_value && in->only_value[v->var] && hops < 64; hops++)
    v = in->only_value[v->var];
  if (v->kind == N_TUPLE && (*slot)->kind == N_VAR) {  /* shape = (n, 4) */
    for (int i = 0; i < v->list.len; i++)
      if (!known_size(in, call, &v->list.items[i], asked)) return false;
    return *slot = v, true;
  }
  if (literal_int(v) >= 0) return *slot = v, true;
  if (v->kind == N_VAR) ty_value_known(in, call, v, asked);
  return false;
}

/* The shape of cuda.shared.array / cuda.local.array, its sizes made constants where known (known_size). */
static Node *cuda_shape(Infer *in, Node *n, bool *asked) {
  Node **slot = n->list.len ? &n->list.items[0] : NULL;
  for (int i = 0; !slot && i < n->kw.len; i++)
    if (!strcmp(n->kw_names[i], "shape")) slot = &n->kw.items[i];
  *asked = false;
  if (!slot) return NULL;
  if ((*slot)->kind == N_TUPLE)
    for (int i = 0; i < (*slot)->list.len && !*asked; i++) known_size(in, n, &(*slot)->list.items[i], asked);
  else
    known_size(in, n, slot, asked);
  return *slot;
}

/* cuda.shared.array / cuda.local.array(shape, dtype): constant shapes. */
static const Type *ty_cuda_array(Infer *in, Node *n, const Type **args) {
  bool asked;
  Node *shape = cuda_shape(in, n, &asked);
  if (asked) return NULL;
  if (!shape) return ty_error(in, n, "%s() needs a shape", n->bi->name);
  int ndim = shape->kind == N_TUPLE ? shape->list.len : 1;
  constant_locals(in, shape, 0);
  for (int i = 0; i < ndim; i++) {
    if (shape->kind == N_TUPLE) constant_locals(in, shape->list.items[i], 0);
    if (literal_int(shape->kind == N_TUPLE ? shape->list.items[i] : shape) < 0)
      return ty_error(in, shape, "the shape of %s() must be constant integers: literals, module "
                      "globals, local variables assigned such a value once, expressions of them such as TPB + 1, "
                      "or parameters of a device function called with them", n->bi->name);
  }
  if (ndim < 1 || ndim > RC_MAX_NDIM) return ty_error(in, shape, "unsupported number of dimensions");
  if (in->opts->device && !in->opts->gpu_cc && !(n->bi->flags & BF_PER_THREAD) && literal_int(shape) == 0)
    return ty_error(in, n, "the dynamic shared memory (cuda.shared.array(0, ...)) is only the kernel's on "
                    "the CPU backend: take it there and pass it to the device function");
  const Type *elem = dtype_of(in, n);
  if (!elem) return ty_failed(in) ? NULL : ty_error(in, n, "%s() needs a dtype", n->bi->name);
  if (!check_alignment(in, n)) return NULL;
  return ty_array(elem, ndim, 'C', false);
}

/* A shared array of a device function on the CPU backend: the memory the
 * runtime keeps for this call site and the thread running the block, which
 * runs every thread of the block (as loops or as fibers). */
static LLVMValueRef block_shared(Lower *l, int64_t bytes) {
  LLVMValueRef site = LLVMAddGlobal(l->mod->m, l->mod->i8, "shared.site");  /* its address names the call */
  LLVMSetInitializer(site, LLVMConstInt(l->mod->i8, 0, 0));
  LLVMSetLinkage(site, LLVMInternalLinkage);
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
  LLVMValueRef a[2] = {site, const_i64(l, bytes)};
  return lo_call_fn(l, "rt_block_shared", l->mod->ptr, p, a, 2);
}

static LLVMValueRef lo_cuda_array(Lower *l, Node *n) {
  int64_t dims[RC_MAX_NDIM];
  int64_t count = lo_cuda_array_elems(n->ty, lo_cuda_shape(n), dims);
  int size = ty_bits(n->ty->elem) / 8;
  LLVMValueRef data = NULL, shape0 = const_i64(l, dims[0]);
  for (int i = 0; i < l->nmem; i++)  /* a kernel's, made at its chunk's entry (kernel.c) */
    if (l->mem_nodes[i] == n) data = l->mem_base[i];
  if (l->mod->gpu)
    data = lo_gpu_array_data(l, n, count);
  else if (!data && (n->bi->flags & BF_PER_THREAD)) {  /* a fiber's or a device function's own */
    data = aligned_alloca(l, n, lo_alloca(l, LLVMArrayType2(lo_storage_type(l, n->ty->elem), (uint64_t)count), "local"));
    l->mod->local_bytes += count * size;  /* on a fiber's stack, which must hold it */
  }
  else if (!data && count)  /* a device function's: its block's (runtime.c) */
    data = lo_cuda_aligned(l, n, block_shared(l, count * size + lo_cuda_array_slack(n)));
  if (l->mod->gpu) {
    if (!(n->bi->flags & BF_PER_THREAD) && count == 0)  /* the launch says how much: no bound known here */
      shape0 = const_i64(l, INT64_MAX / size);
  } else if (!(n->bi->flags & BF_PER_THREAD) && count == 0) {
    data = l->dyn_shared;
    LLVMValueRef bytes = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildStructGEP2(l->b, lo_launch_type(l), l->launch, 2, ""), "");
    shape0 = LLVMBuildSDiv(l->b, bytes, const_i64(l, size), "");
  } else if ((n->bi->flags & BF_PER_THREAD) && l->fission) {
    LLVMValueRef off = LLVMBuildMul(l->b, l->thread, const_i64(l, lo_cuda_array_bytes(n)), "");
    data = LLVMBuildGEP2(l->b, l->mod->i8, data, &off, 1, "");
  }
  LLVMValueRef a = LLVMConstNull(lo_type(l, n->ty));
  a = LLVMBuildInsertValue(l->b, a, data, 2, "");
  LLVMValueRef shp = LLVMGetUndef(LLVMArrayType2(l->mod->i64, (uint64_t)n->ty->ndim));
  for (int d = 0; d < n->ty->ndim; d++)
    shp = LLVMBuildInsertValue(l->b, shp, d ? const_i64(l, dims[d]) : shape0, (unsigned)d, "");
  return LLVMBuildInsertValue(l->b, a, shp, 3, "");
}

/* ---------------------------------------------------------------- constant memory */

/* cuda.const.array_like(arr): arr, a NumPy array global to the module, is
 * frozen into the code already (on the GPU, in constant memory). */
static const Type *ty_const_array(Infer *in, Node *n, const Type **args) {
  if (n->list.items[0]->kind != N_CONST_ARRAY)
    return ty_error(in, n->list.items[0], "cuda.const.array_like() takes a NumPy array global to the "
                    "module (its elements are copied into the kernel), not %s", args[0]->name);
  return args[0];
}

static LLVMValueRef lo_const_array_like(Lower *l, Node *n) { return lo_expr(l, n->list.items[0]); }

/* ---------------------------------------------------------------- captured device arrays */

/* A device array global to the module (the frontend's captured_array):
 * its memory read where it is, so only by the device whose memory it is in
 * (n->ival: a GPU's) and by CUDA code. */
static const Type *ty_captured_array(Infer *in, Node *n, const Type **args) {
  bool for_gpu = in->opts && in->opts->gpu_cc;
  if (!ty_in_cuda(in) && !for_gpu)
    return ty_error(in, n, "a device array global to the module is read by CUDA kernels and device functions "
                    "only: pass it to this function as an argument");
  if (n->ival && !for_gpu)
    return ty_error(in, n, "this device array is in a GPU's memory, which the kernel compiled for the CPU backend "
                    "(debug=True or boundscheck=True) cannot read: pass it to the kernel as an argument");
  if (!n->ival && for_gpu)
    return ty_error(in, n, "this device array is on the CPU backend, which a kernel compiled for a GPU cannot "
                    "read: pass it to the kernel as an argument");
  return n->data;
}

static LLVMValueRef lo_captured_array(Lower *l, Node *n) {
  int ndim = n->ty->ndim;
  LLVMValueRef dims[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  for (int d = 0; d < ndim; d++) {
    dims[d] = const_i64(l, n->list.items[1 + d]->ival);
    strides[d] = const_i64(l, n->list.items[1 + ndim + d]->ival);
  }
  LLVMValueRef data = LLVMConstIntToPtr(const_i64(l, n->list.items[0]->ival), l->mod->ptr);
  LLVMValueRef a = LLVMBuildInsertValue(l->b, LLVMConstNull(lo_type(l, n->ty)), data, 2, "");
  a = LLVMBuildInsertValue(l->b, a, LLVMConstArray2(l->mod->i64, dims, (uint64_t)ndim), 3, "");
  return LLVMBuildInsertValue(l->b, a, LLVMConstArray2(l->mod->i64, strides, (uint64_t)ndim), 4, "");
}

/* ---------------------------------------------------------------- loads and stores with cache hints */

/* cuda.ldca/ldcg/ldcs/ldlu/ldcv(ary, idx) and cuda.stcg/stcs/stwb/stwt(ary,
 * idx, value): an element read or written with PTX's cache operator (row
 * name's last two letters): ld.global.ca etc. on the GPU, a plain load or
 * store on the CPU, which has no such hints. ary is an array or a pointer
 * (a CPointer argument: a 1-d array of no known length). */
static const Type *ty_cache_hint(Infer *in, Node *n, const Type **args) {
  const Type *a = args[0], *idx = args[1];
  const char *name = n->bi->name;
  if (a->kind != TY_ARRAY) return ty_error(in, n, "%s() operates on arrays or pointers, got %s", name, a->name);
  bool tuple = idx->kind == TY_TUPLE;
  int nidx = tuple ? idx->nfields : 1;
  for (int i = 0; i < nidx; i++)
    if (!ty_is_int(tuple ? idx->fields[i] : idx))
      return ty_error(in, n->list.items[1], "%s is not a valid index of %s()", idx->name, name);
  if (!tuple && a->ndim != 1)
    return ty_error(in, n, "%s() takes an index per dimension: Expected %d indices, got a scalar", name, a->ndim);
  if (nidx != a->ndim)
    return ty_error(in, n, "%s() takes an index per dimension: Expected %d indices, got %d", name, a->ndim, nidx);
  const Type *e = a->elem;
  if (!ty_is_int(e) && !ty_is_float(e))
    return ty_error(in, n, "%s(): %s requires array of integer or float type, got %s", name, n->bi->path, e->name);
  if (n->list.len == 2) return e;
  if (a->readonly) return ty_error(in, n, "%s() cannot write to a read-only array", name);
  if (!ty_need_scalar(in, n->list.items[2], args[2], name)) return NULL;
  if (ty_is_complex(args[2]))
    return ty_error(in, n->list.items[2], "%s() stores %s, not %s", name, e->name, args[2]->name);
  return TYS(TY_NONE);
}

/* The PTX instruction's operand of an element of t: its bits, in a register
 * of at least 16 bits ("h", "r" or "l"; PTX has no 8-bit registers and
 * widens a b8 load into a b32 one). */
static LLVMTypeRef hint_operand_type(Lower *l, const Type *t) {
  return LLVMIntTypeInContext(l->mod->c, t->bits == 8 ? 32 : (unsigned)t->bits);
}

static const char *hint_register(const Type *t) { return t->bits == 16 ? "h" : t->bits == 64 ? "l" : "r"; }

/* ld.global.<op>.b<bits> or st.global.<op>.b<bits> of the element at addr
 * (a global address: the generic one converted); v the value stored, or
 * NULL for a load, whose value it returns. */
static LLVMValueRef gpu_cache_hint(Lower *l, const Type *t, const char *op, LLVMValueRef addr, LLVMValueRef v) {
  LLVMTypeRef bits = hint_operand_type(l, t), gptr = LLVMPointerTypeInContext(l->mod->c, 1);
  LLVMValueRef global = LLVMBuildAddrSpaceCast(l->b, addr, gptr, "");
  char text[64], constraints[32];
  snprintf(text, sizeof text, v ? "st.global.%s.b%d [$0], $1;" : "ld.global.%s.b%d $0, [$1];", op, t->bits);
  snprintf(constraints, sizeof constraints, v ? "l,%s,~{memory}" : "=%s,l,~{memory}", hint_register(t));
  LLVMTypeRef params[2] = {gptr, bits};
  LLVMTypeRef ft = LLVMFunctionType(v ? void_type(l) : bits, params, v ? 2 : 1, 0);
  LLVMValueRef fn = LLVMGetInlineAsm(ft, text, strlen(text), constraints, strlen(constraints), 1, 0,
                                     LLVMInlineAsmDialectATT, 0);
  LLVMTypeRef et = lo_type(l, t), same_bits = LLVMIntTypeInContext(l->mod->c, (unsigned)t->bits);
  if (v) {
    LLVMValueRef b = LLVMBuildBitCast(l->b, v, same_bits, "");
    LLVMValueRef a[2] = {global, bits == same_bits ? b : LLVMBuildZExt(l->b, b, bits, "")};
    return LLVMBuildCall2(l->b, ft, fn, a, 2, "");
  }
  LLVMValueRef r = LLVMBuildCall2(l->b, ft, fn, &global, 1, "");
  return LLVMBuildBitCast(l->b, bits == same_bits ? r : LLVMBuildTrunc(l->b, r, same_bits, ""), et, "");
}

static LLVMValueRef lo_cache_hint(Lower *l, Node *n) {
  Node *arr = n->list.items[0];
  const Type *elem = arr->ty->elem;
  LLVMValueRef base = lo_expr(l, arr), idx[RC_MAX_NDIM];
  lo_indices(l, n->list.items[1], idx);
  LLVMValueRef addr = lo_element_addr(l, arr->ty, base, idx);
  LLVMValueRef v = n->list.len == 3 ? lo_expr_as(l, n->list.items[2], elem) : NULL;
  const char *op = n->bi->path + 2;
  if (l->mod->gpu) {
    LLVMValueRef r = gpu_cache_hint(l, elem, op, addr, v);
    return v ? LLVMGetUndef(l->mod->i8) : r;
  }
  if (!v) return lo_load_storage(l, elem, addr);
  lo_store_storage(l, elem, addr, v);
  return LLVMGetUndef(l->mod->i8);
}

/* ---------------------------------------------------------------- the rows */

#define INTRINSIC(name, path, flags, ival, type, lower, lo, hi) \
  {name, "ruchey.cuda", path, BK_FUNCTION, 0, lo, hi, NULL, BF_KERNEL | (flags), ival, 0, type, lower}
#define INDEX(name, path, flags, axis, lower) \
  INTRINSIC(name, path, BF_NOCALL | BF_THREAD_INDEX | BF_PURE | BF_CHEAP | (flags), axis, ty_index, lower, 0, 0)

const Builtin bi_cuda[] = {
  INDEX("cuda.threadIdx", "threadIdx.x", BF_VARIES, 0, lo_tid),
  INDEX("cuda.threadIdx", "threadIdx.y", BF_VARIES, 1, lo_tid),
  INDEX("cuda.threadIdx", "threadIdx.z", BF_VARIES, 2, lo_tid),
  INDEX("cuda.blockIdx", "blockIdx.x", BF_PER_BLOCK, 0, lo_bid),
  INDEX("cuda.blockIdx", "blockIdx.y", BF_PER_BLOCK, 1, lo_bid),
  INDEX("cuda.blockIdx", "blockIdx.z", BF_PER_BLOCK, 2, lo_bid),
  INDEX("cuda.blockDim", "blockDim.x", 0, 0, lo_bdim),
  INDEX("cuda.blockDim", "blockDim.y", 0, 1, lo_bdim),
  INDEX("cuda.blockDim", "blockDim.z", 0, 2, lo_bdim),
  INDEX("cuda.gridDim", "gridDim.x", 0, 0, lo_gdim),
  INDEX("cuda.gridDim", "gridDim.y", 0, 1, lo_gdim),
  INDEX("cuda.gridDim", "gridDim.z", 0, 2, lo_gdim),
  INTRINSIC("cuda.grid", "grid", BF_THREAD_INDEX | BF_VARIES | BF_PER_BLOCK | BF_PURE | BF_CHEAP, 0, ty_grid, lo_grid, 1, 1),
  INTRINSIC("cuda.gridsize", "gridsize", BF_THREAD_INDEX | BF_PURE | BF_CHEAP, 0, ty_grid, lo_grid, 1, 1),
  INTRINSIC("cuda.syncthreads", "syncthreads", BF_BARRIER | BF_VARIES, COLL_BLOCK_SYNC, ty_sync, lo_sync, 0, 0),
  {"cuda.shared.array", "ruchey.cuda", "shared.array", BK_FUNCTION, 0, 0, 3, array_kw,
   BF_KERNEL | BF_BLOCK_MEMORY | BF_COMPLEX, 0, 0, ty_cuda_array, lo_cuda_array},
  {"cuda.local.array", "ruchey.cuda", "local.array", BK_FUNCTION, 0, 0, 3, array_kw,
   BF_KERNEL | BF_BLOCK_MEMORY | BF_PER_THREAD | BF_VARIES | BF_COMPLEX, 0, 0, ty_cuda_array, lo_cuda_array},
  INTRINSIC("cuda.const.array_like", "const.array_like", BF_PURE | BF_CHEAP | BF_COMPLEX, 0, ty_const_array,
            lo_const_array_like, 1, 1),
  /* a device array global to the module (the frontend's captured_array) */
  {"a captured device array", NULL, NULL, BK_FUNCTION, 0, 1, 1 + 2 * RC_MAX_NDIM, NULL, BF_CHEAP, 0, 0,
   ty_captured_array, lo_captured_array},
  /* loads and stores with a cache operator */
#define CACHE_HINT(op, nargs) \
  INTRINSIC("cuda." op, op, BF_VARIES | BF_COMPLEX, 0, ty_cache_hint, lo_cache_hint, nargs, nargs)
  CACHE_HINT("ldca", 2), CACHE_HINT("ldcg", 2), CACHE_HINT("ldcs", 2), CACHE_HINT("ldlu", 2), CACHE_HINT("ldcv", 2),
  CACHE_HINT("stcg", 3), CACHE_HINT("stcs", 3), CACHE_HINT("stwb", 3), CACHE_HINT("stwt", 3),
  BI_END,
};
