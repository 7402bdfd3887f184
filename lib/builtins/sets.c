/* builtins/sets.c — Python's sets in compiled code: literals {a, b} (and
 * comprehensions, and set(x), which the frontend makes a comprehension),
 * `x in s`, len, truth, iteration, the methods (add, discard, remove,
 * pop, clear, copy, update, union, issubset ...), the operators | & - ^
 * (in place as |= &= -= ^=) and the comparisons (<= is subset, as Python's).
 *
 * A set is a pointer to an RtDict of its items without values (lib/sets.c),
 * made with value kind TY_SET, which gives it CPython's set table and so
 * Python's iteration order: a set type's fields are {item, none}, so that
 * dicts.c's lowering of keys (their bits, lookups, insertions, iteration,
 * `in`) serves its items.
 * Items are numbers (complex too), bools, strs or tuples of real numbers,
 * bools and strs, as dict keys (a tuple's or a complex number's bits point
 * to an RtTupleKey).
 */
#include <stddef.h>

#include "builtins/builtins.h"
#include "containers.h"

enum { SET_UNION, SET_INTERSECTION, SET_DIFFERENCE, SET_SYMMETRIC };  /* lib/sets.c's rt_set_combine ops */
#define SET_SEQUENCE 16  /* with an op: the operand was made of a sequence's items (lib/sets.c) */

static const Type *item_of(const Type *s) { return s->nfields ? s->fields[0] : NULL; }

/* ---------------------------------------------------------------- typing */

static const Type *need_item(Infer *in, Node *at, const Type *t) {
  if (t && (ty_is_scalar(t) || t->kind == TY_STR || ty_dict_key_tuple(t))) return t;
  if (t) ty_error(in, at, "sets of %s are not supported in compiled code (numbers, bools, str and tuples of up to %d "
                  "of these are; an item must be hashable)", t->name, RT_KEY_FIELDS);
  return NULL;
}

static bool set_known(Infer *in, Node *n, const Type *s) {
  if (s->nfields) return true;
  if (in->final) ty_error(in, n, "cannot infer the item type of an empty set: add to it first");
  return false;
}

/* v, of type vt, as an item of s: an empty set takes vt as its item type;
 * a number of another width is converted, as Numba's set casts it (a
 * uint64 into a set of int64), never a float into ints; a tuple item by
 * item (ty_key_converts). */
static bool takes_item(Infer *in, Node *n, Node *recv, const Type *s, Node *v, const Type *vt) {
  if (!need_item(in, v, vt)) return false;
  if (!s->nfields) return ty_refine_container(in, n, recv, ty_set_of(vt));
  if (!ty_key_converts(item_of(s), vt)) return ty_error(in, v, "cannot add %s to %s", vt->name, s->name) != NULL;
  return true;
}

static const Type *ty_set_literal(Infer *in, Node *n, const Type **args) {
  if (ty_no_allocation(in)) return ty_error(in, n, "kernels cannot make sets");
  const Type *t = NULL;
  for (int i = 0; i < n->list.len; i++) {
    if (!need_item(in, n->list.items[i], args[i])) return NULL;
    if (!(t = t ? ty_unify(t, args[i]) : args[i]) || t->kind == TY_OPTIONAL)
      return ty_error(in, n->list.items[i], "a set's items must have one type: %s and %s cannot be unified",
                      args[0]->name, args[i]->name);
  }
  return ty_set_of(t);
}

/* s[k] is not Python; only the frontend's iteration (for x in s) indexes a set. */
const Type *ty_set_index(Infer *in, Node *n, const Type *s) {
  if (!n->str) return ty_error(in, n, "'set' object is not subscriptable");
  return set_known(in, n, s) ? ty_dict_index(in, n, s) : NULL;
}

/* Two sets of one item type (or an empty one yet untyped): the typed one. */
static const Type *same_sets(Infer *in, Node *n, const Type *a, const Type *b) {
  if (a->kind != TY_SET || b->kind != TY_SET)
    return ty_error(in, n, "this operation takes two sets, got %s and %s", a->name, b->name);
  if (a->nfields && b->nfields && a != b)
    return ty_error(in, n, "sets of different item types (%s and %s) cannot be combined: convert one first (All Sets "
                    "must be of the same type)", a->name, b->name);
  return a->nfields ? a : b;
}

static const char *const op_names[] = {"+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^"};

static int combine_op(int op) {
  return op == OP_BITOR ? SET_UNION : op == OP_BITAND ? SET_INTERSECTION : op == OP_SUB ? SET_DIFFERENCE
         : op == OP_BITXOR ? SET_SYMMETRIC : -1;
}

/* a | b, a & b, a - b, a ^ b (and their in-place forms) of two sets. */
const Type *ty_set_binop(Infer *in, Node *n, int op, const Type *a, const Type *b) {
  if (combine_op(op) < 0)
    return ty_error(in, n, "unsupported operand type(s) for %s: %s and %s",
                    op < (int)(sizeof op_names / sizeof op_names[0]) ? op_names[op] : "this operator", a->name, b->name);
  return same_sets(in, n, a, b);
}

/* Sets of two number types, compared as Python compares their numbers. */
static bool number_sets(const Type *a, const Type *b) {
  return a->kind == TY_SET && b->kind == TY_SET && a->nfields && b->nfields && ty_is_scalar(item_of(a)) &&
         ty_is_scalar(item_of(b)) && !ty_is_complex(item_of(a)) && !ty_is_complex(item_of(b));
}

bool ty_set_compare(Infer *in, Node *n, const Type *a, const Type *b) {
  if (n->list.len > 2) return ty_error(in, n, "chained comparisons of sets are not supported") != NULL;
  return number_sets(a, b) || same_sets(in, n, a, b) != NULL;
}

static const Type *ty_set_truth_call(Infer *in, Node *n, const Type **args) { return TYS(TY_BOOL); }

/* One type for a tuple's items, or NULL. */
static const Type *tuple_items_type(const Type *t) {
  const Type *u = NULL;
  for (int i = 0; i < t->nfields; i++)
    if (!(u = u ? ty_unify(u, t->fields[i]) : t->fields[i])) return NULL;
  return u;
}

/* The items' type of the iterable a method takes instead of a set, as
 * CPython's do: a typed list, a tuple, or what list() takes (a range, a
 * 1-d array), made a list here; NULL (with a TypingError) for others. */
static const Type *iterable_items(Infer *in, Node *n, const Type *t) {
  Node *x = n->list.items[1];
  if (t->kind == TY_TUPLE) {
    const Type *u = tuple_items_type(t);
    return u ? u : ty_error(in, x, "the items of %s have no one type a set can hold", t->name);
  }
  if (t->kind != TY_LIST) {  /* list(x), a new list the set is made from */
    Node *call = arena_alloc(in->f->arena, sizeof(Node));
    *call = (Node){.kind = N_CALL, .line = x->line, .col = x->col, .bi = bi_named("list")};
    call->list.items = arena_alloc(in->f->arena, sizeof(Node *));
    call->list.items[0] = x;
    call->list.len = 1;
    n->list.items[1] = call;
    if (!(t = ty_expr(in, call))) return NULL;
  }
  if (!t->elem && in->final) ty_error(in, x, "cannot infer the item type of an empty list");
  return t->elem;
}

/* The set the method's argument is, or is made into: another set of the
 * receiver's item type, or an iterable of items the receiver can hold
 * (an empty receiver: its items' type). */
static const Type *other_set(Infer *in, Node *n, const Type **args) {
  if (args[1]->kind == TY_SET) return same_sets(in, n, args[0], args[1]);
  const Type *e = iterable_items(in, n, args[1]);
  if (!e || !need_item(in, n->list.items[1], e)) return NULL;
  if (!args[0]->nfields) return ty_set_of(e);
  if (!ty_container_fits(item_of(args[0]), e))
    return ty_error(in, n->list.items[1], "%s cannot hold items of %s: convert one first", args[0]->name, e->name);
  return args[0];
}

static const Type *ty_add(Infer *in, Node *n, const Type **args) {
  return takes_item(in, n, n->list.items[0], args[0], n->list.items[1], args[1]) ? TYS(TY_NONE) : NULL;
}

/* discard(x), remove(x): x of the set's item type, or one that converts
 * to it (1 from a set of int32: what equals it is removed). */
static const Type *ty_keyed(Infer *in, Node *n, const Type **args) {
  if (!set_known(in, n, args[0]) || !need_item(in, n->list.items[1], args[1])) return NULL;
  if (!ty_key_converts(item_of(args[0]), args[1]))
    return ty_error(in, n->list.items[1], "%s is not an item type of %s", args[1]->name, args[0]->name);
  return TYS(TY_NONE);
}

static const Type *ty_pop(Infer *in, Node *n, const Type **args) {
  return set_known(in, n, args[0]) ? item_of(args[0]) : NULL;
}

/* clear() (ival 0), copy() (1) */
static const Type *ty_self(Infer *in, Node *n, const Type **args) { return n->bi->ival ? args[0] : TYS(TY_NONE); }

/* update() and the other in-place methods: another set or an iterable; an empty receiver takes its type. */
static const Type *ty_update(Infer *in, Node *n, const Type **args) {
  const Type *t = other_set(in, n, args);
  if (!t) return NULL;
  if (!args[0]->nfields && t->nfields) {  /* types it: known in the next pass */
    ty_refine_container(in, n, n->list.items[0], t);
    return NULL;
  }
  return TYS(TY_NONE);
}

static const Type *ty_combine(Infer *in, Node *n, const Type **args) { return other_set(in, n, args); }

static const Type *ty_relation(Infer *in, Node *n, const Type **args) {
  return other_set(in, n, args) ? TYS(TY_BOOL) : NULL;
}

/* ---------------------------------------------------------------- lowering */

/* Whether Python compiles x to a constant (a number, a str, a negated
 * number, a tuple of them). */
static bool constant(const Node *x) {
  if (x->kind == N_INT || x->kind == N_FLOAT || x->kind == N_BOOL || x->kind == N_STRING) return true;
  if (x->kind == N_UNARY) return x->lhs->kind == N_INT || x->lhs->kind == N_FLOAT;
  if (x->kind != N_TUPLE) return false;
  for (int i = 0; i < x->list.len; i++)
    if (!constant(x->list.items[i])) return false;
  return true;
}

/* {a, b, ...}: its items added in order. Of three constants or more
 * Python makes a frozenset constant, merged into a new set (its table
 * laid out anew: the order can differ), which rt_set_frozen does. */
static LLVMValueRef lo_set_literal(Lower *l, Node *n) {
  LLVMValueRef s = lo_dict_new(l, n->ty);
  lo_temp_made(l, n->ty, s);  /* released if an item raises */
  bool frozen = n->list.len >= 3;
  for (int i = 0; i < n->list.len; i++) {
    Node *k = n->list.items[i];
    frozen = frozen && constant(k);
    LLVMValueRef kv = lo_expr(l, k);
    lo_dict_insert(l, n->ty, s, lo_dict_key_bits(l, n->ty, kv, k->ty));
    lo_done_with(l, k, kv);  /* the set took its own reference to a new str */
  }
  lo_temp_taken(l, s);
  if (!frozen) return s;
  LLVMValueRef c = lo_call_fn(l, "rt_set_frozen", l->mod->ptr, &l->mod->ptr, &s, 1);
  lo_container_refcount(l, n->ty, s, false);
  lo_raise_if(l, LLVMBuildIsNull(l->b, c, ""), RT_ERR_MEMORY, NULL);
  return c;
}

static LLVMValueRef lo_set_truth(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef s = lo_expr(l, x);
  LLVMValueRef r = LLVMBuildICmp(l->b, LLVMIntNE, lo_container_len(l, x->ty, s), const_i64(l, 0), "");
  lo_done_with(l, x, s);
  return r;
}

/* An item's bits (dicts.c's key bits) as a value of the item type. */
static LLVMValueRef item_from_bits(Lower *l, const Type *t, LLVMValueRef bits) {
  if (t->kind == TY_STR) return LLVMBuildIntToPtr(l->b, bits, l->mod->ptr, "");
  if (ty_is_float(t)) return lo_convert(l, lo_from_bits(l, bits, TYS(TY_F64)), TYS(TY_F64), t);
  return lo_dict_key_of_bits(l, t, bits);
}

/* The item of bits deleted from s where exact (an item of another width
 * equal to one of s's type): whether one was (an i32, 0 where not exact). */
static LLVMValueRef delete_exact(Lower *l, LLVMValueRef s, LLVMValueRef bits, LLVMValueRef exact) {
  LLVMBasicBlockRef from = LLVMGetInsertBlock(l->b), del = new_block(l, "discard.exact"),
                    done = new_block(l, "discard.done");
  LLVMBuildCondBr(l->b, exact, del, done);
  position(l, del);
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
  LLVMValueRef gone = lo_call_fn(l, "rt_dict_delete", l->mod->i32, p, (LLVMValueRef[]){s, bits}, 2);
  LLVMBasicBlockRef deleted = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef r = LLVMBuildPhi(l->b, l->mod->i32, "");
  LLVMAddIncoming(r, (LLVMValueRef[]){const_i32(l, 0), gone}, (LLVMBasicBlockRef[]){from, deleted}, 2);
  return r;
}

/* add (ival 0), discard (1), remove (2: KeyError when missing) */
static LLVMValueRef lo_keyed(Lower *l, Node *n) {
  Node *x = n->list.items[0], *k = n->list.items[1];
  LLVMValueRef s = lo_expr(l, x), kv = lo_expr(l, k);
  const Type *t = x->ty->nfields ? x->ty : ty_set_of(k->ty);  /* an empty set's first add */
  LLVMValueRef bits = lo_dict_key_bits(l, t, kv, k->ty);
  if (!n->bi->ival) {
    lo_dict_insert(l, t, s, bits);
  } else {
    LLVMValueRef gone = delete_exact(l, s, bits, lo_key_exact(l, kv, k->ty, item_of(t)));
    if (n->bi->ival == 2) {
      LLVMBasicBlockRef fail = new_block(l, "remove.missing"), ok = new_block(l, "remove.done");
      LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, gone, const_i32(l, 0), ""), fail, ok);
      position(l, fail);
      /* (the item given, not its conversion: KeyError(257) of a set of int8s) */
      const Type *given = ty_set_of(k->ty);
      LLVMValueRef asked = given == t ? bits : lo_dict_key_bits(l, given, kv, k->ty);
      LLVMTypeRef q[2] = {l->mod->i32, l->mod->i64};
      lo_call_fn(l, "rt_key_error", void_type(l), q,
                 (LLVMValueRef[]){const_i32(l, lo_key_error_kind(k->ty)), asked}, 2);
      lo_raise_recorded(l, RT_ERR_KEY);
      position(l, ok);
    }
  }
  lo_done_with(l, k, kv);
  lo_done_with(l, x, s);
  return LLVMGetUndef(l->mod->i8);
}

/* s.pop(): an item, removed (its reference, for a str, handed over); KeyError when s is empty. */
static LLVMValueRef lo_pop(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef s = lo_expr(l, x);
  LLVMValueRef e = lo_call_fn(l, "rt_dict_popitem", l->mod->ptr, &l->mod->ptr, &s, 1);
  lo_raise_if(l, LLVMBuildIsNull(l->b, e, ""), RT_ERR_KEY, "pop from an empty set");
  LLVMValueRef off = const_i64(l, 8);
  LLVMValueRef bits = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i8, e, &off, 1, ""), "");
  lo_done_with(l, x, s);
  LLVMValueRef v = item_from_bits(l, n->ty, bits);
  if (lo_key_in_memory(n->ty)) {  /* its RtTupleKey, handed over, read */
    LLVMValueRef t = LLVMBuildIntToPtr(l->b, bits, l->mod->ptr, "");
    lo_call_fn(l, "rt_tuple_key_free", void_type(l), &l->mod->ptr, &t, 1);
  }
  return v;
}

/* clear() (ival 0), copy() (1) */
static LLVMValueRef lo_self(Lower *l, Node *n) {
  LLVMValueRef s = lo_expr(l, n->list.items[0]), r = LLVMGetUndef(l->mod->i8);
  if (n->bi->ival) {
    r = lo_call_fn(l, "rt_dict_copy", l->mod->ptr, &l->mod->ptr, &s, 1);
    lo_raise_if(l, LLVMBuildIsNull(l->b, r, ""), RT_ERR_MEMORY, NULL);
  } else {
    lo_call_fn(l, "rt_dict_clear", void_type(l), &l->mod->ptr, &s, 1);
  }
  lo_done_with(l, n->list.items[0], s);
  return r;
}

/* v (of type vt) inserted into the new set s of type st. */
static void insert_converted(Lower *l, const Type *st, LLVMValueRef s, LLVMValueRef v, const Type *vt) {
  lo_dict_insert(l, st, s, lo_dict_key_bits(l, st, v, vt));
}

/* A method's operand b: a set as it is, or a new set of type st made of
 * the items of a typed list or a tuple (released by done_with_operand). */
static LLVMValueRef operand(Lower *l, const Type *st, Node *b) {
  LLVMValueRef vb = lo_expr(l, b);
  if (b->ty->kind == TY_SET) return vb;
  LLVMValueRef s = lo_dict_new(l, st);
  lo_temp_made(l, st, s);
  if (b->ty->kind == TY_TUPLE) {
    for (int i = 0; i < b->ty->nfields; i++)
      insert_converted(l, st, s, LLVMBuildExtractValue(l->b, vb, (unsigned)i, ""), b->ty->fields[i]);
  } else {
    const Type *e = b->ty->elem;
    LLVMValueRef off = const_i64(l, offsetof(RtList, data));
    LLVMValueRef data = LLVMBuildLoad2(l->b, l->mod->ptr, LLVMBuildGEP2(l->b, l->mod->i8, vb, &off, 1, ""), "");
    LoLoop loop = lo_loop_begin(l, const_i64(l, 0), lo_list_len(l, vb), NULL, "set.from");
    LLVMValueRef at = LLVMBuildGEP2(l->b, lo_storage_type(l, e), data, &loop.index, 1, "");
    insert_converted(l, st, s, lo_load_scalar(l, e, at), e);
    lo_loop_end(l, &loop);
  }
  lo_done_with(l, b, vb);
  return s;
}

static void done_with_operand(Lower *l, const Type *st, Node *b, LLVMValueRef vb) {
  if (b->ty->kind == TY_SET) {
    lo_done_with(l, b, vb);
    return;
  }
  lo_temp_taken(l, vb);
  lo_container_refcount(l, st, vb, false);
}

/* The set type an operand b of a's method is made as: a's, or b's items' for an empty a. */
static const Type *operand_type(Node *a, Node *b) {
  if (a->ty->nfields || b->ty->kind == TY_SET) return a->ty->nfields ? a->ty : b->ty;
  return ty_set_of(b->ty->kind == TY_TUPLE ? tuple_items_type(b->ty) : b->ty->elem);
}

/* a.update(b) and kin, a |= b and kin: a changed in place. */
static void update(Lower *l, Node *a, Node *b, int op) {
  const Type *st = operand_type(a, b);
  LLVMValueRef va = lo_expr(l, a), vb = operand(l, st, b);
  LLVMTypeRef p[3] = {l->mod->ptr, l->mod->ptr, l->mod->i32};
  op |= b->ty->kind == TY_SET ? 0 : SET_SEQUENCE;
  lo_check_call(l, lo_call_fn(l, "rt_set_combine_update", l->mod->i32, p, (LLVMValueRef[]){va, vb, const_i32(l, op)}, 3));
  done_with_operand(l, st, b, vb);
  lo_done_with(l, a, va);
}

static LLVMValueRef lo_update(Lower *l, Node *n) {
  update(l, n->list.items[0], n->list.items[1], (int)n->bi->ival);
  return LLVMGetUndef(l->mod->i8);
}

void lo_set_update(Lower *l, Node *n) { update(l, n->lhs, n->rhs, combine_op(n->op)); }

static LLVMValueRef combine(Lower *l, Node *a, Node *b, int op) {
  const Type *st = operand_type(a, b);
  LLVMValueRef va = lo_expr(l, a), vb = operand(l, st, b);
  LLVMTypeRef p[3] = {l->mod->ptr, l->mod->ptr, l->mod->i32};
  op |= b->ty->kind == TY_SET ? 0 : SET_SEQUENCE;
  LLVMValueRef r = lo_call_fn(l, "rt_set_combine", l->mod->ptr, p, (LLVMValueRef[]){va, vb, const_i32(l, op)}, 3);
  done_with_operand(l, st, b, vb);
  lo_raise_if(l, LLVMBuildIsNull(l->b, r, ""), RT_ERR_MEMORY, NULL);
  lo_done_with(l, a, va);
  return r;
}

static LLVMValueRef lo_combine(Lower *l, Node *n) {
  return combine(l, n->list.items[0], n->list.items[1], (int)n->bi->ival);
}

LLVMValueRef lo_set_binop(Lower *l, Node *n) { return combine(l, n->lhs, n->rhs, combine_op(n->op)); }

static LLVMValueRef set_call(Lower *l, const char *fn, LLVMValueRef a, LLVMValueRef b) {
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->ptr};
  LLVMValueRef r = lo_call_fn(l, fn, l->mod->i32, p, (LLVMValueRef[]){a, b}, 2);
  return LLVMBuildICmp(l->b, LLVMIntNE, r, const_i32(l, 0), "");
}

/* How lib/sets.c reads a number item's bits (its ITEM_FLOAT, ITEM_SIGNED, ITEM_UNSIGNED). */
static int number_reading(const Type *t) { return ty_is_float(t) ? 0 : ty_is_int(t) && !ty_is_signed(t) ? 2 : 1; }

/* a <= b: of one item type, or of two number types (rt_set_subset_numbers). */
static LLVMValueRef subset_of(Lower *l, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  int from = number_reading(item_of(ta)), to = number_reading(item_of(tb));
  if (ta == tb || from == to) return set_call(l, "rt_set_subset", a, b);
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->ptr, l->mod->i32, l->mod->i32};
  LLVMValueRef r = lo_call_fn(l, "rt_set_subset_numbers", l->mod->i32, p,
                              (LLVMValueRef[]){a, b, const_i32(l, from), const_i32(l, to)}, 4);
  return LLVMBuildICmp(l->b, LLVMIntNE, r, const_i32(l, 0), "");
}

/* a op b of two sets: <= is a subset, < a proper one, == the same items. */
LLVMValueRef lo_set_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  if (op == OP_GT || op == OP_GE) {  /* b < a, b <= a */
    LLVMValueRef t = a;
    const Type *tt = ta;
    a = b, b = t;
    ta = tb, tb = tt;
    op = op == OP_GT ? OP_LT : OP_LE;
  }
  LLVMValueRef la = lo_container_len(l, ta, a), lb = lo_container_len(l, tb, b);
  LLVMValueRef subset = subset_of(l, a, ta, b, tb);
  switch (op) {
  case OP_LE: return subset;
  case OP_LT: return LLVMBuildAnd(l->b, subset, LLVMBuildICmp(l->b, LLVMIntSLT, la, lb, ""), "");
  default: {
    LLVMValueRef same = LLVMBuildAnd(l->b, subset, LLVMBuildICmp(l->b, LLVMIntEQ, la, lb, ""), "");
    return op == OP_EQ ? same : LLVMBuildNot(l->b, same, "");
  }
  }
}

/* issubset (ival 0), issuperset (1), isdisjoint (2) */
static LLVMValueRef lo_relation(Lower *l, Node *n) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  const Type *st = operand_type(a, b);
  LLVMValueRef va = lo_expr(l, a), vb = operand(l, st, b);
  LLVMValueRef r = n->bi->ival == 2 ? set_call(l, "rt_set_disjoint", va, vb)
                   : n->bi->ival    ? set_call(l, "rt_set_subset", vb, va)
                                    : set_call(l, "rt_set_subset", va, vb);
  done_with_operand(l, st, b, vb);
  lo_done_with(l, a, va);
  return r;
}

/* list(s) of a set of tuples or complex numbers: each item's RtTupleKey read into
 * the new list (the runtime's rt_set_items copies bits only), with the
 * list's own reference to each str in it. */
static LLVMValueRef tuple_items(Lower *l, const Type *st, LLVMValueRef s, const Type *elem) {
  LLVMValueRef n = lo_container_len(l, st, s);
  LLVMValueRef lst = lo_list_new(l, elem, n);
  LLVMValueRef off = const_i64(l, offsetof(RtList, data));
  LLVMValueRef data = LLVMBuildLoad2(l->b, l->mod->ptr, LLVMBuildGEP2(l->b, l->mod->i8, lst, &off, 1, ""), "");
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), n, NULL, "set.items");
  LLVMTypeRef q[2] = {l->mod->ptr, l->mod->i64};
  LLVMValueRef e = lo_call_fn(l, "rt_dict_entry", l->mod->ptr, q, (LLVMValueRef[]){s, loop.index}, 2);
  off = const_i64(l, 8);
  LLVMValueRef bits = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i8, e, &off, 1, ""), "");
  LLVMValueRef v = lo_convert(l, item_from_bits(l, item_of(st), bits), item_of(st), elem);
  if (ty_has_arrays(elem)) lo_refcount(l, elem, v, true);
  lo_store_scalar(l, elem, LLVMBuildGEP2(l->b, lo_storage_type(l, elem), data, &loop.index, 1, ""), v);
  lo_loop_end(l, &loop);
  off = const_i64(l, offsetof(RtList, len));
  LLVMBuildStore(l->b, n, LLVMBuildGEP2(l->b, l->mod->i8, lst, &off, 1, ""));
  return lst;
}

/* list(s), sorted(s): a new list of s's items. */
LLVMValueRef lo_set_list(Lower *l, Node *x, const Type *elem) {
  LLVMValueRef s = lo_expr(l, x);
  if (lo_key_in_memory(item_of(x->ty))) {
    LLVMValueRef r = tuple_items(l, x->ty, s, elem);
    lo_done_with(l, x, s);
    return r;
  }
  LLVMTypeRef p[3] = {l->mod->ptr, l->mod->i32, l->mod->i64};
  LLVMValueRef a[3] = {s, const_i32(l, (int)elem->kind), const_i64(l, (int64_t)elem->size)};
  LLVMValueRef r = lo_call_fn(l, "rt_set_items", l->mod->ptr, p, a, 3);
  lo_raise_if(l, LLVMBuildIsNull(l->b, r, ""), RT_ERR_MEMORY, NULL);
  lo_done_with(l, x, s);
  return r;
}

/* typed.Set.empty(key_type) in compiled code (Numba's typed set, which
 * compiled code holds as any set): an empty set of that type. */
static const Type *ty_empty_set(Infer *in, Node *n, const Type **args) {
  Node *k = bi_arg(n, 0, "key_type");
  if (ty_no_allocation(in)) return ty_error(in, n, "kernels cannot make sets");
  if (!k) return ty_error(in, n, "typed.Set.empty() takes key_type");
  if (k->ty->kind != TY_DTYPE || k->ty->elem->kind == TY_RECORD)  /* named, or held by a variable */
    return ty_error(in, k, "typed.Set.empty() in compiled code takes a number type or unicode_type "
                    "(types.int64, numpy.float32, ...), got %s", k->ty->name);
  return need_item(in, k, k->ty->elem) ? ty_set_of(k->ty->elem) : NULL;
}

static LLVMValueRef lo_empty_set(Lower *l, Node *n) { return lo_dict_new(l, n->ty); }

/* ---------------------------------------------------------------- the rows */

/* BF_COMPLEX: complex items are keys as any number (lib/containers.c hashes them as Python) */
#define SET_METHOD(name, lo, hi, flags, ival, type, lower) \
  {"set." name, NULL, name, BK_METHOD, TY_SET, lo, hi, NULL, (flags) | BF_COMPLEX, ival, 0, type, lower}

static const char *const empty_set_kw[] = {"key_type", NULL};

const Builtin bi_sets[] = {
  {"set literal", NULL, NULL, BK_FUNCTION, 0, 0, 1 << 20, NULL, BF_RAISES | BF_COMPLEX, 0, 0, ty_set_literal,
   lo_set_literal},
  {"set truth", NULL, NULL, BK_FUNCTION, 0, 1, 1, NULL, BF_COMPLEX, 0, 0, ty_set_truth_call, lo_set_truth},
  {"typed.Set.empty", "ruchey.typed", "Set.empty", BK_FUNCTION, 0, 0, 1, empty_set_kw, BF_RAISES | BF_COMPLEX, 0, 0,
   ty_empty_set, lo_empty_set},
  /* BF_STRINGS: a constant string argument is a str item, not a dtype's name (BF_LISTS: in a list
   * literal too); BF_RAISES: an iterable argument is made a set (MemoryError) */
  SET_METHOD("add", 1, 1, BF_RAISES | BF_STRINGS, 0, ty_add, lo_keyed),
  SET_METHOD("discard", 1, 1, BF_STRINGS, 1, ty_keyed, lo_keyed),
  SET_METHOD("remove", 1, 1, BF_RAISES | BF_STRINGS, 2, ty_keyed, lo_keyed),
  SET_METHOD("pop", 0, 0, BF_RAISES, 0, ty_pop, lo_pop),
  SET_METHOD("clear", 0, 0, 0, 0, ty_self, lo_self),
  SET_METHOD("copy", 0, 0, BF_RAISES, 1, ty_self, lo_self),
  SET_METHOD("update", 1, 1, BF_RAISES | BF_STRINGS | BF_LISTS, SET_UNION, ty_update, lo_update),
  SET_METHOD("intersection_update", 1, 1, BF_RAISES | BF_STRINGS | BF_LISTS, SET_INTERSECTION, ty_update, lo_update),
  SET_METHOD("difference_update", 1, 1, BF_RAISES | BF_STRINGS | BF_LISTS, SET_DIFFERENCE, ty_update, lo_update),
  SET_METHOD("symmetric_difference_update", 1, 1, BF_RAISES | BF_STRINGS | BF_LISTS, SET_SYMMETRIC, ty_update, lo_update),
  SET_METHOD("union", 1, 1, BF_RAISES | BF_STRINGS | BF_LISTS, SET_UNION, ty_combine, lo_combine),
  SET_METHOD("intersection", 1, 1, BF_RAISES | BF_STRINGS | BF_LISTS, SET_INTERSECTION, ty_combine, lo_combine),
  SET_METHOD("difference", 1, 1, BF_RAISES | BF_STRINGS | BF_LISTS, SET_DIFFERENCE, ty_combine, lo_combine),
  SET_METHOD("symmetric_difference", 1, 1, BF_RAISES | BF_STRINGS | BF_LISTS, SET_SYMMETRIC, ty_combine, lo_combine),
  SET_METHOD("issubset", 1, 1, BF_RAISES | BF_STRINGS | BF_LISTS, 0, ty_relation, lo_relation),
  SET_METHOD("issuperset", 1, 1, BF_RAISES | BF_STRINGS | BF_LISTS, 1, ty_relation, lo_relation),
  SET_METHOD("isdisjoint", 1, 1, BF_RAISES | BF_STRINGS | BF_LISTS, 2, ty_relation, lo_relation),
  BI_END,
};
