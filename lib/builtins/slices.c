/* builtins/slices.c — slice objects as values: slice(stop),
 * slice(start, stop[, step]), their start, stop and step, s.indices(n),
 * and a[s] for arrays, lists and strings, as Python's. A slice is held as
 * {start, stop, step} int64 (a range's model); which parts are None is in
 * its type (ty_slice), as Numba's slice2 and slice3 types say it, so that
 * a[s] compiles to what a[start:stop] does.
 */
#include "builtins/builtins.h"

/* ---------------------------------------------------------------- typing */

/* The arguments of slice(...) in the order of a slice's parts: start, stop, step. */
static void call_parts(Node *n, Node **parts) {
  parts[0] = parts[1] = parts[2] = NULL;
  if (n->list.len == 1) parts[1] = n->list.items[0];
  else
    for (int k = 0; k < n->list.len; k++) parts[k] = n->list.items[k];
}

static bool is_none(const Node *x) { return !x || x->kind == N_NONE || (x->ty && x->ty->kind == TY_NONE); }

static const Type *ty_slice_call(Infer *in, Node *n, const Type **args) {
  Node *parts[3];
  call_parts(n, parts);
  int given = 0;
  for (int k = 0; k < 3; k++) {
    if (is_none(parts[k])) continue;
    if (!ty_is_int(parts[k]->ty) && parts[k]->ty->kind != TY_BOOL)
      return ty_error(in, parts[k], "slice indices must be integers or None, not %s", parts[k]->ty->name);
    given |= 1 << k;
  }
  return ty_slice(given);
}

/* s.start, s.stop, s.step: an int, or None where it was left out */
static const Type *ty_part(Infer *in, Node *n, const Type **args) {
  return args[0]->unit & (1 << n->bi->ival) ? TYS(TY_I64) : TYS(TY_NONE);
}

static const Type *ty_slice_indices_call(Infer *in, Node *n, const Type **args) {
  if (!ty_is_int(args[1]) && args[1]->kind != TY_BOOL)
    return ty_error(in, n->list.items[1], "slice.indices() takes an integer length, not %s", args[1]->name);
  const Type *three[3] = {TYS(TY_I64), TYS(TY_I64), TYS(TY_I64)};
  return ty_tuple(3, three);
}

/* x[s] of a slice value s: rewritten as x[start:stop:step], so that
 * arrays, lists and strings slice it as they slice written ones. s is a
 * variable (its parts read from it) or a call of slice() (its arguments
 * become the parts); an array's indexing takes any other slice value as it
 * is (a function's result: indexing.c evaluates it once). */
static Node *slice_node(Infer *in, Node *at, Node **parts) {
  Node *s = arena_alloc(in->f->arena, sizeof(Node));
  *s = (Node){.kind = N_SLICE, .line = at->line, .col = at->col, .lhs = parts[0], .rhs = parts[1], .cond = parts[2]};
  return s;
}

static Node *part_of_variable(Infer *in, Node *var, const Type *t, int k) {
  static const char *const names[3] = {"start", "stop", "step"};
  if (!(t->unit & (1 << k))) return NULL;
  Node *v = arena_alloc(in->f->arena, sizeof(Node)), *a = arena_alloc(in->f->arena, sizeof(Node));
  *v = *var;
  *a = (Node){.kind = N_ATTR, .line = var->line, .col = var->col, .lhs = v, .str = (char *)names[k]};
  return a;
}

static LLVMValueRef lo_slice_call(Lower *l, Node *n);

static bool spread_item(Infer *in, Node **slot) {
  Node *x = *slot, *parts[3];
  if (x->kind == N_CALL && x->bi && x->bi->lower == lo_slice_call) {  /* slice(...) itself */
    call_parts(x, parts);
    for (int k = 0; k < 3; k++)
      if (parts[k] && parts[k]->kind == N_NONE) parts[k] = NULL;
    *slot = slice_node(in, x, parts);
    return true;
  }
  if (x->kind != N_VAR) return true;
  const Type *t = ty_maybe_none(in, x);
  if (!t || t->kind != TY_SLICE) return t != NULL;
  for (int k = 0; k < 3; k++) parts[k] = part_of_variable(in, x, t, k);
  *slot = slice_node(in, x, parts);
  return true;
}

bool ty_spread_slice_values(Infer *in, Node *n) {
  if (n->str || !n->rhs) return true;  /* a for loop's walk */
  if (n->rhs->kind != N_TUPLE) return spread_item(in, &n->rhs);
  for (int i = 0; i < n->rhs->list.len; i++)
    if (!spread_item(in, &n->rhs->list.items[i])) return false;
  return true;
}

/* ---------------------------------------------------------------- lowering */

static LLVMValueRef lo_slice_call(Lower *l, Node *n) {
  Node *parts[3];
  call_parts(n, parts);
  LLVMValueRef v = LLVMGetUndef(lo_type(l, n->ty));
  for (unsigned k = 0; k < 3; k++) {
    LLVMValueRef x = is_none(parts[k]) ? const_i64(l, 0) : lo_expr_as(l, parts[k], TYS(TY_I64));
    v = LLVMBuildInsertValue(l->b, v, x, k, "");
  }
  return v;
}

static LLVMValueRef lo_part(Lower *l, Node *n) {
  LLVMValueRef s = lo_expr(l, n->lhs);
  if (n->ty->kind == TY_NONE) return LLVMGetUndef(l->mod->i8);
  return LLVMBuildExtractValue(l->b, s, (unsigned)n->bi->ival, "");
}

/* Python's slice.indices(len) of the parts given (NULL: None): start,
 * stop and step within the length, as its PySlice_AdjustIndices clamps
 * them; a zero step is a ValueError. */
void lo_slice_indices(Lower *l, LLVMValueRef *given, LLVMValueRef len, LLVMValueRef *out) {
  LLVMValueRef zero = const_i64(l, 0), one = const_i64(l, 1);
  LLVMValueRef step = out[2] = given[2] ? given[2] : one;
  if (given[2]) lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, step, zero, ""), RT_ERR_VALUE, "slice step cannot be zero");
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, step, zero, "");
  LLVMValueRef lower = LLVMBuildSelect(l->b, neg, const_i64(l, -1), zero, "");
  LLVMValueRef upper = LLVMBuildSelect(l->b, neg, LLVMBuildSub(l->b, len, one, ""), len, "");
  for (int k = 0; k < 2; k++) {
    LLVMValueRef v = given[k];
    if (!v) {
      out[k] = LLVMBuildSelect(l->b, neg, k ? lower : upper, k ? upper : lower, "");
      continue;
    }
    LLVMValueRef isneg = LLVMBuildICmp(l->b, LLVMIntSLT, v, zero, "");
    v = LLVMBuildSelect(l->b, isneg, LLVMBuildAdd(l->b, v, len, ""), v, "");
    v = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, v, lower, ""), lower, v, "");
    out[k] = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, v, upper, ""), upper, v, "");
  }
}

static LLVMValueRef lo_slice_indices_call(Lower *l, Node *n) {
  Node *s = n->list.items[0];
  LLVMValueRef v = lo_expr(l, s), len = lo_expr_as(l, n->list.items[1], TYS(TY_I64)), given[3], out[3];
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, len, const_i64(l, 0), ""), RT_ERR_VALUE,
              "length should not be negative");
  for (unsigned k = 0; k < 3; k++)
    given[k] = s->ty->unit & (1 << k) ? LLVMBuildExtractValue(l->b, v, k, "") : NULL;
  lo_slice_indices(l, given, len, out);
  LLVMValueRef r = LLVMGetUndef(lo_type(l, n->ty));
  for (unsigned k = 0; k < 3; k++) r = LLVMBuildInsertValue(l->b, r, out[k], k, "");
  return r;
}

/* ---------------------------------------------------------------- the rows */

#define PART(name, k) \
  {"slice." name, NULL, name, BK_ATTRIBUTE, TY_SLICE, 0, 0, NULL, BF_PURE | BF_CHEAP, k, 0, ty_part, lo_part}

const Builtin bi_slices[] = {
  {"slice", "builtins", "slice", BK_FUNCTION, 0, 1, 3, NULL, BF_PURE | BF_CHEAP | BF_NONE, 0, 0, ty_slice_call,
   lo_slice_call},
  PART("start", 0),
  PART("stop", 1),
  PART("step", 2),
  {"slice.indices", NULL, "indices", BK_METHOD, TY_SLICE, 1, 1, NULL, BF_PURE | BF_RAISES, 0, 0, ty_slice_indices_call, lo_slice_indices_call},
  {NULL},
};
