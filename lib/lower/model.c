/* lower/model.c — how a value of each type is held: its LLVM type in
 * registers, its layout in memory (array elements, arguments, results),
 * and conversions between types as Python and NumPy convert. */
#include "lower/lower.h"

/* ---------------------------------------------------------------- types */

/* ---------------------------------------------------------------- types */

LLVMTypeRef lo_type(Lower *l, const Type *t) {
  switch (t->kind) {
  case TY_BOOL: return l->mod->i1;
  case TY_I8: case TY_U8: return l->mod->i8;
  case TY_I16: case TY_U16: return LLVMInt16TypeInContext(l->mod->c);
  case TY_I32: case TY_U32: return l->mod->i32;
  case TY_I64: case TY_U64: return l->mod->i64;
  case TY_F32: return l->mod->f32;
  case TY_F64: return l->mod->f64;
  case TY_ARRAY: {
    LLVMTypeRef dims = LLVMArrayType2(l->mod->i64, (uint64_t)t->ndim);
    LLVMTypeRef f[5] = {l->mod->ptr, l->mod->ptr, l->mod->ptr, dims, dims};
    return LLVMStructTypeInContext(l->mod->c, f, 5, 0);
  }
  case TY_TUPLE: {
    LLVMTypeRef f[64];
    for (int i = 0; i < t->nfields; i++) f[i] = lo_type(l, t->fields[i]);
    return LLVMStructTypeInContext(l->mod->c, f, (unsigned)t->nfields, 0);
  }
  default: return l->mod->i8;  /* none, range, dtype: never loaded */
  }
}

/* How a value of type t lies in memory: array elements, arguments, results. */
LLVMTypeRef lo_storage_type(Lower *l, const Type *t) {
  if (t->kind == TY_BOOL) return l->mod->i8;
  if (t->kind == TY_ARRAY) return l->mod->rtarray;
  if (t->kind == TY_TUPLE) {
    LLVMTypeRef f[64];
    for (int i = 0; i < t->nfields; i++) f[i] = lo_storage_type(l, t->fields[i]);
    return LLVMStructTypeInContext(l->mod->c, f, (unsigned)t->nfields, 0);
  }
  return lo_type(l, t);
}

LLVMValueRef lo_fconst(Lower *l, const Type *t, double v) { return LLVMConstReal(lo_type(l, t), v); }

/* ---------------------------------------------------------------- conversions */

LLVMValueRef lo_truth(Lower *l, LLVMValueRef v, const Type *t) {
  if (t->kind == TY_BOOL) return v;
  if (ty_is_float(t)) return LLVMBuildFCmp(l->b, LLVMRealUNE, v, LLVMConstNull(lo_type(l, t)), "");
  return LLVMBuildICmp(l->b, LLVMIntNE, v, LLVMConstNull(lo_type(l, t)), "");
}

LLVMValueRef lo_convert(Lower *l, LLVMValueRef v, const Type *from, const Type *to) {
  if (from == to || from->kind == TY_ARRAY) return v;  /* layouts share a struct */
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
    return lo_intrinsic(l, ty_is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat", ov, 2, &v, 1);
  }
  return LLVMBuildFPCast(l->b, v, dst, "");
}

/* ---------------------------------------------------------------- arrays */

LLVMValueRef lo_arr_field(Lower *l, LLVMValueRef a, unsigned field, unsigned i) {
  unsigned idx[2] = {field, i};
  return LLVMBuildExtractValue(l->b, LLVMBuildExtractValue(l->b, a, idx[0], ""), idx[1], "");
}

LLVMValueRef lo_arr_shape(Lower *l, LLVMValueRef a, int d) { return lo_arr_field(l, a, 3, (unsigned)d); }

/* The byte stride of dimension d. Contiguous layouts compute it from the
 * shape, which lets LLVM see unit strides and vectorise. */
LLVMValueRef lo_arr_stride(Lower *l, const Type *t, LLVMValueRef a, int d) {
  if (t->layout == 'A') return lo_arr_field(l, a, 4, (unsigned)d);
  LLVMValueRef s = const_i64(l, ty_bits(t->elem) / 8);
  if (t->layout == 'C')
    for (int k = t->ndim - 1; k > d; k--) s = LLVMBuildMul(l->b, s, lo_arr_shape(l, a, k), "");
  else
    for (int k = 0; k < d; k++) s = LLVMBuildMul(l->b, s, lo_arr_shape(l, a, k), "");
  return s;
}

LLVMValueRef lo_load_scalar(Lower *l, const Type *t, LLVMValueRef addr) {
  LLVMValueRef v = LLVMBuildLoad2(l->b, lo_storage_type(l, t), addr, "");
  return t->kind == TY_BOOL ? LLVMBuildTrunc(l->b, v, l->mod->i1, "") : v;
}

void lo_store_scalar(Lower *l, const Type *t, LLVMValueRef addr, LLVMValueRef v) {
  if (t->kind == TY_BOOL) v = LLVMBuildZExt(l->b, v, l->mod->i8, "");
  LLVMBuildStore(l->b, v, addr);
}

/* Reads an array from its RtArray memory layout. */
static LLVMValueRef lo_load_rtarray(Lower *l, const Type *t, LLVMValueRef p) {
  LLVMValueRef v = LLVMGetUndef(lo_type(l, t));
  for (unsigned f = 0; f < 3; f++) {
    LLVMValueRef fp = LLVMBuildStructGEP2(l->b, l->mod->rtarray, p, f, "");
    v = LLVMBuildInsertValue(l->b, v, LLVMBuildLoad2(l->b, l->mod->ptr, fp, ""), f, "");
  }
  for (unsigned f = 3; f < 5; f++) {
    LLVMValueRef dims = LLVMBuildStructGEP2(l->b, l->mod->rtarray, p, f, "");
    for (int d = 0; d < t->ndim; d++) {
      LLVMValueRef idx[2] = {const_i64(l, 0), const_i64(l, d)};
      LLVMValueRef dp = LLVMBuildGEP2(l->b, LLVMArrayType2(l->mod->i64, RC_MAX_NDIM), dims, idx, 2, "");
      unsigned path[2] = {f, (unsigned)d};
      LLVMValueRef agg = LLVMBuildExtractValue(l->b, v, path[0], "");
      agg = LLVMBuildInsertValue(l->b, agg, LLVMBuildLoad2(l->b, l->mod->i64, dp, ""), path[1], "");
      v = LLVMBuildInsertValue(l->b, v, agg, f, "");
    }
  }
  return v;
}

static void lo_store_rtarray(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {
  for (unsigned f = 0; f < 3; f++)
    LLVMBuildStore(l->b, LLVMBuildExtractValue(l->b, v, f, ""),
                   LLVMBuildStructGEP2(l->b, l->mod->rtarray, p, f, ""));
  for (unsigned f = 3; f < 5; f++) {
    LLVMValueRef dims = LLVMBuildStructGEP2(l->b, l->mod->rtarray, p, f, "");
    for (int d = 0; d < t->ndim; d++) {
      LLVMValueRef idx[2] = {const_i64(l, 0), const_i64(l, d)};
      LLVMValueRef dp = LLVMBuildGEP2(l->b, LLVMArrayType2(l->mod->i64, RC_MAX_NDIM), dims, idx, 2, "");
      LLVMValueRef val = f == 4 ? lo_arr_stride(l, t, v, d) : lo_arr_field(l, v, f, (unsigned)d);
      LLVMBuildStore(l->b, val, dp);
    }
  }
}

/* Loads or stores a value of any type in its storage layout. */
LLVMValueRef lo_load_storage(Lower *l, const Type *t, LLVMValueRef p) {
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

void lo_store_storage(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {
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

void lo_module_init(LowerModule *mod, LLVMContextRef c, LLVMModuleRef m, CompileResult *res) {
  *mod = (LowerModule){.c = c, .m = m, .res = res};
  mod->i1 = LLVMInt1TypeInContext(c);
  mod->i8 = LLVMInt8TypeInContext(c);
  mod->i32 = LLVMInt32TypeInContext(c);
  mod->i64 = LLVMInt64TypeInContext(c);
  mod->f32 = LLVMFloatTypeInContext(c);
  mod->f64 = LLVMDoubleTypeInContext(c);
  mod->ptr = LLVMPointerTypeInContext(c, 0);
  LLVMTypeRef dims = LLVMArrayType2(mod->i64, RC_MAX_NDIM);
  LLVMTypeRef f[5] = {mod->ptr, mod->ptr, mod->ptr, dims, dims};
  mod->rtarray = LLVMStructTypeInContext(c, f, 5, 0);
}
