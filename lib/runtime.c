/* runtime.c — what compiled code calls: array memory and error reporting
 * (and the thread pool of pool.c, registered here with the rest).
 *
 * Array memory is one block: the RtMemInfo header, then the data aligned to
 * 64 bytes (a cache line, and the widest vector) within it. The reference count is
 * changed atomically by compiled code; the last release frees the block.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* pthread_getattr_np */
#endif
#include <malloc.h>  /* malloc_usable_size */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "containers.h"
#include "rtstr.h"

#define DATA_ALIGN 64

/* Bytes past an array's end that stay ours, as Numba's allocator leaves
 * them (NRT's aligned allocation asks for size + 2 * 32 bytes and starts
 * the data at most 32 in): code written for Numba, which checks no index,
 * may write a few elements past an array's end where the result is never
 * read (thewalrus' charpoly of a 1x1 matrix fills c[1, 1] of a 1x1 c),
 * and under Numba that lands in the slack, not on malloc's bookkeeping. */
#define NUMBA_SLACK 32

/* As NumPy does, large arrays ask for transparent huge pages (the kernel's
 * "madvise" mode): a fresh 8 MB result then faults a few times, not 2048
 * times (filling one took 4 ms instead of 1 once the C library had handed
 * the memory back to the system). */
static void advise_huge_pages(void *p, size_t n) {
#ifdef MADV_HUGEPAGE
  if (n < ((size_t)4 << 20)) return;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1), hi = ((uintptr_t)p + n) & ~(page - 1);
  if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#endif
}

/* The last large block freed, kept for the next large array of about its
 * size: a function called over and over for a fresh 8 MB result then
 * writes memory already mapped. Freed, the C library hands such a block
 * back to the system as soon as its heap's top grows past a threshold
 * (NumPy's temporaries between the calls do that), and each call then
 * faulted the pages in again and had the system zero them. One block at
 * most, of at most SPARE_MAX bytes, is kept. */
#define SPARE_MIN ((size_t)4 << 20)
#define SPARE_MAX ((size_t)256 << 20)
static RtMemInfo *spare;

static RtMemInfo *take_spare(size_t bytes) {
  if (bytes < SPARE_MIN || !__atomic_load_n(&spare, __ATOMIC_RELAXED)) return NULL;
  RtMemInfo *mi = __atomic_exchange_n(&spare, NULL, __ATOMIC_ACQ_REL);
  if (!mi) return NULL;
  size_t room = malloc_usable_size(mi);
  if (room >= bytes && room - bytes <= bytes / 8) return mi;
  free(mi);
  return NULL;
}

/* Where a large array's data starts: at the start of a page. NumPy's large
 * arrays start 16 bytes into one (malloc's header), and a result that
 * starts a little further into its page than its operands is written
 * where the CPU takes the next loads to depend on the stores before them
 * (the same address within a page, 4K aliasing): 64 bytes in, arr_sum's
 * loop over 1M float64 took 1.06x NumPy's x + y with the same loop on
 * operands and results that all start alike. At a page's start, no load
 * of an operand further in follows a store to the same place. */
#define LARGE_ALIGN ((size_t)4096)

static size_t data_align(int64_t nbytes) { return (size_t)nbytes >= SPARE_MIN ? LARGE_ALIGN : DATA_ALIGN; }

/* Python's tracemalloc, told of each block made and freed only while it
 * traces (ruchey/__init__.py follows its start and stop): null otherwise,
 * one test per array. */
static void (*memory_made)(void *block, size_t bytes);
static void (*memory_freed)(void *block);

void rt_set_memory_hooks(void (*made)(void *block, size_t bytes), void (*freed)(void *block)) {
  __atomic_store_n(&memory_made, made, __ATOMIC_RELAXED);  /* (set while pool threads may make arrays) */
  __atomic_store_n(&memory_freed, freed, __ATOMIC_RELAXED);
}

RtMemInfo *rt_alloc(int64_t nbytes) {
  /* malloc and align by hand: aligned_alloc costs five times malloc's
   * time, which a loop making small arrays pays on every one */
  if (nbytes < 0 || (uint64_t)nbytes > SIZE_MAX / 2) return NULL;
  size_t align = data_align(nbytes);
  size_t bytes = sizeof(RtMemInfo) + align - 1 + (size_t)nbytes + NUMBA_SLACK;
  RtMemInfo *mi = take_spare(bytes);
  bool fresh = !mi;
  if (fresh && !(mi = malloc(bytes))) return NULL;
  mi->refcount = 1;
  mi->dtor = NULL;
  mi->data = (void *)(((uintptr_t)(mi + 1) + align - 1) & ~(uintptr_t)(align - 1));
  if (fresh) advise_huge_pages(mi->data, (size_t)nbytes);
  void (*made)(void *, size_t) = __atomic_load_n(&memory_made, __ATOMIC_RELAXED);
  if (made) made(mi, bytes);  /* (a spare block too: it was told freed when kept) */
  return mi;
}

/* The block of a new array of ndim dimensions of the given shape, checked
 * as NumPy checks them: negative dimensions, then a size times itemsize
 * past int64 (a dimension of 0 makes the array empty whatever the others
 * are). This is the one place arrays are sized, so no builtin can wrap a
 * size into a small block; compiled code calls it rather than repeating
 * the checks and their errors wherever it makes an array. In *out; 0, or
 * the status of the error set. */
int32_t rt_alloc_array(int32_t ndim, const int64_t *shape, int64_t itemsize, RtMemInfo **out) {
  bool negative = false, over = false, empty = false;
  int64_t nbytes = itemsize;
  for (int32_t d = 0; d < ndim; d++) {
    negative |= shape[d] < 0;
    empty |= shape[d] == 0;
    over |= __builtin_mul_overflow(nbytes, shape[d] ? shape[d] : 1, &nbytes);
  }
  if (negative) {
    rt_set_error(RT_ERR_VALUE, "negative dimensions are not allowed");
    return RT_ERR_VALUE;
  }
  if (over) {
    rt_set_error(RT_ERR_VALUE,
                 "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
    return RT_ERR_VALUE;
  }
  if (!(*out = rt_alloc(empty ? 0 : nbytes))) {
    rt_set_error(RT_ERR_MEMORY, "cannot allocate array");
    return RT_ERR_MEMORY;
  }
  return RT_OK;
}

/* Called by compiled code when the count reaches zero. */
void rt_meminfo_free(RtMemInfo *mi) {
  if (rt_keeper_free(mi) || rt_meminfo_dtor_free(mi)) return;
  void (*freed)(void *) = __atomic_load_n(&memory_freed, __ATOMIC_RELAXED);
  if (freed) freed(mi);
  size_t room = malloc_usable_size(mi);
  if (room >= SPARE_MIN && room <= SPARE_MAX) mi = __atomic_exchange_n(&spare, mi, __ATOMIC_ACQ_REL);
  free(mi);
}

RtGenState *rt_gen_new(int64_t nbytes) {
  size_t size = ((size_t)nbytes + RT_GEN_ALIGN - 1) / RT_GEN_ALIGN * RT_GEN_ALIGN;
  RtGenState *s = aligned_alloc(RT_GEN_ALIGN, size);
  if (!s) {
    rt_set_error(RT_ERR_MEMORY, "cannot allocate a generator");
    return NULL;
  }
  return memset(s, 0, size);
}

void rt_gen_free(RtGenState *s) {
  s->drop(s);
  free(s);
}

/* Called by the extension when the Python object owning a reference dies. */
void rt_meminfo_release(RtMemInfo *mi) {
  if (__atomic_sub_fetch(&mi->refcount, 1, __ATOMIC_ACQ_REL) == 0) rt_meminfo_free(mi);
}

/* ---------------------------------------------------------------- device functions' shared arrays */

/* A device function's cuda.shared.array on the CPU backend: one block of
 * memory per call site (named by the address of a global of its module)
 * and per thread of the pool. A pool thread runs each block it takes whole,
 * its CUDA threads as loops or fibers, so all of them see the same memory;
 * blocks after it reuse it, as a GPU reuses shared memory. */
typedef struct SharedSite {
  const void *site;
  int64_t bytes;
  void *data;
} SharedSite;

static _Thread_local SharedSite *shared_sites;
static _Thread_local int nshared_sites;
static pthread_key_t shared_key;
static pthread_once_t shared_once = PTHREAD_ONCE_INIT;

static void free_shared_sites(void *p) {
  SharedSite *sites = p;
  for (int i = 0; sites && sites[i].site; i++) free(sites[i].data);
  free(sites);
}

static void make_shared_key(void) { pthread_key_create(&shared_key, free_shared_sites); }

void *rt_block_shared(const void *site, int64_t bytes) {
  for (int i = 0; i < nshared_sites; i++)
    if (shared_sites[i].site == site && shared_sites[i].bytes >= bytes) return shared_sites[i].data;
  SharedSite *grown = realloc(shared_sites, sizeof(SharedSite) * (size_t)(nshared_sites + 2));
  void *data = aligned_alloc(DATA_ALIGN, ((size_t)bytes + DATA_ALIGN - 1) & ~(size_t)(DATA_ALIGN - 1));
  if (!grown || !data) abort();  /* a few bytes per call site */
  shared_sites = grown;
  shared_sites[nshared_sites++] = (SharedSite){site, bytes, data};
  shared_sites[nshared_sites] = (SharedSite){0};
  pthread_once(&shared_once, make_shared_key);
  pthread_setspecific(shared_key, shared_sites);
  return data;
}

void *rt_block_storage(int64_t bytes) {
  if (bytes <= 0 || (uint64_t)bytes > SIZE_MAX / 2) return NULL;
  return aligned_alloc(DATA_ALIGN, ((size_t)bytes + DATA_ALIGN - 1) & ~(size_t)(DATA_ALIGN - 1));
}

void rt_block_storage_free(void *p) { free(p); }

int rt_numpy_version = 200;

/* ---------------------------------------------------------------- the stack */

/* Kept free below the limit: what runs once a check has failed (raising
 * the error, Python unwinding) needs stack too. */
static size_t stack_reserve(size_t size) {
  size_t most = (size_t)256 << 10;
  return size / 4 < most ? size / 4 : most;
}

uintptr_t rt_stack_limit(void) {
  static _Thread_local uintptr_t limit;
  if (limit) return limit;
  pthread_attr_t attr;
  void *low = NULL;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
  }
  limit = (uintptr_t)low + stack_reserve(size);
  if (!limit) limit = 1;  /* unknown: no check can fail */
  return limit;
}

/* The frames skipped are those of the cycle's functions, compiled code
 * that holds no lock and owns no reference (lower/function.c). */
_Noreturn void rt_recursion_error(RtStackGuard *g) {
  rt_set_error(RT_ERR_RECURSION, RT_RECURSION_MESSAGE);
  longjmp(g->back, 1);
}

static _Thread_local RtError last_error;

void rt_set_error(int status, const char *msg) {
  last_error.status = (RtStatus)status;
  last_error.msg = msg;
  last_error.exc_class = NULL;
  last_error.where = NULL;
}

/* set_num_threads(n) in compiled code: as pool_set_num_threads, with
 * Numba's ValueError for n out of [1, pool size] */
int32_t rt_set_num_threads(int64_t n) {
  static _Thread_local char message[96];
  if (!pool_set_num_threads(n)) return RT_OK;
  snprintf(message, sizeof message, "The number of threads must be between 1 and %lld", (long long)pool_max_threads());
  rt_set_error(RT_ERR_VALUE, message);
  return RT_ERR_VALUE;
}

int64_t rt_set_chunksize(int64_t n) {
  if (n >= 0) return pool_set_chunksize(n);
  rt_set_error(RT_ERR_VALUE, "chunksize must be greater than or equal to zero");
  return -1;
}

/* An error in a kernel on the CPU backend: the message says which thread of
 * which block, something a GPU could not tell. */
void rt_kernel_error(int status, const char *msg, int64_t tx, int64_t ty, int64_t tz, int64_t bx,
                     int64_t by, int64_t bz) {
  static _Thread_local char text[256];
  snprintf(text, sizeof text, "%s in thread (%lld, %lld, %lld) of block (%lld, %lld, %lld)", msg,
           (long long)tx, (long long)ty, (long long)tz, (long long)bx, (long long)by, (long long)bz);
  rt_set_error(status, text);
}

/* NumPy's ValueError for shapes that do not broadcast. desc holds shapes as
 * ndim, then the dimensions: kind 0, a count and the operands' shapes;
 * kind 1, an output's shape and the broadcast shape of the inputs; kind 4,
 * as kind 0, an index's arrays (NumPy's IndexError). */
static size_t put_shape(char *buf, size_t n, const int64_t **desc) {
  int64_t ndim = *(*desc)++;
  size_t used = (size_t)snprintf(buf, n, "(");
  for (int64_t d = 0; d < ndim && used < n; d++)
    used += (size_t)snprintf(buf + used, n - used, "%s%lld", d ? "," : "", (long long)*(*desc)++);
  if (used < n) used += (size_t)snprintf(buf + used, n - used, ndim == 1 ? ",)" : ")");
  return used < n ? used : n - 1;
}

void rt_shape_error(int64_t kind, const int64_t *desc) {
  static _Thread_local char text[512];
  size_t used;
  if (kind == 0 || kind == 4) {
    int64_t count = *desc++;
    used = (size_t)snprintf(text, sizeof text, "%s could not be broadcast together with shapes ",
                            kind ? "shape mismatch: indexing arrays" : "operands");
    for (int64_t i = 0; i < count && used < sizeof text - 1; i++) {
      used += put_shape(text + used, sizeof text - used, &desc);
      if (used < sizeof text - 1) text[used++] = ' ', text[used] = 0;
    }
  } else {
    static const char *const words[4][2] = {
      {"", ""},
      {"non-broadcastable output operand with shape ", " doesn't match the broadcast shape "},
      {"could not broadcast input array from shape ", " into shape "},  /* a[...] = value */
      {"shape mismatch: value array of shape ", " could not be broadcast to indexing result of shape "},
    };
    used = (size_t)snprintf(text, sizeof text, "%s", words[kind & 3][0]);
    used += put_shape(text + used, sizeof text - used, &desc);
    used += (size_t)snprintf(text + used, sizeof text - used, "%s", words[kind & 3][1]);
    put_shape(text + used, sizeof text - used, &desc);
  }
  rt_set_error(kind == 4 ? RT_ERR_INDEX : RT_ERR_VALUE, text);
}

/* An error whose message holds numbers known at run time ("axis 3 is out
 * of bounds for array of dimension 2"): fmt takes up to four int64s as
 * %lld. */
void rt_error_format(int status, const char *fmt, int64_t a, int64_t b, int64_t c, int64_t d) {
  static _Thread_local char text[512];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  snprintf(text, sizeof text, fmt, (long long)a, (long long)b, (long long)c, (long long)d);
#pragma GCC diagnostic pop
  rt_set_error(status, text);
}

/* NumPy's ValueError for a reshape to a shape of another size: negative
 * dimensions (the unknown one) print as "newaxis", leading ones not at
 * all, as NumPy's convert_shape_to_string does. */
void rt_reshape_error(int64_t size, int64_t ndim, const int64_t *dims) {
  static _Thread_local char text[512];
  size_t used = (size_t)snprintf(text, sizeof text, "cannot reshape array of size %lld into shape ", (long long)size);
  int64_t i = 0;
  while (i < ndim && dims[i] < 0) i++;
  if (i == ndim) {
    snprintf(text + used, sizeof text - used, "()");
  } else {
    used += (size_t)snprintf(text + used, sizeof text - used, "(%lld", (long long)dims[i++]);
    for (; i < ndim && used < sizeof text; i++)
      used += dims[i] < 0 ? (size_t)snprintf(text + used, sizeof text - used, ",newaxis")
                          : (size_t)snprintf(text + used, sizeof text - used, ",%lld", (long long)dims[i]);
    if (used < sizeof text) snprintf(text + used, sizeof text - used, ndim == 1 ? ",)" : ")");
  }
  rt_set_error(RT_ERR_VALUE, text);
}

/* Copies the elements of an array of the shape between any strides, elements
 * of one dtype (itemsize bytes): compiled code's copies that convert
 * nothing (concatenate, a strided array made contiguous) call this rather
 * than emit a loop nest of their own, which costs compile time. */
void rt_copy_strided(int64_t ndim, const int64_t *shape, char *dst, const int64_t *dst_strides, const char *src,
                     const int64_t *src_strides, int64_t itemsize) {
  if (ndim == 0) {
    memcpy(dst, src, (size_t)itemsize);
    return;
  }
  int64_t n = shape[0], ds = dst_strides[0], ss = src_strides[0];
  if (ndim > 1) {
    for (int64_t i = 0; i < n; i++)
      rt_copy_strided(ndim - 1, shape + 1, dst + i * ds, dst_strides + 1, src + i * ss, src_strides + 1, itemsize);
    return;
  }
  if (ds == itemsize && ss == itemsize) {
    memcpy(dst, src, (size_t)(n * itemsize));
    return;
  }
  switch (itemsize) {  /* constant sizes: each element a load and a store */
  case 1: for (int64_t i = 0; i < n; i++) dst[i * ds] = src[i * ss]; break;
  case 2: for (int64_t i = 0; i < n; i++) memcpy(dst + i * ds, src + i * ss, 2); break;
  case 4: for (int64_t i = 0; i < n; i++) memcpy(dst + i * ds, src + i * ss, 4); break;
  case 8: for (int64_t i = 0; i < n; i++) memcpy(dst + i * ds, src + i * ss, 8); break;
  default: for (int64_t i = 0; i < n; i++) memcpy(dst + i * ds, src + i * ss, (size_t)itemsize); break;
  }
}

/* NumPy's errors of indexing that name numbers: kind 0, an index out of
 * bounds (a the index, b the axis, c its size); 1, a boolean index of the
 * wrong length (a the axis, b its size, c the mask's); 2, a masked
 * assignment of the wrong number of values (a given, b selected). */
void rt_index_error(int64_t kind, int64_t a, int64_t b, int64_t c) {
  static _Thread_local char text[256];
  long long x = a, y = b, z = c;
  if (kind == 0)
    snprintf(text, sizeof text, "index %lld is out of bounds for axis %lld with size %lld", x, y, z);
  else if (kind == 1)
    snprintf(text, sizeof text, "boolean index did not match indexed array along axis %lld; size of axis is "
             "%lld but size of corresponding boolean axis is %lld", x, y, z);
  else
    snprintf(text, sizeof text, "NumPy boolean array indexing assignment cannot assign %lld input values to "
             "the %lld output values where the mask is true", x, y);
  rt_set_error(kind == 2 ? RT_ERR_VALUE : RT_ERR_INDEX, text);
}

/* An error whose message holds one number: fmt has one %lld. */
void rt_error_int(int status, const char *fmt, int64_t v) {
  static _Thread_local char text[256];
  snprintf(text, sizeof text, fmt, (long long)v);
  rt_set_error(status, text);
}

/* A message holding one float as Python's repr writes it: fmt has one %s
 * (CPython 3.14's math module: "expected a positive input, got -0.0"); the
 * thread's, until its next. */
const char *rt_float_message(const char *fmt, double x) {
  static _Thread_local char text[256];
  char repr[40];
  rt_float_repr(repr, x, false);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  snprintf(text, sizeof text, fmt, repr);
#pragma GCC diagnostic pop
  return text;
}

/* raise cls(msg) in compiled code; cls is a Python class the extension
 * keeps alive. */
void rt_raise(void *cls, const char *msg) {
  last_error.status = RT_ERR_RAISE;
  last_error.msg = msg;
  last_error.exc_class = cls;
  last_error.where = NULL;
}

void rt_raise_where(const char *where) { last_error.where = where; }

/* A raise statement's place in a kernel compiled with debug=True: where,
 * then the thread that raised as numba-cuda's message names it on a GPU
 * ("tid=[z, y, x] ctaid=[z, y, x]", its order), which the extension puts
 * before the exception's message. In this thread's buffer, as the other
 * runtime messages are. */
void rt_kernel_raise_where(const char *where, int64_t tx, int64_t ty, int64_t tz, int64_t bx, int64_t by,
                           int64_t bz) {
  static _Thread_local char text[4096];
  snprintf(text, sizeof text, "%s\x1ftid=[%lld, %lld, %lld] ctaid=[%lld, %lld, %lld]", where, (long long)tz,
           (long long)ty, (long long)tx, (long long)bz, (long long)by, (long long)bx);
  last_error.where = text;
}

RtError *rt_last_error(void) { return &last_error; }

/* A chunk of a parallel loop failed on a pool thread: the first failure is
 * copied where the caller's thread can re-raise it. */
void rt_error_save(RtError *dst) {
  int ok = RT_OK;
  if (__atomic_compare_exchange_n((int *)&dst->status, &ok, (int)last_error.status, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    dst->msg = last_error.msg;
    dst->exc_class = last_error.exc_class;
    dst->where = last_error.where;
  } else {
    rt_error_forget_raised();  /* (a later failure is dropped: the values it kept with it) */
  }
}

void rt_error_restore(const RtError *src) { last_error = *src; }

void rt_error_copy(RtError *dst) { *dst = last_error; }

/* Set once by the extension when it loads this library: compiled code
 * cannot tell a Python class's bases itself. */
static int (*exception_matcher)(void *cls, void *base);

void rt_set_exception_matcher(int (*matches)(void *cls, void *base)) { exception_matcher = matches; }

/* Set once by the extension too: what reports a @cfunc's failure (its
 * caller is C code, which cannot take the exception). */
static void (*cfunc_failure)(const char *name);

void rt_set_cfunc_failure(void (*report)(const char *name)) { cfunc_failure = report; }

void rt_cfunc_failed(const char *name) {
  if (cfunc_failure) cfunc_failure(name);
}

/* An except clause naming base, tried on a raise statement's error (the
 * runtime's own errors are matched by status, at compile time). */
int32_t rt_exception_matches(void *base) {
  return last_error.status == RT_ERR_RAISE && exception_matcher && exception_matcher(last_error.exc_class, base);
}

/* ---------------------------------------------------------------- round(x, ndigits) */

/* round(x, nd) as CPython: the exact binary value of x rounded half-even at
 * the decimal digit nd, read back correctly rounded (round(2.675, 2) is
 * 2.67, since 2.675 is stored as 2.67499999...). glibc's printf prints the
 * exact value and rounds it half-even; a negative nd is rounded here on the
 * exact integer and fraction digits. A result too large for a double is inf,
 * for the caller to raise OverflowError as CPython. */
double rt_round_digits(double x, int64_t nd) {
  if (!isfinite(x) || x == 0.0 || nd > 323) return x;
  if (nd < -308) return 0.0 * x;
  char buf[400];
  if (nd >= 0) {
    snprintf(buf, sizeof buf, "%.*f", (int)nd, x);
    return strtod(buf, NULL);
  }
  if (fabs(x) < 1.0) return 0.0 * x;  /* below 10**-nd / 2 */
  /* a leading 0 takes a carry; at most 52 fraction bits: 60 decimals hold
   * the fraction exactly */
  buf[0] = '0';
  int len = 1 + snprintf(buf + 1, sizeof buf - 1, "%.60f", fabs(x));
  int point = (int)(strchr(buf, '.') - buf), cut = point + (int)nd;  /* digits kept: buf[0, cut) */
  if (cut < 1) return 0.0 * x;
  int first = buf[cut] - '0';
  bool rest = false;  /* a nonzero digit after the first dropped one */
  for (int i = cut + 1; i < len; i++) rest |= buf[i] != '0' && buf[i] != '.';
  bool up = first > 5 || (first == 5 && (rest || (buf[cut - 1] - '0') % 2));
  for (int i = cut; i < point; i++) buf[i] = '0';
  buf[point] = 0;
  for (int i = cut - 1; up && i >= 0; i--) {  /* the carry */
    up = buf[i] == '9';
    buf[i] = up ? '0' : (char)(buf[i] + 1);
  }
  return copysign(strtod(buf, NULL), x);
}

/* ---------------------------------------------------------------- pow(b, e, m) */

static int32_t powmod_error(const char *msg) {
  rt_set_error(RT_ERR_VALUE, msg);
  return RT_ERR_VALUE;
}

/* x's inverse modulo mod (extended Euclid), or false where there is none */
static bool mod_inverse(uint64_t x, uint64_t mod, uint64_t *inverse) {
  __int128 r0 = mod, r1 = x, t0 = 0, t1 = 1;
  while (r1) {
    __int128 q = r0 / r1, r = r0 - q * r1, t = t0 - q * t1;
    r0 = r1, r1 = r, t0 = t1, t1 = t;
  }
  if (r0 != 1) return false;
  *inverse = (uint64_t)(t0 < 0 ? t0 + (__int128)mod : t0);
  return true;
}

/* pow(b, e, m) of ints, as CPython: by squaring modulo |m| in 128 bits; a
 * negative e raises b's inverse (ValueError where there is none), m == 0
 * is a ValueError, and the result has m's sign. */
int32_t rt_int_powmod(int64_t *out, int64_t b, int64_t e, int64_t m) {
  if (m == 0) return powmod_error("pow() 3rd argument cannot be 0");
  uint64_t mod = m < 0 ? 0 - (uint64_t)m : (uint64_t)m;
  uint64_t base = (b < 0 ? 0 - (uint64_t)b : (uint64_t)b) % mod;
  if (b < 0 && base) base = mod - base;
  if (e < 0 && !mod_inverse(base, mod, &base)) return powmod_error("base is not invertible for the given modulus");
  uint64_t r = 1 % mod;
  for (uint64_t k = e < 0 ? 0 - (uint64_t)e : (uint64_t)e; k; k >>= 1) {
    if (k & 1) r = (uint64_t)((unsigned __int128)r * base % mod);
    base = (uint64_t)((unsigned __int128)base * base % mod);
  }
  *out = m < 0 && r ? (int64_t)(r - mod) : (int64_t)r;
  return RT_OK;
}

/* libgcc's 128-bit helpers, which LLVM calls for int / int beyond 2**53 */
unsigned __int128 __udivti3(unsigned __int128, unsigned __int128);
unsigned __int128 __umodti3(unsigned __int128, unsigned __int128);
double __floatuntidf(unsigned __int128);
double __floattidf(__int128);
__int128 __divti3(__int128, __int128);
__int128 __modti3(__int128, __int128);

#if defined(__x86_64__)
/* libgcc's float16 conversions, which LLVM calls on x86 where the CPU has
 * no instruction for them (double to float16 always, all four without F16C) */
_Float16 __truncdfhf2(double);
_Float16 __truncsfhf2(float);
float __extendhfsf2(_Float16);
double __extendhfdf2(_Float16);
#endif

void rt_register_symbols(void (*define)(const char *name, void *addr, void *ctx), void *ctx) {
  define("__udivti3", (void *)__udivti3, ctx);
  define("__umodti3", (void *)__umodti3, ctx);
  define("__floatuntidf", (void *)__floatuntidf, ctx);
  define("__floattidf", (void *)__floattidf, ctx);
  define("__divti3", (void *)__divti3, ctx);
  define("__modti3", (void *)__modti3, ctx);
#if defined(__x86_64__)
  define("__truncdfhf2", (void *)__truncdfhf2, ctx);
  define("__truncsfhf2", (void *)__truncsfhf2, ctx);
  define("__extendhfsf2", (void *)__extendhfsf2, ctx);
  define("__extendhfdf2", (void *)__extendhfdf2, ctx);
#endif
  define("rt_alloc", (void *)rt_alloc, ctx);
  define("rt_alloc_array", (void *)rt_alloc_array, ctx);
  define("rt_block_storage", (void *)rt_block_storage, ctx);
  define("rt_block_storage_free", (void *)rt_block_storage_free, ctx);
  define("rt_interrupted", (void *)&rt_interrupted, ctx);
  define("rt_interrupt_poll", (void *)rt_interrupt_poll, ctx);
  define("rt_catch_interrupt", (void *)rt_catch_interrupt, ctx);
  rt_register_containers(define, ctx);
  rt_register_sets(define, ctx);
  rt_register_random(define, ctx);
  rt_register_libdevice(define, ctx);
  rt_register_strings(define, ctx);
  define("rt_round_digits", (void *)rt_round_digits, ctx);
  define("rt_int_powmod", (void *)rt_int_powmod, ctx);
  define("rt_meminfo_free", (void *)rt_meminfo_free, ctx);
  rt_register_nrt(define, ctx);
  define("rt_gen_new", (void *)rt_gen_new, ctx);
  define("rt_gen_free", (void *)rt_gen_free, ctx);
  define("rt_set_error", (void *)rt_set_error, ctx);
  define("rt_stack_limit", (void *)rt_stack_limit, ctx);
  define("rt_recursion_error", (void *)rt_recursion_error, ctx);
  define("_setjmp", (void *)_setjmp, ctx);
  define("rt_raise", (void *)rt_raise, ctx);
  define("rt_raise_where", (void *)rt_raise_where, ctx);
  define("rt_kernel_raise_where", (void *)rt_kernel_raise_where, ctx);
  define("rt_objmode", (void *)rt_objmode, ctx);
  define("rt_raise_objects", (void *)rt_raise_objects, ctx);
  define("rt_error_forget_raised", (void *)rt_error_forget_raised, ctx);
  define("rt_error_forget", (void *)rt_error_forget, ctx);
  define("rt_error_forget_unless_raised", (void *)rt_error_forget_unless_raised, ctx);
  define("rt_shape_error", (void *)rt_shape_error, ctx);
  define("rt_error_format", (void *)rt_error_format, ctx);
  define("rt_reshape_error", (void *)rt_reshape_error, ctx);
  define("rt_copy_strided", (void *)rt_copy_strided, ctx);
  define("rt_index_error", (void *)rt_index_error, ctx);
  define("rt_error_int", (void *)rt_error_int, ctx);
  define("rt_float_message", (void *)rt_float_message, ctx);
  define("rt_partition", (void *)rt_partition, ctx);
  define("rt_sort", (void *)rt_sort, ctx);
  define("rt_argsort", (void *)rt_argsort, ctx);
  define("rt_lexsort", (void *)rt_lexsort, ctx);
  define("rt_unique", (void *)rt_unique, ctx);
  define("rt_gather", (void *)rt_gather, ctx);
  define("rt_unique_positions", (void *)rt_unique_positions, ctx);
  define("rt_sort_text", (void *)rt_sort_text, ctx);
  define("rt_argsort_text", (void *)rt_argsort_text, ctx);
  define("rt_unique_text", (void *)rt_unique_text, ctx);
  define("rt_monotonic", (void *)rt_monotonic, ctx);
  define("rt_interp_search", (void *)rt_interp_search, ctx);
  define("rt_bytes_order", (void *)rt_bytes_order, ctx);
  define("rt_bytes_from_chars", (void *)rt_bytes_from_chars, ctx);
  define("rt_bytes_to_chars", (void *)rt_bytes_to_chars, ctx);
  define("rt_bytes_find", (void *)rt_bytes_find, ctx);
  define("rt_bytes_slice", (void *)rt_bytes_slice, ctx);
  define("rt_bytes_test", (void *)rt_bytes_test, ctx);
  define("rt_bytes_search", (void *)rt_bytes_search, ctx);
  define("rt_bytes_concat", (void *)rt_bytes_concat, ctx);
  define("rt_bytes_repeat", (void *)rt_bytes_repeat, ctx);
  define("rt_bytes_make", (void *)rt_bytes_make, ctx);
  define("rt_bytes_split", (void *)rt_bytes_split, ctx);
  define("rt_bytes_join", (void *)rt_bytes_join, ctx);
  define("rt_sum", (void *)rt_sum, ctx);
  define("rt_sum_axes", (void *)rt_sum_axes, ctx);
  define("rt_sum_complex", (void *)rt_sum_complex, ctx);
  define("rt_i0", (void *)rt_i0, ctx);
  define("rt_nditer_index", (void *)rt_nditer_index, ctx);
  define("rt_cmath", (void *)rt_cmath, ctx);
  define("rt_cmath_numba", (void *)rt_cmath_numba, ctx);
  define("rt_cmath_numba32", (void *)rt_cmath_numba32, ctx);
  define("rt_complex_pow", (void *)rt_complex_pow, ctx);
  define("rt_complex_pow_numba", (void *)rt_complex_pow_numba, ctx);
  define("rt_matrix_product", (void *)rt_matrix_product, ctx);
  define("rt_linalg", (void *)rt_linalg, ctx);
  define("rt_decomp", (void *)rt_decomp, ctx);
  define("rt_linalg_stack", (void *)rt_linalg_stack, ctx);
  define("rt_decomp_stack", (void *)rt_decomp_stack, ctx);
  define("rt_poly", (void *)rt_poly, ctx);
  define("rt_fft", (void *)rt_fft, ctx);
  define("rt_roll", (void *)rt_roll, ctx);
  define("rt_fftfreq", (void *)rt_fftfreq, ctx);
  define("rt_next_fast_len", (void *)rt_next_fast_len, ctx);
  define("rt_norm_axes", (void *)rt_norm_axes, ctx);
  define("rt_tensor", (void *)rt_tensor, ctx);
  define("rt_multi_dot", (void *)rt_multi_dot, ctx);
  define("rt_multi_dot_list", (void *)rt_multi_dot_list, ctx);
  define("rt_kernel_error", (void *)rt_kernel_error, ctx);
  define("rt_fiber_block", (void *)rt_fiber_block, ctx);
  define("rt_fiber_barrier", (void *)rt_fiber_barrier, ctx);
  define("rt_fiber_collective", (void *)rt_fiber_collective, ctx);
  define("rt_block_shared", (void *)rt_block_shared, ctx);
  define("rt_print", (void *)rt_print, ctx);
  define("rt_format_str", (void *)rt_format_str, ctx);
  define("rt_grid_run", (void *)rt_grid_run, ctx);
  define("rt_grid_sync", (void *)rt_grid_sync, ctx);
  define("rt_fiber_grid_sync", (void *)rt_fiber_grid_sync, ctx);
  define("rt_print_flush", (void *)rt_print_flush, ctx);
  define("rt_print_write_out", (void *)rt_print_write_out, ctx);
  define("rt_collective", (void *)rt_collective, ctx);
  define("rt_error_save", (void *)rt_error_save, ctx);
  define("rt_error_restore", (void *)rt_error_restore, ctx);
  define("rt_error_copy", (void *)rt_error_copy, ctx);
  define("rt_exception_matches", (void *)rt_exception_matches, ctx);
  define("rt_cfunc_failed", (void *)rt_cfunc_failed, ctx);
  define("pool_parallel_for", (void *)pool_parallel_for, ctx);
  define("pool_get_num_threads", (void *)pool_get_num_threads, ctx);
  define("rt_set_num_threads", (void *)rt_set_num_threads, ctx);
  define("pool_chunk_count", (void *)pool_chunk_count, ctx);
  define("pool_static_chunk_count", (void *)pool_static_chunk_count, ctx);
  define("pool_parallel_for_static", (void *)pool_parallel_for_static, ctx);
  define("pool_thread_id", (void *)pool_thread_id, ctx);
  define("pool_get_chunksize", (void *)pool_get_chunksize, ctx);
  define("rt_set_chunksize", (void *)rt_set_chunksize, ctx);
}
