"""Inputs that once crashed the interpreter: each runs in a fresh process,
which must end cleanly, with the Python exception NumPy or CPython raises
and an interpreter still able to compile and run code afterwards."""
import pytest

from conftest import run_python_file

# After the case: compile something new and run it, then say so.
STILL_USABLE = """
from ruchey import njit as _njit
@_njit
def _after(a, b):
    return a * b + 1
assert _after(6, 7) == 43
print("SURVIVED")
"""


def run_case(code, directory, timeout=300):
    proc = run_python_file(code + STILL_USABLE, directory, timeout=timeout)
    if "CPYTHON-REFUSES" in proc.stdout:
        pytest.skip("this Python cannot compile code this deep itself (RecursionError in compile())")
    assert proc.returncode == 0, (f"interpreter died, rc={proc.returncode}\n"
                                  f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr[-4000:]}")
    assert "SURVIVED" in proc.stdout
    return proc.stdout


# ---------------------------------------------------------------- allocation sizes

# Each compiled call must raise what NumPy raises for the same arguments.
SAME_AS_NUMPY = """
import numpy as np
from ruchey import njit

def outcome(f, *args):
    try:
        r = f(*args)
        return ("ok", getattr(r, "shape", r))
    except Exception as e:
        return (type(e).__name__, str(e))

def check(f, *args):
    got, want = outcome(f, *args), outcome(f.py_func, *args)
    assert got == want, (f.py_func.__name__, args, got, want)
    assert got[0] == "ValueError", got
"""


def test_allocation_sizes_that_overflow_raise_numpys_value_error(tmp_path):
    run_case(SAME_AS_NUMPY + """
@njit
def zeros2(a, b): return np.zeros((a, b))
@njit
def zeros3(a, b, c): return np.zeros((a, b, c))
@njit
def empty1(n): return np.empty(n)
@njit
def ones2(a, b): return np.ones((a, b), dtype=np.int8)
@njit
def full2(a, b): return np.full((a, b), 3.0)
@njit
def zeros_with_empty_dim(a, b): return np.zeros((0, a, b))
@njit
def arange_then_write(a, b):
    x = np.arange(a, b)
    x[5] = 1
    return x[5]

check(zeros2, 2**32, 2**32)
check(zeros3, 2**31, 2**31, 4)
check(empty1, 2**61 + 1)
check(empty1, 2**63 - 1)
check(ones2, 2**40, 2**40)
check(full2, 2**33, 2**31)
check(zeros_with_empty_dim, 2**62, 2**62)
check(arange_then_write, 0, 2**62)
check(arange_then_write, -2**63, 2**63 - 1)
""", tmp_path)


def test_results_of_array_expressions_and_shape_functions_are_checked(tmp_path):
    # a 2**31 x 2**31 float64 result only exists through broadcasting
    run_case(SAME_AS_NUMPY + """
from numpy.lib.stride_tricks import as_strided
col = as_strided(np.zeros(1), shape=(2**31, 1), strides=(0, 8))
row = as_strided(np.zeros(1), shape=(1, 2**31), strides=(8, 0))

@njit
def outer_sum(a, b): return a + b
@njit
def outer_product(a, b): return np.multiply(a, b)
@njit
def outer_copy(a, b): return (a + b).copy()

for f in (outer_sum, outer_product, outer_copy):
    check(f, col, row)
""", tmp_path)


def test_allocation_the_system_refuses_is_a_memory_error(tmp_path):
    out = run_case("""
import numpy as np
from ruchey import njit
@njit
def empty1(n): return np.empty(n)
try:
    empty1(2**58)  # 2**61 bytes
except MemoryError:
    print("MemoryError")
""", tmp_path)
    assert "MemoryError" in out


# ---------------------------------------------------------------- ranges past 2**62 values

def test_ranges_spanning_int64_are_exact_until_left(tmp_path):
    run_case("""
from ruchey import njit
@njit
def first_three(a, b):
    c = 0
    for i in range(a, b):
        c += 1
        if c == 3:
            break
    return c, i
@njit
def first_three_down(a, b):
    c = 0
    for i in range(a, b, -1):
        c += 1
        if c == 3:
            break
    return c, i
@njit
def found(a, b, x):
    for i in range(a, b):
        if i == x:
            return i
    return 0
for a, b in [(-2**63, 2**63 - 1), (-2**63, 0), (0, 2**63 - 1), (1 - 2**62, 2**62 + 3), (0, 10)]:
    assert first_three(a, b) == first_three.py_func(a, b), (a, b)
    assert first_three_down(b, a) == first_three_down.py_func(b, a), (a, b)
    assert found(a, b, a + 5) == a + 5
""", tmp_path)


def test_len_of_a_range_past_int64_is_an_overflow_error(tmp_path):
    run_case("""
from ruchey import njit
@njit
def length(a, b, s):
    return len(range(a, b, s))
def outcome(f, *args):
    try:
        return f(*args)
    except OverflowError as e:
        return "OverflowError"
for args in [(-2**63, 2**63 - 1, 1), (-2**63, 0, 1), (0, 2**63 - 1, 1), (2**63 - 1, -2**63, -1),
             (-2**63, 2**63 - 1, 2), (-2**63, 2**63 - 1, 3), (5, 100, 7)]:
    assert outcome(length, *args) == outcome(length.py_func, *args), args
""", tmp_path)


def test_a_loop_that_would_reach_the_end_of_a_huge_range_raises(tmp_path):
    # the count is folded to closed form: the loop "finishes" at once, and
    # must not report 2**62 iterations as if the range ended there (a loop
    # that cannot be left early is assumed to run under 2**62 times)
    out = run_case("""
from ruchey import njit
@njit
def count(n):
    c = 0
    for i in range(n):
        c += 1
        if i < 0:  # never: a loop that can be left, counted to 2**62
            break
    return c
assert count(10) == 10
try:
    print(count(2**63 - 1))
except OverflowError:
    print("OverflowError")
""", tmp_path)
    assert "OverflowError" in out


# ---------------------------------------------------------------- deep code

LONG_SUM = """
import sys, threading
import numpy as np
from ruchey import njit
sys.setrecursionlimit(100000)  # for CPython's own compiler

def long_sum(n, term):
    src = "def f(x, a):\\n    return " + " + ".join(term.replace("I", str(i % 7)) for i in range(n)) + "\\n"
    path = "long_sum_%d.py" % n
    with open(path, "w") as fh:
        fh.write(src)
    ns = {}
    try:
        code = compile(src, path, "exec")
    except RecursionError:  # Python 3.13's own compiler stops at a depth of its own
        print("CPYTHON-REFUSES")
        raise SystemExit(0)
    exec(code, ns)
    return ns["f"]

def outcome(f, *args):
    try:
        return f(*args)
    except RecursionError:
        return "RecursionError"
"""


@pytest.mark.parametrize("where", ["main", "thread"])
def test_a_sum_of_30000_terms_compiles_in_any_thread(tmp_path, where):
    out = run_case(LONG_SUM + f"""
a = np.arange(10.0)
f = long_sum(30000, "a[I] * x")
results = []
def go():
    results.append(njit(f)(1.5, a))
if {where!r} == "main":
    go()
else:
    t = threading.Thread(target=go)
    t.start()
    t.join()
assert results == [f(1.5, a)], results
""", tmp_path)


def test_code_nested_deeper_than_the_stack_is_a_recursion_error(tmp_path):
    # a small thread stack: reading, typing or lowering would run out of it
    out = run_case(LONG_SUM + """
a = np.arange(10.0)
results = []
def go(f):
    results.append(outcome(njit(f), 1.5, a))
threading.stack_size(1 << 21)
for n, term in [(5000, "x"), (12000, "x"), (12000, "min(x, a[I])"), (14000, "(x < I)")]:
    t = threading.Thread(target=go, args=(long_sum(n, term),))
    t.start()
    t.join()
print(results)
assert results[0] == 5000 * 1.5 and results[1:] == ["RecursionError"] * 3, results
""", tmp_path)


# ---------------------------------------------------------------- recursion

RECURSIVE = """
import sys, threading
from ruchey import njit

@njit
def unbounded(n):
    if n < 0:
        return 0
    return unbounded(n + 1) + 1

@njit
def even(n):
    if n == 0:
        return True
    return odd(n - 1)

@njit
def odd(n):
    if n == 0:
        return False
    return even(n - 1)

@njit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

@njit
def calls_unbounded(n):
    s = 0
    for i in range(n):
        s += unbounded(i)
    return s

def raises_recursion_error(f, *args):
    try:
        f(*args)
    except RecursionError:
        return True
    return False
"""


def test_unbounded_recursion_raises_recursion_error(tmp_path):
    run_case(RECURSIVE + """
assert raises_recursion_error(unbounded, 0)
assert raises_recursion_error(unbounded.py_func, 0)
assert raises_recursion_error(calls_unbounded, 3)
assert raises_recursion_error(even, 10**7) and raises_recursion_error(even.py_func, 10**7)
assert raises_recursion_error(odd, 10**7 + 1)
for n in range(12):
    assert even(n) == even.py_func(n) and odd(n) == odd.py_func(n)
    assert fib(n) == fib.py_func(n)
assert raises_recursion_error(unbounded, 0)  # again, after the jump back
assert fib(25) == 75025
""", tmp_path)


@pytest.mark.parametrize("stack", [0, 1 << 18, 1 << 16])
def test_unbounded_recursion_in_a_thread_raises_recursion_error(tmp_path, stack):
    # compiled first, in the main thread: Python 3.14's own tokenizer (reading
    # the source) needs more than a 64 KiB stack
    run_case(RECURSIVE + f"""
assert (unbounded(-1), even(2), fib(2)) == (0, True, 1)
threading.stack_size({stack})
results = []
def go():
    results.append((raises_recursion_error(unbounded, 0), raises_recursion_error(even, 10**7), fib(20)))
t = threading.Thread(target=go)
t.start()
t.join()
assert results == [(True, True, 6765)], results
""", tmp_path)


def test_recursion_within_the_stack_still_runs(tmp_path):
    # deep recursion that CPython's limit refuses but the stack holds
    run_case(RECURSIVE + """
@njit
def depth(n):
    if n == 0:
        return 0
    return depth(n - 1) + 1
assert depth(50000) == 50000
""", tmp_path)


def test_a_recursion_error_releases_the_arrays_of_the_frames_it_unwinds(tmp_path):
    # each level holds an array: tens of thousands of levels, a leak of
    # tens of megabytes per RecursionError where the frames were skipped
    run_case(RECURSIVE + """
import numpy as np

@njit
def holds(n):
    if n < 0:
        return 0.0
    a = np.ones(64)
    return holds(n + 1) + a[0]

@njit
def ping(n, a):  # holds nothing (a is borrowed): it jumps back, past none of pong's frames
    if n < 0:
        return 0.0
    return pong(n + 1, a) + 1.0

@njit
def pong(n, a):
    b = a + 1.0
    return ping(n + 1, b) + b[0]

@njit
def holds_then_fib(n, k):  # a frame holding arrays calls a cycle that jumps back
    if n < 0:
        return 0
    a = np.ones(8, dtype=np.int64)
    return holds_then_fib(n + 1, k) + fib(k) + a[0]

for f, args in ((holds, (0,)), (ping, (0, np.zeros(8))), (holds_then_fib, (0, 3))):
    for _ in range(2):
        assert raises_recursion_error(f, *args)
    before = conftest.rss_bytes()
    for _ in range(5):
        assert raises_recursion_error(f, *args)
    grown = (conftest.rss_bytes() - before) / 5
    assert grown < 2e6, (f.py_func.__name__, grown)
assert holds(-1) == 0.0 and ping(-1, np.zeros(2)) == 0.0 and holds_then_fib(-1, 3) == 0
""", tmp_path)


def test_a_recursion_error_is_caught_by_the_recursive_calls_it_unwinds(tmp_path):
    # as in Python: the innermost call whose try statement sees it catches
    # it, and every finally clause on the way runs
    run_case(RECURSIVE + """
import numpy as np

@njit
def caught(n):
    if n < 0:
        return 0
    try:
        return caught(n + 1) + 1
    except RecursionError:
        return -1

@njit
def counted(n, out):
    if n < 0:
        return 0
    try:
        return counted(n + 1, out) + 1
    finally:
        out[0] += 1

r = caught(0)
assert r > 1000, r
out = np.zeros(1, dtype=np.int64)
assert raises_recursion_error(counted, 0, out)
assert out[0] > 1000, out
""", tmp_path)


# ---------------------------------------------------------------- first calls in threads

def test_first_calls_of_mutually_recursive_functions_from_two_threads(tmp_path):
    # fresh functions each round: both threads start their first call at once
    run_case("""
import threading
from ruchey import njit

def pair():
    @njit
    def even(n):
        if n == 0:
            return True
        return odd(n - 1)
    @njit
    def odd(n):
        if n == 0:
            return False
        return even(n - 1)
    return even, odd

for round in range(30):
    even, odd = pair()
    start = threading.Barrier(2)
    results = {}
    def run(name, f, n):
        start.wait()
        results[name] = f(n)
    threads = [threading.Thread(target=run, args=("even", even, 10)),
               threading.Thread(target=run, args=("odd", odd, 10))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
        assert not t.is_alive(), "deadlock"
    assert results == {"even": True, "odd": False}, (round, results)
    assert even(7) is False and odd(7) is True
""", tmp_path, timeout=600)


def test_recursion_in_prange_loops_and_cpu_device_functions(tmp_path):
    run_case(RECURSIVE + """
import numpy as np
from ruchey import cuda, prange

@cuda.jit(device=True)
def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)

@cuda.jit
def factorials(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = factorial(i)

out = np.zeros(10, dtype=np.int64)
factorials[1, 16](out)
assert list(out) == [factorial.py_func(i) for i in range(10)]

@njit(parallel=True)
def fib_sum(n):
    s = 0
    for i in prange(n):
        s += fib(i % 20)
    return s

@njit(parallel=True)
def unbounded_sum(n):
    s = 0
    for i in prange(n):
        s += unbounded(i)
    return s

assert fib_sum(100) == fib_sum.py_func(100)
assert raises_recursion_error(unbounded_sum, 4)
assert fib_sum(10) == fib_sum.py_func(10)
""", tmp_path)


# ---------------------------------------------------------------- stores typing let through

def test_stores_into_slices_ranges_and_strs_are_python_errors(tmp_path):
    """A list slice assigned (once typed as an item store, which crashed the
    interpreter in lowering), and items of a range or a str assigned (once
    an internal error): Python's result, or its TypeError as a TypingError."""
    out = run_case("""
import ruchey
from ruchey import njit

@njit
def replace(x, y):
    x[1:3] = y
    return x

assert list(replace([1, 2, 3, 4], [9, 9, 9])) == [1, 9, 9, 9, 4]

@njit
def into_range(n):
    r = range(n)
    r[0] = 1
    return r[0]

@njit
def into_str(s):
    s[0] = "x"
    return s

for f, arg in ((into_range, 5), (into_str, "ab")):
    try:
        f(arg)
    except ruchey.TypingError as e:
        print("REFUSED", str(e).splitlines()[0])
""", tmp_path)
    assert "REFUSED 'range' object does not support item assignment" in out
    assert "REFUSED 'str' object does not support item assignment" in out
