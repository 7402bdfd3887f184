/* builtins/ufunc.c — NumPy's elementwise operations on arrays: the
 * operators (a * b + c, -a, a < b, a & b), the ufunc rows (numpy.sqrt of
 * an array) and augmented assignment in place (a += b, a[1:] -= a[:-1]).
 *
 * Typing follows NumPy 2: its promotion of dtypes, with Python numbers
 * weak (NEP 50: x * 2.5 keeps a float32 x float32), and broadcasting of
 * shapes. Lowering fuses a whole tree of elementwise operations into one
 * loop nest, as Numba's array expressions do: the leaves (arrays, and
 * scalars computed once) are evaluated first, then each element of the
 * result is computed from theirs, with no temporary arrays. Where every
 * array is C-contiguous with the result's shape the loop is flat, one
 * index over the memory, which LLVM vectorises; otherwise it walks the
 * dimensions with each operand's strides (0 where it is broadcast). The
 * elements follow NumPy's rules, not Python's: ints wrap at their dtype's
 * width, division by zero gives inf, nan or 0.
 */
#include <stdio.h>

#include "builtins/builtins.h"

/* ---------------------------------------------------------------- dtypes */


static const Type *int_of_bits(int bits, bool sign) {
  switch (bits) {
  case 8: return TYS(sign ? TY_I8 : TY_U8);
  case 16: return TYS(sign ? TY_I16 : TY_U16);
  case 32: return TYS(sign ? TY_I32 : TY_U32);
  default: return TYS(sign ? TY_I64 : TY_U64);
  }
}

const Type *np_promote(const Type *a, const Type *b) {
  if (a == b || b->kind == TY_BOOL) return a;
  if (a->kind == TY_BOOL) return b;
  if (ty_is_complex(a) || ty_is_complex(b)) return ty_promote(a, b);  /* complex64 holds what float32 does */
  if (ty_is_float(a) || ty_is_float(b)) {
    if (ty_is_float(a) && ty_is_float(b)) return a->bits >= b->bits ? a : b;
    const Type *f = ty_is_float(a) ? a : b, *i = ty_is_float(a) ? b : a;
    int w = ty_float_width(i) > f->bits ? ty_float_width(i) : f->bits;  /* float16 holds ints to 8 bits, float32 to 16 */
    return TYS(w == 16 ? TY_F16 : w == 32 ? TY_F32 : TY_F64);
  }
  if (ty_is_signed(a) == ty_is_signed(b)) return a->bits >= b->bits ? a : b;
  const Type *s = ty_is_signed(a) ? a : b, *u = ty_is_signed(a) ? b : a;
  if (s->bits > u->bits) return s;
  return u->bits == 64 ? TYS(TY_F64) : int_of_bits(2 * u->bits, true);
}

/* Whether a number beside an array yields to it, as NumPy 2 lets a
 * Python int, float or bool yield (NEP 50): a literal, or any value of
 * Python's own types (bool, int64, float64), since a compiled function
 * cannot tell a Python float argument from a numpy.float64. A float32 or
 * an int8 comes from an array, and counts as its dtype, as in NumPy. */
static bool yields_to_array(const Node *n, const Type *t) {
  return ty_is_weak(n) || t->kind == TY_BOOL || t->kind == TY_I64 || t->kind == TY_F64 || t->kind == TY_C128;
}

/* An operand's dtype beside the other's: a Python number yields to an
 * array, so int8 + 1 stays int8 and float32 * 2.5 float32. In code
 * written for Numba (numba), as Numba picks a ufunc's loop: each operand
 * is its own type (a literal an int64 or a float64: int8 + 1 is an int64,
 * float32 * 2.5 a float64), except that an integer, array or number,
 * yields to a float or complex beside it (int64 + float32 is a float32). */
const Type *ty_operand_dtype(const Node *n, const Type *t, const Type *other, bool numba) {
  if (ty_is_time(elem_of(t)) || ty_is_time(elem_of(other))) return elem_of(t);  /* units, not promotions */
  const Type *o = elem_of(other);
  if (numba) return ty_is_int(elem_of(t)) && (ty_is_float(o) || ty_is_complex(o)) ? o : elem_of(t);
  if (t->kind == TY_ARRAY || !yields_to_array(n, t) || other->kind != TY_ARRAY) return elem_of(t);
  const Type *e = other->elem;
  if (t->kind == TY_BOOL) return e;
  if (ty_is_complex(t)) return ty_is_complex(e) ? e : e->kind == TY_F32 || e->kind == TY_F16 ? TYS(TY_C64) : TYS(TY_C128);
  if (!ty_is_float(t)) return e->kind == TY_BOOL ? TYS(TY_I64) : e;
  return ty_is_float(e) || ty_is_complex(e) ? e : TYS(TY_F64);
}

/* ---------------------------------------------------------------- typing */

int ty_broadcast_ndim(const Type *const *args, int n) {
  int ndim = 0;
  for (int i = 0; i < n; i++)
    if (args[i]->kind == TY_ARRAY && args[i]->ndim > ndim) ndim = args[i]->ndim;
  return ndim;
}

/* The order of an elementwise result of ndim dimensions, as Numba types
 * it: Fortran where an operand is a Fortran-ordered array and none is a
 * C-ordered one (NumPy's order='K' keeps Fortran inputs' order too), else
 * C. (One dimension is both: C.) */
static char broadcast_layout(const Type *const *args, int n, int ndim) {
  bool fortran = false;
  for (int i = 0; i < n; i++)
    if (args[i]->kind == TY_ARRAY) {
      if (args[i]->layout == 'C') return 'C';
      fortran |= args[i]->layout == 'F';
    }
  return fortran && ndim > 1 ? 'F' : 'C';
}

const Type *ty_broadcast_result(const Type *elem, const Type *const *args, int n) {
  int ndim = ty_broadcast_ndim(args, n);
  return ty_array(elem, ndim, broadcast_layout(args, n, ndim), false);
}

/* The keyword names of a call whose out= ty_ufunc_out took (it is then
 * the first operand of ufunc_out's call): none left, but marked so. */
static const char *out_taken[] = {"out"};

/* Whether the call writes its elements into an array given as out=
 * (numpy.sin(x, r) in a kernel: the loop over r, nothing allocated). */
static bool writes_into_out(Node *n) {
  Node *out = ty_kwarg(n, "out");
  return (out && out->ty && out->ty->kind == TY_ARRAY) || n->kw_names == out_taken;
}

/* Arrays and numbers only; no array made in CUDA code (it has no heap). */
static bool check_operands(Infer *in, Node *n, const Type *const *args, int nargs, const char *what) {
  if (ty_no_allocation(in) && !writes_into_out(n)) {
    ty_error(in, n, "array expressions are not supported in CUDA kernels: write the loop over the elements");
    return false;
  }
  for (int i = 0; i < nargs; i++)
    if (args[i]->kind == TY_ARRAY ? !ty_is_scalar(args[i]->elem) : !ty_is_scalar(args[i])) {  /* records too */
      ty_error(in, n, "%s is not supported on %s", what, args[i]->name);
      return false;
    }
  return true;
}

const Type *ty_elementwise(Infer *in, Node *n, const Type **args, const Type *elem) {
  if (!check_operands(in, n, args, n->list.len, n->bi->name)) return NULL;
  if (!n->bi->lower_elem)  /* (its own lowerer makes a C-ordered array) */
    return ty_array(elem, ty_broadcast_ndim(args, n->list.len), 'C', false);
  return ty_broadcast_result(elem, args, n->list.len);
}

const char *bi_op_text(int op) {
  static const char *const text[OP_COUNT] = {
    [OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/", [OP_FLOORDIV] = "//",
    [OP_MOD] = "%", [OP_POW] = "**", [OP_LSHIFT] = "<<", [OP_RSHIFT] = ">>", [OP_BITAND] = "&",
    [OP_BITOR] = "|", [OP_BITXOR] = "^",
  };
  return text[op] ? text[op] : "?";
}

/* The dtype of a op b for operands of dtypes ea and eb, as NumPy's ufunc
 * for the operator gives it; NULL (with the error) where it has none. */
static const Type *binop_dtype(Infer *in, Node *n, int op, const Type *ea, const Type *eb) {
  if (ty_is_time(ea) || ty_is_time(eb)) return ty_time_binop(in, n, op, ea, eb);
  const Type *e = np_promote(ea, eb);
  bool boolean = e->kind == TY_BOOL;
  if (ty_is_complex(e) && op != OP_ADD && op != OP_SUB && op != OP_MUL && op != OP_DIV && op != OP_POW)
    return ty_error(in, n, "the operator %s is not supported for arrays of %s and %s", bi_op_text(op), ea->name,
                    eb->name);
  switch (op) {
  case OP_SUB:
    if (boolean && in->opts && in->opts->numba_code) return TYS(TY_I8);  /* Numba's loop for bools: int8's */
    if (boolean)
      return ty_error(in, n, "numpy boolean subtract, the `-` operator, is not supported, use the "
                      "bitwise_xor, the `^` operator, or the logical_xor function instead");
    return e;
  case OP_DIV: return ty_is_float(e) || ty_is_complex(e) ? e : TYS(TY_F64);
  case OP_FLOORDIV: case OP_MOD: case OP_POW: return boolean ? TYS(TY_I8) : e;
  case OP_LSHIFT: case OP_RSHIFT: case OP_BITAND: case OP_BITOR: case OP_BITXOR:
    if (ty_is_float(e))
      return ty_error(in, n, "the operator %s is not supported for arrays of %s and %s", bi_op_text(op), ea->name,
                      eb->name);
    return boolean && (op == OP_LSHIFT || op == OP_RSHIFT) ? TYS(TY_I8) : e;
  default: return e;
  }
}

const Type *ty_array_binop(Infer *in, Node *n, int op, Node *l, const Type *a, Node *r, const Type *b) {
  const Type *args[2] = {a, b};
  if (!check_operands(in, n, args, 2, "an array expression")) return NULL;
  bool numba = in->opts && in->opts->numba_code;
  const Type *e = binop_dtype(in, n, op, ty_operand_dtype(l, a, b, numba), ty_operand_dtype(r, b, a, numba));
  return e ? ty_broadcast_result(e, args, 2) : NULL;
}

/* numpy.add(a, b) and its kin: of arrays as the operator; of two numbers
 * a number of NumPy's dtype for them */
const Type *ty_ufunc_binop(Infer *in, Node *n, int op, Node *l, const Type *a, Node *r, const Type *b) {
  if (a->kind == TY_ARRAY || b->kind == TY_ARRAY) return ty_array_binop(in, n, op, l, a, r, b);
  if (!ty_need_scalar(in, l, a, n->bi->name) || !ty_need_scalar(in, r, b, n->bi->name)) return NULL;
  return binop_dtype(in, n, op, a, b);
}

const Type *ty_array_unary(Infer *in, Node *n, int op, const Type *a) {
  if (!check_operands(in, n, &a, 1, "an array expression")) return NULL;
  if (op == OP_NOT)
    return ty_error(in, n, "the truth value of an array is ambiguous: use a.any() or a.all(), or ~ for "
                    "the elements");
  if (op == OP_NEG && a->elem->kind == TY_BOOL)
    return ty_error(in, n, "the numpy boolean negative, the `-` operator, is not supported, use the `~` "
                    "operator or the logical_not function instead");
  if (op == OP_INVERT && (ty_is_float(a->elem) || ty_is_complex(a->elem))) return ty_error(in, n, "~ needs an array of integers or bools");
  if (ty_is_time(a->elem) && (a->elem->kind == TY_DATETIME || op == OP_INVERT))
    return ty_error(in, n, "bad operand type for unary operator: %s", a->name);
  return ty_broadcast_result(a->elem, &a, 1);
}

const Type *ty_array_compare(Infer *in, Node *n, const Type *a, const Type *b) {
  const Type *args[2] = {a, b};
  if (n->list.len > 2)
    return ty_error(in, n, "a chained comparison of arrays asks the truth value of an array, which is "
                    "ambiguous: compare two at a time and combine with &");
  if (!check_operands(in, n, args, 2, "a comparison")) return NULL;
  if ((ty_is_time(elem_of(a)) || ty_is_time(elem_of(b))) && !ty_time_compare(in, n, elem_of(a), elem_of(b)))
    return NULL;
  return ty_broadcast_result(TYS(TY_BOOL), args, 2);
}

/* Text in a comparison of arrays: an array of '<Un' or '|Sn' items, or a
 * str or bytes compared with one. */
static bool is_text_operand(const Type *t) {
  return t->kind == TY_STR || t->kind == TY_BYTES || (t->kind == TY_ARRAY && ty_is_fixed_text(t->elem));
}

static bool is_str_text(const Type *t) { return t->kind == TY_STR || (t->kind == TY_ARRAY && t->elem->kind == TY_CHARSEQ); }

bool ty_is_text_array_compare(const Type *a, const Type *b) {
  return (a->kind == TY_ARRAY || b->kind == TY_ARRAY) && (is_text_operand(a) || is_text_operand(b));
}

/* a == 'x', a < b... of arrays of text: an array of bools, item by item, as
 * NumPy's (Numba gives one False); str text with str text only, bytes with bytes. */
const Type *ty_text_array_compare(Infer *in, Node *n, const Type *a, const Type *b) {
  const Type *args[2] = {a, b};
  if (n->list.len > 2)
    return ty_error(in, n, "a chained comparison of arrays asks the truth value of an array, which is "
                    "ambiguous: compare two at a time and combine with &");
  if (ty_no_allocation(in)) return ty_error(in, n, "comparing arrays of text is not supported in CUDA kernels");
  if (!is_text_operand(a) || !is_text_operand(b) || is_str_text(a) != is_str_text(b))
    return ty_error(in, n, "comparing %s with %s is not supported (an array of str items compares with a str or "
                    "another, of bytes items with bytes)", a->name, b->name);
  return ty_broadcast_result(TYS(TY_BOOL), args, 2);
}

/* NumPy's casting="same_kind": a value may go into an array of the same
 * kind of number or of a later kind in bool, unsigned, signed, float,
 * complex (uint64 into int8, int64 into float32; never int32 into uint16,
 * float into int). */
static int kind_rank(const Type *t) {
  return t->kind == TY_BOOL ? 0 : ty_is_unsigned(t) ? 1 : ty_is_signed(t) ? 2 : ty_is_complex(t) ? 4 : 3;
}

static bool same_kind_cast(const Type *from, const Type *to) { return kind_rank(from) <= kind_rank(to); }

bool np_same_kind(const Type *from, const Type *to) { return same_kind_cast(from, to); }

const Type *ty_array_update(Infer *in, Node *n, const Type *target, const Type *result) {
  if (!result) return NULL;
  if (!same_kind_cast(result->elem, target->elem))
    return ty_error(in, n, "cannot cast the result of %s= from %s to the array's %s (NumPy's casting rule "
                    "'same_kind')", bi_op_text(n->op), result->elem->name, target->elem->name);
  if (result->ndim > target->ndim)
    return ty_error(in, n, "the result of %s= has %d dimensions, the array it updates %d", bi_op_text(n->op),
                    result->ndim, target->ndim);
  return result;
}

/* ---------------------------------------------------------------- lowering */

bool lo_is_elementwise(const Node *n) {
  if (n->ty->kind != TY_ARRAY) return false;
  switch (n->kind) {
  case N_BINOP: case N_UNARY: case N_COMPARE: case N_AUGASSIGN: return true;
  case N_CALL: return n->bi->lower_elem != NULL;
  default: return false;
  }
}

/* A leaf of the fused tree: an array or a number, evaluated once. */
typedef struct Operand {
  Node *node;
  const Type *type;                /* how it is read: node->ty, or its copy's layout */
  LLVMValueRef value;              /* what is read */
  LLVMValueRef held;               /* what evaluating it gave, released after the loop */
  LLVMValueRef copy;               /* a copy read instead, released after the loop (or NULL) */
  LLVMValueRef step[RC_MAX_NDIM];  /* arrays: bytes per index of each result dimension (0: broadcast) */
} Operand;

typedef struct Fused Fused;
struct Fused {
  Node *root;                      /* the expression computed */
  Operand *ops;
  int nops, cap;
  const Type *out_type;            /* the array the elements go to */
  LLVMValueRef out;
  LLVMValueRef out_step[RC_MAX_NDIM];
  LLVMValueRef shape[RC_MAX_NDIM];
  LLVMValueRef flat;               /* the loop's one index, on the flat path */
  LLVMValueRef *index;             /* the result dimensions' indices, on the strided path */
  ElementSink sink;                /* where the elements go instead, if not to out */
  WalkSink walk;                   /* or there, with the companions' elements */
  void *sink_arg;
  int ncomp;                       /* companions: arrays of the result's shape walked in step */
  const Type *comp_type[LO_WALK_COMPANIONS];
  LLVMValueRef comp[LO_WALK_COMPANIONS];
  LLVMValueRef comp_step[LO_WALK_COMPANIONS][RC_MAX_NDIM];
};

static void add_operand(Lower *l, Fused *fu, Node *n) {
  if (fu->nops == fu->cap) {
    fu->cap = fu->cap ? 2 * fu->cap : 8;
    Operand *grown = arena_alloc(l->f->arena, sizeof(Operand) * (size_t)fu->cap);
    if (fu->nops) memcpy(grown, fu->ops, sizeof(Operand) * (size_t)fu->nops);
    fu->ops = grown;
  }
  fu->ops[fu->nops++] = (Operand){.node = n, .type = n->ty};
}

static int children(Node *n, Node **kids) {
  switch (n->kind) {
  case N_BINOP: case N_AUGASSIGN: kids[0] = n->lhs; kids[1] = n->rhs; return 2;
  case N_UNARY: kids[0] = n->lhs; return 1;
  default:
    for (int i = 0; i < n->list.len && i < 8; i++) kids[i] = n->list.items[i];
    return n->list.len;
  }
}

/* The leaves of the tree below root, in Python's order of evaluation. */
static void collect(Lower *l, Fused *fu, Node *n, bool root) {
  if (!root && !lo_is_elementwise(n)) {
    add_operand(l, fu, n);
    return;
  }
  Node *kids[8];
  int nk = children(n, kids);
  for (int i = 0; i < nk; i++) collect(l, fu, kids[i], false);
}

static Operand *operand_of(Fused *fu, const Node *n) {
  for (int i = 0; i < fu->nops; i++)
    if (fu->ops[i].node == n) return &fu->ops[i];
  return NULL;
}

/* A shape for rt_shape_error: ndim, then the dimensions. */
static int describe_shape(Lower *l, LLVMValueRef *desc, int at, int ndim, const LLVMValueRef *dims) {
  desc[at++] = const_i64(l, ndim);
  for (int d = 0; d < ndim; d++) desc[at++] = dims[d];
  return at;
}

/* Raises NumPy's ValueError naming the shapes: kind 0, the operands' shapes
 * ("could not be broadcast together"), kind 1, the output's and the
 * broadcast shape. GPU code has no runtime to format them: its message
 * names none. */
static void shape_error(Lower *l, LLVMValueRef bad, int kind, LLVMValueRef *desc, int n) {
  if (l->mod->gpu) {
    lo_raise_if(l, bad, kind == 4 ? RT_ERR_INDEX : RT_ERR_VALUE, "shapes do not broadcast together");
    return;
  }
  LLVMBasicBlockRef fail = new_block(l, "shape.bad"), ok = new_block(l, "shape.ok");
  LLVMBuildCondBr(l->b, bad, fail, ok);
  position(l, fail);
  LLVMTypeRef arr = LLVMArrayType2(l->mod->i64, (uint64_t)n);
  LLVMValueRef mem = lo_alloca(l, arr, "shapes");
  for (int i = 0; i < n; i++) {
    LLVMValueRef ix[2] = {const_i64(l, 0), const_i64(l, i)};
    LLVMBuildStore(l->b, desc[i], LLVMBuildGEP2(l->b, arr, mem, ix, 2, ""));
  }
  LLVMTypeRef p[2] = {l->mod->i64, l->mod->ptr};
  lo_call_fn(l, "rt_shape_error", void_type(l), p, (LLVMValueRef[]){const_i64(l, kind), mem}, 2);
  lo_raise_recorded(l, kind == 4 ? RT_ERR_INDEX : RT_ERR_VALUE);
  position(l, ok);
}

/* The broadcast shape of the operands (ndim dimensions), with the output
 * among them when with_out (a ufunc's out=), or NumPy's error. */
static void broadcast(Lower *l, Fused *fu, int ndim, LLVMValueRef *shape, bool with_out) {
  LLVMValueRef bad = const_bool(l, false), one = const_i64(l, 1);
  int n = fu->nops + with_out, arrays = 0;
  const Type *types[n];
  LLVMValueRef values[n];
  for (int i = 0; i < n; i++) {
    types[i] = i < fu->nops ? fu->ops[i].node->ty : fu->out_type;
    values[i] = i < fu->nops ? fu->ops[i].value : fu->out;
    arrays += types[i]->kind == TY_ARRAY;
  }
  for (int d = 0; d < ndim; d++) shape[d] = one;
  for (int i = 0; i < n; i++) {
    const Type *t = types[i];
    if (t->kind != TY_ARRAY) continue;
    for (int od = 0; od < t->ndim; od++) {
      int d = ndim - t->ndim + od;
      LLVMValueRef s = lo_arr_shape(l, values[i], od);
      shape[d] = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, shape[d], one, ""), s, shape[d], "");
      LLVMValueRef clash = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntNE, s, one, ""),
                                        LLVMBuildICmp(l->b, LLVMIntNE, s, shape[d], ""), "");
      bad = LLVMBuildOr(l->b, bad, clash, "");
    }
  }
  if (LLVMIsAConstantInt(bad) && !LLVMConstIntGetZExtValue(bad)) return;
  int nd = 0;
  LLVMValueRef *desc = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(arrays * (RC_MAX_NDIM + 1) + 1));
  desc[nd++] = const_i64(l, arrays);
  for (int i = 0; i < n; i++) {
    const Type *t = types[i];
    if (t->kind != TY_ARRAY) continue;
    LLVMValueRef dims[RC_MAX_NDIM];
    for (int d = 0; d < t->ndim; d++) dims[d] = lo_arr_shape(l, values[i], d);
    nd = describe_shape(l, desc, nd, t->ndim, dims);
  }
  shape_error(l, bad, 0, desc, nd);
}

/* An array's byte steps per result dimension: its stride, or 0 where it
 * is broadcast (a missing or length-1 dimension). */
static void array_steps(Lower *l, const Type *t, LLVMValueRef a, int ndim, LLVMValueRef *step) {
  for (int d = 0; d < ndim; d++) {
    int od = d - (ndim - t->ndim);
    step[d] = od < 0 ? const_i64(l, 0) : lo_broadcast_stride(l, t, a, od);
  }
}

static void operand_steps(Lower *l, Fused *fu, int ndim) {
  for (int i = 0; i < fu->nops; i++)
    if (fu->ops[i].type->kind == TY_ARRAY) array_steps(l, fu->ops[i].type, fu->ops[i].value, ndim, fu->ops[i].step);
  for (int i = 0; i < fu->ncomp; i++) array_steps(l, fu->comp_type[i], fu->comp[i], ndim, fu->comp_step[i]);
}

/* An array's element at the loop's position. */
static LLVMValueRef element_addr(Lower *l, Fused *fu, const Type *t, LLVMValueRef a, const LLVMValueRef *step, int ndim) {
  LLVMValueRef data = LLVMBuildExtractValue(l->b, a, 2, "data");
  if (fu->flat) return LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, t->elem), data, &fu->flat, 1, "");
  LLVMValueRef offset = const_i64(l, 0);
  for (int d = 0; d < ndim; d++) offset = LLVMBuildAdd(l->b, offset, LLVMBuildMul(l->b, fu->index[d], step[d], ""), "");
  return LLVMBuildInBoundsGEP2(l->b, l->mod->i8, data, &offset, 1, "");
}

static LLVMValueRef element(Lower *l, Fused *fu, Node *n, int ndim);

static LLVMValueRef unary_element(Lower *l, Node *n, LLVMValueRef v) {
  const Type *t = elem_of(n->ty);
  v = lo_convert(l, v, elem_of(n->lhs->ty), t);
  switch (n->op) {
  case OP_NEG:
    if (ty_is_complex(t)) return lo_complex_neg(l, t, v);
    return ty_is_float(t) ? LLVMBuildFNeg(l->b, v, "") : LLVMBuildNeg(l->b, v, "");
  case OP_INVERT: return LLVMBuildNot(l->b, v, "");  /* a bool is i1: not is logical */
  default: return v;
  }
}

/* A text operand's units at the loop's position (an array's item, where
 * it is read in place) or its own (a str's, a bytes'): their address and
 * count. */
static LLVMValueRef text_units(Lower *l, Fused *fu, Node *x, int ndim, LLVMValueRef *count) {
  Operand *o = operand_of(fu, x);
  if (x->ty->kind != TY_ARRAY) return lo_text_units(l, o->value, x->ty, count);
  *count = const_i64(l, x->ty->elem->unit);
  if (!fu->flat) return element_addr(l, fu, o->type, o->value, o->step, ndim);
  LLVMValueRef at = LLVMBuildMul(l->b, fu->flat, const_i64(l, x->ty->elem->bits / 8), "");
  return LLVMBuildInBoundsGEP2(l->b, l->mod->i8, LLVMBuildExtractValue(l->b, o->value, 2, "data"), &at, 1, "");
}

static LLVMValueRef text_compare_element(Lower *l, Fused *fu, Node *n, int ndim) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  LLVMValueRef na, nb, pa = text_units(l, fu, a, ndim, &na), pb = text_units(l, fu, b, ndim, &nb);
  return lo_text_compare(l, n->ops[0], pa, na, pb, nb, is_str_text(a->ty) ? 4 : 1);
}

/* NumPy compares in the operands' common dtype (an int64 with a float64
 * as two float64s, unlike Python). */
static LLVMValueRef compare_element(Lower *l, Fused *fu, Node *n, int ndim) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  if (is_text_operand(a->ty)) return text_compare_element(l, fu, n, ndim);
  return lo_ufunc_compare(l, n->ops[0], a, element(l, fu, a, ndim), b, element(l, fu, b, ndim));
}

/* NumPy's order of complex numbers: by the real parts, then (equal real
 * parts) the imaginary ones, where <= allows equal; a NaN imaginary part
 * orders nothing by the real parts (NumPy's CLT and CLE; a > b is b < a). */
LLVMValueRef lo_complex_order(Lower *l, int op, LLVMValueRef a, LLVMValueRef b) {
  if (op == OP_GT || op == OP_GE) {
    LLVMValueRef t = a;
    a = b, b = t;
  }
  LLVMRealPredicate less = op == OP_LT || op == OP_GT ? LLVMRealOLT : LLVMRealOLE;
  LLVMValueRef ar = lo_complex_real(l, a), ai = lo_complex_imag(l, a);
  LLVMValueRef br = lo_complex_real(l, b), bi = lo_complex_imag(l, b);
  LLVMValueRef by_real = LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOLT, ar, br, ""),
                                      LLVMBuildFCmp(l->b, LLVMRealORD, ai, bi, ""), "");
  LLVMValueRef by_imag = LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOEQ, ar, br, ""),
                                      LLVMBuildFCmp(l->b, less, ai, bi, ""), "");
  return LLVMBuildOr(l->b, by_real, by_imag, "");
}

LLVMValueRef lo_ufunc_compare(Lower *l, int op, Node *a, LLVMValueRef va, Node *b, LLVMValueRef vb) {
  bool numba = l->opts->numba_code;
  const Type *ta = ty_operand_dtype(a, a->ty, b->ty, numba), *tb = ty_operand_dtype(b, b->ty, a->ty, numba);
  if (ty_is_time(ta)) return lo_time_compare(l, op, va, ta, vb, tb);
  const Type *ea = elem_of(a->ty), *eb = elem_of(b->ty);
  if (ty_is_int(ea) && ty_is_int(eb) && ea->kind != TY_BOOL && eb->kind != TY_BOOL && (ta != ea || tb != eb))
    return lo_compare_values(l, op, va, ea, vb, eb);  /* a Python int compared whole, as NumPy 2 (int8_array < 300) */
  const Type *t = np_promote(ta, tb);
  va = lo_convert(l, va, elem_of(a->ty), t);
  vb = lo_convert(l, vb, elem_of(b->ty), t);
  if (ty_is_complex(t) && op != OP_EQ && op != OP_NE) return lo_complex_order(l, op, va, vb);
  return lo_compare_values(l, op, va, t, vb, t);
}

/* A ufunc row's call on numbers: its element function on their values,
 * with NumPy's semantics. */
LLVMValueRef lo_ufunc_call(Lower *l, Node *n) {
  LLVMValueRef v[8];
  for (int i = 0; i < n->list.len && i < 8; i++) v[i] = lo_expr(l, n->list.items[i]);
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;
  LLVMValueRef r = n->bi->lower_elem(l, n, v);
  l->numpy_semantics = saved;
  return r;
}

/* Whether x ** e of a float array x (its result's elements t) has one
 * exponent e for the whole array, which NumPy 2's loop reads once
 * (lo_numpy_scalar_power) */
bool lo_scalar_exponent(const Type *x, const Type *e, const Type *t) {
  return x->kind == TY_ARRAY && e->kind != TY_ARRAY && (t->kind == TY_F32 || t->kind == TY_F64) &&
         (ty_is_int(e) || ty_is_float(e));
}

/* An operator's element; a binary `/` (not `/=`, which Numba runs as
 * np.divide) divides complex numbers as Numba's array expressions do. */
static LLVMValueRef binop_element(Lower *l, Fused *fu, Node *n, int ndim) {
  LLVMValueRef a = element(l, fu, n->lhs, ndim), b = element(l, fu, n->rhs, ndim);
  const Type *t = elem_of(n->ty);
  /* (a literal exponent is lo_binop_values': 3 is x * x * x there; so is
   * code written for Numba, whose int exponents multiply and raise
   * ZeroDivisionError for 0.0 ** -n) */
  if (n->op == OP_POW && !l->opts->numba_code && lo_scalar_exponent(n->lhs->ty, n->rhs->ty, t) && !LLVMIsAConstant(b))
    return lo_numpy_scalar_power(l, t, lo_convert(l, a, elem_of(n->lhs->ty), t), lo_convert(l, b, n->rhs->ty, t), true);
  bool saved = l->operator_quotient;
  l->operator_quotient = n->kind == N_BINOP;
  LLVMValueRef r = lo_binop_values(l, n->op, elem_of(n->ty), a, elem_of(n->lhs->ty), b, elem_of(n->rhs->ty));
  l->operator_quotient = saved;
  return r;
}

static LLVMValueRef element(Lower *l, Fused *fu, Node *n, int ndim) {
  Operand *o = operand_of(fu, n);
  if (o) {
    if (n->ty->kind != TY_ARRAY) return o->value;
    return lo_load_scalar(l, n->ty->elem, element_addr(l, fu, o->type, o->value, o->step, ndim));
  }
  switch (n->kind) {
  case N_BINOP: case N_AUGASSIGN:
    return binop_element(l, fu, n, ndim);
  case N_UNARY: return unary_element(l, n, element(l, fu, n->lhs, ndim));
  case N_COMPARE: return compare_element(l, fu, n, ndim);
  default: {
    LLVMValueRef args[8];
    for (int i = 0; i < n->list.len && i < 8; i++) args[i] = element(l, fu, n->list.items[i], ndim);
    return n->bi->lower_elem(l, n, args);
  }
  }
}

static void store_element(Lower *l, Fused *fu, Node *root, int ndim) {
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;
  LLVMValueRef v = element(l, fu, root, ndim);
  l->numpy_semantics = saved;
  if (fu->sink) {
    fu->sink(l, v, fu->sink_arg);
    return;
  }
  if (fu->walk) {
    LLVMValueRef at[LO_WALK_COMPANIONS];
    for (int i = 0; i < fu->ncomp; i++) at[i] = element_addr(l, fu, fu->comp_type[i], fu->comp[i], fu->comp_step[i], ndim);
    fu->walk(l, v, at, fu->sink_arg);
    return;
  }
  v = lo_convert(l, v, elem_of(root->ty), fu->out_type->elem);
  lo_store_scalar(l, fu->out_type->elem, element_addr(l, fu, fu->out_type, fu->out, fu->out_step, ndim), v);
}

/* Whether every array is contiguous in the output's order (C or Fortran)
 * with the output's very shape: then element i of each in memory is at
 * data + i * itemsize. */
static LLVMValueRef flat_possible(Lower *l, Fused *fu, int ndim) {
  char order = fu->out_type->layout;
  if (order != 'C' && order != 'F') return NULL;
  LLVMValueRef same = const_bool(l, true);
  for (int i = 0; i < fu->nops; i++) {
    const Type *t = fu->ops[i].type;
    if (t->kind != TY_ARRAY) continue;
    if (t->layout != order || t->ndim != ndim) return NULL;
    for (int d = 0; d < ndim; d++)
      same = LLVMBuildAnd(l->b, same, LLVMBuildICmp(l->b, LLVMIntEQ, lo_arr_shape(l, fu->ops[i].value, d),
                                                    fu->shape[d], ""), "");
  }
  for (int i = 0; i < fu->ncomp; i++)
    if (fu->comp_type[i]->layout != order) return NULL;  /* of the result's shape: the caller checked */
  return same;
}

typedef struct StridedLoop {
  Fused *fu;
  Node *root;
  int ndim;
} StridedLoop;

static void strided_element(Lower *l, LLVMValueRef *idx, void *arg) {
  StridedLoop *s = arg;
  s->fu->index = idx;
  s->fu->flat = NULL;
  store_element(l, s->fu, s->root, s->ndim);
}

static LLVMValueRef element_count(Lower *l, Fused *fu, int ndim) {
  LLVMValueRef size = const_i64(l, 1);
  for (int d = 0; d < ndim; d++) size = LLVMBuildMul(l->b, size, fu->shape[d], "");
  return size;
}

static void on_the_pool(Lower *l, Fused *fu, Node *root, LLVMValueRef flat);

/* Whether the elements go to an array on the pool when there are enough:
 * where lo_pool_allowed, and not into a reduction's sink. */
static bool pool_allowed(Lower *l, Fused *fu) { return lo_pool_allowed(l) && fu->out && !fu->sink && !fu->walk; }

/* The loop over the output's elements: flat where it can be, strided
 * otherwise; on the pool where pool_allowed and big enough. */
static void fused_loop(Lower *l, Fused *fu, Node *root) {
  int ndim = fu->out_type->ndim;
  operand_steps(l, fu, ndim);
  for (int d = 0; d < ndim && fu->out; d++)
    fu->out_step[d] = lo_arr_stride(l, fu->out_type, fu->out, d);
  LLVMValueRef flat = flat_possible(l, fu, ndim);
  LLVMBasicBlockRef done = new_block(l, "elements.done");
  if (pool_allowed(l, fu) && ndim > 0) {
    LLVMBasicBlockRef pool = new_block(l, "elements.pool"), here = new_block(l, "elements.here");
    LLVMValueRef big = LLVMBuildICmp(l->b, LLVMIntSGE, element_count(l, fu, ndim), const_i64(l, LO_POOL_MIN_ELEMENTS), "");
    LLVMBuildCondBr(l->b, big, pool, here);
    position(l, pool);
    on_the_pool(l, fu, root, flat ? flat : const_bool(l, false));
    LLVMBuildBr(l->b, done);
    position(l, here);
  }
  if (flat) {
    LLVMBasicBlockRef fast = new_block(l, "elements.flat"), slow = new_block(l, "elements.strided");
    LLVMBuildCondBr(l->b, flat, fast, slow);
    position(l, fast);
    LoLoop loop = lo_loop_begin(l, const_i64(l, 0), element_count(l, fu, ndim), NULL, "element");
    fu->flat = loop.index;
    store_element(l, fu, root, ndim);
    lo_loop_end(l, &loop);
    LLVMBuildBr(l->b, done);
    position(l, slow);
  }
  lo_for_each_index(l, ndim, fu->shape, strided_element, &(StridedLoop){fu, root, ndim});
  LLVMBuildBr(l->b, done);
  position(l, done);
}

/* ---------------------------------------------------------------- on the pool */

/* A chunk's context: the first error (an RtError, for lo_chunk_exit),
 * whether the flat loop applies, then every value the loop reads. The
 * chunks cut the flat index range, or the first dimension. */
enum { PX_ERROR, PX_FLAT, PX_VALUES };

/* Each value the element loop reads, in one order for the caller (which
 * stores them) and the chunk (which loads them): the output, its steps and
 * the shape, then each operand and its steps. */
static int loop_values(Fused *fu, int ndim, LLVMValueRef **at, const Type **ty) {
  int n = 0;
  at[n] = &fu->out, ty[n++] = fu->out_type;
  for (int d = 0; d < ndim; d++) at[n] = &fu->out_step[d], ty[n++] = NULL;
  for (int d = 0; d < ndim; d++) at[n] = &fu->shape[d], ty[n++] = NULL;
  for (int i = 0; i < fu->nops; i++) {
    Operand *o = &fu->ops[i];
    at[n] = &o->value, ty[n++] = o->type;
    if (o->type->kind == TY_ARRAY)
      for (int d = 0; d < ndim; d++) at[n] = &o->step[d], ty[n++] = NULL;  /* NULL: an i64 */
  }
  return n;
}

static LLVMTypeRef pool_context_type(Lower *l, const Type *const *ty, int n) {
  LLVMTypeRef *f = arena_alloc(l->f->arena, sizeof(LLVMTypeRef) * (size_t)(PX_VALUES + n));
  f[PX_ERROR] = lo_error_type(l);
  f[PX_FLAT] = l->mod->i1;
  for (int i = 0; i < n; i++) f[PX_VALUES + i] = ty[i] ? lo_type(l, ty[i]) : l->mod->i64;
  return LLVMStructTypeInContext(l->mod->c, f, (unsigned)(PX_VALUES + n), 0);
}

typedef struct ChunkRows {
  Fused *fu;
  Node *root;
  int ndim;
  LLVMValueRef row;  /* the first dimension's index */
} ChunkRows;

static void chunk_row_element(Lower *l, LLVMValueRef *inner, void *arg) {
  ChunkRows *c = arg;
  LLVMValueRef idx[RC_MAX_NDIM];
  idx[0] = c->row;
  for (int d = 1; d < c->ndim; d++) idx[d] = inner[d - 1];
  strided_element(l, idx, &(StridedLoop){c->fu, c->root, c->ndim});
}

/* void chunk(ctx, begin, end, thread): the elements [begin, end) of the
 * flat range, or the rows [begin, end) of the first dimension. */
static LLVMValueRef pool_chunk(Lower *caller, Fused *fu, Node *root, LLVMTypeRef ctxty, int n) {
  Lower sub, *l = &sub;
  LLVMTypeRef params[4] = {caller->mod->ptr, caller->mod->i64, caller->mod->i64, caller->mod->i64};
  lo_begin_outlined(l, caller, ".elements", LLVMFunctionType(void_type(caller), params, 4, 0));
  LLVMValueRef ctx = LLVMGetParam(l->fn, 0), begin = LLVMGetParam(l->fn, 1), end = LLVMGetParam(l->fn, 2);
  int ndim = fu->out_type->ndim;
  Fused cf = *fu;  /* the same loop, reading the caller's values from ctx */
  cf.ops = arena_alloc(l->f->arena, sizeof(Operand) * (size_t)(fu->nops ? fu->nops : 1));
  if (fu->nops) memcpy(cf.ops, fu->ops, sizeof(Operand) * (size_t)fu->nops);
  LLVMValueRef **at = arena_alloc(l->f->arena, sizeof(LLVMValueRef *) * (size_t)n);
  const Type **ty = arena_alloc(l->f->arena, sizeof(Type *) * (size_t)n);
  loop_values(&cf, ndim, at, ty);
  for (int i = 0; i < n; i++)  /* a constant stays one (x ** 2 is then x * x) */
    if (!LLVMIsAConstant(*at[i]))
      *at[i] = LLVMBuildLoad2(l->b, ty[i] ? lo_type(l, ty[i]) : l->mod->i64,
                              LLVMBuildStructGEP2(l->b, ctxty, ctx, (unsigned)(PX_VALUES + i), ""), "");
  LLVMValueRef flat = LLVMBuildLoad2(l->b, l->mod->i1, LLVMBuildStructGEP2(l->b, ctxty, ctx, PX_FLAT, ""), "");
  LLVMBasicBlockRef fast = new_block(l, "chunk.flat"), slow = new_block(l, "chunk.strided");
  LLVMBuildCondBr(l->b, flat, fast, slow);
  position(l, fast);
  LoLoop loop = lo_loop_begin(l, begin, end, NULL, "element");
  cf.flat = loop.index;
  store_element(l, &cf, root, ndim);
  lo_loop_end(l, &loop);
  LLVMBuildBr(l->b, l->exit_bb);
  position(l, slow);
  LoLoop rows = lo_loop_begin(l, begin, end, NULL, "row");
  lo_for_each_index(l, ndim - 1, cf.shape + 1, chunk_row_element, &(ChunkRows){&cf, root, ndim, rows.index});
  lo_loop_end(l, &rows);
  LLVMBuildBr(l->b, l->exit_bb);
  lo_chunk_exit(l, ctx);
  LLVMBuildRetVoid(l->b);
  lo_func_done(l);
  return l->fn;
}

/* The element loop cut into chunks the pool runs; the first error a chunk
 * raises is raised here once all are done. Each element is computed as
 * the serial loop computes it, so the results are the same. */
static void on_the_pool(Lower *l, Fused *fu, Node *root, LLVMValueRef flat) {
  int ndim = fu->out_type->ndim;
  int n = 1 + 2 * ndim;
  for (int i = 0; i < fu->nops; i++) n += 1 + (fu->ops[i].type->kind == TY_ARRAY ? ndim : 0);
  LLVMValueRef **at = arena_alloc(l->f->arena, sizeof(LLVMValueRef *) * (size_t)n);
  const Type **ty = arena_alloc(l->f->arena, sizeof(Type *) * (size_t)n);
  n = loop_values(fu, ndim, at, ty);
  LLVMTypeRef ctxty = pool_context_type(l, ty, n);
  LLVMValueRef body = pool_chunk(l, fu, root, ctxty, n);
  LLVMValueRef ctx = lo_alloca(l, ctxty, "elements");
  LLVMBuildStore(l->b, const_i32(l, RT_OK), LLVMBuildStructGEP2(l->b, ctxty, ctx, PX_ERROR, ""));
  LLVMBuildStore(l->b, flat, LLVMBuildStructGEP2(l->b, ctxty, ctx, PX_FLAT, ""));
  for (int i = 0; i < n; i++) LLVMBuildStore(l->b, *at[i], LLVMBuildStructGEP2(l->b, ctxty, ctx, (unsigned)(PX_VALUES + i), ""));
  LLVMValueRef trips = LLVMBuildSelect(l->b, flat, element_count(l, fu, ndim), fu->shape[0], "");
  lo_pool_run(l, body, ctxty, ctx, trips);
}

/* The node of the tree below root that reads leaf as an operand. */
static Node *reader_of(Node *root, const Node *leaf) {
  Node *kids[8];
  int nk = children(root, kids);
  for (int i = 0; i < nk && i < 8; i++) {
    if (kids[i] == leaf) return root;
    Node *p = lo_is_elementwise(kids[i]) ? reader_of(kids[i], leaf) : NULL;
    if (p) return p;
  }
  return NULL;
}

/* A Python int beside an array of a narrower int dtype yields to it
 * (int8_array + 1 stays int8), and one it cannot hold is NumPy 2's
 * OverflowError ("Python integer 300 out of bounds for int8"), not a
 * wrapped value. Comparisons read it whole (lo_ufunc_compare). */
static void check_yielding_int(Lower *l, Node *root, Operand *o) {
  Node *n = o->node, *reader = reader_of(root, n);
  const Type *t = n->ty, *into = reader ? elem_of(reader->ty) : NULL;
  bool reads_as_ufunc = reader && (reader->kind == N_BINOP || reader->kind == N_AUGASSIGN ||
                                   (reader->kind == N_CALL && reader->bi && (reader->bi->flags & BF_UFUNC)));
  if (!reads_as_ufunc || !ty_is_int(t) || t->kind == TY_BOOL || !yields_to_array(n, t)) return;
  if (!ty_is_int(into) || into->kind == TY_BOOL || into->bits > t->bits || (into->bits == t->bits && ty_is_signed(into)))
    return;
  int64_t lo, hi;
  ty_int_bounds(into, &lo, &hi);
  LLVMValueRef v = lo_convert(l, o->value, t, TYS(TY_I64));
  LLVMValueRef bad = LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, v, const_i64(l, lo), ""),
                                 LLVMBuildICmp(l->b, LLVMIntSGT, v, const_i64(l, hi), ""), "");
  char fmt[64];
  snprintf(fmt, sizeof fmt, "Python integer %%lld out of bounds for %s", into->name);
  lo_raise_format_if(l, bad, RT_ERR_OVERFLOW, fmt, &v, 1);
}

static void evaluate_operands(Lower *l, Fused *fu, Node *root) {
  for (int i = 0; i < fu->nops; i++) {
    fu->ops[i].value = fu->ops[i].held = lo_expr(l, fu->ops[i].node);
    if (fu->ops[i].node != root && fu->ops[i].node->ty->kind != TY_ARRAY) check_yielding_int(l, root, &fu->ops[i]);
  }
}

static void release_operands(Lower *l, Fused *fu) {
  for (int i = 0; i < fu->nops; i++) {
    Operand *o = &fu->ops[i];
    if (o->copy) lo_release_temp(l, ty_array(o->type->elem, o->type->ndim, 'C', false), o->copy);
    lo_done_with(l, o->node, o->held);
  }
}

LLVMValueRef lo_array_expr(Lower *l, Node *n) {
  Fused fu = {.out_type = n->ty};
  collect(l, &fu, n, true);
  evaluate_operands(l, &fu, n);
  broadcast(l, &fu, n->ty->ndim, fu.shape, false);
  fu.out = lo_alloc_array(l, n->ty, fu.shape, -1);
  lo_temp_made(l, n->ty, fu.out);  /* released if an element raises */
  fused_loop(l, &fu, n);
  lo_temp_taken(l, fu.out);
  release_operands(l, &fu);
  return fu.out;
}

Elements *lo_elements_begin(Lower *l, Node *n) {
  Fused *fu = arena_alloc(l->f->arena, sizeof *fu);
  *fu = (Fused){.root = n, .out_type = ty_array(n->ty->elem, n->ty->ndim, 'C', false)};
  if (lo_is_elementwise(n)) collect(l, fu, n, true);
  else add_operand(l, fu, n);
  evaluate_operands(l, fu, n);
  broadcast(l, fu, n->ty->ndim, fu->shape, false);
  return fu;
}

LLVMValueRef lo_elements_shape(Elements *e, int d) { return e->shape[d]; }

LLVMValueRef lo_elements_flat(Lower *l, Elements *e) { return flat_possible(l, e, e->out_type->ndim); }

LLVMValueRef lo_element_at(Lower *l, Elements *e, LLVMValueRef i) {
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;
  e->flat = i;
  LLVMValueRef v = element(l, e, e->root, e->out_type->ndim);
  l->numpy_semantics = saved;
  return v;
}

void lo_elements_each(Lower *l, Elements *e, ElementSink sink, void *arg) {
  e->walk = NULL;
  e->sink = sink;
  e->sink_arg = arg;
  fused_loop(l, e, e->root);
}

void lo_elements_end(Lower *l, Elements *e) { release_operands(l, e); }

int lo_elements_operands(Elements *e) { return e->nops; }

LLVMValueRef lo_elements_operand(Elements *e, int i, const Type **t) {
  *t = e->ops[i].type;
  return e->ops[i].value;
}

Elements *lo_elements_reading(Lower *l, Elements *e, const LLVMValueRef *values) {
  Fused *c = arena_alloc(l->f->arena, sizeof *c);
  *c = *e;
  c->ops = arena_alloc(l->f->arena, sizeof(Operand) * (size_t)(e->nops ? e->nops : 1));
  for (int i = 0; i < e->nops; i++) {
    c->ops[i] = e->ops[i];
    c->ops[i].value = values[i];
  }
  return c;
}

void lo_for_each_element(Lower *l, Node *n, ElementSink sink, void *arg) {
  Elements *e = lo_elements_begin(l, n);
  lo_elements_each(l, e, sink, arg);
  lo_elements_end(l, e);
}

/* ---------------------------------------------------------------- in place */

/* The first and one-past-the-last byte an array's elements occupy. */
static void extent(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef *lo, LLVMValueRef *hi) {
  LLVMValueRef data = LLVMBuildPtrToInt(l->b, LLVMBuildExtractValue(l->b, a, 2, ""), l->mod->i64, "");
  LLVMValueRef down = const_i64(l, 0), up = const_i64(l, ty_bits(t->elem) / 8);
  for (int d = 0; d < t->ndim; d++) {
    LLVMValueRef span = LLVMBuildMul(l->b, LLVMBuildSub(l->b, lo_arr_shape(l, a, d), const_i64(l, 1), ""),
                                     lo_arr_stride(l, t, a, d), "");
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, span, const_i64(l, 0), "");
    down = LLVMBuildAdd(l->b, down, LLVMBuildSelect(l->b, neg, span, const_i64(l, 0), ""), "");
    up = LLVMBuildAdd(l->b, up, LLVMBuildSelect(l->b, neg, const_i64(l, 0), span, ""), "");
  }
  *lo = LLVMBuildAdd(l->b, data, down, "");
  *hi = LLVMBuildAdd(l->b, data, up, "");
}

static LLVMValueRef is_empty(Lower *l, const Type *t, LLVMValueRef a) {
  LLVMValueRef empty = const_bool(l, false);
  for (int d = 0; d < t->ndim; d++)
    empty = LLVMBuildOr(l->b, empty, LLVMBuildICmp(l->b, LLVMIntEQ, lo_arr_shape(l, a, d), const_i64(l, 0), ""), "");
  return empty;
}

/* An array read while dst is written, as NumPy does: where it shares
 * memory with dst (other than element for element, when same_place is
 * allowed: a[1:] -= a[:-1] needs a copy, a += a none), it is read from a
 * copy, so that the result is the one computed from the values before the
 * update. The copy is C-contiguous: *t becomes how to read what is
 * returned (an array of Fortran layout is then read through its strides);
 * *made gets what to release after use (a null array when nothing was
 * copied), registered as a temporary meanwhile. */
LLVMValueRef lo_unshared(Lower *l, const Type **tp, LLVMValueRef src, const Type *ot, LLVMValueRef dst,
                         bool same_place, LLVMValueRef *made) {
  const Type *t = *tp;
  LLVMValueRef lo1, hi1, lo2, hi2;
  extent(l, t, src, &lo1, &hi1);
  extent(l, ot, dst, &lo2, &hi2);
  LLVMValueRef need = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntULT, lo1, hi2, ""),
                                   LLVMBuildICmp(l->b, LLVMIntULT, lo2, hi1, ""), "");
  LLVMValueRef empty = LLVMBuildOr(l->b, is_empty(l, t, src), is_empty(l, ot, dst), "");
  need = LLVMBuildAnd(l->b, need, LLVMBuildNot(l->b, empty, ""), "");
  if (same_place && t->elem == ot->elem && t->ndim == ot->ndim) {  /* the same elements in the same places: no copy */
    LLVMValueRef same = LLVMBuildICmp(l->b, LLVMIntEQ, LLVMBuildExtractValue(l->b, src, 2, ""),
                                      LLVMBuildExtractValue(l->b, dst, 2, ""), "");
    for (int d = 0; d < t->ndim; d++) {
      same = LLVMBuildAnd(l->b, same, LLVMBuildICmp(l->b, LLVMIntEQ, lo_arr_shape(l, src, d), lo_arr_shape(l, dst, d), ""), "");
      same = LLVMBuildAnd(l->b, same, LLVMBuildICmp(l->b, LLVMIntEQ, lo_arr_stride(l, t, src, d), lo_arr_stride(l, ot, dst, d), ""), "");
    }
    need = LLVMBuildAnd(l->b, need, LLVMBuildNot(l->b, same, ""), "");
  }
  if (t->layout == 'F') *tp = ty_array(t->elem, t->ndim, 'A', t->readonly);
  LLVMBasicBlockRef before = LLVMGetInsertBlock(l->b), copy = new_block(l, "overlap.copy"), done = new_block(l, "overlap.done");
  LLVMBuildCondBr(l->b, need, copy, done);
  position(l, copy);
  const Type *ct = ty_array(t->elem, t->ndim, 'C', false);
  LLVMValueRef copied = lo_copy_array(l, ct, t, src);
  LLVMBasicBlockRef copy_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef v = LLVMBuildPhi(l->b, lo_type(l, t), "operand");
  LLVMAddIncoming(v, (LLVMValueRef[]){src, copied}, (LLVMBasicBlockRef[]){before, copy_end}, 2);
  /* what to release after the loop: the copy, or nothing */
  LLVMValueRef owned = LLVMBuildPhi(l->b, lo_type(l, ct), "copy");
  LLVMAddIncoming(owned, (LLVMValueRef[]){LLVMConstNull(lo_type(l, ct)), copied}, (LLVMBasicBlockRef[]){before, copy_end}, 2);
  lo_temp_made(l, ct, owned);
  *made = owned;
  return v;
}

static void copy_if_overlapping(Lower *l, Fused *fu, Operand *o) {
  o->value = lo_unshared(l, &o->type, o->value, fu->out_type, fu->out, true, &o->copy);
}

/* The operands broadcast to the output's shape (out holds it), as NumPy's
 * ufuncs with out= and in-place operators: else NumPy's error. An operand
 * that is the output itself (skip, an in-place operator's target) is read
 * in place; any other that overlaps it is read from a copy, except in CUDA
 * code, which has no heap: there each element is read before it is
 * written, in order, as numba-cuda's ufuncs in kernels do. */
static void fill_output(Lower *l, Fused *fu, Node *skip) {
  bool heap = !l->opts->kernel && !l->mod->gpu;
  for (int i = 0; i < fu->nops && heap; i++)
    if (fu->ops[i].node != skip && fu->ops[i].node->ty->kind == TY_ARRAY) copy_if_overlapping(l, fu, &fu->ops[i]);
  int ndim = fu->out_type->ndim;
  for (int d = 0; d < ndim; d++) fu->shape[d] = lo_arr_shape(l, fu->out, d);
  LLVMValueRef bcast[RC_MAX_NDIM];
  broadcast(l, fu, ndim, bcast, !skip);
  LLVMValueRef bad = const_bool(l, false);
  for (int d = 0; d < ndim; d++) bad = LLVMBuildOr(l->b, bad, LLVMBuildICmp(l->b, LLVMIntNE, bcast[d], fu->shape[d], ""), "");
  if (LLVMIsAConstantInt(bad) && !LLVMConstIntGetZExtValue(bad)) return;
  /* "non-broadcastable output operand with shape (3,) doesn't match the broadcast shape (2,3)" */
  LLVMValueRef desc[2 * (RC_MAX_NDIM + 1)];
  int nd = describe_shape(l, desc, 0, ndim, fu->shape);
  nd = describe_shape(l, desc, nd, ndim, bcast);
  shape_error(l, bad, 1, desc, nd);
}

void lo_array_update(Lower *l, Node *n) {
  Fused fu = {.out_type = n->lhs->ty};
  collect(l, &fu, n, true);
  evaluate_operands(l, &fu, n);
  fu.out = operand_of(&fu, n->lhs)->value;
  fill_output(l, &fu, n->lhs);
  fused_loop(l, &fu, n);
  release_operands(l, &fu);
}

/* ---------------------------------------------------------------- out= */

/* The call's own shape is o's, not one broadcast to it (numpy.round's
 * out: NumPy's "invalid output shape"). */
static void same_shape_output(Lower *l, Fused *fu) {
  LLVMValueRef shape[RC_MAX_NDIM], bad = const_bool(l, false);
  int ndim = fu->out_type->ndim;
  broadcast(l, fu, ndim, shape, false);
  for (int d = 0; d < ndim; d++)
    bad = LLVMBuildOr(l->b, bad, LLVMBuildICmp(l->b, LLVMIntNE, shape[d], lo_arr_shape(l, fu->out, d), ""), "");
  lo_raise_if(l, bad, RT_ERR_VALUE, "invalid output shape");
}

/* numpy.f(x, y, out=o): o's elements set to f's and o returned. Typing
 * rewrites the call into this row's, whose arguments are the call without
 * out= (of its own dtype) and o; same_shape: o must have the call's shape. */
LLVMValueRef lo_ufunc_into(Lower *l, Node *n, bool same_shape) {
  Node *call = n->list.items[0], *out = n->list.items[1];
  LLVMValueRef o = lo_expr(l, out);
  Fused fu = {.out_type = out->ty, .out = o};
  collect(l, &fu, call, true);
  evaluate_operands(l, &fu, call);
  if (same_shape) same_shape_output(l, &fu);
  fill_output(l, &fu, NULL);
  fused_loop(l, &fu, call);
  release_operands(l, &fu);
  lo_refcount(l, out->ty, o, true);  /* the result is a new reference to o */
  lo_done_with(l, out, o);
  return o;
}

static LLVMValueRef lo_ufunc_out(Lower *l, Node *n) { return lo_ufunc_into(l, n, false); }

/* o's type, if o can take the call's results (of type result) */
const Type *ty_out_operand(Infer *in, Node *call, const Type *result, Node *out) {
  const Type *o = out->ty, *e = elem_of(result);
  const char *name = call->bi->name;
  if (o->kind != TY_ARRAY) return ty_error(in, out, "%s()'s out= must be an array, got %s", name, o->name);
  if (o->readonly) return ty_error(in, out, "%s()'s out= is a read-only array", name);
  if (!same_kind_cast(e, o->elem))
    return ty_error(in, out, "cannot cast %s()'s output from %s to %s with casting rule 'same_kind'", name, e->name,
                    o->elem->name);
  int ndim = result->kind == TY_ARRAY ? result->ndim : 0;
  if (ndim > o->ndim) return ty_error(in, out, "%s()'s out= has %d dimensions, its result %d", name, o->ndim, ndim);
  return o;
}

static const Type *ty_ufunc_out_again(Infer *in, Node *n, const Type **args) {
  return ty_out_operand(in, n->list.items[0], args[0], n->list.items[1]);
}

static const Builtin ufunc_out = {"numpy.ufunc.out", NULL, "out", BK_FUNCTION, 0, 2, 2, NULL, BF_COMPLEX, 0, 0,
                                  ty_ufunc_out_again, lo_ufunc_out};

const Type *ty_ufunc_out(Infer *in, Node *n, const Type *result) {
  Node *out = ty_kwarg(n, "out");
  if (!out || !result) return result;
  Node *call = arena_alloc(in->f->arena, sizeof(Node));
  *call = *n;
  call->kw = (NodeList){0};
  call->kw_names = out_taken;
  call->ty = result->kind == TY_ARRAY ? result : ty_array(result, 0, 'C', false);
  n->bi = &ufunc_out;
  n->list.items = arena_alloc(in->f->arena, 2 * sizeof(Node *));
  n->list.items[0] = call;
  n->list.items[1] = out;
  n->list.len = 2;
  n->kw = (NodeList){0};
  n->kw_names = NULL;
  return ty_out_operand(in, call, call->ty, out);
}

/* ---------------------------------------------------------------- walks */

void lo_elements_companion(Lower *l, Elements *fu, const Type *t, LLVMValueRef a) {
  fu->comp_type[fu->ncomp] = t;
  fu->comp[fu->ncomp++] = a;
}

/* The leaves that share memory with a, which the walk writes element for
 * element, are read from copies. */
void lo_elements_unshare(Lower *l, Elements *fu, const Type *t, LLVMValueRef a) {
  for (int i = 0; i < fu->nops; i++)
    if (fu->ops[i].node->ty->kind == TY_ARRAY)
      fu->ops[i].value = lo_unshared(l, &fu->ops[i].type, fu->ops[i].value, t, a, true, &fu->ops[i].copy);
}

void lo_elements_walk(Lower *l, Elements *fu, WalkSink sink, void *arg) {
  fu->sink = NULL;
  fu->walk = sink;
  fu->sink_arg = arg;
  fused_loop(l, fu, fu->root);
}


/* NumPy's ValueError naming shapes where bad holds: kind 0, operands'
 * shapes that do not broadcast; kinds 1 to 3, two shapes; kind 4, an
 * index's arrays that do not broadcast, an IndexError (rt_shape_error). */
void lo_raise_shape_error(Lower *l, LLVMValueRef bad, int kind, int nshapes, const int *ndim,
                          const LLVMValueRef *const *shapes) {
  LLVMValueRef desc[4 * (RC_MAX_NDIM + 1) + 1];
  int nd = 0;
  if (kind == 0 || kind == 4) desc[nd++] = const_i64(l, nshapes < 4 ? nshapes : 4);
  for (int i = 0; i < nshapes && i < 4; i++) nd = describe_shape(l, desc, nd, ndim[i], shapes[i]);
  shape_error(l, bad, kind, desc, nd);
}
