/* builtins/limits.c — numpy.iinfo and numpy.finfo: the limits of a
 * number type, known at compile time, read as attributes
 * (numpy.iinfo(a.dtype).max, numpy.finfo(numpy.float32).eps).
 *
 * iinfo(t) and finfo(t) are values of kind TY_INFO, which hold no data:
 * each attribute is a constant of the type NumPy gives it (an iinfo's
 * limits are Python ints, int64 here, uint64's max excepted; a finfo's are
 * scalars of its own type), and a row's ival says which attribute it is.
 * Returned to Python, one is NumPy's iinfo or finfo of its dtype (box.c).
 */
#include <float.h>
#include <math.h>

#include "builtins/builtins.h"

/* The type whose limits are asked: a dtype (numpy.int32, a.dtype,
 * "float32") or a number, whose type counts; a complex type's parts', as
 * NumPy's finfo reads it. */
static const Type *limited_type(Infer *in, Node *n, const Type *arg, bool want_int) {
  const Type *t = arg->kind == TY_DTYPE ? arg->elem : ty_is_scalar(arg) || ty_is_complex(arg) ? arg : NULL;
  if (!t) return ty_error(in, n, "%s() needs a dtype or a number, got %s", n->bi->name, arg->name);
  if (!want_int && ty_is_complex(t)) t = lo_complex_part(t);
  if (want_int ? !ty_is_int(t) : !ty_is_float(t))
    return ty_error(in, n, "%s(): invalid %s data type '%s'", n->bi->name, want_int ? "integer" : "inexact", t->name);
  return ty_info(t);
}

static const Type *ty_iinfo(Infer *in, Node *n, const Type **args) { return limited_type(in, n, args[0], true); }
static const Type *ty_finfo(Infer *in, Node *n, const Type **args) { return limited_type(in, n, args[0], false); }

static LLVMValueRef lo_no_value(Lower *l, Node *n) { return LLVMGetUndef(l->mod->i8); }

/* The attributes, each a row's ival; from LIM_NMANT on, a finfo's counts
 * of its format's bits and exponents, ints as NumPy gives them. */
enum { LIM_MIN, LIM_MAX, LIM_BITS, LIM_EPS, LIM_EPSNEG, LIM_TINY, LIM_SUBNORMAL, LIM_RESOLUTION, LIM_PRECISION, LIM_DTYPE,
       LIM_NMANT, LIM_NEXP, LIM_MACHEP, LIM_NEGEP, LIM_MAXEXP, LIM_MINEXP };

/* Whether an iinfo has the attribute (a finfo has them all). */
static bool attribute_of_int(int which) { return which <= LIM_BITS || which == LIM_DTYPE; }

static const Type *ty_limit(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0]->elem;
  int which = n->bi->ival;
  if (ty_is_int(t) && !attribute_of_int(which))
    return ty_error(in, n, "numpy.%s has no attribute '%s'", ty_is_int(t) ? "iinfo" : "finfo", n->bi->path);
  if (which == LIM_DTYPE) return ty_dtype(t);
  if (which == LIM_BITS || which == LIM_PRECISION || which >= LIM_NMANT) return TYS(TY_I64);
  if (ty_is_float(t)) return t;
  return which == LIM_MAX && t->kind == TY_U64 ? t : TYS(TY_I64);
}

/* An integer type's limit, as the bits of an int64 (uint64's max: all ones). */
static int64_t int_limit(const Type *t, int which) {
  int bits = ty_bits(t);
  if (ty_is_signed(t)) {
    int64_t max = (int64_t)(((uint64_t)1 << (bits - 1)) - 1);
    return which == LIM_MIN ? -max - 1 : max;
  }
  if (which == LIM_MIN) return 0;
  return bits == 64 ? -1 : (int64_t)(((uint64_t)1 << bits) - 1);
}

static double float_limit(const Type *t, int which) {
  bool single = t->kind == TY_F32;
  switch (which) {
  case LIM_MIN: return single ? -FLT_MAX : -DBL_MAX;
  case LIM_MAX: return single ? FLT_MAX : DBL_MAX;
  case LIM_EPS: return single ? FLT_EPSILON : DBL_EPSILON;
  case LIM_EPSNEG: return single ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
  case LIM_TINY: return single ? FLT_MIN : DBL_MIN;
  case LIM_SUBNORMAL: return single ? FLT_TRUE_MIN : DBL_TRUE_MIN;
  default: return single ? 1e-6 : 1e-15;  /* LIM_RESOLUTION: 10**-precision */
  }
}

/* A float format's count: its mantissa's bits (nmant) and exponent's
 * (nexp, also named iexp) and what follows from them: eps is
 * 2**machep, epsneg 2**negep, the largest finite value below
 * 2**maxexp, the smallest normal one 2**minexp. */
static int64_t float_format(const Type *t, int which) {
  int nmant = t->kind == TY_F32 ? FLT_MANT_DIG - 1 : DBL_MANT_DIG - 1;
  int maxexp = t->kind == TY_F32 ? FLT_MAX_EXP : DBL_MAX_EXP;
  switch (which) {
  case LIM_NMANT: return nmant;
  case LIM_NEXP: return t->kind == TY_F32 ? 8 : 11;
  case LIM_MACHEP: return -nmant;
  case LIM_NEGEP: return -nmant - 1;
  case LIM_MAXEXP: return maxexp;
  default: return 2 - maxexp;  /* LIM_MINEXP */
  }
}

static LLVMValueRef lo_limit(Lower *l, Node *n) {
  const Type *t = n->lhs->ty->elem;
  int which = n->bi->ival;
  switch (which) {
  case LIM_DTYPE: return lo_no_value(l, n);
  case LIM_BITS: return const_i64(l, ty_bits(t));
  case LIM_PRECISION: return const_i64(l, t->kind == TY_F32 ? FLT_DIG : DBL_DIG);
  case LIM_NMANT: case LIM_NEXP: case LIM_MACHEP: case LIM_NEGEP: case LIM_MAXEXP: case LIM_MINEXP:
    return const_i64(l, float_format(t, which));
  default:
    if (ty_is_float(t)) return lo_fconst(l, t, float_limit(t, which));
    return LLVMConstInt(lo_type(l, n->ty), (unsigned long long)int_limit(t, which), 1);
  }
}

#define LIMITS(name, fn) {"numpy." name, "numpy", name, BK_FUNCTION, 0, 1, 1, NULL, BF_CHEAP | BF_COMPLEX, 0, 0, fn, lo_no_value}
#define LIMIT(name, which) \
  {"info." name, NULL, name, BK_ATTRIBUTE, TY_INFO, 0, 0, NULL, BF_PURE | BF_CHEAP, which, 0, ty_limit, lo_limit}

const Builtin bi_limits[] = {
  LIMITS("iinfo", ty_iinfo),
  LIMITS("finfo", ty_finfo),
  LIMIT("min", LIM_MIN),
  LIMIT("max", LIM_MAX),
  LIMIT("bits", LIM_BITS),
  LIMIT("eps", LIM_EPS),
  LIMIT("epsneg", LIM_EPSNEG),
  LIMIT("tiny", LIM_TINY),
  LIMIT("smallest_normal", LIM_TINY),
  LIMIT("smallest_subnormal", LIM_SUBNORMAL),
  LIMIT("resolution", LIM_RESOLUTION),
  LIMIT("precision", LIM_PRECISION),
  LIMIT("dtype", LIM_DTYPE),
  LIMIT("nmant", LIM_NMANT),
  LIMIT("nexp", LIM_NEXP),
  LIMIT("iexp", LIM_NEXP),
  LIMIT("machep", LIM_MACHEP),
  LIMIT("negep", LIM_NEGEP),
  LIMIT("maxexp", LIM_MAXEXP),
  LIMIT("minexp", LIM_MINEXP),
  BI_END,
};
