/* builtins/native.c — calls of native functions: a ctypes function pointer
 * with restype and argtypes, an object of Numba's WrapperAddressProtocol
 * (SciPy's special functions through get_cython_function_address) or a
 * cffi function, as Numba calls them, and cffi's ffi.from_buffer. The frontend puts the function's address and C
 * signature in the call (a NativeSig, ruchey/native.py reads them); each
 * argument converts to its parameter's type as an assignment would, and
 * the call is a plain C call through the address. The address is this
 * process's: the code names the Python object as an extern no on-disk
 * cache can name again, so it is never cached.
 */
#include <stdio.h>
#include <string.h>

#include "builtins/builtins.h"

/* A pointer value (a voidptr or CPointer an @intrinsic gave: a 1-d array
 * of no known length, lo_pointer_array) goes where an address is taken. */
static bool is_pointer(const Type *t) { return t->kind == TY_ARRAY && t->ndim == 1 && t->layout == 'C'; }

/* The items an address argument points at, where known: a pointer value's
 * (ffi.from_buffer(a)'s, an array passed whole) or a.ctypes's; NULL for a
 * plain address (an int, a.ctypes.data). */
static const Type *pointed_items(const Node *a) {
  return is_pointer(a->ty) || a->ty->kind == TY_CTYPES ? a->ty->elem : NULL;
}

/* Whether an argument is passed as its data's address: a pointer value, or
 * a.ctypes. */
static bool passes_address(const Type *t) { return is_pointer(t) || t->kind == TY_CTYPES; }

/* A call's result: a typed pointer (POINTER(c_double), a CPointer of a
 * signature) as Numba's CPointer, the items it points at known (a 1-d
 * array of no known length, which carray and indexing read); else the
 * scalar (c_void_p: an address, a uintp, as Numba's voidptr result). */
static const Type *native_result_type(const NativeSig *sig) {
  return sig->ret_pointee != TY_NONE ? ty_array(TYS(sig->ret_pointee), 1, 'C', false) : TYS(sig->ret);
}

static const Type *ty_native_call(Infer *in, Node *n, const Type **args) {
  const NativeSig *sig = n->callee;
  if (in->opts && in->opts->gpu_cc)
    return ty_error(in, n, "a native function (ctypes, a function address) cannot be called on the GPU");
  if (n->list.len != sig->nargs)
    return ty_error(in, n, "this native function takes %d argument%s, got %d", sig->nargs, sig->nargs == 1 ? "" : "s",
                    n->list.len);
  for (int i = 0; i < sig->nargs; i++) {
    if (sig->args[i] == TY_MEMINFO || args[i]->kind == TY_MEMINFO) {
      if (args[i]->kind != sig->args[i])
        return ty_error(in, n->list.items[i], "a native function's argument %d is %s: it takes %s", i + 1,
                        args[i]->name, TYS(sig->args[i])->name);
      continue;
    }
    const Type *items = sig->pointee[i] != TY_NONE ? pointed_items(n->list.items[i]) : NULL;
    if (items && items->kind != sig->pointee[i])  /* (float32 data read as doubles: refused, as Numba's) */
      return ty_error(in, n->list.items[i], "a native function's argument %d is a pointer to %s, not to the %s "
                      "items given", i + 1, TYS(sig->pointee[i])->name, items->name);
    if (sig->args[i] == TY_U64 && passes_address(args[i])) continue;
    if (args[i]->kind == TY_CTYPES)
      return ty_error(in, n->list.items[i], "a native function's argument %d is %s, which only a pointer parameter "
                      "takes: it takes %s", i + 1, args[i]->name, TYS(sig->args[i])->name);
    if (!ty_need_scalar(in, n->list.items[i], args[i], "a native function's argument")) return NULL;
    if (ty_is_complex(args[i]))
      return ty_error(in, n->list.items[i], "a native function's argument %d is %s, a complex number: it takes %s",
                      i + 1, args[i]->name, TYS(sig->args[i])->name);
  }
  return native_result_type(sig);
}

/* C's calling convention widens arguments narrower than 32 bits: the
 * caller sign- or zero-extends them, as clang marks them. */
static void mark_widening(Lower *l, LLVMValueRef call, unsigned index, TypeKind kind) {
  const Type *t = TYS(kind);
  if (!ty_is_int(t) && t->kind != TY_BOOL) return;
  if (t->size >= 4) return;
  const char *name = t->kind != TY_BOOL && ty_is_signed(t) ? "signext" : "zeroext";
  unsigned attr = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMAddCallSiteAttribute(call, index, LLVMCreateEnumAttribute(l->mod->c, attr, 0));
}

static LLVMValueRef lo_native_call(Lower *l, Node *n) {
  const NativeSig *sig = n->callee;
  LLVMTypeRef params[64];
  LLVMValueRef args[64], held[64];
  for (int i = 0; i < sig->nargs; i++) {
    const Type *t = TYS(sig->args[i]);
    params[i] = lo_type(l, t);
    Node *a = n->list.items[i];
    bool address = sig->args[i] == TY_U64 && passes_address(a->ty);  /* its data's address */
    held[i] = address || sig->args[i] == TY_MEMINFO ? lo_expr(l, a) : NULL;  /* borrowed for the call, as Numba's */
    args[i] = !held[i] ? lo_expr_as(l, a, t)
              : address ? LLVMBuildPtrToInt(l->b, LLVMBuildExtractValue(l->b, held[i], 2, "data"), l->mod->i64, "")
                        : held[i];
  }
  const Type *ret = TYS(sig->ret);
  LLVMTypeRef fnty = LLVMFunctionType(sig->ret == TY_NONE ? void_type(l) : lo_type(l, ret), params,
                                      (unsigned)sig->nargs, 0);
  char *symbol = arena_alloc(l->f->arena, 48);
  snprintf(symbol, 48, "native_function_%p", sig->owner);
  lo_extern(l, symbol, sig->owner);  /* named, so that no cache keeps the address */
  LLVMValueRef fn = LLVMConstIntToPtr(LLVMConstInt(l->mod->i64, (uint64_t)(uintptr_t)sig->addr, 0), l->mod->ptr);
  LLVMValueRef call = LLVMBuildCall2(l->b, fnty, fn, args, (unsigned)sig->nargs, "");
  for (int i = 0; i < sig->nargs; i++) mark_widening(l, call, (unsigned)i + 1, sig->args[i]);
  for (int i = 0; i < sig->nargs; i++)
    if (held[i]) lo_done_with(l, n->list.items[i], held[i]);
  mark_widening(l, call, LLVMAttributeReturnIndex, sig->ret);
  if (sig->ret_pointee != TY_NONE)
    return lo_pointer_array(l, n->ty, LLVMBuildIntToPtr(l->b, call, l->mod->ptr, "pointer"));
  return sig->ret == TY_NONE ? LLVMGetUndef(l->mod->i8) : call;
}

/* ffi.from_buffer(a) of a cffi FFI: a's memory for a cffi function's
 * pointer parameter, as Numba's (its CPointer): a 1-d C array over all of
 * a's elements (a view, a kept alive), which the call passes as its data's
 * address. a is contiguous; past one dimension C-ordered, as Numba asks. */
static const Type *ty_from_buffer(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0];
  if (t->kind != TY_ARRAY)
    return ty_error(in, n, "from_buffer() takes an array or a buffer (bytearray, memoryview, array.array), got %s",
                    t->name);
  if (t->layout == 'A') return ty_error(in, n, "from_buffer() unsupported on non-contiguous buffers (%s)", t->name);
  if (t->ndim > 1 && t->layout != 'C')
    return ty_error(in, n, "from_buffer() only supports multidimensional arrays with C layout (%s)", t->name);
  return ty_array(t->elem, 1, 'C', t->readonly);
}

static LLVMValueRef lo_from_buffer(Lower *l, Node *n) {
  Node *arg = n->list.items[0];
  LLVMValueRef a = lo_expr(l, arg), size = const_i64(l, 1), stride = const_i64(l, (int64_t)arg->ty->elem->size);
  for (int d = 0; d < arg->ty->ndim; d++) size = LLVMBuildMul(l->b, size, lo_arr_shape(l, a, d), "");
  LLVMValueRef r = np_owned_view(l, n->ty, a, LLVMBuildExtractValue(l->b, a, 2, "data"), &size, &stride);
  lo_done_with(l, arg, a);
  return r;
}

const Builtin bi_native[] = {
  /* (complex arrays pass as addresses; a complex number the typer refuses) */
  {"a native function", NULL, NULL, BK_FUNCTION, 0, 0, 64, NULL, BF_VARIES | BF_COMPLEX, 0, 0, ty_native_call, lo_native_call},
  {"ffi.from_buffer", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, BF_COMPLEX, 0, 0, ty_from_buffer, lo_from_buffer},
  BI_END,
};
