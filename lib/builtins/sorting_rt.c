/* builtins/sorting_rt.c — numpy.sort, argsort, partition and unique at run
 * time: the keys, the merge and radix sorts, the lanes of an axis; see
 * sorting.c for their typers and lowerers.
 */
#include <stdlib.h>
#include <string.h>

#include "ruchey.h"

/* The keys: unsigned integers that order as NumPy orders the elements. A
 * float's sign bit flipped (its other bits too where negative); NaN the
 * largest, -0.0 the key of 0.0. */
static inline uint64_t key_u(uint64_t v) { return v; }
static inline uint64_t key_i8(int8_t v) { return (uint8_t)v ^ 0x80u; }
static inline uint64_t key_i16(int16_t v) { return (uint16_t)v ^ 0x8000u; }
static inline uint64_t key_i32(int32_t v) { return (uint32_t)v ^ 0x80000000u; }
static inline uint64_t key_i64(int64_t v) { return (uint64_t)v ^ 0x8000000000000000u; }

static inline uint64_t key_f32(float v) {
  if (v != v) return UINT32_MAX;
  v += 0.0f;
  uint32_t b;
  memcpy(&b, &v, sizeof b);
  return b >> 31 ? (uint32_t)~b : b | 0x80000000u;
}

static inline uint64_t key_f64(double v) {
  if (v != v) return UINT64_MAX;
  v += 0.0;
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b >> 63 ? ~b : b | 0x8000000000000000u;
}

/* argsort's elements: a key and the index it came from */
typedef struct Keyed {
  uint64_t key;
  int64_t index;
} Keyed;

static inline uint64_t key_keyed(Keyed k) { return k.key; }

enum { MERGE_RUN = 16 };

/* Stable sorts of n elements of type T by KEY (a key of width bits): an
 * insertion sort for runs, a top-down merge sort (tmp: n/2 elements),
 * and an LSD radix sort on 11 (8 for narrow keys) bits at a time (tmp: n
 * elements), which skips a digit all the keys share. */
#define STABLE_SORTS(name, T, width, KEY)                                                            \
  static void insertion_##name(T *v, int64_t n) {                                                    \
    for (int64_t i = 1; i < n; i++) {                                                                \
      T x = v[i];                                                                                    \
      uint64_t k = KEY(x);                                                                           \
      int64_t j = i;                                                                                 \
      for (; j > 0 && k < KEY(v[j - 1]); j--) v[j] = v[j - 1];                                       \
      v[j] = x;                                                                                      \
    }                                                                                                \
  }                                                                                                  \
  static void merge_##name(T *v, T *tmp, int64_t n) {                                                \
    if (n <= MERGE_RUN) {                                                                            \
      insertion_##name(v, n);                                                                        \
      return;                                                                                        \
    }                                                                                                \
    int64_t h = n / 2, i = 0, j = h, o = 0;                                                          \
    merge_##name(v, tmp, h);                                                                         \
    merge_##name(v + h, tmp, n - h);                                                                 \
    if (KEY(v[h - 1]) <= KEY(v[h])) return;                                                          \
    memcpy(tmp, v, (size_t)h * sizeof(T));                                                           \
    while (i < h && j < n) v[o++] = KEY(v[j]) < KEY(tmp[i]) ? v[j++] : tmp[i++];                     \
    while (i < h) v[o++] = tmp[i++];                                                                 \
  }                                                                                                  \
  static bool radix_##name(T *v, T *tmp, int64_t n) {                                                \
    enum { D = (width) > 16 ? 11 : 8, PASSES = ((width) + D - 1) / D, BUCKETS = 1 << D };            \
    int64_t (*count)[BUCKETS] = calloc(PASSES, sizeof *count);                                       \
    if (!count) return false;                                                                        \
    for (int64_t i = 0; i < n; i++) {                                                                \
      uint64_t k = KEY(v[i]);                                                                        \
      for (int p = 0; p < PASSES; p++) count[p][(k >> (p * D)) & (BUCKETS - 1)]++;                   \
    }                                                                                                \
    T *src = v, *dst = tmp;                                                                          \
    for (int p = 0; p < PASSES; p++) {                                                               \
      int64_t *c = count[p], at = 0;                                                                 \
      if (c[(KEY(src[0]) >> (p * D)) & (BUCKETS - 1)] == n) continue;                                \
      for (int b = 0; b < BUCKETS; b++) {                                                            \
        int64_t m = c[b];                                                                            \
        c[b] = at;                                                                                   \
        at += m;                                                                                     \
      }                                                                                              \
      for (int64_t i = 0; i < n; i++) dst[c[(KEY(src[i]) >> (p * D)) & (BUCKETS - 1)]++] = src[i];  \
      T *s = src;                                                                                    \
      src = dst;                                                                                     \
      dst = s;                                                                                       \
    }                                                                                                \
    if (src != v) memcpy(v, src, (size_t)n * sizeof(T));                                             \
    free(count);                                                                                     \
    return true;                                                                                     \
  }                                                                                                  \
  static bool sort_##name(T *v, T *tmp, int64_t n) {                                                 \
    if (n < 1024) {                                                                                  \
      merge_##name(v, tmp, n);                                                                       \
      return true;                                                                                   \
    }                                                                                                \
    return radix_##name(v, tmp, n);                                                                  \
  }

/* A lane of one element type sorted in place by SORT (through buf where
 * strided). */
#define LANE(name, T, SORT)                                                                          \
  static bool lane_##name(char *p, int64_t stride, int64_t n, void *buf, void *tmp) {                \
    T *v = stride == (int64_t)sizeof(T) ? (T *)p : buf;                                              \
    if (v == buf)                                                                                    \
      for (int64_t i = 0; i < n; i++) memcpy(&v[i], p + i * stride, sizeof(T));                      \
    bool ok = SORT(v, tmp, n);                                                                       \
    if (v == buf)                                                                                    \
      for (int64_t i = 0; i < n; i++) memcpy(p + i * stride, &v[i], sizeof(T));                      \
    return ok;                                                                                       \
  }

/* One element type: its sorts, and a lane of it sorted */
#define ELEMENT(name, T, KEY)                                                                        \
  STABLE_SORTS(name, T, 8 * sizeof(T), KEY)                                                          \
  LANE(name, T, sort_##name)

/* The unstable sort Numba's compiled code gives (kind="quicksort", the
 * default), whose order of equal elements its users' results hold: a
 * range of 16 elements or more is partitioned around the median of its
 * first, middle and last elements (ordered by three compare-and-swaps),
 * the pivot kept at the end meanwhile; two indices move inwards, each
 * stopping at an element not on its side (an element equal to the pivot
 * stops both), and swap what stopped them; where they meet the pivot
 * goes. Shorter ranges get the insertion sort above. Sorts n elements of
 * v in place (tmp unused: the signature of the other sorts).
 *
 * The k-th swap exchanges the k-th element from the left not below the
 * pivot with the k-th from the right not above it, as long as the first
 * lies left of the second. While the unscanned middle holds two blocks,
 * the stoppers of a block at each end are found without branches (their
 * offsets noted) and swapped in pairs, leftovers kept for the next block
 * (BlockQuicksort's partition, the same swaps); the scalar loop then
 * goes on from after the last pair swapped. */
enum { QUICKSORT_RUN = 16, QUICKSORT_BLOCK = 64 };

#define QUICKSORT(name, T, KEY)                                                                      \
  static inline void swap_##name(T *a, T *b) {                                                       \
    T t = *a;                                                                                        \
    *a = *b;                                                                                         \
    *b = t;                                                                                          \
  }                                                                                                  \
  static void block_swaps_##name(T *v, int64_t *i, int64_t *j, uint64_t pivot) {                     \
    enum { B = QUICKSORT_BLOCK };                                                                    \
    uint8_t left[B], right[B];                                                                       \
    int64_t nl = 0, nr = 0, sl = 0, sr = 0, bl = 0, br = 0, next_l = *i, next_r = *j;                \
    int64_t last_l = *i - 1, last_r = *j + 1;                                                        \
    while (next_r - next_l + 1 >= 2 * B) {                                                           \
      if (nl == 0) {                                                                                 \
        sl = 0, bl = next_l, next_l += B;                                                            \
        for (int t = 0; t < B; t++) left[nl] = (uint8_t)t, nl += !(KEY(v[bl + t]) < pivot);          \
      }                                                                                              \
      if (nr == 0) {                                                                                 \
        sr = 0, br = next_r, next_r -= B;                                                            \
        for (int t = 0; t < B; t++) right[nr] = (uint8_t)t, nr += !(pivot < KEY(v[br - t]));         \
      }                                                                                              \
      int64_t m = nl < nr ? nl : nr;                                                                 \
      for (int64_t k = 0; k < m; k++) swap_##name(&v[bl + left[sl + k]], &v[br - right[sr + k]]);    \
      if (m) last_l = bl + left[sl + m - 1], last_r = br - right[sr + m - 1];                        \
      nl -= m, nr -= m, sl += m, sr += m;                                                            \
    }                                                                                                \
    *i = last_l + 1, *j = last_r - 1;                                                                \
  }                                                                                                  \
  static int64_t partition_##name(T *v, int64_t lo, int64_t hi) {                                    \
    int64_t mid = (lo + hi) >> 1;                                                                    \
    if (KEY(v[mid]) < KEY(v[lo])) swap_##name(&v[lo], &v[mid]);                                      \
    if (KEY(v[hi]) < KEY(v[mid])) swap_##name(&v[hi], &v[mid]);                                      \
    if (KEY(v[mid]) < KEY(v[lo])) swap_##name(&v[lo], &v[mid]);                                      \
    uint64_t pivot = KEY(v[mid]);                                                                    \
    swap_##name(&v[mid], &v[hi]);                                                                    \
    int64_t i = lo, j = hi - 1;                                                                      \
    block_swaps_##name(v, &i, &j, pivot);                                                            \
    for (;;) {                                                                                       \
      while (i < hi && KEY(v[i]) < pivot) i++;                                                       \
      while (j >= lo && pivot < KEY(v[j])) j--;                                                      \
      if (i >= j) break;                                                                             \
      swap_##name(&v[i++], &v[j--]);                                                                 \
    }                                                                                                \
    swap_##name(&v[i], &v[hi]);                                                                      \
    return i;                                                                                        \
  }                                                                                                  \
  static bool quicksort_##name(T *v, T *tmp, int64_t n) {                                            \
    while (n >= QUICKSORT_RUN) {                                                                     \
      int64_t p = partition_##name(v, 0, n - 1);                                                     \
      if (p < n - 1 - p) {                                                                           \
        quicksort_##name(v, tmp, p);                                                                 \
        v += p + 1;                                                                                  \
        n -= p + 1;                                                                                  \
      } else {                                                                                       \
        quicksort_##name(v + p + 1, tmp, n - 1 - p);                                                 \
        n = p;                                                                                       \
      }                                                                                              \
    }                                                                                                \
    insertion_##name(v, n);                                                                          \
    return true;                                                                                     \
  }

/* Integers of 1 or 2 bytes in a lane long beside their range: counted,
 * then each value written as often as it came (every kind's result:
 * equal integers are alike); the key's inverse is the key xor the key
 * of 0. */
#define SMALL_ELEMENT(name, T, KEY)                                                                  \
  STABLE_SORTS(name, T, 8 * sizeof(T), KEY)                                                          \
  static bool counted_##name(T *v, T *tmp, int64_t n) {                                              \
    enum { VALUES = 1 << (8 * sizeof(T)) };                                                          \
    if (n < VALUES / 4) return sort_##name(v, tmp, n);                                               \
    int64_t *count = calloc(VALUES, sizeof *count);                                                  \
    if (!count) return false;                                                                        \
    for (int64_t i = 0; i < n; i++) count[KEY(v[i])]++;                                              \
    uint64_t flip = KEY((T)0);                                                                       \
    for (int64_t k = 0, at = 0; k < VALUES; k++)                                                     \
      for (int64_t c = count[k]; c > 0; c--) v[at++] = (T)((uint64_t)k ^ flip);                      \
    free(count);                                                                                     \
    return true;                                                                                     \
  }                                                                                                  \
  LANE(name, T, counted_##name)

/* argsort's elements: a lane's keys with their indices (of 8 bytes, or a
 * lane too long to pack) */
#define KEYED(name, T, KEY)                                                                          \
  static void keys_##name(const char *p, int64_t stride, int64_t n, Keyed *out) {                   \
    for (int64_t i = 0; i < n; i++) {                                                                \
      T x;                                                                                           \
      memcpy(&x, p + i * stride, sizeof x);                                                          \
      out[i] = (Keyed){KEY(x), i};                                                                   \
    }                                                                                                \
  }

/* argsort's elements of 4 bytes or fewer (lanes shorter than 2^32): each
 * key above its index in one 8-byte word */
#define PACKED(name, T, KEY)                                                                         \
  static void packed_##name(const char *p, int64_t stride, int64_t n, uint64_t *out) {               \
    for (int64_t i = 0; i < n; i++) {                                                                \
      T x;                                                                                           \
      memcpy(&x, p + i * stride, sizeof x);                                                          \
      out[i] = KEY(x) << 32 | (uint64_t)i;                                                           \
    }                                                                                                \
  }

static inline uint64_t key_word(uint64_t w) { return w >> 32; }

SMALL_ELEMENT(i8, int8_t, key_i8)
SMALL_ELEMENT(i16, int16_t, key_i16)
ELEMENT(i32, int32_t, key_i32)
ELEMENT(i64, int64_t, key_i64)
SMALL_ELEMENT(u8, uint8_t, key_u)
SMALL_ELEMENT(u16, uint16_t, key_u)
ELEMENT(u32, uint32_t, key_u)
ELEMENT(u64, uint64_t, key_u)
ELEMENT(f32, float, key_f32)
ELEMENT(f64, double, key_f64)
QUICKSORT(f32, float, key_f32)
QUICKSORT(f64, double, key_f64)
LANE(quick_f32, float, quicksort_f32)
LANE(quick_f64, double, quicksort_f64)
KEYED(i8, int8_t, key_i8)
KEYED(i16, int16_t, key_i16)
KEYED(i32, int32_t, key_i32)
KEYED(i64, int64_t, key_i64)
KEYED(u8, uint8_t, key_u)
KEYED(u16, uint16_t, key_u)
KEYED(u32, uint32_t, key_u)
KEYED(u64, uint64_t, key_u)
KEYED(f32, float, key_f32)
KEYED(f64, double, key_f64)
PACKED(i8, int8_t, key_i8)
PACKED(i16, int16_t, key_i16)
PACKED(i32, int32_t, key_i32)
PACKED(u8, uint8_t, key_u)
PACKED(u16, uint16_t, key_u)
PACKED(u32, uint32_t, key_u)
PACKED(f32, float, key_f32)
STABLE_SORTS(keyed64, Keyed, 64, key_keyed)
STABLE_SORTS(words8, uint64_t, 8, key_word)
STABLE_SORTS(words16, uint64_t, 16, key_word)
STABLE_SORTS(words32, uint64_t, 32, key_word)
QUICKSORT(keyed64, Keyed, key_keyed)
QUICKSORT(words8, uint64_t, key_word)
QUICKSORT(words16, uint64_t, key_word)
QUICKSORT(words32, uint64_t, key_word)

/* What the run-time sorts know of a dtype: its lanes sorted; its SIMD_
 * kind in the vector sorts (NO_SIMD: 1 and 2 bytes, which they take
 * not); argsort's keys and indices (keyed, sorted by sort_keyed64; of 4
 * bytes or fewer packed into words, sorted by sort_words); its lanes by
 * the quicksort (quick_lane: floats only, where equal elements may
 * differ) and its packed words (quick_words). */
enum { NO_SIMD = -1 };

typedef struct SortType {
  int64_t size;
  int32_t simd;
  bool (*lane)(char *p, int64_t stride, int64_t n, void *buf, void *tmp);
  void (*keys)(const char *p, int64_t stride, int64_t n, Keyed *out);
  void (*packed)(const char *p, int64_t stride, int64_t n, uint64_t *out);
  bool (*sort_words)(uint64_t *v, uint64_t *tmp, int64_t n);
  bool (*quick_lane)(char *p, int64_t stride, int64_t n, void *buf, void *tmp);
  bool (*quick_words)(uint64_t *v, uint64_t *tmp, int64_t n);
} SortType;

static SortType sort_type(int32_t kind) {
  switch (kind) {
  case TY_I8: return (SortType){1, NO_SIMD, lane_i8, keys_i8, packed_i8, sort_words8, NULL, quicksort_words8};
  case TY_I16: return (SortType){2, NO_SIMD, lane_i16, keys_i16, packed_i16, sort_words16, NULL, quicksort_words16};
  case TY_I32: return (SortType){4, SIMD_SIGNED, lane_i32, keys_i32, packed_i32, sort_words32, NULL, quicksort_words32};
  case TY_I64: return (SortType){8, SIMD_SIGNED, lane_i64, keys_i64, NULL, NULL, NULL, NULL};
  case TY_BOOL: case TY_U8: return (SortType){1, NO_SIMD, lane_u8, keys_u8, packed_u8, sort_words8, NULL, quicksort_words8};
  case TY_U16: return (SortType){2, NO_SIMD, lane_u16, keys_u16, packed_u16, sort_words16, NULL, quicksort_words16};
  case TY_U32: return (SortType){4, SIMD_UNSIGNED, lane_u32, keys_u32, packed_u32, sort_words32, NULL, quicksort_words32};
  case TY_U64: return (SortType){8, SIMD_UNSIGNED, lane_u64, keys_u64, NULL, NULL, NULL, NULL};
  case TY_F32:
    return (SortType){4, SIMD_FLOAT, lane_f32, keys_f32, packed_f32, sort_words32, lane_quick_f32, quicksort_words32};
  default: return (SortType){8, SIMD_FLOAT, lane_f64, keys_f64, NULL, NULL, lane_quick_f64, NULL};
  }
}

/* numpy.sort's elements of 8 and 4 bytes sorted in vector registers
 * (AVX-512 or AVX2, sort_simd.c), NaNs written back as NumPy's sort
 * writes them, one quiet NaN, and -0.0 before 0.0: an order NumPy's
 * unstable kinds may give, and a stable kind's where no NaN and no -0.0
 * tell equal elements apart. False where this sort does not apply. */
enum { SIMD_SORT_MIN = 16 };

/* Whether a float lane holds -0.0 or a NaN other than one of the bits
 * quiet (0: any NaN): equal elements that differ, whose order the sorts
 * differ in. */
static bool has_nan_or_negative_zero(const char *p, int64_t stride, int64_t n, int64_t size, uint64_t quiet) {
  uint64_t sign = (uint64_t)1 << (8 * size - 1), inf = size == 8 ? 0x7FF0000000000000u : 0x7F800000u;
  for (int64_t i = 0; i < n; i++) {
    uint64_t b;
    uint32_t w;
    if (size == 8) memcpy(&b, p + i * stride, sizeof b);
    else memcpy(&w, p + i * stride, sizeof w), b = w;
    if (((b & (sign - 1)) > inf && b != quiet) || b == sign) return true;
  }
  return false;
}

/* the one quiet NaN the scalar and vector sorts write NaNs as */
static uint64_t quiet_nan_bits(int64_t size) { return size == 8 ? 0x7FF8000000000000u : 0x7FC00000u; }

static bool simd_sorts(SortType st, int64_t n) {
  return st.simd != NO_SIMD && n > SIMD_SORT_MIN && rt_sort_isa() != RT_SORT_SCALAR;
}

static bool simd_lane(char *p, int64_t stride, int64_t n, char *buf, SortType st, bool stable) {
  int64_t size = st.size;
  if (st.simd == SIMD_FLOAT && stable && has_nan_or_negative_zero(p, stride, n, size, 0)) return false;
  char *v = stride == size ? p : buf;
  if (v == buf)
    for (int64_t i = 0; i < n; i++) memcpy(v + i * size, p + i * stride, (size_t)size);
  if (size == 8) rt_simd_sort64((uint64_t *)v, n, st.simd);
  else rt_simd_sort32((uint32_t *)v, n, st.simd);
  if (v == buf)
    for (int64_t i = 0; i < n; i++) memcpy(p + i * stride, v + i * size, (size_t)size);
  return true;
}

/* The NaNs the scalar sorts left last written as one quiet NaN, as the
 * vector sorts write them (the quicksort's result where no NaN had other
 * bits). */
static void quiet_last_nans(char *p, int64_t stride, int64_t n, int64_t size) {
  for (int64_t i = n - 1; i >= 0; i--) {
    char *at = p + i * stride;
    if (size == 8) {
      double x;
      memcpy(&x, at, sizeof x);
      if (x == x) return;
      memcpy(at, &(uint64_t){0x7FF8000000000000u}, sizeof x);
    } else {
      float x;
      memcpy(&x, at, sizeof x);
      if (x == x) return;
      memcpy(at, &(uint32_t){0x7FC00000u}, sizeof x);
    }
  }
}

/* argsort's unstable kinds give the quicksort's order (QUICKSORT).
 * Where no two keys are equal every sort gives it: the faster sorts run
 * first, and the quicksort only where they found equal keys, or at once
 * where the lane is longer than its keys' range. */
static bool ties_certain(SortType st, int64_t n) { return st.size <= 2 && n > (int64_t)1 << (8 * st.size); }

static bool words_tie(const uint64_t *w, int64_t n) {
  for (int64_t j = 1; j < n; j++)
    if (key_word(w[j]) == key_word(w[j - 1])) return true;
  return false;
}

static bool keyed_tie(const Keyed *k, int64_t n) {
  for (int64_t j = 1; j < n; j++)
    if (k[j].key == k[j - 1].key) return true;
  return false;
}

/* the vector sorts' sorted keys: -0.0's key just below 0.0's */
static bool simd_keys_tie(const uint64_t *k, int64_t n, int32_t simd) {
  uint64_t zero = 0x8000000000000000u;
  for (int64_t j = 1; j < n; j++)
    if (k[j] == k[j - 1] || (simd == SIMD_FLOAT && k[j] == zero && k[j - 1] == zero - 1)) return true;
  return false;
}

/* argsort's unstable kinds of 8-byte elements: the keys and indices
 * sorted together in vector registers (buf holds 2 * n of each), the
 * indices straight into a contiguous out. False where equal keys were
 * found (the quicksort's order to be made). */
static bool simd_applies(SortType st, int64_t n) {
  return st.size == 8 && n > SIMD_SORT_MIN && rt_sort_isa() == RT_SORT_AVX512;
}

static bool argsort_simd_lane(const char *p, int64_t stride, int64_t n, int32_t simd, void *buf, int64_t *out,
                              int64_t out_stride) {
  uint64_t *keys = buf;
  int64_t *indices = out_stride == 1 ? out : (int64_t *)buf + n;
  rt_simd_argsort64(p, stride, n, simd, keys, indices);
  if (simd_keys_tie(keys, n, simd)) return false;
  if (indices != out)
    for (int64_t j = 0; j < n; j++) out[j * out_stride] = indices[j];
  return true;
}

/* argsort of packed words (elements of 4 bytes or fewer, a lane shorter
 * than 2^32): the stable kinds' ties ordered by index. Words of 4-byte
 * keys sorted in vector registers where the processor has them, the
 * others by their stable sorts (tmp: n words); the quicksort after. */
static bool packs(SortType st, int64_t n) { return st.packed && n <= (int64_t)UINT32_MAX; }

static bool argsort_packed_lane(const char *p, int64_t stride, int64_t n, SortType st, bool stable, uint64_t *words,
                                int64_t *out, int64_t out_stride) {
  st.packed(p, stride, n, words);
  bool ok = true, quick = !stable && ties_certain(st, n);
  if (!quick && st.size == 4 && simd_sorts(st, n)) rt_simd_sort64(words, n, SIMD_UNSIGNED);
  else if (!quick) ok = st.sort_words(words, words + n, n);
  if (ok && !stable && !quick && words_tie(words, n)) {
    st.packed(p, stride, n, words);
    quick = true;
  }
  if (quick) st.quick_words(words, NULL, n);
  for (int64_t j = 0; ok && j < n; j++) out[j * out_stride] = (int64_t)(words[j] & UINT32_MAX);
  return ok;
}

/* argsort of keys with their indices (8-byte elements, or a lane too long
 * to pack; keyed: 2 * n); tied: equal keys known, the quicksort at once */
static bool argsort_keyed_lane(const char *p, int64_t stride, int64_t n, SortType st, bool stable, bool tied,
                               Keyed *keyed, int64_t *out, int64_t out_stride) {
  st.keys(p, stride, n, keyed);
  bool ok = true;
  if (!tied) {
    ok = sort_keyed64(keyed, keyed + n, n);
    tied = ok && !stable && keyed_tie(keyed, n);
    if (tied) st.keys(p, stride, n, keyed);
  }
  if (tied) quicksort_keyed64(keyed, NULL, n);
  for (int64_t j = 0; ok && j < n; j++) out[j * out_stride] = keyed[j].index;
  return ok;
}

/* The lanes along axis of an array: how many, how long, their step, and
 * the byte offset of lane i (the other indices counted in C order). */
typedef struct Lanes {
  int64_t count, len, stride;
  const int64_t *shape, *strides;
  int ndim, axis;
} Lanes;

static Lanes lanes_of(const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t axis) {
  Lanes ls = {1, shape[axis], strides[axis], shape, strides, ndim, (int)axis};
  for (int d = 0; d < ndim; d++)
    if (d != axis) ls.count *= shape[d];
  return ls;
}

static int64_t lane_offset(const Lanes *ls, int64_t i, const int64_t *strides) {
  int64_t offset = 0;
  for (int d = ls->ndim - 1; d >= 0; d--) {
    if (d == ls->axis) continue;
    offset += i % ls->shape[d] * strides[d];
    i /= ls->shape[d];
  }
  return offset;
}

/* Every element of the lanes plus by, wrapping. */
static void shift_lanes(char *data, const Lanes *ls, const int64_t *strides, uint64_t by) {
  for (int64_t i = 0; i < ls->count; i++) {
    char *p = data + lane_offset(ls, i, strides);
    for (int64_t j = 0; j < ls->len; j++) {
      uint64_t v;
      memcpy(&v, p + j * ls->stride, 8);
      v += by;
      memcpy(p + j * ls->stride, &v, 8);
    }
  }
}

int32_t rt_sort(void *data, const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t axis, int32_t kind) {
  bool stable = kind & RT_SORT_STABLE;
  kind &= ~RT_SORT_STABLE;
  Lanes ls = lanes_of(shape, strides, ndim, axis);
  if (ls.count == 0 || ls.len < 2) return 0;
  if (kind == TY_DATETIME || kind == TY_TIMEDELTA) {
    /* NumPy sorts NaT (INT64_MIN) last: less one, wrapping, it is the
     * greatest and the others keep their order; sorted as int64s, then one
     * more (an order-keeping map: stable sorts stay stable) */
    shift_lanes(data, &ls, strides, UINT64_MAX);
    int32_t r = rt_sort(data, shape, strides, ndim, axis, TY_I64 | (stable ? RT_SORT_STABLE : 0));
    shift_lanes(data, &ls, strides, 1);
    return r;
  }
  if (kind == TY_C64 || kind == TY_C128) {
    bool ok = true;
    for (int64_t i = 0; ok && i < ls.count; i++)
      ok = rt_sort_complex_lane((char *)data + lane_offset(&ls, i, strides), ls.stride, ls.len, kind);
    return ok ? 0 : RT_ERR_MEMORY;
  }
  SortType st = sort_type(kind);
  bool simd = simd_sorts(st, ls.len);
  char *buf = malloc((size_t)(2 * ls.len * st.size));
  bool ok = buf != NULL;
  for (int64_t i = 0; ok && i < ls.count; i++) {
    char *p = (char *)data + lane_offset(&ls, i, strides);
    if (!stable && st.quick_lane && has_nan_or_negative_zero(p, ls.stride, ls.len, st.size, quiet_nan_bits(st.size))) {
      ok = st.quick_lane(p, ls.stride, ls.len, buf, NULL);
      continue;
    }
    if (simd && simd_lane(p, ls.stride, ls.len, buf, st, stable)) continue;
    ok = st.lane(p, ls.stride, ls.len, buf, buf + ls.len * st.size);
    if (!stable && st.simd == SIMD_FLOAT) quiet_last_nans(p, ls.stride, ls.len, st.size);
  }
  free(buf);
  return ok ? 0 : RT_ERR_MEMORY;
}

int32_t rt_sort_text(void *data, const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t axis, int32_t kind,
                     int64_t size) {
  Lanes ls = lanes_of(shape, strides, ndim, axis);
  bool ok = true;
  for (int64_t i = 0; ok && ls.len > 1 && i < ls.count; i++)
    ok = rt_sort_text_lane((char *)data + lane_offset(&ls, i, strides), ls.stride, ls.len, kind, size);
  return ok ? 0 : RT_ERR_MEMORY;
}

/* The strides of a C-ordered array of shape, in units of unit (8: bytes
 * of 8-byte items; 1: items); returns its size in those units. */
static int64_t c_order_strides(const int64_t *shape, int32_t ndim, int64_t unit, int64_t *strides) {
  for (int d = ndim - 1; d >= 0; d--) {
    strides[d] = unit;
    unit *= shape[d];
  }
  return unit;
}

/* argsort of datetimes, NaT last: of a C-ordered copy shifted as rt_sort
 * shifts them (the argument's values are not to be written). */
static int32_t argsort_nat_last(const void *data, const int64_t *shape, const int64_t *strides, int32_t ndim,
                                int64_t axis, bool stable, int64_t *out) {
  Lanes ls = lanes_of(shape, strides, ndim, axis);
  int64_t cstrides[RC_MAX_NDIM], bytes = c_order_strides(shape, ndim, 8, cstrides);
  char *copy = malloc((size_t)(bytes ? bytes : 8));
  if (!copy) return RT_ERR_MEMORY;
  for (int64_t i = 0; i < ls.count; i++) {
    const char *src = (const char *)data + lane_offset(&ls, i, strides);
    char *dst = copy + lane_offset(&ls, i, cstrides);
    for (int64_t j = 0; j < ls.len; j++) {
      uint64_t v;
      memcpy(&v, src + j * ls.stride, 8);
      v -= 1;
      memcpy(dst + j * cstrides[axis], &v, 8);
    }
  }
  int32_t r = rt_argsort(copy, shape, cstrides, ndim, axis, TY_I64 | (stable ? RT_SORT_STABLE : 0), out);
  free(copy);
  return r;
}

int32_t rt_argsort(const void *data, const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t axis, int32_t kind,
                   int64_t *out) {
  bool stable = kind & RT_SORT_STABLE;
  kind &= ~RT_SORT_STABLE;
  if (kind == TY_DATETIME || kind == TY_TIMEDELTA) return argsort_nat_last(data, shape, strides, ndim, axis, stable, out);
  SortType st = sort_type(kind);
  Lanes ls = lanes_of(shape, strides, ndim, axis);
  if (ls.count == 0 || ls.len == 0) return 0;
  int64_t out_strides[RC_MAX_NDIM];
  c_order_strides(shape, ndim, 1, out_strides);
  if (kind == TY_C64 || kind == TY_C128) {
    bool ok = true;
    for (int64_t i = 0; ok && i < ls.count; i++)
      ok = rt_argsort_complex_lane((const char *)data + lane_offset(&ls, i, strides), ls.stride, ls.len, kind,
                                   out + lane_offset(&ls, i, out_strides), out_strides[axis]);
    return ok ? 0 : RT_ERR_MEMORY;
  }
  Keyed *keyed = malloc((size_t)(2 * ls.len) * sizeof(Keyed));
  bool ok = keyed != NULL;
  bool simd = !stable && simd_applies(st, ls.len), packed = packs(st, ls.len);
  for (int64_t i = 0; ok && i < ls.count; i++) {
    const char *p = (const char *)data + lane_offset(&ls, i, strides);
    int64_t *o = out + lane_offset(&ls, i, out_strides);
    if (packed) {
      ok = argsort_packed_lane(p, ls.stride, ls.len, st, stable, (uint64_t *)keyed, o, out_strides[axis]);
      continue;
    }
    bool tied = simd && !argsort_simd_lane(p, ls.stride, ls.len, st.simd, keyed, o, out_strides[axis]);
    if (!simd || tied) ok = argsort_keyed_lane(p, ls.stride, ls.len, st, stable, tied, keyed, o, out_strides[axis]);
  }
  free(keyed);
  return ok ? 0 : RT_ERR_MEMORY;
}

/* One lane of numpy.lexsort's key (n elements from p, stride apart, of
 * kind) sorted into the order so far: keyed[j] the key of element
 * order[j] with that index, sorted stably (the earlier keys' order kept
 * among equal ones), then written back to order. raw: n more Keyed,
 * tmp: n more for the sort. Complex keys and str or bytes ones (items of
 * size bytes) are ordered by their own stable merge sorts. */
static bool lexsort_by_key(const char *p, int64_t stride, int64_t n, int32_t kind, int64_t size, int64_t *order,
                           Keyed *keyed, Keyed *raw, Keyed *tmp) {
  if (kind == TY_C64 || kind == TY_C128) return rt_order_by_complex(p, stride, n, kind, order);
  if (kind == TY_CHARSEQ || kind == TY_BYTESEQ) return rt_order_by_text(p, stride, n, kind, size, order);
  sort_type(kind).keys(p, stride, n, raw);
  for (int64_t j = 0; j < n; j++) keyed[j] = (Keyed){raw[order[j]].key, order[j]};
  if (!sort_keyed64(keyed, tmp, n)) return false;
  for (int64_t j = 0; j < n; j++) order[j] = keyed[j].index;
  return true;
}

int32_t rt_lexsort(int32_t nparts, const void *const *data, const int32_t *kinds, const int64_t *sizes,
                   const int64_t *counts, const int64_t *strides, const int64_t *shape, int32_t ndim, int64_t axis,
                   int64_t *out) {
  int64_t nkeys = 0;
  for (int32_t k = 0; k < nparts; k++) nkeys += counts[k];
  if (!nkeys) {
    rt_set_error(RT_ERR_TYPE, "need sequence of keys with len > 0 in lexsort");
    return RT_ERR_TYPE;
  }
  Lanes ls = lanes_of(shape, strides + 1, ndim, axis);  /* (each key's own strides give its lanes' offsets) */
  if (ls.count == 0 || ls.len == 0) return 0;
  int64_t out_strides[RC_MAX_NDIM];
  c_order_strides(shape, ndim, 1, out_strides);
  Keyed *keyed = malloc((size_t)(3 * ls.len) * sizeof(Keyed));
  int64_t *order = malloc((size_t)ls.len * sizeof(int64_t));
  bool ok = keyed && order;
  for (int64_t i = 0; ok && i < ls.count; i++) {
    for (int64_t j = 0; j < ls.len; j++) order[j] = j;
    for (int32_t k = 0; ok && k < nparts; k++) {
      const int64_t *ks = strides + (int64_t)k * (ndim + 1);  /* the part's keys along ks[0], then their axes */
      for (int64_t r = 0; ok && r < counts[k]; r++) {
        const char *p = (const char *)data[k] + r * ks[0] + lane_offset(&ls, i, ks + 1);
        ok = lexsort_by_key(p, ks[1 + axis], ls.len, kinds[k], sizes[k], order, keyed, keyed + ls.len,
                            keyed + 2 * ls.len);
      }
    }
    int64_t *o = out + lane_offset(&ls, i, out_strides);
    for (int64_t j = 0; ok && j < ls.len; j++) o[j * out_strides[axis]] = order[j];
  }
  free(keyed);
  free(order);
  if (!ok) rt_set_error(RT_ERR_MEMORY, "out of memory in lexsort");
  return ok ? 0 : RT_ERR_MEMORY;
}

int32_t rt_argsort_text(const void *data, const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t axis,
                        int32_t kind, int64_t size, int64_t *out) {
  Lanes ls = lanes_of(shape, strides, ndim, axis);
  int64_t out_strides[RC_MAX_NDIM];
  c_order_strides(shape, ndim, 1, out_strides);
  bool ok = true;
  for (int64_t i = 0; ok && ls.len && i < ls.count; i++)
    ok = rt_argsort_text_lane((const char *)data + lane_offset(&ls, i, strides), ls.stride, ls.len, kind, size,
                              out + lane_offset(&ls, i, out_strides), out_strides[axis]);
  return ok ? 0 : RT_ERR_MEMORY;
}

/* Equal runs of the n sorted elements at data (by key: NaNs equal, -0.0
 * and 0.0 equal) kept once, their first, in place; their lengths in
 * counts (where not NULL). Returns how many. */
#define UNIQUE(name, T, KEY)                                                 \
  static int64_t unique_##name(T *v, int64_t n, int64_t *counts) {           \
    int64_t m = 0;                                                           \
    for (int64_t i = 0; i < n; m++) {                                        \
      int64_t j = i + 1;                                                     \
      while (j < n && KEY(v[j]) == KEY(v[i])) j++;                           \
      v[m] = v[i];                                                           \
      if (counts) counts[m] = j - i;                                         \
      i = j;                                                                 \
    }                                                                        \
    return m;                                                                \
  }

UNIQUE(i8, int8_t, key_i8)
UNIQUE(i16, int16_t, key_i16)
UNIQUE(i32, int32_t, key_i32)
UNIQUE(i64, int64_t, key_i64)
UNIQUE(u8, uint8_t, key_u)
UNIQUE(u16, uint16_t, key_u)
UNIQUE(u32, uint32_t, key_u)
UNIQUE(u64, uint64_t, key_u)
UNIQUE(f32, float, key_f32)
UNIQUE(f64, double, key_f64)

int64_t rt_unique(void *data, int64_t n, int32_t kind, int64_t *counts) {
  switch (kind) {
  case TY_I8: return unique_i8(data, n, counts);
  case TY_I16: return unique_i16(data, n, counts);
  case TY_I32: return unique_i32(data, n, counts);
  case TY_I64: case TY_DATETIME: case TY_TIMEDELTA: return unique_i64(data, n, counts);  /* (NaTs as one, as NumPy's) */
  case TY_BOOL: case TY_U8: return unique_u8(data, n, counts);
  case TY_U16: return unique_u16(data, n, counts);
  case TY_U32: return unique_u32(data, n, counts);
  case TY_U64: return unique_u64(data, n, counts);
  case TY_F32: return unique_f32(data, n, counts);
  case TY_C64: case TY_C128: return rt_unique_complex(data, n, kind, counts);
  default: return unique_f64(data, n, counts);
  }
}

/* the n size-byte elements of src at positions order, in turn, into dst
 * (numpy.unique's elements in the order that sorts them) */
void rt_gather(void *dst, const void *src, const int64_t *order, int64_t n, int64_t size) {
  for (int64_t i = 0; i < n; i++) memcpy((char *)dst + i * size, (const char *)src + order[i] * size, (size_t)size);
}

/* numpy.unique's return_index and return_inverse: the m runs of the
 * elements sorted stably by order (counts[g] elements in run g) mapped
 * back to positions: index[g] where run g's first element was, inverse[p]
 * the run of the element at p (either NULL where not asked) */
void rt_unique_positions(const int64_t *order, const int64_t *counts, int64_t m, int64_t *index, int64_t *inverse) {
  for (int64_t g = 0, at = 0; g < m; at += counts[g++]) {
    if (index) index[g] = order[at];
    for (int64_t i = at; inverse && i < at + counts[g]; i++) inverse[order[i]] = g;
  }
}
