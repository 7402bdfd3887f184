/* builtins/bytes_rt.c — what compiled code calls for bytes values: their
 * order, searching, slices and methods (split making a typed list of
 * them); see bytes.c for the typers and lowerers.
 * A bytes value is an RtArray of its items, always contiguous.
 */
#include <stdio.h>
#include <string.h>

#include "containers.h"

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

/* s itself as the result, one reference more: what Python gives where a
 * new bytes would equal it. */
static int32_t same(RtArray *out, const RtArray *s) {
  *out = *s;
  if (s->meminfo) __atomic_add_fetch(&s->meminfo->refcount, 1, __ATOMIC_ACQ_REL);
  return RT_OK;
}

/* A new bytes of n bytes (not filled in) into out, its data returned; NULL
 * with MemoryError. */
static char *made(RtArray *out, int64_t n) {
  RtMemInfo *mi = rt_alloc(n);
  if (!mi) {
    rt_set_error(RT_ERR_MEMORY, "out of memory making bytes");
    return NULL;
  }
  *out = (RtArray){.meminfo = mi, .data = mi->data, .shape = {n}, .strides = {1}};
  return mi->data;
}

/* s[start:stop:step] (clamped by the caller as slice.indices() does), a
 * new bytes; s itself, one reference more, where that is all of it. */
int32_t rt_bytes_slice(RtArray *out, const RtArray *s, int64_t start, int64_t stop, int64_t step) {
  int64_t n = step < 0 ? (stop < start ? (start - stop - 1) / -step + 1 : 0)
                       : (start < stop ? (stop - start - 1) / step + 1 : 0);
  if (step == 1 && n == s->shape[0]) return same(out, s);
  char *d = made(out, n);
  if (!d) return RT_ERR_MEMORY;
  for (int64_t i = 0; i < n; i++) d[i] = s->data[start + i * step];
  return RT_OK;
}

/* ---------------------------------------------------------------- + and * */

/* a + b: a new bytes, or the other one itself where one is empty, as CPython gives. */
int32_t rt_bytes_concat(RtArray *out, const RtArray *a, const RtArray *b) {
  if (!b->shape[0]) return same(out, a);
  if (!a->shape[0]) return same(out, b);
  char *d = made(out, a->shape[0] + b->shape[0]);
  if (!d) return RT_ERR_MEMORY;
  memcpy(d, a->data, (size_t)a->shape[0]);
  memcpy(d + a->shape[0], b->data, (size_t)b->shape[0]);
  return RT_OK;
}

/* s * n: n copies of s one after another (none where n <= 0), s itself where n is 1. */
int32_t rt_bytes_repeat(RtArray *out, const RtArray *s, int64_t n) {
  int64_t len = s->shape[0];
  if (n == 1) return same(out, s);
  if (n < 0 || !len) n = 0;
  if (n && len > ((int64_t)1 << 58) / n) {
    rt_set_error(RT_ERR_MEMORY, "out of memory repeating bytes");
    return RT_ERR_MEMORY;
  }
  char *d = made(out, len * n);
  if (!d) return RT_ERR_MEMORY;
  for (int64_t i = 0; i < n; i++) memcpy(d + i * len, s->data, (size_t)len);
  return RT_OK;
}

/* ---------------------------------------------------------------- methods */

#define NONE_INDEX INT64_MIN  /* an index given as None, or not given (bytes.c) */

/* CPython's ADJUST_INDICES: end clamped to the length, negatives counted from the end. */
static void adjust(int64_t *start, int64_t *end, int64_t len) {
  if (*end == NONE_INDEX || *end > len) *end = len;
  else if (*end < 0 && (*end += len) < 0) *end = 0;
  if (*start == NONE_INDEX) *start = 0;
  else if (*start < 0 && (*start += len) < 0) *start = 0;
}

static bool is_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static bool is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static bool is_lower(unsigned char c) { return c >= 'a' && c <= 'z'; }
static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* isupper(), islower(): a cased byte, and none of the other case (CPython's, ASCII letters only). */
static int32_t cased(const unsigned char *s, int64_t len, bool (*of)(unsigned char), bool (*other)(unsigned char)) {
  bool any = false;
  for (int64_t i = 0; i < len; i++) {
    if (other(s[i])) return 0;
    any |= of(s[i]);
  }
  return any;
}

/* isdigit(), isalpha(), isalnum(), isspace(): not empty, and every byte one of the class (ASCII). */
static int32_t all_in_class(int32_t fn, const unsigned char *s, int64_t len) {
  for (int64_t i = 0; i < len; i++) {
    unsigned char c = s[i];
    bool alpha = is_upper(c) || is_lower(c);
    bool in = fn == BM_ISDIGIT ? is_digit(c) : fn == BM_ISALPHA ? alpha : fn == BM_ISALNUM ? alpha || is_digit(c)
                                                                                            : is_space(c);
    if (!in) return 0;
  }
  return len > 0;
}

/* isascii(), startswith(sub, start, end), endswith(...) and the class
 * tests (isupper()...) of s's len bytes. */
int32_t rt_bytes_test(int32_t fn, const char *s, int64_t len, const char *sub, int64_t n, int64_t start, int64_t end) {
  const unsigned char *u = (const unsigned char *)s;
  if (fn == BM_ISASCII) {
    for (int64_t i = 0; i < len; i++)
      if (s[i] & 0x80) return 0;
    return 1;
  }
  if (fn == BM_ISUPPER) return cased(u, len, is_upper, is_lower);
  if (fn == BM_ISLOWER) return cased(u, len, is_lower, is_upper);
  if (fn != BM_STARTSWITH && fn != BM_ENDSWITH) return all_in_class(fn, u, len);
  adjust(&start, &end, len);
  if (end - n < start) return 0;
  return !memcmp(s + (fn == BM_ENDSWITH ? end - n : start), sub, (size_t)n);
}

/* find(sub, start, end), rfind, index, rindex (the caller raises where
 * they find nothing, -1) and count(...) of s's len bytes, as CPython's:
 * an empty sub is found at start (rfind: end), counted once a position. */
int64_t rt_bytes_search(int32_t fn, const char *s, int64_t len, const char *sub, int64_t n, int64_t start, int64_t end) {
  adjust(&start, &end, len);
  if (end - start < n) return fn == BM_COUNT ? 0 : -1;
  if (fn == BM_COUNT) {
    if (!n) return end - start + 1;
    int64_t count = 0;
    for (int64_t at; (at = rt_bytes_find(s + start, end - start, sub, n)) >= 0; start += at + n) count++;
    return count;
  }
  if (fn == BM_FIND || fn == BM_INDEX) {
    int64_t at = rt_bytes_find(s + start, end - start, sub, n);
    return at < 0 ? -1 : start + at;
  }
  for (int64_t i = end - n; i >= start; i--)
    if (!memcmp(s + i, sub, (size_t)n)) return i;
  return -1;
}

static bool in_set(unsigned char c, const char *set, int64_t n) {
  if (!set) return is_space(c);  /* ASCII whitespace, as bytes.strip() */
  return memchr(set, c, (size_t)n) != NULL;
}

static int32_t strip(RtArray *out, int32_t fn, const RtArray *s, const char *set, int64_t n) {
  int64_t i = 0, j = s->shape[0];
  const unsigned char *d = (const unsigned char *)s->data;
  if (fn != BM_RSTRIP)
    while (i < j && in_set(d[i], set, n)) i++;
  if (fn != BM_LSTRIP)
    while (j > i && in_set(d[j - 1], set, n)) j--;
  if (i == 0 && j == s->shape[0]) return same(out, s);
  char *r = made(out, j - i);
  if (!r) return RT_ERR_MEMORY;
  memcpy(r, s->data + i, (size_t)(j - i));
  return RT_OK;
}

static const char *const pad_names[] = {[BM_LJUST] = "ljust", [BM_RJUST] = "rjust", [BM_CENTER] = "center"};

/* ljust, rjust, center: s within width bytes of fill (one byte, else
 * Python's TypeError); zfill: s after zeros, its sign first. */
static int32_t pad(RtArray *out, int32_t fn, const RtArray *s, const char *fill, int64_t n, int64_t width) {
  if (fn != BM_ZFILL && n != 1) {
    char msg[120];
    snprintf(msg, sizeof msg, "%s() argument 2 must be a byte string of length 1, not bytes", pad_names[fn]);
    rt_set_error(RT_ERR_TYPE, msg);
    return RT_ERR_TYPE;
  }
  int64_t len = s->shape[0], marg = width - len;
  if (marg <= 0) return same(out, s);
  int64_t left = fn == BM_LJUST ? 0 : fn == BM_CENTER ? marg / 2 + (marg & width & 1) : marg;
  char *r = made(out, width);
  if (!r) return RT_ERR_MEMORY;
  memset(r, fn == BM_ZFILL ? '0' : fill[0], (size_t)width);
  memcpy(r + left, s->data, (size_t)len);
  if (fn == BM_ZFILL && len && (r[left] == '+' || r[left] == '-')) {
    r[0] = r[left];
    r[left] = '0';
  }
  return RT_OK;
}

/* upper(), lower(): a new bytes, its ASCII letters of the one case. */
static int32_t recase(RtArray *out, int32_t fn, const RtArray *s) {
  char *r = made(out, s->shape[0]);
  if (!r) return RT_ERR_MEMORY;
  for (int64_t i = 0; i < s->shape[0]; i++) {
    unsigned char c = (unsigned char)s->data[i];
    r[i] = (char)(fn == BM_UPPER && is_lower(c) ? c - 32 : fn == BM_LOWER && is_upper(c) ? c + 32 : c);
  }
  return RT_OK;
}

/* The methods making a new bytes of s: strip, lstrip, rstrip (arg the bytes
 * to strip, NULL: whitespace), ljust, rjust, center (arg the fill), zfill,
 * upper, lower. */
int32_t rt_bytes_make(RtArray *out, int32_t fn, const RtArray *s, const char *arg, int64_t n, int64_t width) {
  if (fn == BM_STRIP || fn == BM_LSTRIP || fn == BM_RSTRIP) return strip(out, fn, s, arg, n);
  if (fn == BM_UPPER || fn == BM_LOWER) return recase(out, fn, s);
  return pad(out, fn, s, arg, n, width);
}

/* ---------------------------------------------------------------- split, join */

/* Appends a new bytes of s[a:b] to l; false: no memory. */
static bool add_part(RtList *l, const char *s, int64_t a, int64_t b) {
  RtArray part;
  if (!made(&part, b - a)) return false;
  memcpy(part.data, s + a, (size_t)(b - a));
  if (rt_list_reserve(l, l->len + 1) != RT_OK) {
    rt_meminfo_free(part.meminfo);
    return false;
  }
  memcpy(l->data + l->len++ * l->itemsize, &part, sizeof part);
  return true;
}

static int32_t no_memory(void) {
  rt_set_error(RT_ERR_MEMORY, "out of memory splitting bytes");
  return RT_ERR_MEMORY;
}

/* split(sep=None, maxsplit=-1): a list of new bytes; sep NULL (seplen
 * -1) splits at runs of ASCII whitespace, as Python's. */
int32_t rt_bytes_split(RtList **out, const RtArray *s, const char *sep, int64_t seplen, int64_t maxsplit) {
  if (seplen == 0) {
    rt_set_error(RT_ERR_VALUE, "empty separator");
    return RT_ERR_VALUE;
  }
  RtList *l = *out = rt_list_new(TY_BYTES, sizeof(RtArray), 4);
  if (!l) return no_memory();
  const char *d = s->data;
  int64_t n = s->shape[0], i = 0;
  if (maxsplit < 0) maxsplit = INT64_MAX;
  if (!sep) {
    while (true) {
      while (i < n && is_space((unsigned char)d[i])) i++;
      if (i == n) return RT_OK;
      int64_t j = i;
      if (maxsplit-- == 0) j = n;
      while (j < n && !is_space((unsigned char)d[j])) j++;
      if (!add_part(l, d, i, j)) return no_memory();
      i = j;
    }
  }
  for (int64_t k = 0, at; k < maxsplit && (at = rt_bytes_find(d + i, n - i, sep, seplen)) >= 0; k++) {
    if (!add_part(l, d, i, i + at)) return no_memory();
    i += at + seplen;
  }
  return add_part(l, d, i, n) ? RT_OK : no_memory();
}

/* sep.join(items), n bytes (a list's items, or a tuple's, which lie alike): a new bytes. */
int32_t rt_bytes_join(RtArray *out, const RtArray *sep, const RtArray *items, int64_t n) {
  int64_t len = n ? sep->shape[0] * (n - 1) : 0;
  for (int64_t i = 0; i < n; i++) len += items[i].shape[0];
  char *r = made(out, len);
  if (!r) return RT_ERR_MEMORY;
  for (int64_t i = 0; i < n; i++) {
    if (i) {
      memcpy(r, sep->data, (size_t)sep->shape[0]);
      r += sep->shape[0];
    }
    memcpy(r, items[i].data, (size_t)items[i].shape[0]);
    r += items[i].shape[0];
  }
  return RT_OK;
}

/* ---------------------------------------------------------------- NumPy '|Sn' items */

/* A bytes of a NumPy bytes array's item: n bytes, NUL-padded at the end
 * (NumPy drops trailing NULs when it reads one too). */
int32_t rt_bytes_from_chars(RtArray *out, const char *chars, int64_t n) {
  while (n && !chars[n - 1]) n--;
  char *d = made(out, n);
  if (!d) return RT_ERR_MEMORY;
  memcpy(d, chars, (size_t)n);
  return RT_OK;
}

/* s stored into an item of n bytes: cut to n, or NUL-padded, as NumPy's. */
void rt_bytes_to_chars(char *chars, int64_t n, const RtArray *s) {
  int64_t k = s->shape[0] < n ? s->shape[0] : n;
  memmove(chars, s->data, (size_t)k);
  memset(chars + k, 0, (size_t)(n - k));
}
