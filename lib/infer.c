/* infer.c — types every expression and variable of a Func.
 *
 * A variable has one type: the unification of everything assigned to it
 * (int64 ∪ float64 = float64, as Numba). Loops can feed a variable's type
 * back into itself, so the body is typed repeatedly until no variable's type
 * changes; a last pass reports what is still unknown. Python literals are
 * "weak" as in NumPy 2 (NEP 50): 1.0 does not widen a float32 operand.
 */
#include <stdarg.h>
#include <stdio.h>

#include "ruchey.h"

typedef struct Infer {
  Func *f;
  const CompileOptions *opts;
  Diag *diag;
  bool changed;     /* a variable's type changed in this pass */
  bool final;       /* last pass: unknown types are errors */
  const Type *ret;  /* unification of the returned values' types */
  bool returns_none, returns_value;
} Infer;

static const Type *ty_expr(Infer *in, Node *n);
static bool ty_block(Infer *in, NodeList *l);

/* ---------------------------------------------------------------- errors, constructors */

static const Type *ty_error(Infer *in, const Node *n, const char *fmt, ...) {
  if (in->diag->kind) return NULL;
  in->diag->kind = DIAG_TYPING;
  in->diag->line = n->line;
  in->diag->col = n->col;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(in->diag->msg, sizeof in->diag->msg, fmt, ap);
  va_end(ap);
  return NULL;
}

static bool failed(Infer *in) { return in->diag->kind != 0; }

/* ---------------------------------------------------------------- promotion */

/* A literal written in the source, whose type yields to the other operand's
 * (NEP 50). */
static bool is_weak(const Node *n) {
  if (n->kind == N_UNARY && (n->op == OP_NEG || n->op == OP_POS)) return is_weak(n->lhs);
  return n->kind == N_INT || n->kind == N_FLOAT;
}

/* NumPy's promotion of two scalar types, with Numba's rule that integer
 * arithmetic happens in at least 64 bits. */
static const Type *promote(const Type *a, const Type *b) {
  if (ty_is_float(a) || ty_is_float(b)) {
    bool a32 = a->kind == TY_F32 || (!ty_is_float(a) && ty_bits(a) <= 16);
    bool b32 = b->kind == TY_F32 || (!ty_is_float(b) && ty_bits(b) <= 16);
    return a32 && b32 ? TYS(TY_F32) : TYS(TY_F64);
  }
  bool au = a->kind >= TY_U8 && a->kind <= TY_U64, bu = b->kind >= TY_U8 && b->kind <= TY_U64;
  if (au && bu) return TYS(TY_U64);
  if ((au && a->kind == TY_U64) || (bu && b->kind == TY_U64)) return TYS(TY_F64);
  return TYS(TY_I64);
}

/* Promotion of binary operands, honouring weak literals. */
static const Type *promote_operands(const Node *l, const Type *a, const Node *r, const Type *b) {
  bool wl = is_weak(l), wr = is_weak(r);
  if (wl != wr) {
    const Type *strong = wl ? b : a, *weak = wl ? a : b;
    if (ty_is_float(strong)) return strong;
    if (ty_is_int(strong) && ty_is_int(weak)) return promote(strong, strong);
  }
  return promote(a, b);
}

/* The type a variable takes when both a and b are assigned to it. */
static const Type *unify(Infer *in, const Type *a, const Type *b) {
  if (a == b) return a;
  if (ty_is_scalar(a) && ty_is_scalar(b)) {
    if (a->kind == TY_BOOL) return b;
    if (b->kind == TY_BOOL) return a;
    if (ty_is_int(a) && ty_is_int(b)) return promote(a, b);
    return ty_is_float(a) && ty_is_float(b) ? (a->kind > b->kind ? a : b) : TYS(TY_F64);
  }
  if (a->kind == TY_ARRAY && b->kind == TY_ARRAY && a->ndim == b->ndim &&
      (a->elem == b->elem)) {
    return ty_array(a->elem, a->ndim, a->layout == b->layout ? a->layout : 'A', a->readonly || b->readonly);
  }
  if (a->kind == TY_TUPLE && b->kind == TY_TUPLE && a->nfields == b->nfields) {
    const Type *fields[64];
    if (a->nfields > 64) return NULL;
    for (int i = 0; i < a->nfields; i++)
      if (!(fields[i] = unify(in, a->fields[i], b->fields[i]))) return NULL;
    return ty_tuple(a->nfields, fields);
  }
  return NULL;
}

/* ---------------------------------------------------------------- variables */

static void assign_var(Infer *in, Node *target, const Type *t) {
  const Type **slot = &in->f->var_types[target->var];
  if (!*slot) {
    *slot = t;
    in->changed = true;
  } else if (*slot != t) {
    const Type *u = unify(in, *slot, t);
    if (!u) {
      ty_error(in, target, "variable '%s' is assigned both %s and %s, which cannot be unified",
               in->f->var_names[target->var], (*slot)->name, t->name);
      return;
    }
    if (u != *slot) {
      *slot = u;
      in->changed = true;
    }
  }
  target->ty = *slot;
}

static const Type *ty_var(Infer *in, Node *n) {
  const Type *t = in->f->var_types[n->var];
  if (!t && in->final)
    return ty_error(in, n, "variable '%s' is used before it is assigned, or its type cannot be inferred",
                    in->f->var_names[n->var]);
  return t;
}

/* ---------------------------------------------------------------- expressions */

static const Type *need_scalar(Infer *in, Node *n, const Type *t, const char *what) {
  if (t && !ty_is_scalar(t))
    return ty_error(in, n, "%s needs a number, got %s", what, t->name);
  return t;
}

static const Type *ty_binop_types(Infer *in, Node *n, int op, Node *l, const Type *a, Node *r,
                                  const Type *b) {
  if (!ty_is_scalar(a) || !ty_is_scalar(b))
    return ty_error(in, n, "operator is not supported between %s and %s (array expressions are not supported: write a loop)",
                    a->name, b->name);
  switch (op) {
  case OP_DIV:  /* true division of ints and bools gives a float64 */
    if (!ty_is_float(a) && !ty_is_float(b)) return TYS(TY_F64);
    return promote_operands(l, a, r, b);
  case OP_POW:
    /* An integer power is an integer, except with a literal negative exponent,
     * where Python gives a float. */
    if (!ty_is_float(a) && !ty_is_float(b) &&
        ((r->kind == N_INT && r->ival < 0) || (r->kind == N_UNARY && r->op == OP_NEG && r->lhs->kind == N_INT)))
      return TYS(TY_F64);
    return promote_operands(l, a, r, b);
  case OP_LSHIFT: case OP_RSHIFT: case OP_BITAND: case OP_BITOR: case OP_BITXOR:
    if (ty_is_float(a) || ty_is_float(b))
      return ty_error(in, n, "bit operations need integers, got %s and %s", a->name, b->name);
    if (a->kind == TY_BOOL && b->kind == TY_BOOL && op >= OP_BITAND) return TYS(TY_BOOL);
    return promote_operands(l, a, r, b);
  default:
    return promote_operands(l, a, r, b);
  }
}

static const Type *ty_binop(Infer *in, Node *n) {
  const Type *a = ty_expr(in, n->lhs), *b = ty_expr(in, n->rhs);
  if (!a || !b) return NULL;
  return ty_binop_types(in, n, n->op, n->lhs, a, n->rhs, b);
}

static const Type *ty_unary(Infer *in, Node *n) {
  const Type *a = need_scalar(in, n, ty_expr(in, n->lhs), "unary operator");
  if (!a) return NULL;
  switch (n->op) {
  case OP_NOT: return TYS(TY_BOOL);
  case OP_INVERT:
    if (ty_is_float(a)) return ty_error(in, n, "~ needs an integer");
    return a->kind == TY_BOOL ? TYS(TY_I64) : promote(a, a);
  default:
    return ty_is_float(a) ? a : promote(a, a);
  }
}

static const Type *ty_compare(Infer *in, Node *n) {
  for (int i = 0; i < n->list.len; i++)
    if (!need_scalar(in, n->list.items[i], ty_expr(in, n->list.items[i]), "comparison"))
      return NULL;
  return TYS(TY_BOOL);
}

static const Type *ty_boolop(Infer *in, Node *n) {
  const Type *t = NULL;
  for (int i = 0; i < n->list.len; i++) {
    const Type *e = need_scalar(in, n->list.items[i], ty_expr(in, n->list.items[i]), "and/or");
    if (!e) return NULL;
    t = t ? unify(in, t, e) : e;
  }
  return t;
}

static const Type *ty_ifexp(Infer *in, Node *n) {
  const Type *c = need_scalar(in, n->cond, ty_expr(in, n->cond), "condition");
  const Type *a = ty_expr(in, n->lhs), *b = ty_expr(in, n->rhs);
  if (!c || !a || !b) return NULL;
  const Type *u = unify(in, a, b);
  if (!u) return ty_error(in, n, "the two branches have types %s and %s, which cannot be unified",
                          a->name, b->name);
  return u;
}

static const Type *ty_index(Infer *in, Node *n) {
  const Type *base = ty_expr(in, n->lhs);
  if (!base) return NULL;
  if (base->kind == TY_TUPLE) {
    if (n->rhs->kind != N_INT && !(n->rhs->kind == N_UNARY && n->rhs->op == OP_NEG &&
                                   n->rhs->lhs->kind == N_INT))
      return ty_error(in, n, "a tuple can only be indexed with a constant integer");
    int64_t i = n->rhs->kind == N_INT ? n->rhs->ival : -n->rhs->lhs->ival;
    if (i < 0) i += base->nfields;
    if (i < 0 || i >= base->nfields) return ty_error(in, n, "tuple index out of range");
    if (!ty_expr(in, n->rhs)) return NULL;
    return base->fields[i];
  }
  if (base->kind != TY_ARRAY) return ty_error(in, n, "%s cannot be indexed", base->name);
  Node *single[1] = {n->rhs};
  Node **items = n->rhs->kind == N_TUPLE ? n->rhs->list.items : single;
  int nidx = n->rhs->kind == N_TUPLE ? n->rhs->list.len : 1;
  if (nidx > base->ndim)
    return ty_error(in, n, "too many indices: %d for a %d-dimensional array", nidx, base->ndim);
  /* A view stays C-contiguous when it is some ints, then at most one slice
   * without a step, then nothing (the rest of the dimensions whole). */
  int kept = base->ndim - nidx;
  bool contiguous = base->layout == 'C';
  for (int i = 0; i < nidx; i++) {
    Node *it = items[i];
    if (it->kind == N_SLICE) {
      Node *parts[3] = {it->lhs, it->rhs, it->cond};
      for (int k = 0; k < 3; k++) {
        const Type *pt = parts[k] ? ty_expr(in, parts[k]) : TYS(TY_I64);
        if (!pt) return NULL;
        if (!ty_is_int(pt) && pt->kind != TY_BOOL)
          return ty_error(in, parts[k], "slice bounds must be integers, got %s", pt->name);
      }
      bool unit = !it->cond || (it->cond->kind == N_INT && it->cond->ival == 1);
      if (!unit || i != nidx - 1) contiguous = false;
      kept++;
    } else {
      const Type *t = ty_expr(in, it);
      if (!t) return NULL;
      if (!ty_is_int(t) && t->kind != TY_BOOL)
        return ty_error(in, it, "array index must be an integer or a slice, got %s", t->name);
    }
  }
  if (n->rhs->kind == N_TUPLE) {
    const Type *f[RC_MAX_NDIM];
    for (int i = 0; i < nidx; i++) f[i] = items[i]->ty ? items[i]->ty : TYS(TY_I64);
    n->rhs->ty = ty_tuple(nidx, f);
  } else if (n->rhs->kind == N_SLICE) {
    n->rhs->ty = TYS(TY_I64);
  }
  if (kept == 0) return base->elem;
  return ty_array(base->elem, kept, contiguous ? 'C' : 'A', base->readonly);
}

static const Type *ty_attr(Infer *in, Node *n) {
  const Type *base = ty_expr(in, n->lhs);
  if (!base) return NULL;
  if (base->kind != TY_ARRAY)
    return ty_error(in, n, "%s has no attribute 'shape', 'size', 'ndim', 'dtype' or 'T'", base->name);
  switch (n->op) {
  case ATTR_SHAPE: {
    const Type *f[RC_MAX_NDIM];
    for (int i = 0; i < base->ndim; i++) f[i] = TYS(TY_I64);
    return ty_tuple(base->ndim, f);
  }
  case ATTR_DTYPE: return ty_dtype(base->elem);
  case ATTR_T: {  /* the transpose: a view with the dimensions reversed */
    char layout = base->ndim < 2 ? base->layout : base->layout == 'C' ? 'F' : base->layout == 'F' ? 'C' : 'A';
    return ty_array(base->elem, base->ndim, layout, base->readonly);
  }
  default: return TYS(TY_I64);
  }
}

static const Type *ty_tuple_expr(Infer *in, Node *n) {
  const Type *f[64];
  if (n->list.len > 64) return ty_error(in, n, "tuples of more than 64 elements are not supported");
  for (int i = 0; i < n->list.len; i++)
    if (!(f[i] = ty_expr(in, n->list.items[i]))) return NULL;
  return ty_tuple(n->list.len, f);
}

/* ---------------------------------------------------------------- calls */

static Node *kwarg(Node *n, const char *name) {
  for (int i = 0; i < n->kw.len; i++)
    if (strcmp(n->kw_names[i], name) == 0) return n->kw.items[i];
  return NULL;
}

static const Type *check_arity(Infer *in, Node *n, const char *fname, int lo, int hi,
                               const char *const *kwnames) {
  if (n->list.len < lo || n->list.len > hi)
    return ty_error(in, n, "%s() takes %d to %d positional arguments, got %d", fname, lo, hi,
                    n->list.len);
  for (int i = 0; i < n->kw.len; i++) {
    bool known = false;
    for (int k = 0; kwnames && kwnames[k]; k++) known |= !strcmp(kwnames[k], n->kw_names[i]);
    if (!known) return ty_error(in, n, "%s() got an unsupported keyword argument '%s'", fname, n->kw_names[i]);
  }
  return TYS(TY_NONE);
}

/* The dtype argument of an allocation: positional slot pos or dtype=. */
static const Type *dtype_arg(Infer *in, Node *n, int pos, const Type *dflt) {
  Node *d = n->list.len > pos ? n->list.items[pos] : kwarg(n, "dtype");
  if (!d) return dflt;
  const Type *t = ty_expr(in, d);
  if (!t) return NULL;
  if (t->kind != TY_DTYPE)
    return ty_error(in, d, "dtype must be a NumPy scalar type such as numpy.float64");
  return t->elem;
}

/* The shape argument of numpy.empty/zeros/ones: an int or a tuple of ints. */
static int shape_ndim(Infer *in, Node *shape) {
  const Type *t = ty_expr(in, shape);
  if (!t) return -1;
  if (ty_is_int(t)) return 1;
  if (t->kind == TY_TUPLE && t->nfields <= RC_MAX_NDIM) {
    for (int i = 0; i < t->nfields; i++)
      if (!ty_is_int(t->fields[i])) goto bad;
    return t->nfields;
  }
bad:
  ty_error(in, shape, "shape must be an int or a tuple of ints, got %s", t->name);
  return -1;
}

static const char *const builtin_names[BI_MATH] = {
  "range", "prange", "len", "abs", "min", "max", "int", "float", "bool", "round",
  "numpy.empty", "numpy.zeros", "numpy.ones",
  "numpy.empty_like", "numpy.zeros_like", "numpy.ones_like", "numpy.arange", "copy",
  "get_thread_id", "get_num_threads",
  "a ruchey function",
  "cuda.threadIdx", "cuda.blockIdx", "cuda.blockDim", "cuda.gridDim", "cuda.grid", "cuda.gridsize",
  "cuda.syncthreads", "cuda.shared.array", "cuda.local.array", "cuda.atomic",
  "a NumPy scalar type",
};

static const struct { const char *math, *numpy; int nargs; } math_fns[MF_COUNT] = {
#define X(id, m, np, n, libm) {m, np, n},
  RC_MATH_FUNCS(X)
#undef X
};

/* math.f(x) and numpy.f(x) on scalars. math.* computes in float64 and
 * gives ints from floor/ceil/trunc, as CPython, except on float32 in CUDA
 * kernels and device functions (float32 there, as numba-cuda: a GPU's
 * float64 math is far slower); numpy.* keeps float32 and integer types
 * where NumPy does. */
static const Type *ty_math(Infer *in, Node *n, const Type **args) {
  bool is_np = n->op >= BI_NP;
  MathFn f = (MathFn)(n->op - (is_np ? BI_NP : BI_MATH));
  const char *name = is_np ? math_fns[f].numpy : math_fns[f].math;
  if (n->list.len != math_fns[f].nargs || n->kw.len)
    return ty_error(in, n, "%s.%s() takes %d argument(s)", is_np ? "numpy" : "math", name,
                    math_fns[f].nargs);
  const Type *t = args[0];
  for (int i = 0; i < n->list.len; i++) {
    if (!need_scalar(in, n->list.items[i], args[i], name)) return NULL;
    if (i) t = promote(t, args[i]);
  }
  switch (f) {
  case MF_ISNAN: case MF_ISINF: case MF_ISFINITE: return TYS(TY_BOOL);
  case MF_FLOOR: case MF_CEIL: case MF_TRUNC:
    if (!is_np) return TYS(TY_I64);
    break;
  case MF_NPABS: case MF_SIGN: case MF_FMIN: case MF_FMAX: case MF_POW:
    if (is_np && !ty_is_float(t)) return promote(t, t);
    break;
  default: break;
  }
  if (is_np && (t->kind == TY_F32 || (ty_is_int(t) && ty_bits(t) <= 16 && n->list.len == 1)))
    return TYS(TY_F32);
  if (t->kind == TY_F32 && in->opts && (in->opts->kernel || in->opts->device))
    return TYS(TY_F32);  /* CUDA code: math.* on float32 stays float32, as in numba-cuda */
  return TYS(TY_F64);
}

static const Type *ty_arange(Infer *in, Node *n, const Type **args) {
  static const char *const dtype_kw[] = {"dtype", NULL};
  if (!check_arity(in, n, "numpy.arange", 1, 3, dtype_kw)) return NULL;
  const Type *t = TYS(TY_I64);
  for (int i = 0; i < n->list.len; i++) {
    if (!ty_is_scalar(args[i])) return ty_error(in, n->list.items[i], "numpy.arange() needs numbers, got %s", args[i]->name);
    if (ty_is_float(args[i])) t = TYS(TY_F64);
  }
  const Type *elem = dtype_arg(in, n, 99, t);
  return elem ? ty_array(elem, 1, 'C', false) : NULL;
}

/* An integer literal argument, or -1. */
static int64_t literal_int(const Node *n) { return n && n->kind == N_INT ? n->ival : -1; }

/* cuda.shared.array / cuda.local.array(shape, dtype): constant shapes. */
static const Type *ty_cuda_array(Infer *in, Node *n) {
  Node *shape = n->list.len > 0 ? n->list.items[0] : kwarg(n, "shape");
  if (!shape) return ty_error(in, n, "%s() needs a shape", builtin_names[n->op]);
  int ndim = shape->kind == N_TUPLE ? shape->list.len : 1;
  for (int i = 0; i < ndim; i++)
    if (literal_int(shape->kind == N_TUPLE ? shape->list.items[i] : shape) < 0)
      return ty_error(in, shape, "the shape of %s() must be constant integers", builtin_names[n->op]);
  if (ndim < 1 || ndim > RC_MAX_NDIM) return ty_error(in, shape, "unsupported number of dimensions");
  const Type *elem = dtype_arg(in, n, 1, NULL);
  if (!elem) return failed(in) ? NULL : ty_error(in, n, "%s() needs a dtype", builtin_names[n->op]);
  ty_expr(in, shape);
  return ty_array(elem, ndim, 'C', false);
}

static const Type *ty_atomic(Infer *in, Node *n, const Type **args) {
  int want = n->ival == ATOM_CAS ? 4 : 3;
  if (n->list.len != want) return ty_error(in, n, "this atomic operation takes %d arguments", want);
  const Type *a = args[0], *idx = args[1];
  if (a->kind != TY_ARRAY) return ty_error(in, n, "atomics need an array, got %s", a->name);
  int nidx = idx->kind == TY_TUPLE ? idx->nfields : 1;
  for (int i = 0; i < nidx; i++)
    if (!ty_is_int(idx->kind == TY_TUPLE ? idx->fields[i] : idx))
      return ty_error(in, n->list.items[1], "an atomic's index must be integers");
  if (nidx != a->ndim) return ty_error(in, n, "the index must name one element of the %d-d array", a->ndim);
  TypeKind k = a->elem->kind;
  if (k != TY_I32 && k != TY_I64 && k != TY_U32 && k != TY_U64 && k != TY_F32 && k != TY_F64)
    return ty_error(in, n, "atomics work on int32, int64, uint32, uint64, float32 and float64, not %s", a->elem->name);
  if (n->ival == ATOM_CAS && ty_is_float(a->elem)) return ty_error(in, n, "compare-and-swap needs an integer array");
  for (int i = 2; i < want; i++)
    if (!need_scalar(in, n->list.items[i], args[i], "an atomic")) return NULL;
  return a->elem;
}

static const Type *ty_cuda(Infer *in, Node *n, const Type **args) {
  if (!in->opts || !(in->opts->kernel || in->opts->device))
    return ty_error(in, n, "%s is only valid inside a @cuda.jit kernel", builtin_names[n->op]);
  if (n->op == BI_CUDA_SYNC) in->f->barrier = true;
  if (in->opts->device && n->op == BI_CUDA_SHARED)
    return ty_error(in, n, "%s inside a device function is not supported on the CPU backend yet: "
                    "use it in the kernel", builtin_names[n->op]);
  switch (n->op) {
  case BI_CUDA_TID: case BI_CUDA_BID: case BI_CUDA_BDIM: case BI_CUDA_GDIM: return TYS(TY_I64);
  case BI_CUDA_GRID: case BI_CUDA_GRIDSIZE: {
    int64_t nd = n->list.len == 1 ? literal_int(n->list.items[0]) : -1;
    if (nd < 1 || nd > 3) return ty_error(in, n, "%s() takes a constant 1, 2 or 3", builtin_names[n->op]);
    if (nd == 1) return TYS(TY_I64);
    const Type *f[3] = {TYS(TY_I64), TYS(TY_I64), TYS(TY_I64)};
    return ty_tuple((int)nd, f);
  }
  case BI_CUDA_SYNC:
    if (n->list.len) return ty_error(in, n, "cuda.syncthreads() takes no arguments");
    return TYS(TY_NONE);
  case BI_CUDA_SHARED: case BI_CUDA_LOCAL: return ty_cuda_array(in, n);
  default: return ty_atomic(in, n, args);
  }
}

/* A call to another ruchey function: the extension compiles it for these
 * argument types (or says it is this function, recursively). */
static const Type *ty_jit_call(Infer *in, Node *n, const Type **args) {
  if (!in->opts || !in->opts->resolve) return ty_error(in, n, "calls to other functions are not available here");
  CallTarget *target = arena_alloc(in->f->arena, sizeof(CallTarget));
  Diag inner = {0};
  bool device = in->opts->kernel || in->opts->device;
  if (!in->opts->resolve(in->opts->resolve_ctx, n->callee, args, n->list.len, device, target, &inner)) {
    if (inner.kind == DIAG_TYPING && inner.msg[0])
      return ty_error(in, n, "in the function called here:\n%s", inner.msg);
    return ty_error(in, n, "%s", inner.msg[0] ? inner.msg : "the called function cannot be compiled");
  }
  n->target = target;
  if (target->barrier) in->f->barrier = true;
  if (!target->self) {
    if (!target->ret_type && in->final)
      return ty_error(in, n, "the type of this mutually recursive call is unknown: return a value "
                      "on a non-recursive path before the call");
    return target->ret_type;
  }
  /* recursion: the type comes from the returns typed so far */
  if (in->ret) return in->ret;
  if (in->final)
    return ty_error(in, n, "the type of this recursive call is unknown: return a value on a "
                    "non-recursive path before recursing");
  return NULL;
}

/* Kernels have no heap to put arrays in; neither has a device function
 * compiled for the GPU (on the CPU it may allocate). */
static bool no_allocation(const Infer *in) {
  return in->opts && (in->opts->kernel || in->opts->gpu_cc);
}

static const Type *ty_call(Infer *in, Node *n) {
  static const char *const dtype_kw[] = {"dtype", NULL};
  const Type *args[64];
  if (n->list.len > 64) return ty_error(in, n, "too many arguments");
  if (n->op >= BI_NP_EMPTY && n->op <= BI_COPY && no_allocation(in))
    return ty_error(in, n, "kernels cannot allocate arrays: use cuda.local.array or cuda.shared.array");
  if (n->op >= BI_NP_ARANGE) {
    for (int i = 0; i < n->list.len; i++)
      if (!(args[i] = ty_expr(in, n->list.items[i]))) return NULL;
    if (n->op >= BI_CUDA_TID && n->op <= BI_CUDA_ATOMIC) return ty_cuda(in, n, args);
    switch (n->op) {
    case BI_NP_ARANGE: return ty_arange(in, n, args);
    case BI_COPY:
      if (n->list.len != 1 || n->kw.len || args[0]->kind != TY_ARRAY)
        return ty_error(in, n, "copy() copies one array");
      return ty_array(args[0]->elem, args[0]->ndim, 'C', false);
    case BI_THREAD_ID: case BI_NUM_THREADS:
      if (n->list.len || n->kw.len) return ty_error(in, n, "%s() takes no arguments", builtin_names[n->op]);
      if (in->opts && (in->opts->kernel || in->opts->device))
        return ty_error(in, n, "%s() is not available in CUDA kernels: use cuda.grid() and the like",
                        builtin_names[n->op]);
      return TYS(TY_I64);
    case BI_JIT: return ty_jit_call(in, n, args);
    case BI_CAST:
      if (n->list.len != 1 || n->kw.len) return ty_error(in, n, "a NumPy scalar type takes one argument");
      return need_scalar(in, n, args[0], "conversion") ? TYS(n->ival) : NULL;
    default: return ty_math(in, n, args);
    }
  }
  const char *name = builtin_names[n->op];
  if (n->op != BI_NP_EMPTY && n->op != BI_NP_ZEROS && n->op != BI_NP_ONES &&
      n->op < BI_NP_EMPTY_LIKE) {
    if (!check_arity(in, n, name, n->op == BI_MIN || n->op == BI_MAX ? 2 : 1,
                     n->op == BI_RANGE || n->op == BI_PRANGE ? 3 : n->op == BI_MIN || n->op == BI_MAX ? 64
                     : n->op == BI_ROUND ? 2 : 1, NULL))
      return NULL;
    for (int i = 0; i < n->list.len; i++)
      if (!(args[i] = ty_expr(in, n->list.items[i]))) return NULL;
  }
  switch (n->op) {
  case BI_RANGE: case BI_PRANGE:
    for (int i = 0; i < n->list.len; i++)
      if (!ty_is_int(args[i]) && args[i]->kind != TY_BOOL)
        return ty_error(in, n->list.items[i], "range() arguments must be integers, got %s",
                        args[i]->name);
    return TYS(TY_RANGE);
  case BI_LEN:
    if (args[0]->kind == TY_ARRAY || args[0]->kind == TY_TUPLE) return TYS(TY_I64);
    return ty_error(in, n, "len() of %s is not supported", args[0]->name);
  case BI_ABS:
    if (!need_scalar(in, n, args[0], "abs()")) return NULL;
    return ty_is_float(args[0]) ? args[0] : promote(args[0], args[0]);
  case BI_MIN: case BI_MAX: {
    const Type *t = NULL;
    for (int i = 0; i < n->list.len; i++) {
      if (!need_scalar(in, n->list.items[i], args[i], name)) return NULL;
      t = t ? unify(in, t, args[i]) : args[i];
    }
    return t;
  }
  case BI_INT: return need_scalar(in, n, args[0], "int()") ? TYS(TY_I64) : NULL;
  case BI_FLOAT: return need_scalar(in, n, args[0], "float()") ? TYS(TY_F64) : NULL;
  case BI_BOOL: return need_scalar(in, n, args[0], "bool()") ? TYS(TY_BOOL) : NULL;
  case BI_ROUND:
    if (!need_scalar(in, n, args[0], "round()")) return NULL;
    if (n->list.len == 2) {
      if (!ty_is_int(args[1])) return ty_error(in, n->list.items[1], "round() ndigits must be an integer");
      return ty_is_float(args[0]) ? args[0] : promote(args[0], args[0]);
    }
    return TYS(TY_I64);
  case BI_NP_EMPTY: case BI_NP_ZEROS: case BI_NP_ONES: {
    if (!check_arity(in, n, name, 1, 2, dtype_kw)) return NULL;
    int ndim = shape_ndim(in, n->list.items[0]);
    const Type *elem = ndim > 0 ? dtype_arg(in, n, 1, TYS(TY_F64)) : NULL;
    return elem ? ty_array(elem, ndim, 'C', false) : NULL;
  }
  default: {  /* the *_like allocations */
    if (!check_arity(in, n, name, 1, 2, dtype_kw)) return NULL;
    const Type *proto = ty_expr(in, n->list.items[0]);
    if (!proto) return NULL;
    if (proto->kind != TY_ARRAY) return ty_error(in, n, "%s() needs an array, got %s", name, proto->name);
    const Type *elem = dtype_arg(in, n, 1, proto->elem);
    return elem ? ty_array(elem, proto->ndim, 'C', false) : NULL;
  }
  }
}

static const Type *ty_expr_kind(Infer *in, Node *n) {
  switch (n->kind) {
  case N_INT: return TYS(TY_I64);
  case N_FLOAT: return TYS(TY_F64);
  case N_BOOL: return TYS(TY_BOOL);
  case N_VAR: return ty_var(in, n);
  case N_DTYPE: return ty_dtype(TYS(n->ival));
  case N_MODULE: return ty_error(in, n, "a module cannot be used as a value");
  case N_BINOP: return ty_binop(in, n);
  case N_UNARY: return ty_unary(in, n);
  case N_COMPARE: return ty_compare(in, n);
  case N_BOOLOP: return ty_boolop(in, n);
  case N_IFEXP: return ty_ifexp(in, n);
  case N_CALL: return ty_call(in, n);
  case N_INDEX: return ty_index(in, n);
  case N_ATTR: return ty_attr(in, n);
  case N_TUPLE: return ty_tuple_expr(in, n);
  default: return ty_error(in, n, "internal error: statement used as an expression");
  }
}

static const Type *ty_expr(Infer *in, Node *n) {
  if (failed(in)) return NULL;
  return n->ty = ty_expr_kind(in, n);
}

/* ---------------------------------------------------------------- statements */

static void ty_store(Infer *in, Node *target, const Type *t, Node *at) {
  if (target->kind == N_VAR) {
    if (t->kind == TY_RANGE || t->kind == TY_DTYPE || t->kind == TY_NONE)
      ty_error(in, at, "a value of type %s cannot be stored in a variable", t->name);
    else
      assign_var(in, target, t);
  } else if (target->kind == N_INDEX) {
    const Type *elem = ty_expr(in, target);
    if (!elem) return;
    if (target->lhs->ty->kind == TY_TUPLE) {
      ty_error(in, target, "tuples are immutable");
    } else if (target->lhs->ty->readonly) {
      ty_error(in, target, "cannot write to a read-only array");
    } else if (elem->kind == TY_ARRAY) {  /* a view: filled with a scalar, or copied into */
      if (!ty_is_scalar(t) && !(t->kind == TY_ARRAY && t->ndim == elem->ndim))
        ty_error(in, at, "cannot store %s into %s", t->name, elem->name);
    } else if (!ty_is_scalar(t)) {
      ty_error(in, at, "cannot store %s into an element of %s", t->name,
               target->lhs->ty->name);
    }
  } else {  /* tuple unpacking */
    if (t->kind != TY_TUPLE || t->nfields != target->list.len) {
      ty_error(in, at, "cannot unpack %s into %d targets", t->name, target->list.len);
      return;
    }
    for (int i = 0; i < target->list.len && !failed(in); i++)
      ty_store(in, target->list.items[i], t->fields[i], at);
    target->ty = t;
  }
}

static void ty_return(Infer *in, Node *n) {
  if (!n->lhs) {
    in->returns_none = true;
    return;
  }
  const Type *t = ty_expr(in, n->lhs);
  if (!t) return;
  if (t->kind == TY_RANGE || t->kind == TY_DTYPE) {
    ty_error(in, n, "cannot return a value of type %s", t->name);
    return;
  }
  in->returns_value = true;
  const Type *u = in->ret ? unify(in, in->ret, t) : t;
  if (!u) ty_error(in, n, "returned types %s and %s cannot be unified", in->ret->name, t->name);
  in->ret = u;
  in->f->ret_type = u;  /* so far: what a mutually recursive callee sees */
}

static void ty_cond(Infer *in, Node *c) {
  need_scalar(in, c, ty_expr(in, c), "condition");
}

static void ty_stmt(Infer *in, Node *n) {
  switch (n->kind) {
  case N_ASSIGN: {
    const Type *t = ty_expr(in, n->rhs);
    if (t) ty_store(in, n->lhs, t, n->rhs);
    break;
  }
  case N_AUGASSIGN: {
    const Type *cur = ty_expr(in, n->lhs), *t = ty_expr(in, n->rhs);
    if (!cur || !t) break;
    const Type *r = ty_binop_types(in, n, n->op, n->lhs, cur, n->rhs, t);
    n->ty = r;
    if (r) ty_store(in, n->lhs, r, n);
    break;
  }
  case N_IF: case N_WHILE:
    ty_cond(in, n->cond);
    ty_block(in, &n->body);
    ty_block(in, &n->orelse);
    break;
  case N_FOR:
    if (ty_expr(in, n->cond)) ty_store(in, n->lhs, TYS(TY_I64), n->lhs);
    ty_block(in, &n->body);
    ty_block(in, &n->orelse);
    break;
  case N_RETURN: ty_return(in, n); break;
  case N_EXPR: ty_expr(in, n->lhs); break;
  case N_BLOCK: ty_block(in, &n->body); break;
  case N_ASSERT: ty_cond(in, n->cond); break;
  default: break;
  }
}

static bool ty_block(Infer *in, NodeList *l) {
  for (int i = 0; i < l->len && !failed(in); i++) ty_stmt(in, l->items[i]);
  return !failed(in);
}

static bool block_returns(const NodeList *l);

/* Whether a break in l (not inside a nested loop) leaves the loop. */
static bool block_breaks(const NodeList *l) {
  for (int i = 0; i < l->len; i++) {
    const Node *n = l->items[i];
    if (n->kind == N_BREAK) return true;
    if ((n->kind == N_IF || n->kind == N_BLOCK) &&
        (block_breaks(&n->body) || block_breaks(&n->orelse)))
      return true;
    if ((n->kind == N_FOR || n->kind == N_WHILE) && block_breaks(&n->orelse)) return true;
  }
  return false;
}

/* Whether control can never fall off the end of statement n. */
static bool stmt_returns(const Node *n) {
  switch (n->kind) {
  case N_RETURN: case N_RAISE: return true;
  case N_IF: return block_returns(&n->body) && block_returns(&n->orelse);
  case N_BLOCK: return block_returns(&n->body);
  case N_WHILE:  /* while True: without a break leaves only by returning */
    return n->cond->kind == N_BOOL && n->cond->ival && !block_breaks(&n->body);
  default: return false;
  }
}

static bool block_returns(const NodeList *l) {
  for (int i = 0; i < l->len; i++)
    if (stmt_returns(l->items[i])) return true;
  return false;
}

bool ty_infer(Func *f, const Type **argtypes, const CompileOptions *opts, Diag *diag) {
  Infer in = {.f = f, .opts = opts, .diag = diag};
  for (int i = 0; i < f->nparams; i++) f->var_types[i] = argtypes[i];
  for (int pass = 0; pass < 64; pass++) {
    in.changed = false;
    in.ret = NULL;
    in.returns_none = in.returns_value = false;
    if (!ty_block(&in, &f->body)) return false;
    if (!in.changed) break;
  }
  in.final = true;
  in.ret = NULL;
  in.returns_none = in.returns_value = false;
  if (!ty_block(&in, &f->body)) return false;
  if (in.returns_value && !block_returns(&f->body)) in.returns_none = true;
  if (in.returns_value && in.returns_none) {
    diag->kind = DIAG_TYPING;
    diag->line = f->line;
    snprintf(diag->msg, sizeof diag->msg,
             "function '%s' returns %s on some paths and None on others", f->name, in.ret->name);
    return false;
  }
  f->ret_type = in.returns_value ? in.ret : TYS(TY_NONE);
  if (opts && opts->kernel && in.returns_value) {
    diag->kind = DIAG_TYPING;
    diag->line = f->line;
    snprintf(diag->msg, sizeof diag->msg, "kernel '%s' returns a value: a @cuda.jit kernel must return None", f->name);
    return false;
  }
  if (opts && opts->declared_ret && !(opts->declared_ret == f->ret_type)) {
    const Type *want = opts->declared_ret;
    bool ok = (ty_is_scalar(want) && ty_is_scalar(f->ret_type)) ||
              (want->kind == TY_ARRAY && f->ret_type->kind == TY_ARRAY && want->ndim == f->ret_type->ndim &&
               (want->elem == f->ret_type->elem));
    if (!ok) {
      diag->kind = DIAG_TYPING;
      diag->line = f->line;
      snprintf(diag->msg, sizeof diag->msg, "function '%s' returns %s, but its signature declares %s",
               f->name, f->ret_type->name, want->name);
      return false;
    }
    f->ret_type = want;
  }
  return true;
}
