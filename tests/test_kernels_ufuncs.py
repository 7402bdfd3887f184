"""NumPy ufuncs called in CUDA kernels with an output array (numpy.sin(x, r),
numpy.add(a, b, out=r)): numba-cuda's "calling a ufunc in a kernel". The
loop over the output's elements runs in the calling thread; nothing is
allocated. On the CPU backend each result is checked against NumPy's;
compiled to PTX, checked by ptxas. Without an output array the call would
make one, which a kernel cannot: a TypingError."""
import numpy as np
import pytest

import ruchey
from ruchey import cuda

from conftest import AS_NUMBA, make_rng, needs_libdevice, needs_ptxas, ptxas_errors, seed_of


@cuda.jit
def sin_into(x, r):
    np.sin(x, r)


@cuda.jit
def exp_into(x, r):
    np.exp(x, out=r)


@cuda.jit
def absolute_into(x, r):
    np.absolute(x, r)


@cuda.jit
def add_into(a, b, r):
    np.add(a, b, r)


@cuda.jit
def maximum_into(a, b, r):
    np.maximum(a, b, out=r)


@cuda.jit
def arctan2_into(a, b, r):
    np.arctan2(a, b, r)


@cuda.jit
def less_into(a, b, r):
    np.less(a, b, r)


@cuda.jit
def each_row_into(x, r):
    i = cuda.grid(1)
    if i < x.shape[0]:
        np.cos(x[i], r[i])


def operands(shape, dtype, seed):
    rng = make_rng(seed)
    x = rng.uniform(-4, 4, shape)
    if np.dtype(dtype).kind in "iu":
        x = rng.integers(0 if np.dtype(dtype).kind == "u" else -50, 50, shape)
    x = np.asarray(x).astype(dtype)
    if x.size:
        x.flat[0] = 0
    return x


UNARY = [(sin_into, np.sin), (exp_into, np.exp), (absolute_into, np.absolute)]
SHAPES = [(0,), (1,), (37,), (5, 7), (2, 3, 4)]


@pytest.mark.parametrize("kernel, ufunc", UNARY, ids=[u.__name__ for _, u in UNARY])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_unary_ufunc_writes_its_output_array(kernel, ufunc, dtype):
    for shape in SHAPES:
        x = operands(shape, dtype, seed_of(ufunc.__name__, shape, dtype))
        r = np.full(shape, np.nan, dtype)
        kernel[1, 1](x, r)
        np.testing.assert_allclose(r, ufunc(x), rtol=1e-6 if dtype == np.float32 else 1e-15)


def test_unary_ufunc_of_special_values():
    x = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 710.0, -745.5])
    r = np.empty_like(x)
    exp_into[1, 1](x, r)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(r, np.exp(x))
    absolute_into[1, 1](x, r)
    np.testing.assert_array_equal(r, np.absolute(x))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.float32, np.float64])
def test_binary_ufuncs_write_their_output_array(dtype):
    for shape in SHAPES:
        a = operands(shape, dtype, seed_of("a", shape, dtype))
        b = operands(shape, dtype, seed_of("b", shape, dtype))
        for kernel, ufunc in ((add_into, np.add), (maximum_into, np.maximum), (less_into, np.less)):
            r = np.zeros(shape, ufunc(a, b).dtype)
            kernel[1, 1](a, b, r)
            np.testing.assert_array_equal(r, ufunc(a, b))


def test_operands_broadcast_to_the_output():
    a = operands((4, 5), np.float64, 1)
    b = operands((5,), np.float64, 2)
    r = np.zeros((4, 5))
    arctan2_into[1, 1](a, b, r)
    np.testing.assert_allclose(r, np.arctan2(a, b), rtol=1e-15)
    add_into[1, 1](a, 2.5, r)
    np.testing.assert_array_equal(r, a + 2.5)
    r = np.zeros((3, 1))  # a scalar into every element
    add_into[1, 1](np.float64(1.5), np.float64(-0.5), r)
    np.testing.assert_array_equal(r, np.ones((3, 1)))


def test_each_thread_writes_its_own_row():
    x = operands((64, 9), np.float32, 3)
    r = np.zeros_like(x)
    each_row_into[2, 32](x, r)
    np.testing.assert_allclose(r, np.cos(x), rtol=1e-6)


def test_output_overlapping_its_input_is_read_in_order():
    """Each element is read before any later one is written, as a loop in
    one thread reads them (numba-cuda's ufuncs in kernels copy nothing)."""
    x = operands((12,), np.float64, 4)
    expected = x.copy()
    for i in range(11):
        expected[i] = np.sin(expected[i + 1])
    sin_into[1, 1](x[1:], x[:-1])
    np.testing.assert_array_equal(x, expected)
    y = operands((12,), np.float64, 5)
    expected = np.sin(y)
    sin_into[1, 1](y, y)
    np.testing.assert_array_equal(y, expected)


def test_output_of_the_wrong_shape_is_a_value_error():
    with pytest.raises(ValueError, match="broadcast"):
        add_into[1, 1](np.arange(10.0), np.arange(10.0), np.zeros(5))


def test_output_that_cannot_take_the_result_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="cannot cast"):
        sin_into[1, 1](np.arange(3.0), np.zeros(3, np.int32))


def test_ufunc_without_an_output_array_is_a_typing_error():
    @cuda.jit
    def makes_an_array(x, r):
        r[0] = np.sin(x)[0]

    with pytest.raises(ruchey.TypingError, match="not supported in CUDA kernels"):
        makes_an_array[1, 1](np.arange(3.0), np.zeros(3))


PTX_CASES = [(sin_into, "void(float32[:, :], float32[:, :])"), (add_into, "void(float64[:], float64, float64[:])"),
             (maximum_into, "void(int32[:], int32[:], int32[:])"), (arctan2_into, "void(float64[:, :], float64[:], float64[:, :])"),
             (each_row_into, "void(float32[:, :], float32[:, :])")]


@needs_ptxas
@needs_libdevice
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("kernel, sig", PTX_CASES, ids=[k.__name__ for k, _ in PTX_CASES])
def test_ptxas_accepts_ufuncs_into_output_arrays(kernel, sig, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(8, 0))
    assert ptxas_errors(ptx, "sm_80", tmp_path, kernel.__name__) == ""
