/* builtins/generators.c — generator objects in compiled code: next(g),
 * next(g, default), and the two steps of a for loop over one (infer.c
 * makes the loop `while <g resumed>: x = <g's value>`); iter(x) is a
 * compiled generator of the frontend's (ruchey._iterators).
 * lower/generators.c lays out the objects and lowers the functions.
 */
#include "builtins/builtins.h"

static const Type *ty_generator_arg(Infer *in, Node *n, const Type *t, const char *what) {
  if (t->kind == TY_YIELDS) return t;
  return ty_error(in, n, "%s of %s is not supported in compiled code: it takes a generator", what, t->name);
}

static const Type *ty_resumed(Infer *in, Node *n, const Type **args) {
  return ty_generator_arg(in, n, args[0], "iteration") ? TYS(TY_BOOL) : NULL;
}

static LLVMValueRef lo_resumed(Lower *l, Node *n) {
  Node *g = n->list.items[0];
  return lo_generator_resume_of(l, g, lo_expr(l, g));
}

static const Type *ty_value(Infer *in, Node *n, const Type **args) {
  return ty_generator_arg(in, n, args[0], "iteration") ? args[0]->elem : NULL;
}

static LLVMValueRef lo_value(Lower *l, Node *n) {
  Node *g = n->list.items[0];
  return lo_generator_value(l, g->ty, lo_expr(l, g));
}

/* next(g): what g yields; next(g, default): that or default's type, unified. */
static const Type *ty_next(Infer *in, Node *n, const Type **args) {
  if (!ty_generator_arg(in, n, args[0], "next()")) return NULL;
  const Type *t = args[0]->elem;
  if (n->list.len == 1) return t;
  const Type *u = ty_unify(t, args[1]);
  if (!u) return ty_error(in, n, "next()'s default of type %s cannot be unified with what the generator yields, %s",
                          args[1]->name, t->name);
  return u;
}

/* Exhausted, next(g) raises StopIteration, as Python's; next(g, default)
 * gives default (owned, as the value yielded would be). */
static LLVMValueRef lo_next(Lower *l, Node *n) {
  Node *g = n->list.items[0];
  LLVMValueRef gen = lo_expr(l, g), yielded = lo_generator_resume_of(l, g, gen);
  if (n->list.len == 1) {
    lo_raise_if(l, LLVMBuildNot(l->b, yielded, ""), RT_ERR_STOP, NULL);
    return lo_generator_value(l, g->ty, gen);
  }
  Node *d = n->list.items[1];
  LLVMValueRef result = lo_alloca(l, lo_type(l, n->ty), "next");
  LLVMBasicBlockRef value = new_block(l, "next.value"), other = new_block(l, "next.default"), done = new_block(l, "next.end");
  LLVMBuildCondBr(l->b, yielded, value, other);
  position(l, value);
  LLVMBuildStore(l->b, lo_convert(l, lo_generator_value(l, g->ty, gen), g->ty->elem, n->ty), result);
  LLVMBuildBr(l->b, done);
  position(l, other);
  LLVMBuildStore(l->b, lo_convert(l, lo_owned(l, d), d->ty, n->ty), result);
  LLVMBuildBr(l->b, done);
  position(l, done);
  return LLVMBuildLoad2(l->b, lo_type(l, n->ty), result, "");
}

/* g.send(v), g.throw(e), g.close(): refused, as Numba refuses them (a
 * compiled generator only yields). */
static const Type *ty_refused_method(Infer *in, Node *n, const Type **args) {
  return ty_error(in, n, "a generator's %s() is not supported in compiled code: it can only be iterated", n->bi->path);
}

#define REFUSED(name, path) {name, NULL, path, BK_METHOD, TY_YIELDS, 0, 64, NULL, BF_NONE, 0, 0, ty_refused_method, NULL}

#define FUNCTION(name, module, path, lo, hi, flags, type, lower) \
  {name, module, path, BK_FUNCTION, 0, lo, hi, NULL, flags, 0, 0, type, lower}

const Builtin bi_generators[] = {
  FUNCTION("next", "builtins", "next", 1, 2, BF_RAISES | BF_STRINGS | BF_COMPLEX | BF_LISTS, ty_next, lo_next),
  FUNCTION("generator resumed", NULL, NULL, 1, 1, BF_RAISES, ty_resumed, lo_resumed),
  FUNCTION("generator value", NULL, NULL, 1, 1, 0, ty_value, lo_value),
  REFUSED("generator.send", "send"),
  REFUSED("generator.throw", "throw"),
  REFUSED("generator.close", "close"),
  BI_END,
};
