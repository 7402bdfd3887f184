/* builtins/sort_text.c — numpy.sort, numpy.argsort and numpy.unique of
 * arrays of str ('<Un') and bytes ('|Sn') at run time (sorting_rt.c's
 * rt_sort_text, rt_argsort_text and rt_unique_text hand their lanes here).
 *
 * NumPy orders such items as its comparison does: by code point (str) or
 * unsigned byte (bytes), the NUL padding the least, so a prefix first.
 * Equal items are equal in every byte, so any sort order of ties is
 * NumPy's: a merge sort through a buffer, by whole items. argsort's is
 * stable (NumPy's stable kinds' order; its quicksort may order the indices
 * of ties otherwise).
 */
#include <stdlib.h>
#include <string.h>

#include "ruchey.h"

/* <0, 0 or >0 as item a orders before, with or after b (size bytes each) */
static int compare_items(const char *a, const char *b, int64_t size, int32_t kind) {
  if (kind == TY_BYTESEQ) return memcmp(a, b, (size_t)size);
  for (int64_t i = 0; i < size; i += 4) {
    uint32_t x, y;
    memcpy(&x, a + i, 4);
    memcpy(&y, b + i, 4);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

/* n items of size bytes at p sorted, tmp as many bytes as they */
static void merge_sort(char *p, char *tmp, int64_t n, int64_t size, int32_t kind) {
  if (n < 2) return;
  int64_t half = n / 2;
  merge_sort(p, tmp, half, size, kind);
  merge_sort(p + half * size, tmp, n - half, size, kind);
  if (compare_items(p + (half - 1) * size, p + half * size, size, kind) <= 0) return;  /* already in order */
  memcpy(tmp, p, (size_t)(half * size));
  int64_t i = 0, j = half, k = 0;
  while (i < half && j < n) {
    bool right = compare_items(p + j * size, tmp + i * size, size, kind) < 0;
    memcpy(p + k++ * size, right ? p + j++ * size : tmp + i++ * size, (size_t)size);
  }
  memcpy(p + k * size, tmp + i * size, (size_t)((half - i) * size));
}

bool rt_sort_text_lane(char *p, int64_t stride, int64_t n, int32_t kind, int64_t size) {
  char *buf = malloc((size_t)(2 * n * size + 1));
  if (!buf) return false;
  for (int64_t i = 0; i < n; i++) memcpy(buf + i * size, p + i * stride, (size_t)size);
  merge_sort(buf, buf + n * size, n, size, kind);
  for (int64_t i = 0; i < n; i++) memcpy(p + i * stride, buf + i * size, (size_t)size);
  free(buf);
  return true;
}

/* the indices idx[0..n) of items at p (stride bytes apart) sorted stably, tmp as many more */
static void merge_indices(const char *p, int64_t stride, int64_t *idx, int64_t *tmp, int64_t n, int64_t size,
                          int32_t kind) {
  if (n < 2) return;
  int64_t half = n / 2;
  merge_indices(p, stride, idx, tmp, half, size, kind);
  merge_indices(p, stride, idx + half, tmp, n - half, size, kind);
  memcpy(tmp, idx, (size_t)half * sizeof *idx);
  int64_t i = 0, j = half, k = 0;
  while (i < half && j < n) {
    bool right = compare_items(p + idx[j] * stride, p + tmp[i] * stride, size, kind) < 0;
    idx[k++] = right ? idx[j++] : tmp[i++];
  }
  while (i < half) idx[k++] = tmp[i++];
}

bool rt_argsort_text_lane(const char *p, int64_t stride, int64_t n, int32_t kind, int64_t size, int64_t *out,
                          int64_t out_stride) {
  int64_t *idx = malloc((size_t)(2 * n + 1) * sizeof *idx);
  if (!idx) return false;
  for (int64_t i = 0; i < n; i++) idx[i] = i;
  merge_indices(p, stride, idx, idx + n, n, size, kind);
  for (int64_t i = 0; i < n; i++) out[i * out_stride] = idx[i];
  free(idx);
  return true;
}

bool rt_order_by_text(const char *p, int64_t stride, int64_t n, int32_t kind, int64_t size, int64_t *order) {
  int64_t *tmp = malloc((size_t)(n + 1) * sizeof *tmp);
  if (!tmp) return false;
  merge_indices(p, stride, order, tmp, n, size, kind);
  free(tmp);
  return true;
}

int64_t rt_unique_text(void *data, int64_t n, int32_t kind, int64_t size, int64_t *counts) {
  char *p = data;
  int64_t m = 0;
  for (int64_t i = 0; i < n; i++) {
    if (m && !memcmp(p + (m - 1) * size, p + i * size, (size_t)size)) {
      if (counts) counts[m - 1]++;
      continue;
    }
    if (m != i) memcpy(p + m * size, p + i * size, (size_t)size);
    if (counts) counts[m] = 1;
    m++;
  }
  return m;
}
