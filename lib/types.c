/* types.c — ruchey's types, interned.
 *
 * Every type is made once: a constructor asked for a type that exists
 * returns the existing object, so equal types are the same pointer and a
 * type's name, size, alignment and field offsets (the data model the
 * lowering, the boxing and the unboxing all read) are computed once, here.
 * Types live as long as the process, as the code compiled for them does;
 * the extension reaches these constructors through RucheyAPI, so there is
 * one table in the process.
 */
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "containers.h"

/* ---------------------------------------------------------------- kinds */

static const struct { const char *name; unsigned flags; int bits; } kinds[TY_COUNT] = {
#define X(kind, name, flags, bits) [TY_##kind] = {name, flags, bits},
#include "types.def"
#undef X
};

#define PART_BITS(k) (kinds[k].flags & TF_COMPLEX ? kinds[k].bits / 2 : kinds[k].bits)
#define PLAIN(k) [k] = {.kind = (k), .flags = kinds[k].flags, .bits = kinds[k].bits,        \
                        .size = (size_t)kinds[k].bits / 8, .align = PART_BITS(k) ? (size_t)PART_BITS(k) / 8 : 1, \
                        .name = kinds[k].name}
const Type ty_plain[TY_COUNT] = {
  PLAIN(TY_BOOL), PLAIN(TY_I8), PLAIN(TY_I16), PLAIN(TY_I32), PLAIN(TY_I64),
  PLAIN(TY_U8), PLAIN(TY_U16), PLAIN(TY_U32), PLAIN(TY_U64), PLAIN(TY_F32), PLAIN(TY_F64),
  PLAIN(TY_C64), PLAIN(TY_C128), PLAIN(TY_F16),
  [TY_DATETIME] = {.kind = TY_DATETIME, .flags = TF_SCALAR | TF_SIGNED | TF_TIME, .bits = 64, .unit = TU_GENERIC, .size = 8,
                   .align = 8, .name = "datetime64"},
  [TY_TIMEDELTA] = {.kind = TY_TIMEDELTA, .flags = TF_SCALAR | TF_SIGNED | TF_TIME, .bits = 64, .unit = TU_GENERIC, .size = 8,
                    .align = 8, .name = "timedelta64"},
  PLAIN(TY_NONE), PLAIN(TY_MODULE), PLAIN(TY_GRID), PLAIN(TY_GENERATOR), PLAIN(TY_PYOBJECT), PLAIN(TY_ELLIPSIS),
  PLAIN(TY_MEMINFO), PLAIN(TY_BITGEN),
  [TY_RANGE] = {.kind = TY_RANGE, .size = 3 * sizeof(int64_t), .align = sizeof(int64_t), .name = "range"},
  [TY_STR] = {.kind = TY_STR, .flags = TF_REFS, .size = sizeof(void *), .align = sizeof(void *), .name = "unicode_type"},
  /* bytes: an array's data model, so that the array code reads its length and items */
  [TY_BYTES] = {.kind = TY_BYTES, .flags = TF_REFS, .elem = &ty_plain[TY_U8], .ndim = 1, .layout = 'C', .readonly = true,
                .size = sizeof(RtArray), .align = _Alignof(RtArray), .name = "readonly bytes(uint8, 1d, C)"},
};
#undef PLAIN
#undef PART_BITS

/* ---------------------------------------------------------------- the table */

/* All made types, in a hash table keyed by their parts (themselves
 * interned, so compared by address); the memory is never freed. Compiles
 * type under the GIL but lower without it, so the table has a lock. */
static struct {
  pthread_mutex_t lock;
  Arena arena;
  Type **buckets;
  size_t nbuckets, count;
} T = {PTHREAD_MUTEX_INITIALIZER};

static size_t hash_parts(const Type *k) {
  size_t h = (size_t)k->kind * 0x9e3779b97f4a7c15u;
  if (k->kind == TY_CLASS) return h ^ (uintptr_t)k->callee;  /* one type per class, its fields given later */
  h ^= (uintptr_t)k->elem + ((size_t)k->ndim << 8) + ((size_t)k->layout << 16) + ((size_t)k->readonly << 24);
  h ^= (uintptr_t)k->callee + (size_t)k->unit * 0x100000001b3u;
  for (int i = 0; i < k->nfields; i++) h = h * 31 + (uintptr_t)k->fields[i];
  if (k->kind == TY_RECORD)
    for (int i = 0; i < k->nfields; i++) h = h * 31 + k->offsets[i] + strlen(k->names[i]);
  if (k->kind == TY_LITDICT)
    for (int i = 0; i < k->nfields; i++) h = h * 31 + strlen(k->names[i]);
  return h ^ (h >> 29);
}

/* Two fields' titles alike: both none, or the same. */
static bool same_title(const Type *a, const Type *b, int i) {
  const char *x = a->titles ? a->titles[i] : NULL, *y = b->titles ? b->titles[i] : NULL;
  return x == y || (x && y && !strcmp(x, y));
}

/* Field i of records a and b alike: its type, name, title, place and shape. */
static bool same_field(const Type *a, const Type *b, int i) {
  return a->fields[i] == b->fields[i] && a->offsets[i] == b->offsets[i] && !strcmp(a->names[i], b->names[i]) &&
         same_title(a, b, i) &&
         !memcmp(&a->shapes[i * RC_MAX_NDIM], &b->shapes[i * RC_MAX_NDIM], sizeof(int64_t) * RC_MAX_NDIM);
}

/* Records differ also by their fields' names, titles and places and their size. */
static bool same_record(const Type *a, const Type *b) {
  if (a->size != b->size || a->align != b->align) return false;
  for (int i = 0; i < a->nfields; i++)
    if (!same_field(a, b, i)) return false;
  return true;
}

bool ty_record_subtype(const Type *want, const Type *have) {
  if (want->kind != TY_RECORD || have->kind != TY_RECORD || have->nfields < want->nfields) return false;
  for (int i = 0; i < want->nfields; i++)
    if (!same_field(want, have, i)) return false;
  return true;
}

static bool same_parts(const Type *a, const Type *b) {
  if (a->kind == TY_CLASS || b->kind == TY_CLASS) return a->kind == b->kind && a->callee == b->callee;
  if (a->kind != b->kind || a->elem != b->elem || a->ndim != b->ndim || a->layout != b->layout ||
      a->readonly != b->readonly || a->nfields != b->nfields || a->callee != b->callee || a->unit != b->unit)
    return false;
  for (int i = 0; i < a->nfields; i++)
    if (a->fields[i] != b->fields[i] || (a->kind == TY_LITDICT && strcmp(a->names[i], b->names[i]))) return false;
  return a->kind != TY_RECORD || same_record(a, b);
}

/* Open addressing, grown at half full. */
static Type **slot_of(const Type *key, size_t h) {
  for (size_t i = h & (T.nbuckets - 1);; i = (i + 1) & (T.nbuckets - 1))
    if (!T.buckets[i] || same_parts(T.buckets[i], key)) return &T.buckets[i];
}

static void grow(void) {
  Type **old = T.buckets;
  size_t n = T.nbuckets;
  T.nbuckets = n ? n * 2 : 256;
  T.buckets = calloc(T.nbuckets, sizeof(Type *));
  if (!T.buckets) abort();
  for (size_t i = 0; i < n; i++)
    if (old[i]) *slot_of(old[i], hash_parts(old[i])) = old[i];
  free(old);
}

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = arena_alloc(&T.arena, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* A record is held as a pointer to its bytes; as an array element it is
 * its bytes (bits, as a scalar's, gives the arrays' element size). Its
 * name is Numba's: Record(x[type=float64;offset=0],...;size;aligned). */
static void complete_record(Type *t) {
  const char **names = arena_alloc(&T.arena, sizeof(char *) * (size_t)t->nfields);
  const char **titles = t->titles ? arena_alloc(&T.arena, sizeof(char *) * (size_t)t->nfields) : NULL;
  size_t *offsets = arena_alloc(&T.arena, sizeof(size_t) * (size_t)t->nfields), len = 32;
  int64_t *shapes = arena_alloc(&T.arena, sizeof(int64_t) * RC_MAX_NDIM * (size_t)t->nfields);
  memcpy(shapes, t->shapes, sizeof(int64_t) * RC_MAX_NDIM * (size_t)t->nfields);
  for (int i = 0; i < t->nfields; i++) {
    names[i] = format("%s", t->names[i]);
    if (titles) titles[i] = t->titles[i] ? format("%s", t->titles[i]) : NULL;
    offsets[i] = t->offsets[i];
    len += strlen(names[i]) + strlen(t->fields[i]->name) + 40 + 22 * RC_MAX_NDIM;
    if (titles && titles[i]) len += strlen(titles[i]) + 8;
  }
  t->names = names;
  t->titles = titles;
  t->offsets = offsets;
  t->shapes = shapes;
  t->bits = (int)t->size * 8;
  char *name = arena_alloc(&T.arena, len), *p = name;
  p += sprintf(p, "Record(");
  for (int i = 0; i < t->nfields; i++) {
    const Type *f = t->fields[i];
    p += sprintf(p, "%s%s[type=", i ? "," : "", names[i]);
    if (f->kind == TY_ARRAY) {  /* a sub-array: Numba's nestedarray(float64, (3,)) */
      p += sprintf(p, "nestedarray(%s, (", f->elem->name);
      for (int d = 0; d < f->ndim; d++) p += sprintf(p, "%s%lld", d ? ", " : "", (long long)shapes[i * RC_MAX_NDIM + d]);
      p += sprintf(p, f->ndim == 1 ? ",))" : "))");
    } else {
      p += sprintf(p, "%s", f->name);
    }
    p += sprintf(p, ";offset=%zu", offsets[i]);
    p += titles && titles[i] ? sprintf(p, ";title=%s]", titles[i]) : sprintf(p, "]");
  }
  sprintf(p, ";%zu;%s)", t->size, t->align > 1 ? "True" : "False");
  t->name = name;
}

/* A jitclass instance is held as a pointer to its RtObject, whatever its
 * fields: a class is declared (its name only, no offsets yet) before its
 * fields are given, so that a field may hold the class itself (a linked
 * list's next). */
static void declare_jitclass(Type *t) {
  const char **names = arena_alloc(&T.arena, sizeof(char *));
  names[0] = format("%s", t->names[0]);
  t->names = names;
  t->size = t->align = sizeof(void *);
  t->bits = (int)RT_OBJECT_HEADER(0);
  t->name = format("instance.jitclass.%s", names[0]);
}

/* Its fields lie after the object's header, laid out as a tuple's. Its
 * name is then Numba's: instance.jitclass.Point<x:float64,y:float64>. */
static void define_jitclass(Type *t, int n, const Type *const *fields, const char *const *names) {
  const Type **fs = arena_alloc(&T.arena, sizeof(Type *) * (size_t)(n ? n : 1));
  const char **ns = arena_alloc(&T.arena, sizeof(char *) * (size_t)(n + 1));
  size_t *offsets = arena_alloc(&T.arena, sizeof(size_t) * (size_t)(n ? n : 1));
  int nheld = 0;
  for (int i = 0; i < n; i++) nheld = rt_held_fields(fields[i], 0, nheld, INT_MAX, NULL, NULL);
  size_t off = RT_OBJECT_HEADER(nheld), len = 32;
  ns[n] = t->names[0];
  for (int i = 0; i <= n; i++) len += strlen(ns[i] = i < n ? format("%s", names[i]) : ns[i]) + 2;
  for (int i = 0; i < n; i++) {
    const Type *f = fs[i] = fields[i];
    off = (off + f->align - 1) / f->align * f->align;
    offsets[i] = off;
    off += f->size;
    len += strlen(f->name);
  }
  char *name = arena_alloc(&T.arena, len), *p = name;
  p += sprintf(p, "instance.jitclass.%s<", ns[n]);
  for (int i = 0; i < n; i++) p += sprintf(p, "%s%s:%s", i ? "," : "", ns[i], fs[i]->name);
  sprintf(p, ">");
  t->fields = fs;
  t->names = ns;
  t->bits = (int)off;  /* the object's bytes */
  t->name = name;
  t->offsets = offsets;  /* last: a class with offsets is defined */
  t->nfields = n;
}

static const char *funcptr_name(const Type *t) {
  size_t len = strlen(t->elem->name) + 20;
  for (int i = 0; i < t->nfields; i++) len += strlen(t->fields[i]->name) + 2;
  char *name = arena_alloc(&T.arena, len), *p = name;
  p += sprintf(p, "FunctionType[%s(", t->elem->name);
  for (int i = 0; i < t->nfields; i++) p += sprintf(p, "%s%s", i ? ", " : "", t->fields[i]->name);
  strcpy(p, ")]");
  return name;
}

/* A tuple's data model: its fields one after another, each aligned, as
 * LLVM lays out a struct; the length of the fields' names, for its own. */
static size_t lay_out_fields(Type *t) {
  size_t *offsets = arena_alloc(&T.arena, sizeof(size_t) * (size_t)(t->nfields ? t->nfields : 1));
  size_t off = 0, align = 1, len = 0;
  for (int i = 0; i < t->nfields; i++) {
    const Type *f = t->fields[i];
    off = (off + f->align - 1) / f->align * f->align;
    offsets[i] = off;
    off += f->size;
    if (f->align > align) align = f->align;
    t->flags |= f->flags & TF_REFS;
    len += strlen(f->name) + 2;
  }
  t->offsets = offsets;
  t->align = align;
  t->size = (off + align - 1) / align * align;
  return len;
}

/* A literal dict: laid out as the tuple of its values, its keys kept;
 * named as Numba's LiteralStrKey[Dict]({'a': int64, 'b': unicode_type}). */
static void complete_literal_dict(Type *t) {
  size_t len = lay_out_fields(t) + 32;
  const char **keys = arena_alloc(&T.arena, sizeof(char *) * (size_t)(t->nfields ? t->nfields : 1));
  for (int i = 0; i < t->nfields; i++) len += strlen(keys[i] = format("%s", t->names[i])) + 6;
  t->names = keys;
  char *name = arena_alloc(&T.arena, len), *p = name;
  p += sprintf(p, "%s({", kinds[TY_LITDICT].name);
  for (int i = 0; i < t->nfields; i++) p += sprintf(p, "%s'%s': %s", i ? ", " : "", keys[i], t->fields[i]->name);
  strcpy(p, "})");
  t->name = name;
}

static const char *const module_names[] = {[MOD_NUMPY] = "numpy", [MOD_MATH] = "math"};

/* An array type's name, from the parts a.flags' type shares with it. */
static const char *array_name(const Type *t) {
  return format("%s%s(%s, %dd, %c)", t->readonly ? "readonly " : "",
                t->unit == 'B' ? "bytearray" : t->unit == 'M' ? "memoryview" : t->unit == 'P' ? "array.array" : "array",
                t->elem->name, t->ndim, t->layout);
}

/* The name and data model of a new type (key's parts filled in). */
static void complete(Type *t) {
  t->flags = kinds[t->kind].flags;
  switch (t->kind) {
  case TY_ARRAY:
    t->size = sizeof(RtArray);
    t->align = _Alignof(RtArray);
    t->name = array_name(t);
    break;
  case TY_CTYPES:  /* its array's; named as Numba's */
    t->size = sizeof(RtArray);
    t->align = _Alignof(RtArray);
    t->name = format("ArrayCTypes(dtype=%s, ndim=%d)", t->elem->name, t->ndim);
    break;
  case TY_FLAGS:  /* its array's; named as Numba's, after the array's type */
    t->size = sizeof(RtArray);
    t->align = _Alignof(RtArray);
    t->name = format("ArrayFlags(%s)", array_name(t));
    break;
  case TY_FUNCTION:  /* no value at run time: the callee is in the type */
    t->align = 1;
    t->name = format("function(%s)", t->name);
    break;
  case TY_DTYPE:
    t->align = 1;
    t->name = format("dtype(%s)", t->elem->name);
    break;
  case TY_INFO:
    t->align = 1;
    t->name = format("numpy.%s(%s)", ty_is_int(t->elem) ? "iinfo" : "finfo", t->elem->name);
    break;
  case TY_LITDICT:
    complete_literal_dict(t);
    break;
  case TY_TUPLE: {
    size_t len = lay_out_fields(t) + 3;
    if (t->callee) {  /* a named tuple: Point(x=float64, y=float64) */
      const char **names = arena_alloc(&T.arena, sizeof(char *) * (size_t)(t->nfields + 1));
      for (int i = 0; i <= t->nfields; i++) len += strlen(names[i] = format("%s", t->names[i])) + 1;
      t->names = names;
    }
    char *name = arena_alloc(&T.arena, len + 16), *p = name;
    if (t->callee) p += sprintf(p, "%s", t->names[t->nfields]);
    if (t->unit == 'L') p += sprintf(p, "LiteralList(");  /* Numba's name: LiteralList((unicode_type, int64)) */
    *p++ = '(';
    for (int i = 0; i < t->nfields; i++)
      p += sprintf(p, "%s%s%s%s", i ? ", " : "", t->callee ? t->names[i] : "", t->callee ? "=" : "", t->fields[i]->name);
    strcpy(p, t->nfields == 1 && !t->callee ? ",)" : ")");
    if (t->unit == 'L') strcat(p, ")");
    t->name = name;
    break;
  }
  case TY_DATETIME: case TY_TIMEDELTA:  /* Numba's names: datetime64[ns], timedelta64 for the generic unit */
    t->bits = 64;
    t->size = t->align = 8;
    t->name = t->unit == TU_GENERIC ? kinds[t->kind].name : format("%s[%s]", kinds[t->kind].name, ty_unit_name(t->unit));
    break;
  case TY_RECORD:
    complete_record(t);
    break;
  case TY_CHARSEQ:  /* Numba's name: [unichr x 2] */
    t->bits = 32 * t->unit;
    t->size = 4 * (size_t)t->unit;
    t->align = 4;
    t->name = format("[unichr x %d]", t->unit);
    break;
  case TY_BYTESEQ:  /* Numba's name: [char x 2] */
    t->bits = 8 * t->unit;
    t->size = (size_t)t->unit;
    t->align = 1;
    t->name = format("[char x %d]", t->unit);
    break;
  case TY_MODULE:  /* Numba's name: Module(<module 'numpy' ...>) */
    if (t->unit) t->name = format("Module(%s)", module_names[t->unit - 1]);
    break;
  case TY_SLICE:  /* three int64, as a range; named as Numba's slice<a:b:c>, a part left out blank */
    t->size = 3 * sizeof(int64_t);
    t->align = sizeof(int64_t);
    t->name = format("slice<%s:%s%s>", t->unit & SLICE_START ? "a" : "", t->unit & SLICE_STOP ? "b" : "",
                     t->unit & SLICE_STEP ? ":c" : "");
    break;
  case TY_OPTIONAL:  /* laid out as the tuple (elem, bool): the flag after the value */
    t->flags |= t->elem->flags & TF_REFS;
    t->align = t->elem->align;
    t->size = (t->elem->size + 1 + t->align - 1) / t->align * t->align;
    t->name = format("OptionalType(%s)", t->elem->name);
    break;
  case TY_LIST:  /* a pointer to the RtList */
    t->size = t->align = sizeof(void *);
    t->name = format("ListType[%s]", t->elem ? t->elem->name : "undefined");
    break;
  case TY_DICT:
    t->size = t->align = sizeof(void *);
    t->name = t->nfields ? format("DictType[%s,%s]", t->fields[0]->name, t->fields[1]->name)
                        : format("DictType[undefined,undefined]");
    break;
  case TY_DICTVIEW:  /* the dict's pointer; named as Numba's keys[DictType[int64,float64]] */
    t->size = t->align = sizeof(void *);
    t->name = format("%s[%s]", t->unit == 1 ? "values" : t->unit == 2 ? "items" : "keys", t->elem->name);
    break;
  case TY_CLASS:
    declare_jitclass(t);
    break;
  case TY_YIELDS:  /* a pointer to the generator's state */
    t->size = t->align = sizeof(void *);
    t->name = format("generator(%s)", t->elem->name);
    break;
  case TY_BOUND:  /* its object's pointer; Numba's name, BoundFunction(Point.norm) */
    t->size = t->align = sizeof(void *);
    t->name = format("BoundFunction(%s.%s)", t->elem->names[t->elem->nfields], t->name);
    break;
  case TY_FUNCPTR:  /* the address of the function's entry: Numba's name, FunctionType[float64(float64, float64)] */
    t->size = t->align = sizeof(void *);
    t->name = funcptr_name(t);
    break;
  case TY_FUNCS: {  /* the number of the function it is: functions(square, cube) */
    size_t len = 16;
    for (int i = 0; i < t->nfields; i++) len += strlen(t->fields[i]->name) + 2;
    char *name = arena_alloc(&T.arena, len), *p = name;
    p += sprintf(p, "functions(");
    for (int i = 0; i < t->nfields; i++) {  /* each member's name, function(square), without its parentheses */
      const char *member = t->fields[i]->name + strlen("function(");
      p += sprintf(p, "%s%.*s", i ? ", " : "", (int)strlen(member) - 1, member);
    }
    strcpy(p, ")");
    t->bits = 64;
    t->size = t->align = sizeof(int64_t);
    t->name = name;
    break;
  }
  case TY_ENUM: case TY_INTENUM:  /* held as its value; Numba's name: Enum<int64>(Color) */
    t->flags |= t->elem->flags & TF_REFS;
    t->bits = t->elem->bits;
    t->size = t->elem->size;
    t->align = t->elem->align;
    t->name = format("%s<%s>(%s)", kinds[t->kind].name, t->elem->name, t->name);
    break;
  case TY_SET:  /* a pointer to the RtDict of its items */
    t->size = t->align = sizeof(void *);
    t->name = format("set(%s)", t->nfields ? t->fields[0]->name : "undefined");
    break;
  default: break;
  }
}

/* The interned type with key's parts. */
static const Type *intern(const Type *key) {
  pthread_mutex_lock(&T.lock);
  if (2 * (T.count + 1) > T.nbuckets) grow();
  Type **slot = slot_of(key, hash_parts(key));
  if (!*slot) {
    Type *t = arena_alloc(&T.arena, sizeof(Type));
    *t = *key;
    if (key->nfields) {
      const Type **fields = arena_alloc(&T.arena, sizeof(Type *) * (size_t)key->nfields);
      memcpy(fields, key->fields, sizeof(Type *) * (size_t)key->nfields);
      t->fields = fields;
    }
    complete(t);
    *slot = t;
    T.count++;
  }
  const Type *t = *slot;
  pthread_mutex_unlock(&T.lock);
  return t;
}

const Type *ty_array(const Type *elem, int ndim, char layout, bool readonly) {
  return intern(&(Type){.kind = TY_ARRAY, .elem = elem, .ndim = ndim, .layout = layout, .readonly = readonly});
}

const Type *ty_buffer(const Type *a, char kind) {
  return intern(&(Type){.kind = TY_ARRAY, .elem = a->elem, .ndim = a->ndim, .layout = a->layout, .readonly = a->readonly,
                        .unit = kind});
}

const Type *ty_tuple(int n, const Type *const *fields) {
  return intern(&(Type){.kind = TY_TUPLE, .nfields = n, .fields = fields});
}

const Type *ty_tuple_repeat(int n, const Type *const *fields, int times) {
  int count = n * times;
  const Type **f = malloc(sizeof(Type *) * (size_t)(count ? count : 1));
  if (!f) abort();
  for (int i = 0; i < count; i++) f[i] = fields[i % n];
  const Type *t = ty_tuple(count, f);  /* (interning copies the fields) */
  free(f);
  return t;
}

const Type *ty_literal_list(int n, const Type *const *fields) {
  return intern(&(Type){.kind = TY_TUPLE, .nfields = n, .fields = fields, .unit = 'L'});
}

const Type *ty_literal_dict(int n, const Type *const *fields, const char *const *keys) {
  return intern(&(Type){.kind = TY_LITDICT, .nfields = n, .fields = fields, .names = keys});
}

const Type *ty_named_tuple(int n, const Type *const *fields, const char *const *names, const void *cls) {
  return intern(&(Type){.kind = TY_TUPLE, .nfields = n, .fields = fields, .names = names, .callee = cls});
}

/* One type per class, named name; its fields are given by ty_jitclass_define. */
const Type *ty_jitclass_declare(const char *name, const void *cls) {
  return intern(&(Type){.kind = TY_CLASS, .names = &name, .callee = cls});
}

/* The fields of a declared class (n + 1 names: the class's last, unused);
 * once only: a second call leaves them. */
void ty_jitclass_define(const Type *t, int n, const Type *const *fields, const char *const *names) {
  pthread_mutex_lock(&T.lock);
  if (t->kind == TY_CLASS && !t->offsets) define_jitclass((Type *)t, n, fields, names);
  pthread_mutex_unlock(&T.lock);
}

static const char *const unit_names[TU_COUNT] = {
  [TU_Y] = "Y", [TU_M] = "M", [TU_W] = "W", [TU_D] = "D", [TU_h] = "h", [TU_m] = "m", [TU_s] = "s",
  [TU_ms] = "ms", [TU_us] = "us", [TU_ns] = "ns", [TU_ps] = "ps", [TU_fs] = "fs", [TU_as] = "as", [TU_GENERIC] = "",
};

const char *ty_unit_name(int unit) { return unit >= 0 && unit < TU_COUNT ? unit_names[unit] : NULL; }

/* The generic unit is the plain kind's, so that TYS(TY_DATETIME) is datetime64. */
const Type *ty_time(TypeKind kind, int unit) {
  if (unit == TU_GENERIC) return TYS(kind);
  return intern(&(Type){.kind = kind, .unit = unit});
}

const Type *ty_charseq(int n) { return intern(&(Type){.kind = TY_CHARSEQ, .unit = n}); }

const Type *ty_byteseq(int n) { return intern(&(Type){.kind = TY_BYTESEQ, .unit = n}); }

/* unit: the id plus one, so that the plain kind's (unit 0) is no module's */
const Type *ty_module(ModuleId id) { return intern(&(Type){.kind = TY_MODULE, .unit = (int)id + 1}); }

const char *ty_module_name(const Type *t) {
  return t->kind == TY_MODULE && t->unit > 0 ? module_names[t->unit - 1] : NULL;
}

const Type *ty_ctypes(const Type *array) {
  return intern(&(Type){.kind = TY_CTYPES, .elem = array->elem, .ndim = array->ndim, .layout = array->layout,
                        .readonly = array->readonly});
}

const Type *ty_flags_of(const Type *array) {
  return intern(&(Type){.kind = TY_FLAGS, .elem = array->elem, .ndim = array->ndim, .layout = array->layout,
                        .readonly = array->readonly, .unit = array->unit});
}

const Type *ty_slice(int given) { return intern(&(Type){.kind = TY_SLICE, .unit = given}); }

const Type *ty_dtype(const Type *elem) { return intern(&(Type){.kind = TY_DTYPE, .elem = elem}); }

const Type *ty_info(const Type *elem) { return intern(&(Type){.kind = TY_INFO, .elem = elem}); }

/* Optional(elem): elem or None, as Numba's OptionalType; Optional of an
 * Optional is the same. */
const Type *ty_optional(const Type *elem) {
  if (elem->kind == TY_OPTIONAL) return elem;
  return intern(&(Type){.kind = TY_OPTIONAL, .elem = elem});
}

const Type *ty_function(const void *callee, const char *name) {
  return intern(&(Type){.kind = TY_FUNCTION, .callee = callee, .name = name});
}

const Type *ty_bound_method(const Type *cls, const void *method, const char *name) {
  return intern(&(Type){.kind = TY_BOUND, .elem = cls, .callee = method, .name = name});
}

/* A first-class function of this signature: whatever compiled function
 * it holds at run time, called through its address. */
const Type *ty_funcptr(const Type *ret, int n, const Type *const *params) {
  return intern(&(Type){.kind = TY_FUNCPTR, .elem = ret, .nfields = n, .fields = params});
}

const Type *ty_funcs(int n, const Type *const *members) {
  return intern(&(Type){.kind = TY_FUNCS, .nfields = n, .fields = members});
}

const Type *ty_list(const Type *item) { return intern(&(Type){.kind = TY_LIST, .elem = item}); }

const Type *ty_dict(const Type *key, const Type *value) {
  const Type *kv[2] = {key, value};
  return intern(&(Type){.kind = TY_DICT, .nfields = key ? 2 : 0, .fields = key ? kv : NULL});
}

/* A dict's keys, values or items, seen through the dict itself (Numba's
 * DictKeysIterableType and its siblings): what it holds now, not when made. */
const Type *ty_dict_view(const Type *dict, int part) {
  return intern(&(Type){.kind = TY_DICTVIEW, .elem = dict, .unit = part});
}

/* A set is a dict of its items to nothing: the runtime's dict code serves it. */
const Type *ty_set_of(const Type *item) {
  const Type *kv[2] = {item, TYS(TY_NONE)};
  return intern(&(Type){.kind = TY_SET, .nfields = item ? 2 : 0, .fields = item ? kv : NULL});
}

/* One type per enum class and its values' type, as Numba's EnumMember. */
const Type *ty_enum(TypeKind kind, const Type *value, const void *cls, const char *name, int n,
                    const int64_t *values, const char *const *texts) {
  return intern(&(Type){.kind = kind, .elem = value, .callee = cls, .name = name, .nmembers = n, .shapes = values,
                        .texts = texts});
}

/* Generator objects are typed by what they yield alone: their state's
 * header names the functions that resume and release it. */
const Type *ty_yields(const Type *item) { return intern(&(Type){.kind = TY_YIELDS, .elem = item}); }

const Type *ty_record(int n, const Type *const *fields, const char *const *names, const char *const *titles,
                      const size_t *offsets, const int64_t *shapes, size_t size, size_t align) {
  return intern(&(Type){.kind = TY_RECORD, .nfields = n, .fields = fields, .names = names, .titles = titles,
                        .offsets = offsets, .shapes = shapes, .size = size, .align = align});
}
