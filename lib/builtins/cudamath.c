/* builtins/cudamath.c — CUDA's intrinsics on bits and numbers:
 * cuda.popc, brev, clz, ffs, fma, cbrt and selp, typed as numba-cuda
 * types them, and an integer's bit_count() method, numba-cuda's popc.
 * Each is an LLVM intrinsic (or libm's and libdevice's cbrt), the same on
 * the CPU backend and the GPU.
 */
#include "builtins/builtins.h"

static const Type *need_int(Infer *in, Node *n, const Type *t) {
  if (ty_is_int(t)) return t;
  return ty_error(in, n->list.items[0], "%s() takes an integer, got %s", n->bi->name, t->name);
}

/* popc and clz: the argument's type */
static const Type *ty_same_int(Infer *in, Node *n, const Type **args) { return need_int(in, n, args[0]); }

/* ffs: a uint32 */
static const Type *ty_ffs(Infer *in, Node *n, const Type **args) {
  return need_int(in, n, args[0]) ? TYS(TY_U32) : NULL;
}

/* brev: uint32 or uint64, by the argument's width */
static const Type *ty_brev(Infer *in, Node *n, const Type **args) {
  if (!need_int(in, n, args[0])) return NULL;
  return args[0]->bits > 32 ? TYS(TY_U64) : TYS(TY_U32);
}

/* fma and cbrt: float32 when every argument is, else float64 */
static const Type *ty_float(Infer *in, Node *n, const Type **args) {
  bool f32 = true;
  for (int i = 0; i < n->list.len; i++) {
    if (!ty_need_scalar(in, n->list.items[i], args[i], n->bi->name)) return NULL;
    if (args[i]->kind == TY_BOOL) return ty_error(in, n->list.items[i], "%s() takes numbers, got bool", n->bi->name);
    f32 &= args[i]->kind == TY_F32;
  }
  return f32 ? TYS(TY_F32) : TYS(TY_F64);
}

/* selp(predicate, a, b): a's and b's common type */
static const Type *ty_selp(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < 3; i++)
    if (!ty_need_scalar(in, n->list.items[i], args[i], "selp()")) return NULL;
  const Type *t = ty_unify(args[1], args[2]);
  if (!t) return ty_error(in, n, "selp(): %s and %s have no common type", args[1]->name, args[2]->name);
  return t;
}

static LLVMValueRef arg_as(Lower *l, Node *n, int i) { return lo_expr_as(l, n->list.items[i], n->ty); }

static LLVMValueRef lo_popc(Lower *l, Node *n) { return lo_intrinsic1(l, "llvm.ctpop", n->ty, arg_as(l, n, 0)); }

static LLVMValueRef lo_clz(Lower *l, Node *n) {
  return lo_intrinsic2(l, "llvm.ctlz", n->ty, arg_as(l, n, 0), const_bool(l, false));
}

static LLVMValueRef lo_brev(Lower *l, Node *n) { return lo_intrinsic1(l, "llvm.bitreverse", n->ty, arg_as(l, n, 0)); }

/* ffs(x): 1 + the index of the lowest bit set, 0 for 0 */
static LLVMValueRef lo_ffs(Lower *l, Node *n) {
  Node *a = n->list.items[0];
  LLVMValueRef x = lo_expr(l, a), zero = LLVMConstNull(lo_type(l, a->ty));
  LLVMValueRef tz = lo_intrinsic2(l, "llvm.cttz", a->ty, x, const_bool(l, false));
  LLVMValueRef pos = LLVMBuildAdd(l->b, LLVMBuildZExtOrBitCast(l->b, LLVMBuildTrunc(l->b, tz, l->mod->i8, ""), l->mod->i32, ""),
                                  const_i32(l, 1), "");
  return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, x, zero, ""), const_i32(l, 0), pos, "");
}

static LLVMValueRef lo_fma(Lower *l, Node *n) {
  LLVMTypeRef ov[1] = {lo_type(l, n->ty)};
  LLVMValueRef a[3] = {arg_as(l, n, 0), arg_as(l, n, 1), arg_as(l, n, 2)};
  return lo_intrinsic(l, "llvm.fma", ov, 1, a, 3);
}

static LLVMValueRef lo_cbrt(Lower *l, Node *n) {
  LLVMValueRef x = arg_as(l, n, 0);
  return lo_libm(l, "cbrt", n->ty, &x, 1);
}

static LLVMValueRef lo_selp(Lower *l, Node *n) {
  Node *p = n->list.items[0];
  LLVMValueRef c = lo_truth(l, lo_expr(l, p), p->ty);
  return LLVMBuildSelect(l->b, c, arg_as(l, n, 1), arg_as(l, n, 2), "");
}

#define ROW(name, flags, type, lower, nargs) \
  {"cuda." name, "ruchey.cuda", name, BK_FUNCTION, 0, nargs, nargs, NULL, BF_KERNEL | BF_PURE | (flags), 0, 0, type, lower}

/* x.bit_count() of an integer: popc of x (a negative one's two's complement bits, as numba-cuda's) */
#define BIT_COUNT(kind) \
  {"int.bit_count", NULL, "bit_count", BK_METHOD, kind, 0, 0, NULL, BF_KERNEL | BF_PURE | BF_CHEAP, 0, 0, \
   ty_same_int, lo_popc}

const Builtin bi_cudamath[] = {
  ROW("popc", BF_CHEAP, ty_same_int, lo_popc, 1),
  ROW("brev", BF_CHEAP, ty_brev, lo_brev, 1),
  ROW("clz", BF_CHEAP, ty_same_int, lo_clz, 1),
  ROW("ffs", BF_CHEAP, ty_ffs, lo_ffs, 1),
  ROW("fma", BF_CHEAP, ty_float, lo_fma, 3),
  ROW("cbrt", 0, ty_float, lo_cbrt, 1),
  ROW("selp", BF_CHEAP, ty_selp, lo_selp, 3),
  BIT_COUNT(TY_I8), BIT_COUNT(TY_I16), BIT_COUNT(TY_I32), BIT_COUNT(TY_I64),
  BIT_COUNT(TY_U8), BIT_COUNT(TY_U16), BIT_COUNT(TY_U32), BIT_COUNT(TY_U64),
  BI_END,
};
