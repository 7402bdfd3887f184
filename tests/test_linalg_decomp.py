"""numpy.linalg's decompositions and what is built on them (slogdet,
cholesky, eigh, eigvalsh, eig, eigvals, svd, qr, lstsq, pinv, norm, cond,
matrix_rank, matrix_power), complex solve/inv/det, numpy.cov and corrcoef,
against NumPy on generated matrices: random, ill-conditioned, singular,
empty, in C, Fortran, strided and reversed layouts, of float32, float64,
complex64, complex128 (and ints, which compute in float64).

Both compute in double precision through LAPACK, so values agree to a few
ulps of the result's dtype times the matrix's size. Where a decomposition
is not unique (eigenvectors, singular vectors, Q of QR: each up to a sign
or phase), its defining identities are checked instead (A V = V W,
U S Vh = A, Q R = A, orthonormal columns) and its values against NumPy's."""
import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, NUMPY1, make_rng, numpy2_only

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba lacks NumPy 2's arguments here (cholesky's upper=, qr's "
                                "mode=, svd's compute_uv=, ...), int matrices, and words its errors otherwise")

REALS = [np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
DTYPES = REALS + COMPLEX
LAYOUTS = ["C", "F", "strided", "reversed"]


def ids(d):
    return np.dtype(d).name


def laid_out(a, layout):
    """a's values in a view of the given layout."""
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "C":
        return np.ascontiguousarray(a)
    big = np.zeros(tuple(2 * s + 1 for s in a.shape), a.dtype)
    if layout == "strided":
        v = big[tuple(slice(1, None, 2) for _ in a.shape)]
    else:
        v = big[tuple(slice(-2, None, -2) for _ in a.shape)]
    v[...] = a
    return v


def random_matrix(rng, dtype, shape, layout="C"):
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return laid_out(a.astype(dtype), layout)


def ill_conditioned(rng, dtype, n, cond=1e10):
    """Q diag(s) Q' with singular values spread over cond."""
    q1, _ = np.linalg.qr(random_matrix(rng, np.complex128 if np.dtype(dtype).kind == "c" else np.float64, (n, n)))
    q2, _ = np.linalg.qr(rng.standard_normal((n, n)))
    return ((q1 * np.logspace(0, -np.log10(cond), n)) @ q2).astype(dtype)


def hermitian(rng, dtype, n, layout="C", definite=False):
    a = random_matrix(rng, np.complex128 if np.dtype(dtype).kind == "c" else np.float64, (n, n))
    h = a @ a.conj().T + n * np.eye(n) if definite else a + a.conj().T
    return laid_out(h.astype(dtype), layout)


def tolerance(dtype, n, scale=1.0):
    return 64 * np.finfo(dtype).eps * max(1, n) * max(1.0, scale)


def assert_close(got, expected, n, what, scale=None, dtype=None):
    """within a few ulps (of dtype, by default expected's) times n of the
    largest expected magnitude; infinities and NaNs where expected has them"""
    expected = np.asarray(expected)
    got = np.asarray(got)
    assert got.shape == expected.shape, f"{what}: shape {got.shape} != {expected.shape}"
    if expected.size == 0:
        return
    finite = np.isfinite(expected)
    assert np.array_equal(got[~finite], expected[~finite], equal_nan=True), f"{what}: {got} != {expected}"
    got, expected = got[finite], expected[finite]
    if expected.size == 0:
        return
    if scale is None:
        scale = float(np.max(np.abs(expected)))
    err = float(np.max(np.abs(got.astype(np.complex128) - expected.astype(np.complex128))))
    if dtype is None:
        dtype = expected.dtype if expected.dtype.kind in "fc" else np.float64
    assert err <= tolerance(dtype, n, scale), \
        f"{what}: {got} != {expected} (err {err})"


def assert_same_dtype(got, expected, what):
    """arrays of the same dtype (numbers come back as Python's)"""
    if not isinstance(got, np.ndarray):
        return
    assert np.asarray(got).dtype == np.asarray(expected).dtype, f"{what}: {np.asarray(got).dtype} != {np.asarray(expected).dtype}"


# ---------------------------------------------------------------- compiled functions

@ruchey.njit
def slogdet(a):
    return np.linalg.slogdet(a)


@ruchey.njit
def det(a):
    return np.linalg.det(a)


@ruchey.njit
def inv(a):
    return np.linalg.inv(a)


@ruchey.njit
def solve(a, b):
    return np.linalg.solve(a, b)


@ruchey.njit
def cholesky(a):
    return np.linalg.cholesky(a)


@ruchey.njit
def cholesky_upper(a, upper):
    return np.linalg.cholesky(a, upper=upper)


@ruchey.njit
def eigh(a):
    return np.linalg.eigh(a)


@ruchey.njit
def eigh_upper(a):
    return np.linalg.eigh(a, UPLO="U")


@ruchey.njit
def eigvalsh(a):
    return np.linalg.eigvalsh(a)


@ruchey.njit
def eigvalsh_upper(a):
    return np.linalg.eigvalsh(a, "U")


@ruchey.njit
def eig(a):
    return np.linalg.eig(a)


@ruchey.njit
def eigvals(a):
    return np.linalg.eigvals(a)


@ruchey.njit
def svd(a):
    return np.linalg.svd(a)


@ruchey.njit
def svd_reduced(a):
    return np.linalg.svd(a, full_matrices=False)


@ruchey.njit
def svd_full_at_run_time(a, full):
    return np.linalg.svd(a, full)


@ruchey.njit
def svd_values(a):
    return np.linalg.svd(a, compute_uv=False)


@ruchey.njit
def qr(a):
    return np.linalg.qr(a)


@ruchey.njit
def qr_complete(a):
    return np.linalg.qr(a, mode="complete")


@ruchey.njit
def qr_r(a):
    return np.linalg.qr(a, mode="r")


@ruchey.njit
def lstsq(a, b):
    return np.linalg.lstsq(a, b)


@ruchey.njit
def lstsq_rcond(a, b, rcond):
    return np.linalg.lstsq(a, b, rcond=rcond)


@ruchey.njit
def pinv(a):
    return np.linalg.pinv(a)


@ruchey.njit
def pinv_rcond(a, rcond):
    return np.linalg.pinv(a, rcond)


@ruchey.njit
def norm(x):
    return np.linalg.norm(x)


@ruchey.njit
def norm_ord(x, ord):
    return np.linalg.norm(x, ord)


@ruchey.njit
def norm_fro(x):
    return np.linalg.norm(x, "fro")


@ruchey.njit
def norm_nuc(x):
    return np.linalg.norm(x, ord="nuc")


@ruchey.njit
def cond(x):
    return np.linalg.cond(x)


@ruchey.njit
def cond_p(x, p):
    return np.linalg.cond(x, p)


@ruchey.njit
def cond_fro(x):
    return np.linalg.cond(x, "fro")


@ruchey.njit
def matrix_rank(a):
    return np.linalg.matrix_rank(a)


@ruchey.njit
def matrix_rank_tol(a, tol):
    return np.linalg.matrix_rank(a, tol)


@ruchey.njit
def matrix_power(a, n):
    return np.linalg.matrix_power(a, n)


# ---------------------------------------------------------------- slogdet, complex solve, inv, det

@pytest.mark.parametrize("dtype", DTYPES + [np.int64], ids=ids)
@pytest.mark.parametrize("n", [0, 1, 2, 5, 17])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_slogdet_matches_numpy(dtype, n, layout):
    rng = make_rng(n * 13 + len(layout))
    a = laid_out((random_matrix(rng, np.float64, (n, n)) * 4).astype(dtype), layout) if dtype == np.int64 \
        else random_matrix(rng, dtype, (n, n), layout)
    sign, logdet = slogdet(a)
    esign, elogdet = np.linalg.slogdet(a)
    what = f"slogdet {np.dtype(dtype).name} {n} {layout}"
    assert_close(sign, esign, n, what + " sign")
    assert_close(logdet, elogdet, n, what + " logdet", scale=1 + abs(float(elogdet)))
    assert type(sign) is (complex if np.dtype(dtype).kind == "c" else float)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_slogdet_of_singular_and_ill_conditioned_matrices(dtype):
    rng = make_rng(5)
    for a in [np.ones((3, 3), dtype), np.zeros((4, 4), dtype), ill_conditioned(rng, dtype, 6)]:
        sign, logdet = slogdet(a)
        esign, elogdet = np.linalg.slogdet(a)
        if esign == 0:
            assert sign == 0 and logdet == -np.inf
        else:
            assert_close(sign, esign, 6, "sign")
            assert abs(logdet - elogdet) <= 1e-3 * abs(elogdet)


def test_slogdet_of_nan_is_numpys():
    for a in [np.full((2, 2), np.nan), np.array([[np.nan, 1.0], [2.0, -3.0]])]:
        assert np.array_equal(slogdet(a), np.linalg.slogdet(a), equal_nan=True)


@pytest.mark.parametrize("dtype", COMPLEX, ids=ids)
@pytest.mark.parametrize("n", [0, 1, 3, 12])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_complex_solve_inv_det_match_numpy(dtype, n, layout):
    rng = make_rng(n + 40)
    a = laid_out(random_matrix(rng, dtype, (n, n)) + (2 * n * np.eye(n)).astype(dtype), layout)
    b, bm = random_matrix(rng, dtype, (n,), layout), random_matrix(rng, dtype, (n, 2), layout)
    for got, expected, what in [(solve(a, b), np.linalg.solve(a, b), "solve"), (solve(a, bm), np.linalg.solve(a, bm), "solve 2-d"),
                                (inv(a), np.linalg.inv(a), "inv"), (det(a), np.linalg.det(a), "det")]:
        assert_same_dtype(got, expected, what)
        assert_close(got, expected, n, f"{what} {n} {layout}")


def test_complex_inverse_of_a_singular_matrix_is_numpys_linalg_error():
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        inv(np.ones((3, 3), np.complex128))
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        solve(np.zeros((2, 2), np.complex64), np.ones(2, np.complex64))


# ---------------------------------------------------------------- cholesky

@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("n", [0, 1, 4, 20])
@pytest.mark.parametrize("layout", LAYOUTS)
@numpy2_only  # NumPy 1.x's cholesky has no upper=
def test_cholesky_matches_numpy(dtype, n, layout):
    a = hermitian(make_rng(n), dtype, n, layout, definite=True)
    got, expected = cholesky(a), np.linalg.cholesky(a)
    assert_same_dtype(got, expected, "cholesky")
    assert_close(got, expected, n, f"cholesky {n} {layout}")
    assert np.array_equal(got, np.tril(got))
    assert_close(cholesky_upper(a, True), np.linalg.cholesky(a, upper=True), n, "upper")
    assert_close(cholesky_upper(a, False), expected, n, "upper=False")


def test_cholesky_of_a_matrix_not_positive_definite_is_numpys_linalg_error():
    for a in [np.array([[1.0, 2.0], [2.0, 1.0]]), -np.eye(3), np.ones((2, 3))]:
        with pytest.raises(np.linalg.LinAlgError) as expected:
            np.linalg.cholesky(a)
        with pytest.raises(np.linalg.LinAlgError) as got:
            cholesky(a)
        assert str(got.value) == str(expected.value)


# ---------------------------------------------------------------- eigh, eigvalsh

def assert_eigen_pairs(a, w, v, n, what):
    """a v = v diag(w), columns of v unit length (to v's precision)."""
    dtype = np.asarray(v).dtype
    a = np.asarray(a, np.complex128)
    scale = max(1.0, float(np.max(np.abs(a)))) if a.size else 1.0
    assert_close(a @ v, v * w, n, what + " A v = v w", scale=scale, dtype=dtype)
    assert_close(np.linalg.norm(np.asarray(v, np.complex128), axis=0), np.ones(n), n, what + " |v| = 1", dtype=dtype)


@pytest.mark.parametrize("dtype", DTYPES + [np.int32], ids=ids)
@pytest.mark.parametrize("n", [0, 1, 3, 16])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_eigh_matches_numpy(dtype, n, layout):
    rng = make_rng(n * 3 + len(layout))
    a = laid_out(np.round(hermitian(rng, np.float64, n) * 3).astype(dtype), layout) if dtype == np.int32 \
        else hermitian(rng, dtype, n, layout)
    w, v = eigh(a)
    ew, ev = np.linalg.eigh(a)
    what = f"eigh {np.dtype(dtype).name} {n} {layout}"
    assert_same_dtype(w, ew, what)
    assert_same_dtype(v, ev, what)
    assert_close(w, ew, n, what)
    assert_eigen_pairs(a, w, v, n, what)
    assert_close(np.asarray(v).conj().T @ v, np.eye(n), n, what + " orthonormal", dtype=v.dtype)
    assert_close(eigvalsh(a), np.linalg.eigvalsh(a), n, "eigvalsh " + what)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_eigh_reads_the_triangle_uplo_names(dtype):
    a = random_matrix(make_rng(2), dtype, (5, 5))  # not Hermitian: each triangle gives other values
    assert_close(eigvalsh(a), np.linalg.eigvalsh(a), 5, "L")
    assert_close(eigvalsh_upper(a), np.linalg.eigvalsh(a, UPLO="U"), 5, "U")
    assert_close(eigh_upper(a)[0], np.linalg.eigh(a, UPLO="U")[0], 5, "eigh U")


def test_eigh_of_an_ill_conditioned_matrix_matches_numpy():
    a = ill_conditioned(make_rng(1), np.float64, 8)
    a = a @ a.T
    assert_close(eigvalsh(a), np.linalg.eigvalsh(a), 8, "eigvalsh")


# ---------------------------------------------------------------- eig, eigvals

def assert_same_values(got, expected, n, what):
    """got is expected in some order (each matched to its nearest)."""
    got, expected = list(np.asarray(got, np.complex128)), list(np.asarray(expected, np.complex128))
    assert len(got) == len(expected), what
    scale = max([1.0] + [abs(x) for x in expected])
    for g in got:
        i = int(np.argmin([abs(g - e) for e in expected]))
        assert abs(g - expected[i]) <= 1e3 * tolerance(np.float64, n, scale), f"{what}: {g} not in {expected}"
        expected.pop(i)


@pytest.mark.parametrize("dtype", COMPLEX + [np.float64, np.float32], ids=ids)
@pytest.mark.parametrize("n", [0, 1, 4, 12])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_eig_matches_numpy(dtype, n, layout):
    rng = make_rng(n * 5 + len(layout))
    if np.dtype(dtype).kind == "c":
        a = random_matrix(rng, dtype, (n, n), layout)
    else:  # real eigenvalues: a similar to a diagonal matrix
        p = rng.standard_normal((n, n)) + n * np.eye(n)
        a = laid_out((p @ np.diag(np.arange(1.0, n + 1)) @ np.linalg.inv(p)).astype(dtype), layout)
    w, v = eig(a)
    ew, ev = np.linalg.eig(a)
    what = f"eig {np.dtype(dtype).name} {n} {layout}"
    assert np.asarray(w).dtype == np.dtype(dtype) and np.asarray(v).dtype == np.dtype(dtype), what
    tol = 1e-3 if dtype in (np.float32, np.complex64) else 1e-9
    if dtype in (np.float64, np.complex128):
        assert_same_values(w, ew, n, what)
    if n:
        assert np.allclose(np.sort_complex(np.asarray(w, np.complex128)), np.sort_complex(ew.astype(np.complex128)),
                           rtol=tol, atol=tol * n)
        a128 = np.asarray(a, np.complex128)
        assert np.allclose(a128 @ v, np.asarray(v) * w, rtol=tol, atol=tol * n * np.abs(a128).max()), what
    wv = eigvals(a)
    assert np.asarray(wv).dtype == np.dtype(dtype)
    assert np.allclose(np.sort_complex(np.asarray(wv, np.complex128)), np.sort_complex(np.asarray(w, np.complex128)),
                       rtol=tol, atol=tol)


def test_eig_of_a_real_matrix_with_complex_eigenvalues_is_a_value_error_as_numbas():
    rotation = np.array([[0.0, -1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match="must not cause a domain change"):
        eig(rotation)
    with pytest.raises(ValueError, match="must not cause a domain change"):
        eigvals(rotation)
    w, v = eig(rotation.astype(np.complex128))
    assert_same_values(w, [1j, -1j], 2, "complex")


# ---------------------------------------------------------------- svd

SHAPES = [(0, 0), (0, 3), (3, 0), (1, 1), (4, 4), (6, 3), (3, 7), (20, 13)]


@pytest.mark.parametrize("dtype", DTYPES + [np.int16], ids=ids)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("layout", ["C", "F", "reversed"])
def test_svd_matches_numpy(dtype, shape, layout):
    rng = make_rng(sum(shape) + len(layout))
    a = laid_out((random_matrix(rng, np.float64, shape) * 5).astype(dtype), layout) if dtype == np.int16 \
        else random_matrix(rng, dtype, shape, layout)
    m, n = shape
    k = min(m, n)
    what = f"svd {np.dtype(dtype).name} {shape} {layout}"
    # full_matrices known at compile time, or only at run time (True, or an int as Numba's default 1)
    for f, full in [(svd, True), (svd_reduced, False), (lambda a: svd_full_at_run_time(a, True), True),
                    (lambda a: svd_full_at_run_time(a, 0), False)]:
        u, s, vh = f(a)
        eu, es, evh = np.linalg.svd(a, full_matrices=full)
        for g, e in [(u, eu), (s, es), (vh, evh)]:
            assert_same_dtype(g, e, what)
            assert np.shape(g) == np.shape(e), f"{what}: {np.shape(g)} != {np.shape(e)}"
        assert_close(s, es, max(m, n), what + " s")
        a128 = np.asarray(a, np.complex128)
        single = u.dtype
        assert_close((u[:, :k] * s) @ vh[:k], a128, max(m, n), what + " U S Vh = A", dtype=single)
        assert_close(u.conj().T @ u, np.eye(u.shape[1]), max(m, n), what + " U orthonormal", dtype=single)
        assert_close(vh @ vh.conj().T, np.eye(vh.shape[0]), max(m, n), what + " Vh orthonormal", dtype=single)
        if k == 0:
            assert np.array_equal(u, eu) and np.array_equal(vh, evh)
    assert_close(svd_values(a), np.linalg.svd(a, compute_uv=False), max(m, n), what + " values")


def test_svd_of_ill_conditioned_and_singular_matrices_matches_numpy():
    rng = make_rng(3)
    for a in [ill_conditioned(rng, np.float64, 10, 1e14), np.ones((5, 3)), np.zeros((4, 4))]:
        s = svd_values(a)
        assert_close(s, np.linalg.svd(a, compute_uv=False), 10, "values")
        u, s, vh = svd(a)
        assert_close((u[:, :len(s)] * s) @ vh[:len(s)], a, 10, "U S Vh = A")


# ---------------------------------------------------------------- qr

@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_qr_matches_numpy(dtype, shape, layout):
    a = random_matrix(make_rng(sum(shape) * 2 + len(layout)), dtype, shape, layout)
    m, n = shape
    what = f"qr {np.dtype(dtype).name} {shape} {layout}"
    for f, mode in [(qr, "reduced"), (qr_complete, "complete")]:
        q, r = f(a)
        eq, er = np.linalg.qr(a, mode=mode)
        for g, e in [(q, eq), (r, er)]:
            assert_same_dtype(g, e, what)
            assert np.shape(g) == np.shape(e), f"{what} {mode}: {np.shape(g)} != {np.shape(e)}"
        assert np.array_equal(r, np.triu(r)), what
        assert_close(q @ r, np.asarray(a, np.complex128), max(shape), f"{what} {mode}: Q R = A", dtype=q.dtype)
        assert_close(q.conj().T @ q, np.eye(q.shape[1]), max(shape), f"{what} {mode}: Q orthonormal", dtype=q.dtype)
        assert_close(np.abs(np.diagonal(r)), np.abs(np.diagonal(er)), max(shape), what + " |diag R|")
    r = qr_r(a)
    assert_same_dtype(r, np.linalg.qr(a, mode="r"), what)
    assert_close(np.abs(r), np.abs(np.linalg.qr(a, mode="r")), max(shape), what + " r")


# ---------------------------------------------------------------- lstsq, pinv

@pytest.mark.parametrize("dtype", DTYPES + [np.int64], ids=ids)
@pytest.mark.parametrize("shapes", [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 6), (3,)), ((4, 4), (4, 3)),
                                    ((0, 2), (0,)), ((3, 2), (3, 0)), ((5, 1), (5, 1))], ids=str)
@pytest.mark.parametrize("layout", ["C", "F", "reversed"])
def test_lstsq_matches_numpy(dtype, shapes, layout):
    rng = make_rng(sum(shapes[0]) + len(layout))
    make = (lambda s: laid_out((random_matrix(rng, np.float64, s) * 4).astype(dtype), layout)) if dtype == np.int64 \
        else (lambda s: random_matrix(rng, dtype, s, layout))
    a, b = make(shapes[0]), make(shapes[1])
    x, res, rank, s = lstsq(a, b)
    ex, eres, erank, es = np.linalg.lstsq(a, b)
    what = f"lstsq {np.dtype(dtype).name} {shapes} {layout}"
    for g, e in [(x, ex), (res, eres), (s, es)]:
        assert_same_dtype(g, e, what)
        assert_close(g, e, 8, what, scale=max(1.0, float(np.max(np.abs(np.asarray(e)), initial=0))) * 10)
    assert rank == erank and type(rank) is int, what


def test_lstsq_of_a_rank_deficient_matrix_gives_numpys_least_norm_solution():
    rng = make_rng(8)
    a = rng.standard_normal((7, 2)) @ rng.standard_normal((2, 4))
    b = rng.standard_normal(7)
    for rcond in [1e-10, -1.0, 0.5]:
        x, res, rank, s = lstsq_rcond(a, b, rcond)
        ex, eres, erank, es = np.linalg.lstsq(a, b, rcond=rcond)
        assert rank == erank
        assert_close(x, ex, 1000, f"rcond {rcond}")
        assert res.shape == eres.shape


@pytest.mark.parametrize("da, db", [(np.float32, np.uint8), (np.float32, np.int64), (np.complex64, np.bool_),
                                     (np.float32, np.float32), (np.complex64, np.float32), (np.int32, np.float32),
                                     (np.float32, np.complex128)], ids=str)
def test_solve_and_lstsq_of_mixed_dtypes_compute_in_numpys_common_type(da, db):
    """An int or bool operand makes the work double precision whatever the other's."""
    rng = make_rng(9)
    a = (rng.standard_normal((4, 4)) * 3 + 9 * np.eye(4)).astype(da)
    b = (rng.standard_normal((4, 2)) * 3).astype(db)
    what = f"{np.dtype(da).name} {np.dtype(db).name}"
    for got, expected in [(solve(a, b), np.linalg.solve(a, b)), (lstsq(a, b)[0], np.linalg.lstsq(a, b)[0])]:
        assert_same_dtype(got, expected, what)
        assert_close(got, expected, 50, what)


def test_lstsq_of_incompatible_shapes_is_numpys_linalg_error():
    with pytest.raises(np.linalg.LinAlgError, match="Incompatible dimensions"):
        lstsq(np.ones((3, 2)), np.ones(4))


@pytest.mark.parametrize("dtype", DTYPES + [np.int32], ids=ids)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_pinv_matches_numpy(dtype, shape):
    rng = make_rng(sum(shape) + 70)
    a = (random_matrix(rng, np.float64, shape) * 4).astype(dtype) if dtype == np.int32 else random_matrix(rng, dtype, shape, "F")
    got, expected = pinv(a), np.linalg.pinv(a)
    if a.size:  # NumPy's pinv of an empty matrix keeps its dtype, ints too
        assert_same_dtype(got, expected, "pinv")
    assert_close(got, expected, 100, f"pinv {shape}")


def test_pinv_of_a_singular_matrix_leaves_out_small_singular_values_as_numpy():
    a = np.array([[1.0, 2.0], [2.0, 4.0], [0.0, 0.0]])
    assert_close(pinv(a), np.linalg.pinv(a), 10, "singular")
    for rcond in [1e-15, 0.1, 0.9]:
        b = np.diag([1.0, 0.5, 1e-3])
        assert_close(pinv_rcond(b, rcond), np.linalg.pinv(b, rcond), 10, f"rcond {rcond}")


# ---------------------------------------------------------------- norm, cond, matrix_rank

ORDS = [None, 1, -1, 2, -2, np.inf, -np.inf]


@pytest.mark.parametrize("dtype", DTYPES + [np.int64], ids=ids)
@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (0, 0), (1, 1), (3, 5), (6, 2)], ids=str)
@pytest.mark.parametrize("layout", ["C", "F", "reversed"])
def test_norm_matches_numpy(dtype, shape, layout):
    if NUMPY1 and 0 in shape:
        pytest.skip("NumPy 1.x raises for some norms of empty arrays: ruchey gives NumPy 2's results")
    rng = make_rng(sum(shape) + len(layout))
    x = laid_out((random_matrix(rng, np.float64, shape) * 4).astype(dtype), layout) if dtype == np.int64 \
        else random_matrix(rng, dtype, shape, layout)
    ords = ORDS + ([0, 3, 0.5, -1.5] if len(shape) == 1 else [])
    what = f"norm {np.dtype(dtype).name} {shape} {layout}"
    got, expected = norm(x), np.linalg.norm(x)
    assert_same_dtype(got, expected, what)
    assert_close(got, expected, 10, what)
    for ord in ords:
        try:
            expected = np.linalg.norm(x, ord)
        except ValueError as e:
            with pytest.raises(ValueError, match="zero-size array") if "zero-size" in str(e) else pytest.raises(Exception):
                norm_ord(x, ord)
            continue
        got = norm_ord(x, ord)
        assert_same_dtype(got, expected, what)
        assert_close(got, expected, 10, f"{what} ord={ord}")
    if len(shape) == 2:
        assert_close(norm_fro(x), np.linalg.norm(x, "fro"), 10, what + " fro")
        assert_close(norm_nuc(x), np.linalg.norm(x, "nuc"), 10, what + " nuc")


def test_norm_of_another_order_of_a_matrix_is_numpys_value_error():
    with pytest.raises(ValueError, match="Invalid norm order for matrices."):
        norm_ord(np.ones((2, 2)), 3)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("n", [1, 3, 8])
def test_cond_matches_numpy(dtype, n):
    rng = make_rng(n + 90)
    a = random_matrix(rng, dtype, (n, n), "F") + (n * np.eye(n)).astype(dtype)
    what = f"cond {np.dtype(dtype).name} {n}"
    assert_close(cond(a), np.linalg.cond(a), 100, what)
    for p in ORDS[1:]:
        assert_close(cond_p(a, p), np.linalg.cond(a, p), 100, f"{what} p={p}", scale=np.linalg.cond(a, p))
    assert_close(cond_fro(a), np.linalg.cond(a, "fro"), 100, what + " fro", scale=np.linalg.cond(a, "fro"))
    r = random_matrix(rng, dtype, (n + 2, n))
    assert_close(cond(r), np.linalg.cond(r), 100, what + " rectangular", scale=np.linalg.cond(r))


def test_cond_of_singular_and_empty_matrices_is_numpys():
    for p in [None, 1, np.inf]:
        expected = np.linalg.cond(np.ones((3, 3)), p)
        got = cond(np.ones((3, 3))) if p is None else cond_p(np.ones((3, 3)), p)
        assert got == expected or (got > 1e15 and expected > 1e15), f"p={p}: {got} != {expected}"
    with pytest.raises(np.linalg.LinAlgError, match="cond is not defined on empty arrays"):
        cond(np.zeros((0, 0)))


@pytest.mark.parametrize("dtype", DTYPES + [np.int64], ids=ids)
def test_matrix_rank_matches_numpy(dtype):
    rng = make_rng(12)
    low = rng.standard_normal((8, 3)) @ rng.standard_normal((3, 6))
    for a in [low, np.zeros((3, 4)), np.eye(5), ill_conditioned(rng, np.float64, 6, 1e20), np.zeros((0, 3)),
              np.ones(4), np.zeros(3), rng.standard_normal((4, 9))]:
        if NUMPY1 and a.size == 0:  # NumPy 1.x raises: ruchey gives NumPy 2's 0
            continue
        a = (a * 3).astype(dtype) if dtype == np.int64 else a.astype(dtype)
        assert matrix_rank(a) == np.linalg.matrix_rank(a), f"{a}"
    for tol in [0.1, 10.0]:
        a = np.diag([100.0, 1.0, 0.01])
        assert matrix_rank_tol(a, tol) == np.linalg.matrix_rank(a, tol)


# ---------------------------------------------------------------- matrix_power

@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("n", [0, 1, 4])
@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2, 5, 8])
def test_matrix_power_matches_numpy(dtype, n, k):
    rng = make_rng(n + k + 20)
    a = (random_matrix(rng, dtype, (n, n), "F") / 2 + np.eye(n).astype(dtype))
    got, expected = matrix_power(a, k), np.linalg.matrix_power(a, k)
    assert_same_dtype(got, expected, "matrix_power")
    assert_close(got, expected, 10 * abs(k) + 10, f"matrix_power {n} ** {k}")


def test_matrix_power_multiplies_in_numpys_order():
    """a ** 3 as (a @ a) @ a, higher powers from the first power of two
    taken (never the identity times it), as NumPy's: the same bits."""
    rng = make_rng(43)
    for k in range(9):
        a = rng.standard_normal((5, 5))
        np.testing.assert_array_equal(matrix_power(a, k), np.linalg.matrix_power(a, k))
    a = np.array([[np.inf, 1.0], [0.0, 1.0]])
    np.testing.assert_array_equal(matrix_power(a, 1), np.linalg.matrix_power(a, 1))


@ruchey.njit
def matrix_power_minus_two(a):
    return np.linalg.matrix_power(a, -2)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int8, np.uint8, np.bool_])
def test_matrix_power_of_ints_and_bools_keeps_their_dtype_as_numpy(dtype):
    """Products of ints wrap and of bools are logical, as NumPy's matmul."""
    rng = make_rng(7)
    for n in [0, 1, 4]:
        base = rng.integers(-3, 4, (n, n)).astype(dtype)
        for a in [base, np.asfortranarray(base), base[:, ::-1]]:
            for k in [0, 1, 2, 3, 6, 9]:
                got, expected = matrix_power(a, k), np.linalg.matrix_power(a, k)
                assert got.dtype == expected.dtype and np.array_equal(got, expected), f"{dtype} {n} ** {k}"


def test_matrix_power_of_ints_to_a_negative_power_is_of_floats_for_a_constant_exponent():
    a = np.array([[2, 1], [1, 3]])
    got, expected = matrix_power_minus_two(a), np.linalg.matrix_power(a, -2)
    assert got.dtype == expected.dtype == np.float64
    assert_close(got, expected, 20, "matrix_power of ints ** -2")
    with pytest.raises(ValueError, match="negative power of a matrix of integers"):
        matrix_power(a, -2)


def test_matrix_power_of_a_singular_matrix_to_a_negative_power_is_numpys_linalg_error():
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        matrix_power(np.ones((2, 2)), -1)
    with pytest.raises(np.linalg.LinAlgError, match="must be square"):
        matrix_power(np.ones((2, 3)), 2)


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("f", [slogdet, cholesky, eigh, eigvalsh, eig, eigvals],
                         ids=lambda f: f.py_func.__name__)
def test_a_matrix_that_is_not_square_is_numpys_linalg_error(f):
    with pytest.raises(np.linalg.LinAlgError) as expected:
        f.py_func(np.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError) as got:
        f(np.ones((2, 3)))
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("f", [eigh, eigvalsh, eig, eigvals, svd, svd_values, qr, pinv, matrix_rank],
                         ids=lambda f: f.py_func.__name__)
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_a_matrix_with_nan_or_inf_is_a_linalg_error_as_numbas(f, bad):
    a = np.eye(3)
    a[1, 2] = a[2, 1] = bad
    with pytest.raises(np.linalg.LinAlgError, match="Array must not contain infs or NaNs"):
        f(a)
    with pytest.raises(np.linalg.LinAlgError, match="Array must not contain infs or NaNs"):
        lstsq(a, np.ones(3))


@pytest.mark.parametrize("src, message", [
    ("np.linalg.svd(a[0])", "1-dimensional array given"),
    ("np.linalg.lstsq(np.ones((2, 2, 2)), a[0])", "arrays of 3 dimensions are not supported"),
    ("np.linalg.qr(a, mode='raw')", "mode=raw is not supported"),
    ("np.linalg.svd(a, hermitian=a)", "hermitian must be a bool"),
    ("np.linalg.eigh(a, UPLO='X')", "UPLO argument must be 'L' or 'U'"),
    ("np.linalg.norm(a[0], 'fro')", "Invalid norm order 'fro' for vectors"),
    ("np.linalg.norm(a, 'fro', 0)", "Invalid norm order 'fro' for vectors"),
    ("np.linalg.norm(a, axis=(0, 1, 0))", "Improper number of dimensions to norm"),
    ("np.linalg.norm(a, keepdims=flag)", "must be a constant True or False"),
    ("np.linalg.norm(a, 'spectral')", "Invalid norm order 'spectral' for matrices"),
    ("np.linalg.pinv(a, rtol=0.1)", "rtol"),
    ("np.linalg.matrix_rank(a, rtol=0.1)", "rtol"),
    ("np.linalg.svd(a, compute_uv=flag)", "must be a constant True or False"),
    ("np.linalg.matrix_power(a, 2.0)", "exponent must be an integer"),
    ("np.cov(a, fweights=a[0])", "fweights"),
    ("np.cov(a, aweights=a[0])", "aweights"),
    ("np.cov(a, dtype=np.float32)", "dtype"),
    ("np.corrcoef(a, bias=True)", "bias"),
    ("np.cov(np.ones((2, 2, 2)))", "arrays of 3 dimensions are not supported"),
], ids=lambda s: s if "(" in s else "")
def test_unsupported_arguments_are_typing_errors_naming_them(src, message):
    from arraygen import define
    f = ruchey.njit(define(f"def f(a, flag):\n    return {src}\n", env={"np": np}))
    with pytest.raises(ruchey.TypingError, match=message.replace("(", r"\(").replace(")", r"\)")):
        f(np.eye(2), True)


# ---------------------------------------------------------------- cov, corrcoef

@ruchey.njit
def cov(m):
    return np.cov(m)


@ruchey.njit
def cov_args(m, y, rowvar, bias, ddof):
    return np.cov(m, y, rowvar, bias, ddof)


@ruchey.njit
def cov_ddof(m, ddof):
    return np.cov(m, ddof=ddof)


@ruchey.njit
def corrcoef(x):
    return np.corrcoef(x)


@ruchey.njit
def corrcoef_args(x, y, rowvar):
    return np.corrcoef(x, y, rowvar)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.complex128, np.bool_], ids=ids)
@pytest.mark.parametrize("shape", [(5,), (3, 6), (6, 3), (2, 2), (1, 4), (1,)], ids=str)
@pytest.mark.parametrize("layout", ["C", "F", "reversed"])
def test_cov_and_corrcoef_match_numpy(dtype, shape, layout):
    rng = make_rng(sum(shape) + len(layout))
    m = laid_out((random_matrix(rng, np.complex128 if dtype == np.complex128 else np.float64, shape) * 3).astype(dtype), layout)
    what = f"{np.dtype(dtype).name} {shape} {layout}"
    if shape == (1, 4):  # NumPy squeezes a single variable's (1, 1) to 0-d; compiled types cannot, as Numba's
        for f in (cov, corrcoef):
            with pytest.raises(RuntimeError, match="holding one variable"):
                f(m)
        return
    with np.errstate(all="ignore"), _quiet():
        for got, expected, name in [(cov(m), np.cov(m), "cov"), (corrcoef(m), np.corrcoef(m), "corrcoef")]:
            assert np.shape(got) == np.shape(expected), f"{name} {what}"
            assert np.asarray(got).dtype == np.asarray(expected).dtype, f"{name} {what}"
            assert np.allclose(got, expected, rtol=1e-12, atol=1e-12, equal_nan=True), f"{name} {what}: {got} != {expected}"


class _quiet:
    def __enter__(self):
        import warnings
        self.w = warnings.catch_warnings()
        self.w.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *a):
        self.w.__exit__(*a)


@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("ddof", [None, 0, 2, 3.5])
def test_cov_arguments_match_numpy(rowvar, bias, ddof):
    rng = make_rng(31)
    m, y = rng.standard_normal((3, 5)), rng.standard_normal((2, 5))
    if not rowvar:
        m, y = m.T.copy(), y.T.copy()
    with _quiet():
        expected = np.cov(m, y, rowvar, bias, ddof if ddof != 3.5 else None)
        got = cov_args(m, y, rowvar, bias, ddof if ddof != 3.5 else None)
    assert np.allclose(got, expected, rtol=1e-12)
    if ddof is not None and ddof != 3.5:
        with _quiet():
            assert np.allclose(cov_ddof(m.T if not rowvar else m, ddof), np.cov(m.T if not rowvar else m, ddof=ddof), equal_nan=True)
    assert np.allclose(corrcoef_args(m, y, rowvar), np.corrcoef(m, y, rowvar), rtol=1e-12)


@pytest.mark.parametrize("shape, rowvar", [((1, 5), True), ((5, 1), False), ((1, 1), True), ((1, 1), False)], ids=str)
def test_cov_of_a_matrix_holding_one_variable_raises_as_numba(shape, rowvar):
    m = make_rng(sum(shape)).standard_normal(shape)
    assert np.ndim(np.cov(m, rowvar=rowvar)) == 0  # what NumPy squeezes: a shape no compiled type can follow
    for f in (cov_args, corrcoef_args):
        args = (m, None, rowvar, False, None) if f is cov_args else (m, None, rowvar)
        with pytest.raises(RuntimeError, match=r"holding one variable .* pass the variable as a 1-D array"):
            f(*args)
    with _quiet():
        assert np.allclose(cov(m[0] if rowvar else m[:, 0]), np.cov(m, rowvar=rowvar), equal_nan=True)


@pytest.mark.parametrize("shape, rowvar", [((1, 5), False), ((5, 1), True)], ids=str)
def test_cov_of_a_matrix_of_one_observation_or_with_y_is_numpys(shape, rowvar):
    rng = make_rng(sum(shape) + rowvar)
    m, y = rng.standard_normal(shape), rng.standard_normal(shape)
    with np.errstate(all="ignore"), _quiet():
        expected = np.cov(m, rowvar=rowvar)
        if expected.ndim == 0:  # NumPy 1 reads one row as one variable whatever rowvar says
            with pytest.raises(RuntimeError, match="holding one variable"):
                cov_args(m, None, rowvar, False, None)
        else:
            assert np.allclose(cov_args(m, None, rowvar, False, None), expected, equal_nan=True)
        for x in (m, m[:1] if rowvar else m[:, :1]):
            for yy in (y, y[:1] if rowvar else y[:, :1]):
                if x.shape != yy.shape:
                    continue
                try:
                    expected = np.cov(x, yy, rowvar)
                except ValueError as e:  # NumPy transposes neither side of one row
                    with pytest.raises(ValueError, match=str(e)[:40]):
                        cov_args(x, yy, rowvar, False, None)
                    continue
                assert np.allclose(cov_args(x, yy, rowvar, False, None), expected, equal_nan=True)
                assert np.allclose(corrcoef_args(x, yy, rowvar), np.corrcoef(x, yy, rowvar), equal_nan=True)


def test_corrcoef_of_a_vector_is_a_number_and_cov_a_0d_array():
    x = np.array([1.0, 2.0, 4.0, 7.0])
    assert corrcoef(x) == 1.0 and type(corrcoef(x)) is float
    got = cov(x)
    assert type(got) is np.ndarray and got.shape == () and got == np.cov(x)



def test_cov_and_corrcoef_of_numbers_0d_arrays_and_tuples_match_numpy():
    rng = make_rng(41)
    values = [3.5, -2, 0, True, np.nan, np.float32(1.5), 2 - 1j, np.array(2.5), np.array(4, np.int32),
              tuple(rng.standard_normal(4)), (1, 2, 4), ((0.1, 0.2), (0.11, 0.19), (0.09j, 0.21j)),
              tuple(map(tuple, rng.standard_normal((3, 5)))), ((1e-100, 1e100), (1e100, 1e-100)), ()]
    with np.errstate(all="ignore"), _quiet():
        for x in values:
            for got, expected in [(cov(x), np.cov(x)), (corrcoef(x), np.corrcoef(x))]:
                assert np.shape(got) == np.shape(expected), x
                assert np.asarray(got).dtype == np.asarray(expected).dtype, x
                assert np.allclose(got, expected, rtol=1e-12, atol=1e-12, equal_nan=True), (x, got, expected)
        v = rng.standard_normal(4)
        for y in (2.0, np.array(1.5)):
            assert np.allclose(cov_args(y, y, True, False, None), np.cov(y, y), equal_nan=True)
            with pytest.raises(ValueError, match="dimensions except for the concatenation axis must match"):
                cov_args(v, y, True, False, None)
    with pytest.raises(ruchey.TypingError, match="numpy.cov"):
        cov("text")


@numpy2_only  # (NumPy 1 reads such a tuple otherwise)
def test_cov_and_corrcoef_of_a_tuple_holding_one_row_are_of_one_variable():
    """The tuple's type tells one row (Numba reads it so): NumPy's 0-d cov and
    number corrcoef; with rowvar=False its many variables' matrix, where that is
    a constant, else a RuntimeError (the type said one variable)."""
    rows = [((1.1, 2.2, 1.5),), ((1, 2, 4, 3),), ((2.0,),)]
    f = ruchey.njit(lambda t: (np.cov(t, rowvar=False), np.corrcoef(t, rowvar=False)))
    with np.errstate(all="ignore"), _quiet():
        for t in rows:
            assert type(corrcoef(t)) is float
            for got, want in [(cov(t), np.cov(t)), (corrcoef(t), np.corrcoef(t)), (cov_args(t, None, True, False, None),
                                                                                   np.cov(t))]:
                assert np.shape(got) == np.shape(want) and np.allclose(got, want, equal_nan=True), (t, got, want)
            if len(t[0]) > 1:  # (one column: a matrix holding one variable, the RuntimeError above)
                for got, want in zip(f(t), f.py_func(t)):
                    assert got.shape == want.shape and np.allclose(got, want, equal_nan=True), t
        with pytest.raises(RuntimeError, match="give rowvar=False as a constant"):
            cov_args(rows[0], None, False, False, None)


# ---------------------------------------------------------------- threads

@ruchey.njit(nogil=True)
def singular_values_sum(a, times):
    total = 0.0
    for _ in range(times):
        total += np.linalg.svd(a, compute_uv=False).sum() + np.linalg.eigvalsh(a @ a.T).sum()
    return total


def test_decompositions_run_in_threads_without_the_gil():
    from concurrent.futures import ThreadPoolExecutor
    rng = make_rng(77)
    mats = [rng.standard_normal((30, 30)) for _ in range(4)]
    expected = [singular_values_sum(m, 20) for m in mats]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda m: singular_values_sum(m, 20), mats))
    assert got == expected
    for m, e in zip(mats, expected):
        assert abs(e - 20 * (np.linalg.svd(m, compute_uv=False).sum() + np.linalg.eigvalsh(m @ m.T).sum())) <= 1e-9 * abs(e)
