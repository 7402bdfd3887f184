/* builtins/statistics_rt.c — numpy.median's and numpy.percentile's
 * selection at run time (rt_partition); see statistics.c for the typers
 * and lowerers.
 */
#include "ruchey.h"

/* Quickselect: v[k] becomes the k-th smallest of v[0..n), the ones before
 * it no larger, the ones after no smaller (no NaN among them). */
#define PARTITION(name, T)                                                    \
  static void name(T *v, int64_t n, int64_t k) {                              \
    int64_t lo = 0, hi = n - 1;                                               \
    while (hi > lo) {                                                         \
      int64_t mid = lo + (hi - lo) / 2, i = lo, j = hi;                       \
      T pivot = v[mid];                                                       \
      if (v[lo] > pivot) pivot = v[lo] < v[hi] ? v[lo] : v[hi] > pivot ? v[hi] : pivot; \
      else if (v[hi] < pivot) pivot = v[hi] > v[lo] ? v[hi] : v[lo];          \
      while (i <= j) {                                                        \
        while (v[i] < pivot) i++;                                             \
        while (pivot < v[j]) j--;                                             \
        if (i <= j) {                                                         \
          T t = v[i];                                                         \
          v[i++] = v[j];                                                      \
          v[j--] = t;                                                         \
        }                                                                     \
      }                                                                       \
      if (k <= j) hi = j;                                                     \
      else if (k >= i) lo = i;                                                \
      else return;                                                            \
    }                                                                         \
  }

PARTITION(partition_i8, int8_t)
PARTITION(partition_i16, int16_t)
PARTITION(partition_i32, int32_t)
PARTITION(partition_i64, int64_t)
PARTITION(partition_u8, uint8_t)
PARTITION(partition_u16, uint16_t)
PARTITION(partition_u32, uint32_t)
PARTITION(partition_u64, uint64_t)
PARTITION(partition_f32, float)
PARTITION(partition_f64, double)

void rt_partition(void *data, int64_t n, int64_t k, int32_t kind) {
  switch (kind) {
  case TY_I8: partition_i8(data, n, k); break;
  case TY_I16: partition_i16(data, n, k); break;
  case TY_I32: partition_i32(data, n, k); break;
  case TY_I64: case TY_TIMEDELTA: partition_i64(data, n, k); break;
  case TY_BOOL: case TY_U8: partition_u8(data, n, k); break;
  case TY_U16: partition_u16(data, n, k); break;
  case TY_U32: partition_u32(data, n, k); break;
  case TY_U64: partition_u64(data, n, k); break;
  case TY_F32: partition_f32(data, n, k); break;
  /* complex: sorted whole, in NumPy's order (a median's); a failed allocation leaves them as they are */
  case TY_C64: case TY_C128: rt_sort_complex_lane(data, kind == TY_C64 ? 8 : 16, n, kind); break;
  default: partition_f64(data, n, k); break;
  }
}
