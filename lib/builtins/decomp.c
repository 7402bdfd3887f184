/* builtins/decomp.c — numpy.linalg's decompositions and what is built on
 * them (slogdet, cholesky, eigh, eigvalsh, eig, eigvals, svd, qr, lstsq,
 * pinv, norm, cond, matrix_rank, matrix_power), numpy.cov, corrcoef and
 * roots (the eigenvalues of the companion matrix).
 * The typers fix what the types can say: the result's dtypes (as
 * NumPy's: ints computed as float64 (matrix_power keeps them), float32
 * and complex64 kept; eig of a real matrix real, as Numba's), which
 * results a tuple holds (from the
 * constant compute_uv=, mode=), and a TypingError naming each keyword or
 * mode not supported. The lowerer hands the operands to rt_decomp
 * (decomp_rt.c), which checks the shapes and values as NumPy does; a
 * stack of matrices to rt_decomp_stack (stack_rt.c), norm along axes to
 * rt_norm_axes (norm_rt.c).
 */
#include "builtins/builtins.h"

/* None given or not (a constant string is typed as None too) */
static bool is_none(const Node *x) { return !x || x->kind == N_NONE || (x->kind != N_STRING && x->ty->kind == TY_NONE); }

static const Type *real_of(const Type *e) {
  return e->kind == TY_C64 ? TYS(TY_F32) : e->kind == TY_C128 ? TYS(TY_F64) : e;
}

/* The dtype numpy.linalg computes an operand of elem in: float64 for ints and bools. */
static const Type *work_of(const Type *e) { return bi_linalg_dtype(e, NULL); }

/* x: an array of lo..hi dimensions of numbers */
static bool matrix_arg(Infer *in, Node *n, Node *x, int lo, int hi) {
  const Type *t = x->ty;
  if (t->kind != TY_ARRAY || t->ndim < lo) {
    ty_error(in, x, "%s(): %d-dimensional array given. Array must be at least %s-dimensional", n->bi->name,
             ndim_of(t), lo == 2 ? "two" : "one");
    return false;
  }
  if (t->ndim > hi) {
    ty_error(in, x, "%s(): arrays of %d dimensions are not supported (stacks of matrices are not)", n->bi->name, t->ndim);
    return false;
  }
  if (!ty_is_scalar(t->elem)) {
    ty_error(in, x, "%s(): arrays of %s are not supported (numbers are)", n->bi->name, t->elem->name);
    return false;
  }
  return true;
}

/* An argument that must be a constant True or False (absent: dflt). */
static bool flag_const(Infer *in, Node *n, Node *x, bool dflt, bool *v) {
  *v = dflt;
  if (!x) return true;
  if (x->kind != N_BOOL && x->kind != N_INT) {
    ty_error(in, x, "%s(): this argument must be a constant True or False in compiled code", n->bi->name);
    return false;
  }
  *v = x->ival != 0;
  return true;
}

/* An argument that may be None or a number (known at run time). */
static bool none_or_number(Infer *in, Node *n, Node *x, const char *what) {
  if (is_none(x) || (ty_is_scalar(x->ty) && !ty_is_complex(x->ty))) return true;
  ty_error(in, x, "%s(): %s must be None or a number, got %s", n->bi->name, what, x->ty->name);
  return false;
}

/* An argument that may be a bool (absent or known at run time). */
static bool bool_arg(Infer *in, Node *n, Node *x, const char *what) {
  if (!x || x->ty->kind == TY_BOOL || ty_is_int(x->ty)) return true;
  ty_error(in, x, "%s(): %s must be a bool, got %s", n->bi->name, what, x->ty->name);
  return false;
}

/* hermitian= of svd, pinv, matrix_rank: a bool (True: by eigh, as NumPy's) */
static bool hermitian_arg(Infer *in, Node *n, Node *x) { return bool_arg(in, n, x, "hermitian"); }

static const char *string_arg(const Node *x) { return x && x->kind == N_STRING ? x->str : NULL; }

static bool is_corrcoef(const Node *n) { return !strcmp(n->bi->path, "corrcoef"); }

/* ord= of norm, p= of cond: None, a number, or 'fro' or 'nuc' (of a matrix) */
static bool order_arg(Infer *in, Node *n, Node *ord, int ndim) {
  const char *s = string_arg(ord);
  if (s && (ndim == 1 || (strcmp(s, "fro") && strcmp(s, "nuc")))) {
    ty_error(in, ord, "%s(): Invalid norm order '%s' for %s", n->bi->name, s, ndim == 1 ? "vectors" : "matrices");
    return false;
  }
  return s || none_or_number(in, n, ord, ord && ord->kind == N_STRING ? "ord" : n->bi->ival == DC_COND ? "p" : "ord");
}

/* ---------------------------------------------------------------- the typers */

static const Type *array1(const Type *e) { return ty_array(e, 1, 'C', false); }
static const Type *array2(const Type *e) { return ty_array(e, 2, 'C', false); }
static const Type *pair(const Type *a, const Type *b) { return ty_tuple(2, (const Type *[]){a, b}); }

/* A result of a stack of matrices, its stack of x dimensions more (numbers: arrays of them) */
static const Type *stacked(const Type *t, int x) {
  if (!x) return t;
  if (t->kind != TY_ARRAY) return ty_array(t, x, 'C', false);
  return ty_array(t->elem, t->ndim + x, 'C', false);
}

static const Type *stacked_of(const Type *t, int x) {
  if (t && t->kind == TY_TUPLE) {
    const Type *f[4];
    for (int i = 0; i < t->nfields; i++) f[i] = stacked(t->fields[i], x);
    return ty_tuple(t->nfields, f);
  }
  return t ? stacked(t, x) : NULL;
}

/* matrix_power(a, k): of ints and bools NumPy keeps a's dtype (products
 * wrap, of bools are logical); a negative power is a power of the inverse,
 * of float64: that only a constant exponent tells (a negative one known at
 * run time is a ValueError then). */
static const Type *power_dtype(const Type *elem, const Node *k) {
  if (ty_is_float(elem) || ty_is_complex(elem)) return elem;
  return k->kind == N_INT && k->ival < 0 ? TYS(TY_F64) : elem;
}

/* The result of the function of one square (or any) matrix a. */
static const Type *ty_matrix(Infer *in, Node *n, Node *a) {
  int op = n->bi->ival;
  bool uv;
  const Type *e = work_of(a->ty->elem), *r = real_of(e);
  switch (op) {
  case DC_SLOGDET: return pair(e, r);
  case DC_CHOLESKY: return bool_arg(in, n, bi_arg(n, 1, "upper"), "upper") ? array2(e) : NULL;
  case DC_EIG: return n->bi->path[3] == 'v' ? array1(e) : pair(array1(e), array2(e));  /* eigvals, eig */
  case DC_EIGH: {
    Node *u = bi_arg(n, 1, "UPLO");
    const char *s = string_arg(u);
    if (u && (!s || (strcmp(s, "L") && strcmp(s, "U"))))
      return ty_error(in, u, "%s(): UPLO argument must be 'L' or 'U'", n->bi->name);
    return n->bi->path[3] == 'v' ? array1(r) : pair(array1(r), array2(e));  /* eigvalsh, eigh */
  }
  case DC_SVD:
    /* full_matrices changes the sizes alone: known at run time */
    if (!flag_const(in, n, bi_arg(n, 2, "compute_uv"), true, &uv) || !hermitian_arg(in, n, bi_arg(n, 3, "hermitian")) ||
        !bool_arg(in, n, bi_arg(n, 1, "full_matrices"), "full_matrices"))
      return NULL;
    return uv ? ty_tuple(3, (const Type *[]){array2(e), array1(r), array2(e)}) : array1(r);
  case DC_QR: {
    Node *m = bi_arg(n, 1, "mode");
    const char *s = m ? string_arg(m) : "reduced";
    if (!s || (strcmp(s, "reduced") && strcmp(s, "complete") && strcmp(s, "r")))
      return ty_error(in, m, "%s(): mode=%s is not supported (mode 'reduced', 'complete' or 'r' is)", n->bi->name,
                      s ? s : "(not a constant string)");
    return !strcmp(s, "r") ? array2(e) : pair(array2(e), array2(e));
  }
  case DC_PINV:
    if (!none_or_number(in, n, bi_arg(n, 1, "rcond"), "rcond") || !hermitian_arg(in, n, bi_arg(n, 2, "hermitian")))
      return NULL;
    return array2(e);
  case DC_COND: return order_arg(in, n, bi_arg(n, 1, "p"), 2) ? r : NULL;
  default: {  /* matrix_power */
    Node *k = bi_arg(n, 1, "n");
    if (!k || !ty_is_int(k->ty)) return ty_error(in, n, "%s(): exponent must be an integer", n->bi->name);
    return array2(power_dtype(a->ty->elem, k));
  }
  }
}

/* The functions of one matrix, or of a stack of them (..., M, N): each
 * result with the stack's dimensions before its own. */
static const Type *ty_decomp(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0];
  if (!matrix_arg(in, n, a, 2, RC_MAX_NDIM)) return NULL;
  return stacked_of(ty_matrix(in, n, a), a->ty->ndim - 2);
}

static const Type *ty_lstsq(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  if (!matrix_arg(in, n, a, 2, 2) || !matrix_arg(in, n, b, 1, 2)) return NULL;
  if (!none_or_number(in, n, bi_arg(n, 2, "rcond"), "rcond")) return NULL;
  const Type *e = bi_linalg_dtype(a->ty->elem, b->ty->elem), *r = real_of(e);
  return ty_tuple(4, (const Type *[]){ty_array(e, b->ty->ndim, 'C', false), array1(r), TYS(TY_I64), array1(r)});
}

/* The axes norm's axis= names: 0 (None), 1 (an int or a 1-tuple), 2 (a
 * pair of ints); -1 after an error. */
static int norm_axes(Infer *in, Node *n, Node *axis) {
  const Type *t = is_none(axis) ? NULL : axis->ty;
  if (!t) return 0;
  if (ty_is_int(t)) return 1;
  bool ints = t->kind == TY_TUPLE && t->nfields >= 1;
  for (int i = 0; ints && i < t->nfields; i++) ints = ty_is_int(t->fields[i]);
  if (!ints) {
    ty_error(in, axis, "%s(): axis must be None, an integer or a tuple of integers, got %s", n->bi->name, t->name);
    return -1;
  }
  if (t->nfields > 2) {
    ty_error(in, axis, "%s(): Improper number of dimensions to norm.", n->bi->name);
    return -1;
  }
  return t->nfields;
}

/* numpy.linalg.norm(x, ord=None, axis=None, keepdims=False): of a vector
 * or matrix a number; along axis= a vector norm (an int) or a matrix norm
 * (a pair) of each line or matrix; without an axis and ord of more than two
 * dimensions the 2-norm of all elements. keepdims= must be a constant. */
static const Type *ty_norm(Infer *in, Node *n, const Type **args) {
  Node *x = n->list.items[0], *ord = bi_arg(n, 1, "ord"), *axis = bi_arg(n, 2, "axis"), *keep = bi_arg(n, 3, "keepdims");
  bool kd;
  if (!matrix_arg(in, n, x, 1, RC_MAX_NDIM) || !flag_const(in, n, keep, false, &kd)) return NULL;
  int nd = x->ty->ndim, naxes = norm_axes(in, n, axis);
  if (naxes < 0) return NULL;
  if (!naxes && nd > 2 && !is_none(ord))
    return ty_error(in, ord, "%s(): Improper number of dimensions to norm.", n->bi->name);
  if (naxes > nd)
    return ty_error(in, axis, "%s(): axis= names 2 axes of an array of %d dimension (AxisError)", n->bi->name, nd);
  if (!order_arg(in, n, ord, naxes ? naxes : nd > 2 ? 2 : nd)) return NULL;
  const Type *r = real_of(work_of(x->ty->elem));
  int left = kd ? nd : naxes ? nd - naxes : 0;
  return left ? ty_array(r, left, 'C', false) : r;
}

static const Type *ty_rank(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0];
  if (!matrix_arg(in, n, a, 1, RC_MAX_NDIM) || !none_or_number(in, n, bi_arg(n, 1, "tol"), "tol") ||
      !hermitian_arg(in, n, bi_arg(n, 2, "hermitian")))
    return NULL;
  return a->ty->ndim > 2 ? ty_array(TYS(TY_I64), a->ty->ndim - 2, 'C', false) : TYS(TY_I64);
}

/* A number x made the 0-d array numpy.asarray(x) in place (NumPy reads
 * one so); false after an error. */
static bool number_as_0d(Infer *in, Node *x) {
  return !(ty_is_scalar(x->ty) || ty_is_complex(x->ty)) || ty_wrap_call(in, x, "numpy.asarray");
}

/* Whether m is numpy.asarray of a tuple holding one tuple (((1.0, 2.0),)),
 * whose type tells it is one row: one variable, unless rowvar is False (a
 * constant False: many; one known at run time is checked then). */
static bool one_row_tuple(Node *n, Node *m) {
  Node *rowvar = bi_arg(n, 2, "rowvar"), *t = m->kind == N_CALL && m->list.len == 1 ? m->list.items[0] : NULL;
  if (!t || strcmp(m->bi->name, "numpy.asarray") || (rowvar && rowvar->kind == N_BOOL && !rowvar->ival)) return false;
  return t->ty->kind == TY_TUPLE && t->ty->nfields == 1 && t->ty->fields[0]->kind == TY_TUPLE;
}

/* numpy.cov(m, y=None, rowvar=True, bias=False, ddof=None) and
 * corrcoef(x, y=None, rowvar=True): of float64 (complex128); a 0-d cov
 * (corrcoef: a number) of a vector, or of a tuple holding one row,
 * without y, as Numba's */
static const Type *ty_cov(Infer *in, Node *n, const Type **args) {
  bool corr = is_corrcoef(n);
  Node *m = n->list.items[0], *y = bi_arg(n, 1, "y");
  if (!number_as_0d(in, m) || (!is_none(y) && !number_as_0d(in, y))) return NULL;
  if (!matrix_arg(in, n, m, 0, 2) || (!is_none(y) && !matrix_arg(in, n, y, 0, 2))) return NULL;
  if (!bool_arg(in, n, bi_arg(n, 2, "rowvar"), "rowvar")) return NULL;
  if (!corr && (!bool_arg(in, n, bi_arg(n, 3, "bias"), "bias") || !none_or_number(in, n, bi_arg(n, 4, "ddof"), "ddof")))
    return NULL;
  const Type *e = np_promote(m->ty->elem, is_none(y) ? TYS(TY_F64) : np_promote(y->ty->elem, TYS(TY_F64)));
  e = np_promote(e, TYS(TY_F64));
  if ((m->ty->ndim <= 1 || one_row_tuple(n, m)) && is_none(y)) return corr ? e : ty_array(e, 0, 'C', false);
  return array2(e);
}

/* numpy.roots(p): of a vector of coefficients (a tuple or list too) the
 * roots in its work dtype: real for real coefficients, as Numba's */
static const Type *ty_roots(Infer *in, Node *n, const Type **args) {
  Node *p = n->list.items[0];
  if (p->ty->kind == TY_LIST && !ty_wrap_call(in, p, "numpy.asarray")) return NULL;
  if (p->ty->kind == TY_ARRAY && p->ty->ndim != 1)
    return ty_error(in, p, "%s(): Input must be a rank-1 array, got %s", n->bi->name, p->ty->name);
  return matrix_arg(in, n, p, 1, 1) ? array1(work_of(p->ty->elem)) : NULL;
}

/* ---------------------------------------------------------------- lowering */

/* What the call computes: the flags its constant arguments set, and the
 * arguments that are known at run time only (a bool's flag, a number). */
typedef struct Call {
  int flags;
  Node *p;             /* the number (rcond, ord, tol, n, ddof), or NULL */
  Node *bits[2];       /* bools known at run time */
  int bit[2];
} Call;

static void runtime_bool(Call *c, Node *x, int bit, bool dflt) {
  if (!x) {
    c->flags |= dflt ? bit : 0;
    return;
  }
  int i = c->bits[0] ? 1 : 0;
  c->bits[i] = x, c->bit[i] = bit;
}

static Call call_of(Node *n) {
  Call c = {0};
  int op = n->bi->ival;
  bool eigvals = op == DC_EIG || op == DC_EIGH ? n->bi->path[3] == 'v' : false;
  if (!eigvals) c.flags |= LF_VECTORS;
  switch (op) {
  case DC_CHOLESKY: runtime_bool(&c, bi_arg(n, 1, "upper"), LF_UPPER, false); break;
  case DC_EIGH: {
    const char *s = string_arg(bi_arg(n, 1, "UPLO"));
    if (s && !strcmp(s, "U")) c.flags |= LF_UPPER;
    break;
  }
  case DC_SVD: {
    Node *uv = bi_arg(n, 2, "compute_uv");
    if (uv && !uv->ival) c.flags &= ~LF_VECTORS;
    runtime_bool(&c, bi_arg(n, 3, "hermitian"), LF_HERMITIAN, false);
    runtime_bool(&c, bi_arg(n, 1, "full_matrices"), LF_FULL, true);
    break;
  }
  case DC_QR: {
    const char *s = string_arg(bi_arg(n, 1, "mode"));
    if (s && !strcmp(s, "complete")) c.flags |= LF_COMPLETE;
    if (s && !strcmp(s, "r")) c.flags |= LF_R_ONLY;
    break;
  }
  case DC_LSTSQ: c.p = bi_arg(n, 2, "rcond"); break;
  case DC_PINV:
    c.p = bi_arg(n, 1, "rcond");
    runtime_bool(&c, bi_arg(n, 2, "hermitian"), LF_HERMITIAN, false);
    break;
  case DC_NORM: case DC_COND: {
    Node *ord = bi_arg(n, 1, op == DC_NORM ? "ord" : "p");
    const char *s = string_arg(ord);
    if (s) c.flags |= !strcmp(s, "fro") ? LF_FRO : LF_NUC;
    else c.p = ord;
    break;
  }
  case DC_RANK:
    c.p = bi_arg(n, 1, "tol");
    runtime_bool(&c, bi_arg(n, 2, "hermitian"), LF_HERMITIAN, false);
    break;
  case DC_POWER: c.p = bi_arg(n, 1, "n"); break;
  case DC_COV:
    if (is_corrcoef(n)) c.flags |= LF_CORR;
    runtime_bool(&c, bi_arg(n, 2, "rowvar"), LF_ROWVAR, true);
    if (!is_corrcoef(n)) runtime_bool(&c, bi_arg(n, 3, "bias"), LF_BIAS, false), c.p = bi_arg(n, 4, "ddof");
    if (n->ty->kind != TY_ARRAY || n->ty->ndim == 0) c.flags |= LF_SCALAR;
    break;
  }
  if (is_none(c.p) && !(c.flags & (LF_FRO | LF_NUC))) c.p = NULL, c.flags |= LF_DEFAULT;
  return c;
}

/* where each result comes from: out[k] (k >= 0) or the number at scalar[-1 - k] */
static int sources(Node *n, int flags, int *src) {
  switch (n->bi->ival) {
  case DC_SLOGDET: src[0] = -1, src[1] = -3; return 2;
  case DC_EIG: case DC_EIGH: src[0] = 0, src[1] = 1; return flags & LF_VECTORS ? 2 : 1;
  case DC_SVD:
    if (!(flags & LF_VECTORS)) break;
    src[0] = 0, src[1] = 1, src[2] = 2;
    return 3;
  case DC_QR:
    if (flags & LF_R_ONLY) return src[0] = 1, 1;
    src[0] = 0, src[1] = 1;
    return 2;
  case DC_LSTSQ: src[0] = 0, src[1] = 1, src[2] = -1, src[3] = 2; return 4;
  case DC_NORM: case DC_COND: case DC_RANK: src[0] = -1; return 1;
  case DC_COV: src[0] = n->ty->kind == TY_ARRAY ? 0 : -1; return 1;
  }
  src[0] = 0;
  return 1;
}

/* (of a stack, the numbers' stacks are arrays at out[2] and out[3]) */
static LLVMValueRef result(Lower *l, const Type *t, int src, LLVMValueRef out, LLVMValueRef scalar) {
  if (src < 0 && !scalar) src = src == -1 ? 2 : 3;
  if (src >= 0) return lo_load_storage(l, t, LLVMBuildGEP2(l->b, l->mod->rtarray, out, (LLVMValueRef[]){const_i32(l, src)}, 1, ""));
  const Type *from = ty_is_complex(t) ? TYS(TY_C128) : TYS(TY_F64);
  LLVMValueRef at = LLVMBuildGEP2(l->b, l->mod->f64, scalar, (LLVMValueRef[]){const_i32(l, -1 - src)}, 1, "");
  return lo_convert(l, lo_load_scalar(l, from, at), from, t);
}

/* norm with axis= or keepdims=, or of more than two dimensions */
static bool norm_by_axes(Node *n) {
  Node *axis = bi_arg(n, 2, "axis"), *keep = bi_arg(n, 3, "keepdims");
  return n->bi->ival == DC_NORM && (!is_none(axis) || (keep && keep->ival) || n->list.items[0]->ty->ndim > 2);
}

/* ... by rt_norm_axes(kind, a, nd, p, flags, naxes, ax0, ax1, keepdims, out, scalar) */
static LLVMValueRef lo_norm_axes(Lower *l, Node *n) {
  Node *a = n->list.items[0], *axis = bi_arg(n, 2, "axis"), *keep = bi_arg(n, 3, "keepdims");
  int nd = a->ty->ndim, naxes = nd <= 2 ? nd : 0;
  const Type *e = work_of(a->ty->elem), *i64 = TYS(TY_I64);
  Call c = call_of(n);
  ArrayOperands ops = bi_array_operands(l, a, NULL, e);
  LLVMValueRef p = c.p ? lo_expr_as(l, c.p, TYS(TY_F64)) : lo_fconst(l, TYS(TY_F64), 0);
  LLVMValueRef ax[2] = {const_i64(l, 0), const_i64(l, 1)};
  if (!is_none(axis) && axis->ty->kind == TY_TUPLE) {
    LLVMValueRef v = lo_expr(l, axis);
    naxes = axis->ty->nfields;
    for (int i = 0; i < naxes; i++) ax[i] = lo_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), axis->ty->fields[i], i64);
  } else if (!is_none(axis)) {
    naxes = 1, ax[0] = lo_expr_as(l, axis, i64);
  }
  LLVMValueRef out = lo_alloca(l, l->mod->rtarray, "norm.out"), scalar = lo_alloca(l, l->mod->f64, "norm");
  LLVMTypeRef pt[11] = {l->mod->i32, l->mod->ptr, l->mod->i32, l->mod->f64, l->mod->i32, l->mod->i32,
                        l->mod->i64, l->mod->i64, l->mod->i32, l->mod->ptr, l->mod->ptr};
  LLVMValueRef args[11] = {const_i32(l, (int)e->kind), ops.pa, const_i32(l, nd), p, const_i32(l, c.flags),
                           const_i32(l, naxes), ax[0], ax[1], const_i32(l, keep && keep->ival), out, scalar};
  bi_array_call_end(l, &ops, e, lo_call_fn(l, "rt_norm_axes", l->mod->i32, pt, args, 11));
  if (n->ty->kind == TY_ARRAY) return lo_load_storage(l, n->ty, out);
  return lo_convert(l, LLVMBuildLoad2(l->b, l->mod->f64, scalar, ""), TYS(TY_F64), n->ty);
}

static LLVMValueRef lo_decomp(Lower *l, Node *n) {
  if (norm_by_axes(n)) return lo_norm_axes(l, n);
  int op = n->bi->ival;
  Node *a = n->list.items[0], *b = op == DC_LSTSQ ? n->list.items[1] : op == DC_COV ? bi_arg(n, 1, "y") : NULL;
  if (is_none(b)) b = NULL;
  const Type *e = work_of(a->ty->elem);
  if (op == DC_LSTSQ) e = bi_linalg_dtype(a->ty->elem, b->ty->elem);
  if (op == DC_COV || op == DC_POWER) e = elem_of(n->ty);
  Call c = call_of(n);
  ArrayOperands ops = bi_array_operands(l, a, b, e);
  LLVMValueRef p = c.p ? lo_expr_as(l, c.p, TYS(TY_F64)) : lo_fconst(l, TYS(TY_F64), 0);
  if (op == DC_NORM && a->ty->ndim == 1 && l->opts->numba_code) c.flags |= LF_NRM2;
  LLVMValueRef flags = const_i32(l, c.flags);
  for (int i = 0; i < 2 && c.bits[i]; i++) {
    LLVMValueRef on = lo_expr_as(l, c.bits[i], TYS(TY_BOOL));
    flags = LLVMBuildOr(l->b, flags, LLVMBuildSelect(l->b, on, const_i32(l, c.bit[i]), const_i32(l, 0), ""), "");
  }
  LLVMValueRef out = lo_alloca(l, LLVMArrayType(l->mod->rtarray, 4), "decomp.out");
  LLVMValueRef scalar = lo_alloca(l, LLVMArrayType(l->mod->f64, 4), "decomp.scalar");
  LLVMTypeRef pt[10] = {l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->i32, l->mod->ptr,
                        l->mod->i32, l->mod->f64, l->mod->i32, l->mod->ptr, l->mod->ptr};
  LLVMValueRef args[10] = {const_i32(l, op), const_i32(l, (int)e->kind), ops.pa, const_i32(l, a->ty->ndim), ops.pb,
                           const_i32(l, b ? b->ty->ndim : 0), p, flags, out, scalar};
  bool stack = a->ty->ndim > 2 && op != DC_COV && op != DC_LSTSQ;
  if (stack) {  /* rt_decomp_stack(op, kind, a, nda, p, flags, out) */
    LLVMTypeRef st[7] = {pt[0], pt[1], pt[2], pt[3], pt[6], pt[7], pt[8]};
    LLVMValueRef sa[7] = {args[0], args[1], args[2], args[3], args[6], args[7], args[8]};
    bi_array_call_end(l, &ops, e, lo_call_fn(l, "rt_decomp_stack", l->mod->i32, st, sa, 7));
    scalar = NULL;
  } else {
    bi_array_call_end(l, &ops, e, lo_call_fn(l, "rt_decomp", l->mod->i32, pt, args, 10));
  }
  int src[4], count = sources(n, c.flags, src);
  if (n->ty->kind != TY_TUPLE) return result(l, n->ty, src[0], out, scalar);
  LLVMValueRef tuple = LLVMGetUndef(lo_type(l, n->ty));
  for (int i = 0; i < count; i++)
    tuple = LLVMBuildInsertValue(l->b, tuple, result(l, n->ty->fields[i], src[i], out, scalar), (unsigned)i, "");
  return tuple;
}

/* ---------------------------------------------------------------- the rows */

static const char *const upper_kw[] = {"upper", NULL};
static const char *const uplo_kw[] = {"UPLO", NULL};
static const char *const svd_kw[] = {"full_matrices", "compute_uv", "hermitian", NULL};
static const char *const qr_kw[] = {"mode", NULL};
static const char *const lstsq_kw[] = {"rcond", NULL};
static const char *const pinv_kw[] = {"rcond", "hermitian", NULL};
static const char *const norm_kw[] = {"ord", "axis", "keepdims", NULL};
static const char *const cond_kw[] = {"p", NULL};
static const char *const rank_kw[] = {"tol", "hermitian", NULL};
static const char *const power_kw[] = {"n", NULL};
static const char *const cov_kw[] = {"y", "rowvar", "bias", "ddof", NULL};
static const char *const corrcoef_kw[] = {"y", "rowvar", NULL};

#define DECOMP(name, op, least, most, kw, typer)                                                                   \
  {"numpy.linalg." name, "numpy.linalg", name, BK_FUNCTION, 0, least, most, kw,                                  \
   BF_ALLOCATES | BF_RAISES | BF_BLAS | BF_COMPLEX | BF_STRINGS | BF_NONE, op, 0, typer, lo_decomp}

const Builtin bi_decomp[] = {
  DECOMP("slogdet", DC_SLOGDET, 1, 1, NULL, ty_decomp),
  DECOMP("cholesky", DC_CHOLESKY, 1, 1, upper_kw, ty_decomp),
  DECOMP("eigh", DC_EIGH, 1, 2, uplo_kw, ty_decomp),
  DECOMP("eigvalsh", DC_EIGH, 1, 2, uplo_kw, ty_decomp),
  DECOMP("eig", DC_EIG, 1, 1, NULL, ty_decomp),
  DECOMP("eigvals", DC_EIG, 1, 1, NULL, ty_decomp),
  DECOMP("svd", DC_SVD, 1, 4, svd_kw, ty_decomp),
  DECOMP("qr", DC_QR, 1, 2, qr_kw, ty_decomp),
  DECOMP("pinv", DC_PINV, 1, 3, pinv_kw, ty_decomp),
  DECOMP("cond", DC_COND, 1, 2, cond_kw, ty_decomp),
  DECOMP("matrix_power", DC_POWER, 2, 2, power_kw, ty_decomp),
  DECOMP("lstsq", DC_LSTSQ, 2, 3, lstsq_kw, ty_lstsq),
  DECOMP("norm", DC_NORM, 1, 4, norm_kw, ty_norm),
  DECOMP("matrix_rank", DC_RANK, 1, 3, rank_kw, ty_rank),
  {"numpy.roots", "numpy", "roots", BK_FUNCTION, 0, 1, 1, NULL, BF_ALLOCATES | BF_RAISES | BF_BLAS | BF_COMPLEX | BF_ARRAYLIKE,
   DC_ROOTS, 0, ty_roots, lo_decomp},
  {"numpy.cov", "numpy", "cov", BK_FUNCTION, 0, 1, 5, cov_kw,
   BF_ALLOCATES | BF_RAISES | BF_BLAS | BF_COMPLEX | BF_STRINGS | BF_NONE | BF_ARRAYLIKE, DC_COV, 0, ty_cov, lo_decomp},
  {"numpy.corrcoef", "numpy", "corrcoef", BK_FUNCTION, 0, 1, 3, corrcoef_kw,
   BF_ALLOCATES | BF_RAISES | BF_BLAS | BF_COMPLEX | BF_STRINGS | BF_NONE | BF_ARRAYLIKE, DC_COV, 0, ty_cov, lo_decomp},
  BI_END,
};
