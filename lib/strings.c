/* strings.c — what compiled code calls on str values (include/rtstr.h).
 *
 * Every function returns an RtStatus (an error recorded as Python would
 * raise it) and its result through its first argument, a new reference
 * where it is a string. Indices follow CPython's rules for each method
 * (slices clamp, find's start may pass the end). Case mappings and
 * character classes are Python's: ASCII here, the rest from the building
 * Python's own database (unicode.c), full mappings and final sigma included.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "containers.h"
#include "rtstr.h"
#include "unicode.h"

#define NONE_INDEX INT64_MIN  /* an index argument given as None, or not given */

/* ---------------------------------------------------------------- making strings */

static int32_t no_memory(void) {
  rt_set_error(RT_ERR_MEMORY, NULL);
  return RT_ERR_MEMORY;
}

/* A new string of n code points copied from p. */
static RtStr *from_points(const uint32_t *p, int64_t n) {
  RtStr *s = rt_str_alloc(n);
  if (s && n) memcpy(s->data, p, sizeof(uint32_t) * (size_t)n);
  return s;
}

static int32_t give(RtStr **out, RtStr *s) {
  *out = s;
  return s ? RT_OK : no_memory();
}

/* s itself, one more reference (a method that changes nothing returns it). */
static int32_t same(RtStr **out, RtStr *s) {
  rt_str_retain(s);
  *out = s;
  return RT_OK;
}

static RtStr *from_ascii(const char *text, size_t n) {
  RtStr *s = rt_str_alloc((int64_t)n);
  for (size_t i = 0; s && i < n; i++) s->data[i] = (unsigned char)text[i];
  return s;
}

void rt_str_free(RtStr *s) { free(s); }

/* s, owned, as a container keeps it: a constant becomes a copy (rt_str_kept). */
RtStr *rt_str_keep(RtStr *s) {
  if (s->refcount < RT_STR_IMMORTAL / 2) return s;
  RtStr *c = rt_str_kept(s);
  return c;
}

/* UTF-8 to code points: how many written to out (room for n), or -1 if
 * text is not UTF-8. out NULL: only counted. */
int64_t rt_str_decode(const char *text, int64_t n, uint32_t *out) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; k++) {
    unsigned char c = (unsigned char)text[i];
    int more = c < 0x80 ? 0 : c >> 5 == 6 ? 1 : c >> 4 == 14 ? 2 : c >> 3 == 30 ? 3 : -1;
    if (more < 0 || i + more >= n + (more == 0)) return -1;
    uint32_t cp = more ? c & (0x3f >> more) : c;
    for (int j = 1; j <= more; j++) cp = (cp << 6) | ((unsigned char)text[i + j] & 0x3f);
    if (out) out[k] = cp;
    i += more + 1;
  }
  return k;
}

/* Code points to UTF-8 into out (4 bytes a point at most); the bytes written. */
static size_t encode(const uint32_t *p, int64_t n, char *out) {
  char *o = out;
  for (int64_t i = 0; i < n; i++) {
    uint32_t c = p[i];
    if (c < 0x80) {
      *o++ = (char)c;
    } else if (c < 0x800) {
      *o++ = (char)(0xc0 | (c >> 6));
      *o++ = (char)(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      *o++ = (char)(0xe0 | (c >> 12));
      *o++ = (char)(0x80 | ((c >> 6) & 0x3f));
      *o++ = (char)(0x80 | (c & 0x3f));
    } else {
      *o++ = (char)(0xf0 | (c >> 18));
      *o++ = (char)(0x80 | ((c >> 12) & 0x3f));
      *o++ = (char)(0x80 | ((c >> 6) & 0x3f));
      *o++ = (char)(0x80 | (c & 0x3f));
    }
  }
  return (size_t)(o - out);
}

/* s as UTF-8, malloc'd and NUL-terminated (print, messages); NULL: no memory. */
char *rt_str_utf8(const RtStr *s, size_t *len) {
  char *text = malloc(4 * (size_t)s->len + 1);
  if (!text) return NULL;
  size_t n = encode(s->data, s->len, text);
  text[n] = 0;
  if (len) *len = n;
  return text;
}

/* raise cls(s) with a message made at run time: s as UTF-8 in this
 * thread's buffer (cut at a character's end past 1 KiB, as the other
 * runtime messages are), read when the error reaches Python. */
void rt_raise_str(void *cls, const RtStr *s) {
  static _Thread_local char text[1024];
  char *utf8 = rt_str_utf8(s, NULL);
  if (utf8 && utf8[0] == '\x02') {  /* what marks a raise's arguments (rt_raise_args_begin): one, then */
    free(utf8);
    rt_raise_args_begin();
    rt_raise_arg_str(s);
    rt_raise(cls, rt_raise_args_text());
    return;
  }
  size_t n = utf8 ? strlen(utf8) : 0;
  if (n >= sizeof text) {
    n = sizeof text - 1;
    while (n && ((unsigned char)utf8[n] & 0xC0) == 0x80) n--;  /* not inside a character */
  }
  if (n) memcpy(text, utf8, n);
  text[n] = 0;
  free(utf8);
  rt_raise(cls, text);
}

/* raise cls(a, b, ...): the arguments as text in this thread's buffer,
 * which the extension reads back into Python values (disp_raise_args):
 * "\x02" then per argument a tag -- 'i' or 'u' and a decimal integer,
 * 'f' and a float's repr, 'b' and 0 or 1, 'n' for None, 'M' (datetime64)
 * or 'm' (timedelta64) and the unit (TimeUnit), ',' and the count, each
 * ended by ';', or 's' and a str as its length in bytes, ':' and its
 * UTF-8. The buffer grows to hold them all; kept for the thread's next
 * raise. */
static _Thread_local char *raise_text;
static _Thread_local size_t raise_len, raise_cap;

static void raise_append(const char *item, size_t n) {
  if (raise_len + n + 1 > raise_cap) {
    size_t cap = raise_cap ? raise_cap : 256;
    while (cap < raise_len + n + 1) cap *= 2;
    char *grown = realloc(raise_text, cap);
    if (!grown) return;  /* out of memory: the argument is left out */
    raise_text = grown;
    raise_cap = cap;
  }
  memcpy(raise_text + raise_len, item, n);
  raise_len += n;
  raise_text[raise_len] = 0;
}

void rt_raise_args_begin(void) {
  raise_len = 0;
  raise_append("\x02", 1);
}

void rt_raise_arg(int32_t tag, int64_t bits) {
  char item[64];
  int n = 0;
  if (tag == 'f') {
    double d;
    memcpy(&d, &bits, sizeof d);
    item[0] = 'f';
    n = 1 + (int)rt_float_repr(item + 1, d, false);
    n += snprintf(item + n, sizeof item - (size_t)n, ";");
  } else if (tag == 'u') {
    n = snprintf(item, sizeof item, "u%llu;", (unsigned long long)bits);
  } else if ((tag & 0xff) == 'M' || (tag & 0xff) == 'm') {  /* the unit in the tag's higher bits */
    n = snprintf(item, sizeof item, "%c%d,%lld;", tag & 0xff, tag >> 8, (long long)bits);
  } else {
    n = snprintf(item, sizeof item, "%c%lld;", tag, (long long)bits);
  }
  raise_append(item, (size_t)n);
}

void rt_raise_arg_str(const RtStr *s) {
  size_t len = 0;
  char *utf8 = rt_str_utf8(s, &len);
  char head[32];
  int n = snprintf(head, sizeof head, "s%zu:", utf8 ? len : 0);
  raise_append(head, (size_t)n);
  if (utf8) raise_append(utf8, len);
  free(utf8);
}

const char *rt_raise_args_text(void) { return raise_text ? raise_text : ""; }

/* ---------------------------------------------------------------- Python's hash of a str */

/* The interpreter's key and its SipHash variant (Python/pyhash.c: 1 round
 * per word for siphash13, 2 for siphash24; 0: another algorithm, which
 * hash() then does not match), set by the extension when it loads this
 * library: str hashes are salted per process. */
static uint64_t str_hash_k0, str_hash_k1;
static int str_hash_rounds;

void rt_set_str_hash(uint64_t k0, uint64_t k1, int rounds) {
  str_hash_k0 = k0;
  str_hash_k1 = k1;
  str_hash_rounds = rounds;
}

static inline uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

static inline void sip_rounds(uint64_t v[4], int rounds) {
  for (int r = 0; r < rounds; r++) {
    v[0] += v[1]; v[1] = rotl(v[1], 13); v[1] ^= v[0]; v[0] = rotl(v[0], 32);
    v[2] += v[3]; v[3] = rotl(v[3], 16); v[3] ^= v[2];
    v[0] += v[3]; v[3] = rotl(v[3], 21); v[3] ^= v[0];
    v[2] += v[1]; v[1] = rotl(v[1], 17); v[1] ^= v[2]; v[2] = rotl(v[2], 32);
  }
}

/* SipHash-c-d of n bytes with the interpreter's key (d = c + 2). */
static uint64_t siphash(const unsigned char *p, size_t n, int c) {
  uint64_t v[4] = {str_hash_k0 ^ 0x736f6d6570736575ULL, str_hash_k1 ^ 0x646f72616e646f6dULL,
                   str_hash_k0 ^ 0x6c7967656e657261ULL, str_hash_k1 ^ 0x7465646279746573ULL};
  uint64_t last = (uint64_t)n << 56, m;
  for (; n >= 8; p += 8, n -= 8) {
    memcpy(&m, p, 8);  /* little-endian hosts: the word as the algorithm reads it */
    v[3] ^= m;
    sip_rounds(v, c);
    v[0] ^= m;
  }
  for (size_t i = 0; i < n; i++) last |= (uint64_t)p[i] << (8 * i);
  v[3] ^= last;
  sip_rounds(v, c);
  v[0] ^= last;
  v[2] ^= 0xff;
  sip_rounds(v, c + 2);
  return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* hash(s) as the interpreter computes it: over the code points as its str
 * object holds them, one, two or four bytes each by the largest. */
int64_t rt_str_python_hash(const RtStr *s) {
  if (s->len <= 0) return 0;
  if (!str_hash_rounds) return rt_str_hash_of((RtStr *)s);
  uint32_t top = 0;
  for (int64_t i = 0; i < s->len; i++) top = s->data[i] > top ? s->data[i] : top;
  size_t width = top < 0x100 ? 1 : top < 0x10000 ? 2 : 4, n = (size_t)s->len * width;
  unsigned char *bytes = width == 4 ? (unsigned char *)s->data : malloc(n);
  if (!bytes) return rt_str_hash_of((RtStr *)s);
  for (int64_t i = 0; width < 4 && i < s->len; i++) {
    if (width == 1) bytes[i] = (unsigned char)s->data[i];
    else memcpy(bytes + 2 * i, &(uint16_t){(uint16_t)s->data[i]}, 2);
  }
  uint64_t h = siphash(bytes, n, str_hash_rounds);
  if (width < 4) free(bytes);
  return h == (uint64_t)-1 ? -2 : (int64_t)h;
}

/* hash(b) of a bytes as the interpreter computes it: its bytes' SipHash,
 * as a str's of one byte per code point (else FNV-1a: the same within
 * compiled code only). */
int64_t rt_bytes_python_hash(const RtArray *b) {
  const unsigned char *p = (const unsigned char *)b->data;
  size_t n = (size_t)b->shape[0];
  if (!n) return 0;
  uint64_t h = 14695981039346656037u;
  if (str_hash_rounds) h = siphash(p, n, str_hash_rounds);
  else
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211u;
  return h == (uint64_t)-1 ? -2 : (int64_t)h;
}

/* ---------------------------------------------------------------- characters */

/* Characters: ASCII answered here, the rest by the building Python's
 * database (unicode.c). */
static bool is_space(uint32_t c) {
  if (c < 128) return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
  return uc_is(c, UC_IS_SPACE);
}

static bool is_upper(uint32_t c) { return c < 128 ? c >= 'A' && c <= 'Z' : uc_is(c, UC_IS_UPPER); }
static bool is_lower(uint32_t c) { return c < 128 ? c >= 'a' && c <= 'z' : uc_is(c, UC_IS_LOWER); }
static bool is_alpha(uint32_t c) { return c < 128 ? is_upper(c) || is_lower(c) : uc_is(c, UC_IS_ALPHA); }
static bool is_digit(uint32_t c) { return c < 128 ? c >= '0' && c <= '9' : uc_is(c, UC_IS_DIGIT); }
static bool is_decimal(uint32_t c) { return c < 128 ? c >= '0' && c <= '9' : uc_is(c, UC_IS_DECIMAL); }
static bool is_numeric(uint32_t c) { return c < 128 ? c >= '0' && c <= '9' : uc_is(c, UC_IS_NUMERIC); }
static bool is_cased(uint32_t c) { return c < 128 ? is_upper(c) || is_lower(c) : uc_is(c, UC_IS_CASED); }
static bool is_titlecase(uint32_t c) { return c >= 128 && uc_is(c, UC_IS_TITLE); }

/* A str false as an element of a NumPy array: its trailing NULs dropped
 * (NumPy stores it so), nothing left in NumPy 2, nothing but whitespace
 * in NumPy 1.x (numpy1). */
static bool numpy_false(const RtStr *s, bool numpy1) {
  int64_t n = s->len;
  while (n > 0 && s->data[n - 1] == 0) n--;
  for (int64_t i = 0; i < n; i++)
    if (!numpy1 || !is_space(s->data[i])) return false;
  return true;
}

static bool all_of(const RtStr *s, bool (*pred)(uint32_t)) {
  for (int64_t i = 0; i < s->len; i++)
    if (!pred(s->data[i])) return false;
  return s->len > 0;
}

/* Python's isalnum: alphabetic, or decimal, digit or numeric */
static bool is_alnum(uint32_t c) { return is_alpha(c) || is_numeric(c) || is_digit(c) || is_decimal(c); }
static bool is_ascii(uint32_t c) { return c < 128; }
static bool is_printable(uint32_t c) { return uc_is(c, UC_IS_PRINTABLE); }

/* islower/isupper: a cased character, and none of the other case (a
 * titlecase character counts as neither's: CPython's) */
static bool only_case(const RtStr *s, bool (*want)(uint32_t), bool (*other)(uint32_t)) {
  bool seen = false;
  for (int64_t i = 0; i < s->len; i++) {
    uint32_t c = s->data[i];
    if (other(c) || is_titlecase(c)) return false;
    seen |= want(c);
  }
  return seen;
}

/* Python's isidentifier (no keyword check, no NFKC normalisation: str's) */
static bool is_identifier(const RtStr *s) {
  if (s->len == 0 || !uc_is(s->data[0], UC_IS_ID_START)) return false;
  for (int64_t i = 1; i < s->len; i++)
    if (!uc_is(s->data[i], UC_IS_ID_CONTINUE)) return false;
  return true;
}

static bool is_titled(const RtStr *s) {
  bool prev_cased = false, seen = false;
  for (int64_t i = 0; i < s->len; i++) {
    uint32_t c = s->data[i];
    if (is_upper(c) || is_titlecase(c)) {
      if (prev_cased) return false;
      prev_cased = seen = true;
    } else if (is_lower(c)) {
      if (!prev_cased) return false;
    } else {
      prev_cased = false;
    }
  }
  return seen;
}

int32_t rt_str_is(int32_t *out, RtStr *s, int32_t which) {
  switch (which) {
  case STR_IS_DIGIT: *out = all_of(s, is_digit); break;
  case STR_IS_DECIMAL: *out = all_of(s, is_decimal); break;
  case STR_IS_NUMERIC: *out = all_of(s, is_numeric); break;
  case STR_IS_ALPHA: *out = all_of(s, is_alpha); break;
  case STR_IS_SPACE: *out = all_of(s, is_space); break;
  case STR_IS_ALNUM: *out = all_of(s, is_alnum); break;
  case STR_IS_UPPER: *out = only_case(s, is_upper, is_lower); break;
  case STR_IS_LOWER: *out = only_case(s, is_lower, is_upper); break;
  case STR_IS_ASCII: *out = s->len == 0 || all_of(s, is_ascii); break;
  case STR_IS_IDENTIFIER: *out = is_identifier(s); break;
  case STR_IS_PRINTABLE: *out = s->len == 0 || all_of(s, is_printable); break;
  case STR_IS_NUMPY_FALSE: *out = numpy_false(s, false); break;
  case STR_IS_NUMPY1_FALSE: *out = numpy_false(s, true); break;
  case STR_IS_TITLE: default: *out = is_titled(s); break;
  }
  return RT_OK;
}

/* ---------------------------------------------------------------- repr, for messages */

/* The most bytes repr() writes for one character: \U0001xxxx. */
#define REPR_WIDEST 10

/* Python's repr(s), UTF-8, into out of cap bytes (cut short where it
 * does not fit; REPR_WIDEST bytes a character and 4 more always do). */
static void repr_into(const RtStr *s, char *out, size_t cap) {
  char *text = out;
  bool dq = false, sq = false;
  for (int64_t i = 0; i < s->len; i++) {
    dq |= s->data[i] == '"';
    sq |= s->data[i] == '\'';
  }
  char q = sq && !dq ? '"' : '\'';
  char *o = text;
  *o++ = q;
  for (int64_t i = 0; i < s->len && o + REPR_WIDEST + 2 < text + cap; i++) {
    uint32_t c = s->data[i];
    if (c == (uint32_t)q || c == '\\') o += sprintf(o, "\\%c", (char)c);
    else if (c == '\n') o += sprintf(o, "\\n");
    else if (c == '\r') o += sprintf(o, "\\r");
    else if (c == '\t') o += sprintf(o, "\\t");
    else if (c < 0x20 || c == 0x7f || (c > 0x7f && !uc_is(c, UC_IS_PRINTABLE)))  /* as Objects/unicodeobject.c */
      o += sprintf(o, c < 0x100 ? "\\x%02x" : c < 0x10000 ? "\\u%04x" : "\\U%08x", c);
    else o += encode(&c, 1, o);
  }
  *o++ = q;
  *o = 0;
}

/* for messages: in a thread's buffer, cut short past ~250 characters */
static const char *repr(const RtStr *s) {
  static _Thread_local char text[1024];
  repr_into(s, text, sizeof text);
  return text;
}

/* repr(s) whole, malloc'd (print() of a tuple holding s); NULL: no memory */
char *rt_str_repr(const RtStr *s) {
  size_t cap = REPR_WIDEST * (size_t)s->len + REPR_WIDEST + 4;
  char *text = malloc(cap);
  if (text) repr_into(s, text, cap);
  return text;
}

/* A str of a NumPy str array's element: n code points, NUL-padded at
 * the end (NumPy's '<Un' drops trailing NULs when it reads one too). */
int32_t rt_str_from_chars(RtStr **out, const uint32_t *chars, int64_t n) {
  while (n && !chars[n - 1]) n--;
  RtStr *s = rt_str_alloc(n);
  if (s) memcpy(s->data, chars, sizeof(uint32_t) * (size_t)n);
  return give(out, s);
}

/* A text's unit i: a code point, or a byte read unsigned. */
static uint32_t text_unit(const void *p, int64_t i, int32_t width) {
  return width == 4 ? ((const uint32_t *)p)[i] : ((const unsigned char *)p)[i];
}

/* As NumPy compares fixed-width text: unit by unit, trailing NULs not
 * counted (an item is NUL-padded to its width). */
int64_t rt_text_order(const void *a, int64_t na, const void *b, int64_t nb, int32_t width) {
  while (na && !text_unit(a, na - 1, width)) na--;
  while (nb && !text_unit(b, nb - 1, width)) nb--;
  for (int64_t i = 0; i < na && i < nb; i++) {
    uint32_t x = text_unit(a, i, width), y = text_unit(b, i, width);
    if (x != y) return x < y ? -1 : 1;
  }
  return na < nb ? -1 : na > nb;
}

/* s stored into a NumPy str array's element of n code points: cut to n,
 * or NUL-padded, as NumPy's. */
void rt_str_to_chars(uint32_t *chars, int64_t n, const RtStr *s) {
  int64_t k = s->len < n ? s->len : n;
  memmove(chars, s->data, sizeof(uint32_t) * (size_t)k);
  memset(chars + k, 0, sizeof(uint32_t) * (size_t)(n - k));
}

/* text (malloc'd UTF-8, freed here; NULL: out of memory) as a str */
int32_t rt_str_from_utf8(RtStr **out, char *text) {
  int64_t n = text ? rt_str_decode(text, (int64_t)strlen(text), NULL) : 0;
  RtStr *r = text ? rt_str_alloc(n) : NULL;
  if (r) rt_str_decode(text, (int64_t)strlen(text), r->data);
  free(text);
  return give(out, r);
}

/* repr(s) as a str */
int32_t rt_str_repr_of(RtStr **out, const RtStr *s) { return rt_str_from_utf8(out, rt_str_repr(s)); }

static int32_t fail(int status, const char *fmt, const RtStr *s) {
  static _Thread_local char text[1200];
  snprintf(text, sizeof text, fmt, repr(s));
  rt_set_error(status, text);
  return status;
}

/* ---------------------------------------------------------------- operators */

int32_t rt_str_concat(RtStr **out, RtStr *a, RtStr *b) {
  RtStr *s = rt_str_alloc(a->len + b->len);
  if (s) {
    memcpy(s->data, a->data, sizeof(uint32_t) * (size_t)a->len);
    memcpy(s->data + a->len, b->data, sizeof(uint32_t) * (size_t)b->len);
  }
  return give(out, s);
}

int32_t rt_str_repeat(RtStr **out, RtStr *a, int64_t n) {
  if (n < 0 || a->len == 0) n = 0;
  if (n && a->len > ((int64_t)1 << 58) / n) return no_memory();
  RtStr *s = rt_str_alloc(a->len * n);
  for (int64_t i = 0; s && i < n; i++) memcpy(s->data + i * a->len, a->data, sizeof(uint32_t) * (size_t)a->len);
  return give(out, s);
}

int64_t rt_str_compare(RtStr *a, RtStr *b) { return rt_str_order(a, b); }

int32_t rt_str_equal(RtStr *a, RtStr *b) {
  if (a == b) return 1;
  if (a->len != b->len || (a->hash != -1 && b->hash != -1 && a->hash != b->hash)) return 0;
  return !memcmp(a->data, b->data, sizeof(uint32_t) * (size_t)a->len);
}

int32_t rt_str_getitem(RtStr **out, RtStr *s, int64_t i) {
  if (i < 0) i += s->len;
  if (i < 0 || i >= s->len) {
    rt_set_error(RT_ERR_INDEX, "string index out of range");
    return RT_ERR_INDEX;
  }
  return give(out, from_points(&s->data[i], 1));
}

/* Python's slice of a sequence of len items: its first index and how many (CPython's PySlice_AdjustIndices). */
static int64_t slice_bound(int64_t v, int64_t len, int64_t step, bool stop) {
  if (v == NONE_INDEX) return step < 0 ? (stop ? -1 : len - 1) : (stop ? len : 0);
  if (v < 0) {
    v += len;
    if (v < 0) v = step < 0 ? -1 : 0;
  } else if (v >= len) {
    v = step < 0 ? len - 1 : len;
  }
  return v;
}

int32_t rt_str_slice(RtStr **out, RtStr *s, int64_t start, int64_t stop, int64_t step) {
  if (step == NONE_INDEX) step = 1;
  if (step == 0) {
    rt_set_error(RT_ERR_VALUE, "slice step cannot be zero");
    return RT_ERR_VALUE;
  }
  start = slice_bound(start, s->len, step, false);
  stop = slice_bound(stop, s->len, step, true);
  int64_t n = step < 0 ? (stop < start ? (start - stop - 1) / -step + 1 : 0)
                       : (start < stop ? (stop - start - 1) / step + 1 : 0);
  if (step == 1 && n == s->len) return same(out, s);
  RtStr *r = rt_str_alloc(n);
  for (int64_t i = 0; r && i < n; i++) r->data[i] = s->data[start + i * step];
  return give(out, r);
}

/* ---------------------------------------------------------------- searching */

/* CPython's ADJUST_INDICES: end clamped to the length, negatives counted from the end. */
static void adjust(int64_t *start, int64_t *end, int64_t len) {
  if (*end == NONE_INDEX || *end > len) *end = len;
  else if (*end < 0 && (*end += len) < 0) *end = 0;
  if (*start == NONE_INDEX) *start = 0;
  else if (*start < 0 && (*start += len) < 0) *start = 0;
}

static bool matches_at(const RtStr *s, int64_t i, const RtStr *sub) {
  return !memcmp(s->data + i, sub->data, sizeof(uint32_t) * (size_t)sub->len);
}

/* The first (or last) i in [start, end - len(sub)] where sub is, or -1. */
static int64_t search(const RtStr *s, const RtStr *sub, int64_t start, int64_t end, bool last) {
  adjust(&start, &end, s->len);
  if (end - start < sub->len) return -1;
  if (last) {
    for (int64_t i = end - sub->len; i >= start; i--)
      if (matches_at(s, i, sub)) return i;
    return -1;
  }
  if (sub->len == 0) return start;
  uint32_t first = sub->data[0];
  for (int64_t i = start; i <= end - sub->len; i++)
    if (s->data[i] == first && matches_at(s, i, sub)) return i;
  return -1;
}

/* find (flags 0), rfind (1), index (2), rindex (3) */
int32_t rt_str_find(int64_t *out, RtStr *s, RtStr *sub, int64_t start, int64_t end, int32_t flags) {
  *out = search(s, sub, start, end, flags & 1);
  if (*out < 0 && (flags & 2)) {
    rt_set_error(RT_ERR_VALUE, "substring not found");
    return RT_ERR_VALUE;
  }
  return RT_OK;
}

int32_t rt_str_contains(int32_t *out, RtStr *s, RtStr *sub) {
  *out = search(s, sub, 0, NONE_INDEX, false) >= 0;
  return RT_OK;
}

int32_t rt_str_count(int64_t *out, RtStr *s, RtStr *sub, int64_t start, int64_t end) {
  adjust(&start, &end, s->len);
  *out = 0;
  if (end - start < sub->len) return RT_OK;
  if (sub->len == 0) {
    *out = end - start + 1;
    return RT_OK;
  }
  for (int64_t i = start; i <= end - sub->len;) {
    if (matches_at(s, i, sub)) {
      ++*out;
      i += sub->len;
    } else {
      i++;
    }
  }
  return RT_OK;
}

/* startswith (flags 0), endswith (1): CPython's tailmatch */
int32_t rt_str_tailmatch(int32_t *out, RtStr *s, RtStr *sub, int64_t start, int64_t end, int32_t flags) {
  adjust(&start, &end, s->len);
  *out = end - sub->len >= start && matches_at(s, flags ? end - sub->len : start, sub);
  return RT_OK;
}

/* removeprefix (suffix 0), removesuffix (1): s without affix where it
 * starts (ends) with it, else s itself, as Python's */
int32_t rt_str_removeaffix(RtStr **out, RtStr *s, RtStr *affix, int32_t suffix) {
  int64_t n = affix->len;
  if (!n || n > s->len || !matches_at(s, suffix ? s->len - n : 0, affix)) return same(out, s);
  return suffix ? rt_str_slice(out, s, 0, s->len - n, 1) : rt_str_slice(out, s, n, s->len, 1);
}

/* ---------------------------------------------------------------- case */

/* Σ lowered where it stands at s[i]: final (ς) after a cased character and
 * not before one, looking through case-ignorable ones, as Python's lower(). */
static uint32_t lower_sigma(const RtStr *s, int64_t i) {
  int64_t j = i - 1;
  while (j >= 0 && uc_is(s->data[j], UC_IS_CASE_IGNORABLE)) j--;
  if (j < 0 || !is_cased(s->data[j])) return 0x3c3;
  j = i + 1;
  while (j < s->len && uc_is(s->data[j], UC_IS_CASE_IGNORABLE)) j++;
  return j == s->len || !is_cased(s->data[j]) ? 0x3c2 : 0x3c3;
}

/* s[i] lowered into out: how many characters */
static int lower_at(const RtStr *s, int64_t i, uint32_t out[3]) {
  uint32_t c = s->data[i];
  if (c < 128) return out[0] = is_upper(c) ? c + 32 : c, 1;
  if (c == 0x3a3) return out[0] = lower_sigma(s, i), 1;
  return uc_map(c, UC_TO_LOWER, out);
}

static int upper_of(uint32_t c, uint32_t out[3]) {
  if (c < 128) return out[0] = is_lower(c) ? c - 32 : c, 1;
  return uc_map(c, UC_TO_UPPER, out);
}

/* s[i] mapped as `how` asks, with prev_cased (title's state) updated */
static int case_at(const RtStr *s, int64_t i, int how, bool *prev_cased, uint32_t out[3]) {
  uint32_t c = s->data[i];
  switch (how) {
  case STR_CASE_UPPER: return upper_of(c, out);
  case STR_CASE_LOWER: return lower_at(s, i, out);
  case STR_CASE_FOLD: return c < 128 ? lower_at(s, i, out) : uc_map(c, UC_TO_FOLD, out);
  case STR_CASE_SWAP:
    if (is_upper(c)) return lower_at(s, i, out);
    if (is_lower(c)) return upper_of(c, out);
    return out[0] = c, 1;
  case STR_CASE_CAPITALIZE: return i ? lower_at(s, i, out) : uc_map(c, UC_TO_TITLE, out);
  default: {
    bool after_cased = *prev_cased;
    *prev_cased = is_cased(c);
    return after_cased ? lower_at(s, i, out) : uc_map(c, UC_TO_TITLE, out);
  }
  }
}

/* upper, lower, swapcase, capitalize, title, casefold: Python's full
 * mappings, so the result can be longer ("ß".upper() is "SS") */
int32_t rt_str_case(RtStr **out, RtStr *s, int32_t how) {
  uint32_t m[3];
  int64_t n = 0;
  bool prev_cased = false;
  for (int64_t i = 0; i < s->len; i++) n += case_at(s, i, how, &prev_cased, m);
  RtStr *r = rt_str_alloc(n);
  if (!r) return no_memory();
  prev_cased = false;
  for (int64_t i = 0, o = 0; i < s->len; i++) {
    int k = case_at(s, i, how, &prev_cased, m);
    for (int j = 0; j < k; j++) r->data[o++] = m[j];
  }
  *out = r;
  return RT_OK;
}

/* ---------------------------------------------------------------- strip, pad */

static bool in_set(uint32_t c, const RtStr *chars) {
  if (!chars) return is_space(c);
  for (int64_t i = 0; i < chars->len; i++)
    if (chars->data[i] == c) return true;
  return false;
}

/* strip (how 3), lstrip (1), rstrip (2); chars NULL: whitespace */
int32_t rt_str_strip(RtStr **out, RtStr *s, RtStr *chars, int32_t how) {
  int64_t a = 0, b = s->len;
  if (how & 1)
    while (a < b && in_set(s->data[a], chars)) a++;
  if (how & 2)
    while (b > a && in_set(s->data[b - 1], chars)) b--;
  if (a == 0 && b == s->len) return same(out, s);
  return give(out, from_points(s->data + a, b - a));
}

/* s padded to width with fill: left of it `left` of the padding */
static int32_t pad(RtStr **out, RtStr *s, int64_t width, uint32_t fill, int64_t left) {
  if (width <= s->len) return same(out, s);
  RtStr *r = rt_str_alloc(width);
  if (!r) return no_memory();
  for (int64_t i = 0; i < width; i++) r->data[i] = fill;
  memcpy(r->data + left, s->data, sizeof(uint32_t) * (size_t)s->len);
  *out = r;
  return RT_OK;
}

/* center (how 0), ljust (1), rjust (2); fill NULL: a space */
int32_t rt_str_pad(RtStr **out, RtStr *s, int64_t width, RtStr *fill, int32_t how) {
  if (fill && fill->len != 1) {
    rt_set_error(RT_ERR_TYPE, "The fill character must be exactly one character long");
    return RT_ERR_TYPE;
  }
  uint32_t c = fill ? fill->data[0] : ' ';
  int64_t marg = width - s->len;
  int64_t left = how == 1 ? 0 : how == 2 ? marg : marg / 2 + (marg & width & 1);
  return pad(out, s, width, c, left);
}

int32_t rt_str_zfill(RtStr **out, RtStr *s, int64_t width) {
  if (width <= s->len) return same(out, s);
  int32_t st = pad(out, s, width, '0', width - s->len);
  RtStr *r = *out;
  if (st == RT_OK && s->len && (s->data[0] == '+' || s->data[0] == '-')) {
    r->data[0] = s->data[0];
    r->data[width - s->len] = '0';
  }
  return st;
}

/* expandtabs(tabsize): each tab becomes the spaces to the next column
 * that is a multiple of tabsize (none where tabsize <= 0), columns
 * counted from the last newline or carriage return, as Python's. */
int32_t rt_str_expandtabs(RtStr **out, RtStr *s, int64_t tabsize) {
  if (tabsize > INT32_MAX || tabsize < INT32_MIN) {  /* CPython's tabsize is a C int */
    rt_set_error(RT_ERR_OVERFLOW, "Python int too large to convert to C int");
    return RT_ERR_OVERFLOW;
  }
  int64_t n = 0, col = 0;
  bool tabs = false;
  for (int64_t i = 0; i < s->len; i++) {
    uint32_t c = s->data[i];
    int64_t add = c != '\t' ? 1 : tabsize > 0 ? tabsize - col % tabsize : 0;
    tabs |= c == '\t';
    if (add > INT64_MAX / 8 - n) {
      rt_set_error(RT_ERR_OVERFLOW, "new string is too long");
      return RT_ERR_OVERFLOW;
    }
    n += add;
    col = c == '\n' || c == '\r' ? 0 : col + add;
  }
  if (!tabs) return same(out, s);
  RtStr *r = rt_str_alloc(n);
  if (!r) return no_memory();
  col = 0;
  for (int64_t i = 0, o = 0; i < s->len; i++) {
    uint32_t c = s->data[i];
    int64_t add = c != '\t' ? 1 : tabsize > 0 ? tabsize - col % tabsize : 0;
    if (c == '\t')
      for (int64_t k = 0; k < add; k++) r->data[o++] = ' ';
    else
      r->data[o++] = c;
    col = c == '\n' || c == '\r' ? 0 : col + add;
  }
  *out = r;
  return RT_OK;
}

/* ---------------------------------------------------------------- replace, split, join */

int32_t rt_str_replace(RtStr **out, RtStr *s, RtStr *old, RtStr *new, int64_t count) {
  int64_t n;
  rt_str_count(&n, s, old, 0, NONE_INDEX);
  if (count >= 0 && count < n) n = count;
  if (n == 0) return same(out, s);
  RtStr *r = rt_str_alloc(s->len + n * (new->len - old->len));
  if (!r) return no_memory();
  int64_t i = 0, o = 0;
  for (int64_t k = 0; k < n; k++) {
    int64_t at = old->len ? search(s, old, i, NONE_INDEX, false) : i;
    if (!old->len && k) r->data[o++] = s->data[i++], at = i;  /* between each character */
    memcpy(r->data + o, s->data + i, sizeof(uint32_t) * (size_t)(at - i));
    o += at - i;
    memcpy(r->data + o, new->data, sizeof(uint32_t) * (size_t)new->len);
    o += new->len;
    i = at + old->len;
  }
  memcpy(r->data + o, s->data + i, sizeof(uint32_t) * (size_t)(s->len - i));
  *out = r;
  return RT_OK;
}

static RtList *str_list(void) { return rt_list_new(TY_STR, sizeof(RtStr *), 4); }

/* Appends s[a:b] to l; false: no memory. */
static bool add_part(RtList *l, const RtStr *s, int64_t a, int64_t b) {
  RtStr *part = from_points(s->data + a, b - a);
  if (!part || rt_list_reserve(l, l->len + 1) != RT_OK) {
    free(part);
    return false;
  }
  ((RtStr **)l->data)[l->len++] = part;
  return true;
}

static int32_t split_space(RtList *l, const RtStr *s, int64_t maxsplit) {
  int64_t i = 0, n = s->len;
  while (true) {
    while (i < n && is_space(s->data[i])) i++;
    if (i == n) return RT_OK;
    int64_t j = i;
    if (maxsplit-- == 0) j = n;
    while (j < n && !is_space(s->data[j])) j++;
    if (!add_part(l, s, i, j)) return no_memory();
    i = j;
  }
}

/* rsplit() on whitespace: the parts from the right, in reverse order */
static int32_t rsplit_space(RtList *l, const RtStr *s, int64_t maxsplit) {
  int64_t j = s->len;
  while (true) {
    while (j > 0 && is_space(s->data[j - 1])) j--;
    if (j == 0) return RT_OK;
    int64_t i = j;
    if (maxsplit-- == 0) i = 0;
    while (i > 0 && !is_space(s->data[i - 1])) i--;
    if (!add_part(l, s, i, j)) return no_memory();
    j = i;
  }
}

static int32_t rsplit_sep(RtList *l, const RtStr *s, const RtStr *sep, int64_t maxsplit) {
  int64_t j = s->len, at;
  for (int64_t k = 0; (maxsplit < 0 || k < maxsplit) && j >= sep->len && (at = search(s, sep, 0, j, true)) >= 0; k++) {
    if (!add_part(l, s, at + sep->len, j)) return no_memory();
    j = at;
  }
  return add_part(l, s, 0, j) ? RT_OK : no_memory();
}

static void reverse_strs(RtList *l) {
  RtStr **p = (RtStr **)l->data;
  for (int64_t i = 0, j = l->len - 1; i < j; i++, j--) {
    RtStr *t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
}

static int32_t empty_separator(void) {
  rt_set_error(RT_ERR_VALUE, "empty separator");
  return RT_ERR_VALUE;
}

/* split(sep=None, maxsplit=-1) and, from_right, rsplit(): a typed list of str */
int32_t rt_str_split(RtList **out, RtStr *s, RtStr *sep, int64_t maxsplit, int32_t from_right) {
  if (sep && sep->len == 0) return empty_separator();
  RtList *l = *out = str_list();
  if (!l) return no_memory();
  if (from_right) {
    int32_t st = sep ? rsplit_sep(l, s, sep, maxsplit) : rsplit_space(l, s, maxsplit < 0 ? INT64_MAX : maxsplit);
    reverse_strs(l);
    return st;
  }
  if (!sep) return split_space(l, s, maxsplit < 0 ? INT64_MAX : maxsplit);
  int64_t i = 0, at;
  for (int64_t k = 0; (maxsplit < 0 || k < maxsplit) && (at = search(s, sep, i, NONE_INDEX, false)) >= 0; k++) {
    if (!add_part(l, s, i, at)) return no_memory();
    i = at + sep->len;
  }
  return add_part(l, s, i, s->len) ? RT_OK : no_memory();
}

/* The line boundaries of str.splitlines(), as Python's. */
static bool is_line_break(uint32_t c) {
  return (c >= '\n' && c <= '\r') || (c >= 0x1c && c <= 0x1e) || c == 0x85 || c == 0x2028 || c == 0x2029;
}

/* splitlines(keepends=False) */
int32_t rt_str_splitlines(RtList **out, RtStr *s, int64_t keepends) {
  RtList *l = *out = str_list();
  if (!l) return no_memory();
  for (int64_t i = 0; i < s->len;) {
    int64_t j = i;
    while (j < s->len && !is_line_break(s->data[j])) j++;
    int64_t next = j + (j < s->len) + (j + 1 < s->len && s->data[j] == '\r' && s->data[j + 1] == '\n');
    if (!add_part(l, s, i, keepends ? next : j)) return no_memory();
    i = next;
  }
  return RT_OK;
}

/* partition(sep) and, from_right, rpartition(): three strs */
int32_t rt_str_partition(RtStr *out[3], RtStr *s, RtStr *sep, int32_t from_right) {
  if (sep->len == 0) return empty_separator();
  int64_t at = search(s, sep, 0, NONE_INDEX, from_right);
  int64_t a = at >= 0 ? at : from_right ? 0 : s->len, b = at >= 0 ? at + sep->len : a;
  out[0] = from_points(s->data, a);
  out[1] = from_points(s->data + a, b - a);
  out[2] = from_points(s->data + b, s->len - b);
  if (out[0] && out[1] && out[2]) return RT_OK;
  for (int k = 0; k < 3; k++) free(out[k]);
  return no_memory();
}

/* sep.join(items): n strings */
int32_t rt_str_join(RtStr **out, RtStr *sep, RtStr **items, int64_t n) {
  int64_t len = n ? sep->len * (n - 1) : 0;
  for (int64_t i = 0; i < n; i++) len += items[i]->len;
  RtStr *r = rt_str_alloc(len);
  if (!r) return no_memory();
  int64_t o = 0;
  for (int64_t i = 0; i < n; i++) {
    if (i) {
      memcpy(r->data + o, sep->data, sizeof(uint32_t) * (size_t)sep->len);
      o += sep->len;
    }
    memcpy(r->data + o, items[i]->data, sizeof(uint32_t) * (size_t)items[i]->len);
    o += items[i]->len;
  }
  *out = r;
  return RT_OK;
}

int32_t rt_str_join_list(RtStr **out, RtStr *sep, RtList *l) {
  return rt_str_join(out, sep, (RtStr **)l->data, l->len);
}

/* ---------------------------------------------------------------- ord, chr */

int32_t rt_str_ord(int64_t *out, RtStr *s) {
  if (s->len != 1) {
    static _Thread_local char text[128];
    snprintf(text, sizeof text, "ord() expected a character, but string of length %lld found", (long long)s->len);
    rt_set_error(RT_ERR_TYPE, text);
    return RT_ERR_TYPE;
  }
  *out = s->data[0];
  return RT_OK;
}

int32_t rt_str_chr(RtStr **out, int64_t c) {
  if (c < 0 || c >= 0x110000) {
    rt_set_error(RT_ERR_VALUE, "chr() arg not in range(0x110000)");
    return RT_ERR_VALUE;
  }
  uint32_t p = (uint32_t)c;
  return give(out, from_points(&p, 1));
}

/* ---------------------------------------------------------------- numbers to text */


/* str(x): kind 0 a signed int, 1 an unsigned one (bits in v), 2 a float64, 3 a float32, 4 a bool */
int32_t rt_str_from_number(RtStr **out, uint64_t v, int32_t kind) {
  char text[64];
  size_t n;
  double d;
  memcpy(&d, &v, sizeof d);
  switch (kind) {
  case 0: n = (size_t)snprintf(text, sizeof text, "%lld", (long long)v); break;
  case 1: n = (size_t)snprintf(text, sizeof text, "%llu", (unsigned long long)v); break;
  case 4: n = (size_t)snprintf(text, sizeof text, "%s", v ? "True" : "False"); break;
  default: n = rt_float_repr(text, d, kind == 3); break;
  }
  return give(out, from_ascii(text, n));
}

/* s's ASCII text with whitespace stripped, and underscores between digits
 * removed (Python allows 1_000), into buf; false if s holds other
 * characters or misplaced underscores. */
static bool number_text(const RtStr *s, char *buf, size_t cap) {
  int64_t a = 0, b = s->len;
  while (a < b && is_space(s->data[a])) a++;
  while (b > a && is_space(s->data[b - 1])) b--;
  size_t n = 0;
  for (int64_t i = a; i < b; i++) {
    uint32_t c = s->data[i];
    if (c >= 128 || n + 1 >= cap || c == 0) return false;
    if (c == '_') {
      if (i == a || i + 1 == b || !is_digit(s->data[i - 1]) || !is_digit(s->data[i + 1])) return false;
      continue;
    }
    buf[n++] = (char)c;
  }
  buf[n] = 0;
  return n > 0;
}

int32_t rt_str_to_int(int64_t *out, RtStr *s) {
  char buf[128], *end;
  bool ok = number_text(s, buf, sizeof buf);
  const char *p = buf + (buf[0] == '+' || buf[0] == '-');
  ok = ok && *p >= '0' && *p <= '9';
  for (const char *c = p; ok && *c; c++) ok = *c >= '0' && *c <= '9';
  if (!ok) return fail(RT_ERR_VALUE, "invalid literal for int() with base 10: %s", s);
  errno = 0;
  *out = strtoll(buf, &end, 10);
  if (errno == ERANGE) {
    rt_set_error(RT_ERR_OVERFLOW, "int too large to convert to int64");
    return RT_ERR_OVERFLOW;
  }
  return RT_OK;
}

int32_t rt_str_to_float(double *out, RtStr *s) {
  char buf[512], *end;
  bool ok = number_text(s, buf, sizeof buf);
  const char *p = buf + (buf[0] == '+' || buf[0] == '-');
  /* strtod also reads hexadecimal, which float() does not */
  ok = ok && !(p[0] == '0' && (p[1] == 'x' || p[1] == 'X'));
  if (ok) {
    if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity")) {
      *out = buf[0] == '-' ? -INFINITY : INFINITY;
      return RT_OK;
    }
    if (!strcasecmp(p, "nan")) {
      *out = buf[0] == '-' ? -NAN : NAN;
      return RT_OK;
    }
    ok = (*p >= '0' && *p <= '9') || *p == '.';
  }
  if (ok) {
    *out = strtod(buf, &end);
    ok = *end == 0;
  }
  return ok ? RT_OK : fail(RT_ERR_VALUE, "could not convert string to float: %s", s);
}

/* ---------------------------------------------------------------- format specs */

/* A format spec of Python's mini-language, the subset supported:
 * [[fill]align][sign][0][width][,|_][.precision][type]. */
typedef struct Spec {
  uint32_t fill;
  char align, sign, grouping, type;
  bool alternate;  /* '#': an int's base prefix (0b, 0o, 0x) */
  int64_t width, precision;  /* -1: not given */
} Spec;

/* Parses text (UTF-8) into sp; false if it is not of the subset. */
static bool parse_spec(const char *text, Spec *sp) {
  uint32_t pts[64];
  int64_t n = rt_str_decode(text, (int64_t)strlen(text), NULL);
  if (n < 0 || n > 60) return false;
  rt_str_decode(text, (int64_t)strlen(text), pts);
  *sp = (Spec){.fill = ' ', .sign = '-', .width = -1, .precision = -1};
  int64_t i = 0;
  if (n >= 2 && strchr("<>=^", (int)(pts[1] < 128 ? pts[1] : 1))) {
    sp->fill = pts[0];
    sp->align = (char)pts[1];
    i = 2;
  } else if (n >= 1 && pts[0] < 128 && strchr("<>=^", (int)pts[0])) {
    sp->align = (char)pts[i++];
  }
  if (i < n && (pts[i] == '+' || pts[i] == '-' || pts[i] == ' ')) sp->sign = (char)pts[i++];
  if (i < n && pts[i] == '#') {
    sp->alternate = true;
    i++;
  }
  if (i < n && pts[i] == '0') {
    if (!sp->align) {
      sp->fill = '0';
      sp->align = '=';
    }
    i++;
  }
  for (; i < n && pts[i] >= '0' && pts[i] <= '9'; i++) sp->width = (sp->width < 0 ? 0 : sp->width * 10) + (pts[i] - '0');
  if (i < n && (pts[i] == ',' || pts[i] == '_')) sp->grouping = (char)pts[i++];
  if (i < n && pts[i] == '.') {
    sp->precision = 0;
    if (++i >= n || pts[i] < '0' || pts[i] > '9') return false;
    for (; i < n && pts[i] >= '0' && pts[i] <= '9'; i++) sp->precision = sp->precision * 10 + (pts[i] - '0');
  }
  if (i < n && pts[i] < 128 && strchr("bcdeEfFgGosxX%", (int)pts[i])) sp->type = (char)pts[i++];
  return i == n && sp->width < 10000 && sp->precision < 1000;
}

/* Whether spec is supported for a value of kind (0 an int, 1 a float, 2 a str), for the typer. */
bool rt_str_spec_ok(const char *spec, int kind) {
  Spec sp;
  if (!parse_spec(spec, &sp)) return false;
  bool based = kind == 0 && sp.type && strchr("boxX", sp.type), decimal = kind == 0 && (!sp.type || sp.type == 'd');
  if ((sp.alternate && !based && !decimal) || (based && sp.grouping == ',')) return false;  /* (',' with x: Python's ValueError) */
  if (kind == 2) return (!sp.type || sp.type == 's') && sp.sign == '-' && !sp.grouping && sp.align != '=';
  if (kind == 1) return !sp.type || strchr("eEfFgG%", sp.type);
  return sp.precision < 0 ? !sp.type || strchr("bdoxXeEfFgG%", sp.type) : !sp.type || strchr("eEfFgG%", sp.type);
}

/* digits (no sign) with a separator every `every` places before the point */
static size_t group(char *text, size_t n, char sep, size_t every) {
  size_t whole = every == 3 ? strcspn(text, ".eE%") : n;  /* (a hex number's digits have e's) */
  if (whole <= every || !sep) return n;
  size_t extra = (whole - 1) / every;
  memmove(text + whole + extra, text + whole, n - whole + 1);
  for (size_t i = whole, o = whole + extra, k = 0; i > 0; k++) {
    if (k && k % every == 0) text[--o] = sep;
    text[--o] = text[--i];
  }
  return n + extra;
}

/* sign and digits padded to the spec's width by its fill and alignment */
static int32_t padded(RtStr **out, const Spec *sp, const char *sign, const uint32_t *body, int64_t n, char deflt) {
  int64_t signs = (int64_t)strlen(sign), len = signs + n;
  int64_t width = sp->width > len ? sp->width : len, marg = width - len;
  char align = sp->align ? sp->align : deflt;
  int64_t left = align == '<' ? 0 : align == '^' ? marg / 2 : marg;
  RtStr *r = rt_str_alloc(width);
  if (!r) return no_memory();
  for (int64_t i = 0; i < width; i++) r->data[i] = sp->fill;
  int64_t o = align == '=' ? 0 : left;
  for (int64_t i = 0; i < signs; i++) r->data[o++] = (unsigned char)sign[i];
  if (align == '=') o = width - n;
  memcpy(r->data + o, body, sizeof(uint32_t) * (size_t)n);
  *out = r;
  return RT_OK;
}

static int32_t padded_ascii(RtStr **out, const Spec *sp, bool negative, const char *digits) {
  uint32_t pts[1200];
  int64_t n = 0;
  for (const char *c = digits; *c && n < 1200; c++) pts[n++] = (unsigned char)*c;
  char sign[4] = {negative ? '-' : sp->sign == '+' ? '+' : sp->sign == ' ' ? ' ' : 0};
  if (sp->alternate && sp->type && strchr("boxX", sp->type)) {  /* the base's prefix goes with the sign, before any '=' padding */
    size_t k = strlen(sign);
    sign[k] = '0';
    sign[k + 1] = sp->type == 'X' ? 'X' : sp->type;
  }
  return padded(out, sp, sign, pts, n, '>');
}

/* format(x, spec) of a float */
int32_t rt_str_format_float(RtStr **out, double d, const char *spec) {
  Spec sp;
  parse_spec(spec, &sp);
  char text[1200];
  bool negative = signbit(d);
  double a = fabs(d);
  int prec = sp.precision < 0 ? 6 : (int)sp.precision;
  size_t n;
  if (isnan(d) || isinf(d)) {
    negative = negative && !isnan(d);
    n = (size_t)snprintf(text, sizeof text, "%s", isnan(d) ? "nan" : "inf");
    if (sp.type && strchr("EFG", sp.type)) for (size_t i = 0; i < n; i++) text[i] = (char)(text[i] - 32);
    if (sp.type == '%') n += (size_t)snprintf(text + n, sizeof text - n, "%%");
  } else if (!sp.type && sp.precision < 0) {
    n = rt_float_repr(text, a, false);
  } else if (!sp.type) {  /* g, with a point kept in positional form */
    n = (size_t)snprintf(text, sizeof text, "%.*g", prec ? prec : 1, a);
    if (!strpbrk(text, ".e")) n += (size_t)snprintf(text + n, sizeof text - n, ".0");
  } else if (sp.type == '%') {
    n = (size_t)snprintf(text, sizeof text, "%.*f%%", prec, a * 100);
  } else {
    char f[8] = {'%', '.', '*', sp.type, 0};
    n = (size_t)snprintf(text, sizeof text, f, prec, a);
  }
  if (n >= sizeof text - 400) return no_memory();
  group(text, n, sp.grouping, 3);
  return padded_ascii(out, &sp, negative, text);
}

/* format(x, spec) of an int (unsigned: v's bits are a uint64) */
int32_t rt_str_format_int(RtStr **out, int64_t v, int32_t is_unsigned, const char *spec) {
  Spec sp;
  parse_spec(spec, &sp);
  if (sp.type && strchr("eEfFgG%", sp.type))
    return rt_str_format_float(out, is_unsigned ? (double)(uint64_t)v : (double)v, spec);
  bool negative = !is_unsigned && v < 0;
  uint64_t a = negative ? 0 - (uint64_t)v : (uint64_t)v;
  char text[128];
  size_t n = 0;
  if (sp.type == 'b') {
    char bits[65];
    int k = 0;
    do bits[k++] = (char)('0' + (a & 1)); while ((a >>= 1));
    while (k) text[n++] = bits[--k];
    text[n] = 0;
  } else {
    const char *f = sp.type == 'x' ? "%llx" : sp.type == 'X' ? "%llX" : sp.type == 'o' ? "%llo" : "%llu";
    n = (size_t)snprintf(text, sizeof text, f, (unsigned long long)a);
  }
  group(text, n, sp.grouping, sp.type && strchr("boxX", sp.type) ? 4 : 3);  /* as Python groups */
  return padded_ascii(out, &sp, negative, text);
}

/* format(s, spec) of a str */
int32_t rt_str_format_str(RtStr **out, RtStr *s, const char *spec) {
  Spec sp;
  parse_spec(spec, &sp);
  int64_t n = sp.precision >= 0 && sp.precision < s->len ? sp.precision : s->len;
  return padded(out, &sp, "", s->data, n, '<');
}

/* ---------------------------------------------------------------- the symbols */

void rt_register_strings(void (*define)(const char *name, void *addr, void *ctx), void *ctx) {
  static const struct { const char *name; void *fn; } fns[] = {
    {"rt_str_free", (void *)rt_str_free}, {"rt_str_keep", (void *)rt_str_keep}, {"rt_str_concat", (void *)rt_str_concat},
    {"rt_str_repeat", (void *)rt_str_repeat}, {"rt_str_compare", (void *)rt_str_compare},
    {"rt_str_equal", (void *)rt_str_equal},
    {"rt_str_getitem", (void *)rt_str_getitem}, {"rt_str_slice", (void *)rt_str_slice},
    {"rt_str_find", (void *)rt_str_find}, {"rt_str_contains", (void *)rt_str_contains},
    {"rt_str_count", (void *)rt_str_count}, {"rt_str_tailmatch", (void *)rt_str_tailmatch},
    {"rt_str_case", (void *)rt_str_case}, {"rt_str_is", (void *)rt_str_is},
    {"rt_str_strip", (void *)rt_str_strip}, {"rt_str_pad", (void *)rt_str_pad},
    {"rt_str_zfill", (void *)rt_str_zfill}, {"rt_str_removeaffix", (void *)rt_str_removeaffix}, {"rt_str_expandtabs", (void *)rt_str_expandtabs}, {"rt_str_replace", (void *)rt_str_replace},
    {"rt_str_split", (void *)rt_str_split}, {"rt_str_splitlines", (void *)rt_str_splitlines},
    {"rt_str_partition", (void *)rt_str_partition}, {"rt_str_join", (void *)rt_str_join},
    {"rt_str_join_list", (void *)rt_str_join_list}, {"rt_str_ord", (void *)rt_str_ord},
    {"rt_str_chr", (void *)rt_str_chr}, {"rt_str_from_number", (void *)rt_str_from_number},
    {"rt_str_to_int", (void *)rt_str_to_int}, {"rt_str_to_float", (void *)rt_str_to_float},
    {"rt_str_format_float", (void *)rt_str_format_float}, {"rt_str_format_int", (void *)rt_str_format_int},
    {"rt_str_format_str", (void *)rt_str_format_str}, {"rt_raise_str", (void *)rt_raise_str},
    {"rt_raise_args_begin", (void *)rt_raise_args_begin}, {"rt_raise_arg", (void *)rt_raise_arg},
    {"rt_raise_arg_str", (void *)rt_raise_arg_str}, {"rt_raise_args_text", (void *)rt_raise_args_text},
    {"rt_str_python_hash", (void *)rt_str_python_hash}, {"rt_str_repr_of", (void *)rt_str_repr_of},
    {"rt_str_from_chars", (void *)rt_str_from_chars}, {"rt_bytes_python_hash", (void *)rt_bytes_python_hash},
    {"rt_str_to_chars", (void *)rt_str_to_chars}, {"rt_text_order", (void *)rt_text_order},
  };
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) define(fns[i].name, fns[i].fn, ctx);
}
