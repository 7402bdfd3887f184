/* builtins/funcsets.c — one of several compiled functions, chosen at run
 * time (TY_FUNCS): fns[i] of a tuple of them with a variable i (PyMPDATA's
 * atv[dim](...)), a for loop over such a tuple, a variable assigned
 * different ones (g = f if c else h), a list of them (of one alone too:
 * [f], typed.List([f]), a TY_FUNCS of one member), and such a value
 * passed on (for a FunctionType parameter too: the entry of the one it is)
 * and returned.
 *
 * Numba unifies such dispatchers into one first-class function type where
 * each was compiled for one signature with compiling disabled (an explicit
 * signature), and calls through its address. Here the value is the number
 * of the function it is, whatever was compiled before, and a call is a
 * switch over that number with a direct call of each function in its case:
 * each is compiled for the arguments (its keywords and defaults bound) as
 * any call is, so it may be inlined, and where the number is a constant
 * LLVM keeps its one case. The functions must return one type, as Numba's
 * one signature. A function a call returned (g(c)(x)) is called this way
 * too, with one case, so that the call that gives it is evaluated.
 */
#include "builtins/builtins.h"
#include "ir.h"

/* ---------------------------------------------------------------- typing */

/* The functions a value of type t may be (f alone for TY_FUNCTION f) into
 * m (n so far, each once, in order of first appearance); false where t
 * holds no compiled function or there are more than 64. */
static bool add_members(const Type *t, const Type **m, int *n) {
  if (t->kind != TY_FUNCTION && t->kind != TY_FUNCS) return false;
  int count = t->kind == TY_FUNCS ? t->nfields : 1;
  for (int i = 0; i < count; i++) {
    const Type *f = t->kind == TY_FUNCS ? t->fields[i] : t;
    int j = 0;
    while (j < *n && m[j] != f) j++;
    if (j < *n) continue;
    if (*n == 64) return false;
    m[(*n)++] = f;
  }
  return true;
}

const Type *ty_funcs_unify(const Type *a, const Type *b) {
  const Type *m[64];
  int n = 0;
  if (!add_members(a, m, &n) || !add_members(b, m, &n)) return NULL;
  bool alone = a->kind == TY_FUNCTION && b->kind == TY_FUNCTION;  /* (a list's [f] stays one of its functions) */
  return n == 1 && alone ? m[0] : ty_funcs(n, m);
}

const Type *ty_funcs_widening(const Type *a, const Type *b) {
  const Type *shorter = a->nfields < b->nfields ? a : b, *longer = shorter == a ? b : a;
  for (int i = 0; i < shorter->nfields; i++)
    if (shorter->fields[i] != longer->fields[i]) return NULL;
  return longer;
}

const Type *ty_funcs_of_tuple(const Type *t) {
  const Type *m[64];
  int n = 0;
  for (int i = 0; i < t->nfields; i++)  /* (an item that is one of several functions has a value: not here) */
    if (t->fields[i]->kind != TY_FUNCTION || !add_members(t->fields[i], m, &n)) return NULL;
  return n > 1 ? ty_funcs(n, m) : NULL;
}

/* The function f as a value where the call names it (an N_FUNC). */
static Node *function_node(Infer *in, const Node *at, const Type *f) {
  const char *name = f->name + strlen("function(");
  Node *v = arena_alloc(in->f->arena, sizeof(Node));
  *v = (Node){.kind = N_FUNC, .line = at->line, .col = at->col, .callee = (void *)f->callee};
  v->str = arena_strdup(in->f->arena, name);
  ((char *)v->str)[strlen(name) - 1] = '\0';  /* function(name) */
  return v;
}

static NodeList copy_list(Infer *in, NodeList from) {
  NodeList to = {.len = from.len};
  to.items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)(from.len ? from.len : 1));
  if (from.len) memcpy(to.items, from.items, sizeof(Node *) * (size_t)from.len);
  return to;
}

/* The call as written, of the function member alone (bound and typed as
 * a call of a variable holding it is). */
static Node *call_of_member(Infer *in, const Node *written, const Type *member) {
  Node *c = arena_alloc(in->f->arena, sizeof(Node));
  *c = *written;
  c->lhs = function_node(in, written, member);
  c->list = copy_list(in, written->list);  /* binding adds the member's defaults to its own, typing drops keywords given None */
  c->kw = copy_list(in, written->kw);
  c->kw_names = arena_alloc(in->f->arena, sizeof(char *) * (size_t)(written->kw.len ? written->kw.len : 1));
  if (written->kw.len) memcpy(c->kw_names, written->kw_names, sizeof(char *) * (size_t)written->kw.len);
  return c;
}

/* How many functions a value of type f may be, and the k-th (f itself
 * where it is one function, whose call goes this way where a call gave it). */
static int count_of(const Type *f) { return f->kind == TY_FUNCS ? f->nfields : 1; }
static const Type *member_of(const Type *f, int k) { return f->kind == TY_FUNCS ? f->fields[k] : f; }

/* Whether n's calls (body) are those of f's functions, in order. */
static bool calls_fit(const Node *n, const Type *f) {
  if (n->body.len != count_of(f)) return false;
  for (int k = 0; k < count_of(f); k++)
    if (n->body.items[k]->lhs->callee != member_of(f, k)->callee) return false;
  return true;
}

/* f(args) where f is one of several functions: the call as written moves
 * to data (its arguments out of the call's own, so that the passes see
 * them once per function), and a call of each function is made of it into
 * body; all return one type, what the call gives. */
const Type *ty_funcs_call(Infer *in, Node *n, const Type **args) {
  (void)args;
  const Type *f = ty_expr(in, n->lhs);
  if (!f) return NULL;
  if (!n->data) {
    Node *written = arena_alloc(in->f->arena, sizeof(Node));
    *written = *n;
    n->data = written;  /* (with its row: each function's call is typed by it) */
    n->bi = bi_named("one of several functions");
    n->list = (NodeList){0};
    n->kw = (NodeList){0};
    n->kw_names = NULL;
  }
  if (f->kind != TY_FUNCS && f->kind != TY_FUNCTION) return ty_error(in, n, "%s is not a function", f->name);
  if (!calls_fit(n, f)) {
    int count = count_of(f);
    n->body = (NodeList){.len = count, .items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)count)};
    for (int k = 0; k < count; k++) n->body.items[k] = call_of_member(in, n->data, member_of(f, k));
  }
  const Type *ret = NULL;
  for (int k = 0; k < count_of(f); k++) {
    const Type *r = ty_expr(in, n->body.items[k]);
    if (!r) return NULL;
    if (ret && r != ret)
      return ty_error(in, n, "%s and %s cannot be called through one value, %s, as they return %s and %s: "
                      "the functions chosen at run time must share one signature",
                      n->body.items[0]->lhs->str, n->body.items[k]->lhs->str, f->name, ret->name, r->name);
    ret = r;
  }
  return ret;
}

/* One of several functions passed where a callee's explicit signature
 * takes a first-class function (FunctionType fp): each function's entry
 * for fp (ty_function_entry_for: each compiled for it, or refused), the
 * one the value is picked at run time. */
bool ty_funcs_entry_for(Infer *in, Node **arg, const Type *fp) {
  const Type *f = (*arg)->ty;
  Node *pick = arena_alloc(in->f->arena, sizeof(Node));
  *pick = (Node){.kind = N_CALL, .line = (*arg)->line, .col = (*arg)->col, .bi = bi_named("one of several functions' entries"),
                 .lhs = *arg, .ty = fp};
  pick->list = (NodeList){.len = f->nfields, .items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)f->nfields)};
  for (int k = 0; k < f->nfields; k++) {
    Node *v = function_node(in, *arg, f->fields[k]);
    v->ty = f->fields[k];
    if (!ty_function_entry_for(in, &v, fp)) return false;
    pick->list.items[k] = v;
  }
  *arg = pick;
  return true;
}

/* ---------------------------------------------------------------- lowering */

/* The entry of the function the value (lhs) is, among its functions' (list). */
LLVMValueRef lo_funcs_entry(Lower *l, Node *n) {
  LLVMValueRef which = lo_expr(l, n->lhs), r = lo_expr(l, n->list.items[0]);
  for (int k = 1; k < n->list.len; k++)
    r = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, which, const_i64(l, k), ""), lo_expr(l, n->list.items[k]), r, "");
  return r;
}

/* The number among to's functions of the one that v (of type from) is. */
LLVMValueRef lo_funcs_convert(Lower *l, LLVMValueRef v, const Type *from, const Type *to) {
  int count = from->kind == TY_FUNCS ? from->nfields : 1;
  LLVMValueRef r = const_i64(l, 0);
  for (int i = 0; i < count; i++) {
    const Type *f = from->kind == TY_FUNCS ? from->fields[i] : from;
    int k = 0;
    while (k < to->nfields - 1 && to->fields[k] != f) k++;  /* (typing unified from into to: f is there) */
    if (count == 1) return const_i64(l, k);  /* a function alone has no value: its number is a constant */
    if (k) r = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, v, const_i64(l, i), ""), const_i64(l, k), r, "");
  }
  return r;
}

/* The number of the function at run-time index i of tuple t (wrapped if
 * negative, IndexError out of range, as Python's t[i]), among to's. */
LLVMValueRef lo_funcs_of_tuple(Lower *l, const Type *t, LLVMValueRef i, const Type *to) {
  LLVMValueRef n = const_i64(l, t->nfields);
  i = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), ""), LLVMBuildAdd(l->b, i, n, ""), i, "");
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntUGE, i, n, ""), RT_ERR_INDEX, "tuple index out of range");
  LLVMValueRef r = const_i64(l, 0);
  for (int p = 0; p < t->nfields; p++) {  /* a select each: the items are constants */
    int k = 0;
    while (k < to->nfields - 1 && to->fields[k] != t->fields[p]) k++;
    if (k) r = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, i, const_i64(l, p), ""), const_i64(l, k), r, "");
  }
  return r;
}

/* The call of the function the value is: a case per function, each a
 * direct call (its arguments evaluated there, after the callee, as
 * Python evaluates them), the result of the one taken. */
LLVMValueRef lo_funcs_call(Lower *l, Node *n) {
  LLVMValueRef which = lo_expr(l, n->lhs);
  int count = n->body.len;
  LLVMBasicBlockRef done = new_block(l, "funcs.done"), *cases = arena_alloc(l->f->arena, sizeof(LLVMBasicBlockRef) * (size_t)count);
  LLVMValueRef *results = arena_alloc(l->f->arena, sizeof(LLVMValueRef) * (size_t)count);
  for (int k = 0; k < count; k++) cases[k] = new_block(l, "funcs.case");
  LLVMValueRef sw = LLVMBuildSwitch(l->b, which, cases[count - 1], (unsigned)(count - 1));
  for (int k = 0; k < count - 1; k++) LLVMAddCase(sw, const_i64(l, k), cases[k]);
  for (int k = 0; k < count; k++) {
    position(l, cases[k]);
    Node *c = n->body.items[k];
    results[k] = c->bi->lower(l, c);  /* (not lo_expr: the result is the call's, owned after the cases join) */
    cases[k] = LLVMGetInsertBlock(l->b);
    LLVMBuildBr(l->b, done);
  }
  position(l, done);
  if (n->ty->kind == TY_NONE) return LLVMGetUndef(l->mod->i8);
  LLVMValueRef phi = LLVMBuildPhi(l->b, lo_type(l, n->ty), "funcs.result");
  LLVMAddIncoming(phi, results, cases, (unsigned)count);
  return phi;
}
