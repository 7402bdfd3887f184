/* builtins/sorting.c — NumPy's sorting in compiled code: numpy.sort,
 * numpy.argsort, numpy.partition and numpy.argpartition (functions and
 * array methods, a.sort() and a.partition() in place), along an axis or
 * over the flattened array (axis=None). A partition is a sort: sorted
 * lanes are partitioned for every kth.
 *
 * Stable kinds (mergesort, stable) give NumPy's exact order; the unstable
 * kinds (quicksort, heapsort) may order the indices of argsort's ties as
 * NumPy's quicksort does not. Elements are ordered by integer keys
 * (NaN last, -0.0 equal to 0.0, as NumPy orders them): a merge sort for
 * short lanes, an LSD radix sort on the keys for long ones. The
 * unstable kinds of 8-byte elements run sort_simd.c's quicksort where
 * the processor has AVX-512. argsort of elements of 4 bytes or fewer,
 * every kind, sorts words holding a key above its index (unique words,
 * so NumPy's stable order): 4-byte keys by sort_simd.c's quicksort,
 * narrower ones by the radix sort. Complex lanes sort in sort_complex.c.
 */
#include <stdlib.h>
#include <string.h>

#include "builtins/builtins.h"

/* ---------------------------------------------------------------- typing */

/* The row's ival: what the call returns, and whether it partitions
 * (then kth is argument 1, axis and kind follow). */
enum { SORT_VALUES, SORT_INDICES, SORT_IN_PLACE, PARTITION = 4 };

static const char *const sort_kinds[] = {"quicksort", "mergesort", "heapsort", "stable", NULL};
static const char *const select_kinds[] = {"introselect", NULL};

static bool is_none(const Node *x) { return x && x->kind == N_NONE; }
static bool partitions(const Node *n) { return n->bi->ival & PARTITION; }
static int how_of(const Node *n) { return n->bi->ival & ~PARTITION; }
static Node *axis_arg(Node *n) { return bi_arg(n, 1 + partitions(n), "axis"); }
static Node *kind_arg(Node *n) { return bi_arg(n, 2 + partitions(n), "kind"); }

static bool check_kind(Infer *in, Node *n, Node *kind) {
  if (!kind || is_none(kind)) return true;
  if (kind->kind != N_STRING)
    return ty_error(in, kind, "%s(): kind must be a constant string, got %s", n->bi->name, kind->ty->name) != NULL;
  const char *const *kinds = partitions(n) ? select_kinds : sort_kinds;
  for (int i = 0; kinds[i]; i++)
    if (!strcmp(kind->str, kinds[i])) return true;
  if (partitions(n)) return ty_error(in, kind, "%s(): select kind must be 'introselect', got '%s'", n->bi->name, kind->str) != NULL;
  return ty_error(in, kind, "%s(): sort kind must be one of 'quicksort', 'mergesort', 'heapsort' or 'stable', got '%s'",
                  n->bi->name, kind->str) != NULL;
}

static bool check_kth(Infer *in, Node *n) {
  Node *kth = bi_arg(n, 1, "kth");
  if (!partitions(n)) return true;
  if (!kth) return ty_error(in, n, "%s() missing argument 'kth'", n->bi->name) != NULL;
  const Type *t = kth->ty;
  bool ints = ty_is_int(t) || (t->kind == TY_ARRAY && t->ndim <= 1 && ty_is_int(t->elem));
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++) ints = ty_is_int(t->fields[i]);
  if (t->kind == TY_TUPLE && !t->nfields) ints = true;
  if (!ints)
    return ty_error(in, kth, "%s(): kth must be an integer or a sequence of integers (a tuple, a 1-d array), got %s",
                    n->bi->name, t->name) != NULL;
  return true;
}

/* numpy.sort(a, axis=-1, kind=None), numpy.argsort(...), a.sort(axis=-1,
 * kind=None), a.argsort(...), and the same of partition(a, kth, ...): an
 * array of a's dtype (sort), of int64 indices (argsort), or None (a.sort()). */
static const Type *ty_sort(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *axis = axis_arg(n);
  const Type *t = a->ty;
  int how = how_of(n);
  if (t->kind != TY_ARRAY) return ty_error(in, a, "%s() needs an array, got %s", n->bi->name, t->name);
  if (is_none(axis) && how == SORT_IN_PLACE)
    return ty_error(in, axis, "%s(): axis must be an integer, got None", n->bi->name);
  if (!is_none(axis)) {
    if (axis && !bi_check_axis(in, n, axis, t->ndim)) return NULL;
    if (!axis && t->ndim == 0) return ty_error(in, a, "%s(): axis -1 is out of bounds for array of dimension 0", n->bi->name);
  }
  if (!check_kind(in, n, kind_arg(n)) || !check_kth(in, n)) return NULL;
  if (how == SORT_IN_PLACE) {
    if (ty_no_allocation(in)) return ty_error(in, n, "kernels cannot sort arrays: %s() needs memory of the host's", n->bi->name);
    return t->readonly ? ty_error(in, a, "%s(): the array is read-only", n->bi->name) : TYS(TY_NONE);
  }
  return ty_array(how == SORT_INDICES ? TYS(TY_I64) : t->elem, is_none(axis) ? 1 : t->ndim, 'C', false);
}

/* ---------------------------------------------------------------- lowering */

/* An axis given at run time, normalised into [0, ndim), or NumPy's AxisError. */
static LLVMValueRef axis_value(Lower *l, Node *axis, int ndim) {
  if (!axis) return const_i64(l, ndim - 1);
  LLVMValueRef v = lo_expr_as(l, axis, TYS(TY_I64)), n = const_i64(l, ndim);
  LLVMValueRef bad = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, v, LLVMBuildNeg(l->b, n, ""), ""),
                                 LLVMBuildICmp(l->b, LLVMIntSGE, v, n, ""), "");
  lo_raise_format_if(l, bad, RT_ERR_VALUE, "axis %lld is out of bounds for array of dimension %lld", (LLVMValueRef[]){v, n}, 2);
  return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, v, const_i64(l, 0), ""), LLVMBuildAdd(l->b, v, n, ""), v, "");
}

/* dims[0..ndim) in a new i64 array on the stack: its address */
static LLVMValueRef dims_in_memory(Lower *l, const LLVMValueRef *dims, int ndim, const char *name) {
  LLVMValueRef p = lo_alloca(l, LLVMArrayType2(l->mod->i64, (uint64_t)(ndim ? ndim : 1)), name);
  for (int d = 0; d < ndim; d++) {
    LLVMValueRef at = LLVMBuildInBoundsGEP2(l->b, l->mod->i64, p, (LLVMValueRef[]){const_i64(l, d)}, 1, "");
    LLVMBuildStore(l->b, dims[d], at);
  }
  return p;
}

/* rt_sort(a's memory, shape, strides, ndim, axis, dtype) or rt_argsort(...,
 * indices): every lane of a along axis sorted, or its sorting indices
 * written into the C-contiguous out of a's shape; MemoryError if the
 * run-time sort found no memory. The dtype carries RT_SORT_STABLE where
 * a stable kind was asked for. */
static void sort_lanes(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef axis, LLVMValueRef out, bool stable) {
  LLVMValueRef shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  for (int d = 0; d < t->ndim; d++) {
    shape[d] = lo_arr_shape(l, a, d);
    strides[d] = lo_arr_stride(l, t, a, d);
  }
  LLVMTypeRef ptr = l->mod->ptr, i64 = l->mod->i64, i32 = l->mod->i32;
  LLVMTypeRef p[7] = {ptr, ptr, ptr, i32, i64, i32, ptr};
  LLVMValueRef args[7] = {LLVMBuildExtractValue(l->b, a, 2, ""), dims_in_memory(l, shape, t->ndim, "sort.shape"),
                          dims_in_memory(l, strides, t->ndim, "sort.strides"), const_i32(l, t->ndim), axis,
                          const_i32(l, (int)t->elem->kind | (stable ? RT_SORT_STABLE : 0)), out};
  LLVMValueRef status = lo_call_fn(l, out ? "rt_argsort" : "rt_sort", i32, p, args, out ? 7 : 6);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, 0), ""), RT_ERR_MEMORY, "out of memory while sorting");
}

/* NumPy's ValueError unless -len <= kth < len (kth is the partition's
 * argument 1, len the length of a's lanes along axis) */
static void check_one_kth(Lower *l, LLVMValueRef kth, LLVMValueRef len) {
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, kth, const_i64(l, 0), "");
  LLVMValueRef k = LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, kth, len, ""), kth, "");
  LLVMValueRef bad = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, k, const_i64(l, 0), ""),
                                 LLVMBuildICmp(l->b, LLVMIntSGE, k, len, ""), "");
  lo_raise_format_if(l, bad, RT_ERR_VALUE, "kth(=%lld) out of bounds (%lld)", (LLVMValueRef[]){k, len}, 2);
}

/* The same for each kth of a sequence (every lane is sorted whole, which
 * partitions it for all of them). */
static void check_kth_at_run_time(Lower *l, Node *n, LLVMValueRef len) {
  if (!partitions(n)) return;
  Node *kth = bi_arg(n, 1, "kth");
  const Type *t = kth->ty;
  LLVMValueRef v = lo_expr(l, kth);
  if (ty_is_int(t)) check_one_kth(l, lo_convert(l, v, t, TYS(TY_I64)), len);
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    check_one_kth(l, lo_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->fields[i], TYS(TY_I64)), len);
  if (t->kind == TY_ARRAY) {
    LoLoop each = lo_loop_begin(l, const_i64(l, 0), t->ndim ? lo_arr_shape(l, v, 0) : const_i64(l, 1), NULL, "kth");
    LLVMValueRef at = lo_element_addr(l, t, v, &each.index);
    check_one_kth(l, lo_convert(l, lo_load_scalar(l, t->elem, at), t->elem, TYS(TY_I64)), len);
    lo_loop_end(l, &each);
  }
  lo_done_with(l, kth, v);
}

/* the length of the lanes along axis k (a value) of a */
static LLVMValueRef lane_length(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef k) {
  LLVMValueRef len = const_i64(l, 0);
  for (int d = 0; d < t->ndim; d++)
    len = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, k, const_i64(l, d), ""), lo_arr_shape(l, a, d), len, "");
  return len;
}

/* kind="mergesort" or "stable" */
static bool stable_kind(Node *n) {
  Node *kind = kind_arg(n);
  return kind && kind->kind == N_STRING && (!strcmp(kind->str, "mergesort") || !strcmp(kind->str, "stable"));
}

/* axis=None: a's elements in C order in a new 1-d array, sorted (sort,
 * partition), or the indices that sort them (argsort, argpartition) */
static LLVMValueRef sort_flat(Lower *l, Node *n, Node *a) {
  const Type *ft = ty_array(elem_of(a->ty), 1, 'C', false);
  LLVMValueRef count, values = np_joined_elements(l, &a, 1, ft->elem, &count), zero = const_i64(l, 0);
  check_kth_at_run_time(l, n, count);
  if (how_of(n) == SORT_VALUES) {
    sort_lanes(l, ft, values, zero, NULL, stable_kind(n));
    lo_temp_taken(l, values);
    return values;
  }
  LLVMValueRef r = lo_alloc_array(l, n->ty, &count, -1);
  lo_temp_made(l, n->ty, r);
  sort_lanes(l, ft, values, zero, LLVMBuildExtractValue(l->b, r, 2, ""), stable_kind(n));
  lo_temp_taken(l, r);
  lo_release_temp(l, ft, values);
  return r;
}

static LLVMValueRef lo_sort(Lower *l, Node *n) {
  Node *a = n->list.items[0], *axis = axis_arg(n);
  if (is_none(axis)) return sort_flat(l, n, a);
  const Type *t = a->ty;
  LLVMValueRef v = lo_expr(l, a), r, k = axis_value(l, axis, t->ndim);
  if (how_of(n) == SORT_IN_PLACE) {
    check_kth_at_run_time(l, n, lane_length(l, t, v, k));
    sort_lanes(l, t, v, k, NULL, stable_kind(n));
    r = LLVMGetUndef(l->mod->i8);
  } else if (how_of(n) == SORT_VALUES) {
    r = lo_copy_array(l, n->ty, t, v);
    lo_temp_made(l, n->ty, r);
    check_kth_at_run_time(l, n, lane_length(l, n->ty, r, k));
    sort_lanes(l, n->ty, r, k, NULL, stable_kind(n));
    lo_temp_taken(l, r);
  } else {
    LLVMValueRef shape[RC_MAX_NDIM];
    for (int d = 0; d < t->ndim; d++) shape[d] = lo_arr_shape(l, v, d);
    check_kth_at_run_time(l, n, lane_length(l, t, v, k));
    r = lo_alloc_array(l, n->ty, shape, -1);
    lo_temp_made(l, n->ty, r);
    sort_lanes(l, t, v, k, LLVMBuildExtractValue(l->b, r, 2, ""), stable_kind(n));
    lo_temp_taken(l, r);
  }
  lo_done_with(l, a, v);
  return r;
}

/* ---------------------------------------------------------------- unique */

static bool counts_wanted(Node *n) {
  Node *c = bi_arg(n, 1, "return_counts");
  return c && c->ival;
}

/* numpy.unique(a, return_counts=False): the sorted distinct elements (NaN
 * once, as NumPy 2's equal_nan), and with return_counts how often each is. */
static const Type *ty_unique(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *c = bi_arg(n, 1, "return_counts");
  if (!bi_need_values(in, n, a)) return NULL;
  if (c && c->kind != N_BOOL)
    return ty_error(in, c, "%s(): return_counts must be a constant True or False in compiled code", n->bi->name);
  const Type *values = ty_array(elem_of(a->ty), 1, 'C', false);
  if (!counts_wanted(n)) return values;
  return ty_tuple(2, (const Type *[]){values, ty_array(TYS(TY_I64), 1, 'C', false)});
}

/* the first count elements of the 1-d array src, in a new array */
LLVMValueRef np_first_elements(Lower *l, const Type *t, LLVMValueRef src, LLVMValueRef count) {
  LLVMValueRef out = lo_alloc_array(l, t, &count, -1);
  LLVMValueRef bytes = LLVMBuildMul(l->b, count, const_i64(l, ty_bits(t->elem) / 8), "");
  LLVMBuildMemCpy(l->b, LLVMBuildExtractValue(l->b, out, 2, ""), 1, LLVMBuildExtractValue(l->b, src, 2, ""), 1, bytes);
  return out;
}

static LLVMValueRef lo_unique(Lower *l, Node *n) {
  Node *a = n->list.items[0];
  const Type *e = elem_of(a->ty), *ft = ty_array(e, 1, 'C', false), *it = ty_array(TYS(TY_I64), 1, 'C', false);
  LLVMValueRef total, counts = NULL, values = np_sorted_elements(l, &a, 1, e, false, &total);
  if (counts_wanted(n)) {
    counts = lo_alloc_array(l, it, &total, -1);
    lo_temp_made(l, it, counts);
  }
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[4] = {LLVMBuildExtractValue(l->b, values, 2, ""), total, const_i32(l, (int)e->kind),
                          counts ? LLVMBuildExtractValue(l->b, counts, 2, "") : LLVMConstNull(l->mod->ptr)};
  LLVMValueRef m = lo_call_fn(l, "rt_unique", l->mod->i64, p, args, 4);
  LLVMValueRef r = np_first_elements(l, ft, values, m);
  lo_release_temp(l, ft, values);
  if (!counts) return r;
  lo_temp_made(l, ft, r);
  LLVMValueRef c = np_first_elements(l, it, counts, m);
  lo_temp_taken(l, r);
  lo_release_temp(l, it, counts);
  LLVMValueRef tuple = LLVMBuildInsertValue(l->b, LLVMGetUndef(lo_type(l, n->ty)), r, 0, "");
  return LLVMBuildInsertValue(l->b, tuple, c, 1, "");
}

/* ---------------------------------------------------------------- for the set functions */

LLVMValueRef np_joined_elements(Lower *l, Node *const *arrays, int n, const Type *elem, LLVMValueRef *count) {
  const Type *ft = ty_array(elem, 1, 'C', false);
  LLVMValueRef values[2], sizes[2], sum = const_i64(l, 0);
  for (int i = 0; i < n; i++) {
    const Type *t = arrays[i]->ty;
    values[i] = lo_expr(l, arrays[i]);
    sizes[i] = const_i64(l, 1);
    for (int d = 0; d < ndim_of(t); d++) sizes[i] = LLVMBuildMul(l->b, sizes[i], lo_arr_shape(l, values[i], d), "");
    sum = LLVMBuildAdd(l->b, sum, sizes[i], "");
  }
  LLVMValueRef out = lo_alloc_array(l, ft, &sum, -1), data = LLVMBuildExtractValue(l->b, out, 2, ""), at = const_i64(l, 0);
  lo_temp_made(l, ft, out);
  for (int i = 0; i < n; i++) {
    const Type *t = arrays[i]->ty;
    LLVMValueRef start = LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, elem), data, &at, 1, "");
    if (t->kind != TY_ARRAY) {
      lo_store_scalar(l, elem, start, lo_convert(l, values[i], t, elem));
    } else {
      LLVMValueRef shape[RC_MAX_NDIM], strides[RC_MAX_NDIM], step = const_i64(l, ty_bits(elem) / 8);
      for (int d = t->ndim - 1; d >= 0; d--) {
        shape[d] = lo_arr_shape(l, values[i], d);
        strides[d] = step;
        step = LLVMBuildMul(l->b, step, shape[d], "");
      }
      const Type *vt = ty_array(elem, t->ndim, 'C', false);
      lo_copy_elements(l, vt, np_view(l, vt, out, start, shape, strides), t, values[i]);
    }
    lo_done_with(l, arrays[i], values[i]);
    at = LLVMBuildAdd(l->b, at, sizes[i], "");
  }
  *count = sum;
  return out;
}

LLVMValueRef np_sorted_elements(Lower *l, Node *const *arrays, int n, const Type *elem, bool unique, LLVMValueRef *count) {
  LLVMValueRef sum, out = np_joined_elements(l, arrays, n, elem, &sum), data = LLVMBuildExtractValue(l->b, out, 2, "");
  sort_lanes(l, ty_array(elem, 1, 'C', false), out, const_i64(l, 0), NULL, false);
  *count = sum;
  if (unique) {
    LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->i32, l->mod->ptr};
    LLVMValueRef args[4] = {data, sum, const_i32(l, (int)elem->kind), LLVMConstNull(l->mod->ptr)};
    *count = lo_call_fn(l, "rt_unique", l->mod->i64, p, args, 4);
  }
  return out;
}

/* ---------------------------------------------------------------- the rows */

static const char *const sort_kw[] = {"axis", "kind", NULL};
static const char *const partition_kw[] = {"kth", "axis", "kind", NULL};
static const char *const unique_kw[] = {"return_counts", NULL};

/* a.sort() allocates no array (its typer keeps it out of kernels) */
#define SORT_FLAGS(how) ((how == SORT_IN_PLACE ? 0 : BF_ALLOCATES) | BF_RAISES | BF_STRINGS | BF_NONE | BF_COMPLEX)
#define SORT_FUNCTION(name, how) {"numpy." name, "numpy", name, BK_FUNCTION, 0, 1, 3, sort_kw, SORT_FLAGS(how), how, 0, ty_sort, lo_sort}
#define SORT_METHOD(name, how) {"array." name, NULL, name, BK_METHOD, TY_ARRAY, 0, 2, sort_kw, SORT_FLAGS(how), how, 0, ty_sort, lo_sort}
#define PARTITION_FUNCTION(name, how) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, 1, 4, partition_kw, SORT_FLAGS(how), how | PARTITION, 0, ty_sort, lo_sort}
#define PARTITION_METHOD(name, how) \
  {"array." name, NULL, name, BK_METHOD, TY_ARRAY, 0, 3, partition_kw, SORT_FLAGS(how), how | PARTITION, 0, ty_sort, lo_sort}

const Builtin bi_sorting[] = {
  SORT_FUNCTION("sort", SORT_VALUES),
  SORT_FUNCTION("argsort", SORT_INDICES),
  SORT_METHOD("sort", SORT_IN_PLACE),
  SORT_METHOD("argsort", SORT_INDICES),
  PARTITION_FUNCTION("partition", SORT_VALUES),
  PARTITION_FUNCTION("argpartition", SORT_INDICES),
  PARTITION_METHOD("partition", SORT_IN_PLACE),
  PARTITION_METHOD("argpartition", SORT_INDICES),
  {"numpy.unique", "numpy", "unique", BK_FUNCTION, 0, 1, 1, unique_kw, BF_ALLOCATES | BF_RAISES | BF_COMPLEX, 0, 0, ty_unique, lo_unique},
  BI_END,
};

/* ---------------------------------------------------------------- at run time */

/* The keys: unsigned integers that order as NumPy orders the elements. A
 * float's sign bit flipped (its other bits too where negative); NaN the
 * largest, -0.0 the key of 0.0. */
static inline uint64_t key_u(uint64_t v) { return v; }
static inline uint64_t key_i8(int8_t v) { return (uint8_t)v ^ 0x80u; }
static inline uint64_t key_i16(int16_t v) { return (uint16_t)v ^ 0x8000u; }
static inline uint64_t key_i32(int32_t v) { return (uint32_t)v ^ 0x80000000u; }
static inline uint64_t key_i64(int64_t v) { return (uint64_t)v ^ 0x8000000000000000u; }

static inline uint64_t key_f32(float v) {
  if (v != v) return UINT32_MAX;
  v += 0.0f;
  uint32_t b;
  memcpy(&b, &v, sizeof b);
  return b >> 31 ? (uint32_t)~b : b | 0x80000000u;
}

static inline uint64_t key_f64(double v) {
  if (v != v) return UINT64_MAX;
  v += 0.0;
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b >> 63 ? ~b : b | 0x8000000000000000u;
}

/* argsort's elements: a key and the index it came from */
typedef struct Keyed {
  uint64_t key;
  int64_t index;
} Keyed;

static inline uint64_t key_keyed(Keyed k) { return k.key; }

enum { MERGE_RUN = 16 };

/* Stable sorts of n elements of type T by KEY (a key of width bits): an
 * insertion sort for runs, a top-down merge sort (tmp: n/2 elements),
 * and an LSD radix sort on 11 (8 for narrow keys) bits at a time (tmp: n
 * elements), which skips a digit all the keys share. */
#define STABLE_SORTS(name, T, width, KEY)                                                            \
  static void insertion_##name(T *v, int64_t n) {                                                    \
    for (int64_t i = 1; i < n; i++) {                                                                \
      T x = v[i];                                                                                    \
      uint64_t k = KEY(x);                                                                           \
      int64_t j = i;                                                                                 \
      for (; j > 0 && k < KEY(v[j - 1]); j--) v[j] = v[j - 1];                                       \
      v[j] = x;                                                                                      \
    }                                                                                                \
  }                                                                                                  \
  static void merge_##name(T *v, T *tmp, int64_t n) {                                                \
    if (n <= MERGE_RUN) {                                                                            \
      insertion_##name(v, n);                                                                        \
      return;                                                                                        \
    }                                                                                                \
    int64_t h = n / 2, i = 0, j = h, o = 0;                                                          \
    merge_##name(v, tmp, h);                                                                         \
    merge_##name(v + h, tmp, n - h);                                                                 \
    if (KEY(v[h - 1]) <= KEY(v[h])) return;                                                          \
    memcpy(tmp, v, (size_t)h * sizeof(T));                                                           \
    while (i < h && j < n) v[o++] = KEY(v[j]) < KEY(tmp[i]) ? v[j++] : tmp[i++];                     \
    while (i < h) v[o++] = tmp[i++];                                                                 \
  }                                                                                                  \
  static bool radix_##name(T *v, T *tmp, int64_t n) {                                                \
    enum { D = (width) > 16 ? 11 : 8, PASSES = ((width) + D - 1) / D, BUCKETS = 1 << D };            \
    int64_t (*count)[BUCKETS] = calloc(PASSES, sizeof *count);                                       \
    if (!count) return false;                                                                        \
    for (int64_t i = 0; i < n; i++) {                                                                \
      uint64_t k = KEY(v[i]);                                                                        \
      for (int p = 0; p < PASSES; p++) count[p][(k >> (p * D)) & (BUCKETS - 1)]++;                   \
    }                                                                                                \
    T *src = v, *dst = tmp;                                                                          \
    for (int p = 0; p < PASSES; p++) {                                                               \
      int64_t *c = count[p], at = 0;                                                                 \
      if (c[(KEY(src[0]) >> (p * D)) & (BUCKETS - 1)] == n) continue;                                \
      for (int b = 0; b < BUCKETS; b++) {                                                            \
        int64_t m = c[b];                                                                            \
        c[b] = at;                                                                                   \
        at += m;                                                                                     \
      }                                                                                              \
      for (int64_t i = 0; i < n; i++) dst[c[(KEY(src[i]) >> (p * D)) & (BUCKETS - 1)]++] = src[i];  \
      T *s = src;                                                                                    \
      src = dst;                                                                                     \
      dst = s;                                                                                       \
    }                                                                                                \
    if (src != v) memcpy(v, src, (size_t)n * sizeof(T));                                             \
    free(count);                                                                                     \
    return true;                                                                                     \
  }                                                                                                  \
  static bool sort_##name(T *v, T *tmp, int64_t n) {                                                 \
    if (n < 1024) {                                                                                  \
      merge_##name(v, tmp, n);                                                                       \
      return true;                                                                                   \
    }                                                                                                \
    return radix_##name(v, tmp, n);                                                                  \
  }

/* One element type: its sorts, and a lane of it sorted in place (through
 * buf where strided). */
#define ELEMENT(name, T, KEY)                                                                        \
  STABLE_SORTS(name, T, 8 * sizeof(T), KEY)                                                          \
  static bool lane_##name(char *p, int64_t stride, int64_t n, void *buf, void *tmp) {                \
    T *v = stride == (int64_t)sizeof(T) ? (T *)p : buf;                                              \
    if (v == buf)                                                                                    \
      for (int64_t i = 0; i < n; i++) memcpy(&v[i], p + i * stride, sizeof(T));                      \
    bool ok = sort_##name(v, tmp, n);                                                                \
    if (v == buf)                                                                                    \
      for (int64_t i = 0; i < n; i++) memcpy(p + i * stride, &v[i], sizeof(T));                      \
    return ok;                                                                                       \
  }

/* argsort's elements: a lane's keys with their indices (of 8 bytes, or a
 * lane too long to pack) */
#define KEYED(name, T, KEY)                                                                          \
  static void keys_##name(const char *p, int64_t stride, int64_t n, Keyed *out) {                   \
    for (int64_t i = 0; i < n; i++) {                                                                \
      T x;                                                                                           \
      memcpy(&x, p + i * stride, sizeof x);                                                          \
      out[i] = (Keyed){KEY(x), i};                                                                   \
    }                                                                                                \
  }

/* argsort's elements of 4 bytes or fewer (lanes shorter than 2^32): each
 * key above its index in one 8-byte word */
#define PACKED(name, T, KEY)                                                                         \
  static void packed_##name(const char *p, int64_t stride, int64_t n, uint64_t *out) {               \
    for (int64_t i = 0; i < n; i++) {                                                                \
      T x;                                                                                           \
      memcpy(&x, p + i * stride, sizeof x);                                                          \
      out[i] = KEY(x) << 32 | (uint64_t)i;                                                           \
    }                                                                                                \
  }

static inline uint64_t key_word(uint64_t w) { return w >> 32; }

ELEMENT(i8, int8_t, key_i8)
ELEMENT(i16, int16_t, key_i16)
ELEMENT(i32, int32_t, key_i32)
ELEMENT(i64, int64_t, key_i64)
ELEMENT(u8, uint8_t, key_u)
ELEMENT(u16, uint16_t, key_u)
ELEMENT(u32, uint32_t, key_u)
ELEMENT(u64, uint64_t, key_u)
ELEMENT(f32, float, key_f32)
ELEMENT(f64, double, key_f64)
KEYED(i8, int8_t, key_i8)
KEYED(i16, int16_t, key_i16)
KEYED(i32, int32_t, key_i32)
KEYED(i64, int64_t, key_i64)
KEYED(u8, uint8_t, key_u)
KEYED(u16, uint16_t, key_u)
KEYED(u32, uint32_t, key_u)
KEYED(u64, uint64_t, key_u)
KEYED(f32, float, key_f32)
KEYED(f64, double, key_f64)
PACKED(i8, int8_t, key_i8)
PACKED(i16, int16_t, key_i16)
PACKED(i32, int32_t, key_i32)
PACKED(u8, uint8_t, key_u)
PACKED(u16, uint16_t, key_u)
PACKED(u32, uint32_t, key_u)
PACKED(f32, float, key_f32)
STABLE_SORTS(keyed64, Keyed, 64, key_keyed)
STABLE_SORTS(words8, uint64_t, 8, key_word)
STABLE_SORTS(words16, uint64_t, 16, key_word)
STABLE_SORTS(words32, uint64_t, 32, key_word)

/* What the run-time sorts know of a dtype: its lanes sorted; argsort's
 * keys and indices (keyed, sorted by sort_keyed64; of 4 bytes or fewer
 * packed into words, sorted by sort_words). */
typedef struct SortType {
  int64_t size;
  bool (*lane)(char *p, int64_t stride, int64_t n, void *buf, void *tmp);
  void (*keys)(const char *p, int64_t stride, int64_t n, Keyed *out);
  void (*packed)(const char *p, int64_t stride, int64_t n, uint64_t *out);
  bool (*sort_words)(uint64_t *v, uint64_t *tmp, int64_t n);
} SortType;

static SortType sort_type(int32_t kind) {
  switch (kind) {
  case TY_I8: return (SortType){1, lane_i8, keys_i8, packed_i8, sort_words8};
  case TY_I16: return (SortType){2, lane_i16, keys_i16, packed_i16, sort_words16};
  case TY_I32: return (SortType){4, lane_i32, keys_i32, packed_i32, sort_words32};
  case TY_I64: return (SortType){8, lane_i64, keys_i64, NULL, NULL};
  case TY_BOOL: case TY_U8: return (SortType){1, lane_u8, keys_u8, packed_u8, sort_words8};
  case TY_U16: return (SortType){2, lane_u16, keys_u16, packed_u16, sort_words16};
  case TY_U32: return (SortType){4, lane_u32, keys_u32, packed_u32, sort_words32};
  case TY_U64: return (SortType){8, lane_u64, keys_u64, NULL, NULL};
  case TY_F32: return (SortType){4, lane_f32, keys_f32, packed_f32, sort_words32};
  default: return (SortType){8, lane_f64, keys_f64, NULL, NULL};
  }
}

/* numpy.sort's 8-byte elements sorted in vector registers (where the
 * processor has AVX-512, sort_simd.c), NaNs written back as NumPy's sort
 * writes them, one quiet NaN, and -0.0 before 0.0: an order NumPy's
 * unstable kinds may give, and a stable kind's where no NaN and no -0.0
 * tell equal elements apart. False where this sort does not apply. */
enum { SIMD_SORT_MIN = 16 };

static bool has_nan_or_negative_zero(const char *p, int64_t stride, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint64_t b;
    memcpy(&b, p + i * stride, sizeof b);
    if ((b & 0x7FFFFFFFFFFFFFFFu) > 0x7FF0000000000000u || b == 0x8000000000000000u) return true;
  }
  return false;
}

static int32_t simd_kind(int32_t kind) { return kind == TY_F64 ? SIMD_FLOAT : kind == TY_I64 ? SIMD_SIGNED : SIMD_UNSIGNED; }

static bool simd_lane64(char *p, int64_t stride, int64_t n, uint64_t *buf, int32_t kind, bool stable) {
  int32_t simd = simd_kind(kind);
  if (!rt_simd_sort_ready() || (simd == SIMD_FLOAT && stable && has_nan_or_negative_zero(p, stride, n))) return false;
  uint64_t *v = stride == 8 ? (uint64_t *)p : buf;
  if (v == buf)
    for (int64_t i = 0; i < n; i++) memcpy(&v[i], p + i * stride, 8);
  rt_simd_sort64(v, n, simd);
  if (v == buf)
    for (int64_t i = 0; i < n; i++) memcpy(p + i * stride, &v[i], 8);
  return true;
}

/* argsort's unstable kinds of 8-byte elements: the keys and indices
 * sorted together in vector registers (buf holds 2 * n of each), the
 * indices straight into a contiguous out */
static bool simd_applies(int32_t kind, int64_t n) {
  return (kind == TY_F64 || kind == TY_I64 || kind == TY_U64) && n > SIMD_SORT_MIN && rt_simd_sort_ready();
}

static void argsort_simd_lane(const char *p, int64_t stride, int64_t n, int32_t kind, void *buf, int64_t *out,
                              int64_t out_stride) {
  uint64_t *keys = buf;
  int64_t *indices = out_stride == 1 ? out : (int64_t *)buf + n;
  rt_simd_argsort64(p, stride, n, simd_kind(kind), keys, indices);
  if (indices != out)
    for (int64_t j = 0; j < n; j++) out[j * out_stride] = indices[j];
}

/* argsort of packed words (elements of 4 bytes or fewer, a lane shorter
 * than 2^32), every kind: ties ordered by index, NumPy's stable order.
 * Words of 4-byte keys sorted in vector registers where the processor
 * has them, the others by their stable sorts (tmp: n words). */
static bool packs(SortType st, int64_t n) { return st.packed && n <= (int64_t)UINT32_MAX; }

static bool argsort_packed_lane(const char *p, int64_t stride, int64_t n, SortType st, uint64_t *words, int64_t *out,
                                int64_t out_stride) {
  st.packed(p, stride, n, words);
  bool ok = true;
  if (st.size == 4 && n > SIMD_SORT_MIN && rt_simd_sort_ready()) rt_simd_sort64(words, n, SIMD_UNSIGNED);
  else ok = st.sort_words(words, words + n, n);
  for (int64_t j = 0; ok && j < n; j++) out[j * out_stride] = (int64_t)(words[j] & UINT32_MAX);
  return ok;
}

/* The lanes along axis of an array: how many, how long, their step, and
 * the byte offset of lane i (the other indices counted in C order). */
typedef struct Lanes {
  int64_t count, len, stride;
  const int64_t *shape, *strides;
  int ndim, axis;
} Lanes;

static Lanes lanes_of(const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t axis) {
  Lanes ls = {1, shape[axis], strides[axis], shape, strides, ndim, (int)axis};
  for (int d = 0; d < ndim; d++)
    if (d != axis) ls.count *= shape[d];
  return ls;
}

static int64_t lane_offset(const Lanes *ls, int64_t i, const int64_t *strides) {
  int64_t offset = 0;
  for (int d = ls->ndim - 1; d >= 0; d--) {
    if (d == ls->axis) continue;
    offset += i % ls->shape[d] * strides[d];
    i /= ls->shape[d];
  }
  return offset;
}

int32_t rt_sort(void *data, const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t axis, int32_t kind) {
  bool stable = kind & RT_SORT_STABLE;
  kind &= ~RT_SORT_STABLE;
  Lanes ls = lanes_of(shape, strides, ndim, axis);
  if (ls.count == 0 || ls.len < 2) return 0;
  if (kind == TY_C64 || kind == TY_C128) {
    bool ok = true;
    for (int64_t i = 0; ok && i < ls.count; i++)
      ok = rt_sort_complex_lane((char *)data + lane_offset(&ls, i, strides), ls.stride, ls.len, kind);
    return ok ? 0 : RT_ERR_MEMORY;
  }
  SortType st = sort_type(kind);
  bool wide = (kind == TY_F64 || kind == TY_I64 || kind == TY_U64) && ls.len > SIMD_SORT_MIN;
  char *buf = malloc((size_t)(2 * ls.len * st.size));
  bool ok = buf != NULL;
  for (int64_t i = 0; ok && i < ls.count; i++) {
    char *p = (char *)data + lane_offset(&ls, i, strides);
    if (!wide || !simd_lane64(p, ls.stride, ls.len, (uint64_t *)buf, kind, stable))
      ok = st.lane(p, ls.stride, ls.len, buf, buf + ls.len * st.size);
  }
  free(buf);
  return ok ? 0 : RT_ERR_MEMORY;
}

int32_t rt_argsort(const void *data, const int64_t *shape, const int64_t *strides, int32_t ndim, int64_t axis, int32_t kind,
                   int64_t *out) {
  bool stable = kind & RT_SORT_STABLE;
  kind &= ~RT_SORT_STABLE;
  SortType st = sort_type(kind);
  Lanes ls = lanes_of(shape, strides, ndim, axis);
  if (ls.count == 0 || ls.len == 0) return 0;
  int64_t out_strides[RC_MAX_NDIM], step = 1;
  for (int d = ndim - 1; d >= 0; d--) {
    out_strides[d] = step;
    step *= shape[d];
  }
  if (kind == TY_C64 || kind == TY_C128) {
    bool ok = true;
    for (int64_t i = 0; ok && i < ls.count; i++)
      ok = rt_argsort_complex_lane((const char *)data + lane_offset(&ls, i, strides), ls.stride, ls.len, kind,
                                   out + lane_offset(&ls, i, out_strides), out_strides[axis]);
    return ok ? 0 : RT_ERR_MEMORY;
  }
  Keyed *keyed = malloc((size_t)(2 * ls.len) * sizeof(Keyed));
  bool ok = keyed != NULL;
  bool simd = !stable && simd_applies(kind, ls.len), packed = packs(st, ls.len);
  for (int64_t i = 0; ok && i < ls.count; i++) {
    const char *p = (const char *)data + lane_offset(&ls, i, strides);
    int64_t *o = out + lane_offset(&ls, i, out_strides);
    if (packed) {
      ok = argsort_packed_lane(p, ls.stride, ls.len, st, (uint64_t *)keyed, o, out_strides[axis]);
      continue;
    }
    if (simd) {
      argsort_simd_lane(p, ls.stride, ls.len, kind, keyed, o, out_strides[axis]);
      continue;
    }
    st.keys(p, ls.stride, ls.len, keyed);
    ok = sort_keyed64(keyed, keyed + ls.len, ls.len);
    for (int64_t j = 0; ok && j < ls.len; j++) o[j * out_strides[axis]] = keyed[j].index;
  }
  free(keyed);
  return ok ? 0 : RT_ERR_MEMORY;
}

/* Equal runs of the n sorted elements at data (by key: NaNs equal, -0.0
 * and 0.0 equal) kept once, their first, in place; their lengths in
 * counts (where not NULL). Returns how many. */
#define UNIQUE(name, T, KEY)                                                 \
  static int64_t unique_##name(T *v, int64_t n, int64_t *counts) {           \
    int64_t m = 0;                                                           \
    for (int64_t i = 0; i < n; m++) {                                        \
      int64_t j = i + 1;                                                     \
      while (j < n && KEY(v[j]) == KEY(v[i])) j++;                           \
      v[m] = v[i];                                                           \
      if (counts) counts[m] = j - i;                                         \
      i = j;                                                                 \
    }                                                                        \
    return m;                                                                \
  }

UNIQUE(i8, int8_t, key_i8)
UNIQUE(i16, int16_t, key_i16)
UNIQUE(i32, int32_t, key_i32)
UNIQUE(i64, int64_t, key_i64)
UNIQUE(u8, uint8_t, key_u)
UNIQUE(u16, uint16_t, key_u)
UNIQUE(u32, uint32_t, key_u)
UNIQUE(u64, uint64_t, key_u)
UNIQUE(f32, float, key_f32)
UNIQUE(f64, double, key_f64)

int64_t rt_unique(void *data, int64_t n, int32_t kind, int64_t *counts) {
  switch (kind) {
  case TY_I8: return unique_i8(data, n, counts);
  case TY_I16: return unique_i16(data, n, counts);
  case TY_I32: return unique_i32(data, n, counts);
  case TY_I64: return unique_i64(data, n, counts);
  case TY_BOOL: case TY_U8: return unique_u8(data, n, counts);
  case TY_U16: return unique_u16(data, n, counts);
  case TY_U32: return unique_u32(data, n, counts);
  case TY_U64: return unique_u64(data, n, counts);
  case TY_F32: return unique_f32(data, n, counts);
  case TY_C64: case TY_C128: return rt_unique_complex(data, n, kind, counts);
  default: return unique_f64(data, n, counts);
  }
}
