/* containers.c — typed lists and dicts in C (see include/containers.h).
 *
 * Built into libruchey, where compiled code calls these functions (the
 * hot paths, append, indexing and len, it inlines), and into the
 * extension, where ruchey.typed.List and Dict call them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* mremap */
#endif
#include <math.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "containers.h"
#include "rtstr.h"

/* ---------------------------------------------------------------- memory */

/* Buffers past BIG bytes are mapped, and grown with mremap, which moves
 * pages rather than copying them: realloc of a buffer in the heap copied
 * it into fresh pages at each growth, and 3*10**6 appends spent most of
 * their time faulting those in. Each thread keeps the largest mapping
 * freed (up to SPARE_MAX) for the next buffer that grows past BIG: a
 * function building a big list on every call then writes into pages
 * already there, as malloc's reuse of its heap gives smaller ones. */
#define BIG ((size_t)1 << 20)
#define SPARE_MAX ((size_t)256 << 20)

static _Thread_local struct {
  void *p;
  size_t bytes;
} spare;

/* p (of `used` bytes kept; mapped with *mapped bytes, or malloc'd when 0)
 * grown to `bytes`; NULL if there is no memory (p is then kept). */
static void *grow_memory(void *p, int64_t *mapped, size_t used, size_t bytes) {
#if defined(__linux__) && defined(MREMAP_MAYMOVE)
  if (*mapped && bytes <= (size_t)*mapped) return p;  /* a spare larger than asked for */
  if (bytes >= BIG && !*mapped && spare.p && spare.bytes >= bytes) {
    void *q = spare.p;
    *mapped = (int64_t)spare.bytes;
    spare.p = NULL;
    spare.bytes = 0;
    if (used) memcpy(q, p, used);
    free(p);
    return q;
  }
  if (bytes >= BIG) {
    void *q = *mapped ? mremap(p, (size_t)*mapped, bytes, MREMAP_MAYMOVE)
                      : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED) return NULL;
    if (!*mapped) {
      if (used) memcpy(q, p, used);
      free(p);
    }
    *mapped = (int64_t)bytes;
    return q;
  }
#endif
  return realloc(p, bytes);
}

static void free_memory(void *p, int64_t mapped) {
#if defined(__linux__) && defined(MREMAP_MAYMOVE)
  if (mapped && (size_t)mapped <= SPARE_MAX && (size_t)mapped > spare.bytes) {
    if (spare.p) munmap(spare.p, spare.bytes);
    spare.p = p;
    spare.bytes = (size_t)mapped;
    return;
  }
  if (mapped) {
    munmap(p, (size_t)mapped);
    return;
  }
#endif
  free(p);
}

/* ---------------------------------------------------------------- items holding references */

/* One row per kind of reference an item may hold (RtHeld): its first 8
 * bytes point to memory counted as RtMemInfo's is (the count its first
 * field; NULL: none held, as an argument array's meminfo), which the
 * container owns one reference to. Copying an item takes one more of
 * each; dropping it releases one, the last freeing the memory as its kind
 * does. */
typedef struct {
  int32_t kind;
  void (*free)(void *ref);
} HeldKind;

static void free_str(void *ref) { free(ref); }
static void free_meminfo(void *ref) {  /* rt_meminfo_free's */
  if (!rt_keeper_free(ref) && !rt_meminfo_dtor_free(ref)) free(ref);
}
static void free_list(void *ref) { rt_list_free(ref); }
static void free_dict(void *ref) { rt_dict_free(ref); }
static void free_object(void *ref) { rt_object_free(ref); }

static const HeldKind held_kinds[] = {
  {TY_STR, free_str},
  {TY_ARRAY, free_meminfo},
  {TY_BYTES, free_meminfo},  /* an array's RtArray */
  {TY_MEMINFO, free_meminfo},
  {TY_LIST, free_list},
  {TY_DICT, free_dict},
  {TY_SET, free_dict},  /* a set is a dict without values */
  {TY_CLASS, free_object},
};

/* The row of references of kind, or NULL for plain bytes. */
static const HeldKind *held(int32_t kind) {
  for (size_t i = 0; i < sizeof held_kinds / sizeof held_kinds[0]; i++)
    if (held_kinds[i].kind == kind) return &held_kinds[i];
  return NULL;
}

/* The references an item of kind holds: itself where it is one (a tuple's
 * are set by rt_list_hold / rt_dict_hold). */
static RtHeld held_of(int32_t kind) {
  RtHeld h = {0};
  if (held(kind)) h = (RtHeld){.n = 1, .kinds = {kind}};
  return h;
}

/* An item of type t at offset at holds a reference where its kind has a
 * row above; a tuple holds its fields' (an Optional its value's: None's
 * is NULL). Each one's kind and offset is added after the n already in
 * kinds/offsets; their number, or -1 where there are more than cap. */
int rt_held_fields(const Type *t, int64_t at, int n, int cap, int32_t *kinds, int64_t *offsets) {
  if (t->kind == TY_OPTIONAL) return rt_held_fields(t->elem, at, n, cap, kinds, offsets);
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->nfields && n >= 0; i++)
      n = rt_held_fields(t->fields[i], at + (int64_t)t->offsets[i], n, cap, kinds, offsets);
    return n;
  }
  if (!held((int32_t)t->kind) || n < 0) return n;
  if (n == cap) return -1;
  if (kinds) {
    kinds[n] = (int32_t)t->kind;
    offsets[n] = at;
  }
  return n + 1;
}

static void set_held(RtHeld *h, int32_t n, const int32_t *kinds, const int64_t *offsets) {
  h->n = n < 0 ? 0 : n > RT_HELD_FIELDS ? RT_HELD_FIELDS : n;
  for (int32_t i = 0; i < h->n; i++) {
    h->kinds[i] = kinds[i];
    h->offsets[i] = offsets[i];
  }
}

static void retain_ref(const char *at) {
  int64_t *ref = *(int64_t *const *)at;
  if (ref) __atomic_add_fetch(ref, 1, __ATOMIC_ACQ_REL);
}

static void release_ref(int32_t kind, const char *at) {
  int64_t *ref = *(int64_t *const *)at;
  const HeldKind *k = held(kind);
  if (ref && k && __atomic_sub_fetch(ref, 1, __ATOMIC_ACQ_REL) == 0) k->free(ref);
}

/* n items of size s from p on, each one more reference (copied) or one less (dropped). */
static void retain_items(const RtHeld *h, const char *p, int64_t n, int64_t s) {
  for (int64_t i = 0; h->n && i < n; i++)
    for (int32_t f = 0; f < h->n; f++) retain_ref(p + i * s + h->offsets[f]);
}

static void drop_items(const RtHeld *h, const char *p, int64_t n, int64_t s) {
  for (int64_t i = 0; h->n && i < n; i++)
    for (int32_t f = 0; f < h->n; f++) release_ref(h->kinds[f], p + i * s + h->offsets[f]);
}

void rt_held_drop(const RtHeld *h, const char *item) { drop_items(h, item, 1, 0); }

/* ---------------------------------------------------------------- jitclass instances */

/* malloc and memset, not calloc: glibc's calloc bypasses the thread's cache
 * of small blocks that free fills, and a loop making and dropping objects
 * spent a third of its time in the allocator's slow paths */
RtObject *rt_object_new(int64_t bytes, int32_t nheld, const int32_t *kinds, const int64_t *offsets) {
  RtObject *o = malloc((size_t)bytes);
  if (!o) {
    rt_set_error(RT_ERR_MEMORY, NULL);
    return NULL;
  }
  memset(o, 0, (size_t)bytes);
  o->refcount = 1;
  o->nheld = nheld;
  uint8_t *held_kinds = (uint8_t *)&o->held_offsets[nheld];
  for (int32_t i = 0; i < nheld; i++) {
    held_kinds[i] = (uint8_t)kinds[i];
    o->held_offsets[i] = (uint32_t)offsets[i];
  }
  return o;
}

/* Objects whose last reference went while another's fields were being
 * dropped, freed by the outer call in turn, so that a chain of a million
 * (a linked list's nodes) is freed in a loop, not a million nested calls
 * deep; each waits in the list through its dead refcount, its next. */
static _Thread_local struct {
  bool freeing;
  RtObject *waiting;
} chain;

void rt_object_free(RtObject *o) {
  if (chain.freeing) {
    o->refcount = (int64_t)(intptr_t)chain.waiting;
    chain.waiting = o;
    return;
  }
  chain.freeing = true;
  while (o) {
    const uint8_t *held_kinds = (const uint8_t *)&o->held_offsets[o->nheld];
    for (int32_t f = 0; f < o->nheld; f++) release_ref(held_kinds[f], (const char *)o + o->held_offsets[f]);
    free(o);
    if ((o = chain.waiting)) chain.waiting = (RtObject *)(intptr_t)o->refcount;
  }
  chain.freeing = false;
}

void rt_object_release(RtObject *o) {
  if (o && __atomic_sub_fetch(&o->refcount, 1, __ATOMIC_ACQ_REL) == 0) rt_object_free(o);
}

/* An argument array's memory belongs to its Python object, which the call
 * holds only while it runs: a field keeping the array takes a reference to
 * the object, through a meminfo of its own (a keeper: data says so, with a
 * value no allocation has, the same in the library's copy of this file and
 * the extension's). */
typedef struct RtKeeper {
  RtMemInfo mi;  /* mi.data: KEEPER */
  void *obj;
} RtKeeper;
#define KEEPER ((void *)(uintptr_t)0x4b454550)

static struct {
  void (*retain)(void *obj);
  void (*release)(void *obj);
} keeper_hooks;

void rt_set_object_keeper(void (*retain)(void *obj), void (*release)(void *obj)) {
  keeper_hooks.retain = retain;
  keeper_hooks.release = release;
}

void rt_array_keep(RtArray *a) {
  if (a->meminfo || !a->parent || !keeper_hooks.retain) return;
  RtKeeper *k = malloc(sizeof(RtKeeper));
  if (!k) return;  /* borrowed still, as a list's item is */
  keeper_hooks.retain(a->parent);
  *k = (RtKeeper){{1, KEEPER}, a->parent};
  a->meminfo = &k->mi;
}

void *rt_keeper_object(const RtMemInfo *mi) { return mi->data == KEEPER ? ((const RtKeeper *)mi)->obj : NULL; }

bool rt_keeper_free(RtMemInfo *mi) {
  if (mi->data != KEEPER) return false;
  keeper_hooks.release(((RtKeeper *)mi)->obj);
  free(mi);
  return true;
}

/* A MemInfo with a destructor (C code's, through the NRT table): the
 * destructor runs on its data, then the header goes. Here, not in nrt.c,
 * so that the extension's copy of the held items frees them too. */
bool rt_meminfo_dtor_free(RtMemInfo *mi) {
  if (!mi->dtor) return false;
  mi->dtor(mi->data, mi->dtor_info);
  free(mi);
  return true;
}

/* ---------------------------------------------------------------- lists */

/* The list's room set to cap items exactly (fewer than it holds never). */
static int32_t set_room(RtList *l, int64_t cap) {
  if ((uint64_t)cap > (uint64_t)INT64_MAX / (uint64_t)(l->itemsize ? l->itemsize : 1) / 2) {
    rt_set_error(RT_ERR_MEMORY, NULL);
    return RT_ERR_MEMORY;
  }
  if (!cap) {  /* (realloc to no bytes frees and gives NULL) */
    free_memory(l->data, l->mapped);
    l->data = NULL;
    l->mapped = l->cap = 0;
    return RT_OK;
  }
  char *data = grow_memory(l->data, &l->mapped, (size_t)(l->len * l->itemsize), (size_t)(cap * l->itemsize));
  if (!data) {
    rt_set_error(RT_ERR_MEMORY, NULL);
    return RT_ERR_MEMORY;
  }
  l->data = data;
  l->cap = cap;
  return RT_OK;
}

/* Room for cap items at first, exactly (List.empty_list(t, allocated=cap)). */
RtList *rt_list_new(int32_t kind, int64_t itemsize, int64_t cap) {
  RtList *l = calloc(1, sizeof(RtList));
  if (!l) return NULL;
  l->refcount = 1;
  l->kind = kind;
  l->itemsize = itemsize;
  l->held = held_of(kind);
  if (cap > 0 && set_room(l, cap) != RT_OK) {
    free(l);
    return NULL;
  }
  return l;
}

/* A typed.List's room for n items, as Numba's typed list (and CPython 3.7's
 * list) over-allocates, which its _allocated() shows: n + n/8 + 3 (6 from
 * 9 items on). */
static int64_t typed_room(int64_t n) { return n + (n >> 3) + (n < 9 ? 3 : 6); }

/* Grows to n items' room: a typed.List's as Numba's; another list's to
 * twice the room (at least to n, at least 8 items), so that n appends cost
 * O(n) and copy each item about once. */
int32_t rt_list_reserve(RtList *l, int64_t n) {
  if (n <= l->cap) return RT_OK;
  if (l->immutable) {
    rt_set_error(RT_ERR_VALUE, "list is immutable");
    return RT_ERR_VALUE;
  }
  int64_t cap = 2 * l->cap;
  if (cap < n) cap = n;
  if (cap < 8) cap = 8;
  return set_room(l, l->typed ? typed_room(n) : cap);
}

void rt_list_make_immutable(RtList *l) {
  if (l->immutable) return;
  l->immutable = 1;
  l->kept_cap = l->cap;
  l->cap = 0;
}

int64_t rt_list_allocated(const RtList *l) { return l->immutable ? l->kept_cap : l->cap; }

/* Numba's typed list gives room back once its items fill less than half of
 * it (to their own over-allocation; all of it when empty). */
void rt_list_shrink(RtList *l) {
  if (l->typed && l->len < l->cap >> 1) set_room(l, l->len ? typed_room(l->len) : 0);  /* (a failure keeps the room) */
}

/* The references items from..to hold, each released (the list's memory going, or its items). */
static void release_items(RtList *l, int64_t from, int64_t to) {
  drop_items(&l->held, l->data + from * l->itemsize, to - from, l->itemsize);
}

void rt_list_free(RtList *l) {
  release_items(l, 0, l->len);
  free_memory(l->data, l->mapped);
  free(l);
}

void rt_list_release(RtList *l) {
  if (l && __atomic_sub_fetch(&l->refcount, 1, __ATOMIC_ACQ_REL) == 0) rt_list_free(l);
}

void rt_list_settle(RtList *l, int32_t kind, int64_t itemsize) {
  if (l->kind >= 0) return;
  l->kind = kind;
  l->itemsize = itemsize;
  l->held = held_of(kind);
}

void rt_list_hold(RtList *l, int32_t n, const int32_t *kinds, const int64_t *offsets) {
  set_held(&l->held, n, kinds, offsets);
}

/* A new list for items as l's, with room for cap of them. */
static RtList *list_like(const RtList *l, int64_t cap) {
  RtList *c = rt_list_new(l->kind, l->itemsize, cap);
  if (c) c->held = l->held;
  return c;
}

RtList *rt_list_copy(const RtList *l) {
  RtList *c = list_like(l, l->len);
  if (!c) {
    rt_set_error(RT_ERR_MEMORY, NULL);
    return NULL;
  }
  if (l->len) memcpy(c->data, l->data, (size_t)(l->len * l->itemsize));
  c->len = l->len;
  retain_items(&c->held, c->data, c->len, c->itemsize);
  return c;
}

int32_t rt_list_open(RtList *l, int64_t i) {
  int32_t st = rt_list_reserve(l, l->len + 1);
  if (st != RT_OK) return st;
  memmove(l->data + (i + 1) * l->itemsize, l->data + i * l->itemsize, (size_t)((l->len - i) * l->itemsize));
  l->len++;
  return RT_OK;
}

void rt_list_clear(RtList *l) {
  release_items(l, 0, l->len);
  l->len = 0;
  rt_list_shrink(l);
}

void rt_list_close(RtList *l, int64_t i) {
  memmove(l->data + i * l->itemsize, l->data + (i + 1) * l->itemsize, (size_t)((l->len - i - 1) * l->itemsize));
  l->len--;
  rt_list_shrink(l);
}

/* Two items exchanged byte by byte: items of any size (tuples too). */
static void swap_items(char *a, char *b, int64_t s) {
  for (int64_t k = 0; k < s; k++) {
    char t = a[k];
    a[k] = b[k];
    b[k] = t;
  }
}

void rt_list_reverse(RtList *l) {
  int64_t s = l->itemsize;
  for (int64_t i = 0, j = l->len - 1; i < j; i++, j--) swap_items(l->data + i * s, l->data + j * s, s);
}

/* The items of both, in a new list (one may be untyped, still empty). */
RtList *rt_list_concat(const RtList *a, const RtList *b) {
  const RtList *typed = a->kind >= 0 ? a : b;
  RtList *c = list_like(typed, a->len + b->len);
  if (!c) {
    rt_set_error(RT_ERR_MEMORY, NULL);
    return NULL;
  }
  if (a->len) memcpy(c->data, a->data, (size_t)(a->len * a->itemsize));
  if (b->len) memcpy(c->data + a->len * c->itemsize, b->data, (size_t)(b->len * b->itemsize));
  c->len = a->len + b->len;
  retain_items(&c->held, c->data, c->len, c->itemsize);
  return c;
}

/* a's items n times over (none when n <= 0). */
RtList *rt_list_repeat(const RtList *a, int64_t n) {
  if (n < 0 || !a->len) n = 0;
  if (n && a->len > INT64_MAX / n) {
    rt_set_error(RT_ERR_MEMORY, NULL);
    return NULL;
  }
  RtList *c = list_like(a, a->len * n);
  if (!c) {
    rt_set_error(RT_ERR_MEMORY, NULL);
    return NULL;
  }
  for (int64_t k = 0; k < n; k++) memcpy(c->data + k * a->len * a->itemsize, a->data, (size_t)(a->len * a->itemsize));
  c->len = a->len * n;
  retain_items(&c->held, c->data, c->len, c->itemsize);
  return c;
}

/* Python's slice indices (PySlice_AdjustIndices) of a sequence of len
 * items: start and stop made to lie in it (given: bit 1 start, bit 2 stop
 * given, else the ends the step's sign asks for); the number of items. */
static int64_t slice_indices(int64_t len, int64_t *start, int64_t *stop, int64_t step, int32_t given) {
  int64_t *ends[2] = {start, stop};
  for (int e = 0; e < 2; e++) {
    int64_t *x = ends[e];
    if (!(given & (1 << e))) *x = e == 0 ? (step < 0 ? len - 1 : 0) : (step < 0 ? -1 : len);
    else if (*x < 0 && (*x += len) < 0) *x = step < 0 ? -1 : 0;
    else if (*x >= len) *x = step < 0 ? len - 1 : len;
  }
  if (step < 0) return *stop < *start ? (*start - *stop - 1) / -step + 1 : 0;
  return *start < *stop ? (*stop - *start - 1) / step + 1 : 0;
}

RtList *rt_list_slice(const RtList *l, int64_t start, int64_t stop, int64_t step, int32_t given) {
  if (!step) {
    rt_set_error(RT_ERR_VALUE, "slice step cannot be zero");
    return NULL;
  }
  int64_t n = slice_indices(l->len, &start, &stop, step, given);
  RtList *c = list_like(l, n);
  if (!c) {
    rt_set_error(RT_ERR_MEMORY, NULL);
    return NULL;
  }
  int64_t s = l->itemsize;
  if (step == 1 && n) memcpy(c->data, l->data + start * s, (size_t)(n * s));
  else for (int64_t k = 0; k < n; k++) memcpy(c->data + k * s, l->data + (start + k * step) * s, (size_t)s);
  c->len = n;
  c->typed = l->typed;  /* a typed.List's slice is one, a reflected list's a reflected list, as Numba's */
  retain_items(&c->held, c->data, c->len, c->itemsize);
  return c;
}

/* del l[start:stop:step]: the others kept in order. */
int32_t rt_list_delete_slice(RtList *l, int64_t start, int64_t stop, int64_t step, int32_t given) {
  if (!step) {
    rt_set_error(RT_ERR_VALUE, "slice step cannot be zero");
    return RT_ERR_VALUE;
  }
  int64_t n = slice_indices(l->len, &start, &stop, step, given);
  if (!n) return RT_OK;
  if (step < 0) {  /* the same items, ascending */
    start += (n - 1) * step;
    step = -step;
  }
  int64_t s = l->itemsize, kept = start;
  for (int64_t i = start; i < l->len; i++) {
    bool gone = i < start + n * step && (i - start) % step == 0;
    if (gone) drop_items(&l->held, l->data + i * s, 1, s);
    else memmove(l->data + kept++ * s, l->data + i * s, (size_t)s);
  }
  l->len = kept;
  rt_list_shrink(l);
  return RT_OK;
}

/* Replaces l's items from start (n of them) with v's m items, the list
 * growing or shrinking around them. */
static int32_t replace_run(RtList *l, int64_t start, int64_t n, const RtList *v) {
  int64_t s = l->itemsize, m = v->len;
  if (m > n && rt_list_reserve(l, l->len - n + m) != RT_OK) return RT_ERR_MEMORY;
  drop_items(&l->held, l->data + start * s, n, s);
  memmove(l->data + (start + m) * s, l->data + (start + n) * s, (size_t)((l->len - start - n) * s));
  if (m) memcpy(l->data + start * s, v->data, (size_t)(m * s));
  retain_items(&l->held, l->data + start * s, m, s);
  l->len += m - n;
  return RT_OK;
}

/* l[start:stop:step] = v, as Python assigns a list's slice: a step of 1
 * replaces the slice with v's items, however many; another step needs
 * exactly as many as the slice has (ValueError). v may be l itself. */
int32_t rt_list_assign_slice(RtList *l, int64_t start, int64_t stop, int64_t step, int32_t given, const RtList *v) {
  static _Thread_local char msg[120];
  if (!step) {
    rt_set_error(RT_ERR_VALUE, "slice step cannot be zero");
    return RT_ERR_VALUE;
  }
  int64_t n = slice_indices(l->len, &start, &stop, step, given);
  RtList *copy = v == l ? rt_list_copy(l) : NULL;
  if (v == l && !copy) return RT_ERR_MEMORY;
  if (copy) v = copy;
  int32_t rc = RT_OK;
  if (step == 1) {
    rc = replace_run(l, start, n, v);
  } else if (v->len != n) {
    snprintf(msg, sizeof msg, "attempt to assign sequence of size %lld to extended slice of size %lld", (long long)v->len,
             (long long)n);
    rt_set_error(RT_ERR_VALUE, msg);
    rc = RT_ERR_VALUE;
  } else {
    int64_t s = l->itemsize;
    for (int64_t k = 0; k < n; k++) {
      char *at = l->data + (start + k * step) * s;
      drop_items(&l->held, at, 1, s);
      memcpy(at, v->data + k * s, (size_t)s);
      retain_items(&l->held, at, 1, s);
    }
  }
  rt_list_release(copy);
  return rc;
}

/* The order of a list's items: one field, the item itself (a number, a
 * str, or a list of such items), or a tuple's fields in turn, compared as
 * Python compares tuples (the first unequal field decides). layout: each
 * field's kind and offset. */
typedef struct {
  int32_t n;
  const int64_t *layout;
} Order;

static bool is_float_kind(int32_t kind) { return kind == TY_F16 || kind == TY_F32 || kind == TY_F64; }

static bool field_less(int32_t kind, const char *a, const char *b);
static bool field_equal(int32_t kind, const char *a, const char *b);

/* The first index at which lists a and b (of items of one kind) differ,
 * or the shorter one's length. */
static int64_t lists_differ_at(const RtList *a, const RtList *b) {
  int64_t n = a->len < b->len ? a->len : b->len, i = 0;
  while (i < n && field_equal(a->kind, a->data + i * a->itemsize, b->data + i * b->itemsize)) i++;
  return i;
}

/* a < b of two lists, as Python's: by their first unequal items, else the shorter first. */
static bool list_less(const RtList *a, const RtList *b) {
  int64_t i = lists_differ_at(a, b);
  if (i < a->len && i < b->len) return field_less(a->kind, a->data + i * a->itemsize, b->data + i * b->itemsize);
  return a->len < b->len;
}

/* Two bytes items (each held as its array) in Python's order: <0, 0, >0
 * (bytes_rt.c's rt_bytes_order, which the extension, holding this file
 * too, has not). */
static int bytes_order(const char *a, const char *b) {
  const RtArray *x = (const RtArray *)a, *y = (const RtArray *)b;
  int64_t n = x->shape[0] < y->shape[0] ? x->shape[0] : y->shape[0];
  int c = n ? memcmp(x->data, y->data, (size_t)n) : 0;
  return c ? c : (x->shape[0] > y->shape[0]) - (x->shape[0] < y->shape[0]);
}

/* a < b, a == b for fields of one kind, as Python compares the numbers,
 * strs, bytes and lists. */
static bool field_less(int32_t kind, const char *a, const char *b) {
  if (kind == TY_STR) return rt_str_order(*(RtStr *const *)a, *(RtStr *const *)b) < 0;
  if (kind == TY_BYTES) return bytes_order(a, b) < 0;
  if (kind == TY_LIST) return list_less(*(RtList *const *)a, *(RtList *const *)b);
  if (is_float_kind(kind)) return rt_item_double(kind, a) < rt_item_double(kind, b);
  if (kind == TY_U64) return *(const uint64_t *)a < *(const uint64_t *)b;
  return rt_item_int(kind, a) < rt_item_int(kind, b);
}

static bool field_equal(int32_t kind, const char *a, const char *b) {
  if (kind == TY_STR) return rt_str_order(*(RtStr *const *)a, *(RtStr *const *)b) == 0;
  if (kind == TY_BYTES) return bytes_order(a, b) == 0;
  if (kind == TY_LIST) {
    const RtList *x = *(RtList *const *)a, *y = *(RtList *const *)b;
    return x->len == y->len && lists_differ_at(x, y) == x->len;
  }
  if (is_float_kind(kind)) return rt_item_double(kind, a) == rt_item_double(kind, b);
  if (kind == TY_U64) return *(const uint64_t *)a == *(const uint64_t *)b;
  return rt_item_int(kind, a) == rt_item_int(kind, b);
}

static bool item_less(const Order *o, const char *a, const char *b) {
  for (int32_t i = 0; i + 1 < o->n; i++) {
    int32_t kind = (int32_t)o->layout[2 * i];
    int64_t off = o->layout[2 * i + 1];
    if (!field_equal(kind, a + off, b + off)) return field_less(kind, a + off, b + off);
  }
  int64_t off = o->layout[2 * o->n - 1];
  return field_less((int32_t)o->layout[2 * o->n - 2], a + off, b + off);
}

/* A merge sort: stable (equal items keep their order, which -0.0 and 0.0
 * show), as Python's sort is. Reversed, as Python's reverse=True: the
 * stable sort of the reversed order, reversed. One body for items of any
 * layout (compared by their Order, of s bytes each) and for plain int64s
 * and float64s, which take the same steps with `<` and the size written
 * out (the common lists, several times faster so). */
#define MERGE_SORT(X, SIZE, LESS)                                                       \
  static void merge_sort_##X(const Order *o, int64_t s, char *a, char *tmp, int64_t n) { \
    if (n < 2) return;                                                                  \
    int64_t h = n / 2, z = (SIZE);                                                      \
    merge_sort_##X(o, s, a, tmp, h);                                                    \
    merge_sort_##X(o, s, a + h * z, tmp, n - h);                                        \
    int64_t i = 0, j = h, k = 0;                                                        \
    while (i < h && j < n) {                                                            \
      bool right = LESS(o, a + j * z, a + i * z);                                       \
      memcpy(tmp + k++ * z, a + (right ? j++ : i++) * z, (size_t)z);                    \
    }                                                                                   \
    while (i < h) memcpy(tmp + k++ * z, a + i++ * z, (size_t)z);                        \
    while (j < n) memcpy(tmp + k++ * z, a + j++ * z, (size_t)z);                        \
    memcpy(a, tmp, (size_t)(n * z));                                                    \
  }

#define I64_LESS(o, x, y) (*(const int64_t *)(const void *)(x) < *(const int64_t *)(const void *)(y))
#define F64_LESS(o, x, y) (*(const double *)(const void *)(x) < *(const double *)(const void *)(y))
MERGE_SORT(items, s, item_less)
MERGE_SORT(i64, 8, I64_LESS)
MERGE_SORT(f64, 8, F64_LESS)

static void merge_sort(const Order *o, int64_t s, char *a, char *tmp, int64_t n) {
  int32_t kind = o->n == 1 ? (int32_t)o->layout[0] : -1;
  if (kind == TY_I64) merge_sort_i64(o, s, a, tmp, n);
  else if (kind == TY_F64) merge_sort_f64(o, s, a, tmp, n);
  else merge_sort_items(o, s, a, tmp, n);
}

int32_t rt_list_sort_fields(RtList *l, int32_t reverse, int32_t nfields, const int64_t *layout) {
  if (l->len < 2) return RT_OK;
  char *tmp = malloc((size_t)(l->len * l->itemsize));
  if (!tmp) {
    rt_set_error(RT_ERR_MEMORY, NULL);
    return RT_ERR_MEMORY;
  }
  Order o = {nfields, layout};
  if (reverse) rt_list_reverse(l);
  merge_sort(&o, l->itemsize, l->data, tmp, l->len);
  if (reverse) rt_list_reverse(l);
  free(tmp);
  return RT_OK;
}

/* Reorders l's items as keyed, sorted, says: item j becomes the one whose
 * index (int64, negated for a reversed sort) is at offset in keyed's j-th. */
int32_t rt_list_take_order(RtList *l, const RtList *keyed, int64_t offset) {
  int64_t s = l->itemsize;
  char *tmp = malloc((size_t)(l->len * s) + 1);
  if (!tmp) {
    rt_set_error(RT_ERR_MEMORY, NULL);
    return RT_ERR_MEMORY;
  }
  for (int64_t j = 0; j < l->len; j++) {
    int64_t i = *(const int64_t *)(keyed->data + j * keyed->itemsize + offset);
    memcpy(tmp + j * s, l->data + (i < 0 ? -i : i) * s, (size_t)s);
  }
  memcpy(l->data, tmp, (size_t)(l->len * s));
  free(tmp);
  return RT_OK;
}

int32_t rt_list_sort(RtList *l, int32_t reverse) {
  int64_t layout[2] = {l->kind, 0};
  return rt_list_sort_fields(l, reverse, 1, layout);
}

/* ---------------------------------------------------------------- heaps */

/* Python's heapq on a list's items, in the steps of CPython's _heapq.c
 * (the same comparisons, the same moves), so that the list's order after
 * each call is CPython's. Items are swapped in place (swap_items), a str's
 * reference moving with it; `item` is the caller's slot of one item: the one pushed
 * or given, and where the one taken out is written. */
/* CPython's two sifts for a heap in a: sift_down_X(a, start, pos) moves
 * the item at pos towards start while it is less than its parent;
 * sift_up_X(a, n, pos) moves it down to a leaf along its smaller children
 * (the right one unless the left is less), then back up to its place.
 * Made once for items of any size ordered by Order (Items), and once for
 * each number kind where an item is one int64 or float64, whose compares
 * and swaps the compiler then keeps in registers. */
#define HEAP_SIFTS(X, A, LESS, SWAP)                                          \
  static void sift_down_##X(A a, int64_t start, int64_t pos) {                \
    while (pos > start) {                                                     \
      int64_t parent = (pos - 1) >> 1;                                        \
      if (!LESS(a, pos, parent)) break;                                       \
      SWAP(a, pos, parent);                                                   \
      pos = parent;                                                           \
    }                                                                         \
  }                                                                           \
  static void sift_up_##X(A a, int64_t n, int64_t pos) {                      \
    int64_t start = pos;                                                      \
    while (2 * pos + 1 < n) {                                                 \
      int64_t child = 2 * pos + 1;                                            \
      if (child + 1 < n && !LESS(a, child, child + 1)) child++;               \
      SWAP(a, pos, child);                                                    \
      pos = child;                                                            \
    }                                                                         \
    sift_down_##X(a, start, pos);                                             \
  }

typedef struct {
  const Order *o;
  char *data;
  int64_t size;
} Items;

#define ITEM_AT(a, i) ((a)->data + (i) * (a)->size)
#define ITEMS_LESS(a, i, j) item_less((a)->o, ITEM_AT(a, i), ITEM_AT(a, j))
#define ITEMS_SWAP(a, i, j) swap_items(ITEM_AT(a, i), ITEM_AT(a, j), (a)->size)
#define NUMBERS_LESS(a, i, j) ((a)[i] < (a)[j])
#define NUMBERS_SWAP(a, i, j)      \
  do {                             \
    __typeof__(*(a)) t_ = (a)[i];  \
    (a)[i] = (a)[j];               \
    (a)[j] = t_;                   \
  } while (0)

HEAP_SIFTS(items, const Items *, ITEMS_LESS, ITEMS_SWAP)
HEAP_SIFTS(i64, int64_t *, NUMBERS_LESS, NUMBERS_SWAP)
HEAP_SIFTS(f64, double *, NUMBERS_LESS, NUMBERS_SWAP)

/* The sifts of l's items, by their kind. */
static void sift_down(const Order *o, RtList *l, int64_t pos) {
  Items a = {o, l->data, l->itemsize};
  int32_t kind = o->n == 1 ? (int32_t)o->layout[0] : -1;
  if (kind == TY_I64) sift_down_i64((int64_t *)(void *)l->data, 0, pos);
  else if (kind == TY_F64) sift_down_f64((double *)(void *)l->data, 0, pos);
  else sift_down_items(&a, 0, pos);
}

static void sift_up(const Order *o, RtList *l, int64_t pos) {
  Items a = {o, l->data, l->itemsize};
  int32_t kind = o->n == 1 ? (int32_t)o->layout[0] : -1;
  if (kind == TY_I64) sift_up_i64((int64_t *)(void *)l->data, l->len, pos);
  else if (kind == TY_F64) sift_up_f64((double *)(void *)l->data, l->len, pos);
  else sift_up_items(&a, l->len, pos);
}

static int32_t empty_heap(void) {
  rt_set_error(RT_ERR_INDEX, "index out of range");
  return RT_ERR_INDEX;
}

/* Numba's heap steps store into the list (heapify from two items on, the
 * others wherever an item moves), so a typed.List made immutable refuses
 * them there with its ValueError. */
static int32_t frozen_heap(void) {
  rt_set_error(RT_ERR_VALUE, "list is immutable");
  return RT_ERR_VALUE;
}

int32_t rt_heapify(RtList *l, int32_t nfields, const int64_t *layout, char *item) {
  Order o = {nfields, layout};
  (void)item;
  if (l->immutable && l->len > 1) return frozen_heap();
  for (int64_t i = l->len / 2 - 1; i >= 0; i--) sift_up(&o, l, i);
  return RT_OK;
}

int32_t rt_heappush(RtList *l, int32_t nfields, const int64_t *layout, char *item) {
  Order o = {nfields, layout};
  int32_t st = rt_list_reserve(l, l->len + 1);
  if (st != RT_OK) return st;
  memcpy(l->data + l->len * l->itemsize, item, (size_t)l->itemsize);
  l->len++;
  sift_down(&o, l, l->len - 1);
  return RT_OK;
}

/* The smallest item into *item; the last one takes its place. */
int32_t rt_heappop(RtList *l, int32_t nfields, const int64_t *layout, char *item) {
  Order o = {nfields, layout};
  int64_t s = l->itemsize;
  if (!l->len) return empty_heap();
  if (l->immutable) return frozen_heap();
  swap_items(l->data, l->data + --l->len * s, s);
  memcpy(item, l->data + l->len * s, (size_t)s);
  if (l->len) sift_up(&o, l, 0);
  return RT_OK;
}

/* The smallest item swapped with *item, which then sinks to its place. */
int32_t rt_heapreplace(RtList *l, int32_t nfields, const int64_t *layout, char *item) {
  Order o = {nfields, layout};
  if (!l->len) return empty_heap();
  if (l->immutable) return frozen_heap();
  swap_items(l->data, item, l->itemsize);
  sift_up(&o, l, 0);
  return RT_OK;
}

/* As heapreplace where the smallest item is less than *item; else *item
 * is the one given back and the heap is left as it is. */
int32_t rt_heappushpop(RtList *l, int32_t nfields, const int64_t *layout, char *item) {
  Order o = {nfields, layout};
  if (!l->len || !item_less(&o, l->data, item)) return RT_OK;
  return rt_heapreplace(l, nfields, layout, item);
}

/* ---------------------------------------------------------------- hashing */

/* Python's hash of an int: its value modulo 2**61 - 1, the sign kept, and
 * -1 (the error code of CPython's C API) taken as -2. */
#define HASH_MODULUS (((uint64_t)1 << 61) - 1)

static int64_t hash_int(int64_t v) {
  uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  int64_t h = (int64_t)(m % HASH_MODULUS);
  if (v < 0) h = -h;
  return h == -1 ? -2 : h;
}

/* A NaN's hash: another each time. Python (3.10 on) hashes each NaN
 * object by its identity, which compiled code has not; a NaN key is
 * never found again either way, and many NaNs in one set or dict must not
 * all collide (a constant made set(a) of n NaNs take n**2 probes). The
 * counter is the one state shared across calls, stepped atomically; a
 * SplitMix64 mixing spreads its steps over the table's slots. */
static int64_t nan_hash(void) {
  static uint64_t steps;
  uint64_t z = __atomic_add_fetch(&steps, 0x9e3779b97f4a7c15ULL, __ATOMIC_RELAXED);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  int64_t h = (int64_t)((z ^ (z >> 31)) >> 1);
  return h == -1 ? -2 : h;
}

/* Python's hash of a float (Python/pyhash.c's algorithm): equal to the
 * int's for integral values; a NaN's, nan_hash's. */
static int64_t hash_float(double x) {
  if (isinf(x)) return x > 0 ? 314159 : -314159;
  if (isnan(x)) return nan_hash();
  int e;
  double m = frexp(x, &e);
  int sign = 1;
  if (m < 0) {
    sign = -1;
    m = -m;
  }
  uint64_t h = 0;
  while (m) {
    h = ((h << 28) & HASH_MODULUS) | h >> (61 - 28);
    m *= 268435456.0;  /* 2**28 */
    e -= 28;
    uint64_t y = (uint64_t)m;
    m -= (double)y;
    h += y;
    if (h >= HASH_MODULUS) h -= HASH_MODULUS;
  }
  e = e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61);
  h = ((h << e) & HASH_MODULUS) | h >> (61 - e);
  int64_t r = (int64_t)h * sign;
  return r == -1 ? -2 : r;
}

static int64_t tuple_hash(uint64_t key);
static bool same_tuple(uint64_t a, uint64_t b);

/* A complex key's bits point to an RtTupleKey of its two parts as float64s. */
static bool is_complex_kind(int32_t kind) { return kind == TY_C64 || kind == TY_C128; }

/* Python's hash of a complex number (Objects/complexobject.c): its real
 * part's hash plus 1000003 times its imaginary part's, wrapping. */
static int64_t complex_hash(uint64_t key) {
  const RtTupleKey *t = (const RtTupleKey *)(uintptr_t)key;
  uint64_t h = (uint64_t)rt_number_hash(TY_F64, t->fields[0].bits) + 1000003u * (uint64_t)rt_number_hash(TY_F64, t->fields[1].bits);
  return h == (uint64_t)-1 ? -2 : (int64_t)h;
}

int64_t rt_number_hash(int32_t kind, uint64_t key) {
  if (kind == TY_STR) return rt_str_hash_of((RtStr *)(uintptr_t)key);
  if (kind == TY_TUPLE) return tuple_hash(key);
  if (is_complex_kind(kind)) return complex_hash(key);
  if (is_float_kind(kind)) {
    double x;
    memcpy(&x, &key, 8);
    return hash_float(x);
  }
  if (kind == TY_U64 && key > (uint64_t)INT64_MAX) return (int64_t)(key % HASH_MODULUS);
  return hash_int((int64_t)key);
}

static bool same_key(int32_t kind, uint64_t a, uint64_t b) {
  if (kind == TY_STR) return rt_str_same((RtStr *)(uintptr_t)a, (RtStr *)(uintptr_t)b);
  if (kind == TY_TUPLE || is_complex_kind(kind)) return same_tuple(a, b);
  if (!is_float_kind(kind)) return a == b;
  double x, y;
  memcpy(&x, &a, 8);
  memcpy(&y, &b, 8);
  return x == y;
}

/* Python's hash of a tuple (Objects/tupleobject.c's xxHash-based one,
 * 64-bit), from its items' hashes. */
int64_t rt_tuple_hash(const int64_t *hashes, int64_t n) {
  const uint64_t prime1 = 11400714785074694791ULL, prime2 = 14029467366897019727ULL, prime5 = 2870177450012600261ULL;
  uint64_t acc = prime5;
  for (int64_t i = 0; i < n; i++) {
    acc += (uint64_t)hashes[i] * prime2;
    acc = (acc << 31) | (acc >> 33);
    acc *= prime1;
  }
  acc += (uint64_t)n ^ (prime5 ^ 3527539ULL);
  return acc == (uint64_t)-1 ? 1546275796 : (int64_t)acc;
}

static int64_t tuple_hash(uint64_t key) {
  const RtTupleKey *t = (const RtTupleKey *)(uintptr_t)key;
  int64_t hashes[RT_KEY_FIELDS];
  for (int64_t i = 0; i < t->n; i++) hashes[i] = rt_number_hash(t->fields[i].kind, t->fields[i].bits);
  return rt_tuple_hash(hashes, t->n);
}

static bool same_tuple(uint64_t a, uint64_t b) {
  const RtTupleKey *x = (const RtTupleKey *)(uintptr_t)a, *y = (const RtTupleKey *)(uintptr_t)b;
  if (x->n != y->n) return false;
  for (int64_t i = 0; i < x->n; i++)
    if (!same_key(x->fields[i].kind, x->fields[i].bits, y->fields[i].bits)) return false;
  return true;
}

/* ---------------------------------------------------------------- keys holding memory */

/* One row per kind of key that is a pointer: the dict's own copy of a key
 * given for an insertion (NULL: no memory), and its release with the entry. */
typedef struct {
  int32_t kind;
  uint64_t (*keep)(uint64_t key);
  void (*drop)(uint64_t key);
} KeyKind;

static uint64_t keep_str(uint64_t key) { return (uint64_t)(uintptr_t)rt_str_kept((RtStr *)(uintptr_t)key); }
static void drop_str(uint64_t key) { rt_str_release((RtStr *)(uintptr_t)key); }

/* Whether a tuple key's field of kind is an RtTupleKey of its own (a
 * tuple in the tuple, a complex number's parts). */
static bool field_in_memory(int32_t kind) { return kind == TY_TUPLE || is_complex_kind(kind); }

static void drop_tuple(uint64_t key);

/* A tuple key's copy, holding its own reference to each str field (a
 * constant's copy, as a str key's) and its own copy of each field in memory. */
static uint64_t keep_tuple(uint64_t key) {
  const RtTupleKey *given = (const RtTupleKey *)(uintptr_t)key;
  RtTupleKey *t = malloc(RT_TUPLE_KEY_SIZE(given->n));
  if (!t) return 0;
  memcpy(t, given, RT_TUPLE_KEY_SIZE(given->n));
  for (int64_t i = 0; i < t->n; i++) {
    if (t->fields[i].kind == TY_STR) t->fields[i].bits = keep_str(t->fields[i].bits);
    if (field_in_memory(t->fields[i].kind) && !(t->fields[i].bits = keep_tuple(t->fields[i].bits))) {
      t->n = i;  /* (the fields kept so far let go) */
      drop_tuple((uint64_t)(uintptr_t)t);
      return 0;
    }
  }
  return (uint64_t)(uintptr_t)t;
}

static void drop_tuple(uint64_t key) {
  RtTupleKey *t = (RtTupleKey *)(uintptr_t)key;
  for (int64_t i = 0; i < t->n; i++) {
    if (t->fields[i].kind == TY_STR) drop_str(t->fields[i].bits);
    if (field_in_memory(t->fields[i].kind)) drop_tuple(t->fields[i].bits);
  }
  free(t);
}

static const KeyKind key_kinds[] = {
  {TY_STR, keep_str, drop_str},
  {TY_TUPLE, keep_tuple, drop_tuple},
  {TY_C64, keep_tuple, drop_tuple},
  {TY_C128, keep_tuple, drop_tuple},
};

static const KeyKind *key_kind(int32_t kind) {
  for (size_t i = 0; i < sizeof key_kinds / sizeof key_kinds[0]; i++)
    if (key_kinds[i].kind == kind) return &key_kinds[i];
  return NULL;
}

/* A popped key's copy freed once read: its strs' references were handed
 * over with it, its fields in memory are freed with it. */
void rt_tuple_key_free(RtTupleKey *t) {
  for (int64_t i = 0; i < t->n; i++)
    if (field_in_memory(t->fields[i].kind)) rt_tuple_key_free((RtTupleKey *)(uintptr_t)t->fields[i].bits);
  free(t);
}

/* ---------------------------------------------------------------- dicts */

static char *entry_at(const RtDict *d, int64_t i) { return d->entries + i * d->entsize; }
static int64_t entry_hash(const char *e) { return *(const int64_t *)e; }
static uint64_t entry_key(const char *e) { return *(const uint64_t *)(e + 8); }

RtDict *rt_dict_new(int32_t keykind, int32_t valkind, int64_t valsize) {
  RtDict *d = calloc(1, sizeof(RtDict));
  if (!d) return NULL;
  d->refcount = 1;
  d->keykind = keykind;
  d->valkind = valkind;
  d->valsize = valsize;
  d->entsize = RT_DICT_VALUE + (valsize + 7) / 8 * 8;
  d->held = valkind == TY_SET ? (RtHeld){0} : held_of(valkind);  /* a set: no values */
  return d;
}

void rt_dict_settle(RtDict *d, int32_t keykind, int32_t valkind, int64_t valsize) {
  if (d->keykind >= 0) return;
  d->keykind = keykind;
  d->valkind = valkind;
  d->valsize = valsize;
  d->entsize = RT_DICT_VALUE + (valsize + 7) / 8 * 8;  /* no entries yet */
  d->held = valkind == TY_SET ? (RtHeld){0} : held_of(valkind);
}

void rt_dict_hold(RtDict *d, int32_t n, const int32_t *kinds, const int64_t *offsets) {
  set_held(&d->held, n, kinds, offsets);
}

/* A key's and value's references, which the dict holds (the entry going). */
static void release_entry(RtDict *d, char *e) {
  const KeyKind *k = key_kind(d->keykind);
  if (k) k->drop(entry_key(e));
  drop_items(&d->held, e + RT_DICT_VALUE, 1, d->valsize);
}

static void release_entries(RtDict *d) {
  if (!key_kind(d->keykind) && !d->held.n) return;
  for (int64_t i = 0; i < d->nentries; i++)
    if (entry_hash(entry_at(d, i)) != RT_DELETED) release_entry(d, entry_at(d, i));
}

void rt_dict_free(RtDict *d) {
  release_entries(d);
  free_memory(d->index, d->index_mapped);
  free_memory(d->entries, d->entries_mapped);
  free(d);
}

void rt_dict_release(RtDict *d) {
  if (d && __atomic_sub_fetch(&d->refcount, 1, __ATOMIC_ACQ_REL) == 0) rt_dict_free(d);
}

/* The index slot of key: its own if present, else the empty one where it
 * would go. Probing as CPython's (perturbed by the hash's high bits), so
 * that keys with equal low bits do not crowd one run of slots. */
static int64_t *find_slot(RtDict *d, uint64_t key, int64_t hash, bool *found) {
  uint64_t perturb = (uint64_t)hash, i = (uint64_t)hash & (uint64_t)d->mask;
  int64_t *free_slot = NULL;
  for (;;) {
    int64_t *slot = &d->index[i];
    if (*slot == -1) {
      *found = false;
      return free_slot ? free_slot : slot;
    }
    if (*slot == -2) {
      if (!free_slot) free_slot = slot;
    } else {
      char *e = entry_at(d, *slot);
      if (entry_hash(e) == hash && same_key(d->keykind, entry_key(e), key)) {
        *found = true;
        return slot;
      }
    }
    perturb >>= 5;
    i = (i * 5 + perturb + 1) & (uint64_t)d->mask;
  }
}

/* Drops deleted entries, keeping the others' order, and rebuilds the index
 * for room of at least `room` entries (kept at most two thirds full). */
static int32_t rebuild(RtDict *d, int64_t room) {
  int64_t live = 0;
  for (int64_t i = 0; i < d->nentries; i++) {
    char *e = entry_at(d, i);
    if (entry_hash(e) == RT_DELETED) continue;
    if (live != i) memcpy(entry_at(d, live), e, (size_t)d->entsize);
    live++;
  }
  d->nentries = live;
  if (room > d->cap) {
    int64_t cap = room < 8 ? 8 : room;
    char *entries = grow_memory(d->entries, &d->entries_mapped, (size_t)(live * d->entsize), (size_t)(cap * d->entsize));
    if (!entries) return RT_ERR_MEMORY;
    d->entries = entries;
    d->cap = cap;
  }
  int64_t size = 8;
  while (size * 2 < d->cap * 3) size *= 2;
  if (size - 1 != d->mask || !d->index) {  /* written anew below: nothing kept */
    int64_t *index = grow_memory(d->index, &d->index_mapped, 0, sizeof(int64_t) * (size_t)size);
    if (!index) return RT_ERR_MEMORY;
    d->index = index;
    d->mask = size - 1;
  }
  memset(d->index, 0xff, sizeof(int64_t) * (size_t)size);  /* all -1 */
  for (int64_t i = 0; i < live; i++) {
    char *e = entry_at(d, i);
    bool found;
    *find_slot(d, entry_key(e), entry_hash(e), &found) = i;
  }
  return RT_OK;
}

/* ---------------------------------------------------------------- sets' table */

/* A set iterates in the order of CPython's set table (Objects/setobject.c),
 * as Python's and Numba's sets do, not in insertion order: {3, 1, 2} gives
 * 1, 2, 3. Its index is that table, slot for slot (an entry number, -1
 * empty, -2 a dummy, which a deletion leaves): a key is looked for in
 * LINEAR_PROBES + 1 slots in a row, then at a jump perturbed by its hash's
 * high bits; an insertion takes the last dummy on its path, else the empty
 * slot ending it; the table grows when filled (dummies too) to 3/5. Its
 * entries are put in the table's order when iteration asks (ordered). */
#define LINEAR_PROBES 9
#define PERTURB_SHIFT 5

static bool is_set(const RtDict *d) { return d->valkind == TY_SET; }

/* key's slot (found), or where CPython's set_add_entry would put it. */
static int64_t *set_probe(RtDict *d, uint64_t key, int64_t hash, bool *found) {
  uint64_t mask = (uint64_t)d->mask, i = (uint64_t)hash & mask, perturb = (uint64_t)hash;
  int64_t *dummy = NULL;
  for (;;) {
    uint64_t last = i + LINEAR_PROBES <= mask ? i + LINEAR_PROBES : i;
    for (uint64_t j = i; j <= last; j++) {
      int64_t *slot = &d->index[j];
      if (*slot == -1) {
        *found = false;
        return dummy ? dummy : slot;
      }
      if (*slot == -2) {
        dummy = slot;
      } else {
        char *e = entry_at(d, *slot);
        if (entry_hash(e) == hash && same_key(d->keykind, entry_key(e), key)) {
          *found = true;
          return slot;
        }
      }
    }
    perturb >>= PERTURB_SHIFT;
    i = (i * 5 + 1 + perturb) & mask;
  }
}

/* Entry number n put where CPython's set_insert_clean puts a hash in a table without dummies. */
static void set_place(int64_t *index, uint64_t mask, int64_t hash, int64_t n) {
  uint64_t i = (uint64_t)hash & mask, perturb = (uint64_t)hash;
  for (;;) {
    uint64_t last = i + LINEAR_PROBES <= mask ? i + LINEAR_PROBES : i;
    for (uint64_t j = i; j <= last; j++)
      if (index[j] == -1) {
        index[j] = n;
        return;
      }
    perturb >>= PERTURB_SHIFT;
    i = (i * 5 + 1 + perturb) & mask;
  }
}

/* A new table, the smallest power of two (8 at least) over minused slots,
 * the items placed in the old one's order; its dummies gone. */
static int32_t set_resize(RtDict *d, int64_t minused) {
  int64_t size = 8, mapped = 0;
  while (size <= minused) size *= 2;
  int64_t *index = grow_memory(NULL, &mapped, 0, sizeof(int64_t) * (size_t)size);
  if (!index) return RT_ERR_MEMORY;
  memset(index, 0xff, sizeof(int64_t) * (size_t)size);  /* all -1 */
  for (int64_t i = 0; d->index && i <= d->mask; i++)
    if (d->index[i] >= 0) set_place(index, (uint64_t)size - 1, entry_hash(entry_at(d, d->index[i])), d->index[i]);
  if (d->index) free_memory(d->index, d->index_mapped);
  d->index = index;
  d->index_mapped = mapped;
  d->mask = size - 1;
  d->fill = d->used;
  d->ordered = false;
  return RT_OK;
}

/* The entries made the table's live ones in its order (none deleted). */
static int32_t set_order(RtDict *d) {
  if (d->ordered) return RT_OK;
  char *packed = malloc((size_t)(d->used * d->entsize) + 1);
  if (!packed) return RT_ERR_MEMORY;
  int64_t n = 0;
  for (int64_t i = 0; d->index && i <= d->mask; i++) {
    if (d->index[i] < 0) continue;
    memcpy(packed + n * d->entsize, entry_at(d, d->index[i]), (size_t)d->entsize);
    d->index[i] = n++;
  }
  memcpy(d->entries, packed, (size_t)(n * d->entsize));
  free(packed);
  d->nentries = n;
  d->ordered = true;
  return RT_OK;
}

/* A new entry of key (kept), hash; its number, or -1: no memory. The
 * deleted entries go only when the entries are full: till then a set
 * made from a sequence keeps its entries in the sequence's order. */
static int64_t set_entry(RtDict *d, uint64_t key, int64_t hash) {
  if (d->nentries == d->cap && d->nentries != d->used && set_order(d) != RT_OK) return -1;
  if (d->nentries == d->cap) {
    int64_t cap = d->cap < 8 ? 8 : 2 * d->cap;
    char *entries = grow_memory(d->entries, &d->entries_mapped, (size_t)(d->nentries * d->entsize), (size_t)(cap * d->entsize));
    if (!entries) return -1;
    d->entries = entries;
    d->cap = cap;
  }
  const KeyKind *k = key_kind(d->keykind);
  uint64_t kept = k ? k->keep(key) : key;
  if (k && !kept) return -1;
  char *e = entry_at(d, d->nentries);
  memcpy(e, &hash, 8);
  memcpy(e + 8, &kept, 8);
  d->ordered = false;
  d->changes++;
  return d->nentries++;
}

static int32_t set_add(RtDict *d, uint64_t key, int64_t hash) {
  if (!d->index && set_resize(d, 0) != RT_OK) return RT_ERR_MEMORY;
  bool found;
  int64_t *slot = set_probe(d, key, hash, &found);
  if (found) return RT_OK;
  bool fresh = *slot == -1;
  int64_t n = set_entry(d, key, hash);  /* the slot stays: set_order renumbers live ones */
  if (n < 0) return RT_ERR_MEMORY;
  *slot = n;
  d->used++;
  if (!fresh) return RT_OK;
  d->fill++;
  return d->fill * 5 < d->mask * 3 ? RT_OK : set_resize(d, d->used > 50000 ? d->used * 2 : d->used * 4);
}

/* The entry an index slot names released and marked deleted, the slot a
 * dummy (-2), as a dict's and a set's deletions leave them. */
static void delete_at(RtDict *d, int64_t *slot) {
  release_entry(d, entry_at(d, *slot));
  int64_t deleted = RT_DELETED;
  memcpy(entry_at(d, *slot), &deleted, 8);
  *slot = -2;
  d->used--;
  d->changes++;
}

int32_t rt_set_add(RtDict *s, uint64_t key) { return set_add(s, key, rt_number_hash(s->keykind, key)); }

int32_t rt_set_discard(RtDict *s, uint64_t key) {
  if (!s->used) return 0;
  bool found;
  int64_t *slot = set_probe(s, key, rt_number_hash(s->keykind, key), &found);
  if (!found) return 0;
  delete_at(s, slot);
  s->ordered = false;
  return 1;
}

/* As CPython's set_difference_update ends. */
void rt_set_shrink(RtDict *s) {
  if (s->index && s->fill - s->used > s->mask / 4) set_resize(s, s->used > 50000 ? s->used * 2 : s->used * 4);
}

/* s.pop(): the first item from the finger on, as CPython's set_pop. */
static char *set_pop(RtDict *s) {
  if (!s->used) return NULL;
  int64_t i = s->finger & s->mask;
  while (s->index[i] < 0) i = i == s->mask ? 0 : i + 1;
  char *e = entry_at(s, s->index[i]);
  int64_t deleted = RT_DELETED;
  uint64_t key = entry_key(e);
  memcpy(e, &deleted, 8);  /* its key handed over, readable until the entries are packed */
  memcpy(e + 8, &key, 8);
  s->index[i] = -2;
  s->used--;
  s->changes++;
  s->finger = i + 1;
  s->ordered = false;
  return e;
}

static void set_clear(RtDict *s) {
  release_entries(s);
  s->used = s->nentries = s->fill = 0;
  s->changes++;
  if (s->index) {  /* CPython's set is back to its smallest table */
    s->mask = 7;
    memset(s->index, 0xff, sizeof(int64_t) * 8);
  }
}

/* e's items into s, as CPython's set_merge: into an empty set, its
 * slots copied when the tables are alike, else its items placed in its
 * table's order without a look for duplicates. */
static int32_t set_merge(RtDict *s, RtDict *e) {
  if (s == e || !e->used) return RT_OK;
  if (!s->index && set_resize(s, 0) != RT_OK) return RT_ERR_MEMORY;
  if ((s->fill + e->used) * 5 >= s->mask * 3 && set_resize(s, (s->used + e->used) * 2) != RT_OK) return RT_ERR_MEMORY;
  bool empty = s->fill == 0, alike = empty && s->mask == e->mask && e->fill == e->used;
  for (int64_t i = 0; i <= e->mask; i++) {
    if (e->index[i] < 0) continue;
    char *from = entry_at(e, e->index[i]);
    if (!empty) {
      if (set_add(s, entry_key(from), entry_hash(from)) != RT_OK) return RT_ERR_MEMORY;
      continue;
    }
    int64_t n = set_entry(s, entry_key(from), entry_hash(from));
    if (n < 0) return RT_ERR_MEMORY;
    if (alike) s->index[i] = n;
    else set_place(s->index, (uint64_t)s->mask, entry_hash(from), n);
    s->used++;
    s->fill++;
  }
  return RT_OK;
}

void rt_set_swap(RtDict *a, RtDict *b) {  /* as CPython's set_swap_bodies: the counts and fingers stay */
  RtDict t = *a;
  *a = *b;
  *b = t;
  b->refcount = a->refcount;
  a->refcount = t.refcount;
  b->finger = a->finger;
  a->finger = t.finger;
  a->changes++;
  b->changes++;
}

uint64_t rt_set_inserted(RtDict *s, int64_t i) { return entry_key(entry_at(s, i)); }

/* s, its items inserted in the order of a CPython set's table and none
 * removed since, given that table's layout: slots[i] -1 empty, -2 a dummy,
 * else its item's number; so that s iterates, grows and pops as it will. */
int32_t rt_set_mirror(RtDict *s, int64_t size, const int64_t *slots, int64_t finger) {
  if (size < 8 || (size & (size - 1)) || s->nentries != s->used) return RT_ERR_VALUE;
  int64_t mapped = 0, fill = 0;
  int64_t *index = grow_memory(NULL, &mapped, 0, sizeof(int64_t) * (size_t)size);
  if (!index) return RT_ERR_MEMORY;
  for (int64_t i = 0; i < size; i++) fill += (index[i] = slots[i]) != -1;
  if (s->index) free_memory(s->index, s->index_mapped);
  s->index = index;
  s->index_mapped = mapped;
  s->mask = size - 1;
  s->fill = fill;
  s->finger = finger;
  s->ordered = false;
  return RT_OK;
}

char *rt_dict_lookup(RtDict *d, uint64_t key) {
  if (!d->used) return NULL;
  bool found;
  int64_t hash = rt_number_hash(d->keykind, key);
  int64_t *slot = is_set(d) ? set_probe(d, key, hash, &found) : find_slot(d, key, hash, &found);
  return found ? entry_at(d, *slot) + RT_DICT_VALUE : NULL;
}

char *rt_dict_insert(RtDict *d, uint64_t key) {
  int64_t hash = rt_number_hash(d->keykind, key);
  if (is_set(d)) {  /* its entry's address (an item's, whose value has no bytes) */
    if (set_add(d, key, hash) == RT_OK) return d->entries + RT_DICT_VALUE;
    rt_set_error(RT_ERR_MEMORY, NULL);
    return NULL;
  }
  bool found = false;
  int64_t *slot = d->index ? find_slot(d, key, hash, &found) : NULL;
  if (found) return entry_at(d, *slot) + RT_DICT_VALUE;
  const KeyKind *k = key_kind(d->keykind);
  uint64_t kept = k ? k->keep(key) : key;  /* the dict's own (a copy of a constant str, of a tuple) */
  if (k && !kept) {
    rt_set_error(RT_ERR_MEMORY, NULL);
    return NULL;
  }
  if (d->nentries == d->cap) {
    if (rebuild(d, d->used + 1 > d->cap / 2 ? 2 * (d->used + 1) : d->cap) != RT_OK) {
      if (k) k->drop(kept);
      rt_set_error(RT_ERR_MEMORY, NULL);
      return NULL;
    }
    slot = find_slot(d, key, hash, &found);
  }
  char *e = entry_at(d, d->nentries);
  *slot = d->nentries++;
  d->used++;
  memcpy(e, &hash, 8);
  memcpy(e + 8, &kept, 8);
  memset(e + RT_DICT_VALUE, 0, (size_t)(d->entsize - RT_DICT_VALUE));  /* a value holding a reference: none yet (NULL) */
  return e + RT_DICT_VALUE;
}

int32_t rt_dict_delete(RtDict *d, uint64_t key) {
  if (is_set(d)) return rt_set_discard(d, key);
  if (!d->used) return 0;
  bool found;
  int64_t *slot = find_slot(d, key, rt_number_hash(d->keykind, key), &found);
  if (!found) return 0;
  delete_at(d, slot);
  return 1;
}

char *rt_dict_entry(RtDict *d, int64_t i) {
  if (i < 0 || i >= d->used) return NULL;
  if (is_set(d)) return set_order(d) == RT_OK ? entry_at(d, i) : NULL;
  if (d->nentries != d->used) rebuild(d, d->cap);  /* compacting needs no memory */
  return entry_at(d, i);
}

void rt_dict_clear(RtDict *d) {
  if (is_set(d)) {
    set_clear(d);
    return;
  }
  release_entries(d);
  d->used = d->nentries = 0;
  if (d->index) memset(d->index, 0xff, sizeof(int64_t) * (size_t)(d->mask + 1));
}

RtDict *rt_dict_copy(RtDict *d) {
  if (is_set(d)) {  /* s.copy(): CPython's set merged into a new one */
    RtDict *c = rt_dict_new(d->keykind, TY_SET, 0);
    if (c && set_merge(c, d) == RT_OK) return c;
    if (c) rt_dict_free(c);
    rt_set_error(RT_ERR_MEMORY, NULL);
    return NULL;
  }
  RtDict *c = rt_dict_new(d->keykind, d->valkind, d->valsize);
  if (c) c->held = d->held;
  if (!c || rebuild(c, d->used) != RT_OK) {
    if (c) rt_dict_free(c);
    rt_set_error(RT_ERR_MEMORY, NULL);
    return NULL;
  }
  for (int64_t i = 0; i < d->nentries; i++) {
    char *e = entry_at(d, i);
    if (entry_hash(e) == RT_DELETED) continue;
    memcpy(rt_dict_insert(c, entry_key(e)), e + RT_DICT_VALUE, (size_t)d->valsize);
    retain_items(&d->held, e + RT_DICT_VALUE, 1, d->valsize);
  }
  return c;
}

/* The last live entry, removed (its key and value stay readable until the
 * next insertion), or NULL when d is empty. */
char *rt_dict_popitem(RtDict *d) {
  if (is_set(d)) return set_pop(d);
  if (!d->used) return NULL;
  while (entry_hash(entry_at(d, d->nentries - 1)) == RT_DELETED) d->nentries--;
  char *e = entry_at(d, d->nentries - 1);
  bool found;
  *find_slot(d, entry_key(e), entry_hash(e), &found) = -2;
  d->nentries--;
  d->used--;
  return e;
}

/* d.update(e) for dicts of one type: e's entries inserted in order. */
int32_t rt_dict_update(RtDict *d, RtDict *e) {
  if (is_set(d)) return set_merge(d, e);
  int64_t n = e->nentries;  /* d.update(d) inserts nothing new */
  for (int64_t i = 0; i < n; i++) {
    char *src = entry_at(e, i);
    if (entry_hash(src) == RT_DELETED) continue;
    uint64_t key = entry_key(src);
    char *dst = rt_dict_insert(d, key);
    if (!dst) return RT_ERR_MEMORY;
    if (d == e) continue;
    drop_items(&d->held, dst, 1, d->valsize);  /* the value replaced (a new entry's is none) */
    memcpy(dst, entry_at(e, i) + RT_DICT_VALUE, (size_t)d->valsize);
    retain_items(&d->held, dst, 1, d->valsize);
  }
  return RT_OK;
}

/* The code point c as UTF-8 at out (room for 4 bytes): the bytes written. */
static size_t put_utf8(char *out, uint32_t c) {
  if (c < 0x80) {
    out[0] = (char)c;
    return 1;
  }
  if (c < 0x800) return (size_t)sprintf(out, "%c%c", 0xc0 | (c >> 6), 0x80 | (c & 0x3f));
  if (c < 0x10000) return (size_t)sprintf(out, "%c%c%c", 0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  return (size_t)sprintf(out, "%c%c%c%c", 0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
}

/* A str as Python's repr() writes it, quoted, into text (of size bytes):
 * its code points as UTF-8, those repr() escapes written \xNN. */
static void str_text(const RtStr *s, char *text, size_t size) {
  char quote = '\'';
  for (int64_t i = 0; i < s->len; i++)
    if (s->data[i] == '\'') quote = '"';
  for (int64_t i = 0; i < s->len && quote == '"'; i++)
    if (s->data[i] == '"') quote = '\'';
  size_t n = (size_t)snprintf(text, size, "%c", quote);
  for (int64_t i = 0; i < s->len && n + 12 < size; i++) {
    uint32_t c = s->data[i];
    if (c == '\\' || c == (uint32_t)quote) n += (size_t)snprintf(text + n, size - n, "\\%c", (char)c);
    else if (c == '\n' || c == '\t' || c == '\r') n += (size_t)snprintf(text + n, size - n, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
    else if (c < 0x20 || c == 0x7f) n += (size_t)snprintf(text + n, size - n, "\\x%02x", c);
    else n += put_utf8(text + n, c);
  }
  if (n + 2 <= size) snprintf(text + n, size - n, "%c", quote);
}

/* A number key as Python writes it, into text (of size bytes); a tuple
 * key's items in parentheses (a str's repr). */
static void key_text(int32_t kind, uint64_t key, char *text, size_t size) {
  if (kind == TY_STR) {
    str_text((const RtStr *)(uintptr_t)key, text, size);
  } else if (is_complex_kind(kind)) {  /* "(re+imj)", which the extension reads back as the number */
    const RtTupleKey *t = (const RtTupleKey *)(uintptr_t)key;
    double im;
    memcpy(&im, &t->fields[1].bits, 8);
    size_t n = (size_t)snprintf(text, size, "(");
    if (n < size) key_text(TY_F64, t->fields[0].bits, text + n, size - n);
    n += strlen(text + n);
    if (n < size) n += (size_t)snprintf(text + n, size - n, "%s", signbit(im) || isnan(im) ? "" : "+");
    if (n < size) key_text(TY_F64, t->fields[1].bits, text + n, size - n);
    n += strlen(text + n);
    if (n < size) snprintf(text + n, size - n, "j)");
  } else if (kind == TY_TUPLE) {
    const RtTupleKey *t = (const RtTupleKey *)(uintptr_t)key;
    size_t n = (size_t)snprintf(text, size, "(");
    for (int64_t i = 0; i < t->n && n < size; i++) {
      if (i) n += (size_t)snprintf(text + n, size - n, ", ");
      if (n < size) key_text(t->fields[i].kind, t->fields[i].bits, text + n, size - n);
      n += strlen(text + n);
    }
    if (n < size) snprintf(text + n, size - n, t->n == 1 ? ",)" : ")");
  } else if (is_float_kind(kind)) {
    double x;
    memcpy(&x, &key, 8);
    snprintf(text, size, "%.17g", x);
    if (!strpbrk(text, ".eEn") && strlen(text) + 3 <= size) strcat(text, ".0");
  } else if (kind == TY_BOOL) {
    snprintf(text, size, "%s", key ? "True" : "False");
  } else if (kind == TY_U64) {
    snprintf(text, size, "%llu", (unsigned long long)key);
  } else {
    snprintf(text, size, "%lld", (long long)key);
  }
}

/* KeyError(key): the message is the key as Python writes it; a datetime64
 * or timedelta64 key (its unit in kind's higher bits, rt_key_kind) as a
 * raise's argument, which the extension makes NumPy's scalar. */
void rt_key_error(int32_t kind, uint64_t key) {
  static _Thread_local char text[1024];  /* a tuple key of strs too */
  if ((kind & 0xff) == TY_DATETIME || (kind & 0xff) == TY_TIMEDELTA) {  /* one argument, as rt_raise_arg writes it */
    snprintf(text, sizeof text, "\x02%c%d,%lld;", (kind & 0xff) == TY_DATETIME ? 'M' : 'm', kind >> 8, (long long)key);
    rt_set_error(RT_ERR_KEY, text);
    return;
  }
  if (kind == TY_STR) {  /* marked for the extension, which raises KeyError of the str */
    RtStr *s = (RtStr *)(uintptr_t)key;
    static _Thread_local char long_text[1024];
    size_t n = 1;
    long_text[0] = '\x01';
    for (int64_t i = 0; i < s->len && n < sizeof long_text - 5; i++) n += put_utf8(long_text + n, s->data[i]);
    long_text[n] = 0;
    rt_set_error(RT_ERR_KEY, long_text);
    return;
  }
  key_text(kind, key, text, sizeof text);
  rt_set_error(RT_ERR_KEY, text);
}

#ifdef RUCHEY_LIB
/* The functions compiled code calls, for the linker (runtime.c). */
void rt_register_containers(void (*define)(const char *name, void *addr, void *ctx), void *ctx) {
  define("rt_list_new", (void *)rt_list_new, ctx);
  define("rt_list_reserve", (void *)rt_list_reserve, ctx);
  define("rt_list_free", (void *)rt_list_free, ctx);
  define("rt_object_new", (void *)rt_object_new, ctx);
  define("rt_object_free", (void *)rt_object_free, ctx);
  define("rt_array_keep", (void *)rt_array_keep, ctx);
  define("rt_list_copy", (void *)rt_list_copy, ctx);
  define("rt_list_settle", (void *)rt_list_settle, ctx);
  define("rt_dict_settle", (void *)rt_dict_settle, ctx);
  define("rt_list_hold", (void *)rt_list_hold, ctx);
  define("rt_dict_hold", (void *)rt_dict_hold, ctx);
  define("rt_list_open", (void *)rt_list_open, ctx);
  define("rt_list_close", (void *)rt_list_close, ctx);
  define("rt_list_clear", (void *)rt_list_clear, ctx);
  define("rt_list_reverse", (void *)rt_list_reverse, ctx);
  define("rt_list_make_immutable", (void *)rt_list_make_immutable, ctx);
  define("rt_list_allocated", (void *)rt_list_allocated, ctx);
  define("rt_list_sort", (void *)rt_list_sort, ctx);
  define("rt_list_sort_fields", (void *)rt_list_sort_fields, ctx);
  define("rt_list_take_order", (void *)rt_list_take_order, ctx);
  define("rt_list_concat", (void *)rt_list_concat, ctx);
  define("rt_list_repeat", (void *)rt_list_repeat, ctx);
  define("rt_list_slice", (void *)rt_list_slice, ctx);
  define("rt_list_delete_slice", (void *)rt_list_delete_slice, ctx);
  define("rt_list_assign_slice", (void *)rt_list_assign_slice, ctx);
  define("rt_dict_new", (void *)rt_dict_new, ctx);
  define("rt_dict_free", (void *)rt_dict_free, ctx);
  define("rt_dict_lookup", (void *)rt_dict_lookup, ctx);
  define("rt_dict_insert", (void *)rt_dict_insert, ctx);
  define("rt_dict_delete", (void *)rt_dict_delete, ctx);
  define("rt_dict_entry", (void *)rt_dict_entry, ctx);
  define("rt_dict_clear", (void *)rt_dict_clear, ctx);
  define("rt_dict_copy", (void *)rt_dict_copy, ctx);
  define("rt_dict_popitem", (void *)rt_dict_popitem, ctx);
  define("rt_dict_update", (void *)rt_dict_update, ctx);
  define("rt_key_error", (void *)rt_key_error, ctx);
  define("rt_tuple_key_free", (void *)rt_tuple_key_free, ctx);
  define("rt_number_hash", (void *)rt_number_hash, ctx);
  define("rt_tuple_hash", (void *)rt_tuple_hash, ctx);
  define("rt_heapify", (void *)rt_heapify, ctx);
  define("rt_heappush", (void *)rt_heappush, ctx);
  define("rt_heappop", (void *)rt_heappop, ctx);
  define("rt_heapreplace", (void *)rt_heapreplace, ctx);
  define("rt_heappushpop", (void *)rt_heappushpop, ctx);
}
#endif
