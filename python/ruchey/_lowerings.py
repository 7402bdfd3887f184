"""Numba lowerings ruchey runs by reading what they build.

A function registered with ``numba.extending.lower_builtin`` has its
calls built by Python code writing LLVM IR through Numba's internals, which
ruchey does not have. One kind is common in packages: an atomic update of
one array element (``atomic_add(ary, index, value)``, returning the value
it held: PySDM's and numba_progress' copies of katana's numpy_atomic),
whose lowering finds the element with ``make_array``, ``normalize_indices``
and ``basic_indexing`` and updates it with one ``builder.atomic_rmw``. Such
a lowering is run here on stand-ins for the context, the builder and those
helpers, once for an array of signed ints, of unsigned ints and of floats:
where each run does just that, the call is ruchey's own atomic update of
the element (lib/builtins/atomic.c); where a run does anything else, the
call stays refused, as before.
"""
from ruchey import types

# LLVM's atomicrmw operations -> ruchey's atomic operations (cuda.atomic's names)
_OPERATIONS = {"add": "add", "fadd": "add", "sub": "sub", "fsub": "sub", "max": "max", "umax": "max",
               "min": "min", "umin": "min", "and": "and_", "or": "or_", "xor": "xor", "xchg": "exch"}

# the element kinds a lowering is run for, in the order of the mask bits
_ELEMENTS = (types.int64, types.uint64, types.float64)


class _Unreadable(Exception):
    """The lowering did something other than one atomic update of an element."""


class _Value:
    """A stand-in for an LLVM value the lowering is given or makes."""

    def __init__(self, what):
        self.what = what


_ARRAY, _INDEX, _VALUE, _ELEMENT, _OLD = (_Value(w) for w in ("array", "index", "value", "element", "old value"))


class _ArrayType:
    """The array argument's type as the lowering reads it."""

    def __init__(self, dtype):
        self.dtype, self.ndim, self.layout, self.aligned, self.mutable = dtype, 1, "C", True, True


class _Signature:
    def __init__(self, args):
        self.args, self.return_type = args, args[0].dtype


class _Builder:
    """Records the one atomic update; anything else is unreadable."""

    def __init__(self):
        self.operation = None

    def atomic_rmw(self, op, ptr, val, ordering="monotonic"):
        if self.operation is not None or ptr is not _ELEMENT or val is not _VALUE:
            raise _Unreadable(f"atomic_rmw of {getattr(ptr, 'what', ptr)!r}")
        self.operation = op
        return _OLD

    def __getattr__(self, name):
        raise _Unreadable(f"builder.{name}")


class _Context:
    enable_boundscheck = False

    def cast(self, builder, val, fromty, toty):
        return val  # the value converted to the element's type: ruchey's atomic converts it so

    def get_value_as_data(self, builder, ty, val):
        return val

    def __getattr__(self, name):
        raise _Unreadable(f"context.{name}")


def _in_intrinsic(builder):
    """Whether builder is llvmlite's, as an @intrinsic's codegen gets."""
    return type(builder).__module__.startswith("llvmlite.")


def _reading(builder, name):
    if not isinstance(builder, _Builder):
        raise NotImplementedError(f"{name} is not supported by ruchey (registered as numba) outside the "
                                  f"atomic array updates it reads from lowerings")


def make_array(aryty):
    """numba.np.arrayobj's, in a lowering ruchey reads: the array argument;
    in an @intrinsic's codegen (an llvmlite builder), its members."""
    def of(context, builder, value=None, ref=None):
        if _in_intrinsic(builder):
            from ruchey import intrinsics
            return intrinsics.make_array(aryty)(context, builder, value, ref)
        _reading(builder, "numba.np.arrayobj.make_array")
        if value is not _ARRAY:
            raise _Unreadable("make_array of another value")
        return _ARRAY
    return of


def normalize_indices(context, builder, index_types, indices):
    _reading(builder, "numba.np.arrayobj.normalize_indices")
    return index_types, indices


def basic_indexing(context, builder, aryty, ary, index_types, indices, boundscheck=None):
    """The address of the one element integer indices name."""
    _reading(builder, "numba.np.arrayobj.basic_indexing")
    if ary is not _ARRAY or len(indices) != aryty.ndim or any(i is not _INDEX for i in indices) or \
            not all(isinstance(t, types.Integer) for t in index_types):
        raise _Unreadable("basic_indexing of more than one element")
    return _ELEMENT, (), ()


def unpack_tuple(builder, tup, count=None):
    """numba.core.cgutils', in a lowering ruchey reads: the index tuple's
    items; in an @intrinsic's codegen, an LLVM value's."""
    if _in_intrinsic(builder):
        from ruchey import intrinsics
        return intrinsics.unpack_tuple(builder, tup, count)
    _reading(builder, "numba.core.cgutils.unpack_tuple")
    if tup is not _INDEX or count is None:
        raise _Unreadable("unpack_tuple of another value")
    return [_INDEX] * count


def atomic_update(func):
    """(operation, mask of the element kinds it takes) where func's
    lowering is one atomic update of an array element, its operation the
    same for every kind it takes (bit i: _ELEMENTS[i]); None otherwise."""
    impl = getattr(func, "__ruchey_lowering__", None)
    if impl is None:
        return None
    found, mask = None, 0
    for bit, dtype in enumerate(_ELEMENTS):
        builder = _Builder()
        try:
            result = impl(_Context(), builder, _Signature((_ArrayType(dtype), types.int64, dtype)),
                          [_ARRAY, _INDEX, _VALUE])
        except (_Unreadable, TypeError, NotImplementedError, AssertionError):
            continue  # (a TypeError: the lowering refuses this kind, as katana's does floats for max)
        operation = _OPERATIONS.get(builder.operation)
        if result is not _OLD or operation is None or found not in (None, operation):
            return None
        found, mask = operation, mask | 1 << bit
    return (found, mask) if found else None
