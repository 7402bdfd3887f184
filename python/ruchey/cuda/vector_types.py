"""numba-cuda's vector types: cuda.float32x4, cuda.int16x2, ... (every
int8 .. uint64, float32 and float64 with 1 to 4 elements) and their C
names (cuda.float4, cuda.double2, cuda.short2, cuda.uint3, ...).

    @cuda.jit
    def k(out):
        v = cuda.float32x4(1.0, 2.0, 3.0, 4.0)
        w = cuda.float32x3(v.w, cuda.float32x2(v.x, v.y))  # parts of smaller vectors
        out[0] = w.x + w.z

A vector is a named tuple of its base type's numbers whose fields are x,
y, z and w (the first n of them): read-only, passed to and returned by
device functions as any tuple. The constructor takes numbers and vectors
whose elements together are n, each converted to the base type, as
numba-cuda's; called from Python it makes the same named tuple.
"""
import collections

import numpy

from ruchey import TypingError, types
from ruchey.extending import overload

BASES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")
ATTRIBUTES = ("x", "y", "z", "w")
# C's names of the base types (numba-cuda's aliases: float4 is float32x4), by NumPy's sizes of C's types
C_NAMES = {"char": numpy.byte, "short": numpy.short, "int": numpy.intc, "long": numpy.int_,
           "longlong": numpy.longlong, "uchar": numpy.ubyte, "ushort": numpy.ushort, "uint": numpy.uintc,
           "ulong": numpy.uint, "ulonglong": numpy.ulonglong, "float": numpy.single, "double": numpy.double}

_CLASSES = {}  # each vector's named tuple class -> its number of elements


def _elements_of(arg_types):
    """How many elements each argument type gives (a vector its own, a
    number one), or None where one is neither."""
    counts = []
    for t in arg_types:
        cls = getattr(t, "cls", None)
        if cls in _CLASSES:
            counts.append(_CLASSES[cls])
        elif isinstance(t, (types.Integer, types.Float)) or t == types.boolean:
            counts.append(1)
        else:
            return None
    return counts


def _constructor(name, base, n):
    """The vector type's constructor: a function of up to four numbers and
    vectors, in Python and (an overload made for the argument types given)
    in compiled code."""
    cls = collections.namedtuple(name, ATTRIBUTES[:n])
    _CLASSES[cls] = n
    scalar = numpy.dtype(base).type

    def make(a0, a1=None, a2=None, a3=None):
        args = [a for a in (a0, a1, a2, a3) if a is not None]
        parts = [p for a in args for p in (a if type(a) in _CLASSES else (a,))]
        if len(parts) != n:
            raise TypeError(f"{name}() takes {n} elements (numbers and vectors), got {len(parts)}")
        return cls(*(scalar(p) for p in parts))

    @overload(make)
    def typed_make(a0, a1=None, a2=None, a3=None):
        given = [t for t in (a0, a1, a2, a3) if t is not None and not isinstance(t, types.NoneType)]
        counts = _elements_of(given)
        if counts is None or sum(counts) != n:
            raise TypingError(f"{name}() takes numbers and vectors of {n} elements in all, got "
                              f"{', '.join(map(str, given))}")
        parts = [f"a{i}[{j}]" if _CLASSES.get(getattr(t, "cls", None)) else f"a{i}"
                 for i, (t, count) in enumerate(zip(given, counts)) for j in range(count)]
        params = ", ".join(f"a{i}" if i < len(given) else f"a{i}=None" for i in range(4))
        source = f"def {name}({params}):\n    return cls({', '.join(f'scalar({p})' for p in parts)})\n"
        namespace = {"cls": cls, "scalar": getattr(types, base)}
        exec(source, namespace)
        return namespace[name]

    make.__name__ = make.__qualname__ = name
    make.__doc__ = f"cuda.{name}: a vector of {n} {base} numbers (fields {', '.join(ATTRIBUTES[:n])})."
    make.vector_class = cls
    # what numba-cuda's vector_types table holds for each (its VectorType): code that walks
    # the table builds kernels from these
    make.name, make.base_type, make.num_elements, make.user_facing_object = name, getattr(types, base), n, make
    make.aliases = []  # its C names (float4), filled in below
    return make


vector_types = {f"{base}x{n}": _constructor(f"{base}x{n}", base, n) for base in BASES for n in range(1, 5)}
aliases = {f"{c_name}{n}": vector_types[f"{numpy.dtype(c_type).name}x{n}"]
           for c_name, c_type in C_NAMES.items() for n in range(1, 5)}
for alias, make in aliases.items():
    make.aliases.append(alias)
