"""iter(x), numpy.ndindex(shape) and numpy.ndenumerate(a) as values in
compiled code: generators walking them as a for loop walks them; all(x)
and any(x) of any iterable (the frontend calls these in place of the
builtins)."""
import numpy as np

from .decorators import njit


@njit
def iterate(seq):
    for item in seq:
        yield item


@njit
def all_items(seq):
    """all(seq): False at the first false item, as Python's."""
    for item in seq:
        if not item:
            return False
    return True


@njit
def any_item(seq):
    """any(seq): True at the first true item, as Python's."""
    for item in seq:
        if item:
            return True
    return False


@njit
def ndindex(shape):
    """numpy.ndindex(shape) as a value: it = numpy.ndindex(a.shape); next(it)."""
    for index in np.ndindex(shape):
        yield index


@njit
def ndenumerate(a):
    """numpy.ndenumerate(a) as a value."""
    for item in np.ndenumerate(a):
        yield item
