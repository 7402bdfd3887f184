/* builtins/enums.c — enum members (enum.Enum, enum.IntEnum), as Numba's
 * EnumMember and IntEnumMember: a member is held as its value (model.c),
 * so that reading its value costs nothing. What compiled code does with
 * one is what Numba does: m.value; m == n and m != n between members of
 * one class; m is n between any members (false across classes), and
 * between lists, dicts and sets, between jitclass and structref objects,
 * between arrays, between dtypes, with Ellipsis and between numbers (row
 * "is", here for want of a better home); `in` a tuple (tuples.c). An IntEnum member is also its int wherever a number is
 * needed (infer.c's ty_expr): s + 1, s == 3, a[s], range(s). The frontend
 * freezes the members named through their class (Color.RED, Color["RED"])
 * as calls of "enum member" of their values.
 */
#include "builtins/builtins.h"

/* ---------------------------------------------------------------- typing */

/* A member frozen by the frontend: its type in data, its value the argument. */
static const Type *ty_member_constant(Infer *in, Node *n, const Type **args) { return n->data; }

static const Type *ty_value(Infer *in, Node *n, const Type **args) { return args[0]->elem; }

static bool is_number(const Type *t) { return ty_is_scalar(t) && !ty_is_time(t); }

/* a is b of two values neither of which is None: enum members, and
 * lists, dicts and sets (the same container, as Numba's; false between
 * two types). A number (a bool included) and a value of another type are
 * never one object, in CPython as in Numba: x is False of an int, a str
 * or an array x is false, known from the types. Two numbers of one type
 * have no identity CPython's
 * answer could be matched with (1000 is 1000 depends on where the ints
 * came from, np.True_ is True is false): Numba's reading compares their
 * values (CompileOptions.numba_code), ruchey's own refuses them. Two
 * strs are alike (CPython's answer depends on interning): Numba's reading
 * is always false, since its `is` falls back to an == that str lacks. */
static bool is_str_pair(const Type *a, const Type *b) { return a->kind == TY_STR && b->kind == TY_STR; }
static bool is_array(const Type *t) { return t->kind == TY_ARRAY; }

/* Values held by reference to one object (a typed container, a jitclass's
 * or structref's object): a is b where they hold the same one. */
static bool is_object(const Type *t) { return ty_is_container(t) || t->kind == TY_CLASS; }

/* Two arrays: an array has no object of its own in compiled code (a view
 * is made where it is used), so a is b where both show the same elements
 * the same way: one dtype, data pointer, shape and strides, as Numba's
 * (a[:] is a too, which NumPy's new view object is not). */
static bool same_array_type(const Type *a, const Type *b) { return a->elem == b->elem && a->ndim == b->ndim; }

/* Two dtypes: NumPy's builtin dtypes are one object each (arr.dtype is
 * np.dtype(np.float64) where arr holds float64s), as Numba's reading of
 * a dtype's type alone: a is b where their types are one. */
static bool is_dtype(const Type *t) { return t->kind == TY_DTYPE; }

/* Ellipsis is one object: `...` is `...` wherever the values came from,
 * and no value of another type is it. */
static bool is_ellipsis(const Type *t) { return t->kind == TY_ELLIPSIS; }

static const Type *ty_is(Infer *in, Node *n, const Type **args) {
  bool numba = in->opts && in->opts->numba_code;
  bool numbers = args[0] != args[1] ? is_number(args[0]) || is_number(args[1]) : is_number(args[0]) && numba;
  bool objects = is_object(args[0]) && is_object(args[1]);
  bool strs = is_str_pair(args[0], args[1]) && numba;
  bool arrays = is_array(args[0]) && is_array(args[1]);
  bool dtypes = is_dtype(args[0]) && is_dtype(args[1]);
  bool ellipses = is_ellipsis(args[0]) || is_ellipsis(args[1]);
  if (!numbers && !objects && !strs && !arrays && !dtypes && !ellipses && (!ty_is_enum(args[0]) || !ty_is_enum(args[1])))
    return ty_error(in, n, "'is' and 'is not' are only supported with None, between enum members, between "
                           "containers or jitclass objects, between arrays, between dtypes, with Ellipsis and "
                           "between a number and a value of "
                           "another type in compiled code (%s is %s): use == or !=", args[0]->name, args[1]->name);
  return TYS(TY_BOOL);
}

/* m == n and m != n: of two members of one class alone, as Numba (an
 * IntEnum member reaching here is compared as its int already). */
bool ty_enum_compare(Infer *in, Node *n, int op, const Type *a, const Type *b) {
  if (op != OP_EQ && op != OP_NE)
    return ty_error(in, n, "enum members are only compared with ==, !=, 'is' and 'is not' (%s and %s)", a->name,
                    b->name) != NULL;
  if (a != b)
    return ty_error(in, n, "cannot compare %s and %s: == and != compare members of one enum class", a->name,
                    b->name) != NULL;
  return true;
}

/* ---------------------------------------------------------------- lowering */

static LLVMValueRef lo_member_constant(Lower *l, Node *n) {
  Node *v = n->list.items[0];
  return lo_convert(l, lo_expr(l, v), v->ty, n->ty->elem);
}

/* m.value: the member as it is held (a fresh member's reference passes
 * to its value, lo_is_fresh) */
static LLVMValueRef lo_value(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr(l, n->lhs);
  if (lo_is_fresh(n->lhs) && ty_has_arrays(n->lhs->ty)) lo_temp_taken(l, v);
  return v;
}

static LLVMValueRef same_array(Lower *l, const Type *ta, LLVMValueRef a, const Type *tb, LLVMValueRef b) {
  if (!same_array_type(ta, tb)) return const_bool(l, false);
  LLVMValueRef same = LLVMBuildICmp(l->b, LLVMIntEQ, LLVMBuildExtractValue(l->b, a, 2, ""),
                                    LLVMBuildExtractValue(l->b, b, 2, ""), "");
  for (int d = 0; d < ta->ndim; d++) {
    same = LLVMBuildAnd(l->b, same, LLVMBuildICmp(l->b, LLVMIntEQ, lo_arr_shape(l, a, d), lo_arr_shape(l, b, d), ""), "");
    LLVMValueRef sa = lo_arr_stride(l, ta, a, d), sb = lo_arr_stride(l, tb, b, d);
    same = LLVMBuildAnd(l->b, same, LLVMBuildICmp(l->b, LLVMIntEQ, sa, sb, ""), "");
  }
  return same;
}

static LLVMValueRef lo_is(Lower *l, Node *n) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  LLVMValueRef va = lo_expr(l, a), vb = lo_expr(l, b);
  LLVMValueRef same = is_array(a->ty) && is_array(b->ty)     ? same_array(l, a->ty, va, b->ty, vb)
                      : a->ty != b->ty || is_str_pair(a->ty, b->ty) ? const_bool(l, false)
                      : is_ellipsis(a->ty)                        ? const_bool(l, true)
                      : is_object(a->ty)                          ? LLVMBuildICmp(l->b, LLVMIntEQ, va, vb, "")  /* one object */
                                                                  : lo_compare_values(l, OP_EQ, va, a->ty, vb, b->ty);
  lo_done_with(l, a, va);
  lo_done_with(l, b, vb);
  return same;
}

/* ---------------------------------------------------------------- the rows */

const Builtin bi_enums[] = {
  {"enum member", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, BF_PURE | BF_CHEAP, 0, 0, ty_member_constant, lo_member_constant},
  {"Enum.value", NULL, "value", BK_ATTRIBUTE, TY_ENUM, 0, 0, NULL, BF_PURE | BF_CHEAP, 0, 0, ty_value, lo_value},
  {"IntEnum.value", NULL, "value", BK_ATTRIBUTE, TY_INTENUM, 0, 0, NULL, BF_PURE | BF_CHEAP, 0, 0, ty_value, lo_value},
  {"is", NULL, NULL, BK_FUNCTION, 0, 2, 2, NULL, BF_PURE | BF_MEMBERS | BF_COMPLEX, 0, 0, ty_is, lo_is},  /* (members of str values: a str compare) */
  {NULL},
};
