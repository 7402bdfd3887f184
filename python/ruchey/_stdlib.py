"""Functions of Python's standard library that compiled code calls,
written as the Python they compute and compiled for each caller's
argument types (as extending.overload's implementations are).

functools.reduce(function, iterable[, initial]): an initial of None is
taken as no initial, as Numba takes it (CPython would start from None,
which no compiled function adds to).
"""
import functools

from ruchey import extending, types


def _reduce_from(function, iterable, initial=None):
    value = initial
    for item in iterable:
        value = function(value, item)
    return value


def _reduce_first(function, iterable, initial=None):
    items = iter(iterable)
    try:
        value = next(items)
    except StopIteration:
        raise TypeError("reduce() of empty iterable with no initial value")
    for item in items:
        value = function(value, item)
    return value


@extending.overload(functools.reduce)
def _reduce(function, iterable, initial=None):
    return _reduce_first if initial is None or isinstance(initial, types.NoneType) else _reduce_from
