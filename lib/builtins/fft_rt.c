/* builtins/fft_rt.c — numpy.fft at run time: rt_fft (the transforms, and
 * scipy.fft's), rt_roll (fftshift, ifftshift, and numpy.roll over several
 * axes) and rt_fftfreq (fftfreq, rfftfreq); fft.c has their typers and
 * lowerers (shape.c numpy.roll's).
 *
 * rt_fft does what NumPy's numpy/fft/_pocketfft.py does around its C
 * transforms: the axes normalised, each axis's input cropped or padded
 * with zeros to its length n, the axes transformed one after another in
 * NumPy's order, the norm's factor handed to the transform. The lines of
 * an axis are gathered from any strides into one buffer of doubles,
 * transformed there by lib/pocketfft.c (NumPy 1.26's pocketfft C, double
 * precision) and scattered into a C-ordered intermediate of doubles; the
 * last one is stored into the result in NumPy's dtype (complex64 and
 * float32 rounded from the doubles). Nothing here touches Python: compiled
 * code calls it without the GIL, prange bodies too (no state is shared).
 */
#include <complex.h>
#include <math.h>
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

/* g's elements made C-ordered of kind, malloc'ed (room for one at least);
 * a size past int64 (n=2**62) is NumPy's MemoryError */
static RtStatus new_grid(Grid *g, int ndim, const int64_t *shape, int kind) {
  g->ndim = ndim, g->kind = kind, g->data = NULL;
  int64_t stride = la_item_size(kind);
  bool over = false;
  for (int d = ndim - 1; d >= 0; d--) {
    g->shape[d] = shape[d], g->strides[d] = stride;
    over |= __builtin_mul_overflow(stride, shape[d], &stride);
  }
  if (!over) g->data = malloc(stride > 0 ? (size_t)stride : 1);
  return g->data ? RT_OK : no_memory();
}

/* One line of src (m elements from s, step ss) transformed into dst's line
 * (from d, step ds) in buf; conj_in and conj_out conjugate what goes in and
 * what comes out (hfft's and ihfft's). */
typedef struct Line {
  Pass pass;
  int64_t m, n, out_len;
  double fct;
  bool conj_in, conj_out;
  cfft_plan cplan;
  rfft_plan rplan;
  double *buf;
} Line;

static int transform_line(const Line *t, const char *s, int64_t ss, int skind, char *d, int64_t ds) {
  int64_t n = t->n, m = t->m < n ? t->m : n;
  double *b = t->buf;
  int res;
  switch (t->pass) {
  case C2C_FORWARD:
  case C2C_BACKWARD:
    memset(b, 0, (size_t)(2 * n) * sizeof(double));
    for (int64_t j = 0; j < m; j++) {
      zdouble z = la_load(s + j * ss, skind);
      b[2 * j] = creal(z), b[2 * j + 1] = t->conj_in ? -cimag(z) : cimag(z);
    }
    res = t->pass == C2C_FORWARD ? cfft_forward(t->cplan, b, t->fct) : cfft_backward(t->cplan, b, t->fct);
    break;
  case R2C:  /* NumPy's execute_real_forward: the packed result moved into (re, im) pairs */
    memset(b, 0, (size_t)(2 * (n / 2 + 1)) * sizeof(double));
    for (int64_t j = 0; j < m; j++) b[1 + j] = creal(la_load(s + j * ss, skind));
    res = rfft_forward(t->rplan, b + 1, t->fct);
    b[0] = b[1], b[1] = 0.0;
    break;
  default: {  /* C2R: NumPy's execute_real_backward, of the first n/2 + 1 elements */
    int64_t k = t->m < n / 2 + 1 ? t->m : n / 2 + 1;
    memset(b, 0, (size_t)n * sizeof(double));
    for (int64_t j = 0; j < k; j++) {
      zdouble z = la_load(s + j * ss, skind);
      double im = t->conj_in ? -cimag(z) : cimag(z);
      if (j == 0) b[0] = creal(z);
      else {
        if (2 * j - 1 < n) b[2 * j - 1] = creal(z);
        if (2 * j < n) b[2 * j] = im;
      }
    }
    res = rfft_backward(t->rplan, b, t->fct);
    for (int64_t j = 0; j < n; j++) *(double *)(d + j * ds) = b[j];
    return res;
  }
  }
  for (int64_t j = 0; j < t->out_len; j++) {
    double *o = (double *)(d + j * ds);
    o[0] = b[2 * j], o[1] = t->conj_out ? -b[2 * j + 1] : b[2 * j + 1];
  }
  return res;
}

/* dst (a new grid) = src transformed along axis to length n */
static RtStatus transform_axis(Pass pass, const Grid *src, int axis, int64_t n, double fct, bool conj_in, bool conj_out,
                               Grid *dst) {
  Line t = {pass, src->shape[axis], n, pass == R2C ? n / 2 + 1 : n, fct, conj_in, conj_out};
  int64_t shape[RC_MAX_NDIM];
  memcpy(shape, src->shape, sizeof shape);
  shape[axis] = t.out_len;
  RtStatus st = new_grid(dst, src->ndim, shape, pass == C2R ? TY_F64 : TY_C128);
  if (st) return st;
  int64_t lines = 1;
  for (int d = 0; d < src->ndim; d++)
    if (d != axis) lines *= src->shape[d];
  if (lines == 0) return RT_OK;
  t.buf = malloc((size_t)(2 * n + 2) * sizeof(double));  /* (no overflow: dst, 8n bytes or more, was allocated) */
  if (pass == R2C || pass == C2R) t.rplan = make_rfft_plan((size_t)n);
  else t.cplan = make_cfft_plan((size_t)n);
  int64_t at[RC_MAX_NDIM] = {0};
  int bad = !t.buf || (!t.rplan && !t.cplan);
  for (int64_t i = 0; i < lines && !bad; i++) {
    const char *s = src->data;
    char *d = dst->data;
    for (int k = 0; k < src->ndim; k++) s += at[k] * src->strides[k], d += at[k] * dst->strides[k];
    bad = transform_line(&t, s, src->strides[axis], src->kind, d, dst->strides[axis]);
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
    free(dst->data);
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
  for (int i = 0; i < naxes && !st; i++) {
    int k = order[i];
    bool inverse = passes[i] == C2C_BACKWARD || passes[i] == C2R;
    st = transform_axis(passes[i], &cur, axes[k], ns[k], factor(norm, inverse, ns[k]), op == FFT_HFFT,
                        op == FFT_IHFFT, &next);
    if (cur.data != a->data) free(cur.data);
    cur = next;
  }
  if (st) return st;
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
