/* decomp_rt.c — the rest of numpy.linalg at run time: slogdet, cholesky,
 * eigh, eig, svd, qr, lstsq, pinv, norm, cond, matrix_rank, matrix_power,
 * complex and float64 solve/inv/det, and numpy.cov/corrcoef, numpy.roots; see decomp.c for their
 * typers and lowerers.
 *
 * As NumPy's linalg does, every decomposition runs in double precision
 * (LAPACK's d and z routines, found as blas.c's are): a float32 or
 * complex64 matrix is read into a double copy and the results written
 * back in its own precision. LAPACK reads column-major matrices, so each
 * operand is copied into one (Fm) and each result copied out into a new
 * C-ordered array.
 */
#include <complex.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/blas.h"

/* ---------------------------------------------------------------- matrices for LAPACK */

/* A column-major m x n matrix of doubles or of complex doubles. */
typedef struct Fm {
  double *d;
  int m, n;
  bool cplx;
} Fm;

static int real_kind(int kind) { return kind == TY_F32 || kind == TY_C64 ? TY_F32 : TY_F64; }

static zdouble at(const Fm *f, int64_t i, int64_t j) {
  int64_t k = i + j * f->m;
  return f->cplx ? CMPLX(f->d[2 * k], f->d[2 * k + 1]) : f->d[k];
}

static void put(Fm *f, int64_t i, int64_t j, zdouble v) {
  int64_t k = i + j * f->m;
  if (f->cplx) f->d[2 * k] = creal(v), f->d[2 * k + 1] = cimag(v);
  else f->d[k] = creal(v);
}

static RtStatus no_memory(void) {
  rt_set_error(RT_ERR_MEMORY, "cannot allocate a copy of a matrix");
  return RT_ERR_MEMORY;
}

/* count doubles (at least one), or NULL with MemoryError recorded */
static void *doubles(int64_t count, RtStatus *st) {
  void *p = *st ? NULL : calloc((size_t)(count > 0 ? count : 1), sizeof(double));
  if (!p && !*st) *st = no_memory();
  return p;
}

static RtStatus too_large(void) {
  rt_set_error(RT_ERR_VALUE, "matrices with more than 2**31 - 1 elements are not supported by LAPACK");
  return RT_ERR_VALUE;
}

/* A new zeroed m x n Fm. */
static RtStatus new_fm(Fm *f, int64_t m, int64_t n, bool cplx) {
  RtStatus st = RT_OK;
  *f = (Fm){NULL, (int)m, (int)n, cplx};
  if (m * n > INT_MAX || m > INT_MAX || n > INT_MAX) return too_large();
  f->d = doubles(m * n * (cplx ? 2 : 1), &st);
  return st;
}

/* a (a vector: one column) of elements of kind, copied into f. */
static RtStatus fortran_of(const RtArray *a, int nd, int kind, Fm *f) {
  int64_t m = a->shape[0], n = nd == 2 ? a->shape[1] : 1, s1 = nd == 2 ? a->strides[1] : 0;
  RtStatus st = new_fm(f, m, n, la_is_complex(kind));
  for (int64_t j = 0; !st && j < n; j++)
    for (int64_t i = 0; i < m; i++) put(f, i, j, la_load(a->data + i * a->strides[0] + j * s1, kind));
  return st;
}

/* out: a new array of kind, rows x cols (nd 1: rows), element (i, j) f's
 * (i, j), or its conjugate transpose's with adjoint. */
static RtStatus result_of(RtArray *out, int nd, int64_t rows, int64_t cols, int kind, const Fm *f, bool adjoint) {
  int64_t item = la_item_size(kind), shape[2] = {rows, cols};
  RtStatus st = la_new_result(out, nd, shape, item);
  for (int64_t i = 0; !st && i < rows; i++)
    for (int64_t j = 0; j < cols; j++)
      la_store(out->data + (i * cols + j) * item, kind, adjoint ? conj(at(f, j, i)) : at(f, i, j));
  return st;
}

/* out: a new 1-d array of kind holding v[0..n) */
static RtStatus vector_of(RtArray *out, int64_t n, int kind, const double *v) {
  int64_t item = la_item_size(kind);
  RtStatus st = la_new_result(out, 1, &n, item);
  for (int64_t i = 0; !st && i < n; i++) la_store(out->data + i * item, kind, v[i]);
  return st;
}

static bool is_float_kind(int kind) { return kind == TY_F32 || kind == TY_F64 || la_is_complex(kind); }

/* out: the n x n identity of kind (of floats, complex numbers, ints or bools) */
static RtStatus identity(RtArray *out, int64_t n, int kind) {
  int64_t item = la_item_size(kind), shape[2] = {n, n};
  RtStatus st = la_new_result(out, 2, shape, item);
  if (st) return st;
  memset(out->data, 0, (size_t)(n * n * item));
  for (int64_t i = 0; i < n; i++) {
    char *p = out->data + (i * n + i) * item;
    if (is_float_kind(kind)) la_store(p, kind, 1.0);
    else if (item == 1) *(uint8_t *)p = 1;
    else if (item == 2) *(uint16_t *)p = 1;
    else if (item == 4) *(uint32_t *)p = 1;
    else *(uint64_t *)p = 1;
  }
  return RT_OK;
}

static RtStatus check_finite(const Fm *f) {
  int64_t count = (int64_t)f->m * f->n * (f->cplx ? 2 : 1);
  for (int64_t i = 0; i < count; i++)
    if (!isfinite(f->d[i])) return la_error("Array must not contain infs or NaNs.");
  return RT_OK;
}

static RtStatus check_square(const RtArray *a) {
  return a->shape[0] == a->shape[1] ? RT_OK : la_error("Last 2 dimensions of the array must be square");
}

/* The workspace LAPACK asked for in a query: at least least elements. */
static int wanted(double query, int64_t least) {
  int64_t n = (int64_t)query;
  return (int)(n > least ? n : least);
}

/* ---------------------------------------------------------------- LU: slogdet; solve, inv, det of complex and float64 */

typedef void (*Getrf)(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
typedef void (*Gesv)(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b, const int *ldb,
                     int *info);

static int lead(int n) { return n > 1 ? n : 1; }

/* sign and log|det| of the square f, by its LU (f overwritten) */
static RtStatus log_det(Fm *f, zdouble *sign, double *logdet) {
  int n = f->n, ld = lead(n), info = 0;
  *sign = 1.0, *logdet = 0.0;
  if (n == 0) return RT_OK;
  Getrf getrf = la_routine(f->cplx ? R_ZGETRF : R_DGETRF);
  if (!getrf) return la_missing();
  RtStatus st = RT_OK;
  int *ipiv = doubles(n, &st);
  if (st) return st;
  getrf(&n, &n, f->d, &ld, ipiv, &info);
  for (int i = 0; i < n && info == 0; i++) {
    zdouble u = at(f, i, i);
    double size = cabs(u);
    /* a real pivot's sign as NumPy takes it: NaN counts as positive */
    *sign *= (ipiv[i] != i + 1 ? -1.0 : 1.0) * (f->cplx ? u / size : creal(u) < 0 ? -1.0 : 1.0);
    *logdet += log(size);
  }
  if (info > 0) *sign = 0.0, *logdet = -INFINITY;
  free(ipiv);
  return RT_OK;
}

static RtStatus slogdet(int kind, const RtArray *a, double *scalar) {
  Fm f;
  RtStatus st = check_square(a);
  if (!st) st = fortran_of(a, 2, kind, &f);
  if (st) return st;
  zdouble sign;
  st = log_det(&f, &sign, &scalar[2]);
  scalar[0] = creal(sign), scalar[1] = cimag(sign);
  free(f.d);
  return st;
}

/* x solved from a x = b (f and x overwritten by gesv); *singular where a is */
static RtStatus gesv_solve(Fm *f, Fm *x, bool *singular) {
  int n = f->n, nrhs = x->n, ld = lead(n), info = 0;
  *singular = false;
  if (n == 0 || nrhs == 0) return RT_OK;
  Gesv gesv = la_routine(f->cplx ? R_ZGESV : R_DGESV);
  if (!gesv) return la_missing();
  RtStatus st = RT_OK;
  int *ipiv = doubles(n, &st);
  if (!st) gesv(&n, &nrhs, f->d, &ld, ipiv, x->d, &ld, &info);
  free(ipiv);
  *singular = info > 0;
  return st;
}

/* the same, a singular a a LinAlgError */
static RtStatus solve_in_place(Fm *f, Fm *x) {
  bool singular;
  RtStatus st = gesv_solve(f, x, &singular);
  return st ? st : singular ? la_error("Singular matrix") : RT_OK;
}

int32_t la_gesv_linalg(int32_t op, int32_t kind, const RtArray *a, const RtArray *b, int32_t ndb, RtArray *out,
                          void *scalar) {
  Fm f = {0}, x = {0};
  RtStatus st = fortran_of(a, 2, kind, &f);
  int64_t n = a->shape[0];
  if (!st && op == LA_DET) {
    zdouble sign;
    double logdet;
    st = log_det(&f, &sign, &logdet);
    la_store(scalar, kind, sign * exp(logdet));  /* as NumPy computes det */
  } else if (!st && op == LA_INV) {
    st = new_fm(&x, n, n, f.cplx);
    for (int64_t i = 0; !st && i < n; i++) put(&x, i, i, 1.0);
  } else if (!st) {
    if (b->shape[0] != n) {
      rt_error_format(RT_ERR_VALUE, "solve: Input operand 1 has a mismatch in its core dimension 0 (size %lld is "
                                    "different from %lld)", b->shape[0], n, 0, 0);
      st = RT_ERR_VALUE;
    }
    if (!st) st = fortran_of(b, ndb, kind, &x);
  }
  if (!st && op != LA_DET) st = solve_in_place(&f, &x);
  if (!st && op != LA_DET) st = result_of(out, op == LA_INV ? 2 : ndb, x.m, x.n, kind, &x, false);
  free(f.d);
  free(x.d);
  return st;
}

/* ---------------------------------------------------------------- cholesky */

typedef void (*Potrf)(const char *uplo, const int *n, double *a, const int *lda, int *info);

static RtStatus cholesky(int kind, const RtArray *a, int flags, RtArray *out) {
  Fm f;
  RtStatus st = check_square(a);
  if (!st) st = fortran_of(a, 2, kind, &f);
  if (st) return st;
  int n = f.n, ld = lead(n), info = 0;
  Potrf potrf = la_routine(f.cplx ? R_ZPOTRF : R_DPOTRF);
  if (!potrf && n) st = la_missing();
  if (!st && n) potrf("L", &n, f.d, &ld, &info);
  if (!st && info > 0) st = la_error("Matrix is not positive definite");
  for (int j = 1; j < n; j++)  /* potrf leaves the upper triangle as it was */
    for (int i = 0; i < j; i++) put(&f, i, j, 0.0);
  if (!st) st = result_of(out, 2, n, n, kind, &f, flags & LF_UPPER);
  free(f.d);
  return st;
}

/* ---------------------------------------------------------------- eigh */

typedef void (*Syevd)(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
                      double *work, const int *lwork, int *iwork, const int *liwork, int *info);
typedef void (*Heevd)(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
                      double *work, const int *lwork, double *rwork, const int *lrwork, int *iwork,
                      const int *liwork, int *info);

/* w (and the vectors, in f) of the Hermitian f, by syevd or heevd */
static RtStatus hermitian_eigen(Fm *f, double *w, bool vectors, bool upper) {
  int n = f->n, ld = lead(n), info = 0, lwork = -1, lrwork = -1, liwork = -1, iq = 0;
  const char *jobz = vectors ? "V" : "N", *uplo = upper ? "U" : "L";
  double q[2] = {0}, rq = 0;
  Syevd syevd = la_routine(R_DSYEVD);
  Heevd heevd = la_routine(R_ZHEEVD);
  if (n == 0) return RT_OK;
  if (f->cplx ? !heevd : !syevd) return la_missing();
  if (f->cplx) heevd(jobz, uplo, &n, f->d, &ld, w, q, &lwork, &rq, &lrwork, &iq, &liwork, &info);
  else syevd(jobz, uplo, &n, f->d, &ld, w, q, &lwork, &iq, &liwork, &info);
  lwork = wanted(q[0], 2 * n + 1), lrwork = wanted(rq, 2 * n + 1), liwork = wanted(iq, 5 * n + 3);
  RtStatus st = RT_OK;
  double *work = doubles((int64_t)lwork * (f->cplx ? 2 : 1), &st), *rwork = doubles(lrwork, &st);
  int *iwork = doubles(liwork, &st);
  if (!st && f->cplx) heevd(jobz, uplo, &n, f->d, &ld, w, work, &lwork, rwork, &lrwork, iwork, &liwork, &info);
  else if (!st) syevd(jobz, uplo, &n, f->d, &ld, w, work, &lwork, iwork, &liwork, &info);
  free(work), free(rwork), free(iwork);
  return st ? st : info > 0 ? la_error("Eigenvalues did not converge") : RT_OK;
}

static RtStatus eigh(int kind, const RtArray *a, int flags, RtArray *out) {
  Fm f;
  RtStatus st = check_square(a);
  if (!st) st = fortran_of(a, 2, kind, &f);
  if (st) return st;
  double *w = doubles(f.n, &st);
  if (!st) st = check_finite(&f);
  if (!st) st = hermitian_eigen(&f, w, flags & LF_VECTORS, flags & LF_UPPER);
  if (!st) st = vector_of(&out[0], f.n, real_kind(kind), w);
  if (!st && (flags & LF_VECTORS)) st = result_of(&out[1], 2, f.n, f.n, kind, &f, false);
  free(w);
  free(f.d);
  return st;
}

/* ---------------------------------------------------------------- eig */

typedef void (*Dgeev)(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda, double *wr,
                      double *wi, double *vl, const int *ldvl, double *vr, const int *ldvr, double *work,
                      const int *lwork, int *info);
typedef void (*Zgeev)(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda, double *w,
                      double *vl, const int *ldvl, double *vr, const int *ldvr, double *work, const int *lwork,
                      double *rwork, int *info);

/* w (n elements; complex: 2n doubles, real: wr then wi) and the right
 * eigenvectors (in v, vectors only) of the square f, by geev */
static RtStatus general_eigen(Fm *f, double *w, Fm *v, bool vectors) {
  int n = f->n, ld = lead(n), info = 0, lwork = -1, one = 1;
  const char *jobvr = vectors ? "V" : "N";
  double q[2] = {0}, dummy[2];
  Dgeev dgeev = la_routine(R_DGEEV);
  Zgeev zgeev = la_routine(R_ZGEEV);
  if (n == 0) return RT_OK;
  if (f->cplx ? !zgeev : !dgeev) return la_missing();
  double *vr = vectors ? v->d : dummy;
  int ldvr = vectors ? ld : 1;
  RtStatus st = RT_OK;
  double *rwork = f->cplx ? doubles(2 * n, &st) : NULL;
  if (st) return st;
  if (f->cplx) zgeev("N", jobvr, &n, f->d, &ld, w, dummy, &one, vr, &ldvr, q, &lwork, rwork, &info);
  else dgeev("N", jobvr, &n, f->d, &ld, w, w + n, dummy, &one, vr, &ldvr, q, &lwork, &info);
  lwork = wanted(q[0], 4 * n);
  double *work = doubles((int64_t)lwork * (f->cplx ? 2 : 1), &st);
  if (!st && f->cplx) zgeev("N", jobvr, &n, f->d, &ld, w, dummy, &one, vr, &ldvr, work, &lwork, rwork, &info);
  else if (!st) dgeev("N", jobvr, &n, f->d, &ld, w, w + n, dummy, &one, vr, &ldvr, work, &lwork, &info);
  free(work), free(rwork);
  return st ? st : info > 0 ? la_error("Eigenvalues did not converge") : RT_OK;
}

/* numpy.linalg.eig, eigvals: of a real matrix real results, as Numba's
 * (whose types cannot depend on the values), a ValueError where an
 * eigenvalue is not real */
static RtStatus eig(int kind, const RtArray *a, int flags, RtArray *out) {
  Fm f, v = {0};
  bool vectors = flags & LF_VECTORS;
  RtStatus st = check_square(a);
  if (!st) st = fortran_of(a, 2, kind, &f);
  if (st) return st;
  int n = f.n;
  double *w = doubles(2 * (int64_t)n, &st);
  if (!st) st = check_finite(&f);
  if (!st && vectors) st = new_fm(&v, n, n, f.cplx);
  if (!st) st = general_eigen(&f, w, &v, vectors);
  for (int i = 0; !st && !f.cplx && i < n; i++)
    if (w[n + i] != 0) {
      rt_set_error(RT_ERR_VALUE, "eig() argument must not cause a domain change.");
      st = RT_ERR_VALUE;
    }
  if (!st && f.cplx) {
    Fm wf = {w, n, 1, true};
    st = result_of(&out[0], 1, n, 1, kind, &wf, false);
  } else if (!st) {
    st = vector_of(&out[0], n, kind, w);
  }
  if (!st && vectors) st = result_of(&out[1], 2, n, n, kind, &v, false);
  free(w), free(v.d), free(f.d);
  return st;
}

/* numpy.roots: the eigenvalues of the companion matrix of p's coefficients
 * from its first to its last nonzero one (ones below the diagonal, the
 * first row -p[1:]/p[0]), then a zero for each trailing zero; of real
 * coefficients real roots, as Numba's (a ValueError where one is not) */
static RtStatus roots(int kind, const RtArray *p, RtArray *out) {
  int64_t len = p->shape[0], first = 0, last = len - 1, item = la_item_size(kind);
#define COEFFICIENT(i) la_load(p->data + (i) * p->strides[0], kind)
  while (first < len && COEFFICIENT(first) == 0) first++;
  while (last > first && COEFFICIENT(last) == 0) last--;
  int64_t count = first < len ? last - first : 0, total = first < len ? count + len - 1 - last : 0;
  Fm f = {0};
  RtStatus st = new_fm(&f, count, count, la_is_complex(kind));
  double *w = doubles(2 * count, &st);
  for (int64_t j = 0; !st && j < count; j++) {
    zdouble c = COEFFICIENT(first + 1 + j), lead = COEFFICIENT(first);
    put(&f, 0, j, f.cplx ? -c / lead : -creal(c) / creal(lead));  /* real: no complex division's rounding */
    if (j + 1 < count) put(&f, j + 1, j, 1.0);
  }
#undef COEFFICIENT
  if (!st && count) st = check_finite(&f);
  if (!st && count) st = general_eigen(&f, w, NULL, false);
  for (int64_t i = 0; !st && !f.cplx && i < count; i++)
    if (w[count + i] != 0) {
      rt_set_error(RT_ERR_VALUE, "a real domain argument to roots cannot produce a complex domain result");
      st = RT_ERR_VALUE;
    }
  if (!st) st = la_new_result(out, 1, &total, item);
  for (int64_t i = 0; !st && i < total; i++)
    la_store(out->data + i * item, kind, i >= count ? 0.0 : f.cplx ? CMPLX(w[2 * i], w[2 * i + 1]) : w[i]);
  free(w), free(f.d);
  return st;
}

/* ---------------------------------------------------------------- svd */

typedef void (*Dgesdd)(const char *jobz, const int *m, const int *n, double *a, const int *lda, double *s,
                       double *u, const int *ldu, double *vt, const int *ldvt, double *work, const int *lwork,
                       int *iwork, int *info);
typedef void (*Zgesdd)(const char *jobz, const int *m, const int *n, double *a, const int *lda, double *s,
                       double *u, const int *ldu, double *vt, const int *ldvt, double *work, const int *lwork,
                       double *rwork, int *iwork, int *info);

/* The singular values s (min(m, n)) of f (overwritten), and with jobz 'A'
 * or 'S' u and vt (made here, m x m or m x k, n x n or k x n), by gesdd. */
static RtStatus singular(Fm *f, double *s, char jobz, Fm *u, Fm *vt) {
  int m = f->m, n = f->n, k = m < n ? m : n, big = m < n ? n : m, ld = lead(m), info = 0, lwork = -1;
  bool full = jobz == 'A', none = jobz == 'N';
  RtStatus st = none ? RT_OK : new_fm(u, m, full ? m : k, f->cplx);
  if (!st && !none) st = new_fm(vt, full ? n : k, n, f->cplx);
  if (st || k == 0) return st;
  Dgesdd dgesdd = la_routine(R_DGESDD);
  Zgesdd zgesdd = la_routine(R_ZGESDD);
  if (f->cplx ? !zgesdd : !dgesdd) return la_missing();
  int ldu = lead(m), ldvt = lead(full ? n : k);
  double q[2] = {0}, dummy[2], *ud = none ? dummy : u->d, *vd = none ? dummy : vt->d;
  int64_t lrwork = none ? 7 * (int64_t)k : (int64_t)k * (5 * k + 7 > 2 * big + 2 * k + 1 ? 5 * k + 7 : 2 * big + 2 * k + 1);
  int *iwork = doubles(8 * (int64_t)k, &st);
  double *rwork = f->cplx ? doubles(lrwork, &st) : NULL;
  char job[2] = {jobz, 0};
  if (!st && f->cplx) zgesdd(job, &m, &n, f->d, &ld, s, ud, &ldu, vd, &ldvt, q, &lwork, rwork, iwork, &info);
  else if (!st) dgesdd(job, &m, &n, f->d, &ld, s, ud, &ldu, vd, &ldvt, q, &lwork, iwork, &info);
  lwork = wanted(q[0], 1);
  double *work = doubles((int64_t)lwork * (f->cplx ? 2 : 1), &st);
  if (!st && f->cplx) zgesdd(job, &m, &n, f->d, &ld, s, ud, &ldu, vd, &ldvt, work, &lwork, rwork, iwork, &info);
  else if (!st) dgesdd(job, &m, &n, f->d, &ld, s, ud, &ldu, vd, &ldvt, work, &lwork, iwork, &info);
  free(work), free(rwork), free(iwork);
  return st ? st : info > 0 ? la_error("SVD did not converge") : RT_OK;
}

/* order: 0..n-1 sorted stably by |w| ascending (eigh's w ascends, so
 * |w| is two sorted runs: insertion is quick enough) */
static void by_magnitude(const double *w, int *order, int n) {
  for (int i = 0; i < n; i++) {
    int j = i;
    for (; j > 0 && fabs(w[order[j - 1]]) > fabs(w[i]); j--) order[j] = order[j - 1];
    order[j] = i;
  }
}

/* singular()'s results of a Hermitian f as NumPy's hermitian=True makes
 * them, by eigh of f's lower triangle: s the eigenvalues' magnitudes,
 * largest first; u the eigenvectors in that order; vt u's columns times
 * their eigenvalues' signs (copysign's: no 0), conjugate transposed. */
static RtStatus hermitian_singular(Fm *f, double *s, char jobz, Fm *u, Fm *vt) {
  int n = f->n;
  bool none = jobz == 'N';
  if (f->m != n) return la_error("Last 2 dimensions of the array must be square");
  RtStatus st = none ? RT_OK : new_fm(u, n, n, f->cplx);
  if (!st && !none) st = new_fm(vt, n, n, f->cplx);
  double *w = doubles(n, &st);
  int *order = doubles(n, &st);
  if (!st) st = hermitian_eigen(f, w, !none, false);
  if (!st) by_magnitude(w, order, n);
  for (int k = 0; !st && k < n; k++) {
    int from = order[n - 1 - k];
    double sign = copysign(1.0, w[from]);
    s[k] = fabs(w[from]);
    for (int i = 0; !none && i < n; i++) {
      put(u, i, k, at(f, i, from));
      put(vt, k, i, conj(at(f, i, from)) * sign);
    }
  }
  free(w), free(order);
  return st;
}

typedef RtStatus (*Singular)(Fm *f, double *s, char jobz, Fm *u, Fm *vt);

static Singular singular_of(int flags) { return flags & LF_HERMITIAN ? hermitian_singular : singular; }

/* The singular values of a, largest first (min(m, n) of them, in *s). */
static RtStatus singular_values(int kind, const RtArray *a, int flags, double **s, int *k) {
  Fm f;
  RtStatus st = fortran_of(a, 2, kind, &f);
  if (st) return st;
  *k = f.m < f.n ? f.m : f.n;
  *s = doubles(*k, &st);
  if (!st) st = check_finite(&f);
  if (!st) st = singular_of(flags)(&f, *s, 'N', NULL, NULL);
  free(f.d);
  return st;
}

static RtStatus svd(int kind, const RtArray *a, int flags, RtArray *out) {
  Fm f, u = {0}, vt = {0};
  RtStatus st = fortran_of(a, 2, kind, &f);
  if (st) return st;
  int k = f.m < f.n ? f.m : f.n;
  bool uv = flags & LF_VECTORS, full = flags & LF_FULL;
  double *s = doubles(k, &st);
  if (!st) st = check_finite(&f);
  if (!st) st = singular_of(flags)(&f, s, !uv ? 'N' : full ? 'A' : 'S', &u, &vt);
  if (!st && uv && k == 0 && full) {  /* NumPy's: identities */
    for (int i = 0; i < u.m; i++) put(&u, i, i, 1.0);
    for (int i = 0; i < vt.m; i++) put(&vt, i, i, 1.0);
  }
  RtArray *sv = uv ? &out[1] : &out[0];
  if (!st) st = vector_of(sv, k, real_kind(kind), s);
  if (!st && uv) st = result_of(&out[0], 2, u.m, u.n, kind, &u, false);
  if (!st && uv) st = result_of(&out[2], 2, vt.m, vt.n, kind, &vt, false);
  free(s), free(u.d), free(vt.d), free(f.d);
  return st;
}

/* ---------------------------------------------------------------- qr */

typedef void (*Geqrf)(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
                      const int *lwork, int *info);
typedef void (*Orgqr)(const int *m, const int *n, const int *k, double *a, const int *lda, const double *tau,
                      double *work, const int *lwork, int *info);

/* One of LAPACK's routines with a workspace: queried, then run. */
static RtStatus with_workspace(void *fn, bool orgqr, Fm *f, int cols, int k, double *tau, int *info) {
  int m = f->m, n = f->n, ld = lead(m), lwork = -1;
  double q[2] = {0};
  RtStatus st = RT_OK;
  if (orgqr) ((Orgqr)fn)(&m, &cols, &k, f->d, &ld, tau, q, &lwork, info);
  else ((Geqrf)fn)(&m, &n, f->d, &ld, tau, q, &lwork, info);
  lwork = wanted(q[0], n > 1 ? n : 1);
  double *work = doubles((int64_t)lwork * (f->cplx ? 2 : 1), &st);
  if (!st && orgqr) ((Orgqr)fn)(&m, &cols, &k, f->d, &ld, tau, work, &lwork, info);
  else if (!st) ((Geqrf)fn)(&m, &n, f->d, &ld, tau, work, &lwork, info);
  free(work);
  return st;
}

static RtStatus qr(int kind, const RtArray *a, int flags, RtArray *out) {
  Fm f, q = {0};
  RtStatus st = fortran_of(a, 2, kind, &f);
  if (st) return st;
  int m = f.m, n = f.n, k = m < n ? m : n, info = 0, cols = flags & LF_COMPLETE ? m : k;
  void *geqrf = la_routine(f.cplx ? R_ZGEQRF : R_DGEQRF), *orgqr = la_routine(f.cplx ? R_ZUNGQR : R_DORGQR);
  double *tau = doubles(2 * (int64_t)k, &st);
  if (!st) st = check_finite(&f);
  if (!st && k && (!geqrf || !orgqr)) st = la_missing();
  if (!st && k) st = with_workspace(geqrf, false, &f, n, k, tau, &info);
  int rrows = flags & LF_COMPLETE ? m : k;
  Fm r = {0};
  if (!st) st = new_fm(&r, rrows, n, f.cplx);
  for (int j = 0; !st && j < n; j++)
    for (int i = 0; i <= j && i < rrows; i++) put(&r, i, j, at(&f, i, j));
  if (!st) st = result_of(&out[1], 2, rrows, n, kind, &r, false);
  if (!st && !(flags & LF_R_ONLY)) {
    st = new_fm(&q, m, cols, f.cplx);
    for (int j = 0; !st && j < cols; j++)
      for (int i = 0; i < m; i++) put(&q, i, j, j < k ? at(&f, i, j) : i == j);
    if (!st && m && cols) st = with_workspace(orgqr, true, &q, cols, k, tau, &info);
    if (!st) st = result_of(&out[0], 2, m, cols, kind, &q, false);
  }
  free(tau), free(r.d), free(q.d), free(f.d);
  return st;
}

/* ---------------------------------------------------------------- lstsq */

typedef void (*Dgelsd)(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b,
                       const int *ldb, double *s, const double *rcond, int *rank, double *work, const int *lwork,
                       int *iwork, int *info);
typedef void (*Zgelsd)(const int *m, const int *n, const int *nrhs, double *a, const int *lda, double *b,
                       const int *ldb, double *s, const double *rcond, int *rank, double *work, const int *lwork,
                       double *rwork, int *iwork, int *info);

/* x (in the first n rows of x) minimising |a x - b|, by gelsd */
static RtStatus least_squares(Fm *f, Fm *x, double *s, double rcond, int *rank) {
  int m = f->m, n = f->n, nrhs = x->n, lda = lead(m), ldb = lead(x->m), info = 0, lwork = -1, iq = 0;
  Dgelsd dgelsd = la_routine(R_DGELSD);
  Zgelsd zgelsd = la_routine(R_ZGELSD);
  *rank = 0;
  if (m == 0 || n == 0) return RT_OK;
  if (f->cplx ? !zgelsd : !dgelsd) return la_missing();
  double q[2] = {0}, rq = 0;
  if (f->cplx) zgelsd(&m, &n, &nrhs, f->d, &lda, x->d, &ldb, s, &rcond, rank, q, &lwork, &rq, &iq, &info);
  else dgelsd(&m, &n, &nrhs, f->d, &lda, x->d, &ldb, s, &rcond, rank, q, &lwork, &iq, &info);
  lwork = wanted(q[0], 1);
  RtStatus st = RT_OK;
  double *work = doubles((int64_t)lwork * (f->cplx ? 2 : 1), &st), *rwork = doubles(wanted(rq, 1), &st);
  int *iwork = doubles(wanted(iq, 1), &st);
  if (!st && f->cplx) zgelsd(&m, &n, &nrhs, f->d, &lda, x->d, &ldb, s, &rcond, rank, work, &lwork, rwork, iwork, &info);
  else if (!st) dgelsd(&m, &n, &nrhs, f->d, &lda, x->d, &ldb, s, &rcond, rank, work, &lwork, iwork, &info);
  free(work), free(rwork), free(iwork);
  return st ? st : info > 0 ? la_error("SVD did not converge in Linear Least Squares") : RT_OK;
}

/* numpy.linalg.lstsq: x, residuals, s in out[0..2], the rank at scalar[0];
 * rcond p (NumPy's eps * max(m, n) by default). */
static RtStatus lstsq(int kind, const RtArray *a, const RtArray *b, int ndb, double p, int flags, RtArray *out,
                      double *scalar) {
  Fm f, bf, x = {0};
  RtStatus st = fortran_of(a, 2, kind, &f);
  if (st) return st;
  int m = f.m, n = f.n, k = m < n ? m : n, rank = 0;
  st = fortran_of(b, ndb, kind, &bf);
  if (!st && bf.m != m) st = la_error("Incompatible dimensions");
  if (!st) st = check_finite(&f);
  if (!st) st = check_finite(&bf);
  /* no right-hand side: one of zeros, for the rank and s, as NumPy does */
  if (!st) st = new_fm(&x, m > n ? m : n, bf.n > 0 ? bf.n : 1, f.cplx);
  for (int j = 0; !st && j < bf.n; j++)
    for (int i = 0; i < m; i++) put(&x, i, j, at(&bf, i, j));
  double *s = doubles(k, &st);
  double rcond = flags & LF_DEFAULT ? DBL_EPSILON * (m > n ? m : n) : p;
  if (!st) st = least_squares(&f, &x, s, rcond, &rank);
  if (!st && m == 0)  /* x is 0 */
    for (int j = 0; j < x.n; j++)
      for (int i = 0; i < n; i++) put(&x, i, j, 0.0);
  bool resids = rank == n && m > n;
  double *r = doubles(bf.n, &st);
  for (int j = 0; !st && resids && j < bf.n; j++)
    for (int i = n; i < m; i++) r[j] += creal(at(&x, i, j) * conj(at(&x, i, j)));
  if (!st) {
    int64_t item = la_item_size(kind), shape[2] = {n, bf.n};
    st = la_new_result(&out[0], ndb, shape, item);
    for (int64_t i = 0; !st && i < n; i++)
      for (int64_t j = 0; j < bf.n; j++) la_store(out[0].data + (i * bf.n + j) * item, kind, at(&x, i, j));
  }
  if (!st) st = vector_of(&out[1], resids ? bf.n : 0, real_kind(kind), r);
  if (!st) st = vector_of(&out[2], k, real_kind(kind), s);
  scalar[0] = rank;
  free(r), free(s), free(x.d), free(bf.d), free(f.d);
  return st;
}

/* ---------------------------------------------------------------- pinv */

typedef void (*Gemm)(const char *ta, const char *tb, const int *m, const int *n, const int *k, const void *alpha,
                     const void *a, const int *lda, const void *b, const int *ldb, const void *beta, void *c,
                     const int *ldc);

/* numpy.linalg.pinv: Vh^H diag(1/s) U^H of a's SVD, the singular values
 * at most rcond (p; 1e-15 by default) times the largest left out. */
static RtStatus pinv(int kind, const RtArray *a, double p, int flags, RtArray *out) {
  Fm f, u = {0}, vt = {0}, c = {0};
  RtStatus st = fortran_of(a, 2, kind, &f);
  if (st) return st;
  int m = f.m, n = f.n, k = m < n ? m : n;
  double *s = doubles(k, &st), rcond = flags & LF_DEFAULT ? 1e-15 : p, largest = 0;
  if (!st) st = check_finite(&f);
  if (!st) st = singular_of(flags)(&f, s, 'S', &u, &vt);
  if (!st) st = new_fm(&c, n, m, f.cplx);
  for (int i = 0; i < k; i++) largest = s[i] > largest ? s[i] : largest;
  for (int l = 0; !st && l < k; l++) {  /* u's columns scaled by 1 / s */
    double w = s[l] > rcond * largest ? 1 / s[l] : 0;
    for (int i = 0; i < m; i++) put(&u, i, l, at(&u, i, l) * w);
  }
  Gemm gemm = la_routine(f.cplx ? R_ZGEMM : R_DGEMM);
  if (!st && k && !gemm) st = la_missing();
  if (!st && k) {
    double one[2] = {1, 0}, zero[2] = {0, 0};
    int ldv = lead(k), ldu = lead(m), ldc = lead(n);
    const char *t = f.cplx ? "C" : "T";
    gemm(t, t, &n, &m, &k, one, vt.d, &ldv, u.d, &ldu, zero, c.d, &ldc);
  }
  if (!st) st = result_of(&out[0], 2, n, m, kind, &c, false);
  free(s), free(u.d), free(vt.d), free(c.d), free(f.d);
  return st;
}

/* ---------------------------------------------------------------- norm, cond, matrix_rank */

/* p-norm of a vector's magnitudes, as NumPy's norm computes each ord */
double la_vector_norm(const double *v, int64_t n, double p, int flags) {
  double r = 0;
  if (flags & LF_DEFAULT || p == 2) {
    for (int64_t i = 0; i < n; i++) r += v[i] * v[i];
    return sqrt(r);
  }
  if (isinf(p)) {
    r = n ? v[0] : 0;
    for (int64_t i = 1; i < n; i++) r = p > 0 ? fmax(r, v[i]) : fmin(r, v[i]);
    return r;
  }
  for (int64_t i = 0; i < n; i++) r += p == 0 ? v[i] != 0 : p == 1 ? v[i] : pow(v[i], p);
  return p == 0 || p == 1 ? r : pow(r, 1 / p);
}

/* the smallest of no values (NumPy's largest of none is 0) */
static RtStatus empty_reduction(void) {
  rt_set_error(RT_ERR_VALUE, "zero-size array to reduction operation minimum which has no identity");
  return RT_ERR_VALUE;
}

/* The largest (or smallest, or the sum) of sums of |a|'s elements along rows (or columns) */
static double line_sums(const Fm *f, bool rows, bool largest) {
  int lines = rows ? f->m : f->n, along = rows ? f->n : f->m;
  double best = 0;
  for (int l = 0; l < lines; l++) {
    double sum = 0;
    for (int i = 0; i < along; i++) sum += cabs(rows ? at(f, l, i) : at(f, i, l));
    best = l == 0 ? sum : largest ? fmax(best, sum) : fmin(best, sum);
  }
  return best;
}

/* A matrix norm of f (finite singular values where the ord needs them) */
static RtStatus matrix_norm(Fm *f, double p, int flags, double *r) {
  int k = f->m < f->n ? f->m : f->n;
  if (flags & (LF_DEFAULT | LF_FRO)) {
    double sum = 0;
    for (int64_t i = 0; i < (int64_t)f->m * f->n; i++) sum += creal(at(f, i, 0) * conj(at(f, i, 0)));
    *r = sqrt(sum);
    return RT_OK;
  }
  bool svd_ord = flags & LF_NUC || p == 2 || p == -2;
  if (!svd_ord && p != 1 && p != -1 && !isinf(p)) {
    rt_set_error(RT_ERR_VALUE, "Invalid norm order for matrices.");
    return RT_ERR_VALUE;
  }
  if (!svd_ord && p < 0 && (isinf(p) ? f->m : f->n) == 0) return empty_reduction();  /* the min of no lines */
  if ((int64_t)f->m * f->n == 0 && svd_ord && !(flags & LF_NUC) && p < 0) return empty_reduction();
  if (!svd_ord) {
    *r = line_sums(f, isinf(p), p > 0);
    return RT_OK;
  }
  RtStatus st = check_finite(f);
  double *s = doubles(k, &st);
  if (!st) st = singular(f, s, 'N', NULL, NULL);
  *r = 0;
  for (int i = 0; !st && i < k; i++) *r = flags & LF_NUC ? *r + s[i] : p > 0 ? fmax(*r, s[i]) : s[i];
  free(s);
  return st;
}

typedef float (*Snrm2)(const int *n, const void *x, const int *incx);
typedef double (*Dnrm2)(const int *n, const void *x, const int *incx);

/* The 2-norm of vector a by BLAS's nrm2, which scales as it sums (Numba's
 * norm, which can differ from NumPy's square root of a dot product in the
 * last bit); false where a's stride or length does not fit BLAS's ints,
 * or the routine is missing. */
static bool nrm2(int kind, const RtArray *a, double *scalar) {
  int64_t item = la_item_size(kind), stride = a->strides[0];
  int which = kind == TY_F32 ? R_SNRM2 : kind == TY_F64 ? R_DNRM2 : kind == TY_C64 ? R_SCNRM2 : R_DZNRM2;
  void *fn = la_routine(which);
  if (!fn || a->shape[0] > INT_MAX || stride <= 0 || stride % item || stride / item > INT_MAX) return false;
  int n = (int)a->shape[0], inc = (int)(stride / item);
  scalar[0] = which == R_SNRM2 || which == R_SCNRM2 ? ((Snrm2)fn)(&n, a->data, &inc) : ((Dnrm2)fn)(&n, a->data, &inc);
  return true;
}

/* NumPy's 2-norm of vector a: the square root of its elements' dot
 * product with themselves, contiguous (a strided vector copied first, as
 * NumPy's ravel does), a complex one's real parts' and imaginary parts'
 * added in their precision, by BLAS's dot; false where the length does not
 * fit BLAS's ints or the routine is missing. */
static bool dot_norm(int kind, const RtArray *a, double *scalar) {
  int part = kind == TY_C64 ? TY_F32 : kind == TY_C128 ? TY_F64 : kind;
  int64_t n = a->shape[0], item = la_item_size(kind), half = la_item_size(part);
  const char *x = a->data;
  char *copy = NULL;
  if (a->strides[0] != item && n > 1) {
    if (!(copy = malloc((size_t)(n * item)))) return false;
    rt_copy_strided(1, &n, copy, &item, a->data, a->strides, item);
    x = copy;
  }
  double re, im = 0;
  bool done = la_self_dot(part, x, n, item, &re) && (!la_is_complex(kind) || la_self_dot(part, x + half, n, item, &im));
  free(copy);
  if (done) scalar[0] = sqrt(part == TY_F32 ? (double)((float)re + (float)im) : re + im);
  return done;
}

static RtStatus norm(int kind, const RtArray *a, int nda, double p, int flags, double *scalar) {
  if (nda == 1 && (flags & LF_DEFAULT || p == 2) && (flags & LF_NRM2 ? nrm2(kind, a, scalar) : dot_norm(kind, a, scalar)))
    return RT_OK;
  Fm f;
  RtStatus st = fortran_of(a, nda, kind, &f);
  if (st) return st;
  if (nda == 2) {
    st = matrix_norm(&f, p, flags, &scalar[0]);
  } else {
    double *v = doubles(f.m, &st);
    for (int i = 0; !st && i < f.m; i++) v[i] = cabs(at(&f, i, 0));
    if (!st && f.m == 0 && p == -INFINITY && !(flags & LF_DEFAULT)) st = empty_reduction();
    if (!st) scalar[0] = la_vector_norm(v, f.m, p, flags);
    free(v);
  }
  free(f.d);
  return st;
}

/* numpy.linalg.cond: by the singular values for p None, 2, -2; else
 * norm(x, p) norm(inv(x), p), infinite where x is singular */
static RtStatus cond(int kind, const RtArray *a, double p, int flags, double *scalar) {
  Fm f, x = {0}, inv = {0};
  if (a->shape[0] == 0 || a->shape[1] == 0) return la_error("cond is not defined on empty arrays");
  RtStatus st = fortran_of(a, 2, kind, &f);
  if (st) return st;
  bool nan = false, by_svd = (flags & LF_DEFAULT) || p == 2 || p == -2;
  for (int64_t i = 0; i < (int64_t)f.m * f.n; i++) nan |= isnan(creal(at(&f, i, 0))) || isnan(cimag(at(&f, i, 0)));
  double r = 0, ri = 0;
  if (by_svd) {
    double *s;
    int k;
    if (!(st = singular_values(kind, a, 0, &s, &k))) r = p == -2 ? s[k - 1] / s[0] : s[0] / s[k - 1];
    if (!st) free(s);
  } else {
    bool singular = false;
    size_t bytes = sizeof(double) * (size_t)f.n * f.n * (f.cplx ? 2 : 1);
    if (!(st = check_square(a))) st = new_fm(&x, f.n, f.n, f.cplx);
    if (!st) st = new_fm(&inv, f.n, f.n, f.cplx);
    for (int i = 0; !st && i < f.n; i++) put(&inv, i, i, 1.0);
    if (!st) memcpy(x.d, f.d, bytes), st = matrix_norm(&x, p, flags, &r);  /* (which may overwrite x) */
    if (!st) memcpy(x.d, f.d, bytes), st = gesv_solve(&x, &inv, &singular);
    if (!st && singular) {
      r = NAN;  /* made infinite below, as NumPy's */
    } else if (!st) {
      st = matrix_norm(&inv, p, flags, &ri);
      r *= ri;
    }
  }
  if (isnan(r) && !nan) r = INFINITY;
  scalar[0] = r;
  free(f.d), free(x.d), free(inv.d);
  return st;
}

/* numpy.linalg.matrix_rank: the singular values above tol (p; by default
 * NumPy's largest * max(m, n) * eps); of a vector, whether it is not all 0 */
static RtStatus rank(int kind, const RtArray *a, int nda, double p, int flags, double *scalar) {
  double *s = NULL, largest = 0;
  int k = 0, count = 0;  /* (of a Hermitian a, |eigenvalues|: flags) */
  if (nda == 1) {
    for (int64_t i = 0; i < a->shape[0]; i++) count |= la_load(a->data + i * a->strides[0], kind) != 0;
    scalar[0] = count;
    return RT_OK;
  }
  RtStatus st = singular_values(kind, a, flags, &s, &k);
  for (int i = 0; !st && i < k; i++) largest = fmax(largest, real_kind(kind) == TY_F32 ? (float)s[i] : s[i]);
  double m = (double)(a->shape[0] > a->shape[1] ? a->shape[0] : a->shape[1]);
  bool single = real_kind(kind) == TY_F32;  /* NumPy compares s and eps in a's precision */
  double tol = flags & LF_DEFAULT ? largest * m * (single ? FLT_EPSILON : DBL_EPSILON) : p;
  for (int i = 0; !st && i < k; i++) count += (single ? (float)s[i] : s[i]) > tol;
  scalar[0] = count;
  free(s);
  return st;
}

/* ---------------------------------------------------------------- matrix_power */

/* a^p by squaring, in NumPy's order (a^3 as (a @ a) @ a), in a's own
 * precision through BLAS (ints and bools by plain loops, as NumPy's
 * products of them); a negative power of a's inverse */
static RtStatus power(int kind, const RtArray *a, double p, RtArray *out) {
  RtStatus st = check_square(a);
  if (!st && p < 0 && !is_float_kind(kind)) {
    rt_set_error(RT_ERR_VALUE, "matrix_power(): a negative power of a matrix of integers is a matrix of floats, "
                               "which compiled code must know from the types: give a constant exponent or a float matrix");
    return RT_ERR_VALUE;
  }
  int64_t n = a->shape[0], item = la_item_size(kind), e = (int64_t)(p < 0 ? -p : p);
  if (!st && p < 0) {
    Fm f = {0}, x = {0};
    RtArray b = {0};
    if (!(st = fortran_of(a, 2, kind, &f))) st = new_fm(&x, n, n, f.cplx);
    for (int64_t i = 0; !st && i < n; i++) put(&x, i, i, 1.0);
    if (!st) st = solve_in_place(&f, &x);
    if (!st) st = result_of(&b, 2, n, n, kind, &x, false);
    free(f.d), free(x.d);
    if (!st) st = power(kind, &b, (double)e, out);
    if (b.meminfo) rt_meminfo_free(b.meminfo);
    return st;
  }
  if (!st) st = identity(out, n, kind);
  char *base = st ? NULL : malloc((size_t)(n * n * item + 1)), *tmp = st ? NULL : malloc((size_t)(n * n * item + 1));
  if (!st && (!base || !tmp)) st = no_memory();
  int64_t dst[2] = {n * item, item};
  if (!st) rt_copy_strided(2, a->shape, base, dst, a->data, a->strides, item);
  if (!st && e == 3) {  /* NumPy's (a @ a) @ a */
    st = la_square_product(kind, base, base, tmp, n);
    if (!st) st = la_square_product(kind, tmp, base, out->data, n);
    e = 0;
  }
  /* the powers of two e holds, multiplied from the first one taken (never by
   * the identity, as NumPy's: an inf stays inf) */
  for (bool first = true, taken = false; !st && e; e >>= 1) {
    if (!first) {
      st = la_square_product(kind, base, base, tmp, n);
      memcpy(base, tmp, (size_t)(n * n * item));
    }
    first = false;
    if (!st && (e & 1)) {
      if (taken) st = la_square_product(kind, out->data, base, tmp, n);
      memcpy(out->data, taken ? tmp : base, (size_t)(n * n * item));
      taken = true;
    }
  }
  free(base), free(tmp);
  return st;
}

/* ---------------------------------------------------------------- cov, corrcoef */

/* m's (and y's) variables as the columns of f (observations x variables).
 * NumPy 2's rule: m's rows are its variables (its columns where not
 * rowvar, a vector one variable); y's the same, but a y of one row is one
 * variable whatever rowvar says (in NumPy 1, an m of one row too). Where m
 * has no variables there are none (NumPy returns before it looks at y). */
static RtStatus variables(const RtArray *a, int nd, const RtArray *b, int ndb, int kind, int flags, Fm *f) {
  bool rowvar = flags & LF_ROWVAR;
  bool one_row_m_by_rows = rt_numpy_version < 200;
  #define BY_ROWS(x, d, part) ((d) == 2 && (rowvar || (((part) || one_row_m_by_rows) && (x)->shape[0] == 1)))
  #define VARS(x, d, part) ((d) == 1 ? 1 : BY_ROWS(x, d, part) ? (x)->shape[0] : (x)->shape[1])
  #define OBS(x, d, part) ((d) == 1 ? (x)->shape[0] : BY_ROWS(x, d, part) ? (x)->shape[1] : (x)->shape[0])
  int64_t va = VARS(a, nd, 0), obs = OBS(a, nd, 0), vb = b && va ? VARS(b, ndb, 1) : 0;
  if (va == 0) b = NULL;
  if (b && OBS(b, ndb, 1) != obs) {
    rt_error_format(RT_ERR_VALUE, "all the input array dimensions except for the concatenation axis must match "
                                  "exactly, but along dimension 1, the array at index 0 has size %lld and the array "
                                  "at index 1 has size %lld", obs, OBS(b, ndb, 1), 0, 0);
    return RT_ERR_VALUE;
  }
  RtStatus st = new_fm(f, obs, va + vb, la_is_complex(kind));
  for (int part = 0; !st && part < (b ? 2 : 1); part++) {
    const RtArray *x = part ? b : a;
    int d = part ? ndb : nd;
    bool by_rows = BY_ROWS(x, d, part);
    int64_t vars = part ? vb : va, first = part ? va : 0;
    for (int64_t v = 0; v < vars; v++)
      for (int64_t o = 0; o < obs; o++) {
        int64_t off = d == 1 ? o * x->strides[0] : by_rows ? v * x->strides[0] + o * x->strides[1]
                                                          : o * x->strides[0] + v * x->strides[1];
        put(f, o, first + v, la_load(x->data + off, kind));
      }
  }
  #undef BY_ROWS
  #undef VARS
  #undef OBS
  return st;
}

/* x of nd dimensions, a 0-d one read as the vector of its one element,
 * as NumPy's atleast_2d reads it; *one holds that vector. */
static const RtArray *at_least_1d(const RtArray *x, int *nd, RtArray *one) {
  if (!x || *nd) return x;
  *one = *x;
  one->shape[0] = 1, one->strides[0] = 0, *nd = 1;
  return one;
}

/* NumPy squeezes the 1 x 1 result of a matrix holding one variable (and
 * no y) to a 0-d array (corrcoef: a number), a shape the matrix's type
 * cannot tell; Numba raises this RuntimeError there, so does ruchey. */
static RtStatus one_variable_of_a_matrix(int flags) {
  rt_set_error(RT_ERR_RUNTIME, flags & LF_CORR
                   ? "numpy.corrcoef of a 2-D array holding one variable is a number in NumPy, which compiled code "
                     "cannot type from the array's type: pass the variable as a 1-D array (x[0], or x[:, 0] where "
                     "rowvar=False)"
                   : "numpy.cov of a 2-D array holding one variable is a 0-d array in NumPy, which compiled code "
                     "cannot type from the array's type: pass the variable as a 1-D array (m[0], or m[:, 0] where "
                     "rowvar=False)");
  return RT_ERR_RUNTIME;
}

/* numpy.cov and corrcoef: f's columns centred, then f^H f / (obs - ddof) */
static RtStatus cov(int kind, const RtArray *a, int nda, const RtArray *b, int ndb, double p, int flags, RtArray *out,
                    double *scalar) {
  Fm f, c = {0};
  RtArray a1, b1;
  a = at_least_1d(a, &nda, &a1), b = at_least_1d(b, &ndb, &b1);
  RtStatus st = variables(a, nda, b, ndb, kind, flags, &f);
  if (st) return st;
  int obs = f.m, vars = f.n;
  if (nda == 2 && !b && vars == 1 && !(flags & LF_SCALAR)) {
    free(f.d);
    return one_variable_of_a_matrix(flags);
  }
  if ((flags & LF_SCALAR) && vars != 1) {  /* a tuple's one row read with rowvar=False known at run time */
    free(f.d);
    rt_set_error(RT_ERR_RUNTIME, "numpy.cov or corrcoef of a tuple holding one row with rowvar=False is a matrix of "
                                 "its many variables in NumPy, where the tuple's type says one variable: give "
                                 "rowvar=False as a constant");
    return RT_ERR_RUNTIME;
  }
  for (int j = 0; j < vars; j++) {
    zdouble mean = 0;
    for (int i = 0; i < obs; i++) mean += at(&f, i, j);
    mean /= obs;
    for (int i = 0; i < obs; i++) put(&f, i, j, at(&f, i, j) - mean);
  }
  double ddof = flags & LF_DEFAULT ? (flags & LF_BIAS ? 0 : 1) : p, fact = obs - ddof;
  if (fact <= 0) fact = 0;
  st = new_fm(&c, vars, vars, f.cplx);
  Gemm gemm = la_routine(f.cplx ? R_ZGEMM : R_DGEMM);
  if (!st && !gemm) st = la_missing();
  if (!st && vars && obs) {
    double one[2] = {1, 0}, zero[2] = {0, 0};
    int ld = lead(obs), ldc = lead(vars);
    gemm(f.cplx ? "C" : "T", "N", &vars, &vars, &obs, one, f.d, &ld, f.d, &ld, zero, c.d, &ldc);
  }
  /* gemm made conj(X X^H), X NumPy's variables x observations */
  for (int64_t i = 0; !st && i < (int64_t)vars * vars; i++) put(&c, i, 0, conj(at(&c, i, 0)) / fact);
  zdouble cov_of_one = vars == 1 ? at(&c, 0, 0) : 0;
  if (!st && (flags & LF_CORR)) {  /* c / outer(stddev, stddev), clipped to [-1, 1] as NumPy's */
    double *sd = doubles(vars, &st);
    for (int i = 0; !st && i < vars; i++) sd[i] = sqrt(creal(at(&c, i, i)));
    for (int i = 0; !st && i < vars; i++)
      for (int j = 0; j < vars; j++) {
        zdouble v = at(&c, i, j) / sd[i] / sd[j];
        double re = fmax(-1, fmin(1, creal(v))), im = fmax(-1, fmin(1, cimag(v)));
        put(&c, i, j, CMPLX(isnan(creal(v)) ? creal(v) : re, isnan(cimag(v)) ? cimag(v) : im));
      }
    free(sd);
  }
  if (!st && (flags & LF_SCALAR) && vars == 1) {
    zdouble v = at(&c, 0, 0);
    if (flags & LF_CORR) v = cov_of_one / cov_of_one;  /* NumPy's c / c */
    scalar[0] = creal(v), scalar[1] = cimag(v);
    if (!(flags & LF_CORR)) st = la_new_result(&out[0], 0, NULL, la_item_size(kind));
    if (!st && !(flags & LF_CORR)) la_store(out[0].data, kind, v);
  } else if (!st) {  /* (LF_SCALAR only of one variable: a vector without y) */
    st = result_of(&out[0], 2, vars, vars, kind, &c, false);
  }
  free(c.d), free(f.d);
  return st;
}

/* ---------------------------------------------------------------- the entry */

int32_t rt_decomp(int32_t op, int32_t kind, const RtArray *a, int32_t nda, const RtArray *b, int32_t ndb, double p,
                  int32_t flags, RtArray *out, double *scalar) {
  for (int i = 0; i < 4; i++) out[i].meminfo = NULL;
  RtStatus st;
  switch (op) {
  case DC_SLOGDET: st = slogdet(kind, a, scalar); break;
  case DC_CHOLESKY: st = cholesky(kind, a, flags, out); break;
  case DC_EIGH: st = eigh(kind, a, flags, out); break;
  case DC_EIG: st = eig(kind, a, flags, out); break;
  case DC_SVD: st = svd(kind, a, flags, out); break;
  case DC_QR: st = qr(kind, a, flags, out); break;
  case DC_LSTSQ: st = lstsq(kind, a, b, ndb, p, flags, out, scalar); break;
  case DC_PINV: st = pinv(kind, a, p, flags, out); break;
  case DC_NORM: st = norm(kind, a, nda, p, flags, scalar); break;
  case DC_COND: st = cond(kind, a, p, flags, scalar); break;
  case DC_RANK: st = rank(kind, a, nda, p, flags, scalar); break;
  case DC_POWER: st = power(kind, a, p, out); break;
  case DC_ROOTS: st = roots(kind, a, out); break;
  default: st = cov(kind, a, nda, b, ndb, p, flags, out, scalar); break;
  }
  if (st)
    for (int i = 0; i < 4; i++)
      if (out[i].meminfo) rt_meminfo_free(out[i].meminfo), out[i].meminfo = NULL;
  return st;
}
