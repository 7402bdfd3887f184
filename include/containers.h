/* containers.h — typed lists and dicts: the memory compiled code and
 * Python's ruchey.typed.List / Dict share.
 *
 * lib/containers.c is built into libruchey (for compiled code) and into
 * the extension (for the Python objects), so that both work on the same C
 * container without copying, and Python can use one before any compile.
 * A container is reference-counted as arrays' RtMemInfo is: the count is
 * its first field, changed atomically; the last release frees it.
 */
#ifndef RUCHEY_CONTAINERS_H
#define RUCHEY_CONTAINERS_H

#include "ruchey.h"

/* Where an item (a list's, or a dict's value) holds references the
 * container owns: a str, an array, a list or a dict is one at offset 0; a
 * tuple has one per such field (its arrays', strs' ...); numbers none. */
#define RT_HELD_FIELDS 16
typedef struct RtHeld {
  int32_t n;                        /* references in an item */
  int32_t kinds[RT_HELD_FIELDS];    /* each one's TypeKind: TY_STR, TY_ARRAY, TY_BYTES, TY_LIST, TY_DICT */
  int64_t offsets[RT_HELD_FIELDS];  /* and its offset in the item */
} RtHeld;

/* A growable buffer of items of one type (kind TY_STR: RtStr pointers,
 * each a reference the list holds; see RtHeld). */
typedef struct RtList {
  int64_t refcount;  /* first, as RtMemInfo's */
  int64_t len, cap;  /* items held, and room for */
  char *data;
  int64_t itemsize;
  int32_t kind;      /* the items' TypeKind */
  int32_t typed;     /* made as a typed.List (not a list display or a Python list's copy): returned as one where
                        Numba returns its typed.List but a Python list for its reflected list (of bytes) */
  int64_t mapped;    /* data's bytes when mapped by mmap (large buffers), else 0: malloc'd */
  RtHeld held;       /* the references in each item */
  int32_t immutable; /* made immutable (typed.List._make_immutable()): every change is Numba's ValueError */
  int64_t kept_cap;  /* an immutable list's room: its cap is 0 then, so that an append takes the growing path,
                        which refuses (rt_list_reserve), and appending loops check nothing more */
} RtList;

/* CPython's compact dict: entries in insertion order, each {hash, key, value},
 * and an open-addressing index of entry numbers. A deleted entry keeps its
 * place (hash RT_DELETED) until the entries are compacted, on growth or
 * when iteration asks for the i-th live one. Keys are scalars held as 64-bit
 * bits (ints sign- or zero-extended, floats as float64), hashed as Python
 * hashes the numbers they are, compared as those numbers; or strs (RtStr
 * pointers), hashed and compared by their code points. A dict holds a
 * reference to each str key and value: inserting a new key takes one,
 * deleting an entry releases both. */
typedef struct RtDict {
  int64_t refcount;  /* first, as RtMemInfo's */
  int64_t used;      /* live entries: len(d) */
  int64_t nentries;  /* entries written, live or deleted */
  int64_t cap;       /* room for entries */
  int64_t mask;      /* the index's size less one (a power of two less one) */
  int64_t *index;    /* -1 empty, -2 a deleted entry's, else an entry number */
  char *entries;
  int64_t valsize, entsize;
  int32_t keykind, valkind;  /* TypeKinds */
  int64_t entries_mapped, index_mapped;  /* as RtList.mapped */
  RtHeld held;               /* the references in each value */
  /* A set (valkind TY_SET, no values) iterates in the order of CPython's
   * set table, which index is here (see containers.c's sets' table): */
  int64_t fill;      /* its slots in use or dummies */
  int64_t finger;    /* where pop() looks first */
  int32_t ordered;   /* the entries are the table's live ones in its order */
  int64_t changes;   /* a set's items added or removed since this was zeroed: a set argument the call left
                        unchanged is not written back (its items stay the objects they were) */
} RtDict;

/* A tuple key (key kind TY_TUPLE): its bits are a pointer to one of these,
 * each field's number as 64-bit bits as a number key's. Compiled code
 * passes one it made for the call; the dict keeps a copy of its own
 * (malloc'd, freed with the entry; rt_dict_popitem hands it to the caller).
 * A key holds as many fields as a tuple may, but one of n fields takes
 * RT_TUPLE_KEY_SIZE(n) bytes: the copies kept and the keys compiled code
 * makes have that size, not the whole struct's. */
#define RT_KEY_FIELDS TY_MAX_FIELDS
typedef struct RtKeyField {
  int32_t kind;   /* the field's TypeKind (a float's TY_F64) */
  uint64_t bits;  /* its number's bits, a str's RtStr, a tuple's or complex's RtTupleKey */
} RtKeyField;
typedef struct RtTupleKey {
  int64_t n;
  RtKeyField fields[RT_KEY_FIELDS];
} RtTupleKey;
#define RT_TUPLE_KEY_SIZE(n) (offsetof(RtTupleKey, fields) + (size_t)(n) * sizeof(RtKeyField))

/* A jitclass instance: counted as a list is, its fields after this header
 * (TY_CLASS's offsets), zeroed when made; the last release drops the
 * references its fields hold and frees it. The header lists those, as an
 * RtHeld's but packed and as many as the class has (hftbacktest's classes
 * hold twenty arrays; a linked list's node takes 64 bytes of the
 * allocator): nheld offsets, then their kinds, a byte each. */
typedef struct RtObject {
  int64_t refcount;  /* first, as RtMemInfo's */
  int32_t nheld;
  uint32_t held_offsets[];  /* then uint8_t held_kinds[nheld] */
} RtObject;
/* The header's bytes, where the fields start, for an object holding n references. */
#define RT_OBJECT_HEADER(n) ((offsetof(RtObject, held_offsets) + 5 * (size_t)(n) + 15) / 16 * 16)

#define RT_DICT_VALUE 16  /* a value's offset in its entry, after the hash and the key */
#define RT_DELETED ((int64_t)-1)  /* no number hashes to -1, in Python as here */

/* The references an item of type t holds (strs, arrays, typed containers,
 * jitclass instances; a tuple's fields' in turn): their kinds and offsets
 * after the n already given (kinds NULL: only counted), their number; -1
 * past cap (RT_HELD_FIELDS for a container's items). */
int rt_held_fields(const Type *t, int64_t at, int n, int cap, int32_t *kinds, int64_t *offsets);
/* One less of each reference an item at item holds, as h says. */
void rt_held_drop(const RtHeld *h, const char *item);
RtList *rt_list_new(int32_t kind, int64_t itemsize, int64_t cap);
int32_t rt_list_reserve(RtList *l, int64_t n);  /* room for n items: RT_OK or RT_ERR_MEMORY */
void rt_list_shrink(RtList *l);  /* a typed.List's room given back where its items fill less than half of it */
void rt_list_make_immutable(RtList *l);
int64_t rt_list_allocated(const RtList *l);  /* its room, as Numba's typed list's _allocated() */
void rt_list_free(RtList *l);
void rt_list_release(RtList *l);  /* one reference less */
RtList *rt_list_copy(const RtList *l);
/* An empty container made before its types were known ([] passed on
 * before any append: kind -1) takes them from its first insertion. */
void rt_list_settle(RtList *l, int32_t kind, int64_t itemsize);
void rt_dict_settle(RtDict *d, int32_t keykind, int32_t valkind, int64_t valsize);
/* Items (values) that are tuples holding references: where they are (n of
 * them, each field's kind and offset), set once the item type is known. */
void rt_list_hold(RtList *l, int32_t n, const int32_t *kinds, const int64_t *offsets);
void rt_dict_hold(RtDict *d, int32_t n, const int32_t *kinds, const int64_t *offsets);
/* opens a gap of one item at i (0 <= i <= len); RT_OK or RT_ERR_MEMORY */
int32_t rt_list_open(RtList *l, int64_t i);
void rt_list_close(RtList *l, int64_t i);  /* removes item i (a str item's reference goes with it to the caller) */
void rt_list_clear(RtList *l);  /* removes every item, releasing str items */
void rt_list_reverse(RtList *l);
int32_t rt_list_sort(RtList *l, int32_t reverse);
/* sorts tuples: layout holds each of nfields fields' kind and offset, compared in turn */
int32_t rt_list_sort_fields(RtList *l, int32_t reverse, int32_t nfields, const int64_t *layout);
/* sort(key=): l's items put in the order of the indices in keyed's items (at offset) */
int32_t rt_list_take_order(RtList *l, const RtList *keyed, int64_t offset);
/* heapq's functions on l's items, ordered as rt_list_sort_fields orders them;
 * item: one item's slot, read (the item pushed or given) and written (the
 * item taken out). RT_OK; RT_ERR_INDEX on an empty heap (heappop,
 * heapreplace), RT_ERR_MEMORY; the error recorded. */
int32_t rt_heapify(RtList *l, int32_t nfields, const int64_t *layout, char *item);
int32_t rt_heappush(RtList *l, int32_t nfields, const int64_t *layout, char *item);
int32_t rt_heappop(RtList *l, int32_t nfields, const int64_t *layout, char *item);
int32_t rt_heapreplace(RtList *l, int32_t nfields, const int64_t *layout, char *item);
int32_t rt_heappushpop(RtList *l, int32_t nfields, const int64_t *layout, char *item);
RtList *rt_list_concat(const RtList *a, const RtList *b);  /* a + b; NULL: no memory */
RtList *rt_list_repeat(const RtList *a, int64_t n);        /* a * n */
/* l[start:stop:step] and del l[start:stop:step] as Python's; given: bit 1
 * start, bit 2 stop given (else None). NULL or RT_ERR_VALUE when step is 0. */
RtList *rt_list_slice(const RtList *l, int64_t start, int64_t stop, int64_t step, int32_t given);
int32_t rt_list_delete_slice(RtList *l, int64_t start, int64_t stop, int64_t step, int32_t given);  /* stable, as Python's; RT_OK or RT_ERR_MEMORY */
int32_t rt_list_assign_slice(RtList *l, int64_t start, int64_t stop, int64_t step, int32_t given, const RtList *v);

/* an object of bytes (the header's included), its fields zero; NULL: no memory */
RtObject *rt_object_new(int64_t bytes, int32_t nheld, const int32_t *kinds, const int64_t *offsets);
void rt_object_free(RtObject *o);
void rt_object_release(RtObject *o);  /* one reference less */
/* an argument array (its meminfo NULL) made one that holds a reference
 * to its Python object, for a field that may outlive the call */
void rt_array_keep(RtArray *a);
bool rt_keeper_free(RtMemInfo *mi);  /* frees mi if it is a keeper's (releasing its object) */
void *rt_keeper_object(const RtMemInfo *mi);  /* the object a keeper holds, or NULL: mi is no keeper */
void rt_set_object_keeper(void (*retain)(void *obj), void (*release)(void *obj));

RtDict *rt_dict_new(int32_t keykind, int32_t valkind, int64_t valsize);
void rt_dict_free(RtDict *d);
void rt_dict_release(RtDict *d);
char *rt_dict_lookup(RtDict *d, uint64_t key);  /* the value's address, or NULL */
char *rt_dict_insert(RtDict *d, uint64_t key);  /* the value's address, new or not; NULL: no memory */
int32_t rt_dict_delete(RtDict *d, uint64_t key); /* 1 if it was there */
char *rt_dict_entry(RtDict *d, int64_t i);      /* the i-th live entry, or NULL past the end */
void rt_dict_clear(RtDict *d);
RtDict *rt_dict_copy(RtDict *d);
char *rt_dict_popitem(RtDict *d);  /* the last entry, removed (readable until the next insertion), or NULL */
int32_t rt_dict_update(RtDict *d, RtDict *e);  /* e's entries into d (one type); RT_OK or RT_ERR_MEMORY */
/* Sets: the item added or discarded as CPython's set does; RT_OK or RT_ERR_MEMORY, 1 if it was there */
int32_t rt_set_add(RtDict *s, uint64_t key);
int32_t rt_set_discard(RtDict *s, uint64_t key);
void rt_set_shrink(RtDict *s);  /* the table rebuilt without its dummies once they are over a quarter of it */
void rt_set_swap(RtDict *a, RtDict *b);  /* the two sets' items exchanged (each keeps its identity) */
/* the i-th item of s in the order it was inserted (a set no item left since: made from a sequence) */
uint64_t rt_set_inserted(RtDict *s, int64_t i);
/* s given the layout of the CPython set table its items came from in order (see containers.c) */
int32_t rt_set_mirror(RtDict *s, int64_t size, const int64_t *slots, int64_t finger);
int64_t rt_number_hash(int32_t kind, uint64_t key);  /* Python's hash() of the number (of a key of kind) */
int64_t rt_tuple_hash(const int64_t *hashes, int64_t n);  /* Python's hash() of a tuple whose items hash to these */
void rt_key_error(int32_t kind, uint64_t key);  /* KeyError(key), as compiled code raises it */
void rt_tuple_key_free(RtTupleKey *t);  /* a tuple key rt_dict_popitem handed over */

#endif
