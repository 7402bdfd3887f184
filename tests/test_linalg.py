"""Linear algebra in compiled code: ``a @ b``, numpy.dot, matmul, inner,
vdot, outer, and numpy.linalg.solve, inv, det against NumPy on generated
inputs -- shapes with empty and single-element dimensions, C, Fortran,
strided and reversed layouts, every dtype -- and NumPy's errors for shapes
that do not fit.

Floats go through BLAS, whose sums run in another order than NumPy's
BLAS: their results agree within the rounding a dot product of k terms
allows (k ulps of the sum of the terms' magnitudes); integers agree
exactly, wrapping as NumPy's do."""
import functools

import numpy as np
import pytest

import ruchey
from arraygen import array
from conftest import AS_NUMBA, NUMPY1, make_rng, run_python_file, seed_of

numba_differs = pytest.mark.skipif(AS_NUMBA, reason="numba's products take only floats and word their errors "
                                   "otherwise")


@ruchey.njit
def matmul_operator(a, b):
    return a @ b


@ruchey.njit
def np_matmul(a, b):
    return np.matmul(a, b)


@ruchey.njit
def np_dot(a, b):
    return np.dot(a, b)


@ruchey.njit
def np_inner(a, b):
    return np.inner(a, b)


@ruchey.njit
def np_vdot(a, b):
    return np.vdot(a, b)


@ruchey.njit
def np_outer(a, b):
    return np.outer(a, b)


PRODUCTS = [matmul_operator, np_matmul, np_dot, np_inner]
FLOATS = [np.float32, np.float64]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
LAYOUTS = ["C", "F", "strided", "reversed"]


def operand(rng, dtype, shape, layout="C"):
    """Values that keep float sums finite: ints over their whole range."""
    if np.dtype(dtype).kind == "f":
        a = array(rng, np.float64, shape, layout)
        a[...] = rng.uniform(-2, 2, shape)
        return a.astype(dtype, order="K") if layout in ("C", "F") else _same_layout(a, dtype)
    return array(rng, dtype, shape, layout)


def _same_layout(a, dtype):
    """a's values in dtype, a view with a's kind of strides."""
    big = np.empty(tuple(2 * s for s in a.shape), dtype)
    v = big[tuple(slice(None, None, 2) for _ in a.shape)]
    v[...] = a
    return v


def assert_product(expected, got, a, b, products, what):
    """got is expected: the same type and dtype; ints exactly, floats within
    k ulps of the sum of the magnitudes of their terms."""
    if np.ndim(expected) == 0:  # a number, as compiled code returns them (a Python int or float)
        kind = np.asarray(expected).dtype.kind
        assert isinstance(got, bool if kind == "b" else int if kind in "iu" else float), f"{what}: {got!r}"
    else:
        assert type(got) is np.ndarray and got.dtype == expected.dtype, f"{what}: {got!r}"
    assert np.shape(got) == np.shape(expected), f"{what}: shape {np.shape(got)} != {np.shape(expected)}"
    if np.asarray(expected).dtype.kind != "f":
        np.testing.assert_array_equal(got, expected, err_msg=what, strict=np.ndim(expected) > 0)
        return
    k = max(1, a.shape[-1] if a.ndim else 1)
    bound = products(np.abs(a).astype(np.float64), np.abs(b).astype(np.float64))
    eps = np.finfo(np.asarray(expected).dtype).eps
    err = np.abs(np.asarray(got, np.float64) - np.asarray(expected, np.float64))
    assert np.all(err <= 2 * k * eps * bound + np.finfo(np.float32).tiny), f"{what}: {got} != {expected}"


def check(f, a, b):
    """f(a, b) compiled is NumPy's, and leaves its arguments unchanged."""
    ca, cb = a.copy(), b.copy()
    expected = f.py_func(a, b)
    got = f(a, b)
    what = f"{f.py_func.__name__}({a.dtype}{a.shape} strides {a.strides}, {b.dtype}{b.shape} strides {b.strides})"
    assert_product(expected, got, a, b, f.py_func, what)
    np.testing.assert_array_equal(a, ca)
    np.testing.assert_array_equal(b, cb)


# (a's shape, b's shape) for dot, matmul and @: matrices, vectors, empty and
# single-element dimensions
MATRIX_SHAPES = [((3, 4), (4, 5)), ((1, 4), (4, 1)), ((5, 1), (1, 3)), ((3, 0), (0, 4)), ((0, 3), (3, 4)),
                 ((3, 4), (4, 0)), ((4,), (4, 3)), ((3, 4), (4,)), ((4,), (4,)), ((0,), (0,)), ((1,), (1, 6)),
                 ((2, 7), (7,)), ((17, 33), (33, 9))]


@pytest.mark.parametrize("f", PRODUCTS[:3], ids=lambda f: f.py_func.__name__)
@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shapes", MATRIX_SHAPES, ids=str)
def test_matrix_product_matches_numpy(f, dtype, shapes):
    rng = make_rng(seed_of(f.py_func.__name__, np.dtype(dtype).name, shapes))
    check(f, operand(rng, dtype, shapes[0]), operand(rng, dtype, shapes[1]))


@pytest.mark.parametrize("f", PRODUCTS, ids=lambda f: f.py_func.__name__)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.uint8], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("la", LAYOUTS)
@pytest.mark.parametrize("lb", LAYOUTS)
def test_product_of_any_layout_matches_numpy(f, dtype, la, lb):
    rng = make_rng(7)
    b_shape = (5, 4) if f is np_inner else (4, 5)
    check(f, operand(rng, dtype, (3, 4), la), operand(rng, dtype, b_shape, lb))
    check(f, operand(rng, dtype, (4,), la), operand(rng, dtype, b_shape, lb))
    check(f, operand(rng, dtype, (3, 4), la), operand(rng, dtype, (4,), lb))


def test_product_of_transposed_and_sliced_views_matches_numpy():
    rng = make_rng(3)
    a, b = operand(rng, np.float64, (6, 8)), operand(rng, np.float64, (8, 6))
    for x, y in [(a.T, b.T), (a[1:4, 2:7], b[2:7, ::2]), (a[:, 3], b[3]), (a[::-1, ::-3], b[:3, ::-1]),
                 (np.broadcast_to(a[0], (5, 8)), b), (a, np.broadcast_to(b[:, :1], (8, 4)))]:
        check(matmul_operator, x, y)
        check(np_dot, x, y)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("n", [64, 200])
def test_large_float_products_match_numpy(dtype, n):
    rng = make_rng(n)
    check(matmul_operator, operand(rng, dtype, (n, n), "F"), operand(rng, dtype, (n, n + 3)))
    check(matmul_operator, operand(rng, dtype, (n, n)), operand(rng, dtype, (n,), "strided"))


@pytest.mark.parametrize("f", [np_inner, np_vdot, np_outer], ids=lambda f: f.py_func.__name__)
@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shapes", [((4,), (4,)), ((0,), (0,)), ((1,), (1,)), ((3, 4), (2, 4)), ((4,), (3, 4)),
                                    ((3, 4), (4,)), ((2, 6), (3, 4)), ((0, 3), (2, 3))], ids=str)
def test_inner_vdot_outer_match_numpy(f, dtype, shapes):
    if f is np_vdot and np.prod(shapes[0]) != np.prod(shapes[1]):
        shapes = (shapes[0], shapes[0])
    if f is np_inner and shapes[0][-1] != shapes[1][-1]:
        shapes = (shapes[0], shapes[1][:-1] + shapes[0][-1:])
    rng = make_rng(seed_of(f.py_func.__name__, np.dtype(dtype).name, shapes))
    for layout in ("C", "strided", "F"):
        check(f, operand(rng, dtype, shapes[0], layout), operand(rng, dtype, shapes[1], layout))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shapes", [((2, 3, 4), (2, 4, 5)), ((1, 3, 4), (3, 4, 2)), ((3, 3, 4), (1, 4, 2)),
                                    ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)), ((2, 3, 4), (4,)),
                                    ((4,), (2, 4, 3)), ((0, 3, 4), (4, 2)), ((2, 3, 0), (2, 0, 3)),
                                    ((2, 3, 3, 4), (2, 3, 4, 5)), ((2, 1, 3, 4), (3, 4, 2)), ((4,), (2, 2, 4, 3)),
                                    ((1, 2, 1, 3, 4), (2, 1, 4, 2)), ((2, 0, 3, 4), (4, 2)), ((2, 2, 3, 4), (4,))],
                         ids=str)
def test_batched_matmul_matches_numpy(dtype, shapes):
    rng = make_rng(11)
    for layout in ("C", "F", "strided"):
        check(matmul_operator, operand(rng, dtype, shapes[0], layout), operand(rng, dtype, shapes[1], layout))


@pytest.mark.parametrize("ta, tb", [(np.int32, np.float32), (np.int64, np.float64), (np.float32, np.float64),
                                    (np.uint8, np.int8), (np.int16, np.uint32), (np.int64, np.uint64)])
def test_mixed_dtypes_promote_as_numpy(ta, tb):
    rng = make_rng(5)
    for f in PRODUCTS + [np_vdot, np_outer]:
        b_shape = (3, 4) if f is np_inner else (4, 2) if f is np_vdot else (4, 3)
        check(f, operand(rng, ta, (2, 4)), operand(rng, tb, b_shape))


@numba_differs
def test_integer_products_wrap_as_numpy():
    a = np.full((2, 3), 100, np.int8)
    assert np.array_equal(matmul_operator(a, a.T), a @ a.T)
    big = np.full(4, 2**62, np.int64)
    assert np_dot(big, big) == np.dot(big, big)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message (Numba refuses @= too)")
def test_in_place_matmul_is_a_typing_error_naming_the_plain_form():
    @ruchey.njit
    def in_place(a, b):
        a @= b
        return a

    a = make_rng(5).random((3, 3))
    with pytest.raises(ruchey.TypingError, match=r"x @= y.*x = x @ y"):
        in_place(a, a)
    with pytest.raises(ruchey.TypingError, match=r"x @= y"):
        in_place(np.float32([1, 2]), np.float32([3, 4]))


ERROR_CASES = [
    (matmul_operator, (2, 3), (4, 5)), (np_matmul, (3,), (4,)), (np_matmul, (2, 3), (4,)),
    (np_matmul, (3,), (4, 2)), (matmul_operator, (2, 2, 3), (3, 3, 2)), (matmul_operator, (2, 2, 3), (2, 4, 2)),
    (matmul_operator, (2, 3, 4, 5), (3, 3, 5, 6)), (matmul_operator, (2, 3, 4, 5), (2, 5, 6)),
    (np_dot, (2, 3), (4, 5)), (np_dot, (3,), (4,)), (np_dot, (2, 3), (4,)), (np_dot, (3,), (4, 2)),
    (np_inner, (2, 3), (4, 5)), (np_inner, (3,), (4,)), (np_inner, (4,), (4, 5)), (np_inner, (2, 3), (4,)),
    (np_vdot, (2, 3), (4, 5)), (np_vdot, (5,), (4,)),
]


@numba_differs
@pytest.mark.parametrize("f, sa, sb", ERROR_CASES, ids=lambda x: getattr(getattr(x, "py_func", x), "__name__", str(x)))
def test_shapes_that_do_not_fit_raise_numpys_value_error(f, sa, sb):
    a, b = np.ones(sa), np.ones(sb)
    with pytest.raises(ValueError) as expected:
        f.py_func(a, b)
    with pytest.raises(ValueError) as got:
        f(a, b)
    assert str(got.value) == str(expected.value)


@numba_differs
@pytest.mark.parametrize("f, args, match", [
    (matmul_operator, (np.ones(3), 2.0), "must be arrays"),
    (np_dot, (np.ones((2, 2, 2)), np.ones((2, 2))), "3 dimensions are not supported"),
])
def test_unsupported_products_are_typing_errors(f, args, match):
    with pytest.raises(ruchey.TypingError, match=match):
        f(*args)


def test_products_chain_and_repeat_without_leaking():
    @ruchey.njit
    def chain(a, b, c, n):
        s = 0.0
        for i in range(n):
            s += (a @ b @ c)[0, 0] + np.dot(a[0], b[:, 0])
        return s

    rng = make_rng(2)
    a, b, c = rng.random((3, 4)), rng.random((4, 5)), rng.random((5, 2))
    expected = chain.py_func(a, b, c, 50)
    assert abs(chain(a, b, c, 50) - expected) <= 1e-12 * abs(expected)


def test_float_products_without_scipy_raise_runtime_error(tmp_path):
    result = run_python_file("""
        import sys
        sys.modules["scipy.linalg.cython_blas"] = None   # as if SciPy were not installed
        sys.modules["scipy.linalg.cython_lapack"] = None
        import numpy as np
        import ruchey

        @ruchey.njit
        def mm(a, b):
            return a @ b

        print(mm(np.ones((2, 2), np.int64), np.ones((2, 2), np.int64)).tolist())
        try:
            mm(np.ones((2, 2)), np.ones((2, 2)))
        except RuntimeError as e:
            print("RuntimeError", e)

        @ruchey.njit
        def inv(a):
            return np.linalg.inv(a)

        try:
            inv(np.eye(2))
        except RuntimeError as e:
            print("RuntimeError", e)
    """, tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "[[2, 2], [2, 2]]"
    assert lines[1].startswith("RuntimeError") and "SciPy" in lines[1]
    assert lines[2].startswith("RuntimeError") and "SciPy" in lines[2]


# ---------------------------------------------------------------- numpy.linalg: solve, inv, det

@ruchey.njit
def linalg_solve(a, b):
    return np.linalg.solve(a, b)


@ruchey.njit
def linalg_inv(a):
    return np.linalg.inv(a)


@ruchey.njit
def linalg_det(a):
    return np.linalg.det(a)


def well_conditioned(rng, dtype, n, layout="C"):
    """A random matrix with a heavy diagonal (condition number near 1)."""
    a = operand(rng, np.float64, (n, n), layout) if np.dtype(dtype).kind == "f" else \
        rng.integers(-3, 4, (n, n)).astype(dtype)
    a[...] = a + np.eye(n, dtype=a.dtype) * (3 * n if n else 1)
    return a if np.dtype(dtype).kind != "f" else _same_layout(a, dtype) if layout == "strided" else \
        a.astype(dtype, order="K")


def assert_close(expected, got, n, what):
    """Equal within a few ulps of the result's dtype per element of the n x n matrix."""
    if np.ndim(expected) == 0:
        assert isinstance(got, float), f"{what}: {got!r}"
    else:
        assert type(got) is np.ndarray and got.dtype == expected.dtype and got.shape == expected.shape, \
            f"{what}: {got!r} != {expected!r}"
    expected = np.asarray(expected)
    eps = np.finfo(expected.dtype).eps
    got64, finite = np.asarray(got, np.float64), np.isfinite(expected)
    assert np.array_equal(got64[~finite], np.asarray(expected)[~finite]), f"{what}: {got} != {expected}"
    scale = max(1.0, float(np.max(np.abs(expected[finite]), initial=0.0)))
    assert np.all(np.abs(got64[finite] - expected[finite]) <= 16 * eps * scale * max(1, n * n)), \
        f"{what}: {got} != {expected}"


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("n", [0, 1, 2, 5, 30])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_solve_inv_det_match_numpy(dtype, n, layout):
    rng = make_rng(n * 7 + len(layout))
    a = well_conditioned(rng, dtype, n, layout if np.dtype(dtype).kind == "f" else "C")
    b, bm = operand(rng, np.float64, (n,), layout).astype(dtype), operand(rng, np.float64, (n, 3), layout)
    what = f"{np.dtype(dtype).name} {n}x{n} {layout}"
    assert_close(np.linalg.solve(a, b), linalg_solve(a, b), n, "solve " + what)
    assert_close(np.linalg.solve(a, bm), linalg_solve(a, bm), n, "solve (matrix) " + what)
    assert_close(np.linalg.inv(a), linalg_inv(a), n, "inv " + what)
    with np.errstate(over="ignore"):  # a float32 determinant may overflow, to inf in both
        assert_close(np.linalg.det(a), linalg_det(a), n, "det " + what)


@numba_differs
def test_float64_solve_inv_det_are_numpys_to_the_bit():
    """LAPACK's gesv (getrf for det) of a column-major copy, det as the sign
    times exp of the log-determinant: NumPy's own computation, to the bit
    where NumPy's OpenBLAS is the build SciPy's is (NumPy 2's wheels); NumPy
    1.26's wheels carry their own (0.3.23), whose LU rounds otherwise."""
    same = np.testing.assert_array_equal if not NUMPY1 else functools.partial(np.testing.assert_allclose, rtol=1e-13)
    rng = make_rng(41)
    for n in (1, 3, 6, 17):
        for a in (rng.random((n, n)), np.asfortranarray(rng.standard_normal((n, n))), rng.random((n, 2 * n))[:, ::2]):
            b = rng.random((n, 2))
            for got, want in ((linalg_solve(a, b[:, 0]), np.linalg.solve(a, b[:, 0])), (linalg_solve(a, b), np.linalg.solve(a, b)),
                              (linalg_inv(a), np.linalg.inv(a)), (linalg_det(a), np.linalg.det(a))):
                same(got, want)


def test_det_of_a_singular_matrix_is_zero_and_keeps_the_sign_of_swaps():
    assert linalg_det(np.ones((3, 3))) == np.linalg.det(np.ones((3, 3))) == 0.0
    p = np.eye(4)[[1, 0, 3, 2, ]][[0, 2, 1, 3]]
    assert linalg_det(p) == np.linalg.det(p)
    ints = np.array([[2, -1, 0], [1, 3, 4], [0, 5, -2]])
    assert linalg_det(ints) == pytest.approx(np.linalg.det(ints), rel=1e-14)


@numba_differs
@pytest.mark.parametrize("f, args", [
    (linalg_inv, (np.ones((3, 3)),)), (linalg_solve, (np.ones((3, 3)), np.ones(3))),
    (linalg_solve, (np.zeros((2, 2)), np.ones((2, 2)))), (linalg_inv, (np.ones((2, 3)),)),
    (linalg_det, (np.ones((3, 2)),)), (linalg_solve, (np.ones((2, 3)), np.ones(2))),
    (linalg_solve, (np.eye(3), np.ones(4))), (linalg_solve, (np.eye(3), np.ones((4, 2)))),
], ids=lambda x: getattr(getattr(x, "py_func", None), "__name__", "args"))
def test_linalg_errors_are_numpys(f, args):
    with pytest.raises(Exception) as expected:
        f.py_func(*args)
    with pytest.raises(Exception) as got:
        f(*args)
    assert type(got.value) is type(expected.value) and str(got.value) == str(expected.value)


@numba_differs
def test_linalg_of_a_vector_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="1-dimensional array given"):
        linalg_inv(np.ones(3))


# ---------------------------------------------------------------- out=

@ruchey.njit
def dot_out(a, b, out):
    return np.dot(a, b, out=out)


@ruchey.njit
def matmul_out(a, b, out):
    return np.matmul(a, b, out=out)


@pytest.mark.parametrize("f", [dot_out, matmul_out], ids=lambda f: f.py_func.__name__)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64], ids=lambda d: np.dtype(d).name)
def test_out_is_filled_and_returned(f, dtype):
    rng = make_rng(9)
    for sa, sb in [((3, 4), (4, 2)), ((3, 4), (4,)), ((4,), (4, 2)), ((3, 0), (0, 2))]:
        a, b = operand(rng, dtype, sa), operand(rng, dtype, sb)
        expected, got = np.zeros(np.dot(a, b).shape, dtype), np.zeros(np.dot(a, b).shape, dtype)
        f.py_func(a, b, expected)
        r = f(a, b, got)
        assert np.shares_memory(r, got) and r.shape == got.shape
        assert_product(expected, got, a, b, np.dot, f"{f.py_func.__name__} {sa} {sb}")


def test_matmul_out_may_be_any_layout_and_an_operand():
    rng = make_rng(4)
    a, b = rng.random((3, 3)), rng.random((3, 3))
    out = np.zeros((3, 3), order="F")
    matmul_out(a, b, out)
    assert np.allclose(out, a @ b, rtol=1e-14)
    x, y = a.copy(), a.copy()
    matmul_out(x, b, x)
    np.matmul(y, b, out=y)
    assert np.allclose(x, y, rtol=1e-14)
    stack = np.zeros((2, 3, 3))[:, ::-1]
    matmul_out(np.stack([a, b]), b, stack)
    assert np.allclose(stack, np.stack([a, b]) @ b, rtol=1e-14)


@numba_differs
@pytest.mark.parametrize("f, sa, sb, so, order", [
    (dot_out, (3, 4), (4, 2), (3, 3), "C"), (dot_out, (3, 4), (4, 2), (3, 2), "F"),
    (matmul_out, (3, 4), (4, 2), (3, 3), "C"), (matmul_out, (3, 4), (4, 2), (2, 2), "C"),
    (matmul_out, (3, 4), (4,), (2,), "C"), (matmul_out, (4,), (4, 3), (2,), "C"),
], ids=lambda v: getattr(v, "__name__", str(v)))
def test_out_of_another_shape_raises_numpys_value_error(f, sa, sb, so, order):
    a, b, out = np.ones(sa), np.ones(sb), np.zeros(so, order=order)
    with pytest.raises(ValueError) as expected:
        f.py_func(a, b, out)
    with pytest.raises(ValueError) as got:
        f(a, b, out)
    assert str(got.value) == str(expected.value)


def test_a_stack_of_products_into_out_of_another_count_raises_value_error():
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        matmul_out(np.ones((2, 3, 4)), np.ones((4, 2)), np.zeros((3, 3, 2)))
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        matmul_out(np.ones((2, 2, 3, 4)), np.ones((4, 2)), np.zeros((2, 3, 3, 2)))
    out = np.zeros((2, 2, 3, 2))
    matmul_out(np.ones((2, 1, 3, 4)), np.ones((2, 4, 2)), out)
    assert np.array_equal(out, np.ones((2, 1, 3, 4)) @ np.ones((2, 4, 2)))


@numba_differs
def test_out_of_another_dtype_or_dimensions_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="out= must be an array of the product's dtype"):
        dot_out(np.ones((2, 2)), np.ones((2, 2)), np.zeros((2, 2), np.float32))
    with pytest.raises(ruchey.TypingError, match="out= must be an array of the product's dtype"):
        matmul_out(np.ones((2, 2)), np.ones((2, 2)), np.zeros((1, 2, 2)))
    with pytest.raises(ruchey.TypingError, match="out= of a product of two vectors"):
        dot_out(np.ones(2), np.ones(2), np.zeros(()))
