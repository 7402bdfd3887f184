/* nrt.c — Numba's NRT C API over ruchey's memory: the table of functions
 * (NRT_api_functions, numba/core/runtime/nrt_external.h) that
 * numba.core.unsafe.nrt.NRT_get_api() hands compiled code as a void*, for
 * C libraries to make MemInfos with (numba-kdtree's tree). A MemInfo it
 * makes is an RtMemInfo, counted as an array's memory is: compiled code
 * holds it as a MemInfoPointer value, and the last release runs the
 * destructor given with it (rt_meminfo_dtor_free). The table's layout is
 * Numba's, row for row: C code indexes it by position.
 */
#include <stdlib.h>

#include "ruchey.h"

typedef void ManagedDtor(void *data);

/* Numba's NRT_ExternalAllocator: malloc, realloc, free and their context. */
typedef struct {
  void *(*malloc)(size_t size, void *opaque);
  void *(*realloc)(void *ptr, size_t size, void *opaque);
  void (*free)(void *ptr, void *opaque);
  void *opaque;
} ExternalAllocator;

typedef struct {
  RtMemInfo *(*allocate)(size_t nbytes);
  RtMemInfo *(*allocate_external)(size_t nbytes, ExternalAllocator *allocator);
  RtMemInfo *(*manage_memory)(void *data, ManagedDtor *dtor);
  void (*acquire)(RtMemInfo *mi);
  void (*release)(RtMemInfo *mi);
  void *(*get_data)(RtMemInfo *mi);
} NrtApi;

static RtMemInfo *nrt_allocate(size_t nbytes) { return nbytes > INT64_MAX ? NULL : rt_alloc((int64_t)nbytes); }

static RtMemInfo *new_managed(void *data, void (*dtor)(void *, void *), void *info) {
  RtMemInfo *mi = malloc(sizeof *mi);
  if (!mi) return NULL;
  *mi = (RtMemInfo){.refcount = 1, .data = data, .dtor = dtor, .dtor_info = info};
  return mi;
}

static void external_free(void *data, void *info) {
  ExternalAllocator *a = info;
  a->free(data, a->opaque);
}

static RtMemInfo *nrt_allocate_external(size_t nbytes, ExternalAllocator *allocator) {
  void *data = allocator->malloc(nbytes, allocator->opaque);
  if (!data) return NULL;
  RtMemInfo *mi = new_managed(data, external_free, allocator);
  if (!mi) allocator->free(data, allocator->opaque);
  return mi;
}

/* The C code's destructor takes the data alone; it rides in dtor_info. */
static void call_managed_dtor(void *data, void *info) { ((ManagedDtor *)info)(data); }

static RtMemInfo *nrt_manage_memory(void *data, ManagedDtor *dtor) {
  return new_managed(data, call_managed_dtor, (void *)dtor);
}

static void nrt_acquire(RtMemInfo *mi) { __atomic_add_fetch(&mi->refcount, 1, __ATOMIC_ACQ_REL); }
static void nrt_release(RtMemInfo *mi) {
  if (__atomic_sub_fetch(&mi->refcount, 1, __ATOMIC_ACQ_REL) == 0) rt_meminfo_free(mi);
}
static void *nrt_get_data(RtMemInfo *mi) { return mi->data; }

static const NrtApi nrt_api = {nrt_allocate, nrt_allocate_external, nrt_manage_memory,
                               nrt_acquire,  nrt_release,           nrt_get_data};

void *rt_nrt_api(void) { return (void *)&nrt_api; }

/* The names an @intrinsic's code calls (ruchey/intrinsics.py's context.nrt). */
void rt_register_nrt(void (*define)(const char *name, void *addr, void *ctx), void *ctx) {
  define("rt_nrt_api", (void *)rt_nrt_api, ctx);
  define("rt_nrt_acquire", (void *)nrt_acquire, ctx);
  define("rt_nrt_release", (void *)nrt_release, ctx);
}
