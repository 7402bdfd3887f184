/* analysis.h — what libruchey learns about a typed function before it
 * lowers it. Each analysis is a pure function of the typed IR (and the
 * compile options); an_function runs them all once per function and leaves
 * the results on the Func and on its loops, where lowering reads them.
 */
#ifndef RUCHEY_ANALYSIS_H
#define RUCHEY_ANALYSIS_H

#include "ruchey.h"

/* parallel.c: how each variable is treated in a prange loop. */
typedef enum { PAR_UNUSED, PAR_SHARED, PAR_PRIVATE, PAR_REDUCTION } ParKind;

typedef struct ParPlan {
  int *kind;      /* ParKind per variable */
  int *red_op;    /* PAR_REDUCTION: OP_ADD (+ and -), OP_MUL, OP_BIT*, OP_LT (min), OP_GT (max) */
  int line;       /* where the reason to stay serial is */
  char why[256];  /* empty when the loop can run in parallel */
  bool fixed;     /* the body draws random numbers (a BF_STATE call, or a function reaching one): Numba's
                   * static schedule, each thread its fixed block (pool_parallel_for_static), so that a
                   * seeded thread draws for the same iterations on every run */
} ParPlan;

/* What lowering needs to know about one for loop. */
typedef struct LoopPlan {
  ParPlan *par;     /* a prange loop of a parallel function: its plan (par->why if serial) */
  bool deferrable;  /* its errors may be noted on a first run and raised on a second (defer.c) */
  bool *assigned;   /* deferrable or sums: per variable, the scalars the body assigns */
  bool *sums;       /* NULL, or per variable the float sums that, all finite at the loop's end, show
                     * that none of its powers overflowed: it runs first unchecked (defer.c) */
  bool scalar;      /* an ordered float sum of cheap terms: kept a plain scalar loop (function.c) */
  bool checked;     /* the body checks a power, a division or a raising call: each an exit of the
                     * loop unless deferred (function.c) */
  bool guarded_sums;/* an innermost loop summing a costly term under a guard: its guarded sums
                     * (an_guarded_sum) add -0.0 where the guard fails, to vectorise (function.c) */
  bool lockstep;    /* a CPU kernel's loop that each thread runs over its own range (a grid-stride
                     * loop): the block's threads run its iterations in step (kernel.c) */
  int stream_bits;  /* a loop streaming over whole arrays (an_stream_bits), the widest element's
                     * bits; 0 for other loops */
  Node *pow_exponent; /* a parameter no statement assigns that a float ** int in the body raises
                     * to, or NULL: the loop has a version per small exponent (lower/stmt.c) */
  /* A while loop's only plan (function.c, an_counted_while): it runs at most count_to - count_from
   * times from its entry (once more if count_inclusive), count_from an int variable that its body
   * steps up on every iteration and its condition keeps below count_to; NULL for other loops */
  Node *count_from, *count_to;
  bool count_inclusive;
} LoopPlan;

/* kernel.c: how a CPU kernel runs its block's threads. */
typedef struct KernelPlan {
  bool fission;     /* the kernel has barriers, split into loops over the threads */
  bool exchange;    /* fission: a collective passes values between threads */
  bool returns;     /* fission: a thread may return before the end (then it sits out the rest) */
  bool grid;        /* waits for its grid (grid.sync()): each block runs as a fiber (rt_grid_run) */
  bool fibers;      /* barriers fission cannot reach: the threads run as fibers */
  bool lockstep;    /* fission: some loop runs in step (LoopPlan.lockstep) */
  bool *uniform;    /* fission: per variable, equal in every thread of a block */
  Node **remat;     /* fission: a variable's one defining value, recomputed per thread */
  int *remat_order, nremat;
} KernelPlan;

/* What the analyses leave on a Func. */
typedef struct FuncPlan {
  bool *maybe_unbound;  /* per variable: may be read on a path that did not assign it */
  bool *fixed;          /* per variable: a parameter that no statement assigns */
  bool *borrowed;       /* per variable: a fixed parameter holding arrays, which borrows the
                         * caller's reference (no incref/decref) */
  KernelPlan *kernel;   /* a CPU kernel's plan */
  bool unwinds;         /* a frame must be left on its own (it may own references, or has a
                         * try statement): recursion returns RecursionError frame by frame */
  const CallTarget **frame_generators; /* per variable: the call that makes the generator it
                         * holds, whose state lives in the frame (generators.c), or NULL */
  bool reruns;          /* run as the compile's entry, its deferred loops leave it where a check
                         * failed (RT_ERR_RERUN): a rerun from its start changes nothing (defer.c) */
} FuncPlan;

/* Runs every analysis of f (once: later calls do nothing). */
void an_function(Func *f, const CompileOptions *opts);
/* What they found, as lines of text (malloc'd), for tests of the analyses. */
char *an_describe(Func *f, const CompileOptions *opts);

/* function.c: `if c: s += t` alone, s a float variable (LoopPlan.guarded_sums) */
bool an_guarded_sum(const Node *n);

/* parallel.c: false (with plan->why) when the loop must run serially */
bool an_parallel(Func *f, const Node *loop, ParPlan *plan);
/* defer.c: whether loop may run first with its errors deferred; fills
 * assigned with the scalars its body assigns */
bool an_deferrable(Func *f, const CompileOptions *opts, const Node *loop, bool *assigned);
/* defer.c: whether loop may run first with its powers unchecked, and
 * again checked if one of its sums (filled in) is not finite at its end;
 * fills assigned with the scalars its body assigns */
bool an_checked_by_sums(Func *f, const CompileOptions *opts, const Node *loop, bool *assigned, bool *sums);
/* defer.c: whether a whole function of scalars may run with its errors
 * deferred (a ufunc's first pass over contiguous elements) */
bool an_function_deferrable(Func *f, const CompileOptions *opts);
/* defer.c: whether f may be run again from its start in place of a
 * deferred loop's checked rerun (FuncPlan.reruns) */
bool an_reruns_whole(Func *f, const CompileOptions *opts);
/* generators.c: per variable, the generator call whose state may live in
 * the frame (the variable's generator never leaves it), or NULL */
const CallTarget **an_frame_generators(Func *f, const CompileOptions *opts);
/* unbound.c: per variable, whether a read may find it unassigned */
bool *an_maybe_unbound(Func *f);
/* unroll.c: each `for x in literal_unroll(t)` made one copy of its body per
 * item of t (whose length the arguments' types or the code give); run
 * before typing, false with the TypingError in diag */
bool an_unroll_literal(Func *f, const Type *const *argtypes, Diag *diag);
/* webs.c: each variable split into its webs (the assignments whose values
 * some read may find together), one slot each; run before typing, with the
 * parameters' types (a branch an isinstance() of one decides is pruned) */
void an_split_webs(Func *f, const Type *const *argtypes);
/* kernel.c */
KernelPlan *an_kernel(Func *f);
bool an_has_barrier(const Node *stmt);        /* stmt holds a collective (cuda.syncthreads()) */
bool an_uniform(const KernelPlan *k, const Node *expr);  /* the same in every thread of a block */
/* collective.c */
void an_hoist_collectives(Func *f);           /* a CPU kernel's collectives into statements of their own */
Node *an_collective_call(const Node *stmt);   /* the collective that is stmt's whole value, or NULL */
bool an_loose_collectives(Func *f);           /* some collective is not (only some evaluations reach it) */

#endif
