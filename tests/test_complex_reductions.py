"""Reductions and running operations of complex arrays in compiled code:
sum, prod, mean, var, std (whole, or along an axis known at compile time or
only at run time; ddof), any, all, count_nonzero, amin and amax, cumsum and cumprod (flattened or along an axis),
diff. Each compared with NumPy (the function's Python original) on
generated complex64 and complex128 arrays of every layout, empty ones and
ones holding infinities and NaN included."""
import warnings

import numpy as np
import pytest

from ruchey import njit

from arraygen import define

SHAPES = [(0,), (1,), (7,), (3, 4), (4, 1), (0, 3), (2, 3, 4)]
LAYOUTS = ("C", "F", "strided", "reversed")
CTYPES = (np.complex64, np.complex128)


def complex_array(rng, dtype, shape, layout):
    """Values of one magnitude (products and sums stay finite, so that a
    tolerance means the same everywhere), in the given layout: "C", "F",
    "strided" (every second element along each axis), "reversed"."""
    a = (rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)).astype(dtype)
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "strided" and a.ndim:
        big = np.zeros(tuple(2 * s for s in shape), dtype)
        every_second = tuple(slice(None, None, 2) for _ in shape)
        big[every_second] = a
        return big[every_second]
    if layout == "reversed" and a.ndim:
        return np.ascontiguousarray(a[..., ::-1])[..., ::-1]
    return a


def assert_close(expected, got, dtype, what):
    """Arrays of the same dtype and shape; a number of the same kind (a
    Python complex or float, as NumPy scalars come back from compiled code)."""
    if np.ndim(expected) == 0:
        assert type(got) is type(np.asarray(expected).item()), f"{what}: {type(got)} for {type(expected)}"
        expected, got = np.asarray(expected), np.asarray(got, dtype=np.asarray(expected).dtype)
    expected, got = np.asarray(expected), np.asarray(got)
    assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype} != {expected.dtype}"
    assert got.shape == expected.shape, f"{what}: shape {got.shape} != {expected.shape}"
    # NumPy sums pairwise, compiled code in order: the same sum, rounded differently
    rtol = 1e-5 if np.dtype(dtype) == np.complex64 else 1e-13
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * 100, equal_nan=True, err_msg=what)


def compiled(src):
    return njit(define(src))


def run_both(f, a, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return f.py_func(a.copy(), *args), f(a, *args)


REDUCTIONS = ["sum", "prod", "mean", "var", "std"]


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("dtype", CTYPES, ids=lambda t: np.dtype(t).name)
def test_whole_array_reductions(name, dtype):
    fn = compiled(f"def f(a):\n    return np.{name}(a)\n")
    meth = compiled(f"def f(a):\n    return a.{name}()\n")
    rng = np.random.default_rng(1)
    for shape in SHAPES:
        for layout in LAYOUTS:
            a = complex_array(rng, dtype, shape, layout)
            for f in (fn, meth):
                assert_close(*run_both(f, a), dtype, f"{name}{shape} {layout}")


@njit
def whole_sums(a):
    return np.sum(a), a.sum(), np.mean(a), np.nansum(a)


@pytest.mark.parametrize("dtype", CTYPES, ids=lambda t: np.dtype(t).name)
def test_whole_sums_of_a_1d_or_contiguous_array_are_numpys_pairwise_sum_to_the_bit(dtype):
    """NumPy sums the parts pairwise (8 accumulators, blocks of 128 parts,
    halves above); nansum with an element holding a NaN as 0."""
    rng = np.random.default_rng(7)
    for n in (0, 1, 3, 4, 5, 8, 63, 64, 65, 129, 1001, 5003):
        c = (rng.standard_normal(n) * 1e3 + 1j * rng.standard_normal(n)).astype(dtype)
        if n > 8:
            c[::7] = complex(np.nan, 1.0)
        for a in (c, c[::3], c[::-1], c[: n - n % 6].reshape(3, -1), np.asfortranarray(c[: n - n % 6].reshape(-1, 2))):
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore", RuntimeWarning)
                expected = whole_sums.py_func(a)  # (of a itself: a copy is C-ordered, summed in another order)
            for e, g in zip(expected, whole_sums(a)):
                assert np.asarray(g, dtype=dtype).tobytes() == np.asarray(e, dtype=dtype).tobytes(), (n, a.strides)


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("dtype", CTYPES, ids=lambda t: np.dtype(t).name)
def test_reductions_along_an_axis(name, dtype):
    runtime = compiled(f"def f(a, k):\n    return np.{name}(a, k)\n")
    rng = np.random.default_rng(2)
    for shape in [s for s in SHAPES if len(s) > 1] + [(5,)]:
        nd = len(shape)
        for layout in LAYOUTS:
            a = complex_array(rng, dtype, shape, layout)
            for axis in range(-nd, nd):
                assert_close(*run_both(runtime, a, axis), dtype, f"{name}{shape} axis={axis} {layout}")
    for axis in (0, -1):  # an axis known at compile time, as a function's and a method's argument
        const = compiled(f"def f(a):\n    return np.{name}(a, axis={axis}), a.{name}(axis={axis})\n")
        a = complex_array(rng, dtype, (3, 4), "F")
        for e, g in zip(*run_both(const, a)):
            assert_close(e, g, dtype, f"{name} axis={axis}")


def with_zeros_and_nan(a, rng):
    """a with whole rows of zeros, scattered zeros and (in the second) a NaN part."""
    a = a.copy()
    if a.size:
        a.reshape(-1)[rng.integers(0, a.size, a.size // 2)] = 0
    if a.ndim > 1 and a.size:
        a[0] = 0
    return [a, a] if not a.size else [a, np.where(np.arange(a.size).reshape(a.shape) == a.size - 1,
                                                  complex(np.nan, 1), a).astype(a.dtype)]


@pytest.mark.parametrize("name", ["any", "all", "count_nonzero", "amin", "amax"])
@pytest.mark.parametrize("dtype", CTYPES, ids=lambda t: np.dtype(t).name)
def test_truth_and_extreme_reductions(name, dtype):
    whole = compiled(f"def f(a):\n    return np.{name}(a)\n")
    along = compiled(f"def f(a, k):\n    return np.{name}(a, axis=k)\n")
    method = compiled(f"def f(a):\n    return a.{name}()\n") if name in ("any", "all") else None
    rng = np.random.default_rng(3)
    for shape in SHAPES:
        for layout in LAYOUTS:
            for a in with_zeros_and_nan(complex_array(rng, dtype, shape, layout), rng):
                if name.startswith("am") and not a.size:
                    with pytest.raises(ValueError, match="zero-size array"):
                        whole(a)
                    continue
                assert_close(*run_both(whole, a), dtype, f"{name}{shape} {layout}")
                if method:
                    assert_close(*run_both(method, a), dtype, f"a.{name}(){shape} {layout}")
                for axis in range(-a.ndim, a.ndim) if a.ndim > 1 and 0 not in a.shape else ():
                    assert_close(*run_both(along, a, axis), dtype, f"{name}{shape} axis={axis} {layout}")


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("ddof", [0, 1, 2, 5])
def test_var_and_std_with_ddof(name, ddof):
    whole = compiled(f"def f(a, d):\n    return np.{name}(a, ddof=d)\n")
    along = compiled(f"def f(a, d):\n    return a.{name}(axis=0, ddof=d)\n")
    rng = np.random.default_rng(3)
    for dtype in CTYPES:
        for shape in [(1,), (4,), (3, 4), (2, 3, 4)]:
            a = complex_array(rng, dtype, shape, "C")
            assert_close(*run_both(whole, a, ddof), dtype, f"{name}{shape} ddof={ddof}")
            assert_close(*run_both(along, a, ddof), dtype, f"{name}{shape} axis=0 ddof={ddof}")


def test_var_is_real_and_mean_is_complex():
    @njit
    def f(a):
        return np.var(a), np.std(a), np.mean(a), np.var(a, axis=0)

    a = np.array([[1 + 2j, 3 - 1j], [0.5j, -2 + 0j]], dtype=np.complex64)
    v, s, m, va = f(a)
    ev, es, em, eva = f.py_func(a)
    assert type(v) is float and type(s) is float and type(m) is complex
    assert va.dtype == np.float32 == eva.dtype
    assert np.isclose(v, ev) and np.isclose(s, es) and np.isclose(m, em)


def test_mean_of_complex64_divides_by_the_count_in_complex128():
    # NumPy divides the sum by its count (an intp) in complex128: past 2**24 elements float32 has no exact count
    @njit
    def f(a):
        return a.mean(), np.mean(a, axis=0)

    a = np.zeros((2**24 + 1, 1), np.complex64)
    for first in (2**24 - 1, 3 - 5j, -7.25j):
        a[0, 0] = first
        (m, ma), (em, ema) = f(a), f.py_func(a)
        assert np.complex64(m) == em and ma.dtype == ema.dtype and np.array_equal(ma, ema)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", CTYPES, ids=lambda t: np.dtype(t).name)
def test_running_sums_and_products(name, dtype):
    flat = compiled(f"def f(a):\n    return np.{name}(a), a.{name}()\n")
    along = compiled(f"def f(a, k):\n    return np.{name}(a, axis=k)\n")
    rng = np.random.default_rng(4)
    for shape in SHAPES:
        for layout in LAYOUTS:
            a = complex_array(rng, dtype, shape, layout)
            for e, g in zip(*run_both(flat, a)):
                assert_close(e, g, dtype, f"{name}{shape} {layout}")
            for axis in range(-len(shape), len(shape)):
                assert_close(*run_both(along, a, axis), dtype, f"{name}{shape} axis={axis} {layout}")


@pytest.mark.parametrize("dtype", CTYPES, ids=lambda t: np.dtype(t).name)
def test_diff(dtype):
    f = compiled("def f(a, n, k):\n    return np.diff(a, n, axis=k)\n")
    rng = np.random.default_rng(5)
    for shape in [(1,), (6,), (3, 4), (2, 3, 4)]:
        for layout in LAYOUTS:
            a = complex_array(rng, dtype, shape, layout)
            for order in (0, 1, 2, 3):
                for axis in range(-len(shape), len(shape)):
                    e, g = run_both(f, a, order, axis)
                    # differences are exact in both: no rounding to allow for
                    np.testing.assert_array_equal(g, e, strict=True)


def test_special_values_propagate_as_in_numpy():
    @njit
    def f(a):
        return np.sum(a), np.prod(a), np.mean(a), np.cumsum(a)

    for a in (np.array([1 + 1j, complex(np.inf, 0)]), np.array([complex(np.nan, 1), 2j]),
              np.array([complex(np.inf, np.inf), 1 - 1j])):
        with np.errstate(all="ignore"):
            e = f.py_func(a)
        g = f(a)
        for x, y in zip(e, g):
            np.testing.assert_array_equal(np.asarray(y), np.asarray(x))


COMPLEX_NUMBER_REDUCTIONS = ("sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "any", "all",
                             "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax", "ptp")


@pytest.mark.parametrize("name", COMPLEX_NUMBER_REDUCTIONS)
def test_reductions_of_a_complex_number_are_those_of_its_0d_array(name):
    f = compiled(f"def f(x):\n    return np.{name}(x)\n")
    for x in (1 + 2j, 0j, -3.5j, complex(np.nan, 1.0), complex(1.0, np.inf), np.complex64(2 - 1j),
              np.complex128(complex(-np.inf, 0.5))):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            expected, got = f.py_func(x), f(x)
        # (a NumPy scalar comes back from compiled code as the Python number of its kind)
        assert type(got) is type(np.asarray(expected).item()), f"{name}({x!r})"
        np.testing.assert_array_equal(np.asarray(got, np.asarray(expected).dtype), expected, err_msg=f"{name}({x!r})")


def test_bad_arguments_are_clear_errors():
    from ruchey import TypingError

    @njit
    def bad_axis(a):
        return np.sum(a, axis=2)

    # a constant axis is checked when the call runs, as Numba's: NumPy's AxisError
    axis_error = np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError
    with pytest.raises(axis_error, match="axis 2 is out of bounds for array of dimension 2"):
        bad_axis(np.zeros((2, 2), np.complex128))

    @njit
    def runtime_axis(a, k):
        return np.var(a, axis=k)

    with pytest.raises(ValueError, match="axis 3 is out of bounds for array of dimension 2"):
        runtime_axis(np.zeros((2, 2), np.complex128), 3)

    @njit
    def with_dtype(a):
        return np.sum(a, dtype=np.float64)

    with pytest.raises(TypingError, match="takes a complex dtype alone"):
        with_dtype(np.zeros(3, np.complex128))

    @njit
    def cumsum_to_float(a):
        return np.cumsum(a, dtype=np.float64)

    with pytest.raises(TypingError, match="dtype=float64 of complex128 elements"):
        cumsum_to_float(np.zeros(3, np.complex128))
