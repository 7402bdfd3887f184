/* builtins/mathparts.c — the math module's functions that are not one
 * float to one float: the parts of a float (frexp, modf, ldexp), isclose
 * with its tolerances, and factorial of an int; NumPy's ufuncs of the
 * parts of a float (numpy.ldexp, and numpy.frexp and numpy.modf, ufuncs of
 * two outputs).
 *
 * Each follows CPython: float arguments where CPython takes an int are a
 * TypingError (CPython's TypeError, found at compile time), ValueError and
 * OverflowError where CPython raises them, and an int result beyond int64
 * (factorial(21) on) raises OverflowError, ruchey's rule where CPython
 * would make a larger int.
 */
#include <math.h>
#include <stdio.h>

#include "builtins/builtins.h"

/* ---------------------------------------------------------------- typing */

static const Type *need_int(Infer *in, Node *n, Node *arg, const Type *t, const char *what) {
  if (!ty_need_scalar(in, arg, t, n->bi->name)) return NULL;
  if (ty_is_float(t)) return ty_error(in, arg, "%s() needs an int %s, got %s", n->bi->name, what, t->name);
  return t;
}

static const Type *ty_ldexp(Infer *in, Node *n, const Type **args) {
  if (!ty_need_scalar(in, n->list.items[0], args[0], n->bi->name) ||
      !need_int(in, n, n->list.items[1], args[1], "exponent"))
    return NULL;
  return TYS(TY_F64);
}

static const Type *ty_frexp(Infer *in, Node *n, const Type **args) {
  if (!ty_need_scalar(in, n->list.items[0], args[0], n->bi->name)) return NULL;
  return ty_tuple(2, (const Type *[]){TYS(TY_F64), TYS(TY_I64)});
}

static const Type *ty_modf(Infer *in, Node *n, const Type **args) {
  if (!ty_need_scalar(in, n->list.items[0], args[0], n->bi->name)) return NULL;
  return ty_tuple(2, (const Type *[]){TYS(TY_F64), TYS(TY_F64)});
}

/* numpy.ldexp(x, i): elementwise, NumPy's loops: x's float type (an int x's
 * float as other NumPy math functions give it), i any int but uint64 */
static const Type *ty_np_ldexp(Infer *in, Node *n, const Type **args) {
  const Type *x = elem_of(args[0]), *i = elem_of(args[1]);
  for (int k = 0; k < 2; k++)
    if (!ty_is_scalar(elem_of(args[k])) || (args[k]->kind != TY_ARRAY && !ty_is_scalar(args[k])))
      return ty_error(in, n->list.items[k], "%s() needs numbers or arrays, got %s", n->bi->name, args[k]->name);
  if (!ty_is_int(i) && i->kind != TY_BOOL)
    return ty_error(in, n->list.items[1], "%s() needs an int exponent, got %s", n->bi->name, i->name);
  if (i->kind == TY_U64)
    return ty_error(in, n->list.items[1], "%s() has no loop for uint64 exponents (NumPy's casting rule 'safe')",
                    n->bi->name);
  const Type *e = ty_is_float(x) ? x : ty_bits(x) <= 16 ? TYS(TY_F32) : TYS(TY_F64);
  return args[0]->kind == TY_ARRAY || args[1]->kind == TY_ARRAY ? ty_elementwise(in, n, args, e) : e;
}

/* The float type of NumPy's loop for frexp and modf of t (e->e, f->f,
 * d->d): ints and bools of 8 bits in float16, of 16 in float32, wider
 * ones in float64, as NumPy casts them safely */
static const Type *parts_float(const Type *t) {
  if (ty_is_float(t)) return t;
  return ty_bits(t) <= 8 ? TYS(TY_F16) : ty_bits(t) <= 16 ? TYS(TY_F32) : TYS(TY_F64);
}

/* a part of numpy.frexp or modf (the row's ival: its output's element,
 * 0 x's float type, 1 int32 (frexp's exponent)), elementwise on an array */
static const Type *ty_float_part(Infer *in, Node *n, const Type **args) {
  const Type *x = elem_of(args[0]);
  if ((args[0]->kind != TY_ARRAY && !ty_is_scalar(args[0])) || !ty_is_scalar(x))
    return ty_error(in, n->list.items[0], "%s() needs a number or an array of them, got %s", n->bi->name,
                    args[0]->name);
  const Type *e = n->bi->ival ? TYS(TY_I32) : parts_float(x);
  return args[0]->kind == TY_ARRAY ? ty_elementwise(in, n, args, e) : e;
}

static const char *const out_kw[] = {"out", NULL};
static const char *const tolerances[] = {"rel_tol", "abs_tol", NULL};

static const Type *ty_isclose(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < 2; i++)
    if (!ty_need_scalar(in, n->list.items[i], args[i], n->bi->name)) return NULL;
  for (int i = 0; tolerances[i]; i++) {
    Node *tol = ty_kwarg(n, tolerances[i]);
    if (tol && !ty_need_scalar(in, tol, ty_expr(in, tol), tolerances[i])) return NULL;
  }
  return TYS(TY_BOOL);
}

static const Type *ty_factorial(Infer *in, Node *n, const Type **args) {
  return need_int(in, n, n->list.items[0], args[0], "argument") ? TYS(TY_I64) : NULL;
}

/* ---------------------------------------------------------------- lowering */

static LLVMValueRef as_double(Lower *l, Node *x) { return lo_expr_as(l, x, TYS(TY_F64)); }

/* the C library's function, libdevice's on the GPU */
static LLVMValueRef call_libm(Lower *l, const char *name, LLVMTypeRef ret, LLVMTypeRef *params, LLVMValueRef *args, int n) {
  char buf[32];
  snprintf(buf, sizeof buf, "%s%s", l->mod->gpu ? "__nv_" : "", name);
  return lo_call_fn(l, buf, ret, params, args, (unsigned)n);
}

static LLVMValueRef is_finite(Lower *l, LLVMValueRef x) {
  return fcmp(l, LLVMRealOLT, lo_intrinsic1(l, "llvm.fabs", TYS(TY_F64), x), lo_fconst(l, TYS(TY_F64), INFINITY));
}

/* x * 2**i; i beyond +-2200 scales every double to 0 or inf, so it is
 * clamped to fit C's int */
static LLVMValueRef lo_ldexp(Lower *l, Node *n) {
  LLVMValueRef x = as_double(l, n->list.items[0]);
  Node *e = n->list.items[1];
  LLVMValueRef i = lo_expr(l, e), limit = const_i64(l, 2200);
  if (e->ty->kind == TY_U64) i = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntUGT, i, limit, ""), limit, i, "");
  i = lo_convert(l, i, e->ty, TYS(TY_I64));
  LLVMTypeRef ov[1] = {l->mod->i64};
  i = lo_intrinsic(l, "llvm.smin", ov, 1, (LLVMValueRef[]){i, limit}, 2);
  i = lo_intrinsic(l, "llvm.smax", ov, 1, (LLVMValueRef[]){i, const_i64(l, -2200)}, 2);
  LLVMTypeRef params[2] = {l->mod->f64, l->mod->i32};
  LLVMValueRef r = call_libm(l, "ldexp", l->mod->f64, params,
                             (LLVMValueRef[]){x, LLVMBuildTrunc(l->b, i, l->mod->i32, "")}, 2);
  if (!l->opts->numba_code)  /* Numba's ldexp saturates to inf, as C's */
    lo_raise_if(l, LLVMBuildAnd(l->b, is_finite(l, x), LLVMBuildNot(l->b, is_finite(l, r), ""), ""), RT_ERR_OVERFLOW,
                "math range error");
  return r;
}

/* numpy.ldexp of one element: x * 2**i in x's float type, inf and 0 beyond
 * its range as C's ldexp gives them (computed in float64, which holds every
 * float32 and float16 result exactly before the rounding) */
static LLVMValueRef np_ldexp_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *t = elem_of(n->ty), *ti = elem_of(n->list.items[1]->ty), *f64 = TYS(TY_F64);
  LLVMValueRef x = lo_convert(l, v[0], elem_of(n->list.items[0]->ty), f64);
  LLVMValueRef i = lo_convert(l, v[1], ti, TYS(TY_I64)), limit = const_i64(l, 2200);
  LLVMTypeRef ov[1] = {l->mod->i64};
  i = lo_intrinsic(l, "llvm.smin", ov, 1, (LLVMValueRef[]){i, limit}, 2);
  i = lo_intrinsic(l, "llvm.smax", ov, 1, (LLVMValueRef[]){i, const_i64(l, -2200)}, 2);
  LLVMTypeRef params[2] = {l->mod->f64, l->mod->i32};
  LLVMValueRef r = call_libm(l, "ldexp", l->mod->f64, params, (LLVMValueRef[]){x, LLVMBuildTrunc(l->b, i, l->mod->i32, "")}, 2);
  return lo_convert(l, r, f64, t);
}

/* (m, e) with x == m * 2**e, 0.5 <= |m| < 1; (x, 0) for 0, NaN and the infinities */
static LLVMValueRef lo_frexp(Lower *l, Node *n) {
  LLVMValueRef x = as_double(l, n->list.items[0]);
  LLVMValueRef slot = lo_alloca(l, l->mod->i32, "exp");
  LLVMTypeRef params[2] = {l->mod->f64, l->mod->ptr};
  LLVMValueRef m = call_libm(l, "frexp", l->mod->f64, params, (LLVMValueRef[]){x, slot}, 2);
  LLVMValueRef e = LLVMBuildSExt(l->b, LLVMBuildLoad2(l->b, l->mod->i32, slot, ""), l->mod->i64, "");
  e = LLVMBuildSelect(l->b, is_finite(l, x), e, const_i64(l, 0), "");
  LLVMValueRef r = LLVMGetUndef(lo_type(l, n->ty));
  r = LLVMBuildInsertValue(l->b, r, m, 0, "");
  return LLVMBuildInsertValue(l->b, r, e, 1, "");
}

/* (fraction, integral part), both with x's sign; C's modf gives CPython's
 * answers for the infinities (+-0.0, x) and NaN */
static LLVMValueRef lo_modf(Lower *l, Node *n) {
  LLVMValueRef x = as_double(l, n->list.items[0]);
  LLVMValueRef slot = lo_alloca(l, l->mod->f64, "whole");
  LLVMTypeRef params[2] = {l->mod->f64, l->mod->ptr};
  LLVMValueRef frac = call_libm(l, "modf", l->mod->f64, params, (LLVMValueRef[]){x, slot}, 2);
  LLVMValueRef r = LLVMGetUndef(lo_type(l, n->ty));
  r = LLVMBuildInsertValue(l->b, r, frac, 0, "");
  return LLVMBuildInsertValue(l->b, r, LLVMBuildLoad2(l->b, l->mod->f64, slot, ""), 1, "");
}

/* numpy.frexp's and modf's outputs, one element: computed in float64,
 * which holds every float32 and float16 and their parts exactly */
static LLVMValueRef float_part_arg(Lower *l, Node *n, LLVMValueRef *v) {
  return lo_convert(l, v[0], elem_of(n->list.items[0]->ty), TYS(TY_F64));
}

static LLVMValueRef frexp_of(Lower *l, LLVMValueRef x, LLVMValueRef slot) {
  LLVMTypeRef params[2] = {l->mod->f64, l->mod->ptr};
  return call_libm(l, "frexp", l->mod->f64, params, (LLVMValueRef[]){x, slot}, 2);
}

static LLVMValueRef modf_of(Lower *l, LLVMValueRef x, LLVMValueRef slot) {
  LLVMTypeRef params[2] = {l->mod->f64, l->mod->ptr};
  return call_libm(l, "modf", l->mod->f64, params, (LLVMValueRef[]){x, slot}, 2);
}

static LLVMValueRef frexp_mantissa_elem(Lower *l, Node *n, LLVMValueRef *v) {
  LLVMValueRef m = frexp_of(l, float_part_arg(l, n, v), lo_alloca(l, l->mod->i32, "exp"));
  return lo_convert(l, m, TYS(TY_F64), elem_of(n->ty));
}

/* 0 for NaN and the infinities, as NumPy's (C's frexp leaves it unspecified) */
static LLVMValueRef frexp_exponent_elem(Lower *l, Node *n, LLVMValueRef *v) {
  LLVMValueRef x = float_part_arg(l, n, v), slot = lo_alloca(l, l->mod->i32, "exp");
  frexp_of(l, x, slot);
  LLVMValueRef e = LLVMBuildLoad2(l->b, l->mod->i32, slot, "");
  return LLVMBuildSelect(l->b, is_finite(l, x), e, LLVMConstInt(l->mod->i32, 0, 0), "");
}

static LLVMValueRef modf_fraction_elem(Lower *l, Node *n, LLVMValueRef *v) {
  LLVMValueRef f = modf_of(l, float_part_arg(l, n, v), lo_alloca(l, l->mod->f64, "whole"));
  return lo_convert(l, f, TYS(TY_F64), elem_of(n->ty));
}

static LLVMValueRef modf_integral_elem(Lower *l, Node *n, LLVMValueRef *v) {
  LLVMValueRef slot = lo_alloca(l, l->mod->f64, "whole");
  modf_of(l, float_part_arg(l, n, v), slot);
  return lo_convert(l, LLVMBuildLoad2(l->b, l->mod->f64, slot, ""), TYS(TY_F64), elem_of(n->ty));
}

/* CPython's test: equal, or neither infinite and the difference within
 * rel_tol of either or within abs_tol */
static LLVMValueRef lo_isclose(Lower *l, Node *n) {
  const Type *t = TYS(TY_F64);
  LLVMValueRef a = as_double(l, n->list.items[0]), b = as_double(l, n->list.items[1]);
  Node *rel_node = ty_kwarg(n, "rel_tol"), *abs_node = ty_kwarg(n, "abs_tol");
  LLVMValueRef rel = rel_node ? as_double(l, rel_node) : lo_fconst(l, t, 1e-9);
  LLVMValueRef tol = abs_node ? as_double(l, abs_node) : lo_fconst(l, t, 0.0);
  LLVMValueRef zero = lo_fconst(l, t, 0.0);
  lo_raise_if(l, LLVMBuildOr(l->b, fcmp(l, LLVMRealOLT, rel, zero), fcmp(l, LLVMRealOLT, tol, zero), ""),
              RT_ERR_VALUE, "tolerances must be non-negative");
  LLVMValueRef diff = lo_intrinsic1(l, "llvm.fabs", t, LLVMBuildFSub(l->b, b, a, ""));
  LLVMValueRef near_b = fcmp(l, LLVMRealOLE, diff, lo_intrinsic1(l, "llvm.fabs", t, LLVMBuildFMul(l->b, rel, b, "")));
  LLVMValueRef near_a = fcmp(l, LLVMRealOLE, diff, lo_intrinsic1(l, "llvm.fabs", t, LLVMBuildFMul(l->b, rel, a, "")));
  LLVMValueRef near = LLVMBuildOr(l->b, LLVMBuildOr(l->b, near_a, near_b, ""), fcmp(l, LLVMRealOLE, diff, tol), "");
  near = LLVMBuildAnd(l->b, near, LLVMBuildAnd(l->b, is_finite(l, a), is_finite(l, b), ""), "");
  return LLVMBuildOr(l->b, fcmp(l, LLVMRealOEQ, a, b), near, "");
}

/* n! from a table: 20! is the largest that int64 holds */
static LLVMValueRef lo_factorial(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  const Type *t = x->ty->kind == TY_BOOL ? TYS(TY_I64) : x->ty;
  LLVMValueRef v = lo_expr_as(l, x, t);
  LLVMValueRef big = LLVMBuildICmp(l->b, ty_is_signed(t) ? LLVMIntSGT : LLVMIntUGT, v,
                                   LLVMConstInt(lo_type(l, t), 20, 0), "");
  lo_raise_if(l, big, RT_ERR_OVERFLOW, "factorial() result does not fit in int64");
  v = lo_convert(l, v, t, TYS(TY_I64));
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, v, const_i64(l, 0), ""), RT_ERR_VALUE,
              "factorial() not defined for negative values");
  LLVMValueRef values[21];
  int64_t f = 1;
  for (int i = 0; i < 21; i++) {
    values[i] = const_i64(l, f);
    f *= i + 1;
  }
  LLVMTypeRef at = LLVMArrayType2(l->mod->i64, 21);
  LLVMValueRef table = LLVMAddGlobal(l->mod->m, at, "factorials");
  LLVMSetInitializer(table, LLVMConstArray2(l->mod->i64, values, 21));
  LLVMSetGlobalConstant(table, 1);
  LLVMSetLinkage(table, LLVMPrivateLinkage);
  LLVMValueRef at_n = LLVMBuildGEP2(l->b, at, table, (LLVMValueRef[]){const_i64(l, 0), v}, 2, "");
  return LLVMBuildLoad2(l->b, l->mod->i64, at_n, "");
}

/* ---------------------------------------------------------------- the rows */

/* numpy.frexp(x[, m, e], out=(m, e)) and numpy.modf(x[, f, i], out=(f, i)):
 * the tuple of their parts' calls, each a ufunc of one output */
#define FLOAT_PART(name, what, element) \
  {"numpy." #name " " #what, NULL, NULL, BK_FUNCTION, 0, 1, 1, out_kw, BF_PURE | BF_CHEAP | BF_UFUNC, element, 0, \
   ty_float_part, lo_ufunc_call, name##_##what##_elem}
static const Builtin frexp_mantissa = FLOAT_PART(frexp, mantissa, 0);
static const Builtin frexp_exponent = FLOAT_PART(frexp, exponent, 1);
static const Builtin modf_fraction = FLOAT_PART(modf, fraction, 0);
static const Builtin modf_integral = FLOAT_PART(modf, integral, 0);

static const Type *ty_np_frexp(Infer *in, Node *n, const Type **args) {
  return ty_ufunc_two_outputs(in, n, &frexp_mantissa, &frexp_exponent);
}

static const Type *ty_np_modf(Infer *in, Node *n, const Type **args) {
  return ty_ufunc_two_outputs(in, n, &modf_fraction, &modf_integral);
}

#define MATH(name, lo, hi, kw, flags, type, lower) \
  {"math." name, "math", name, BK_FUNCTION, 0, lo, hi, kw, BF_PURE | BF_RAISES | (flags), 0, 0, type, lower}

const Builtin bi_mathparts[] = {
  MATH("ldexp", 2, 2, NULL, BF_CHEAP, ty_ldexp, lo_ldexp),
  MATH("frexp", 1, 1, NULL, BF_CHEAP, ty_frexp, lo_frexp),
  MATH("modf", 1, 1, NULL, BF_CHEAP, ty_modf, lo_modf),
  MATH("isclose", 2, 2, tolerances, BF_CHEAP, ty_isclose, lo_isclose),
  MATH("factorial", 1, 1, NULL, BF_CHEAP, ty_factorial, lo_factorial),
  {"numpy.ldexp", "numpy", "ldexp", BK_FUNCTION, 0, 2, 2, out_kw, BF_PURE | BF_CHEAP, 0, 0, ty_np_ldexp, lo_ufunc_call,
   np_ldexp_elem},
  {"numpy.frexp", "numpy", "frexp", BK_FUNCTION, 0, 1, 3, out_kw, BF_ARGS_TWICE | BF_ARRAYLIKE, 0, 0, ty_np_frexp,
   lo_ufunc_two_outputs},
  {"numpy.modf", "numpy", "modf", BK_FUNCTION, 0, 1, 3, out_kw, BF_ARGS_TWICE | BF_ARRAYLIKE, 0, 0, ty_np_modf,
   lo_ufunc_two_outputs},
  BI_END,
};
