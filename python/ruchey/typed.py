"""Typed containers, as numba.typed: ``List`` and ``Dict`` of numbers and bools.

A ``typed.List`` or ``typed.Dict`` holds a C container that compiled code
works on directly: passed to a compiled function it is not copied, so what
the function changes, Python sees, and the other way round. Compiled code
that builds a list or dict (``[]``, ``{}``, comprehensions) returns one of
these. ``List.empty_list(ruchey.int64)`` and ``Dict.empty(ruchey.int64,
ruchey.float64)`` make typed empty ones; ``List()`` and ``Dict()`` take
their types from the first item given. As Numba's, a ``List`` is a
mutable sequence (compared item by item with lists and typed lists) and a
``Dict`` a mutable mapping (equal to any mapping of the same pairs); neither
is hashable.
"""
from collections.abc import MutableMapping, MutableSequence

from ruchey._core import Dict, List

MutableSequence.register(List)
MutableMapping.register(Dict)

__all__ = ["Dict", "List"]
