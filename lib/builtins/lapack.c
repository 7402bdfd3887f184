/* lapack.c — numpy.linalg.solve, inv and det of float32 matrices at run
 * time, by LAPACK's LU factorisation (getrf, then getrs or getri) through
 * the pointers the extension found in SciPy's cython_lapack (complex and
 * float64 ones are decomp_rt.c's la_gesv_linalg, NumPy's way to the bit).
 *
 * LAPACK reads matrices in column-major order. A C-ordered copy of a is a
 * column-major a^T, and a^T's LU serves as well as a's: getrs solves
 * (a^T)^T x = b when asked for the transpose, getri's inverse of a^T is
 * a^-1 in C order, and det a^T = det a.
 */
#include <stdlib.h>
#include <string.h>

#include "builtins/blas.h"

typedef void (*Getrf)(const int *m, const int *n, void *a, const int *lda, int *ipiv, int *info);
typedef void (*Getrs)(const char *t, const int *n, const int *nrhs, const void *a, const int *lda, const int *ipiv,
                      void *b, const int *ldb, int *info);
typedef void (*Getri)(const int *n, void *a, const int *lda, const int *ipiv, void *work, const int *lwork,
                      int *info);

/* a's n x n elements copied into dst, in C order. */
static void copy_matrix(const RtArray *a, char *dst, int64_t item) {
  int64_t strides[2] = {a->shape[1] * item, item};
  rt_copy_strided(2, a->shape, dst, strides, a->data, a->strides, item);
}

/* Whether a is square, else LinAlgError as NumPy's. */
static RtStatus square(const RtArray *a) {
  if (a->shape[0] != a->shape[1]) return la_error("Last 2 dimensions of the array must be square");
  if (a->shape[0] > 46340) {  /* n * n elements must fit LAPACK's int */
    rt_set_error(RT_ERR_VALUE, "matrices beyond 46340 x 46340 are not supported by LAPACK");
    return RT_ERR_VALUE;
  }
  return RT_OK;
}

/* lu (n x n, C order) factorised in place; ipiv its pivots. */
static RtStatus factorise(int kind, char *lu, int n, int *ipiv, bool *singular) {
  Getrf getrf = la_routine(kind == TY_F32 ? R_SGETRF : R_DGETRF);
  if (!getrf) return la_missing();
  int info = 0, ld = n > 1 ? n : 1;
  getrf(&n, &n, lu, &ld, ipiv, &info);
  *singular = info > 0;
  return RT_OK;
}

/* numpy.linalg.det: the product of U's diagonal, negated by each row swap. */
static RtStatus det(int kind, const RtArray *a, void *scalar) {
  int64_t item = kind == TY_F32 ? 4 : 8, n = a->shape[0];
  char *lu = malloc((size_t)(n * n * item + 1));
  int *ipiv = malloc(sizeof(int) * (size_t)(n + 1));
  bool singular = false;
  RtStatus st = lu && ipiv ? RT_OK : RT_ERR_MEMORY;
  if (st) rt_set_error(st, "cannot allocate a copy of a matrix");
  if (!st) copy_matrix(a, lu, item), st = factorise(kind, lu, (int)n, ipiv, &singular);
  double d = 1.0;
  for (int64_t i = 0; !st && i < n; i++) {
    d *= kind == TY_F32 ? ((float *)lu)[i * n + i] : ((double *)lu)[i * n + i];
    if (ipiv[i] != i + 1) d = -d;
  }
  if (singular) d = 0.0;
  if (kind == TY_F32) *(float *)scalar = (float)d;
  else *(double *)scalar = d;
  free(lu);
  free(ipiv);
  return st;
}

/* numpy.linalg.inv: getri of a's LU, computed in the result itself. */
static RtStatus inv(int kind, const RtArray *a, RtArray *out) {
  int64_t item = kind == TY_F32 ? 4 : 8;
  int n = (int)a->shape[0], ld = n > 1 ? n : 1, info = 0, lwork = -1;
  Getri getri = la_routine(kind == TY_F32 ? R_SGETRI : R_DGETRI);
  RtStatus st = la_new_result(out, 2, a->shape, item);
  if (st || n == 0) return st;
  int *ipiv = malloc(sizeof(int) * (size_t)n);
  bool singular = false;
  if (!ipiv) rt_set_error(st = RT_ERR_MEMORY, "cannot allocate pivots");
  if (!st && !getri) st = la_missing();
  if (!st) copy_matrix(a, out->data, item), st = factorise(kind, out->data, n, ipiv, &singular);
  if (!st && singular) st = la_error("Singular matrix");
  union { float f; double d; } query = {.d = 0};
  if (!st) getri(&n, out->data, &ld, ipiv, &query, &lwork, &info);  /* asks the best workspace */
  lwork = !st ? (int)(kind == TY_F32 ? query.f : query.d) : 0;
  if (lwork < n) lwork = n;
  void *work = !st ? malloc((size_t)lwork * (size_t)item) : NULL;
  if (!st && !work) rt_set_error(st = RT_ERR_MEMORY, "cannot allocate workspace");
  if (!st) getri(&n, out->data, &ld, ipiv, work, &lwork, &info);
  if (!st && info > 0) st = la_error("Singular matrix");
  free(work);
  free(ipiv);
  if (st) rt_meminfo_free(out->meminfo), out->meminfo = NULL;
  return st;
}

static RtStatus solve_mismatch(bool vector, int64_t nb, int64_t na) {
  rt_error_format(RT_ERR_VALUE,
                  vector ? "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                           "(m,m),(m)->(m) (size %lld is different from %lld)"
                         : "solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                           "(m,m),(m,n)->(m,n) (size %lld is different from %lld)",
                  nb, na, 0, 0);
  return RT_ERR_VALUE;
}

/* numpy.linalg.solve: b's columns solved by getrs in a column-major copy,
 * copied into the C-ordered result. */
static RtStatus solve(int kind, const RtArray *a, const RtArray *b, int ndb, RtArray *out) {
  int64_t item = kind == TY_F32 ? 4 : 8, n = a->shape[0], k = ndb == 2 ? b->shape[1] : 1;
  if (b->shape[0] != n) return solve_mismatch(ndb == 1, b->shape[0], n);
  Getrs getrs = la_routine(kind == TY_F32 ? R_SGETRS : R_DGETRS);
  RtStatus st = la_new_result(out, ndb, b->shape, item);
  if (st || n == 0 || k == 0) return st;
  char *lu = malloc((size_t)(n * n * item)), *x = malloc((size_t)(n * k * item));
  int *ipiv = malloc(sizeof(int) * (size_t)n);
  bool singular = false;
  if (!lu || !x || !ipiv) rt_set_error(st = RT_ERR_MEMORY, "cannot allocate a copy of a matrix");
  if (!st && !getrs) st = la_missing();
  if (!st) copy_matrix(a, lu, item), st = factorise(kind, lu, (int)n, ipiv, &singular);
  if (!st && singular) st = la_error("Singular matrix");
  int64_t shape[2] = {n, k}, column_major[2] = {item, n * item};
  int64_t src[2] = {b->strides[0], ndb == 2 ? b->strides[1] : 0};
  if (!st) {
    rt_copy_strided(2, shape, x, column_major, b->data, src, item);
    int ni = (int)n, nrhs = (int)k, info = 0;
    getrs("T", &ni, &nrhs, lu, &ni, ipiv, x, &ni, &info);
    int64_t dst[2] = {ndb == 2 ? k * item : item, item};
    rt_copy_strided(2, shape, out->data, dst, x, column_major, item);
  }
  free(lu);
  free(x);
  free(ipiv);
  if (st) rt_meminfo_free(out->meminfo), out->meminfo = NULL;
  return st;
}

/* numpy.linalg.solve, inv, det (op) of a (a square matrix, elements of
 * kind, a float) and b: a new array in out, or det's number at scalar
 * (rt_matrix_product's arguments; no out= yet, so no dest). */
int32_t rt_linalg(int32_t op, int32_t kind, const RtArray *a, int32_t nda, const RtArray *b, int32_t ndb,
                  RtArray *out, void *scalar, const RtArray *dest) {
  out->meminfo = NULL;
  RtStatus st = square(a);
  if (st) return st;
  bool as_numpy = ty_is_complex(&ty_plain[kind]) || kind == TY_F64;  /* (float32: in float32, below) */
  if (as_numpy && (op != LA_SOLVE || b->shape[0] == a->shape[0])) return la_gesv_linalg(op, kind, a, b, ndb, out, scalar);
  if (op == LA_DET) return det(kind, a, scalar);
  if (op == LA_INV) return inv(kind, a, out);
  return solve(kind, a, b, ndb, out);
}
