/* builtins/sorting.c — NumPy's sorting in compiled code: numpy.sort,
 * numpy.argsort, numpy.partition and numpy.argpartition (functions and
 * array methods, a.sort() and a.partition() in place), along an axis or
 * over the flattened array (axis=None); numpy.lexsort. A partition is a sort: sorted
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
 * narrower ones by the radix sort. Complex lanes sort in sort_complex.c,
 * lanes of str or bytes items in sort_text.c.
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
  bool ints = ty_is_int(t) || (t->kind == TY_ARRAY && ty_is_int(t->elem));  /* (2-d or more: NumPy's run-time error) */
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++) ints = ty_is_int(t->fields[i]);
  if (t->kind == TY_TUPLE && !t->nfields) ints = true;
  if (!ints)
    return ty_error(in, kth, "%s(): kth must be an integer or a sequence of integers (a tuple, a 1-d array), got %s",
                    n->bi->name, t->name) != NULL;
  return true;
}

/* numpy.sort(a, axis=-1, kind=None), numpy.argsort(...), a.sort(axis=-1,
 * kind=None), a.argsort(...), and the same of partition(a, kth, ...): an
 * array of a's dtype (sort; a Fortran one of a Fortran array, as NumPy's
 * copy), of int64 indices (argsort, C order as NumPy's), or None (a.sort()). */
static const Type *ty_sort(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *axis = axis_arg(n);
  const Type *t = a->ty;
  int how = how_of(n);
  if (t->kind != TY_ARRAY) return ty_error(in, a, "%s() needs an array, got %s", n->bi->name, t->name);
  if (is_none(axis) && how == SORT_IN_PLACE)
    return ty_error(in, axis, "%s(): axis must be an integer, got None", n->bi->name);
  if (!is_none(axis)) {
    if (axis && !bi_check_axis_late(in, n, axis, t->ndim)) return NULL;  /* (its value read when the call runs) */
    if (!axis && t->ndim == 0) return ty_error(in, a, "%s(): axis -1 is out of bounds for array of dimension 0", n->bi->name);
  }
  if (!check_kind(in, n, kind_arg(n)) || !check_kth(in, n)) return NULL;
  if (ty_is_fixed_text(t->elem) && partitions(n))  /* (Numba's neither) */
    return ty_error(in, a, "%s() of arrays of str or bytes is not supported in compiled code: sort them", n->bi->name);
  if (how == SORT_IN_PLACE) {
    if (ty_no_allocation(in)) return ty_error(in, n, "kernels cannot sort arrays: %s() needs memory of the host's", n->bi->name);
    return t->readonly ? ty_error(in, a, "%s(): the array is read-only", n->bi->name) : TYS(TY_NONE);
  }
  if (how == SORT_VALUES && !is_none(axis))  /* a sorted copy, in a's order as NumPy's */
    return ty_array(t->elem, t->ndim, np_like_layout(t), false);
  return ty_array(how == SORT_INDICES ? TYS(TY_I64) : t->elem, is_none(axis) ? 1 : t->ndim, 'C', false);
}

/* ---------------------------------------------------------------- lowering */

/* An axis given at run time (the last when absent), normalised into [0, ndim), or NumPy's AxisError. */
static LLVMValueRef axis_value(Lower *l, Node *axis, int ndim) {
  return axis ? np_axis_value(l, lo_expr_as(l, axis, TYS(TY_I64)), ndim) : const_i64(l, ndim - 1);
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
  if (ty_is_fixed_text(t->elem)) {  /* str or bytes items: their size too (sort_text.c) */
    LLVMTypeRef tp[8] = {ptr, ptr, ptr, i32, i64, i32, i64, ptr};
    LLVMValueRef targs[8] = {LLVMBuildExtractValue(l->b, a, 2, ""), dims_in_memory(l, shape, t->ndim, "sort.shape"),
                             dims_in_memory(l, strides, t->ndim, "sort.strides"), const_i32(l, t->ndim), axis,
                             const_i32(l, (int)t->elem->kind), const_i64(l, (int64_t)t->elem->size), out};
    LLVMValueRef status = lo_call_fn(l, out ? "rt_argsort_text" : "rt_sort_text", i32, tp, targs, out ? 8 : 7);
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, 0), ""), RT_ERR_MEMORY, "out of memory while sorting");
    return;
  }
  LLVMTypeRef p[7] = {ptr, ptr, ptr, i32, i64, i32, ptr};
  LLVMValueRef args[7] = {LLVMBuildExtractValue(l->b, a, 2, ""), dims_in_memory(l, shape, t->ndim, "sort.shape"),
                          dims_in_memory(l, strides, t->ndim, "sort.strides"), const_i32(l, t->ndim), axis,
                          const_i32(l, (int)t->elem->kind | (stable ? RT_SORT_STABLE : 0)), out};
  LLVMValueRef status = lo_call_fn(l, out ? "rt_argsort" : "rt_sort", i32, p, args, out ? 7 : 6);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, 0), ""), RT_ERR_MEMORY, "out of memory while sorting");
}

/* NumPy's ValueError unless -len <= kth < len (kth is the partition's
 * argument 1, len the length of a's lanes along axis), but for an empty
 * array, which NumPy gives back whatever kth is */
static void check_one_kth(Lower *l, LLVMValueRef kth, LLVMValueRef len, LLVMValueRef empty) {
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, kth, const_i64(l, 0), "");
  LLVMValueRef k = LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, kth, len, ""), kth, "");
  LLVMValueRef bad = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, k, const_i64(l, 0), ""),
                                 LLVMBuildICmp(l->b, LLVMIntSGE, k, len, ""), "");
  bad = LLVMBuildAnd(l->b, bad, LLVMBuildNot(l->b, empty, ""), "");
  lo_raise_format_if(l, bad, RT_ERR_VALUE, "kth(=%lld) out of bounds (%lld)", (LLVMValueRef[]){k, len}, 2);
}

/* The same for each kth of a sequence (every lane is sorted whole, which
 * partitions it for all of them). */
static void check_kth_at_run_time(Lower *l, Node *n, LLVMValueRef len, LLVMValueRef empty) {
  if (!partitions(n)) return;
  Node *kth = bi_arg(n, 1, "kth");
  const Type *t = kth->ty;
  LLVMValueRef v = lo_expr(l, kth);
  if (ty_is_int(t)) check_one_kth(l, lo_convert(l, v, t, TYS(TY_I64)), len, empty);
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    check_one_kth(l, lo_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->fields[i], TYS(TY_I64)), len, empty);
  if (t->kind == TY_ARRAY && t->ndim > 1)  /* NumPy's ValueError, whatever a holds */
    lo_raise_if(l, const_bool(l, true), RT_ERR_VALUE, "object too deep for desired array");
  else if (t->kind == TY_ARRAY) {
    LoLoop each = lo_loop_begin(l, const_i64(l, 0), t->ndim ? lo_arr_shape(l, v, 0) : const_i64(l, 1), NULL, "kth");
    LLVMValueRef at = lo_element_addr(l, t, v, &each.index);
    check_one_kth(l, lo_convert(l, lo_load_scalar(l, t->elem, at), t->elem, TYS(TY_I64)), len, empty);
    lo_loop_end(l, &each);
  }
  lo_done_with(l, kth, v);
}

/* whether a (of type t) has no elements */
static LLVMValueRef is_empty(Lower *l, const Type *t, LLVMValueRef a) {
  LLVMValueRef empty = const_bool(l, false);
  for (int d = 0; d < t->ndim; d++)
    empty = LLVMBuildOr(l->b, empty, LLVMBuildICmp(l->b, LLVMIntEQ, lo_arr_shape(l, a, d), const_i64(l, 0), ""), "");
  return empty;
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
  check_kth_at_run_time(l, n, count, LLVMBuildICmp(l->b, LLVMIntEQ, count, const_i64(l, 0), ""));
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
    check_kth_at_run_time(l, n, lane_length(l, t, v, k), is_empty(l, t, v));
    sort_lanes(l, t, v, k, NULL, stable_kind(n));
    r = LLVMGetUndef(l->mod->i8);
  } else if (how_of(n) == SORT_VALUES) {
    r = lo_copy_array(l, n->ty, t, v);
    lo_temp_made(l, n->ty, r);
    check_kth_at_run_time(l, n, lane_length(l, n->ty, r, k), is_empty(l, n->ty, r));
    sort_lanes(l, n->ty, r, k, NULL, stable_kind(n));
    lo_temp_taken(l, r);
  } else {
    LLVMValueRef shape[RC_MAX_NDIM];
    for (int d = 0; d < t->ndim; d++) shape[d] = lo_arr_shape(l, v, d);
    check_kth_at_run_time(l, n, lane_length(l, t, v, k), is_empty(l, t, v));
    r = lo_alloc_array(l, n->ty, shape, -1);
    lo_temp_made(l, n->ty, r);
    sort_lanes(l, t, v, k, LLVMBuildExtractValue(l->b, r, 2, ""), stable_kind(n));
    lo_temp_taken(l, r);
  }
  lo_done_with(l, a, v);
  return r;
}

/* ---------------------------------------------------------------- unique */

/* numpy.unique's optional results, in the order it returns them after
 * the values: each a constant flag at this position or keyword */
enum { UNIQUE_INDEX, UNIQUE_INVERSE, UNIQUE_COUNTS, UNIQUE_EXTRAS };
static const char *const unique_kw[] = {"return_index", "return_inverse", "return_counts", NULL};

static bool unique_wants(Node *n, int extra) {
  Node *f = bi_arg(n, 1 + extra, unique_kw[extra]);
  return f && f->ival;
}

/* numpy.unique(a, return_index=False, return_inverse=False,
 * return_counts=False): the sorted distinct elements of the flattened a
 * (NaN once, as NumPy 2's equal_nan), and as asked the position of each
 * one's first occurrence, the distinct element's index of every element
 * of a (in a's shape, as NumPy 2), and how often each occurs. */
static const Type *ty_unique(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0];
  if (!bi_need_values(in, n, a)) return NULL;
  const Type *out[1 + UNIQUE_EXTRAS], *positions = ty_array(TYS(TY_I64), 1, 'C', false);
  int m = 0;
  out[m++] = ty_array(elem_of(a->ty), 1, 'C', false);
  for (int x = 0; x < UNIQUE_EXTRAS; x++) {
    Node *f = bi_arg(n, 1 + x, unique_kw[x]);
    if (f && f->kind != N_BOOL)
      return ty_error(in, f, "%s(): %s must be a constant True or False in compiled code", n->bi->name, unique_kw[x]);
    if (unique_wants(n, x))
      out[m++] = x == UNIQUE_INVERSE ? ty_array(TYS(TY_I64), ndim_of(a->ty), 'C', false) : positions;
  }
  return m == 1 ? out[0] : ty_tuple(m, out);
}

/* the first count elements of the 1-d array src, in a new array */
LLVMValueRef np_first_elements(Lower *l, const Type *t, LLVMValueRef src, LLVMValueRef count) {
  LLVMValueRef out = lo_alloc_array(l, t, &count, -1);
  LLVMValueRef bytes = LLVMBuildMul(l->b, count, const_i64(l, ty_bits(t->elem) / 8), "");
  LLVMBuildMemCpy(l->b, LLVMBuildExtractValue(l->b, out, 2, ""), 1, LLVMBuildExtractValue(l->b, src, 2, ""), 1, bytes);
  return out;
}

/* the runs of equal elements of the sorted 1-d values kept once at its
 * start, in place; their lengths in counts' data where counts is not NULL */
static LLVMValueRef unique_in_place(Lower *l, const Type *e, LLVMValueRef values, LLVMValueRef total, LLVMValueRef counts) {
  LLVMValueRef counts_data = counts ? LLVMBuildExtractValue(l->b, counts, 2, "") : LLVMConstNull(l->mod->ptr);
  if (ty_is_fixed_text(e)) {  /* str or bytes items: their size too (sort_text.c) */
    LLVMTypeRef p[5] = {l->mod->ptr, l->mod->i64, l->mod->i32, l->mod->i64, l->mod->ptr};
    LLVMValueRef args[5] = {LLVMBuildExtractValue(l->b, values, 2, ""), total, const_i32(l, (int)e->kind),
                            const_i64(l, (int64_t)e->size), counts_data};
    return lo_call_fn(l, "rt_unique_text", l->mod->i64, p, args, 5);
  }
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[4] = {LLVMBuildExtractValue(l->b, values, 2, ""), total, const_i32(l, (int)e->kind), counts_data};
  return lo_call_fn(l, "rt_unique", l->mod->i64, p, args, 4);
}

/* a's elements in C order in a new 1-d array (*total of them), and a's
 * shape (for the inverse), its ndim_of lengths */
static LLVMValueRef flat_elements(Lower *l, Node *a, const Type *e, LLVMValueRef *total, LLVMValueRef *shape) {
  const Type *t = a->ty;
  if (t->kind != TY_ARRAY) return np_joined_elements(l, &a, 1, e, total);
  LLVMValueRef v = lo_expr(l, a), step = const_i64(l, (int64_t)e->size);
  const Type *ct = ty_array(e, t->ndim, 'C', false), *ft = ty_array(e, 1, 'C', false);
  LLVMValueRef copy = lo_copy_array(l, ct, t, v);
  *total = const_i64(l, 1);
  for (int d = 0; d < t->ndim; d++) *total = LLVMBuildMul(l->b, *total, shape[d] = lo_arr_shape(l, v, d), "");
  lo_done_with(l, a, v);
  lo_temp_made(l, ct, copy);
  LLVMValueRef flat = np_owned_view(l, ft, copy, LLVMBuildExtractValue(l->b, copy, 2, ""), total, &step);
  lo_release_temp(l, ct, copy);
  lo_temp_made(l, ft, flat);
  return flat;
}

/* values, index and inverse of unique with return_index or return_inverse:
 * the elements sorted stably by their positions (so each run starts at its
 * first occurrence), their runs kept once; out[] gets the results asked */
static void unique_with_positions(Lower *l, Node *n, LLVMValueRef *out) {
  Node *a = n->list.items[0];
  const Type *e = elem_of(a->ty), *ft = ty_array(e, 1, 'C', false), *it = ty_array(TYS(TY_I64), 1, 'C', false);
  LLVMValueRef total, shape[RC_MAX_NDIM], flat = flat_elements(l, a, e, &total, shape);
  LLVMValueRef order = lo_alloc_array(l, it, &total, -1);
  lo_temp_made(l, it, order);
  np_argsort_flat(l, ft, flat, order);
  LLVMValueRef values = lo_alloc_array(l, ft, &total, -1), counts = lo_alloc_array(l, it, &total, -1);
  lo_temp_made(l, ft, values);
  lo_temp_made(l, it, counts);
  LLVMTypeRef pg[5] = {l->mod->ptr, l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i64};
  LLVMValueRef gather[5] = {LLVMBuildExtractValue(l->b, values, 2, ""), LLVMBuildExtractValue(l->b, flat, 2, ""),
                            LLVMBuildExtractValue(l->b, order, 2, ""), total, const_i64(l, (int64_t)e->size)};
  lo_call_fn(l, "rt_gather", void_type(l), pg, gather, 5);
  lo_release_temp(l, ft, flat);
  LLVMValueRef m = unique_in_place(l, e, values, total, counts), index = NULL, inverse = NULL;
  if (unique_wants(n, UNIQUE_INDEX)) {
    index = lo_alloc_array(l, it, &m, -1);
    lo_temp_made(l, it, index);
  }
  if (unique_wants(n, UNIQUE_INVERSE)) {
    int ndim = ndim_of(a->ty);
    inverse = lo_alloc_array(l, ty_array(TYS(TY_I64), ndim, 'C', false), ndim ? shape : NULL, -1);
    lo_temp_made(l, ty_array(TYS(TY_I64), ndim, 'C', false), inverse);
  }
  LLVMTypeRef pp[5] = {l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->ptr, l->mod->ptr};
  LLVMValueRef null = LLVMConstNull(l->mod->ptr);
  LLVMValueRef pos[5] = {LLVMBuildExtractValue(l->b, order, 2, ""), LLVMBuildExtractValue(l->b, counts, 2, ""), m,
                         index ? LLVMBuildExtractValue(l->b, index, 2, "") : null,
                         inverse ? LLVMBuildExtractValue(l->b, inverse, 2, "") : null};
  lo_call_fn(l, "rt_unique_positions", void_type(l), pp, pos, 5);
  lo_release_temp(l, it, order);
  out[0] = np_first_elements(l, ft, values, m);
  lo_release_temp(l, ft, values);
  out[1 + UNIQUE_INDEX] = index;
  out[1 + UNIQUE_INVERSE] = inverse;
  out[1 + UNIQUE_COUNTS] = NULL;
  if (unique_wants(n, UNIQUE_COUNTS)) {
    lo_temp_made(l, ft, out[0]);
    out[1 + UNIQUE_COUNTS] = np_first_elements(l, it, counts, m);
    lo_temp_taken(l, out[0]);
  }
  lo_release_temp(l, it, counts);
  if (index) lo_temp_taken(l, index);
  if (inverse) lo_temp_taken(l, inverse);
}

/* values and counts of unique without positions: the elements sorted and
 * their runs kept once */
static void unique_values(Lower *l, Node *n, LLVMValueRef *out) {
  Node *a = n->list.items[0];
  const Type *e = elem_of(a->ty), *ft = ty_array(e, 1, 'C', false), *it = ty_array(TYS(TY_I64), 1, 'C', false);
  LLVMValueRef total, counts = NULL, values = np_sorted_elements(l, &a, 1, e, false, &total);
  if (unique_wants(n, UNIQUE_COUNTS)) {
    counts = lo_alloc_array(l, it, &total, -1);
    lo_temp_made(l, it, counts);
  }
  LLVMValueRef m = unique_in_place(l, e, values, total, counts);
  out[0] = np_first_elements(l, ft, values, m);
  lo_release_temp(l, ft, values);
  out[1 + UNIQUE_INDEX] = out[1 + UNIQUE_INVERSE] = out[1 + UNIQUE_COUNTS] = NULL;
  if (!counts) return;
  lo_temp_made(l, ft, out[0]);
  out[1 + UNIQUE_COUNTS] = np_first_elements(l, it, counts, m);
  lo_temp_taken(l, out[0]);
  lo_release_temp(l, it, counts);
}

static LLVMValueRef lo_unique(Lower *l, Node *n) {
  LLVMValueRef out[1 + UNIQUE_EXTRAS];
  if (unique_wants(n, UNIQUE_INDEX) || unique_wants(n, UNIQUE_INVERSE))
    unique_with_positions(l, n, out);
  else
    unique_values(l, n, out);
  if (n->ty->kind != TY_TUPLE) return out[0];
  LLVMValueRef tuple = LLVMGetUndef(lo_type(l, n->ty));
  for (int i = 0, k = 0; i < 1 + UNIQUE_EXTRAS; i++)
    if (out[i]) tuple = LLVMBuildInsertValue(l->b, tuple, out[i], (unsigned)k++, "");
  return tuple;
}

/* ---------------------------------------------------------------- lexsort */

static bool lexsort_dtype(const Type *e) {
  return ty_is_int(e) || ty_is_float(e) || ty_is_complex(e) || e->kind == TY_BOOL || ty_is_fixed_text(e);
}

/* numpy.lexsort(keys, axis=-1): the indices that sort along axis by the
 * last key, ties by the key before it and so on, stably, as NumPy's
 * (floats' NaNs last, complex numbers in NumPy's order, str and bytes by
 * code point): int64 of the keys' shape. keys: a tuple (or a
 * literal list) of arrays of one shape, or an array of 2 or more axes
 * whose first axis holds the keys. */
static const Type *ty_lexsort(Infer *in, Node *n, const Type **args) {
  Node *keys = n->list.items[0], *axis = bi_arg(n, 1, "axis");
  const Type *t = keys->ty;
  int ndim = -1;
  if (t->kind == TY_TUPLE && !t->nfields) return ty_error(in, keys, "need sequence of keys with len > 0 in lexsort");
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++) {
    const Type *f = t->fields[i];
    if (f->kind != TY_ARRAY || !f->ndim || !lexsort_dtype(f->elem))
      return ty_error(in, keys, "%s(): each key must be an array of bools, numbers, str or bytes in compiled code, got %s",
                      n->bi->name, f->name);
    if (i && f->ndim != ndim) return ty_error(in, keys, "all keys need to be the same shape");
    ndim = f->ndim;
  }
  if (t->kind == TY_ARRAY && t->ndim >= 2 && lexsort_dtype(t->elem)) ndim = t->ndim - 1;
  if (ndim < 0)
    return ty_error(in, keys, "%s() takes a tuple of key arrays, or a 2-d (or more) array of bools, numbers, str or "
                    "bytes whose rows are the keys, in compiled code; got %s", n->bi->name, t->name);
  if (axis && !bi_check_axis(in, n, axis, ndim)) return NULL;
  return ty_array(TYS(TY_I64), ndim, 'C', false);
}

/* What rt_lexsort reads of one part of the keys: an array whose first
 * axis holds keys (keys_axis: true) or a key alone (a tuple's field, as
 * one key along an axis of stride 0), its memory, dtype, count and
 * strides into the parts' arrays at i. */
static void lexsort_part(Lower *l, const Type *t, LLVMValueRef a, bool keys_axis, int i, LLVMValueRef *data,
                         LLVMValueRef *kinds, LLVMValueRef *sizes, LLVMValueRef *counts, LLVMValueRef *strides) {
  int ndim = t->ndim - keys_axis;
  data[i] = LLVMBuildExtractValue(l->b, a, 2, "");
  kinds[i] = const_i32(l, (int)t->elem->kind);
  sizes[i] = const_i64(l, (int64_t)t->elem->size);
  counts[i] = keys_axis ? lo_arr_shape(l, a, 0) : const_i64(l, 1);
  strides[i * (ndim + 1)] = keys_axis ? lo_arr_stride(l, t, a, 0) : const_i64(l, 0);
  for (int d = 0; d < ndim; d++) strides[i * (ndim + 1) + 1 + d] = lo_arr_stride(l, t, a, d + keys_axis);
}

/* NumPy's ValueError unless the key a (of type t) has shape */
static void check_key_shape(Lower *l, const Type *t, LLVMValueRef a, const LLVMValueRef *shape) {
  LLVMValueRef differs = const_bool(l, false);
  for (int d = 0; d < t->ndim; d++)
    differs = LLVMBuildOr(l->b, differs, LLVMBuildICmp(l->b, LLVMIntNE, lo_arr_shape(l, a, d), shape[d], ""), "");
  lo_raise_if(l, differs, RT_ERR_VALUE, "all keys need to be the same shape");
}

static LLVMValueRef lo_lexsort(Lower *l, Node *n) {
  Node *keys = n->list.items[0];
  const Type *t = keys->ty;
  int ndim = n->ty->ndim, nparts = t->kind == TY_TUPLE ? t->nfields : 1;
  LLVMValueRef v = lo_expr(l, keys), k = axis_value(l, bi_arg(n, 1, "axis"), ndim), shape[RC_MAX_NDIM];
  LLVMValueRef *data = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(nparts * (ndim + 5)));
  LLVMValueRef *kinds = data + nparts, *sizes = kinds + nparts, *counts = sizes + nparts, *strides = counts + nparts;
  for (int i = 0; i < nparts; i++) {
    const Type *f = t->kind == TY_TUPLE ? t->fields[i] : t;
    LLVMValueRef a = t->kind == TY_TUPLE ? LLVMBuildExtractValue(l->b, v, (unsigned)i, "") : v;
    for (int d = 0; !i && d < ndim; d++) shape[d] = lo_arr_shape(l, a, d + (t->kind != TY_TUPLE));
    if (i) check_key_shape(l, f, a, shape);
    lexsort_part(l, f, a, t->kind != TY_TUPLE, i, data, kinds, sizes, counts, strides);
  }
  LLVMTypeRef ptr = l->mod->ptr, i64 = l->mod->i64, i32 = l->mod->i32;
  LLVMValueRef pointers = lo_alloca(l, LLVMArrayType2(ptr, (uint64_t)nparts), "lexsort.data");
  for (int i = 0; i < nparts; i++)
    LLVMBuildStore(l->b, data[i], LLVMBuildInBoundsGEP2(l->b, ptr, pointers, (LLVMValueRef[]){const_i64(l, i)}, 1, ""));
  LLVMValueRef kind_array = lo_alloca(l, LLVMArrayType2(i32, (uint64_t)nparts), "lexsort.kinds");
  for (int i = 0; i < nparts; i++)
    LLVMBuildStore(l->b, kinds[i], LLVMBuildInBoundsGEP2(l->b, i32, kind_array, (LLVMValueRef[]){const_i64(l, i)}, 1, ""));
  LLVMValueRef r = lo_alloc_array(l, n->ty, shape, -1);
  lo_temp_made(l, n->ty, r);
  LLVMTypeRef p[10] = {i32, ptr, ptr, ptr, ptr, ptr, ptr, i32, i64, ptr};
  LLVMValueRef args[10] = {const_i32(l, nparts), pointers, kind_array, dims_in_memory(l, sizes, nparts, "lexsort.sizes"),
                          dims_in_memory(l, counts, nparts, "lexsort.counts"),
                          dims_in_memory(l, strides, nparts * (ndim + 1), "lexsort.strides"),
                          dims_in_memory(l, shape, ndim, "lexsort.shape"), const_i32(l, ndim), k,
                          LLVMBuildExtractValue(l->b, r, 2, "")};
  lo_check_status(l, lo_call_fn(l, "rt_lexsort", i32, p, args, 10));
  lo_temp_taken(l, r);
  lo_done_with(l, keys, v);
  return r;
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
    LLVMValueRef bytes_in = LLVMBuildMul(l->b, at, const_i64(l, (int64_t)elem->size), "");  /* (str, bytes items: no model) */
    LLVMValueRef start = ty_is_fixed_text(elem) ? LLVMBuildInBoundsGEP2(l->b, l->mod->i8, data, &bytes_in, 1, "")
                                                : LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, elem), data, &at, 1, "");
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

void np_sort_flat(Lower *l, const Type *t, LLVMValueRef a) { sort_lanes(l, t, a, const_i64(l, 0), NULL, false); }

void np_argsort_flat(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef out) {
  sort_lanes(l, t, a, const_i64(l, 0), LLVMBuildExtractValue(l->b, out, 2, ""), true);
}

LLVMValueRef np_sorted_elements(Lower *l, Node *const *arrays, int n, const Type *elem, bool unique, LLVMValueRef *count) {
  LLVMValueRef sum, out = np_joined_elements(l, arrays, n, elem, &sum), data = LLVMBuildExtractValue(l->b, out, 2, "");
  np_sort_flat(l, ty_array(elem, 1, 'C', false), out);
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
static const char *const lexsort_kw[] = {"keys", "axis", NULL};

/* a.sort() allocates no array (its typer keeps it out of kernels) */
#define SORT_FLAGS(how) ((how == SORT_IN_PLACE ? 0 : BF_ALLOCATES) | BF_RAISES | BF_STRINGS | BF_NONE | BF_COMPLEX)
#define SORT_FUNCTION(name, how) {"numpy." name, "numpy", name, BK_FUNCTION, 0, 1, 3, sort_kw, SORT_FLAGS(how), how, 0, ty_sort, lo_sort}
#define SORT_METHOD(name, how) {"array." name, NULL, name, BK_METHOD, TY_ARRAY, 0, 2, sort_kw, SORT_FLAGS(how), how, 0, ty_sort, lo_sort}
#define PARTITION_FUNCTION(name, how) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, 1, 4, partition_kw, SORT_FLAGS(how) | BF_ARRAYLIKE, how | PARTITION, 0, ty_sort, lo_sort}
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
  {"numpy.lexsort", "numpy", "lexsort", BK_FUNCTION, 0, 1, 2, lexsort_kw, BF_ALLOCATES | BF_RAISES | BF_COMPLEX, 0, 0,
   ty_lexsort, lo_lexsort},
  {"numpy.unique", "numpy", "unique", BK_FUNCTION, 0, 1, 4, unique_kw, BF_ALLOCATES | BF_RAISES | BF_COMPLEX | BF_ARRAYLIKE, 0, 0, ty_unique, lo_unique},
  BI_END,
};
