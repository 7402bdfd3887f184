/* builtins/sort_simd.c — numpy.sort in AVX-512 registers, where the
 * processor has them: sort_simd_body.h's quicksort on 16 keys of 4 bytes
 * or 8 of 8 bytes a register, and numpy.argsort's of 8-byte keys with
 * their indices; and the choice, made once, of the instruction set the
 * sorts use (AVX-512, AVX2 in sort_avx2.c, or none).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ruchey.h"

/* The host's best, or a lesser one named by RUCHEY_SORT_ISA ("avx512",
 * "avx2", "scalar"), so that every path can be checked on one machine;
 * chosen at the first sort, once for the process. */
static int32_t sort_isa = RT_SORT_SCALAR;
static pthread_once_t sort_isa_once = PTHREAD_ONCE_INIT;

static int32_t host_sort_isa(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (__builtin_cpu_supports("avx512f")) return RT_SORT_AVX512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt")) return RT_SORT_AVX2;
#endif
  return RT_SORT_SCALAR;
}

static void choose_sort_isa(void) {
  static const struct { const char *name; int32_t isa; } names[] = {
    {"scalar", RT_SORT_SCALAR}, {"avx2", RT_SORT_AVX2}, {"avx512", RT_SORT_AVX512}};
  int32_t host = host_sort_isa(), asked = host;
  const char *s = getenv("RUCHEY_SORT_ISA");
  for (size_t i = 0; s && i < sizeof names / sizeof names[0]; i++)
    if (strcmp(s, names[i].name) == 0) asked = names[i].isa;
  sort_isa = asked < host ? asked : host;
}

int32_t rt_sort_isa(void) {
  pthread_once(&sort_isa_once, choose_sort_isa);
  return sort_isa;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define SIMD __attribute__((target("avx512f"), always_inline)) static inline
#define SORT_FN __attribute__((target("avx512f"))) static
#define Vec __m512i

/* The register operations sort_simd_body.h asks for, on keys of bits
 * bits (Mask the mask of a register's lanes, iota its lane numbers). */
#define AVX512_OPS(bits, Mask, iota)                                                                         \
  SIMD Vec N(set1)(T x) { return _mm512_set1_epi##bits((long long)x); }                                      \
  SIMD Vec N(loadu)(const T *p) { return _mm512_loadu_si512(p); }                                            \
  SIMD void N(storeu)(T *p, Vec v) { _mm512_storeu_si512(p, v); }                                            \
  SIMD Vec N(load_or)(const T *p, unsigned m, Vec fill) { return _mm512_mask_loadu_epi##bits(fill, (Mask)m, p); } \
  SIMD void N(store_held)(T *p, unsigned m, Vec v) { _mm512_mask_storeu_epi##bits(p, (Mask)m, v); }          \
  SIMD Vec N(min)(Vec a, Vec b) { return _mm512_min_epu##bits(a, b); }                                       \
  SIMD Vec N(max)(Vec a, Vec b) { return _mm512_max_epu##bits(a, b); }                                       \
  SIMD unsigned N(below)(Vec a, Vec b) { return _mm512_cmplt_epu##bits##_mask(a, b); }                       \
  SIMD Vec N(min_max)(unsigned high, Vec v, Vec w) {                                                         \
    return _mm512_mask_max_epu##bits(_mm512_min_epu##bits(v, w), (Mask)high, v, w);                          \
  }                                                                                                          \
  SIMD Vec N(blend)(unsigned m, Vec a, Vec b) { return _mm512_mask_blend_epi##bits((Mask)m, a, b); }         \
  SIMD Vec N(xor)(Vec a, Vec b) { return _mm512_xor_si512(a, b); }                                           \
  SIMD Vec N(or)(Vec a, Vec b) { return _mm512_or_si512(a, b); }                                             \
  SIMD Vec N(and)(Vec a, Vec b) { return _mm512_and_si512(a, b); }                                           \
  SIMD Vec N(swizzle)(Vec v, int x) {                                                                        \
    return _mm512_permutexvar_epi##bits(_mm512_xor_si512(iota, _mm512_set1_epi##bits(x)), v);                \
  }                                                                                                          \
  SIMD Vec N(compress_low)(Vec v, unsigned m) { return _mm512_maskz_compress_epi##bits((Mask)m, v); }        \
  SIMD Vec N(compress_high)(Vec v, unsigned m) {                                                             \
    unsigned top = ((1u << LANES) - 1) & ~((1u << (LANES - __builtin_popcount(m))) - 1);                     \
    return _mm512_maskz_expand_epi##bits((Mask)top, N(compress_low)(v, m));                                  \
  }

#define T uint32_t
#define LANES 16
#define N(name) name##_z32
AVX512_OPS(32, __mmask16, _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0))
#include "builtins/sort_simd_body.h"
#undef T
#undef LANES
#undef N

#define T uint64_t
#define LANES 8
#define N(name) name##_z64
AVX512_OPS(64, __mmask8, _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0))
#include "builtins/sort_simd_body.h"

/* the n elements at a turned into keys */
SORT_FN void to_keys(uint64_t *a, int64_t n, int kind) {
  for (int64_t i = 0; i < n; i += LANES) {
    __mmask8 m = (__mmask8)lanes_held_z64(n - i, 0);
    _mm512_mask_storeu_epi64(a + i, m, to_key_z64(_mm512_maskz_loadu_epi64(m, a + i), kind));
  }
}

/* ---------------------------------------------------------------- argsort */

/* numpy.argsort's unstable kinds: the keys and their indices (a second
 * array) moved together, by the same partitions and networks as above,
 * each comparison's mask applied to both. */
typedef struct Pair {
  Vec key, index;
} Pair;

enum { PAIR_UNROLL = 4, PAIR_REGS = 8, PAIR_NETWORK = LANES * PAIR_REGS };

SIMD Pair pair_swizzled(Pair p, int x) { return (Pair){swizzle_z64(p.key, x), swizzle_z64(p.index, x)}; }

SIMD Pair pair_blend(__mmask8 m, Pair a, Pair b) {
  return (Pair){_mm512_mask_blend_epi64(m, a.key, b.key), _mm512_mask_blend_epi64(m, a.index, b.index)};
}

/* exchange_z64 of the keys, their indices moved with them */
SIMD Pair pair_exchange(Pair p, int x, unsigned high) {
  Pair w = pair_swizzled(p, x);
  __mmask8 take = (_mm512_cmplt_epu64_mask(w.key, p.key) & (__mmask8)~high) | (_mm512_cmpgt_epu64_mask(w.key, p.key) & high);
  return pair_blend(take, p, w);
}

SIMD Pair pair_reversed(Pair p) { return pair_swizzled(p, LANES - 1); }

/* clean_z64 and sort_register_z64 of pairs */
SIMD Pair pair_clean(Pair p) {
  for (int d = LANES / 2; d >= 1; d /= 2) p = pair_exchange(p, d, bit_lanes_z64(d));
  return p;
}

SIMD Pair pair_sort_register(Pair p) {
  for (int s = 2; s <= LANES; s *= 2) {
    p = pair_exchange(p, s - 1, bit_lanes_z64(s / 2));
    for (int d = s / 4; d >= 1; d /= 2) p = pair_exchange(p, d, bit_lanes_z64(d));
  }
  return p;
}

/* the smaller keys (with their indices) into *x, the larger into *y */
SIMD void pair_order(Pair *x, Pair *y) {
  __mmask8 swap = _mm512_cmplt_epu64_mask(y->key, x->key);
  Pair low = pair_blend(swap, *x, *y), high = pair_blend(swap, *y, *x);
  *x = low;
  *y = high;
}

SIMD void merge_pairs(Pair *r, int n) {
  for (int s = 1; s < n; s *= 2) {
    for (int g = 0; g < n; g += 2 * s)
      for (int j = 0; j < s; j++) {
        Pair x = r[g + j], y = pair_reversed(r[g + 2 * s - 1 - j]);
        pair_order(&x, &y);
        r[g + j] = x;
        r[g + 2 * s - 1 - j] = pair_reversed(y);
      }
    for (int d = s / 2; d >= 1; d /= 2)
      for (int g = 0; g < n; g += 2 * d)
        for (int j = 0; j < d; j++) pair_order(&r[g + j], &r[g + j + d]);
    for (int i = 0; i < n; i++) r[i] = pair_clean(r[i]);
  }
}

SIMD void sort_pairs_in_registers(uint64_t *k, int64_t *ix, int64_t n, int regs) {
  Pair r[PAIR_REGS];
  for (int i = 0; i < regs; i++) {
    __mmask8 m = (__mmask8)lanes_held_z64(n, i);
    r[i] = pair_sort_register((Pair){_mm512_mask_loadu_epi64(_mm512_set1_epi64((long long)UINT64_MAX), m, k + i * LANES),
                                     _mm512_maskz_loadu_epi64(m, ix + i * LANES)});
  }
  merge_pairs(r, regs);
  for (int i = 0; i < regs; i++) {
    _mm512_mask_storeu_epi64(k + i * LANES, (__mmask8)lanes_held_z64(n, i), r[i].key);
    _mm512_mask_storeu_epi64(ix + i * LANES, (__mmask8)lanes_held_z64(n, i), r[i].index);
  }
}

__attribute__((target("avx512f"))) static void pair_network(uint64_t *k, int64_t *ix, int64_t n) {
  if (n <= LANES) sort_pairs_in_registers(k, ix, n, 1);
  else if (n <= 2 * LANES) sort_pairs_in_registers(k, ix, n, 2);
  else if (n <= 4 * LANES) sort_pairs_in_registers(k, ix, n, 4);
  else sort_pairs_in_registers(k, ix, n, 8);
}

SIMD void split_pair(uint64_t *k, int64_t *ix, Pair v, __mmask8 valid, Vec pivot, bool inclusive, int64_t *left,
                     int64_t *right) {
  __mmask8 low = (inclusive ? _mm512_cmple_epu64_mask(v.key, pivot) : _mm512_cmplt_epu64_mask(v.key, pivot)) & valid;
  __mmask8 high = valid & (__mmask8)~low;
  _mm512_storeu_si512(k + *left, compress_low_z64(v.key, low));
  _mm512_storeu_si512(ix + *left, compress_low_z64(v.index, low));
  _mm512_storeu_si512(k + *right - LANES, compress_high_z64(v.key, high));
  _mm512_storeu_si512(ix + *right - LANES, compress_high_z64(v.index, high));
  *left += __builtin_popcount(low);
  *right -= __builtin_popcount(high);
}

SIMD Pair load_pair(const uint64_t *k, const int64_t *ix, int64_t at) {
  return (Pair){_mm512_loadu_si512(k + at), _mm512_loadu_si512(ix + at)};
}

/* partition()'s steps on n > 2 * PAIR_UNROLL * LANES pairs */
enum { PAIR_SCRATCH = (2 * PAIR_UNROLL + 3) * LANES };

SIMD int64_t partition_pairs(uint64_t *k, int64_t *ix, int64_t n, uint64_t p, bool inclusive) {
  Vec pivot = _mm512_set1_epi64((long long)p);
  Pair first[PAIR_UNROLL], last[PAIR_UNROLL];
  for (int u = 0; u < PAIR_UNROLL; u++) {
    first[u] = load_pair(k, ix, u * LANES);
    last[u] = load_pair(k, ix, n - (u + 1) * LANES);
  }
  int64_t l = PAIR_UNROLL * LANES, r = n - PAIR_UNROLL * LANES, wl = 0, wr = n;
  while (r - l >= PAIR_UNROLL * LANES) {
    bool from_left = l - wl <= wr - r;
    int64_t from = from_left ? l : r - LANES, step = from_left ? LANES : -LANES;
    if (from_left) l += PAIR_UNROLL * LANES;
    else r -= PAIR_UNROLL * LANES;
    for (int u = 0; u < PAIR_UNROLL; u++) split_pair(k, ix, load_pair(k, ix, from + u * step), 0xFF, pivot, inclusive, &wl, &wr);
  }
  while (r - l >= LANES) {
    int64_t from = l - wl <= wr - r ? l : r - LANES;
    Pair x = load_pair(k, ix, from);
    if (from == l) l += LANES;
    else r -= LANES;
    split_pair(k, ix, x, 0xFF, pivot, inclusive, &wl, &wr);
  }
  uint64_t sk[PAIR_SCRATCH];
  int64_t si[PAIR_SCRATCH], sl = 0, sr = PAIR_SCRATCH;
  __mmask8 rest = (__mmask8)lanes_held_z64(r - l, 0);
  Pair tail = {_mm512_maskz_loadu_epi64(rest, k + l), _mm512_maskz_loadu_epi64(rest, ix + l)};
  split_pair(sk, si, tail, rest, pivot, inclusive, &sl, &sr);
  for (int u = 0; u < PAIR_UNROLL; u++) {
    split_pair(sk, si, first[u], 0xFF, pivot, inclusive, &sl, &sr);
    split_pair(sk, si, last[u], 0xFF, pivot, inclusive, &sl, &sr);
  }
  memcpy(k + wl, sk, (size_t)sl * sizeof *k);
  memcpy(k + wl + sl, sk + sr, (size_t)(PAIR_SCRATCH - sr) * sizeof *k);
  memcpy(ix + wl, si, (size_t)sl * sizeof *ix);
  memcpy(ix + wl + sl, si + sr, (size_t)(PAIR_SCRATCH - sr) * sizeof *ix);
  return wl + sl;
}

static void sift_pairs(uint64_t *k, int64_t *ix, int64_t i, int64_t n) {
  uint64_t x = k[i];
  int64_t xi = ix[i];
  for (int64_t c; (c = 2 * i + 1) < n; i = c) {
    if (c + 1 < n && k[c + 1] > k[c]) c++;
    if (k[c] <= x) break;
    k[i] = k[c];
    ix[i] = ix[c];
  }
  k[i] = x;
  ix[i] = xi;
}

static void heapsort_pairs(uint64_t *k, int64_t *ix, int64_t n) {
  for (int64_t i = n / 2 - 1; i >= 0; i--) sift_pairs(k, ix, i, n);
  for (int64_t i = n - 1; i > 0; i--) {
    uint64_t t = k[0];
    int64_t ti = ix[0];
    k[0] = k[i];
    ix[0] = ix[i];
    k[i] = t;
    ix[i] = ti;
    sift_pairs(k, ix, 0, i);
  }
}

__attribute__((target("avx512f"))) static void quicksort_pairs(uint64_t *k, int64_t *ix, int64_t n, int depth) {
  while (n > PAIR_NETWORK) {
    if (depth-- == 0) {
      heapsort_pairs(k, ix, n);
      return;
    }
    uint64_t p = pivot_of_keys_z64(k, n);
    int64_t m = partition_pairs(k, ix, n, p, false);
    if (m == 0) {
      m = partition_pairs(k, ix, n, p, true);
      k += m, ix += m, n -= m;
      continue;
    }
    if (m < n - m) {
      quicksort_pairs(k, ix, m, depth);
      k += m, ix += m, n -= m;
    } else {
      quicksort_pairs(k + m, ix + m, n - m, depth);
      n = m;
    }
  }
  pair_network(k, ix, n);
}

void rt_simd_sort64(uint64_t *a, int64_t n, int32_t kind) {
  if (rt_sort_isa() == RT_SORT_AVX512) sort_z64(a, n, kind);
  else rt_avx2_sort64(a, n, kind);
}

void rt_simd_sort32(uint32_t *a, int64_t n, int32_t kind) {
  if (rt_sort_isa() == RT_SORT_AVX512) sort_z32(a, n, kind);
  else rt_avx2_sort32(a, n, kind);
}

void rt_simd_argsort64(const char *p, int64_t stride, int64_t n, int32_t kind, uint64_t *keys, int64_t *indices) {
  int depth = 0;
  for (int64_t m = n; m > 1; m >>= 1) depth += 2;
  for (int64_t i = 0; i < n; i++) {
    memcpy(&keys[i], p + i * stride, sizeof *keys);
    indices[i] = i;
  }
  to_keys(keys, n, kind);
  quicksort_pairs(keys, indices, n, depth);
}

#else

void rt_simd_sort64(uint64_t *a, int64_t n, int32_t kind) { (void)a, (void)n, (void)kind; }

void rt_simd_sort32(uint32_t *a, int64_t n, int32_t kind) { (void)a, (void)n, (void)kind; }

void rt_simd_argsort64(const char *p, int64_t stride, int64_t n, int32_t kind, uint64_t *keys, int64_t *indices) {
  (void)p, (void)stride, (void)n, (void)kind, (void)keys, (void)indices;
}

#endif
