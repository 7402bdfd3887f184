/* builtins/indexing.c — NumPy's indexing of arrays: a[index] read, written
 * (a[index] = value) and updated (a[index] += value).
 *
 * An index is an item or a tuple of items, each an int, a slice, None
 * (numpy.newaxis), Ellipsis, or arrays: one of bools (a mask), or any
 * number of ints (fancy indexing, a[rows, cols]: broadcast together).
 * Without an array the result is a view sharing the array's memory (basic
 * indexing); with one it is a new array (advanced indexing), as in NumPy.
 * Lowering first evaluates the items in order and makes the view V that
 * the items other than the arrays select, keeping the dimensions the
 * arrays cover whole; advanced indexing then gathers from V, or scatters
 * into it, along those dimensions: the entries (a mask's True positions,
 * the int arrays' values at each position of their broadcast shape) in C
 * order, each with the sub-array of V's other dimensions. Their dimensions
 * come where the first array is, or first when the ints and the arrays are
 * not next to each other (a[0, :, idx], a[r, :, c]), NumPy's rule.
 *
 * x[mask] with a mask of x's shape, the common case, is a count of the
 * True values, then one pass without a branch that packs the selected
 * elements: a mask expression (x[x > 0]) is walked element by element,
 * fused, never stored; a plain contiguous mask is read 32 bytes at a time,
 * skipping runs of False and copying runs of True. x[mask] = scalar is one
 * pass that vectorises.
 */
#include "builtins/builtins.h"

#define MAX_ITEMS 32

typedef enum { IX_INT, IX_SLICE, IX_NEWAXIS, IX_ELLIPSIS, IX_MASK, IX_INTS } ItemKind;

/* What an index does, worked out from its items' types alone (the same
 * for typing and lowering). */
typedef struct Index {
  int nitems;
  Node *item[MAX_ITEMS];
  ItemKind kind[MAX_ITEMS];
  int dims[MAX_ITEMS];  /* the array's dimensions each item names (an Ellipsis: those no other does) */
  int array;            /* the first item that is an array, or -1 */
  int narrays;          /* the items that are arrays: one mask, or int arrays ... */
  int arrays[MAX_ITEMS];/* ... these, numbered in order */
  int vdim[MAX_ITEMS];  /* the dimension of V each int array covers */
  bool array_first;     /* their dimensions go first in the result: the ints and they are apart */
  int view_ndim;        /* dimensions of V */
  int at, covers;       /* the first dimension of V the arrays cover, how many they do */
  int cover[RC_MAX_NDIM]; /* per dimension of V: -1, or the coordinate of an entry it takes
                           * (a mask's dimension, an int array's number) */
  int array_ndim;       /* dimensions they give the result: 1 for a mask, the int arrays' broadcast ndim */
  int ndim;             /* dimensions of the result */
} Index;

static const char *const bad_item =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays "
    "are valid indices";

/* An error while typing (in), or nothing while lowering, where the index
 * has been typed already. */
static bool index_error(Infer *in, const Node *at, const char *msg, int a, int b) {
  if (in) ty_error(in, at, msg, a, b);
  return false;
}

static ItemKind item_kind(const Node *it) {
  switch (it->kind) {
  case N_SLICE: return IX_SLICE;
  case N_NONE: return IX_NEWAXIS;
  case N_ELLIPSIS: return IX_ELLIPSIS;
  default:
    if (it->ty->kind == TY_SLICE) return IX_SLICE;  /* a slice value other than a variable's (f(...)'s result) */
    if (it->ty->kind != TY_ARRAY) return IX_INT;
    return it->ty->elem->kind == TY_BOOL ? IX_MASK : IX_INTS;
  }
}

static bool is_array_item(ItemKind k) { return k == IX_MASK || k == IX_INTS; }

/* Whether the ints and the arrays of an advanced index are next to each
 * other (NumPy then puts the arrays' dimensions where the first is). */
static bool advanced_adjacent(const Index *ix) {
  int first = -1, last = -1;
  for (int i = 0; i < ix->nitems; i++)
    if (ix->kind[i] == IX_INT || is_array_item(ix->kind[i])) {
      if (first < 0) first = i;
      last = i;
    }
  for (int i = first; i <= last; i++)
    if (ix->kind[i] != IX_INT && !is_array_item(ix->kind[i])) return false;
  return true;
}

/* The index n applied to an array of type bt; false (with a TypingError
 * while typing) where NumPy would refuse it or ruchey does not do it. */
static bool index_form(Infer *in, const Node *n, const Type *bt, Index *ix) {
  const Node *rhs = n->rhs;
  bool tuple = rhs->kind == N_TUPLE;
  *ix = (Index){.nitems = tuple ? rhs->list.len : 1, .array = -1};
  if (ix->nitems > MAX_ITEMS) return index_error(in, n, "an index of more than %d items is not supported", MAX_ITEMS, 0);
  int named = 0, ellipsis = -1;
  for (int i = 0; i < ix->nitems; i++) {
    Node *it = tuple ? rhs->list.items[i] : (Node *)rhs;
    ix->item[i] = it;
    ItemKind k = ix->kind[i] = item_kind(it);
    if (k == IX_ELLIPSIS) {
      if (ellipsis >= 0) return index_error(in, it, "an index can only have a single ellipsis ('...')", 0, 0);
      ellipsis = i;
      continue;
    }
    if (is_array_item(k)) {
      if (ix->narrays && (k == IX_MASK || ix->kind[ix->array] == IX_MASK))
        return index_error(in, it, "indexing with a boolean array together with another array (a[mask, idx]) is not "
                           "supported: index one axis at a time, or use numpy.nonzero(mask)", 0, 0);
      if (k == IX_MASK && it->ty->ndim == 0)
        return index_error(in, it, "a 0-dimensional boolean index is not supported", 0, 0);
      if (ix->array < 0) ix->array = i;
      ix->arrays[ix->narrays++] = i;
    }
    ix->dims[i] = k == IX_NEWAXIS ? 0 : k == IX_MASK ? it->ty->ndim : 1;
    named += ix->dims[i];
  }
  if (named > bt->ndim)
    return index_error(in, n, "too many indices for array: array is %d-dimensional, but %d were indexed", bt->ndim, named);
  if (ellipsis >= 0) ix->dims[ellipsis] = bt->ndim - named;
  int vd = 0, number = 0;
  for (int i = 0; i < ix->nitems; i++) {
    if (i == ix->array) ix->at = vd;
    if (ix->kind[i] == IX_INT) continue;
    int nd = ix->kind[i] == IX_NEWAXIS ? 1 : ix->dims[i];
    if (vd + nd > RC_MAX_NDIM) return index_error(in, n, "an index naming more than %d dimensions is not supported", RC_MAX_NDIM, 0);
    for (int k = 0; k < nd; k++) ix->cover[vd + k] = ix->kind[i] == IX_MASK ? k : ix->kind[i] == IX_INTS ? number : -1;
    if (ix->kind[i] == IX_INTS) ix->vdim[number++] = vd;
    vd += nd;
  }
  ix->view_ndim = vd + bt->ndim - named - (ellipsis >= 0 ? ix->dims[ellipsis] : 0);
  if (ix->view_ndim > RC_MAX_NDIM)
    return index_error(in, n, "an index naming more than %d dimensions is not supported", RC_MAX_NDIM, 0);
  for (int d = vd; d < ix->view_ndim; d++) ix->cover[d] = -1;
  ix->ndim = ix->view_ndim;
  if (ix->array >= 0) {
    bool mask = ix->kind[ix->array] == IX_MASK;
    ix->covers = mask ? ix->dims[ix->array] : ix->narrays;
    ix->array_ndim = mask ? 1 : 0;
    for (int k = 0; !mask && k < ix->narrays; k++)
      if (ix->item[ix->arrays[k]]->ty->ndim > ix->array_ndim) ix->array_ndim = ix->item[ix->arrays[k]]->ty->ndim;
    ix->array_first = !advanced_adjacent(ix);
    ix->ndim = ix->view_ndim - ix->covers + ix->array_ndim;
  }
  if (ix->ndim > RC_MAX_NDIM)
    return index_error(in, n, "the result would have %d dimensions, more than the %d supported", ix->ndim, RC_MAX_NDIM);
  return true;
}

/* ---------------------------------------------------------------- typing */

/* A written slice's start, stop or step as given: NULL where it is left
 * out or None (a[None:n], a[start:] of an argument start=None), as Python's
 * slice takes None for a part left out. */
static Node *given_part(Node *x) { return x && x->ty && x->ty->kind == TY_NONE ? NULL : x; }

/* Whether slice item s steps by 1: a slice value's step given is not known until run time. */
static bool unit_step(const Node *s) {
  if (s->kind != N_SLICE) return !(s->ty->unit & 4);
  const Node *step = given_part(s->cond);
  return !step || (step->kind == N_INT && step->ival == 1);
}

static bool whole_slice(const Node *s) {
  return s->kind == N_SLICE && !given_part(s->lhs) && !given_part(s->rhs) && unit_step(s);
}

/* One item of a view's index, the items read in memory's order from the
 * outermost dimension: whether the view can still be contiguous. After the
 * one partial slice or a whole dimension (past), only whole dimensions may
 * follow (new axes, of length 1, do not matter). */
static bool item_keeps_contiguous(const Index *ix, int i, bool *past) {
  switch (ix->kind[i]) {
  case IX_INT: return !*past;
  case IX_ELLIPSIS: *past |= ix->dims[i] > 0; return true;
  case IX_SLICE:
    if (!whole_slice(ix->item[i]) && (!unit_step(ix->item[i]) || *past)) return false;
    *past = true;
    return true;
  default: return true;
  }
}

/* Whether a view of a C-contiguous array stays C-contiguous: some ints,
 * then at most one slice with unit step, then whole dimensions only. */
static bool view_contiguous(const Type *bt, const Index *ix) {
  if (bt->layout != 'C') return false;
  bool past = false;
  for (int i = 0; i < ix->nitems; i++)
    if (!item_keeps_contiguous(ix, i, &past)) return false;
  return true;
}

/* Whether a view of a Fortran-contiguous array stays Fortran-contiguous:
 * the same, read from the last item to the first (from the innermost
 * dimension in memory, where dimensions left out at the end come first,
 * whole), as Numba types such views (a[..., :k] of a Fortran a). */
static bool view_fortran(const Type *bt, const Index *ix) {
  if (bt->layout != 'F') return false;
  int named = 0;
  for (int i = 0; i < ix->nitems; i++) named += ix->dims[i];
  bool past = named < bt->ndim;
  for (int i = ix->nitems - 1; i >= 0; i--)
    if (!item_keeps_contiguous(ix, i, &past)) return false;
  return true;
}

static bool type_item(Infer *in, Node *it) {
  if (it->kind == N_NONE || it->kind == N_ELLIPSIS) {
    it->ty = TYS(TY_NONE);
    return true;
  }
  if (it->kind == N_SLICE) {
    Node *parts[3] = {it->lhs, it->rhs, it->cond};
    for (int k = 0; k < 3; k++) {
      const Type *pt = parts[k] ? ty_maybe_none(in, parts[k]) : TYS(TY_I64);
      if (!pt) return false;
      const Type *value = pt->kind == TY_OPTIONAL ? pt->elem : pt;  /* (None at run time: left out) */
      if (!ty_is_int(value) && value->kind != TY_BOOL && value->kind != TY_INTENUM && pt->kind != TY_NONE)
        return ty_error(in, parts[k], "slice indices must be integers or None, got %s", pt->name) != NULL;
    }
    it->ty = TYS(TY_I64);
    return true;
  }
  const Type *t = ty_expr(in, it);
  if (!t) return false;
  /* a 0-d array of ints is the int it holds, as NumPy and Numba read it
   * (csr's row = np.asarray(row, dtype='i4'), then a.rowptrs[row]) */
  if (t->kind == TY_ARRAY && t->ndim == 0 && ty_is_int(t->elem) && !(t = ty_scalar_of_0d(in, it, t))) return false;
  if (ty_is_int(t) || t->kind == TY_BOOL || t->kind == TY_SLICE) return true;
  if (t->kind == TY_ARRAY && (ty_is_int(t->elem) || t->elem->kind == TY_BOOL)) return true;
  if (t->kind == TY_ARRAY) return ty_error(in, it, "arrays used as indices must be of integer (or boolean) type, got %s", t->name) != NULL;
  return ty_error(in, it, "%s, got %s", bad_item, t->name) != NULL;
}

/* An index item of type t standing for itself (Ellipsis or None held in a
 * variable or a tuple: py-pde's bc_idx = (..., y)): its token, or NULL. */
static Node *token_item(Infer *in, const Type *t, const Node *at) {
  if (t->kind != TY_ELLIPSIS && t->kind != TY_NONE) return NULL;
  Node *token = arena_alloc(in->f->arena, sizeof(Node));
  *token = (Node){.kind = t->kind == TY_ELLIPSIS ? N_ELLIPSIS : N_NONE, .line = at->line, .col = at->col};
  return token;
}

Node *ty_tuple_item(Infer *in, Node *t, int i) {
  Node *k = arena_alloc(in->f->arena, sizeof(Node)), *item = arena_alloc(in->f->arena, sizeof(Node));
  *k = (Node){.kind = N_INT, .line = t->line, .col = t->col, .ival = i, .str = "item"};
  *item = (Node){.kind = N_INDEX, .line = t->line, .col = t->col, .lhs = t, .rhs = k};
  return item;
}

/* Item i of the tuple value t as an index item: t[i], or the token it holds. */
static Node *index_item(Infer *in, Node *t, const Type *tt, int i) {
  Node *itself = token_item(in, tt->fields[i], t);
  return itself ? itself : ty_tuple_item(in, t, i);
}

/* Whether reading x again costs nothing and changes nothing: a variable,
 * its attribute (a.shape), a slice or item of it (idx[1:]). */
static bool reads_freely(const Node *x) {
  if (x->kind == N_VAR) return true;
  if (x->kind == N_ATTR) return reads_freely(x->lhs);
  return x->kind == N_INDEX && x->lhs->kind == N_VAR && (x->rhs->kind == N_INT || x->rhs->kind == N_SLICE);
}

/* The parts of a sum of tuples (a[(..., *idx)] is a[(...,) + idx]) into
 * items: a written tuple's items as they are, a tuple value's read from it
 * (a variable or its attribute); false, no error, where a part is no tuple
 * (a[i + j]). */
static bool sum_items(Infer *in, Node *x, Node **items, int *n) {
  if (x->kind == N_BINOP && x->op == OP_ADD) return sum_items(in, x->lhs, items, n) && sum_items(in, x->rhs, items, n);
  if (x->kind == N_TUPLE) {
    for (int i = 0; i < x->list.len; i++) {
      if (*n == MAX_ITEMS) return false;
      items[(*n)++] = x->list.items[i];
    }
    return true;
  }
  const Type *t = ty_expr(in, x);
  if (!t || t->kind != TY_TUPLE || !reads_freely(x)) return false;
  for (int i = 0; i < t->nfields; i++) {
    if (*n == MAX_ITEMS) return false;
    items[(*n)++] = index_item(in, x, t, i);
  }
  return true;
}

static void flatten_index_sum(Infer *in, Node *n) {
  if (n->rhs->kind != N_BINOP || n->rhs->op != OP_ADD) return;
  Node *items[MAX_ITEMS];
  int count = 0;
  if (!sum_items(in, n->rhs, items, &count) || ty_failed(in)) return;
  Node *t = arena_alloc(in->f->arena, sizeof(Node));
  *t = (Node){.kind = N_TUPLE, .line = n->rhs->line, .col = n->rhs->col};
  t->list.len = count;
  t->list.items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)(count ? count : 1));
  memcpy(t->list.items, items, sizeof(Node *) * (size_t)count);
  n->rhs = t;
}

/* a[t] with t a tuple value (a variable, numpy.ndindex's index): the
 * index written out, (t[0], t[1], ...), t read once per item, so only
 * where reading it again is free. */
static bool spread_tuple_index(Infer *in, Node *n) {
  flatten_index_sum(in, n);
  Node *t = n->rhs;
  const Type *tt = t->kind == N_TUPLE || t->kind == N_SLICE || t->kind == N_NONE || t->kind == N_ELLIPSIS
                       ? NULL : ty_expr(in, t);
  Node *token = tt && t->kind == N_VAR ? token_item(in, tt, t) : NULL;
  if (token) n->rhs = token;
  if (!tt || tt->kind != TY_TUPLE) return !ty_failed(in);
  if (t->kind != N_VAR && !(t->kind == N_CALL && t->bi && (t->bi->flags & BF_PURE)))
    return ty_error(in, t, "an array is indexed by a tuple value only from a variable: assign the tuple first") != NULL;
  if (tt->nfields > MAX_ITEMS) return ty_error(in, n, "an index of more than %d items is not supported", MAX_ITEMS) != NULL;
  Node *items = arena_alloc(in->f->arena, sizeof(Node));
  *items = (Node){.kind = N_TUPLE, .line = t->line, .col = t->col};
  items->list.len = tt->nfields;
  items->list.items = arena_alloc(in->f->arena, sizeof(Node *) * (size_t)(tt->nfields ? tt->nfields : 1));
  for (int i = 0; i < tt->nfields; i++) items->list.items[i] = index_item(in, t, tt, i);
  n->rhs = items;
  return true;
}

const Type *ty_array_index(Infer *in, Node *n, const Type *bt) {
  if (!spread_tuple_index(in, n)) return NULL;
  Node *rhs = n->rhs;
  bool tuple = rhs->kind == N_TUPLE;
  int nitems = tuple ? rhs->list.len : 1;
  for (int i = 0; i < nitems; i++)
    if (!type_item(in, tuple ? rhs->list.items[i] : rhs)) return NULL;
  if (tuple) {
    const Type *f[MAX_ITEMS];
    if (nitems > MAX_ITEMS) return ty_error(in, n, "an index of more than %d items is not supported", MAX_ITEMS);
    for (int i = 0; i < nitems; i++) f[i] = rhs->list.items[i]->ty;
    rhs->ty = ty_tuple(nitems, f);
  }
  Index ix;
  if (!index_form(in, n, bt, &ix)) return NULL;
  /* Python copies a slice of these into a new object of their class, which
   * compiled code has no value for (a view would share the memory) */
  if ((bt->unit == 'B' || bt->unit == 'P') && (ix.array >= 0 || ix.ndim > 0))
    return ty_error(in, n, "a slice of a %s is a copy in Python, not supported in compiled code: slice a memoryview "
                    "of it, or a NumPy array", bt->unit == 'B' ? "bytearray" : "array.array");
  if (ix.array >= 0) {
    if (ty_no_allocation(in))
      return ty_error(in, n, "indexing with an array makes a new array, which kernels cannot: index with ints "
                      "and slices");
    return ty_array(bt->elem, ix.ndim, 'C', false);
  }
  /* ints alone name an element; with an Ellipsis NumPy gives a 0-d view */
  bool ellipsis = false;
  for (int i = 0; i < ix.nitems; i++) ellipsis |= ix.kind[i] == IX_ELLIPSIS;
  if (ix.ndim == 0 && !ellipsis && ty_is_fixed_text(bt->elem) && ty_no_allocation(in) && in->store_target != n)
    return ty_error(in, n, "items of arrays of str or bytes (%s) are not supported in kernels: each is a new str or "
                    "bytes (a constant one can be stored)", bt->name);
  if (ix.ndim == 0 && !ellipsis)  /* '<Un': a str, '|Sn': a bytes */
    return bt->elem->kind == TY_CHARSEQ ? TYS(TY_STR) : bt->elem->kind == TY_BYTESEQ ? TYS(TY_BYTES) : bt->elem;
  char layout = view_contiguous(bt, &ix) ? 'C' : view_fortran(bt, &ix) ? (ix.ndim > 1 ? 'F' : 'C') : 'A';
  const Type *view = ty_array(bt->elem, ix.ndim, layout, bt->readonly);
  return bt->unit == 'M' ? ty_buffer(view, 'M') : view;  /* a memoryview's slice is a memoryview, as Python's */
}

/* x[mask] with one mask of x's shape: NumPy's own rules for assigning to
 * it, and the fused paths. */
static bool whole_mask(const Node *n) {
  const Node *m = n->rhs;
  return m->kind != N_TUPLE && m->ty->kind == TY_ARRAY && m->ty->elem->kind == TY_BOOL &&
         m->ty->ndim == n->lhs->ty->ndim;
}

bool ix_is_advanced(const Node *n) {
  Index ix;
  return n->kind == N_INDEX && n->lhs->ty->kind == TY_ARRAY && index_form(NULL, n, n->lhs->ty, &ix) && ix.array >= 0;
}

/* target[index] = value, where target[index] is an array (a view, or the
 * elements an array index selects). */
/* A list literal, nested ones too, made a tuple of its items: what
 * numpy.array reads (as the frontend reads a builtin's list arguments). */
static bool literal_as_tuple(Node *n) {
  if (n->kind == N_TUPLE) return true;
  if (n->kind != N_CALL || n->bi != bi_named("list literal")) return false;
  n->kind = N_TUPLE;
  n->bi = NULL;
  for (int i = 0; i < n->list.len; i++) literal_as_tuple(n->list.items[i]);
  return true;
}

void ty_row_literal(Infer *in, Node *target, Node *value) {
  const Type *bt = ty_expr(in, target->lhs);
  if (bt && bt->kind == TY_ARRAY) literal_as_tuple(value);
}

void ty_index_store(Infer *in, Node *target, const Type *t, Node *at) {
  const Type *sel = target->ty;
  if (ty_is_fixed_text(sel->elem)) {
    ty_error(in, at, "storing into several items of an array of str or bytes (%s) is not supported in compiled code: "
             "store one item at a time (a[i] = s)", sel->name);
    return;
  }
  if (ty_is_scalar(t)) {
    ty_time_store(in, at, t, sel->elem);
    return;
  }
  bool written_out = at->kind == N_TUPLE || (at->kind == N_CALL && at->bi == bi_named("list literal"));
  if (t->kind == TY_LIST && !written_out) {  /* a[i:j] = a_list: its items as numpy.asarray reads them */
    if (!(t = ty_wrap_call(in, at, "numpy.asarray"))) return;
  } else if (t->kind == TY_TUPLE || t->kind == TY_LIST) {  /* a[i] = [x, y]: stored as numpy.array((x, y)) */
    Node *seq = arena_alloc(in->f->arena, sizeof(Node));
    *seq = *at;
    literal_as_tuple(seq);
    *at = (Node){.kind = N_CALL, .line = seq->line, .col = seq->col, .bi = bi_named("numpy.array")};
    at->list.len = 1;
    at->list.items = arena_alloc(in->f->arena, sizeof(Node *));
    at->list.items[0] = seq;
    if (!(t = ty_expr(in, at))) return;
  }
  if (t->kind != TY_ARRAY) {
    ty_error(in, at, "cannot store %s into %s", t->name, sel->name);
    return;
  }
  if (!ty_time_store(in, at, t->elem, sel->elem)) return;
  if (whole_mask(target) && t->ndim > 1)
    ty_error(in, at, "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has %d "
             "dimensions", t->ndim);
}

/* ---------------------------------------------------------------- errors */

/* if (bad) raise rt_index_error(kind, a, b, c): NumPy's messages with
 * numbers in them. Noted only, in a loop run with its errors deferred. */
void lo_raise_index_error_if(Lower *l, LLVMValueRef bad, int kind, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c) {
  RtStatus status = kind == 2 ? RT_ERR_VALUE : RT_ERR_INDEX;
  if (l->deferred || l->mod->gpu || l->opts->kernel || l->opts->device) {  /* (a kernel's names the thread) */
    lo_raise_if(l, bad, status, "index is out of bounds");
    return;
  }
  LLVMBasicBlockRef fail = new_block(l, "index.bad"), ok = new_block(l, "index.ok");
  LLVMBuildCondBr(l->b, lo_expect(l, bad, false), fail, ok);
  position(l, fail);
  LLVMTypeRef p[4] = {l->mod->i64, l->mod->i64, l->mod->i64, l->mod->i64};
  lo_call_fn(l, "rt_index_error", void_type(l), p, (LLVMValueRef[]){const_i64(l, kind), a, b, c}, 4);
  lo_raise_recorded(l, status);
  position(l, ok);
}

/* i in [-len, len), wrapped to [0, len); else NumPy's IndexError naming
 * the axis (known at run time). One test on the way of an index in
 * [0, len), which LLVM drops where the loop's bounds prove it (m[i + 1]
 * in range(len(m) - 1)); a negative one wraps off it. A select of the
 * wrapped index and a test of it were both on the way: a loop taking
 * m[i] and m[i + 1] kept a test and a select of each per iteration.
 * (They stay where the check is only noted.) */
LLVMValueRef lo_index_wrapped_on(Lower *l, LLVMValueRef i, LLVMValueRef len, LLVMValueRef axis) {
  if (l->deferred) {  /* a check only noted: selects, which a vector loop takes */
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, i, const_i64(l, 0), "");
    LLVMValueRef k = LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, i, len, ""), i, "idx");
    lo_raise_index_error_if(l, LLVMBuildICmp(l->b, LLVMIntUGE, k, len, ""), 0, i, axis, len);
    return k;
  }
  LLVMBasicBlockRef here = LLVMGetInsertBlock(l->b), wrap = new_block(l, "index.wrap"), join = new_block(l, "index.in");
  LLVMBuildCondBr(l->b, lo_expect(l, LLVMBuildICmp(l->b, LLVMIntULT, i, len, ""), true), join, wrap);
  position(l, wrap);
  LLVMValueRef wrapped = LLVMBuildAdd(l->b, i, len, "");
  lo_raise_index_error_if(l, LLVMBuildICmp(l->b, LLVMIntUGE, wrapped, len, ""), 0, i, axis, len);
  LLVMBasicBlockRef wrap_end = LLVMGetInsertBlock(l->b);
  LLVMBuildBr(l->b, join);
  position(l, join);
  LLVMValueRef k = LLVMBuildPhi(l->b, l->mod->i64, "idx");
  LLVMAddIncoming(k, (LLVMValueRef[]){i, wrapped}, (LLVMBasicBlockRef[]){here, wrap_end}, 2);
  return k;
}

LLVMValueRef lo_index_wrapped(Lower *l, LLVMValueRef i, LLVMValueRef len, int axis) {
  return lo_index_wrapped_on(l, i, len, const_i64(l, axis));
}

/* ---------------------------------------------------------------- the view V */

typedef struct View {
  int ndim;
  LLVMValueRef data, shape[RC_MAX_NDIM], stride[RC_MAX_NDIM];
  int axis[RC_MAX_NDIM];  /* the array's axis each dimension is, -1 for a new one */
} View;

/* An index evaluated: the array, its items, and V. */
typedef struct Indexed {
  Index ix;
  Node *n;
  const Type *bt;
  LLVMValueRef base;
  LLVMValueRef value[MAX_ITEMS];     /* IX_INT: the int64 */
  LLVMValueRef part[MAX_ITEMS][3];   /* IX_SLICE: start, stop, step as given (NULL: absent) */
  LLVMValueRef array[MAX_ITEMS];     /* the array items, by number, or NULL (walked fused, or none) */
  View v;
} Indexed;

/* Python's slice.indices() for a dimension of length len: start, step and
 * the length of the view. */
static void slice_bounds(Lower *l, LLVMValueRef *given, LLVMValueRef len, LLVMValueRef *start,
                         LLVMValueRef *step, LLVMValueRef *count) {
  LLVMValueRef bound[3];
  lo_slice_indices(l, given, len, bound);
  *start = bound[0];
  *step = bound[2];
  *count = lo_range_count(l, bound[0], bound[1], *step);
}

/* A written slice's part as an int64; an Optional's value, *present
 * whether it holds one. */
static LLVMValueRef slice_part_value(Lower *l, Node *x, LLVMValueRef *present) {
  if (x->ty->kind != TY_OPTIONAL) return lo_expr_as(l, x, TYS(TY_I64));
  LLVMValueRef v = lo_expr(l, x);
  *present = LLVMBuildExtractValue(l->b, v, 1, "");
  return lo_convert(l, LLVMBuildExtractValue(l->b, v, 0, ""), x->ty->elem, TYS(TY_I64));
}

/* Optional parts None at run time read as left out: the step as 1, the
 * start and stop as the ends that lo_slice_indices clamps to where a part
 * left out begins and ends (by the step's sign). */
static void none_parts_left_out(Lower *l, LLVMValueRef *part, LLVMValueRef *present) {
  if (present[2]) part[2] = LLVMBuildSelect(l->b, present[2], part[2], const_i64(l, 1), "");
  LLVMValueRef neg = part[2] ? LLVMBuildICmp(l->b, LLVMIntSLT, part[2], const_i64(l, 0), "") : const_bool(l, false);
  LLVMValueRef top = const_i64(l, INT64_MAX), bottom = const_i64(l, INT64_MIN);
  if (present[0]) part[0] = LLVMBuildSelect(l->b, present[0], part[0], LLVMBuildSelect(l->b, neg, top, const_i64(l, 0), ""), "");
  if (present[1]) part[1] = LLVMBuildSelect(l->b, present[1], part[1], LLVMBuildSelect(l->b, neg, bottom, top, ""), "");
}

/* The array, then the items in order, as Python builds the index before
 * using it; the array item too unless it is to be walked fused. */
static void evaluate(Lower *l, Node *n, Indexed *x, bool array_too) {
  memset(x, 0, sizeof *x);
  x->n = n;
  x->bt = n->lhs->ty;
  index_form(NULL, n, x->bt, &x->ix);
  x->base = lo_expr(l, n->lhs);
  int number = 0;
  for (int i = 0; i < x->ix.nitems; i++) {
    Node *it = x->ix.item[i];
    switch (x->ix.kind[i]) {
    case IX_INT: x->value[i] = lo_expr_as(l, it, TYS(TY_I64)); break;
    case IX_SLICE: {
      if (it->kind != N_SLICE) {  /* a slice value, evaluated once: its parts given, as its type says */
        LLVMValueRef s = lo_expr(l, it);
        for (unsigned k = 0; k < 3; k++)
          x->part[i][k] = it->ty->unit & (1 << k) ? LLVMBuildExtractValue(l->b, s, k, "slice.part") : NULL;
        break;
      }
      Node *parts[3] = {it->lhs, it->rhs, it->cond};
      LLVMValueRef present[3] = {NULL, NULL, NULL};
      for (int k = 0; k < 3; k++) x->part[i][k] = given_part(parts[k]) ? slice_part_value(l, parts[k], &present[k]) : NULL;
      none_parts_left_out(l, x->part[i], present);
      break;
    }
    case IX_MASK: case IX_INTS:
      if (array_too) x->array[number] = lo_expr(l, it);
      number++;
      break;
    default: break;
    }
  }
}

static void add_dim(View *v, LLVMValueRef len, LLVMValueRef stride, int axis) {
  v->shape[v->ndim] = len;
  v->stride[v->ndim] = stride;
  v->axis[v->ndim++] = axis;
}

/* V: the ints applied (checked), the slices and new axes made, the
 * dimensions of an Ellipsis, of the array item and after the items kept
 * whole. */
static void make_view(Lower *l, Indexed *x) {
  const Type *bt = x->bt;
  View *v = &x->v;
  LLVMValueRef offset = const_i64(l, 0);
  int d = 0;
  for (int i = 0; i < x->ix.nitems; i++) {
    switch (x->ix.kind[i]) {
    case IX_INT: {
      LLVMValueRef k = lo_index_wrapped(l, x->value[i], lo_arr_shape(l, x->base, d), d);
      offset = LLVMBuildAdd(l->b, offset, LLVMBuildMul(l->b, k, lo_arr_stride(l, bt, x->base, d), ""), "");
      d++;
      break;
    }
    case IX_SLICE: {
      LLVMValueRef start, step, count, stride = lo_arr_stride(l, bt, x->base, d);
      slice_bounds(l, x->part[i], lo_arr_shape(l, x->base, d), &start, &step, &count);
      offset = LLVMBuildAdd(l->b, offset, LLVMBuildMul(l->b, start, stride, ""), "");
      add_dim(v, count, LLVMBuildMul(l->b, stride, step, ""), d++);
      break;
    }
    case IX_NEWAXIS: add_dim(v, const_i64(l, 1), const_i64(l, 0), -1); break;
    default:
      for (int k = 0; k < x->ix.dims[i]; k++, d++) add_dim(v, lo_arr_shape(l, x->base, d), lo_arr_stride(l, bt, x->base, d), d);
    }
  }
  for (; d < bt->ndim; d++) add_dim(v, lo_arr_shape(l, x->base, d), lo_arr_stride(l, bt, x->base, d), d);
  LLVMValueRef data = LLVMBuildExtractValue(l->b, x->base, 2, "");
  v->data = LLVMBuildGEP2(l->b, l->mod->i8, data, &offset, 1, "view");
}

/* V as an array value of type t (sharing the base's memory; no reference
 * taken). */
static LLVMValueRef view_value(Lower *l, const Indexed *x, const Type *t) {
  LLVMTypeRef dims = LLVMArrayType2(l->mod->i64, (uint64_t)t->ndim);
  LLVMValueRef shape = LLVMGetUndef(dims), strides = LLVMGetUndef(dims);
  for (int d = 0; d < t->ndim; d++) {
    shape = LLVMBuildInsertValue(l->b, shape, x->v.shape[d], (unsigned)d, "");
    strides = LLVMBuildInsertValue(l->b, strides, x->v.stride[d], (unsigned)d, "");
  }
  LLVMValueRef v = LLVMGetUndef(lo_type(l, t));
  v = LLVMBuildInsertValue(l->b, v, LLVMBuildExtractValue(l->b, x->base, 0, ""), 0, "");
  v = LLVMBuildInsertValue(l->b, v, LLVMBuildExtractValue(l->b, x->base, 1, ""), 1, "");
  v = LLVMBuildInsertValue(l->b, v, x->v.data, 2, "");
  v = LLVMBuildInsertValue(l->b, v, shape, 3, "");
  return LLVMBuildInsertValue(l->b, v, strides, 4, "");
}

static void done_with(Lower *l, Indexed *x) {
  for (int k = 0; k < x->ix.narrays; k++)
    if (x->array[k]) lo_done_with(l, x->ix.item[x->ix.arrays[k]], x->array[k]);
  lo_done_with(l, x->n->lhs, x->base);
}

/* data + the sum of idx[d] * step[d] */
static LLVMValueRef addr_at(Lower *l, LLVMValueRef data, int ndim, const LLVMValueRef *idx, const LLVMValueRef *step) {
  LLVMValueRef offset = const_i64(l, 0);
  for (int d = 0; d < ndim; d++) offset = LLVMBuildAdd(l->b, offset, LLVMBuildMul(l->b, idx[d], step[d], ""), "");
  return LLVMBuildInBoundsGEP2(l->b, l->mod->i8, data, &offset, 1, "");
}

/* ---------------------------------------------------------------- the array item's entries */

static LLVMValueRef product(Lower *l, int n, const LLVMValueRef *dims) {
  LLVMValueRef size = const_i64(l, 1);
  for (int d = 0; d < n; d++) size = LLVMBuildMul(l->b, size, dims[d], "");
  return size;
}

/* A mask's shape, checked against V: its dimensions must be those it
 * covers (NumPy's IndexError names the first that is not), unless it is
 * empty (NumPy then selects nothing). */
static void check_mask_shape(Lower *l, const Indexed *x, const LLVMValueRef *mshape) {
  LLVMValueRef some = LLVMBuildICmp(l->b, LLVMIntNE, product(l, x->ix.covers, mshape), const_i64(l, 0), "");
  for (int j = 0; j < x->ix.covers; j++) {
    LLVMValueRef have = x->v.shape[x->ix.at + j];
    LLVMValueRef bad = LLVMBuildAnd(l->b, some, LLVMBuildICmp(l->b, LLVMIntNE, have, mshape[j], ""), "");
    lo_raise_index_error_if(l, bad, 1, const_i64(l, x->v.axis[x->ix.at + j]), have, mshape[j]);
  }
}

/* Array item k's element at idx, an int64 (an unsigned one never negative). */
static LLVMValueRef entry_value(Lower *l, const Indexed *x, int k, const LLVMValueRef *idx) {
  const Type *at = x->ix.item[x->ix.arrays[k]]->ty;
  LLVMValueRef step[RC_MAX_NDIM];
  for (int d = 0; d < at->ndim; d++) step[d] = lo_arr_stride(l, at, x->array[k], d);
  LLVMValueRef data = LLVMBuildExtractValue(l->b, x->array[k], 2, "");
  LLVMValueRef v = lo_load_scalar(l, at->elem, addr_at(l, data, at->ndim, idx, step));
  return lo_convert(l, v, at->elem, ty_is_unsigned(at->elem) ? TYS(TY_U64) : TYS(TY_I64));
}

static void item_shape(Lower *l, const Indexed *x, int k, LLVMValueRef *shape) {
  const Type *at = x->ix.item[x->ix.arrays[k]]->ty;
  for (int d = 0; d < at->ndim; d++) shape[d] = lo_arr_shape(l, x->array[k], d);
}

typedef struct Count {
  const Indexed *x;
  LLVMValueRef total;  /* i64 alloca */
} Count;

static void count_true_at(Lower *l, LLVMValueRef *idx, void *arg) {
  Count *c = arg;
  LLVMValueRef m = entry_value(l, c->x, 0, idx);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->mod->i64, c->total, ""), m, ""), c->total);
}

/* Whether int array k's value at idx is out of bounds; *i gets it. */
static LLVMValueRef int_out_of_bounds(Lower *l, const Indexed *x, int k, LLVMValueRef *idx, LLVMValueRef *i) {
  const Type *at = x->ix.item[x->ix.arrays[k]]->ty;
  LLVMValueRef len = x->v.shape[x->ix.vdim[k]];
  *i = entry_value(l, x, k, idx);
  if (ty_is_unsigned(at->elem)) return LLVMBuildICmp(l->b, LLVMIntUGE, *i, len, "");
  return LLVMBuildOr(l->b, LLVMBuildICmp(l->b, LLVMIntSGE, *i, len, ""),
                     LLVMBuildICmp(l->b, LLVMIntSLT, *i, LLVMBuildNeg(l->b, len, ""), ""), "");
}

typedef struct Bounds {
  const Indexed *x;
  int k;             /* the int array checked */
  LLVMValueRef any;  /* i1 alloca: a value out of bounds so far */
} Bounds;

static void note_int_at(Lower *l, LLVMValueRef *idx, void *arg) {
  Bounds *b = arg;
  LLVMValueRef i, bad = int_out_of_bounds(l, b->x, b->k, idx, &i);
  LLVMBuildStore(l->b, LLVMBuildOr(l->b, LLVMBuildLoad2(l->b, l->mod->i1, b->any, ""), bad, ""), b->any);
}

static void check_int_at(Lower *l, LLVMValueRef *idx, void *arg) {
  const Bounds *b = arg;
  const Indexed *x = b->x;
  int d = x->ix.vdim[b->k];
  LLVMValueRef i, bad = int_out_of_bounds(l, x, b->k, idx, &i);
  lo_raise_index_error_if(l, bad, 0, i, const_i64(l, x->v.axis[d]), x->v.shape[d]);
}

/* Every value of int array k checked: a loop that only notes a bad one
 * (it vectorises), then, if there was one, a loop that raises at the first. */
static void check_ints(Lower *l, const Indexed *x, int k) {
  LLVMValueRef shape[RC_MAX_NDIM];
  item_shape(l, x, k, shape);
  int ndim = x->ix.item[x->ix.arrays[k]]->ty->ndim;
  Bounds b = {x, k, lo_alloca(l, l->mod->i1, "out")};
  LLVMBuildStore(l->b, const_bool(l, false), b.any);
  lo_for_each_index(l, ndim, shape, note_int_at, &b);
  LLVMBasicBlockRef bad = new_block(l, "bounds.bad"), ok = new_block(l, "bounds.ok");
  LLVMBuildCondBr(l->b, LLVMBuildLoad2(l->b, l->mod->i1, b.any, ""), bad, ok);
  position(l, bad);
  lo_for_each_index(l, ndim, shape, check_int_at, &b);
  LLVMBuildBr(l->b, ok);
  position(l, ok);
}

/* The int arrays' broadcast shape (array_ndim dimensions); with check,
 * NumPy's IndexError where their shapes do not broadcast. */
static void broadcast_ints(Lower *l, const Indexed *x, LLVMValueRef *shape, bool check) {
  int nd = x->ix.array_ndim;
  LLVMValueRef one = const_i64(l, 1), bad = const_bool(l, false), ishape[MAX_ITEMS][RC_MAX_NDIM];
  int indim[MAX_ITEMS];
  for (int d = 0; d < nd; d++) shape[d] = one;
  for (int k = 0; k < x->ix.narrays; k++) {
    item_shape(l, x, k, ishape[k]);
    indim[k] = x->ix.item[x->ix.arrays[k]]->ty->ndim;
    for (int d = 0; d < indim[k]; d++) {
      int bd = d + nd - indim[k];
      LLVMValueRef s = ishape[k][d], unit = LLVMBuildICmp(l->b, LLVMIntEQ, shape[bd], one, "");
      LLVMValueRef clash = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntNE, s, one, ""),
                                        LLVMBuildICmp(l->b, LLVMIntNE, s, shape[bd], ""), "");
      bad = LLVMBuildOr(l->b, bad, LLVMBuildAnd(l->b, clash, LLVMBuildNot(l->b, unit, ""), ""), "");
      shape[bd] = LLVMBuildSelect(l->b, unit, s, shape[bd], "");
    }
  }
  if (!check || x->ix.narrays < 2) return;
  const LLVMValueRef *shapes[4];
  for (int k = 0; k < 4 && k < x->ix.narrays; k++) shapes[k] = ishape[k];
  lo_raise_shape_error(l, bad, 4, x->ix.narrays < 4 ? x->ix.narrays : 4, indim, shapes);
}

/* Checks the array items against V and gives the shape of the entries in
 * the result: a mask's number of True values, the int arrays' broadcast
 * shape (every value checked first, so that nothing is written before an
 * IndexError). */
static void entries_shape(Lower *l, Indexed *x, LLVMValueRef *shape) {
  if (x->ix.kind[x->ix.array] == IX_INTS) {
    broadcast_ints(l, x, shape, true);
    for (int k = 0; k < x->ix.narrays; k++) check_ints(l, x, k);
    return;
  }
  LLVMValueRef ishape[RC_MAX_NDIM];
  item_shape(l, x, 0, ishape);
  const Type *at = x->ix.item[x->ix.array]->ty;
  check_mask_shape(l, x, ishape);
  Count c = {x, lo_alloca(l, l->mod->i64, "true")};
  LLVMBuildStore(l->b, const_i64(l, 0), c.total);
  lo_for_each_index(l, at->ndim, ishape, count_true_at, &c);
  shape[0] = LLVMBuildLoad2(l->b, l->mod->i64, c.total, "count");
}

/* Each entry, in C order: pos, its position among the result's array
 * dimensions, and coord, the coordinates it names in the dimensions of V
 * the arrays cover (checked by entries_shape), by Index.cover. */
typedef void (*EntryBody)(Lower *l, LLVMValueRef *pos, LLVMValueRef *coord, void *arg);

typedef struct Entries {
  const Indexed *x;
  EntryBody body;
  void *arg;
  LLVMValueRef counter;  /* masks: the True values so far */
  LLVMValueRef ishape[MAX_ITEMS][RC_MAX_NDIM];  /* int arrays: their shapes */
} Entries;

/* At a position of the broadcast shape, each int array's value there (a
 * dimension of length 1 broadcast), negative ones wrapped. */
static void int_entry(Lower *l, LLVMValueRef *idx, void *arg) {
  Entries *e = arg;
  const Indexed *x = e->x;
  LLVMValueRef coord[MAX_ITEMS], zero = const_i64(l, 0), one = const_i64(l, 1);
  for (int k = 0; k < x->ix.narrays; k++) {
    const Type *at = x->ix.item[x->ix.arrays[k]]->ty;
    LLVMValueRef own[RC_MAX_NDIM];
    for (int d = 0; d < at->ndim; d++) {
      LLVMValueRef unit = LLVMBuildICmp(l->b, LLVMIntEQ, e->ishape[k][d], one, "");
      own[d] = LLVMBuildSelect(l->b, unit, zero, idx[d + x->ix.array_ndim - at->ndim], "");
    }
    LLVMValueRef i = entry_value(l, x, k, own), len = x->v.shape[x->ix.vdim[k]];
    LLVMValueRef neg = LLVMBuildICmp(l->b, LLVMIntSLT, i, zero, "");
    coord[k] = ty_is_unsigned(at->elem) ? i : LLVMBuildSelect(l->b, neg, LLVMBuildAdd(l->b, i, len, ""), i, "");
  }
  e->body(l, idx, coord, e->arg);
}

static void mask_entry(Lower *l, LLVMValueRef *idx, void *arg) {
  Entries *e = arg;
  LLVMBasicBlockRef yes = new_block(l, "mask.true"), next = new_block(l, "mask.next");
  LLVMValueRef m = LLVMBuildTrunc(l->b, entry_value(l, e->x, 0, idx), l->mod->i1, "");
  LLVMBuildCondBr(l->b, m, yes, next);
  position(l, yes);
  LLVMValueRef j = LLVMBuildLoad2(l->b, l->mod->i64, e->counter, "");
  e->body(l, &j, idx, e->arg);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, j, const_i64(l, 1), ""), e->counter);
  LLVMBuildBr(l->b, next);
  position(l, next);
}

static void for_each_entry(Lower *l, const Indexed *x, EntryBody body, void *arg) {
  Entries e = {x, body, arg, NULL};
  LLVMValueRef shape[RC_MAX_NDIM];
  if (x->ix.kind[x->ix.array] == IX_INTS) {
    for (int k = 0; k < x->ix.narrays; k++) item_shape(l, x, k, e.ishape[k]);
    broadcast_ints(l, x, shape, false);
    lo_for_each_index(l, x->ix.array_ndim, shape, int_entry, &e);
    return;
  }
  item_shape(l, x, 0, shape);
  e.counter = lo_alloca(l, l->mod->i64, "selected");
  LLVMBuildStore(l->b, const_i64(l, 0), e.counter);
  lo_for_each_index(l, x->ix.item[x->ix.array]->ty->ndim, shape, mask_entry, &e);
}

/* ---------------------------------------------------------------- gather and scatter */

/* The result of an advanced index: its shape from V's and the entries'. */
static int result_shape(const Indexed *x, const LLVMValueRef *eshape, LLVMValueRef *shape) {
  const Index *ix = &x->ix;
  int n = 0;
  if (ix->array_first)
    for (int d = 0; d < ix->array_ndim; d++) shape[n++] = eshape[d];
  for (int d = 0; d < ix->view_ndim; d++) {
    if (d == ix->at && !ix->array_first)
      for (int k = 0; k < ix->array_ndim; k++) shape[n++] = eshape[k];
    if (ix->cover[d] < 0) shape[n++] = x->v.shape[d];
  }
  return n;
}

/* Elements moved between V (at the entries) and an array of the result's
 * shape: gathered into it, or scattered from it (or from a scalar). */
typedef struct Move {
  const Indexed *x;
  bool into_view;
  const Type *elem;            /* the other side's element type */
  LLVMValueRef data;           /* the other side's data ... */
  LLVMValueRef step[RC_MAX_NDIM]; /* ... and byte steps per result dimension (0: broadcast) */
  LLVMValueRef scalar;         /* scattered instead, of V's element type */
  LLVMValueRef other[RC_MAX_NDIM]; /* the lengths of V's dimensions the array does not cover */
  int nother;
  LLVMValueRef *pos, *coord;   /* the entry being moved */
} Move;

static void move_element(Lower *l, LLVMValueRef *o, void *arg) {
  Move *m = arg;
  const Index *ix = &m->x->ix;
  LLVMValueRef vidx[RC_MAX_NDIM], ridx[RC_MAX_NDIM];
  int k = 0, r = 0;
  if (ix->array_first)
    for (int d = 0; d < ix->array_ndim; d++) ridx[r++] = m->pos[d];
  for (int d = 0; d < ix->view_ndim; d++) {
    if (d == ix->at && !ix->array_first)
      for (int j = 0; j < ix->array_ndim; j++) ridx[r++] = m->pos[j];
    if (ix->cover[d] >= 0) {
      vidx[d] = m->coord[ix->cover[d]];
    } else {
      vidx[d] = o[k];
      ridx[r++] = o[k++];
    }
  }
  const Type *ve = m->x->bt->elem;
  LLVMValueRef vaddr = addr_at(l, m->x->v.data, ix->view_ndim, vidx, m->x->v.stride);
  if (m->into_view) {
    LLVMValueRef v = m->scalar ? m->scalar
                               : lo_convert(l, lo_load_scalar(l, m->elem, addr_at(l, m->data, r, ridx, m->step)), m->elem, ve);
    lo_store_scalar(l, ve, vaddr, v);
  } else {
    lo_store_scalar(l, ve, addr_at(l, m->data, r, ridx, m->step), lo_load_scalar(l, ve, vaddr));
  }
}

static void move_entry(Lower *l, LLVMValueRef *pos, LLVMValueRef *coord, void *arg) {
  Move *m = arg;
  m->pos = pos;
  m->coord = coord;
  lo_for_each_index(l, m->nother, m->other, move_element, m);
}

static void move(Lower *l, Move *m) {
  const Index *ix = &m->x->ix;
  for (int d = 0; d < ix->view_ndim; d++)
    if (ix->cover[d] < 0) m->other[m->nother++] = m->x->v.shape[d];
  for_each_entry(l, m->x, move_entry, m);
}

/* A new array of type t holding V's elements at the entries. */
static LLVMValueRef gather(Lower *l, const Indexed *x, const Type *t, const LLVMValueRef *shape) {
  LLVMValueRef out = lo_alloc_array(l, t, (LLVMValueRef *)shape, -1);
  Move m = {.x = x, .elem = t->elem, .data = LLVMBuildExtractValue(l->b, out, 2, "")};
  for (int d = 0; d < t->ndim; d++) m.step[d] = lo_arr_stride(l, t, out, d);
  move(l, &m);
  return out;
}

/* The byte steps to read an array of type vt at each index of a result of
 * the given shape: its strides, 0 where it is broadcast (missing or
 * length-1 dimensions; extra leading ones must be 1); NumPy's ValueError
 * (rt_shape_error's kind) where it does not broadcast. */
static void broadcast_value(Lower *l, const Type *vt, LLVMValueRef v, int ndim, const LLVMValueRef *shape, int kind,
                            LLVMValueRef *step) {
  LLVMValueRef bad = const_bool(l, false), one = const_i64(l, 1), vshape[RC_MAX_NDIM];
  int extra = vt->ndim - ndim;
  for (int d = 0; d < vt->ndim; d++) vshape[d] = lo_arr_shape(l, v, d);
  for (int d = 0; d < extra; d++) bad = LLVMBuildOr(l->b, bad, LLVMBuildICmp(l->b, LLVMIntNE, vshape[d], one, ""), "");
  for (int d = 0; d < ndim; d++) {
    int od = d + extra;
    if (od < 0) {
      step[d] = const_i64(l, 0);
      continue;
    }
    LLVMValueRef unit = LLVMBuildICmp(l->b, LLVMIntEQ, vshape[od], one, "");
    bad = LLVMBuildOr(l->b, bad, LLVMBuildAnd(l->b, LLVMBuildNot(l->b, unit, ""),
                                              LLVMBuildICmp(l->b, LLVMIntNE, vshape[od], shape[d], ""), ""), "");
    step[d] = LLVMBuildSelect(l->b, unit, const_i64(l, 0), lo_arr_stride(l, vt, v, od), "");
  }
  if (!(LLVMIsAConstantInt(bad) && !LLVMConstIntGetZExtValue(bad)))
    lo_raise_shape_error(l, bad, kind, 2, (int[]){vt->ndim, ndim}, (const LLVMValueRef *[]){vshape, shape});
}

/* Scatters value (t: a scalar, or an array read from a copy where it
 * shares memory with V) into V at the entries. */
static void scatter(Lower *l, const Indexed *x, const Type *t, LLVMValueRef v, int ndim, const LLVMValueRef *shape,
                    int kind) {
  Move m = {.x = x, .into_view = true};
  if (t->kind != TY_ARRAY) {
    m.scalar = lo_convert(l, v, t, x->bt->elem);
    move(l, &m);
    return;
  }
  LLVMValueRef copy;
  const Type *vt = ty_array(x->bt->elem, x->ix.view_ndim, 'A', false);
  LLVMValueRef src = lo_unshared(l, &t, v, vt, view_value(l, x, vt), false, &copy);
  broadcast_value(l, t, src, ndim, shape, kind, m.step);
  m.elem = t->elem;
  m.data = LLVMBuildExtractValue(l->b, src, 2, "");
  move(l, &m);
  lo_release_temp(l, ty_array(t->elem, t->ndim, 'C', false), copy);
}

/* ---------------------------------------------------------------- x[mask], fused */

typedef struct Pack {
  const Type *elem;
  LLVMValueRef out;    /* the result's data */
  LLVMValueRef count;  /* i64 alloca: True values so far */
  LLVMValueRef scalar; /* x[mask] = scalar: the value */
} Pack;

static void count_true(Lower *l, LLVMValueRef m, LLVMValueRef *at, void *arg) {
  Pack *p = arg;
  LLVMValueRef n = LLVMBuildLoad2(l->b, l->mod->i64, p->count, "");
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, n, LLVMBuildZExt(l->b, m, l->mod->i64, ""), ""), p->count);
}

/* out[k] = x; k += m: every element is stored, the selected ones kept (the
 * result has room for all and one more), so the loop has no branch to
 * mispredict. */
static void pack_selected(Lower *l, LLVMValueRef m, LLVMValueRef *at, void *arg) {
  Pack *p = arg;
  LLVMValueRef k = LLVMBuildLoad2(l->b, l->mod->i64, p->count, "");
  LLVMValueRef dst = LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, p->elem), p->out, &k, 1, "");
  lo_store_scalar(l, p->elem, dst, lo_load_scalar(l, p->elem, at[0]));
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, LLVMBuildZExt(l->b, m, l->mod->i64, ""), ""), p->count);
}

/* x[mask] = scalar: every element rewritten, with itself or the value, so
 * the loop vectorises. */
static void put_selected(Lower *l, LLVMValueRef m, LLVMValueRef *at, void *arg) {
  Pack *p = arg;
  LLVMValueRef old = lo_load_scalar(l, p->elem, at[0]);
  lo_store_scalar(l, p->elem, at[0], LLVMBuildSelect(l->b, m, p->scalar, old, ""));
}

/* Starts the walk over x[mask]'s mask, x evaluated first, the mask's shape
 * checked against x's. */
static Elements *mask_walk(Lower *l, Node *n, Indexed *x) {
  evaluate(l, n, x, false);
  make_view(l, x);
  Elements *fu = lo_elements_begin(l, n->rhs);
  LLVMValueRef mshape[RC_MAX_NDIM];
  for (int d = 0; d < n->rhs->ty->ndim; d++) mshape[d] = lo_elements_shape(fu, d);
  check_mask_shape(l, x, mshape);
  lo_elements_companion(l, fu, x->bt, x->base);
  return fu;
}

/* A mask and an array both C-contiguous: the mask read 32 bytes at a
 * time, the elements under 32 False bytes never read (a sparse mask costs
 * little more than reading it). */
static void pack_words(Lower *l, const Indexed *x, LLVMValueRef n, Pack *p) {
  const Type *e = x->bt->elem, *b = TYS(TY_BOOL);
  LLVMValueRef block = const_i64(l, 32);
  LLVMValueRef mask = LLVMBuildExtractValue(l->b, x->array[0], 2, ""), data = LLVMBuildExtractValue(l->b, x->base, 2, "");
  LLVMValueRef words = LLVMBuildUDiv(l->b, n, block, "");
  LoLoop w = lo_loop_begin(l, const_i64(l, 0), words, NULL, "words");
  LLVMValueRef first = LLVMBuildMul(l->b, w.index, block, "");
  /* four words: any True is in their or, all True is their and */
  LLVMValueRef any = const_i64(l, 0), every = const_i64(l, -1);
  for (int q = 0; q < 4; q++) {
    LLVMValueRef at = LLVMBuildAdd(l->b, first, const_i64(l, 8 * q), "");
    LLVMValueRef word = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i8, mask, &at, 1, ""), "");
    LLVMSetAlignment(word, 1);
    any = LLVMBuildOr(l->b, any, word, "");
    every = LLVMBuildAnd(l->b, every, word, "");
  }
  LLVMBasicBlockRef some = new_block(l, "word.some"), all = new_block(l, "word.all"), mixed = new_block(l, "word.mixed");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, any, const_i64(l, 0), ""), w.latch, some);
  position(l, some);
  LLVMValueRef ones = const_i64(l, 0x0101010101010101);
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, every, ones, ""), all, mixed);
  position(l, all);  /* 32 True: the elements copied as they are */
  LLVMValueRef k = LLVMBuildLoad2(l->b, l->mod->i64, p->count, "");
  LLVMValueRef to = LLVMBuildGEP2(l->b, lo_storage_type(l, e), p->out, &k, 1, "");
  LLVMValueRef from = LLVMBuildGEP2(l->b, lo_storage_type(l, e), data, &first, 1, "");
  LLVMBuildMemCpy(l->b, to, 1, from, 1, const_i64(l, 32 * (ty_bits(e) / 8)));
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, k, block, ""), p->count);
  LLVMBuildBr(l->b, w.latch);
  position(l, mixed);
  LoLoop j = lo_loop_begin(l, first, LLVMBuildAdd(l->b, first, block, ""), NULL, "byte");
  LLVMValueRef m = lo_load_scalar(l, b, LLVMBuildGEP2(l->b, l->mod->i8, mask, &j.index, 1, ""));
  LLVMValueRef at = LLVMBuildGEP2(l->b, lo_storage_type(l, e), data, &j.index, 1, "");
  pack_selected(l, m, &at, p);
  lo_loop_end(l, &j);
  lo_loop_end(l, &w);
  LoLoop t = lo_loop_begin(l, LLVMBuildMul(l->b, words, block, ""), n, NULL, "tail");
  LLVMValueRef mt = lo_load_scalar(l, b, LLVMBuildGEP2(l->b, l->mod->i8, mask, &t.index, 1, ""));
  LLVMValueRef att = LLVMBuildGEP2(l->b, lo_storage_type(l, e), data, &t.index, 1, "");
  pack_selected(l, mt, &att, p);
  lo_loop_end(l, &t);
}

/* The True values of a contiguous mask of n bools (bytes 0 or 1): eight at
 * a time, each word's population count. */
static LLVMValueRef count_words(Lower *l, LLVMValueRef mask, LLVMValueRef n) {
  LLVMValueRef total = lo_alloca(l, l->mod->i64, "true"), eight = const_i64(l, 8);
  LLVMBuildStore(l->b, const_i64(l, 0), total);
  LLVMValueRef words = LLVMBuildUDiv(l->b, n, eight, "");
  LoLoop w = lo_loop_begin(l, const_i64(l, 0), words, NULL, "count");
  LLVMValueRef first = LLVMBuildMul(l->b, w.index, eight, "");
  LLVMValueRef word = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildGEP2(l->b, l->mod->i8, mask, &first, 1, ""), "");
  LLVMSetAlignment(word, 1);
  LLVMValueRef ones = lo_intrinsic1(l, "llvm.ctpop", TYS(TY_I64), word);
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->mod->i64, total, ""), ones, ""), total);
  lo_loop_end(l, &w);
  LoLoop t = lo_loop_begin(l, LLVMBuildMul(l->b, words, eight, ""), n, NULL, "count.tail");
  LLVMValueRef byte = LLVMBuildLoad2(l->b, l->mod->i8, LLVMBuildGEP2(l->b, l->mod->i8, mask, &t.index, 1, ""), "");
  LLVMBuildStore(l->b, LLVMBuildAdd(l->b, LLVMBuildLoad2(l->b, l->mod->i64, total, ""), LLVMBuildZExt(l->b, byte, l->mod->i64, ""), ""), total);
  lo_loop_end(l, &t);
  return LLVMBuildLoad2(l->b, l->mod->i64, total, "count");
}

/* x[mask], the mask of x's shape: the True values counted (a contiguous
 * mask a bit count per eight bools, a mask expression walked), then one
 * pass packs the selected elements into room for one more than them. The
 * count is known before the allocation: a result sized to it costs fewer
 * page faults than room for every element given back after. */
static LLVMValueRef select_masked(Lower *l, Node *n) {
  Indexed x;
  const Type *mt = n->rhs->ty;
  bool words = !lo_is_elementwise(n->rhs) && mt->layout == 'C' && n->lhs->ty->layout == 'C';
  Elements *fu = NULL;
  Pack p = {.elem = n->lhs->ty->elem, .count = lo_alloca(l, l->mod->i64, "count")};
  LLVMValueRef mshape[RC_MAX_NDIM], count;
  if (words) {
    evaluate(l, n, &x, true);
    make_view(l, &x);
    item_shape(l, &x, 0, mshape);
    check_mask_shape(l, &x, mshape);
    count = count_words(l, LLVMBuildExtractValue(l->b, x.array[0], 2, ""), product(l, mt->ndim, mshape));
  } else {
    fu = mask_walk(l, n, &x);
    LLVMBuildStore(l->b, const_i64(l, 0), p.count);
    lo_elements_walk(l, fu, count_true, &p);
    count = LLVMBuildLoad2(l->b, l->mod->i64, p.count, "true");
  }
  LLVMValueRef room = LLVMBuildAdd(l->b, count, const_i64(l, 1), "");
  LLVMValueRef out = lo_alloc_array(l, n->ty, &room, -1);
  p.out = LLVMBuildExtractValue(l->b, out, 2, "");
  LLVMBuildStore(l->b, const_i64(l, 0), p.count);
  if (words) {  /* (nothing to pack: the mask is not read again) */
    LLVMBasicBlockRef pack = new_block(l, "pack"), packed = new_block(l, "packed");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, count, const_i64(l, 0), ""), packed, pack);
    position(l, pack);
    pack_words(l, &x, product(l, mt->ndim, mshape), &p);
    LLVMBuildBr(l->b, packed);
    position(l, packed);
  } else {
    lo_elements_walk(l, fu, pack_selected, &p);
    lo_elements_end(l, fu);
  }
  done_with(l, &x);
  LLVMValueRef shape = LLVMBuildInsertValue(l->b, LLVMBuildExtractValue(l->b, out, 3, ""), count, 0, "");
  return LLVMBuildInsertValue(l->b, out, shape, 3, "");
}

/* ---------------------------------------------------------------- the entry points */

/* a[index] without an array in the index, as a view; one that holds a
 * reference takes it before a temporary base (np.arange(9)[::2]) is let go. */
static LLVMValueRef basic_view(Lower *l, Node *n, bool holds) {
  Indexed x;
  evaluate(l, n, &x, false);
  make_view(l, &x);
  LLVMValueRef v = view_value(l, &x, n->ty);
  if (holds) lo_refcount(l, n->ty, v, true);
  done_with(l, &x);
  return v;
}

/* the same holding no reference of its own: its base's owner keeps the
 * memory alive (calls.c's borrowed views of a variable's array) */
LLVMValueRef lo_array_view(Lower *l, Node *n) {
  return basic_view(l, n, false);
}

/* a[index] as an array: a view, or a new array of the selected elements. */
LLVMValueRef lo_array_index(Lower *l, Node *n) {
  if (ix_is_advanced(n) && whole_mask(n)) return select_masked(l, n);
  if (!ix_is_advanced(n)) return basic_view(l, n, true);
  Indexed x;
  evaluate(l, n, &x, true);
  make_view(l, &x);
  LLVMValueRef eshape[RC_MAX_NDIM], shape[RC_MAX_NDIM];
  entries_shape(l, &x, eshape);
  result_shape(&x, eshape, shape);
  LLVMValueRef v = gather(l, &x, n->ty, shape);
  done_with(l, &x);
  return v;
}

typedef struct Fill {
  const Type *vt, *t;   /* the view's type, the value's */
  LLVMValueRef view, src, scalar;
  LLVMValueRef step[RC_MAX_NDIM];
} Fill;

static void fill_element(Lower *l, LLVMValueRef *idx, void *arg) {
  Fill *f = arg;
  LLVMValueRef dst = lo_element_addr(l, f->vt, f->view, idx);
  LLVMValueRef v = f->scalar;
  if (!v) {
    LLVMValueRef src = addr_at(l, LLVMBuildExtractValue(l->b, f->src, 2, ""), f->vt->ndim, idx, f->step);
    v = lo_convert(l, lo_load_scalar(l, f->t->elem, src), f->t->elem, f->vt->elem);
  }
  lo_store_scalar(l, f->vt->elem, dst, v);
}

/* Both C-contiguous and of one shape: one flat copy (on the pool where
 * long with parallel=True: the value was copied first where it overlaps
 * the view other than element for element). */
static void flat_copy(Lower *l, Fill *f, LLVMValueRef size) {
  lo_copy_flat(l, f->vt->elem, LLVMBuildExtractValue(l->b, f->view, 2, ""), f->t->elem,
               LLVMBuildExtractValue(l->b, f->src, 2, ""), size);
}

/* view = value: a scalar fills it; an array broadcasts into it, read from
 * a copy where it overlaps it other than element for element. Where the
 * value's last dimension is contiguous (a row broadcast down the rows),
 * the loop is emitted for that step as a constant too, so that it
 * vectorises. */
static void assign_view(Lower *l, const Indexed *x, const Type *vt, const Type *t, LLVMValueRef v) {
  Fill f = {.vt = vt, .t = t, .view = view_value(l, x, vt)};
  LLVMValueRef *shape = (LLVMValueRef *)x->v.shape;
  if (t->kind != TY_ARRAY) {
    f.scalar = lo_convert(l, v, t, vt->elem);
    if (vt->layout == 'C' || vt->layout == 'F')  /* in memory order, on the pool where long */
      lo_fill(l, vt->elem, LLVMBuildExtractValue(l->b, f.view, 2, ""), product(l, vt->ndim, shape), f.scalar);
    else
      lo_for_each_index(l, vt->ndim, shape, fill_element, &f);
    return;
  }
  LLVMValueRef copy;
  f.src = lo_unshared(l, &f.t, v, vt, f.view, true, &copy);
  broadcast_value(l, f.t, f.src, vt->ndim, shape, 2, f.step);
  LLVMBasicBlockRef done = new_block(l, "assign.done");
  if (vt->layout == 'C' && f.t->layout == 'C' && f.t->ndim == vt->ndim && vt->ndim) {
    LLVMValueRef same = const_bool(l, true);
    for (int d = 0; d < vt->ndim; d++)
      same = LLVMBuildAnd(l->b, same, LLVMBuildICmp(l->b, LLVMIntEQ, lo_arr_shape(l, f.src, d), shape[d], ""), "");
    LLVMBasicBlockRef flat = new_block(l, "assign.flat"), other = new_block(l, "assign.strided");
    LLVMBuildCondBr(l->b, same, flat, other);
    position(l, flat);
    flat_copy(l, &f, product(l, vt->ndim, shape));
    LLVMBuildBr(l->b, done);
    position(l, other);
  }
  if (vt->ndim) {
    int last = vt->ndim - 1;
    LLVMValueRef unit = const_i64(l, ty_bits(f.t->elem) / 8), general = f.step[last];
    LLVMBasicBlockRef dense = new_block(l, "assign.dense"), other = new_block(l, "assign.any");
    LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, general, unit, ""), dense, other);
    position(l, dense);
    f.step[last] = unit;
    lo_for_each_index(l, vt->ndim, shape, fill_element, &f);
    LLVMBuildBr(l->b, done);
    position(l, other);
    f.step[last] = general;
  }
  lo_for_each_index(l, vt->ndim, shape, fill_element, &f);
  LLVMBuildBr(l->b, done);
  position(l, done);
  lo_release_temp(l, ty_array(t->elem, t->ndim, 'C', false), copy);
}

/* x[mask] = scalar, the mask of x's shape: one pass, fused. */
static void put_masked(Lower *l, Node *target, const Type *t, LLVMValueRef v) {
  Indexed x;
  Elements *fu = mask_walk(l, target, &x);
  lo_elements_unshare(l, fu, x.bt, x.base);
  Pack p = {.elem = x.bt->elem, .scalar = lo_convert(l, v, t, x.bt->elem)};
  lo_elements_walk(l, fu, put_selected, &p);
  lo_elements_end(l, fu);
  done_with(l, &x);
}

/* x[mask] = values, the mask of x's shape: NumPy's rule that the values
 * are as many as the True values, or one. */
static void check_mask_values(Lower *l, const Type *t, LLVMValueRef v, LLVMValueRef count) {
  if (t->ndim == 0) return;
  LLVMValueRef size = lo_arr_shape(l, v, 0);
  LLVMValueRef bad = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntNE, size, count, ""),
                                  LLVMBuildICmp(l->b, LLVMIntNE, size, const_i64(l, 1), ""), "");
  lo_raise_index_error_if(l, bad, 2, size, count, const_i64(l, 0));
}

/* target[index] = v (owned by the caller), where target[index] is an array. */
void lo_index_store(Lower *l, Node *target, const Type *t, LLVMValueRef v) {
  bool advanced = ix_is_advanced(target);
  if (advanced && whole_mask(target) && t->kind != TY_ARRAY) {
    put_masked(l, target, t, v);
    return;
  }
  Indexed x;
  evaluate(l, target, &x, true);
  make_view(l, &x);
  if (!advanced) {
    assign_view(l, &x, target->ty, t, v);
  } else {
    LLVMValueRef eshape[RC_MAX_NDIM], shape[RC_MAX_NDIM];
    entries_shape(l, &x, eshape);
    int ndim = result_shape(&x, eshape, shape);
    if (whole_mask(target) && t->kind == TY_ARRAY) check_mask_values(l, t, v, eshape[0]);
    /* the array items too are read while V is written */
    const Type *it[MAX_ITEMS], *vt = ty_array(x.bt->elem, x.ix.view_ndim, 'A', false);
    LLVMValueRef copy[MAX_ITEMS], given[MAX_ITEMS];
    for (int k = 0; k < x.ix.narrays; k++) {
      it[k] = x.ix.item[x.ix.arrays[k]]->ty;
      given[k] = x.array[k];
      x.array[k] = lo_unshared(l, &it[k], given[k], vt, view_value(l, &x, vt), false, &copy[k]);
    }
    scatter(l, &x, t, v, ndim, shape, 3);
    for (int k = 0; k < x.ix.narrays; k++) {
      lo_release_temp(l, ty_array(it[k]->elem, it[k]->ndim, 'C', false), copy[k]);
      x.array[k] = given[k];
    }
  }
  done_with(l, &x);
}

typedef struct Update {
  Node *n;
  const Type *tt, *rt;    /* the selected elements' array, the right side */
  LLVMValueRef tmp, rhs;
  LLVMValueRef step[RC_MAX_NDIM];
} Update;

static void update_element(Lower *l, LLVMValueRef *idx, void *arg) {
  Update *u = arg;
  const Type *e = u->tt->elem, *re = u->n->ty->elem;
  LLVMValueRef addr = lo_element_addr(l, u->tt, u->tmp, idx);
  LLVMValueRef b = u->rt->kind == TY_ARRAY
                       ? lo_load_scalar(l, u->rt->elem, addr_at(l, LLVMBuildExtractValue(l->b, u->rhs, 2, ""), u->tt->ndim, idx, u->step))
                       : u->rhs;
  bool saved = l->numpy_semantics;
  l->numpy_semantics = true;
  LLVMValueRef r = lo_binop_values(l, u->n->op, re, lo_load_scalar(l, e, addr), e, b,
                                   u->rt->kind == TY_ARRAY ? u->rt->elem : u->rt);
  l->numpy_semantics = saved;
  lo_store_scalar(l, e, addr, lo_convert(l, r, re, e));
}

/* x[advanced index] op= value, as NumPy: the selected elements gathered,
 * updated, scattered back (an index named twice is updated once). */
void lo_index_update(Lower *l, Node *n) {
  Node *target = n->lhs;
  Indexed x;
  evaluate(l, target, &x, true);
  make_view(l, &x);
  LLVMValueRef eshape[RC_MAX_NDIM], shape[RC_MAX_NDIM];
  entries_shape(l, &x, eshape);
  int ndim = result_shape(&x, eshape, shape);
  Update u = {.n = n, .tt = target->ty, .rt = n->rhs->ty};
  u.tmp = gather(l, &x, u.tt, shape);
  lo_temp_made(l, u.tt, u.tmp);
  u.rhs = lo_expr(l, n->rhs);
  if (u.rt->kind == TY_ARRAY) {
    LLVMValueRef rshape[RC_MAX_NDIM];
    for (int d = 0; d < u.rt->ndim; d++) rshape[d] = lo_arr_shape(l, u.rhs, d);
    /* NumPy's errors of the in-place ufunc: shapes that do not broadcast,
     * or broadcast beyond the selected elements' */
    LLVMValueRef clash = const_bool(l, false), wider = clash, one = const_i64(l, 1);
    for (int d = 0; d < ndim; d++) {
      int od = d - (ndim - u.rt->ndim);
      if (od < 0) {
        u.step[d] = const_i64(l, 0);
        continue;
      }
      LLVMValueRef unit = LLVMBuildICmp(l->b, LLVMIntEQ, rshape[od], one, "");
      LLVMValueRef differ = LLVMBuildAnd(l->b, LLVMBuildNot(l->b, unit, ""),
                                         LLVMBuildICmp(l->b, LLVMIntNE, rshape[od], shape[d], ""), "");
      LLVMValueRef here = LLVMBuildICmp(l->b, LLVMIntEQ, shape[d], one, "");
      clash = LLVMBuildOr(l->b, clash, LLVMBuildAnd(l->b, differ, LLVMBuildNot(l->b, here, ""), ""), "");
      wider = LLVMBuildOr(l->b, wider, LLVMBuildAnd(l->b, differ, here, ""), "");
      u.step[d] = LLVMBuildSelect(l->b, unit, const_i64(l, 0), lo_arr_stride(l, u.rt, u.rhs, od), "");
    }
    lo_raise_shape_error(l, clash, 0, 3, (int[]){ndim, u.rt->ndim, ndim},
                         (const LLVMValueRef *[]){shape, rshape, shape});
    LLVMValueRef bshape[RC_MAX_NDIM];
    for (int d = 0; d < ndim; d++) {
      int od = d - (ndim - u.rt->ndim);
      bshape[d] = od < 0 ? shape[d] : LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntEQ, shape[d], one, ""), rshape[od], shape[d], "");
    }
    lo_raise_shape_error(l, wider, 1, 2, (int[]){ndim, ndim}, (const LLVMValueRef *[]){shape, bshape});
  }
  lo_for_each_index(l, ndim, shape, update_element, &u);
  lo_done_with(l, n->rhs, u.rhs);
  scatter(l, &x, u.tt, u.tmp, ndim, shape, 3);
  lo_release_temp(l, u.tt, u.tmp);
  done_with(l, &x);
}
