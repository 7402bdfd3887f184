/* lower/arith.c — arithmetic and comparisons with Python's semantics:
 * floored division and modulo, powers, shifts, true division of ints
 * rounded once, exact int/float comparisons, and the one rule for making
 * a float an int. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lower/lower.h"

/* `%` by zero says what the running CPython says: 3.11 named int modulo
 * apart from division, 3.13 added "by zero" to float modulo. */
static const char *int_modulo_message(Lower *l) {
  return l->opts->python >= 0x030B0000 ? "integer modulo by zero" : "integer division or modulo by zero";
}
static const char *float_modulo_message(Lower *l) {
  return l->opts->python >= 0x030D0000 ? "float modulo by zero" : "float modulo";
}

LLVMValueRef lo_int_divmod(Lower *l, int op, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  LLVMTypeRef ty = lo_type(l, t);
  LLVMValueRef zero = LLVMConstNull(ty);
  LLVMValueRef bzero = LLVMBuildICmp(l->b, LLVMIntEQ, b, zero, "");
  if (!lo_numpy_errors(l)) {
    lo_raise_if(l, bzero, RT_ERR_ZERODIV,
                lo_zero_division(l, op == OP_MOD ? int_modulo_message(l) : "integer division or modulo by zero"));
  } else {  /* NumPy gives 0 for integer division by zero */
    b = LLVMBuildSelect(l->b, bzero, LLVMConstInt(ty, 1, 0), b, "");
  }
  LLVMValueRef r;
  if (!ty_is_signed(t)) {
    r = op == OP_MOD ? LLVMBuildURem(l->b, a, b, "") : LLVMBuildUDiv(l->b, a, b, "");
  } else {
    /* MIN // -1 overflows the machine division (SIGFPE on x86), so 0 is
     * divided instead: Numba's quotient and remainder for Python's
     * operators are 0 and 0; NumPy's quotient wraps to MIN. */
    unsigned bits = LLVMGetIntTypeWidth(ty);
    LLVMValueRef min = LLVMConstInt(ty, 1ull << (bits - 1), 0);
    LLVMValueRef overflow = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, b, LLVMConstAllOnes(ty), ""),
                                         LLVMBuildICmp(l->b, LLVMIntEQ, a, min, ""), "");
    LLVMValueRef q = LLVMBuildSDiv(l->b, LLVMBuildSelect(l->b, overflow, zero, a, ""), b, "");
    LLVMValueRef m = LLVMBuildSRem(l->b, LLVMBuildSelect(l->b, overflow, zero, a, ""), b, "");
    if (lo_numpy_errors(l)) q = LLVMBuildSelect(l->b, overflow, min, q, "");
    /* floor: a remainder whose sign differs from the divisor moves down */
    LLVMValueRef adjust = LLVMBuildAnd(
        l->b, LLVMBuildICmp(l->b, LLVMIntNE, m, zero, ""),
        LLVMBuildICmp(l->b, LLVMIntSLT, LLVMBuildXor(l->b, m, b, ""), zero, ""), "");
    if (op == OP_MOD)
      r = LLVMBuildSelect(l->b, adjust, LLVMBuildAdd(l->b, m, b, ""), m, "");
    else
      r = LLVMBuildSelect(l->b, adjust, LLVMBuildSub(l->b, q, LLVMConstInt(ty, 1, 0), ""), q, "");
  }
  if (lo_numpy_errors(l)) r = LLVMBuildSelect(l->b, bzero, zero, r, "");
  return r;
}

/* Python's float floor division and modulo (CPython's float_divmod). */
static LLVMValueRef lo_float_divmod(Lower *l, int op, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  LLVMTypeRef ty = lo_type(l, t);
  LLVMValueRef zero = LLVMConstReal(ty, 0.0);
  if (!lo_numpy_errors(l))
    lo_raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOEQ, b, zero, ""), RT_ERR_ZERODIV,
                lo_zero_division(l, op == OP_MOD ? float_modulo_message(l) : "float floor division by zero"));
  LLVMValueRef mod = LLVMBuildFRem(l->b, a, b, "");
  LLVMValueRef div = LLVMBuildFDiv(l->b, LLVMBuildFSub(l->b, a, mod, ""), b, "");
  LLVMValueRef modnz = LLVMBuildFCmp(l->b, LLVMRealUNE, mod, zero, "");
  LLVMValueRef signs = LLVMBuildXor(l->b, LLVMBuildFCmp(l->b, LLVMRealOLT, b, zero, ""),
                                    LLVMBuildFCmp(l->b, LLVMRealOLT, mod, zero, ""), "");
  LLVMValueRef fix = LLVMBuildAnd(l->b, modnz, signs, "");
  LLVMValueRef one = LLVMConstReal(ty, 1.0);
  LLVMTypeRef ov[1] = {ty};
  if (op == OP_MOD) {
    LLVMValueRef cs[2] = {zero, b};
    LLVMValueRef signed_zero = lo_intrinsic(l, "llvm.copysign", ov, 1, cs, 2);
    LLVMValueRef m = LLVMBuildSelect(l->b, fix, LLVMBuildFAdd(l->b, mod, b, ""), mod, "");
    return LLVMBuildSelect(l->b, modnz, m, signed_zero, "");
  }
  div = LLVMBuildSelect(l->b, fix, LLVMBuildFSub(l->b, div, one, ""), div, "");
  LLVMValueRef fl = lo_intrinsic(l, "llvm.floor", ov, 1, &div, 1);
  LLVMValueRef up = LLVMBuildFCmp(l->b, LLVMRealOGT, LLVMBuildFSub(l->b, div, fl, ""),
                                  LLVMConstReal(ty, 0.5), "");
  fl = LLVMBuildSelect(l->b, up, LLVMBuildFAdd(l->b, fl, one, ""), fl, "");
  LLVMValueRef cs[2] = {zero, LLVMBuildFDiv(l->b, a, b, "")};
  LLVMValueRef signed_zero = lo_intrinsic(l, "llvm.copysign", ov, 1, cs, 2);
  LLVMValueRef divnz = LLVMBuildFCmp(l->b, LLVMRealUNE, div, zero, "");
  LLVMValueRef q = LLVMBuildSelect(l->b, divnz, fl, signed_zero, "");
  if (!lo_numpy_errors(l)) return q;
  /* NumPy: by zero, a / b (an infinity, or NaN) */
  return LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, b, zero, ""), LLVMBuildFDiv(l->b, a, b, ""), q, "");
}

/* a ** e by repeated squaring, e taken as unsigned */
static LLVMValueRef int_pow_loop(Lower *l, LLVMTypeRef ty, LLVMValueRef a, LLVMValueRef e) {
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(l->b);
  LLVMBasicBlockRef head = new_block(l, "pow"), body = new_block(l, "pow.body"),
                    done = new_block(l, "pow.done");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef acc = LLVMBuildPhi(l->b, ty, "acc"), base = LLVMBuildPhi(l->b, ty, "base"),
               exp = LLVMBuildPhi(l->b, ty, "exp");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, exp, LLVMConstNull(ty), ""), body, done);
  position(l, body);
  LLVMValueRef odd = LLVMBuildTrunc(l->b, exp, l->mod->i1, "");
  LLVMValueRef acc2 = LLVMBuildSelect(l->b, odd, LLVMBuildMul(l->b, acc, base, ""), acc, "");
  LLVMValueRef base2 = LLVMBuildMul(l->b, base, base, "");
  LLVMValueRef exp2 = LLVMBuildLShr(l->b, exp, LLVMConstInt(ty, 1, 0), "");
  LLVMBuildBr(l->b, head);
  LLVMBasicBlockRef from[2] = {pre, body};
  LLVMValueRef acc_in[2] = {LLVMConstInt(ty, 1, 0), acc2}, base_in[2] = {a, base2},
               exp_in[2] = {e, exp2};
  LLVMAddIncoming(acc, acc_in, from, 2);
  LLVMAddIncoming(base, base_in, from, 2);
  LLVMAddIncoming(exp, exp_in, from, 2);
  position(l, done);
  return acc;
}

/* Numba's int ** negative int (code written for Numba): 1 ** e is 1,
 * (-1) ** e is -1 for odd e and 1 for even, 0 ** e raises
 * ZeroDivisionError (under the NumPy error model, as in Numba's ufunc
 * loops, it is the type's smallest value, NumPy's integer of inf), and any
 * other base gives 0 (1 / a ** -e truncated). */
static LLVMValueRef numba_negative_int_pow(Lower *l, LLVMTypeRef ty, LLVMValueRef a, LLVMValueRef e,
                                           LLVMValueRef negative) {
  LLVMValueRef zero_base = LLVMBuildICmp(l->b, LLVMIntEQ, a, LLVMConstNull(ty), "");
  if (!lo_numpy_errors(l))
    lo_raise_if(l, LLVMBuildAnd(l->b, negative, zero_base, ""), RT_ERR_ZERODIV,
                "0 cannot be raised to a negative power");
  LLVMValueRef one = LLVMConstInt(ty, 1, 0), minus_one = LLVMConstAllOnes(ty);
  LLVMValueRef smallest = LLVMConstInt(ty, 1ULL << (LLVMGetIntTypeWidth(ty) - 1), 0);
  LLVMValueRef odd = LLVMBuildTrunc(l->b, e, l->mod->i1, "");
  LLVMValueRef of_minus_one = LLVMBuildSelect(l->b, odd, minus_one, one, "");
  LLVMValueRef r = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, a, minus_one, ""), of_minus_one,
                                   LLVMConstNull(ty), "");
  r = LLVMBuildSelect(l->b, zero_base, smallest, r, "");
  return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, a, one, ""), one, r, "");
}

/* Integer power; a negative exponent raises, since the result type was
 * fixed as an integer (code written for Numba gets Numba's answer instead). */
LLVMValueRef lo_int_pow(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef e) {
  LLVMTypeRef ty = lo_type(l, t);
  if (!ty_is_signed(t)) return int_pow_loop(l, ty, a, e);
  LLVMValueRef negative = LLVMBuildICmp(l->b, LLVMIntSLT, e, LLVMConstNull(ty), "");
  if (!l->opts->numba_code || l->numpy_semantics) {
    lo_raise_if(l, negative, RT_ERR_VALUE,
                l->numpy_semantics ? "Integers to negative integer powers are not allowed."
                                   : "integer power with a negative exponent: use a float base");
    return int_pow_loop(l, ty, a, e);
  }
  LLVMValueRef below_one = numba_negative_int_pow(l, ty, a, e, negative);
  LLVMValueRef p = int_pow_loop(l, ty, a, LLVMBuildSelect(l->b, negative, LLVMConstNull(ty), e, ""));
  return LLVMBuildSelect(l->b, negative, below_one, p, "");
}

/* Shifts as on Python ints, wrapped to the width of t: a negative count
 * raises, counts past the width give 0 (or -1 for a negative value shifted
 * right). The count n keeps its own type tn, so that its sign and size are
 * judged before it is cut to t. */
static LLVMValueRef lo_shift(Lower *l, int op, const Type *t, LLVMValueRef a, const Type *tn, LLVMValueRef n) {
  LLVMTypeRef ty = lo_type(l, t);
  n = lo_convert(l, n, tn, ty_is_signed(tn) ? TYS(TY_I64) : TYS(TY_U64));
  /* NumPy takes a negative count as one past the width */
  if (ty_is_signed(tn) && !l->numpy_semantics)
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, n, const_i64(l, 0), ""), RT_ERR_VALUE,
             "negative shift count");
  LLVMValueRef big = LLVMBuildICmp(l->b, LLVMIntUGE, n, const_i64(l, ty_bits(t)), "");
  LLVMValueRef safe = LLVMBuildIntCast2(l->b, LLVMBuildSelect(l->b, big, const_i64(l, 0), n, ""), ty, 0, "");
  if (op == OP_LSHIFT)
    return LLVMBuildSelect(l->b, big, LLVMConstNull(ty), LLVMBuildShl(l->b, a, safe, ""), "");
  if (!ty_is_signed(t))
    return LLVMBuildSelect(l->b, big, LLVMConstNull(ty), LLVMBuildLShr(l->b, a, safe, ""), "");
  LLVMValueRef sh = LLVMBuildSelect(l->b, big, LLVMConstInt(ty, (unsigned long long)ty_bits(t) - 1, 0), safe, "");
  return LLVMBuildAShr(l->b, a, sh, "");
}

/* a / b for floats (lo_gpu_fast_f32: div.approx.ftz). */
static LLVMValueRef float_div(Lower *l, LLVMValueRef a, LLVMValueRef b) {
  if (!lo_gpu_fast_f32(l, LLVMTypeOf(a))) return LLVMBuildFDiv(l->b, a, b, "");
  LLVMValueRef args[2] = {a, b};
  return lo_intrinsic(l, "llvm.nvvm.div.approx.ftz.f", NULL, 0, args, 2);
}

/* Whether a float ** of type t raises as CPython's float's does
 * (OverflowError for a finite result too large, ZeroDivisionError for 0.0
 * ** a negative): for float64, Python's float, only (a float32 is NumPy's
 * scalar, whose power is inf there, as NumPy's and Numba's), and neither
 * under NumPy's error model nor in code written for Numba (inf there, as
 * Numba's). */
static bool pow_raises_as_python(Lower *l, const Type *t) {
  return t->kind == TY_F64 && !lo_numpy_errors(l) && !l->opts->numba_code;
}

/* A negative float to a fractional power is a complex number in CPython,
 * which a float expression cannot hold: ValueError (Python 2's, and
 * math.pow's domain error), rather than pow's NaN, which Numba gives and
 * code written for Numba keeps. NumPy's float32 scalars give NaN as NumPy. */
static void negative_to_fractional_raises(Lower *l, LLVMValueRef a, LLVMValueRef b, LLVMValueRef r) {
  LLVMTypeRef ty = LLVMTypeOf(a);
  LLVMValueRef fin = LLVMBuildFCmp(l->b, LLVMRealOLT, lo_intrinsic(l, "llvm.fabs", &ty, 1, &b, 1),
                                   LLVMConstReal(ty, INFINITY), "");
  LLVMValueRef neg = LLVMBuildFCmp(l->b, LLVMRealOLT, a, LLVMConstReal(ty, 0.0), "");
  LLVMValueRef nan = LLVMBuildFCmp(l->b, LLVMRealUNO, r, r, "");
  lo_raise_if(l, LLVMBuildAnd(l->b, LLVMBuildAnd(l->b, neg, fin, ""), nan, ""), RT_ERR_VALUE,
              "negative number cannot be raised to a fractional power");
}

/* a ** b for floats, through pow, with CPython's errors. Code written for
 * Numba gets pow's inf for 0.0 ** -2.0, as Numba's (an int exponent raises
 * there too): no check, so a fastmath dx ** two + dy ** two + dz ** two
 * stays one block, added in Numba's order. With a check after each power,
 * InstCombine moved the last one's operands ahead of the others' into the
 * block after its check, and Reassociate, which pairs the terms by their
 * place in the block, added dx and dz first (a last bit apart). */
static LLVMValueRef float_pow(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  LLVMTypeRef ty = lo_type(l, t);
  LLVMTypeRef ov[1] = {ty};
  LLVMValueRef zero = LLVMConstReal(ty, 0.0), inf = LLVMConstReal(ty, INFINITY);
  /* 0.0 ** -inf is inf: CPython sees the infinite exponent first */
  if (pow_raises_as_python(l, t))
    lo_raise_if(l, LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, a, zero, ""),
                                LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOLT, b, zero, ""),
                                             LLVMBuildFCmp(l->b, LLVMRealONE, b, LLVMConstReal(ty, -INFINITY), ""), ""), ""),
                RT_ERR_ZERODIV, lo_python314(l) ? "zero to a negative power" : "0.0 cannot be raised to a negative power");
  LLVMValueRef r = lo_pow(l, t, a, b);
  if (pow_raises_as_python(l, t)) {  /* finite ** finite overflowing, as CPython */
    LLVMValueRef fin = LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOLT, lo_intrinsic(l, "llvm.fabs", ov, 1, &a, 1), inf, ""),
                                    LLVMBuildFCmp(l->b, LLVMRealOLT, lo_intrinsic(l, "llvm.fabs", ov, 1, &b, 1), inf, ""), "");
    LLVMValueRef big = LLVMBuildFCmp(l->b, LLVMRealOEQ, lo_intrinsic(l, "llvm.fabs", ov, 1, &r, 1), inf, "");
    lo_raise_if(l, LLVMBuildAnd(l->b, fin, big, ""), RT_ERR_OVERFLOW, "(34, 'Numerical result out of range')");
    negative_to_fractional_raises(l, a, b, r);
  }
  return r;
}

/* Whether x / y of floats t goes unchecked for a zero y: under NumPy's error
 * model, and in CUDA code with fastmath for float32, which numba-cuda divides
 * with the fast approximate division alone (on both backends, debug too). */
static bool unchecked_float_div(Lower *l, const Type *t) {
  return lo_numpy_errors(l) || ((l->opts->kernel || l->opts->device) && l->opts->fastmath && t->kind == TY_F32);
}

/* a op b, both already converted to t (the operation's operand type). */
LLVMValueRef lo_arith(Lower *l, int op, const Type *t, LLVMValueRef a, LLVMValueRef b) {
  if (ty_is_complex(t)) return lo_complex_binop(l, op, t, a, t, b, t);
  if (ty_is_time(t)) return lo_time_binop(l, op, t, a, t, b, t);  /* NaT makes NaT */
  bool fl = ty_is_float(t);
  LLVMTypeRef ty = lo_type(l, t);
  /* NumPy's bools add as "or" and multiply as "and" */
  if (t->kind == TY_BOOL && op == OP_ADD) return LLVMBuildOr(l->b, a, b, "");
  if (t->kind == TY_BOOL && op == OP_MUL) return LLVMBuildAnd(l->b, a, b, "");
  switch (op) {
  case OP_ADD: return fl ? LLVMBuildFAdd(l->b, a, b, "") : LLVMBuildAdd(l->b, a, b, "");
  case OP_SUB: return fl ? LLVMBuildFSub(l->b, a, b, "") : LLVMBuildSub(l->b, a, b, "");
  case OP_MUL: return fl ? LLVMBuildFMul(l->b, a, b, "") : LLVMBuildMul(l->b, a, b, "");
  case OP_DIV:
    if (!unchecked_float_div(l, t))
      lo_raise_if(l, LLVMBuildFCmp(l->b, LLVMRealOEQ, b, LLVMConstReal(ty, 0.0), ""), RT_ERR_ZERODIV,
                  lo_zero_division(l, "float division by zero"));
    return float_div(l, a, b);
  case OP_FLOORDIV: case OP_MOD:
    return fl ? lo_float_divmod(l, op, t, a, b) : lo_int_divmod(l, op, t, a, b);
  case OP_POW:
    if (fl) return float_pow(l, t, a, b);
    return lo_int_pow(l, t, a, b);
  case OP_LSHIFT: case OP_RSHIFT: return lo_shift(l, op, t, a, t, b);
  case OP_BITAND: return LLVMBuildAnd(l->b, a, b, "");
  case OP_BITOR: return LLVMBuildOr(l->b, a, b, "");
  default: return LLVMBuildXor(l->b, a, b, "");
  }
}

/* The type both operands of op are converted to before it is applied:
 * true division works in floats even when the result type came from ints. */
static const Type *operand_type(int op, const Type *result) {
  if (op == OP_DIV && !ty_is_float(result)) return TYS(TY_F64);
  if (result->kind == TY_BOOL && op >= OP_BITAND && op <= OP_BITXOR) return TYS(TY_BOOL);
  return result;
}

/* int / int rounded once, as CPython: small operands divide exactly as
 * doubles; larger ones divide in 128-bit integers, scaled so the quotient
 * has 64 significant bits, with a sticky bit for the remainder, and the
 * conversion to double rounds that once. */
static LLVMValueRef lo_int_truediv(Lower *l, LLVMValueRef a, LLVMValueRef b) {
  if (!lo_numpy_errors(l))
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, b, const_i64(l, 0), ""), RT_ERR_ZERODIV, "division by zero");
  LLVMTypeRef ov[1] = {l->mod->i64};
  LLVMValueRef absargs[2] = {a, LLVMConstInt(l->mod->i1, 0, 0)};
  LLVMValueRef na = lo_intrinsic(l, "llvm.abs", ov, 1, absargs, 2);
  absargs[0] = b;
  LLVMValueRef nb = lo_intrinsic(l, "llvm.abs", ov, 1, absargs, 2);
  LLVMValueRef limit = const_i64(l, (int64_t)1 << 53);
  LLVMValueRef small = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntULE, na, limit, ""),
                                    LLVMBuildICmp(l->b, LLVMIntULE, nb, limit, ""), "");
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(l->b), wide = new_block(l, "div.wide"), done = new_block(l, "div.done");
  LLVMValueRef quick = LLVMBuildFDiv(l->b, LLVMBuildSIToFP(l->b, a, l->mod->f64, ""), LLVMBuildSIToFP(l->b, b, l->mod->f64, ""), "");
  LLVMBuildCondBr(l->b, small, done, wide);
  position(l, wide);
  LLVMTypeRef i128 = LLVMInt128TypeInContext(l->mod->c);
  /* | 1: a zero numerator would shift by 128 bits, which is poison */
  LLVMValueRef zu[2] = {LLVMBuildOr(l->b, na, const_i64(l, 1), ""), LLVMConstInt(l->mod->i1, 0, 0)};
  LLVMValueRef lz = lo_intrinsic(l, "llvm.ctlz", ov, 1, zu, 2);
  LLVMValueRef k = LLVMBuildAdd(l->b, const_i64(l, 64), lz, "k");
  LLVMValueRef num = LLVMBuildShl(l->b, LLVMBuildZExt(l->b, na, i128, ""), LLVMBuildZExt(l->b, k, i128, ""), "");
  LLVMValueRef den = LLVMBuildZExt(l->b, nb, i128, "");
  LLVMValueRef q = LLVMBuildUDiv(l->b, num, den, ""), r = LLVMBuildURem(l->b, num, den, "");
  LLVMValueRef sticky = LLVMBuildZExt(l->b, LLVMBuildICmp(l->b, LLVMIntNE, r, LLVMConstNull(i128), ""), i128, "");
  LLVMValueRef mag = LLVMBuildUIToFP(l->b, LLVMBuildOr(l->b, q, sticky, ""), l->mod->f64, "");
  /* 2**-k, built from its exponent bits */
  LLVMValueRef scale = LLVMBuildBitCast(l->b, LLVMBuildShl(l->b, LLVMBuildSub(l->b, const_i64(l, 1023), k, ""), const_i64(l, 52), ""), l->mod->f64, "");
  mag = LLVMBuildFMul(l->b, mag, scale, "");
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, LLVMBuildXor(l->b, a, b, ""), const_i64(l, 0), "");
  LLVMValueRef exact = LLVMBuildSelect(l->b, neg, LLVMBuildFNeg(l->b, mag, ""), mag, "");
  LLVMBasicBlockRef wide_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef res = LLVMBuildPhi(l->b, l->mod->f64, "quot");
  LLVMAddIncoming(res, (LLVMValueRef[]){quick, exact}, (LLVMBasicBlockRef[]){pre, wide_end}, 2);
  return res;
}

/* ---------------------------------------------------------------- float ** int by multiplication */

/* x ** n for an integer n, as Numba computes it, by multiplication rather
 * than pow; the result stays within 1 ulp of CPython's pow(x, n):
 *   - n in 0..3 (a literal): x*x, x*x*x, whose error is at most 1 ulp;
 *   - n in -2..3 at run time: the same, through a switch on n;
 *   - other |n| up to 1024: binary powering in double-double (an FMA
 *     gives each product's rounding error), rounded once at the end;
 *   - beyond that, or where a product left the normal range (zero,
 *     subnormal, infinite, NaN: 0.0 ** -1, overflow, underflow), pow
 *     itself with its errors, so every such case behaves as in CPython. */
enum { POW_MUL_MAX = 1024 };

static LLVMValueRef fma3(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c) {
  LLVMTypeRef ov[1] = {lo_type(l, t)};
  LLVMValueRef args[3] = {a, b, c};
  return lo_intrinsic(l, "llvm.fma", ov, 1, args, 3);
}

/* (ah + al) * (bh + bl) as hi + lo, hi the rounded product of the highs. */
static void dd_mul(Lower *l, const Type *t, LLVMValueRef ah, LLVMValueRef al, LLVMValueRef bh,
                   LLVMValueRef bl, LLVMValueRef *hi, LLVMValueRef *lo) {
  LLVMValueRef p = LLVMBuildFMul(l->b, ah, bh, "");
  LLVMValueRef e = fma3(l, t, ah, bh, LLVMBuildFNeg(l->b, p, ""));
  e = fma3(l, t, ah, bl, e);
  *lo = fma3(l, t, al, bh, e);
  *hi = p;
}

/* x ** m for 0 < m <= POW_MUL_MAX, as hi + lo: square-and-multiply with
 * every product kept in double-double. */
static void pow_dd_loop(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef m, LLVMValueRef *hi, LLVMValueRef *lo) {
  LLVMTypeRef ty = lo_type(l, t), i64 = l->mod->i64;
  LLVMValueRef zero = lo_fconst(l, t, 0.0);
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(l->b), head = new_block(l, "powi"),
                    body = new_block(l, "powi.body"), done = new_block(l, "powi.done");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef ah = LLVMBuildPhi(l->b, ty, ""), al = LLVMBuildPhi(l->b, ty, ""), bh = LLVMBuildPhi(l->b, ty, ""),
               bl = LLVMBuildPhi(l->b, ty, ""), k = LLVMBuildPhi(l->b, i64, "");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, k, const_i64(l, 0), ""), body, done);
  position(l, body);
  LLVMValueRef odd = LLVMBuildTrunc(l->b, k, l->mod->i1, ""), ph, pl, sh, sl;
  dd_mul(l, t, ah, al, bh, bl, &ph, &pl);
  dd_mul(l, t, bh, bl, bh, bl, &sh, &sl);
  LLVMValueRef in_ah[2] = {lo_fconst(l, t, 1.0), LLVMBuildSelect(l->b, odd, ph, ah, "")},
               in_al[2] = {zero, LLVMBuildSelect(l->b, odd, pl, al, "")}, in_bh[2] = {x, sh}, in_bl[2] = {zero, sl},
               in_k[2] = {m, LLVMBuildLShr(l->b, k, const_i64(l, 1), "")};
  LLVMBuildBr(l->b, head);
  LLVMBasicBlockRef from[2] = {pre, body};
  LLVMAddIncoming(ah, in_ah, from, 2);
  LLVMAddIncoming(al, in_al, from, 2);
  LLVMAddIncoming(bh, in_bh, from, 2);
  LLVMAddIncoming(bl, in_bl, from, 2);
  LLVMAddIncoming(k, in_k, from, 2);
  position(l, done);
  *hi = ah;
  *lo = al;
}

/* The least |x| whose k-th power (k = 2 or 3, multiplied in t) rounds to
 * infinity: powers are monotonic in |x|, so overflow is one range test. */
static double overflow_threshold(long long k, bool f32) {
  double x = f32 ? sqrtf(FLT_MAX) : sqrt(DBL_MAX);
  if (k == 3) x = f32 ? cbrtf(FLT_MAX) : cbrt(DBL_MAX);
  double step = f32 ? x * 0x1p-20 : x * 0x1p-48;
  x -= step;  /* below it, then up to the first that overflows */
  for (;;) {
    bool inf = f32 ? isinf(k == 2 ? (float)x * (float)x : (float)x * (float)x * (float)x)
                   : isinf(k == 2 ? x * x : x * x * x);
    if (inf) return x;
    x = f32 ? nextafterf((float)x, INFINITY) : nextafter(x, INFINITY);
  }
}

/* x ** k for a literal k in 0..3: the products alone, so that a loop of
 * them still vectorises; only overflow needs a check (x*x and x*x*x are 0,
 * inf or NaN exactly where pow is), and it is one unsigned range test on
 * |x|'s bits: finite and at least the threshold. */
static LLVMValueRef pow_literal(Lower *l, const Type *t, LLVMValueRef x, long long k) {
  LLVMValueRef r = k == 0 ? lo_fconst(l, t, 1.0) : x;
  for (long long i = 1; i < k; i++) r = LLVMBuildFMul(l->b, r, x, "");
  if (k >= 2 && pow_raises_as_python(l, t) && !l->powers_unchecked) {
    bool f32 = lo_type(l, t) == l->mod->f32;
    LLVMValueRef mag = lo_intrinsic1(l, "llvm.fabs", t, x), inf = lo_fconst(l, t, INFINITY);
    LLVMValueRef big = fcmp(l, LLVMRealOGE, mag, lo_fconst(l, t, overflow_threshold(k, f32)));
    if (l->deferred) {
      lo_raise_if(l, LLVMBuildAnd(l->b, big, fcmp(l, LLVMRealONE, mag, inf), ""), RT_ERR_OVERFLOW,
                  "(34, 'Numerical result out of range')");
    } else {  /* one compare in the loop; an infinite x (no error) is told apart off it */
      LLVMBasicBlockRef maybe = new_block(l, "pow.big"), ok = new_block(l, "pow.ok");
      LLVMBuildCondBr(l->b, lo_expect(l, big, false), maybe, ok);
      position(l, maybe);
      lo_raise_if(l, fcmp(l, LLVMRealONE, mag, inf), RT_ERR_OVERFLOW, "(34, 'Numerical result out of range')");
      LLVMBuildBr(l->b, ok);
      position(l, ok);
    }
  }
  return r;
}

/* x ** n for n in -2..3: |x| ** |n| by a switch on n, which the loop
 * around it predicts perfectly (selects would cost every iteration). */
static LLVMValueRef pow_small(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef n) {
  LLVMBasicBlockRef one = new_block(l, "pow.1"), two = new_block(l, "pow.2"), three = new_block(l, "pow.3"),
                    zero = new_block(l, "pow.0"), done = new_block(l, "pow.small.done");
  LLVMValueRef sw = LLVMBuildSwitch(l->b, n, zero, 5);
  LLVMAddCase(sw, const_i64(l, 1), one);
  LLVMAddCase(sw, const_i64(l, -1), one);
  LLVMAddCase(sw, const_i64(l, 2), two);
  LLVMAddCase(sw, const_i64(l, -2), two);
  LLVMAddCase(sw, const_i64(l, 3), three);
  position(l, one);
  LLVMBuildBr(l->b, done);
  position(l, two);
  LLVMValueRef x2 = LLVMBuildFMul(l->b, x, x, "");
  LLVMBuildBr(l->b, done);
  position(l, three);
  LLVMValueRef x3 = LLVMBuildFMul(l->b, LLVMBuildFMul(l->b, x, x, ""), x, "");
  LLVMBuildBr(l->b, done);
  position(l, zero);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef r = LLVMBuildPhi(l->b, lo_type(l, t), "");
  LLVMAddIncoming(r, (LLVMValueRef[]){x, x2, x3, lo_fconst(l, t, 1.0)},
                  (LLVMBasicBlockRef[]){one, two, three, zero}, 4);
  return r;
}

/* x ** n, n an int64 known only at run time (see above). */
static LLVMValueRef float_pow_int(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef n) {
  bool f32 = lo_type(l, t) == l->mod->f32;
  LLVMTypeRef ty = lo_type(l, t);
  LLVMBasicBlockRef small = new_block(l, "pow.small"), small_pos = new_block(l, "pow.small.pos"),
                    mid = new_block(l, "pow.mul"), loop = new_block(l, "pow.loop"), join = new_block(l, "pow.join"),
                    check = new_block(l, "pow.check"), recip = new_block(l, "pow.recip"),
                    slow = new_block(l, "pow.slow"), done = new_block(l, "pow.done");
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, n, const_i64(l, 0), "");
  LLVMValueRef few = LLVMBuildICmp(l->b, LLVMIntULE, LLVMBuildAdd(l->b, n, const_i64(l, 2), ""), const_i64(l, 5), "");
  LLVMBuildCondBr(l->b, few, small, mid);
  position(l, small);
  LLVMValueRef small_h = pow_small(l, t, x, n);
  LLVMBasicBlockRef small_end = LLVMGetInsertBlock(l->b);
  LLVMBuildCondBr(l->b, neg, join, small_pos);
  /* 0..3: the products are pow's result but where they overflow */
  position(l, small_pos);
  LLVMValueRef over = fcmp(l, LLVMRealOEQ, lo_intrinsic1(l, "llvm.fabs", t, small_h), lo_fconst(l, t, INFINITY));
  LLVMBuildCondBr(l->b, over, slow, done);
  position(l, mid);
  LLVMValueRef m = LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, n, ""), n, "");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntULE, m, const_i64(l, POW_MUL_MAX), ""), loop, slow);
  position(l, loop);
  LLVMValueRef mid_h, mid_l;
  pow_dd_loop(l, t, x, m, &mid_h, &mid_l);
  LLVMBasicBlockRef mid_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, join);
  position(l, join);
  LLVMValueRef h = LLVMBuildPhi(l->b, ty, "h"), lo = LLVMBuildPhi(l->b, ty, "lo");
  LLVMAddIncoming(h, (LLVMValueRef[]){small_h, mid_h}, (LLVMBasicBlockRef[]){small_end, mid_end}, 2);
  LLVMAddIncoming(lo, (LLVMValueRef[]){lo_fconst(l, t, 0.0), mid_l}, (LLVMBasicBlockRef[]){small_end, mid_end}, 2);
  /* normal, and for a negative n small enough that 1/h is normal too */
  LLVMValueRef mag = lo_intrinsic1(l, "llvm.fabs", t, h);
  LLVMValueRef top = LLVMBuildSelect(l->b, neg, lo_fconst(l, t, f32 ? 0x1p120 : 0x1p1000),
                                     lo_fconst(l, t, f32 ? FLT_MAX : DBL_MAX), "");
  LLVMValueRef ok = LLVMBuildAnd(l->b, fcmp(l, LLVMRealOGE, mag, lo_fconst(l, t, f32 ? FLT_MIN : DBL_MIN)),
                                 fcmp(l, LLVMRealOLE, mag, top), "");
  LLVMBuildCondBr(l->b, ok, check, slow);
  position(l, check);
  LLVMValueRef sum = LLVMBuildFAdd(l->b, h, lo, "");
  LLVMBuildCondBr(l->b, neg, recip, done);
  position(l, recip);
  /* 1 / (h + lo) rounded once: q corrected by its residual */
  LLVMValueRef q = LLVMBuildFDiv(l->b, lo_fconst(l, t, 1.0), h, "");
  LLVMValueRef nq = LLVMBuildFNeg(l->b, q, "");
  LLVMValueRef e = fma3(l, t, nq, lo, fma3(l, t, nq, h, lo_fconst(l, t, 1.0)));
  LLVMValueRef inv = fma3(l, t, q, e, q);
  LLVMBuildBr(l->b, done);
  position(l, slow);
  LLVMValueRef r = float_pow(l, t, x, LLVMBuildSIToFP(l->b, n, ty, ""));
  LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef res = LLVMBuildPhi(l->b, ty, "pow");
  LLVMAddIncoming(res, (LLVMValueRef[]){small_h, sum, inv, r},
                  (LLVMBasicBlockRef[]){small_pos, check, recip, slow_end}, 4);
  return res;
}

/* Numba computes a float ** int in the float's type by square-and-multiply
 * from 1 (its int_power; static_power for a literal exponent, the same
 * products): x ** 4 is (x*x)*(x*x), where CPython's pow rounds once. Past
 * this exponent it calls pow instead. */
enum { NUMBA_POW_MUL_MAX = 0x10000 };

/* x ** k by Numba's products, for a literal 0 <= k <= NUMBA_POW_MUL_MAX. */
static LLVMValueRef numba_pow_unrolled(Lower *l, const Type *t, LLVMValueRef x, unsigned long long k) {
  LLVMValueRef r = lo_fconst(l, t, 1.0);
  for (; k; k >>= 1) {
    if (k & 1) r = LLVMBuildFMul(l->b, r, x, "");
    if (k > 1) x = LLVMBuildFMul(l->b, x, x, "");
  }
  return r;
}

/* x ** m by Numba's products, m <= NUMBA_POW_MUL_MAX known at run time. */
static LLVMValueRef numba_pow_loop(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef m) {
  LLVMTypeRef ty = lo_type(l, t), i64 = l->mod->i64;
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(l->b), head = new_block(l, "powi"), body = new_block(l, "powi.body"),
                    done = new_block(l, "powi.done");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMValueRef r = LLVMBuildPhi(l->b, ty, ""), a = LLVMBuildPhi(l->b, ty, ""), k = LLVMBuildPhi(l->b, i64, "");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, k, const_i64(l, 0), ""), body, done);
  position(l, body);
  LLVMValueRef odd = LLVMBuildTrunc(l->b, k, l->mod->i1, "");
  LLVMValueRef r2 = LLVMBuildSelect(l->b, odd, LLVMBuildFMul(l->b, r, a, ""), r, "");
  LLVMValueRef a2 = LLVMBuildFMul(l->b, a, a, ""), k2 = LLVMBuildLShr(l->b, k, const_i64(l, 1), "");
  LLVMBuildBr(l->b, head);
  LLVMBasicBlockRef from[2] = {pre, body};
  LLVMAddIncoming(r, (LLVMValueRef[]){lo_fconst(l, t, 1.0), r2}, from, 2);
  LLVMAddIncoming(a, (LLVMValueRef[]){x, a2}, from, 2);
  LLVMAddIncoming(k, (LLVMValueRef[]){m, k2}, from, 2);
  position(l, done);
  return r;
}

/* 1 / r for a negative exponent: Numba's division, ZeroDivisionError where
 * r is 0 (under the NumPy error model and in array expressions too: Numba
 * compiles its int_power with Python's). */
static LLVMValueRef numba_pow_invert(Lower *l, const Type *t, LLVMValueRef r, LLVMValueRef neg) {
  LLVMValueRef zero = fcmp(l, LLVMRealOEQ, r, lo_fconst(l, t, 0.0));
  lo_raise_if(l, LLVMBuildAnd(l->b, neg, zero, ""), RT_ERR_ZERODIV, "division by zero");
  return LLVMBuildSelect(l->b, neg, LLVMBuildFDiv(l->b, lo_fconst(l, t, 1.0), r, ""), r, "");
}

/* x ** n of a float x (of type t) and an int n (of type tn) in code written
 * for Numba, as Numba computes it (NUMBA_POW_MUL_MAX). */
static LLVMValueRef numba_float_pow_int(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef n, const Type *tn) {
  bool sign = !ty_is_unsigned(tn);
  n = sign ? lo_convert(l, n, tn, TYS(TY_I64)) : LLVMBuildZExtOrBitCast(l->b, n, l->mod->i64, "");
  if (LLVMIsAConstantInt(n)) {
    long long k = sign ? LLVMConstIntGetSExtValue(n) : (long long)LLVMConstIntGetZExtValue(n);
    unsigned long long m = k < 0 ? 0ULL - (unsigned long long)k : (unsigned long long)k;
    if (m <= NUMBA_POW_MUL_MAX) {
      LLVMValueRef r = numba_pow_unrolled(l, t, x, m);
      return k < 0 ? numba_pow_invert(l, t, r, const_bool(l, true)) : r;
    }
  }
  LLVMValueRef neg = sign ? LLVMBuildICmp(l->b, LLVMIntSLT, n, const_i64(l, 0), "") : const_bool(l, false);
  LLVMValueRef m = LLVMBuildSelect(l->b, neg, LLVMBuildNeg(l->b, n, ""), n, "");
  LLVMBasicBlockRef loop = new_block(l, "pow.numba"), slow = new_block(l, "pow.numba.slow"),
                    done = new_block(l, "pow.numba.done");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntULE, m, const_i64(l, NUMBA_POW_MUL_MAX), ""), loop, slow);
  position(l, loop);
  LLVMValueRef r = numba_pow_invert(l, t, numba_pow_loop(l, t, x, m), neg);
  LLVMBasicBlockRef loop_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, slow);
  LLVMTypeRef ty = lo_type(l, t);
  LLVMValueRef y = sign ? LLVMBuildSIToFP(l->b, n, ty, "") : LLVMBuildUIToFP(l->b, n, ty, "");
  LLVMValueRef p = lo_pow(l, t, x, y);
  LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef res = LLVMBuildPhi(l->b, ty, "");
  LLVMAddIncoming(res, (LLVMValueRef[]){r, p}, (LLVMBasicBlockRef[]){loop_end, slow_end}, 2);
  return res;
}

/* A literal exponent small enough for pow_literal: an int, or an integral
 * float, of 0 to top (3; 2 for a float exponent in code written for Numba,
 * whose x ** 3.0 is pow's; its int exponents multiply as Numba's, in
 * numba_float_pow_int on the CPU). */
static bool literal_exponent(LLVMValueRef b, long long top, long long *k) {
  if (LLVMIsAConstantInt(b)) {
    *k = LLVMConstIntGetSExtValue(b);
    return *k >= 0 && *k <= top;
  }
  if (!LLVMIsAConstantFP(b)) return false;
  LLVMBool lossy;
  double v = LLVMConstRealGetDouble(b, &lossy);
  *k = (long long)v;
  return v >= 0 && v <= (double)top && v == (double)*k;
}

/* x ** e of NumPy's arrays for a literal e of 0.5 or -1 (2 is pow_literal's
 * product): NumPy takes sqrt(x) and 1 / x there, not pow (its -0.0 ** 0.5
 * is -0.0, -inf ** 0.5 NaN); NULL for any other e. */
static LLVMValueRef numpy_literal_power(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef e) {
  if (!LLVMIsAConstantFP(e)) return NULL;
  LLVMBool lossy;
  double k = LLVMConstRealGetDouble(e, &lossy);
  if (k == 0.5) return lo_intrinsic1(l, "llvm.sqrt", t, x);
  if (k == -1.0) return LLVMBuildFDiv(l->b, lo_fconst(l, t, 1.0), x, "");
  return NULL;
}

/* NumPy 2's power loop takes 1 / x, sqrt(x) and x * x where the exponent
 * is one value for the whole array (a scalar) of -1, 0.5 or 2, pow
 * otherwise (and 1 and x for 0 and 1, pow's values too); NumPy 1's loop is
 * pow's throughout, but its ** operator (op) takes the same shortcuts for
 * a scalar exponent. */
LLVMValueRef lo_numpy_scalar_power(Lower *l, const Type *t, LLVMValueRef x, LLVMValueRef e, bool op) {
  LLVMValueRef r = lo_pow(l, t, x, e);
  if ((rt_numpy_version < 200 && !op) || l->opts->numba_code || l->mod->gpu) return r;
  LLVMValueRef fast[3] = {LLVMBuildFDiv(l->b, lo_fconst(l, t, 1.0), x, ""), lo_intrinsic1(l, "llvm.sqrt", t, x),
                          LLVMBuildFMul(l->b, x, x, "")};
  static const double exponents[3] = {-1.0, 0.5, 2.0};
  for (int i = 0; i < 3; i++)
    r = LLVMBuildSelect(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, e, lo_fconst(l, t, exponents[i]), ""), fast[i], r, "");
  return r;
}

LLVMValueRef lo_binop_values(Lower *l, int op, const Type *result, LLVMValueRef a,
                                    const Type *ta, LLVMValueRef b, const Type *tb) {
  if (result->kind == TY_TUPLE) return lo_tuple_binop_values(l, op, result, a, ta, b);
  if (result->kind == TY_STR) return lo_str_binop_values(l, op, a, ta, b, tb);
  if (result->kind == TY_BYTES) return lo_bytes_binop_values(l, op, a, ta, b, tb);
  if (ty_is_complex(result)) return lo_complex_binop(l, op, result, a, ta, b, tb);
  if (ty_is_time(ta) || ty_is_time(tb)) return lo_time_binop(l, op, result, a, ta, b, tb);
  if (result->kind == TY_F16) {  /* NumPy's half loops: the operands as float16, the operation in float32, rounded */
    const Type *f32 = TYS(TY_F32);
    LLVMValueRef x = lo_convert(l, lo_convert(l, a, ta, result), result, f32);
    LLVMValueRef y = op == OP_LSHIFT || op == OP_RSHIFT ? b : lo_convert(l, lo_convert(l, b, tb, result), result, f32);
    return lo_convert(l, lo_binop_values(l, op, f32, x, f32, y, f32), f32, result);
  }
  /* NumPy divides ints as the doubles they convert to */
  if (op == OP_DIV && !ty_is_float(ta) && !ty_is_float(tb) && ta->kind != TY_U64 && tb->kind != TY_U64 &&
      !l->mod->gpu && !l->numpy_semantics)
    return lo_convert(l, lo_int_truediv(l, lo_convert(l, a, ta, TYS(TY_I64)), lo_convert(l, b, tb, TYS(TY_I64))),
                      TYS(TY_F64), result);
  const Type *t = operand_type(op, result);
  if ((op == OP_LSHIFT || op == OP_RSHIFT) && !ty_is_float(t) && t->kind != TY_BOOL)
    return lo_shift(l, op, t, lo_convert(l, a, ta, t), tb, b);
  if (op == OP_POW && ty_is_float(t)) {
    long long k;
    LLVMValueRef x = lo_convert(l, a, ta, t);
    if (ty_is_int(tb) && l->opts->numba_code && !l->mod->gpu) return numba_float_pow_int(l, t, x, b, tb);
    LLVMValueRef e = lo_convert(l, b, tb, t);
    if (literal_exponent(e, l->opts->numba_code && !ty_is_int(tb) ? 2 : 3, &k)) return pow_literal(l, t, x, k);
    LLVMValueRef r = l->numpy_semantics && !l->opts->numba_code && !l->mod->gpu ? numpy_literal_power(l, t, x, e) : NULL;
    if (r) return r;
    /* array expressions keep pow, which vectorises with the vector library */
    if (ty_is_int(tb) && tb->kind != TY_U64 && !l->numpy_semantics)
      return float_pow_int(l, t, x, lo_convert(l, b, tb, TYS(TY_I64)));
  }
  return lo_arith(l, op, t, lo_convert(l, a, ta, t), lo_convert(l, b, tb, t));
}

/* s + t, s * n of strs or bytes: a new one, made before the operands are released */
static LLVMValueRef text_binop(Lower *l, Node *n) {
  LLVMValueRef a = lo_expr(l, n->lhs), b = lo_expr(l, n->rhs);
  LLVMValueRef r = lo_binop_values(l, n->op, n->ty, a, n->lhs->ty, b, n->rhs->ty);
  lo_done_with(l, n->lhs, a);
  lo_done_with(l, n->rhs, b);
  return r;
}

LLVMValueRef lo_binop(Lower *l, Node *n) {
  if (n->ty->kind == TY_TUPLE) return lo_tuple_binop(l, n);
  if (n->ty->kind == TY_LIST) return lo_list_binop(l, n);
  if (n->ty->kind == TY_SET) return lo_set_binop(l, n);
  if (n->ty->kind == TY_STR || n->ty->kind == TY_BYTES) return text_binop(l, n);
  LLVMValueRef a = lo_expr(l, n->lhs), b = lo_expr(l, n->rhs);
  if (n->op == OP_POW && l->pow_value && n->rhs->kind == N_VAR && n->rhs->var == l->pow_var)
    b = LLVMConstInt(lo_type(l, n->rhs->ty), (unsigned long long)l->pow_value, 0);  /* a loop's version (stmt.c) */
  return lo_binop_values(l, n->op, n->ty, a, n->lhs->ty, b, n->rhs->ty);
}

LLVMValueRef lo_unary(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr(l, n->lhs);
  if (n->op == OP_NOT) return LLVMBuildNot(l->b, lo_truth(l, v, n->lhs->ty), "");
  /* -x and ~x of a narrow unsigned int wrap in its own width, then widen, as NumPy's scalars and
   * Numba give them (~uint32(0) is 2**32-1, not 2**64-1); of a signed int the order changes nothing
   * but -int8(-128), which stays CPython's 128 */
  if ((n->op == OP_INVERT || n->op == OP_NEG) && ty_is_unsigned(n->lhs->ty) && n->lhs->ty != n->ty) {
    LLVMValueRef own = n->op == OP_INVERT ? LLVMBuildNot(l->b, v, "") : LLVMBuildNeg(l->b, v, "");
    return lo_convert(l, own, n->lhs->ty, n->ty);
  }
  v = lo_convert(l, v, n->lhs->ty, n->ty);
  if (n->op == OP_POS) return v;
  if (n->op == OP_INVERT) return LLVMBuildNot(l->b, v, "");
  if (ty_is_complex(n->ty)) return lo_complex_neg(l, n->ty, v);
  return ty_is_float(n->ty) ? LLVMBuildFNeg(l->b, v, "") : LLVMBuildNeg(l->b, v, "");
}

/* A signed int against a float, exactly as Python compares them: the int
 * rounded to a float decides unless it ties, then the float (integral
 * there) decides as an int. */
static LLVMValueRef compare_int_float(Lower *l, int op, LLVMValueRef i, LLVMValueRef x, bool int_first) {
  LLVMValueRef fi = LLVMBuildSIToFP(l->b, i, l->mod->f64, "");
  LLVMValueRef a = int_first ? fi : x, b = int_first ? x : fi;
  static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
  static const LLVMIntPredicate ip[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  LLVMValueRef by_float = LLVMBuildFCmp(l->b, fp[op - OP_EQ], a, b, "");
  LLVMValueRef tie = LLVMBuildFCmp(l->b, LLVMRealOEQ, fi, x, "");
  /* at a tie x is integral; 2**63 itself is above every int64 */
  LLVMValueRef top = LLVMBuildFCmp(l->b, LLVMRealOGE, x, LLVMConstReal(l->mod->f64, 9223372036854775808.0), "");
  LLVMValueRef xi = LLVMBuildSelect(l->b, top, LLVMConstInt(l->mod->i64, INT64_MAX, 0),
                                    LLVMBuildFPToSI(l->b, LLVMBuildSelect(l->b, top, LLVMConstReal(l->mod->f64, 0), x, ""), l->mod->i64, ""), "");
  LLVMValueRef ia = int_first ? i : xi, ib = int_first ? xi : i;
  LLVMValueRef by_int = LLVMBuildICmp(l->b, ip[op - OP_EQ], ia, ib, "");
  /* x = 2**63 ties with INT64_MAX rounded, yet is above every int64 */
  LLVMValueRef at_top = LLVMBuildSelect(l->b, top,
      LLVMConstInt(l->mod->i1, (op == OP_NE || (int_first ? (op == OP_LT || op == OP_LE) : (op == OP_GT || op == OP_GE))), 0),
      by_int, "");
  return LLVMBuildSelect(l->b, tie, at_top, by_float, "");
}

/* A uint64 against a signed int, exactly as Python: a negative one is below
 * every uint64, else both compare as unsigned. */
static LLVMValueRef compare_u64_signed(Lower *l, int op, LLVMValueRef a, const Type *ta,
                                       LLVMValueRef b, const Type *tb) {
  bool signed_first = ty_is_signed(ta);
  a = lo_convert(l, a, ta, signed_first ? TYS(TY_I64) : TYS(TY_U64));
  b = lo_convert(l, b, tb, signed_first ? TYS(TY_U64) : TYS(TY_I64));
  LLVMValueRef negative = LLVMBuildICmp(l->b, LLVMIntSLT, signed_first ? a : b, const_i64(l, 0), "");
  static const LLVMIntPredicate up[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
  LLVMValueRef by_unsigned = LLVMBuildICmp(l->b, up[op - OP_EQ], a, b, "");
  bool when_negative = op == OP_NE || (signed_first ? (op == OP_LT || op == OP_LE) : (op == OP_GT || op == OP_GE));
  return LLVMBuildSelect(l->b, negative, const_bool(l, when_negative), by_unsigned, "");
}

/* An int constant that a double holds exactly: compared as that double,
 * the result is already Python's (d > 0 with d a float). */
static bool exact_as_double(LLVMValueRef v) {
  if (!LLVMIsAConstantInt(v)) return false;
  long long k = LLVMConstIntGetSExtValue(v);
  return k >= -(1LL << 53) && k <= (1LL << 53);
}

LLVMValueRef lo_compare_values(Lower *l, int op, LLVMValueRef a, const Type *ta,
                                      LLVMValueRef b, const Type *tb) {
  if (ty_is_enum(ta) || ty_is_enum(tb))  /* by their values: members of one class (typing sees to it) */
    return lo_compare_values(l, op, a, ty_enum_value(ta), b, ty_enum_value(tb));
  if (ta->kind == TY_DICT || tb->kind == TY_DICT) return lo_dict_compare(l, op, a, ta, b, tb);
  if (ta->kind == TY_TUPLE) return lo_tuple_compare(l, op, a, ta, b, tb);
  if (ta->kind == TY_LITDICT) return lo_literal_dict_compare(l, op, a, ta, b, tb);
  if (ta->kind == TY_LIST || tb->kind == TY_LIST) return lo_list_compare(l, op, a, ta, b, tb);
  if (ta->kind == TY_SET) return lo_set_compare(l, op, a, ta, b, tb);
  if (ta->kind == TY_DTYPE) return LLVMConstInt(l->mod->i1, (ta == tb) == (op == OP_EQ), 0);  /* (typing saw two) */
  if (ta->kind == TY_STR || tb->kind == TY_STR) return lo_str_compare_values(l, op, a, ta, b, tb);
  if (ta->kind == TY_BYTES || tb->kind == TY_BYTES) return lo_bytes_compare_values(l, op, a, ta, b, tb);
  if (ty_is_complex(ta) || ty_is_complex(tb)) return lo_complex_compare(l, op, a, ta, b, tb);
  if (ty_is_time(ta)) return lo_time_compare(l, op, a, ta, b, tb);
  if (ty_is_int(ta) && ty_is_int(tb) && (ta->kind == TY_U64 || tb->kind == TY_U64) &&
      (ty_is_signed(ta) || ty_is_signed(tb)))
    return compare_u64_signed(l, op, a, ta, b, tb);
  if (ty_is_float(ta) != ty_is_float(tb) && (ty_is_signed(ta) || ty_is_signed(tb)) &&
      (ta->kind == TY_I64 || tb->kind == TY_I64) && !exact_as_double(ty_is_float(ta) ? b : a)) {
    bool int_first = !ty_is_float(ta);
    LLVMValueRef x = int_first ? lo_convert(l, b, tb, TYS(TY_F64)) : lo_convert(l, a, ta, TYS(TY_F64));
    return compare_int_float(l, op, int_first ? a : b, x, int_first);
  }
  const Type *t = ty_is_float(ta) || ty_is_float(tb) ? TYS(TY_F64)
                  : ta->kind == TY_BOOL && tb->kind == TY_BOOL ? TYS(TY_I64)
                  : ta->kind == TY_U64 || tb->kind == TY_U64 ? TYS(TY_U64) : TYS(TY_I64);
  if (ty_is_float(ta) && ta == tb) t = ta;
  a = lo_convert(l, a, ta, t);
  b = lo_convert(l, b, tb, t);
  if (ty_is_float(t)) {
    static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                           LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
    return LLVMBuildFCmp(l->b, fp[op - OP_EQ], a, b, "");
  }
  static const LLVMIntPredicate sp[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  static const LLVMIntPredicate up[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
  return LLVMBuildICmp(l->b, (ty_is_signed(t) ? sp : up)[op - OP_EQ], a, b, "");
}

/* ---------------------------------------------------------------- floats to ints */

/* Raises what int() refuses of x (a float64) that is no int64: NaN
 * raises ValueError and the infinities OverflowError, as in Python; a
 * finite value beyond int64, where Python would make a larger int, raises
 * OverflowError too rather than give a wrong one. -2**63 passes. For a
 * slow path, taken where a conversion may have failed. */
void lo_float_to_int_refuse(Lower *l, LLVMValueRef x) {
  const Type *t = TYS(TY_F64);
  lo_raise_if(l, fcmp(l, LLVMRealUNO, x, x), RT_ERR_VALUE, "cannot convert float NaN to integer");
  lo_raise_if(l, fcmp(l, LLVMRealOEQ, lo_intrinsic1(l, "llvm.fabs", t, x), lo_fconst(l, t, INFINITY)),
              RT_ERR_OVERFLOW, "cannot convert float infinity to integer");
  lo_raise_if(l, fcmp(l, LLVMRealONE, x, lo_fconst(l, t, -9223372036854775808.0)), RT_ERR_OVERFLOW,
              "float too large to convert to int64");
}

#if defined(__x86_64__)
/* x (a float64) truncated to int64 by x86-64's cvttsd2si, unchecked: it
 * gives INT64_MIN for NaN and anything beyond int64 (lo_float_to_int_refuse). */
LLVMValueRef lo_float_to_int_x86(Lower *l, LLVMValueRef x) {
  LLVMTypeRef v2 = LLVMVectorType(l->mod->f64, 2);
  LLVMValueRef xv = LLVMBuildInsertElement(l->b, LLVMGetUndef(v2), x, const_i32(l, 0), "");
  return lo_call_fn(l, "llvm.x86.sse2.cvttsd2si64", l->mod->i64, &v2, &xv, 1);
}
#endif

/* ruchey's one rule for a float made an int (int(), round(), math.floor,
 * math.ceil, math.trunc): lo_float_to_int_refuse's errors, as in Python. */
LLVMValueRef lo_float_to_int(Lower *l, const Type *from, LLVMValueRef x) {
  const Type *t = TYS(TY_F64);
  x = lo_convert(l, x, from, t);  /* exact from float32 */
  LLVMValueRef direct, fits;
#if defined(__x86_64__)
  if (!l->mod->gpu) {
    /* one integer test (the slow path also gets x == -2**63, and agrees) */
    direct = lo_float_to_int_x86(l, x);
    fits = LLVMBuildICmp(l->b, LLVMIntNE, direct, const_i64(l, INT64_MIN), "");
  } else
#endif
  {
    /* in int64's range (NaN is not) */
    fits = LLVMBuildAnd(l->b, fcmp(l, LLVMRealOLT, x, lo_fconst(l, t, 9223372036854775808.0)),
                        fcmp(l, LLVMRealOGE, x, lo_fconst(l, t, -9223372036854775808.0)), "");
    direct = LLVMBuildFPToSI(l->b, LLVMBuildSelect(l->b, fits, x, lo_fconst(l, t, 0), ""), l->mod->i64, "");
  }
  /* NaN, the infinities and values beyond int64 live on the slow path,
   * out of the loop (-2**63 too, which fits) */
  LLVMBasicBlockRef slow = new_block(l, "int.slow"), done = new_block(l, "int.done");
  LLVMValueRef r = lo_alloca(l, l->mod->i64, "int");
  LLVMBuildStore(l->b, direct, r);
  LLVMBuildCondBr(l->b, lo_expect(l, fits, true), done, slow);
  position(l, slow);
  lo_float_to_int_refuse(l, x);
  LLVMBuildStore(l->b, const_i64(l, INT64_MIN), r);
  LLVMBuildBr(l->b, done);
  position(l, done);
  return LLVMBuildLoad2(l->b, l->mod->i64, r, "");
}
