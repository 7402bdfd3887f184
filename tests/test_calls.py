"""Calls between compiled functions: the callee is lowered into the caller's
module, so LLVM inlines small helpers and the loop around them vectorises;
recursion and mutual recursion are direct calls; errors raised in a callee
reach Python as they would from the callee called alone; generated code
names the objects of the process by symbol, never by address."""
import math
import re

import numpy
import pytest
import ruchey

from conftest import AS_NUMBA, assert_same, float_array, make_rng, numba_deviation, rss_bytes

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="inspects ruchey's LLVM IR")


@ruchey.njit
def sq_diff(a, b):
    d = a - b
    return d * d


@ruchey.njit
def sq_distance(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += sq_diff(x[i], y[i])
    return s


@ruchey.njit
def row(m, i):
    return m[i]


@ruchey.njit
def row_norms(m):
    out = numpy.empty(m.shape[0])
    for i in range(m.shape[0]):
        r = row(m, i)
        out[i] = math.sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2])
    return out


@ruchey.njit
def logistic_step(a, r):
    return r * a * (1.0 - a)


@ruchey.njit
def logistic(a, r, n):
    for _ in range(n):
        a = logistic_step(a, r)
    return a


def test_helper_in_a_reduction_matches_python():
    rng = make_rng(1)
    for n in (0, 1, 7, 100, 1001):
        x, y = float_array(rng, n), float_array(rng, n)
        assert_same(sq_distance, x, y, rel=1e-12)


def test_helper_returning_a_view_matches_python():
    rng = make_rng(2)
    for n in (0, 1, 50):
        m = rng.standard_normal((n, 3))
        assert_same(row_norms, m, rel=1e-15)
        assert_same(row_norms, numpy.asfortranarray(m), rel=1e-15)


@ruchey.njit
def row_sum_of_squares(m):
    s = 0.0
    for i in range(m.shape[0]):
        r = row(m, i)
        s += r[0] * r[0] + r[1] * r[1] + r[2] * r[2]
    return s


@ruchey.njit
def row_sum_of_squares_inline(m):
    s = 0.0
    for i in range(m.shape[0]):
        r = m[i]
        s += r[0] * r[0] + r[1] * r[1] + r[2] * r[2]
    return s


@ruchey.njit
def rows_from(m, start, stop):
    s = 0.0
    for i in range(start, stop):
        r = row(m, i)
        s += r[0] - r[2]
    return s


@ruchey.njit
def plane(a, i):
    return a[i]


@ruchey.njit
def plane_corners(a, stop):
    s = 0.0
    for i in range(stop):
        p = plane(a, i)
        s += p[0, 0] + p[-1, -1]
    return s


def test_helper_returning_a_view_in_a_sum_matches_python():
    rng = make_rng(3)
    for n in (0, 1, 2, 77):
        m = rng.standard_normal((n, 3))
        assert_same(row_sum_of_squares, m)
        assert_same(row_sum_of_squares, m[::-2])
        assert_same(row_sum_of_squares, numpy.asfortranarray(m))
        for start, stop in ((0, n), (-n, 0), (-n, n), (n // 2, n)):
            assert_same(rows_from, m, start, stop)
        a = rng.standard_normal((n, 2, 4))
        for stop in (0, n):
            assert_same(plane_corners, a, stop)


def test_an_index_error_in_a_helper_returning_a_view_reaches_python():
    rng = make_rng(4)
    for n in (0, 1, 5, 64):
        m = rng.standard_normal((n, 3))
        for start, stop in ((0, n + 1), (n - 1, n + 3), (-n - 1, 0), (-n - 3, n)):
            with pytest.raises(IndexError) as py_error:
                rows_from.py_func(m, start, stop)
            with pytest.raises(IndexError) as jit_error:
                rows_from(m, start, stop)
            assert type(jit_error.value) is type(py_error.value)
        with pytest.raises(IndexError):
            plane_corners(rng.standard_normal((n, 2, 4)), n + 1)


@ruchey_only
def test_a_helper_returning_a_view_compiles_to_the_loop_written_inline():
    # the helper's index check and the caller's test of its status are one
    # branch, as m[i] written in the loop is (they were two in the loop)
    m = numpy.ones((8, 3))
    called, inline = llvm_ir(row_sum_of_squares, m), llvm_ir(row_sum_of_squares_inline, m)
    assert not re.search(r"call .*@row_", called), called
    assert called.count("call void @rt_index_error") == inline.count("call void @rt_index_error"), called


def test_scalar_state_stepped_by_a_helper_matches_python():
    for a, n in ((0.1, 0), (0.1, 1), (0.3, 1000), (0.9, 12345)):
        assert_same(logistic, a, 3.5, n)


@ruchey.njit
def sq_distance_inline(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        d = x[i] - y[i]
        s += d * d
    return s


@ruchey.njit
def sq_diffs(x, y, out):
    for i in range(x.shape[0]):
        out[i] = sq_diff(x[i], y[i])
    return out


def llvm_ir(f, *args):
    f(*args)
    return next(iter(f.inspect_llvm().values()))


@ruchey_only
def test_a_small_helper_is_inlined_and_its_loop_planned_as_written_inline():
    # an ordered float sum of cheap terms stays a scalar loop (its adds are
    # in order either way): called or inline, the same loop
    ir = llvm_ir(sq_distance, numpy.ones(8), numpy.ones(8))
    inline = llvm_ir(sq_distance_inline, numpy.ones(8), numpy.ones(8))
    assert not re.search(r"call .*@sq_diff_", ir), ir
    assert bool(re.search(r"<\d+ x double>", ir)) == bool(re.search(r"<\d+ x double>", inline))


@ruchey_only
def test_a_small_helper_in_a_loop_writing_an_array_is_inlined_and_vectorised():
    ir = llvm_ir(sq_diffs, numpy.ones(8), numpy.ones(8), numpy.empty(8))
    assert not re.search(r"call .*@sq_diff_", ir), ir
    assert re.search(r"<\d+ x double>", ir), ir


def helper_that_raises(x):
    if x < 0.0:
        raise ValueError("negative input")
    return math.sqrt(x)


def sum_of_roots(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += checked_root(a[i])
    return s


checked_root = ruchey.njit(helper_that_raises)
sum_roots = ruchey.njit(sum_of_roots)


def test_an_error_raised_in_a_callee_reaches_python():
    a = numpy.array([1.0, 4.0, -1.0, 9.0])
    with pytest.raises(ValueError, match="negative input"):
        sum_roots(a)
    with pytest.raises(ValueError, match="negative input"):
        sum_roots.py_func(a)
    assert sum_roots(numpy.array([1.0, 4.0, 9.0])) == 6.0


def classes_with_one_name():
    """Two exception classes both called Problem, as a module reloaded or a
    factory makes them: each raise must reach Python as its own class."""
    made = []
    for tag in ("first", "second"):
        class Problem(Exception):
            pass
        Problem.tag = tag
        made.append(Problem)
    return made


def test_classes_with_the_same_name_stay_apart():
    first, second = classes_with_one_name()

    def raise_first(x):
        if x > 0:
            raise first("one")
        return x

    def raise_second(x):
        if x > 0:
            raise second("two")
        return x

    f, g = ruchey.njit(raise_first), ruchey.njit(raise_second)
    with pytest.raises(first) as one:
        f(1)
    with pytest.raises(second) as two:
        g(1)
    assert one.value.tag == "first" and two.value.tag == "second"
    assert type(one.value) is first and type(two.value) is second


@ruchey_only
def test_generated_code_holds_no_address_of_the_process():
    sum_roots(numpy.ones(3))
    for ir in sum_roots.inspect_llvm().values():
        assert "inttoptr" not in ir, ir
        assert '@"exc:builtins.ValueError"' in ir


@ruchey.njit
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@ruchey.njit
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def test_mutual_recursion_is_a_direct_call():
    for n in (0, 1, 2, 7, 100, 1001):
        assert is_even(n) == is_even.py_func(n)
        assert is_odd(n) == is_odd.py_func(n)


def make_four_level(jit):
    """A cycle of four whose base case is the first function's last return
    and whose argument turns from int to float on the way round."""
    @jit
    def first(x):
        if x > 0:
            return second(x) * 2
        else:
            return 1

    @jit
    def second(x):
        return third(x) * 3

    @jit
    def third(x):
        return fourth(x) * 4

    @jit
    def fourth(x):
        return first(x / 2 - 1)

    return first, second, third, fourth


def make_halving(jit):
    """Two functions calling each other before either returns a value, one
    with no return of its own but the other's call (entered from either)."""
    @jit
    def halve(x, y):
        if x > 1 and y > 0:
            return x + step(x - y, y)
        return y

    @jit
    def step(y, z):
        return halve(y / 2, z)

    return halve, step


@pytest.mark.parametrize("entry", range(4))
def test_mutual_recursion_typed_from_a_later_base_case(entry):
    compiled, python = make_four_level(ruchey.njit)[entry], make_four_level(lambda f: f)[entry]
    for x in [0, 1, 7, -3, 1000, 2.5, -0.0, float("nan")]:
        expected, got = python(x), compiled(x)
        assert got == expected or (math.isnan(got) and math.isnan(expected)), (x, got, expected)
        assert type(got) is type(expected)


@numba_deviation("Numba refuses this cycle as runaway recursion: its return type comes from the other function")
@pytest.mark.parametrize("entry", range(2))
def test_mutual_recursion_entered_where_no_return_is_plain(entry):
    compiled, python = make_halving(ruchey.njit)[entry], make_halving(lambda f: f)[entry]
    for args in [(13, 0.125), (0, 1.0), (5.5, 2.0), (100, 3), (-1, -1)]:
        expected, got = python(*args), compiled(*args)  # (a float where a path returns one, as Numba's)
        assert got == expected, (args, got, expected)


@ruchey.njit
def halved_sum(x, y):
    if x > 1 and y > 0:
        return x + halved_sum((x - y) / 2, y)
    return y


@ruchey.njit
def halved_sum_base_first(x, y):
    if x <= 1 or y <= 0:
        return y
    return x + halved_sum_base_first((x - y) / 2, y)


@pytest.mark.parametrize("f", [halved_sum, halved_sum_base_first], ids=lambda f: f.__name__)
def test_recursive_call_takes_the_final_return_type(f):
    """The recursive call's result is a float though the first return typed
    is an int: it is not truncated to the int typed first."""
    for args in [(100, 3), (100.0, 3), (7, 2), (0, 5), (1e6, 1), (3.5, 0), (-2, 1)]:
        assert f(*args) == f.py_func(*args), args


@ruchey.njit
def nested_pairs(n):
    if n <= 0:
        return None
    return (n, nested_pairs(n - 1))


def test_recursive_return_type_growing_without_end_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="does not converge"):
        nested_pairs(3)


def test_mutual_recursion_with_no_plain_return_is_a_typing_error():
    @ruchey.njit
    def ping(x):
        return pong(x)

    @ruchey.njit
    def pong(x):
        return ping(x)

    for f in (ping, pong):
        with pytest.raises(ruchey.TypingError, match="runaway recursion"):
            f(1)


@ruchey.njit
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@ruchey.njit
def fib_sum(k):
    s = 0
    for i in range(k):
        s += fib(i)
    return s


def test_a_recursive_callee_called_in_a_loop():
    for k in (0, 1, 5, 20):
        assert_same(fib_sum, k)


@ruchey.njit(fastmath=True)
def fast_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


@ruchey.njit
def strict_caller(a):
    return fast_sum(a) + 1.0


def test_a_callee_keeps_its_own_options():
    rng = make_rng(3)
    a = rng.standard_normal(1000)
    assert strict_caller(a) == pytest.approx(a.sum() + 1.0, rel=1e-12)


@ruchey_only
def test_the_callers_options_do_not_reach_the_callee():
    """A callee compiled with error_model='python' still raises inside a
    caller compiled with error_model='numpy'."""
    @ruchey.njit
    def divide(a, b):
        return a / b

    @ruchey.njit(error_model="numpy")
    def caller(a, b):
        return divide(a, b) + 0.0

    with pytest.raises(ZeroDivisionError):
        caller(1.0, 0.0)


def test_star_args_are_a_tuple_not_a_system_error():
    @ruchey.njit
    def varargs(*a):
        return a[0] + 1

    assert varargs(1) == 2 and varargs(1, 2) == 2  # as Numba: *args is a tuple
    with pytest.raises(ruchey.TypingError, match=None if AS_NUMBA else "tuple index out of range"):
        varargs()


@numba_deviation("numba refuses the wrapper with an UnsupportedBytecodeError")
def test_wrappers_are_a_typing_error_not_a_system_error():
    import functools

    def logged(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)
        return wrapper

    @ruchey.njit
    @logged
    def wrapped(x):
        return x + 1

    with pytest.raises(ruchey.TypingError, match=r"\*\*kwargs.*functools.wraps"):
        wrapped(1)
    # wrapping a compiled function from outside works as in Python
    outside = logged(ruchey.njit(lambda x: x * 2))
    assert outside(21) == 42


# ---------------------------------------------------------------- parameters borrowed from the caller

@ruchey.njit
def _fill(a, value):
    for i in range(a.shape[0]):
        a[i] = value
    return a.shape[0]


@ruchey.njit
def _same(a):
    return a


@ruchey.njit
def _tail_view(a):
    b = a[1:]
    return b


@ruchey.njit
def _rebinds(a):
    a = a * 2.0
    return a


def _borrowing_loop(n):
    out = numpy.zeros(4)
    total = 0.0
    for k in range(n):
        buf = numpy.empty(8)
        _fill(buf, float(k))
        kept = _same(buf)
        tail = _tail_view(kept)
        twice = _rebinds(tail)
        total += twice[0] + buf[7] + kept.shape[0]
        out = tail
    return total + out[0]


borrowing_loop = ruchey.njit(_borrowing_loop)


def test_array_parameters_never_assigned_borrow_the_callers_reference():
    """A helper that only reads or writes its array parameter takes no
    reference of its own; returning it, viewing it or rebinding it still
    counts right (no early free, no leak) for arrays the caller made."""
    for n in (0, 1, 5, 1000):
        assert borrowing_loop(n) == borrowing_loop.py_func(n)
    a = numpy.arange(5.0)
    r = _same(a)
    assert r is not None and numpy.array_equal(r, a)
    v = _tail_view(numpy.arange(4.0))
    del a
    assert numpy.array_equal(v, [1.0, 2.0, 3.0])
    assert numpy.array_equal(_rebinds(numpy.ones(3)), [2.0, 2.0, 2.0])


def test_borrowed_parameters_do_not_leak():
    borrowing_loop(10)
    before = rss_bytes()
    for _ in range(20):
        borrowing_loop(20000)
    after = rss_bytes()
    if before is not None:
        assert after - before < 20 * 2**20


@ruchey.njit
def _first_big_prefix(a, limit):
    out = numpy.empty(0)
    for i in range(a.shape[0]):
        out = a[: i + 1].copy()
        if out.sum() > limit:
            return out
    return out


@ruchey.njit
def _pair_of_new(n):
    x = numpy.arange(n) * 1.0
    y = x[::-1]
    return x, y


def _returns_in_a_loop(n):
    total = 0.0
    for k in range(n):
        p = _first_big_prefix(numpy.arange(6.0), float(k % 9))
        x, y = _pair_of_new(k % 5 + 1)
        total += p[-1] + p.shape[0] + x[0] + y[0]
    return total


returns_in_a_loop = ruchey.njit(_returns_in_a_loop)


def test_returned_local_arrays_move_to_the_caller():
    """A local returned from inside a loop, from a branch, or in a tuple with
    a view of it: the caller gets the arrays alive and nothing leaks."""
    for limit in (-1.0, 3.0, 100.0):
        assert_same(_first_big_prefix, numpy.arange(6.0), limit)
    for n in (1, 4):
        assert_same(_pair_of_new, n)
    assert returns_in_a_loop(500) == returns_in_a_loop.py_func(500)
    before = rss_bytes()
    for _ in range(10):
        returns_in_a_loop(20000)
    if before is not None:
        assert rss_bytes() - before < 20 * 2**20


@ruchey.njit
def insert_at(a, idx, v, shift="right"):
    """stumpy's _shift_insert_at_index: a str default chooses the direction."""
    if shift == "left":
        a[: idx - 1] = a[1:idx]
        a[idx - 1] = v
    else:
        a[idx + 1:] = a[idx:-1]
        a[idx] = v


@ruchey.njit
def inserts(a, where):
    for i in range(len(where)):
        insert_at(a, where[i], -1.0 - i)
        insert_at(a, where[i] + 1, 10.0 + i, "left")
    return a


@ruchey.njit
def labelled(x, tag="t", pair=(1, 2.5), none=None):
    return x, tag, pair, none is None


@ruchey.njit
def spread_labelled(t):
    return labelled(*t)


def test_str_tuple_and_none_defaults_of_a_compiled_callee():
    rng = numpy.random.default_rng(11)
    for n in (4, 9, 30):
        a, where = rng.standard_normal(n), rng.integers(1, n - 2, 3)
        numpy.testing.assert_array_equal(inserts(a.copy(), where), inserts.py_func(a.copy(), where))
    for t in [(1,), (2.5, "u"), (3, "v", (4, 5.5))]:
        assert spread_labelled(t) == spread_labelled.py_func(t)


@ruchey.njit
def weighted(x, store=False, weights=numpy.ones(3, dtype=numpy.float32), taps=numpy.arange(4)):
    """strax's store_downsampled_waveform: NumPy arrays as defaults, read
    (frozen, as a global array is) where the caller leaves them out."""
    if store:
        return (x[:len(weights)] * weights).sum() + taps.sum()
    return x.sum() * len(weights) - taps[-1]


@ruchey.njit
def weighted_calls(x, w):
    return weighted(x), weighted(x, True), weighted(x, True, w), weighted(x, False, w, taps=numpy.arange(2))


def test_array_defaults_of_a_compiled_callee():
    rng = numpy.random.default_rng(12)
    for n, dtype in [(3, numpy.float64), (7, numpy.float32), (12, numpy.int64)]:
        x, w = (rng.standard_normal(n) * 10).astype(dtype), rng.standard_normal(3)
        got, want = weighted_calls(x, w), weighted_calls.py_func(x, w)
        numpy.testing.assert_allclose(got, want, rtol=1e-6)


def test_an_array_default_is_read_only_in_the_caller():
    @ruchey.njit
    def accumulate(x, into=numpy.zeros(3)):
        into[0] += x
        return into[0]

    @ruchey.njit
    def caller(x):
        return accumulate(x)
    # (Numba writes to its constant copy and reads 0.0 back; Python writes the default itself)
    with pytest.raises(ruchey.TypingError, match="read-only"):
        caller(1.0)


@ruchey.njit
def euclidean(px, py, qx, qy):
    return numpy.sqrt((px - qx) ** 2 + (py - qy) ** 2)


@ruchey.njit
def manhattan(px, py, qx, qy):
    return abs(px - qx) + abs(py - qy)


@ruchey.njit
def distance(p, q, dmetric=euclidean):
    """pointpats' _circle: a compiled function as a parameter's default."""
    return dmetric(p[0], p[1], q[0], q[1])


@ruchey.njit
def distances(points):
    out = numpy.empty((len(points) - 1, 2))
    for i in range(len(points) - 1):
        out[i, 0], out[i, 1] = distance(points[i], points[i + 1]), distance(points[i], points[i + 1], manhattan)
    return out


def test_compiled_function_defaults_of_a_compiled_callee():
    rng = numpy.random.default_rng(15)
    for n in (2, 7, 50):
        for dtype in (numpy.float64, numpy.int64):
            points = (rng.standard_normal((n, 2)) * 10).astype(dtype)
            numpy.testing.assert_array_equal(distances(points), distances.py_func(points))
            assert distance(points[0], points[-1]) == distance.py_func(points[0], points[-1])


@ruchey.njit
def shear(x, *, factor=+1, axis=-1):
    """librosa's __shear_dense: keyword-only parameters with defaults."""
    if axis == 0:
        x = x.T
    out = numpy.empty_like(x)
    for i in range(x.shape[1]):
        out[:, i] = numpy.roll(x[:, i], factor * i)
    if axis == 0:
        out = out.T
    return out


@ruchey.njit
def shears(x):
    return shear(x, factor=-1), shear(x, axis=0), shear(x), shear(x, axis=0, factor=2)


@ruchey.njit
def scaled(x, *, k):
    return x * k


def test_keyword_only_parameters():
    x = numpy.random.default_rng(12).standard_normal((3, 5))
    for got, want in zip(shears(x), shears.py_func(x)):
        numpy.testing.assert_array_equal(got, want)
    numpy.testing.assert_array_equal(shear(x, factor=3, axis=0), shear.py_func(x, factor=3, axis=0))
    assert scaled(2.5, k=4) == 10.0
    for bad in (lambda: shear(x, 2), lambda: shear(x, fctor=2), lambda: scaled(2.5)):
        with pytest.raises(TypeError):  # Python's own binding errors
            bad()

    @ruchey.njit
    def missing(x):
        return scaled(x)
    with pytest.raises(ruchey.TypingError, match="missing keyword-only argument 'k'"):
        missing(1.0)


@ruchey.njit
def weighted_sum(first, *rest, weight=2.0, shift):
    total = first
    for v in rest:
        total += v * weight
    return total + shift


@ruchey.njit
def weighted_sums(x):
    return (weighted_sum(x, shift=0), weighted_sum(x, 1.5, -x, shift=x), weighted_sum(x, x, weight=-1.0, shift=1),
            weighted_sum(first=x, shift=2.5))


@numba_deviation("numba's dispatcher does not bind keyword-only parameters after *args")
def test_keyword_only_parameters_after_star_args():
    rng = numpy.random.default_rng(14)
    for x in [0.0, -0.0, math.nan, math.inf, *rng.standard_normal(5)]:
        assert_same(weighted_sums, x)
    for args, kwargs in [((1.0,), {"shift": 0.5}), ((1.0, 2.0, 3.0), {"shift": 1.0}),
                         ((-1.0, 4.0), {"weight": 0.5, "shift": -2.0}), ((), {"first": 3.0, "shift": 0.0})]:
        assert weighted_sum(*args, **kwargs) == weighted_sum.py_func(*args, **kwargs)
    for bad in (lambda: weighted_sum(1.0), lambda: weighted_sum(1.0, shift=1.0, scale=2.0), lambda: weighted_sum()):
        with pytest.raises(TypeError):  # Python's own binding errors
            bad()


@ruchey.njit
def clipped(x, /, *, top, zero_center):
    """scanpy's clip_array: a positional-only parameter, keyword-only ones without defaults."""
    for i in range(x.size):
        if x[i] > top:
            x[i] = top
        elif x[i] < -top and zero_center:
            x[i] = -top
    return x


def test_positional_only_parameters():
    x = numpy.random.default_rng(13).standard_normal(20) * 3
    for flag in (True, False):
        numpy.testing.assert_array_equal(clipped(x.copy(), top=1.5, zero_center=flag),
                                         clipped.py_func(x.copy(), top=1.5, zero_center=flag))

    @ruchey.njit
    def caller(x):
        return clipped(x, zero_center=True, top=0.5)
    numpy.testing.assert_array_equal(caller(x.copy()), caller.py_func(x.copy()))
    for bad in (lambda: clipped(x=x, top=1.0, zero_center=True), lambda: clipped(x, 1.0, True),
                lambda: clipped(x, top=1.0)):
        with pytest.raises(TypeError):  # Python's own binding errors
            bad()

    @ruchey.njit
    def by_keyword(x):
        return clipped(x=x, top=1.0, zero_center=True)
    with pytest.raises(ruchey.TypingError, match="unexpected or repeated keyword argument 'x'"):
        by_keyword(x)


# ---------------------------------------------------------------- many parameters

def _function_of(nparams, body, extra="", **names):
    """A function of parameters a0... (and extra ones), made by exec as
    generated code (and Numba's tests) make them; names: its globals."""
    space = dict(names)
    exec(f"def f({', '.join(f'a{i}' for i in range(nparams))}{extra}):\n{body}", space)
    return space["f"]


def test_functions_of_more_than_64_parameters_are_called_from_python():
    # as Numba compiles them (200 numbers, 100 arrays, keyword-only past 70)
    weighted = ruchey.njit(_function_of(200, "    s = 0.0\n" + "".join(f"    s += a{i} * {i}\n" for i in range(200)) +
                                        "    return s\n"))
    rng = make_rng(64)
    values = list(rng.normal(size=200))
    values[3], values[150] = 7, numpy.float32(2.5)
    assert weighted(*values) == weighted.py_func(*values)
    summed = ruchey.njit(_function_of(100, "    return " + " + ".join(f"a{i}" for i in range(100)) + "\n"))
    arrays = [rng.normal(size=4) for _ in range(100)]
    assert numpy.array_equal(summed(*arrays), summed.py_func(*arrays))
    ends = ruchey.njit(_function_of(70, "    return a0 - a69 * z\n", ", z=1"))
    assert ends(*range(70)) == ends.py_func(*range(70)) and ends(*range(70), z=3) == ends.py_func(*range(70), z=3)
    call_ends = ruchey.njit(_function_of(1, "    return ends(a0, " + ", ".join(str(i) for i in range(1, 70)) + ", z=-2)\n",
                                         ends=ends))
    assert call_ends(5) == ends.py_func(5, *range(1, 70), z=-2)  # from compiled code too
    if not AS_NUMBA:  # ruchey's limit, a clear error
        with pytest.raises(TypeError, match="at most 256 parameters"):
            ruchey.njit(_function_of(300, "    return a0\n"))
