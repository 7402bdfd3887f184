"""ruchey's one rule for a float made an int: int(x), round(x), math.floor(x),
math.ceil(x) and math.trunc(x) of a float64 or float32.

* NaN raises ValueError and +-inf OverflowError, as CPython;
* a finite value within int64 is CPython's exact integer; one beyond it, where
  CPython would make a larger int than int64 holds, raises OverflowError
  ("float too large to convert to int64") rather than give a wrong int.

The same rule for all five, in a scalar function and in a loop (which LLVM may
vectorise) over an array holding one value beyond int64 among ordinary ones.
numba (RUCHEY_TEST_AS_NUMBA=1) converts out-of-range floats as the hardware
does and raises nothing: those tests are marked ``numba_deviation``.
"""
import math

import numpy as np
import pytest

import ruchey

from conftest import assert_same, make_rng, numba_deviation


def W(v):
    """An exact Python int reduced to int64, as int64 sums wrap."""
    return ((v + 2**63) % 2**64) - 2**63


TOO_LARGE = "float too large to convert to int64"


@ruchey.njit
def to_int(x):
    return int(x)


@ruchey.njit
def to_round(x):
    return round(x)


@ruchey.njit
def to_floor(x):
    return math.floor(x)


@ruchey.njit
def to_ceil(x):
    return math.ceil(x)


@ruchey.njit
def to_trunc(x):
    return math.trunc(x)


CONVERSIONS = [to_int, to_round, to_floor, to_ceil, to_trunc]

# The Python function each stands for, on a Python float (numpy.float32 has no
# __trunc__, and round() of one gives a numpy.float32 in older NumPy)
PYTHON = {to_int: int, to_round: round, to_floor: math.floor, to_ceil: math.ceil,
          to_trunc: math.trunc}

FLOAT_TYPES = {"float64": float, "float32": np.float32}

BEYOND_INT64 = [1e19, -1e19, 2.0**63, 2.0**64 + 4096.0, 1e300, -1e300, 9.5e18,
                2.0**63 + 2048.0, -2.0**63 - 2048.0, 2.0**64, -2.0**64, 2.0**65 + 2.0**13,
                1.7976931348623157e308, -1.7976931348623157e308]
WITHIN_INT64 = [123456789.75, -123456789.75, 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994,
                4503599627370497.0, -4503599627370497.0, 9007199254740993.0, 2.0**62 + 0.0,
                2.0**63 - 1024.0, -2.0**63 + 1024.0, -2.0**63, 5e-324, -5e-324, 1e18, -1e18]


def by_name(fs):
    return pytest.mark.parametrize("f", fs, ids=lambda f: f.py_func.__name__)


by_type = pytest.mark.parametrize("ftype", list(FLOAT_TYPES), ids=str)


def in_int64(v):
    return -2**63 <= v < 2**63


@by_name(CONVERSIONS)
@by_type
def test_float_to_int_within_int64_is_pythons_result(f, ftype):
    for v in WITHIN_INT64:
        x = FLOAT_TYPES[ftype](v)
        if not in_int64(PYTHON[f](float(x))):  # float32(2**63 - 1024) is 2**63
            continue
        got = f(x)
        assert type(got) is int and got == PYTHON[f](float(x)), (x, got)


@numba_deviation("NaN converts to INT64_MIN, no ValueError")
@by_name(CONVERSIONS)
@by_type
def test_float_to_int_of_nan_raises_value_error(f, ftype):
    with pytest.raises(ValueError):
        PYTHON[f](float("nan"))
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        f(FLOAT_TYPES[ftype](math.nan))


@numba_deviation("the infinities convert to INT64_MIN, no OverflowError")
@by_name(CONVERSIONS)
@by_type
@pytest.mark.parametrize("v", [math.inf, -math.inf], ids=["inf", "-inf"])
def test_float_to_int_of_infinity_raises_overflow_error(f, ftype, v):
    with pytest.raises(OverflowError):
        PYTHON[f](v)
    with pytest.raises(OverflowError, match="cannot convert float infinity to integer"):
        f(FLOAT_TYPES[ftype](v))


@numba_deviation("out-of-range floats convert to INT64_MIN")
@by_name(CONVERSIONS)
@by_type
def test_float_to_int_beyond_int64_raises_overflow_error(f, ftype):
    for v in BEYOND_INT64:
        with np.errstate(over="ignore"):  # 1e300 as float32 is inf
            x = FLOAT_TYPES[ftype](v)
        if math.isinf(x) or in_int64(PYTHON[f](float(x))):  # float32(-2**63 - 2048) is -2**63
            continue
        with pytest.raises(OverflowError, match=TOO_LARGE):
            f(x)


@numba_deviation("out-of-range floats convert to INT64_MIN")
@by_name(CONVERSIONS)
def test_float_to_int_at_every_exponent(f):
    """Every binary exponent from 2**52 (where fractions end) to the largest
    float, both signs, a few mantissas each: Python's int within int64,
    OverflowError beyond."""
    rng = make_rng(70)
    values = [math.copysign(float(rng.uniform(1, 2)) * 2.0**e, float(rng.choice([-1, 1])))
              for e in range(52, 1024) for _ in range(3)]
    for x in values:
        if in_int64(PYTHON[f](x)):
            assert f(x) == PYTHON[f](x), x
        else:
            with pytest.raises(OverflowError, match=TOO_LARGE):
                f(x)


def outcome(f, x):
    try:
        return f(x)
    except OverflowError as e:
        return str(e)


def test_the_five_conversions_agree_on_integral_floats():
    """On an integral float the five are the same function: one policy."""
    rng = make_rng(71)
    values = [math.copysign(float(rng.integers(1, 2**52)) * 2.0**int(e), float(rng.choice([-1, 1])))
              for e in rng.integers(0, 970, 300)]
    for x in values + [1e19, -1e19, 2.0**63, -2.0**63, 2.0**64 + 4096.0, 1e300, -1e300, 9.5e18]:
        results = {f.py_func.__name__: outcome(f, x) for f in CONVERSIONS}
        assert len(set(results.values())) == 1, (x, results)


# ---------------------------------------------------------------- in loops

@ruchey.njit
def sum_int(x):
    s = 0
    for i in range(x.shape[0]):
        s += int(x[i])
    return s


@ruchey.njit
def sum_round(x):
    s = 0
    for i in range(x.shape[0]):
        s += round(x[i])
    return s


@ruchey.njit
def sum_floor(x):
    s = 0
    for i in range(x.shape[0]):
        s += math.floor(x[i])
    return s


@ruchey.njit
def sum_ceil(x):
    s = 0
    for i in range(x.shape[0]):
        s += math.ceil(x[i])
    return s


@ruchey.njit
def sum_trunc(x):
    s = 0
    for i in range(x.shape[0]):
        s += math.trunc(x[i])
    return s


LOOPS = {sum_int: int, sum_round: round, sum_floor: math.floor, sum_ceil: math.ceil,
         sum_trunc: math.trunc}


def python_sum(conv, a):
    return W(sum(conv(float(v)) for v in a))


def loop_arrays(dtype, huge):
    """Arrays of ordinary values with ``huge`` at the start, the middle, the
    last element (a vector loop's remainder) and everywhere."""
    rng = make_rng(72)
    n = 1003
    base = (rng.standard_normal(n) * 1000.0).astype(dtype)
    arrays = []
    for where in (0, n // 2, n - 1):
        a = base.copy()
        a[where] = huge
        arrays.append(a)
    arrays.append(np.full(n, huge, dtype=dtype))
    return arrays


@numba_deviation("out-of-range floats convert to INT64_MIN")
@pytest.mark.parametrize("f", list(LOOPS), ids=lambda f: f.py_func.__name__)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("huge", [1e19, -1e19, 2.0**64 + 4096.0, 9.5e18, 1e300], ids=str)
def test_float_to_int_in_a_loop_beyond_int64_raises_overflow_error(f, dtype, huge):
    if dtype is np.float32 and abs(huge) > 3e38:
        huge = 3e38
    for a in loop_arrays(dtype, huge):
        with pytest.raises(OverflowError, match=TOO_LARGE):
            f(a)


@pytest.mark.parametrize("f", list(LOOPS), ids=lambda f: f.py_func.__name__)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
def test_float_to_int_in_a_loop_within_int64_matches_python(f, dtype):
    a = (make_rng(73).standard_normal(1003) * 1e6).astype(dtype)
    assert f(a) == python_sum(LOOPS[f], a)


@numba_deviation("NaN and the infinities convert to INT64_MIN, nothing raises")
@pytest.mark.parametrize("f", list(LOOPS), ids=lambda f: f.py_func.__name__)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("bad, error", [(math.nan, ValueError), (math.inf, OverflowError),
                                        (-math.inf, OverflowError)], ids=["nan", "inf", "-inf"])
def test_float_to_int_in_a_loop_raises_pythons_error(f, dtype, bad, error):
    for a in loop_arrays(dtype, bad):
        with pytest.raises(error):
            python_sum(LOOPS[f], a)
        with pytest.raises(error):
            f(a)


# ---------------------------------------------------------------- as an index

# a[int(x)] of a 1-d array: int()'s check made where a negative index wraps
# (lower/arrays.c); its errors, a negative index's wrap and boundscheck's
# IndexError as Python's, in this order

@ruchey.njit
def count_at(x, n):
    counts = np.zeros(n, dtype=np.int64)
    for i in range(x.shape[0]):
        counts[int(x[i])] += 1
    return counts


@ruchey.njit
def read_at(a, v):
    return a[int(v)]


@ruchey.njit
def write_at(a, v, value):
    a[int(v)] = value
    return a


@ruchey.njit(boundscheck=True)
def read_at_checked(a, v):
    return a[int(v)]


def index_values(n, dtype):
    """Generated floats whose int() is an index of n elements, negative ones too."""
    return (make_rng(74).uniform(-n, n, 1000)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
def test_float_made_index_matches_python(dtype):
    a = make_rng(75).standard_normal(37)
    x = index_values(37, dtype)
    assert_same(count_at, x, 37)
    for v in list(x[:50]) + [dtype(-0.0), dtype(-0.5), dtype(-37.0), dtype(36.9)]:
        assert_same(read_at, a, v)
        assert_same(write_at, a, v, 2.5)
        assert_same(read_at_checked, a, v)


@numba_deviation("NaN and the infinities convert to INT64_MIN, nothing raises")
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("bad, error", [(math.nan, ValueError), (math.inf, OverflowError),
                                        (-math.inf, OverflowError)], ids=["nan", "inf", "-inf"])
def test_float_made_index_raises_pythons_error(dtype, bad, error):
    a = np.arange(5.0)
    base = make_rng(76).uniform(0, 5, 1003).astype(dtype)
    for where in (0, 501, 1002, slice(None)):
        x = base.copy()
        x[where] = bad
        with pytest.raises(error):
            count_at.py_func(x, 5)
        with pytest.raises(error):
            count_at(x, 5)
    for f in (read_at, read_at_checked):
        with pytest.raises(error):
            f.py_func(a, dtype(bad))
        with pytest.raises(error):
            f(a, dtype(bad))
    with pytest.raises(error):
        write_at(a, dtype(bad), 1.0)


@numba_deviation("out-of-range floats convert to INT64_MIN")
@pytest.mark.parametrize("huge", [1e19, -1e19, 2.0**64 + 4096.0, 9.5e18, 1e300, -1e300], ids=str)
def test_float_made_index_beyond_int64_raises_overflow_error(huge):
    a = np.arange(5.0)
    for f in (read_at, read_at_checked):
        with pytest.raises(OverflowError, match=TOO_LARGE):
            f(a, huge)
    x = np.array([1.0, 2.0, huge, 3.0])
    with pytest.raises(OverflowError, match=TOO_LARGE):
        count_at(x, 5)


def test_float_made_index_out_of_bounds_with_boundscheck_raises_index_error():
    a = np.arange(5.0)
    for v in (5.0, 5.5, -6.0, 1e18, -1e18, -2.0**63):  # -2**63 is an int64: int() passes it
        with pytest.raises(IndexError):
            read_at_checked.py_func(a, v)
        with pytest.raises(IndexError):
            read_at_checked(a, v)
