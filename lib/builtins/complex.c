/* builtins/complex.c — complex numbers: complex(x, y); .real, .imag and
 * .conjugate() of numbers and arrays; numpy.real, imag, conj, conjugate
 * and angle; numpy.iscomplex and isreal; NumPy's functions of complex arrays (numpy.sqrt, exp, log ...,
 * whose math.c rows hand complex arguments to the rows here); and the
 * cmath module.
 *
 * The transcendental functions are the C library's C99 complex functions
 * (which NumPy calls too), run in float64 from the runtime (rt_cmath).
 * cmath raises as CPython's does: ValueError at a pole (log(0), atanh(1)),
 * OverflowError where finite arguments give an infinite result. The
 * operators' arithmetic is lower/complex.c's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* clog10 */
#endif
#include <complex.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "builtins/builtins.h"

/* ---------------------------------------------------------------- complex() */

static const Type *ty_complex_call(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < n->list.len; i++)
    if (!ty_need_scalar(in, n->list.items[i], args[i], "complex()")) return NULL;
  return TYS(TY_C128);
}

/* complex(a, b) is a + b*1j: a complex b turns (CPython's rule); parts
 * keep their signs (complex(1, -0.0) has imaginary part -0.0). */
static LLVMValueRef lo_complex_call(Lower *l, Node *n) {
  const Type *t = TYS(TY_C128);
  if (n->list.len == 0) return LLVMConstNull(lo_type(l, t));
  Node *a = n->list.items[0];
  LLVMValueRef va = lo_expr_as(l, a, t);
  if (n->list.len == 1) return va;
  Node *b = n->list.items[1];
  LLVMValueRef vb = lo_expr_as(l, b, t);
  LLVMValueRef re = lo_complex_real(l, va), im = lo_complex_real(l, vb);
  if (ty_is_complex(b->ty)) re = LLVMBuildFSub(l->b, re, lo_complex_imag(l, vb), "");
  if (ty_is_complex(a->ty)) im = LLVMBuildFAdd(l->b, lo_complex_imag(l, va), im, "");
  return lo_complex_make(l, t, re, im);
}

/* ---------------------------------------------------------------- parts of numbers */

static const Type *ty_part(Infer *in, Node *n, const Type **args) { return lo_complex_part(args[0]); }
static const Type *ty_same(Infer *in, Node *n, const Type **args) { return args[0]; }

static LLVMValueRef lo_real_attr(Lower *l, Node *n) { return lo_complex_real(l, lo_expr(l, n->lhs)); }
static LLVMValueRef lo_imag_attr(Lower *l, Node *n) { return lo_complex_imag(l, lo_expr(l, n->lhs)); }

/* a real number's parts, as Python's: itself, a zero of its type (a bool's: int) */
static const Type *ty_real_part(Infer *in, Node *n, const Type **args) {
  return args[0]->kind == TY_BOOL ? TYS(TY_I64) : args[0];
}

static LLVMValueRef lo_real_self(Lower *l, Node *n) {
  Node *x = n->kind == N_ATTR ? n->lhs : n->list.items[0];
  return lo_expr_as(l, x, n->ty);
}

static LLVMValueRef lo_real_zero(Lower *l, Node *n) {
  lo_expr(l, n->lhs);
  return LLVMConstNull(lo_type(l, n->ty));
}

static LLVMValueRef lo_conjugate_method(Lower *l, Node *n) {
  return lo_complex_conj(l, n->ty, lo_expr(l, n->list.items[0]));
}

/* ---------------------------------------------------------------- parts of arrays */

/* a.real and a.imag of a complex array: views of the parts (float arrays
 * with a's strides, 'A' layout); a.real of a real array is a itself, its
 * a.imag a new read-only array of zeros of its dtype and order, as NumPy's. */
static const Type *ty_array_part(Infer *in, Node *n, const Type **args) {
  const Type *a = args[0];
  if (!ty_is_complex(a->elem)) {
    if (!strcmp(n->str, "real")) return a;
    if (!ty_is_scalar(a->elem))
      return ty_error(in, n, "a.imag of an array of %s is not supported: it has no imaginary part", a->elem->name);
    if (ty_no_allocation(in)) return ty_error(in, n, "kernels cannot allocate arrays: a.imag of a real array is a new one");
    return ty_array(a->elem, a->ndim, np_like_layout(a), true);
  }
  return ty_array(lo_complex_part(a->elem), a->ndim, 'A', a->readonly);
}

static LLVMValueRef lo_array_part(Lower *l, Node *n) {
  const Type *t = n->lhs->ty;
  LLVMValueRef a = lo_expr(l, n->lhs);
  bool real = !strcmp(n->str, "real");
  if (!ty_is_complex(t->elem) && real) {  /* a real array's .real: a new reference to a */
    lo_refcount(l, t, a, true);
    lo_done_with(l, n->lhs, a);
    return a;
  }
  LLVMValueRef shape[RC_MAX_NDIM], strides[RC_MAX_NDIM];
  for (int d = 0; d < t->ndim; d++) {
    shape[d] = lo_arr_shape(l, a, d);
    strides[d] = lo_arr_stride(l, t, a, d);
  }
  if (!ty_is_complex(t->elem)) {  /* a real array's .imag */
    lo_done_with(l, n->lhs, a);
    return lo_alloc_array(l, n->ty, shape, 0);
  }
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "data");
  if (!real) data = LLVMBuildGEP2(l->b, l->mod->i8, data, (LLVMValueRef[]){const_i64(l, ty_bits(t->elem) / 16)}, 1, "");
  LLVMValueRef v = np_view(l, n->ty, a, data, shape, strides);
  lo_refcount(l, n->ty, v, true);
  lo_done_with(l, n->lhs, a);
  return v;
}

/* ---------------------------------------------------------------- elementwise */

static const Type *elem_part(const Type *t) { return lo_complex_part(elem_of(t)); }

/* numpy.real, imag and angle: the part type; conj: the argument's type */
static const Type *ty_elementwise_part(Infer *in, Node *n, const Type **args) {
  if (!ty_need_scalar(in, n, elem_of(args[0]), n->bi->name)) return NULL;
  const Type *e = elem_part(args[0]);
  if (n->bi->ival == 'a' && !ty_is_float(e))  /* arctan2 of ints: float32 holds those to 16 bits */
    e = TYS(ty_bits(e) <= 16 ? TY_F32 : TY_F64);
  return args[0]->kind == TY_ARRAY ? ty_elementwise(in, n, args, e) : e;
}

/* numpy.real(a) and numpy.imag(a) of an array: a.real and a.imag, views
 * of the parts (NumPy's functions read the attributes); of numbers, the
 * elementwise part. */
static const Type *ty_numpy_part(Infer *in, Node *n, const Type **args) {
  if (args[0]->kind != TY_ARRAY) return ty_elementwise_part(in, n, args);
  *n = (Node){.kind = N_ATTR, .line = n->line, .col = n->col, .lhs = n->list.items[0],
              .str = n->bi->ival == 'r' ? "real" : "imag"};
  return ty_expr(in, n);
}

/* numpy.angle(z, deg=False): ty_elementwise_part's, deg a bool or int known when the call runs (Numba's),
 * moved to its position for the elementwise lowering */
static const Type *ty_angle(Infer *in, Node *n, const Type **args) {
  Node *deg = bi_arg(n, 1, "deg");
  if (deg && deg->ty->kind != TY_BOOL && !ty_is_int(deg->ty))
    return ty_error(in, deg, "%s(): deg must be True or False, got %s", n->bi->name, deg->ty->name);
  if (deg && n->list.len == 1) {
    Node **all = arena_alloc(in->f->arena, 2 * sizeof(Node *));
    all[0] = n->list.items[0];
    all[1] = deg;
    n->list = (NodeList){.items = all, .len = 2};
    n->kw = (NodeList){0};
    n->kw_names = NULL;
  }
  const Type *types[2] = {args[0], deg ? deg->ty : NULL};
  return ty_elementwise_part(in, n, types);
}

/* conjugate: the argument's type; bools, which NumPy's ufunc has no loop for, as int8 */
static const Type *ty_elementwise_same(Infer *in, Node *n, const Type **args) {
  const Type *e = elem_of(args[0]);
  if (!ty_need_scalar(in, n, e, n->bi->name)) return NULL;
  if (e->kind == TY_BOOL) e = TYS(TY_I8);
  return args[0]->kind == TY_ARRAY ? ty_elementwise(in, n, args, e) : e;
}

/* one element: 'r' real part, 'i' imaginary part, 'a' angle, 'c' conjugate */
static LLVMValueRef lo_parts_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *from = elem_of(n->list.items[0]->ty), *to = elem_of(n->ty);
  bool cx = ty_is_complex(from);
  switch (n->bi->ival) {
  case 'r': return cx ? lo_complex_real(l, v[0]) : lo_convert(l, v[0], from, to);
  case 'i': return cx ? lo_complex_imag(l, v[0]) : LLVMConstNull(lo_type(l, to));
  case 'c': return cx ? lo_complex_conj(l, from, v[0]) : lo_convert(l, v[0], from, to);
  default: {
    LLVMValueRef args[2] = {cx ? lo_complex_imag(l, v[0]) : lo_fconst(l, to, 0.0),
                            cx ? lo_complex_real(l, v[0]) : lo_convert(l, v[0], from, to)};
    if (cx) {
      args[0] = lo_convert(l, args[0], lo_complex_part(from), to);
      args[1] = lo_convert(l, args[1], lo_complex_part(from), to);
    }
    LLVMValueRef r = lo_libm(l, "atan2", to, args, 2);
    if (n->list.len < 2) return r;  /* deg=: in degrees, NumPy's angle * (180 / pi) */
    LLVMValueRef deg = lo_truth(l, v[1], n->list.items[1]->ty);
    return LLVMBuildSelect(l->b, deg, LLVMBuildFMul(l->b, r, lo_fconst(l, to, 180 / M_PI), ""), r, "");
  }
  }
}

static LLVMValueRef lo_parts(Lower *l, Node *n) {
  LLVMValueRef v[2];
  for (int i = 0; i < n->list.len; i++) v[i] = lo_expr(l, n->list.items[i]);
  return lo_parts_elem(l, n, v);
}

/* ---------------------------------------------------------------- the C library's functions */

/* f(x) of a complex x (any number: cmath takes reals too) in float64 parts;
 * python: CPython's errors. CUDA code computes it inline (cmath_kernel.c). */
static LLVMValueRef call_cmath(Lower *l, int fn, LLVMValueRef x, const Type *t, bool python) {
  const Type *c = TYS(TY_C128);
  LLVMValueRef z = lo_convert(l, x, t, c);
  if (l->opts->kernel || l->opts->device) return lo_kernel_cmath(l, fn, z);
  LLVMValueRef out = lo_alloca(l, lo_type(l, c), "cmath");
  LLVMTypeRef params[5] = {l->mod->i32, l->mod->f64, l->mod->f64, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[5] = {const_i32(l, fn), lo_complex_real(l, z), lo_complex_imag(l, z), const_i32(l, python), out};
  LLVMValueRef status = lo_call_fn(l, "rt_cmath", l->mod->i32, params, args, 5);
  if (python) lo_check_status(l, status);
  return LLVMBuildLoad2(l->b, lo_type(l, c), out, "");
}

/* Whether this is code written for Numba, compiled for the CPU: Numba's
 * formulas, from the runtime, replace the C library's complex functions */
static bool numba_on_cpu(Lower *l) {
  return l->opts->numba_code && !l->mod->gpu && !l->opts->kernel && !l->opts->device;
}

/* Whether code written for Numba computes cmath's fn by Numba's formula
 * (rt_cmath_numba); numpy: NumPy's function of that name (Numba's ufunc
 * takes its cmath formula, or for sinh, cosh, tanh, arccosh, log10, log2,
 * expm1 and reciprocal NumPy's own written out). */
static bool numba_cmath_formula(Lower *l, int fn, bool numpy) {
  if (!numba_on_cpu(l)) return false;
  switch (fn) {
  case CM_SIN: case CM_COS: case CM_TAN: case CM_ASIN: case CM_ACOS: case CM_ATAN: case CM_ASINH: case CM_ATANH:
  case CM_SINH: case CM_COSH: case CM_TANH: case CM_ACOSH: case CM_EXP:
    return true;
  case CM_LOG10: case CM_LOG2: case CM_EXPM1: case CM_RECIPROCAL: return numpy;
  default: return false;
  }
}

/* fn(z) by Numba's formula, z a complex128 (numpy: NumPy's fn) */
static LLVMValueRef numba_cmath_call(Lower *l, int fn, LLVMValueRef z, bool numpy) {
  const Type *c = TYS(TY_C128);
  LLVMValueRef out = lo_alloca(l, lo_type(l, c), "cmath");
  LLVMTypeRef params[5] = {l->mod->i32, l->mod->f64, l->mod->f64, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[5] = {const_i32(l, fn), lo_complex_real(l, z), lo_complex_imag(l, z), const_i32(l, numpy), out};
  lo_call_fn(l, "rt_cmath_numba", LLVMVoidTypeInContext(l->mod->c), params, args, 5);
  return LLVMBuildLoad2(l->b, lo_type(l, c), out, "");
}

/* fn of a complex64 z in code written for Numba, which computes it from
 * float32 parts (rt_cmath_numba32), where complex128 would round
 * differently; numpy: NumPy's fn, else cmath's. A complex128, exact where
 * Numba's result is a complex64. */
static LLVMValueRef numba_cmath32_call(Lower *l, int fn, LLVMValueRef z, bool numpy) {
  const Type *c = TYS(TY_C128);
  LLVMTypeRef f32 = LLVMFloatTypeInContext(l->mod->c);
  LLVMValueRef out = lo_alloca(l, lo_type(l, c), "cmath");
  LLVMTypeRef params[5] = {l->mod->i32, f32, f32, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[5] = {const_i32(l, fn), lo_complex_real(l, z), lo_complex_imag(l, z), const_i32(l, numpy), out};
  lo_call_fn(l, "rt_cmath_numba32", LLVMVoidTypeInContext(l->mod->c), params, args, 5);
  return LLVMBuildLoad2(l->b, lo_type(l, c), out, "");
}

/* numpy.log of a complex z (of type t) in code written for Numba, as its
 * cmath.log computes it: log(hypot(x, y)) + atan2(y, x)j in z's part type
 * (NumPy's, the C library's clog, differs in the last bits near |z| = 1). */
static LLVMValueRef numba_log(Lower *l, LLVMValueRef z, const Type *t) {
  const Type *p = lo_complex_part(t);
  LLVMValueRef x = lo_complex_real(l, z), y = lo_complex_imag(l, z);
  LLVMValueRef h = lo_libm(l, "hypot", p, (LLVMValueRef[]){x, y}, 2);
  return lo_complex_make(l, t, lo_libm(l, "log", p, &h, 1), lo_libm(l, "atan2", p, (LLVMValueRef[]){y, x}, 2));
}

/* numpy.f of complex elements, NumPy's way: no errors, complex64 kept */
static LLVMValueRef lo_numpy_cmath_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *from = elem_of(n->list.items[0]->ty), *to = elem_of(n->ty);
  if (from->kind == TY_C64 && to->kind == TY_C64 && numba_on_cpu(l))
    return lo_convert(l, numba_cmath32_call(l, n->bi->ival, v[0], true), TYS(TY_C128), to);
  if (n->bi->ival == CM_LOG && l->opts->numba_code && !l->mod->gpu && ty_is_complex(from) && from == to)
    return numba_log(l, v[0], to);
  if (from->kind == TY_C128 && to->kind == TY_C128 && numba_cmath_formula(l, n->bi->ival, true))
    return numba_cmath_call(l, n->bi->ival, v[0], true);
  return lo_convert(l, call_cmath(l, n->bi->ival, v[0], from, false), TYS(TY_C128), to);
}

LLVMValueRef lo_numpy_cmath_of(Lower *l, int fn, LLVMValueRef z, const Type *t) {
  return lo_convert(l, call_cmath(l, fn, z, t, false), TYS(TY_C128), t);
}

static LLVMValueRef lo_numpy_cmath(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr(l, n->list.items[0]);
  return lo_numpy_cmath_elem(l, n, &v);
}

static const Type *ty_numpy_cmath(Infer *in, Node *n, const Type **args) {
  const Type *e = elem_of(args[0]);
  if (!ty_need_scalar(in, n, e, n->bi->name)) return NULL;
  return args[0]->kind == TY_ARRAY ? ty_elementwise(in, n, args, e) : e;
}

/* numpy.absolute of complex elements: the part type */
static const Type *ty_numpy_cabs(Infer *in, Node *n, const Type **args) {
  const Type *e = elem_part(args[0]);
  return args[0]->kind == TY_ARRAY ? ty_elementwise(in, n, args, e) : e;
}

static LLVMValueRef lo_cabs_elem(Lower *l, Node *n, LLVMValueRef *v) {
  return lo_complex_abs(l, elem_of(n->list.items[0]->ty), v[0]);
}

static LLVMValueRef lo_cabs(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr(l, n->list.items[0]);
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;
  LLVMValueRef r = lo_cabs_elem(l, n, &v);
  l->numpy_semantics = saved;
  return r;
}

/* numpy.isnan, isinf, isfinite of complex elements: of either part
 * (isfinite: of both); numpy.iscomplex and isreal of any element: whether
 * its imaginary part (0 for a real one) is nonzero; the row's ival says which */
static const Type *ty_numpy_cpredicate(Infer *in, Node *n, const Type **args) {
  return args[0]->kind == TY_ARRAY ? ty_elementwise(in, n, args, TYS(TY_BOOL)) : TYS(TY_BOOL);
}

static LLVMValueRef classify(Lower *l, int which, const Type *t, LLVMValueRef v) {
  const Type *p = lo_complex_part(t);
  LLVMValueRef re = ty_is_complex(t) ? lo_complex_real(l, v) : lo_convert(l, v, t, TYS(TY_F64));
  LLVMValueRef im = ty_is_complex(t) ? lo_complex_imag(l, v) : lo_fconst(l, TYS(TY_F64), 0.0);
  if (!ty_is_complex(t)) p = TYS(TY_F64);
  LLVMValueRef inf = lo_fconst(l, p, INFINITY);
  LLVMValueRef are = lo_intrinsic1(l, "llvm.fabs", p, re), aim = lo_intrinsic1(l, "llvm.fabs", p, im);
  switch (which) {
  case 'n': return LLVMBuildOr(l->b, fcmp(l, LLVMRealUNO, re, re), fcmp(l, LLVMRealUNO, im, im), "");
  case 'i': return LLVMBuildOr(l->b, fcmp(l, LLVMRealOEQ, are, inf), fcmp(l, LLVMRealOEQ, aim, inf), "");
  case 'c': return fcmp(l, LLVMRealUNE, im, LLVMConstNull(LLVMTypeOf(im)));
  case 'r': return fcmp(l, LLVMRealOEQ, im, LLVMConstNull(LLVMTypeOf(im)));
  default: return LLVMBuildAnd(l->b, fcmp(l, LLVMRealOLT, are, inf), fcmp(l, LLVMRealOLT, aim, inf), "");
  }
}

static LLVMValueRef lo_cpredicate_elem(Lower *l, Node *n, LLVMValueRef *v) {
  return classify(l, n->bi->ival, elem_of(n->list.items[0]->ty), v[0]);
}

static LLVMValueRef lo_cpredicate(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr(l, n->list.items[0]);
  return lo_cpredicate_elem(l, n, &v);
}

/* numpy.square of complex: z * z, NumPy's product (without CPython 3.14's
 * recovery of infinities) */
static LLVMValueRef lo_csquare_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *t = elem_of(n->ty);
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;
  LLVMValueRef r = lo_complex_binop(l, OP_MUL, t, v[0], t, v[0], t);
  l->numpy_semantics = saved;
  return r;
}

static LLVMValueRef lo_csquare(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr(l, n->list.items[0]);
  return lo_csquare_elem(l, n, &v);
}

/* numpy.sinc of complex: sin(pi z) / (pi z), a zero z read as 1e-20 as
 * NumPy's where() does, in complex128 and written back in the elements'
 * precision */
static LLVMValueRef lo_csinc_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *c = TYS(TY_C128), *f = TYS(TY_F64);
  LLVMValueRef z = lo_convert(l, v[0], elem_of(n->list.items[0]->ty), c);
  z = LLVMBuildSelect(l->b, lo_complex_truth(l, z, c), z, lo_complex_make(l, c, lo_fconst(l, f, 1.0e-20), lo_fconst(l, f, 0)), "");
  LLVMValueRef pi = lo_fconst(l, f, M_PI);
  LLVMValueRef y = lo_complex_make(l, c, LLVMBuildFMul(l->b, pi, lo_complex_real(l, z), ""),
                                   LLVMBuildFMul(l->b, pi, lo_complex_imag(l, z), ""));
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;
  LLVMValueRef r = lo_binop_values(l, OP_DIV, c, call_cmath(l, CM_SIN, y, c, false), c, y, c);
  l->numpy_semantics = saved;
  return lo_convert(l, r, c, elem_of(n->ty));
}

static LLVMValueRef lo_csinc(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr(l, n->list.items[0]);
  return lo_csinc_elem(l, n, &v);
}

/* numpy.power of complex: the operator's elements */
static const Type *ty_numpy_cpow(Infer *in, Node *n, const Type **args) {
  return ty_ufunc_binop(in, n, OP_POW, n->list.items[0], args[0], n->list.items[1], args[1]);
}

static LLVMValueRef lo_cpow_elem(Lower *l, Node *n, LLVMValueRef *v) {
  return lo_binop_values(l, OP_POW, elem_of(n->ty), v[0], elem_of(n->list.items[0]->ty), v[1],
                         elem_of(n->list.items[1]->ty));
}

static LLVMValueRef lo_cpow(Lower *l, Node *n) {
  LLVMValueRef v[2] = {lo_expr(l, n->list.items[0]), lo_expr(l, n->list.items[1])};
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;
  LLVMValueRef r = lo_cpow_elem(l, n, v);
  l->numpy_semantics = saved;
  return r;
}

/* numpy.maximum, minimum, fmax and fmin of complex: by NumPy's order of
 * complex numbers (ufunc.c's), in the operands' common dtype. maximum and
 * minimum give the first operand with a NaN part, else the second with
 * one; fmax and fmin the other operand where one has a NaN (the first
 * where both have). ival: 'M' maximum, 'm' minimum, 'F' fmax, 'f' fmin. */
static const Type *ty_numpy_cpick(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  for (int i = 0; i < 2; i++)
    if (!ty_need_scalar(in, n->list.items[i], elem_of(args[i]), n->bi->name)) return NULL;
  bool numba = in->opts && in->opts->numba_code;
  const Type *t = np_promote(ty_operand_dtype(a, args[0], args[1], numba), ty_operand_dtype(b, args[1], args[0], numba));
  return ty_broadcast_ndim(args, 2) ? ty_elementwise(in, n, args, t) : t;
}

static LLVMValueRef has_nan(Lower *l, LLVMValueRef z) {
  LLVMValueRef re = lo_complex_real(l, z), im = lo_complex_imag(l, z);
  return LLVMBuildOr(l->b, fcmp(l, LLVMRealUNO, re, re), fcmp(l, LLVMRealUNO, im, im), "");
}

static LLVMValueRef lo_cpick_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *t = elem_of(n->ty);
  LLVMValueRef a = lo_convert(l, v[0], elem_of(n->list.items[0]->ty), t);
  LLVMValueRef b = lo_convert(l, v[1], elem_of(n->list.items[1]->ty), t);
  int which = n->bi->ival;
  bool greater = which == 'M' || which == 'F';
  LLVMValueRef ordered = lo_complex_order(l, greater ? OP_GE : OP_LE, a, b);
  LLVMValueRef first = which == 'M' || which == 'm' ? LLVMBuildOr(l->b, has_nan(l, a), ordered, "")
                                                    : LLVMBuildOr(l->b, has_nan(l, b), ordered, "");
  return LLVMBuildSelect(l->b, first, a, b, "");
}

static LLVMValueRef lo_cpick(Lower *l, Node *n) {
  LLVMValueRef v[2] = {lo_expr(l, n->list.items[0]), lo_expr(l, n->list.items[1])};
  return lo_cpick_elem(l, n, v);
}

/* numpy.float_power of complex: a ** b in complex128 */
static const Type *ty_numpy_cfloat_power(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < 2; i++)
    if (!ty_need_scalar(in, n->list.items[i], elem_of(args[i]), n->bi->name)) return NULL;
  return ty_broadcast_ndim(args, 2) ? ty_elementwise(in, n, args, TYS(TY_C128)) : TYS(TY_C128);
}

static LLVMValueRef lo_cfloat_power_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *c = TYS(TY_C128);
  LLVMValueRef a = lo_convert(l, v[0], elem_of(n->list.items[0]->ty), c);
  LLVMValueRef b = lo_convert(l, v[1], elem_of(n->list.items[1]->ty), c);
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;
  LLVMValueRef r = lo_binop_values(l, OP_POW, c, a, c, b, c);
  l->numpy_semantics = saved;
  return r;
}

static LLVMValueRef lo_cfloat_power(Lower *l, Node *n) {
  LLVMValueRef v[2] = {lo_expr(l, n->list.items[0]), lo_expr(l, n->list.items[1])};
  return lo_cfloat_power_elem(l, n, v);
}

/* The complex row "numpy.f of complex" for numpy.f's call; a TypingError if none. */
const Type *ty_numpy_complex(Infer *in, Node *n, const Type **args) {
  char name[64];
  snprintf(name, sizeof name, "%s of complex", n->bi->name);
  const Builtin *bi = bi_named(name);
  if (!bi) return ty_error(in, n, "%s() does not support complex numbers in compiled code", n->bi->name);
  n->bi = bi;
  return bi->type(in, n, args);
}

/* ---------------------------------------------------------------- cmath */

/* Whether a number of type t is as narrow as float32: Numba's cmath
 * functions of it are complex64's, in kernels and device functions too
 * (numba-cuda's cmath typing is Numba's) */
static bool narrow_part(const Type *t) { return t->kind == TY_C64 || t->kind == TY_F32; }

/* cmath.fn's result for an argument of type t, as Numba types it: complex64
 * for a complex64 (or float32), but for tanh, acosh and log10, whose
 * formulas go on in float64 (Numba's overloads return their complex128);
 * complex128 for the rest */
static const Type *cmath_result(int fn, const Type *t) {
  bool wide = fn == CM_TANH || fn == CM_ACOSH || fn == CM_LOG10;
  return narrow_part(t) && !wide ? TYS(TY_C64) : TYS(TY_C128);
}

static const Type *ty_cmath(Infer *in, Node *n, const Type **args) {
  if (!ty_need_scalar(in, n, args[0], n->bi->name)) return NULL;
  return cmath_result(n->bi->ival, args[0]);
}

/* Numba's cmath.log and log10 of x (a number of type t) in code written for
 * Numba (log10 is log's parts divided by ln 10); NULL for its others. */
static LLVMValueRef numba_cmath_log(Lower *l, int fn, LLVMValueRef x, const Type *t) {
  if ((fn != CM_LOG && fn != CM_LOG10) || !l->opts->numba_code || l->mod->gpu) return NULL;
  const Type *c = TYS(TY_C128);
  LLVMValueRef z = numba_log(l, lo_convert(l, x, t, c), c);
  if (fn == CM_LOG) return z;
  LLVMValueRef ln10 = lo_fconst(l, TYS(TY_F64), 2.302585092994045684);
  return lo_complex_make(l, c, LLVMBuildFDiv(l->b, lo_complex_real(l, z), ln10, ""),
                         LLVMBuildFDiv(l->b, lo_complex_imag(l, z), ln10, ""));
}

/* cmath.f(x), of type `to`: CPython's errors in ruchey's own code (its
 * value of a complex64 rounded to `to`); in code written for Numba none, as
 * Numba's (cmath.log(0) is -inf, atanh(1) inf, exp's overflow inf), its log
 * and log10 computed as Numba's, and those of a complex64 (or float32)
 * from float32 parts, as Numba's. */
static LLVMValueRef cmath_of(Lower *l, int fn, Node *x, const Type *to) {
  const Type *c = TYS(TY_C128);
  LLVMValueRef v = lo_expr(l, x), r = NULL;
  if (narrow_part(x->ty) && numba_on_cpu(l)) r = numba_cmath32_call(l, fn, lo_convert(l, v, x->ty, TYS(TY_C64)), false);
  if (!r) r = numba_cmath_log(l, fn, v, x->ty);
  if (!r && numba_cmath_formula(l, fn, false)) r = numba_cmath_call(l, fn, lo_convert(l, v, x->ty, c), false);
  if (!r) r = call_cmath(l, fn, v, x->ty, !l->opts->numba_code);
  return lo_convert(l, r, c, to);
}

static LLVMValueRef lo_cmath(Lower *l, Node *n) { return cmath_of(l, n->bi->ival, n->list.items[0], n->ty); }

/* cmath.log(x, base): log(x) / log(base), CPython's quotient; a complex64
 * where both are as narrow, as Numba's */
static const Type *ty_cmath_log(Infer *in, Node *n, const Type **args) {
  bool narrow = true;
  for (int i = 0; i < n->list.len; i++) {
    if (!ty_need_scalar(in, n, args[i], n->bi->name)) return NULL;
    narrow &= narrow_part(args[i]);
  }
  return narrow ? TYS(TY_C64) : TYS(TY_C128);
}

/* With a base, CPython forgets log(x)'s error (log(0j, 2) is -inf + nan j)
 * but not log(base)'s, and a base of 1 is outside the domain. Numba's is
 * log(x) / log(base), ZeroDivisionError for a base of 1. */
static LLVMValueRef lo_cmath_log(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  if (n->list.len == 1) return lo_cmath(l, n);
  Node *base = n->list.items[1];
  const Type *c = TYS(TY_C128), *to = n->ty;
  LLVMValueRef r, lb;
  if (to->kind == TY_C64 && numba_on_cpu(l)) {  /* Numba's quotient of complex64s */
    r = cmath_of(l, CM_LOG, x, to);
    return lo_binop_values(l, OP_DIV, to, r, to, cmath_of(l, CM_LOG, base, to), to);
  }
  if ((r = numba_cmath_log(l, CM_LOG, lo_expr(l, x), x->ty))) {
    lb = numba_cmath_log(l, CM_LOG, lo_expr(l, base), base->ty);
  } else {
    r = call_cmath(l, CM_LOG, lo_expr(l, x), x->ty, false);
    lb = call_cmath(l, CM_LOG, lo_expr(l, base), base->ty, true);
    lo_raise_if(l, LLVMBuildNot(l->b, lo_complex_truth(l, lb, c), ""), RT_ERR_VALUE, "math domain error");
  }
  return lo_convert(l, lo_binop_values(l, OP_DIV, c, r, c, lb, c), c, to);
}

/* phase's and polar's float type: float32 for a complex64 (or float32), as Numba's */
static const Type *polar_part(const Type *t) {
  return narrow_part(t) ? TYS(TY_F32) : TYS(TY_F64);
}

/* The float type a cmath function whose result's parts are `part` computes
 * in: that one in code written for Numba, as Numba's; float64 in ruchey's
 * own (CPython's value, and errors, rounded to the result's type after) */
static const Type *cmath_work(Lower *l, const Type *part) { return l->opts->numba_code ? part : TYS(TY_F64); }

static const Type *complex_of(const Type *part) { return part->kind == TY_F32 ? TYS(TY_C64) : TYS(TY_C128); }

static const Type *ty_phase(Infer *in, Node *n, const Type **args) {
  return ty_need_scalar(in, n, args[0], n->bi->name) ? polar_part(args[0]) : NULL;
}

static LLVMValueRef lo_phase(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  const Type *p = cmath_work(l, n->ty);
  LLVMValueRef z = lo_expr_as(l, x, complex_of(p));
  LLVMValueRef args[2] = {lo_complex_imag(l, z), lo_complex_real(l, z)};
  return lo_convert(l, lo_libm(l, "atan2", p, args, 2), p, n->ty);
}

static LLVMValueRef lo_cmath_predicate(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  return classify(l, n->bi->ival, x->ty, lo_expr(l, x));
}

static const Type *ty_cmath_predicate(Infer *in, Node *n, const Type **args) {
  return ty_need_scalar(in, n, args[0], n->bi->name) ? TYS(TY_BOOL) : NULL;
}

/* cmath.polar(z): (abs(z), phase(z)), abs raising OverflowError as CPython's */
static const Type *ty_polar(Infer *in, Node *n, const Type **args) {
  if (!ty_need_scalar(in, n, args[0], n->bi->name)) return NULL;
  const Type *f[2] = {polar_part(args[0]), polar_part(args[0])};
  return ty_tuple(2, f);
}

static LLVMValueRef lo_polar(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  const Type *part = n->ty->fields[0], *p = cmath_work(l, part), *c = complex_of(p);
  LLVMValueRef z = lo_expr_as(l, x, c);
  LLVMValueRef args[2] = {lo_complex_imag(l, z), lo_complex_real(l, z)};
  LLVMValueRef r = LLVMGetUndef(lo_type(l, n->ty));
  r = LLVMBuildInsertValue(l->b, r, lo_convert(l, lo_complex_abs(l, c, z), p, part), 0, "");
  return LLVMBuildInsertValue(l->b, r, lo_convert(l, lo_libm(l, "atan2", p, args, 2), p, part), 1, "");
}

/* cmath.rect(r, phi): r * (cos(phi) + sin(phi) j), with CPython's special
 * values: a zero phi keeps the imaginary part a signed zero (r * phi, 0 * phi
 * for an infinite r, +0 for NaN); an infinite or NaN phi gives 0 for a zero
 * r, (r, nan) for an infinite r (|r| where phi is NaN), else nan; a nonzero r
 * with an infinite phi raises ValueError, as CPython. */
static const Type *ty_rect(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < 2; i++)
    if (!ty_need_scalar(in, n->list.items[i], args[i], n->bi->name) || ty_is_complex(args[i]))
      return ty_error(in, n->list.items[i], "cmath.rect() needs real numbers, got %s", args[i]->name);
  return narrow_part(args[0]) && narrow_part(args[1]) ? TYS(TY_C64) : TYS(TY_C128);
}

/* rect of a phi that is infinite or NaN, in floats f */
static LLVMValueRef rect_of_nonfinite_phi(Lower *l, const Type *f, LLVMValueRef r, LLVMValueRef phi) {
  const Type *c = complex_of(f);
  LLVMValueRef zero = lo_fconst(l, f, 0.0), nan = lo_fconst(l, f, NAN), inf = lo_fconst(l, f, INFINITY);
  LLVMValueRef abs_r = lo_intrinsic1(l, "llvm.fabs", f, r);
  LLVMValueRef r_inf = fcmp(l, LLVMRealOEQ, abs_r, inf), r_zero = fcmp(l, LLVMRealOEQ, r, zero);
  LLVMValueRef phi_nan = fcmp(l, LLVMRealUNO, phi, phi);
  LLVMValueRef re = LLVMBuildSelect(l->b, r_inf, LLVMBuildSelect(l->b, phi_nan, abs_r, r, ""), nan, "");
  re = LLVMBuildSelect(l->b, r_zero, zero, re, "");
  return lo_complex_make(l, c, re, LLVMBuildSelect(l->b, r_zero, zero, nan, ""));
}

/* A part of Numba's rect: r times phi's cosine or sine, divided by an
 * infinite r where that is zero (its sign kept) */
static LLVMValueRef numba_rect_part(Lower *l, const Type *f, LLVMValueRef r, LLVMValueRef trig, LLVMValueRef r_inf) {
  LLVMValueRef by = LLVMBuildAnd(l->b, fcmp(l, LLVMRealOEQ, trig, lo_fconst(l, f, 0.0)), r_inf, "");
  return LLVMBuildSelect(l->b, by, LLVMBuildFDiv(l->b, trig, r, ""), LLVMBuildFMul(l->b, trig, r, ""), "");
}

/* cmath.rect(r, phi) as Numba writes it (numba/cpython/cmathimpl.py), in
 * floats f: no error; a non-finite phi gives |r| for a zero r, r + phi j
 * for an infinite one, else nan */
static LLVMValueRef numba_rect(Lower *l, const Type *f, LLVMValueRef r, LLVMValueRef phi) {
  const Type *c = complex_of(f);
  LLVMValueRef inf = lo_fconst(l, f, INFINITY), zero = lo_fconst(l, f, 0.0);
  LLVMValueRef abs_r = lo_intrinsic1(l, "llvm.fabs", f, r), r_inf = fcmp(l, LLVMRealOEQ, abs_r, inf);
  LLVMValueRef z = lo_complex_make(l, c, numba_rect_part(l, f, r, lo_libm(l, "cos", f, &phi, 1), r_inf),
                                   numba_rect_part(l, f, r, lo_libm(l, "sin", f, &phi, 1), r_inf));
  LLVMValueRef phi_finite = fcmp(l, LLVMRealOLT, lo_intrinsic1(l, "llvm.fabs", f, phi), inf);
  LLVMValueRef odd = LLVMBuildSelect(l->b, r_inf, lo_complex_make(l, c, r, phi), z, "");
  odd = LLVMBuildSelect(l->b, fcmp(l, LLVMRealOEQ, r, zero), lo_complex_make(l, c, abs_r, zero), odd, "");
  return LLVMBuildSelect(l->b, phi_finite, z, odd, "");
}

/* (of two float32s a complex64, computed in float32 in code written for
 * Numba, by Numba's formula) */
static LLVMValueRef lo_rect(Lower *l, Node *n) {
  const Type *f = cmath_work(l, lo_complex_part(n->ty)), *c = complex_of(f);
  LLVMValueRef r = lo_expr_as(l, n->list.items[0], f), phi = lo_expr_as(l, n->list.items[1], f);
  if (numba_on_cpu(l)) return lo_convert(l, numba_rect(l, f, r, phi), c, n->ty);
  LLVMValueRef zero = lo_fconst(l, f, 0.0), inf = lo_fconst(l, f, INFINITY);
  LLVMValueRef phi_inf = fcmp(l, LLVMRealOEQ, lo_intrinsic1(l, "llvm.fabs", f, phi), inf);
  if (!l->opts->kernel && !l->opts->device)
    lo_raise_if(l, LLVMBuildAnd(l->b, phi_inf, fcmp(l, LLVMRealONE, r, zero), ""), RT_ERR_VALUE, "math domain error");
  LLVMValueRef re = LLVMBuildFMul(l->b, r, lo_libm(l, "cos", f, &phi, 1), "");
  LLVMValueRef im = LLVMBuildFMul(l->b, r, lo_libm(l, "sin", f, &phi, 1), "");
  LLVMValueRef zero_im = LLVMBuildFMul(l->b, lo_intrinsic2(l, "llvm.copysign", f, zero, r), phi, "");
  zero_im = LLVMBuildSelect(l->b, fcmp(l, LLVMRealUNO, r, r), zero, zero_im, "");
  LLVMValueRef phi_zero = fcmp(l, LLVMRealOEQ, phi, zero);
  LLVMValueRef finite = lo_complex_make(l, c, LLVMBuildSelect(l->b, phi_zero, r, re, ""),
                                        LLVMBuildSelect(l->b, phi_zero, zero_im, im, ""));
  LLVMValueRef phi_finite = fcmp(l, LLVMRealOLT, lo_intrinsic1(l, "llvm.fabs", f, phi), inf);
  return lo_convert(l, LLVMBuildSelect(l->b, phi_finite, finite, rect_of_nonfinite_phi(l, f, r, phi), ""), c, n->ty);
}

/* x.view(dtype) of a NumPy scalar: its bits read as another number type of
 * the same size (numpy.uint32(x).view(numpy.float32)), as NumPy's and Numba's;
 * another size is NumPy's ValueError, a TypingError here. */
static const Type *ty_number_view(Infer *in, Node *n, const Type **args) {
  const Type *t = np_dtype_arg(in, n, 1, NULL);
  if (!t) return ty_failed(in) ? NULL : ty_error(in, n, "view() needs a dtype");
  if (!(ty_is_int(t) || ty_is_float(t) || t->kind == TY_BOOL))
    return ty_error(in, n, "%s.view(%s) is not supported: a scalar is viewed as a bool, an int or a float",
                    args[0]->name, t->name);
  if (ty_bits(t) != ty_bits(args[0]))
    return ty_error(in, n, "%s.view(%s) changes the item size, which a scalar's view cannot", args[0]->name, t->name);
  return t;
}

static LLVMValueRef lo_number_view(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef v = lo_expr(l, x);
  if (x->ty->kind == TY_BOOL) v = LLVMBuildZExt(l->b, v, l->mod->i8, "");  /* a bool's byte */
  if (n->ty->kind == TY_BOOL) return LLVMBuildICmp(l->b, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
  return LLVMBuildBitCast(l->b, v, lo_type(l, n->ty), "");
}

/* ---------------------------------------------------------------- the rows */

static const char *const out_kw[] = {"out", NULL};
static const char *const view_kw[] = {"dtype", NULL};
static const char *const deg_kw[] = {"deg", NULL};

/* x.item() of a number is x, of its own type (as Numba's, and as an array's
 * a.item() is its element's type): Python's float of a float32 scalar
 * would be the same value */
#define NUMBER_ITEM(kind, flags) \
  {"number.item", NULL, "item", BK_METHOD, kind, 0, 0, NULL, BF_PURE | BF_CHEAP | (flags), 0, 0, ty_same, lo_real_self}
#define SCALAR_PARTS(kind)                                                                                    \
  {"complex.real", NULL, "real", BK_ATTRIBUTE, kind, 0, 0, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0, ty_part, \
   lo_real_attr},                                                                                             \
  {"complex.imag", NULL, "imag", BK_ATTRIBUTE, kind, 0, 0, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0, ty_part, \
   lo_imag_attr},                                                                                             \
  {"complex.conjugate", NULL, "conjugate", BK_METHOD, kind, 0, 0, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0,  \
   ty_same, lo_conjugate_method},                                                                             \
  NUMBER_ITEM(kind, BF_COMPLEX)
#define REAL_PARTS(kind)                                                                                       \
  {"number.real", NULL, "real", BK_ATTRIBUTE, kind, 0, 0, NULL, BF_PURE | BF_CHEAP, 0, 0, ty_real_part,        \
   lo_real_self},                                                                                             \
  {"number.imag", NULL, "imag", BK_ATTRIBUTE, kind, 0, 0, NULL, BF_PURE | BF_CHEAP, 0, 0, ty_real_part,        \
   lo_real_zero},                                                                                             \
  {"number.conjugate", NULL, "conjugate", BK_METHOD, kind, 0, 0, NULL, BF_PURE | BF_CHEAP, 0, 0, ty_real_part, \
   lo_real_self},                                                                                             \
  {"number.view", NULL, "view", BK_METHOD, kind, 0, 1, view_kw, BF_PURE | BF_CHEAP, 0, 0, ty_number_view,       \
   lo_number_view},                                                                                           \
  NUMBER_ITEM(kind, 0)
/* numpy.real and its kin: ival says which part; the ufuncs (conjugate) take out= */
#define PARTS(name, which, type, kw) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, 1, 1, kw, BF_PURE | BF_CHEAP | BF_COMPLEX, which, 0, type, lo_parts, \
   lo_parts_elem}
/* numpy.f's complex row, which numpy.f's math.c row hands complex arguments to */
#define NUMPY_OF_COMPLEX(name, fn) \
  {"numpy." name " of complex", NULL, NULL, BK_FUNCTION, 0, 1, 1, out_kw, BF_PURE | BF_COMPLEX, fn, 0, ty_numpy_cmath, \
   lo_numpy_cmath, lo_numpy_cmath_elem}
#define PICK_OF_COMPLEX(name, which) \
  {"numpy." name " of complex", NULL, NULL, BK_FUNCTION, 0, 2, 2, out_kw, BF_PURE | BF_CHEAP | BF_COMPLEX, which, 0, \
   ty_numpy_cpick, lo_cpick, lo_cpick_elem}
#define PREDICATE_OF_COMPLEX(name, which) \
  {"numpy." name " of complex", NULL, NULL, BK_FUNCTION, 0, 1, 1, out_kw, BF_PURE | BF_CHEAP | BF_COMPLEX, which, 0, \
   ty_numpy_cpredicate, lo_cpredicate, lo_cpredicate_elem}
#define CMATH(name, fn) \
  {"cmath." name, "cmath", name, BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_RAISES | BF_COMPLEX, fn, 0, ty_cmath, lo_cmath}

const Builtin bi_complex[] = {
  {"complex", "builtins", "complex", BK_FUNCTION, 0, 0, 2, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0,
   ty_complex_call, lo_complex_call},
  SCALAR_PARTS(TY_C64), SCALAR_PARTS(TY_C128),
  REAL_PARTS(TY_BOOL), REAL_PARTS(TY_I8), REAL_PARTS(TY_I16), REAL_PARTS(TY_I32), REAL_PARTS(TY_I64),
  REAL_PARTS(TY_U8), REAL_PARTS(TY_U16), REAL_PARTS(TY_U32), REAL_PARTS(TY_U64), REAL_PARTS(TY_F32),
  REAL_PARTS(TY_F64),
  {"array.real", NULL, "real", BK_ATTRIBUTE, TY_ARRAY, 0, 0, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0, ty_array_part,
   lo_array_part},
  {"array.imag", NULL, "imag", BK_ATTRIBUTE, TY_ARRAY, 0, 0, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0, ty_array_part,
   lo_array_part},
  {"array.conjugate", NULL, "conjugate", BK_METHOD, TY_ARRAY, 0, 0, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 'c', 0,
   ty_elementwise_same, lo_parts, lo_parts_elem},
  {"array.conj", NULL, "conj", BK_METHOD, TY_ARRAY, 0, 0, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 'c', 0,
   ty_elementwise_same, lo_parts, lo_parts_elem},
  PARTS("real", 'r', ty_numpy_part, NULL),
  PARTS("imag", 'i', ty_numpy_part, NULL),
  {"numpy.angle", "numpy", "angle", BK_FUNCTION, 0, 1, 2, deg_kw, BF_PURE | BF_CHEAP | BF_COMPLEX, 'a', 0, ty_angle,
   lo_parts, lo_parts_elem},
  PARTS("conj", 'c', ty_elementwise_same, out_kw),
  PARTS("conjugate", 'c', ty_elementwise_same, out_kw),
  NUMPY_OF_COMPLEX("sqrt", CM_SQRT), NUMPY_OF_COMPLEX("exp", CM_EXP), NUMPY_OF_COMPLEX("log", CM_LOG),
  NUMPY_OF_COMPLEX("log10", CM_LOG10), NUMPY_OF_COMPLEX("sin", CM_SIN), NUMPY_OF_COMPLEX("cos", CM_COS),
  NUMPY_OF_COMPLEX("tan", CM_TAN), NUMPY_OF_COMPLEX("arcsin", CM_ASIN), NUMPY_OF_COMPLEX("arccos", CM_ACOS),
  NUMPY_OF_COMPLEX("arctan", CM_ATAN), NUMPY_OF_COMPLEX("sinh", CM_SINH), NUMPY_OF_COMPLEX("cosh", CM_COSH),
  NUMPY_OF_COMPLEX("tanh", CM_TANH), NUMPY_OF_COMPLEX("arcsinh", CM_ASINH), NUMPY_OF_COMPLEX("arccosh", CM_ACOSH),
  NUMPY_OF_COMPLEX("arctanh", CM_ATANH), NUMPY_OF_COMPLEX("exp2", CM_EXP2), NUMPY_OF_COMPLEX("log2", CM_LOG2),
  NUMPY_OF_COMPLEX("log1p", CM_LOG1P), NUMPY_OF_COMPLEX("expm1", CM_EXPM1),
  NUMPY_OF_COMPLEX("reciprocal", CM_RECIPROCAL), NUMPY_OF_COMPLEX("sign", CM_SIGN), NUMPY_OF_COMPLEX("rint", CM_RINT),
  PICK_OF_COMPLEX("maximum", 'M'), PICK_OF_COMPLEX("minimum", 'm'), PICK_OF_COMPLEX("fmax", 'F'),
  PICK_OF_COMPLEX("fmin", 'f'),
  {"numpy.float_power of complex", NULL, NULL, BK_FUNCTION, 0, 2, 2, out_kw, BF_PURE | BF_COMPLEX, 0, 0,
   ty_numpy_cfloat_power, lo_cfloat_power, lo_cfloat_power_elem},
  {"numpy.absolute of complex", NULL, NULL, BK_FUNCTION, 0, 1, 1, out_kw, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0,
   ty_numpy_cabs, lo_cabs, lo_cabs_elem},
  {"numpy.square of complex", NULL, NULL, BK_FUNCTION, 0, 1, 1, out_kw, BF_PURE | BF_CHEAP | BF_COMPLEX, 0, 0,
   ty_numpy_cmath, lo_csquare, lo_csquare_elem},
  {"numpy.power of complex", NULL, NULL, BK_FUNCTION, 0, 2, 2, out_kw, BF_PURE | BF_COMPLEX, 0, 0, ty_numpy_cpow,
   lo_cpow, lo_cpow_elem},
  {"numpy.sinc of complex", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_COMPLEX, 0, 0, ty_numpy_cmath, lo_csinc,
   lo_csinc_elem},
  PREDICATE_OF_COMPLEX("isnan", 'n'), PREDICATE_OF_COMPLEX("isinf", 'i'), PREDICATE_OF_COMPLEX("isfinite", 'f'),
  {"numpy.iscomplex", "numpy", "iscomplex", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX | BF_ARRAYLIKE, 'c',
   0, ty_numpy_cpredicate, lo_cpredicate, lo_cpredicate_elem},
  {"numpy.isreal", "numpy", "isreal", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX | BF_ARRAYLIKE, 'r', 0,
   ty_numpy_cpredicate, lo_cpredicate, lo_cpredicate_elem},
  CMATH("sqrt", CM_SQRT), CMATH("exp", CM_EXP), CMATH("log10", CM_LOG10),
  CMATH("sin", CM_SIN), CMATH("cos", CM_COS), CMATH("tan", CM_TAN),
  CMATH("asin", CM_ASIN), CMATH("acos", CM_ACOS), CMATH("atan", CM_ATAN),
  CMATH("sinh", CM_SINH), CMATH("cosh", CM_COSH), CMATH("tanh", CM_TANH),
  CMATH("asinh", CM_ASINH), CMATH("acosh", CM_ACOSH), CMATH("atanh", CM_ATANH),
  {"cmath.log", "cmath", "log", BK_FUNCTION, 0, 1, 2, NULL, BF_PURE | BF_RAISES | BF_COMPLEX, CM_LOG, 0, ty_cmath_log,
   lo_cmath_log},
  {"cmath.phase", "cmath", "phase", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_COMPLEX, 0, 0, ty_phase, lo_phase},
  {"cmath.polar", "cmath", "polar", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_RAISES | BF_COMPLEX, 0, 0, ty_polar,
   lo_polar},
  {"cmath.rect", "cmath", "rect", BK_FUNCTION, 0, 2, 2, NULL, BF_PURE | BF_COMPLEX, 0, 0, ty_rect, lo_rect},
  {"cmath.isnan", "cmath", "isnan", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 'n', 0,
   ty_cmath_predicate, lo_cmath_predicate},
  {"cmath.isinf", "cmath", "isinf", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 'i', 0,
   ty_cmath_predicate, lo_cmath_predicate},
  {"cmath.isfinite", "cmath", "isfinite", BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_CHEAP | BF_COMPLEX, 'f', 0,
   ty_cmath_predicate, lo_cmath_predicate},
  BI_END,
};
