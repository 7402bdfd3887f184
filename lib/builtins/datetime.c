/* builtins/datetime.c — NumPy's datetime64 and timedelta64.
 *
 * A value is an int64 count of its type's unit (Type.unit) — since
 * 1970-01-01 for a datetime — and INT64_MIN is NaT. Operands of two units
 * meet in the finer one, as NumPy's: years and months convert to the
 * linear units (weeks to attoseconds) by the calendar for datetimes, and
 * not at all for timedeltas, whose mixes NumPy refuses. NaT compares
 * false (!= true) and makes NaT of any arithmetic; the operators here are
 * also the elements of array expressions (lower/arith.c, ufunc.c).
 */
#include <math.h>

#include "builtins/builtins.h"

static bool is_calendar(int u) { return u == TU_Y || u == TU_M; }

/* The finer unit of two (the generic unit yields). */
static int finer_unit(int a, int b) {
  if (a == TU_GENERIC) return b;
  if (b == TU_GENERIC) return a;
  return a > b ? a : b;
}

/* Whether two timedelta units convert to a common one: not years or
 * months with days (a month has no fixed length). */
static bool deltas_meet(int a, int b) {
  return a == TU_GENERIC || b == TU_GENERIC || is_calendar(a) == is_calendar(b);
}

/* ---------------------------------------------------------------- units */

/* How many of unit `to` make one of `from` (from coarser, both years and
 * months or both linear); 0 where it overflows int64. */
static int64_t unit_factor(int from, int to) {
  static const int64_t step[TU_COUNT] = {  /* how many of the next finer unit one holds */
    [TU_Y] = 12, [TU_W] = 7, [TU_D] = 24, [TU_h] = 60, [TU_m] = 60, [TU_s] = 1000, [TU_ms] = 1000,
    [TU_us] = 1000, [TU_ns] = 1000, [TU_ps] = 1000, [TU_fs] = 1000,
  };
  int64_t f = 1;
  for (int u = from; u < to; u++) {
    if (u == TU_M || u == 3) continue;  /* months to weeks never converts; 3 is no unit */
    if (__builtin_mul_overflow(f, step[u], &f)) return 0;
  }
  return f;
}

/* Whether values of kind (TY_DATETIME or TY_TIMEDELTA) in units a and b
 * meet in the finer one as NumPy lets them: a datetime of years or months
 * counts in days there, and NumPy raises OverflowError where the factor
 * between the units reaches 2^56 (its margin below int64: days and
 * picoseconds, seconds and attoseconds). */
static bool units_fit(int kind, int a, int b) {
  if (a == TU_GENERIC || b == TU_GENERIC) return true;
  int coarse = a < b ? a : b, fine = finer_unit(a, b);
  if (kind == TY_DATETIME && is_calendar(coarse) && !is_calendar(fine)) coarse = TU_D;
  int64_t f = coarse == fine ? 1 : unit_factor(coarse, fine);
  return f > 0 && f < (INT64_C(1) << 56);
}

/* The finer unit of a and b, of the kind of a (both of it), or -1 with
 * NumPy's overflow as the error. */
static int common_unit(Infer *in, Node *n, int kind, const Type *a, const Type *b) {
  if (units_fit(kind, a->unit, b->unit)) return finer_unit(a->unit, b->unit);
  ty_error(in, n, "%s and %s have no common unit: the factor from %s to %s overflows NumPy's datetime "
           "arithmetic (it raises OverflowError)", a->name, b->name, ty_unit_name(a->unit < b->unit ? a->unit : b->unit),
           ty_unit_name(finer_unit(a->unit, b->unit)));
  return -1;
}

/* ---------------------------------------------------------------- typing */

static const Type *refuse(Infer *in, Node *n, const char *op, const Type *a, const Type *b) {
  return ty_error(in, n, "unsupported operand types for %s: %s and %s", op, a->name, b->name);
}

/* datetime + timedelta: a timedelta of years or months moves only a
 * datetime of years or months. */
static const Type *shifted_datetime(Infer *in, Node *n, const Type *dt, const Type *td) {
  if (is_calendar(td->unit) && !is_calendar(dt->unit) && dt->unit != TU_GENERIC)
    return ty_error(in, n, "cannot add or subtract %s and %s: NumPy cannot cast a timedelta of years or months "
                    "to %s", dt->name, td->name, dt->name);
  int unit = common_unit(in, n, TY_DATETIME, dt, td);
  return unit < 0 ? NULL : ty_time(TY_DATETIME, unit);
}

static const Type *delta_pair(Infer *in, Node *n, int op, const Type *a, const Type *b) {
  if (!deltas_meet(a->unit, b->unit))
    return ty_error(in, n, "cannot combine %s and %s: NumPy has no common unit for years or months and days",
                    a->name, b->name);
  int unit = common_unit(in, n, TY_TIMEDELTA, a, b);
  if (unit < 0) return NULL;
  const Type *td = ty_time(TY_TIMEDELTA, unit);
  switch (op) {
  case OP_ADD: case OP_SUB: case OP_MOD: return td;
  case OP_DIV: return TYS(TY_F64);
  case OP_FLOORDIV: return TYS(TY_I64);
  default: return refuse(in, n, bi_op_text(op), a, b);
  }
}

static bool is_real_number(const Type *t) { return ty_is_scalar(t) && !ty_is_time(t) && !ty_is_complex(t); }

/* The type of a op b where either is a datetime or a timedelta. */
const Type *ty_time_binop(Infer *in, Node *n, int op, const Type *a, const Type *b) {
  bool da = a->kind == TY_DATETIME, db = b->kind == TY_DATETIME;
  bool ta = a->kind == TY_TIMEDELTA, tb = b->kind == TY_TIMEDELTA;
  if (da && db && op == OP_SUB) {
    int unit = common_unit(in, n, TY_DATETIME, a, b);
    return unit < 0 ? NULL : ty_time(TY_TIMEDELTA, unit);
  }
  if (da && tb && (op == OP_ADD || op == OP_SUB)) return shifted_datetime(in, n, a, b);
  if (ta && db && op == OP_ADD) return shifted_datetime(in, n, b, a);
  if (ta && tb) return delta_pair(in, n, op, a, b);
  if (ta && is_real_number(b) && (op == OP_MUL || ((op == OP_DIV || op == OP_FLOORDIV) && b->kind != TY_BOOL))) return a;
  if (tb && is_real_number(a) && op == OP_MUL) return b;
  return refuse(in, n, bi_op_text(op), a, b);
}

/* Comparisons: datetimes with datetimes, timedeltas with timedeltas. */
bool ty_time_compare(Infer *in, Node *n, const Type *a, const Type *b) {
  if (a->kind == b->kind && ty_is_time(a) && (a->kind == TY_DATETIME || deltas_meet(a->unit, b->unit)))
    return common_unit(in, n, a->kind, a, b) >= 0;
  if (a->kind != b->kind || !ty_is_time(a)) return ty_error(in, n, "cannot compare %s and %s", a->name, b->name) != NULL;
  return ty_error(in, n, "cannot compare %s and %s: NumPy has no common unit for years or months and days",
                  a->name, b->name) != NULL;
}

/* Whether a value of one datetime type stores into an element of another
 * (NumPy's cast): where both are of one kind, their units must fit. */
bool ty_time_store(Infer *in, Node *at, const Type *value, const Type *elem) {
  if (!ty_is_time(value) || value->kind != elem->kind) return true;
  return common_unit(in, at, value->kind, value, elem) >= 0;
}

/* A variable assigned both: the finer unit, where one exists. */
const Type *ty_time_unify(const Type *a, const Type *b) {
  if (a->kind != b->kind || !ty_is_time(a)) return NULL;
  if (a->kind == TY_TIMEDELTA && !deltas_meet(a->unit, b->unit)) return NULL;
  if (!units_fit(a->kind, a->unit, b->unit)) return NULL;
  return ty_time(a->kind, finer_unit(a->unit, b->unit));
}

/* ---------------------------------------------------------------- units */

/* The int64 k as v is: a number, or a vector of as many lanes (a
 * reduction's) holding k each. */
static LLVMValueRef i64_like(Lower *l, LLVMValueRef v, int64_t k) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return const_i64(l, k);
  LLVMValueRef lanes[64];
  unsigned w = LLVMGetVectorSize(t);
  for (unsigned i = 0; i < w; i++) lanes[i] = const_i64(l, k);
  return LLVMConstVector(lanes, w);
}

static LLVMValueRef is_nat(Lower *l, LLVMValueRef v) {
  return LLVMBuildICmp(l->b, LLVMIntEQ, v, i64_like(l, v, INT64_MIN), "");
}

static LLVMValueRef nat_if(Lower *l, LLVMValueRef nat, LLVMValueRef v) {
  return LLVMBuildSelect(l->b, nat, i64_like(l, v, INT64_MIN), v, "");
}

static LLVMValueRef floordiv_const(Lower *l, LLVMValueRef v, int64_t d) {
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;  /* no zero check: d is a constant */
  LLVMValueRef r = lo_int_divmod(l, OP_FLOORDIV, TYS(TY_I64), v, const_i64(l, d));
  l->numpy_semantics = saved;
  return r;
}

/* Days since 1970-01-01 of the first day of month m (1..12) of year y: the
 * proleptic Gregorian calendar counted in 400-year eras. */
static LLVMValueRef days_from_civil(Lower *l, LLVMValueRef y, LLVMValueRef m) {
  LLVMBuilderRef b = l->b;
  LLVMValueRef early = LLVMBuildICmp(b, LLVMIntSLE, m, const_i64(l, 2), "");
  y = LLVMBuildSub(b, y, LLVMBuildZExt(b, early, l->mod->i64, ""), "");
  LLVMValueRef era = floordiv_const(l, y, 400);
  LLVMValueRef yoe = LLVMBuildSub(b, y, LLVMBuildMul(b, era, const_i64(l, 400), ""), "");
  LLVMValueRef mp = LLVMBuildAdd(b, m, LLVMBuildSelect(b, early, const_i64(l, 9), const_i64(l, -3), ""), "");
  LLVMValueRef doy = LLVMBuildSDiv(b, LLVMBuildAdd(b, LLVMBuildMul(b, mp, const_i64(l, 153), ""), const_i64(l, 2), ""),
                                   const_i64(l, 5), "");
  LLVMValueRef doe = LLVMBuildAdd(b, LLVMBuildMul(b, yoe, const_i64(l, 365), ""), LLVMBuildSDiv(b, yoe, const_i64(l, 4), ""), "");
  doe = LLVMBuildAdd(b, LLVMBuildSub(b, doe, LLVMBuildSDiv(b, yoe, const_i64(l, 100), ""), ""), doy, "");
  return LLVMBuildSub(b, LLVMBuildAdd(b, LLVMBuildMul(b, era, const_i64(l, 146097), ""), doe, ""),
                      const_i64(l, 719468), "");
}

/* A datetime of years or months as days. */
static LLVMValueRef calendar_days(Lower *l, LLVMValueRef v, int unit) {
  LLVMValueRef months = unit == TU_Y ? LLVMBuildMul(l->b, v, const_i64(l, 12), "") : v;
  LLVMValueRef years = floordiv_const(l, months, 12);
  LLVMValueRef month = LLVMBuildSub(l->b, months, LLVMBuildMul(l->b, years, const_i64(l, 12), ""), "");
  return days_from_civil(l, LLVMBuildAdd(l->b, years, const_i64(l, 1970), ""),
                         LLVMBuildAdd(l->b, month, const_i64(l, 1), ""));
}

/* v from one unit to another of the same kind, NaT kept: finer multiplies,
 * coarser floors (as NumPy's casts). */
static LLVMValueRef rescale(Lower *l, LLVMValueRef v, const Type *from, int to) {
  int u = from->unit;
  if (u == TU_GENERIC || u == to || to == TU_GENERIC) return v;
  LLVMValueRef nat = is_nat(l, v), r = v;
  if (from->kind == TY_DATETIME && is_calendar(u) && !is_calendar(to)) {
    r = calendar_days(l, v, u);
    u = TU_D;
  }
  if (u < to) {
    int64_t f = unit_factor(u, to);
    r = LLVMBuildMul(l->b, r, const_i64(l, f ? f : 1), "");
  } else if (u > to) {
    int64_t f = unit_factor(to, u);
    r = floordiv_const(l, r, f ? f : 1);
  }
  return nat_if(l, nat, r);
}

/* Conversions to and from datetime types (lo_convert's): between units;
 * a number to a timedelta is its count. */
LLVMValueRef lo_time_convert(Lower *l, LLVMValueRef v, const Type *from, const Type *to) {
  if (ty_is_time(from) && ty_is_time(to)) return rescale(l, v, from, to->unit);
  if (ty_is_time(to)) return lo_convert(l, v, from, TYS(TY_I64));
  return lo_convert(l, v, TYS(TY_I64), to);
}

/* ---------------------------------------------------------------- lowering */

/* A timedelta's count v times or divided by the number x. */
static LLVMValueRef scale_by_number(Lower *l, int op, LLVMValueRef v, LLVMValueRef x, const Type *tx) {
  LLVMValueRef nat = is_nat(l, v);
  if (ty_is_float(tx)) {  /* in float64, truncated (// too, as NumPy's); NaN and infinities make NaT */
    LLVMValueRef f = lo_convert(l, x, tx, TYS(TY_F64)), d = LLVMBuildSIToFP(l->b, v, l->mod->f64, "");
    LLVMValueRef r = op == OP_MUL ? LLVMBuildFMul(l->b, d, f, "") : LLVMBuildFDiv(l->b, d, f, "");
    LLVMValueRef finite = fcmp(l, LLVMRealOLT, lo_intrinsic1(l, "llvm.fabs", TYS(TY_F64), r),
                               lo_fconst(l, TYS(TY_F64), 9223372036854775808.0));
    LLVMValueRef i = LLVMBuildFPToSI(l->b, LLVMBuildSelect(l->b, finite, r, lo_fconst(l, TYS(TY_F64), 0), ""),
                                     l->mod->i64, "");
    return nat_if(l, LLVMBuildOr(l->b, nat, LLVMBuildNot(l->b, finite, ""), ""), i);
  }
  LLVMValueRef n = lo_convert(l, x, tx, TYS(TY_I64));
  return op == OP_MUL ? nat_if(l, nat, LLVMBuildMul(l->b, v, n, "")) : lo_time_divide(l, v, n);
}

/* NumPy divides a timedelta (v, lanes too) by an int (n, as v is)
 * truncating; NaT by zero and of NaT (the means of reduce.c and
 * statistics.c too). */
LLVMValueRef lo_time_divide(Lower *l, LLVMValueRef v, LLVMValueRef n) {
  LLVMValueRef zero = LLVMBuildICmp(l->b, LLVMIntEQ, n, i64_like(l, n, 0), "");
  LLVMValueRef safe = LLVMBuildSelect(l->b, zero, i64_like(l, n, 1), n, "");  /* (no division by zero to trap) */
  return nat_if(l, LLVMBuildOr(l->b, is_nat(l, v), zero, ""), LLVMBuildSDiv(l->b, v, safe, ""));
}

/* timedelta // timedelta (an int64: 0 for NaT and for a zero divisor, as
 * NumPy's), % (NaT for those), / (a float64: NaN for NaT). */
static LLVMValueRef divide_deltas(Lower *l, int op, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef nat = LLVMBuildOr(l->b, is_nat(l, a), is_nat(l, b), "");
  if (op == OP_DIV) {
    LLVMValueRef q = LLVMBuildFDiv(l->b, LLVMBuildSIToFP(l->b, a, l->mod->f64, ""),
                                   LLVMBuildSIToFP(l->b, b, l->mod->f64, ""), "");
    return LLVMBuildSelect(l->b, nat, lo_fconst(l, TYS(TY_F64), NAN), q, "");
  }
  LLVMValueRef zero = LLVMBuildICmp(l->b, LLVMIntEQ, b, const_i64(l, 0), "");
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;
  LLVMValueRef r = lo_int_divmod(l, op, TYS(TY_I64), a, b);
  l->numpy_semantics = saved;
  LLVMValueRef bad = LLVMBuildOr(l->b, nat, zero, "");
  return op == OP_MOD ? nat_if(l, bad, r) : LLVMBuildSelect(l->b, bad, const_i64(l, 0), r, "");
}

LLVMValueRef lo_time_binop(Lower *l, int op, const Type *result, LLVMValueRef a, const Type *ta, LLVMValueRef b,
                           const Type *tb) {
  if (!ty_is_time(ta)) return lo_time_binop(l, op, result, b, tb, a, ta);  /* n * td */
  if (!ty_is_time(tb)) return scale_by_number(l, op, a, b, tb);
  int unit = ty_is_time(result) ? result->unit : finer_unit(ta->unit, tb->unit);
  LLVMValueRef x = rescale(l, a, ta, unit), y = rescale(l, b, tb, unit);
  if (op == OP_DIV || op == OP_FLOORDIV || op == OP_MOD) return divide_deltas(l, op, x, y);
  LLVMValueRef nat = LLVMBuildOr(l->b, is_nat(l, x), is_nat(l, y), "");
  return nat_if(l, nat, op == OP_SUB ? LLVMBuildSub(l->b, x, y, "") : LLVMBuildAdd(l->b, x, y, ""));
}

/* In the finer unit; NaT is unordered: only != holds. */
LLVMValueRef lo_time_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  int unit = finer_unit(ta->unit, tb->unit);
  LLVMValueRef x = rescale(l, a, ta, unit), y = rescale(l, b, tb, unit);
  static const LLVMIntPredicate sp[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  LLVMValueRef nat = LLVMBuildOr(l->b, is_nat(l, x), is_nat(l, y), "");
  return LLVMBuildSelect(l->b, nat, const_bool(l, op == OP_NE), LLVMBuildICmp(l->b, sp[op - OP_EQ], x, y, ""), "");
}

/* x < y as NumPy sorts datetimes, NaT last: less one, wrapping, NaT
 * (INT64_MIN) is the greatest and the others keep their order. */
LLVMValueRef lo_time_sorts_before(Lower *l, LLVMValueRef x, LLVMValueRef y) {
  LLVMValueRef one = const_i64(l, 1);
  return LLVMBuildICmp(l->b, LLVMIntSLT, LLVMBuildSub(l->b, x, one, ""), LLVMBuildSub(l->b, y, one, ""), "");
}

/* ---------------------------------------------------------------- numpy.isnat */

static const Type *ty_isnat(Infer *in, Node *n, const Type **args) {
  const Type *e = args[0]->kind == TY_ARRAY ? args[0]->elem : args[0];
  if (!ty_is_time(e))
    return ty_error(in, n, "numpy.isnat() takes datetime64 or timedelta64 values, got %s", args[0]->name);
  return args[0]->kind == TY_ARRAY ? ty_elementwise(in, n, args, TYS(TY_BOOL)) : TYS(TY_BOOL);
}

static LLVMValueRef lo_isnat_elem(Lower *l, Node *n, LLVMValueRef *v) { return is_nat(l, v[0]); }

/* A frozen global's value (the frontend's): its count, of its type. */
static const Type *ty_time_constant(Infer *in, Node *n, const Type **args) { return n->data; }

static LLVMValueRef lo_time_constant(Lower *l, Node *n) { return const_i64(l, n->list.items[0]->ival); }

static const char *const out_kw[] = {"out", NULL};

const Builtin bi_datetime[] = {
  {"a NumPy datetime constant", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_CHEAP, 0, 0, ty_time_constant,
   lo_time_constant, NULL},
  {"numpy.isnat", "numpy", "isnat", BK_FUNCTION, 0, 1, 1, out_kw, BF_PURE | BF_CHEAP, 0, 0, ty_isnat, lo_ufunc_call,
   lo_isnat_elem},
  BI_END,
};

/* ---------------------------------------------------------------- which builtins take them */

static const char *const takes_time[] = {
  "len", "int", "abs", "min", "max", "hash", "__hash__", "print", "numpy.isnat", "numpy.empty", "numpy.empty_like", "numpy.zeros", "numpy.zeros_like",
  "numpy.copy", "array.copy", "numpy.where",
  /* the operators' ufuncs, typed and computed as the operators (units, NaT), and their out= */
  "numpy.add", "numpy.subtract", "numpy.multiply", "numpy.divide", "numpy.true_divide", "numpy.floor_divide",
  "numpy.remainder", "numpy.mod", "numpy.equal", "numpy.not_equal", "numpy.less", "numpy.less_equal",
  "numpy.greater", "numpy.greater_equal", "numpy.ufunc.out",
  /* a NaT summed makes NaT; the truth of NaT is true (reduce.c) */
  "numpy.sum", "array.sum", "numpy.mean", "array.mean", "numpy.any", "array.any", "numpy.all", "array.all",
  "numpy.cumsum", "array.cumsum", "numpy.median",  /* (statistics.c) */
  "numpy.maximum", "numpy.minimum", "numpy.fmax", "numpy.fmin",  /* NaT wins the first two, loses the others (math.c) */
  "numpy.shape", "numpy.ndim", "numpy.size",  /* (of the shape alone) */
  /* NaT their NaN (math.c) */
  "numpy.isnan", "numpy.isinf", "numpy.isfinite",
  /* NaT found first, as NumPy's (reduce.c) */
  "numpy.min", "array.min", "numpy.amin", "numpy.max", "array.max", "numpy.amax", "numpy.argmin", "array.argmin",
  "numpy.argmax", "array.argmax",
  /* NaT last, as NumPy's (sorting_rt.c) */
  "numpy.sort", "array.sort", "numpy.argsort", "array.argsort",
  /* answered from the type alone (python.c; numpy.c) */
  "isinstance", "numpy.isscalar", "numpy.iscomplexobj", "numpy.isrealobj",
  /* NaT last, as NumPy sorts it (searching.c) */
  "numpy.searchsorted", "array.searchsorted",
  /* typed lists of them (the box keeps their type) */
  "list.append", "list.insert", "list.pop", "list.copy", "list.clear", "list.reverse", "list.index", "list.count",
  "list", "typed.List", "list literal",
  /* shapes and views */
  "array.reshape", "numpy.reshape", "array.ravel", "numpy.ravel", "array.flatten", "array.transpose",
  "numpy.transpose", "numpy.array_split", "numpy.split", "numpy.hsplit", "numpy.vsplit", "numpy.dsplit",
  "numpy.broadcast_arrays", "numpy.lib.stride_tricks.as_strided", "numpy.lib.stride_tricks.sliding_window_view",
  "ndindex size", "ndindex at",  /* (ndenumerate's counter over the shape) */
  /* elements moved, not converted */
  "numpy.delete",
  /* their bytes read as another 8-byte dtype's (an int64's count), a dtype named */
  "array.view", "numpy.dtype",
  /* a.dtype.type(a) of a 0-d array: its item, of its own unit (numpy.c) */
  "dtype.type",
  /* sorted (NaT last), NaTs as one value, as NumPy's (sorting.c) */
  "numpy.unique", NULL,
};

/* int(x) of a datetime64[ns] or timedelta64[ns]: its count, as NumPy's
 * scalar gives (other units convert to Python's datetime objects, which
 * int() refuses; Numba types only [ns]); int() of NaT is Python's
 * TypeError. */
const Type *ty_time_int(Infer *in, Node *n, const Type *t) {
  if (t->unit == TU_ns) return TYS(TY_I64);
  return ty_error(in, n, "int() of %s64[%s]: only datetime64[ns] and timedelta64[ns] convert to int",
                  t->kind == TY_DATETIME ? "datetime" : "timedelta", ty_unit_name(t->unit));
}

LLVMValueRef lo_time_int(Lower *l, LLVMValueRef v) {
  lo_raise_if(l, is_nat(l, v), RT_ERR_TYPE, "int() argument must be a real number, not NaT");
  return v;
}

/* and these timedeltas alone (NumPy has no absolute or negative datetime) */
static const char *const takes_delta[] = {"numpy.absolute", "numpy.abs", "numpy.negative", "numpy.positive", "numpy.sign",
                                          NULL};

static bool named_in(const char *const *names, const char *name) {
  for (int i = 0; names[i]; i++)
    if (!strcmp(names[i], name)) return true;
  return false;
}

/* The kind of datetime t holds (itself, as an array's elements, a
 * tuple's or a container's items), or 0. */
static TypeKind held_time(const Type *t) {
  if (!t) return 0;
  if (t->kind == TY_ARRAY || t->kind == TY_DTYPE || t->kind == TY_OPTIONAL || t->kind == TY_LIST) return held_time(t->elem);
  if (t->kind == TY_TUPLE || t->kind == TY_DICT)
    for (int i = 0; i < t->nfields; i++)
      if (held_time(t->fields[i])) return held_time(t->fields[i]);
  return ty_is_time(t) ? t->kind : 0;
}

/* Dicts and sets hold datetimes as they hold numbers, as 64-bit keys and
 * values compared by their counts: each of their rows takes them. */
static bool holds_opaque(const Node *n, const Type **args) {
  static const char *const makers[] = {"dict literal", "dict", "typed.Dict", "set literal", NULL};
  const Builtin *bi = n->bi;
  if (!strcmp(bi->name, "in")) return args[1]->kind == TY_DICT || args[1]->kind == TY_SET;
  return bi->receiver == TY_DICT || bi->receiver == TY_SET || named_in(makers, bi->name);
}

/* A builtin not checked to compute with datetimes (most would take them
 * for their int64 counts) refuses them. */
bool ty_check_time(Infer *in, Node *n, const Type **args) {
  if (n->callee || named_in(takes_time, n->bi->name) || holds_opaque(n, args)) return true;
  bool deltas = named_in(takes_delta, n->bi->name);
  for (int i = 0; i < n->list.len + n->kw.len; i++) {
    Node *x = i < n->list.len ? n->list.items[i] : n->kw.items[i - n->list.len];
    TypeKind k = held_time(i < n->list.len ? args[i] : x->ty);
    if (k && !(deltas && k == TY_TIMEDELTA))
      return ty_error(in, x, "%s() does not support %s values in compiled code", n->bi->name,
                      k == TY_DATETIME ? "datetime64" : "timedelta64") != NULL;
  }
  return true;
}
