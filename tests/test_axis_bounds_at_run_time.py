"""A constant axis out of an array's dimensions in the reductions (sum,
max, argmin, any, std ..., average), in cumsum, cumprod and diff, in take,
the sorts and partitions, swapaxes and moveaxis is checked when the call
runs, as Numba checks it: NumPy's AxisError (a
ValueError) with NumPy's message, not a TypingError; a function holding
such a call compiles, and one whose line with it never runs (or runs for
arrays of enough dimensions) gives NumPy's results."""
import numpy as np
import pytest

import ruchey
from arraygen import LAYOUTS, array, check, define
from conftest import make_rng

AXIS_ERROR = np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError

CALLS = ["np.sum(a, axis={k})", "a.sum(axis={k})", "a.prod(axis={k})", "np.mean(a, axis={k})", "a.min(axis={k})",
         "np.max(a, axis={k})", "a.argmin(axis={k})", "np.argmax(a, {k})", "np.any(a, axis={k})",
         "a.all(axis={k})", "np.std(a, axis={k})", "a.var(axis={k})", "np.ptp(a, axis={k})",
         "np.nansum(a, axis={k})", "np.nanmax(a, axis={k})", "np.count_nonzero(a, axis={k})",
         "np.average(a, axis={k})", "np.cumsum(a, axis={k})", "a.cumprod(axis={k})", "np.diff(a, axis={k})"]
# exact in every dtype here (no float sums, whose rounding is another file's subject)
EXACT = ["a.min(axis={k})", "np.max(a, axis={k})", "a.argmin(axis={k})", "np.argmax(a, {k})", "np.any(a, axis={k})",
         "a.all(axis={k})", "np.count_nonzero(a, axis={k})", "np.diff(a, axis={k})"]
DTYPES = [np.int8, np.int32, np.uint16, np.int64, np.float32, np.float64]

_functions = {}


def function_of(call, k):
    key = (call, k)
    if key not in _functions:
        _functions[key] = define(f"@ruchey.njit\ndef f(a):\n    return {call.format(k=k)}\n")
    return _functions[key]


def numpys_error(f, a):
    with pytest.raises(ValueError) as expected:
        f.py_func(a)
    return expected.value


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize("k", [2, -3, 5])
def test_a_constant_axis_out_of_bounds_is_numpys_axis_error_when_the_call_runs(call, k):
    f = function_of(call, k)
    rng = make_rng(abs(k))
    for dtype in (np.int32, np.float64):
        for layout in LAYOUTS:
            a = array(rng, dtype, (3, 4), layout)
            expected = numpys_error(f, a)
            with pytest.raises(AXIS_ERROR) as got:
                f(a)
            assert str(got.value) == str(expected), f"{call} {dtype.__name__} {layout}"


@pytest.mark.parametrize("call", ["a.sum(axis={k})", "np.argmax(a, {k})", "np.cumsum(a, axis={k})",
                                  "np.var(a, axis={k})"])
def test_one_dimension_has_axis_0_and_minus_1_alone(call):
    a = np.arange(6.0)
    for k in (1, -2):
        f = function_of(call, k)
        with pytest.raises(AXIS_ERROR) as got:
            f(a)
        assert str(got.value) == str(numpys_error(f, a))
    for k in (0, -1):
        check(function_of(call, k), a)


@pytest.mark.parametrize("call", EXACT)
@pytest.mark.parametrize("dtype", DTYPES)
def test_the_same_constant_axis_within_more_dimensions_matches_numpy(call, dtype):
    f = function_of(call, -3)
    rng = make_rng(7)
    for layout in LAYOUTS:
        check(f, array(rng, dtype, (2, 3, 4), layout))
        check(f, array(rng, dtype, (3, 1, 2, 2), layout))
    with pytest.raises(AXIS_ERROR):
        f(array(rng, dtype, (3, 4)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_line_never_run_with_an_axis_out_of_bounds_compiles(dtype):
    f = define("""
@ruchey.njit
def f(a, deep):
    m = np.diff(a, axis=1).min(axis=-1)
    if deep:
        np.cumsum(a, axis=-4)
        m = a.max(axis=3)
    return m
""")
    rng = make_rng(11)
    for layout in LAYOUTS:
        a = array(rng, dtype, (3, 4), layout)
        check(f, a, False)
        with pytest.raises(AXIS_ERROR):
            f(a, True)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("call", ["np.sum(a, axis={k})", "a.var(axis={k})", "np.mean(a, axis={k})"])
def test_complex_reductions_check_their_axis_when_the_call_runs(dtype, call):
    a2 = (np.arange(12.0) - 1j * np.arange(12.0)).astype(dtype).reshape(3, 4)
    for a, k in ((a2, 2), (a2, -3), (a2[0], 1), (a2[:, ::-2][0], -2)):
        f = function_of(call, k)
        with pytest.raises(AXIS_ERROR) as got:
            f(a)
        assert str(got.value) == str(numpys_error(f, a))
    g = define(f"@ruchey.njit\ndef f(a, k):\n    return {call.format(k='k')}\n")
    for k in (1, -2, 7):
        with pytest.raises(AXIS_ERROR) as got:
            g(a2[1], k)
        assert str(got.value) == str(numpys_error(function_of(call, k), a2[1]))
    for k in (0, -1):
        np.testing.assert_allclose(g(a2[1], k), g.py_func(a2[1], k), rtol=1e-6)


# Numba checks these functions' axes when the call runs too (a view's type is then the one of axes known at run
# time: an 'A' array); a partition's order within its parts is NumPy's own, so they are compared sorted (argpartition's:
# a permutation of each lane's indices)
SHAPE_CALLS = ["np.take(a, np.array([0, 1, -1]), axis={k})", "a.take(np.array([[1], [0]]), axis={k})",
               "np.sort(a, axis={k})",
               "np.argsort(a, axis={k})", "a.argsort(axis={k})", "np.sort(np.partition(a, 1, axis={k}), axis={k})",
               "np.sort(np.argpartition(a, 0, axis={k}), axis={k})", "np.swapaxes(a, 0, {k})", "a.swapaxes({k}, 1)",
               "np.moveaxis(a, {k}, 0)", "np.moveaxis(a, (0, 1), (1, {k}))"]


@pytest.mark.parametrize("call", SHAPE_CALLS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_take_sort_and_axis_swaps_check_a_constant_axis_when_the_call_runs(call, dtype):
    rng = make_rng(3)
    for k in (2, -3):
        f = function_of(call, k)
        for layout in LAYOUTS:
            a = array(rng, dtype, (3, 4), layout)
            with pytest.raises(AXIS_ERROR) as got:
                f(a)
            assert str(got.value) == str(numpys_error(f, a)), f"{call} {layout}"
            check(f, array(rng, dtype, (2, 3, 4), layout))


def test_take_along_axis_refuses_a_constant_axis_out_of_bounds_as_numba():
    """Numba's take_along_axis types its axis as a literal and refuses one out of bounds when it compiles"""
    f = function_of("np.take_along_axis(a, np.zeros((2, 2), np.int64), axis={k})", 2)
    with pytest.raises(ruchey.TypingError, match="axis 2 is out of bounds for array of dimension 2"):
        f(np.zeros((2, 2)))
