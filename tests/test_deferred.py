"""Loops that only compute scalars run first with their error checks noted
instead of raised (so that LLVM can vectorise them), and again with the
checks when one failed. Whatever the path, the result, the variables after
the loop and the exception raised must be Python's: each function is run
compiled and as its py_func on generated inputs, with the bad value at
every kind of position."""
import math
import re
import platform

import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, assert_same, make_rng, math_domain_error, numba_deviation

raises_like_python = numba_deviation("math domain errors and int() of NaN do not raise")

# libmvec's vector sin/exp/log are within a few ulp of libm's
REL = 1e-12


@ruchey.njit
def sqrt_sin_sum(x):
    s = 0.0
    for i in range(len(x)):
        s += math.sqrt(x[i]) * math.sin(x[i])
    return s


@ruchey.njit
def log_sum_and_last(x):
    s = 0.0
    last = -1.0
    for i in range(x.shape[0]):
        v = math.log(x[i])
        s += v
        last = v
    return s, last, i


@ruchey.njit
def int_bins(x, scale):
    total = 0
    for i in range(len(x)):
        total += int(x[i] * scale)
    return total


@ruchey.njit
def branchy(x, cut):
    pos = 0.0
    neg = 0.0
    count = 0
    for i in range(len(x)):
        v = x[i]
        if v > cut:
            pos += math.exp(-v)
            count += 1
        elif v < -cut:
            neg += math.exp(v)
        else:
            continue
        count += 1
    return pos, neg, count


@ruchey.njit
def with_else(x):
    m = 0.0
    for i in range(len(x)):
        m = max(m, math.acos(x[i]))
    else:
        m += 1.0
    return m


@ruchey.njit
def int_division_stays_checked(a, d):
    s = 0
    for i in range(len(a)):
        s += a[i] // d[i]
    return s


def arrays(n, seed):
    rng = make_rng(seed)
    return rng.uniform(0.1, 4.0, n)


@pytest.mark.parametrize("n", [0, 1, 3, 8, 17, 1000, 10_007])
def test_clean_inputs_match_python(n):
    x = arrays(n, n)
    assert_same(sqrt_sin_sum, x, rel=REL)
    if n:
        assert_same(log_sum_and_last, x, rel=REL)
    assert_same(int_bins, x, 1000.0)
    assert_same(branchy, x - 2.0, 0.5, rel=REL)
    assert_same(with_else, x / 5.0, rel=REL)


@raises_like_python
@pytest.mark.parametrize("where", ["first", "middle", "last"])
@pytest.mark.parametrize("n", [1, 9, 1000])
def test_error_raised_where_python_raises_it(n, where):
    k = {"first": 0, "middle": n // 2, "last": n - 1}[where]
    cases = [
        (sqrt_sin_sum, -1.0, ValueError, math_domain_error("expected a nonnegative input, got -1.0")),
        (sqrt_sin_sum, math.inf, ValueError, math_domain_error("expected a finite input, got inf")),
        (log_sum_and_last, 0.0, ValueError, math_domain_error("expected a positive input, got 0.0")),
        (with_else, 2.0, ValueError, math_domain_error("expected a number in range from -1 up to 1, got 2.0")),
    ]
    for f, bad, exc, msg in cases:
        x = arrays(n, 7) / (5.0 if f is with_else else 1.0)
        x[k] = bad
        with pytest.raises(exc, match=msg):
            f.py_func(x)
        with pytest.raises(exc, match=msg):
            f(x)


@raises_like_python
@pytest.mark.parametrize("bad, exc", [(math.nan, ValueError), (math.inf, OverflowError),
                                      (-math.inf, OverflowError)])
def test_int_of_nonfinite_in_a_loop(bad, exc):
    x = arrays(100, 3)
    x[40] = bad
    with pytest.raises(exc):
        int_bins.py_func(x, 10.0)
    with pytest.raises(exc):
        int_bins(x, 10.0)
    x[40] = 1e30  # beyond int64: Python makes a larger int, compiled code raises
    int_bins.py_func(x, 10.0)
    with pytest.raises(OverflowError, match="float too large to convert to int64"):
        int_bins(x, 10.0)


@raises_like_python
def test_random_bad_values_many_times():
    rng = make_rng(11)
    for trial in range(200):
        n = int(rng.integers(1, 300))
        x = arrays(n, trial)
        bad_at = rng.integers(0, n, size=int(rng.integers(0, 3)))
        x[bad_at] = -1.0
        try:
            expected = sqrt_sin_sum.py_func(x)
        except ValueError:
            with pytest.raises(ValueError):
                sqrt_sin_sum(x)
        else:
            assert sqrt_sin_sum(x) == pytest.approx(expected, rel=REL)


def test_integer_division_by_zero_still_raises():
    a = np.arange(1, 50)
    d = np.ones(49, dtype=np.int64)
    assert_same(int_division_stays_checked, a, d)
    d[20] = 0
    with pytest.raises(ZeroDivisionError):
        int_division_stays_checked(a, d)


@pytest.mark.skipif(AS_NUMBA or platform.machine() != "x86_64", reason="ruchey's code on x86-64")
def test_checked_reduction_is_vectorised():
    """The point of deferring: the loop with sqrt's and sin's checks becomes
    vector code calling glibc's vector sin."""
    ir = next(iter(sqrt_sin_sum.inspect_llvm().values()))
    assert "x double> @llvm.sqrt" in ir
    assert "_ZGV" in ir and "v_sin(" in ir


@ruchey.njit(parallel=True)
def par_checked(x):
    s = 0.0
    for i in ruchey.prange(len(x)):
        s += math.sqrt(x[i])
    return s


@raises_like_python
def test_parallel_chunks_defer_too():
    x = arrays(100_000, 5)
    assert par_checked(x) == pytest.approx(par_checked.py_func(x), rel=REL)
    x[77_777] = -3.0
    with pytest.raises(ValueError, match=math_domain_error("expected a nonnegative input, got -3.0")):
        par_checked(x)


@ruchey.njit
def local_out(x):
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = math.log(x[i]) * math.erf(x[i])
    return out


@ruchey.njit
def into_argument(x, out):
    for i in range(len(x)):
        out[i] = math.log(x[i])


@ruchey.njit
def reads_what_it_writes(x):
    out = np.zeros_like(x)
    for i in range(1, len(x)):
        out[i] = out[i - 1] + math.sqrt(x[i])
    return out


def test_arrays_made_here_are_written_as_python_writes_them():
    x = arrays(1001, 13)
    assert_same(local_out, x, rel=REL)
    assert_same(reads_what_it_writes, x, rel=REL)


@raises_like_python
def test_error_in_a_loop_writing_arrays():
    x = arrays(1001, 17)
    x[500] = -2.0
    for f, since_314 in ((local_out, "expected a positive input, got -2.0"),
                         (reads_what_it_writes, "expected a nonnegative input, got -2.0")):
        with pytest.raises(ValueError, match=math_domain_error(since_314)):
            f.py_func(x)
        with pytest.raises(ValueError, match=math_domain_error(since_314)):
            f(x)


@raises_like_python
def test_argument_array_written_up_to_the_error_only():
    """A loop writing an array the caller can see is not run ahead: after
    the error, the elements before it are written and the rest untouched."""
    x = arrays(1001, 19)
    x[600] = 0.0
    expected, got = np.full(1001, 7.0), np.full(1001, 7.0)
    with pytest.raises(ValueError):
        into_argument.py_func(x, expected)
    with pytest.raises(ValueError):
        into_argument(x, got)
    np.testing.assert_array_equal(got, expected)


@ruchey.njit
def unbound_at_first(x):
    for i in range(len(x)):
        if x[i] > 2.0:
            s = s + math.log(x[i])
        else:
            s = math.log(x[i])
    return s


@raises_like_python
def test_unbound_local_raised_after_a_deferred_run():
    """The first run reads s unbound at i = 0 and binds it later: the rerun
    must start with s unbound again, as Python does."""
    x = arrays(50, 23) + 2.5
    with pytest.raises(UnboundLocalError):
        unbound_at_first.py_func(x)
    with pytest.raises(UnboundLocalError):
        unbound_at_first(x)
    x[0] = 1.0
    assert_same(unbound_at_first, x, rel=REL)


@ruchey.njit
def index_from_int(x, scale):
    out = np.zeros(16)
    for i in range(len(x)):
        k = int(x[i] * scale)
        out[k] = math.sin(x[i])
    return out


@ruchey.njit
def index_from_int_inline(x, scale):
    out = np.zeros(16)
    for i in range(len(x)):
        out[int(x[i] * scale)] = math.exp(x[i])
    return out


@raises_like_python
@pytest.mark.parametrize("f", [index_from_int, index_from_int_inline])
def test_index_from_a_failed_check_is_never_used(f):
    """int(nan) raises before the element is written: the loop is not run
    ahead with a wild index."""
    x = arrays(1000, 29) / 4.0
    assert_same(f, x, 4.0, rel=REL)
    for bad in (math.nan, math.inf, -math.inf):
        x[123] = bad
        with pytest.raises((ValueError, OverflowError)):
            f.py_func(x, 4.0)
        with pytest.raises((ValueError, OverflowError)):
            f(x, 4.0)


@ruchey.njit
def maybe_unbound_index(x, flag):
    out = np.zeros(len(x))
    if flag:
        k = 3
    for i in range(len(x)):
        out[k] = math.sin(x[i])
    return out


@raises_like_python
def test_index_that_may_be_unbound_raises():
    x = arrays(100, 31)
    assert_same(maybe_unbound_index, x, True, rel=REL)
    with pytest.raises(UnboundLocalError):
        maybe_unbound_index.py_func(x, False)
    with pytest.raises(UnboundLocalError):
        maybe_unbound_index(x, False)


# fastmath=True reassociates sums, so a reduction whose only check is a
# power's overflow vectorises once that check is deferred too
@ruchey.njit(fastmath=True)
def fast_squared_distance(a, b):
    s = 0.0
    for i in range(len(a)):
        s += (a[i] - b[i]) ** 2
    return s


@ruchey.njit(fastmath=True)
def fast_cubes_and_count(x, lo):
    s = 0.0
    n = 0
    for i in range(len(x)):
        if x[i] > lo:
            s += x[i] ** 3
            n += 1
    return s, n


@pytest.mark.parametrize("n", [0, 1, 7, 64, 1001])
def test_fastmath_power_reductions_match_python(n):
    rng = make_rng(n)
    a, b = rng.normal(size=n), rng.normal(size=n)
    assert_same(fast_squared_distance, a, b, rel=1e-12)
    assert_same(fast_cubes_and_count, a, 0.25, rel=1e-12)
    a[n // 2:] = np.inf  # inf ** 2 is inf in Python: no error
    assert_same(fast_squared_distance, a, b)


@raises_like_python
@pytest.mark.parametrize("where", ["first", "middle", "last"])
@pytest.mark.parametrize("n", [1, 9, 1000])
def test_fastmath_power_overflow_raised_as_python(n, where):
    k = {"first": 0, "middle": n // 2, "last": n - 1}[where]
    a, b = arrays(n, 3), arrays(n, 4)
    a[k] = 1e200
    # Python's floats raise (NumPy's float64 scalars would give inf): the
    # original runs on lists of them
    for f, args in ((fast_squared_distance, (a, b)), (fast_cubes_and_count, (a, 0.0))):
        with pytest.raises(OverflowError, match="Numerical result out of range"):
            f.py_func(*(x.tolist() if isinstance(x, np.ndarray) else x for x in args))
        with pytest.raises(OverflowError, match="Numerical result out of range"):
            f(*args)


@pytest.mark.skipif(AS_NUMBA or platform.machine() != "x86_64", reason="ruchey's code on x86-64")
def test_fastmath_power_reduction_is_vectorised():
    fast_squared_distance(np.ones(4), np.ones(4))
    ir = next(iter(fast_squared_distance.inspect_llvm().values()))
    assert re.search(r"fmul [a-z ]*<\d+ x double>", ir)


# ---------------------------------------------------------------- the whole function run again
# A function that changes nothing outside itself leaves at a failed deferred
# check, and its caller runs its checked version (compiled at that first
# failure) with the same arguments: Python's exception, however it is called.

def log_ratios(a, b):
    out = np.empty(len(a))
    for i in range(len(a)):
        out[i] = math.log(a[i] / b[i]) * math.sqrt(b[i])
    return out


def raises_as_python(f, *args):
    """f raises what its Python original raises given Python's floats."""
    with pytest.raises(Exception) as python:
        f.py_func(*(a.tolist() if isinstance(a, np.ndarray) else a for a in args))
    with pytest.raises(type(python.value), match="^" + re.escape(str(python.value)) + "$"):
        f(*args)


@raises_like_python
@pytest.mark.parametrize("where", [0, 50, 99])
def test_rerun_whole_raises_as_python_every_call(where):
    f = ruchey.njit(log_ratios)
    x, y = arrays(100, 1), arrays(100, 2)
    assert_same(f, x, y, rel=REL)
    for bad_x, bad_y in ((-1.0, 1.0), (0.0, 2.0), (1.0, 0.0), (1.0, -4.0)):
        a, b = x.copy(), y.copy()
        a[where], b[where] = bad_x, bad_y
        for _ in range(2):
            raises_as_python(f, a, b)
    assert_same(f, x, y, rel=REL)


@raises_like_python
def test_rerun_whole_of_a_literal_specialisation():
    @ruchey.njit
    def scaled_logs(x, k):
        out = np.empty(len(x))
        for i in range(len(x)):
            out[i] = math.log(x[i]) * ruchey.literally(k)
        return out
    x = arrays(40, 3)
    assert_same(scaled_logs, x, 3, rel=REL)
    x[7] = -1.0
    raises_as_python(scaled_logs, x, 3)


@raises_like_python
def test_rerun_whole_without_the_gil_from_threads():
    import threading
    f = ruchey.njit(nogil=True)(log_ratios)
    x, y = arrays(10_000, 4), arrays(10_000, 5)
    bad = x.copy()
    bad[9_000] = -3.0
    f(x, y)
    failures = []

    def call():
        for _ in range(5):
            try:
                f(bad, y)
            except ValueError as e:
                failures.append(str(e))
    threads = [threading.Thread(target=call) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(failures) == 20 and len(set(failures)) == 1
    raises_as_python(f, bad, y)


@raises_like_python
def test_rerun_whole_after_recompile():
    f = ruchey.njit(log_ratios)
    x, y = arrays(30, 6), arrays(30, 7)
    x[12] = 0.0
    raises_as_python(f, x, y)
    f.recompile()
    raises_as_python(f, x, y)
    x[12] = 1.0
    assert_same(f, x, y, rel=REL)


@raises_like_python
def test_rerun_whole_through_a_function_type_argument():
    from ruchey import types
    pair = types.FunctionType(types.float64[:](types.float64[:], types.float64[:]))
    f = ruchey.njit(log_ratios)

    @ruchey.njit(types.float64(pair, types.float64[:], types.float64[:]))
    def total(g, a, b):
        return g(a, b).sum()
    x, y = arrays(64, 8), arrays(64, 9)
    assert total(f, x, y) == pytest.approx(log_ratios(x, y).sum(), rel=REL)
    x[63] = -0.5
    with pytest.raises(ValueError, match=math_domain_error("expected a positive input, got -0.5")):
        total(f, x, y)


@raises_like_python
def test_error_of_a_function_rerun_whole_caught_by_a_compiled_caller():
    f = ruchey.njit(log_ratios)

    @ruchey.njit
    def safe_total(a, b):
        try:
            return f(a, b).sum()
        except ValueError:
            return -1.0
    x, y = arrays(20, 10), arrays(20, 11)
    assert safe_total(x, y) == pytest.approx(log_ratios(x, y).sum(), rel=REL)
    x[4] = -1.0
    assert safe_total(x, y) == -1.0
    raises_as_python(f, x, y)


@ruchey.njit
def seed_stream(s):
    np.random.seed(s)


@ruchey.njit
def draw():
    return np.random.random()


@ruchey.njit
def noisy_log_sum(x):
    r = np.random.random()
    s = 0.0
    for i in range(len(x)):
        s += math.log(x[i]) + r
    return s


@raises_like_python
def test_a_failing_call_that_draws_random_numbers_draws_them_once():
    seed_stream(5)
    draw()
    expected = draw()
    seed_stream(5)
    x = arrays(50, 12)
    x[10] = -1.0
    with pytest.raises(ValueError):
        noisy_log_sum(x)
    assert draw() == expected
