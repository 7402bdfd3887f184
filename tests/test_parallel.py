"""prange loops under ``parallel=True``: each loop is compared with the same
function compiled without ``parallel`` (prange is then range) and with its
Python original.  Ints must match exactly; float sums and products only to
``rel=1e-12``, since each thread sums its own chunk.

Also: the range forms of prange, nested prange, the unsafe loops that run
serially with a RuntimeWarning naming file:line, errors raised inside a
parallel body, races (every case repeated with 1, 2 and more threads than
cores), and the GIL released by ``nogil=True`` / ``parallel=True``.

The cases are plain functions (no decorator), so each test can compile a
fresh dispatcher: the serial-fallback warning is given at compile time.
"""
import hashlib
import inspect
import math
import os
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy
import numpy as np
import pytest

from conftest import AS_NUMBA, assert_same_value, numba_deviation, rss_bytes, run_python_file

import ruchey
from ruchey import njit, prange

REL = 1e-12
REPEATS = 50


def max_threads():
    if AS_NUMBA:
        return ruchey.config.NUMBA_NUM_THREADS
    return ruchey._core.max_threads()


@pytest.fixture(autouse=True)
def restore_thread_count():
    yield
    ruchey.set_num_threads(max_threads())


def copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def quiet(fn, *args):
    """Call fn ignoring RuntimeWarnings (serial fallbacks, numpy overflow)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with np.errstate(all="ignore"):
            return fn(*args)


def compare(expected, exp_args, got, got_args, rel, what):
    assert_same_value(expected, got, rel=rel, what=what)
    for i, (e, g) in enumerate(zip(exp_args, got_args)):
        if isinstance(e, np.ndarray):
            assert_same_value(e, g, rel=rel, what=f"{what}: argument {i} after the call")


# ---------------------------------------------------------------- the cases
# Each returns something that depends on every iteration.

def add_int(x):
    s = 7
    for i in prange(len(x)):
        s += x[i]
    return s


def sub_int(x):
    s = 3
    for i in prange(len(x)):
        s -= x[i]
    return s


def mul_int(x):
    p = 3
    for i in prange(len(x)):
        p *= x[i]
    return p


def or_int(x):
    o = 64
    for i in prange(len(x)):
        o |= x[i]
    return o


def and_int(x):
    a = -1
    for i in prange(len(x)):
        a &= ~(1 << (x[i] % 40))
    return a


def xor_int(x):
    v = 12345
    for i in prange(len(x)):
        v ^= x[i] * (i + 1)
    return v


def add_float(x):
    s = 0.5
    for i in prange(len(x)):
        s += x[i]
    return s


def sub_float(x):
    s = 1.0
    for i in prange(len(x)):
        s -= x[i] * 2.0
    return s


def mul_float(x):
    p = 2.0
    for i in prange(len(x)):
        p *= 1.0 + x[i] * 1e-3
    return p


def div_float(x):
    """v /= e: each chunk divides its partial (from 1), the partials multiply into v."""
    q = 1e6
    for i in prange(len(x)):
        q /= 1.0 + x[i] * 1e-3
    return q


def div_spelled_out_from_int(x):
    """v = v / e of an int start (true division makes v a float), with *= (the same merge)."""
    q = 10
    for i in prange(len(x)):
        q = q / (1.0 + x[i] * 1e-3)
        q *= 1.0 - x[i] * 1e-4
    return q


def add_and_sub_same_var(x):
    s = 0
    for i in prange(len(x)):
        s += x[i]
        s -= i
    return s


def min_max_int(x):
    lo = 10**12
    hi = -(10**12)
    lo2 = 10**12
    hi2 = -(10**12)
    for i in prange(len(x)):
        lo = min(lo, x[i])
        hi = max(hi, x[i])
        lo2 = min(x[i] * 3 - i, lo2)  # the variable as second argument
        hi2 = max(x[i] - i, hi2)
    return lo, hi, lo2, hi2


def min_max_float(x):
    lo = math.inf
    hi = -math.inf
    for i in prange(len(x)):
        lo = min(lo, x[i])
        hi = max(x[i] * 2.0, hi)
    return lo, hi


def min_max_start_beyond(x):
    """Initial values that win: the combination starts from them."""
    lo = -5000
    hi = 5000
    for i in prange(len(x)):
        lo = min(lo, x[i])
        hi = max(hi, x[i])
    return lo, hi


def several_int(x):
    s = 0
    d = 100
    p = 1
    o = 0
    a = -1
    v = 0
    lo = 10**9
    hi = -(10**9)
    for i in prange(len(x)):
        s += x[i]
        d -= x[i] * i
        p *= -1
        o |= x[i] & 0xff
        a &= x[i] | 0x100
        v ^= i
        lo = min(lo, x[i])
        hi = max(hi, x[i])
    return s, d, p, o, a, v, lo, hi


def several_float(x):
    s = 0.0
    sq = 0.0
    d = 0.0
    p = 1.0
    lo = math.inf
    hi = -math.inf
    for i in prange(len(x)):
        s += x[i]
        sq += x[i] * x[i]
        d -= x[i] / 3.0
        p *= 1.0 + x[i] * 1e-4
        lo = min(lo, x[i])
        hi = max(hi, x[i])
    return s, sq, d, p, lo, hi


def int_and_float(x):
    count = 0
    s = 0.0
    for i in prange(len(x)):
        if x[i] > 0:
            count += 1
            s += x[i]
    return count, s


def reduction_from_argument(x, start):
    s = start
    for i in prange(len(x)):
        s += x[i]
    return s


def reduction_of_index(n):
    s = 0
    for i in prange(n):
        s += i * i
    return s


def reduction_in_inner_loop(x):
    s = 0.0
    for i in prange(x.shape[0]):
        for j in range(x.shape[1]):
            s += x[i, j] * (j + 1)
    return s


def reduction_in_inner_while(x):
    s = 0.0
    for i in prange(x.shape[0]):
        j = 0
        while j < x.shape[1]:
            s += x[i, j]
            j += 1
    return s


def spelled_out_float(x):
    """v = v op e and v = e op v: the reductions of v op= e spelled out."""
    s = 0.0
    t = 1.0
    d = 0.0
    for i in prange(len(x)):
        s = s + abs(x[i])
        t = t * (1.0 + x[i] * 1e-4)
        d = d - x[i] / 3.0
    return s, t, d


def spelled_out_operand_first(x):
    """v = e op v (op commutative) and v = v | e: reductions too, which
    Numba's parfor lowering fails on."""
    s = 0
    o = 0
    for i in prange(len(x)):
        s = x[i] * 2 + s
        o = o | (x[i] & 0xff)
    return s, o


def spelled_out_in_inner_loop(g):
    total = 0.0
    for i in prange(g.shape[0]):
        for j in range(g.shape[1]):
            total = total + g[i, j] * (j + 1)
    return total


def two_loops(x):
    s = 0.0
    for i in prange(len(x)):
        s += x[i]
    t = 0.0
    for i in prange(len(x)):
        t += x[i] * s
    return s, t


def prange_in_serial_loop(x):
    s = 0.0
    for r in range(4):
        for i in prange(len(x)):
            s += x[i] * r
    return s


def map_write(x):
    out = np.empty_like(x)
    for i in prange(len(x)):
        out[i] = x[i] * 2.0 + 1.0
    return out


def reverse_write(x):
    n = len(x)
    out = np.zeros_like(x)
    for i in prange(n):
        out[n - 1 - i] = x[i] - i
    return out


def in_place(x):
    for i in prange(len(x)):
        x[i] = x[i] * x[i] - 1.0
    return 0


def write_two_and_reduce(x):
    a = np.empty_like(x)
    b = np.empty(len(x), dtype=np.int64)
    s = 0.0
    for i in prange(len(x)):
        a[i] = x[i] + 1.0
        b[i] = i * 3
        s += x[i]
    return a, b, s


def write_stepped(n):
    out = np.zeros(n + 1, dtype=np.int64)
    for i in prange(0, n, 2):
        out[i] = i
        out[i + 1] = -i
    return out


def write_rows(x):
    out = np.empty_like(x)
    for i in prange(x.shape[0]):
        for j in range(x.shape[1]):
            out[i, j] = x[i, j] * (i - j)
    return out


def private_temps(x):
    out = np.empty_like(x)
    for i in prange(len(x)):
        t = x[i] * 2.0
        u = t + 1.0
        out[i] = u * t
    return out


def private_temps_and_reduction(x):
    s = 0.0
    for i in prange(len(x)):
        t = x[i] * x[i]
        s += t
    return s


def private_also_before_loop(x):
    t = 0.0
    out = np.empty_like(x)
    for i in prange(len(x)):
        t = x[i] - 1.0
        out[i] = t * t
    return out


def private_tuple_unpack(x):
    out = np.empty_like(x)
    for i in prange(len(x)):
        a, b = x[i], x[i] * 2.0
        out[i] = a - b * b
    return out


def private_in_both_branches(x):
    out = np.empty_like(x)
    for i in prange(len(x)):
        if x[i] > 0:
            t = x[i]
        else:
            t = -x[i] * 2.0
        out[i] = t
    return out


def private_accumulator(x):
    out = np.empty(x.shape[0])
    for i in prange(x.shape[0]):
        acc = 0.0
        for j in range(x.shape[1]):
            acc += x[i, j]
        out[i] = acc
    return out


def nested_prange(x):
    out = np.zeros_like(x)
    s = 0.0
    for i in prange(x.shape[0]):
        for j in prange(x.shape[1]):
            out[i, j] = x[i, j] + i
            s += x[i, j]
    return out, s


def prange_args(a, b, c):
    s = 0
    count = 0
    lo = 10**9
    hi = -(10**9)
    for i in prange(a, b, c):
        s += i // 7 + i % 13
        count += 1
        lo = min(lo, i)
        hi = max(hi, i)
    return s, count, lo, hi


def prange_one(n):
    s = 0
    for i in prange(n):
        s += (i + 1) * (i % 7)
    return s


def prange_two(a, b):
    s = 0
    for i in prange(a, b):
        s += (i + 1) * (i % 7)
    return s


def private_in_a_loop_that_runs(g):
    """pymatting's box filter: the running sum starts in a range(1) loop,
    which runs, so it is the iteration's own."""
    out = np.zeros_like(g)
    for i in prange(g.shape[0]):
        for j in range(1):
            s = 0.0
            for k in range(3):
                s += g[i, j + k]
            out[i, j] = s
        for j in range(1, g.shape[1] - 2):
            s -= g[i, j - 1]
            s += g[i, j + 2]
            out[i, j] = s
    return out


def private_divided_and_min_updated(g):
    """A private vector divided in place, a private minimum kept by
    min(v, e): both the iteration's own, as Numba's."""
    out = np.empty((g.shape[0], 2))
    for i in prange(g.shape[0]):
        total = np.zeros(2)
        lowest = np.inf
        for j in range(g.shape[1]):
            total[j % 2] += g[i, j]
            lowest = min(lowest, g[i, j])
        total /= g.shape[1]
        out[i, 0] = total[0] + total[1]
        out[i, 1] = lowest
    return out


def pndindex_rows(g):
    out = np.empty_like(g)
    for y, x in ruchey.pndindex(g.shape):
        out[y, x] = g[y, x] * 2 + y - x
    return out


def rng(seed):
    return np.random.default_rng(seed)


N = 10007
INTS = rng(1).integers(-1000, 1000, N)
FLOATS = rng(2).standard_normal(N) * 10.0
POS = rng(3).random(N) + 0.5


def product_ints():
    """+-1 with a few 2s and 3s: the product fits int64."""
    v = rng(4).choice(np.array([1, -1], dtype=np.int64), 1000)
    v[rng(5).choice(1000, 40, replace=False)] = 2
    v[rng(6).choice(1000, 10, replace=False)] = 3
    v[:20] = v[:20].clip(-1, 1)  # keep 2**<=40 * 3**<=10 < 2**63
    return v


GRID = rng(7).standard_normal((61, 37))

# name -> (function, arguments, rel for floats)
CASES = {
    "add_int": (add_int, (INTS,), None),
    "sub_int": (sub_int, (INTS,), None),
    "mul_int": (mul_int, (product_ints(),), None),
    "or_int": (or_int, (rng(8).integers(0, 2**40, 50),), None),
    "and_int": (and_int, (rng(9).integers(0, 1000, 30),), None),
    "xor_int": (xor_int, (INTS,), None),
    "add_float": (add_float, (FLOATS,), REL),
    "sub_float": (sub_float, (FLOATS,), REL),
    "mul_float": (mul_float, (FLOATS,), REL),
    "div_float": (div_float, (FLOATS,), REL),
    "div_spelled_out_from_int": (div_spelled_out_from_int, (FLOATS,), REL),
    "add_and_sub_same_var": (add_and_sub_same_var, (INTS,), None),
    "min_max_int": (min_max_int, (INTS,), None),
    "min_max_float": (min_max_float, (FLOATS,), None),
    "min_max_start_beyond": (min_max_start_beyond, (INTS,), None),
    "several_int": (several_int, (INTS,), None),
    "several_float": (several_float, (FLOATS,), REL),
    "int_and_float": (int_and_float, (FLOATS,), REL),
    "reduction_from_argument": (reduction_from_argument, (POS, 2.5), REL),
    "reduction_of_index": (reduction_of_index, (100003,), None),
    "reduction_in_inner_loop": (reduction_in_inner_loop, (GRID,), REL),
    "reduction_in_inner_while": (reduction_in_inner_while, (GRID,), REL),
    "spelled_out_float": (spelled_out_float, (FLOATS,), REL),
    "spelled_out_operand_first": (spelled_out_operand_first, (INTS,), None),
    "spelled_out_in_inner_loop": (spelled_out_in_inner_loop, (GRID,), REL),
    "two_loops": (two_loops, (POS,), REL),
    "prange_in_serial_loop": (prange_in_serial_loop, (POS,), REL),
    "map_write": (map_write, (FLOATS,), None),
    "reverse_write": (reverse_write, (FLOATS,), None),
    "in_place": (in_place, (FLOATS,), None),
    "write_two_and_reduce": (write_two_and_reduce, (POS,), REL),
    "write_stepped": (write_stepped, (1001,), None),
    "write_rows": (write_rows, (GRID,), None),
    "private_temps": (private_temps, (FLOATS,), None),
    "private_temps_and_reduction": (private_temps_and_reduction, (FLOATS,), REL),
    "private_also_before_loop": (private_also_before_loop, (FLOATS,), None),
    "private_tuple_unpack": (private_tuple_unpack, (FLOATS,), None),
    "private_in_both_branches": (private_in_both_branches, (FLOATS,), None),
    "private_accumulator": (private_accumulator, (GRID,), None),
    "nested_prange": (nested_prange, (GRID,), REL),
    "prange_one": (prange_one, (10**5 + 3,), None),
    "prange_two": (prange_two, (-500, 7001), None),
    "prange_args": (prange_args, (1000, -7, -3), None),
    "private_in_a_loop_that_runs": (private_in_a_loop_that_runs, (GRID,), None),
    "private_divided_and_min_updated": (private_divided_and_min_updated, (GRID,), None),
    "pndindex_rows": (pndindex_rows, (GRID,), None),
}

# Safe loops that ruchey nevertheless runs serially (with a RuntimeWarning).
# Cases numba (the stand-in, RUCHEY_TEST_AS_NUMBA=1) refuses: no |= &= ^=
# reductions, no += and -= (nor / and *) on one variable, no prange with a variable step.
NUMBA_REFUSES = {"or_int", "and_int", "xor_int", "add_and_sub_same_var", "several_int", "pndindex_rows",
                 "div_spelled_out_from_int", "write_stepped", "prange_args", "spelled_out_operand_first"}
TESTED_CASES = [name for name in CASES if not (AS_NUMBA and name in NUMBA_REFUSES)]


def case_params():
    params = []
    for name in CASES:
        marks = []
        if name in NUMBA_REFUSES:
            marks.append(numba_deviation("reduction operator or variable prange step"))
        params.append(pytest.param(name, marks=marks, id=name))
    return params


def expected_of(name):
    fn, args, _ = CASES[name]
    py_args = copies(args)
    with np.errstate(all="ignore"):
        return fn(*py_args), py_args


def check(compiled, name, expected=None, what=""):
    fn, args, rel = CASES[name]
    expected, py_args = expected if expected is not None else expected_of(name)
    got_args = copies(args)
    got = quiet(compiled, *got_args)
    compare(expected, py_args, got, got_args, rel, f"{name}{what}")


# ---------------------------------------------------------------- results

@pytest.mark.parametrize("name", case_params())
def test_parallel_matches_serial_and_python(name):
    fn, args, rel = CASES[name]
    expected, py_args = expected_of(name)
    serial_args = copies(args)
    serial = quiet(njit(fn), *serial_args)
    # the serial loop runs in Python's order: exact
    compare(expected, py_args, serial, serial_args, None, f"{name} serial")
    par_args = copies(args)
    par = quiet(njit(parallel=True)(fn), *par_args)
    compare(expected, py_args, par, par_args, rel, f"{name} parallel vs python")
    compare(serial, serial_args, par, par_args, rel, f"{name} parallel vs serial")


@pytest.mark.parametrize("name", case_params())
def test_safe_loops_run_in_parallel_without_warning(name):
    fn, args, rel = CASES[name]
    compiled = njit(parallel=True)(fn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="ignore"):
            compiled(*copies(args))
    runtime = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    assert not runtime, runtime


@pytest.mark.parametrize("threads", ["1", "2", "max"])
def test_races(threads):
    """Every case REPEATS times with the same thread count."""
    n = max_threads() if threads == "max" else int(threads)
    if n > max_threads():
        pytest.skip(f"pool has {max_threads()} threads")
    ruchey.set_num_threads(n)
    for name in TESTED_CASES:
        fn = CASES[name][0]
        compiled = njit(parallel=True)(fn)
        expected = expected_of(name)
        for r in range(REPEATS):
            check(compiled, name, expected, what=f" repeat {r}, {n} threads")


RACES_MANY_THREADS = """
import warnings
import numpy as np
import ruchey
import test_parallel as t
warnings.simplefilter("ignore", RuntimeWarning)
failures = []
print("threads", ruchey.get_num_threads())
for threads in (3, 8):
    ruchey.set_num_threads(threads)
    for name in t.TESTED_CASES:
        compiled = ruchey.njit(parallel=True)(t.CASES[name][0])
        expected = t.expected_of(name)
        for r in range(15):
            try:
                t.check(compiled, name, expected, what=f" repeat {r}, {threads} threads")
            except AssertionError as e:
                failures.append(str(e).splitlines()[0])
                break
    # n smaller than the thread count
    for n in (0, 1, 2, 3, 7):
        f = ruchey.njit(parallel=True)(t.prange_one)
        assert f(n) == t.prange_one(n), (threads, n)
print("failures", len(failures))
for f in failures:
    print(f)
"""


def test_races_more_threads_than_cores(tmp_path, monkeypatch):
    """A fresh interpreter with a pool of 8 threads (more than the cores)."""
    monkeypatch.setenv("RUCHEY_NUM_THREADS", "8")
    monkeypatch.setenv("NUMBA_NUM_THREADS", "8")
    proc = run_python_file(RACES_MANY_THREADS, tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "threads 8" in proc.stdout, proc.stdout
    assert "failures 0" in proc.stdout, proc.stdout


# ---------------------------------------------------------------- range forms

RANGE_ARGS = [
    (0, 10, 1), (10, 0, -1), (100, -7, -3), (7, -20, -4), (-5, 5, 2), (-500, 1001, 7),
    (0, 3, 5),                               # one iteration
    (5, 5, 1), (10, 0, 1), (0, 10, -1), (3, 3, -2),  # empty
    (0, 1, 1), (0, 2, 1), (1, 0, -1),        # fewer iterations than threads
    (-(2**62), 2**62, 2**60), (2**62, -(2**62), -(2**61)),  # large bounds
]


@numba_deviation("no prange with a variable step")
@pytest.mark.parametrize("args", RANGE_ARGS, ids=str)
@pytest.mark.parametrize("threads", [1, 2])
def test_prange_three_args(args, threads):
    if threads > max_threads():
        pytest.skip(f"pool has {max_threads()} threads")
    ruchey.set_num_threads(threads)
    f = njit(parallel=True)(prange_args)
    assert_same_value(prange_args(*args), f(*args), what=f"prange{args}")


@pytest.mark.parametrize("n", [-5, 0, 1, 2, 3, 4, 17, 100003])
def test_prange_one_arg(n):
    f = njit(parallel=True)(prange_one)
    for threads in range(1, max_threads() + 1):
        ruchey.set_num_threads(threads)
        assert f(n) == prange_one(n)


@pytest.mark.parametrize("a,b", [(0, 0), (5, 0), (-3, -2), (-500, 7001), (10, 13)])
def test_prange_two_args(a, b):
    f = njit(parallel=True)(prange_two)
    assert f(a, b) == prange_two(a, b)


@numba_deviation("no prange with a variable step")
def test_prange_step_zero():
    f = njit(parallel=True)(prange_args)
    with pytest.raises(ValueError):
        f(0, 10, 0)
    assert f(0, 10, 1) == prange_args(0, 10, 1)


def test_prange_outside_parallel_is_range():
    """Without parallel=True, prange is range: carried values, break and return
    work as in Python and nothing is said about them."""
    def carried(n):
        s = 1
        last = -1
        for i in prange(n):
            s = s * 3 % 1000003 + i
            last = i
            if s == 17:
                break
            if i == 10**6:
                return -1, -1, -1
        return s, last, i

    f = njit(carried)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for n in (1, 5, 1000):
            assert f(n) == carried(n)


def test_loop_index_after_parallel_loop():
    """Python's value of the index after the loop (its last value), or the
    loop runs serially with a warning; never an uninitialised value."""
    def last_index(n):
        s = 0
        for i in prange(n):
            s += i
        return s, i

    f = njit(parallel=True)(last_index)
    if AS_NUMBA:
        pytest.skip("numba refuses to compile this")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = [f(n) for n in (1, 2, 3, 10, 1001)]
    assert got == [last_index(n) for n in (1, 2, 3, 10, 1001)]


def float_sum(x):
    s = 0.0
    for i in prange(len(x)):
        s += math.sqrt(x[i]) * math.sin(x[i])
    return s


@pytest.mark.parametrize("threads", [1, 2, "max"])
def test_float_reduction_same_on_every_run(threads):
    """Chunks are taken by whichever thread is free, but their bounds and
    the order their partials are combined in depend only on the length and
    the thread count: a float sum is the same on every run."""
    ruchey.set_num_threads(max_threads() if threads == "max" else min(threads, max_threads()))
    x = np.random.default_rng(7).random(200_003)
    f = njit(parallel=True)(float_sum)
    first = f(x)
    assert all(f(x) == first for _ in range(REPEATS))
    assert first == pytest.approx(float_sum(x), rel=REL)


def per_thread_sums(x):
    acc = np.zeros(ruchey.get_num_threads())
    for i in prange(len(x)):
        acc[ruchey.get_thread_id()] += x[i]
    return acc


@pytest.mark.parametrize("threads", [1, 2, "max"])
def test_thread_id_and_count_inside_the_loop(threads):
    """get_thread_id() and get_num_threads() in compiled code, as in Numba:
    per-thread accumulators indexed by the thread running the iteration."""
    n = max_threads() if threads == "max" else min(threads, max_threads())
    ruchey.set_num_threads(n)
    x = np.arange(100_000) % 7 + 0.0
    f = njit(parallel=True)(per_thread_sums)
    for _ in range(REPEATS // 5):
        acc = f(x)
        assert acc.shape == (n,)
        assert acc.sum() == x.sum()  # small integers: exact in any order
    assert per_thread_sums.__globals__["ruchey"] is ruchey
    if n == 1:
        assert list(f(x)) == list(per_thread_sums(x))


def test_thread_id_outside_parallel_loops_is_zero():
    @njit
    def ids():
        return ruchey.get_thread_id(), ruchey.get_num_threads()

    assert ids() == ids.py_func() == (0, ruchey.get_num_threads())


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_thread_id_takes_no_arguments():
    @njit
    def bad():
        return ruchey.get_thread_id(1)

    with pytest.raises(ruchey.TypingError, match=r"get_thread_id\(\) takes no arguments"):
        bad()


# ---------------------------------------------------------------- serial fallbacks

def unsafe_break(x):
    s = 0.0
    for i in prange(len(x)):
        if x[i] > 2.0:
            break  # <- reported
        s += x[i]
    return s


def unsafe_return(x):
    s = 0.0
    for i in prange(len(x)):
        if x[i] > 2.0:
            return float(i)  # <- reported
    return s


def unsafe_carried(x):
    s = 0.0
    for i in prange(len(x)):  # <- reported
        s = s * 0.5 + x[i]
    return s


def unsafe_subtracted_from(x):
    s = 0.0
    for i in prange(len(x)):  # <- reported
        s = x[i] - s  # not s - e: carried
    return s


def unsafe_reduction_spelled_out_and_read(x):
    s = 0.0
    out = np.empty_like(x)
    for i in prange(len(x)):  # <- reported
        s = s + x[i]
        out[i] = s
    return out


def unsafe_used_after(x):
    t = 0.0
    for i in prange(len(x)):  # <- reported
        t = x[i] * 2.0
    return t


def unsafe_reduction_read(x):
    s = 0.0
    count = 0
    for i in prange(len(x)):  # <- reported
        s += x[i]
        if s > 10.0:
            count += 1
    return s, count


def unsafe_reduction_assigned(x):
    s = 0.0
    for i in prange(len(x)):  # <- reported
        s += x[i]
        if x[i] > 2.0:
            s = 0.0
    return s


def unsafe_mixed_reduction(x):
    s = 1.0
    for i in prange(len(x)):  # <- reported
        s += x[i]
        s *= 0.5
    return s


def unsafe_not_a_reduction(x):
    s = 1e300
    for i in prange(len(x)):
        s //= 1.0 + abs(x[i])  # <- reported (no merge of partials for //, nor in Numba)
    return s


def unsafe_read_carried_array_index(n):
    k = 0
    out = np.zeros(n, dtype=np.int64)
    for i in prange(n):  # <- reported
        out[k] = i
        k = i
    return out


def unsafe_assigned_in_one_branch(x):
    out = np.empty_like(x)
    t = 0.0
    for i in prange(len(x)):  # <- reported
        if x[i] > 0:
            t = x[i]
        out[i] = t  # the last positive value: carried
    return out


def unsafe_assigned_in_inner_loop(x):
    out = np.empty_like(x)
    t = 0.0
    for i in prange(len(x)):  # <- reported
        for j in range(i % 3):
            t = x[i] + j
        out[i] = t  # the inner loop may not run: carried
    return out


UNSAFE = [unsafe_break, unsafe_return, unsafe_carried, unsafe_subtracted_from, unsafe_reduction_spelled_out_and_read,
          unsafe_used_after,
          unsafe_reduction_read, unsafe_reduction_assigned, unsafe_mixed_reduction,
          unsafe_not_a_reduction, unsafe_read_carried_array_index, unsafe_assigned_in_one_branch,
          unsafe_assigned_in_inner_loop]


def reported_line(fn):
    lines, first = inspect.getsourcelines(fn)
    marked = [first + k for k, line in enumerate(lines) if "# <- reported" in line]
    assert len(marked) == 1
    return marked[0]


@numba_deviation("numba has no serial fallback with a warning")
@pytest.mark.parametrize("fn", UNSAFE, ids=lambda f: f.__name__)
def test_unsafe_loop_runs_serially_with_warning(fn):
    arg = 1001 if fn is unsafe_read_carried_array_index else FLOATS[:1001]
    f = njit(parallel=True)(fn)
    with pytest.warns(RuntimeWarning) as record:
        got = f(copies([arg])[0])
    messages = [str(w.message) for w in record if issubclass(w.category, RuntimeWarning)]
    where = f"{os.path.basename(__file__)}:{reported_line(fn)}"
    assert any(where in m for m in messages), (where, messages)
    expected = fn(copies([arg])[0])
    assert_same_value(expected, got, what=fn.__name__)  # the serial answer: exact
    # compiled once: the warning is not repeated, the answer is the same
    for threads in range(1, max_threads() + 1):
        ruchey.set_num_threads(threads)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert_same_value(expected, f(copies([arg])[0]), what=fn.__name__)


@numba_deviation("numba has no serial fallback with a warning")
def test_unsafe_warning_names_this_file_and_says_serial():
    f = njit(parallel=True)(unsafe_carried)
    with pytest.warns(RuntimeWarning, match="serial") as record:
        f(FLOATS[:10])
    assert any(__file__ in str(w.message) for w in record), [str(w.message) for w in record]


def test_unsafe_loop_without_parallel_says_nothing():
    for fn in UNSAFE:
        arg = 101 if fn is unsafe_read_carried_array_index else FLOATS[:101]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert_same_value(fn(copies([arg])[0]), njit(fn)(copies([arg])[0]),
                              what=fn.__name__)


# ---------------------------------------------------------------- errors

def divide(n, k):
    s = 0
    for i in prange(n):
        s += 1000 // (i - k)
    return s


def index_past(x, n):
    s = 0.0
    for i in prange(n):
        s += x[i]
    return s


def raise_at(n, k):
    s = 0
    for i in prange(n):
        if i == k:
            raise ValueError("boom at k")
        s += i
    return s


def assert_at(n, k):
    s = 0
    for i in prange(n):
        assert i != k, "i reached k"
        s += i
    return s


def raise_in_nested(x, k):
    out = np.zeros_like(x)
    for i in prange(x.shape[0]):
        for j in prange(x.shape[1]):
            if i * x.shape[1] + j == k:
                raise KeyError("nested")
            out[i, j] = x[i, j]
    return out


@numba_deviation("errors inside parfors are not raised, or refused")
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("k", [0, 1, 499, 500, 998, 999], ids=lambda k: f"k{k}")
def test_zero_division_in_body(threads, k):
    if threads > max_threads():
        pytest.skip(f"pool has {max_threads()} threads")
    ruchey.set_num_threads(threads)
    f = njit(parallel=True)(divide)
    with pytest.raises(ZeroDivisionError):
        f(1000, k)
    assert f(1000, 5000) == divide(1000, 5000)  # the pool still works


@numba_deviation("errors inside parfors are not raised, or refused")
@pytest.mark.parametrize("n", [101, 1000, 10**6])
def test_index_error_with_boundscheck(n):
    x = np.arange(100.0)
    f = njit(parallel=True, boundscheck=True)(index_past)
    with pytest.raises(IndexError):
        f(x, n)
    assert f(x, 100) == index_past(x, 100)


@pytest.mark.parametrize("k", [0, 77, 99])
def test_raise_in_body(k):
    f = njit(parallel=True)(raise_at)
    with pytest.raises(ValueError, match="boom at k"):
        f(100, k)
    assert f(100, 100) == raise_at(100, 100)


@numba_deviation("errors inside parfors are not raised, or refused")
@pytest.mark.parametrize("k", [0, 77, 99])
def test_assert_in_body(k):
    f = njit(parallel=True)(assert_at)
    with pytest.raises(AssertionError, match="i reached k"):
        f(100, k)
    assert f(100, -1) == assert_at(100, -1)


@numba_deviation("errors inside parfors are not raised, or refused")
def test_every_iteration_raises():
    f = njit(parallel=True)(raise_at)
    g = njit(parallel=True)(divide)
    for _ in range(REPEATS):
        with pytest.raises(ZeroDivisionError):
            g(1, 0)
    with pytest.raises(ZeroDivisionError):  # every chunk's first iteration
        njit(parallel=True)(zero_division_everywhere)(1000)
    assert f(10, 11) == raise_at(10, 11)


def zero_division_everywhere(n):
    s = 0
    for i in prange(n):
        s += i // (i - i)
    return s


def test_raise_in_nested_prange():
    f = njit(parallel=True)(raise_in_nested)
    with pytest.raises(KeyError):
        quiet(f, GRID, 1000)
    np.testing.assert_array_equal(quiet(f, GRID, -1), GRID)


@numba_deviation("errors inside parfors are not raised, or refused")
def test_errors_repeatedly_in_many_threads(tmp_path, monkeypatch):
    monkeypatch.setenv("RUCHEY_NUM_THREADS", "8")
    monkeypatch.setenv("NUMBA_NUM_THREADS", "8")
    proc = run_python_file("""
import ruchey, pytest
import test_parallel as t
f = ruchey.njit(parallel=True)(t.divide)
for threads in range(1, 9):
    ruchey.set_num_threads(threads)
    for k in range(0, 1000, 37):
        with pytest.raises(ZeroDivisionError):
            f(1000, k)
    assert f(1000, 5000) == t.divide(1000, 5000)
print("ok")
""", tmp_path, timeout=120)
    assert proc.returncode == 0 and "ok" in proc.stdout, proc.stdout + proc.stderr


# ---------------------------------------------------------------- threads from Python

def spin(n):
    s = 0.0
    for i in range(n):
        s += math.sqrt(i + 1.0) * 1e-9
    return s


def calibrated_n(f, seconds):
    n = 10**6
    f(n)
    while True:
        start = time.perf_counter()
        f(n)
        took = time.perf_counter() - start
        if took > 0.02:
            return max(1, int(n * seconds / took))
        n *= 4


def concurrency(fn, pool):
    """(sequential, concurrent) wall times of two calls of fn()."""
    start = time.perf_counter()
    first = [fn(), fn()]
    sequential = time.perf_counter() - start
    start = time.perf_counter()
    second = [fut.result() for fut in [pool.submit(fn), pool.submit(fn)]]
    concurrent = time.perf_counter() - start
    assert first == second
    return sequential, concurrent


HASHED = b"ruchey" * (1 << 20)


def hash_for(seconds):
    """A control that releases the GIL (hashlib on big buffers) for ~seconds."""
    start = time.perf_counter()
    hashlib.sha256(HASHED).digest()
    repeats = max(1, int(seconds / max(time.perf_counter() - start, 1e-6)))
    return lambda: [hashlib.sha256(HASHED).digest() for _ in range(repeats)][-1]


@pytest.mark.skipif(min(os.cpu_count() or 1, len(os.sched_getaffinity(0))) < 2,
                    reason="needs 2 CPUs")
def test_nogil_calls_run_concurrently():
    """Two calls from two Python threads take less than 0.8x two calls in a
    row.  A shared machine may not have two idle CPUs, so each try is framed
    by a control (hashlib, known to release the GIL): the test fails only if
    a try whose controls before and after both ran concurrently did not, and
    is skipped if no control did."""
    f = njit(nogil=True)(spin)
    n = calibrated_n(f, 0.2)
    control = hash_for(0.1)
    ratios, valid = [], []
    with ThreadPoolExecutor(2) as pool:
        seq, conc = concurrency(control, pool)
        before = conc / seq
        for _ in range(4):
            seq, conc = concurrency(lambda: f(n), pool)
            ratios.append(conc / seq)
            if ratios[-1] < 0.8:
                return
            seq, conc = concurrency(control, pool)
            after = conc / seq
            if before < 0.8 and after < 0.8:
                valid.append((before, ratios[-1], after))
            before = after
    if not valid:
        pytest.skip(f"machine too busy: hashlib never ran 2 threads concurrently "
                    f"(ruchey ratios {[round(r, 2) for r in ratios]})")
    assert False, f"(control, ruchey, control) concurrent/sequential: {valid}"


@pytest.mark.parametrize("options", [
    {"nogil": True},
    pytest.param({"parallel": True}, marks=numba_deviation("parallel=True keeps the GIL")),
], ids=str)
def test_gil_released_during_call(options):
    """While a compiled call runs in another thread this thread keeps running
    Python: the longest pause it sees is much shorter than the call."""
    f = njit(**options)(spin)
    n = calibrated_n(f, 0.3)
    longest = 0.0
    box = {}

    def call():
        start = time.perf_counter()
        f(n)
        box["took"] = time.perf_counter() - start

    worker = threading.Thread(target=call)
    last = time.perf_counter()
    worker.start()
    while worker.is_alive():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    worker.join()
    assert longest < 0.5 * box["took"], (longest, box["took"])


def test_parallel_function_from_several_python_threads():
    f = njit(parallel=True)(several_float)
    g = njit(parallel=True)(min_max_int if AS_NUMBA else several_int)
    inputs = [rng(100 + k).standard_normal(5000 + 13 * k) for k in range(8)]
    int_inputs = [rng(200 + k).integers(-10**6, 10**6, 3000 + 7 * k) for k in range(8)]
    expected = [several_float(x) for x in inputs]
    int_expected = [g.py_func(x) for x in int_inputs]

    def caller(k):
        if k % 2:
            ruchey.set_num_threads(1 + k % max_threads())
        for _ in range(30):
            assert_same_value(expected[k], f(inputs[k]), rel=REL, what=f"thread {k}")
            assert_same_value(int_expected[k], g(int_inputs[k]), what=f"thread {k}")
        return k

    with ThreadPoolExecutor(4) as pool:
        assert sorted(pool.map(caller, range(8))) == list(range(8))


@numba_deviation("errors inside parfors are not raised, or refused")
def test_parallel_errors_from_several_python_threads():
    f = njit(parallel=True)(divide)

    def caller(k):
        for r in range(30):
            with pytest.raises(ZeroDivisionError):
                f(1000, (k * 131 + r * 17) % 1000)
            assert f(1000, 2000) == divide(1000, 2000)
        return k

    with ThreadPoolExecutor(4) as pool:
        assert sorted(pool.map(caller, range(4))) == list(range(4))


# ---------------------------------------------------------------- typed lists read by the threads


def pairwise_of_lists(xs, ys):
    out = np.zeros((len(xs), len(ys)))
    for i in prange(len(xs)):
        for j in range(len(ys)):
            x, y = xs[i], ys[j]
            s = 0.0
            for k in range(min(x.shape[0], y.shape[0])):
                s += (x[k] - y[k]) ** 2
            for v in y:
                s += v
            out[i, j] = s
    return out


def doubled_in_place(xs):
    for i in prange(len(xs)):
        xs[i] = xs[i] * 2
    return xs


def test_typed_lists_only_read_are_shared_by_the_threads():
    """A prange body reading a typed list (xs[i], len(xs), for v in xs: as
    aeon's pairwise distances over unequal-length series) runs on the pool;
    one storing into it runs serially, with the reason."""
    rng = np.random.default_rng(21)
    xs = ruchey.typed.List([rng.standard_normal(int(rng.integers(1, 30))) for _ in range(40)])
    ys = ruchey.typed.List([rng.standard_normal(int(rng.integers(1, 30))) for _ in range(25)])
    f = njit(parallel=True)(pairwise_of_lists)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "runs serially"
        got = f(xs, ys)
    np.testing.assert_allclose(got, pairwise_of_lists(xs, ys), rtol=1e-12)
    g = njit(parallel=True)(doubled_in_place)
    with pytest.warns(RuntimeWarning, match="store into a typed list"):
        g(ruchey.typed.List([1.0, 2.0]))


def test_pndindex_runs_in_python_and_is_a_loops_iterable_only():
    assert list(ruchey.pndindex(2, 3)) == list(np.ndindex(2, 3))
    assert list(ruchey.pndindex((2,))) == [(0,), (1,)]

    def zipped(a, b):
        s = 0.0
        for idx, v in zip(ruchey.pndindex(a.shape), b):
            s += v
        return s
    with pytest.raises(ruchey.TypingError, match="pndindex\\(\\) can only be the iterable of a for loop"):
        njit(parallel=True)(zipped)(np.ones((2, 2)), np.ones(4))


# ---------------------------------------------------------------- array reductions

def batches(n, m):
    """thewalrus' loop hafnian batches: acc += a fresh array per iteration
    (and -=, *=, of a 2-d array), each thread into its own partial."""
    acc = np.zeros(m, dtype=np.complex128)
    scale = np.ones((2, m))
    for j in prange(n):
        h = np.zeros(m, dtype=np.complex128)
        for k in range(m):
            h[k] = (j + 1) * (k + 1) * (1 + 0.5j)
        acc += h
        acc -= 0.25
        scale *= 1.0 + 0.001 * (j % 7)
    return acc, scale


@pytest.mark.parametrize("name", ["spelled_out_float", "spelled_out_in_inner_loop",
                                  pytest.param("spelled_out_operand_first", marks=numba_deviation("v = e op v"))])
def test_spelled_out_reduction_runs_in_parallel(name):
    fn, args, rel = CASES[name]
    f = njit(parallel=True)(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "runs serially"
        for threads in range(1, max_threads() + 1):
            ruchey.set_num_threads(threads)
            compare(fn(*copies(args)), copies(args), f(*copies(args)), copies(args), rel, name)


def test_array_reduction_runs_in_parallel_as_the_loop_does():
    par = njit(parallel=True)(batches)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "runs serially"
        for n in (0, 1, 3, 1000):
            for m in (1, 4):
                got, expected = par(n, m), batches(n, m)
                for g, e in zip(got, expected):
                    np.testing.assert_allclose(g, e, rtol=1e-12)


def test_array_reduction_keeps_the_arrays_own_values_and_identity():
    @njit(parallel=True)
    def into(acc, n):
        for j in prange(n):
            acc += j
        return acc

    a = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(into(a.copy(), 10), into.py_func(a.copy(), 10))
    b = np.arange(6.0).reshape(2, 3)
    assert into(b, 10) is not None and b[0, 0] == 45.0  # in place, as += is


def test_array_reduction_raising_in_a_chunk_raises():
    @njit(parallel=True)
    def bad(n):
        acc = np.zeros(3)
        for j in prange(n):
            if j == 57:
                raise ValueError("bad j")
            acc += j
        return acc

    with pytest.raises(ValueError, match="bad j"):
        bad(100)
    np.testing.assert_array_equal(bad(50), bad.py_func(50))


def test_array_reduction_partials_are_released_when_a_chunk_raises():
    @njit(parallel=True)
    def bad(n, m):
        acc = np.zeros(m)
        for j in prange(n):
            if j == n - 3:
                raise ValueError("bad j")
            acc += j
        return acc

    def calls(k):
        for _ in range(k):
            with pytest.raises(ValueError):
                bad(2000, 20000)

    calls(20)
    before = rss_bytes()
    calls(200)  # 160 kB a partial, some per call: leaked, hundreds of MB
    if before is not None:
        assert rss_bytes() - before < 40 << 20


def odd_batches(n, m):
    """thewalrus' odd batches: H[0] += x beside H += h, both the thread's partial's."""
    acc = np.zeros(m)
    for j in prange(n):
        h = np.full(m, 0.5 * j)
        if j % 3 == 0:
            acc[0] += j
            acc[m - 1] -= 1.0
        acc += h
    return acc


def test_item_updates_of_an_array_reduction_go_to_the_partials():
    par = njit(parallel=True)(odd_batches)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "runs serially"
        for n in (0, 5, 400):
            np.testing.assert_allclose(par(n, 3), odd_batches(n, 3), rtol=1e-12)


def test_an_array_read_in_the_loop_is_no_reduction():
    @njit(parallel=True)
    def reads(n):
        acc = np.zeros(2)
        for j in prange(n):
            acc += acc[0] + 1.0  # each iteration reads what the others added: serial, as Python
        return acc

    with pytest.warns(RuntimeWarning, match="also read"):
        got = reads(6)
    np.testing.assert_array_equal(got, reads.py_func(6))


# ---------------------------------------------------------------- a loop of one iteration per thread

ONE_PER_THREAD = """
import numpy as np
import ruchey
from ruchey import njit, prange

@njit(parallel=True)
def thread_ids(out):
    for i in prange(out.shape[0]):
        out[i] = ruchey.get_thread_id()

n = ruchey.get_num_threads()
ok = 0
for length in [n] + [n, n - 1, 2] * 30:   # the first is the pool's first loop
    out = np.full(length, -1)
    thread_ids(out)
    ok += sorted(out) == list(range(length))
print("threads", n, "spread", ok, "of", 91)
"""


@pytest.mark.skipif(AS_NUMBA, reason="Numba's schedule depends on its threading layer")
def test_loop_of_no_more_iterations_than_threads_runs_one_on_each(tmp_path, monkeypatch):
    """`for t in prange(get_num_threads())` (a thread's share of work in each
    iteration, as PyMPDATA divides its domain) runs each iteration on a
    thread of its own, the pool's very first loop too, so code checking that
    the loop ran on several threads finds it did."""
    monkeypatch.setenv("RUCHEY_NUM_THREADS", "4")
    proc = run_python_file(ONE_PER_THREAD, tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "threads 4 spread 91 of 91" in proc.stdout, proc.stdout


@njit(parallel=True)
def _sum_with_chunksize(x, size):
    before = ruchey.set_parallel_chunksize(size)
    seen = np.empty(x.shape[0], np.int64)
    s = 0.0
    for i in prange(x.shape[0]):
        seen[i] = ruchey.get_parallel_chunksize()  # (0 in a loop's body, as Numba resets it there)
        s += x[i] * x[i]
    restored = ruchey.set_parallel_chunksize(before)
    return s, seen, restored


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's pool: its chunks")
def test_parallel_chunksize_sets_the_chunks_and_keeps_results():
    x = np.random.default_rng(5).random(1000)
    serial = _sum_with_chunksize.py_func(x, 0)[0]
    for size in (0, 1, 7, 64, 5000):
        s, seen, restored = _sum_with_chunksize(x, size)
        assert math.isclose(s, serial, rel_tol=1e-12) and restored == size and not seen.any()
        assert ruchey.get_parallel_chunksize() == 0
    threads = ruchey.get_num_threads()
    with ruchey.parallel_chunksize(300):
        assert ruchey.get_parallel_chunksize() == 300
        chunks = ruchey._core._parallel_chunks(1000)
    assert ruchey.get_parallel_chunksize() == 0
    if threads > 1:  # (one thread: every loop is one chunk)
        assert [end - begin for begin, end, _, _ in chunks] == [250] * 4  # ceil(1000 / 300) chunks, even
    assert ruchey.set_parallel_chunksize(numpy.int8(3)) == 0 and ruchey.set_parallel_chunksize(0) == 3


def test_parallel_chunksize_refuses_what_numba_refuses():
    with pytest.raises(ValueError, match="greater than or equal to zero"):
        ruchey.set_parallel_chunksize(-1)
    with pytest.raises(TypeError, match="must be an integer"):
        ruchey.set_parallel_chunksize(2.0)
    with pytest.raises(ValueError, match="greater than or equal to zero"):
        _sum_with_chunksize(np.ones(3), -4)
    with pytest.raises(ruchey.TypingError, match="must be an integer"):
        njit(lambda: ruchey.set_parallel_chunksize(1.5))()
    assert ruchey.get_parallel_chunksize() == 0


@njit(parallel=True)
def _chunked_sum(x, size):
    with ruchey.parallel_chunksize(size):
        inside = ruchey.get_parallel_chunksize()
        s = 0.0
        for i in prange(x.shape[0]):
            s += x[i]
        if size == 3:
            return s, inside  # (the block's exit restores the chunksize on every path)
        if size == 4:
            raise ValueError("four")
    return s, inside


def test_with_parallel_chunksize_in_compiled_code():
    x = np.random.default_rng(6).random(777)
    for size in (0, 1, 3, 10, 10000):
        s, inside = _chunked_sum(x, size)
        assert math.isclose(s, x.sum(), rel_tol=1e-12) and inside == size
        assert ruchey.get_parallel_chunksize() == 0
    with pytest.raises(ValueError, match="four"):
        _chunked_sum(x, 4)
    with pytest.raises(ValueError, match="greater than or equal to zero"):
        _chunked_sum(x, -1)
    assert ruchey.get_parallel_chunksize() == 0
    with pytest.raises(ruchey.TypingError, match="takes the chunksize alone"):
        njit(_with_two_sizes)()


@njit(parallel=True)
def _chunked_fill(size, n, fail_at):
    seen = np.full(n, -13)
    with ruchey.parallel_chunksize(size):
        for i in prange(n):
            if i == fail_at:
                raise ValueError("failed inside")
            seen[i] = ruchey.get_parallel_chunksize()
    return seen


def test_with_parallel_chunksize_keeps_its_loops_parallel():
    """The with block restores the chunksize on every exit but catches
    nothing: a prange loop inside it runs on the pool (no "runs serially"
    warning), its body seeing the chunksize reset to 0, as Numba's does."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for n in (1000, 997, 1):
            for size in (1, 2, 15, 5000):
                assert (_chunked_fill(size, n, -1) == 0).all()
                assert ruchey.get_parallel_chunksize() == 0
        with pytest.raises(ValueError, match="failed inside"):
            _chunked_fill(7, 500, 321)
    assert ruchey.get_parallel_chunksize() == 0


def _with_two_sizes():
    with ruchey.parallel_chunksize(1, 2):
        pass
