/* builtins/reduce.c — NumPy's reductions in compiled code: sum, prod,
 * mean, std, var, min, max, ptp, argmin, argmax, any, all and their nan*
 * forms, count_nonzero and average, as functions and as array methods
 * (statistics.c has the others: cumsum, diff, median, quantiles ...).
 *
 * A reduction is one or more passes over the elements of each output
 * (mean: a sum; var: a sum, then a sum of squared deviations). A pass
 * reads its elements from a source:
 *   - one value (a number, a 0-d array);
 *   - a row in memory (a contiguous array, a 1-d view, one row of an axis
 *     reduction), or an elementwise expression read by flat index where
 *     its arrays are contiguous (np.sum(a * b) makes no temporary): vector
 *     lanes, merged at the end; a float sum is NumPy's pairwise sum (8
 *     accumulators in blocks of 128, halves above), so that it is as
 *     accurate as NumPy's and, on the same order, bit for bit the same;
 *   - a stream in C order of any other array or expression, gathered into
 *     a buffer of 8192 elements read as rows (as NumPy's buffered loop);
 *   - the columns of several adjacent outputs of an axis reduction whose
 *     axis is not the innermost in memory (np.sum(a, axis=0) of a C
 *     array), one lane per output, added in order as NumPy adds them.
 * The results' dtypes, the errors of empty reductions and the treatment of
 * NaN are NumPy 2's; so are the divisions of mean and var (in float64).
 */
#include <math.h>
#include <stdio.h>

#include "builtins/reduce.h"

#define LANES 16        /* elements a step of a one-output pass reads */
#define ARG_LANES 8     /* ... of argmin/argmax (their values, indices and NaN flags fill the registers) */
#define PAIRWISE 8      /* NumPy's pairwise sum: 8 accumulators ... */
#define PAIRWISE_BLOCK 128 /* ... over blocks of at most 128 elements */
#define BUFFER 8192     /* NumPy's buffer: elements cast or gathered at a time ... */
#define GPU_BUFFER 128  /* ... and a GPU thread's (its local memory is reserved for every thread resident) */
#define COLUMNS 32      /* adjacent outputs reduced together (more lines of memory read per step) ... */
#define FEW_COLUMNS 16  /* ... where a lane holds more than a value (min, max, argmin ...) */

/* ---------------------------------------------------------------- the reductions */

typedef enum {
  R_SUM, R_PROD, R_MEAN, R_VAR, R_STD, R_MIN, R_MAX, R_PTP, R_ARGMIN, R_ARGMAX, R_ANY, R_ALL,
  R_COUNT_NONZERO, R_NANSUM, R_NANPROD, R_NANMEAN, R_NANVAR, R_NANSTD, R_NANMIN, R_NANMAX,
  R_NANARGMIN, R_NANARGMAX, R_COUNT
} ReductionId;

/* The result's dtype from the elements' (and dtype=). */
typedef enum { RULE_SUM, RULE_MEAN, RULE_SAME, RULE_INDEX, RULE_BOOL } Rule;

typedef struct Call Call;
/* One output's result (lanes of them, for a column source) from its elements. */
typedef LLVMValueRef (*Finish)(Lower *l, const Call *c, Src *s);

typedef struct Reduction {
  Rule rule;
  Kind kind;           /* fin_value: the one pass */
  Prep prep;
  Finish finish;
  const char *empty;   /* NumPy's ValueError where an output has no elements, or NULL */
  bool f64_in_numba;   /* Numba's loop adds into a float64 (it starts from 0 or 0.0) whatever the float's width */
} Reduction;

/* A call being lowered. */
struct Call {
  const Reduction *r;
  const Type *elem;    /* the elements' type */
  const Type *res;     /* one result's type */
  LLVMValueRef ddof;   /* var, std: as float64 */
  const char *axis_error; /* NumPy's message for an axis out of bounds (average's names its argument) */
};

static const Reduction reductions[R_COUNT];

/* NumPy's AxisError, as a format of the axis (%%lld, kept for the run
 * time) and the dimensions (%d) */
const char rd_axis_error[] = "axis %%lld is out of bounds for array of dimension %d";

/* ---------------------------------------------------------------- result dtypes */

static const Type *result_dtype(Rule rule, const Type *e, const Type *dtype) {
  if (dtype && (rule == RULE_SUM || rule == RULE_MEAN)) return dtype;
  switch (rule) {
  case RULE_SUM:
    if (e->kind == TY_BOOL || (ty_is_signed(e) && e->bits < 64)) return TYS(TY_I64);
    return ty_is_unsigned(e) ? TYS(TY_U64) : e;
  case RULE_MEAN: return ty_is_float(e) || ty_is_time(e) ? e : TYS(TY_F64);
  case RULE_INDEX: return TYS(TY_I64);
  case RULE_BOOL: return TYS(TY_BOOL);
  default: return e;
  }
}

const Type *rd_sum_dtype(const Type *e, const Type *dtype) { return result_dtype(RULE_SUM, e, dtype); }
const Type *rd_mean_dtype(const Type *e) { return result_dtype(RULE_MEAN, e, NULL); }

const char rd_boolean_subtract[] =
    "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, "
    "or the logical_xor function instead";

static LLVMValueRef fin_value(Lower *l, const Call *c, Src *s);

/* Whether r along several axes is r along one of them after another (sum,
 * prod, min, max, any, all: not mean's, argmax's or count_nonzero's). */
static bool along_axes(const Reduction *r) {
  switch (r->kind) {
  case K_SUM: case K_PROD: case K_MIN: case K_MAX: return r->prep == P_NONE && r->finish == fin_value;
  case K_ANY: case K_ALL: return r->finish == fin_value;
  default: return false;
  }
}

/* axis=(i, j, ...): ints; that they are within the dimensions and differ
 * is checked at run time, as NumPy does (more of them than dimensions
 * always fails there). axis=() reduces along no axis: each element alone. */
static bool check_axes(Infer *in, Node *n, const Reduction *r, Node *axis, int ndim) {
  const Type *t = axis->ty;
  if (!along_axes(r))
    return ty_error(in, axis, "%s(): axis must be an integer in compiled code, got %s", n->bi->name, t->name) != NULL;
  for (int i = 0; i < t->nfields; i++)
    if (!ty_is_int(t->fields[i]))
      return ty_error(in, axis, "%s(): axis must be an integer or a tuple of them, got %s", n->bi->name, t->name) != NULL;
  if (t->nfields > RC_MAX_NDIM)
    return ty_error(in, axis, "%s(): more than %d axes", n->bi->name, RC_MAX_NDIM) != NULL;
  return true;
}

/* sum and mean of timedeltas: NaT where a NaT is summed, the mean's
 * division truncated as NumPy's (its timedelta / int); datetimes do not
 * add, as NumPy's add refuses them. */
static bool sums_time(Infer *in, Node *n, const Type *e, const Type *dtype) {
  if (e->kind == TY_DATETIME)
    return ty_error(in, n, "%s(): datetime64 values do not add (NumPy's add refuses two datetimes)", n->bi->name) != NULL;
  if (dtype) return ty_error(in, n, "%s(): dtype= is not supported for timedelta64 values", n->bi->name) != NULL;
  return true;
}

/* sum, mean, min, argmax ... (a, axis=None, dtype=None, ddof=0): a number,
 * or with an integer axis an array of one dimension less (of a tuple of
 * axes, that many less). */
static const Type *ty_reduce(Infer *in, Node *n, const Type **args) {
  if (!(args[0] = ty_arraylike(in, n->list.items[0], args[0]))) return NULL;  /* numpy.sum([x, y]), of a tuple or list */
  if (ty_holds_complex(args[0])) return ty_numpy_complex(in, n, args);  /* complex.c's rows, or an error */
  if (args[0]->kind == TY_ARRAY && ty_is_fixed_text(args[0]->elem)) return ty_numpy_text_reduce(in, n, args);
  const Reduction *r = &reductions[n->bi->ival];
  Node *a = n->list.items[0], *axis = bi_arg(n, 1, "axis");
  const Type *dtype;
  if (bi_none_as_default(axis)) axis = NULL;  /* a.sum(None): all axes */
  bool axes = axis && axis->ty->kind == TY_TUPLE;
  if (!bi_need_values(in, n, a) || (axes && !check_axes(in, n, r, axis, ndim_of(a->ty))) ||
      (axis && !axes && !bi_check_axis_late(in, n, axis, ndim_of(a->ty))) ||
      !bi_check_dtype(in, n, bi_arg(n, 2, "dtype"), &dtype) || !bi_check_number(in, n, ty_kwarg(n, "ddof"), "ddof"))
    return NULL;
  const Type *e = elem_of(a->ty);
  if (r->kind == K_MINMAX && e->kind == TY_BOOL) return ty_error(in, n, "%s(): %s", n->bi->name, rd_boolean_subtract);
  if (ty_is_time(e) && r->kind == K_SUM && !sums_time(in, n, e, dtype)) return NULL;
  const Type *res = result_dtype(r->rule, e, dtype);
  if (r->f64_in_numba && !axis && !dtype && e->kind == TY_F32 && in->opts && in->opts->numba_code) res = TYS(TY_F64);
  if (axis && ty_no_allocation(in))
    return ty_error(in, n, "kernels cannot allocate arrays: %s() along an axis makes one", n->bi->name);
  int gone = axes ? axis->ty->nfields : 1;  /* (more axes than dimensions: an error at run time) */
  if (!gone && ndim_of(a->ty))  /* axis=(): a converted copy, in a's order as NumPy's (order='K') */
    return ty_array(res, a->ty->ndim, np_like_layout(a->ty), false);
  return axis && ndim_of(a->ty) > gone ? ty_array(res, a->ty->ndim - gone, 'C', false) : res;
}

/* ---------------------------------------------------------------- lanes */

static int width(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? (int)LLVMGetVectorSize(t) : 1;
}

static LLVMTypeRef lanes_of(Lower *l, const Type *t, int w) {
  return w == 1 ? lo_type(l, t) : LLVMVectorType(lo_type(l, t), (unsigned)w);
}

static LLVMValueRef splat(Lower *l, LLVMValueRef v, int w) {
  if (w == 1 || width(v) == w) return v;
  if (LLVMIsConstant(v)) {
    LLVMValueRef lanes[COLUMNS];
    for (int i = 0; i < w; i++) lanes[i] = v;
    return LLVMConstVector(lanes, (unsigned)w);
  }
  LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(v), (unsigned)w);
  LLVMValueRef one = LLVMBuildInsertElement(l->b, LLVMGetUndef(vt), v, const_i32(l, 0), "");
  return LLVMBuildShuffleVector(l->b, one, LLVMGetUndef(vt), LLVMConstNull(LLVMVectorType(l->mod->i32, (unsigned)w)), "");
}

static LLVMValueRef lane(Lower *l, LLVMValueRef v, int i) {
  return width(v) == 1 ? v : LLVMBuildExtractElement(l->b, v, const_i32(l, i), "");
}

/* 0, 1, ... w-1 */
static LLVMValueRef iota(Lower *l, int w) {
  LLVMValueRef lanes[COLUMNS];
  for (int i = 0; i < w; i++) lanes[i] = const_i64(l, i);
  return w == 1 ? lanes[0] : LLVMConstVector(lanes, (unsigned)w);
}

static LLVMValueRef one_of(Lower *l, const Type *t) {
  return ty_is_float(t) ? lo_fconst(l, t, 1.0) : LLVMConstInt(lo_type(l, t), 1, 0);
}

static LLVMValueRef extreme(Lower *l, const Type *t, bool high) {
  LLVMTypeRef ty = lo_type(l, t);
  if (ty_is_float(t)) return lo_fconst(l, t, high ? INFINITY : -INFINITY);
  if (t->kind == TY_BOOL) return const_bool(l, high);
  if (!ty_is_signed(t)) return high ? LLVMConstAllOnes(ty) : LLVMConstNull(ty);
  unsigned long long max = (1ULL << (t->bits - 1)) - 1;
  return LLVMConstInt(ty, high ? max : ~max, 1);
}

static LLVMValueRef less(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (ty_is_float(t)) return LLVMBuildFCmp(l->b, LLVMRealOLT, a, b, "");
  return LLVMBuildICmp(l->b, ty_is_signed(t) ? LLVMIntSLT : LLVMIntULT, a, b, "");
}

LLVMValueRef rd_equal(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (ty_is_float(t)) return LLVMBuildFCmp(l->b, LLVMRealOEQ, a, b, "");
  return LLVMBuildICmp(l->b, LLVMIntEQ, a, b, "");
}

LLVMValueRef rd_is_nan(Lower *l, const Type *t, LLVMValueRef v) {
  if (ty_is_float(t)) return LLVMBuildFCmp(l->b, LLVMRealUNO, v, v, "");
  if (ty_is_time(t)) return LLVMBuildICmp(l->b, LLVMIntEQ, v, splat(l, const_i64(l, INT64_MIN), width(v)), "");  /* NaT */
  if (ty_is_complex(t))  /* a NaN part (NumPy's isnan of complex); a complex number, not lanes */
    return LLVMBuildFCmp(l->b, LLVMRealUNO, lo_complex_real(l, v), lo_complex_imag(l, v), "");
  return LLVMConstNull(lanes_of(l, TYS(TY_BOOL), width(v)));
}

LLVMValueRef rd_and(Lower *l, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildAnd(l->b, a, b, ""); }
LLVMValueRef rd_or(Lower *l, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildOr(l->b, a, b, ""); }
static LLVMValueRef not_(Lower *l, LLVMValueRef a) { return LLVMBuildNot(l->b, a, ""); }
LLVMValueRef rd_select(Lower *l, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(l->b, c, a, b, "");
}

/* NumPy's arithmetic on elements of type t: ints wrap, bools are logical. */
/* a complex element (never lanes of them) in NumPy's complex arithmetic */
static LLVMValueRef rd_complex_op(Lower *l, int op, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;
  LLVMValueRef r = lo_complex_binop(l, op, t, a, t, b, t);
  l->numpy_semantics = saved;
  return r;
}

LLVMValueRef rd_add(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (ty_is_complex(t)) return rd_complex_op(l, OP_ADD, t, a, b);
  if (ty_is_float(t)) return LLVMBuildFAdd(l->b, a, b, "");
  return t->kind == TY_BOOL ? rd_or(l, a, b) : LLVMBuildAdd(l->b, a, b, "");
}

LLVMValueRef rd_mul(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (ty_is_complex(t)) return rd_complex_op(l, OP_MUL, t, a, b);
  if (ty_is_float(t)) return LLVMBuildFMul(l->b, a, b, "");
  return t->kind == TY_BOOL ? rd_and(l, a, b) : LLVMBuildMul(l->b, a, b, "");
}

LLVMValueRef rd_sub(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (ty_is_complex(t)) return rd_complex_op(l, OP_SUB, t, a, b);
  if (ty_is_float(t)) return LLVMBuildFSub(l->b, a, b, "");
  return t->kind == TY_BOOL ? LLVMBuildXor(l->b, a, b, "") : LLVMBuildSub(l->b, a, b, "");
}

/* lo_convert for lanes: NumPy's casts, element by element. */
static LLVMValueRef cast_lanes(Lower *l, LLVMValueRef v, const Type *from, const Type *to) {
  int w = width(v);
  if (from == to) return v;
  if (w == 1) return lo_convert(l, v, from, to);
  LLVMTypeRef dst = lanes_of(l, to, w);
  if (to->kind == TY_BOOL)
    return ty_is_float(from) ? LLVMBuildFCmp(l->b, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "")
                             : LLVMBuildICmp(l->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
  if (from->kind == TY_BOOL) return ty_is_float(to) ? LLVMBuildUIToFP(l->b, v, dst, "") : LLVMBuildZExt(l->b, v, dst, "");
  if (ty_is_int(from) && ty_is_int(to)) return LLVMBuildIntCast2(l->b, v, dst, ty_is_signed(from), "");
  if (ty_is_int(from))
    return ty_is_signed(from) ? LLVMBuildSIToFP(l->b, v, dst, "") : LLVMBuildUIToFP(l->b, v, dst, "");
  if (ty_is_int(to)) return lo_fp_to_int(l, v, dst, ty_is_signed(to));
  return LLVMBuildFPCast(l->b, v, dst, "");
}

static LLVMValueRef sqrt_lanes(Lower *l, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return lo_intrinsic(l, "llvm.sqrt", &t, 1, &v, 1);
}

/* total / count as mean and var divide: in float64 (NumPy's count is an
 * intp), rounded to the accumulator's type. */
LLVMValueRef rd_divide(Lower *l, const Type *acc, LLVMValueRef total, LLVMValueRef count) {
  const Type *f64 = TYS(TY_F64);
  if (ty_is_complex(acc)) {  /* by count + 0j, as NumPy's complex division: in complex128 (its count is an intp) */
    const Type *c128 = TYS(TY_C128);
    LLVMValueRef c = lo_complex_make(l, c128, count, lo_fconst(l, f64, 0));
    return lo_convert(l, rd_complex_op(l, OP_DIV, c128, lo_convert(l, total, acc, c128), c), c128, acc);
  }
  LLVMValueRef q = LLVMBuildFDiv(l->b, cast_lanes(l, total, acc, f64), splat(l, count, width(total)), "");
  return cast_lanes(l, q, f64, acc);
}

int rd_item_size(const Type *t) { return ty_bits(t) / 8; }

/* The number of elements of an array value. */
static LLVMValueRef size_of(Lower *l, const Type *t, LLVMValueRef v) {
  LLVMValueRef n = const_i64(l, 1);
  for (int d = 0; d < t->ndim; d++) n = LLVMBuildMul(l->b, n, lo_arr_shape(l, v, d), "");
  return n;
}

LLVMValueRef rd_data(Lower *l, LLVMValueRef a) { return LLVMBuildExtractValue(l->b, a, 2, "data"); }

LLVMValueRef rd_byte_at(Lower *l, LLVMValueRef p, LLVMValueRef offset) {
  return LLVMBuildInBoundsGEP2(l->b, l->mod->i8, p, &offset, 1, "");
}

/* w elements of type t: from data + i*stride (bytes), or from element i of
 * contiguous memory (unit) with one vector load. */
static LLVMValueRef row_load(Lower *l, const Type *t, LLVMValueRef data, LLVMValueRef stride, bool unit,
                             LLVMValueRef i, int w) {
  LLVMTypeRef st = lo_storage_type(l, t);
  if (w > 1 && unit) {
    LLVMValueRef v = LLVMBuildLoad2(l->b, LLVMVectorType(st, (unsigned)w), LLVMBuildInBoundsGEP2(l->b, st, data, &i, 1, ""), "");
    LLVMSetAlignment(v, (unsigned)rd_item_size(t));
    return t->kind == TY_BOOL ? LLVMBuildICmp(l->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "") : v;
  }
  LLVMValueRef r = LLVMGetUndef(lanes_of(l, t, w));
  for (int j = 0; j < w; j++) {
    LLVMValueRef k = j ? LLVMBuildAdd(l->b, i, const_i64(l, j), "") : i;
    LLVMValueRef p = unit ? LLVMBuildInBoundsGEP2(l->b, st, data, &k, 1, "")
                          : rd_byte_at(l, data, LLVMBuildMul(l->b, k, stride, ""));
    LLVMValueRef x = lo_load_scalar(l, t, p);
    if (w == 1) return x;
    r = LLVMBuildInsertElement(l->b, r, x, const_i32(l, j), "");
  }
  return r;
}

/* Stores w results: at p, p + stride, ... (unit: contiguous, one vector store). */
static void store_lanes(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v, LLVMValueRef stride, bool unit) {
  int w = width(v);
  if (w > 1 && unit) {
    if (t->kind == TY_BOOL) v = LLVMBuildZExt(l->b, v, LLVMVectorType(l->mod->i8, (unsigned)w), "");
    LLVMSetAlignment(LLVMBuildStore(l->b, v, p), (unsigned)rd_item_size(t));
    return;
  }
  for (int j = 0; j < w; j++)
    lo_store_scalar(l, t, j ? rd_byte_at(l, p, LLVMBuildMul(l->b, const_i64(l, j), stride, "")) : p, lane(l, v, j));
}

/* ---------------------------------------------------------------- sources */

/* w elements from element i (a column source: element i of w outputs). */
static LLVMValueRef src_load(Lower *l, const Src *s, LLVMValueRef i, int w) {
  switch (s->kind) {
  case SRC_ONE: return s->one;
  case SRC_ROW: {
    if (!s->data2) return row_load(l, s->elem, s->data, s->stride, s->unit, i, w);
    LLVMValueRef x = row_load(l, s->raw, s->data, s->stride, true, i, w);
    LLVMValueRef y = row_load(l, s->raw2, s->data2, s->stride, true, i, w);
    return rd_mul(l, s->elem, cast_lanes(l, x, s->raw, s->elem), cast_lanes(l, y, s->raw2, s->elem));
  }
  case SRC_FLAT: {
    if (s->first) i = LLVMBuildAdd(l->b, i, s->first, "");
    LLVMValueRef r = LLVMGetUndef(lanes_of(l, s->elem, w));
    for (int j = 0; j < w; j++) {
      LLVMValueRef x = lo_element_at(l, s->elems, j ? LLVMBuildAdd(l->b, i, const_i64(l, j), "") : i);
      if (w == 1) return x;
      r = LLVMBuildInsertElement(l->b, r, x, const_i32(l, j), "");
    }
    return r;
  }
  default: {
    LLVMValueRef base = rd_byte_at(l, s->data, LLVMBuildMul(l->b, i, s->stride, ""));
    return row_load(l, s->elem, base, s->lane_stride, s->unit, const_i64(l, 0), w);
  }
  }
}

/* ---------------------------------------------------------------- passes */

static bool is_arg(Kind k) { return k >= K_ARGMIN && k <= K_NANARGMAX; }
static bool flags_nan(const Pass *p) {
  if (ty_is_time(p->acc)) return p->kind == K_SUM;  /* a NaT summed makes NaT */
  return ty_is_float(p->acc) && (p->kind == K_MIN || p->kind == K_MAX || p->kind == K_MINMAX);
}
static bool pairwise_sum(const Pass *p) { return p->kind == K_SUM && ty_is_float(p->acc); }
/* A float product is one multiplication after another in NumPy: no lanes. */
static bool in_order(const Pass *p) { return p->kind == K_PROD && ty_is_float(p->acc); }
/* NumPy casts in buffers and sums each: a float sum of cast elements is a
 * sum of sums of BUFFER elements. */
static bool casts(const Pass *p) {
  return p->prep == P_DEVIATION || p->prep == P_DEVIATION_NAN ? p->dev != p->acc : p->elem != p->acc;
}

/* NumPy's max and argmax of datetimes find NaT (INT64_MIN, which min and
 * argmin find as ints do): less one, wrapping, NaT is the greatest and
 * the others keep their order; the max is then one more. */
static bool nat_wins_max(const Pass *p) { return ty_is_time(p->elem) && (p->kind == K_MAX || p->kind == K_ARGMAX); }

static LLVMValueRef prepare(Lower *l, const Pass *p, LLVMValueRef x) {
  const Type *e = p->elem, *a = p->acc, *b = TYS(TY_BOOL);
  int w = width(x);
  switch (p->prep) {
  case P_NONE:
    if (nat_wins_max(p)) return LLVMBuildSub(l->b, x, splat(l, const_i64(l, 1), w), "");
    return cast_lanes(l, x, e, a);
  case P_NAN_ZERO: case P_NAN_ONE: {
    LLVMValueRef y = cast_lanes(l, x, e, a);
    if (!ty_is_float(e)) return y;
    LLVMValueRef fill = p->prep == P_NAN_ZERO ? LLVMConstNull(lo_type(l, a)) : one_of(l, a);
    return rd_select(l, rd_is_nan(l, e, x), splat(l, fill, w), y);
  }
  case P_TRUTH: return cast_lanes(l, cast_lanes(l, x, e, b), b, a);
  case P_NOT_NAN: return cast_lanes(l, not_(l, rd_is_nan(l, e, x)), b, a);
  default: {
    LLVMValueRef d = rd_sub(l, p->dev, cast_lanes(l, x, e, p->dev), splat(l, p->center, w));
    d = cast_lanes(l, rd_mul(l, p->dev, d, d), p->dev, a);
    if (p->prep == P_DEVIATION_NAN && ty_is_float(e)) d = rd_select(l, rd_is_nan(l, e, x), LLVMConstNull(LLVMTypeOf(d)), d);
    return d;
  }
  }
}

static LLVMValueRef load_prepared(Lower *l, const Pass *p, const Src *s, LLVMValueRef i, int w) {
  return prepare(l, p, src_load(l, s, i, w));
}

State rd_identity(Lower *l, const Pass *p, int w) {
  const Type *t = p->acc;
  State s = {NULL, NULL, NULL};
  switch (p->kind) {
  case K_SUM: case K_ANY: s.v = LLVMConstNull(lo_type(l, t)); break;
  case K_PROD: case K_ALL: s.v = one_of(l, t); break;
  case K_MIN: case K_ARGMIN: s.v = extreme(l, t, true); break;
  case K_MAX: case K_ARGMAX: s.v = extreme(l, t, false); break;
  case K_FMIN: s.v = ty_is_float(t) ? lo_fconst(l, t, NAN) : extreme(l, t, true); break;
  case K_FMAX: s.v = ty_is_float(t) ? lo_fconst(l, t, NAN) : extreme(l, t, false); break;
  case K_NANARGMIN: s.v = extreme(l, t, true); break;
  case K_NANARGMAX: s.v = extreme(l, t, false); break;
  case K_MINMAX: s.v = extreme(l, t, true); s.i = extreme(l, t, false); break;
  }
  s.v = splat(l, s.v, w);
  if (s.i) s.i = splat(l, s.i, w);
  if (is_arg(p->kind)) s.i = splat(l, const_i64(l, 0), w);
  LLVMTypeRef mask = LLVMIntTypeInContext(l->mod->c, (unsigned)t->bits);
  if (ty_is_float(t) || flags_nan(p)) s.nan = LLVMConstNull(w == 1 ? mask : LLVMVectorType(mask, (unsigned)w));
  return s;
}

/* Whether x (at a later index) replaces m as an arg* kind's value (nanarg*
 * kinds see no NaN: step replaced them). */
static LLVMValueRef arg_takes(Lower *l, Kind k, const Type *t, LLVMValueRef m, LLVMValueRef x) {
  bool min = k == K_ARGMIN || k == K_NANARGMIN;
  LLVMValueRef better = min ? less(l, t, x, m) : less(l, t, m, x);
  if (!ty_is_float(t) || k == K_NANARGMIN || k == K_NANARGMAX) return better;
  return rd_or(l, better, rd_and(l, rd_is_nan(l, t, x), not_(l, rd_is_nan(l, t, m))));  /* the first NaN */
}

/* NumPy's nanargmax reads a NaN as -inf (nanargmin: +inf), so that a NaN
 * before an equal infinity is the one found; s.nan notes, lane by lane,
 * that a number was seen (none: an all-NaN slice). */
static LLVMValueRef nan_as_loser(Lower *l, const Pass *p, State *s, LLVMValueRef x) {
  if (!ty_is_float(p->acc) || (p->kind != K_NANARGMIN && p->kind != K_NANARGMAX)) return x;
  LLVMValueRef nan = rd_is_nan(l, p->acc, x);
  s->nan = rd_or(l, s->nan, LLVMBuildSExt(l->b, not_(l, nan), LLVMTypeOf(s->nan), ""));
  return rd_select(l, nan, splat(l, extreme(l, p->acc, p->kind == K_NANARGMIN), width(x)), x);
}

/* The step of a pass: x (prepared) at index idx. With `plain`, arg* kinds
 * compare without NaN (run_row looks for the first NaN apart). */
static State step(Lower *l, const Pass *p, State s, LLVMValueRef x, LLVMValueRef idx, bool plain) {
  const Type *t = p->acc;
  switch (p->kind) {
  case K_SUM: s.v = rd_add(l, t, s.v, x); break;
  case K_PROD: s.v = rd_mul(l, t, s.v, x); break;
  case K_ANY: s.v = rd_or(l, s.v, x); break;
  case K_ALL: s.v = rd_and(l, s.v, x); break;
  case K_MIN: s.v = rd_select(l, less(l, t, x, s.v), x, s.v); break;
  case K_MAX: s.v = rd_select(l, less(l, t, s.v, x), x, s.v); break;
  case K_MINMAX:
    s.v = rd_select(l, less(l, t, x, s.v), x, s.v);
    s.i = rd_select(l, less(l, t, s.i, x), x, s.i);
    break;
  case K_FMIN: s.v = rd_select(l, rd_or(l, less(l, t, x, s.v), rd_is_nan(l, t, s.v)), x, s.v); break;
  case K_FMAX: s.v = rd_select(l, rd_or(l, less(l, t, s.v, x), rd_is_nan(l, t, s.v)), x, s.v); break;
  default: {
    bool min = p->kind == K_ARGMIN;
    x = nan_as_loser(l, p, &s, x);
    LLVMValueRef take = plain ? (min ? less(l, t, x, s.v) : less(l, t, s.v, x)) : arg_takes(l, p->kind, t, s.v, x);
    s.v = rd_select(l, take, x, s.v);
    s.i = rd_select(l, take, idx, s.i);
  }
  }
  if (flags_nan(p)) s.nan = rd_or(l, s.nan, LLVMBuildSExt(l->b, rd_is_nan(l, t, x), LLVMTypeOf(s.nan), ""));
  return s;
}

/* b's elements merged into a's (lanes, or runs of elements, of one output). */
State rd_merge(Lower *l, const Pass *p, State a, State b) {
  const Type *t = p->acc;
  State r;
  if (is_arg(p->kind)) {
    LLVMValueRef same = rd_equal(l, t, a.v, b.v);
    if (p->kind == K_ARGMIN || p->kind == K_ARGMAX) same = rd_or(l, same, rd_and(l, rd_is_nan(l, t, a.v), rd_is_nan(l, t, b.v)));
    LLVMValueRef earlier = LLVMBuildICmp(l->b, LLVMIntSLT, b.i, a.i, "");
    LLVMValueRef take = rd_or(l, arg_takes(l, p->kind, t, a.v, b.v), rd_and(l, same, earlier));
    r = (State){rd_select(l, take, b.v, a.v), rd_select(l, take, b.i, a.i), a.nan};
  } else {
    r = step(l, p, a, b.v, NULL, false);
    if (p->kind == K_MINMAX) r.i = rd_select(l, less(l, t, a.i, b.i), b.i, a.i);
  }
  if (a.nan) r.nan = rd_or(l, a.nan, b.nan);
  return r;
}

/* Lanes lo .. lo + w - 1 of v. */
static LLVMValueRef lanes(Lower *l, LLVMValueRef v, int lo, int w) {
  if (!v) return NULL;
  if (w == 1) return lane(l, v, lo);
  LLVMValueRef mask[LANES];
  for (int j = 0; j < w; j++) mask[j] = const_i32(l, lo + j);
  return LLVMBuildShuffleVector(l->b, v, LLVMGetUndef(LLVMTypeOf(v)), LLVMConstVector(mask, (unsigned)w), "");
}

/* The lanes merged into one: halves merged, as a tree. */
static State fold(Lower *l, const Pass *p, State s) {
  for (int w = width(s.v) / 2; w >= 1; w /= 2)
    s = rd_merge(l, p, (State){lanes(l, s.v, 0, w), lanes(l, s.i, 0, w), lanes(l, s.nan, 0, w)},
              (State){lanes(l, s.v, w, w), lanes(l, s.i, w, w), lanes(l, s.nan, w, w)});
  return s;
}

static LLVMValueRef nan_seen(Lower *l, State s) {
  return LLVMBuildICmp(l->b, LLVMIntNE, s.nan, LLVMConstNull(LLVMTypeOf(s.nan)), "");
}

/* A NaN seen by float min/max makes the result NaN, a NaT summed NaT. */
static State resolve(Lower *l, const Pass *p, State s) {
  if (!flags_nan(p)) return s;
  LLVMValueRef none = ty_is_time(p->acc) ? const_i64(l, INT64_MIN) : lo_fconst(l, p->acc, NAN);
  LLVMValueRef nan = splat(l, none, width(s.v)), seen = nan_seen(l, s);
  s.v = rd_select(l, seen, nan, s.v);
  if (p->kind == K_MINMAX) s.i = rd_select(l, seen, nan, s.i);
  return s;
}

LLVMValueRef rd_var(Lower *l, LLVMValueRef init, const char *name) {
  if (!init) return NULL;
  LLVMValueRef a = lo_alloca(l, LLVMTypeOf(init), name);
  LLVMBuildStore(l->b, init, a);
  return a;
}

StateVar rd_state_var(Lower *l, State s) {
  return (StateVar){rd_var(l, s.v, "acc"), rd_var(l, s.i, "acc.index"), rd_var(l, s.nan, "acc.nan")};
}

LLVMValueRef rd_load(Lower *l, LLVMValueRef a) {
  return a ? LLVMBuildLoad2(l->b, LLVMGetAllocatedType(a), a, "") : NULL;
}

State rd_state_load(Lower *l, const StateVar *sv) {
  return (State){rd_load(l, sv->v), rd_load(l, sv->i), rd_load(l, sv->nan)};
}

void rd_state_store(Lower *l, const StateVar *sv, State s) {
  LLVMBuildStore(l->b, s.v, sv->v);
  if (sv->i) LLVMBuildStore(l->b, s.i, sv->i);
  if (sv->nan) LLVMBuildStore(l->b, s.nan, sv->nan);
}

/* The end of a loop LLVM should leave as it is: its body is vectors
 * already, or it runs fewer times than a vector has lanes. */
static void end_loop(Lower *l, LoLoop *loop) { lo_loop_hints(l, lo_loop_end(l, loop), LO_UNROLL_NEVER); }

/* ------------------------------------------------ NumPy's pairwise sum */

/* A block of at most 128: fewer than 8 one by one from 0; else 8
 * accumulators from the first 8, added as ((0+1)+(2+3))+((4+5)+(6+7)),
 * then the rest one by one. */
static LLVMValueRef pairwise_block(Lower *l, const Pass *p, const Src *s, LLVMValueRef start, LLVMValueRef count) {
  const Type *t = p->acc;
  LLVMValueRef total = rd_var(l, LLVMConstNull(lo_type(l, t)), "pw.total");
  LLVMValueRef lanes_used = LLVMBuildICmp(l->b, LLVMIntSGE, count, const_i64(l, PAIRWISE), "");
  LLVMValueRef whole = rd_select(l, lanes_used, LLVMBuildAnd(l->b, count, const_i64(l, -PAIRWISE), ""), const_i64(l, 0));
  LLVMBasicBlockRef lanes = new_block(l, "pw.lanes"), rest = new_block(l, "pw.rest");
  LLVMBuildCondBr(l->b, lanes_used, lanes, rest);
  position(l, lanes);
  LLVMValueRef acc = rd_var(l, load_prepared(l, p, s, start, PAIRWISE), "pw.acc");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 1), LLVMBuildLShr(l->b, whole, const_i64(l, 3), ""), NULL, "pw.step");
  LLVMValueRef at = LLVMBuildAdd(l->b, start, LLVMBuildShl(l->b, loop.index, const_i64(l, 3), ""), "");
  LLVMBuildStore(l->b, rd_add(l, t, rd_load(l, acc), load_prepared(l, p, s, at, PAIRWISE)), acc);
  end_loop(l, &loop);
  LLVMValueRef r = rd_load(l, acc), x[PAIRWISE];
  for (int j = 0; j < PAIRWISE; j++) x[j] = lane(l, r, j);
  LLVMValueRef sum = rd_add(l, t, rd_add(l, t, rd_add(l, t, x[0], x[1]), rd_add(l, t, x[2], x[3])),
                         rd_add(l, t, rd_add(l, t, x[4], x[5]), rd_add(l, t, x[6], x[7])));
  LLVMBuildStore(l->b, sum, total);
  LLVMBuildBr(l->b, rest);
  position(l, rest);
  LoLoop each = lo_loop_begin(l, whole, count, NULL, "pw.each");
  LLVMValueRef y = load_prepared(l, p, s, LLVMBuildAdd(l->b, start, each.index, ""), 1);
  LLVMBuildStore(l->b, rd_add(l, t, rd_load(l, total), y), total);
  end_loop(l, &each);
  return rd_load(l, total);
}

/* NumPy's pairwise sum of [start, start + count): a block up to 128, else
 * the sum of the halves (the first a multiple of 8). The recursion runs on
 * a stack of (start, count, phase, left sum) in allocas. */
static LLVMValueRef pairwise(Lower *l, const Pass *p, const Src *s, LLVMValueRef start, LLVMValueRef count) {
  LLVMTypeRef t = lo_type(l, p->acc), ints = LLVMArrayType2(l->mod->i64, 64);
  LLVMValueRef from = lo_alloca(l, ints, "pw.from"), len = lo_alloca(l, ints, "pw.len");
  LLVMValueRef phase = lo_alloca(l, ints, "pw.phase"), left = lo_alloca(l, LLVMArrayType2(t, 64), "pw.left");
  LLVMValueRef sp = lo_alloca(l, l->mod->i64, "pw.sp"), ret = lo_alloca(l, t, "pw.ret");
#define AT(arr, ty, k) LLVMBuildInBoundsGEP2(l->b, ty, arr, (LLVMValueRef[]){const_i64(l, 0), k}, 2, "")
#define GET(arr, k) LLVMBuildLoad2(l->b, l->mod->i64, AT(arr, ints, k), "")
#define PUT(arr, k, v) LLVMBuildStore(l->b, v, AT(arr, ints, k))
  LLVMValueRef zero = const_i64(l, 0);
  PUT(from, zero, start);
  PUT(len, zero, count);
  PUT(phase, zero, zero);
  LLVMBuildStore(l->b, const_i64(l, 1), sp);
  LLVMBasicBlockRef top = new_block(l, "pw.top"), block = new_block(l, "pw.block"), split = new_block(l, "pw.split");
  LLVMBasicBlockRef first = new_block(l, "pw.first"), second = new_block(l, "pw.second"), both = new_block(l, "pw.both");
  LLVMBasicBlockRef deliver = new_block(l, "pw.deliver"), done = new_block(l, "pw.done");
  LLVMBuildBr(l->b, top);
  position(l, top);
  LLVMValueRef k = LLVMBuildSub(l->b, LLVMBuildLoad2(l->b, l->mod->i64, sp, ""), const_i64(l, 1), "");
  LLVMValueRef k1 = LLVMBuildAdd(l->b, k, const_i64(l, 1), ""), k2 = LLVMBuildAdd(l->b, k, const_i64(l, 2), "");
  LLVMValueRef f = GET(from, k), n = GET(len, k);
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLE, n, const_i64(l, PAIRWISE_BLOCK), ""), block, split);
  position(l, block);
  LLVMBuildStore(l->b, pairwise_block(l, p, s, f, n), ret);
  LLVMBuildStore(l->b, k, sp);
  LLVMBuildBr(l->b, deliver);
  position(l, split);
  LLVMValueRef half = LLVMBuildAnd(l->b, LLVMBuildLShr(l->b, n, const_i64(l, 1), ""), const_i64(l, -PAIRWISE), "");
  LLVMValueRef sw = LLVMBuildSwitch(l->b, GET(phase, k), both, 2);
  LLVMAddCase(sw, zero, first);
  LLVMAddCase(sw, const_i64(l, 1), second);
  position(l, first);  /* the first half */
  PUT(phase, k, const_i64(l, 1));
  PUT(from, k1, f);
  PUT(len, k1, half);
  PUT(phase, k1, zero);
  LLVMBuildStore(l->b, k2, sp);
  LLVMBuildBr(l->b, top);
  position(l, second);  /* its sum kept, the second half */
  LLVMBuildStore(l->b, LLVMBuildLoad2(l->b, t, ret, ""), AT(left, LLVMArrayType2(t, 64), k));
  PUT(phase, k, const_i64(l, 2));
  PUT(from, k1, LLVMBuildAdd(l->b, f, half, ""));
  PUT(len, k1, LLVMBuildSub(l->b, n, half, ""));
  PUT(phase, k1, zero);
  LLVMBuildStore(l->b, k2, sp);
  LLVMBuildBr(l->b, top);
  position(l, both);
  LLVMValueRef l_sum = LLVMBuildLoad2(l->b, t, AT(left, LLVMArrayType2(t, 64), k), "");
  LLVMBuildStore(l->b, rd_add(l, p->acc, l_sum, LLVMBuildLoad2(l->b, t, ret, "")), ret);
  LLVMBuildStore(l->b, k, sp);
  LLVMBuildBr(l->b, deliver);
  position(l, deliver);
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, LLVMBuildLoad2(l->b, l->mod->i64, sp, ""), zero, ""), done, top);
  position(l, done);
#undef AT
#undef GET
#undef PUT
  return LLVMBuildLoad2(l->b, t, ret, "");
}

/* Elements in a buffer: NumPy's count, whose pairwise sums ruchey's equal,
 * except on a GPU. */
static int64_t buffer_size(Lower *l) { return l->mod->gpu ? GPU_BUFFER : BUFFER; }

/* in + each of the source's elements in turn: Numba's sums (np.sum, mean,
 * var, nansum ...) are a loop adding one element after another, as its
 * nditer walks the array (memory order for a Fortran one, else C order;
 * along an axis, one slice after another), so code written for Numba adds
 * in that order, not NumPy's pairwise one. */
static LLVMValueRef sum_in_order(Lower *l, const Pass *p, const Src *s, LLVMValueRef in) {
  LLVMValueRef total = rd_var(l, in, "sum");
  LoLoop each = lo_loop_begin(l, const_i64(l, 0), s->n, NULL, "sum.each");
  LLVMBuildStore(l->b, rd_add(l, p->acc, rd_load(l, total), load_prepared(l, p, s, each.index, 1)), total);
  lo_loop_end(l, &each);
  return rd_load(l, total);
}

/* in + the pairwise sum of the source's elements (cast ones a buffer at a time). */
static LLVMValueRef float_sum(Lower *l, const Pass *p, const Src *s, LLVMValueRef in) {
  if (l->opts->numba_code) return sum_in_order(l, p, s, in);
  if (!casts(p)) return rd_add(l, p->acc, in, pairwise(l, p, s, const_i64(l, 0), s->n));
  LLVMValueRef total = rd_var(l, in, "sum"), size = const_i64(l, buffer_size(l));
  LLVMValueRef chunks = LLVMBuildSDiv(l->b, LLVMBuildAdd(l->b, s->n, const_i64(l, buffer_size(l) - 1), ""), size, "");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), chunks, NULL, "chunk");
  LLVMValueRef start = LLVMBuildMul(l->b, loop.index, size, "");
  LLVMValueRef rest = LLVMBuildSub(l->b, s->n, start, "");
  LLVMValueRef count = rd_select(l, LLVMBuildICmp(l->b, LLVMIntSLT, rest, size, ""), rest, size);
  LLVMBuildStore(l->b, rd_add(l, p->acc, rd_load(l, total), pairwise(l, p, s, start, count)), total);
  end_loop(l, &loop);
  return rd_load(l, total);
}

/* ------------------------------------------------ rows, streams, columns */

/* argmin/argmax of floats compared without NaN: where the elements' sum
 * (the probe) is NaN, the first NaN, if there is one, is the answer. */
static State first_nan(Lower *l, const Pass *p, const Src *s, State r, LLVMValueRef probe, LLVMValueRef base) {
  StateVar sv = rd_state_var(l, r);
  LLVMBasicBlockRef scan = new_block(l, "nan.scan"), found = new_block(l, "nan.found"), done = new_block(l, "nan.done");
  LLVMBuildCondBr(l->b, rd_is_nan(l, p->acc, probe), scan, done);
  position(l, scan);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), s->n, done, "nan.at");
  LLVMValueRef x = load_prepared(l, p, s, loop.index, 1);
  LLVMBasicBlockRef cont = new_block(l, "nan.next");
  LLVMValueRef i = loop.index;
  LLVMBuildCondBr(l->b, rd_is_nan(l, p->acc, x), found, cont);
  position(l, found);
  rd_state_store(l, &sv, (State){x, LLVMBuildAdd(l->b, base, i, ""), r.nan});
  LLVMBuildBr(l->b, done);
  position(l, cont);
  end_loop(l, &loop);
  return rd_state_load(l, &sv);
}

/* A row or flat source's elements merged into in; base: the index of the
 * first. Lanes of LANES elements, folded, then the rest one by one. */
State rd_run_row(Lower *l, const Pass *p, const Src *s, State in, LLVMValueRef base) {
  if (pairwise_sum(p)) {
    in.v = float_sum(l, p, s, in.v);
    return in;
  }
  bool plain = (p->kind == K_ARGMIN || p->kind == K_ARGMAX) && ty_is_float(p->acc);
  int w = in_order(p) ? 1 : is_arg(p->kind) ? ARG_LANES : LANES;
  State start = rd_identity(l, p, 1);
  LLVMValueRef whole = const_i64(l, 0), probe = plain ? lo_fconst(l, p->acc, 0) : NULL;
  if (w > 1) {
    /* an arg* kind's lanes note the step they took a value at: lane j
     * of step k is element k*w + j (a lane never taken: its first) */
    StateVar sv = rd_state_var(l, rd_identity(l, p, w));
    LLVMValueRef k = rd_var(l, splat(l, const_i64(l, 0), w), "lanes.step");
    LLVMValueRef sum = plain ? rd_var(l, splat(l, probe, w), "lanes.probe") : NULL;
    LoLoop loop = lo_loop_begin(l, const_i64(l, 0), LLVMBuildSDiv(l->b, s->n, const_i64(l, w), ""), NULL, "lanes");
    LLVMValueRef x = load_prepared(l, p, s, LLVMBuildMul(l->b, loop.index, const_i64(l, w), ""), w), at = rd_load(l, k);
    rd_state_store(l, &sv, step(l, p, rd_state_load(l, &sv), x, at, plain));
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, at, splat(l, const_i64(l, 1), w), ""), k);
    if (plain) LLVMBuildStore(l->b, LLVMBuildFAdd(l->b, rd_load(l, sum), x, ""), sum);
    end_loop(l, &loop);
    State lanes = rd_state_load(l, &sv);
    if (is_arg(p->kind)) {
      LLVMValueRef first = LLVMBuildMul(l->b, lanes.i, splat(l, const_i64(l, w), w), "");
      lanes.i = LLVMBuildAdd(l->b, LLVMBuildAdd(l->b, first, iota(l, w), ""), splat(l, base, w), "");
    }
    start = fold(l, p, lanes);
    if (plain) probe = fold(l, &(Pass){K_SUM, P_NONE, p->acc, p->acc}, (State){rd_load(l, sum)}).v;
    whole = LLVMBuildMul(l->b, LLVMBuildSDiv(l->b, s->n, const_i64(l, w), ""), const_i64(l, w), "");
  }
  StateVar tv = rd_state_var(l, start);
  LLVMValueRef sum = plain ? rd_var(l, probe, "probe") : NULL;
  LoLoop rest = lo_loop_begin(l, whole, s->n, NULL, "rest");
  LLVMValueRef x = load_prepared(l, p, s, rest.index, 1);
  rd_state_store(l, &tv, step(l, p, rd_state_load(l, &tv), x, LLVMBuildAdd(l->b, base, rest.index, ""), plain));
  if (plain) LLVMBuildStore(l->b, LLVMBuildFAdd(l->b, rd_load(l, sum), x, ""), sum);
  end_loop(l, &rest);
  State r = rd_state_load(l, &tv);
  if (plain) r = first_nan(l, p, s, r, rd_load(l, sum), base);
  return rd_merge(l, p, in, r);
}

/* The stream's buffer: one per function, buffer_size elements of up to 8 bytes. */
static LLVMValueRef stream_buffer(Lower *l) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(l->fn);
  for (LLVMValueRef i = LLVMGetFirstInstruction(entry); i; i = LLVMGetNextInstruction(i)) {
    size_t len;
    if (LLVMIsAAllocaInst(i) && !strcmp(LLVMGetValueName2(i, &len), "reduce.buffer")) return i;
  }
  LLVMValueRef b = lo_alloca(l, LLVMArrayType2(l->mod->i64, (uint64_t)buffer_size(l)), "reduce.buffer");
  LLVMSetAlignment(b, 64);
  return b;
}

typedef struct Stream {
  const Pass *p;
  const Type *elem;
  LLVMValueRef buf, k, base, limit;  /* the buffer, its fill, the index of its first, its size */
  StateVar acc;
} Stream;

static void flush(Lower *l, Stream *st, LLVMValueRef count) {
  Src row = {.kind = SRC_ROW, .elem = st->elem, .n = count, .data = st->buf, .unit = true,
             .stride = const_i64(l, rd_item_size(st->elem))};
  LLVMValueRef base = rd_load(l, st->base);
  rd_state_store(l, &st->acc, rd_run_row(l, st->p, &row, rd_state_load(l, &st->acc), base));
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, base, count, ""), st->base);
  LLVMBuildStore(l->b, const_i64(l, 0), st->k);
}

static void stream_element(Lower *l, LLVMValueRef v, void *arg) {
  Stream *st = arg;
  LLVMValueRef k = rd_load(l, st->k);
  lo_store_scalar(l, st->elem, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, st->elem), st->buf, &k, 1, ""), v);
  k = LLVMBuildAdd(l->b, k, const_i64(l, 1), "");
  LLVMBuildStore(l->b, k, st->k);
  LLVMBasicBlockRef full = new_block(l, "buffer.full"), next = new_block(l, "buffer.next");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, k, st->limit, ""), full, next);
  position(l, full);
  flush(l, st, st->limit);
  LLVMBuildBr(l->b, next);
  position(l, next);
}

/* The elements in C order, a buffer at a time (whole rows of the innermost
 * dimension where they fit, as NumPy's buffer), each buffer a row. */
static State run_stream(Lower *l, const Pass *p, const Src *s) {
  LLVMValueRef size = const_i64(l, buffer_size(l));
  LLVMValueRef fits = rd_and(l, LLVMBuildICmp(l->b, LLVMIntSGT, s->inner, const_i64(l, 0), ""),
                           LLVMBuildICmp(l->b, LLVMIntSLE, s->inner, size, ""));
  LLVMValueRef rows = LLVMBuildSDiv(l->b, size, rd_select(l, fits, s->inner, const_i64(l, 1)), "");
  LLVMValueRef limit = rd_select(l, fits, LLVMBuildMul(l->b, rows, s->inner, ""), size);
  Stream st = {p, s->elem, stream_buffer(l), rd_var(l, const_i64(l, 0), "buffer.k"), rd_var(l, const_i64(l, 0), "buffer.base"),
               limit, rd_state_var(l, rd_identity(l, p, 1))};
  lo_elements_each(l, s->elems, stream_element, &st);
  flush(l, &st, rd_load(l, st.k));
  return rd_state_load(l, &st.acc);
}

/* Adjacent outputs' elements, one lane each, in order along the axis. */
static State run_columns(Lower *l, const Pass *p, const Src *s) {
  StateVar sv = rd_state_var(l, rd_identity(l, p, s->w));
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), s->n, NULL, "along");
  LLVMValueRef x = load_prepared(l, p, s, loop.index, s->w);
  rd_state_store(l, &sv, step(l, p, rd_state_load(l, &sv), x, splat(l, loop.index, s->w), false));
  end_loop(l, &loop);
  return rd_state_load(l, &sv);
}

/* One pass over a source: its state, a lane per output. */
static State run_pass(Lower *l, const Pass *p, const Src *s) {
  State r;
  switch (s->kind) {
  case SRC_ONE: r = step(l, p, rd_identity(l, p, 1), prepare(l, p, s->one), const_i64(l, 0), false); break;
  case SRC_STREAM: r = run_stream(l, p, s); break;
  case SRC_COLUMNS: r = run_columns(l, p, s); break;
  case SRC_ROW: case SRC_FLAT:  /* a float product keeps NumPy's order: chunks would turn 0 and inf into NaN */
    if (!in_order(p)) {
      r = rd_run_row_pooled(l, p, s);
      break;
    }
    /* fall through */
  default: r = rd_run_row(l, p, s, rd_identity(l, p, 1), const_i64(l, 0)); break;
  }
  return resolve(l, p, r);
}

/* ---------------------------------------------------------------- results */

static LLVMValueRef any_lane(Lower *l, LLVMValueRef v) {
  LLVMValueRef r = lane(l, v, 0);
  for (int j = 1; j < width(v); j++) r = rd_or(l, r, lane(l, v, j));
  return r;
}

static LLVMValueRef count_of(Lower *l, const Src *s) { return LLVMBuildSIToFP(l->b, s->n, l->mod->f64, ""); }

/* The elements that are not NaN, as float64. */
static LLVMValueRef nan_count(Lower *l, const Src *s) {
  if (!ty_is_float(s->elem)) return count_of(l, s);
  Pass p = {K_SUM, P_NOT_NAN, s->elem, TYS(TY_I64)};
  return cast_lanes(l, run_pass(l, &p, s).v, TYS(TY_I64), TYS(TY_F64));
}

/* NumPy sums and multiplies float16 in float32, rounding the result once. */
static const Type *half_acc(Kind k, const Type *res) {
  return res->kind == TY_F16 && (k == K_SUM || k == K_PROD) ? TYS(TY_F32) : res;
}

/* sum, prod, min, max, argmin, argmax, any, all, count_nonzero and nan*: one pass. float16 columns (an outer
 * axis reduced) add in float16, rounding each step: NumPy's loop there adds the outputs to each row in turn. */
static LLVMValueRef fin_value(Lower *l, const Call *c, Src *s) {
  Kind k = c->r->kind;
  Pass p = {k, c->r->prep, s->elem, is_arg(k) ? s->elem : s->kind == SRC_COLUMNS ? c->res : half_acc(k, c->res)};
  State r = run_pass(l, &p, s);
  if (nat_wins_max(&p) && !is_arg(k)) return LLVMBuildAdd(l->b, r.v, splat(l, const_i64(l, 1), width(r.v)), "");
  if (!is_arg(k)) return cast_lanes(l, r.v, p.acc, c->res);
  if ((k == K_NANARGMIN || k == K_NANARGMAX) && ty_is_float(s->elem))
    lo_raise_if(l, any_lane(l, not_(l, nan_seen(l, r))), RT_ERR_VALUE, "All-NaN slice encountered");  /* no number seen */
  return r.i;
}

static LLVMValueRef fin_mean(Lower *l, const Call *c, Src *s) {
  Pass p = {K_SUM, P_NONE, s->elem, half_acc(K_SUM, c->res)};
  if (ty_is_time(c->res)) {  /* the sum over the count as NumPy's timedelta / int: NaT of none */
    LLVMValueRef total = run_pass(l, &p, s).v;
    return lo_time_divide(l, total, splat(l, s->n, width(total)));
  }
  return cast_lanes(l, rd_divide(l, p.acc, run_pass(l, &p, s).v, count_of(l, s)), p.acc, c->res);
}

static LLVMValueRef fin_nanmean(Lower *l, const Call *c, Src *s) {
  LLVMValueRef count = nan_count(l, s);
  Pass p = {K_SUM, P_NAN_ZERO, s->elem, c->res};
  return rd_divide(l, c->res, run_pass(l, &p, s).v, count);
}

/* The type var's mean is in: the result's; in code written for Numba,
 * whose var starts from a.mean(), a float array's own (its nanvar starts
 * from nanmean, a float64). */
static const Type *mean_type(Lower *l, const Call *c, const Src *s, bool nan) {
  return l->opts->numba_code && !nan && ty_is_float(s->elem) ? s->elem : c->res;
}

/* NumPy's var: the mean, then the sum of squared deviations over
 * max(count - ddof, 0); nanvar ignores NaN and is NaN where count <= ddof. */
static LLVMValueRef variance(Lower *l, const Call *c, Src *s, bool nan) {
  const Type *a = c->res, *f64 = TYS(TY_F64), *m = mean_type(l, c, s, nan);
  nan = nan && ty_is_float(s->elem);
  LLVMValueRef count = nan ? nan_count(l, s) : count_of(l, s);
  Pass sum = {K_SUM, nan ? P_NAN_ZERO : P_NONE, s->elem, m};
  LLVMValueRef mean = rd_divide(l, m, run_pass(l, &sum, s).v, count);
  Pass dev = {K_SUM, nan ? P_DEVIATION_NAN : P_DEVIATION, s->elem, a, np_promote(s->elem, m)};
  dev.center = cast_lanes(l, mean, m, dev.dev);
  LLVMValueRef squares = run_pass(l, &dev, s).v;
  int w = width(squares);
  LLVMValueRef zero = splat(l, lo_fconst(l, f64, 0), w);
  LLVMValueRef dof = LLVMBuildFSub(l->b, splat(l, count, w), splat(l, c->ddof, w), "");
  LLVMValueRef none = LLVMBuildFCmp(l->b, LLVMRealOLE, dof, zero, "");
  if (!nan) return rd_divide(l, a, squares, rd_select(l, none, zero, dof));
  return rd_select(l, none, splat(l, lo_fconst(l, a, NAN), w), rd_divide(l, a, squares, dof));
}

static LLVMValueRef fin_var(Lower *l, const Call *c, Src *s) { return variance(l, c, s, false); }
static LLVMValueRef fin_std(Lower *l, const Call *c, Src *s) { return sqrt_lanes(l, variance(l, c, s, false)); }
static LLVMValueRef fin_nanvar(Lower *l, const Call *c, Src *s) { return variance(l, c, s, true); }
static LLVMValueRef fin_nanstd(Lower *l, const Call *c, Src *s) { return sqrt_lanes(l, variance(l, c, s, true)); }

/* ptp: max - min in the elements' type (ints wrap, as NumPy's subtract) */
static LLVMValueRef fin_ptp(Lower *l, const Call *c, Src *s) {
  Pass p = {K_MINMAX, P_NONE, s->elem, s->elem};
  State r = run_pass(l, &p, s);
  return rd_sub(l, s->elem, r.i, r.v);
}

#define NO_IDENTITY(op) "zero-size array to reduction operation " op " which has no identity"

static const Reduction reductions[R_COUNT] = {
  [R_SUM] = {RULE_SUM, K_SUM, P_NONE, fin_value, NULL},
  [R_PROD] = {RULE_SUM, K_PROD, P_NONE, fin_value, NULL},
  [R_MEAN] = {RULE_MEAN, K_SUM, P_NONE, fin_mean, NULL},
  [R_VAR] = {RULE_MEAN, K_SUM, P_NONE, fin_var, NULL, true},
  [R_STD] = {RULE_MEAN, K_SUM, P_NONE, fin_std, NULL, true},
  [R_MIN] = {RULE_SAME, K_MIN, P_NONE, fin_value, NO_IDENTITY("minimum")},
  [R_MAX] = {RULE_SAME, K_MAX, P_NONE, fin_value, NO_IDENTITY("maximum")},
  [R_PTP] = {RULE_SAME, K_MINMAX, P_NONE, fin_ptp, NO_IDENTITY("maximum")},
  [R_ARGMIN] = {RULE_INDEX, K_ARGMIN, P_NONE, fin_value, "attempt to get argmin of an empty sequence"},
  [R_ARGMAX] = {RULE_INDEX, K_ARGMAX, P_NONE, fin_value, "attempt to get argmax of an empty sequence"},
  [R_ANY] = {RULE_BOOL, K_ANY, P_TRUTH, fin_value, NULL},
  [R_ALL] = {RULE_BOOL, K_ALL, P_TRUTH, fin_value, NULL},
  [R_COUNT_NONZERO] = {RULE_INDEX, K_SUM, P_TRUTH, fin_value, NULL},
  [R_NANSUM] = {RULE_SUM, K_SUM, P_NAN_ZERO, fin_value, NULL},
  [R_NANPROD] = {RULE_SUM, K_PROD, P_NAN_ONE, fin_value, NULL},
  [R_NANMEAN] = {RULE_MEAN, K_SUM, P_NONE, fin_nanmean, NULL, true},
  [R_NANVAR] = {RULE_MEAN, K_SUM, P_NONE, fin_nanvar, NULL, true},
  [R_NANSTD] = {RULE_MEAN, K_SUM, P_NONE, fin_nanstd, NULL, true},
  [R_NANMIN] = {RULE_SAME, K_FMIN, P_NONE, fin_value, NO_IDENTITY("fmin")},
  [R_NANMAX] = {RULE_SAME, K_FMAX, P_NONE, fin_value, NO_IDENTITY("fmax")},
  [R_NANARGMIN] = {RULE_INDEX, K_NANARGMIN, P_NONE, fin_value, "attempt to get argmin of an empty sequence"},
  [R_NANARGMAX] = {RULE_INDEX, K_NANARGMAX, P_NONE, fin_value, "attempt to get argmax of an empty sequence"},
};

/* ---------------------------------------------------------------- over all the elements */

static Call call_of(Lower *l, Node *n, ReductionId id, Node *a) {
  Node *ddof = ty_kwarg(n, "ddof");
  const Type *f64 = TYS(TY_F64);
  return (Call){&reductions[id], elem_of(a->ty), elem_of(n->ty), ddof ? lo_expr_as(l, ddof, f64) : lo_fconst(l, f64, 0),
                rd_axis_error};
}

static void check_empty(Lower *l, const Call *c, LLVMValueRef n) {
  if (c->r->empty) lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, n, const_i64(l, 0), ""), RT_ERR_VALUE, c->r->empty);
}

static LLVMValueRef finish(Lower *l, const Call *c, Src *s) { return c->r->finish(l, c, s); }

/* An expression's (or a strided array's) elements: by flat index where its
 * arrays are contiguous, else streamed in C order. */
static LLVMValueRef reduce_elements(Lower *l, const Call *c, Node *a) {
  Elements *e = lo_elements_begin(l, a);
  int d = a->ty->ndim;
  Src s = {.kind = SRC_STREAM, .elem = a->ty->elem, .elems = e, .n = const_i64(l, 1),
           .inner = d ? lo_elements_shape(e, d - 1) : const_i64(l, 1)};
  for (int k = 0; k < d; k++) s.n = LLVMBuildMul(l->b, s.n, lo_elements_shape(e, k), "");
  check_empty(l, c, s.n);
  LLVMValueRef flat = lo_elements_flat(l, e), r;
  if (!flat) {
    r = finish(l, c, &s);
  } else {
    LLVMValueRef out = lo_alloca(l, lo_type(l, c->res), "reduced");
    LLVMBasicBlockRef by_index = new_block(l, "by.index"), streamed = new_block(l, "streamed"), done = new_block(l, "reduced");
    LLVMBuildCondBr(l->b, flat, by_index, streamed);
    position(l, by_index);
    Src f = s;
    f.kind = SRC_FLAT;
    LLVMBuildStore(l->b, finish(l, c, &f), out);
    LLVMBuildBr(l->b, done);
    position(l, streamed);
    LLVMBuildStore(l->b, finish(l, c, &s), out);
    LLVMBuildBr(l->b, done);
    position(l, done);
    r = LLVMBuildLoad2(l->b, lo_type(l, c->res), out, "");
  }
  lo_elements_end(l, e);
  return r;
}

static bool sums_in_one_pass(Lower *l, const Call *c);
static LLVMValueRef sum_whole(Lower *l, const Type *t, LLVMValueRef v);

/* Whether an array expression of type t is made before it is reduced: in
 * code written for Numba, which makes a Fortran-ordered result of
 * Fortran-ordered operands and reduces it in memory order (NumPy, and
 * ruchey's own code, read the elements in C order, making nothing). */
static bool made_for_numba(Lower *l, const Type *t) { return l->opts->numba_code && t->ndim > 1 && t->layout == 'F'; }

/* A number or an array: a contiguous one (a Fortran one in memory order,
 * but for arg*) or a 1-d one read as a row, any other through its elements. */
static LLVMValueRef reduce_all(Lower *l, const Call *c, Node *a) {
  const Type *t = a->ty;
  if (t->kind != TY_ARRAY) {
    Src s = {.kind = SRC_ONE, .elem = t, .n = const_i64(l, 1), .one = lo_expr(l, a)};
    return finish(l, c, &s);
  }
  if (t->ndim > 1 && t->layout == 'A' && sums_in_one_pass(l, c) && !lo_is_elementwise(a)) {
    LLVMValueRef v = lo_expr(l, a), r = sum_whole(l, t, v);  /* as NumPy's iterator walks a view's axes */
    lo_done_with(l, a, v);
    return r;
  }
  bool row = t->ndim <= 1 || t->layout == 'C' || (t->layout == 'F' && !is_arg(c->r->kind));
  if ((lo_is_elementwise(a) && !(row && made_for_numba(l, t))) || !row) return reduce_elements(l, c, a);
  LLVMValueRef v = lo_expr(l, a);
  Src s = {.kind = SRC_ROW, .elem = t->elem, .n = size_of(l, t, v), .data = rd_data(l, v), .unit = t->layout != 'A',
           .stride = t->ndim == 1 ? lo_arr_stride(l, t, v, 0) : const_i64(l, rd_item_size(t->elem))};
  check_empty(l, c, s.n);
  if (t->ndim == 0) {
    s.kind = SRC_ONE;
    s.one = lo_load_scalar(l, t->elem, s.data);
  }
  LLVMValueRef r = finish(l, c, &s);
  lo_done_with(l, a, v);
  return r;
}

/* The smallest and largest elements of v, an array of type t that reads as
 * a row (np_reads_as_row): ptp's vectorised pass; NaN both where one is
 * NaN, t's extremes the wrong way round where v is empty. */
void np_extremes(Lower *l, const Type *t, LLVMValueRef v, LLVMValueRef *min, LLVMValueRef *max) {
  Pass p = {K_MINMAX, P_NONE, t->elem, t->elem};
  Src s = {.kind = SRC_ROW, .elem = t->elem, .n = size_of(l, t, v), .data = rd_data(l, v), .unit = t->layout != 'A',
           .stride = t->ndim == 1 ? lo_arr_stride(l, t, v, 0) : const_i64(l, rd_item_size(t->elem))};
  State r = run_pass(l, &p, &s);
  *min = r.v;
  *max = r.i;
}

bool np_reads_as_row(const Type *t) { return t->ndim <= 1 || t->layout == 'C' || t->layout == 'F'; }

LLVMValueRef rd_all(Lower *l, Node *a) {
  Call c = {&reductions[R_ALL], TYS(TY_BOOL), TYS(TY_BOOL), NULL, rd_axis_error};
  return reduce_all(l, &c, a);
}

/* ---------------------------------------------------------------- along an axis */

/* Raises status with fmt's message holding v, where bad. */
void rd_raise_with_int(Lower *l, LLVMValueRef bad, RtStatus status, const char *fmt, LLVMValueRef v) {
  LLVMBasicBlockRef fail = new_block(l, "raise"), ok = new_block(l, "ok");
  LLVMBuildCondBr(l->b, bad, fail, ok);
  position(l, fail);
  LLVMTypeRef p[3] = {l->mod->i32, l->mod->ptr, l->mod->i64};
  lo_call_fn(l, "rt_error_int", void_type(l), p, (LLVMValueRef[]){const_i32(l, status), lo_string(l, fmt), v}, 3);
  lo_raise_recorded(l, status);
  position(l, ok);
}

typedef LLVMValueRef (*AxisBody)(Lower *l, int k, void *arg);

/* An axis given at run time within ndim dimensions, counted from 0
 * (error, a format of the axis and ndim, where it is not). */
static LLVMValueRef checked_axis(Lower *l, LLVMValueRef given, int ndim, const char *error) {
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, given, const_i64(l, 0), "");
  LLVMValueRef v = rd_select(l, neg, LLVMBuildAdd(l->b, given, const_i64(l, ndim), ""), given);
  LLVMValueRef bad = rd_or(l, LLVMBuildICmp(l->b, LLVMIntSLT, v, const_i64(l, 0), ""),
                         LLVMBuildICmp(l->b, LLVMIntSGE, v, const_i64(l, ndim), ""));
  char fmt[128];
  snprintf(fmt, sizeof fmt, error, ndim);
  rd_raise_with_int(l, bad, RT_ERR_AXIS, arena_strdup(l->f->arena, fmt), given);
  return v;
}

/* body for axis v (checked), by a switch over the dimensions; of type t. */
static LLVMValueRef switch_axis(Lower *l, LLVMValueRef v, int ndim, const Type *t, AxisBody body, void *arg) {
  LLVMValueRef out = lo_alloca(l, lo_type(l, t), "axis.result");
  LLVMBasicBlockRef done = new_block(l, "axis.done");
  LLVMValueRef sw = LLVMBuildSwitch(l->b, v, done, (unsigned)ndim);
  for (int d = 0; d < ndim; d++) {
    LLVMBasicBlockRef bb = new_block(l, "axis.case");
    LLVMAddCase(sw, const_i64(l, d), bb);
    position(l, bb);
    LLVMBuildStore(l->b, body(l, d, arg), out);
    LLVMBuildBr(l->b, done);
  }
  position(l, done);
  return LLVMBuildLoad2(l->b, lo_type(l, t), out, "");
}

/* body for the axis an argument names, of an array of ndim dimensions: a
 * constant axis within them directly; another checked when the call runs
 * (error: a format of the axis and ndim), then by a switch over the
 * dimensions. The result is of type t. */
LLVMValueRef rd_for_axis(Lower *l, Node *axis, int ndim, const Type *t, AxisBody body, void *arg, const char *error) {
  int64_t k;
  if (bi_axis_within(axis, ndim, &k)) return body(l, (int)(k < 0 ? k + ndim : k), arg);
  LLVMValueRef v = checked_axis(l, lo_expr_as(l, axis, TYS(TY_I64)), ndim, error);
  return switch_axis(l, v, ndim, t, body, arg);
}

/* An array made here, released if an error is raised while it is filled,
 * then handed to the caller (whose lo_expr takes it as its temp). */
static void hand_over(Lower *l, const Type *t, LLVMValueRef v) {
  lo_refcount(l, t, v, true);
  lo_release_temp(l, t, v);
}

static LLVMValueRef offset_of(Lower *l, const Type *t, LLVMValueRef v, const LLVMValueRef *idx) {
  LLVMValueRef off = const_i64(l, 0);
  for (int d = 0; d < t->ndim; d++) off = LLVMBuildAdd(l->b, off, LLVMBuildMul(l->b, idx[d], lo_arr_stride(l, t, v, d), ""), "");
  return off;
}

LLVMValueRef rd_element_ptr(Lower *l, const Type *t, LLVMValueRef v, const LLVMValueRef *idx) {
  return rd_byte_at(l, rd_data(l, v), offset_of(l, t, v, idx));
}

typedef struct Along {
  const Call *c;
  const Type *t, *ot;        /* the array reduced; the result */
  LLVMValueRef v, out, nk;   /* their values; the length of the axis */
  int k, m, mo;              /* the axis; the dimension lanes run along, and its place in the result */
} Along;

/* The input's element at a result's index (the axis at 0). */
static LLVMValueRef input_ptr(Lower *l, const Along *a, const LLVMValueRef *oidx) {
  LLVMValueRef off = const_i64(l, 0);
  for (int o = 0; o < a->ot->ndim; o++)
    off = LLVMBuildAdd(l->b, off, LLVMBuildMul(l->b, oidx[o], lo_arr_stride(l, a->t, a->v, o < a->k ? o : o + 1), ""), "");
  return rd_byte_at(l, rd_data(l, a->v), off);
}

static void row_result(Lower *l, LLVMValueRef *oidx, void *arg) {
  Along *a = arg;
  Src s = {.kind = SRC_ROW, .elem = a->t->elem, .n = a->nk, .data = input_ptr(l, a, oidx),
           .stride = lo_arr_stride(l, a->t, a->v, a->k), .unit = a->t->layout != 'A'};
  lo_store_scalar(l, a->ot->elem, rd_element_ptr(l, a->ot, a->out, oidx), finish(l, a->c, &s));
}

static void column_results(Lower *l, Along *a, LLVMValueRef *oidx, LLVMValueRef j, int w) {
  oidx[a->mo] = j;
  Src s = {.kind = SRC_COLUMNS, .elem = a->t->elem, .n = a->nk, .data = input_ptr(l, a, oidx),
           .stride = lo_arr_stride(l, a->t, a->v, a->k), .lane_stride = lo_arr_stride(l, a->t, a->v, a->m),
           .unit = a->t->layout != 'A', .w = w};
  LLVMValueRef r = finish(l, a->c, &s);
  store_lanes(l, a->ot->elem, rd_element_ptr(l, a->ot, a->out, oidx), r, lo_arr_stride(l, a->ot, a->out, a->mo),
              a->mo == a->ot->ndim - 1);
}

static void columns(Lower *l, LLVMValueRef *idx, void *arg) {
  Along *a = arg;
  Kind k = a->c->r->kind;
  int w = k == K_SUM || k == K_PROD || k == K_ANY || k == K_ALL ? COLUMNS : FEW_COLUMNS;
  LLVMValueRef oidx[RC_MAX_NDIM];
  for (int o = 0, j = 0; o < a->ot->ndim; o++)
    if (o != a->mo) oidx[o] = idx[j++];
  LLVMValueRef nm = lo_arr_shape(l, a->v, a->m), blocks = LLVMBuildSDiv(l->b, nm, const_i64(l, w), "");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), blocks, NULL, "columns");
  column_results(l, a, oidx, LLVMBuildMul(l->b, loop.index, const_i64(l, w), ""), w);
  lo_loop_end(l, &loop);
  LoLoop rest = lo_loop_begin(l, LLVMBuildMul(l->b, blocks, const_i64(l, w), ""), nm, NULL, "column");
  column_results(l, a, oidx, rest.index, 1);
  lo_loop_end(l, &rest);
}

/* Along axis k: a row per result where the axis is the innermost in
 * memory; else the columns of COLUMNS adjacent results at a time. */
static LLVMValueRef reduce_along(Lower *l, int k, void *arg) {
  Along *a = arg;
  int d = a->t->ndim, inner = a->t->layout == 'F' ? 0 : d - 1;
  LLVMValueRef shape[RC_MAX_NDIM], others[RC_MAX_NDIM];
  for (int o = 0; o < d - 1; o++) shape[o] = lo_arr_shape(l, a->v, o < k ? o : o + 1);
  a->k = k;
  a->nk = lo_arr_shape(l, a->v, k);
  check_empty(l, a->c, a->nk);
  a->out = lo_alloc_array(l, a->ot, shape, -1);
  lo_temp_made(l, a->ot, a->out);
  if (k == inner) {
    lo_for_each_index(l, d - 1, shape, row_result, a);
  } else {
    a->m = inner;
    a->mo = inner < k ? inner : inner - 1;
    for (int o = 0, j = 0; o < d - 1; o++)
      if (o != a->mo) others[j++] = shape[o];
    lo_for_each_index(l, d - 2, others, columns, a);
  }
  hand_over(l, a->ot, a->out);
  return a->out;
}

typedef struct Whole {
  const Call *c;
  Node *a;
} Whole;

static LLVMValueRef reduce_whole(Lower *l, int k, void *arg) {
  Whole *w = arg;
  return reduce_all(l, w->c, w->a);
}

/* Whether a float sum along several axes is made in one pass (rt_sum_axes):
 * NumPy's iterator walks them together, so its bits are not those of one
 * axis after another. Not in a GPU's code, which cannot call the runtime,
 * nor in code written for Numba, which adds in order (sum_in_order). */
static bool sums_in_one_pass(Lower *l, const Call *c) {
  return !l->mod->gpu && !l->opts->numba_code && c->r == &reductions[R_SUM] && (c->elem->kind == TY_F32 || c->elem->kind == TY_F64) && c->res == c->elem;
}

/* rt_sum_axes of v (of type t) along the axes in mask into out: its status checked */
static void call_sum_axes(Lower *l, const Type *t, LLVMValueRef v, LLVMValueRef mask, LLVMValueRef out) {
  LLVMTypeRef ptr = l->mod->ptr, i64 = l->mod->i64, i32 = l->mod->i32;
  LLVMTypeRef p[7] = {ptr, ptr, ptr, i32, i64, i32, ptr};
  LLVMValueRef args[7] = {LLVMBuildExtractValue(l->b, v, 2, ""), lo_arr_dims_in_memory(l, t, v, false),
                          lo_arr_dims_in_memory(l, t, v, true), const_i32(l, t->ndim), mask,
                          const_i32(l, (int)t->elem->kind), out};
  lo_check_status(l, lo_call_fn(l, "rt_sum_axes", i32, p, args, 7));
}

/* The sum of all of v's elements (a float array of type t), in one pass. */
static LLVMValueRef sum_whole(Lower *l, const Type *t, LLVMValueRef v) {
  LLVMValueRef out = lo_alloca(l, lo_type(l, t->elem), "sum.whole");
  call_sum_axes(l, t, v, const_i64(l, (int64_t)((1u << t->ndim) - 1)), out);
  return LLVMBuildLoad2(l->b, lo_type(l, t->elem), out, "");
}

/* The sum of v (of type t) along the axes k (count of them, checked) into
 * a new array of type ot: the kept axes' lengths in their order. */
static LLVMValueRef sum_axes(Lower *l, const Type *t, const Type *ot, LLVMValueRef v, const LLVMValueRef *k, int count) {
  int d = t->ndim;
  LLVMValueRef mask = const_i64(l, 0), shape[RC_MAX_NDIM], out_shape[RC_MAX_NDIM];
  for (int i = 0; i < count; i++) mask = LLVMBuildOr(l->b, mask, LLVMBuildShl(l->b, const_i64(l, 1), k[i], ""), "");
  for (int j = 0; j < ot->ndim; j++) out_shape[j] = const_i64(l, 0);
  LLVMValueRef before = const_i64(l, 0);  /* the kept axes before axis i */
  for (int i = 0; i < d; i++) {
    shape[i] = lo_arr_shape(l, v, i);
    LLVMValueRef summed = LLVMBuildTrunc(l->b, LLVMBuildLShr(l->b, mask, const_i64(l, i), ""), l->mod->i1, "");
    for (int j = 0; j < ot->ndim; j++) {
      LLVMValueRef here = LLVMBuildAnd(l->b, LLVMBuildNot(l->b, summed, ""),
                                       LLVMBuildICmp(l->b, LLVMIntEQ, before, const_i64(l, j), ""), "");
      out_shape[j] = LLVMBuildSelect(l->b, here, shape[i], out_shape[j], "");
    }
    before = LLVMBuildAdd(l->b, before, LLVMBuildZExt(l->b, LLVMBuildNot(l->b, summed, ""), l->mod->i64, ""), "");
  }
  LLVMValueRef out = lo_alloc_array(l, ot, out_shape, -1);
  lo_temp_made(l, ot, out);
  call_sum_axes(l, t, v, mask, LLVMBuildExtractValue(l->b, out, 2, ""));
  lo_temp_taken(l, out);
  return out;
}

/* Along a tuple of axes, checked as NumPy checks them (each within the
 * dimensions, then no two the same): along each in turn, an axis counted
 * in the array left by those before it (a float sum: in one pass). */
static LLVMValueRef reduce_axes(Lower *l, const Call *c, Node *n, Node *a, Node *axis) {
  int d = ndim_of(a->ty), count = axis->ty->nfields;
  LLVMValueRef axes = lo_expr(l, axis), k[RC_MAX_NDIM];
  for (int i = 0; i < count; i++) {
    LLVMValueRef given = LLVMBuildExtractValue(l->b, axes, (unsigned)i, "");
    k[i] = checked_axis(l, lo_convert(l, given, axis->ty->fields[i], TYS(TY_I64)), d, c->axis_error);
  }
  for (int i = 1; i < count; i++)
    for (int j = 0; j < i; j++)
      lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, k[i], k[j], ""), RT_ERR_VALUE, "duplicate value in 'axis'");
  if (count >= d) return reduce_all(l, c, a);  /* (more: raised above) */
  LLVMValueRef v = lo_expr(l, a), r = v;
  if (count > 1 && sums_in_one_pass(l, c)) {
    r = sum_axes(l, a->ty, n->ty, v, k, count);
    lo_done_with(l, a, v);
    return r;
  }
  const Type *t = a->ty;
  Call step = *c;
  for (int i = 0; i < count; i++) {
    LLVMValueRef at = k[i];
    for (int j = 0; j < i; j++)
      at = LLVMBuildSub(l->b, at, LLVMBuildZExt(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, k[j], k[i], ""), l->mod->i64, ""), "");
    const Type *ot = i == count - 1 ? n->ty : ty_array(c->res, t->ndim - 1, 'C', false);
    step.elem = t->elem;
    Along along = {&step, t, ot, r};
    LLVMValueRef next = switch_axis(l, at, t->ndim, ot, reduce_along, &along);
    if (i) lo_refcount(l, t, r, false);  /* the one before: read */
    t = ot, r = next;
  }
  lo_done_with(l, a, v);
  return r;
}

/* Along no axis (axis=()): each element reduced alone is itself in the
 * result's dtype (any, all: whether it is nonzero). */
static LLVMValueRef reduce_none(Lower *l, const Call *c, Node *n, Node *a) {
  if (n->ty->kind != TY_ARRAY) return reduce_all(l, c, a);  /* of one value */
  LLVMValueRef v = lo_expr(l, a), r = lo_copy_array(l, n->ty, a->ty, v);
  lo_done_with(l, a, v);
  return r;
}

/* n's reduction of a, over all its elements or along axis. */
static LLVMValueRef reduce(Lower *l, const Call *c, Node *n, Node *a, Node *axis) {
  int64_t k;
  int d = ndim_of(a->ty);
  if (axis && axis->ty->kind == TY_TUPLE)
    return axis->ty->nfields ? reduce_axes(l, c, n, a, axis) : reduce_none(l, c, n, a);
  if (!axis || (d == 1 && bi_axis_within(axis, 1, &k))) return reduce_all(l, c, a);
  if (d == 1) return rd_for_axis(l, axis, 1, n->ty, reduce_whole, &(Whole){c, a}, c->axis_error);
  LLVMValueRef v = lo_expr(l, a);
  Along along = {c, a->ty, n->ty, v};
  LLVMValueRef r = rd_for_axis(l, axis, d, n->ty, reduce_along, &along, c->axis_error);
  lo_done_with(l, a, v);
  return r;
}

static LLVMValueRef lo_reduce(Lower *l, Node *n) {
  Node *a = n->list.items[0];
  Call c = call_of(l, n, n->bi->ival, a);
  return reduce(l, &c, n, a, bi_arg(n, 1, "axis"));
}

/* ---------------------------------------------------------------- average */

static const Type *ty_average(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *axis = bi_arg(n, 1, "axis"), *w = bi_arg(n, 2, "weights");
  int nd = ndim_of(a->ty);
  if (!bi_need_values(in, n, a) || (axis && !bi_check_axis_late(in, n, axis, nd))) return NULL;
  const Type *e = elem_of(a->ty);
  if (!w) return axis && nd > 1 ? ty_array(result_dtype(RULE_MEAN, e, NULL), nd - 1, 'C', false) : result_dtype(RULE_MEAN, e, NULL);
  if (axis) return ty_error(in, axis, "numpy.average(): axis together with weights is not supported in compiled code");
  if (a->ty->kind != TY_ARRAY || w->ty->kind != TY_ARRAY)
    return ty_error(in, w, "numpy.average(): weights need an array a and an array of weights, got %s and %s", a->ty->name, w->ty->name);
  if (w->ty->ndim != nd) return ty_error(in, w, "numpy.average(): Axis must be specified when shapes of a and weights differ.");
  const Type *both = np_promote(e, w->ty->elem);
  return ty_is_float(e) ? both : np_promote(both, TYS(TY_F64));
}

/* v as a C-contiguous array: itself, or a copy made a temp (*copy). */
static LLVMValueRef contiguous(Lower *l, const Type *t, LLVMValueRef v, LLVMValueRef *copy) {
  *copy = NULL;
  if (t->layout == 'C') return v;
  const Type *ct = ty_array(t->elem, t->ndim, 'C', false);
  *copy = lo_copy_array(l, ct, t, v);
  lo_temp_made(l, ct, *copy);
  return *copy;
}

/* NumPy's weighted average: sum(a * w) / sum(w), in a's and w's common
 * type (float64 at least for ints), each sum pairwise. */
static LLVMValueRef weighted_average(Lower *l, Node *n, Node *a, Node *w) {
  const Type *t = n->ty, *ta = a->ty, *tw = w->ty;
  LLVMValueRef va = lo_expr(l, a), vw = lo_expr(l, w), bad = const_bool(l, false), copies[2];
  for (int d = 0; d < ta->ndim; d++)
    bad = rd_or(l, bad, LLVMBuildICmp(l->b, LLVMIntNE, lo_arr_shape(l, va, d), lo_arr_shape(l, vw, d), ""));
  lo_raise_if(l, bad, RT_ERR_TYPE, "Axis must be specified when shapes of a and weights differ.");
  LLVMValueRef ca = contiguous(l, ta, va, &copies[0]), cw = contiguous(l, tw, vw, &copies[1]);
  Src ws = {.kind = SRC_ROW, .elem = tw->elem, .n = size_of(l, ta, va), .data = rd_data(l, cw), .unit = true,
            .stride = const_i64(l, rd_item_size(tw->elem))};
  Pass p = {K_SUM, P_NONE, tw->elem, t};
  LLVMValueRef scale = run_pass(l, &p, &ws).v;
  lo_raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOEQ, scale, lo_fconst(l, t, 0), ""), RT_ERR_ZERODIV,
              "Weights sum to zero, can't be normalized");
  Src ps = ws;
  ps.elem = t;
  ps.raw = ta->elem;
  ps.raw2 = tw->elem;
  ps.data = rd_data(l, ca);
  ps.data2 = rd_data(l, cw);
  Pass q = {K_SUM, P_NONE, t, t};
  LLVMValueRef r = LLVMBuildFDiv(l->b, run_pass(l, &q, &ps).v, scale, "");
  for (int i = 1; i >= 0; i--)
    if (copies[i]) lo_release_temp(l, ty_array((i ? tw : ta)->elem, ta->ndim, 'C', false), copies[i]);
  lo_done_with(l, w, vw);
  lo_done_with(l, a, va);
  return r;
}

static LLVMValueRef lo_average(Lower *l, Node *n) {
  Node *a = n->list.items[0], *w = bi_arg(n, 2, "weights");
  if (w) return weighted_average(l, n, a, w);
  Call c = call_of(l, n, R_MEAN, a);
  if (rt_numpy_version >= 200)  /* NumPy 2's average names its argument, 1.x's does not */
    c.axis_error = "axis: axis %%lld is out of bounds for array of dimension %d";
  LLVMValueRef r = reduce(l, &c, n, a, bi_arg(n, 1, "axis"));
  if (n->ty->kind != TY_ARRAY) return r;
  /* NumPy then divides a.size by the result's size, in Python */
  lo_temp_made(l, n->ty, r);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, size_of(l, n->ty, r), const_i64(l, 0), ""), RT_ERR_ZERODIV, "division by zero");
  hand_over(l, n->ty, r);
  return r;
}

/* ---------------------------------------------------------------- the rows */

static const char *const axis_kw[] = {"axis", NULL};
static const char *const axis_dtype_kw[] = {"axis", "dtype", NULL};
static const char *const axis_dtype_ddof_kw[] = {"axis", "dtype", "ddof", NULL};
static const char *const average_kw[] = {"axis", "weights", NULL};

/* with complex arguments, ty_reduce hands them to complex.c's rows (BF_COMPLEX) */
/* (ty_reduce refuses kernels the reductions that make an array) */
#define REDUCTION(name, id, hi, kw) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, 1, hi, kw, BF_RAISES | BF_COMPLEX, id, 0, ty_reduce, lo_reduce}, \
  {"array." name, NULL, name, BK_METHOD, TY_ARRAY, 0, hi - 1, kw, BF_RAISES | BF_COMPLEX, id, 0, ty_reduce, lo_reduce}
#define NUMPY_REDUCTION(name, id, hi, kw) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, 1, hi, kw, BF_RAISES | BF_COMPLEX, id, 0, ty_reduce, lo_reduce}

const Builtin bi_reduce[] = {
  REDUCTION("sum", R_SUM, 3, axis_dtype_kw),
  REDUCTION("prod", R_PROD, 3, axis_dtype_kw),
  REDUCTION("mean", R_MEAN, 3, axis_dtype_kw),
  REDUCTION("std", R_STD, 3, axis_dtype_ddof_kw),
  REDUCTION("var", R_VAR, 3, axis_dtype_ddof_kw),
  REDUCTION("min", R_MIN, 2, axis_kw),
  REDUCTION("max", R_MAX, 2, axis_kw),
  REDUCTION("argmin", R_ARGMIN, 2, axis_kw),
  REDUCTION("argmax", R_ARGMAX, 2, axis_kw),
  REDUCTION("any", R_ANY, 2, axis_kw),
  REDUCTION("all", R_ALL, 2, axis_kw),
  {"numpy.amin", "numpy", "amin", BK_FUNCTION, 0, 1, 2, axis_kw, RD_FLAGS | BF_COMPLEX, R_MIN, 0, ty_reduce, lo_reduce},
  {"numpy.amax", "numpy", "amax", BK_FUNCTION, 0, 1, 2, axis_kw, RD_FLAGS | BF_COMPLEX, R_MAX, 0, ty_reduce, lo_reduce},
  NUMPY_REDUCTION("ptp", R_PTP, 2, axis_kw),
  NUMPY_REDUCTION("count_nonzero", R_COUNT_NONZERO, 2, axis_kw),
  NUMPY_REDUCTION("nansum", R_NANSUM, 3, axis_dtype_kw),
  NUMPY_REDUCTION("nanprod", R_NANPROD, 3, axis_dtype_kw),
  NUMPY_REDUCTION("nanmean", R_NANMEAN, 3, axis_dtype_kw),
  NUMPY_REDUCTION("nanstd", R_NANSTD, 3, axis_dtype_ddof_kw),
  NUMPY_REDUCTION("nanvar", R_NANVAR, 3, axis_dtype_ddof_kw),
  NUMPY_REDUCTION("nanmin", R_NANMIN, 2, axis_kw),
  NUMPY_REDUCTION("nanmax", R_NANMAX, 2, axis_kw),
  RD_FUNCTION("nanargmin", R_NANARGMIN, 2, axis_kw, ty_reduce, lo_reduce),
  RD_FUNCTION("nanargmax", R_NANARGMAX, 2, axis_kw, ty_reduce, lo_reduce),
  RD_FUNCTION("average", R_MEAN, 3, average_kw, ty_average, lo_average),
  BI_END,
};
