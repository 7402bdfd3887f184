/* rtstr.h — str values: the memory compiled code and the extension share.
 *
 * A string is an immutable, reference-counted block of code points held
 * as UTF-32 (four bytes a character, whatever the characters), so that
 * len, indexing and slicing are plain arithmetic and every operation has
 * one loop, not one per width as CPython's. The count is the first field,
 * changed atomically, as an RtMemInfo's; the last release frees it.
 * Constants in compiled code are blocks in the code's data with a count
 * so large that it never falls to zero.
 *
 * lib/strings.c holds what compiled code calls; the extension boxes and
 * unboxes with the inline functions below (plain malloc and free, the
 * same in both).
 */
#ifndef RUCHEY_RTSTR_H
#define RUCHEY_RTSTR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct RtStr {
  int64_t refcount;  /* first, as RtMemInfo's */
  int64_t len;       /* code points */
  int64_t hash;      /* -1: not computed yet */
  uint32_t data[];   /* the code points, then a 0 */
} RtStr;

#define RT_STR_IMMORTAL ((int64_t)1 << 62)  /* a constant's count */
#define RT_STR_HEADER 24                    /* the bytes before data */

/* A new string of len code points (not filled in but the final 0), or NULL. */
static inline RtStr *rt_str_alloc(int64_t len) {
  if (len < 0 || len > ((int64_t)1 << 58)) return NULL;
  RtStr *s = (RtStr *)malloc(sizeof(RtStr) + sizeof(uint32_t) * (size_t)(len + 1));
  if (!s) return NULL;
  s->refcount = 1;
  s->len = len;
  s->hash = -1;
  s->data[len] = 0;
  return s;
}

static inline void rt_str_release(RtStr *s) {
  if (s && __atomic_sub_fetch(&s->refcount, 1, __ATOMIC_ACQ_REL) == 0) free(s);
}

static inline void rt_str_retain(RtStr *s) {
  if (s) __atomic_add_fetch(&s->refcount, 1, __ATOMIC_ACQ_REL);
}

/* A reference to s that may outlive the code that made it, for a
 * container to hold: s itself, one more reference, or for a constant (in
 * the code's data, which goes with the code) a copy on the heap. Out of
 * memory, the constant itself. */
static inline RtStr *rt_str_kept(RtStr *s) {
  if (__atomic_load_n(&s->refcount, __ATOMIC_RELAXED) < RT_STR_IMMORTAL / 2) {
    rt_str_retain(s);
    return s;
  }
  RtStr *c = rt_str_alloc(s->len);
  if (!c) return s;
  for (int64_t i = 0; i < s->len; i++) c->data[i] = s->data[i];
  c->hash = s->hash;
  return c;
}

/* A hash of the code points (FNV-1a), kept in the string; never -1. Typed
 * dicts hash their str keys with it (Python's own is salted per process). */
static inline int64_t rt_str_hash_of(RtStr *s) {
  int64_t h = __atomic_load_n(&s->hash, __ATOMIC_RELAXED);
  if (h != -1) return h;
  uint64_t x = 14695981039346656037u;
  for (int64_t i = 0; i < s->len; i++) x = (x ^ s->data[i]) * 1099511628211u;
  h = (int64_t)(x >> 1);
  __atomic_store_n(&s->hash, h, __ATOMIC_RELAXED);
  return h;
}

static inline bool rt_str_same(const RtStr *a, const RtStr *b) {
  if (a == b) return true;
  if (a->len != b->len) return false;
  for (int64_t i = 0; i < a->len; i++)
    if (a->data[i] != b->data[i]) return false;
  return true;
}

/* <0, 0 or >0 as a sorts before, with or after b: by code points, as Python. */
static inline int64_t rt_str_order(const RtStr *a, const RtStr *b) {
  int64_t n = a->len < b->len ? a->len : b->len;
  for (int64_t i = 0; i < n; i++)
    if (a->data[i] != b->data[i]) return a->data[i] < b->data[i] ? -1 : 1;
  return a->len < b->len ? -1 : a->len > b->len;
}

/* What rt_str_is asks of each character (str.isdigit() and its kin, the
 * ival of their rows), and rt_str_case's mapping (str.upper() and its kin):
 * the compiler's rows and the runtime read the same names. */
enum { STR_IS_DIGIT, STR_IS_ALPHA, STR_IS_SPACE, STR_IS_ALNUM, STR_IS_UPPER, STR_IS_LOWER, STR_IS_DECIMAL,
       STR_IS_ASCII, STR_IS_TITLE, STR_IS_NUMERIC, STR_IS_IDENTIFIER, STR_IS_PRINTABLE,
       STR_IS_NUMPY_FALSE, STR_IS_NUMPY1_FALSE };
enum { STR_CASE_UPPER, STR_CASE_LOWER, STR_CASE_SWAP, STR_CASE_CAPITALIZE, STR_CASE_TITLE, STR_CASE_FOLD };

/* lib/strings.c, for the compiler and the runtime's registration */
int64_t rt_str_decode(const char *text, int64_t n, uint32_t *out);  /* UTF-8 to code points; -1: not UTF-8 */
bool rt_str_spec_ok(const char *spec, int kind);  /* a format spec supported for an int (0), float (1), str (2) */
char *rt_str_utf8(const RtStr *s, size_t *len);
void rt_raise_str(void *cls, const RtStr *s);  /* raise cls(s), s made at run time */
/* raise cls(a, b, ...): begin, one call per argument, then rt_raise(cls, rt_raise_args_text()) */
void rt_raise_args_begin(void);
void rt_raise_arg(int32_t tag, int64_t bits);  /* 'i' 'u' 'b' an integer, 'f' a double's bits, 'n' None,
                                                * 'M' 'm' | unit << 8 a datetime's count */
void rt_raise_arg_str(const RtStr *s);
const char *rt_raise_args_text(void);
int32_t rt_str_repr_of(RtStr **out, const RtStr *s);  /* repr(s) as a str */
int32_t rt_str_from_utf8(RtStr **out, char *text);  /* malloc'd UTF-8 text (freed) as a str */
int32_t rt_format_str(RtStr **out, const char *fmt, const uint64_t *args);  /* print()'s format filled in, as a str */
int32_t rt_str_from_chars(RtStr **out, const uint32_t *chars, int64_t n);  /* a '<Un' element as a str */
/* <0, 0 or >0 as NumPy orders two texts of na and nb units of width bytes
 * (4: code points, 1: bytes): '<Un' and '|Sn' items, a str's, a bytes' */
int64_t rt_text_order(const void *a, int64_t na, const void *b, int64_t nb, int32_t width);
void rt_str_to_chars(uint32_t *chars, int64_t n, const RtStr *s);  /* a str stored into a '<Un' element */
int64_t rt_str_python_hash(const RtStr *s);  /* hash(s) as the interpreter's (rt_set_str_hash) */
void rt_set_str_hash(uint64_t k0, uint64_t k1, int rounds);
char *rt_str_repr(const RtStr *s);  /* Python's repr(s), malloc'd UTF-8, NUL-terminated; NULL: no memory */
void rt_register_strings(void (*define)(const char *name, void *addr, void *ctx), void *ctx);

#endif
