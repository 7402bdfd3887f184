"""try/except/else/finally in compiled code: ruchey's own runtime errors and
raise statements, raised here or in a called compiled function, caught by
class as Python matches them (bases, tuples, bare except); what no clause
catches propagates; finally runs on every way out. Every case against the
function's own Python original on generated inputs."""
import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import assert_same, make_rng, numba_deviation, random_ints, rss_bytes


ONLY_EXCEPTION = "numba matches only Exception and bare except"


class SolverError(ValueError):
    pass


class Diverged(SolverError):
    pass


class Unrelated(Exception):
    pass


@njit
def checked_sqrt(x):
    if x < 0:
        raise Diverged("negative")
    if x > 1e6:
        raise Unrelated("too big")
    return x ** 0.5


def int_pairs(seed, count=60):
    rng = make_rng(seed)
    xs = random_ints(rng, count, -50, 50)
    ys = random_ints(rng, count, -3, 3)  # zero often
    return list(zip(xs, ys))


# ---------------------------------------------------------------- runtime errors by class


def floordiv_or_minus_one(a, b):
    try:
        r = a // b
    except ZeroDivisionError:
        r = a * 0 - 1  # of a's type
    return r


def mod_caught_by_base(a, b):
    try:
        r = a % b
    except ArithmeticError:  # ZeroDivisionError's base
        r = a * 0 + 7
    return r


def caught_by_exception(a, b):
    try:
        r = a / b
    except Exception:
        r = 0.5
    return r


def caught_bare(a, b):
    try:
        r = a / b
    except:  # noqa: E722
        r = -0.5
    return r


def caught_by_tuple(a, b):
    try:
        r = a // b
    except (IndexError, ZeroDivisionError):
        r = a * 0 + 99
    return r


@pytest.mark.parametrize("fn", [
    pytest.param(floordiv_or_minus_one, marks=numba_deviation(ONLY_EXCEPTION)),
    pytest.param(mod_caught_by_base, marks=numba_deviation(ONLY_EXCEPTION)),
    caught_by_exception, caught_bare,
    pytest.param(caught_by_tuple, marks=numba_deviation(ONLY_EXCEPTION))])
def test_runtime_division_error_caught_by_class(fn):
    f = njit(fn)
    for a, b in int_pairs(1):
        assert_same(f, a, b)
        assert_same(f, float(a), float(b))


def first_clause_that_matches(a, b):
    try:
        r = a // b
    except IndexError:
        r = 1
    except LookupError:
        r = 2
    except ArithmeticError:
        r = 3
    except Exception:
        r = 4
    return r


def caught_by_no_class(a, b):
    try:
        try:
            r = a // b
        except ():  # an empty tuple of classes catches nothing
            r = a * 0 + 5
    except ZeroDivisionError:
        r = a * 0 + 6
    return r


@numba_deviation(ONLY_EXCEPTION)
def test_an_empty_tuple_of_classes_catches_nothing():
    f = njit(caught_by_no_class)
    for a, b in int_pairs(3):
        assert_same(f, a, b)


@numba_deviation("numba matches only Exception and bare except")
def test_clauses_tried_in_order():
    f = njit(first_clause_that_matches)
    for a, b in int_pairs(2):
        assert_same(f, a, b)


def index_or_default(a, i):
    try:
        v = a[i]
    except IndexError:
        v = -1.0
    return v


@numba_deviation("numba matches only Exception and bare except")
def test_index_error_with_boundscheck_caught():
    f = njit(boundscheck=True)(index_or_default)
    a = numpy.arange(5.0)
    for i in range(-8, 9):
        assert_same(f, a, i)


@numba_deviation("numba matches only Exception and bare except")
def test_error_no_clause_names_propagates():
    def wrong_clause(a, b):
        try:
            r = a // b
        except IndexError:
            r = 1
        return r
    f = njit(wrong_clause)
    assert_same(f, 7, 2)
    with pytest.raises(ZeroDivisionError):
        f(7, 0)


@numba_deviation("numba matches only Exception and bare except")
def test_assert_and_memory_error_caught():
    def assert_caught(x):
        try:
            assert x > 0, "x must be positive"
            r = 1
        except AssertionError:
            r = 2
        return r

    def allocation_caught(n):
        try:
            a = numpy.empty(n)
            r = a.size
        except MemoryError:
            r = -1
        except ValueError:  # negative dimensions
            r = -2
        return r
    fa, fm = njit(assert_caught), njit(allocation_caught)
    for x in (-2, 0, 3):
        assert_same(fa, x)
    for n in (0, 5, -3):
        assert_same(fm, n)
    assert fm(2 ** 42) == -1  # 32 TiB: cannot be allocated


# ---------------------------------------------------------------- raise statements


def raise_caught(x):
    try:
        if x > 2:
            raise Diverged("too far")
        r = x
    except SolverError:
        r = -x
    return r


def raise_in_callee_caught(x):
    try:
        r = checked_sqrt(x)
    except Diverged:
        r = -1.0
    except Unrelated:
        r = -2.0
    return r


@numba_deviation("numba matches only Exception and bare except")
def test_raise_statement_caught_by_base_class():
    f = njit(raise_caught)
    for x in range(-3, 6):
        assert_same(f, x)


@numba_deviation("numba matches only Exception and bare except")
def test_raise_in_called_compiled_function_caught():
    f = njit(raise_in_callee_caught)
    rng = make_rng(3)
    for x in list(rng.uniform(-10, 10, 40)) + [4.0, 2e6, -1.0]:
        assert_same(f, float(x))


@numba_deviation("numba matches only Exception and bare except")
def test_uncaught_raise_keeps_class_and_message():
    def only_unrelated(x):
        try:
            r = checked_sqrt(x)
        except Unrelated:
            r = 0.0
        return r
    f = njit(only_unrelated)
    with pytest.raises(Diverged, match="negative"):
        f(-1.0)
    assert f(4.0) == 2.0


@numba_deviation("numba matches only Exception and bare except")
def test_bare_raise_in_clause_raises_what_was_caught():
    def reraise(x):
        n = 0
        try:
            checked_sqrt(x)
        except SolverError:
            n += 1
            raise
        return n
    f = njit(reraise)
    with pytest.raises(Diverged, match="negative"):
        f(-1.0)
    assert f(1.0) == 0


@numba_deviation("numba matches only Exception and bare except")
def test_raise_from_inside_clause_replaces_error():
    def replace(x):
        try:
            r = 1 // x
        except ZeroDivisionError:
            raise SolverError("zero")
        return r
    f = njit(replace)
    with pytest.raises(SolverError, match="zero"):
        f(0)
    assert f(1) == 1


# ---------------------------------------------------------------- else and finally


def else_and_finally(a, b):
    log = 0
    try:
        r = a // b
        log += 1
    except ZeroDivisionError:
        r = 0
        log += 10
    else:
        log += 100
    finally:
        log += 1000
    return r * 10000 + log


def finally_on_return(a, b):
    n = 0
    try:
        if a > b:
            return a // b
        n = 1
    finally:
        n += 5
    return n


def finally_overrides_return(a, b):
    try:
        return a // b
    finally:
        if a < 0:
            return -99


@numba_deviation("numba matches only Exception and bare except")
def test_else_and_finally():
    f = njit(else_and_finally)
    for a, b in int_pairs(4):
        assert_same(f, a, b)


@numba_deviation("numba fails on an error leaving a finally clause (RERAISE)")
def test_finally_runs_before_return():
    for fn in (finally_on_return, finally_overrides_return):
        f = njit(fn)
        for a, b in int_pairs(5):
            if b == 0 and fn is finally_on_return and a > b:
                with pytest.raises(ZeroDivisionError):
                    f(a, b)
                continue
            if b == 0 and fn is finally_overrides_return and a >= 0:
                with pytest.raises(ZeroDivisionError):
                    f(a, b)
                continue
            assert_same(f, a, b)


@numba_deviation("numba fails on an error leaving a finally clause (RERAISE)")
def test_finally_runs_then_error_propagates():
    out = numpy.zeros(1)

    def finally_then_raise(a, b, out):
        try:
            r = a // b
        finally:
            out[0] += 1
        return r
    f = njit(finally_then_raise)
    with pytest.raises(ZeroDivisionError):
        f(1, 0, out)
    assert out[0] == 1
    assert f(6, 3, out) == 2 and out[0] == 2


def loop_with_try(n, k):
    total = 0
    for i in range(n):
        try:
            if i == k:
                break
            if i % 3 == 0:
                continue
            total += 100 // (i - 5)
        except ZeroDivisionError:
            total += 1000
        finally:
            total += 1
    return total


def while_with_try(n):
    i = 0
    hits = 0
    while True:
        i += 1
        try:
            if i > n:
                break
            hits += 10 // (i % 4)
        except ZeroDivisionError:
            hits -= 1
            continue
        finally:
            hits += 100
    return hits


@numba_deviation("numba matches only Exception and bare except")
def test_break_and_continue_run_finally():
    f, g = njit(loop_with_try), njit(while_with_try)
    for n in range(0, 12):
        for k in (-1, 2, 7):
            assert_same(f, n, k)
        assert_same(g, n)


def nested(a, b, c):
    r = 0
    try:
        try:
            r = a // b
        except IndexError:
            r = -1
        finally:
            r += 1000
        r += c // a
    except ZeroDivisionError:
        r -= 1
    return r


@numba_deviation("numba matches only Exception and bare except")
def test_nested_try_statements():
    f = njit(nested)
    rng = make_rng(6)
    for a, b, c in zip(random_ints(rng, 40, -2, 3), random_ints(rng, 40, -2, 3), random_ints(rng, 40, -9, 9)):
        assert_same(f, a, b, c)


def unassigned_after_caught(a, b):
    try:
        x = a // b
    except ZeroDivisionError:
        pass
    return x  # noqa: F821 (unbound when caught)


@numba_deviation("numba matches only Exception and bare except")
def test_variable_unassigned_on_caught_path_is_unbound():
    f = njit(unassigned_after_caught)
    assert_same(f, 7, 2)
    with pytest.raises(UnboundLocalError):
        f(7, 0)


# ---------------------------------------------------------------- arrays


def array_work(n, bad):
    a = numpy.ones(n)
    try:
        b = a * 2.0
        c = b + numpy.arange(n) // bad
        s = c.sum()
    except ZeroDivisionError:
        s = -a.sum()
    return s


def returns_array_on_both_paths(n, bad):
    try:
        out = numpy.arange(n) * 2
        out[0] = 10 // bad
    except ZeroDivisionError:
        out = numpy.zeros(n, dtype=numpy.int64)
    return out


@numba_deviation("numba matches only Exception and bare except")
def test_arrays_across_caught_errors():
    f, g = njit(array_work), njit(returns_array_on_both_paths)
    for n in (1, 5, 17):
        for bad in (0, 1, 3):
            assert_same(f, n, bad)
            assert_same(g, n, bad)


@numba_deviation("numba matches only Exception and bare except")
def test_caught_path_releases_arrays():
    """Arrays made before the raise (locals, a statement's temporaries, a
    callee's) are all released: a million caught errors keep memory flat."""
    @njit
    def callee(n):
        t = numpy.ones(n)
        return t.sum() // 0

    @njit
    def work(n, reps):
        zero = n - n
        caught = 0
        for _ in range(reps):
            try:
                a = numpy.ones(n)
                b = (a + 1.0) * (numpy.ones(n) * (1 // zero))
                caught += b.size
            except ZeroDivisionError:
                caught += 1
            try:
                callee(n)
            except ZeroDivisionError:
                caught += 1
        return caught
    assert work(10000, 10) == 20
    before = rss_bytes()
    assert work(10000, 3000) == 6000  # 80 KB per array: 700 MB if they leaked
    after = rss_bytes()
    if before is not None:
        assert after - before < 50_000_000


# ---------------------------------------------------------------- threads and kernels


@numba_deviation("numba matches only Exception and bare except")
def test_try_in_prange_runs_serially_with_a_warning():
    def par(a):
        s = 0
        for i in ruchey.prange(a.shape[0]):
            try:
                s += 12 // int(a[i])
            except ZeroDivisionError:
                s += 100
        return s
    f = njit(parallel=True)(par)
    a = numpy.array([0, 1, 2, 0, 5])
    with pytest.warns(Warning, match="try statement"):
        assert f(a) == par(a)


def prange_in_try(a, at):
    out = a.copy()
    s = 0
    try:
        for i in ruchey.prange(a.size):
            if i == at:
                raise ValueError
            out[i] = a[i] + i
            s += a[i]
    except Exception:
        out[i] = -1  # the iteration that raised, as after a serial loop
        s = -s
    return out, s


def test_prange_in_a_try_body_runs_serially_with_a_warning():
    f = njit(parallel=True)(prange_in_try)
    rng = make_rng(505)
    with pytest.warns(Warning, match="try statement around it"):
        assert_same(f, numpy.arange(10), 6)
    for n in (0, 1, 10, 1000):
        a = numpy.array(random_ints(rng, n, -100, 100), dtype=numpy.int64)
        for at in (-1, 0, n // 2, n - 1):
            assert_same(f, a, at)


@numba_deviation("numba matches only Exception and bare except")
def test_raise_caught_in_nogil_and_parallel_functions():
    def outer(x):
        try:
            r = checked_sqrt(x)
        except SolverError:
            r = -3.0
        return r
    for opts in ({"nogil": True}, {"parallel": True}):
        f = njit(**opts)(outer)
        for x in (-1.0, 4.0):
            assert_same(f, x)


@numba_deviation("numba refuses try inside a CUDA kernel otherwise")
def test_try_in_cuda_kernel_refused():
    from ruchey import cuda

    @cuda.jit
    def kernel(a):
        i = cuda.grid(1)
        try:
            a[i] = 1.0 / a[i]
        except ZeroDivisionError:
            a[i] = 0.0
    with pytest.raises(ruchey.TypingError, match="try/except is not supported in CUDA kernels"):
        kernel[1, 4](numpy.ones(4))


# ---------------------------------------------------------------- refused clearly


@numba_deviation("numba raises UnsupportedError, not TypingError")
def test_except_as_a_name_used_is_refused():
    def bound(x):
        try:
            r = 1 // x
        except ZeroDivisionError as e:
            r = len(e.args)
        return r

    def read_after(x):
        e = x
        try:
            r = 1 // x
        except ZeroDivisionError as e:  # noqa: F841
            r = 0
        return r + e
    for f in (bound, read_after):
        with pytest.raises(ruchey.TypingError, match="except ... as e"):
            njit(f)(1)


@njit
def bound_unused(x, y):
    try:
        r = x // y
    except ZeroDivisionError as e:  # noqa: F841
        r = -1
    except (ValueError, KeyError) as e:  # noqa: F841
        r = -2
    return r


@numba_deviation("numba refuses 'except ... as e' even where e is not used")
@pytest.mark.parametrize("x", random_ints(make_rng(41), 4, -100, 100))
def test_except_as_a_name_used_nowhere_catches_as_without_it(x):
    for y in (0, 3, -7, x):
        assert bound_unused(x, y) == bound_unused.py_func(x, y)


@numba_deviation("numba raises another error")
def test_except_names_no_class_refused():
    not_a_class = 3

    def bad(x):
        try:
            r = 1 // x
        except not_a_class:
            r = 0
        return r
    with pytest.raises(ruchey.TypingError, match="exception classes known at compile time"):
        njit(bad)(1)


@njit
def bare_raise_outside_clause(x):
    x = x + 1
    if x > 2:
        raise
    return x


def test_bare_raise_outside_clause_is_a_runtime_error_when_it_runs():
    # as Python's and Numba's: no exception is being handled there
    assert bare_raise_outside_clause(1) == bare_raise_outside_clause.py_func(1) == 2
    for f in (bare_raise_outside_clause, bare_raise_outside_clause.py_func):
        with pytest.raises(RuntimeError, match="No active exception to reraise"):
            f(5)



@njit
def reraise_when_positive(x):
    if x > 0:
        raise
    return x * 2


def call_in_handler(f, error, x):
    """f(x) called while Python handles error: what comes out of it."""
    try:
        raise error
    except Exception:
        try:
            return ("returned", f(x))
        except BaseException as e:
            return ("raised", e)


def test_bare_raise_outside_clause_raises_what_the_python_caller_handles():
    # as Python's and Numba's: the very exception the caller's except clause
    # holds, whatever its class; none outside a handler is a RuntimeError
    rng = make_rng(17)
    errors = [ValueError("bad", 3), KeyError((1, 2)), ZeroDivisionError(), Diverged("x"), Unrelated()]
    for x in random_ints(rng, 10, lo=-50, hi=50):
        for error in errors:
            got = call_in_handler(reraise_when_positive, error, x)
            want = call_in_handler(reraise_when_positive.py_func, error, x)
            assert got[0] == want[0] and (got[1] is error if x > 0 else got[1] == want[1] == 2 * x), (x, error)
    try:
        {}["missing"]
    except KeyError as caught:
        try:
            reraise_when_positive(1)
        except KeyError as e:
            assert e is caught and e.__traceback__ is not None
    for f in (reraise_when_positive, reraise_when_positive.py_func):
        with pytest.raises(RuntimeError, match="No active exception to reraise"):
            f(1)


def test_bare_raise_reraises_the_innermost_handled_exception():
    def nested(f):
        try:
            raise KeyError("outer")
        except KeyError:
            try:
                raise ValueError("inner")
            except ValueError:
                f(1)
    for f in (reraise_when_positive, reraise_when_positive.py_func):
        with pytest.raises(ValueError, match="inner"):
            nested(f)


# ---------------------------------------------------------------- messages made at run time

@njit
def check_range(x, lo, hi):
    if x < lo:
        raise ValueError("value " + str(x) + " below " + str(lo))
    if x > hi:
        raise SolverError(f"value {x} above {hi}: ünïcode ✓")
    return x


@njit
def caught_dynamic(x):
    try:
        check_range(x, 0, 10)
    except ValueError:
        return -1
    return x


@njit
def long_message(n):
    raise ValueError("é" * n)


@pytest.mark.parametrize("seed", range(4))
def test_messages_made_at_run_time_are_pythons(seed):
    rng = make_rng(seed)
    for x in rng.integers(-20, 30, size=12):
        x = int(x)
        try:
            want = ("value", check_range.py_func(x, 0, 10))
        except ValueError as e:
            want = (type(e), str(e))
        try:
            got = ("value", check_range(x, 0, 10))
        except ValueError as e:
            got = (type(e), str(e))
        assert got == want
        assert caught_dynamic(x) == caught_dynamic.py_func(x)


def test_a_long_message_is_cut_at_a_characters_end():
    with pytest.raises(ValueError) as err:
        long_message(3000)
    text = str(err.value)
    assert 400 < len(text) < 3000 and set(text) == {"é"}
    with pytest.raises(ValueError, match="^$"):
        long_message(0)


@njit
def number_message(x):
    raise ValueError(x)


@njit
def several_arguments(x, y, s):
    if x > 0:
        raise KeyError("bad", x, y, s, None, x > 3, numpy.int32(x), numpy.float32(0.5))
    raise SolverError(s + "!", y, numpy.uint64(-x))


@njit
def several_caught(x):
    try:
        raise Diverged("bad", x)
    except SolverError:
        return -1
    return 0


def raised_args(f, *args):
    try:
        f(*args)
    except Exception as e:
        return type(e), e.args, str(e)
    return None


def python_args(value):
    """NumPy scalars arrive as the Python numbers compiled code holds (as Numba gives them)."""
    return value.item() if isinstance(value, numpy.generic) else value


@pytest.mark.parametrize("seed", range(4))
def test_an_exception_keeps_all_its_arguments(seed):
    rng = make_rng(seed)
    words = ["", "x", "héllo;:", "s5:", "a" * 3000, "\x02"]
    xs = random_ints(rng, 10, -8, 8)
    for x, y in zip(xs, rng.standard_normal(len(xs)).tolist()):
        for s in words:
            want_type, want_args, _ = raised_args(several_arguments.py_func, int(x), y, s)
            got_type, got_args, got_text = raised_args(several_arguments, int(x), y, s)
            assert got_type is want_type
            assert got_args == tuple(python_args(v) for v in want_args)
            assert got_text == str(tuple(python_args(v) for v in want_args))
        assert several_caught(int(x)) == several_caught.py_func(int(x))


@pytest.mark.parametrize("value", [3, -1, 2.5, float("inf"), True, 5e-324])
def test_an_exception_of_one_number_is_pythons(value):
    assert raised_args(number_message, value) == raised_args(number_message.py_func, value)


@njit
def marked_message(s):
    if len(s) > 1:
        raise ValueError("\x02s1:x")
    raise ValueError(s)


def test_a_message_that_looks_like_arguments_is_one_message():
    for s in ["\x02", "\x02s1:x;", "ab"]:
        assert raised_args(marked_message, s) == raised_args(marked_message.py_func, s)


def test_a_nan_argument_stays_nan():
    kind, args, text = raised_args(number_message, float("nan"))
    assert kind is ValueError and numpy.isnan(args[0]) and text == "nan"


@njit
def array_message(a):
    raise ValueError("bad", a)


def test_an_array_argument_reaches_python_as_the_array():
    a = numpy.arange(3.0)
    with pytest.raises(ValueError) as info:
        array_message(a)
    assert info.value.args[0] == "bad" and numpy.array_equal(info.value.args[1], a)


@njit
def range_message(n):
    raise ValueError("bad", range(n))


def test_an_argument_python_cannot_hold_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="Cannot convert native range"):
        range_message(2)


@njit
def keyword_message(x):
    raise ValueError(x, extra=1)


def test_an_exception_class_refuses_keywords_as_python():
    with pytest.raises(TypeError) as expected:
        keyword_message.py_func(1)
    with pytest.raises(TypeError) as got:
        keyword_message(1)
    assert str(got.value) == str(expected.value)


@njit(parallel=True)
def raise_in_prange(n, at):
    s = 0
    for i in ruchey.prange(n):
        if i == at:
            raise ValueError("at", i, 0.5)
        s += i
    return s


def test_a_prange_loop_raises_with_its_arguments():
    assert raised_args(raise_in_prange, 1000, 77)[:2] == (ValueError, ("at", 77, 0.5))
    assert raise_in_prange(100, -1) == raise_in_prange.py_func(100, -1)
