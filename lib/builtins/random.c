/* builtins/random.c — numpy.random's functions and Python's random module
 * in compiled code. The generators are the runtime's (lib/random.c): one
 * state per thread for each module, seeded in compiled code, apart from
 * NumPy's and Python's own, as Numba keeps them.
 *
 * A distribution's row names its parameters (with their defaults) in a
 * Draw; size= (an int or a tuple of ints) makes an array of draws, filled
 * by one runtime call; without it a call draws one number.
 */
#include "builtins/builtins.h"

enum { MAX_PARAMS = 3 };

typedef struct Draw {
  int dist;                        /* RD_ */
  int nparams;
  const char *names[MAX_PARAMS + 2]; /* the parameters' keywords, then "size" (if taken), NULL */
  double dflt[MAX_PARAMS];         /* NaN: required; past nparams, the fixed values
                                    * (standard_normal is normal with 0 and 1) */
} Draw;

#define REQ __builtin_nan("")

static const Draw draws[] = {
#define D(dist, np, ...) {dist, np, __VA_ARGS__}
  /* 0 */ D(RD_RANDOM, 0, {"size"}, {0}),
  /* 1 */ D(RD_UNIFORM, 2, {"low", "high", "size"}, {0.0, 1.0}),
  /* 2 */ D(RD_NORMAL, 2, {"loc", "scale", "size"}, {0.0, 1.0}),
  /* 3 */ D(RD_NORMAL, 0, {"size"}, {0.0, 1.0}),  /* standard_normal */
  /* 4 */ D(RD_EXPONENTIAL, 1, {"scale", "size"}, {1.0}),
  /* 5 */ D(RD_EXPONENTIAL, 0, {"size"}, {1.0}),  /* standard_exponential */
  /* 6 */ D(RD_GAMMA, 2, {"shape", "scale", "size"}, {REQ, 1.0}),
  /* 7 */ D(RD_GAMMA, 1, {"shape", "size"}, {REQ, 1.0}),  /* standard_gamma */
  /* 8 */ D(RD_BETA, 2, {"a", "b", "size"}, {REQ, REQ}),
  /* 9 */ D(RD_CHISQUARE, 1, {"df", "size"}, {REQ}),
  /* 10 */ D(RD_LOGNORMAL, 2, {"mean", "sigma", "size"}, {0.0, 1.0}),
  /* 11 */ D(RD_LAPLACE, 2, {"loc", "scale", "size"}, {0.0, 1.0}),
  /* 12 */ D(RD_LOGISTIC, 2, {"loc", "scale", "size"}, {0.0, 1.0}),
  /* 13 */ D(RD_GUMBEL, 2, {"loc", "scale", "size"}, {0.0, 1.0}),
  /* 14 */ D(RD_PARETO, 1, {"a", "size"}, {REQ}),
  /* 15 */ D(RD_RAYLEIGH, 1, {"scale", "size"}, {1.0}),
  /* 16 */ D(RD_WEIBULL, 1, {"a", "size"}, {REQ}),
  /* 17 */ D(RD_TRIANGULAR, 3, {"left", "mode", "right", "size"}, {REQ, REQ, REQ}),
  /* 18 */ D(RD_VONMISES, 2, {"mu", "kappa", "size"}, {REQ, REQ}),
  /* 19 */ D(RD_POISSON, 1, {"lam", "size"}, {1.0}),
  /* 20 */ D(RD_BINOMIAL, 2, {"n", "p", "size"}, {REQ, REQ}),
  /* 21 */ D(RD_GEOMETRIC, 1, {"p", "size"}, {REQ}),
  /* the random module's: no size */
  /* 22 */ D(RD_PY_RANDOM, 0, {NULL}, {0}),
  /* 23 */ D(RD_PY_UNIFORM, 2, {"a", "b"}, {REQ, REQ}),
  /* 24 */ D(RD_PY_GAUSS, 2, {"mu", "sigma"}, {0.0, 1.0}),
  /* 25 */ D(RD_PY_EXPOVARIATE, 1, {"lambd"}, {1.0}),
#undef D
};

static const Draw *draw_of(const Node *n) { return &draws[n->bi->ival]; }
static bool is_int_dist(int d) { return d == RD_POISSON || d == RD_BINOMIAL || d == RD_GEOMETRIC; }
static bool takes_size(const Draw *d) { return d->names[d->nparams] != NULL; }
static bool is_none(const Node *x) { return !x || x->ty->kind == TY_NONE; }

/* A parameter: a number (a bool, an int or a float). */
static bool check_param(Infer *in, Node *n, Node *x, const char *name) {
  if (x && (!ty_is_scalar(x->ty) || ty_is_complex(x->ty)))
    return ty_error(in, x, "%s(): %s must be a number, got %s (arrays of parameters are not supported)",
                    n->bi->name, name, x->ty->name) != NULL;
  return true;
}

/* size=: absent or None (a number: ndim 0), an int or a tuple of ints. */
static int size_ndim(Infer *in, Node *size) { return is_none(size) ? 0 : np_shape_ndim(in, size); }

/* The result of ndim dimensions of elem, or elem itself when 0. */
static const Type *drawn(const Type *elem, int ndim) { return ndim ? ty_array(elem, ndim, 'C', false) : elem; }

/* The parameters and size of d's call n, from argument position first (a
 * method's receiver is position 0): the type of the draw. */
static const Type *typed_draw(Infer *in, Node *n, const Draw *d, int first, const Type *elem) {
  for (int i = 0; i < d->nparams; i++) {
    Node *x = np_arg(in, n, first + i, d->names[i]);
    if (ty_failed(in) || !check_param(in, n, x, d->names[i])) return NULL;
    if (!x && __builtin_isnan(d->dflt[i]))
      return ty_error(in, n, "%s() missing required argument '%s'", n->bi->name, d->names[i]);
  }
  int ndim = takes_size(d) ? size_ndim(in, np_arg(in, n, first + d->nparams, "size")) : 0;
  if (ndim < 0 || ty_failed(in)) return NULL;
  return drawn(elem, ndim);
}

static const Type *ty_draw(Infer *in, Node *n, const Type **args) {
  const Draw *d = draw_of(n);
  return typed_draw(in, n, d, 0, TYS(is_int_dist(d->dist) ? TY_I64 : TY_F64));
}

/* Parameter i as a double (arguments from position first): the argument
 * given or its default. */
static LLVMValueRef param(Lower *l, Node *n, const Draw *d, int first, int i) {
  Node *x = i < d->nparams ? np_arg_node(n, first + i, d->names[i]) : NULL;
  double v = __builtin_isnan(d->dflt[i]) ? 0.0 : d->dflt[i];
  return x ? lo_expr_as(l, x, TYS(TY_F64)) : LLVMConstReal(l->mod->f64, v);
}

/* The parameters, stored in a stack array of MAX_PARAMS doubles. */
static LLVMValueRef params_in_memory(Lower *l, LLVMValueRef *v) {
  LLVMTypeRef arr = LLVMArrayType2(l->mod->f64, MAX_PARAMS);
  LLVMValueRef params = lo_alloca(l, arr, "random.params");
  for (int i = 0; i < MAX_PARAMS; i++)
    LLVMBuildStore(l->b, v[i], LLVMBuildStructGEP2(l->b, arr, params, (unsigned)i, ""));
  return params;
}

/* The size's dimensions into shape, their product returned. */
static LLVMValueRef size_shape(Lower *l, Node *size, LLVMValueRef *shape, int *ndim) {
  *ndim = lo_shape_arg(l, size, shape);
  LLVMValueRef count = const_i64(l, 1);
  for (int i = 0; i < *ndim; i++) count = LLVMBuildMul(l->b, count, shape[i], "");
  return count;
}

/* An array of n's type, filled by fill(data, count, arg) (a runtime
 * call's status, or NULL where it cannot fail). */
typedef LLVMValueRef (*Fill)(Lower *l, LLVMValueRef data, LLVMValueRef count, void *arg);

static LLVMValueRef filled_array(Lower *l, Node *n, Node *size, Fill fill, void *arg) {
  LLVMValueRef shape[RC_MAX_NDIM];
  int ndim;
  LLVMValueRef count = size_shape(l, size, shape, &ndim);
  LLVMValueRef a = lo_alloc_array(l, n->ty, shape, -1);
  lo_temp_made(l, n->ty, a);
  LLVMValueRef st = fill(l, LLVMBuildExtractValue(l->b, a, 2, "data"), count, arg);
  if (st) lo_check_status(l, st);
  lo_temp_taken(l, a);
  return a;
}

static LLVMValueRef call_draw(Lower *l, int dist, LLVMValueRef params, LLVMValueRef out, LLVMValueRef count) {
  LLVMTypeRef p[4] = {l->mod->i32, l->mod->ptr, l->mod->ptr, l->mod->i64};
  LLVMValueRef a[4] = {const_i32(l, dist), params, out, count};
  return lo_call_fn(l, "rt_random_draw", l->mod->i32, p, a, 4);
}

typedef struct DrawFill {
  int dist;
  LLVMValueRef params;
} DrawFill;

static LLVMValueRef fill_draws(Lower *l, LLVMValueRef data, LLVMValueRef count, void *arg) {
  DrawFill *f = arg;
  return call_draw(l, f->dist, f->params, data, count);
}

/* One double, on the paths a loop takes once per element: no memory in
 * between, and normal's check of its scale inline. */
static LLVMValueRef fast_scalar(Lower *l, int dist, LLVMValueRef *v) {
  if (dist == RD_RANDOM || dist == RD_PY_RANDOM) {
    LLVMValueRef which = const_i32(l, dist == RD_PY_RANDOM);
    return lo_call_fn(l, "rt_random_double", l->mod->f64, &l->mod->i32, &which, 1);
  }
  lo_raise_if(l, fcmp(l, LLVMRealOLT, v[1], LLVMConstReal(l->mod->f64, 0.0)), RT_ERR_VALUE, "scale < 0");
  LLVMTypeRef p[2] = {l->mod->f64, l->mod->f64};
  return lo_call_fn(l, "rt_random_gauss", l->mod->f64, p, v, 2);
}

static LLVMValueRef lo_draw(Lower *l, Node *n) {
  const Draw *d = draw_of(n);
  LLVMValueRef v[MAX_PARAMS];
  for (int i = 0; i < MAX_PARAMS; i++) v[i] = param(l, n, d, 0, i);
  bool scalar = n->ty->kind != TY_ARRAY;
  if (scalar && (d->dist == RD_RANDOM || d->dist == RD_PY_RANDOM || d->dist == RD_NORMAL))
    return fast_scalar(l, d->dist, v);
  LLVMValueRef params = params_in_memory(l, v);
  if (!scalar) {
    DrawFill f = {d->dist, params};
    return filled_array(l, n, np_arg_node(n, d->nparams, "size"), fill_draws, &f);
  }
  const Type *t = n->ty;
  LLVMValueRef out = lo_alloca(l, lo_storage_type(l, t), "random.out");
  lo_check_status(l, call_draw(l, d->dist, params, out, const_i64(l, 1)));
  return lo_load_scalar(l, t, out);
}

/* ---------------------------------------------------------------- rand, randn */

/* numpy.random.rand(d0, d1, ...) and randn: the dimensions as arguments. */
static const Type *ty_rand_dims(Infer *in, Node *n, const Type **args) {
  for (int i = 0; i < n->list.len; i++)
    if (!ty_is_int(args[i]))
      return ty_error(in, n->list.items[i], "%s(): the dimensions must be ints, got %s", n->bi->name, args[i]->name);
  return drawn(TYS(TY_F64), n->list.len);
}

static LLVMValueRef lo_rand_dims(Lower *l, Node *n) {
  int dist = (int)n->bi->ival;
  LLVMValueRef v[2] = {LLVMConstReal(l->mod->f64, 0.0), LLVMConstReal(l->mod->f64, 1.0)};
  if (!n->list.len) return fast_scalar(l, dist, v);
  LLVMValueRef shape[RC_MAX_NDIM], count = const_i64(l, 1);
  for (int i = 0; i < n->list.len; i++) {
    shape[i] = lo_expr_as(l, n->list.items[i], TYS(TY_I64));
    count = LLVMBuildMul(l->b, count, shape[i], "");
  }
  LLVMValueRef a = lo_alloc_array(l, n->ty, shape, -1);
  LLVMTypeRef arr = LLVMArrayType2(l->mod->f64, MAX_PARAMS);
  LLVMValueRef params = lo_alloca(l, arr, "random.params");
  for (int i = 0; i < 2; i++) LLVMBuildStore(l->b, v[i], LLVMBuildStructGEP2(l->b, arr, params, (unsigned)i, ""));
  call_draw(l, dist, params, LLVMBuildExtractValue(l->b, a, 2, ""), count);  /* cannot fail: loc 0, scale 1 */
  return a;
}

/* ---------------------------------------------------------------- seed */

enum { SEED_NUMPY, SEED_PYTHON };  /* rt_random_seed's which */

static const Type *ty_seed(Infer *in, Node *n, const Type **args) {
  Node *s = n->list.len ? n->list.items[0] : NULL;
  if (!is_none(s) && !ty_is_int(s->ty))
    return ty_error(in, s, "%s(): the seed must be an int in compiled code, got %s", n->bi->name, s->ty->name);
  return TYS(TY_NONE);
}

static LLVMValueRef lo_seed(Lower *l, Node *n) {
  Node *s = n->list.len ? n->list.items[0] : NULL;
  bool fresh = is_none(s);
  LLVMTypeRef p[3] = {l->mod->i32, l->mod->i64, l->mod->i32};
  LLVMValueRef a[3] = {const_i32(l, (int)n->bi->ival), fresh ? const_i64(l, 0) : lo_expr_as(l, s, TYS(TY_I64)),
                       const_i32(l, fresh)};
  lo_check_status(l, lo_call_fn(l, "rt_random_seed", l->mod->i32, p, a, 3));
  return LLVMGetUndef(l->mod->i8);
}

/* ---------------------------------------------------------------- integers */

/* numpy.random.randint(low, high=None, size=None); random.randint(a, b),
 * random.randrange(start, stop=None): ints. */
static const Type *ty_ints(Infer *in, Node *n, const Type **args) {
  int how = (int)n->bi->ival;
  const char *lo_name = how == RI_NUMPY ? "low" : how == RI_PY_RANDINT ? "a" : "start";
  const char *hi_name = how == RI_NUMPY ? "high" : how == RI_PY_RANDINT ? "b" : "stop";
  Node *lo = np_arg(in, n, 0, lo_name), *hi = np_arg(in, n, 1, hi_name);
  if (ty_failed(in)) return NULL;
  if (!lo) return ty_error(in, n, "%s() missing required argument '%s'", n->bi->name, lo_name);
  if (how == RI_PY_RANDINT && is_none(hi)) return ty_error(in, n, "%s() missing required argument 'b'", n->bi->name);
  for (int i = 0; i < 2; i++) {
    Node *x = i ? hi : lo;
    if (!is_none(x) && !ty_is_int(x->ty))
      return ty_error(in, x, "%s(): %s must be an int, got %s", n->bi->name, i ? hi_name : lo_name, x->ty->name);
  }
  int ndim = how == RI_NUMPY ? size_ndim(in, np_arg(in, n, 2, "size")) : 0;
  return ndim < 0 || ty_failed(in) ? NULL : drawn(TYS(TY_I64), ndim);
}

typedef struct IntFill {
  int how;
  LLVMValueRef low, high;
} IntFill;

static LLVMValueRef fill_ints(Lower *l, LLVMValueRef data, LLVMValueRef count, void *arg) {
  IntFill *f = arg;
  LLVMTypeRef p[5] = {l->mod->i32, l->mod->i64, l->mod->i64, l->mod->ptr, l->mod->i64};
  LLVMValueRef a[5] = {const_i32(l, f->how), f->low, f->high, data, count};
  return lo_call_fn(l, "rt_random_ints", l->mod->i32, p, a, 5);
}

static LLVMValueRef lo_ints(Lower *l, Node *n) {
  int how = (int)n->bi->ival;
  Node *lo = n->list.items[0], *hi = np_arg_node(n, 1, how == RI_NUMPY ? "high" : how == RI_PY_RANDINT ? "b" : "stop");
  IntFill f = {how, lo_expr_as(l, lo, TYS(TY_I64)), NULL};
  if (is_none(hi)) {  /* one bound: [0, low) */
    f.high = f.low;
    f.low = const_i64(l, 0);
  } else {
    f.high = lo_expr_as(l, hi, TYS(TY_I64));
  }
  if (n->ty->kind == TY_ARRAY) return filled_array(l, n, np_arg_node(n, 2, "size"), fill_ints, &f);
  LLVMValueRef out = lo_alloca(l, l->mod->i64, "random.int");
  lo_check_status(l, fill_ints(l, out, const_i64(l, 1), &f));
  return LLVMBuildLoad2(l->b, l->mod->i64, out, "");
}

static const Type *ty_getrandbits(Infer *in, Node *n, const Type **args) {
  if (!ty_is_int(args[0])) return ty_error(in, n->list.items[0], "random.getrandbits(): k must be an int, got %s", args[0]->name);
  return TYS(TY_I64);
}

static LLVMValueRef lo_getrandbits(Lower *l, Node *n) {
  LLVMValueRef k = lo_expr_as(l, n->list.items[0], TYS(TY_I64));
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, k, const_i64(l, 0), ""), RT_ERR_VALUE,
              "number of bits must be non-negative");
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSGT, k, const_i64(l, 63), ""), RT_ERR_VALUE,
              "getrandbits() of more than 63 bits is not supported in compiled code");
  return lo_call_fn(l, "rt_random_getrandbits", l->mod->i64, &l->mod->i64, &k, 1);
}

/* ---------------------------------------------------------------- shuffle, permutation */

/* numpy.random's shuffle and permutation and a Generator's: x is the
 * first argument, after a method's receiver; the Generator's draw from
 * its bit generator. */
static int first_arg(const Node *n) { return n->bi->kind == BK_METHOD; }

static const Type *ty_shuffle(Infer *in, Node *n, const Type **args) {
  int i = first_arg(n);
  const Type *t = args[i];
  Node *x = n->list.items[i];
  if (t->kind != TY_ARRAY || t->ndim == 0)
    return ty_error(in, x, "%s(): x must be an array of at least one dimension, got %s", n->bi->name, t->name);
  if (t->ndim > 1 && t->layout != 'C')
    return ty_error(in, x, "%s(): arrays of more than one dimension must be C-contiguous here", n->bi->name);
  if (t->readonly) return ty_error(in, x, "%s(): the array is read-only", n->bi->name);
  return TYS(TY_NONE);
}

/* The array's rows shuffled in place: items of a row's bytes, a stride
 * apart; by a Generator's bit generator (bitgen), or numpy.random's state. */
static void shuffle_rows(Lower *l, const Type *t, LLVMValueRef a, LLVMValueRef bitgen) {
  LLVMValueRef row = const_i64(l, ty_bits(t->elem) / 8);
  for (int d = 1; d < t->ndim; d++) row = LLVMBuildMul(l->b, row, lo_arr_shape(l, a, d), "");
  LLVMValueRef stride = t->ndim > 1 ? row : lo_arr_stride(l, t, a, 0);
  LLVMTypeRef p[5] = {l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64};
  LLVMValueRef args[5] = {bitgen, LLVMBuildExtractValue(l->b, a, 2, ""), lo_arr_shape(l, a, 0), stride, row};
  if (bitgen) lo_call_fn(l, "rt_generator_shuffle", void_type(l), p, args, 5);
  else lo_call_fn(l, "rt_random_shuffle", void_type(l), p + 1, args + 1, 4);
}

/* A method's receiver, its bit generator; NULL for numpy.random's functions. */
static LLVMValueRef receiver(Lower *l, Node *n) { return first_arg(n) ? lo_expr(l, n->list.items[0]) : NULL; }

static void done_with_receiver(Lower *l, Node *n, LLVMValueRef bitgen) {
  if (bitgen) lo_done_with(l, n->list.items[0], bitgen);
}

static LLVMValueRef lo_shuffle(Lower *l, Node *n) {
  LLVMValueRef bitgen = receiver(l, n);
  Node *x = n->list.items[first_arg(n)];
  LLVMValueRef a = lo_expr(l, x);
  shuffle_rows(l, x->ty, a, bitgen);
  lo_done_with(l, x, a);
  done_with_receiver(l, n, bitgen);
  return LLVMGetUndef(l->mod->i8);
}

/* permutation(n): arange(n) shuffled; of an array: a shuffled copy. */
static const Type *ty_permutation(Infer *in, Node *n, const Type **args) {
  const Type *t = args[first_arg(n)];
  if (ty_is_int(t)) return ty_array(TYS(TY_I64), 1, 'C', false);
  if (t->kind != TY_ARRAY || t->ndim == 0)
    return ty_error(in, n->list.items[first_arg(n)], "%s(): x must be an int or an array, got %s", n->bi->name,
                    t->name);
  return ty_array(t->elem, t->ndim, 'C', false);
}

static LLVMValueRef lo_permutation(Lower *l, Node *n) {
  LLVMValueRef bitgen = receiver(l, n);
  Node *x = n->list.items[first_arg(n)];
  LLVMValueRef v = lo_expr(l, x), a;
  if (x->ty->kind != TY_ARRAY) {
    LLVMValueRef count = lo_convert(l, v, x->ty, TYS(TY_I64));  /* below 0: none, as arange's */
    count = LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, count, const_i64(l, 0), ""), const_i64(l, 0), count, "");
    a = lo_alloc_array(l, n->ty, &count, -1);
    LLVMTypeRef p[3] = {l->mod->ptr, l->mod->ptr, l->mod->i64};
    LLVMValueRef args[3] = {bitgen, LLVMBuildExtractValue(l->b, a, 2, ""), count};
    if (bitgen) lo_call_fn(l, "rt_generator_permutation", void_type(l), p, args, 3);
    else lo_call_fn(l, "rt_random_permutation", void_type(l), p + 1, args + 1, 2);
  } else {
    a = lo_copy_array(l, n->ty, x->ty, v);
    lo_done_with(l, x, v);
    shuffle_rows(l, n->ty, a, bitgen);
  }
  done_with_receiver(l, n, bitgen);
  return a;
}

/* ---------------------------------------------------------------- choice */

static const Type *ty_choice(Infer *in, Node *n, const Type **args) {
  Node *a = n->list.items[0], *size = np_arg(in, n, 1, "size"), *replace = np_arg(in, n, 2, "replace");
  Node *p = np_arg(in, n, 3, "p");
  if (ty_failed(in)) return NULL;
  const Type *t = a->ty;
  if (!ty_is_int(t) && (t->kind != TY_ARRAY || t->ndim != 1))
    return ty_error(in, a, "%s(): a must be an int or a 1-dimensional array, got %s", n->bi->name, t->name);
  if (replace && replace->ty->kind != TY_BOOL && !ty_is_int(replace->ty))
    return ty_error(in, replace, "%s(): replace must be a bool, got %s", n->bi->name, replace->ty->name);
  if (!is_none(p) && (p->ty->kind != TY_ARRAY || p->ty->ndim != 1 || !ty_is_float(p->ty->elem)))
    return ty_error(in, p, "%s(): p must be a 1-dimensional array of floats, got %s", n->bi->name, p->ty->name);
  int ndim = size_ndim(in, size);
  if (ndim < 0) return NULL;
  return drawn(ty_is_int(t) ? TYS(TY_I64) : t->elem, ndim);
}

typedef struct Choice {
  LLVMValueRef pop, p, np, replace;
  Node *a;
  LLVMValueRef av;  /* the population's array, or NULL for an int */
} Choice;

/* The indices drawn into idx (int64, count of them). */
static LLVMValueRef choose_indices(Lower *l, Choice *c, LLVMValueRef idx, LLVMValueRef count) {
  LLVMTypeRef p[7] = {l->mod->i64, l->mod->i32, l->mod->ptr, l->mod->i64, l->mod->i32, l->mod->ptr, l->mod->i64};
  LLVMValueRef args[7] = {c->pop, const_i32(l, !c->av), c->p, c->np, c->replace, idx, count};
  return lo_call_fn(l, "rt_random_choice", l->mod->i32, p, args, 7);
}

static LLVMValueRef fill_choice(Lower *l, LLVMValueRef data, LLVMValueRef count, void *arg) {
  Choice *c = arg;
  if (!c->av) return choose_indices(l, c, data, count);
  LLVMValueRef idx = lo_alloc_array(l, ty_array(TYS(TY_I64), 1, 'C', false), &count, -1);
  lo_temp_made(l, ty_array(TYS(TY_I64), 1, 'C', false), idx);
  LLVMValueRef ip = LLVMBuildExtractValue(l->b, idx, 2, "");
  lo_check_status(l, choose_indices(l, c, ip, count));
  const Type *elem = c->a->ty->elem;
  LoLoop loop = lo_loop_begin(l, const_i64(l, 0), count, NULL, "choice");
  LLVMValueRef k = LLVMBuildLoad2(l->b, l->mod->i64, LLVMBuildInBoundsGEP2(l->b, l->mod->i64, ip, &loop.index, 1, ""), "");
  LLVMValueRef v = lo_load_scalar(l, elem, lo_element_addr(l, c->a->ty, c->av, &k));
  lo_store_scalar(l, elem, LLVMBuildInBoundsGEP2(l->b, lo_storage_type(l, elem), data, &loop.index, 1, ""), v);
  lo_loop_end(l, &loop);
  lo_release_temp(l, ty_array(TYS(TY_I64), 1, 'C', false), idx);
  return NULL;
}

static LLVMValueRef lo_choice(Lower *l, Node *n) {
  Node *a = n->list.items[0], *replace = np_arg_node(n, 2, "replace"), *p = np_arg_node(n, 3, "p");
  Choice c = {.a = a, .np = const_i64(l, 0)};
  LLVMValueRef pv = NULL, pc = NULL;
  if (a->ty->kind == TY_ARRAY) {
    c.av = lo_expr(l, a);
    c.pop = lo_arr_shape(l, c.av, 0);
  } else {
    c.pop = lo_expr_as(l, a, TYS(TY_I64));
  }
  c.replace = replace ? LLVMBuildZExt(l->b, lo_truth(l, lo_expr(l, replace), replace->ty), l->mod->i32, "")
                      : const_i32(l, 1);
  c.p = LLVMConstNull(l->mod->ptr);
  if (!is_none(p)) {  /* the weights as contiguous float64 */
    const Type *pt = ty_array(TYS(TY_F64), 1, 'C', false);
    pv = lo_expr(l, p);
    pc = p->ty == pt ? pv : lo_copy_array(l, pt, p->ty, pv);
    if (pc != pv) lo_temp_made(l, pt, pc);
    c.p = LLVMBuildExtractValue(l->b, pc, 2, "");
    c.np = lo_arr_shape(l, pc, 0);
  }
  LLVMValueRef r;
  Node *size = np_arg_node(n, 1, "size");
  if (n->ty->kind == TY_ARRAY) {
    r = filled_array(l, n, size, fill_choice, &c);
  } else {
    LLVMValueRef one = const_i64(l, 1), slot = lo_alloca(l, l->mod->i64, "choice.slot");
    lo_check_status(l, choose_indices(l, &c, slot, one));
    r = LLVMBuildLoad2(l->b, l->mod->i64, slot, "");
    if (c.av) r = lo_load_scalar(l, n->ty, lo_element_addr(l, a->ty, c.av, &r));
  }
  if (pc && pc != pv) lo_release_temp(l, ty_array(TYS(TY_F64), 1, 'C', false), pc);
  if (pv) lo_done_with(l, p, pv);
  if (c.av) lo_done_with(l, a, c.av);
  return r;
}

/* ---------------------------------------------------------------- numpy.random.Generator */

/* A Generator's methods draw NumPy's Generator streams from its own bit
 * generator (lib/generator.c; its state advances as NumPy's methods
 * advance it). A distribution's row's ival is its Draw in draws[] (random,
 * uniform, normal, standard_normal, exponential, standard_exponential,
 * gamma, standard_gamma and the rest: its keywords are that Draw's names);
 * integers' is -1. Arguments count the receiver
 * (position 0). Not flagged as allocating, which would make them array
 * methods to the table's readers: the typer keeps them out of kernels
 * itself. */
enum { GEN_INTEGERS = -1 };

static const Type *ty_generator(Infer *in, Node *n, const Type **args) {
  if (ty_in_cuda(in)) return ty_error(in, n, "%s() is not supported in CUDA kernels", n->bi->name);
  if (n->bi->ival != GEN_INTEGERS) {
    const Draw *d = draw_of(n);
    return typed_draw(in, n, d, 1, TYS(is_int_dist(d->dist) ? TY_I64 : TY_F64));
  }
  const char *names[2] = {"low", "high"};
  for (int i = 0; i < 2; i++) {
    Node *x = np_arg(in, n, i + 1, names[i]);
    if (ty_failed(in)) return NULL;
    if (i == 0 && !x) return ty_error(in, n, "%s() missing required argument 'low'", n->bi->name);
    if (!is_none(x) && !ty_is_int(x->ty))
      return ty_error(in, x, "%s(): %s must be an int, got %s", n->bi->name, names[i], x->ty->name);
  }
  Node *endpoint = np_arg(in, n, 5, "endpoint");
  if (endpoint && endpoint->ty->kind != TY_BOOL)
    return ty_error(in, endpoint, "%s(): endpoint must be a bool, got %s", n->bi->name, endpoint->ty->name);
  const Type *dtype = np_dtype_arg(in, n, 4, TYS(TY_I64));
  if (dtype && !ty_is_int(dtype) && dtype->kind != TY_BOOL)
    return ty_error(in, n, "%s(): unsupported dtype %s for integers", n->bi->name, dtype->name);
  int ndim = size_ndim(in, np_arg(in, n, 3, "size"));
  return ndim < 0 || ty_failed(in) ? NULL : drawn(dtype, ndim);
}

typedef struct GeneratorFill {
  int dist;  /* RD_, or GEN_INTEGERS */
  LLVMValueRef bitgen, params, low, high, endpoint;
  const Type *elem;  /* integers': the dtype drawn */
} GeneratorFill;

static LLVMValueRef fill_generator(Lower *l, LLVMValueRef data, LLVMValueRef count, void *arg) {
  GeneratorFill *f = arg;
  if (f->dist == GEN_INTEGERS) {
    int bits = f->elem->kind == TY_BOOL ? 1 : ty_bits(f->elem);
    LLVMTypeRef p[8] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i32,
                        l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->i64};
    LLVMValueRef a[8] = {f->bitgen, f->low, f->high, f->endpoint,
                         const_i32(l, bits), const_i32(l, ty_is_signed(f->elem)), data, count};
    return lo_call_fn(l, "rt_generator_ints", l->mod->i32, p, a, 8);
  }
  LLVMTypeRef p[5] = {l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->ptr, l->mod->i64};
  LLVMValueRef a[5] = {f->bitgen, const_i32(l, f->dist), f->params, data, count};
  return lo_call_fn(l, "rt_generator_draw", l->mod->i32, p, a, 5);
}

/* One normal, on the path a loop takes per element: the scale's check
 * inline (NumPy's: its sign bit, so -0.0 too, NaN let through). */
static LLVMValueRef generator_normal(Lower *l, LLVMValueRef bitgen, LLVMValueRef *v) {
  LLVMValueRef bits = LLVMBuildBitCast(l->b, v[1], l->mod->i64, "");
  LLVMValueRef neg = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, bits, const_i64(l, 0), ""),
                                  fcmp(l, LLVMRealORD, v[1], v[1]), "");
  lo_raise_if(l, neg, RT_ERR_VALUE, "scale < 0");
  LLVMTypeRef p[3] = {l->mod->ptr, l->mod->f64, l->mod->f64};
  LLVMValueRef a[3] = {bitgen, v[0], v[1]};
  return lo_call_fn(l, "rt_generator_normal", l->mod->f64, p, a, 3);
}

/* integers' bounds: [0, low) from one, [low, high) or [low, high] from two. */
static void integer_bounds(Lower *l, Node *n, GeneratorFill *f) {
  Node *hi = np_arg_node(n, 2, "high"), *endpoint = np_arg_node(n, 5, "endpoint");
  f->low = lo_expr_as(l, np_arg_node(n, 1, "low"), TYS(TY_I64));
  f->high = is_none(hi) ? f->low : lo_expr_as(l, hi, TYS(TY_I64));
  if (is_none(hi)) f->low = const_i64(l, 0);
  f->endpoint = endpoint ? LLVMBuildZExt(l->b, lo_expr_as(l, endpoint, TYS(TY_BOOL)), l->mod->i32, "") : const_i32(l, 0);
  f->params = LLVMConstNull(l->mod->ptr);
  f->elem = n->ty->kind == TY_ARRAY ? n->ty->elem : n->ty;
}

static LLVMValueRef lo_generator(Lower *l, Node *n) {
  GeneratorFill f = {(int)n->bi->ival, lo_expr(l, n->list.items[0])};
  const Draw *d = f.dist == GEN_INTEGERS ? NULL : draw_of(n);
  int nparams = d ? d->nparams : 2;
  if (d) {
    LLVMValueRef v[MAX_PARAMS];
    for (int i = 0; i < MAX_PARAMS; i++) v[i] = param(l, n, d, 1, i);
    f.dist = d->dist;
    if (n->ty->kind != TY_ARRAY && f.dist == RD_NORMAL) {
      LLVMValueRef r = generator_normal(l, f.bitgen, v);
      lo_done_with(l, n->list.items[0], f.bitgen);
      return r;
    }
    f.params = params_in_memory(l, v);
  } else {
    integer_bounds(l, n, &f);
  }
  LLVMValueRef r;
  if (n->ty->kind == TY_ARRAY) {
    r = filled_array(l, n, np_arg_node(n, nparams + 1, "size"), fill_generator, &f);
  } else {
    LLVMValueRef out = lo_alloca(l, l->mod->i64, "generator.out");
    lo_check_status(l, fill_generator(l, out, const_i64(l, 1), &f));
    r = lo_load_scalar(l, n->ty, out);
  }
  lo_done_with(l, n->list.items[0], f.bitgen);  /* a Generator made for this call released */
  return r;
}

/* numpy.random.default_rng(seed=None): a PCG64 Generator of compiled
 * code's own, seeded from an int as NumPy seeds it (so its stream is
 * default_rng(seed)'s in Python), or from the system's entropy. */
static const Type *ty_default_rng(Infer *in, Node *n, const Type **args) {
  Node *s = np_arg(in, n, 0, "seed");
  if (ty_failed(in)) return NULL;
  if (!is_none(s) && !ty_is_int(s->ty))
    return ty_error(in, s, "%s(): the seed must be an int or None in compiled code, got %s", n->bi->name, s->ty->name);
  return TYS(TY_GENERATOR);
}

static LLVMValueRef lo_default_rng(Lower *l, Node *n) {
  Node *s = np_arg_node(n, 0, "seed");
  bool fresh = is_none(s);
  LLVMValueRef out = lo_alloca(l, l->mod->ptr, "generator.new");
  LLVMTypeRef p[3] = {l->mod->i64, l->mod->i32, l->mod->ptr};
  LLVMValueRef a[3] = {fresh ? const_i64(l, 0) : lo_expr_as(l, s, TYS(TY_I64)), const_i32(l, fresh), out};
  lo_check_status(l, lo_call_fn(l, "rt_generator_new", l->mod->i32, p, a, 3));
  return LLVMBuildLoad2(l->b, l->mod->ptr, out, "");
}

/* ---------------------------------------------------------------- the rows */

static const char *const no_kw[] = {NULL};
static const char *const ints_kw[] = {"low", "high", "size", NULL};
static const char *const choice_kw[] = {"size", "replace", "p", NULL};
static const char *const seed_kw[] = {"seed", NULL};
static const char *const gen_random_kw[] = {"size", NULL};
static const char *const gen_uniform_kw[] = {"low", "high", "size", NULL};
static const char *const gen_integers_kw[] = {"low", "high", "size", "dtype", "endpoint", NULL};
static const char *const gen_normal_kw[] = {"loc", "scale", "size", NULL};
static const char *const gen_exponential_kw[] = {"scale", "size", NULL};
static const char *const gen_gamma_kw[] = {"shape", "scale", "size", NULL};
static const char *const gen_standard_gamma_kw[] = {"shape", "size", NULL};
static const char *const gen_poisson_kw[] = {"lam", "size", NULL};
static const char *const gen_binomial_kw[] = {"n", "p", "size", NULL};

#define FLAGS (BF_ALLOCATES | BF_RAISES | BF_NONE)
#define NP_DRAW(name, spec, most)                                                                     \
  {"numpy.random." name, "numpy.random", name, BK_FUNCTION, 0, 0, most, draws[spec].names, FLAGS, spec, 0, \
   ty_draw, lo_draw}
#define PY_DRAW(name, spec, least, most)                                                             \
  {"random." name, "random", name, BK_FUNCTION, 0, least, most, draws[spec].names, FLAGS, spec, 0, ty_draw, \
   lo_draw}
#define GENERATOR_FLAGS (BF_RAISES | BF_NONE)
#define GEN_ROW(name, least, most, kw, ival) \
  {"Generator." name, NULL, name, BK_METHOD, TY_GENERATOR, least, most, kw, GENERATOR_FLAGS, ival, 0, ty_generator, lo_generator}
#define ROW(module, name, least, most, kw, ival, type, lower) \
  {module "." name, module, name, BK_FUNCTION, 0, least, most, kw, FLAGS, ival, 0, type, lower}

const Builtin bi_random[] = {
  ROW("numpy.random", "seed", 0, 1, no_kw, SEED_NUMPY, ty_seed, lo_seed),
  NP_DRAW("random", 0, 1),
  NP_DRAW("random_sample", 0, 1),
  NP_DRAW("sample", 0, 1),
  NP_DRAW("ranf", 0, 1),
  NP_DRAW("uniform", 1, 3),
  NP_DRAW("normal", 2, 3),
  NP_DRAW("standard_normal", 3, 1),
  NP_DRAW("exponential", 4, 2),
  NP_DRAW("standard_exponential", 5, 1),
  NP_DRAW("gamma", 6, 3),
  NP_DRAW("standard_gamma", 7, 2),
  NP_DRAW("beta", 8, 3),
  NP_DRAW("chisquare", 9, 2),
  NP_DRAW("lognormal", 10, 3),
  NP_DRAW("laplace", 11, 3),
  NP_DRAW("logistic", 12, 3),
  NP_DRAW("gumbel", 13, 3),
  NP_DRAW("pareto", 14, 2),
  NP_DRAW("rayleigh", 15, 2),
  NP_DRAW("weibull", 16, 2),
  NP_DRAW("triangular", 17, 4),
  NP_DRAW("vonmises", 18, 3),
  NP_DRAW("poisson", 19, 2),
  NP_DRAW("binomial", 20, 3),
  NP_DRAW("geometric", 21, 2),
  ROW("numpy.random", "rand", 0, RC_MAX_NDIM, no_kw, RD_RANDOM, ty_rand_dims, lo_rand_dims),
  ROW("numpy.random", "randn", 0, RC_MAX_NDIM, no_kw, RD_NORMAL, ty_rand_dims, lo_rand_dims),
  ROW("numpy.random", "randint", 0, 3, ints_kw, RI_NUMPY, ty_ints, lo_ints),
  ROW("numpy.random", "choice", 1, 4, choice_kw, 0, ty_choice, lo_choice),
  ROW("numpy.random", "shuffle", 1, 1, no_kw, 0, ty_shuffle, lo_shuffle),
  ROW("numpy.random", "permutation", 1, 1, no_kw, 0, ty_permutation, lo_permutation),
  ROW("numpy.random", "default_rng", 0, 1, seed_kw, 0, ty_default_rng, lo_default_rng),
  ROW("random", "seed", 0, 1, no_kw, SEED_PYTHON, ty_seed, lo_seed),
  PY_DRAW("random", 22, 0, 0),
  PY_DRAW("uniform", 23, 0, 2),
  PY_DRAW("gauss", 24, 0, 2),
  PY_DRAW("normalvariate", 24, 0, 2),
  PY_DRAW("expovariate", 25, 0, 1),
  ROW("random", "randint", 0, 2, no_kw, RI_PY_RANDINT, ty_ints, lo_ints),
  ROW("random", "randrange", 0, 2, no_kw, RI_PY_RANDRANGE, ty_ints, lo_ints),
  ROW("random", "getrandbits", 1, 1, no_kw, 0, ty_getrandbits, lo_getrandbits),
  GEN_ROW("random", 0, 1, gen_random_kw, 0),
  GEN_ROW("uniform", 0, 3, gen_uniform_kw, 1),
  GEN_ROW("normal", 0, 3, gen_normal_kw, 2),
  GEN_ROW("standard_normal", 0, 1, gen_random_kw, 3),
  GEN_ROW("exponential", 0, 2, gen_exponential_kw, 4),
  GEN_ROW("standard_exponential", 0, 1, gen_random_kw, 5),
  GEN_ROW("gamma", 0, 3, gen_gamma_kw, 6),
  GEN_ROW("standard_gamma", 0, 2, gen_standard_gamma_kw, 7),
  GEN_ROW("chisquare", 0, 2, draws[9].names, 9),
  GEN_ROW("lognormal", 0, 3, draws[10].names, 10),
  GEN_ROW("laplace", 0, 3, draws[11].names, 11),
  GEN_ROW("logistic", 0, 3, draws[12].names, 12),
  GEN_ROW("gumbel", 0, 3, draws[13].names, 13),
  GEN_ROW("pareto", 0, 2, draws[14].names, 14),
  GEN_ROW("rayleigh", 0, 2, draws[15].names, 15),
  GEN_ROW("weibull", 0, 2, draws[16].names, 16),
  GEN_ROW("triangular", 0, 4, draws[17].names, 17),
  GEN_ROW("geometric", 0, 2, draws[21].names, 21),
  GEN_ROW("poisson", 0, 2, gen_poisson_kw, 19),
  GEN_ROW("binomial", 0, 3, gen_binomial_kw, 20),
  GEN_ROW("integers", 0, 5, gen_integers_kw, GEN_INTEGERS),
  {"Generator.shuffle", NULL, "shuffle", BK_METHOD, TY_GENERATOR, 1, 1, no_kw, GENERATOR_FLAGS, 0, 0, ty_shuffle,
   lo_shuffle},
  {"Generator.permutation", NULL, "permutation", BK_METHOD, TY_GENERATOR, 1, 1, no_kw, GENERATOR_FLAGS, 0, 0,
   ty_permutation, lo_permutation},
  BI_END,
};
