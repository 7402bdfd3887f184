/* pool.c — the persistent thread pool that runs parallel loops.
 *
 * One pool per process, started by the first parallel loop that needs it
 * (never when the library loads, never by asking for the thread count):
 * RUCHEY_NUM_THREADS threads if that is an integer in [1, POOL_LIMIT], else
 * one per CPU the process may run on.
 *
 * A loop is cut into contiguous chunks whose sizes differ by at most one,
 * several per thread (pool_chunk_count), and the threads — the caller is
 * thread 0 — claim the next chunk from a shared word until none is left;
 * the caller returns once every chunk is done. On a shared machine a
 * thread whose CPU is taken away holds up only the chunk it is running,
 * and a worker that wakes late finds nothing left and is not waited for.
 * Chunk boundaries depend only on the loop's length and the thread count,
 * so reductions combined in chunk order give the same result on every run.
 *
 * A loop of no more iterations than threads (`for t in prange(n_threads)`,
 * each iteration a thread's share of work the code divides itself) runs
 * one iteration on each thread, as Numba's static schedule does: every
 * thread claims one chunk at most, so the caller waits for the workers it
 * woke. Code that checks that the loop ran on several threads
 * (get_thread_id() > 0 somewhere: PyMPDATA's check of its thread count)
 * finds that it did, and no thread runs two heavy shares while another
 * is still waking.
 *
 * A loop whose body draws random numbers runs on Numba's static schedule
 * (pool_parallel_for_static): one chunk per thread, chunk i on thread i,
 * so each thread's random state (seeded per thread, as Numba's) draws
 * for the same iterations on every run.
 *
 * The claim word holds the loop's generation (high half) and its next
 * chunk (low half): a claim is a compare-and-swap that fails once the loop
 * is over, so a late worker never touches a finished loop's context.
 *
 * Latency: a loop of a few microseconds must not pay a system call per
 * worker. Each worker owns a slot (one cache line) holding a sequence
 * number, which the caller bumps to start it on a loop. Every wait — a
 * worker for the next loop, the caller for the last chunk — spins on the
 * word for at most SPIN_NS, then sleeps on a futex. Loops run back to back
 * never enter the kernel, and an idle pool burns no CPU.
 *
 * Whole loops are serialised by one mutex: a second thread calling
 * pool_parallel_for waits for the first loop to end, then gets the whole
 * pool. A call made from inside a loop body (a nested loop) runs serially
 * on its own thread, since the pool is busy with the outer loop and waiting
 * for it would deadlock.
 *
 * Placement: a worker that finds itself running a chunk on the CPU its
 * caller started the loop on moves to another CPU (leave_callers_cpu): on
 * a machine with no idle CPU, futex wake-ups would otherwise keep the two
 * together.
 *
 * The thread count set by pool_set_num_threads is per calling thread, as
 * Numba's set_num_threads; a loop's workers take their caller's count, so
 * bodies see the same pool_get_num_threads() on every thread.
 *
 * fork: the child has none of the workers. A pthread_atfork child handler
 * forgets them, and the child's first parallel loop starts a new pool.
 *
 * Linux only: the waits are futexes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* sched_getaffinity, CPU_COUNT */
#endif
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ruchey.h"

#define POOL_LIMIT 1024   /* the most threads a pool may have */
#define SPIN_NS 100000    /* how long a waiter spins before it sleeps */
#define CACHE_LINE 64
#define CHUNKS_PER_THREAD 32 /* a thread that falls behind delays 1/32 of its share */
#define MIN_CHUNK 256        /* iterations: shorter loops get one chunk per thread */

/* One worker's mailbox, alone on its cache line. */
typedef struct Slot {
  _Alignas(CACHE_LINE) _Atomic uint32_t seq;  /* bumped by the caller per loop */
  _Atomic int sleeping;                        /* the worker sleeps on seq: wake it */
  uint32_t ran;  /* the generation of the last static loop whose chunk this thread ran (its own to write) */
} Slot;

static struct {
  pthread_mutex_t lock;   /* held for a whole parallel loop */
  Slot *slots;            /* [1, workers]; slot 0 is the caller's and unused */
  int64_t workers;        /* live workers; -1 until the pool starts */
  uint32_t generation;    /* loops run so far */
  /* the loop being run: written before the claim word opens it, read by a
   * thread only after a claim of that loop succeeded */
  PoolBody body;
  void *ctx;
  int64_t n, threads;
  int caller_cpu;         /* where the caller started it; -1: unknown, or more threads than CPUs */
  /* each thread claims one chunk at most, and only threads 0..woken-1 claim
   * (atomic: a worker of an earlier loop reads them before its claim) */
  _Atomic bool one_each;
  _Atomic bool fixed;     /* the static schedule: thread i runs chunk i, the caller those no worker has */
  _Atomic int64_t woken;  /* the threads the loop's caller runs it on, itself (0) included */
  _Atomic uint32_t chunks;
  _Alignas(CACHE_LINE) _Atomic uint64_t claim;     /* generation << 32 | next chunk */
  /* written at the end of every chunk: its own cache line */
  _Alignas(CACHE_LINE) _Atomic uint32_t done;      /* chunks finished */
  _Atomic int caller_sleeping;                      /* the caller sleeps on done */
} P = {.lock = PTHREAD_MUTEX_INITIALIZER, .workers = -1};

static _Atomic int64_t pool_size;         /* 0 until first asked */
static _Thread_local int64_t tl_threads;  /* set_num_threads here; 0: the pool size */
static _Thread_local int64_t tl_id;       /* this thread's index in the pool */
static _Thread_local bool tl_inside;      /* running a chunk: nested loops are serial */
static _Thread_local int64_t tl_chunksize;  /* set_parallel_chunksize(): iterations per chunk of the loops this
                                             * thread starts (0: the pool's own split) */
static _Thread_local bool tl_fork_locked; /* this thread took P.lock to fork */

/* ---------------------------------------------------------------- waiting on a word */

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();  /* yields the core to its hyperthread, saves power */
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void futex_wait(_Atomic uint32_t *w, uint32_t old) {
  syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT_PRIVATE, old, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *w) {
  syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* More pool threads than CPUs: a spinning thread would hold the CPU that
 * the thread it waits for needs, so spinners yield it instead. */
static bool oversubscribed;

/* Spins until *w != old or SPIN_NS pass; returns the last value seen. The
 * clock is read every 64 pauses only: a pause is 10 to 150 cycles. */
static uint32_t spin(_Atomic uint32_t *w, uint32_t old) {
  uint64_t deadline = now_ns() + SPIN_NS;
  for (unsigned i = 1;; i++) {
    uint32_t v = atomic_load_explicit(w, memory_order_acquire);
    if (v != old || (i % 64 == 0 && now_ns() >= deadline)) return v;
    if (oversubscribed) sched_yield();
    else cpu_relax();
  }
}

/* Waits until *w != old and returns the new value. `sleeping` counts the
 * threads asleep on the word. Sleeping is a Dekker handshake with
 * wake_if_sleeping: the waiter publishes `sleeping` then reads the word,
 * the waker writes the word then reads `sleeping` (all sequentially
 * consistent), so at least one of them sees the other's write and no
 * wake-up is lost; the futex itself rechecks the word, so a wake that comes
 * early is harmless. */
static uint32_t await_change(_Atomic uint32_t *w, uint32_t old, _Atomic int *sleeping) {
  uint32_t v = spin(w, old);
  while (v == old) {
    atomic_fetch_add(sleeping, 1);
    if (atomic_load(w) == old) futex_wait(w, old);
    atomic_fetch_sub(sleeping, 1);
    v = atomic_load(w);
  }
  return v;
}

/* The waker's half: call after changing the word (seq_cst). */
static void wake_if_sleeping(_Atomic uint32_t *w, _Atomic int *sleeping) {
  if (atomic_load(sleeping)) futex_wake(w);
}

uint32_t pool_await_change(_Atomic uint32_t *w, uint32_t old, _Atomic int *sleeping) {
  return await_change(w, old, sleeping);
}

void pool_wake(_Atomic uint32_t *w, _Atomic int *sleeping) { wake_if_sleeping(w, sleeping); }

/* ---------------------------------------------------------------- size and count */

/* CPUs this process may run on (its affinity mask, as taskset and cgroups
 * cpusets set it), else those online. */
static int64_t cpu_count(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? n : 1;
}

/* RUCHEY_NUM_THREADS (or Numba's NUMBA_NUM_THREADS) if it is an integer in
 * [1, POOL_LIMIT], else the CPUs. */
static int64_t configured_size(void) {
  const char *s = getenv("RUCHEY_NUM_THREADS");
  if (!s || !*s) s = getenv("NUMBA_NUM_THREADS");
  if (s && *s) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    while (*end == ' ' || *end == '\t' || *end == '\n') end++;
    if (!errno && !*end && v >= 1 && v <= POOL_LIMIT) return v;
  }
  int64_t n = cpu_count();
  return n < POOL_LIMIT ? n : POOL_LIMIT;
}

/* Fixed at the first call; several threads computing it agree. */
int64_t pool_max_threads(void) {
  int64_t n = atomic_load_explicit(&pool_size, memory_order_relaxed);
  if (!n) {
    n = configured_size();
    atomic_store_explicit(&pool_size, n, memory_order_relaxed);
  }
  return n;
}

/* Numba's threading layer is chosen ("initialized") when its threads launch: the first parallel loop,
 * get_num_threads() or set_num_threads(); each of those fixes the pool's size first. */
bool pool_sized(void) { return atomic_load_explicit(&pool_size, memory_order_relaxed) != 0; }

int64_t pool_get_num_threads(void) { return tl_threads ? tl_threads : pool_max_threads(); }

int pool_set_num_threads(int64_t n) {
  if (n < 1 || n > pool_max_threads()) return -1;
  tl_threads = n;
  return 0;
}

int64_t pool_thread_id(void) { return tl_id; }

/* Numba's parallel chunksize: the calling thread's; inside a loop's body it
 * is 0, as Numba resets it there. */
int64_t pool_set_chunksize(int64_t n) {
  int64_t old = pool_get_chunksize();
  tl_chunksize = n;
  return old;
}

int64_t pool_get_chunksize(void) { return tl_inside ? 0 : tl_chunksize; }

/* ---------------------------------------------------------------- chunks */

/* Where chunk i of n iterations split k ways begins: the first n % k chunks
 * have one iteration more. */
static int64_t chunk_begin(int64_t n, int64_t k, int64_t i) {
  int64_t rem = n % k;
  return i * (n / k) + (i < rem ? i : rem);
}

/* Chunks of at least MIN_CHUNK iterations, CHUNKS_PER_THREAD per thread at
 * most, one per thread at least (and one per iteration at most); a loop
 * that runs serially is one chunk. A chunksize set makes chunks of that
 * many iterations, as Numba's (fewer chunks than threads leave threads
 * idle), within the same most: a reduction has a partial per chunk. */
int64_t pool_chunk_count(int64_t n) {
  int64_t k = tl_inside ? 1 : pool_get_num_threads();
  if (k <= 1) return 1;
  int64_t c = tl_chunksize > 0 ? n / tl_chunksize + (n % tl_chunksize != 0) : n / MIN_CHUNK;
  if (c > k * CHUNKS_PER_THREAD) c = k * CHUNKS_PER_THREAD;
  if (c < k && !tl_chunksize) c = k;
  if (c > n) c = n;
  return c > 0 ? c : 1;
}

/* On the static schedule, a worker's claim of its own chunk (its id),
 * if it was woken for the loop and has not run it: counted on the claim
 * word, whose exchange fails once the loop is over. */
static bool claim_own_chunk(uint64_t c, uint32_t *chunk) {
  uint32_t generation = (uint32_t)(c >> 32);
  if (tl_id == 0 || tl_id >= atomic_load_explicit(&P.woken, memory_order_relaxed) ||
      P.slots[tl_id].ran == generation)
    return false;
  while (!atomic_compare_exchange_weak_explicit(&P.claim, &c, c + 1, memory_order_acq_rel, memory_order_acquire))
    if ((uint32_t)(c >> 32) != generation) return false;
  P.slots[tl_id].ran = generation;
  *chunk = (uint32_t)tl_id;
  return true;
}

/* Claims a chunk of the loop now open, if one is left. A successful claim
 * means the loop is still running: its fields are that loop's until every
 * chunk, this one included, is done. */
static bool claim_chunk(uint32_t *chunk) {
  uint64_t c = atomic_load_explicit(&P.claim, memory_order_acquire);
  for (;;) {
    uint32_t next = (uint32_t)c;
    if (next >= atomic_load_explicit(&P.chunks, memory_order_relaxed)) return false;
    if (atomic_load_explicit(&P.fixed, memory_order_relaxed)) return claim_own_chunk(c, chunk);
    /* a loop of one iteration per thread runs on the threads woken for it
     * (get_thread_id() below the count, as Numba's static schedule): a
     * worker still awake from an earlier loop leaves it to them. (Fields
     * read after the claim word: a newer loop fails the exchange below.) */
    if (atomic_load_explicit(&P.one_each, memory_order_relaxed) &&
        tl_id >= atomic_load_explicit(&P.woken, memory_order_relaxed))
      return false;
    if (atomic_compare_exchange_weak_explicit(&P.claim, &c, c + 1, memory_order_acq_rel,
                                              memory_order_acquire)) {
      *chunk = next;
      return true;
    }
  }
}

/* Moves the calling worker off the CPU it shares with its caller. When no
 * CPU is idle (other processes on the machine), Linux places a thread woken
 * by a futex next to its waker: a worker the caller wakes joins the
 * caller's CPU, the caller the worker wakes at the end of a loop joins the
 * worker's, and from then on every loop runs on one CPU while the others
 * serve other processes (a block reduction of 2**22 float64s on 2 CPUs took
 * 2.3 ms in some processes and 4.7 ms in others; Numba's pool does the
 * same), the pair never leaving a CPU idle for the scheduler's balancing to
 * fill. Narrowing the worker's affinity to the other CPUs migrates it at
 * once; its mask given back, it stays where it went. Two syscalls, only on
 * a chunk run so. */
static void leave_callers_cpu(void) {
  cpu_set_t mask, elsewhere;
  if (sched_getaffinity(0, sizeof mask, &mask)) return;
  elsewhere = mask;
  CPU_CLR(P.caller_cpu, &elsewhere);
  if (CPU_COUNT(&elsewhere) && !sched_setaffinity(0, sizeof elsewhere, &elsewhere))
    sched_setaffinity(0, sizeof mask, &mask);
}

/* Runs chunks of the open loop until none is left to claim; the thread
 * that finishes the last one wakes the caller. */
static void run_chunks(void) {
  uint32_t c;
  while (claim_chunk(&c)) {
    uint32_t k = atomic_load_explicit(&P.chunks, memory_order_relaxed);
    tl_threads = P.threads;
    P.body(P.ctx, chunk_begin(P.n, k, c), chunk_begin(P.n, k, c + 1), c);
    if (tl_id && P.caller_cpu >= 0 && sched_getcpu() == P.caller_cpu) leave_callers_cpu();
    bool last_of_mine = atomic_load_explicit(&P.one_each, memory_order_relaxed);  /* (read before the loop can end) */
    if (atomic_fetch_add(&P.done, 1) + 1 == k) wake_if_sleeping(&P.done, &P.caller_sleeping);
    if (last_of_mine) break;
  }
}

/* ---------------------------------------------------------------- workers */

static void *worker_main(void *arg) {
  int64_t id = (int64_t)(intptr_t)arg;
  Slot *s = &P.slots[id];
  tl_id = id;
  tl_inside = true;
  uint32_t seen = 0;  /* slots start at 0, before the thread exists */
  for (;;) {
    seen = await_change(&s->seq, seen, &s->sleeping);
    run_chunks();
  }
  return NULL;
}

/* fork with P.lock held (unless this thread is inside a loop, where taking
 * it would deadlock), so the child copies a pool that is not mid-loop. */
static void fork_prepare(void) {
  tl_fork_locked = !tl_inside;
  if (tl_fork_locked) pthread_mutex_lock(&P.lock);
}

static void fork_parent(void) {
  if (tl_fork_locked) pthread_mutex_unlock(&P.lock);
  tl_fork_locked = false;
}

/* The child's workers do not exist: forget them (the slots are reused). */
static void fork_child(void) {
  pthread_mutex_init(&P.lock, NULL);
  P.workers = -1;
  atomic_store(&P.claim, (uint64_t)P.generation << 32);  /* no chunk left to claim */
  atomic_store(&P.chunks, 0);
  atomic_store(&P.done, 0);
  atomic_store(&P.caller_sleeping, 0);
  tl_fork_locked = false;
}

/* Workers block asynchronous signals, so SIGINT and friends reach the
 * threads that expect them (Python handles them in its main thread); faults
 * stay deliverable so a crash in a worker still reports. */
static void block_async_signals(sigset_t *old) {
  sigset_t set;
  sigfillset(&set);
  static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
  for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++) sigdelset(&set, faults[i]);
  pthread_sigmask(SIG_SETMASK, &set, old);
}

/* Under P.lock. A worker that cannot be created leaves a smaller pool. */
static void start_workers(void) {
  static bool atfork_registered;  /* kept across fork: handlers are inherited */
  if (!atfork_registered) atfork_registered = !pthread_atfork(fork_prepare, fork_parent, fork_child);
  int64_t want = pool_max_threads() - 1;
  oversubscribed = want + 1 > cpu_count();
  P.workers = 0;
  if (!P.slots) P.slots = aligned_alloc(CACHE_LINE, sizeof(Slot) * (size_t)(want + 1));
  if (!P.slots) return;
  memset(P.slots, 0, sizeof(Slot) * (size_t)(want + 1));
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  sigset_t old;
  block_async_signals(&old);
  for (int64_t i = 1; i <= want; i++) {
    pthread_t t;
    if (pthread_create(&t, &attr, worker_main, (void *)(intptr_t)i)) break;
    P.workers = i;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_attr_destroy(&attr);
}

/* ---------------------------------------------------------------- parallel loops */

/* The caller's chunks on the static schedule: its own, 0, and those of
 * threads not woken (a pool smaller than the count asked for) */
static void run_callers_chunks(int64_t chunks, int64_t k) {
  for (int64_t c = 0; c < chunks; c = c ? c + 1 : k) {
    P.body(P.ctx, chunk_begin(P.n, chunks, c), chunk_begin(P.n, chunks, c + 1), c);
    atomic_fetch_add(&P.done, 1);
  }
}

/* Under P.lock, with 2 <= k <= workers + 1 and k <= chunks. Workers 1..k-1
 * are woken; the caller waits for the chunks, not for them. fixed: the
 * static schedule, chunk i on thread i. */
static void run(PoolBody body, void *ctx, int64_t n, int64_t chunks, int64_t k, bool fixed) {
  P.body = body;
  P.ctx = ctx;
  P.n = n;
  P.threads = pool_get_num_threads();
  P.caller_cpu = oversubscribed ? -1 : sched_getcpu();
  atomic_store_explicit(&P.one_each, n == chunks && k == chunks && !fixed, memory_order_relaxed);
  atomic_store_explicit(&P.fixed, fixed, memory_order_relaxed);
  atomic_store_explicit(&P.woken, k, memory_order_relaxed);
  atomic_store_explicit(&P.chunks, (uint32_t)chunks, memory_order_relaxed);
  atomic_store_explicit(&P.done, 0, memory_order_relaxed);
  P.generation++;
  atomic_store_explicit(&P.claim, (uint64_t)P.generation << 32, memory_order_release);
  for (int64_t i = 1; i < k; i++) {
    Slot *s = &P.slots[i];
    atomic_fetch_add(&s->seq, 1);
    wake_if_sleeping(&s->seq, &s->sleeping);
  }
  tl_inside = true;
  if (fixed) run_callers_chunks(chunks, k);
  else run_chunks();
  tl_inside = false;
  uint32_t d;
  while ((d = atomic_load(&P.done)) != (uint32_t)chunks) await_change(&P.done, d, &P.caller_sleeping);
}

/* A serial run is the single chunk 0 over the whole range, whichever
 * thread runs it: per-chunk storage always has room for it. */
/* The whole loop on this thread, its body seeing no chunksize as a chunk's does. */
static void run_serially(PoolBody body, void *ctx, int64_t n) {
  int64_t chunksize = tl_chunksize;
  tl_chunksize = 0;
  body(ctx, 0, n, 0);
  tl_chunksize = chunksize;
}

/* The extension's (pool_set_gil_hooks): a chunk running Python on a pool
 * thread takes the interpreter's lock, which a compiled caller without
 * nogil holds; kept while the loop runs, the chunk would wait forever. */
static void *(*gil_release)(void);
static void (*gil_restore)(void *state);

void pool_set_gil_hooks(void *(*release)(void), void (*restore)(void *state)) {
  gil_release = release;
  gil_restore = restore;
}

static void parallel_for(PoolBody body, void *ctx, int64_t n, int64_t chunks, bool fixed) {
  if (n <= 0) return;
  int64_t k = pool_get_num_threads();
  if (k > chunks) k = chunks;
  if (tl_inside || k <= 1) {
    run_serially(body, ctx, n);
    return;
  }
  /* (before the pool's lock: another thread holding the interpreter's may be waiting for that one) */
  void *gil = gil_release ? gil_release() : NULL;
  pthread_mutex_lock(&P.lock);
  if (P.workers < 0) start_workers();
  if (k > P.workers + 1) k = P.workers + 1;
  if (k > 1) run(body, ctx, n, chunks, k, fixed);
  pthread_mutex_unlock(&P.lock);
  if (k <= 1) run_serially(body, ctx, n);
  if (gil) gil_restore(gil);
}

void pool_parallel_for(PoolBody body, void *ctx, int64_t n, int64_t chunks) { parallel_for(body, ctx, n, chunks, false); }

/* Numba's static schedule: a chunk per thread (the first n % k one
 * iteration longer), whatever chunksize is set */
int64_t pool_static_chunk_count(int64_t n) {
  int64_t k = tl_inside ? 1 : pool_get_num_threads();
  return k < 1 ? 1 : k < n ? k : n > 0 ? n : 1;
}

void pool_parallel_for_static(PoolBody body, void *ctx, int64_t n, int64_t chunks) {
  parallel_for(body, ctx, n, chunks, true);
}
