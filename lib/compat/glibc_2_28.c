/* glibc_2_28.c — what the manylinux_2_28 build of libruchey defines itself.
 *
 * The wheel links against glibc 2.28's symbols (zig's stubs), so that it
 * loads on any glibc from 2.28 on, but the static libraries it links in
 * (Debian's LLVM, libstdc++) were compiled against a newer glibc and name
 * three symbols 2.28 does not have. Each is defined here, hidden, so the
 * references bind to these definitions inside libruchey, on every glibc.
 */
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/random.h>

#define HIDDEN __attribute__((visibility("hidden")))

/* libstdc++ skips atomic reference counts when this says the process has one
 * thread (glibc 2.32); 0 keeps them always, which is correct everywhere. */
HIDDEN char __libc_single_threaded = 0;

/* LLVM's memory statistics (glibc 2.33): mallinfo's counts, widened. */
HIDDEN struct mallinfo2 mallinfo2(void) {
  struct mallinfo m = mallinfo();
  struct mallinfo2 r = {(size_t)m.arena, (size_t)m.ordblks, (size_t)m.smblks, (size_t)m.hblks,
                        (size_t)m.hblkhd, (size_t)m.usmblks, (size_t)m.fsmblks, (size_t)m.uordblks,
                        (size_t)m.fordblks, (size_t)m.keepcost};
  return r;
}

/* std::random_device's source (glibc 2.36), from the kernel's getrandom
 * (glibc 2.25). */
HIDDEN uint32_t arc4random(void) {
  uint32_t r = 0;
  while (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r) {
  }
  return r;
}
