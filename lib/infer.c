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

#include "builtins/builtins.h"
#include "infer.h"
#include "ir.h"

static bool ty_block(Infer *in, NodeList *l);

/* ---------------------------------------------------------------- errors */

const Type *ty_error(Infer *in, const Node *n, const char *fmt, ...) {
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

bool ty_failed(const Infer *in) { return in->diag->kind != 0; }

bool ty_in_cuda(const Infer *in) { return in->opts && (in->opts->kernel || in->opts->device); }

/* Kernels have no heap to put arrays in; neither has a device function
 * compiled for the GPU (on the CPU it may allocate). */
bool ty_no_allocation(const Infer *in) { return in->opts && (in->opts->kernel || in->opts->gpu_cc); }

/* ---------------------------------------------------------------- promotion */

/* A literal written in the source, whose type yields to the other operand's
 * (NEP 50). */
bool ty_is_weak(const Node *n) {
  if (n->kind == N_UNARY && (n->op == OP_NEG || n->op == OP_POS)) return ty_is_weak(n->lhs);
  return n->kind == N_INT || n->kind == N_FLOAT;
}

static bool is_unsigned(const Type *t) { return t->kind >= TY_U8 && t->kind <= TY_U64; }

/* NumPy's promotion of two scalar types, with Numba's rule for integers:
 * arithmetic happens in 64 bits, unsigned only when both operands are (so
 * uint64 with int64 is int64, where NumPy would give float64). */
const Type *ty_promote(const Type *a, const Type *b) {
  if (ty_is_float(a) || ty_is_float(b)) {
    bool a32 = a->kind == TY_F32 || (!ty_is_float(a) && ty_bits(a) <= 16);
    bool b32 = b->kind == TY_F32 || (!ty_is_float(b) && ty_bits(b) <= 16);
    return a32 && b32 ? TYS(TY_F32) : TYS(TY_F64);
  }
  return is_unsigned(a) && is_unsigned(b) ? TYS(TY_U64) : TYS(TY_I64);
}

static bool is_negative_literal(const Node *n) {
  if (n->kind == N_UNARY && n->op == OP_POS) return is_negative_literal(n->lhs);
  if (n->kind == N_UNARY && n->op == OP_NEG) return n->lhs->kind == N_INT ? n->lhs->ival > 0 : !is_negative_literal(n->lhs);
  return n->kind == N_INT && n->ival < 0;
}

/* Promotion of binary operands, honouring weak literals. */
static const Type *promote_operands(const Node *l, const Type *a, const Node *r, const Type *b) {
  bool wl = ty_is_weak(l), wr = ty_is_weak(r);
  if (wl != wr) {
    const Type *strong = wl ? b : a, *weak = wl ? a : b;
    if (ty_is_float(strong)) return strong;
    /* a negative literal with an unsigned value: signed, as in Numba and
     * Python (NumPy 2 would refuse the literal) */
    if (ty_is_int(strong) && ty_is_int(weak)) return ty_promote(strong, is_negative_literal(wl ? l : r) ? weak : strong);
  }
  return ty_promote(a, b);
}

/* The type a variable takes when both a and b are assigned to it. */
const Type *ty_unify(const Type *a, const Type *b) {
  if (a == b) return a;
  if (ty_is_scalar(a) && ty_is_scalar(b)) {
    if (a->kind == TY_BOOL) return b;
    if (b->kind == TY_BOOL) return a;
    /* a variable holding uint64 and signed values is a float64, as in
     * Numba, which unifies numbers by NumPy's promotion */
    if (ty_is_int(a) && ty_is_int(b))
      return (a->kind == TY_U64 && !is_unsigned(b)) || (b->kind == TY_U64 && !is_unsigned(a)) ? TYS(TY_F64)
                                                                                             : ty_promote(a, b);
    return ty_is_float(a) && ty_is_float(b) ? (a->kind > b->kind ? a : b) : TYS(TY_F64);
  }
  if (a->kind == TY_ARRAY && b->kind == TY_ARRAY && a->ndim == b->ndim &&
      (a->elem == b->elem)) {
    return ty_array(a->elem, a->ndim, a->layout == b->layout ? a->layout : 'A', a->readonly || b->readonly);
  }
  if (ty_is_container(a)) return ty_unify_containers(a, b);
  if (a->kind == TY_TUPLE && b->kind == TY_TUPLE && a->nfields == b->nfields) {
    const Type *fields[64];
    if (a->nfields > 64) return NULL;
    for (int i = 0; i < a->nfields; i++)
      if (!(fields[i] = ty_unify(a->fields[i], b->fields[i]))) return NULL;
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
    const Type *u = ty_unify(*slot, t);
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

void ty_assign_var(Infer *in, Node *target, const Type *t) { assign_var(in, target, t); }

static const Type *ty_var(Infer *in, Node *n) {
  const Type *t = in->f->var_types[n->var];
  if (!t && in->final)
    return ty_error(in, n, "variable '%s' is used before it is assigned, or its type cannot be inferred",
                    in->f->var_names[n->var]);
  return t;
}

/* ---------------------------------------------------------------- expressions */

const Type *ty_need_scalar(Infer *in, Node *n, const Type *t, const char *what) {
  if (t && !ty_is_scalar(t))
    return ty_error(in, n, "%s needs a number, got %s", what, t->name);
  return t;
}

static const Type *ty_binop_types(Infer *in, Node *n, int op, Node *l, const Type *a, Node *r,
                                  const Type *b) {
  if (a->kind == TY_ARRAY || b->kind == TY_ARRAY) return ty_array_binop(in, n, op, l, a, r, b);
  if (!ty_is_scalar(a) || !ty_is_scalar(b))
    return ty_error(in, n, "operator is not supported between %s and %s", a->name, b->name);
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
    /* a shift has its left operand's type, as in Numba (a literal's yields) */
    if ((op == OP_LSHIFT || op == OP_RSHIFT) && !ty_is_weak(l)) return ty_promote(a, a);
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
  const Type *a = ty_expr(in, n->lhs);
  if (a && a->kind == TY_ARRAY) return ty_array_unary(in, n, n->op, a);
  if (!ty_need_scalar(in, n, a, "unary operator")) return NULL;
  switch (n->op) {
  case OP_NOT: return TYS(TY_BOOL);
  case OP_INVERT:
    if (ty_is_float(a)) return ty_error(in, n, "~ needs an integer");
    return a->kind == TY_BOOL ? TYS(TY_I64) : ty_promote(a, a);
  default:
    return ty_is_float(a) ? a : ty_promote(a, a);
  }
}

static const Type *ty_compare(Infer *in, Node *n) {
  const Type *t[64];
  bool arrays = false;
  if (n->list.len > 64) return ty_error(in, n, "too many comparisons");
  for (int i = 0; i < n->list.len; i++) {
    if (!(t[i] = ty_expr(in, n->list.items[i]))) return NULL;
    arrays |= t[i]->kind == TY_ARRAY;
  }
  if (arrays) return ty_array_compare(in, n, t[0], t[1]);
  for (int i = 0; i < n->list.len; i++)
    if (!ty_need_scalar(in, n->list.items[i], t[i], "comparison")) return NULL;
  return TYS(TY_BOOL);
}

static const Type *ty_boolop(Infer *in, Node *n) {
  const Type *t = NULL;
  for (int i = 0; i < n->list.len; i++) {
    const Type *e = ty_need_scalar(in, n->list.items[i], ty_expr(in, n->list.items[i]), "and/or");
    if (!e) return NULL;
    t = t ? ty_unify(t, e) : e;
  }
  return t;
}

static const Type *ty_ifexp(Infer *in, Node *n) {
  const Type *c = ty_need_scalar(in, n->cond, ty_expr(in, n->cond), "condition");
  const Type *a = ty_expr(in, n->lhs), *b = ty_expr(in, n->rhs);
  if (!c || ty_failed(in)) return NULL;
  /* a branch not typed yet (a recursive call before the function's return
   * type is known): the other one's type, until a later pass */
  if (!a || !b) return in->final ? NULL : a ? a : b;
  const Type *u = ty_unify(a, b);
  if (!u) return ty_error(in, n, "the two branches have types %s and %s, which cannot be unified",
                          a->name, b->name);
  return u;
}

static const Type *ty_index(Infer *in, Node *n) {
  const Type *base = ty_expr(in, n->lhs);
  if (!base) return NULL;
  if (base->kind == TY_LIST) return ty_list_index(in, n, base);
  if (base->kind == TY_DICT) return ty_dict_index(in, n, base);
  if (n->str && (base->kind != TY_ARRAY || base->ndim == 0))  /* for v in base */
    return ty_error(in, n, base->kind == TY_ARRAY ? "iteration over a 0-d array"
                                                   : "for loops over %s are not supported: iterate over an array, "
                                                     "a range, enumerate or zip", base->name);
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
  return ty_array_index(in, n, base);
}

static const Type *ty_tuple_expr(Infer *in, Node *n) {
  const Type *f[64];
  if (n->list.len > 64) return ty_error(in, n, "tuples of more than 64 elements are not supported");
  for (int i = 0; i < n->list.len; i++)
    if (!(f[i] = ty_expr(in, n->list.items[i]))) return NULL;
  return ty_tuple(n->list.len, f);
}

/* ---------------------------------------------------------------- calls */

Node *ty_kwarg(Node *n, const char *name) {
  for (int i = 0; i < n->kw.len; i++)
    if (strcmp(n->kw_names[i], name) == 0) return n->kw.items[i];
  return NULL;
}

/* The call's arguments against the row: how many, which keywords. */
static bool check_arity(Infer *in, Node *n, const Builtin *bi, int given) {
  if (given < bi->min_args || given > bi->max_args) {
    if (bi->max_args == 0) ty_error(in, n, "%s() takes no arguments", bi->name);
    else if (bi->min_args == bi->max_args) ty_error(in, n, "%s() takes %d argument%s, got %d", bi->name, bi->min_args, bi->min_args == 1 ? "" : "s", given);
    else ty_error(in, n, "%s() takes %d to %d positional arguments, got %d", bi->name, bi->min_args, bi->max_args, given);
    return false;
  }
  for (int i = 0; i < n->kw.len; i++) {
    bool known = false;
    for (int k = 0; bi->keywords && bi->keywords[k]; k++) known |= !strcmp(bi->keywords[k], n->kw_names[i]);
    if (!known) {
      ty_error(in, n, "%s() got an unsupported keyword argument '%s'", bi->name, n->kw_names[i]);
      return false;
    }
  }
  return true;
}

/* What the builtin's row allows here, before it is typed. */
static bool check_place(Infer *in, Node *n, const Builtin *bi) {
  if ((bi->flags & BF_ALLOCATES) && ty_no_allocation(in))
    return ty_error(in, n, "kernels cannot allocate arrays: use cuda.local.array or cuda.shared.array") != NULL;
  if ((bi->flags & BF_KERNEL) && !ty_in_cuda(in))
    return ty_error(in, n, "%s is only valid inside a @cuda.jit kernel", bi->name) != NULL;
  return true;
}

/* None where the builtin reads it (BF_NONE) is typed NoneType; its typer
 * tells it from a string (also NoneType) by the node's kind. */
static const Type *ty_call_arg(Infer *in, Node *n, Node *x) {
  if (x->kind == N_NONE && (n->bi->flags & BF_NONE)) return x->ty = TYS(TY_NONE);
  return ty_expr(in, x);
}

/* A call: every argument typed, then the builtin's typer. A method's row
 * is found from its receiver's type, the first argument. */
static const Type *ty_call(Infer *in, Node *n) {
  const Type *args[64];
  if (n->list.len > 64) return ty_error(in, n, "too many arguments");
  int first = 0;  /* a method's receiver is typed first: its type finds the row */
  if (!n->bi) {
    if (!(args[0] = ty_expr(in, n->list.items[0]))) return NULL;
    if (!(n->bi = bi_member(args[0]->kind, BK_METHOD, n->str)))
      return ty_error(in, n, "%s has no method '%s' in compiled code", args[0]->name, n->str);
    first = 1;
  }
  for (int i = first; i < n->list.len; i++)
    if (!(args[i] = ty_call_arg(in, n, n->list.items[i]))) return NULL;
  for (int i = 0; i < n->kw.len; i++)
    if (!ty_call_arg(in, n, n->kw.items[i])) return NULL;
  int given = n->list.len - (n->bi->kind == BK_METHOD);
  if (!check_place(in, n, n->bi) || !check_arity(in, n, n->bi, given)) return NULL;
  const Type *t = n->bi->type(in, n, args);
  return n->bi->lower_elem ? ty_ufunc_out(in, n, t) : t;
}

/* a.attr: the attribute's row from a's type. */
static const Type *ty_attr(Infer *in, Node *n) {
  const Type *base = ty_expr(in, n->lhs);
  if (!base) return NULL;
  const Builtin *bi = bi_member(base->kind, BK_ATTRIBUTE, n->str);
  if (!bi) return ty_error(in, n, "%s has no attribute '%s' in compiled code", base->name, n->str);
  n->bi = bi;
  return bi->type(in, n, &base);
}

static const Type *ty_expr_kind(Infer *in, Node *n) {
  switch (n->kind) {
  case N_INT: return TYS(TY_I64);
  case N_FLOAT: return TYS(TY_F64);
  case N_BOOL: return TYS(TY_BOOL);
  case N_VAR: return ty_var(in, n);
  case N_DTYPE: return ty_dtype(TYS(n->ival));
  case N_CONST_ARRAY: return ty_array(TYS(n->op), n->list.len, 'C', true);
  case N_STRING: return TYS(TY_NONE);  /* only what takes strings reads it (print) */
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
  case N_NONE: return ty_error(in, n, "None is only supported as a return value, or in an index (numpy.newaxis)");
  case N_ELLIPSIS: return ty_error(in, n, "Ellipsis (...) is only supported in an index");
  default: return ty_error(in, n, "internal error: statement used as an expression");
  }
}

const Type *ty_expr(Infer *in, Node *n) {
  if (ty_failed(in)) return NULL;
  return n->ty = ty_expr_kind(in, n);
}

/* ---------------------------------------------------------------- statements */

static void ty_store(Infer *in, Node *target, const Type *t, Node *at) {
  if (target->kind == N_VAR) {
    if (t->kind == TY_RANGE || t->kind == TY_DTYPE || t->kind == TY_NONE)
      ty_error(in, at, "a value of type %s cannot be stored in a variable", t->name);
    else
      assign_var(in, target, t);
    if (ty_is_container(t) && at->ty == t && target->ty) at->ty = target->ty;  /* x = []: as x's appends type it */
  } else if (target->kind == N_INDEX && (ty_expr(in, target->lhs), ty_failed(in))) {
    return;
  } else if (target->kind == N_INDEX && target->lhs->ty && target->lhs->ty->kind == TY_LIST) {
    ty_list_store(in, target, t, at);
  } else if (target->kind == N_INDEX && target->lhs->ty && target->lhs->ty->kind == TY_DICT) {
    ty_dict_store(in, target, t, at);
  } else if (target->kind == N_INDEX) {
    const Type *elem = ty_expr(in, target);
    if (!elem) return;
    if (target->lhs->ty->kind == TY_TUPLE) {
      ty_error(in, target, "tuples are immutable");
    } else if (target->lhs->ty->readonly) {
      ty_error(in, target, "cannot write to a read-only array");
    } else if (elem->kind == TY_ARRAY) {  /* a view, or the elements an array index selects */
      ty_index_store(in, target, t, at);
    } else if (!ty_is_scalar(t)) {
      ty_error(in, at, "cannot store %s into an element of %s", t->name,
               target->lhs->ty->name);
    }
  } else {  /* tuple unpacking */
    if (t->kind != TY_TUPLE || t->nfields != target->list.len) {
      ty_error(in, at, "cannot unpack %s into %d targets", t->name, target->list.len);
      return;
    }
    for (int i = 0; i < target->list.len && !ty_failed(in); i++)
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
  const Type *u = in->ret ? ty_unify(in->ret, t) : t;
  if (!u) ty_error(in, n, "returned types %s and %s cannot be unified", in->ret->name, t->name);
  in->ret = u;
  in->f->ret_type = u;  /* so far: what a mutually recursive callee sees */
}

static void ty_cond(Infer *in, Node *c) {
  ty_need_scalar(in, c, ty_expr(in, c), "condition");
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
    if (cur->kind == TY_ARRAY) {  /* in place: the array keeps its identity and dtype */
      const Node *t = n->lhs;
      if (cur->readonly || (t->kind == N_INDEX && t->lhs->ty->kind == TY_ARRAY && t->lhs->ty->readonly)) {
        ty_error(in, t, "cannot write to a read-only array");
        break;
      }
      n->ty = ty_array_update(in, n, cur, r);
      break;
    }
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
  for (int i = 0; i < l->len && !ty_failed(in); i++) ty_stmt(in, l->items[i]);
  return !ty_failed(in);
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
  f->depth = ir_depth(&f->body);
  if (!rc_nesting_fits(f->depth, rt_stack_limit())) {
    diag->kind = DIAG_RECURSION;
    diag->line = f->line;
    snprintf(diag->msg, sizeof diag->msg,
             "maximum recursion depth exceeded during compilation: '%s' nests %d deep, more than this thread's "
             "stack can compile", f->name, f->depth);
    return false;
  }
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
