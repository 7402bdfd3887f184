/* builtins/records.c — records of NumPy structured dtypes, as Numba's:
 * r.x and r['x'] read and write a field of a record (a view of its
 * bytes, so a[i].x = v writes the array); a.x and a['x'] of an array of
 * records are views of one field (strided arrays of the field's type).
 *
 * A field is found by name from the record's type, so there is one row
 * for every field access (its index in n->ival); infer.c asks here first
 * whenever a record or an array of records is the receiver. Other array
 * functions are refused arrays of records, but for the few in the table
 * below, which read only the shape or copy whole elements.
 */
#include <stdio.h>

#include "builtins/builtins.h"
#include "ir.h"

bool ty_holds_record(const Type *t) {
  return t && (t->kind == TY_RECORD || (t->kind == TY_ARRAY && t->elem->kind == TY_RECORD));
}

bool ty_record_inside(const Type *t) {
  if (t->kind == TY_OPTIONAL) return t->elem->kind == TY_RECORD || ty_record_inside(t->elem);
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (t->fields[i]->kind == TY_RECORD || ty_record_inside(t->fields[i])) return true;
  return false;
}

/* The field named name, or titled so (NumPy's other name for it), or -1. */
static int field_index(const Type *r, const char *name) {
  for (int i = 0; i < r->nfields; i++)
    if (!strcmp(r->names[i], name) || (r->titles && r->titles[i] && !strcmp(r->titles[i], name))) return i;
  return -1;
}

/* ---------------------------------------------------------------- a record's field */

/* A '<Un' or '|Sn' field reads as a str or bytes of its own (trailing
 * NULs dropped), as Numba's; any other as its type. */
static const Type *ty_field(Infer *in, Node *n, const Type **args) {
  const Type *f = args[0]->fields[n->ival];
  return ty_is_fixed_text(f) ? TYS(f->kind == TY_CHARSEQ ? TY_STR : TY_BYTES) : f;
}

static LLVMValueRef field_addr(Lower *l, Node *n, LLVMValueRef record) {
  LLVMValueRef off = const_i64(l, (int64_t)n->lhs->ty->offsets[n->ival]);
  return LLVMBuildGEP2(l->b, l->mod->i8, record, &off, 1, "field");
}

/* The alignment field i's bytes surely have: the record's (1 for a packed
 * dtype, whose array items lie at any byte), lowered to the largest power
 * of two dividing the field's offset. */
static size_t field_alignment(const Type *rec, int i) {
  size_t a = rec->align ? rec->align : 1;
  while (rec->offsets[i] % a) a /= 2;
  return a;
}

/* A packed dtype's float64 at offset 4 is no address an 8-byte load may
 * take (the GPU faults; LLVM may widen it into an aligned vector load):
 * such a field is read and written through an aligned copy of its bytes,
 * which LLVM makes loads and stores of the alignment it has. */
static bool misaligned_field(const Type *rec, int i) { return field_alignment(rec, i) < rec->fields[i]->align; }

static LLVMValueRef load_field(Lower *l, const Type *rec, int i, LLVMValueRef at) {
  const Type *f = rec->fields[i];
  if (!misaligned_field(rec, i)) return lo_load_storage(l, f, at);
  LLVMValueRef copy = lo_alloca(l, lo_storage_type(l, f), "field");
  LLVMBuildMemCpy(l->b, copy, (unsigned)f->align, at, (unsigned)field_alignment(rec, i), const_i64(l, (int64_t)f->size));
  return lo_load_storage(l, f, copy);
}

static void store_field(Lower *l, const Type *rec, int i, LLVMValueRef at, LLVMValueRef v) {
  const Type *f = rec->fields[i];
  if (!misaligned_field(rec, i)) {
    lo_store_storage(l, f, at, v);
    return;
  }
  LLVMValueRef copy = lo_alloca(l, lo_storage_type(l, f), "field");
  lo_store_storage(l, f, copy, v);
  LLVMBuildMemCpy(l->b, at, (unsigned)field_alignment(rec, i), copy, (unsigned)f->align, const_i64(l, (int64_t)f->size));
}

/* A sub-array field's view: C-ordered on the record's bytes, owned by
 * nothing (as a frozen global's), so returned to Python it is a copy. */
static LLVMValueRef subarray_view(Lower *l, const Type *t, const int64_t *shape, LLVMValueRef data) {
  LLVMValueRef dims[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  int64_t stride = t->elem->size;
  for (int d = t->ndim - 1; d >= 0; d--) {
    dims[d] = const_i64(l, shape[d]);
    strides[d] = const_i64(l, stride);
    stride *= shape[d];
  }
  return np_view(l, t, LLVMConstNull(lo_type(l, t)), data, dims, strides);
}

static LLVMValueRef lo_field(Lower *l, Node *n) {
  LLVMValueRef at = field_addr(l, n, lo_expr(l, n->lhs));
  const Type *f = n->lhs->ty->fields[n->ival];
  if (ty_is_fixed_text(f)) return lo_text_read(l, f, at);
  if (n->ty->kind == TY_ARRAY) return subarray_view(l, n->ty, &n->lhs->ty->shapes[n->ival * RC_MAX_NDIM], at);
  return load_field(l, n->lhs->ty, n->ival, at);
}

static const Builtin record_field = {"record field", NULL, NULL, BK_ATTRIBUTE, TY_RECORD, 0, 0, NULL,
                                     BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0, ty_field, lo_field};

bool ty_is_text_field(const Node *n) {
  return n->kind == N_ATTR && n->bi == &record_field && ty_is_fixed_text(n->lhs->ty->fields[n->ival]);
}

/* ---------------------------------------------------------------- an array's field */

static const Type *ty_array_field(Infer *in, Node *n, const Type **args) {
  const Type *a = args[0], *f = a->elem->fields[n->ival];
  if (f->kind == TY_ARRAY && a->ndim + f->ndim > RC_MAX_NDIM)
    return ty_error(in, n, "the view a['%s'] would have more than %d dimensions", n->str, RC_MAX_NDIM);
  return f->kind == TY_ARRAY ? ty_array(f->elem, a->ndim + f->ndim, 'A', a->readonly) : ty_array(f, a->ndim, 'A', a->readonly);
}

/* a.x: a's shape and strides (then a sub-array's), its data moved to the field */
static LLVMValueRef lo_array_field(Lower *l, Node *n) {
  const Type *t = n->lhs->ty, *f = t->elem->fields[n->ival];
  LLVMValueRef a = lo_expr(l, n->lhs), shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  for (int d = 0; d < t->ndim; d++) {
    shape[d] = lo_arr_shape(l, a, d);
    strides[d] = lo_arr_stride(l, t, a, d);
  }
  int64_t stride = f->kind == TY_ARRAY ? (int64_t)f->elem->size : 0;
  for (int d = f->kind == TY_ARRAY ? f->ndim - 1 : -1; d >= 0; d--) {
    int64_t extent = t->elem->shapes[n->ival * RC_MAX_NDIM + d];
    shape[t->ndim + d] = const_i64(l, extent);
    strides[t->ndim + d] = const_i64(l, stride);
    stride *= extent;
  }
  LLVMValueRef off = const_i64(l, (int64_t)t->elem->offsets[n->ival]);
  LLVMValueRef data = LLVMBuildGEP2(l->b, l->mod->i8, LLVMBuildExtractValue(l->b, a, 2, "data"), &off, 1, "");
  LLVMValueRef v = np_view(l, n->ty, a, data, shape, strides);
  lo_refcount(l, n->ty, v, true);
  lo_done_with(l, n->lhs, a);
  return v;
}

static const Builtin array_field = {"array field", NULL, NULL, BK_ATTRIBUTE, TY_ARRAY, 0, 0, NULL,
                                    BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0, ty_array_field, lo_array_field};

/* ---------------------------------------------------------------- typing */

/* What arrays of records may be given to: the shape's readers (and
 * ndenumerate's counter over it), their dtype (for new arrays of it), and
 * copies (whole elements moved as bytes), getattr and hasattr, which
 * name a field or an attribute, cuda.const.array_like (the global array
 * itself, frozen), shared and local arrays of a record dtype, and the
 * address of the data (a.ctypes.data). */
static const char *const takes_records[] = {"len", "array.shape", "array.size", "array.ndim", "array.itemsize",
                                            "array.nbytes", "array.strides", "ndindex size", "ndindex at",
                                            "array.dtype", "array.view", "array.copy",
                                            "numpy.empty", "numpy.zeros", "numpy.empty_like", "numpy.zeros_like",
                                            "getattr", "hasattr", "print", "cuda.const.array_like", "cuda.shared.array",
                                            "cuda.local.array", "array.ctypes", "array.ctypes.data", NULL};

static bool takes(const Builtin *bi) {
  for (int i = 0; takes_records[i]; i++)
    if (!strcmp(bi->name, takes_records[i])) return true;
  return false;
}

/* What takes an array of records (not a record) as an item: a list, typed
 * or reflected, holds the array itself, as it holds any array (strax splits
 * a record array into a List of its slices). */
static const char *const takes_record_arrays[] = {"list.append", "list.insert", "list literal", NULL};

static bool takes_record_array(const Builtin *bi, const Type *t) {
  for (int i = 0; t && t->kind == TY_ARRAY && takes_record_arrays[i]; i++)
    if (!strcmp(bi->name, takes_record_arrays[i])) return true;
  return false;
}

/* What arrays of str or bytes ('<Un', '|Sn' elements, read one at a time
 * as strs or bytes) may be given to: the shape's readers, copies, new
 * arrays like them, item() and fill(), nditer and ndenumerate, list()
 * and sorted() of their items, numpy.sort, a.sort(), argsort and
 * numpy.unique (as Numba's; partition, which sorting.c refuses with why),
 * the stride tricks' views (windows of symbols, as pyts' bag of words
 * takes them), searchsorted (for str or bytes needles), lexsort's keys, and trim_zeros (its empty items trimmed, as NumPy's);
 * a.view(dtype) (their bytes read as another dtype's, NumPy's rules for another itemsize, as Numba's);
 * nonzero, argwhere and where(c) find its items that are not empty
 * (NumPy's truth of a str), as do flatnonzero, extract, count_nonzero,
 * any and all; min, max, argmin and argmax compare them (as Numba's). */
static const char *const takes_chars[] = {"len", "array.shape", "array.size", "array.ndim", "array.itemsize",
                                          "array.nbytes", "array.strides", "getattr", "hasattr", "array.copy",
                                          "numpy.copy", "numpy.empty_like", "numpy.zeros_like", "array.reshape",
                                          "numpy.reshape",
                                          "array.ravel", "numpy.ravel", "array.flatten", "array.transpose",
                                          "numpy.transpose", "array.item", "array.fill", "nditer size", "nditer at",
                                          "ndindex size", "ndindex at", "list", "sorted", "str.join",
                                          "numpy.sort", "array.sort", "numpy.argsort", "array.argsort",
                                          "numpy.unique", "numpy.partition", "array.partition",
                                          "numpy.lib.stride_tricks.as_strided",
                                          "numpy.lib.stride_tricks.sliding_window_view", "numpy.trim_zeros",
                                          "print", "in", "numpy.nonzero", "array.nonzero", "numpy.argwhere",
                                          "numpy.searchsorted", "array.searchsorted", "numpy.lexsort", "array.view",
                                          /* views, and copies that move items as their bytes */
                                          "numpy.broadcast_to", "numpy.broadcast_arrays", "numpy.expand_dims",
                                          "numpy.atleast_1d", "numpy.atleast_2d", "numpy.atleast_3d", "numpy.swapaxes",
                                          "array.swapaxes", "numpy.moveaxis", "numpy.flip", "numpy.fliplr",
                                          "numpy.flipud", "numpy.rot90", "numpy.asarray", "numpy.ascontiguousarray",
                                          "numpy.asfortranarray", "numpy.split", "numpy.array_split", "numpy.hsplit",
                                          "numpy.vsplit", "numpy.dsplit", "numpy.take", "array.take", "numpy.repeat",
                                          "array.repeat", "numpy.roll", "numpy.append", "numpy.delete", "numpy.insert", "numpy.diag",
                                          "numpy.squeeze", "array.squeeze", "numpy.tile", "numpy.resize",
                                          /* truths and comparisons of items */
                                          "numpy.flatnonzero", "numpy.extract", "numpy.count_nonzero", "numpy.any",
                                          "array.any", "numpy.all", "array.all", "numpy.min", "array.min", "numpy.max",
                                          "array.max", "numpy.amin", "numpy.amax", "numpy.argmin", "array.argmin",
                                          "numpy.argmax", "array.argmax", "numpy.full_like",
                                          "numpy.array_equal", "numpy.isin",
                                          /* a 0-d array's element (numpy.str_ of a '<Un' one) */
                                          "dtype.type",
                                          NULL};

static bool takes_str_arrays(const Node *n) {
  if (!strcmp(n->bi->name, "numpy.where") || !strcmp(n->bi->name, "numpy.where of text"))
    return true;  /* where(c) is nonzero(c); where(c, x, y) of text arrays shape.c's own loop */
  size_t len = strlen(n->bi->name);  /* the rows reductions hand text arrays to (complex_reduce.c's) */
  if (len > 8 && !strcmp(n->bi->name + len - 8, " of text")) return true;
  for (int i = 0; takes_chars[i]; i++)
    if (!strcmp(n->bi->name, takes_chars[i])) return true;
  return false;
}

/* A constant str that names a dtype ("f8", "a5") is one where a dtype is
 * read (the frontend made it N_DTYPE, the str in str); given to a row that
 * reads text values and no dtype, it is the str again: numpy.isin(a, "f8"),
 * numpy.append(a, "f8") of an array of str. */
static bool reads_dtypes(const Builtin *bi) {
  for (int k = 0; bi->keywords && bi->keywords[k]; k++)
    if (!strcmp(bi->keywords[k], "dtype")) return true;
  return false;
}

void ty_dtype_names_as_text(Node *n) {
  if (n->callee || !n->bi || !takes_str_arrays(n) || reads_dtypes(n->bi)) return;
  for (int i = 0; i < n->list.len + n->kw.len; i++) {
    Node *x = i < n->list.len ? n->list.items[i] : n->kw.items[i - n->list.len];
    if (x->kind == N_DTYPE && x->str)
      *x = (Node){.kind = N_STRING, .line = x->line, .col = x->col, .str = x->str, .ival = (int64_t)strlen(x->str)};
  }
}

bool ty_check_records(Infer *in, Node *n, const Type **args) {
  for (int i = 0; !n->callee && !takes_str_arrays(n) && i < n->list.len; i++)
    if (args[i] && args[i]->kind == TY_ARRAY && ty_is_fixed_text(args[i]->elem))
      return ty_error(in, n->list.items[i], "%s() does not support arrays of str or bytes (%s) in compiled code: read their "
                      "items (a[i], for s in a)", n->bi->name, args[i]->name) != NULL;
  if (n->callee || takes(n->bi)) return true;
  for (int i = 0; i < n->list.len + n->kw.len; i++) {
    Node *x = i < n->list.len ? n->list.items[i] : n->kw.items[i - n->list.len];
    const Type *t = i < n->list.len ? args[i] : x->ty;
    if ((ty_holds_record(t) && !takes_record_array(n->bi, t)) || (t && t->kind == TY_DTYPE && t->elem->kind == TY_RECORD))
      return ty_error(in, x, "%s() does not support records (structured dtypes) in compiled code", n->bi->name) != NULL;
  }
  return true;
}

/* r.name and a.name, n an N_ATTR: a field, or for an array one of the
 * attributes above. */
const Type *ty_record_attr(Infer *in, Node *n, const Type *base) {
  const Type *r = base->kind == TY_RECORD ? base : base->elem;
  n->ival = field_index(r, n->str);
  if (n->ival >= 0) {
    n->bi = base->kind == TY_RECORD ? &record_field : &array_field;
    return n->bi->type(in, n, &base);
  }
  const Builtin *bi = base->kind == TY_ARRAY ? bi_member(TY_ARRAY, BK_ATTRIBUTE, n->str) : NULL;
  if (bi && takes(bi)) {
    n->bi = bi;
    return bi->type(in, n, &base);
  }
  if (base->kind == TY_ARRAY && (bi || bi_member(TY_ARRAY, BK_METHOD, n->str)))
    return ty_error(in, n, "'%s' of an array of records is not supported in compiled code", n->str);
  return ty_error(in, n, "%s has no field '%s'", r->name, n->str);
}

/* The constant a record is indexed by, as Numba types it as a literal: a
 * str or int written there, a variable bound once to one, or an item of a
 * constant tuple picked by a constant (f = names[1]; r[f], and
 * literal_unroll's copies, x = $t[k]); NULL for any other. */
static const Node *record_key(const Infer *in, const Node *n, int depth) {
  for (int hops = 0; n && n->kind == N_VAR && hops < 64; hops++)
    n = in->only_value && in->only_value[n->var] ? in->only_value[n->var] : in->bound_once ? in->bound_once[n->var] : NULL;
  if (!n || depth > 8) return NULL;
  const Node *c = ty_constant(in, n);
  if (c || n->kind != N_INDEX || n->str || !n->rhs) return c;
  const Node *t = n->lhs, *at = record_key(in, n->rhs, depth + 1);
  for (int hops = 0; t && t->kind == N_VAR && hops < 64; hops++)
    t = in->only_value && in->only_value[t->var] ? in->only_value[t->var] : in->bound_once ? in->bound_once[t->var] : NULL;
  if (!t || t->kind != N_TUPLE || !at || at->kind != N_INT) return NULL;
  int64_t k = at->ival < 0 ? at->ival + t->list.len : at->ival;
  return k >= 0 && k < t->list.len ? record_key(in, t->list.items[k], depth + 1) : NULL;
}

/* Whether x[key], n an N_INDEX of base, reads a field: any index of a
 * record (refused below unless a constant), a constant str of an array
 * of them (a constant int picks an element). */
bool ty_record_keyed(const Infer *in, const Node *n, const Type *base) {
  if (!base || !n->rhs || n->str || !ty_holds_record(base)) return false;
  if (base->kind == TY_RECORD) return true;
  const Node *key = record_key(in, n->rhs, 0);
  return key && key->kind == N_STRING;
}

/* x['name'], x[k] or x[f] of a constant k or f (above), n an N_INDEX of a
 * record or an array of them: made the N_ATTR x.name, as Numba reads it; a
 * record's field by its position too (negative from the end, as NumPy's). */
const Type *ty_record_index(Infer *in, Node *n, const Type *base) {
  const Node *key = n->str ? NULL : record_key(in, n->rhs, 0);
  const Type *r = base->kind == TY_RECORD ? base : base->elem;
  if (!key || (key->kind != N_STRING && (key->kind != N_INT || base->kind != TY_RECORD)))
    return ty_error(in, n, "a record is indexed by a field's name or position, a constant (a str or int known "
                    "when compiling)");
  if (key->kind == N_INT) {
    int64_t k = key->ival < 0 ? key->ival + r->nfields : key->ival;
    if (k < 0 || k >= r->nfields) return ty_error(in, n, "Requested index %lld is out of range", (long long)key->ival);
    n->str = r->names[k];
  } else {
    n->str = key->str;
  }
  n->kind = N_ATTR;
  n->rhs = NULL;
  return ty_record_attr(in, n, base);
}

/* r.name = v, or r['name'] = v. */
void ty_record_store(Infer *in, Node *target, const Type *t, Node *at) {
  const Type *f = ty_expr(in, target);
  if (!f) return;
  if (target->kind != N_ATTR || target->bi != &record_field) {
    ty_error(in, target, "cannot assign to '%s' of %s", target->str ? target->str : "?", target->lhs->ty->name);
    return;
  }
  const Type *field = target->lhs->ty->fields[target->ival];
  /* a '<Un' field takes a str, a '|Sn' one a bytes, cut or NUL-padded as NumPy's; Numba takes no other */
  bool fits = ty_is_fixed_text(field) ? t->kind == f->kind
              : f->kind == TY_RECORD ? t == f : ty_is_scalar(t) && (!ty_is_complex(t) || ty_is_complex(f));
  if (!fits) ty_error(in, at, "cannot store %s into field '%s' of %s", t->name, target->str, target->lhs->ty->name);
}

/* ---------------------------------------------------------------- lowering of stores */

void lo_record_store(Lower *l, Node *target, const Type *t, LLVMValueRef v) {
  LLVMValueRef at = field_addr(l, target, lo_expr(l, target->lhs));
  const Type *f = target->lhs->ty->fields[target->ival];
  if (ty_is_fixed_text(f)) {
    lo_text_write(l, f, at, v);
    lo_refcount(l, t, v, false);  /* the stored value was owned */
  } else {
    store_field(l, target->lhs->ty, target->ival, at, lo_convert(l, v, t, target->ty));
  }
}

void lo_record_text_constant_store(Lower *l, Node *target, const Node *text) {
  lo_text_constant_write(l, target->lhs->ty->fields[target->ival], field_addr(l, target, lo_expr(l, target->lhs)), text);
}

/* r.x op= v: the field's address found once. */
void lo_record_update(Lower *l, Node *n) {
  Node *target = n->lhs;
  LLVMValueRef at = field_addr(l, target, lo_expr(l, target->lhs));
  LLVMValueRef cur = load_field(l, target->lhs->ty, target->ival, at), rhs = lo_expr(l, n->rhs);
  LLVMValueRef r = lo_binop_values(l, n->op, n->ty, cur, target->ty, rhs, n->rhs->ty);
  store_field(l, target->lhs->ty, target->ival, at, lo_convert(l, r, n->ty, target->ty));
}
