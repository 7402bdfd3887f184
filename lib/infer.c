/* infer.c — types every expression and variable of a Func.
 *
 * A variable has one type: the unification of everything assigned to it
 * (int64 ∪ float64 = float64, as Numba). Loops can feed a variable's type
 * back into itself, so the body is typed repeatedly until no variable's type
 * changes; a last pass reports what is still unknown. A literal in scalar
 * arithmetic is an int64 or a float64, as in Numba (and NumPy 1's scalars):
 * x * 0.5 of a float32 x is a float64, where NumPy 2 (NEP 50) keeps float32;
 * in array expressions and NumPy's functions literals stay "weak" (NEP 50),
 * as both NumPys keep a float32 array float32 there.
 */
#include <stdarg.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "builtins/builtins.h"
#include "infer.h"
#include "ir.h"

static bool ty_block(Infer *in, NodeList *l);
static int known_condition(const Infer *in, const Node *cond);
static bool stmt_returns(const Node *n);
static bool block_returns(const NodeList *l);
static const Type *value_of(const Type *t);
static const Type *ty_unwrapped(const Type *t);

/* ---------------------------------------------------------------- errors */

void ty_diag(Diag *d, const Node *n, const char *fmt, va_list ap) {
  if (d->kind) return;  /* the first error is the one reported */
  d->kind = DIAG_TYPING;
  d->line = n->line;
  d->col = n->col;
  vsnprintf(d->msg, sizeof d->msg, fmt, ap);
}

const Type *ty_error(Infer *in, const Node *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ty_diag(in->diag, n, fmt, ap);
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

/* The narrowest float holding a number of type t: a float's own width; for
 * ints, float16 holds 8 bits, float32 16 (NumPy's promote_types). */
int ty_float_width(const Type *t) {
  if (ty_is_float(t)) return t->bits;
  return t->bits <= 8 ? 16 : t->bits <= 16 ? 32 : 64;
}

/* NumPy's promotion of two scalar types, with Numba's rule for integers:
 * arithmetic happens in 64 bits, unsigned only when both operands are (so
 * uint64 with int64 is int64, where NumPy would give float64). */
const Type *ty_promote(const Type *a, const Type *b) {
  if (ty_is_complex(a) || ty_is_complex(b)) {  /* complex64 only from complex64, float32 and small ints */
    bool a64 = a->kind == TY_C64 || (!ty_is_complex(a) && ty_float_width(a) <= 32);
    bool b64 = b->kind == TY_C64 || (!ty_is_complex(b) && ty_float_width(b) <= 32);
    return a64 && b64 ? TYS(TY_C64) : TYS(TY_C128);
  }
  if (ty_is_float(a) || ty_is_float(b)) {
    int w = ty_float_width(a) > ty_float_width(b) ? ty_float_width(a) : ty_float_width(b);
    return TYS(w == 16 ? TY_F16 : w == 32 ? TY_F32 : TY_F64);
  }
  return is_unsigned(a) && is_unsigned(b) ? TYS(TY_U64) : TYS(TY_I64);
}

/* Two tuples of as many items: each pair unified, or NULL. */
static const Type *unify_tuples(const Type *a, const Type *b) {
  const Type **fields = malloc(sizeof(Type *) * (size_t)(a->nfields ? a->nfields : 1)), *t = NULL;
  if (!fields) abort();
  int i = 0;
  while (i < a->nfields && (fields[i] = ty_unify(a->fields[i], b->fields[i]))) i++;
  if (i == a->nfields)
    t = a->callee && a->callee == b->callee ? ty_named_tuple(a->nfields, fields, a->names, a->callee)
                                            : ty_tuple(a->nfields, fields);
  free(fields);
  return t;
}

const Type *ty_unify(const Type *a, const Type *b) {
  if (a == b) return a;
  /* a value on some paths and None on others: Optional, as Numba */
  if (a->kind == TY_NONE || b->kind == TY_NONE) return ty_optional(a->kind == TY_NONE ? b : a);
  if (a->kind == TY_OPTIONAL || b->kind == TY_OPTIONAL) {
    const Type *u = ty_unify(a->kind == TY_OPTIONAL ? a->elem : a, b->kind == TY_OPTIONAL ? b->elem : b);
    return u ? ty_optional(u) : NULL;
  }
  if (ty_is_time(a) || ty_is_time(b)) return ty_time_unify(a, b);
  if ((a->kind == TY_INTENUM || b->kind == TY_INTENUM) && a->kind != TY_ENUM && b->kind != TY_ENUM)
    return ty_unify(ty_enum_value(a), ty_enum_value(b));  /* an IntEnum member with a number: its int, as Numba */
  /* a variable holding numbers of two types holds NumPy's promotion of
   * them, as in Numba: int16 with uint8 is an int16, uint64 with a signed
   * int a float64, int8 with float32 a float32 */
  if (ty_is_scalar(a) && ty_is_scalar(b)) return np_promote(a, b);
  if (a->kind == TY_ARRAY && b->kind == TY_ARRAY && a->ndim == b->ndim &&
      (a->elem == b->elem)) {
    return ty_array(a->elem, a->ndim, a->layout == b->layout ? a->layout : 'A', a->readonly || b->readonly);
  }
  if (a->kind == TY_FLAGS && b->kind == TY_FLAGS && a->ndim == b->ndim && a->elem == b->elem)  /* as their arrays */
    return ty_flags_of(ty_array(a->elem, a->ndim, a->layout == b->layout ? a->layout : 'A', a->readonly || b->readonly));
  if (ty_is_container(a)) return ty_unify_containers(a, b);
  if (a->kind == TY_FUNCTION || a->kind == TY_FUNCS) return ty_funcs_unify(a, b);  /* f if c else g */
  if (ty_is_literal_list(a) || ty_is_literal_list(b)) return NULL;  /* one only with itself, as Numba's LiteralList */
  if (a->kind == TY_LITDICT || b->kind == TY_LITDICT) return ty_literal_dict_unify(a, b);
  if (a->kind == TY_TUPLE && b->kind == TY_TUPLE && a->nfields == b->nfields) return unify_tuples(a, b);
  return NULL;
}

/* ---------------------------------------------------------------- variables */

/* *value, a compiled function (or one of several) where a first-class
 * function of type fp (FunctionType) is wanted: its entry for fp's
 * signature, as Numba unifies a dispatcher with a FunctionType; false
 * where it cannot be, quietly unless loud. */
static bool function_as_entry(Infer *in, Node **value, const Type *fp, bool loud) {
  const Type *t = (*value)->ty;
  if (!t || (t->kind != TY_FUNCTION && t->kind != TY_FUNCS) || fp->kind != TY_FUNCPTR) return false;
  Diag *outer = in->diag, quiet = {0};
  if (!loud) in->diag = &quiet;
  bool ok = t->kind == TY_FUNCTION ? ty_function_entry_for(in, value, fp) : ty_funcs_entry_for(in, value, fp);
  in->diag = outer;
  return ok;
}


/* Whether a value of type t can be stored in a variable declared want
 * (locals={...}): numbers convert, as Numba converts them. */
static bool declared_accepts(const Type *want, const Type *t) {
  return (ty_is_scalar(want) && ty_is_scalar(t)) || ty_unify(want, t) == want;
}

/* The container type a variable of type var holds where it is assigned a
 * container made as t (x = []: as x's appends type it), or t where var
 * holds no container of t's kind. x = None then x = [1] makes var an
 * Optional: the list is its value, wrapped when stored, not the Optional. */
static const Type *container_held(const Type *var, const Type *t) {
  if (var->kind == TY_OPTIONAL) var = var->elem;
  return var->kind == t->kind ? var : t;
}

static void assign_var(Infer *in, Node *target, const Type *t) {
  const Type **slot = &in->f->var_types[target->var];
  if (in->f->declared_types && in->f->declared_types[target->var]) {
    if (!declared_accepts(*slot, t))
      ty_error(in, target, "variable '%s' is declared %s (locals), and cannot hold %s",
               in->f->var_names[target->var], (*slot)->name, t->name);
    target->ty = *slot;
    return;
  }
  if (!*slot) {
    *slot = t;
    in->changed = true;
  } else if (*slot != t) {
    const Type *u = ty_unify(*slot, t);
    if (!u && (*slot)->kind == TY_LITDICT && t->kind == TY_LITDICT) {  /* Numba's words, and why */
      ty_error(in, target, "Cannot unify %s and %s for variable '%s': literal dicts unify only with the same keys in "
               "the same order and values of types that unify", (*slot)->name, t->name, in->f->var_names[target->var]);
      return;
    }
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

/* The type two numbers' arithmetic happens in: NumPy's promotion, but in
 * code written for Numba its casting rules', which hold no uint16 in a
 * float32 (int16 and narrower only): uint16 with float32 is float64 there. */
static const Type *arith_promote(Infer *in, Node *l, const Type *a, Node *r, const Type *b) {
  /* float16 with a number written in the source stays float16, as NumPy 2's
   * (NEP 50): Numba, whose float32 with an int literal widens to float64,
   * has no float16 arithmetic on the CPU to follow; numba-cuda's kernels
   * promote it by Numba's rules, and NumPy 1's scalars to float64 */
  if (rt_numpy_version >= 200 && !ty_in_cuda(in) &&
      ((a->kind == TY_F16 && ty_is_weak(r)) || (b->kind == TY_F16 && ty_is_weak(l))))
    return TYS(TY_F16);
  bool numba = in->opts && in->opts->numba_code;
  if (numba && ((a->kind == TY_U16 && b->kind == TY_F32) || (a->kind == TY_F32 && b->kind == TY_U16)))
    return TYS(TY_F64);
  return ty_promote(a, b);
}

static const Type *ty_binop_types(Infer *in, Node *n, int op, Node *l, const Type *a, Node *r,
                                  const Type *b) {
  if (a->kind == TY_ARRAY || b->kind == TY_ARRAY) return ty_array_binop(in, n, op, l, a, r, b);
  if (a->kind == TY_TUPLE || b->kind == TY_TUPLE) return ty_tuple_binop(in, n, a, b);
  if (a->kind == TY_LIST || b->kind == TY_LIST) return ty_list_binop(in, n, op, a, b);
  if (a->kind == TY_SET || b->kind == TY_SET) return ty_set_binop(in, n, op, a, b);
  if (a->kind == TY_STR || b->kind == TY_STR) return ty_str_binop(in, n, op, a, b);
  if (a->kind == TY_BYTES || b->kind == TY_BYTES) return ty_bytes_binop(in, n, op, a, b);
  if (!ty_is_scalar(a) || !ty_is_scalar(b))
    return ty_error(in, n, "operator is not supported between %s and %s", a->name, b->name);
  if (ty_is_time(a) || ty_is_time(b)) return ty_time_binop(in, n, op, a, b);
  if ((ty_is_complex(a) || ty_is_complex(b)) && op != OP_ADD && op != OP_SUB && op != OP_MUL && op != OP_DIV &&
      op != OP_POW)
    return ty_error(in, n, "unsupported operand types for this operator: %s and %s (complex numbers have no "
                    "floor division, modulo or bit operations)", a->name, b->name);
  if ((ty_is_complex(a) || ty_is_complex(b)) && op == OP_POW && in->opts && in->opts->gpu_cc)
    return ty_error(in, n, "powers of complex numbers are not supported in GPU code");
  switch (op) {
  case OP_DIV:  /* true division of ints and bools gives a float64 */
    if (!ty_is_float(a) && !ty_is_float(b) && !ty_is_complex(a) && !ty_is_complex(b)) return TYS(TY_F64);
    return arith_promote(in, l, a, r, b);
  case OP_POW:
    /* An integer power is an integer, except with a literal negative exponent,
     * where Python gives a float (Numba's stays an int: code written for it
     * gets Numba's truncated power). */
    if (!ty_is_float(a) && !ty_is_float(b) && !ty_is_complex(a) && !ty_is_complex(b) &&
        !(in->opts && in->opts->numba_code) &&
        ((r->kind == N_INT && r->ival < 0) || (r->kind == N_UNARY && r->op == OP_NEG && r->lhs->kind == N_INT)))
      return TYS(TY_F64);
    if (ty_is_float(a) && (ty_is_int(b) || b->kind == TY_BOOL)) return a;  /* x ** 2 of a float32 x: Numba's float32 */
    return arith_promote(in, l, a, r, b);
  case OP_LSHIFT: case OP_RSHIFT: case OP_BITAND: case OP_BITOR: case OP_BITXOR:
    if (ty_is_float(a) || ty_is_float(b))
      return ty_error(in, n, "bit operations need integers, got %s and %s", a->name, b->name);
    if (a->kind == TY_BOOL && b->kind == TY_BOOL && op >= OP_BITAND) return TYS(TY_BOOL);
    /* a shift has its left operand's type, as in Numba (a literal's yields) */
    if ((op == OP_LSHIFT || op == OP_RSHIFT) && !ty_is_weak(l)) return ty_promote(a, a);
    return ty_promote(a, b);
  default:
    return arith_promote(in, l, a, r, b);
  }
}

void ty_become_bool(Node *n, bool v) {
  *n = (Node){.kind = N_BOOL, .line = n->line, .col = n->col, .ival = v, .bi = n->bi};
}

const Type *ty_wrap_call(Infer *in, Node *n, const char *builtin) {
  Node *x = arena_alloc(in->f->arena, sizeof(Node));
  *x = *n;
  *n = (Node){.kind = N_CALL, .line = x->line, .col = x->col, .bi = bi_named(builtin)};
  n->list.items = arena_alloc(in->f->arena, sizeof(Node *));
  n->list.items[0] = x;
  n->list.len = 1;
  return ty_expr(in, n);
}

/* x, a 0-d array, read as its one element: x becomes x[()] in place. NumPy's
 * operators, ufuncs and truth give a number where every operand is 0-d
 * (numpy.cos(numpy.asarray(x)) is a float64), and so does Numba. */
static const Type *ty_element_of_0d(Infer *in, Node *x) {
  Node *a = arena_alloc(in->f->arena, sizeof(Node)), *empty = arena_alloc(in->f->arena, sizeof(Node));
  *a = *x;
  *empty = (Node){.kind = N_TUPLE, .line = a->line, .col = a->col};
  *x = (Node){.kind = N_INDEX, .line = a->line, .col = a->col, .lhs = a, .rhs = empty};
  return ty_expr(in, x);
}

static bool is_0d(const Type *t) { return t->kind == TY_ARRAY && t->ndim == 0; }

/* Whether an element of dtype t computes as a number of its own type does:
 * not a bool or an integer narrower than 64 bits, where NumPy's arrays keep
 * the width (an int8 0-d array plus itself wraps) and numbers widen. */
static bool computes_as_number(const Type *t) {
  return ty_is_float(t) || ty_is_complex(t) || t->kind == TY_I64 || t->kind == TY_U64;
}

const Type *ty_scalar_of_0d(Infer *in, Node *x, const Type *t) { return is_0d(t) ? ty_element_of_0d(in, x) : t; }

/* A 0-d array an operator reads as its element (see computes_as_number). */
static bool reads_as_number(const Type *t) { return is_0d(t) && computes_as_number(t->elem); }

/* Whether operands of types t[0..n) are numbers and 0-d arrays, one of
 * them at least, whose elements compute as numbers do (with every dtype
 * where the result is a bool: a comparison). */
static bool only_0d_arrays(const Type *const *t, int n, bool to_bool) {
  bool any = false;
  for (int i = 0; i < n; i++) {
    if (to_bool ? is_0d(t[i]) : reads_as_number(t[i])) any = true;
    else if (!ty_is_scalar(t[i])) return false;
  }
  return any;
}

/* The 0-d arrays among the operands xs (of types t) made their elements;
 * false after an error. */
static bool ty_elements_of_0d(Infer *in, Node **xs, const Type **t, int n) {
  for (int i = 0; i < n; i++)
    if (is_0d(t[i]) && !(t[i] = ty_element_of_0d(in, xs[i]))) return false;
  return true;
}

/* Types c where its truth is read (if, while, assert, not, x if c else y):
 * a number; None, which is false, and an Optional, false when None, as
 * Python's; a str or a set becomes a call reading its truth (so that a str
 * made for the test is released), a list or a dict (a literal one too) len(c), a jitclass
 * instance its __bool__ or __len__ (ty_jitclass_truth). */
static const Type *ty_truth(Infer *in, Node *c, const char *what) {
  for (int i = 0; c->kind == N_BOOLOP && i < c->list.len; i++) {  /* `while queue or k < n`: each operand's truth */
    if (!ty_truth(in, c->list.items[i], what)) return NULL;
    if (known_condition(in, c->list.items[i]) == (c->op == OP_OR)) break;  /* what follows is never typed */
  }
  const Type *t = ty_maybe_none(in, c);
  if (!t || t->kind == TY_NONE) return t;
  if (is_0d(t) && !(t = ty_element_of_0d(in, c))) return NULL;  /* one element: its truth, as NumPy's */
  if (t->kind == TY_ARRAY) return ty_wrap_call(in, c, "array truth");  /* one element's, as NumPy's */
  if (t->kind == TY_STR) return ty_wrap_call(in, c, "str truth");
  if (t->kind == TY_SET) return ty_wrap_call(in, c, "set truth");
  if (t->kind == TY_LIST || t->kind == TY_DICT || t->kind == TY_BYTES || t->kind == TY_TUPLE || t->kind == TY_LITDICT)
    return ty_wrap_call(in, c, "len");  /* (a tuple's and a literal dict's: known) */
  if (t->kind == TY_CLASS || (t->kind == TY_OPTIONAL && t->elem->kind == TY_CLASS)) return ty_jitclass_truth(in, c);
  return ty_need_scalar(in, c, t->kind == TY_OPTIONAL ? t->elem : t, what) ? t : NULL;
}

const Type *ty_truth_of(Infer *in, Node *c, const char *what) { return ty_truth(in, c, what); }

/* n, an operator whose operands are numbers and 0-d arrays, some of bools
 * or narrow ints, typed s on their elements: a number still, as NumPy's
 * and Numba's, but of the dtype the operator gives on the arrays (the
 * element of array): an int8 0-d array plus itself wraps at 8 bits where
 * the rules of numbers would widen it, so n becomes s converted to it. */
static const Type *ty_number_of_0d(Infer *in, Node *n, const Type *s, const Type *array) {
  if (!s || !array) return NULL;
  if (s == array->elem || ty_is_time(s)) return s;  /* (datetimes: their units, no widening) */
  Node *x = arena_alloc(in->f->arena, sizeof(Node));
  *x = *n;
  *n = (Node){.kind = N_CALL, .line = x->line, .col = x->col, .bi = bi_named("a NumPy scalar type"),
              .ival = array->elem->kind};
  n->list.items = arena_alloc(in->f->arena, sizeof(Node *));
  n->list.items[0] = x;
  n->list.len = 1;
  return ty_expr(in, n);
}

/* *x in a tuple display ((n, *a.shape), made a sum of tuples by the
 * frontend): x, which must be a tuple (Python's would take any iterable,
 * whose length compiled code cannot know). */
static const Type *ty_display_spread(Infer *in, Node *n) {
  const Type *t = ty_expr(in, n->lhs);
  if (!t) return NULL;
  if (t->kind != TY_TUPLE)
    return ty_error(in, n, "*x of %s in a tuple display: only tuples are spread in compiled code", t->name);
  *n = *n->lhs;
  return t;
}

static const Type *ty_binop(Infer *in, Node *n) {
  const Type *a = ty_expr(in, n->lhs), *b = ty_expr(in, n->rhs);
  if (!a || !b) return NULL;
  if (!in->final && ((a->kind == TY_NONE && n->lhs->kind == N_VAR) || (b->kind == TY_NONE && n->rhs->kind == N_VAR)))
    return NULL;  /* a variable None so far, which an assignment later in a loop may make an Optional */
  if (a->kind == TY_CLASS || b->kind == TY_CLASS) return ty_jitclass_binop(in, n);
  const Type *overloaded;
  if ((a->kind == TY_TUPLE || b->kind == TY_TUPLE) && ty_extension_operator(in, n, &overloaded)) return overloaded;
  const Type *t[2] = {a, b};
  Node *xs[2] = {n->lhs, n->rhs};
  if (only_0d_arrays(t, 2, false) && !ty_elements_of_0d(in, xs, t, 2)) return NULL;
  if (only_0d_arrays(t, 2, true)) {  /* some hold bools or narrow ints */
    const Type *array = ty_array_binop(in, n, n->op, n->lhs, t[0], n->rhs, t[1]);
    if (!array || !ty_elements_of_0d(in, xs, t, 2)) return NULL;
    return ty_number_of_0d(in, n, ty_binop_types(in, n, n->op, n->lhs, t[0], n->rhs, t[1]), array);
  }
  return ty_binop_types(in, n, n->op, n->lhs, t[0], n->rhs, t[1]);
}

/* -a, +a, ~a of a number a. */
static const Type *ty_unary_number(Infer *in, Node *n, const Type *a) {
  if (!ty_need_scalar(in, n, a, "unary operator")) return NULL;
  if (ty_is_time(a))  /* -td and +td; NumPy negates no datetime */
    return a->kind == TY_TIMEDELTA && n->op != OP_INVERT ? a : ty_error(in, n, "bad operand type for unary operator: %s", a->name);
  switch (n->op) {
  case OP_INVERT:
    if (ty_is_float(a) || ty_is_complex(a)) return ty_error(in, n, "~ needs an integer");
    /* ~ of a bool negates it, as NumPy's bools and Numba's (CPython's -1 and -2, deprecated, read
     * an int): code written for Numba inverts comparisons and bool array elements */
    return a->kind == TY_BOOL ? TYS(TY_BOOL) : ty_promote(a, a);
  default:
    return ty_is_float(a) || ty_is_complex(a) ? a : ty_promote(a, a);
  }
}

static const Type *ty_unary(Infer *in, Node *n) {
  if (n->op == OP_NOT) return ty_truth(in, n->lhs, "not") ? TYS(TY_BOOL) : NULL;
  const Type *a = ty_expr(in, n->lhs);
  if (a && reads_as_number(a)) a = ty_element_of_0d(in, n->lhs);
  if (a && is_0d(a)) {  /* of bools or narrow ints (see ty_number_of_0d) */
    const Type *array = ty_array_unary(in, n, n->op, a);
    if (!array) return NULL;
    return ty_number_of_0d(in, n, ty_unary_number(in, n, ty_element_of_0d(in, n->lhs)), array);
  }
  if (a && a->kind == TY_ARRAY) return ty_array_unary(in, n, n->op, a);
  if (a && a->kind == TY_CLASS) return ty_jitclass_unary(in, n);
  const Type *overloaded;
  if (a && a->kind == TY_TUPLE && ty_extension_operator(in, n, &overloaded)) return overloaded;
  return ty_unary_number(in, n, a);
}

static Node *copied_node(Infer *in, const Node *x, NodeKind kind, Node *lhs) {
  Node *c = arena_alloc(in->f->arena, sizeof(Node));
  *c = (Node){.kind = kind, .line = x->line, .col = x->col, .lhs = lhs};
  return c;
}

static bool optional_str(const Type *t) { return t && t->kind == TY_OPTIONAL && t->elem->kind == TY_STR; }

/* a == b and a != b of variables holding an Optional str and a str (or
 * two): None equals None alone, as Python compares them (Numba's too),
 * rather than the TypeError of an Optional read as its value. n made
 * `b is None if a is None else (False if b is None else a == b)` (!=: the
 * negations), the inner comparison of the values unwrapped. False where
 * n is no such comparison. */
static bool optional_str_compare(Infer *in, Node *n) {
  if (n->list.len != 2 || (n->ops[0] != OP_EQ && n->ops[0] != OP_NE)) return false;
  Node *a = n->list.items[0], *b = n->list.items[1];
  if (a->kind != N_VAR || b->kind != N_VAR) return false;
  const Type *ta = ty_maybe_none(in, a), *tb = ty_maybe_none(in, b);
  if (!(optional_str(ta) || optional_str(tb)) || !(optional_str(ta) || ta->kind == TY_STR) ||
      !(optional_str(tb) || tb->kind == TY_STR))
    return false;
  bool ne = n->ops[0] == OP_NE;
  Node *inner = arena_alloc(in->f->arena, sizeof(Node)), *va = arena_alloc(in->f->arena, sizeof(Node)),
       *vb = arena_alloc(in->f->arena, sizeof(Node));
  *va = *a, *vb = *b, *inner = *n;
  inner->list.items = arena_alloc(in->f->arena, 2 * sizeof(Node *));
  inner->list.items[0] = copied_node(in, a, N_UNWRAP, va);
  inner->list.items[1] = copied_node(in, b, N_UNWRAP, vb);
  Node *a_none = copied_node(in, a, N_IS_NONE, a), *b_none = copied_node(in, b, N_IS_NONE, b);
  Node *b_none_again = copied_node(in, b, N_IS_NONE, b), *answer = copied_node(in, n, N_BOOL, NULL);
  b_none->ival = ne, answer->ival = ne;  /* a None: b is None (==) or is not None (!=); b None alone: False (==), True */
  Node *rest = copied_node(in, n, N_IFEXP, answer);
  rest->cond = b_none_again, rest->rhs = inner;
  *n = (Node){.kind = N_IFEXP, .line = n->line, .col = n->col, .cond = a_none, .lhs = b_none, .rhs = rest};
  return true;
}

/* a is b where the variable a (or b) holds an Optional (y = 3 if c else
 * None) and the other side is no Optional variable: False where it holds
 * None, else the values' test, as Python and Numba answer, rather than the
 * TypeError of the Optional read as its value. n made
 * `False if a is None else value(a) is b`. False where n is no such test. */
static bool optional_is(Infer *in, Node *n) {
  if (!n->bi || strcmp(n->bi->name, "is") || n->list.len != 2) return false;
  for (int i = 0; i < 2; i++) {
    Node *v = n->list.items[i], *other = n->list.items[1 - i];
    const Type *t = v->kind == N_VAR ? ty_maybe_none(in, v) : NULL;
    const Type *o = other->kind == N_VAR ? ty_maybe_none(in, other) : NULL;
    if (!t || t->kind != TY_OPTIONAL || (o && o->kind == TY_OPTIONAL)) continue;
    Node *inner = arena_alloc(in->f->arena, sizeof(Node)), *value = arena_alloc(in->f->arena, sizeof(Node));
    *value = *v, *inner = *n;
    inner->list.items = arena_alloc(in->f->arena, 2 * sizeof(Node *));
    inner->list.items[i] = copied_node(in, v, N_UNWRAP, value);
    inner->list.items[1 - i] = other;
    Node *none = copied_node(in, v, N_IS_NONE, v), *answer = copied_node(in, n, N_BOOL, NULL);
    answer->ival = 0;
    *n = (Node){.kind = N_IFEXP, .line = n->line, .col = n->col, .cond = none, .lhs = answer, .rhs = inner};
    return true;
  }
  return false;
}

/* a.dtype == numpy.float64 (or another dtype): whether they are one dtype,
 * known when the function compiles */
static bool ty_dtype_compare(Infer *in, Node *n, int op, const Type *a, const Type *b) {
  if (a->kind == TY_DTYPE && b->kind == TY_DTYPE && (op == OP_EQ || op == OP_NE)) return true;
  ty_error(in, n, "dtypes are compared with == and != with another dtype in compiled code, not %s with %s",
           a->name, b->name);
  return false;
}

static const Type *ty_compare(Infer *in, Node *n) {
  const Type *t[64];
  bool arrays = false, strs = false, bytes = false;
  if (n->list.len > 64) return ty_error(in, n, "too many comparisons");
  if (optional_str_compare(in, n)) return ty_expr(in, n);
  for (int i = 0; i < n->list.len; i++) {
    if (!(t[i] = ty_expr(in, n->list.items[i]))) return NULL;
    arrays |= t[i]->kind == TY_ARRAY;
    strs |= t[i]->kind == TY_STR;
    bytes |= t[i]->kind == TY_BYTES;
  }
  if (arrays && only_0d_arrays(t, n->list.len, true)) {
    if (!ty_elements_of_0d(in, n->list.items, t, n->list.len)) return NULL;
    arrays = false;
  }
  if (n->list.len == 2 && (n->ops[0] == OP_EQ || n->ops[0] == OP_NE) && !arrays &&
      (t[0]->kind == TY_NONE || t[1]->kind == TY_NONE)) {  /* x == None is x is None, as Python answers it */
    Node *x = n->list.items[t[0]->kind == TY_NONE];
    *n = (Node){.kind = N_IS_NONE, .line = n->line, .col = n->col, .lhs = x, .ival = n->ops[0] == OP_NE};
    return ty_expr(in, n);
  }
  const Type *overloaded;  /* an operand of a package's value type: the overload of operator.eq (lt...) */
  if ((t[0]->kind == TY_TUPLE || t[1]->kind == TY_TUPLE) && ty_extension_compare(in, n, &overloaded)) return overloaded;
  for (int i = 0; i < n->list.len; i++)
    if (t[i]->kind == TY_CLASS) return ty_jitclass_compare(in, n);
  for (int i = 0; i + 1 < n->list.len; i++)  /* (before strs: a member of str values is no str) */
    if ((ty_is_enum(t[i]) || ty_is_enum(t[i + 1])) && !ty_enum_compare(in, n, n->ops[i], t[i], t[i + 1])) return NULL;
  for (int i = 0; arrays && i + 1 < n->list.len; i++)
    if (ty_is_text_array_compare(t[i], t[i + 1])) return ty_text_array_compare(in, n, t[i], t[i + 1]);
  if (n->list.len == 2 && t[0]->kind == TY_LIST && (t[1]->kind == TY_STR || t[1]->kind == TY_TUPLE))
    return ty_list_compare(in, n, t[0], t[1]) ? TYS(TY_BOOL) : NULL;  /* the list's operators, as Numba's */
  if (strs) return ty_str_compare(in, n, t) ? TYS(TY_BOOL) : NULL;
  if (bytes) return ty_bytes_compare(in, n, t) ? TYS(TY_BOOL) : NULL;
  if (arrays) return ty_array_compare(in, n, t[0], t[1]);
  for (int i = 0; i + 1 < n->list.len; i++)
    if ((t[i]->kind == TY_DICT || t[i + 1]->kind == TY_DICT) && !ty_dict_compare(in, n, n->ops[i], t[i], t[i + 1]))
      return NULL;
  for (int i = 0; i + 1 < n->list.len; i++)
    if ((t[i]->kind == TY_LITDICT || t[i + 1]->kind == TY_LITDICT) &&
        !ty_literal_dict_compare(in, n, n->ops[i], t[i], t[i + 1]))
      return NULL;
  for (int i = 0; i + 1 < n->list.len; i++)
    if ((t[i]->kind == TY_TUPLE || t[i + 1]->kind == TY_TUPLE) && t[i]->kind != TY_DICT && t[i + 1]->kind != TY_DICT &&
        !ty_tuple_compare(in, n, n->ops[i], t[i], t[i + 1]))
      return NULL;
  for (int i = 0; i + 1 < n->list.len; i++)
    if ((t[i]->kind == TY_LIST || t[i + 1]->kind == TY_LIST) && !ty_list_compare(in, n, t[i], t[i + 1])) return NULL;
  for (int i = 0; i + 1 < n->list.len; i++)
    if ((t[i]->kind == TY_SET || t[i + 1]->kind == TY_SET) && !ty_set_compare(in, n, t[i], t[i + 1])) return NULL;
  for (int i = 0; i + 1 < n->list.len; i++)
    if ((t[i]->kind == TY_DTYPE || t[i + 1]->kind == TY_DTYPE) && !ty_dtype_compare(in, n, n->ops[i], t[i], t[i + 1]))
      return NULL;
  for (int i = 0; i < n->list.len; i++)
    if (t[i]->kind != TY_TUPLE && t[i]->kind != TY_LITDICT && t[i]->kind != TY_DICT && t[i]->kind != TY_LIST &&
        t[i]->kind != TY_SET && t[i]->kind != TY_DTYPE && !ty_is_enum(t[i]) &&
        !ty_need_scalar(in, n->list.items[i], t[i], "comparison"))
      return NULL;
  for (int i = 0; i + 1 < n->list.len; i++)
    if ((ty_is_time(t[i]) || ty_is_time(t[i + 1])) && !ty_time_compare(in, n, t[i], t[i + 1])) return NULL;
  for (int i = 0; i + 1 < n->list.len; i++)
    if ((ty_is_complex(t[i]) || ty_is_complex(t[i + 1])) && n->ops[i] != OP_EQ && n->ops[i] != OP_NE)
      return ty_error(in, n, "complex numbers are only compared with == and != (%s and %s)", t[i]->name,
                      t[i + 1]->name);
  return TYS(TY_BOOL);
}

/* An and/or operand that may be read twice, tested and then given: a
 * variable or a constant. */
static bool rereadable(const Node *x) {
  return x->kind == N_VAR || x->kind == N_NONE || x->kind == N_INT || x->kind == N_FLOAT || x->kind == N_BOOL;
}

/* a or b, a and b where an operand is no number (`tol = tol or 1e-8` given
 * None, `name = name or "x"` of a str): n made the conditional expressions
 * Python evaluates, `a if a else b` and `b if a else a`, each operand but
 * the last read twice. */
static const Type *boolop_as_ifexp(Infer *in, Node *n) {
  for (int i = 0; i + 1 < n->list.len; i++)
    if (!rereadable(n->list.items[i]))
      return ty_error(in, n->list.items[i], "'%s' of a value that is not a number takes a variable or a constant "
                      "here (compiled code reads it twice): assign it to a variable first",
                      n->op == OP_OR ? "or" : "and");
  Node *r = n->list.items[n->list.len - 1];
  for (int i = n->list.len - 2; i >= 0; i--) {
    Node *a = n->list.items[i], *again = arena_alloc(in->f->arena, sizeof(Node)), *e = arena_alloc(in->f->arena, sizeof(Node));
    *again = *a;
    *e = (Node){.kind = N_IFEXP, .line = a->line, .col = a->col, .cond = a, .lhs = n->op == OP_OR ? again : r,
                .rhs = n->op == OP_OR ? r : again};
    r = e;
  }
  *n = *r;
  return ty_expr(in, n);
}

/* a and b, a or b: an operand known from types to decide (False for and,
 * True for or: `w is not None and w != 1.0` with w None) ends it, the
 * operands after it never typed, as Numba prunes them. */
static const Type *ty_boolop(Infer *in, Node *n) {
  const Type *t = NULL;
  for (int i = 0; i < n->list.len; i++) {
    const Type *e = ty_maybe_none(in, n->list.items[i]);
    if (e && !ty_is_scalar(e)) return boolop_as_ifexp(in, n);
    if (!e) return NULL;
    t = t ? ty_unify(t, e) : e;
    if (known_condition(in, n->list.items[i]) == (n->op == OP_OR)) {
      if (in->final) n->list.len = i + 1;
      break;
    }
  }
  return t;
}

/* Whether n calls a compiled function (or another callee) anywhere in it. */
static bool calls_compiled(const Node *n) {
  if (!n) return false;
  if (n->kind == N_CALL && n->callee) return true;
  if (calls_compiled(n->lhs) || calls_compiled(n->rhs) || calls_compiled(n->cond)) return true;
  for (int i = 0; i < n->list.len; i++)
    if (calls_compiled(n->list.items[i])) return true;
  for (int i = 0; i < n->kw.len; i++)
    if (calls_compiled(n->kw.items[i])) return true;
  return false;
}

/* A branch of a returned value, typed: where the function's return type is
 * not known yet, its type is what a mutually recursive callee typed within
 * the other branch sees (return True if n == 0 else is_odd(n - 1)). */
static const Type *ty_returned_branch(Infer *in, Node *branch, bool returned) {
  if (returned) in->returning = branch;
  const Type *t = ty_maybe_none(in, branch);
  if (returned && t && t->kind != TY_NONE && !in->f->ret_type) in->f->ret_type = t;
  return t;
}

static const Type *ty_ifexp(Infer *in, Node *n) {
  bool returned = in->returning == n;
  if (!ty_truth(in, n->cond, "condition") || ty_failed(in)) return NULL;
  int known = known_condition(in, n->cond);
  if (known >= 0) {  /* only the branch taken is typed (see known_condition) */
    Node *taken = known ? n->lhs : n->rhs;
    const Type *t = ty_maybe_none(in, taken);
    if (t && in->final) *n = *taken;
    return t;
  }
  const Type *a, *b;
  if (returned && calls_compiled(n->lhs) && !calls_compiled(n->rhs)) {  /* of a returned value, the branch without a call first */
    b = ty_returned_branch(in, n->rhs, true);
    a = ty_returned_branch(in, n->lhs, true);
  } else {
    a = ty_returned_branch(in, n->lhs, returned);
    b = ty_returned_branch(in, n->rhs, returned);
  }
  if (ty_failed(in)) return NULL;
  /* a branch not typed yet (a recursive call before the function's return
   * type is known): the other one's type, until a later pass */
  if (!a || !b) return in->final ? NULL : a ? a : b;
  if (a->kind == TY_FUNCPTR && function_as_entry(in, &n->rhs, a, true)) b = a;  /* f if c else g */
  else if (b->kind == TY_FUNCPTR && function_as_entry(in, &n->lhs, b, true)) a = b;
  if (ty_failed(in)) return NULL;
  const Type *u = ty_unify(a, b);
  if (!u) return ty_error(in, n, "the two branches have types %s and %s, which cannot be unified",
                          a->name, b->name);
  return u;
}

static const Type *ty_index(Infer *in, Node *n) {
  const Type *base = ty_expr(in, n->lhs);
  if (!base) return NULL;
  /* prev[i] of `prev = None` before a loop that reads prev[i] and then
   * binds prev to an array (claspy's k-NN): None is not yet prev's type,
   * an Optional once the binding after the read is typed */
  if (base->kind == TY_NONE && !in->final && n->lhs->kind == N_VAR && in->beyond_none[n->lhs->var]) return NULL;
  if ((base->kind == TY_ARRAY || base->kind == TY_LIST || base->kind == TY_STR || base->kind == TY_BYTES) &&
      !ty_spread_slice_values(in, n))
    return NULL;
  if (base->kind == TY_CLASS) return ty_jitclass_index(in, n);
  if (base->kind == TY_LIST) return ty_list_index(in, n, base);
  if (base->kind == TY_DICT) return ty_dict_index(in, n, base);
  if (base->kind == TY_DICTVIEW) return ty_dict_view_index(in, n, base);
  if (base->kind == TY_SET) return ty_set_index(in, n, base);
  if (base->kind == TY_STR) return ty_str_index(in, n, base);
  if (base->kind == TY_BYTES) return ty_bytes_index(in, n, base);
  if (base->kind == TY_RANGE) {  /* r[i] of a range value (or a for loop's walk over one) */
    if (n->rhs->kind == N_SLICE) return ty_error(in, n, "slices of a range are not supported in compiled code");
    const Type *i = ty_expr(in, n->rhs);
    if (i && !ty_is_int(i) && i->kind != TY_BOOL) return ty_error(in, n, "range indices must be integers, not %s", i->name);
    return i ? TYS(TY_I64) : NULL;
  }
  if (base->kind == TY_LITDICT) return ty_literal_dict_index(in, n, base);
  if (ty_record_keyed(in, n, base)) return ty_record_index(in, n, base);
  if (n->rhs && n->rhs->kind == N_STRING && !n->str)
    return ty_error(in, n, "%s cannot be indexed by a string (only records by their fields' names)", base->name);
  if (n->str && base->kind != TY_TUPLE && (base->kind != TY_ARRAY || base->ndim == 0))  /* for v in base */
    return ty_error(in, n, base->kind == TY_ARRAY ? "iteration over a 0-d array"
                                                   : "for loops over %s are not supported: iterate over an array, "
                                                     "a tuple, a range, enumerate or zip", base->name);
  Node *const operands[2] = {n->lhs, n->rhs};
  const Type *overloaded;  /* the code's subscript of a package's value type: the overload of operator.getitem */
  bool own_item = n->str || (n->rhs->kind == N_INT && n->rhs->str);
  if (base->kind == TY_TUPLE && !own_item && ty_extension_subscript(in, n, operands, 2, &overloaded)) return overloaded;
  if (base->kind == TY_TUPLE) return ty_tuple_index(in, n, base);
  if (ty_is_scalar(base) && n->rhs && n->rhs->kind == N_TUPLE && !n->rhs->list.len) {
    *n = *n->lhs;  /* x[()] of a number is x, as NumPy's: what an operator on 0-d arrays gives */
    return base;
  }
  if (base->kind != TY_ARRAY) return ty_error(in, n, "%s cannot be indexed", base->name);
  return ty_array_index(in, n, base);
}

/* (f, g) of a first-class function f (FunctionType) and compiled functions
 * g: each g that can be as its entry for f's signature (function_as_entry),
 * so that the tuple is homogeneous (indexed and iterated at run time); one
 * that cannot be stays as it is. */
static void function_items_as_entries(Infer *in, Node *n, const Type **f) {
  const Type *fp = NULL;
  for (int i = 0; i < n->list.len; i++) {
    if (f[i]->kind != TY_FUNCPTR) continue;
    if (fp && fp != f[i]) return;  /* (two signatures: no one type for them all) */
    fp = f[i];
  }
  for (int i = 0; fp && i < n->list.len; i++)
    if (function_as_entry(in, &n->list.items[i], fp, false)) f[i] = fp;
}

static const Type *ty_tuple_expr(Infer *in, Node *n) {
  if (n->list.len > TY_MAX_FIELDS)
    return ty_error(in, n, "tuples of more than %d elements are not supported", TY_MAX_FIELDS);
  const Type **f = arena_alloc(in->f->arena, sizeof(Type *) * (size_t)(n->list.len + 1));
  for (int i = 0; i < n->list.len; i++)  /* an Optional stays one: (x, None-or-array) as Numba's */
    if (!(f[i] = ty_maybe_none(in, n->list.items[i]))) return NULL;
  if (in->returning != n) function_items_as_entries(in, n, f);  /* (returned, each is the object it was) */
  if (n->callee) return ty_named_tuple(n->list.len, f, n->kw_names, n->callee);  /* Point(x, y) */
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
  for (int i = 0; i < n->kw.len && !(bi->flags & BF_KEYWORDS); i++) {
    bool known = false;
    for (int k = 0; bi->keywords && bi->keywords[k]; k++) known |= !strcmp(bi->keywords[k], n->kw_names[i]);
    if (known) continue;
    const char *near = bi_nearest(n->kw_names[i], bi->keywords);
    if (near)
      ty_error(in, n, "%s() got an unsupported keyword argument '%s' (did you mean '%s'?)", bi->name,
               n->kw_names[i], near);
    else
      ty_error(in, n, "%s() got an unsupported keyword argument '%s'", bi->name, n->kw_names[i]);
    return false;
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

/* A row of a NumPy function taking a dtype, which may be given None by
 * position (numpy.zeros(n, None), a.sum(None)): its typer reads such a
 * None as the default (bi_none_as_default: the dtype, a reduction's axis);
 * a None it does not is refused after it. */
static bool takes_dtype(const Builtin *bi) {
  for (int k = 0; !bi->lower_elem && bi->keywords && bi->keywords[k]; k++)
    if (!strcmp(bi->keywords[k], "dtype")) return true;
  return false;
}

/* None where the builtin reads it (BF_NONE) is typed NoneType. A keyword
 * variable known to be None is None written out, which ty_call drops as
 * the default (pynapple's numpy.zeros(n, dtype=dtype) with dtype=None);
 * so is one given by position to an optional parameter, which ty_call
 * drops where no argument follows. */
static const Type *ty_call_arg(Infer *in, Node *n, Node *x, bool keyword, bool optional) {
  if (x->kind == N_NONE && (n->bi->flags & BF_NONE)) return x->ty = TYS(TY_NONE);
  if (n->callee && !n->bi->lower_elem) return ty_maybe_none(in, x);  /* a ruchey function takes None */
  if (n->bi->flags & BF_MEMBERS) return ty_member_or_value(in, x);
  bool written = x->kind == N_NONE;
  const Type *t = ty_expr(in, x);
  if (t && t->kind == TY_NONE && x->kind == N_VAR) {  /* known to be None (axis=None passed on): None written out */
    *x = (Node){.kind = N_NONE, .line = x->line, .col = x->col, .ty = t};
    if ((n->bi->flags & BF_NONE) || keyword || optional) return t;
  }
  if (t && written && optional) return t;
  if (t && t->kind == TY_NONE && !(n->bi->flags & BF_NONE) && !(!keyword && takes_dtype(n->bi)))
    return ty_error(in, x, "%s() does not take None here", n->bi->name);
  return t;
}

/* A None given by position that the typer of a row taking a dtype did
 * not read as its dtype: refused, as elsewhere. */
static bool none_unread(Infer *in, Node *n) {
  for (int i = 0; i < n->list.len && !(n->bi->flags & BF_NONE); i++) {
    Node *x = n->list.items[i];
    if (x->ty && x->ty->kind == TY_NONE && !(x->kind == N_NONE && x->ival == 1))
      return ty_error(in, x, "%s() does not take None here", n->bi->name) != NULL;
  }
  return false;
}

bool ty_holds_complex(const Type *t) {
  if (!t) return false;
  if (t->kind == TY_ARRAY || t->kind == TY_DTYPE) return ty_is_complex(t->elem);
  for (int i = 0; i < t->nfields; i++)
    if (ty_holds_complex(t->fields[i])) return true;
  return ty_is_complex(t);
}

/* Only the rows written for them (BF_COMPLEX) take complex arguments: the
 * others' lowerers know ints and floats alone. */
static bool check_complex(Infer *in, Node *n, const Type **args) {
  if (n->bi->flags & BF_COMPLEX) return true;
  for (int i = 0; i < n->list.len + n->kw.len; i++) {
    Node *x = i < n->list.len ? n->list.items[i] : n->kw.items[i - n->list.len];
    if (ty_holds_complex(i < n->list.len ? args[i] : x->ty))
      return ty_error(in, x, "%s() does not support complex numbers in compiled code", n->bi->name) != NULL;
  }
  return true;
}

/* A method or attribute the receiver's type lacks, with the nearest one it
 * has where the name looks misspelt. */
static const Type *ty_unknown_member(Infer *in, Node *n, const Type *receiver, BuiltinKind kind) {
  const char *what = kind == BK_METHOD ? "method" : "attribute";
  if (ty_is_literal_list(receiver) && bi_member(TY_LIST, kind, n->str))  /* the list methods a tuple lacks change it */
    return ty_error(in, n, LITERAL_LIST_FROZEN, receiver->name);
  if (ty_module_name(receiver) && kind == BK_ATTRIBUTE)  /* (a call's result: its functions alone are found) */
    return ty_error(in, n, "%s read through a variable has only its functions in compiled code: name the module "
                    "for '%s' (%s.%s)", receiver->name, n->str, ty_module_name(receiver), n->str);
  if (receiver->kind == TY_MODULE)  /* (one known where it is named, or assigned once: frontend's aliases) */
    return ty_error(in, n, "a module read through a variable (.%s) is known in compiled code only where the "
                    "variable is assigned one module once (m = numpy) or is a parameter its callers pass one to",
                    n->str);
  const char *near = bi_member_near(receiver->kind, kind, n->str);
  if (near)
    return ty_error(in, n, "%s has no %s '%s' in compiled code (did you mean '%s'?)", receiver->name, what, n->str,
                    near);
  return ty_error(in, n, "%s has no %s '%s' in compiled code", receiver->name, what, n->str);
}

/* Whether t is a list numpy.asarray makes an array of: of numbers, or of
 * tuples or lists of them (an empty list's items are typed later). */
static bool numeric_list(const Type *t) {
  if (t->kind != TY_LIST) return false;
  while (t && t->kind == TY_LIST) t = t->elem;
  if (t && t->kind == TY_TUPLE)
    for (int i = 0; i < t->nfields; i++)
      if (!ty_is_scalar(t->fields[i])) return false;
  return t && (ty_is_scalar(t) || t->kind == TY_TUPLE);
}

static bool is_arraylike(const Type *t) { return t && (t->kind == TY_TUPLE || numeric_list(t)); }

const Type *ty_arraylike(Infer *in, Node *x, const Type *t) {
  return is_arraylike(t) ? ty_wrap_call(in, x, "numpy.asarray") : t;
}

/* A NumPy function's array-likes: a tuple (a list literal) or a list of
 * numbers among its arguments is numpy.asarray of it, as NumPy and Numba
 * read one (numpy.cross([0, 0, 1], h), numpy.bincount(a_list)). */
static bool ty_arraylike_args(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < n->list.len; i++)
    if (!(args[i] = ty_arraylike(in, n->list.items[i], args[i]))) return false;
  for (int i = 0; i < n->kw.len; i++)  /* percentile(a, q=[25, 75]); not out=, written into (divmod's a tuple) */
    if (n->kw.items[i]->ty && strcmp(n->kw_names[i], "out") && !ty_arraylike(in, n->kw.items[i], n->kw.items[i]->ty))
      return false;
  return true;
}

/* f(a, *t, b) of a builtin: t's items in its place, each read from t (a
 * variable, or an attribute of one: a.shape), as Python spreads them. */
static bool spread_builtin_args(Infer *in, Node *n) {
  for (int i = 0; i < n->list.len; i++) {
    Node *s = n->list.items[i];
    if (s->kind != N_SPREAD) continue;
    const Type *t = ty_expr(in, s->lhs);
    if (!t) return false;
    if (t->kind != TY_TUPLE) return ty_error(in, s, "*%s in a call: only tuples are spread in compiled code", t->name) != NULL;
    if (s->lhs->kind != N_VAR && !(s->lhs->kind == N_ATTR && s->lhs->lhs->kind == N_VAR))
      return ty_error(in, s, "a tuple is spread into a call only from a variable (or its attribute): assign it first") != NULL;
    NodeList list = {arena_alloc(in->f->arena, sizeof(Node *) * (size_t)(n->list.len - 1 + t->nfields + 1)),
                     n->list.len - 1 + t->nfields};
    for (int j = 0; j < i; j++) list.items[j] = n->list.items[j];
    for (int k = 0; k < t->nfields; k++) list.items[i + k] = ty_tuple_item(in, s->lhs, k);
    for (int j = i + 1; j < n->list.len; j++) list.items[j - 1 + t->nfields] = n->list.items[j];
    n->list = list;
    i += t->nfields - 1;
  }
  return true;
}

/* numpy.f(x, o) of a ufunc taking out=: its output given by position after
 * its inputs, as NumPy and Numba take it, read as numpy.f(x, out=o). */
static void positional_out(Infer *in, Node *n) {
  const Builtin *bi = n->bi;
  if (!bi->lower_elem || bi->kind != BK_FUNCTION || n->list.len != bi->max_args + 1 || ty_kwarg(n, "out")) return;
  bool takes_out = false;
  for (int k = 0; bi->keywords && bi->keywords[k]; k++) takes_out |= !strcmp(bi->keywords[k], "out");
  if (!takes_out) return;
  Node **items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)(n->kw.len + 1));
  const char **names = arena_alloc(in->f->arena, sizeof(char *) * (size_t)(n->kw.len + 1));
  for (int i = 0; i < n->kw.len; i++) items[i] = n->kw.items[i], names[i] = n->kw_names[i];
  items[n->kw.len] = n->list.items[--n->list.len];
  names[n->kw.len] = "out";
  n->kw = (NodeList){.items = items, .len = n->kw.len + 1};
  n->kw_names = names;
}

/* Whether the positional argument i of n is an optional parameter of a
 * NumPy function or array method, whose None is its default as a
 * keyword's (not Python's: print(None), getattr(o, name, None)). */
static bool optional_at(const Node *n, int i) {
  const Builtin *bi = n->bi;
  if (n->callee || (bi->flags & (BF_NONE | BF_KEYWORDS))) return false;
  if (strncmp(bi->name, "numpy.", 6) && strncmp(bi->name, "array.", 6)) return false;
  return i - (bi->kind == BK_METHOD) >= bi->min_args;
}

/* f(x, None) of a builtin's optional parameters: the trailing Nones
 * dropped, read as not given, as Numba reads an optional argument passed
 * None (numpy.vander(x, n) with n None); a None with an argument after it
 * stays refused, but where a typer reads a dtype (none_unread). */
static bool drop_trailing_none(Infer *in, Node *n, int first) {
  int len = n->list.len;
  while (len > first && optional_at(n, len - 1) && n->list.items[len - 1]->kind == N_NONE) len--;
  n->list.len = len;
  for (int i = first; i < len && !takes_dtype(n->bi); i++)
    if (optional_at(n, i) && n->list.items[i]->kind == N_NONE)
      return ty_error(in, n->list.items[i], "%s() does not take None here", n->bi->name) != NULL;
  return true;
}

/* The method an overload_method registered for a named tuple's type, or
 * NULL: a package's value type, which compiled code holds as a named
 * tuple, is no tuple under Numba, so its own methods come before the
 * tuple's (numba-scipy's csr_matrix.copy() is not a literal list's). */
static const Builtin *named_tuple_overload(Infer *in, Node *n, const Type *receiver) {
  if (receiver->kind != TY_TUPLE || !receiver->callee || !spread_builtin_args(in, n)) return NULL;
  return ty_extension_member(in, n, receiver);
}

/* m.f(x) of a module m a call returned (Numba's Module type: an @overload
 * giving numpy): numpy.f(x), the receiver dropped. NULL where the receiver
 * is no known module; a row without a name where it has no such function
 * (the error given). */
static const Builtin *module_function(Infer *in, Node *n, const Type *receiver) {
  static const Builtin failed;
  const char *module = ty_module_name(receiver);
  if (!module) return NULL;
  size_t len = strlen(module) + strlen(n->str) + 2;
  char *name = arena_alloc(in->f->arena, len);
  snprintf(name, len, "%s.%s", module, n->str);
  const Builtin *bi = bi_named(name);
  if (!bi || bi->kind != BK_FUNCTION || (bi->flags & BF_NOCALL)) {
    ty_error(in, n, "%s has no function '%s' compiled code can call", receiver->name, n->str);
    return &failed;
  }
  memmove(n->list.items, n->list.items + 1, sizeof(Node *) * (size_t)--n->list.len);
  return bi;
}

/* A call: every argument typed, then the builtin's typer. A method's row
 * is found from its receiver's type, the first argument. */
static const Type *ty_call(Infer *in, Node *n) {
  const Type *few[64], **args = few;
  if (optional_is(in, n)) return ty_expr(in, n);
  if (n->bi && !spread_builtin_args(in, n)) return NULL;
  if (n->list.len > 64 && (!n->bi || n->list.len > n->bi->max_args)) return ty_error(in, n, "too many arguments");
  if (n->list.len > 64)  /* a literal of many items (a dict or set written out) */
    args = arena_alloc(in->f->arena, sizeof(Type *) * (size_t)n->list.len);
  int first = 0;  /* a method's receiver is typed first: its type finds the row */
  bool dropped = false;  /* the receiver a module, dropped from the arguments */
  if (!n->bi) {
    if (!(args[0] = ty_expr(in, n->list.items[0]))) return NULL;
    if ((n->bi = named_tuple_overload(in, n, args[0]))) {
      /* (spread and bound by it) */
    } else if (ty_failed(in)) {
      return NULL;
    } else if ((n->bi = module_function(in, n, args[0]))) {
      if (!n->bi->name || !spread_builtin_args(in, n)) return NULL;
      dropped = true;
    } else if ((n->bi = bi_member(args[0]->kind, BK_METHOD, n->str))) {
      if (!spread_builtin_args(in, n)) return NULL;  /* a.sum(*axes), as a function's: once the row is known */
    } else if (!spread_builtin_args(in, n)) {  /* a jitclass's or an overload_method's: spread before they bind */
      return NULL;
    } else if (!(n->bi = args[0]->kind == TY_CLASS ? ty_jitclass_method(in, n, args[0]) : ty_extension_member(in, n, args[0]))) {
      return ty_unknown_member(in, n, args[0], BK_METHOD);
    }
    first = !n->lhs && !dropped;  /* (p.f(x) of a FunctionType field f: the receiver went into the callee, n->lhs) */
  }
  ty_dtype_names_as_text(n);
  for (int i = first; i < n->list.len; i++)
    if (!(args[i] = ty_call_arg(in, n, n->list.items[i], false, optional_at(n, i)))) return NULL;
  if (!drop_trailing_none(in, n, first)) return NULL;
  int kept = 0;
  for (int i = 0; i < n->kw.len; i++) {
    Node *x = n->kw.items[i];
    bool typed = x->kind == N_VAR;  /* a variable first: one known to be None becomes N_NONE */
    if (typed && !ty_call_arg(in, n, x, true, false)) return NULL;
    if (x->kind == N_NONE && !(n->bi->flags & BF_NONE)) continue;  /* None given: the default, as the frontend */
    if (!typed && !ty_call_arg(in, n, x, true, false)) return NULL;
    n->kw_names[kept] = n->kw_names[i];
    n->kw.items[kept++] = x;
  }
  n->kw.len = kept;
  positional_out(in, n);
  /* a package's @overload of it for its own value type (numpy.shape of a sparse matrix, numpy.divmod of an
   * array-like value): before the builtin reads such an argument as an array-like sequence */
  void *overload = n->bi->kind == BK_FUNCTION && in->opts && in->opts->find_overload
                       ? in->opts->find_overload(in->opts->resolve_ctx, n->bi, args, n->list.len) : NULL;
  if (overload) {
    n->callee = overload;
    n->bi = bi_named("a ruchey function");
    return n->bi->type(in, n, args);
  }
  if ((n->bi->flags & BF_ARRAYLIKE) && !ty_arraylike_args(in, n, args)) return NULL;
  /* a ufunc of 0-d arrays gives a number; arguments past the row's least may be outputs (numpy.round(x, 1, out)) */
  bool no_out = !ty_kwarg(n, "out") && n->list.len - (n->bi->kind == BK_METHOD) <= n->bi->min_args;
  if (n->bi->lower_elem && no_out && only_0d_arrays(args, n->list.len, true) &&
      !ty_elements_of_0d(in, n->list.items, args, n->list.len))
    return NULL;
  if (n->bi->kind == BK_FUNCTION && n->list.len == 1 && args[0]->kind == TY_CLASS) {
    const Type *special = ty_jitclass_builtin(in, n);
    if (special || ty_failed(in)) return special;
  }
  const Type *overloaded;
  if (n->bi->kind == BK_FUNCTION && n->list.len == 1 && args[0]->kind == TY_TUPLE && ty_extension_text(in, n, &overloaded))
    return overloaded;
  int given = n->list.len - (n->bi->kind == BK_METHOD);
  if (!check_place(in, n, n->bi) || !check_arity(in, n, n->bi, given) || !check_complex(in, n, args) ||
      !ty_check_records(in, n, args) || !ty_check_float16(in, n, args) ||
      !ty_check_time(in, n, args))
    return NULL;
  const Builtin *bi = n->bi;  /* (a typer may make the call another node: pow(x, y) x ** y, getattr x.name) */
  const Type *t = bi->type(in, n, args);
  if (bi->flags & BF_STATE) in->f->draws = true;
  if (t && takes_dtype(bi) && none_unread(in, n)) return NULL;
  return bi->lower_elem ? ty_ufunc_out(in, n, t) : t;
}

/* a.flags.name (a.ctypes.name) of an array a: the array's own attribute
 * "flags.name" ("ctypes.name"), as the flags hold nothing but what the
 * array's strides say, and the ctypes object nothing but its data's address. */
static void array_flag_attr(Infer *in, Node *n) {
  Node *group = n->lhs;
  if (group->kind != N_ATTR || (strcmp(group->str, "flags") && strcmp(group->str, "ctypes")) ||
      !ty_expr(in, group->lhs) || group->lhs->ty->kind != TY_ARRAY)
    return;
  size_t len = strlen(group->str) + strlen(n->str) + 2;
  char *name = arena_alloc(in->f->arena, len);
  snprintf(name, len, "%s.%s", group->str, n->str);
  n->lhs = group->lhs;
  n->str = name;
}

/* a.attr: the attribute's row from a's type. */
static const Type *ty_attr(Infer *in, Node *n) {
  array_flag_attr(in, n);
  const Type *base = ty_member_or_value(in, n->lhs);  /* (s.value of an IntEnum member s) */
  if (!base) return NULL;
  if (ty_holds_record(base)) return ty_record_attr(in, n, base);
  if (base->kind == TY_TUPLE && base->callee) return ty_named_field(in, n, base);
  if (base->kind == TY_CLASS) return ty_jitclass_attr(in, n, base);
  if (base->kind == TY_BOUND) return ty_bound_attr(in, n, base);
  const Builtin *bi = bi_member(base->kind, BK_ATTRIBUTE, n->str);
  if (!bi && ty_extension_member(in, n, base)) return ty_expr(in, n);  /* now a call of its getter */
  if (!bi) return ty_unknown_member(in, n, base, BK_ATTRIBUTE);
  n->bi = bi;
  return bi->type(in, n, &base);
}

static const Type *ty_expr_kind(Infer *in, Node *n) {
  switch (n->kind) {
  case N_INT: return TYS(TY_I64);
  case N_FLOAT: return TYS(TY_F64);
  case N_BOOL: return TYS(TY_BOOL);
  case N_VAR: return ty_var(in, n);
  case N_DTYPE:  /* a record, a jitclass, a datetime's unit, an array or container type: its type in data */
    return ty_dtype(n->data ? n->data : TYS(n->ival));
  case N_CONST_ARRAY:
    if (n->op == TY_BYTES) return TYS(TY_BYTES);
    return ty_array(n->callee ? n->callee : TYS(n->op), n->list.len, 'C', true);
  case N_FUNC: return ty_function(n->callee, n->str);
  case N_STRING: return TYS(TY_STR);
  case N_MODULE: return ty_module((ModuleId)n->ival);  /* returned, or an argument of a call, which freezes its parameter to it */
  case N_BINOP: return ty_binop(in, n);
  case N_SPREAD: return ty_display_spread(in, n);
  case N_UNARY: return ty_unary(in, n);
  case N_COMPARE: return ty_compare(in, n);
  case N_BOOLOP: return ty_boolop(in, n);
  case N_IFEXP: return ty_ifexp(in, n);
  case N_CALL: return ty_call(in, n);
  case N_INDEX: return ty_index(in, n);
  case N_ATTR: return ty_attr(in, n);
  case N_TUPLE: return ty_tuple_expr(in, n);
  case N_NONE: return TYS(TY_NONE);
  case N_IS_NONE: return ty_maybe_none(in, n->lhs) ? TYS(TY_BOOL) : NULL;
  case N_UNWRAP: return ty_unwrapped(ty_maybe_none(in, n->lhs));
  case N_ELLIPSIS: return TYS(TY_ELLIPSIS);  /* a value: an index item wherever it ends up in an index */
  default: return ty_error(in, n, "internal error: statement used as an expression");
  }
}

/* What an N_UNWRAP of a value of type t gives: its value (value_of), or
 * of bytes, the array of its items (ty_bytes_view made it). */
static const Type *ty_unwrapped(const Type *t) {
  return t && t->kind == TY_BYTES ? ty_array(t->elem, 1, 'C', true) : value_of(t);
}

/* The value a value of type t gives where one is needed: an Optional's,
 * an IntEnum member's int. */
static const Type *value_of(const Type *t) {
  if (t && t->kind == TY_OPTIONAL) t = t->elem;
  return t && t->kind == TY_INTENUM ? t->elem : t;
}

const Type *ty_maybe_none(Infer *in, Node *n) {
  if (ty_failed(in)) return NULL;
  return n->ty = ty_expr_kind(in, n);
}

/* n, of type t, where its value is needed: an Optional's, checked at run
 * time (TypeError if None), as Numba does; an IntEnum member's int, as
 * Numba converts one. A variable's read converts from the variable's
 * type; another expression is moved under an N_UNWRAP made in its place. */
const Type *ty_bytes_view(Infer *in, Node *n) {
  Node *inner = arena_alloc(in->f->arena, sizeof(Node));
  *inner = *n;
  *n = (Node){.kind = N_UNWRAP, .line = inner->line, .col = inner->col, .lhs = inner};
  return n->ty = ty_unwrapped(inner->ty);
}

static const Type *value_needed(Infer *in, Node *n, const Type *t) {
  const Type *v = value_of(t);
  if (v == t) return t;
  if (n->kind != N_VAR) {
    Node *inner = arena_alloc(in->f->arena, sizeof(Node));
    *inner = *n;
    *n = (Node){.kind = N_UNWRAP, .line = inner->line, .col = inner->col, .lhs = inner};
  }
  return n->ty = v;
}

const Type *ty_expr(Infer *in, Node *n) { return value_needed(in, n, ty_maybe_none(in, n)); }

const Type *ty_member_or_value(Infer *in, Node *n) {
  const Type *t = ty_maybe_none(in, n);
  return t && ty_is_enum(t) ? t : value_needed(in, n, t);
}

/* ---------------------------------------------------------------- statements */

/* x, y = a of a 1-d array or a typed list: the value made a call of
 * "array unpack" (the tuple of a's elements, their count checked at run
 * time); its type. */
static const Type *ty_array_unpacked(Infer *in, Node *at, int count) {
  Node *a = arena_alloc(in->f->arena, sizeof(Node));
  *a = *at;
  *at = (Node){.kind = N_CALL, .line = a->line, .col = a->col, .bi = bi_named("array unpack"), .ival = count};
  at->list.len = 1;
  at->list.items = arena_alloc(in->f->arena, sizeof(Node *));
  at->list.items[0] = a;
  return ty_expr(in, at);
}

static void ty_store(Infer *in, Node *target, const Type *t, Node *at);

/* Whether every value that reaches a write through the name base is a
 * writable array: the name's one type is read-only where another of its
 * values is, but Numba types each value on its own (its SSA), so that
 * `a = np.frombuffer(b, u1)` in one branch leaves `a = np.zeros(n); a[0] = 1`
 * in the other writable. */
static bool writable_where_written(const Node *base) {
  const NodeList *values = base->kind == N_VAR ? base->data : NULL;
  if (!values || !values->len) return false;
  for (int i = 0; i < values->len; i++) {
    const Type *t = values->items[i]->ty;
    if (!t || t->kind != TY_ARRAY || t->readonly) return false;
  }
  return true;
}

/* r.v = x (r['v'] = x) of a record field v that is a C array: r.v[...] = x,
 * x's elements (or x itself, broadcast) stored into the field's, as
 * Numba's. Whether target was such a field, made that store. */
static bool nested_array_store(Infer *in, Node *target, const Type *t, Node *at) {
  const Type *f = ty_expr(in, target);
  if (!f || f->kind != TY_ARRAY || target->kind != N_ATTR) return false;
  Node *field = arena_alloc(in->f->arena, sizeof(Node)), *dots = arena_alloc(in->f->arena, sizeof(Node));
  *field = *target;
  *dots = (Node){.kind = N_ELLIPSIS, .line = target->line, .col = target->col};
  *target = (Node){.kind = N_INDEX, .line = field->line, .col = field->col, .lhs = field, .rhs = dots};
  ty_store(in, target, t, at);
  return true;
}

/* g = f where g holds a first-class function (FunctionType) and f is a
 * compiled function, or the other way round: the variable holds the
 * first-class function, each compiled one stored as its entry for that
 * signature (function_as_entry), whichever assignment is typed first. */
static const Type *function_stored(Infer *in, Node *target, const Type *t, Node *at) {
  const Type **slot = &in->f->var_types[target->var];
  if (!*slot || (in->f->declared_types && in->f->declared_types[target->var])) return t;
  if (t->kind == TY_FUNCPTR && ((*slot)->kind == TY_FUNCTION || (*slot)->kind == TY_FUNCS)) {
    *slot = t;  /* (the other assignments made entries as they are typed again) */
    in->changed = true;
    return t;
  }
  if ((*slot)->kind != TY_FUNCPTR || at->ty != t) return t;
  Node *entry = arena_alloc(in->f->arena, sizeof(Node));  /* (what the entry reads, at's node replaced by it) */
  *entry = *at;
  if (!function_as_entry(in, &entry, *slot, true)) return t;
  *at = *entry;
  return *slot;
}

/* Whether a and b are one type but for the layouts of the arrays they hold. */
static bool same_but_layouts(const Type *a, const Type *b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  if (a->kind == TY_ARRAY) return a->elem == b->elem && a->ndim == b->ndim && a->readonly == b->readonly;
  if (a->kind == TY_LIST) return a->elem && b->elem && same_but_layouts(a->elem, b->elem);
  return a->kind == TY_DICT && a->nfields == 2 && b->nfields == 2 && same_but_layouts(a->fields[0], b->fields[0]) &&
         same_but_layouts(a->fields[1], b->fields[1]);
}

static void ty_store(Infer *in, Node *target, const Type *t, Node *at) {
  if (target->kind == N_ATTR) {
    const Type *owner = ty_expr(in, target->lhs);
    const Type *field = owner && owner->kind == TY_CLASS ? ty_maybe_none(in, target) : NULL;
    /* p.x = a of a 0-d array a and a number field x: a's element, as Numba casts it */
    if (field && is_0d(t) && at->ty == t && ty_is_jitclass_field(target) && ty_is_scalar(field) &&
        !(t = ty_element_of_0d(in, at)))
      return;
    /* p.x = Dict.empty(k, v) of a field x of arrays of another layout (hftbacktest's
     * Dict.empty(int64, np.empty((0, 0))) for a DictType(int64, float64[:, :])): made x's type */
    if (field && at->ty == t && at->kind == N_CALL && at->bi && !strcmp(at->bi->name, "typed.Dict.empty") &&
        ty_is_jitclass_field(target) && same_but_layouts(t, field))
      at->ty = t = field;
    /* p.x = v of a bool field x and a v no number (a str, a list): v's truth, as Numba casts it */
    if (field && field->kind == TY_BOOL && at->ty == t && ty_is_jitclass_field(target) && !ty_is_scalar(t) &&
        t->kind != TY_NONE && !(t = ty_truth_of(in, at, "a bool field")))
      return;
    if (field && t->kind == TY_FUNCTION && at->ty == t && field->kind == TY_FUNCPTR) {
      Node *entry = at;  /* p.f = g of a FunctionType field f: g's entry for f's signature */
      if (!ty_function_entry_for(in, &entry, field)) return;
      *at = *entry;
      t = field;
    }
    if (field) ty_jitclass_store(in, target, t, at);
    else if (owner && owner->kind != TY_CLASS && !nested_array_store(in, target, t, at) && !ty_failed(in))
      ty_record_store(in, target, t, at);
  } else if (target->kind == N_VAR) {
    t = function_stored(in, target, t, at);
    if (ty_failed(in)) return;
    assign_var(in, target, ty_widened_literal(in, target, t, at));
    if (ty_is_container(t) && at->ty == t && target->ty) at->ty = container_held(target->ty, t);
  } else if (target->kind == N_INDEX && (ty_expr(in, target->lhs), ty_failed(in))) {
    return;
  } else if (target->kind == N_INDEX && target->lhs->ty && ty_is_literal_list(target->lhs->ty)) {
    ty_error(in, target, LITERAL_LIST_FROZEN, target->lhs->ty->name);
  } else if (target->kind == N_INDEX && target->lhs->ty && target->lhs->ty->kind == TY_LITDICT) {
    ty_error(in, target, LITERAL_DICT_FROZEN, target->lhs->ty->name);
  } else if (target->kind == N_INDEX && target->lhs->ty && target->lhs->ty->kind == TY_LIST) {
    ty_list_store(in, target, t, at);
  } else if (target->kind == N_INDEX && target->lhs->ty && target->lhs->ty->kind == TY_DICT) {
    ty_dict_store(in, target, t, at);
  } else if (target->kind == N_INDEX && ty_record_keyed(in, target, target->lhs->ty)) {
    if (!nested_array_store(in, target, t, at) && !ty_failed(in)) ty_record_store(in, target, t, at);
  } else if (target->kind == N_INDEX) {
    in->store_target = target;
    const Type *elem = ty_expr(in, target);
    in->store_target = NULL;
    if (!elem) return;
    if (target->lhs->ty->kind == TY_TUPLE) {
      ty_error(in, target, "tuples are immutable");
    } else if (target->lhs->ty->kind == TY_RANGE || target->lhs->ty->kind == TY_STR) {
      ty_error(in, target, "'%s' object does not support item assignment", target->lhs->ty->kind == TY_STR ? "str" : "range");
    } else if (target->lhs->ty->readonly && !ty_is_flat_store(target) && !writable_where_written(target->lhs)) {
      ty_error(in, target, "cannot write to a read-only array");
    } else if (elem->kind == TY_ARRAY) {  /* a view, or the elements an array index selects */
      /* a[:, j] = v of an array v None on some path (v=None, set where a branch needs it): its value,
       * TypeError if None, as Numba's */
      if (t->kind == TY_OPTIONAL && at->ty == t && t->elem->kind == TY_ARRAY) t = value_needed(in, at, t);
      ty_index_store(in, target, t, at);
    } else if (target->lhs->ty->kind == TY_ARRAY && ty_is_fixed_text(target->lhs->ty->elem)) {
      /* a '<Un' item takes a str, a '|Sn' one a bytes, cut or NUL-padded to n as NumPy's (or a 0-d array's
       * item, as Numba's setitem reads one); Numba takes no other */
      if (is_0d(t) && ty_is_fixed_text(t->elem) && at->ty == t && !(t = ty_element_of_0d(in, at))) return;
      if (t->kind != elem->kind)
        ty_error(in, at, "cannot store %s into an element of %s: only a %s", t->name, target->lhs->ty->name,
                 elem->kind == TY_STR ? "str" : "bytes");
      else if (ty_no_allocation(in) && !ir_is_text_constant(at))  /* (stored without the runtime) */
        ty_error(in, at, "an item of %s in a kernel takes a constant %s alone: one made as the kernel runs needs "
                 "the runtime's memory", target->lhs->ty->name, elem->kind == TY_STR ? "str" : "bytes");
    } else if (is_0d(t) && ty_is_scalar(elem) && (at->ty == t || target->lhs->ty->kind == TY_ARRAY)) {
      /* a[i] = z of a 0-d array z: z's element, as Numba's setitem takes one; read here, or as the
       * store happens (lo_store) where z is an item of a tuple being unpacked */
      if ((t = at->ty == t ? ty_element_of_0d(in, at) : t->elem)) ty_store(in, target, t, at);
    } else if ((t->kind == TY_OPTIONAL || t->kind == TY_INTENUM) && at->ty == t && ty_is_scalar(t->elem)) {
      /* a[i] = f() of a function that may return None: its value, TypeError if None, as Numba's;
       * a[i] = an IntEnum member: its int */
      ty_store(in, target, value_needed(in, at, t), at);
    } else if ((!ty_is_scalar(t) && !(t->kind == TY_RECORD && t == elem)) || (ty_is_complex(t) && !ty_is_complex(elem))) {
      ty_error(in, at, "cannot store %s into an element of %s", t->name,
               target->lhs->ty->name);
    } else {
      ty_time_store(in, at, t, elem);
    }
  } else {  /* tuple unpacking */
    /* x, y = f() of a function that may return None: its value, TypeError if None, as Numba's */
    if (t->kind == TY_OPTIONAL && at->ty == t) t = value_needed(in, at, t);
    bool sequence = (t->kind == TY_ARRAY && t->ndim >= 1) || (t->kind == TY_LIST && t->elem) || t->kind == TY_RANGE;
    if (sequence && at->ty == t && !(t = ty_array_unpacked(in, at, target->list.len))) return;
    /* a nested target of a sequence field (for i, (x, y) in enumerate(rows)): the store unpacks it
     * (lower/stmt.c), target->ty the sequence */
    const Type *fields = t->kind != TY_TUPLE && sequence ? ty_unpacked(in, at, t, target->list.len) : t;
    if (!fields) return;
    if (fields->kind != TY_TUPLE || fields->nfields != target->list.len) {
      ty_error(in, at, "cannot unpack %s into %d targets", t->name, target->list.len);
      return;
    }
    for (int i = 0; i < target->list.len && !ty_failed(in); i++)
      ty_store(in, target->list.items[i], fields->fields[i], at);
    target->ty = t;
  }
}

static void ty_return(Infer *in, Node *n) {
  if (in->f->generator && n->lhs && n->lhs->kind != N_NONE) {
    ty_error(in, n, "a generator returning a value (StopIteration.value) is not supported in compiled code");
    return;
  }
  if (!n->lhs) {
    in->returns_none = true;
    return;
  }
  in->returning = n->lhs;
  const Type *t = ty_maybe_none(in, n->lhs);
  in->returning = NULL;
  if (!t) return;
  /* ranges (Numba's range_state: a row's range(indptr[i], indptr[i + 1]) for its callers' loops),
   * functions, function pointers (to Python: the function passed for one) and dtypes are returned;
   * a record inside a value is not */
  if (ty_record_inside(t)) {
    ty_error(in, n, "cannot return a value of type %s", t->name);
    return;
  }
  if (t->kind == TY_NONE) {
    in->returns_none = true;
    return;
  }
  in->returns_value = true;
  const Type *u = in->ret ? ty_unify(in->ret, t) : t;
  if (!u) ty_error(in, n, "returned types %s and %s cannot be unified", in->ret->name, t->name);
  else if (ty_record_inside(u)) ty_error(in, n, "a record is returned alone, not as %s", u->name);
  in->ret = u;
  in->f->ret_type = u;  /* so far: what a mutually recursive callee sees */
}

static bool returns_value_visit(Node *n, void *found) {
  if (n->kind == N_RETURN && n->lhs && n->lhs->kind != N_NONE) *(bool *)found = true;
  return !*(bool *)found;
}

bool ty_returns_nothing(const Func *f) {
  bool found = false;
  ir_walk_list(&f->body, returns_value_visit, &found);
  return !found;
}

/* yield x: what the generator yields is the unification of every x. */
static void ty_yield(Infer *in, Node *n) {
  if (ty_in_cuda(in) || (in->opts && in->opts->gpu_cc)) {
    ty_error(in, n, "generators are not supported in CUDA kernels and device functions");
    return;
  }
  if (in->finallys) {  /* (a generator dropped before its end would not run the clause, where Python's does) */
    ty_error(in, n, "a yield inside a try statement with a finally clause is not supported in compiled code");
    return;
  }
  if (in->pranges) {
    ty_error(in, n, "a yield inside a prange loop is not supported in compiled code");
    return;
  }
  const Type *t = n->lhs ? ty_maybe_none(in, n->lhs) : TYS(TY_NONE);
  if (!t) return;
  if (t->kind == TY_RANGE || t->kind == TY_DTYPE || t->kind == TY_FUNCTION || t->kind == TY_FUNCPTR || t->kind == TY_MODULE ||
      t->kind == TY_INFO || ty_record_inside(t) || t->kind == TY_RECORD) {
    ty_error(in, n, "cannot yield a value of type %s", t->name);
    return;
  }
  const Type *u = in->yields ? ty_unify(in->yields, t) : t;
  if (!u) {
    ty_error(in, n, "yielded types %s and %s cannot be unified", in->yields->name, t->name);
    return;
  }
  in->yields = u;
  in->f->ret_type = ty_yields(u);  /* so far: what a recursive call sees */
}

/* A node of the loop being rewritten (ty_generator_loop), at n's place. */
static Node *loop_node(Infer *in, const Node *at, NodeKind kind) {
  Node *n = arena_alloc(in->f->arena, sizeof(Node));
  n->kind = kind;
  n->line = at->line;
  n->col = at->col;
  return n;
}

/* g's value where the walk read g[k] (in the tuple zip() or enumerate()
 * binds too): "generator value"(g). */
static void take_values(Infer *in, Node *n, int var) {
  if (n->kind == N_TUPLE)
    for (int i = 0; i < n->list.len; i++) take_values(in, n->list.items[i], var);
  if (n->kind != N_INDEX || !n->str || n->lhs->kind != N_VAR || n->lhs->var != var) return;
  n->kind = N_CALL;
  n->bi = bi_named("generator value");
  n->list = (NodeList){arena_alloc(in->f->arena, sizeof(Node *)), 1};
  n->list.items[0] = n->lhs;
  n->lhs = n->rhs = NULL;
  n->str = NULL;
}

/* The generators a walk's count names, len(g) (alone, or among min()'s
 * arguments): at most 64, their len() nodes into lens. */
static int walked_generators(Infer *in, Node *count, Node **lens) {
  bool many = ir_calls_builtin(count, "min");
  int n = 0, k = many ? count->list.len : 1;
  for (int i = 0; i < k && n < 64; i++) {
    Node *len = many ? count->list.items[i] : count;
    if (!ir_calls_builtin(len, "len") || len->list.len != 1 || len->list.items[0]->kind != N_VAR)
      continue;
    const Type *t = ty_expr(in, len->list.items[0]);
    if (t && t->kind == TY_YIELDS) lens[n++] = len;
  }
  return n;
}

/* for x in g of a generator object g: the frontend walked it as a
 * sequence, over range(len(g)) (for k in ...: x = g[k]); its length is
 * not known. Alone, the loop becomes `while <g resumed and yielded>: x =
 * <what g yielded>`; in zip() or enumerate(), the count runs to 2**62 and
 * each iteration starts with `if not <g resumed>: break`, g taken in turn
 * (a sequence zipped before g ends the walk without resuming it). */
static bool ty_generator_loop(Infer *in, Node *n) {
  Node *c = n->cond, *count = c->list.len == 1 ? c->list.items[0] : NULL, *lens[64];
  Node *bind = n->body.len ? n->body.items[0] : NULL;
  int ng = count && bind && bind->kind == N_ASSIGN ? walked_generators(in, count, lens) : 0;
  if (!ng) return false;
  Node *g = lens[0]->list.items[0], *item = bind->rhs;
  if (ng == 1 && count == lens[0] && item->kind == N_INDEX && item->lhs->kind == N_VAR && item->lhs->var == g->var) {
    n->kind = N_WHILE;
    n->cond = count;
    count->bi = bi_named("generator resumed");
    take_values(in, item, g->var);
    return true;
  }
  if (n->orelse.len) {
    ty_error(in, n, "a for loop over zip() or enumerate() of a generator cannot have an else clause in compiled code");
    return false;
  }
  NodeList body = {arena_alloc(in->f->arena, sizeof(Node *) * (size_t)(n->body.len + ng)), n->body.len + ng};
  for (int i = 0; i < ng; i++) {
    Node *gen = lens[i]->list.items[0], *resumed = loop_node(in, n, N_CALL), *stop = loop_node(in, n, N_IF);
    resumed->bi = bi_named("generator resumed");
    resumed->list = (NodeList){arena_alloc(in->f->arena, sizeof(Node *)), 1};
    resumed->list.items[0] = gen;
    stop->cond = loop_node(in, n, N_UNARY);
    stop->cond->op = OP_NOT;
    stop->cond->lhs = resumed;
    stop->body = (NodeList){arena_alloc(in->f->arena, sizeof(Node *)), 1};
    stop->body.items[0] = loop_node(in, n, N_BREAK);
    body.items[i] = stop;
    take_values(in, item, gen->var);
    lens[i]->kind = N_INT;  /* the walk's count: no sequence among them ends it first */
    lens[i]->ival = (int64_t)1 << 62;
    lens[i]->bi = NULL;
    lens[i]->list = (NodeList){0};
  }
  for (int i = 0; i < n->body.len; i++) body.items[ng + i] = n->body.items[i];
  n->body = body;
  return false;
}

/* Whether a statement may change a list's length: a method call (append,
 * pop, del x[i]...), a call of a compiled function (which may be given
 * the list), a slice (x[a:b] = y), or x op= y of a list variable x. */
typedef struct {
  const Func *f;
  bool found;
} Resizes;

static bool resizes(Node *n, void *ctx) {
  Resizes *r = ctx;
  if (n->kind == N_CALL && (n->str || n->callee)) r->found = true;
  if (n->kind == N_SLICE) r->found = true;
  if (n->kind == N_AUGASSIGN && n->lhs->kind == N_VAR) {  /* (a variable not typed yet: seen in a later pass) */
    const Type *t = r->f->var_types[n->lhs->var];
    r->found |= t && t->kind == TY_LIST;
  }
  return !r->found;
}

/* for x in xs of a list xs whose body may change its length: Python's
 * walk reads the length at each step (an item appended is walked too, the
 * walk ends early once items are popped), not once before the loop. The
 * count the frontend took, len(xs) (alone, or among min()'s arguments),
 * runs to 2**62 and each iteration starts with `if <list walk ended>(xs,
 * k): break` (k >= len(xs); a typed.List changed is Numba's RuntimeError).
 * A loop with an else clause (which a break would skip) keeps its count. */
static void ty_list_walk(Infer *in, Node *n) {
  Node *c = n->cond, *count = c->list.len == 1 ? c->list.items[0] : NULL;
  if (!count || n->orelse.len || !n->body.len || n->body.items[0]->kind != N_ASSIGN) return;
  bool many = ir_calls_builtin(count, "min");
  int k = many ? count->list.len : 1, nl = 0;
  Node *lens[64];
  for (int i = 0; i < k && nl < 64; i++) {
    Node *len = many ? count->list.items[i] : count;
    if (!ir_calls_builtin(len, "len") || len->list.len != 1 || len->list.items[0]->kind != N_VAR) continue;
    const Type *t = ty_expr(in, len->list.items[0]);
    if (t && t->kind == TY_LIST) lens[nl++] = len;
  }
  if (!nl) return;
  Resizes r = {in->f, false};
  for (int i = 1; i < n->body.len && !r.found; i++) ir_walk(n->body.items[i], resizes, &r);
  if (!r.found) return;
  NodeList body = {arena_alloc(in->f->arena, sizeof(Node *) * (size_t)(n->body.len + nl)), n->body.len + nl};
  for (int i = 0; i < nl; i++) {
    Node *ended = loop_node(in, n, N_CALL), *xs = loop_node(in, n, N_VAR), *stop = loop_node(in, n, N_IF);
    *xs = *lens[i]->list.items[0];
    ended->bi = bi_named("list walk ended");
    ended->list = (NodeList){arena_alloc(in->f->arena, 2 * sizeof(Node *)), 2};
    ended->list.items[0] = xs;
    ended->list.items[1] = loop_node(in, n, N_VAR);
    ended->list.items[1]->var = n->lhs->var;
    stop->cond = ended;
    stop->body = (NodeList){arena_alloc(in->f->arena, sizeof(Node *)), 1};
    stop->body.items[0] = loop_node(in, n, N_BREAK);
    body.items[i] = stop;
    *lens[i] = (Node){.kind = N_INT, .line = lens[i]->line, .col = lens[i]->col, .ival = (int64_t)1 << 62};
  }
  for (int i = 0; i < n->body.len; i++) body.items[nl + i] = n->body.items[i];
  n->body = body;
}

static void ty_cond(Infer *in, Node *c) { ty_truth(in, c, "condition"); }

/* Whether evaluating n can have no effect to keep: variables, constants,
 * their attributes, comparisons and negations (a flag tested before a
 * known operand: `precomputed and t is not None`). */
static bool without_effects(const Node *n) {
  switch (n->kind) {
  case N_VAR: case N_BOOL: case N_INT: case N_FLOAT: case N_NONE: return true;
  case N_IS_NONE: case N_ATTR: return without_effects(n->lhs);
  case N_UNARY: return n->op == OP_NOT && without_effects(n->lhs);
  case N_COMPARE: case N_BOOLOP:
    for (int i = 0; i < n->list.len; i++)
      if (!without_effects(n->list.items[i])) return false;
    return true;
  default: return false;
  }
}

/* A number known from types alone: a literal (a global or closure
 * variable is one, frozen at compile time), its negation, an array's
 * ndim or a tuple's len(); an int as itself, a float as a double. */
typedef struct {
  bool is_float;
  int64_t i;
  double f;
} Known;

static bool known_number(const Infer *in, const Node *n, Known *k);

/* t[i] of a tuple display (or a variable whose one binding is one) at an
 * index known from types: that item, else NULL. `a = (1,)` then
 * `b if a[0] else c` takes b alone, as Python would. */
static const Node *known_tuple_item(const Infer *in, const Node *n) {
  const Node *t = n->lhs;
  for (int hops = 0; t->kind == N_VAR && in && in->only_value && in->only_value[t->var] && hops < 64; hops++)
    t = in->only_value[t->var];
  Known i;
  if (t->kind != N_TUPLE || !n->rhs || !known_number(in, n->rhs, &i) || i.is_float) return NULL;
  int64_t at = i.i < 0 ? i.i + t->list.len : i.i;
  return at >= 0 && at < t->list.len ? t->list.items[at] : NULL;
}

static bool known_number(const Infer *in, const Node *n, Known *k) {
  for (int hops = 0; n->kind == N_VAR && in && in->only_value && in->only_value[n->var] && hops < 64; hops++)
    n = in->only_value[n->var];  /* `num_dims = x.ndim` (sktime), a frozen parameter */
  const Node *item = n->kind == N_INDEX ? known_tuple_item(in, n) : NULL;
  if (item) return known_number(in, item, k);
  if (n->kind == N_INT || n->kind == N_BOOL) return *k = (Known){.i = n->ival}, true;
  if (n->kind == N_FLOAT) return *k = (Known){.is_float = true, .f = n->fval}, true;
  if (n->kind == N_UNARY && n->op == OP_NEG && known_number(in, n->lhs, k) && (k->is_float || k->i != INT64_MIN)) {
    k->i = -k->i, k->f = -k->f;
    return true;
  }
  if (n->kind == N_ATTR && !strcmp(n->str, "ndim") && n->lhs->ty && n->lhs->ty->kind == TY_ARRAY &&
      (n->lhs->kind == N_VAR || n->lhs->kind == N_ATTR))
    return *k = (Known){.i = n->lhs->ty->ndim}, true;
  if (n->kind == N_CALL && n->bi && !strcmp(n->bi->name, "len") && n->list.len == 1) {  /* len(t) of a tuple (Numba's too) */
    const Node *t = n->list.items[0];
    if (t->ty && t->ty->kind == TY_TUPLE && (t->kind == N_VAR || t->kind == N_ATTR))
      return *k = (Known){.i = t->ty->nfields}, true;
  }
  return false;
}

bool ty_known_int(const Infer *in, const Node *n, int64_t *v) {
  Known k;
  if (!known_number(in, n, &k) || k.is_float) return false;
  *v = k.i;
  return true;
}

/* a op b of two numbers known from types: x.ndim == 2, len(t) == 1 of a
 * tuple (Numba prunes on an array argument's ndim and a tuple's len too), `line_width > 0.0` of a closure's
 * constant (as Numba's pruning of freevars); -1 where not. Compared as
 * long doubles, which hold every int64 and double exactly: an int meets a
 * float by value, as Python compares them. */
static int known_pair(const Known *a, int op, const Known *b) {
  long double x = a->is_float ? a->f : a->i, y = b->is_float ? b->f : b->i;  /* both exact there */
  switch (op) {
  case OP_EQ: return x == y;
  case OP_NE: return x != y;
  case OP_LT: return x < y;
  case OP_LE: return x <= y;
  case OP_GT: return x > y;
  case OP_GE: return x >= y;
  default: return -1;
  }
}

/* s == t or s != t of two strs known before the code runs (a literal
 * parameter's): 1 or 0; -1 where not known. */
static int known_string_comparison(const Infer *in, const Node *cond) {
  const Node *a = in ? ty_constant(in, cond->list.items[0]) : NULL;
  const Node *b = a && cond->list.len == 2 ? ty_constant(in, cond->list.items[1]) : NULL;
  if (!b || a->kind != N_STRING || b->kind != N_STRING || (cond->ops[0] != OP_EQ && cond->ops[0] != OP_NE)) return -1;
  bool same = a->ival == b->ival && !memcmp(a->str, b->str, (size_t)a->ival);
  return same == (cond->ops[0] == OP_EQ);
}

/* A chain of comparisons of known numbers (`-1.5 <= w < 0` too): true
 * where every link holds, false where a link fails (as Python stops there). */
static int known_comparison(const Infer *in, const Node *cond) {
  Known k[2];
  int strings = known_string_comparison(in, cond);
  if (strings >= 0) return strings;
  if (!known_number(in, cond->list.items[0], &k[0])) return -1;
  for (int i = 1; i < cond->list.len; i++) {
    if (!known_number(in, cond->list.items[i], &k[i % 2])) return -1;
    int holds = known_pair(&k[(i - 1) % 2], cond->ops[i - 1], &k[i % 2]);
    if (holds <= 0) return holds;
  }
  return 1;
}

/* Whether cond is known from types alone (1 true, 0 false, -1 not): a
 * constant (a literal, a global frozen at compile time, a constant tuple's
 * item, isinstance() or
 * hasattr() of a variable, made one by their typers); x is
 * None where x's type is none, or neither none nor Optional; a variable
 * whose type is none, false; numbers known from types compared (x.ndim,
 * a closure constant). As Numba's
 * branch pruning, the branch not taken is then not typed at all, so that
 * `if out is None: out = numpy.empty_like(x)` compiles for an array out. */
static int known_condition(const Infer *in, const Node *cond) {
  if (cond->kind == N_COMPARE) return known_comparison(in, cond);
  if (cond->kind == N_VAR && in && in->only_value && in->only_value[cond->var] && in->only_value[cond->var] != cond)
    return known_condition(in, in->only_value[cond->var]);  /* fluids' `fprime2_included = fprime2 == True` */
  if (cond->kind == N_BOOL || cond->kind == N_INT) return cond->ival != 0;
  if (cond->kind == N_FLOAT) return cond->fval != 0;
  if (cond->kind == N_INDEX) {
    const Node *item = known_tuple_item(in, cond);
    return item ? known_condition(in, item) : -1;
  }
  if (cond->kind == N_UNARY && cond->op == OP_NOT) {
    int k = known_condition(in, cond->lhs);
    return k < 0 ? k : !k;
  }
  if (cond->kind == N_BOOLOP) {  /* decided by a known operand after ones without effects */
    bool and = cond->op == OP_AND, unknown = false;
    for (int i = 0; i < cond->list.len; i++) {
      int k = known_condition(in, cond->list.items[i]);
      if (k >= 0 && k != and) return k;
      if (k < 0 && !without_effects(cond->list.items[i])) return -1;
      unknown |= k < 0;
    }
    return unknown ? -1 : and;
  }
  if ((cond->kind == N_VAR || cond->kind == N_NONE) && cond->ty && cond->ty->kind == TY_NONE) return 0;
  if (cond->kind != N_IS_NONE || !cond->lhs->ty || cond->lhs->ty->kind == TY_OPTIONAL) return -1;
  if (!without_effects(cond->lhs)) return -1;  /* `if f(a) is None`: f runs, whatever its type says */
  return (cond->lhs->ty->kind == TY_NONE) != (cond->ival != 0);
}

/* n (an if or a while) whose condition is known: the block taken alone is
 * typed, and at the last pass n becomes it (later passes never see the
 * untyped nodes of the one not taken). */
static void ty_taken_only(Infer *in, Node *n, NodeList *taken) {
  ty_block(in, taken);
  if (in->final) {
    n->kind = N_BLOCK;
    n->body = *taken;
    n->orelse = (NodeList){0};
    n->cond = NULL;
  }
}

static void ty_if(Infer *in, Node *n) {
  ty_cond(in, n->cond);
  int known = ty_failed(in) ? -1 : known_condition(in, n->cond);
  if (known < 0) {
    ty_block(in, &n->body);
    ty_block(in, &n->orelse);
    return;
  }
  ty_taken_only(in, n, known ? &n->body : &n->orelse);
}

/* What else a CPU's raise takes, boxed as Python objects when it raises
 * (lowered by raise_objects): the values Numba boxes for an exception --
 * arrays, lists, dicts, sets, complex numbers, records, enum members,
 * jitclass instances, bytes, optionals and tuples of them; not a range, a
 * LiteralStrKey dict or a random generator, which Numba cannot box. */
static bool boxable(const Type *t) {
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (!boxable(t->fields[i])) return false;
  switch (t->kind) {
  case TY_TUPLE: case TY_ARRAY: case TY_LIST: case TY_DICT: case TY_SET: case TY_C64: case TY_C128: case TY_F16:
  case TY_RECORD: case TY_ENUM: case TY_INTENUM: case TY_CLASS: case TY_BYTES: return true;
  case TY_OPTIONAL: return boxable(t->elem);
  default: return ty_raised_as_text(t);
  }
}

/* raise E(a, *t, k=v): t's items in its place; the keywords' values are
 * boxed with the others, the exception made of them in Python. */
static void ty_raise_args(Infer *in, Node *n) {
  bool gpu = ty_in_cuda(in);  /* a kernel's raise stops it: its values travel as text */
  if (!spread_builtin_args(in, n)) return;
  if (n->kw.len && gpu) {
    ty_error(in, n, "an exception raised in a CUDA kernel takes no keyword arguments");
    return;
  }
  int count = n->list.len + n->kw.len;
  for (int i = 0; i < count; i++) {
    Node *a = i < n->list.len ? n->list.items[i] : n->kw.items[i - n->list.len];  /* an IntEnum member or an Optional as it is (boxed so: Python gets the member, None), as Numba's */
    const Type *t = gpu ? ty_expr(in, a) : ty_maybe_none(in, a);
    if (t && gpu && !ty_raised_as_text(t) && !ty_is_enum(t))
      ty_error(in, a, "an exception's arguments in a CUDA kernel are str, int, float, bool, None or "
               "datetime64 values or tuples of them, got %s: write str(...) or an f-string", t->name);
    else if (t && !gpu && !boxable(t))
      ty_error(in, a, "Cannot convert native %s to a Python object for an exception's arguments: "
               "they are numbers, str, bool, None, arrays, lists, dicts, sets, records or tuples of them", t->name);
  }
}

/* A CUDA thread cannot catch: a GPU stops the kernel where one raises. */
static void ty_try(Infer *in, Node *n) {
  if (ty_in_cuda(in)) {
    ty_error(in, n, "try/except is not supported in CUDA kernels and device functions");
    return;
  }
  in->finallys += n->lhs != NULL;
  ty_block(in, &n->body);
  for (int i = 0; i < n->list.len; i++) ty_block(in, &n->list.items[i]->body);
  ty_block(in, &n->orelse);
  if (n->lhs) ty_block(in, &n->lhs->body);
  in->finallys -= n->lhs != NULL;
}

/* x += y of a list x: the statement becomes x.extend(y) (any iterable
 * extend takes); x is not rebound, as Python's list.__iadd__ returns it. */
static void list_extend_in_place(Infer *in, Node *n) {
  Node *call = arena_alloc(in->f->arena, sizeof(Node));
  Node **args = arena_alloc(in->f->arena, 2 * sizeof(Node *));
  args[0] = n->lhs;
  args[1] = n->rhs;
  *call = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .str = "extend", .list = {args, 2}};
  *n = (Node){.kind = N_EXPR, .line = n->line, .col = n->col, .lhs = call};
  ty_expr(in, call);
}

static void ty_stmt(Infer *in, Node *n);

/* x *= k of a list x: the statement becomes x[:] = x * k, x changed in
 * place, as Python's list.__imul__ does (another name for x sees it). */
static void list_repeat_in_place(Infer *in, Node *n) {
  Node *target = arena_alloc(in->f->arena, sizeof(Node)), *all = arena_alloc(in->f->arena, sizeof(Node));
  Node *product = arena_alloc(in->f->arena, sizeof(Node)), *x = arena_alloc(in->f->arena, sizeof(Node));
  *x = *n->lhs;  /* read once more for the product */
  *all = (Node){.kind = N_SLICE, .line = n->line, .col = n->col};
  *target = (Node){.kind = N_INDEX, .line = n->line, .col = n->col, .lhs = n->lhs, .rhs = all};
  *product = (Node){.kind = N_BINOP, .line = n->line, .col = n->col, .op = OP_MUL, .lhs = x, .rhs = n->rhs};
  *n = (Node){.kind = N_ASSIGN, .line = n->line, .col = n->col, .lhs = target, .rhs = product};
  ty_stmt(in, n);
}

/* x[i] = v, n the statement, x of a package's value type: made a call of
 * the overload of operator.setitem; false where x is of no such type. */
static bool ty_value_setitem(Infer *in, Node *n) {
  Node *const args[3] = {n->lhs->lhs, n->lhs->rhs, n->rhs};
  Node *call = arena_alloc(in->f->arena, sizeof(Node)), saved = *n;
  *call = (Node){.line = n->line, .col = n->col};
  *n = (Node){.kind = N_EXPR, .line = n->line, .col = n->col, .lhs = call};
  const Type *typed;
  if (ty_extension_subscript(in, call, args, 3, &typed)) return true;
  *n = saved;
  return false;
}

static void ty_stmt(Infer *in, Node *n) {
  switch (n->kind) {
  case N_ASSIGN: {
    if (n->lhs->kind == N_INDEX) ty_row_literal(in, n->lhs, n->rhs);
    const Type *held = n->lhs->kind == N_INDEX ? ty_maybe_none(in, n->lhs->lhs) : NULL;
    if (held && held->kind == TY_CLASS) {
      ty_jitclass_setitem(in, n);
      break;
    }
    if (held && held->kind == TY_TUPLE && ty_value_setitem(in, n)) break;
    const Type *t = ty_maybe_none(in, n->rhs);
    const Type *owner = t && n->lhs->kind == N_ATTR ? ty_expr(in, n->lhs->lhs) : NULL;
    if (owner && owner->kind == TY_CLASS && ty_jitclass_setter(in, n, owner)) break;
    if (owner && owner->kind == TY_CLASS && !ty_maybe_none(in, n->lhs)) break;  /* the field's type */
    if (t) ty_store(in, n->lhs, t, n->rhs);
    break;
  }
  case N_AUGASSIGN: {
    if (ty_jitclass_optional_update(in, n)) {  /* now p.x = p.x op v */
      ty_stmt(in, n);
      break;
    }
    const Type *cur = ty_expr(in, n->lhs), *t = ty_expr(in, n->rhs);
    if (cur && t && ty_is_scalar(cur) && is_0d(t)) t = ty_element_of_0d(in, n->rhs);  /* a 0-d array in place stays one */
    if (!cur || !t) break;
    if ((cur->kind == TY_CLASS || t->kind == TY_CLASS) && ty_jitclass_update(in, n)) {  /* now x = x.__iop__(v) */
      ty_stmt(in, n);
      break;
    }
    if (ty_is_text_field(n->lhs)) {  /* its str or bytes is a copy: the field is written by a store */
      ty_error(in, n, "r.%s op= v of a str or bytes field is not supported in compiled code: write r.%s = r.%s op v",
               n->lhs->str, n->lhs->str, n->lhs->str);
      break;
    }
    if ((cur->kind == TY_TUPLE || t->kind == TY_TUPLE) && ty_extension_update(in, n)) {  /* now x = x op y */
      ty_stmt(in, n);
      break;
    }
    if (cur->kind == TY_LIST && n->op == OP_ADD && t->kind == TY_ARRAY) {
      ty_error(in, n, "x += a of a list and an array is NumPy's x + a in Python (a new array), not supported in "
               "compiled code: write x.extend(a) or numpy.asarray(x) + a");
      break;
    }
    if (cur->kind == TY_LIST && n->op == OP_ADD) {  /* x += y is x.extend(y), in place, as Python's */
      list_extend_in_place(in, n);
      break;
    }
    if (cur->kind == TY_LIST && n->op == OP_MUL && n->lhs->kind == N_VAR) {
      list_repeat_in_place(in, n);
      break;
    }
    const Type *r = ty_binop_types(in, n, n->op, n->lhs, cur, n->rhs, t);
    if (cur->kind == TY_ARRAY) {  /* in place: the array keeps its identity and dtype */
      const Node *t = n->lhs;
      if (cur->readonly ||
          (t->kind == N_INDEX && t->lhs->ty->kind == TY_ARRAY && t->lhs->ty->readonly && !writable_where_written(t->lhs))) {
        ty_error(in, t, "cannot write to a read-only array");
        break;
      }
      n->ty = ty_array_update(in, n, cur, r);
      break;
    }
    n->ty = r;
    if (r) ty_store(in, n->lhs, r, n);
    if (n->lhs->kind == N_VAR) n->lhs->ty = cur;  /* read as cur (an Optional's value), stored as the variable's */
    break;
  }
  case N_IF:
    ty_if(in, n);
    break;
  case N_WHILE:
    ty_cond(in, n->cond);
    if (!ty_failed(in) && known_condition(in, n->cond) == 0) {  /* never runs: its else alone */
      ty_taken_only(in, n, &n->orelse);
      break;
    }
    ty_block(in, &n->body);
    ty_block(in, &n->orelse);
    break;
  case N_FOR:
    if (n->cond->kind == N_CALL && ty_generator_loop(in, n)) {
      ty_stmt(in, n);
      break;
    }
    /* a loop variable declared another integer type (locals=) holds each
     * int64 value converted, as Numba's does */
    if (in->f->declared_types && in->f->declared_types[n->lhs->var] &&
        !ty_is_int(in->f->declared_types[n->lhs->var])) {
      ty_error(in, n->lhs, "a for loop's variable is an int64: locals cannot declare it %s",
               in->f->declared_types[n->lhs->var]->name);
      break;
    }
    if (n->cond->kind == N_CALL && !(n->cond->bi && (n->cond->bi->flags & BF_PARALLEL))) ty_list_walk(in, n);
    if (ty_expr(in, n->cond)) ty_store(in, n->lhs, TYS(TY_I64), n->lhs);
    bool parallel = n->cond->kind == N_CALL && n->cond->bi && (n->cond->bi->flags & BF_PARALLEL);
    in->pranges += parallel;
    ty_block(in, &n->body);
    in->pranges -= parallel;
    ty_block(in, &n->orelse);
    break;
  case N_RETURN: ty_return(in, n); break;
  case N_EXPR: ty_maybe_none(in, n->lhs); break;  /* its value unused: None is no error (f(x) returning an Optional) */
  case N_BLOCK: ty_block(in, &n->body); break;
  case N_ASSERT: ty_cond(in, n->cond); break;
  case N_RAISE: ty_raise_args(in, n); break;
  case N_TRY: ty_try(in, n); break;
  case N_YIELD: ty_yield(in, n); break;
  default: break;
  }
}

static bool block_ends(const NodeList *l);

/* Whether n never goes on to the statement after it: it returns, raises,
 * breaks or continues on every path, a branch pruned on a constant or on
 * None taken alone (it is typed, but not yet pruned before the last pass). */
static bool stmt_ends(const Node *n) {
  switch (n->kind) {
  case N_BREAK: case N_CONTINUE: return true;
  case N_IF: {
    int known = known_condition(NULL, n->cond);  /* (on the condition itself: a variable's value is not asked here) */
    if (known >= 0) return block_ends(known ? &n->body : &n->orelse);
    return block_ends(&n->body) && block_ends(&n->orelse);
  }
  case N_BLOCK: return block_ends(&n->body);
  default: return stmt_returns(n);
  }
}

static bool block_ends(const NodeList *l) {
  for (int i = 0; i < l->len; i++)
    if (stmt_ends(l->items[i])) return true;
  return false;
}

/* What follows a statement that always returns, raises or jumps never runs: it
 * is not typed, and goes at the last pass (as Numba removes dead code), so
 * that a branch pruned on None may end the function for one type. */
static bool ty_block(Infer *in, NodeList *l) {
  for (int i = 0; i < l->len && !ty_failed(in); i++) {
    ty_stmt(in, l->items[i]);
    if (i + 1 < l->len && stmt_ends(l->items[i])) {
      if (in->final) l->len = i + 1;
      break;
    }
  }
  return !ty_failed(in);
}


static bool block_breaks(const NodeList *l);

static bool try_breaks(const Node *n) {
  for (int i = 0; i < n->list.len; i++)
    if (block_breaks(&n->list.items[i]->body)) return true;
  return block_breaks(&n->body) || block_breaks(&n->orelse) || (n->lhs && block_breaks(&n->lhs->body));
}

/* A try statement never completes if its finally clause never does, or
 * if neither its body (with else) nor any except clause does. */
static bool try_returns(const Node *n) {
  if (n->lhs && block_returns(&n->lhs->body)) return true;
  if (!block_returns(&n->body) && !block_returns(&n->orelse)) return false;
  for (int i = 0; i < n->list.len; i++)
    if (!block_returns(&n->list.items[i]->body)) return false;
  return true;
}

/* Whether a break in l (not inside a nested loop) leaves the loop. */
static bool block_breaks(const NodeList *l) {
  for (int i = 0; i < l->len; i++) {
    const Node *n = l->items[i];
    if (n->kind == N_BREAK) return true;
    if ((n->kind == N_IF || n->kind == N_BLOCK) &&
        (block_breaks(&n->body) || block_breaks(&n->orelse)))
      return true;
    if ((n->kind == N_FOR || n->kind == N_WHILE) && block_breaks(&n->orelse)) return true;
    if (n->kind == N_TRY && try_breaks(n)) return true;
  }
  return false;
}

/* Whether control can never fall off the end of statement n. */
static bool stmt_returns(const Node *n) {
  switch (n->kind) {
  case N_RETURN: case N_RAISE: return true;
  case N_IF: return block_returns(&n->body) && block_returns(&n->orelse);
  case N_BLOCK: return block_returns(&n->body);
  case N_TRY: return try_returns(n);
  case N_WHILE:  /* while True: without a break leaves only by returning */
    if (n->cond->kind == N_BOOL && n->cond->ival && !block_breaks(&n->body)) return true;
    __attribute__((fallthrough));  /* a loop without a break runs its else clause whenever it ends */
  case N_FOR:
    return block_returns(&n->orelse) && !block_breaks(&n->body);
  default: return false;
  }
}

static bool block_returns(const NodeList *l) {
  for (int i = 0; i < l->len; i++)
    if (stmt_returns(l->items[i])) return true;
  return false;
}

/* A generator function returns its generator object; what it yields is
 * fixed by its yields (None where it yields none, or only bare ones). */
static bool ty_generator_function(Func *f, Infer *in, const CompileOptions *opts, Diag *diag) {
  const char *why = opts && (opts->kernel || opts->device || opts->gpu_cc) ? "in CUDA kernels and device functions"
                  : opts && opts->c_entry ? "as a cfunc"
                  : opts && opts->ufunc_loop ? "as a ufunc" : NULL;
  if (why) {
    diag->kind = DIAG_TYPING;
    diag->line = f->line;
    snprintf(diag->msg, sizeof diag->msg, "generator function '%s' cannot be compiled %s", f->name, why);
    return false;
  }
  /* An explicit signature's return type is, as Numba reads it, that of
   * the value the generator ends with (None): a generator that ends takes
   * none other; one that never ends (`while True: yield`) takes any. */
  const Type *declared = opts ? opts->declared_ret : NULL;
  bool ends = !block_returns(&f->body) || in->returns_none || in->returns_value;
  if (declared && declared->kind != TY_NONE && ends) {
    diag->kind = DIAG_TYPING;
    diag->line = f->line;
    snprintf(diag->msg, sizeof diag->msg, "generator function '%s' ends with None, but its signature declares %s",
             f->name, declared->name);
    return false;
  }
  f->yield_type = in->yields ? in->yields : TYS(TY_NONE);
  f->ret_type = ty_yields(f->yield_type);
  return true;
}

/* Whether a container of have's items is one of want's as it stands:
 * arrays differing in layout alone share a struct, so a list of C arrays
 * is a list of A arrays (Numba unifies the list's type with the declared
 * one; ruchey reads the same memory). */
static bool items_as_declared(const Type *want, const Type *have) {
  if (want == have) return true;
  if (want->kind == TY_ARRAY && have->kind == TY_ARRAY) return want->ndim == have->ndim && want->elem == have->elem;
  if (want->kind == TY_LIST && have->kind == TY_LIST) return items_as_declared(want->elem, have->elem);
  return want->kind == TY_DICT && have->kind == TY_DICT && want->nfields == 2 && have->nfields == 2 &&
         want->fields[0] == have->fields[0] && items_as_declared(want->fields[1], have->fields[1]);
}

/* Whether a function returning have may return it as an explicit
 * signature's want, converted: a number as another number (not a complex
 * as a real), an array as one of its element type and dimensions, a tuple
 * item by item (Numba casts a float32 to a declared float64 in a tuple),
 * a container as one whose items differ in array layout alone. */
static bool returns_as_declared(const Type *want, const Type *have) {
  if (want == have) return true;
  if (have->kind == TY_INTENUM && ty_is_scalar(want)) have = have->elem;  /* an IntEnum member is its int */
  if (ty_is_container(want)) return items_as_declared(want, have);
  if (ty_is_scalar(want) && ty_is_scalar(have)) return ty_is_complex(want) || !ty_is_complex(have);
  if (want->kind == TY_ARRAY && have->kind == TY_ARRAY) return want->ndim == have->ndim && want->elem == have->elem;
  if (want->kind != TY_TUPLE || have->kind != TY_TUPLE || want->nfields != have->nfields) return false;
  for (int i = 0; i < want->nfields; i++)
    if (!returns_as_declared(want->fields[i], have->fields[i])) return false;
  return true;
}

/* How many times each variable is bound, and the value of each one bound
 * once, by an assignment at the body's top level. */
typedef struct Bindings {
  int *count;
  Node **value;
} Bindings;

static void count_target(Bindings *b, const Node *t) {
  if (t->kind == N_VAR) b->count[t->var]++;
  for (int i = 0; t->kind == N_TUPLE && i < t->list.len; i++) count_target(b, t->list.items[i]);
}

static bool count_binding(Node *n, void *ctx) {
  if ((n->kind == N_ASSIGN || n->kind == N_AUGASSIGN || n->kind == N_FOR) && n->lhs) count_target(ctx, n->lhs);
  return true;
}

static bool note_binding(Node *n, void *ctx) {
  Bindings *b = ctx;
  if (n->kind == N_ASSIGN && n->lhs && n->lhs->kind == N_VAR && b->count[n->lhs->var] == 1) b->value[n->lhs->var] = n->rhs;
  return true;
}

/* Per variable, the value of its one binding wherever it is (a copy of a
 * literal_unroll body's `x = $t[k]`): a constant's value there is the
 * variable's wherever it is read, as Numba types it as the literal. */
static Node **bound_once(Func *f) {
  Bindings b = {arena_alloc(f->arena, sizeof(int) * (size_t)(f->nvars ? f->nvars : 1)),
                arena_alloc(f->arena, sizeof(Node *) * (size_t)(f->nvars ? f->nvars : 1))};
  ir_walk_list(&f->body, count_binding, &b);
  for (int p = 0; p < f->nparams; p++) b.count[p]++;  /* a parameter is bound by the call */
  ir_walk_list(&f->body, note_binding, &b);
  return b.value;
}

static void mark_targets(bool *marks, const Node *t) {
  if (t->kind == N_VAR) marks[t->var] = true;
  for (int i = 0; t->kind == N_TUPLE && i < t->list.len; i++) mark_targets(marks, t->list.items[i]);
}

static bool note_beyond_none(Node *n, void *ctx) {
  bool *beyond = ctx;
  if ((n->kind == N_ASSIGN || n->kind == N_AUGASSIGN || n->kind == N_FOR) && n->lhs &&
      !(n->kind == N_ASSIGN && n->lhs->kind == N_VAR && n->rhs && n->rhs->kind == N_NONE))
    mark_targets(beyond, n->lhs);
  return true;
}

/* Per variable, whether some binding gives it other than the literal None
 * (a value that may widen its type to an Optional in a later pass). */
static bool *binds_beyond_none(Func *f) {
  bool *beyond = arena_alloc(f->arena, sizeof(bool) * (size_t)(f->nvars ? f->nvars : 1));  /* (zeroed) */
  ir_walk_list(&f->body, note_beyond_none, beyond);
  return beyond;
}

/* Whether parameter p's one binding is `p = literally(p)` at the body's
 * top level (Numba's idiom), which leaves it its frozen value. */
static bool rebinds_literally(const Func *f, int p) {
  for (int i = 0; i < f->body.len; i++) {
    const Node *s = f->body.items[i], *v = s->rhs;
    if (s->kind == N_ASSIGN && s->lhs->kind == N_VAR && s->lhs->var == p)
      return v && v->kind == N_CALL && v->bi && (v->bi->flags & BF_LITERAL) && v->list.len == 1 &&
             v->list.items[0]->kind == N_VAR && v->list.items[0]->var == p;
  }
  return false;
}

/* Per variable, the value of its one binding where that is an assignment
 * at the body's top level, or a parameter's frozen constant (literally())
 * where the body never rebinds it: a condition on the variable is known
 * where that value's is (its branch pruned, as Numba prunes by the literal
 * its comparison with None types as). */
static Node **only_values(Func *f, const CompileOptions *opts) {
  Bindings b = {arena_alloc(f->arena, sizeof(int) * (size_t)(f->nvars ? f->nvars : 1)),
                arena_alloc(f->arena, sizeof(Node *) * (size_t)(f->nvars ? f->nvars : 1))};
  ir_walk_list(&f->body, count_binding, &b);
  for (int i = 0; i < f->body.len; i++) {
    Node *s = f->body.items[i];
    if (s->kind == N_ASSIGN && s->lhs->kind == N_VAR && s->lhs->var >= f->nparams && b.count[s->lhs->var] == 1)
      b.value[s->lhs->var] = s->rhs;
  }
  for (int p = 0; opts && opts->frozen && p < f->nparams; p++)
    if (!b.count[p] || (b.count[p] == 1 && rebinds_literally(f, p))) b.value[p] = (Node *)opts->frozen[p];
  return b.value;
}

/* n's value where typing knows it before the code runs: a constant int,
 * bool or str written in the source, a variable whose one binding is one,
 * a frozen parameter, literally() of one. What Numba types as a literal. */
const Node *ty_constant(const Infer *in, const Node *n) {
  for (int hops = 0; n && hops < 64; hops++) {
    if (n->kind == N_INT || n->kind == N_BOOL || n->kind == N_STRING) return n;
    if (n->kind == N_VAR && in->only_value) n = in->only_value[n->var];
    else if (n->kind == N_CALL && n->bi && (n->bi->flags & BF_LITERAL) && n->list.len == 1) n = n->list.items[0];
    else return NULL;
  }
  return NULL;
}

/* Whether f's recursive calls took its result as the type its returns
 * give, or one that converts it (an Optional of it, a wider number);
 * else f->retype_as is what to type it again with, or an error where
 * no type holds both. */
static bool recursion_converges(Func *f, const CompileOptions *opts, Diag *diag) {
  if (!f->recursed_as || (opts && opts->declared_ret) || f->generator) return true;
  const Type *u = ty_unify(f->recursed_as, f->ret_type);
  if (u == f->recursed_as && !f->recursed_varies) return true;
  if (u) {
    f->retype_as = u;
    return true;
  }
  diag->kind = DIAG_TYPING;
  diag->line = f->line;
  snprintf(diag->msg, sizeof diag->msg, "Return type of recursive function does not converge: '%s' returns %s, "
           "its recursive calls take %s", f->name, f->ret_type->name, f->recursed_as->name);
  return false;
}

/* How many times var is assigned in the bodies of the prange loops under a
 * node (a nested one counted with the loop around it). */
typedef struct PrangeAssigned {
  int var, count;
} PrangeAssigned;

static bool visit_prange_body(Node *n, void *ctx) {
  PrangeAssigned *p = ctx;
  if (n->kind != N_FOR || !n->cond || n->cond->kind != N_CALL || !n->cond->bi ||
      !(n->cond->bi->flags & BF_PARALLEL))
    return true;
  p->count += ir_assignments(&n->body, p->var, NULL);
  return false;
}

/* Numba's parfors type the variables of a prange body without jit's
 * locals={...} (muon's float32 bisection bounds are float64 there): in
 * code written for Numba compiled parallel, a declared variable assigned
 * only inside prange loops' bodies is inferred as if undeclared. */
static void undeclare_prange_locals(Func *f) {
  for (int v = f->nparams; v < f->nvars; v++) {
    if (!f->declared_types[v]) continue;
    PrangeAssigned p = {v, 0};
    ir_walk_list(&f->body, visit_prange_body, &p);
    if (p.count && p.count == ir_assignments(&f->body, v, NULL)) f->declared_types[v] = NULL;
  }
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
  if (!an_unroll_literal(f, argtypes, diag)) return false;
  if (f->declared_types && opts && opts->numba_code && opts->parallel) undeclare_prange_locals(f);
  an_split_webs(f, argtypes);  /* a name rebound to another type types each value on its own, as Numba */
  for (int i = 0; i < f->nparams; i++) f->var_types[i] = argtypes[i];
  f->param_types = argtypes;
  in.only_value = only_values(f, opts);
  in.bound_once = bound_once(f);
  in.beyond_none = binds_beyond_none(f);
  for (int i = 0; f->declared_types && i < f->nvars; i++) {
    const Type *want = f->declared_types[i];
    if (want && i < f->nparams && !declared_accepts(want, argtypes[i])) {
      diag->kind = DIAG_TYPING;
      diag->line = f->line;
      snprintf(diag->msg, sizeof diag->msg, "parameter '%s' is declared %s (locals), and cannot take %s",
               f->var_names[i], want->name, argtypes[i]->name);
      return false;
    }
    if (want) f->var_types[i] = want;
  }
  for (int pass = 0; pass < 64; pass++) {
    in.changed = false;
    in.ret = in.yields = NULL;
    in.returns_none = in.returns_value = false;
    if (!ty_block(&in, &f->body)) return false;
    bool none = in.returns_none || (in.returns_value && !block_returns(&f->body));
    in.changed |= none != in.returned_none;
    in.returned_none = none;
    if (!in.changed) break;
  }
  in.final = true;
  in.ret = in.yields = NULL;
  in.returns_none = in.returns_value = false;
  if (!ty_block(&in, &f->body)) return false;
  if (f->generator) return ty_generator_function(f, &in, opts, diag);
  if (in.returns_value && !block_returns(&f->body)) in.returns_none = true;
  /* a value on some paths and None on others: an Optional, as Numba */
  f->ret_type = !in.returns_value ? TYS(TY_NONE) : in.returns_none ? ty_unify(TYS(TY_NONE), in.ret) : in.ret;
  if (ty_record_inside(f->ret_type)) {  /* a record on some paths, None on others */
    diag->kind = DIAG_TYPING;
    diag->line = f->line;
    snprintf(diag->msg, sizeof diag->msg, "function '%s' returns a record on some paths and None on others", f->name);
    return false;
  }
  if (opts && opts->kernel && in.returns_value) {  /* a TypeError, as numba-cuda's */
    diag->kind = DIAG_TYPE;
    diag->line = f->line;
    snprintf(diag->msg, sizeof diag->msg, "kernel '%s' returns a value: a CUDA kernel must have void return type",
             f->name);
    return false;
  }
  if (opts && opts->declared_ret && !(opts->declared_ret == f->ret_type)) {
    const Type *want = opts->declared_ret;
    /* one that only raises returns nothing, so takes any declared type, as Numba's */
    bool never_returns = !in.returns_value && !in.returns_none && block_returns(&f->body);
    if (!never_returns && !returns_as_declared(want, f->ret_type)) {
      diag->kind = DIAG_TYPING;
      diag->line = f->line;
      snprintf(diag->msg, sizeof diag->msg, "function '%s' returns %s, but its signature declares %s",
               f->name, f->ret_type->name, want->name);
      return false;
    }
    f->ret_type = want;
  }
  return recursion_converges(f, opts, diag);
}
