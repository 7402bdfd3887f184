"""Typed containers, as numba.typed: ``List`` and ``Dict`` of numbers and
bools, and ``Set``.

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

A ``Set`` is a Python set whose items have one type, ``key_type``
(``Set.empty(ruchey.int32)``), so that compiled code knows it while it is
empty: compiled code takes it as it takes any set (its items converted to
``key_type`` for the call, and what the call changed written back).
"""
from collections.abc import MutableMapping, MutableSequence

from ruchey._core import Dict, List

MutableSequence.register(List)
MutableMapping.register(Dict)


class Set(set):
    """numba.typed.Set: a set of items of one type, ``key_type``."""

    __ruchey_namespace__ = True  # compiled code reads Set.empty

    def __init__(self, iterable=(), key_type=None):
        super().__init__(iterable)
        self._key_type = key_type

    @classmethod
    def empty(cls, key_type):
        """An empty set of key_type items (ruchey.int64, unicode_type, ...)."""
        return cls(key_type=key_type)

    @property
    def key_type(self):
        """The items' type; None where given by the items."""
        return self._key_type

    def copy(self):
        return type(self)(self, self._key_type)

    def __repr__(self):
        return f"Set({set(self)!r})" if self else "Set()"


__all__ = ["Dict", "List", "Set"]
