/* builtins/fft.c — numpy.fft: the transforms (fft, ifft, rfft, irfft, hfft,
 * ihfft and their 2-d and n-d kin), fftshift, ifftshift, fftfreq and
 * rfftfreq; and scipy.fft's transforms of the same names and its
 * next_fast_len. Their work is
 * done at run time (fft_rt.c, around lib/pocketfft.c); here the arguments
 * are checked and handed on.
 *
 * The dtypes are the installed NumPy's: NumPy 2 keeps float32 and complex64
 * in single precision, other inputs (ints, bools, float64) give complex128
 * or float64; NumPy 1 gives complex128 or float64 always, and SciPy the
 * dtypes of NumPy 2 with either. (float16 arrays
 * are refused, as float16.c refuses them to the rows outside its list.) The axes and lengths are read at run time, as NumPy's
 * _cook_nd_args reads them; norm= is a constant string or None.
 */
#include <stdio.h>
#include <string.h>

#include "builtins/builtins.h"

/* A row's ival: the transform (FFT_FFT ...), the arguments it takes, and
 * whether it is scipy.fft's (SciPy's rules and messages). */
enum { ONE_AXIS = 0, TWO_AXES = 16, N_AXES = 32, SCIPY = 64 };
#define FFT_OP(ival) ((ival) & 15)
#define FFT_AXES(ival) ((ival) & 48)

/* ---------------------------------------------------------------- dtypes */

static bool real_input(int op) { return op == FFT_RFFT || op == FFT_IHFFT; }
static bool real_output(int op) { return op == FFT_IRFFT || op == FFT_HFFT; }

/* single precision: NumPy 2's and SciPy's for float32 and complex64 inputs */
static bool single(int ival, const Type *e) {
  return ((ival & SCIPY) || rt_numpy_version >= 200) && (e->kind == TY_F32 || e->kind == TY_C64);
}

/* the elements the input is converted to for rt_fft: complex, or real for rfft and ihfft */
static const Type *input_dtype(int ival, const Type *e) {
  if (real_input(FFT_OP(ival))) return TYS(single(ival, e) ? TY_F32 : TY_F64);
  return TYS(single(ival, e) ? TY_C64 : TY_C128);
}

static const Type *output_dtype(int ival, const Type *e) {
  if (real_output(FFT_OP(ival))) return TYS(single(ival, e) ? TY_F32 : TY_F64);
  return TYS(single(ival, e) ? TY_C64 : TY_C128);
}

/* ---------------------------------------------------------------- arguments */

static bool numbers(const Type *e) { return (ty_is_scalar(e) && !ty_is_time(e)) || ty_is_complex(e); }

/* a made an array of numbers (a list through numpy.asarray); false after an error */
static bool input_array(Infer *in, Node *n, Node *a) {
  if (a->ty->kind == TY_LIST && !ty_wrap_call(in, a, "numpy.asarray")) return false;
  const Type *t = a->ty;
  if (t->kind != TY_ARRAY || !numbers(t->elem))
    return ty_error(in, a, "%s() needs an array of numbers, got %s", n->bi->name, t->name) != NULL;
  if (t->ndim == 0) return ty_error(in, a, "%s() needs an array of 1 dimension or more, got %s", n->bi->name, t->name) != NULL;
  return true;
}

static bool int_tuple(const Type *t) {
  if (t->kind != TY_TUPLE) return false;
  for (int i = 0; i < t->nfields; i++)
    if (!ty_is_int(t->fields[i])) return false;
  return true;
}

/* an optional int (n=, axis=) or tuple of ints (s=, axes=) */
static bool check_int(Infer *in, Node *n, Node *x, const char *what) {
  if (!x || ty_is_int(x->ty)) return true;
  return ty_error(in, x, "%s(): %s must be an integer, got %s", n->bi->name, what, x->ty->name) != NULL;
}

#define MAX_AXES (RC_MAX_NDIM * 2)

static bool check_ints(Infer *in, Node *n, Node *x, const char *what) {
  if (!x || (int_tuple(x->ty) && x->ty->nfields <= MAX_AXES)) return true;
  if (int_tuple(x->ty)) return ty_error(in, x, "%s(): %s has more than %d items", n->bi->name, what, MAX_AXES) != NULL;
  return ty_error(in, x, "%s(): %s must be a tuple of integers, got %s", n->bi->name, what, x->ty->name) != NULL;
}

static bool check_norm(Infer *in, Node *n, Node *x) {
  if (!x || x->kind == N_STRING) return true;
  return ty_error(in, x, "%s(): norm must be a constant string (\"backward\", \"ortho\" or \"forward\") or None, got %s",
                  n->bi->name, x->ty->name) != NULL;
}

/* ---------------------------------------------------------------- the transforms */

static const char *const one_axis_kw[] = {"n", "axis", "norm", NULL};
static const char *const n_axes_kw[] = {"s", "axes", "norm", NULL};
static const char *const scipy_one_axis_kw[] = {"n", "axis", "norm", "overwrite_x", "workers", "plan", NULL};
static const char *const scipy_n_axes_kw[] = {"s", "axes", "norm", "overwrite_x", "workers", "plan", NULL};

/* scipy.fft's overwrite_x (a bool: a copy is always made), workers (one
 * thread: a prange around the call runs them in parallel) and plan (None) */
static bool check_scipy(Infer *in, Node *n) {
  Node *overwrite = bi_arg_given(n, 4, "overwrite_x"), *workers = bi_arg_given(n, 5, "workers");
  Node *plan = bi_arg_given(n, 6, "plan");
  if (overwrite && overwrite->ty->kind != TY_BOOL)
    return ty_error(in, overwrite, "%s(): overwrite_x must be a bool, got %s", n->bi->name, overwrite->ty->name) != NULL;
  if (!check_int(in, n, workers, "workers")) return false;
  if (plan) return ty_error(in, plan, "%s(): plan is not supported in compiled code (pass None)", n->bi->name) != NULL;
  return true;
}

static const Type *ty_fft(Infer *in, Node *n, const Type **args) {
  int op = FFT_OP(n->bi->ival);
  bool one = FFT_AXES(n->bi->ival) == ONE_AXIS;
  Node *a = n->list.items[0];
  if (!input_array(in, n, a)) return NULL;
  const Type *e = a->ty->elem;
  if (real_input(op) && ty_is_complex(e))
    return ty_error(in, a, "%s() takes real input, got %s (NumPy 2 has no complex loop for it, SciPy's: x must be a real "
                    "sequence)", n->bi->name, a->ty->name);
  if ((n->bi->ival & SCIPY) && !check_scipy(in, n)) return NULL;
  Node *len = bi_arg_given(n, 1, one ? "n" : "s"), *axis = bi_arg_given(n, 2, one ? "axis" : "axes");
  if (one ? !check_int(in, n, len, "n") || !check_int(in, n, axis, "axis")
          : !check_ints(in, n, len, "s") || !check_ints(in, n, axis, "axes"))
    return NULL;
  if (!check_norm(in, n, bi_arg_given(n, 3, "norm"))) return NULL;
  return ty_array(output_dtype(n->bi->ival, e), a->ty->ndim, 'C', false);
}

/* norm= as FFT_BACKWARD ...; -1 (NumPy's ValueError raised) for another string */
static int norm_of(Lower *l, Node *n) {
  Node *x = bi_arg_given(n, 3, "norm");
  if (!x || !strcmp(x->str, "backward")) return FFT_BACKWARD;
  if (!strcmp(x->str, "ortho")) return FFT_ORTHO;
  if (!strcmp(x->str, "forward")) return FFT_FORWARD;
  char msg[160];  /* NumPy's words (before 2.5 without the space after "backward",); SciPy's */
  if (n->bi->ival & SCIPY)
    snprintf(msg, sizeof msg, "Invalid norm value '%.60s', should be \"backward\", \"ortho\" or \"forward\"", x->str);
  else
    snprintf(msg, sizeof msg, "Invalid norm value %.60s; should be \"backward\",%s\"ortho\" or \"forward\".", x->str,
             rt_numpy_version >= 205 ? " " : "");
  lo_raise_if(l, LLVMConstInt(l->mod->i1, 1, 0), RT_ERR_VALUE, msg);
  return FFT_BACKWARD;
}

/* the items of the tuple x as int64s into out; how many */
static int tuple_items(Lower *l, Node *x, LLVMValueRef *out) {
  LLVMValueRef v = lo_expr(l, x);
  for (int i = 0; i < x->ty->nfields; i++)
    out[i] = lo_convert(l, LLVMBuildExtractValue(l->b, v, (unsigned)i, ""), x->ty->fields[i], TYS(TY_I64));
  return x->ty->nfields;
}

/* values (count of them, at least one slot) in a new i64 array on the stack */
static LLVMValueRef i64_array(Lower *l, const LLVMValueRef *values, int count, const char *name) {
  LLVMTypeRef t = LLVMArrayType(l->mod->i64, count > 0 ? (unsigned)count : 1);
  LLVMValueRef p = lo_alloca(l, t, name);
  for (int i = 0; i < count; i++)
    LLVMBuildStore(l->b, values[i], LLVMBuildGEP2(l->b, t, p, (LLVMValueRef[]){const_i32(l, 0), const_i32(l, i)}, 2, ""));
  return p;
}

static LLVMValueRef lo_fft(Lower *l, Node *n) {
  int op = FFT_OP(n->bi->ival), shape = FFT_AXES(n->bi->ival);
  bool scipy = n->bi->ival & SCIPY;
  Node *a = n->list.items[0], *len = bi_arg_given(n, 1, shape == ONE_AXIS ? "n" : "s");
  Node *axis = bi_arg_given(n, 2, shape == ONE_AXIS ? "axis" : "axes");
  int ndim = a->ty->ndim, norm = norm_of(l, n), naxes, nlens;
  LLVMValueRef axes[MAX_AXES], lens[MAX_AXES];
  if (shape == ONE_AXIS) {
    axes[0] = axis ? lo_expr_as(l, axis, TYS(TY_I64)) : const_i64(l, -1);
    lens[0] = len ? lo_expr_as(l, len, TYS(TY_I64)) : const_i64(l, FFT_DEFAULT_N);
    naxes = nlens = 1;
  } else {
    /* NumPy's _cook_nd_args: axes given, else fft2's (-2, -1), else the last len(s) or all */
    nlens = len ? tuple_items(l, len, lens) : -1;
    if (axis) naxes = tuple_items(l, axis, axes);
    else {
      naxes = shape == TWO_AXES ? 2 : nlens >= 0 ? nlens : ndim;
      for (int i = 0; i < naxes; i++) axes[i] = const_i64(l, shape == TWO_AXES || nlens >= 0 ? i - naxes : i);
    }
    if (nlens < 0)
      for (int i = nlens = 0; i < naxes; i++) lens[nlens++] = const_i64(l, FFT_DEFAULT_N);
    LLVMValueRef yes = LLVMConstInt(l->mod->i1, 1, 0);
    if (scipy && !axis && shape == N_AXES && nlens > ndim)
      lo_raise_if(l, yes, RT_ERR_VALUE, "shape requires more axes than are present");
    if (nlens != naxes)
      lo_raise_if(l, yes, RT_ERR_VALUE, scipy ? "when given, axes and shape arguments have to be of the same length"
                                              : "Shape and axes have different lengths.");
    if (naxes > nlens) naxes = nlens;
  }
  const Type *e = input_dtype(n->bi->ival, a->ty->elem);
  ArrayOperands ops = bi_array_operands(l, a, NULL, e);
  LLVMValueRef out = lo_alloca(l, l->mod->rtarray, "fft.out");
  LLVMTypeRef pt[11] = {l->mod->i32, l->mod->i32, l->mod->i32, l->mod->ptr, l->mod->i32, l->mod->i32,
                        l->mod->ptr, l->mod->ptr, l->mod->i32, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[11] = {const_i32(l, op), const_i32(l, (int)e->kind), const_i32(l, (int)n->ty->elem->kind), ops.pa,
                           const_i32(l, ndim), const_i32(l, naxes), i64_array(l, axes, naxes, "fft.axes"),
                           i64_array(l, lens, naxes, "fft.s"),
                           const_i32(l, (shape != ONE_AXIS ? FFT_ND : 0) | (scipy ? FFT_SCIPY : 0)), const_i32(l, norm), out};
  bi_array_call_end(l, &ops, e, lo_call_fn(l, "rt_fft", l->mod->i32, pt, args, 11));
  return lo_load_storage(l, n->ty, out);
}

/* ---------------------------------------------------------------- fftshift, ifftshift */

static const char *const shift_kw[] = {"axes", NULL};

/* fftshift(x, axes=None): x rolled by half of each axis's length (ifftshift: back), in a new array */
static const Type *ty_fftshift(Infer *in, Node *n, const Type **args) {
  Node *x = n->list.items[0], *axes = bi_arg_given(n, 1, "axes");
  if (x->ty->kind == TY_LIST && !ty_wrap_call(in, x, "numpy.asarray")) return NULL;
  const Type *t = x->ty;
  if (t->kind != TY_ARRAY || !(ty_is_scalar(t->elem) || ty_is_complex(t->elem)))
    return ty_error(in, x, "%s() needs an array of numbers, got %s", n->bi->name, t->name);
  if (axes && !ty_is_int(axes->ty) && !int_tuple(axes->ty))
    return ty_error(in, axes, "%s(): axes must be an integer or a tuple of integers, got %s", n->bi->name, axes->ty->name);
  return ty_array(t->elem, t->ndim, 'C', false);
}

static LLVMValueRef lo_fftshift(Lower *l, Node *n) {
  Node *x = n->list.items[0], *axes = bi_arg_given(n, 1, "axes");
  const Type *t = x->ty;
  LLVMValueRef ax[RC_MAX_NDIM * 4];
  int naxes;
  if (!axes) {
    naxes = t->ndim;
    for (int d = 0; d < naxes; d++) ax[d] = const_i64(l, d);
  } else if (ty_is_int(axes->ty)) {
    ax[0] = lo_expr_as(l, axes, TYS(TY_I64));
    naxes = 1;
  } else {
    naxes = axes->ty->nfields;
    if (naxes > RC_MAX_NDIM * 4) {
      lo_raise_if(l, LLVMConstInt(l->mod->i1, 1, 0), RT_ERR_VALUE, "too many axes to shift");
      naxes = 0;
    } else {
      tuple_items(l, axes, ax);
    }
  }
  LLVMValueRef copy, v = lo_expr(l, x), pa = bi_array_operand(l, t, v, t->elem, &copy);
  LLVMValueRef out = lo_alloca(l, l->mod->rtarray, "fftshift.out");
  LLVMTypeRef pt[8] = {l->mod->ptr, l->mod->i32, l->mod->i64, l->mod->i32, l->mod->ptr, l->mod->ptr, l->mod->i32,
                       l->mod->ptr};
  LLVMValueRef args[8] = {pa, const_i32(l, t->ndim), const_i64(l, (int64_t)t->elem->size), const_i32(l, naxes),
                          i64_array(l, ax, naxes, "fftshift.axes"), LLVMConstNull(l->mod->ptr),
                          const_i32(l, n->bi->ival), out};
  LLVMValueRef st = lo_call_fn(l, "rt_roll", l->mod->i32, pt, args, 8);
  ArrayOperands ops = {.a = x, .va = v, .ca = copy, .pa = pa};
  bi_array_call_end(l, &ops, t->elem, st);
  return lo_load_storage(l, n->ty, out);
}

/* ---------------------------------------------------------------- fftfreq, rfftfreq */

static const char *const freq_kw[] = {"d", NULL};

/* fftfreq(n, d=1.0): float64, for an int n and a real d */
static const Type *ty_fftfreq(Infer *in, Node *n, const Type **args) {
  Node *len = n->list.items[0], *d = bi_arg_given(n, 1, "d");
  if (!ty_is_int(len->ty) || len->ty->kind == TY_BOOL)
    return ty_error(in, len, "%s(): n should be an integer, got %s", n->bi->name, len->ty->name);
  if (d && (!ty_is_scalar(d->ty) || ty_is_time(d->ty)))
    return ty_error(in, d, "%s(): d must be a real number, got %s", n->bi->name, d->ty->name);
  return ty_array(TYS(TY_F64), 1, 'C', false);
}

static LLVMValueRef lo_fftfreq(Lower *l, Node *n) {
  Node *d = bi_arg_given(n, 1, "d");
  LLVMValueRef out = lo_alloca(l, l->mod->rtarray, "fftfreq.out");
  LLVMTypeRef pt[4] = {l->mod->i64, l->mod->f64, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[4] = {lo_expr_as(l, n->list.items[0], TYS(TY_I64)),
                          d ? lo_expr_as(l, d, TYS(TY_F64)) : LLVMConstReal(l->mod->f64, 1.0), const_i32(l, n->bi->ival), out};
  LLVMValueRef st = lo_call_fn(l, "rt_fftfreq", l->mod->i32, pt, args, 4);
  LLVMBasicBlockRef fail = new_block(l, "fftfreq.fail"), ok = new_block(l, "fftfreq.ok");
  LLVMBuildCondBr(l->b, LLVMBuildICmp(l->b, LLVMIntNE, st, const_i32(l, RT_OK), ""), fail, ok);
  position(l, fail);
  lo_raise_status(l, st);
  position(l, ok);
  return lo_load_storage(l, n->ty, out);
}

/* ---------------------------------------------------------------- scipy.fft.next_fast_len */

static const char *const fast_len_kw[] = {"target", "real", NULL};

/* next_fast_len(target, real=False): an int, for an int target */
static const Type *ty_next_fast_len(Infer *in, Node *n, const Type **args) {
  Node *target = bi_arg_given(n, 0, "target"), *real = bi_arg_given(n, 1, "real");
  if (!target) return ty_error(in, n, "next_fast_len() missing required argument 'target' (pos 1)");
  if (!ty_is_int(target->ty) && target->ty->kind != TY_BOOL)
    return ty_error(in, target, "'%s' object cannot be interpreted as an integer", target->ty->name);
  if (real && !ty_is_int(real->ty) && real->ty->kind != TY_BOOL)
    return ty_error(in, real, "next_fast_len(): real must be a bool, got %s", real->ty->name);
  return TYS(TY_I64);
}

static LLVMValueRef lo_next_fast_len(Lower *l, Node *n) {
  Node *real = bi_arg_given(n, 1, "real");
  LLVMValueRef out = lo_alloca(l, l->mod->i64, "next_fast_len.out");
  LLVMTypeRef pt[3] = {l->mod->i64, l->mod->i32, l->mod->ptr};
  LLVMValueRef args[3] = {lo_expr_as(l, bi_arg_given(n, 0, "target"), TYS(TY_I64)),
                          real ? lo_expr_as(l, real, TYS(TY_I32)) : const_i32(l, 0), out};
  lo_check_status(l, lo_call_fn(l, "rt_next_fast_len", l->mod->i32, pt, args, 3));
  return LLVMBuildLoad2(l->b, l->mod->i64, out, "");
}

/* ---------------------------------------------------------------- the rows */

#define FFT_FLAGS (BF_ALLOCATES | BF_RAISES | BF_COMPLEX | BF_STRINGS | BF_NONE)
#define TRANSFORM(name, ival, kw) \
  {"numpy.fft." name, "numpy.fft", name, BK_FUNCTION, 0, 1, 4, kw, FFT_FLAGS, ival, 0, ty_fft, lo_fft}

#define SCIPY_TRANSFORM(name, ival, kw) \
  {"scipy.fft." name, "scipy.fft", name, BK_FUNCTION, 0, 1, 6, kw, FFT_FLAGS, (ival) | SCIPY, 0, ty_fft, lo_fft}

const Builtin bi_fft[] = {
  TRANSFORM("fft", FFT_FFT | ONE_AXIS, one_axis_kw),
  TRANSFORM("ifft", FFT_IFFT | ONE_AXIS, one_axis_kw),
  TRANSFORM("rfft", FFT_RFFT | ONE_AXIS, one_axis_kw),
  TRANSFORM("irfft", FFT_IRFFT | ONE_AXIS, one_axis_kw),
  TRANSFORM("hfft", FFT_HFFT | ONE_AXIS, one_axis_kw),
  TRANSFORM("ihfft", FFT_IHFFT | ONE_AXIS, one_axis_kw),
  TRANSFORM("fft2", FFT_FFT | TWO_AXES, n_axes_kw),
  TRANSFORM("ifft2", FFT_IFFT | TWO_AXES, n_axes_kw),
  TRANSFORM("rfft2", FFT_RFFT | TWO_AXES, n_axes_kw),
  TRANSFORM("irfft2", FFT_IRFFT | TWO_AXES, n_axes_kw),
  TRANSFORM("fftn", FFT_FFT | N_AXES, n_axes_kw),
  TRANSFORM("ifftn", FFT_IFFT | N_AXES, n_axes_kw),
  TRANSFORM("rfftn", FFT_RFFT | N_AXES, n_axes_kw),
  TRANSFORM("irfftn", FFT_IRFFT | N_AXES, n_axes_kw),
  SCIPY_TRANSFORM("fft", FFT_FFT | ONE_AXIS, scipy_one_axis_kw),
  SCIPY_TRANSFORM("ifft", FFT_IFFT | ONE_AXIS, scipy_one_axis_kw),
  SCIPY_TRANSFORM("rfft", FFT_RFFT | ONE_AXIS, scipy_one_axis_kw),
  SCIPY_TRANSFORM("irfft", FFT_IRFFT | ONE_AXIS, scipy_one_axis_kw),
  SCIPY_TRANSFORM("hfft", FFT_HFFT | ONE_AXIS, scipy_one_axis_kw),
  SCIPY_TRANSFORM("ihfft", FFT_IHFFT | ONE_AXIS, scipy_one_axis_kw),
  SCIPY_TRANSFORM("fft2", FFT_FFT | TWO_AXES, scipy_n_axes_kw),
  SCIPY_TRANSFORM("ifft2", FFT_IFFT | TWO_AXES, scipy_n_axes_kw),
  SCIPY_TRANSFORM("rfft2", FFT_RFFT | TWO_AXES, scipy_n_axes_kw),
  SCIPY_TRANSFORM("irfft2", FFT_IRFFT | TWO_AXES, scipy_n_axes_kw),
  SCIPY_TRANSFORM("fftn", FFT_FFT | N_AXES, scipy_n_axes_kw),
  SCIPY_TRANSFORM("ifftn", FFT_IFFT | N_AXES, scipy_n_axes_kw),
  SCIPY_TRANSFORM("rfftn", FFT_RFFT | N_AXES, scipy_n_axes_kw),
  SCIPY_TRANSFORM("irfftn", FFT_IRFFT | N_AXES, scipy_n_axes_kw),
  {"numpy.fft.fftshift", "numpy.fft", "fftshift", BK_FUNCTION, 0, 1, 2, shift_kw, BF_ALLOCATES | BF_RAISES | BF_COMPLEX | BF_NONE,
   1, 0, ty_fftshift, lo_fftshift},
  {"numpy.fft.ifftshift", "numpy.fft", "ifftshift", BK_FUNCTION, 0, 1, 2, shift_kw, BF_ALLOCATES | BF_RAISES | BF_COMPLEX | BF_NONE,
   -1, 0, ty_fftshift, lo_fftshift},
  {"numpy.fft.fftfreq", "numpy.fft", "fftfreq", BK_FUNCTION, 0, 1, 2, freq_kw, BF_ALLOCATES | BF_RAISES, 0, 0, ty_fftfreq,
   lo_fftfreq},
  {"numpy.fft.rfftfreq", "numpy.fft", "rfftfreq", BK_FUNCTION, 0, 1, 2, freq_kw, BF_ALLOCATES | BF_RAISES, 1, 0, ty_fftfreq,
   lo_fftfreq},
  {"scipy.fft.next_fast_len", "scipy.fft", "next_fast_len", BK_FUNCTION, 0, 0, 2, fast_len_kw, BF_RAISES, 0, 0,
   ty_next_fast_len, lo_next_fast_len},
  BI_END,
};
