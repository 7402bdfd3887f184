"""iter(x) in compiled code: a generator walking x as a for loop walks it
(the frontend calls this in place of the builtin)."""
from .decorators import njit


@njit
def iterate(seq):
    for item in seq:
        yield item
