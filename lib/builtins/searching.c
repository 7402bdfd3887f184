/* builtins/searching.c — NumPy's searches of sorted arrays in compiled
 * code: searchsorted and digitize (a binary search per needle, emitted
 * inline, in the dtype NumPy compares the two in, NaN sorting last).
 */
#include <string.h>

#include "builtins/builtins.h"

/* ---------------------------------------------------------------- a sorted 1-d array */

/* Its memory, as the searches read it: n elements from data, stride bytes
 * apart (negative: digitize's decreasing bins read from the end). */
typedef struct Sorted {
  const Type *elem, *cmp;  /* its elements' type, the type needles and elements are compared in */
  LLVMValueRef data, n, stride;
} Sorted;

/* The dtype NumPy compares a's elements and the needles in: their common
 * one, but a Python float needle compares as a float array's dtype. */
static const Type *compare_type(const Type *a, Node *v) {
  const Type *e = elem_of(v->ty);
  if (ty_is_weak(v) && ty_is_float(a) && ty_is_float(e)) return a;
  return np_promote(a, e);
}

static Sorted sorted_of(Lower *l, const Type *t, LLVMValueRef a, const Type *cmp) {
  return (Sorted){t->elem, cmp, LLVMBuildExtractValue(l->b, a, 2, ""), lo_arr_shape(l, a, 0), lo_arr_stride(l, t, a, 0)};
}

static LLVMValueRef element_at(Lower *l, const Sorted *s, LLVMValueRef i) {
  LLVMValueRef offset = LLVMBuildMul(l->b, i, s->stride, "");
  LLVMValueRef p = LLVMBuildGEP2(l->b, l->mod->i8, s->data, &offset, 1, "");
  return lo_convert(l, lo_load_scalar(l, s->elem, p), s->elem, s->cmp);
}

/* x < y as NumPy sorts: NaN after every number */
static LLVMValueRef sorts_before(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef y) {
  if (!ty_is_float(t)) return lo_compare_values(l, OP_LT, x, t, y, t);
  LLVMValueRef lt = LLVMBuildFCmp(l->b, LLVMRealOLT, x, y, "");
  LLVMValueRef nan_after = LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealUNO, y, y, ""),
                                        LLVMBuildFCmp(l->b, LLVMRealORD, x, x, ""), "");
  return LLVMBuildOr(l->b, lt, nan_after, "");
}

/* The first index i where key would keep s sorted: before the elements
 * equal to key (left) or after them (right). */
static LLVMValueRef search(Lower *l, const Sorted *s, LLVMValueRef key, bool right) {
  LLVMValueRef lo = lo_alloca(l, l->mod->i64, "search.lo"), hi = lo_alloca(l, l->mod->i64, "search.hi");
  LLVMBuildStore(l->b, const_i64(l, 0), lo);
  LLVMBuildStore(l->b, s->n, hi);
  LLVMBasicBlockRef head = new_block(l, "search.head"), body = new_block(l, "search.body"), done = new_block(l, "search.done");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef vlo = LLVMBuildLoad2(l->b, l->mod->i64, lo, ""), vhi = LLVMBuildLoad2(l->b, l->mod->i64, hi, "");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, vlo, vhi, ""), body, done);
  position(l, body);
  LLVMValueRef mid = LLVMBuildLShr(l->b, LLVMBuildAdd(l->b, vlo, vhi, ""), const_i64(l, 1), "");
  LLVMValueRef x = element_at(l, s, mid);
  LLVMValueRef go_right = right ? LLVMBuildNot(l->b, sorts_before(l, s->cmp, key, x), "") : sorts_before(l, s->cmp, x, key);
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, go_right, LLVMBuildAdd(l->b, mid, const_i64(l, 1), ""), vlo, ""), lo);
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, go_right, vhi, mid, ""), hi);
  LLVMBuildBr(l->b, head);
  position(l, done);
  return vlo;
}

/* ---------------------------------------------------------------- each needle */

/* f of each needle (a number, or each element of an array, in C order):
 * an int64, or an array of them of the needles' shape. */
typedef LLVMValueRef (*NeedleFn)(Lower *l, LLVMValueRef needle, void *arg);

typedef struct Needles {
  const Type *t, *cmp;
  LLVMValueRef v, out, k;
  NeedleFn f;
  void *arg;
} Needles;

static void needle_at(Lower *l, LLVMValueRef *idx, void *arg) {
  Needles *ns = arg;
  LLVMValueRef x = lo_load_scalar(l, ns->t->elem, lo_element_addr(l, ns->t, ns->v, idx));
  LLVMValueRef k = LLVMBuildLoad2(l->b, l->mod->i64, ns->k, "");
  LLVMValueRef at = LLVMBuildInBoundsGEP2(l->b, l->mod->i64, LLVMBuildExtractValue(l->b, ns->out, 2, ""), &k, 1, "");
  LLVMBuildStore(l->b, ns->f(l, lo_convert(l, x, ns->t->elem, ns->cmp), ns->arg), at);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, const_i64(l, 1), ""), ns->k);
}

static LLVMValueRef each_needle(Lower *l, Node *v, const Type *cmp, NeedleFn f, void *arg) {
  if (v->ty->kind != TY_ARRAY) return f(l, lo_expr_as(l, v, cmp), arg);
  Needles ns = {v->ty, cmp, lo_expr(l, v), NULL, lo_alloca(l, l->mod->i64, "needle.k"), f, arg};
  LLVMValueRef shape[RC_MAX_NDIM];
  for (int d = 0; d < v->ty->ndim; d++) shape[d] = lo_arr_shape(l, ns.v, d);
  ns.out = lo_alloc_array(l, ty_array(TYS(TY_I64), v->ty->ndim, 'C', false), shape, -1);
  LLVMBuildStore(l->b, const_i64(l, 0), ns.k);
  lo_for_each_index(l, v->ty->ndim, shape, needle_at, &ns);
  lo_done_with(l, v, ns.v);
  return ns.out;
}

static const Type *needles_result(const Type *v) {
  return v->kind == TY_ARRAY ? ty_array(TYS(TY_I64), v->ndim, 'C', false) : TYS(TY_I64);
}

static bool need_sorted_1d(Infer *in, Node *n, Node *a, const char *what) {
  if (a->ty->kind == TY_ARRAY && a->ty->ndim == 1) return true;
  return ty_error(in, a, "%s(): %s must be a 1-d array, got %s", n->bi->name, what, a->ty->name) != NULL;
}

static bool need_numbers(Infer *in, Node *n, Node *v, const char *what) {
  if (v && (ty_is_scalar(v->ty) || v->ty->kind == TY_ARRAY)) return true;
  return ty_error(in, v ? v : n, "%s(): %s must be a number or an array, got %s", n->bi->name, what,
                  v ? v->ty->name : "nothing") != NULL;
}

/* ---------------------------------------------------------------- searchsorted */

static bool right_side(Node *side) { return side && side->kind == N_STRING && !strcmp(side->str, "right"); }

static const Type *ty_searchsorted(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *v = bi_arg(n, 1, "v"), *side = bi_arg(n, 2, "side");
  if (!need_sorted_1d(in, n, a, "a") || !need_numbers(in, n, v, "v")) return NULL;
  if (side && (side->kind != N_STRING || (strcmp(side->str, "left") && strcmp(side->str, "right"))))
    return ty_error(in, side, "%s(): search side must be 'left' or 'right', got %s", n->bi->name,
                    side->kind == N_STRING ? side->str : side->ty->name);
  return needles_result(v->ty);
}

typedef struct Search {
  Sorted s;
  bool right;
} Search;

static LLVMValueRef search_needle(Lower *l, LLVMValueRef key, void *arg) {
  Search *s = arg;
  return search(l, &s->s, key, s->right);
}

static LLVMValueRef lo_searchsorted(Lower *l, Node *n) {
  Node *a = n->list.items[0], *v = bi_arg(n, 1, "v");
  const Type *cmp = compare_type(a->ty->elem, v);
  LLVMValueRef av = lo_expr(l, a);
  Search s = {sorted_of(l, a->ty, av, cmp), right_side(bi_arg(n, 2, "side"))};
  LLVMValueRef r = each_needle(l, v, cmp, search_needle, &s);
  lo_done_with(l, a, av);
  return r;
}

/* ---------------------------------------------------------------- digitize */

static const Type *ty_digitize(Infer *in, Node *n, const Type **args) {
  Node *x = n->list.items[0], *bins = bi_arg(n, 1, "bins");
  Node *right = bi_arg(n, 2, "right");
  if (!need_numbers(in, n, x, "x") || !bins || !need_sorted_1d(in, n, bins, "bins")) return NULL;
  if (right && right->kind != N_BOOL && right->kind != N_INT)
    return ty_error(in, right, "%s(): right must be a constant True or False in compiled code", n->bi->name);
  return needles_result(x->ty);
}

typedef struct Digitize {
  Search up, down;  /* the bins as they are, and read from the end */
  LLVMValueRef decreasing;
} Digitize;

/* NumPy's digitize: searchsorted on the other side than right= names;
 * for decreasing bins, len(bins) minus the search of them reversed. */
static LLVMValueRef digitize_needle(Lower *l, LLVMValueRef key, void *arg) {
  Digitize *d = arg;
  LLVMBasicBlockRef up = new_block(l, "digitize.up"), down = new_block(l, "digitize.down"), done = new_block(l, "digitize");
  LLVMBuildCondBr(l->b, d->decreasing, down, up);
  position(l, up);
  LLVMValueRef i = search(l, &d->up.s, key, d->up.right);
  LLVMBasicBlockRef up_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, down);
  LLVMValueRef j = LLVMBuildSub(l->b, d->down.s.n, search(l, &d->down.s, key, d->down.right), "");
  LLVMBasicBlockRef down_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef r = LLVMBuildPhi(l->b, l->mod->i64, "digitize");
  LLVMAddIncoming(r, (LLVMValueRef[]){i, j}, (LLVMBasicBlockRef[]){up_end, down_end}, 2);
  return r;
}

static LLVMValueRef lo_digitize(Lower *l, Node *n) {
  Node *x = n->list.items[0], *bins = bi_arg(n, 1, "bins"), *right = bi_arg(n, 2, "right");
  const Type *cmp = compare_type(bins->ty->elem, x);
  LLVMValueRef bv = lo_expr(l, bins);
  Sorted s = sorted_of(l, bins->ty, bv, cmp);
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i32};
  LLVMValueRef mono = lo_call_fn(l, "rt_monotonic", l->mod->i32, p,
                                 (LLVMValueRef[]){s.data, s.n, s.stride, const_i32(l, (int)bins->ty->elem->kind)}, 4);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, mono, const_i32(l, 0), ""), RT_ERR_VALUE,
              "bins must be monotonically increasing or decreasing");
  bool side = !(right && right->ival);  /* searchsorted's side: the other one than right= names */
  LLVMValueRef last = LLVMBuildSub(l->b, s.n, const_i64(l, 1), ""), end = LLVMBuildMul(l->b, last, s.stride, "");
  Sorted reversed = s;
  reversed.data = LLVMBuildGEP2(l->b, l->mod->i8, s.data, &end, 1, "");
  reversed.stride = LLVMBuildNeg(l->b, s.stride, "");
  Digitize d = {{s, side}, {reversed, side}, LLVMBuildICmp(l->b, LLVMIntSLT, mono, const_i32(l, 0), "")};
  LLVMValueRef out = each_needle(l, x, cmp, digitize_needle, &d);
  lo_done_with(l, bins, bv);
  return out;
}

/* ---------------------------------------------------------------- the rows */

static const char *const searchsorted_kw[] = {"v", "side", NULL};
static const char *const digitize_kw[] = {"bins", "right", NULL};

#define SEARCH_FLAGS (BF_ALLOCATES | BF_RAISES | BF_STRINGS)

const Builtin bi_searching[] = {
  {"numpy.searchsorted", "numpy", "searchsorted", BK_FUNCTION, 0, 1, 3, searchsorted_kw, SEARCH_FLAGS, 0, 0, ty_searchsorted,
   lo_searchsorted},
  {"array.searchsorted", NULL, "searchsorted", BK_METHOD, TY_ARRAY, 0, 2, searchsorted_kw, SEARCH_FLAGS, 0, 0, ty_searchsorted,
   lo_searchsorted},
  {"numpy.digitize", "numpy", "digitize", BK_FUNCTION, 0, 1, 3, digitize_kw, BF_ALLOCATES | BF_RAISES, 0, 0, ty_digitize,
   lo_digitize},
  BI_END,
};

/* ---------------------------------------------------------------- at run time */

static double as_double(const char *p, int32_t kind) {
  switch (kind) {
  case TY_BOOL: case TY_U8: return *(const uint8_t *)p;
  case TY_I8: return *(const int8_t *)p;
  case TY_I16: return *(const int16_t *)p;
  case TY_U16: return *(const uint16_t *)p;
  case TY_I32: return *(const int32_t *)p;
  case TY_U32: return *(const uint32_t *)p;
  case TY_I64: return (double)*(const int64_t *)p;
  case TY_U64: return (double)*(const uint64_t *)p;
  case TY_F32: return *(const float *)p;
  default: return *(const double *)p;
  }
}

/* NumPy's check of digitize's bins, on their values as doubles: 1
 * increasing (or all equal), -1 decreasing, 0 neither. */
int32_t rt_monotonic(const char *data, int64_t n, int64_t stride, int32_t kind) {
  if (n == 0) return 1;
  double last = as_double(data, kind), next = last;
  int64_t i = 1;
  while (i < n && (next = as_double(data + i * stride, kind)) == last) i++;
  if (i == n) return 1;
  int32_t way = last < next ? 1 : -1;
  for (i++; i < n; i++) {
    last = next;
    next = as_double(data + i * stride, kind);
    if (way > 0 ? last > next : last < next) return 0;
  }
  return way;
}
