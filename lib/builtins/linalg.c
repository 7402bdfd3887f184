/* builtins/linalg.c — NumPy's matrix products: numpy.dot, matmul (and the
 * @ operator, which the frontend makes a call of numpy.matmul), inner,
 * vdot, the method a.dot(b) (numpy.outer is arraymath.c's); and numpy.linalg's solve, inv, det
 * (the rest of numpy.linalg is decomp.c's). The typers check what
 * can be known from the types (arrays, their dimensions, the result's
 * dtype); the lowerer hands the operands to rt_matrix_product (blas.c) or
 * rt_linalg (lapack.c), which check the shapes as NumPy does and compute
 * through BLAS and LAPACK (or plain loops for integer products); stacks
 * of matrices of solve, inv, det to rt_linalg_stack (stack_rt.c).
 */
#include "builtins/builtins.h"

/* The most dimensions each product takes (0: any, flattened). */
static int most_dims(int op) { return op == LA_MATMUL ? RC_MAX_NDIM : op == LA_DOT || op == LA_INNER ? 2 : 0; }

/* out= of numpy.dot and matmul: an array of the product's dtype and
 * dimensions (which NumPy's dot insists on, where matmul would cast and
 * broadcast); the call is then of out's type. */
static const Type *ty_product_out(Infer *in, Node *n, Node *out, const Type *e, int nd) {
  const Type *t = out->ty;
  if (!nd) return ty_error(in, out, "%s(): out= of a product of two vectors is not supported", n->bi->name);
  if (t->kind != TY_ARRAY || t->elem != e || t->ndim != nd)
    return ty_error(in, out, "%s(): out= must be an array of the product's dtype and dimensions (%s, %d), got %s",
                    n->bi->name, e->name, nd, t->name);
  if (t->readonly) return ty_error(in, out, "%s(): out= is a read-only array", n->bi->name);
  return t;
}

static const Type *ty_product(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *b = n->list.items[1];
  int op = (int)n->bi->ival, most = most_dims(op);
  for (int i = 0; i < 2; i++) {
    Node *x = n->list.items[i];
    if (x->ty->kind != TY_ARRAY || x->ty->ndim == 0)
      return ty_error(in, x, "%s(): its arguments must be arrays of at least one dimension, got %s", n->bi->name,
                      x->ty->name);
    if (most && x->ty->ndim > most)
      return ty_error(in, x, "%s(): arrays of %d dimensions are not supported (at most %d)", n->bi->name,
                      x->ty->ndim, most);
    if (!ty_is_scalar(x->ty->elem))
      return ty_error(in, x, "%s(): arrays of %s are not supported (bools, numbers are)", n->bi->name,
                      x->ty->elem->name);
  }
  const Type *e = np_promote(a->ty->elem, b->ty->elem);
  int nda = a->ty->ndim, ndb = b->ty->ndim;
  if (op == LA_VDOT) return e;
  int stack = nda > ndb ? nda - 2 : ndb - 2;  /* matmul's stack of matrices */
  int nd = (stack > 0 ? stack : 0) + (nda >= 2) + (ndb >= 2);
  Node *out = bi_arg(n, 2, "out");
  return out ? ty_product_out(in, n, out, e, nd) : nd ? ty_array(e, nd, 'C', false) : e;
}

static bool is_single(const Type *e) { return e->kind == TY_F32 || e->kind == TY_C64; }

/* Single precision only where every operand is float32 or complex64 (an
 * int or bool operand makes it double, whatever the other's precision),
 * complex where any operand is. */
const Type *bi_linalg_dtype(const Type *a, const Type *b) {
  bool single = is_single(a) && (!b || is_single(b)), cplx = ty_is_complex(a) || (b && ty_is_complex(b));
  return TYS(cplx ? (single ? TY_C64 : TY_C128) : single ? TY_F32 : TY_F64);
}

/* numpy.linalg's functions compute in floats: ints and bools in float64.
 * a may be a stack of matrices (..., M, M), and solve's b a stack of
 * vectors (..., M) where it has one dimension, else of matrices (..., M, K). */
static const Type *ty_linalg(Infer *in, Node *n, const Type **args) {
  int op = (int)n->bi->ival;
  const Type *e = NULL;
  for (int i = 0; i < n->list.len; i++) {
    Node *x = n->list.items[i];
    int nd = ndim_of(x->ty);
    if (x->ty->kind != TY_ARRAY || (i == 0 && nd < 2) || nd < 1)
      return ty_error(in, x, "%s(): %d-dimensional array given. Array must be at least %s-dimensional",
                      n->bi->name, nd, i == 0 ? "two" : "one");
    if (!ty_is_scalar(x->ty->elem))
      return ty_error(in, x, "%s(): arrays of %s are not supported", n->bi->name, x->ty->elem->name);
    e = e ? bi_linalg_dtype(e, x->ty->elem) : bi_linalg_dtype(x->ty->elem, NULL);
  }
  int nda = n->list.items[0]->ty->ndim;
  if (op == LA_DET) return nda == 2 ? e : ty_array(e, nda - 2, 'C', false);
  if (op == LA_INV) return ty_array(e, nda, 'C', false);
  int ndb = n->list.items[1]->ty->ndim;
  return ty_array(e, ndb == 1 ? nda - 1 : nda > ndb ? nda : ndb, 'C', false);
}

/* Whether numpy.linalg's call is of stacks of matrices */
static bool is_stack(Node *n) {
  Node *b = n->list.len > 1 ? n->list.items[1] : NULL;
  return n->bi->ival >= LA_SOLVE && (n->list.items[0]->ty->ndim > 2 || (b && b->ty->ndim > 2));
}

/* numpy.linalg.solve, inv, det of stacks, by rt_linalg_stack */
static LLVMValueRef lo_linalg_stack(Lower *l, Node *n) {
  Node *a = n->list.items[0], *b = n->list.len > 1 ? n->list.items[1] : NULL;
  const Type *e = elem_of(n->ty);
  ArrayOperands ops = bi_array_operands(l, a, b, e);
  LLVMValueRef out = lo_alloca(l, l->mod->rtarray, "stack");
  LLVMTypeRef p[7] = {l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[7] = {const_i32(l, (int)n->bi->ival), const_i32(l, (int)e->kind), ops.pa, const_i32(l, a->ty->ndim),
                          ops.pb, const_i32(l, b ? b->ty->ndim : 0), out};
  bi_array_call_end(l, &ops, e, lo_call_fn(l, "rt_linalg_stack", l->mod->i32, p, args, 7));
  return lo_load_storage(l, n->ty, out);
}

LLVMValueRef bi_array_operand(Lower *l, const Type *xt, LLVMValueRef v, const Type *e, LLVMValueRef *copy) {
  const Type *t = xt;
  *copy = NULL;
  if (t->elem != e) {
    t = ty_array(e, t->ndim, 'C', false);
    v = *copy = lo_copy_array(l, t, xt, v);
    lo_temp_made(l, t, v);
  }
  LLVMValueRef p = lo_alloca(l, l->mod->rtarray, "operand");
  lo_store_storage(l, t, p, v);
  return p;
}

ArrayOperands bi_array_operands(Lower *l, Node *a, Node *b, const Type *e) {
  ArrayOperands o = {a, b, lo_expr(l, a), b ? lo_expr(l, b) : NULL};
  o.pa = bi_array_operand(l, a->ty, o.va, e, &o.ca);
  o.pb = b ? bi_array_operand(l, b->ty, o.vb, e, &o.cb) : LLVMConstNull(l->mod->ptr);
  return o;
}

void bi_array_call_end(Lower *l, const ArrayOperands *o, const Type *e, LLVMValueRef status) {
  if (o->ca) lo_release_temp(l, ty_array(e, o->a->ty->ndim, 'C', false), o->ca);
  if (o->cb) lo_release_temp(l, ty_array(e, o->b->ty->ndim, 'C', false), o->cb);
  lo_done_with(l, o->a, o->va);
  if (o->b) lo_done_with(l, o->b, o->vb);
  LLVMBasicBlockRef fail = new_block(l, "array_call.fail"), ok = new_block(l, "array_call.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, status, const_i32(l, RT_OK), ""), fail, ok);
  position(l, fail);
  lo_raise_status(l, status);
  position(l, ok);
}

/* The product, or numpy.linalg's function, of one or two arrays: by
 * rt_matrix_product or rt_linalg, which check the shapes. */
static LLVMValueRef lo_product(Lower *l, Node *n) {
  if (is_stack(n)) return lo_linalg_stack(l, n);
  Node *a = n->list.items[0], *b = n->list.len > 1 ? n->list.items[1] : NULL;
  const Type *e = elem_of(n->ty);
  ArrayOperands ops = bi_array_operands(l, a, b, e);
  Node *o = n->list.len > 2 ? n->list.items[2] : n->bi->ival < LA_SOLVE ? ty_kwarg(n, "out") : NULL;
  LLVMValueRef vo = o ? lo_expr(l, o) : NULL, po = LLVMConstNull(l->mod->ptr);
  if (o) lo_store_storage(l, o->ty, po = lo_alloca(l, l->mod->rtarray, "out"), vo);
  LLVMValueRef out = lo_alloca(l, l->mod->rtarray, "product"), scalar = lo_alloca(l, lo_storage_type(l, e), "dot");
  LLVMTypeRef p[9] = {l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->i32, l->mod->ptr,
                      l->mod->i32, l->mod->ptr, l->mod->ptr, l->mod->ptr};
  LLVMValueRef args[9] = {const_i32(l, (int)n->bi->ival), const_i32(l, (int)e->kind), ops.pa, const_i32(l, a->ty->ndim),
                          ops.pb, const_i32(l, b ? b->ty->ndim : 0), out, scalar, po};
  const char *fn = n->bi->ival >= LA_SOLVE ? "rt_linalg" : "rt_matrix_product";
  bi_array_call_end(l, &ops, e, lo_call_fn(l, fn, l->mod->i32, p, args, 9));
  if (o) {  /* out itself is the result, a reference of the call's own */
    if (lo_is_fresh(o)) lo_temp_taken(l, vo);
    else lo_refcount(l, o->ty, vo, true);
    return vo;
  }
  return n->ty->kind == TY_ARRAY ? lo_load_storage(l, n->ty, out) : lo_load_scalar(l, e, scalar);
}

/* numpy.linalg.tensorsolve(a, b, axes=None) and tensorinv(a, ind=2): a
 * reshaped into one square matrix, by rt_tensor */
static const Type *ty_tensor(Infer *in, Node *n, const Type **args) {
  bool solve = n->bi->ival == LA_TENSORSOLVE;
  Node *a = n->list.items[0], *b = solve ? n->list.items[1] : NULL, *k = bi_arg(n, solve ? 2 : 1, solve ? "axes" : "ind");
  for (int i = 0; i < (solve ? 2 : 1); i++) {
    Node *x = n->list.items[i];
    if (x->ty->kind != TY_ARRAY || !ty_is_scalar(x->ty->elem) || x->ty->ndim == 0)
      return ty_error(in, x, "%s(): its arguments must be arrays of numbers of at least one dimension, got %s",
                      n->bi->name, x->ty->name);
  }
  if (solve && k && k->kind != N_NONE && k->ty->kind != TY_NONE)
    return ty_error(in, k, "%s(): axes= is not supported in compiled code", n->bi->name);
  if (!solve && k && !ty_is_int(k->ty)) return ty_error(in, k, "%s(): ind must be an integer", n->bi->name);
  if (solve && a->ty->ndim <= b->ty->ndim)
    return ty_error(in, a, "%s(): a must have more dimensions than b", n->bi->name);
  const Type *e = bi_linalg_dtype(a->ty->elem, b ? b->ty->elem : NULL);
  return ty_array(e, solve ? a->ty->ndim - b->ty->ndim : a->ty->ndim, 'C', false);
}

static LLVMValueRef lo_tensor(Lower *l, Node *n) {
  bool solve = n->bi->ival == LA_TENSORSOLVE;
  Node *a = n->list.items[0], *b = solve ? n->list.items[1] : NULL, *k = solve ? NULL : bi_arg(n, 1, "ind");
  const Type *e = elem_of(n->ty);
  ArrayOperands ops = bi_array_operands(l, a, b, e);
  LLVMValueRef out = lo_alloca(l, l->mod->rtarray, "tensor"), ind = k ? lo_expr_as(l, k, TYS(TY_I64)) : const_i64(l, 2);
  LLVMTypeRef p[8] = {l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->i32, l->mod->i64, l->mod->ptr};
  LLVMValueRef args[8] = {const_i32(l, (int)n->bi->ival), const_i32(l, (int)e->kind), ops.pa, const_i32(l, a->ty->ndim),
                          ops.pb, const_i32(l, b ? b->ty->ndim : 0), ind, out};
  bi_array_call_end(l, &ops, e, lo_call_fn(l, "rt_tensor", l->mod->i32, p, args, 8));
  return lo_load_storage(l, n->ty, out);
}

static const char *const out_kw[] = {"out", NULL};
static const char *const tensorsolve_kw[] = {"axes", NULL};
static const char *const tensorinv_kw[] = {"ind", NULL};

#define PRODUCT(name, op, most, kw)                                                                           \
  {"numpy." name, "numpy", name, BK_FUNCTION, 0, 2, most, kw, BF_ALLOCATES | BF_RAISES | BF_BLAS | BF_COMPLEX, op, 0, \
   ty_product, lo_product}

#define LINALG(name, op, n)                                                                                   \
  {"numpy.linalg." name, "numpy.linalg", name, BK_FUNCTION, 0, n, n, NULL, BF_ALLOCATES | BF_RAISES | BF_BLAS | BF_COMPLEX, op, 0, \
   ty_linalg, lo_product}

const Builtin bi_linalg[] = {
  PRODUCT("dot", LA_DOT, 3, out_kw),
  {"array.dot", NULL, "dot", BK_METHOD, TY_ARRAY, 1, 2, out_kw, BF_ALLOCATES | BF_RAISES | BF_BLAS | BF_COMPLEX, LA_DOT, 0,
   ty_product, lo_product},
  PRODUCT("matmul", LA_MATMUL, 3, out_kw),
  PRODUCT("inner", LA_INNER, 2, NULL),
  PRODUCT("vdot", LA_VDOT, 2, NULL),
  LINALG("solve", LA_SOLVE, 2),
  LINALG("inv", LA_INV, 1),
  LINALG("det", LA_DET, 1),
  {"numpy.linalg.tensorsolve", "numpy.linalg", "tensorsolve", BK_FUNCTION, 0, 2, 3, tensorsolve_kw,
   BF_ALLOCATES | BF_RAISES | BF_BLAS | BF_COMPLEX | BF_NONE, LA_TENSORSOLVE, 0, ty_tensor, lo_tensor},
  {"numpy.linalg.tensorinv", "numpy.linalg", "tensorinv", BK_FUNCTION, 0, 1, 2, tensorinv_kw,
   BF_ALLOCATES | BF_RAISES | BF_BLAS | BF_COMPLEX, LA_TENSORINV, 0, ty_tensor, lo_tensor},
  BI_END,
};
