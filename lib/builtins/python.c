/* builtins/python.c — Python's builtins (range, len, abs, min, max, int,
 * float, bool, round), NumPy's scalar types called as conversions,
 * ruchey's own functions (prange, get_thread_id, get_num_threads), and
 * calls to other ruchey functions.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtins/builtins.h"

/* ---------------------------------------------------------------- range, prange */

/* Floats are taken as Numba takes them (Python refuses them): truncated
 * toward zero, as code written for Numba relies on (saturating, so that
 * nan and inf make no undefined value). */
static const Type *ty_range(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < n->list.len; i++)
    if (!ty_is_int(args[i]) && !ty_is_float(args[i]) && args[i]->kind != TY_BOOL)
      return ty_error(in, n->list.items[i], "range() arguments must be integers, got %s", args[i]->name);
  return TYS(TY_RANGE);
}

/* A range stored in a variable (a for loop reads a call's arguments itself, stmt.c) */
static LLVMValueRef lo_range_value(Lower *l, Node *n) { return lo_range_struct(l, n); }

/* reversed(x): of a range, the range of its items backwards; of a
 * sequence (a list, an array, a str, a tuple, bytes), x[::-1], whose
 * items are x's backwards (a copy of a list: one changed during the loop
 * is read as it was). */
static const Type *ty_reversed(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0];
  if (t->kind == TY_RANGE) return t;
  bool sequence = t->kind == TY_LIST || t->kind == TY_STR || t->kind == TY_TUPLE || t->kind == TY_BYTES ||
                  (t->kind == TY_ARRAY && t->ndim > 0);
  if (!sequence) return ty_error(in, n, "reversed() of %s is not supported in compiled code (ranges, lists, arrays, "
                                 "strs, tuples and bytes are)", t->name);
  Node *x = n->list.items[0], *slice = arena_alloc(in->f->arena, sizeof(Node)), *step = arena_alloc(in->f->arena, sizeof(Node));
  *step = (Node){.kind = N_INT, .line = n->line, .col = n->col, .ival = -1};
  *slice = (Node){.kind = N_SLICE, .line = n->line, .col = n->col, .cond = step};
  *n = (Node){.kind = N_INDEX, .line = n->line, .col = n->col, .lhs = x, .rhs = slice};
  return ty_expr(in, n);
}

/* range(a, b, s) backwards: from its last item, a + (len - 1) * s, to a - s by -s */
static LLVMValueRef lo_reversed(Lower *l, Node *n) {
  LLVMValueRef start, step, count = lo_range(l, n->list.items[0], &start, &step);
  LLVMValueRef last = LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, LLVMBuildSub(l->b, count, const_i64(l, 1), ""), step, ""), "");
  LLVMValueRef parts[3] = {last, LLVMBuildSub(l->b, start, step, ""), LLVMBuildNeg(l->b, step, "")};
  LLVMValueRef v = LLVMGetUndef(lo_type(l, TYS(TY_RANGE)));
  for (unsigned i = 0; i < 3; i++) v = LLVMBuildInsertValue(l->b, v, parts[i], i, "");
  return v;
}

/* r.start, r.stop, r.step of a range (the row's ival: which) */
static const Type *ty_range_part(Infer *in, Node *n, const Type **args) {
  (void)in, (void)n, (void)args;
  return TYS(TY_I64);
}

static LLVMValueRef lo_range_part(Lower *l, Node *n) {
  LLVMValueRef part[3];
  lo_range_parts(l, n->lhs, &part[0], &part[1], &part[2]);
  return part[n->bi->ival];
}

/* The number range containment looks for: an int's, a bool's or an IntEnum
 * member's value; else NULL (a float or complex is looked at by value). */
static const Type *range_int_key(const Type *t) {
  if (t->kind == TY_INTENUM) t = ty_enum_value(t);
  return ty_is_int(t) || t->kind == TY_BOOL ? t : NULL;
}

/* v in range(...): arithmetic, not a walk (Python's and Numba's rule). A
 * float or complex is in it where it equals an int that is; what is no
 * number (a str, a datetime) never equals one: False, as in Python. */
const Type *ty_range_contains(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind == TY_ARRAY)
    return ty_error(in, n, "'in' a range needs a number to look for, got %s", args[0]->name);
  return TYS(TY_BOOL);
}

/* f (a float64) as an int64 in *x, and whether it is one exactly: a whole
 * number within int64's range (NaN and the infinities are not) */
static LLVMValueRef float_as_int(Lower *l, LLVMValueRef f, LLVMValueRef *x) {
  LLVMTypeRef ov[2] = {l->mod->i64, LLVMTypeOf(f)};
  *x = lo_intrinsic(l, "llvm.fptosi.sat", ov, 2, &f, 1);
  LLVMValueRef back = LLVMBuildSIToFP(l->b, *x, LLVMTypeOf(f), "");
  LLVMValueRef below = LLVMBuildFCmp(l->b, LLVMRealOLT, f, LLVMConstReal(LLVMTypeOf(f), 9223372036854775808.0), "");
  return LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, back, f, ""), below, "");
}

/* x in the range where it is a number that is an int (exact), within the
 * bounds for the step's sign, and on a step */
LLVMValueRef lo_range_contains(Lower *l, Node *n) {
  Node *v = n->list.items[0], *r = n->list.items[1];
  const Type *t = v->ty, *key = range_int_key(t);
  LLVMValueRef val = lo_expr(l, v), start, stop, step;
  lo_range_parts(l, r, &start, &stop, &step);  /* evaluated after v, as Python's; a zero step raises */
  if (!key && !ty_is_float(t) && !ty_is_complex(t)) {
    lo_done_with(l, v, val);
    return const_bool(l, false);
  }
  LLVMValueRef x, exact = const_bool(l, true);
  if (key) {
    x = lo_convert(l, val, key, TYS(TY_I64));
    if (ty_is_unsigned(key) && ty_bits(key) == 64)  /* beyond int64, so beyond any range */
      exact = LLVMBuildICmp(l->b, LLVMIntSGE, x, const_i64(l, 0), "");
  } else if (ty_is_complex(t)) {
    const Type *part = lo_complex_part(t);
    LLVMValueRef re = lo_convert(l, lo_complex_real(l, val), part, TYS(TY_F64));
    LLVMValueRef im = lo_convert(l, lo_complex_imag(l, val), part, TYS(TY_F64));
    exact = LLVMBuildAnd(l->b, float_as_int(l, re, &x),
                         LLVMBuildFCmp(l->b, LLVMRealOEQ, im, LLVMConstReal(LLVMTypeOf(im), 0.0), ""), "");
  } else {
    exact = float_as_int(l, lo_convert(l, val, t, TYS(TY_F64)), &x);
  }
  LLVMValueRef zero = const_i64(l, 0), forward = LLVMBuildICmp(l->b, LLVMIntSGT, step, zero, "");
  LLVMValueRef up = LLVMBuildAnd(l->b, forward, LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntSGE, x, start, ""),
                                                              LLVMBuildICmp(l->b, LLVMIntSLT, x, stop, ""), ""), "");
  LLVMValueRef down = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, step, zero, ""),
                                   LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntSLE, x, start, ""),
                                                LLVMBuildICmp(l->b, LLVMIntSGT, x, stop, ""), ""), "");
  /* on a step: the distance from start, in the step's direction, is a
   * multiple of |step|; both taken as unsigned, they are exact for any
   * int64 bounds (|INT64_MIN| too); a zero step (raised above) divides by 1 */
  LLVMValueRef distance = LLVMBuildSelect(l->b, forward, LLVMBuildSub(l->b, x, start, ""),
                                          LLVMBuildSub(l->b, start, x, ""), "");
  LLVMValueRef size = LLVMBuildSelect(l->b, forward, step, LLVMBuildNeg(l->b, step, ""), "");
  size = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, step, zero, ""), const_i64(l, 1), size, "");
  LLVMValueRef on_step = LLVMBuildICmp(l->b, LLVMIntEQ, LLVMBuildURem(l->b, distance, size, ""), zero, "");
  return LLVMBuildAnd(l->b, LLVMBuildAnd(l->b, exact, LLVMBuildOr(l->b, up, down, ""), ""), on_step, "");
}

/* ---------------------------------------------------------------- len, abs, min, max */

static const Type *ty_len(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind == TY_ARRAY || args[0]->kind == TY_TUPLE || args[0]->kind == TY_LITDICT || args[0]->kind == TY_RANGE ||
      ty_is_container(args[0]) || args[0]->kind == TY_DICTVIEW || args[0]->kind == TY_STR || args[0]->kind == TY_BYTES)
    return TYS(TY_I64);
  if (args[0]->kind == TY_YIELDS)
    return ty_error(in, n, "a generator has no len(): in compiled code for loops (zip() and enumerate() too), next(), "
                    "list(), sorted(), sum(), min() and max() walk one");
  return ty_error(in, n, "len() of %s is not supported", args[0]->name);
}

static LLVMValueRef lo_len(Lower *l, Node *n) {
  Node *a = n->list.items[0];
  if (a->ty->kind == TY_TUPLE || a->ty->kind == TY_LITDICT) return const_i64(l, a->ty->nfields);
  if (a->ty->kind == TY_RANGE) {  /* (zip's ranges, stmt.c) */
    LLVMValueRef start, step, count = lo_range(l, a, &start, &step);
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, count, const_i64(l, 0), ""), RT_ERR_OVERFLOW,
                "Python int too large to convert to C ssize_t");
    return count;
  }
  LLVMValueRef v = lo_expr(l, a);
  LLVMValueRef len = ty_is_container(a->ty) || a->ty->kind == TY_DICTVIEW ? lo_container_len(l, a->ty, v)  /* (a view: its dict's) */
                     : a->ty->kind == TY_STR ? lo_str_len(l, v)
                     : a->ty->ndim          ? lo_arr_shape(l, v, 0)
                                            : const_i64(l, 0);
  lo_done_with(l, a, v);
  return len;
}

/* abs() of a number; of an array, numpy.absolute's */
static const Type *ty_abs(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind == TY_ARRAY) return ty_elementwise(in, n, args, lo_complex_part(args[0]->elem));
  if (!ty_need_scalar(in, n, args[0], "abs()")) return NULL;
  if (ty_is_complex(args[0])) return lo_complex_part(args[0]);
  if (args[0]->kind == TY_DATETIME) return ty_error(in, n, "bad operand type for abs(): %s", args[0]->name);
  /* an int keeps its type, as in Numba and NumPy: abs(int8(-128)) wraps to -128 */
  return args[0]->kind == TY_BOOL ? TYS(TY_I64) : args[0];
}

/* v's absolute value: v of type t, the result's */
static LLVMValueRef lo_abs_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *t = n->ty->kind == TY_ARRAY ? n->ty->elem : n->ty;
  const Type *from = n->list.items[0]->ty->kind == TY_ARRAY ? n->list.items[0]->ty->elem : n->list.items[0]->ty;
  if (ty_is_complex(from)) return lo_convert(l, lo_complex_abs(l, from, v[0]), lo_complex_part(from), t);
  LLVMValueRef x = lo_convert(l, v[0], from, t);
  LLVMTypeRef ov[1] = {lo_type(l, t)};
  if (ty_is_float(t)) return lo_intrinsic(l, "llvm.fabs", ov, 1, &x, 1);
  if (!ty_is_signed(t) && !ty_is_time(t)) return x;
  LLVMValueRef args[2] = {x, const_bool(l, false)};  /* wraps: abs(NaT) is NaT */
  return lo_intrinsic(l, "llvm.abs", ov, 1, args, 2);
}

static LLVMValueRef lo_abs(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr(l, n->list.items[0]);
  return lo_abs_elem(l, n, &v);
}

/* min(a, b, ...), max(...): of numbers (their unified type), of strs, or
 * of tuples of numbers and strs of one length (their fields unified),
 * ordered as Python orders them, or by key= a function of one of them. */
static const Type *ty_minmax(Infer *in, Node *n, const Type **args) {
  if (n->list.len == 1) return ty_list_minmax(in, n, args);
  Node *key = ty_minmax_key_arg(n);
  if (ty_kwarg(n, "default"))
    return ty_error(in, n, "Cannot specify a default for %s() with multiple positional arguments", n->bi->name);
  const Type *t = NULL;
  for (int i = 0; i < n->list.len; i++) {
    Node *x = n->list.items[i];
    bool ordered = args[i]->kind == TY_STR || args[i]->kind == TY_TUPLE;
    if (ordered && !key && !ty_minmax_ordered(args[i]))
      return ty_error(in, x, "%s() of %s is not supported (numbers, strs and tuples of numbers and strs are)", n->bi->name,
                      args[i]->name);
    if (!ordered && !ty_need_scalar(in, x, args[i], n->bi->name)) return NULL;
    const Type *u = !t ? args[i] : (t->kind == TY_STR) == (args[i]->kind == TY_STR) ? ty_unify(t, args[i]) : NULL;
    if (!u || ty_is_scalar(t ? t : u) != ty_is_scalar(args[i]))
      return ty_error(in, x, "%s() cannot compare %s with %s", n->bi->name, t->name, args[i]->name);
    t = u;
  }
  return !key || ty_minmax_key(in, n, key, t) ? t : NULL;
}

/* min(x, y) / max(x, y) of two float32/float64 in GPU code: libdevice's
 * fminf/fmax as numba-cuda's (one PTX min.f32/max.f64; a NaN loses to a
 * number there, where Python's keeps the first unordered one). */
static bool gpu_float_pair(const Lower *l, const Node *n) {
  if (!l->mod->gpu || n->list.len != 2 || n->kw.len) return false;
  for (int i = 0; i < 2; i++) {
    TypeKind k = n->list.items[i]->ty->kind;
    if (k != TY_F32 && k != TY_F64) return false;
  }
  return true;
}

/* min keeps the first of equal (or unordered) values, as Python's does;
 * a str chosen (a tuple's strs) is one more reference, the result's. */
static LLVMValueRef lo_minmax(Lower *l, Node *n) {
  if (n->list.len == 1) return lo_list_minmax(l, n);
  if (gpu_float_pair(l, n))
    return lo_intrinsic2(l, n->bi->reduce_op == OP_LT ? "llvm.minnum" : "llvm.maxnum", n->ty,
                         lo_expr_as(l, n->list.items[0], n->ty), lo_expr_as(l, n->list.items[1], n->ty));
  LLVMValueRef *v = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)n->list.len);
  for (int i = 0; i < n->list.len; i++) v[i] = lo_expr_as(l, n->list.items[i], n->ty);
  MinMaxKey key;
  lo_minmax_key_begin(l, n, &key);
  const Type *kt = key.fn ? key.fn->target->ret_type : n->ty;
  LLVMValueRef r = v[0], best = key.fn ? lo_minmax_key(l, &key, v[0]) : v[0];
  for (int i = 1; i < n->list.len; i++) {
    LLVMValueRef k = key.fn ? lo_minmax_key(l, &key, v[i]) : v[i];
    LLVMValueRef better = lo_compare_values(l, n->bi->reduce_op, k, kt, best, kt);
    r = LLVMBuildSelect(l->b, better, v[i], r, "");
    best = LLVMBuildSelect(l->b, better, k, best, "");
  }
  lo_minmax_key_end(l, &key);
  if (ty_has_arrays(n->ty)) {
    lo_refcount(l, n->ty, r, true);
    for (int i = 0; i < n->list.len; i++) lo_done_with(l, n->list.items[i], v[i]);
  }
  return r;
}

/* divmod(a, b): (a // b, a % b) of two numbers, as Python's (floored;
 * ZeroDivisionError unless error_model="numpy"). */
static const Type *ty_divmod(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < 2; i++)
    if (!ty_need_scalar(in, n->list.items[i], args[i], "divmod()")) return NULL;
  const Type *t = ty_promote(args[0], args[1]);  /* in 64 bits, as a // b is */
  const Type *both[2] = {t, t};
  return ty_tuple(2, both);
}

static LLVMValueRef lo_divmod(Lower *l, Node *n) {
  const Type *t = n->ty->fields[0];
  LLVMValueRef a = lo_expr_as(l, n->list.items[0], t), b = lo_expr_as(l, n->list.items[1], t);
  LLVMValueRef r = LLVMBuildInsertValue(l->b, LLVMGetUndef(lo_type(l, n->ty)), lo_arith(l, OP_FLOORDIV, t, a, b), 0, "");
  return LLVMBuildInsertValue(l->b, r, lo_arith(l, OP_MOD, t, a, b), 1, "");
}

/* pow(x, y) is x ** y, its types and errors those of the operator;
 * pow(b, e, m) of ints is b ** e % m computed modulo m, as Python's */
static const Type *ty_pow(Infer *in, Node *n, const Type **args) {
  if (n->list.len == 3) {
    for (int i = 0; i < 3; i++)
      if (!ty_is_int(args[i]) && args[i]->kind != TY_BOOL)
        return ty_error(in, n->list.items[i], "pow() 3rd argument not allowed unless all arguments are integers "
                        "(got %s)", args[i]->name);
      else if (args[i]->kind == TY_U64)  /* (computed in int64: past 2**63 it would be another number) */
        return ty_error(in, n->list.items[i], "pow() with a modulus takes int64 values in compiled code, not uint64");
    return TYS(TY_I64);
  }
  Node *x = n->list.items[0], *y = n->list.items[1];
  *n = (Node){.kind = N_BINOP, .op = OP_POW, .line = n->line, .col = n->col, .lhs = x, .rhs = y};
  return ty_expr(in, n);
}

static LLVMValueRef lo_pow_mod(Lower *l, Node *n) {
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64};
  LLVMValueRef a[4] = {lo_alloca(l, l->mod->i64, "powmod")};
  for (int i = 0; i < 3; i++) a[1 + i] = lo_expr_as(l, n->list.items[i], TYS(TY_I64));
  lo_check_call(l, lo_call_fn(l, "rt_int_powmod", l->mod->i32, p, a, 4));
  return LLVMBuildLoad2(l->b, l->mod->i64, a[0], "");
}

/* ---------------------------------------------------------------- conversions */

/* int(x) of an integer keeps its width and sign, as Numba's typing does
 * (an array made of it has that dtype); of anything else an int64. */
static const Type *ty_int(Infer *in, Node *n, const Type **args) {
  const Type *a = ty_scalar_of_0d(in, n->list.items[0], args[0]);
  if (a && ty_is_int(a)) return a;
  if (a && a->kind == TY_STR) return TYS(TY_I64);
  if (a && ty_is_time(a)) return ty_time_int(in, n, a);
  return a && ty_need_scalar(in, n, a, "int()") ? TYS(TY_I64) : NULL;
}

static LLVMValueRef lo_int(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  if (x->ty->kind == TY_STR) return lo_str_to_number(l, n);
  if (ty_is_float(x->ty)) return lo_float_to_int(l, x->ty, lo_expr(l, x));
  if (ty_is_time(x->ty)) return lo_time_int(l, lo_expr(l, x));
  return lo_expr_as(l, x, n->ty);
}

/* float(x) is a float64, but in code written for Numba a float32's is the
 * float32 itself, as Numba types it (kikuchipy's float32 pattern divided by
 * float(imax - imin) of float32s stays float32 there), and in a kernel or
 * device function a float16's the float16, as numba-cuda types it */
static const Type *ty_float(Infer *in, Node *n, const Type **args) {
  const Type *a = ty_scalar_of_0d(in, n->list.items[0], args[0]);
  if (a && a->kind == TY_STR) return TYS(TY_F64);
  bool numba = in->opts && in->opts->numba_code, cuda = numba && (in->opts->kernel || in->opts->device);
  if (a && (a->kind == TY_F32 || (a->kind == TY_F16 && cuda)) && numba) return a;
  return a && ty_need_scalar(in, n, a, "float()") ? TYS(TY_F64) : NULL;
}

/* bool(x): a number's truth, or a str's, a container's or an array's as a
 * condition reads it (a list literal is a list: the row's BF_LISTS) */
static const Type *ty_bool(Infer *in, Node *n, const Type **args) {
  if (!ty_is_scalar(args[0]) && !ty_truth_of(in, n->list.items[0], "bool()")) return NULL;
  return ty_need_scalar(in, n, n->list.items[0]->ty, "bool()") ? TYS(TY_BOOL) : NULL;
}

/* operator.index(x): an integer as it is, a bool as an int; Python's
 * TypeError for anything else */
static const Type *ty_index(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind == TY_BOOL) return TYS(TY_I64);
  if (ty_is_int(args[0])) return args[0];
  return ty_error(in, n, "'%s' object cannot be interpreted as an integer", args[0]->name);
}

/* numpy.float32(seq) of a tuple, a list or an array: NumPy's array of
 * that dtype, the call made numpy.array(seq, numpy.float32). */
static const Type *ty_cast_sequence(Infer *in, Node *n, const Type *seq) {
  Node *dtype = arena_alloc(in->f->arena, sizeof(Node));
  *dtype = (Node){.kind = N_DTYPE, .line = n->line, .col = n->col, .ival = n->ival};
  Node **items = arena_alloc(in->f->arena, 2 * sizeof(Node *));
  items[0] = n->list.items[0];
  items[1] = dtype;
  const Type *args[2] = {seq, ty_expr(in, dtype)};
  if (!args[1]) return NULL;
  n->list.items = items;
  n->list.len = 2;
  n->bi = bi_named("numpy.array");
  return n->bi->type(in, n, args);
}

/* numpy.float32(x) and the like: the node's ival is the type's kind. A
 * 0-d array converts its element (float(x), int(x) too). */
static const Type *ty_cast(Infer *in, Node *n, const Type **args) {
  if (n->bi == bi_named("a NumPy scalar type") &&
      (args[0]->kind == TY_TUPLE || args[0]->kind == TY_LIST || (args[0]->kind == TY_ARRAY && args[0]->ndim > 0)))
    return ty_cast_sequence(in, n, args[0]);
  const Type *a = ty_scalar_of_0d(in, n->list.items[0], args[0]);
  if (a && ty_is_complex(a) && !ty_is_complex(TYS(n->ival)))
    return ty_error(in, n, "cannot convert %s to %s: take its .real or abs()", a->name, TYS(n->ival)->name);
  return a && ty_need_scalar(in, n, a, "conversion") ? TYS(n->ival) : NULL;
}

static LLVMValueRef lo_convert_call(Lower *l, Node *n) { return lo_expr_as(l, n->list.items[0], n->ty); }

/* type(x)(v): v as x's type, as numpy.float32(v) for a float32 x; x is
 * evaluated for its effects alone. */
/* type(p)(a, b, ...) of a named tuple p (the list: the items, then p): a
 * new one of p's class, the node made the named tuple of the items, as
 * Point(a, b) is (p itself is only typed: a variable, or assigned first). */
static const Type *named_tuple_of_type(Infer *in, Node *n, const Type *t) {
  int nitems = n->list.len - 1;
  Node *x = n->list.items[nitems];
  if (x->kind != N_VAR) return ty_error(in, x, "type(x)(...) of a named tuple needs x a variable: assign it first");
  if (nitems != t->nfields)
    return ty_error(in, n, "%s() takes %d arguments, got %d", t->names[t->nfields], t->nfields, nitems);
  n->kind = N_TUPLE;
  n->bi = NULL;
  n->callee = (void *)t->callee;
  n->kw_names = (const char **)t->names;
  n->list.len = nitems;
  return ty_expr(in, n);
}

/* type(p)(a, b, ...): more or fewer than one argument, of a named tuple p. */
static const Type *ty_type_of_construct(Infer *in, Node *n, const Type **args) {
  const Type *t = args[n->list.len - 1];
  if (t->kind != TY_TUPLE || !t->callee)
    return ty_error(in, n, "type(x)(...) takes one argument, the value to convert to x's type, unless x is a named "
                    "tuple (x is %s)", t->name);
  return named_tuple_of_type(in, n, t);
}

static const Type *ty_type_of_call(Infer *in, Node *n, const Type **args) {
  if (args[1]->kind == TY_TUPLE && args[1]->callee) return named_tuple_of_type(in, n, args[1]);
  if (!ty_is_scalar(args[1]))
    return ty_error(in, n->list.items[1], "type(x)(v) is supported where x is a number or a bool, not %s",
                    args[1]->name);
  n->ival = args[1]->kind;
  return ty_cast(in, n, args);
}

static LLVMValueRef lo_type_of_call(Lower *l, Node *n) {
  Node *x = n->list.items[1];
  if (x->kind != N_VAR) lo_done_with(l, x, lo_expr(l, x));
  return lo_convert_call(l, n);
}

/* type(x) as a value: x's type as a dtype (numpy.empty(n, type(x))). */
static const Type *ty_type_value(Infer *in, Node *n, const Type **args) {
  if (!ty_is_scalar(args[0]))
    return ty_error(in, n, "type(x) is supported where x is a number or a bool, not %s", args[0]->name);
  return ty_dtype(args[0]);
}

static LLVMValueRef lo_type_value(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  if (x->kind != N_VAR) lo_done_with(l, x, lo_expr(l, x));
  return LLVMGetUndef(l->mod->i8);  /* a dtype has no value at run time */
}

/* What the frontend found compiled code cannot do (a call, a global's
 * value): its error, raised where typed (never, in a branch pruned on a
 * constant). */
static const Type *ty_error_where_typed(Infer *in, Node *n, const Type **args) {
  (void)args;
  return ty_error(in, n, "%s", n->str);
}

/* isinstance(x, classes): known from x's type (the frontend read the
 * classes, n->data). Of a variable or a constant, the call becomes the constant, so
 * that an if on it prunes the branch not taken, as Numba's does; an
 * Optional is refused, as Numba refuses it (test `is None` first). */
/* isinstance(x, list) or isinstance(x, typed.List) of a list x, one of
 * them named: Numba's reflected list and typed.List are types of their
 * own, ruchey's one list type, so whether x was made as a typed.List is
 * read from the list at run time (RtList.typed), and the call is no
 * constant that typing prunes a branch by. */
static bool list_class_at_run_time(const IsClasses *c, const Type *t) {
  return t->kind == TY_LIST && (c->lists == 1 || c->lists == 2);
}

static bool is_instance(const IsClasses *c, const Type *t) {
  bool yes = (c->kinds >> t->kind) & 1;
  for (int i = 0; i < c->n; i++) yes |= c->types[i] == t;
  return yes;
}

static const Type *ty_isinstance(Infer *in, Node *n, const Type **args) {
  const IsClasses *c = n->data;
  Node *x = n->list.items[0];
  const Type *t = x->kind == N_UNWRAP ? x->lhs->ty : ty_maybe_none(in, x);  /* an Optional as it is */
  if (!t) return NULL;
  if (t->kind == TY_OPTIONAL)
    return ty_error(in, n, "isinstance() cannot take an Optional value (%s): test it with `is None` first", t->name);
  if (list_class_at_run_time(c, t)) return TYS(TY_BOOL);
  bool yes = is_instance(c, t);
  /* (a None argument reads as None written out; a constant is literal_unroll's item written out) */
  bool plain = x->kind == N_INT || x->kind == N_FLOAT || x->kind == N_BOOL || x->kind == N_STRING;
  if (x->kind == N_VAR || x->kind == N_NONE || plain) ty_become_bool(n, yes);
  else n->ival = yes;  /* an expression: evaluated, then the constant */
  return TYS(TY_BOOL);
}

int ty_isinstance_of(const Node *n, const Type *t) {
  if (n->kind != N_CALL || !n->bi || n->bi->type != ty_isinstance || t->kind == TY_OPTIONAL) return -1;
  return list_class_at_run_time(n->data, t) ? -1 : is_instance(n->data, t);
}

static LLVMValueRef lo_isinstance(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef v = lo_expr(l, x), r = LLVMConstInt(l->mod->i1, (unsigned long long)n->ival, 0);
  if (list_class_at_run_time(n->data, x->ty)) {
    const IsClasses *c = n->data;
    r = lo_list_made_typed(l, v);
    if (c->lists == 1) r = LLVMBuildNot(l->b, r, "");
  }
  lo_done_with(l, x, v);
  return r;
}

static LLVMValueRef lo_float(Lower *l, Node *n) {
  return n->list.items[0]->ty->kind == TY_STR ? lo_str_to_number(l, n) : lo_convert_call(l, n);
}

/* ---------------------------------------------------------------- round */

/* round(x) is an int; round(x, ndigits) keeps x's type. The latter, with
 * integer division inside, is its own row: no loop runs it with its
 * errors deferred. */
static const Type *ty_round(Infer *in, Node *n, const Type **args) {
  if (!ty_need_scalar(in, n, args[0], "round()")) return NULL;
  if (n->list.len == 1) return TYS(TY_I64);
  if (!ty_is_int(args[1])) return ty_error(in, n->list.items[1], "round() ndigits must be an integer");
  n->bi = bi_named("round digits");
  return ty_is_float(args[0]) ? args[0] : ty_promote(args[0], args[0]);
}

/* round(x, nd) of a float on the CPU: CPython's correctly rounded answer,
 * from the runtime; a finite x rounded past the largest double raises. */
static LLVMValueRef round_float_digits_exact(Lower *l, Node *x, const Type *t, LLVMValueRef nd) {
  const Type *d = TYS(TY_F64);
  LLVMValueRef v = lo_expr_as(l, x, d);
  LLVMTypeRef params[2] = {l->mod->f64, l->mod->i64};
  LLVMValueRef r = lo_call_fn(l, "rt_round_digits", l->mod->f64, params, (LLVMValueRef[]){v, nd}, 2);
  LLVMValueRef inf = lo_fconst(l, d, INFINITY);
  lo_raise_if(l, LLVMBuildAnd(l->b, fcmp(l, LLVMRealOEQ, lo_intrinsic1(l, "llvm.fabs", d, r), inf),
                              fcmp(l, LLVMRealOLT, lo_intrinsic1(l, "llvm.fabs", d, v), inf), ""),
              RT_ERR_OVERFLOW, "rounded value too large to represent");
  return lo_convert(l, r, d, t);
}

/* round(x, nd) of a float in a kernel or device function (on either
 * backend), and in code written for Numba (numba_code), as numba-cuda and
 * Numba round it: halves to even at the digit of x scaled by a power of
 * ten (not always CPython's answer near a half: pandas-ta's cumulative
 * round(x, 8) follows Numba's); values too large to have digits there come
 * back unchanged. Past 22 digits the power is split as they split it
 * (10**(nd-22), then 1e22), so that it does not overflow. numba-cuda
 * scales a float32 in double (0.3425f to 3 digits is 0.343), Numba in
 * float32 (0.342). */
static LLVMValueRef round_float_digits(Lower *l, Node *x, const Type *t, LLVMValueRef nd) {
  bool cuda = l->mod->gpu || l->opts->kernel || l->opts->device;
  if (!cuda && !l->opts->numba_code) return round_float_digits_exact(l, x, t, nd);
  const Type *w = cuda ? TYS(TY_F64) : t;
  LLVMValueRef v = lo_expr_as(l, x, w);
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, nd, const_i64(l, 0), "");
  LLVMValueRef mag = LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, nd, ""), nd, "");
  LLVMValueRef split = LLVMBuildAnd(l->b, LLVMBuildNot(l->b, neg, ""), LLVMBuildICmp(l->b, LLVMIntSGT, nd, const_i64(l, 22), ""), "");
  mag = LLVMBuildSelect(l->b, split, LLVMBuildSub(l->b, nd, const_i64(l, 22), ""), mag, "");
  LLVMValueRef p2 = LLVMBuildSelect(l->b, split, lo_fconst(l, w, 1e22), lo_fconst(l, w, 1.0), "");
  LLVMValueRef p = lo_intrinsic2(l, "llvm.pow", w, lo_fconst(l, w, 10.0), LLVMBuildSIToFP(l->b, mag, lo_type(l, w), ""));
  LLVMValueRef scaled = LLVMBuildFMul(l->b, LLVMBuildFMul(l->b, v, p, ""), p2, "");
  LLVMValueRef up = LLVMBuildFDiv(l->b, LLVMBuildFDiv(l->b, lo_intrinsic1(l, "llvm.roundeven", w, scaled), p2, ""), p, "");
  LLVMValueRef down = LLVMBuildFMul(l->b, lo_intrinsic1(l, "llvm.roundeven", w, LLVMBuildFDiv(l->b, v, p, "")), p, "");
  LLVMValueRef r = LLVMBuildSelect(l->b, neg, down, up, "");
  LLVMValueRef finite = fcmp(l, LLVMRealOLT, lo_intrinsic1(l, "llvm.fabs", w, r), lo_fconst(l, w, INFINITY));
  return lo_convert(l, LLVMBuildSelect(l->b, finite, r, v, ""), w, t);
}

/* round(x, nd) of an int, nd negative: to a multiple of 10**-nd, halves to even. */
static LLVMValueRef round_int_digits(Lower *l, Node *x, LLVMValueRef nd) {
  LLVMValueRef v = lo_expr_as(l, x, TYS(TY_I64));
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, nd, const_i64(l, 0), "");
  LLVMValueRef p = lo_int_pow(l, TYS(TY_I64), const_i64(l, 10),
                              LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, nd, ""), const_i64(l, 0), ""));
  LLVMValueRef q = lo_int_divmod(l, OP_FLOORDIV, TYS(TY_I64), v, p);
  LLVMValueRef r = LLVMBuildSub(l->b, v, LLVMBuildMul(l->b, q, p, ""), "");
  LLVMValueRef twice = LLVMBuildMul(l->b, r, const_i64(l, 2), "");
  LLVMValueRef above = LLVMBuildICmp(l->b, LLVMIntSGT, twice, p, "");
  LLVMValueRef half_odd = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, twice, p, ""),
                                       LLVMBuildTrunc(l->b, q, l->mod->i1, ""), "");
  q = LLVMBuildSelect(l->b, LLVMBuildOr(l->b, above, half_odd, ""), LLVMBuildAdd(l->b, q, const_i64(l, 1), ""), q, "");
  return LLVMBuildMul(l->b, q, p, "");
}

/* round(x): to the nearest int, halves to even */
static LLVMValueRef lo_round(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  if (n->list.len == 1) {
    if (!ty_is_float(x->ty)) return lo_expr_as(l, x, TYS(TY_I64));
    return lo_float_to_int(l, x->ty, lo_intrinsic1(l, "llvm.roundeven", x->ty, lo_expr(l, x)));
  }
  LLVMValueRef nd = lo_expr_as(l, n->list.items[1], TYS(TY_I64));
  return ty_is_float(n->ty) ? round_float_digits(l, x, n->ty, nd) : round_int_digits(l, x, nd);
}

/* ---------------------------------------------------------------- the thread pool */

static const Type *ty_pool_query(Infer *in, Node *n, const Type **args) {
  if (ty_in_cuda(in))
    return ty_error(in, n, "%s() is not available in CUDA kernels: use cuda.grid() and the like", n->bi->name);
  return TYS(TY_I64);
}

/* set_num_threads(n), as Numba's in compiled code: the count the calling
 * thread's later parallel loops use */
static const Type *ty_set_num_threads(Infer *in, Node *n, const Type **args) {
  if (ty_in_cuda(in))
    return ty_error(in, n, "set_num_threads() is not available in CUDA kernels");
  if (!ty_is_int(args[0]))
    return ty_error(in, n, "The number of threads specified must be an integer, got %s", args[0]->name);
  return TYS(TY_NONE);
}

static LLVMValueRef lo_set_num_threads(Lower *l, Node *n) {
  LLVMValueRef count = lo_expr_as(l, n->list.items[0], TYS(TY_I64));
  LLVMValueRef st = lo_call_fn(l, "rt_set_num_threads", l->mod->i32, &l->mod->i64, &count, 1);
  LLVMBasicBlockRef fail = new_block(l, "set_num_threads.fail"), ok = new_block(l, "set_num_threads.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, const_i32(l, RT_OK), ""), fail, ok);
  position(l, fail);
  lo_raise_status(l, st);
  position(l, ok);
  return LLVMGetUndef(l->mod->i8);
}

/* set_parallel_chunksize(n), as Numba's in compiled code: the chunksize
 * of the calling thread's later parallel loops; returns the one before */
static const Type *ty_set_chunksize(Infer *in, Node *n, const Type **args) {
  if (ty_in_cuda(in))
    return ty_error(in, n, "set_parallel_chunksize() is not available in CUDA kernels");
  if (!ty_is_int(args[0])) return ty_error(in, n, "The parallel chunksize must be an integer, got %s", args[0]->name);
  return TYS(TY_I64);
}

static LLVMValueRef lo_set_chunksize(Lower *l, Node *n) {
  LLVMValueRef size = lo_expr_as(l, n->list.items[0], TYS(TY_I64));
  LLVMValueRef old = lo_call_fn(l, "rt_set_chunksize", l->mod->i64, &l->mod->i64, &size, 1);
  LLVMBasicBlockRef fail = new_block(l, "set_chunksize.fail"), ok = new_block(l, "set_chunksize.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, old, const_i64(l, 0), ""), fail, ok);
  position(l, fail);
  lo_raise_status(l, const_i32(l, RT_ERR_VALUE));
  position(l, ok);
  return old;
}

static LLVMValueRef lo_get_chunksize(Lower *l, Node *n) {
  return lo_call_fn(l, "pool_get_chunksize", l->mod->i64, NULL, NULL, 0);
}

static LLVMValueRef lo_thread_id(Lower *l, Node *n) {
  return lo_call_fn(l, "pool_thread_id", l->mod->i64, NULL, NULL, 0);
}

static LLVMValueRef lo_num_threads(Lower *l, Node *n) {
  return lo_call_fn(l, "pool_get_num_threads", l->mod->i64, NULL, NULL, 0);
}

/* ---------------------------------------------------------------- calls to ruchey functions */

/* A compiled function named where a callee's explicit signature takes a
 * first-class function (FunctionType): the function typed for that
 * signature, its entry's address passed (lo_function_entry). */
bool ty_function_entry_for(Infer *in, Node **arg, const Type *fp) {
  const Type *f = (*arg)->ty;
  CallTarget *target = arena_alloc(in->f->arena, sizeof(CallTarget));
  Diag inner = {0};
  if (!in->opts->resolve(in->opts->resolve_ctx, (void *)f->callee, (const Type **)fp->fields, NULL, fp->nfields,
                         false, target, &inner))
    return ty_error(in, *arg, "%s cannot be passed as %s:\n%s", f->name, fp->name, inner.msg) != NULL;
  const Type *ret = target->func ? target->func->ret_type : NULL;
  if (target->self || !ret || (ret != fp->elem && !(ty_is_scalar(ret) && ty_is_scalar(fp->elem) &&
                                                    (!ty_is_complex(ret) || ty_is_complex(fp->elem)))))
    return ty_error(in, *arg, "%s returns %s, not the %s of %s", f->name,
                    target->func && target->func->ret_type ? target->func->ret_type->name : "a type not known yet",
                    fp->elem->name, fp->name) != NULL;
  Node *wrap = arena_alloc(in->f->arena, sizeof(Node));
  *wrap = (Node){.kind = N_CALL, .line = (*arg)->line, .col = (*arg)->col, .bi = bi_named("a compiled function's entry"),
                 .target = target, .ty = fp};
  *arg = wrap;
  return true;
}

static bool function_entries(Infer *in, Node *n, const Type **args, const CallTarget *target) {
  for (int i = 0; i < n->list.len; i++) {
    const Type *want = target->func->param_types ? target->func->param_types[i] : NULL;
    if (args[i]->kind == TY_FUNCTION && want && want->kind == TY_FUNCPTR) {
      if (!ty_function_entry_for(in, &n->list.items[i], want)) return false;
      args[i] = want;
    } else if (args[i]->kind == TY_FUNCS && want && want->kind == TY_FUNCPTR) {
      if (!ty_funcs_entry_for(in, &n->list.items[i], want)) return false;
      args[i] = want;
    }
  }
  return true;
}

static const Type *ty_function_entry(Infer *in, Node *n, const Type **args) { return n->ty; }

/* literal_unroll(t) and literally(x) outside what reads them before typing: t, x */
LLVMValueRef lo_first_argument(Lower *l, Node *n) { return lo_owned(l, n->list.items[0]); }

/* literally(x): x itself, whose value the compile must know: a constant,
 * or a parameter frozen to its argument's value. A parameter not frozen
 * yet is asked for (DIAG_LITERAL): the dispatcher compiles again with
 * the argument's value, as Numba's re-types it as a literal. */
const Node *ty_value_known(Infer *in, Node *call, const Node *x, bool *asked) {
  const Node *c = ty_constant(in, x);
  *asked = false;
  if (c) return c;
  if (x->kind == N_VAR && x->var < in->f->nparams && !(in->opts->frozen && in->opts->frozen[x->var])) {
    if (!ty_failed(in)) *in->diag = (Diag){.kind = DIAG_LITERAL, .line = call->line, .col = call->col,
                                           .literal_params = 1ull << x->var};
    *asked = true;
  }
  return NULL;
}

static const Type *ty_literally(Infer *in, Node *n, const Type **args) {
  bool asked;
  if (ty_value_known(in, n, n->list.items[0], &asked)) return args[0];
  if (asked) return NULL;
  return ty_error(in, n, "Invalid use of non-Literal type in literally(%s): its value must be known when the "
                  "function is compiled (a constant, or a parameter of the function)", args[0]->name);
}

/* A called function's literally() asks for the values of its parameters
 * in params that the call does not give as constants: where the call
 * passes parameters of this function, this function is asked for them in
 * turn (its caller compiles it again with their values frozen). */
static const Type *literal_request(Infer *in, Node *n, uint64_t params) {
  uint64_t own = 0;
  for (int i = 0; i < n->list.len && i < 64; i++) {
    if (!(params >> i & 1)) continue;
    const Node *a = n->list.items[i];
    if (a->kind != N_VAR || a->var >= in->f->nparams || (in->opts->frozen && in->opts->frozen[a->var]))
      return ty_error(in, a, "the called function takes literally() of this argument, or sizes a local or shared "
                      "array with it: its value must be known when the function is compiled (a constant, or a "
                      "parameter of this function)");
    own |= 1ull << a->var;
  }
  if (!own) return ty_error(in, n, "the called function asks for the value of an argument it is not given");
  if (!ty_failed(in)) *in->diag = (Diag){.kind = DIAG_LITERAL, .line = n->line, .col = n->col, .literal_params = own};
  return NULL;
}

/* A call into a recursive cycle whose return type is still unknown on the
 * last pass: an error its callers in the cycle may wait out (DIAG_PENDING). */
static const Type *pending_recursion(Infer *in, const Node *n, const char *fmt, const char *inner) {
  if (ty_failed(in)) return NULL;
  ty_error(in, n, fmt, inner);
  in->diag->kind = DIAG_PENDING;
  return NULL;
}

/* The type a recursive call to this function takes its result as: an
 * explicit signature's, or that of an earlier typing of it (its recursive
 * calls took another then), or else the one from the returns typed so
 * far, in this pass or the one before. */
static const Type *self_call_type(Infer *in, const Node *n) {
  if (in->opts->declared_ret) return in->opts->declared_ret;
  if (in->opts->recursion_ret) return in->opts->recursion_ret;
  const Type *so_far = in->ret ? in->ret : in->f->ret_type;
  if (so_far && (in->returned_none || in->returns_none) && so_far->kind != TY_NONE)
    return ty_unify(TYS(TY_NONE), so_far);  /* None on another path: the function returns an Optional */
  if (so_far) return so_far;
  /* shap's tree walks: bare returns only; else None until the returns of values are typed */
  if (in->returned_none || in->returns_none || ty_returns_nothing(in->f)) return TYS(TY_NONE);
  if (in->final)
    return ty_error(in, n, "cannot type infer runaway recursion: the type of this recursive call is unknown: "
                    "return a value on a non-recursive path before recursing");
  return NULL;
}

/* t, the type a recursive call on the last pass takes callee's result as
 * before that is final: noted, for the extension to type callee again
 * where its return type comes out otherwise. */
static const Type *recursed_as(const Infer *in, Func *callee, const Type *t) {
  if (!in->final || !t) return t;
  const Type *before = callee->recursed_as, *u = before ? ty_unify(before, t) : t;
  if (before && before != t) callee->recursed_varies = true;
  callee->recursed_as = u ? u : t;
  return t;
}

/* A call's argument as a constant the callee may be compiled for: what
 * ty_constant finds, or a tuple of such constants (a shape, (4, 8), that a
 * device function sizes a shared array with), made anew of the constants
 * themselves (the callee reads none of the caller's variables). */
static const Node *call_constant(Infer *in, const Node *a) {
  const Node *c = ty_constant(in, a);
  for (int hops = 0; !c && a && a->kind == N_VAR && in->only_value && hops < 64; hops++) a = in->only_value[a->var];
  if (c || !a || a->kind != N_TUPLE || !a->list.len) return c;
  Node *t = arena_alloc(in->f->arena, sizeof(Node));
  *t = *a;
  t->list.items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)a->list.len);
  for (int i = 0; i < a->list.len; i++)
    if (!(t->list.items[i] = (Node *)call_constant(in, a->list.items[i]))) return NULL;
  return t;
}

/* The extension compiles the callee for these argument types (or says it
 * is this function, recursively). */
static const Type *ty_jit_call(Infer *in, Node *n, const Type **args) {
  if (!in->opts || !in->opts->resolve) return ty_error(in, n, "calls to other functions are not available here");
  int nargs = n->list.len, room = (n->op > nargs ? n->op : nargs) + 1;  /* (a spread binds the callee's n->op - 1 and *rest) */
  const Type **bound = arena_alloc(in->f->arena, sizeof(Type *) * (size_t)room);
  if (n->op && (nargs = ty_spread_args(in, n, args, bound)) < 0) return NULL;
  const Node **consts = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)room);  /* (zeroed: no constants) */
  for (int i = 0; !n->op && i < nargs; i++) {
    const Node *a = n->list.items[i];
    /* a module: the callee is compiled for it; an omitted argument's None: an overload's typer sees None */
    consts[i] = a->kind == N_MODULE || (a->kind == N_NONE && a->defaulted) ? a : call_constant(in, a);
  }
  CallTarget *target = arena_alloc(in->f->arena, sizeof(CallTarget));
  Diag inner = {0};
  if (!in->opts->resolve(in->opts->resolve_ctx, n->callee, n->op ? bound : args, consts, nargs, ty_in_cuda(in), target,
                         &inner)) {
    if (inner.kind == DIAG_LITERAL) return literal_request(in, n, inner.literal_params);
    if (inner.kind == DIAG_PENDING)  /* typed again on the last pass; until then, what its returns gave so far */
      return in->final ? pending_recursion(in, n, "in the function called here:\n%s", inner.msg) : target->ret_type;
    if (inner.kind == DIAG_TYPING && inner.msg[0])
      return ty_error(in, n, "in the function called here:\n%s", inner.msg);
    return ty_error(in, n, "%s", inner.msg[0] ? inner.msg : "the called function cannot be compiled");
  }
  n->target = target;
  if (!n->op && target->func && !function_entries(in, n, args, target)) return NULL;
  if (target->barrier) in->f->barrier = true;
  if (target->draws) in->f->draws = true;
  if (target->grid_sync) in->f->grid_sync = true;
  if (!target->self) {
    if (!target->ret_type && in->final)
      return pending_recursion(in, n, "%s", "cannot type infer runaway recursion: the type of this mutually "
                               "recursive call is unknown: return a value on a non-recursive path of the functions "
                               "it calls");
    return target->cycle ? recursed_as(in, target->func, target->ret_type) : target->ret_type;
  }
  return recursed_as(in, in->f, self_call_type(in, n));
}

/* Whether an argument of type have may be passed where a first-class
 * function takes want, as Numba converts it: numbers to numbers (a
 * complex to a complex only), an array to one of the same items and
 * dimensions whose layout it has. */
static bool funcptr_arg_fits(const Type *have, const Type *want) {
  if (have == want) return true;
  if (ty_is_scalar(have) && ty_is_scalar(want)) return !ty_is_complex(have) || ty_is_complex(want);
  return have->kind == TY_ARRAY && want->kind == TY_ARRAY && have->elem == want->elem && have->ndim == want->ndim &&
         (want->layout == 'A' || want->layout == have->layout) && (want->readonly || !have->readonly);
}

/* f(args) where f holds a first-class function (a FunctionType
 * parameter): its signature types the call, whatever function it holds
 * at run time, which is called through its address (lo_funcptr_call). */
static const Type *ty_funcptr_call(Infer *in, Node *n, const Type **args) {
  const Type *f = ty_expr(in, n->lhs);
  if (!f) return NULL;
  if (ty_in_cuda(in) || (in->opts && in->opts->gpu_cc))
    return ty_error(in, n, "a call through %s is not supported in CUDA code", f->name);
  if (n->kw.len) return ty_error(in, n, "a call through %s takes its arguments by position", f->name);
  if (n->list.len != f->nfields)
    return ty_error(in, n, "mismatch of arguments number: %d vs %d (%s)", n->list.len, f->nfields, f->name);
  for (int i = 0; i < f->nfields; i++)
    if (!funcptr_arg_fits(args[i], f->fields[i]))
      return ty_error(in, n, "mismatch of argument types: %s vs %s (argument %d of %s)", args[i]->name,
                      f->fields[i]->name, i + 1, f->name);
  return f->elem;
}

/* The error of a call through a value of type f that is no function. */
static const Type *not_a_function(Infer *in, const Node *n, const Type *f) {
  if (n->lhs->kind != N_VAR) return ty_error(in, n, "the callee is not a function: it is %s", f->name);
  return ty_error(in, n, "'%s' is not a function: it holds %s", in->f->var_names[n->lhs->var], f->name);
}

/* Whether a call through a value of type f goes as one of several
 * functions does: f is one of several, or a function a call gave (g(c)(x),
 * the call evaluated first, for its effects). */
static bool called_as_one_of(const Node *n, const Type *f) {
  return f->kind == TY_FUNCS || (f->kind == TY_FUNCTION && n->lhs->kind == N_CALL);
}

/* The __call__ registered for a package's value type f (its typing
 * template's, clifford's MultiVector(2)), or NULL. */
static void *value_callee(Infer *in, const Type *f) {
  bool value = f->kind == TY_TUPLE && f->callee;  /* (a jitclass's __call__ is Python's alone, as Numba's) */
  return value && in->opts && in->opts->find_member ? in->opts->find_member(in->opts->resolve_ctx, f, "__call__", false)
                                                   : NULL;
}

/* n made a call of the ruchey function callee, receiver before its
 * arguments, bound as Python binds them. */
static const Type *receiver_call(Infer *in, Node *n, void *callee, Node *receiver) {
  Node **items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)(n->list.len + 1));
  items[0] = receiver;
  for (int i = 0; i < n->list.len; i++) items[i + 1] = n->list.items[i];
  n->list = (NodeList){items, n->list.len + 1};
  n->lhs = NULL;
  n->callee = callee;
  n->bi = bi_named("a ruchey function");
  Diag d = {0};  /* its keywords and defaults (and *args), bound by its typing function's parameters */
  if (in->opts->bind_call && !in->opts->bind_call(in->opts->resolve_ctx, callee, n, &d)) return ty_error(in, n, "%s", d.msg);
  const Type **types = arena_alloc(in->f->arena, sizeof(Type *) * (size_t)(n->list.len ? n->list.len : 1));
  for (int i = 0; i < n->list.len; i++)
    if (!(types[i] = ty_expr(in, n->list.items[i]))) return NULL;
  return ty_jit_call(in, n, types);
}

/* v(args) where v's type has a __call__ registered: the call made a call
 * of that ruchey function, v first; else v is no function. */
static const Type *value_call(Infer *in, Node *n, const Type *f, const Type **args) {
  void *callee = value_callee(in, f);
  if (!callee || n->op) return not_a_function(in, n, f);
  (void)args;  /* typed again once bound */
  return receiver_call(in, n, callee, n->lhs);
}

/* m(args) where m is a jitclass's method as a value (obj.method handed to
 * this function): a call of the method, its object (m.__self__) first. */
static const Type *bound_call(Infer *in, Node *n, const Type *f) {
  if (n->op) return ty_error(in, n, "%s is called with *args, which a method as a value does not take", f->name);
  return receiver_call(in, n, (void *)f->callee, ty_bound_self(in, n->lhs));
}

/* v(x, *args) of the same: the receiver joins the packed arguments, (v,)
 * + (x,) + args, bound to the __call__'s parameters as a direct call with
 * *args is. */
static const Type *value_spread_call(Infer *in, Node *n, const Type *f) {
  void *callee = value_callee(in, f);
  if (!callee) return not_a_function(in, n, f);
  Node **self = arena_alloc(in->f->arena, sizeof(Node *));
  self[0] = n->lhs;
  Node *first = arena_alloc(in->f->arena, sizeof(Node)), *packed = arena_alloc(in->f->arena, sizeof(Node));
  *first = (Node){.kind = N_TUPLE, .line = n->line, .col = n->col, .list = {self, 1}};
  *packed = (Node){.kind = N_BINOP, .line = n->line, .col = n->col, .op = OP_ADD, .lhs = first, .rhs = n->list.items[0]};
  n->list.items[0] = packed;
  n->lhs = NULL;
  Diag d = {0};
  if (!in->opts->bind_call || !in->opts->bind_call(in->opts->resolve_ctx, callee, n, &d))
    return ty_error(in, n, "%s", d.msg[0] ? d.msg : "this call cannot be bound");
  n->bi = bi_named("a ruchey function");  /* bound as a direct call with *args is */
  return ty_expr(in, n);
}

/* f(args) where f is a variable holding a compiled function (a parameter
 * a dispatcher was passed to, or a lambda's value): the call is to the
 * function its type names, compiled into this one as any call. */
static const Type *ty_value_call(Infer *in, Node *n, const Type **args) {
  const Type *f = ty_expr(in, n->lhs);
  if (!f) return NULL;
  if (f->kind == TY_DTYPE && ty_is_scalar(f->elem) && !ty_is_time(f->elem) && n->list.len == 1 && !n->op) {
    n->bi = bi_named("a NumPy scalar type");  /* dtype = numpy.float32; dtype(x) */
    n->ival = f->elem->kind;
    return ty_cast(in, n, args);
  }
  if (f->kind == TY_FUNCPTR && n->bi == bi_named("a function value")) {  /* typed by its signature from now on */
    n->bi = bi_named("a call through a function pointer");
    return ty_funcptr_call(in, n, args);
  }
  if (called_as_one_of(n, f)) return ty_funcs_call(in, n, args);  /* one of several, chosen at run time */
  if (f->kind == TY_BOUND) return bound_call(in, n, f);
  if (f->kind != TY_FUNCTION) return value_call(in, n, f, args);
  bool bound_already = n->callee == f->callee;  /* (again on the next pass: *args would be packed twice) */
  n->callee = (void *)f->callee;
  if (!n->op && !bound_already && in->opts && in->opts->bind_call) {  /* keywords and defaults, bound now f's callee is known */
    Diag d = {0};
    if (!in->opts->bind_call(in->opts->resolve_ctx, n->callee, n, &d)) return ty_error(in, n, "%s", d.msg);
    const Type **bound = arena_alloc(in->f->arena, sizeof(Type *) * (size_t)(n->list.len ? n->list.len : 1));
    for (int i = 0; i < n->list.len; i++)
      if (!(bound[i] = ty_expr(in, n->list.items[i]))) return NULL;
    args = bound;
  }
  return ty_jit_call(in, n, args);
}

/* f(x, *args) where f is a variable holding a compiled function: the
 * tuple (x,) + args gives its arguments, one each, by position, then the
 * function's *args and defaults, as a direct call's (bound once f's type
 * names the function: its defaults join the call). */
static const Type *ty_value_spread_call(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind != TY_TUPLE) return ty_error(in, n, "argument after * must be a tuple, not %s", args[0]->name);
  const Type *f = ty_expr(in, n->lhs);
  if (!f) return NULL;
  if (called_as_one_of(n, f)) return ty_funcs_call(in, n, args);
  if (f->kind != TY_FUNCTION) return value_spread_call(in, n, f);
  if (n->callee != f->callee) {
    Diag d = {0};
    if (!in->opts || !in->opts->bind_call) return ty_error(in, n, "calls to other functions are not available here");
    if (!in->opts->bind_call(in->opts->resolve_ctx, (void *)f->callee, n, &d)) return ty_error(in, n, "%s", d.msg);
  }
  const Type **bound = arena_alloc(in->f->arena, sizeof(Type *) * (size_t)n->list.len);
  for (int i = 0; i < n->list.len; i++)
    if (!(bound[i] = ty_expr(in, n->list.items[i]))) return NULL;
  return ty_jit_call(in, n, bound);
}

/* literal_unroll(t) outside a for loop's iterable (where the loop is
 * unrolled before typing: analysis/unroll.c) is t itself, as Numba's
 * (len(literal_unroll(l)) of a list l too). */
static const Type *ty_literal_unroll(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind != TY_TUPLE && args[0]->kind != TY_LIST)
    return ty_error(in, n, "literal_unroll() takes a tuple or a list in compiled code, got %s", args[0]->name);
  return args[0];
}


/* A @vectorize ufunc's function: on numbers a call; on arrays a ufunc,
 * fused into the array expression around it, the function typed for the
 * arrays' element types (the extension picks the ufunc's loop for them). */
static const Type *ty_ufunc_jit_call(Infer *in, Node *n, const Type **args) {
  const Type *elems[64];
  bool arrays = false;
  for (int i = 0; i < n->list.len; i++) {
    elems[i] = elem_of(args[i]);
    arrays |= args[i]->kind == TY_ARRAY;
  }
  Node *out = ty_kwarg(n, "out");  /* (the frontend's, after the bound arguments) */
  NodeList kw = n->kw;
  n->kw.len -= out != NULL;
  const Type *ret = ty_jit_call(in, n, elems);
  n->kw = kw;
  if (!ret || (!arrays && !out)) return ret;
  if (ret->kind == TY_INTENUM) ret = ret->elem;  /* an IntEnum member: its int, as the ufunc's loop */
  if (!ty_is_scalar(ret)) return ty_error(in, n, "a ufunc's function must return a number or a bool");
  return ty_ufunc_out(in, n, ty_elementwise(in, n, args, ret));
}

/* ---------------------------------------------------------------- hash */

/* hash(x) equal to CPython's hash of the same value (as Numba's is):
 * numbers as Python/pyhash.c hashes them (an integral float as its int,
 * a NaN as 0 where CPython hashes the object), a str with the
 * interpreter's own key, a tuple from its items' hashes; a datetime64 or
 * a timedelta64 its count of units, as Numba's (NumPy 2.2 hashes them as
 * datetime objects, which Numba does not follow). */
static bool hashable(const Type *t) {
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (!hashable(t->fields[i])) return false;
  return t->kind == TY_TUPLE || t->kind == TY_STR || t->kind == TY_BYTES || t->kind == TY_BOOL || ty_is_int(t) || ty_is_float(t) ||
         ty_is_complex(t) || ty_is_time(t);
}

static const Type *ty_hash(Infer *in, Node *n, const Type **args) {
  if (ty_in_cuda(in)) return ty_error(in, n, "hash() is not supported in CUDA kernels and device functions");
  if (!hashable(args[0]))
    return ty_error(in, n, "hash() of %s is not supported in compiled code (numbers, bools, str, bytes, datetime64, "
                    "timedelta64 and tuples of them are)", args[0]->name);
  return TYS(TY_I64);
}

static LLVMValueRef hash_of(Lower *l, LLVMValueRef v, const Type *t) {
  LLVMTypeRef i64 = l->mod->i64, ptr = l->mod->ptr;
  if (t->kind == TY_STR) return lo_call_fn(l, "rt_str_python_hash", i64, &ptr, &v, 1);
  if (t->kind == TY_BYTES) {
    LLVMValueRef s = lo_alloca(l, lo_storage_type(l, t), "bytes.h");
    lo_store_storage(l, t, s, v);
    return lo_call_fn(l, "rt_bytes_python_hash", i64, &ptr, &s, 1);
  }
  if (t->kind == TY_TUPLE) {
    LLVMTypeRef row = LLVMArrayType(i64, (unsigned)t->nfields);
    LLVMValueRef hashes = lo_alloca(l, row, "hashes");
    for (int i = 0; i < t->nfields; i++) {
      LLVMValueRef h = hash_of(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), t->fields[i]);
      LLVMBuildStore(l->b, h, LLVMBuildGEP2(l->b, row, hashes, (LLVMValueRef[]){const_i64(l, 0), const_i64(l, i)}, 2, ""));
    }
    LLVMTypeRef p[2] = {ptr, i64};
    return lo_call_fn(l, "rt_tuple_hash", i64, p, (LLVMValueRef[]){hashes, const_i64(l, t->nfields)}, 2);
  }
  if (ty_is_complex(t)) {  /* Objects/complexobject.c: real + 1000003 * imag, wrapping */
    const Type *part = lo_complex_part(t);
    LLVMValueRef re = hash_of(l, lo_complex_real(l, v), part), im = hash_of(l, lo_complex_imag(l, v), part);
    LLVMValueRef h = LLVMBuildAdd(l->b, re, LLVMBuildMul(l->b, im, const_i64(l, 1000003), ""), "");
    return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, h, const_i64(l, -1), ""), const_i64(l, -2), h, "");
  }
  /* A timedelta64 without a unit equals every unit's, so that no one hash fits it: NumPy 2.2 refuses to hash
   * one, and so does Numba under it (ValueError when called); under older NumPy both hash its count. */
  if (t->kind == TY_TIMEDELTA && t->unit == TU_GENERIC && rt_numpy_version >= 202)
    lo_raise_if(l, const_bool(l, true), RT_ERR_VALUE, "Can't hash generic timedelta64");
  if (ty_is_time(t))  /* its count, -1 taken as -2 as CPython's hashes never are -1 */
    return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, v, const_i64(l, -1), ""), const_i64(l, -2), v, "");
  const Type *as = ty_is_float(t) ? TYS(TY_F64) : ty_is_unsigned(t) ? TYS(TY_U64) : TYS(TY_I64);
  LLVMValueRef bits = lo_to_bits(l, lo_convert(l, v, t, as), as);
  LLVMTypeRef p[2] = {l->mod->i32, i64};
  return lo_call_fn(l, "rt_number_hash", i64, p, (LLVMValueRef[]){const_i32(l, (int)as->kind), bits}, 2);
}

static LLVMValueRef lo_hash(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef v = lo_expr(l, x), h = hash_of(l, v, x->ty);
  lo_done_with(l, x, v);
  return h;
}

/* ---------------------------------------------------------------- the rows */

/* hasattr(x, "name"): answered by x's type at compile time, as Numba does:
 * its NumPy and Python attributes and methods, a record's or a named
 * tuple's fields. The call becomes the constant, so that a branch on it
 * is pruned (`if hasattr(x, "shape"): ...` for an array and a number). */
static bool has_member(const Type *t, const char *name) {
  /* what every Python object has from object (dir(object())), a hashable one's __hash__ or an unhashable
   * one's None: hasattr() of them is true whatever the value (getattr() of them stays unsupported) */
  static const char *const of_object[] = {"__class__", "__delattr__", "__dir__", "__doc__", "__eq__", "__format__",
                                          "__ge__", "__getattribute__", "__gt__", "__hash__", "__init__",
                                          "__init_subclass__", "__le__", "__lt__", "__ne__", "__new__", "__reduce__",
                                          "__reduce_ex__", "__repr__", "__setattr__", "__sizeof__", "__str__",
                                          "__subclasshook__"};
  for (size_t i = 0; i < sizeof of_object / sizeof *of_object; i++)
    if (!strcmp(name, of_object[i])) return true;
  if (t->kind == TY_RECORD || t->kind == TY_CLASS || (t->kind == TY_TUPLE && t->callee && t->names))
    for (int i = 0; i < t->nfields; i++)
      if (!strcmp(t->names[i], name)) return true;
  return bi_member(t->kind, BK_ATTRIBUTE, name) || bi_member(t->kind, BK_METHOD, name);
}

static const Type *ty_hasattr(Infer *in, Node *n, const Type **args) {
  Node *name = n->list.items[1];
  if (name->kind != N_STRING)
    return ty_error(in, name, "hasattr(): the attribute's name must be a constant string in compiled code");
  if (args[0]->kind == TY_CLASS)
    return ty_error(in, n, "hasattr() of a jitclass instance is not supported in compiled code");
  ty_become_bool(n, has_member(args[0], name->str));
  return TYS(TY_BOOL);
}

/* getattr(x, "name") is x.name, resolved by x's type at compile time as
 * Numba resolves it; getattr(x, "name", default) is the default where x's
 * type has no such member (hasattr's test). The call becomes what it
 * chose, in place. */
static const Type *ty_getattr(Infer *in, Node *n, const Type **args) {
  Node *x = n->list.items[0], *name = n->list.items[1];
  if (name->kind != N_STRING)
    return ty_error(in, name, "getattr(): the attribute's name must be a constant string in compiled code");
  bool has = has_member(args[0], name->str);
  if (n->list.len == 3 && !has) {
    *n = *n->list.items[2];
    return ty_expr(in, n);
  }
  *n = (Node){.kind = N_ATTR, .line = n->line, .col = n->col, .lhs = x, .str = name->str};
  const Type *t = ty_expr(in, n);
  if (!t && !has && in->diag->kind == DIAG_TYPING)  /* Python's AttributeError, as Numba raises it */
    snprintf(in->diag->msg, sizeof in->diag->msg, "%c'%s' has no attribute '%s'", DIAG_ATTRIBUTE_MARK, args[0]->name,
             n->str);
  return t;
}

/* A name neither local nor global, read where typing reaches it. */
static const Type *ty_undefined_name(Infer *in, Node *n, const Type **args) {
  return ty_error(in, n, "name '%s' is not defined", n->str);
}

static const char *const minmax_kw[] = {"key", "default", NULL};
static const char *const out_kw[] = {"out", NULL};  /* a @vectorize ufunc's (the frontend binds its function's own) */

#define FUNCTION(name, module, path, lo, hi, flags, type, lower) \
  {name, module, path, BK_FUNCTION, 0, lo, hi, NULL, flags, 0, 0, type, lower}
/* x.__hash__() (and getattr(x, "__hash__")()): hash(x), as Numba's */
#define HASH_METHOD(kind) \
  {"__hash__", NULL, "__hash__", BK_METHOD, kind, 0, 0, NULL, BF_PURE | BF_COMPLEX, 0, 0, ty_hash, lo_hash}

const Builtin bi_python[] = {
  FUNCTION("range", "builtins", "range", 1, 3, BF_RANGE, ty_range, lo_range_value),
  FUNCTION("prange", "ruchey", "prange", 1, 3, BF_RANGE | BF_PARALLEL, ty_range, lo_range_value),
  FUNCTION("reversed", "builtins", "reversed", 1, 1, BF_PURE | BF_CHEAP | BF_STRINGS | BF_LISTS | BF_COMPLEX, ty_reversed,
           lo_reversed),
  {"range.start", NULL, "start", BK_ATTRIBUTE, TY_RANGE, 0, 0, NULL, BF_PURE | BF_RAISES, 0, 0, ty_range_part, lo_range_part},
  {"range.stop", NULL, "stop", BK_ATTRIBUTE, TY_RANGE, 0, 0, NULL, BF_PURE | BF_RAISES, 1, 0, ty_range_part, lo_range_part},
  {"range.step", NULL, "step", BK_ATTRIBUTE, TY_RANGE, 0, 0, NULL, BF_PURE | BF_RAISES, 2, 0, ty_range_part, lo_range_part},
  FUNCTION("hasattr", "builtins", "hasattr", 2, 2, BF_PURE | BF_CHEAP | BF_COMPLEX | BF_STRINGS, ty_hasattr, NULL),
  FUNCTION("getattr", "builtins", "getattr", 2, 3, BF_COMPLEX | BF_STRINGS | BF_NONE, ty_getattr, NULL),  /* (a default of None) */
  FUNCTION("hash", "builtins", "hash", 1, 1, BF_PURE | BF_COMPLEX | BF_STRINGS, ty_hash, lo_hash),  /* hash("b"): a str */
  HASH_METHOD(TY_BOOL), HASH_METHOD(TY_I8), HASH_METHOD(TY_I16), HASH_METHOD(TY_I32), HASH_METHOD(TY_I64),
  HASH_METHOD(TY_U8), HASH_METHOD(TY_U16), HASH_METHOD(TY_U32), HASH_METHOD(TY_U64), HASH_METHOD(TY_F32),
  HASH_METHOD(TY_F64), HASH_METHOD(TY_C64), HASH_METHOD(TY_C128), HASH_METHOD(TY_STR), HASH_METHOD(TY_BYTES),
  HASH_METHOD(TY_TUPLE), HASH_METHOD(TY_DATETIME), HASH_METHOD(TY_TIMEDELTA),
  FUNCTION("len", "builtins", "len", 1, 1, BF_PURE | BF_CHEAP | BF_COMPLEX | BF_STRINGS, ty_len, lo_len),
  {"abs", "builtins", "abs", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0, ty_abs, lo_abs,
   lo_abs_elem},
  /* BF_STRINGS: max("a", s) of a constant str; BF_NONE: default=None */
  {"min", "builtins", "min", BK_FUNCTION, 0, 1, 64, minmax_kw, BF_PURE | BF_CHEAP | BF_STRINGS | BF_NONE, 0, OP_LT,
   ty_minmax, lo_minmax},
  {"max", "builtins", "max", BK_FUNCTION, 0, 1, 64, minmax_kw, BF_PURE | BF_CHEAP | BF_STRINGS | BF_NONE, 0, OP_GT,
   ty_minmax, lo_minmax},
  FUNCTION("int", "builtins", "int", 1, 1, BF_PURE | BF_RAISES | BF_CHEAP | BF_STRINGS, ty_int, lo_int),
  FUNCTION("float", "builtins", "float", 1, 1, BF_PURE | BF_CHEAP | BF_STRINGS, ty_float, lo_float),
  FUNCTION("bool", "builtins", "bool", 1, 1, BF_PURE | BF_CHEAP | BF_COMPLEX | BF_LISTS, ty_bool, lo_convert_call),
  FUNCTION("operator.index", NULL, NULL, 1, 1, BF_PURE | BF_CHEAP, ty_index, lo_convert_call),
  FUNCTION("round", "builtins", "round", 1, 2, BF_PURE | BF_RAISES | BF_CHEAP, ty_round, lo_round),
  FUNCTION("divmod", "builtins", "divmod", 2, 2, BF_PURE | BF_RAISES | BF_CHEAP, ty_divmod, lo_divmod),
  FUNCTION("pow", "builtins", "pow", 2, 3, BF_PURE | BF_RAISES | BF_CHEAP | BF_COMPLEX, ty_pow, lo_pow_mod),
  FUNCTION("round digits", NULL, NULL, 2, 2, BF_RAISES, ty_round, lo_round),
  FUNCTION("a NumPy scalar type", NULL, NULL, 1, 1, BF_PURE | BF_CHEAP | BF_COMPLEX, ty_cast, lo_convert_call),
  FUNCTION("type(x)", NULL, NULL, 1, 1, BF_PURE | BF_CHEAP | BF_COMPLEX, ty_type_value, lo_type_value),
  FUNCTION("an error where typed", NULL, NULL, 0, 0, 0, ty_error_where_typed, NULL),
  FUNCTION("an undefined name", NULL, NULL, 0, 0, 0, ty_undefined_name, NULL),
  FUNCTION("isinstance", NULL, NULL, 1, 1, BF_PURE | BF_CHEAP | BF_COMPLEX | BF_NONE, ty_isinstance, lo_isinstance),
  FUNCTION("type(x)(v)", NULL, NULL, 2, 2, BF_PURE | BF_CHEAP | BF_COMPLEX, ty_type_of_call, lo_type_of_call),
  /* (typing makes it a named tuple, lowered as one: the lowerer is never reached) */
  FUNCTION("type(x)(...)", NULL, NULL, 1, 64, BF_PURE | BF_COMPLEX, ty_type_of_construct, lo_type_of_call),
  FUNCTION("get_thread_id", "ruchey", "get_thread_id", 0, 0, BF_PURE | BF_CHEAP, ty_pool_query, lo_thread_id),
  FUNCTION("get_num_threads", "ruchey", "get_num_threads", 0, 0, BF_PURE | BF_CHEAP, ty_pool_query, lo_num_threads),
  FUNCTION("set_num_threads", "ruchey", "set_num_threads", 1, 1, BF_RAISES | BF_STATE, ty_set_num_threads,
           lo_set_num_threads),
  FUNCTION("get_parallel_chunksize", "ruchey", "get_parallel_chunksize", 0, 0, BF_CHEAP, ty_pool_query,
           lo_get_chunksize),
  FUNCTION("set_parallel_chunksize", "ruchey", "set_parallel_chunksize", 1, 1, BF_RAISES | BF_STATE,
           ty_set_chunksize, lo_set_chunksize),
  FUNCTION("a ruchey function", NULL, NULL, 0, 256, BF_RAISES | BF_VARIES | BF_COMPLEX, ty_jit_call, lo_jit_call),
  FUNCTION("literal_unroll", "ruchey", "literal_unroll", 1, 1, BF_COMPLEX, ty_literal_unroll, lo_first_argument),
  FUNCTION("literally", "ruchey", "literally", 1, 1, BF_PURE | BF_CHEAP | BF_STRINGS | BF_LITERAL, ty_literally,
           lo_first_argument),
  FUNCTION("a function value", NULL, NULL, 0, 64, BF_RAISES | BF_VARIES | BF_COMPLEX | BF_NONE | BF_KEYWORDS, ty_value_call, lo_jit_call),
  FUNCTION("a function value with *args", NULL, NULL, 1, 64, BF_RAISES | BF_VARIES | BF_COMPLEX, ty_value_spread_call,
           lo_jit_call),
  FUNCTION("one of several functions", NULL, NULL, 0, 64, BF_RAISES | BF_VARIES | BF_COMPLEX | BF_NONE | BF_KEYWORDS,
           ty_funcs_call, lo_funcs_call),
  FUNCTION("a call through a function pointer", NULL, NULL, 0, 64, BF_RAISES | BF_VARIES | BF_COMPLEX | BF_KEYWORDS,
           ty_funcptr_call, lo_funcptr_call),
  FUNCTION("a compiled function's entry", NULL, NULL, 0, 0, BF_PURE | BF_CHEAP, ty_function_entry, lo_function_entry),
  FUNCTION("one of several functions' entries", NULL, NULL, 1, 64, BF_PURE | BF_CHEAP, ty_function_entry, lo_funcs_entry),
  {"a ruchey ufunc", NULL, NULL, BK_FUNCTION, 0, 1, 64, out_kw, BF_RAISES | BF_VARIES | BF_COMPLEX, 0, 0, ty_ufunc_jit_call,
   lo_jit_call, lo_jit_call_elem},
  BI_END,
};
