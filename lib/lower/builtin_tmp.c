#include <math.h>
#include <stdio.h>

#include "lower/lower.h"

static LLVMValueRef lo_grid(Lower *l, Node *n);
static LLVMValueRef lo_cuda_array(Lower *l, Node *n);
static LLVMValueRef lo_atomic(Lower *l, Node *n);

/* ---------------------------------------------------------------- math */

static const char *const libm_names[MF_COUNT] = {
#define X(id, m, np, n, libm) libm,
  RC_MATH_FUNCS(X)
#undef X
};

static LLVMValueRef is_integral(Lower *l, const Type *t, LLVMValueRef x) {
  return LLVMBuildFCmp(l->b, LLVMRealOEQ, lo_intrinsic1(l, "llvm.floor", t, x), x, "");
}

/* CPython's math module raises ValueError outside a function's domain. */
static void math_domain_check(Lower *l, MathFn f, const Type *t, LLVMValueRef *a) {
  LLVMValueRef x = a[0], bad = NULL, zero = lo_fconst(l, t, 0), one = lo_fconst(l, t, 1);
  LLVMValueRef ax = lo_intrinsic1(l, "llvm.fabs", t, x), inf = lo_fconst(l, t, INFINITY);
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
    LLVMValueRef yfinite = fcmp(l, LLVMRealOLT, lo_intrinsic1(l, "llvm.fabs", t, y), inf);
    LLVMValueRef neg_frac = LLVMBuildAnd(l->b, LLVMBuildAnd(l->b, fcmp(l, LLVMRealOLT, x, zero),
                                         fcmp(l, LLVMRealOGT, x, LLVMConstReal(lo_type(l, t), -INFINITY)), ""),
                                         LLVMBuildAnd(l->b, yfinite, LLVMBuildNot(l->b, is_integral(l, t, y), ""), ""), "");
    bad = LLVMBuildOr(l->b, zero_neg, neg_frac, "");
    break;
  }
  default: return;
  }
  lo_raise_if(l, bad, RT_ERR_VALUE, "math domain error");
}

/* ... and OverflowError where a finite argument gives an infinite result. */
static void math_range_check(Lower *l, MathFn f, const Type *t, LLVMValueRef *a, int n, LLVMValueRef r) {
  if (f != MF_EXP && f != MF_EXP2 && f != MF_EXPM1 && f != MF_SINH && f != MF_COSH && f != MF_POW &&
      f != MF_GAMMA && f != MF_LGAMMA)
    return;
  LLVMValueRef inf = lo_fconst(l, t, INFINITY);
  LLVMValueRef bad = fcmp(l, LLVMRealOEQ, lo_intrinsic1(l, "llvm.fabs", t, r), inf);
  for (int i = 0; i < n; i++)
    bad = LLVMBuildAnd(l->b, bad, fcmp(l, LLVMRealOLT, lo_intrinsic1(l, "llvm.fabs", t, a[i]), inf), "");
  lo_raise_if(l, bad, RT_ERR_OVERFLOW, "math range error");
}

/* float -> int as Python's int(): NaN and infinities raise. */
static LLVMValueRef float_to_int_checked(Lower *l, const Type *t, LLVMValueRef x) {
  lo_raise_if(l, fcmp(l, LLVMRealUNO, x, x), RT_ERR_VALUE, "cannot convert float NaN to integer");
  lo_raise_if(l, fcmp(l, LLVMRealOEQ, lo_intrinsic1(l, "llvm.fabs", t, x), lo_fconst(l, t, INFINITY)),
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
  case MF_ISINF: return fcmp(l, LLVMRealOEQ, lo_intrinsic1(l, "llvm.fabs", t, x), lo_fconst(l, t, INFINITY));
  case MF_ISFINITE: return fcmp(l, LLVMRealOLT, lo_intrinsic1(l, "llvm.fabs", t, x), lo_fconst(l, t, INFINITY));
  case MF_DEGREES: return LLVMBuildFMul(l->b, x, lo_fconst(l, t, 180.0 / M_PI), "");
  case MF_RADIANS: return LLVMBuildFMul(l->b, x, lo_fconst(l, t, M_PI / 180.0), "");
  case MF_COPYSIGN: return lo_intrinsic2(l, "llvm.copysign", t, x, a[1]);
  case MF_FMIN: return lo_intrinsic2(l, "llvm.minimum", t, x, a[1]);
  case MF_FMAX: return lo_intrinsic2(l, "llvm.maximum", t, x, a[1]);
  case MF_SIGN: {
    LLVMValueRef pos = LLVMBuildUIToFP(l->b, fcmp(l, LLVMRealOGT, x, lo_fconst(l, t, 0)), lo_type(l, t), "");
    LLVMValueRef neg = LLVMBuildUIToFP(l->b, fcmp(l, LLVMRealOLT, x, lo_fconst(l, t, 0)), lo_type(l, t), "");
    r = LLVMBuildFSub(l->b, pos, neg, "");
    return LLVMBuildSelect(l->b, fcmp(l, LLVMRealUNO, x, x), x, r, "");
  }
  case MF_POW: r = lo_intrinsic2(l, "llvm.pow", t, x, a[1]); break;
  case MF_SQRT:  /* lo_gpu_fast_f32: sqrt.approx.ftz */
    r = lo_gpu_fast_f32(l, lo_type(l, t)) ? lo_intrinsic(l, "llvm.nvvm.sqrt.approx.ftz.f", NULL, 0, &x, 1)
                                       : lo_intrinsic1(l, "llvm.sqrt", t, x);
    break;
  default:
    r = intrinsics[f] ? lo_intrinsic1(l, intrinsics[f], t, x) : lo_libm(l, libm_names[f], t, a, (unsigned)n);
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
    LLVMValueRef args[2] = {a[0], LLVMConstInt(l->mod->i1, 0, 0)};
    return ty_is_signed(t) ? lo_intrinsic(l, "llvm.abs", ov, 1, args, 2) : a[0];
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
  if (int_args && (f == MF_ISNAN || f == MF_ISINF)) return LLVMConstInt(l->mod->i1, 0, 0);
  if (int_args && f == MF_ISFINITE) return LLVMConstInt(l->mod->i1, 1, 0);
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
  LLVMValueRef bits = LLVMBuildBitCast(l->b, x, l->mod->i64, "");
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
  if (!l->mod->gpu) {
    /* cvttsd2si gives INT64_MIN for NaN and anything beyond int64: one
     * integer test (the slow path also gets x == -2**63, and agrees) */
    LLVMTypeRef v2 = LLVMVectorType(l->mod->f64, 2);
    LLVMValueRef xv = LLVMBuildInsertElement(l->b, LLVMGetUndef(v2), x, const_i32(l, 0), "");
    direct = lo_call_fn(l, "llvm.x86.sse2.cvttsd2si64", l->mod->i64, &v2, &xv, 1);
    fits = LLVMBuildICmp(l->b, LLVMIntNE, direct, const_i64(l, INT64_MIN), "");
  } else
#endif
  {
    /* in int64's range (NaN is not) */
    fits = LLVMBuildAnd(l->b, fcmp(l, LLVMRealOLT, x, lo_fconst(l, t, 9223372036854775808.0)),
                        fcmp(l, LLVMRealOGE, x, lo_fconst(l, t, -9223372036854775808.0)), "");
    direct = LLVMBuildFPToSI(l->b, LLVMBuildSelect(l->b, fits, x, lo_fconst(l, t, 0), ""), l->mod->i64, "");
  }
  /* NaN, infinities and wrapping live on the slow path */
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(l->b), slow = new_block(l, "int.slow"), done = new_block(l, "int.done");
  LLVMValueRef likely[2] = {fits, LLVMConstInt(l->mod->i1, 1, 0)};
  LLVMTypeRef ov[1] = {l->mod->i1};
  LLVMBuildCondBr(l->b, lo_intrinsic(l, "llvm.expect.i1", ov, 1, likely, 2), done, slow);
  position(l, slow);
  /* one test in the loop for both: the raise blocks are outside it */
  LLVMBasicBlockRef bad = new_block(l, "int.bad"), wrap = new_block(l, "int.wrap");
  LLVMBuildCondBr(l->b, fcmp(l, LLVMRealUGE, lo_intrinsic1(l, "llvm.fabs", t, x), lo_fconst(l, t, INFINITY)), bad, wrap);
  position(l, bad);
  lo_raise_if(l, fcmp(l, LLVMRealUNO, x, x), RT_ERR_VALUE, "cannot convert float NaN to integer");
  lo_raise_if(l, LLVMConstInt(l->mod->i1, 1, 0), RT_ERR_OVERFLOW, "cannot convert float infinity to integer");
  LLVMBuildBr(l->b, wrap);
  position(l, wrap);
  LLVMValueRef wrapped = wrap_big_float(l, x);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef r = LLVMBuildPhi(l->b, l->mod->i64, "int");
  LLVMAddIncoming(r, (LLVMValueRef[]){direct, wrapped}, (LLVMBasicBlockRef[]){pre, wrap}, 2);
  return r;
}

/* round(x) to the nearest int, halves to even; round(x, nd) keeps the type. */
static LLVMValueRef lo_round(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  if (n->list.len == 1) {
    if (!ty_is_float(x->ty)) return lo_expr_as(l, x, TYS(TY_I64));
    LLVMValueRef v = lo_expr(l, x);
    return float_to_int_checked(l, x->ty, lo_intrinsic1(l, "llvm.roundeven", x->ty, v));
  }
  LLVMValueRef nd = lo_expr_as(l, n->list.items[1], TYS(TY_I64));
  if (ty_is_float(n->ty)) {
    const Type *t = n->ty;
    LLVMValueRef v = lo_expr_as(l, x, t);
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, nd, const_i64(l, 0), "");
    LLVMValueRef mag = LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, nd, ""), nd, "");
    LLVMValueRef p = lo_intrinsic2(l, "llvm.pow", t, lo_fconst(l, t, 10.0), LLVMBuildSIToFP(l->b, mag, lo_type(l, t), ""));
    LLVMValueRef up = LLVMBuildFDiv(l->b, lo_intrinsic1(l, "llvm.roundeven", t, LLVMBuildFMul(l->b, v, p, "")), p, "");
    LLVMValueRef down = LLVMBuildFMul(l->b, lo_intrinsic1(l, "llvm.roundeven", t, LLVMBuildFDiv(l->b, v, p, "")), p, "");
    LLVMValueRef r = LLVMBuildSelect(l->b, neg, down, up, "");
    /* values too large to have digits at that place come back unchanged */
    LLVMValueRef finite = fcmp(l, LLVMRealOLT, lo_intrinsic1(l, "llvm.fabs", t, r), lo_fconst(l, t, INFINITY));
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
                                       LLVMBuildTrunc(l->b, q, l->mod->i1, ""), "");
  q = LLVMBuildSelect(l->b, LLVMBuildOr(l->b, above, half_odd, ""), LLVMBuildAdd(l->b, q, const_i64(l, 1), ""), q, "");
  return LLVMBuildMul(l->b, q, p, "");
}

/* numpy.arange: int arguments count exactly; float ones as NumPy does,
 * ceil((stop - start) / step) values start + i*step. */
static LLVMValueRef lo_arange(Lower *l, Node *n) {
  bool floats = false;
  for (int i = 0; i < n->list.len; i++) floats = floats || ty_is_float(n->list.items[i]->ty);
  const Type *t = floats ? TYS(TY_F64) : TYS(TY_I64);
  LLVMValueRef start = floats ? lo_fconst(l, t, 0) : const_i64(l, 0), stop, step = floats ? lo_fconst(l, t, 1) : const_i64(l, 1);
  if (n->list.len == 1) {
    stop = lo_expr_as(l, n->list.items[0], t);
  } else {
    start = lo_expr_as(l, n->list.items[0], t);
    stop = lo_expr_as(l, n->list.items[1], t);
    if (n->list.len == 3) step = lo_expr_as(l, n->list.items[2], t);
  }
  LLVMValueRef count;
  if (floats) {
    lo_raise_if(l, fcmp(l, LLVMRealOEQ, step, lo_fconst(l, t, 0)), RT_ERR_ZERODIV, "division by zero");
    LLVMValueRef c = lo_intrinsic1(l, "llvm.ceil", t, LLVMBuildFDiv(l->b, LLVMBuildFSub(l->b, stop, start, ""), step, ""));
    c = lo_intrinsic2(l, "llvm.maxnum", t, c, lo_fconst(l, t, 0));
    count = lo_convert(l, c, t, TYS(TY_I64));
  } else {
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, step, const_i64(l, 0), ""), RT_ERR_ZERODIV, "division by zero");
    count = lo_range_count(l, start, stop, step);
  }
  LLVMValueRef a = lo_alloc_array(l, n->ty, &count, -1);
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "");
  /* fill: data[i] = start + i*step */
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "arange");
  LLVMValueRef i = loop.index;
  LLVMValueRef iv = floats ? LLVMBuildSIToFP(l->b, i, lo_type(l, t), "") : i;
  LLVMValueRef v = floats ? LLVMBuildFAdd(l->b, start, LLVMBuildFMul(l->b, iv, step, ""), "")
                          : LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, iv, step, ""), "");
  LLVMValueRef p = LLVMBuildGEP2(l->b, lo_storage_type(l, n->ty->elem), data, &i, 1, "");
  lo_store_scalar(l, n->ty->elem, p, lo_convert(l, v, t, n->ty->elem));
  lo_loop_end(l, &loop);
  return a;
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
  if (ty_is_float(n->ty)) return lo_intrinsic(l, "llvm.fabs", ov, 1, &v, 1);
  if (!ty_is_signed(n->ty)) return v;
  LLVMValueRef args[2] = {v, LLVMConstInt(l->mod->i1, 0, 0)};
  return lo_intrinsic(l, "llvm.abs", ov, 1, args, 2);
}

static LLVMValueRef lo_alloc_call(Lower *l, Node *n) {
  LLVMValueRef shape[RC_MAX_NDIM];
  int fill = n->op == BI_NP_ZEROS || n->op == BI_NP_ZEROS_LIKE ? 0
             : n->op == BI_NP_ONES || n->op == BI_NP_ONES_LIKE ? 1 : -1;
  Node *arg = n->list.items[0];
  LLVMValueRef v = lo_expr(l, arg);
  if (n->op >= BI_NP_EMPTY_LIKE) {
    for (int d = 0; d < n->ty->ndim; d++) shape[d] = lo_arr_shape(l, v, d);
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

LLVMValueRef lo_call(Lower *l, Node *n) {
  switch (n->op) {
  case BI_LEN: {
    Node *a = n->list.items[0];
    if (a->ty->kind == TY_TUPLE) return const_i64(l, a->ty->nfields);
    LLVMValueRef v = lo_expr(l, a);
    LLVMValueRef len = a->ty->ndim ? lo_arr_shape(l, v, 0) : const_i64(l, 0);
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
  case BI_RANGE: case BI_PRANGE: return LLVMGetUndef(l->mod->i8);  /* only reached through lo_for */
  case BI_NP_ARANGE: return lo_arange(l, n);
  case BI_COPY: return lo_copy(l, n);
  case BI_CAST: return lo_expr_as(l, n->list.items[0], n->ty);
  case BI_THREAD_ID: return lo_call_fn(l, "pool_thread_id", l->mod->i64, NULL, NULL, 0);
  case BI_NUM_THREADS: return lo_call_fn(l, "pool_get_num_threads", l->mod->i64, NULL, NULL, 0);
  case BI_JIT: return lo_jit_call(l, n);
  case BI_CUDA_TID: return l->tid[n->ival];
  case BI_CUDA_BID: return l->bid[n->ival];
  case BI_CUDA_BDIM: return l->bdim[n->ival];
  case BI_CUDA_GDIM: return l->gdim[n->ival];
  case BI_CUDA_GRID: case BI_CUDA_GRIDSIZE: return lo_grid(l, n);
  case BI_CUDA_SYNC:
    if (l->mod->gpu) lo_call_fn(l, "llvm.nvvm.barrier0", void_type(l), NULL, NULL, 0);
    else if (l->fibers || l->opts->device) {  /* the site tells apart barriers threads wait at */
      char site[300];
      snprintf(site, sizeof site, "%s:%d", l->f->filename, n->line);
      LLVMValueRef text = lo_string(l, site);
      lo_call_fn(l, "rt_fiber_barrier", void_type(l), &l->mod->ptr, &text, 1);
    }
    return LLVMGetUndef(l->mod->i8);  /* on the CPU, a segment boundary placed by lo_kernel_block */
  case BI_CUDA_SHARED: case BI_CUDA_LOCAL: return lo_cuda_array(l, n);
  case BI_CUDA_ATOMIC: return lo_atomic(l, n);
  default: return n->op >= BI_MATH ? lo_math(l, n) : lo_alloc_call(l, n);
  }
}

/* ---------------------------------------------------------------- other expressions */

LLVMValueRef lo_attr(Lower *l, Node *n) {
  const Type *t = n->lhs->ty;
  if (n->op == ATTR_NDIM || n->op == ATTR_DTYPE) return const_i64(l, t->ndim);
  LLVMValueRef a = lo_expr(l, n->lhs), r;
  if (n->op == ATTR_T) {
    r = a;
    for (int d = 0; d < t->ndim; d++) {
      unsigned s3[2] = {3, (unsigned)(t->ndim - 1 - d)}, s4[2] = {4, (unsigned)(t->ndim - 1 - d)};
      LLVMValueRef shp = LLVMBuildExtractValue(l->b, r, 3, ""), str = LLVMBuildExtractValue(l->b, r, 4, "");
      shp = LLVMBuildInsertValue(l->b, shp, lo_arr_shape(l, a, d), s3[1], "");
      str = LLVMBuildInsertValue(l->b, str, lo_arr_stride(l, t, a, d), s4[1], "");
      r = LLVMBuildInsertValue(l->b, LLVMBuildInsertValue(l->b, r, shp, 3, ""), str, 4, "");
    }
    lo_refcount(l, n->ty, r, true);
    lo_done_with(l, n->lhs, a);
    return r;
  }
  if (n->op == ATTR_SHAPE) {
    r = LLVMGetUndef(lo_type(l, n->ty));
    for (int d = 0; d < t->ndim; d++)
      r = LLVMBuildInsertValue(l->b, r, lo_arr_shape(l, a, d), (unsigned)d, "");
  } else {
    r = const_i64(l, 1);
    for (int d = 0; d < t->ndim; d++) r = LLVMBuildMul(l->b, r, lo_arr_shape(l, a, d), "");
  }
  lo_done_with(l, n->lhs, a);
  return r;
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

int64_t lo_cuda_array_elems(const Type *t, const Node *shape, int64_t *dims) {
  int64_t count = 1;
  for (int d = 0; d < t->ndim; d++) {
    dims[d] = shape->kind == N_TUPLE ? shape->list.items[d]->ival : shape->ival;
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

static LLVMValueRef lo_cuda_array(Lower *l, Node *n) {
  int64_t dims[RC_MAX_NDIM];
  int64_t count = lo_cuda_array_elems(n->ty, lo_cuda_shape(n), dims);
  int size = ty_bits(n->ty->elem) / 8;
  LLVMValueRef data = NULL, shape0 = const_i64(l, dims[0]);
  if (l->mod->gpu) data = lo_gpu_array_data(l, n, count);
  else if (l->fibers && n->op == BI_CUDA_LOCAL)  /* on the fiber's own stack */
    data = lo_alloca(l, LLVMArrayType2(lo_storage_type(l, n->ty->elem), (uint64_t)count), "local");
  for (int i = 0; i < l->nmem; i++)
    if (l->mem_nodes[i] == n) data = l->mem_base[i];
  if (l->mod->gpu) {
    if (n->op == BI_CUDA_SHARED && count == 0)  /* the launch says how much: no bound known here */
      shape0 = const_i64(l, INT64_MAX / size);
  } else if (n->op == BI_CUDA_SHARED && count == 0) {
    data = l->dyn_shared;
    LLVMValueRef bytes = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildStructGEP2(l->b, lo_launch_type(l), l->launch, 2, ""), "");
    shape0 = LLVMBuildSDiv(l->b, bytes, const_i64(l, size), "");
  } else if (n->op == BI_CUDA_LOCAL && l->fission) {
    LLVMValueRef off = LLVMBuildMul(l->b, l->thread, const_i64(l, count * size), "");
    data = LLVMBuildGEP2(l->b, l->mod->i8, data, &off, 1, "");
  }
  LLVMValueRef a = LLVMConstNull(lo_type(l, n->ty));
  a = LLVMBuildInsertValue(l->b, a, data, 2, "");
  LLVMValueRef shp = LLVMGetUndef(LLVMArrayType2(l->mod->i64, (uint64_t)n->ty->ndim));
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
