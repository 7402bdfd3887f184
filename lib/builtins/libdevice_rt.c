/* builtins/libdevice_rt.c — what the CPU backend calls for libdevice's
 * functions that neither the C library nor an LLVM instruction gives
 * (cuda.libdevice.*, see libdevice.def): arithmetic and conversions in a
 * chosen rounding direction, sinpi and its kin, the inverse error
 * functions, erfcx, normcdf, powi.
 */
#include <fenv.h>
#include <math.h>
#include <stdint.h>

#include "ruchey.h"

/* ---------------------------------------------------------------- rounding directions */

/* libdevice.c's LdMode, in order */
static const int fe_modes[] = {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};

/* The operation runs between the two mode changes: its operands are read
 * from volatile copies after the first, its result written to one before
 * the second, so the compiler can neither fold it nor move it out. The
 * mode is the calling thread's own. */
#define ROUNDED(name, type, params, expr)                        \
  static type name params {                                             \
    volatile type in[3] = {ARGS};                                \
    (void)in;                                                    \
    fesetround(fe_modes[mode & 3]);                              \
    volatile type out = (expr);                                  \
    fesetround(FE_TONEAREST);                                    \
    return out;                                                  \
  }

#define ARGS a, b, 0
ROUNDED(rt_ld_add, double, (double a, double b, int mode), in[0] + in[1])
ROUNDED(rt_ld_mul, double, (double a, double b, int mode), in[0] * in[1])
ROUNDED(rt_ld_div, double, (double a, double b, int mode), in[0] / in[1])
ROUNDED(rt_ld_addf, float, (float a, float b, int mode), in[0] + in[1])
ROUNDED(rt_ld_subf, float, (float a, float b, int mode), in[0] - in[1])
ROUNDED(rt_ld_mulf, float, (float a, float b, int mode), in[0] * in[1])
ROUNDED(rt_ld_divf, float, (float a, float b, int mode), in[0] / in[1])
#undef ARGS
#define ARGS a, 0, 0
ROUNDED(rt_ld_rcp, double, (double a, int mode), 1.0 / in[0])
ROUNDED(rt_ld_sqrt, double, (double a, int mode), sqrt(in[0]))
ROUNDED(rt_ld_rcpf, float, (float a, int mode), 1.0f / in[0])
ROUNDED(rt_ld_sqrtf, float, (float a, int mode), sqrtf(in[0]))
#undef ARGS
#define ARGS a, b, c
ROUNDED(rt_ld_fma, double, (double a, double b, double c, int mode), fma(in[0], in[1], in[2]))
ROUNDED(rt_ld_fmaf, float, (float a, float b, float c, int mode), fmaf(in[0], in[1], in[2]))
#undef ARGS

/* conversions: the source in a volatile of its own type */
#define CONVERTED(name, to, from, expr)     \
  static to name(from a, int mode) {               \
    volatile from in = a;                   \
    fesetround(fe_modes[mode & 3]);         \
    volatile to out = (to)(expr);           \
    fesetround(FE_TONEAREST);               \
    return out;                             \
  }

CONVERTED(rt_ld_d2f, float, double, in)
CONVERTED(rt_ld_i2f, float, int32_t, in)
CONVERTED(rt_ld_u2f, float, int32_t, (uint32_t)in)
CONVERTED(rt_ld_l2d, double, int64_t, in)
CONVERTED(rt_ld_l2f, float, int64_t, in)
CONVERTED(rt_ld_ul2d, double, int64_t, (uint64_t)in)
CONVERTED(rt_ld_ul2f, float, int64_t, (uint64_t)in)

/* ---------------------------------------------------------------- functions */

static const double pi = 3.14159265358979323846;
static const double rsqrt_pi_half = 0.88622692545275801365;  /* sqrt(pi) / 2 */

/* sin(pi x): x reduced exactly to [-1, 1], then to a quarter period
 * around 0 or 1/2, so pi * r is small and exact to an ulp */
static double rt_ld_sinpi(double x) {
  if (!isfinite(x)) return x - x;
  double r = remainder(x, 2.0), a = fabs(r), s;
  if (a <= 0.25) s = sin(pi * a);
  else if (a <= 0.75) s = cos(pi * (a - 0.5));
  else s = sin(pi * (1.0 - a));
  return copysign(s, r);
}

static double rt_ld_cospi(double x) {
  if (!isfinite(x)) return x - x;
  double a = fabs(remainder(x, 2.0));
  if (a <= 0.25) return cos(pi * a);
  if (a <= 0.75) return sin(pi * (0.5 - a));
  return -cos(pi * (1.0 - a));
}

static void rt_ld_sincospi(double x, double *s, double *c) {
  *s = rt_ld_sinpi(x);
  *c = rt_ld_cospi(x);
}

static float rt_ld_sinpif(float x) { return (float)rt_ld_sinpi(x); }
static float rt_ld_cospif(float x) { return (float)rt_ld_cospi(x); }

static void rt_ld_sincospif(float x, float *s, float *c) {
  *s = (float)rt_ld_sinpi(x);
  *c = (float)rt_ld_cospi(x);
}

static double rt_ld_exp10(double x) { return exp10(x); }
static float rt_ld_exp10f(float x) { return (float)exp10(x); }
static double rt_ld_rcbrt(double x) { return 1.0 / cbrt(x); }
static float rt_ld_rcbrtf(float x) { return (float)(1.0 / cbrt(x)); }

/* x ** n by squaring, as libdevice computes it, in the type's own
 * arithmetic: |n|'s bits, then 1 / r for n < 0 */
#define POWI(name, type)                                   \
  static type name(type x, int32_t n) {                    \
    uint32_t e = n < 0 ? 0u - (uint32_t)n : (uint32_t)n;   \
    type r = 1;                                            \
    for (; e; e >>= 1, x *= x)                             \
      if (e & 1) r *= x;                                   \
    return n < 0 ? 1 / r : r;                              \
  }

POWI(rt_ld_powi, double)
POWI(rt_ld_powif, float)

/* exp(x*x) * erfc(x): from erfc while it is a normal number (x*x split in
 * two exact parts), then the asymptotic series 1/(x sqrt(pi)) * sum of
 * (-1)^k (2k-1)!! / (2x^2)^k, whose terms still fall at 25 */
static double rt_ld_erfcx(double x) {
  if (isnan(x)) return x;
  if (x < 0) return 2.0 * exp(x * x) - rt_ld_erfcx(-x);
  if (x < 25.0) {
    double hi = x * x, lo = fma(x, x, -hi);
    return exp(hi) * erfc(x) * (1.0 + lo);
  }
  if (isinf(x)) return 0.0;
  double u = 1.0 / (2.0 * x * x), term = 1.0, sum = 1.0;
  for (int k = 1; k < 16; k++) sum += (term *= -(2.0 * k - 1.0) * u);
  return sum / (x * 2.0 * rsqrt_pi_half);
}

static float rt_ld_erfcxf(float x) { return (float)rt_ld_erfcx(x); }

/* erf(x) = y for |y| <= 1/2, by Newton's steps from the line at 0 */
static double erfinv_centre(double y) {
  double x = y * rsqrt_pi_half;
  for (int i = 0; i < 8; i++) {
    double step = (y - erf(x)) * rsqrt_pi_half * exp(x * x);
    x += step;
    if (fabs(step) <= 1e-17 * fabs(x)) break;
  }
  return x;
}

/* erfc(x) = z for 0 < z <= 1/2, by Newton's steps on log(erfc(x)), which
 * is concave: from sqrt(-log z), right of the root, they fall onto it */
static double erfcinv_tail(double z) {
  double x = sqrt(-log(z)), lz = log(z);
  for (int i = 0; i < 60; i++) {
    double step = (log(erfc(x)) - lz) * rsqrt_pi_half * rt_ld_erfcx(x);
    x += step;
    if (fabs(step) <= 1e-16 * x) break;
  }
  return x;
}

static double rt_ld_erfcinv(double z) {
  if (!(z >= 0.0 && z <= 2.0)) return NAN;
  if (z == 0.0) return INFINITY;
  if (z == 2.0) return -INFINITY;
  if (z > 1.0) return -rt_ld_erfcinv(2.0 - z);
  return z > 0.5 ? erfinv_centre(1.0 - z) : erfcinv_tail(z);
}

static double rt_ld_erfinv(double y) {
  if (!(fabs(y) <= 1.0)) return NAN;
  if (fabs(y) <= 0.5) return erfinv_centre(y);
  return copysign(rt_ld_erfcinv(1.0 - fabs(y)), y);
}

static float rt_ld_erfinvf(float y) { return (float)rt_ld_erfinv(y); }
static float rt_ld_erfcinvf(float z) { return (float)rt_ld_erfcinv(z); }

/* the C library's remquo with libdevice's quotient: its last three bits, signed */
static double rt_ld_remquo(double x, double y, int32_t *quo) {
  int q;
  double r = remquo(x, y, &q);
  *quo = q < 0 ? -(-q & 7) : q & 7;
  return r;
}

static float rt_ld_remquof(float x, float y, int32_t *quo) { return (float)rt_ld_remquo(x, y, quo); }

static double rt_ld_normcdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }
static float rt_ld_normcdff(float x) { return (float)rt_ld_normcdf(x); }
static double rt_ld_normcdfinv(double p) { return -1.41421356237309504880 * rt_ld_erfcinv(2.0 * p); }
static float rt_ld_normcdfinvf(float p) { return (float)rt_ld_normcdfinv(p); }

void rt_register_libdevice(void (*define)(const char *name, void *addr, void *ctx), void *ctx) {
  static const struct { const char *name; void *addr; } helpers[] = {
    {"rt_ld_add", (void *)rt_ld_add}, {"rt_ld_mul", (void *)rt_ld_mul}, {"rt_ld_div", (void *)rt_ld_div},
    {"rt_ld_addf", (void *)rt_ld_addf}, {"rt_ld_subf", (void *)rt_ld_subf}, {"rt_ld_mulf", (void *)rt_ld_mulf},
    {"rt_ld_divf", (void *)rt_ld_divf}, {"rt_ld_rcp", (void *)rt_ld_rcp}, {"rt_ld_sqrt", (void *)rt_ld_sqrt},
    {"rt_ld_rcpf", (void *)rt_ld_rcpf}, {"rt_ld_sqrtf", (void *)rt_ld_sqrtf}, {"rt_ld_fma", (void *)rt_ld_fma},
    {"rt_ld_fmaf", (void *)rt_ld_fmaf}, {"rt_ld_d2f", (void *)rt_ld_d2f}, {"rt_ld_i2f", (void *)rt_ld_i2f},
    {"rt_ld_u2f", (void *)rt_ld_u2f}, {"rt_ld_l2d", (void *)rt_ld_l2d}, {"rt_ld_l2f", (void *)rt_ld_l2f},
    {"rt_ld_ul2d", (void *)rt_ld_ul2d}, {"rt_ld_ul2f", (void *)rt_ld_ul2f},
    {"rt_ld_sinpi", (void *)rt_ld_sinpi}, {"rt_ld_cospi", (void *)rt_ld_cospi},
    {"rt_ld_sincospi", (void *)rt_ld_sincospi}, {"rt_ld_sinpif", (void *)rt_ld_sinpif},
    {"rt_ld_cospif", (void *)rt_ld_cospif}, {"rt_ld_sincospif", (void *)rt_ld_sincospif},
    {"rt_ld_exp10", (void *)rt_ld_exp10}, {"rt_ld_exp10f", (void *)rt_ld_exp10f},
    {"rt_ld_rcbrt", (void *)rt_ld_rcbrt}, {"rt_ld_rcbrtf", (void *)rt_ld_rcbrtf},
    {"rt_ld_powi", (void *)rt_ld_powi}, {"rt_ld_powif", (void *)rt_ld_powif},
    {"rt_ld_erfcx", (void *)rt_ld_erfcx}, {"rt_ld_erfcxf", (void *)rt_ld_erfcxf},
    {"rt_ld_erfinv", (void *)rt_ld_erfinv}, {"rt_ld_erfinvf", (void *)rt_ld_erfinvf},
    {"rt_ld_erfcinv", (void *)rt_ld_erfcinv}, {"rt_ld_erfcinvf", (void *)rt_ld_erfcinvf},
    {"rt_ld_remquo", (void *)rt_ld_remquo}, {"rt_ld_remquof", (void *)rt_ld_remquof},
    {"rt_ld_normcdf", (void *)rt_ld_normcdf}, {"rt_ld_normcdff", (void *)rt_ld_normcdff},
    {"rt_ld_normcdfinv", (void *)rt_ld_normcdfinv}, {"rt_ld_normcdfinvf", (void *)rt_ld_normcdfinvf},
  };
  for (size_t i = 0; i < sizeof helpers / sizeof helpers[0]; i++) define(helpers[i].name, helpers[i].addr, ctx);
}
