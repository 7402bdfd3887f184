/* lower/cmath_kernel.c — cmath's functions in CUDA kernels and device
 * functions, written out from real functions.
 *
 * Host code calls the C library's complex functions (rt_cmath), which
 * GPU code cannot reach: in kernels both backends compute the same
 * formulas here from libm's (CPU) or libdevice's (GPU) real functions,
 * in float64, so a kernel gives the same results on either. As in
 * numba-cuda's kernels, nothing raises: a pole gives an infinity or a NaN.
 * The inverse functions use the usual reflections so that they keep
 * their accuracy on both sides of the branch cuts. Where a part of the
 * argument is infinite or NaN the formulas may give NaN where cmath gives
 * a number: there cmath's own values (cmath_special.h) are taken.
 */
#include <stdio.h>

#include "lower/lower.h"
#include "lower/cmath_special.h"

typedef struct C {
  LLVMValueRef re, im;
} C;

static LLVMValueRef num(Lower *l, double v) { return LLVMConstReal(l->mod->f64, v); }
static LLVMValueRef fn1(Lower *l, const char *name, LLVMValueRef x) { return lo_libm(l, name, TYS(TY_F64), &x, 1); }
static LLVMValueRef fn2(Lower *l, const char *name, LLVMValueRef x, LLVMValueRef y) {
  return lo_libm(l, name, TYS(TY_F64), (LLVMValueRef[]){x, y}, 2);
}
static LLVMValueRef add(Lower *l, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFAdd(l->b, a, b, ""); }
static LLVMValueRef sub(Lower *l, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFSub(l->b, a, b, ""); }
static LLVMValueRef mul(Lower *l, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFMul(l->b, a, b, ""); }
static LLVMValueRef fdiv(Lower *l, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFDiv(l->b, a, b, ""); }
static LLVMValueRef neg(Lower *l, LLVMValueRef a) { return LLVMBuildFNeg(l->b, a, ""); }
static LLVMValueRef pick(Lower *l, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildSelect(l->b, c, a, b, ""); }
static LLVMValueRef is_zero(Lower *l, LLVMValueRef a) { return LLVMBuildFCmp(l->b, LLVMRealOEQ, a, num(l, 0), ""); }
static LLVMValueRef is_neg(Lower *l, LLVMValueRef a) { return LLVMBuildFCmp(l->b, LLVMRealOLT, a, num(l, 0), ""); }
static LLVMValueRef fabs_(Lower *l, LLVMValueRef a) { return lo_intrinsic1(l, "llvm.fabs", TYS(TY_F64), a); }
static LLVMValueRef copysign_(Lower *l, LLVMValueRef a, LLVMValueRef s) {
  return lo_intrinsic2(l, "llvm.copysign", TYS(TY_F64), a, s);
}
/* -0.0 too: on which side of a branch cut a number on it lies */
static LLVMValueRef sign_bit(Lower *l, LLVMValueRef a) { return is_neg(l, copysign_(l, num(l, 1), a)); }

static C times_i(Lower *l, C z) { return (C){neg(l, z.im), z.re}; }       /* i z */
static C times_minus_i(Lower *l, C z) { return (C){z.im, neg(l, z.re)}; } /* -i z */
/* z + x and x - z of a real x: the imaginary part keeps its zero's sign */
static C plus_real(Lower *l, C z, double x) { return (C){add(l, z.re, num(l, x)), z.im}; }
static C real_minus(Lower *l, double x, C z) { return (C){sub(l, num(l, x), z.re), neg(l, z.im)}; }
static C cadd(Lower *l, C a, C b) { return (C){add(l, a.re, b.re), add(l, a.im, b.im)}; }
static C csub(Lower *l, C a, C b) { return (C){sub(l, a.re, b.re), sub(l, a.im, b.im)}; }
static C cmul(Lower *l, C a, C b) {
  return (C){sub(l, mul(l, a.re, b.re), mul(l, a.im, b.im)), add(l, mul(l, a.re, b.im), mul(l, a.im, b.re))};
}

static C clog_(Lower *l, C z) { return (C){fn1(l, "log", fn2(l, "hypot", z.re, z.im)), fn2(l, "atan2", z.im, z.re)}; }

/* sqrt without cancellation: the larger part from sqrt((|z| + |x|) / 2) */
static C csqrt_(Lower *l, C z) {
  LLVMValueRef r = fn2(l, "hypot", z.re, z.im);
  LLVMValueRef t = fn1(l, "sqrt", mul(l, add(l, r, fabs_(l, z.re)), num(l, 0.5)));
  LLVMValueRef other = fdiv(l, fabs_(l, z.im), add(l, t, t));
  LLVMValueRef left = sign_bit(l, z.re), zero = is_zero(l, r);
  LLVMValueRef re = pick(l, left, other, t);
  LLVMValueRef im = pick(l, left, copysign_(l, t, z.im), copysign_(l, other, z.im));
  return (C){pick(l, zero, num(l, 0), re), pick(l, zero, z.im, im)};
}

static C cexp_(Lower *l, C z) {
  LLVMValueRef e = fn1(l, "exp", z.re);
  LLVMValueRef real_only = is_zero(l, z.im);  /* exp(x + 0j) is exactly (e^x, 0j), even for an infinite x */
  return (C){pick(l, real_only, e, mul(l, e, fn1(l, "cos", z.im))), pick(l, real_only, z.im, mul(l, e, fn1(l, "sin", z.im)))};
}

static C csinh_(Lower *l, C z) {
  return (C){mul(l, fn1(l, "sinh", z.re), fn1(l, "cos", z.im)), mul(l, fn1(l, "cosh", z.re), fn1(l, "sin", z.im))};
}

static C ccosh_(Lower *l, C z) {
  return (C){mul(l, fn1(l, "cosh", z.re), fn1(l, "cos", z.im)), mul(l, fn1(l, "sinh", z.re), fn1(l, "sin", z.im))};
}

/* tanh(x + iy) from t = tanh(x), s = tan(y) (Kahan): no overflow for large x */
static C ctanh_(Lower *l, C z) {
  LLVMValueRef t = fn1(l, "tanh", z.re), s = fn1(l, "tan", z.im), one = num(l, 1);
  LLVMValueRef d = add(l, one, mul(l, mul(l, t, t), mul(l, s, s)));
  LLVMValueRef re = fdiv(l, mul(l, t, add(l, one, mul(l, s, s))), d);
  LLVMValueRef im = fdiv(l, mul(l, s, sub(l, one, mul(l, t, t))), d);
  LLVMValueRef big = LLVMBuildFCmp(l->b, LLVMRealOGT, fabs_(l, z.re), num(l, 22), "");  /* tanh(x) is +-1 */
  LLVMValueRef small_im = mul(l, mul(l, num(l, 4), mul(l, fn1(l, "sin", z.im), fn1(l, "cos", z.im))),
                              fn1(l, "exp", mul(l, num(l, -2), fabs_(l, z.re))));
  return (C){pick(l, big, copysign_(l, one, z.re), re), pick(l, big, small_im, im)};
}

/* asinh(z) = log(z + sqrt(z^2 + 1)) for Re z >= 0, odd: the other half by -asinh(-z) */
static C casinh_(Lower *l, C z) {
  LLVMValueRef left = sign_bit(l, z.re);
  C w = {fabs_(l, z.re), pick(l, left, neg(l, z.im), z.im)};
  C r = clog_(l, cadd(l, w, csqrt_(l, plus_real(l, cmul(l, w, w), 1))));
  return (C){pick(l, left, neg(l, r.re), r.re), pick(l, left, neg(l, r.im), r.im)};
}

/* acosh(z) = log(z + sqrt(z + 1) sqrt(z - 1)) */
static C cacosh_(Lower *l, C z) {
  return clog_(l, cadd(l, z, cmul(l, csqrt_(l, plus_real(l, z, 1)), csqrt_(l, plus_real(l, z, -1)))));
}

/* atanh(z) = (log(1 + z) - log(1 - z)) / 2 for Re z >= 0, odd: the other
 * half (-0.0 too) by -atanh(-z), which keeps the signs of zero parts */
static C catanh_(Lower *l, C z) {
  LLVMValueRef left = sign_bit(l, z.re);
  C w = {fabs_(l, z.re), pick(l, left, neg(l, z.im), z.im)};
  C d = csub(l, clog_(l, plus_real(l, w, 1)), clog_(l, real_minus(l, 1, w)));
  C r = {mul(l, d.re, num(l, 0.5)), mul(l, d.im, num(l, 0.5))};
  return (C){pick(l, left, neg(l, r.re), r.re), pick(l, left, neg(l, r.im), r.im)};
}

/* NumPy's 1/z (complex_rt.c's np_reciprocal): Smith's division */
static C creciprocal_(Lower *l, C z) {
  LLVMValueRef by_re = LLVMBuildFCmp(l->b, LLVMRealOLE, fabs_(l, z.im), fabs_(l, z.re), "");
  LLVMValueRef r1 = fdiv(l, z.im, z.re), d1 = add(l, z.re, mul(l, z.im, r1));
  LLVMValueRef r2 = fdiv(l, z.re, z.im), d2 = add(l, mul(l, z.re, r2), z.im);
  return (C){pick(l, by_re, fdiv(l, num(l, 1), d1), fdiv(l, r2, d2)),
             pick(l, by_re, neg(l, fdiv(l, r1, d1)), fdiv(l, num(l, -1), d2))};
}

/* NumPy 2's sign, z / |z| (complex_rt.c's np_sign): an infinite part's sign
 * where one is, 0 at 0, NaN where a part is or both are infinite */
static C csign_(Lower *l, C z) {
  LLVMValueRef a = fn2(l, "hypot", z.re, z.im), inf = num(l, __builtin_inf());
  LLVMValueRef re_inf = LLVMBuildFCmp(l->b, LLVMRealOEQ, fabs_(l, z.re), inf, "");
  LLVMValueRef im_inf = LLVMBuildFCmp(l->b, LLVMRealOEQ, fabs_(l, z.im), inf, "");
  LLVMValueRef nan = num(l, __builtin_nan("")), zero = num(l, 0), one = num(l, 1), minus = num(l, -1);
  C r = {pick(l, is_zero(l, a), zero, fdiv(l, z.re, a)), pick(l, is_zero(l, a), zero, fdiv(l, z.im, a))};
  r = (C){pick(l, im_inf, zero, r.re), pick(l, im_inf, pick(l, is_neg(l, z.im), minus, one), r.im)};
  r = (C){pick(l, re_inf, pick(l, is_neg(l, z.re), minus, one), r.re), pick(l, re_inf, zero, r.im)};
  LLVMValueRef bad = LLVMBuildOr(l->b, LLVMBuildFCmp(l->b, LLVMRealUNO, a, a, ""), LLVMBuildAnd(l->b, re_inf, im_inf, ""), "");
  return (C){pick(l, bad, nan, r.re), pick(l, bad, nan, r.im)};
}

/* The class of a part for cmath_special.h: 0 -inf, 1 negative, 2 -0.0,
 * 3 +0.0, 4 positive, 5 +inf, 6 NaN. */
static LLVMValueRef part_class(Lower *l, LLVMValueRef x) {
  LLVMValueRef inf = num(l, __builtin_inf());
  LLVMValueRef c = pick(l, sign_bit(l, x), const_i32(l, 2), const_i32(l, 3));
  c = LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealOGT, x, num(l, 0), ""), const_i32(l, 4), c, "");
  c = LLVMBuildSelect(l->b, is_neg(l, x), const_i32(l, 1), c, "");
  c = LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, x, inf, ""), const_i32(l, 5), c, "");
  c = LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, x, neg(l, inf), ""), const_i32(l, 0), c, "");
  return LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealUNO, x, x, ""), const_i32(l, 6), c, "");
}

/* Function fn's table of cmath_special.h, a constant of the module (on
 * the GPU in constant memory), as a generic pointer. */
static LLVMValueRef special_table(Lower *l, int fn, LLVMTypeRef type) {
  char name[32];
  snprintf(name, sizeof name, "cmath.special.%d", fn);
  LLVMValueRef g = LLVMGetNamedGlobal(l->mod->m, name);
  if (!g) {
    LLVMValueRef parts[98];
    for (int i = 0; i < 98; i++) parts[i] = num(l, cmath_special[fn].value[i / 2][i % 2]);
    g = LLVMAddGlobalInAddressSpace(l->mod->m, type, name, l->mod->gpu ? 4 : 0);
    LLVMSetInitializer(g, LLVMConstArray2(l->mod->f64, parts, 98));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMInternalLinkage);
  }
  return l->mod->gpu ? LLVMConstAddrSpaceCast(g, l->mod->ptr) : g;
}

/* r = f(z) as the formulas gave it, or cmath's value where z has a part
 * infinite or NaN and cmath_special.h knows it. */
static C special_values(Lower *l, int fn, C z, C r) {
  if (fn > CM_ATANH) return r;  /* NumPy's functions: their formulas are NumPy's */
  LLVMValueRef at = LLVMBuildAdd(l->b, LLVMBuildMul(l->b, part_class(l, z.re), const_i32(l, 7), ""),
                                 part_class(l, z.im), "");
  LLVMValueRef at64 = LLVMBuildZExt(l->b, at, l->mod->i64, "");
  LLVMValueRef known = LLVMBuildAnd(l->b, LLVMBuildLShr(l->b, const_i64(l, (int64_t)cmath_special[fn].known), at64, ""),
                                    const_i64(l, 1), "");
  LLVMValueRef use = LLVMBuildICmp(l->b, LLVMIntNE, known, const_i64(l, 0), "");
  LLVMTypeRef type = LLVMArrayType2(l->mod->f64, 98);
  LLVMValueRef table = special_table(l, fn, type), twice = LLVMBuildShl(l->b, at64, const_i64(l, 1), "");
  LLVMValueRef re_at = LLVMBuildGEP2(l->b, l->mod->f64, table, &twice, 1, "");
  LLVMValueRef im_at = LLVMBuildGEP2(l->b, l->mod->f64, re_at, (LLVMValueRef[]){const_i64(l, 1)}, 1, "");
  LLVMValueRef re = LLVMBuildLoad2(l->b, l->mod->f64, re_at, ""), im = LLVMBuildLoad2(l->b, l->mod->f64, im_at, "");
  return (C){pick(l, use, re, r.re), pick(l, use, im, r.im)};
}

/* f(z) of a complex128 z for rt_cmath's function number fn (lower.h's CM_). */
LLVMValueRef lo_kernel_cmath(Lower *l, int fn, LLVMValueRef v) {
  C z = {lo_complex_real(l, v), lo_complex_imag(l, v)}, r;
  switch (fn) {
  case CM_SQRT: r = csqrt_(l, z); break;
  case CM_EXP: r = cexp_(l, z); break;
  case CM_LOG: r = clog_(l, z); break;
  case CM_LOG10: {
    C g = clog_(l, z);
    r = (C){fdiv(l, g.re, num(l, 2.302585092994045684)), fdiv(l, g.im, num(l, 2.302585092994045684))};
    break;
  }
  case CM_SIN: r = times_minus_i(l, csinh_(l, times_i(l, z))); break;   /* sin z = -i sinh(iz) */
  case CM_COS: r = ccosh_(l, times_i(l, z)); break;                     /* cos z = cosh(iz) */
  case CM_TAN: r = times_minus_i(l, ctanh_(l, times_i(l, z))); break;   /* tan z = -i tanh(iz) */
  case CM_ASIN: r = times_minus_i(l, casinh_(l, times_i(l, z))); break; /* asin z = -i asinh(iz) */
  case CM_ACOS: {                                                       /* acos z = pi/2 - asin z */
    C a = times_minus_i(l, casinh_(l, times_i(l, z)));
    r = (C){sub(l, num(l, 1.57079632679489661923), a.re), neg(l, a.im)};
    break;
  }
  case CM_ATAN: r = times_minus_i(l, catanh_(l, times_i(l, z))); break; /* atan z = -i atanh(iz) */
  case CM_SINH: r = csinh_(l, z); break;
  case CM_COSH: r = ccosh_(l, z); break;
  case CM_TANH: r = ctanh_(l, z); break;
  case CM_ASINH: r = casinh_(l, z); break;
  case CM_ACOSH: r = cacosh_(l, z); break;
  case CM_ATANH: r = catanh_(l, z); break;
  /* NumPy's formulas, as complex_rt.c's */
  case CM_EXP2: r = cexp_(l, (C){mul(l, z.re, num(l, 0.693147180559945309417)), mul(l, z.im, num(l, 0.693147180559945309417))}); break;
  case CM_LOG2: {
    C g = clog_(l, z);
    r = (C){mul(l, g.re, num(l, 1.44269504088896340736)), mul(l, g.im, num(l, 1.44269504088896340736))};
    break;
  }
  case CM_LOG1P: r = clog_(l, plus_real(l, z, 1)); break;
  case CM_EXPM1: {
    LLVMValueRef a = fn1(l, "sin", mul(l, z.im, num(l, 0.5)));
    r = (C){sub(l, mul(l, fn1(l, "expm1", z.re), fn1(l, "cos", z.im)), mul(l, num(l, 2), mul(l, a, a))),
            mul(l, fn1(l, "exp", z.re), fn1(l, "sin", z.im))};
    break;
  }
  case CM_RECIPROCAL: r = creciprocal_(l, z); break;
  case CM_SIGN: r = csign_(l, z); break;
  default: r = (C){fn1(l, "rint", z.re), fn1(l, "rint", z.im)}; break;
  }
  r = special_values(l, fn, z, r);
  return lo_complex_make(l, TYS(TY_C128), r.re, r.im);
}
