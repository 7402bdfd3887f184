/* builtins/fp16.c — cuda.fp16.*: numba-cuda's half-precision intrinsics
 * (hadd, hfma, hsin, heq, hmax, ...), typed as numba-cuda types them:
 * float16 operands (numbers are converted to float16 first), a float16
 * result, a bool for the comparisons.
 *
 * Each computes the correctly rounded float16 result where one exists,
 * so that both backends agree. On the GPU the arithmetic is PTX's own
 * half instructions with an explicit rounding mode (add.rn.f16, ...),
 * which ptxas never fuses into an fma, as cuda_fp16.h writes them; on the
 * CPU it is float32 arithmetic rounded to float16, as the operators on
 * float16 are (lower/arith.c), which gives the same bits: a float32
 * holds the exact sum, difference, product or quotient of two halves
 * closely enough that rounding it again to half is rounding it once. An
 * fma is computed in float64 on the CPU (the product is exact there, and
 * the sum rounded once before its rounding to half, which over half's
 * exponents is a correct rounding too). The functions (hsin, hexp, ...)
 * compute in float32 and round, on both backends.
 */
#include "builtins/builtins.h"

enum {
  H_ADD, H_SUB, H_MUL, H_DIV, H_FMA, H_NEG, H_ABS,
  H_SIN, H_COS, H_LOG, H_LOG10, H_LOG2, H_EXP, H_EXP10, H_EXP2, H_SQRT, H_RSQRT, H_RCP,
  H_FLOOR, H_CEIL, H_RINT, H_TRUNC,
  H_EQ, H_NE, H_GT, H_GE, H_LT, H_LE, H_MAX, H_MIN,
};

/* ---------------------------------------------------------------- typing */

static bool takes_half(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < n->list.len; i++) {
    const Type *t = args[i];
    if ((!ty_is_int(t) && !ty_is_float(t)) || t->kind == TY_BOOL) {
      ty_error(in, n->list.items[i], "%s() takes float16 numbers, got %s", n->bi->name, t->name);
      return false;
    }
  }
  return true;
}

static const Type *ty_half(Infer *in, Node *n, const Type **args) {
  return takes_half(in, n, args) ? TYS(TY_F16) : NULL;
}

static const Type *ty_half_compare(Infer *in, Node *n, const Type **args) {
  return takes_half(in, n, args) ? TYS(TY_BOOL) : NULL;
}

/* ---------------------------------------------------------------- lowering */

static LLVMValueRef half_arg(Lower *l, Node *n, int i) { return lo_expr_as(l, n->list.items[i], TYS(TY_F16)); }

static LLVMValueRef widen(Lower *l, LLVMValueRef h, TypeKind k) { return lo_convert(l, h, TYS(TY_F16), TYS(k)); }
static LLVMValueRef narrow(Lower *l, LLVMValueRef v, TypeKind k) { return lo_convert(l, v, TYS(k), TYS(TY_F16)); }

/* One PTX half instruction on the operands' bits ("h" registers). */
static LLVMValueRef ptx_half(Lower *l, const char *text, LLVMValueRef *ops, int n) {
  LLVMTypeRef i16 = LLVMInt16TypeInContext(l->mod->c), params[3] = {i16, i16, i16};
  static const char *const constraints[] = {"", "=h,h", "=h,h,h", "=h,h,h,h"};
  LLVMTypeRef ft = LLVMFunctionType(i16, params, (unsigned)n, 0);
  LLVMValueRef fn = LLVMGetInlineAsm(ft, text, strlen(text), constraints[n], strlen(constraints[n]), 0, 0,
                                     LLVMInlineAsmDialectATT, 0);
  LLVMValueRef bits[3];
  for (int i = 0; i < n; i++) bits[i] = LLVMBuildBitCast(l->b, ops[i], i16, "");
  return LLVMBuildBitCast(l->b, LLVMBuildCall2(l->b, ft, fn, bits, (unsigned)n, ""), lo_type(l, TYS(TY_F16)), "");
}

static const char *const ptx_text[] = {
  [H_ADD] = "add.rn.f16 $0, $1, $2;", [H_SUB] = "sub.rn.f16 $0, $1, $2;", [H_MUL] = "mul.rn.f16 $0, $1, $2;",
  [H_FMA] = "fma.rn.f16 $0, $1, $2, $3;", [H_NEG] = "neg.f16 $0, $1;", [H_ABS] = "abs.f16 $0, $1;",
};

static LLVMValueRef lo_half_arith(Lower *l, Node *n) {
  int op = n->bi->ival;
  LLVMValueRef a[3];
  for (int i = 0; i < n->list.len; i++) a[i] = half_arg(l, n, i);
  if (l->mod->gpu && op != H_DIV) return ptx_half(l, ptx_text[op], a, n->list.len);
  if (op == H_NEG) return LLVMBuildFNeg(l->b, a[0], "");
  if (op == H_ABS) return lo_intrinsic1(l, "llvm.fabs", TYS(TY_F16), a[0]);
  if (op == H_FMA) {
    LLVMValueRef w[3] = {widen(l, a[0], TY_F64), widen(l, a[1], TY_F64), widen(l, a[2], TY_F64)};
    LLVMTypeRef f64 = lo_type(l, TYS(TY_F64));
    return narrow(l, lo_intrinsic(l, "llvm.fma", &f64, 1, w, 3), TY_F64);
  }
  static const int binops[] = {[H_ADD] = OP_ADD, [H_SUB] = OP_SUB, [H_MUL] = OP_MUL, [H_DIV] = OP_DIV};
  const Type *h = TYS(TY_F16);
  return lo_binop_values(l, binops[op], h, a[0], h, a[1], h);
}

/* The functions: float32's, rounded to float16. */
static LLVMValueRef lo_half_function(Lower *l, Node *n) {
  static const char *const libm[] = {[H_SIN] = "sin", [H_COS] = "cos", [H_LOG] = "log", [H_LOG10] = "log10",
                                     [H_LOG2] = "log2", [H_EXP] = "exp", [H_EXP10] = "exp10", [H_EXP2] = "exp2"};
  static const char *const intrinsics[] = {[H_SQRT] = "llvm.sqrt", [H_FLOOR] = "llvm.floor", [H_CEIL] = "llvm.ceil",
                                           [H_RINT] = "llvm.rint", [H_TRUNC] = "llvm.trunc"};
  int op = n->bi->ival;
  const Type *f32 = TYS(TY_F32);
  LLVMValueRef x = widen(l, half_arg(l, n, 0), TY_F32), r;
  if (op <= H_EXP2) {
    r = lo_libm(l, libm[op], f32, &x, 1);
  } else if (op == H_RSQRT || op == H_RCP) {
    LLVMValueRef d = op == H_RSQRT ? lo_intrinsic1(l, "llvm.sqrt", f32, x) : x;
    r = LLVMBuildFDiv(l->b, lo_fconst(l, f32, 1.0), d, "");
  } else {
    r = lo_intrinsic1(l, intrinsics[op], f32, x);
  }
  return narrow(l, r, TY_F32);
}

/* heq ... hle: ordered, but for hne (a NaN is unequal to everything); hmax
 * and hmin: numba-cuda's a if a > b else b, and a if a < b else b. */
static LLVMValueRef lo_half_compare(Lower *l, Node *n) {
  static const LLVMRealPredicate preds[] = {[H_EQ] = LLVMRealOEQ, [H_NE] = LLVMRealUNE, [H_GT] = LLVMRealOGT,
                                            [H_GE] = LLVMRealOGE, [H_LT] = LLVMRealOLT, [H_LE] = LLVMRealOLE,
                                            [H_MAX] = LLVMRealOGT, [H_MIN] = LLVMRealOLT};
  int op = n->bi->ival;
  LLVMValueRef a = half_arg(l, n, 0), b = half_arg(l, n, 1), c = fcmp(l, preds[op], a, b);
  return op >= H_MAX ? LLVMBuildSelect(l->b, c, a, b, "") : c;
}

/* ---------------------------------------------------------------- the rows */

#define ROW(name, op, nargs, type, lower) \
  {"cuda.fp16." name, "ruchey.cuda", "fp16." name, BK_FUNCTION, 0, nargs, nargs, NULL, \
   BF_KERNEL | BF_PURE | BF_CHEAP, op, 0, type, lower}

const Builtin bi_fp16[] = {
  ROW("hadd", H_ADD, 2, ty_half, lo_half_arith),
  ROW("hsub", H_SUB, 2, ty_half, lo_half_arith),
  ROW("hmul", H_MUL, 2, ty_half, lo_half_arith),
  ROW("hdiv", H_DIV, 2, ty_half, lo_half_arith),
  ROW("hfma", H_FMA, 3, ty_half, lo_half_arith),
  ROW("hneg", H_NEG, 1, ty_half, lo_half_arith),
  ROW("habs", H_ABS, 1, ty_half, lo_half_arith),
  ROW("hsin", H_SIN, 1, ty_half, lo_half_function),
  ROW("hcos", H_COS, 1, ty_half, lo_half_function),
  ROW("hlog", H_LOG, 1, ty_half, lo_half_function),
  ROW("hlog10", H_LOG10, 1, ty_half, lo_half_function),
  ROW("hlog2", H_LOG2, 1, ty_half, lo_half_function),
  ROW("hexp", H_EXP, 1, ty_half, lo_half_function),
  ROW("hexp10", H_EXP10, 1, ty_half, lo_half_function),
  ROW("hexp2", H_EXP2, 1, ty_half, lo_half_function),
  ROW("hsqrt", H_SQRT, 1, ty_half, lo_half_function),
  ROW("hrsqrt", H_RSQRT, 1, ty_half, lo_half_function),
  ROW("hrcp", H_RCP, 1, ty_half, lo_half_function),
  ROW("hfloor", H_FLOOR, 1, ty_half, lo_half_function),
  ROW("hceil", H_CEIL, 1, ty_half, lo_half_function),
  ROW("hrint", H_RINT, 1, ty_half, lo_half_function),
  ROW("htrunc", H_TRUNC, 1, ty_half, lo_half_function),
  ROW("heq", H_EQ, 2, ty_half_compare, lo_half_compare),
  ROW("hne", H_NE, 2, ty_half_compare, lo_half_compare),
  ROW("hgt", H_GT, 2, ty_half_compare, lo_half_compare),
  ROW("hge", H_GE, 2, ty_half_compare, lo_half_compare),
  ROW("hlt", H_LT, 2, ty_half_compare, lo_half_compare),
  ROW("hle", H_LE, 2, ty_half_compare, lo_half_compare),
  ROW("hmax", H_MAX, 2, ty_half, lo_half_compare),
  ROW("hmin", H_MIN, 2, ty_half, lo_half_compare),
  BI_END,
};
