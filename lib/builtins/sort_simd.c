/* builtins/sort_simd.c — the unstable sort of 64-bit keys in AVX-512
 * registers, for numpy.sort's default kind on 8-byte elements where the
 * processor has AVX-512 (sorting.c turns the elements into unsigned keys
 * and back). A quicksort whose partitions write each vector's two sides
 * with compress stores, and whose lanes of 128 keys or fewer are sorted
 * by a bitonic network in registers: every pass over memory is
 * sequential, where a radix sort's scattered writes miss the TLB.
 */
#include <stdbool.h>
#include <stdint.h>

#include "builtins/builtins.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define SIMD __attribute__((target("avx512f"), always_inline)) static inline
#define MAX_KEY UINT64_MAX

enum { LANES = 8, UNROLL = 8, NETWORK_REGS = 16, NETWORK = LANES * NETWORK_REGS };

typedef __m512i Vec;

/* v with lane i and lane i ^ x compared: the smaller in the lane whose bit
 * in high is clear, the larger where set. */
SIMD Vec exchange(Vec v, int x, __mmask8 high) {
  Vec w = _mm512_permutexvar_epi64(_mm512_xor_si512(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(x)), v);
  return _mm512_mask_blend_epi64(high, _mm512_min_epu64(v, w), _mm512_max_epu64(v, w));
}

SIMD Vec reversed(Vec v) { return _mm512_permutexvar_epi64(_mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7), v); }

/* a bitonic lane (both halves sorted, the second reversed in place by the
 * flips before) sorted: distances 4, 2, 1 */
SIMD Vec clean(Vec v) { return exchange(exchange(exchange(v, 4, 0xF0), 2, 0xCC), 1, 0xAA); }

SIMD Vec sort_register(Vec v) {
  v = exchange(v, 1, 0xAA);
  v = exchange(exchange(v, 3, 0xCC), 1, 0xAA);
  return clean(exchange(v, 7, 0xF0));
}

/* n (a power of two) sorted registers as one sorted run of 8n keys: the
 * bitonic merge of runs of s registers into runs of 2s, s = 1, 2, 4... */
SIMD void merge_registers(Vec *r, int n) {
  for (int s = 1; s < n; s *= 2) {
    for (int g = 0; g < n; g += 2 * s)
      for (int j = 0; j < s; j++) {
        Vec x = r[g + j], y = reversed(r[g + 2 * s - 1 - j]);
        r[g + j] = _mm512_min_epu64(x, y);
        r[g + 2 * s - 1 - j] = reversed(_mm512_max_epu64(x, y));
      }
    for (int d = s / 2; d >= 1; d /= 2)
      for (int g = 0; g < n; g += 2 * d)
        for (int j = 0; j < d; j++) {
          Vec x = r[g + j], y = r[g + j + d];
          r[g + j] = _mm512_min_epu64(x, y);
          r[g + j + d] = _mm512_max_epu64(x, y);
        }
    for (int i = 0; i < n; i++) r[i] = clean(r[i]);
  }
}

/* lane i of n keys: which lanes hold keys */
static inline __mmask8 lanes_held(int64_t n, int i) {
  int64_t left = n - i * LANES;
  return left >= LANES ? 0xFF : left <= 0 ? 0 : (__mmask8)((1u << left) - 1);
}

/* n <= 8 * regs keys sorted in regs registers, padded with the largest
 * key (regs a constant, so that the network unrolls) */
SIMD void sort_in_registers(uint64_t *a, int64_t n, int regs) {
  Vec r[NETWORK_REGS];
  for (int i = 0; i < regs; i++)
    r[i] = sort_register(_mm512_mask_loadu_epi64(_mm512_set1_epi64((long long)MAX_KEY), lanes_held(n, i), a + i * LANES));
  merge_registers(r, regs);
  for (int i = 0; i < regs; i++) _mm512_mask_storeu_epi64(a + i * LANES, lanes_held(n, i), r[i]);
}

__attribute__((target("avx512f"))) static void sort_network(uint64_t *a, int64_t n) {
  if (n <= LANES) sort_in_registers(a, n, 1);
  else if (n <= 2 * LANES) sort_in_registers(a, n, 2);
  else if (n <= 4 * LANES) sort_in_registers(a, n, 4);
  else if (n <= 8 * LANES) sort_in_registers(a, n, 8);
  else sort_in_registers(a, n, 16);
}

/* The keys of v below the pivot (at most it, where inclusive) written at
 * *left upwards, the others below *right downwards. */
SIMD void split_vector(uint64_t *a, Vec v, __mmask8 valid, Vec pivot, bool inclusive, int64_t *left, int64_t *right) {
  __mmask8 low = (inclusive ? _mm512_cmple_epu64_mask(v, pivot) : _mm512_cmplt_epu64_mask(v, pivot)) & valid;
  __mmask8 high = valid & (__mmask8)~low;
  int nl = __builtin_popcount(low), nh = __builtin_popcount(high);
  _mm512_mask_compressstoreu_epi64(a + *left, low, v);
  *left += nl;
  *right -= nh;
  _mm512_mask_compressstoreu_epi64(a + *right, high, v);
}

/* The n > 2 * UNROLL * LANES keys of a partitioned in place around
 * pivot: returns how many went left. The first and last UNROLL vectors
 * wait in registers; each step reads UNROLL vectors from the side with
 * less room written, so that writes never pass the reads. */
SIMD int64_t partition(uint64_t *a, int64_t n, uint64_t p, bool inclusive) {
  Vec pivot = _mm512_set1_epi64((long long)p), first[UNROLL], last[UNROLL], v[UNROLL];
  for (int u = 0; u < UNROLL; u++) {
    first[u] = _mm512_loadu_si512(a + u * LANES);
    last[u] = _mm512_loadu_si512(a + n - (u + 1) * LANES);
  }
  int64_t l = UNROLL * LANES, r = n - UNROLL * LANES, wl = 0, wr = n;
  while (r - l >= UNROLL * LANES) {
    int64_t from = l - wl <= wr - r ? l : r - UNROLL * LANES;
    for (int u = 0; u < UNROLL; u++) v[u] = _mm512_loadu_si512(a + from + u * LANES);
    if (from == l) l += UNROLL * LANES;
    else r -= UNROLL * LANES;
    for (int u = 0; u < UNROLL; u++) split_vector(a, v[u], 0xFF, pivot, inclusive, &wl, &wr);
  }
  while (r - l >= LANES) {
    int64_t from = l - wl <= wr - r ? l : r - LANES;
    Vec x = _mm512_loadu_si512(a + from);
    if (from == l) l += LANES;
    else r -= LANES;
    split_vector(a, x, 0xFF, pivot, inclusive, &wl, &wr);
  }
  __mmask8 rest = (__mmask8)((1u << (r - l)) - 1);
  split_vector(a, _mm512_maskz_loadu_epi64(rest, a + l), rest, pivot, inclusive, &wl, &wr);
  for (int u = 0; u < UNROLL; u++) {
    split_vector(a, first[u], 0xFF, pivot, inclusive, &wl, &wr);
    split_vector(a, last[u], 0xFF, pivot, inclusive, &wl, &wr);
  }
  return wl;
}

/* the median of eight keys spread over a */
SIMD uint64_t choose_pivot(const uint64_t *a, int64_t n) {
  int64_t s = n / 8;
  Vec v = _mm512_set_epi64((long long)a[7 * s + s / 2], (long long)a[6 * s + s / 2], (long long)a[5 * s + s / 2],
                           (long long)a[4 * s + s / 2], (long long)a[3 * s + s / 2], (long long)a[2 * s + s / 2],
                           (long long)a[s + s / 2], (long long)a[s / 2]);
  uint64_t sorted[LANES];
  _mm512_storeu_si512(sorted, sort_register(v));
  return sorted[4];
}

/* the heapsort that bounds a quicksort gone quadratic */
static void sift_down(uint64_t *a, int64_t i, int64_t n) {
  uint64_t x = a[i];
  for (int64_t c; (c = 2 * i + 1) < n; i = c) {
    if (c + 1 < n && a[c + 1] > a[c]) c++;
    if (a[c] <= x) break;
    a[i] = a[c];
  }
  a[i] = x;
}

static void heapsort_keys(uint64_t *a, int64_t n) {
  for (int64_t i = n / 2 - 1; i >= 0; i--) sift_down(a, i, n);
  for (int64_t i = n - 1; i > 0; i--) {
    uint64_t t = a[0];
    a[0] = a[i];
    a[i] = t;
    sift_down(a, 0, i);
  }
}

/* A pivot that is the smallest key sends nothing left; the keys equal to
 * it are then split off (the inclusive partition), so every step makes
 * progress. The smaller side recurses, the larger loops. */
__attribute__((target("avx512f"))) static void quicksort(uint64_t *a, int64_t n, int depth) {
  while (n > NETWORK) {
    if (depth-- == 0) {
      heapsort_keys(a, n);
      return;
    }
    uint64_t p = choose_pivot(a, n);
    int64_t k = partition(a, n, p, false);
    if (k == 0) {
      k = partition(a, n, p, true);
      a += k;
      n -= k;
      continue;
    }
    if (k < n - k) {
      quicksort(a, k, depth);
      a += k;
      n -= k;
    } else {
      quicksort(a + k, n - k, depth);
      n = k;
    }
  }
  sort_network(a, n);
}

bool rt_simd_sort_ready(void) { return __builtin_cpu_supports("avx512f"); }

void rt_simd_sort_keys64(uint64_t *a, int64_t n) {
  int depth = 0;
  for (int64_t m = n; m > 1; m >>= 1) depth += 2;
  quicksort(a, n, depth);
}

#else

bool rt_simd_sort_ready(void) { return false; }

void rt_simd_sort_keys64(uint64_t *a, int64_t n) {
  (void)a;
  (void)n;
}

#endif
