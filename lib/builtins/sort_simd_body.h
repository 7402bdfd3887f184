/* builtins/sort_simd_body.h — the vector quicksort of numpy.sort, written
 * once for every register and key width: the elements as unsigned keys
 * that order as NumPy orders them (made as the first partition reads
 * them, turned back as the last step writes them), sorted by a quicksort
 * whose partitions write each vector's two sides compressed in registers,
 * and whose lanes of NETWORK keys or fewer are sorted by a bitonic network
 * in registers. Every pass over memory is sequential, where a radix
 * sort's scattered writes miss the TLB.
 *
 * Included by the file of an instruction set (sort_simd.c: AVX-512,
 * sort_avx2.c: AVX2) once per key width, after it defines T (the key,
 * uint32_t or uint64_t), LANES (keys in a register), Vec, N(name) (name
 * with the instance's suffix), SIMD and SORT_FN (its target attributes,
 * inlined and not), and these register operations, each named by N:
 *   set1(T), loadu(const T *), storeu(T *, Vec),
 *   load_or(const T *, unsigned held, Vec fill): the held lanes loaded, fill's elsewhere,
 *   store_held(T *, unsigned held, Vec),
 *   min(Vec, Vec), max, below(a, b): the mask of lanes where a < b (unsigned),
 *   min_max(unsigned high, v, w): the smaller of v and w in each lane, the larger where high,
 *   blend(unsigned m, a, b): b where m, a elsewhere; xor, or, and,
 *   swizzle(v, x): lane i taking v's lane i ^ x,
 *   compress_low(v, m) / compress_high(v, m): the keys of m in the first / last lanes.
 * It defines N(sort)(T *a, int64_t n, int32_t kind): n contiguous
 * elements of SIMD_ kind sorted, NaNs written as one quiet NaN, as
 * NumPy's sort writes them, -0.0 before 0.0.
 */

#define FULL ((unsigned)((1ull << LANES) - 1))
#define SIGN ((T)1 << (8 * sizeof(T) - 1))
#define MAX_KEY ((T)-1)
#define MANTISSA (sizeof(T) == 8 ? 52 : 23)
#define INF_BITS ((MAX_KEY >> 1) & ~(((T)1 << MANTISSA) - 1))
#define QNAN_BITS (INF_BITS | (T)1 << (MANTISSA - 1))
#define UNROLL 8
#define NETWORK_REGS 16
#define NETWORK (LANES * NETWORK_REGS)
#define SCRATCH ((2 * UNROLL + 3) * LANES)
#define KEYS (-1) /* a raw_kind: what is read is keys already */
#define UNROLLED _Pragma("GCC unroll 16") /* a network's loops, so that its registers stay registers */

/* lane i of n keys: which lanes hold keys */
SIMD unsigned N(lanes_held)(int64_t n, int i) {
  int64_t left = n - (int64_t)i * LANES;
  return left >= LANES ? FULL : left <= 0 ? 0 : (unsigned)((1ull << left) - 1);
}

/* the lanes whose index has bit d set */
SIMD unsigned N(bit_lanes)(int d) {
  unsigned m = 0;
  UNROLLED for (int i = 0; i < LANES; i++)
    if (i & d) m |= 1u << i;
  return m;
}

/* The key of an element of a SIMD_ kind: a float's sign bit flipped (its
 * other bits too where negative), every NaN the largest key; a signed
 * integer's sign bit flipped. And back, NaNs as one quiet NaN. */
SIMD Vec N(to_key)(Vec v, int kind) {
  Vec sign = N(set1)(SIGN), ones = N(set1)(MAX_KEY);
  if (kind == SIMD_SIGNED) return N(xor)(v, sign);
  if (kind != SIMD_FLOAT) return v;
  unsigned negative = FULL & ~N(below)(v, sign);
  unsigned nan = N(below)(N(set1)(INF_BITS), N(and)(v, N(set1)(SIGN - 1)));
  v = N(blend)(negative, N(or)(v, sign), N(xor)(v, ones));
  return N(blend)(nan, v, ones);
}

SIMD Vec N(from_key)(Vec v, int kind) {
  Vec sign = N(set1)(SIGN), ones = N(set1)(MAX_KEY);
  if (kind == SIMD_SIGNED) return N(xor)(v, sign);
  if (kind != SIMD_FLOAT) return v;
  unsigned positive = FULL & ~N(below)(v, sign), nan = FULL & ~N(below)(v, ones);
  v = N(blend)(positive, N(xor)(v, ones), N(and)(v, N(set1)(SIGN - 1)));
  return N(blend)(nan, v, N(set1)(QNAN_BITS));
}

/* the n keys at a turned back into elements */
SORT_FN void N(from_keys)(T *a, int64_t n, int kind) {
  for (int64_t i = 0; i < n; i += LANES) {
    unsigned m = N(lanes_held)(n - i, 0);
    N(store_held)(a + i, m, N(from_key)(N(load_or)(a + i, m, N(set1)(0)), kind));
  }
}

/* v with lane i and lane i ^ x compared: the smaller in the lane whose bit
 * in high is clear, the larger where set. */
SIMD Vec N(exchange)(Vec v, int x, unsigned high) { return N(min_max)(high, v, N(swizzle)(v, x)); }

SIMD Vec N(reversed)(Vec v) { return N(swizzle)(v, LANES - 1); }

/* a bitonic register (both halves sorted, the second reversed in place by
 * the flip before) sorted: distances LANES / 2 ... 1 */
SIMD Vec N(clean)(Vec v) {
  UNROLLED for (int d = LANES / 2; d >= 1; d /= 2) v = N(exchange)(v, d, N(bit_lanes)(d));
  return v;
}

/* runs of s lanes merged into runs of 2s: a flip, then the half-cleaners */
SIMD Vec N(sort_register)(Vec v) {
  UNROLLED for (int s = 2; s <= LANES; s *= 2) {
    v = N(exchange)(v, s - 1, N(bit_lanes)(s / 2));
    UNROLLED for (int d = s / 4; d >= 1; d /= 2) v = N(exchange)(v, d, N(bit_lanes)(d));
  }
  return v;
}

/* n (a power of two) sorted registers as one sorted run of LANES * n
 * keys: the bitonic merge of runs of s registers into runs of 2s */
SIMD void N(merge_registers)(Vec *r, int n) {
  UNROLLED for (int s = 1; s < n; s *= 2) {
    UNROLLED for (int g = 0; g < n; g += 2 * s)
      UNROLLED for (int j = 0; j < s; j++) {
        Vec x = r[g + j], y = N(reversed)(r[g + 2 * s - 1 - j]);
        r[g + j] = N(min)(x, y);
        r[g + 2 * s - 1 - j] = N(reversed)(N(max)(x, y));
      }
    UNROLLED for (int d = s / 2; d >= 1; d /= 2)
      UNROLLED for (int g = 0; g < n; g += 2 * d)
        UNROLLED for (int j = 0; j < d; j++) {
          Vec x = r[g + j], y = r[g + j + d];
          r[g + j] = N(min)(x, y);
          r[g + j + d] = N(max)(x, y);
        }
    UNROLLED for (int i = 0; i < n; i++) r[i] = N(clean)(r[i]);
  }
}

/* n <= LANES * regs keys sorted in regs registers, padded with the
 * largest key (regs a constant, so that the network unrolls) */
SIMD void N(sort_in_registers)(T *a, int64_t n, int regs, int kind, bool raw) {
  Vec r[NETWORK_REGS], pad = N(set1)(MAX_KEY);
  UNROLLED for (int i = 0; i < regs; i++) {
    unsigned held = N(lanes_held)(n, i);
    Vec v = N(load_or)(a + i * LANES, held, N(set1)(0));
    r[i] = N(sort_register)(N(blend)(held, pad, raw ? N(to_key)(v, kind) : v));
  }
  N(merge_registers)(r, regs);
  UNROLLED for (int i = 0; i < regs; i++) N(store_held)(a + i * LANES, N(lanes_held)(n, i), N(from_key)(r[i], kind));
}

/* n <= NETWORK keys (elements, where raw) sorted, written back as elements */
SORT_FN void N(sort_network)(T *a, int64_t n, int kind, bool raw) {
  if (n <= LANES) N(sort_in_registers)(a, n, 1, kind, raw);
  else if (n <= 2 * LANES) N(sort_in_registers)(a, n, 2, kind, raw);
  else if (n <= 4 * LANES) N(sort_in_registers)(a, n, 4, kind, raw);
  else if (n <= 8 * LANES) N(sort_in_registers)(a, n, 8, kind, raw);
  else N(sort_in_registers)(a, n, 16, kind, raw);
}

/* The keys of v below the pivot (at most it, where inclusive) written at
 * *left upwards, the others below *right downwards. Each side is stored
 * as a whole vector (a compress store to memory is slow on some
 * processors, microcoded on AMD's): the caller leaves a vector's room on
 * both sides, which the lanes past the kept keys overwrite. */
SIMD void N(split_vector)(T *a, Vec v, unsigned valid, Vec pivot, bool inclusive, int64_t *left, int64_t *right) {
  unsigned low = (inclusive ? FULL & ~N(below)(pivot, v) : N(below)(v, pivot)) & valid;
  unsigned high = valid & ~low;
  N(storeu)(a + *left, N(compress_low)(v, low));
  N(storeu)(a + *right - LANES, N(compress_high)(v, high));
  *left += __builtin_popcount(low);
  *right -= __builtin_popcount(high);
}

/* the vector at a as keys: made from elements of raw_kind (or KEYS) */
SIMD Vec N(load_key)(const T *a, int raw_kind) {
  Vec v = N(loadu)(a);
  return raw_kind == KEYS ? v : N(to_key)(v, raw_kind);
}

/* The n > 2 * UNROLL * LANES keys of a partitioned in place around
 * pivot: returns how many went left. The first and last UNROLL vectors
 * wait in registers; each step takes UNROLL vectors from the side with
 * less room written, inwards (the other has at least UNROLL vectors'
 * room), so that every split has a vector's room on both sides. The
 * last keys (the tail, the vectors that waited) are split into scratch,
 * which has that room, and copied into the gap they leave. */
SIMD int64_t N(partition)(T *a, int64_t n, T p, bool inclusive, int raw_kind) {
  Vec pivot = N(set1)(p), first[UNROLL], last[UNROLL];
  for (int u = 0; u < UNROLL; u++) {
    first[u] = N(load_key)(a + u * LANES, raw_kind);
    last[u] = N(load_key)(a + n - (u + 1) * LANES, raw_kind);
  }
  int64_t l = UNROLL * LANES, r = n - UNROLL * LANES, wl = 0, wr = n;
  while (r - l >= UNROLL * LANES) {
    bool from_left = l - wl <= wr - r;
    int64_t from = from_left ? l : r - LANES, step = from_left ? LANES : -LANES;
    if (from_left) l += UNROLL * LANES;
    else r -= UNROLL * LANES;
    for (int u = 0; u < UNROLL; u++)
      N(split_vector)(a, N(load_key)(a + from + u * step, raw_kind), FULL, pivot, inclusive, &wl, &wr);
  }
  while (r - l >= LANES) {
    int64_t from = l - wl <= wr - r ? l : r - LANES;
    Vec x = N(load_key)(a + from, raw_kind);
    if (from == l) l += LANES;
    else r -= LANES;
    N(split_vector)(a, x, FULL, pivot, inclusive, &wl, &wr);
  }
  T scratch[SCRATCH];
  int64_t sl = 0, sr = SCRATCH;
  unsigned rest = N(lanes_held)(r - l, 0);
  Vec tail = N(load_or)(a + l, rest, N(set1)(0));
  N(split_vector)(scratch, raw_kind == KEYS ? tail : N(to_key)(tail, raw_kind), rest, pivot, inclusive, &sl, &sr);
  for (int u = 0; u < UNROLL; u++) {
    N(split_vector)(scratch, first[u], FULL, pivot, inclusive, &sl, &sr);
    N(split_vector)(scratch, last[u], FULL, pivot, inclusive, &sl, &sr);
  }
  memcpy(a + wl, scratch, (size_t)sl * sizeof *a);
  memcpy(a + wl + sl, scratch + sr, (size_t)(SCRATCH - sr) * sizeof *a);
  return wl + sl;
}

/* the median of LANES keys spread over a */
SIMD T N(choose_pivot)(const T *a, int64_t n, int raw_kind) {
  int64_t s = n / LANES;
  T sample[LANES], sorted[LANES];
  for (int i = 0; i < LANES; i++) sample[i] = a[i * s + s / 2];
  Vec v = N(loadu)(sample);
  N(storeu)(sorted, N(sort_register)(raw_kind == KEYS ? v : N(to_key)(v, raw_kind)));
  return sorted[LANES / 2];
}

/* the pivot of keys, for the argsort of sort_simd.c */
SIMD T N(pivot_of_keys)(const T *a, int64_t n) { return N(choose_pivot)(a, n, KEYS); }

/* the heapsort that bounds a quicksort gone quadratic */
static void N(sift_down)(T *a, int64_t i, int64_t n) {
  T x = a[i];
  for (int64_t c; (c = 2 * i + 1) < n; i = c) {
    if (c + 1 < n && a[c + 1] > a[c]) c++;
    if (a[c] <= x) break;
    a[i] = a[c];
  }
  a[i] = x;
}

static void N(heapsort_keys)(T *a, int64_t n) {
  for (int64_t i = n / 2 - 1; i >= 0; i--) N(sift_down)(a, i, n);
  for (int64_t i = n - 1; i > 0; i--) {
    T t = a[0];
    a[0] = a[i];
    a[i] = t;
    N(sift_down)(a, 0, i);
  }
}

/* A pivot that is the smallest key sends nothing left; the keys equal to
 * it are then split off (the inclusive partition), so every step makes
 * progress. The smaller side recurses, the larger loops. Elements of kind
 * at a become keys in the first partition (raw); every key is written
 * back as an element where its place is final. */
SORT_FN void N(quicksort)(T *a, int64_t n, int depth, int kind, bool raw) {
  while (n > NETWORK) {
    if (depth-- == 0) { /* never at the first step, which reads elements */
      N(heapsort_keys)(a, n);
      N(from_keys)(a, n, kind);
      return;
    }
    T p = N(choose_pivot)(a, n, raw ? kind : KEYS);
    int64_t k = raw ? N(partition)(a, n, p, false, kind) : N(partition)(a, n, p, false, KEYS);
    raw = false;
    if (k == 0) {
      k = N(partition)(a, n, p, true, KEYS);
      N(from_keys)(a, k, kind);
      a += k;
      n -= k;
      continue;
    }
    if (k < n - k) {
      N(quicksort)(a, k, depth, kind, false);
      a += k;
      n -= k;
    } else {
      N(quicksort)(a + k, n - k, depth, kind, false);
      n = k;
    }
  }
  N(sort_network)(a, n, kind, raw);
}

SORT_FN void N(sort)(T *a, int64_t n, int32_t kind) {
  int depth = 0;
  for (int64_t m = n; m > 1; m >>= 1) depth += 2;
  N(quicksort)(a, n, depth, kind, true);
}

#undef FULL
#undef SIGN
#undef MAX_KEY
#undef MANTISSA
#undef INF_BITS
#undef QNAN_BITS
#undef UNROLL
#undef NETWORK_REGS
#undef NETWORK
#undef SCRATCH
#undef KEYS
#undef UNROLLED
