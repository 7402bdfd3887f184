/* builtins/arraymath_rt.c — NumPy's pairwise sum at run time (rt_sum);
 * see arraymath.c for the typers and lowerers.
 */
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
