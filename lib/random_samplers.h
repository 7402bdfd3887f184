/* random_samplers.h — NumPy's gamma, beta, von Mises, Poisson, binomial
 * and chi-square-based samplers, shared by numpy.random's legacy functions
 * (lib/random.c, over its Mersenne Twister) and a Generator's methods
 * (lib/generator.c, over its bit generator), which draw them alike from
 * their own uniforms, normals and exponentials (where the Generator's
 * algorithm was changed from the legacy one, a flag says which). The
 * includer defines SAMPLER_SRC, the type of its source, and
 * SAMPLER_UNIT(s) (a double of [0, 1)), SAMPLER_NORMAL(s) and
 * SAMPLER_EXPONENTIAL(s) (standard draws) from it, and SAMPLER_NUMBA(s):
 * whether s draws for code written for Numba, whose gammas (and the
 * betas, chi-squares, F, t and negative binomials drawn from them) are
 * Numba's own sampler, CPython's random.gammavariate over the uniforms.
 */
#ifndef SAMPLER_SRC
#error "define SAMPLER_SRC, SAMPLER_UNIT, SAMPLER_NORMAL, SAMPLER_EXPONENTIAL and SAMPLER_NUMBA before including random_samplers.h"
#endif

/* Numba's gamma of shape alpha (CPython's gammavariate): Cheng's
 * rejection above 1 (uniforms kept inside (1e-7, 1 - 1e-7)), an
 * exponential at 1, Kennedy and Gentle's algorithm GS below. A NaN shape
 * is NaN (Numba's loop never ends there). */
static double numba_gamma(SAMPLER_SRC *s, double alpha) {
  static const double LOG4 = 1.3862943611198906, SG_MAGICCONST = 2.504077396776274, E = 2.718281828459045;  /* 1 + log(4.5) */
  if (isnan(alpha)) return NAN;
  if (alpha > 1.0) {
    double ainv = sqrt(2.0 * alpha - 1.0), bbb = alpha - LOG4, ccc = alpha + ainv;
    for (;;) {
      double u1 = SAMPLER_UNIT(s);
      if (!(1e-7 < u1 && u1 < .9999999)) continue;
      double u2 = 1.0 - SAMPLER_UNIT(s);
      double v = log(u1 / (1.0 - u1)) / ainv, x = alpha * exp(v), z = u1 * u1 * u2, r = bbb + ccc * v - x;
      if (r + SG_MAGICCONST - 4.5 * z >= 0.0 || r >= log(z)) return x;
    }
  }
  if (alpha == 1.0) return -log(1.0 - SAMPLER_UNIT(s));
  for (;;) {
    double u = SAMPLER_UNIT(s), b = (E + alpha) / E, p = b * u;
    double x = p <= 1.0 ? pow(p, 1.0 / alpha) : -log((b - p) / alpha);
    double u1 = SAMPLER_UNIT(s);
    if (p > 1.0 ? u1 <= pow(x, alpha - 1.0) : u1 <= exp(-x)) return x;
  }
}

/* Marsaglia and Tsang's method above shape 1 (over the source's
 * normals); below it, Johnk's rejection against an exponential. */
static double draw_gamma(SAMPLER_SRC *s, double shape) {
  if (SAMPLER_NUMBA(s)) return numba_gamma(s, shape);
  if (shape == 1.0) return SAMPLER_EXPONENTIAL(s);
  if (shape == 0.0) return 0.0;
  if (shape < 1.0) {
    for (;;) {
      double u = SAMPLER_UNIT(s), v = SAMPLER_EXPONENTIAL(s);
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
      x = SAMPLER_NORMAL(s);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    double u = SAMPLER_UNIT(s);
    if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return b * v;
    if (log(u) < 0.5 * x * x + b * (1.0 - v + log(v))) return b * v;
  }
}

static const double SAMPLER_PI = 3.14159265358979323846;

/* A parameter NumPy holds non-negative: it tests the sign bit, so -0.0
 * is refused too, and lets NaN through. */
static inline bool sampler_negative(double x) { return !isnan(x) && signbit(x); }

/* x / (x + y) from x's and y's logarithms, where the powers underflowed:
 * the legacy way (shifted by the larger) or the Generator's (by log1p). */
static double beta_from_logs(double lx, double ly, bool generator) {
  if (generator) {
    double delta = lx - ly;
    return delta > 0 ? exp(-log1p(exp(-delta))) : exp(delta - log1p(exp(delta)));
  }
  double lm = lx > ly ? lx : ly;
  lx -= lm;
  ly -= lm;
  return exp(lx - log(exp(lx) + exp(ly)));
}

/* Johnk's algorithm while a and b are at most 1, else two gammas (always
 * two in code written for Numba, 0 where the first is). The
 * Generator's takes a single uniform for a and b both below 3e-103 (the
 * draw is then 0 or 1) and falls to logarithms when either power is 0;
 * the legacy one when their sum is. */
static double draw_beta(SAMPLER_SRC *s, double a, double b, bool generator) {
  if (SAMPLER_NUMBA(s)) {
    double ga = numba_gamma(s, a);
    return ga == 0.0 ? 0.0 : ga / (ga + numba_gamma(s, b));
  }
  if (a > 1.0 || b > 1.0) {
    double ga = draw_gamma(s, a), gb = draw_gamma(s, b);
    return ga / (ga + gb);
  }
  if (generator && a < 3e-103 && b < 3e-103) return (a + b) * SAMPLER_UNIT(s) < a;
  for (;;) {
    double u = SAMPLER_UNIT(s), v = SAMPLER_UNIT(s), x = pow(u, 1.0 / a), y = pow(v, 1.0 / b), sum = x + y;
    if (sum > 1.0 || !(u + v > 0.0)) continue;
    if (generator ? x > 0 && y > 0 : sum > 0) return x / sum;
    return beta_from_logs(log(u) / a, log(v) / b, generator);
  }
}

/* Best and Fisher's rejection from a wrapped Cauchy envelope; uniform
 * below kappa 1e-8. The Generator's wraps a normal past kappa 1e6. */
static double draw_vonmises(SAMPLER_SRC *s, double mu, double kappa, bool generator) {
  if (isnan(kappa)) return NAN;
  if (kappa < 1e-8) return SAMPLER_PI * (2 * SAMPLER_UNIT(s) - 1);
  double sc;
  if (kappa < 1e-5) {
    sc = 1.0 / kappa + kappa;
  } else if (kappa <= 1e6 || !generator) {
    double r = 1 + sqrt(1 + 4 * kappa * kappa), rho = (r - sqrt(2 * r)) / (2 * kappa);
    sc = (1 + rho * rho) / (2 * rho);
  } else {
    double x = mu + sqrt(1.0 / kappa) * SAMPLER_NORMAL(s);
    if (x < -SAMPLER_PI) x += 2 * SAMPLER_PI;
    return x > SAMPLER_PI ? x - 2 * SAMPLER_PI : x;
  }
  double w;
  for (;;) {
    double z = cos(SAMPLER_PI * SAMPLER_UNIT(s));
    w = (1 + sc * z) / (sc + z);
    double y = kappa * (sc - w), v = SAMPLER_UNIT(s);
    if (y * (2 - y) - v >= 0 || log(y / v) + 1 - y >= 0) break;
  }
  double result = acos(w);
  if (SAMPLER_UNIT(s) < 0.5) result = -result;
  result += mu;
  double mod = fmod(fabs(result) + SAMPLER_PI, 2 * SAMPLER_PI) - SAMPLER_PI;
  return result < 0 ? -mod : mod;
}

/* log(gamma(x)) by Stirling's series (shifted up to 7 first), the
 * coefficients B(2k) / (2k (2k - 1)): what NumPy's Poisson sampler uses. */
static double log_gamma(double x) {
  static const double coef[10] = {8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
                                  -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
                                  6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
                                  -1.39243221690590e+00};
  if (x == 1.0 || x == 2.0) return 0.0;
  int64_t shift = x < 7.0 ? (int64_t)(7 - x) : 0;
  double x0 = x + (double)shift, x2 = (1.0 / x0) * (1.0 / x0), series = coef[9];
  for (int k = 8; k >= 0; k--) series = series * x2 + coef[k];
  double lg = series / x0 + 0.5 * 1.8378770664093453 + (x0 - 0.5) * log(x0) - x0;
  for (int64_t k = 1; k <= shift; k++) lg -= log(x0 -= 1.0);
  return lg;
}

/* Hormann's transformed rejection with squeeze (PTRS), for lam >= 10. */
static int64_t poisson_ptrs(SAMPLER_SRC *s, double lam) {
  double slam = sqrt(lam), loglam = log(lam), b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    double u = SAMPLER_UNIT(s) - 0.5, v = SAMPLER_UNIT(s), us = 0.5 - fabs(u);
    int64_t k = (int64_t)floor((2 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + (double)k * loglam - log_gamma((double)k + 1))
      return k;
  }
}

static int64_t draw_poisson(SAMPLER_SRC *s, double lam) {
  if (lam >= 10) return poisson_ptrs(s, lam);
  if (lam == 0) return 0;
  double limit = exp(-lam), prod = 1.0;  /* multiply uniforms while above e**-lam */
  for (int64_t k = 0;; k++) {
    prod *= SAMPLER_UNIT(s);
    if (!(prod > limit)) return k;  /* a NaN lam (noncentral_chisquare's nonc) after one draw, as NumPy's */
  }
}

/* Inversion from zero, restarted past a bound where the tail is negligible.
 * The Generator's q**n from log1p(-p) (exact for a tiny p), the legacy
 * one's from log(1 - p). */
static int64_t binomial_inversion(SAMPLER_SRC *s, int64_t n, double p, bool generator) {
  double q = 1.0 - p, qn = exp((double)n * (generator ? log1p(-p) : log(q))), np = (double)n * p;
  double bound = fmin((double)n, np + 10.0 * sqrt(np * q + 1));
  int64_t x = 0;
  double px = qn, u = SAMPLER_UNIT(s);
  while (u > px) {
    x++;
    if ((double)x > bound) {
      x = 0;
      px = qn;
      u = SAMPLER_UNIT(s);
    } else {
      u -= px;
      px = ((double)(n - x + 1) * p * px) / ((double)x * q);
    }
  }
  return x;
}

/* Stirling's correction of log(x!) in BTPE's final acceptance test. */
static double btpe_stirling(double x) {
  double x2 = x * x;
  return (13680. - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) / x / 166320.;
}

/* Kachitvichyanukul and Schmeiser's BTPE (triangle, parallelograms,
 * exponential tails) for n p > 30, p <= 1/2. */
static int64_t binomial_btpe(SAMPLER_SRC *s, int64_t n, double p) {
  double r = p, q = 1.0 - r, fm = (double)n * r + r, m = floor(fm), nrq = (double)n * r * q;
  double p1 = floor(2.195 * sqrt(nrq) - 4.6 * q) + 0.5, xm = m + 0.5, xl = xm - p1, xr = xm + p1;
  double c = 0.134 + 20.5 / (15.3 + m), a = (fm - xl) / (fm - xl * r), laml = a * (1.0 + a / 2.0);
  a = (xr - fm) / (xr * q);
  double lamr = a * (1.0 + a / 2.0), p2 = p1 * (1.0 + 2.0 * c), p3 = p2 + c / laml, p4 = p3 + c / lamr;
  for (;;) {
    double u = SAMPLER_UNIT(s) * p4, v = SAMPLER_UNIT(s), y;
    if (u <= p1) return (int64_t)floor(xm - p1 * v + u);  /* the triangle */
    if (u <= p2) {  /* the parallelograms */
      double x = xl + (u - p1) / c;
      v = v * c + 1.0 - fabs(m - x + 0.5) / p1;
      if (v > 1.0) continue;
      y = floor(x);
    } else if (u <= p3) {  /* the left tail */
      y = floor(xl + log(v) / laml);
      if (y < 0 || v == 0.0) continue;
      v = v * (u - p2) * laml;
    } else {  /* the right tail */
      y = floor(xr - log(v) / lamr);
      if (y > (double)n || v == 0.0) continue;
      v = v * (u - p3) * lamr;
    }
    double k = fabs(y - m);
    if (!(k > 20 && k < nrq / 2.0 - 1)) {  /* near the mode: f(y) / f(m) by its recurrence */
      double sr = r / q, an = sr * ((double)n + 1), f = 1.0;
      if (m < y)
        for (double i = m + 1; i <= y; i++) f *= an / i - sr;
      else if (m > y)
        for (double i = y + 1; i <= m; i++) f /= an / i - sr;
      if (v > f) continue;
      return (int64_t)y;
    }
    double rho = (k / nrq) * ((k * (k / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5), t = -k * k / (2 * nrq);
    double lv = log(v);
    if (lv < t - rho) return (int64_t)y;
    if (lv > t + rho) continue;
    double x1 = y + 1, f1 = m + 1, z = (double)n + 1 - m, w = (double)n - y + 1;
    double bound = xm * log(f1 / x1) + ((double)n - m + 0.5) * log(z / w) + (y - m) * log(w * r / (x1 * q)) +
                   btpe_stirling(f1) + btpe_stirling(z) + btpe_stirling(x1) + btpe_stirling(w);
    if (lv > bound) continue;
    return (int64_t)y;
  }
}

/* The Generator's returns 0 for n or p 0 without a draw; the legacy one
 * draws its inversion's uniform even then. */
static int64_t draw_binomial(SAMPLER_SRC *s, int64_t n, double p, bool generator) {
  if (generator && (n == 0 || p == 0.0)) return 0;
  bool flip = p > 0.5;
  double r = flip ? 1.0 - p : p;
  int64_t x = r * (double)n <= 30.0 ? binomial_inversion(s, n, r, generator) : binomial_btpe(s, n, r);
  return flip ? n - x : x;
}

/* ---------------------------------------------------------------- chi-square and what is built on it */

/* Every draw in its own statement: NumPy's order of draws (C leaves the
 * order of a call's operands open). */
static double draw_chisquare(SAMPLER_SRC *s, double df) { return 2.0 * draw_gamma(s, df / 2.0); }

static double draw_f(SAMPLER_SRC *s, double dfnum, double dfden) {
  double num = draw_chisquare(s, dfnum) * dfden;
  return num / (draw_chisquare(s, dfden) * dfnum);
}

static double draw_standard_t(SAMPLER_SRC *s, double df) {
  double num = SAMPLER_NORMAL(s), denom = draw_gamma(s, df / 2);
  return sqrt(df / 2) * num / sqrt(denom);
}

static double draw_standard_cauchy(SAMPLER_SRC *s) {
  double num = SAMPLER_NORMAL(s);
  return num / SAMPLER_NORMAL(s);
}

/* Past one degree of freedom, a chi-square of one fewer plus a shifted
 * normal squared; else a chi-square of a Poisson number more. A NaN nonc:
 * the Generator returns it at once, the legacy function after its draws. */
static double draw_noncentral_chisquare(SAMPLER_SRC *s, double df, double nonc, bool generator) {
  if ((generator || SAMPLER_NUMBA(s)) && isnan(nonc)) return NAN;
  if (nonc == 0 && !SAMPLER_NUMBA(s)) return draw_chisquare(s, df);  /* Numba's draws on */
  if (1 < df) {
    double chi2 = draw_chisquare(s, df - 1), n = SAMPLER_NORMAL(s) + sqrt(nonc);
    return chi2 + n * n;
  }
  int64_t i = draw_poisson(s, nonc / 2.0);
  double out = draw_chisquare(s, df + (double)(2 * i));
  return isnan(nonc) ? NAN : out;
}

static double draw_noncentral_f(SAMPLER_SRC *s, double dfnum, double dfden, double nonc, bool generator) {
  double t = draw_noncentral_chisquare(s, dfnum, nonc, generator) * dfden;
  return t / (draw_chisquare(s, dfden) * dfnum);
}

/* ---------------------------------------------------------------- choice by weights */

/* The first index whose cumulative weight passes u (searchsorted, side right). */
static int64_t search_right(const double *cdf, int64_t n, double u) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (cdf[mid] <= u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The normalised cumulative sums of the weights p, ignoring those marked taken. */
static void cumulative(double *cdf, const double *p, const bool *taken, int64_t n) {
  double sum = 0;
  for (int64_t i = 0; i < n; i++) cdf[i] = sum += taken && taken[i] ? 0.0 : p[i];
  for (int64_t i = 0; i < n; i++) cdf[i] /= cdf[n - 1];
}

/* choice's messages for bad weights: the legacy function's and the Generator's differ. */
typedef struct WeightErrors {
  const char *size, *nan, *negative, *sum;
} WeightErrors;

/* What is wrong with the weights p as NumPy checks them (NULL: nothing),
 * their Kahan sum within atol of 1 among it; *positive: how many are above 0. */
static const char *weights_error(const double *p, int64_t pop, int64_t np, double atol, const WeightErrors *e,
                                 int64_t *positive) {
  if (np != pop) return e->size;
  double sum = pop ? p[0] : 0.0, c = 0;
  bool negative = false;
  for (int64_t i = 0; i < pop; i++) {
    if (i) {
      double y = p[i] - c, t = sum + y;
      c = (t - sum) - y;
      sum = t;
    }
    negative |= p[i] < 0;
    *positive += p[i] > 0;
  }
  return isnan(sum) ? e->nan : negative ? e->negative : fabs(sum - 1.0) > atol ? e->sum : NULL;
}

/* Without replacement, as NumPy: rounds of uniforms over the weights
 * left, each new index kept once in order of first drawing. */
static void choose_weighted_unique(SAMPLER_SRC *s, const double *p, int64_t pop, int64_t *idx, int64_t n,
                                   double *cdf, bool *taken) {
  int64_t found = 0;
  while (found < n) {
    int64_t want = n - found, start = found;
    double *u = cdf + pop;
    for (int64_t i = 0; i < want; i++) u[i] = SAMPLER_UNIT(s);
    cumulative(cdf, p, taken, pop);
    for (int64_t i = 0; i < want; i++) {
      int64_t k = search_right(cdf, pop, u[i]);
      bool seen = false;
      for (int64_t j = start; j < found && !seen; j++) seen = idx[j] == k;
      if (!seen) idx[found++] = k;
    }
    for (int64_t j = start; j < found; j++) taken[idx[j]] = true;
  }
}

/* n indices of [0, pop) by the weights p (checked), with or without
 * replacement; false where there is no memory. */
static bool choose_weighted(SAMPLER_SRC *s, const double *p, int64_t pop, bool replace, int64_t *idx, int64_t n) {
  double *cdf = malloc((size_t)(pop + (replace ? 0 : n) + 1) * sizeof *cdf);
  bool *taken = replace ? NULL : calloc((size_t)pop + 1, 1);
  bool ok = cdf && (replace || taken);
  if (ok && replace) {
    cumulative(cdf, p, NULL, pop);
    for (int64_t i = 0; i < n; i++) idx[i] = search_right(cdf, pop, SAMPLER_UNIT(s));
  } else if (ok) {
    choose_weighted_unique(s, p, pop, idx, n, cdf, taken);
  }
  free(cdf);
  free(taken);
  return ok;
}
