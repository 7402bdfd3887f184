/* builtins/polynomial.c — numpy.polynomial.polynomial's functions of
 * coefficient vectors (lowest degree first): polyadd, polysub, polymul,
 * polydiv, polyint, polyder (rt_poly, polynomial_rt.c; polyint and polyder
 * of N-d arrays too, a polynomial a column), polyval (Horner's
 * rule, inline, over every element of x), polyutils.trimseq (a view) and
 * polyutils.as_series (a list of vectors).
 *
 * A coefficient argument is a 1-d array, a tuple or list, or a number (a
 * vector of one); as NumPy's polyutils.as_series, ints are read as
 * float64, float32 and complex kept, two operands in their common type.
 */
#include "builtins/builtins.h"

/* ---------------------------------------------------------------- coefficients */

/* The dtype NumPy computes coefficients of dtype e in: float64 for ints and bools. */
static const Type *poly_dtype(const Type *e) { return ty_is_float(e) || ty_is_complex(e) ? e : TYS(TY_F64); }

/* the number x made numpy.asarray((x,)) in place */
static const Type *one_coefficient(Infer *in, Node *x) {
  Node *v = arena_alloc(in->f->arena, sizeof(Node));
  *v = *x;
  *x = (Node){.kind = N_TUPLE, .line = v->line, .col = v->col};
  x->list.items = arena_alloc(in->f->arena, sizeof(Node *));
  x->list.items[0] = v;
  x->list.len = 1;
  return ty_wrap_call(in, x, "numpy.asarray");
}

/* x made an array of coefficients: a list numpy.asarray of it, a number
 * one of one (tuples came as arrays, BF_ARRAYLIKE); 1-d unless any_ndim
 * (polyint's and polyder's columns); false after an error. */
static bool coefficients(Infer *in, Node *n, Node *x, const char *what, bool any_ndim) {
  if (x->ty->kind == TY_LIST && !ty_wrap_call(in, x, "numpy.asarray")) return false;
  if ((ty_is_scalar(x->ty) || ty_is_complex(x->ty)) && !one_coefficient(in, x)) return false;
  const Type *t = x->ty;
  if (t->kind != TY_ARRAY || (!ty_is_scalar(t->elem) && !ty_is_complex(t->elem)))
    return ty_error(in, x, "%s(): %s must be array-like (an array, a tuple, a list or a number), got %s", n->bi->name, what,
                    t->name) != NULL;
  if (t->ndim != 1 && !any_ndim)
    return ty_error(in, x, "%s(): Coefficient array is not 1-d (%s)", n->bi->name, t->name) != NULL;
  if (t->elem->kind == TY_F16) return ty_error(in, x, "%s(): float16 coefficients are not supported", n->bi->name) != NULL;
  return true;
}

/* ---------------------------------------------------------------- by rt_poly */

static const char *const int_kw[] = {"m", NULL};

/* polyadd, polysub, polymul (c1, c2): the common type's vector; polydiv a pair of them */
static const Type *ty_poly_pair(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  if (!coefficients(in, n, a, "c1", false) || !coefficients(in, n, b, "c2", false)) return NULL;
  if (a->ty->elem->kind == TY_BOOL || b->ty->elem->kind == TY_BOOL)  /* numpy.common_type has none */
    return ty_error(in, n, "%s(): Coefficient arrays have no common type (of bools)", n->bi->name);
  const Type *v = ty_array(np_promote(poly_dtype(a->ty->elem), poly_dtype(b->ty->elem)), 1, 'C', false);
  return n->bi->ival == PL_DIV ? ty_tuple(2, (const Type *[]){v, v}) : v;
}

/* polyint(c, m=1), polyder(c, m=1): c's shape but for axis 0's length
 * (NumPy's axis=0: each column of an N-d c a polynomial), m an int */
static const Type *ty_poly_order(Infer *in, Node *n, const Type **args) {
  Node *c = n->list.items[0], *m = bi_arg(n, 1, "m");
  if (!coefficients(in, n, c, "c", true)) return NULL;
  if (m && !ty_is_int(m->ty)) return ty_error(in, m, "%s(): m must be an integer, got %s", n->bi->name, m->ty->name);
  return ty_array(poly_dtype(c->ty->elem), c->ty->ndim, 'C', false);
}

static LLVMValueRef lo_poly(Lower *l, Node *n) {
  int op = n->bi->ival;
  bool pair = op <= PL_DIV;
  Node *a = n->list.items[0], *b = pair ? n->list.items[1] : NULL, *m = pair ? NULL : bi_arg(n, 1, "m");
  const Type *v = n->ty->kind == TY_TUPLE ? n->ty->fields[0] : n->ty, *e = v->elem;
  ArrayOperands ops = bi_array_operands(l, a, b, e);
  LLVMValueRef order = m ? lo_expr_as(l, m, TYS(TY_I64)) : const_i64(l, 1);
  LLVMValueRef out = lo_alloca(l, LLVMArrayType(l->mod->rtarray, 2), "poly.out");
  LLVMTypeRef pt[7] = {l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->i64, l->mod->ptr};
  LLVMValueRef args[7] = {const_i32(l, op), const_i32(l, (int)e->kind), ops.pa, const_i32(l, a->ty->ndim), ops.pb, order, out};
  bi_array_call_end(l, &ops, e, lo_call_fn(l, "rt_poly", l->mod->i32, pt, args, 7));
  LLVMValueRef r[2];
  for (int i = 0; i < (op == PL_DIV ? 2 : 1); i++)
    r[i] = lo_load_storage(l, v, LLVMBuildGEP2(l->b, l->mod->rtarray, out, (LLVMValueRef[]){const_i32(l, i)}, 1, ""));
  if (op != PL_DIV) return r[0];
  LLVMValueRef t = LLVMGetUndef(lo_type(l, n->ty));
  for (int i = 0; i < 2; i++) t = LLVMBuildInsertValue(l->b, t, r[i], (unsigned)i, "");
  return t;
}

/* ---------------------------------------------------------------- polyval */

static const char *const polyval_kw[] = {"tensor", NULL};

/* polyval(x, c, tensor=True): c's polynomial at x, a number or each
 * element of an array (c[-1] + x*0, then c[i] + y*x); of NumPy's
 * result_type(c, x), a number written in the source weak; a number at a
 * 0-d x, as NumPy's arithmetic on one gives. tensor changes nothing for
 * one vector c. An N-d c holds a polynomial along axis 0 for each index
 * of its other axes (its columns): the result has their shape, followed
 * by x's where tensor, else broadcast with x's, as NumPy's; tensor is then
 * a constant. */
static bool tensor_of(const Node *tensor) { return !tensor || tensor->ival; }

static const Type *ty_polyval(Infer *in, Node *n, const Type **args) {
  Node *x = n->list.items[0], *c = n->list.items[1], *tensor = bi_arg(n, 2, "tensor");
  if (x->ty->kind == TY_LIST && !ty_wrap_call(in, x, "numpy.asarray")) return NULL;
  if (!coefficients(in, n, c, "c", true)) return NULL;
  if (tensor && tensor->ty->kind != TY_BOOL)
    return ty_error(in, tensor, "%s(): tensor must be a bool, got %s", n->bi->name, tensor->ty->name);
  const Type *xt = x->ty, *e = poly_dtype(c->ty->elem);
  bool numbers = xt->kind == TY_ARRAY && (ty_is_scalar(xt->elem) || ty_is_complex(xt->elem)) && xt->elem->kind != TY_F16;
  int columns = c->ty->ndim - 1;
  if (columns && tensor && tensor->kind != N_BOOL)
    return ty_error(in, tensor, "%s(): tensor must be a constant True or False where c has more than one dimension",
                    n->bi->name);
  if (columns && (numbers || ty_is_scalar(xt) || ty_is_complex(xt))) {
    int xnd = numbers ? xt->ndim : 0;
    int nd = tensor_of(tensor) ? columns + xnd : columns > xnd ? columns : xnd;
    return ty_array(np_promote(e, numbers ? xt->elem : xt), nd, 'C', false);
  }
  if (numbers) return xt->ndim ? ty_array(np_promote(e, xt->elem), xt->ndim, 'C', false) : np_promote(e, xt->elem);
  if (!ty_is_scalar(xt) && !ty_is_complex(xt))
    return ty_error(in, x, "%s(): x must be a number or an array-like of numbers, got %s", n->bi->name, xt->name);
  return ty_is_weak(x) ? (ty_is_complex(xt) && !ty_is_complex(e) ? np_promote(e, xt) : e) : np_promote(e, xt);
}

typedef struct Horner {
  const Type *ct, *r, *xe; /* c's array type, the result's dtype, x's elements' */
  LLVMValueRef c, n;       /* c's value and length */
  LLVMValueRef out, at;    /* an array's result and the next element's place */
  LLVMValueRef *column;    /* an N-d c's: the index of the polynomial along its other axes */
} Horner;

static LLVMValueRef coefficient(Lower *l, const Horner *h, LLVMValueRef i) {
  LLVMValueRef at[RC_MAX_NDIM] = {i};
  for (int d = 1; d < h->ct->ndim; d++) at[d] = h->column[d - 1];
  LLVMValueRef v = lo_load_scalar(l, h->ct->elem, lo_element_addr(l, h->ct, h->c, at));
  return lo_convert(l, v, h->ct->elem, h->r);
}

static LLVMValueRef horner(Lower *l, const Horner *h, LLVMValueRef x) {
  const Type *r = h->r;
  LLVMValueRef zero = LLVMConstNull(lo_type(l, r)), last = LLVMBuildSub(l->b, h->n, const_i64(l, 1), "");
  LLVMValueRef y = lo_alloca(l, lo_type(l, r), "polyval");
  LLVMBuildStore(l->b, lo_binop_values(l, OP_ADD, r, coefficient(l, h, last), r, lo_binop_values(l, OP_MUL, r, x, r, zero, r), r), y);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), last, NULL, "polyval");
  LLVMValueRef i = LLVMBuildSub(l->b, LLVMBuildSub(l->b, last, const_i64(l, 1), ""), loop.index, "");
  LLVMValueRef yx = lo_binop_values(l, OP_MUL, r, LLVMBuildLoad2(l->b, lo_type(l, r), y, ""), r, x, r);
  LLVMBuildStore(l->b, lo_binop_values(l, OP_ADD, r, coefficient(l, h, i), r, yx, r), y);
  lo_loop_end(l, &loop);
  return LLVMBuildLoad2(l->b, lo_type(l, r), y, "");
}

static void polyval_element(Lower *l, LLVMValueRef v, void *arg) {
  Horner *h = arg;
  LLVMValueRef at = LLVMBuildLoad2(l->b, l->mod->i64, h->at, "");
  LLVMValueRef data = LLVMBuildExtractValue(l->b, h->out, 2, "");
  LLVMValueRef y = horner(l, h, lo_convert(l, v, h->xe, h->r));
  lo_store_scalar(l, h->r, LLVMBuildGEP2(l->b, lo_storage_type(l, h->r), data, &at, 1, ""), y);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, at, const_i64(l, 1), ""), h->at);
}

/* Of an N-d c: the result's index idx split into a column of c and an
 * index of x (x's lengths of 1 and the columns' broadcast where not tensor). */
typedef struct Columns {
  Horner h;
  const Type *xt;           /* x's array type, NULL for a number */
  LLVMValueRef x, xv;       /* x's value; a number's converted to the result's dtype */
  bool tensor;
  int nd;                   /* the result's dimensions */
} Columns;

static void polyval_column(Lower *l, LLVMValueRef *idx, void *arg) {
  Columns *k = arg;
  int nd = k->nd, columns = k->h.ct->ndim - 1, xnd = k->xt ? k->xt->ndim : 0;
  LLVMValueRef col[RC_MAX_NDIM], xi[RC_MAX_NDIM];
  for (int d = 0; d < columns; d++) {
    int at = k->tensor ? d : nd - columns + d;
    col[d] = k->tensor ? idx[at] : lo_broadcast_index(l, k->h.c, d + 1, idx[at]);
  }
  for (int d = 0; d < xnd; d++) {
    int at = k->tensor ? columns + d : nd - xnd + d;
    xi[d] = k->tensor ? idx[at] : lo_broadcast_index(l, k->x, d, idx[at]);
  }
  k->h.column = col;
  LLVMValueRef v = k->xv;
  if (k->xt) v = lo_convert(l, lo_load_scalar(l, k->h.xe, lo_element_addr(l, k->xt, k->x, xi)), k->h.xe, k->h.r);
  lo_store_scalar(l, k->h.r, lo_element_addr(l, ty_array(k->h.r, nd, 'C', false), k->h.out, idx), horner(l, &k->h, v));
}

/* the result's shape: c's columns', then x's (tensor), or the two broadcast */
static LLVMValueRef polyval_columns(Lower *l, Node *n, Columns *k) {
  int nd = k->nd = n->ty->ndim, columns = k->h.ct->ndim - 1, xnd = k->xt ? k->xt->ndim : 0;
  LLVMValueRef shape[RC_MAX_NDIM], cs[RC_MAX_NDIM], xs[RC_MAX_NDIM];
  for (int d = 0; d < columns; d++) cs[d] = lo_arr_shape(l, k->h.c, d + 1);
  for (int d = 0; d < xnd; d++) xs[d] = lo_arr_shape(l, k->x, d);
  if (k->tensor) {
    for (int d = 0; d < columns; d++) shape[d] = cs[d];
    for (int d = 0; d < xnd; d++) shape[columns + d] = xs[d];
  } else {
    for (int d = 0; d < nd; d++) shape[d] = const_i64(l, 1);
    LLVMValueRef bad = np_broadcast_into(l, shape, nd, cs, columns, const_bool(l, false));
    bad = np_broadcast_into(l, shape, nd, xs, xnd, bad);
    lo_raise_if(l, bad, RT_ERR_VALUE, "operands could not be broadcast together");
  }
  k->h.out = lo_alloc_array(l, n->ty, shape, -1);
  lo_for_each_index(l, nd, shape, polyval_column, k);
  return k->h.out;
}

static LLVMValueRef lo_polyval(Lower *l, Node *n) {
  Node *x = n->list.items[0], *c = n->list.items[1];
  const Type *r = n->ty->kind == TY_ARRAY ? n->ty->elem : n->ty;
  Horner h = {c->ty, r, elem_of(x->ty), lo_expr(l, c)};
  h.n = lo_arr_shape(l, h.c, 0);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, h.n, const_i64(l, 0), ""), RT_ERR_INDEX,
              "index -1 is out of bounds for axis 0 with size 0");
  LLVMValueRef y;
  if (c->ty->ndim > 1) {
    Columns k = {h, x->ty->kind == TY_ARRAY ? x->ty : NULL, lo_expr(l, x), NULL, tensor_of(bi_arg(n, 2, "tensor"))};
    if (!k.xt) k.xv = lo_convert(l, k.x, x->ty, r);
    y = polyval_columns(l, n, &k);
    lo_done_with(l, x, k.x);
  } else if (x->ty->kind == TY_ARRAY && n->ty->kind != TY_ARRAY) {  /* a 0-d x: its one element's */
    LLVMValueRef a = lo_expr(l, x);
    LLVMValueRef v = lo_load_scalar(l, h.xe, lo_element_addr(l, x->ty, a, NULL));
    lo_done_with(l, x, a);
    y = horner(l, &h, lo_convert(l, v, h.xe, r));
  } else if (x->ty->kind == TY_ARRAY) {
    Elements *el = lo_elements_begin(l, x);
    LLVMValueRef shape[RC_MAX_NDIM];
    for (int d = 0; d < x->ty->ndim; d++) shape[d] = lo_elements_shape(el, d);
    y = h.out = lo_alloc_array(l, n->ty, shape, -1);
    h.at = lo_alloca(l, l->mod->i64, "polyval.at");
    LLVMBuildStore(l->b, const_i64(l, 0), h.at);
    lo_elements_each(l, el, polyval_element, &h);
    lo_elements_end(l, el);
  } else {
    y = horner(l, &h, lo_expr_as(l, x, r));
  }
  lo_done_with(l, c, h.c);
  return y;
}

/* ---------------------------------------------------------------- trimseq */

/* polyutils.trimseq(seq): a view of seq without its trailing zeros (one
 * element kept; an empty seq itself) */
static const Type *ty_trimseq(Infer *in, Node *n, const Type **args) {
  const Type *t = args[0];
  if (t->kind != TY_ARRAY || t->ndim != 1 || (!ty_is_scalar(t->elem) && !ty_is_complex(t->elem)))
    return ty_error(in, n, "%s() needs a 1-d array of numbers, got %s", n->bi->name, t->name);
  return t;
}

static LLVMValueRef lo_trimseq(Lower *l, Node *n) {
  Node *s = n->list.items[0];
  const Type *t = s->ty, *e = t->elem;
  LLVMValueRef a = lo_expr(l, s), len = lo_arr_shape(l, a, 0);
  LLVMValueRef keep = lo_alloca(l, l->mod->i64, "trimseq");
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSGT, len, const_i64(l, 0), ""), const_i64(l, 1),
                                       const_i64(l, 0), ""), keep);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 1), len, NULL, "trimseq");
  LLVMValueRef v = lo_load_scalar(l, e, lo_element_addr(l, t, a, &loop.index));
  LLVMValueRef nonzero = lo_compare_values(l, OP_NE, v, e, LLVMConstNull(lo_type(l, e)), e);
  LLVMValueRef k = LLVMBuildLoad2(l->b, l->mod->i64, keep, "");
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, nonzero, LLVMBuildAdd(l->b, loop.index, const_i64(l, 1), ""), k, ""), keep);
  lo_loop_end(l, &loop);
  LLVMValueRef shape = LLVMBuildLoad2(l->b, l->mod->i64, keep, ""), stride = lo_arr_stride(l, t, a, 0);
  LLVMValueRef r = np_view(l, t, a, LLVMBuildExtractValue(l->b, a, 2, ""), &shape, &stride);
  lo_refcount(l, t, r, true);  /* the view's own reference to seq's memory */
  lo_done_with(l, s, a);
  return r;
}

/* ---------------------------------------------------------------- as_series */

static const char *const as_series_kw[] = {"trim", NULL};

static Node *new_node(Infer *in, Node init) {
  Node *x = arena_alloc(in->f->arena, sizeof(Node));
  *x = init;
  return x;
}

/* item i of the tuple t: its own node where t is written out, else t[i] */
static Node *tuple_item(Infer *in, Node *t, int i) {
  if (t->kind == N_TUPLE) return t->list.items[i];
  Node *at = new_node(in, (Node){.kind = N_INT, .line = t->line, .col = t->col, .ival = i});
  return new_node(in, (Node){.kind = N_INDEX, .line = t->line, .col = t->col, .lhs = t, .rhs = at});
}

/* The dtype of coefficients of type t (a 1-d array, a number, a tuple or
 * list of numbers) as as_series reads them; NULL if they are none of these. */
static const Type *series_dtype(const Type *t) {
  if (t->kind == TY_ARRAY) return t->ndim == 1 && ty_is_scalar(t->elem) && t->elem->kind != TY_F16 ? t->elem : NULL;
  if (t->kind == TY_LIST) return t->elem && ty_is_scalar(t->elem) && t->elem->kind != TY_F16 ? t->elem : NULL;
  if (ty_is_scalar(t)) return t;
  if (t->kind != TY_TUPLE || !t->nfields) return NULL;
  const Type *e = NULL;
  for (int i = 0; i < t->nfields; i++) {
    if (!ty_is_scalar(t->fields[i])) return NULL;
    e = e ? np_promote(e, t->fields[i]) : t->fields[i];
  }
  return e;
}

/* The items of an array or a list whose count is known when the call
 * runs: a 1-d array's numbers, a 2-d array's rows, a list's vectors (a
 * list of numbers made an array of them); their dtype, NULL if alist is
 * none of these. */
static const Type *items_dtype(Infer *in, Node *alist) {
  const Type *t = alist->ty;
  if (t->kind == TY_LIST && t->elem && ty_is_scalar(t->elem)) t = ty_wrap_call(in, alist, "numpy.asarray");
  if (!t) return NULL;
  if (t->kind == TY_ARRAY && (t->ndim == 1 || t->ndim == 2)) return series_dtype(ty_array(t->elem, 1, 'A', false));
  if (t->kind == TY_LIST && t->elem && t->elem->kind == TY_ARRAY) return series_dtype(t->elem);
  return NULL;
}

/* polyutils.as_series(alist, trim=True) of a tuple (a list written in the
 * call) of coefficient vectors: a list of 1-d arrays of their common type,
 * each trimmed with trim; the call becomes the list literal of a
 * "polyutils series"(item, dtype, trim) per item. Of an array or a list,
 * the same of their items (lo_as_series). */
static const Type *ty_as_series(Infer *in, Node *n, const Type **args) {
  Node *alist = n->list.items[0], *trim = bi_arg(n, 1, "trim");
  const Type *t = args[0], *e = NULL;
  if (trim && trim->ty->kind != TY_BOOL)
    return ty_error(in, trim, "%s(): trim must be a bool, got %s", n->bi->name, trim->ty->name);
  if (t->kind == TY_ARRAY || t->kind == TY_LIST) {
    const Type *d = items_dtype(in, alist);
    if (!d && !ty_failed(in))
      return ty_error(in, alist, "%s() takes a 1-d or 2-d array of numbers or a list of 1-d arrays of them, got %s",
                      n->bi->name, alist->ty->name);
    if (d && d->kind == TY_BOOL) return ty_error(in, alist, "%s(): Coefficient arrays have no common type (of bools)", n->bi->name);
    return d ? ty_list(ty_array(poly_dtype(d), 1, 'C', false)) : NULL;
  }
  if (t->kind != TY_TUPLE || !t->nfields)
    return ty_error(in, alist, "%s() takes a tuple of coefficient vectors (or a list written in the call), got %s",
                    n->bi->name, t->name);
  for (int i = 0; i < t->nfields; i++) {
    const Type *d = series_dtype(t->fields[i]);
    if (!d) return ty_error(in, alist, "%s(): item %d must be a 1-d array, a number or a tuple or list of numbers, got %s",
                            n->bi->name, i, t->fields[i]->name);
    if (d->kind == TY_BOOL) return ty_error(in, alist, "%s(): Coefficient arrays have no common type (of bools)", n->bi->name);
    e = e ? np_promote(e, poly_dtype(d)) : poly_dtype(d);
  }
  Node *dtype = new_node(in, (Node){.kind = N_DTYPE, .line = n->line, .col = n->col, .ival = e->kind});
  if (!trim) trim = new_node(in, (Node){.kind = N_BOOL, .line = n->line, .col = n->col, .ival = 1});
  Node **series = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)t->nfields);
  for (int i = 0; i < t->nfields; i++) {
    Node **three = arena_alloc(in->f->arena, 3 * sizeof(Node *));
    three[0] = tuple_item(in, alist, i), three[1] = dtype, three[2] = trim;
    series[i] = new_node(in, (Node){.kind = N_CALL, .line = n->line, .col = n->col, .bi = bi_named("polyutils series"),
                                    .list = {three, 3}});
  }
  *n = (Node){.kind = N_CALL, .line = n->line, .col = n->col, .bi = bi_named("list literal"), .list = {series, t->nfields}};
  return ty_expr(in, n);
}

static const Type *ty_series(Infer *in, Node *n, const Type **args) { return ty_array(args[1]->elem, 1, 'C', false); }

/* one item (v, a number or a 1-d array of type xt) as a new vector of
 * dtype e: ValueError where it is empty, its trailing zeros left out with
 * trim (one kept) */
static LLVMValueRef series_of(Lower *l, const Type *xt, LLVMValueRef v, const Type *e, LLVMValueRef trim) {
  const Type *xe = elem_of(xt), *vt = ty_array(e, 1, 'C', false);
  LLVMValueRef one = const_i64(l, 1);
  if (xt->kind != TY_ARRAY) {
    LLVMValueRef r = lo_alloc_array(l, vt, &one, -1);
    lo_store_scalar(l, e, LLVMBuildExtractValue(l->b, r, 2, ""), lo_convert(l, v, xe, e));
    return r;
  }
  LLVMValueRef len = lo_arr_shape(l, v, 0), keep = lo_alloca(l, l->mod->i64, "series");
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, len, const_i64(l, 0), ""), RT_ERR_VALUE, "Coefficient array is empty");
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, trim, one, len, ""), keep);
  LoLoop loop = lo_loop_begin(l, one, len, NULL, "series.trim");
  LLVMValueRef c = lo_load_scalar(l, xe, lo_element_addr(l, xt, v, &loop.index));
  LLVMValueRef nonzero = LLVMBuildAnd(l->b, trim, lo_compare_values(l, OP_NE, c, xe, LLVMConstNull(lo_type(l, xe)), xe), "");
  LLVMValueRef k = LLVMBuildLoad2(l->b, l->mod->i64, keep, "");
  LLVMBuildStore(l->b, LLVMBuildSelect(l->b, nonzero, LLVMBuildAdd(l->b, loop.index, one, ""), k, ""), keep);
  lo_loop_end(l, &loop);
  LLVMValueRef count = LLVMBuildLoad2(l->b, l->mod->i64, keep, "");
  LLVMValueRef r = lo_alloc_array(l, vt, &count, -1), data = LLVMBuildExtractValue(l->b, r, 2, "");
  LoLoop copy = lo_loop_begin(l, const_i64(l, 0), count, NULL, "series.copy");
  c = lo_load_scalar(l, xe, lo_element_addr(l, xt, v, &copy.index));
  lo_store_scalar(l, e, LLVMBuildGEP2(l->b, lo_storage_type(l, e), data, &copy.index, 1, ""), lo_convert(l, c, xe, e));
  lo_loop_end(l, &copy);
  return r;
}

static LLVMValueRef lo_series(Lower *l, Node *n) {
  Node *x = n->list.items[0];
  LLVMValueRef v = lo_expr(l, x), trim = lo_expr_as(l, n->list.items[2], TYS(TY_BOOL));
  LLVMValueRef r = series_of(l, x->ty, v, n->ty->elem, trim);
  if (x->ty->kind == TY_ARRAY) lo_done_with(l, x, v);
  return r;
}

/* as_series of an array or a list: item i (borrowed) and its type */
static LLVMValueRef series_item(Lower *l, const Type *t, LLVMValueRef v, LLVMValueRef i, const Type **it) {
  if (t->kind == TY_LIST) return *it = t->elem, lo_load_storage(l, t->elem, lo_list_item_addr(l, t->elem, v, i));
  if (t->ndim == 1) return *it = t->elem, lo_load_scalar(l, t->elem, lo_element_addr(l, t, v, &i));
  *it = ty_array(t->elem, 1, 'A', t->readonly);  /* row i, a view */
  LLVMValueRef at = LLVMBuildMul(l->b, i, lo_arr_stride(l, t, v, 0), ""), len = lo_arr_shape(l, v, 1);
  LLVMValueRef stride = lo_arr_stride(l, t, v, 1);
  return np_view(l, *it, v, LLVMBuildGEP2(l->b, l->mod->i8, LLVMBuildExtractValue(l->b, v, 2, ""), &at, 1, ""), &len, &stride);
}

static LLVMValueRef lo_as_series(Lower *l, Node *n) {
  Node *alist = n->list.items[0], *trim = bi_arg(n, 1, "trim");
  const Type *t = alist->ty, *vt = n->ty->elem, *it;
  LLVMValueRef v = lo_expr(l, alist), on = trim ? lo_expr_as(l, trim, TYS(TY_BOOL)) : const_bool(l, true);
  LLVMValueRef count = t->kind == TY_LIST ? lo_list_len(l, v) : lo_arr_shape(l, v, 0);
  LLVMValueRef lst = lo_list_new(l, vt, count);
  lo_temp_made(l, n->ty, lst);
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "as_series");
  LLVMValueRef item = series_item(l, t, v, loop.index, &it);
  lo_list_append(l, vt, lst, series_of(l, it, item, vt->elem, on));
  lo_loop_end(l, &loop);
  lo_temp_taken(l, lst);
  lo_done_with(l, alist, v);
  return lst;
}

/* ---------------------------------------------------------------- the rows */

#define POLY(name, lo, hi, kw, flags, ival, type, lower)                                                          \
  {"numpy.polynomial.polynomial." name, "numpy.polynomial.polynomial", name, BK_FUNCTION, 0, lo, hi, kw,       \
   BF_COMPLEX | BF_ARRAYLIKE | (flags), ival, 0, type, lower}

const Builtin bi_polynomial[] = {
  POLY("polyadd", 2, 2, NULL, BF_ALLOCATES | BF_RAISES, PL_ADD, ty_poly_pair, lo_poly),
  POLY("polysub", 2, 2, NULL, BF_ALLOCATES | BF_RAISES, PL_SUB, ty_poly_pair, lo_poly),
  POLY("polymul", 2, 2, NULL, BF_ALLOCATES | BF_RAISES, PL_MUL, ty_poly_pair, lo_poly),
  POLY("polydiv", 2, 2, NULL, BF_ALLOCATES | BF_RAISES, PL_DIV, ty_poly_pair, lo_poly),
  POLY("polyint", 1, 2, int_kw, BF_ALLOCATES | BF_RAISES, PL_INT, ty_poly_order, lo_poly),
  POLY("polyder", 1, 2, int_kw, BF_ALLOCATES | BF_RAISES, PL_DER, ty_poly_order, lo_poly),
  POLY("polyval", 2, 3, polyval_kw, BF_ALLOCATES | BF_RAISES, 0, ty_polyval, lo_polyval),
  {"numpy.polynomial.polyutils.as_series", "numpy.polynomial.polyutils", "as_series", BK_FUNCTION, 0, 1, 2, as_series_kw,
   BF_ALLOCATES | BF_RAISES | BF_COMPLEX, 0, 0, ty_as_series, lo_as_series},
  {"polyutils series", NULL, NULL, BK_FUNCTION, 0, 3, 3, NULL, BF_ALLOCATES | BF_RAISES | BF_COMPLEX | BF_ARRAYLIKE, 0, 0,
   ty_series, lo_series},
  {"numpy.polynomial.polyutils.trimseq", "numpy.polynomial.polyutils", "trimseq", BK_FUNCTION, 0, 1, 1, NULL, BF_COMPLEX,
   0, 0, ty_trimseq, lo_trimseq},
  BI_END,
};
