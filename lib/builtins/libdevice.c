/* builtins/libdevice.c — numba-cuda's libdevice module (cuda.libdevice.sin,
 * ...): every function of NVIDIA's libdevice under its name without the
 * __nv_ prefix, typed as numba-cuda types it (libdevice.def, one row each).
 * In PTX a call is the __nv_ function itself, linked from libdevice as
 * math.* is; on the CPU backend each row says what computes the same: the
 * C library, an LLVM intrinsic, a runtime helper (libdevice_rt.c) or a few
 * instructions here. Arguments are converted to the row's types as Numba
 * converts them (any number); anything else is a TypingError.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtins/builtins.h"

typedef enum { LD_NEAREST, LD_DOWN, LD_UP, LD_ZERO } LdMode;  /* as rt_ld_* take it */

typedef struct LdFunc LdFunc;
/* a row's value on the CPU backend, from its arguments of the row's types */
typedef LLVMValueRef (*LdLower)(Lower *l, const LdFunc *f, LLVMValueRef *args);
struct LdFunc {
  const char *name, *sig, *outs;
  LdLower cpu;
  const char *sym;
  LdMode mode;
};

/* ---------------------------------------------------------------- signatures */

static const Type *letter_type(char c) {
  switch (c) {
  case 'f': return TYS(TY_F32);
  case 'd': return TYS(TY_F64);
  case 'h': return TYS(TY_I16);
  case 'i': return TYS(TY_I32);
  case 'l': return TYS(TY_I64);
  default: return NULL;
  }
}

static int nparams(const LdFunc *f) { return (int)strlen(f->sig) - 1; }
static int nouts(const LdFunc *f) { return (int)strlen(f->outs); }
static const Type *param_type(const LdFunc *f, int i) { return letter_type(f->sig[1 + i]); }
static const Type *out_type(const LdFunc *f, int i) { return letter_type(f->outs[i]); }
static const Type *result_type(const LdFunc *f) { return letter_type(f->sig[0]); }

/* ---------------------------------------------------------------- the CPU backend's lowerings */

/* sym called as libdevice's function is: outputs by pointer */
static LLVMValueRef call_symbol(Lower *l, const LdFunc *f, const char *sym, LLVMValueRef *args);

static LLVMValueRef call(Lower *l, const LdFunc *f, LLVMValueRef *args) { return call_symbol(l, f, f->sym, args); }

/* an LLVM intrinsic of the first argument's type, its result made the row's */
static LLVMValueRef intrinsic(Lower *l, const LdFunc *f, LLVMValueRef *args) {
  const Type *t = param_type(f, 0);
  LLVMTypeRef ov[1] = {lo_type(l, t)};
  LLVMValueRef r = lo_intrinsic(l, f->sym, ov, 1, args, (unsigned)nparams(f));
  return t == result_type(f) ? r : lo_convert(l, r, t, result_type(f));
}

/* a runtime helper computing the operation in the row's rounding direction */
static LLVMValueRef rounded(Lower *l, const LdFunc *f, LLVMValueRef *args) {
  int n = nparams(f);
  LLVMTypeRef params[4];
  LLVMValueRef a[4];
  for (int i = 0; i < n; i++) params[i] = lo_type(l, param_type(f, i)), a[i] = args[i];
  params[n] = l->mod->i32;
  a[n] = const_i32(l, (int)f->mode);
  return lo_call_fn(l, f->sym, lo_type(l, result_type(f)), params, a, (unsigned)n + 1);
}

static LLVMValueRef cpu_add(Lower *l, const LdFunc *f, LLVMValueRef *a) { return LLVMBuildFAdd(l->b, a[0], a[1], ""); }
static LLVMValueRef cpu_sub(Lower *l, const LdFunc *f, LLVMValueRef *a) { return LLVMBuildFSub(l->b, a[0], a[1], ""); }
static LLVMValueRef cpu_mul(Lower *l, const LdFunc *f, LLVMValueRef *a) { return LLVMBuildFMul(l->b, a[0], a[1], ""); }
static LLVMValueRef cpu_div(Lower *l, const LdFunc *f, LLVMValueRef *a) { return LLVMBuildFDiv(l->b, a[0], a[1], ""); }

static LLVMValueRef cpu_rcp(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  return LLVMBuildFDiv(l->b, lo_fconst(l, result_type(f), 1.0), a[0], "");
}

/* 1 / sqrt(x), both correctly rounded (libdevice's is within 1-2 ulps of it) */
static LLVMValueRef cpu_rsqrt(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  LLVMValueRef s = lo_intrinsic1(l, "llvm.sqrt", result_type(f), a[0]);
  return LLVMBuildFDiv(l->b, lo_fconst(l, result_type(f), 1.0), s, "");
}

/* between numbers, rounded to nearest: the ordinary conversions */
static LLVMValueRef cpu_convert(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  return lo_convert(l, a[0], param_type(f, 0), result_type(f));
}

static LLVMValueRef cpu_uconvert(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  return LLVMBuildUIToFP(l->b, a[0], lo_type(l, result_type(f)), "");
}

/* rounded by sym (floor, ceil, trunc, rint, round), then converted as
 * PTX's cvt does: saturated to the integer's range, NaN to 0 */
static LLVMValueRef to_integer(Lower *l, const LdFunc *f, LLVMValueRef *a, const char *convert) {
  LLVMValueRef r = lo_intrinsic1(l, f->sym, param_type(f, 0), a[0]);
  LLVMTypeRef ov[2] = {lo_type(l, result_type(f)), lo_type(l, param_type(f, 0))};
  return lo_intrinsic(l, convert, ov, 2, &r, 1);
}

static LLVMValueRef cpu_to_int(Lower *l, const LdFunc *f, LLVMValueRef *a) { return to_integer(l, f, a, "llvm.fptosi.sat"); }
static LLVMValueRef cpu_to_uint(Lower *l, const LdFunc *f, LLVMValueRef *a) { return to_integer(l, f, a, "llvm.fptoui.sat"); }

/* the same bits as the other type */
static LLVMValueRef cpu_bits(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  return LLVMBuildBitCast(l->b, a[0], lo_type(l, result_type(f)), "");
}

static LLVMValueRef double_bits(Lower *l, LLVMValueRef x) { return LLVMBuildBitCast(l->b, x, l->mod->i64, ""); }

static LLVMValueRef cpu_hiint(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  LLVMValueRef hi = LLVMBuildLShr(l->b, double_bits(l, a[0]), const_i64(l, 32), "");
  return LLVMBuildTrunc(l->b, hi, l->mod->i32, "");
}

static LLVMValueRef cpu_loint(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  return LLVMBuildTrunc(l->b, double_bits(l, a[0]), l->mod->i32, "");
}

static LLVMValueRef cpu_hiloint(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  LLVMValueRef hi = LLVMBuildShl(l->b, LLVMBuildZExt(l->b, a[0], l->mod->i64, ""), const_i64(l, 32), "");
  LLVMValueRef bits = LLVMBuildOr(l->b, hi, LLVMBuildZExt(l->b, a[1], l->mod->i64, ""), "");
  return LLVMBuildBitCast(l->b, bits, l->mod->f64, "");
}

static LLVMValueRef cpu_to_half(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  LLVMValueRef h = LLVMBuildFPTrunc(l->b, a[0], lo_type(l, TYS(TY_F16)), "");
  return LLVMBuildBitCast(l->b, h, lo_type(l, TYS(TY_I16)), "");
}

static LLVMValueRef cpu_from_half(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  LLVMValueRef h = LLVMBuildBitCast(l->b, a[0], lo_type(l, TYS(TY_F16)), "");
  return LLVMBuildFPExt(l->b, h, l->mod->f32, "");
}

/* ---- integers */

static LLVMValueRef int_const(Lower *l, const LdFunc *f, long long v) {
  return LLVMConstInt(lo_type(l, param_type(f, 0)), (unsigned long long)v, 1);
}

static LLVMValueRef intrinsic_flag(Lower *l, const LdFunc *f, const char *name, LLVMValueRef x) {
  return lo_intrinsic2(l, name, param_type(f, 0), x, const_bool(l, false));
}

/* |INT_MIN| is INT_MIN, as libdevice's negation wraps */
static LLVMValueRef cpu_abs(Lower *l, const LdFunc *f, LLVMValueRef *a) { return intrinsic_flag(l, f, "llvm.abs", a[0]); }

static LLVMValueRef cpu_clz(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  return lo_convert(l, intrinsic_flag(l, f, "llvm.ctlz", a[0]), param_type(f, 0), TYS(TY_I32));
}

/* 1 + the lowest set bit's index, 0 for 0 */
static LLVMValueRef cpu_ffs(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  LLVMValueRef tz = lo_convert(l, intrinsic_flag(l, f, "llvm.cttz", a[0]), param_type(f, 0), TYS(TY_I32));
  LLVMValueRef zero = LLVMBuildICmp(l->b, LLVMIntEQ, a[0], int_const(l, f, 0), "");
  return LLVMBuildSelect(l->b, zero, const_i32(l, 0), LLVMBuildAdd(l->b, tz, const_i32(l, 1), ""), "");
}

/* (x + y) >> 1 without overflow: the common bits plus half the others,
 * rounded down (hadd) or up (rhadd) */
static LLVMValueRef halving_add(Lower *l, LLVMValueRef *a, bool up, bool is_signed) {
  LLVMValueRef diff = LLVMBuildXor(l->b, a[0], a[1], "");
  LLVMValueRef one = LLVMConstInt(LLVMTypeOf(a[0]), 1, 0);
  LLVMValueRef half = is_signed ? LLVMBuildAShr(l->b, diff, one, "") : LLVMBuildLShr(l->b, diff, one, "");
  if (up) return LLVMBuildSub(l->b, LLVMBuildOr(l->b, a[0], a[1], ""), half, "");
  return LLVMBuildAdd(l->b, LLVMBuildAnd(l->b, a[0], a[1], ""), half, "");
}

static LLVMValueRef cpu_hadd(Lower *l, const LdFunc *f, LLVMValueRef *a) { return halving_add(l, a, false, true); }
static LLVMValueRef cpu_rhadd(Lower *l, const LdFunc *f, LLVMValueRef *a) { return halving_add(l, a, true, true); }
static LLVMValueRef cpu_uhadd(Lower *l, const LdFunc *f, LLVMValueRef *a) { return halving_add(l, a, false, false); }
static LLVMValueRef cpu_urhadd(Lower *l, const LdFunc *f, LLVMValueRef *a) { return halving_add(l, a, true, false); }

/* the product of the low 24 bits of each */
static LLVMValueRef mul24(Lower *l, LLVMValueRef *a, bool is_signed) {
  LLVMValueRef eight = const_i32(l, 8), low[2];
  for (int i = 0; i < 2; i++) {
    LLVMValueRef up = LLVMBuildShl(l->b, a[i], eight, "");
    low[i] = is_signed ? LLVMBuildAShr(l->b, up, eight, "") : LLVMBuildLShr(l->b, up, eight, "");
  }
  return LLVMBuildMul(l->b, low[0], low[1], "");
}

static LLVMValueRef cpu_mul24(Lower *l, const LdFunc *f, LLVMValueRef *a) { return mul24(l, a, true); }
static LLVMValueRef cpu_umul24(Lower *l, const LdFunc *f, LLVMValueRef *a) { return mul24(l, a, false); }

/* the high half of the double-width product */
static LLVMValueRef mulhi(Lower *l, const LdFunc *f, LLVMValueRef *a, bool is_signed) {
  LLVMTypeRef t = LLVMTypeOf(a[0]);
  unsigned bits = LLVMGetIntTypeWidth(t);
  LLVMTypeRef wide = LLVMIntTypeInContext(l->mod->c, 2 * bits);
  LLVMValueRef w[2];
  for (int i = 0; i < 2; i++) w[i] = is_signed ? LLVMBuildSExt(l->b, a[i], wide, "") : LLVMBuildZExt(l->b, a[i], wide, "");
  LLVMValueRef p = LLVMBuildMul(l->b, w[0], w[1], "");
  return LLVMBuildTrunc(l->b, LLVMBuildLShr(l->b, p, LLVMConstInt(wide, bits, 0), ""), t, "");
}

static LLVMValueRef cpu_mulhi(Lower *l, const LdFunc *f, LLVMValueRef *a) { return mulhi(l, f, a, true); }
static LLVMValueRef cpu_umulhi(Lower *l, const LdFunc *f, LLVMValueRef *a) { return mulhi(l, f, a, false); }

/* |x - y| + z */
static LLVMValueRef sad(Lower *l, LLVMValueRef *a, bool is_signed) {
  LLVMValueRef lt = LLVMBuildICmp(l->b, is_signed ? LLVMIntSLT : LLVMIntULT, a[0], a[1], "");
  LLVMValueRef d = LLVMBuildSelect(l->b, lt, LLVMBuildSub(l->b, a[1], a[0], ""), LLVMBuildSub(l->b, a[0], a[1], ""), "");
  return LLVMBuildAdd(l->b, d, a[2], "");
}

static LLVMValueRef cpu_sad(Lower *l, const LdFunc *f, LLVMValueRef *a) { return sad(l, a, true); }
static LLVMValueRef cpu_usad(Lower *l, const LdFunc *f, LLVMValueRef *a) { return sad(l, a, false); }

/* byte n of the result: byte (s >> 4n) & 7 of the eight bytes y:x */
static LLVMValueRef cpu_byte_perm(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  LLVMValueRef both = LLVMBuildOr(l->b, LLVMBuildShl(l->b, LLVMBuildZExt(l->b, a[1], l->mod->i64, ""), const_i64(l, 32), ""),
                                  LLVMBuildZExt(l->b, a[0], l->mod->i64, ""), "");
  LLVMValueRef r = const_i32(l, 0);
  for (int n = 0; n < 4; n++) {
    LLVMValueRef sel = LLVMBuildAnd(l->b, LLVMBuildLShr(l->b, a[2], const_i32(l, 4 * n), ""), const_i32(l, 7), "");
    LLVMValueRef shift = LLVMBuildZExt(l->b, LLVMBuildShl(l->b, sel, const_i32(l, 3), ""), l->mod->i64, "");
    LLVMValueRef byte = LLVMBuildAnd(l->b, LLVMBuildTrunc(l->b, LLVMBuildLShr(l->b, both, shift, ""), l->mod->i32, ""),
                                     const_i32(l, 0xff), "");
    r = LLVMBuildOr(l->b, r, LLVMBuildShl(l->b, byte, const_i32(l, 8 * n), ""), "");
  }
  return r;
}

/* ---- classes of floats: 1 or 0, as int32 */

static LLVMValueRef as_int32(Lower *l, LLVMValueRef c) { return LLVMBuildZExt(l->b, c, l->mod->i32, ""); }

static LLVMValueRef compare_abs(Lower *l, const LdFunc *f, LLVMValueRef x, LLVMRealPredicate p) {
  const Type *t = param_type(f, 0);
  return as_int32(l, fcmp(l, p, lo_intrinsic1(l, "llvm.fabs", t, x), lo_fconst(l, t, INFINITY)));
}

static LLVMValueRef cpu_isfinite(Lower *l, const LdFunc *f, LLVMValueRef *a) { return compare_abs(l, f, a[0], LLVMRealOLT); }
static LLVMValueRef cpu_isinf(Lower *l, const LdFunc *f, LLVMValueRef *a) { return compare_abs(l, f, a[0], LLVMRealOEQ); }
static LLVMValueRef cpu_isnan(Lower *l, const LdFunc *f, LLVMValueRef *a) { return as_int32(l, fcmp(l, LLVMRealUNO, a[0], a[0])); }

static LLVMValueRef cpu_signbit(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  const Type *t = param_type(f, 0);
  LLVMTypeRef it = LLVMIntTypeInContext(l->mod->c, (unsigned)t->bits);
  LLVMValueRef bits = LLVMBuildBitCast(l->b, a[0], it, "");
  return as_int32(l, LLVMBuildICmp(l->b, LLVMIntSLT, bits, LLVMConstNull(it), ""));
}

/* clamped to [0, 1], NaN to 0 */
static LLVMValueRef cpu_saturate(Lower *l, const LdFunc *f, LLVMValueRef *a) {
  const Type *t = param_type(f, 0);
  LLVMValueRef low = lo_intrinsic2(l, "llvm.maxnum", t, a[0], lo_fconst(l, t, 0.0));
  return lo_intrinsic2(l, "llvm.minnum", t, low, lo_fconst(l, t, 1.0));
}

/* ---------------------------------------------------------------- the table */

#define LD(name, sig, outs, cpu, sym, mode) {#name, sig, outs, cpu, sym, mode},
static const LdFunc ld_funcs[] = {
#include "builtins/libdevice.def"
};
#undef LD

/* outputs come back after the result: one value, or a tuple of them */
static const Type *python_result(const LdFunc *f) {
  const Type *items[3];
  int n = 0;
  if (result_type(f)) items[n++] = result_type(f);
  for (int i = 0; i < nouts(f); i++) items[n++] = out_type(f, i);
  return n == 1 ? items[0] : ty_tuple(n, items);
}

static LLVMValueRef call_symbol(Lower *l, const LdFunc *f, const char *sym, LLVMValueRef *args) {
  int n = nparams(f), m = nouts(f);
  LLVMTypeRef params[4];
  LLVMValueRef a[4];
  for (int i = 0; i < n; i++) params[i] = lo_type(l, param_type(f, i)), a[i] = args[i];
  for (int i = 0; i < m; i++) params[n + i] = l->mod->ptr, a[n + i] = lo_alloca(l, lo_type(l, out_type(f, i)), "out");
  const Type *rt = result_type(f);
  LLVMValueRef r = lo_call_fn(l, sym, rt ? lo_type(l, rt) : void_type(l), params, a, (unsigned)(n + m));
  if (!m) {  /* a function of its arguments alone: free to move, vectorise (jit.c's vector math) */
    static const char *const attrs[] = {"nounwind", "willreturn", "nosync", "nofree", "memory"};
    LLVMValueRef fn = LLVMGetCalledValue(r);
    for (int i = 0; i < 5; i++) {
      unsigned kind = LLVMGetEnumAttributeKindForName(attrs[i], strlen(attrs[i]));
      LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(l->mod->c, kind, 0));
    }
    return r;
  }
  LLVMValueRef tuple = LLVMGetUndef(lo_type(l, python_result(f)));
  unsigned k = 0;
  if (rt) tuple = LLVMBuildInsertValue(l->b, tuple, r, k++, "");
  for (int i = 0; i < m; i++)
    tuple = LLVMBuildInsertValue(l->b, tuple, LLVMBuildLoad2(l->b, lo_type(l, out_type(f, i)), a[n + i], ""), k++, "");
  return tuple;
}

static const LdFunc *row_of(const Node *n) { return &ld_funcs[n->bi->ival]; }

/* the row's arguments' types, as the message says them */
static void describe_params(const LdFunc *f, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = 0;
  for (int i = 0; i < nparams(f) && used < size; i++)
    used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", param_type(f, i)->name);
}

/* numbers, converted to the row's types as Numba converts them */
static const Type *ty_libdevice(Infer *in, Node *n, const Type **args) {
  const LdFunc *f = row_of(n);
  for (int i = 0; i < n->list.len; i++) {
    const Type *t = args[i];
    if (t->kind == TY_BOOL || ty_is_int(t) || ty_is_float(t)) continue;
    char params[128];
    describe_params(f, params, sizeof params);
    return ty_error(in, n->list.items[i], "%s() takes (%s), got %s for argument %d", n->bi->name, params, t->name, i + 1);
  }
  return python_result(f);
}

static LLVMValueRef lo_libdevice(Lower *l, Node *n) {
  const LdFunc *f = row_of(n);
  LLVMValueRef args[4];
  for (int i = 0; i < nparams(f); i++) args[i] = lo_expr_as(l, n->list.items[i], param_type(f, i));
  if (!l->mod->gpu) return f->cpu(l, f, args);
  char sym[48];
  snprintf(sym, sizeof sym, "__nv_%s", f->name);
  return call_symbol(l, f, sym, args);
}

enum {
#define LD(name, sig, outs, cpu, sym, mode) LD_##name,
#include "builtins/libdevice.def"
#undef LD
};

#define LD(name, sig, outs, cpu, sym, mode)                                                                  \
  {"cuda.libdevice." #name, "ruchey.cuda", "libdevice." #name, BK_FUNCTION, 0, (int)sizeof sig - 2, (int)sizeof sig - 2, \
   NULL, BF_KERNEL | BF_PURE, LD_##name, 0, ty_libdevice, lo_libdevice},
const Builtin bi_libdevice[] = {
#include "builtins/libdevice.def"
  BI_END,
};
#undef LD
