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

static LLVMValueRef fmax_(Lower *l, LLVMValueRef a, LLVMValueRef b) {
  return lo_intrinsic2(l, "llvm.maxnum", TYS(TY_F64), a, b);
}
static LLVMValueRef fmin_(Lower *l, LLVMValueRef a, LLVMValueRef b) {
  return lo_intrinsic2(l, "llvm.minnum", TYS(TY_F64), a, b);
}
static LLVMValueRef within(Lower *l, LLVMValueRef x, double lo, double hi) {
  return LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOGE, x, num(l, lo), ""),
                      LLVMBuildFCmp(l->b, LLVMRealOLE, x, num(l, hi), ""), "");
}
/* Whether a part of z is so large that squaring it would overflow */
static LLVMValueRef huge(Lower *l, C z) {
  LLVMValueRef big = num(l, 1e150);
  return LLVMBuildOr(l->b, LLVMBuildFCmp(l->b, LLVMRealOGT, fabs_(l, z.re), big, ""),
                     LLVMBuildFCmp(l->b, LLVMRealOGT, fabs_(l, z.im), big, ""), "");
}
/* log|z| + log 2 for a huge z, without overflow: log|z/2| + 2 log 2 */
static LLVMValueRef log_twice_abs(Lower *l, C z) {
  LLVMValueRef h = fn2(l, "hypot", mul(l, z.re, num(l, 0.5)), mul(l, z.im, num(l, 0.5)));
  return add(l, fn1(l, "log", h), num(l, 1.38629436111989061883));
}

/* log|z| by log1p where |z| is near 1, where log(|z|) would cancel */
static C clog_(Lower *l, C z) {
  LLVMValueRef h = fn2(l, "hypot", z.re, z.im);
  LLVMValueRef am = fmax_(l, fabs_(l, z.re), fabs_(l, z.im)), an = fmin_(l, fabs_(l, z.re), fabs_(l, z.im));
  LLVMValueRef near = fn1(l, "log1p", add(l, mul(l, sub(l, am, num(l, 1)), add(l, am, num(l, 1))), mul(l, an, an)));
  LLVMValueRef re = pick(l, within(l, h, 0.71, 1.73), mul(l, near, num(l, 0.5)), fn1(l, "log", h));
  return (C){re, fn2(l, "atan2", z.im, z.re)};
}

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

/* tanh(x + iy) from t = tan(y), beta = 1 + t^2 and s = sinh(x) (Kahan):
 * (beta cosh(x) s + i t) / (1 + beta s^2), which cancels nowhere; for large
 * x (s^2 would overflow), from tanh(x) = +-1 */
static C ctanh_(Lower *l, C z) {
  LLVMValueRef t = fn1(l, "tan", z.im), s = fn1(l, "sinh", z.re), one = num(l, 1);
  LLVMValueRef beta = add(l, one, mul(l, t, t)), d = add(l, one, mul(l, beta, mul(l, s, s)));
  LLVMValueRef re = fdiv(l, mul(l, mul(l, beta, fn1(l, "cosh", z.re)), s), d);
  LLVMValueRef im = fdiv(l, t, d);
  LLVMValueRef big = LLVMBuildFCmp(l->b, LLVMRealOGT, fabs_(l, z.re), num(l, 22), "");  /* tanh(x) is +-1 */
  LLVMValueRef small_im = mul(l, mul(l, num(l, 4), mul(l, fn1(l, "sin", z.im), fn1(l, "cos", z.im))),
                              fn1(l, "exp", mul(l, num(l, -2), fabs_(l, z.re))));
  return (C){pick(l, big, copysign_(l, one, z.re), re), pick(l, big, small_im, im)};
}

/* The inverse functions by Kahan's formulas ("Branch cuts for complex
 * elementary functions", 1987) from square roots of 1 +- z, accurate near
 * the branch points; for a huge z, from log|z|, where z^2 would overflow. */

/* asinh(z): s1 = sqrt(1 - iz), s2 = sqrt(1 + iz) */
static C casinh_(Lower *l, C z) {
  C s1 = csqrt_(l, (C){add(l, num(l, 1), z.im), neg(l, z.re)});
  C s2 = csqrt_(l, (C){sub(l, num(l, 1), z.im), z.re});
  C r = {fn1(l, "asinh", sub(l, mul(l, s1.re, s2.im), mul(l, s2.re, s1.im))),
         fn2(l, "atan2", z.im, sub(l, mul(l, s1.re, s2.re), mul(l, s1.im, s2.im)))};
  LLVMValueRef big = huge(l, z);
  return (C){pick(l, big, copysign_(l, log_twice_abs(l, z), z.re), r.re),
             pick(l, big, fn2(l, "atan2", z.im, fabs_(l, z.re)), r.im)};
}

/* acos(z): s1 = sqrt(1 - z), s2 = sqrt(1 + z) */
static C cacos_(Lower *l, C z) {
  C s1 = csqrt_(l, real_minus(l, 1, z)), s2 = csqrt_(l, plus_real(l, z, 1));
  C r = {mul(l, num(l, 2), fn2(l, "atan2", s1.re, s2.re)),
         fn1(l, "asinh", sub(l, mul(l, s2.re, s1.im), mul(l, s2.im, s1.re)))};
  LLVMValueRef big = huge(l, z);
  return (C){pick(l, big, fn2(l, "atan2", fabs_(l, z.im), z.re), r.re),
             pick(l, big, copysign_(l, log_twice_abs(l, z), neg(l, z.im)), r.im)};
}

/* acosh(z): s1 = sqrt(z - 1), s2 = sqrt(z + 1) */
static C cacosh_(Lower *l, C z) {
  C s1 = csqrt_(l, plus_real(l, z, -1)), s2 = csqrt_(l, plus_real(l, z, 1));
  C r = {fn1(l, "asinh", add(l, mul(l, s1.re, s2.re), mul(l, s1.im, s2.im))),
         mul(l, num(l, 2), fn2(l, "atan2", s1.im, s2.re))};
  LLVMValueRef big = huge(l, z);
  return (C){pick(l, big, log_twice_abs(l, z), r.re), pick(l, big, fn2(l, "atan2", z.im, z.re), r.im)};
}

/* atanh(x + iy) for x >= 0: log1p(4x / ((1 - x)^2 + y^2)) / 4 - i atan2(-2y, (1 - x)(1 + x) - y^2) / 2;
 * at x = 1 and a tiny y, from y alone (y^2 would underflow); for a huge z,
 * x / |z|^2 + i pi/2 sign(y) */
static C atanh_right(Lower *l, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef one = num(l, 1), ay = fabs_(l, y), y2 = mul(l, ay, ay);
  LLVMValueRef d = add(l, mul(l, sub(l, one, x), sub(l, one, x)), y2);
  LLVMValueRef across = sub(l, mul(l, sub(l, one, x), add(l, one, x)), y2);
  C r = {mul(l, fn1(l, "log1p", fdiv(l, mul(l, num(l, 4), x), d)), num(l, 0.25)),
         mul(l, fn2(l, "atan2", mul(l, num(l, -2), y), across), num(l, -0.5))};
  LLVMValueRef at_one = LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, x, one, ""),
                                     LLVMBuildFCmp(l->b, LLVMRealOLT, ay, num(l, 1.4916681462400413e-154), ""), "");
  LLVMValueRef ratio = fdiv(l, fn1(l, "sqrt", ay), fn1(l, "sqrt", fn2(l, "hypot", ay, num(l, 2))));
  r = (C){pick(l, at_one, neg(l, fn1(l, "log", ratio)), r.re),
          pick(l, at_one, copysign_(l, mul(l, fn2(l, "atan2", num(l, 2), neg(l, ay)), num(l, 0.5)), y), r.im)};
  LLVMValueRef h = fn2(l, "hypot", mul(l, x, num(l, 0.5)), mul(l, y, num(l, 0.5))), big = huge(l, (C){x, y});
  return (C){pick(l, big, fdiv(l, fdiv(l, mul(l, x, num(l, 0.25)), h), h), r.re),
             pick(l, big, copysign_(l, num(l, 1.57079632679489661923), y), r.im)};
}

/* atanh(z), odd: the half left of the imaginary axis (-0.0 too) by
 * -atanh(-z), which keeps the signs of zero parts */
static C catanh_(Lower *l, C z) {
  LLVMValueRef left = sign_bit(l, z.re);
  C r = atanh_right(l, fabs_(l, z.re), pick(l, left, neg(l, z.im), z.im));
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
  LLVMValueRef bits = const_i64(l, (int64_t)cmath_special[fn].known);
  LLVMValueRef known = LLVMBuildAnd(l->b, LLVMBuildLShr(l->b, bits, at64, ""), const_i64(l, 1), "");
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
  case CM_ACOS: r = cacos_(l, z); break;
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
