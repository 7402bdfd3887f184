/* random.c — the random numbers of compiled code: numpy.random's functions
 * and Python's random module, as Numba has them.
 *
 * Each thread has two Mersenne Twister (MT19937) states of its own, one
 * for numpy.random and one for random, apart from NumPy's and Python's
 * own: a prange loop's threads draw without locks and without racing.
 * A state is seeded on its first draw from the operating system's
 * entropy, or by numpy.random.seed(n) / random.seed(n) in compiled code
 * with MT19937's init_genrand(n), NumPy's legacy seeding of an int. From
 * the same seed the draws follow NumPy's legacy RandomState: the same
 * 53-bit double from two 32-bit words, the same polar Box-Muller with
 * its second value kept, the same masked rejection for bounded ints and
 * the same legacy algorithms for the other distributions; Python's
 * random module draws its doubles, gauss and getrandbits as CPython does
 * (from a state seeded as NumPy seeds, as Numba's is).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "ruchey.h"

/* ---------------------------------------------------------------- MT19937 */

enum { MT_N = 624, MT_M = 397 };

typedef struct MTState {
  uint32_t key[MT_N];
  int pos;          /* the next word of key to temper; MT_N: regenerate first */
  bool seeded;
  bool has_gauss;   /* the polar method's second value waits in gauss */
  double gauss;
  bool numba;       /* the current draw is for code written for Numba (RD_NUMBA): its gamma sampler */
} MTState;

/* init_genrand: Knuth's linear recurrence from one 32-bit seed. */
static void mt_seed(MTState *s, uint32_t seed) {
  s->key[0] = seed;
  for (int i = 1; i < MT_N; i++) s->key[i] = 1812433253u * (s->key[i - 1] ^ (s->key[i - 1] >> 30)) + (uint32_t)i;
  s->pos = MT_N;
  s->has_gauss = false;
  s->gauss = 0;
  s->seeded = true;
}

/* n bytes of the system's entropy into buf; false where it has none. */
bool rt_entropy(void *buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = getrandom((char *)buf + got, n - got, 0);
    if (r <= 0) return false;
    got += (size_t)r;
  }
  return true;
}

/* A state from the system's entropy, as numpy.random.seed() without a
 * seed: the whole key random (not all zero: the top bit set). */
static void mt_seed_entropy(MTState *s) {
  if (!rt_entropy(s->key, sizeof s->key)) {  /* no entropy device: the clock and the state's address */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    mt_seed(s, (uint32_t)(ts.tv_nsec ^ ts.tv_sec ^ (uintptr_t)s));
  }
  s->key[0] |= 0x80000000u;
  s->pos = MT_N;
  s->has_gauss = false;
  s->seeded = true;
}

static inline uint32_t mt_twist(uint32_t upper, uint32_t lower, uint32_t far) {
  uint32_t y = (upper & 0x80000000u) | (lower & 0x7fffffffu);
  return far ^ (y >> 1) ^ (-(y & 1u) & 0x9908b0dfu);
}

static void mt_regenerate(MTState *s) {
  uint32_t *k = s->key;
  int i = 0;
  for (; i < MT_N - MT_M; i++) k[i] = mt_twist(k[i], k[i + 1], k[i + MT_M]);
  for (; i < MT_N - 1; i++) k[i] = mt_twist(k[i], k[i + 1], k[i + MT_M - MT_N]);
  k[MT_N - 1] = mt_twist(k[MT_N - 1], k[0], k[MT_M - 1]);
  s->pos = 0;
}

static inline uint32_t next_u32(MTState *s) {
  if (s->pos == MT_N) mt_regenerate(s);
  uint32_t y = s->key[s->pos++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  return y ^ (y >> 18);
}

/* NumPy's 64-bit word from MT19937: the first draw is the high half. */
static inline uint64_t next_u64(MTState *s) {
  uint64_t hi = next_u32(s);
  return hi << 32 | next_u32(s);
}

/* [0, 1) with 53 random bits: 27 from one word, 26 from the next. */
static inline double next_double(MTState *s) {
  uint32_t a = next_u32(s) >> 5, b = next_u32(s) >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

/* ---------------------------------------------------------------- the thread's states */

enum { STATE_NUMPY, STATE_PYTHON };

typedef struct States {
  MTState of[2];
} States;

static _Thread_local States *states;
static pthread_key_t states_key;  /* frees a thread's states when it ends */
static pthread_once_t states_once = PTHREAD_ONCE_INIT;

/* In a forked child, the thread that forked draws anew from entropy: a
 * child never repeats its parent's numbers (the other threads are gone). */
static void unseed_after_fork(void) {
  if (states) states->of[0].seeded = states->of[1].seeded = false;
}

static void states_init_once(void) {
  pthread_key_create(&states_key, free);
  pthread_atfork(NULL, NULL, unseed_after_fork);
}

static MTState *state_of(int which) {
  if (!states) {
    pthread_once(&states_once, states_init_once);
    if (!(states = calloc(1, sizeof *states))) abort();  /* 5 KB: nothing sensible to raise */
    pthread_setspecific(states_key, states);
  }
  MTState *s = &states->of[which];
  if (!s->seeded) mt_seed_entropy(s);
  return s;
}

int32_t rt_random_seed(int32_t which, int64_t seed, int32_t from_entropy) {
  if (!from_entropy && (seed < 0 || seed > (int64_t)UINT32_MAX)) {
    rt_set_error(RT_ERR_VALUE, "Seed must be between 0 and 2**32 - 1");
    return RT_ERR_VALUE;
  }
  MTState *s = state_of(which);
  if (from_entropy) mt_seed_entropy(s);
  else mt_seed(s, (uint32_t)seed);
  return RT_OK;
}

/* ---------------------------------------------------------------- the states from Python */

/* What numba._helperlib offers for a thread's states (ruchey/numba_shim.py
 * calls these through ctypes): code that keeps compiled draws in step
 * with NumPy's or Python's generator copies that generator's state in
 * and reads it back, and Numba's own tests follow the streams so. */

void *rt_random_state(int32_t which) { return state_of(which); }

/* The state's 624 words into key; returns the index of the next word. */
int32_t rt_random_state_read(const void *state, uint32_t *key) {
  const MTState *s = state;
  memcpy(key, s->key, sizeof s->key);
  return s->pos;
}

/* A state given (NumPy's get_state()[1:3], or the words of Python's
 * getstate()): no normal waits, as after a seed. */
void rt_random_state_write(void *state, int32_t pos, const uint32_t *key) {
  MTState *s = state;
  memcpy(s->key, key, sizeof s->key);
  s->pos = pos;
  s->has_gauss = false;
  s->seeded = true;
}

/* init_genrand(seed): an int seeded as NumPy seeds it. */
void rt_random_state_seed(void *state, uint32_t seed) { mt_seed(state, seed); }

/* MT19937's init_by_array (CPython's seeding of an int's or bytes' words):
 * mixes n words of key into the state from init_genrand(19650218). */
void rt_random_state_seed_words(void *state, const uint32_t *key, int64_t n) {
  MTState *s = state;
  uint32_t *k = s->key;
  mt_seed(s, 19650218u);
  int64_t i = 1, j = 0;
  for (int64_t left = n > MT_N ? n : MT_N; left; left--) {
    k[i] = (k[i] ^ ((k[i - 1] ^ (k[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
    if (++i >= MT_N) k[0] = k[MT_N - 1], i = 1;
    if (++j >= n) j = 0;
  }
  for (int64_t left = MT_N - 1; left; left--) {
    k[i] = (k[i] ^ ((k[i - 1] ^ (k[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
    if (++i >= MT_N) k[0] = k[MT_N - 1], i = 1;
  }
  k[0] = 0x80000000u;  /* not all zero */
}

/* The words of the next 624 draws (MT19937's twist), the index kept. */
void rt_random_state_twist(void *state) {
  MTState *s = state;
  int pos = s->pos;
  mt_regenerate(s);
  s->pos = pos;
}

/* ---------------------------------------------------------------- NumPy's legacy distributions */

/* The polar Box-Muller method: two normals from a point of the unit disc,
 * the second kept for the next call. */
static double legacy_gauss(MTState *s) {
  if (s->has_gauss) {
    s->has_gauss = false;
    return s->gauss;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * next_double(s) - 1.0;
    x2 = 2.0 * next_double(s) - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  double f = sqrt(-2.0 * log(r2) / r2);
  s->gauss = f * x1;
  s->has_gauss = true;
  return f * x2;
}

static double legacy_exponential(MTState *s) { return -log(1.0 - next_double(s)); }

#define SAMPLER_SRC MTState
#define SAMPLER_UNIT(s) next_double(s)
#define SAMPLER_NORMAL(s) legacy_gauss(s)
#define SAMPLER_EXPONENTIAL(s) legacy_exponential(s)
#define SAMPLER_NUMBA(s) ((s)->numba)
#include "random_samplers.h"


static int64_t legacy_geometric(MTState *s, double p) {
  if (p >= 0.333333333333333333333333) {  /* search the cumulative probabilities */
    double sum = p, prod = p, q = 1.0 - p, u = next_double(s);
    int64_t x = 1;
    while (u > sum) {
      prod *= q;
      sum += prod;
      x++;
    }
    return x;
  }
  return (int64_t)ceil(log(1.0 - next_double(s)) / log(1.0 - p));
}

static double legacy_triangular(MTState *s, double left, double mode, double right) {
  double base = right - left, leftbase = mode - left, ratio = leftbase / base;
  double u = next_double(s);
  if (u <= ratio) return left + sqrt(u * (leftbase * base));  /* the products first, as NumPy's */
  return right - sqrt((1.0 - u) * ((right - mode) * base));
}

/* A uniform in (0, 1): zero drawn again (laplace, logistic). */
static double open_double(MTState *s) {
  double u;
  while ((u = next_double(s)) == 0.0) {}
  return u;
}

static double draw_laplace(MTState *s, double loc, double scale) {
  double u;
  do u = next_double(s);
  while (u == 0.0);
  return u >= 0.5 ? loc - scale * log(2.0 - u - u) : loc + scale * log(u + u);
}

static double draw_gumbel(MTState *s, double loc, double scale) {
  double u;
  do u = 1.0 - next_double(s);
  while (u >= 1.0);
  return loc - scale * log(-log(u));
}

/* ---------------------------------------------------------------- the rarer legacy distributions */

/* NumPy's legacy samplers of these, kept as NumPy 1.16 drew them: normals
 * by legacy_gauss (its kept second value among them), gammas by the
 * legacy draw_gamma (chi-squares, F, t, Cauchy and the noncentral ones are
 * random_samplers.h's). Every draw in its own statement, in NumPy's order
 * (C leaves the order of an expression's operands open). */

/* The inverse Gaussian from a normal squared: the smaller root of the
 * quadratic, or its reflection mean**2 / x, by a uniform. */
static double legacy_wald(MTState *s, double mean, double scale) {
  double mu_2l = mean / (2 * scale), y = legacy_gauss(s);
  y = mean * y * y;
  double x = mean + mu_2l * (y - sqrt(4 * scale * y + y * y));
  return next_double(s) <= mean / (mean + x) ? x : mean * mean / x;
}

/* Rejection from a continuous Pareto envelope, candidates past int64
 * drawn again: a Zipf truncated to int64. */
static int64_t legacy_zipf(MTState *s, double a) {
  double am1 = a - 1.0, b = pow(2.0, am1);
  for (;;) {
    double u = 1.0 - next_double(s), v = next_double(s), x = floor(pow(u, -1.0 / am1));
    if (x > (double)INT64_MAX || x < 1.0) continue;
    double t = pow(1.0 + 1.0 / x, am1);
    if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return (int64_t)x;
  }
}

/* Kemp's second accelerated generator (LK), q from log(1 - p). */
static int64_t legacy_logseries(MTState *s, double p) {
  double r = log(1.0 - p);
  for (;;) {
    double v = next_double(s);
    if (v >= p) return 1;
    double q = 1.0 - exp(r * next_double(s));
    if (v <= q * q) {
      if (v == 0.0) continue;  /* NumPy draws again: log(0) */
      int64_t k = (int64_t)floor(1 + log(v) / log(q));
      if (k < 1) continue;
      return k;
    }
    return v >= q ? 1 : 2;
  }
}

/* A Poisson of a gamma's lam; p 0 makes lam infinite. */
static int64_t legacy_negative_binomial(MTState *s, double n, double p) {
  double lam = (1 - p) / p * draw_gamma(s, n);
  return draw_poisson(s, lam);
}

/* A sample of at most 10 drawn item by item: y, the smaller colour's
 * count left, falls by one where a uniform passes its share of the
 * items left. */
static int64_t hypergeometric_by_items(MTState *s, int64_t good, int64_t bad, int64_t sample) {
  int64_t rest = bad + good - sample, k = sample;
  double smaller = (double)(bad < good ? bad : good), y = smaller;
  while (y > 0.0) {
    y -= floor(next_double(s) + y / (double)(rest + k));
    if (--k == 0) break;
  }
  int64_t z = (int64_t)(smaller - y);
  return good > bad ? sample - z : z;
}

/* log(x!) + ... of the four factorials of the probability of k (of the
 * smaller colour lo, the larger hi, m drawn), by NumPy's log-gamma. */
static double hypergeometric_log_weight(int64_t k, int64_t lo, int64_t hi, int64_t m) {
  return log_gamma((double)(k + 1)) + log_gamma((double)(lo - k + 1)) + log_gamma((double)(m - k + 1)) +
         log_gamma((double)(hi - m + k + 1));
}

/* Stadlober's ratio of uniforms (HRUA) as the legacy function has it:
 * its variance scaled by the sample where the Generator's uses the
 * smaller of it and its complement. */
static int64_t hypergeometric_hrua(MTState *s, int64_t good, int64_t bad, int64_t sample) {
  static const double D1 = 1.7155277699214135, D2 = 0.8989161620588988;  /* 2 sqrt(2/e), 3 - 2 sqrt(3/e) */
  int64_t lo = good < bad ? good : bad, hi = good < bad ? bad : good, pop = good + bad;
  int64_t m = sample < pop - sample ? sample : pop - sample;
  double p = (double)lo / (double)pop, q = 1.0 - p, a = (double)m * p + 0.5;
  double c = sqrt((double)(pop - m) * (double)sample * p * q / (double)(pop - 1) + 0.5), h = D1 * c + D2;
  int64_t mode = (int64_t)floor((double)(m + 1) * (double)(lo + 1) / (double)(pop + 2));
  double top = hypergeometric_log_weight(mode, lo, hi, m);
  double b = fmin((double)(m < lo ? m : lo) + 1.0, floor(a + 16 * c));
  int64_t k;
  for (;;) {
    double u = next_double(s), v = next_double(s), x = a + h * (v - 0.5) / u;
    if (x < 0.0 || x >= b) continue;
    k = (int64_t)floor(x);
    double t = top - hypergeometric_log_weight(k, lo, hi, m);
    if (u * (4.0 - u) - 3.0 <= t) break;  /* under the squeeze */
    if (u * (u - t) >= 1) continue;       /* above the outer bound */
    if (2.0 * log(u) <= t) break;
  }
  if (good > bad) k = m - k;
  return m < sample ? good - k : k;
}

static int64_t legacy_hypergeometric(MTState *s, const double *p) {
  int64_t good = (int64_t)p[0], bad = (int64_t)p[1], sample = (int64_t)p[2];
  return sample > 10 ? hypergeometric_hrua(s, good, bad, sample) : hypergeometric_by_items(s, good, bad, sample);
}

/* ---------------------------------------------------------------- the table of draws */

/* One draw of distribution d with parameters p, as a double (the integer
 * ones' values are exact in it below 2**53; their fill writes int64). */
static double draw(MTState *s, int32_t d, const double *p) {
  switch (d) {
  case RD_RANDOM: case RD_PY_RANDOM: return next_double(s);
  case RD_UNIFORM: case RD_PY_UNIFORM: return p[0] + (p[1] - p[0]) * next_double(s);
  case RD_NORMAL: case RD_PY_GAUSS: return p[0] + p[1] * legacy_gauss(s);
  case RD_EXPONENTIAL: return p[0] * legacy_exponential(s);
  case RD_PY_EXPOVARIATE: return -log(1.0 - next_double(s)) / p[0];
  case RD_GAMMA: return p[1] * draw_gamma(s, p[0]);
  case RD_BETA: return draw_beta(s, p[0], p[1], false);
  case RD_CHISQUARE: return draw_chisquare(s, p[0]);
  case RD_LOGNORMAL: return exp(p[0] + p[1] * legacy_gauss(s));
  case RD_LAPLACE: return draw_laplace(s, p[0], p[1]);
  case RD_LOGISTIC: {
    double u = open_double(s);
    return p[0] + p[1] * log(u / (1.0 - u));
  }
  case RD_GUMBEL: return draw_gumbel(s, p[0], p[1]);
  case RD_PARETO: return exp(legacy_exponential(s) / p[0]) - 1;
  case RD_RAYLEIGH: return p[0] * sqrt(-2.0 * log1p(-next_double(s)));
  case RD_WEIBULL: return p[0] == 0.0 ? 0.0 : pow(legacy_exponential(s), 1.0 / p[0]);
  case RD_TRIANGULAR: return legacy_triangular(s, p[0], p[1], p[2]);
  case RD_VONMISES: return draw_vonmises(s, p[0], p[1], false);
  case RD_F: return draw_f(s, p[0], p[1]);
  case RD_STANDARD_T: return draw_standard_t(s, p[0]);
  case RD_STANDARD_CAUCHY: return draw_standard_cauchy(s);
  case RD_POWER: return pow(1 - exp(-legacy_exponential(s)), 1. / p[0]);
  case RD_WALD: return legacy_wald(s, p[0], p[1]);
  case RD_NONCENTRAL_CHISQUARE: return draw_noncentral_chisquare(s, p[0], p[1], false);
  case RD_NONCENTRAL_F: return draw_noncentral_f(s, p[0], p[1], p[2], false);
  default: return 0.0;
  }
}

static int64_t draw_int(MTState *s, int32_t d, const double *p) {
  switch (d) {
  case RD_POISSON: return draw_poisson(s, p[0]);
  case RD_BINOMIAL: return draw_binomial(s, (int64_t)p[0], p[1], false);
  case RD_GEOMETRIC: return legacy_geometric(s, p[0]);
  case RD_ZIPF: return legacy_zipf(s, p[0]);
  case RD_LOGSERIES: return legacy_logseries(s, p[0]);
  case RD_NEGATIVE_BINOMIAL: return legacy_negative_binomial(s, p[0], p[1]);
  case RD_HYPERGEOMETRIC: return legacy_hypergeometric(s, p);
  default: return 0;
  }
}

static bool is_int_draw(int32_t d) {
  return d == RD_POISSON || d == RD_BINOMIAL || d == RD_GEOMETRIC || d == RD_ZIPF || d == RD_LOGSERIES ||
         d == RD_NEGATIVE_BINOMIAL || d == RD_HYPERGEOMETRIC;
}

static int32_t value_error(const char *msg) {
  rt_set_error(RT_ERR_VALUE, msg);
  return RT_ERR_VALUE;
}

/* The legacy hypergeometric's checks, in NumPy's order: the sample
 * against the population first, then each count's sign (a sample of at
 * least 1). */
static int32_t hypergeometric_check(const double *p) {
  int64_t good = (int64_t)p[0], bad = (int64_t)p[1], sample = (int64_t)p[2];
  if (good + bad < sample) return value_error("ngood + nbad < nsample");
  return good < 0 ? value_error("ngood < 0") : bad < 0 ? value_error("nbad < 0")
         : sample < 1 ? value_error("nsample < 1 or nsample is NaN") : RT_OK;
}

/* NumPy's checks of the parameters, with its messages; NaN passes where
 * NumPy lets it, and -0.0 is negative where NumPy tests the sign bit. */
static int32_t check_params(int32_t d, const double *p) {
  switch (d) {
  case RD_UNIFORM:
    if (isfinite(p[1] - p[0])) return RT_OK;
    rt_set_error(RT_ERR_OVERFLOW, "Range exceeds valid bounds");
    return RT_ERR_OVERFLOW;
  case RD_NORMAL: case RD_LAPLACE: case RD_LOGISTIC: case RD_GUMBEL:
    return sampler_negative(p[1]) ? value_error("scale < 0") : RT_OK;
  case RD_EXPONENTIAL: case RD_RAYLEIGH: return sampler_negative(p[0]) ? value_error("scale < 0") : RT_OK;
  case RD_GAMMA:
    return sampler_negative(p[0]) ? value_error("shape < 0") : sampler_negative(p[1]) ? value_error("scale < 0") : RT_OK;
  case RD_BETA: return p[0] <= 0 ? value_error("a <= 0") : p[1] <= 0 ? value_error("b <= 0") : RT_OK;
  case RD_CHISQUARE: return p[0] <= 0 ? value_error("df <= 0") : RT_OK;
  case RD_LOGNORMAL: return sampler_negative(p[1]) ? value_error("sigma < 0") : RT_OK;
  case RD_PARETO: return p[0] <= 0 ? value_error("a <= 0") : RT_OK;
  case RD_WEIBULL: return sampler_negative(p[0]) ? value_error("a < 0") : RT_OK;
  case RD_TRIANGULAR:
    return p[0] > p[1] ? value_error("left > mode") : p[1] > p[2] ? value_error("mode > right")
           : p[0] == p[2] ? value_error("left == right") : RT_OK;
  case RD_VONMISES: return sampler_negative(p[1]) ? value_error("kappa < 0") : RT_OK;
  case RD_POISSON:
    if (!(p[0] >= 0)) return value_error("lam < 0 or lam is NaN");
    return p[0] > (double)INT64_MAX - 10 * sqrt((double)INT64_MAX) ? value_error("lam value too large") : RT_OK;
  case RD_BINOMIAL:
    return p[0] < 0 ? value_error("n < 0") : !(p[1] >= 0 && p[1] <= 1) ? value_error("p < 0, p > 1 or p is NaN") : RT_OK;
  case RD_GEOMETRIC: return !(p[0] > 0 && p[0] <= 1) ? value_error("p <= 0, p > 1 or p contains NaNs") : RT_OK;
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
  case RD_NEGATIVE_BINOMIAL:  /* a NaN n passes, as NumPy's legacy check lets it */
    return p[0] <= 0 ? value_error("n <= 0") : !(p[1] >= 0 && p[1] <= 1) ? value_error("p < 0, p > 1 or p is NaN") : RT_OK;
  case RD_HYPERGEOMETRIC: return hypergeometric_check(p);
  case RD_PY_EXPOVARIATE: return p[0] == 0 ? (rt_set_error(RT_ERR_ZERODIV, "float division by zero"), RT_ERR_ZERODIV) : RT_OK;
  default: return RT_OK;
  }
}

/* Numba's gamma refuses a shape or scale of 0 too, with its own message. */
static int32_t check_numba_params(int32_t d, const double *p) {
  if (d == RD_GAMMA && (p[0] <= 0 || p[1] <= 0)) return value_error("gammavariate: alpha and beta must be > 0.0");
  return check_params(d, p);
}

int32_t rt_random_draw(int32_t d, const double *p, void *out, int64_t n) {
  bool numba = d & RD_NUMBA;
  d &= ~RD_NUMBA;
  int32_t st = numba ? check_numba_params(d, p) : check_params(d, p);
  if (st) return st;
  MTState *s = state_of(d >= RD_PY_RANDOM ? STATE_PYTHON : STATE_NUMPY);
  s->numba = numba;
  if (is_int_draw(d)) {
    int64_t *o = out;
    for (int64_t i = 0; i < n; i++) o[i] = draw_int(s, d, p);
    return RT_OK;
  }
  double *o = out;
  switch (d) {  /* the common ones without the switch per element */
  case RD_RANDOM:
    for (int64_t i = 0; i < n; i++) o[i] = next_double(s);
    break;
  case RD_NORMAL:
    for (int64_t i = 0; i < n; i++) o[i] = p[0] + p[1] * legacy_gauss(s);
    break;
  default:
    for (int64_t i = 0; i < n; i++) o[i] = draw(s, d, p);
  }
  return RT_OK;
}

/* ---------------------------------------------------------------- multinomial, dirichlet */

/* numpy.random.multinomial: rows draws of n items into d cells each, as
 * RandomState's: its checks in its order, then for each cell but the last
 * a binomial of the items left and the cell's share of the probability
 * left; the last takes what is left. The binomial is the Generator's
 * algorithm (none drawn for n or p 0) over this stream, as NumPy to 2.4
 * draws it, and the legacy binomial from 2.5 on, as the installed NumPy. */
int32_t rt_random_multinomial(int64_t n, const double *pvals, int64_t d, int32_t narrow, int64_t *out, int64_t rows) {
  const char *bad = rt_multinomial_pvals_error(pvals, d, narrow);
  if (bad) return value_error(bad);
  if (n < 0) return value_error("n < 0");
  memset(out, 0, (size_t)(rows * d) * sizeof *out);
  MTState *s = state_of(STATE_NUMPY);
  for (int64_t r = 0; d && r < rows; r++, out += d) {
    int64_t left = n;
    double share = 1.0;
    for (int64_t j = 0; j < d - 1; j++) {
      out[j] = draw_binomial(s, left, pvals[j] / share, rt_numpy_version < 205);
      left -= out[j];
      if (left <= 0) break;
      share -= pvals[j];
    }
    if (left > 0) out[d - 1] = left;
  }
  return RT_OK;
}

/* numpy.random.dirichlet: rows draws of k values each, legacy gammas (or
 * Numba's, numba nonzero) over their sum (RandomState has no
 * stick-breaking for small alphas). */
int32_t rt_random_dirichlet(const double *alpha, int64_t k, double *out, int64_t rows, int32_t numba) {
  for (int64_t j = 0; j < k; j++)
    if (alpha[j] <= 0) return value_error(numba ? "dirichlet: alpha must be > 0.0" : "alpha <= 0");
  MTState *s = state_of(STATE_NUMPY);
  s->numba = numba;
  for (int64_t r = 0; k && r < rows; r++, out += k) {
    double sum = 0.0;
    for (int64_t j = 0; j < k; j++) sum += out[j] = draw_gamma(s, alpha[j]);
    double inv = 1 / sum;  /* NumPy multiplies by the inverse, Numba divides */
    for (int64_t j = 0; j < k; j++) out[j] = numba ? out[j] / sum : out[j] * inv;
  }
  return RT_OK;
}

/* One double of numpy.random.random() or random.random(), and one normal
 * of numpy.random's: the calls a loop makes once per element. */
double rt_random_double(int32_t which) { return next_double(state_of(which)); }
double rt_random_gauss(double loc, double scale) { return loc + scale * legacy_gauss(state_of(STATE_NUMPY)); }

/* ---------------------------------------------------------------- integers */

/* [0, rng] by NumPy's masked rejection: 32-bit words while rng fits in one. */
static uint64_t bounded_masked(MTState *s, uint64_t rng) {
  if (rng == 0) return 0;
  uint64_t mask = rng;
  for (int sh = 1; sh < 64; sh <<= 1) mask |= mask >> sh;
  if (rng <= 0xffffffffu) {
    if (rng == 0xffffffffu) return next_u32(s);
    uint32_t v;
    while ((v = next_u32(s) & (uint32_t)mask) > rng) {}
    return v;
  }
  if (rng == UINT64_MAX) return next_u64(s);
  uint64_t v;
  while ((v = next_u64(s) & mask) > rng) {}
  return v;
}

/* Python's getrandbits(k), 0 < k <= 64: the first word the low bits. */
static uint64_t getrandbits(MTState *s, int k) {
  if (k <= 32) return next_u32(s) >> (32 - k);
  uint64_t lo = next_u32(s);
  return (uint64_t)(next_u32(s) >> (64 - k)) << 32 | lo;
}

/* [0, n) as Python's _randbelow: getrandbits of n's bit length until below n. */
static uint64_t randbelow(MTState *s, uint64_t n) {
  int k = 64 - __builtin_clzll(n);
  uint64_t r;
  while ((r = getrandbits(s, k)) >= n) {}
  return r;
}

/* numpy.random.randint(low, high) (how: RI_NUMPY, high exclusive),
 * random.randint(low, high) (RI_PY_RANDINT, inclusive) or
 * random.randrange(low, high) (RI_PY_RANDRANGE): n of them into out. */
int32_t rt_random_ints(int32_t how, int64_t low, int64_t high, int64_t *out, int64_t n) {
  if (how == RI_NUMPY) {
    if (low >= high) return value_error("low >= high");
    MTState *s = state_of(STATE_NUMPY);
    uint64_t rng = (uint64_t)high - (uint64_t)low - 1;
    for (int64_t i = 0; i < n; i++) out[i] = (int64_t)((uint64_t)low + bounded_masked(s, rng));
    return RT_OK;
  }
  uint64_t width = (uint64_t)high - (uint64_t)low + (how == RI_PY_RANDINT);
  if (how == RI_PY_RANDINT ? high < low : high <= low) {
    rt_error_format(RT_ERR_VALUE, "empty range for randrange() (%lld, %lld, %lld)", low,
                    high + (how == RI_PY_RANDINT), (int64_t)width, 0);
    return RT_ERR_VALUE;
  }
  MTState *s = state_of(STATE_PYTHON);
  for (int64_t i = 0; i < n; i++) out[i] = (int64_t)((uint64_t)low + (width ? randbelow(s, width) : next_u64(s)));
  return RT_OK;
}

int64_t rt_random_getrandbits(int64_t k) {
  return k <= 0 ? 0 : (int64_t)getrandbits(state_of(STATE_PYTHON), k > 64 ? 64 : (int)k);
}

/* ---------------------------------------------------------------- shuffle, permutation, choice */

/* [0, max] by masking: NumPy's shuffle's draw. */
static uint64_t random_interval(MTState *s, uint64_t max) {
  if (max == 0) return 0;
  uint64_t mask = max, v;
  for (int sh = 1; sh < 64; sh <<= 1) mask |= mask >> sh;
  if (max <= 0xffffffffu)
    while ((v = next_u32(s) & mask) > max) {}
  else
    while ((v = next_u64(s) & mask) > max) {}
  return v;
}

/* NumPy's shuffle: the n items (itemsize bytes each, stride apart) by
 * Fisher-Yates from the last. */
void rt_random_shuffle(char *data, int64_t n, int64_t stride, int64_t itemsize) {
  MTState *s = state_of(STATE_NUMPY);
  char small[64], *tmp = itemsize <= 64 ? small : malloc((size_t)itemsize);
  if (!tmp) abort();
  for (int64_t i = n - 1; i >= 1; i--) {
    int64_t j = (int64_t)random_interval(s, (uint64_t)i);
    char *a = data + i * stride, *b = data + j * stride;
    memcpy(tmp, a, (size_t)itemsize);
    memcpy(a, b, (size_t)itemsize);
    memcpy(b, tmp, (size_t)itemsize);
  }
  if (tmp != small) free(tmp);
}

void rt_random_permutation(int64_t *out, int64_t n) {
  for (int64_t i = 0; i < n; i++) out[i] = i;
  rt_random_shuffle((char *)out, n, 8, 8);
}

/* numpy.random.choice's indices into a population of pop (an int a, or
 * an array's length): n of them, with or without replacement, by the
 * weights p (np of them, summing to 1 within atol) or evenly. */
int32_t rt_random_choice(int64_t pop, int32_t from_int, const double *p, int64_t np, double atol, int32_t replace,
                         int64_t *idx, int64_t n) {
  static const WeightErrors errors = {"'a' and 'p' must have same size", "probabilities contain NaN",
                                      "probabilities are not non-negative", "probabilities do not sum to 1"};
  if (pop <= 0 && n)
    return value_error(from_int ? "a must be greater than 0 unless no samples are taken"
                                : "'a' cannot be empty unless no samples are taken");
  int64_t positive = 0;
  const char *bad = p ? weights_error(p, pop, np, atol, &errors, &positive) : NULL;
  if (bad) return value_error(bad);
  if (!replace && n > pop) return value_error("Cannot take a larger sample than population when 'replace=False'");
  if (p && !replace && positive < n) return value_error("Fewer non-zero entries in p than size");
  MTState *s = state_of(STATE_NUMPY);
  if (!p && replace) {
    for (int64_t i = 0; i < n; i++) idx[i] = (int64_t)bounded_masked(s, (uint64_t)pop - 1);
    return RT_OK;
  }
  if (!p) {  /* the first n of a permutation of them all */
    int64_t *perm = malloc((size_t)(pop ? pop : 1) * sizeof *perm);
    if (!perm) return value_error("out of memory");
    rt_random_permutation(perm, pop);
    memcpy(idx, perm, (size_t)n * sizeof *idx);
    free(perm);
    return RT_OK;
  }
  return choose_weighted(s, p, pop, replace, idx, n) ? RT_OK : value_error("out of memory");
}

void rt_register_random(void (*define)(const char *name, void *addr, void *ctx), void *ctx) {
  define("rt_random_seed", (void *)rt_random_seed, ctx);
  define("rt_random_draw", (void *)rt_random_draw, ctx);
  define("rt_random_double", (void *)rt_random_double, ctx);
  define("rt_random_gauss", (void *)rt_random_gauss, ctx);
  define("rt_random_ints", (void *)rt_random_ints, ctx);
  define("rt_random_getrandbits", (void *)rt_random_getrandbits, ctx);
  define("rt_random_shuffle", (void *)rt_random_shuffle, ctx);
  define("rt_random_permutation", (void *)rt_random_permutation, ctx);
  define("rt_random_choice", (void *)rt_random_choice, ctx);
  define("rt_generator_draw", (void *)rt_generator_draw, ctx);
  define("rt_generator_draw_f32", (void *)rt_generator_draw_f32, ctx);
  define("rt_generator_choice", (void *)rt_generator_choice, ctx);
  define("rt_generator_permuted", (void *)rt_generator_permuted, ctx);
  define("rt_generator_multinomial", (void *)rt_generator_multinomial, ctx);
  define("rt_generator_dirichlet", (void *)rt_generator_dirichlet, ctx);
  define("rt_random_multinomial", (void *)rt_random_multinomial, ctx);
  define("rt_random_dirichlet", (void *)rt_random_dirichlet, ctx);
  define("rt_generator_check_out", (void *)rt_generator_check_out, ctx);
  define("rt_generator_multivariate_normal", (void *)rt_generator_multivariate_normal, ctx);
  define("rt_generator_ints", (void *)rt_generator_ints, ctx);
  define("rt_generator_normal", (void *)rt_generator_normal, ctx);
  define("rt_generator_new", (void *)rt_generator_new, ctx);
  define("rt_generator_shuffle", (void *)rt_generator_shuffle, ctx);
  define("rt_generator_permutation", (void *)rt_generator_permutation, ctx);
  define("rt_generator_retain", (void *)rt_generator_retain, ctx);
  define("rt_generator_release", (void *)rt_generator_release, ctx);
}
