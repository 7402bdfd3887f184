/* fiber.c — a block's CUDA threads as fibers, for barriers the loop fission
 * cannot reach (inside device functions, under conditions that differ
 * between threads).
 *
 * Each thread of the block runs on its own small stack; cuda.syncthreads()
 * switches back to the scheduler, which resumes every thread once all live
 * ones have arrived (threads that returned count as arrived, as on GPUs since
 * Volta). A warp collective (cuda.shfl_sync, cuda.ballot_sync, ...) switches
 * back too: once every live lane of its warp waits somewhere, the lanes
 * waiting at the same call get their results together (warp.c) and go on,
 * as the lanes a GPU runs converged would. The switch is a few instructions
 * of assembly: glibc's swapcontext saves the signal mask with a system call
 * and is about 15 times slower.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ruchey.h"

#define FIBER_STACK (64 * 1024)

typedef struct Fiber {
  void *sp;         /* saved stack pointer while switched out */
  int state;        /* FIBER_READY, FIBER_WAITING at a barrier, FIBER_WARP at a collective, FIBER_DONE */
  const char *site; /* waiting: at which call (file:line[:col]) */
  int op;           /* waiting: the CollectiveOp */
  uint64_t arg[3];  /* waiting: its arguments */
  uint64_t result;  /* its result, once released */
  bool grid;        /* waiting: at a grid.sync(), for the grid once its block has arrived */
} Fiber;

enum { FIBER_READY, FIBER_WAITING, FIBER_WARP, FIBER_DONE };

typedef struct Sched {
  void *sp;                         /* the scheduler's own stack pointer */
  Fiber *fibers;
  int64_t n, cur;
  int (*body)(void *ctx, int64_t thread);
  void *ctx;
  int status;                       /* the first failing thread's status */
  struct GridBlock *block;          /* the grid's block it runs in, if any */
} Sched;

/* A block of a kernel that waits for its grid, run as a fiber (below). */
typedef struct GridBlock {
  void *sp;               /* while switched out */
  int64_t index;
  bool done;
  struct Sched *threads;  /* its threads' scheduler, while they wait at a grid.sync() */
  struct Share *share;    /* the pool thread's share that runs it in this step */
} GridBlock;

static void grid_block_wait(GridBlock *b);

/* Thread-local, so read only where a fiber cannot have moved to another
 * pool thread since the function began: a compiler may keep a thread
 * local's address across the calls that switch fibers. */
static _Thread_local Sched *current;
static _Thread_local GridBlock *running_block;  /* the grid's block this thread runs, if any */

/* ---------------------------------------------------------------- the threads' stacks */

/* A block's threads' stacks, side by side, each with a page under it that
 * faults: a thread needing more than its stack stops there instead of
 * writing over its neighbour's (every function of a fiber kernel probes its
 * frame a page at a time, lower/fibers.c). Each stack holds FIBER_STACK for
 * the usual frames plus the kernel's local arrays. Mapped once and kept
 * while big enough: untouched pages cost nothing, and the guards cost a
 * system call each. */
typedef struct StackSet {
  char *base;     /* the mapping: n times (guard page, stack) */
  size_t each;    /* a stack and its guard page */
  int64_t n;
  bool guards;    /* a guard under every stack, or under the first only */
  struct StackSet *next;  /* on the list of free sets of grids' blocks */
} StackSet;

static size_t page_size(void) {
  static size_t page;
  if (!page) page = (size_t)sysconf(_SC_PAGESIZE);
  return page;
}

static size_t stack_each(int64_t local_bytes) {
  size_t page = page_size();
  return page + ((FIBER_STACK + (size_t)local_bytes + page - 1) & ~(page - 1));
}

static bool stack_set_fits(const StackSet *s, int64_t n, size_t each) { return s->base && s->n >= n && s->each >= each; }

static void unmap_stack_set(StackSet *s) {
  if (s->base) munmap(s->base, s->each * (size_t)s->n);
  s->base = NULL;
}

static bool map_stack_set(StackSet *s, int64_t n, size_t each) {
  bool guards = s->guards;
  unmap_stack_set(s);
  char *base = mmap(NULL, each * (size_t)n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) return false;
  for (int64_t t = 0; t < (guards ? n : 1); t++) mprotect(base + (size_t)t * each, page_size(), PROT_NONE);
  *s = (StackSet){base, each, n, guards, NULL};
  return true;
}

/* Grown to hold both what it held and what is asked, so kernels taking
 * turns do not map it again and again. */
static bool grow_stack_set(StackSet *s, int64_t n, size_t each) {
  if (s->base) {
    if (s->n > n) n = s->n;
    if (s->each > each) each = s->each;
  }
  return map_stack_set(s, n, each);
}

/* The top of thread t's stack. */
static char *stack_top(const StackSet *s, int64_t t) { return s->base + (size_t)(t + 1) * s->each; }

/* The stacks of the blocks a pool thread runs, unmapped when it exits. */
static _Thread_local StackSet *thread_stacks;
static pthread_key_t stacks_key;
static pthread_once_t stacks_once = PTHREAD_ONCE_INIT;

static void free_stack_set(void *p) {
  unmap_stack_set(p);
  free(p);
}
static void make_stacks_key(void) { pthread_key_create(&stacks_key, free_stack_set); }

static StackSet *this_threads_stacks(int64_t n, size_t each) {
  if (!thread_stacks) {
    pthread_once(&stacks_once, make_stacks_key);
    if (!(thread_stacks = calloc(1, sizeof *thread_stacks))) return NULL;
    thread_stacks->guards = true;
    pthread_setspecific(stacks_key, thread_stacks);
  }
  if (!stack_set_fits(thread_stacks, n, each) && !grow_stack_set(thread_stacks, n, each)) return NULL;
  return thread_stacks;
}

/* A block of a grid may leave its pool thread at a grid.sync(), its
 * threads' stacks in use: it takes a set of its own, from a list of sets
 * that finished blocks gave back (at most FREE_SETS_KEPT kept). Such a set
 * has one guard, under its first stack: a guard a stack would take a
 * mapping each, and a grid of a thousand blocks of 32 fibers would pass the
 * system's limit on mappings (65,530 on Linux); the stacks still hold the
 * kernel's local arrays. */
#define FREE_SETS_KEPT 1024
static pthread_mutex_t free_sets_lock = PTHREAD_MUTEX_INITIALIZER;
static StackSet *free_sets;
static int nfree_sets;

static StackSet *take_stack_set(int64_t n, size_t each) {
  pthread_mutex_lock(&free_sets_lock);
  StackSet *s = free_sets;
  if (s) free_sets = s->next, nfree_sets--;
  pthread_mutex_unlock(&free_sets_lock);
  if (!s && !(s = calloc(1, sizeof *s))) return NULL;
  if (stack_set_fits(s, n, each) || grow_stack_set(s, n, each)) return s;
  free(s);
  return NULL;
}

static void give_back_stack_set(StackSet *s) {
  pthread_mutex_lock(&free_sets_lock);
  bool keep = nfree_sets < FREE_SETS_KEPT;
  if (keep) s->next = free_sets, free_sets = s, nfree_sets++;
  pthread_mutex_unlock(&free_sets_lock);
  if (!keep) free_stack_set(s);
}

#if defined(__x86_64__)
/* rt_fiber_switch(void **save_sp, void *next_sp): saves the callee-saved
 * registers on this stack, then resumes next. The FP control words (MXCSR,
 * the x87's) stay the thread's, shared by its fibers as by the kernels it
 * runs without them: compiled code never switches with them changed
 * (libdevice's rounding-mode functions restore them before returning), and
 * saving and loading them cost more than the rest of the switch. */
__asm__(".text\n"
        ".p2align 4\n"
        ".hidden rt_fiber_switch\n"
        ".type rt_fiber_switch,@function\n"
        "rt_fiber_switch:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size rt_fiber_switch, .-rt_fiber_switch\n");
void rt_fiber_switch(void **save_sp, void *next_sp);
#define HAVE_FIBERS 1
#endif

#ifdef HAVE_FIBERS
/* Where a new fiber starts: run the thread, then return to the scheduler
 * for good. */
static void fiber_start(void) {
  Sched *s = current;
  int status = s->body(s->ctx, s->cur);
  if (status && !s->status) s->status = status;
  s->fibers[s->cur].state = FIBER_DONE;
  rt_fiber_switch(&s->fibers[s->cur].sp, s->sp);
}

/* A fresh stack ending at end, laid out as rt_fiber_switch leaves one: six
 * registers, then start as the return address. */
static void *new_fiber_stack(char *end, void (*start)(void)) {
  uint64_t *top = (uint64_t *)((uintptr_t)end & ~(uintptr_t)15);
  top[-1] = 0;                               /* start's (unused) return address */
  top[-2] = (uint64_t)(uintptr_t)start;
  for (int r = 3; r <= 8; r++) top[-r] = 0;  /* rbp rbx r12 r13 r14 r15 */
  return &top[-8];
}
#endif

/* Called by compiled code at a collective in fiber mode: waits with its
 * arguments until released, then returns its result. */
uint64_t rt_fiber_collective(int op, const char *site, uint64_t a0, uint64_t a1, uint64_t a2) {
  uint64_t a[3] = {a0, a1, a2};
#ifdef HAVE_FIBERS
  Sched *s = current;
  if (s) {
    Fiber *f = &s->fibers[s->cur];
    f->state = COLL_IS_BLOCK(op) ? FIBER_WAITING : FIBER_WARP;
    f->site = site;
    f->op = op;
    memcpy(f->arg, a, sizeof a);
    rt_fiber_switch(&f->sp, s->sp);
    return f->result;
  }
#endif
  /* a thread alone: its block has one thread */
  uint8_t done = 0;
  if (COLL_IS_BLOCK(op)) return rt_block_result(op, 1, &done, &a[1]);
  uint64_t r = 0;
  rt_warp_results(op, 1, 1, &a[0], &a[1], &a[2], &r);
  return r;
}

/* Called by compiled code at cuda.syncthreads() in fiber mode. */
void rt_fiber_barrier(const char *site) { rt_fiber_collective(COLL_BLOCK_SYNC, site, 0, 0, 0); }

/* Called by compiled code at grid.sync() in fiber mode: a barrier of the
 * block, after which release_block waits for the grid. */
void rt_fiber_grid_sync(const char *site) {
#ifdef HAVE_FIBERS
  Sched *s = current;
  if (s) {
    s->fibers[s->cur].grid = true;
    rt_fiber_barrier(site);
    return;
  }
#endif
  (void)site;
  rt_grid_sync((int64_t)(intptr_t)running_block);  /* a thread alone */
}

#ifdef HAVE_FIBERS
/* Releases, warp by warp, the lanes waiting at the same collective; false
 * when none waits at one. */
static bool release_warps(Sched *s) {
  bool released = false;
  for (int64_t w = 0; w < s->n; w += RC_WARP) {
    int nlanes = s->n - w < RC_WARP ? (int)(s->n - w) : RC_WARP;
    Fiber *lanes = &s->fibers[w];
    uint32_t grouped = 0;
    for (int i = 0; i < nlanes; i++) {
      if (lanes[i].state != FIBER_WARP || (grouped >> i & 1)) continue;
      uint32_t part = 0;
      uint64_t a[3][RC_WARP] = {{0}}, out[RC_WARP] = {0};
      for (int j = i; j < nlanes; j++) {
        if (lanes[j].state != FIBER_WARP || strcmp(lanes[j].site, lanes[i].site)) continue;
        part |= 1u << j;
        for (int k = 0; k < 3; k++) a[k][j] = lanes[j].arg[k];
      }
      rt_warp_results(lanes[i].op, part, nlanes, a[0], a[1], a[2], out);
      for (int j = i; j < nlanes; j++)
        if (part >> j & 1) {
          lanes[j].result = out[j];
          lanes[j].state = FIBER_READY;
        }
      grouped |= part;
      released = true;
    }
  }
  return released;
}

/* Whether the waiting threads wait at a grid.sync() (then all do: they
 * wait at the same call). */
static bool waits_for_grid(Sched *s) {
  bool grid = false;
  for (int64_t t = 0; t < s->n; t++) {
    grid |= s->fibers[t].state == FIBER_WAITING && s->fibers[t].grid;
    s->fibers[t].grid = false;
  }
  return grid;
}

/* Releases the block's threads when every live one waits at the same
 * syncthreads (with its value, for syncthreads_count and the like); false
 * when none waits. */
static bool release_block(Sched *s) {
  const char *site = NULL;
  int op = COLL_BLOCK_SYNC;
  uint64_t result = 0;
  for (int64_t t = 0; t < s->n && !s->status; t++) {
    Fiber *f = &s->fibers[t];
    if (f->state != FIBER_WAITING) continue;
    if (site && strcmp(site, f->site)) {
      static _Thread_local char msg[700];
      snprintf(msg, sizeof msg, "cuda.syncthreads() reached by only some threads of a block: "
               "some wait at %s, others at %s", site, f->site);
      rt_set_error(RT_ERR_RUNTIME, msg);
      s->status = RT_ERR_RUNTIME;
    }
    site = f->site;
    op = f->op;
  }
  if (!site || s->status) return false;
  if (waits_for_grid(s)) {  /* the block leaves the pool thread until every block has arrived */
    GridBlock *b = s->block;
    b->threads = s;  /* current, for the pool thread that resumes it */
    grid_block_wait(b);
    b->threads = NULL;
  }
  if (op != COLL_BLOCK_SYNC) {
    uint64_t *pred = malloc((sizeof *pred + 1) * (size_t)s->n);  /* then a byte a thread: whether it is done */
    if (!pred) {
      rt_set_error(RT_ERR_MEMORY, "out of memory in cuda.syncthreads_count()");
      s->status = RT_ERR_MEMORY;
      return false;
    }
    uint8_t *done = (uint8_t *)(pred + s->n);
    for (int64_t t = 0; t < s->n; t++) {
      done[t] = s->fibers[t].state != FIBER_WAITING;
      pred[t] = s->fibers[t].arg[1];
    }
    result = rt_block_result(op, s->n, done, pred);
    free(pred);
  }
  for (int64_t t = 0; t < s->n; t++)
    if (s->fibers[t].state == FIBER_WAITING) {
      s->fibers[t].result = result;
      s->fibers[t].state = FIBER_READY;
    }
  return true;
}
#endif

/* Runs body(ctx, t) for every thread t of a block as fibers; returns the
 * first failing thread's status. A failure stops the block: the other
 * threads are abandoned where they wait (kernels hold no resources). */
int rt_fiber_block(int (*body)(void *, int64_t), void *ctx, int64_t n, int64_t local_bytes) {
#ifdef HAVE_FIBERS
  GridBlock *block = running_block;
  size_t each = stack_each(local_bytes);
  StackSet *set = block ? take_stack_set(n, each) : this_threads_stacks(n, each);
  if (!set) {
    rt_set_error(RT_ERR_MEMORY, "cannot allocate fiber stacks for a kernel block");
    return RT_ERR_MEMORY;
  }
  Fiber fibers[n];
  Sched s = {.fibers = fibers, .n = n, .body = body, .ctx = ctx, .block = block};
  for (int64_t t = 0; t < n; t++) {
    fibers[t].sp = new_fiber_stack(stack_top(set, t), fiber_start);
    fibers[t].state = FIBER_READY;
    fibers[t].grid = false;
  }
  Sched *outer = current;
  current = &s;
  for (bool waiting = true; waiting && !s.status;) {
    for (int64_t t = 0; t < n && !s.status; t++) {
      if (fibers[t].state != FIBER_READY) continue;
      s.cur = t;
      rt_fiber_switch(&s.sp, fibers[t].sp);
    }
    /* every live thread waits: warps' collectives first, then, when every
     * live thread waits at one syncthreads, the block (at two different
     * ones, the block would hang on a GPU) */
    waiting = !s.status && (release_warps(&s) || release_block(&s));
  }
  if (!block) current = outer;  /* a grid's block may be on another pool thread: take_block resets it */
  else give_back_stack_set(set);
  return s.status;
#else
  (void)body; (void)ctx; (void)n; (void)local_bytes;
  rt_set_error(RT_ERR_RUNTIME, "this kernel needs fibers, which this CPU architecture lacks");
  return RT_ERR_RUNTIME;
#endif
}

/* ---------------------------------------------------------------- the grid's blocks (grid.sync) */

/* A kernel that waits for its whole grid (cuda.cg.this_grid().sync()) runs
 * each block as a fiber of its own, with a stack big enough for the
 * block's per-thread storage and shared arrays. The grid runs in steps:
 * in each, every live block is resumed once, until it reaches the grid's
 * barrier or ends; the step ends when all have.
 *
 * The pool's threads run the steps in one parallel loop. Each step, every
 * thread has a share: a contiguous range of blocks that it takes from the
 * front, one compare-and-swap on its own cache line a block; a thread whose
 * share is empty takes the back half of another's. A block so stays on one
 * thread while the threads keep up, its stack in that core's cache (a
 * block moved to the other core at every barrier cost several times the
 * switch), and a thread that falls behind, or never starts, has its blocks
 * run by the others. A block that stops switches straight to the next
 * block its thread takes, a switch a block, and the stack of the block
 * two further on is fetched meanwhile: what is left of a barrier's cost is
 * mostly the TLB misses of touching every block's stack, a page each. The
 * thread that finishes a step's last block writes out the step's print()
 * lines and opens the next step; the others wait for it.
 *
 * A block may resume on another thread of the pool than it stopped on:
 * compiled kernel code keeps nothing thread-local across the barrier (its
 * errors are recorded before its chunk returns). */
#define GRID_STACK ((size_t)8 << 20)
#define GRID_GUARD ((size_t)4096)
#define GRID_MAX_BLOCKS 4096
#define GRID_ENDED UINT32_MAX
/* The blocks' stacks lie GRID_STACK + GRID_STAGGER apart: tops a multiple
 * of GRID_STACK apart share a cache set and a TLB set, and a barrier
 * resuming every block then misses for each (a third of a barrier's time
 * on one thread). A page and a line more each, so that each block has
 * all of GRID_STACK. */
#define GRID_STAGGER ((size_t)4096 + 64)
/* Taking block i fetches the stack of block i + GRID_AHEAD, this many
 * lines of it from where it stopped: the frames a resume touches. */
#define GRID_AHEAD 2
#define GRID_AHEAD_LINES 4

/* A share's range is one word, so that its owner and the threads taking
 * from it agree with one compare-and-swap: the step it is for (a thread
 * late for a step finds no blocks of the next), then the blocks
 * [front, back). */
#define RANGE(step, front, back) ((uint64_t)(step) << 32 | (uint64_t)(back) << 16 | (uint64_t)(front))
#define RANGE_STEP(r) ((uint32_t)((r) >> 32))
#define RANGE_BACK(r) ((int64_t)((r) >> 16 & 0xFFFF))
#define RANGE_FRONT(r) ((int64_t)((r) & 0xFFFF))
_Static_assert(GRID_MAX_BLOCKS < 0x10000, "a range's block numbers take 16 bits");

typedef struct Share {
  _Alignas(64) _Atomic uint64_t range;  /* the blocks of this step not yet taken */
  void *sp;                             /* the pool thread's own stack while it runs blocks */
  /* its thread's running_block, current and print() buffer, reached
   * without a thread-local look-up at every block */
  GridBlock **running;
  struct Sched **current;
  const size_t *buffered;
  uint32_t step;                        /* the step it runs */
  int64_t ran, ended;                   /* blocks it ran in this step, and of them those that ended */
  int64_t index;
  struct Grid *grid;
} Share;

typedef struct Grid {
  void (*chunk)(void *ctx, int64_t begin, int64_t end, int64_t handle);
  void *ctx;
  GridBlock *blocks;
  Share *shares;
  int64_t n, nshares;
  int64_t live;                                  /* blocks not done when this step opened */
  _Alignas(64) _Atomic uint32_t step;            /* the step open now, from 1; GRID_ENDED at the end */
  _Atomic int sleeping;                          /* threads asleep waiting for the next step */
  _Alignas(64) _Atomic int64_t finished;         /* blocks of this step that reached the barrier or ended */
  _Atomic int64_t ended;                         /* blocks done, over all steps */
} Grid;

#ifdef HAVE_FIBERS
/* Takes the back half of another share's blocks for its own; false when
 * every share is empty. */
static bool steal_half(Share *w) {
  Grid *g = w->grid;
  for (int64_t k = 1; k < g->nshares; k++) {
    Share *v = &g->shares[(w->index + k) % g->nshares];
    uint64_t r = atomic_load_explicit(&v->range, memory_order_acquire);
    while (RANGE_STEP(r) == w->step && RANGE_FRONT(r) < RANGE_BACK(r)) {
      int64_t front = RANGE_FRONT(r), back = RANGE_BACK(r), mid = back - (back - front + 1) / 2;
      if (atomic_compare_exchange_weak_explicit(&v->range, &r, RANGE(w->step, front, mid), memory_order_acq_rel,
                                                memory_order_acquire)) {
        atomic_store_explicit(&w->range, RANGE(w->step, mid, back), memory_order_release);
        return true;
      }
    }
  }
  return false;
}

/* The next block of this step for share w's thread to run; NULL when no
 * block is left to take. */
static GridBlock *take_block(Share *w) {
  Grid *g = w->grid;
  for (;;) {
    uint64_t r = atomic_load_explicit(&w->range, memory_order_relaxed);
    if (RANGE_STEP(r) != w->step || RANGE_FRONT(r) >= RANGE_BACK(r)) {
      if (!steal_half(w)) return NULL;
      continue;
    }
    int64_t i = RANGE_FRONT(r);
    if (!atomic_compare_exchange_weak_explicit(&w->range, &r, r + 1, memory_order_acq_rel, memory_order_relaxed))
      continue;
    if (i + GRID_AHEAD < g->n) {
      char *sp = __atomic_load_n(&g->blocks[i + GRID_AHEAD].sp, __ATOMIC_RELAXED);  /* it may run elsewhere: only a hint */
      for (int k = 0; k < GRID_AHEAD_LINES; k++) __builtin_prefetch(sp + 64 * k, 1);
    }
    if (!g->blocks[i].done) return &g->blocks[i];
  }
}

/* Leaves block b, stopped at the grid's barrier or done, for the next
 * block its thread takes, or for the thread's own loop when none is left.
 * Returns when a thread resumes b in a later step. */
static void grid_block_wait(GridBlock *b) {
  Share *w = b->share;
  if (*w->buffered) rt_print_flush(b->index);
  w->ran++;
  w->ended += b->done;
  GridBlock *next = take_block(w);
  *w->running = next;
  *w->current = next ? next->threads : NULL;
  if (next) next->share = w;
  rt_fiber_switch(&b->sp, next ? next->sp : w->sp);
}

static void grid_block_start(void) {
  GridBlock *b = running_block;
  Grid *g = b->share->grid;
  g->chunk(g->ctx, b->index, b->index + 1, (int64_t)(intptr_t)b);
  b->done = true;
  grid_block_wait(b);
}

/* Gives every share its range of the live blocks for step `step`. */
static void open_ranges(Grid *g, uint32_t step) {
  for (int64_t s = 0; s < g->nshares; s++)
    atomic_store(&g->shares[s].range, RANGE(step, s * g->n / g->nshares, (s + 1) * g->n / g->nshares));
}

/* The step's last block is in: its lines go out, then the next step opens
 * (none when every block is done). */
static void close_step(Grid *g, uint32_t step) {
  rt_print_write_out();
  g->live = g->n - atomic_load(&g->ended);
  atomic_store(&g->finished, 0);
  if (g->live) open_ranges(g, step + 1);
  atomic_store(&g->step, g->live ? step + 1 : GRID_ENDED);
  pool_wake(&g->step, &g->sleeping);
}

/* One pool thread's part in every step: its share of the blocks, then
 * halves of the others'. */
static void run_steps(void *ctx, int64_t share, int64_t end, int64_t chunk) {
  (void)end; (void)chunk;
  Grid *g = ctx;
  Share *w = &g->shares[share];
  w->running = &running_block;
  w->current = &current;
  w->buffered = rt_print_buffered();
  for (uint32_t step = atomic_load(&g->step); step != GRID_ENDED;) {
    w->step = step;
    w->ran = w->ended = 0;
    GridBlock *b = take_block(w);
    if (b) {  /* the blocks switch from one to the next, the last back here */
      b->share = w;
      running_block = b;
      current = b->threads;
      rt_fiber_switch(&w->sp, b->sp);
    }
    if (w->ran) {  /* the step cannot close before this thread's blocks count: live is still its own */
      int64_t live = g->live;
      if (w->ended) atomic_fetch_add(&g->ended, w->ended);
      if (atomic_fetch_add(&g->finished, w->ran) + w->ran == live) close_step(g, step);
    }
    step = pool_await_change(&g->step, step, &g->sleeping);
  }
}
#endif

void rt_grid_sync(int64_t handle) {
#ifdef HAVE_FIBERS
  GridBlock *b = (GridBlock *)(intptr_t)handle;
  if (b) grid_block_wait(b);
#else
  (void)handle;
#endif
}

int rt_grid_run(void (*chunk)(void *ctx, int64_t begin, int64_t end, int64_t handle), void *ctx,
                int64_t nblocks) {
#ifdef HAVE_FIBERS
  static pthread_mutex_t one_at_a_time = PTHREAD_MUTEX_INITIALIZER;  /* the pool runs one grid */
  if (nblocks > GRID_MAX_BLOCKS) {
    static _Thread_local char msg[300];
    snprintf(msg, sizeof msg, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE: a kernel that waits for its "
             "grid runs at most %d blocks on the CPU backend, and this grid has %lld",
             GRID_MAX_BLOCKS, (long long)nblocks);
    rt_set_error(RT_ERR_RUNTIME, msg);
    return RT_ERR_RUNTIME;
  }
  int64_t nshares = pool_get_num_threads() < nblocks ? pool_get_num_threads() : nblocks;
  size_t bytes = (size_t)nblocks * (GRID_STACK + GRID_STAGGER);
  char *stacks = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  GridBlock *blocks = calloc((size_t)nblocks, sizeof(GridBlock));
  Share *shares = aligned_alloc(64, (size_t)nshares * sizeof(Share));
  if (stacks == MAP_FAILED || !blocks || !shares) {
    if (stacks != MAP_FAILED) munmap(stacks, bytes);
    free(blocks);
    free(shares);
    rt_set_error(RT_ERR_MEMORY, "cannot allocate the stacks of a grid's blocks");
    return RT_ERR_MEMORY;
  }
  Grid g = {.chunk = chunk, .ctx = ctx, .blocks = blocks, .shares = shares, .n = nblocks, .nshares = nshares,
            .live = nblocks, .step = 1};
  for (int64_t s = 0; s < nshares; s++) shares[s] = (Share){.index = s, .grid = &g};
  open_ranges(&g, 1);
  for (int64_t i = 0; i < nblocks; i++) {
    char *base = stacks + (size_t)i * (GRID_STACK + GRID_STAGGER);
    mprotect(base, GRID_GUARD, PROT_NONE);  /* an overflow faults instead of reaching the next block */
    char *top = base + GRID_STACK;
    blocks[i] = (GridBlock){.sp = new_fiber_stack(top, grid_block_start), .index = i};
  }
  pthread_mutex_lock(&one_at_a_time);
  pool_parallel_for(run_steps, &g, nshares, nshares);
  pthread_mutex_unlock(&one_at_a_time);
  munmap(stacks, bytes);
  free(blocks);
  free(shares);
  return RT_OK;
#else
  (void)chunk; (void)ctx; (void)nblocks;
  rt_set_error(RT_ERR_RUNTIME, "grid.sync() needs fibers, which this CPU architecture lacks");
  return RT_ERR_RUNTIME;
#endif
}
