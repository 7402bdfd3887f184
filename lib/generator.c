/* generator.c — the draws of a numpy.random.Generator in compiled code,
 * and the Generators numpy.random.default_rng makes there.
 *
 * A Generator argument hands over its bit generator's bitgen_t (NumPy's
 * C API): its state and its next 64-bit word, 32-bit word and double.
 * The draws here are NumPy's Generator's, so a stream from the same state
 * is NumPy's to the bit and the state moves on as NumPy's would: doubles
 * as the bit generator makes them, normals and exponentials by 256-layer
 * ziggurats (tables in ziggurat_tables.h; float32's ziggurats of their
 * own over 32-bit words), gamma by Marsaglia and Tsang over those, beta,
 * von Mises, Poisson and binomial by the samplers the legacy functions
 * share (random_samplers.h, the Generator's changes flagged), the rest
 * over these as NumPy's distributions.c draws them, bounded ints by
 * Lemire's multiply-and-reject, shuffles by masked rejection, choice's
 * samples by Floyd's algorithm or a partial shuffle. A Generator made in
 * compiled code is NumPy's PCG64 seeded through its SeedSequence (rtgen.h
 * holds its block).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ruchey.h"
#include "rtgen.h"
#include "logfactorial_table.h"
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

/* ---------------------------------------------------------------- float32: their own ziggurats */

static const float NOR_R_F = 3.6541528853610087963519472518f, NOR_INV_R_F = 0.27366123732975827203338247596f;
static const float EXP_R_F = 7.6971174701310497140446280481f;

/* 24 bits of a 32-bit word. */
static inline float unit_f(BitGen *g) { return (float)(u32(g) >> 8) * (1.0f / 16777216.0f); }

static float zig_normal_f_rare(BitGen *g, int layer, uint32_t mag, float x);

/* A normal from a 32-bit word: the layer's byte, the sign's bit, 23 bits
 * across the layer; inside the layer's inner rectangle it is done, the
 * path inlined as zig_normal's. */
static inline __attribute__((always_inline)) float zig_normal_f(BitGen *g) {
  uint32_t r = u32(g), mag = (r >> 9) & 0x7fffff;
  int layer = (int)(r & 0xff);
  float x = (float)mag * zig_nor_w_f[layer];
  if ((r >> 8) & 1) x = -x;
  if (mag < zig_nor_k_f[layer]) return x;
  return zig_normal_f_rare(g, layer, mag, x);
}

/* The base layer's tail, or the wedge's test against exp in double (as
 * NumPy's), a miss drawing a new word. */
static __attribute__((noinline)) float zig_normal_f_rare(BitGen *g, int layer, uint32_t mag, float x) {
  if (layer == 0) {
    for (;;) {
      float xx = -NOR_INV_R_F * log1pf(-unit_f(g)), yy = -log1pf(-unit_f(g));
      if (yy + yy > xx * xx) return (mag >> 8) & 1 ? -(NOR_R_F + xx) : NOR_R_F + xx;
    }
  }
  if ((zig_nor_f_f[layer - 1] - zig_nor_f_f[layer]) * unit_f(g) + zig_nor_f_f[layer] < exp(-0.5 * x * x)) return x;
  return zig_normal_f(g);
}

/* An exponential from a 32-bit word: a bit dropped, a byte for the layer, 23 bits across. */
static float zig_exponential_f(BitGen *g) {
  for (;;) {
    uint32_t r = u32(g) >> 1;
    int layer = (int)(r & 0xff);
    r >>= 8;
    float x = (float)r * zig_exp_w_f[layer];
    if (r < zig_exp_k_f[layer]) return x;
    if (layer == 0) return EXP_R_F - log1pf(-unit_f(g));
    if ((zig_exp_f_f[layer - 1] - zig_exp_f_f[layer]) * unit_f(g) + zig_exp_f_f[layer] < expf(-x)) return x;
  }
}

/* standard_gamma's float32 draw: draw_gamma's methods, every step in float. */
static float gamma_f(BitGen *g, float shape) {
  if (shape == 1.0f) return zig_exponential_f(g);
  if (shape == 0.0f) return 0.0f;
  if (shape < 1.0f) {
    for (;;) {
      float u = unit_f(g), v = zig_exponential_f(g);
      if (u <= 1.0f - shape) {
        float x = powf(u, 1.0f / shape);
        if (x <= v) return x;
      } else {
        float y = -logf((1.0f - u) / shape), x = powf(1.0f - shape + shape * y, 1.0f / shape);
        if (x <= v + y) return x;
      }
    }
  }
  float b = shape - 1.0f / 3.0f, c = 1.0f / sqrtf(9.0f * b);
  for (;;) {
    float x, v;
    do {
      x = zig_normal_f(g);
      v = 1.0f + c * x;
    } while (v <= 0.0f);
    v = v * v * v;
    float u = unit_f(g);
    if (u < 1.0f - 0.0331f * (x * x) * (x * x)) return b * v;
    if (logf(u) < 0.5f * x * x + b * (1.0f - v + logf(v))) return b * v;
  }
}

#define SAMPLER_SRC BitGen
#define SAMPLER_UNIT(g) unit(g)
#define SAMPLER_NORMAL(g) zig_normal(g)
#define SAMPLER_EXPONENTIAL(g) zig_exponential(g)
#define SAMPLER_NUMBA(g) false  /* Numba's Generator methods draw NumPy's */
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

/* Michael, Schucany and Haas's transformation of a normal: the root
 * taken or its reflection, by a uniform. */
static double gen_wald(BitGen *g, double mean, double scale) {
  double y = zig_normal(g);
  y = mean * y * y;
  double d = 1 + sqrt(1 + 4 * scale / y), x = mean * (1 - 2 / d);
  return unit(g) <= mean / (mean + x) ? x : mean * mean / x;
}

/* Rejection from a continuous Pareto envelope, the uniform drawn from
 * (Umin, 1] so that no candidate passes int64 (above a = 1025, always 1). */
static int64_t gen_zipf(BitGen *g, double a) {
  if (a >= 1025) return 1;
  double am1 = a - 1.0, b = pow(2.0, am1), umin = pow((double)INT64_MAX, -am1);
  for (;;) {
    double u01 = unit(g), u = u01 * umin + (1 - u01), v = unit(g), x = floor(pow(u, -1.0 / am1));
    if (x > (double)INT64_MAX || x < 1.0) continue;
    double t = pow(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return (int64_t)x;
  }
}

/* Kemp's second accelerated generator (LK). */
static int64_t gen_logseries(BitGen *g, double p) {
  double r = log1p(-p);
  for (;;) {
    double v = unit(g);
    if (v >= p) return 1;
    double q = -expm1(r * unit(g));
    if (v <= q * q) {
      int64_t k = (int64_t)floor(1 + log(v) / log(q));
      if (k < 1 || v == 0.0) continue;
      return k;
    }
    return v >= q ? 1 : 2;
  }
}

/* One draw of the rarer distributions, as a double. */
static double gen_other(BitGen *g, int32_t d, const double *p) {
  switch (d) {
  case RD_CHISQUARE: return draw_chisquare(g, p[0]);
  case RD_BETA: return draw_beta(g, p[0], p[1], true);
  case RD_VONMISES: return draw_vonmises(g, p[0], p[1], true);
  case RD_F: return draw_f(g, p[0], p[1]);
  case RD_STANDARD_T: return draw_standard_t(g, p[0]);
  case RD_STANDARD_CAUCHY: return draw_standard_cauchy(g);
  case RD_POWER: return pow(-expm1(-zig_exponential(g)), 1.0 / p[0]);
  case RD_WALD: return gen_wald(g, p[0], p[1]);
  case RD_NONCENTRAL_CHISQUARE: return draw_noncentral_chisquare(g, p[0], p[1], true);
  case RD_NONCENTRAL_F: return draw_noncentral_f(g, p[0], p[1], p[2], true);
  case RD_EXPONENTIAL_INV: return -log1p(-unit(g));
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

/* ---------------------------------------------------------------- hypergeometric */

static uint64_t interval(BitGen *g, uint64_t max);

/* log(k!): the table below 126, Stirling's series to the 1/k**3 term past it. */
static double log_factorial(int64_t k) {
  if (k < 126) return log_factorials[k];
  double x = (double)k;
  return (x + 0.5) * log(x) - x + (0.9189385332046728 + (1.0 / x) * (1 / 12.0 - 1 / (360.0 * x * x)));
}

/* A small sample drawn item by item (each good with the chance of the
 * goods left), stopping once only goods are left; a sample of more than
 * half the population draws the items left out instead. */
static int64_t hypergeometric_by_items(BitGen *g, int64_t good, int64_t bad, int64_t sample) {
  int64_t total = good + bad;
  bool complement = sample > total / 2;
  int64_t to_draw = complement ? total - sample : sample, total_left = total, good_left = good;
  while (to_draw > 0 && good_left > 0 && total_left > good_left) {
    total_left--;  /* interval's bound is inclusive */
    if ((int64_t)interval(g, (uint64_t)total_left) < good_left) good_left--;
    to_draw--;
  }
  if (total_left == good_left) good_left -= to_draw;
  return complement ? good_left : good - good_left;
}

/* The sum of log(k!) over the four factorials of the hypergeometric
 * probability of k (of the smaller colour lo, the larger hi, n drawn). */
static double hypergeometric_log_weight(int64_t k, int64_t lo, int64_t hi, int64_t n) {
  return log_factorial(k) + log_factorial(lo - k) + log_factorial(n - k) + log_factorial(hi - n + k);
}

/* Stadlober's ratio of uniforms (algorithm HRUA): a table-mountain hat
 * of width h about the mean, on the smaller colour and the smaller of
 * the sample and its complement, mapped back at the end. */
static int64_t hypergeometric_hrua(BitGen *g, int64_t good, int64_t bad, int64_t sample) {
  static const double D1 = 1.7155277699214135, D2 = 0.8989161620588988;  /* 2 sqrt(2/e), 3 - 2 sqrt(3/e) */
  int64_t pop = good + bad, n = sample < pop - sample ? sample : pop - sample;
  int64_t lo = good < bad ? good : bad, hi = good < bad ? bad : good;
  double p = (double)lo / (double)pop, q = (double)hi / (double)pop, a = (double)n * p + 0.5;
  double var = (double)(pop - n) * (double)n * p * q / (double)(pop - 1), c = sqrt(var + 0.5), h = D1 * c + D2;
  int64_t mode = (int64_t)floor((double)(n + 1) * (double)(lo + 1) / (double)(pop + 2));
  double top = hypergeometric_log_weight(mode, lo, hi, n);
  double support = (double)((n < lo ? n : lo) + 1), far = floor(a + 16 * c), b = support < far ? support : far;
  int64_t k;
  for (;;) {
    double u = unit(g), v = unit(g), x = a + h * (v - 0.5) / u;
    if (x < 0.0 || x >= b) continue;
    k = (int64_t)floor(x);
    double t = top - hypergeometric_log_weight(k, lo, hi, n);
    if (u * (4.0 - u) - 3.0 <= t) break;  /* under the squeeze */
    if (u * (u - t) >= 1) continue;       /* above the outer bound */
    if (2.0 * log(u) <= t) break;
  }
  if (good > bad) k = n - k;
  return n < sample ? good - k : k;
}

static int64_t gen_hypergeometric(BitGen *g, const double *p) {
  int64_t good = (int64_t)p[0], bad = (int64_t)p[1], sample = (int64_t)p[2];
  if (sample >= 10 && sample <= good + bad - 10) return hypergeometric_hrua(g, good, bad, sample);
  return hypergeometric_by_items(g, good, bad, sample);
}

/* NumPy's checks, in its order: the colours' bound, the sample's, then each's sign. */
static const char *hypergeometric_error(const double *p) {
  int64_t good = (int64_t)p[0], bad = (int64_t)p[1], sample = (int64_t)p[2];
  if (good >= 1000000000 || bad >= 1000000000) return "both ngood and nbad must be less than 1000000000";
  if (good + bad < sample) return "ngood + nbad < nsample";
  return good < 0 ? "ngood < 0" : bad < 0 ? "nbad < 0" : sample < 0 ? "nsample < 0" : NULL;
}

/* One draw of the rarer integer distributions. */
static int64_t gen_other_int(BitGen *g, int32_t d, const double *p) {
  switch (d) {
  case RD_GEOMETRIC: return gen_geometric(g, p[0]);
  case RD_ZIPF: return gen_zipf(g, p[0]);
  case RD_LOGSERIES: return gen_logseries(g, p[0]);
  case RD_HYPERGEOMETRIC: return gen_hypergeometric(g, p);
  default: {  /* RD_NEGATIVE_BINOMIAL: a Poisson of a gamma's lam */
    double lam = (1 - p[1]) / p[1] * draw_gamma(g, p[0]);
    return draw_poisson(g, lam);
  }
  }
}

/* ---------------------------------------------------------------- the draws */

static int32_t value_error(const char *msg) {
  rt_set_error(RT_ERR_VALUE, msg);
  return RT_ERR_VALUE;
}

/* The largest lam NumPy's Poisson draws take (past it, its PTRS passes int64). */
static double poisson_lam_max(void) { return (double)INT64_MAX - 10 * sqrt((double)INT64_MAX); }

/* n > 0 and p in (0, 1], and the Poisson's lam the gamma may reach not past its bound. */
static int32_t check_negative_binomial(double n, double p) {
  if (isnan(n)) return value_error("n must not be NaN");
  if (n <= 0) return value_error("n <= 0");
  if (!(p > 0 && p <= 1)) return value_error("p <= 0, p > 1 or p contains NaNs");
  if ((1 - p) / p * (n + 10 * sqrt(n)) > poisson_lam_max())
    return value_error("n too large or p too small, see Generator.negative_binomial Notes");
  return RT_OK;
}

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
  case RD_NORMAL: return sampler_negative(p[1]) ? value_error("scale < 0") : RT_OK;
  case RD_EXPONENTIAL: return sampler_negative(p[0]) ? value_error("scale < 0") : RT_OK;
  case RD_GAMMA: return sampler_negative(p[0]) ? value_error("shape < 0") : sampler_negative(p[1]) ? value_error("scale < 0") : RT_OK;
  case RD_POISSON:
    if (!(p[0] >= 0)) return value_error("lam < 0 or lam is NaN");
    return p[0] > poisson_lam_max() ? value_error("lam value too large") : RT_OK;
  case RD_BINOMIAL:
    return p[0] < 0 ? value_error("n < 0") : !(p[1] >= 0 && p[1] <= 1) ? value_error("p < 0, p > 1 or p is NaN") : RT_OK;
  case RD_LAPLACE: case RD_LOGISTIC: case RD_GUMBEL: return sampler_negative(p[1]) ? value_error("scale < 0") : RT_OK;
  case RD_RAYLEIGH: return sampler_negative(p[0]) ? value_error("scale < 0") : RT_OK;
  case RD_LOGNORMAL: return sampler_negative(p[1]) ? value_error("sigma < 0") : RT_OK;
  case RD_CHISQUARE: return p[0] <= 0 ? value_error("df <= 0") : RT_OK;
  case RD_PARETO: return p[0] <= 0 ? value_error("a <= 0") : RT_OK;
  case RD_WEIBULL: return sampler_negative(p[0]) ? value_error("a < 0") : RT_OK;
  case RD_TRIANGULAR:
    return p[0] > p[1] ? value_error("left > mode") : p[1] > p[2] ? value_error("mode > right")
           : p[0] == p[2] ? value_error("left == right") : RT_OK;
  case RD_GEOMETRIC: return !(p[0] > 0 && p[0] <= 1) ? value_error("p <= 0, p > 1 or p contains NaNs") : RT_OK;
  case RD_BETA: return p[0] <= 0 ? value_error("a <= 0") : p[1] <= 0 ? value_error("b <= 0") : RT_OK;
  case RD_VONMISES: return sampler_negative(p[1]) ? value_error("kappa < 0") : RT_OK;
  case RD_F: case RD_NONCENTRAL_F:
    return p[0] <= 0 ? value_error("dfnum <= 0") : p[1] <= 0 ? value_error("dfden <= 0")
           : d == RD_NONCENTRAL_F && sampler_negative(p[2]) ? value_error("nonc < 0") : RT_OK;
  case RD_STANDARD_T: return p[0] <= 0 ? value_error("df <= 0") : RT_OK;
  case RD_NONCENTRAL_CHISQUARE:
    return p[0] <= 0 ? value_error("df <= 0") : sampler_negative(p[1]) ? value_error("nonc < 0") : RT_OK;
  case RD_POWER: return p[0] <= 0 ? value_error("a <= 0") : RT_OK;
  case RD_WALD: return p[0] <= 0 ? value_error("mean <= 0") : p[1] <= 0 ? value_error("scale <= 0") : RT_OK;
  case RD_ZIPF: return !(p[0] > 1) ? value_error("a <= 1 or a is NaN") : RT_OK;
  case RD_LOGSERIES: return !(p[0] >= 0 && p[0] < 1) ? value_error("p < 0, p >= 1 or p is NaN") : RT_OK;
  case RD_NEGATIVE_BINOMIAL: return check_negative_binomial(p[0], p[1]);
  case RD_HYPERGEOMETRIC: {
    const char *bad = hypergeometric_error(p);
    return bad ? value_error(bad) : RT_OK;
  }
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
    for (int64_t i = 0; i < n; i++) k[i] = draw_binomial(g, (int64_t)p[0], p[1], true);
    break;
  case RD_GEOMETRIC: case RD_ZIPF: case RD_LOGSERIES: case RD_NEGATIVE_BINOMIAL: case RD_HYPERGEOMETRIC:
    for (int64_t i = 0; i < n; i++) k[i] = gen_other_int(g, d, p);
    break;
  default:
    for (int64_t i = 0; i < n; i++) o[i] = gen_other(g, d, p);
  }
  return RT_OK;
}

/* n float32 draws of random, standard_normal, standard_exponential (by
 * the ziggurat or, RD_EXPONENTIAL_INV, by inversion) or standard_gamma
 * (p[0]: its shape, made a float first as NumPy does) into out. */
int32_t rt_generator_draw_f32(void *bitgen, int32_t d, const double *p, void *out, int64_t n) {
  BitGen *g = bitgen;
  float *o = out, shape = (float)p[0];
  if (d == RD_GAMMA && sampler_negative(shape)) return value_error("shape < 0");
  switch (d) {  /* a loop each: the normals' without a switch per element */
  case RD_NORMAL:
    for (int64_t i = 0; i < n; i++) o[i] = zig_normal_f(g);
    break;
  case RD_EXPONENTIAL:
    for (int64_t i = 0; i < n; i++) o[i] = zig_exponential_f(g);
    break;
  case RD_EXPONENTIAL_INV:
    for (int64_t i = 0; i < n; i++) o[i] = (float)-log1p(-(double)unit_f(g));
    break;
  case RD_GAMMA:
    for (int64_t i = 0; i < n; i++) o[i] = gamma_f(g, shape);
    break;
  default:
    for (int64_t i = 0; i < n; i++) o[i] = unit_f(g);
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

/* NumPy's checks of integers' bounds for a dtype of bits (1: bool), on
 * bounds widened to 128 bits so that a uint64 bound past INT64_MAX
 * compares as the number it is. */
static int32_t check_int_bounds(__int128 low, __int128 high, bool endpoint, int bits, bool is_signed) {
  __int128 min = is_signed ? -((__int128)1 << (bits - 1)) : 0;
  __int128 max = ((__int128)1 << (is_signed ? bits - 1 : bits)) - 1;
  const char *which = low < min ? "low" : high > max + !endpoint ? "high" : NULL;
  if (which) {
    static _Thread_local char msg[64];
    if (bits == 1) snprintf(msg, sizeof msg, "%s is out of bounds for bool", which);
    else snprintf(msg, sizeof msg, "%s is out of bounds for %sint%d", which, is_signed ? "" : "u", bits);
    return value_error(msg);
  }
  if (endpoint ? low > high : low >= high) return value_error(endpoint ? "low > high" : "low >= high");
  return RT_OK;
}

/* A bound passed as 64 bits: a uint64's (unsigned) or an int64's. */
static __int128 bound_value(int64_t bits, bool is_unsigned) {
  return is_unsigned ? (__int128)(uint64_t)bits : (__int128)bits;
}

/* n ints of [low, high) (endpoint: [low, high]) into out, of a dtype of
 * bits (1: bool) and signedness: Generator.integers' draws, the narrow
 * ones from pieces of one 32-bit word, as NumPy's fill buffers them.
 * unsigned_bounds: bit 0 set when low is a uint64, bit 1 when high is. */
int32_t rt_generator_ints(void *bitgen, int64_t low, int64_t high, int32_t unsigned_bounds, int32_t endpoint,
                          int32_t bits, int32_t is_signed, void *out, int64_t n) {
  int32_t st = check_int_bounds(bound_value(low, unsigned_bounds & 1), bound_value(high, unsigned_bounds & 2),
                                endpoint, bits, is_signed);
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

/* The sub-arrays at a and b (ndim dimensions of shape and strides) swapped, element by element. */
static void swap_slices(char *a, char *b, int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize) {
  if (ndim == 0) {
    char tmp[16];  /* the widest item (complex128) */
    memcpy(tmp, a, (size_t)itemsize);
    memcpy(a, b, (size_t)itemsize);
    memcpy(b, tmp, (size_t)itemsize);
    return;
  }
  for (int64_t k = 0; k < shape[0]; k++)
    swap_slices(a + k * strides[0], b + k * strides[0], ndim - 1, shape + 1, strides + 1, itemsize);
}

/* NumPy's check of axis against ndim; the other dimensions' shape and
 * strides (ndim - 1 of them) into rest_shape and rest_strides, and axis
 * made non-negative: their product (the lines along axis), or -1 with the
 * error set. */
static int64_t other_axes(int32_t ndim, const int64_t *shape, const int64_t *strides, int64_t *axis,
                          int64_t *rest_shape, int64_t *rest_strides) {
  if (*axis < -ndim || *axis >= ndim) {
    rt_error_format(RT_ERR_AXIS, "axis %lld is out of bounds for array of dimension %lld", *axis, ndim, 0, 0);
    return -1;
  }
  if (*axis < 0) *axis += ndim;
  int64_t lines = 1;
  for (int d = 0, rest = 0; d < ndim; d++) {
    if (d == *axis) continue;
    lines *= shape[d];
    rest_shape[rest] = shape[d];
    rest_strides[rest++] = strides[d];
  }
  return lines;
}

/* x's sub-arrays along axis shuffled by Fisher-Yates from the last, as
 * Generator.shuffle(x, axis): an empty x draws nothing, unless drawn
 * (permutation's index array is drawn whatever the other dimensions). */
int32_t rt_generator_shuffle(void *bitgen, char *data, int32_t ndim, const int64_t *shape, const int64_t *strides,
                             int64_t axis, int64_t itemsize, int32_t drawn) {
  int64_t rest_shape[RC_MAX_NDIM], rest_strides[RC_MAX_NDIM];
  int64_t lines = other_axes(ndim, shape, strides, &axis, rest_shape, rest_strides);
  if (lines < 0) return RT_ERR_VALUE;
  if ((!lines || !shape[axis]) && !drawn) return RT_OK;
  for (int64_t i = shape[axis] - 1; i >= 1; i--) {
    int64_t j = (int64_t)interval(bitgen, (uint64_t)i);
    if (j != i) swap_slices(data + i * strides[axis], data + j * strides[axis], ndim - 1, rest_shape, rest_strides, itemsize);
  }
  return RT_OK;
}

void rt_generator_permutation(void *bitgen, int64_t *out, int64_t n) {
  for (int64_t i = 0; i < n; i++) out[i] = i;
  int64_t stride = 8;
  rt_generator_shuffle(bitgen, (char *)out, 1, &n, &stride, 0, 8, 0);
}

/* ---------------------------------------------------------------- permuted */

/* Whether an array is C-contiguous (fortran: Fortran-contiguous) as
 * NumPy's flags say: its dimensions of one element ignored, an empty one always. */
static bool dense(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize, bool fortran) {
  int64_t step = itemsize;
  for (int k = 0; k < ndim; k++) {
    int d = fortran ? k : ndim - 1 - k;
    if (!shape[d]) return true;
    if (shape[d] != 1 && strides[d] != step) return false;
    step *= shape[d];
  }
  return true;
}

/* Whether permuted(axis=None) walks an array of ndim > 1 in Fortran
 * order, as NumPy's flat view of it: out='s where it is Fortran- and not
 * C-contiguous; a copy of x's (as_copy) where copy(order='K') lays it out
 * so, its axes of more than one element by decreasing stride (ties in
 * order) running backwards. */
static bool walks_fortran(int ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize, bool as_copy) {
  if (!as_copy) return dense(ndim, shape, strides, itemsize, true) && !dense(ndim, shape, strides, itemsize, false);
  int axes[RC_MAX_NDIM], n = 0;
  for (int d = 0; d < ndim; d++)
    if (shape[d] > 1) axes[n++] = d;
  for (int i = 1; i < n; i++)  /* insertion sort: stable */
    for (int k = i; k > 0 && llabs(strides[axes[k]]) > llabs(strides[axes[k - 1]]); k--) {
      int t = axes[k];
      axes[k] = axes[k - 1];
      axes[k - 1] = t;
    }
  for (int k = 1; k < n; k++)
    if (axes[k] > axes[k - 1]) return false;
  return n > 1;
}

/* NumPy's check of an out= array for the standard draws: contiguous (C
 * only, or Fortran too) and writable; a ValueError with its message if not. */
int32_t rt_generator_check_out(int32_t ndim, const int64_t *shape, const int64_t *strides, int64_t itemsize,
                               int32_t c_only, int32_t readonly) {
  if (!readonly && (dense(ndim, shape, strides, itemsize, false) || (!c_only && dense(ndim, shape, strides, itemsize, true))))
    return RT_OK;
  return value_error(c_only ? "Supplied output array must be C-contiguous, writable, aligned, and in machine byte-order."
                            : "Supplied output array must be contiguous, writable, aligned, and in machine byte-order.");
}

/* The byte offset of the flat index i of an array, walked in C order or Fortran order. */
static int64_t flat_offset(int64_t i, int ndim, const int64_t *shape, const int64_t *strides, bool fortran) {
  int64_t off = 0;
  for (int k = 0; k < ndim; k++) {
    int d = fortran ? k : ndim - 1 - k;
    off += (i % shape[d]) * strides[d];
    i /= shape[d];
  }
  return off;
}

static void swap_items(char *a, char *b, int64_t itemsize) { swap_slices(a, b, 0, NULL, NULL, itemsize); }

/* Generator.permuted's shuffle of data in place (x's copy or out=): with
 * by_axis, each line along axis its own Fisher-Yates shuffle, the lines
 * in C order; else all of it as one flat line, in C order or Fortran
 * order (walks_fortran, from order_strides: x's for a copy, else out's). */
int32_t rt_generator_permuted(void *bitgen, char *data, int32_t ndim, const int64_t *shape, const int64_t *strides,
                              int64_t itemsize, int32_t by_axis, int64_t axis, const int64_t *order_strides,
                              int32_t as_copy) {
  BitGen *g = bitgen;
  if (!by_axis) {
    int64_t size = 1;
    for (int d = 0; d < ndim; d++) size *= shape[d];
    bool fortran = ndim > 1 && walks_fortran(ndim, shape, order_strides, itemsize, as_copy);
    for (int64_t i = size - 1; i >= 1; i--) {
      int64_t j = (int64_t)interval(g, (uint64_t)i);
      swap_items(data + flat_offset(i, ndim, shape, strides, fortran), data + flat_offset(j, ndim, shape, strides, fortran),
                 itemsize);
    }
    return RT_OK;
  }
  int64_t rest_shape[RC_MAX_NDIM], rest_strides[RC_MAX_NDIM];
  int64_t lines = other_axes(ndim, shape, strides, &axis, rest_shape, rest_strides);
  if (lines < 0) return RT_ERR_VALUE;
  int64_t len = shape[axis], stride = strides[axis];
  if (!len) return RT_OK;
  for (int64_t line = 0; line < lines; line++) {
    char *base = data + flat_offset(line, ndim - 1, rest_shape, rest_strides, false);
    for (int64_t i = len - 1; i >= 1; i--) {
      int64_t j = (int64_t)interval(g, (uint64_t)i);
      swap_items(base + i * stride, base + j * stride, itemsize);
    }
  }
  return RT_OK;
}

/* ---------------------------------------------------------------- multinomial, dirichlet */

/* What NumPy finds wrong with multinomial's d pvals (narrow: read from
 * float32), in its order; NULL if nothing. RandomState's takes no pvals;
 * a Generator's refuses them first (pvals_error). */
const char *rt_multinomial_pvals_error(const double *p, int64_t d, int32_t narrow) {
  for (int64_t i = 0; i < d; i++)
    if (!(p[i] >= 0) || !(p[i] <= 1)) return "pvals < 0, pvals > 1 or pvals contains NaNs";
  if (d <= 1) return NULL;
  double sum = p[0], c = 0.0, all = 0.0;
  for (int64_t i = 1; i < d - 1; i++) {  /* Kahan's sum of all but the last */
    double y = p[i] - c, t = sum + y;
    c = (t - sum) - y;
    sum = t;
  }
  if (sum <= 1.0 + 1e-12) return NULL;
  for (int64_t i = 0; i < d; i++) all += p[i];
  if (narrow && all < 1.0001)
    return "sum(pvals[:-1].astype(np.float64)) > 1.0. The pvals array is cast to 64-bit floating point prior to "
           "checking the sum. Precision changes when casting may cause problems even if the sum of the original "
           "pvals is valid.";
  return "sum(pvals[:-1]) > 1.0";
}

static const char *pvals_error(const double *p, int64_t d, bool narrow) {
  if (d == 0)
    return "pvals must have at least 1 dimension and the last dimension of pvals must be greater than 0.";
  return rt_multinomial_pvals_error(p, d, narrow);
}

/* One draw of n items into d cells: a binomial for each cell but the
 * last, of the items left and the cell's share of the probability left;
 * the last takes what is left. */
static void multinomial_row(BitGen *g, int64_t n, const double *p, int64_t d, int64_t *out) {
  double left = 1.0;
  for (int64_t j = 0; j < d - 1; j++) {
    out[j] = draw_binomial(g, n, p[j] / left, true);
    n -= out[j];
    if (n <= 0) break;
    left -= p[j];
  }
  if (n > 0) out[d - 1] = n;
}

/* A shape as NumPy prints a tuple, into buf. */
static void shape_text(char *buf, size_t size, int ndim, const int64_t *shape) {
  size_t at = (size_t)snprintf(buf, size, "(");
  for (int i = 0; i < ndim && at < size; i++)
    at += (size_t)snprintf(buf + at, size - at, i ? ", %lld" : "%lld", (long long)shape[i]);
  if (at < size) snprintf(buf + at, size - at, ndim == 1 ? ",)" : ")");
}

/* n's shape (n_ndim of n_shape) against size= (rows_ndim of rows_shape):
 * NumPy's errors where they do not broadcast to size exactly. */
static int32_t check_counts_fit(int n_ndim, const int64_t *n_shape, int rows_ndim, const int64_t *rows_shape) {
  static _Thread_local char msg[512];
  char a[128], b[128];
  bool fits = n_ndim <= rows_ndim, broadcasts = true;
  for (int k = 1; k <= n_ndim; k++) {
    int64_t nd = n_shape[n_ndim - k], sd = k <= rows_ndim ? rows_shape[rows_ndim - k] : 1;
    if (nd != sd && nd != 1) fits = false;
    if (nd != sd && nd != 1 && sd != 1) broadcasts = false;
  }
  if (fits) return RT_OK;
  shape_text(a, sizeof a, n_ndim, n_shape);
  shape_text(b, sizeof b, rows_ndim, rows_shape);
  if (!broadcasts) {
    snprintf(msg, sizeof msg, "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
                              "arg 0 with shape %s and arg 2 with shape %s.", a, b);
    return value_error(msg);
  }
  int nd = n_ndim > rows_ndim ? n_ndim : rows_ndim;
  int64_t both[RC_MAX_NDIM];
  for (int k = 1; k <= nd; k++) {
    int64_t x = k <= n_ndim ? n_shape[n_ndim - k] : 1, y = k <= rows_ndim ? rows_shape[rows_ndim - k] : 1;
    both[nd - k] = x == 1 ? y : x;
  }
  shape_text(a, sizeof a, nd, both);
  snprintf(msg, sizeof msg, "Output size %s is not compatible with broadcast dimensions of inputs %s.", b, a);
  return value_error(msg);
}

/* Generator.multinomial into out (rows_ndim leading dimensions of
 * rows_shape, then d cells; zeroed here): of a count n[0] (n_ndim < 0),
 * or of counts n (n_ndim of n_shape, C-ordered) broadcast over the rows
 * (sized: the rows are size=, which n must broadcast to exactly). */
int32_t rt_generator_multinomial(void *bitgen, const int64_t *n, int32_t n_ndim, const int64_t *n_shape,
                                 const double *pvals, int64_t d, int32_t narrow, int32_t rows_ndim,
                                 const int64_t *rows_shape, int32_t sized, int64_t *out) {
  const char *bad = pvals_error(pvals, d, narrow);
  if (bad) return value_error(bad);
  int64_t rows = 1, counts = 1;
  for (int k = 0; k < rows_ndim; k++) rows *= rows_shape[k];
  for (int k = 0; k < n_ndim; k++) counts *= n_shape[k];
  for (int64_t i = 0; i < (n_ndim < 0 ? 1 : counts); i++)
    if (n[i] < 0) return value_error("n < 0");
  if (n_ndim >= 0 && sized) {
    int32_t st = check_counts_fit(n_ndim, n_shape, rows_ndim, rows_shape);
    if (st) return st;
  }
  memset(out, 0, (size_t)(rows * d) * sizeof *out);
  for (int64_t r = 0; r < rows; r++) {
    int64_t at = 0, rest = r, step = 1;  /* the count of row r: n's index broadcast from the right */
    for (int k = 1; n_ndim > 0 && k <= n_ndim; k++) {
      int64_t sd = rows_shape[rows_ndim - k], nd = n_shape[n_ndim - k];
      if (nd != 1) at += (rest % sd) * step;
      rest /= sd;
      step *= nd;
    }
    multinomial_row(bitgen, n[at], pvals, d, out + r * d);
  }
  return RT_OK;
}

/* Generator.dirichlet's rows draws (k values each) into out, of the
 * concentrations alpha. Where every alpha is below 0.1, by breaking a
 * stick with betas (the gammas could all be 0 there); else gammas over
 * their sum. */
int32_t rt_generator_dirichlet(void *bitgen, const double *alpha, int64_t k, double *out, int64_t rows) {
  BitGen *g = bitgen;
  bool small = k > 0;
  for (int64_t j = 0; j < k; j++) {
    if (alpha[j] < 0) return value_error("alpha < 0");
    small &= alpha[j] < 0.1;  /* NaN: the gammas' way, as NumPy's max */
  }
  memset(out, 0, (size_t)(rows * k) * sizeof *out);
  if (!small) {
    for (int64_t r = 0; r < rows; r++, out += k) {
      double sum = 0.0;
      for (int64_t j = 0; j < k; j++) sum += out[j] = draw_gamma(g, alpha[j]);
      double inv = 1.0 / sum;
      for (int64_t j = 0; j < k; j++) out[j] *= inv;
    }
    return RT_OK;
  }
  double *after = malloc((size_t)k * sizeof *after), sum = 0.0;  /* after[j]: the sum of alpha[j:] */
  if (!after) {
    rt_set_error(RT_ERR_MEMORY, "out of memory");
    return RT_ERR_MEMORY;
  }
  for (int64_t j = k - 1; j >= 0; j--) after[j] = sum += alpha[j];
  for (int64_t r = 0; sum > 0 && r < rows; r++, out += k) {
    double stick = 1.0;
    for (int64_t j = 0; j < k - 1; j++) {
      double v = draw_beta(g, alpha[j], after[j + 1], true);
      out[j] = stick * v;
      stick *= 1.0 - v;
      if (after[j + 1] == 0) break;  /* v was 1: the rest stay 0 */
    }
    out[k - 1] = stick;
  }
  free(after);
  return RT_OK;
}

/* ---------------------------------------------------------------- choice */

/* [first, n) of data shuffled from the last by Lemire's bounded ints: choice's shuffles. */
static void shuffle_ints(BitGen *g, int64_t *data, int64_t n, int64_t first) {
  for (int64_t i = n - 1; i >= first; i--) {
    int64_t j = (int64_t)bounded_lemire(g, (uint64_t)i), t = data[j];
    data[j] = data[i];
    data[i] = t;
  }
}

/* n distinct indices of [0, pop) by Floyd's algorithm (the ones taken in
 * an open-addressed set of a power of two past 1.2 n slots), then
 * shuffled: Generator.choice's way for a small sample. */
static bool choose_floyd(BitGen *g, int64_t pop, int64_t *idx, int64_t n, bool shuffle) {
  uint64_t mask = (uint64_t)(1.2 * (double)n), empty = UINT64_MAX;
  for (int sh = 1; sh < 64; sh <<= 1) mask |= mask >> sh;
  uint64_t *set = malloc((mask + 1) * sizeof *set);
  if (!set) return false;
  memset(set, 0xff, (mask + 1) * sizeof *set);
  for (int64_t j = pop - n; j < pop; j++) {
    uint64_t val = bounded_lemire(g, (uint64_t)j), loc = val & mask;
    while (set[loc] != empty && set[loc] != val) loc = (loc + 1) & mask;
    if (set[loc] == val) {  /* taken: j instead, which cannot be */
      val = (uint64_t)j;
      for (loc = val & mask; set[loc] != empty;) loc = (loc + 1) & mask;
    }
    set[loc] = val;
    idx[j - pop + n] = (int64_t)val;
  }
  free(set);
  if (shuffle) shuffle_ints(g, idx, n, 1);
  return true;
}

/* n distinct indices of [0, pop) evenly: the tail of a partly shuffled
 * arange where the sample is a large part of a large population, else Floyd's. */
static bool choose_distinct(BitGen *g, int64_t pop, int64_t *idx, int64_t n, bool shuffle) {
  if (!(pop > 10000 && n > pop / (shuffle ? 50 : 20))) return choose_floyd(g, pop, idx, n, shuffle);
  int64_t *all = malloc((size_t)pop * sizeof *all);
  if (!all) return false;
  for (int64_t i = 0; i < pop; i++) all[i] = i;
  shuffle_ints(g, all, pop, pop - n > 1 ? pop - n : 1);
  memcpy(idx, all + pop - n, (size_t)n * sizeof *idx);
  free(all);
  return true;
}

/* Generator.choice's n indices into a population of pop (an int a, or
 * an array's length), with or without replacement, by the weights p (np
 * of them, summing to 1 within atol) or evenly (the sample shuffled or not). */
int32_t rt_generator_choice(void *bitgen, int64_t pop, int32_t from_int, const double *p, int64_t np, double atol,
                            int32_t replace, int32_t shuffle, int64_t *idx, int64_t n) {
  static const WeightErrors errors = {
      "a and p must have same size", "Probabilities contain NaN", "Probabilities are not non-negative",
      "Probabilities do not sum to 1. See Notes section of docstring for more information."};
  BitGen *g = bitgen;
  if (from_int ? pop <= 0 && n : pop == 0 && n)
    return value_error(from_int ? "a must be a positive integer unless no samples are taken"
                                : "a cannot be empty unless no samples are taken");
  int64_t positive = 0;
  const char *bad = p ? weights_error(p, pop, np, atol, &errors, &positive) : NULL;
  if (bad) return value_error(bad);
  if (!replace && n > pop) return value_error("Cannot take a larger sample than population when replace is False");
  if (p && !replace && positive < n) return value_error("Fewer non-zero entries in p than size");
  bool ok;
  if (p) ok = choose_weighted(g, p, pop, replace, idx, n);
  else if (replace) return n ? rt_generator_ints(g, 0, pop, 0, 0, 64, 1, idx, n) : RT_OK;
  else ok = choose_distinct(g, pop, idx, n, shuffle);
  if (ok) return RT_OK;
  rt_set_error(RT_ERR_MEMORY, "out of memory");
  return RT_ERR_MEMORY;
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
