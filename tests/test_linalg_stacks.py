"""numpy.linalg of stacks of matrices ((..., M, N) arrays), norm's axis= and
keepdims=, hermitian= of svd, pinv and matrix_rank, and numpy.cov/corrcoef's
shapes, against NumPy on generated inputs: float32, float64, complex64,
complex128 (and ints), C, Fortran and strided layouts, empty stacks and
stacks of one, several dimensions of stack.

Each matrix of a stack goes through the 2-D path, so a stack's results are
exactly the 2-D function's results of its matrices (which test_linalg_decomp
checks against NumPy); here they are checked to be so, and against NumPy's
own stacked results where these are unique (values, inverses, solutions),
with NumPy's shapes and dtypes everywhere."""
import warnings

import numpy as np
import pytest

import ruchey
from arraygen import define
from conftest import AS_NUMBA, NUMPY1, make_rng, seed_of

pytestmark = [pytest.mark.skipif(AS_NUMBA, reason="numba's numpy.linalg takes 2-D matrices only, and norm no axis="),
              pytest.mark.skipif(NUMPY1, reason="ruchey follows NumPy 2's rules (solve's b, cov's shapes, cholesky's "
                                 "upper=, norms of float32 and of empty stacks), which NumPy 1.x does not have")]

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
LAYOUTS = ["C", "F", "strided"]
STACKS = [(0,), (1,), (3,), (2, 3), (2, 0)]


def ids(d):
    return np.dtype(d).name if isinstance(d, type) else str(d)


def laid_out(a, layout):
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "C":
        return np.ascontiguousarray(a)
    big = np.zeros(tuple(2 * s + 1 for s in a.shape), a.dtype)
    v = big[tuple(slice(1, None, 2) for _ in a.shape)]
    v[...] = a
    return v


def random_stack(rng, dtype, shape, layout="C", kind="any"):
    """A stack of matrices: any, Hermitian positive definite ("hpd"), or
    real symmetric / complex any ("eig": real eigenvalues where real)."""
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    n = shape[-1]
    if kind == "hpd":
        a = a @ np.swapaxes(a, -1, -2).conj() + n * np.eye(n)
    elif kind == "eig" and np.dtype(dtype).kind != "c":
        a = a + np.swapaxes(a, -1, -2)
    return laid_out(a.astype(dtype), layout)


def tolerance(dtype, n, scale):
    real = np.finfo(np.dtype(dtype).char.lower() if np.dtype(dtype).kind == "c" else dtype)
    return 256 * real.eps * max(1, n) * max(1.0, scale)


def assert_close(got, expected, n, what):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape, f"{what}: shape {got.shape} != {expected.shape}"
    if expected.size:
        scale = float(np.max(np.abs(expected)))
        err = float(np.max(np.abs(got.astype(np.complex128) - expected.astype(np.complex128))))
        assert err <= tolerance(expected.dtype if expected.dtype.kind in "fc" else np.float64, n, scale), \
            f"{what}: {got} != {expected} (err {err})"


def as_tuple(r):
    return tuple(r) if isinstance(r, tuple) else (r,)


def assert_same_type(got, expected, what):
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape, f"{what}: shape {got.shape} != {expected.shape}"
    assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype} != {expected.dtype}"


# name: (call, input kind, core shape, whether NumPy's values are unique)
FUNCTIONS = {
    "inv": ("np.linalg.inv(a)", "any", (3, 3), True),
    "det": ("np.linalg.det(a)", "any", (3, 3), True),
    "slogdet": ("np.linalg.slogdet(a)", "any", (3, 3), True),
    "cholesky": ("np.linalg.cholesky(a)", "hpd", (3, 3), True),
    "cholesky_upper": ("np.linalg.cholesky(a, upper=True)", "hpd", (3, 3), True),
    "eigh": ("np.linalg.eigh(a)", "hpd", (3, 3), False),
    "eigh_U": ("np.linalg.eigh(a, UPLO='U')", "hpd", (3, 3), False),
    "eigvalsh": ("np.linalg.eigvalsh(a)", "hpd", (3, 3), True),
    "eig": ("np.linalg.eig(a)", "eig", (3, 3), False),
    "eigvals": ("np.linalg.eigvals(a)", "eig", (3, 3), False),
    "svd": ("np.linalg.svd(a)", "any", (3, 2), False),
    "svd_reduced": ("np.linalg.svd(a, full_matrices=False)", "any", (2, 4), False),
    "svd_values": ("np.linalg.svd(a, compute_uv=False)", "any", (3, 2), True),
    "qr": ("np.linalg.qr(a)", "any", (3, 2), False),
    "qr_complete": ("np.linalg.qr(a, mode='complete')", "any", (3, 2), False),
    "qr_r": ("np.linalg.qr(a, mode='r')", "any", (2, 4), False),
    "pinv": ("np.linalg.pinv(a)", "any", (3, 2), True),
    "matrix_rank": ("np.linalg.matrix_rank(a)", "any", (3, 2), True),
    "cond": ("np.linalg.cond(a)", "any", (3, 3), True),
    "cond_1": ("np.linalg.cond(a, 1)", "any", (3, 3), True),
    "matrix_power": ("np.linalg.matrix_power(a, 3)", "any", (3, 3), True),
    "matrix_power_neg": ("np.linalg.matrix_power(a, -2)", "any", (3, 3), True),
    "norm_pair": ("np.linalg.norm(a, axis=(-2, -1))", "any", (3, 2), True),
}

_compiled = {}


def real_where_real(x):
    """eig's results of a real matrix with real eigenvalues, as real arrays:
    Numba's rule, and NumPy's before 2.5 (which returns complex ones)."""
    x = np.asarray(x)
    return x.real if x.dtype.kind == "c" and not np.any(x.imag) else x


def compiled(name):
    if name not in _compiled:
        _compiled[name] = ruchey.njit(define(f"def f(a):\n    return {FUNCTIONS[name][0]}\n", env={"np": np}))
    return _compiled[name]


@pytest.mark.parametrize("stack", STACKS, ids=ids)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_a_stack_is_its_matrices_results_as_numpys(name, dtype, layout, stack):
    call, kind, core, unique = FUNCTIONS[name]
    f = compiled(name)
    a = random_stack(make_rng(seed_of(name, stack)), dtype, stack + core, layout, kind)
    got, expected = as_tuple(f(a)), as_tuple(f.py_func(a))
    if kind == "eig" and np.dtype(dtype).kind != "c":
        expected = tuple(real_where_real(e) for e in expected)
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        assert_same_type(g, e, f"{name}[{i}]")
        if unique:
            assert_close(g, e, core[-1], f"{name}[{i}]")
    for idx in np.ndindex(*stack):  # each matrix as the 2-D path computes it
        for i, (g, one) in enumerate(zip(got, as_tuple(f(a[idx])))):
            np.testing.assert_array_equal(np.asarray(g)[idx], one, err_msg=f"{name}[{i}] at {idx}")


@pytest.mark.parametrize("dtype", [np.int64, np.bool_], ids=ids)
def test_a_stack_of_ints_computes_in_float64_as_numpys(dtype):
    a = (np.triu(make_rng(3).integers(0, 3, (2, 3, 3))) + np.eye(3, dtype=np.int64)).astype(dtype)  # not singular
    for name in ["inv", "det", "slogdet", "pinv", "matrix_rank"]:
        got, expected = as_tuple(compiled(name)(a)), as_tuple(compiled(name).py_func(a))
        for g, e in zip(got, expected):
            assert_same_type(g, e, name)
            assert_close(g, e, 3, name)


def test_a_stack_of_four_dimensions_and_empty_matrices():
    rng = make_rng(4)
    a = random_stack(rng, np.float64, (2, 1, 2, 3, 3))
    for name in ["inv", "det", "eigvalsh", "svd_values", "matrix_power"]:
        assert_close(compiled(name)(a @ np.swapaxes(a, -1, -2)), compiled(name).py_func(a @ np.swapaxes(a, -1, -2)), 3, name)
    empty = np.zeros((4, 0, 0))
    for name in ["inv", "det", "slogdet", "eigh", "svd", "qr", "pinv", "matrix_rank", "matrix_power"]:
        got, expected = as_tuple(compiled(name)(empty)), as_tuple(compiled(name).py_func(empty))
        for g, e in zip(got, expected):
            assert_same_type(g, e, name)
            assert_close(g, e, 1, name)


# ---------------------------------------------------------------- solve

@ruchey.njit
def solve(a, b):
    return np.linalg.solve(a, b)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("a_shape, b_shape", [
    ((2, 3, 3), (3,)),           # b a vector: one for every matrix
    ((2, 3, 3), (3, 4)),         # b a matrix, broadcast
    ((2, 3, 3), (2, 3, 4)),
    ((2, 3, 3), (2, 3, 3)),
    ((2, 3, 3), (1, 3, 2)),
    ((1, 3, 3), (5, 3, 2)),
    ((3, 3), (4, 3, 1)),         # a 2-D, b a stack
    ((2, 1, 3, 3), (4, 3, 2)),
    ((0, 3, 3), (3,)),
    ((0, 3, 3), (2, 1, 3, 2)),
    ((2, 0, 0), (0, 5)),
], ids=str)
def test_solve_of_stacks_takes_numpy2s_rule_for_b(dtype, layout, a_shape, b_shape):
    rng = make_rng(5)
    a = random_stack(rng, dtype, a_shape, layout) + laid_out(4 * np.eye(a_shape[-1], dtype=dtype), "C")
    a = laid_out(a, layout)
    b = random_stack(rng, dtype, b_shape, layout)
    got, expected = solve(a, b), np.linalg.solve(a, b)
    assert_same_type(got, expected, "solve")
    assert_close(got, expected, a_shape[-1], "solve")


def test_solve_of_a_stack_and_a_stack_of_vectors_is_numpy2s_value_error():
    a, b = np.eye(3) + np.zeros((2, 3, 3)), np.ones((2, 3))  # b: a 2 x 3 matrix, not two vectors
    with pytest.raises(ValueError):
        np.linalg.solve(a, b)
    with pytest.raises(ValueError):
        solve(a, b)
    with pytest.raises(ValueError, match="broadcast"):
        solve(np.zeros((2, 3, 3)), np.zeros((3, 3, 1)))


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("name, message", [
    ("inv", "Singular matrix"), ("matrix_power_neg", "Singular matrix"), ("cholesky", "not positive definite"),
])
def test_a_singular_matrix_in_a_stack_is_a_linalg_error(name, message):
    a = np.eye(3) + np.zeros((3, 3, 3))
    a[1] = 0 if name != "cholesky" else -np.eye(3)
    with pytest.raises(np.linalg.LinAlgError, match=message):
        compiled(name).py_func(a)
    with pytest.raises(np.linalg.LinAlgError, match=message):
        compiled(name)(a)
    if name != "cholesky":
        with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
            solve(a, np.ones(3))


@pytest.mark.parametrize("name", ["inv", "det", "slogdet", "cholesky", "eigh", "eig", "matrix_power"])
@pytest.mark.parametrize("stack", [(2,), (0,)], ids=str)
def test_a_stack_of_matrices_not_square_is_a_linalg_error(name, stack):
    a = np.ones(stack + (2, 3))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        compiled(name).py_func(a)
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        compiled(name)(a)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.bool_], ids=ids)
def test_a_singular_matrix_of_any_dtype_in_a_stack_raises_cleanly(dtype):
    a = np.ones((2, 3, 3), dtype)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        compiled("inv")(a)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        solve(a, np.ones((2, 3, 2), dtype))


def test_det_of_a_stack_of_singular_matrices_is_zero_as_numpys():
    a = np.zeros((2, 3, 3))
    a[0] = np.eye(3)
    np.testing.assert_array_equal(compiled("det")(a), np.linalg.det(a))
    got, expected = compiled("slogdet")(a), np.linalg.slogdet(a)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])


# ---------------------------------------------------------------- norm, axis= and keepdims=

@ruchey.njit
def norm(x, ord, axis):
    return np.linalg.norm(x, ord, axis)


@ruchey.njit
def norm_keep(x, ord, axis):
    return np.linalg.norm(x, ord, axis, True)


@ruchey.njit
def norm_fro(x, axis):
    return np.linalg.norm(x, "fro", axis)


@ruchey.njit
def norm_nuc(x, axis):
    return np.linalg.norm(x, "nuc", axis)


@ruchey.njit
def norm_all(x):
    return np.linalg.norm(x)


@ruchey.njit
def norm_all_keep(x):
    return np.linalg.norm(x, keepdims=True)


def outcome(f, *args):
    try:
        return f(*args)
    except ValueError as e:
        return type(e)


def assert_same_outcome(got, expected, what, n):
    if isinstance(expected, type):
        assert got is ValueError, f"{what}: {got} where NumPy raised {expected}"
        return
    assert not isinstance(got, type), f"{what}: raised where NumPy gave {expected}"
    assert np.ndim(got) == np.ndim(expected), f"{what}: {got} != {expected}"
    if np.ndim(expected):
        assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype} != {expected.dtype}"
    expected = np.asarray(expected)
    inf = ~np.isfinite(expected)
    assert np.array_equal(np.asarray(got)[inf], expected[inf], equal_nan=True)
    assert_close(np.where(inf, 0, got), np.where(inf, 0, expected), n, what)


VECTOR_ORDS = [None, 0, 1, 2, 3.5, -1, -2, np.inf, -np.inf]
MATRIX_ORDS = [None, 1, 2, -1, -2, np.inf, -np.inf, 3]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int64], ids=ids)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(4,), (3, 4), (2, 3, 4), (0, 3), (3, 0, 2), (1, 2, 1, 3)], ids=str)
def test_norm_along_an_axis_is_numpys_vector_norm(dtype, layout, shape):
    x = random_stack(make_rng(6), np.float64, shape, layout)
    x = laid_out((x * 3).astype(dtype) if dtype == np.int64 else x.astype(dtype), layout)
    with np.errstate(all="ignore"):
        for axis in range(-len(shape), len(shape)):
            for o in VECTOR_ORDS:
                what = f"norm(x, {o}, {axis})"
                assert_same_outcome(outcome(norm, x, o, axis), outcome(np.linalg.norm, x, o, axis), what, shape[axis])
                assert_same_outcome(outcome(norm_keep, x, o, axis), outcome(np.linalg.norm, x, o, axis, True),
                                    what + " keepdims", shape[axis])
            assert_same_outcome(outcome(norm, x, None, (axis,)), outcome(np.linalg.norm, x, None, (axis,)), "1-tuple", 4)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int64], ids=ids)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), (0, 3), (3, 0, 2), (2, 1, 3)], ids=str)
def test_norm_in_a_pair_of_axes_is_numpys_matrix_norm(dtype, layout, shape):
    x = random_stack(make_rng(7), np.float64, shape, layout)
    x = laid_out((x * 3).astype(dtype) if dtype == np.int64 else x.astype(dtype), layout)
    nd = len(shape)
    with np.errstate(all="ignore"):
        for axes in [(i, j) for i in range(nd) for j in range(nd) if i != j] + [(-1, -2), (0, -1)]:
            for o in MATRIX_ORDS:
                what = f"norm(x, {o}, {axes})"
                assert_same_outcome(outcome(norm, x, o, axes), outcome(np.linalg.norm, x, o, axes), what, 4)
                assert_same_outcome(outcome(norm_keep, x, o, axes), outcome(np.linalg.norm, x, o, axes, True),
                                    what + " keepdims", 4)
            assert_same_outcome(outcome(norm_fro, x, axes), outcome(np.linalg.norm, x, "fro", axes), "fro", 4)
            assert_same_outcome(outcome(norm_nuc, x, axes), outcome(np.linalg.norm, x, "nuc", axes), "nuc", 4)


@pytest.mark.parametrize("shape", [(4,), (3, 4), (2, 3, 4), (2, 0, 3), (1, 2, 3, 2)], ids=str)
def test_norm_without_axis_of_any_dimensions_and_keepdims(shape):
    x = random_stack(make_rng(8), np.complex128, shape, "strided")
    assert_same_outcome(norm_all(x), np.linalg.norm(x), "norm(x)", 4)
    got, expected = norm_all_keep(x), np.linalg.norm(x, keepdims=True)
    assert got.shape == expected.shape and np.allclose(got, expected)
    if len(shape) <= 2:
        assert_same_outcome(norm_keep(x, 1, None), np.linalg.norm(x, 1, None, True), "norm(x, 1, keepdims)", 4)


@pytest.mark.parametrize("args, exc, message", [
    ((np.ones((2, 2)), None, 2), ValueError, "axis 2 is out of bounds"),
    ((np.ones((2, 2)), None, -3), ValueError, "axis -3 is out of bounds"),
    ((np.ones((2, 2)), None, (0, 0)), ValueError, "Duplicate axes given"),
    ((np.ones((2, 2)), None, (1, -1)), ValueError, "Duplicate axes given"),
    ((np.ones((2, 2)), 3, (0, 1)), ValueError, "Invalid norm order for matrices"),
    ((np.ones((2, 2, 2)), 3, (0, 1)), ValueError, "Invalid norm order for matrices"),
])
def test_norm_bad_axes_and_orders_raise_as_numpy(args, exc, message):
    with pytest.raises(exc, match=message):
        np.linalg.norm(*args)
    with pytest.raises(exc, match=message):
        norm(*args)


@pytest.mark.parametrize("src, message", [
    ("np.linalg.norm(a, 2)", "Improper number of dimensions to norm"),
    ("np.linalg.norm(a, axis=(0, 1, 2))", "Improper number of dimensions to norm"),
    ("np.linalg.norm(a, 'fro', 1)", "Invalid norm order 'fro' for vectors"),
    ("np.linalg.norm(a, axis=1.0)", "axis must be None, an integer or a tuple of integers"),
    ("np.linalg.norm(a[0, 0], axis=(0, 1))", "names 2 axes of an array of 1 dimension"),
    ("np.linalg.lstsq(a, a)", "arrays of 3 dimensions are not supported"),
    ("np.cov(a)", "arrays of 3 dimensions are not supported"),
], ids=str)
def test_what_numpy_refuses_of_stacks_is_a_typing_error(src, message):
    f = ruchey.njit(define(f"def f(a):\n    return {src}\n", env={"np": np}))
    with pytest.raises(ruchey.TypingError, match=message.replace("(", r"\(").replace(")", r"\)")):
        f(np.ones((2, 2, 2)))


# ---------------------------------------------------------------- hermitian=

@ruchey.njit
def svd_h(a, h):
    return np.linalg.svd(a, hermitian=h)


@ruchey.njit
def svd_values_h(a, h):
    return np.linalg.svd(a, compute_uv=False, hermitian=h)


@ruchey.njit
def pinv_h(a, h):
    return np.linalg.pinv(a, hermitian=h)


@ruchey.njit
def rank_h(a, h):
    return np.linalg.matrix_rank(a, hermitian=h)


def hermitian_stack(rng, dtype, shape, rank=None):
    a = random_stack(rng, dtype, shape)
    if rank is not None:  # a low-rank Hermitian: v diag(w) v^H with n - rank zeros in w
        v = np.linalg.qr(a)[0]
        w = np.zeros(shape[:-1])
        w[..., :rank] = rng.standard_normal(shape[:-2] + (rank,)) * 3
        return ((v * w[..., None, :]) @ np.swapaxes(v, -1, -2).conj()).astype(dtype)
    return (a + np.swapaxes(a, -1, -2).conj()).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("shape", [(4, 4), (3, 4, 4), (2, 0, 3, 3), (0, 0)], ids=str)
@pytest.mark.parametrize("rank", [None, 2], ids=["full", "rank2"])
def test_hermitian_svd_pinv_rank_are_numpys(dtype, shape, rank):
    a = hermitian_stack(make_rng(9), dtype, shape, rank if shape[-1] > 2 else None)
    for h in [True, False]:
        u, s, vh = svd_h(a, h)
        eu, es, evh = np.linalg.svd(a, hermitian=h)
        n = shape[-1]
        for g, e, what in [(u, eu, "u"), (s, es, "s"), (vh, evh, "vh")]:
            assert_same_type(g, e, what)
        assert_close(s, es, n, "s")
        assert_close((u * s[..., None, :]) @ vh, a, n, "u s vh")
        if h:  # by eigh, as NumPy's: the same vectors up to each eigenvector's phase
            assert_close(np.abs(u), np.abs(eu), n, "|u|")
        assert_close(svd_values_h(a, h), np.linalg.svd(a, compute_uv=False, hermitian=h), n, "s only")
        assert_close(pinv_h(a, h), np.linalg.pinv(a, hermitian=h), n, "pinv")
        np.testing.assert_array_equal(rank_h(a, h), np.linalg.matrix_rank(a, hermitian=h))


def test_hermitian_reads_the_lower_triangle_and_a_non_square_one_is_a_linalg_error():
    a = np.tril(hermitian_stack(make_rng(10), np.float64, (4, 4)))
    np.testing.assert_allclose(svd_values_h(a, True), np.linalg.svd(a, compute_uv=False, hermitian=True))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        svd_h(np.ones((2, 3)), True)


def test_hermitian_svd_moves_the_sign_of_a_zero_eigenvalue_as_numpys():
    a = hermitian_stack(make_rng(11), np.float64, (4, 4))
    a[0, :] = a[:, 0] = 0
    for g, e in zip(svd_h(a, True), np.linalg.svd(a, hermitian=True)):
        np.testing.assert_allclose(np.abs(g), np.abs(e), atol=1e-12)


# ---------------------------------------------------------------- cov, corrcoef shapes

@ruchey.njit
def cov(m, rowvar):
    return np.cov(m, rowvar=rowvar)


@ruchey.njit
def cov_y(m, y, rowvar):
    return np.cov(m, y, rowvar)


@ruchey.njit
def corrcoef(m, rowvar):
    return np.corrcoef(m, rowvar=rowvar)


@ruchey.njit
def corrcoef_y(m, y, rowvar):
    return np.corrcoef(m, y, rowvar)


def one_variable_2d(m, rowvar):
    """NumPy squeezes a 2-D m's one variable to a 0-d result; compiled code's
    type is fixed by m's, so it raises Numba's RuntimeError there"""
    return m.ndim == 2 and (m.shape[0] if rowvar else m.shape[1]) == 1


@pytest.mark.parametrize("shape", [(4,), (1,), (0,), (2, 4), (1, 4), (4, 1), (1, 1), (1, 0), (0, 1), (0, 0), (2, 0),
                                   (3, 2)], ids=str)
@pytest.mark.parametrize("rowvar", [True, False])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.int64], ids=ids)
def test_cov_and_corrcoef_shapes_are_numpys(shape, rowvar, dtype):
    rng = make_rng(12)
    m = (rng.standard_normal(shape) * 4).astype(dtype)
    y = (rng.standard_normal(shape) * 4).astype(dtype)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's "Degrees of freedom <= 0"
        for f, nf, args in [(cov, np.cov, (m,)), (corrcoef, np.corrcoef, (m,)),
                            (cov_y, np.cov, (m, y)), (corrcoef_y, np.corrcoef, (m, y))]:
            expected = outcome(lambda: nf(*args, rowvar=rowvar))
            if len(args) == 1 and one_variable_2d(m, rowvar) and not isinstance(expected, type):
                with pytest.raises(RuntimeError, match="holding one variable"):
                    f(*args, rowvar)
                continue
            got = outcome(lambda: f(*args, rowvar))
            if isinstance(expected, type) or isinstance(got, type):
                assert got is expected is ValueError, f"{nf.__name__}{np.shape(m)}: {got!r} != {expected!r}"
                continue
            assert np.ndim(got) == np.ndim(expected), f"{nf.__name__}{np.shape(m)}: {got!r} != {expected!r}"
            assert np.allclose(got, expected, equal_nan=True), f"{nf.__name__}{np.shape(m)}: {got!r} != {expected!r}"


def test_cov_of_one_row_where_not_rowvar_is_numpy2s_many_variables():
    m = np.arange(4.0)[None]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert cov(m, False).shape == np.cov(m, rowvar=False).shape == (4, 4)
        assert np.isnan(cov(m, False)).all()
        y = np.array([[2.0]])  # one row: one variable (of one observation, as m's now)
        got, expected = cov_y(m, y, False), np.cov(m, y, rowvar=False)
        assert got.shape == expected.shape == (5, 5)
        np.testing.assert_allclose(got, expected, equal_nan=True)
        with pytest.raises(ValueError, match="concatenation axis must match"):
            cov_y(m, m, False)


# ---------------------------------------------------------------- tensorsolve, tensorinv

@ruchey.njit
def tensorsolve(a, b):
    return np.linalg.tensorsolve(a, b)


@ruchey.njit
def tensorinv(a, ind):
    return np.linalg.tensorinv(a, ind)


@ruchey.njit
def tensorinv_default(a):
    return np.linalg.tensorinv(a)


@pytest.mark.parametrize("dtype", DTYPES + [np.int64], ids=ids)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("a_shape, b_shape", [((6, 2, 3), (6,)), ((2, 3, 6), (2, 3)), ((2, 3, 3, 2), (2, 3)),
                                              ((1, 1), (1,)), ((0, 0), (0,))], ids=str)
def test_tensorsolve_is_numpys(dtype, layout, a_shape, b_shape):
    rng = make_rng(13)
    a = laid_out((rng.standard_normal(a_shape) * 3).astype(dtype), layout)
    b = laid_out((rng.standard_normal(b_shape) * 3).astype(dtype), layout)
    got, expected = tensorsolve(a, b), np.linalg.tensorsolve(a, b)
    assert_same_type(got, expected, "tensorsolve")
    assert_close(got, expected, 6, "tensorsolve")


@pytest.mark.parametrize("dtype", DTYPES + [np.int64], ids=ids)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape, ind", [((4, 6, 8, 3), 2), ((24, 8, 3), 1), ((2, 3, 6), 2), ((3, 3), 1)], ids=str)
def test_tensorinv_is_numpys(dtype, layout, shape, ind):
    a = laid_out((make_rng(14).standard_normal(shape) * 3).astype(dtype), layout)
    got, expected = tensorinv(a, ind), np.linalg.tensorinv(a, ind)
    assert_same_type(got, expected, "tensorinv")
    assert_close(got, expected, 24, "tensorinv")
    if ind == 2:
        assert_close(tensorinv_default(a), expected, 24, "tensorinv")


@pytest.mark.parametrize("f, args, exc, message", [
    (tensorsolve, (np.ones((2, 3, 3)), np.ones(2)), np.linalg.LinAlgError, "Input arrays must satisfy"),
    (tensorsolve, (np.zeros((2, 2)), np.ones(2)), np.linalg.LinAlgError, "Singular matrix"),
    (tensorsolve, (np.eye(4).reshape(4, 2, 2), np.ones(3)), ValueError, "mismatch"),
    (tensorinv, (np.ones((2, 3)), 1), np.linalg.LinAlgError, "square"),
    (tensorinv, (np.eye(2), 0), ValueError, "Invalid ind argument"),
], ids=lambda v: getattr(v, "__name__", v if isinstance(v, str) else None))
def test_tensorsolve_and_tensorinv_errors_are_numpys(f, args, exc, message):
    with pytest.raises(exc, match=message):
        f.py_func(*args)
    with pytest.raises(exc, match=message):
        f(*args)


@pytest.mark.parametrize("src, message", [
    ("np.linalg.tensorsolve(a, a[0], axes=(0,))", "axes= is not supported"),
    ("np.linalg.tensorsolve(a[0], a)", "a must have more dimensions than b"),
    ("np.linalg.tensorinv(a, 1.5)", "ind must be an integer"),
], ids=str)
def test_tensor_arguments_not_supported_are_typing_errors(src, message):
    f = ruchey.njit(define(f"def f(a):\n    return {src}\n", env={"np": np}))
    with pytest.raises(ruchey.TypingError, match=message.replace("(", r"\(").replace(")", r"\)")):
        f(np.ones((2, 2, 2)))
