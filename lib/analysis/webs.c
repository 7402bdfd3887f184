/* analysis/webs.c — one variable slot per web of a Python variable.
 *
 * Python lets a name hold values of different types one after the other
 * (`I = numpy.zeros((2, 3, 4)); I = I[0, :, ::-1]`), and Numba types each
 * such value on its own where they never meet. Before typing, each local
 * variable is split into its webs (classic live-range splitting): two
 * assignments belong to one web when some read can find the value of
 * either, as reaching definitions over the function's control flow say.
 * Each web beyond the first gets a slot of its own under the same name, so
 * that typing unifies only what can meet, with the same message where it
 * cannot. Splitting less is always safe (it is what typing did before), so
 * where the flow is hard to follow the analysis joins more than it must: a
 * try's handlers and finally clause are taken to see every assignment made
 * before them in the statement.
 *
 * An array written through a name (a[i] = x, a[i] += x) also keeps, on the
 * name's node there, the values of the assignments that reach the write:
 * one web types as read-only where any of its values is (a bytes' buffer),
 * yet Numba's SSA lets each value be written where only writable ones reach.
 */
#include <stdint.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "infer.h"
#include "ir.h"

typedef uint64_t *Defs;  /* a set of definitions, one bit each */

typedef struct Use {
  Node *n;   /* an N_VAR that reads or assigns */
  int def;   /* a definition that reaches it (or is it) */
} Use;

/* Where a loop's break and continue statements leave from. */
typedef struct Jumps {
  Defs brk, cont;
} Jumps;

typedef struct Webs {
  Func *f;
  const Type *const *argtypes;  /* the parameters' types, which decide an isinstance() of one */
  int ndefs, words;
  int *def_var;     /* per definition in the order of the code: its variable */
  Node **def_node;  /* per definition in the order of the code: its target (none for parameters) */
  Node **def_value; /* per definition, numbered as parent: the value a plain `name = value` assigns
                     * (none for parameters, unpacking, loops and augmented assignments) */
  Node *value;      /* while numbering an assignment's target: its value, where the target is a name */
  int *parent;      /* union-find over definitions: one class per web */
  int *var_first;   /* per variable v: its definitions are [var_first[v], var_first[v + 1]), in the
                     * order of the code, so that a set's bits of one variable are one run of words */
  Use *sorted;      /* the definitions' targets by address, for def_of */
  Use *uses;
  int nuses, cap;
  Jumps *loop;      /* the innermost loop's */
  Defs caught;      /* the innermost try body's assignments, which its handlers may see */
  bool refused;
} Webs;

/* ---------------------------------------------------------------- sets */

static Defs defs_new(Webs *w) { return arena_alloc(w->f->arena, sizeof(uint64_t) * (size_t)w->words); }

static Defs defs_copy(Webs *w, Defs s) {
  Defs c = defs_new(w);
  memcpy(c, s, sizeof(uint64_t) * (size_t)w->words);
  return c;
}

static void defs_join(Webs *w, Defs into, Defs s) {
  for (int i = 0; i < w->words; i++) into[i] |= s[i];
}

static bool defs_equal(Webs *w, Defs a, Defs b) { return !memcmp(a, b, sizeof(uint64_t) * (size_t)w->words); }

static void clear(Webs *w, Defs s) { memset(s, 0, sizeof(uint64_t) * (size_t)w->words); }

/* ---------------------------------------------------------------- webs */

static int find(Webs *w, int d) {
  while (w->parent[d] != d) d = w->parent[d] = w->parent[w->parent[d]];
  return d;
}

static void join_webs(Webs *w, int a, int b) {
  a = find(w, a), b = find(w, b);
  if (a != b) w->parent[a > b ? a : b] = a < b ? a : b;
}

static void note_use(Webs *w, Node *n, int def) {
  if (w->nuses == w->cap) {
    w->cap = w->cap ? 2 * w->cap : 64;
    Use *grown = arena_alloc(w->f->arena, sizeof(Use) * (size_t)w->cap);
    if (w->nuses) memcpy(grown, w->uses, sizeof(Use) * (size_t)w->nuses);
    w->uses = grown;
  }
  w->uses[w->nuses++] = (Use){n, def};
}

/* The first member of s in [d, end), or end. */
static int next_in(Defs s, int d, int end) {
  while (d < end) {
    uint64_t word = s[d / 64] >> (d % 64);
    if (word) {
      d += __builtin_ctzll(word);
      return d < end ? d : end;
    }
    d = (d / 64 + 1) * 64;
  }
  return end;
}

static void remove_range(Defs s, int lo, int end) {
  for (; lo < end && lo % 64; lo++) s[lo / 64] &= ~((uint64_t)1 << (lo % 64));
  for (; lo + 64 <= end; lo += 64) s[lo / 64] = 0;
  for (; lo < end; lo++) s[lo / 64] &= ~((uint64_t)1 << (lo % 64));
}

/* A read of n's variable joins every definition that reaches it. */
static void see_read(Webs *w, Node *n, Defs s) {
  int end = w->var_first[n->var + 1], first = next_in(s, w->var_first[n->var], end);
  if (first == end) return;
  for (int d = next_in(s, first + 1, end); d < end; d = next_in(s, d + 1, end)) join_webs(w, first, d);
  note_use(w, n, first);
}

static int by_node(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const Use *)a)->n, y = (uintptr_t)((const Use *)b)->n;
  return x < y ? -1 : x > y;
}

static int def_of(Webs *w, Node *n) {
  Use key = {n, 0};
  Use *u = bsearch(&key, w->sorted, (size_t)(w->ndefs - w->f->nparams), sizeof(Use), by_node);
  return u ? u->def : -1;
}

/* n assigns its variable: its definition replaces the variable's others. */
static void see_def(Webs *w, Node *n, Defs s) {
  int d = def_of(w, n);
  if (d < 0) {  /* a target the numbering did not meet: split nothing rather than guess */
    w->refused = true;
    return;
  }
  remove_range(s, w->var_first[n->var], w->var_first[n->var + 1]);
  s[d / 64] |= (uint64_t)1 << (d % 64);
  if (w->caught) w->caught[d / 64] |= (uint64_t)1 << (d % 64);
}

/* ---------------------------------------------------------------- numbering */

static bool count_target(Webs *w, Node *t);

static bool number_defs(Node *n, void *ctx) {
  Webs *w = ctx;
  if (n->kind == N_ASSIGN) {
    ir_walk(n->rhs, number_defs, w);
    w->value = n->lhs->kind == N_VAR ? n->rhs : NULL;
    count_target(w, n->lhs);
    w->value = NULL;
    return false;
  }
  if (n->kind == N_AUGASSIGN || n->kind == N_FOR) {
    w->value = NULL;
    if (n->lhs->kind == N_VAR) count_target(w, n->lhs);
    else ir_walk(n->lhs, number_defs, w);
    ir_walk(n->rhs, number_defs, w);
    ir_walk(n->cond, number_defs, w);
    ir_walk_list(&n->body, number_defs, w);
    ir_walk_list(&n->orelse, number_defs, w);
    return false;
  }
  return true;
}

/* Counts (first pass, def_var NULL) or records the definitions a target makes. */
static bool count_target(Webs *w, Node *t) {
  if (t->kind == N_TUPLE) {
    for (int i = 0; i < t->list.len; i++) count_target(w, t->list.items[i]);
  } else if (t->kind == N_VAR) {
    if (w->def_var) {
      w->def_var[w->ndefs] = t->var;
      w->def_node[w->ndefs] = t;
      w->def_value[w->ndefs] = w->value;
    }
    w->ndefs++;
  } else {
    ir_walk(t, number_defs, w);
  }
  return false;
}

/* Numbers the definitions in the order of the code (a parameter's value on
 * entry first), then renumbers them variable by variable. */
static void number_all(Webs *w) {
  Func *f = w->f;
  w->ndefs = f->nparams;
  ir_walk_list(&f->body, number_defs, w);
  int n = w->ndefs;
  w->words = (n + 63) / 64 + 1;
  w->def_var = arena_alloc(f->arena, sizeof(int) * (size_t)(n + 1));
  w->def_node = arena_alloc(f->arena, sizeof(Node *) * (size_t)(n + 1));
  Node **value_in_code = w->def_value = arena_alloc(f->arena, sizeof(Node *) * (size_t)(n + 1));
  for (int v = 0; v < f->nparams; v++) w->def_var[v] = v, w->def_node[v] = NULL, w->def_value[v] = NULL;
  w->ndefs = f->nparams;
  ir_walk_list(&f->body, number_defs, w);
  w->var_first = arena_alloc(f->arena, sizeof(int) * (size_t)(f->nvars + 2));
  for (int c = 0; c < n; c++) w->var_first[w->def_var[c] + 2]++;
  for (int v = 0; v < f->nvars; v++) w->var_first[v + 2] += w->var_first[v + 1];
  w->parent = arena_alloc(f->arena, sizeof(int) * (size_t)(n + 1));
  w->sorted = arena_alloc(f->arena, sizeof(Use) * (size_t)(n - f->nparams + 1));
  w->def_value = arena_alloc(f->arena, sizeof(Node *) * (size_t)(n + 1));
  for (int c = 0, nsorted = 0; c < n; c++) {  /* var_first[v + 1] counts v's definitions placed */
    int d = w->var_first[w->def_var[c] + 1]++;
    w->parent[d] = d;
    w->def_value[d] = value_in_code[c];
    if (w->def_node[c]) w->sorted[nsorted++] = (Use){w->def_node[c], d};
  }
  qsort(w->sorted, (size_t)(n - f->nparams), sizeof(Use), by_node);
}

/* ---------------------------------------------------------------- reaching definitions */

typedef struct Reads {
  Webs *w;
  Defs s;
} Reads;

static bool read_var(Node *n, void *ctx) {
  Reads *r = ctx;
  if (n->kind == N_VAR) see_read(r->w, n, r->s);
  return true;
}

/* Expressions only read: the frontend hoists comprehensions into statements
 * and refuses the walrus operator. */
static void reads(Webs *w, Node *e, Defs s) { ir_walk(e, read_var, &(Reads){w, s}); }

static void flow_block(Webs *w, NodeList *b, Defs s);

/* t writes into an element of a named array: its name's node keeps the
 * values that reach it (a later pass round a loop sees more, and replaces
 * them), or none where one of them is not a plain assignment's. */
static void note_written(Webs *w, Node *t, Defs s) {
  if (t->kind != N_INDEX || t->lhs->kind != N_VAR) return;
  Node *base = t->lhs;
  int end = w->var_first[base->var + 1], n = 0;
  for (int d = next_in(s, w->var_first[base->var], end); d < end; d = next_in(s, d + 1, end), n++)
    if (!w->def_value[d]) {
      base->data = NULL;
      return;
    }
  NodeList *values = arena_alloc(w->f->arena, sizeof(NodeList));
  values->items = arena_alloc(w->f->arena, sizeof(Node *) * (size_t)(n + 1));
  for (int d = next_in(s, w->var_first[base->var], end); d < end; d = next_in(s, d + 1, end))
    values->items[values->len++] = w->def_value[d];
  base->data = n ? values : NULL;
}

static void flow_target(Webs *w, Node *t, Defs s) {
  if (t->kind == N_TUPLE) {
    for (int i = 0; i < t->list.len; i++) flow_target(w, t->list.items[i], s);
  } else if (t->kind == N_VAR) {
    see_def(w, t, s);
  } else {
    note_written(w, t, s);
    reads(w, t, s);
  }
}

/* head: what reaches the top of the loop, from before it (in) and from the
 * end of its body and its continue statements, found by going round until
 * nothing new arrives. A for loop assigns its variable at the top. */
static void flow_loop(Webs *w, Node *n, Defs s) {
  Jumps *outer = w->loop, j = {defs_new(w), defs_new(w)};
  Defs head = defs_copy(w, s), body = defs_new(w);
  w->loop = &j;
  for (;;) {
    if (n->kind == N_WHILE) reads(w, n->cond, head);
    memcpy(body, head, sizeof(uint64_t) * (size_t)w->words);
    if (n->kind == N_FOR) see_def(w, n->lhs, body);
    flow_block(w, &n->body, body);
    defs_join(w, body, j.cont);
    defs_join(w, body, s);
    if (defs_equal(w, body, head)) break;
    memcpy(head, body, sizeof(uint64_t) * (size_t)w->words);
  }
  w->loop = outer;
  memcpy(s, head, sizeof(uint64_t) * (size_t)w->words);
  flow_block(w, &n->orelse, s);
  defs_join(w, s, j.brk);
}

/* Defs made while walking b from s, also kept in the enclosing try's set. */
static Defs flow_caught(Webs *w, NodeList *b, Defs s, Defs mine) {
  Defs outer = w->caught;
  w->caught = mine;
  flow_block(w, b, s);
  w->caught = outer;
  if (outer) defs_join(w, outer, mine);
  return mine;
}

/* A handler may start from any point of the try body: it sees what reached
 * the try and every assignment in its body. A finally clause may start from
 * any point of the whole statement, and a break or continue that leaves
 * through it carries its assignments to where it jumps. */
static void flow_try(Webs *w, Node *n, Defs s) {
  Defs caught = flow_caught(w, &n->body, s, defs_copy(w, s)), rest = defs_new(w);
  flow_caught(w, &n->orelse, s, rest);
  for (int i = 0; i < n->list.len; i++) {
    Defs h = defs_copy(w, caught);
    flow_caught(w, &n->list.items[i]->body, h, rest);
    defs_join(w, s, h);
  }
  if (!n->lhs) return;
  defs_join(w, s, caught);
  defs_join(w, s, rest);
  Defs fin = flow_caught(w, &n->lhs->body, s, defs_new(w));
  if (w->loop) {
    defs_join(w, w->loop->brk, fin);
    defs_join(w, w->loop->cont, fin);
  }
}

/* Whether cond holds (1), fails (0) or is unknown (-1) from the
 * arguments' types alone: isinstance() of a parameter that holds its
 * value on entry here (under not, and, or). Typing prunes the branch such
 * a condition decides, as Numba does before typing; flowing the taken
 * branch alone keeps the other's assignments from joining the webs after
 * the if, so that `if isinstance(x, float): x = numpy.ones(n) * x` types
 * x as an array below for a float x (esda's permutation tests). */
static int known_by_arguments(Webs *w, const Node *cond, Defs s) {
  if (cond->kind == N_UNARY && cond->op == OP_NOT) {
    int k = known_by_arguments(w, cond->lhs, s);
    return k < 0 ? k : !k;
  }
  if (cond->kind == N_BOOLOP) {  /* every operand known (none has effects) */
    bool and = cond->op == OP_AND;
    for (int i = 0; i < cond->list.len; i++) {
      int k = known_by_arguments(w, cond->list.items[i], s);
      if (k < 0) return -1;
      if (k != and) return k;
    }
    return and;
  }
  if (cond->kind != N_CALL || cond->list.len != 1 || cond->list.items[0]->kind != N_VAR) return -1;
  int v = cond->list.items[0]->var, end = w->var_first[v + 1];
  if (v >= w->f->nparams || next_in(s, w->var_first[v], end) != w->var_first[v] ||
      next_in(s, w->var_first[v] + 1, end) != end)
    return -1;  /* not a parameter, or reassigned on some path to here */
  const Type *declared = w->f->declared_types ? w->f->declared_types[v] : NULL;  /* locals= wins, as in typing */
  return ty_isinstance_of(cond, declared ? declared : w->argtypes[v]);
}

static void flow_stmt(Webs *w, Node *n, Defs s) {
  switch (n->kind) {
  case N_ASSIGN:
    reads(w, n->rhs, s);
    flow_target(w, n->lhs, s);
    break;
  case N_AUGASSIGN:
    reads(w, n->rhs, s);
    note_written(w, n->lhs, s);
    reads(w, n->lhs, s);  /* x += 1: one node reads and assigns x, so one web (an_split_webs) */
    if (n->lhs->kind == N_VAR) see_def(w, n->lhs, s);
    break;
  case N_IF: {
    reads(w, n->cond, s);
    int known = known_by_arguments(w, n->cond, s);
    if (known >= 0) {  /* the branch not taken is never typed: its reads and assignments join nothing */
      flow_block(w, known ? &n->body : &n->orelse, s);
      break;
    }
    Defs other = defs_copy(w, s);
    flow_block(w, &n->body, s);
    flow_block(w, &n->orelse, other);
    defs_join(w, s, other);
    break;
  }
  case N_FOR:
    reads(w, n->cond, s);
    flow_loop(w, n, s);
    break;
  case N_WHILE:
    flow_loop(w, n, s);
    break;
  case N_BLOCK:
    flow_block(w, &n->body, s);
    break;
  case N_TRY:
    flow_try(w, n, s);
    break;
  case N_BREAK: case N_CONTINUE:
    if (w->loop) defs_join(w, n->kind == N_BREAK ? w->loop->brk : w->loop->cont, s);
    clear(w, s);
    break;
  case N_RETURN: case N_RAISE:
    reads(w, n, s);
    clear(w, s);  /* nothing after it runs: an empty set joins as nothing */
    break;
  default:
    reads(w, n, s);
    break;
  }
}

static void flow_block(Webs *w, NodeList *b, Defs s) {
  for (int i = 0; i < b->len; i++) flow_stmt(w, b->items[i], s);
}

/* ---------------------------------------------------------------- new slots */

/* Room for more variables: names and declared types as the variables' they
 * split from (locals= names every web of a name), types all unknown still. */
static void grow_vars(Func *f, int more, const int *from) {
  int n = f->nvars, total = n + more;
  const char **names = arena_alloc(f->arena, sizeof(char *) * (size_t)total);
  memcpy(names, f->var_names, sizeof(char *) * (size_t)n);
  const Type **declared = NULL;
  if (f->declared_types) {
    declared = arena_alloc(f->arena, sizeof(Type *) * (size_t)total);
    memcpy(declared, f->declared_types, sizeof(Type *) * (size_t)n);
  }
  for (int i = n; i < total; i++) {
    names[i] = f->var_names[from[i - n]];
    if (declared) declared[i] = f->declared_types[from[i - n]];
  }
  f->var_names = names;
  f->declared_types = declared;
  f->var_types = arena_alloc(f->arena, sizeof(Type *) * (size_t)total);
  f->nvars = total;
}

/* The first web of each variable (a parameter's value on entry, else the
 * first assignment in the code) keeps its slot; the others get new ones. */
static int *give_slots(Webs *w) {
  Func *f = w->f;
  int *slot = arena_alloc(f->arena, sizeof(int) * (size_t)(w->ndefs + 1));
  int *from = arena_alloc(f->arena, sizeof(int) * (size_t)(w->ndefs + 1));
  for (int d = 0; d < w->ndefs; d++) slot[d] = -1;
  int next = f->nvars;
  for (int v = 0; v < f->nvars; v++)
    for (int d = w->var_first[v]; d < w->var_first[v + 1]; d++) {
      int r = find(w, d);
      if (slot[r] >= 0) continue;
      slot[r] = d == w->var_first[v] ? v : next++;
      if (d > w->var_first[v]) from[slot[r] - f->nvars] = v;
    }
  if (next > f->nvars) grow_vars(f, next - f->nvars, from);
  return slot;
}

void an_split_webs(Func *f, const Type *const *argtypes) {
  Webs w = {.f = f, .argtypes = argtypes};
  number_all(&w);
  if (w.ndefs == 0) return;
  Defs s = defs_new(&w);
  for (int v = 0; v < f->nparams; v++) s[w.var_first[v] / 64] |= (uint64_t)1 << (w.var_first[v] % 64);
  flow_block(&w, &f->body, s);
  if (w.refused) return;
  /* a node met in two places (the frontend may share one) is one web */
  for (int i = 0; i < w.ndefs - f->nparams; i++) note_use(&w, w.sorted[i].n, w.sorted[i].def);
  qsort(w.uses, (size_t)w.nuses, sizeof(Use), by_node);
  for (int i = 1; i < w.nuses; i++)
    if (w.uses[i].n == w.uses[i - 1].n) join_webs(&w, w.uses[i].def, w.uses[i - 1].def);
  int *slot = give_slots(&w);
  for (int i = 0; i < w.nuses; i++) w.uses[i].n->var = slot[find(&w, w.uses[i].def)];
}
