"""The dtype of a float16 or float32 array and a scalar under + - * / **
(either side), for every scalar type, as NumPy 2 promotes them (NEP 50):
a NumPy scalar of int8...uint64 (but int64), float16, float32 or complex64
is strong (the result is the two dtypes' promotion: float16 * int32 is
float64); a Python bool, int, float or complex is weak (the array's kind
and width win where its kind holds the scalar's: float16 * 3 is float16).

A NumPy int64, float64 or complex128 scalar is typed as Python's int,
float and complex are, as Numba types them (one type each), so compiled
code promotes it weakly: float32 * numpy.float64(2) is float32 there
(NumPy 1's and Numba's answer) where NumPy 2 gives float64. NumPy 1
promotes the strong scalars by value (float16 * int32(2) is float16);
ruchey keeps NumPy 2's promotion there too, and these tests check it
under NumPy 1 by numpy.promote_types."""
import operator

import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, NUMPY1, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own promotion of NumPy scalars")

OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "**": operator.pow}
STRONG = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.uint64, np.float16, np.float32,
          np.complex64]
# typed as the Python scalar of their kind: promoted as it is
AS_PYTHON = {np.bool_: bool, np.int64: int, np.float64: float, np.complex128: complex}
WEAK = [bool, int, float, complex]


def compiled(symbol, scalar_first):
    op = OPS[symbol]

    def scalar_op_array(a, s):
        return op(s, a)

    def array_op_scalar(a, s):
        return op(a, s)
    return ruchey.njit(scalar_op_array if scalar_first else array_op_scalar)


def expected_dtype(a, s, op, scalar_first):
    """NumPy 2's dtype: promote_types of a strong scalar's; NumPy's own of a weak one."""
    if type(s) in AS_PYTHON:
        s = AS_PYTHON[type(s)](s)
    if type(s) in WEAK:
        return (op(s, a) if scalar_first else op(a, s)).dtype
    return np.promote_types(a.dtype, np.asarray(s).dtype)


@pytest.mark.parametrize("scalar_first", [False, True], ids=["array-first", "scalar-first"])
@pytest.mark.parametrize("symbol", list(OPS))
@pytest.mark.parametrize("adtype", [np.float16, np.float32])
def test_array_and_scalar_dtype_is_numpy_2s(adtype, symbol, scalar_first):
    rng = make_rng(len(symbol) + 2 * scalar_first)
    a = (rng.random(int(rng.integers(1, 6))) + 0.5).astype(adtype)
    f, op = compiled(symbol, scalar_first), OPS[symbol]
    for stype in STRONG + list(AS_PYTHON) + WEAK:
        s = stype(int(rng.integers(1, 4)))
        got, want = f(a, s), expected_dtype(a, s, op, scalar_first)
        assert got.dtype == want, f"{a.dtype} {symbol} {stype.__name__}"
        if not NUMPY1 and stype not in AS_PYTHON:  # NumPy 2's own answer
            assert got.dtype == f.py_func(a, s).dtype, f"{a.dtype} {symbol} {stype.__name__}"
        with np.errstate(all="ignore"):
            np.testing.assert_allclose(got, f.py_func(a, s).astype(got.dtype), rtol=2e-3)


def test_float16_array_times_numpy_int64_is_float16_as_numba_types_it():
    """NumPy 2 gives float64; compiled code gives the answer of a Python int's (NumPy 1's)"""
    f = compiled("*", False)
    a = np.arange(4, dtype=np.float16)
    assert f(a, np.int64(3)).dtype == f(a, 3).dtype == np.float16
    assert f(a, np.int32(3)).dtype == np.float64
