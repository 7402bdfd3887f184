/* builtins/mvnormal_rt.c — numpy.random.Generator.multivariate_normal at
 * run time, in NumPy's order: its checks, the standard normals drawn
 * (generator.c), a factor A of the covariance with A A^T = cov by the
 * method asked (numpy.linalg's SVD, eigh or Cholesky, through decomp_rt.c
 * and LAPACK), NumPy's test that cov is symmetric positive-semidefinite
 * (a warning or an error, as check_valid says), then mean + x A^T by
 * BLAS. The typer and lowerer are builtins/random.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/blas.h"

static RtStatus mv_error(const char *msg) {
  rt_set_error(RT_ERR_VALUE, msg);
  return RT_ERR_VALUE;
}

/* The decomposition's arrays (rt_decomp's results) freed. */
static void release_all(RtArray *parts) {
  for (int i = 0; i < 4; i++)
    if (parts[i].meminfo) rt_meminfo_free(parts[i].meminfo), parts[i].meminfo = NULL;
}

/* NumPy's test of the SVD u s vh of cov: (vh^T s) vh close to cov within
 * tol (relative and absolute, NaN never close). */
static bool svd_reproduces(const double *vh, const double *s, const double *cov, int64_t n, double tol) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      double m = 0.0;
      for (int64_t k = 0; k < n; k++) m += vh[k * n + i] * s[k] * vh[k * n + j];
      double c = cov[i * n + j];
      if (!(fabs(m - c) <= tol + tol * fabs(c))) return false;
    }
  return true;
}

/* The factor into a (n x n, C order) by method, and in *psd whether cov
 * passed NumPy's test (the SVD's or eigh's; Cholesky's fails instead). */
static RtStatus factor_of(const double *cov, int64_t n, int method, double tol, double *a, bool *psd) {
  RtArray c = {.data = (char *)cov, .shape = {n, n}, .strides = {n * 8, 8}}, parts[4];
  double scalar[4];
  static const int ops[] = {DC_SVD, DC_EIGH, DC_CHOLESKY};
  static const int flags[] = {LF_VECTORS | LF_FULL, LF_VECTORS, 0};
  RtStatus st = rt_decomp(ops[method], TY_F64, &c, 2, NULL, 0, 0.0, flags[method], parts, scalar);
  if (st) return st;
  *psd = true;
  if (method == MV_CHOLESKY) {
    memcpy(a, parts[0].data, (size_t)(n * n) * sizeof *a);
  } else {
    const double *u = (const double *)parts[0].data;
    double *s = (double *)parts[1].data;
    if (method == MV_EIGH) u = (const double *)parts[1].data, s = (double *)parts[0].data;
    if (method == MV_SVD) *psd = svd_reproduces((const double *)parts[2].data, s, cov, n, tol);
    for (int64_t k = 0; k < n; k++) {  /* the roots (eigh's of |w|: no NaN for a tiny negative one) */
      if (method == MV_EIGH && s[k] < -tol) *psd = false;
      s[k] = sqrt(method == MV_EIGH ? fabs(s[k]) : s[k]);
    }
    for (int64_t i = 0; i < n; i++)  /* u's columns times the roots */
      for (int64_t k = 0; k < n; k++) a[i * n + k] = u[i * n + k] * s[k];
  }
  release_all(parts);
  return RT_OK;
}

/* NumPy's check_valid on a covariance that failed the test. */
static RtStatus not_valid(int check) {
  static const char msg[] = "covariance is not symmetric positive-semidefinite.";
  if (check == CV_WARN) return (RtStatus)rt_warn("RuntimeWarning", msg);
  return mv_error(msg);
}

/* rows draws of n values into out, of mean (n) and cov (cov_rows x
 * cov_cols, C-ordered doubles). */
int32_t rt_generator_multivariate_normal(void *bitgen, const double *mean, int64_t n, const double *cov,
                                         int64_t cov_rows, int64_t cov_cols, int32_t method, int32_t check,
                                         double tol, double *out, int64_t rows) {
  if (method == MV_BAD_METHOD) return mv_error("method must be one of {'eigh', 'svd', 'cholesky'}");
  if (cov_rows != cov_cols) return mv_error("cov must be 2 dimensional and square");
  if (n != cov_rows) return mv_error("mean and cov must have same length");
  if (n == 0) return mv_error("cannot reshape array of size 0 into shape (0)");  /* NumPy's x.reshape(-1, 0) */
  double *x = malloc((size_t)(rows * n + n * n + 1) * sizeof *x), *a = x + rows * n, standard[3] = {0.0, 1.0, 0.0};
  if (!x) {
    rt_set_error(RT_ERR_MEMORY, "out of memory");
    return RT_ERR_MEMORY;
  }
  RtStatus st = rt_generator_draw(bitgen, RD_NORMAL, standard, x, rows * n);
  bool psd = true;
  if (!st) st = factor_of(cov, n, method, tol, a, &psd);
  if (!st && method != MV_CHOLESKY && check != CV_IGNORE) {
    if (check == CV_BAD) st = mv_error("check_valid must equal 'warn', 'raise', or 'ignore'");
    else if (!psd) st = not_valid(check);
  }
  int64_t xs[2] = {n * 8, 8}, at[2] = {8, n * 8};  /* x by rows; a read transposed */
  if (!st) st = la_product(TY_F64, (const char *)x, rows, n, xs, (const char *)a, n, at, (char *)out);
  for (int64_t r = 0; !st && r < rows; r++)
    for (int64_t i = 0; i < n; i++) out[r * n + i] = mean[i] + out[r * n + i];
  free(x);
  return st;
}
