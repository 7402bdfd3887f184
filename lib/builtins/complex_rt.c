/* builtins/complex_rt.c — cmath's functions and complex powers at run time
 * (rt_cmath, rt_complex_pow): the C library's C99 complex functions in
 * float64, raising as CPython does; see complex.c for the typers and
 * lowerers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* clog10 */
#endif
#include <complex.h>
#include <errno.h>
#include <math.h>

#include "ruchey.h"

/* CPython's errors for f(z) = r: ValueError at the poles, OverflowError
 * where finite z gives an infinite part. */
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
  if (pole) {
    rt_set_error(RT_ERR_VALUE, "math domain error");
    return RT_ERR_VALUE;
  }
  if (overflows && isfinite(re) && isfinite(im) && (isinf(creal(r)) || isinf(cimag(r)))) {
    rt_set_error(RT_ERR_OVERFLOW, "math range error");
    return RT_ERR_OVERFLOW;
  }
  return RT_OK;
}

int32_t rt_cmath(int32_t fn, double re, double im, int32_t python, double *out) {
  double complex z = CMPLX(re, im), r;
  switch (fn) {
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
  out[0] = creal(r);
  out[1] = cimag(r);
  return python ? cmath_error(fn, z, r) : RT_OK;
}

/* CPython's complex product and quotient (Smith's method), for powers. */
static double complex py_mul(double complex a, double complex b) {
  double ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);
  return CMPLX(ar * br - ai * bi, ar * bi + ai * br);
}

static double complex py_div(double complex a, double complex b, bool *by_zero) {
  double ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);
  if (fabs(br) >= fabs(bi)) {
    if (br == 0) {
      *by_zero = true;
      return 0;
    }
    double ratio = bi / br, d = br + bi * ratio;
    return CMPLX((ar + ai * ratio) / d, (ai - ar * ratio) / d);
  }
  if (fabs(bi) >= fabs(br)) {
    double ratio = br / bi, d = br * ratio + bi;
    return CMPLX((ar * ratio + ai) / d, (ai * ratio - ar) / d);
  }
  return CMPLX(NAN, NAN);
}

/* a ** n for a whole n by squaring, 1 / a ** -n for a negative one. */
static double complex power_by_squaring(double complex a, long n, bool *by_zero) {
  double complex r = 1, p = a;
  for (unsigned long k = n < 0 ? (unsigned long)-n : (unsigned long)n; k; k >>= 1) {
    if (k & 1) r = py_mul(r, p);
    if (k > 1) p = py_mul(p, p);
  }
  return n < 0 ? py_div(1, r, by_zero) : r;
}

/* NumPy's a ** n for a whole n below 100: a, a a, a (a a) and 1 / a as
 * they are (no product with 1 to turn infinities into NaN), others by
 * squaring. */
static double complex numpy_power_int(double complex a, long n) {
  if (n == 1) return a;
  if (n == 2) return py_mul(a, a);
  if (n == 3) return py_mul(a, py_mul(a, a));
  if (n == -1) return 1 / a;  /* C99's quotient, infinities kept apart from NaN */
  bool unused = false;
  double complex r = power_by_squaring(a, n < 0 ? -n : n, &unused);
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

/* a ** b through polar form, as CPython's: |a| ** b.real, turned. */
static double complex power_polar(double complex a, double complex b) {
  double len = hypot(creal(a), cimag(a)), at = atan2(cimag(a), creal(a));
  double mag = pow(len, creal(b)), phase = at * creal(b);
  if (cimag(b) != 0) {
    mag /= exp(at * cimag(b));
    phase += cimag(b) * log(len);
  }
  return CMPLX(mag * cos(phase), mag * sin(phase));
}

/* a ** b: CPython's for scalars (whole exponents up to 100 by squaring,
 * ZeroDivisionError for 0 to a negative or complex power, OverflowError
 * for an infinite part), NumPy's for arrays (the C library's cpow, whole
 * exponents below 100 by squaring, no errors). */
int32_t rt_complex_pow(double ar, double ai, double br, double bi, int32_t numpy, double *out) {
  double complex a = CMPLX(ar, ai), b = CMPLX(br, bi), r;
  bool by_zero = false, whole = bi == 0 && br == floor(br) && fabs(br) <= 100;
  if (whole && !numpy) r = power_by_squaring(a, (long)br, &by_zero);  /* CPython asks this first */
  else if (br == 0 && bi == 0) r = 1;
  else if (ar == 0 && ai == 0) {
    by_zero = bi != 0 || br < 0;
    r = numpy && by_zero ? CMPLX(NAN, NAN) : 0;
  } else if (numpy && whole && fabs(br) < 100) r = numpy_power_int(a, (long)br);
  else if (numpy) r = cpow(a, b);
  else {  /* CPython reads the C library's errno: a domain error (cos(inf)) is its ZeroDivisionError */
    errno = 0;
    r = power_polar(a, b);
    by_zero = errno == EDOM;
  }
  out[0] = creal(r);
  out[1] = cimag(r);
  if (numpy) return RT_OK;
  if (by_zero) {
    rt_set_error(RT_ERR_ZERODIV, "0.0 to a negative or complex power");
    return RT_ERR_ZERODIV;
  }
  if (isinf(creal(r)) || isinf(cimag(r))) {
    rt_set_error(RT_ERR_OVERFLOW, "complex exponentiation");
    return RT_ERR_OVERFLOW;
  }
  return RT_OK;
}
