"""numpy.hanning, hamming, blackman and bartlett in compiled code: NumPy's
formulas in their order, so the values are NumPy's up to the cos each
uses (NumPy's and the loop's vectorised ones, libm's): within 2 ulp of
1.0, the windows' largest value; bartlett's, without cos, exactly."""
import math

import numpy as np
import pytest

import ruchey


@ruchey.njit
def windows(m):
    return np.hanning(m), np.hamming(m), np.blackman(m), np.bartlett(m)


def with_libm(m):
    """NumPy's expressions, element by element with math.cos."""
    if m < 1:
        return [np.zeros(0)] * 4
    if m == 1:
        return [np.ones(1)] * 4
    ns = [1.0 - m + 2 * k for k in range(m)]
    hann = [0.5 + 0.5 * math.cos(math.pi * n / (m - 1)) for n in ns]
    hamm = [0.54 + 0.46 * math.cos(math.pi * n / (m - 1)) for n in ns]
    black = [0.42 + 0.5 * math.cos(math.pi * n / (m - 1)) + 0.08 * math.cos(2.0 * math.pi * n / (m - 1)) for n in ns]
    bart = [1 + n / (m - 1) if n <= 0 else 1 - n / (m - 1) for n in ns]
    return [np.array(v) for v in (hann, hamm, black, bart)]


@pytest.mark.parametrize("m", [-3, 0, 1, 2, 3, 8, 51, 256])
def test_windows_match_numpy(m):
    got = windows(m)
    for g, want, libm in zip(got, windows.py_func(m), with_libm(m)):
        assert g.dtype == np.float64 and g.shape == want.shape
        np.testing.assert_allclose(g, libm, rtol=0, atol=4.5e-16)
        np.testing.assert_allclose(g, want, rtol=0, atol=4.5e-16)
    np.testing.assert_array_equal(got[3], windows.py_func(m)[3])


def test_m_must_be_an_int():
    with pytest.raises(ruchey.TypingError, match="takes an int M"):
        windows(5.0)
