"""raise E(...) with values that are not numbers or str, as Numba raises
them: arrays, lists, dicts, sets, complex numbers and tuples holding them
reach Python as the objects compiled code held (an array, a list, a typed
Dict, a set), caught in compiled code too; a value Python cannot hold (a
range, a dict of values of different types) is a TypingError. Every case
against the function's own Python original on generated inputs."""
import re

import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import make_rng, random_floats, random_ints, rss_bytes


def plain(value):
    """A raised argument as Python's own kind of it (a typed Dict as a dict)."""
    if isinstance(value, ruchey.typed.Dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def assert_same_args(expected, got):
    assert type(got) is type(expected)
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        e, g = plain(e), plain(g)
        if isinstance(e, numpy.ndarray):
            assert isinstance(g, numpy.ndarray) and g.dtype == e.dtype
            numpy.testing.assert_array_equal(g, e)
        else:
            assert type(g) is type(e) and g == e, (e, g)


def raised(f, *args):
    with pytest.raises(Exception) as info:
        f(*args)
    return info.value


def assert_raises_same(f, *args):
    expected, got = raised(f.py_func, *args), raised(f, *args)
    assert type(got) is type(expected)
    assert_same_args(expected.args, got.args)


@njit
def raise_array(a):
    raise ValueError(a * 2)


@njit
def raise_argument_array(a):
    raise ValueError("bad", a)


@njit
def raise_list(x):
    raise ValueError([x, x + 1])


@njit
def raise_dict(x):
    raise KeyError({x: 1.5, x + 1: 2.5})


@njit
def raise_str_dict(x):
    raise ValueError({"a": x, "b": 3})


@njit
def raise_set(x):
    raise ValueError({x, 2})


@njit
def raise_complex(x):
    raise ValueError(complex(x, 1.0))


@njit
def raise_mixed(a, n):
    raise IndexError("index", n, a[:n], (n, a.shape))


def test_arrays_made_in_compiled_code_are_raised_as_arrays():
    rng = make_rng(1)
    for n in (0, 1, 5, 17):
        assert_raises_same(raise_array, rng.standard_normal(n))
        assert_raises_same(raise_array, rng.integers(-9, 9, size=(2, n)))


def test_an_argument_array_is_raised_as_its_values():
    rng = make_rng(2)
    a = rng.standard_normal(7)
    assert_raises_same(raise_argument_array, a)
    numpy.testing.assert_array_equal(raised(raise_argument_array, a).args[1], a)


def test_lists_dicts_and_sets_are_raised_as_pythons():
    rng = make_rng(3)
    for x in random_ints(rng, 10, -1000, 1000):
        assert_raises_same(raise_list, x)
        assert_raises_same(raise_dict, x)
        assert_raises_same(raise_str_dict, x)
        assert_raises_same(raise_set, x)
    for x in random_floats(rng, 10, special=False):
        assert_raises_same(raise_list, x)
        assert_raises_same(raise_complex, x)


def test_a_dict_of_str_keys_is_a_typed_dict_as_numbas():
    got = raised(raise_str_dict, 4).args[0]
    assert isinstance(got, ruchey.typed.Dict) and dict(got) == {"a": 4, "b": 3}


def test_values_mixed_with_numbers_and_tuples_keep_their_order():
    rng = make_rng(4)
    a = rng.standard_normal(9)
    for n in (0, 3, 9):
        assert_raises_same(raise_mixed, a, n)


@njit
def callee_raises(x):
    if x > -1000:
        raise ValueError([x] * 3)
    return x


@njit
def caller(x):
    return callee_raises(x) + 1


def test_a_callee_raising_values_reaches_python_through_its_caller():
    for x in random_ints(make_rng(5), 8, -100, 100):
        assert_raises_same(caller, x)


@njit
def caught(n):
    total = 0
    for i in range(n):
        try:
            raise ValueError(numpy.full(10_000, i))
        except ValueError:
            total += i
    return total


def test_caught_raises_of_arrays_do_not_keep_their_memory():
    assert caught(20) == caught.py_func(20)
    before = rss_bytes()
    assert caught(3000) == caught.py_func(3000)  # 80 KB an array: 240 MB if each were kept
    after = rss_bytes()
    if before is not None:
        assert after - before < 50_000_000


@njit
def reraised(x):
    try:
        raise ValueError([x, 2 * x])
    except ValueError:
        raise


def test_a_caught_raise_of_values_raised_again_keeps_them():
    for x in random_ints(make_rng(6), 6, -50, 50):
        assert_raises_same(reraised, x)


def raise_in_prange(a):
    for i in ruchey.prange(a.shape[0]):
        if a[i] < 0:
            raise ValueError(a[i:i + 2])
    return a.sum()


def test_a_raise_of_values_in_a_parallel_loop():
    f = njit(parallel=True)(raise_in_prange)
    a = numpy.arange(1.0, 40.0)
    assert f(a) == raise_in_prange(a)
    a[17] = -1.0
    got = raised(f, a)
    assert type(got) is ValueError and isinstance(got.args[0], numpy.ndarray) and got.args[0][0] == -1.0


def test_values_python_cannot_hold_are_a_typing_error():
    def of_range(n):
        raise ValueError(range(n))

    def of_mixed_dict(n):
        raise ValueError({"a": n, "b": numpy.ones(4)})

    for f in (of_range, of_mixed_dict):
        with pytest.raises(ruchey.TypingError, match="Cannot convert native .* to a Python object"):
            njit(f)(3)


GLOBAL_ERROR = ValueError("made at import", 3)


def raise_str():
    raise "illegal"


def raise_int_class():
    raise int


def raise_number():
    raise 1


def raise_global_instance():
    raise GLOBAL_ERROR


@pytest.mark.parametrize("f, words", [
    (raise_str, "Directly raising a string constant as an exception is not supported"),
    (raise_int_class, "Encountered unsupported constant type used for exception: int is not an exception class"),
    (raise_number, "Encountered unsupported constant type used for exception: 1 is not an exception class"),
    (raise_global_instance, "an exception object made outside the function (a ValueError)"),
])
def test_raising_what_is_no_exception_class_is_a_typing_error_in_numbas_words(f, words):
    with pytest.raises(TypeError if f is not raise_global_instance else ValueError):
        f()
    with pytest.raises(ruchey.TypingError, match=re.escape(words)):
        njit(f)()


def raise_many(a, x):
    raise ValueError(a, x, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                     1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                     1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                     1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -x)


class Many(Exception):
    def __init__(self, *args, tag=None):
        super().__init__(*args, tag)


def raise_many_spread(a, x):
    t = (x,) * 100
    raise Many(a, *t, [x], tag=a[:1])


@pytest.mark.parametrize("x", random_floats(make_rng(31), 3, special=False))
def test_more_than_64_values_with_an_array_among_them_are_all_raised(x):
    a = make_rng(32).standard_normal(4)
    assert len(raised(raise_many, a, x).args) == 66
    assert_raises_same(njit(raise_many), a, x)
    assert len(raised(raise_many_spread, a, x).args) == 103
    assert_raises_same(njit(raise_many_spread), a, x)
