/* lower/complex.c — complex64 and complex128 values: a {real, imaginary}
 * pair of floats in registers and in memory (NumPy's layout), their
 * conversions, arithmetic and comparisons. Scalars follow CPython
 * (Smith's division, which raises ZeroDivisionError on a zero divisor;
 * powers with small integer exponents by repeated multiplication), the
 * running one's: from 3.14 on, C99's Annex G (a real operand mixed with a
 * complex one is not made complex first; products and quotients recover
 * infinities). The elements of array expressions and error_model="numpy"
 * follow NumPy. */
#include <math.h>

#include "lower/lower.h"

/* The float type of each part: float32 for complex64, float64 for complex128. */
const Type *lo_complex_part(const Type *t) {
  return ty_is_complex(t) ? TYS(t->kind == TY_C64 ? TY_F32 : TY_F64) : t;
}

LLVMValueRef lo_complex_make(Lower *l, const Type *t, LLVMValueRef re, LLVMValueRef im) {
  LLVMValueRef v = LLVMGetUndef(lo_type(l, t));
  v = LLVMBuildInsertValue(l->b, v, re, 0, "");
  return LLVMBuildInsertValue(l->b, v, im, 1, "");
}

LLVMValueRef lo_complex_real(Lower *l, LLVMValueRef v) { return LLVMBuildExtractValue(l->b, v, 0, "re"); }
LLVMValueRef lo_complex_imag(Lower *l, LLVMValueRef v) { return LLVMBuildExtractValue(l->b, v, 1, "im"); }

/* A number of type from as the parts of complex type to. */
static void parts_as(Lower *l, LLVMValueRef v, const Type *from, const Type *to, LLVMValueRef *re, LLVMValueRef *im) {
  const Type *part = lo_complex_part(to);
  if (ty_is_complex(from)) {
    *re = lo_convert(l, lo_complex_real(l, v), lo_complex_part(from), part);
    *im = lo_convert(l, lo_complex_imag(l, v), lo_complex_part(from), part);
  } else {
    *re = lo_convert(l, v, from, part);
    *im = lo_fconst(l, part, 0.0);
  }
}

LLVMValueRef lo_complex_truth(Lower *l, LLVMValueRef v, const Type *t) {
  const Type *part = lo_complex_part(t);
  return LLVMBuildOr(l->b, lo_truth(l, lo_complex_real(l, v), part), lo_truth(l, lo_complex_imag(l, v), part), "");
}

/* A conversion where from or to is complex. A complex made real keeps its
 * real part, as NumPy's casts do (typing refuses it where Python would). */
LLVMValueRef lo_complex_convert(Lower *l, LLVMValueRef v, const Type *from, const Type *to) {
  if (ty_is_complex(to)) {
    LLVMValueRef re, im;
    parts_as(l, v, from, to, &re, &im);
    return lo_complex_make(l, to, re, im);
  }
  if (to->kind == TY_BOOL) return lo_complex_truth(l, v, from);
  return lo_convert(l, lo_complex_real(l, v), lo_complex_part(from), to);
}

/* ---------------------------------------------------------------- arithmetic */

static LLVMValueRef fabs_of(Lower *l, const Type *part, LLVMValueRef x) { return lo_intrinsic1(l, "llvm.fabs", part, x); }

/* a / b by Smith's method: CPython's for scalars (a zero divisor raises,
 * NaN parts give NaN), NumPy's for arrays (it multiplies by the divisor's
 * reciprocal, and divides by zero into infinities and NaN; an array
 * expression's `/` divides as CPython's where the divisor is not zero, as
 * Numba's array expressions, which call the scalar operator). Only the
 * chosen branch's ratio is divided: a ratio by the smaller part of the
 * divisor, computed and dropped, would set the divide-by-zero flag that
 * NumPy reports as a warning after a ufunc's loop. With the divisor's
 * larger part big and smaller small, and the dividend's parts taken in
 * the same order (p, q), both of Smith's branches are
 *   re = (p + q*r) / d,  im = (q - p*r) / d  or  (p*r - q) / d,
 *   r = small/big, d = big + small*r
 * (the second imaginary part where the divisor's imaginary part is the
 * larger, subtracted in that order so that a zero keeps CPython's sign). */
static LLVMValueRef complex_div(Lower *l, const Type *t, LLVMValueRef ar, LLVMValueRef ai, LLVMValueRef br,
                                LLVMValueRef bi) {
  const Type *p = lo_complex_part(t);
  LLVMBuilderRef b = l->b;
  LLVMValueRef zero = lo_fconst(l, p, 0.0), one = lo_fconst(l, p, 1.0);
  LLVMValueRef abr = fabs_of(l, p, br), abi = fabs_of(l, p, bi);
  LLVMValueRef wide = fcmp(l, LLVMRealOGE, abr, abi);  /* |br| >= |bi| */
  LLVMValueRef bzero = LLVMBuildAnd(b, fcmp(l, LLVMRealOEQ, br, zero), fcmp(l, LLVMRealOEQ, bi, zero), "");
  /* Numba's array expressions divide by Python's complex division, raising too */
  bool numpy = lo_numpy_errors(l) && !(l->operator_quotient && l->opts->numba_code);
  if (!numpy) lo_raise_if(l, bzero, RT_ERR_ZERODIV, lo_zero_division(l, "complex division by zero"));
  LLVMValueRef big = LLVMBuildSelect(b, wide, br, bi, ""), small = LLVMBuildSelect(b, wide, bi, br, "");
  LLVMValueRef pp = LLVMBuildSelect(b, wide, ar, ai, ""), qq = LLVMBuildSelect(b, wide, ai, ar, "");
  if (numpy) big = LLVMBuildSelect(b, bzero, one, big, "");  /* a zero divisor's quotient is ar/|br|, below */
  LLVMValueRef r = LLVMBuildFDiv(b, small, big, "");
  LLVMValueRef d = LLVMBuildFAdd(b, big, LLVMBuildFMul(b, small, r, ""), "");
  LLVMValueRef nr = LLVMBuildFAdd(b, pp, LLVMBuildFMul(b, qq, r, ""), "");
  LLVMValueRef pr = LLVMBuildFMul(b, pp, r, "");
  LLVMValueRef ni = LLVMBuildSelect(b, wide, LLVMBuildFSub(b, qq, pr, ""), LLVMBuildFSub(b, pr, qq, ""), "");
  LLVMValueRef re, im;
  if (numpy) {
    /* The zero divisor's ar/|br| divides by one elsewhere, chosen by
     * |br| + |bi| == 0 rather than by bzero: LLVM folds a select on bzero
     * inside the arm of another select on it, leaving ar/|br| divided in
     * every lane, a divide-by-zero flag where only br is zero (AVX2 has
     * no masked division to hide it) */
    LLVMValueRef none = fcmp(l, LLVMRealOEQ, LLVMBuildFAdd(b, abr, abi, ""), zero);
    LLVMValueRef by = LLVMBuildSelect(b, none, abr, one, "");
    LLVMValueRef s = l->operator_quotient ? NULL : LLVMBuildFDiv(b, one, d, "");
    LLVMValueRef qr = s ? LLVMBuildFMul(b, nr, s, "") : LLVMBuildFDiv(b, nr, d, "");
    LLVMValueRef qi = s ? LLVMBuildFMul(b, ni, s, "") : LLVMBuildFDiv(b, ni, d, "");
    re = LLVMBuildSelect(b, bzero, LLVMBuildFDiv(b, ar, by, ""), qr, "");
    im = LLVMBuildSelect(b, bzero, LLVMBuildFDiv(b, ai, by, ""), qi, "");
  } else {  /* a NaN part: neither |br| >= |bi| nor |bi| >= |br| */
    LLVMValueRef ordered = fcmp(l, LLVMRealORD, abr, abi), nan = lo_fconst(l, p, NAN);
    re = LLVMBuildSelect(b, ordered, LLVMBuildFDiv(b, nr, d, ""), nan, "");
    im = LLVMBuildSelect(b, ordered, LLVMBuildFDiv(b, ni, d, ""), nan, "");
  }
  return lo_complex_make(l, t, re, im);
}

/* Raises what a runtime function recorded where its status is not RT_OK
 * (in a loop run with its errors deferred, only notes it). */
void lo_check_status(Lower *l, LLVMValueRef status) {
  LLVMValueRef failed = LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, 0), "");
  if (l->deferred) {
    lo_raise_if(l, failed, RT_ERR_RUNTIME, NULL);
    return;
  }
  LLVMBasicBlockRef bad = new_block(l, "call.error"), ok = new_block(l, "call.ok");
  LLVMBuildCondBr(l->b, lo_expect(l, failed, false), bad, ok);
  position(l, bad);
  lo_raise_status(l, status);
  position(l, ok);
}

/* The complex type Numba computes a ** b in: its signature's, complex64
 * only where both are complex64 or float32 (a complex64 to an int power is
 * a complex128 power, the array expression's result then rounded). */
static const Type *numba_pow_type(const Type *ta, const Type *tb) {
  bool narrow_a = ta->kind == TY_C64 || ta->kind == TY_F32, narrow_b = tb->kind == TY_C64 || tb->kind == TY_F32;
  return TYS(narrow_a && narrow_b ? TY_C64 : TY_C128);
}

/* a ** b in code written for Numba, as Numba's (its complex_power_impl,
 * for every exponent, whole or not, scalar or in an array expression):
 * its product a * a for an exponent of 2, else CPython's polar form in
 * float64 (rt_complex_pow_numba), nothing raised; the result of type t. */
static LLVMValueRef numba_complex_pow(Lower *l, const Type *t, LLVMValueRef a, const Type *ta, LLVMValueRef b,
                                      const Type *tb) {
  const Type *w = numba_pow_type(ta, tb), *p = lo_complex_part(w), *c = TYS(TY_C128);
  a = lo_convert(l, a, ta, w);
  b = lo_convert(l, b, tb, w);
  LLVMValueRef two = LLVMBuildAnd(l->b, fcmp(l, LLVMRealOEQ, lo_complex_real(l, b), lo_fconst(l, p, 2.0)),
                                  fcmp(l, LLVMRealOEQ, lo_complex_imag(l, b), lo_fconst(l, p, 0.0)), "");
  LLVMBasicBlockRef square = new_block(l, "cpow.square"), polar = new_block(l, "cpow.polar"),
                    done = new_block(l, "cpow.done");
  LLVMBuildCondBr(l->b, two, square, polar);
  position(l, square);
  LLVMValueRef sq = lo_complex_binop(l, OP_MUL, w, a, w, a, w);
  LLVMBasicBlockRef square_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, polar);
  LLVMValueRef ar, ai, br, bi;
  parts_as(l, a, w, c, &ar, &ai);
  parts_as(l, b, w, c, &br, &bi);
  LLVMValueRef out = lo_alloca(l, lo_type(l, c), "pow");
  LLVMTypeRef params[6] = {l->mod->f64, l->mod->f64, l->mod->f64, l->mod->f64, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[6] = {ar, ai, br, bi, const_i32(l, lo_python314(l)), out};
  lo_call_fn(l, "rt_complex_pow_numba", LLVMVoidTypeInContext(l->mod->c), params, args, 6);
  LLVMValueRef r = lo_complex_convert(l, LLVMBuildLoad2(l->b, lo_type(l, c), out, ""), c, w);
  if (w->kind == TY_C64) {  /* numba_cpowf makes its result as re + I * im: 0 * an infinite or NaN im is NaN */
    LLVMValueRef re = lo_complex_real(l, r), im = lo_complex_imag(l, r);
    r = lo_complex_make(l, w, LLVMBuildFAdd(l->b, re, LLVMBuildFMul(l->b, lo_fconst(l, p, 0.0), im, ""), ""), im);
  }
  LLVMBasicBlockRef polar_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef res = LLVMBuildPhi(l->b, lo_type(l, w), "cpow");
  LLVMAddIncoming(res, (LLVMValueRef[]){sq, r}, (LLVMBasicBlockRef[]){square_end, polar_end}, 2);
  return lo_convert(l, res, w, t);
}

/* a ** b in the runtime (rt_complex_pow), in float64 parts. */
static LLVMValueRef complex_pow(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  const Type *c = TYS(TY_C128);
  LLVMValueRef ar, ai, br, bi;
  parts_as(l, a, t, c, &ar, &ai);
  parts_as(l, b, t, c, &br, &bi);
  LLVMValueRef out = lo_alloca(l, lo_type(l, c), "pow");
  LLVMTypeRef params[7] = {l->mod->f64, l->mod->f64, l->mod->f64, l->mod->f64, l->mod->i32, l->mod->i32, l->mod->ptr};
  bool python314 = lo_python314(l) && t->kind == TY_C128;  /* complex64 is NumPy's */
  LLVMValueRef args[7] = {ar, ai, br, bi, const_i32(l, lo_numpy_errors(l)), const_i32(l, python314), out};
  LLVMValueRef status = lo_call_fn(l, "rt_complex_pow", l->mod->i32, params, args, 7);
  if (!lo_numpy_errors(l)) lo_check_status(l, status);
  return lo_complex_convert(l, LLVMBuildLoad2(l->b, lo_type(l, c), out, ""), c, t);
}

/* ---------------------------------------------------------------- CPython 3.14: C99's Annex G */

static LLVMValueRef is_inf(Lower *l, const Type *p, LLVMValueRef x) {
  return fcmp(l, LLVMRealOEQ, fabs_of(l, p, x), lo_fconst(l, p, INFINITY));
}

static LLVMValueRef is_finite(Lower *l, const Type *p, LLVMValueRef x) {
  return fcmp(l, LLVMRealOLT, fabs_of(l, p, x), lo_fconst(l, p, INFINITY));
}

static LLVMValueRef is_nan(Lower *l, LLVMValueRef x) { return fcmp(l, LLVMRealUNO, x, x); }
static LLVMValueRef either(Lower *l, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildOr(l->b, a, b, ""); }
static LLVMValueRef both(Lower *l, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildAnd(l->b, a, b, ""); }

/* Annex G's "box": an infinite part becomes 1, any other 0, with its sign */
static LLVMValueRef boxed(Lower *l, const Type *p, LLVMValueRef x) {
  LLVMValueRef unit = LLVMBuildSelect(l->b, is_inf(l, p, x), lo_fconst(l, p, 1.0), lo_fconst(l, p, 0.0), "");
  return lo_intrinsic2(l, "llvm.copysign", p, unit, x);
}

/* x, or where `when` holds and x is NaN, a zero of x's sign */
static LLVMValueRef nan_zeroed(Lower *l, const Type *p, LLVMValueRef when, LLVMValueRef x) {
  LLVMValueRef zero = lo_intrinsic2(l, "llvm.copysign", p, lo_fconst(l, p, 0.0), x);
  return LLVMBuildSelect(l->b, both(l, when, is_nan(l, x)), zero, x, "");
}

/* Computes the parts again where both came out NaN (v: the operands' parts
 * ar, ai, br, bi; ai NULL for a real dividend): Annex G's recovery of
 * infinities, in a block of its own that LLVM is told is rarely entered. */
typedef void (*Recover)(Lower *l, const Type *p, LLVMValueRef *v, LLVMValueRef *re, LLVMValueRef *im);

static LLVMValueRef recovered(Lower *l, const Type *t, LLVMValueRef *v, LLVMValueRef re, LLVMValueRef im,
                              Recover recover) {
  const Type *p = lo_complex_part(t);
  LLVMValueRef nans = both(l, is_nan(l, re), is_nan(l, im));
  nans = lo_expect(l, nans, false);
  LLVMBasicBlockRef from = LLVMGetInsertBlock(l->b), fix = new_block(l, "annex.g"), done = new_block(l, "annex.g.done");
  LLVMBuildCondBr(l->b, nans, fix, done);
  position(l, fix);
  LLVMValueRef fre = re, fim = im;
  recover(l, p, v, &fre, &fim);
  LLVMBasicBlockRef fixed = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef parts[2] = {re, im}, fixes[2] = {fre, fim};
  for (int i = 0; i < 2; i++) {
    LLVMValueRef phi = LLVMBuildPhi(l->b, lo_type(l, p), "");
    LLVMAddIncoming(phi, (LLVMValueRef[]){parts[i], fixes[i]}, (LLVMBasicBlockRef[]){from, fixed}, 2);
    parts[i] = phi;
  }
  return lo_complex_make(l, t, parts[0], parts[1]);
}

/* a * b: an infinite factor's parts boxed and the other's NaN parts
 * zeroed, or, where products overflowed, every NaN part zeroed; then
 * inf * the product again (C11's _Cmultd) */
static void product_recovered(Lower *l, const Type *p, LLVMValueRef *v, LLVMValueRef *re, LLVMValueRef *im) {
  LLVMBuilderRef b = l->b;
  LLVMValueRef ar = v[0], ai = v[1], br = v[2], bi = v[3];
  LLVMValueRef a_inf = either(l, is_inf(l, p, ar), is_inf(l, p, ai)), b_inf = either(l, is_inf(l, p, br), is_inf(l, p, bi));
  LLVMValueRef overflowed = either(l, either(l, is_inf(l, p, LLVMBuildFMul(b, ar, br, "")), is_inf(l, p, LLVMBuildFMul(b, ai, bi, ""))),
                                   either(l, is_inf(l, p, LLVMBuildFMul(b, ar, bi, "")), is_inf(l, p, LLVMBuildFMul(b, ai, br, ""))));
  overflowed = both(l, overflowed, LLVMBuildNot(b, either(l, a_inf, b_inf), ""));
  ar = LLVMBuildSelect(b, a_inf, boxed(l, p, ar), ar, "");
  ai = LLVMBuildSelect(b, a_inf, boxed(l, p, ai), ai, "");
  br = LLVMBuildSelect(b, b_inf, boxed(l, p, br), nan_zeroed(l, p, either(l, a_inf, overflowed), br), "");
  bi = LLVMBuildSelect(b, b_inf, boxed(l, p, bi), nan_zeroed(l, p, either(l, a_inf, overflowed), bi), "");
  ar = nan_zeroed(l, p, either(l, b_inf, overflowed), ar);
  ai = nan_zeroed(l, p, either(l, b_inf, overflowed), ai);
  LLVMValueRef again = either(l, either(l, a_inf, b_inf), overflowed), inf = lo_fconst(l, p, INFINITY);
  LLVMValueRef r = LLVMBuildFSub(b, LLVMBuildFMul(b, ar, br, ""), LLVMBuildFMul(b, ai, bi, ""), "");
  LLVMValueRef i = LLVMBuildFAdd(b, LLVMBuildFMul(b, ar, bi, ""), LLVMBuildFMul(b, ai, br, ""), "");
  *re = LLVMBuildSelect(b, again, LLVMBuildFMul(b, inf, r, ""), *re, "");
  *im = LLVMBuildSelect(b, again, LLVMBuildFMul(b, inf, i, ""), *im, "");
}

/* a / b: an infinite dividend over a finite divisor is an infinity, a
 * finite dividend over an infinite divisor a zero, signed as the boxed
 * parts say (C11's _Cdivd); ai NULL: a real dividend */
static void quotient_recovered(Lower *l, const Type *p, LLVMValueRef *v, LLVMValueRef *re, LLVMValueRef *im) {
  LLVMBuilderRef b = l->b;
  LLVMValueRef ar = v[0], ai = v[1] ? v[1] : lo_fconst(l, p, 0.0), br = v[2], bi = v[3];
  LLVMValueRef a_finite = both(l, is_finite(l, p, ar), is_finite(l, p, ai));
  LLVMValueRef b_finite = both(l, is_finite(l, p, br), is_finite(l, p, bi));
  LLVMValueRef a_inf = either(l, is_inf(l, p, ar), is_inf(l, p, ai)), b_inf = either(l, is_inf(l, p, br), is_inf(l, p, bi));
  LLVMValueRef big = both(l, a_inf, b_finite), small = both(l, b_inf, a_finite);
  LLVMValueRef x = boxed(l, p, ar), y = boxed(l, p, ai), inf = lo_fconst(l, p, INFINITY);
  LLVMValueRef big_re = LLVMBuildFMul(b, inf, LLVMBuildFAdd(b, LLVMBuildFMul(b, x, br, ""), LLVMBuildFMul(b, y, bi, ""), ""), "");
  LLVMValueRef big_im = LLVMBuildFMul(b, inf, LLVMBuildFSub(b, LLVMBuildFMul(b, y, br, ""), LLVMBuildFMul(b, x, bi, ""), ""), "");
  LLVMValueRef u = boxed(l, p, br), w = boxed(l, p, bi), zero = lo_fconst(l, p, 0.0), small_re, small_im;
  if (v[1]) {
    small_re = LLVMBuildFMul(b, zero, LLVMBuildFAdd(b, LLVMBuildFMul(b, ar, u, ""), LLVMBuildFMul(b, ai, w, ""), ""), "");
    small_im = LLVMBuildFMul(b, zero, LLVMBuildFSub(b, LLVMBuildFMul(b, ai, u, ""), LLVMBuildFMul(b, ar, w, ""), ""), "");
  } else {
    small_re = LLVMBuildFMul(b, zero, LLVMBuildFMul(b, ar, u, ""), "");
    small_im = LLVMBuildFMul(b, zero, LLVMBuildFMul(b, LLVMBuildFNeg(b, ar, ""), w, ""), "");
  }
  *re = LLVMBuildSelect(b, small, small_re, *re, "");
  *im = LLVMBuildSelect(b, small, small_im, *im, "");
  if (v[1]) {  /* CPython recovers no infinity for a real dividend */
    *re = LLVMBuildSelect(b, big, big_re, *re, "");
    *im = LLVMBuildSelect(b, big, big_im, *im, "");
  }
}

/* a / b by Smith's method with Annex G's recovery; ai NULL: a real
 * dividend, whose missing imaginary part adds no zero to change a sign. */
static LLVMValueRef quotient_314(Lower *l, const Type *t, LLVMValueRef ar, LLVMValueRef ai, LLVMValueRef br,
                                 LLVMValueRef bi) {
  const Type *p = lo_complex_part(t);
  LLVMBuilderRef b = l->b;
  LLVMValueRef abr = fabs_of(l, p, br), abi = fabs_of(l, p, bi);
  LLVMValueRef wide = fcmp(l, LLVMRealOGE, abr, abi), tall = fcmp(l, LLVMRealOGE, abi, abr);
  LLVMValueRef zero = lo_fconst(l, p, 0.0), nan = lo_fconst(l, p, NAN);
  lo_raise_if(l, both(l, fcmp(l, LLVMRealOEQ, br, zero), fcmp(l, LLVMRealOEQ, bi, zero)), RT_ERR_ZERODIV,
              "division by zero");
  LLVMValueRef r1 = LLVMBuildFDiv(b, bi, br, ""), d1 = LLVMBuildFAdd(b, br, LLVMBuildFMul(b, bi, r1, ""), "");
  LLVMValueRef r2 = LLVMBuildFDiv(b, br, bi, ""), d2 = LLVMBuildFAdd(b, LLVMBuildFMul(b, br, r2, ""), bi, "");
  LLVMValueRef n1r, n1i, n2r, n2i;
  if (ai) {
    n1r = LLVMBuildFAdd(b, ar, LLVMBuildFMul(b, ai, r1, ""), "");
    n1i = LLVMBuildFSub(b, ai, LLVMBuildFMul(b, ar, r1, ""), "");
    n2r = LLVMBuildFAdd(b, LLVMBuildFMul(b, ar, r2, ""), ai, "");
    n2i = LLVMBuildFSub(b, LLVMBuildFMul(b, ai, r2, ""), ar, "");
  } else {
    n1r = ar;
    n1i = LLVMBuildFMul(b, LLVMBuildFNeg(b, ar, ""), r1, "");
    n2r = LLVMBuildFMul(b, ar, r2, "");
    n2i = LLVMBuildFNeg(b, ar, "");
  }
  LLVMValueRef re = LLVMBuildSelect(b, wide, LLVMBuildFDiv(b, n1r, d1, ""),
                                    LLVMBuildSelect(b, tall, LLVMBuildFDiv(b, n2r, d2, ""), nan, ""), "");
  LLVMValueRef im = LLVMBuildSelect(b, wide, LLVMBuildFDiv(b, n1i, d1, ""),
                                    LLVMBuildSelect(b, tall, LLVMBuildFDiv(b, n2i, d2, ""), nan, ""), "");
  return recovered(l, t, (LLVMValueRef[]){ar, ai, br, bi}, re, im, quotient_recovered);
}

/* a op b as CPython 3.14 computes it; NULL for a power (the runtime's) */
static LLVMValueRef binop_314(Lower *l, int op, const Type *t, LLVMValueRef a, const Type *ta, LLVMValueRef b,
                              const Type *tb) {
  LLVMValueRef ar, ai, br, bi;
  parts_as(l, a, ta, t, &ar, &ai);
  parts_as(l, b, tb, t, &br, &bi);
  bool real_a = !ty_is_complex(ta), real_b = !ty_is_complex(tb);
  LLVMBuilderRef bld = l->b;
  switch (op) {
  case OP_ADD:
    return lo_complex_make(l, t, LLVMBuildFAdd(bld, ar, br, ""), real_a ? bi : real_b ? ai : LLVMBuildFAdd(bld, ai, bi, ""));
  case OP_SUB:
    return lo_complex_make(l, t, LLVMBuildFSub(bld, ar, br, ""),
                           real_a ? LLVMBuildFNeg(bld, bi, "") : real_b ? ai : LLVMBuildFSub(bld, ai, bi, ""));
  case OP_MUL: {
    if (real_a) return lo_complex_make(l, t, LLVMBuildFMul(bld, ar, br, ""), LLVMBuildFMul(bld, ar, bi, ""));
    if (real_b) return lo_complex_make(l, t, LLVMBuildFMul(bld, ar, br, ""), LLVMBuildFMul(bld, ai, br, ""));
    LLVMValueRef re = LLVMBuildFSub(bld, LLVMBuildFMul(bld, ar, br, ""), LLVMBuildFMul(bld, ai, bi, ""), "");
    LLVMValueRef im = LLVMBuildFAdd(bld, LLVMBuildFMul(bld, ar, bi, ""), LLVMBuildFMul(bld, ai, br, ""), "");
    return recovered(l, t, (LLVMValueRef[]){ar, ai, br, bi}, re, im, product_recovered);
  }
  case OP_DIV:
    if (lo_numpy_errors(l)) return complex_div(l, t, ar, ai, br, bi);
    if (real_b) {
      lo_raise_if(l, fcmp(l, LLVMRealOEQ, br, lo_fconst(l, lo_complex_part(t), 0.0)), RT_ERR_ZERODIV, "division by zero");
      return lo_complex_make(l, t, LLVMBuildFDiv(bld, ar, br, ""), LLVMBuildFDiv(bld, ai, br, ""));
    }
    return quotient_314(l, t, ar, real_a ? NULL : ai, br, bi);
  default:
    return NULL;
  }
}

/* a op b with either of complex type, the result complex type t. */
LLVMValueRef lo_complex_binop(Lower *l, int op, const Type *t, LLVMValueRef a, const Type *ta, LLVMValueRef b,
                              const Type *tb) {
  if (op == OP_POW && l->opts->numba_code && !l->mod->gpu) return numba_complex_pow(l, t, a, ta, b, tb);
  /* complex64 is NumPy's alone (Python has none): NumPy's scalar rules */
  bool python = !l->numpy_semantics && t->kind == TY_C128;
  LLVMValueRef r = python && lo_python314(l) ? binop_314(l, op, t, a, ta, b, tb) : NULL;
  if (r) return r;
  LLVMValueRef ar, ai, br, bi;
  parts_as(l, a, ta, t, &ar, &ai);
  parts_as(l, b, tb, t, &br, &bi);
  LLVMBuilderRef bld = l->b;
  switch (op) {
  case OP_ADD: return lo_complex_make(l, t, LLVMBuildFAdd(bld, ar, br, ""), LLVMBuildFAdd(bld, ai, bi, ""));
  case OP_SUB: return lo_complex_make(l, t, LLVMBuildFSub(bld, ar, br, ""), LLVMBuildFSub(bld, ai, bi, ""));
  case OP_MUL:
    return lo_complex_make(l, t, LLVMBuildFSub(bld, LLVMBuildFMul(bld, ar, br, ""), LLVMBuildFMul(bld, ai, bi, ""), ""),
                           LLVMBuildFAdd(bld, LLVMBuildFMul(bld, ar, bi, ""), LLVMBuildFMul(bld, ai, br, ""), ""));
  case OP_DIV: return complex_div(l, t, ar, ai, br, bi);
  default:  /* OP_POW: typing lets no other operator through */
    return complex_pow(l, t, lo_complex_make(l, t, ar, ai), lo_complex_make(l, t, br, bi));
  }
}

LLVMValueRef lo_complex_conj(Lower *l, const Type *t, LLVMValueRef v) {
  return lo_complex_make(l, t, lo_complex_real(l, v), LLVMBuildFNeg(l->b, lo_complex_imag(l, v), ""));
}

LLVMValueRef lo_complex_neg(Lower *l, const Type *t, LLVMValueRef v) {
  return lo_complex_make(l, t, LLVMBuildFNeg(l->b, lo_complex_real(l, v), ""),
                         LLVMBuildFNeg(l->b, lo_complex_imag(l, v), ""));
}

/* a == b or a != b: the real parts compared exactly as numbers of their own
 * types (an int against a float as Python does), the imaginary ones as
 * floats. */
LLVMValueRef lo_complex_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  const Type *pa = lo_complex_part(ta), *pb = lo_complex_part(tb);
  LLVMValueRef ra = ty_is_complex(ta) ? lo_complex_real(l, a) : a, rb = ty_is_complex(tb) ? lo_complex_real(l, b) : b;
  LLVMValueRef ia = ty_is_complex(ta) ? lo_complex_imag(l, a) : lo_fconst(l, TYS(TY_F64), 0.0);
  LLVMValueRef ib = ty_is_complex(tb) ? lo_complex_imag(l, b) : lo_fconst(l, TYS(TY_F64), 0.0);
  const Type *ita = ty_is_complex(ta) ? pa : TYS(TY_F64), *itb = ty_is_complex(tb) ? pb : TYS(TY_F64);
  LLVMValueRef re = lo_compare_values(l, OP_EQ, ra, pa, rb, pb);
  LLVMValueRef im = lo_compare_values(l, OP_EQ, ia, ita, ib, itb);
  LLVMValueRef eq = LLVMBuildAnd(l->b, re, im, "");
  return op == OP_EQ ? eq : LLVMBuildNot(l->b, eq, "");
}

/* |v| as hypot gives it, in v's part type: CPython raises where finite
 * parts give an infinity, NumPy and Numba do not. */
LLVMValueRef lo_complex_abs(Lower *l, const Type *t, LLVMValueRef v) {
  const Type *p = lo_complex_part(t);
  LLVMValueRef args[2] = {lo_complex_real(l, v), lo_complex_imag(l, v)};
  LLVMValueRef r = lo_libm(l, "hypot", p, args, 2);
  if (!lo_numpy_errors(l) && !l->opts->numba_code) {
    LLVMValueRef inf = lo_fconst(l, p, INFINITY);
    LLVMValueRef finite = LLVMBuildAnd(l->b, fcmp(l, LLVMRealOLT, fabs_of(l, p, args[0]), inf),
                                       fcmp(l, LLVMRealOLT, fabs_of(l, p, args[1]), inf), "");
    lo_raise_if(l, LLVMBuildAnd(l->b, finite, fcmp(l, LLVMRealOEQ, r, inf), ""), RT_ERR_OVERFLOW,
                "absolute value too large");
  }
  return r;
}
