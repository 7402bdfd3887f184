/* blas.h — what blas.c (matrix products) and lapack.c (solve, inv, det)
 * share at run time: the BLAS and LAPACK routines the extension found, and
 * the errors of linear algebra. */
#ifndef RUCHEY_BLAS_H
#define RUCHEY_BLAS_H

#include <complex.h>

#include "ruchey.h"

enum { R_SGEMM, R_DGEMM, R_SGEMV, R_DGEMV, R_SGETRF, R_DGETRF, R_SGETRS, R_DGETRS, R_SGETRI, R_DGETRI,
       R_CGEMM, R_ZGEMM, R_CGEMV, R_ZGEMV, R_SDOT, R_DDOT, R_CDOTU, R_ZDOTU, R_SNRM2, R_DNRM2, R_SCNRM2, R_DZNRM2,
       /* decomp_rt.c's, in double precision (real, complex) */
       R_DGESV, R_ZGESV, R_ZGETRF, R_DSYEVD, R_ZHEEVD, R_DGESDD, R_ZGESDD, R_DGEEV, R_ZGEEV, R_DGEQRF, R_ZGEQRF,
       R_DORGQR, R_ZUNGQR, R_DPOTRF, R_ZPOTRF, R_DGELSD, R_ZGELSD, R_COUNT };

void *la_routine(int r);           /* NULL until the extension set it (without SciPy: never) */
RtStatus la_missing(void);         /* the RuntimeError that says SciPy is missing */
RtStatus la_error(const char *msg);  /* numpy.linalg.LinAlgError(msg) */
/* out: a new C-contiguous array of ndim dimensions, itemsize item. */
RtStatus la_new_result(RtArray *out, int ndim, const int64_t *shape, int64_t item);
/* the p-norm (flags: LF_DEFAULT for ord None) of n magnitudes v, as NumPy's norm */
double la_vector_norm(const double *v, int64_t n, double p, int flags);
/* x . x of n float32 or float64 elements stride bytes apart, by BLAS's dot (false where it cannot) */
bool la_self_dot(int kind, const char *x, int64_t n, int64_t stride, double *r);
/* c (n x n, C order) = a b of C-ordered n x n matrices of elements of kind */
RtStatus la_square_product(int kind, const char *a, const char *b, char *c, int64_t n);
/* c (m x n, C order) = a b of an m x k and a k x n matrix of kind, each
 * with its row and column strides in bytes (as, bs) */
RtStatus la_product(int kind, const char *a, int64_t m, int64_t k, const int64_t *as, const char *b, int64_t n,
                    const int64_t *bs, char *c);

/* decomp_rt.c's and polynomial_rt.c's elements (float32, float64 and their
 * complex kinds) read into and written from complex doubles */
typedef double complex zdouble;

static inline bool la_is_complex(int kind) { return kind == TY_C64 || kind == TY_C128; }
static inline int64_t la_item_size(int kind) { return ty_plain[kind].bits / 8; }

static inline zdouble la_load(const char *p, int kind) {
  switch (kind) {
  case TY_F32: return *(const float *)p;
  case TY_F64: return *(const double *)p;
  case TY_C64: return CMPLX(((const float *)p)[0], ((const float *)p)[1]);
  default: return CMPLX(((const double *)p)[0], ((const double *)p)[1]);
  }
}

static inline void la_store(char *p, int kind, zdouble v) {
  switch (kind) {
  case TY_F32: *(float *)p = (float)creal(v); break;
  case TY_F64: *(double *)p = creal(v); break;
  case TY_C64: ((float *)p)[0] = (float)creal(v), ((float *)p)[1] = (float)cimag(v); break;
  default: ((double *)p)[0] = creal(v), ((double *)p)[1] = cimag(v); break;
  }
}

#endif
