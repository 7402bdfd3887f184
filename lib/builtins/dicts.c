/* builtins/dicts.c — typed dicts in compiled code: dict literals (and
 * comprehensions), d[k] (KeyError), d[k] = v, del d[k], `k in d`, len,
 * get, setdefault, pop, clear, copy, and iteration over keys, values and
 * items in insertion order. Also literal dicts (Numba's LiteralStrKeyDict):
 * a dict written out with constant str keys whose values have no one type,
 * held as the tuple of its values and read by constant keys.
 *
 * A dict is a pointer to an RtDict (containers.h), the memory a
 * ruchey.typed.Dict holds in Python; lib/containers.c hashes and probes.
 * Keys travel to it as 64-bit bits (ints extended, floats as float64; a
 * tuple's or a complex number's point to an RtTupleKey of its parts).
 */
#include <math.h>
#include <stddef.h>

#include "builtins/builtins.h"
#include "containers.h"

static const Type *key_of(const Type *d) { return d->nfields ? d->fields[0] : NULL; }
static const Type *value_of(const Type *d) { return d->nfields ? d->fields[1] : NULL; }

/* The value kind and size an RtDict of type t is made with: a set's
 * TY_SET, which marks it one (containers.c's sets' table), and no bytes. */
static int value_kind(const Type *t) { return t->kind == TY_SET ? TY_SET : value_of(t) ? (int)value_of(t)->kind : -1; }
static int64_t value_size(const Type *t) { return t->kind == TY_SET ? 0 : value_of(t) ? (int64_t)value_of(t)->size : 8; }

/* ---------------------------------------------------------------- typing */

/* A tuple of at most RT_KEY_FIELDS numbers (complex too), bools, strs
 * and such tuples (RtTupleKey's, a tuple or complex field one of its own). */
static bool key_tuple(const Type *k) {
  if (k->kind != TY_TUPLE || !k->nfields || k->nfields > RT_KEY_FIELDS) return false;
  for (int i = 0; i < k->nfields; i++) {
    const Type *f = k->fields[i];
    if (f->kind != TY_STR && !key_tuple(f) && (!ty_is_scalar(f) || f->kind == TY_F16 || ty_is_time(f)))
      return false;
  }
  return true;
}

/* A key: a number (complex too), a bool, a str, a datetime64 or
 * timedelta64 (its int64 count, NaT equal to NaT as Numba's keys are:
 * hashed as the int's, as Numba's hash() of one) or a tuple of real
 * numbers, bools and strs (float16 keys, which would hash as their float64
 * values, are not taken). */
static const Type *need_key(Infer *in, Node *at, const Type *k) {
  if (k && k->kind == TY_F16) return ty_error(in, at, "float16 dict keys are not supported in compiled code");
  if (k && (k->kind == TY_STR || ty_is_time(k) || ty_is_complex(k) || key_tuple(k))) return k;
  if (k && k->kind == TY_TUPLE)
    return ty_error(in, at, "a dict key tuple holds up to %d numbers, bools, strs and such tuples, got %s",
                    RT_KEY_FIELDS, k->name);
  return ty_need_scalar(in, at, k, "a dict key");
}

static bool dict_known(Infer *in, Node *n, const Type *d) {
  if (d->nfields) return true;
  if (in->final)
    ty_error(in, n, "cannot infer the key and value types of an empty dict: store into it first, or make it "
             "with typed.Dict.empty(key_type, value_type)");
  return false;
}

/* The part of d's entries an iteration reads (the index node's str). */
static int part_named(const char *what) {
  return !strcmp(what, "iteration values") ? DICT_VALUES : !strcmp(what, "iteration items") ? DICT_ITEMS : DICT_KEYS;
}

/* The dict x is, or a view x is of. */
static const Type *dict_seen(const Type *x) { return x->kind == TY_DICTVIEW ? x->elem : x; }

/* The type of d's keys, values or (key, value) items (part). */
static const Type *part_of(const Type *d, int part) {
  return part == DICT_VALUES ? value_of(d) : part == DICT_ITEMS ? ty_tuple(2, d->fields) : key_of(d);
}

/* Whether a key of type k is looked up or stored as one of type key: a
 * number that converts to it, or is cast to it as Numba's typed dict
 * casts keys (an int64 into uint32 keys); a tuple item by item (one of
 * int32s into (int8, int8) keys, as Numba casts it). */
bool ty_key_converts(const Type *key, const Type *k) {
  if (ty_container_fits(key, k) || ty_container_casts(key, k)) return true;
  if (key->kind != TY_TUPLE || k->kind != TY_TUPLE || key->nfields != k->nfields || key->callee || k->callee)
    return false;
  for (int i = 0; i < key->nfields; i++)
    if (!ty_key_converts(key->fields[i], k->fields[i])) return false;
  return true;
}

/* k as a key of d (ty_key_converts). */
static bool key_fits(Infer *in, Node *at, const Type *d, const Type *k) {
  if (!need_key(in, at, k)) return false;
  if (!ty_key_converts(key_of(d), k))  /* (Numba's words after ours) */
    return ty_error(in, at, "%s is not a key type of %s: cannot safely cast %s to %s", k->name, d->name, k->name,
                    key_of(d)->name) != NULL;
  return true;
}

static const Type *ty_empty_dict(Infer *in, Node *n, const Type **args);

/* An empty dict made where it is stored (typed.Dict.empty(k, v) written
 * as the value) as a value of another dict type: made of that type, as
 * Numba casts any dict to another (a pointer's cast): hftbacktest's
 * books.setdefault(price, Dict.empty(int64, order_ladder_ty)) into a dict
 * of order ladders; being empty, nothing of the other types is seen. */
static const Type *empty_dict_retyped(Node *at, const Type *d, const Type *v) {
  bool empty = at->kind == N_CALL && at->bi && at->bi->type == ty_empty_dict;
  if (!empty || v->kind != TY_DICT || !d->nfields || value_of(d)->kind != TY_DICT || !value_of(d)->nfields) return v;
  return at->ty = value_of(d);
}

/* An Optional stored as a value of d, whose values are not: its value,
 * checked not None when stored (TypeError), as Numba casts it
 * (hftbacktest's o[id] = exch_order, got by orders.get(id) and checked). */
static const Type *unwrapped_value(const Type *d, const Type *v) {
  if (!d->nfields || v->kind != TY_OPTIONAL || value_of(d)->kind == TY_OPTIONAL) return v;
  return ty_container_fits(value_of(d), v->elem) ? v->elem : v;
}

/* v as a value of d (held in recv); an empty container's types it gives
 * ({k: []} then d.get(k, [1])) retype recv. */
static bool value_fits(Infer *in, Node *n, Node *recv, Node *at, const Type *d, const Type *v) {
  v = unwrapped_value(d, empty_dict_retyped(at, d, v));
  const Type *u = ty_is_container(v) && ty_is_container(value_of(d)) ? ty_unify_containers(value_of(d), v) : NULL;
  if (u && u != value_of(d)) return ty_refine_container(in, n, recv, ty_dict(key_of(d), u));
  if (!ty_container_fits(value_of(d), v) && !ty_container_casts(value_of(d), v))
    return ty_error(in, at, "cannot store %s as a value of %s: cannot safely cast %s to %s", v->name, d->name, v->name,
                    value_of(d)->name) != NULL;
  return true;
}

/* d[k] = v into a dict of unknown types types it. */
static bool takes_pair(Infer *in, Node *n, Node *recv, const Type *d, Node *k, const Type *kt, Node *v,
                       const Type *vt) {
  if (d->nfields && !(vt = ty_function_item(in, v, vt, value_of(d)))) return false;  /* d[k] = f of FunctionType values */
  vt = unwrapped_value(d, vt);
  if (!need_key(in, k, kt) || !ty_container_item(in, v, vt, "dict values")) return false;
  if (!d->nfields) return ty_refine_container(in, n, recv, ty_dict(kt, vt));
  return key_fits(in, k, d, kt) && value_fits(in, n, recv, v, d, vt);
}

/* ---------------------------------------------------------------- typing literal dicts */

/* The narrowest float that Numba converts a real number of type t into
 * safely: ints through wider ints (uint8 through int16), int64 and uint64
 * into float64 as its one exception. */
static int safe_float_bits(const Type *t) {
  if (ty_is_float(t)) return t->bits;
  if (ty_is_unsigned(t)) return t->bits <= 8 ? 32 : 64;
  return t->bits <= 8 ? 16 : t->bits <= 16 ? 32 : 64;
}

/* Whether Numba converts a value of type from into to without loss (its
 * promote and safe conversions): bools into any number, ints into wider
 * ints of their sign or wider signed ones, and into floats and complex
 * numbers wide enough; tuples item by item; an array into one of any
 * layout; a container into one it unifies with (an empty list's type
 * given by another); other values only as themselves. */
static bool converts_safely(const Type *from, const Type *to) {
  if (from == to) return true;
  if (from->kind == TY_TUPLE && to->kind == TY_TUPLE && from->nfields == to->nfields && !from->callee && !to->callee) {
    for (int i = 0; i < from->nfields; i++)
      if (!converts_safely(from->fields[i], to->fields[i])) return false;
    return true;
  }
  if (from->kind == TY_ARRAY || ty_is_container(from)) return ty_container_fits(to, from) || ty_unify_containers(to, from);
  if (!ty_is_scalar(from) || !ty_is_scalar(to) || ty_is_time(from) || ty_is_time(to)) return false;
  if (from->kind == TY_BOOL || to->kind == TY_BOOL) return from->kind == TY_BOOL;
  if (ty_is_complex(to)) return (ty_is_complex(from) ? from->bits / 2 : safe_float_bits(from)) <= to->bits / 2;
  if (ty_is_complex(from)) return false;
  if (ty_is_float(to)) return safe_float_bits(from) <= to->bits;
  if (ty_is_float(from)) return false;
  if (ty_is_unsigned(from) == ty_is_unsigned(to)) return from->bits <= to->bits;
  return ty_is_unsigned(from) && from->bits < to->bits;
}

/* Whether each key (first 0) or each value (first 1) of a dict written out
 * converts safely to the first's type. */
static bool first_holds_all(const Type **args, int len, int first) {
  for (int i = first + 2; i < len; i += 2)
    if (!converts_safely(args[i], args[first])) return false;
  return true;
}

/* Numba's test of a dict written out: its values fit one typed dict when
 * each converts safely to the first's type, as a typed dict takes its
 * type from its first entry; a lone literal dict or list value never does. */
static bool homogeneous_values(const Type **args, int len) {
  if (len == 2 && (args[1]->kind == TY_LITDICT || ty_is_literal_list(args[1]))) return false;
  return first_holds_all(args, len, 1);
}

/* Whether every key is a str typing knows (written, or a variable bound
 * once to one). */
static bool str_keyed(Infer *in, Node *n) {
  for (int i = 0; i < n->list.len; i += 2) {
    const Node *k = ty_constant(in, n->list.items[i]);
    if (!k || k->kind != N_STRING || strlen(k->str) != (size_t)k->ival) return false;  /* (a NUL names no key here) */
  }
  return true;
}

static int key_index(const Type *d, const char *key) {
  for (int i = 0; i < d->nfields; i++)
    if (!strcmp(d->names[i], key)) return i;
  return -1;
}

/* The last entry of the dict written out as n that gives entry i's key
 * (i itself where none later does): its value is the key's. */
static int last_entry(const Node *n, int i) {
  int last = i;
  for (int j = i + 2; j < n->list.len; j += 2)
    if (!strcmp(n->list.items[j]->str, n->list.items[i]->str)) last = j;
  return last;
}

static bool given_before(const Node *n, int i) {
  for (int j = 0; j < i; j += 2)
    if (!strcmp(n->list.items[j]->str, n->list.items[i]->str)) return true;
  return false;
}

/* Its keys in the order first given, each of its last value's type (as
 * Python keeps a repeated key's place and its last value); each key
 * replaced by its constant, which the lowering reads. */
static const Type *literal_dict(Infer *in, Node *n, const Type **args) {
  const Type *fields[64];
  const char *keys[64];
  int m = 0;
  for (int i = 0; i < n->list.len; i += 2) n->list.items[i] = (Node *)ty_constant(in, n->list.items[i]);
  for (int i = 0; i < n->list.len; i += 2) {
    if (given_before(n, i)) continue;
    if (m == 64) return ty_error(in, n, "literal dicts of more than 64 entries are not supported");
    fields[m] = args[last_entry(n, i) + 1];
    keys[m++] = n->list.items[i]->str;
  }
  return ty_literal_dict(m, fields, keys);
}

/* d[k] of a literal dict: k a str typing knows, its value's own type;
 * a for loop over d or d.keys() walks its keys. */
const Type *ty_literal_dict_index(Infer *in, Node *n, const Type *d) {
  if (n->str && part_named(n->str) != DICT_KEYS)
    return ty_error(in, n, "iteration over the %s of the literal dict %s is not supported: they have different "
                    "types (literal_unroll(d.%s()) walks them, one copy of the loop's body each)",
                    part_named(n->str) == DICT_VALUES ? "values" : "items", d->name,
                    part_named(n->str) == DICT_VALUES ? "values" : "items");
  if (n->str) return ty_expr(in, n->rhs) ? TYS(TY_STR) : NULL;
  if (n->rhs->kind != N_STRING && !ty_expr(in, n->rhs)) return NULL;
  const Node *k = ty_constant(in, n->rhs);
  if (!k || k->kind != N_STRING)
    return ty_error(in, n, "Cannot getitem() on a literal dictionary, return type cannot be statically determined: "
                    "%s is read by constant str keys", d->name);
  int i = key_index(d, k->str);
  if (i < 0) return ty_error(in, n, "Key '%s' is not in dict.", k->str);
  n->rhs = (Node *)k;
  return d->fields[i];
}

/* k in d of a literal dict: any k; a str is compared with its keys. */
const Type *ty_literal_dict_contains(Infer *in, Node *n, const Type **args) { return TYS(TY_BOOL); }

/* Two literal dicts as one variable's: of the same keys, each value's
 * types unified. */
const Type *ty_literal_dict_unify(const Type *a, const Type *b) {
  if (a->kind != TY_LITDICT || b->kind != TY_LITDICT || a->nfields != b->nfields) return NULL;
  const Type *fields[64];
  for (int i = 0; i < a->nfields; i++)
    if (strcmp(a->names[i], b->names[i]) || !(fields[i] = ty_unify(a->fields[i], b->fields[i]))) return NULL;
  return ty_literal_dict(a->nfields, fields, (const char *const *)a->names);
}

/* Its values as a tuple, which d.values() is. */
static const Type *values_of(const Type *d) { return ty_tuple(d->nfields, d->fields); }

static bool same_keys(const Type *a, const Type *b) {
  if (a->nfields != b->nfields) return false;
  for (int i = 0; i < a->nfields; i++)
    if (strcmp(a->names[i], b->names[i])) return false;
  return true;
}

static bool same_key_set(const Type *a, const Type *b) {
  if (a->nfields != b->nfields) return false;
  for (int i = 0; i < a->nfields; i++)
    if (key_index(b, a->names[i]) < 0) return false;
  return true;
}

/* a == b, a != b of literal dicts: equal where their keys are and each
 * key's values are (compared as tuples' items). */
bool ty_literal_dict_compare(Infer *in, Node *n, int op, const Type *a, const Type *b) {
  if (a->kind != TY_LITDICT || b->kind != TY_LITDICT || (op != OP_EQ && op != OP_NE))
    return ty_error(in, n, "a literal dict is only compared with == and != to another, got %s and %s", a->name,
                    b->name) != NULL;
  if (same_keys(a, b)) return ty_tuple_compare(in, n, op, values_of(a), values_of(b)) != NULL;
  if (same_key_set(a, b))
    return ty_error(in, n, "literal dicts of the same keys in different orders are not compared in compiled code "
                    "(%s and %s)", a->name, b->name) != NULL;
  return true;  /* other keys: never equal */
}

/* d.keys(), d.values(), d.items() of a literal dict: tuples, of its keys,
 * its values and (key, value) pairs (as Numba's, which literal_unroll and
 * for loops over keys walk). */
static const Type *ty_literal_view(Infer *in, Node *n, const Type **args) {
  const Type *d = args[0], *parts[64];
  for (int i = 0; i < d->nfields; i++) {
    const Type *pair[2] = {TYS(TY_STR), d->fields[i]};
    parts[i] = n->bi->ival == DICT_KEYS ? TYS(TY_STR) : n->bi->ival == DICT_VALUES ? d->fields[i] : ty_tuple(2, pair);
  }
  return ty_tuple(d->nfields, parts);
}

/* d.copy() of a literal dict: d itself, as nothing changes it */
static const Type *ty_literal_copy(Infer *in, Node *n, const Type **args) { return args[0]; }

static const Type *ty_literal_get(Infer *in, Node *n, const Type **args) {
  return ty_error(in, n, "Cannot get() on a literal dictionary, return type cannot be statically determined: read "
                  "%s by d[key] of a constant key", args[0]->name);
}

static const Type *ty_literal_mutation(Infer *in, Node *n, const Type **args) {
  return ty_error(in, n, LITERAL_DICT_FROZEN, args[0]->name);
}

/* ---------------------------------------------------------------- typing typed dicts */

/* A dict written out: a literal dict (Numba's rule, homogeneous_values);
 * else a typed dict of its first key's and first value's types where the
 * others convert to them safely, as Numba's; else of their unified types
 * (1 and 2.5: float64, which Numba refuses). */
static const Type *ty_dict_literal(Infer *in, Node *n, const Type **args) {
  if (n->list.len && str_keyed(in, n) && !homogeneous_values(args, n->list.len)) return literal_dict(in, n, args);
  if (ty_no_allocation(in)) return ty_error(in, n, "kernels cannot make dicts");
  const Type *kv[2] = {NULL, NULL};
  for (int i = 0; i < n->list.len; i++) {
    const Type **t = &kv[i % 2];
    if (i % 2 ? !ty_container_item(in, n->list.items[i], args[i], "dict values")
              : !need_key(in, n->list.items[i], args[i]))
      return NULL;
    if (!(*t = *t ? ty_unify(*t, args[i]) : args[i]))
      return ty_error(in, n->list.items[i], "a dict's %s must have one type: %s and %s cannot be unified",
                      i % 2 ? "values" : "keys", args[i % 2]->name, args[i]->name);
  }
  for (int part = 0; part < 2 && n->list.len; part++)  /* (a container's: the unified one, its items typed) */
    if ((ty_is_scalar(args[part]) || args[part]->kind == TY_TUPLE) && first_holds_all(args, n->list.len, part))
      kv[part] = args[part];
  return ty_dict(kv[0], kv[1]);
}

/* d[a:b]: a slice is no key (unhashable before Python 3.12, and no key type of compiled dicts) */
static bool slice_key(Infer *in, Node *k) {
  if (k->kind != N_SLICE) return false;
  ty_error(in, k, "dict keys cannot be slices in compiled code");
  return true;
}

const Type *ty_dict_index(Infer *in, Node *n, const Type *d) {
  if (!dict_known(in, n, d) || (n->str && !ty_expr(in, n->rhs)) || slice_key(in, n->rhs)) return NULL;
  if (n->str) return part_of(d, part_named(n->str));  /* for k in d, d.keys(), d.values(), d.items() */
  const Type *k = ty_expr(in, n->rhs);
  return k && key_fits(in, n->rhs, d, k) ? value_of(d) : NULL;
}

void ty_dict_store(Infer *in, Node *target, const Type *t, Node *at) {
  Node *recv = target->lhs;
  const Type *k = slice_key(in, target->rhs) ? NULL : ty_expr(in, target->rhs);
  if (k && takes_pair(in, target, recv, recv->ty, target->rhs, k, at, t)) target->ty = value_of(recv->ty);
}

const Type *ty_dict_contains(Infer *in, Node *n, const Type **args) {
  return need_key(in, n->list.items[0], args[0]) ? TYS(TY_BOOL) : NULL;
}

/* Whether entries of typed dicts a and b may be equal: keys of one type,
 * or numbers of one kind (ints, floats), whose bits agree; values of
 * kinds == compares. Others only where both dicts are empty. */
static bool entries_comparable(const Type *a, const Type *b) {
  const Type *ka = key_of(a), *kb = key_of(b);
  bool keys = ka == kb || (ty_is_int(ka) && ty_is_int(kb)) || (ty_is_float(ka) && ty_is_float(kb));
  return keys && ty_items_equatable(value_of(a), value_of(b));
}

/* a == b, a != b of a typed dict: equal to a dict of the same entries
 * (values compared by ==: numbers, strs, tuples of them), never to
 * another value. */
bool ty_dict_compare(Infer *in, Node *n, int op, const Type *a, const Type *b) {
  if (op != OP_EQ && op != OP_NE)
    return ty_error(in, n, "dicts are only compared with == and !=, got %s and %s", a->name, b->name) != NULL;
  for (int i = 0; i < 2; i++) {
    const Type *d = i ? b : a;
    if (d->kind == TY_DICT && d->nfields && !ty_items_equatable(value_of(d), value_of(d)))
      return ty_error(in, n, "dicts of %s values are not compared in compiled code", value_of(d)->name) != NULL;
  }
  return true;
}

/* d.get(k, default), d.pop(k[, default]), d.setdefault(k, default), del d[k] */
static const Type *ty_keyed(Infer *in, Node *n, const Type **args) {
  const Type *d = args[0];
  if (!strcmp(n->bi->path, "setdefault") && !d->nfields) {  /* types it: known in the next pass */
    takes_pair(in, n, n->list.items[0], d, n->list.items[1], args[1], n->list.items[2], args[2]);
    return NULL;
  }
  /* d.get(k, 0) before d is stored into (d[k] = d.get(k, 0) + 1): the
   * default's type, until the store types d */
  if (!d->nfields && n->list.len > 2 && !in->final) return args[2]->kind == TY_NONE ? NULL : args[2];
  if (!dict_known(in, n, d) || !key_fits(in, n->list.items[1], d, args[1])) return NULL;
  /* d.get(k, None), d.pop(k, None): an Optional, None when k is missing */
  if (n->list.len > 2 && args[2]->kind == TY_NONE && n->bi->ival != 2) return ty_optional(value_of(d));
  if (n->list.len > 2 && !value_fits(in, n, n->list.items[0], n->list.items[2], d, args[2])) return NULL;
  return value_of(d);
}

/* d.get(k) without a default: an Optional, None when k is missing */
static const Type *ty_get(Infer *in, Node *n, const Type **args) {
  if (n->list.len > 2) return ty_keyed(in, n, args);
  if (!dict_known(in, n, args[0]) || !key_fits(in, n->list.items[1], args[0], args[1])) return NULL;
  return ty_optional(value_of(args[0]));
}

static const Type *ty_popitem(Infer *in, Node *n, const Type **args) {
  return dict_known(in, n, args[0]) ? ty_tuple(2, args[0]->fields) : NULL;
}

/* d.update(e): e a dict of the same types (or an empty one yet untyped). */
static const Type *ty_update(Infer *in, Node *n, const Type **args) {
  const Type *e = args[1];
  if (e->kind != TY_DICT) return ty_error(in, n->list.items[1], "update() takes a typed dict, got %s", e->name);
  if (!e->nfields) return TYS(TY_NONE);
  if (!args[0]->nfields) {  /* types it: known in the next pass */
    ty_refine_container(in, n, n->list.items[0], e);
    return NULL;
  }
  if (e != args[0]) return ty_error(in, n->list.items[1], "cannot update %s from %s", args[0]->name, e->name);
  return TYS(TY_NONE);
}

static const Type *ty_dict_self(Infer *in, Node *n, const Type **args) {
  return strcmp(n->bi->path, "copy") ? TYS(TY_NONE) : args[0];
}

/* d.keys(), d.values(), d.items() outside a for loop's header: a view of
 * d (Numba's DictKeysIterableType and its siblings), which len(), for
 * loops, list(), sorted(), `in` read as d is when they run: an insert
 * after the view was made is seen, as in Numba and Python. A for loop
 * over d.keys() itself walks d (walk_element). */
static const Type *ty_view(Infer *in, Node *n, const Type **args) {
  const Type *d = args[0];
  return dict_known(in, n, d) ? ty_dict_view(d, (int)n->bi->ival) : NULL;
}

/* The type of what a view of a dict (ty_dict_view) walks. */
const Type *ty_dict_view_item(const Type *v) { return part_of(v->elem, v->unit); }

/* for x in v of a view v: its dict's part at the walk's step. */
const Type *ty_dict_view_index(Infer *in, Node *n, const Type *v) {
  if (!n->str) return ty_error(in, n, "'dict_%s' object is not subscriptable",
                                  v->unit == DICT_VALUES ? "values" : v->unit == DICT_ITEMS ? "items" : "keys");
  if (strcmp(n->str, "iteration"))
    return ty_error(in, n, "%s has no keys(), values() or items(): iterate over it, or over its dict's", v->name);
  return ty_expr(in, n->rhs) ? ty_dict_view_item(v) : NULL;
}

/* ---------------------------------------------------------------- lowering */

/* A number (of type kt) as key bits of a number key of type key: ints
 * extended, floats as float64 (of the key type's value, as Numba casts a
 * key: 0.1 into float32 keys is float32(0.1)); and back. */
static LLVMValueRef number_bits(Lower *l, const Type *key, LLVMValueRef k, const Type *kt) {
  if (ty_is_float(key)) return lo_to_bits(l, lo_convert(l, lo_convert(l, k, kt, key), key, TYS(TY_F64)), TYS(TY_F64));
  return lo_to_bits(l, lo_convert(l, k, kt, key), key);
}

static LLVMValueRef number_of_bits(Lower *l, const Type *key, LLVMValueRef bits) {
  if (ty_is_float(key)) return lo_convert(l, lo_from_bits(l, bits, TYS(TY_F64)), TYS(TY_F64), key);
  return lo_from_bits(l, bits, key);
}

static LLVMValueRef tuple_key_part(Lower *l, LLVMValueRef t, size_t offset) {
  LLVMValueRef off = const_i64(l, (int64_t)offset);
  return LLVMBuildGEP2(l->b, l->mod->i8, t, &off, 1, "");
}

/* The offsets of field i's kind and bits in an RtTupleKey. */
static size_t field_kind_at(int i) {
  return offsetof(RtTupleKey, fields) + (size_t)i * sizeof(RtKeyField) + offsetof(RtKeyField, kind);
}
static size_t field_bits_at(int i) {
  return offsetof(RtTupleKey, fields) + (size_t)i * sizeof(RtKeyField) + offsetof(RtKeyField, bits);
}

/* An RtTupleKey on the stack of n fields (RT_TUPLE_KEY_SIZE(n) bytes): a
 * kind and bits each; its address as key bits, for the call it is given
 * to (the dict copies it to keep it, with its own reference to each str
 * field). */
static LLVMValueRef stack_key(Lower *l, int n, const int *kinds, LLVMValueRef *bits) {
  LLVMValueRef t = lo_alloca(l, LLVMArrayType2(l->mod->i64, RT_TUPLE_KEY_SIZE(n) / 8), "key");
  LLVMBuildStore(l->b, const_i64(l, n), tuple_key_part(l, t, offsetof(RtTupleKey, n)));
  for (int i = 0; i < n; i++) {
    LLVMBuildStore(l->b, const_i32(l, kinds[i]), tuple_key_part(l, t, field_kind_at(i)));
    LLVMBuildStore(l->b, bits[i], tuple_key_part(l, t, field_bits_at(i)));
  }
  return LLVMBuildPtrToInt(l->b, t, l->mod->i64, "");
}

static LLVMValueRef bits_of_key(Lower *l, const Type *key, LLVMValueRef k, const Type *kt);

/* A tuple key (k of type kt): each field's bits (a tuple's or a complex
 * number's, a stack RtTupleKey of its own). */
static LLVMValueRef tuple_key(Lower *l, const Type *key, LLVMValueRef k, const Type *kt) {
  int *kinds = arena_alloc(l->f->arena, sizeof(int) * (size_t)key->nfields);
  LLVMValueRef *bits = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)key->nfields);
  for (int i = 0; i < key->nfields; i++) {
    const Type *f = key->fields[i];
    kinds[i] = ty_is_float(f) ? TY_F64 : (int)f->kind;
    bits[i] = bits_of_key(l, f, LLVMBuildExtractValue(l->b, k, (unsigned)i, ""), kt->fields[i]);
  }
  return stack_key(l, key->nfields, kinds, bits);
}

/* A complex key (k of type kt, cast to key): its parts' bits as float64s, as containers.c hashes them. */
static LLVMValueRef complex_key(Lower *l, const Type *key, LLVMValueRef k, const Type *kt) {
  LLVMValueRef c = lo_convert(l, lo_convert(l, k, kt, key), key, TYS(TY_C128));
  LLVMValueRef bits[2] = {lo_to_bits(l, lo_complex_real(l, c), TYS(TY_F64)), lo_to_bits(l, lo_complex_imag(l, c), TYS(TY_F64))};
  return stack_key(l, 2, (const int[]){TY_F64, TY_F64}, bits);
}

/* k (of type kt) as the bits of a key of type key. */
static LLVMValueRef bits_of_key(Lower *l, const Type *key, LLVMValueRef k, const Type *kt) {
  if (key->kind == TY_STR) return LLVMBuildPtrToInt(l->b, k, l->mod->i64, "");
  if (key->kind == TY_TUPLE) return tuple_key(l, key, k, kt);
  if (ty_is_complex(key)) return complex_key(l, key, k, kt);
  return number_bits(l, key, k, kt);
}

/* k (of type kt) as the dict's key bits. */
static LLVMValueRef key_bits(Lower *l, const Type *d, LLVMValueRef k, const Type *kt) {
  return bits_of_key(l, key_of(d), k, kt);
}

/* An entry's key, from its bits (a str, a tuple's str: the dict's reference, borrowed). */
static LLVMValueRef key_of_bits(Lower *l, const Type *key, LLVMValueRef bits) {
  if (key->kind == TY_STR) return LLVMBuildIntToPtr(l->b, bits, l->mod->ptr, "");
  if (!lo_key_in_memory(key)) return number_of_bits(l, key, bits);
  LLVMValueRef t = LLVMBuildIntToPtr(l->b, bits, l->mod->ptr, ""), v = LLVMGetUndef(lo_type(l, key));
  if (ty_is_complex(key)) {
    LLVMValueRef re = LLVMBuildLoad2(l->b, l->mod->i64, tuple_key_part(l, t, field_bits_at(0)), "");
    LLVMValueRef im = LLVMBuildLoad2(l->b, l->mod->i64, tuple_key_part(l, t, field_bits_at(1)), "");
    LLVMValueRef c = lo_complex_make(l, TYS(TY_C128), lo_from_bits(l, re, TYS(TY_F64)), lo_from_bits(l, im, TYS(TY_F64)));
    return lo_convert(l, c, TYS(TY_C128), key);
  }
  for (int i = 0; i < key->nfields; i++) {
    LLVMValueRef b = LLVMBuildLoad2(l->b, l->mod->i64, tuple_key_part(l, t, field_bits_at(i)), "");
    v = LLVMBuildInsertValue(l->b, v, key_of_bits(l, key->fields[i], b), (unsigned)i, "");
  }
  return v;
}

/* A value read out of the dict: one more reference where values hold them
 * (strs), since what a read gives is the reader's. */
static LLVMValueRef taken(Lower *l, const Type *vt, LLVMValueRef v) {
  if (ty_has_arrays(vt)) lo_refcount(l, vt, v, true);
  return v;
}

/* v, owned, stored at a value's address, releasing the value it replaces (NULL in a new entry). */
static void store_value(Lower *l, const Type *vt, LLVMValueRef at, LLVMValueRef v) {
  LLVMValueRef old = ty_has_arrays(vt) ? lo_load_scalar(l, vt, at) : NULL;
  lo_store_scalar(l, vt, at, v);
  if (old) lo_refcount(l, vt, old, false);
}


static LLVMValueRef lookup(Lower *l, LLVMValueRef d, LLVMValueRef bits) {
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
  return lo_call_fn(l, "rt_dict_lookup", l->mod->ptr, p, (LLVMValueRef[]){d, bits}, 2);
}

/* A dict made before its types were known takes them at its first
 * insertion: its key kind is -1 until then (checked inline, settled in C). */
static void settle(Lower *l, const Type *t, LLVMValueRef d) {
  LLVMValueRef off = const_i64(l, (int64_t)offsetof(RtDict, keykind));
  LLVMValueRef kind = LLVMBuildLoad2(l->b, l->mod->i32, LLVMBuildGEP2(l->b, l->mod->i8, d, &off, 1, ""), "keykind");
  LLVMBasicBlockRef untyped = new_block(l, "dict.untyped"), typed = new_block(l, "dict.typed");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, kind, const_i32(l, 0), ""), untyped, typed);
  position(l, untyped);
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i32, l->mod->i32, l->mod->i64};
  LLVMValueRef a[4] = {d, const_i32(l, (int)key_of(t)->kind), const_i32(l, value_kind(t)), const_i64(l, value_size(t))};
  lo_call_fn(l, "rt_dict_settle", void_type(l), p, a, 4);
  lo_hold_items(l, value_of(t), d, "rt_dict_hold");
  LLVMBuildBr(l->b, typed);
  position(l, typed);
}

static LLVMValueRef insert(Lower *l, const Type *t, LLVMValueRef d, LLVMValueRef bits) {
  settle(l, t, d);
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
  LLVMValueRef at = lo_call_fn(l, "rt_dict_insert", l->mod->ptr, p, (LLVMValueRef[]){d, bits}, 2);
  LLVMBasicBlockRef fail = new_block(l, "insert.fail"), ok = new_block(l, "insert.ok");
  LLVMBuildCondBr(l->b, LLVMBuildIsNull(l->b, at, ""), fail, ok);
  position(l, fail);
  lo_raise_recorded(l, RT_ERR_MEMORY);
  position(l, ok);
  return at;
}

/* What rt_key_error takes to write a key of type k: its kind, a float's
 * as float64, a datetime's with its unit in the higher bits. */
int lo_key_error_kind(const Type *k) {
  if (ty_is_float(k)) return TY_F64;
  return ty_is_time(k) ? (int)k->kind | k->unit << 8 : (int)k->kind;
}

/* The value's address for key bits, KeyError(k) if it is missing. */
static LLVMValueRef lookup_or_raise(Lower *l, const Type *t, LLVMValueRef d, LLVMValueRef bits) {
  LLVMValueRef at = lookup(l, d, bits);
  LLVMBasicBlockRef fail = new_block(l, "key.missing"), ok = new_block(l, "key.found");
  LLVMBuildCondBr(l->b, LLVMBuildIsNull(l->b, at, ""), fail, ok);
  position(l, fail);
  int kind = lo_key_error_kind(key_of(t));
  LLVMTypeRef p[2] = {l->mod->i32, l->mod->i64};
  lo_call_fn(l, "rt_key_error", void_type(l), p, (LLVMValueRef[]){const_i32(l, kind), bits}, 2);
  lo_raise_recorded(l, RT_ERR_KEY);
  position(l, ok);
  return at;
}

static LLVMValueRef new_dict(Lower *l, const Type *t) {
  const Type *v = value_of(t);
  LLVMTypeRef p[3] = {l->mod->i32, l->mod->i32, l->mod->i64};
  LLVMValueRef a[3] = {const_i32(l, t->nfields ? (int)key_of(t)->kind : -1), const_i32(l, value_kind(t)),
                       const_i64(l, value_size(t))};
  LLVMValueRef d = lo_call_fn(l, "rt_dict_new", l->mod->ptr, p, a, 3);
  lo_raise_if(l, LLVMBuildIsNull(l->b, d, ""), RT_ERR_MEMORY, NULL);
  lo_hold_items(l, v, d, "rt_dict_hold");
  return d;
}

static LLVMValueRef lo_literal_dict(Lower *l, Node *n);

static LLVMValueRef lo_dict_literal(Lower *l, Node *n) {
  if (n->ty->kind == TY_LITDICT) return lo_literal_dict(l, n);
  LLVMValueRef d = new_dict(l, n->ty);
  lo_temp_made(l, n->ty, d);  /* released if a key or value raises */
  for (int i = 0; i + 1 < n->list.len; i += 2) {
    Node *k = n->list.items[i], *v = n->list.items[i + 1];
    LLVMValueRef kv = lo_expr(l, k), bits = key_bits(l, n->ty, kv, k->ty);
    LLVMValueRef val = lo_item_value(l, v, value_of(n->ty));
    store_value(l, value_of(n->ty), insert(l, n->ty, d, bits), val);
    lo_done_with(l, k, kv);  /* the dict took its own reference to a new str key */
  }
  lo_temp_taken(l, d);
  return d;
}

/* The i-th live entry of d (of type t) as a key, a value or a (key, value)
 * tuple (of type pt), owned. */
static LLVMValueRef entry_at(Lower *l, const Type *t, LLVMValueRef d, LLVMValueRef i, int part, const Type *pt) {
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
  LLVMValueRef e = lo_call_fn(l, "rt_dict_entry", l->mod->ptr, p, (LLVMValueRef[]){d, i}, 2);
  lo_raise_if(l, LLVMBuildIsNull(l->b, e, ""), RT_ERR_RUNTIME, "dictionary changed size during iteration");
  const Type *kt = key_of(t), *vt = value_of(t);
  LLVMValueRef off = const_i64(l, 8);
  LLVMValueRef bits = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i8, e, &off, 1, ""), "");
  LLVMValueRef key = taken(l, kt, key_of_bits(l, kt, bits));
  if (part == DICT_KEYS) return key;
  off = const_i64(l, RT_DICT_VALUE);
  LLVMValueRef v = taken(l, vt, lo_load_scalar(l, vt, LLVMBuildGEP2(l->b, l->mod->i8, e, &off, 1, "")));
  if (part == DICT_VALUES) {
    if (ty_has_arrays(kt)) lo_refcount(l, kt, key, false);
    return v;
  }
  LLVMValueRef tup = LLVMGetUndef(lo_type(l, pt));
  tup = LLVMBuildInsertValue(l->b, tup, key, 0, "");
  return LLVMBuildInsertValue(l->b, tup, v, 1, "");
}

/* d[k] read (KeyError), or the i-th entry's part in iteration. */
LLVMValueRef lo_dict_index(Lower *l, Node *n) {
  LLVMValueRef d = lo_expr(l, n->lhs), v;
  if (n->str || n->lhs->ty->kind == TY_DICTVIEW) lo_check_iter_size(l, n, d);
  if (n->lhs->ty->kind == TY_DICTVIEW) {  /* for x in v of a view v */
    v = entry_at(l, n->lhs->ty->elem, d, lo_expr(l, n->rhs), n->lhs->ty->unit, n->ty);
  } else if (n->str) {
    v = entry_at(l, n->lhs->ty, d, lo_expr(l, n->rhs), part_named(n->str), n->ty);
  } else {
    LLVMValueRef kv = lo_expr(l, n->rhs), bits = key_bits(l, n->lhs->ty, kv, n->rhs->ty);
    v = taken(l, n->ty, lo_load_scalar(l, n->ty, lookup_or_raise(l, n->lhs->ty, d, bits)));
    lo_done_with(l, n->rhs, kv);
  }
  lo_done_with(l, n->lhs, d);
  return v;
}

/* d[k]'s address: for d[k] = v inserted, for d[k] op= v found (KeyError). */
LLVMValueRef lo_dict_addr(Lower *l, Node *n, LLVMValueRef *base, bool store) {
  LLVMValueRef d = *base = lo_expr(l, n->lhs);
  LLVMValueRef kv = lo_expr(l, n->rhs), bits = key_bits(l, n->lhs->ty, kv, n->rhs->ty);
  LLVMValueRef at = store ? insert(l, n->lhs->ty, d, bits) : lookup_or_raise(l, n->lhs->ty, d, bits);
  lo_done_with(l, n->rhs, kv);  /* a new str key: the dict took its own reference */
  return at;
}

static bool same_width_tuples(const Type *k, const Type *key) {
  return k->kind == TY_TUPLE && key->kind == TY_TUPLE && k->nfields == key->nfields && !k->callee && !key->callee;
}

/* A number k that `k in d` converts to d's number keys and back to tell
 * whether it equals one: any but a complex one into real keys, or a float
 * into bool keys; a tuple whose items each fit the key's or are such
 * numbers. */
static bool narrowed_key(const Type *k, const Type *key) {
  if (same_width_tuples(k, key)) {
    for (int i = 0; i < k->nfields; i++)
      if (!ty_container_fits(key->fields[i], k->fields[i]) && !narrowed_key(k->fields[i], key->fields[i])) return false;
    return true;
  }
  if (!ty_is_scalar(k) || !ty_is_scalar(key) || ty_is_time(k) || ty_is_time(key)) return false;
  return ty_is_float(k) ? key->kind != TY_BOOL : !ty_is_complex(k) || ty_is_complex(key);
}

/* Whether a float k lies in the range of the int type key (NaN and inf do
 * not): there its conversion to key is defined. */
static LLVMValueRef in_int_range(Lower *l, LLVMValueRef k, const Type *kt, const Type *key) {
  double top = ldexp(1, key->bits - ty_is_signed(key)), bottom = ty_is_signed(key) ? -top : 0;
  LLVMValueRef x = lo_convert(l, k, kt, TYS(TY_F64));
  return LLVMBuildAnd(l->b, LLVMBuildFCmp(l->b, LLVMRealOGE, x, LLVMConstReal(l->mod->f64, bottom), ""),
                      LLVMBuildFCmp(l->b, LLVMRealOLT, x, LLVMConstReal(l->mod->f64, top), ""), "");
}

/* Whether k (of type kt) converted to key and back is k: the number of
 * that key type it equals; a tuple where each narrowed item is. */
static LLVMValueRef exact_key(Lower *l, LLVMValueRef k, const Type *kt, const Type *key) {
  if (!same_width_tuples(kt, key)) {
    LLVMValueRef back = lo_convert(l, lo_convert(l, k, kt, key), key, kt);
    LLVMValueRef same = lo_compare_values(l, OP_EQ, back, kt, k, kt);
    return ty_is_float(kt) && ty_is_int(key) ? LLVMBuildAnd(l->b, in_int_range(l, k, kt, key), same, "") : same;
  }
  LLVMValueRef all = const_bool(l, true);
  for (int i = 0; i < kt->nfields; i++)
    if (!ty_container_fits(key->fields[i], kt->fields[i]))
      all = LLVMBuildAnd(l->b, all, exact_key(l, LLVMBuildExtractValue(l->b, k, (unsigned)i, ""), kt->fields[i],
                                              key->fields[i]), "");
  return all;
}

/* Whether k (of type kt) equals a value of type key: true where kt fits
 * key; for a narrowed number or tuple, where its conversion is exact. */
LLVMValueRef lo_key_exact(Lower *l, LLVMValueRef k, const Type *kt, const Type *key) {
  return ty_container_fits(key, kt) ? const_bool(l, true) : exact_key(l, k, kt, key);
}

LLVMValueRef lo_dict_contains(Lower *l, Node *n) {
  Node *k = n->list.items[0], *x = n->list.items[1];
  const Type *dt = dict_seen(x->ty);  /* (k in d.keys(): k in d) */
  LLVMValueRef kv = lo_expr(l, k), d = lo_expr(l, x), r;
  if (!dt->nfields) {
    r = const_bool(l, false);
  } else if (!ty_container_fits(key_of(dt), k->ty) && narrowed_key(k->ty, key_of(dt))) {
    /* an int64 in a dict of int32 or float32 keys, a float in one of ints, a complex128 in one of complex64
     * keys, a tuple of such: there where it equals one */
    r = LLVMBuildAnd(l->b, exact_key(l, kv, k->ty, key_of(dt)),
                     LLVMBuildIsNotNull(l->b, lookup(l, d, key_bits(l, dt, kv, k->ty)), ""), "");
  } else if (!ty_container_fits(key_of(dt), k->ty)) {  /* a str in a dict of ints: no such key */
    r = const_bool(l, false);
  } else {
    r = LLVMBuildIsNotNull(l->b, lookup(l, d, key_bits(l, dt, kv, k->ty)), "");
  }
  lo_done_with(l, x, d);
  lo_done_with(l, k, kv);
  return r;
}

typedef struct DictsCompared {
  const Type *ta, *tb;
  LLVMValueRef a, b, same;  /* same: an i1 slot, cleared at an entry of a that b lacks or holds another value for */
} DictsCompared;

static void compare_entry(Lower *l, LLVMValueRef *idx, void *arg) {
  DictsCompared *c = arg;
  const Type *va = value_of(c->ta), *vb = value_of(c->tb);
  LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
  LLVMValueRef e = lo_call_fn(l, "rt_dict_entry", l->mod->ptr, p, (LLVMValueRef[]){c->a, idx[0]}, 2);
  LLVMValueRef off = const_i64(l, 8);
  /* (the key's bits are b's too: keys of one type, or numbers of one kind, whose bits agree) */
  LLVMValueRef bits = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i8, e, &off, 1, ""), "");
  LLVMValueRef at = lookup(l, c->b, bits);
  LLVMBasicBlockRef missing = LLVMGetInsertBlock(l->b), found = new_block(l, "dict.eq.found"),
                    next = new_block(l, "dict.eq.next");
  LLVMBuildCondBr(l->b, LLVMBuildIsNull(l->b, at, ""), next, found);
  position(l, found);
  off = const_i64(l, RT_DICT_VALUE);
  LLVMValueRef x = lo_load_scalar(l, va, LLVMBuildGEP2(l->b, l->mod->i8, e, &off, 1, ""));
  LLVMValueRef equal = lo_compare_values(l, OP_EQ, x, va, lo_load_scalar(l, vb, at), vb);
  LLVMBasicBlockRef found_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, next);
  position(l, next);
  LLVMValueRef same = LLVMBuildPhi(l->b, l->mod->i1, "");
  LLVMAddIncoming(same, (LLVMValueRef[]){const_bool(l, false), equal}, (LLVMBasicBlockRef[]){missing, found_end}, 2);
  LLVMBuildStore(l->b, LLVMBuildAnd(l->b, LLVMBuildLoad2(l->b, l->mod->i1, c->same, ""), same, ""), c->same);
}

/* ty_dict_compare's: the same dict, or as long and each entry of a in b
 * with an equal value (a dict not typed yet is empty). */
LLVMValueRef lo_dict_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  if (ta->kind != TY_DICT || tb->kind != TY_DICT) return const_bool(l, op == OP_NE);
  LLVMValueRef la = lo_container_len(l, ta, a), lb = lo_container_len(l, tb, b);
  DictsCompared c = {ta, tb, a, b, lo_alloca(l, l->mod->i1, "dict.eq")};
  LLVMBuildStore(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, la, lb, ""), c.same);
  if (ta->nfields && tb->nfields && entries_comparable(ta, tb)) lo_for_each_index(l, 1, &la, compare_entry, &c);
  else if (ta->nfields && tb->nfields)  /* no entry of one equals one of the other */
    LLVMBuildStore(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, LLVMBuildOr(l->b, la, lb, ""), const_i64(l, 0), ""), c.same);
  LLVMValueRef same = LLVMBuildLoad2(l->b, l->mod->i1, c.same, "");
  /* a dict is equal to itself, NaN values and all, as Python's (whose == of items tries identity first) */
  same = LLVMBuildOr(l->b, same, LLVMBuildICmp(l->b, LLVMIntEQ, a, b, ""), "");
  return op == OP_EQ ? same : LLVMBuildNot(l->b, same, "");
}

/* get (ival 0), pop (1), setdefault (2), del d[k] (3) */
static LLVMValueRef lo_keyed(Lower *l, Node *n) {
  Node *x = n->list.items[0], *k = n->list.items[1];
  const Type *t = x->ty, *vt = value_of(t);
  LLVMValueRef d = lo_expr(l, x);
  LLVMValueRef kv = lo_expr(l, k), bits = key_bits(l, t, kv, k->ty);
  /* the default, owned where values hold references: the result's, or the dict's (of the
   * result's type: an Optional for a None default) */
  LLVMValueRef dflt = n->list.len > 2 ? lo_item_value(l, n->list.items[2], n->bi->ival == 2 ? vt : n->ty) : NULL;
  bool refs = ty_has_arrays(vt);
  LLVMValueRef result;
  if (n->bi->ival == 2) {  /* setdefault: the value there, or dflt stored */
    result = lo_alloca(l, lo_type(l, vt), "setdefault");
    LLVMValueRef at = lookup(l, d, bits);
    LLVMBasicBlockRef missing = new_block(l, "setdefault.missing"), found = new_block(l, "setdefault.found"),
                      done = new_block(l, "setdefault.done");
    LLVMBuildCondBr(l->b, LLVMBuildIsNull(l->b, at, ""), missing, found);
    position(l, missing);
    LLVMValueRef at_new = insert(l, t, d, bits);
    if (refs) lo_refcount(l, vt, dflt, true);  /* one for the dict, one for the result */
    store_value(l, vt, at_new, refs ? lo_keep_strs(l, vt, dflt) : dflt);
    LLVMBuildStore(l->b, dflt, result);
    LLVMBuildBr(l->b, done);
    position(l, found);
    if (refs) lo_refcount(l, vt, dflt, false);
    LLVMBuildStore(l->b, taken(l, vt, lo_load_scalar(l, vt, at)), result);
    LLVMBuildBr(l->b, done);
    position(l, done);
    result = LLVMBuildLoad2(l->b, lo_type(l, vt), result, "");
  } else if (!n->bi->ival && !dflt) {  /* get(k): the value, or None */
    LLVMValueRef at = lookup(l, d, bits);
    LLVMBasicBlockRef missing = LLVMGetInsertBlock(l->b), found = new_block(l, "get.found"),
                      done = new_block(l, "get.done");
    LLVMBuildCondBr(l->b, LLVMBuildIsNull(l->b, at, ""), done, found);
    position(l, found);
    LLVMValueRef v = lo_convert(l, taken(l, vt, lo_load_scalar(l, vt, at)), vt, n->ty);  /* the result's own */
    LLVMBasicBlockRef found_end = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    position(l, done);
    result = LLVMBuildPhi(l->b, lo_type(l, n->ty), "");
    LLVMAddIncoming(result, (LLVMValueRef[]){LLVMConstNull(lo_type(l, n->ty)), v},
                    (LLVMBasicBlockRef[]){missing, found_end}, 2);
  } else if (dflt) {  /* get or pop with a default */
    LLVMValueRef at = lookup(l, d, bits);
    LLVMBasicBlockRef missing = LLVMGetInsertBlock(l->b), found = new_block(l, "keyed.found"),
                      done = new_block(l, "keyed.done");
    LLVMBuildCondBr(l->b, LLVMBuildIsNull(l->b, at, ""), done, found);
    position(l, found);
    if (refs) lo_refcount(l, n->ty, dflt, false);
    LLVMValueRef v = lo_convert(l, taken(l, vt, lo_load_scalar(l, vt, at)), vt, n->ty);
    if (n->bi->ival == 1) {
      LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
      lo_call_fn(l, "rt_dict_delete", l->mod->i32, p, (LLVMValueRef[]){d, bits}, 2);
    }
    LLVMBasicBlockRef found_end = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
    position(l, done);
    result = LLVMBuildPhi(l->b, lo_type(l, n->ty), "");
    LLVMAddIncoming(result, (LLVMValueRef[]){dflt, v}, (LLVMBasicBlockRef[]){missing, found_end}, 2);
  } else {  /* pop(k), del d[k]: KeyError if missing */
    result = taken(l, vt, lo_load_scalar(l, vt, lookup_or_raise(l, t, d, bits)));
    LLVMTypeRef p[2] = {l->mod->ptr, l->mod->i64};
    lo_call_fn(l, "rt_dict_delete", l->mod->i32, p, (LLVMValueRef[]){d, bits}, 2);
  }
  lo_done_with(l, x, d);
  lo_done_with(l, k, kv);
  return result;
}

/* clear() (ival 0), copy() (1) */
static LLVMValueRef lo_dict_self(Lower *l, Node *n) {
  LLVMValueRef d = lo_expr(l, n->list.items[0]), r = LLVMGetUndef(l->mod->i8);
  if (n->bi->ival) {
    r = lo_call_fn(l, "rt_dict_copy", l->mod->ptr, &l->mod->ptr, &d, 1);
    lo_raise_if(l, LLVMBuildIsNull(l->b, r, ""), RT_ERR_MEMORY, NULL);
  } else {
    lo_call_fn(l, "rt_dict_clear", void_type(l), &l->mod->ptr, &d, 1);
  }
  lo_done_with(l, n->list.items[0], d);
  return r;
}

/* d.popitem(): the last entry, removed; KeyError when d is empty. */
static LLVMValueRef lo_popitem(Lower *l, Node *n) {
  const Type *t = n->list.items[0]->ty, *kt = key_of(t), *vt = value_of(t);
  LLVMValueRef d = lo_expr(l, n->list.items[0]);
  LLVMValueRef e = lo_call_fn(l, "rt_dict_popitem", l->mod->ptr, &l->mod->ptr, &d, 1);
  lo_raise_if(l, LLVMBuildIsNull(l->b, e, ""), RT_ERR_KEY, "popitem(): dictionary is empty");
  LLVMValueRef off = const_i64(l, 8);
  LLVMValueRef bits = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i8, e, &off, 1, ""), "");
  LLVMValueRef key = key_of_bits(l, kt, bits);  /* a str key's reference handed over */
  if (lo_key_in_memory(kt)) {  /* its RtTupleKey, read */
    LLVMValueRef t = LLVMBuildIntToPtr(l->b, bits, l->mod->ptr, "");
    lo_call_fn(l, "rt_tuple_key_free", void_type(l), &l->mod->ptr, &t, 1);
  }
  off = const_i64(l, RT_DICT_VALUE);
  LLVMValueRef v = lo_load_scalar(l, vt, LLVMBuildGEP2(l->b, l->mod->i8, e, &off, 1, ""));
  LLVMValueRef tup = LLVMBuildInsertValue(l->b, LLVMGetUndef(lo_type(l, n->ty)), key, 0, "");
  lo_done_with(l, n->list.items[0], d);
  return LLVMBuildInsertValue(l->b, tup, v, 1, "");
}

static LLVMValueRef lo_update(Lower *l, Node *n) {
  LLVMValueRef d = lo_expr(l, n->list.items[0]), e = lo_expr(l, n->list.items[1]);
  if (n->list.items[1]->ty->nfields) {
    settle(l, n->list.items[1]->ty, d);
    LLVMTypeRef p[2] = {l->mod->ptr, l->mod->ptr};
    lo_check_call(l, lo_call_fn(l, "rt_dict_update", l->mod->i32, p, (LLVMValueRef[]){d, e}, 2));
  }
  lo_done_with(l, n->list.items[1], e);
  lo_done_with(l, n->list.items[0], d);
  return LLVMGetUndef(l->mod->i8);
}

/* d.keys(), d.values(), d.items(): d itself, one more reference to it (ty_view). */
static LLVMValueRef lo_view(Lower *l, Node *n) { return lo_owned(l, n->list.items[0]); }

/* A new list of x's keys, values or items (part), each of type elem (x a dict or a view of one). */
LLVMValueRef lo_dict_parts(Lower *l, Node *x, int part, const Type *elem) {
  LLVMValueRef d = lo_expr(l, x), len = lo_container_len(l, x->ty, d);
  LLVMValueRef lst = lo_list_new(l, elem, len);
  lo_temp_made(l, ty_list(elem), lst);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), len, NULL, "dict.parts");
  lo_list_append(l, elem, lst, entry_at(l, dict_seen(x->ty), d, loop.index, part, elem));
  lo_loop_end(l, &loop);
  lo_temp_taken(l, lst);
  lo_done_with(l, x, d);
  return lst;
}

/* What sets.c shares: a set is a dict of its items to nothing. */
LLVMValueRef lo_dict_new(Lower *l, const Type *t) { return new_dict(l, t); }
LLVMValueRef lo_dict_key_bits(Lower *l, const Type *d, LLVMValueRef k, const Type *kt) { return key_bits(l, d, k, kt); }
LLVMValueRef lo_dict_insert(Lower *l, const Type *t, LLVMValueRef d, LLVMValueRef bits) { return insert(l, t, d, bits); }
LLVMValueRef lo_dict_key_of_bits(Lower *l, const Type *key, LLVMValueRef bits) { return key_of_bits(l, key, bits); }
bool lo_key_in_memory(const Type *key) { return key->kind == TY_TUPLE || ty_is_complex(key); }
bool ty_dict_key_tuple(const Type *k) { return key_tuple(k); }

/* dict(): an empty dict, as {} */
static const Type *ty_dict_call(Infer *in, Node *n, const Type **args) { return ty_dict_literal(in, n, args); }

/* The type typed.Dict.empty() takes as t: a type (named, or held by a
 * variable), or a value's type where a value is given in its place, as
 * Numba's takes one (hftbacktest's Dict.empty(int64, np.empty((0, 0)))). */
static const Type *empty_dict_item(Infer *in, Node *t) {
  if (t->ty->kind != TY_DTYPE) return t->ty;
  if (t->ty->elem->kind == TY_RECORD)
    return ty_error(in, t, "typed.Dict.empty() in compiled code takes number types or unicode_type "
                    "(types.int64, numpy.float32, ...), got %s", t->ty->name);
  return t->ty->elem;
}

/* typed.Dict.empty(key_type, value_type) in compiled code: an empty dict of
 * those types (ruchey or NumPy number types), or of the values' given. */
static const Type *ty_empty_dict(Infer *in, Node *n, const Type **args) {
  Node *k = bi_arg(n, 0, "key_type"), *v = bi_arg(n, 1, "value_type");
  if (ty_no_allocation(in)) return ty_error(in, n, "kernels cannot make dicts");
  if (!k || !v) return ty_error(in, n, "typed.Dict.empty() takes key_type and value_type");
  const Type *key = empty_dict_item(in, k), *value = key ? empty_dict_item(in, v) : NULL;
  if (!value || !need_key(in, k, key) || !ty_container_item(in, v, value, "dict values")) return NULL;
  return ty_dict(key, value);
}

static LLVMValueRef lo_empty_dict(Lower *l, Node *n) { return new_dict(l, n->ty); }

/* ---------------------------------------------------------------- lowering literal dicts */

/* The tuple of its values, each evaluated in order; a value a later entry
 * of the same key replaces is dropped. */
static LLVMValueRef lo_literal_dict(Lower *l, Node *n) {
  LLVMValueRef r = LLVMGetUndef(lo_type(l, n->ty)), *held = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * 64);
  int nheld = 0;
  for (int i = 0; i + 1 < n->list.len; i += 2) {
    Node *v = n->list.items[i + 1];
    LLVMValueRef val = lo_owned(l, v);
    if (last_entry(n, i) != i) {
      lo_refcount(l, v->ty, val, false);
      continue;
    }
    if (ty_has_arrays(v->ty)) lo_temp_made(l, v->ty, held[nheld++] = val);  /* released if a later value raises */
    r = LLVMBuildInsertValue(l->b, r, val, (unsigned)key_index(n->ty, n->list.items[i]->str), "");
  }
  for (int i = 0; i < nheld; i++) lo_temp_taken(l, held[i]);
  return r;
}

/* Key i of literal dict d as a str value (a constant, never released). */
static LLVMValueRef key_str(Lower *l, const Type *d, int i) {
  Node k = {.kind = N_STRING, .str = d->names[i], .ival = (int64_t)strlen(d->names[i])};
  return lo_str_constant(l, &k);
}

/* Key i (an i64 value) of literal dict d, read from a constant table of its keys. */
static LLVMValueRef key_at(Lower *l, const Type *d, LLVMValueRef i) {
  LLVMTypeRef table_type = LLVMArrayType2(l->mod->ptr, (uint64_t)d->nfields);
  LLVMValueRef *keys = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(d->nfields + 1));
  for (int k = 0; k < d->nfields; k++) keys[k] = key_str(l, d, k);
  LLVMValueRef table = LLVMAddGlobal(l->mod->m, table_type, "literal_dict.keys");
  LLVMSetInitializer(table, LLVMConstArray2(l->mod->ptr, keys, (uint64_t)d->nfields));
  LLVMSetGlobalConstant(table, 1);
  LLVMSetLinkage(table, LLVMPrivateLinkage);
  LLVMValueRef at[2] = {const_i64(l, 0), i};
  return LLVMBuildLoad2(l->b, l->mod->ptr, LLVMBuildGEP2(l->b, table_type, table, at, 2, ""), "");
}

/* d[k], or the key at a for loop's counter (a str constant, never released) */
LLVMValueRef lo_literal_dict_index(Lower *l, Node *n) {
  if (n->str) return key_at(l, n->lhs->ty, lo_expr_as(l, n->rhs, TYS(TY_I64)));
  LLVMValueRef v = lo_expr(l, n->lhs);
  LLVMValueRef r = LLVMBuildExtractValue(l->b, v, (unsigned)key_index(n->lhs->ty, n->rhs->str), "");
  lo_refcount(l, n->ty, r, true);
  lo_done_with(l, n->lhs, v);
  return r;
}

/* k in d: known when compiled for a constant k, else k compared with each key. */
LLVMValueRef lo_literal_dict_contains(Lower *l, Node *n) {
  Node *k = n->list.items[0];
  const Type *d = n->list.items[1]->ty;
  if (k->kind == N_STRING) return const_bool(l, key_index(d, k->str) >= 0);
  LLVMValueRef kv = lo_expr(l, k), r = const_bool(l, false);
  for (int i = 0; k->ty->kind == TY_STR && i < d->nfields; i++)  /* (a key of another type is never equal) */
    r = LLVMBuildOr(l->b, r, lo_str_compare_values(l, OP_EQ, kv, k->ty, key_str(l, d, i), TYS(TY_STR)), "");
  lo_done_with(l, k, kv);
  return r;
}

/* d.keys(), d.values(), d.items(): the tuple of its keys, values or pairs. */
static LLVMValueRef lo_literal_view(Lower *l, Node *n) {
  const Type *d = n->list.items[0]->ty;
  LLVMValueRef v = lo_owned(l, n->list.items[0]), r = LLVMGetUndef(lo_type(l, n->ty));
  for (int i = 0; i < d->nfields; i++) {
    LLVMValueRef part = n->bi->ival == DICT_VALUES ? LLVMBuildExtractValue(l->b, v, (unsigned)i, "") : key_str(l, d, i);
    if (n->bi->ival == DICT_ITEMS) {
      part = LLVMBuildInsertValue(l->b, LLVMGetUndef(lo_type(l, n->ty->fields[i])), part, 0, "");
      part = LLVMBuildInsertValue(l->b, part, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), 1, "");
    }
    r = LLVMBuildInsertValue(l->b, r, part, (unsigned)i, "");
  }
  if (n->bi->ival == DICT_KEYS) lo_refcount(l, d, v, false);  /* the values, which the keys' tuple does not hold */
  return r;
}

/* a == b or a != b of literal dicts (ty_literal_dict_compare's). */
LLVMValueRef lo_literal_dict_compare(Lower *l, int op, LLVMValueRef a, const Type *ta, LLVMValueRef b, const Type *tb) {
  if (!same_keys(ta, tb)) return const_bool(l, op == OP_NE);
  return lo_tuple_compare(l, op, a, values_of(ta), b, values_of(tb));
}

/* ---------------------------------------------------------------- the rows */

static const char *const empty_dict_kw[] = {"key_type", "value_type", "n_keys", NULL};

#define DICT_METHOD(name, lo, hi, flags, ival, type, lower) \
  {"dict." name, NULL, name, BK_METHOD, TY_DICT, lo, hi, NULL, (flags) | BF_COMPLEX, ival, 0, type, lower}
#define LITERAL_DICT_METHOD(name, lo, hi, flags, ival, type, lower) \
  {"dict." name, NULL, name, BK_METHOD, TY_LITDICT, lo, hi, NULL, (flags) | BF_COMPLEX, ival, 0, type, lower}

const Builtin bi_dicts[] = {
  /* BF_COMPLEX: complex values are plain numbers to them (need_key refuses complex keys) */
  {"dict literal", NULL, NULL, BK_FUNCTION, 0, 0, 1 << 20, NULL, BF_RAISES | BF_COMPLEX, 0, 0, ty_dict_literal,
   lo_dict_literal},
  {"dict", "builtins", "dict", BK_FUNCTION, 0, 0, 0, NULL, BF_RAISES, 0, 0, ty_dict_call, lo_dict_literal},
  {"typed.Dict", "ruchey.typed", "Dict", BK_FUNCTION, 0, 0, 0, NULL, BF_RAISES, 0, 0, ty_dict_call, lo_dict_literal},
  {"typed.Dict.empty", "ruchey.typed", "Dict.empty", BK_FUNCTION, 0, 0, 3, empty_dict_kw, BF_RAISES | BF_COMPLEX, 0, 0,
   ty_empty_dict, lo_empty_dict},
  /* BF_STRINGS: a constant string argument is a str key, not a dtype's name; BF_LISTS: [1, 2] a list */
  /* BF_NONE: get(k, None) and pop(k, None) are Optionals */
  DICT_METHOD("get", 1, 2, BF_STRINGS | BF_LISTS | BF_NONE, 0, ty_get, lo_keyed),
  DICT_METHOD("pop", 1, 2, BF_RAISES | BF_STRINGS | BF_LISTS | BF_NONE, 1, ty_keyed, lo_keyed),
  DICT_METHOD("setdefault", 2, 2, BF_RAISES | BF_STRINGS | BF_LISTS, 2, ty_keyed, lo_keyed),
  DICT_METHOD("__delitem__", 1, 1, BF_RAISES | BF_STRINGS, 3, ty_keyed, lo_keyed),
  DICT_METHOD("popitem", 0, 0, BF_RAISES, 0, ty_popitem, lo_popitem),
  DICT_METHOD("update", 1, 1, BF_RAISES, 0, ty_update, lo_update),
  DICT_METHOD("clear", 0, 0, 0, 0, ty_dict_self, lo_dict_self),
  DICT_METHOD("copy", 0, 0, BF_RAISES, 1, ty_dict_self, lo_dict_self),
  DICT_METHOD("keys", 0, 0, BF_RAISES, DICT_KEYS, ty_view, lo_view),
  DICT_METHOD("values", 0, 0, BF_RAISES, DICT_VALUES, ty_view, lo_view),
  DICT_METHOD("items", 0, 0, BF_RAISES, DICT_ITEMS, ty_view, lo_view),
  LITERAL_DICT_METHOD("keys", 0, 0, 0, DICT_KEYS, ty_literal_view, lo_literal_view),
  LITERAL_DICT_METHOD("values", 0, 0, 0, DICT_VALUES, ty_literal_view, lo_literal_view),
  LITERAL_DICT_METHOD("items", 0, 0, 0, DICT_ITEMS, ty_literal_view, lo_literal_view),
  LITERAL_DICT_METHOD("copy", 0, 0, 0, 0, ty_literal_copy, lo_first_argument),
  LITERAL_DICT_METHOD("get", 0, 2, BF_STRINGS | BF_LISTS, 0, ty_literal_get, NULL),
  /* the methods that would change it: Numba's TypingError */
  LITERAL_DICT_METHOD("pop", 0, 2, BF_STRINGS | BF_LISTS, 0, ty_literal_mutation, NULL),
  LITERAL_DICT_METHOD("popitem", 0, 0, 0, 0, ty_literal_mutation, NULL),
  LITERAL_DICT_METHOD("setdefault", 0, 2, BF_STRINGS | BF_LISTS, 0, ty_literal_mutation, NULL),
  LITERAL_DICT_METHOD("__delitem__", 0, 1, BF_STRINGS, 0, ty_literal_mutation, NULL),
  LITERAL_DICT_METHOD("update", 0, 1, 0, 0, ty_literal_mutation, NULL),
  LITERAL_DICT_METHOD("clear", 0, 0, 0, 0, ty_literal_mutation, NULL),
  BI_END,
};
