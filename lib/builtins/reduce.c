/* builtins/reduce.c — NumPy's reductions in compiled code: sum, prod,
 * mean, std, var, min, max, ptp, argmin, argmax, any, all and their nan*
 * forms, count_nonzero, average, median, percentile, quantile, cumsum,
 * cumprod, diff, isclose, allclose and array_equal, as functions and as
 * array methods.
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

#include "builtins/builtins.h"

#define LANES 16        /* elements a step of a one-output pass reads */
#define ARG_LANES 8     /* ... of argmin/argmax (their values, indices and NaN flags fill the registers) */
#define PAIRWISE 8      /* NumPy's pairwise sum: 8 accumulators ... */
#define PAIRWISE_BLOCK 128 /* ... over blocks of at most 128 elements */
#define BUFFER 8192     /* NumPy's buffer: elements cast or gathered at a time */
#define COLUMNS 32      /* adjacent outputs reduced together (more lines of memory read per step) ... */
#define FEW_COLUMNS 16  /* ... where a lane holds more than a value (min, max, argmin ...) */

/* ---------------------------------------------------------------- the reductions */

typedef enum {
  R_SUM, R_PROD, R_MEAN, R_VAR, R_STD, R_MIN, R_MAX, R_PTP, R_ARGMIN, R_ARGMAX, R_ANY, R_ALL,
  R_COUNT_NONZERO, R_NANSUM, R_NANPROD, R_NANMEAN, R_NANVAR, R_NANSTD, R_NANMIN, R_NANMAX,
  R_NANARGMIN, R_NANARGMAX, R_COUNT
} ReductionId;

/* What a pass does with each element. */
typedef enum {
  K_SUM, K_PROD,
  K_MIN, K_MAX,        /* NaN wins (numpy.minimum) */
  K_FMIN, K_FMAX,      /* NaN loses (numpy.fmin): nanmin */
  K_ARGMIN, K_ARGMAX,  /* the first NaN wins, else the first of the extremes */
  K_NANARGMIN, K_NANARGMAX,
  K_ANY, K_ALL,
  K_MINMAX,            /* ptp: the min in v, the max in i */
} Kind;

/* What an element becomes before it is accumulated. */
typedef enum {
  P_NONE,              /* converted to the accumulator's type */
  P_NAN_ZERO, P_NAN_ONE, /* NaN counts as 0 (nansum) or 1 (nanprod) */
  P_TRUTH,             /* 1 where nonzero (count_nonzero, any, all) */
  P_NOT_NAN,           /* 1 where not NaN (the count of nanmean) */
  P_DEVIATION,         /* (x - center)**2 (var) */
  P_DEVIATION_NAN,     /* the same, 0 for NaN (nanvar) */
} Prep;

/* The result's dtype from the elements' (and dtype=). */
typedef enum { RULE_SUM, RULE_MEAN, RULE_SAME, RULE_INDEX, RULE_BOOL } Rule;

typedef struct Src Src;
typedef struct Call Call;
/* One output's result (lanes of them, for a column source) from its elements. */
typedef LLVMValueRef (*Finish)(Lower *l, const Call *c, Src *s);

typedef struct Reduction {
  Rule rule;
  Kind kind;           /* fin_value: the one pass */
  Prep prep;
  Finish finish;
  const char *empty;   /* NumPy's ValueError where an output has no elements, or NULL */
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
static const char axis_error[] = "axis %%lld is out of bounds for array of dimension %d";

/* ---------------------------------------------------------------- arguments */

static const Type *elem_of(const Type *t) { return t->kind == TY_ARRAY ? t->elem : t; }
static int ndim_of(const Type *t) { return t->kind == TY_ARRAY ? t->ndim : 0; }

/* The argument at position pos (the array is 0, for methods too) or by keyword. */
static Node *arg_node(Node *n, int pos, const char *kw) {
  if (n->list.len > pos) return n->list.items[pos];
  return kw ? ty_kwarg(n, kw) : NULL;
}

static bool literal_int(const Node *x, int64_t *v) {
  if (x->kind == N_INT) {
    *v = x->ival;
    return true;
  }
  if (x->kind == N_UNARY && x->op == OP_NEG && x->lhs->kind == N_INT) {
    *v = -x->lhs->ival;
    return true;
  }
  return false;
}

static bool need_values(Infer *in, Node *n, Node *a) {
  if (a->ty->kind == TY_ARRAY || ty_is_scalar(a->ty)) return true;
  return ty_error(in, a, "%s() needs an array or a number, got %s", n->bi->name, a->ty->name) != NULL;
}

/* An axis: an int, a constant one within the dimensions. */
static bool check_axis(Infer *in, Node *n, Node *axis, int ndim) {
  int64_t k;
  if (!ty_is_int(axis->ty))
    return ty_error(in, axis, "%s(): axis must be an integer, got %s", n->bi->name, axis->ty->name) != NULL;
  if (literal_int(axis, &k) && (k < -ndim || k >= ndim))
    return ty_error(in, axis, "%s(): axis %lld is out of bounds for array of dimension %d", n->bi->name,
                    (long long)k, ndim) != NULL;
  if (ndim == 0)
    return ty_error(in, axis, "%s(): a number or 0-d array has no axis", n->bi->name) != NULL;
  return true;
}

/* dtype=: a NumPy scalar type; *out stays NULL when not given. */
static bool check_dtype(Infer *in, Node *n, Node *d, const Type **out) {
  *out = NULL;
  if (!d) return true;
  if (d->ty->kind != TY_DTYPE)
    return ty_error(in, d, "%s(): dtype must be a NumPy scalar type such as numpy.float64", n->bi->name) != NULL;
  *out = d->ty->elem;
  return true;
}

static bool check_number(Infer *in, Node *n, Node *x, const char *what) {
  if (!x || ty_is_scalar(x->ty)) return true;
  return ty_error(in, x, "%s(): %s must be a number, got %s", n->bi->name, what, x->ty->name) != NULL;
}

static const Type *result_dtype(Rule rule, const Type *e, const Type *dtype) {
  if (dtype && (rule == RULE_SUM || rule == RULE_MEAN)) return dtype;
  switch (rule) {
  case RULE_SUM:
    if (e->kind == TY_BOOL || (ty_is_signed(e) && e->bits < 64)) return TYS(TY_I64);
    return ty_is_unsigned(e) ? TYS(TY_U64) : e;
  case RULE_MEAN: return ty_is_float(e) ? e : TYS(TY_F64);
  case RULE_INDEX: return TYS(TY_I64);
  case RULE_BOOL: return TYS(TY_BOOL);
  default: return e;
  }
}

static const char boolean_subtract[] =
    "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, "
    "or the logical_xor function instead";

/* sum, mean, min, argmax ... (a, axis=None, dtype=None, ddof=0): a number,
 * or with an integer axis an array of one dimension less. */
static const Type *ty_reduce(Infer *in, Node *n, const Type **args) {
  const Reduction *r = &reductions[n->bi->ival];
  Node *a = n->list.items[0], *axis = arg_node(n, 1, "axis");
  const Type *dtype;
  if (!need_values(in, n, a) || (axis && !check_axis(in, n, axis, ndim_of(a->ty))) ||
      !check_dtype(in, n, arg_node(n, 2, "dtype"), &dtype) || !check_number(in, n, ty_kwarg(n, "ddof"), "ddof"))
    return NULL;
  const Type *e = elem_of(a->ty);
  if (r->kind == K_MINMAX && e->kind == TY_BOOL) return ty_error(in, n, "%s(): %s", n->bi->name, boolean_subtract);
  const Type *res = result_dtype(r->rule, e, dtype);
  return axis && ndim_of(a->ty) > 1 ? ty_array(res, a->ty->ndim - 1, 'C', false) : res;
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

static LLVMValueRef equal(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (ty_is_float(t)) return LLVMBuildFCmp(l->b, LLVMRealOEQ, a, b, "");
  return LLVMBuildICmp(l->b, LLVMIntEQ, a, b, "");
}

static LLVMValueRef is_nan(Lower *l, const Type *t, LLVMValueRef v) {
  if (ty_is_float(t)) return LLVMBuildFCmp(l->b, LLVMRealUNO, v, v, "");
  return LLVMConstNull(lanes_of(l, TYS(TY_BOOL), width(v)));
}

static LLVMValueRef and_(Lower *l, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildAnd(l->b, a, b, ""); }
static LLVMValueRef or_(Lower *l, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildOr(l->b, a, b, ""); }
static LLVMValueRef not_(Lower *l, LLVMValueRef a) { return LLVMBuildNot(l->b, a, ""); }
static LLVMValueRef select_(Lower *l, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildSelect(l->b, c, a, b, "");
}

/* NumPy's arithmetic on elements of type t: ints wrap, bools are logical. */
static LLVMValueRef add(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (ty_is_float(t)) return LLVMBuildFAdd(l->b, a, b, "");
  return t->kind == TY_BOOL ? or_(l, a, b) : LLVMBuildAdd(l->b, a, b, "");
}

static LLVMValueRef mul(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (ty_is_float(t)) return LLVMBuildFMul(l->b, a, b, "");
  return t->kind == TY_BOOL ? and_(l, a, b) : LLVMBuildMul(l->b, a, b, "");
}

static LLVMValueRef sub(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
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
  if (ty_is_int(to)) {
    LLVMTypeRef ov[2] = {dst, LLVMTypeOf(v)};
    return lo_intrinsic(l, ty_is_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat", ov, 2, &v, 1);
  }
  return LLVMBuildFPCast(l->b, v, dst, "");
}

static LLVMValueRef sqrt_lanes(Lower *l, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return lo_intrinsic(l, "llvm.sqrt", &t, 1, &v, 1);
}

/* total / count as mean and var divide: in float64 (NumPy's count is an
 * intp), rounded to the accumulator's type. */
static LLVMValueRef divide(Lower *l, const Type *acc, LLVMValueRef total, LLVMValueRef count) {
  const Type *f64 = TYS(TY_F64);
  LLVMValueRef q = LLVMBuildFDiv(l->b, cast_lanes(l, total, acc, f64), splat(l, count, width(total)), "");
  return cast_lanes(l, q, f64, acc);
}

static int item_size(const Type *t) { return ty_bits(t) / 8; }

/* The number of elements of an array value. */
static LLVMValueRef size_of(Lower *l, const Type *t, LLVMValueRef v) {
  LLVMValueRef n = const_i64(l, 1);
  for (int d = 0; d < t->ndim; d++) n = LLVMBuildMul(l->b, n, lo_arr_shape(l, v, d), "");
  return n;
}

static LLVMValueRef data_of(Lower *l, LLVMValueRef a) { return LLVMBuildExtractValue(l->b, a, 2, "data"); }

static LLVMValueRef byte_at(Lower *l, LLVMValueRef p, LLVMValueRef offset) {
  return LLVMBuildInBoundsGEP2(l->b, l->mod->i8, p, &offset, 1, "");
}

/* w elements of type t: from data + i*stride (bytes), or from element i of
 * contiguous memory (unit) with one vector load. */
static LLVMValueRef row_load(Lower *l, const Type *t, LLVMValueRef data, LLVMValueRef stride, bool unit,
                             LLVMValueRef i, int w) {
  LLVMTypeRef st = lo_storage_type(l, t);
  if (w > 1 && unit) {
    LLVMValueRef v = LLVMBuildLoad2(l->b, LLVMVectorType(st, (unsigned)w), LLVMBuildInBoundsGEP2(l->b, st, data, &i, 1, ""), "");
    LLVMSetAlignment(v, (unsigned)item_size(t));
    return t->kind == TY_BOOL ? LLVMBuildICmp(l->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "") : v;
  }
  LLVMValueRef r = LLVMGetUndef(lanes_of(l, t, w));
  for (int j = 0; j < w; j++) {
    LLVMValueRef k = j ? LLVMBuildAdd(l->b, i, const_i64(l, j), "") : i;
    LLVMValueRef p = unit ? LLVMBuildInBoundsGEP2(l->b, st, data, &k, 1, "")
                          : byte_at(l, data, LLVMBuildMul(l->b, k, stride, ""));
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
    LLVMSetAlignment(LLVMBuildStore(l->b, v, p), (unsigned)item_size(t));
    return;
  }
  for (int j = 0; j < w; j++)
    lo_store_scalar(l, t, j ? byte_at(l, p, LLVMBuildMul(l->b, const_i64(l, j), stride, "")) : p, lane(l, v, j));
}

/* ---------------------------------------------------------------- sources */

typedef enum { SRC_ONE, SRC_ROW, SRC_FLAT, SRC_STREAM, SRC_COLUMNS } SrcKind;

struct Src {
  SrcKind kind;
  const Type *elem;          /* what the elements are */
  LLVMValueRef n;            /* elements per output */
  LLVMValueRef one;          /* SRC_ONE: the element */
  LLVMValueRef data, stride; /* SRC_ROW, SRC_COLUMNS: element i at data + i*stride bytes */
  bool unit;                 /* SRC_ROW: contiguous; SRC_COLUMNS: the outputs' columns adjacent */
  LLVMValueRef lane_stride;  /* SRC_COLUMNS: bytes from one output's column to the next */
  int w;                     /* SRC_COLUMNS: outputs at once */
  const Type *raw, *raw2;    /* SRC_ROW of a product: the factors' types (elem is theirs promoted), */
  LLVMValueRef data2;        /* and the second factor's contiguous memory */
  Elements *elems;           /* SRC_FLAT, SRC_STREAM: an expression's elements */
  LLVMValueRef inner;        /* SRC_STREAM: its innermost dimension */
};

/* w elements from element i (a column source: element i of w outputs). */
static LLVMValueRef src_load(Lower *l, const Src *s, LLVMValueRef i, int w) {
  switch (s->kind) {
  case SRC_ONE: return s->one;
  case SRC_ROW: {
    if (!s->data2) return row_load(l, s->elem, s->data, s->stride, s->unit, i, w);
    LLVMValueRef x = row_load(l, s->raw, s->data, s->stride, true, i, w);
    LLVMValueRef y = row_load(l, s->raw2, s->data2, s->stride, true, i, w);
    return mul(l, s->elem, cast_lanes(l, x, s->raw, s->elem), cast_lanes(l, y, s->raw2, s->elem));
  }
  case SRC_FLAT: {
    LLVMValueRef r = LLVMGetUndef(lanes_of(l, s->elem, w));
    for (int j = 0; j < w; j++) {
      LLVMValueRef x = lo_element_at(l, s->elems, j ? LLVMBuildAdd(l->b, i, const_i64(l, j), "") : i);
      if (w == 1) return x;
      r = LLVMBuildInsertElement(l->b, r, x, const_i32(l, j), "");
    }
    return r;
  }
  default: {
    LLVMValueRef base = byte_at(l, s->data, LLVMBuildMul(l->b, i, s->stride, ""));
    return row_load(l, s->elem, base, s->lane_stride, s->unit, const_i64(l, 0), w);
  }
  }
}

/* ---------------------------------------------------------------- passes */

typedef struct Pass {
  Kind kind;
  Prep prep;
  const Type *elem;      /* the source's elements */
  const Type *acc;       /* what they are accumulated as */
  const Type *dev;       /* P_DEVIATION: x - center is computed in this type */
  LLVMValueRef center;   /* P_DEVIATION: the mean, of type dev (a lane per output) */
} Pass;

/* A pass's accumulator: a value, the index of an arg* kind's value (or
 * ptp's max), and for float min/max a flag that a NaN was seen (the
 * values then compare without NaN, which vectorises): a mask as wide as
 * the values, all ones in a lane that saw one. */
typedef struct State {
  LLVMValueRef v, i, nan;
} State;

static bool is_arg(Kind k) { return k >= K_ARGMIN && k <= K_NANARGMAX; }
static bool flags_nan(const Pass *p) {
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

static LLVMValueRef prepare(Lower *l, const Pass *p, LLVMValueRef x) {
  const Type *e = p->elem, *a = p->acc, *b = TYS(TY_BOOL);
  int w = width(x);
  switch (p->prep) {
  case P_NONE: return cast_lanes(l, x, e, a);
  case P_NAN_ZERO: case P_NAN_ONE: {
    LLVMValueRef y = cast_lanes(l, x, e, a);
    if (!ty_is_float(e)) return y;
    LLVMValueRef fill = p->prep == P_NAN_ZERO ? LLVMConstNull(lo_type(l, a)) : one_of(l, a);
    return select_(l, is_nan(l, e, x), splat(l, fill, w), y);
  }
  case P_TRUTH: return cast_lanes(l, cast_lanes(l, x, e, b), b, a);
  case P_NOT_NAN: return cast_lanes(l, not_(l, is_nan(l, e, x)), b, a);
  default: {
    LLVMValueRef d = sub(l, p->dev, cast_lanes(l, x, e, p->dev), splat(l, p->center, w));
    d = cast_lanes(l, mul(l, p->dev, d, d), p->dev, a);
    if (p->prep == P_DEVIATION_NAN && ty_is_float(e)) d = select_(l, is_nan(l, e, x), LLVMConstNull(LLVMTypeOf(d)), d);
    return d;
  }
  }
}

static LLVMValueRef load_prepared(Lower *l, const Pass *p, const Src *s, LLVMValueRef i, int w) {
  return prepare(l, p, src_load(l, s, i, w));
}

static State identity(Lower *l, const Pass *p, int w) {
  const Type *t = p->acc;
  State s = {NULL, NULL, NULL};
  switch (p->kind) {
  case K_SUM: case K_ANY: s.v = LLVMConstNull(lo_type(l, t)); break;
  case K_PROD: case K_ALL: s.v = one_of(l, t); break;
  case K_MIN: case K_ARGMIN: s.v = extreme(l, t, true); break;
  case K_MAX: case K_ARGMAX: s.v = extreme(l, t, false); break;
  case K_FMIN: case K_NANARGMIN: s.v = ty_is_float(t) ? lo_fconst(l, t, NAN) : extreme(l, t, true); break;
  case K_FMAX: case K_NANARGMAX: s.v = ty_is_float(t) ? lo_fconst(l, t, NAN) : extreme(l, t, false); break;
  case K_MINMAX: s.v = extreme(l, t, true); s.i = extreme(l, t, false); break;
  }
  s.v = splat(l, s.v, w);
  if (s.i) s.i = splat(l, s.i, w);
  if (is_arg(p->kind)) s.i = splat(l, const_i64(l, 0), w);
  LLVMTypeRef mask = LLVMIntTypeInContext(l->mod->c, (unsigned)t->bits);
  if (ty_is_float(t)) s.nan = LLVMConstNull(w == 1 ? mask : LLVMVectorType(mask, (unsigned)w));
  return s;
}

/* Whether x (at a later index) replaces m as an arg* kind's value. */
static LLVMValueRef arg_takes(Lower *l, Kind k, const Type *t, LLVMValueRef m, LLVMValueRef x) {
  bool min = k == K_ARGMIN || k == K_NANARGMIN;
  LLVMValueRef better = min ? less(l, t, x, m) : less(l, t, m, x);
  if (!ty_is_float(t)) return better;
  if (k == K_ARGMIN || k == K_ARGMAX) /* the first NaN */
    return or_(l, better, and_(l, is_nan(l, t, x), not_(l, is_nan(l, t, m))));
  return or_(l, better, and_(l, is_nan(l, t, m), not_(l, is_nan(l, t, x))));  /* anything but NaN */
}

/* The step of a pass: x (prepared) at index idx. With `plain`, arg* kinds
 * compare without NaN (run_row looks for the first NaN apart). */
static State step(Lower *l, const Pass *p, State s, LLVMValueRef x, LLVMValueRef idx, bool plain) {
  const Type *t = p->acc;
  switch (p->kind) {
  case K_SUM: s.v = add(l, t, s.v, x); break;
  case K_PROD: s.v = mul(l, t, s.v, x); break;
  case K_ANY: s.v = or_(l, s.v, x); break;
  case K_ALL: s.v = and_(l, s.v, x); break;
  case K_MIN: s.v = select_(l, less(l, t, x, s.v), x, s.v); break;
  case K_MAX: s.v = select_(l, less(l, t, s.v, x), x, s.v); break;
  case K_MINMAX:
    s.v = select_(l, less(l, t, x, s.v), x, s.v);
    s.i = select_(l, less(l, t, s.i, x), x, s.i);
    break;
  case K_FMIN: s.v = select_(l, or_(l, less(l, t, x, s.v), is_nan(l, t, s.v)), x, s.v); break;
  case K_FMAX: s.v = select_(l, or_(l, less(l, t, s.v, x), is_nan(l, t, s.v)), x, s.v); break;
  default: {
    bool min = p->kind == K_ARGMIN;
    LLVMValueRef take = plain ? (min ? less(l, t, x, s.v) : less(l, t, s.v, x)) : arg_takes(l, p->kind, t, s.v, x);
    s.v = select_(l, take, x, s.v);
    s.i = select_(l, take, idx, s.i);
  }
  }
  if (flags_nan(p)) s.nan = or_(l, s.nan, LLVMBuildSExt(l->b, is_nan(l, t, x), LLVMTypeOf(s.nan), ""));
  return s;
}

/* b's elements merged into a's (lanes, or runs of elements, of one output). */
static State merge(Lower *l, const Pass *p, State a, State b) {
  const Type *t = p->acc;
  State r;
  if (is_arg(p->kind)) {
    LLVMValueRef same = equal(l, t, a.v, b.v);
    if (p->kind == K_ARGMIN || p->kind == K_ARGMAX) same = or_(l, same, and_(l, is_nan(l, t, a.v), is_nan(l, t, b.v)));
    LLVMValueRef earlier = LLVMBuildICmp(l->b, LLVMIntSLT, b.i, a.i, "");
    LLVMValueRef take = or_(l, arg_takes(l, p->kind, t, a.v, b.v), and_(l, same, earlier));
    r = (State){select_(l, take, b.v, a.v), select_(l, take, b.i, a.i), a.nan};
  } else {
    r = step(l, p, a, b.v, NULL, false);
    if (p->kind == K_MINMAX) r.i = select_(l, less(l, t, a.i, b.i), b.i, a.i);
  }
  if (a.nan) r.nan = or_(l, a.nan, b.nan);
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
    s = merge(l, p, (State){lanes(l, s.v, 0, w), lanes(l, s.i, 0, w), lanes(l, s.nan, 0, w)},
              (State){lanes(l, s.v, w, w), lanes(l, s.i, w, w), lanes(l, s.nan, w, w)});
  return s;
}

static LLVMValueRef nan_seen(Lower *l, State s) {
  return LLVMBuildICmp(l->b, LLVMIntNE, s.nan, LLVMConstNull(LLVMTypeOf(s.nan)), "");
}

/* A NaN seen by float min/max makes the result NaN. */
static State resolve(Lower *l, const Pass *p, State s) {
  if (!flags_nan(p)) return s;
  LLVMValueRef nan = splat(l, lo_fconst(l, p->acc, NAN), width(s.v)), seen = nan_seen(l, s);
  s.v = select_(l, seen, nan, s.v);
  if (p->kind == K_MINMAX) s.i = select_(l, seen, nan, s.i);
  return s;
}

/* A state carried around a loop, in allocas. */
typedef struct StateVar {
  LLVMValueRef v, i, nan;
} StateVar;

static LLVMValueRef var_of(Lower *l, LLVMValueRef init, const char *name) {
  if (!init) return NULL;
  LLVMValueRef a = lo_alloca(l, LLVMTypeOf(init), name);
  LLVMBuildStore(l->b, init, a);
  return a;
}

static StateVar state_var(Lower *l, State s) {
  return (StateVar){var_of(l, s.v, "acc"), var_of(l, s.i, "acc.index"), var_of(l, s.nan, "acc.nan")};
}

static LLVMValueRef load_var(Lower *l, LLVMValueRef a) {
  return a ? LLVMBuildLoad2(l->b, LLVMGetAllocatedType(a), a, "") : NULL;
}

static State state_load(Lower *l, const StateVar *sv) {
  return (State){load_var(l, sv->v), load_var(l, sv->i), load_var(l, sv->nan)};
}

static void state_store(Lower *l, const StateVar *sv, State s) {
  LLVMBuildStore(l->b, s.v, sv->v);
  if (sv->i) LLVMBuildStore(l->b, s.i, sv->i);
  if (sv->nan) LLVMBuildStore(l->b, s.nan, sv->nan);
}

/* The end of a loop LLVM should leave as it is: its body is vectors
 * already, or it runs fewer times than a vector has lanes. */
static void end_loop(Lower *l, LoLoop *loop) { lo_loop_hints(l, lo_loop_end(l, loop), false); }

/* ------------------------------------------------ NumPy's pairwise sum */

/* A block of at most 128: fewer than 8 one by one from 0; else 8
 * accumulators from the first 8, added as ((0+1)+(2+3))+((4+5)+(6+7)),
 * then the rest one by one. */
static LLVMValueRef pairwise_block(Lower *l, const Pass *p, const Src *s, LLVMValueRef start, LLVMValueRef count) {
  const Type *t = p->acc;
  LLVMValueRef total = var_of(l, LLVMConstNull(lo_type(l, t)), "pw.total");
  LLVMValueRef lanes_used = LLVMBuildICmp(l->b, LLVMIntSGE, count, const_i64(l, PAIRWISE), "");
  LLVMValueRef whole = select_(l, lanes_used, LLVMBuildAnd(l->b, count, const_i64(l, -PAIRWISE), ""), const_i64(l, 0));
  LLVMBasicBlockRef lanes = new_block(l, "pw.lanes"), rest = new_block(l, "pw.rest");
  LLVMBuildCondBr(l->b, lanes_used, lanes, rest);
  position(l, lanes);
  LLVMValueRef acc = var_of(l, load_prepared(l, p, s, start, PAIRWISE), "pw.acc");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 1), LLVMBuildLShr(l->b, whole, const_i64(l, 3), ""), NULL, "pw.step");
  LLVMValueRef at = LLVMBuildAdd(l->b, start, LLVMBuildShl(l->b, loop.index, const_i64(l, 3), ""), "");
  LLVMBuildStore(l->b, add(l, t, load_var(l, acc), load_prepared(l, p, s, at, PAIRWISE)), acc);
  end_loop(l, &loop);
  LLVMValueRef r = load_var(l, acc), x[PAIRWISE];
  for (int j = 0; j < PAIRWISE; j++) x[j] = lane(l, r, j);
  LLVMValueRef sum = add(l, t, add(l, t, add(l, t, x[0], x[1]), add(l, t, x[2], x[3])),
                         add(l, t, add(l, t, x[4], x[5]), add(l, t, x[6], x[7])));
  LLVMBuildStore(l->b, sum, total);
  LLVMBuildBr(l->b, rest);
  position(l, rest);
  LoLoop each = lo_loop_begin(l, whole, count, NULL, "pw.each");
  LLVMValueRef y = load_prepared(l, p, s, LLVMBuildAdd(l->b, start, each.index, ""), 1);
  LLVMBuildStore(l->b, add(l, t, load_var(l, total), y), total);
  end_loop(l, &each);
  return load_var(l, total);
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
  LLVMBuildStore(l->b, add(l, p->acc, l_sum, LLVMBuildLoad2(l->b, t, ret, "")), ret);
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

/* in + the pairwise sum of the source's elements (cast ones BUFFER at a time). */
static LLVMValueRef float_sum(Lower *l, const Pass *p, const Src *s, LLVMValueRef in) {
  if (!casts(p)) return add(l, p->acc, in, pairwise(l, p, s, const_i64(l, 0), s->n));
  LLVMValueRef total = var_of(l, in, "sum");
  LLVMValueRef chunks = LLVMBuildSDiv(l->b, LLVMBuildAdd(l->b, s->n, const_i64(l, BUFFER - 1), ""), const_i64(l, BUFFER), "");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), chunks, NULL, "chunk");
  LLVMValueRef start = LLVMBuildMul(l->b, loop.index, const_i64(l, BUFFER), "");
  LLVMValueRef rest = LLVMBuildSub(l->b, s->n, start, "");
  LLVMValueRef count = select_(l, LLVMBuildICmp(l->b, LLVMIntSLT, rest, const_i64(l, BUFFER), ""), rest, const_i64(l, BUFFER));
  LLVMBuildStore(l->b, add(l, p->acc, load_var(l, total), pairwise(l, p, s, start, count)), total);
  end_loop(l, &loop);
  return load_var(l, total);
}

/* ------------------------------------------------ rows, streams, columns */

/* argmin/argmax of floats compared without NaN: where the elements' sum
 * (the probe) is NaN, the first NaN, if there is one, is the answer. */
static State first_nan(Lower *l, const Pass *p, const Src *s, State r, LLVMValueRef probe, LLVMValueRef base) {
  StateVar sv = state_var(l, r);
  LLVMBasicBlockRef scan = new_block(l, "nan.scan"), found = new_block(l, "nan.found"), done = new_block(l, "nan.done");
  LLVMBuildCondBr(l->b, is_nan(l, p->acc, probe), scan, done);
  position(l, scan);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), s->n, done, "nan.at");
  LLVMValueRef x = load_prepared(l, p, s, loop.index, 1);
  LLVMBasicBlockRef cont = new_block(l, "nan.next");
  LLVMValueRef i = loop.index;
  LLVMBuildCondBr(l->b, is_nan(l, p->acc, x), found, cont);
  position(l, found);
  state_store(l, &sv, (State){x, LLVMBuildAdd(l->b, base, i, ""), r.nan});
  LLVMBuildBr(l->b, done);
  position(l, cont);
  end_loop(l, &loop);
  return state_load(l, &sv);
}

/* A row or flat source's elements merged into in; base: the index of the
 * first. Lanes of LANES elements, folded, then the rest one by one. */
static State run_row(Lower *l, const Pass *p, const Src *s, State in, LLVMValueRef base) {
  if (pairwise_sum(p)) {
    in.v = float_sum(l, p, s, in.v);
    return in;
  }
  bool plain = (p->kind == K_ARGMIN || p->kind == K_ARGMAX) && ty_is_float(p->acc);
  int w = in_order(p) ? 1 : is_arg(p->kind) ? ARG_LANES : LANES;
  State start = identity(l, p, 1);
  LLVMValueRef whole = const_i64(l, 0), probe = plain ? lo_fconst(l, p->acc, 0) : NULL;
  if (w > 1) {
    /* an arg* kind's lanes note the step they took a value at: lane j
     * of step k is element k*w + j (a lane never taken: its first) */
    StateVar sv = state_var(l, identity(l, p, w));
    LLVMValueRef k = var_of(l, splat(l, const_i64(l, 0), w), "lanes.step");
    LLVMValueRef sum = plain ? var_of(l, splat(l, probe, w), "lanes.probe") : NULL;
    LoLoop loop = lo_loop_begin(l, const_i64(l, 0), LLVMBuildSDiv(l->b, s->n, const_i64(l, w), ""), NULL, "lanes");
    LLVMValueRef x = load_prepared(l, p, s, LLVMBuildMul(l->b, loop.index, const_i64(l, w), ""), w), at = load_var(l, k);
    state_store(l, &sv, step(l, p, state_load(l, &sv), x, at, plain));
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, at, splat(l, const_i64(l, 1), w), ""), k);
    if (plain) LLVMBuildStore(l->b, LLVMBuildFAdd(l->b, load_var(l, sum), x, ""), sum);
    end_loop(l, &loop);
    State lanes = state_load(l, &sv);
    if (is_arg(p->kind)) {
      LLVMValueRef first = LLVMBuildMul(l->b, lanes.i, splat(l, const_i64(l, w), w), "");
      lanes.i = LLVMBuildAdd(l->b, LLVMBuildAdd(l->b, first, iota(l, w), ""), splat(l, base, w), "");
    }
    start = fold(l, p, lanes);
    if (plain) probe = fold(l, &(Pass){K_SUM, P_NONE, p->acc, p->acc}, (State){load_var(l, sum)}).v;
    whole = LLVMBuildMul(l->b, LLVMBuildSDiv(l->b, s->n, const_i64(l, w), ""), const_i64(l, w), "");
  }
  StateVar tv = state_var(l, start);
  LLVMValueRef sum = plain ? var_of(l, probe, "probe") : NULL;
  LoLoop rest = lo_loop_begin(l, whole, s->n, NULL, "rest");
  LLVMValueRef x = load_prepared(l, p, s, rest.index, 1);
  state_store(l, &tv, step(l, p, state_load(l, &tv), x, LLVMBuildAdd(l->b, base, rest.index, ""), plain));
  if (plain) LLVMBuildStore(l->b, LLVMBuildFAdd(l->b, load_var(l, sum), x, ""), sum);
  end_loop(l, &rest);
  State r = state_load(l, &tv);
  if (plain) r = first_nan(l, p, s, r, load_var(l, sum), base);
  return merge(l, p, in, r);
}

/* The stream's buffer: one per function, BUFFER elements of up to 8 bytes. */
static LLVMValueRef stream_buffer(Lower *l) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(l->fn);
  for (LLVMValueRef i = LLVMGetFirstInstruction(entry); i; i = LLVMGetNextInstruction(i)) {
    size_t len;
    if (LLVMIsAAllocaInst(i) && !strcmp(LLVMGetValueName2(i, &len), "reduce.buffer")) return i;
  }
  LLVMValueRef b = lo_alloca(l, LLVMArrayType2(l->mod->i64, BUFFER), "reduce.buffer");
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
             .stride = const_i64(l, item_size(st->elem))};
  LLVMValueRef base = load_var(l, st->base);
  state_store(l, &st->acc, run_row(l, st->p, &row, state_load(l, &st->acc), base));
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, base, count, ""), st->base);
  LLVMBuildStore(l->b, const_i64(l, 0), st->k);
}

static void stream_element(Lower *l, LLVMValueRef v, void *arg) {
  Stream *st = arg;
  LLVMValueRef k = load_var(l, st->k);
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

/* The elements in C order, BUFFER at a time (whole rows of the innermost
 * dimension where they fit, as NumPy's buffer), each buffer a row. */
static State run_stream(Lower *l, const Pass *p, const Src *s) {
  LLVMValueRef fits = and_(l, LLVMBuildICmp(l->b, LLVMIntSGT, s->inner, const_i64(l, 0), ""),
                           LLVMBuildICmp(l->b, LLVMIntSLE, s->inner, const_i64(l, BUFFER), ""));
  LLVMValueRef rows = LLVMBuildSDiv(l->b, const_i64(l, BUFFER), select_(l, fits, s->inner, const_i64(l, 1)), "");
  LLVMValueRef limit = select_(l, fits, LLVMBuildMul(l->b, rows, s->inner, ""), const_i64(l, BUFFER));
  Stream st = {p, s->elem, stream_buffer(l), var_of(l, const_i64(l, 0), "buffer.k"), var_of(l, const_i64(l, 0), "buffer.base"),
               limit, state_var(l, identity(l, p, 1))};
  lo_elements_each(l, s->elems, stream_element, &st);
  flush(l, &st, load_var(l, st.k));
  return state_load(l, &st.acc);
}

/* Adjacent outputs' elements, one lane each, in order along the axis. */
static State run_columns(Lower *l, const Pass *p, const Src *s) {
  StateVar sv = state_var(l, identity(l, p, s->w));
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), s->n, NULL, "along");
  LLVMValueRef x = load_prepared(l, p, s, loop.index, s->w);
  state_store(l, &sv, step(l, p, state_load(l, &sv), x, splat(l, loop.index, s->w), false));
  end_loop(l, &loop);
  return state_load(l, &sv);
}

/* One pass over a source: its state, a lane per output. */
static State run_pass(Lower *l, const Pass *p, const Src *s) {
  State r;
  switch (s->kind) {
  case SRC_ONE: r = step(l, p, identity(l, p, 1), prepare(l, p, s->one), const_i64(l, 0), false); break;
  case SRC_STREAM: r = run_stream(l, p, s); break;
  case SRC_COLUMNS: r = run_columns(l, p, s); break;
  default: r = run_row(l, p, s, identity(l, p, 1), const_i64(l, 0)); break;
  }
  return resolve(l, p, r);
}

/* ---------------------------------------------------------------- results */

static LLVMValueRef any_lane(Lower *l, LLVMValueRef v) {
  LLVMValueRef r = lane(l, v, 0);
  for (int j = 1; j < width(v); j++) r = or_(l, r, lane(l, v, j));
  return r;
}

static LLVMValueRef count_of(Lower *l, const Src *s) { return LLVMBuildSIToFP(l->b, s->n, l->mod->f64, ""); }

/* The elements that are not NaN, as float64. */
static LLVMValueRef nan_count(Lower *l, const Src *s) {
  if (!ty_is_float(s->elem)) return count_of(l, s);
  Pass p = {K_SUM, P_NOT_NAN, s->elem, TYS(TY_I64)};
  return cast_lanes(l, run_pass(l, &p, s).v, TYS(TY_I64), TYS(TY_F64));
}

/* sum, prod, min, max, argmin, argmax, any, all, count_nonzero and nan*: one pass. */
static LLVMValueRef fin_value(Lower *l, const Call *c, Src *s) {
  Kind k = c->r->kind;
  Pass p = {k, c->r->prep, s->elem, is_arg(k) ? s->elem : c->res};
  State r = run_pass(l, &p, s);
  if (!is_arg(k)) return r.v;
  if ((k == K_NANARGMIN || k == K_NANARGMAX) && ty_is_float(s->elem))
    lo_raise_if(l, any_lane(l, is_nan(l, s->elem, r.v)), RT_ERR_VALUE, "All-NaN slice encountered");
  return r.i;
}

static LLVMValueRef fin_mean(Lower *l, const Call *c, Src *s) {
  Pass p = {K_SUM, P_NONE, s->elem, c->res};
  return divide(l, c->res, run_pass(l, &p, s).v, count_of(l, s));
}

static LLVMValueRef fin_nanmean(Lower *l, const Call *c, Src *s) {
  LLVMValueRef count = nan_count(l, s);
  Pass p = {K_SUM, P_NAN_ZERO, s->elem, c->res};
  return divide(l, c->res, run_pass(l, &p, s).v, count);
}

/* NumPy's var: the mean, then the sum of squared deviations over
 * max(count - ddof, 0); nanvar ignores NaN and is NaN where count <= ddof. */
static LLVMValueRef variance(Lower *l, const Call *c, Src *s, bool nan) {
  const Type *a = c->res, *f64 = TYS(TY_F64);
  nan = nan && ty_is_float(s->elem);
  LLVMValueRef count = nan ? nan_count(l, s) : count_of(l, s);
  Pass sum = {K_SUM, nan ? P_NAN_ZERO : P_NONE, s->elem, a};
  LLVMValueRef mean = divide(l, a, run_pass(l, &sum, s).v, count);
  Pass dev = {K_SUM, nan ? P_DEVIATION_NAN : P_DEVIATION, s->elem, a, np_promote(s->elem, a)};
  dev.center = cast_lanes(l, mean, a, dev.dev);
  LLVMValueRef squares = run_pass(l, &dev, s).v;
  int w = width(squares);
  LLVMValueRef zero = splat(l, lo_fconst(l, f64, 0), w);
  LLVMValueRef dof = LLVMBuildFSub(l->b, splat(l, count, w), splat(l, c->ddof, w), "");
  LLVMValueRef none = LLVMBuildFCmp(l->b, LLVMRealOLE, dof, zero, "");
  if (!nan) return divide(l, a, squares, select_(l, none, zero, dof));
  return select_(l, none, splat(l, lo_fconst(l, a, NAN), w), divide(l, a, squares, dof));
}

static LLVMValueRef fin_var(Lower *l, const Call *c, Src *s) { return variance(l, c, s, false); }
static LLVMValueRef fin_std(Lower *l, const Call *c, Src *s) { return sqrt_lanes(l, variance(l, c, s, false)); }
static LLVMValueRef fin_nanvar(Lower *l, const Call *c, Src *s) { return variance(l, c, s, true); }
static LLVMValueRef fin_nanstd(Lower *l, const Call *c, Src *s) { return sqrt_lanes(l, variance(l, c, s, true)); }

/* ptp: max - min in the elements' type (ints wrap, as NumPy's subtract) */
static LLVMValueRef fin_ptp(Lower *l, const Call *c, Src *s) {
  Pass p = {K_MINMAX, P_NONE, s->elem, s->elem};
  State r = run_pass(l, &p, s);
  return sub(l, s->elem, r.i, r.v);
}

#define NO_IDENTITY(op) "zero-size array to reduction operation " op " which has no identity"

static const Reduction reductions[R_COUNT] = {
  [R_SUM] = {RULE_SUM, K_SUM, P_NONE, fin_value, NULL},
  [R_PROD] = {RULE_SUM, K_PROD, P_NONE, fin_value, NULL},
  [R_MEAN] = {RULE_MEAN, K_SUM, P_NONE, fin_mean, NULL},
  [R_VAR] = {RULE_MEAN, K_SUM, P_NONE, fin_var, NULL},
  [R_STD] = {RULE_MEAN, K_SUM, P_NONE, fin_std, NULL},
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
  [R_NANMEAN] = {RULE_MEAN, K_SUM, P_NONE, fin_nanmean, NULL},
  [R_NANVAR] = {RULE_MEAN, K_SUM, P_NONE, fin_nanvar, NULL},
  [R_NANSTD] = {RULE_MEAN, K_SUM, P_NONE, fin_nanstd, NULL},
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
                axis_error};
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

/* A number or an array: a contiguous one (a Fortran one in memory order,
 * but for arg*) or a 1-d one read as a row, any other through its elements. */
static LLVMValueRef reduce_all(Lower *l, const Call *c, Node *a) {
  const Type *t = a->ty;
  if (t->kind != TY_ARRAY) {
    Src s = {.kind = SRC_ONE, .elem = t, .n = const_i64(l, 1), .one = lo_expr(l, a)};
    return finish(l, c, &s);
  }
  bool row = t->ndim <= 1 || t->layout == 'C' || (t->layout == 'F' && !is_arg(c->r->kind));
  if (lo_is_elementwise(a) || !row) return reduce_elements(l, c, a);
  LLVMValueRef v = lo_expr(l, a);
  Src s = {.kind = SRC_ROW, .elem = t->elem, .n = size_of(l, t, v), .data = data_of(l, v), .unit = t->layout != 'A',
           .stride = t->ndim == 1 ? lo_arr_stride(l, t, v, 0) : const_i64(l, item_size(t->elem))};
  check_empty(l, c, s.n);
  if (t->ndim == 0) {
    s.kind = SRC_ONE;
    s.one = lo_load_scalar(l, t->elem, s.data);
  }
  LLVMValueRef r = finish(l, c, &s);
  lo_done_with(l, a, v);
  return r;
}

/* ---------------------------------------------------------------- along an axis */

/* Raises status with fmt's message holding v, where bad. */
static void raise_with_int(Lower *l, LLVMValueRef bad, RtStatus status, const char *fmt, LLVMValueRef v) {
  LLVMBasicBlockRef fail = new_block(l, "raise"), ok = new_block(l, "ok");
  LLVMBuildCondBr(l->b, bad, fail, ok);
  position(l, fail);
  LLVMTypeRef p[3] = {l->mod->i32, l->mod->ptr, l->mod->i64};
  lo_call_fn(l, "rt_error_int", void_type(l), p, (LLVMValueRef[]){const_i32(l, status), lo_string(l, fmt), v}, 3);
  lo_raise_recorded(l, status);
  position(l, ok);
}

typedef LLVMValueRef (*AxisBody)(Lower *l, int k, void *arg);

/* body for the axis an argument names, of an array of ndim dimensions: a
 * constant axis directly; one known at run time checked (error: a format
 * of the axis and ndim), then by a switch over the dimensions. The result
 * is of type t. */
static LLVMValueRef for_axis(Lower *l, Node *axis, int ndim, const Type *t, AxisBody body, void *arg, const char *error) {
  int64_t k;
  if (literal_int(axis, &k)) return body(l, (int)(k < 0 ? k + ndim : k), arg);
  LLVMValueRef given = lo_expr_as(l, axis, TYS(TY_I64));
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, given, const_i64(l, 0), "");
  LLVMValueRef v = select_(l, neg, LLVMBuildAdd(l->b, given, const_i64(l, ndim), ""), given);
  LLVMValueRef bad = or_(l, LLVMBuildICmp(l->b, LLVMIntSLT, v, const_i64(l, 0), ""),
                         LLVMBuildICmp(l->b, LLVMIntSGE, v, const_i64(l, ndim), ""));
  char fmt[128];
  snprintf(fmt, sizeof fmt, error, ndim);
  raise_with_int(l, bad, RT_ERR_VALUE, arena_strdup(l->f->arena, fmt), given);
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

static LLVMValueRef element_ptr(Lower *l, const Type *t, LLVMValueRef v, const LLVMValueRef *idx) {
  return byte_at(l, data_of(l, v), offset_of(l, t, v, idx));
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
  return byte_at(l, data_of(l, a->v), off);
}

static void row_result(Lower *l, LLVMValueRef *oidx, void *arg) {
  Along *a = arg;
  Src s = {.kind = SRC_ROW, .elem = a->t->elem, .n = a->nk, .data = input_ptr(l, a, oidx),
           .stride = lo_arr_stride(l, a->t, a->v, a->k), .unit = a->t->layout != 'A'};
  lo_store_scalar(l, a->ot->elem, element_ptr(l, a->ot, a->out, oidx), finish(l, a->c, &s));
}

static void column_results(Lower *l, Along *a, LLVMValueRef *oidx, LLVMValueRef j, int w) {
  oidx[a->mo] = j;
  Src s = {.kind = SRC_COLUMNS, .elem = a->t->elem, .n = a->nk, .data = input_ptr(l, a, oidx),
           .stride = lo_arr_stride(l, a->t, a->v, a->k), .lane_stride = lo_arr_stride(l, a->t, a->v, a->m),
           .unit = a->t->layout != 'A', .w = w};
  LLVMValueRef r = finish(l, a->c, &s);
  store_lanes(l, a->ot->elem, element_ptr(l, a->ot, a->out, oidx), r, lo_arr_stride(l, a->ot, a->out, a->mo),
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

/* n's reduction of a, over all its elements or along axis. */
static LLVMValueRef reduce(Lower *l, const Call *c, Node *n, Node *a, Node *axis) {
  int64_t k;
  int d = ndim_of(a->ty);
  if (!axis || (d == 1 && literal_int(axis, &k))) return reduce_all(l, c, a);
  if (d == 1) return for_axis(l, axis, 1, n->ty, reduce_whole, &(Whole){c, a}, c->axis_error);
  LLVMValueRef v = lo_expr(l, a);
  Along along = {c, a->ty, n->ty, v};
  LLVMValueRef r = for_axis(l, axis, d, n->ty, reduce_along, &along, c->axis_error);
  lo_done_with(l, a, v);
  return r;
}

static LLVMValueRef lo_reduce(Lower *l, Node *n) {
  Node *a = n->list.items[0];
  Call c = call_of(l, n, n->bi->ival, a);
  return reduce(l, &c, n, a, arg_node(n, 1, "axis"));
}

/* ---------------------------------------------------------------- cumsum, cumprod */

static const Type *ty_accumulate(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *axis = arg_node(n, 1, "axis");
  const Type *dtype;
  if (!need_values(in, n, a) || (axis && !check_axis(in, n, axis, ndim_of(a->ty))) ||
      !check_dtype(in, n, arg_node(n, 2, "dtype"), &dtype))
    return NULL;
  return ty_array(result_dtype(RULE_SUM, elem_of(a->ty), dtype), axis ? a->ty->ndim : 1, 'C', false);
}

/* Every element of e, in C order, to sink: by flat index where it can. */
static void each_element(Lower *l, Elements *e, LLVMValueRef count, ElementSink sink, void *arg) {
  LLVMValueRef flat = lo_elements_flat(l, e);
  LLVMBasicBlockRef done = new_block(l, "each.done");
  if (flat) {
    LLVMBasicBlockRef by_index = new_block(l, "each.flat"), strided = new_block(l, "each.strided");
    LLVMBuildCondBr(l->b, flat, by_index, strided);
    position(l, by_index);
    LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "each");
    sink(l, lo_element_at(l, e, loop.index), arg);
    lo_loop_end(l, &loop);
    LLVMBuildBr(l->b, done);
    position(l, strided);
  }
  lo_elements_each(l, e, sink, arg);
  LLVMBuildBr(l->b, done);
  position(l, done);
}

static LLVMValueRef elements_count(Lower *l, Elements *e, int ndim) {
  LLVMValueRef n = const_i64(l, 1);
  for (int d = 0; d < ndim; d++) n = LLVMBuildMul(l->b, n, lo_elements_shape(e, d), "");
  return n;
}

/* The running sum or product: the first element as it is, then op(previous, x). */
static LLVMValueRef running(Lower *l, ReductionId op, const Type *t, LLVMValueRef first, LLVMValueRef prev, LLVMValueRef x) {
  return select_(l, first, x, op == R_SUM ? add(l, t, prev, x) : mul(l, t, prev, x));
}

typedef struct Running {
  ReductionId op;
  const Type *from, *to;
  LLVMValueRef data, k, acc;  /* the result's memory, the elements so far, the last result */
} Running;

static void running_element(Lower *l, LLVMValueRef v, void *arg) {
  Running *r = arg;
  LLVMValueRef k = load_var(l, r->k), x = lo_convert(l, v, r->from, r->to);
  LLVMValueRef first = LLVMBuildICmp(l->b, LLVMIntEQ, k, const_i64(l, 0), "");
  LLVMValueRef y = running(l, r->op, r->to, first, load_var(l, r->acc), x);
  LLVMBuildStore(l->b, y, r->acc);
  lo_store_scalar(l, r->to, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, r->to), r->data, &k, 1, ""), y);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, const_i64(l, 1), ""), r->k);
}

/* Over all the elements, in C order: a 1-d result. */
static LLVMValueRef accumulate_all(Lower *l, Node *n, Node *a) {
  const Type *to = n->ty->elem;
  if (a->ty->kind != TY_ARRAY) {
    LLVMValueRef one = const_i64(l, 1), out = lo_alloc_array(l, n->ty, &one, -1);
    lo_store_scalar(l, to, data_of(l, out), lo_expr_as(l, a, to));
    return out;
  }
  Elements *e = lo_elements_begin(l, a);
  LLVMValueRef count = elements_count(l, e, a->ty->ndim), out = lo_alloc_array(l, n->ty, &count, -1);
  Running r = {n->bi->ival, a->ty->elem, to, data_of(l, out), var_of(l, const_i64(l, 0), "running.k"),
               var_of(l, LLVMConstNull(lo_type(l, to)), "running")};
  each_element(l, e, count, running_element, &r);
  lo_elements_end(l, e);
  return out;
}

typedef struct RunningAlong {
  ReductionId op;
  const Type *t, *ot;
  LLVMValueRef v, out;
  int k;
} RunningAlong;

static void running_along_element(Lower *l, LLVMValueRef *idx, void *arg) {
  RunningAlong *r = arg;
  LLVMValueRef x = lo_convert(l, lo_load_scalar(l, r->t->elem, element_ptr(l, r->t, r->v, idx)), r->t->elem, r->ot->elem);
  LLVMValueRef at = element_ptr(l, r->ot, r->out, idx);
  LLVMValueRef first = LLVMBuildICmp(l->b, LLVMIntEQ, idx[r->k], const_i64(l, 0), "");
  /* the previous result along the axis (at the first, the slot itself: not used) */
  LLVMValueRef back = LLVMBuildNeg(l->b, lo_arr_stride(l, r->ot, r->out, r->k), "");
  LLVMValueRef prev = lo_load_scalar(l, r->ot->elem, select_(l, first, at, byte_at(l, at, back)));
  lo_store_scalar(l, r->ot->elem, at, running(l, r->op, r->ot->elem, first, prev, x));
}

static LLVMValueRef accumulate_along(Lower *l, int k, void *arg) {
  RunningAlong *r = arg;
  LLVMValueRef shape[RC_MAX_NDIM];
  for (int d = 0; d < r->t->ndim; d++) shape[d] = lo_arr_shape(l, r->v, d);
  r->k = k;
  r->out = lo_alloc_array(l, r->ot, shape, -1);
  lo_for_each_index(l, r->t->ndim, shape, running_along_element, r);
  return r->out;
}

static LLVMValueRef lo_accumulate(Lower *l, Node *n) {
  Node *a = n->list.items[0], *axis = arg_node(n, 1, "axis");
  if (!axis) return accumulate_all(l, n, a);
  RunningAlong r = {n->bi->ival, a->ty, n->ty, lo_expr(l, a)};
  LLVMValueRef out = for_axis(l, axis, a->ty->ndim, n->ty, accumulate_along, &r, axis_error);
  lo_done_with(l, a, r.v);
  return out;
}

/* ---------------------------------------------------------------- diff */

static const Type *ty_diff(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *order = arg_node(n, 1, "n"), *axis = arg_node(n, 2, "axis");
  int64_t k;
  if (a->ty->kind != TY_ARRAY || a->ty->ndim == 0)
    return ty_error(in, a, "numpy.diff(): diff requires input that is at least one dimensional");
  if (order && !ty_is_int(order->ty)) return ty_error(in, order, "numpy.diff(): n must be an integer, got %s", order->ty->name);
  if (order && literal_int(order, &k) && k < 0)
    return ty_error(in, order, "numpy.diff(): order must be non-negative but got %lld", (long long)k);
  if (axis && !check_axis(in, n, axis, a->ty->ndim)) return NULL;
  return ty_array(a->ty->elem, a->ty->ndim, 'C', false);
}

typedef struct DiffPass {
  const Type *st, *dt;
  LLVMValueRef src, dst;
  int k;
  bool copy;  /* dst = src, not src's next along k minus src */
} DiffPass;

static void diff_element(Lower *l, LLVMValueRef *idx, void *arg) {
  DiffPass *d = arg;
  const Type *e = d->st->elem;
  LLVMValueRef p = element_ptr(l, d->st, d->src, idx), x = lo_load_scalar(l, e, p);
  if (!d->copy) x = sub(l, e, lo_load_scalar(l, e, byte_at(l, p, lo_arr_stride(l, d->st, d->src, d->k))), x);
  lo_store_scalar(l, e, element_ptr(l, d->dt, d->dst, idx), x);
}

/* Over dst's shape: in C order, so that src may be dst (each element is
 * read before it is written, and its next one after). */
static void diff_pass(Lower *l, DiffPass d, LLVMValueRef *shape) {
  lo_for_each_index(l, d.dt->ndim, shape, diff_element, &d);
}

typedef struct Diff {
  const Type *t, *ot;
  LLVMValueRef v, order;
} Diff;

static LLVMValueRef shorter(Lower *l, LLVMValueRef len, LLVMValueRef by) {
  LLVMValueRef r = LLVMBuildSub(l->b, len, by, "");
  return select_(l, LLVMBuildICmp(l->b, LLVMIntSLT, r, const_i64(l, 0), ""), const_i64(l, 0), r);
}

/* The n-th difference along k: once straight into the result; more times
 * in place in a temporary one shorter, then copied. */
static LLVMValueRef diff_along(Lower *l, int k, void *arg) {
  Diff *d = arg;
  int nd = d->t->ndim;
  LLVMValueRef shape[RC_MAX_NDIM], part[RC_MAX_NDIM], len = lo_arr_shape(l, d->v, k);
  for (int i = 0; i < nd; i++) shape[i] = part[i] = lo_arr_shape(l, d->v, i);
  shape[k] = shorter(l, len, d->order);
  LLVMValueRef out = lo_alloc_array(l, d->ot, shape, -1);
  LLVMBasicBlockRef copy = new_block(l, "diff.none"), once = new_block(l, "diff.once"), more = new_block(l, "diff.more");
  LLVMBasicBlockRef done = new_block(l, "diff.done");
  LLVMValueRef sw = LLVMBuildSwitch(l->b, d->order, more, 2);
  LLVMAddCase(sw, const_i64(l, 0), copy);
  LLVMAddCase(sw, const_i64(l, 1), once);
  position(l, copy);
  diff_pass(l, (DiffPass){d->t, d->ot, d->v, out, k, true}, shape);
  LLVMBuildBr(l->b, done);
  position(l, once);
  diff_pass(l, (DiffPass){d->t, d->ot, d->v, out, k, false}, shape);
  LLVMBuildBr(l->b, done);
  position(l, more);
  part[k] = shorter(l, len, const_i64(l, 1));
  LLVMValueRef tmp = lo_alloc_array(l, d->ot, part, -1);
  lo_temp_made(l, d->ot, tmp);
  diff_pass(l, (DiffPass){d->t, d->ot, d->v, tmp, k, false}, part);
  LoLoop again = lo_loop_begin(l, const_i64(l, 2), LLVMBuildAdd(l->b, d->order, const_i64(l, 1), ""), NULL, "diff.again");
  part[k] = shorter(l, len, again.index);
  diff_pass(l, (DiffPass){d->ot, d->ot, tmp, tmp, k, false}, part);
  lo_loop_end(l, &again);
  diff_pass(l, (DiffPass){d->ot, d->ot, tmp, out, k, true}, shape);
  lo_release_temp(l, d->ot, tmp);
  LLVMBuildBr(l->b, done);
  position(l, done);
  return out;
}

static LLVMValueRef lo_diff(Lower *l, Node *n) {
  Node *a = n->list.items[0], *order = arg_node(n, 1, "n"), *axis = arg_node(n, 2, "axis");
  Diff d = {a->ty, n->ty, lo_expr(l, a), order ? lo_expr_as(l, order, TYS(TY_I64)) : const_i64(l, 1)};
  raise_with_int(l, LLVMBuildICmp(l->b, LLVMIntSLT, d.order, const_i64(l, 0), ""), RT_ERR_VALUE,
                 "order must be non-negative but got %lld", d.order);
  int nd = a->ty->ndim;
  LLVMValueRef r = axis ? for_axis(l, axis, nd, n->ty, diff_along, &d, axis_error) : diff_along(l, nd - 1, &d);
  lo_done_with(l, a, d.v);
  return r;
}

/* ---------------------------------------------------------------- median, percentile, quantile */

enum { Q_MEDIAN, Q_PERCENTILE, Q_QUANTILE };

/* quantile(a, q) of an int q (0 or 1): an element itself, of a's dtype. */
static bool int_quantile(Node *n) {
  Node *q = arg_node(n, 1, "q");
  return n->bi->ival == Q_QUANTILE && ty_is_scalar(q->ty) && !ty_is_float(q->ty);
}

static const Type *ty_quantile(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *q = arg_node(n, 1, "q");
  if (!need_values(in, n, a)) return NULL;
  const Type *e = elem_of(a->ty);
  if (n->bi->ival == Q_MEDIAN) return result_dtype(RULE_MEAN, e, NULL);
  if (e->kind == TY_BOOL) return ty_error(in, n, "%s(): %s", n->bi->name, boolean_subtract);
  if (!q) return ty_error(in, n, "%s() missing argument 'q'", n->bi->name);
  if (q->ty->kind == TY_ARRAY && q->ty->ndim > 0 && q->ty->elem->kind != TY_BOOL) return ty_array(TYS(TY_F64), q->ty->ndim, 'C', false);
  if (!ty_is_scalar(q->ty) || q->ty->kind == TY_BOOL)
    return ty_error(in, q, "%s(): q must be a number or an array of numbers, got %s", n->bi->name, q->ty->name);
  if (int_quantile(n)) return e;  /* q 0 or 1: an element itself */
  return ty_is_float(e) ? e : TYS(TY_F64);
}

typedef struct Gather {
  const Type *elem;
  LLVMValueRef data, k, nan;
} Gather;

static void gather_element(Lower *l, LLVMValueRef v, void *arg) {
  Gather *g = arg;
  LLVMValueRef k = load_var(l, g->k);
  lo_store_scalar(l, g->elem, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, g->elem), g->data, &k, 1, ""), v);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, const_i64(l, 1), ""), g->k);
  LLVMBuildStore(l->b, or_(l, load_var(l, g->nan), is_nan(l, g->elem, v)), g->nan);
}

/* a's elements in a new 1-d array (a temp, partitioned in place); their
 * number, and whether one is NaN. */
static LLVMValueRef gather(Lower *l, Node *a, LLVMValueRef *count, LLVMValueRef *nan) {
  const Type *e = elem_of(a->ty), *t = ty_array(e, 1, 'C', false);
  Elements *el = a->ty->kind == TY_ARRAY ? lo_elements_begin(l, a) : NULL;
  *count = el ? elements_count(l, el, a->ty->ndim) : const_i64(l, 1);
  LLVMValueRef work = lo_alloc_array(l, t, count, -1);
  lo_temp_made(l, t, work);
  Gather g = {e, data_of(l, work), var_of(l, const_i64(l, 0), "gather.k"), var_of(l, const_bool(l, false), "gather.nan")};
  if (el) {
    each_element(l, el, *count, gather_element, &g);
    lo_elements_end(l, el);
  } else {
    gather_element(l, lo_expr(l, a), &g);
  }
  *nan = load_var(l, g.nan);
  return work;
}

/* The k-th smallest of n elements at data, which rt_partition moves into place. */
static LLVMValueRef kth(Lower *l, const Type *t, LLVMValueRef data, LLVMValueRef n, LLVMValueRef k) {
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i32};
  lo_call_fn(l, "rt_partition", void_type(l), p, (LLVMValueRef[]){data, n, k, const_i32(l, (int)t->kind)}, 4);
  return lo_load_scalar(l, t, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, t), data, &k, 1, ""));
}

/* NumPy's median: the mean of the middle one or two. */
static LLVMValueRef median_of(Lower *l, const Type *e, const Type *r, LLVMValueRef data, LLVMValueRef n) {
  LLVMValueRef half = LLVMBuildLShr(l->b, n, const_i64(l, 1), ""), hi = kth(l, e, data, n, half);
  LLVMValueRef out = var_of(l, LLVMConstNull(lo_type(l, r)), "median"), zero = LLVMConstNull(lo_type(l, r));
  LLVMBasicBlockRef one = new_block(l, "median.odd"), two = new_block(l, "median.even"), done = new_block(l, "median");
  LLVMBuildCondBr(l->b, LLVMBuildTrunc(l->b, n, l->mod->i1, ""), one, two);
  position(l, one);
  LLVMBuildStore(l->b, divide(l, r, add(l, r, zero, lo_convert(l, hi, e, r)), lo_fconst(l, TYS(TY_F64), 1)), out);
  LLVMBuildBr(l->b, done);
  position(l, two);
  LLVMValueRef lo = kth(l, e, data, half, LLVMBuildSub(l->b, half, const_i64(l, 1), ""));
  LLVMValueRef total = add(l, r, add(l, r, zero, lo_convert(l, lo, e, r)), lo_convert(l, hi, e, r));
  LLVMBuildStore(l->b, divide(l, r, total, lo_fconst(l, TYS(TY_F64), 2)), out);
  LLVMBuildBr(l->b, done);
  position(l, done);
  return load_var(l, out);
}

/* q (float64) as a fraction, checked. */
static LLVMValueRef fraction(Lower *l, Node *n, LLVMValueRef q) {
  bool percent = n->bi->ival == Q_PERCENTILE;
  if (percent) q = LLVMBuildFDiv(l->b, q, lo_fconst(l, TYS(TY_F64), 100), "");
  LLVMValueRef bad = or_(l, LLVMBuildFCmp(l->b, LLVMRealULT, q, lo_fconst(l, TYS(TY_F64), 0), ""),
                         LLVMBuildFCmp(l->b, LLVMRealUGT, q, lo_fconst(l, TYS(TY_F64), 1), ""));
  lo_raise_if(l, bad, RT_ERR_VALUE, percent ? "Percentiles must be in the range [0, 100]" : "Quantiles must be in the range [0, 1]");
  return q;
}

/* NumPy's "linear" quantile q of the n elements at data (none NaN), its
 * interpolation computed in type lt as NumPy's _lerp: from the lower
 * neighbour below gamma 0.5, from the upper one above. */
static LLVMValueRef quantile_of(Lower *l, const Type *e, const Type *lt, LLVMValueRef data, LLVMValueRef n, LLVMValueRef q) {
  const Type *f64 = TYS(TY_F64);
  LLVMValueRef last = LLVMBuildSub(l->b, n, const_i64(l, 1), ""), lastf = LLVMBuildSIToFP(l->b, last, l->mod->f64, "");
  LLVMValueRef at = LLVMBuildFMul(l->b, lastf, q, ""), below = lo_intrinsic1(l, "llvm.floor", f64, at);
  LLVMValueRef top = LLVMBuildFCmp(l->b, LLVMRealOGE, at, lastf, "");
  LLVMValueRef prev = select_(l, top, last, LLVMBuildFPToSI(l->b, below, l->mod->i64, ""));
  LLVMValueRef gamma = LLVMBuildFSub(l->b, at, select_(l, top, lo_fconst(l, f64, -1), below), "");
  LLVMValueRef a = kth(l, e, data, n, prev), b = var_of(l, a, "quantile.next");
  LLVMBasicBlockRef next = new_block(l, "quantile.next"), done = new_block(l, "quantile");
  LLVMBuildCondBr(l->b, top, done, next);
  position(l, next);
  LLVMValueRef rest = LLVMBuildAdd(l->b, prev, const_i64(l, 1), "");
  LLVMValueRef after = LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, e), data, &rest, 1, "");
  LLVMBuildStore(l->b, kth(l, e, after, LLVMBuildSub(l->b, n, rest, ""), const_i64(l, 0)), b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef bv = load_var(l, b), diff = lo_convert(l, sub(l, e, bv, a), e, lt);
  LLVMValueRef t = lo_convert(l, gamma, f64, lt), rest_t = lo_convert(l, LLVMBuildFSub(l->b, lo_fconst(l, f64, 1), gamma, ""), f64, lt);
  LLVMValueRef low = add(l, lt, lo_convert(l, a, e, lt), mul(l, lt, diff, t));
  LLVMValueRef high = sub(l, lt, lo_convert(l, bv, e, lt), mul(l, lt, diff, rest_t));
  return select_(l, LLVMBuildFCmp(l->b, LLVMRealOGE, gamma, lo_fconst(l, f64, 0.5), ""), high, low);
}

/* f() unless the elements hold a NaN (then NaN of type t). */
typedef LLVMValueRef (*Quantile)(Lower *l, void *arg);

static LLVMValueRef unless_nan(Lower *l, LLVMValueRef nan, const Type *t, Quantile f, void *arg) {
  LLVMValueRef out = var_of(l, ty_is_float(t) ? lo_fconst(l, t, NAN) : LLVMConstNull(lo_type(l, t)), "quantile.result");
  LLVMBasicBlockRef compute = new_block(l, "quantile.compute"), done = new_block(l, "quantile.done");
  LLVMBuildCondBr(l->b, nan, done, compute);
  position(l, compute);
  LLVMBuildStore(l->b, f(l, arg), out);
  LLVMBuildBr(l->b, done);
  position(l, done);
  return load_var(l, out);
}

typedef struct QuantileArgs {
  Node *n;
  const Type *e, *t;
  LLVMValueRef data, count, q;
} QuantileArgs;

static LLVMValueRef median_value(Lower *l, void *arg) {
  QuantileArgs *a = arg;
  return median_of(l, a->e, a->t, a->data, a->count);
}

static LLVMValueRef quantile_value(Lower *l, void *arg) {
  QuantileArgs *a = arg;
  return quantile_of(l, a->e, a->t, a->data, a->count, a->q);
}

static LLVMValueRef element_value(Lower *l, void *arg) {
  QuantileArgs *a = arg;
  return kth(l, a->e, a->data, a->count, LLVMBuildMul(l->b, a->q, LLVMBuildSub(l->b, a->count, const_i64(l, 1), ""), ""));
}

/* NumPy's IndexError for a quantile of no elements: its partition's or its take's. */
static void check_not_empty(Lower *l, const Type *e, LLVMValueRef count, bool take) {
  const char *msg = ty_is_float(e) ? "index -1 is out of bounds for axis 0 with size 0"
                    : take ? "cannot do a non-empty take from an empty axes."
                           : "index 0 is out of bounds for axis 0 with size 0";
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, count, const_i64(l, 0), ""), RT_ERR_INDEX, msg);
}

typedef struct QuantileArray {
  QuantileArgs *a;
  const Type *qt;
  LLVMValueRef qv, out, nan;
  bool check;  /* the pass that checks every q, before any is computed */
} QuantileArray;

static void quantile_element(Lower *l, LLVMValueRef *idx, void *arg) {
  QuantileArray *qa = arg;
  LLVMValueRef q = lo_load_scalar(l, qa->qt->elem, element_ptr(l, qa->qt, qa->qv, idx));
  qa->a->q = fraction(l, qa->a->n, lo_convert(l, q, qa->qt->elem, TYS(TY_F64)));
  if (qa->check) return;
  LLVMValueRef r = unless_nan(l, qa->nan, qa->a->t, quantile_value, qa->a);
  lo_store_scalar(l, qa->a->t, element_ptr(l, qa->a->n->ty, qa->out, idx), r);
}

static LLVMValueRef quantiles(Lower *l, QuantileArgs *a, Node *q, LLVMValueRef nan) {
  LLVMValueRef qv = lo_expr(l, q), shape[RC_MAX_NDIM];
  for (int d = 0; d < q->ty->ndim; d++) shape[d] = lo_arr_shape(l, qv, d);
  QuantileArray qa = {a, q->ty, qv, NULL, nan, true};
  lo_for_each_index(l, q->ty->ndim, shape, quantile_element, &qa);
  check_not_empty(l, a->e, a->count, false);
  qa.out = lo_alloc_array(l, a->n->ty, shape, -1);
  qa.check = false;
  lo_for_each_index(l, q->ty->ndim, shape, quantile_element, &qa);
  lo_done_with(l, q, qv);
  return qa.out;
}

static LLVMValueRef lo_quantile(Lower *l, Node *n) {
  Node *a = n->list.items[0], *q = arg_node(n, 1, "q");
  const Type *e = elem_of(a->ty), *wt = ty_array(e, 1, 'C', false);
  QuantileArgs qa = {n, e, n->ty->kind == TY_ARRAY ? n->ty->elem : n->ty};
  LLVMValueRef nan, work = gather(l, a, &qa.count, &nan), r;
  qa.data = data_of(l, work);
  if (n->bi->ival == Q_MEDIAN) {
    nan = or_(l, nan, LLVMBuildICmp(l->b, LLVMIntEQ, qa.count, const_i64(l, 0), ""));
    r = unless_nan(l, nan, qa.t, median_value, &qa);
  } else if (q->ty->kind == TY_ARRAY) {
    r = quantiles(l, &qa, q, nan);
  } else if (int_quantile(n)) {
    qa.q = lo_expr_as(l, q, TYS(TY_I64));
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntUGT, qa.q, const_i64(l, 1), ""), RT_ERR_VALUE, "Quantiles must be in the range [0, 1]");
    check_not_empty(l, e, qa.count, true);
    r = unless_nan(l, nan, qa.t, element_value, &qa);
  } else {
    qa.q = fraction(l, n, lo_expr_as(l, q, TYS(TY_F64)));
    check_not_empty(l, e, qa.count, false);
    r = unless_nan(l, nan, qa.t, quantile_value, &qa);
  }
  lo_release_temp(l, wt, work);
  return r;
}

/* ---------------------------------------------------------------- average */

static const Type *ty_average(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *axis = arg_node(n, 1, "axis"), *w = arg_node(n, 2, "weights");
  int nd = ndim_of(a->ty);
  if (!need_values(in, n, a) || (axis && !check_axis(in, n, axis, nd))) return NULL;
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
    bad = or_(l, bad, LLVMBuildICmp(l->b, LLVMIntNE, lo_arr_shape(l, va, d), lo_arr_shape(l, vw, d), ""));
  lo_raise_if(l, bad, RT_ERR_TYPE, "Axis must be specified when shapes of a and weights differ.");
  LLVMValueRef ca = contiguous(l, ta, va, &copies[0]), cw = contiguous(l, tw, vw, &copies[1]);
  Src ws = {.kind = SRC_ROW, .elem = tw->elem, .n = size_of(l, ta, va), .data = data_of(l, cw), .unit = true,
            .stride = const_i64(l, item_size(tw->elem))};
  Pass p = {K_SUM, P_NONE, tw->elem, t};
  LLVMValueRef scale = run_pass(l, &p, &ws).v;
  lo_raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOEQ, scale, lo_fconst(l, t, 0), ""), RT_ERR_ZERODIV,
              "Weights sum to zero, can't be normalized");
  Src ps = ws;
  ps.elem = t;
  ps.raw = ta->elem;
  ps.raw2 = tw->elem;
  ps.data = data_of(l, ca);
  ps.data2 = data_of(l, cw);
  Pass q = {K_SUM, P_NONE, t, t};
  LLVMValueRef r = LLVMBuildFDiv(l->b, run_pass(l, &q, &ps).v, scale, "");
  for (int i = 1; i >= 0; i--)
    if (copies[i]) lo_release_temp(l, ty_array((i ? tw : ta)->elem, ta->ndim, 'C', false), copies[i]);
  lo_done_with(l, w, vw);
  lo_done_with(l, a, va);
  return r;
}

static LLVMValueRef lo_average(Lower *l, Node *n) {
  Node *a = n->list.items[0], *w = arg_node(n, 2, "weights");
  if (w) return weighted_average(l, n, a, w);
  Call c = call_of(l, n, R_MEAN, a);
  c.axis_error = "axis: axis %%lld is out of bounds for array of dimension %d";
  LLVMValueRef r = reduce(l, &c, n, a, arg_node(n, 1, "axis"));
  if (n->ty->kind != TY_ARRAY) return r;
  /* NumPy then divides a.size by the result's size, in Python */
  lo_temp_made(l, n->ty, r);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, size_of(l, n->ty, r), const_i64(l, 0), ""), RT_ERR_ZERODIV, "division by zero");
  hand_over(l, n->ty, r);
  return r;
}

/* ---------------------------------------------------------------- isclose, allclose, array_equal */

static const char *const close_kw[] = {"rtol", "atol", "equal_nan", NULL};

/* isclose's and allclose's arguments made positional (a, b, rtol, atol,
 * equal_nan), NumPy's defaults where not given: isclose's elements are
 * then a ufunc's. */
static void close_arguments(Infer *in, Node *n) {
  if (n->list.len == 5) return;
  NodeList all = {arena_alloc(in->f->arena, 5 * sizeof(Node *)), 5};
  for (int i = 0; i < 5; i++) {
    Node *v = i < n->list.len ? n->list.items[i] : ty_kwarg(n, close_kw[i - 2]);
    if (!v) {
      v = arena_alloc(in->f->arena, sizeof *v);
      *v = (Node){.kind = i == 4 ? N_BOOL : N_FLOAT, .line = n->line, .col = n->col, .fval = i == 2 ? 1e-05 : 1e-08,
                  .ty = i == 4 ? TYS(TY_BOOL) : TYS(TY_F64)};
    }
    all.items[i] = v;
  }
  n->list = all;
  n->kw.len = 0;
}

static const Type *close_type(Infer *in, Node *n) {
  const Type *types[5];
  for (int i = 0; i < 5; i++) {
    types[i] = n->list.items[i]->ty;
    if (i >= 2 && !ty_is_scalar(types[i]))
      return ty_error(in, n->list.items[i], "%s(): %s must be a number, got %s", n->bi->name, close_kw[i - 2], types[i]->name);
  }
  if (types[0]->kind == TY_ARRAY || types[1]->kind == TY_ARRAY) return ty_elementwise(in, n, types, TYS(TY_BOOL));
  for (int i = 0; i < 2; i++)
    if (!ty_is_scalar(types[i])) return ty_error(in, n, "%s() needs arrays or numbers, got %s", n->bi->name, types[i]->name);
  return TYS(TY_BOOL);
}

static const Type *ty_isclose(Infer *in, Node *n, const Type **args) {
  close_arguments(in, n);
  return close_type(in, n);
}

/* NumPy's isclose of one pair: |x - y| <= atol + rtol*|y| where y is
 * finite, or x == y; y (and the tolerance) in y's float type, the
 * difference in x's and y's common one. */
static LLVMValueRef close_element(Lower *l, Node *n, LLVMValueRef *args) {
  Node *x = n->list.items[0], *y = n->list.items[1];
  const Type *tx = elem_of(x->ty), *ty = elem_of(y->ty), *f64 = TYS(TY_F64);
  bool xweak = ty_is_weak(x), yweak = ty_is_weak(y);
  const Type *yd = !yweak && ty_is_float(ty) ? ty : f64;
  const Type *t = yweak ? (!xweak && ty_is_float(tx) ? tx : f64) : xweak ? yd : np_promote(tx, yd);
  LLVMValueRef yv = lo_convert(l, args[1], ty, yd), xt = lo_convert(l, args[0], tx, t), yt = lo_convert(l, yv, yd, t);
  LLVMValueRef rtol = lo_convert(l, args[2], n->list.items[2]->ty, yd), atol = lo_convert(l, args[3], n->list.items[3]->ty, yd);
  LLVMValueRef ay = lo_intrinsic1(l, "llvm.fabs", yd, yv);
  LLVMValueRef tol = lo_convert(l, LLVMBuildFAdd(l->b, atol, LLVMBuildFMul(l->b, rtol, ay, ""), ""), yd, t);
  LLVMValueRef d = lo_intrinsic1(l, "llvm.fabs", t, LLVMBuildFSub(l->b, xt, yt, ""));
  LLVMValueRef r = and_(l, LLVMBuildFCmp(l->b, LLVMRealOLE, d, tol, ""), LLVMBuildFCmp(l->b, LLVMRealOLT, ay, lo_fconst(l, yd, INFINITY), ""));
  r = or_(l, r, LLVMBuildFCmp(l->b, LLVMRealOEQ, xt, yt, ""));
  LLVMValueRef both_nan = and_(l, is_nan(l, tx, args[0]), is_nan(l, ty, args[1]));
  return or_(l, r, and_(l, lo_truth(l, args[4], n->list.items[4]->ty), both_nan));
}

static LLVMValueRef lo_isclose(Lower *l, Node *n) {
  LLVMValueRef args[5];
  for (int i = 0; i < 5; i++) args[i] = lo_expr(l, n->list.items[i]);
  return close_element(l, n, args);
}

/* allclose is all() of an isclose call made here (n->lhs), the same arguments. */
static const Type *ty_allclose(Infer *in, Node *n, const Type **args) {
  close_arguments(in, n);
  Node *c = n->lhs;
  if (!c) {
    c = n->lhs = arena_alloc(in->f->arena, sizeof *c);
    *c = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .bi = bi_named("numpy.isclose"), .list = n->list, .ival = -1};
  }
  return (c->ty = close_type(in, c)) ? TYS(TY_BOOL) : NULL;
}

static LLVMValueRef lo_allclose(Lower *l, Node *n) {
  Call c = {&reductions[R_ALL], TYS(TY_BOOL), TYS(TY_BOOL), NULL, axis_error};
  return reduce_all(l, &c, n->lhs);
}

static const Type *ty_array_equal(Infer *in, Node *n, const Type **args) {
  if (!need_values(in, n, n->list.items[0]) || !need_values(in, n, n->list.items[1]) ||
      !check_number(in, n, arg_node(n, 2, "equal_nan"), "equal_nan"))
    return NULL;
  return TYS(TY_BOOL);
}

typedef struct Equal {
  const Type *ta, *tb;
  LLVMValueRef va, vb, equal_nan, all;
} Equal;

static LLVMValueRef pair_equal(Lower *l, const Equal *q, LLVMValueRef x, LLVMValueRef y) {
  const Type *ea = elem_of(q->ta), *eb = elem_of(q->tb), *t = np_promote(ea, eb);
  LLVMValueRef eq = lo_compare_values(l, OP_EQ, lo_convert(l, x, ea, t), t, lo_convert(l, y, eb, t), t);
  return or_(l, eq, and_(l, q->equal_nan, and_(l, is_nan(l, ea, x), is_nan(l, eb, y))));
}

static void equal_element(Lower *l, LLVMValueRef *idx, void *arg) {
  Equal *q = arg;
  LLVMValueRef x = lo_load_scalar(l, q->ta->elem, element_ptr(l, q->ta, q->va, idx));
  LLVMValueRef y = lo_load_scalar(l, q->tb->elem, element_ptr(l, q->tb, q->vb, idx));
  LLVMBuildStore(l->b, and_(l, load_var(l, q->all), pair_equal(l, q, x, y)), q->all);
}

/* NumPy's array_equal: the same shape and equal elements (NaN equal to NaN with equal_nan). */
static LLVMValueRef lo_array_equal(Lower *l, Node *n) {
  Node *a = n->list.items[0], *b = n->list.items[1], *en = arg_node(n, 2, "equal_nan");
  Equal q = {a->ty, b->ty, lo_expr(l, a), lo_expr(l, b), const_bool(l, false)};
  if (en) q.equal_nan = lo_truth(l, lo_expr(l, en), en->ty);
  int nd = ndim_of(a->ty);
  LLVMValueRef r;
  if (nd != ndim_of(b->ty)) {
    r = const_bool(l, false);
  } else if (nd == 0) {
    LLVMValueRef x = a->ty->kind == TY_ARRAY ? lo_load_scalar(l, a->ty->elem, data_of(l, q.va)) : q.va;
    LLVMValueRef y = b->ty->kind == TY_ARRAY ? lo_load_scalar(l, b->ty->elem, data_of(l, q.vb)) : q.vb;
    r = pair_equal(l, &q, x, y);
  } else {
    LLVMValueRef same = const_bool(l, true), shape[RC_MAX_NDIM];
    for (int d = 0; d < nd; d++) {
      shape[d] = lo_arr_shape(l, q.va, d);
      same = and_(l, same, LLVMBuildICmp(l->b, LLVMIntEQ, shape[d], lo_arr_shape(l, q.vb, d), ""));
    }
    q.all = var_of(l, same, "equal");
    LLVMBasicBlockRef compare = new_block(l, "equal.compare"), done = new_block(l, "equal.done");
    LLVMBuildCondBr(l->b, same, compare, done);
    position(l, compare);
    lo_for_each_index(l, nd, shape, equal_element, &q);
    LLVMBuildBr(l->b, done);
    position(l, done);
    r = load_var(l, q.all);
  }
  lo_done_with(l, b, q.vb);
  lo_done_with(l, a, q.va);
  return r;
}

/* ---------------------------------------------------------------- the rows */

static const char *const axis_kw[] = {"axis", NULL};
static const char *const axis_dtype_kw[] = {"axis", "dtype", NULL};
static const char *const axis_dtype_ddof_kw[] = {"axis", "dtype", "ddof", NULL};
static const char *const average_kw[] = {"axis", "weights", NULL};
static const char *const q_kw[] = {"q", NULL};
static const char *const diff_kw[] = {"n", "axis", NULL};
static const char *const equal_nan_kw[] = {"equal_nan", NULL};

#define FLAGS (BF_ALLOCATES | BF_RAISES)
/* numpy.name(a, <hi - 1 more positional>) and a.name(<hi - 1 positional>) */
#define FUNCTION(name, id, hi, kw, type, lower) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, 1, hi, kw, FLAGS, id, 0, type, lower}
#define METHOD(name, id, hi, kw, type, lower) \
  {"array." name, NULL, name, BK_METHOD, TY_ARRAY, 0, hi - 1, kw, FLAGS, id, 0, type, lower}
#define REDUCTION(name, id, hi, kw) \
  FUNCTION(name, id, hi, kw, ty_reduce, lo_reduce), METHOD(name, id, hi, kw, ty_reduce, lo_reduce)

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
  FUNCTION("amin", R_MIN, 2, axis_kw, ty_reduce, lo_reduce),
  FUNCTION("amax", R_MAX, 2, axis_kw, ty_reduce, lo_reduce),
  FUNCTION("ptp", R_PTP, 2, axis_kw, ty_reduce, lo_reduce),
  FUNCTION("count_nonzero", R_COUNT_NONZERO, 2, axis_kw, ty_reduce, lo_reduce),
  FUNCTION("nansum", R_NANSUM, 3, axis_dtype_kw, ty_reduce, lo_reduce),
  FUNCTION("nanprod", R_NANPROD, 3, axis_dtype_kw, ty_reduce, lo_reduce),
  FUNCTION("nanmean", R_NANMEAN, 3, axis_dtype_kw, ty_reduce, lo_reduce),
  FUNCTION("nanstd", R_NANSTD, 3, axis_dtype_ddof_kw, ty_reduce, lo_reduce),
  FUNCTION("nanvar", R_NANVAR, 3, axis_dtype_ddof_kw, ty_reduce, lo_reduce),
  FUNCTION("nanmin", R_NANMIN, 2, axis_kw, ty_reduce, lo_reduce),
  FUNCTION("nanmax", R_NANMAX, 2, axis_kw, ty_reduce, lo_reduce),
  FUNCTION("nanargmin", R_NANARGMIN, 2, axis_kw, ty_reduce, lo_reduce),
  FUNCTION("nanargmax", R_NANARGMAX, 2, axis_kw, ty_reduce, lo_reduce),
  FUNCTION("average", R_MEAN, 3, average_kw, ty_average, lo_average),
  FUNCTION("cumsum", R_SUM, 3, axis_dtype_kw, ty_accumulate, lo_accumulate),
  METHOD("cumsum", R_SUM, 3, axis_dtype_kw, ty_accumulate, lo_accumulate),
  FUNCTION("cumprod", R_PROD, 3, axis_dtype_kw, ty_accumulate, lo_accumulate),
  METHOD("cumprod", R_PROD, 3, axis_dtype_kw, ty_accumulate, lo_accumulate),
  FUNCTION("diff", 0, 3, diff_kw, ty_diff, lo_diff),
  FUNCTION("median", Q_MEDIAN, 1, NULL, ty_quantile, lo_quantile),
  FUNCTION("percentile", Q_PERCENTILE, 2, q_kw, ty_quantile, lo_quantile),
  FUNCTION("quantile", Q_QUANTILE, 2, q_kw, ty_quantile, lo_quantile),
  {"numpy.isclose", "numpy", "isclose", BK_FUNCTION, 0, 2, 5, close_kw, FLAGS, 0, 0, ty_isclose, lo_isclose, close_element},
  {"numpy.allclose", "numpy", "allclose", BK_FUNCTION, 0, 2, 5, close_kw, FLAGS, 0, 0, ty_allclose, lo_allclose},
  {"numpy.array_equal", "numpy", "array_equal", BK_FUNCTION, 0, 2, 3, equal_nan_kw, FLAGS, 0, 0, ty_array_equal, lo_array_equal},
  BI_END,
};

/* ---------------------------------------------------------------- at run time */

/* Quickselect: v[k] becomes the k-th smallest of v[0..n), the ones before
 * it no larger, the ones after no smaller (no NaN among them). */
#define PARTITION(name, T)                                                    \
  static void name(T *v, int64_t n, int64_t k) {                              \
    int64_t lo = 0, hi = n - 1;                                               \
    while (hi > lo) {                                                         \
      int64_t mid = lo + (hi - lo) / 2, i = lo, j = hi;                       \
      T pivot = v[mid];                                                       \
      if (v[lo] > pivot) pivot = v[lo] < v[hi] ? v[lo] : v[hi] > pivot ? v[hi] : pivot; \
      else if (v[hi] < pivot) pivot = v[hi] > v[lo] ? v[hi] : v[lo];          \
      while (i <= j) {                                                        \
        while (v[i] < pivot) i++;                                             \
        while (pivot < v[j]) j--;                                             \
        if (i <= j) {                                                         \
          T t = v[i];                                                         \
          v[i++] = v[j];                                                      \
          v[j--] = t;                                                         \
        }                                                                     \
      }                                                                       \
      if (k <= j) hi = j;                                                     \
      else if (k >= i) lo = i;                                                \
      else return;                                                            \
    }                                                                         \
  }

PARTITION(partition_i8, int8_t)
PARTITION(partition_i16, int16_t)
PARTITION(partition_i32, int32_t)
PARTITION(partition_i64, int64_t)
PARTITION(partition_u8, uint8_t)
PARTITION(partition_u16, uint16_t)
PARTITION(partition_u32, uint32_t)
PARTITION(partition_u64, uint64_t)
PARTITION(partition_f32, float)
PARTITION(partition_f64, double)

void rt_partition(void *data, int64_t n, int64_t k, int32_t kind) {
  switch (kind) {
  case TY_I8: partition_i8(data, n, k); break;
  case TY_I16: partition_i16(data, n, k); break;
  case TY_I32: partition_i32(data, n, k); break;
  case TY_I64: partition_i64(data, n, k); break;
  case TY_BOOL: case TY_U8: partition_u8(data, n, k); break;
  case TY_U16: partition_u16(data, n, k); break;
  case TY_U32: partition_u32(data, n, k); break;
  case TY_U64: partition_u64(data, n, k); break;
  case TY_F32: partition_f32(data, n, k); break;
  default: partition_f64(data, n, k); break;
  }
}
