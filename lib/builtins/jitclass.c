/* builtins/jitclass.c — jitclass instances (ruchey.experimental.jitclass),
 * as Numba's: a reference-counted object (RtObject, containers.h) whose
 * fields lie after its header at the type's offsets. p.x reads and
 * p.x = v writes a field in place, so every holder of the object sees it;
 * methods and property getters are ruchey functions taking the object
 * first, found through the extension (opts->find_member, which asks the
 * class); a property's setter is called for p.x = v. The class called in
 * compiled code is its constructor, a ruchey function the extension made,
 * which makes the object with the "jitclass new" row and runs __init__.
 */
#include <limits.h>
#include <stdio.h>

#include "builtins/builtins.h"
#include "containers.h"

static int field_index(const Type *c, const char *name) {
  for (int i = 0; i < c->nfields; i++)
    if (!strcmp(c->names[i], name)) return i;
  return -1;
}

static const char *class_name(const Type *c) { return c->names[c->nfields]; }

/* ---------------------------------------------------------------- the references a field holds */

/* Where an object of class c holds counted memory (rt_held_fields' kinds
 * and offsets, in the arena); their number. */
static int held_of_class(Lower *l, const Type *c, int32_t **kinds, int64_t **offsets) {
  int n = 0;
  for (int i = 0; i < c->nfields; i++) n = rt_held_fields(c->fields[i], 0, n, INT_MAX, NULL, NULL);
  *kinds = arena_alloc(l->f->arena, sizeof(int32_t) * (size_t)(n ? n : 1));
  *offsets = arena_alloc(l->f->arena, sizeof(int64_t) * (size_t)(n ? n : 1));
  n = 0;
  for (int i = 0; i < c->nfields; i++)
    n = rt_held_fields(c->fields[i], (int64_t)c->offsets[i], n, INT_MAX, *kinds, *offsets);
  return n;
}

/* ---------------------------------------------------------------- making one */

static const Type *ty_new(Infer *in, Node *n, const Type **args) {
  const Type *c = n->data;
  if (!ty_jitclass_defined(c))
    return ty_error(in, n, "jitclass %s: a deferred_type in its spec is not defined yet (its define() is called "
                    "before the class is used)", class_name(c));
  return c;
}

static LLVMValueRef const_array_of(Lower *l, LLVMTypeRef elem, LLVMValueRef *items, unsigned n) {
  LLVMTypeRef at = LLVMArrayType2(elem, n ? n : 1);
  LLVMValueRef g = LLVMAddGlobal(l->mod->m, at, "jitclass.held");
  LLVMSetInitializer(g, n ? LLVMConstArray2(elem, items, n) : LLVMConstNull(at));
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  return g;
}

/* rt_object_new(bytes, nheld, kinds, offsets): zeroed fields, MemoryError if none */
static LLVMValueRef lo_new(Lower *l, Node *n) {
  const Type *c = n->ty;
  int32_t *held_kinds;
  int64_t *held_offsets;
  int nheld = held_of_class(l, c, &held_kinds, &held_offsets);
  LLVMValueRef *kinds = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(nheld ? nheld : 1));
  LLVMValueRef *offsets = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)(nheld ? nheld : 1));
  for (int i = 0; i < nheld; i++) {
    kinds[i] = LLVMConstInt(l->mod->i32, (unsigned long long)held_kinds[i], 0);
    offsets[i] = const_i64(l, held_offsets[i]);
  }
  LLVMTypeRef params[4] = {l->mod->i64, l->mod->i32, l->mod->ptr, l->mod->ptr};
  LLVMValueRef args[4] = {const_i64(l, c->bits), LLVMConstInt(l->mod->i32, (unsigned long long)nheld, 0),
                          const_array_of(l, l->mod->i32, kinds, (unsigned)nheld),
                          const_array_of(l, l->mod->i64, offsets, (unsigned)nheld)};
  LLVMValueRef o = lo_call_fn(l, "rt_object_new", l->mod->ptr, params, args, 4);
  lo_raise_if(l, LLVMBuildIsNull(l->b, o, ""), RT_ERR_MEMORY, NULL);
  return o;
}

/* ---------------------------------------------------------------- fields */

static const Type *ty_field(Infer *in, Node *n, const Type **args) { return args[0]->fields[n->ival]; }

static LLVMValueRef field_addr(Lower *l, Node *target, LLVMValueRef obj) {
  LLVMValueRef off = const_i64(l, (int64_t)target->lhs->ty->offsets[target->ival]);
  return LLVMBuildGEP2(l->b, l->mod->i8, obj, &off, 1, "field");
}

/* A field's value: one more reference to what it holds (lo_is_fresh says
 * so), so that it outlives an object that goes first (make().items). */
static LLVMValueRef lo_field(Lower *l, Node *n) {
  LLVMValueRef obj = lo_expr(l, n->lhs);
  LLVMValueRef v = lo_load_storage(l, n->ty, field_addr(l, n, obj));
  if (ty_has_arrays(n->ty)) lo_refcount(l, n->ty, v, true);
  lo_done_with(l, n->lhs, obj);
  return v;
}

static const Builtin class_field = {"jitclass field", NULL, NULL, BK_ATTRIBUTE, TY_CLASS, 0, 0, NULL,
                                    BF_CHEAP | BF_COMPLEX, 0, 0, ty_field, lo_field};

bool ty_is_jitclass_field(const Node *n) { return n->kind == N_ATTR && n->bi == &class_field; }

/* ---------------------------------------------------------------- methods as values */

static void *member(Infer *in, const Type *c, const char *name, bool attribute);

/* p.m, not called: the object p, typed as its method m (TY_BOUND), which
 * the function it is handed to calls (_gamma_helper(a, self.random)), as
 * Numba's BoundFunction. It holds p's reference: fresh where p is. */
static const Type *ty_bound(Infer *in, Node *n, const Type **args) {
  void *method = member(in, args[0], n->str, false);
  if (!method) return ty_error(in, n, "jitclass %s has no method '%s'", class_name(args[0]), n->str);
  return ty_bound_method(args[0], method, n->str);
}

/* m.__self__ of a method as a value: its object, fresh where m is. */
static const Type *ty_self(Infer *in, Node *n, const Type **args) {
  (void)in, (void)n;
  return args[0]->elem;
}

static LLVMValueRef lo_same_object(Lower *l, Node *n) { return lo_expr(l, n->lhs); }

static const Builtin bound_method = {"a method as a value", NULL, NULL, BK_ATTRIBUTE, TY_CLASS, 0, 0, NULL,
                                     BF_CHEAP, 0, 0, ty_bound, lo_same_object};
static const Builtin bound_self = {"__self__", NULL, NULL, BK_ATTRIBUTE, TY_BOUND, 0, 0, NULL, BF_CHEAP, 0, 0,
                                   ty_self, lo_same_object};

bool ty_holds_object_of(const Node *n) { return n->kind == N_ATTR && (n->bi == &bound_method || n->bi == &bound_self); }

/* m.__self__ read (a call through m passes it first) */
const Type *ty_bound_attr(Infer *in, Node *n, const Type *m) {
  if (strcmp(n->str, "__self__")) return ty_error(in, n, "%s has no attribute '%s'", m->name, n->str);
  n->bi = &bound_self;
  return ty_self(in, n, &m);
}

Node *ty_bound_self(Infer *in, Node *m) {
  Node *self = arena_alloc(in->f->arena, sizeof(Node));
  *self = (Node){.kind = N_ATTR, .line = m->line, .col = m->col, .lhs = m, .str = "__self__"};
  return self;
}

/* p.name: a field, else a method's or property's getter (a call now), else
 * a method as a value, else an error naming the class */
const Type *ty_jitclass_attr(Infer *in, Node *n, const Type *c) {
  n->ival = field_index(c, n->str);
  if (n->ival >= 0) {
    n->bi = &class_field;
    return ty_field(in, n, &c);
  }
  if (ty_extension_member(in, n, c)) return ty_expr(in, n);
  if (member(in, c, n->str, false)) {
    n->bi = &bound_method;
    return ty_bound(in, n, &c);
  }
  return ty_error(in, n, "jitclass %s has no attribute '%s'", class_name(c), n->str);
}

/* Whether a value of t may be stored in a field of type f: numbers convert
 * (as Numba casts them; complex only to complex), others unify with it. A
 * readonly array fits a field of the writable type, as in Numba, whose
 * setattr leaves the conversion to a cast that keeps the same data (skan
 * stores np.broadcast_to(1.0, n) in a float64[:] field it only reads). */
static bool fits(const Type *t, const Type *f) {
  if (ty_is_scalar(t) && ty_is_scalar(f)) return !ty_is_complex(t) || ty_is_complex(f);
  if (t->kind == TY_ARRAY && t->readonly && f->kind == TY_ARRAY && !f->readonly)
    t = ty_array(t->elem, t->ndim, t->layout, false);
  if (f->kind == TY_OPTIONAL && (t->kind == TY_NONE || fits(t, f->elem))) return true;
  return t == f || ty_unify(f, t) == f;
}

/* A member the class gives compiled code (opts->find_member): a method
 * (attribute false), a property's getter, or its setter (asked as "=name"). */
static void *member(Infer *in, const Type *c, const char *name, bool attribute) {
  return in->opts && in->opts->find_member ? in->opts->find_member(in->opts->resolve_ctx, c, name, attribute) : NULL;
}

/* p.f(args) of a field f holding a first-class function (FunctionType):
 * a call through its address, n's receiver made the field's read; NULL if
 * f is no such field. */
static const Builtin *funcptr_field_call(Infer *in, Node *n, const Type *c) {
  int i = field_index(c, n->str);
  if (i < 0 || c->fields[i]->kind != TY_FUNCPTR) return NULL;
  Node *field = arena_alloc(in->f->arena, sizeof(Node));
  *field = (Node){.kind = N_ATTR, .line = n->line, .col = n->col, .lhs = n->list.items[0], .str = n->str};
  if (!ty_expr(in, field)) return NULL;
  n->lhs = field;
  n->list.items++;  /* the arguments after the receiver */
  n->list.len--;
  return n->bi = bi_named("a call through a function pointer");
}

/* p.name(args), n the call (p first): the method's ruchey function, its
 * keywords and defaults bound as Python binds them; NULL if there is none. */
const Builtin *ty_jitclass_method(Infer *in, Node *n, const Type *c) {
  void *callee = member(in, c, n->str, false);
  if (!callee) return funcptr_field_call(in, n, c);
  Diag d = {0};
  if (in->opts->bind_call && !in->opts->bind_call(in->opts->resolve_ctx, callee, n, &d)) {
    ty_error(in, n, "%s", d.msg);
    return NULL;
  }
  n->callee = callee;
  return n->bi = bi_named("a ruchey function");
}

/* p.name = v, or p.name op= v (at: where v is written): a field's store */
void ty_jitclass_store(Infer *in, Node *target, const Type *t, Node *at) {
  const Type *c = target->lhs->ty;
  if (!ty_is_jitclass_field(target)) {
    ty_error(in, target, "jitclass %s has no field '%s' to assign", class_name(c), target->str);
    return;
  }
  const Type *f = c->fields[target->ival];
  if (!fits(t, f))
    ty_error(in, at, "cannot assign %s to field '%s' of jitclass %s (a %s)", t->name, target->str, class_name(c),
             f->name);
}

/* p.name = v, n the statement, where name is no field: the statement made
 * a call of the property's setter; false (no error) for a field. */
bool ty_jitclass_setter(Infer *in, Node *n, const Type *c) {
  Node *target = n->lhs;
  if (field_index(c, target->str) >= 0) return false;
  char key[256];
  snprintf(key, sizeof key, "=%s", target->str);
  void *setter = member(in, c, key, true);
  if (!setter && member(in, c, target->str, true))
    ty_error(in, target, "property '%s' of jitclass %s has no setter", target->str, class_name(c));
  else if (!setter)
    ty_error(in, target, "jitclass %s has no field '%s' (a jitclass's fields are those of its spec)", class_name(c),
             target->str);
  if (!setter) return true;
  Node **args = arena_alloc(in->f->arena, 2 * sizeof(Node *));
  args[0] = target->lhs;
  args[1] = n->rhs;
  Node *call = arena_alloc(in->f->arena, sizeof(Node));
  *call = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .list = {args, 2}, .callee = setter,
                 .bi = bi_named("a ruchey function")};
  *n = (Node){.kind = N_EXPR, .line = n->line, .col = n->col, .lhs = call};
  ty_expr(in, call);
  return true;
}

/* p.x op= v of an Optional field x, p a variable: the statement made
 * p.x = p.x op v (the read unwraps it, as any Optional's); false for
 * anything else. */
bool ty_jitclass_optional_update(Infer *in, Node *n) {
  Node *target = n->lhs;
  if (target->kind != N_ATTR || target->lhs->kind != N_VAR) return false;
  const Type *c = ty_expr(in, target->lhs);
  int i = c && c->kind == TY_CLASS ? field_index(c, target->str) : -1;
  if (i < 0 || c->fields[i]->kind != TY_OPTIONAL) return false;
  Node *read = arena_alloc(in->f->arena, sizeof(Node)), *op = arena_alloc(in->f->arena, sizeof(Node));
  *read = *target;
  *op = (Node){.kind = N_BINOP, .line = n->line, .col = n->col, .op = n->op, .lhs = read, .rhs = n->rhs};
  n->kind = N_ASSIGN;
  n->rhs = op;
  return true;
}

/* ---------------------------------------------------------------- special methods */

/* What an operator, a builtin or an index calls on a jitclass instance, as
 * Python calls it: the method of that name, the instance first. */
static const char *const binop_methods[OP_COUNT][2] = {  /* the method, and the reflected one */
  [OP_ADD] = {"__add__", "__radd__"}, [OP_SUB] = {"__sub__", "__rsub__"}, [OP_MUL] = {"__mul__", "__rmul__"},
  [OP_DIV] = {"__truediv__", "__rtruediv__"}, [OP_FLOORDIV] = {"__floordiv__", "__rfloordiv__"},
  [OP_MOD] = {"__mod__", "__rmod__"}, [OP_POW] = {"__pow__", "__rpow__"},
  [OP_LSHIFT] = {"__lshift__", "__rlshift__"}, [OP_RSHIFT] = {"__rshift__", "__rrshift__"},
  [OP_BITAND] = {"__and__", "__rand__"}, [OP_BITOR] = {"__or__", "__ror__"}, [OP_BITXOR] = {"__xor__", "__rxor__"},
};
/* a op= b: a's in-place method, else a op b (Python's fallback) */
static const char *const inplace_methods[OP_COUNT] = {
  [OP_ADD] = "__iadd__", [OP_SUB] = "__isub__", [OP_MUL] = "__imul__", [OP_DIV] = "__itruediv__",
  [OP_FLOORDIV] = "__ifloordiv__", [OP_MOD] = "__imod__", [OP_POW] = "__ipow__", [OP_LSHIFT] = "__ilshift__",
  [OP_RSHIFT] = "__irshift__", [OP_BITAND] = "__iand__", [OP_BITOR] = "__ior__", [OP_BITXOR] = "__ixor__",
};
static const char *const compare_methods[OP_COUNT] = {
  [OP_EQ] = "__eq__", [OP_NE] = "__ne__", [OP_LT] = "__lt__", [OP_LE] = "__le__", [OP_GT] = "__gt__", [OP_GE] = "__ge__",
};
static const char *const unary_methods[OP_COUNT] = {
  [OP_NEG] = "__neg__", [OP_POS] = "__pos__", [OP_INVERT] = "__invert__",
};
/* a builtin's method, then those Python falls back on where the class lacks it (complex(p) of a class
 * with __float__ alone is complex(p.__float__())) */
static const struct { const char *builtin, *methods[3]; } builtin_methods[] = {
  {"len", {"__len__"}}, {"abs", {"__abs__"}}, {"float", {"__float__", "__index__"}}, {"int", {"__int__", "__index__"}},
  {"complex", {"__complex__", "__float__", "__index__"}}, {"hash", {"__hash__"}}, {"str", {"__str__"}},
};

/* n made the call receiver.method(args...) and typed; a TypingError naming
 * the class where it has no such method. */
static const Type *special_call(Infer *in, Node *n, const char *method, Node *const *args, int nargs, const char *what) {
  const Type *c = args[0]->ty;
  if (!member(in, c, method, false))
    return ty_error(in, n, "%s of jitclass %s needs its method %s, which it does not define", what, class_name(c),
                    method);
  Node **list = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)nargs);
  memcpy(list, args, sizeof(Node *) * (size_t)nargs);
  *n = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .list = {list, nargs}, .str = method};
  return ty_expr(in, n);
}

/* Whether x is a jitclass instance defining method. */
static bool defines(Infer *in, const Node *x, const char *method) {
  return x->ty->kind == TY_CLASS && member(in, x->ty, method, false);
}

/* a op b: a's method, else b's reflected one, as Python tries them */
const Type *ty_jitclass_binop(Infer *in, Node *n) {
  const char *const *m = binop_methods[n->op];
  if (!m[0]) return ty_error(in, n, "this operator is not supported on jitclass instances");
  Node *args[2] = {n->lhs, n->rhs}, *reflected[2] = {n->rhs, n->lhs};
  if (defines(in, n->rhs, m[1]) && !defines(in, n->lhs, m[0])) return special_call(in, n, m[1], reflected, 2, "this operator");
  return special_call(in, n, m[0], n->lhs->ty->kind == TY_CLASS ? args : reflected, 2, "this operator");
}

/* x op= v where x (a variable, or a field of one) or v is an instance,
 * both typed: the statement made x = x.__iop__(v) where x's class defines
 * that method, else x = x op v (its __op__, or v's reflected one), as
 * Python runs it; false for any other target, whose reads the rewrite
 * would repeat. */
bool ty_jitclass_update(Infer *in, Node *n) {
  Node *target = n->lhs;
  if (target->kind != N_VAR && !(target->kind == N_ATTR && target->lhs->kind == N_VAR)) return false;
  Node *read = arena_alloc(in->f->arena, sizeof(Node)), *value = arena_alloc(in->f->arena, sizeof(Node));
  *read = *target;
  const char *method = inplace_methods[n->op];
  if (method && defines(in, read, method)) {
    Node **args = arena_alloc(in->f->arena, 2 * sizeof(Node *));
    args[0] = read;
    args[1] = n->rhs;
    *value = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .list = {args, 2}, .str = method};
  } else {
    *value = (Node){.kind = N_BINOP, .line = n->line, .col = n->col, .op = n->op, .lhs = read, .rhs = n->rhs};
  }
  n->kind = N_ASSIGN;
  n->rhs = value;
  return true;
}

/* -a, +a, ~a: a's __neg__, __pos__, __invert__ */
const Type *ty_jitclass_unary(Infer *in, Node *n) {
  const char *m = unary_methods[n->op];
  if (!m) return ty_error(in, n, "this operator is not supported on jitclass instances");
  return special_call(in, n, m, &n->lhs, 1, "this operator");
}

/* n, a != b where neither defines __ne__, made not (a == b): Python's
 * default __ne__ inverts __eq__. */
static const Type *ne_as_not_eq(Infer *in, Node *n) {
  Node *eq = arena_alloc(in->f->arena, sizeof(Node));
  *eq = *n;
  eq->ops = arena_alloc(in->f->arena, sizeof(int));
  eq->ops[0] = OP_EQ;
  *n = (Node){.kind = N_UNARY, .line = n->line, .col = n->col, .op = OP_NOT, .lhs = eq};
  return ty_expr(in, n);
}

/* a < b: a's __lt__, else b's __gt__ (the mirrored comparison) */
const Type *ty_jitclass_compare(Infer *in, Node *n) {
  static const int mirror[OP_COUNT] = {[OP_EQ] = OP_EQ, [OP_NE] = OP_NE, [OP_LT] = OP_GT, [OP_LE] = OP_GE,
                                       [OP_GT] = OP_LT, [OP_GE] = OP_LE};
  if (n->list.len != 2) return ty_error(in, n, "a chained comparison of jitclass instances is not supported");
  Node *a = n->list.items[0], *b = n->list.items[1], *args[2] = {a, b}, *reflected[2] = {b, a};
  const char *m = compare_methods[n->ops[0]], *r = compare_methods[mirror[n->ops[0]]];
  if (!m) return ty_error(in, n, "this comparison is not supported on jitclass instances");
  if (n->ops[0] == OP_NE && !defines(in, a, m) && !defines(in, b, r) &&
      (defines(in, a, "__eq__") || defines(in, b, "__eq__")))
    return ne_as_not_eq(in, n);
  if (defines(in, b, r) && !defines(in, a, m)) return special_call(in, n, r, reflected, 2, "a comparison");
  return special_call(in, n, m, a->ty->kind == TY_CLASS ? args : reflected, 2, "a comparison");
}

/* The truth of c, an instance (or an Optional one, None false), as Python
 * reads it: __bool__(), else __len__() (its truth), else true. c is made
 * that call, or `c is not None`, where an instance is always true. */
const Type *ty_jitclass_truth(Infer *in, Node *c) {
  const Type *t = c->ty->kind == TY_OPTIONAL ? c->ty->elem : c->ty;
  const char *m = member(in, t, "__bool__", false) ? "__bool__" : member(in, t, "__len__", false) ? "__len__" : NULL;
  Node *x = arena_alloc(in->f->arena, sizeof(Node));
  *x = *c;
  if (!m) {
    *c = (Node){.kind = N_IS_NONE, .line = x->line, .col = x->col, .lhs = x, .ival = 1};
    return ty_expr(in, c);
  }
  if (c->ty->kind == TY_OPTIONAL)
    return ty_error(in, c, "the truth of an Optional jitclass %s defining %s is not supported: test `is not None` "
                    "and then %s() apart", class_name(t), m, strcmp(m, "__len__") ? "bool" : "len");
  return special_call(in, c, m, &x, 1, "truth");
}

/* v in p: p.__contains__(v) */
const Type *ty_jitclass_contains(Infer *in, Node *n) {
  Node *args[2] = {n->list.items[1], n->list.items[0]};
  return special_call(in, n, "__contains__", args, 2, "'in'");
}

/* The first of methods x's class defines, as Python tries them; the
 * first where it defines none (the error names it). */
static const char *method_defined(Infer *in, const Node *x, const char *const *methods) {
  for (int k = 0; k < 3 && methods[k]; k++)
    if (defines(in, x, methods[k])) return methods[k];
  return methods[0];
}

/* len(p) and the like: NULL (no error) where the builtin has no special method */
const Type *ty_jitclass_builtin(Infer *in, Node *n) {
  if (!strcmp(n->bi->name, "bool") && n->list.len == 1 && !n->kw.len)  /* bool(p): p's truth */
    return ty_jitclass_truth(in, n->list.items[0]) ? ty_expr(in, n) : NULL;
  for (size_t i = 0; i < sizeof builtin_methods / sizeof builtin_methods[0]; i++) {
    if (strcmp(n->bi->name, builtin_methods[i].builtin) || n->list.len != 1 || n->kw.len) continue;
    const char *method = method_defined(in, n->list.items[0], builtin_methods[i].methods);
    if (method == builtin_methods[i].methods[0]) return special_call(in, n, method, n->list.items, 1, n->bi->name);
    Node *x = n->list.items[0], *self = arena_alloc(in->f->arena, sizeof(Node));  /* float(p.__index__()) */
    *self = *x;
    return special_call(in, x, method, &self, 1, n->bi->name) ? ty_expr(in, n) : NULL;
  }
  return NULL;
}

Node *ty_slice_value(Infer *in, Node *key) {
  if (key->kind != N_SLICE) return key;
  Node *parts[3] = {key->lhs, key->rhs, key->cond};
  Node **list = arena_alloc(in->f->arena, sizeof(Node *) * 3);
  for (int k = 0; k < 3; k++) {
    list[k] = parts[k];
    if (list[k]) continue;
    list[k] = arena_alloc(in->f->arena, sizeof(Node));
    *list[k] = (Node){.kind = N_NONE, .line = key->line, .col = key->col};
  }
  Node *call = arena_alloc(in->f->arena, sizeof(Node));
  *call = (Node){.kind = N_CALL, .line = key->line, .col = key->col, .bi = bi_named("slice"), .list = {list, 3}};
  return call;
}

/* p[i] */
const Type *ty_jitclass_index(Infer *in, Node *n) {
  Node *args[2] = {n->lhs, ty_slice_value(in, n->rhs)};
  return special_call(in, n, "__getitem__", args, 2, "indexing");
}

/* p[i] = v, n the statement: made a call of __setitem__ */
void ty_jitclass_setitem(Infer *in, Node *n) {
  Node *args[3] = {n->lhs->lhs, ty_slice_value(in, n->lhs->rhs), n->rhs};
  Node *call = arena_alloc(in->f->arena, sizeof(Node));
  *call = (Node){.line = n->line, .col = n->col};
  *n = (Node){.kind = N_EXPR, .line = n->line, .col = n->col, .lhs = call};
  special_call(in, call, "__setitem__", args, 3, "item assignment");
}

/* ---------------------------------------------------------------- lowering of stores */

/* What a field keeps of an argument array it is given: a reference to its
 * Python object (rt_array_keep), in a tuple's arrays too. */
static void keep_arrays(Lower *l, const Type *t, LLVMValueRef at) {
  if (t->kind == TY_ARRAY) {
    lo_call_fn(l, "rt_array_keep", void_type(l), &l->mod->ptr, &at, 1);
    return;
  }
  for (int i = 0; t->kind == TY_TUPLE && i < t->nfields; i++) {
    LLVMValueRef off = const_i64(l, (int64_t)t->offsets[i]);
    if (ty_has_arrays(t->fields[i])) keep_arrays(l, t->fields[i], LLVMBuildGEP2(l->b, l->mod->i8, at, &off, 1, ""));
  }
}

/* p.x = v, v owned (its reference passes to the field, the old one released) */
void lo_jitclass_store(Lower *l, Node *target, const Type *t, LLVMValueRef v) {
  const Type *f = target->ty;
  LLVMValueRef obj = lo_expr(l, target->lhs), at = field_addr(l, target, obj);
  LLVMValueRef old = ty_has_arrays(f) ? lo_load_storage(l, f, at) : NULL;
  v = lo_convert(l, v, t, f);
  if (ty_has_arrays(f)) v = lo_keep_strs(l, f, v);
  lo_store_storage(l, f, at, v);
  if (ty_has_arrays(f)) keep_arrays(l, f, at);
  if (old) lo_refcount(l, f, old, false);
  lo_done_with(l, target->lhs, obj);
}

/* p.x op= v: the field read and written once */
void lo_jitclass_update(Lower *l, Node *n) {
  Node *target = n->lhs;
  const Type *f = target->ty;
  LLVMValueRef obj = lo_expr(l, target->lhs), at = field_addr(l, target, obj);
  LLVMValueRef cur = lo_load_storage(l, f, at), rhs = lo_expr(l, n->rhs);
  LLVMValueRef r = lo_binop_values(l, n->op, n->ty, cur, f, rhs, n->rhs->ty);
  if (ty_has_arrays(f)) lo_done_with(l, n->rhs, rhs);  /* s += t: a new string, t no longer needed */
  lo_store_storage(l, f, at, lo_convert(l, r, n->ty, f));
  if (ty_has_arrays(f)) lo_refcount(l, f, cur, false);
  lo_done_with(l, target->lhs, obj);
}

void lo_jitclass_refcount(Lower *l, const Type *t, LLVMValueRef v, bool inc) {
  LLVMValueRef fn = lo_refcount_fn(l, inc, "rt_object_free");
  LLVMBuildCall2(l->b, LLVMGlobalGetValueType(fn), fn, &v, 1, "");
}

const Builtin bi_jitclass[] = {
  {"jitclass new", NULL, NULL, BK_FUNCTION, 0, 0, 0, NULL, BF_RAISES, 0, 0, ty_new, lo_new},
  {NULL},
};
