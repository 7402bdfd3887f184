"""Numba's numba.np.extensions: NumPy functions of Numba's own that
compiled code may call; compiled, they are builtins (lib/builtins/
arraymath.c), here their Python meaning."""
import numpy


def cross2d(a, b):
    """The z of the cross products of the 2-vectors along a's and b's last
    axes (the other axes broadcast): a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0],
    a 0-d array for two vectors."""
    a, b = numpy.asarray(a), numpy.asarray(b)
    if a.shape[-1] != 2 or b.shape[-1] != 2:
        raise ValueError("Incompatible dimensions for 2D cross product\n(dimension must be 2 for both inputs)")
    return numpy.asarray(numpy.multiply(a[..., 0], b[..., 1]) - numpy.multiply(a[..., 1], b[..., 0]))
