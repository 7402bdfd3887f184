/* runtime.c — what compiled code calls: array memory and error reporting.
 *
 * Array memory is one block: the RtMemInfo header, then the data aligned to
 * 64 bytes (a cache line, and the widest vector). The reference count is
 * changed atomically by compiled code; the last release frees the block.
 */
#include <stdio.h>

#include "ruchey.h"

#define DATA_ALIGN 64

typedef struct Block {
  RtMemInfo info;
  _Alignas(DATA_ALIGN) char data[];
} Block;

RtMemInfo *rt_alloc(int64_t nbytes) {
  if (nbytes < 0) return NULL;
  Block *b = aligned_alloc(DATA_ALIGN, (sizeof(Block) + (size_t)nbytes + DATA_ALIGN - 1) &
                                           ~(size_t)(DATA_ALIGN - 1));
  if (!b) return NULL;
  b->info.refcount = 1;
  b->info.data = b->data;
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

/* raise cls(msg) in compiled code; cls is a Python class the extension
 * keeps alive. */
void rt_raise(void *cls, const char *msg) {
  last_error.status = RT_ERR_RAISE;
  last_error.msg = msg;
  last_error.exc_class = cls;
}

RtError *rt_last_error(void) { return &last_error; }

void rt_register_symbols(void (*define)(const char *name, void *addr, void *ctx), void *ctx) {
  define("rt_alloc", (void *)rt_alloc, ctx);
  define("rt_meminfo_free", (void *)rt_meminfo_free, ctx);
  define("rt_set_error", (void *)rt_set_error, ctx);
  define("rt_raise", (void *)rt_raise, ctx);
}
