/* builtins/registry.c — the families' rows, in one sequence, and the
 * lookups of methods and attributes by their receiver and name. */
#include <pthread.h>

#include "builtins/builtins.h"

/* one family a line, in the order their rows are numbered */
static const Builtin *const families[] = {
  bi_python,
  bi_math,
  bi_mathparts,
  bi_operators,
  bi_numpy,
  bi_shape,
  bi_views,
  bi_reduce,
  bi_statistics,
  bi_sorting,
  bi_searching,
  bi_arraymath,
  bi_matrices,
  bi_picking,
  bi_linalg,
  bi_decomp,
  bi_complex,
  bi_datetime,
  bi_complex_reduce,
  bi_cuda,
  bi_warp,
  bi_atomic,
  bi_cudamath,
  bi_print,
  bi_grid,
  bi_limits,
  bi_lists,
  bi_tuples,
  bi_dicts,
  bi_sets,
  bi_random,
  bi_strings,
  bi_fp16,
  bi_ndindex,
  bi_unpack,
  bi_objmode,
  bi_multi_dot,
  bi_heapq,
  bi_libdevice,
  bi_jitclass,
  bi_native,
  bi_intrinsic,
  bi_generators,
  bi_polynomial,
  bi_fft,
  bi_enums,
  bi_slices,
  bi_bytes,
};

#define NFAMILIES (sizeof families / sizeof families[0])

/* each family's number of rows, counted once: bi_at is called for every
 * row in turn (the extension's tables), and counting on every call made
 * that walk quadratic */
static int family_rows[NFAMILIES];
static pthread_once_t family_rows_once = PTHREAD_ONCE_INIT;

static void count_family_rows(void) {
  for (size_t f = 0; f < NFAMILIES; f++)
    for (const Builtin *b = families[f]; b->name; b++) family_rows[f]++;
}

const Builtin *bi_at(int i) {
  pthread_once(&family_rows_once, count_family_rows);
  for (size_t f = 0; i >= 0 && f < NFAMILIES; f++) {
    if (i < family_rows[f]) return families[f] + i;
    i -= family_rows[f];
  }
  return NULL;
}

const Builtin *bi_named(const char *name) {
  for (size_t f = 0; f < NFAMILIES; f++)
    for (const Builtin *b = families[f]; b->name; b++)
      if (!strcmp(b->name, name)) return b;
  return NULL;
}

const Builtin *bi_member(TypeKind receiver, BuiltinKind kind, const char *name) {
  for (size_t f = 0; f < NFAMILIES; f++)
    for (const Builtin *b = families[f]; b->name; b++)
      if (b->kind == kind && b->receiver == receiver && !strcmp(b->path, name)) return b;
  return NULL;
}

/* The edit distance between a and b (insertions, deletions, substitutions
 * and swaps of neighbours, each 1: "optimal string alignment"), both cut at
 * 31 characters: enough to tell a typing slip from another name. */
static int edit_distance(const char *a, const char *b) {
  int la = 0, lb = 0, d[32][32];
  while (la < 31 && a[la]) la++;
  while (lb < 31 && b[lb]) lb++;
  for (int i = 0; i <= la; i++) d[i][0] = i;
  for (int j = 0; j <= lb; j++) d[0][j] = j;
  for (int i = 1; i <= la; i++)
    for (int j = 1; j <= lb; j++) {
      int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[la][lb];
}

/* The search for the name nearest to a misspelt one: a name within a third
 * of its letters, and one, is taken for a slip of it. */
typedef struct Nearest {
  const char *name, *near;
  int best;
} Nearest;

static Nearest nearest_to(const char *name) { return (Nearest){name, NULL, (int)strlen(name) / 3 + 2}; }

static void consider(Nearest *n, const char *candidate) {
  int d = edit_distance(candidate, n->name);
  if (d < n->best) n->near = candidate, n->best = d;
}

const char *bi_nearest(const char *name, const char *const *names) {
  Nearest n = nearest_to(name);
  for (int i = 0; names && names[i]; i++) consider(&n, names[i]);
  return n.near;
}

const char *bi_member_near(TypeKind receiver, BuiltinKind kind, const char *name) {
  Nearest n = nearest_to(name);
  for (size_t f = 0; f < NFAMILIES; f++)
    for (const Builtin *b = families[f]; b->name; b++)
      if (b->kind == kind && b->receiver == receiver) consider(&n, b->path);
  return n.near;
}
