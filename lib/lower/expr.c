/* lower/expr.c — expressions: variables (UnboundLocalError where a read
 * may find one unassigned), comparisons, and/or, conditional expressions,
 * tuples, indexing; calls and attributes are their builtins' lowerers. */
#include <stdio.h>

#include "lower/lower.h"

/* a < b < c: each operand evaluated once, stopping at the first false. */
static LLVMValueRef lo_compare(Lower *l, Node *n) {
  for (int i = 0; i < n->list.len; i++)  /* (enum members of str values too: their strs are released as strs are) */
    if (ty_enum_value(n->list.items[i]->ty)->kind == TY_STR || n->list.items[i]->ty->kind == TY_BYTES)
      return lo_str_compare(l, n);
  LLVMValueRef result = lo_alloca(l, l->mod->i1, "cmp");
  LLVMBasicBlockRef done = new_block(l, "cmp.done");
  LLVMValueRef a = lo_expr(l, n->list.items[0]);
  for (int i = 0; i + 1 < n->list.len; i++) {
    LLVMValueRef b = lo_expr(l, n->list.items[i + 1]);
    LLVMValueRef c = lo_compare_values(l, n->ops[i], a, n->list.items[i]->ty, b,
                                       n->list.items[i + 1]->ty);
    LLVMBuildStore(l->b, c, result);
    TypeKind k = n->list.items[i]->ty->kind;
    if (k == TY_LIST || k == TY_SET) {  /* typing allows no chains of them */
      lo_done_with(l, n->list.items[i], a);
      lo_done_with(l, n->list.items[i + 1], b);
    }
    if (i + 2 < n->list.len) {
      LLVMBasicBlockRef next = new_block(l, "cmp.next");
      LLVMBuildCondBr(l->b, c, next, done);
      position(l, next);
    }
    a = b;
  }
  LLVMBuildBr(l->b, done);
  position(l, done);
  return LLVMBuildLoad2(l->b, l->mod->i1, result, "");
}

/* and/or give the first operand that decides, as Python does. */
static LLVMValueRef lo_boolop(Lower *l, Node *n) {
  LLVMValueRef result = lo_alloca(l, lo_type(l, n->ty), "boolop");
  LLVMBasicBlockRef done = new_block(l, "boolop.done");
  for (int i = 0; i < n->list.len; i++) {
    Node *e = n->list.items[i];
    LLVMValueRef v = lo_expr(l, e);
    LLVMBuildStore(l->b, lo_convert(l, v, e->ty, n->ty), result);
    if (i + 1 < n->list.len) {
      LLVMBasicBlockRef next = new_block(l, "boolop.next");
      LLVMValueRef t = lo_truth(l, v, e->ty);
      if (n->op == OP_AND)
        LLVMBuildCondBr(l->b, t, next, done);
      else
        LLVMBuildCondBr(l->b, t, done, next);
      position(l, next);
    }
  }
  LLVMBuildBr(l->b, done);
  position(l, done);
  return LLVMBuildLoad2(l->b, lo_type(l, n->ty), result, "");
}

static LLVMValueRef lo_ifexp(Lower *l, Node *n) {
  LLVMValueRef result = lo_alloca(l, lo_type(l, n->ty), "ifexp");
  LLVMBasicBlockRef then = new_block(l, "ifexp.then"), other = new_block(l, "ifexp.else"),
                    done = new_block(l, "ifexp.done");
  LLVMBuildCondBr(l->b, lo_truth(l, lo_expr(l, n->cond), n->cond->ty), then, other);
  position(l, then);
  LLVMBuildStore(l->b, lo_convert(l, lo_owned(l, n->lhs), n->lhs->ty, n->ty), result);
  LLVMBuildBr(l->b, done);
  position(l, other);
  LLVMBuildStore(l->b, lo_convert(l, lo_owned(l, n->rhs), n->rhs->ty, n->ty), result);
  LLVMBuildBr(l->b, done);
  position(l, done);
  return LLVMBuildLoad2(l->b, lo_type(l, n->ty), result, "");
}

/* A tuple of more items (or numbers in all) than this is built in memory
 * and loaded whole: a chain of an insertvalue per item costs LLVM's
 * constant propagation a time that grows as the cube of the items
 * (seconds for 300). */
enum { TUPLE_IN_REGISTERS = 16 };

/* Item v of type t stored at p: a long tuple just loaded whole copied where it lies (lo_store_whole). */
static void store_item(Lower *l, const Type *t, LLVMValueRef p, LLVMValueRef v) {
  if (lo_type(l, t) == lo_storage_type(l, t)) lo_store_whole(l, t, p, v);
  else lo_store_storage(l, t, p, v);
}

/* The items in turn; those holding arrays are temporaries until the tuple
 * holds them all, so that an item that raises releases the ones before it. */
LLVMValueRef lo_tuple(Lower *l, Node *n) {
  bool in_memory = n->list.len > TUPLE_IN_REGISTERS || lo_many_fields(n->ty);
  LLVMValueRef t = LLVMGetUndef(lo_type(l, n->ty)), mem = NULL;
  if (in_memory) mem = lo_alloca(l, lo_storage_type(l, n->ty), "tuple");
  LLVMValueRef *items = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(n->list.len + 1));
  for (int i = 0; i < n->list.len; i++) {
    Node *item = n->list.items[i];
    items[i] = lo_owned(l, item);
    if (ty_has_arrays(item->ty)) lo_temp_made(l, item->ty, items[i]);
    if (in_memory)
      store_item(l, item->ty, LLVMBuildStructGEP2(l->b, lo_storage_type(l, n->ty), mem, (unsigned)i, ""), items[i]);
    else
      t = LLVMBuildInsertValue(l->b, t, items[i], (unsigned)i, "");
  }
  for (int i = 0; i < n->list.len; i++)
    if (ty_has_arrays(n->list.items[i]->ty)) lo_temp_taken(l, items[i]);
  return in_memory ? lo_load_storage(l, n->ty, mem) : t;
}

/* Python raises UnboundLocalError for a read of a variable not assigned on
 * the path taken; variables that may be read so carry an "assigned" flag,
 * which LLVM folds away wherever a store visibly precedes the read. */
static LLVMValueRef lo_load_var(Lower *l, Node *n) {
  if (l->assigned && l->assigned[n->var]) {
    char msg[300];
    snprintf(msg, sizeof msg, "cannot access local variable '%s' where it is not associated with a value",
             l->f->var_names[n->var]);
    LLVMValueRef set = LLVMBuildLoad2(l->b, l->mod->i1, l->assigned[n->var], "");
    lo_raise_if(l, LLVMBuildNot(l->b, set, ""), RT_ERR_UNBOUND, arena_strdup(l->f->arena, msg));
  }
  const Type *vt = l->f->var_types[n->var];  /* n->ty differs where an Optional's value is read */
  return lo_convert(l, LLVMBuildLoad2(l->b, lo_type(l, vt), l->slots[n->var], l->f->var_names[n->var]), vt, n->ty);
}

/* x is None: known from x's type unless it is an Optional. */
static LLVMValueRef lo_is_none(Lower *l, Node *n) {
  const Type *t = n->lhs->ty;
  LLVMValueRef none;
  if (n->lhs->kind == N_VAR && t->kind != TY_OPTIONAL) {
    none = const_bool(l, t->kind == TY_NONE);
  } else {
    LLVMValueRef v = lo_expr(l, n->lhs);
    none = t->kind == TY_OPTIONAL ? LLVMBuildNot(l->b, LLVMBuildExtractValue(l->b, v, 1, ""), "")
                                  : const_bool(l, t->kind == TY_NONE);
    lo_done_with(l, n->lhs, v);
  }
  return n->ival ? LLVMBuildNot(l->b, none, "") : none;
}

/* An Optional's value where one is needed: a fresh Optional's reference
 * passes to the value (lo_is_fresh). */
static LLVMValueRef lo_unwrap(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr(l, n->lhs);
  if (lo_is_fresh(n->lhs) && ty_has_arrays(n->lhs->ty)) lo_temp_taken(l, v);
  return lo_convert(l, v, n->lhs->ty, n->ty);
}

void lo_mark_assigned(Lower *l, int var) {
  if (l->assigned && l->assigned[var]) LLVMBuildStore(l->b, LLVMConstInt(l->mod->i1, 1, 0), l->assigned[var]);
}

static LLVMValueRef lo_expr_kind(Lower *l, Node *n) {
  if (lo_is_elementwise(n)) return lo_array_expr(l, n);
  switch (n->kind) {
  case N_INT: return const_i64(l, n->ival);
  case N_FLOAT: return LLVMConstReal(l->mod->f64, n->fval);
  case N_BOOL: return LLVMConstInt(l->mod->i1, (unsigned long long)n->ival, 0);
  case N_VAR: return lo_load_var(l, n);
  case N_BINOP: return lo_binop(l, n);
  case N_UNARY: return lo_unary(l, n);
  case N_COMPARE: return lo_compare(l, n);
  case N_BOOLOP: return lo_boolop(l, n);
  case N_IFEXP: return lo_ifexp(l, n);
  case N_CALL: return n->bi->lower(l, n);
  case N_INDEX: return lo_index(l, n);
  case N_ATTR: return n->bi->lower(l, n);
  case N_TUPLE: return lo_tuple(l, n);
  case N_CONST_ARRAY: return lo_const_array(l, n);
  case N_STRING: return lo_str_constant(l, n);
  case N_IS_NONE: return lo_is_none(l, n);
  case N_UNWRAP: return lo_unwrap(l, n);
  case N_FUNC: return LLVMConstInt(l->mod->i8, 0, 0);  /* the callee is in its type */
  default: return LLVMGetUndef(l->mod->i8);  /* dtypes and modules have no runtime value */
  }
}

LLVMValueRef lo_expr(Lower *l, Node *n) {
  LLVMValueRef v = lo_expr_kind(l, n);
  if (lo_is_fresh(n) && ty_has_arrays(n->ty)) lo_temp_made(l, n->ty, v);
  return v;
}

/* Evaluates n and converts it to t. */
LLVMValueRef lo_expr_as(Lower *l, Node *n, const Type *t) {
  return lo_convert(l, lo_expr(l, n), n->ty, t);
}
