/* rtgen.h — numpy.random.Generator values: the memory compiled code and
 * the extension share.
 *
 * A Generator in compiled code is a pointer to a bit generator's bitgen_t
 * (NumPy's C API, numpy/random/bitgen.h). An argument's is NumPy's own,
 * borrowed for the call. One numpy.random.default_rng made in compiled
 * code is a reference-counted block, its bitgen_t first (so the draws take
 * both alike) over a PCG64 state; its next_raw is NULL, which tells it
 * apart (NumPy's bit generators all set theirs; compiled code never calls
 * it). lib/generator.c holds what compiled code calls; the extension reads
 * the state and releases the block with the inline functions below (plain
 * malloc and free, the same in both).
 */
#ifndef RUCHEY_RTGEN_H
#define RUCHEY_RTGEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct BitGen {
  void *state;
  uint64_t (*next_uint64)(void *st);
  uint32_t (*next_uint32)(void *st);
  double (*next_double)(void *st);
  uint64_t (*next_raw)(void *st);
} BitGen;

typedef struct Pcg64 {
  unsigned __int128 state, inc;
  bool has_uint32;  /* the high half of the last word, kept for the next 32-bit draw */
  uint32_t uinteger;
} Pcg64;

typedef struct OwnedGen {
  BitGen bitgen;  /* first: a Generator value points here */
  int64_t refs;
  Pcg64 pcg;
} OwnedGen;

/* A made Generator's block, or NULL for an argument's bitgen_t. */
static inline OwnedGen *rt_generator_owned(void *bitgen) {
  BitGen *b = (BitGen *)bitgen;
  return b && !b->next_raw ? (OwnedGen *)b : NULL;
}

static inline void rt_generator_drop(void *bitgen) {
  OwnedGen *g = rt_generator_owned(bitgen);
  if (g && __atomic_sub_fetch(&g->refs, 1, __ATOMIC_ACQ_REL) == 0) free(g);
}

#endif
