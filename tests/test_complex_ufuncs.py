"""NumPy's ufuncs of complex numbers beyond cmath's: reciprocal, sign, rint,
exp2, log2, log1p, expm1 (one operand) and maximum, minimum, fmax, fmin,
float_power (two), on complex64 and complex128 arrays and scalars, each
compared with the function's Python original (NumPy) on generated values,
NaN, infinities and signed zeros included."""
import itertools
import math
import warnings

import numpy as np
import pytest

from ruchey import njit

from conftest import NUMPY1, numpy2_only

SPECIAL = (0.0, -0.0, 1.0, -1.0, 2.5, -0.5, math.inf, -math.inf, math.nan)


def special_array(dtype):
    return np.array([complex(a, b) for a, b in itertools.product(SPECIAL, SPECIAL)], dtype=dtype)


def random_array(seed, dtype, n=200, scale=4.0):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-scale, scale, n) + 1j * rng.uniform(-scale, scale, n)).astype(dtype)


def same(expected, got, rtol):
    expected, got = np.asarray(expected), np.asarray(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    for part in (np.real, np.imag):
        e, g = part(expected), part(got)
        assert np.array_equal(np.isnan(e), np.isnan(g))
        assert np.allclose(e, g, rtol=rtol, atol=0, equal_nan=True)


def unary(fn):
    return njit(lambda a: fn(a))


EXACT = {"reciprocal": np.reciprocal, "sign": np.sign, "rint": np.rint}
TRANSCENDENTAL = {"exp2": np.exp2, "log2": np.log2, "log1p": np.log1p, "expm1": np.expm1}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", sorted(EXACT))
def test_exact_complex_ufunc_matches_numpy_on_specials(name, dtype):
    f = unary(EXACT[name])
    for a in (special_array(dtype), random_array(1, dtype, scale=1e3)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            same(f.py_func(a), f(a), 1e-6 if dtype == np.complex64 else 1e-15)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", sorted(TRANSCENDENTAL))
def test_transcendental_complex_ufunc_matches_numpy(name, dtype):
    f = unary(TRANSCENDENTAL[name])
    a = random_array(2, dtype)
    same(f.py_func(a), f(a), 1e-5 if dtype == np.complex64 else 1e-12)


@pytest.mark.parametrize("name", sorted(EXACT) + sorted(TRANSCENDENTAL))
def test_complex_ufunc_of_a_scalar_is_a_complex(name):
    f = unary({**EXACT, **TRANSCENDENTAL}[name])
    for z in (1.5 - 2j, -0.25 + 0.75j, 3j):
        expected, got = f.py_func(z), f(z)
        assert isinstance(got, complex)
        assert abs(expected - got) <= 1e-12 * abs(expected) + 1e-300


def test_sign_of_zero_and_nan():
    f = unary(np.sign)
    a = np.array([0j, complex(math.nan, 0), complex(0, math.nan), 0.0 - 2j])
    same(f.py_func(a), f(a), 0)


PICKS = {"maximum": np.maximum, "minimum": np.minimum, "fmax": np.fmax, "fmin": np.fmin}


@pytest.mark.parametrize("name", sorted(PICKS))
def test_complex_pick_follows_numpy_order_and_nan_rules(name):
    fn = PICKS[name]
    f = njit(lambda a, b: fn(a, b))
    s = special_array(np.complex128)
    a, b = np.repeat(s, s.size), np.tile(s, s.size)  # every pair
    same(f.py_func(a, b), f(a, b), 0)


@pytest.mark.parametrize("name", sorted(PICKS))
def test_complex_pick_mixes_dtypes_and_scalars(name):
    fn = PICKS[name]
    f = njit(lambda a, b: fn(a, b))
    a = random_array(3, np.complex64, n=30)
    b = np.linspace(-3, 3, 30)
    same(f.py_func(a, b), f(a, b), 0)
    same(f.py_func(a, 0.5 + 1j), f(a, 0.5 + 1j), 0)
    assert f(1 + 2j, 1 + 3j) == f.py_func(1 + 2j, 1 + 3j)


def test_float_power_of_complex_is_complex128():
    f = njit(lambda a, b: np.float_power(a, b))
    a = random_array(4, np.complex64, n=40)
    b = random_array(5, np.complex128, n=40)
    same(f.py_func(a, b), f(a, b), 1e-12)
    same(f.py_func(a, 2.5), f(a, 2.5), 1e-12)
    x = np.linspace(0.5, 3, 40)
    same(f.py_func(x, 1 - 1j), f(x, 1 - 1j), 1e-12)


def test_complex_pick_of_strings_is_a_typing_error():
    from ruchey import TypingError
    f = njit(lambda a, b: np.maximum(a, b))
    with pytest.raises(TypingError):
        f(np.ones(3, np.complex128), "x")


# ---------------------------------------------------------------- reductions

def nan_sprinkled(seed, shape, dtype=np.complex128):
    rng = np.random.default_rng(seed)
    a = (rng.uniform(-3, 3, shape) + 1j * rng.uniform(-3, 3, shape)).astype(dtype)
    flat = a.reshape(-1)
    for k, v in zip(rng.choice(flat.size, 4, replace=False), (complex(math.nan, 1), complex(1, math.nan),
                                                              complex(math.nan, math.nan), complex(math.inf, 0))):
        flat[k] = v
    a.flat[3] = a.flat[7]  # ties
    return a


NAN_REDUCTIONS = {"nansum": np.nansum, "nanprod": np.nanprod, "nanmean": np.nanmean,
                  "nanmin": np.nanmin, "nanmax": np.nanmax, "ptp": np.ptp}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", sorted(NAN_REDUCTIONS))
def test_complex_nan_reduction_of_whole_array(name, dtype):
    fn = NAN_REDUCTIONS[name]
    f = njit(lambda a: fn(a))
    for seed in range(3):
        a = nan_sprinkled(seed, (5, 6), dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = f.py_func(a)
        same(np.asarray(expected), np.asarray(f(a), dtype=np.asarray(expected).dtype), 1e-5)


@pytest.mark.parametrize("name", sorted(NAN_REDUCTIONS))
def test_complex_nan_reduction_along_an_axis(name):
    fn = NAN_REDUCTIONS[name]
    f = njit(lambda a, k: fn(a, axis=k))
    a = nan_sprinkled(7, (4, 5, 3))
    for k in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            same(f.py_func(a, k), f(a, k), 1e-12)


def test_complex_nanmin_of_all_nan_is_nan():
    f = njit(lambda a: np.nanmin(a))
    a = np.array([complex(math.nan, 1), complex(2, math.nan)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = f.py_func(a)
    got = f(a)
    assert np.isnan(got) and np.isnan(expected)


def test_complex_ptp_of_empty_raises_value_error():
    f = njit(lambda a: np.ptp(a))
    with pytest.raises(ValueError):
        f(np.zeros(0, np.complex128))


def test_complex_sum_with_a_complex_dtype_accumulates_in_it():
    f = njit(lambda a: a.sum(dtype=np.complex64))
    g = njit(lambda a: np.prod(a, axis=0, dtype=np.complex128))
    a = random_array(8, np.complex128, n=24).reshape(6, 4)
    assert abs(f(a) - f.py_func(a)) <= 1e-5 * abs(f.py_func(a))
    b = random_array(3, np.complex64, n=24).reshape(6, 4)
    same(g.py_func(b), g(b), 1e-12)


def test_complex_sum_with_a_real_dtype_is_a_typing_error():
    from ruchey import TypingError
    f = njit(lambda a: a.sum(dtype=np.float64))
    with pytest.raises(TypingError):
        f(np.ones(3, np.complex128))


# ---------------------------------------------------------------- round, arange, linspace

@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_round_of_complex_rounds_each_part(dtype):
    f = njit(lambda a, d: np.round(a, d))
    g = njit(lambda a: a.round(2))
    h = njit(lambda a: np.around(a))
    a = np.concatenate([random_array(6, dtype, n=50, scale=500), special_array(dtype),
                        np.array([0.5 + 1.5j, 2.5 - 0.5j, -3.5 + 4.5j], dtype)])
    for d in (-2, -1, 0, 1, 3):
        same(f.py_func(a, d), f(a, d), 0)
    same(g.py_func(a), g(a), 0)
    same(h.py_func(a), h(a), 0)


def test_round_of_a_complex_scalar():
    f = njit(lambda z, d: np.round(z, d))
    for z in (1.2345 - 6.789j, 2.5 + 3.5j, -0.5j):
        for d in (0, 1, 2):
            assert f(z, d) == f.py_func(z, d)


def test_round_of_complex_into_out():
    f = njit(lambda a, o: np.round(a, 1, o))
    a = random_array(7, np.complex128, n=20)
    o1, o2 = np.zeros(20, np.complex128), np.zeros(20, np.complex128)
    f.py_func(a, o1)
    f(a, o2)
    same(o1, o2, 0)


def test_arange_of_complex_bounds():
    f3 = njit(lambda a, b, c: np.arange(a, b, c))
    f1 = njit(lambda b: np.arange(b))
    for args in [(1 + 1j, 5 + 2j, 1 + 0j), (0j, 10 + 10j, 1 + 1j), (2 - 1j, -3 + 0j, -0.5 + 0.25j),
                 (0j, 3 + 0j, 0.5 + 0j), (1 + 0j, 0j, 1 + 0j), (0.0, 4 + 4j, 1.5)]:
        same(f3.py_func(*args), f3(*args), 1e-15)
    for b in (3 + 1j, 4 + 0j, 5 + 9j, 1j):
        same(f1.py_func(b), f1(b), 0)


def test_arange_of_complex_step_zero_raises():
    f = njit(lambda a, b, c: np.arange(a, b, c))
    with pytest.raises(ZeroDivisionError):
        f(0j, 3 + 0j, 0j)


@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_of_complex_ends(endpoint):
    f = njit(lambda a, b, n, e: np.linspace(a, b, n, e))
    for a, b in [(1 + 2j, 5 - 1j), (0j, 1.0), (-3.0, 2j), (1 + 1j, 1 + 1j), (2 + 0j, 2 + 5j)]:
        for num in (0, 1, 2, 7):
            same(f.py_func(a, b, num, endpoint), f(a, b, num, endpoint), 1e-15)


@numpy2_only  # NumPy 1.x's linspace of complex64 ends gives complex128 (as of float32 ends float64)
def test_linspace_of_complex64_ends_keeps_complex64():
    f = njit(lambda a, b: np.linspace(a, b, 5))
    a, b = np.complex64(1 + 2j), np.complex64(3 - 1j)
    same(f.py_func(a, b), f(a, b), 1e-6)


SPREADS = {"nanvar": np.nanvar, "nanstd": np.nanstd}


@pytest.mark.parametrize("name", sorted(SPREADS))
def test_complex_nanvar_and_nanstd_leave_nan_out(name):
    fn = SPREADS[name]
    f = njit(lambda a: fn(a))
    g = njit(lambda a, k, d: fn(a, axis=k, ddof=d))
    a = nan_sprinkled(11, (4, 5))
    a[a == complex(math.inf, 0)] = 1 + 1j  # (an infinity's deviation is NaN both ways)
    same(f.py_func(a), f(a), 1e-12)
    for k in (0, 1):
        for d in (0, 1):
            same(g.py_func(a, k, d), g(a, k, d), 1e-12)


def test_complex_nanvar_without_degrees_of_freedom_is_nan():
    f = njit(lambda a, d: np.nanvar(a, ddof=d))
    a = np.array([1 + 1j, complex(math.nan, 0), 2 - 1j])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for d in (1, 2, 3):
            same(np.asarray(f.py_func(a, d)), np.asarray(f(a, d)), 1e-12)


CUMULATIVE = {"nancumsum": np.nancumsum, "nancumprod": np.nancumprod}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", sorted(CUMULATIVE))
def test_complex_nancumulative_takes_nan_as_identity(name, dtype):
    fn = CUMULATIVE[name]
    f = njit(lambda a: fn(a))
    g = njit(lambda a, k: fn(a, axis=k))
    a = nan_sprinkled(12, (4, 5), dtype)
    a[a == complex(math.inf, 0)] = 0.5j  # (no overflow into the products)
    same(f.py_func(a), f(a), 1e-5)
    for k in (0, 1):
        same(g.py_func(a, k), g(a, k), 1e-5)


# ---------------------------------------------------------------- searchsorted, interp

@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_of_complex_in_numpy_order(side):
    f = njit(lambda a, v: np.searchsorted(a, v, side=side))
    g = njit(lambda a, v: a.searchsorted(v))
    rng = np.random.default_rng(13)
    parts = np.array([-1.0, 0.0, 1.0, 2.0, math.nan])
    a = np.sort(rng.choice(parts, 30) + 1j * rng.choice(parts, 30))  # NaN parts sort last, ties kept
    v = special_array(np.complex128)
    same(f.py_func(a, v).astype(np.complex128), f(a, v).astype(np.complex128), 0)
    assert np.array_equal(g.py_func(a, v), g(a, v))
    for z in (0.5 + 0j, 1 + 1j, complex(1, math.nan), complex(math.nan, 0)):
        assert f(a, z) == f.py_func(a, z)
    x = np.sort(rng.uniform(-2, 2, 10))  # real elements, complex needles
    assert np.array_equal(f.py_func(x, v), f(x, v))


def test_interp_of_complex_values_interpolates_each_part():
    f = njit(lambda x, xp, fp: np.interp(x, xp, fp))
    g = njit(lambda x, xp, fp, lo, hi: np.interp(x, xp, fp, lo, hi))
    rng = np.random.default_rng(14)
    xp = np.sort(rng.uniform(-5, 5, 12))
    fp = rng.uniform(-3, 3, 12) + 1j * rng.uniform(-3, 3, 12)
    x = np.concatenate([rng.uniform(-7, 7, 40), xp[:3], [math.nan, math.inf, -math.inf]])
    same(f.py_func(x, xp, fp), f(x, xp, fp), 1e-12)
    same(g.py_func(x, xp, fp, 9j, -1 + 0j), g(x, xp, fp, 9j, -1 + 0j), 1e-12)
    assert f(0.25, xp, fp) == f.py_func(0.25, xp, fp)
    one = np.array([1.0]), np.array([2 - 3j])
    same(f.py_func(x, *one), f(x, *one), 0)


def test_interp_of_complex_x_is_a_typing_error():
    from ruchey import TypingError
    f = njit(lambda x, xp, fp: np.interp(x, xp, fp))
    with pytest.raises(TypingError):
        f(np.ones(3, np.complex128), np.arange(3.0), np.arange(3.0))


# ---------------------------------------------------------------- in kernels (computed inline)

KERNEL_UFUNCS = {"exp2": np.exp2, "log2": np.log2, "log1p": np.log1p, "expm1": np.expm1,
                 "reciprocal": np.reciprocal, "sign": np.sign, "rint": np.rint}


@pytest.mark.parametrize("name", sorted(KERNEL_UFUNCS))
def test_complex_ufunc_in_a_kernel_matches_numpy(name):
    from ruchey import cuda
    if name == "sign" and NUMPY1:
        pytest.skip("kernels compute NumPy 2's sign")
    fn = KERNEL_UFUNCS[name]

    @cuda.jit
    def kernel(z, out):
        i = cuda.grid(1)
        if i < z.size:
            out[i] = fn(z[i])

    z = random_array(15, np.complex128, n=100)
    z[:4] = [0j, 1.5 + 0j, -2.5j, 0.5 - 0.5j]
    out = np.zeros(z.size, np.complex128)
    kernel[(z.size + 31) // 32, 32](z, out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(fn(z), out, 1e-12)
