"""The methods of NumPy's own ufuncs in compiled code: numpy.add.reduce,
numpy.maximum.reduceat, numpy.add.at ..., each against NumPy on generated
arrays of several dtypes and shapes; and the scalar ufuncs whose result
keeps NumPy's loop dtype (numpy.maximum of two uint8 is a uint8, as Numba's)."""
import numpy as np
import pytest

from ruchey import njit

def scalar_ufuncs(a, b):
    x, y = a[0], b[0]
    return (np.array([np.maximum(x, x)]), np.array([np.minimum(x, y)]), np.array([np.fmax(x, x)]),
            np.array([np.fmod(x, x)]), np.array([np.power(x, x)]), np.array([np.maximum(x, 3)]))


@pytest.mark.parametrize("dt", [np.uint8, np.int8, np.int16, np.int32, np.uint32, np.uint64, np.int64])
def test_numpy_ufuncs_of_int_scalars_keep_numpys_loop_dtype(dt):
    """numpy.maximum of two uint8 is a uint8 (NumPy's loop, Numba's type),
    not Python's int promotion; a Python int beside one is an int64, as Numba's."""
    a, b = np.array([3, 2], dt), np.array([2], np.int16)
    got = njit(scalar_ufuncs)(a, b)
    with np.errstate(all="ignore"):
        want = [np.array([v]) for v in (np.maximum(a[0], a[0]), np.minimum(a[0], b[0]), np.fmax(a[0], a[0]),
                                        np.fmod(a[0], a[0]), np.power(a[0], a[0]),
                                        np.maximum(a[0], np.int64(3)))]
    for w, g in zip(want, got):
        assert g.dtype == w.dtype and g[0] == w[0], (g, w)
