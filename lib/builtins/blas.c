/* blas.c — matrix products at run time (numpy.dot, matmul, @, inner,
 * vdot; see linalg.c for their typers and lowerers; numpy.outer is
 * arraymath.c's, a loop in compiled code).
 *
 * Every product becomes C = A B of strided matrices, C a new C-contiguous
 * array. Floats and complex numbers go to BLAS's gemm (gemv where A or B is a vector) through
 * the pointers the extension found in SciPy (scipy.linalg.cython_blas: an
 * OpenBLAS with the Fortran convention, every argument by pointer, the
 * one Numba calls too); a matrix BLAS cannot read as it is (no unit
 * stride, or negative, zero or overlapping strides) is copied first.
 * Integers and bools, which BLAS has no routine for, are multiplied by
 * plain loops that wrap as NumPy's do (bools: or of ands).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/blas.h"

typedef void (*Gemm)(const char *ta, const char *tb, const int *m, const int *n, const int *k, const void *alpha,
                     const void *a, const int *lda, const void *b, const int *ldb, const void *beta, void *c,
                     const int *ldc);

/* x . y of n elements (SciPy's wrappers return a complex one as C's) */
typedef float (*Sdot)(const int *n, const void *x, const int *incx, const void *y, const int *incy);
typedef double (*Ddot)(const int *n, const void *x, const int *incx, const void *y, const int *incy);
typedef float complex (*Cdot)(const int *n, const void *x, const int *incx, const void *y, const int *incy);
typedef double complex (*Zdot)(const int *n, const void *x, const int *incx, const void *y, const int *incy);

typedef void (*Gemv)(const char *t, const int *m, const int *n, const void *alpha, const void *a, const int *lda,
                     const void *x, const int *incx, const void *beta, void *y, const int *incy);

/* The routines, set once by the extension before compiled code runs,
 * named as SciPy's cython_blas and cython_lapack name them. */
static const char *const names[R_COUNT] = {"sgemm", "dgemm", "sgemv", "dgemv", "sgetrf", "dgetrf",
                                           "sgetrs", "dgetrs", "sgetri", "dgetri", "cgemm", "zgemm",
                                           "cgemv", "zgemv", "sdot", "ddot", "cdotu", "zdotu", "snrm2",
                                           "dnrm2", "scnrm2", "dznrm2", "dgesv", "zgesv", "zgetrf", "dsyevd",
                                           "zheevd", "dgesdd", "zgesdd", "dgeev", "zgeev", "dgeqrf",
                                           "zgeqrf", "dorgqr", "zungqr", "dpotrf", "zpotrf", "dgelsd",
                                           "zgelsd"};
static void *routines[R_COUNT];
static void *linalg_error;  /* numpy.linalg.LinAlgError, held by the extension */

const char *const la_blas_names[] = {"sgemm", "dgemm", "sgemv", "dgemv", "cgemm", "zgemm", "cgemv", "zgemv",
                                     "sdot",  "ddot",  "cdotu", "zdotu", "snrm2", "dnrm2", "scnrm2", "dznrm2", NULL};
const char *const la_lapack_names[] = {"sgetrf", "dgetrf", "sgetrs", "dgetrs", "sgetri", "dgetri", "dgesv",
                                       "zgesv", "zgetrf", "dsyevd", "zheevd", "dgesdd", "zgesdd", "dgeev",
                                       "zgeev", "dgeqrf", "zgeqrf", "dorgqr", "zungqr", "dpotrf", "zpotrf",
                                       "dgelsd", "zgelsd", NULL};

void rt_set_routine(const char *name, void *fn) {
  for (int i = 0; i < R_COUNT; i++)
    if (!strcmp(names[i], name)) __atomic_store_n(&routines[i], fn, __ATOMIC_RELEASE);
}

void rt_set_linalg_error(void *cls) { __atomic_store_n(&linalg_error, cls, __ATOMIC_RELEASE); }

void *la_routine(int r) { return __atomic_load_n(&routines[r], __ATOMIC_ACQUIRE); }

RtStatus la_missing(void) {
  rt_set_error(RT_ERR_RUNTIME, "linear algebra on floats needs SciPy's BLAS and LAPACK (scipy.linalg.cython_blas, "
                               "cython_lapack), which could not be loaded");
  return RT_ERR_RUNTIME;
}

RtStatus la_error(const char *msg) {
  void *cls = __atomic_load_n(&linalg_error, __ATOMIC_ACQUIRE);
  if (!cls) {
    rt_set_error(RT_ERR_VALUE, msg);
    return RT_ERR_VALUE;
  }
  rt_raise(cls, msg);
  return RT_ERR_RAISE;
}

/* A matrix: rows x cols elements, strides in bytes. */
typedef struct Mat {
  char *data;
  int64_t rows, cols, rs, cs;
} Mat;

static Mat row_of(const RtArray *v, int64_t n, int64_t stride) { return (Mat){v->data, 1, n, 0, stride}; }
static Mat column_of(const RtArray *v, int64_t n, int64_t stride) { return (Mat){v->data, n, 1, stride, 0}; }

/* ---------------------------------------------------------------- integer loops */

/* c (rows x cols, C order, zeroed) += a b, in the unsigned type of the
 * same width so that overflow wraps as NumPy's does. */
#define INT_PRODUCT(name, U)                                                                  \
  static void name(Mat a, Mat b, char *c) {                                                   \
    U *out = (U *)c;                                                                          \
    for (int64_t i = 0; i < a.rows; i++)                                                      \
      for (int64_t p = 0; p < a.cols; p++) {                                                  \
        U x = *(const U *)(a.data + i * a.rs + p * a.cs);                                     \
        const char *brow = b.data + p * b.rs;                                                 \
        U *crow = out + i * b.cols;                                                           \
        for (int64_t j = 0; j < b.cols; j++)                                                  \
          crow[j] = (U)(crow[j] + (uint64_t)x * *(const U *)(brow + j * b.cs));               \
      }                                                                                       \
  }

INT_PRODUCT(product_u8, uint8_t)
INT_PRODUCT(product_u16, uint16_t)
INT_PRODUCT(product_u32, uint32_t)
INT_PRODUCT(product_u64, uint64_t)

/* bools: c[i, j] is whether some a[i, p] and b[p, j] are both true */
static void bool_product(Mat a, Mat b, char *c) {
  for (int64_t i = 0; i < a.rows; i++)
    for (int64_t p = 0; p < a.cols; p++)
      if (a.data[i * a.rs + p * a.cs])
        for (int64_t j = 0; j < b.cols; j++) c[i * b.cols + j] |= b.data[p * b.rs + j * b.cs] != 0;
}

static void int_product(int kind, int itemsize, Mat a, Mat b, char *c) {
  if (kind == TY_BOOL) {
    bool_product(a, b, c);
    return;
  }
  switch (itemsize) {
  case 1: product_u8(a, b, c); break;
  case 2: product_u16(a, b, c); break;
  case 4: product_u32(a, b, c); break;
  default: product_u64(a, b, c); break;
  }
}

/* ---------------------------------------------------------------- BLAS */

/* A dimension of one element has no stride that matters: give it the one
 * that lets BLAS read the matrix as it is. */
static void normalise(Mat *m, int64_t item) {
  if (m->cols == 1) m->cs = item;
  if (m->rows == 1) m->rs = m->cs == item ? m->cols * item : item;
}

/* How gemm reads m as the transpose of a column-major matrix: 'N' where m
 * is row-major (ld its row stride), 'T' where it is column-major; false
 * where it is neither. */
static bool blas_layout(Mat m, int64_t item, char *trans, int *ld) {
  if (m.cs == item && m.rs > 0 && m.rs % item == 0 && m.rs >= m.cols * item && m.rs / item <= INT_MAX) {
    *trans = 'N', *ld = (int)(m.rs / item);
    return true;
  }
  if (m.rs == item && m.cs > 0 && m.cs % item == 0 && m.cs >= m.rows * item && m.cs / item <= INT_MAX) {
    *trans = 'T', *ld = (int)(m.cs / item);
    return true;
  }
  return false;
}

/* m copied into C order at buf (rows * cols elements). */
static Mat contiguous(Mat m, int64_t item, char *buf) {
  int64_t shape[2] = {m.rows, m.cols}, src[2] = {m.rs, m.cs}, dst[2] = {m.cols * item, item};
  rt_copy_strided(2, shape, buf, dst, m.data, src, item);
  return (Mat){buf, m.rows, m.cols, m.cols * item, item};
}

/* c = a b where one of them is a vector, by gemv: a x (b one column), or
 * b^T x (a one row). Each operand is laid out as blas_layout says. */
static void blas_vector(Gemv gemv, Mat a, char ta, int lda, Mat b, char tb, int ldb, const void *alpha,
                        const void *beta, char *c) {
  int k = (int)a.cols, one = 1;
  if (b.cols == 1) {
    char t = ta == 'N' ? 'T' : 'N';
    int rows = (int)a.rows, m = ta == 'N' ? k : rows, n = ta == 'N' ? rows : k, inc = tb == 'N' ? ldb : 1;
    gemv(&t, &m, &n, alpha, a.data, &lda, b.data, &inc, beta, c, &one);
  } else {
    int cols = (int)b.cols, m = tb == 'N' ? cols : k, n = tb == 'N' ? k : cols, inc = ta == 'N' ? 1 : lda;
    gemv(&tb, &m, &n, alpha, b.data, &ldb, a.data, &inc, beta, c, &one);
  }
}

/* c = a b of a row a and a column b, each read with a positive stride
 * that BLAS can take, by BLAS's dot, as NumPy's and Numba's: gemv sums
 * the same products in another order, which can differ in the last bit.
 * False where the strides do not fit (or the routine is missing). */
static bool blas_dot(int kind, Mat a, Mat b, char *c) {
  int64_t item = ty_plain[kind].bits / 8;
  if (a.cs <= 0 || b.rs <= 0 || a.cs % item || b.rs % item || a.cs / item > INT_MAX || b.rs / item > INT_MAX ||
      a.cols > INT_MAX)
    return false;
  int n = (int)a.cols, ia = (int)(a.cs / item), ib = (int)(b.rs / item);
  void *dot = la_routine((int[]){R_SDOT, R_DDOT, R_CDOTU, R_ZDOTU}[kind == TY_F32 ? 0 : kind == TY_F64 ? 1 : kind == TY_C64 ? 2 : 3]);
  if (!dot) return false;
  switch (kind) {
  case TY_F32: *(float *)c = ((Sdot)dot)(&n, a.data, &ia, b.data, &ib); break;
  case TY_F64: *(double *)c = ((Ddot)dot)(&n, a.data, &ia, b.data, &ib); break;
  case TY_C64: *(float complex *)c = ((Cdot)dot)(&n, a.data, &ia, b.data, &ib); break;
  default: *(double complex *)c = ((Zdot)dot)(&n, a.data, &ia, b.data, &ib); break;
  }
  return true;
}

/* x . x of n real elements of kind (float32 or float64) stride bytes
 * apart, by BLAS's dot, as NumPy's norm sums them; false where the stride
 * or n does not fit BLAS's ints, or the routine is missing. */
bool la_self_dot(int kind, const char *x, int64_t n, int64_t stride, double *r) {
  int64_t item = ty_plain[kind].bits / 8;
  void *dot = la_routine(kind == TY_F32 ? R_SDOT : R_DDOT);
  if (!dot || n > INT_MAX || stride <= 0 || stride % item || stride / item > INT_MAX) return false;
  int count = (int)n, inc = (int)(stride / item);
  *r = kind == TY_F32 ? ((Sdot)dot)(&count, x, &inc, x, &inc) : ((Ddot)dot)(&count, x, &inc, x, &inc);
  return true;
}

/* c = a b by gemm (gemv for a vector). Row-major c is column-major
 * c^T = b^T a^T, so b comes first and each operand is read transposed. */
static RtStatus blas_product(int kind, Mat a, Mat b, char *c) {
  int64_t item = ty_plain[kind].bits / 8;
  int which = kind == TY_F32 ? 0 : kind == TY_F64 ? 1 : kind == TY_C64 ? 2 : 3;  /* s, d, c, z */
  Gemm gemm = la_routine((int[]){R_SGEMM, R_DGEMM, R_CGEMM, R_ZGEMM}[which]);
  Gemv gemv = la_routine((int[]){R_SGEMV, R_DGEMV, R_CGEMV, R_ZGEMV}[which]);
  if (!gemm || !gemv) return la_missing();
  if (a.rows > INT_MAX || a.cols > INT_MAX || b.cols > INT_MAX) {
    rt_set_error(RT_ERR_VALUE, "matrix dimensions beyond 2**31 - 1 are not supported by BLAS");
    return RT_ERR_VALUE;
  }
  if (a.rows == 1 && b.cols == 1 && blas_dot(kind, a, b, c)) return RT_OK;
  normalise(&a, item);
  normalise(&b, item);
  char ta, tb;
  int lda, ldb;
  char *copy = NULL;
  bool fa = blas_layout(a, item, &ta, &lda), fb = blas_layout(b, item, &tb, &ldb);
  if (!fa || !fb) {
    size_t need = (size_t)((fa ? 0 : a.rows * a.cols) + (fb ? 0 : b.rows * b.cols)) * (size_t)item;
    if (!(copy = malloc(need))) {
      rt_set_error(RT_ERR_MEMORY, "cannot allocate a copy of a matrix");
      return RT_ERR_MEMORY;
    }
    if (!fa) blas_layout(a = contiguous(a, item, copy), item, &ta, &lda);
    if (!fb) blas_layout(b = contiguous(b, item, copy + (fa ? 0 : a.rows * a.cols * item)), item, &tb, &ldb);
  }
  int m = (int)b.cols, n = (int)a.rows, k = (int)a.cols, ldc = m;
  /* 1 and 0 of the element type (a complex one's imaginary part 0) */
  double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
  float onef[2] = {1.0f, 0.0f}, zerof[2] = {0.0f, 0.0f};
  bool single = kind == TY_F32 || kind == TY_C64;
  const void *alpha = single ? (const void *)onef : one, *beta = single ? (const void *)zerof : zero;
  if (a.rows == 1 || b.cols == 1) blas_vector(gemv, a, ta, lda, b, tb, ldb, alpha, beta, c);
  else gemm(&tb, &ta, &m, &n, &k, alpha, b.data, &ldb, a.data, &lda, beta, c, &ldc);
  free(copy);
  return RT_OK;
}

/* c (a.rows x b.cols, C order) = a b, of elements of kind. */
static RtStatus product(int kind, int64_t item, Mat a, Mat b, char *c) {
  if (a.rows == 0 || b.cols == 0) return RT_OK;
  if (a.cols == 0 || !(kind == TY_F32 || kind == TY_F64 || kind == TY_C64 || kind == TY_C128)) {
    memset(c, 0, (size_t)(a.rows * b.cols * item));
    if (a.cols) int_product(kind, (int)item, a, b, c);
    return RT_OK;
  }
  return blas_product(kind, a, b, c);
}

RtStatus la_product(int kind, const char *a, int64_t m, int64_t k, const int64_t *as, const char *b, int64_t n,
                    const int64_t *bs, char *c) {
  return product(kind, ty_plain[kind].bits / 8, (Mat){(char *)a, m, k, as[0], as[1]}, (Mat){(char *)b, k, n, bs[0], bs[1]},
                 c);
}

RtStatus la_square_product(int kind, const char *a, const char *b, char *c, int64_t n) {
  int64_t item = ty_plain[kind].bits / 8, strides[2] = {n * item, item};
  return la_product(kind, a, n, n, strides, b, n, strides, c);
}

/* ---------------------------------------------------------------- the products */

/* NumPy's messages */
static RtStatus not_aligned(const RtArray *a, int nda, const RtArray *b, int ndb, bool inner) {
  static _Thread_local char text[256];
  char sa[64], sb[64];
  int64_t b0 = ndb == 2 && inner ? b->shape[1] : b->shape[0];
  snprintf(sa, sizeof sa, nda == 1 ? "(%lld,)" : "(%lld,%lld)", (long long)a->shape[0], (long long)a->shape[1]);
  snprintf(sb, sizeof sb, ndb == 1 ? "(%lld,)" : "(%lld,%lld)", (long long)b0,
           (long long)(inner ? b->shape[0] : b->shape[1]));
  snprintf(text, sizeof text, "shapes %s and %s not aligned: %lld (dim %d) != %lld (dim 0)", sa, sb,
           (long long)a->shape[nda - 1], nda - 1, (long long)b0);
  rt_set_error(RT_ERR_VALUE, text);
  return RT_ERR_VALUE;
}

static RtStatus core_mismatch(int64_t kb, int64_t ka) {
  rt_error_format(RT_ERR_VALUE,
                  "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                  "(n?,k),(k,m?)->(n?,m?) (size %lld is different from %lld)",
                  kb, ka, 0, 0);
  return RT_ERR_VALUE;
}

/* "(2,3,4)->(2,newaxis,newaxis)": x's shape, and its stack's before its matrix */
static size_t remapped(char *text, size_t size, const RtArray *x, int nd) {
  size_t used = 0;
  for (int pass = 0; pass < 2; pass++) {
    int shown = pass ? nd - 2 : nd;
    used += (size_t)snprintf(text + used, size - used, pass ? "->(" : "(");
    for (int d = 0; d < shown && used < size; d++)
      used += (size_t)snprintf(text + used, size - used, d ? ",%lld" : "%lld", (long long)x->shape[d]);
    used += (size_t)snprintf(text + used, size - used, pass ? "%snewaxis,newaxis)" : ")", shown ? "," : "");
    if (used >= size) return size - 1;
  }
  return used;
}

static RtStatus batch_mismatch(const RtArray *a, int nda, const RtArray *b, int ndb, int64_t m, int64_t n) {
  static _Thread_local char text[1024];
  size_t used = (size_t)snprintf(text, sizeof text, "operands could not be broadcast together with remapped shapes "
                                                    "[original->remapped]: ");
  used += remapped(text + used, sizeof text - used, a, nda);
  used += (size_t)snprintf(text + used, sizeof text - used, " ");
  used += remapped(text + used, sizeof text - used, b, ndb);
  snprintf(text + used, sizeof text - used, "  and requested shape (%lld,%lld)", (long long)m, (long long)n);
  rt_set_error(RT_ERR_VALUE, text);
  return RT_ERR_VALUE;
}

/* The matrix a's last two dimensions make (a vector: one row), and b's
 * (a vector: one column; inner: b's transposed). */
static Mat left_of(const RtArray *a, int nd) {
  if (nd == 1) return row_of(a, a->shape[0], a->strides[0]);
  return (Mat){a->data, a->shape[nd - 2], a->shape[nd - 1], a->strides[nd - 2], a->strides[nd - 1]};
}

static Mat right_of(const RtArray *b, int nd, bool inner) {
  if (nd == 1) return column_of(b, b->shape[0], b->strides[0]);
  if (inner) return (Mat){b->data, b->shape[1], b->shape[0], b->strides[1], b->strides[0]};
  return (Mat){b->data, b->shape[nd - 2], b->shape[nd - 1], b->strides[nd - 2], b->strides[nd - 1]};
}

/* out: a new C-contiguous array of ndim dimensions. */
RtStatus la_new_result(RtArray *out, int ndim, const int64_t *shape, int64_t item) {
  int64_t size = item;
  bool over = false;  /* a size past int64 (an FFT's n=2**62) is a MemoryError too */
  for (int d = 0; d < ndim; d++) over |= __builtin_mul_overflow(size, shape[d], &size);
  RtMemInfo *mi = over ? NULL : rt_alloc(size);
  if (!mi) {
    rt_set_error(RT_ERR_MEMORY, "cannot allocate array");
    return RT_ERR_MEMORY;
  }
  *out = (RtArray){.meminfo = mi, .data = mi->data};
  int64_t stride = item;
  for (int d = ndim - 1; d >= 0; d--) {
    out->shape[d] = shape[d];
    out->strides[d] = stride;
    stride *= shape[d];
  }
  return RT_OK;
}

/* a as one dimension in C order: itself where its elements are evenly
 * spaced so, else a copy in *buf (to be freed). */
static RtStatus flattened(const RtArray *a, int nd, int64_t item, RtArray *flat, char **buf) {
  int64_t size = 1, expect = item;
  bool c_order = true;
  for (int d = nd - 1; d >= 0; d--) {
    c_order &= a->shape[d] == 1 || a->strides[d] == expect;
    expect *= a->shape[d];
    size *= a->shape[d];
  }
  *flat = (RtArray){.data = a->data, .shape = {size}, .strides = {nd == 1 ? a->strides[0] : item}};
  if (nd == 1 || c_order || size == 0) return RT_OK;
  if (!(*buf = malloc((size_t)(size * item)))) {
    rt_set_error(RT_ERR_MEMORY, "cannot allocate a copy of an array");
    return RT_ERR_MEMORY;
  }
  int64_t strides[RC_MAX_NDIM];
  int64_t s = item;
  for (int d = nd - 1; d >= 0; d--) strides[d] = s, s *= a->shape[d];
  rt_copy_strided(nd, a->shape, *buf, strides, a->data, a->strides, item);
  flat->data = *buf;
  return RT_OK;
}

/* a flat vector's complex conjugate, in *buf (which it may already be in) */
static RtStatus conjugated(RtArray *v, int kind, int64_t item, char **buf) {
  int64_t n = v->shape[0];
  if (!*buf) {
    if (!(*buf = malloc((size_t)(n ? n : 1) * (size_t)item))) {
      rt_set_error(RT_ERR_MEMORY, "cannot allocate a copy of an array");
      return RT_ERR_MEMORY;
    }
    int64_t to = item;
    rt_copy_strided(1, v->shape, *buf, &to, v->data, v->strides, item);
    v->data = *buf;
    v->strides[0] = item;
  }
  for (int64_t i = 0; i < n; i++) {
    if (kind == TY_C64) ((float *)*buf)[2 * i + 1] = -((float *)*buf)[2 * i + 1];
    else ((double *)*buf)[2 * i + 1] = -((double *)*buf)[2 * i + 1];
  }
  return RT_OK;
}

/* vdot: the product of a and b flattened (a's complex conjugate, as NumPy's). */
static RtStatus flat_product(int kind, int64_t item, const RtArray *a, int nda, const RtArray *b, int ndb,
                             char *scalar) {
  RtArray fa, fb;
  char *ba = NULL, *bb = NULL;
  RtStatus st = flattened(a, nda, item, &fa, &ba);
  if (!st) st = flattened(b, ndb, item, &fb, &bb);
  if (!st && ty_is_complex(&ty_plain[kind])) st = conjugated(&fa, kind, item, &ba);
  int64_t na = fa.shape[0], nb = fb.shape[0];
  if (!st && na != nb) {
    rt_error_format(RT_ERR_VALUE, "cannot reshape array of size %lld into shape (%lld,)", nb, na, 0, 0);
    st = RT_ERR_VALUE;
  }
  if (!st) st = product(kind, item, row_of(&fa, na, fa.strides[0]), column_of(&fb, nb, fb.strides[0]), scalar);
  free(ba);
  free(bb);
  return st;
}

/* The dimensions of nd's stack of matrices (none for a vector or matrix). */
static int stack_ndim(int nd) { return nd > 2 ? nd - 2 : 0; }

/* matmul of stacks: the dimensions before a's and b's matrices broadcast
 * as NumPy's (a plain matrix or vector has none), one product for each
 * index of the result's stack, in C order. */
static RtStatus batched(int kind, int64_t item, const RtArray *a, int nda, const RtArray *b, int ndb, RtArray *out) {
  Mat ma = left_of(a, nda), mb = right_of(b, ndb, false);
  int ka = stack_ndim(nda), kb = stack_ndim(ndb), k = ka > kb ? ka : kb, ndim = k;
  int64_t shape[RC_MAX_NDIM], sa[RC_MAX_NDIM], sb[RC_MAX_NDIM], count = 1;
  if (ma.cols != mb.rows) return core_mismatch(mb.rows, ma.cols);
  for (int d = 0; d < k; d++) {
    int da = d - (k - ka), db = d - (k - kb);
    int64_t la = da >= 0 ? a->shape[da] : 1, lb = db >= 0 ? b->shape[db] : 1;
    if (la != lb && la != 1 && lb != 1) return batch_mismatch(a, nda, b, ndb, ma.rows, mb.cols);
    shape[d] = la == 1 ? lb : la, count *= shape[d];
    sa[d] = la == 1 ? 0 : a->strides[da], sb[d] = lb == 1 ? 0 : b->strides[db];
  }
  if (nda >= 2) shape[ndim++] = ma.rows;
  if (ndb >= 2) shape[ndim++] = mb.cols;
  RtStatus st = la_new_result(out, ndim, shape, item);
  int64_t step = ma.rows * mb.cols * item;
  for (int64_t i = 0; i < count && !st; i++) {
    Mat x = ma, y = mb;
    for (int64_t d = k - 1, rest = i; d >= 0; rest /= shape[d--])
      x.data += rest % shape[d] * sa[d], y.data += rest % shape[d] * sb[d];
    st = product(kind, item, x, y, out->data + i * step);
  }
  return st;
}

/* out= of numpy.dot and matmul: the product r (nd dimensions, the first
 * stack of them a stack of matrices) copied into dest, which must have its
 * shape, and for dot be C-contiguous. */
static RtStatus into(int op, const RtArray *r, int nd, int stack, const RtArray *dest, int64_t item) {
  int64_t expect = item;
  bool c_order = true;
  for (int d = nd - 1; d >= 0; d--) {
    c_order &= dest->shape[d] == 1 || dest->strides[d] == expect;
    expect *= dest->shape[d];
  }
  if (op == LA_DOT && !c_order) {
    rt_set_error(RT_ERR_VALUE, "output array is not acceptable (must have the right datatype, number of dimensions, "
                               "and be a C-Array)");
    return RT_ERR_VALUE;
  }
  for (int d = 0; d < nd; d++) {
    if (dest->shape[d] == r->shape[d]) continue;
    if (op == LA_DOT) {
      rt_set_error(RT_ERR_VALUE, "output array has wrong dimensions");
    } else if (d < stack) {
      int64_t desc[2 * RC_MAX_NDIM + 2] = {nd};
      for (int i = 0; i < nd; i++) desc[1 + i] = dest->shape[i], desc[2 + nd + i] = r->shape[i];
      desc[1 + nd] = nd;
      rt_shape_error(1, desc);
    } else {
      rt_error_format(RT_ERR_VALUE,
                      "matmul: Output operand 0 has a mismatch in its core dimension %lld, with gufunc signature "
                      "(n?,k),(k,m?)->(n?,m?) (size %lld is different from %lld)",
                      d - stack, dest->shape[d], r->shape[d], 0);
    }
    return RT_ERR_VALUE;
  }
  rt_copy_strided(nd, r->shape, dest->data, dest->strides, r->data, r->strides, item);
  return RT_OK;
}

/* numpy.dot, matmul, inner, vdot of a and b (nda, ndb dimensions,
 * both of elements of kind): a new array in out (or dest filled, where
 * out= is given), or the one element of a product of vectors at scalar.
 * Returns the status, the message recorded. */
int32_t rt_matrix_product(int32_t op, int32_t kind, const RtArray *a, int32_t nda, const RtArray *b, int32_t ndb,
                          RtArray *out, void *scalar, const RtArray *dest) {
  int64_t item = ty_plain[kind].bits / 8;
  out->meminfo = NULL;
  if (op == LA_VDOT) return flat_product(kind, item, a, nda, b, ndb, scalar);
  RtStatus st;
  int stack = stack_ndim(nda) > stack_ndim(ndb) ? stack_ndim(nda) : stack_ndim(ndb);
  int nd = stack + (nda >= 2) + (ndb >= 2);
  if (stack) {
    st = batched(kind, item, a, nda, b, ndb, out);
  } else {
    bool inner = op == LA_INNER;
    Mat ma = left_of(a, nda), mb = right_of(b, ndb, inner);
    if (ma.cols != mb.rows)
      return op == LA_MATMUL ? core_mismatch(mb.rows, ma.cols) : not_aligned(a, nda, b, ndb, inner);
    if (nd == 0) return product(kind, item, ma, mb, scalar);
    int64_t shape[2], ndim = 0;
    if (nda == 2) shape[ndim++] = ma.rows;
    if (ndb == 2) shape[ndim++] = mb.cols;
    st = la_new_result(out, (int)ndim, shape, item);
    if (!st) st = product(kind, item, ma, mb, out->data);
  }
  if (!st && dest) st = into(op, out, nd, stack, dest, item);
  if ((st || dest) && out->meminfo) rt_meminfo_free(out->meminfo);
  return st;
}
