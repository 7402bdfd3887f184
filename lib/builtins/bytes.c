/* builtins/bytes.c — bytes values in compiled code (Numba's Bytes): len,
 * indexing (an int), slicing (a new bytes), iteration, truth, comparisons,
 * `in`, + and *, the methods of Numba's Bytes and CharSeq (isascii,
 * startswith, endswith, find, rfind, strip, ljust, rjust, center, zfill,
 * upper, isupper, split and join) and their siblings (index, rindex,
 * count, lower, islower, isdigit, isalpha, isalnum, isspace), and numpy.frombuffer of
 * bytes and of arrays (bytearray and memoryview arguments are arrays of
 * their items: typeof.c).
 *
 * A bytes value is held as a read-only, C-contiguous 1-d array of uint8
 * (types.c gives it an array's data model): the array code reads its
 * length, and what an expression makes is a new reference to its memory,
 * as an array's. Its constants are frozen as arrays are (N_CONST_ARRAY).
 * Orders, searching, slices and the methods call bytes_rt.c.
 */
#include "builtins/builtins.h"

static bool is_bytes(const Type *t) { return t && t->kind == TY_BYTES; }
static bool is_intlike(const Type *t) { return ty_is_int(t) || t->kind == TY_BOOL; }

static LLVMValueRef bytes_data(Lower *l, LLVMValueRef b) { return LLVMBuildExtractValue(l->b, b, 2, "data"); }

/* What calls the runtime (bytes_rt.c), which kernels lack: a TypingError
 * there, naming what; len and b[i] are instructions and work there. */
static bool host_only(Infer *in, Node *n, const char *what, const char *call) {
  return !ty_in_cuda(in) ||
         ty_error(in, n, "%s%s is not supported in kernels (len(b) and b[i] of bytes are)", what, call) == NULL;
}

/* ---------------------------------------------------------------- indexing */

/* b[i] an int, as Python's (Numba's is a uint8, which boxes alike);
 * b[i:j:k] a new bytes; for c in b reads b[i] too. */
const Type *ty_bytes_index(Infer *in, Node *n, const Type *base) {
  Node *i = n->rhs;
  if (n->str && strcmp(n->str, "iteration")) return ty_error(in, n, "bytes have no keys(), values() or items()");
  if (i->kind == N_SLICE)
    return host_only(in, n, "a slice of bytes", "") && bi_slice_part(in, i->lhs) && bi_slice_part(in, i->rhs) &&
                   bi_slice_part(in, i->cond) ? base : NULL;
  const Type *t = ty_expr(in, i);
  if (t && !is_intlike(t)) return ty_error(in, i, "byte indices must be integers or slices, not %s", t->name);
  return t ? TYS(TY_I64) : NULL;
}

static LLVMValueRef part_or_null(Lower *l, Node *x) {
  return !x || x->kind == N_NONE || x->ty->kind == TY_NONE ? NULL : lo_expr_as(l, x, TYS(TY_I64));
}

static LLVMValueRef bytes_slice(Lower *l, LLVMValueRef b, Node *s) {
  LLVMValueRef given[3] = {part_or_null(l, s->lhs), part_or_null(l, s->rhs), part_or_null(l, s->cond)}, at[3];
  lo_slice_indices(l, given, lo_arr_shape(l, b, 0), at);
  LLVMValueRef in = lo_alloca(l, l->mod->rtarray, "bytes.in"), out = lo_alloca(l, l->mod->rtarray, "bytes.out");
  lo_store_storage(l, TYS(TY_BYTES), in, b);
  LLVMTypeRef p[5] = {l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64};
  LLVMValueRef a[5] = {out, in, at[0], at[1], at[2]};
  lo_check_call(l, lo_call_fn(l, "rt_bytes_slice", l->mod->i32, p, a, 5));
  return lo_load_storage(l, TYS(TY_BYTES), out);
}

LLVMValueRef lo_bytes_index(Lower *l, Node *n) {
  LLVMValueRef b = lo_expr(l, n->lhs), r;
  if (n->rhs->kind == N_SLICE) {
    r = bytes_slice(l, b, n->rhs);
  } else {
    LLVMValueRef i = lo_expr_as(l, n->rhs, TYS(TY_I64)), len = lo_arr_shape(l, b, 0);
    LLVMValueRef k = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), ""),
                                     LLVMBuildAdd(l->b, i, len, ""), i, "");
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntUGE, k, len, ""), RT_ERR_INDEX, "index out of range");
    LLVMValueRef at = LLVMBuildGEP2(l->b, l->mod->i8, bytes_data(l, b), &k, 1, "");
    r = LLVMBuildZExt(l->b, LLVMBuildLoad2(l->b, l->mod->i8, at, ""), l->mod->i64, "");
  }
  lo_done_with(l, n->lhs, b);
  return r;
}

/* ---------------------------------------------------------------- comparisons */

/* Between bytes, every comparison, as Python orders them; bytes and
 * another type only == and != (never equal). */
bool ty_bytes_compare(Infer *in, Node *n, const Type **t) {
  for (int i = 0; i + 1 < n->list.len; i++) {
    if (is_bytes(t[i]) && is_bytes(t[i + 1]) && !host_only(in, n, "comparing bytes", "")) return false;
    if (is_bytes(t[i]) != is_bytes(t[i + 1]) && !bi_compare_other_kind(in, n, n->ops[i], t[i], t[i + 1])) return false;
  }
  return true;
}

LLVMValueRef lo_bytes_compare_values(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  if (!is_bytes(ta) || !is_bytes(tb)) return const_bool(l, op == OP_NE);
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->ptr, l->mod->i64};
  LLVMValueRef args[4] = {bytes_data(l, a), lo_arr_shape(l, a, 0), bytes_data(l, b), lo_arr_shape(l, b, 0)};
  LLVMValueRef c = lo_call_fn(l, "rt_bytes_order", l->mod->i64, p, args, 4);
  static const LLVMIntPredicate pred[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  return LLVMBuildICmp(l->b, pred[op - OP_EQ], c, const_i64(l, 0), "");
}

/* ---------------------------------------------------------------- + and * */

/* a + b of two bytes, b * n and n * b of bytes and an int: a new bytes, as Python's. */
const Type *ty_bytes_binop(Infer *in, Node *n, int op, const Type *a, const Type *b) {
  bool ok = op == OP_ADD ? is_bytes(a) && is_bytes(b)
                         : op == OP_MUL && ((is_bytes(a) && is_intlike(b)) || (is_intlike(a) && is_bytes(b)));
  if (!ok)
    return ty_error(in, n, "operator is not supported between %s and %s (bytes take + of bytes and * of an int)",
                    a->name, b->name);
  return host_only(in, n, "+ and * of bytes", "") ? TYS(TY_BYTES) : NULL;
}

LLVMValueRef lo_bytes_binop_values(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  LLVMValueRef out = lo_alloca(l, l->mod->rtarray, "bytes.out"), x = lo_alloca(l, l->mod->rtarray, "bytes.in");
  if (op == OP_ADD) {
    LLVMValueRef y = lo_alloca(l, l->mod->rtarray, "bytes.in");
    lo_store_storage(l, ta, x, a);
    lo_store_storage(l, tb, y, b);
    LLVMTypeRef p[3] = {l->mod->ptr, l->mod->ptr, l->mod->ptr};
    lo_check_call(l, lo_call_fn(l, "rt_bytes_concat", l->mod->i32, p, (LLVMValueRef[]){out, x, y}, 3));
  } else {
    bool first = is_bytes(ta);
    lo_store_storage(l, TYS(TY_BYTES), x, first ? a : b);
    LLVMValueRef count = first ? lo_convert(l, b, tb, TYS(TY_I64)) : lo_convert(l, a, ta, TYS(TY_I64));
    LLVMTypeRef p[3] = {l->mod->ptr, l->mod->ptr, l->mod->i64};
    lo_check_call(l, lo_call_fn(l, "rt_bytes_repeat", l->mod->i32, p, (LLVMValueRef[]){out, x, count}, 3));
  }
  return lo_load_storage(l, TYS(TY_BYTES), out);
}

/* ---------------------------------------------------------------- in */

/* v in b: an int (a byte's value) or bytes (a run of them), as Python's. */
const Type *ty_bytes_contains(Infer *in, Node *n, const Type **args) {
  if (!is_intlike(args[0]) && !is_bytes(args[0]))
    return ty_error(in, n, "'in <bytes>' needs an int or bytes as left operand, not %s", args[0]->name);
  return host_only(in, n, "'in' of bytes", "") ? TYS(TY_BOOL) : NULL;
}

LLVMValueRef lo_bytes_contains(Lower *l, Node *n) {
  Node *v = n->list.items[0], *x = n->list.items[1];
  LLVMValueRef vv = lo_expr(l, v), b = lo_expr(l, x), sub, len;
  if (is_bytes(v->ty)) {
    sub = bytes_data(l, vv);
    len = lo_arr_shape(l, vv, 0);
  } else {  /* one byte, of the int's value */
    LLVMValueRef k = lo_convert(l, vv, v->ty, TYS(TY_I64));
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntUGT, k, const_i64(l, 255), ""), RT_ERR_VALUE,
                "byte must be in range(0, 256)");
    sub = lo_alloca(l, l->mod->i8, "byte");
    LLVMBuildStore(l->b, LLVMBuildTrunc(l->b, k, l->mod->i8, ""), sub);
    len = const_i64(l, 1);
  }
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->ptr, l->mod->i64};
  LLVMValueRef args[4] = {bytes_data(l, b), lo_arr_shape(l, b, 0), sub, len};
  LLVMValueRef at = lo_call_fn(l, "rt_bytes_find", l->mod->i64, p, args, 4);
  lo_done_with(l, x, b);
  lo_done_with(l, v, vv);
  return LLVMBuildICmp(l->b, LLVMIntSGE, at, const_i64(l, 0), "");
}

/* ---------------------------------------------------------------- numpy.frombuffer */

static const char *const frombuffer_kw[] = {"dtype", "count", "offset", NULL};

/* numpy.frombuffer(buffer, dtype=float, count=-1, offset=0): a 1-d view of
 * the buffer's bytes (bytes, or a C-contiguous array: a bytearray's or a
 * memoryview's), read-only where the buffer is, as NumPy's. */
static const Type *ty_frombuffer(Infer *in, Node *n, const Type **args) {
  const Type *buf = args[0];
  if (!is_bytes(buf) && !(buf->kind == TY_ARRAY && buf->layout == 'C' && ty_is_scalar(buf->elem)))
    return ty_error(in, n, "numpy.frombuffer() needs bytes, a bytearray, a memoryview or a C-contiguous array, got %s",
                    buf->name);
  const Type *elem = np_dtype_arg(in, n, 1, TYS(TY_F64));
  if (!elem) return NULL;
  if (!ty_is_scalar(elem) || ty_is_time(elem))
    return ty_error(in, n, "numpy.frombuffer() of dtype %s is not supported", elem->name);
  const char *names[2] = {"count", "offset"};
  for (int k = 0; k < 2; k++) {
    Node *x = np_arg(in, n, 2 + k, names[k]);
    if (ty_failed(in)) return NULL;
    if (x && !is_intlike(x->ty))
      return ty_error(in, x, "numpy.frombuffer()'s %s must be an int, got %s", names[k], x->ty->name);
  }
  return ty_array(elem, 1, 'C', buf->readonly);
}

static LLVMValueRef lo_frombuffer(Lower *l, Node *n) {
  Node *x = n->list.items[0], *count_node = np_arg_node(n, 2, "count"), *offset_node = np_arg_node(n, 3, "offset");
  LLVMValueRef b = lo_expr(l, x);
  LLVMValueRef nbytes = const_i64(l, (int64_t)(ty_bits(x->ty->elem) / 8));
  for (int d = 0; d < x->ty->ndim; d++) nbytes = LLVMBuildMul(l->b, nbytes, lo_arr_shape(l, b, d), "");
  LLVMValueRef offset = offset_node ? lo_expr_as(l, offset_node, TYS(TY_I64)) : const_i64(l, 0);
  LLVMValueRef count = count_node ? lo_expr_as(l, count_node, TYS(TY_I64)) : const_i64(l, -1);
  LLVMValueRef itemsize = const_i64(l, (int64_t)(ty_bits(n->ty->elem) / 8));
  LLVMValueRef bad_offset = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, offset, const_i64(l, 0), ""),
                                        LLVMBuildICmp(l->b, LLVMIntSGT, offset, nbytes, ""), "");
  lo_raise_format_if(l, bad_offset, RT_ERR_VALUE, "offset must be non-negative and no greater than buffer length (%lld)",
                     &nbytes, 1);
  LLVMValueRef rest = LLVMBuildSub(l->b, nbytes, offset, "");
  LLVMValueRef all = LLVMBuildICmp(l->b, LLVMIntSLT, count, const_i64(l, 0), "");
  lo_raise_if(l, LLVMBuildAnd(l->b, all, LLVMBuildICmp(l->b, LLVMIntNE, LLVMBuildSRem(l->b, rest, itemsize, ""),
                                                       const_i64(l, 0), ""), ""),
              RT_ERR_VALUE, "buffer size must be a multiple of element size");
  LLVMValueRef short_one = LLVMBuildICmp(l->b, LLVMIntSLT, LLVMBuildSDiv(l->b, rest, itemsize, ""), count, "");
  lo_raise_if(l, LLVMBuildAnd(l->b, LLVMBuildNot(l->b, all, ""), short_one, ""), RT_ERR_VALUE,
              "buffer is smaller than requested size");
  LLVMValueRef len = LLVMBuildSelect(l->b, all, LLVMBuildSDiv(l->b, rest, itemsize, ""), count, "");
  LLVMTypeRef dims = LLVMArrayType2(l->mod->i64, 1);
  LLVMValueRef data = LLVMBuildGEP2(l->b, l->mod->i8, LLVMBuildExtractValue(l->b, b, 2, ""), &offset, 1, "");
  LLVMValueRef a = LLVMGetUndef(lo_type(l, n->ty));
  a = LLVMBuildInsertValue(l->b, a, LLVMBuildExtractValue(l->b, b, 0, ""), 0, "");  /* the buffer's memory, */
  a = LLVMBuildInsertValue(l->b, a, LLVMBuildExtractValue(l->b, b, 1, ""), 1, "");  /* or argument */
  a = LLVMBuildInsertValue(l->b, a, data, 2, "");
  a = LLVMBuildInsertValue(l->b, a, LLVMBuildInsertValue(l->b, LLVMGetUndef(dims), len, 0, ""), 3, "");
  a = LLVMBuildInsertValue(l->b, a, LLVMBuildInsertValue(l->b, LLVMGetUndef(dims), itemsize, 0, ""), 4, "");
  lo_refcount(l, n->ty, a, true);  /* a new reference to it */
  lo_done_with(l, x, b);
  return a;
}

/* ---------------------------------------------------------------- methods */

#define NONE_INDEX INT64_MIN  /* an index given as None, or not given (bytes_rt.c) */

/* What a method gives: a bool (rt_bytes_test), an index or a count
 * (rt_bytes_search), a new bytes (rt_bytes_make). */
enum { GIVES_BOOL, GIVES_INT, GIVES_BYTES };

/* The methods of Numba's Bytes and CharSeq but split and join: what each
 * takes after its receiver ('b' bytes, 'i' an int; capitals required, lower
 * case None or left out), and what it gives. */
static const struct { const char *params; int gives; } methods[] = {
  [BM_ISASCII] = {"", GIVES_BOOL},    [BM_STARTSWITH] = {"Bii", GIVES_BOOL}, [BM_ENDSWITH] = {"Bii", GIVES_BOOL},
  [BM_STRIP] = {"b", GIVES_BYTES},    [BM_LSTRIP] = {"b", GIVES_BYTES},      [BM_RSTRIP] = {"b", GIVES_BYTES},
  [BM_LJUST] = {"Ib", GIVES_BYTES},   [BM_RJUST] = {"Ib", GIVES_BYTES},      [BM_CENTER] = {"Ib", GIVES_BYTES},
  [BM_ZFILL] = {"I", GIVES_BYTES},    [BM_FIND] = {"Bii", GIVES_INT},        [BM_RFIND] = {"Bii", GIVES_INT},
  [BM_INDEX] = {"Bii", GIVES_INT},    [BM_RINDEX] = {"Bii", GIVES_INT},      [BM_COUNT] = {"Bii", GIVES_INT},
  [BM_UPPER] = {"", GIVES_BYTES},     [BM_LOWER] = {"", GIVES_BYTES},        [BM_ISUPPER] = {"", GIVES_BOOL},
  [BM_ISLOWER] = {"", GIVES_BOOL},    [BM_ISDIGIT] = {"", GIVES_BOOL},       [BM_ISALPHA] = {"", GIVES_BOOL},
  [BM_ISALNUM] = {"", GIVES_BOOL},    [BM_ISSPACE] = {"", GIVES_BOOL},
};

static Node *method_arg(Node *n, int k) { return k + 1 < n->list.len ? n->list.items[k + 1] : NULL; }

static const Type *ty_bytes_method(Infer *in, Node *n, const Type **args) {
  const char *params = methods[n->bi->ival].params;
  if (!host_only(in, n, n->bi->name, "()")) return NULL;
  for (int k = 0; params[k]; k++) {
    Node *x = method_arg(n, k);
    const Type *t = x ? x->ty : NULL;
    if (!t || (t->kind == TY_NONE && params[k] >= 'a')) continue;
    bool bytes = params[k] == 'b' || params[k] == 'B';
    if (bytes ? !is_bytes(t) : !is_intlike(t))
      return ty_error(in, x, "%s() argument %d must be %s, not %s", n->bi->path, k + 1, bytes ? "bytes" : "int",
                      t->name);
  }
  static const TypeKind gives[] = {[GIVES_BOOL] = TY_BOOL, [GIVES_INT] = TY_I64, [GIVES_BYTES] = TY_BYTES};
  return TYS(gives[methods[n->bi->ival].gives]);
}

/* find() and the others giving an int: index() and rindex() raise where find() gives -1. */
static LLVMValueRef bytes_search(Lower *l, int fn, LLVMValueRef *args) {
  LLVMTypeRef p[7] = {l->mod->i32, l->mod->ptr, l->mod->i64, l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64};
  LLVMValueRef at = lo_call_fn(l, "rt_bytes_search", l->mod->i64, p, args, 7);
  if (fn == BM_INDEX || fn == BM_RINDEX)
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, at, const_i64(l, 0), ""), RT_ERR_VALUE, "subsection not found");
  return at;
}

static LLVMValueRef lo_bytes_method(Lower *l, Node *n) {
  int fn = n->bi->ival;
  const char *params = methods[fn].params;
  Node *recv = n->list.items[0];
  LLVMValueRef b = lo_expr(l, recv), held[3] = {NULL};
  /* the bytes argument (NULL: none; a pad's default fill, a space) and the ints, None as NONE_INDEX */
  LLVMValueRef sub = LLVMConstNull(l->mod->ptr), sublen = const_i64(l, 0);
  LLVMValueRef ints[2] = {const_i64(l, NONE_INDEX), const_i64(l, NONE_INDEX)};
  if (fn == BM_LJUST || fn == BM_RJUST || fn == BM_CENTER) {
    sub = lo_string(l, " ");
    sublen = const_i64(l, 1);
  }
  for (int k = 0, ni = 0; params[k]; k++) {
    Node *x = method_arg(n, k);
    if (!x || x->ty->kind == TY_NONE) {
      ni += params[k] == 'i' || params[k] == 'I';
      continue;
    }
    if (params[k] == 'b' || params[k] == 'B') {
      held[k] = lo_expr(l, x);
      sub = bytes_data(l, held[k]);
      sublen = lo_arr_shape(l, held[k], 0);
    } else {
      ints[ni++] = lo_expr_as(l, x, TYS(TY_I64));
    }
  }
  LLVMValueRef r;
  if (methods[fn].gives == GIVES_BYTES) {
    LLVMValueRef in = lo_alloca(l, l->mod->rtarray, "bytes.in"), out = lo_alloca(l, l->mod->rtarray, "bytes.out");
    lo_store_storage(l, TYS(TY_BYTES), in, b);
    LLVMTypeRef p[6] = {l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i64};
    LLVMValueRef a[6] = {out, const_i32(l, fn), in, sub, sublen, ints[0]};
    lo_check_call(l, lo_call_fn(l, "rt_bytes_make", l->mod->i32, p, a, 6));
    r = lo_load_storage(l, TYS(TY_BYTES), out);
  } else if (methods[fn].gives == GIVES_INT) {
    r = bytes_search(l, fn, (LLVMValueRef[]){const_i32(l, fn), bytes_data(l, b), lo_arr_shape(l, b, 0), sub, sublen,
                                             ints[0], ints[1]});
  } else {
    LLVMTypeRef p[7] = {l->mod->i32, l->mod->ptr, l->mod->i64, l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64};
    LLVMValueRef a[7] = {const_i32(l, fn), bytes_data(l, b), lo_arr_shape(l, b, 0), sub, sublen, ints[0], ints[1]};
    r = LLVMBuildICmp(l->b, LLVMIntNE, lo_call_fn(l, "rt_bytes_test", l->mod->i32, p, a, 7), const_i32(l, 0), "");
  }
  for (int k = 0; params[k]; k++)
    if (held[k]) lo_done_with(l, method_arg(n, k), held[k]);
  lo_done_with(l, recv, b);
  return r;
}

/* b.split(sep=None, maxsplit=-1): a list of new bytes */
static const Type *ty_split(Infer *in, Node *n, const Type **args) {
  Node *sep = np_arg(in, n, 1, "sep"), *maxsplit = np_arg(in, n, 2, "maxsplit");
  if (ty_failed(in) || !host_only(in, n, "bytes.split", "()")) return NULL;
  if (sep && !is_bytes(sep->ty) && sep->ty->kind != TY_NONE)
    return ty_error(in, sep, "split() argument 'sep' must be bytes or None, not %s", sep->ty->name);
  if (maxsplit && !is_intlike(maxsplit->ty))
    return ty_error(in, maxsplit, "split() argument 'maxsplit' must be an int, not %s", maxsplit->ty->name);
  return ty_list(TYS(TY_BYTES));
}

static LLVMValueRef lo_split(Lower *l, Node *n) {
  Node *recv = n->list.items[0], *sep = np_arg_node(n, 1, "sep"), *maxsplit = np_arg_node(n, 2, "maxsplit");
  LLVMValueRef b = lo_expr(l, recv), vsep = sep && sep->ty->kind != TY_NONE ? lo_expr(l, sep) : NULL;
  LLVMValueRef in = lo_alloca(l, l->mod->rtarray, "bytes.in"), out = lo_alloca(l, l->mod->ptr, "bytes.parts");
  lo_store_storage(l, TYS(TY_BYTES), in, b);
  LLVMTypeRef p[5] = {l->mod->ptr, l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i64};
  LLVMValueRef a[5] = {out, in, vsep ? bytes_data(l, vsep) : LLVMConstNull(l->mod->ptr),
                       vsep ? lo_arr_shape(l, vsep, 0) : const_i64(l, -1),
                       maxsplit ? lo_expr_as(l, maxsplit, TYS(TY_I64)) : const_i64(l, -1)};
  lo_check_call(l, lo_call_fn(l, "rt_bytes_split", l->mod->i32, p, a, 5));
  if (vsep) lo_done_with(l, sep, vsep);
  lo_done_with(l, recv, b);
  return LLVMBuildLoad2(l->b, l->mod->ptr, out, "");
}

/* sep.join(items), a typed list or a tuple of bytes: a new bytes */
static const Type *ty_join(Infer *in, Node *n, const Type **args) {
  const Type *t = args[1];
  if (!host_only(in, n, "bytes.join", "()")) return NULL;
  bool ok = t->kind == TY_LIST ? !t->elem || is_bytes(t->elem) : t->kind == TY_TUPLE;
  for (int i = 0; ok && t->kind == TY_TUPLE && i < t->nfields; i++) ok = is_bytes(t->fields[i]);
  if (!ok) return ty_error(in, n, "bytes.join() takes a list or a tuple of bytes, not %s", t->name);
  return TYS(TY_BYTES);
}

static LLVMValueRef lo_join(Lower *l, Node *n) {
  Node *recv = n->list.items[0], *items = n->list.items[1];
  LLVMValueRef b = lo_expr(l, recv), v = lo_expr(l, items), at, count;
  if (items->ty->kind == TY_TUPLE) {  /* its storage: the RtArrays one after another, as a list holds them */
    at = lo_alloca(l, lo_storage_type(l, items->ty), "bytes.items");
    lo_store_storage(l, items->ty, at, v);
    count = const_i64(l, items->ty->nfields);
  } else {
    count = lo_list_len(l, v);
    at = items->ty->elem ? lo_list_item_addr(l, items->ty->elem, v, const_i64(l, 0)) : LLVMConstNull(l->mod->ptr);
  }
  LLVMValueRef in = lo_alloca(l, l->mod->rtarray, "bytes.in"), out = lo_alloca(l, l->mod->rtarray, "bytes.out");
  lo_store_storage(l, TYS(TY_BYTES), in, b);
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->ptr, l->mod->ptr, l->mod->i64};
  lo_check_call(l, lo_call_fn(l, "rt_bytes_join", l->mod->i32, p, (LLVMValueRef[]){out, in, at, count}, 4));
  lo_done_with(l, items, v);
  lo_done_with(l, recv, b);
  return lo_load_storage(l, TYS(TY_BYTES), out);
}

/* ---------------------------------------------------------------- bytes(b) */

/* bytes(b) of a bytes (a bytes array's item, as Numba takes it): b itself,
 * as CPython gives; its other arguments (sizes, iterables) are not taken. */
static const Type *ty_bytes_call(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind != TY_BYTES)
    return ty_error(in, n, "bytes() takes a bytes in compiled code, got %s", args[0]->name);
  return TYS(TY_BYTES);
}

static LLVMValueRef lo_bytes_call(Lower *l, Node *n) { return lo_owned(l, n->list.items[0]); }

/* ---------------------------------------------------------------- the rows */

static const char *const split_kw[] = {"sep", "maxsplit", NULL};

/* BF_NONE: None is an argument's value (strip(None)) */
#define BYTES_METHOD(name, lo, hi, fn) \
  {"bytes." name, NULL, name, BK_METHOD, TY_BYTES, lo, hi, NULL, BF_NONE | BF_RAISES, fn, 0, ty_bytes_method, \
   lo_bytes_method}

const Builtin bi_bytes[] = {
  BYTES_METHOD("isascii", 0, 0, BM_ISASCII),
  BYTES_METHOD("startswith", 1, 3, BM_STARTSWITH),
  BYTES_METHOD("endswith", 1, 3, BM_ENDSWITH),
  BYTES_METHOD("strip", 0, 1, BM_STRIP),
  BYTES_METHOD("lstrip", 0, 1, BM_LSTRIP),
  BYTES_METHOD("rstrip", 0, 1, BM_RSTRIP),
  BYTES_METHOD("ljust", 1, 2, BM_LJUST),
  BYTES_METHOD("rjust", 1, 2, BM_RJUST),
  BYTES_METHOD("center", 1, 2, BM_CENTER),
  BYTES_METHOD("zfill", 1, 1, BM_ZFILL),
  BYTES_METHOD("find", 1, 3, BM_FIND),
  BYTES_METHOD("rfind", 1, 3, BM_RFIND),
  BYTES_METHOD("index", 1, 3, BM_INDEX),
  BYTES_METHOD("rindex", 1, 3, BM_RINDEX),
  BYTES_METHOD("count", 1, 3, BM_COUNT),
  BYTES_METHOD("upper", 0, 0, BM_UPPER),
  BYTES_METHOD("lower", 0, 0, BM_LOWER),
  BYTES_METHOD("isupper", 0, 0, BM_ISUPPER),
  BYTES_METHOD("islower", 0, 0, BM_ISLOWER),
  BYTES_METHOD("isdigit", 0, 0, BM_ISDIGIT),
  BYTES_METHOD("isalpha", 0, 0, BM_ISALPHA),
  BYTES_METHOD("isalnum", 0, 0, BM_ISALNUM),
  BYTES_METHOD("isspace", 0, 0, BM_ISSPACE),
  {"bytes.split", NULL, "split", BK_METHOD, TY_BYTES, 0, 2, split_kw, BF_NONE | BF_RAISES, 0, 0, ty_split, lo_split},
  {"bytes.join", NULL, "join", BK_METHOD, TY_BYTES, 1, 1, NULL, BF_LISTS | BF_RAISES, 0, 0, ty_join, lo_join},
  {"bytes", "builtins", "bytes", BK_FUNCTION, 0, 1, 1, NULL, 0, 0, 0, ty_bytes_call, lo_bytes_call},
  {"numpy.frombuffer", "numpy", "frombuffer", BK_FUNCTION, 0, 1, 4, frombuffer_kw, BF_RAISES | BF_COMPLEX, 0, 0, ty_frombuffer,
   lo_frombuffer},
  BI_END,
};
