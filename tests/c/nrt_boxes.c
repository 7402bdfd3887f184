/* nrt_boxes.c — a C library that makes memory through Numba's NRT C API
 * table (NRT_api_functions, as numba/core/runtime/nrt_external.h lays it
 * out), for tests/test_nrt.py: boxes with a destructor that counts its
 * calls, blocks from the table's allocator, and a reference the library
 * keeps of its own. */
#include <stdlib.h>

typedef struct {
  void *(*allocate)(size_t nbytes);
  void *(*allocate_external)(size_t nbytes, void *allocator);
  void *(*manage_memory)(void *data, void (*dtor)(void *data));
  void (*acquire)(void *mi);
  void (*release)(void *mi);
  void *(*get_data)(void *mi);
} NrtApi;

typedef struct {
  double scale;
  long offset;
} Box;

static long made, destroyed;
static void *kept;  /* a MemInfo this library holds a reference to */
static const NrtApi *kept_api;

static void box_dtor(void *data) {
  destroyed++;
  free(data);
}

void *nrtbox_make(void *api, double scale, long offset) {
  Box *b = malloc(sizeof *b);
  b->scale = scale;
  b->offset = offset;
  made++;
  return ((const NrtApi *)api)->manage_memory(b, box_dtor);
}

double nrtbox_apply(void *data, double x) {
  const Box *b = data;
  return b->scale * x + (double)b->offset;
}

/* n doubles 0, 0.5, 1.0, ... in a block of the table's own allocator */
void *nrtbox_halves(void *api, long n) {
  const NrtApi *a = api;
  void *mi = a->allocate((size_t)n * sizeof(double));
  double *d = a->get_data(mi);
  for (long i = 0; i < n; i++) d[i] = 0.5 * (double)i;
  return mi;
}

void nrtbox_keep(void *api, void *mi) {
  kept_api = api;
  kept_api->acquire(mi);
  kept = mi;
}

void nrtbox_drop(void) {
  if (kept) kept_api->release(kept);
  kept = NULL;
}

/* takes a MemInfo and does nothing: a use that keeps compiled code's value
 * alive up to here (Numba drops a variable after its last use) */
void nrtbox_touch(void *mi) { (void)mi; }

long nrtbox_made(void) { return made; }
long nrtbox_destroyed(void) { return destroyed; }
