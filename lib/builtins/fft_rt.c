/* builtins/fft_rt.c — numpy.fft at run time: rt_fft (the transforms, and
 * scipy.fft's), rt_roll (fftshift, ifftshift, and numpy.roll over several
 * axes), rt_fftfreq (fftfreq, rfftfreq) and rt_next_fast_len (scipy.fft's);
 * fft.c has their typers and lowerers (shape.c numpy.roll's).
 *
 * rt_fft does what NumPy's numpy/fft/_pocketfft.py does around its C
 * transforms: the axes normalised, each axis's input cropped or padded
 * with zeros to its length n, the axes transformed one after another in
 * NumPy's order, the norm's factor handed to the transform. The lines of
 * an axis are gathered from any strides, eight at a time, into buffers of
 * doubles, transformed there by lib/pocketfft.c (NumPy 1.26's pocketfft C,
 * double precision) and scattered into a C-ordered intermediate of doubles,
 * or the result itself where it is of doubles; else the last intermediate
 * is stored into the result in NumPy's dtype (complex64 and float32
 * rounded from the doubles). Nothing here touches Python: compiled
 * code calls it without the GIL, prange bodies too (no state is shared).
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/blas.h"
#include "pocketfft.h"

static _Thread_local char message[160];

static RtStatus fail(RtStatus st, const char *fmt, long long a, long long b) {
  snprintf(message, sizeof message, fmt, a, b);
  rt_set_error(st, message);
  return st;
}

static RtStatus no_memory(void) {
  rt_set_error(RT_ERR_MEMORY, "cannot allocate an FFT's memory");
  return RT_ERR_MEMORY;
}

/* ---------------------------------------------------------------- one axis */

/* What one pass does to the lines of its axis. */
typedef enum { C2C_FORWARD, C2C_BACKWARD, R2C, C2R } Pass;

/* A C-ordered intermediate of doubles (C128: pairs), or the input. */
typedef struct Grid {
  int ndim, kind;
  int64_t shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  char *data;
} Grid;

/* g's elements made C-ordered of kind, at into or else malloc'ed (room
 * for one at least); a size past int64 (n=2**62) is NumPy's MemoryError */
static RtStatus new_grid(Grid *g, int ndim, const int64_t *shape, int kind, char *into) {
  g->ndim = ndim, g->kind = kind, g->data = into;
  int64_t stride = la_item_size(kind);
  bool over = false;
  for (int d = ndim - 1; d >= 0; d--) {
    g->shape[d] = shape[d], g->strides[d] = stride;
    over |= __builtin_mul_overflow(stride, shape[d], &stride);
  }
  if (!over && !into) g->data = malloc(stride > 0 ? (size_t)stride : 1);
  return g->data ? RT_OK : no_memory();
}

/* An axis's lines are transformed BATCH at a time: element j of
 * neighbouring lines are neighbours in memory (in a C-ordered grid, along
 * any axis but the last), so gathering them element by element across the
 * batch reads whole cache lines where one line at a time would read one
 * element of each. */
enum { BATCH = 8 };

/* What a pass does to each line: m elements in, cropped or padded to n,
 * out_len out; conj_in and conj_out conjugate what goes in and what comes
 * out (hfft's and ihfft's). buf holds BATCH lines of 2n + 2 doubles. */
typedef struct Line {
  Pass pass;
  int64_t m, n, out_len;
  double fct;
  bool conj_in, conj_out;
  cfft_plan cplan;
  rfft_plan rplan;
  double *buf;
} Line;

static double *line_buf(const Line *t, int b) { return t->buf + (size_t)b * (size_t)(2 * t->n + 2); }

/* count lines of src into the buffers: line b's element j at s + j*ss + b*sb,
 * laid out as each pass's transform wants them (NumPy's execute_real_forward
 * and execute_real_backward for the real ones) */
static void gather(const Line *t, int count, const char *s, int64_t ss, int64_t sb, int kind) {
  int64_t n = t->n, m = t->m < n ? t->m : n;
  double sign = t->conj_in ? -1.0 : 1.0;
  switch (t->pass) {
  case C2C_FORWARD:
  case C2C_BACKWARD:
    for (int b = 0; b < count; b++) memset(line_buf(t, b), 0, (size_t)(2 * n) * sizeof(double));
    for (int64_t j = 0; j < m; j++)
      for (int b = 0; b < count; b++) {
        zdouble z = la_load(s + j * ss + b * sb, kind);
        double *o = line_buf(t, b) + 2 * j;
        o[0] = creal(z), o[1] = sign * cimag(z);
      }
    break;
  case R2C:  /* the packed input from the buffer's second double */
    for (int b = 0; b < count; b++) memset(line_buf(t, b), 0, (size_t)(2 * (n / 2 + 1)) * sizeof(double));
    for (int64_t j = 0; j < m; j++)
      for (int b = 0; b < count; b++) line_buf(t, b)[1 + j] = creal(la_load(s + j * ss + b * sb, kind));
    break;
  default: {  /* C2R, of the first n/2 + 1 elements */
    int64_t k = t->m < n / 2 + 1 ? t->m : n / 2 + 1;
    for (int b = 0; b < count; b++) memset(line_buf(t, b), 0, (size_t)n * sizeof(double));
    for (int64_t j = 0; j < k; j++)
      for (int b = 0; b < count; b++) {
        zdouble z = la_load(s + j * ss + b * sb, kind);
        double *o = line_buf(t, b);
        if (j == 0) o[0] = creal(z);
        else {
          if (2 * j - 1 < n) o[2 * j - 1] = creal(z);
          if (2 * j < n) o[2 * j] = sign * cimag(z);
        }
      }
  }
  }
}

/* one buffer transformed in place, the real forward's result moved into
 * (re, im) pairs */
static int transform(const Line *t, double *b) {
  switch (t->pass) {
  case C2C_FORWARD: return cfft_forward(t->cplan, b, t->fct);
  case C2C_BACKWARD: return cfft_backward(t->cplan, b, t->fct);
  case R2C: {
    int res = rfft_forward(t->rplan, b + 1, t->fct);
    b[0] = b[1], b[1] = 0.0;
    return res;
  }
  default: return rfft_backward(t->rplan, b, t->fct);
  }
}

/* the buffers' results into dst: line b's element j at d + j*ds + b*db */
static void scatter(const Line *t, int count, char *d, int64_t ds, int64_t db) {
  if (t->pass == C2R) {
    for (int64_t j = 0; j < t->n; j++)
      for (int b = 0; b < count; b++) *(double *)(d + j * ds + b * db) = line_buf(t, b)[j];
    return;
  }
  double sign = t->conj_out ? -1.0 : 1.0;
  for (int64_t j = 0; j < t->out_len; j++)
    for (int b = 0; b < count; b++) {
      double *o = (double *)(d + j * ds + b * db);
      const double *v = line_buf(t, b) + 2 * j;
      o[0] = v[0], o[1] = sign * v[1];
    }
}

/* the shape src has after a pass along axis */
static int64_t pass_length(Pass pass, int64_t n) { return pass == R2C ? n / 2 + 1 : n; }

/* dst = src transformed along axis to length n; dst's data is `into` (the
 * result's, C-ordered) or else a new grid */
static RtStatus transform_axis(Pass pass, const Grid *src, int axis, int64_t n, double fct, bool conj_in, bool conj_out,
                               char *into, Grid *dst) {
  Line t = {pass, src->shape[axis], n, pass_length(pass, n), fct, conj_in, conj_out};
  int64_t shape[RC_MAX_NDIM];
  memcpy(shape, src->shape, sizeof shape);
  shape[axis] = t.out_len;
  RtStatus st = new_grid(dst, src->ndim, shape, pass == C2R ? TY_F64 : TY_C128, into);
  if (st) return st;
  int64_t lines = 1;
  int inner = -1;  /* the last axis but this one: a batch's lines step along it */
  for (int d = 0; d < src->ndim; d++)
    if (d != axis) lines *= src->shape[d], inner = d;
  if (lines == 0) return RT_OK;
  /* lines of up to 2**16 elements in batches (a batch's buffers 8 MiB at
   * most); longer ones, whose buffer is as large as the result, alone */
  int batch = inner < 0 || n > (1 << 16) ? 1 : BATCH;
  /* (no overflow: dst, 8n bytes or more, was allocated) */
  t.buf = malloc((size_t)batch * (size_t)(2 * n + 2) * sizeof(double));
  if (pass == R2C || pass == C2R) t.rplan = make_rfft_plan((size_t)n);
  else t.cplan = make_cfft_plan((size_t)n);
  int64_t at[RC_MAX_NDIM] = {0};
  int bad = !t.buf || (!t.rplan && !t.cplan);
  for (int64_t i = 0; i < lines && !bad;) {
    const char *s = src->data;
    char *d = dst->data;
    for (int k = 0; k < src->ndim; k++) s += at[k] * src->strides[k], d += at[k] * dst->strides[k];
    int64_t left = inner < 0 ? 1 : src->shape[inner] - at[inner];
    int count = left < batch ? (int)left : batch;
    int64_t sb = inner < 0 ? 0 : src->strides[inner], db = inner < 0 ? 0 : dst->strides[inner];
    gather(&t, count, s, src->strides[axis], sb, src->kind);
    for (int b = 0; b < count; b++) bad |= transform(&t, line_buf(&t, b));
    scatter(&t, count, d, dst->strides[axis], db);
    i += count;
    if (inner >= 0) at[inner] += count - 1;
    for (int k = src->ndim - 1; k >= 0; k--) {  /* the next line, in C order */
      if (k == axis) continue;
      if (++at[k] < src->shape[k]) break;
      at[k] = 0;
    }
  }
  free(t.buf);
  if (t.rplan) destroy_rfft_plan(t.rplan);
  if (t.cplan) destroy_cfft_plan(t.cplan);
  if (bad) {
    if (!into) free(dst->data);
    return no_memory();
  }
  return RT_OK;
}

/* ---------------------------------------------------------------- rt_fft */

/* the norm's factor for a transform of length n: "backward" scales the
 * inverse by 1/n, "forward" the forward one, "ortho" both by 1/sqrt(n) */
static double factor(int norm, bool inverse, int64_t n) {
  if (norm == FFT_ORTHO) return 1.0 / sqrt((double)n);
  return norm == (inverse ? FFT_BACKWARD : FFT_FORWARD) ? 1.0 / (double)n : 1.0;
}

int32_t rt_fft(int32_t op, int32_t kind, int32_t out_kind, const RtArray *a, int32_t ndim, int32_t naxes,
               const int64_t *axes_in, const int64_t *s, int32_t how, int32_t norm, RtArray *out) {
  int axes[RC_MAX_NDIM * 2];
  int64_t ns[RC_MAX_NDIM * 2];
  bool scipy = how & FFT_SCIPY, nd = how & FFT_ND;
  if (naxes > RC_MAX_NDIM * 2) return fail(RT_ERR_VALUE, "too many axes (%lld) for an FFT", naxes, 0);
  bool inverse_real = op == FFT_IRFFT || op == FFT_HFFT;
  for (int i = 0; i < naxes; i++) {
    int64_t ax = axes_in[i];
    if (ax < -ndim || ax >= ndim)
      return scipy && nd ? fail(RT_ERR_VALUE, "axes exceeds dimensionality of input", 0, 0)
                         : fail(RT_ERR_AXIS, "axis %lld is out of bounds for array of dimension %lld", ax, ndim);
    axes[i] = (int)(ax < 0 ? ax + ndim : ax);
    for (int j = 0; scipy && j < i; j++)  /* (NumPy transforms a repeated axis again) */
      if (axes[j] == axes[i]) return fail(RT_ERR_VALUE, "all axes must be unique", 0, 0);
  }
  /* NumPy's _cook_nd_args (SciPy's _init_nd_shape_and_axes), and the 1-d
   * functions' n=None; -1 in s is the axis's length in NumPy 2 and SciPy */
  for (int i = 0; i < naxes; i++) {
    int64_t m = a->shape[axes[i]], n = s[i];
    if (n == FFT_DEFAULT_N) n = inverse_real && i == naxes - 1 ? 2 * (m - 1) : m;
    else if (nd && n == -1 && (scipy || rt_numpy_version >= 200)) n = m;
    if (n < 1)
      return fail(RT_ERR_VALUE, scipy ? "invalid number of data points (%lld) specified"
                                      : "Invalid number of FFT data points (%lld) specified.", n, 0);
    ns[i] = n;
  }
  /* hfft is irfft of the conjugate, ihfft the conjugate of rfft, each with
   * the norm's direction swapped */
  bool hermitian = op == FFT_HFFT || op == FFT_IHFFT;
  if (hermitian && norm != FFT_ORTHO) norm = norm == FFT_BACKWARD ? FFT_FORWARD : FFT_BACKWARD;
  Grid cur = {ndim, kind, {0}, {0}, a->data}, next;
  memcpy(cur.shape, a->shape, sizeof cur.shape);
  memcpy(cur.strides, a->strides, sizeof cur.strides);
  RtStatus st = RT_OK;
  /* the passes in NumPy's order: fftn's from the last axis; rfftn's real
   * one on the last axis first, irfftn's last */
  int order[RC_MAX_NDIM * 2];
  Pass passes[RC_MAX_NDIM * 2];
  for (int i = 0; i < naxes; i++) {
    switch (op) {
    case FFT_FFT: order[i] = naxes - 1 - i, passes[i] = C2C_FORWARD; break;
    case FFT_IFFT: order[i] = naxes - 1 - i, passes[i] = C2C_BACKWARD; break;
    case FFT_RFFT: case FFT_IHFFT:
      order[i] = i == 0 ? naxes - 1 : i - 1, passes[i] = i == 0 ? R2C : C2C_FORWARD; break;
    default:  /* FFT_IRFFT, FFT_HFFT */
      order[i] = i, passes[i] = i == naxes - 1 ? C2R : C2C_BACKWARD; break;
    }
  }
  /* the last pass writes the result itself where it is of the pass's kind
   * (double precision); else the result is stored from its grid below */
  bool direct = false;
  for (int i = 0; i < naxes && !st; i++) {
    int k = order[i];
    bool inverse = passes[i] == C2C_BACKWARD || passes[i] == C2R;
    char *into = NULL;
    if (i == naxes - 1 && out_kind == (passes[i] == C2R ? TY_F64 : TY_C128)) {
      direct = true;
      int64_t shape[RC_MAX_NDIM];
      memcpy(shape, cur.shape, sizeof shape);
      shape[axes[k]] = pass_length(passes[i], ns[k]);
      if ((st = la_new_result(out, ndim, shape, la_item_size(out_kind)))) break;
      into = out->data;
    }
    st = transform_axis(passes[i], &cur, axes[k], ns[k], factor(norm, inverse, ns[k]), op == FFT_HFFT,
                        op == FFT_IHFFT, into, &next);
    if (cur.data != a->data) free(cur.data);
    if (st && into) rt_meminfo_free(out->meminfo);
    cur = next;
  }
  if (st || direct) return st;
  st = la_new_result(out, ndim, cur.shape, la_item_size(out_kind));
  int64_t count = 1, at[RC_MAX_NDIM] = {0};
  for (int d = 0; d < ndim; d++) count *= cur.shape[d];
  for (int64_t i = 0; i < count && !st; i++) {  /* C order; the input's strides where no pass ran */
    const char *p = cur.data;
    for (int d = 0; d < ndim; d++) p += at[d] * cur.strides[d];
    la_store(out->data + i * la_item_size(out_kind), out_kind, la_load(p, cur.kind));
    for (int d = ndim - 1; d >= 0 && ++at[d] == cur.shape[d]; d--) at[d] = 0;
  }
  if (cur.data != a->data) free(cur.data);
  return st;
}

/* ---------------------------------------------------------------- roll, fftshift, fftfreq */

int32_t rt_roll(const RtArray *a, int32_t ndim, int64_t item, int32_t naxes, const int64_t *axes, const int64_t *shifts,
                int32_t half, RtArray *out) {
  int64_t shift[RC_MAX_NDIM] = {0};
  for (int i = 0; i < naxes; i++) {  /* numpy.roll: a repeated axis rolls again */
    int64_t ax = axes[i];
    if (ax < -ndim || ax >= ndim)
      return fail(RT_ERR_AXIS, "axis %lld is out of bounds for array of dimension %lld", ax, ndim);
    if (ax < 0) ax += ndim;
    int64_t by = half ? a->shape[ax] / 2 * half : shifts[i];
    if (a->shape[ax]) shift[ax] = (shift[ax] + by % a->shape[ax]) % a->shape[ax];
  }
  RtStatus st = la_new_result(out, ndim, a->shape, item);
  int64_t count = 1, at[RC_MAX_NDIM] = {0};
  for (int d = 0; d < ndim; d++) {
    count *= a->shape[d];
    if (shift[d] < 0) shift[d] += a->shape[d];
  }
  for (int64_t i = 0; i < count && !st; i++) {  /* out[j] = a[j - shift], wrapped */
    const char *p = a->data;
    for (int d = 0; d < ndim; d++) {
      int64_t j = at[d] - shift[d];
      p += (j < 0 ? j + a->shape[d] : j) * a->strides[d];
    }
    memcpy(out->data + i * item, p, (size_t)item);
    for (int d = ndim - 1; d >= 0 && ++at[d] == a->shape[d]; d--) at[d] = 0;
  }
  return st;
}

/* NumPy's: the ints 0, 1, ..., then (fftfreq) -(n//2), ..., -1, each times 1/(n*d) */
int32_t rt_fftfreq(int64_t n, double d, int32_t real, RtArray *out) {
  double nd = (double)n * d;
  if (nd == 0.0) {
    rt_set_error(RT_ERR_ZERODIV, "float division by zero");
    return RT_ERR_ZERODIV;
  }
  if (n < 0 && !real) return fail(RT_ERR_VALUE, "negative dimensions are not allowed", 0, 0);
  if (n > INT64_MAX / 8) return no_memory();
  double val = 1.0 / nd;
  int64_t half = n / 2 - (n < 0 && n % 2);  /* Python's n // 2 */
  int64_t count = real ? (half + 1 > 0 ? half + 1 : 0) : n, positive = real ? count : (n - 1) / 2 + 1;
  RtStatus st = la_new_result(out, 1, &count, 8);
  for (int64_t i = 0; i < count && !st; i++)
    ((double *)out->data)[i] = (double)(i < positive ? i : i - n) * val;
  return st;
}

/* ---------------------------------------------------------------- next_fast_len */

/* v * k, or bound where that is not below it (no candidate there is better). */
static uint64_t times_below(uint64_t v, uint64_t k, uint64_t bound) {
  return v <= (bound - 1) / k ? v * k : bound;
}

/* SciPy's next_fast_len: the least n-smooth length at or above target, whose
 * factors SciPy's transforms handle fast: 2, 3 and 5 for real transforms,
 * 7 and 11 too for complex ones (each length up to 6, or 12, is one). The
 * candidates are every product of the odd factors below the best length
 * found so far, doubled until at least target. */
int32_t rt_next_fast_len(int64_t target, int32_t real, int64_t *out) {
  if (target < 0) return fail(RT_ERR_VALUE, "Target length must be positive", 0, 0);
  if ((uint64_t)target - 1 > SIZE_MAX / 11 && target > 0)
    return fail(RT_ERR_VALUE, "Target length is too large to perform an FFT: %lld", target, 0);
  uint64_t n = (uint64_t)target, best = 2 * n;  /* (a power of two at or above n is at most 2n) */
  if (n <= (real ? 6u : 12u)) {
    *out = target;
    return RT_OK;
  }
  for (uint64_t f11 = 1; f11 < best; f11 = real ? best : times_below(f11, 11, best))
    for (uint64_t f7 = f11; f7 < best; f7 = real ? best : times_below(f7, 7, best))
      for (uint64_t f5 = f7; f5 < best; f5 = times_below(f5, 5, best))
        for (uint64_t f3 = f5; f3 < best; f3 = times_below(f3, 3, best)) {
          uint64_t x = f3;
          while (x < n) x *= 2;
          if (x < best) best = x;
        }
  *out = (int64_t)best;
  return RT_OK;
}
