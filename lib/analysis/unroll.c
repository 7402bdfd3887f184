/* analysis/unroll.c — `for x in literal_unroll(t): body else: orelse`
 * made, before typing, one copy of the body per item of the tuple t, each
 * binding x to its item by a constant index, so that each copy is typed
 * for its own item (webs.c then gives x, and what the body makes of it, a
 * variable per copy), as Numba's literal_unroll versions the body per type
 * (`for i in range(len(literal_unroll(t)))` binds i to each index, t[i]
 * then a constant index):
 *
 *     $t = t
 *     $go = True                                   (a break in the body only)
 *     for $once in range(1): x = $t[0]; body       (a plain block without
 *     if $go: for $once in range(1): x = $t[1]; body     break or continue)
 *     ...
 *     if $go: orelse
 *
 * A variable assigned literal_unroll(t) holds t (the frontend makes a loop
 * over it one over literal_unroll of it).
 * A break in a copy clears $go and leaves the copy; continue leaves it.
 * The tuple's length must be known before typing: an argument's type
 * gives it, or a tuple or list written out (a global one is frozen into
 * one), or a variable assigned one of those once (or last in the loop's
 * block before it), or a slice of constants of one of those, or d.keys(),
 * d.values() or d.items() of a dict written out with constant str keys
 * (or of a literal dict argument).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "infer.h"
#include "ir.h"

typedef struct Unroll {
  Func *f;
  const Type *const *argtypes;
  Diag *diag;
  const NodeList *block;  /* the block of the loop being unrolled */
  int at;                 /* and its place there */
} Unroll;

static bool fail(Unroll *u, const Node *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ty_diag(u->diag, at, fmt, ap);
  va_end(ap);
  return false;
}

/* A new variable, named so that no Python name can clash; its type unknown. */
static int new_var(Func *f, const char *what) {
  int v = f->nvars++;
  const char **names = arena_alloc(f->arena, sizeof(char *) * (size_t)f->nvars);
  memcpy(names, f->var_names, sizeof(char *) * (size_t)v);
  char name[32];
  snprintf(name, sizeof name, "$%s%d", what, v);
  names[v] = arena_strdup(f->arena, name);
  f->var_names = names;
  if (f->declared_types) {
    const Type **declared = arena_alloc(f->arena, sizeof(Type *) * (size_t)f->nvars);
    memcpy(declared, f->declared_types, sizeof(Type *) * (size_t)v);
    f->declared_types = declared;
  }
  f->var_types = arena_alloc(f->arena, sizeof(Type *) * (size_t)f->nvars);
  return v;
}

static Node *node(Func *f, NodeKind kind, const Node *at) {
  Node *n = arena_alloc(f->arena, sizeof(Node));
  n->kind = kind;
  n->line = at->line;
  n->col = at->col;
  return n;
}

static Node *var(Func *f, int v, const Node *at) {
  Node *n = node(f, N_VAR, at);
  n->var = v;
  return n;
}

static Node *assign(Func *f, Node *lhs, Node *rhs, const Node *at) {
  Node *n = node(f, N_ASSIGN, at);
  n->lhs = lhs;
  n->rhs = rhs;
  return n;
}

static NodeList list_of(Func *f, int len) {
  return (NodeList){.items = arena_alloc(f->arena, sizeof(Node *) * (size_t)(len ? len : 1)), .len = len};
}

static Node *clone(Func *f, const Node *n);

static NodeList clone_list(Func *f, const NodeList *l) {
  NodeList c = list_of(f, l->len);
  for (int i = 0; i < l->len; i++) c.items[i] = clone(f, l->items[i]);
  return c;
}

/* A copy of the tree under n; what typing fills in is not there yet. */
static Node *clone(Func *f, const Node *n) {
  if (!n) return NULL;
  Node *c = arena_alloc(f->arena, sizeof(Node));
  *c = *n;
  c->lhs = clone(f, n->lhs);
  c->rhs = clone(f, n->rhs);
  c->cond = clone(f, n->cond);
  c->list = clone_list(f, &n->list);
  c->kw = clone_list(f, &n->kw);
  c->body = clone_list(f, &n->body);
  c->orelse = clone_list(f, &n->orelse);
  if (n->kw_names) {  /* typing compacts a call's keywords in place */
    c->kw_names = arena_alloc(f->arena, sizeof(char *) * (size_t)(n->kw.len ? n->kw.len : 1));
    memcpy(c->kw_names, n->kw_names, sizeof(char *) * (size_t)n->kw.len);
  }
  return c;
}

/* ---------------------------------------------------------------- the tuple's length */

/* A list written out is unrolled as the tuple of its items, wherever its
 * variable is read, as Numba's literal_unroll makes it one. */
static bool tuple_of_list(Node *seq) {
  if (seq->kind != N_CALL || !ir_calls_builtin(seq, "list literal")) return false;
  seq->kind = N_TUPLE;
  seq->bi = NULL;
  return true;
}

/* Where the items of the tuple unrolled are written out: item i is
 * tuple->list.items[first + i * step] (tuple NULL: not written out). */
typedef struct Written {
  const Node *tuple;
  int64_t first, step;
} Written;

/* The value a local variable is assigned, where it is assigned once; else NULL. */
static Node *only_value(Unroll *u, const Node *v) {
  Node *value = NULL;
  return ir_assignments(&u->f->body, v->var, &value) == 1 ? value : NULL;
}

/* The value variable v holds at the loop being unrolled, where a plain
 * assignment earlier in the loop's block gives it and nothing between
 * rebinds it (tup = (a, b) ... tup = (a, b, c) before the loop); else NULL. */
static Node *value_reaching(Unroll *u, const Node *v) {
  for (int i = u->at - 1; i >= 0; i--) {
    Node *s = u->block->items[i];
    if (s->kind == N_ASSIGN && s->lhs->kind == N_VAR && s->lhs->var == v->var) return s->rhs;
    if (ir_assignments(&(NodeList){.items = &s, .len = 1}, v->var, NULL)) return NULL;
  }
  return NULL;
}

/* How many entries the dict d holds where its keys are known before
 * typing: a literal dict argument's, or a dict written out with constant
 * str keys (each counted once), which a variable may hold; else -1. */
static int dict_length(Unroll *u, const Node *d, int depth) {
  if (d->kind == N_VAR && d->var < u->f->nparams)
    return u->argtypes[d->var]->kind == TY_LITDICT ? u->argtypes[d->var]->nfields : -1;
  if (d->kind == N_VAR && depth <= 8) return (d = only_value(u, d)) ? dict_length(u, d, depth + 1) : -1;
  if (d->kind != N_CALL || !ir_calls_builtin(d, "dict literal")) return -1;
  int count = 0;
  for (int i = 0; i < d->list.len; i += 2) {
    if (d->list.items[i]->kind != N_STRING) return -1;
    bool seen = false;
    for (int j = 0; j < i && !seen; j += 2) seen = !strcmp(d->list.items[j]->str, d->list.items[i]->str);
    count += !seen;
  }
  return count;
}

/* d.keys(), d.values() or d.items() of a dict whose length dict_length
 * knows (a literal dict's are tuples); else -1. */
static int dict_view_length(Unroll *u, const Node *seq, int depth) {
  if (seq->kind != N_CALL || seq->bi || !seq->str || seq->list.len != 1 || seq->kw.len) return -1;
  if (strcmp(seq->str, "keys") && strcmp(seq->str, "values") && strcmp(seq->str, "items")) return -1;
  return dict_length(u, seq->list.items[0], depth);
}

/* How many items the tuple seq holds, or -1 (*t: an argument's type that is no tuple). */
static int tuple_length(Unroll *u, Node *seq, const Type **t, Written *w, int depth) {
  int n = dict_view_length(u, seq, depth);
  if (n >= 0) return n;
  if (ir_calls_builtin(seq, "literal_unroll") && seq->list.len == 1 && depth <= 8)  /* v = literal_unroll(t): t */
    return tuple_length(u, seq->list.items[0], t, w, depth + 1);
  if (seq->kind == N_TUPLE || tuple_of_list(seq)) {
    *w = (Written){seq, 0, 1};
    return seq->list.len;
  }
  int64_t first, step, count;
  if (seq->kind == N_INDEX && !seq->str && seq->rhs->kind == N_SLICE && depth <= 8) {  /* t[1:], of constants */
    int n = tuple_length(u, seq->lhs, t, w, depth + 1);
    if (n < 0 || !ty_constant_slice(seq->rhs, n, &first, &step, &count)) return -1;
    *w = (Written){w->tuple, w->first + first * w->step, w->step * step};
    return (int)count;
  }
  if (seq->kind != N_VAR || depth > 8) return -1;
  if (seq->var < u->f->nparams) {
    *t = u->argtypes[seq->var];
    return (*t)->kind == TY_TUPLE ? (*t)->nfields : -1;
  }
  Node *value = only_value(u, seq);
  if (!value && !depth) value = value_reaching(u, seq);
  return value ? tuple_length(u, value, t, w, depth + 1) : -1;
}

/* ---------------------------------------------------------------- break and continue */

/* Whether a statement of l (not inside a nested loop's body) is a kind. */
static bool jumps(const NodeList *l, NodeKind kind) {
  for (int i = 0; i < l->len; i++) {
    const Node *n = l->items[i];
    if (n->kind == kind) return true;
    if ((n->kind == N_IF || n->kind == N_BLOCK || n->kind == N_TRY) && (jumps(&n->body, kind) || jumps(&n->orelse, kind)))
      return true;
    if (n->kind == N_TRY && n->lhs && jumps(&n->lhs->body, kind)) return true;
    for (int k = 0; n->kind == N_TRY && k < n->list.len; k++)
      if (jumps(&n->list.items[k]->body, kind)) return true;
    if ((n->kind == N_FOR || n->kind == N_WHILE) && jumps(&n->orelse, kind)) return true;
  }
  return false;
}

/* Each break of l (as jumps finds them) made `$go = False; break`. */
static void clear_go_on_break(Func *f, NodeList *l, int go) {
  for (int i = 0; i < l->len; i++) {
    Node *n = l->items[i];
    if (n->kind == N_BREAK) {
      Node *brk = node(f, N_BREAK, n), *no = node(f, N_BOOL, n);
      no->ival = 0;
      n->kind = N_BLOCK;
      n->body = list_of(f, 2);
      n->body.items[0] = assign(f, var(f, go, n), no, n);
      n->body.items[1] = brk;
      continue;
    }
    if (n->kind == N_IF || n->kind == N_BLOCK || n->kind == N_TRY) {
      clear_go_on_break(f, &n->body, go);
      clear_go_on_break(f, &n->orelse, go);
    }
    if (n->kind == N_TRY && n->lhs) clear_go_on_break(f, &n->lhs->body, go);
    for (int k = 0; n->kind == N_TRY && k < n->list.len; k++) clear_go_on_break(f, &n->list.items[k]->body, go);
    if (n->kind == N_FOR || n->kind == N_WHILE) clear_go_on_break(f, &n->orelse, go);
  }
}

/* ---------------------------------------------------------------- the copies */

typedef struct Literal {
  int var;
  const Node *value;
  Func *f;
} Literal;

static bool read_as_literal(Node *n, void *ctx) {
  const Literal *lit = ctx;
  if (n->kind != N_VAR || n->var != lit->var) return true;
  int line = n->line, col = n->col;  /* where the read is written, for errors */
  *n = *clone(lit->f, lit->value);
  n->line = line;
  n->col = col;
  return true;
}

/* The literal_unroll(t) call a for loop walks: `for x in literal_unroll(t)`,
 * or `for i in range(len(literal_unroll(t)))` (*indexed: i walks t's
 * indices, as Numba's loop canonicalisation makes either); else NULL. */
static Node *unrolled_call(const Node *loop, bool *indexed) {
  Node *c = loop->kind == N_FOR ? loop->cond : NULL;
  *indexed = c && ir_calls_builtin(c, "range") && c->list.len == 1 && ir_calls_builtin(c->list.items[0], "len") &&
             c->list.items[0]->list.len == 1;
  if (*indexed) c = c->list.items[0]->list.items[0];
  return c && ir_calls_builtin(c, "literal_unroll") ? c : NULL;
}

/* Copy i of the body: x = $t[i] (i = the constant i, indexed) and the body,
 * in a loop of one trip where it jumps, run only while $go holds after the first. */
static Node *body_copy(Func *f, Node *loop, int t, const Written *w, int i, int go, bool wraps) {
  Node *item = node(f, N_INDEX, loop), *k = node(f, N_INT, loop);
  k->ival = i;
  item->lhs = var(f, t, loop);
  item->rhs = k;
  /* an item written out as a constant (a global tuple of field names) is bound as that constant, so
   * that the copy's x is a literal where typing asks for one (arr[x] of a record), as Numba's; an
   * index is always one */
  bool indexed;
  unrolled_call(loop, &indexed);
  const Node *c = indexed ? k : w->tuple ? w->tuple->list.items[w->first + i * w->step] : NULL;
  if (c && (c->kind == N_STRING || c->kind == N_INT || c->kind == N_BOOL)) item = clone(f, c);
  else
    c = NULL;
  NodeList body = list_of(f, loop->body.len + 1);
  body.items[0] = assign(f, clone(f, loop->lhs), item, loop->lhs);
  for (int s = 0; s < loop->body.len; s++) body.items[s + 1] = clone(f, loop->body.items[s]);
  if (c && loop->lhs->kind == N_VAR) {  /* the body's reads of x are that constant, where it never rebinds x */
    bool rebound = ir_assignments(&loop->body, loop->lhs->var, NULL) > 0;
    Literal lit = {loop->lhs->var, c, f};
    for (int s = 1; !rebound && s < body.len; s++) ir_walk(body.items[s], read_as_literal, &lit);
  }
  Node *copy = node(f, wraps ? N_FOR : N_BLOCK, loop);
  copy->body = body;
  if (wraps) {
    if (go >= 0) clear_go_on_break(f, &copy->body, go);
    Node *one = node(f, N_INT, loop), *range = node(f, N_CALL, loop);
    one->ival = 1;
    range->bi = bi_named("range");
    range->list = list_of(f, 1);
    range->list.items[0] = one;
    copy->lhs = var(f, new_var(f, "once"), loop);
    copy->cond = range;
  }
  if (go < 0 || i == 0) return copy;
  Node *guard = node(f, N_IF, loop);
  guard->cond = var(f, go, loop);
  guard->body = list_of(f, 1);
  guard->body.items[0] = copy;
  return guard;
}

static bool unroll_block(Unroll *u, NodeList *l);

/* The loop n made the block of its copies, in place. */
static bool unroll_loop(Unroll *u, Node *n, const NodeList *block, int at) {
  Func *f = u->f;
  bool indexed;
  Node *call = unrolled_call(n, &indexed);
  if (call->list.len != 1 || call->kw.len) return fail(u, call, "literal_unroll() takes one tuple");
  if (!unroll_block(u, &n->body) || !unroll_block(u, &n->orelse)) return false;
  u->block = block;
  u->at = at;
  const Type *t = NULL;
  Written w = {NULL, 0, 1};
  int len = tuple_length(u, call->list.items[0], &t, &w, 0);
  if (len < 0 && t)
    return fail(u, call, "Invalid use of literal_unroll with a function argument, only tuples are supported as "
                "function arguments, found %s", t->name);
  if (len < 0)
    return fail(u, call, "literal_unroll() needs a tuple whose length is known before typing: an argument, a tuple "
                "or list written out or a global one, or a variable assigned one of those once");
  bool breaks = jumps(&n->body, N_BREAK), wraps = breaks || jumps(&n->body, N_CONTINUE);
  int tv = new_var(f, "unrolled"), go = breaks ? new_var(f, "go") : -1;
  NodeList out = list_of(f, len + 3);
  out.len = 0;
  out.items[out.len++] = assign(f, var(f, tv, n), call->list.items[0], call);
  if (breaks) {
    Node *yes = node(f, N_BOOL, n);
    yes->ival = 1;
    out.items[out.len++] = assign(f, var(f, go, n), yes, n);
  }
  for (int i = 0; i < len; i++) out.items[out.len++] = body_copy(f, n, tv, &w, i, go, wraps);
  if (n->orelse.len) {
    Node *tail = node(f, breaks ? N_IF : N_BLOCK, n);
    if (breaks) tail->cond = var(f, go, n);
    tail->body = n->orelse;
    out.items[out.len++] = tail;
  }
  n->kind = N_BLOCK;
  n->body = out;
  n->orelse = (NodeList){0};
  n->lhs = n->cond = NULL;
  return true;
}

static bool is_unrolled(const Node *n) {
  bool indexed;
  return unrolled_call(n, &indexed) != NULL;
}

static bool unroll_block(Unroll *u, NodeList *l) {
  for (int i = 0; i < l->len; i++) {
    Node *n = l->items[i];
    if (is_unrolled(n)) {
      if (!unroll_loop(u, n, l, i)) return false;
      continue;
    }
    if (!unroll_block(u, &n->body) || !unroll_block(u, &n->orelse)) return false;
    if (n->kind == N_TRY && n->lhs && !unroll_block(u, &n->lhs->body)) return false;
    for (int k = 0; n->kind == N_TRY && k < n->list.len; k++)
      if (!unroll_block(u, &n->list.items[k]->body)) return false;
  }
  return true;
}

bool an_unroll_literal(Func *f, const Type *const *argtypes, Diag *diag) {
  Unroll u = {f, argtypes, diag};
  return unroll_block(&u, &f->body);
}
