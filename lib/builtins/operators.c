/* builtins/operators.c — NumPy's ufuncs for Python's operators:
 * numpy.add, subtract, ..., the comparisons (numpy.less ...), the logical
 * and bitwise functions, numpy.negative, positive and invert. On arrays
 * they are the operators' array expressions (fused, broadcast, with
 * NumPy's dtypes; out= as every ufunc); on numbers they compute as NumPy
 * does: ints wrap, division by zero gives inf, nan or 0 without raising.
 */
#include "builtins/builtins.h"


static bool any_array(Node *n, const Type **args) {
  for (int i = 0; i < n->list.len; i++)
    if (args[i]->kind == TY_ARRAY) return true;
  return false;
}

static bool numbers(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < n->list.len; i++)
    if (!ty_need_scalar(in, n->list.items[i], args[i], n->bi->name)) return false;
  return true;
}

/* ---------------------------------------------------------------- typing */

/* numpy.add(a, b) and its kin: the row's ival is the operator */
static const Type *ty_arith(Infer *in, Node *n, const Type **args) {
  return ty_ufunc_binop(in, n, (int)n->bi->ival, n->list.items[0], args[0], n->list.items[1], args[1]);
}

/* the comparisons and logical_and/or/xor/not: bools */
static const Type *ty_predicate(Infer *in, Node *n, const Type **args) {
  if (any_array(n, args)) return ty_elementwise(in, n, args, TYS(TY_BOOL));
  return numbers(in, n, args) ? TYS(TY_BOOL) : NULL;
}

/* numpy.negative, positive, invert: the argument's dtype */
static const Type *ty_unary_op(Infer *in, Node *n, const Type **args) {
  int op = (int)n->bi->ival;
  if (op == OP_POS && elem_of(args[0])->kind == TY_BOOL) return ty_error(in, n, "numpy.positive() is not defined for bools");
  if (args[0]->kind == TY_ARRAY) return ty_array_unary(in, n, op, args[0]);
  if (!numbers(in, n, args)) return NULL;
  if (op == OP_INVERT && ty_is_float(args[0])) return ty_error(in, n, "%s() needs an integer or a bool", n->bi->name);
  if (op == OP_NEG && args[0]->kind == TY_BOOL)
    return ty_error(in, n, "the numpy boolean negative is not supported, use numpy.logical_not instead");
  return args[0];
}

/* A ufunc of two outputs, f(x..., [out1, out2], out=(out1, out2)): a
 * tuple made here (n->lhs) of two ufunc calls on the same arguments (first
 * and second, one output each), each written into its out= where they are
 * given; the frontend made the arguments names or constants
 * (BF_ARGS_TWICE). numpy.divmod is (floor_divide, remainder), mathparts.c's
 * frexp and modf their own parts. */
static const char *const two_outputs_kw[] = {"out", NULL};

static Node *same_argument(Infer *in, Node *x) {
  Node *c = arena_alloc(in->f->arena, sizeof *c);
  *c = *x;
  return c;
}

static Node *output_part(Infer *in, Node *n, int nin, const Builtin *part, Node *out) {
  Node *c = arena_alloc(in->f->arena, sizeof *c);
  Node **args = arena_alloc(in->f->arena, (size_t)nin * sizeof(Node *));
  for (int i = 0; i < nin; i++) args[i] = same_argument(in, n->list.items[i]);
  *c = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .bi = part, .list = {args, nin}, .ival = -1};
  if (out) {
    c->kw = (NodeList){.items = arena_alloc(in->f->arena, sizeof(Node *)), .len = 1};
    c->kw.items[0] = out;
    c->kw_names = arena_alloc(in->f->arena, sizeof(char *));
    c->kw_names[0] = "out";
  }
  return c;
}

/* The two outputs given (outs[0] and outs[1] NULL for none): by position
 * after the nin inputs, or as out=, a tuple; false with the error. */
static bool two_outs(Infer *in, Node *n, int nin, Node **outs) {
  Node *out = ty_kwarg(n, "out");
  outs[0] = bi_arg(n, nin, NULL), outs[1] = bi_arg(n, nin + 1, NULL);
  if (out && (outs[0] || outs[1]))
    return ty_error(in, n, "%s(): cannot specify 'out' as both a positional and keyword argument", n->bi->name) != NULL;
  if (out && out->ty && out->ty->kind == TY_TUPLE && out->ty->nfields == 2)  /* (a name the frontend made of it) */
    outs[0] = ty_tuple_item(in, out, 0), outs[1] = ty_tuple_item(in, out, 1);
  else if (out)
    return ty_error(in, out, "%s()'s out= must be a tuple of its two outputs", n->bi->name) != NULL;
  if (!outs[0] != !outs[1])
    return ty_error(in, n, "%s() takes both of its outputs or neither", n->bi->name) != NULL;
  return true;
}

const Type *ty_ufunc_two_outputs(Infer *in, Node *n, const Builtin *first, const Builtin *second) {
  int nin = n->bi->min_args;
  for (int i = 0; i < nin; i++) {
    int k = n->list.items[i]->kind;
    if (k != N_VAR && k != N_INT && k != N_FLOAT && k != N_BOOL)
      return ty_error(in, n->list.items[i], "%s() reads its arguments twice: give them in variables here", n->bi->name);
  }
  if (!n->lhs) {
    Node *outs[2];
    if (!two_outs(in, n, nin, outs)) return NULL;
    Node *t = n->lhs = arena_alloc(in->f->arena, sizeof *t);
    Node **parts = arena_alloc(in->f->arena, 2 * sizeof(Node *));
    parts[0] = output_part(in, n, nin, first, outs[0]), parts[1] = output_part(in, n, nin, second, outs[1]);
    *t = (Node){.kind = N_TUPLE, .line = n->line, .col = n->col, .list = {parts, 2}};
  }
  return ty_expr(in, n->lhs);
}

LLVMValueRef lo_ufunc_two_outputs(Lower *l, Node *n) { return lo_expr(l, n->lhs); }

static const Type *ty_np_divmod(Infer *in, Node *n, const Type **args) {
  return ty_ufunc_two_outputs(in, n, bi_named("numpy.floor_divide"), bi_named("numpy.remainder"));
}

/* ---------------------------------------------------------------- elements */

static LLVMValueRef lo_arith_elem(Lower *l, Node *n, LLVMValueRef *v) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  return lo_binop_values(l, (int)n->bi->ival, elem_of(n->ty), v[0], elem_of(a->ty), v[1], elem_of(b->ty));
}

static LLVMValueRef lo_compare_elem(Lower *l, Node *n, LLVMValueRef *v) {
  return lo_ufunc_compare(l, (int)n->bi->ival, n->list.items[0], v[0], n->list.items[1], v[1]);
}

/* logical_and/or/xor of the operands' truth: the row's ival is & | ^ */
static LLVMValueRef lo_logical_elem(Lower *l, Node *n, LLVMValueRef *v) {
  LLVMValueRef a = lo_truth(l, v[0], elem_of(n->list.items[0]->ty));
  if (n->list.len == 1) return LLVMBuildNot(l->b, a, "");
  return lo_arith(l, (int)n->bi->ival, TYS(TY_BOOL), a, lo_truth(l, v[1], elem_of(n->list.items[1]->ty)));
}

static LLVMValueRef lo_unary_elem(Lower *l, Node *n, LLVMValueRef *v) {
  const Type *t = elem_of(n->ty);
  LLVMValueRef x = lo_convert(l, v[0], elem_of(n->list.items[0]->ty), t);
  switch (n->bi->ival) {
  case OP_NEG:
    if (ty_is_complex(t)) return lo_complex_neg(l, t, x);
    return ty_is_float(t) ? LLVMBuildFNeg(l->b, x, "") : LLVMBuildNeg(l->b, x, "");
  case OP_INVERT: return LLVMBuildNot(l->b, x, "");
  default: return x;
  }
}

/* ---------------------------------------------------------------- the rows */

static const char *const out_kw[] = {"out", NULL};

#define UFUNC_OF(name, op, n, flags, type, elem) \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, n, n, out_kw, BF_PURE | BF_CHEAP | BF_UFUNC | (flags), op, 0, type, lo_ufunc_call, elem}
#define UFUNC(name, op, n, type, elem) UFUNC_OF(name, op, n, 0, type, elem)
/* the typer refuses complex numbers to the operators that have none */
#define ARITH(name, op) UFUNC_OF(name, op, 2, BF_COMPLEX, ty_arith, lo_arith_elem)
/* complex numbers compare as NumPy orders them (ufunc.c), and are true where not zero */
#define COMPARE(name, op) UFUNC_OF(name, op, 2, BF_COMPLEX, ty_predicate, lo_compare_elem)
#define LOGICAL(name, op, n) UFUNC_OF(name, op, n, BF_COMPLEX, ty_predicate, lo_logical_elem)

const Builtin bi_operators[] = {
  ARITH("add", OP_ADD),
  ARITH("subtract", OP_SUB),
  ARITH("multiply", OP_MUL),
  ARITH("divide", OP_DIV),
  ARITH("true_divide", OP_DIV),
  ARITH("floor_divide", OP_FLOORDIV),
  ARITH("remainder", OP_MOD),
  ARITH("mod", OP_MOD),
  {"numpy.divmod", "numpy", "divmod", BK_FUNCTION, 0, 2, 4, two_outputs_kw, BF_ARGS_TWICE | BF_ARRAYLIKE, 0, 0,
   ty_np_divmod, lo_ufunc_two_outputs},
  ARITH("left_shift", OP_LSHIFT),
  ARITH("right_shift", OP_RSHIFT),
  ARITH("bitwise_and", OP_BITAND),
  ARITH("bitwise_or", OP_BITOR),
  ARITH("bitwise_xor", OP_BITXOR),
  COMPARE("equal", OP_EQ),
  COMPARE("not_equal", OP_NE),
  COMPARE("less", OP_LT),
  COMPARE("less_equal", OP_LE),
  COMPARE("greater", OP_GT),
  COMPARE("greater_equal", OP_GE),
  LOGICAL("logical_and", OP_BITAND, 2),
  LOGICAL("logical_or", OP_BITOR, 2),
  LOGICAL("logical_xor", OP_BITXOR, 2),
  LOGICAL("logical_not", OP_NOT, 1),
  UFUNC_OF("negative", OP_NEG, 1, BF_COMPLEX, ty_unary_op, lo_unary_elem),
  UFUNC_OF("positive", OP_POS, 1, BF_COMPLEX, ty_unary_op, lo_unary_elem),
  UFUNC("invert", OP_INVERT, 1, ty_unary_op, lo_unary_elem),
  BI_END,
};
