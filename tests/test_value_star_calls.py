"""f(x, *args) where f is a compiled function passed in as a value (as
quantecon's optimisers call their objective): the tuple's items become the
arguments, one each. Against the Python original on generated inputs;
bad uses are clear TypingErrors."""
import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import make_rng


@njit
def affine(x, a, b):
    return x * a + b


@njit
def bump(x):
    return -(x - 0.3) ** 2 + numpy.sin(3 * x)


@njit
def weighted(x, w):
    return (x * w).sum()


@njit
def mixed(x, n, flag):
    return x * n if flag else -x


@njit
def call(f, x, args=()):
    return f(x, *args)


@njit
def call_twice(f, x, args):
    return f(x, *args) + f(*args[:0], x, *args)


@njit
def star_only(f, t):
    return f(*t)


@njit
def golden_max(f, a, b, args=(), n=60):
    g = 0.5 * (numpy.sqrt(5.0) - 1.0)
    for _ in range(n):
        c = b - g * (b - a)
        d = a + g * (b - a)
        if f(c, *args) > f(d, *args):
            b = d
        else:
            a = c
    return 0.5 * (a + b)


@pytest.mark.parametrize("seed", range(6))
def test_tuple_of_numbers(seed):
    rng = make_rng(seed)
    x, a, b = (float(v) for v in rng.uniform(-10, 10, 3))
    assert call(affine, x, (a, b)) == call.py_func(affine.py_func, x, (a, b))
    n = int(rng.integers(-5, 5))
    assert call(affine, x, (n, b)) == call.py_func(affine.py_func, x, (n, b))
    assert call_twice(affine, x, (a, b)) == call_twice.py_func(affine.py_func, x, (a, b))


@pytest.mark.parametrize("seed", range(4))
def test_empty_tuple_and_default(seed):
    x = float(make_rng(seed).uniform(-3, 3))
    assert call(bump, x) == call.py_func(bump.py_func, x)
    assert call(bump, x, ()) == call.py_func(bump.py_func, x, ())


@pytest.mark.parametrize("seed", range(4))
def test_array_and_bool_in_the_tuple(seed):
    rng = make_rng(seed)
    x = rng.standard_normal(17)
    w = rng.standard_normal(17)
    assert call(weighted, x, (w,)) == pytest.approx(call.py_func(weighted.py_func, x, (w,)), rel=1e-12)
    for flag in (True, False):
        assert call(mixed, 2.5, (3, flag)) == call.py_func(mixed.py_func, 2.5, (3, flag))


@pytest.mark.parametrize("seed", range(4))
def test_optimiser_with_extra_arguments(seed):
    a, b = (float(v) for v in make_rng(seed).uniform(0.5, 2.0, 2))
    got = golden_max(affine, -1.0, 1.0, (a, b))
    assert got == pytest.approx(golden_max.py_func(affine.py_func, -1.0, 1.0, (a, b)), abs=1e-9)
    assert golden_max(bump, -1.0, 1.0) == pytest.approx(golden_max.py_func(bump.py_func, -1.0, 1.0), abs=1e-9)


def test_not_a_tuple_is_a_typing_error():
    with pytest.raises(ruchey.TypingError):
        call(affine, 1.0, numpy.ones(2))
    with pytest.raises(ruchey.TypingError, match="must be a tuple"):
        star_only(affine, 2.0)


def test_wrong_count_is_a_typing_error():
    with pytest.raises(ruchey.TypingError):
        call(affine, 1.0, (1.0,))
    with pytest.raises(ruchey.TypingError):
        call(bump, 1.0, (1.0, 2.0))


def test_not_a_function_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="not a function"):
        call(3.0, 1.0, (1.0,))


# ---------------------------------------------------------------- callbacks with *args and defaults
# (a simulator calling its user's callback as cb(ctx, *cb_args), vectorbt's
# adjust_sl_func_nb(ctx, *args) whose callee takes *args itself)

@njit
def takes_rest(x, *rest):
    return x * 2.0 + len(rest)


@njit
def with_default(x, k=2.0, *rest):
    return x * k + len(rest)


@njit
def pair_back(c, *rest):
    return c[0] * 2.0, c[1] > 0


@njit
def call_with_context(f, args):
    ctx = (3.0, -1)
    a, b = f(ctx, *args)
    return a, b


@pytest.mark.parametrize("seed", range(4))
def test_callee_taking_star_args(seed):
    rng = make_rng(seed)
    x = float(rng.uniform(-5, 5))
    for args in [(), (1.0,), (1.0, 2, True)]:
        assert call(takes_rest, x, args) == call.py_func(takes_rest.py_func, x, args)


@pytest.mark.parametrize("seed", range(4))
def test_callee_defaults_fill_what_the_tuple_leaves_out(seed):
    x, k = (float(v) for v in make_rng(seed).uniform(-5, 5, 2))
    for args in [(), (k,), (k, 1, 2)]:
        assert call(with_default, x, args) == call.py_func(with_default.py_func, x, args)


def test_callee_returning_a_tuple_through_star_args():
    for args in [(), (1,), (1.5, 2.5)]:
        assert call_with_context(pair_back, args) == call_with_context.py_func(pair_back.py_func, args)


def test_too_few_for_a_callee_with_defaults_is_a_typing_error():
    with pytest.raises(ruchey.TypingError):
        star_only(with_default, ())


@njit
def keyword_only(x, *, k=1):
    return x * k


@njit
def array_default(x, k=numpy.arange(1.0, 3.0)):
    return x * k.sum()


def test_a_callee_with_keyword_only_parameters_is_a_typing_error():
    with pytest.raises(ruchey.TypingError):
        call(keyword_only, 1.0, ())


def test_a_callee_with_an_array_default_reads_it():
    # an array default is frozen, as a global array is (compiled code may not write it)
    for x in (1.0, -2.5):
        assert call(array_default, x, ()) == call.py_func(array_default.py_func, x, ()) == 3 * x
