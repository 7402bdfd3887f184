/* builtins/args.c — the checks NumPy functions' typers make of their
 * arguments: by position or keyword, axes, dtype=, numbers, and the strs
 * that choose one of a function's options. */
#include <string.h>

#include "builtins/builtins.h"

/* The argument at position pos (the array is 0, for methods too) or by
 * keyword; NULL where not given, or given None that the typer read as not
 * given (bi_none_as_default). */
Node *bi_arg(Node *n, int pos, const char *kw) {
  Node *x = n->list.len > pos ? n->list.items[pos] : kw ? ty_kwarg(n, kw) : NULL;
  return x && x->kind == N_NONE && x->ival == 1 ? NULL : x;
}

/* x, if None (given by position: the frontend drops a keyword's), read as
 * not given from now on, as NumPy's default (a.sum(None), numpy.zeros(n,
 * None)); the call keeps it (infer.c's none_unread). */
bool bi_none_as_default(Node *x) {
  if (!x || x->kind != N_NONE) return false;
  x->ival = 1;
  return true;
}

/* bi_arg, or NULL where it is None too: Numba reads an optional argument
 * passed as None (a default handed on by the caller) as one not given. */
Node *bi_arg_given(Node *n, int pos, const char *kw) {
  Node *x = bi_arg(n, pos, kw);
  return x && x->ty && x->ty->kind != TY_NONE ? x : NULL;
}

bool bi_literal_int(const Node *x, int64_t *v) {
  if (x->kind == N_INT) {
    *v = x->ival;
    return true;
  }
  if (x->kind == N_UNARY && x->op == OP_NEG && x->lhs->kind == N_INT) {
    *v = -x->lhs->ival;
    return true;
  }
  return false;
}

bool bi_need_values(Infer *in, Node *n, Node *a) {
  if (a->ty->kind == TY_ARRAY || ty_is_scalar(a->ty)) return true;
  return ty_error(in, a, "%s() needs an array or a number, got %s", n->bi->name, a->ty->name) != NULL;
}

bool bi_axis_within(const Node *axis, int ndim, int64_t *k) {
  return bi_literal_int(axis, k) && *k >= -ndim && *k < ndim;
}

/* An axis: an int (of an array of some dimensions); a constant one out of
 * them an error here where checked_late is false. */
static bool check_axis(Infer *in, Node *n, Node *axis, int ndim, bool checked_late) {
  int64_t k;
  if (!ty_is_int(axis->ty))
    return ty_error(in, axis, "%s(): axis must be an integer, got %s", n->bi->name, axis->ty->name) != NULL;
  if (!checked_late && bi_literal_int(axis, &k) && !bi_axis_within(axis, ndim, &k))
    return ty_error(in, axis, "%s(): axis %lld is out of bounds for array of dimension %d", n->bi->name,
                    (long long)k, ndim) != NULL;
  if (ndim == 0)
    return ty_error(in, axis, "%s(): a number or 0-d array has no axis", n->bi->name) != NULL;
  return true;
}

bool bi_check_axis(Infer *in, Node *n, Node *axis, int ndim) { return check_axis(in, n, axis, ndim, false); }

/* Numba's reductions and cumulative functions check a constant axis as
 * one known at run time (NumPy's AxisError when the call runs): a line
 * never run, or run for arrays of other dimensions, still compiles. */
bool bi_check_axis_late(Infer *in, Node *n, Node *axis, int ndim) { return check_axis(in, n, axis, ndim, true); }

/* dtype=: a NumPy scalar type; *out stays NULL when not given. */
bool bi_check_dtype(Infer *in, Node *n, Node *d, const Type **out) {
  *out = NULL;
  if (!d || bi_none_as_default(d)) return true;
  if (!ty_is_numpy_dtype(d->ty))
    return ty_error(in, d, "%s(): dtype must be a NumPy scalar type such as numpy.float64", n->bi->name) != NULL;
  *out = d->ty->elem;
  return true;
}

bool bi_check_number(Infer *in, Node *n, Node *x, const char *what) {
  if (!x || ty_is_scalar(x->ty)) return true;
  return ty_error(in, x, "%s(): %s must be a number, got %s", n->bi->name, what, x->ty->name) != NULL;
}

/* A str choosing one of a function's options (convolve's mode, searchsorted's
 * side): Numba takes any str there, read when the call runs, so a constant
 * is checked here and a variable's value by lo_str_option. */
int bi_str_option(const Node *x, const char *const *choices, int dflt) {
  if (!x) return dflt;
  if (x->kind == N_STRING) {
    for (int i = 0; choices[i]; i++)
      if (!strcmp(x->str, choices[i])) return i;
    return BI_OPTION_BAD;
  }
  return x->ty && x->ty->kind == TY_STR ? BI_OPTION_RUNTIME : BI_OPTION_BAD;
}

/* The option's index (an i32): a constant where the compile knows it, else
 * x's value compared with each choice in turn, ValueError(msg) if none. */
LLVMValueRef lo_str_option(Lower *l, Node *x, const char *const *choices, int dflt, const char *msg) {
  int known = bi_str_option(x, choices, dflt);
  if (known >= 0) return const_i32(l, known);
  LLVMValueRef s = lo_expr(l, x), r = const_i32(l, -1);
  for (int i = 0; choices[i]; i++) {
    Node c = {.kind = N_STRING, .str = choices[i], .ival = (int64_t)strlen(choices[i])};
    LLVMValueRef same = lo_str_compare_values(l, OP_EQ, s, x->ty, lo_str_constant(l, &c), x->ty);
    r = LLVMBuildSelect(l->b, same, const_i32(l, i), r, "");
  }
  lo_done_with(l, x, s);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, r, const_i32(l, 0), ""), RT_ERR_VALUE, msg);
  return r;
}
