/* generator.c — the draws of a numpy.random.Generator in compiled code.
 *
 * A Generator argument hands over its bit generator's bitgen_t (NumPy's
 * C API): its state and its next 64-bit word, 32-bit word and double.
 * The draws here are NumPy's Generator's, so a stream from the same state
 * is NumPy's to the bit and the state moves on as NumPy's would: doubles
 * as the bit generator makes them, normals and exponentials by 256-layer
 * ziggurats (tables in ziggurat_tables.h), gamma by Marsaglia and Tsang
 * over those, bounded ints by Lemire's multiply-and-reject.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "ruchey.h"
#include "ziggurat_tables.h"

/* NumPy's bitgen_t (numpy/random/bitgen.h). */
typedef struct BitGen {
  void *state;
  uint64_t (*next_uint64)(void *st);
  uint32_t (*next_uint32)(void *st);
  double (*next_double)(void *st);
  uint64_t (*next_raw)(void *st);
} BitGen;

static inline uint64_t u64(BitGen *g) { return g->next_uint64(g->state); }
static inline uint32_t u32(BitGen *g) { return g->next_uint32(g->state); }
static inline double unit(BitGen *g) { return g->next_double(g->state); }

/* The right edges of the ziggurats' base layers, and 1 / the normal's. */
static const double NOR_R = 3.6541528853610087963519472518, NOR_INV_R = 0.27366123732975827203338247596;
static const double EXP_R = 7.6971174701310497140446280481;

/* ---------------------------------------------------------------- the ziggurats */

/* A normal from one word: its low byte picks the layer, the next bit the
 * sign, the next 52 bits the point across the layer. Inside the layer's
 * inner rectangle (k) it is done; in the base layer a point of the tail
 * past r is drawn from exponentials (Marsaglia's method); in another
 * layer the point is kept if it falls under the curve. */
static double zig_normal(BitGen *g) {
  for (;;) {
    uint64_t r = u64(g);
    int layer = (int)(r & 0xff);
    r >>= 8;
    uint64_t mag = (r >> 1) & 0x000fffffffffffffull;
    double x = (double)mag * zig_nor_w[layer];
    if (r & 1) x = -x;
    if (mag < zig_nor_k[layer]) return x;
    if (layer == 0) {
      for (;;) {  /* 1 - u: never log(0) */
        double xx = -NOR_INV_R * log(1.0 - unit(g)), yy = -log(1.0 - unit(g));
        if (yy + yy > xx * xx) return (mag >> 8) & 1 ? -(NOR_R + xx) : NOR_R + xx;
      }
    }
    double below = zig_nor_f[layer], above = zig_nor_f[layer - 1];
    if ((above - below) * unit(g) + below < exp(-0.5 * x * x)) return x;
  }
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
    if (layer == 0) return EXP_R - log(1.0 - unit(g));
    double below = zig_exp_f[layer], above = zig_exp_f[layer - 1];
    if ((above - below) * unit(g) + below < exp(-x)) return x;
  }
}

/* Marsaglia and Tsang's method above shape 1 (over the ziggurat's
 * normals); below it, Johnk's rejection against an exponential. */
static double gen_gamma(BitGen *g, double shape) {
  if (shape == 1.0) return zig_exponential(g);
  if (shape == 0.0) return 0.0;
  if (shape < 1.0) {
    for (;;) {
      double u = unit(g), v = zig_exponential(g);
      if (u <= 1.0 - shape) {
        double x = pow(u, 1.0 / shape);
        if (x <= v) return x;
      } else {
        double y = -log((1.0 - u) / shape), x = pow(1.0 - shape + shape * y, 1.0 / shape);
        if (x <= v + y) return x;
      }
    }
  }
  double b = shape - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * b);
  for (;;) {
    double x, v;
    do {
      x = zig_normal(g);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    double u = unit(g);
    if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return b * v;
    if (log(u) < 0.5 * x * x + b * (1.0 - v + log(v))) return b * v;
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
  default: return RT_OK;
  }
}

/* n draws of distribution d (RD_RANDOM, RD_UNIFORM: low, high; RD_NORMAL:
 * loc, scale; RD_EXPONENTIAL: scale; RD_GAMMA: shape, scale) into out. */
int32_t rt_generator_draw(void *bitgen, int32_t d, const double *p, double *out, int64_t n) {
  BitGen *g = bitgen;
  int32_t st = check_params(d, p);
  if (st) return st;
  switch (d) {
  case RD_UNIFORM:
    for (int64_t i = 0; i < n; i++) out[i] = p[0] + (p[1] - p[0]) * unit(g);
    break;
  case RD_NORMAL:
    for (int64_t i = 0; i < n; i++) out[i] = p[0] + p[1] * zig_normal(g);
    break;
  case RD_EXPONENTIAL:
    for (int64_t i = 0; i < n; i++) out[i] = p[0] * zig_exponential(g);
    break;
  case RD_GAMMA:
    for (int64_t i = 0; i < n; i++) out[i] = p[1] * gen_gamma(g, p[0]);
    break;
  default:
    for (int64_t i = 0; i < n; i++) out[i] = unit(g);
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

int32_t rt_generator_ints(void *bitgen, int64_t low, int64_t high, int32_t endpoint, int64_t *out, int64_t n) {
  if (endpoint ? low > high : low >= high) return value_error(endpoint ? "low > high" : "low >= high");
  uint64_t rng = (uint64_t)high - (uint64_t)low - !endpoint;
  for (int64_t i = 0; i < n; i++) out[i] = (int64_t)((uint64_t)low + bounded_lemire(bitgen, rng));
  return RT_OK;
}
