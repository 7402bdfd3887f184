/* norm_rt.c — numpy.linalg.norm along axes at run time: axis= an int (a
 * vector norm of each line along it), a pair (a matrix norm of each
 * matrix in those two axes), keepdims=, and of more than two dimensions
 * without an axis the 2-norm of all the elements.
 *
 * Each matrix is handed to rt_decomp's norm of one matrix as a view, so
 * every ord means here what it means there; each line's magnitudes go to
 * the vector norm rt_decomp's uses (la_vector_norm), in one buffer. Where
 * there are no lines at all, one of zeros of the core's shape is still
 * computed, so that an ord NumPy refuses (or an empty core's min) raises
 * as NumPy's does even then.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/blas.h"

static int64_t item_of(int kind) { return ty_plain[kind].bits / 8; }

/* axis ax normalised into [0, nd), or NumPy's AxisError */
static RtStatus normal_axis(int64_t *ax, int nd) {
  if (*ax < -nd || *ax >= nd) {
    rt_error_format(RT_ERR_AXIS, "axis %lld is out of bounds for array of dimension %lld", *ax, nd, 0, 0);
    return RT_ERR_VALUE;
  }
  if (*ax < 0) *ax += nd;
  return RT_OK;
}

/* the 2-norm of all of a's elements */
static double norm_of_all(const RtArray *a, int nd, int kind) {
  int64_t count = 1, idx[RC_MAX_NDIM] = {0};
  for (int d = 0; d < nd; d++) count *= a->shape[d];
  double sum = 0;
  bool cplx = kind == TY_C64 || kind == TY_C128;
  for (int64_t i = 0; i < count; i++) {
    const char *p = a->data;
    for (int d = 0; d < nd; d++) p += idx[d] * a->strides[d];
    for (int part = 0; part < (cplx ? 2 : 1); part++) {
      double v = kind == TY_F32 || kind == TY_C64 ? ((const float *)p)[part] : ((const double *)p)[part];
      sum += v * v;
    }
    for (int d = nd - 1; d >= 0 && ++idx[d] == a->shape[d]; d--) idx[d] = 0;
  }
  return sqrt(sum);
}

/* |x[i * step]| of n elements of kind, into v */
static void magnitudes(const char *x, int64_t n, int64_t step, int kind, double *v) {
  for (int64_t i = 0; i < n; i++, x += step) {
    switch (kind) {
    case TY_F32: v[i] = fabs(*(const float *)x); break;
    case TY_F64: v[i] = fabs(*(const double *)x); break;
    case TY_C64: v[i] = hypot(((const float *)x)[0], ((const float *)x)[1]); break;
    default: v[i] = hypot(((const double *)x)[0], ((const double *)x)[1]); break;
    }
  }
}

/* one line's norm (rt_decomp's of a vector, without its copy) */
static RtStatus line_norm(const RtArray *line, int kind, double p, int flags, double *v, double *r) {
  if (line->shape[0] == 0 && p == -INFINITY && !(flags & LF_DEFAULT)) {
    rt_set_error(RT_ERR_VALUE, "zero-size array to reduction operation minimum which has no identity");
    return RT_ERR_VALUE;
  }
  magnitudes(line->data, line->shape[0], line->strides[0], kind, v);
  *r = la_vector_norm(v, line->shape[0], p, flags);
  return RT_OK;
}

static void store_real(char *p, int kind, double v) {
  if (kind == TY_F32 || kind == TY_C64) *(float *)p = (float)v;
  else *(double *)p = v;
}

/* numpy.linalg.norm(a, ord (p, flags), axis, keepdims) of a (nd dimensions,
 * elements of kind): naxes 1 a vector norm along ax0, 2 a matrix norm in
 * (ax0, ax1), 0 the 2-norm of all. The result in out (keepdims, or
 * dimensions left), else the number at scalar. */
int32_t rt_norm_axes(int32_t kind, const RtArray *a, int32_t nd, double p, int32_t flags, int32_t naxes, int64_t ax0,
                     int64_t ax1, int32_t keepdims, RtArray *out, double *scalar) {
  int64_t ax[2] = {ax0, ax1}, shape[RC_MAX_NDIM], outer[RC_MAX_NDIM], outer_strides[RC_MAX_NDIM];
  int nout = 0, nshape = 0, rkind = kind == TY_F32 || kind == TY_C64 ? TY_F32 : TY_F64;
  RtStatus st = RT_OK;
  out->meminfo = NULL;
  for (int k = 0; !st && k < naxes; k++) st = normal_axis(&ax[k], nd);
  if (st) return st;
  if (naxes == 2 && ax[0] == ax[1]) {
    rt_set_error(RT_ERR_VALUE, "Duplicate axes given.");
    return RT_ERR_VALUE;
  }
  for (int d = 0; d < nd; d++) {
    bool reduced = naxes == 0 || ax[0] == d || (naxes == 2 && ax[1] == d);
    if (!reduced) outer[nout] = a->shape[d], outer_strides[nout++] = a->strides[d];
    if (!reduced || keepdims) shape[nshape++] = reduced ? 1 : a->shape[d];
  }
  if (naxes == 0) {
    scalar[0] = norm_of_all(a, nd, kind);
    if (keepdims) st = la_new_result(out, nshape, shape, item_of(rkind));
    if (!st && keepdims) store_real(out->data, rkind, scalar[0]);
    return st;
  }
  int64_t count = 1, item = item_of(rkind);
  for (int d = 0; d < nout; d++) count *= outer[d];
  if (nshape) st = la_new_result(out, nshape, shape, item);
  RtArray core = {0}, r[4];
  for (int k = 0; k < naxes; k++) core.shape[k] = a->shape[ax[k]], core.strides[k] = a->strides[ax[k]];
  char *zeros = NULL;
  double *v = naxes == 1 ? malloc(sizeof(double) * (size_t)(core.shape[0] + 1)) : NULL;
  if (naxes == 1 && !v) rt_set_error(st = RT_ERR_MEMORY, "cannot allocate a line");
  if (!st && count == 0) {  /* one core of zeros, contiguous */
    zeros = calloc((size_t)(core.shape[0] * (naxes == 2 ? core.shape[1] : 1) + 1), (size_t)item_of(kind));
    if (!zeros) rt_set_error(st = RT_ERR_MEMORY, "cannot allocate a matrix");
    core.strides[naxes - 1] = item_of(kind);
    if (naxes == 2) core.strides[0] = core.shape[1] * item_of(kind);
  }
  int64_t idx[RC_MAX_NDIM] = {0};
  for (int64_t i = 0; !st && i < (count ? count : 1); i++) {
    core.data = zeros ? zeros : a->data;
    for (int d = 0; !zeros && d < nout; d++) core.data += idx[d] * outer_strides[d];
    st = v ? line_norm(&core, kind, p, flags, v, scalar) : (RtStatus)rt_decomp(DC_NORM, kind, &core, naxes, NULL, 0, p, flags, r, scalar);
    if (!st && count && nshape) store_real(out->data + i * item, rkind, scalar[0]);
    for (int d = nout - 1; d >= 0 && ++idx[d] == outer[d]; d--) idx[d] = 0;
  }
  free(zeros), free(v);
  if (st && out->meminfo) rt_meminfo_free(out->meminfo), out->meminfo = NULL;
  return st;
}
