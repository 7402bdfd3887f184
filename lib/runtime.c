/* runtime.c — what compiled code calls: array memory and error reporting
 * (and the thread pool of pool.c, registered here with the rest).
 *
 * Array memory is one block: the RtMemInfo header, then the data aligned to
 * 64 bytes (a cache line, and the widest vector). The reference count is
 * changed atomically by compiled code; the last release frees the block.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ruchey.h"

#define DATA_ALIGN 64

typedef struct Block {
  RtMemInfo info;
  _Alignas(DATA_ALIGN) char data[];
} Block;

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

RtMemInfo *rt_alloc(int64_t nbytes) {
  if (nbytes < 0) return NULL;
  Block *b = aligned_alloc(DATA_ALIGN, (sizeof(Block) + (size_t)nbytes + DATA_ALIGN - 1) &
                                           ~(size_t)(DATA_ALIGN - 1));
  if (!b) return NULL;
  b->info.refcount = 1;
  b->info.data = b->data;
  advise_huge_pages(b->data, (size_t)nbytes);
  return &b->info;
}

/* Called by compiled code when the count reaches zero. */
void rt_meminfo_free(RtMemInfo *mi) { free(mi); }

/* Called by the extension when the Python object owning a reference dies. */
void rt_meminfo_release(RtMemInfo *mi) {
  if (__atomic_sub_fetch(&mi->refcount, 1, __ATOMIC_ACQ_REL) == 0) rt_meminfo_free(mi);
}

static _Thread_local RtError last_error;

void rt_set_error(int status, const char *msg) {
  last_error.status = (RtStatus)status;
  last_error.msg = msg;
  last_error.exc_class = NULL;
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
 * kind 1, an output's shape and the broadcast shape of the inputs. */
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
  if (kind == 0) {
    int64_t count = *desc++;
    used = (size_t)snprintf(text, sizeof text, "operands could not be broadcast together with shapes ");
    for (int64_t i = 0; i < count && used < sizeof text - 1; i++) {
      used += put_shape(text + used, sizeof text - used, &desc);
      if (used < sizeof text - 1) text[used++] = ' ', text[used] = 0;
    }
  } else {
    used = (size_t)snprintf(text, sizeof text, "non-broadcastable output operand with shape ");
    used += put_shape(text + used, sizeof text - used, &desc);
    used += (size_t)snprintf(text + used, sizeof text - used, " doesn't match the broadcast shape ");
    put_shape(text + used, sizeof text - used, &desc);
  }
  rt_set_error(RT_ERR_VALUE, text);
}

/* An error whose message holds one number: fmt has one %lld. */
void rt_error_int(int status, const char *fmt, int64_t v) {
  static _Thread_local char text[256];
  snprintf(text, sizeof text, fmt, (long long)v);
  rt_set_error(status, text);
}

/* raise cls(msg) in compiled code; cls is a Python class the extension
 * keeps alive. */
void rt_raise(void *cls, const char *msg) {
  last_error.status = RT_ERR_RAISE;
  last_error.msg = msg;
  last_error.exc_class = cls;
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
  }
}

void rt_error_restore(const RtError *src) { last_error = *src; }

/* libgcc's 128-bit helpers, which LLVM calls for int / int beyond 2**53 */
unsigned __int128 __udivti3(unsigned __int128, unsigned __int128);
unsigned __int128 __umodti3(unsigned __int128, unsigned __int128);
double __floatuntidf(unsigned __int128);
double __floattidf(__int128);
__int128 __divti3(__int128, __int128);
__int128 __modti3(__int128, __int128);

void rt_register_symbols(void (*define)(const char *name, void *addr, void *ctx), void *ctx) {
  define("__udivti3", (void *)__udivti3, ctx);
  define("__umodti3", (void *)__umodti3, ctx);
  define("__floatuntidf", (void *)__floatuntidf, ctx);
  define("__floattidf", (void *)__floattidf, ctx);
  define("__divti3", (void *)__divti3, ctx);
  define("__modti3", (void *)__modti3, ctx);
  define("rt_alloc", (void *)rt_alloc, ctx);
  define("rt_meminfo_free", (void *)rt_meminfo_free, ctx);
  define("rt_set_error", (void *)rt_set_error, ctx);
  define("rt_raise", (void *)rt_raise, ctx);
  define("rt_shape_error", (void *)rt_shape_error, ctx);
  define("rt_error_int", (void *)rt_error_int, ctx);
  define("rt_partition", (void *)rt_partition, ctx);
  define("rt_kernel_error", (void *)rt_kernel_error, ctx);
  define("rt_fiber_block", (void *)rt_fiber_block, ctx);
  define("rt_fiber_barrier", (void *)rt_fiber_barrier, ctx);
  define("rt_error_save", (void *)rt_error_save, ctx);
  define("rt_error_restore", (void *)rt_error_restore, ctx);
  define("pool_parallel_for", (void *)pool_parallel_for, ctx);
  define("pool_get_num_threads", (void *)pool_get_num_threads, ctx);
  define("pool_chunk_count", (void *)pool_chunk_count, ctx);
  define("pool_thread_id", (void *)pool_thread_id, ctx);
}
