/* cfunc.c — the entry of a @cfunc: a plain C function, ret f(args...), of
 * the signature's scalars, that C code (scipy's LowLevelCallable, ctypes,
 * a library's callback slot) calls directly.
 *
 * It takes its arguments and returns its result by value in their storage
 * layout (bool as a byte), so the platform's C calling convention applies;
 * a pointer argument comes as a 1-d array (lo_pointer_array).
 * It touches no Python object: C code may call it without the GIL, from any
 * thread. A caller in C cannot receive a Python exception, so where the
 * body fails the entry hands the error (left in the thread's RtError) to
 * rt_cfunc_failed, which the extension reports, and returns zero.
 */
#include "lower.h"

static LLVMTypeRef c_type(Lower *l, const Type *t) {
  if (t->kind == TY_ARRAY) return l->mod->ptr;  /* a C pointer to elements */
  return t->kind == TY_NONE ? void_type(l) : lo_storage_type(l, t);
}

/* A pointer (a CPointer or voidptr argument, an intrinsic's result), as
 * the body takes it: a 1-d array of its elements from the pointer on, of
 * no known length (carray and farray slice and shape it;
 * ruchey/ccallback.py). It owns nothing. */
LLVMValueRef lo_pointer_array(Lower *l, const Type *t, LLVMValueRef p) {
  LLVMValueRef slot = lo_alloca(l, l->mod->rtarray, "pointee");
  for (unsigned f = 0; f < 3; f++)
    LLVMBuildStore(l->b, f == 2 ? p : LLVMConstNull(l->mod->ptr), LLVMBuildStructGEP2(l->b, l->mod->rtarray, slot, f, ""));
  int64_t size = (int64_t)t->elem->size;
  for (unsigned f = 3; f < 5; f++) {
    LLVMValueRef idx[2] = {const_i64(l, 0), const_i64(l, 0)};
    LLVMValueRef dims = LLVMBuildStructGEP2(l->b, l->mod->rtarray, slot, f, "");
    LLVMValueRef at = LLVMBuildGEP2(l->b, LLVMArrayType2(l->mod->i64, RC_MAX_NDIM), dims, idx, 2, "");
    LLVMBuildStore(l->b, const_i64(l, f == 3 ? INT64_MAX / size : size), at);
  }
  return lo_load_storage(l, t, slot);
}

/* A value passed in a register, as the body takes it: through a slot of
 * its storage layout, which mem2reg removes. */
static LLVMValueRef c_argument(Lower *l, int v) {
  const Type *pt = l->f->param_types[v];
  if (pt->kind == TY_ARRAY) return lo_convert(l, lo_pointer_array(l, pt, LLVMGetParam(l->fn, (unsigned)v)), pt, l->f->var_types[v]);
  LLVMValueRef slot = lo_alloca(l, c_type(l, pt), "arg");
  LLVMBuildStore(l->b, LLVMGetParam(l->fn, (unsigned)v), slot);
  return lo_convert(l, lo_load_storage(l, pt, slot), pt, l->f->var_types[v]);
}

static void c_return(Lower *l, LLVMValueRef value) {
  const Type *rt = l->f->ret_type;
  if (rt->kind == TY_NONE) {
    LLVMBuildRetVoid(l->b);
    return;
  }
  LLVMValueRef slot = lo_alloca(l, c_type(l, rt), "ret");
  lo_store_storage(l, rt, slot, value);
  LLVMBuildRet(l->b, LLVMBuildLoad2(l->b, c_type(l, rt), slot, ""));
}

static void c_failure(Lower *l) {
  LLVMTypeRef p[1] = {l->mod->ptr};
  LLVMValueRef name = lo_string(l, l->f->name);
  lo_call_fn(l, "rt_cfunc_failed", void_type(l), p, &name, 1);
  const Type *rt = l->f->ret_type;
  if (rt->kind == TY_NONE) LLVMBuildRetVoid(l->b);
  else LLVMBuildRet(l->b, LLVMConstNull(c_type(l, rt)));
}

/* The exported function named symbol, calling the body (l->impl). */
void lo_c_entry(Lower *l, const char *symbol) {
  Func *f = l->f;
  LLVMTypeRef *params = arena_alloc(f->arena, sizeof(LLVMTypeRef) * (size_t)(f->nparams ? f->nparams : 1));
  for (int v = 0; v < f->nparams; v++) params[v] = c_type(l, f->param_types[v]);
  LLVMTypeRef ft = LLVMFunctionType(c_type(l, f->ret_type), params, (unsigned)f->nparams, 0);
  l->fn = LLVMAddFunction(l->mod->m, symbol, ft);
  l->stack_guard = NULL;  /* the body's parameter: the entry makes its own */
  position(l, new_block(l, "entry"));
  LLVMValueRef *vals = arena_alloc(f->arena, sizeof(LLVMValueRef) * (size_t)(f->nparams + 3));
  for (int v = 0; v < f->nparams; v++) vals[v] = c_argument(l, v);
  LLVMValueRef r = lo_call_body(l, l->impl, f, l->opts, vals, f->nparams);
  LLVMValueRef status = LLVMBuildExtractValue(l->b, r, 0, "status");
  LLVMBasicBlockRef failed = new_block(l, "failed"), ok = new_block(l, "ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, RT_OK), ""), failed, ok);
  position(l, failed);
  c_failure(l);
  position(l, ok);
  c_return(l, f->ret_type->kind == TY_NONE ? NULL : LLVMBuildExtractValue(l->b, r, 1, ""));
}
