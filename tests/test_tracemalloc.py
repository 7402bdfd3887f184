"""Arrays that compiled code makes are seen by Python's tracemalloc, as
Numba's are: a snapshot taken while one is alive counts its bytes at the
line of Python that called the compiled function, and they are gone from
it once the array is freed."""
import tracemalloc

import numpy as np
import pytest

import ruchey


def doubled_range(n):
    return np.arange(n, dtype=np.int64) * 2


def make_and_sum(n):
    total = 0.0
    for i in range(4):
        a = np.ones(n + i)
        total += a.sum()
    return total


def rows_of_squares(n):
    out = np.empty(n)
    for i in ruchey.prange(n):
        row = np.arange(i + 1) * 1.0  # a block made on a pool thread
        out[i] = (row * row).sum()
    return out


def traced(call, check):
    """The traced bytes call() added at each line of Python while its result
    lives, and those left once the result is freed; check(result) runs first."""
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        result = call()
        during = tracemalloc.take_snapshot().compare_to(before, "lineno")
        check(result)
        del result
        after = tracemalloc.take_snapshot().compare_to(before, "lineno")
    finally:
        tracemalloc.stop()
    return ({stat.traceback[0].lineno: stat.size_diff for stat in during},
            {stat.traceback[0].lineno: stat.size_diff for stat in after})


@pytest.mark.parametrize("n", [1000, 250_000, 1_000_003])
def test_an_array_made_by_compiled_code_is_traced_at_the_calling_line(n):
    f = ruchey.njit(doubled_range)
    f(3)  # (compiled before tracing)

    def call():
        return f(n)  # the line the bytes are counted at
    line = call.__code__.co_firstlineno + 1
    during, after = traced(call, lambda got: np.testing.assert_array_equal(got, f.py_func(n)))
    assert during.get(line, 0) >= 8 * n, during
    assert after.get(line, 0) < 8 * n, after  # freed: its trace is gone


def test_temporaries_freed_inside_compiled_code_leave_no_trace():
    f = ruchey.njit(make_and_sum)
    f(3)
    rng = np.random.default_rng(17)
    for n in map(int, rng.integers(10_000, 400_000, 3)):
        during, _ = traced(lambda: f(n), lambda got: assert_equal(got, f.py_func(n)))
        assert sum(during.values()) < 8 * n, during  # (each of the four arrays freed before the call returned)


def test_arrays_made_in_a_parallel_loop_while_tracing_give_the_same_results():
    f = ruchey.njit(parallel=True)(rows_of_squares)
    f(4)
    for n in (1, 7, 300):
        traced(lambda: f(n), lambda got: np.testing.assert_allclose(got, f.py_func(n), rtol=1e-12))


def assert_equal(got, want):
    assert got == want, (got, want)

TRACED_FROM_THE_START = """
import sys, tracemalloc
import numpy as np
import ruchey
assert tracemalloc.is_tracing()
f = ruchey.njit(lambda n: np.arange(n, dtype=np.int64) * 2)
n = int(sys.argv[1])
f(3)
before = tracemalloc.take_snapshot()
got = f(n)
grown = max(stat.size_diff for stat in tracemalloc.take_snapshot().compare_to(before, "lineno"))
assert (got == f.py_func(n)).all()
print(grown)
"""


@pytest.mark.parametrize("n", [500_000, 1_000_003])
def test_tracing_started_before_ruchey_was_imported_sees_its_arrays(n):
    """python -X tracemalloc traces before ruchey is imported, so no start() of
    tracemalloc's is ever called: ruchey finds it tracing as it loads."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-X", "tracemalloc", "-c", TRACED_FROM_THE_START, str(n)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) >= 8 * n


def test_stopped_tracing_tells_no_more():
    """Once tracemalloc stops, arrays made are not told to it: a start after
    that sees only the arrays made while it traces again."""
    f = ruchey.njit(doubled_range)
    f(3)
    tracemalloc.start()
    tracemalloc.stop()
    kept = f(400_000)  # made while not tracing: no trace, and its free later none either
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        del kept
        made = f(300_000)
        grown = max(stat.size_diff for stat in tracemalloc.take_snapshot().compare_to(before, "lineno"))
        np.testing.assert_array_equal(made, f.py_func(300_000))
    finally:
        tracemalloc.stop()
    assert 8 * 300_000 <= grown < 8 * 700_000
