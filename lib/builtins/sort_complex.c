/* builtins/sort_complex.c — numpy.sort, numpy.argsort and numpy.unique
 * of complex64 and complex128 at run time (sorting.c's rt_sort,
 * rt_argsort and rt_unique hand complex lanes here).
 *
 * NumPy orders complex numbers by their real parts, then their imaginary
 * parts, and puts those holding a NaN last: first a real part with a NaN
 * imaginary part (by the real part), then a NaN real part (by the
 * imaginary part), then NaN in both. Each element becomes a key of that
 * class and two float keys (sorting.c's order: -0.0 equal to 0.0), and
 * a stable merge sort orders the keys: NumPy's stable kinds' exact order.
 */
#include <stdlib.h>
#include <string.h>

#include "ruchey.h"

typedef struct ComplexKey {
  uint64_t first, second;
  int32_t nans;  /* 0: none, 1: the imaginary part, 2: the real part, 3: both */
  int64_t index;
} ComplexKey;

/* a float's key: unsigned, in the float's order, -0.0 that of 0.0 */
static uint64_t float_key(double v) {
  v += 0.0;
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b >> 63 ? ~b : b | 0x8000000000000000u;
}

static ComplexKey key_of(double re, double im, int64_t index) {
  int nans = (im != im) | (re != re) << 1;
  ComplexKey k = {0, 0, nans, index};
  if (nans == 0 || nans == 1) k.first = float_key(re);
  if (nans == 0) k.second = float_key(im);
  if (nans == 2) k.first = float_key(im);
  return k;
}

static bool key_less(const ComplexKey *a, const ComplexKey *b) {
  if (a->nans != b->nans) return a->nans < b->nans;
  if (a->first != b->first) return a->first < b->first;
  return a->second < b->second;
}

static bool key_equal(const ComplexKey *a, const ComplexKey *b) { return !key_less(a, b) && !key_less(b, a); }

/* the element at p (complex64 or complex128) */
static void parts_of(const char *p, int32_t kind, double *re, double *im) {
  if (kind == TY_C64) {
    float f[2];
    memcpy(f, p, sizeof f);
    *re = f[0];
    *im = f[1];
  } else {
    double d[2];
    memcpy(d, p, sizeof d);
    *re = d[0];
    *im = d[1];
  }
}

static int64_t size_of(int32_t kind) { return kind == TY_C64 ? 8 : 16; }

/* a stable merge sort: insertion sort for short runs; tmp holds n/2 keys */
static void merge_keys(ComplexKey *v, ComplexKey *tmp, int64_t n) {
  if (n <= 16) {
    for (int64_t i = 1; i < n; i++) {
      ComplexKey x = v[i];
      int64_t j = i;
      for (; j > 0 && key_less(&x, &v[j - 1]); j--) v[j] = v[j - 1];
      v[j] = x;
    }
    return;
  }
  int64_t h = n / 2, i = 0, j = h, o = 0;
  merge_keys(v, tmp, h);
  merge_keys(v + h, tmp, n - h);
  if (!key_less(&v[h], &v[h - 1])) return;
  memcpy(tmp, v, (size_t)h * sizeof *tmp);
  while (i < h && j < n) v[o++] = key_less(&v[j], &tmp[i]) ? v[j++] : tmp[i++];
  while (i < h) v[o++] = tmp[i++];
}

/* the n elements of a lane at p (stride bytes apart) as sorted keys, in a
 * new buffer (NULL: no memory) */
static ComplexKey *sorted_keys(const char *p, int64_t stride, int64_t n, int32_t kind) {
  ComplexKey *keys = malloc((size_t)(n + n / 2 + 1) * sizeof *keys);
  if (!keys) return NULL;
  for (int64_t i = 0; i < n; i++) {
    double re, im;
    parts_of(p + i * stride, kind, &re, &im);
    keys[i] = key_of(re, im, i);
  }
  merge_keys(keys, keys + n, n);
  return keys;
}

bool rt_sort_complex_lane(char *p, int64_t stride, int64_t n, int32_t kind) {
  int64_t size = size_of(kind);
  ComplexKey *keys = sorted_keys(p, stride, n, kind);
  char *copy = keys ? malloc((size_t)(n * size)) : NULL;
  if (copy)
    for (int64_t i = 0; i < n; i++) memcpy(copy + i * size, p + i * stride, (size_t)size);
  for (int64_t i = 0; copy && i < n; i++) memcpy(p + i * stride, copy + keys[i].index * size, (size_t)size);
  free(keys);
  free(copy);
  return copy != NULL;
}

bool rt_argsort_complex_lane(const char *p, int64_t stride, int64_t n, int32_t kind, int64_t *out, int64_t out_stride) {
  ComplexKey *keys = sorted_keys(p, stride, n, kind);
  for (int64_t i = 0; keys && i < n; i++) out[i * out_stride] = keys[i].index;
  free(keys);
  return keys != NULL;
}

bool rt_order_by_complex(const char *p, int64_t stride, int64_t n, int32_t kind, int64_t *order) {
  ComplexKey *keys = malloc((size_t)(n + n / 2 + 1) * sizeof *keys);
  if (!keys) return false;
  for (int64_t j = 0; j < n; j++) {
    double re, im;
    parts_of(p + order[j] * stride, kind, &re, &im);
    keys[j] = key_of(re, im, order[j]);
  }
  merge_keys(keys, keys + n, n);
  for (int64_t j = 0; j < n; j++) order[j] = keys[j].index;
  free(keys);
  return true;
}

/* the equal runs of n sorted complex elements kept once (every element
 * holding a NaN equal, as NumPy's unique), their lengths in counts */
int64_t rt_unique_complex(void *data, int64_t n, int32_t kind, int64_t *counts) {
  int64_t size = size_of(kind), m = 0;
  char *v = data;
  for (int64_t i = 0; i < n; m++) {
    double re, im;
    parts_of(v + i * size, kind, &re, &im);
    ComplexKey a = key_of(re, im, 0);
    int64_t j = i + 1;
    for (; j < n; j++) {
      parts_of(v + j * size, kind, &re, &im);
      ComplexKey b = key_of(re, im, 0);
      if (!(a.nans && b.nans) && !key_equal(&a, &b)) break;
    }
    memmove(v + m * size, v + i * size, (size_t)size);
    if (counts) counts[m] = j - i;
    i = j;
  }
  return m;
}
