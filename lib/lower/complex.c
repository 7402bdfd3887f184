/* lower/complex.c — complex64 and complex128 values: a {real, imaginary}
 * pair of floats in registers and in memory (NumPy's layout), their
 * conversions, arithmetic and comparisons. Scalars follow CPython
 * (Smith's division, which raises ZeroDivisionError on a zero divisor;
 * powers with small integer exponents by repeated multiplication), the
 * elements of array expressions and error_model="numpy" follow NumPy. */
#include <math.h>

#include "lower/lower.h"

/* The float type of each part: float32 for complex64, float64 for complex128. */
const Type *lo_complex_part(const Type *t) {
  return ty_is_complex(t) ? TYS(t->kind == TY_C64 ? TY_F32 : TY_F64) : t;
}

LLVMValueRef lo_complex_make(Lower *l, const Type *t, LLVMValueRef re, LLVMValueRef im) {
  LLVMValueRef v = LLVMGetUndef(lo_type(l, t));
  v = LLVMBuildInsertValue(l->b, v, re, 0, "");
  return LLVMBuildInsertValue(l->b, v, im, 1, "");
}

LLVMValueRef lo_complex_real(Lower *l, LLVMValueRef v) { return LLVMBuildExtractValue(l->b, v, 0, "re"); }
LLVMValueRef lo_complex_imag(Lower *l, LLVMValueRef v) { return LLVMBuildExtractValue(l->b, v, 1, "im"); }

/* A number of type from as the parts of complex type to. */
static void parts_as(Lower *l, LLVMValueRef v, const Type *from, const Type *to, LLVMValueRef *re, LLVMValueRef *im) {
  const Type *part = lo_complex_part(to);
  if (ty_is_complex(from)) {
    *re = lo_convert(l, lo_complex_real(l, v), lo_complex_part(from), part);
    *im = lo_convert(l, lo_complex_imag(l, v), lo_complex_part(from), part);
  } else {
    *re = lo_convert(l, v, from, part);
    *im = lo_fconst(l, part, 0.0);
  }
}

LLVMValueRef lo_complex_truth(Lower *l, LLVMValueRef v, const Type *t) {
  const Type *part = lo_complex_part(t);
  return LLVMBuildOr(l->b, lo_truth(l, lo_complex_real(l, v), part), lo_truth(l, lo_complex_imag(l, v), part), "");
}

/* A conversion where from or to is complex. A complex made real keeps its
 * real part, as NumPy's casts do (typing refuses it where Python would). */
LLVMValueRef lo_complex_convert(Lower *l, LLVMValueRef v, const Type *from, const Type *to) {
  if (ty_is_complex(to)) {
    LLVMValueRef re, im;
    parts_as(l, v, from, to, &re, &im);
    return lo_complex_make(l, to, re, im);
  }
  if (to->kind == TY_BOOL) return lo_complex_truth(l, v, from);
  return lo_convert(l, lo_complex_real(l, v), lo_complex_part(from), to);
}

/* ---------------------------------------------------------------- arithmetic */

static LLVMValueRef fabs_of(Lower *l, const Type *part, LLVMValueRef x) { return lo_intrinsic1(l, "llvm.fabs", part, x); }

/* a / b by Smith's method: CPython's for scalars (a zero divisor raises,
 * NaN parts give NaN), NumPy's for arrays (it multiplies by the divisor's
 * reciprocal, and divides by zero into infinities and NaN). */
static LLVMValueRef complex_div(Lower *l, const Type *t, LLVMValueRef ar, LLVMValueRef ai, LLVMValueRef br,
                                LLVMValueRef bi) {
  const Type *p = lo_complex_part(t);
  LLVMBuilderRef b = l->b;
  LLVMValueRef zero = lo_fconst(l, p, 0.0), one = lo_fconst(l, p, 1.0);
  LLVMValueRef abr = fabs_of(l, p, br), abi = fabs_of(l, p, bi);
  LLVMValueRef wide = fcmp(l, LLVMRealOGE, abr, abi);  /* |br| >= |bi| */
  LLVMValueRef bzero = LLVMBuildAnd(b, fcmp(l, LLVMRealOEQ, br, zero), fcmp(l, LLVMRealOEQ, bi, zero), "");
  bool numpy = lo_numpy_errors(l);
  if (!numpy) lo_raise_if(l, bzero, RT_ERR_ZERODIV, "complex division by zero");
  /* |br| >= |bi|: by the ratio bi/br */
  LLVMValueRef r1 = LLVMBuildFDiv(b, bi, br, "");
  LLVMValueRef d1 = LLVMBuildFAdd(b, br, LLVMBuildFMul(b, bi, r1, ""), "");
  LLVMValueRef n1r = LLVMBuildFAdd(b, ar, LLVMBuildFMul(b, ai, r1, ""), "");
  LLVMValueRef n1i = LLVMBuildFSub(b, ai, LLVMBuildFMul(b, ar, r1, ""), "");
  /* else: by the ratio br/bi */
  LLVMValueRef r2 = LLVMBuildFDiv(b, br, bi, "");
  LLVMValueRef d2 = LLVMBuildFAdd(b, LLVMBuildFMul(b, br, r2, ""), bi, "");
  LLVMValueRef n2r = LLVMBuildFAdd(b, LLVMBuildFMul(b, ar, r2, ""), ai, "");
  LLVMValueRef n2i = LLVMBuildFSub(b, LLVMBuildFMul(b, ai, r2, ""), ar, "");
  LLVMValueRef re, im;
  if (numpy) {
    LLVMValueRef s1 = LLVMBuildFDiv(b, one, d1, ""), s2 = LLVMBuildFDiv(b, one, d2, "");
    re = LLVMBuildSelect(b, wide, LLVMBuildFMul(b, n1r, s1, ""), LLVMBuildFMul(b, n2r, s2, ""), "");
    im = LLVMBuildSelect(b, wide, LLVMBuildFMul(b, n1i, s1, ""), LLVMBuildFMul(b, n2i, s2, ""), "");
    re = LLVMBuildSelect(b, bzero, LLVMBuildFDiv(b, ar, abr, ""), re, "");
    im = LLVMBuildSelect(b, bzero, LLVMBuildFDiv(b, ai, abr, ""), im, "");
  } else {
    LLVMValueRef tall = fcmp(l, LLVMRealOGE, abi, abr), nan = lo_fconst(l, p, NAN);
    re = LLVMBuildSelect(b, wide, LLVMBuildFDiv(b, n1r, d1, ""),
                         LLVMBuildSelect(b, tall, LLVMBuildFDiv(b, n2r, d2, ""), nan, ""), "");
    im = LLVMBuildSelect(b, wide, LLVMBuildFDiv(b, n1i, d1, ""),
                         LLVMBuildSelect(b, tall, LLVMBuildFDiv(b, n2i, d2, ""), nan, ""), "");
  }
  return lo_complex_make(l, t, re, im);
}

/* Raises what a runtime function recorded where its status is not RT_OK
 * (in a loop run with its errors deferred, only notes it). */
void lo_check_status(Lower *l, LLVMValueRef status) {
  LLVMValueRef failed = LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, 0), "");
  if (l->deferred) {
    lo_raise_if(l, failed, RT_ERR_RUNTIME, NULL);
    return;
  }
  LLVMBasicBlockRef bad = new_block(l, "call.error"), ok = new_block(l, "call.ok");
  LLVMBuildCondBr(l->b, failed, bad, ok);
  position(l, bad);
  lo_raise_status(l, status);
  position(l, ok);
}

/* a ** b in the runtime (rt_complex_pow), in float64 parts. */
static LLVMValueRef complex_pow(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  const Type *c = TYS(TY_C128);
  LLVMValueRef ar, ai, br, bi;
  parts_as(l, a, t, c, &ar, &ai);
  parts_as(l, b, t, c, &br, &bi);
  LLVMValueRef out = lo_alloca(l, lo_type(l, c), "pow");
  LLVMTypeRef params[6] = {l->mod->f64, l->mod->f64, l->mod->f64, l->mod->f64, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[6] = {ar, ai, br, bi, const_i32(l, lo_numpy_errors(l)), out};
  LLVMValueRef status = lo_call_fn(l, "rt_complex_pow", l->mod->i32, params, args, 6);
  if (!lo_numpy_errors(l)) lo_check_status(l, status);
  return lo_complex_convert(l, LLVMBuildLoad2(l->b, lo_type(l, c), out, ""), c, t);
}

/* a op b with either of complex type, the result complex type t. */
LLVMValueRef lo_complex_binop(Lower *l, int op, const Type *t, LLVMValueRef a, const Type *ta, LLVMValueRef b,
                              const Type *tb) {
  LLVMValueRef ar, ai, br, bi;
  parts_as(l, a, ta, t, &ar, &ai);
  parts_as(l, b, tb, t, &br, &bi);
  LLVMBuilderRef bld = l->b;
  switch (op) {
  case OP_ADD: return lo_complex_make(l, t, LLVMBuildFAdd(bld, ar, br, ""), LLVMBuildFAdd(bld, ai, bi, ""));
  case OP_SUB: return lo_complex_make(l, t, LLVMBuildFSub(bld, ar, br, ""), LLVMBuildFSub(bld, ai, bi, ""));
  case OP_MUL:
    return lo_complex_make(l, t, LLVMBuildFSub(bld, LLVMBuildFMul(bld, ar, br, ""), LLVMBuildFMul(bld, ai, bi, ""), ""),
                           LLVMBuildFAdd(bld, LLVMBuildFMul(bld, ar, bi, ""), LLVMBuildFMul(bld, ai, br, ""), ""));
  case OP_DIV: return complex_div(l, t, ar, ai, br, bi);
  default:  /* OP_POW: typing lets no other operator through */
    return complex_pow(l, t, lo_complex_make(l, t, ar, ai), lo_complex_make(l, t, br, bi));
  }
}

LLVMValueRef lo_complex_neg(Lower *l, const Type *t, LLVMValueRef v) {
  return lo_complex_make(l, t, LLVMBuildFNeg(l->b, lo_complex_real(l, v), ""),
                         LLVMBuildFNeg(l->b, lo_complex_imag(l, v), ""));
}

/* a == b or a != b: the real parts compared exactly as numbers of their own
 * types (an int against a float as Python does), the imaginary ones as
 * floats. */
LLVMValueRef lo_complex_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  const Type *pa = lo_complex_part(ta), *pb = lo_complex_part(tb);
  LLVMValueRef ra = ty_is_complex(ta) ? lo_complex_real(l, a) : a, rb = ty_is_complex(tb) ? lo_complex_real(l, b) : b;
  LLVMValueRef ia = ty_is_complex(ta) ? lo_complex_imag(l, a) : lo_fconst(l, TYS(TY_F64), 0.0);
  LLVMValueRef ib = ty_is_complex(tb) ? lo_complex_imag(l, b) : lo_fconst(l, TYS(TY_F64), 0.0);
  const Type *ita = ty_is_complex(ta) ? pa : TYS(TY_F64), *itb = ty_is_complex(tb) ? pb : TYS(TY_F64);
  LLVMValueRef re = lo_compare_values(l, OP_EQ, ra, pa, rb, pb);
  LLVMValueRef im = lo_compare_values(l, OP_EQ, ia, ita, ib, itb);
  LLVMValueRef eq = LLVMBuildAnd(l->b, re, im, "");
  return op == OP_EQ ? eq : LLVMBuildNot(l->b, eq, "");
}

/* |v| as hypot gives it, in v's part type: CPython raises where finite
 * parts give an infinity, NumPy does not. */
LLVMValueRef lo_complex_abs(Lower *l, const Type *t, LLVMValueRef v) {
  const Type *p = lo_complex_part(t);
  LLVMValueRef args[2] = {lo_complex_real(l, v), lo_complex_imag(l, v)};
  LLVMValueRef r = lo_libm(l, "hypot", p, args, 2);
  if (!lo_numpy_errors(l)) {
    LLVMValueRef inf = lo_fconst(l, p, INFINITY);
    LLVMValueRef finite = LLVMBuildAnd(l->b, fcmp(l, LLVMRealOLT, fabs_of(l, p, args[0]), inf),
                                       fcmp(l, LLVMRealOLT, fabs_of(l, p, args[1]), inf), "");
    lo_raise_if(l, LLVMBuildAnd(l->b, finite, fcmp(l, LLVMRealOEQ, r, inf), ""), RT_ERR_OVERFLOW,
                "absolute value too large");
  }
  return r;
}
