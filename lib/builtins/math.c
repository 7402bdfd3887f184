/* builtins/math.c — the math module's functions and NumPy's scalar
 * functions of the same names.
 *
 * math.* follows CPython: it computes in float64 (float32 stays float32 in
 * CUDA code, as numba-cuda), raises ValueError outside a function's domain
 * and OverflowError where a finite argument gives an infinite result, and
 * floor/ceil/trunc give ints. numpy.* follows NumPy: nan and inf instead
 * of errors, float32 kept, and abs, sign, minimum, maximum and power keep
 * integers integers. Each function is a row of math_fns (how to compute
 * it) and one row per module in the builtins' table below.
 */
#include <math.h>

#include "builtins/builtins.h"

/* ---------------------------------------------------------------- the functions */

typedef LLVMValueRef (*MathCode)(Lower *l, const Type *t, LLVMValueRef *a);

enum {
  M_OVERFLOWS = 1 << 0,   /* math.f raises OverflowError on a finite argument's infinite result */
  M_INT_RESULT = 1 << 1,  /* math.f gives an int */
  M_PREDICATE = 1 << 2,   /* gives a bool; for int arguments, int_truth */
  M_KEEPS_INT = 1 << 3,   /* numpy.f of ints is an int (int_code computes it) */
  M_KEEPS_BOOL = 1 << 4,  /* numpy.f of bools is a bool (else, with M_KEEPS_INT, an int8) */
  M_NO_BOOL = 1 << 5,     /* numpy.f has no loop for bools */
  M_DOUBLE = 1 << 6,      /* numpy.f computes in float64 whatever its arguments */
  M_INT_DOUBLE = 1 << 7,  /* numpy.f of ints and bools is float64 (NumPy's Python-level functions, as
                           * sinc's pi * x, where narrow ints give no float32) */
  M_INT_ONLY = 1 << 8,    /* numpy.f has loops for ints alone (gcd, lcm) */
};

typedef struct MathFn {
  const char *libm;        /* computed by this C function (float32: with an f), */
  const char *intrinsic;   /* or this LLVM intrinsic, */
  MathCode code;           /* or here */
  MathCode domain;         /* math.f: true outside the domain (ValueError) */
  const char *domain_314;  /* its message from CPython 3.14 on, %s the argument's repr (before:
                            * "math domain error"); NULL: unchanged */
  const char *int_314;     /* that message for an int argument, where 3.14 names none (its logs'
                            * loghelper); NULL: as for a float */
  unsigned flags;
  bool int_truth;          /* M_PREDICATE: the answer for an int */
  MathCode int_code;       /* M_KEEPS_INT: numpy.f of ints */
} MathFn;

static LLVMValueRef is_integral(Lower *l, const Type *t, LLVMValueRef x) {
  return fcmp(l, LLVMRealOEQ, lo_intrinsic1(l, "llvm.floor", t, x), x);
}

static LLVMValueRef absolute(Lower *l, const Type *t, LLVMValueRef x) { return lo_intrinsic1(l, "llvm.fabs", t, x); }
static LLVMValueRef inf(Lower *l, const Type *t) { return lo_fconst(l, t, INFINITY); }

/* domains, as CPython's math module checks them */
static LLVMValueRef below_zero(Lower *l, const Type *t, LLVMValueRef *a) { return fcmp(l, LLVMRealOLT, a[0], lo_fconst(l, t, 0)); }
static LLVMValueRef not_positive(Lower *l, const Type *t, LLVMValueRef *a) { return fcmp(l, LLVMRealOLE, a[0], lo_fconst(l, t, 0)); }
static LLVMValueRef to_minus_one(Lower *l, const Type *t, LLVMValueRef *a) { return fcmp(l, LLVMRealOLE, a[0], lo_fconst(l, t, -1)); }
static LLVMValueRef beyond_one(Lower *l, const Type *t, LLVMValueRef *a) { return fcmp(l, LLVMRealOGT, absolute(l, t, a[0]), lo_fconst(l, t, 1)); }
static LLVMValueRef below_one(Lower *l, const Type *t, LLVMValueRef *a) { return fcmp(l, LLVMRealOLT, a[0], lo_fconst(l, t, 1)); }
static LLVMValueRef one_or_beyond(Lower *l, const Type *t, LLVMValueRef *a) { return fcmp(l, LLVMRealOGE, absolute(l, t, a[0]), lo_fconst(l, t, 1)); }
static LLVMValueRef infinite(Lower *l, const Type *t, LLVMValueRef *a) { return fcmp(l, LLVMRealOEQ, absolute(l, t, a[0]), inf(l, t)); }

/* lgamma's poles: the integers from 0 down (-inf itself is in its domain) */
static LLVMValueRef pole(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMValueRef bad = LLVMBuildAnd(l->b, fcmp(l, LLVMRealOLE, a[0], lo_fconst(l, t, 0)), is_integral(l, t, a[0]), "");
  return LLVMBuildAnd(l->b, bad, fcmp(l, LLVMRealONE, a[0], lo_fconst(l, t, -INFINITY)), "");
}

static LLVMValueRef gamma_domain(Lower *l, const Type *t, LLVMValueRef *a) {
  return LLVMBuildOr(l->b, pole(l, t, a), fcmp(l, LLVMRealOEQ, a[0], lo_fconst(l, t, -INFINITY)), "");
}

static LLVMValueRef fmod_domain(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMValueRef bad = LLVMBuildOr(l->b, fcmp(l, LLVMRealOEQ, a[1], lo_fconst(l, t, 0)), infinite(l, t, a), "");
  return LLVMBuildAnd(l->b, bad, fcmp(l, LLVMRealORD, a[1], a[0]), "");
}

/* zero to a finite negative power (to -inf it is inf), a negative finite
 * number to a finite non-integral one */
static LLVMValueRef pow_domain(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMValueRef x = a[0], y = a[1], zero = lo_fconst(l, t, 0);
  LLVMValueRef yfinite = fcmp(l, LLVMRealOLT, absolute(l, t, y), inf(l, t));
  LLVMValueRef zero_neg = LLVMBuildAnd(l->b, fcmp(l, LLVMRealOEQ, x, zero),
                                       LLVMBuildAnd(l->b, fcmp(l, LLVMRealOLT, y, zero), yfinite, ""), "");
  LLVMValueRef neg_frac = LLVMBuildAnd(l->b, LLVMBuildAnd(l->b, fcmp(l, LLVMRealOLT, x, zero),
                                       fcmp(l, LLVMRealOGT, x, lo_fconst(l, t, -INFINITY)), ""),
                                       LLVMBuildAnd(l->b, yfinite, LLVMBuildNot(l->b, is_integral(l, t, y), ""), ""), "");
  return LLVMBuildOr(l->b, zero_neg, neg_frac, "");
}

/* computed here */
static LLVMValueRef isnan_code(Lower *l, const Type *t, LLVMValueRef *a) { return fcmp(l, LLVMRealUNO, a[0], a[0]); }
static LLVMValueRef isinf_code(Lower *l, const Type *t, LLVMValueRef *a) { return infinite(l, t, a); }
static LLVMValueRef isposinf_code(Lower *l, const Type *t, LLVMValueRef *a) { return fcmp(l, LLVMRealOEQ, a[0], inf(l, t)); }
static LLVMValueRef isneginf_code(Lower *l, const Type *t, LLVMValueRef *a) { return fcmp(l, LLVMRealOEQ, a[0], lo_fconst(l, t, -INFINITY)); }
static LLVMValueRef isfinite_code(Lower *l, const Type *t, LLVMValueRef *a) { return fcmp(l, LLVMRealOLT, absolute(l, t, a[0]), inf(l, t)); }
static LLVMValueRef degrees_code(Lower *l, const Type *t, LLVMValueRef *a) { return LLVMBuildFMul(l->b, a[0], lo_fconst(l, t, 180.0 / M_PI), ""); }
static LLVMValueRef radians_code(Lower *l, const Type *t, LLVMValueRef *a) { return LLVMBuildFMul(l->b, a[0], lo_fconst(l, t, M_PI / 180.0), ""); }
static LLVMValueRef copysign_code(Lower *l, const Type *t, LLVMValueRef *a) { return lo_intrinsic2(l, "llvm.copysign", t, a[0], a[1]); }
/* NumPy's: a NaN wins, and of equal values (-0.0 and 0.0) the second */
static LLVMValueRef min_or_max(Lower *l, LLVMRealPredicate first, LLVMValueRef *a) {
  LLVMValueRef take = LLVMBuildOr(l->b, fcmp(l, first, a[0], a[1]), fcmp(l, LLVMRealUNO, a[0], a[0]), "");
  return LLVMBuildSelect(l->b, take, a[0], a[1], "");
}

static LLVMValueRef minimum_code(Lower *l, const Type *t, LLVMValueRef *a) { return min_or_max(l, LLVMRealOLT, a); }
static LLVMValueRef maximum_code(Lower *l, const Type *t, LLVMValueRef *a) { return min_or_max(l, LLVMRealOGT, a); }
static LLVMValueRef pow_code(Lower *l, const Type *t, LLVMValueRef *a) { return lo_pow(l, t, a[0], a[1]); }
/* NumPy's fmin/fmax: NaN-ignoring (the second where it is NaN), and of
 * equal values (-0.0 and 0.0) the first */
static LLVMValueRef fmin_or_fmax(Lower *l, LLVMRealPredicate keep, LLVMValueRef *a) {
  LLVMValueRef take = LLVMBuildOr(l->b, fcmp(l, keep, a[0], a[1]), fcmp(l, LLVMRealUNO, a[1], a[1]), "");
  return LLVMBuildSelect(l->b, take, a[0], a[1], "");
}

static LLVMValueRef fmax_code(Lower *l, const Type *t, LLVMValueRef *a) { return fmin_or_fmax(l, LLVMRealOGE, a); }
static LLVMValueRef fmin_code(Lower *l, const Type *t, LLVMValueRef *a) { return fmin_or_fmax(l, LLVMRealOLE, a); }
static LLVMValueRef square_code(Lower *l, const Type *t, LLVMValueRef *a) { return LLVMBuildFMul(l->b, a[0], a[0], ""); }
static LLVMValueRef reciprocal_code(Lower *l, const Type *t, LLVMValueRef *a) { return LLVMBuildFDiv(l->b, lo_fconst(l, t, 1), a[0], ""); }

static LLVMValueRef signbit_code(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMTypeRef bits = LLVMIntTypeInContext(l->mod->c, (unsigned)ty_bits(t));
  return LLVMBuildICmp(l->b, LLVMIntSLT, LLVMBuildBitCast(l->b, a[0], bits, ""), LLVMConstNull(bits), "");
}

/* heaviside(x, h0): 0 below zero, h0 at it, 1 above, NaN for NaN */
static LLVMValueRef heaviside_code(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMValueRef x = a[0], zero = lo_fconst(l, t, 0);
  LLVMValueRef r = LLVMBuildSelect(l->b, fcmp(l, LLVMRealOGT, x, zero), lo_fconst(l, t, 1), zero, "");
  r = LLVMBuildSelect(l->b, fcmp(l, LLVMRealOEQ, x, zero), a[1], r, "");
  return LLVMBuildSelect(l->b, fcmp(l, LLVMRealUNO, x, x), x, r, "");
}

/* log(exp(x) + exp(y)) without overflow: the larger plus log1p(exp(-|x - y|));
 * equal values (infinities too) give x + log(2) */
static LLVMValueRef logaddexp_with(Lower *l, const Type *t, LLVMValueRef *a, bool base2) {
  LLVMValueRef x = a[0], y = a[1];
  LLVMValueRef big = lo_intrinsic2(l, "llvm.maxnum", t, x, y);
  LLVMValueRef d = LLVMBuildFNeg(l->b, absolute(l, t, LLVMBuildFSub(l->b, x, y, "")), "");
  LLVMValueRef e = lo_intrinsic1(l, base2 ? "llvm.exp2" : "llvm.exp", t, d);
  LLVMValueRef tail = lo_libm(l, "log1p", t, &e, 1);
  if (base2) tail = LLVMBuildFMul(l->b, tail, lo_fconst(l, t, 1 / M_LN2), "");
  LLVMValueRef r = LLVMBuildFAdd(l->b, big, tail, "");
  LLVMValueRef same = LLVMBuildFAdd(l->b, x, lo_fconst(l, t, base2 ? 1.0 : M_LN2), "");
  r = LLVMBuildSelect(l->b, fcmp(l, LLVMRealOEQ, x, y), same, r, "");
  return LLVMBuildSelect(l->b, fcmp(l, LLVMRealUNO, x, y), LLVMBuildFAdd(l->b, x, y, ""), r, "");
}

static LLVMValueRef logaddexp_code(Lower *l, const Type *t, LLVMValueRef *a) { return logaddexp_with(l, t, a, false); }
static LLVMValueRef logaddexp2_code(Lower *l, const Type *t, LLVMValueRef *a) { return logaddexp_with(l, t, a, true); }

static LLVMValueRef sign_code(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMValueRef x = a[0];
  LLVMValueRef pos = LLVMBuildUIToFP(l->b, fcmp(l, LLVMRealOGT, x, lo_fconst(l, t, 0)), lo_type(l, t), "");
  LLVMValueRef neg = LLVMBuildUIToFP(l->b, fcmp(l, LLVMRealOLT, x, lo_fconst(l, t, 0)), lo_type(l, t), "");
  return LLVMBuildSelect(l->b, fcmp(l, LLVMRealUNO, x, x), x, LLVMBuildFSub(l->b, pos, neg, ""), "");
}

/* NumPy's sinc: sin(y) / y of y = pi * x, with x = 0 taken as 1e-20 (giving 1) */
static LLVMValueRef sinc_code(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMValueRef zero = fcmp(l, LLVMRealOEQ, a[0], lo_fconst(l, t, 0));
  LLVMValueRef x = LLVMBuildSelect(l->b, zero, lo_fconst(l, t, 1.0e-20), a[0], "");
  LLVMValueRef y = LLVMBuildFMul(l->b, lo_fconst(l, t, M_PI), x, "");
  return LLVMBuildFDiv(l->b, lo_intrinsic1(l, "llvm.sin", t, y), y, "");
}

/* on the GPU with fastmath, float32: sqrt.approx.ftz */
static LLVMValueRef sqrt_code(Lower *l, const Type *t, LLVMValueRef *a) {
  if (lo_gpu_fast_f32(l, lo_type(l, t))) return lo_intrinsic(l, "llvm.nvvm.sqrt.approx.ftz.f", NULL, 0, a, 1);
  return lo_intrinsic1(l, "llvm.sqrt", t, a[0]);
}

/* the distance from |x| to the next float away from zero (the largest
 * float's to the one below it), as CPython's math.ulp */
static LLVMValueRef ulp_code(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMValueRef x = absolute(l, t, a[0]);
  LLVMValueRef up[2] = {x, inf(l, t)}, down[2] = {x, lo_fconst(l, t, -INFINITY)};
  LLVMValueRef next = lo_libm(l, "nextafter", t, up, 2);
  LLVMValueRef top = fcmp(l, LLVMRealOEQ, next, inf(l, t));
  LLVMValueRef r = LLVMBuildSelect(l->b, top, LLVMBuildFSub(l->b, x, lo_libm(l, "nextafter", t, down, 2), ""),
                                   LLVMBuildFSub(l->b, next, x, ""), "");
  /* NaN and the infinities are their own */
  return LLVMBuildSelect(l->b, fcmp(l, LLVMRealOLT, x, inf(l, t)), r, x, "");
}

/* the distance from x to the next float away from zero, negative for
 * negative x (and +0.0's for -0.0), NaN for the infinities: NumPy's spacing */
static LLVMValueRef spacing_code(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMValueRef away = LLVMBuildSelect(l->b, fcmp(l, LLVMRealOLT, a[0], lo_fconst(l, t, 0)), lo_fconst(l, t, -INFINITY),
                                      inf(l, t), "");
  LLVMValueRef r = LLVMBuildFSub(l->b, lo_libm(l, "nextafter", t, (LLVMValueRef[]){a[0], away}, 2), a[0], "");
  return LLVMBuildSelect(l->b, infinite(l, t, a), lo_fconst(l, t, NAN), r, "");
}

/* numpy.f of ints */
static LLVMValueRef int_abs(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMTypeRef ov[1] = {lo_type(l, t)};
  LLVMValueRef args[2] = {a[0], const_bool(l, false)};
  return ty_is_signed(t) || ty_is_time(t) ? lo_intrinsic(l, "llvm.abs", ov, 1, args, 2) : a[0];  /* abs(NaT) wraps to NaT */
}

static LLVMValueRef int_sign(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMTypeRef ty = lo_type(l, t);
  LLVMValueRef zero = LLVMConstNull(ty);
  LLVMValueRef pos = LLVMBuildZExt(l->b, LLVMBuildICmp(l->b, ty_is_signed(t) ? LLVMIntSGT : LLVMIntUGT, a[0], zero, ""), ty, "");
  LLVMValueRef neg = LLVMBuildZExt(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, a[0], zero, ""), ty, "");
  return LLVMBuildSub(l->b, pos, ty_is_signed(t) ? neg : zero, "");
}

static LLVMValueRef int_min(Lower *l, const Type *t, LLVMValueRef *a) {
  return LLVMBuildSelect(l->b, lo_compare_values(l, OP_LT, a[0], t, a[1], t), a[0], a[1], "");
}

static LLVMValueRef int_max(Lower *l, const Type *t, LLVMValueRef *a) {
  return LLVMBuildSelect(l->b, lo_compare_values(l, OP_GT, a[0], t, a[1], t), a[0], a[1], "");
}

static LLVMValueRef int_pow(Lower *l, const Type *t, LLVMValueRef *a) { return lo_int_pow(l, t, a[0], a[1]); }

/* C's remainder (the dividend's sign); by zero 0, as NumPy gives */
static LLVMValueRef int_fmod(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMTypeRef ty = lo_type(l, t);
  LLVMValueRef zero = LLVMConstNull(ty);
  /* x % 0 and MIN % -1 would trap in hardware: both give 0 */
  LLVMValueRef none = LLVMBuildICmp(l->b, LLVMIntEQ, a[1], zero, "");
  if (ty_is_signed(t)) none = LLVMBuildOr(l->b, none, LLVMBuildICmp(l->b, LLVMIntEQ, a[1], LLVMConstAllOnes(ty), ""), "");
  LLVMValueRef safe = LLVMBuildSelect(l->b, none, LLVMConstInt(ty, 1, 0), a[1], "");
  LLVMValueRef r = ty_is_signed(t) ? LLVMBuildSRem(l->b, a[0], safe, "") : LLVMBuildURem(l->b, a[0], safe, "");
  return LLVMBuildSelect(l->b, none, zero, r, "");
}

static LLVMValueRef int_square(Lower *l, const Type *t, LLVMValueRef *a) { return LLVMBuildMul(l->b, a[0], a[0], ""); }

/* 1 / x in ints, truncated as C divides; of 0, what NumPy's loops give
 * (an infinity converted to int32 or int64 by the machine): the smallest
 * int32 or int64, and 0 for narrower and unsigned types */
static LLVMValueRef int_reciprocal(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMTypeRef ty = lo_type(l, t);
  LLVMValueRef zero = LLVMConstNull(ty), one = LLVMConstInt(ty, 1, 0);
  LLVMValueRef none = LLVMBuildICmp(l->b, LLVMIntEQ, a[0], zero, "");
  LLVMValueRef safe = LLVMBuildSelect(l->b, none, one, a[0], "");
  LLVMValueRef r = ty_is_signed(t) ? LLVMBuildSDiv(l->b, one, safe, "") : LLVMBuildUDiv(l->b, one, safe, "");
  LLVMValueRef by_zero = ty_is_signed(t) && ty_bits(t) >= 32 ? LLVMConstInt(ty, 1ULL << (ty_bits(t) - 1), 0) : zero;
  return LLVMBuildSelect(l->b, none, by_zero, r, "");
}

static LLVMValueRef int_signbit(Lower *l, const Type *t, LLVMValueRef *a) {
  return ty_is_signed(t) ? LLVMBuildICmp(l->b, LLVMIntSLT, a[0], LLVMConstNull(lo_type(l, t)), "") : const_bool(l, false);
}

/* NumPy's gcd: Euclid's on the absolute values (gcd(0, 0) is 0) */
static LLVMValueRef int_gcd(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMTypeRef ty = lo_type(l, t);
  LLVMValueRef x = int_abs(l, t, a), y = int_abs(l, t, a + 1), zero = LLVMConstNull(ty);
  LLVMBasicBlockRef entry = LLVMGetInsertBlock(l->b), head = new_block(l, "gcd.head"), body = new_block(l, "gcd.body"),
                    done = new_block(l, "gcd.done");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef pa = LLVMBuildPhi(l->b, ty, "gcd.a"), pb = LLVMBuildPhi(l->b, ty, "gcd.b");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, pb, zero, ""), done, body);
  position(l, body);
  LLVMValueRef r = LLVMBuildURem(l->b, pa, pb, "");
  LLVMBuildBr(l->b, head);
  LLVMAddIncoming(pa, (LLVMValueRef[]){x, pb}, (LLVMBasicBlockRef[]){entry, body}, 2);
  LLVMAddIncoming(pb, (LLVMValueRef[]){y, r}, (LLVMBasicBlockRef[]){entry, body}, 2);
  position(l, done);
  return pa;
}

/* NumPy's lcm: |x| / gcd * |y|, 0 where either is 0 */
static LLVMValueRef int_lcm(Lower *l, const Type *t, LLVMValueRef *a) {
  LLVMTypeRef ty = lo_type(l, t);
  LLVMValueRef g = int_gcd(l, t, a), zero = LLVMConstNull(ty);
  LLVMValueRef none = LLVMBuildICmp(l->b, LLVMIntEQ, g, zero, "");
  LLVMValueRef q = LLVMBuildUDiv(l->b, int_abs(l, t, a), LLVMBuildSelect(l->b, none, LLVMConstInt(ty, 1, 0), g, ""), "");
  return LLVMBuildSelect(l->b, none, zero, LLVMBuildMul(l->b, q, int_abs(l, t, a + 1), ""), "");
}

/* floor, ceil, trunc of an int: the int itself (NumPy 2.3 on) */
static LLVMValueRef int_same(Lower *l, const Type *t, LLVMValueRef *a) { return a[0]; }

enum {
  SQRT, EXP, EXP2, EXPM1, LOG, LOG2, LOG10, LOG1P, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH,
  ASINH, ACOSH, ATANH, ERF, ERFC, GAMMA, LGAMMA, CBRT, FABS, FLOOR, CEIL, TRUNC, RINT, ISNAN, ISINF,
  ISFINITE, DEGREES, RADIANS, SIGN, ATAN2, HYPOT, COPYSIGN, FMOD, POW, ABS, MINIMUM, MAXIMUM,
  FMAX, FMIN, SQUARE, RECIPROCAL, SIGNBIT, HEAVISIDE, LOGADDEXP, LOGADDEXP2, FLOAT_POWER, REMAINDER,
  NEXTAFTER, ULP, SINC, ISPOSINF, ISNEGINF, SPACING, GCD, LCM,
};

/* CPython 3.14's messages for arguments outside a domain */
#define NONNEG "expected a nonnegative input, got %s"
#define POSITIVE "expected a positive input, got %s"
#define ABOVE_MINUS_ONE "expected argument value > -1, got %s"
#define FINITE "expected a finite input, got %s"
#define FROM_MINUS_ONE_TO_ONE "expected a number in range from -1 up to 1, got %s"
#define FROM_ONE "expected argument value not less than 1, got %s"
#define BETWEEN_MINUS_ONE_AND_ONE "expected a number between -1 and 1, got %s"
#define NO_POLE "expected a noninteger or positive integer, got %s"

static const MathFn math_fns[] = {
  [SQRT] = {.code = sqrt_code, .domain = below_zero, .domain_314 = NONNEG},
  [EXP] = {.intrinsic = "llvm.exp", .flags = M_OVERFLOWS},
  [EXP2] = {.intrinsic = "llvm.exp2", .flags = M_OVERFLOWS},
  [EXPM1] = {.libm = "expm1", .flags = M_OVERFLOWS},
  [LOG] = {.intrinsic = "llvm.log", .domain = not_positive, .domain_314 = POSITIVE, .int_314 = "expected a positive input"},
  [LOG2] = {.intrinsic = "llvm.log2", .domain = not_positive, .domain_314 = POSITIVE, .int_314 = "expected a positive input"},
  [LOG10] = {.intrinsic = "llvm.log10", .domain = not_positive, .domain_314 = POSITIVE, .int_314 = "expected a positive input"},
  [LOG1P] = {.libm = "log1p", .domain = to_minus_one, .domain_314 = ABOVE_MINUS_ONE},
  [SIN] = {.intrinsic = "llvm.sin", .domain = infinite, .domain_314 = FINITE},
  [COS] = {.intrinsic = "llvm.cos", .domain = infinite, .domain_314 = FINITE},
  [TAN] = {.libm = "tan", .domain = infinite, .domain_314 = FINITE},
  [ASIN] = {.libm = "asin", .domain = beyond_one, .domain_314 = FROM_MINUS_ONE_TO_ONE},
  [ACOS] = {.libm = "acos", .domain = beyond_one, .domain_314 = FROM_MINUS_ONE_TO_ONE},
  [ATAN] = {.libm = "atan"},
  [SINH] = {.libm = "sinh", .flags = M_OVERFLOWS},
  [COSH] = {.libm = "cosh", .flags = M_OVERFLOWS},
  [TANH] = {.libm = "tanh"},
  [ASINH] = {.libm = "asinh"},
  [ACOSH] = {.libm = "acosh", .domain = below_one, .domain_314 = FROM_ONE},
  [ATANH] = {.libm = "atanh", .domain = one_or_beyond, .domain_314 = BETWEEN_MINUS_ONE_AND_ONE},
  [ERF] = {.libm = "erf"},
  [ERFC] = {.libm = "erfc"},
  [GAMMA] = {.libm = "tgamma", .domain = gamma_domain, .domain_314 = NO_POLE, .flags = M_OVERFLOWS},
  [LGAMMA] = {.libm = "lgamma", .domain = pole, .domain_314 = NO_POLE, .flags = M_OVERFLOWS},
  [CBRT] = {.libm = "cbrt"},
  [FABS] = {.intrinsic = "llvm.fabs"},
  [FLOOR] = {.intrinsic = "llvm.floor", .flags = M_INT_RESULT | M_KEEPS_INT | M_KEEPS_BOOL, .int_code = int_same},
  [CEIL] = {.intrinsic = "llvm.ceil", .flags = M_INT_RESULT | M_KEEPS_INT | M_KEEPS_BOOL, .int_code = int_same},
  [TRUNC] = {.intrinsic = "llvm.trunc", .flags = M_INT_RESULT | M_KEEPS_INT | M_KEEPS_BOOL, .int_code = int_same},
  [RINT] = {.intrinsic = "llvm.rint"},
  [ISNAN] = {.code = isnan_code, .flags = M_PREDICATE, .int_truth = false},
  [ISINF] = {.code = isinf_code, .flags = M_PREDICATE, .int_truth = false},
  [ISFINITE] = {.code = isfinite_code, .flags = M_PREDICATE, .int_truth = true},
  [DEGREES] = {.code = degrees_code},
  [RADIANS] = {.code = radians_code},
  [SIGN] = {.code = sign_code, .flags = M_KEEPS_INT | M_NO_BOOL, .int_code = int_sign},
  [ATAN2] = {.libm = "atan2"},
  [HYPOT] = {.libm = "hypot"},
  [COPYSIGN] = {.code = copysign_code},
  [FMOD] = {.libm = "fmod", .domain = fmod_domain, .flags = M_KEEPS_INT, .int_code = int_fmod},
  [POW] = {.code = pow_code, .domain = pow_domain, .flags = M_OVERFLOWS | M_KEEPS_INT, .int_code = int_pow},
  [ABS] = {.intrinsic = "llvm.fabs", .flags = M_KEEPS_INT | M_KEEPS_BOOL, .int_code = int_abs},
  [MINIMUM] = {.code = minimum_code, .flags = M_KEEPS_INT | M_KEEPS_BOOL, .int_code = int_min},
  [MAXIMUM] = {.code = maximum_code, .flags = M_KEEPS_INT | M_KEEPS_BOOL, .int_code = int_max},
  [FMAX] = {.code = fmax_code, .flags = M_KEEPS_INT | M_KEEPS_BOOL, .int_code = int_max},
  [FMIN] = {.code = fmin_code, .flags = M_KEEPS_INT | M_KEEPS_BOOL, .int_code = int_min},
  [SQUARE] = {.code = square_code, .flags = M_KEEPS_INT, .int_code = int_square},
  [RECIPROCAL] = {.code = reciprocal_code, .flags = M_KEEPS_INT, .int_code = int_reciprocal},
  [SIGNBIT] = {.code = signbit_code, .flags = M_PREDICATE | M_KEEPS_INT, .int_code = int_signbit},
  [HEAVISIDE] = {.code = heaviside_code},
  [LOGADDEXP] = {.code = logaddexp_code},
  [LOGADDEXP2] = {.code = logaddexp2_code},
  [FLOAT_POWER] = {.code = pow_code, .flags = M_DOUBLE},
  [REMAINDER] = {.libm = "remainder", .domain = fmod_domain},  /* IEEE's: the quotient rounded to even */
  [NEXTAFTER] = {.libm = "nextafter"},
  [ULP] = {.code = ulp_code},
  [SINC] = {.code = sinc_code, .flags = M_INT_DOUBLE},
  [ISPOSINF] = {.code = isposinf_code, .flags = M_PREDICATE, .int_truth = false},
  [ISNEGINF] = {.code = isneginf_code, .flags = M_PREDICATE, .int_truth = false},
  [SPACING] = {.code = spacing_code},
  [GCD] = {.flags = M_KEEPS_INT | M_INT_ONLY, .int_code = int_gcd},
  [LCM] = {.flags = M_KEEPS_INT | M_INT_ONLY, .int_code = int_lcm},
};

/* ---------------------------------------------------------------- typing */

static bool is_numpy(const Node *n) { return !strcmp(n->bi->module, "numpy"); }

/* The arguments promoted together, each a number. */
static const Type *math_operands(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0];
  for (int i = 0; i < n->list.len; i++) {
    if (!ty_need_scalar(in, n->list.items[i], args[i], n->bi->path)) return NULL;
    if (i) t = ty_promote(t, args[i]);
  }
  return t;
}

static const Type *ty_math(Infer *in, Node *n, const Type **args) {
  const MathFn *m = &math_fns[n->bi->ival];
  const Type *t = math_operands(in, n, args);
  if (!t) return NULL;
  if (m->flags & M_PREDICATE) return TYS(TY_BOOL);
  if (m->flags & M_INT_RESULT) return TYS(TY_I64);
  if (m->flags & M_INT_ONLY) {  /* math.gcd, math.lcm: in the arguments' int type, as Numba's */
    for (int i = 0; i < n->list.len; i++)
      if (!ty_is_int(args[i]) && args[i]->kind != TY_BOOL)
        return ty_error(in, n->list.items[i], "%s() needs integers, got %s", n->bi->path, args[i]->name);
    return ty_is_int(t) ? t : TYS(TY_I64);
  }
  /* as numba-cuda: a GPU's float64 is slow; and as Numba types math of float32s, in code written for it
   * (sqrt(dx * dx + dy * dy) * inv of float32s stays float32, as NumPy 2 computes it in Python) */
  if (t->kind == TY_F32 && (ty_in_cuda(in) || (in->opts && in->opts->numba_code))) return TYS(TY_F32);
  return TYS(TY_F64);
}

/* NumPy's dtype for f of arrays of dtype t (the arguments' promoted): ints
 * kept where f keeps them, else the float that holds t (float32 up to 16
 * bits, where NumPy would give float16 for 8: ruchey has no float16);
 * NULL where NumPy has no loop for t. */
static const Type *array_dtype(const MathFn *m, const Type *t) {
  if (m->flags & M_PREDICATE) return TYS(TY_BOOL);
  if ((m->flags & M_INT_ONLY) && !ty_is_int(t)) return NULL;
  if (m->flags & M_DOUBLE) return TYS(TY_F64);
  if (ty_is_float(t)) return t;
  if (m->flags & M_INT_DOUBLE) return TYS(TY_F64);
  if (t->kind == TY_BOOL && (m->flags & M_NO_BOOL)) return NULL;
  if (t->kind == TY_BOOL && (m->flags & M_KEEPS_BOOL)) return t;
  if (m->flags & M_KEEPS_INT) return t->kind == TY_BOOL ? TYS(TY_I8) : t;
  return t->bits <= 16 ? TYS(TY_F32) : TYS(TY_F64);
}

/* numpy.maximum, minimum, fmax, fmin of two datetimes or two timedeltas
 * (in the finer unit, as NumPy's), sign of a timedelta: the datetime
 * functions math takes (ty_check_time let only these through). */
static bool time_math(int fn) { return fn == MAXIMUM || fn == MINIMUM || fn == FMAX || fn == FMIN || fn == SIGN; }

static const Type *ty_time_math(Infer *in, Node *n, const Type **args) {
  const Type *a = elem_of(args[0]), *b = elem_of(args[n->list.len - 1]);
  const Type *t = n->bi->ival == SIGN && rt_numpy_version >= 205 ? TYS(TY_F64) : ty_time_unify(a, b);  /* (NumPy 2.5's float) */
  if (!t)
    return ty_error(in, n, "%s() of %s and %s: NumPy has no common unit or kind for them", n->bi->name, a->name, b->name);
  return ty_broadcast_ndim(args, n->list.len) ? ty_elementwise(in, n, args, t) : t;
}

static const Type *ty_numpy_math(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < n->list.len; i++)
    if (ty_holds_complex(args[i])) return ty_numpy_complex(in, n, args);
  const MathFn *m = &math_fns[n->bi->ival];
  if (time_math((int)n->bi->ival) && (ty_is_time(elem_of(args[0])) || ty_is_time(elem_of(args[n->list.len - 1]))))
    return ty_time_math(in, n, args);
  if (ty_broadcast_ndim(args, n->list.len)) {  /* on arrays: elementwise, NumPy's dtypes */
    for (int i = 0; i < n->list.len; i++) {
      const Type *e = args[i]->kind == TY_ARRAY ? args[i]->elem : args[i];
      if (!ty_is_scalar(e)) return ty_error(in, n->list.items[i], "%s() needs numbers or arrays, got %s", n->bi->name, args[i]->name);
    }
    /* a Python number beside an array yields to it, as to an operator's:
     * numpy.power(a, 2) of a float32 or int16 a keeps its dtype, as a ** 2 */
    bool numba = in->opts && in->opts->numba_code;
    const Type *t = ty_operand_dtype(n->list.items[0], args[0], args[n->list.len - 1], numba);
    if (n->list.len == 2) t = np_promote(t, ty_operand_dtype(n->list.items[1], args[1], args[0], numba));
    const Type *e = array_dtype(m, t);
    if (!e) return ty_error(in, n, "%s() is not defined for arrays of %s", n->bi->name, t->name);
    return ty_elementwise(in, n, args, e);
  }
  const Type *t = math_operands(in, n, args);
  if (!t) return NULL;
  if (m->flags & M_PREDICATE) return TYS(TY_BOOL);
  if (m->flags & M_DOUBLE) return TYS(TY_F64);
  if ((m->flags & M_KEEPS_INT) && !ty_is_float(t)) {
    /* the dtype of NumPy's loop for the operands (promoted as NumPy's, not as
     * Python's operators): numpy.square(int16) wraps at 16 bits, numpy.maximum
     * of two uint8 is a uint8, as Numba's */
    for (int i = 1; i < n->list.len; i++) t = i == 1 ? np_promote(args[0], args[1]) : np_promote(t, args[i]);
    const Type *e = array_dtype(m, t);
    return e ? e : ty_error(in, n, "%s() is not defined for %s", n->bi->name, t->name);
  }
  if ((m->flags & M_INT_DOUBLE) && !ty_is_float(t)) return TYS(TY_F64);
  if ((m->flags & M_INT_ONLY) && !ty_is_int(t)) return ty_error(in, n, "%s() is not defined for %s", n->bi->name, t->name);
  if (t->kind == TY_F32 || (ty_is_int(t) && ty_bits(t) <= 16 && n->list.len == 1)) return TYS(TY_F32);
  if (t->kind == TY_F32 && ty_in_cuda(in)) return TYS(TY_F32);
  return TYS(TY_F64);
}

/* ---------------------------------------------------------------- lowering */

/* ... and math.f raises OverflowError where finite arguments give an infinite result. */
static void range_check(Lower *l, const Type *t, LLVMValueRef *a, int n, LLVMValueRef r) {
  LLVMValueRef bad = fcmp(l, LLVMRealOEQ, absolute(l, t, r), inf(l, t));
  for (int i = 0; i < n; i++) bad = LLVMBuildAnd(l->b, bad, fcmp(l, LLVMRealOLT, absolute(l, t, a[i]), inf(l, t)), "");
  lo_raise_if(l, bad, RT_ERR_OVERFLOW, "math range error");
}

/* math.f raises ValueError outside its domain, with the message of the
 * running CPython; int_arg: the argument was an int. */
static void domain_check(Lower *l, const MathFn *m, const Type *t, LLVMValueRef *a, bool int_arg) {
  LLVMValueRef outside = m->domain(l, t, a);
  if (!m->domain_314 || !lo_python314(l)) lo_raise_if(l, outside, RT_ERR_VALUE, "math domain error");
  else if (int_arg && m->int_314) lo_raise_if(l, outside, RT_ERR_VALUE, m->int_314);
  else lo_raise_float_if(l, outside, RT_ERR_VALUE, m->domain_314, t, a[0]);
}

/* f on values already converted to the float type t (from ints where int_args).
 * Code written for Numba, and host code of error_model="numpy" (a @vectorize
 * loop's), read math.f as Numba does: nan outside the domain, inf on
 * overflow, no exception (kernels, numpy's by default, keep their traps). */
static LLVMValueRef compute(Lower *l, const MathFn *m, bool python, const Type *t, LLVMValueRef *a, int n,
                            bool int_args) {
  bool host_numpy = l->opts->error_model_numpy && !l->opts->kernel && !l->opts->device;
  bool raises = python && !l->opts->numba_code && !host_numpy;
  if (raises && m->domain) domain_check(l, m, t, a, int_args);
  LLVMValueRef r = m->code ? m->code(l, t, a)
                 : m->intrinsic ? lo_intrinsic1(l, m->intrinsic, t, a[0])
                                : lo_libm(l, m->libm, t, a, (unsigned)n);
  if (raises && (m->flags & M_OVERFLOWS)) range_check(l, t, a, n, r);
  if (python && (m->flags & M_INT_RESULT)) return lo_float_to_int(l, t, r);
  return r;
}


/* f of one element of each argument (values of the arguments' element
 * types), to the element type of n. */
/* numpy.isnan, isinf, isfinite of a datetime64 or timedelta64: NaT (int64's
 * least value) is their NaN, and none is infinite, as NumPy's */
static LLVMValueRef time_predicate(Lower *l, int fn, LLVMValueRef v) {
  if (fn == ISINF) return const_bool(l, false);
  LLVMValueRef nat = LLVMBuildICmp(l->b, LLVMIntEQ, v, LLVMConstInt(l->mod->i64, (unsigned long long)INT64_MIN, 1), "");
  return fn == ISNAN ? nat : LLVMBuildNot(l->b, nat, "");
}

/* NumPy 2.5's sign of a timedelta: a float64, NaN for NaT. */
static LLVMValueRef float_time_sign(Lower *l, LLVMValueRef x) {
  const Type *f64 = TYS(TY_F64);
  LLVMValueRef s = lo_convert(l, int_sign(l, TYS(TY_I64), &x), TYS(TY_I64), f64);
  return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, x, const_i64(l, INT64_MIN), ""), lo_fconst(l, f64, NAN), s, "");
}

/* NaT wins maximum and minimum (as NaN), loses fmax and fmin; sign(NaT)
 * is int64's least value's, -1, as NumPy's before 2.5 (a timedelta;
 * NumPy 2.5's is a float64, NaN for NaT). */
static LLVMValueRef time_math_elem(Lower *l, Node *n, const Type *t, LLVMValueRef *v) {
  int fn = (int)n->bi->ival;
  if (fn == SIGN) return ty_is_time(t) ? int_sign(l, t, v) : float_time_sign(l, v[0]);
  LLVMValueRef a = lo_time_convert(l, v[0], elem_of(n->list.items[0]->ty), t);
  LLVMValueRef b = lo_time_convert(l, v[1], elem_of(n->list.items[1]->ty), t);
  LLVMValueRef nat = const_i64(l, INT64_MIN);
  LLVMValueRef na = LLVMBuildICmp(l->b, LLVMIntEQ, a, nat, ""), nb = LLVMBuildICmp(l->b, LLVMIntEQ, b, nat, "");
  bool max = fn == MAXIMUM || fn == FMAX;
  LLVMValueRef r = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, max ? LLVMIntSGT : LLVMIntSLT, a, b, ""), a, b, "");
  if (fn == MAXIMUM || fn == MINIMUM) return LLVMBuildSelect(l->b, LLVMBuildOr(l->b, na, nb, ""), nat, r, "");
  return LLVMBuildSelect(l->b, na, b, LLVMBuildSelect(l->b, nb, a, r, ""), "");
}

static LLVMValueRef lo_math_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const MathFn *m = &math_fns[n->bi->ival];
  const Type *rt = elem_of(n->ty);
  if (ty_is_time(elem_of(n->list.items[0]->ty)) && time_math((int)n->bi->ival)) return time_math_elem(l, n, rt, v);
  bool numpy = is_numpy(n), int_args = true;
  LLVMValueRef a[2] = {NULL, NULL};
  for (int i = 0; i < n->list.len; i++) int_args = int_args && !ty_is_float(elem_of(n->list.items[i]->ty));
  if (int_args && (m->flags & M_PREDICATE)) {
    const Type *t = elem_of(n->list.items[0]->ty);
    if (ty_is_time(t)) return time_predicate(l, (int)n->bi->ival, v[0]);
    if (!m->int_code) return const_bool(l, m->int_truth);
    return m->int_code(l, t, v);
  }
  if (!numpy && int_args && (m->flags & M_INT_RESULT)) return lo_convert(l, v[0], n->list.items[0]->ty, TYS(TY_I64));
  if (!numpy && (m->flags & M_INT_ONLY)) {
    for (int i = 0; i < n->list.len; i++) a[i] = lo_convert(l, v[i], n->list.items[i]->ty, rt);
    return m->int_code(l, rt, a);
  }
  /* in ints; bools as int8s (not where ints of both signs met in a float, as int8 and uint64 in float64) */
  if (numpy && int_args && (m->flags & M_KEEPS_INT) && !ty_is_float(rt)) {
    const Type *t = rt->kind == TY_BOOL ? TYS(TY_I8) : rt;
    for (int i = 0; i < n->list.len; i++) a[i] = lo_convert(l, v[i], elem_of(n->list.items[i]->ty), t);
    return lo_convert(l, m->int_code(l, t, a), t, rt);
  }
  /* the float type the function computes in */
  const Type *t = ty_is_float(rt) ? rt : TYS(TY_F64);
  if (numpy && !ty_is_float(rt))
    for (int i = 0; i < n->list.len; i++)
      if (elem_of(n->list.items[i]->ty)->kind == TY_F32) t = TYS(TY_F32);
  for (int i = 0; i < n->list.len; i++) a[i] = lo_convert(l, v[i], elem_of(n->list.items[i]->ty), t);
  if (numpy && n->bi->ival == POW && lo_scalar_exponent(n->list.items[0]->ty, n->list.items[1]->ty, t))
    return lo_numpy_scalar_power(l, t, a[0], a[1], false);
  return compute(l, m, !numpy, t, a, n->list.len, int_args);
}

static LLVMValueRef lo_math(Lower *l, Node *n) {
  LLVMValueRef v[2];
  for (int i = 0; i < n->list.len; i++) v[i] = lo_expr(l, n->list.items[i]);
  return lo_math_elem(l, n, v);
}

/* ---------------------------------------------------------------- nan_to_num */

/* numpy.nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None): an
 * elementwise call of its five arguments made positional, the replacements
 * in x's float type (a complex's parts each replaced). copy=False writes an
 * array back into itself, as out=x would; a copy known only at run time
 * writes into x or into a copy of it (copy_if). */
static const char *const nan_to_num_kw[] = {"copy", "nan", "posinf", "neginf", NULL};

/* An argument not given (or None): a node of its default; posinf's and
 * neginf's (the largest finite float of x's type, signed) are marked by
 * their names and made when lowering, once x's type is final. */
static Node *nan_to_num_default(Infer *in, const Node *at, int i) {
  Node *c = arena_alloc(in->f->arena, sizeof *c);
  *c = (Node){.kind = i == 1 ? N_BOOL : N_FLOAT, .line = at->line, .col = at->col, .ival = i == 1,
              .ty = i == 1 ? TYS(TY_BOOL) : TYS(TY_F64), .str = i > 2 ? nan_to_num_kw[i - 1] : NULL};
  return c;
}

static double largest_finite(const Type *t) {
  return t->kind == TY_F16 ? 65504.0 : t->kind == TY_F32 ? 3.4028234663852886e38 : 1.7976931348623157e308;
}

/* out= of a copy known only at run time: `numpy.copy(x) if copy else x`
 * (x a variable), as Numba's nan_to_num picks the array it writes then. */
static Node *copy_if(Infer *in, Node *copy, Node *x) {
  Node *dup = arena_alloc(in->f->arena, sizeof *dup), *call = arena_alloc(in->f->arena, sizeof *call);
  Node *pick = arena_alloc(in->f->arena, sizeof *pick), **args = arena_alloc(in->f->arena, sizeof(Node *));
  *dup = *x;
  args[0] = dup;
  *call = (Node){.kind = N_CALL, .line = x->line, .col = x->col, .bi = bi_named("numpy.copy"), .list = {args, 1}};
  *pick = (Node){.kind = N_IFEXP, .line = x->line, .col = x->col, .cond = copy, .lhs = call, .rhs = x};
  return ty_expr(in, pick) ? pick : NULL;
}

static const Type *ty_nan_to_num(Infer *in, Node *n, const Type **args) {
  const Type *x = args[0], *e = elem_of(x);
  if (!ty_is_scalar(e) || (x->kind != TY_ARRAY && !ty_is_scalar(x)))
    return ty_error(in, n->list.items[0], "%s() needs an array or a number, got %s", n->bi->name, x->name);
  Node **all = arena_alloc(in->f->arena, 5 * sizeof(Node *));
  all[0] = n->list.items[0];
  for (int i = 1; i < 5; i++) {
    Node *v = bi_arg(n, i, nan_to_num_kw[i - 1]);
    all[i] = v && v->ty->kind != TY_NONE ? v : nan_to_num_default(in, n, i);
    const Type *t = all[i]->ty;
    if (i == 1 ? t->kind != TY_BOOL : !ty_is_scalar(t))
      return ty_error(in, all[i], "%s(): %s must be %s, got %s", n->bi->name, nan_to_num_kw[i - 1],
                      i == 1 ? "a bool" : "a number", t->name);
  }
  Node *copy = all[1];
  n->list = (NodeList){.items = all, .len = 5};
  n->kw = (NodeList){0};
  n->kw_names = NULL;
  if (x->kind != TY_ARRAY) return e;
  const Type *types[5] = {x, all[1]->ty, all[2]->ty, all[3]->ty, all[4]->ty};
  const Type *t = ty_elementwise(in, n, types, e);
  if (!t || (copy->kind == N_BOOL && copy->ival)) return t;
  if (all[0]->kind != N_VAR)
    return ty_error(in, all[0], "%s(copy=False) writes into its array: give it in a variable", n->bi->name);
  Node *out = arena_alloc(in->f->arena, sizeof *out);
  *out = *all[0];  /* the same variable, its own node */
  if (copy->kind != N_BOOL && !(out = copy_if(in, copy, out))) return NULL;
  all[1] = nan_to_num_default(in, n, 1);  /* the call (typed again as out='s operand) is a copy's */
  n->kw = (NodeList){.items = arena_alloc(in->f->arena, sizeof(Node *)), .len = 1};
  n->kw.items[0] = out;
  n->kw_names = arena_alloc(in->f->arena, sizeof(char *));
  n->kw_names[0] = "out";
  return t;  /* the caller's ty_ufunc_out takes the out= made here */
}

/* x with NaN and the infinities replaced (each test on x itself: a
 * replacement may be infinite), all of the float type f */
static LLVMValueRef float_to_num(Lower *l, const Type *f, LLVMValueRef x, const LLVMValueRef *by) {
  LLVMValueRef r = LLVMBuildSelect(l->b, fcmp(l, LLVMRealUNO, x, x), by[0], x, "");
  r = LLVMBuildSelect(l->b, fcmp(l, LLVMRealOEQ, x, inf(l, f)), by[1], r, "");
  return LLVMBuildSelect(l->b, fcmp(l, LLVMRealOEQ, x, lo_fconst(l, f, -INFINITY)), by[2], r, "");
}

static LLVMValueRef nan_to_num_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *e = elem_of(n->ty), *f = lo_complex_part(e);
  if (!ty_is_float(f)) return v[0];
  LLVMValueRef by[3];
  for (int i = 0; i < 3; i++) {
    Node *r = n->list.items[i + 2];
    by[i] = r->kind == N_FLOAT && r->str ? lo_fconst(l, f, i == 1 ? largest_finite(f) : -largest_finite(f))
                   : lo_convert(l, v[i + 2], elem_of(r->ty), f);
  }
  if (f == e) return float_to_num(l, f, v[0], by);
  return lo_complex_make(l, e, float_to_num(l, f, lo_complex_real(l, v[0]), by),
                         float_to_num(l, f, lo_complex_imag(l, v[0]), by));
}

/* numpy.isposinf(x, out=None) and isneginf, not ufuncs but NumPy functions
 * taking out by position too: out moved to the keyword ty_ufunc_out reads,
 * None there the default */
static const Type *ty_numpy_infinity(Infer *in, Node *n, const Type **args) {
  Node *out = bi_arg(n, 1, "out");
  n->list.len = 1;
  n->kw = (NodeList){0};
  n->kw_names = NULL;
  if (out && out->ty->kind != TY_NONE) {
    n->kw = (NodeList){.items = arena_alloc(in->f->arena, sizeof(Node *)), .len = 1};
    n->kw.items[0] = out;
    n->kw_names = arena_alloc(in->f->arena, sizeof(char *));
    n->kw_names[0] = "out";
  }
  return ty_numpy_math(in, n, args);
}

/* ---------------------------------------------------------------- the rows */

/* name, the function (math_fns), its arity, its flags */
#define MATH(name, fn, n, flags) \
  {"math." name, "math", name, BK_FUNCTION, 0, n, n, NULL, BF_PURE | BF_RAISES | (flags), fn, 0, ty_math, lo_math}
static const char *const out_kw[] = {"out", NULL};

#define NUMPY(name, fn, n, flags) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, n, n, out_kw, BF_PURE | BF_COMPLEX | BF_UFUNC | (flags), fn, 0, ty_numpy_math, \
   lo_math, lo_math_elem}

const Builtin bi_math[] = {
  MATH("sqrt", SQRT, 1, BF_CHEAP), NUMPY("sqrt", SQRT, 1, BF_CHEAP),
  MATH("exp", EXP, 1, 0), NUMPY("exp", EXP, 1, 0),
  MATH("exp2", EXP2, 1, 0), NUMPY("exp2", EXP2, 1, 0),
  MATH("expm1", EXPM1, 1, 0), NUMPY("expm1", EXPM1, 1, 0),
  MATH("log", LOG, 1, 0), NUMPY("log", LOG, 1, 0),
  MATH("log2", LOG2, 1, 0), NUMPY("log2", LOG2, 1, 0),
  MATH("log10", LOG10, 1, 0), NUMPY("log10", LOG10, 1, 0),
  MATH("log1p", LOG1P, 1, 0), NUMPY("log1p", LOG1P, 1, 0),
  MATH("sin", SIN, 1, 0), NUMPY("sin", SIN, 1, 0),
  MATH("cos", COS, 1, 0), NUMPY("cos", COS, 1, 0),
  MATH("tan", TAN, 1, 0), NUMPY("tan", TAN, 1, 0),
  MATH("asin", ASIN, 1, 0), NUMPY("arcsin", ASIN, 1, 0),
  MATH("acos", ACOS, 1, 0), NUMPY("arccos", ACOS, 1, 0),
  MATH("atan", ATAN, 1, 0), NUMPY("arctan", ATAN, 1, 0),
  MATH("sinh", SINH, 1, 0), NUMPY("sinh", SINH, 1, 0),
  MATH("cosh", COSH, 1, 0), NUMPY("cosh", COSH, 1, 0),
  MATH("tanh", TANH, 1, 0), NUMPY("tanh", TANH, 1, 0),
  MATH("asinh", ASINH, 1, 0), NUMPY("arcsinh", ASINH, 1, 0),
  MATH("acosh", ACOSH, 1, 0), NUMPY("arccosh", ACOSH, 1, 0),
  MATH("atanh", ATANH, 1, 0), NUMPY("arctanh", ATANH, 1, 0),
  MATH("erf", ERF, 1, 0),
  MATH("erfc", ERFC, 1, 0),
  MATH("gamma", GAMMA, 1, 0),
  MATH("lgamma", LGAMMA, 1, 0),
  MATH("cbrt", CBRT, 1, 0), NUMPY("cbrt", CBRT, 1, 0),
  MATH("fabs", FABS, 1, BF_CHEAP), NUMPY("fabs", FABS, 1, BF_CHEAP),
  MATH("floor", FLOOR, 1, BF_CHEAP), NUMPY("floor", FLOOR, 1, BF_CHEAP),
  MATH("ceil", CEIL, 1, BF_CHEAP), NUMPY("ceil", CEIL, 1, BF_CHEAP),
  MATH("trunc", TRUNC, 1, BF_CHEAP), NUMPY("trunc", TRUNC, 1, BF_CHEAP),
  NUMPY("rint", RINT, 1, BF_CHEAP),
  MATH("isnan", ISNAN, 1, BF_CHEAP), NUMPY("isnan", ISNAN, 1, BF_CHEAP),
  MATH("isinf", ISINF, 1, BF_CHEAP), NUMPY("isinf", ISINF, 1, BF_CHEAP),
  MATH("isfinite", ISFINITE, 1, BF_CHEAP), NUMPY("isfinite", ISFINITE, 1, BF_CHEAP),
  MATH("degrees", DEGREES, 1, BF_CHEAP), NUMPY("degrees", DEGREES, 1, BF_CHEAP),
  MATH("radians", RADIANS, 1, BF_CHEAP), NUMPY("radians", RADIANS, 1, BF_CHEAP),
  NUMPY("sign", SIGN, 1, BF_CHEAP),
  MATH("atan2", ATAN2, 2, 0), NUMPY("arctan2", ATAN2, 2, 0),
  MATH("hypot", HYPOT, 2, 0), NUMPY("hypot", HYPOT, 2, 0),
  MATH("copysign", COPYSIGN, 2, BF_CHEAP), NUMPY("copysign", COPYSIGN, 2, BF_CHEAP),
  MATH("fmod", FMOD, 2, 0), NUMPY("fmod", FMOD, 2, 0),
  MATH("pow", POW, 2, 0), NUMPY("power", POW, 2, 0),
  MATH("remainder", REMAINDER, 2, 0),
  MATH("nextafter", NEXTAFTER, 2, BF_CHEAP), NUMPY("nextafter", NEXTAFTER, 2, BF_CHEAP),
  MATH("ulp", ULP, 1, BF_CHEAP),
  NUMPY("absolute", ABS, 1, BF_CHEAP),
  NUMPY("minimum", MINIMUM, 2, BF_CHEAP),
  NUMPY("maximum", MAXIMUM, 2, BF_CHEAP),
  NUMPY("fmin", FMIN, 2, BF_CHEAP),
  NUMPY("fmax", FMAX, 2, BF_CHEAP),
  NUMPY("square", SQUARE, 1, BF_CHEAP),
  NUMPY("reciprocal", RECIPROCAL, 1, BF_CHEAP),
  NUMPY("signbit", SIGNBIT, 1, BF_CHEAP),
  NUMPY("spacing", SPACING, 1, BF_CHEAP),
  NUMPY("heaviside", HEAVISIDE, 2, BF_CHEAP),
  NUMPY("logaddexp", LOGADDEXP, 2, 0),
  NUMPY("logaddexp2", LOGADDEXP2, 2, 0),
  NUMPY("float_power", FLOAT_POWER, 2, 0),
  NUMPY("deg2rad", RADIANS, 1, BF_CHEAP),
  NUMPY("rad2deg", DEGREES, 1, BF_CHEAP),
  MATH("gcd", GCD, 2, BF_CHEAP), NUMPY("gcd", GCD, 2, 0),
  MATH("lcm", LCM, 2, BF_CHEAP), NUMPY("lcm", LCM, 2, 0),
  /* not ufuncs: no out= */
  {"numpy.sinc", "numpy", "sinc", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_COMPLEX, SINC, 0, ty_numpy_math, lo_math, lo_math_elem},
  {"numpy.isposinf", "numpy", "isposinf", BK_FUNCTION, 0, 1, 2, out_kw, BF_PURE | BF_CHEAP | BF_NONE, ISPOSINF, 0, ty_numpy_infinity, lo_math,
   lo_math_elem},
  {"numpy.isneginf", "numpy", "isneginf", BK_FUNCTION, 0, 1, 2, out_kw, BF_PURE | BF_CHEAP | BF_NONE, ISNEGINF, 0, ty_numpy_infinity, lo_math,
   lo_math_elem},
  {"numpy.nan_to_num", "numpy", "nan_to_num", BK_FUNCTION, 0, 1, 5, nan_to_num_kw, BF_PURE | BF_CHEAP | BF_COMPLEX | BF_NONE, 0, 0,
   ty_nan_to_num, lo_ufunc_call, nan_to_num_elem},
  BI_END,
};
