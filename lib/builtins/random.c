/* builtins/random.c — numpy.random's functions and Python's random module
 * in compiled code. The generators are the runtime's (lib/random.c): one
 * state per thread for each module, seeded in compiled code, apart from
 * NumPy's and Python's own, as Numba keeps them.
 *
 * A distribution's row names its parameters (with their defaults) in a
 * Draw; size= (an int or a tuple of ints) makes an array of draws, filled
 * by one runtime call; without it a call draws one number.
 */
#include <stdio.h>

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
  /* 26 */ D(RD_F, 2, {"dfnum", "dfden", "size"}, {REQ, REQ}),
  /* 27 */ D(RD_STANDARD_T, 1, {"df", "size"}, {REQ}),
  /* 28 */ D(RD_STANDARD_CAUCHY, 0, {"size"}, {0}),
  /* 29 */ D(RD_POWER, 1, {"a", "size"}, {REQ}),
  /* 30 */ D(RD_WALD, 2, {"mean", "scale", "size"}, {REQ, REQ}),
  /* 31 */ D(RD_NONCENTRAL_CHISQUARE, 2, {"df", "nonc", "size"}, {REQ, REQ}),
  /* 32 */ D(RD_NONCENTRAL_F, 3, {"dfnum", "dfden", "nonc", "size"}, {REQ, REQ, REQ}),
  /* 33 */ D(RD_ZIPF, 1, {"a", "size"}, {REQ}),
  /* 34 */ D(RD_LOGSERIES, 1, {"p", "size"}, {REQ}),
  /* 35 */ D(RD_NEGATIVE_BINOMIAL, 2, {"n", "p", "size"}, {REQ, REQ}),
  /* 36 */ D(RD_HYPERGEOMETRIC, 3, {"ngood", "nbad", "nsample", "size"}, {REQ, REQ, REQ}),
#undef D
};

static const Draw *draw_of(const Node *n) { return &draws[n->bi->ival]; }
static bool is_int_dist(int d) {
  return d == RD_POISSON || d == RD_BINOMIAL || d == RD_GEOMETRIC || d == RD_ZIPF || d == RD_LOGSERIES ||
         d == RD_NEGATIVE_BINOMIAL || d == RD_HYPERGEOMETRIC;
}
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

/* The draws of elem that size= asks for: one number when it is absent or
 * None, else an array of its shape (of 0 dimensions for size=(), as
 * NumPy's); NULL after an error. */
static const Type *sized(Infer *in, Node *size, const Type *elem) {
  if (ty_failed(in)) return NULL;
  if (is_none(size)) return elem;
  int ndim = np_shape_ndim(in, size);
  return ndim < 0 ? NULL : ty_array(elem, ndim, 'C', false);
}

/* The parameters and size of d's call n, from argument position first (a
 * method's receiver is position 0): the type of the draw. */
static const Type *typed_draw(Infer *in, Node *n, const Draw *d, int first, const Type *elem) {
  for (int i = 0; i < d->nparams; i++) {
    Node *x = np_arg(in, n, first + i, d->names[i]);
    if (ty_failed(in) || !check_param(in, n, x, d->names[i])) return NULL;
    if (!x && __builtin_isnan(d->dflt[i]))
      return ty_error(in, n, "%s() missing required argument '%s'", n->bi->name, d->names[i]);
  }
  return takes_size(d) ? sized(in, np_arg(in, n, first + d->nparams, "size"), elem) : elem;
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

/* Code written for Numba draws its gammas by Numba's sampler (RD_NUMBA). */
static int runtime_dist(Lower *l, int dist) { return l->opts->numba_code ? dist | RD_NUMBA : dist; }

static LLVMValueRef call_draw(Lower *l, int dist, LLVMValueRef params, LLVMValueRef out, LLVMValueRef count) {
  LLVMTypeRef p[4] = {l->mod->i32, l->mod->ptr, l->mod->ptr, l->mod->i64};
  LLVMValueRef a[4] = {const_i32(l, runtime_dist(l, dist)), params, out, count};
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

/* NumPy's check of a scale inline: its sign bit, so -0.0 is refused too,
 * and NaN let through. */
static void raise_if_negative_scale(Lower *l, LLVMValueRef scale) {
  LLVMValueRef bits = LLVMBuildBitCast(l->b, scale, l->mod->i64, "");
  LLVMValueRef neg = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntSLT, bits, const_i64(l, 0), ""),
                                  fcmp(l, LLVMRealORD, scale, scale), "");
  lo_raise_if(l, neg, RT_ERR_VALUE, "scale < 0");
}

/* One double, on the paths a loop takes once per element: no memory in
 * between, and normal's check of its scale inline. */
static LLVMValueRef fast_scalar(Lower *l, int dist, LLVMValueRef *v) {
  if (dist == RD_RANDOM || dist == RD_PY_RANDOM) {
    LLVMValueRef which = const_i32(l, dist == RD_PY_RANDOM);
    return lo_call_fn(l, "rt_random_double", l->mod->f64, &l->mod->i32, &which, 1);
  }
  raise_if_negative_scale(l, v[1]);
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

/* The seed's keyword: numpy.random.seed(seed=None), random.seed(a=None). */
static const char *const seed_names[] = {[SEED_NUMPY] = "seed", [SEED_PYTHON] = "a"};

static const Type *ty_seed(Infer *in, Node *n, const Type **args) {
  Node *s = np_arg(in, n, 0, seed_names[n->bi->ival]);
  if (ty_failed(in)) return NULL;
  if (!is_none(s) && !ty_is_int(s->ty))
    return ty_error(in, s, "%s(): the seed must be an int in compiled code, got %s", n->bi->name, s->ty->name);
  return TYS(TY_NONE);
}

static LLVMValueRef lo_seed(Lower *l, Node *n) {
  Node *s = np_arg_node(n, 0, seed_names[n->bi->ival]);
  bool fresh = is_none(s);
  LLVMTypeRef p[3] = {l->mod->i32, l->mod->i64, l->mod->i32};
  LLVMValueRef a[3] = {const_i32(l, (int)n->bi->ival), fresh ? const_i64(l, 0) : lo_expr_as(l, s, TYS(TY_I64)),
                       const_i32(l, fresh)};
  lo_check_status(l, lo_call_fn(l, "rt_random_seed", l->mod->i32, p, a, 3));
  return LLVMGetUndef(l->mod->i8);
}

/* ---------------------------------------------------------------- integers */

/* numpy.random.randint(low, high=None, size=None); random.randint(a, b),
 * random.randrange(start, stop=None, step=1): ints. */
static const char *const int_bound_names[][2] = {
  [RI_NUMPY] = {"low", "high"}, [RI_PY_RANDINT] = {"a", "b"}, [RI_PY_RANDRANGE] = {"start", "stop"}};

static const Type *ty_ints(Infer *in, Node *n, const Type **args) {
  int how = (int)n->bi->ival;
  const char *lo_name = int_bound_names[how][0], *hi_name = int_bound_names[how][1];
  Node *lo = np_arg(in, n, 0, lo_name), *hi = np_arg(in, n, 1, hi_name);
  if (ty_failed(in)) return NULL;
  if (!lo) return ty_error(in, n, "%s() missing required argument '%s'", n->bi->name, lo_name);
  if (how == RI_PY_RANDINT && is_none(hi)) return ty_error(in, n, "%s() missing required argument 'b'", n->bi->name);
  for (int i = 0; i < 2; i++) {
    Node *x = i ? hi : lo;
    if (!is_none(x) && !ty_is_int(x->ty))
      return ty_error(in, x, "%s(): %s must be an int, got %s", n->bi->name, i ? hi_name : lo_name, x->ty->name);
  }
  Node *step = how == RI_PY_RANDRANGE ? np_arg(in, n, 2, "step") : NULL;
  if (step && (!ty_is_int(step->ty) || is_none(hi)))
    return ty_error(in, step, is_none(hi) ? "%s(): a step needs a stop" : "%s(): step must be an int, got %s",
                    n->bi->name, step->ty->name);
  return how == RI_NUMPY ? sized(in, np_arg(in, n, 2, "size"), TYS(TY_I64)) : ty_failed(in) ? NULL : TYS(TY_I64);
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

/* Python's a // b of int64s (b not 0). */
static LLVMValueRef floor_div(Lower *l, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef zero = const_i64(l, 0), q = LLVMBuildSDiv(l->b, a, b, ""), m = LLVMBuildSRem(l->b, a, b, "");
  LLVMValueRef down = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntNE, m, zero, ""),
                                   LLVMBuildICmp(l->b, LLVMIntSLT, LLVMBuildXor(l->b, m, b, ""), zero, ""), "");
  return LLVMBuildSub(l->b, q, LLVMBuildZExt(l->b, down, l->mod->i64, ""), "");
}

/* random.randrange(start, stop, step): start + step * (a draw below the
 * count of the range's values), as CPython's, so that a seed gives its draws. */
static LLVMValueRef lo_randrange_step(Lower *l, Node *n, LLVMValueRef start, LLVMValueRef stop) {
  LLVMValueRef step = lo_expr_as(l, np_arg_node(n, 2, "step"), TYS(TY_I64)), zero = const_i64(l, 0);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntEQ, step, zero, ""), RT_ERR_VALUE, "zero step for randrange()");
  LLVMValueRef up = LLVMBuildICmp(l->b, LLVMIntSGT, step, zero, "");
  LLVMValueRef bias = LLVMBuildSelect(l->b, up, LLVMBuildSub(l->b, step, const_i64(l, 1), ""),
                                      LLVMBuildAdd(l->b, step, const_i64(l, 1), ""), "");
  LLVMValueRef count = floor_div(l, LLVMBuildAdd(l->b, LLVMBuildSub(l->b, stop, start, ""), bias, ""), step);
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLE, count, zero, ""), RT_ERR_VALUE, "empty range for randrange()");
  IntFill f = {RI_PY_RANDRANGE, zero, count};
  LLVMValueRef out = lo_alloca(l, l->mod->i64, "random.int");
  lo_check_status(l, fill_ints(l, out, const_i64(l, 1), &f));
  LLVMValueRef k = LLVMBuildLoad2(l->b, l->mod->i64, out, "");
  return LLVMBuildAdd(l->b, start, LLVMBuildMul(l->b, step, k, ""), "");
}

static LLVMValueRef lo_ints(Lower *l, Node *n) {
  int how = (int)n->bi->ival;
  Node *lo = np_arg_node(n, 0, int_bound_names[how][0]), *hi = np_arg_node(n, 1, int_bound_names[how][1]);
  IntFill f = {how, lo_expr_as(l, lo, TYS(TY_I64)), NULL};
  if (is_none(hi)) {  /* one bound: [0, low) */
    f.high = f.low;
    f.low = const_i64(l, 0);
  } else {
    f.high = lo_expr_as(l, hi, TYS(TY_I64));
    if (how == RI_PY_RANDRANGE && np_arg_node(n, 2, "step")) return lo_randrange_step(l, n, f.low, f.high);
  }
  if (n->ty->kind == TY_ARRAY) return filled_array(l, n, np_arg_node(n, 2, "size"), fill_ints, &f);
  LLVMValueRef out = lo_alloca(l, l->mod->i64, "random.int");
  lo_check_status(l, fill_ints(l, out, const_i64(l, 1), &f));
  return LLVMBuildLoad2(l->b, l->mod->i64, out, "");
}

/* random.getrandbits(k): a uint64, as Numba's, so that k may be 64; the
 * wider ints Python gives past that do not fit (an OverflowError, as
 * Numba's). */
static const Type *ty_getrandbits(Infer *in, Node *n, const Type **args) {
  if (!ty_is_int(args[0])) return ty_error(in, n->list.items[0], "random.getrandbits(): k must be an int, got %s", args[0]->name);
  return TYS(TY_U64);
}

static LLVMValueRef lo_getrandbits(Lower *l, Node *n) {
  LLVMValueRef k = lo_expr_as(l, n->list.items[0], TYS(TY_I64));
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSLT, k, const_i64(l, 0), ""), RT_ERR_VALUE,
              "number of bits must be non-negative");
  lo_raise_if(l, LLVMBuildICmp(l->b, LLVMIntSGT, k, const_i64(l, 64), ""), RT_ERR_OVERFLOW,
              "getrandbits() limited to 64 bits");
  return lo_call_fn(l, "rt_random_getrandbits", l->mod->i64, &l->mod->i64, &k, 1);
}

/* ---------------------------------------------------------------- shuffle, permutation */

/* numpy.random's shuffle and permutation and a Generator's: x is the
 * first argument, after a method's receiver; the Generator's draw from
 * its bit generator. */
static int first_arg(const Node *n) { return n->bi->kind == BK_METHOD; }

/* axis= of a Generator's shuffle and permutation (after x): an int. */
static bool check_axis(Infer *in, Node *n) {
  Node *axis = np_arg(in, n, 2, "axis");
  if (axis && !ty_is_int(axis->ty))
    return ty_error(in, axis, "%s(): axis must be an int, got %s", n->bi->name, axis->ty->name) != NULL;
  return !ty_failed(in);
}

static const Type *ty_shuffle(Infer *in, Node *n, const Type **args) {
  int i = first_arg(n);
  const Type *t = args[i];
  Node *x = n->list.items[i];
  if (t->kind != TY_ARRAY || t->ndim == 0)
    return ty_error(in, x, "%s(): x must be an array of at least one dimension, got %s", n->bi->name, t->name);
  if (!i && t->ndim > 1 && t->layout != 'C')
    return ty_error(in, x, "%s(): arrays of more than one dimension must be C-contiguous here", n->bi->name);
  if (t->readonly) return ty_error(in, x, "%s(): the array is read-only", n->bi->name);
  return i && !check_axis(in, n) ? NULL : TYS(TY_NONE);
}

/* numpy.random.shuffle: the array's rows shuffled in place (items of a
 * row's bytes, a stride apart) from numpy.random's state. */
static void shuffle_rows(Lower *l, const Type *t, LLVMValueRef a) {
  LLVMValueRef row = const_i64(l, ty_bits(t->elem) / 8);
  for (int d = 1; d < t->ndim; d++) row = LLVMBuildMul(l->b, row, lo_arr_shape(l, a, d), "");
  LLVMValueRef stride = t->ndim > 1 ? row : lo_arr_stride(l, t, a, 0);
  LLVMTypeRef p[4] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i64};
  LLVMValueRef args[4] = {LLVMBuildExtractValue(l->b, a, 2, ""), lo_arr_shape(l, a, 0), stride, row};
  lo_call_fn(l, "rt_random_shuffle", void_type(l), p, args, 4);
}

/* A Generator's shuffle of a's sub-arrays along axis= (0 if not given),
 * by its bit generator; drawn: even where a is empty (permutation's). */
static void shuffle_axis(Lower *l, Node *n, const Type *t, LLVMValueRef a, LLVMValueRef bitgen, bool drawn) {
  Node *axis = np_arg_node(n, 2, "axis");
  LLVMTypeRef p[8] = {l->mod->ptr, l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i32};
  LLVMValueRef args[8] = {bitgen, LLVMBuildExtractValue(l->b, a, 2, ""), const_i32(l, t->ndim),
                          lo_arr_dims_in_memory(l, t, a, false), lo_arr_dims_in_memory(l, t, a, true),
                          axis ? lo_expr_as(l, axis, TYS(TY_I64)) : const_i64(l, 0), const_i64(l, ty_bits(t->elem) / 8),
                          const_i32(l, drawn)};
  lo_check_status(l, lo_call_fn(l, "rt_generator_shuffle", l->mod->i32, p, args, 8));
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
  if (bitgen) shuffle_axis(l, n, x->ty, a, bitgen, false);
  else shuffle_rows(l, x->ty, a);
  lo_done_with(l, x, a);
  done_with_receiver(l, n, bitgen);
  return LLVMGetUndef(l->mod->i8);
}

/* permutation(n): arange(n) shuffled; of an array: a shuffled copy (a
 * Generator's along axis=, which an int ignores). */
static const Type *ty_permutation(Infer *in, Node *n, const Type **args) {
  const Type *t = args[first_arg(n)];
  if (first_arg(n) && !check_axis(in, n)) return NULL;
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
    lo_temp_made(l, n->ty, a);
    if (bitgen) shuffle_axis(l, n, n->ty, a, bitgen, true);
    else shuffle_rows(l, n->ty, a);
    lo_temp_taken(l, a);
  }
  done_with_receiver(l, n, bitgen);
  return a;
}

/* ---------------------------------------------------------------- choice */

/* choice(a, size=None, replace=True, p=None), and a Generator's with
 * axis=0 and shuffle=True after: arguments from after the receiver. */
static const Type *ty_choice(Infer *in, Node *n, const Type **args) {
  int f = first_arg(n);
  Node *a = np_arg(in, n, f, "a"), *size = np_arg(in, n, f + 1, "size"), *replace = np_arg(in, n, f + 2, "replace");
  Node *p = np_arg(in, n, f + 3, "p"), *axis = np_arg(in, n, f + 4, "axis"), *shuffle = np_arg(in, n, f + 5, "shuffle");
  if (ty_failed(in)) return NULL;
  if (!a) return ty_error(in, n, "%s() missing required argument 'a'", n->bi->name);
  const Type *t = a->ty;
  if (!ty_is_int(t) && (t->kind != TY_ARRAY || t->ndim != 1))
    return ty_error(in, a, "%s(): a must be an int or a 1-dimensional array, got %s", n->bi->name, t->name);
  Node *flags[2] = {replace, shuffle};
  for (int i = 0; i < 2; i++)
    if (flags[i] && flags[i]->ty->kind != TY_BOOL && !ty_is_int(flags[i]->ty))
      return ty_error(in, flags[i], "%s(): %s must be a bool, got %s", n->bi->name, i ? "shuffle" : "replace",
                      flags[i]->ty->name);
  if (axis && !ty_is_int(axis->ty))
    return ty_error(in, axis, "%s(): axis must be an int, got %s", n->bi->name, axis->ty->name);
  if (!is_none(p) && (p->ty->kind != TY_ARRAY || p->ty->ndim != 1 || !ty_is_float(p->ty->elem)))
    return ty_error(in, p, "%s(): p must be a 1-dimensional array of floats, got %s", n->bi->name, p->ty->name);
  return sized(in, size, ty_is_int(t) ? TYS(TY_I64) : t->elem);
}

typedef struct Choice {
  LLVMValueRef pop, p, np, atol, replace, shuffle;
  LLVMValueRef bitgen;  /* a Generator's, or NULL */
  Node *a;
  LLVMValueRef av;  /* the population's array, or NULL for an int */
} Choice;

/* The indices drawn into idx (int64, count of them). */
static LLVMValueRef choose_indices(Lower *l, Choice *c, LLVMValueRef idx, LLVMValueRef count) {
  LLVMTypeRef p[10] = {l->mod->ptr, l->mod->i64, l->mod->i32, l->mod->ptr, l->mod->i64,
                       l->mod->f64, l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->i64};
  LLVMValueRef args[10] = {c->bitgen ? c->bitgen : LLVMConstNull(l->mod->ptr), c->pop, const_i32(l, !c->av), c->p, c->np, c->atol, c->replace, c->shuffle, idx, count};
  if (c->bitgen) return lo_call_fn(l, "rt_generator_choice", l->mod->i32, p, args, 10);
  LLVMTypeRef lp[8] = {p[1], p[2], p[3], p[4], p[5], p[6], p[8], p[9]};
  LLVMValueRef la[8] = {args[1], args[2], args[3], args[4], args[5], args[6], args[8], args[9]};
  return lo_call_fn(l, "rt_random_choice", l->mod->i32, lp, la, 8);
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

/* A flag argument as an i32, dflt where not given. */
static LLVMValueRef flag_arg(Lower *l, Node *x, bool dflt) {
  return x ? LLVMBuildZExt(l->b, lo_truth(l, lo_expr(l, x), x->ty), l->mod->i32, "") : const_i32(l, dflt);
}

/* An array a's axis= can only be 0 (or -1): NumPy's a.shape[axis] fails past it. */
static void check_choice_axis(Lower *l, Node *axis) {
  LLVMValueRef v = lo_expr_as(l, axis, TYS(TY_I64));
  LLVMValueRef bad = LLVMBuildAnd(l->b, LLVMBuildICmp(l->b, LLVMIntNE, v, const_i64(l, 0), ""),
                                  LLVMBuildICmp(l->b, LLVMIntNE, v, const_i64(l, -1), ""), "");
  lo_raise_if(l, bad, RT_ERR_INDEX, "tuple index out of range");
}

static LLVMValueRef lo_choice(Lower *l, Node *n) {
  int f = first_arg(n);
  Node *a = np_arg_node(n, f, "a"), *p = np_arg_node(n, f + 3, "p"), *axis = np_arg_node(n, f + 4, "axis");
  Choice c = {.a = a, .np = const_i64(l, 0), .bitgen = receiver(l, n)};
  LLVMValueRef pv = NULL, pc = NULL;
  if (a->ty->kind == TY_ARRAY) {
    c.av = lo_expr(l, a);
    c.pop = lo_arr_shape(l, c.av, 0);
    if (axis) check_choice_axis(l, axis);
  } else {
    c.pop = lo_expr_as(l, a, TYS(TY_I64));
  }
  c.replace = flag_arg(l, np_arg_node(n, f + 2, "replace"), true);
  c.shuffle = flag_arg(l, np_arg_node(n, f + 5, "shuffle"), true);
  c.p = LLVMConstNull(l->mod->ptr);
  /* NumPy's tolerance of the weights' sum: sqrt(eps) of float64, or of float32 for float32 weights */
  c.atol = LLVMConstReal(l->mod->f64, !is_none(p) && p->ty->elem->kind == TY_F32 ? 0.0003452669770922512 : 1.4901161193847656e-08);
  if (!is_none(p)) {  /* the weights as contiguous float64 */
    const Type *pt = ty_array(TYS(TY_F64), 1, 'C', false);
    pv = lo_expr(l, p);
    pc = p->ty == pt ? pv : lo_copy_array(l, pt, p->ty, pv);
    if (pc != pv) lo_temp_made(l, pt, pc);
    c.p = LLVMBuildExtractValue(l->b, pc, 2, "");
    c.np = lo_arr_shape(l, pc, 0);
  }
  LLVMValueRef r;
  Node *size = np_arg_node(n, f + 1, "size");
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
  if (f) done_with_receiver(l, n, c.bitgen);
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

/* Where n's row takes the keyword name as a position (its keywords are
 * its arguments in order, after the receiver), or -1. */
static int keyword_pos(const Node *n, const char *name) {
  const char *const *kw = n->bi->keywords;
  for (int i = 0; kw && kw[i]; i++)
    if (!strcmp(kw[i], name)) return i + 1;
  return -1;
}

/* The argument name of a row that takes it, else NULL. */
static Node *row_arg(Node *n, const char *name) {
  int pos = keyword_pos(n, name);
  return pos < 0 ? NULL : np_arg_node(n, pos, name);
}

/* The same while typing: an error if it is given both ways. */
static Node *typed_row_arg(Infer *in, Node *n, const char *name) {
  int pos = keyword_pos(n, name);
  return pos < 0 ? NULL : np_arg(in, n, pos, name);
}

/* method= of standard_exponential (after dtype=): "zig" (its default) or "inv". */
static bool by_inversion(Node *n) {
  Node *m = row_arg(n, "method");
  return m && m->kind == N_STRING && !strcmp(m->str, "inv");
}

/* The element a draw makes: int64 for the discrete ones; the dtype= of
 * random and the standard ones (after size=, where their rows take it),
 * float64 or float32. */
static const Type *draw_dtype(Infer *in, Node *n, const Draw *d) {
  if (is_int_dist(d->dist)) return TYS(TY_I64);
  const Type *t = np_dtype_arg(in, n, d->nparams + 2, TYS(TY_F64));
  if (!t) return NULL;
  if (t->kind != TY_F64 && t->kind != TY_F32)
    return ty_error(in, n, "%s(): unsupported dtype %s (float64 or float32)", n->bi->name, t->name);
  Node *m = typed_row_arg(in, n, "method");
  if (m && (m->kind != N_STRING || (strcmp(m->str, "zig") && strcmp(m->str, "inv"))))
    return ty_error(in, m, "%s(): method must be 'zig' or 'inv', as a constant string", n->bi->name);
  return ty_failed(in) ? NULL : t;
}

/* out= of random and the standard draws: an array (its dtype and layout
 * checked when drawing, as NumPy's), which the call fills and returns. */
static const Type *typed_out(Infer *in, Node *n, const Type *drawn_type) {
  if (!drawn_type) return NULL;
  Node *out = typed_row_arg(in, n, "out");
  if (ty_failed(in)) return NULL;
  if (is_none(out)) return drawn_type;
  if (out->ty->kind != TY_ARRAY)
    return ty_error(in, out, "%s(): out must be an array, got %s", n->bi->name, out->ty->name);
  return out->ty;
}

/* A Generator's methods run on the CPU only. */
static bool refused_in_cuda(Infer *in, Node *n) {
  return ty_in_cuda(in) && ty_error(in, n, "%s() is not supported in CUDA kernels", n->bi->name) == NULL;
}

static const Type *ty_generator(Infer *in, Node *n, const Type **args) {
  if (refused_in_cuda(in, n)) return NULL;
  if (n->bi->ival != GEN_INTEGERS) {
    const Draw *d = draw_of(n);
    const Type *elem = draw_dtype(in, n, d);
    return elem ? typed_out(in, n, typed_draw(in, n, d, 1, elem)) : NULL;
  }
  const char *names[2] = {"low", "high"};
  for (int i = 0; i < 2; i++) {
    Node *x = np_arg(in, n, i + 1, names[i]);
    if (ty_failed(in)) return NULL;
    if (i == 0 && !x) return ty_error(in, n, "%s() missing required argument 'low'", n->bi->name);
    if (!is_none(x) && !ty_is_int(x->ty) && x->ty->kind != TY_BOOL)
      return ty_error(in, x, "%s(): %s must be an int, got %s", n->bi->name, names[i], x->ty->name);
  }
  Node *endpoint = np_arg(in, n, 5, "endpoint");
  if (endpoint && endpoint->ty->kind != TY_BOOL)
    return ty_error(in, endpoint, "%s(): endpoint must be a bool, got %s", n->bi->name, endpoint->ty->name);
  const Type *dtype = np_dtype_arg(in, n, 4, TYS(TY_I64));
  if (dtype && !ty_is_int(dtype) && dtype->kind != TY_BOOL)
    return ty_error(in, n, "%s(): unsupported dtype %s for integers", n->bi->name, dtype->name);
  return sized(in, np_arg(in, n, 3, "size"), dtype);
}

typedef struct GeneratorFill {
  int dist;  /* RD_, or GEN_INTEGERS */
  LLVMValueRef bitgen, params, low, high, endpoint;
  int unsigned_bounds; /* integers': bit 0 set when low is a uint64, bit 1 when high is */
  const Type *elem;  /* the dtype drawn (integers', or float32 for the standard draws) */
} GeneratorFill;

static LLVMValueRef fill_generator(Lower *l, LLVMValueRef data, LLVMValueRef count, void *arg) {
  GeneratorFill *f = arg;
  if (f->dist == GEN_INTEGERS) {
    int bits = f->elem->kind == TY_BOOL ? 1 : ty_bits(f->elem);
    LLVMTypeRef p[9] = {l->mod->ptr, l->mod->i64, l->mod->i64, l->mod->i32, l->mod->i32,
                        l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->i64};
    LLVMValueRef a[9] = {f->bitgen, f->low, f->high, const_i32(l, f->unsigned_bounds), f->endpoint,
                         const_i32(l, bits), const_i32(l, ty_is_signed(f->elem)), data, count};
    return lo_call_fn(l, "rt_generator_ints", l->mod->i32, p, a, 9);
  }
  LLVMTypeRef p[5] = {l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->ptr, l->mod->i64};
  LLVMValueRef a[5] = {f->bitgen, const_i32(l, f->dist), f->params, data, count};
  bool f32 = f->elem->kind == TY_F32;
  return lo_call_fn(l, f32 ? "rt_generator_draw_f32" : "rt_generator_draw", l->mod->i32, p, a, 5);
}

/* One normal, on the path a loop takes per element: the scale's check inline. */
static LLVMValueRef generator_normal(Lower *l, LLVMValueRef bitgen, LLVMValueRef *v) {
  raise_if_negative_scale(l, v[1]);
  LLVMTypeRef p[3] = {l->mod->ptr, l->mod->f64, l->mod->f64};
  LLVMValueRef a[3] = {bitgen, v[0], v[1]};
  return lo_call_fn(l, "rt_generator_normal", l->mod->f64, p, a, 3);
}

/* Whether a bound's type is uint64: its 64 bits are then a number past INT64_MAX where the top one is set. */
static bool is_u64_bound(const Type *t) { return ty_is_int(t) && !ty_is_signed(t) && ty_bits(t) == 64; }

/* integers' bounds: [0, low) from one, [low, high) or [low, high] from two. */
static void integer_bounds(Lower *l, Node *n, GeneratorFill *f) {
  Node *lo = np_arg_node(n, 1, "low"), *hi = np_arg_node(n, 2, "high"), *endpoint = np_arg_node(n, 5, "endpoint");
  f->low = lo_expr_as(l, lo, TYS(TY_I64));
  f->high = is_none(hi) ? f->low : lo_expr_as(l, hi, TYS(TY_I64));
  f->unsigned_bounds = is_none(hi) ? is_u64_bound(lo->ty) << 1 : is_u64_bound(lo->ty) | is_u64_bound(hi->ty) << 1;
  if (is_none(hi)) f->low = const_i64(l, 0);
  f->endpoint = endpoint ? LLVMBuildZExt(l->b, lo_expr_as(l, endpoint, TYS(TY_BOOL)), l->mod->i32, "") : const_i32(l, 0);
  f->params = LLVMConstNull(l->mod->ptr);
  f->elem = n->ty->kind == TY_ARRAY ? n->ty->elem : n->ty;
}

/* The dtype drawn, once typed: dtype='s, float64 where not given. */
static const Type *draw_dtype_of(Node *n, const Draw *d) {
  Node *t = np_arg_node(n, d->nparams + 2, "dtype");
  return t ? t->ty->elem : TYS(TY_F64);
}

/* Whether a's first ndim dimensions differ from shape's anywhere (an i1). */
static LLVMValueRef shape_differs(Lower *l, LLVMValueRef a, const LLVMValueRef *shape, int ndim) {
  LLVMValueRef bad = const_bool(l, false);
  for (int d = 0; d < ndim; d++)
    bad = LLVMBuildOr(l->b, bad, LLVMBuildICmp(l->b, LLVMIntNE, shape[d], lo_arr_shape(l, a, d), ""), "");
  return bad;
}

/* out= (its value a) as the call's result, a reference of the call's own. */
static LLVMValueRef out_returned(Lower *l, Node *out, LLVMValueRef a) {
  if (lo_is_fresh(out)) lo_temp_taken(l, a);
  else lo_refcount(l, out->ty, a, true);
  return a;
}

/* The draws into out= (NumPy's checks first: its layout, its dtype
 * against the one drawn, size= against its shape), out returned. */
static LLVMValueRef drawn_into_out(Lower *l, Node *n, GeneratorFill *f, Node *out, Node *size) {
  const Type *t = out->ty;
  LLVMValueRef a = lo_expr(l, out);
  LLVMTypeRef p[6] = {l->mod->i32, l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->i32, l->mod->i32};
  LLVMValueRef args[6] = {const_i32(l, t->ndim), lo_arr_dims_in_memory(l, t, a, false),
                          lo_arr_dims_in_memory(l, t, a, true), const_i64(l, ty_bits(t->elem) / 8),
                          const_i32(l, f->dist == RD_GAMMA), const_i32(l, t->readonly)};
  lo_check_status(l, lo_call_fn(l, "rt_generator_check_out", l->mod->i32, p, args, 6));
  if (t->elem != f->elem) {
    char msg[128];
    snprintf(msg, sizeof msg, "Supplied output array has the wrong type. Expected %s, got %s", f->elem->name,
             t->elem->name);
    lo_raise_if(l, const_bool(l, true), RT_ERR_TYPE, msg);
  } else {
    if (!is_none(size)) {
      LLVMValueRef shape[RC_MAX_NDIM];
      int ndim;
      size_shape(l, size, shape, &ndim);
      LLVMValueRef bad = ndim == t->ndim ? shape_differs(l, a, shape, ndim) : const_bool(l, true);
      lo_raise_if(l, bad, RT_ERR_VALUE, "size must match out.shape when used together");
    }
    LLVMValueRef count = const_i64(l, 1);
    for (int d = 0; d < t->ndim; d++) count = LLVMBuildMul(l->b, count, lo_arr_shape(l, a, d), "");
    lo_check_status(l, fill_generator(l, LLVMBuildExtractValue(l->b, a, 2, ""), count, f));
  }
  return out_returned(l, out, a);
}

static LLVMValueRef lo_generator(Lower *l, Node *n) {
  GeneratorFill f = {(int)n->bi->ival, lo_expr(l, n->list.items[0])};
  const Draw *d = f.dist == GEN_INTEGERS ? NULL : draw_of(n);
  int nparams = d ? d->nparams : 2;
  if (d) {
    LLVMValueRef v[MAX_PARAMS];
    for (int i = 0; i < MAX_PARAMS; i++) v[i] = param(l, n, d, 1, i);
    f.dist = by_inversion(n) ? RD_EXPONENTIAL_INV : d->dist;
    f.elem = n->ty->kind == TY_ARRAY ? n->ty->elem : n->ty;
    if (n->ty->kind != TY_ARRAY && f.dist == RD_NORMAL && f.elem->kind == TY_F64) {
      LLVMValueRef r = generator_normal(l, f.bitgen, v);
      lo_done_with(l, n->list.items[0], f.bitgen);
      return r;
    }
    f.params = params_in_memory(l, v);
    Node *out = row_arg(n, "out");
    if (!is_none(out)) {
      f.elem = draw_dtype_of(n, d);
      LLVMValueRef r = drawn_into_out(l, n, &f, out, np_arg_node(n, nparams + 1, "size"));
      lo_done_with(l, n->list.items[0], f.bitgen);
      return r;
    }
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

/* ---------------------------------------------------------------- multinomial, dirichlet, permuted */

/* An array of ndim dimensions of numbers (multinomial's pvals, dirichlet's
 * alpha, multivariate_normal's mean and cov), a tuple or list of them made
 * one (numpy.asarray of it, as NumPy reads them), else a TypingError. */
static bool check_numbers(Infer *in, Node *n, Node *x, const char *name, int ndim) {
  if (!x) return ty_error(in, n, "%s() missing required argument '%s'", n->bi->name, name) != NULL;
  const Type *t = ty_arraylike(in, x, x->ty);
  if (!t) return false;
  if (t->kind != TY_ARRAY || t->ndim != ndim || !(ty_is_float(t->elem) || ty_is_int(t->elem)))
    return ty_error(in, x, "%s(): %s must be a %d-dimensional array of numbers, got %s", n->bi->name, name, ndim,
                    t->name) != NULL;
  return true;
}

/* multinomial(n, pvals, size=None): rows of size=, else of n's shape, each
 * of len(pvals) counts; a Generator's n an int or an array of ints,
 * numpy.random's (RandomState's) an int. */
static const Type *ty_multinomial(Infer *in, Node *n, const Type **args) {
  if (refused_in_cuda(in, n)) return NULL;
  int first = first_arg(n);
  Node *count = np_arg(in, n, first, "n"), *pvals = np_arg(in, n, first + 1, "pvals");
  Node *size = np_arg(in, n, first + 2, "size");
  if (ty_failed(in)) return NULL;
  if (!count) return ty_error(in, n, "%s() missing required argument 'n'", n->bi->name);
  if (!first && !ty_is_int(count->ty))
    return ty_error(in, count, "%s(): n must be an int, got %s", n->bi->name, count->ty->name);
  if (!ty_is_int(elem_of(count->ty)) || (count->ty->kind != TY_ARRAY && !ty_is_scalar(count->ty)))
    return ty_error(in, count, "%s(): n must be an int or an array of ints, got %s", n->bi->name, count->ty->name);
  if (!check_numbers(in, n, pvals, "pvals", 1)) return NULL;
  int rows = is_none(size) ? ndim_of(count->ty) : np_shape_ndim(in, size);
  return rows < 0 || ty_failed(in) ? NULL : ty_array(TYS(TY_I64), rows + 1, 'C', false);
}

/* An array argument read by the runtime as a C-contiguous array of elem. */
typedef struct Operand {
  Node *x;
  const Type *t;                /* the contiguous array's type */
  LLVMValueRef v, c, copy;      /* x's value; the contiguous one: v itself, or copy (a temp) */
} Operand;

static Operand operand_of(Lower *l, Node *x, const Type *elem) {
  Operand o = {x, ty_array(elem, x->ty->ndim, 'C', false), lo_expr(l, x), NULL, NULL};
  if (x->ty != o.t) {
    o.copy = lo_copy_array(l, o.t, x->ty, o.v);
    lo_temp_made(l, o.t, o.copy);
  }
  o.c = o.copy ? o.copy : o.v;
  return o;
}

/* A draw into the new array a ended by the runtime's status st: a handed
 * on, the operands (nops of them, NULL ones skipped) and the receiver released. */
static LLVMValueRef drawn_vectors(Lower *l, Node *n, LLVMValueRef st, LLVMValueRef a, Operand *ops, int nops,
                                  LLVMValueRef bitgen) {
  lo_check_status(l, st);
  lo_temp_taken(l, a);
  for (int i = nops - 1; i >= 0; i--) {
    if (!ops[i].x) continue;
    if (ops[i].copy) lo_release_temp(l, ops[i].t, ops[i].copy);
    lo_done_with(l, ops[i].x, ops[i].v);
  }
  done_with_receiver(l, n, bitgen);
  return a;
}

/* The result's shape: size='s dimensions (or count's, an array's) then
 * len(vector); their number returned, and size='s product (the rows) in
 * *nrows where asked. */
static int rows_then_cells(Lower *l, Node *size, Node *count, LLVMValueRef cv, LLVMValueRef cells, LLVMValueRef *shape,
                           LLVMValueRef *nrows) {
  int k = 0;
  LLVMValueRef rows = is_none(size) ? const_i64(l, 1) : size_shape(l, size, shape, &k);
  if (is_none(size) && count && count->ty->kind == TY_ARRAY)
    for (; k < count->ty->ndim; k++) shape[k] = lo_arr_shape(l, cv, k);
  if (nrows) *nrows = rows;
  shape[k] = cells;
  return k;
}

static LLVMValueRef lo_multinomial(Lower *l, Node *n) {
  LLVMValueRef bitgen = receiver(l, n);
  Node *count = np_arg_node(n, 1, "n"), *pvals = np_arg_node(n, 2, "pvals"), *size = np_arg_node(n, 3, "size");
  Operand ops[2] = {operand_of(l, pvals, TYS(TY_F64))};
  LLVMValueRef pc = ops[0].c, counts, nshape, nv;
  bool vector = count->ty->kind == TY_ARRAY;
  if (vector) {
    ops[1] = operand_of(l, count, TYS(TY_I64));
    nv = ops[1].v;
    counts = LLVMBuildExtractValue(l->b, ops[1].c, 2, "");
    nshape = lo_arr_dims_in_memory(l, ops[1].t, ops[1].c, false);
  } else {
    nv = lo_expr(l, count);
    counts = lo_alloca(l, l->mod->i64, "multinomial.n");
    LLVMBuildStore(l->b, lo_convert(l, nv, count->ty, TYS(TY_I64)), counts);
    nshape = LLVMConstNull(l->mod->ptr);
  }
  LLVMValueRef shape[RC_MAX_NDIM + 1];
  int rows = rows_then_cells(l, size, count, nv, lo_arr_shape(l, pc, 0), shape, NULL);
  LLVMValueRef a = lo_alloc_array(l, n->ty, shape, -1);
  lo_temp_made(l, n->ty, a);
  LLVMTypeRef p[11] = {l->mod->ptr, l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->ptr, l->mod->i64,
                       l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[11] = {bitgen, counts, const_i32(l, vector ? count->ty->ndim : -1), nshape,
                           LLVMBuildExtractValue(l->b, pc, 2, ""), lo_arr_shape(l, pc, 0),
                           const_i32(l, ty_bits(pvals->ty->elem) < 64 && ty_is_float(pvals->ty->elem)),
                           const_i32(l, rows), lo_arr_dims_in_memory(l, n->ty, a, false), const_i32(l, !is_none(size)),
                           LLVMBuildExtractValue(l->b, a, 2, "")};
  return drawn_vectors(l, n, lo_call_fn(l, "rt_generator_multinomial", l->mod->i32, p, args, 11), a, ops, 2, bitgen);
}

/* numpy.random.multinomial: RandomState's draws (n an int) */
static LLVMValueRef lo_legacy_multinomial(Lower *l, Node *n) {
  Node *count = np_arg_node(n, 0, "n"), *pvals = np_arg_node(n, 1, "pvals"), *size = np_arg_node(n, 2, "size");
  LLVMValueRef nv = lo_expr_as(l, count, TYS(TY_I64));
  Operand ops[1] = {operand_of(l, pvals, TYS(TY_F64))};
  LLVMValueRef pc = ops[0].c, shape[RC_MAX_NDIM + 1], rows;
  rows_then_cells(l, size, NULL, NULL, lo_arr_shape(l, pc, 0), shape, &rows);
  LLVMValueRef a = lo_alloc_array(l, n->ty, shape, -1);
  lo_temp_made(l, n->ty, a);
  LLVMTypeRef p[6] = {l->mod->i64, l->mod->ptr, l->mod->i64, l->mod->i32, l->mod->ptr, l->mod->i64};
  LLVMValueRef args[6] = {nv, LLVMBuildExtractValue(l->b, pc, 2, ""), lo_arr_shape(l, pc, 0),
                          const_i32(l, ty_bits(pvals->ty->elem) < 64 && ty_is_float(pvals->ty->elem)),
                          LLVMBuildExtractValue(l->b, a, 2, ""), rows};
  return drawn_vectors(l, n, lo_call_fn(l, "rt_random_multinomial", l->mod->i32, p, args, 6), a, ops, 1, NULL);
}

/* dirichlet(alpha, size=None): rows of size=, each of len(alpha) floats;
 * a Generator's draws, or numpy.random's (RandomState's). */
static const Type *ty_dirichlet(Infer *in, Node *n, const Type **args) {
  if (refused_in_cuda(in, n)) return NULL;
  int first = first_arg(n);
  Node *alpha = np_arg(in, n, first, "alpha"), *size = np_arg(in, n, first + 1, "size");
  if (ty_failed(in) || !check_numbers(in, n, alpha, "alpha", 1)) return NULL;
  int rows = size_ndim(in, size);
  return rows < 0 || ty_failed(in) ? NULL : ty_array(TYS(TY_F64), rows + 1, 'C', false);
}

static LLVMValueRef lo_dirichlet(Lower *l, Node *n) {
  LLVMValueRef bitgen = receiver(l, n);
  int first = first_arg(n);
  Node *alpha = np_arg_node(n, first, "alpha"), *size = np_arg_node(n, first + 1, "size");
  Operand ops[1] = {operand_of(l, alpha, TYS(TY_F64))};
  LLVMValueRef ac = ops[0].c, shape[RC_MAX_NDIM + 1], k = lo_arr_shape(l, ac, 0);
  LLVMValueRef count;
  rows_then_cells(l, size, NULL, NULL, k, shape, &count);
  LLVMValueRef a = lo_alloc_array(l, n->ty, shape, -1);
  lo_temp_made(l, n->ty, a);
  LLVMTypeRef p[6] = {l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->ptr, l->mod->i64, l->mod->i32};
  LLVMValueRef args[6] = {bitgen, LLVMBuildExtractValue(l->b, ac, 2, ""), k, LLVMBuildExtractValue(l->b, a, 2, ""), count,
                          const_i32(l, l->opts->numba_code)};
  LLVMValueRef st = bitgen ? lo_call_fn(l, "rt_generator_dirichlet", l->mod->i32, p, args, 5)
                           : lo_call_fn(l, "rt_random_dirichlet", l->mod->i32, p + 1, args + 1, 5);
  return drawn_vectors(l, n, st, a, ops, 1, bitgen);
}

/* multivariate_normal(mean, cov, size=None, check_valid='warn', tol=1e-8,
 * *, method='svd'): rows of size=, each of len(mean) floats. The strings
 * are constants; one NumPy does not know is its ValueError when drawing. */
static const Type *ty_multivariate_normal(Infer *in, Node *n, const Type **args) {
  if (refused_in_cuda(in, n)) return NULL;
  Node *mean = np_arg(in, n, 1, "mean"), *cov = np_arg(in, n, 2, "cov"), *size = np_arg(in, n, 3, "size");
  Node *check = np_arg(in, n, 4, "check_valid"), *tol = np_arg(in, n, 5, "tol"), *method = np_arg(in, n, 6, "method");
  if (ty_failed(in) || !check_numbers(in, n, mean, "mean", 1) || !check_numbers(in, n, cov, "cov", 2)) return NULL;
  Node *strings[2] = {check, method};
  for (int i = 0; i < 2; i++)
    if (strings[i] && strings[i]->kind != N_STRING)
      return ty_error(in, strings[i], "%s(): %s must be a constant string", n->bi->name, i ? "method" : "check_valid");
  if (!check_param(in, n, tol, "tol")) return NULL;
  int rows = size_ndim(in, size);
  return rows < 0 || ty_failed(in) ? NULL : ty_array(TYS(TY_F64), rows + 1, 'C', false);
}

/* The index of a constant string among names (the default's where absent), or count if none. */
static int string_choice(Node *x, const char *const *names, int count, int dflt) {
  if (!x) return dflt;
  int i = 0;
  while (i < count && strcmp(x->str, names[i])) i++;
  return i;
}

static LLVMValueRef lo_multivariate_normal(Lower *l, Node *n) {
  static const char *const methods[] = {"svd", "eigh", "cholesky"}, *const checks[] = {"ignore", "warn", "raise"};
  LLVMValueRef bitgen = receiver(l, n);
  Node *mean = np_arg_node(n, 1, "mean"), *cov = np_arg_node(n, 2, "cov"), *size = np_arg_node(n, 3, "size");
  Node *tol = np_arg_node(n, 5, "tol");
  Operand ops[2] = {operand_of(l, mean, TYS(TY_F64)), operand_of(l, cov, TYS(TY_F64))};
  LLVMValueRef mc = ops[0].c, cc = ops[1].c;
  LLVMValueRef shape[RC_MAX_NDIM + 1], k = lo_arr_shape(l, mc, 0), count;
  rows_then_cells(l, size, NULL, NULL, k, shape, &count);
  LLVMValueRef a = lo_alloc_array(l, n->ty, shape, -1);
  lo_temp_made(l, n->ty, a);
  LLVMTypeRef p[11] = {l->mod->ptr, l->mod->ptr, l->mod->i64, l->mod->ptr, l->mod->i64, l->mod->i64,
                       l->mod->i32, l->mod->i32, l->mod->f64, l->mod->ptr, l->mod->i64};
  LLVMValueRef args[11] = {bitgen, LLVMBuildExtractValue(l->b, mc, 2, ""), k, LLVMBuildExtractValue(l->b, cc, 2, ""),
                           lo_arr_shape(l, cc, 0), lo_arr_shape(l, cc, 1),
                           const_i32(l, string_choice(np_arg_node(n, 6, "method"), methods, 3, MV_SVD)),
                           const_i32(l, string_choice(np_arg_node(n, 4, "check_valid"), checks, 3, CV_WARN)),
                           tol ? lo_expr_as(l, tol, TYS(TY_F64)) : LLVMConstReal(l->mod->f64, 1e-8),
                           LLVMBuildExtractValue(l->b, a, 2, ""), count};
  LLVMValueRef st = lo_call_fn(l, "rt_generator_multivariate_normal", l->mod->i32, p, args, 11);
  return drawn_vectors(l, n, st, a, ops, 2, bitgen);
}

/* permuted(x, *, axis=None, out=None): a shuffled copy of x (C-ordered),
 * or x's elements shuffled into out (of x's shape, a dtype x casts to
 * safely), which it returns. */
static const Type *ty_permuted(Infer *in, Node *n, const Type **args) {
  if (refused_in_cuda(in, n)) return NULL;
  Node *x = n->list.items[1], *axis = np_arg(in, n, 2, "axis"), *out = np_arg(in, n, 3, "out");
  if (ty_failed(in)) return NULL;
  const Type *t = x->ty;
  if (t->kind != TY_ARRAY)
    return ty_error(in, x, "%s(): x must be an array, got %s", n->bi->name, t->name);
  if (!is_none(axis) && !ty_is_int(axis->ty))
    return ty_error(in, axis, "%s(): axis must be an int or None, got %s", n->bi->name, axis->ty->name);
  if (is_none(out)) return ty_array(t->elem, t->ndim, 'C', false);
  const Type *o = out->ty;
  if (o->kind != TY_ARRAY) return ty_error(in, out, "%s(): out must be a numpy array, got %s", n->bi->name, o->name);
  if (o->readonly) return ty_error(in, out, "%s(): out is read-only", n->bi->name);
  if (o->ndim != t->ndim) return ty_error(in, out, "%s(): out must have the same shape as x", n->bi->name);
  if (np_promote(t->elem, o->elem) != o->elem)
    return ty_error(in, out, "%s(): cannot cast x's %s to out's %s safely", n->bi->name, t->elem->name, o->elem->name);
  return o;
}

static LLVMValueRef lo_permuted(Lower *l, Node *n) {
  LLVMValueRef bitgen = receiver(l, n);
  Node *x = n->list.items[1], *axis = np_arg_node(n, 2, "axis"), *out = np_arg_node(n, 3, "out");
  LLVMValueRef xv = lo_expr(l, x), a;
  const Type *t = n->ty;
  if (is_none(out)) {
    a = lo_copy_array(l, t, x->ty, xv);
    lo_temp_made(l, t, a);
  } else {
    a = lo_expr(l, out);
    LLVMValueRef x_shape[RC_MAX_NDIM];
    for (int d = 0; d < t->ndim; d++) x_shape[d] = lo_arr_shape(l, xv, d);
    lo_raise_if(l, shape_differs(l, a, x_shape, t->ndim), RT_ERR_VALUE, "out must have the same shape as x");
    lo_copy_elements(l, t, a, x->ty, xv);
  }
  bool as_copy = is_none(out);
  LLVMTypeRef p[10] = {l->mod->ptr, l->mod->ptr, l->mod->i32, l->mod->ptr, l->mod->ptr,
                       l->mod->i64, l->mod->i32, l->mod->i64, l->mod->ptr, l->mod->i32};
  LLVMValueRef args[10] = {bitgen, LLVMBuildExtractValue(l->b, a, 2, ""), const_i32(l, t->ndim),
                           lo_arr_dims_in_memory(l, t, a, false), lo_arr_dims_in_memory(l, t, a, true),
                           const_i64(l, ty_bits(t->elem) / 8), const_i32(l, !is_none(axis)),
                           is_none(axis) ? const_i64(l, 0) : lo_expr_as(l, axis, TYS(TY_I64)),
                           as_copy ? lo_arr_dims_in_memory(l, x->ty, xv, true) : lo_arr_dims_in_memory(l, t, a, true),
                           const_i32(l, as_copy)};
  lo_check_status(l, lo_call_fn(l, "rt_generator_permuted", l->mod->i32, p, args, 10));
  if (as_copy) lo_temp_taken(l, a);
  else out_returned(l, out, a);
  lo_done_with(l, x, xv);
  done_with_receiver(l, n, bitgen);
  return a;
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

/* ---------------------------------------------------------------- a Generator's bit generator */

/* g.bit_generator: the Generator's bitgen_t, which compiled code hands
 * to Numba's generator_core functions (next_double(g.bit_generator)) or
 * to other compiled functions; the same pointer as g's (and, where the
 * expression made g, its reference: see lo_is_fresh). */
static const Type *ty_bit_generator(Infer *in, Node *n, const Type **args) {
  return refused_in_cuda(in, n) ? NULL : TYS(TY_BITGEN);
}

static LLVMValueRef lo_bit_generator(Lower *l, Node *n) { return lo_expr(l, n->lhs); }

/* numba.np.random.generator_core's next_uint64, next_uint32, next_double
 * (the bit generator's own functions, through bitgen_t's pointers, so the
 * stream and state are NumPy's) and next_float (float32 of the top 24
 * bits of a 32-bit word, as Numba's). ival: the bitgen_t field called. */
enum { NEXT_UINT64 = 1, NEXT_UINT32 = 2, NEXT_DOUBLE = 3, NEXT_FLOAT = 4 };

static const Type *ty_next_word(Infer *in, Node *n, const Type **args) {
  if (refused_in_cuda(in, n)) return NULL;
  if (args[0]->kind != TY_BITGEN)
    return ty_error(in, n->list.items[0], "%s() takes a Generator's bit_generator, got %s", n->bi->name, args[0]->name);
  int k = (int)n->bi->ival;
  return TYS(k == NEXT_UINT64 ? TY_U64 : k == NEXT_UINT32 ? TY_U32 : k == NEXT_DOUBLE ? TY_F64 : TY_F32);
}

/* bitgen_t's field `field` (a function of the state) called on its state. */
static LLVMValueRef call_bitgen_field(Lower *l, LLVMValueRef bitgen, int field, LLVMTypeRef ret) {
  LLVMValueRef state = LLVMBuildLoad2(l->b, l->mod->ptr, bitgen, "bitgen.state");
  LLVMValueRef at = LLVMBuildGEP2(l->b, l->mod->ptr, bitgen, (LLVMValueRef[]){const_i64(l, field)}, 1, "");
  LLVMValueRef fn = LLVMBuildLoad2(l->b, l->mod->ptr, at, "bitgen.next");
  return LLVMBuildCall2(l->b, LLVMFunctionType(ret, &l->mod->ptr, 1, 0), fn, &state, 1, "");
}

static LLVMValueRef lo_next_word(Lower *l, Node *n) {
  Node *g = n->list.items[0];
  int field = n->bi->ival == NEXT_FLOAT ? NEXT_UINT32 : (int)n->bi->ival;  /* next_float: of a 32-bit word */
  LLVMTypeRef word = field == NEXT_UINT64 ? l->mod->i64 : field == NEXT_DOUBLE ? LLVMDoubleTypeInContext(l->mod->c) : l->mod->i32;
  LLVMValueRef bitgen = lo_expr(l, g), r = call_bitgen_field(l, bitgen, field, word);
  if (n->bi->ival == NEXT_FLOAT) {
    LLVMValueRef top = LLVMBuildUIToFP(l->b, LLVMBuildLShr(l->b, r, const_i32(l, 8), ""),
                                       LLVMFloatTypeInContext(l->mod->c), "");
    r = LLVMBuildFMul(l->b, top, LLVMConstReal(LLVMFloatTypeInContext(l->mod->c), 1.0 / 16777216.0), "");
  }
  lo_done_with(l, g, bitgen);
  return r;
}

/* ---------------------------------------------------------------- the rows */

static const char *const no_kw[] = {NULL};
static const char *const ints_kw[] = {"low", "high", "size", NULL};
static const char *const py_randint_kw[] = {"a", "b", NULL};
static const char *const py_randrange_kw[] = {"start", "stop", "step", NULL};
static const char *const choice_kw[] = {"a", "size", "replace", "p", NULL};
static const char *const seed_kw[] = {"seed", NULL};
static const char *const py_seed_kw[] = {"a", NULL};
static const char *const gen_random_kw[] = {"size", "dtype", "out", NULL};
static const char *const gen_standard_exponential_kw[] = {"size", "dtype", "method", "out", NULL};
static const char *const gen_choice_kw[] = {"a", "size", "replace", "p", "axis", "shuffle", NULL};
static const char *const gen_shuffle_kw[] = {"axis", NULL};
static const char *const gen_uniform_kw[] = {"low", "high", "size", NULL};
static const char *const gen_integers_kw[] = {"low", "high", "size", "dtype", "endpoint", NULL};
static const char *const gen_normal_kw[] = {"loc", "scale", "size", NULL};
static const char *const gen_exponential_kw[] = {"scale", "size", NULL};
static const char *const gen_gamma_kw[] = {"shape", "scale", "size", NULL};
static const char *const gen_standard_gamma_kw[] = {"shape", "size", "dtype", "out", NULL};
static const char *const gen_poisson_kw[] = {"lam", "size", NULL};
static const char *const gen_binomial_kw[] = {"n", "p", "size", NULL};
static const char *const gen_multinomial_kw[] = {"n", "pvals", "size", NULL};
static const char *const gen_dirichlet_kw[] = {"alpha", "size", NULL};
static const char *const gen_permuted_kw[] = {"axis", "out", NULL};
static const char *const gen_multivariate_normal_kw[] = {"mean", "cov", "size", "check_valid", "tol", "method", NULL};

#define FLAGS (BF_ALLOCATES | BF_RAISES | BF_NONE | BF_STATE)
#define NP_DRAW(name, spec, most)                                                                     \
  {"numpy.random." name, "numpy.random", name, BK_FUNCTION, 0, 0, most, draws[spec].names, FLAGS, spec, 0, \
   ty_draw, lo_draw}
#define PY_DRAW(name, spec, least, most)                                                             \
  {"random." name, "random", name, BK_FUNCTION, 0, least, most, draws[spec].names, FLAGS, spec, 0, ty_draw, \
   lo_draw}
#define GENERATOR_FLAGS (BF_RAISES | BF_NONE | BF_STATE)
#define GEN_ROW(name, least, most, kw, ival) \
  {"Generator." name, NULL, name, BK_METHOD, TY_GENERATOR, least, most, kw, GENERATOR_FLAGS, ival, 0, ty_generator, lo_generator}
#define ROW(module, name, least, most, kw, ival, type, lower) \
  {module "." name, module, name, BK_FUNCTION, 0, least, most, kw, FLAGS, ival, 0, type, lower}

/* (Numba's own functions, where Numba is imported, and ruchey's, which
 * its numba shim gives for numba.np.random.generator_core) */
#define ROW_NEXT(module, name, ival) \
  {module "." name, module, name, BK_FUNCTION, 0, 1, 1, no_kw, BF_STATE, ival, 0, ty_next_word, lo_next_word}

const Builtin bi_random[] = {
  ROW("numpy.random", "seed", 0, 1, seed_kw, SEED_NUMPY, ty_seed, lo_seed),
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
  NP_DRAW("f", 26, 3),
  NP_DRAW("standard_t", 27, 2),
  NP_DRAW("standard_cauchy", 28, 1),
  NP_DRAW("power", 29, 2),
  NP_DRAW("wald", 30, 3),
  NP_DRAW("noncentral_chisquare", 31, 3),
  NP_DRAW("noncentral_f", 32, 4),
  NP_DRAW("zipf", 33, 2),
  NP_DRAW("logseries", 34, 2),
  NP_DRAW("negative_binomial", 35, 3),
  NP_DRAW("hypergeometric", 36, 4),
  ROW("numpy.random", "rand", 0, RC_MAX_NDIM, no_kw, RD_RANDOM, ty_rand_dims, lo_rand_dims),
  ROW("numpy.random", "randn", 0, RC_MAX_NDIM, no_kw, RD_NORMAL, ty_rand_dims, lo_rand_dims),
  ROW("numpy.random", "randint", 0, 3, ints_kw, RI_NUMPY, ty_ints, lo_ints),
  ROW("numpy.random", "choice", 0, 4, choice_kw, 0, ty_choice, lo_choice),
  ROW("numpy.random", "shuffle", 1, 1, no_kw, 0, ty_shuffle, lo_shuffle),
  ROW("numpy.random", "permutation", 1, 1, no_kw, 0, ty_permutation, lo_permutation),
  ROW("numpy.random", "default_rng", 0, 1, seed_kw, 0, ty_default_rng, lo_default_rng),
  ROW("numpy.random", "multinomial", 0, 3, gen_multinomial_kw, 0, ty_multinomial, lo_legacy_multinomial),
  ROW("numpy.random", "dirichlet", 0, 2, gen_dirichlet_kw, 0, ty_dirichlet, lo_dirichlet),
  ROW("random", "seed", 0, 1, py_seed_kw, SEED_PYTHON, ty_seed, lo_seed),
  PY_DRAW("random", 22, 0, 0),
  PY_DRAW("uniform", 23, 0, 2),
  PY_DRAW("gauss", 24, 0, 2),
  PY_DRAW("normalvariate", 24, 0, 2),
  PY_DRAW("expovariate", 25, 0, 1),
  ROW("random", "randint", 0, 2, py_randint_kw, RI_PY_RANDINT, ty_ints, lo_ints),
  ROW("random", "randrange", 0, 3, py_randrange_kw, RI_PY_RANDRANGE, ty_ints, lo_ints),
  ROW("random", "getrandbits", 1, 1, no_kw, 0, ty_getrandbits, lo_getrandbits),
  GEN_ROW("random", 0, 3, gen_random_kw, 0),
  GEN_ROW("uniform", 0, 3, gen_uniform_kw, 1),
  GEN_ROW("normal", 0, 3, gen_normal_kw, 2),
  GEN_ROW("standard_normal", 0, 3, gen_random_kw, 3),
  GEN_ROW("exponential", 0, 2, gen_exponential_kw, 4),
  {"Generator.standard_exponential", NULL, "standard_exponential", BK_METHOD, TY_GENERATOR, 0, 4,
   gen_standard_exponential_kw, GENERATOR_FLAGS | BF_STRINGS, 5, 0, ty_generator, lo_generator},  /* method="inv" */
  GEN_ROW("gamma", 0, 3, gen_gamma_kw, 6),
  GEN_ROW("standard_gamma", 0, 4, gen_standard_gamma_kw, 7),
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
  {"Generator.shuffle", NULL, "shuffle", BK_METHOD, TY_GENERATOR, 1, 2, gen_shuffle_kw, GENERATOR_FLAGS, 0, 0, ty_shuffle,
   lo_shuffle},
  {"Generator.permutation", NULL, "permutation", BK_METHOD, TY_GENERATOR, 1, 2, gen_shuffle_kw, GENERATOR_FLAGS, 0, 0,
   ty_permutation, lo_permutation},
  GEN_ROW("beta", 0, 3, draws[8].names, 8),
  GEN_ROW("vonmises", 0, 3, draws[18].names, 18),
  GEN_ROW("f", 0, 3, draws[26].names, 26),
  GEN_ROW("standard_t", 0, 2, draws[27].names, 27),
  GEN_ROW("standard_cauchy", 0, 1, draws[28].names, 28),
  GEN_ROW("power", 0, 2, draws[29].names, 29),
  GEN_ROW("wald", 0, 3, draws[30].names, 30),
  GEN_ROW("noncentral_chisquare", 0, 3, draws[31].names, 31),
  GEN_ROW("noncentral_f", 0, 4, draws[32].names, 32),
  GEN_ROW("zipf", 0, 2, draws[33].names, 33),
  GEN_ROW("logseries", 0, 2, draws[34].names, 34),
  GEN_ROW("negative_binomial", 0, 3, draws[35].names, 35),
  {"Generator.choice", NULL, "choice", BK_METHOD, TY_GENERATOR, 0, 6, gen_choice_kw, GENERATOR_FLAGS, 0, 0, ty_choice,
   lo_choice},
  GEN_ROW("hypergeometric", 0, 4, draws[36].names, 36),
  {"Generator.multinomial", NULL, "multinomial", BK_METHOD, TY_GENERATOR, 0, 3, gen_multinomial_kw, GENERATOR_FLAGS, 0,
   0, ty_multinomial, lo_multinomial},
  {"Generator.dirichlet", NULL, "dirichlet", BK_METHOD, TY_GENERATOR, 0, 2, gen_dirichlet_kw, GENERATOR_FLAGS, 0, 0,
   ty_dirichlet, lo_dirichlet},
  {"Generator.multivariate_normal", NULL, "multivariate_normal", BK_METHOD, TY_GENERATOR, 0, 5,
   gen_multivariate_normal_kw, GENERATOR_FLAGS | BF_STRINGS | BF_BLAS, 0, 0, ty_multivariate_normal,
   lo_multivariate_normal},
  {"Generator.permuted", NULL, "permuted", BK_METHOD, TY_GENERATOR, 1, 1, gen_permuted_kw, GENERATOR_FLAGS | BF_COMPLEX,
   0, 0, ty_permuted, lo_permuted},
  {"Generator.bit_generator", NULL, "bit_generator", BK_ATTRIBUTE, TY_GENERATOR, 0, 0, NULL, BF_CHEAP, 0, 0,
   ty_bit_generator, lo_bit_generator},
  ROW_NEXT("numba.np.random.generator_core", "next_uint64", NEXT_UINT64),
  ROW_NEXT("numba.np.random.generator_core", "next_uint32", NEXT_UINT32),
  ROW_NEXT("numba.np.random.generator_core", "next_double", NEXT_DOUBLE),
  ROW_NEXT("numba.np.random.generator_core", "next_float", NEXT_FLOAT),
  ROW_NEXT("ruchey.np_extensions", "next_uint64", NEXT_UINT64),
  ROW_NEXT("ruchey.np_extensions", "next_uint32", NEXT_UINT32),
  ROW_NEXT("ruchey.np_extensions", "next_double", NEXT_DOUBLE),
  ROW_NEXT("ruchey.np_extensions", "next_float", NEXT_FLOAT),
  BI_END,
};
