/* builtins/sort_simd.c — numpy.sort of 8-byte elements in AVX-512
 * registers, where the processor has it: the elements as unsigned keys
 * that order as NumPy orders them (made as the first partition reads
 * them, turned back as the last step writes them), sorted by a quicksort
 * whose partitions write each vector's two sides compressed in registers,
 * and whose lanes of 128 keys or fewer are sorted by a bitonic network
 * in registers. Every pass over memory is sequential, where a radix
 * sort's scattered writes miss the TLB.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ruchey.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define SIMD __attribute__((target("avx512f"), always_inline)) static inline
#define MAX_KEY UINT64_MAX

enum { LANES = 8, UNROLL = 8, NETWORK_REGS = 16, NETWORK = LANES * NETWORK_REGS, KEYS = -1 };

/* lane i of n keys: which lanes hold keys */
static inline __mmask8 lanes_held(int64_t n, int i) {
  int64_t left = n - i * LANES;
  return left >= LANES ? 0xFF : left <= 0 ? 0 : (__mmask8)((1u << left) - 1);
}

typedef __m512i Vec;

/* The key of 8-byte elements of a SIMD_ kind: a float's sign bit flipped
 * (its other bits too where negative), every NaN the largest key; a
 * signed integer's sign bit flipped. And back, NaNs as one quiet NaN, as
 * NumPy's sort writes them. */
SIMD Vec to_key(Vec v, int kind) {
  Vec sign = _mm512_set1_epi64((long long)0x8000000000000000u), ones = _mm512_set1_epi64(-1);
  if (kind == SIMD_SIGNED) return _mm512_xor_si512(v, sign);
  if (kind != SIMD_FLOAT) return v;
  Vec magnitude = _mm512_and_si512(v, _mm512_set1_epi64(0x7FFFFFFFFFFFFFFF));
  __mmask8 negative = _mm512_cmpge_epu64_mask(v, sign);
  __mmask8 nan = _mm512_cmpgt_epu64_mask(magnitude, _mm512_set1_epi64(0x7FF0000000000000));
  v = _mm512_mask_blend_epi64(negative, _mm512_or_si512(v, sign), _mm512_xor_si512(v, ones));
  return _mm512_mask_blend_epi64(nan, v, ones);
}

SIMD Vec from_key(Vec v, int kind) {
  Vec sign = _mm512_set1_epi64((long long)0x8000000000000000u), ones = _mm512_set1_epi64(-1);
  if (kind == SIMD_SIGNED) return _mm512_xor_si512(v, sign);
  if (kind != SIMD_FLOAT) return v;
  __mmask8 positive = _mm512_cmpge_epu64_mask(v, sign), nan = _mm512_cmpeq_epu64_mask(v, ones);
  v = _mm512_mask_blend_epi64(positive, _mm512_xor_si512(v, ones), _mm512_and_si512(v, _mm512_set1_epi64(0x7FFFFFFFFFFFFFFF)));
  return _mm512_mask_blend_epi64(nan, v, _mm512_set1_epi64(0x7FF8000000000000));
}

/* the n elements at a turned into keys */
__attribute__((target("avx512f"))) static void to_keys(uint64_t *a, int64_t n, int kind) {
  for (int64_t i = 0; i < n; i += LANES) {
    __mmask8 m = lanes_held(n - i, 0);
    _mm512_mask_storeu_epi64(a + i, m, to_key(_mm512_maskz_loadu_epi64(m, a + i), kind));
  }
}

/* the n keys at a turned back into elements */
__attribute__((target("avx512f"))) static void from_keys(uint64_t *a, int64_t n, int kind) {
  for (int64_t i = 0; i < n; i += LANES) {
    __mmask8 m = lanes_held(n - i, 0);
    _mm512_mask_storeu_epi64(a + i, m, from_key(_mm512_maskz_loadu_epi64(m, a + i), kind));
  }
}

/* v with lane i and lane i ^ x compared: the smaller in the lane whose bit
 * in high is clear, the larger where set. */
SIMD Vec exchange(Vec v, int x, __mmask8 high) {
  Vec w = _mm512_permutexvar_epi64(_mm512_xor_si512(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(x)), v);
  return _mm512_mask_max_epu64(_mm512_min_epu64(v, w), high, v, w);
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

/* n <= 8 * regs keys sorted in regs registers, padded with the largest
 * key (regs a constant, so that the network unrolls) */
SIMD void sort_in_registers(uint64_t *a, int64_t n, int regs, int kind, bool raw) {
  Vec r[NETWORK_REGS], pad = _mm512_set1_epi64((long long)MAX_KEY);
  for (int i = 0; i < regs; i++) {
    Vec v = _mm512_maskz_loadu_epi64(lanes_held(n, i), a + i * LANES);
    r[i] = sort_register(_mm512_mask_blend_epi64(lanes_held(n, i), pad, raw ? to_key(v, kind) : v));
  }
  merge_registers(r, regs);
  for (int i = 0; i < regs; i++) _mm512_mask_storeu_epi64(a + i * LANES, lanes_held(n, i), from_key(r[i], kind));
}

/* n <= NETWORK keys (elements, where raw) sorted, written back as elements */
__attribute__((target("avx512f"))) static void sort_network(uint64_t *a, int64_t n, int kind, bool raw) {
  if (n <= LANES) sort_in_registers(a, n, 1, kind, raw);
  else if (n <= 2 * LANES) sort_in_registers(a, n, 2, kind, raw);
  else if (n <= 4 * LANES) sort_in_registers(a, n, 4, kind, raw);
  else if (n <= 8 * LANES) sort_in_registers(a, n, 8, kind, raw);
  else sort_in_registers(a, n, 16, kind, raw);
}

/* lanes [LANES - n, LANES): where a vector's last n keys go */
static inline __mmask8 top_lanes(int n) { return (__mmask8)(0xFF00u >> n); }

/* v's keys of mask in its first lanes (low), or in its last (!low) */
SIMD Vec packed(Vec v, __mmask8 mask, bool low) {
  Vec first = _mm512_maskz_compress_epi64(mask, v);
  return low ? first : _mm512_maskz_expand_epi64(top_lanes(__builtin_popcount(mask)), first);
}

/* The keys of v below the pivot (at most it, where inclusive) written at
 * *left upwards, the others below *right downwards. Each side is stored
 * as a whole vector (a compress store to memory is slow on some
 * processors, microcoded on AMD's): the caller leaves a vector's room on
 * both sides, which the lanes past the kept keys overwrite. */
SIMD void split_vector(uint64_t *a, Vec v, __mmask8 valid, Vec pivot, bool inclusive, int64_t *left, int64_t *right) {
  __mmask8 low = (inclusive ? _mm512_cmple_epu64_mask(v, pivot) : _mm512_cmplt_epu64_mask(v, pivot)) & valid;
  __mmask8 high = valid & (__mmask8)~low;
  _mm512_storeu_si512(a + *left, packed(v, low, true));
  _mm512_storeu_si512(a + *right - LANES, packed(v, high, false));
  *left += __builtin_popcount(low);
  *right -= __builtin_popcount(high);
}

/* the vector at a as keys: made from elements of raw_kind (or KEYS) */
SIMD Vec load_key(const uint64_t *a, int raw_kind) {
  Vec v = _mm512_loadu_si512(a);
  return raw_kind == KEYS ? v : to_key(v, raw_kind);
}

/* The n > 2 * UNROLL * LANES keys of a partitioned in place around
 * pivot: returns how many went left. The first and last UNROLL vectors
 * wait in registers; each step takes UNROLL vectors from the side with
 * less room written, inwards (the other has at least UNROLL vectors'
 * room), so that every split has a vector's room on both sides. The
 * last keys (the tail, the vectors that waited) are split into scratch,
 * which has that room, and copied into the gap they leave. */
enum { SCRATCH = (2 * UNROLL + 3) * LANES };

SIMD int64_t partition(uint64_t *a, int64_t n, uint64_t p, bool inclusive, int raw_kind) {
  Vec pivot = _mm512_set1_epi64((long long)p), first[UNROLL], last[UNROLL];
  for (int u = 0; u < UNROLL; u++) {
    first[u] = load_key(a + u * LANES, raw_kind);
    last[u] = load_key(a + n - (u + 1) * LANES, raw_kind);
  }
  int64_t l = UNROLL * LANES, r = n - UNROLL * LANES, wl = 0, wr = n;
  while (r - l >= UNROLL * LANES) {
    bool from_left = l - wl <= wr - r;
    int64_t from = from_left ? l : r - LANES, step = from_left ? LANES : -LANES;
    if (from_left) l += UNROLL * LANES;
    else r -= UNROLL * LANES;
    for (int u = 0; u < UNROLL; u++) split_vector(a, load_key(a + from + u * step, raw_kind), 0xFF, pivot, inclusive, &wl, &wr);
  }
  while (r - l >= LANES) {
    int64_t from = l - wl <= wr - r ? l : r - LANES;
    Vec x = load_key(a + from, raw_kind);
    if (from == l) l += LANES;
    else r -= LANES;
    split_vector(a, x, 0xFF, pivot, inclusive, &wl, &wr);
  }
  uint64_t scratch[SCRATCH];
  int64_t sl = 0, sr = SCRATCH;
  __mmask8 rest = (__mmask8)((1u << (r - l)) - 1);
  Vec tail = _mm512_maskz_loadu_epi64(rest, a + l);
  split_vector(scratch, raw_kind == KEYS ? tail : to_key(tail, raw_kind), rest, pivot, inclusive, &sl, &sr);
  for (int u = 0; u < UNROLL; u++) {
    split_vector(scratch, first[u], 0xFF, pivot, inclusive, &sl, &sr);
    split_vector(scratch, last[u], 0xFF, pivot, inclusive, &sl, &sr);
  }
  memcpy(a + wl, scratch, (size_t)sl * sizeof *a);
  memcpy(a + wl + sl, scratch + sr, (size_t)(SCRATCH - sr) * sizeof *a);
  return wl + sl;
}

/* the median of eight keys spread over a */
SIMD uint64_t choose_pivot(const uint64_t *a, int64_t n, int raw_kind) {
  int64_t s = n / 8;
  Vec v = _mm512_set_epi64((long long)a[7 * s + s / 2], (long long)a[6 * s + s / 2], (long long)a[5 * s + s / 2],
                           (long long)a[4 * s + s / 2], (long long)a[3 * s + s / 2], (long long)a[2 * s + s / 2],
                           (long long)a[s + s / 2], (long long)a[s / 2]);
  uint64_t sorted[LANES];
  _mm512_storeu_si512(sorted, sort_register(raw_kind == KEYS ? v : to_key(v, raw_kind)));
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
 * progress. The smaller side recurses, the larger loops. Elements of kind
 * at a become keys in the first partition (raw); every key is written
 * back as an element where its place is final. */
__attribute__((target("avx512f"))) static void quicksort(uint64_t *a, int64_t n, int depth, int kind, bool raw) {
  while (n > NETWORK) {
    if (depth-- == 0) { /* never at the first step, which reads elements */
      heapsort_keys(a, n);
      from_keys(a, n, kind);
      return;
    }
    uint64_t p = choose_pivot(a, n, raw ? kind : KEYS);
    int64_t k = raw ? partition(a, n, p, false, kind) : partition(a, n, p, false, KEYS);
    raw = false;
    if (k == 0) {
      k = partition(a, n, p, true, KEYS);
      from_keys(a, k, kind);
      a += k;
      n -= k;
      continue;
    }
    if (k < n - k) {
      quicksort(a, k, depth, kind, false);
      a += k;
      n -= k;
    } else {
      quicksort(a + k, n - k, depth, kind, false);
      n = k;
    }
  }
  sort_network(a, n, kind, raw);
}

/* ---------------------------------------------------------------- argsort */

/* numpy.argsort's unstable kinds: the keys and their indices (a second
 * array) moved together, by the same partitions and networks as above,
 * each comparison's mask applied to both. */
typedef struct Pair {
  Vec key, index;
} Pair;

enum { PAIR_UNROLL = 4, PAIR_REGS = 8, PAIR_NETWORK = LANES * PAIR_REGS };

SIMD Pair pair_permuted(Pair p, Vec order) {
  return (Pair){_mm512_permutexvar_epi64(order, p.key), _mm512_permutexvar_epi64(order, p.index)};
}

SIMD Pair pair_blend(__mmask8 m, Pair a, Pair b) {
  return (Pair){_mm512_mask_blend_epi64(m, a.key, b.key), _mm512_mask_blend_epi64(m, a.index, b.index)};
}

SIMD Pair pair_exchange(Pair p, int x, __mmask8 high) {
  Pair w = pair_permuted(p, _mm512_xor_si512(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(x)));
  __mmask8 take = (_mm512_cmplt_epu64_mask(w.key, p.key) & (__mmask8)~high) | (_mm512_cmpgt_epu64_mask(w.key, p.key) & high);
  return pair_blend(take, p, w);
}

SIMD Pair pair_reversed(Pair p) { return pair_permuted(p, _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7)); }

SIMD Pair pair_clean(Pair p) { return pair_exchange(pair_exchange(pair_exchange(p, 4, 0xF0), 2, 0xCC), 1, 0xAA); }

SIMD Pair pair_sort_register(Pair p) {
  p = pair_exchange(p, 1, 0xAA);
  p = pair_exchange(pair_exchange(p, 3, 0xCC), 1, 0xAA);
  return pair_clean(pair_exchange(p, 7, 0xF0));
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
    __mmask8 m = lanes_held(n, i);
    r[i] = pair_sort_register((Pair){_mm512_mask_loadu_epi64(_mm512_set1_epi64((long long)MAX_KEY), m, k + i * LANES),
                                     _mm512_maskz_loadu_epi64(m, ix + i * LANES)});
  }
  merge_pairs(r, regs);
  for (int i = 0; i < regs; i++) {
    _mm512_mask_storeu_epi64(k + i * LANES, lanes_held(n, i), r[i].key);
    _mm512_mask_storeu_epi64(ix + i * LANES, lanes_held(n, i), r[i].index);
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
  _mm512_storeu_si512(k + *left, packed(v.key, low, true));
  _mm512_storeu_si512(ix + *left, packed(v.index, low, true));
  _mm512_storeu_si512(k + *right - LANES, packed(v.key, high, false));
  _mm512_storeu_si512(ix + *right - LANES, packed(v.index, high, false));
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
  __mmask8 rest = (__mmask8)((1u << (r - l)) - 1);
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
    uint64_t p = choose_pivot(k, n, KEYS);
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

bool rt_simd_sort_ready(void) { return __builtin_cpu_supports("avx512f"); }

void rt_simd_sort64(uint64_t *a, int64_t n, int32_t kind) {
  int depth = 0;
  for (int64_t m = n; m > 1; m >>= 1) depth += 2;
  quicksort(a, n, depth, kind, true);
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

bool rt_simd_sort_ready(void) { return false; }

void rt_simd_argsort64(const char *p, int64_t stride, int64_t n, int32_t kind, uint64_t *keys, int64_t *indices) {
  (void)p, (void)stride, (void)n, (void)kind, (void)keys, (void)indices;
}

void rt_simd_sort64(uint64_t *a, int64_t n, int32_t kind) {
  (void)a;
  (void)n;
  (void)kind;
}

#endif
