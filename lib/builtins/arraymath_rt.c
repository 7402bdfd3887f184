/* builtins/arraymath_rt.c — NumPy's pairwise sum at run time (rt_sum),
 * and the modified Bessel function i0 that numpy.kaiser's values are
 * (rt_i0); see arraymath.c and numpy.c for the typers and lowerers.
 */
#include <math.h>
#include <stdlib.h>

#include "ruchey.h"

/* NumPy's pairwise sum of n elements from p, stride bytes apart: 8
 * accumulators over blocks of up to 128, halves above. */
#define PAIRWISE(name, T)                                                                       \
  static T name(const char *p, int64_t n, int64_t stride) {                                     \
    if (n < 8) {                                                                                \
      T r = 0;                                                                                  \
      for (int64_t i = 0; i < n; i++) r += *(const T *)(p + i * stride);                        \
      return r;                                                                                 \
    }                                                                                           \
    if (n <= 128) {                                                                             \
      T r[8];                                                                                   \
      int64_t i;                                                                                \
      for (int j = 0; j < 8; j++) r[j] = *(const T *)(p + j * stride);                          \
      for (i = 8; i < n - n % 8; i += 8)                                                        \
        for (int j = 0; j < 8; j++) r[j] += *(const T *)(p + (i + j) * stride);                 \
      T s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));                  \
      for (; i < n; i++) s += *(const T *)(p + i * stride);                                     \
      return s;                                                                                 \
    }                                                                                           \
    int64_t half = n / 2;                                                                       \
    half -= half % 8;                                                                           \
    return name(p, half, stride) + name(p + half * stride, n - half, stride);                   \
  }

PAIRWISE(pairwise_f32, float)
PAIRWISE(pairwise_f64, double)

/* NumPy's add.reduce of n floats: their pairwise sum from 0 */
double rt_sum(const char *p, int64_t n, int64_t stride, int32_t kind) {
  return kind == TY_F32 ? pairwise_f32(p, n, stride) : pairwise_f64(p, n, stride);
}

/* NumPy's add.reduce of floats along the axes in mask (several, not all)
 * in one pass, as its iterator walks the array: the axes of more than one
 * element innermost first by the size of their steps in memory (C order
 * among equal ones). Where the innermost axes are summed, each result's
 * elements along them (its run, the innermost fastest) are summed
 * pairwise: whole where one step walks them (or the axes one step walks
 * hold BUFFER elements or more: lanes of those), else as NumPy's buffer of
 * BUFFER elements holds them: its core the inner ones (joined where one
 * step walks them) of up to BUFFER elements, as many cores as fit along
 * the next, a pairwise sum each; these sums, or the elements where the innermost
 * axis is kept, are added one after another along the other summed axes,
 * the inner of them the fastest. out: the C-ordered results (the kept
 * axes in their order). */
enum { BUFFER = 8192 };

static int64_t length_of(const int64_t *shape, const int32_t *order, int32_t from, int32_t to) {
  int64_t n = 1;
  for (int32_t i = from; i < to; i++) n *= shape[order[i]];
  return n;
}

/* The end of the summed axes order[from..] that one step walks (NumPy's
 * iterator joins them into one axis): from where order[from] is not summed. */
static int32_t summed_walk(const int64_t *shape, const int64_t *strides, int64_t mask, const int32_t *order,
                           int32_t from, int32_t m) {
  int64_t len = 1;
  int32_t i = from;
  for (; i < m && (mask >> order[i] & 1) && (i == from || strides[order[i]] == len * strides[order[from]]); i++)
    len *= shape[order[i]];
  return i;
}

#define SUM_AXES(name, T, pairwise)                                                             \
  static bool name(const char *p, const int64_t *shape, const int64_t *strides, int32_t ndim,   \
                   int64_t mask, T *out) {                                                      \
    int32_t order[RC_MAX_NDIM], m = 0, kept[RC_MAX_NDIM], nk = 0;                               \
    int64_t count = 1, each = 1, idx[RC_MAX_NDIM] = {0}, at[RC_MAX_NDIM];                       \
    for (int32_t d = 0; d < ndim; d++)                                                          \
      if (mask >> d & 1) each *= shape[d];                                                      \
      else count *= shape[d], kept[nk++] = d;                                                   \
    for (int32_t d = ndim - 1; each && d >= 0; d--) {                                           \
      if (shape[d] == 1) continue;                                                              \
      int32_t j = m++;                                                                          \
      for (; j > 0 && llabs(strides[d]) < llabs(strides[order[j - 1]]); j--) order[j] = order[j - 1]; \
      order[j] = d;                                                                             \
    }                                                                                           \
    int32_t h = summed_walk(shape, strides, mask, order, 0, m), g = h;                          \
    int64_t lane = length_of(shape, order, 0, h), core = lane, run = lane;                      \
    while (g < m && (mask >> order[g] & 1) && lane < BUFFER) {  /* the core: as many as fit */  \
      int32_t next = summed_walk(shape, strides, mask, order, g, m);                            \
      run = core * length_of(shape, order, g, next), g = next;                                  \
      if (run > BUFFER) break;  /* the core's lanes along the next, as many as fit at a time */  \
      core = run;                                                                               \
    }                                                                                           \
    bool lanes = h == g;  /* unbuffered: lanes of one step, the rest one by one */              \
    int64_t chunk = run <= BUFFER ? run : BUFFER / core * core;                                 \
    T *buf = lanes ? NULL : malloc((size_t)chunk * sizeof(T));                                  \
    if (!lanes && !buf) return false;                                                           \
    each /= run;                                                                                \
    for (int64_t r = 0; r < count; r++) {                                                       \
      const char *base = p;                                                                     \
      for (int32_t i = 0; i < nk; i++) base += idx[i] * strides[kept[i]];                       \
      T acc = 0;                                                                                \
      for (int32_t i = g; i < m; i++) at[i] = 0;                                                \
      for (int64_t e = 0; e < each; e++) {                                                      \
        const char *q = base;                                                                   \
        for (int32_t i = g; i < m; i++)                                                         \
          if (mask >> order[i] & 1) q += at[i] * strides[order[i]];                             \
        if (!g) acc += *(const T *)q;                                                           \
        else if (lanes) acc += pairwise(q, run, strides[order[0]]);                             \
        else acc = sum_run_##name(q, shape, strides, order, h, g, lane, run, chunk, buf, acc);  \
        for (int32_t i = g; i < m; i++)                                                         \
          if ((mask >> order[i] & 1) && ++at[i] < shape[order[i]]) break;                       \
          else if (mask >> order[i] & 1) at[i] = 0;                                             \
      }                                                                                         \
      out[r] = acc;                                                                             \
      for (int32_t i = nk - 1; i >= 0 && ++idx[i] == shape[kept[i]]; i--) idx[i] = 0;          \
    }                                                                                           \
    free(buf);                                                                                  \
    return true;                                                                                \
  }

/* A run of the summed inner axes order[0..g) from q, in their order (the
 * innermost fastest), copied into buf lane by lane (order[0..h), one step
 * apart) and each chunk's pairwise sum (chunk: whole lanes) added to acc,
 * as NumPy's buffered loop adds them. */
#define SUM_RUN(name, T, pairwise)                                                              \
  static T sum_run_##name(const char *q, const int64_t *shape, const int64_t *strides,          \
                          const int32_t *order, int32_t h, int32_t g, int64_t lane, int64_t run, \
                          int64_t chunk, T *buf, T acc) {                                       \
    int64_t at[RC_MAX_NDIM] = {0}, filled = 0, step = strides[order[0]];                        \
    for (int64_t e = 0; e < run; e += lane) {                                                   \
      const char *x = q;                                                                        \
      for (int32_t i = h; i < g; i++) x += at[i] * strides[order[i]];                           \
      for (int64_t j = 0; j < lane; j++) buf[filled + j] = *(const T *)(x + j * step);          \
      filled += lane;                                                                           \
      if (filled == chunk || e + lane == run) {                                                 \
        acc += pairwise((const char *)buf, filled, (int64_t)sizeof(T));                         \
        filled = 0;                                                                             \
      }                                                                                         \
      for (int32_t i = h; i < g && ++at[i] == shape[order[i]]; i++) at[i] = 0;                  \
    }                                                                                           \
    return acc;                                                                                 \
  }

SUM_RUN(sum_axes_f32, float, pairwise_f32)
SUM_RUN(sum_axes_f64, double, pairwise_f64)
SUM_AXES(sum_axes_f32, float, pairwise_f32)
SUM_AXES(sum_axes_f64, double, pairwise_f64)

int32_t rt_sum_axes(const char *p, const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t mask,
                    int32_t kind, void *out) {
  bool ok = kind == TY_F32 ? sum_axes_f32(p, shape, strides, ndim, mask, out)
                           : sum_axes_f64(p, shape, strides, ndim, mask, out);
  if (!ok) rt_set_error(RT_ERR_MEMORY, "out of memory in sum");
  return ok ? 0 : RT_ERR_MEMORY;
}

/* NumPy's pairwise sum of n complex elements from p, stride bytes apart,
 * counted as 2n parts: below 8 parts one by one; up to 128, 8
 * accumulators (the real parts in the even ones), the real sum
 * (r0 + r2) + (r4 + r6), the imaginary (r1 + r3) + (r5 + r7), then the
 * rest one by one; above, halves of a multiple of 8 parts. nan_zero:
 * an element with a NaN part read as 0 (numpy.nansum's). */
#define COMPLEX_PAIRWISE(name, T)                                                               \
  static inline T part_##name(const char *p, int k, bool nan_zero) {                            \
    const T *x = (const T *)p;                                                                  \
    return nan_zero && (x[0] != x[0] || x[1] != x[1]) ? 0 : x[k];                               \
  }                                                                                             \
  static void name(const char *p, int64_t parts, int64_t stride, bool nan_zero, T *re, T *im) { \
    if (parts < 8) {                                                                            \
      T r = 0, i = 0;                                                                           \
      for (int64_t k = 0; k < parts / 2; k++) {                                                 \
        r += part_##name(p + k * stride, 0, nan_zero);                                          \
        i += part_##name(p + k * stride, 1, nan_zero);                                          \
      }                                                                                         \
      *re = r, *im = i;                                                                         \
      return;                                                                                   \
    }                                                                                           \
    if (parts <= 128) {                                                                         \
      T r[8];                                                                                   \
      int64_t k;                                                                                \
      for (int j = 0; j < 8; j++) r[j] = part_##name(p + j / 2 * stride, j % 2, nan_zero);      \
      for (k = 4; k < (parts - parts % 8) / 2; k += 4)                                          \
        for (int j = 0; j < 8; j++) r[j] += part_##name(p + (k + j / 2) * stride, j % 2, nan_zero); \
      T sr = (r[0] + r[2]) + (r[4] + r[6]), si = (r[1] + r[3]) + (r[5] + r[7]);                 \
      for (; k < parts / 2; k++) {                                                              \
        sr += part_##name(p + k * stride, 0, nan_zero);                                         \
        si += part_##name(p + k * stride, 1, nan_zero);                                         \
      }                                                                                         \
      *re = sr, *im = si;                                                                       \
      return;                                                                                   \
    }                                                                                           \
    int64_t half = parts / 2;                                                                   \
    half -= half % 8;                                                                           \
    T r1, i1, r2, i2;                                                                           \
    name(p, half, stride, nan_zero, &r1, &i1);                                                  \
    name(p + half / 2 * stride, parts - half, stride, nan_zero, &r2, &i2);                      \
    *re = r1 + r2, *im = i1 + i2;                                                               \
  }

COMPLEX_PAIRWISE(pairwise_c64, float)
COMPLEX_PAIRWISE(pairwise_c128, double)

/* NumPy's add.reduce of n complex numbers (nansum's: nan_zero): their
 * pairwise sum from 0, written to out (two floats for complex64, two
 * doubles for complex128) */
void rt_sum_complex(const char *p, int64_t n, int64_t stride, int32_t kind, bool nan_zero, void *out) {
  if (kind == TY_C64) {
    float *o = out;
    pairwise_c64(p, 2 * n, stride, nan_zero, &o[0], &o[1]);
    o[0] += 0.0f, o[1] += 0.0f;
  } else {
    double *o = out;
    pairwise_c128(p, 2 * n, stride, nan_zero, &o[0], &o[1]);
    o[0] += 0.0, o[1] += 0.0;
  }
}

/* Cephes' Chebyshev coefficients of i0, NumPy's _i0A (|x| <= 8) and _i0B
 * (|x| > 8), in its order */
static const double i0_below_8[] = {
  -4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16, 1.715391285555133e-15,
  -1.1685332877993451e-14, 7.676185498604936e-14, -4.856446783111929e-13, 2.95505266312964e-12,
  -1.726826291441556e-11, 9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
  -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07, 1.1173875391201037e-06,
  -4.4167383584587505e-06, 1.6448448070728896e-05, -5.754195010082104e-05, 0.00018850288509584165,
  -0.0005763755745385824, 0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
  -0.02373741480589947, 0.04930528423967071, -0.09490109704804764, 0.17162090152220877,
  -0.3046826723431984, 0.6767952744094761};
static const double i0_above_8[] = {
  -7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17, 3.461222867697461e-17,
  -2.8276239805165836e-16, -3.425485619677219e-16, 1.7725601330565263e-15, 3.8116806693526224e-15,
  -9.554846698828307e-15, -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
  7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11, -3.1499165279632416e-11,
  1.1889147107846439e-11, 4.94060238822497e-10, 3.3962320257083865e-09, 2.266668990498178e-08,
  2.0489185894690638e-07, 2.8913705208347567e-06, 6.889758346916825e-05, 0.0033691164782556943,
  0.8044904110141088};

/* The Chebyshev series of n coefficients at x, as NumPy's _chbevl sums it */
static double chebyshev(double x, const double *c, int n) {
  double b0 = c[0], b1 = 0.0, b2 = 0.0;
  for (int i = 1; i < n; i++) {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + c[i];
  }
  return 0.5 * (b0 - b2);
}

/* numpy.i0 of one float64, NumPy's expressions in their order */
double rt_i0(double x) {
  x = fabs(x);
  if (x <= 8.0) return exp(x) * chebyshev(x / 2.0 - 2, i0_below_8, (int)(sizeof i0_below_8 / sizeof *i0_below_8));
  return exp(x) * chebyshev(32.0 / x - 2.0, i0_above_8, (int)(sizeof i0_above_8 / sizeof *i0_above_8)) / sqrt(x);
}
