/* generator.c — the draws of a numpy.random.Generator in compiled code,
 * and the Generators numpy.random.default_rng makes there.
 *
 * A Generator argument hands over its bit generator's bitgen_t (NumPy's
 * C API): its state and its next 64-bit word, 32-bit word and double.
 * The draws here are NumPy's Generator's, so a stream from the same state
 * is NumPy's to the bit and the state moves on as NumPy's would: doubles
 * as the bit generator makes them, normals and exponentials by 256-layer
 * ziggurats (tables in ziggurat_tables.h), gamma by Marsaglia and Tsang
 * over those, Poisson and binomial by the legacy functions' samplers
 * (random_samplers.h), bounded ints by Lemire's multiply-and-reject,
 * shuffles by masked rejection. A Generator made in compiled code is
 * NumPy's PCG64 seeded through its SeedSequence (rtgen.h holds its block).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ruchey.h"
#include "rtgen.h"
#include "ziggurat_tables.h"

static inline uint64_t u64(BitGen *g) { return g->next_uint64(g->state); }
static inline uint32_t u32(BitGen *g) { return g->next_uint32(g->state); }
static inline double unit(BitGen *g) { return g->next_double(g->state); }

/* The right edges of the ziggurats' base layers, and 1 / the normal's. */
static const double NOR_R = 3.6541528853610087963519472518, NOR_INV_R = 0.27366123732975827203338247596;
static const double EXP_R = 7.6971174701310497140446280481;

/* ---------------------------------------------------------------- the ziggurats */

/* x negated when sign is 1, without a branch (which the random sign
 * would mispredict half the time). */
static inline double with_sign(double x, uint64_t sign) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  bits ^= sign << 63;
  memcpy(&x, &bits, sizeof x);
  return x;
}

static double zig_normal_rare(BitGen *g, int layer, uint64_t mag, double x);

/* A normal from one word: its low byte picks the layer, the next bit the
 * sign, the next 52 bits the point across the layer. Inside the layer's
 * inner rectangle (k) it is done, 99% of the time: that path inlined,
 * the rest apart. */
static inline __attribute__((always_inline)) double zig_normal(BitGen *g) {
  uint64_t r = u64(g);
  int layer = (int)(r & 0xff);
  r >>= 8;
  uint64_t mag = (r >> 1) & 0x000fffffffffffffull;
  double x = with_sign((double)mag * zig_nor_w[layer], r & 1);
  if (mag < zig_nor_k[layer]) return x;
  return zig_normal_rare(g, layer, mag, x);
}

/* Outside the inner rectangle: in the base layer a point of the tail past
 * r is drawn from exponentials (Marsaglia's method); in another layer the
 * point is kept if it falls under the curve, else a new word is drawn. */
static __attribute__((noinline)) double zig_normal_rare(BitGen *g, int layer, uint64_t mag, double x) {
  if (layer == 0) {
    for (;;) {  /* log1p(-u): never log(0) */
      double xx = -NOR_INV_R * log1p(-unit(g)), yy = -log1p(-unit(g));
      if (yy + yy > xx * xx) return (mag >> 8) & 1 ? -(NOR_R + xx) : NOR_R + xx;
    }
  }
  double below = zig_nor_f[layer], above = zig_nor_f[layer - 1];
  if ((above - below) * unit(g) + below < exp(-0.5 * x * x)) return x;
  return zig_normal(g);
}

/* An exponential from one word: 3 bits dropped, a byte for the layer,
 * 53 bits across it. The base layer's tail past r is r plus an
 * exponential (memorylessness); the other layers test under the curve,
 * and a miss starts over with a new word. */
static double zig_exponential(BitGen *g) {
  for (;;) {
    uint64_t r = u64(g) >> 3;
    int layer = (int)(r & 0xff);
    r >>= 8;
    double x = (double)r * zig_exp_w[layer];
    if (r < zig_exp_k[layer]) return x;
    if (layer == 0) return EXP_R - log1p(-unit(g));
    double below = zig_exp_f[layer], above = zig_exp_f[layer - 1];
    if ((above - below) * unit(g) + below < exp(-x)) return x;
  }
}


#define SAMPLER_SRC BitGen
#define SAMPLER_UNIT(g) unit(g)
#define SAMPLER_NORMAL(g) zig_normal(g)
#define SAMPLER_EXPONENTIAL(g) zig_exponential(g)
#include "random_samplers.h"

/* ---------------------------------------------------------------- the others, over those */

static double gen_laplace(BitGen *g, double loc, double scale) {
  double u;
  while ((u = unit(g)) == 0.0) {}
  return u >= 0.5 ? loc - scale * log(2.0 - u - u) : loc + scale * log(u + u);
}

static double gen_gumbel(BitGen *g, double loc, double scale) {
  double u;
  while ((u = 1.0 - unit(g)) >= 1.0) {}
  return loc - scale * log(-log(u));
}

static double gen_logistic(BitGen *g, double loc, double scale) {
  double u;
  while ((u = unit(g)) == 0.0) {}
  return loc + scale * log(u / (1.0 - u));
}

static double gen_triangular(BitGen *g, double left, double mode, double right) {
  double base = right - left, leftbase = mode - left, u = unit(g);
  if (u <= leftbase / base) return left + sqrt(u * (leftbase * base));  /* the products first, as NumPy's */
  return right - sqrt((1.0 - u) * ((right - mode) * base));
}

/* Searching the cumulative probabilities for p from 1/3 up; below, by
 * inversion of an exponential (capped where it passes int64). */
static int64_t gen_geometric(BitGen *g, double p) {
  if (p >= 0.333333333333333333333333) {
    double sum = p, prod = p, q = 1.0 - p, u = unit(g);
    int64_t x = 1;
    for (; u > sum; x++) {
      prod *= q;
      sum += prod;
    }
    return x;
  }
  double z = ceil(-zig_exponential(g) / log1p(-p));
  return z >= 9.223372036854776e+18 ? INT64_MAX : (int64_t)z;
}

/* One draw of the rarer distributions, as a double. */
static double gen_other(BitGen *g, int32_t d, const double *p) {
  switch (d) {
  case RD_CHISQUARE: return 2.0 * draw_gamma(g, p[0] / 2.0);
  case RD_LOGNORMAL: return exp(p[0] + p[1] * zig_normal(g));
  case RD_LAPLACE: return gen_laplace(g, p[0], p[1]);
  case RD_LOGISTIC: return gen_logistic(g, p[0], p[1]);
  case RD_GUMBEL: return gen_gumbel(g, p[0], p[1]);
  case RD_PARETO: return expm1(zig_exponential(g) / p[0]);
  case RD_RAYLEIGH: return p[0] * sqrt(2.0 * zig_exponential(g));
  case RD_WEIBULL: return p[0] == 0.0 ? 0.0 : pow(zig_exponential(g), 1.0 / p[0]);
  case RD_TRIANGULAR: return gen_triangular(g, p[0], p[1], p[2]);
  default: return unit(g);
  }
}

/* ---------------------------------------------------------------- the draws */

static int32_t value_error(const char *msg) {
  rt_set_error(RT_ERR_VALUE, msg);
  return RT_ERR_VALUE;
}

/* A parameter that must not be negative: NumPy's Generator refuses -0.0
 * too (it tests the sign bit) and lets NaN through. */
static bool negative(double x) { return !isnan(x) && signbit(x); }

static int32_t check_params(int32_t d, const double *p) {
  switch (d) {
  case RD_UNIFORM: {
    double range = p[1] - p[0];
    if (!isfinite(range)) {
      rt_set_error(RT_ERR_OVERFLOW, "high - low range exceeds valid bounds");
      return RT_ERR_OVERFLOW;
    }
    return range < 0 ? value_error("high - low < 0") : RT_OK;
  }
  case RD_NORMAL: return negative(p[1]) ? value_error("scale < 0") : RT_OK;
  case RD_EXPONENTIAL: return negative(p[0]) ? value_error("scale < 0") : RT_OK;
  case RD_GAMMA: return negative(p[0]) ? value_error("shape < 0") : negative(p[1]) ? value_error("scale < 0") : RT_OK;
  case RD_POISSON:
    if (!(p[0] >= 0)) return value_error("lam < 0 or lam is NaN");
    return p[0] > (double)INT64_MAX - 10 * sqrt((double)INT64_MAX) ? value_error("lam value too large") : RT_OK;
  case RD_BINOMIAL:
    return p[0] < 0 ? value_error("n < 0") : !(p[1] >= 0 && p[1] <= 1) ? value_error("p < 0, p > 1 or p is NaN") : RT_OK;
  case RD_LAPLACE: case RD_LOGISTIC: case RD_GUMBEL: return negative(p[1]) ? value_error("scale < 0") : RT_OK;
  case RD_RAYLEIGH: return negative(p[0]) ? value_error("scale < 0") : RT_OK;
  case RD_LOGNORMAL: return negative(p[1]) ? value_error("sigma < 0") : RT_OK;
  case RD_CHISQUARE: return p[0] <= 0 ? value_error("df <= 0") : RT_OK;
  case RD_PARETO: return p[0] <= 0 ? value_error("a <= 0") : RT_OK;
  case RD_WEIBULL: return negative(p[0]) ? value_error("a < 0") : RT_OK;
  case RD_TRIANGULAR:
    return p[0] > p[1] ? value_error("left > mode") : p[1] > p[2] ? value_error("mode > right")
           : p[0] == p[2] ? value_error("left == right") : RT_OK;
  case RD_GEOMETRIC: return !(p[0] > 0 && p[0] <= 1) ? value_error("p <= 0, p > 1 or p contains NaNs") : RT_OK;
  default: return RT_OK;
  }
}

/* n draws of distribution d (RD_RANDOM, RD_UNIFORM: low, high; RD_NORMAL:
 * loc, scale; RD_EXPONENTIAL: scale; RD_GAMMA: shape, scale; RD_POISSON:
 * lam; RD_BINOMIAL: n, p; and the rarer ones, draws[]'s parameters in
 * lib/builtins/random.c) into out: doubles, int64 for the discrete ones. */
int32_t rt_generator_draw(void *bitgen, int32_t d, const double *p, void *out, int64_t n) {
  BitGen *g = bitgen;
  int32_t st = check_params(d, p);
  if (st) return st;
  double *o = out;
  int64_t *k = out;
  switch (d) {
  case RD_UNIFORM:
    for (int64_t i = 0; i < n; i++) o[i] = p[0] + (p[1] - p[0]) * unit(g);
    break;
  case RD_NORMAL:
    for (int64_t i = 0; i < n; i++) o[i] = p[0] + p[1] * zig_normal(g);
    break;
  case RD_EXPONENTIAL:
    for (int64_t i = 0; i < n; i++) o[i] = p[0] * zig_exponential(g);
    break;
  case RD_GAMMA:
    for (int64_t i = 0; i < n; i++) o[i] = p[1] * draw_gamma(g, p[0]);
    break;
  case RD_POISSON:
    for (int64_t i = 0; i < n; i++) k[i] = draw_poisson(g, p[0]);
    break;
  case RD_BINOMIAL:
    for (int64_t i = 0; i < n; i++) k[i] = draw_binomial(g, (int64_t)p[0], p[1]);
    break;
  case RD_GEOMETRIC:
    for (int64_t i = 0; i < n; i++) k[i] = gen_geometric(g, p[0]);
    break;
  default:
    for (int64_t i = 0; i < n; i++) o[i] = gen_other(g, d, p);
  }
  return RT_OK;
}

/* One normal, the call a loop makes per element (the scale checked by the caller). */
double rt_generator_normal(void *bitgen, double loc, double scale) { return loc + scale * zig_normal(bitgen); }

/* ---------------------------------------------------------------- integers */

/* [0, rng] by Lemire's multiply-and-reject, on 32-bit words while rng fits
 * in one: Generator.integers' draw. */
static uint64_t bounded_lemire(BitGen *g, uint64_t rng) {
  if (rng == 0) return 0;
  if (rng < 0xffffffffu) {
    uint32_t excl = (uint32_t)rng + 1;
    uint64_t m = (uint64_t)u32(g) * excl;
    if ((uint32_t)m < excl) {
      uint32_t threshold = (UINT32_MAX - (uint32_t)rng) % excl;
      while ((uint32_t)m < threshold) m = (uint64_t)u32(g) * excl;
    }
    return m >> 32;
  }
  if (rng == 0xffffffffu) return u32(g);
  if (rng == UINT64_MAX) return u64(g);
  uint64_t excl = rng + 1;
  unsigned __int128 m = (unsigned __int128)u64(g) * excl;
  if ((uint64_t)m < excl) {
    uint64_t threshold = (UINT64_MAX - rng) % excl;
    while ((uint64_t)m < threshold) m = (unsigned __int128)u64(g) * excl;
  }
  return (uint64_t)(m >> 64);
}

/* The next bits-wide piece of a 32-bit word, the word's rest kept for the
 * next calls of the same fill (bcnt pieces left): NumPy's buffered draws
 * of 16-bit, 8-bit and 1-bit (bool) ints. */
static uint32_t buffered_piece(BitGen *g, int bits, int *bcnt, uint32_t *buf) {
  if (!*bcnt) {
    *buf = u32(g);
    *bcnt = 32 / bits - 1;
  } else {
    *buf >>= bits;
    (*bcnt)--;
  }
  return *buf & ((1u << bits) - 1);
}

/* [0, rng] for a dtype narrower than 32 bits: Lemire's method on buffered pieces. */
static uint32_t bounded_narrow(BitGen *g, uint32_t rng, int bits, int *bcnt, uint32_t *buf) {
  uint32_t mask = (1u << bits) - 1;
  if (rng == 0) return 0;
  if (rng == mask) return buffered_piece(g, bits, bcnt, buf);
  uint32_t excl = rng + 1, m = buffered_piece(g, bits, bcnt, buf) * excl;
  if ((m & mask) < excl) {
    uint32_t threshold = (mask - rng) % excl;
    while ((m & mask) < threshold) m = buffered_piece(g, bits, bcnt, buf) * excl;
  }
  return m >> bits;
}

/* NumPy's checks of integers' bounds for a dtype of bits (1: bool). */
static int32_t check_int_bounds(int64_t low, int64_t high, bool endpoint, int bits, bool is_signed) {
  int64_t min = is_signed ? -(int64_t)((UINT64_C(1) << (bits - 1)) - 1) - 1 : 0;
  int64_t max = bits == 64 ? INT64_MAX  /* uint64's top half is past an int64 bound anyway */
                : is_signed ? (int64_t)((UINT64_C(1) << (bits - 1)) - 1)
                            : (int64_t)((UINT64_C(1) << bits) - 1);
  const char *which = low < min ? "low" : (endpoint ? high > max : max < INT64_MAX && high > max + 1) ? "high" : NULL;
  if (which) {
    static _Thread_local char msg[64];
    if (bits == 1) snprintf(msg, sizeof msg, "%s is out of bounds for bool", which);
    else snprintf(msg, sizeof msg, "%s is out of bounds for %sint%d", which, is_signed ? "" : "u", bits);
    return value_error(msg);
  }
  if (endpoint ? low > high : low >= high) return value_error(endpoint ? "low > high" : "low >= high");
  return RT_OK;
}

/* n ints of [low, high) (endpoint: [low, high]) into out, of a dtype of
 * bits (1: bool) and signedness: Generator.integers' draws, the narrow
 * ones from pieces of one 32-bit word, as NumPy's fill buffers them. */
int32_t rt_generator_ints(void *bitgen, int64_t low, int64_t high, int32_t endpoint, int32_t bits, int32_t is_signed,
                          void *out, int64_t n) {
  int32_t st = check_int_bounds(low, high, endpoint, bits, is_signed);
  if (st) return st;
  uint64_t rng = (uint64_t)high - (uint64_t)low - !endpoint, off = (uint64_t)low;
  int bcnt = 0;
  uint32_t buf = 0;
  for (int64_t i = 0; i < n; i++) {
    switch (bits) {
    case 64: ((uint64_t *)out)[i] = off + bounded_lemire(bitgen, rng); break;
    case 32: ((uint32_t *)out)[i] = (uint32_t)(off + bounded_lemire(bitgen, rng)); break;
    case 16: ((uint16_t *)out)[i] = (uint16_t)(off + bounded_narrow(bitgen, (uint32_t)rng, 16, &bcnt, &buf)); break;
    case 8: ((uint8_t *)out)[i] = (uint8_t)(off + bounded_narrow(bitgen, (uint32_t)rng, 8, &bcnt, &buf)); break;
    default: ((uint8_t *)out)[i] = (uint8_t)(off + bounded_narrow(bitgen, (uint32_t)rng, 1, &bcnt, &buf));
    }
  }
  return RT_OK;
}

/* ---------------------------------------------------------------- shuffle, permutation */

/* [0, max] by masked rejection: NumPy's random_interval, Generator.shuffle's draw. */
static uint64_t interval(BitGen *g, uint64_t max) {
  if (max == 0) return 0;
  uint64_t mask = max, v;
  for (int sh = 1; sh < 64; sh <<= 1) mask |= mask >> sh;
  if (max <= 0xffffffffu)
    while ((v = u32(g) & mask) > max) {}
  else
    while ((v = u64(g) & mask) > max) {}
  return v;
}

/* The n items (itemsize bytes each, stride apart) shuffled by Fisher-Yates
 * from the last, as Generator.shuffle. */
void rt_generator_shuffle(void *bitgen, char *data, int64_t n, int64_t stride, int64_t itemsize) {
  char small[64], *tmp = itemsize <= 64 ? small : malloc((size_t)itemsize);
  if (!tmp) abort();
  for (int64_t i = n - 1; i >= 1; i--) {
    char *a = data + i * stride, *b = data + (int64_t)interval(bitgen, (uint64_t)i) * stride;
    memcpy(tmp, a, (size_t)itemsize);
    memcpy(a, b, (size_t)itemsize);
    memcpy(b, tmp, (size_t)itemsize);
  }
  if (tmp != small) free(tmp);
}

void rt_generator_permutation(void *bitgen, int64_t *out, int64_t n) {
  for (int64_t i = 0; i < n; i++) out[i] = i;
  rt_generator_shuffle(bitgen, (char *)out, n, 8, 8);
}

/* ---------------------------------------------------------------- a Generator made in compiled code */

/* numpy.random.default_rng(seed) in compiled code: a PCG64 bit generator
 * seeded as NumPy seeds one from an int (through its SeedSequence), in a
 * reference-counted block of its own (rtgen.h). */
#define PCG_MULT (((unsigned __int128)2549297995355413924ull << 64) | 4865540595714422341ull)

static inline void pcg_step(Pcg64 *p) { p->state = p->state * PCG_MULT + p->inc; }

/* The step, then the state's halves xor-ed and rotated by its top 6 bits (XSL-RR). */
static uint64_t pcg64_next64(void *st) {
  Pcg64 *p = st;
  pcg_step(p);
  uint64_t x = (uint64_t)(p->state >> 64) ^ (uint64_t)p->state;
  unsigned rot = (unsigned)(p->state >> 122);
  return (x >> rot) | (x << ((-rot) & 63));
}

/* A word's low half, its high half kept for the next call: as NumPy's PCG64. */
static uint32_t pcg64_next32(void *st) {
  Pcg64 *p = st;
  if (p->has_uint32) {
    p->has_uint32 = false;
    return p->uinteger;
  }
  uint64_t w = pcg64_next64(st);
  p->has_uint32 = true;
  p->uinteger = (uint32_t)(w >> 32);
  return (uint32_t)w;
}

static double pcg64_next_double(void *st) { return (double)(pcg64_next64(st) >> 11) * (1.0 / 9007199254740992.0); }

/* NumPy's SeedSequence of the 32-bit words of an entropy: they are hashed
 * into a pool of four words, mixed each into each, and the pool hashed
 * out again into the n words of state. */
enum { POOL = 4 };
static const uint32_t INIT_A = 0x43b0d7e5, MULT_A = 0x931e8875, INIT_B = 0x8b51f9dd, MULT_B = 0x58f38ded;
static const uint32_t MIX_MULT_L = 0xca01f9dd, MIX_MULT_R = 0x4973f715;

static uint32_t hashmix(uint32_t value, uint32_t *hash_const) {
  value ^= *hash_const;
  *hash_const *= MULT_A;
  value *= *hash_const;
  return value ^ (value >> 16);
}

static uint32_t mix(uint32_t x, uint32_t y) {
  uint32_t r = MIX_MULT_L * x - MIX_MULT_R * y;
  return r ^ (r >> 16);
}

static void seed_sequence(const uint32_t *entropy, int n, uint32_t *out, int nout) {
  uint32_t pool[POOL], h = INIT_A;
  for (int i = 0; i < POOL; i++) pool[i] = hashmix(i < n ? entropy[i] : 0, &h);
  for (int src = 0; src < POOL; src++)
    for (int dst = 0; dst < POOL; dst++)
      if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src], &h));
  for (int src = POOL; src < n; src++)
    for (int dst = 0; dst < POOL; dst++) pool[dst] = mix(pool[dst], hashmix(entropy[src], &h));
  uint32_t hb = INIT_B;
  for (int i = 0; i < nout; i++) {
    uint32_t v = pool[i % POOL] ^ hb;
    hb *= MULT_B;
    v *= hb;
    out[i] = v ^ (v >> 16);
  }
}

/* PCG64's seeding from four 64-bit words (the high half first): the
 * increment from the last two, the state from the first two, each
 * stepped in as pcg64_srandom does. */
static void pcg64_seed(Pcg64 *p, const uint32_t *w) {
  uint64_t v[4];
  for (int i = 0; i < 4; i++) v[i] = (uint64_t)w[2 * i + 1] << 32 | w[2 * i];
  unsigned __int128 seed = (unsigned __int128)v[0] << 64 | v[1], seq = (unsigned __int128)v[2] << 64 | v[3];
  p->state = 0;
  p->inc = seq << 1 | 1;
  pcg_step(p);
  p->state += seed;
  pcg_step(p);
  p->has_uint32 = false;
  p->uinteger = 0;
}

/* A new Generator of one reference into *out: from seed (an int's 32-bit
 * words, the lowest first, as NumPy splits it), or from the system's
 * entropy (128 bits, as NumPy draws). */
int32_t rt_generator_new(int64_t seed, int32_t from_entropy, void **out) {
  uint32_t entropy[POOL] = {0}, words[8];
  int n = 1;
  if (from_entropy) {
    if (!rt_entropy(entropy, sizeof entropy)) {  /* no entropy device: the clock and an address */
      struct timespec ts;
      clock_gettime(CLOCK_REALTIME, &ts);
      entropy[0] = (uint32_t)ts.tv_nsec, entropy[1] = (uint32_t)ts.tv_sec, entropy[2] = (uint32_t)(uintptr_t)&ts;
    }
    n = POOL;
  } else if (seed < 0) {
    return value_error("expected non-negative integer");
  } else {
    entropy[0] = (uint32_t)seed;
    entropy[1] = (uint32_t)((uint64_t)seed >> 32);
    n = entropy[1] ? 2 : 1;
  }
  OwnedGen *g = malloc(sizeof *g);
  if (!g) {
    rt_set_error(RT_ERR_MEMORY, "out of memory");
    return RT_ERR_MEMORY;
  }
  seed_sequence(entropy, n, words, 8);
  pcg64_seed(&g->pcg, words);
  g->bitgen = (BitGen){&g->pcg, pcg64_next64, pcg64_next32, pcg64_next_double, NULL};  /* NULL: made here */
  g->refs = 1;
  *out = g;
  return RT_OK;
}

void rt_generator_retain(void *bitgen) {
  OwnedGen *g = rt_generator_owned(bitgen);
  if (g) __atomic_add_fetch(&g->refs, 1, __ATOMIC_ACQ_REL);
}

void rt_generator_release(void *bitgen) { rt_generator_drop(bitgen); }
