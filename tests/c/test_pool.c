/* test_pool.c — lib/pool.c on its own, built and run by tests/test_threads.py:
 *
 *   cc -std=c11 -O2 -pthread -Iinclude lib/pool.c tests/c/test_pool.c
 *
 * Checks that every index is visited exactly once, that chunks are balanced,
 * contiguous and each run once by one of the loop's threads, that a thread
 * count of one runs the loop as one chunk, that nested loops run serially, that concurrent callers
 * neither deadlock nor mix, and that a forked child runs loops. Prints the
 * latency of an empty 2-thread loop (not asserted). Exit status 0 on success.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ruchey.h"

static int failures;

#define CHECK(cond, ...)                                    \
  do {                                                      \
    if (!(cond)) {                                          \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);  \
      fprintf(stderr, __VA_ARGS__);                         \
      fprintf(stderr, "\n");                                \
      __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);   \
    }                                                       \
  } while (0)

#define MAX_THREADS 1024
#define MAX_CHUNKS (32 * MAX_THREADS)

/* ---------------------------------------------------------------- coverage and balance */

typedef struct {
  unsigned char *hits;               /* per index */
  int64_t begin[MAX_CHUNKS], end[MAX_CHUNKS];
  int calls[MAX_CHUNKS];             /* runs of each chunk */
  int64_t ids[MAX_CHUNKS];           /* pool_thread_id() seen by each chunk */
  int64_t seen_threads[MAX_CHUNKS];  /* pool_get_num_threads() inside */
} Visit;

static void visit(void *ctx, int64_t begin, int64_t end, int64_t chunk) {
  Visit *v = ctx;
  for (int64_t i = begin; i < end; i++) v->hits[i]++;
  v->begin[chunk] = begin;
  v->end[chunk] = end;
  v->calls[chunk]++;
  v->ids[chunk] = pool_thread_id();
  v->seen_threads[chunk] = pool_get_num_threads();
}

static void check_loop(int64_t n, int64_t threads) {
  static Visit v;
  memset(&v, 0, sizeof v);
  v.hits = calloc((size_t)(n > 0 ? n : 1), 1);
  int64_t chunks = pool_chunk_count(n);
  CHECK(chunks >= 1 && chunks <= MAX_CHUNKS, "n=%lld: %lld chunks", (long long)n, (long long)chunks);
  CHECK(threads > 1 || chunks == 1, "n=%lld: %lld chunks on one thread", (long long)n, (long long)chunks);
  CHECK(n < threads || chunks >= threads, "n=%lld: %lld chunks for %lld threads", (long long)n,
        (long long)chunks, (long long)threads);
  pool_parallel_for(visit, &v, n, chunks);
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) bad += v.hits[i] != 1;
  CHECK(bad == 0, "n=%lld threads=%lld: %lld indices not visited exactly once", (long long)n,
        (long long)threads, (long long)bad);
  int64_t k = n < chunks ? n : chunks;
  int64_t prev_end = 0, lo = n, hi = 0;
  for (int64_t c = 0; c < k; c++) {
    CHECK(v.calls[c] == 1, "n=%lld: chunk %lld ran %d times", (long long)n, (long long)c, v.calls[c]);
    CHECK(v.begin[c] == prev_end, "n=%lld: chunk %lld not contiguous", (long long)n, (long long)c);
    CHECK(v.ids[c] >= 0 && v.ids[c] < threads, "n=%lld: chunk %lld ran on pool thread %lld",
          (long long)n, (long long)c, (long long)v.ids[c]);
    CHECK(v.seen_threads[c] == threads, "n=%lld: chunk %lld sees %lld threads", (long long)n,
          (long long)c, (long long)v.seen_threads[c]);
    int64_t size = v.end[c] - v.begin[c];
    lo = size < lo ? size : lo;
    hi = size > hi ? size : hi;
    prev_end = v.end[c];
  }
  for (int64_t c = k; c < MAX_CHUNKS; c++)
    CHECK(v.calls[c] == 0, "n=%lld: chunk %lld beyond %lld ran", (long long)n, (long long)c, (long long)k);
  if (n > 0) CHECK(prev_end == n && hi - lo <= 1, "n=%lld: chunks end at %lld, sizes %lld..%lld",
                   (long long)n, (long long)prev_end, (long long)lo, (long long)hi);
  free(v.hits);
}

static void test_coverage(void) {
  static const int64_t sizes[] = {0, 1, 2, 3, 7, 1000, 1000000, 1000003};
  int64_t max = pool_max_threads();
  for (int64_t threads = 1; threads <= max; threads = threads < 4 ? threads + 1 : threads * 2) {
    CHECK(pool_set_num_threads(threads) == 0, "set_num_threads(%lld) refused", (long long)threads);
    CHECK(pool_get_num_threads() == threads, "get_num_threads() after set");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) check_loop(sizes[i], threads);
  }
  pool_set_num_threads(max);
  check_loop(12345, max);
}

static void test_settings(void) {
  int64_t max = pool_max_threads();
  CHECK(max >= 1, "pool size %lld", (long long)max);
  CHECK(pool_set_num_threads(0) == -1, "set_num_threads(0) accepted");
  CHECK(pool_set_num_threads(-3) == -1, "set_num_threads(-3) accepted");
  CHECK(pool_set_num_threads(max + 1) == -1, "set_num_threads(max + 1) accepted");
  CHECK(pool_get_num_threads() == max, "default thread count %lld", (long long)pool_get_num_threads());
  CHECK(pool_thread_id() == 0, "thread id outside the pool");
}

/* ---------------------------------------------------------------- nesting */

typedef struct {
  int64_t inner_calls[MAX_THREADS];  /* inner chunks per outer thread */
  int64_t inner_bad[MAX_THREADS];    /* inner chunks not run serially on the outer's thread */
} Nest;

typedef struct { int64_t calls, bad, id; } Inner;

static void inner_body(void *ctx, int64_t begin, int64_t end, int64_t chunk) {
  Inner *in = ctx;
  in->calls++;
  in->bad += begin != 0 || end != 100 || chunk != 0 || pool_thread_id() != in->id;
}

static void outer_body(void *ctx, int64_t begin, int64_t end, int64_t chunk) {
  Nest *nest = ctx;
  for (int64_t i = begin; i < end; i++) {
    Inner in = {0, 0, pool_thread_id()};
    pool_parallel_for(inner_body, &in, 100, pool_chunk_count(100));
    nest->inner_calls[in.id] += in.calls;
    nest->inner_bad[in.id] += in.bad;
  }
}

static void test_nested(void) {
  static Nest nest;
  memset(&nest, 0, sizeof nest);
  int64_t k = pool_get_num_threads(), n = 64;
  pool_parallel_for(outer_body, &nest, n, pool_chunk_count(n));
  int64_t calls = 0, bad = 0;
  for (int64_t t = 0; t < MAX_THREADS; t++) calls += nest.inner_calls[t], bad += nest.inner_bad[t];
  CHECK(calls == n, "nested: %lld inner chunks for %lld outer iterations (threads %lld)",
        (long long)calls, (long long)n, (long long)k);
  CHECK(bad == 0, "nested: %lld inner loops not serial on the outer thread", (long long)bad);
}

/* ---------------------------------------------------------------- concurrent callers */

typedef struct { _Atomic int64_t *sum; int64_t *hits; } Sum;

static void sum_body(void *ctx, int64_t begin, int64_t end, int64_t chunk) {
  Sum *s = ctx;
  int64_t local = 0;
  for (int64_t i = begin; i < end; i++) local += i, s->hits[i]++;
  *s->sum += local;
}

static void *caller_main(void *arg) {
  int64_t id = (int64_t)(intptr_t)arg, n = 10000 + 17 * id;
  if (id % 2) pool_set_num_threads(1 + id % pool_max_threads());  /* per-thread setting */
  int64_t *hits = malloc(sizeof *hits * (size_t)n);
  for (int round = 0; round < 300; round++) {
    _Atomic int64_t sum = 0;
    memset(hits, 0, sizeof *hits * (size_t)n);
    Sum s = {&sum, hits};
    pool_parallel_for(sum_body, &s, n, pool_chunk_count(n));
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++) bad += hits[i] != 1;
    CHECK(sum == n * (n - 1) / 2 && bad == 0, "caller %lld round %d: sum %lld, %lld bad indices",
          (long long)id, round, (long long)sum, (long long)bad);
  }
  free(hits);
  return NULL;
}

static void test_concurrent(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, caller_main, (void *)(intptr_t)i);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
}

/* ---------------------------------------------------------------- fork */

static void test_fork(void) {
  check_loop(1000, pool_get_num_threads());  /* the pool is running in the parent */
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int before = failures;
    for (int i = 0; i < 20; i++) check_loop(100000, pool_get_num_threads());
    test_nested();
    _exit(failures == before ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork/waitpid failed");
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: status %d", status);
  check_loop(1000, pool_get_num_threads());  /* and the parent's pool still works */
}

/* ---------------------------------------------------------------- a worker on the caller's CPU */

typedef struct {
  int cpu;             /* the caller's, where worker 1 goes */
  cpu_set_t mask;      /* the process's */
  _Atomic int landed;  /* worker 1 ran its chunk there */
  _Atomic int ran_on;  /* the CPU worker 1 ran its chunk on */
  _Atomic pid_t tid;   /* worker 1's */
} Join;

/* Worker 1 moves itself onto the caller's CPU, as the scheduler's wake-up
 * placement does on a busy machine, then gives its mask back. */
static void join_caller(void *ctx, int64_t begin, int64_t end, int64_t chunk) {
  Join *j = ctx;
  if (pool_thread_id() != 1) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(j->cpu, &one);
  if (sched_setaffinity(0, sizeof one, &one)) return;
  j->landed = sched_getcpu() == j->cpu;
  j->tid = (pid_t)syscall(SYS_gettid);
  sched_setaffinity(0, sizeof j->mask, &j->mask);
}

static void note_cpu(void *ctx, int64_t begin, int64_t end, int64_t chunk) {
  Join *j = ctx;
  if (pool_thread_id() == 1) j->ran_on = sched_getcpu();
}

static void test_separate(void) {
  static Join j;
  if (sched_getaffinity(0, sizeof j.mask, &j.mask) || CPU_COUNT(&j.mask) < 2 ||
      pool_max_threads() > CPU_COUNT(&j.mask) || pool_set_num_threads(2) < 0) {
    printf("separate: skipped (needs 2 threads on at least as many CPUs)\n");
    return;
  }
  j.cpu = sched_getcpu();
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(j.cpu, &one);
  pthread_setaffinity_np(pthread_self(), sizeof one, &one);  /* the caller stays put */
  /* on a busy machine the scheduler may bring the worker back between the
   * loops, as it brought it there: a few tries */
  for (int attempt = 0; attempt < 5 && (attempt == 0 || j.ran_on == j.cpu); attempt++) {
    pool_parallel_for(join_caller, &j, 2, 2);  /* one chunk each */
    j.ran_on = -1;
    pool_parallel_for(note_cpu, &j, 2, 2);
  }
  pthread_setaffinity_np(pthread_self(), sizeof j.mask, &j.mask);
  pool_set_num_threads(pool_max_threads());
  if (!j.landed) {
    printf("separate: skipped (the worker could not move to CPU %d)\n", j.cpu);
    return;
  }
  CHECK(j.ran_on >= 0 && j.ran_on != j.cpu, "worker 1 ran the next loop on the caller's CPU %d too (5 tries)", j.cpu);
  cpu_set_t now;
  CHECK(!sched_getaffinity(j.tid, sizeof now, &now) && CPU_EQUAL(&now, &j.mask), "worker 1's affinity not given back");
}

/* ---------------------------------------------------------------- latency */

static void empty(void *ctx, int64_t begin, int64_t end, int64_t chunk) {}

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median and 90th percentile of an empty loop over 2 threads: back to back
 * (workers spinning), and after an idle pause (workers asleep). */
static void report_latency(int64_t threads, const char *what, useconds_t pause_us, int reps) {
  if (pool_set_num_threads(threads) < 0) return;
  static double t[20000];
  for (int i = 0; i < reps; i++) {
    if (pause_us) usleep(pause_us);
    double t0 = now_us();
    pool_parallel_for(empty, NULL, threads, pool_chunk_count(threads));
    t[i] = now_us() - t0;
  }
  qsort(t, (size_t)reps, sizeof t[0], by_value);
  printf("latency %lld threads, %s: median %.2f us, p90 %.2f us\n", (long long)threads, what,
         t[reps / 2], t[reps * 9 / 10]);
}

int main(void) {
  printf("pool size %lld\n", (long long)pool_max_threads());
  test_settings();
  test_coverage();
  test_nested();
  test_concurrent();
  test_fork();
  test_separate();
  int64_t max = pool_max_threads();
  report_latency(2, "back to back", 0, 20000);
  report_latency(2, "after 2 ms idle", 2000, 300);
  if (max > 2) report_latency(max, "back to back", 0, 20000);
  pool_set_num_threads(max);
  printf("%s (%d failures)\n", failures ? "FAILED" : "ok", failures);
  return failures ? 1 : 0;
}
