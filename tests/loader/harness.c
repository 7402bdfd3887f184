/* harness.c — lib/loader.c on its own, for test_loader_cross.py: built for
 * another processor and run under its emulator, it loads object files of
 * objects.ll compiled for that processor and calls their functions.
 *
 *     harness OBJECT SYMBOL X [SYMBOL X ...]
 *
 * loads the object again for each SYMBOL, calls the function twice with X
 * and prints the two doubles it returns and "far" where the object's code
 * and rt_far lie further apart than a direct call reaches; on a refusal,
 * the loader's message and the exit status 3.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ruchey.h"

/* double rt_far(double x) { return x + x; } as machine code, mapped a
 * terabyte away from where the object's code is likely to go. */
#if defined(__aarch64__)
static const unsigned char far_code[] = {0x00, 0x28, 0x60, 0x1e, 0xc0, 0x03, 0x5f, 0xd6}; /* fadd d0, d0, d0; ret */
#elif defined(__x86_64__)
static const unsigned char far_code[] = {0xf2, 0x0f, 0x58, 0xc0, 0xc3}; /* addsd %xmm0, %xmm0; ret */
#endif

static void *far_function;

static void *map_far(void) {
  void *p = mmap((void *)((uintptr_t)1 << 40), 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  memcpy(p, far_code, sizeof far_code);
  __builtin___clear_cache((char *)p, (char *)p + sizeof far_code);
  return mprotect(p, 4096, PROT_READ | PROT_EXEC) ? NULL : p;
}

/* The runtime's symbols as the loader asks for them: here only rt_far. */
void rt_register_symbols(void (*define)(const char *name, void *addr, void *ctx), void *ctx) {
  define("rt_far", far_function, ctx);
}

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = aligned_alloc(16, *size + 16);
  if (buf && fread(buf, 1, *size, f) != *size) buf = NULL;
  fclose(f);
  return buf;
}

int main(int argc, char **argv) {
  size_t size;
  unsigned char *object = argc >= 4 && argc % 2 == 0 ? read_file(argv[1], &size) : NULL;
  far_function = map_far();
  if (!object || !far_function) {
    fprintf(stderr, "usage: harness OBJECT SYMBOL X [SYMBOL X ...]\n");
    return 2;
  }
  for (int i = 2; i + 1 < argc; i += 2) {
    CompileResult res = {0};
    Diag d = {0};
    if (rt_load_object(object, size, argv[i], &res, &d) != RT_LOADED) {
      printf("%s\n", d.msg);
      return 3;
    }
    double x = atof(argv[i + 1]), y[2] = {0, 0};
    void *args[1] = {&x};
    int status = res.entry(&y[0], args) | res.entry(&y[1], args);
    intptr_t apart = (intptr_t)res.entry - (intptr_t)far_function;
    printf("%.17g %.17g %d%s\n", y[0], y[1], status, apart > (1 << 27) || apart < -(1 << 27) ? " far" : "");
    /* the code stays loaded: the next load must not reuse its place */
  }
  return 0;
}
