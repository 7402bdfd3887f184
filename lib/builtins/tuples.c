/* builtins/tuples.c — what Python does with tuples beyond building and
 * unpacking them: t[i] with a variable i (a homogeneous tuple's, which
 * also makes `for x in t`), t[a:b:c] with constants, t + u, t * k, and the
 * comparisons ==, !=, <, <=, >, >= (item by item, as Python compares
 * sequences), tuple() and tuple(t), Numba's unsafe tuple_setitem, and the binding of f(*t) to a compiled function's
 * parameters, and zip(*t) over a tuple of sequences. A tuple is an LLVM struct of its items (model.c).
 */
#include "builtins/builtins.h"
#include "ir.h"

/* ---------------------------------------------------------------- typing */

/* A constant integer written in the source (-3 included) into *v. */
static bool constant_int(const Node *n, int64_t *v) {
  if (n->kind == N_INT) return *v = n->ival, true;
  if (n->kind == N_UNARY && n->op == OP_NEG && n->lhs->kind == N_INT) return *v = -n->lhs->ival, true;
  return false;
}

/* Whether every item has one type, so that a variable can index it. */
static bool homogeneous(const Type *t) {
  for (int i = 1; i < t->nfields; i++)
    if (t->fields[i] != t->fields[0]) return false;
  return t->nfields > 0;
}

/* Python's slice s (an N_SLICE) of n items by constants: the first item,
 * the step and how many items (a missing part is NULL); false where a part
 * is no constant or the step is zero. */
bool ty_constant_slice(const Node *s, int n, int64_t *first, int64_t *step, int64_t *count) {
  int64_t v[3] = {0, 0, 1};
  const Node *parts[3] = {s->lhs, s->rhs, s->cond};
  for (int k = 0; k < 3; k++)
    if (parts[k] && !constant_int(parts[k], &v[k])) return false;
  if (!v[2]) return false;
  int64_t st = v[2], lo, hi;
  int64_t lower = st > 0 ? 0 : -1, upper = st > 0 ? n : n - 1;  /* Python's PySlice_AdjustIndices */
  lo = !parts[0] ? (st > 0 ? lower : upper) : v[0] < 0 ? (v[0] + n < lower ? lower : v[0] + n) : (v[0] > upper ? upper : v[0]);
  hi = !parts[1] ? (st > 0 ? upper : lower) : v[1] < 0 ? (v[1] + n < lower ? lower : v[1] + n) : (v[1] > upper ? upper : v[1]);
  *first = lo;
  *step = st;
  *count = st > 0 ? (hi > lo ? (hi - lo + st - 1) / st : 0) : (lo > hi ? (lo - hi - st - 1) / -st : 0);
  return true;
}

/* ty_constant_slice's, or the error saying why not. */
static bool slice_items(Infer *in, Node *s, int n, int64_t *first, int64_t *step, int64_t *count) {
  int64_t v;
  Node *parts[3] = {s->lhs, s->rhs, s->cond};
  for (int k = 0; k < 3; k++)
    if (parts[k] && !constant_int(parts[k], &v))
      return ty_error(in, parts[k], "a tuple can only be sliced with constant integers") != NULL;
  return ty_constant_slice(s, n, first, step, count) || ty_error(in, s, "slice step cannot be zero") != NULL;
}

/* A copy of a constant part of slice(...) (NULL for None), in *part;
 * false where the part is no constant. */
static bool constant_part(Infer *in, Node *x, Node **part) {
  int64_t v;
  *part = NULL;
  if (!x || x->kind == N_NONE || (x->ty && x->ty->kind == TY_NONE)) return true;
  if (!constant_int(x, &v)) return false;
  *part = arena_alloc(in->f->arena, sizeof(Node));
  **part = *x;
  return true;
}

/* The index t[start:stop:step] that ix stands for where it is slice() of
 * constants, or a variable whose one binding is (s = slice(1, 3); t[s]),
 * as Numba types such a slice as a literal; NULL for any other. */
static Node *constant_slice(Infer *in, const Node *ix) {
  const Node *v = ix->kind == N_VAR && in->only_value ? in->only_value[ix->var] : ix;
  if (!v || v->kind != N_CALL || !ir_calls_builtin(v, "slice") || v->list.len < 1 || v->list.len > 3) return NULL;
  Node *parts[3] = {NULL, NULL, NULL}, *given[3] = {NULL, NULL, NULL};
  for (int k = 0; k < v->list.len; k++) given[v->list.len == 1 ? 1 : k] = v->list.items[k];
  for (int k = 0; k < 3; k++)
    if (!constant_part(in, given[k], &parts[k])) return NULL;
  Node *s = arena_alloc(in->f->arena, sizeof(Node));
  *s = (Node){.kind = N_SLICE, .line = ix->line, .col = ix->col, .lhs = parts[0], .rhs = parts[1], .cond = parts[2]};
  return s;
}

/* t[index] of a tuple: a constant (or an index known when compiled) picks
 * its item, a slice of constants (or a variable bound once to one) a tuple
 * of items, a variable an item of a homogeneous tuple. */
const Type *ty_tuple_index(Infer *in, Node *n, const Type *t) {
  Node *ix = n->rhs;
  int64_t i;
  if (!n->str && (ix->kind == N_VAR || ix->kind == N_CALL) && (ix = constant_slice(in, n->rhs))) n->rhs = ix;
  ix = n->rhs;
  if (ix->kind == N_SLICE && ty_is_literal_list(t))  /* its slice would be a list of items of different types */
    return ty_error(in, n, "Cannot __getitem__ on a literal list with a slice: %s is read by constant indices alone",
                    t->name);
  if (ix->kind == N_SLICE) {
    int64_t first = 0, step = 1, count = 0;
    if (!slice_items(in, ix, t->nfields, &first, &step, &count)) return NULL;
    ix->ival = first;
    ix->op = (int)step;
    const Type **f = arena_alloc(in->f->arena, sizeof(Type *) * (size_t)(count + 1));
    for (int64_t k = 0; k < count; k++) f[k] = t->fields[first + k * step];
    return ty_tuple((int)count, f);
  }
  const Node *known = !t->nfields || n->str || homogeneous(t) || constant_int(ix, &i) ? NULL : ty_constant(in, ix);
  if (known && known->kind == N_INT) {
    /* a heterogeneous tuple's index known when compiled (a variable bound once to a constant, a parameter
     * literally() froze), as Numba types it as a literal: the constant, for the lowering too */
    Node *c = arena_alloc(in->f->arena, sizeof(Node));
    *c = (Node){.kind = N_INT, .line = ix->line, .col = ix->col, .ival = known->ival};
    n->rhs = ix = c;
  }
  if (!n->str && constant_int(ix, &i)) {
    if (i < 0) i += t->nfields;
    if (i < 0 || i >= t->nfields) return ty_error(in, n, "tuple index out of range");
    if (!ty_expr(in, ix)) return NULL;
    return t->fields[i];
  }
  const Type *it = ty_expr(in, ix);
  if (!it) return NULL;
  if (it->kind == TY_SLICE)
    return ty_error(in, n, "a tuple can only be sliced by constant integers (its length is part of its type): "
                    "slice(...) of constants, or a variable bound once to one");
  if (!ty_is_int(it) && it->kind != TY_BOOL)
    return ty_error(in, n, "tuple indices must be integers, got %s", it->name);
  if (!t->nfields) return TYS(TY_I64);  /* never read: every index is out of range (an empty *args looped over) */
  const Type *one_of = homogeneous(t) ? NULL : ty_funcs_of_tuple(t);
  if (one_of) return one_of;  /* fns[i]: one of its functions, chosen at run time */
  if (!homogeneous(t) && ty_is_literal_list(t))
    return ty_error(in, n, n->str ? "iteration over the literal list %s is not supported: its items have different "
                                    "types (literal_unroll(l) walks them, one copy of the loop's body each)"
                                  : "Cannot __getitem__ on a literal list with a variable index: the items of %s have "
                                    "different types, read by constant indices alone", t->name);
  if (!homogeneous(t))
    return ty_error(in, n, n->str ? "iteration over the heterogeneous tuple %s is not supported: its items "
                                    "have different types"
                                  : "the heterogeneous tuple %s can only be indexed with a constant integer",
                    t->name);
  return t->fields[0];
}

/* t + u */
static const Type *tuple_concat(Infer *in, Node *n, const Type *a, const Type *b) {
  if (n->kind == N_AUGASSIGN && ty_has_arrays(a))
    return ty_error(in, n, "+= on a tuple of arrays is not supported: write t = t + u");
  if (a->nfields + b->nfields > TY_MAX_FIELDS)
    return ty_error(in, n, "tuples of more than %d elements are not supported", TY_MAX_FIELDS);
  const Type **f = arena_alloc(in->f->arena, sizeof(Type *) * (size_t)(a->nfields + b->nfields + 1));
  for (int i = 0; i < a->nfields; i++) f[i] = a->fields[i];
  for (int i = 0; i < b->nfields; i++) f[a->nfields + i] = b->fields[i];
  return ty_tuple(a->nfields + b->nfields, f);
}

/* t * k or k * t: the items k times over (none for k <= 0), k a constant
 * integer, as the length is part of the tuple's type. */
static const Type *tuple_repeat(Infer *in, Node *n, const Type *t, Node *count, const Type *ct) {
  int64_t k;
  if (!ty_is_int(ct) || !ir_const_int(count, &k))
    return ty_error(in, count, "a tuple can only be repeated a constant integer number of times (its length is "
                    "part of its type), got %s", ct->name);
  if (n->kind == N_AUGASSIGN && ty_has_arrays(t))
    return ty_error(in, n, "*= on a tuple of arrays is not supported: write t = t * k");
  if (k < 0) k = 0;
  if (t->nfields && k > TY_MAX_FIELDS / t->nfields)
    return ty_error(in, n, "tuples of more than %d elements are not supported", TY_MAX_FIELDS);
  return ty_tuple_repeat(t->nfields, t->fields, (int)k);
}

/* t + u, t * k, k * t */
const Type *ty_tuple_binop(Infer *in, Node *n, const Type *a, const Type *b) {
  Node *lhs = n->lhs, *rhs = n->rhs;
  if (n->op == OP_ADD && a->kind == TY_TUPLE && b->kind == TY_TUPLE) return tuple_concat(in, n, a, b);
  if (n->op == OP_MUL && a->kind == TY_TUPLE && b->kind != TY_TUPLE) return tuple_repeat(in, n, a, rhs, b);
  if (n->op == OP_MUL && b->kind == TY_TUPLE && a->kind != TY_TUPLE && n->kind != N_AUGASSIGN)
    return tuple_repeat(in, n, b, lhs, a);
  return ty_error(in, n, "operator is not supported between %s and %s", a->name, b->name);
}

/* A number, None or an Optional number: an item == and != compare. */
static bool maybe_number(const Type *t) {
  return ty_is_scalar(t) || t->kind == TY_NONE || (t->kind == TY_OPTIONAL && ty_is_scalar(t->elem));
}

/* Whether two items compare: numbers, strs, or tuples of such; for == and
 * != (equality) also None and Optional numbers, as Python's (1, None) ==
 * (1, 2.5) is False where (1, None) < (1, 2.5) raises. */
bool ty_items_compare(const Type *a, const Type *b, bool equality) {
  if ((ty_is_scalar(a) && ty_is_scalar(b)) || (a->kind == TY_STR && b->kind == TY_STR)) return true;
  if (equality && maybe_number(a) && maybe_number(b)) return true;
  if (a->kind != TY_TUPLE || b->kind != TY_TUPLE) return false;
  for (int i = 0; i < a->nfields && i < b->nfields; i++)
    if (!ty_items_compare(a->fields[i], b->fields[i], equality)) return false;
  return true;
}

bool ty_items_equatable(const Type *a, const Type *b) { return ty_items_compare(a, b, true); }

const Type *ty_tuple_compare(Infer *in, Node *n, int op, const Type *a, const Type *b) {
  if (!ty_items_compare(a, b, op == OP_EQ || op == OP_NE)) return ty_error(in, n, "cannot compare %s and %s", a->name, b->name);
  return TYS(TY_BOOL);
}

static bool str_or_number(const Type *t) {
  t = ty_enum_value(t);  /* (an enum member: its value) */
  return t->kind == TY_STR || t->kind == TY_BYTES || ty_is_scalar(t);
}

/* v in t: v == an item, for a number, str or bytes v (an item of another
 * kind is never equal to it) */
const Type *ty_tuple_contains(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind != TY_STR && args[0]->kind != TY_BYTES && !ty_is_enum(args[0]) &&
      !ty_need_scalar(in, n->list.items[0], args[0], "'in'"))
    return NULL;
  for (int i = 0; i < args[1]->nfields; i++)  /* x == an array is an array, whose truth Python refuses */
    if (!str_or_number(args[1]->fields[i]))
      return ty_error(in, n, "'in' a tuple holding %s is not supported", args[1]->fields[i]->name);
  return TYS(TY_BOOL);
}

/* t.index(x) (ival 1), t.count(x) (ival 2): x a number or a str; an item
 * of another kind is never equal to it, as in Python. */
/* strs with strs, numbers with numbers, datetimes with datetimes of a unit they share */
static bool equatable(const Type *a, const Type *b) {
  if (a->kind == TY_ENUM || b->kind == TY_ENUM) return a == b;  /* an Enum member equals its class's members alone */
  a = ty_enum_value(a), b = ty_enum_value(b);  /* an IntEnum member is its int */
  if (a->kind == TY_STR || b->kind == TY_STR || a->kind == TY_BYTES || b->kind == TY_BYTES) return a->kind == b->kind;
  if (ty_is_time(a) || ty_is_time(b)) return ty_time_unify(a, b) != NULL;
  return ty_is_scalar(a) && ty_is_scalar(b);
}

static const Type *ty_tuple_find(Infer *in, Node *n, const Type **args) {
  if (n->bi->ival == 1 && ty_is_literal_list(args[0]))  /* as Numba's: the item found would have no one type */
    return ty_error(in, n, "list.index is unsupported for literal lists (%s)", args[0]->name);
  if (!str_or_number(args[1]))
    return ty_error(in, n, "tuple.%s() looks for a number or a str, got %s", n->bi->ival == 1 ? "index" : "count",
                    args[1]->name);
  return TYS(TY_I64);
}

/* l.copy() of a literal list: l itself, as nothing changes it */
static const Type *ty_literal_list_copy(Infer *in, Node *n, const Type **args) {
  if (!ty_is_literal_list(args[0])) return ty_error(in, n, "%s has no method 'copy' in compiled code", args[0]->name);
  return args[0];
}

/* ---------------------------------------------------------------- lowering */

/* Whether the values a and b are equal, of types equatable or not. */
static LLVMValueRef values_equal(Lower *l, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  if (!equatable(ta, tb)) return const_bool(l, false);
  if (ta->kind == TY_STR) return lo_str_compare_values(l, OP_EQ, a, ta, b, tb);
  if (ta->kind == TY_BYTES) return lo_bytes_compare_values(l, OP_EQ, a, ta, b, tb);
  return lo_compare_values(l, OP_EQ, a, ta, b, tb);
}

static LLVMValueRef lo_tuple_find(Lower *l, Node *n) {
  Node *x = n->list.items[0], *v = n->list.items[1];
  LLVMValueRef t = lo_expr(l, x), val = lo_expr(l, v), r = const_i64(l, n->bi->ival == 1 ? -1 : 0);
  for (int i = x->ty->nfields - 1; i >= 0; i--) {
    LLVMValueRef same = values_equal(l, LLVMBuildExtractValue(l->b, t, (unsigned)i, ""), x->ty->fields[i], val, v->ty);
    r = n->bi->ival == 1 ? LLVMBuildSelect(l->b, same, const_i64(l, i), r, "")
                         : LLVMBuildAdd(l->b, r, LLVMBuildZExt(l->b, same, l->mod->i64, ""), "");
  }
  lo_done_with(l, v, val);
  lo_done_with(l, x, t);
  if (n->bi->ival == 1)
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, r, const_i64(l, 0), ""), RT_ERR_VALUE, "tuple.index(x): x not in tuple");
  return r;
}

LLVMValueRef lo_tuple_contains(Lower *l, Node *n) {
  Node *v = n->list.items[0], *x = n->list.items[1];
  LLVMValueRef val = lo_expr(l, v), t = lo_expr(l, x), found = const_bool(l, false);
  for (int i = 0; i < x->ty->nfields; i++) {
    LLVMValueRef item = LLVMBuildExtractValue(l->b, t, (unsigned)i, "");
    found = LLVMBuildOr(l->b, found, values_equal(l, val, v->ty, item, x->ty->fields[i]), "");
  }
  lo_done_with(l, x, t);
  lo_done_with(l, v, val);
  return found;
}

/* A homogeneous tuple value v copied into memory as an array of its items (of LLVM type *as_array). */
LLVMValueRef lo_tuple_in_memory(Lower *l, const Type *t, LLVMValueRef v, LLVMTypeRef *as_array) {
  LLVMTypeRef item = lo_type(l, t->nfields ? t->fields[0] : TYS(TY_I64));
  *as_array = LLVMArrayType2(item, (uint64_t)(t->nfields ? t->nfields : 1));
  LLVMValueRef mem = lo_alloca(l, *as_array, "tuple"), from = lo_many_fields(t) ? lo_loaded_from(l, v) : NULL;
  for (int k = 1; from && k < t->nfields; k++)
    if (t->fields[k] != t->fields[0]) from = NULL;  /* (laid out as the array only where its items are alike) */
  if (from && LLVMTypeOf(v) == lo_type(l, t)) {  /* a long tuple copied as it lies: no extractvalue of each field */
    LLVMBuildMemCpy(l->b, mem, 1, from, 1, LLVMSizeOf(*as_array));
    return mem;
  }
  for (int k = 0; k < t->nfields; k++) {
    LLVMValueRef at[2] = {const_i64(l, 0), const_i64(l, k)};
    LLVMBuildStore(l->b, LLVMBuildExtractValue(l->b, v, (unsigned)k, ""), LLVMBuildGEP2(l->b, *as_array, mem, at, 2, ""));
  }
  return mem;
}

/* i checked against t's length: IndexError outside [0, n); 0 where the error is deferred. */
static LLVMValueRef index_in_range(Lower *l, const Type *t, LLVMValueRef i) {
  LLVMValueRef out = LLVMBuildICmp(l->b, LLVMIntUGE, i, const_i64(l, t->nfields), "");
  lo_raise_if(l, out, RT_ERR_INDEX, "tuple index out of range");
  return LLVMBuildSelect(l->b, out, const_i64(l, 0), i, "");
}

/* The item of tuple value v at run-time index i (wrapped if negative,
 * IndexError out of range), through a copy in memory. */
static LLVMValueRef item_at(Lower *l, const Type *t, LLVMValueRef v, LLVMValueRef i) {
  LLVMValueRef n = const_i64(l, t->nfields);
  i = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), ""), LLVMBuildAdd(l->b, i, n, ""), i, "");
  i = index_in_range(l, t, i);
  LLVMTypeRef as_array;
  LLVMValueRef mem = lo_tuple_in_memory(l, t, v, &as_array), at[2] = {const_i64(l, 0), i};
  return LLVMBuildLoad2(l->b, LLVMGetElementType(as_array), LLVMBuildGEP2(l->b, as_array, mem, at, 2, ""), "");
}

/* t[index]: what it selects holds its own references to arrays (as a
 * view does, lo_is_fresh), so the tuple can go. */
LLVMValueRef lo_tuple_index(Lower *l, Node *n) {
  const Type *t = n->lhs->ty;
  LLVMValueRef v = lo_expr(l, n->lhs), r;
  int64_t i;
  if (n->rhs->kind == N_SLICE) {  /* typing left its first item in ival, its step in op */
    r = LLVMGetUndef(lo_type(l, n->ty));
    for (int k = 0; k < n->ty->nfields; k++)
      r = LLVMBuildInsertValue(l->b, r, LLVMBuildExtractValue(l->b, v, (unsigned)(n->rhs->ival + k * n->rhs->op), ""),
                               (unsigned)k, "");
  } else if (!n->str && constant_int(n->rhs, &i)) {
    r = LLVMBuildExtractValue(l->b, v, (unsigned)(i < 0 ? i + t->nfields : i), "");
  } else if (n->ty->kind == TY_FUNCS) {
    r = lo_funcs_of_tuple(l, t, lo_expr_as(l, n->rhs, TYS(TY_I64)), n->ty);
  } else {
    r = item_at(l, t, v, lo_expr_as(l, n->rhs, TYS(TY_I64)));
  }
  lo_refcount(l, n->ty, r, true);
  lo_done_with(l, n->lhs, v);
  return r;
}

/* The items of a, then of b's, as one tuple of type t. */
static LLVMValueRef tuple_concat_values(Lower *l, const Type *t, LLVMValueRef a, const Type *ta, LLVMValueRef b) {
  LLVMValueRef r = LLVMGetUndef(lo_type(l, t));
  int na = ta->nfields;
  for (int k = 0; k < t->nfields; k++)
    r = LLVMBuildInsertValue(l->b, r, LLVMBuildExtractValue(l->b, k < na ? a : b, (unsigned)(k < na ? k : k - na), ""),
                             (unsigned)k, "");
  return r;
}

/* The items of v, of type tv, over and over as one tuple of type t. */
static LLVMValueRef tuple_repeat_values(Lower *l, const Type *t, LLVMValueRef v, const Type *tv) {
  LLVMValueRef r = LLVMGetUndef(lo_type(l, t));
  for (int k = 0; k < t->nfields; k++)
    r = LLVMBuildInsertValue(l->b, r, LLVMBuildExtractValue(l->b, v, (unsigned)(k % tv->nfields), ""), (unsigned)k, "");
  return r;
}

/* t op= u of tuples without arrays (typing refuses the others): the new tuple. */
LLVMValueRef lo_tuple_binop_values(Lower *l, int op, const Type *t, LLVMValueRef a, const Type *ta, LLVMValueRef b) {
  return op == OP_MUL ? tuple_repeat_values(l, t, a, ta) : tuple_concat_values(l, t, a, ta, b);
}

/* t * k or k * t: each copy of an item owns a reference of its own (the
 * tuple's own references released where k <= 0). */
static LLVMValueRef lo_tuple_repeat(Lower *l, Node *n) {
  Node *side = n->lhs->ty->kind == TY_TUPLE ? n->lhs : n->rhs;
  LLVMValueRef v = lo_owned(l, side);
  int copies = side->ty->nfields ? n->ty->nfields / side->ty->nfields : 0;
  if (ty_has_arrays(side->ty) && !copies) lo_refcount(l, side->ty, v, false);
  for (int k = 1; ty_has_arrays(side->ty) && k < copies; k++) lo_refcount(l, side->ty, v, true);
  return tuple_repeat_values(l, n->ty, v, side->ty);
}

/* t + u: a new tuple owning its items' references; t * k. */
LLVMValueRef lo_tuple_binop(Lower *l, Node *n) {
  if (n->op == OP_MUL) return lo_tuple_repeat(l, n);
  bool refs = ty_has_arrays(n->lhs->ty);
  LLVMValueRef a = lo_owned(l, n->lhs);
  if (refs) lo_temp_made(l, n->lhs->ty, a);  /* released should the right side raise */
  LLVMValueRef b = lo_owned(l, n->rhs);
  if (refs) lo_temp_taken(l, a);
  return tuple_concat_values(l, n->ty, a, n->lhs->ty, b);
}

/* a op b of two tuples, as Python compares sequences: the first items
 * that differ decide, or else the lengths. */
/* Whether an item that may be None is one, and its value where not. */
static LLVMValueRef present(Lower *l, LLVMValueRef v, const Type *t, LLVMValueRef *value) {
  *value = t->kind == TY_OPTIONAL ? LLVMBuildExtractValue(l->b, v, 0, "") : v;
  if (t->kind == TY_NONE) return const_bool(l, false);
  return t->kind == TY_OPTIONAL ? LLVMBuildExtractValue(l->b, v, 1, "") : const_bool(l, true);
}

/* x == y of two items, either of which may be None: both None, or both
 * numbers and equal. */
static LLVMValueRef items_equal(Lower *l, LLVMValueRef x, const Type *tx, LLVMValueRef y, const Type *ty) {
  bool nx = tx->kind == TY_OPTIONAL || tx->kind == TY_NONE, ny = ty->kind == TY_OPTIONAL || ty->kind == TY_NONE;
  if (!nx && !ny) return lo_compare_values(l, OP_EQ, x, tx, y, ty);
  LLVMValueRef vx, vy, px = present(l, x, tx, &vx), py = present(l, y, ty, &vy);
  LLVMValueRef both = LLVMBuildAnd(l->b, px, py, ""), neither = LLVMBuildNot(l->b, LLVMBuildOr(l->b, px, py, ""), "");
  if (tx->kind == TY_NONE || ty->kind == TY_NONE) return neither;
  const Type *ex = tx->kind == TY_OPTIONAL ? tx->elem : tx, *ey = ty->kind == TY_OPTIONAL ? ty->elem : ty;
  LLVMValueRef equal = LLVMBuildAnd(l->b, both, lo_compare_values(l, OP_EQ, vx, ex, vy, ey), "");
  return LLVMBuildOr(l->b, neither, equal, "");
}

LLVMValueRef lo_tuple_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  int m = ta->nfields < tb->nfields ? ta->nfields : tb->nfields;
  int la = ta->nfields, lb = tb->nfields;
  bool by_length = op == OP_EQ ? la == lb : op == OP_NE ? la != lb : op == OP_LT ? la < lb
                   : op == OP_LE ? la <= lb : op == OP_GT ? la > lb : la >= lb;
  LLVMValueRef r = const_bool(l, by_length);
  if ((op == OP_EQ || op == OP_NE) && la != lb) return r;
  if (op == OP_EQ || op == OP_NE) {
    /* (of one length) every item equal: an `and` of the items' (a chain of selects, `same ? r : false`,
     * costs InstCombine's poison queries a walk of the block each, quadratic in a 300-item tuple's compile) */
    r = const_bool(l, true);
    for (int i = 0; i < m; i++) {
      LLVMValueRef x = LLVMBuildExtractValue(l->b, a, (unsigned)i, ""), y = LLVMBuildExtractValue(l->b, b, (unsigned)i, "");
      r = LLVMBuildAnd(l->b, r, items_equal(l, x, ta->fields[i], y, tb->fields[i]), "");
    }
    return op == OP_EQ ? r : LLVMBuildNot(l->b, r, "");
  }
  for (int i = m - 1; i >= 0; i--) {
    LLVMValueRef x = LLVMBuildExtractValue(l->b, a, (unsigned)i, ""), y = LLVMBuildExtractValue(l->b, b, (unsigned)i, "");
    LLVMValueRef same = items_equal(l, x, ta->fields[i], y, tb->fields[i]);
    LLVMValueRef decided = op == OP_EQ ? const_bool(l, false) : op == OP_NE ? const_bool(l, true)
                                       : lo_compare_values(l, op, x, ta->fields[i], y, tb->fields[i]);
    r = LLVMBuildSelect(l->b, same, r, decided, "");
  }
  return r;
}

/* ---------------------------------------------------------------- f(*t) */

/* The arguments of a call with *t come as one tuple (args[0]) and the
 * callee's defaults after it: bound to its plain parameters as Python
 * binds them, the rest to *args if it takes them. */
int ty_spread_args(Infer *in, Node *n, const Type **args, const Type **bound) {
  const Type *t = args[0];
  int np = n->op - 1, nd = n->list.len - 1;
  if (t->kind != TY_TUPLE) return ty_error(in, n, "argument after * must be a tuple, not %s", t->name), -1;
  int k = t->nfields;
  if (k < np - nd) return ty_error(in, n, "the call gives %d positional arguments, the function needs %d", k, np - nd), -1;
  if (k > np && !n->ival) return ty_error(in, n, "the call gives %d positional arguments, the function takes %d", k, np), -1;
  for (int i = 0; i < np; i++) bound[i] = i < k ? t->fields[i] : args[1 + i - (np - nd)];
  if (n->ival) bound[np] = ty_tuple(k > np ? k - np : 0, t->fields + np);
  return np + (int)n->ival;
}

int lo_spread_args(Lower *l, Node *n, const Func *callee, LLVMValueRef *args, LLVMValueRef *packed) {
  const Type *t = n->list.items[0]->ty;
  int np = n->op - 1, nd = n->list.len - 1, k = t->nfields;
  LLVMValueRef v = *packed = lo_expr(l, n->list.items[0]);
  for (int i = 0; i < np; i++)
    args[i] = i < k ? lo_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->fields[i], callee->var_types[i])
                    : lo_expr_as(l, n->list.items[1 + i - (np - nd)], callee->var_types[i]);
  if (!n->ival) return np;
  const Type *rest = callee->var_types[np];
  args[np] = LLVMGetUndef(lo_type(l, rest));
  for (int i = np; i < k; i++)
    args[np] = LLVMBuildInsertValue(l->b, args[np], LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), (unsigned)(i - np), "");
  return np + 1;
}

/* ---------------------------------------------------------------- tuple() */

/* tuple() and tuple(t) of a tuple t, as Numba types them (it refuses any
 * other iterable, whose length the type would have to know). */
static const Type *ty_tuple_call(Infer *in, Node *n, const Type **args) {
  if (!n->list.len) return ty_tuple(0, NULL);
  if (args[0]->kind != TY_TUPLE)
    return ty_error(in, n, "tuple() of %s is not supported in compiled code: it takes a tuple", args[0]->name);
  return args[0];
}

static LLVMValueRef lo_tuple_call(Lower *l, Node *n) {
  return n->list.len ? lo_owned(l, n->list.items[0]) : LLVMGetUndef(lo_type(l, n->ty));
}

/* ---------------------------------------------------------------- tuple_setitem */

/* numba.cpython.unsafe.tuple.tuple_setitem(t, i, v): t with item i (at run
 * time) replaced by v converted to the items' type, of a tuple of one
 * type of numbers (thewalrus' Hermite recursions). Numba's reads no
 * bounds; here an index outside the tuple is an IndexError. */
static const Type *ty_tuple_setitem(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0];
  if (t->kind != TY_TUPLE || !homogeneous(t) || !ty_is_scalar(t->fields[0]))
    return ty_error(in, n, "tuple_setitem() takes a non-empty tuple of one type of numbers, got %s", t->name);
  if (!ty_is_int(args[1])) return ty_error(in, n->list.items[1], "tuple_setitem()'s index must be an int, got %s", args[1]->name);
  if (!ty_is_scalar(args[2]) || (ty_is_complex(args[2]) && !ty_is_complex(t->fields[0])))
    return ty_error(in, n->list.items[2], "tuple_setitem() cannot store %s into %s", args[2]->name, t->name);
  return t;
}

static LLVMValueRef lo_tuple_setitem(Lower *l, Node *n) {
  const Type *t = n->ty;
  LLVMValueRef v = lo_expr(l, n->list.items[0]);
  LLVMValueRef i = index_in_range(l, t, lo_expr_as(l, n->list.items[1], TYS(TY_I64)));
  LLVMValueRef x = lo_expr_as(l, n->list.items[2], t->fields[0]);
  LLVMTypeRef as_array;
  LLVMValueRef mem = lo_tuple_in_memory(l, t, v, &as_array), at[2] = {const_i64(l, 0), i};
  LLVMBuildStore(l->b, x, LLVMBuildGEP2(l->b, as_array, mem, at, 2, ""));
  LLVMValueRef r = LLVMGetUndef(lo_type(l, t));
  for (int k = 0; k < t->nfields; k++) {
    LLVMValueRef kat[2] = {const_i64(l, 0), const_i64(l, k)};
    LLVMValueRef item = LLVMBuildLoad2(l->b, LLVMGetElementType(as_array), LLVMBuildGEP2(l->b, as_array, mem, kat, 2, ""), "");
    r = LLVMBuildInsertValue(l->b, r, item, (unsigned)k, "");
  }
  return r;
}

/* ---------------------------------------------------------------- the rows */

/* ---------------------------------------------------------------- to_fixed_tuple */

/* to_fixed_tuple(a, n) (Numba's numba.np.unsafe.ndarray's): the first n
 * items of a 1-d array as a tuple. Its length is part of its type, so n
 * must be known when compiling: a constant, another array's ndim or a
 * tuple's len() (`to_fixed_tuple(axes, x.ndim)`, as qibojit transposes),
 * or a parameter frozen to its value as literally() freezes it. Fewer
 * items than n: IndexError. */
static const Type *ty_to_fixed_tuple(Infer *in, Node *n, const Type **args) {
  const Type *a = args[0];
  if (a->kind != TY_ARRAY || a->ndim != 1)
    return ty_error(in, n->list.items[0], "to_fixed_tuple() takes a 1-d array, got %s", a->name);
  bool asked;
  const Node *len = ty_value_known(in, n, n->list.items[1], &asked);
  int64_t k = len && len->kind == N_INT ? len->ival : -1;
  if (asked) return NULL;
  if (!len && !ty_known_int(in, n->list.items[1], &k))
    return ty_error(in, n->list.items[1], "to_fixed_tuple()'s length must be known when the function is compiled (a "
                    "constant, an array's ndim, a tuple's len(), or a parameter of the function)");
  if (k < 0 || k > TY_MAX_FIELDS)
    return ty_error(in, n->list.items[1], "to_fixed_tuple()'s length must be an int from 0 to %d", TY_MAX_FIELDS);
  n->ival = k;
  return ty_tuple_repeat(1, &a->elem, (int)k);
}

static LLVMValueRef lo_to_fixed_tuple(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef a = lo_expr(l, x), k = const_i64(l, n->ival);
  lo_done_with(l, n->list.items[1], lo_expr(l, n->list.items[1]));
  LLVMValueRef size = lo_arr_shape(l, a, 0);
  lo_raise_format_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, size, k, ""), RT_ERR_INDEX,
                     "to_fixed_tuple(): the array has %lld items, fewer than %lld", (LLVMValueRef[]){size, k}, 2);
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, ""), stride = lo_arr_stride(l, x->ty, a, 0);
  LLVMValueRef r = LLVMGetUndef(lo_type(l, n->ty));
  for (int i = 0; i < n->ival; i++) {
    LLVMValueRef off = LLVMBuildMul(l->b, const_i64(l, i), stride, "");
    LLVMValueRef at = LLVMBuildInBoundsGEP2(l->b, l->mod->i8, data, &off, 1, "");
    r = LLVMBuildInsertValue(l->b, r, lo_load_scalar(l, x->ty->elem, at), (unsigned)i, "");
  }
  lo_done_with(l, x, a);
  return r;
}

/* ---------------------------------------------------------------- zip(*t), map(f, *t) */

/* A new node of kind k where `at` is written. */
static Node *node_at(Infer *in, NodeKind k, const Node *at) {
  Node *n = arena_alloc(in->f->arena, sizeof(Node));
  *n = (Node){.kind = k, .line = at->line, .col = at->col};
  return n;
}

/* t[i] of the tuple the variable seq holds (a copy of the N_VAR each time). */
static Node *spread_item(Infer *in, const Node *seq, int i) {
  Node *v = node_at(in, N_VAR, seq);
  *v = *seq;
  return ty_tuple_item(in, v, i);
}

/* The tuple a zip(*t) walks (t held in a variable): its sequences; an
 * error for anything but a tuple, whose length typing alone knows. */
static bool spread_tuple(Infer *in, Node *n, const Type *t) {
  if (t->kind == TY_TUPLE) return true;
  return ty_error(in, n, "zip(*x) and map(f, *x) take a tuple of sequences in compiled code, not %s", t->name) != NULL;
}

/* How many items zip(*t) yields: the least of the lengths of t's
 * sequences, min(len(t[0]), len(t[1]), ...), written so in place; 0 for
 * an empty t, as zip() yields nothing. */
static const Type *ty_spread_len(Infer *in, Node *n, const Type **args) {
  if (!spread_tuple(in, n, args[0])) return NULL;
  Node *seq = n->list.items[0];
  int k = args[0]->nfields;
  NodeList lens = {.len = k, .items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)(k ? k : 1))};
  for (int i = 0; i < k; i++) {
    Node *len = lens.items[i] = node_at(in, N_CALL, n);
    len->bi = bi_named("len");
    len->list = (NodeList){.len = 1, .items = arena_alloc(in->f->arena, sizeof(Node *))};
    len->list.items[0] = spread_item(in, seq, i);
  }
  if (k == 0) *n = (Node){.kind = N_INT, .line = n->line, .col = n->col, .ival = 0};
  else if (k == 1) *n = *lens.items[0];
  else *n = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .bi = bi_named("min"), .list = lens};
  return ty_expr(in, n);
}

/* The item zip(*t) yields at the counter k: (t[0][k], t[1][k], ...),
 * the tuple written so in place, each sequence read as a for loop reads it. */
static const Type *ty_spread_at(Infer *in, Node *n, const Type **args) {
  if (!spread_tuple(in, n, args[0])) return NULL;
  Node *seq = n->list.items[0], *counter = n->list.items[1];
  int k = args[0]->nfields;
  NodeList items = {.len = k, .items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)(k ? k : 1))};
  for (int i = 0; i < k; i++) {
    Node *x = items.items[i] = node_at(in, N_INDEX, n), *at = node_at(in, N_VAR, counter);
    *at = *counter;
    x->lhs = spread_item(in, seq, i);
    x->rhs = at;
    x->str = "iteration";
  }
  *n = (Node){.kind = N_TUPLE, .line = n->line, .col = n->col, .list = items};
  return ty_expr(in, n);
}

const Builtin bi_tuples[] = {
  {"tuple_setitem", "ruchey.unsafe", "tuple_setitem", BK_FUNCTION, 0, 3, 3, NULL, BF_RAISES, 0, 0, ty_tuple_setitem,
   lo_tuple_setitem},
  {"tuple", "builtins", "tuple", BK_FUNCTION, 0, 0, 1, NULL, BF_COMPLEX | BF_LISTS, 0, 0, ty_tuple_call,
   lo_tuple_call},
  {"tuple.index", NULL, "index", BK_METHOD, TY_TUPLE, 1, 1, NULL, BF_RAISES | BF_STRINGS, 1, 0, ty_tuple_find, lo_tuple_find},
  {"tuple.count", NULL, "count", BK_METHOD, TY_TUPLE, 1, 1, NULL, BF_STRINGS, 2, 0, ty_tuple_find, lo_tuple_find},
  {"literal list.copy", NULL, "copy", BK_METHOD, TY_TUPLE, 0, 0, NULL, BF_STRINGS | BF_COMPLEX | BF_LISTS, 0, 0,
   ty_literal_list_copy, lo_first_argument},
  {"to_fixed_tuple", "ruchey.unsafe", "to_fixed_tuple", BK_FUNCTION, 0, 2, 2, NULL, BF_RAISES | BF_COMPLEX, 0, 0,
   ty_to_fixed_tuple, lo_to_fixed_tuple},
  /* a for loop's walk over zip(*t) (the frontend's): both become plain code as they are typed */
  {"zip spread len", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, BF_COMPLEX, 0, 0, ty_spread_len, NULL},
  {"zip spread at", NULL, NULL, BK_FUNCTION, 0, 2, 2, NULL, BF_COMPLEX, 0, 0, ty_spread_at, NULL},
  BI_END,
};
