/* builtins/complex_rt.c — cmath's functions and complex powers at run time
 * (rt_cmath, rt_complex_pow): the C library's C99 complex functions in
 * float64, raising as CPython does; see complex.c for the typers and
 * lowerers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* clog10 */
#endif
#include <complex.h>
#include <float.h>
#include <errno.h>
#include <math.h>

#include "ruchey.h"

/* CPython's errors for f(z) = r: ValueError at the poles and where an
 * infinite z gives a NaN, OverflowError where finite z gives an infinite
 * part. */
static int32_t cmath_error(int32_t fn, double complex z, double complex r) {
  double re = creal(z), im = cimag(z);
  bool pole = false, overflows = false;
  switch (fn) {
  case CM_LOG: case CM_LOG10: pole = re == 0 && im == 0; break;
  case CM_ATANH: pole = im == 0 && fabs(re) == 1; break;
  case CM_ATAN: pole = re == 0 && fabs(im) == 1; break;
  case CM_EXP: case CM_SIN: case CM_COS: case CM_SINH: case CM_COSH: overflows = true; break;
  default: break;
  }
  /* an infinite z (no NaN in it) whose value has a NaN: CPython's domain error (exp(infj), sin(inf)) */
  bool infinite_to_nan = (isinf(re) || isinf(im)) && !isnan(re) && !isnan(im) && (isnan(creal(r)) || isnan(cimag(r)));
  if (pole || infinite_to_nan) {
    rt_set_error(RT_ERR_VALUE, "math domain error");
    return RT_ERR_VALUE;
  }
  if (overflows && isfinite(re) && isfinite(im) && (isinf(creal(r)) || isinf(cimag(r)))) {
    rt_set_error(RT_ERR_OVERFLOW, "math range error");
    return RT_ERR_OVERFLOW;
  }
  return RT_OK;
}

/* NumPy's 1/z: Smith's division, no overflow for large parts */
static double complex np_reciprocal(double re, double im) {
  if (fabs(im) <= fabs(re)) {
    double r = im / re, d = re + im * r;
    return CMPLX(1 / d, -r / d);
  }
  double r = re / im, d = re * r + im;
  return CMPLX(r / d, -1 / d);
}

/* NumPy 2's sign: z / |z| (NaN if either part is, the sign of the infinite
 * part if one is); NumPy 1's: the sign of z in its order of complex
 * numbers, as a real part. */
static double complex np_sign(double re, double im) {
  if (rt_numpy_version < 200) {
    bool gt = (re > 0 && !isnan(im)) || (re == 0 && im > 0);
    bool lt = (re < 0 && !isnan(im)) || (re == 0 && im < 0);
    return CMPLX(gt ? 1.0 : lt ? -1.0 : re == 0 && im == 0 ? 0.0 : NAN, 0.0);
  }
  double a = hypot(re, im);
  if (isnan(a) || (isinf(re) && isinf(im))) return CMPLX(NAN, NAN);
  if (isinf(re)) return CMPLX(re > 0 ? 1.0 : -1.0, 0.0);
  if (isinf(im)) return CMPLX(0.0, im > 0 ? 1.0 : -1.0);
  if (a == 0) return 0;
  return CMPLX(re / a, im / a);
}

/* CPython's special values where the C library's differ (signs of zeros
 * and infinities, NaNs) for a z with an infinite or NaN part: the
 * hyperbolic functions' own, and the circular ones through them, as
 * CPython defines them: sin(z) = -i sinh(iz), cos(z) = cosh(iz), tan(z) =
 * -i tanh(iz), asin(z) = -i asinh(iz), atan(z) = -i atanh(iz). */
static double complex times_minus_i(double complex w) { return CMPLX(cimag(w), -creal(w)); }

static double complex cpython_nonfinite(int32_t fn, double re, double im, double complex r) {
  double complex iz = CMPLX(-im, re);
  switch (fn) {
  case CM_EXP: return isinf(re) && re < 0 && !isfinite(im) ? CMPLX(0.0, 0.0) : r;
  case CM_SINH: return re == 0 && isnan(im) ? CMPLX(0.0, NAN) : r;
  case CM_COSH: return isnan(re) && im == 0 ? CMPLX(NAN, 0.0) : r;
  case CM_TANH:
    if (re == 0 && isnan(im)) return CMPLX(NAN, NAN);
    return isinf(re) && !isfinite(im) ? CMPLX(copysign(1.0, re), 0.0) : r;
  case CM_ACOSH: return re == 0 && isnan(im) ? CMPLX(NAN, NAN) : r;
  /* the C library's signs follow a NaN's, which CPython's ignore */
  case CM_ASINH: return isnan(re) && isinf(im) ? CMPLX(INFINITY, NAN) : r;
  case CM_ATANH: return isnan(re) && isinf(im) ? CMPLX(0.0, copysign(M_PI / 2, im)) : r;
  case CM_ACOS: return isinf(re) && isnan(im) ? CMPLX(NAN, INFINITY) : r;
  case CM_SIN: return times_minus_i(cpython_nonfinite(CM_SINH, creal(iz), cimag(iz), csinh(iz)));
  case CM_COS: return cpython_nonfinite(CM_COSH, creal(iz), cimag(iz), ccosh(iz));
  case CM_TAN: return times_minus_i(cpython_nonfinite(CM_TANH, creal(iz), cimag(iz), ctanh(iz)));
  case CM_ASIN: return times_minus_i(cpython_nonfinite(CM_ASINH, creal(iz), cimag(iz), casinh(iz)));
  case CM_ATAN: return times_minus_i(cpython_nonfinite(CM_ATANH, creal(iz), cimag(iz), catanh(iz)));
  default: return r;
  }
}

int32_t rt_cmath(int32_t fn, double re, double im, int32_t python, double *out) {
  double complex z = CMPLX(re, im), r;
  switch (fn) {
  /* NumPy's formulas (npy_math's nc_exp2 ...) */
  case CM_EXP2: r = cexp(CMPLX(re * 0.693147180559945309417, im * 0.693147180559945309417)); break;
  case CM_LOG2: r = clog(z), r = CMPLX(creal(r) * 1.44269504088896340736, cimag(r) * 1.44269504088896340736); break;
  case CM_LOG1P: r = CMPLX(log(hypot(re + 1, im)), atan2(im, re + 1)); break;
  case CM_EXPM1: {
    double a = sin(im / 2);
    r = CMPLX(expm1(re) * cos(im) - 2 * a * a, exp(re) * sin(im));
    break;
  }
  case CM_RECIPROCAL: r = np_reciprocal(re, im); break;
  case CM_SIGN: r = np_sign(re, im); break;
  case CM_RINT: r = CMPLX(rint(re), rint(im)); break;
  case CM_SQRT: r = csqrt(z); break;
  case CM_EXP: r = cexp(z); break;
  case CM_LOG: r = clog(z); break;
  case CM_LOG10: r = clog10(z); break;
  case CM_SIN: r = csin(z); break;
  case CM_COS: r = ccos(z); break;
  case CM_TAN: r = ctan(z); break;
  case CM_ASIN: r = casin(z); break;
  case CM_ACOS: r = cacos(z); break;
  case CM_ATAN: r = catan(z); break;
  case CM_SINH: r = csinh(z); break;
  case CM_COSH: r = ccosh(z); break;
  case CM_TANH: r = ctanh(z); break;
  case CM_ASINH: r = casinh(z); break;
  case CM_ACOSH: r = cacosh(z); break;
  default: r = catanh(z); break;
  }
  if (python && !(isfinite(re) && isfinite(im))) r = cpython_nonfinite(fn, re, im, r);
  out[0] = creal(r);
  out[1] = cimag(r);
  return python ? cmath_error(fn, z, r) : RT_OK;
}

/* ---------------------------------------------------------------- Numba's cmath */

/* Code written for Numba computes cmath's exp, trigonometric, hyperbolic and
 * inverse functions with Numba's own formulas (numba/cpython/cmathimpl.py,
 * CPython's and NumPy's algorithms written out from real functions), which
 * are a last bit from the C library's complex functions in about one result
 * in two: the same formulas here, from the same real functions. Numba's
 * thresholds are its own (FLT_MAX of float32, even for float64). */
#define NUMBA_LN_4 1.3862943611198906    /* math.log(4) */
#define NUMBA_THRES ((double)FLT_MAX / 4) /* float32's largest / 4 */

/* NumPy's algorithm (npy_csqrt), as Numba's cmath.sqrt */
static double complex numba_sqrt(double a, double b) {
  if ((a == 0 && b == 0) || isinf(b)) return CMPLX(fabs(b), b);
  if (isnan(a)) return CMPLX(a, a);
  if (isinf(a)) return a < 0 ? CMPLX(fabs(b - b), copysign(a, b)) : CMPLX(a, copysign(b - b, b));
  bool scale = fabs(a) >= DBL_MAX / (1 + M_SQRT2) || fabs(b) >= DBL_MAX / (1 + M_SQRT2);
  if (scale) a *= 0.25, b *= 0.25;
  double re, im;
  if (a >= 0) {
    double t = sqrt((a + hypot(a, b)) * 0.5);
    re = t, im = b / (2 * t);
  } else {
    double t = sqrt((-a + hypot(a, b)) * 0.5);
    re = fabs(b) / (2 * t), im = copysign(t, b);
  }
  return scale ? CMPLX(re * 2, im) : CMPLX(re, im);
}

static double complex numba_cosh(double x, double y) {
  if (isinf(x)) {
    double re, im;
    if (isnan(y) || y == 0) re = fabs(x), im = y;
    else re = copysign(x, cos(y)), im = copysign(x, sin(y));
    return CMPLX(re, x < 0 ? -im : im);
  }
  return CMPLX(cos(y) * cosh(x), sin(y) * sinh(x));
}

static double complex numba_sinh(double x, double y) {
  if (isinf(x)) {
    if (isnan(y)) return CMPLX(x, y);
    double re = cos(y), im = sin(y);
    if (re != 0) re *= x;
    if (im != 0) im *= fabs(x);
    return CMPLX(re, im);
  }
  return CMPLX(cos(y) * sinh(x), sin(y) * cosh(x));
}

/* CPython's c_tanh, as Numba writes it */
static double complex numba_tanh(double x, double y) {
  if (isinf(x)) return CMPLX(copysign(1.0, x), isinf(y) ? 0.0 : copysign(0.0, sin(2.0 * y)));
  double tx = tanh(x), ty = tan(y), cx = 1.0 / cosh(x), txty = tx * ty, denom = 1.0 + txty * txty;
  return CMPLX(tx * (1.0 + ty * ty) / denom, ((ty / denom) * cx) * cx);
}

static bool numba_large(double x, double y) { return fabs(x) > NUMBA_THRES || fabs(y) > NUMBA_THRES; }

static double complex numba_acos(double x, double y) {
  if (numba_large(x, y))
    return CMPLX(atan2(fabs(y), x), copysign(log(hypot(x * 0.5, y * 0.5)) + NUMBA_LN_4, -y));
  double complex s1 = numba_sqrt(1.0 - x, -y), s2 = numba_sqrt(1.0 + x, y);
  return CMPLX(2.0 * atan2(creal(s1), creal(s2)), asinh(creal(s2) * cimag(s1) - cimag(s2) * creal(s1)));
}

static double complex numba_acosh(double x, double y) {
  if (numba_large(x, y)) return CMPLX(log(hypot(x * 0.5, y * 0.5)) + NUMBA_LN_4, atan2(y, x));
  double complex s1 = numba_sqrt(x - 1.0, y), s2 = numba_sqrt(x + 1.0, y);
  return CMPLX(asinh(creal(s1) * creal(s2) + cimag(s1) * cimag(s2)), 2.0 * atan2(cimag(s1), creal(s2)));
}

static double complex numba_asinh(double x, double y) {
  if (numba_large(x, y))
    return CMPLX(copysign(log(hypot(x * 0.5, y * 0.5)) + NUMBA_LN_4, x), atan2(y, fabs(x)));
  double complex s1 = numba_sqrt(1.0 + y, -x), s2 = numba_sqrt(1.0 - y, x);
  return CMPLX(asinh(creal(s1) * cimag(s2) - creal(s2) * cimag(s1)),
               atan2(y, creal(s1) * creal(s2) - cimag(s1) * cimag(s2)));
}

/* CPython's c_atanh, as Numba writes it */
static double complex numba_atanh(double x, double y) {
  bool negate = x < 0;
  if (negate) x = -x, y = -y;
  double ay = fabs(y), re, im;
  double large = sqrt(NUMBA_THRES), small = sqrt(FLT_MIN);
  if (isnan(x) || x > large || ay > large) {
    if (isinf(y)) re = copysign(0.0, x);
    else if (isinf(x)) re = 0.0;
    else {
      double h = hypot(x * 0.5, y * 0.5);
      re = x / 4.0 / h / h;
    }
    im = -copysign(M_PI / 2, -y);
  } else if (x == 1.0 && ay < small) {
    if (ay == 0) re = INFINITY, im = y;
    else re = -log(sqrt(ay) / sqrt(hypot(ay, 2.0))), im = copysign(atan2(2.0, -ay) / 2, y);
  } else {
    double sqay = ay * ay, zr1 = 1 - x;
    re = log1p(4.0 * x / (zr1 * zr1 + sqay)) * 0.25;
    im = -atan2(-2.0 * y, zr1 * (1 + x) - sqay) * 0.5;
  }
  if (isnan(y)) im = NAN;
  return negate ? CMPLX(-re, -im) : CMPLX(re, im);
}

/* Numba's NumPy ufuncs of complex that are not its cmath functions
 * (numba/np/npyfuncs.py, NumPy's funcs.inc.src written out): no special
 * cases for infinities, the logarithms scaled from log(hypot) + atan2 j. */
static double complex numba_np_log(double x, double y) { return CMPLX(log(hypot(x, y)), atan2(y, x)); }

static double complex numba_np_tanh(double x, double y) {
  double si = sin(y), ci = cos(y), shr = sinh(x), chr = cosh(x);
  double rs = ci * shr, is = si * chr, rc = ci * chr, ic = si * shr;
  double inv_d = 1.0 / (rc * rc + ic * ic);
  return CMPLX((rs * rc + is * ic) * inv_d, (is * rc - rs * ic) * inv_d);
}

/* log(z + sqrt(z + 1) sqrt(z - 1)), Numba's products and sums */
static double complex numba_np_acosh(double x, double y) {
  double complex p = numba_sqrt(x + 1.0, y), m = numba_sqrt(x - 1.0, y);
  double pr = creal(p), pi = cimag(p), mr = creal(m), mi = cimag(m);
  return numba_np_log(x + (pr * mr - pi * mi), y + (pr * mi + pi * mr));
}

/* Smith's 1 / z, as NumPy's loop */
static double complex numba_np_reciprocal(double x, double y) {
  if (fabs(y) <= fabs(x)) {
    double r = y / x, inv_d = 1.0 / (x + y * r);
    return CMPLX(inv_d, (0.0 - r) * inv_d);
  }
  double r = x / y, inv_d = 1.0 / (x * r + y);
  return CMPLX(r * inv_d, 0.0 - inv_d);
}

static double complex numba_numpy(int32_t fn, double x, double y) {
  switch (fn) {
  case CM_SINH: return CMPLX(cos(y) * sinh(x), sin(y) * cosh(x));
  case CM_COSH: return CMPLX(cos(y) * cosh(x), sin(y) * sinh(x));
  case CM_TANH: return numba_np_tanh(x, y);
  case CM_ACOSH: return numba_np_acosh(x, y);
  case CM_LOG10: {
    double complex r = numba_np_log(x, y);
    return CMPLX(creal(r) * 0.434294481903251827651128918916605082, cimag(r) * 0.434294481903251827651128918916605082);
  }
  case CM_LOG2: {
    double complex r = numba_np_log(x, y);
    return CMPLX(creal(r) * 1.442695040888963407359924681001892137, cimag(r) * 1.442695040888963407359924681001892137);
  }
  case CM_EXPM1: {  /* exp, not expm1, of the real part */
    double a = exp(x);
    return CMPLX(a * cos(y) + -1.0, a * sin(y));
  }
  default: return numba_np_reciprocal(x, y);
  }
}

/* cmath.exp's cases, as Numba writes them (exp(x) cos(y) + exp(x) sin(y) j:
 * the C library's cexp scales near overflow, and its zero parts of an
 * infinite -inf + inf j carry signs that Numba's 0j does not) */
static double complex numba_exp(double x, double y) {
  if (isinf(x) && x > 0) {
    if (!isfinite(y)) return CMPLX(x, NAN);
    double re = cos(y), im = sin(y);
    return CMPLX(re != 0 ? re * x : re, im != 0 ? im * x : im);
  }
  if (isnan(x)) return y != 0 ? CMPLX(x, x) : CMPLX(x, y);
  if (!isfinite(y)) return isfinite(x) ? CMPLX(NAN, NAN) : 0;
  double r = exp(x);
  return CMPLX(r * cos(y), r * sin(y));
}

/* f(z) by Numba's cmath formula, fn one of the CM_ numbers that complex.c's
 * numba_cmath_formula takes for cmath */
static double complex numba_cmath(int32_t fn, double x, double y) {
  double complex r;
  switch (fn) {
  /* f(z) = -j g(z j) (Numba's sin, tan, asin, atan), cos(z) = cosh(z j) */
  case CM_SIN: r = numba_sinh(-y, x); return CMPLX(cimag(r), -creal(r));
  case CM_COS: return numba_cosh(-y, x);
  case CM_TAN: r = numba_tanh(-y, x); return CMPLX(cimag(r), -creal(r));
  case CM_EXP: return numba_exp(x, y);
  case CM_SINH: return numba_sinh(x, y);
  case CM_COSH: return numba_cosh(x, y);
  case CM_TANH: return numba_tanh(x, y);
  case CM_ASIN: r = numba_asinh(-y, x); return CMPLX(cimag(r), -creal(r));
  case CM_ACOS: return numba_acos(x, y);
  case CM_ASINH: return numba_asinh(x, y);
  case CM_ACOSH: return numba_acosh(x, y);
  case CM_ATAN:  /* (an infinite real part and a NaN imaginary one keep the parts' order, as Numba's) */
    r = numba_atanh(-y, x);
    return isinf(x) && isnan(y) ? CMPLX(cimag(r), creal(r)) : CMPLX(cimag(r), -creal(r));
  default: return numba_atanh(x, y);
  }
}

/* Whether Numba's NumPy ufunc fn has a formula of its own (numba_numpy)
 * rather than its cmath function's */
static bool numba_numpy_own(int32_t fn) {
  return fn == CM_SINH || fn == CM_COSH || fn == CM_TANH || fn == CM_ACOSH || fn == CM_LOG10 || fn == CM_LOG2 ||
         fn == CM_EXPM1 || fn == CM_RECIPROCAL;
}

/* f(z) by Numba's formula; numpy: NumPy's function of that name */
void rt_cmath_numba(int32_t fn, double x, double y, int32_t numpy, double *out) {
  double complex r = numpy && numba_numpy_own(fn) ? numba_numpy(fn, x, y) : numba_cmath(fn, x, y);
  out[0] = creal(r);
  out[1] = cimag(r);
}

/* ---------------------------------------------------------------- Numba's complex64 ufuncs */

/* Numba computes NumPy's functions of complex64 with the same formulas
 * typed for float32 parts: float32's C functions (cosf, expf, hypotf ...)
 * and float32 products, except where a formula mixes in a float literal or
 * a float64 constant, which Numba's typing carries on in float64 (its
 * cmath.sqrt scales by 0.25, so all of it is float64 past the special
 * cases; CPython's tanh, acos, asinh and atanh are float64 around float32
 * calls). Each function below is Numba's, with the types Numba gives each
 * step; its result is rounded to complex64 as Numba's return does. */
#define NUMBA_SQRT_THRES32 ((double)FLT_MAX / (1 + M_SQRT2))

static float complex mul32(float complex z, float complex w) {
  float a = crealf(z), b = cimagf(z), c = crealf(w), d = cimagf(w);
  return CMPLXF(a * c - b * d, a * d + b * c);
}

/* cmath.exp's cases, as Numba writes them */
static float complex numba32_exp(float x, float y) {
  if (isinf(x) && x > 0) {
    if (!isfinite(y)) return CMPLXF(x, NAN);
    float re = cosf(y), im = sinf(y);
    return CMPLXF(re != 0 ? re * x : re, im != 0 ? im * x : im);
  }
  if (isnan(x)) return y != 0 ? CMPLXF(x, x) : CMPLXF(x, y);
  if (!isfinite(y)) return isfinite(x) ? CMPLXF(NAN, NAN) : 0;
  float r = expf(x);
  return CMPLXF(r * cosf(y), r * sinf(y));
}

static float complex numba32_log(float x, float y) { return CMPLXF(logf(hypotf(x, y)), atan2f(y, x)); }

static float complex scaled32(float complex z, float k) { return CMPLXF(crealf(z) * k, cimagf(z) * k); }

/* cmath.sqrt (NumPy's npy_csqrt): float64 past the special cases, which
 * keep float32's values */
static float complex numba32_sqrt(float a, float b) {
  if ((a == 0 && b == 0) || isinf(b)) return CMPLXF(fabsf(b), b);
  if (isnan(a)) return CMPLXF(a, a);
  if (isinf(a)) return a < 0 ? CMPLXF(fabsf(b - b), copysignf(a, b)) : CMPLXF(a, copysignf(b - b, b));
  double da = a, db = b;
  bool scale = fabs(da) >= NUMBA_SQRT_THRES32 || fabs(db) >= NUMBA_SQRT_THRES32;
  if (scale) da *= 0.25, db *= 0.25;
  double re, im;
  if (da >= 0) {
    double t = sqrt((da + hypot(da, db)) * 0.5);
    re = t, im = db / (2 * t);
  } else {
    double t = sqrt((-da + hypot(da, db)) * 0.5);
    re = fabs(db) / (2 * t), im = copysign(t, db);
  }
  return CMPLXF((float)(scale ? re * 2 : re), (float)im);
}

static float complex numba32_cosh(float x, float y) {
  if (isinf(x)) {
    float re, im;
    if (isnan(y) || y == 0) re = fabsf(x), im = y;
    else re = copysignf(x, cosf(y)), im = copysignf(x, sinf(y));
    return CMPLXF(re, x < 0 ? -im : im);
  }
  return CMPLXF(cosf(y) * coshf(x), sinf(y) * sinhf(x));
}

static float complex numba32_sinh(float x, float y) {
  if (isinf(x)) {
    if (isnan(y)) return CMPLXF(x, y);
    float re = cosf(y), im = sinf(y);
    if (re != 0) re *= x;
    if (im != 0) im *= fabsf(x);
    return CMPLXF(re, im);
  }
  return CMPLXF(cosf(y) * sinhf(x), sinf(y) * coshf(x));
}

/* CPython's c_tanh: float32 tanh, tan and products, float64 past 1. (a
 * complex128: cmath.tanh's, which NumPy's tan rounds to complex64) */
static double complex numba32_tanh(float x, float y) {
  if (isinf(x)) return CMPLX(copysign(1.0, x), isinf(y) ? 0.0 : copysign(0.0, sin(2.0 * y)));
  float tx = tanhf(x), ty = tanf(y), txty = tx * ty;
  double cx = 1.0 / coshf(x), denom = 1.0 + txty * txty;
  return CMPLX(tx * (1.0 + ty * ty) / denom, ((ty / denom) * cx) * cx);
}

/* CPython's acos, acosh and asinh take float32's atan2 in their branch for
 * large parts only; the rest is float64, as complex128's */
static float complex numba32_acos(float x, float y) {
  if (numba_large(x, y))
    return CMPLXF(atan2f(fabsf(y), x), (float)copysign(log(hypot(x * 0.5, y * 0.5)) + NUMBA_LN_4, -y));
  return (float complex)numba_acos(x, y);
}

static float complex numba32_asinh(float x, float y) {
  if (numba_large(x, y))
    return CMPLXF((float)copysign(log(hypot(x * 0.5, y * 0.5)) + NUMBA_LN_4, x), atan2f(y, fabsf(x)));
  return (float complex)numba_asinh(x, y);
}

/* CPython's c_acosh, cmath.acosh's: float64 (a complex128) but for the
 * large parts' atan2 */
static double complex numba32_acosh(float x, float y) {
  if (numba_large(x, y)) return CMPLX(log(hypot(x * 0.5, y * 0.5)) + NUMBA_LN_4, atan2f(y, x));
  return numba_acosh(x, y);
}

/* CPython's c_atanh: float64 but for y * y and one square root, float32's */
static float complex numba32_atanh(float x, float y) {
  bool negate = x < 0;
  if (negate) x = -x, y = -y;
  float ay = fabsf(y);
  double re, im;
  if (isnan(x) || x > sqrt(NUMBA_THRES) || ay > sqrt(NUMBA_THRES) || (x == 1.0f && ay == 0)) {
    double complex r = numba_atanh(x, y);
    re = creal(r), im = cimag(r);
  } else if (x == 1.0f && ay < sqrt(FLT_MIN)) {
    re = -log(sqrtf(ay) / sqrt(hypot(ay, 2.0))), im = copysign(atan2(2.0, -ay) / 2, y);
  } else {
    float sqay = ay * ay;
    double zr1 = 1 - (double)x;
    re = log1p(4.0 * x / (zr1 * zr1 + sqay)) * 0.25;
    im = -atan2(-2.0 * y, zr1 * (1 + (double)x) - sqay) * 0.5;
  }
  if (isnan(y)) im = NAN;
  return negate ? CMPLXF((float)-re, (float)-im) : CMPLXF((float)re, (float)im);
}

/* NumPy's acosh as Numba writes it: log(z + sqrt(z + 1) sqrt(z - 1)) in
 * complex64 steps */
static float complex numba32_np_acosh(float x, float y) {
  float complex s = mul32(numba32_sqrt(x + 1.0f, y + 0.0f), numba32_sqrt(x - 1.0f, y - 0.0f));
  return numba32_log(x + crealf(s), y + cimagf(s));
}

static float complex numba32_np_tanh(float x, float y) {
  float si = sinf(y), ci = cosf(y), shr = sinhf(x), chr = coshf(x);
  float rs = ci * shr, is = si * chr, rc = ci * chr, ic = si * shr;
  float inv_d = 1.0f / (rc * rc + ic * ic);
  return CMPLXF((rs * rc + is * ic) * inv_d, (is * rc - rs * ic) * inv_d);
}

static float complex numba32_np_reciprocal(float x, float y) {
  if (fabsf(y) <= fabsf(x)) {
    float r = y / x, inv_d = 1.0f / (x + y * r);
    return CMPLXF(inv_d, (0.0f - r) * inv_d);
  }
  float r = x / y, inv_d = 1.0f / (x * r + y);
  return CMPLXF(r * inv_d, 0.0f - inv_d);
}

/* NumPy 2's sign, z / |z|: Numba's complex64 division (CPython's) by the
 * float32 |z|; NumPy 1's has exact values */
static float complex numba32_np_sign(float x, float y) {
  if (rt_numpy_version < 200) return (float complex)np_sign(x, y);
  float h = hypotf(x, y);
  if (h == 0) return 0;
  if (!(h >= 0)) return CMPLXF(NAN, NAN);
  float ratio = 0.0f / h, denom = h + 0.0f * ratio;
  return CMPLXF((x + y * ratio) / denom, (y - x * ratio) / denom);
}

static float complex numba32_numpy(int32_t fn, float x, float y) {
  float complex r;
  switch (fn) {
  case CM_EXP: return numba32_exp(x, y);
  case CM_EXP2: return numba32_exp(x * (float)0.693147180559945309417, y * (float)0.693147180559945309417);
  case CM_LOG: return numba32_log(x, y);
  case CM_LOG2: return scaled32(numba32_log(x, y), (float)1.442695040888963407359924681001892137);
  case CM_LOG10: return scaled32(numba32_log(x, y), (float)0.434294481903251827651128918916605082);
  case CM_LOG1P: return numba32_log(x + 1.0f, y);
  case CM_EXPM1: {  /* exp, not expm1, of the real part */
    float a = expf(x);
    return CMPLXF(a * cosf(y) + -1.0f, a * sinf(y));
  }
  case CM_SQRT: return numba32_sqrt(x, y);
  case CM_SIN: r = numba32_sinh(-y, x); return CMPLXF(cimagf(r), -crealf(r));
  case CM_COS: return numba32_cosh(-y, x);
  case CM_TAN: r = numba32_tanh(-y, x); return CMPLXF(cimagf(r), -crealf(r));
  case CM_ASIN: r = numba32_asinh(-y, x); return CMPLXF(cimagf(r), -crealf(r));
  case CM_ACOS: return numba32_acos(x, y);
  case CM_ATAN:
    r = numba32_atanh(-y, x);
    return isinf(x) && isnan(y) ? CMPLXF(cimagf(r), crealf(r)) : CMPLXF(cimagf(r), -crealf(r));
  case CM_SINH: return CMPLXF(cosf(y) * sinhf(x), sinf(y) * coshf(x));
  case CM_COSH: return CMPLXF(cosf(y) * coshf(x), sinf(y) * sinhf(x));
  case CM_TANH: return numba32_np_tanh(x, y);
  case CM_ASINH: return numba32_asinh(x, y);
  case CM_ACOSH: return numba32_np_acosh(x, y);
  case CM_ATANH: return numba32_atanh(x, y);
  case CM_RECIPROCAL: return numba32_np_reciprocal(x, y);
  case CM_SIGN: return numba32_np_sign(x, y);
  default: return CMPLXF(rintf(x), rintf(y));
  }
}

/* cmath's fn of a complex64, as Numba computes it: NumPy's formula but for
 * sinh and cosh (cmath's keep the infinities' cases), and tanh, acosh and
 * log10, whose float64 steps reach the result (a complex128: Numba types
 * them so) */
static double complex numba32_cmath(int32_t fn, float x, float y) {
  switch (fn) {
  case CM_SINH: return numba32_sinh(x, y);
  case CM_COSH: return numba32_cosh(x, y);
  case CM_TANH: return numba32_tanh(x, y);
  case CM_ACOSH: return numba32_acosh(x, y);
  case CM_LOG10: {  /* log's parts divided by ln 10, a float64 */
    float complex r = numba32_log(x, y);
    return CMPLX(crealf(r) / 2.302585092994045684, cimagf(r) / 2.302585092994045684);
  }
  default: return numba32_numpy(fn, x, y);
  }
}

/* fn of a complex64 z, as code written for Numba computes it: NumPy's
 * function of that name (numpy), else cmath's */
void rt_cmath_numba32(int32_t fn, float x, float y, int32_t numpy, double *out) {
  double complex r = numpy ? numba32_numpy(fn, x, y) : numba32_cmath(fn, x, y);
  out[0] = creal(r);
  out[1] = cimag(r);
}

/* Annex G's "box": an infinite part becomes 1, any other 0, with its sign */
static double boxed(double x) { return copysign(isinf(x) ? 1.0 : 0.0, x); }
static double nan_zeroed(double x) { return isnan(x) ? copysign(0.0, x) : x; }

/* CPython's complex product; from 3.14 on (annex_g), where both parts come
 * out NaN, the infinities C99's Annex G recovers (C11's _Cmultd). */
static double complex py_mul(double complex a, double complex b, bool annex_g) {
  double ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);
  double re = ar * br - ai * bi, im = ar * bi + ai * br;
  if (!annex_g || !isnan(re) || !isnan(im)) return CMPLX(re, im);
  bool a_inf = isinf(ar) || isinf(ai), b_inf = isinf(br) || isinf(bi);
  bool overflowed = !a_inf && !b_inf && (isinf(ar * br) || isinf(ai * bi) || isinf(ar * bi) || isinf(ai * br));
  if (a_inf) ar = boxed(ar), ai = boxed(ai);
  if (b_inf) br = boxed(br), bi = boxed(bi);
  if (a_inf || overflowed) br = nan_zeroed(br), bi = nan_zeroed(bi);
  if (b_inf || overflowed) ar = nan_zeroed(ar), ai = nan_zeroed(ai);
  if (!a_inf && !b_inf && !overflowed) return CMPLX(re, im);
  return CMPLX(INFINITY * (ar * br - ai * bi), INFINITY * (ar * bi + ai * br));
}

/* CPython's quotient (Smith's method); from 3.14 on, where both parts come
 * out NaN, Annex G's infinity or zero (C11's _Cdivd). */
static double complex py_div(double complex a, double complex b, bool annex_g, bool *by_zero) {
  double ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b), re = NAN, im = NAN;
  if (fabs(br) >= fabs(bi)) {
    if (br == 0) {
      *by_zero = true;
      return 0;
    }
    double ratio = bi / br, d = br + bi * ratio;
    re = (ar + ai * ratio) / d, im = (ai - ar * ratio) / d;
  } else if (fabs(bi) >= fabs(br)) {
    double ratio = br / bi, d = br * ratio + bi;
    re = (ar * ratio + ai) / d, im = (ai * ratio - ar) / d;
  }
  if (!annex_g || !isnan(re) || !isnan(im)) return CMPLX(re, im);
  if ((isinf(ar) || isinf(ai)) && isfinite(br) && isfinite(bi)) {
    double x = boxed(ar), y = boxed(ai);
    return CMPLX(INFINITY * (x * br + y * bi), INFINITY * (y * br - x * bi));
  }
  if ((isinf(br) || isinf(bi)) && isfinite(ar) && isfinite(ai)) {
    double x = boxed(br), y = boxed(bi);
    return CMPLX(0.0 * (ar * x + ai * y), 0.0 * (ai * x - ar * y));
  }
  return CMPLX(re, im);
}

/* a ** n for a whole n by squaring, 1 / a ** -n for a negative one. */
static double complex power_by_squaring(double complex a, long n, bool annex_g, bool *by_zero) {
  double complex r = 1, p = a;
  for (unsigned long k = n < 0 ? (unsigned long)-n : (unsigned long)n; k; k >>= 1) {
    if (k & 1) r = py_mul(r, p, annex_g);
    if (k > 1) p = py_mul(p, p, annex_g);
  }
  return n < 0 ? py_div(1, r, annex_g, by_zero) : r;
}

/* NumPy's a ** n for a whole n below 100: a, a a, a (a a) and 1 / a as
 * they are (no product with 1 to turn infinities into NaN), others by
 * squaring. */
static double complex numpy_power_int(double complex a, long n) {
  if (n == 1) return a;
  if (n == 2) return py_mul(a, a, false);
  if (n == 3) return py_mul(a, py_mul(a, a, false), false);
  if (n == -1) return 1 / a;  /* C99's quotient, infinities kept apart from NaN */
  bool unused = false;
  double complex r = power_by_squaring(a, n < 0 ? -n : n, false, &unused);
  if (n >= 0) return r;
  double rr = creal(r), ri = cimag(r);  /* 1 / r, NumPy's way: by the reciprocal of the divisor */
  if (fabs(rr) >= fabs(ri)) {
    if (rr == 0 && ri == 0) return CMPLX(1 / fabs(rr), 0 / fabs(ri));
    double ratio = ri / rr, scale = 1 / (rr + ri * ratio);
    return CMPLX(scale, -ratio * scale);
  }
  double ratio = rr / ri, scale = 1 / (ri + rr * ratio);
  return CMPLX(ratio * scale, -scale);
}

/* a ** b through polar form, as CPython's: |a| ** b.real, turned (3.14
 * multiplies by exp(-at b.imag) where 3.10 to 3.13 divide by exp(at b.imag)). */
static double complex power_polar(double complex a, double complex b, bool python314) {
  double len = hypot(creal(a), cimag(a)), at = atan2(cimag(a), creal(a));
  double mag = pow(len, creal(b)), phase = at * creal(b);
  if (cimag(b) != 0) {
    if (python314) mag *= exp(-at * cimag(b));
    else mag /= exp(at * cimag(b));
    phase += cimag(b) * log(len);
  }
  return CMPLX(mag * cos(phase), mag * sin(phase));
}

/* a ** b as Numba's numba_cpow: CPython's _Py_c_pow of this Python (polar
 * form for every exponent, whole ones too), NaN where it has a domain
 * error (0 to a negative or complex power, the cosine of an infinite
 * phase), nothing raised. */
void rt_complex_pow_numba(double ar, double ai, double br, double bi, int32_t python314, double *out) {
  double complex r;
  errno = 0;
  if (br == 0 && bi == 0) r = 1;
  else if (ar == 0 && ai == 0) r = bi != 0 || br < 0 ? CMPLX(NAN, NAN) : 0;
  else r = power_polar(CMPLX(ar, ai), CMPLX(br, bi), python314);
  if (errno == EDOM) r = CMPLX(NAN, NAN);
  out[0] = creal(r);
  out[1] = cimag(r);
}

/* a ** b: CPython's for scalars (whole exponents up to 100 by squaring,
 * ZeroDivisionError for 0 to a negative or complex power, OverflowError
 * for an infinite part; python314: 3.14's products, quotients and message),
 * NumPy's for arrays (the C library's cpow, whole exponents below 100 by
 * squaring, no errors). */
int32_t rt_complex_pow(double ar, double ai, double br, double bi, int32_t numpy, int32_t python314, double *out) {
  double complex a = CMPLX(ar, ai), b = CMPLX(br, bi), r;
  bool by_zero = false, whole = bi == 0 && br == floor(br) && fabs(br) <= 100;
  if (whole && !numpy) r = power_by_squaring(a, (long)br, python314, &by_zero);  /* CPython asks this first */
  else if (br == 0 && bi == 0) r = 1;
  else if (ar == 0 && ai == 0) {
    by_zero = bi != 0 || br < 0;
    r = numpy && by_zero ? CMPLX(NAN, NAN) : 0;
  } else if (numpy && whole && fabs(br) < 100) r = numpy_power_int(a, (long)br);
  else if (numpy) r = cpow(a, b);
  else {  /* CPython reads the C library's errno: a domain error (cos(inf)) is its ZeroDivisionError */
    errno = 0;
    r = power_polar(a, b, python314);
    by_zero = errno == EDOM;
  }
  out[0] = creal(r);
  out[1] = cimag(r);
  if (numpy) return RT_OK;
  if (by_zero) {
    rt_set_error(RT_ERR_ZERODIV, python314 ? "zero to a negative or complex power" : "0.0 to a negative or complex power");
    return RT_ERR_ZERODIV;
  }
  if (isinf(creal(r)) || isinf(cimag(r))) {
    rt_set_error(RT_ERR_OVERFLOW, "complex exponentiation");
    return RT_ERR_OVERFLOW;
  }
  return RT_OK;
}
