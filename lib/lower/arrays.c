/* lower/arrays.c — arrays: element addresses (negative indices wrap,
 * bounds checked on request), allocation, filling and copying (views and
 * the rest of NumPy's indexing: builtins/indexing.c). */
#include <stdio.h>
#include <string.h>

#include "lower/lower.h"
#include "rtstr.h"

/* idx past its bounds check, with boundscheck: IndexError */
static void check_bounds(Lower *l, LLVMValueRef i, LLVMValueRef n) {
  if (l->opts->boundscheck) lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntUGE, i, n, ""), RT_ERR_INDEX, "index is out of bounds");
}

/* The address of the element at offset `offset` bytes in array a. */
static LLVMValueRef element_at(Lower *l, LLVMValueRef a, LLVMValueRef offset) {
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "data");
  return LLVMBuildInBoundsGEP2(l->b, l->mod->i8, data, &offset, 1, "elt");  /* in bounds: lets LLVM see affine addresses */
}

/* The byte offset of a[idx...], the indices taken as they are */
LLVMValueRef lo_strided_offset(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef *idx) {
  LLVMValueRef offset = const_i64(l, 0);
  for (int d = 0; d < t->ndim; d++)
    offset = LLVMBuildAdd(l->b, offset, LLVMBuildMul(l->b, idx[d], lo_arr_stride(l, t, a, d), ""), "");
  return offset;
}

/* The address of a[idx...]: negative indices wrap as in Python; with
 * boundscheck, out-of-range indices raise IndexError. */
LLVMValueRef lo_element_addr(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef *idx) {
  LLVMValueRef at[RC_MAX_NDIM];
  for (int d = 0; d < t->ndim; d++) {
    LLVMValueRef n = lo_arr_shape(l, a, d), i = idx[d];
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), "");
    at[d] = LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, i, n, ""), i, "idx");
    check_bounds(l, at[d], n);
  }
  return element_at(l, a, lo_strided_offset(l, t, a, at));
}

#if defined(__x86_64__)
/* int(x) of a float x (int()'s own row, no keywords), as a 1-d array's index */
static Node *float_made_index(Lower *l, const Type *t, Node *idx) {
  if (l->mod->gpu || t->ndim != 1 || idx->kind != N_CALL || !idx->bi || idx->kw.len || idx->list.len != 1 ||
      strcmp(idx->bi->name, "int") || !idx->bi->module || strcmp(idx->bi->module, "builtins"))
    return NULL;
  return ty_is_float(idx->list.items[0]->ty) ? idx->list.items[0] : NULL;
}

/* a[int(x)] of a 1-d array, x a float: the conversion gives INT64_MIN
 * for what int() refuses (NaN, the infinities, beyond int64), a negative
 * index, so int()'s check is made where a negative index wraps, on a
 * branch a histogram's loop never takes: one test of the index per
 * element, as Numba's code has (its wrap), not two. */
static LLVMValueRef element_addr_at_float(Lower *l, const Type *t, LLVMValueRef a, Node *x) {
  LLVMValueRef f = lo_expr_as(l, x, TYS(TY_F64)), i = lo_float_to_int_x86(l, f), n = lo_arr_shape(l, a, 0);
  LLVMBasicBlockRef here = LLVMGetInsertBlock(l->b), wrap = new_block(l, "idx.wrap"), join = new_block(l, "idx.join");
  LLVMBuildCondBr(l->b, lo_expect(l, LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), ""), false), wrap, join);
  position(l, wrap);
  LLVMBasicBlockRef refuse = new_block(l, "idx.refuse"), wrapped = new_block(l, "idx.wrapped");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, i, const_i64(l, INT64_MIN), ""), refuse, wrapped);
  position(l, refuse);
  lo_float_to_int_refuse(l, f);
  LLVMBuildBr(l->b, wrapped);
  position(l, wrapped);
  LLVMValueRef w = LLVMBuildAdd(l->b, i, n, "");
  LLVMBuildBr(l->b, join);
  position(l, join);
  LLVMValueRef idx = LLVMBuildPhi(l->b, l->mod->i64, "idx");
  LLVMAddIncoming(idx, (LLVMValueRef[]){i, w}, (LLVMBasicBlockRef[]){here, wrapped}, 2);
  check_bounds(l, idx, n);
  return element_at(l, a, LLVMBuildMul(l->b, idx, lo_arr_stride(l, t, a, 0), ""));
}
#endif

/* Evaluates the indices of an N_INDEX as int64s. */
void lo_indices(Lower *l, Node *idx, LLVMValueRef *out) {
  if (idx->kind == N_TUPLE) {  /* written out: each int in turn (an Ellipsis names no dimension here) */
    int k = 0;
    for (int i = 0; i < idx->list.len; i++)
      if (idx->list.items[i]->kind != N_ELLIPSIS) out[k++] = lo_expr_as(l, idx->list.items[i], TYS(TY_I64));
  } else if (idx->ty->kind == TY_TUPLE) {
    LLVMValueRef t = lo_expr(l, idx);
    for (int i = 0; i < idx->ty->nfields; i++)
      out[i] = lo_convert(l, LLVMBuildExtractValue(l->b, t, (unsigned)i, ""), idx->ty->fields[i],
                          TYS(TY_I64));
  } else {
    out[0] = lo_expr_as(l, idx, TYS(TY_I64));
  }
}

/* The address of the array element an N_INDEX names; *base gets the array. */
LLVMValueRef lo_index_addr(Lower *l, Node *n, LLVMValueRef *base) {
  if (n->lhs->ty->kind == TY_LIST) return lo_list_index(l, n, base, false);
  if (n->lhs->ty->kind == TY_DICT) return lo_dict_addr(l, n, base, false);
  *base = lo_expr(l, n->lhs);
#if defined(__x86_64__)
  Node *x = float_made_index(l, n->lhs->ty, n->rhs);
  if (x) return element_addr_at_float(l, n->lhs->ty, *base, x);
#endif
  LLVMValueRef idx[RC_MAX_NDIM];
  lo_indices(l, n->rhs, idx);
  return lo_element_addr(l, n->lhs->ty, *base, idx);
}

static void fill_one(Lower *l, LLVMValueRef i, LLVMValueRef *vals, void *elem) {
  lo_store_scalar(l, elem, LLVMBuildGEP2(l->b, lo_storage_type(l, elem), vals[0], &i, 1, ""), vals[1]);
}

/* Fills n contiguous elements from data with value v (on the pool where
 * there are many, with parallel=True). */
void lo_fill(Lower *l, const Type *elem, LLVMValueRef data, LLVMValueRef n, LLVMValueRef v) {
  lo_index_loop(l, n, (LLVMValueRef[]){data, v}, 2, fill_one, (void *)elem);
}

/* The block of an array of the given shape, made by rt_alloc_array (which
 * checks the shape as NumPy does), its status checked; *count its elements. */
static LLVMValueRef alloc_block(Lower *l, int ndim, LLVMValueRef *shape, int itemsize, LLVMValueRef *count) {
  LLVMValueRef dims = lo_alloca(l, LLVMArrayType2(l->mod->i64, (uint64_t)(ndim ? ndim : 1)), "alloc.shape");
  LLVMValueRef out = lo_alloca(l, l->mod->ptr, "alloc.block");
  *count = const_i64(l, 1);
  for (int d = 0; d < ndim; d++) {
    LLVMValueRef at = LLVMBuildInBoundsGEP2(l->b, l->mod->i64, dims, (LLVMValueRef[]){const_i64(l, d)}, 1, "");
    LLVMBuildStore(l->b, shape[d], at);
    *count = LLVMBuildMul(l->b, *count, shape[d], "");
  }
  LLVMTypeRef p[4] = {l->mod->i32, l->mod->ptr, l->mod->i64, l->mod->ptr};
  LLVMValueRef args[4] = {const_i32(l, ndim), dims, const_i64(l, itemsize), out};
  lo_check_status(l, lo_call_fn(l, "rt_alloc_array", l->mod->i32, p, args, 4));
  return LLVMBuildLoad2(l->b, l->mod->ptr, out, "");
}

/* A new array of type t (C-contiguous, or Fortran-ordered for an 'F' t)
 * with the given shape; fill is 0 (zeros), 1 (ones) or -1 (uninitialised). */
LLVMValueRef lo_alloc_array(Lower *l, const Type *t, LLVMValueRef *shape, int fill) {
  int itemsize = ty_bits(t->elem) / 8;
  LLVMValueRef count, mi = alloc_block(l, t->ndim, shape, itemsize, &count);
  LLVMValueRef datap = LLVMBuildStructGEP2(
      l->b, LLVMStructTypeInContext(l->mod->c, (LLVMTypeRef[]){l->mod->i64, l->mod->ptr}, 2, 0), mi, 1, "");
  LLVMValueRef data = LLVMBuildLoad2(l->b, l->mod->ptr, datap, "data");
  LLVMValueRef a = LLVMGetUndef(lo_type(l, t));
  a = LLVMBuildInsertValue(l->b, a, mi, 0, "");
  a = LLVMBuildInsertValue(l->b, a, LLVMConstNull(l->mod->ptr), 1, "");
  a = LLVMBuildInsertValue(l->b, a, data, 2, "");
  LLVMValueRef shp = LLVMGetUndef(LLVMArrayType2(l->mod->i64, (uint64_t)t->ndim)), str = shp;
  LLVMValueRef stride = const_i64(l, itemsize);
  for (int k = 0; k < t->ndim; k++) {
    int d = t->layout == 'F' ? k : t->ndim - 1 - k;
    shp = LLVMBuildInsertValue(l->b, shp, shape[d], (unsigned)d, "");
    str = LLVMBuildInsertValue(l->b, str, stride, (unsigned)d, "");
    stride = LLVMBuildMul(l->b, stride, shape[d], "");
  }
  a = LLVMBuildInsertValue(l->b, a, shp, 3, "");
  a = LLVMBuildInsertValue(l->b, a, str, 4, "");
  if (fill == 0 && lo_pool_allowed(l) && ty_is_scalar(t->elem)) {  /* zeros in parallel: each chunk's loop a memset */
    lo_fill(l, t->elem, data, count, LLVMConstNull(lo_type(l, t->elem)));
  } else if (fill == 0) {
    LLVMBuildMemSet(l->b, data, LLVMConstInt(l->mod->i8, 0, 0), LLVMBuildMul(l->b, count, const_i64(l, itemsize), ""), 64);
  } else if (fill == 1) {
    lo_fill(l, t->elem, data, count, lo_convert(l, const_i64(l, 1), TYS(TY_I64), t->elem));
  }
  return a;
}

typedef struct CopyArgs {
  const Type *from, *to;
  LLVMValueRef src, dst;
} CopyArgs;

static void copy_element(Lower *l, LLVMValueRef *idx, void *arg) {
  CopyArgs *c = arg;
  LLVMValueRef v = lo_convert(l, lo_load_scalar(l, c->from->elem, lo_element_addr(l, c->from, c->src, idx)),
                              c->from->elem, c->to->elem);
  lo_store_scalar(l, c->to->elem, lo_element_addr(l, c->to, c->dst, idx), v);
}

/* The dimensions of a's shape (or strides) in memory, for a runtime function. */
LLVMValueRef lo_arr_dims_in_memory(Lower *l, const Type *t, LLVMValueRef a, bool strides) {
  LLVMTypeRef arr = LLVMArrayType2(l->mod->i64, (uint64_t)(t->ndim ? t->ndim : 1));
  LLVMValueRef mem = lo_alloca(l, arr, strides ? "strides" : "shape");
  for (int d = 0; d < t->ndim; d++) {
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, d)};
    LLVMValueRef v = strides ? lo_arr_stride(l, t, a, d) : lo_arr_shape(l, a, d);
    LLVMBuildStore(l->b, v, LLVMBuildGEP2(l->b, arr, mem, ix, 2, ""));
  }
  return mem;
}

/* Elements of one dtype are copied by the runtime's rt_copy_strided (a call
 * compiles faster than a loop nest), others converted one by one. */
void lo_copy_elements(Lower *l, const Type *dt, LLVMValueRef dst, const Type *st, LLVMValueRef src) {
  if (dt->elem != st->elem) {
    LLVMValueRef shape[RC_MAX_NDIM];
    for (int d = 0; d < st->ndim; d++) shape[d] = lo_arr_shape(l, src, d);
    lo_for_each_index(l, st->ndim, shape, copy_element, &(CopyArgs){st, dt, src, dst});
    return;
  }
  LLVMTypeRef p[7] = {l->mod->i64, l->mod->ptr, l->mod->ptr, l->mod->ptr, l->mod->ptr, l->mod->ptr, l->mod->i64};
  LLVMValueRef a[7] = {const_i64(l, st->ndim), lo_arr_dims_in_memory(l, st, src, false), LLVMBuildExtractValue(l->b, dst, 2, ""),
                       lo_arr_dims_in_memory(l, dt, dst, true), LLVMBuildExtractValue(l->b, src, 2, ""),
                       lo_arr_dims_in_memory(l, st, src, true), const_i64(l, ty_bits(st->elem) / 8)};
  lo_call_fn(l, "rt_copy_strided", void_type(l), p, a, 7);
}

typedef struct FlatCopy {
  const Type *from, *to;  /* the elements' types */
} FlatCopy;

static void copy_one(Lower *l, LLVMValueRef i, LLVMValueRef *vals, void *arg) {
  const FlatCopy *c = arg;
  LLVMValueRef v = lo_load_scalar(l, c->from, LLVMBuildGEP2(l->b, lo_storage_type(l, c->from), vals[1], &i, 1, ""));
  lo_store_scalar(l, c->to, LLVMBuildGEP2(l->b, lo_storage_type(l, c->to), vals[0], &i, 1, ""), lo_convert(l, v, c->from, c->to));
}

void lo_copy_flat(Lower *l, const Type *to, LLVMValueRef dst, const Type *from, LLVMValueRef src, LLVMValueRef n) {
  if (to == from && (!lo_pool_allowed(l) || !ty_is_scalar(from))) {  /* (records, text: their bytes) */
    LLVMValueRef bytes = LLVMBuildMul(l->b, n, const_i64(l, ty_bits(from) / 8), "");
    LLVMBuildMemMove(l->b, dst, 1, src, 1, bytes);
    return;
  }
  lo_index_loop(l, n, (LLVMValueRef[]){dst, src}, 2, copy_one, &(FlatCopy){from, to});
}

/* a.copy(): a new array of to's layout; a source of that layout is one
 * flat copy (a memcpy, or on the pool with parallel=True), others are
 * copied element by element. */
LLVMValueRef lo_copy_array(Lower *l, const Type *to, const Type *from, LLVMValueRef src) {
  LLVMValueRef shape[RC_MAX_NDIM];
  for (int d = 0; d < from->ndim; d++) shape[d] = lo_arr_shape(l, src, d);
  LLVMValueRef dst = lo_alloc_array(l, to, shape, -1);
  bool same_order = from->layout == to->layout && from->layout != 'A';
  if (same_order && lo_pool_allowed(l) && ty_is_scalar(from->elem) && ty_is_scalar(to->elem)) {
    LLVMValueRef count = const_i64(l, 1);
    for (int d = 0; d < from->ndim; d++) count = LLVMBuildMul(l->b, count, shape[d], "");
    lo_copy_flat(l, to->elem, LLVMBuildExtractValue(l->b, dst, 2, ""), from->elem, LLVMBuildExtractValue(l->b, src, 2, ""), count);
  } else if (same_order && from->elem == to->elem) {
    LLVMValueRef bytes = const_i64(l, ty_bits(from->elem) / 8);
    for (int d = 0; d < from->ndim; d++) bytes = LLVMBuildMul(l->b, bytes, shape[d], "");
    LLVMBuildMemCpy(l->b, LLVMBuildExtractValue(l->b, dst, 2, ""), 1, LLVMBuildExtractValue(l->b, src, 2, ""), 1, bytes);
  } else {
    lo_copy_elements(l, to, dst, from, src);
  }
  return dst;
}

LLVMValueRef lo_copy(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  LLVMValueRef src = lo_expr(l, arg);
  LLVMValueRef dst = lo_copy_array(l, n->ty, arg->ty, src);
  lo_done_with(l, arg, src);
  return dst;
}

/* The '<Un' or '|Sn' element at addr as a new str or bytes (trailing NULs
 * dropped, as NumPy reads one). */
LLVMValueRef lo_text_read(Lower *l, const Type *elem, LLVMValueRef addr) {
  bool str = elem->kind == TY_CHARSEQ;
  const Type *t = str ? TYS(TY_STR) : TYS(TY_BYTES);
  LLVMValueRef out = lo_alloca(l, lo_storage_type(l, t), "text.out");
  LLVMTypeRef p[3] = {l->mod->ptr, l->mod->ptr, l->mod->i64};
  LLVMValueRef args[3] = {out, addr, const_i64(l, elem->unit)};
  lo_check_call(l, lo_call_fn(l, str ? "rt_str_from_chars" : "rt_bytes_from_chars", l->mod->i32, p, args, 3));
  return lo_load_storage(l, t, out);
}

/* The str or bytes v (borrowed) stored into the '<Un' or '|Sn' element at
 * addr, cut or NUL-padded to its width as NumPy's. */
void lo_text_write(Lower *l, const Type *elem, LLVMValueRef addr, LLVMValueRef v) {
  bool str = elem->kind == TY_CHARSEQ;
  LLVMValueRef s = v;
  if (!str) {  /* a bytes, passed by address */
    s = lo_alloca(l, lo_storage_type(l, TYS(TY_BYTES)), "bytes.in");
    lo_store_storage(l, TYS(TY_BYTES), s, v);
  }
  LLVMTypeRef p[3] = {l->mod->ptr, l->mod->i64, l->mod->ptr};
  LLVMValueRef args[3] = {addr, const_i64(l, elem->unit), s};
  lo_call_fn(l, str ? "rt_str_to_chars" : "rt_bytes_to_chars", LLVMVoidTypeInContext(l->mod->c), p, args, 3);
}

/* The str or bytes constant text written into the '<Un' or '|Sn' element at
 * addr: its code points (or bytes), cut or NUL-padded to the element's
 * width as NumPy's, with no str made (a kernel has no runtime to make one). */
void lo_text_constant_write(Lower *l, const Type *elem, LLVMValueRef addr, const Node *text) {
  bool str = elem->kind == TY_CHARSEQ;
  int64_t width = elem->unit, len = str ? rt_str_decode(text->str, text->ival, NULL) : text->ival;
  uint32_t *points = arena_alloc(l->f->arena, sizeof(uint32_t) * (size_t)(len + 1));
  if (str) rt_str_decode(text->str, text->ival, points);
  LLVMValueRef *items = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(width ? width : 1));
  for (int64_t i = 0; i < width; i++) {
    uint32_t v = i >= len ? 0 : str ? points[i] : ((const unsigned char *)text->data)[i];
    items[i] = LLVMConstInt(str ? l->mod->i32 : l->mod->i8, v, 0);
  }
  LLVMValueRef item = LLVMConstArray2(str ? l->mod->i32 : l->mod->i8, items, (uint64_t)width);
  LLVMSetAlignment(LLVMBuildStore(l->b, item, addr), 1);
}

/* a[i] = "XYZ" (or b"XYZ") of a '<Un' or '|Sn' array. */
void lo_text_constant_store(Lower *l, Node *target, const Node *text) {
  LLVMValueRef base, addr = lo_index_addr(l, target, &base);
  lo_text_constant_write(l, target->lhs->ty->elem, addr, text);
  lo_done_with(l, target->lhs, base);
}

LLVMValueRef lo_index(Lower *l, Node *n) {
  if (n->lhs->ty->kind == TY_TUPLE) return lo_tuple_index(l, n);
  if (n->lhs->ty->kind == TY_LITDICT) return lo_literal_dict_index(l, n);
  if (n->lhs->ty->kind == TY_ARRAY && n->ty->kind == TY_ARRAY) return lo_array_index(l, n);
  if (n->lhs->ty->kind == TY_DICT || n->lhs->ty->kind == TY_SET || n->lhs->ty->kind == TY_DICTVIEW)
    return lo_dict_index(l, n);  /* a set, a dict's view: iteration */
  if (n->lhs->ty->kind == TY_LIST && !n->str && n->rhs->kind == N_SLICE) return lo_list_slice(l, n);
  if (n->lhs->ty->kind == TY_STR) return lo_str_index(l, n);
  if (n->lhs->ty->kind == TY_BYTES) return lo_bytes_index(l, n);
  if (n->lhs->ty->kind == TY_RANGE) return lo_range_index(l, n);
  LLVMValueRef base;
  LLVMValueRef addr = lo_index_addr(l, n, &base);
  if (n->lhs->ty->kind == TY_ARRAY && ty_is_fixed_text(n->lhs->ty->elem)) {
    LLVMValueRef v = lo_text_read(l, n->lhs->ty->elem, addr);
    lo_done_with(l, n->lhs, base);
    return v;
  }
  LLVMValueRef v = lo_load_scalar(l, n->ty, addr);
  if (ty_has_arrays(n->ty)) lo_refcount(l, n->ty, v, true);  /* a list's str item: a new reference, as any index gives */
  lo_done_with(l, n->lhs, base);
  return v;
}

/* A NumPy array global to the module: its frozen elements are constant
 * data of the module (on the GPU in constant memory when they fit its
 * 64 KiB, else in global memory), viewed as a read-only C-contiguous array
 * owned by nothing. */
LLVMValueRef lo_const_array(Lower *l, Node *n) {
  unsigned space = l->mod->gpu ? (n->ival <= 65536 ? 4 : 1) : 0;
  uint64_t hash = 14695981039346656037u;  /* FNV-1a: one global per content, however often it is named */
  for (int64_t i = 0; i < n->ival; i++) hash = (hash ^ ((const unsigned char *)n->data)[i]) * 1099511628211u;
  char name[64];
  snprintf(name, sizeof name, "frozen.%016llx.%lld", (unsigned long long)hash, (long long)n->ival);
  LLVMValueRef g = LLVMGetNamedGlobal(l->mod->m, name);
  if (!g) {
    LLVMValueRef bytes = LLVMConstStringInContext(l->mod->c, n->data, (unsigned)n->ival, 1);
    g = LLVMAddGlobalInAddressSpace(l->mod->m, LLVMTypeOf(bytes), name, space);
    LLVMSetInitializer(g, bytes);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetAlignment(g, l->mod->gpu ? 16 : 64);
  }
  LLVMValueRef data = space ? LLVMConstAddrSpaceCast(g, l->mod->ptr) : g;
  LLVMValueRef dims[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  int64_t stride = ty_bits(n->ty->elem) / 8;
  for (int d = n->ty->ndim - 1; d >= 0; d--) {
    dims[d] = const_i64(l, n->list.items[d]->ival);
    strides[d] = const_i64(l, stride);
    stride *= n->list.items[d]->ival;
  }
  LLVMValueRef a = LLVMBuildInsertValue(l->b, LLVMConstNull(lo_type(l, n->ty)), data, 2, "");
  a = LLVMBuildInsertValue(l->b, a, LLVMConstArray2(l->mod->i64, dims, (uint64_t)n->ty->ndim), 3, "");
  return LLVMBuildInsertValue(l->b, a, LLVMConstArray2(l->mod->i64, strides, (uint64_t)n->ty->ndim), 4, "");
}
