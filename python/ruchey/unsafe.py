"""Numba's unsafe intrinsics that compiled code may call
(numba.cpython.unsafe.tuple.tuple_setitem, numba.np.unsafe.ndarray.to_fixed_tuple);
compiled, they are builtins (lib/builtins/tuples.c), here their Python meaning."""
import numpy


def tuple_setitem(tup, idx, val):
    """tup with item idx replaced by val: a new tuple (val converted to the items' type when compiled)."""
    if not 0 <= idx < len(tup):
        raise IndexError("tuple index out of range")
    return tup[:idx] + (val,) + tup[idx + 1:]


def to_fixed_tuple(array, length):
    """Numba's numba.np.unsafe.ndarray.to_fixed_tuple: the first ``length``
    items of a 1-d array as a tuple (in compiled code ``length`` must be
    known when compiling: a constant, or a parameter, compiled for its value)."""
    array = numpy.asarray(array)
    if array.ndim != 1:
        raise TypeError(f"to_fixed_tuple() takes a 1-d array, got {array.ndim} dimensions")
    if len(array) < length:
        raise IndexError(f"to_fixed_tuple(): the array has {len(array)} items, fewer than {length}")
    return tuple(array[:length])
