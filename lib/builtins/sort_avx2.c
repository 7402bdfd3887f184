/* builtins/sort_avx2.c — numpy.sort in AVX2 registers, for processors
 * without AVX-512: sort_simd_body.h's quicksort on 8 keys of 4 bytes or 4
 * of 8 bytes a register. AVX2 has no compress and no mask registers: a
 * register's keys are compressed by a permutation looked up by their
 * mask, and masks are turned into vectors where an operation takes one.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ruchey.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define SIMD __attribute__((target("avx2,popcnt"), always_inline)) static inline
#define SORT_FN __attribute__((target("avx2,popcnt"))) static
#define Vec __m256i

/* The permutations (of 32-bit lanes) that bring the keys of a mask's
 * lanes to a register's first lanes (low) or its last (high), for
 * registers of 8 keys of 4 bytes (y32) and 4 of 8 bytes (y64). Written
 * once, before the first sort, and only read after. */
static uint8_t compress_y32[2][256][8], compress_y64[2][16][8];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void fill_compress(uint8_t (*low)[8], uint8_t (*high)[8], int lanes) {
  int slots = 8 / lanes;
  for (unsigned m = 0; m < 1u << lanes; m++)
    for (int i = 0, k = 0, count = __builtin_popcount(m); i < lanes; i++) {
      if (!(m >> i & 1)) continue;
      for (int s = 0; s < slots; s++) {
        low[m][k * slots + s] = (uint8_t)(i * slots + s);
        high[m][(lanes - count + k) * slots + s] = (uint8_t)(i * slots + s);
      }
      k++;
    }
}

static void fill_tables(void) {
  fill_compress(compress_y32[0], compress_y32[1], 8);
  fill_compress(compress_y64[0], compress_y64[1], 4);
}

SIMD Vec permuted(Vec v, const uint8_t *order) {
  return _mm256_permutevar8x32_epi32(v, _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)order)));
}

SIMD Vec xor_y(Vec a, Vec b) { return _mm256_xor_si256(a, b); }

/* ---------------------------------------------------- 8 keys of 4 bytes */

#define T uint32_t
#define LANES 8
#define N(name) name##_y32

/* mask m as a vector: all ones in its lanes */
SIMD Vec held_y32(unsigned m) {
  Vec bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)m), bits), bits);
}

SIMD Vec set1_y32(T x) { return _mm256_set1_epi32((int)x); }
SIMD Vec loadu_y32(const T *p) { return _mm256_loadu_si256((const __m256i *)p); }
SIMD void storeu_y32(T *p, Vec v) { _mm256_storeu_si256((__m256i *)p, v); }
SIMD Vec load_or_y32(const T *p, unsigned m, Vec fill) {
  Vec held = held_y32(m);
  return _mm256_blendv_epi8(fill, _mm256_maskload_epi32((const int *)p, held), held);
}
SIMD void store_held_y32(T *p, unsigned m, Vec v) { _mm256_maskstore_epi32((int *)p, held_y32(m), v); }
SIMD Vec min_y32(Vec a, Vec b) { return _mm256_min_epu32(a, b); }
SIMD Vec max_y32(Vec a, Vec b) { return _mm256_max_epu32(a, b); }
SIMD unsigned below_y32(Vec a, Vec b) {
  Vec sign = _mm256_set1_epi32(INT32_MIN);
  return (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(xor_y(b, sign), xor_y(a, sign))));
}
SIMD Vec blend_y32(unsigned m, Vec a, Vec b) { return _mm256_blendv_epi8(a, b, held_y32(m)); }
SIMD Vec min_max_y32(unsigned high, Vec v, Vec w) { return blend_y32(high, min_y32(v, w), max_y32(v, w)); }
SIMD Vec xor_y32(Vec a, Vec b) { return xor_y(a, b); }
SIMD Vec or_y32(Vec a, Vec b) { return _mm256_or_si256(a, b); }
SIMD Vec and_y32(Vec a, Vec b) { return _mm256_and_si256(a, b); }
SIMD Vec swizzle_y32(Vec v, int x) {
  return _mm256_permutevar8x32_epi32(v, xor_y(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(x)));
}
SIMD Vec compress_low_y32(Vec v, unsigned m) { return permuted(v, compress_y32[0][m]); }
SIMD Vec compress_high_y32(Vec v, unsigned m) { return permuted(v, compress_y32[1][m]); }

#include "builtins/sort_simd_body.h"
#undef T
#undef LANES
#undef N

/* ---------------------------------------------------- 4 keys of 8 bytes */

#define T uint64_t
#define LANES 4
#define N(name) name##_y64

SIMD Vec held_y64(unsigned m) {
  Vec bits = _mm256_setr_epi64x(1, 2, 4, 8);
  return _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x((long long)m), bits), bits);
}

/* all ones in the lanes where a > b, unsigned */
SIMD Vec above_y64(Vec a, Vec b) {
  Vec sign = _mm256_set1_epi64x(INT64_MIN);
  return _mm256_cmpgt_epi64(xor_y(a, sign), xor_y(b, sign));
}

SIMD Vec set1_y64(T x) { return _mm256_set1_epi64x((long long)x); }
SIMD Vec loadu_y64(const T *p) { return _mm256_loadu_si256((const __m256i *)p); }
SIMD void storeu_y64(T *p, Vec v) { _mm256_storeu_si256((__m256i *)p, v); }
SIMD Vec load_or_y64(const T *p, unsigned m, Vec fill) {
  Vec held = held_y64(m);
  return _mm256_blendv_epi8(fill, _mm256_maskload_epi64((const long long *)p, held), held);
}
SIMD void store_held_y64(T *p, unsigned m, Vec v) { _mm256_maskstore_epi64((long long *)p, held_y64(m), v); }
SIMD Vec min_y64(Vec a, Vec b) { return _mm256_blendv_epi8(a, b, above_y64(a, b)); }
SIMD Vec max_y64(Vec a, Vec b) { return _mm256_blendv_epi8(b, a, above_y64(a, b)); }
SIMD unsigned below_y64(Vec a, Vec b) { return (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(above_y64(b, a))); }
SIMD Vec blend_y64(unsigned m, Vec a, Vec b) { return _mm256_blendv_epi8(a, b, held_y64(m)); }
SIMD Vec min_max_y64(unsigned high, Vec v, Vec w) {
  Vec swap = xor_y(above_y64(v, w), held_y64(high)); /* w where v > w and the lane wants the smaller, or the reverse */
  return _mm256_blendv_epi8(v, w, swap);
}
SIMD Vec xor_y64(Vec a, Vec b) { return xor_y(a, b); }
SIMD Vec or_y64(Vec a, Vec b) { return _mm256_or_si256(a, b); }
SIMD Vec and_y64(Vec a, Vec b) { return _mm256_and_si256(a, b); }
/* 64-bit lane i ^ x is 32-bit lanes 2i ^ 2x and 2i + 1 ^ 2x */
SIMD Vec swizzle_y64(Vec v, int x) {
  return _mm256_permutevar8x32_epi32(v, xor_y(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(2 * x)));
}
SIMD Vec compress_low_y64(Vec v, unsigned m) { return permuted(v, compress_y64[0][m]); }
SIMD Vec compress_high_y64(Vec v, unsigned m) { return permuted(v, compress_y64[1][m]); }

#include "builtins/sort_simd_body.h"
#undef T
#undef LANES
#undef N

void rt_avx2_sort32(uint32_t *a, int64_t n, int32_t kind) {
  pthread_once(&tables_once, fill_tables);
  sort_y32(a, n, kind);
}

void rt_avx2_sort64(uint64_t *a, int64_t n, int32_t kind) {
  pthread_once(&tables_once, fill_tables);
  sort_y64(a, n, kind);
}

#else

void rt_avx2_sort32(uint32_t *a, int64_t n, int32_t kind) { (void)a, (void)n, (void)kind; }

void rt_avx2_sort64(uint64_t *a, int64_t n, int32_t kind) { (void)a, (void)n, (void)kind; }

#endif
