"""Numba's unsafe intrinsics that compiled code may call
(numba.cpython.unsafe.tuple.tuple_setitem); compiled, they are builtins
(lib/builtins/tuples.c), here their Python meaning."""


def tuple_setitem(tup, idx, val):
    """tup with item idx replaced by val: a new tuple (val converted to the items' type when compiled)."""
    if not 0 <= idx < len(tup):
        raise IndexError("tuple index out of range")
    return tup[:idx] + (val,) + tup[idx + 1:]
