"""Numba's numba.np.extensions and numba.np.random.generator_core: NumPy
functions of Numba's own that compiled code may call; compiled, they are
builtins (lib/builtins/arraymath.c, random.c), here their Python meaning."""
import numpy


def cross2d(a, b):
    """The z of the cross products of the 2-vectors along a's and b's last
    axes (the other axes broadcast): a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0],
    a 0-d array for two vectors."""
    a, b = numpy.asarray(a), numpy.asarray(b)
    if a.shape[-1] != 2 or b.shape[-1] != 2:
        raise ValueError("Incompatible dimensions for 2D cross product\n(dimension must be 2 for both inputs)")
    return numpy.asarray(numpy.multiply(a[..., 0], b[..., 1]) - numpy.multiply(a[..., 1], b[..., 0]))


def next_uint64(bitgen):
    """A bit generator's (a Generator's bit_generator) next 64-bit word, drawn by its own function."""
    c = bitgen.ctypes
    return numpy.uint64(c.next_uint64(c.state))


def next_uint32(bitgen):
    """A bit generator's next 32-bit word, drawn by its own function."""
    c = bitgen.ctypes
    return numpy.uint32(c.next_uint32(c.state))


def next_double(bitgen):
    """A bit generator's next double in [0, 1), drawn by its own function."""
    c = bitgen.ctypes
    return float(c.next_double(c.state))


def next_float(bitgen):
    """A float32 in [0, 1) of the top 24 bits of the next 32-bit word, as Numba's."""
    return numpy.float32(next_uint32(bitgen) >> numpy.uint32(8)) * numpy.float32(1.0 / 16777216.0)
