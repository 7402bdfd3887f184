/* builtins/strings.c — str values in compiled code (Numba's unicode_type):
 * constants, operators (+, * by an int, comparisons, `in`), len,
 * indexing and slicing, iteration, truth, the methods of Numba's unicode
 * subset, str(), ord(), chr(), format() (f-strings), and int() and
 * float() of a str.
 *
 * A str is a pointer to an RtStr (rtstr.h), reference-counted as arrays'
 * memory is: what an expression makes is a new reference, variables own
 * one each. Length and truth are inlined; everything else calls
 * lib/strings.c, each function returning a status and its result through
 * its first argument. Most methods are one row of the table below, naming
 * their runtime function and the kinds of their arguments.
 */
#include <stdio.h>

#include "builtins/builtins.h"
#include "rtstr.h"

#define NONE_INDEX INT64_MIN  /* an index given as None, or not given (strings.c) */

static bool is_str(const Type *t) { return t && t->kind == TY_STR; }
static bool is_intlike(const Type *t) { return ty_is_int(t) || t->kind == TY_BOOL; }

/* ---------------------------------------------------------------- the data model */

void lo_str_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc) {
  LLVMValueRef f = lo_refcount_fn(l, inc, "rt_str_free");
  LLVMBuildCall2(l->b, LLVMGlobalGetValueType(f), f, &v, 1, "");
}

static LLVMValueRef str_len(Lower *l, LLVMValueRef s) {
  LLVMValueRef p = LLVMBuildGEP2(l->b, l->mod->i64, s, (LLVMValueRef[]){const_i64(l, 1)}, 1, "");
  return LLVMBuildLoad2(l->b, l->mod->i64, p, "len");
}

LLVMValueRef lo_str_len(Lower *l, LLVMValueRef s) { return str_len(l, s); }

/* An owned str about to go into a container: a constant becomes a copy
 * on the heap, since the container may outlive the code. */
LLVMValueRef lo_str_keep(Lower *l, LLVMValueRef s) { return lo_call_fn(l, "rt_str_keep", l->mod->ptr, &l->mod->ptr, &s, 1); }

LLVMValueRef lo_str_truth(Lower *l, LLVMValueRef s) {
  return LLVMBuildICmp(l->b, LLVMIntNE, str_len(l, s), const_i64(l, 0), "");
}

/* A constant: an RtStr in the module's data whose count never reaches
 * zero, one per text. */
LLVMValueRef lo_str_constant(Lower *l, Node *n) {
  int64_t len = rt_str_decode(n->str, n->ival, NULL);
  uint64_t hash = 14695981039346656037u;
  for (int64_t i = 0; i < n->ival; i++) hash = (hash ^ (unsigned char)n->str[i]) * 1099511628211u;
  char name[64];
  snprintf(name, sizeof name, "str.%016llx.%lld", (unsigned long long)hash, (long long)n->ival);
  LLVMValueRef g = LLVMGetNamedGlobal(l->mod->m, name);
  if (g) return g;
  uint32_t *pts = arena_alloc(l->f->arena, sizeof(uint32_t) * (size_t)(len + 1));
  rt_str_decode(n->str, n->ival, pts);
  LLVMValueRef *cps = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(len + 1));
  for (int64_t i = 0; i <= len; i++) cps[i] = const_i32(l, (int)pts[i]);
  LLVMValueRef head[4] = {const_i64(l, RT_STR_IMMORTAL), const_i64(l, len), const_i64(l, -1),
                          LLVMConstArray2(l->mod->i32, cps, (uint64_t)len + 1)};
  LLVMValueRef init = LLVMConstStructInContext(l->mod->c, head, 4, 0);
  g = LLVMAddGlobal(l->mod->m, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetAlignment(g, 8);
  return g;
}

/* Calls the runtime function fn(out, args...), raising what it reports;
 * the result of type rt from out. */
static LLVMValueRef call_rt(Lower *l, const char *fn, LLVMTypeRef rt, LLVMTypeRef *types, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef p[12] = {l->mod->ptr};
  LLVMValueRef a[12];
  a[0] = lo_alloca(l, rt, "str.out");
  for (unsigned i = 0; i < n; i++) {
    p[i + 1] = types[i];
    a[i + 1] = args[i];
  }
  lo_check_call(l, lo_call_fn(l, fn, l->mod->i32, p, a, n + 1));
  return LLVMBuildLoad2(l->b, rt, a[0], "");
}

/* ---------------------------------------------------------------- truth */

static const Type *ty_truth(Infer *in, Node *n, const Type **args) { return TYS(TY_BOOL); }

static LLVMValueRef lo_truth_call(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef s = lo_expr(l, x), r = lo_str_truth(l, s);
  lo_done_with(l, x, s);
  return r;
}

/* A str's truth as NumPy reads it as a 0-d array (argwhere, flatnonzero):
 * its trailing NULs dropped, not empty in NumPy 2, not only whitespace in
 * NumPy 1.x; where's condition (the row's ival 1) is NumPy 2's on NumPy 1
 * too, as where's text arrays' (NumPy 1's where reads int(s) there). */
static LLVMValueRef lo_numpy_truth_call(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef s = lo_expr(l, x);
  bool numpy2 = rt_numpy_version >= 200 || n->bi->ival;
  LLVMValueRef which = const_i32(l, numpy2 ? STR_IS_NUMPY_FALSE : STR_IS_NUMPY1_FALSE);
  LLVMValueRef blank = call_rt(l, "rt_str_is", l->mod->i32, (LLVMTypeRef[]){l->mod->ptr, l->mod->i32},
                               (LLVMValueRef[]){s, which}, 2);
  lo_done_with(l, x, s);
  return LLVMBuildICmp(l->b, LLVMIntEQ, blank, const_i32(l, 0), "");
}

/* ---------------------------------------------------------------- operators */

static const char *const op_names[] = {"+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^"};

const Type *ty_str_binop(Infer *in, Node *n, int op, const Type *a, const Type *b) {
  if (ty_no_allocation(in)) return ty_error(in, n, "strings are not supported in kernels");
  if (op == OP_ADD && is_str(a) && is_str(b)) return TYS(TY_STR);
  if (op == OP_MUL && ((is_str(a) && is_intlike(b)) || (is_intlike(a) && is_str(b)))) return TYS(TY_STR);
  return ty_error(in, n, "operator %s is not supported between %s and %s", op < 12 ? op_names[op] : "?", a->name,
                  b->name);
}

LLVMValueRef lo_str_binop_values(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  if (op == OP_ADD) {
    LLVMTypeRef p[2] = {l->mod->ptr, l->mod->ptr};
    return call_rt(l, "rt_str_concat", l->mod->ptr, p, (LLVMValueRef[]){a, b}, 2);
  }
  bool str_first = is_str(ta);
  LLVMValueRef count = str_first ? lo_convert(l, b, tb, TYS(TY_I64)) : lo_convert(l, a, ta, TYS(TY_I64));
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
  return call_rt(l, "rt_str_repeat", l->mod->ptr, p, (LLVMValueRef[]){str_first ? a : b, count}, 2);
}

bool bi_compare_other_kind(Infer *in, Node *n, int op, const Type *a, const Type *b) {
  if (op != OP_EQ && op != OP_NE)
    return ty_error(in, n, "'<' and the other orderings are not supported between %s and %s", a->name, b->name) != NULL;
  const Type *arr = a->kind == TY_ARRAY ? a : b->kind == TY_ARRAY ? b : NULL;
  if (arr) return ty_error(in, n, "comparing %s with %s is not supported", a->name, b->name) != NULL;
  return true;
}

/* Comparisons: of two strs by code points; == and != of a str and another
 * type are False and True, as Python's; ordering them is an error. */
bool ty_str_compare(Infer *in, Node *n, const Type **t) {
  for (int i = 0; i + 1 < n->list.len; i++)
    if (is_str(t[i]) != is_str(t[i + 1]) && !bi_compare_other_kind(in, n, n->ops[i], t[i], t[i + 1])) return false;
  return true;
}

LLVMValueRef lo_str_compare_values(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  if (!is_str(ta) || !is_str(tb)) return const_bool(l, op == OP_NE);
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->ptr};
  if (op == OP_EQ || op == OP_NE) {
    LLVMValueRef eq = lo_call_fn(l, "rt_str_equal", l->mod->i32, p, (LLVMValueRef[]){a, b}, 2);
    return LLVMBuildICmp(l->b, op == OP_EQ ? LLVMIntNE : LLVMIntEQ, eq, const_i32(l, 0), "");
  }
  static const LLVMIntPredicate pred[] = {LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  LLVMValueRef c = lo_call_fn(l, "rt_str_compare", l->mod->i64, p, (LLVMValueRef[]){a, b}, 2);
  return LLVMBuildICmp(l->b, pred[op - OP_LT], c, const_i64(l, 0), "");
}

/* a < b < c with strs (or bytes) among them: each operand evaluated once, and released after its last comparison. */
LLVMValueRef lo_str_compare(Lower *l, Node *n) {
  LLVMValueRef result = lo_alloca(l, l->mod->i1, "cmp");
  LLVMBasicBlockRef done = new_block(l, "cmp.done");
  Node *an = n->list.items[0];
  LLVMValueRef a = lo_expr(l, an);
  for (int i = 0; i + 1 < n->list.len; i++) {
    Node *bn = n->list.items[i + 1];
    LLVMValueRef b = lo_expr(l, bn);
    bool by_str = (is_str(an->ty) || is_str(bn->ty)) && an->ty->kind != TY_LIST;  /* (a list's operators first) */
    LLVMValueRef c = by_str ? lo_str_compare_values(l, n->ops[i], a, an->ty, b, bn->ty)
                            : lo_compare_values(l, n->ops[i], a, an->ty, b, bn->ty);
    lo_done_with(l, an, a);
    LLVMBuildStore(l->b, c, result);
    if (i + 2 < n->list.len) {
      LLVMBasicBlockRef next = new_block(l, "cmp.next"), stop = new_block(l, "cmp.stop");
      LLVMBuildCondBr(l->b, c, next, stop);
      position(l, stop);
      lo_done_with(l, bn, b);
      LLVMBuildBr(l->b, done);
      position(l, next);
    } else {
      lo_done_with(l, bn, b);
    }
    an = bn;
    a = b;
  }
  LLVMBuildBr(l->b, done);
  position(l, done);
  return LLVMBuildLoad2(l->b, l->mod->i1, result, "");
}

/* A str's code points or a bytes' bytes: their address, and in *count
 * how many (rt_text_order's operands). */
LLVMValueRef lo_text_units(Lower *l, LLVMValueRef v, const Type *t, LLVMValueRef *count) {
  if (is_str(t)) {
    *count = str_len(l, v);
    return LLVMBuildGEP2(l->b, l->mod->i8, v, (LLVMValueRef[]){const_i64(l, RT_STR_HEADER)}, 1, "");
  }
  *count = lo_arr_shape(l, v, 0);
  return LLVMBuildExtractValue(l->b, v, 2, "data");
}

/* a op b (a comparison) of two texts of width-byte units, as NumPy
 * compares text items (rt_text_order). */
LLVMValueRef lo_text_compare(Lower *l, int op, LLVMValueRef pa, LLVMValueRef na, LLVMValueRef pb, LLVMValueRef nb,
                             int width) {
  LLVMTypeRef p[5] = {l->mod->ptr, l->mod->i64, l->mod->ptr, l->mod->i64, l->mod->i32};
  LLVMValueRef order = lo_call_fn(l, "rt_text_order", l->mod->i64, p, (LLVMValueRef[]){pa, na, pb, nb, const_i32(l, width)}, 5);
  static const LLVMIntPredicate pred[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  return LLVMBuildICmp(l->b, pred[op - OP_EQ], order, const_i64(l, 0), "");
}

/* sub in s */
const Type *ty_str_contains(Infer *in, Node *n, const Type **args) {
  if (!is_str(args[0]))
    return ty_error(in, n, "'in <string>' requires string as left operand, not %s", args[0]->name);
  return TYS(TY_BOOL);
}

LLVMValueRef lo_str_contains(Lower *l, Node *n) {
  Node *sub = n->list.items[0], *s = n->list.items[1];
  LLVMValueRef vsub = lo_expr(l, sub), vs = lo_expr(l, s);
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->ptr};
  LLVMValueRef r = call_rt(l, "rt_str_contains", l->mod->i32, p, (LLVMValueRef[]){vs, vsub}, 2);
  lo_done_with(l, sub, vsub);
  lo_done_with(l, s, vs);
  return LLVMBuildICmp(l->b, LLVMIntNE, r, const_i32(l, 0), "");
}

/* ---------------------------------------------------------------- indexing */

bool bi_slice_part(Infer *in, Node *x) {
  if (!x || x->kind == N_NONE) return true;
  const Type *t = ty_expr(in, x);
  if (t && !is_intlike(t) && t->kind != TY_NONE)
    return ty_error(in, x, "slice indices must be integers or None, not %s", t->name) != NULL;
  return t != NULL;
}

const Type *ty_str_index(Infer *in, Node *n, const Type *base) {
  Node *i = n->rhs;
  if (i->kind == N_SLICE) return bi_slice_part(in, i->lhs) && bi_slice_part(in, i->rhs) && bi_slice_part(in, i->cond) ? base : NULL;
  const Type *t = ty_expr(in, i);
  if (t && !is_intlike(t)) return ty_error(in, i, "string indices must be integers, not %s", t->name);
  if (n->str && strcmp(n->str, "iteration")) return ty_error(in, n, "strings have no keys(), values() or items()");
  return t ? base : NULL;
}

static LLVMValueRef slice_part(Lower *l, Node *x) {
  if (!x || x->kind == N_NONE || x->ty->kind == TY_NONE) return const_i64(l, NONE_INDEX);
  return lo_expr_as(l, x, TYS(TY_I64));
}

LLVMValueRef lo_str_index(Lower *l, Node *n) {
  LLVMValueRef s = lo_expr(l, n->lhs), r;
  Node *i = n->rhs;
  if (i->kind == N_SLICE) {
    LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64};
    LLVMValueRef a[4] = {s, slice_part(l, i->lhs), slice_part(l, i->rhs), slice_part(l, i->cond)};
    r = call_rt(l, "rt_str_slice", l->mod->ptr, p, a, 4);
  } else {
    LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
    r = call_rt(l, "rt_str_getitem", l->mod->ptr, p, (LLVMValueRef[]){s, lo_expr_as(l, i, TYS(TY_I64))}, 2);
  }
  lo_done_with(l, n->lhs, s);
  return r;
}

/* A new list of str x's characters, each a str of its own (list(s), x.extend(s)). */
LLVMValueRef lo_str_chars(Lower *l, Node *x) {
  LLVMValueRef s = lo_expr(l, x), len = str_len(l, s), lst = lo_list_new(l, x->ty, len);
  lo_temp_made(l, ty_list(x->ty), lst);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), len, NULL, "str.chars");
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
  lo_list_append(l, x->ty, lst, call_rt(l, "rt_str_getitem", l->mod->ptr, p, (LLVMValueRef[]){s, loop.index}, 2));
  lo_loop_end(l, &loop);
  lo_temp_taken(l, lst);
  lo_done_with(l, x, s);
  return lst;
}

/* ---------------------------------------------------------------- methods */

/* What a method row calls: its runtime function, the kinds of its
 * arguments after the receiver (S a str, s a str or None, I an int, i an
 * int or None, n an int defaulting to -1, z an int or bool defaulting to
 * 0, T an int defaulting to 8), its result (S a str, I an int, B a bool, L a list of str, T a tuple
 * of three strs), and a constant passed last (-1: none). */
typedef struct StrFn {
  const char *fn, *params;
  char result;
  int extra;
} StrFn;

enum {
  F_UPPER, F_LOWER, F_SWAPCASE, F_CAPITALIZE, F_TITLE, F_CASEFOLD,
  F_ISDIGIT, F_ISNUMERIC, F_ISALPHA, F_ISSPACE, F_ISALNUM, F_ISUPPER, F_ISLOWER, F_ISDECIMAL, F_ISASCII, F_ISTITLE,
  F_ISIDENTIFIER, F_ISPRINTABLE,
  F_FIND, F_RFIND, F_INDEX, F_RINDEX, F_COUNT, F_STARTSWITH, F_ENDSWITH,
  F_STRIP, F_LSTRIP, F_RSTRIP, F_CENTER, F_LJUST, F_RJUST, F_ZFILL, F_REPLACE, F_SPLIT, F_RSPLIT,
  F_SPLITLINES, F_PARTITION, F_RPARTITION, F_EXPANDTABS, F_REMOVEPREFIX, F_REMOVESUFFIX,
};

static const StrFn str_fns[] = {
  [F_UPPER] = {"rt_str_case", "", 'S', STR_CASE_UPPER}, [F_LOWER] = {"rt_str_case", "", 'S', STR_CASE_LOWER},
  [F_SWAPCASE] = {"rt_str_case", "", 'S', STR_CASE_SWAP},
  [F_CAPITALIZE] = {"rt_str_case", "", 'S', STR_CASE_CAPITALIZE},
  [F_TITLE] = {"rt_str_case", "", 'S', STR_CASE_TITLE}, [F_CASEFOLD] = {"rt_str_case", "", 'S', STR_CASE_FOLD},
  [F_ISDIGIT] = {"rt_str_is", "", 'B', STR_IS_DIGIT}, [F_ISALPHA] = {"rt_str_is", "", 'B', STR_IS_ALPHA},
  [F_ISSPACE] = {"rt_str_is", "", 'B', STR_IS_SPACE}, [F_ISALNUM] = {"rt_str_is", "", 'B', STR_IS_ALNUM},
  [F_ISUPPER] = {"rt_str_is", "", 'B', STR_IS_UPPER}, [F_ISLOWER] = {"rt_str_is", "", 'B', STR_IS_LOWER},
  [F_ISDECIMAL] = {"rt_str_is", "", 'B', STR_IS_DECIMAL}, [F_ISASCII] = {"rt_str_is", "", 'B', STR_IS_ASCII},
  [F_ISTITLE] = {"rt_str_is", "", 'B', STR_IS_TITLE}, [F_ISNUMERIC] = {"rt_str_is", "", 'B', STR_IS_NUMERIC},
  [F_ISIDENTIFIER] = {"rt_str_is", "", 'B', STR_IS_IDENTIFIER},
  [F_ISPRINTABLE] = {"rt_str_is", "", 'B', STR_IS_PRINTABLE},
  [F_FIND] = {"rt_str_find", "Sii", 'I', 0}, [F_RFIND] = {"rt_str_find", "Sii", 'I', 1},
  [F_INDEX] = {"rt_str_find", "Sii", 'I', 2}, [F_RINDEX] = {"rt_str_find", "Sii", 'I', 3},
  [F_COUNT] = {"rt_str_count", "Sii", 'I', -1},
  [F_STARTSWITH] = {"rt_str_tailmatch", "Sii", 'B', 0}, [F_ENDSWITH] = {"rt_str_tailmatch", "Sii", 'B', 1},
  [F_STRIP] = {"rt_str_strip", "s", 'S', 3}, [F_LSTRIP] = {"rt_str_strip", "s", 'S', 1},
  [F_RSTRIP] = {"rt_str_strip", "s", 'S', 2},
  [F_CENTER] = {"rt_str_pad", "Is", 'S', 0}, [F_LJUST] = {"rt_str_pad", "Is", 'S', 1},
  [F_RJUST] = {"rt_str_pad", "Is", 'S', 2},
  [F_ZFILL] = {"rt_str_zfill", "I", 'S', -1}, [F_REPLACE] = {"rt_str_replace", "SSn", 'S', -1},
  [F_SPLIT] = {"rt_str_split", "sn", 'L', 0}, [F_RSPLIT] = {"rt_str_split", "sn", 'L', 1},
  [F_SPLITLINES] = {"rt_str_splitlines", "z", 'L', -1},
  [F_PARTITION] = {"rt_str_partition", "S", 'T', 0}, [F_RPARTITION] = {"rt_str_partition", "S", 'T', 1},
  [F_EXPANDTABS] = {"rt_str_expandtabs", "T", 'S', -1},
  [F_REMOVEPREFIX] = {"rt_str_removeaffix", "S", 'S', 0}, [F_REMOVESUFFIX] = {"rt_str_removeaffix", "S", 'S', 1},
};

/* The method's argument k (after the receiver), positional or by keyword; NULL if not given. */
static Node *method_arg(Node *n, int k) {
  if (k + 1 < n->list.len) return n->list.items[k + 1];
  for (int i = 0; i < n->kw.len; i++)
    if (n->bi->keywords && !strcmp(n->bi->keywords[k], n->kw_names[i])) return n->kw.items[i];
  return NULL;
}

static const Type *result_type(char r) {
  const Type *three_strs[3] = {TYS(TY_STR), TYS(TY_STR), TYS(TY_STR)};  /* ty_tuple copies them */
  return r == 'S' ? TYS(TY_STR) : r == 'I' ? TYS(TY_I64) : r == 'B' ? TYS(TY_BOOL) :
         r == 'T' ? ty_tuple(3, three_strs) : ty_list(TYS(TY_STR));
}

static const Type *ty_str_method(Infer *in, Node *n, const Type **args) {
  const StrFn *f = &str_fns[n->bi->ival];
  if (ty_no_allocation(in)) return ty_error(in, n, "strings are not supported in kernels");
  for (int k = 0; f->params[k]; k++) {
    Node *x = method_arg(n, k);
    const Type *t = x ? ty_expr(in, x) : NULL;
    char want = f->params[k];
    if (!t || (t->kind == TY_NONE && (want == 's' || want == 'i'))) continue;  /* n, z: no None, as Python's */
    bool ok = want == 'S' || want == 's' ? is_str(t) : is_intlike(t);
    if (!ok)
      return ty_error(in, x, "%s() argument %d must be %s, not %s", n->bi->path, k + 1,
                      want == 'S' || want == 's' ? "str" : "int", t->name);
  }
  return result_type(f->result);
}

static LLVMValueRef lo_str_method(Lower *l, Node *n) {
  const StrFn *f = &str_fns[n->bi->ival];
  LLVMTypeRef p[8];
  LLVMValueRef a[8];
  Node *strs[8];
  LLVMValueRef held[8];
  int np = 0, ns = 0;
  Node *recv = n->list.items[0];
  p[np] = l->mod->ptr;
  a[np++] = held[ns] = lo_expr(l, recv);
  strs[ns++] = recv;
  for (int k = 0; f->params[k]; k++) {
    Node *x = method_arg(n, k);
    bool given = x && x->ty->kind != TY_NONE;
    if (f->params[k] == 'S' || f->params[k] == 's') {
      p[np] = l->mod->ptr;
      a[np++] = given ? (held[ns] = lo_expr(l, x)) : LLVMConstNull(l->mod->ptr);
      if (given) strs[ns++] = x;
    } else {
      p[np] = l->mod->i64;
      char want = f->params[k];
      a[np++] = given ? lo_expr_as(l, x, TYS(TY_I64))
                      : const_i64(l, want == 'n' ? -1 : want == 'z' ? 0 : want == 'T' ? 8 : NONE_INDEX);
    }
  }
  if (f->extra >= 0) {
    p[np] = l->mod->i32;
    a[np++] = const_i32(l, f->extra);
  }
  LLVMTypeRef rt = f->result == 'I' ? l->mod->i64 : f->result == 'B' ? l->mod->i32 :
                   f->result == 'T' ? lo_type(l, n->ty) : l->mod->ptr;
  LLVMValueRef r = call_rt(l, f->fn, rt, p, a, (unsigned)np);
  for (int i = 0; i < ns; i++) lo_done_with(l, strs[i], held[i]);
  return f->result == 'B' ? LLVMBuildICmp(l->b, LLVMIntNE, r, const_i32(l, 0), "") : r;
}

/* s.startswith(prefix[, start[, end]]) and endswith: prefix a str, or a
 * tuple of strs, any of which matches (none: False), as Python's. */
static bool strs_tuple(const Type *t) {
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (!is_str(t->fields[i])) return false;
  return t->kind == TY_TUPLE;
}

static const Type *ty_tailmatch(Infer *in, Node *n, const Type **args) {
  if (n->list.len > 1 && !is_str(args[1]) && !strs_tuple(args[1]))
    return ty_error(in, n->list.items[1], "%s first arg must be str or a tuple of str, not %s", n->bi->path, args[1]->name);
  if (n->list.len < 2 || is_str(args[1])) return ty_str_method(in, n, args);
  for (int k = 1; k < 3; k++) {  /* start and end, as ty_str_method checks them */
    Node *x = method_arg(n, k);
    const Type *t = x ? ty_expr(in, x) : NULL;
    if (t && t->kind != TY_NONE && !is_intlike(t))
      return ty_error(in, x, "slice indices must be integers or None or have an __index__ method");
  }
  return TYS(TY_BOOL);
}

static LLVMValueRef lo_tailmatch(Lower *l, Node *n) {
  Node *prefixes = n->list.items[1];
  if (is_str(prefixes->ty)) return lo_str_method(l, n);
  LLVMValueRef s = lo_expr(l, n->list.items[0]), t = lo_expr(l, prefixes), any = const_bool(l, false);
  LLVMValueRef ends[2];
  for (int k = 1; k < 3; k++) {
    Node *x = method_arg(n, k);
    ends[k - 1] = x && x->ty->kind != TY_NONE ? lo_expr_as(l, x, TYS(TY_I64)) : const_i64(l, NONE_INDEX);
  }
  LLVMTypeRef p[5] = {l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i32};
  for (int i = 0; i < prefixes->ty->nfields; i++) {
    LLVMValueRef a[5] = {s, LLVMBuildExtractValue(l->b, t, (unsigned)i, ""), ends[0], ends[1],
                         const_i32(l, str_fns[n->bi->ival].extra)};
    LLVMValueRef r = call_rt(l, "rt_str_tailmatch", l->mod->i32, p, a, 5);
    any = LLVMBuildOr(l->b, any, LLVMBuildICmp(l->b, LLVMIntNE, r, const_i32(l, 0), ""), "");
  }
  lo_done_with(l, prefixes, t);
  lo_done_with(l, n->list.items[0], s);
  return any;
}

/* sep.join(items): a typed list of str, or a tuple of strs (a list written
 * out); a str joins its characters and a 1-d array of str its items (each
 * made list(x)), as Python's */
static const Type *ty_join(Infer *in, Node *n, const Type **args) {
  const Type *a = args[1];
  bool listed = a->kind == TY_STR || (a->kind == TY_ARRAY && a->ndim == 1 && a->elem->kind == TY_CHARSEQ);
  const Type *t = listed ? ty_wrap_call(in, n->list.items[1], "list") : a;
  if (!t) return NULL;
  bool ok = t->kind == TY_LIST ? !t->elem || is_str(t->elem) : t->kind == TY_TUPLE;
  for (int i = 0; ok && t->kind == TY_TUPLE && i < t->nfields; i++) ok = is_str(t->fields[i]);
  if (!ok) return ty_error(in, n->list.items[1], "join() takes a list or tuple of str, not %s", t->name);
  return TYS(TY_STR);
}

static LLVMValueRef lo_join(Lower *l, Node *n) {
  Node *sn = n->list.items[0], *xn = n->list.items[1];
  LLVMValueRef sep = lo_expr(l, sn), x = lo_expr(l, xn), r;
  if (xn->ty->kind == TY_LIST) {
    LLVMTypeRef p[2] = {l->mod->ptr, l->mod->ptr};
    r = xn->ty->elem ? call_rt(l, "rt_str_join_list", l->mod->ptr, p, (LLVMValueRef[]){sep, x}, 2)
                     : call_rt(l, "rt_str_slice", l->mod->ptr, (LLVMTypeRef[]){l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64},
                               (LLVMValueRef[]){sep, const_i64(l, 0), const_i64(l, 0), const_i64(l, 1)}, 4);
  } else {
    int k = xn->ty->nfields;
    LLVMTypeRef arr = LLVMArrayType2(l->mod->ptr, (uint64_t)(k ? k : 1));
    LLVMValueRef items = lo_alloca(l, arr, "join.items");
    for (int i = 0; i < k; i++) {
      LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, i)};
      LLVMBuildStore(l->b, LLVMBuildExtractValue(l->b, x, (unsigned)i, ""), LLVMBuildGEP2(l->b, arr, items, ix, 2, ""));
    }
    LLVMTypeRef p[3] = {l->mod->ptr, l->mod->ptr, l->mod->i64};
    r = call_rt(l, "rt_str_join", l->mod->ptr, p, (LLVMValueRef[]){sep, items, const_i64(l, k)}, 3);
  }
  lo_done_with(l, sn, sep);
  lo_done_with(l, xn, x);
  return r;
}

/* ---------------------------------------------------------------- str(), ord(), chr(), format() */

static LLVMValueRef lo_repr(Lower *l, Node *n);

/* A number or a bool, which the runtime's str(x) writes from its bits. */
static bool is_plain_number(const Type *t) { return ty_is_scalar(t) && !ty_is_complex(t) && !ty_is_enum(t); }

/* str(x) and repr(x): of a str, a number or a bool at once; of a tuple, a
 * list, None... as print() writes them (builtins/print.c). */
static const Type *ty_str_call(Infer *in, Node *n, const Type **args) {
  if (ty_no_allocation(in)) return ty_error(in, n, "strings are not supported in kernels");
  bool repr = n->bi->lower == lo_repr;
  if (n->list.len) args[0] = ty_printed_arg(in, &n->list.items[0]);
  if (n->list.len && !is_str(args[0]) && !is_plain_number(args[0]) && !ty_str_as_printed(args[0], repr) &&
      !ty_text_by_interpreter(in->opts, n, args[0], repr))
    return ty_error(in, n, "%s() of %s is not supported in compiled code (numbers, bools, str, None, arrays, dicts, "
                    "sets, and tuples and lists of them are)", n->bi->name, args[0]->name);
  return TYS(TY_STR);
}

/* A number as the runtime's str(x) takes it: its 64 bits and their kind. */
static LLVMValueRef number_bits(Lower *l, LLVMValueRef v, const Type *t, int *kind) {
  if (t->kind == TY_BOOL) {
    *kind = 4;
    return LLVMBuildZExt(l->b, v, l->mod->i64, "");
  }
  if (ty_is_float(t)) {
    *kind = t->kind == TY_F32 ? 3 : 2;
    return LLVMBuildBitCast(l->b, lo_convert(l, v, t, TYS(TY_F64)), l->mod->i64, "");
  }
  *kind = ty_is_signed(t) ? 0 : 1;
  return lo_convert(l, v, t, ty_is_signed(t) ? TYS(TY_I64) : TYS(TY_U64));
}

static LLVMValueRef lo_str_call(Lower *l, Node *n) {
  if (!n->list.len) return lo_str_constant(l, &(Node){.kind = N_STRING, .str = "", .ival = 0});
  Node *x = n->list.items[0];
  LLVMValueRef v = lo_expr(l, x);
  if (is_str(x->ty)) {  /* the same string, one more reference for the caller */
    if (!lo_is_fresh(x)) lo_refcount(l, x->ty, v, true);
    else lo_temp_taken(l, v);
    return v;
  }
  if (!is_plain_number(x->ty) && !ty_str_as_printed(x->ty, false)) return lo_text_by_interpreter(l, n, x, v);
  if (!is_plain_number(x->ty)) {
    LLVMValueRef r = lo_str_as_printed(l, v, x->ty, false);
    lo_done_with(l, x, v);
    return r;
  }
  int kind;
  LLVMValueRef bits = number_bits(l, v, x->ty, &kind);
  LLVMTypeRef p[2] = {l->mod->i64, l->mod->i32};
  return call_rt(l, "rt_str_from_number", l->mod->ptr, p, (LLVMValueRef[]){bits, const_i32(l, kind)}, 2);
}

/* repr(x): a str quoted and escaped as Python writes it; a number or a
 * bool as str() writes it (Python's repr of an int, a float, a bool). */
static LLVMValueRef lo_repr(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  if (is_plain_number(x->ty)) return lo_str_call(l, n);
  LLVMValueRef v = lo_expr(l, x);
  if (!is_str(x->ty) && !ty_str_as_printed(x->ty, true)) return lo_text_by_interpreter(l, n, x, v);
  LLVMValueRef r = is_str(x->ty) ? call_rt(l, "rt_str_repr_of", l->mod->ptr, &l->mod->ptr, &v, 1)
                                 : lo_str_as_printed(l, v, x->ty, true);
  lo_done_with(l, x, v);
  return r;
}

static const Type *ty_ord(Infer *in, Node *n, const Type **args) {
  if (!is_str(args[0])) return ty_error(in, n, "ord() expected string of length 1, but %s found", args[0]->name);
  return TYS(TY_I64);
}

static LLVMValueRef lo_ord(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef s = lo_expr(l, x);
  LLVMValueRef r = call_rt(l, "rt_str_ord", l->mod->i64, &l->mod->ptr, &s, 1);
  lo_done_with(l, x, s);
  return r;
}

static const Type *ty_chr(Infer *in, Node *n, const Type **args) {
  if (!is_intlike(args[0])) return ty_error(in, n, "chr() takes an integer, not %s", args[0]->name);
  return ty_no_allocation(in) ? ty_error(in, n, "strings are not supported in kernels") : TYS(TY_STR);
}

static LLVMValueRef lo_chr(Lower *l, Node *n) {
  LLVMValueRef c = lo_expr_as(l, n->list.items[0], TYS(TY_I64));
  return call_rt(l, "rt_str_chr", l->mod->ptr, &l->mod->i64, &c, 1);
}

/* format(x, spec) (what an f-string's {x:spec} becomes): the spec a
 * constant, of the plain subset (fill, align, sign, 0, width, grouping,
 * precision, type); others are refused naming them. */
static const Type *ty_format(Infer *in, Node *n, const Type **args) {
  Node *spec = n->list.len > 1 ? n->list.items[1] : NULL;
  const Type *t = spec && spec->kind == N_STRING && *spec->str ? args[0] : ty_printed_arg(in, &n->list.items[0]);
  if (ty_no_allocation(in)) return ty_error(in, n, "strings are not supported in kernels");
  if (spec && spec->kind != N_STRING) return ty_error(in, spec, "format()'s spec must be a constant string");
  int kind = is_str(t) ? 2 : ty_is_float(t) ? 1 : (ty_is_int(t) || t->kind == TY_BOOL) ? 0 : -1;
  if (kind < 0 && (!spec || !*spec->str) && (ty_str_as_printed(t, false) || ty_text_by_interpreter(in->opts, n, t, false)))
    return TYS(TY_STR);  /* f"{t}": str(t) */
  if (kind < 0) return ty_error(in, n, "formatting %s is not supported in compiled code", t->name);
  if (spec && !rt_str_spec_ok(spec->str, kind))
    return ty_error(in, spec, "format spec '%s' is not supported for %s in compiled code (fill, align, sign, '#' "
                    "with b, o and x, 0, width, ',' or '_', precision and the types d, x, o, b, e, f, g, %% and s are)", spec->str, t->name);
  return TYS(TY_STR);
}

/* format(v, spec) of v an int or a bool of type t */
static LLVMValueRef format_int(Lower *l, LLVMValueRef v, const Type *t, const char *spec) {
  bool u = ty_is_unsigned(t) || t->kind == TY_BOOL;
  LLVMTypeRef p[3] = {l->mod->i64, l->mod->i32, l->mod->ptr};
  LLVMValueRef a[3] = {lo_convert(l, v, t, u ? TYS(TY_U64) : TYS(TY_I64)), const_i32(l, u), lo_string(l, spec)};
  return call_rt(l, "rt_str_format_int", l->mod->ptr, p, a, 3);
}

static LLVMValueRef lo_format(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  const char *spec = n->list.len > 1 ? n->list.items[1]->str : "";
  if (!*spec) {  /* format(x) is str(x) */
    Node call = *n;
    call.list.len = 1;
    return lo_str_call(l, &call);
  }
  LLVMValueRef v = lo_expr(l, x), r;
  if (is_str(x->ty)) {
    LLVMTypeRef p[2] = {l->mod->ptr, l->mod->ptr};
    r = call_rt(l, "rt_str_format_str", l->mod->ptr, p, (LLVMValueRef[]){v, lo_string(l, spec)}, 2);
    lo_done_with(l, x, v);
  } else if (ty_is_float(x->ty)) {
    LLVMTypeRef p[2] = {l->mod->f64, l->mod->ptr};
    r = call_rt(l, "rt_str_format_float", l->mod->ptr, p,
                (LLVMValueRef[]){lo_convert(l, v, x->ty, TYS(TY_F64)), lo_string(l, spec)}, 2);
  } else {
    r = format_int(l, v, x->ty, spec);
  }
  return r;
}

/* hex(i), oct(i), bin(i): format(i, '#x'), '#o' and '#b' (ival: the type) */
static const Type *ty_int_in_base(Infer *in, Node *n, const Type **args) {
  if (!is_intlike(args[0]))
    return ty_error(in, n, "%s() takes an integer: '%s' cannot be interpreted as an integer", n->bi->name, args[0]->name);
  return ty_no_allocation(in) ? ty_error(in, n, "strings are not supported in kernels") : TYS(TY_STR);
}

static LLVMValueRef lo_int_in_base(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  char spec[3] = {'#', (char)n->bi->ival, 0};
  return format_int(l, lo_expr(l, x), x->ty, spec);
}

/* ---------------------------------------------------------------- int(s), float(s), len(s) */

LLVMValueRef lo_str_to_number(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef s = lo_expr(l, x);
  bool as_int = ty_is_int(n->ty);
  LLVMValueRef r = call_rt(l, as_int ? "rt_str_to_int" : "rt_str_to_float", as_int ? l->mod->i64 : l->mod->f64,
                           &l->mod->ptr, &s, 1);
  lo_done_with(l, x, s);
  return r;
}

/* ---------------------------------------------------------------- the rows */

static const char *const split_kw[] = {"sep", "maxsplit", NULL};
static const char *const splitlines_kw[] = {"keepends", NULL};
static const char *const expandtabs_kw[] = {"tabsize", NULL};

/* BF_STRINGS: constant strings are strs (not dtypes' names); BF_NONE: None is an argument's default */
#define STR_METHOD(name, lo, hi, kw, flags, fn) \
  {"str." name, NULL, name, BK_METHOD, TY_STR, lo, hi, kw, BF_STRINGS | BF_NONE | (flags), fn, 0, ty_str_method, lo_str_method}
#define STR_FUNCTION(name, lo, hi, flags, type, lower) \
  {name, "builtins", name, BK_FUNCTION, 0, lo, hi, NULL, BF_STRINGS | (flags), 0, 0, type, lower}

const Builtin bi_strings[] = {
  STR_METHOD("upper", 0, 0, NULL, BF_RAISES, F_UPPER),
  STR_METHOD("lower", 0, 0, NULL, BF_RAISES, F_LOWER),
  STR_METHOD("swapcase", 0, 0, NULL, BF_RAISES, F_SWAPCASE),
  STR_METHOD("capitalize", 0, 0, NULL, BF_RAISES, F_CAPITALIZE),
  STR_METHOD("title", 0, 0, NULL, BF_RAISES, F_TITLE),
  STR_METHOD("casefold", 0, 0, NULL, BF_RAISES, F_CASEFOLD),
  STR_METHOD("isdigit", 0, 0, NULL, 0, F_ISDIGIT),
  STR_METHOD("isnumeric", 0, 0, NULL, 0, F_ISNUMERIC),
  STR_METHOD("isdecimal", 0, 0, NULL, 0, F_ISDECIMAL),
  STR_METHOD("isalpha", 0, 0, NULL, 0, F_ISALPHA),
  STR_METHOD("isspace", 0, 0, NULL, 0, F_ISSPACE),
  STR_METHOD("isalnum", 0, 0, NULL, 0, F_ISALNUM),
  STR_METHOD("isupper", 0, 0, NULL, 0, F_ISUPPER),
  STR_METHOD("islower", 0, 0, NULL, 0, F_ISLOWER),
  STR_METHOD("isascii", 0, 0, NULL, 0, F_ISASCII),
  STR_METHOD("istitle", 0, 0, NULL, 0, F_ISTITLE),
  STR_METHOD("isidentifier", 0, 0, NULL, 0, F_ISIDENTIFIER),
  STR_METHOD("isprintable", 0, 0, NULL, 0, F_ISPRINTABLE),
  STR_METHOD("find", 1, 3, NULL, 0, F_FIND),
  STR_METHOD("rfind", 1, 3, NULL, 0, F_RFIND),
  STR_METHOD("index", 1, 3, NULL, BF_RAISES, F_INDEX),
  STR_METHOD("rindex", 1, 3, NULL, BF_RAISES, F_RINDEX),
  STR_METHOD("count", 1, 3, NULL, 0, F_COUNT),
  {"str.startswith", NULL, "startswith", BK_METHOD, TY_STR, 1, 3, NULL, BF_STRINGS | BF_NONE, F_STARTSWITH, 0,
   ty_tailmatch, lo_tailmatch},
  {"str.endswith", NULL, "endswith", BK_METHOD, TY_STR, 1, 3, NULL, BF_STRINGS | BF_NONE, F_ENDSWITH, 0, ty_tailmatch,
   lo_tailmatch},
  STR_METHOD("strip", 0, 1, NULL, BF_RAISES, F_STRIP),
  STR_METHOD("lstrip", 0, 1, NULL, BF_RAISES, F_LSTRIP),
  STR_METHOD("rstrip", 0, 1, NULL, BF_RAISES, F_RSTRIP),
  STR_METHOD("center", 1, 2, NULL, BF_RAISES, F_CENTER),
  STR_METHOD("ljust", 1, 2, NULL, BF_RAISES, F_LJUST),
  STR_METHOD("rjust", 1, 2, NULL, BF_RAISES, F_RJUST),
  STR_METHOD("zfill", 1, 1, NULL, BF_RAISES, F_ZFILL),
  STR_METHOD("replace", 2, 3, NULL, BF_RAISES, F_REPLACE),
  STR_METHOD("split", 0, 2, split_kw, BF_RAISES, F_SPLIT),
  STR_METHOD("rsplit", 0, 2, split_kw, BF_RAISES, F_RSPLIT),
  STR_METHOD("splitlines", 0, 1, splitlines_kw, BF_RAISES, F_SPLITLINES),
  STR_METHOD("partition", 1, 1, NULL, BF_RAISES, F_PARTITION),
  STR_METHOD("expandtabs", 0, 1, expandtabs_kw, BF_RAISES, F_EXPANDTABS),
  STR_METHOD("rpartition", 1, 1, NULL, BF_RAISES, F_RPARTITION),
  STR_METHOD("removeprefix", 1, 1, NULL, BF_RAISES, F_REMOVEPREFIX),
  STR_METHOD("removesuffix", 1, 1, NULL, BF_RAISES, F_REMOVESUFFIX),
  {"str.join", NULL, "join", BK_METHOD, TY_STR, 1, 1, NULL, BF_STRINGS | BF_LISTS | BF_RAISES, 0, 0, ty_join, lo_join},
  STR_FUNCTION("str", 0, 1, BF_RAISES | BF_LISTS | BF_NONE | BF_COMPLEX, ty_str_call, lo_str_call),
  STR_FUNCTION("repr", 1, 1, BF_RAISES | BF_LISTS | BF_NONE | BF_COMPLEX, ty_str_call, lo_repr),
  STR_FUNCTION("ord", 1, 1, BF_RAISES, ty_ord, lo_ord),
  STR_FUNCTION("chr", 1, 1, BF_RAISES, ty_chr, lo_chr),
  STR_FUNCTION("format", 1, 2, BF_RAISES | BF_LISTS | BF_NONE | BF_COMPLEX, ty_format, lo_format),
  {"hex", "builtins", "hex", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE, 'x', 0, ty_int_in_base, lo_int_in_base},
  {"oct", "builtins", "oct", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE, 'o', 0, ty_int_in_base, lo_int_in_base},
  {"bin", "builtins", "bin", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE, 'b', 0, ty_int_in_base, lo_int_in_base},
  {"str truth", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, 0, 0, 0, ty_truth, lo_truth_call},
  {"numpy str truth", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, 0, 0, 0, ty_truth, lo_numpy_truth_call},
  {"numpy where str truth", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, 0, 1, 0, ty_truth, lo_numpy_truth_call},
  BI_END,
};
