"""`yield from` as a statement in a compiled generator: each item of the
iterable yielded in turn (a range, a list, an array, another compiled
generator), as Python's. Its value as an expression stays a TypingError."""
import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import make_rng, numba_deviation

pytestmark = numba_deviation("numba refuses yield from")


@njit
def inner(n):
    for i in range(n):
        yield i * i


@njit
def delegating(n, a):
    yield from range(n)
    yield -1
    yield from inner(n)
    yield from a
    for k in range(2):
        yield from [k, k + 10]


@pytest.mark.parametrize("n", [0, 1, 3, 7])
def test_yield_from_yields_each_item(n):
    a = make_rng(n).integers(-100, 100, size=n)
    assert list(delegating(n, a)) == list(delegating.py_func(n, a))


def test_yield_from_value_is_a_typing_error():
    @njit
    def f(n):
        x = yield from range(n)
        yield x
    with pytest.raises(ruchey.TypingError):
        list(f(3))
