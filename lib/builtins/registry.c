/* builtins/registry.c — the families' rows, in one sequence, and the
 * lookups of methods and attributes by their receiver and name. */
#include "builtins/builtins.h"

/* one family a line, in the order their rows are numbered */
static const Builtin *const families[] = {
  bi_python,
  bi_math,
  bi_mathparts,
  bi_operators,
  bi_numpy,
  bi_shape,
  bi_reduce,
  bi_statistics,
  bi_sorting,
  bi_searching,
  bi_arraymath,
  bi_linalg,
  bi_decomp,
  bi_complex,
  bi_complex_reduce,
  bi_cuda,
  bi_warp,
  bi_atomic,
  bi_cudamath,
  bi_print,
  bi_grid,
  bi_limits,
  bi_lists,
  bi_dicts,
  bi_sets,
  bi_random,
  bi_strings,
  bi_fp16,
  bi_ndindex,
  bi_unpack,
  bi_objmode,
  bi_multi_dot,
};

const Builtin *bi_at(int i) {
  for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
    for (const Builtin *b = families[f]; b->name; b++)
      if (i-- == 0) return b;
  return NULL;
}

const Builtin *bi_named(const char *name) {
  for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
    for (const Builtin *b = families[f]; b->name; b++)
      if (!strcmp(b->name, name)) return b;
  return NULL;
}

const Builtin *bi_member(TypeKind receiver, BuiltinKind kind, const char *name) {
  for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
    for (const Builtin *b = families[f]; b->name; b++)
      if (b->kind == kind && b->receiver == receiver && !strcmp(b->path, name)) return b;
  return NULL;
}
