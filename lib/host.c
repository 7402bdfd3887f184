/* host.c — the processor, as the on-disk cache's key tells it, without LLVM.
 *
 * Cached code was generated for the host CPU's name and features as LLVM
 * read them; LLVM reads them from what the processor reports (cpuid and
 * the registers the OS saves, on x86-64; the kernel's hardware capabilities
 * and the CPU's identification, on AArch64). The same reports, whole, tell
 * one processor from another at least as finely, without starting LLVM.
 * Elsewhere the identity is LLVM's own (api.c asks the compiler).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ruchey.h"

static char id[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#if defined(__x86_64__)
#include <cpuid.h>

/* The leaves LLVM reads (the vendor, family and model, the feature words)
 * and XCR0; not leaf 1's EBX, which holds the APIC ID of the core asking. */
static void read_identity(void) {
  static const unsigned leaves[][2] = {{0, 0}, {1, 0}, {7, 0}, {7, 1}, {0xd, 1}, {0x14, 0}, {0x19, 0}, {0x24, 0},
                                       {0x80000000, 0}, {0x80000001, 0}, {0x80000008, 0}};
  unsigned max = __get_cpuid_max(0, NULL), max_ext = __get_cpuid_max(0x80000000, NULL);
  size_t len = (size_t)snprintf(id, sizeof id, "x86_64");
  for (size_t i = 0; i < sizeof leaves / sizeof leaves[0]; i++) {
    unsigned a = 0, b = 0, c = 0, d = 0, leaf = leaves[i][0];
    if (leaf <= (leaf >= 0x80000000 ? max_ext : max)) __cpuid_count(leaf, leaves[i][1], a, b, c, d);
    if (leaf == 1) b = 0;
    len += (size_t)snprintf(id + len, sizeof id - len, ":%x.%x.%x.%x", a, b, c, d);
  }
  unsigned a = 0, b = 0, c = 0, d = 0, xcr0 = 0, xcr0_high = 0;
  __cpuid(1, a, b, c, d);
  if (c & bit_OSXSAVE) __asm__("xgetbv" : "=a"(xcr0), "=d"(xcr0_high) : "c"(0));
  snprintf(id + len, sizeof id - len, ":xcr0.%x.%x", xcr0, xcr0_high);
}

#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>

/* The kernel's hardware capabilities and the CPU identification lines of
 * /proc/cpuinfo (LLVM names the CPU from its implementer and part). */
static void read_identity(void) {
  size_t len = (size_t)snprintf(id, sizeof id, "aarch64:%lx:%lx", getauxval(AT_HWCAP), getauxval(AT_HWCAP2));
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[256];
  while (f && fgets(line, sizeof line, f) && len < sizeof id - 64)
    if (!strncmp(line, "CPU implementer", 15) || !strncmp(line, "CPU variant", 11) || !strncmp(line, "CPU part", 8) ||
        !strncmp(line, "CPU revision", 12))
      len += (size_t)snprintf(id + len, sizeof id - len, ":%.*s", (int)strcspn(line, "\n"), line);
  if (f) fclose(f);
}

#else
static void read_identity(void) {}
#endif

/* NULL where the processor is not one of these */
const char *rt_host_identity(void) {
  pthread_once(&once, read_identity);
  return id[0] ? id : NULL;
}
