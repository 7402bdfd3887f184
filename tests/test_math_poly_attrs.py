"""NumPy's math and polynomial functions and the array attributes that
Numba compiles: numpy.geomspace, kaiser, iscomplex, isreal, unwrap, roots,
numpy.polynomial's functions, a.flags, `x in a`, and the percentile family
with array-likes for q. Each against the function's own Python original
on generated inputs."""
import numpy as np
import pytest

import ruchey
from conftest import make_rng, numpy2_only
from arraygen import LAYOUTS, array, check, shapes

RNG = np.random.default_rng(20261203)


# ---------------------------------------------------------------- geomspace

@ruchey.njit
def geomspace(start, stop, num, endpoint):
    return np.geomspace(start, stop, num, endpoint=endpoint)


@ruchey.njit
def geomspace_default(start, stop):
    return np.geomspace(start, stop)


@pytest.mark.parametrize("start, stop", [(1.0, 1000.0), (-1.0, -1000.0), (2, 7), (1e-3, 5.0), (3.0, 2.0),
                                         (-2.0, 8.0), (5.0, -0.5), (np.float32(1), np.float32(10)),
                                         (np.int8(-3), np.uint16(9)), (1e300, 1e-300)])
@pytest.mark.parametrize("num", [0, 1, 2, 7, 50])
@pytest.mark.parametrize("endpoint", [True, False])
def test_geomspace_matches_numpy(start, stop, num, endpoint):
    with np.errstate(all="ignore"):
        want = geomspace.py_func(start, stop, num, endpoint)
    got = geomspace(start, stop, num, endpoint)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=4e-15, equal_nan=True)
    if num:  # the ends are start and stop themselves
        assert got[0] == want[0]
    if num and endpoint:
        assert got[-1] == want[-1]


def test_geomspace_default_num_and_dtype():
    for a, b in [(1.0, 2.0 ** 49), (3, 3)]:  # within an ulp: NumPy's pow is its own
        got, want = geomspace_default(a, b), geomspace_default.py_func(a, b)
        assert got.dtype == want.dtype and got.shape == want.shape == (50,)
        np.testing.assert_allclose(got, want, rtol=2.3e-16)


# NumPy 1.x computes geomspace otherwise (ints truncate other values); ruchey gives NumPy 2's
@pytest.mark.parametrize("dtype", ["np.float32", "np.float64", pytest.param("np.int64", marks=numpy2_only),
                                   pytest.param("np.int16", marks=numpy2_only)])
def test_geomspace_dtype(dtype):
    f = ruchey.njit(eval(f"lambda a, b: np.geomspace(a, b, 6, dtype={dtype})"))
    for a, b in [(1.0, 100.0), (np.float32(2), np.float32(64)), (-1, -32)]:
        want, got = f.py_func(a, b), f(a, b)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=3e-7)


@numpy2_only  # NumPy 1.x takes a complex geomspace's sign otherwise
@pytest.mark.parametrize("start, stop", [(1j, 1000j), (-1 + 0j, -1000 + 0j), (1 + 1j, 1000 + 1000j), (-1j, 1000.0),
                                         (1, 10j), (3 + 4j, -5 - 2j), (np.complex64(1j), np.complex64(2)),
                                         (2j, 2j), (1e-3 + 1e-3j, 1e3)])
def test_geomspace_of_complex_ends_matches_numpy(start, stop):
    f = ruchey.njit(lambda a, b: np.geomspace(a, b, 4, dtype=np.complex64))
    for num in (0, 1, 2, 7, 50):
        for endpoint in (True, False):
            want, got = geomspace.py_func(start, stop, num, endpoint), geomspace(start, stop, num, endpoint)
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-14)  # (NumPy's complex multiply may round otherwise)
    want, got = f.py_func(start, stop), f(start, stop)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=3e-6)
    with pytest.raises(ValueError, match="cannot include zero"):
        geomspace(start, 0j, 3, True)
    with pytest.raises(ruchey.TypingError, match="complex"):
        ruchey.njit(lambda a, b: np.geomspace(a, b, 4, dtype=np.float64))(start, stop)


def test_geomspace_refuses_zero_and_negative_num():
    with pytest.raises(ValueError, match="Geometric sequence cannot include zero"):
        geomspace(0.0, 1.0, 5, True)
    with pytest.raises(ValueError, match="Geometric sequence cannot include zero"):
        geomspace(1, 0, 5, True)
    with pytest.raises(ValueError, match="must be non-negative"):
        geomspace(1.0, 2.0, -1, True)
    with pytest.raises(ruchey.TypingError, match="num must be an int"):
        geomspace(1.0, 2.0, 3.0, True)
    with pytest.raises(ruchey.TypingError, match="start and stop"):
        geomspace(np.ones(2), 2.0, 3, True)


# ---------------------------------------------------------------- iscomplex, isreal

@ruchey.njit
def complex_questions(x):
    return np.iscomplex(x), np.isreal(x), np.iscomplexobj(x), np.isrealobj(x)


COMPLEX_VALUES = np.array([1 + 0j, 1j, -0j, complex(0, np.nan), complex(np.nan, 0), complex(np.inf, -2)])


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint64, np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("shape", shapes())
@pytest.mark.parametrize("layout", LAYOUTS)
def test_iscomplex_isreal_of_arrays(dtype, shape, layout):
    if np.dtype(dtype).kind == "c":
        size = int(np.prod(shape)) * (2 ** len(shape) if layout == "strided" else 1)
        base = np.resize(COMPLEX_VALUES, size).astype(dtype)
        big = base.reshape(tuple(2 * s for s in shape) if layout == "strided" else shape)
        a = big[tuple(slice(None, None, 2) for _ in shape)] if layout == "strided" else big
        a = np.asfortranarray(a) if layout == "F" else a[..., ::-1] if layout == "reversed" and a.ndim else a
    else:
        a = array(RNG, dtype, shape, layout)
    if a.ndim == 0 and dtype in (np.bool_, np.int8):
        # ruchey's ufuncs read a 0-d array as a number only where its dtype
        # computes as one (not the narrow ints): a 0-d array of the answer
        got, want = complex_questions(a), complex_questions.py_func(a)
        assert [bool(g) for g in got] == [bool(w) for w in want]
        return
    check(complex_questions, a)


@pytest.mark.parametrize("x", [2, 2.5, True, 1j, 3 + 0j, np.complex64(-1j), np.float32(0.5)])
def test_iscomplex_isreal_of_numbers(x):
    check(complex_questions, x)


def test_iscomplex_of_a_list_literal():
    f = ruchey.njit(lambda: (np.iscomplex([1.0, 2j]), np.isreal((1, 2.5))))
    for got, want in zip(f(), f.py_func()):
        np.testing.assert_array_equal(got, want, strict=True)


# ---------------------------------------------------------------- x in a

@ruchey.njit
def contains(a, v):
    return v in a, v not in a


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.uint32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("shape", shapes())
@pytest.mark.parametrize("layout", LAYOUTS)
def test_in_array_is_any_element_equal(dtype, shape, layout):
    a = array(RNG, dtype, shape, layout)
    flat = a.reshape(-1)
    needles = [0, 1, 0.5, np.nan, True] + [flat[i] for i in range(0, flat.size, 3)]
    for v in needles:
        with np.errstate(all="ignore"):
            check(contains, a, v)


def test_in_complex_array():
    a = COMPLEX_VALUES
    for v in [1j, 1, 2j, complex(np.inf, -2)]:
        check(contains, a, v)


def test_in_array_needs_a_number():
    with pytest.raises(ruchey.TypingError, match="'in' an array needs a number"):
        contains(np.ones(3), np.ones(2))


# ---------------------------------------------------------------- a.flags

@ruchey.njit
def flags(a):
    return a.flags.c_contiguous, a.flags.f_contiguous, a.flags.contiguous


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float64, np.complex128])
@pytest.mark.parametrize("shape", shapes() + [(1, 4), (3, 1, 2), (1, 1)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_flags_contiguity_matches_numpy(dtype, shape, layout):
    a = array(RNG, dtype, shape, layout)
    check(flags, a)


def test_flags_of_views():
    a = np.arange(24.0).reshape(2, 3, 4)
    for v in [a.T, a[:, :1], a[:1], a[::2], a[:, ::-1], a[..., :0], a[0, :, 1], a.transpose(1, 0, 2), a[None]]:
        check(flags, v)


def test_flags_alone_cannot_be_returned():
    f = ruchey.njit(lambda a: a.flags)
    with pytest.raises(TypeError, match="ArrayFlags.*cannot be returned"):
        f(np.ones(2))
    g = ruchey.njit(lambda a: a.flags.owndata)
    with pytest.raises(ruchey.TypingError, match="owndata"):
        g(np.ones(2))


# ---------------------------------------------------------------- percentile's array-likes

@ruchey.njit
def quantiles_of_literals(a):
    return (np.percentile(a, [25.0, 75.0]), np.quantile(a, (0.1, 0.5, 1)), np.nanpercentile(a, [[10, 20], [30, 40]]),
            np.nanquantile(a, q=[0.0, 0.25]), np.percentile(a, q=(50,)))


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(7,), (3, 4), (1,), (2, 3, 4)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_percentile_of_literal_q(dtype, shape, layout):
    a = array(RNG, dtype, shape, layout)
    if a.dtype.kind == "f":
        a[np.isinf(a)] = 1.0
        a[(0,) * a.ndim] = 1.5  # not all NaN: NumPy's nan forms give their dtype then
    check(quantiles_of_literals, a)


# a float32 q: NumPy 1.x's quantiles are float64 (its promotion), NumPy 2's and ruchey's float32
@pytest.mark.parametrize("q", [[0, 1], [0.5], np.array([0, 1], np.int8),
                               pytest.param(np.array([0.5, 1.0], np.float32), marks=numpy2_only),
                               np.array([[0.25], [0.75]])])
@pytest.mark.parametrize("dtype", [np.int16, np.int64, np.float32, np.float64])
def test_quantiles_dtype_of_array_q(q, dtype):
    a = np.arange(1, 10, dtype=dtype)[::-1]
    f = ruchey.njit(lambda a, q: (np.quantile(a, q), np.percentile(a, q), np.nanquantile(a, q), np.nanpercentile(a, q)))
    check(f, a, np.asarray(q))
    g = ruchey.njit(lambda a: (np.quantile(a, [0, 1]), np.percentile(a, [0.5])))
    check(g, a)


def test_percentile_of_lists():
    f = ruchey.njit(lambda: (np.percentile([1.0, 5.0, 2.0, 8.0], [10.0, 90.0]), np.median((3, 1, 2)),
                             np.quantile([[1, 2], [3, 4]], 0.5)))
    check(f)
    from ruchey.typed import List
    g = ruchey.njit(lambda a, q: np.percentile(a, q))
    q = List([25.0, 50.0])
    np.testing.assert_array_equal(g(np.arange(9.0), q), np.percentile(np.arange(9.0), [25.0, 50.0]))


def test_percentile_bad_q():
    f = ruchey.njit(lambda a: np.percentile(a, [25.0, 175.0]))
    with pytest.raises(ValueError, match=r"Percentiles must be in the range \[0, 100\]"):
        f(np.arange(5.0))
    g = ruchey.njit(lambda a: np.quantile(a, (0.5, -0.1)))
    with pytest.raises(ValueError, match=r"Quantiles must be in the range \[0, 1\]"):
        g(np.arange(5.0))


# ---------------------------------------------------------------- kaiser

@ruchey.njit
def kaiser(m, beta):
    return np.kaiser(m, beta)


@pytest.mark.parametrize("m", [-3, 0, 1, 2, 3, 8, 51, 256])
@pytest.mark.parametrize("beta", [0.0, 0.5, 5, 8.6, 14.0, 40.0, -4.0, True])
def test_kaiser_matches_numpy(m, beta):
    want, got = kaiser.py_func(m, beta), kaiser(m, beta)
    assert got.dtype == want.dtype == np.float64 and got.shape == want.shape
    # NumPy's i0 series with libm's exp and sqrt: within a few ulp of the peak 1.0
    np.testing.assert_allclose(got, want, rtol=0, atol=2e-15)
    if m > 1:
        assert got[0] == got[-1]


def test_kaiser_arguments():
    with pytest.raises(ruchey.TypingError, match="takes an int M"):
        kaiser(5.0, 1.0)
    with pytest.raises(ruchey.TypingError, match="int or float beta"):
        kaiser(5, np.ones(2))


# ---------------------------------------------------------------- unwrap

@ruchey.njit
def unwrap(p):
    return np.unwrap(p)


@ruchey.njit
def unwrap_with(p, discont, axis, period):
    return np.unwrap(p, discont, axis, period=period)


@ruchey.njit
def unwrap_int_period(p):
    return np.unwrap(p, period=4), np.unwrap(p, discont=3, period=5)


def phases(dtype, shape, layout, scale=4.0):
    base = RNG.uniform(-scale, scale, tuple(2 * s for s in shape) if layout == "strided" else shape)
    base = np.cumsum(base, axis=-1) if base.ndim else base
    if np.dtype(dtype).kind in "iu":
        base = np.round(base * 3)
    a = base.astype(dtype)
    if layout == "strided":
        a = a[tuple(slice(None, None, 2) for _ in shape)]
    elif layout == "F":
        a = np.asfortranarray(a)
    elif layout == "reversed" and a.ndim:
        a = a[..., ::-1]
    return a


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.float32, np.float64])
@pytest.mark.parametrize("shape", [s for s in shapes() if s])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_unwrap_matches_numpy(dtype, shape, layout):
    p = phases(dtype, shape, layout)
    want, got = unwrap.py_func(p), unwrap(p)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-6 if p.dtype == np.float32 else 1e-13, atol=1e-12)
    if p.dtype.kind == "i":  # NumPy's -period//2 does not fit an unsigned dtype
        check(unwrap_int_period, p)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
@pytest.mark.parametrize("discont, period", [(None, 2.5), (1.0, 2.5), (4.0, 6.0), (0.5, 1), (3, 7)])
def test_unwrap_axis_discont_period(axis, discont, period):
    p = phases(np.float64, (3, 5, 4), "C")
    want, got = unwrap_with.py_func(p, discont, axis, period), unwrap_with(p, discont, axis, period)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-12)


def test_unwrap_boundary_steps_keep_their_sign():
    p = np.array([0.0, np.pi, 0.0, -np.pi, 2 * np.pi, 0.0])
    check(unwrap, p)
    q = np.array([0, 2, 0, -2, 4, 0, 5, 1], np.int64)
    check(unwrap_int_period, q)


def test_unwrap_of_a_list_literal_and_empty():
    f = ruchey.njit(lambda: (np.unwrap([0.0, 4.0, 8.0, 1.0]), np.unwrap((1, 5, -3))))
    got, want = f(), f.py_func()
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-14)
    check(unwrap, np.zeros((2, 0)))
    check(unwrap, np.zeros(0, np.int16))


def test_unwrap_bad_arguments():
    with pytest.raises(ValueError, match="axis 2 is out of bounds for array of dimension 2"):
        unwrap_with(np.ones((2, 3)), 1.0, 2, 6.0)
    with pytest.raises(ruchey.TypingError, match="at least one dimension"):
        unwrap(2.0)
    with pytest.raises(ruchey.TypingError, match="complex"):
        unwrap(np.ones(3, np.complex128))
    with pytest.raises(ruchey.TypingError, match="at least one dimension"):
        unwrap(np.ones(3, np.bool_))
    with pytest.raises(ruchey.TypingError, match="axis must be an integer, got None"):
        ruchey.njit(lambda p: np.unwrap(p, None, None))(np.ones(3))
    with pytest.raises(ruchey.TypingError, match="discont must be a number"):
        unwrap_with(np.ones(3), np.ones(2), -1, 6.0)
    with pytest.raises(ruchey.TypingError, match="axis must be an integer"):
        unwrap_with(np.ones(3), 1.0, 0.5, 6.0)


# ---------------------------------------------------------------- roots

@ruchey.njit
def roots(p):
    return np.roots(p)


def real_rooted(dtype, k):
    """Coefficients of a polynomial with k distinct real roots, zeros padded both sides."""
    r = np.sort(RNG.uniform(-3, 3, k)) + np.arange(k)  # apart from each other
    return np.concatenate([np.zeros(RNG.integers(0, 3)), np.poly(r) if k else [2.5], np.zeros(RNG.integers(0, 3))]).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64])
@pytest.mark.parametrize("k", [0, 1, 2, 5, 9])
def test_roots_match_numpy(dtype, k):
    p = real_rooted(dtype, k)
    if np.dtype(dtype).kind == "c":
        p = p * np.exp(0.3j)
    want, got = roots.py_func(p), roots(p)
    # without a root to compute NumPy's are float64 (its hstack with array([])): ruchey's keep p's dtype
    assert got.dtype == (want.dtype if k else p.dtype) and got.shape == want.shape
    order = lambda v: v[np.lexsort((v.imag, v.real))] if v.size else v
    np.testing.assert_allclose(order(got), order(want), rtol=2e-3 if p.dtype.itemsize <= 8 else 1e-9, atol=1e-9)


@pytest.mark.parametrize("p", [[1, -3, 2], [0, 0, 1, -6, 11, -6, 0, 0], [2, 4], [7], [0, 0], [0, 3, 0]])
def test_roots_of_ints_and_strided(p):
    a = np.array(p, np.int64)
    check(roots, a)
    big = np.repeat(a.astype(np.float64), 2)[::2]
    check(roots, big)
    check(roots, a.astype(np.float64)[::-1][::-1])


def test_roots_of_a_literal_list():
    f = ruchey.njit(lambda: np.roots([1.0, -5.0, 6.0]))
    check(f)


def test_roots_complex_of_real_coefficients_raise_as_numba():
    # NumPy's result dtype depends on the values: complex where a root is;
    # ruchey's types cannot, so, as Numba's, real coefficients give real roots
    with pytest.raises(ValueError, match="a real domain argument to roots cannot produce a complex domain result"):
        roots(np.array([1.0, 0.0, 1.0]))
    got = roots(np.array([1.0, 0.0, 1.0], np.complex128))
    want = np.roots([1.0, 0.0, 1.0])
    np.testing.assert_allclose(got[np.argsort(got.imag)], want[np.argsort(want.imag)], atol=1e-15)


def test_roots_bad_input():
    with pytest.raises(ruchey.TypingError, match="rank-1"):
        roots(np.ones((2, 2)))
    with pytest.raises(np.linalg.LinAlgError, match="infs or NaNs"):
        roots(np.array([1.0, np.nan, 2.0]))


# ---------------------------------------------------------------- numpy.polynomial

import numpy.polynomial.polynomial as poly  # noqa: E402
from numpy.polynomial import polyutils  # noqa: E402


@ruchey.njit
def poly_pairs(a, b):
    return poly.polyadd(a, b), poly.polysub(a, b), poly.polymul(a, b), poly.polydiv(a, b)


@ruchey.njit
def poly_orders(c, m):
    return poly.polyint(c), poly.polyint(c, m), poly.polyder(c), poly.polyder(c, m=m)


def coefficient_vector(dtype, n, layout="C", trailing=0):
    v = RNG.integers(-5, 6, n + trailing).astype(np.float64)
    if n:
        v[n - 1] = v[n - 1] or 3.0
    v[n:] = 0
    if np.dtype(dtype).kind == "c":
        v = v + 1j * RNG.integers(-3, 4, v.size)
    a = v.astype(dtype)
    if layout == "strided":
        a = np.repeat(a, 2)[::2]
    elif layout == "reversed":
        a = a[::-1].copy()[::-1]
    return a


def assert_close(got, want, dtype):
    """dtype, shape, and values: to float32's precision for float32 (computed in double here)"""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_close(g, w, dtype)
        return
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    single = np.dtype(dtype) in (np.float32, np.complex64)
    np.testing.assert_allclose(got, want, rtol=1e-5 if single else 1e-12, atol=1e-5 if single else 1e-12)


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.bool_, np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("na, nb", [(1, 1), (4, 2), (2, 4), (5, 5), (7, 1), (3, 3)])
@pytest.mark.parametrize("layout", ["C", "strided", "reversed"])
def test_polynomial_pairs_match_numpy(dtype, na, nb, layout):
    a = coefficient_vector(dtype, na, layout, trailing=1)
    b = coefficient_vector(dtype, nb, layout)
    if np.dtype(dtype) == np.bool_:  # NumPy's ValueError: no common type
        with pytest.raises(ruchey.TypingError, match="no common type"):
            poly_pairs(a, b)
        return
    assert_close(poly_pairs(a, b), poly_pairs.py_func(a, b), dtype)


@pytest.mark.parametrize("da, db", [(np.int64, np.float32), (np.float32, np.float64), (np.float32, np.complex64),
                                    (np.int16, np.complex128), (np.uint8, np.float32)])
def test_polynomial_pairs_common_type(da, db):
    a, b = coefficient_vector(da, 4), coefficient_vector(db, 3)
    assert_close(poly_pairs(a, b), poly_pairs.py_func(a, b), np.float32)


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("n", [0, 1, 2, 6])
@pytest.mark.parametrize("m", [0, 1, 3, 8])
def test_polyint_polyder_match_numpy(dtype, n, m):
    c = coefficient_vector(dtype, n, trailing=1 if n else 0)
    if n == 0:
        with pytest.raises(IndexError):
            poly_orders(c, m)
        return
    assert_close(poly_orders(c, m), poly_orders.py_func(c, m), dtype)
    z = np.zeros(1, dtype)  # a lone zero integrates to itself
    assert_close(poly_orders(z, m), poly_orders.py_func(z, m), dtype)


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shape", [(2, 2), (4, 3), (3, 2, 2), (1, 3), (3, 0), (1, 1)], ids=str)
def test_polyint_polyder_of_columns_match_numpy(dtype, shape):
    """An N-d c: a polynomial along axis 0 for each index of the others, as NumPy's axis=0."""
    c = RNG.integers(-5, 6, shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        c = c + 1j * RNG.integers(-3, 4, shape)
    for a in (c, c[::-1], np.asfortranarray(c), np.zeros_like(c[:1])):  # a lone zero row stays itself
        for m in (0, 1, 3):
            assert_close(poly_orders(a, m), poly_orders.py_func(a, m), dtype)


@ruchey.njit
def polyval(x, c):
    return poly.polyval(x, c)


@pytest.mark.parametrize("cdtype", [np.int64, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("xdtype", [np.int32, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shape", [s for s in shapes() if s])
def test_polyval_of_arrays(cdtype, xdtype, shape):
    c = coefficient_vector(cdtype, 4)
    x = array(RNG, np.float64, shape).astype(xdtype) if np.dtype(xdtype).kind != "i" else \
        RNG.integers(-4, 5, shape).astype(xdtype)
    x = np.where(np.isfinite(x), x, 1.5).astype(xdtype) if x.dtype.kind in "fc" else x
    x = np.clip(x, -50, 50) if x.dtype.kind == "f" else x
    want, got = polyval.py_func(x, c), polyval(x, c)
    assert_close(got, want, np.float32 if np.float32 in (cdtype, xdtype) else np.float64)


@pytest.mark.parametrize("x", [2.0, -1, 0.5 + 1j, np.float32(1.5)])
@pytest.mark.parametrize("c", [[1, 2, 3], (1.5,), [0.0, 0.0, 1j]])
def test_polyval_of_numbers_and_literals(x, c):
    f = ruchey.njit(lambda x: (poly.polyval(x, [1.0, -2.0, 0.5]), poly.polyval(2, (3, 4)), poly.polyval([1.0, 2.0], 3.0)))
    check(f, 1.25)
    got, want = polyval(x, np.array(c)), polyval.py_func(x, np.array(c))
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert np.asarray(got).dtype == np.asarray(want).dtype


@pytest.mark.parametrize("xdtype", [np.int32, np.float32, np.float64, np.complex128])
def test_polyval_at_a_0d_array_is_a_number_as_numpys(xdtype):
    for cdtype in (np.int64, np.float64, np.complex128):
        c = coefficient_vector(cdtype, 4)
        for v in (0, -3, 2.5):
            x = np.array(v).astype(xdtype)
            want, got = polyval.py_func(x, c), polyval(x, c)
            assert np.ndim(got) == 0 and not isinstance(got, np.ndarray)
            assert type(got) is type(want.item()), (x, c)
            np.testing.assert_allclose(got, want, rtol=1e-6 if np.float32 in (xdtype, cdtype) else 1e-14)


@ruchey.njit
def polyvals_of_columns(x, c):
    return poly.polyval(x, c), poly.polyval(x, c, True), poly.polyval(x, c, tensor=False)


@pytest.mark.parametrize("cshape", [(2, 2), (3, 2, 3), (4, 1), (1, 3)], ids=str)
def test_polyval_of_an_nd_c_evaluates_each_column_as_numpys(cshape):
    """c's columns' shape, then x's (tensor), or the two broadcast."""
    for cdtype in (np.int64, np.float64, np.complex128):
        c = RNG.integers(-4, 5, cshape).astype(cdtype)
        for x in (np.array([1, 2]), RNG.standard_normal((2, 3)), RNG.standard_normal(3)[::-1], np.zeros(0), 2.5, 3, 1j,
                  np.array(1.5), np.float32(0.5)):
            try:
                want = polyvals_of_columns.py_func(x, c)
            except ValueError:
                with pytest.raises(ValueError, match="could not be broadcast"):
                    polyvals_of_columns(x, c)
                continue
            got = polyvals_of_columns(x, c)
            for g, w in zip(got, want):
                assert g.shape == w.shape and g.dtype == w.dtype, (x, c.shape)
                np.testing.assert_allclose(g, w, rtol=1e-13)
    with pytest.raises(ruchey.TypingError, match="tensor must be a constant"):
        ruchey.njit(lambda x, c, t: poly.polyval(x, c, t))(np.ones(2), np.ones((2, 2)), True)


@ruchey.njit
def trimseq(s):
    return polyutils.trimseq(s)


@pytest.mark.parametrize("s", [[1.0, 0.0, 0.0], [0.0, 0.0], [], [0, 2, 0], [3], [1j, 0j], [np.nan, 0.0], [0.0, -0.0, 1.0]])
def test_trimseq_is_a_view_without_trailing_zeros(s):
    a = np.array(s)
    got, want = trimseq(a), trimseq.py_func(a)
    np.testing.assert_array_equal(got, want, strict=True)
    if a.size:
        got[0] = 7
        assert a[0] == 7, "trimseq gives a view of its argument, as NumPy's"


def test_polynomial_literals_and_numbers():
    f = ruchey.njit(lambda: (poly.polyadd((1, 2), [3.0]), poly.polymul(2, (1j, 2)), poly.polysub(1.5, 2),
                             poly.polydiv([1.0, 2.0, 3.0], 2.0), poly.polyint((1, 2, 3), 2), poly.polyder([1, 2, 3])))
    got, want = f(), f.py_func()
    assert_close(got, want, np.float64)


def test_polynomial_bad_input():
    with pytest.raises(ValueError, match="Coefficient array is empty"):
        poly_pairs(np.zeros(0), np.ones(2))
    with pytest.raises(ZeroDivisionError):
        ruchey.njit(lambda a, b: poly.polydiv(a, b))(np.ones(3), np.zeros(2))
    with pytest.raises(ValueError, match="order of integration must be non-negative"):
        poly_orders(np.ones(3), -1)
    with pytest.raises(ruchey.TypingError, match="not 1-d"):
        poly_pairs(np.ones((2, 2)), np.ones(2))
    with pytest.raises(ruchey.TypingError, match="m must be an integer"):
        poly_orders(np.ones(3), 1.5)
    with pytest.raises(IndexError):
        polyval(2.0, np.zeros(0))
    with pytest.raises(ruchey.TypingError, match="1-d array"):
        trimseq(np.ones((2, 2)))


# ---------------------------------------------------------------- a.flat

@ruchey.njit
def flat_reads(a):
    total = 0.0
    count = 0
    for v in a.flat:
        total += v
        count += 1
    return total, count, len(a.flat), a.flat[0], a.flat[-1], a.flat[count // 2]


@ruchey.njit
def flat_writes(a):
    a.flat[0] = 7
    a.flat[-1] = -3
    a.flat[len(a.flat) // 2] += 1
    return a


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shape", [s for s in shapes() if np.prod(s) > 0])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_flat_reads_in_c_order(dtype, shape, layout):
    a = array(RNG, np.float64, shape, layout) if np.dtype(dtype).kind == "c" else array(RNG, dtype, shape, layout)
    a = a.astype(dtype) if a.dtype != dtype else a
    with np.errstate(all="ignore"):
        want = flat_reads.py_func(a)
        got = flat_reads(a)
    assert got[1:3] == want[1:3]
    for g, w in zip(got[3:], want[3:]):
        np.testing.assert_array_equal(g, w)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4), ()])
def test_flat_writes_a_c_contiguous_or_1d_array(shape):
    a = np.arange(float(np.prod(shape))).reshape(shape)
    check(flat_writes, a)
    if a.ndim == 1:
        check(flat_writes, np.arange(10.0)[::2])


@pytest.mark.parametrize("view", [lambda a: a.T, lambda a: a[:, ::2], lambda a: a[::-1, 1:]])
def test_flat_writes_of_other_layouts_write_the_array_in_c_order(view):
    """a.flat[i] = v of a transpose or a strided view writes a's element at
    C-order position i, as NumPy's flatiter."""
    base = np.arange(24.0).reshape(4, 6)
    got, want = base.copy(), base.copy()
    flat_writes(view(got))
    flat_writes.py_func(view(want))
    assert np.array_equal(got, want)


def test_flat_index_out_of_range():
    f = ruchey.njit(boundscheck=True)(lambda a, i: a.flat[i])
    with pytest.raises(IndexError):
        f(np.ones((2, 3)), 6)
    assert f(np.arange(6.0).reshape(2, 3), -6) == 0.0


# ---------------------------------------------------------------- as_series

@ruchey.njit
def as_series_pair(a, b):
    return polyutils.as_series((a, b))


@ruchey.njit
def as_series_untrimmed(a, b):
    return polyutils.as_series([a, b, 3], trim=False)


def assert_same_series(got, want):
    assert isinstance(got, list) and len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w, strict=True)


@pytest.mark.parametrize("da, db", [(np.float64, np.int64), (np.float32, np.float32), (np.int8, np.complex64),
                                    (np.float32, np.complex128), (np.uint16, np.float32)])
@pytest.mark.parametrize("layout", ["C", "strided", "reversed"])
def test_as_series_matches_numpy(da, db, layout):
    a = coefficient_vector(da, 3, layout, trailing=2)
    b = coefficient_vector(db, 1, layout, trailing=1)
    assert_same_series(as_series_pair(a, b), as_series_pair.py_func(a, b))
    assert_same_series(as_series_untrimmed(a, b), as_series_untrimmed.py_func(a, b))


def test_as_series_of_tuples_numbers_and_a_tuple_variable():
    f = ruchey.njit(lambda: polyutils.as_series([(1, 2, 0), (3.5,), 2]))
    assert_same_series(f(), f.py_func())
    g = ruchey.njit(lambda t: polyutils.as_series(t))
    t = (np.array([1, 0]), np.array([2j, 0, 0]))
    assert_same_series(g(t), g.py_func(t))


@ruchey.njit
def as_series_of(a, trim):
    return polyutils.as_series(a), polyutils.as_series(a, trim)


@numpy2_only  # (NumPy 1's as_series trims otherwise)
@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex128])
def test_as_series_of_an_array_or_a_list_takes_its_items(dtype):
    """A 1-d array's numbers, a 2-d array's rows, a list's vectors: each a series."""
    rng = make_rng(9)
    m = rng.integers(-2, 3, (4, 5)).astype(dtype)
    m[:, 3:] = 0
    for a in (m, m[0], m[::-1, ::2], np.asfortranarray(m), m[:0], [m[0], m[1][:2]], [m[2]]):
        for trim in (True, False):
            got, want = as_series_of(a, trim), as_series_of.py_func(a, trim)
            for g, w in zip(got, want):
                assert_same_series(g, w)


def test_as_series_of_a_tuple_of_lists():
    f = ruchey.njit(lambda t, trim: polyutils.as_series(t, trim))
    for t in (([1, 2, 3, 4, 0], [1, 2, 3]), (2, [1.1, 0.0]), ([1, 2, 3, 0],), ([1j, 0j], np.arange(3.0))):
        for trim in (True, False):
            assert_same_series(f(t, trim), f.py_func(t, trim))


def test_as_series_bad_input():
    with pytest.raises(ValueError, match="Coefficient array is empty"):
        as_series_pair(np.zeros(0), np.ones(2))
    with pytest.raises(ruchey.TypingError, match="no common type"):
        as_series_pair(np.ones(2, np.bool_), np.ones(2))
    with pytest.raises(ruchey.TypingError, match="must be a 1-d array"):
        as_series_pair(np.ones((2, 2)), np.ones(2))
    with pytest.raises(ruchey.TypingError, match="1-d or 2-d array"):
        ruchey.njit(lambda a: polyutils.as_series(a))(np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="Coefficient array is empty"):
        ruchey.njit(lambda a: polyutils.as_series(a))(np.ones((2, 0)))
