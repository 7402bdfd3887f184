/* builtins/lists.c — typed lists in compiled code: list literals (and the
 * comprehensions the frontend turns into appends), their methods, len,
 * indexing, `in` and iteration; and what lists and dicts share: their
 * data model's reference counts, and typing an empty one from what it is
 * given later, as Numba does.
 *
 * A list is a pointer to an RtList (containers.h), the same memory a
 * ruchey.typed.List holds in Python. Appending, indexing and len are
 * inlined; the rest calls lib/containers.c.
 */
#include <stddef.h>
#include <stdio.h>

#include "builtins/builtins.h"
#include "containers.h"
#include "ir.h"

/* ---------------------------------------------------------------- types */

static bool plain_item(const Type *t, const char *what);

/* A tuple a container may hold: of numbers (or None: an Optional number
 * or instance), bools, strs, arrays, jitclass instances, typed lists and
 * dicts and such tuples (hftbacktest's order bus: (Order, int64)), with at
 * most RT_HELD_FIELDS references in all. */
static bool held_tuple(const Type *t) {
  for (int i = 0; i < t->nfields; i++) {
    const Type *f = t->fields[i];
    if (f->kind == TY_OPTIONAL && (ty_is_scalar(f->elem) || f->elem->kind == TY_CLASS)) f = f->elem;
    bool container = (f->kind == TY_LIST || f->kind == TY_DICT) && plain_item(f, "lists");
    if ((!ty_is_scalar(f) || ty_is_time(f)) && f->kind != TY_STR && f->kind != TY_ARRAY && f->kind != TY_BYTES &&
        f->kind != TY_NONE && f->kind != TY_CLASS && !container &&
        !(f->kind == TY_TUPLE && held_tuple(f)))
      return false;
  }
  int32_t kinds[RT_HELD_FIELDS];
  int64_t offsets[RT_HELD_FIELDS];
  return rt_held_fields(t, 0, 0, RT_HELD_FIELDS, kinds, offsets) >= 0;
}

/* Whether a list item or a dict value may be of type t: a number, a bool,
 * a tuple (of numbers, strs, arrays, instances), or one reference that
 * lib/containers.c counts (a str, an array, a typed list or dict whose
 * types are known). A datetime, and an enum member of a number, is a
 * list's item alone: a list's box keeps its type (and so its unit, or its
 * class), a dict's keeps only kinds. */
static bool plain_item(const Type *t, const char *what) {
  if (t->kind == TY_NONE) return !strcmp(what, "lists");  /* [None], as Numba's, typed by what is appended later */
  if (t->kind == TY_OPTIONAL)  /* a list of arrays (instances...) and Nones: the value of each, or None */
    return !strcmp(what, "lists") && ((ty_is_scalar(t->elem) && !ty_is_time(t->elem)) ||
                                      t->elem->kind == TY_ARRAY || t->elem->kind == TY_CLASS || (t->elem->kind == TY_TUPLE && held_tuple(t->elem)));
  if (ty_is_time(t) || (ty_is_enum(t) && ty_is_scalar(t->elem))) return !strcmp(what, "lists");
  if (ty_is_scalar(t) || t->kind == TY_STR || t->kind == TY_ARRAY || t->kind == TY_CLASS) return true;
  if (t->kind == TY_FUNCS) return !strcmp(what, "lists");  /* [f, g]: the number of each, as Numba's list of FunctionType */
  if (t->kind == TY_FUNCPTR) return true;  /* List.empty_list(FunctionType(sig)), a Dict's values: each one's entry */
  if (t->kind == TY_BYTES) return !strcmp(what, "lists");  /* (dict values: not from Python, which has no type for them) */
  if (t->kind == TY_LIST) return !t->elem || plain_item(t->elem, "lists");  /* [] typed later: rows[i].append(x) */
  if (t->kind == TY_DICT) return !t->nfields || plain_item(t->fields[1], "dict values");
  if (t->kind == TY_SET) return t->nfields && !strcmp(what, "lists");  /* quimb's groups.append({i, j}) */
  return t->kind == TY_TUPLE && held_tuple(t);
}

bool ty_container_item(Infer *in, Node *at, const Type *t, const char *what) {
  if (t && plain_item(t, what)) return true;
  if (t)  /* (the type last: a long tuple's name fills the message) */
    ty_error(in, at, "%s of this type are not supported in compiled code (numbers, bools, str, arrays, typed lists "
             "and dicts, jitclass instances, and tuples of these holding up to %d references are): %s", what,
             RT_HELD_FIELDS, t->name);
  return false;
}

/* Whether a value of type `from` may be stored where `to` is held: the
 * same type, or one that widens to it (an int in a float list, (1, 2) in a
 * list of (float64, float64), a C array among arrays of any layout, as
 * Numba's typed.List.empty_list(float64[:]) holds). */
bool ty_container_fits(const Type *to, const Type *from) {
  if (to == from) return true;
  if (to->kind == TY_OPTIONAL)  /* an item that may be None: None, or what fits its value */
    return from->kind == TY_NONE || ty_container_fits(to->elem, from->kind == TY_OPTIONAL ? from->elem : from);
  if (to->kind == TY_ARRAY && from->kind == TY_ARRAY)  /* one struct for every layout: nothing converts */
    return to->elem == from->elem && to->ndim == from->ndim && to->layout == 'A' && (to->readonly || !from->readonly);
  bool numbers = ty_is_scalar(from) && ty_is_scalar(to);
  bool tuples = from->kind == TY_TUPLE && to->kind == TY_TUPLE && from->nfields == to->nfields;
  bool containers = ty_is_container(from) && ty_is_container(to);  /* [] into a list of lists */
  return (numbers || tuples || containers) && ty_unify(to, from) == to;
}

/* Whether a number of type `from` is stored, converted, into a container
 * of numbers of type `to` of another width, as Numba's typed containers
 * cast it (1 into a list of int32, 1.5 into float32, 1j into complex64):
 * ints into ints, ints and floats into floats, any number into complex;
 * never a float into ints (Python's list would keep the 1.5). */
bool ty_container_casts(const Type *to, const Type *from) {
  if (!ty_is_scalar(to) || !ty_is_scalar(from) || to->kind == TY_BOOL || from->kind == TY_BOOL) return false;
  if (ty_is_complex(to)) return true;
  if (ty_is_float(to)) return !ty_is_complex(from);
  return ty_is_int(to) && ty_is_int(from);
}

static bool maybe_none(const Type *t) { return t->kind == TY_NONE || t->kind == TY_OPTIONAL; }

/* Two container types as one: an empty one's (its types unknown) taken
 * from the other, inside containers too ([[]] and [[1]]). */
const Type *ty_unify_containers(const Type *a, const Type *b) {
  if (a->kind != b->kind) return NULL;
  if (a == b) return a;
  if (a->kind == TY_LIST) {
    if (!a->elem || !b->elem) return !a->elem ? b : a;
    if (maybe_none(a->elem) || maybe_none(b->elem)) {  /* [None] and [x]: a list of Optionals */
      const Type *u = ty_unify(a->elem, b->elem);
      return u ? ty_list(u) : NULL;
    }
    if (a->elem->kind == TY_FUNCS && b->elem->kind == TY_FUNCS) {  /* [f, g] given h later */
      const Type *e = ty_funcs_widening(a->elem, b->elem);
      return e ? ty_list(e) : NULL;
    }
    const Type *e = ty_is_container(a->elem) && ty_is_container(b->elem) ? ty_unify_containers(a->elem, b->elem) : NULL;
    return e ? ty_list(e) : NULL;
  }
  if (!a->nfields || !b->nfields) return !a->nfields ? b : a;
  if (a->fields[0] != b->fields[0] || !ty_is_container(a->fields[1]) || !ty_is_container(b->fields[1])) return NULL;
  const Type *v = ty_unify_containers(a->fields[1], b->fields[1]);
  return v ? ty_dict(a->fields[0], v) : NULL;
}

/* The variable holding the list or dict that x is an item or value of:
 * rows[i], d[k], d.setdefault(k, []), d.get(k, []); else NULL. */
static Node *holder(Node *x) {
  Node *outer = x->kind == N_INDEX && !x->str ? x->lhs : NULL;
  if (x->kind == N_CALL && x->bi && x->bi->kind == BK_METHOD && x->bi->receiver == TY_DICT && x->list.len > 2)
    outer = x->list.items[0];
  return outer && outer->kind == N_VAR && outer->ty && ty_is_container(outer->ty) ? outer : NULL;
}

/* A container whose item types are not known yet (x = [] before any
 * x.append(v)) takes them from what is first given to it: the variable
 * holding it is retyped; an item of a list or a dict value (rows[i] of
 * rows = [[] for ...]) retypes the variable holding that list or dict. */
bool ty_refine_container(Infer *in, Node *n, Node *recv, const Type *t) {
  Node *var = holder(recv);
  if (var) {
    const Type *outer = var->ty;
    if (outer->kind == TY_LIST && outer->elem && outer->elem->kind == t->kind)
      return ty_refine_container(in, n, var, ty_list(t));
    if (outer->kind == TY_DICT && outer->nfields && outer->fields[1]->kind == t->kind)
      return ty_refine_container(in, n, var, ty_dict(outer->fields[0], t));
  }
  if (recv->kind != N_VAR)
    return ty_error(in, n, "cannot infer the item type of this empty %s: assign it to a variable first, or "
                    "make it with typed.%s", recv->ty->kind == TY_LIST ? "list" : "dict",
                    recv->ty->kind == TY_LIST ? "List.empty_list(type)" : "Dict.empty(key_type, value_type)") != NULL;
  ty_assign_var(in, recv, t);
  return !ty_failed(in);
}

/* Whether items of type t have an order sort() follows: numbers, strs,
 * and tuples of numbers (lexicographic, as Python's). */
bool ty_item_ordered(const Type *t) {
  if (t->kind == TY_STR || (ty_is_scalar(t) && !ty_is_complex(t))) return true;
  if (t->kind != TY_TUPLE || !t->nfields) return false;
  for (int i = 0; i < t->nfields; i++)
    if (!ty_is_scalar(t->fields[i]) || ty_is_complex(t->fields[i])) return false;
  return true;
}

static bool item_sortable(const Type *t);

/* Items min() and max() order: ty_item_ordered's, tuples of numbers, strs
 * and such tuples, and lists sort() orders, compared item by item
 * (lo_compare_values). */
bool ty_minmax_ordered(const Type *t) {
  if (ty_item_ordered(t) || (t->kind == TY_LIST && item_sortable(t))) return true;
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++)
    if (t->fields[i]->kind != TY_STR && !ty_minmax_ordered(t->fields[i])) return false;
  return t->kind == TY_TUPLE && t->nfields;
}

/* The item type of a list, or an error where it cannot be known. */
const Type *ty_list_item(Infer *in, Node *n, const Type *t) {
  if (t->elem) return t->elem;
  if (in->final)
    ty_error(in, n, "cannot infer the item type of an empty list: append to it first, or make it with "
             "typed.List.empty_list(type)");
  return NULL;
}

/* ---------------------------------------------------------------- the data model */

/* incref/decref of a container: its count is its first field, as an
 * RtMemInfo's; the last release calls the container's own free. */
void lo_container_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc) {
  LLVMValueRef f = lo_refcount_fn(l, inc, t->kind == TY_LIST ? "rt_list_free" : "rt_dict_free");
  LLVMBuildCall2(l->b, LLVMGlobalGetValueType(f), f, &v, 1, "");
}

/* v with each str in it owned by the container it goes into (a str
 * constant copied, as the code holding it may go before the container). */
LLVMValueRef lo_keep_strs(Lower *l, const Type *t, LLVMValueRef v) {
  if (t->kind == TY_STR) return lo_str_keep(l, v);
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++) {
    if (!ty_has_arrays(t->fields[i])) continue;
    LLVMValueRef f = lo_keep_strs(l, t->fields[i], LLVMBuildExtractValue(l->b, v, (unsigned)i, ""));
    v = LLVMBuildInsertValue(l->b, v, f, (unsigned)i, "");
  }
  return v;
}

/* An item's (or a dict value's) value to store: owned where it holds references. */
LLVMValueRef lo_item_value(Lower *l, Node *n, const Type *elem) {
  if (!ty_has_arrays(elem)) return lo_expr_as(l, n, elem);
  LLVMValueRef v = lo_owned(l, n);
  /* None or an array into a list of Optional arrays, an Optional into a dict of its values (None: TypeError):
   * owned all the same */
  if (n->ty != elem && (n->ty->kind == TY_NONE || n->ty->kind == TY_OPTIONAL || elem->kind == TY_OPTIONAL))
    v = lo_convert(l, v, n->ty, elem);
  return lo_keep_strs(l, elem, v);
}

/* Tells a new container (or one just settled) where its items of type
 * elem hold references, when they are tuples (rt_list_hold, rt_dict_hold). */
void lo_hold_items(Lower *l, const Type *elem, LLVMValueRef c, const char *fn) {
  int32_t kinds[RT_HELD_FIELDS];
  int64_t offsets[RT_HELD_FIELDS];
  int n = elem && (elem->kind == TY_TUPLE || elem->kind == TY_OPTIONAL) ? rt_held_fields(elem, 0, 0, RT_HELD_FIELDS, kinds, offsets) : 0;
  if (n <= 0) return;
  LLVMValueRef k = lo_alloca(l, LLVMArrayType2(l->mod->i32, (uint64_t)n), "held.kinds");
  LLVMValueRef o = lo_alloca(l, LLVMArrayType2(l->mod->i64, (uint64_t)n), "held.offsets");
  for (int i = 0; i < n; i++) {
    LLVMValueRef at = const_i64(l, i);
    LLVMBuildStore(l->b, const_i32(l, kinds[i]), LLVMBuildGEP2(l->b, l->mod->i32, k, &at, 1, ""));
    LLVMBuildStore(l->b, const_i64(l, offsets[i]), LLVMBuildGEP2(l->b, l->mod->i64, o, &at, 1, ""));
  }
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->ptr};
  lo_call_fn(l, fn, void_type(l), p, (LLVMValueRef[]){c, const_i32(l, n), k, o}, 4);
}

/* ---------------------------------------------------------------- the list's memory */

enum { L_LEN = 1, L_CAP = 2, L_DATA = 3, L_TYPED = 6 };  /* RtList's fields */

static LLVMTypeRef list_struct(Lower *l) {
  LLVMTypeRef f[7] = {l->mod->i64, l->mod->i64, l->mod->i64, l->mod->ptr, l->mod->i64, l->mod->i32, l->mod->i32};
  return LLVMStructTypeInContext(l->mod->c, f, 7, 0);
}

static LLVMValueRef list_field(Lower *l, LLVMValueRef lst, unsigned f) {
  return LLVMBuildStructGEP2(l->b, list_struct(l), lst, f, "");
}

/* Type-based alias tags: an RtList's fields and its items never share
 * memory (the items are a buffer of their own), so that a loop of appends
 * keeps len, cap and data in registers across the stores of the items
 * (an access without a tag may still alias either). */
static LLVMValueRef tagged(Lower *l, LLVMValueRef access, const char *what) {
  LLVMContextRef c = l->mod->c;
  LLVMMetadataRef name = LLVMMDStringInContext2(c, "ruchey lists", 12), zero = LLVMValueAsMetadata(const_i64(l, 0));
  LLVMMetadataRef type[3] = {LLVMMDStringInContext2(c, what, strlen(what)), LLVMMDNodeInContext2(c, &name, 1), zero};
  LLVMMetadataRef t = LLVMMDNodeInContext2(c, type, 3);
  LLVMMetadataRef tag[3] = {t, t, zero};
  LLVMSetMetadata(access, LLVMGetMDKindIDInContext(c, "tbaa", 4), LLVMMetadataAsValue(c, LLVMMDNodeInContext2(c, tag, 3)));
  return access;
}

static LLVMValueRef header_load(Lower *l, LLVMTypeRef t, LLVMValueRef lst, unsigned f, const char *name) {
  return tagged(l, LLVMBuildLoad2(l->b, t, list_field(l, lst, f), name), "list fields");
}

LLVMValueRef lo_list_len(Lower *l, LLVMValueRef lst) { return header_load(l, l->mod->i64, lst, L_LEN, "len"); }

LLVMValueRef lo_list_made_typed(Lower *l, LLVMValueRef lst) {
  return LLVMBuildICmp(l->b, LLVMIntNE, header_load(l, l->mod->i32, lst, L_TYPED, "typed"), const_i32(l, 0), "");
}

/* RtList.immutable, past the fields list_struct has. */
static LLVMValueRef immutable_field(Lower *l, LLVMValueRef lst) {
  LLVMValueRef at = const_i64(l, (int64_t)offsetof(RtList, immutable));
  return LLVMBuildGEP2(l->b, l->mod->i8, lst, &at, 1, "immutable");
}

/* An i1: whether the list was made immutable (_make_immutable()). */
static LLVMValueRef is_immutable(Lower *l, LLVMValueRef lst) {
  LLVMValueRef frozen = tagged(l, LLVMBuildLoad2(l->b, l->mod->i32, immutable_field(l, lst), ""), "list fields");
  return LLVMBuildICmp(l->b, LLVMIntNE, frozen, const_i32(l, 0), "");
}

/* Numba's ValueError for a change of a typed.List made immutable. */
static void check_mutable(Lower *l, LLVMValueRef lst) {
  lo_raise_if(l, is_immutable(l, lst), RT_ERR_VALUE, "list is immutable");
}

static void set_len(Lower *l, LLVMValueRef lst, LLVMValueRef n) {
  tagged(l, LLVMBuildStore(l->b, n, list_field(l, lst, L_LEN)), "list fields");
}

LLVMValueRef lo_list_item_addr(Lower *l, const Type *elem, LLVMValueRef lst, LLVMValueRef i) {
  LLVMValueRef data = header_load(l, l->mod->ptr, lst, L_DATA, "data");
  return LLVMBuildGEP2(l->b, lo_storage_type(l, elem), data, &i, 1, "");
}

/* Python's index: counted from the end when negative, IndexError outside. */
static LLVMValueRef checked_index(Lower *l, LLVMValueRef lst, LLVMValueRef i, const char *msg) {
  LLVMValueRef n = lo_list_len(l, lst);
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), "");
  i = LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, i, n, ""), i, "");
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntUGE, i, n, ""), RT_ERR_INDEX, msg);
  return i;
}

LLVMValueRef lo_list_new(Lower *l, const Type *elem, LLVMValueRef cap) {
  LLVMTypeRef p[3] = {l->mod->i32, l->mod->i64, l->mod->i64};
  LLVMValueRef a[3] = {const_i32(l, elem ? (int)elem->kind : -1), const_i64(l, elem ? (int64_t)elem->size : 8), cap};
  LLVMValueRef lst = lo_call_fn(l, "rt_list_new", l->mod->ptr, p, a, 3);
  lo_raise_if(l, LLVMBuildIsNull(l->b, lst, ""), RT_ERR_MEMORY, NULL);
  lo_hold_items(l, elem, lst, "rt_list_hold");
  return lst;
}

void lo_list_settle(Lower *l, const Type *elem, LLVMValueRef lst) {
  LLVMTypeRef p[3] = {l->mod->ptr, l->mod->i32, l->mod->i64};
  LLVMValueRef a[3] = {lst, const_i32(l, (int)elem->kind), const_i64(l, (int64_t)elem->size)};
  lo_call_fn(l, "rt_list_settle", void_type(l), p, a, 3);
  lo_hold_items(l, elem, lst, "rt_list_hold");
}

/* Appends v (of the list's item type), growing the buffer when full. The
 * buffer and its room are read again after growing and merged, so that in
 * a loop of appends both stay in registers (PRE across the back edge). */
void lo_list_append(Lower *l, const Type *elem, LLVMValueRef lst, LLVMValueRef v) {
  LLVMValueRef n = lo_list_len(l, lst), n1 = LLVMBuildAdd(l->b, n, const_i64(l, 1), "");
  LLVMValueRef cap = header_load(l, l->mod->i64, lst, L_CAP, "cap");
  LLVMValueRef data = header_load(l, l->mod->ptr, lst, L_DATA, "data");
  LLVMBasicBlockRef room = LLVMGetInsertBlock(l->b), grow = new_block(l, "append.grow"), store = new_block(l, "append.store");
  LLVMValueRef full = LLVMBuildICmp(l->b, LLVMIntSGE, n, cap, "");
  LLVMBuildCondBr(l->b, lo_expect(l, full, false), grow, store);
  position(l, grow);
  lo_list_settle(l, elem, lst);  /* an empty list's first item: it may have been made untyped */
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
  lo_check_call(l, lo_call_fn(l, "rt_list_reserve", l->mod->i32, p, (LLVMValueRef[]){lst, n1}, 2));
  LLVMValueRef grown_cap = header_load(l, l->mod->i64, lst, L_CAP, "cap"), grown = header_load(l, l->mod->ptr, lst, L_DATA, "data");
  LLVMBasicBlockRef grow_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, store);
  position(l, store);
  LLVMValueRef caps = LLVMBuildPhi(l->b, l->mod->i64, "cap"), datas = LLVMBuildPhi(l->b, l->mod->ptr, "data");
  LLVMAddIncoming(caps, (LLVMValueRef[]){cap, grown_cap}, (LLVMBasicBlockRef[]){room, grow_end}, 2);
  LLVMAddIncoming(datas, (LLVMValueRef[]){data, grown}, (LLVMBasicBlockRef[]){room, grow_end}, 2);
  LLVMValueRef fits = LLVMBuildICmp(l->b, LLVMIntSLT, n, caps, "");
  lo_intrinsic(l, "llvm.assume", NULL, 0, &fits, 1);  /* keeps the room read after growing */
  lo_store_scalar(l, elem, LLVMBuildGEP2(l->b, lo_storage_type(l, elem), datas, &n, 1, ""), v);
  lo_list_item_stored(l, elem);
  set_len(l, lst, n1);
}

/* A number's one store into an item, tagged: the list's fields (its length,
 * buffer and immutability) stay in registers across a loop of such stores. */
void lo_list_item_stored(Lower *l, const Type *elem) {
  LLVMValueRef last = LLVMGetLastInstruction(LLVMGetInsertBlock(l->b));
  if (ty_is_scalar(elem) && last && LLVMIsAStoreInst(last)) tagged(l, last, "list items");
}

/* ---------------------------------------------------------------- literals */

static const Type *ty_list_literal(Infer *in, Node *n, const Type **args) {
  if (ty_no_allocation(in)) return ty_error(in, n, "kernels cannot make lists");
  const Type *t = NULL;
  for (int i = 0; i < n->list.len; i++) {
    bool function = args[i]->kind == TY_FUNCTION;  /* [f, g]: of one of several functions, checked below */
    if (!function && !ty_container_item(in, n->list.items[i], args[i], "lists")) return NULL;
    if (!(t = t ? ty_unify(t, args[i]) : args[i])) return ty_literal_list(n->list.len, args);
  }
  if (t && t->kind == TY_FUNCTION) t = ty_funcs(1, &t);  /* [f]: a list of one function, its items still f's number */
  return ty_list(t);
}

static LLVMValueRef lo_list_literal(Lower *l, Node *n) {
  if (ty_is_literal_list(n->ty)) return lo_tuple(l, n);
  const Type *elem = n->ty->elem;
  LLVMValueRef lst = lo_list_new(l, elem, const_i64(l, n->list.len));
  lo_temp_made(l, n->ty, lst);  /* released if an item raises */
  for (int i = 0; i < n->list.len; i++) lo_list_append(l, elem, lst, lo_item_value(l, n->list.items[i], elem));
  lo_temp_taken(l, lst);
  return lst;
}

/* ---------------------------------------------------------------- indexing */

static const Type *ty_list_slice(Infer *in, Node *n, const Type *base);

const Type *ty_list_index(Infer *in, Node *n, const Type *base) {
  if (!n->str && n->rhs->kind == N_SLICE) return ty_list_slice(in, n, base);
  const Type *elem = ty_list_item(in, n, base);
  const Type *i = ty_expr(in, n->rhs);
  if (!elem) return NULL;
  if (n->str) return strcmp(n->str, "iteration") ? ty_error(in, n, "lists have no keys(), values() or items()") : elem;
  if (i && !ty_is_int(i) && i->kind != TY_BOOL)
    return ty_error(in, n->rhs, i->kind == TY_TUPLE ? "lists are indexed with an integer or a slice"
                                                    : "list indices must be integers, not %s", i->name);
  return i ? elem : NULL;
}

/* A slice's start, stop or step: an integer, None, or left out. */
static bool slice_part(Infer *in, Node *x) {
  if (!x || x->kind == N_NONE) return true;
  const Type *t = ty_expr(in, x);
  if (t && !ty_is_int(t) && t->kind != TY_BOOL)
    return ty_error(in, x, "slice indices must be integers or None, not %s", t->name) != NULL;
  return t != NULL;
}

static const Type *ty_list_slice(Infer *in, Node *n, const Type *base) {
  Node *s = n->rhs;
  if (!slice_part(in, s->lhs) || !slice_part(in, s->rhs) || !slice_part(in, s->cond)) return NULL;
  return base;
}

/* x[a:b:c] as a store's target (x = y's items there; a for loop's walk is no slice) */
static bool is_slice_store(const Node *target) { return !target->str && target->rhs->kind == N_SLICE; }

const Type *ty_function_item(Infer *in, Node *v, const Type *t, const Type *fp) {
  if (!fp || fp->kind != TY_FUNCPTR || !t || v->ty != t || (t->kind != TY_FUNCTION && t->kind != TY_FUNCS)) return t;
  Node *entry = arena_alloc(in->f->arena, sizeof(Node));  /* (what the entry reads: v's node, which it replaces) */
  *entry = *v;
  if (!(t->kind == TY_FUNCTION ? ty_function_entry_for(in, &entry, fp) : ty_funcs_entry_for(in, &entry, fp))) return NULL;
  *v = *entry;
  return fp;
}

void ty_list_store(Infer *in, Node *target, const Type *t, Node *at) {
  const Type *elem = ty_maybe_none(in, target);  /* (an Optional item stays one: the store is no read of it) */
  if (elem && !(t = ty_function_item(in, at, t, elem))) return;  /* (a function as an entry of a FunctionType) */
  if (elem && is_slice_store(target)) {
    if (!elem->elem && t->kind == TY_LIST && t->elem) {  /* x = [] then x[:0] = y: y's items type x */
      ty_refine_container(in, at, target->lhs, t);
      return;
    }
    if (t->kind != TY_LIST || (t->elem && t->elem != elem->elem))
      ty_error(in, at, "only a list of %s can be assigned to a slice of %s in compiled code, got %s",
               elem->elem ? elem->elem->name : "items", elem->name, t->name);
    return;
  }
  if (elem && !ty_container_fits(elem, t) && !ty_container_casts(elem, t))  /* l[i] = 10 of a list of int32: cast */
    ty_error(in, at, "cannot store %s into an item of %s", t->name, target->lhs->ty->name);
}

/* The address of lst[i], checked; for loops reading their sequence the
 * counter is in range already. */
static LLVMValueRef list_index_addr(Lower *l, Node *n, LLVMValueRef lst, const char *msg) {
  LLVMValueRef i = lo_expr_as(l, n->rhs, TYS(TY_I64));
  if (!n->str) i = checked_index(l, lst, i, msg);
  return lo_list_item_addr(l, n->ty, lst, i);
}

/* start, stop and step as rt_list_slice takes them (parts left out or None: 0, and not given). */
static void slice_args(Lower *l, Node *const parts[3], LLVMValueRef out[4]) {
  int given = 0;
  for (int k = 0; k < 3; k++) {
    bool none = !parts[k] || parts[k]->kind == N_NONE;
    out[k] = none ? const_i64(l, k == 2) : lo_expr_as(l, parts[k], TYS(TY_I64));
    if (!none && k < 2) given |= 1 << k;
  }
  out[3] = const_i32(l, given);
}

static LLVMValueRef slice_call(Lower *l, const char *fn, LLVMTypeRef ret, LLVMValueRef lst, Node *const parts[3]) {
  LLVMValueRef a[5] = {lst};
  slice_args(l, parts, a + 1);
  LLVMTypeRef p[5] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64, l->mod->i32};
  return lo_call_fn(l, fn, ret, p, a, 5);
}

/* x[a:b:c]: a new list */
LLVMValueRef lo_list_slice(Lower *l, Node *n) {
  LLVMValueRef lst = lo_expr(l, n->lhs);
  Node *parts[3] = {n->rhs->lhs, n->rhs->rhs, n->rhs->cond};
  LLVMValueRef c = slice_call(l, "rt_list_slice", l->mod->ptr, lst, parts);
  LLVMBasicBlockRef fail = new_block(l, "slice.fail"), ok = new_block(l, "slice.ok");
  LLVMBuildCondBr(l->b, LLVMBuildIsNull(l->b, c, ""), fail, ok);
  position(l, fail);
  lo_raise_recorded(l, RT_ERR_VALUE);
  position(l, ok);
  lo_done_with(l, n->lhs, lst);
  return c;
}

/* x[a:b:c] = v (v owned, released after its items are copied) */
void lo_list_slice_store(Lower *l, Node *target, const Type *t, LLVMValueRef v) {
  LLVMValueRef lst = lo_expr(l, target->lhs), a[6] = {lst};
  check_mutable(l, lst);
  Node *parts[3] = {target->rhs->lhs, target->rhs->rhs, target->rhs->cond};
  slice_args(l, parts, a + 1);
  a[5] = v;
  LLVMTypeRef p[6] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64, l->mod->i32, l->mod->ptr};
  lo_temp_made(l, t, v);
  lo_check_call(l, lo_call_fn(l, "rt_list_assign_slice", l->mod->i32, p, a, 6));
  lo_temp_taken(l, v);
  lo_refcount(l, t, v, false);
  lo_done_with(l, target->lhs, lst);
}

LLVMValueRef lo_list_index(Lower *l, Node *n, LLVMValueRef *base, bool store) {
  *base = lo_expr(l, n->lhs);
  if (store) check_mutable(l, *base);
  return list_index_addr(l, n, *base, store ? "list assignment index out of range" : "list index out of range");
}

/* ---------------------------------------------------------------- methods */

/* The receiver of a method, typed: its item type (NULL if not known). */
static const Type *recv_item(const Type **args) { return args[0]->elem; }

/* Whether recv is a parameter: a list its caller made, whose item type
 * this function cannot widen (its items' numbers among the caller's
 * functions). */
static bool given_list(Infer *in, const Node *recv) { return recv->kind == N_VAR && recv->var < in->f->nparams; }

/* Whether t is a number or a bool: what a list's items widen between. */
static bool plain_number(const Type *t) { return ty_is_scalar(t) && !ty_is_time(t); }

/* A number, or a plain tuple of numbers (x.append((i, 1.0))): the items a
 * list widens between, field by field for tuples, as Numba unifies them. */
static bool widenable(const Type *t) {
  if (plain_number(t)) return true;
  if (t->kind != TY_TUPLE || t->callee || !t->nfields) return false;
  for (int i = 0; i < t->nfields; i++)
    if (!plain_number(t->fields[i])) return false;
  return true;
}

typedef struct {
  int var, assigned;
} Assignments;

static int assigns(const Node *target, int var) {
  int k = target->kind == N_VAR && target->var == var;
  for (int i = 0; target->kind == N_TUPLE && i < target->list.len; i++) k += assigns(target->list.items[i], var);
  return k;
}

static bool count_assignments(Node *n, void *ctx) {
  Assignments *a = ctx;
  if ((n->kind == N_ASSIGN || n->kind == N_FOR) && n->lhs) a->assigned += assigns(n->lhs, a->var);
  return true;
}

/* The value x was made of: its one binding's, or its one assignment's at
 * the body's top level where its other bindings are x += y, which extends
 * x in place (x = [1]; x += [2.5]); NULL for others. */
static const Node *made_of(Infer *in, const Node *x) {
  if (in->only_value[x->var]) return in->only_value[x->var];
  Assignments a = {x->var, 0};
  ir_walk_list(&in->f->body, count_assignments, &a);
  for (int i = 0; a.assigned == 1 && i < in->f->body.len; i++) {
    const Node *s = in->f->body.items[i];
    if (s->kind == N_ASSIGN && s->lhs->kind == N_VAR && s->lhs->var == x->var) return s->rhs;
  }
  return NULL;
}

/* x given a number (or a tuple of numbers) wider than its items by one of
 * its methods (x = [1, 2]; x.append(2.5), or x += [2.5]), where x is a
 * variable bound once to a list written out (or [], made_of's): x is
 * retyped a list of both (float64 here), as Numba unifies a list's item
 * type over everything its methods are given (its x += y casts y's items,
 * the closer to Python's values this way); the list written out is then
 * made of the wider items (ty_widened_literal). A list made
 * elsewhere keeps its type, and the item is refused as before, as it is by
 * heapq's functions (Numba's heappush takes only the heap's item type). */
static bool widens(Infer *in, Node *n, const Type *item, const Type *vt) {
  Node *recv = n->list.items[0];
  if (n->bi->kind != BK_METHOD || recv->kind != N_VAR || given_list(in, recv) || !in->only_value ||
      !widenable(item) || !widenable(vt))
    return false;
  const Node *made = made_of(in, recv);
  const Type *u = ty_unify(item, vt);
  if (!made || !ir_calls_builtin(made, "list literal") || !u || u == item) return false;
  in->f->var_types[recv->var] = recv->ty = ty_list(u);
  in->changed = true;
  return true;
}

const Type *ty_widened_literal(Infer *in, Node *target, const Type *t, Node *at) {
  const Type *var = in->f->var_types[target->var];
  if (!var || var->kind != TY_LIST || !var->elem || t->kind != TY_LIST || !t->elem || at->ty != t ||
      !ir_calls_builtin(at, "list literal") || !widenable(var->elem) || !widenable(t->elem))
    return t;
  return ty_unify(var->elem, t->elem) == var->elem ? var : t;
}

/* x.append(v), x.insert(i, v): v's type types an empty list. */
bool ty_list_takes(Infer *in, Node *n, const Type **args, Node *v, const Type *vt) {
  if (vt->kind == TY_FUNCTION && !recv_item(args)) vt = ty_funcs(1, &vt);  /* fs = []; fs.append(f): as [f] */
  const Type *functions = recv_item(args) && recv_item(args)->kind == TY_FUNCS ? ty_funcs_unify(recv_item(args), vt) : NULL;
  if (functions && functions != recv_item(args) && given_list(in, n->list.items[0]))
    return ty_error(in, v, "cannot add %s to a list of %s given to this function: which functions its items may be "
                    "is fixed where the list is made (make it of all of them there)", vt->name, recv_item(args)->name) != NULL;
  if (functions)  /* fs.append(g) of a list of functions: one of them, g too */
    return functions == recv_item(args) || ty_refine_container(in, n, n->list.items[0], ty_list(functions));
  if (!ty_container_item(in, v, vt, "lists")) return false;
  if (!recv_item(args)) return ty_refine_container(in, n, n->list.items[0], ty_list(vt));
  const Type *u = ty_is_container(vt) && ty_is_container(recv_item(args)) ? ty_unify_containers(recv_item(args), vt) : NULL;
  if (u && u != recv_item(args)) return ty_refine_container(in, n, n->list.items[0], ty_list(u));  /* [[]] given [1] */
  if (maybe_none(recv_item(args)) || maybe_none(vt)) {  /* [None] given an array: Numba's list of Optionals */
    const Type *o = ty_unify(recv_item(args), vt);
    if (o && o != recv_item(args) && plain_item(o, "lists")) return ty_refine_container(in, n, n->list.items[0], ty_list(o));
    if (o == recv_item(args)) return true;
  }
  if (!ty_container_fits(recv_item(args), vt) && !ty_container_casts(recv_item(args), vt) &&
      !widens(in, n, recv_item(args), vt))
    return ty_error(in, v, "cannot put %s into %s", vt->name, args[0]->name) != NULL;
  return true;
}

/* An item given to append() or insert() that may be None (x if c else
 * None): the Optional itself, not its value (the call's typing checked it
 * is not None), so that it makes the items Optionals as in Numba (a tree
 * walk's `stack.append(node)` under `while node is not None`: a list of
 * Optional nodes); where lists cannot hold such Optionals (of strs), its
 * value, checked not None when appended. */
static const Type *given_item(Infer *in, Node *v, const Type *t) {
  const Type *var = v->kind == N_VAR ? in->f->var_types[v->var] : NULL;  /* a variable's read is its value's */
  if (var && var->kind == TY_OPTIONAL) return plain_item(var, "lists") ? (v->ty = var) : t;
  if (v->kind != N_UNWRAP || !v->lhs->ty || v->lhs->ty->kind != TY_OPTIONAL || !plain_item(v->lhs->ty, "lists"))
    return t;
  *v = *v->lhs;
  return v->ty;
}

static const Type *ty_append(Infer *in, Node *n, const Type **args) {
  if (!(args[1] = ty_function_item(in, n->list.items[1], args[1], recv_item(args)))) return NULL;
  const Type *t = given_item(in, n->list.items[1], args[1]);
  return ty_list_takes(in, n, args, n->list.items[1], t) ? TYS(TY_NONE) : NULL;
}

static const Type *ty_insert(Infer *in, Node *n, const Type **args) {
  if (!ty_is_int(args[1]) && args[1]->kind != TY_BOOL) return ty_error(in, n->list.items[1], "insert()'s index must be an integer");
  if (!(args[2] = ty_function_item(in, n->list.items[2], args[2], recv_item(args)))) return NULL;
  const Type *t = given_item(in, n->list.items[2], args[2]);
  return ty_list_takes(in, n, args, n->list.items[2], t) ? TYS(TY_NONE) : NULL;
}

static const Type *items_of(Infer *in, Node *n, Node *x, const Type *t, const char *what);

/* x.extend(y) of any iterable list() takes */
static const Type *ty_extend(Infer *in, Node *n, const Type **args) {
  if (args[1]->kind == TY_LIST && !args[1]->elem) return TYS(TY_NONE);
  const Type *from = items_of(in, n->list.items[1], n->list.items[1], args[1], "extend()");
  return from && ty_list_takes(in, n, args, n->list.items[1], from) ? TYS(TY_NONE) : NULL;
}

/* Methods that read items need their type. */
static const Type *ty_pop(Infer *in, Node *n, const Type **args) {
  if (n->list.len > 1 && !ty_is_int(args[1]) && args[1]->kind != TY_BOOL)
    return ty_error(in, n->list.items[1], "pop()'s index must be an integer");
  return ty_list_item(in, n, args[0]);
}

static bool comparable_items(const Type *a, const Type *b, bool equality);

/* What list.index, count and `in` look for: a number, a str in a list of
 * str, a tuple (of numbers, strs and such tuples) in a list of tuples whose
 * items == compares with its own, a list in a list of lists of such items. */
static bool searchable(Infer *in, Node *v, const Type *vt, const Type *list, const char *what) {
  if (vt->kind == TY_LIST && (!list->elem || (list->elem->kind == TY_LIST && comparable_items(list->elem, vt, true))))
    return true;
  if (vt->kind == TY_STR && (!list->elem || list->elem->kind == TY_STR)) return true;
  if (vt->kind == TY_BYTES && (!list->elem || list->elem->kind == TY_BYTES)) return true;
  if (ty_is_enum(vt) && list->elem == vt) return true;  /* a member among its class's */
  if (vt->kind == TY_TUPLE && ty_items_equatable(vt, vt) &&
      (!list->elem || (list->elem->kind == TY_TUPLE && ty_items_equatable(list->elem, vt))))
    return true;
  return ty_need_scalar(in, v, vt, what) != NULL;
}

/* The kind and offset (from at) of each field t's order compares, after
 * the n in parts already: t itself, or a tuple's fields in turn, a tuple
 * field's own fields in its place (tuples of one type compare as their
 * fields flattened); their number, or -1 past MAX_ORDER_FIELDS. */
#define MAX_ORDER_FIELDS 64
static int order_fields(const Type *t, int64_t at, int n, int64_t parts[][2]) {
  if (t->kind != TY_TUPLE) {
    if (n == MAX_ORDER_FIELDS) return -1;
    parts[n][0] = (int64_t)t->kind, parts[n][1] = at;
    return n + 1;
  }
  for (int i = 0; i < t->nfields && n >= 0; i++) n = order_fields(t->fields[i], at + (int64_t)t->offsets[i], n, parts);
  return n;
}

/* Whether the sort's and the heap's runtime (rt_list_sort_fields,
 * containers.c's Order) orders items of t: numbers, strs, or tuples of
 * them and of such tuples, compared field by field by kind. */
bool ty_sort_ordered(const Type *t) {
  if (t->kind != TY_TUPLE) return ty_item_ordered(t);
  for (int i = 0; i < t->nfields; i++)
    if (t->fields[i]->kind != TY_STR && !(t->fields[i]->kind == TY_TUPLE && ty_sort_ordered(t->fields[i])) &&
        (!ty_is_scalar(t->fields[i]) || ty_is_complex(t->fields[i])))
      return false;
  int64_t parts[MAX_ORDER_FIELDS][2];
  return t->nfields > 0 && order_fields(t, 0, 0, parts) > 0;
}

/* Items sort() and sorted() order: ty_sort_ordered's, bytes (a bytes
 * array's items, sorted(a)), and lists of numbers, strs or such lists,
 * compared as Python's, item by item (quimb sorts its lists of groups so). */
static bool item_sortable(const Type *t) {
  if (t->kind == TY_LIST) return t->elem && t->elem->kind != TY_TUPLE && item_sortable(t->elem);
  if (t->kind == TY_BYTES) return true;
  return ty_sort_ordered(t);
}

static const Type *not_sortable(Infer *in, Node *n, const Type *elem) {
  return ty_error(in, n, "sorting a list of %s is not supported%s", elem->name,
                  ty_is_complex(elem) ? ": complex numbers have no order ('<' is not supported between them); "
                                        "sort by a key function (key=lambda z: abs(z))" : "");
}

/* Items that == compares (index, count, remove, in): the ordered ones,
 * complex numbers, tuples of numbers, strs and such tuples, and lists of
 * items that compare. */
static bool item_equatable(const Type *t) {
  return ty_item_ordered(t) || ty_is_complex(t) || ty_is_enum(t) || t->kind == TY_BYTES ||
         (t->kind == TY_TUPLE && ty_items_equatable(t, t)) || (t->kind == TY_LIST && comparable_items(t, t, true));
}

/* What a search of a list's items gives (the ival of its rows). */
enum { FIND_IN, FIND_INDEX, FIND_COUNT, FIND_REMOVE };

static const Type *ty_find(Infer *in, Node *n, const Type **args) {
  if (!searchable(in, n->list.items[1], args[1], args[0], n->bi->name)) return NULL;
  if (args[0]->elem && !item_equatable(args[0]->elem))
    return ty_error(in, n, "%s() of a list of %s is not supported", n->bi->name, args[0]->elem->name);
  for (int i = 2; i < n->list.len; i++)  /* index(v, start, stop) */
    if (!ty_is_int(args[i]) && args[i]->kind != TY_BOOL)
      return ty_error(in, n->list.items[i], "index()'s %s must be an integer, got %s", i == 2 ? "start" : "stop",
                      args[i]->name);
  const Type *r = n->bi->ival == FIND_REMOVE ? TYS(TY_NONE) : TYS(n->bi->ival != FIND_IN ? TY_I64 : TY_BOOL);
  return args[0]->elem || in->final ? r : NULL;
}

/* sort(key=f), sorted(x, key=f): f typed for an item (the call's target
 * kept on the key's node); the numbers or tuple of numbers it returns are
 * what the items are ordered by. */
bool ty_sort_key(Infer *in, Node *key, const Type *elem) {
  const Type *f = ty_expr(in, key);
  if (!f) return false;
  if (f->kind != TY_FUNCTION)
    return ty_error(in, key, "key= takes a compiled function or a lambda here, got %s", f->name) != NULL;
  if (!in->opts || !in->opts->resolve) return ty_error(in, key, "key functions are not available here") != NULL;
  /* the item, then the variables a lambda reads (frontend's fe_closure_key) */
  const Type **args = arena_alloc(in->f->arena, sizeof(Type *) * (size_t)(1 + key->list.len));
  args[0] = elem;
  for (int i = 0; i < key->list.len; i++)
    if (!(args[1 + i] = ty_expr(in, key->list.items[i]))) return false;
  CallTarget *target = arena_alloc(in->f->arena, sizeof(CallTarget));
  Diag inner = {0};
  if (!in->opts->resolve(in->opts->resolve_ctx, (void *)f->callee, args, NULL, 1 + key->list.len, false, target, &inner))
    return ty_error(in, key, "in the key function:\n%s", inner.msg[0] ? inner.msg : "it cannot be compiled") != NULL;
  const Type *k = target->ret_type;
  if (!k || !ty_sort_ordered(k) || (k->kind == TY_TUPLE && k->nfields > 15))
    return ty_error(in, key, "a key function returns a number, a str or a tuple of them here, not %s",
                    k ? k->name : "a recursive result") != NULL;
  key->target = target;
  return true;
}

/* sort's and sorted's keywords: reverse= a truth value, key= a function of an item. */
static bool ty_sort_keywords(Infer *in, Node *n, const Type *elem, const char *what) {
  Node *rev = ty_kwarg(n, "reverse"), *key = ty_kwarg(n, "key");
  if (rev && !ty_need_scalar(in, n, ty_expr(in, rev), what)) return false;
  return !key || !elem || ty_sort_key(in, key, elem);
}

static const Type *ty_none_method(Infer *in, Node *n, const Type **args) {
  bool sort = !strcmp(n->bi->path, "sort");
  if (sort && args[0]->elem && !item_sortable(args[0]->elem) && !ty_kwarg(n, "key"))
    return not_sortable(in, n, args[0]->elem);
  if (sort && !ty_sort_keywords(in, n, args[0]->elem, "sort(reverse=)")) return NULL;
  return TYS(TY_NONE);
}

static const Type *ty_copy(Infer *in, Node *n, const Type **args) { return args[0]; }

static LLVMValueRef receiver(Lower *l, Node *n) { return lo_expr(l, n->list.items[0]); }

/* The list a method changes, checked to be mutable. */
static LLVMValueRef changed_receiver(Lower *l, Node *n) {
  LLVMValueRef lst = receiver(l, n);
  check_mutable(l, lst);
  return lst;
}

/* (an immutable list has no room: its append refuses while growing, rt_list_reserve) */
static LLVMValueRef lo_append(Lower *l, Node *n) {
  const Type *elem = n->list.items[0]->ty->elem;
  LLVMValueRef lst = receiver(l, n);
  lo_list_append(l, elem, lst, lo_item_value(l, n->list.items[1], elem));
  lo_done_with(l, n->list.items[0], lst);
  return LLVMGetUndef(l->mod->i8);
}

/* x.insert(i, v): i clamped to [0, len] after counting from the end, as Python. */
static LLVMValueRef lo_insert(Lower *l, Node *n) {
  const Type *elem = n->list.items[0]->ty->elem;
  LLVMValueRef lst = changed_receiver(l, n);
  LLVMValueRef i = lo_expr_as(l, n->list.items[1], TYS(TY_I64)), v = lo_item_value(l, n->list.items[2], elem);
  LLVMValueRef len = lo_list_len(l, lst), zero = const_i64(l, 0);
  LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, i, zero, "");
  i = LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, i, len, ""), i, "");
  i = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, i, zero, ""), zero, i, "");
  i = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, i, len, ""), len, i, "");
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
  lo_list_settle(l, elem, lst);
  lo_check_call(l, lo_call_fn(l, "rt_list_open", l->mod->i32, p, (LLVMValueRef[]){lst, i}, 2));
  lo_store_scalar(l, elem, lo_list_item_addr(l, elem, lst, i), v);
  lo_done_with(l, n->list.items[0], lst);
  return LLVMGetUndef(l->mod->i8);
}

static const Type *item_type(const Type *t);
static LLVMValueRef items_list(Lower *l, Node *x, const Type *elem);

/* x.extend(y): a list's items read by index, so that x.extend(x) doubles
 * x; another iterable's gathered into a list of their own first (as
 * list(y)). */
/* The items of the list src (of items from) appended to lst, each made an elem. */
static void append_items(Lower *l, const Type *elem, LLVMValueRef lst, const Type *from, LLVMValueRef src) {
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), lo_list_len(l, src), NULL, "extend");
  LLVMValueRef v = lo_load_scalar(l, from, lo_list_item_addr(l, from, src, loop.index));
  if (ty_has_arrays(elem)) lo_refcount(l, elem, v, true);  /* both lists hold it */
  lo_list_append(l, elem, lst, lo_convert(l, v, from, elem));
  lo_loop_end(l, &loop);
}

static LLVMValueRef lo_extend(Lower *l, Node *n) {
  Node *y = n->list.items[1];
  const Type *elem = n->list.items[0]->ty->elem, *from = item_type(y->ty);
  LLVMValueRef lst = changed_receiver(l, n), src = y->ty->kind == TY_LIST ? lo_expr(l, y) : items_list(l, y, from);
  if (y->ty->kind != TY_LIST) lo_temp_made(l, ty_list(from), src);
  if (from) append_items(l, elem, lst, from, src);
  if (y->ty->kind == TY_LIST) lo_done_with(l, y, src);
  else lo_release_temp(l, ty_list(from), src);
  lo_done_with(l, n->list.items[0], lst);
  return LLVMGetUndef(l->mod->i8);
}

/* x.pop(), x.pop(i), del x[i] (ival 1: the statement's message). */
static LLVMValueRef lo_pop(Lower *l, Node *n) {
  const Type *elem = n->list.items[0]->ty->elem;
  LLVMValueRef lst = changed_receiver(l, n);
  LLVMValueRef len = lo_list_len(l, lst), i;
  if (n->list.len > 1) {
    i = lo_expr_as(l, n->list.items[1], TYS(TY_I64));
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, len, const_i64(l, 0), ""), RT_ERR_INDEX,
                n->bi->ival ? "list assignment index out of range" : "pop from empty list");
    i = checked_index(l, lst, i, n->bi->ival ? "list assignment index out of range" : "pop index out of range");
  } else {
    lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, len, const_i64(l, 0), ""), RT_ERR_INDEX, "pop from empty list");
    i = LLVMBuildSub(l->b, len, const_i64(l, 1), "");
  }
  LLVMValueRef v = lo_load_scalar(l, elem, lo_list_item_addr(l, elem, lst, i));
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
  lo_call_fn(l, "rt_list_close", void_type(l), p, (LLVMValueRef[]){lst, i}, 2);
  lo_done_with(l, n->list.items[0], lst);
  return v;
}

static const Type *ty_delslice(Infer *in, Node *n, const Type **args) {
  for (int k = 1; k < 4; k++)
    if (args[k]->kind != TY_NONE && !ty_is_int(args[k]) && args[k]->kind != TY_BOOL)
      return ty_error(in, n->list.items[k], "slice indices must be integers or None, not %s", args[k]->name);
  return TYS(TY_NONE);
}

static LLVMValueRef lo_delslice(Lower *l, Node *n) {
  LLVMValueRef lst = changed_receiver(l, n);
  Node *parts[3] = {n->list.items[1], n->list.items[2], n->list.items[3]};
  lo_check_call(l, slice_call(l, "rt_list_delete_slice", l->mod->i32, lst, parts));
  lo_done_with(l, n->list.items[0], lst);
  return LLVMGetUndef(l->mod->i8);
}

/* index()'s start or stop k of a list of len items, as a slice's bound:
 * from the end where negative, within [0, len]. */
static LLVMValueRef search_bound(Lower *l, Node *k, LLVMValueRef len) {
  LLVMValueRef v = lo_expr_as(l, k, TYS(TY_I64)), zero = const_i64(l, 0);
  LLVMValueRef from_end = LLVMBuildAdd(l->b, v, len, "");
  from_end = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, from_end, zero, ""), zero, from_end, "");
  LLVMValueRef ahead = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, v, len, ""), len, v, "");
  return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, v, zero, ""), from_end, ahead, "");
}

/* The first k >= 0 with lst[k] == v (k in [start, stop) where index, an
 * index() call or NULL, gives them), or -1; count: how many. */
static LLVMValueRef list_search(Lower *l, Node *index, const Type *elem, LLVMValueRef lst, LLVMValueRef v, const Type *vt,
                                bool count) {
  LLVMValueRef found = lo_alloca(l, l->mod->i64, "found"), len = lo_list_len(l, lst);
  LLVMBuildStore(l->b, const_i64(l, count ? 0 : -1), found);
  LLVMValueRef start = index && index->list.len > 2 ? search_bound(l, index->list.items[2], len) : const_i64(l, 0);
  LLVMValueRef stop = index && index->list.len > 3 ? search_bound(l, index->list.items[3], len) : len;
  LoLoop loop = lo_loop_begin(l, start, stop, NULL, "search");
  LLVMValueRef item = lo_load_scalar(l, elem, lo_list_item_addr(l, elem, lst, loop.index));
  LLVMValueRef eq = lo_compare_values(l, OP_EQ, item, elem, v, vt);
  if (count) {
    LLVMValueRef c = LLVMBuildLoad2(l->b, l->mod->i64, found, "");
    LLVMBuildStore(l->b, LLVMBuildAdd(l->b, c, LLVMBuildZExt(l->b, eq, l->mod->i64, ""), ""), found);
  } else {
    LLVMBasicBlockRef hit = new_block(l, "search.hit"), miss = new_block(l, "search.miss");
    LLVMBuildCondBr(l->b, eq, hit, miss);
    position(l, hit);
    LLVMBuildStore(l->b, loop.index, found);
    LLVMBuildBr(l->b, loop.exit);
    position(l, miss);
  }
  lo_loop_end(l, &loop);
  return LLVMBuildLoad2(l->b, l->mod->i64, found, "");
}

/* x.index(v), x.count(v), x.remove(v), v in x (FIND_*) */
static LLVMValueRef lo_find(Lower *l, Node *n) {
  Node *x = n->list.items[0], *v = n->list.items[1];
  const Type *elem = x->ty->elem;
  LLVMValueRef lst = n->bi->ival == FIND_REMOVE ? changed_receiver(l, n) : receiver(l, n), val = lo_expr(l, v);
  LLVMValueRef r = elem ? list_search(l, n, elem, lst, val, v->ty, n->bi->ival == FIND_COUNT) : const_i64(l, n->bi->ival == FIND_COUNT ? 0 : -1);
  LLVMValueRef missing = LLVMBuildICmp(l->b, LLVMIntSLT, r, const_i64(l, 0), "");
  if (n->bi->ival == FIND_REMOVE) {  /* del x[r:r + 1]: the item's references let go with it */
    lo_raise_if(l, missing, RT_ERR_VALUE, "list.remove(x): x not in list");
    LLVMTypeRef p[5] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64, l->mod->i32};
    LLVMValueRef a[5] = {lst, r, LLVMBuildAdd(l->b, r, const_i64(l, 1), ""), const_i64(l, 1), const_i32(l, 3)};
    lo_call_fn(l, "rt_list_delete_slice", l->mod->i32, p, a, 5);
  }
  lo_done_with(l, x, lst);
  lo_done_with(l, v, val);
  if (n->bi->ival == FIND_COUNT) return r;
  if (n->bi->ival == FIND_REMOVE) return LLVMGetUndef(l->mod->i8);
  if (n->bi->ival == FIND_IN) return LLVMBuildNot(l->b, missing, "");
  if (ty_is_int(v->ty)) {
    LLVMValueRef arg = lo_convert(l, val, v->ty, TYS(TY_I64));
    lo_raise_format_if(l, missing, RT_ERR_VALUE, "%lld is not in list", &arg, 1);
  } else {
    lo_raise_if(l, missing, RT_ERR_VALUE, "list.index(x): x not in list");
  }
  return r;
}

static LLVMValueRef lo_clear(Lower *l, Node *n) {
  LLVMValueRef lst = changed_receiver(l, n);
  lo_call_fn(l, "rt_list_clear", void_type(l), &l->mod->ptr, &lst, 1);  /* (a typed.List gives its room back) */
  lo_done_with(l, n->list.items[0], lst);
  return LLVMGetUndef(l->mod->i8);
}

/* How items of elem are ordered, as rt_list_sort_fields takes it: a
 * tuple's fields compared in turn, their kinds and offsets (*nfields of them). */
LLVMValueRef lo_item_order(Lower *l, const Type *elem, int *nfields) {
  int64_t parts[MAX_ORDER_FIELDS][2];
  int n = *nfields = order_fields(elem, 0, 0, parts);
  LLVMValueRef layout = lo_alloca(l, LLVMArrayType2(l->mod->i64, (uint64_t)(2 * n)), "order");
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 2; k++) {
      LLVMValueRef at = const_i64(l, 2 * i + k);
      LLVMBuildStore(l->b, const_i64(l, parts[i][k]), LLVMBuildGEP2(l->b, l->mod->i64, layout, &at, 1, ""));
    }
  return layout;
}

/* Sorts lst, of items elem (rev: reversed). */
void lo_list_sort(Lower *l, const Type *elem, LLVMValueRef lst, LLVMValueRef rev) {
  int n;
  LLVMValueRef layout = lo_item_order(l, elem, &n);
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i32, l->mod->i32, l->mod->ptr};
  LLVMValueRef a[4] = {lst, LLVMBuildZExt(l->b, rev, l->mod->i32, ""), const_i32(l, n), layout};
  lo_check_call(l, lo_call_fn(l, "rt_list_sort_fields", l->mod->i32, p, a, 4));
}

/* sort(key=f): each item's key computed once (f called on it), the keys
 * sorted as tuples with each item's index last (equal keys keep their
 * order; the index negated when reversed, so that they still do), and the
 * items put in that order. */
static void sort_by_key(Lower *l, Node *key, const Type *elem, LLVMValueRef lst, LLVMValueRef rev) {
  const CallTarget *f = key->target;
  const Type *k = f->ret_type, *fields[16];
  int nf = 0;
  for (int i = 0; i < (k->kind == TY_TUPLE ? k->nfields : 1); i++) fields[nf++] = k->kind == TY_TUPLE ? k->fields[i] : k;
  fields[nf++] = TYS(TY_I64);
  const Type *kt = ty_tuple(nf, fields), *keys = ty_list(kt);
  LLVMValueRef len = lo_list_len(l, lst), keyed = lo_list_new(l, kt, len);
  lo_temp_made(l, keys, keyed);  /* released if f raises */
  LLVMValueRef *args = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(1 + key->list.len));
  for (int i = 0; i < key->list.len; i++) args[1 + i] = lo_expr(l, key->list.items[i]);  /* read once */
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), len, NULL, "sort.key");
  args[0] = lo_load_scalar(l, elem, lo_list_item_addr(l, elem, lst, loop.index));  /* borrowed by f */
  LLVMValueRef kv = lo_call_target(l, f, args, 1 + key->list.len), t = LLVMGetUndef(lo_type(l, kt));
  for (int i = 0; i + 1 < nf; i++)
    t = LLVMBuildInsertValue(l->b, t, k->kind == TY_TUPLE ? LLVMBuildExtractValue(l->b, kv, (unsigned)i, "") : kv, (unsigned)i, "");
  LLVMValueRef at = LLVMBuildSelect(l->b, rev, LLVMBuildNeg(l->b, loop.index, ""), loop.index, "");
  lo_store_scalar(l, kt, lo_list_item_addr(l, kt, keyed, loop.index), LLVMBuildInsertValue(l->b, t, at, (unsigned)(nf - 1), ""));
  lo_loop_end(l, &loop);
  set_len(l, keyed, len);
  lo_list_sort(l, kt, keyed, rev);
  LLVMTypeRef p[3] = {l->mod->ptr, l->mod->ptr, l->mod->i64};
  LLVMValueRef a[3] = {lst, keyed, const_i64(l, (int64_t)kt->offsets[nf - 1])};
  lo_check_call(l, lo_call_fn(l, "rt_list_take_order", l->mod->i32, p, a, 3));
  lo_release_temp(l, keys, keyed);
  for (int i = 0; i < key->list.len; i++) lo_done_with(l, key->list.items[i], args[1 + i]);
}

/* sort() and sorted(): by the items, or by key=. */
static void sort_list(Lower *l, Node *n, const Type *elem, LLVMValueRef lst) {
  Node *reverse = ty_kwarg(n, "reverse"), *key = ty_kwarg(n, "key");
  LLVMValueRef rev = reverse ? lo_truth(l, lo_expr(l, reverse), reverse->ty) : const_bool(l, false);
  if (key) sort_by_key(l, key, elem, lst, rev);
  else lo_list_sort(l, elem, lst, rev);
}

/* reverse(), sort(reverse=False) (ival 0 and 1) */
static LLVMValueRef lo_reorder(Lower *l, Node *n) {
  LLVMValueRef lst = changed_receiver(l, n);
  if (!n->bi->ival) lo_call_fn(l, "rt_list_reverse", void_type(l), &l->mod->ptr, &lst, 1);
  else if (n->list.items[0]->ty->elem) sort_list(l, n, n->list.items[0]->ty->elem, lst);
  lo_done_with(l, n->list.items[0], lst);
  return LLVMGetUndef(l->mod->i8);
}

/* A new list of list x's items (a shallow copy); made by typed.List where
 * x was (same_origin), as Numba's typed.List.copy() is a typed.List while
 * list(x) and sorted(x) are reflected lists. */
static LLVMValueRef copy_list(Lower *l, Node *x, bool same_origin) {
  LLVMValueRef lst = lo_expr(l, x);
  LLVMValueRef c = lo_call_fn(l, "rt_list_copy", l->mod->ptr, &l->mod->ptr, &lst, 1);
  lo_raise_if(l, LLVMBuildIsNull(l->b, c, ""), RT_ERR_MEMORY, NULL);
  if (same_origin) {
    LLVMValueRef typed = tagged(l, LLVMBuildLoad2(l->b, l->mod->i32, list_field(l, lst, L_TYPED), ""), "list fields");
    tagged(l, LLVMBuildStore(l->b, typed, list_field(l, c, L_TYPED)), "list fields");
  }
  lo_done_with(l, x, lst);
  return c;
}

LLVMValueRef lo_list_copy_of(Lower *l, Node *x) { return copy_list(l, x, false); }

static LLVMValueRef lo_list_copy(Lower *l, Node *n) { return copy_list(l, n->list.items[0], true); }

/* ---------------------------------------------------------------- list(), sorted, sum, min, max */

/* A tuple's fields as the items of one list (list(t), sorted(t), min(t),
 * sum(t)): numbers, or tuples of numbers of one length (of their unified
 * type), or strs. */
static bool unifies(const Type *a, const Type *b) {
  return (ty_is_scalar(a) && ty_is_scalar(b)) || (a->kind == TY_TUPLE && b->kind == TY_TUPLE && ty_item_ordered(a) &&
                                                   ty_item_ordered(b) && a->nfields == b->nfields);
}

/* A 0-d array of real numbers: min() and max() of a tuple or list of them
 * (max([lrec, lsrc]) of two layer numbers) order them by their elements
 * and give the one chosen, still a 0-d array, as Numba's do. */
static bool real_0d(const Type *t) {
  return t->kind == TY_ARRAY && t->ndim == 0 && ty_is_scalar(t->elem) && !ty_is_complex(t->elem);
}

static const Type *tuple_items(const Type *t) {
  const Type *u = t->nfields ? t->fields[0] : NULL;
  for (int i = 1; u && i < t->nfields; i++)
    u = t->fields[i] == u ? u : unifies(u, t->fields[i]) ? ty_unify(u, t->fields[i]) : NULL;
  return u && (ty_is_scalar(u) || u->kind == TY_STR || u->kind == TY_BYTES || (u->kind == TY_TUPLE && ty_item_ordered(u)) ||
               real_0d(u)) ? u : NULL;
}

/* A tuple of numbers and of such tuples alone (numpy.ndindex's index,
 * ndenumerate's (index, value)), which a list holds without references. */
static bool numbers_tuple(const Type *t) {
  if (t->kind != TY_TUPLE) return false;
  for (int i = 0; i < t->nfields; i++)
    if (!ty_is_scalar(t->fields[i]) && !numbers_tuple(t->fields[i])) return false;
  return true;
}

/* What list(), sorted(), sum() and x.extend() take (x, typed t, of the
 * call n): a typed list, a set, a dict, a range, a tuple of numbers, strs or bytes,
 * a str (its characters), bytes, a 1-d array of numbers or of str or bytes
 * (their items in order) or
 * a generator of numbers or of tuples of them (list(numpy.ndindex(s))). */
/* The type of x[i] of an array x of 2 or more dimensions: a view of one dimension less. */
static const Type *row_type(const Type *t) {
  return ty_array(t->elem, t->ndim - 1, t->layout == 'C' ? 'C' : 'A', t->readonly);
}

static const Type *items_of(Infer *in, Node *n, Node *x, const Type *t, const char *what) {
  if (t->kind == TY_TUPLE && tuple_items(t)) return tuple_items(t);
  if (t->kind == TY_LIST) return t->elem ? t->elem : ty_list_item(in, n, t);
  if ((t->kind == TY_SET || t->kind == TY_DICT) && t->nfields) return t->fields[0];  /* a dict's keys */
  if (t->kind == TY_DICTVIEW) return ty_dict_view_item(t);
  if (t->kind == TY_RANGE) return TYS(TY_I64);
  if (t->kind == TY_STR) return t;
  if (t->kind == TY_BYTES) t = ty_bytes_view(in, x);  /* its items, as an array's (uint8 ints) */
  if (t->kind == TY_ARRAY && t->ndim == 1 && ty_is_scalar(t->elem)) return t->elem;
  if (t->kind == TY_ARRAY && t->ndim > 1 && ty_is_scalar(t->elem)) return row_type(t);
  if (t->kind == TY_ARRAY && t->ndim == 1 && ty_is_fixed_text(t->elem))  /* items read as strs or bytes, as Numba's */
    return TYS(t->elem->kind == TY_CHARSEQ ? TY_STR : TY_BYTES);
  if (t->kind == TY_YIELDS && (ty_is_scalar(t->elem) || numbers_tuple(t->elem))) return t->elem;
  return ty_error(in, n, "%s takes a typed list, a set, a dict, a range, a tuple of numbers, strs or bytes, a str, an array of "
                  "numbers (1-d: of strs or bytes too) or a generator of numbers (or of tuples of them) here, got %s", what, t->name);
}

/* The one type of a tuple's items that lists hold by reference (arrays,
 * jitclass instances, containers: list((a, b)) of two arrays); else NULL. */
static const Type *held_items(const Type *t) {
  if (t->kind != TY_TUPLE || !t->nfields || ty_is_literal_list(t)) return NULL;
  for (int i = 1; i < t->nfields; i++)
    if (t->fields[i] != t->fields[0]) return NULL;
  const Type *u = t->fields[0];
  return ty_has_arrays(u) && u->kind != TY_TUPLE && plain_item(u, "lists") ? u : NULL;
}

/* What a generator yields where lists hold it by reference (the rows
 * iter(a) of a 2-d array yields, as list(a) holds them); else NULL. */
static const Type *held_yields(const Type *t) {
  return t->kind == TY_YIELDS && ty_has_arrays(t->elem) && plain_item(t->elem, "lists") ? t->elem : NULL;
}

static const Type *ty_list_call(Infer *in, Node *n, const Type **args) {
  if (!n->list.len) return ty_list_literal(in, n, args);
  if (args[0]->kind == TY_LIST && !args[0]->elem) return args[0];
  if (held_items(args[0])) return ty_list(held_items(args[0]));
  if (held_yields(args[0])) return ty_list(held_yields(args[0]));
  const Type *elem = items_of(in, n, n->list.items[0], args[0], "list()");
  return elem ? ty_list(elem) : NULL;
}

/* typed.List.empty_list(item_type[, allocated]) in compiled code: an empty
 * list of that item type (a ruchey or NumPy type, named or held by a
 * variable or an argument, as Numba's number classes; or a value's type
 * where a value is given in its place, as Numba's takes one:
 * List.empty_list(Dict.empty(int32, int32)); allocated its room). */
static const Type *ty_empty_list(Infer *in, Node *n, const Type **args) {
  Node *item = bi_arg(n, 0, "item_type"), *room = bi_arg(n, 1, "allocated");
  if (ty_no_allocation(in)) return ty_error(in, n, "kernels cannot make lists");
  if (!item) return ty_error(in, n, "typed.List.empty_list() takes item_type");
  if (item->ty->kind == TY_DTYPE && item->ty->elem->kind == TY_RECORD)
    return ty_error(in, item, "typed.List.empty_list() in compiled code takes a number type, unicode_type, an array "
                    "type or a jitclass's instance type (types.int64, numpy.float32, types.float64[:], "
                    "Point.class_type.instance_type ...), got %s",
                    item->ty->name);
  if (room && !ty_is_int(room->ty)) return ty_error(in, room, "allocated must be an int, got %s", room->ty->name);
  const Type *t = item->ty->kind == TY_DTYPE ? item->ty->elem : item->ty;
  return ty_container_item(in, item, t, "lists") ? ty_list(t) : NULL;
}

/* lst, marked made by typed.List (RtList.typed). */
static LLVMValueRef typed_made(Lower *l, LLVMValueRef lst) {
  tagged(l, LLVMBuildStore(l->b, const_i32(l, 1), list_field(l, lst, L_TYPED)), "list fields");
  return lst;
}

static LLVMValueRef lo_empty_list(Lower *l, Node *n) {
  Node *room = bi_arg(n, 1, "allocated");
  LLVMValueRef cap = room ? lo_expr_as(l, room, TYS(TY_I64)) : const_i64(l, 0);
  cap = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, cap, const_i64(l, 0), ""), cap, const_i64(l, 0), "");
  return typed_made(l, lo_list_new(l, n->ty->elem, cap));
}

/* Appends each element an array node gives (lo_for_each_element's sink). */
typedef struct {
  const Type *elem;
  LLVMValueRef lst;
} Appender;

static void append_element(Lower *l, LLVMValueRef v, void *arg) {
  Appender *a = arg;
  lo_list_append(l, a->elem, a->lst, v);
}

/* A range's items (a range() call's, or a range value's: a variable, a
 * function's result), written in place: Python's count of them. */
static LLVMValueRef range_list(Lower *l, Node *r) {
  LLVMValueRef start, stop, step;
  lo_range_parts(l, r, &start, &stop, &step);
  LLVMValueRef n = lo_range_count(l, start, stop, step);
  LLVMValueRef lst = lo_list_new(l, TYS(TY_I64), n);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), n, NULL, "list.range");
  LLVMValueRef v = LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, loop.index, step, ""), "");
  LLVMBuildStore(l->b, v, lo_list_item_addr(l, TYS(TY_I64), lst, loop.index));
  lo_loop_end(l, &loop);
  set_len(l, lst, n);
  return lst;
}

/* A new list of the rows of x, an array of 2 or more dimensions: views
 * x[i] (of type row), each holding a reference to x's memory. */
static LLVMValueRef row_list(Lower *l, Node *x, const Type *row) {
  const Type *t = x->ty;
  LLVMValueRef a = lo_expr(l, x), len = lo_arr_shape(l, a, 0), lst = lo_list_new(l, row, len);
  LLVMValueRef shape[RC_MAX_NDIM], strides[RC_MAX_NDIM], idx[RC_MAX_NDIM];
  for (int d = 1; d < t->ndim; d++) {
    shape[d - 1] = lo_arr_shape(l, a, d);
    strides[d - 1] = lo_arr_stride(l, t, a, d);
    idx[d] = const_i64(l, 0);
  }
  lo_temp_made(l, ty_list(row), lst);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), len, NULL, "list.rows");
  idx[0] = loop.index;
  lo_list_append(l, row, lst, np_owned_view(l, row, a, lo_element_addr(l, t, a, idx), shape, strides));
  lo_loop_end(l, &loop);
  lo_temp_taken(l, lst);
  lo_done_with(l, x, a);
  return lst;
}

/* A new list of tuple x's fields, each converted to elem (a str's one more reference, the list's). */
static LLVMValueRef tuple_list(Lower *l, Node *x, const Type *elem) {
  LLVMValueRef t = lo_expr(l, x), lst = lo_list_new(l, elem, const_i64(l, x->ty->nfields));
  for (int i = 0; i < x->ty->nfields; i++) {
    LLVMValueRef v = lo_convert(l, LLVMBuildExtractValue(l->b, t, (unsigned)i, ""), x->ty->fields[i], elem);
    if (ty_has_arrays(elem)) {  /* owned, and a constant's copied: the list may outlive this code */
      lo_refcount(l, elem, v, true);
      v = lo_keep_strs(l, elem, v);
    }
    lo_list_append(l, elem, lst, v);
  }
  lo_done_with(l, x, t);
  return lst;
}

/* A new list of the items of list(x)'s x. */
/* What generator g yields, to its end, in a new list of elem. */
static LLVMValueRef generator_list(Lower *l, Node *g, const Type *elem) {
  LLVMValueRef gen = lo_expr(l, g), lst = lo_list_new(l, elem, const_i64(l, 0));
  lo_temp_made(l, ty_list(elem), lst);
  LLVMBasicBlockRef head = new_block(l, "drain"), body = new_block(l, "drain.item"), done = new_block(l, "drain.end");
  LLVMBuildBr(l->b, head);
  position(l, head);
  LLVMBuildCondBr(l->b, lo_generator_resume(l, g->ty->elem, gen), body, done);
  position(l, body);
  lo_list_append(l, elem, lst, lo_convert(l, lo_generator_value(l, g->ty, gen), g->ty->elem, elem));
  LLVMBuildBr(l->b, head);
  position(l, done);
  lo_done_with(l, g, gen);
  lo_temp_taken(l, lst);
  return lst;
}

/* The items of a 1-d array of str or bytes ('<Un', '|Sn'), each a new
 * str or bytes, in a new list. */
static LLVMValueRef text_list(Lower *l, Node *x, const Type *elem) {
  LLVMValueRef a = lo_expr(l, x), len = lo_arr_shape(l, a, 0), lst = lo_list_new(l, elem, len);
  lo_temp_made(l, ty_list(elem), lst);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), len, NULL, "list.text");
  LLVMValueRef idx[1] = {loop.index};
  lo_list_append(l, elem, lst, lo_text_read(l, x->ty->elem, lo_element_addr(l, x->ty, a, idx)));
  lo_loop_end(l, &loop);
  lo_temp_taken(l, lst);
  lo_done_with(l, x, a);
  return lst;
}

/* A new list of elem of iterable x's items. */
static LLVMValueRef items_list(Lower *l, Node *x, const Type *elem) {
  if (x->ty->kind == TY_YIELDS) return generator_list(l, x, elem);
  if (x->ty->kind == TY_LIST) return lo_list_copy_of(l, x);
  if (x->ty->kind == TY_RANGE) return range_list(l, x);
  if (x->ty->kind == TY_SET) return lo_set_list(l, x, elem);
  if (x->ty->kind == TY_DICT) return lo_dict_parts(l, x, DICT_KEYS, elem);
  if (x->ty->kind == TY_DICTVIEW) return lo_dict_parts(l, x, x->ty->unit, elem);
  if (x->ty->kind == TY_TUPLE) return tuple_list(l, x, elem);
  if (x->ty->kind == TY_STR) return lo_str_chars(l, x);
  if (x->ty->kind == TY_ARRAY && ty_is_fixed_text(x->ty->elem)) return text_list(l, x, elem);
  if (x->ty->kind == TY_ARRAY && x->ty->ndim > 1) return row_list(l, x, elem);
  Appender a = {elem, lo_list_new(l, elem, const_i64(l, 0))};
  lo_temp_made(l, ty_list(elem), a.lst);
  lo_for_each_element(l, x, append_element, &a);
  lo_temp_taken(l, a.lst);
  return a.lst;
}

const Type *ty_iterable_items(Infer *in, Node *n, Node *x, const Type *t, const char *what) {
  return items_of(in, n, x, t, what);
}

LLVMValueRef lo_iterable_list(Lower *l, Node *x, const Type *elem) { return items_list(l, x, elem); }

static LLVMValueRef lo_list_call(Lower *l, Node *n) {
  if (!n->list.len) return lo_list_literal(l, n);
  return items_list(l, n->list.items[0], n->ty->elem);
}

/* typed.List(x): list(x)'s list, but of a 0-d array its one element, as
 * Numba's List(numpy.array(1)) and typed.List in Python give it. */
static bool is_0d(const Type *t) { return t && t->kind == TY_ARRAY && t->ndim == 0; }

/* Whether typed.List(x)'s x was a 0-d array, x[()] now (a later pass of typing sees its element). */
static bool given_0d(const Node *n) {
  const Node *x = n->list.len ? n->list.items[0] : NULL;
  return x && (is_0d(x->ty) || (x->kind == N_INDEX && x->rhs->kind == N_TUPLE && !x->rhs->list.len && is_0d(x->lhs->ty)));
}

static const Type *ty_typed_list_call(Infer *in, Node *n, const Type **args) {
  if (!given_0d(n)) return ty_list_call(in, n, args);
  const Type *item = ty_scalar_of_0d(in, n->list.items[0], args[0]);
  return item ? ty_list_literal(in, n, &item) : NULL;
}

static LLVMValueRef lo_typed_list_call(Lower *l, Node *n) {
  return typed_made(l, given_0d(n) ? lo_list_literal(l, n) : lo_list_call(l, n));
}

/* sorted(x, reverse=False): a new list, sorted (stable, as Python's). */
static const Type *ty_sorted(Infer *in, Node *n, const Type **args) {
  const Type *elem = items_of(in, n, n->list.items[0], args[0], "sorted()");
  if (!elem) return NULL;
  if (!item_sortable(elem) && !ty_kwarg(n, "key")) return not_sortable(in, n, elem);
  if (!ty_sort_keywords(in, n, elem, "sorted(reverse=)")) return NULL;
  return ty_list(elem);
}

static LLVMValueRef lo_sorted(Lower *l, Node *n) {
  LLVMValueRef lst = items_list(l, n->list.items[0], n->ty->elem);
  lo_temp_made(l, n->ty, lst);
  sort_list(l, n, n->ty->elem, lst);
  lo_temp_taken(l, lst);
  return lst;
}

/* sum(), min() and max() of a typed list, a set, a dict (its keys), a
 * range(), a tuple or a 1-d array: their items in Python's order, a list's
 * read in place, an array's elements as they are made (an expression needs
 * no temporary), the others' gathered into a list first. Each item goes to
 * fold. */
typedef struct Fold Fold;
typedef void (*FoldStep)(Lower *l, Fold *f, LLVMValueRef item);
struct Fold {
  const Type *elem, *t;  /* the items' type and the result's */
  LLVMValueRef acc;      /* the result so far (an alloca of t) */
  LLVMValueRef seen;     /* min/max: whether acc holds an item yet (an alloca of i1) */
  int op;                /* min/max: OP_LT or OP_GT */
  MinMaxKey key;         /* min/max: key=, or key.fn NULL */
  const Type *out;       /* min/max with default=: the result's type */
  LLVMValueRef deflt;    /* and an alloca of out: the default, then the result */
  FoldStep step;
  FoldStep keep;         /* or NULL: run once the items are all seen, while they still live */
};

static void fold_element(Lower *l, LLVMValueRef v, void *arg) {
  Fold *f = arg;
  f->step(l, f, v);
}

/* A tuple whose items are all of the fold's scalar type: copied into
 * memory once and folded by a loop over it, where a list of its items,
 * appended one by one, would grow the code with the tuple. */
static bool fold_tuple(Lower *l, Node *x, Fold *f) {
  const Type *t = x->ty;
  if (t->kind != TY_TUPLE || !t->nfields || !ty_is_scalar(f->elem)) return false;
  for (int i = 0; i < t->nfields; i++)
    if (t->fields[i] != f->elem) return false;
  LLVMTypeRef as_array;
  LLVMValueRef v = lo_expr(l, x), mem = lo_tuple_in_memory(l, t, v, &as_array);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), const_i64(l, t->nfields), NULL, "fold");
  LLVMValueRef at[2] = {const_i64(l, 0), loop.index};
  f->step(l, f, LLVMBuildLoad2(l->b, lo_type(l, f->elem), LLVMBuildGEP2(l->b, as_array, mem, at, 2, ""), ""));
  lo_loop_end(l, &loop);
  if (f->keep) f->keep(l, f, NULL);
  lo_done_with(l, x, v);
  return true;
}

static void fold_items(Lower *l, Node *x, Fold *f) {
  if (fold_tuple(l, x, f)) return;
  if (x->ty->kind == TY_ARRAY) {
    lo_for_each_element(l, x, fold_element, f);
    if (f->keep) f->keep(l, f, NULL);
    return;
  }
  LLVMValueRef lst = x->ty->kind == TY_LIST ? lo_expr(l, x) : NULL;
  if (!lst) {  /* the other iterables' items, in a list of their own (items_list) */
    lst = items_list(l, x, f->elem);
    lo_temp_made(l, ty_list(f->elem), lst);
  }
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), lo_list_len(l, lst), NULL, "fold");
  f->step(l, f, lo_load_scalar(l, f->elem, lo_list_item_addr(l, f->elem, lst, loop.index)));
  lo_loop_end(l, &loop);
  if (f->keep) f->keep(l, f, NULL);
  if (x->ty->kind == TY_LIST) lo_done_with(l, x, lst);
  else lo_release_temp(l, ty_list(f->elem), lst);
}

/* Whether x's items are arrays: a 2-d (or more) array's rows, a list's or
 * a tuple's items. */
static bool array_items(const Type *x) {
  if (x->kind == TY_ARRAY) return x->ndim > 1;
  if (x->kind == TY_LIST) return x->elem && x->elem->kind == TY_ARRAY;
  if (x->kind != TY_TUPLE || !x->nfields || x->callee) return false;
  for (int i = 0; i < x->nfields; i++)
    if (x->fields[i]->kind != TY_ARRAY) return false;
  return true;
}

/* sum(arrays, start) of an array start: start + x0 + x1 + ..., new arrays
 * broadcast as + makes them, written in Python (ruchey._stdlib). From 0,
 * as Numba, it is refused: an empty iterable's sum would be the int 0. */
static const Type *sum_of_arrays(Infer *in, Node *n, const Type **args) {
  if (n->list.len < 2 || args[1]->kind != TY_ARRAY)
    return ty_error(in, n, "sum() of arrays (%s) takes an array start, as in sum(rows, numpy.zeros(m)): from 0 "
                    "an empty one's sum would be the int 0", args[0]->name);
  void *impl = in->opts && in->opts->python_impl ? in->opts->python_impl(in->opts->resolve_ctx, "_sum_of_arrays") : NULL;
  if (!impl) return ty_error(in, n, "sum() of arrays needs ruchey's Python functions, which cannot be loaded here");
  n->callee = impl;
  n->bi = bi_named("a ruchey function");
  return n->bi->type(in, n, args);
}

/* sum(x[, start]): Python's, from 0 (an int) or start, item by item. */
static const Type *ty_sum(Infer *in, Node *n, const Type **args) {
  if (array_items(args[0])) return sum_of_arrays(in, n, args);
  const Type *elem = items_of(in, n, n->list.items[0], args[0], "sum()");
  if (!elem) return NULL;
  if (!ty_is_scalar(elem)) return ty_error(in, n, "sum() of a list of %s is not supported", elem->name);
  const Type *start = n->list.len > 1 ? ty_need_scalar(in, n->list.items[1], args[1], "sum()'s start") : TYS(TY_I64);
  return start ? ty_unify(start->kind == TY_BOOL ? TYS(TY_I64) : start, elem->kind == TY_BOOL ? TYS(TY_I64) : elem) : NULL;
}

static void add_item(Lower *l, Fold *f, LLVMValueRef item) {
  LLVMValueRef v = lo_convert(l, item, f->elem, f->t);
  LLVMBuildStore(l->b, lo_arith(l, OP_ADD, f->t, LLVMBuildLoad2(l->b, lo_type(l, f->t), f->acc, ""), v), f->acc);
}

/* The type of an iterable's items, once typed (items_of's answer). */
static const Type *item_type(const Type *t) {
  if (t->kind == TY_SET || t->kind == TY_DICT) return t->fields[0];
  if (t->kind == TY_DICTVIEW) return ty_dict_view_item(t);
  if (t->kind == TY_TUPLE) return tuple_items(t);
  if (t->kind == TY_STR) return t;
  if (t->kind == TY_ARRAY && t->ndim > 1) return row_type(t);
  return t->kind == TY_RANGE ? TYS(TY_I64) : t->elem;  /* a list's, a 1-d array's */
}

static LLVMValueRef lo_sum(Lower *l, Node *n) {
  Fold f = {item_type(n->list.items[0]->ty), n->ty};
  f.acc = lo_alloca(l, lo_type(l, f.t), "sum");
  f.step = add_item;
  LLVMValueRef start = n->list.len > 1 ? lo_expr_as(l, n->list.items[1], f.t) : lo_convert(l, const_i64(l, 0), TYS(TY_I64), f.t);
  LLVMBuildStore(l->b, start, f.acc);
  fold_items(l, n->list.items[0], &f);
  return LLVMBuildLoad2(l->b, lo_type(l, f.t), f.acc, "");
}

/* min(x), max(x) of one iterable (python.c's min and max hand it here):
 * its items ordered, or key= a function of an item whose results are;
 * default= what an empty x gives (the result's type both's). */
const Type *ty_list_minmax(Infer *in, Node *n, const Type **args) {
  char what[16];
  snprintf(what, sizeof what, "%s()", n->bi->name);
  const Type *elem = items_of(in, n, n->list.items[0], args[0], what);
  Node *key = ty_minmax_key_arg(n), *deflt = ty_kwarg(n, "default");
  if (!elem) return NULL;
  if (key ? !ty_minmax_key(in, n, key, elem) : !ty_minmax_ordered(elem) && !real_0d(elem))
    return key ? NULL : ty_error(in, n, "%s() of items of %s is not supported (numbers, strs and tuples of numbers and "
                                 "strs are)", n->bi->name, elem->name);
  if (!deflt) return elem;
  const Type *d = ty_expr(in, deflt), *t = d ? (d->kind == TY_NONE ? ty_optional(elem) : ty_unify(elem, d)) : NULL;
  if (d && !t)
    return ty_error(in, deflt, "%s()'s default= of %s and items of %s have no common type in compiled code",
                    n->bi->name, d->name, elem->name);
  return t;
}

/* key= of min() or max(): NULL where not given or None (as Python's) */
Node *ty_minmax_key_arg(Node *n) {
  Node *key = ty_kwarg(n, "key");
  return key && key->kind != N_NONE ? key : NULL;
}

/* min(..., key=f), max(...): f typed for an item as sort's key is; its
 * results compared as min and max compare, holding no references (a str
 * key would need releasing on every item). */
bool ty_minmax_key(Infer *in, Node *n, Node *key, const Type *elem) {
  if (!ty_sort_key(in, key, elem)) return false;
  const Type *k = key->target->ret_type;
  if (!ty_minmax_ordered(k) || ty_has_arrays(k))
    return ty_error(in, key, "%s()'s key function returns a number or a tuple of numbers here, not %s", n->bi->name,
                    k->name) != NULL;
  return true;
}

void lo_minmax_key_begin(Lower *l, Node *n, MinMaxKey *k) {
  *k = (MinMaxKey){ty_minmax_key_arg(n)};
  if (!k->fn) return;
  k->args = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(1 + k->fn->list.len));
  for (int i = 0; i < k->fn->list.len; i++) k->args[1 + i] = lo_expr(l, k->fn->list.items[i]);
  k->best = lo_alloca(l, lo_type(l, k->fn->target->ret_type), "best.key");
}

void lo_minmax_key_end(Lower *l, MinMaxKey *k) {
  for (int i = 0; k->fn && i < k->fn->list.len; i++) lo_done_with(l, k->fn->list.items[i], k->args[1 + i]);
}

LLVMValueRef lo_minmax_key(Lower *l, MinMaxKey *k, LLVMValueRef item) {
  k->args[0] = item;  /* borrowed by the key function */
  return lo_call_target(l, k->fn->target, k->args, 1 + k->fn->list.len);
}

/* The first of equals kept, as Python's min and max; by key= where given. */
static void keep_better(Lower *l, Fold *f, LLVMValueRef v) {
  LLVMTypeRef t = lo_type(l, f->t);
  LLVMValueRef best = LLVMBuildLoad2(l->b, t, f->acc, ""), seen = LLVMBuildLoad2(l->b, l->mod->i1, f->seen, "");
  best = LLVMBuildSelect(l->b, seen, best, v, "");  /* (a str's compare reads both: none is NULL) */
  LLVMValueRef better, vk = NULL, best_key = NULL;
  if (f->key.fn) {
    const Type *kt = f->key.fn->target->ret_type;
    vk = lo_minmax_key(l, &f->key, v);
    best_key = LLVMBuildSelect(l->b, seen, LLVMBuildLoad2(l->b, lo_type(l, kt), f->key.best, ""), vk, "");
    better = lo_compare_values(l, f->op, vk, kt, best_key, kt);
  } else if (real_0d(f->t)) {
    const Type *e = f->t->elem;
    better = lo_compare_values(l, f->op, lo_load_scalar(l, e, lo_element_addr(l, f->t, v, NULL)), e,
                               lo_load_scalar(l, e, lo_element_addr(l, f->t, best, NULL)), e);
  } else {
    better = lo_compare_values(l, f->op, v, f->t, best, f->t);
  }
  LLVMValueRef take = LLVMBuildOr(l->b, better, LLVMBuildNot(l->b, seen, ""), "");
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, take, v, best, ""), f->acc);
  if (f->key.fn) LLVMBuildStore(l->b, LLVMBuildSelect(l->b, take, vk, best_key, ""), f->key.best);
  LLVMBuildStore(l->b, const_bool(l, true), f->seen);
}

/* The best item found, or ValueError where there was none; a str (a
 * tuple's strs) one more reference (the result's) before its container
 * lets it go. */
static void keep_best(Lower *l, Fold *f, LLVMValueRef unused) {
  lo_raise_if(l, LLVMBuildNot(l->b, LLVMBuildLoad2(l->b, l->mod->i1, f->seen, ""), ""), RT_ERR_VALUE,
              f->op == OP_LT ? "min() arg is an empty sequence" : "max() arg is an empty sequence");
  if (ty_has_arrays(f->t)) lo_refcount(l, f->t, LLVMBuildLoad2(l->b, lo_type(l, f->t), f->acc, ""), true);
}

/* default=: the best item, or the default where there was none (the
 * result, in f->deflt), one more reference where it holds any. */
static void keep_best_or_default(Lower *l, Fold *f, LLVMValueRef unused) {
  LLVMValueRef best = lo_convert(l, LLVMBuildLoad2(l->b, lo_type(l, f->t), f->acc, ""), f->t, f->out);
  LLVMValueRef r = LLVMBuildSelect(l->b, LLVMBuildLoad2(l->b, l->mod->i1, f->seen, ""), best,
                                   LLVMBuildLoad2(l->b, lo_type(l, f->out), f->deflt, ""), "");
  if (ty_has_arrays(f->out)) lo_refcount(l, f->out, r, true);
  LLVMBuildStore(l->b, r, f->deflt);
}

LLVMValueRef lo_list_minmax(Lower *l, Node *n) {
  Node *x = n->list.items[0], *deflt = ty_kwarg(n, "default");
  const Type *elem = item_type(x->ty);
  Fold f = {elem, elem, .op = n->bi->reduce_op, .step = keep_better, .keep = deflt ? keep_best_or_default : keep_best,
            .out = n->ty};
  LLVMValueRef d = NULL;
  if (deflt) {  /* evaluated first, as an argument */
    f.deflt = lo_alloca(l, lo_type(l, n->ty), "default");
    LLVMBuildStore(l->b, d = lo_expr_as(l, deflt, n->ty), f.deflt);
  }
  lo_minmax_key_begin(l, n, &f.key);
  f.acc = lo_alloca(l, lo_type(l, f.t), "best");
  f.seen = lo_alloca(l, l->mod->i1, "seen");
  LLVMBuildStore(l->b, LLVMConstNull(lo_type(l, f.t)), f.acc);
  LLVMBuildStore(l->b, const_bool(l, false), f.seen);
  fold_items(l, x, &f);
  lo_minmax_key_end(l, &f.key);
  if (!deflt) return LLVMBuildLoad2(l->b, lo_type(l, f.t), f.acc, "");
  lo_done_with(l, deflt, d);
  return LLVMBuildLoad2(l->b, lo_type(l, n->ty), f.deflt, "");
}

/* ---------------------------------------------------------------- +, *, comparisons */

static bool int_like(const Type *t) { return ty_is_int(t) || t->kind == TY_BOOL; }

/* x + y of two lists of one item type, or of numbers made here (a new list
 * of both: [1] + [2.5] is a list of float64, as Numba unifies its reflected
 * lists; a list given to the function may be a typed.List, which Numba
 * never adds to one of other items); x * n and n * x. */
const Type *ty_list_binop(Infer *in, Node *n, int op, const Type *a, const Type *b) {
  if (n->kind == N_AUGASSIGN)
    return ty_error(in, n, "x *= n of a list is not supported in compiled code: write x = x * n");
  if (op == OP_ADD && a->kind == TY_LIST && b->kind == TY_LIST) {
    const Type *t = a->elem && b->elem ? (a == b ? a : NULL) : (a->elem ? a : b);
    if (!t && ty_is_container(a->elem) && ty_is_container(b->elem)) t = ty_unify_containers(a, b);  /* [[1]] + [[]] */
    bool made_here = !given_list(in, n->lhs) && !given_list(in, n->rhs);
    if (!t && made_here && plain_number(a->elem) && plain_number(b->elem)) t = ty_list(ty_unify(a->elem, b->elem));
    return t ? t : ty_error(in, n, "cannot concatenate %s and %s", a->name, b->name);
  }
  if (op == OP_MUL && (a->kind == TY_LIST ? int_like(b) : int_like(a))) return a->kind == TY_LIST ? a : b;
  return ty_error(in, n, "operator is not supported between %s and %s", a->name, b->name);
}

LLVMValueRef lo_list_binop(Lower *l, Node *n) {
  LLVMValueRef a = lo_expr(l, n->lhs), b = lo_expr(l, n->rhs), r;
  if (n->op == OP_ADD && (n->lhs->ty != n->ty || n->rhs->ty != n->ty)) {  /* numbers of two types: each converted */
    const Type *elem = n->ty->elem;
    r = lo_list_new(l, elem, LLVMBuildAdd(l->b, lo_list_len(l, a), lo_list_len(l, b), ""));
    lo_temp_made(l, n->ty, r);
    if (n->lhs->ty->elem) append_items(l, elem, r, n->lhs->ty->elem, a);
    if (n->rhs->ty->elem) append_items(l, elem, r, n->rhs->ty->elem, b);
    lo_temp_taken(l, r);
  } else if (n->op == OP_ADD) {
    LLVMTypeRef p[2] = {l->mod->ptr, l->mod->ptr};
    r = lo_call_fn(l, "rt_list_concat", l->mod->ptr, p, (LLVMValueRef[]){a, b}, 2);
  } else {
    bool left = n->lhs->ty->kind == TY_LIST;
    LLVMValueRef times = lo_convert(l, left ? b : a, left ? n->rhs->ty : n->lhs->ty, TYS(TY_I64));
    LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
    r = lo_call_fn(l, "rt_list_repeat", l->mod->ptr, p, (LLVMValueRef[]){left ? a : b, times}, 2);
  }
  lo_raise_if(l, LLVMBuildIsNull(l->b, r, ""), RT_ERR_MEMORY, NULL);
  lo_done_with(l, n->rhs, b);
  lo_done_with(l, n->lhs, a);
  return r;
}

/* Whether items of types a and b (NULL: an empty list's, not known yet)
 * compare (for == and != alone: equality): numbers, strs, tuples of
 * numbers, strs and such tuples, None with None, or lists of such items
 * (lists of lists compare as Python's, item by item). */
static bool comparable_items(const Type *a, const Type *b, bool equality) {
  if (!a || !b || (a->kind == TY_NONE && b->kind == TY_NONE)) return true;  /* None items: always equal */
  if (a->kind == TY_LIST && b->kind == TY_LIST) return comparable_items(a->elem, b->elem, equality);
  if (a->kind == TY_TUPLE && b->kind == TY_TUPLE) return ty_items_compare(a, b, equality);
  if (a != b && !(ty_is_scalar(a) && ty_is_scalar(b))) return false;
  return ty_item_ordered(a) || ty_is_complex(a);
}

/* Whether a list's items (or its lists' items) are complex numbers. */
static bool complex_items(const Type *t) {
  while (t && t->kind == TY_LIST) t = t->elem;
  return t && ty_is_complex(t);
}


/* Whether one list holds None and the other not: Numba's order for them (by
 * their lengths, then the list of None first). */
static bool one_of_none(const Type *a, const Type *b) {
  return a->elem && b->elem && (a->elem->kind == TY_NONE) != (b->elem->kind == TY_NONE);
}

/* x == y, x < y ... of two lists whose items compare: Python's order (the
 * first unequal items decide, else the lengths); of a list and a real number,
 * or a list and then a str or tuple: unequal, as Python's, and for a
 * typed.List never true, as Numba's (lo_list_compare). */
bool ty_list_compare(Infer *in, Node *n, const Type *a, const Type *b) {
  if (n->list.len > 2) return ty_error(in, n, "chained comparisons of lists are not supported") != NULL;
  if (a->kind != TY_LIST || b->kind != TY_LIST) {
    const Type *other = a->kind == TY_LIST ? b : a;
    if (plain_number(other) && !ty_is_complex(other)) return true;
    if (a->kind == TY_LIST && (b->kind == TY_STR || b->kind == TY_TUPLE)) return true;
    return ty_error(in, n, "cannot compare %s and %s", a->name, b->name) != NULL;
  }
  bool order = n->ops[0] != OP_EQ && n->ops[0] != OP_NE;
  if (one_of_none(a, b)) return true;
  if (!comparable_items(a->elem, b->elem, !order))
    return ty_error(in, n, "comparing %s and %s is not supported", a->name, b->name) != NULL;
  if (order && (complex_items(a) || complex_items(b)))
    return ty_error(in, n, "lists of complex numbers are only compared with == and != (%s and %s)", a->name,
                    b->name) != NULL;
  return true;
}

/* Python's name of a number's, str's or tuple's type, for its TypeError. */
static const char *python_name(const Type *t) {
  return t->kind == TY_STR ? "str" : t->kind == TY_TUPLE ? "tuple" : t->kind == TY_BOOL ? "bool"
         : ty_is_int(t) ? "int" : "float";
}

/* A list compared with a real number (or, list first, a str or tuple): a
 * typed.List is never equal nor ordered to it (Numba's typed list gives
 * False for every operator); a reflected list is unequal, and ordering it
 * is Python's TypeError. */
static LLVMValueRef list_and_other(Lower *l, int op, LLVMValueRef lst, const Type *other, bool list_first) {
  LLVMValueRef typed = lo_list_made_typed(l, lst);
  if (op == OP_EQ) return const_bool(l, false);
  if (op == OP_NE) return LLVMBuildNot(l->b, typed, "");
  char msg[120];
  static const char *const sign[] = {[OP_LT] = "<", [OP_LE] = "<=", [OP_GT] = ">", [OP_GE] = ">="};
  snprintf(msg, sizeof msg, "'%s' not supported between instances of '%s' and '%s'", sign[op],
           list_first ? "list" : python_name(other), list_first ? python_name(other) : "list");
  lo_raise_if(l, LLVMBuildNot(l->b, typed, ""), RT_ERR_TYPE, arena_strdup(l->f->arena, msg));
  return const_bool(l, false);
}

/* Of equal lengths, one list of None and one of other items: Numba's order
 * puts the list of None first, and they are unequal. */
static LLVMValueRef none_list_order(Lower *l, int op, const Type *ta) {
  bool a_first = ta->elem->kind == TY_NONE;
  return const_bool(l, op == OP_NE || ((op == OP_LT || op == OP_LE) && a_first) || ((op == OP_GT || op == OP_GE) && !a_first));
}

LLVMValueRef lo_list_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  if (ta->kind != TY_LIST) return list_and_other(l, op, b, ta, false);
  if (tb->kind != TY_LIST) return list_and_other(l, op, a, tb, true);
  LLVMValueRef la = lo_list_len(l, a), lb = lo_list_len(l, b);
  if (one_of_none(ta, tb))
    return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, la, lb, ""), none_list_order(l, op, ta),
                           lo_compare_values(l, op, la, TYS(TY_I64), lb, TYS(TY_I64)), "");
  LLVMValueRef m = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, la, lb, ""), la, lb, "");
  LLVMValueRef at = lo_alloca(l, l->mod->i64, "differs");
  LLVMBuildStore(l->b, m, at);
  bool by_items = ta->elem && tb->elem && ta->elem->kind != TY_NONE;  /* lists of None differ by their lengths alone */
  if (by_items) {
    LoLoop loop = lo_loop_begin(l, const_i64(l, 0), m, NULL, "list.compare");
    LLVMValueRef x = lo_load_scalar(l, ta->elem, lo_list_item_addr(l, ta->elem, a, loop.index));
    LLVMValueRef y = lo_load_scalar(l, tb->elem, lo_list_item_addr(l, tb->elem, b, loop.index));
    LLVMBasicBlockRef differ = new_block(l, "compare.differ"), same = new_block(l, "compare.same");
    LLVMBuildCondBr(l->b, lo_compare_values(l, OP_EQ, x, ta->elem, y, tb->elem), same, differ);
    position(l, differ);
    LLVMBuildStore(l->b, loop.index, at);
    LLVMBuildBr(l->b, loop.exit);
    position(l, same);
    lo_loop_end(l, &loop);
  }
  LLVMValueRef i = LLVMBuildLoad2(l->b, l->mod->i64, at, "");
  LLVMBasicBlockRef items = new_block(l, "compare.items"), lens = LLVMGetInsertBlock(l->b), done = new_block(l, "compare.done");
  LLVMValueRef by_len = lo_compare_values(l, op, la, TYS(TY_I64), lb, TYS(TY_I64));
  lens = LLVMGetInsertBlock(l->b);
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, i, m, ""), done, items);
  position(l, items);
  LLVMValueRef by_item = const_bool(l, op == OP_NE);
  if (by_items) {
    LLVMValueRef x = lo_load_scalar(l, ta->elem, lo_list_item_addr(l, ta->elem, a, i));
    LLVMValueRef y = lo_load_scalar(l, tb->elem, lo_list_item_addr(l, tb->elem, b, i));
    by_item = lo_compare_values(l, op, x, ta->elem, y, tb->elem);
  }
  LLVMBasicBlockRef items_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, done);
  position(l, done);
  LLVMValueRef r = LLVMBuildPhi(l->b, l->mod->i1, "");
  LLVMAddIncoming(r, (LLVMValueRef[]){by_len, by_item}, (LLVMBasicBlockRef[]){lens, items_end}, 2);
  return r;
}

/* ---------------------------------------------------------------- in, len */

/* v (of type vt) in a list of type lst, or in the values or items of a
 * dict's view, searched as a list of them is. */
static const Type *list_has(Infer *in, Node *n, const Type *vt, const Type *lst) {
  if (!searchable(in, n->list.items[0], vt, lst, "'in'")) return NULL;
  if (lst->elem && !item_equatable(lst->elem))
    return ty_error(in, n, "'in' a list of %s is not supported", lst->elem->name);
  return TYS(TY_BOOL);
}

/* v in x of x a dict's values or items: searched in a list of them made now. */
static LLVMValueRef view_has(Lower *l, Node *v, Node *x) {
  const Type *elem = ty_dict_view_item(x->ty);
  LLVMValueRef val = lo_expr(l, v), lst = lo_dict_parts(l, x, x->ty->unit, elem);
  lo_temp_made(l, ty_list(elem), lst);
  LLVMValueRef r = list_search(l, NULL, elem, lst, val, v->ty, false);
  lo_done_with(l, v, val);
  lo_release_temp(l, ty_list(elem), lst);
  return LLVMBuildICmp(l->b, LLVMIntSGE, r, const_i64(l, 0), "");
}

/* v in x, for lists, dicts, tuples, strs, arrays, ranges and jitclass instances
 * (their __contains__); not in is not(v in x) (the frontend). */
static const Type *ty_in(Infer *in, Node *n, const Type **args) {
  if (args[1]->kind == TY_DICT || args[1]->kind == TY_SET) return ty_dict_contains(in, n, args);
  if (args[1]->kind == TY_DICTVIEW && args[1]->unit == DICT_KEYS) return ty_dict_contains(in, n, args);
  if (args[1]->kind == TY_DICTVIEW) return list_has(in, n, args[0], ty_list(ty_dict_view_item(args[1])));
  if (args[1]->kind == TY_TUPLE) return ty_tuple_contains(in, n, args);
  if (args[1]->kind == TY_LITDICT) return ty_literal_dict_contains(in, n, args);
  if (args[1]->kind == TY_STR) return ty_str_contains(in, n, args);
  if (args[1]->kind == TY_BYTES) return ty_bytes_contains(in, n, args);
  if (args[1]->kind == TY_ARRAY) return ty_array_contains(in, n, args);
  if (args[1]->kind == TY_RANGE) return ty_range_contains(in, n, args);
  if (args[1]->kind == TY_CLASS) return ty_jitclass_contains(in, n);
  if (args[1]->kind != TY_LIST)
    return ty_error(in, n, "'in' needs a typed list, a dict, a tuple, a range or an array here, got %s", args[1]->name);
  return list_has(in, n, args[0], args[1]);
}

static LLVMValueRef lo_in(Lower *l, Node *n) {
  Node *v = n->list.items[0], *x = n->list.items[1];
  if (x->ty->kind == TY_DICT || x->ty->kind == TY_SET) return lo_dict_contains(l, n);  /* a set's items are keys */
  if (x->ty->kind == TY_DICTVIEW && x->ty->unit == DICT_KEYS) return lo_dict_contains(l, n);
  if (x->ty->kind == TY_DICTVIEW) return view_has(l, v, x);
  if (x->ty->kind == TY_TUPLE) return lo_tuple_contains(l, n);
  if (x->ty->kind == TY_LITDICT) return lo_literal_dict_contains(l, n);
  if (x->ty->kind == TY_STR) return lo_str_contains(l, n);
  if (x->ty->kind == TY_BYTES) return lo_bytes_contains(l, n);
  if (x->ty->kind == TY_ARRAY) return lo_array_contains(l, n);
  if (x->ty->kind == TY_RANGE) return lo_range_contains(l, n);
  LLVMValueRef val = lo_expr(l, v), lst = lo_expr(l, x);
  LLVMValueRef r = x->ty->elem ? list_search(l, NULL, x->ty->elem, lst, val, v->ty, false) : const_i64(l, -1);
  lo_done_with(l, x, lst);
  lo_done_with(l, v, val);
  return LLVMBuildICmp(l->b, LLVMIntSGE, r, const_i64(l, 0), "");
}

LLVMValueRef lo_container_len(Lower *l, const Type *t, LLVMValueRef v) {
  /* a dict's len is its field `used`, at the same place as a list's len */
  return lo_list_len(l, v);
}

/* ---------------------------------------------------------------- the rows */

static const char *const sort_kw[] = {"reverse", "key", NULL};

#define LIST_METHOD(name, lo, hi, kw, flags, ival, type, lower) \
  {"list." name, NULL, name, BK_METHOD, TY_LIST, lo, hi, kw, (flags) | BF_COMPLEX, ival, 0, type, lower}

static const char *const empty_list_kw[] = {"item_type", "allocated", NULL};

/* A walk of a list xs at step k whose body may change xs (infer's
 * ty_list_walk): whether it has ended, k past xs's length now, as Python's
 * list iterator reads it; a typed.List whose length changed since the
 * walk's first step is Numba's RuntimeError, as its typed list iterator's
 * (a Python list's copy or a list display walks on, as Python's). */
static const Type *ty_walk_ended(Infer *in, Node *n, const Type **args) { return TYS(TY_BOOL); }

static LLVMValueRef lo_walk_ended(Lower *l, Node *n) {
  LLVMValueRef lst = lo_expr(l, n->list.items[0]), k = lo_expr(l, n->list.items[1]), len = lo_list_len(l, lst);
  LLVMValueRef first = lo_alloca(l, l->mod->i64, "walk.len");  /* the length at the first step */
  LLVMValueRef start = LLVMBuildICmp(l->b, LLVMIntEQ, k, const_i64(l, 0), "");
  LLVMValueRef was = LLVMBuildSelect(l->b, start, len, LLVMBuildLoad2(l->b, l->mod->i64, first, ""), "");
  LLVMBuildStore(l->b, was, first);
  LLVMValueRef typed = lo_list_made_typed(l, lst);
  LLVMValueRef changed = LLVMBuildAnd(l->b, typed, LLVMBuildICmp(l->b, LLVMIntNE, len, was, ""), "");
  lo_raise_if(l, changed, RT_ERR_RUNTIME, "list was mutated during iteration");
  lo_done_with(l, n->list.items[0], lst);
  return LLVMBuildICmp(l->b, LLVMIntSGE, k, len, "");
}

/* l._dtype of a typed list: its items' type as a dtype, as Numba's
 * typed list has it (returned to Python as numpy.dtype). */
static const Type *ty_list_dtype(Infer *in, Node *n, const Type **args) {
  const Type *e = args[0]->elem;
  if (!e || !ty_is_numpy_dtype(ty_dtype(e)) || e->kind == TY_RECORD || ty_is_fixed_text(e))
    return ty_error(in, n, "%s._dtype is known in compiled code for a list of numbers or bools", args[0]->name);
  return ty_dtype(e);
}

static LLVMValueRef lo_list_dtype(Lower *l, Node *n) { return LLVMGetUndef(l->mod->i8); }  /* (a type: no value) */

/* l._allocated(), l._is_mutable() and l._make_immutable() (the ival of
 * their rows), as Numba's typed list has them: its room, and its
 * immutability. */
enum { STATE_ALLOCATED, STATE_IS_MUTABLE, STATE_MAKE_IMMUTABLE };

static const Type *ty_list_state(Infer *in, Node *n, const Type **args) {
  int what = n->bi->ival;
  return TYS(what == STATE_ALLOCATED ? TY_I64 : what == STATE_IS_MUTABLE ? TY_BOOL : TY_NONE);
}

static LLVMValueRef lo_list_state(Lower *l, Node *n) {
  LLVMValueRef lst = receiver(l, n), r = LLVMGetUndef(l->mod->i8);
  int what = n->bi->ival;
  if (what == STATE_ALLOCATED) r = lo_call_fn(l, "rt_list_allocated", l->mod->i64, &l->mod->ptr, &lst, 1);
  if (what == STATE_IS_MUTABLE) r = LLVMBuildNot(l->b, is_immutable(l, lst), "");
  if (what == STATE_MAKE_IMMUTABLE) lo_call_fn(l, "rt_list_make_immutable", void_type(l), &l->mod->ptr, &lst, 1);
  lo_done_with(l, n->list.items[0], lst);
  return r;
}

const Builtin bi_lists[] = {
  {"list walk ended", NULL, NULL, BK_FUNCTION, 0, 2, 2, NULL, BF_RAISES, 0, 0, ty_walk_ended, lo_walk_ended},
  {"list", "builtins", "list", BK_FUNCTION, 0, 0, 1, NULL, BF_RAISES | BF_LISTS | BF_STRINGS | BF_COMPLEX, 0, 0, ty_list_call, lo_list_call},
  {"typed.List", "ruchey.typed", "List", BK_FUNCTION, 0, 0, 1, NULL, BF_RAISES | BF_LISTS | BF_STRINGS | BF_COMPLEX, 0, 0, ty_typed_list_call, lo_typed_list_call},
  {"typed.List.empty_list", "ruchey.typed", "List.empty_list", BK_FUNCTION, 0, 0, 2, empty_list_kw, BF_RAISES | BF_COMPLEX, 0, 0,
   ty_empty_list, lo_empty_list},
  {"sorted", "builtins", "sorted", BK_FUNCTION, 0, 1, 1, sort_kw, BF_RAISES | BF_LISTS | BF_STRINGS | BF_COMPLEX, 0, 0, ty_sorted, lo_sorted},
  {"sum", "builtins", "sum", BK_FUNCTION, 0, 1, 2, NULL, BF_LISTS | BF_COMPLEX, 0, 0, ty_sum, lo_sum},
  {"list literal", NULL, NULL, BK_FUNCTION, 0, 0, 1 << 20, NULL, BF_RAISES | BF_COMPLEX | BF_NONE, 0, 0, ty_list_literal,
   lo_list_literal},
  {"in", NULL, NULL, BK_FUNCTION, 0, 2, 2, NULL, BF_COMPLEX, 0, 0, ty_in, lo_in},
  /* BF_STRINGS: a constant string argument is a str, not a dtype's name; BF_LISTS: [1, 2] a list */
  LIST_METHOD("append", 1, 1, NULL, BF_RAISES | BF_STRINGS | BF_LISTS | BF_NONE, 0, ty_append, lo_append),
  LIST_METHOD("insert", 2, 2, NULL, BF_RAISES | BF_STRINGS | BF_LISTS | BF_NONE, 0, ty_insert, lo_insert),
  LIST_METHOD("extend", 1, 1, NULL, BF_RAISES | BF_STRINGS | BF_LISTS, 0, ty_extend, lo_extend),
  LIST_METHOD("pop", 0, 1, NULL, BF_RAISES, 0, ty_pop, lo_pop),
  LIST_METHOD("__delitem__", 1, 1, NULL, BF_RAISES, 1, ty_pop, lo_pop),
  LIST_METHOD("__delslice__", 3, 3, NULL, BF_RAISES | BF_NONE, 0, ty_delslice, lo_delslice),
  LIST_METHOD("index", 1, 3, NULL, BF_RAISES | BF_STRINGS | BF_LISTS, FIND_INDEX, ty_find, lo_find),
  LIST_METHOD("count", 1, 1, NULL, BF_STRINGS | BF_LISTS, FIND_COUNT, ty_find, lo_find),
  LIST_METHOD("remove", 1, 1, NULL, BF_RAISES | BF_STRINGS | BF_LISTS, FIND_REMOVE, ty_find, lo_find),
  LIST_METHOD("clear", 0, 0, NULL, 0, 0, ty_none_method, lo_clear),
  LIST_METHOD("reverse", 0, 0, NULL, 0, 0, ty_none_method, lo_reorder),
  LIST_METHOD("sort", 0, 0, sort_kw, BF_RAISES, 1, ty_none_method, lo_reorder),
  LIST_METHOD("copy", 0, 0, NULL, BF_RAISES, 0, ty_copy, lo_list_copy),
  LIST_METHOD("_allocated", 0, 0, NULL, 0, STATE_ALLOCATED, ty_list_state, lo_list_state),
  LIST_METHOD("_is_mutable", 0, 0, NULL, 0, STATE_IS_MUTABLE, ty_list_state, lo_list_state),
  LIST_METHOD("_make_immutable", 0, 0, NULL, 0, STATE_MAKE_IMMUTABLE, ty_list_state, lo_list_state),
  {"list._dtype", NULL, "_dtype", BK_ATTRIBUTE, TY_LIST, 0, 0, NULL, BF_PURE | BF_CHEAP, 0, 0, ty_list_dtype, lo_list_dtype},
  BI_END,
};
