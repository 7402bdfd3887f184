/* interrupt.c — Ctrl-C in compiled code.
 *
 * A compiled loop runs without returning to the interpreter, which only
 * acts on SIGINT between its own instructions: without help, Ctrl-C waits
 * for the loop to end (forever, for `while x > 0: x += 1.0`). So SIGINT's
 * handler is chained: ours raises rt_interrupted, then calls the one that
 * was there (the interpreter's, which notes the signal for Python).
 * Compiled loops poll the flag (lower/emit.c lo_poll_interrupt: a load and
 * a branch where a loop comes round; innermost loops in blocks of
 * iterations, so that their vector code stays as it was) and, once it is
 * up, leave with RT_ERR_INTERRUPT; the dispatcher then lets the
 * interpreter run its handler (KeyboardInterrupt by default).
 *
 * An except clause that catches the interrupt (a bare one, or one naming
 * KeyboardInterrupt) consumes it, as Python's does: the flag's "up" bit
 * comes down, so the loops after the clause go on, and its "caught" bit
 * tells the dispatcher to run the interpreter's handler, which still has
 * the signal noted, and drop the KeyboardInterrupt that raises.
 *
 * Only the computations of the interpreter's main thread stop — the main
 * thread's own and the pool's workers, which run its parallel loops — as
 * Python delivers KeyboardInterrupt to the main thread only. Another
 * thread polling a raised flag goes on (and pays a call per poll until the
 * main thread next enters compiled code and lowers the flag).
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "ruchey.h"

volatile int32_t rt_interrupted;

static pthread_t main_thread;
static struct sigaction chained;  /* the handler ours calls after raising the flag */

static void on_sigint(int sig, siginfo_t *info, void *uctx) {
  __atomic_fetch_or(&rt_interrupted, RT_INTERRUPT_UP, __ATOMIC_RELAXED);
  if (chained.sa_flags & SA_SIGINFO) {
    if (chained.sa_sigaction) chained.sa_sigaction(sig, info, uctx);
  } else if (chained.sa_handler != SIG_DFL && chained.sa_handler != SIG_IGN && chained.sa_handler) {
    chained.sa_handler(sig);
  }
}

/* Chains on_sigint before SIGINT's current handler, if that is a function
 * (the interpreter's) and ours is not already there: the interpreter puts
 * its own back when Python code sets a handler, so the extension calls
 * this again before each compile. main is the interpreter's main thread. */
void rt_watch_interrupts(uint64_t main) {
  struct sigaction now, ours;
  main_thread = (pthread_t)main;
  if (sigaction(SIGINT, NULL, &now) < 0) return;
  if ((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_sigint) return;
  if (!(now.sa_flags & SA_SIGINFO) && (now.sa_handler == SIG_DFL || now.sa_handler == SIG_IGN)) return;
  ours = now;
  ours.sa_sigaction = on_sigint;
  ours.sa_flags = now.sa_flags | SA_SIGINFO;
  chained = now;
  sigaction(SIGINT, &ours, NULL);
}

/* A compiled loop found the flag up: RT_ERR_INTERRUPT (with the error
 * set) where this thread works for the main thread, else 0 (go on). */
int32_t rt_interrupt_poll(void) {
  if (!pthread_equal(pthread_self(), main_thread) && !pool_thread_id()) return 0;
  rt_set_error(RT_ERR_INTERRUPT, NULL);
  return RT_ERR_INTERRUPT;
}

/* An except clause caught the interrupt (lower/try.c): down first, so that
 * a Ctrl-C coming in between stays up. */
void rt_catch_interrupt(void) {
  __atomic_fetch_and(&rt_interrupted, ~RT_INTERRUPT_UP, __ATOMIC_RELAXED);
  __atomic_fetch_or(&rt_interrupted, RT_INTERRUPT_CAUGHT, __ATOMIC_RELAXED);
}
