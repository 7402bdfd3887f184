/* sets.c — Python's sets in C, for compiled code.
 *
 * A set is an RtDict whose entries have no value (valkind TY_SET, valsize
 * 0), its index CPython's set table (lib/containers.c's sets' table), so
 * that it iterates in CPython's order. What a set has beyond a dict is
 * here: the operations of two sets (| & - ^ and their in-place forms),
 * each walking its operands as CPython's setobject.c does, so that the
 * result's table (its order) is Python's; the relations (<=, isdisjoint);
 * its items as a list, for list(s) and sorted(s).
 */
#include <math.h>
#include <string.h>

#include "containers.h"
#include "rtstr.h"

enum { SET_UNION, SET_INTERSECTION, SET_DIFFERENCE, SET_SYMMETRIC };  /* what rt_set_combine does (a row's ival) */
/* With an op: b was made of a sequence's items (a list, a tuple), which
 * CPython's set takes one by one in the sequence's order. */
#define SET_SEQUENCE 16

static uint64_t key_at(const char *e) { return *(const uint64_t *)(e + 8); }

/* The i-th item of s (0 <= i < len(s)), in its table's order. */
static uint64_t item(RtDict *s, int64_t i) { return key_at(rt_dict_entry(s, i)); }

static bool has(RtDict *s, uint64_t key) { return rt_dict_lookup(s, key) != NULL; }

/* The i-th of b's items as CPython walks them: a sequence's in its order. */
static uint64_t walked(RtDict *b, bool seq, int64_t i) { return seq ? rt_set_inserted(b, i) : item(b, i); }

/* Adds the items of a (walked as seq says) that are (keep) or are not (!keep) in b. */
static int32_t add_filtered(RtDict *to, RtDict *a, bool seq, RtDict *b, bool keep) {
  for (int64_t i = 0, n = a->used; i < n; i++) {
    uint64_t k = walked(a, seq, i);
    if (has(b, k) == keep && rt_set_add(to, k) != RT_OK) return RT_ERR_MEMORY;
  }
  return RT_OK;
}

/* a -= b (CPython's set_difference_update). */
static int32_t discard_all(RtDict *a, RtDict *b, bool seq) {
  if (a == b) {
    rt_dict_clear(a);
    return RT_OK;
  }
  for (int64_t i = 0, n = b->used; i < n; i++) rt_set_discard(a, walked(b, seq, i));
  rt_set_shrink(a);
  return RT_OK;
}

/* a ^= b (CPython's set_symmetric_difference_update): b's items walked in its table's order. */
static int32_t toggle_all(RtDict *a, RtDict *b) {
  if (a == b) {
    rt_dict_clear(a);
    return RT_OK;
  }
  for (int64_t i = 0, n = b->used; i < n; i++) {
    uint64_t k = item(b, i);
    if (!rt_set_discard(a, k) && rt_set_add(a, k) != RT_OK) return RT_ERR_MEMORY;
  }
  return RT_OK;
}

/* a |= b (CPython's set_update_internal). */
static int32_t add_all(RtDict *a, RtDict *b, bool seq) {
  if (!seq) return rt_dict_update(a, b);
  for (int64_t i = 0, n = b->used; i < n; i++)
    if (rt_set_add(a, rt_set_inserted(b, i)) != RT_OK) return RT_ERR_MEMORY;
  return RT_OK;
}

/* a & b as CPython's set_intersection: the smaller set walked (b when as large). */
static int32_t intersect_into(RtDict *r, RtDict *a, RtDict *b, bool seq) {
  if (seq) return add_filtered(r, b, true, a, true);
  if (a == b) return rt_dict_update(r, a);
  return b->used > a->used ? add_filtered(r, a, false, b, true) : add_filtered(r, b, false, a, true);
}

/* a - b as CPython's set_difference: a copied then b's items discarded
 * when a is over four times larger (or b a sequence), else a walked. */
static int32_t subtract_into(RtDict *r, RtDict *a, RtDict *b, bool seq) {
  if (seq || (a->used >> 2) > b->used) return rt_dict_update(r, a) == RT_OK ? discard_all(r, b, seq) : RT_ERR_MEMORY;
  return add_filtered(r, a, false, b, false);
}

/* a | b, a & b, a - b or a ^ b (op, with SET_SEQUENCE): a new set; NULL
 * when there is no memory. a ^ b is CPython's: b copied (or b itself,
 * made for the call from a sequence), a's items toggled in it. */
RtDict *rt_set_combine(RtDict *a, RtDict *b, int32_t op) {
  bool seq = op & SET_SEQUENCE;
  op &= ~SET_SEQUENCE;
  RtDict *r = op == SET_SYMMETRIC && seq ? b : rt_dict_new(a->keykind, a->valkind, 0);
  if (r == b) __atomic_add_fetch(&b->refcount, 1, __ATOMIC_ACQ_REL);
  int32_t rc = !r                      ? RT_ERR_MEMORY
               : op == SET_UNION        ? (rt_dict_update(r, a) == RT_OK ? add_all(r, b, seq) : RT_ERR_MEMORY)
               : op == SET_INTERSECTION ? intersect_into(r, a, b, seq)
               : op == SET_DIFFERENCE   ? subtract_into(r, a, b, seq)
               : r != b && rt_dict_update(r, b) != RT_OK ? RT_ERR_MEMORY
                                         : toggle_all(r, a);
  if (rc == RT_OK) return r;
  if (r) rt_dict_release(r);
  rt_set_error(RT_ERR_MEMORY, NULL);
  return NULL;
}

/* a |= b, a &= b, a -= b, a ^= b (op, with SET_SEQUENCE): a changed in
 * place (its identity kept, as Python's, so that every name for it sees
 * the change); a &= b takes the table of a & b, as CPython's. */
int32_t rt_set_combine_update(RtDict *a, RtDict *b, int32_t op) {
  bool seq = op & SET_SEQUENCE;
  op &= ~SET_SEQUENCE;
  if (op == SET_UNION) return add_all(a, b, seq);
  if (op == SET_DIFFERENCE) return discard_all(a, b, seq);
  if (op == SET_SYMMETRIC) return toggle_all(a, b);
  RtDict *r = rt_set_combine(a, b, op | (seq ? SET_SEQUENCE : 0));
  if (!r) return RT_ERR_MEMORY;
  rt_set_swap(a, r);
  rt_dict_release(r);
  return RT_OK;
}

/* The set {a, b, c, ...} of three constants or more makes of s (its
 * items added in order): CPython compiles it to a frozenset, which its
 * compiler makes again of the first one's items (merging constants), then
 * merges into a new set. NULL: no memory. */
RtDict *rt_set_frozen(RtDict *s) {
  RtDict *again = rt_dict_new(s->keykind, s->valkind, 0), *r = NULL;
  for (int64_t i = 0; again && i < s->used; i++)
    if (rt_set_add(again, item(s, i)) != RT_OK) goto done;
  if (again) r = rt_dict_copy(again);
done:
  if (again) rt_dict_release(again);
  if (!r) rt_set_error(RT_ERR_MEMORY, NULL);
  return r;
}

/* Whether every item of a is in b (a <= b). */
int32_t rt_set_subset(RtDict *a, RtDict *b) {
  if (a->used > b->used) return 0;
  for (int64_t i = 0; i < a->used; i++)
    if (!has(b, item(a, i))) return 0;
  return 1;
}

/* How a number item's bits read (rt_set_subset_numbers' from and to). */
enum { ITEM_FLOAT, ITEM_SIGNED, ITEM_UNSIGNED };

/* A number item's bits, read as from says, as the bits of the equal number
 * of kind to; false when no number of that kind equals it (2**53 + 1 has
 * no float64; 0.5 and -1 no uint64). */
static bool same_number_as(int32_t from, uint64_t bits, int32_t to, uint64_t *out) {
  double d;
  memcpy(&d, &bits, 8);
  if (from == to) {
    *out = bits;
    return true;
  }
  if (to == ITEM_FLOAT) {
    d = from == ITEM_SIGNED ? (double)(int64_t)bits : (double)bits;
    bool exact = from == ITEM_SIGNED ? d < 0x1p63 && (int64_t)d == (int64_t)bits : d < 0x1p64 && (uint64_t)d == bits;
    memcpy(out, &d, 8);
    return exact;
  }
  if (from == ITEM_FLOAT) {
    bool fits = d == trunc(d) &&  /* not NaN, not 0.5 */
                (to == ITEM_SIGNED ? d >= -0x1p63 && d < 0x1p63 : d >= 0 && d < 0x1p64);
    *out = !fits ? 0 : to == ITEM_SIGNED ? (uint64_t)(int64_t)d : (uint64_t)d;
    return fits;
  }
  *out = bits;  /* between signed and unsigned: the same bits where the value is in both */
  return (int64_t)bits >= 0;
}

/* a <= b for sets of different number types, compared as Python compares
 * numbers ({1} == {1.0}): each of a's items, as b's kind, in b. */
int32_t rt_set_subset_numbers(RtDict *a, RtDict *b, int32_t from, int32_t to) {
  if (a->used > b->used) return 0;
  for (int64_t i = 0; i < a->used; i++) {
    uint64_t k;
    if (!same_number_as(from, item(a, i), to, &k) || !has(b, k)) return 0;
  }
  return 1;
}

int32_t rt_set_disjoint(RtDict *a, RtDict *b) {
  if (a->used > b->used) return rt_set_disjoint(b, a);  /* the smaller one walked */
  for (int64_t i = 0; i < a->used; i++)
    if (has(b, item(a, i))) return 0;
  return 1;
}

/* An item's bits (a float as float64, an int extended) stored as a list
 * item of kind: at its width, a float32 rounded from the float64. */
static void store_item(int32_t kind, char *at, int64_t itemsize, uint64_t bits) {
  if (kind == TY_F32) {
    double x;
    memcpy(&x, &bits, 8);
    float f = (float)x;
    memcpy(at, &f, 4);
  } else {
    memcpy(at, &bits, (size_t)itemsize);  /* the low bytes: little-endian */
  }
  if (kind == TY_STR) rt_str_retain((RtStr *)(uintptr_t)bits);
}

/* list(s): a new list of s's items, in its order; NULL: no memory. */
RtList *rt_set_items(RtDict *s, int32_t kind, int64_t itemsize) {
  RtList *l = rt_list_new(kind, itemsize, s->used);
  if (!l) {
    rt_set_error(RT_ERR_MEMORY, NULL);
    return NULL;
  }
  for (int64_t i = 0; i < s->used; i++) store_item(kind, l->data + i * itemsize, itemsize, item(s, i));
  l->len = s->used;
  return l;
}

/* The functions compiled code calls, for the linker (runtime.c). */
void rt_register_sets(void (*define)(const char *name, void *addr, void *ctx), void *ctx) {
  define("rt_set_combine", (void *)rt_set_combine, ctx);
  define("rt_set_combine_update", (void *)rt_set_combine_update, ctx);
  define("rt_set_subset", (void *)rt_set_subset, ctx);
  define("rt_set_subset_numbers", (void *)rt_set_subset_numbers, ctx);
  define("rt_set_disjoint", (void *)rt_set_disjoint, ctx);
  define("rt_set_items", (void *)rt_set_items, ctx);
  define("rt_set_frozen", (void *)rt_set_frozen, ctx);
}
