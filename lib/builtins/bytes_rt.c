/* builtins/bytes_rt.c — what compiled code calls for bytes values: their
 * order, searching, and slices; see bytes.c for the typers and lowerers.
 * A bytes value is an RtArray of its items, always contiguous.
 */
#include <string.h>

#include "ruchey.h"

/* <0, 0 or >0 as a sorts before, with or after b: by their bytes, as Python. */
int64_t rt_bytes_order(const char *a, int64_t na, const char *b, int64_t nb) {
  int c = memcmp(a, b, (size_t)(na < nb ? na : nb));
  if (c) return c;
  return na < nb ? -1 : na > nb;
}

/* The first i where sub's n bytes start in s's len, or -1 (0 for an empty sub). */
int64_t rt_bytes_find(const char *s, int64_t len, const char *sub, int64_t n) {
  if (n == 0) return 0;
  const char *at = memmem(s, (size_t)len, sub, (size_t)n);
  return at ? at - s : -1;
}

/* s[start:stop:step] (clamped by the caller as slice.indices() does), a
 * new bytes; s itself, one reference more, where that is all of it. */
int32_t rt_bytes_slice(RtArray *out, const RtArray *s, int64_t start, int64_t stop, int64_t step) {
  int64_t n = step < 0 ? (stop < start ? (start - stop - 1) / -step + 1 : 0)
                       : (start < stop ? (stop - start - 1) / step + 1 : 0);
  if (step == 1 && n == s->shape[0]) {
    *out = *s;
    if (s->meminfo) __atomic_add_fetch(&s->meminfo->refcount, 1, __ATOMIC_ACQ_REL);
    return 0;
  }
  RtMemInfo *mi = rt_alloc(n);
  if (!mi) {
    rt_set_error(RT_ERR_MEMORY, "out of memory slicing bytes");
    return RT_ERR_MEMORY;
  }
  char *d = mi->data;
  for (int64_t i = 0; i < n; i++) d[i] = s->data[start + i * step];
  *out = (RtArray){.meminfo = mi, .data = d, .shape = {n}, .strides = {1}};
  return 0;
}
