"""a.reshape(...), a.ravel(), a.view(dtype), a.T, numpy.transpose,
swapaxes, moveaxis, squeeze, expand_dims and flip in CUDA kernels: views
of the array's memory, as numba-cuda makes them, nothing allocated; and
a.item() and a.fill(v), which make nothing either. reshape
and ravel take an array whose type says it is contiguous in their order
(a copy of another cannot be made in a kernel: a TypingError). On the CPU
backend each result is checked against NumPy's; compiled to PTX, checked
by ptxas."""
import numpy as np
import pytest

import ruchey
from ruchey import cuda

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, seed_of


@cuda.jit
def reshape_2d(a, rows, out):
    v = a.reshape((rows, -1))
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            out[i, j] = v[i, j]


@cuda.jit
def reshape_3d_fortran(a, d0, d1, d2, out):
    v = a.reshape((d0, d1, d2), order="F")
    for i in range(d0):
        for j in range(d1):
            for k in range(d2):
                out[i, j, k] = v[i, j, k]


@cuda.jit
def ravel_into(a, out):
    v = a.ravel()
    for i in range(v.size):
        out[i] = v[i]


@cuda.jit
def reshape_local(out):
    tmp = cuda.local.array(12, np.int64)
    for i in range(12):
        tmp[i] = i * 10 + cuda.threadIdx.x
    m = tmp.reshape(3, 4)
    out[cuda.threadIdx.x] = m[2, 1] + m[0, 3]


@cuda.jit
def view_as_int32(a, start, stop, out):
    out[0] = a[start:stop].view(np.int32)[0]


@cuda.jit
def view_as(a, out):
    v = a.view(np.uint32)
    for i in range(v.size):
        out[i] = v[i]


@cuda.jit
def views(a, b, out, filled):
    out[0] = a.T[2, 1]
    out[1] = np.transpose(a)[3, 0]
    out[2] = np.swapaxes(a, 0, 1)[1, 2]
    out[3] = np.expand_dims(a, 0)[0, 1, 1]
    out[4] = np.squeeze(b, axis=0)[2]
    out[5] = np.flip(a)[0, 0]
    out[6] = a[1:2, 3:4].item()
    out[7] = np.moveaxis(a, 0, -1)[3, 1]
    out[8] = np.flip(a, 1)[2, 0]
    filled.fill(b[0, 1])


def test_views_and_fill_are_numpys():
    rng = make_rng(5)
    for a, b in ((rng.standard_normal((4, 5)), rng.standard_normal((1, 6))),
                 (np.asfortranarray(rng.standard_normal((4, 5))), rng.standard_normal((1, 6))),
                 (rng.standard_normal((8, 10))[::2, ::2], rng.standard_normal((1, 12))[:, ::2])):
        out, filled = np.zeros(9), np.zeros((3, 2))[:, ::-1]
        views[1, 1](a, b, out, filled)
        expected = [a.T[2, 1], np.transpose(a)[3, 0], np.swapaxes(a, 0, 1)[1, 2], np.expand_dims(a, 0)[0, 1, 1],
                    np.squeeze(b, axis=0)[2], np.flip(a)[0, 0], a[1:2, 3:4].item(), np.moveaxis(a, 0, -1)[3, 1],
                    np.flip(a, 1)[2, 0]]
        np.testing.assert_array_equal(out, expected)
        assert (filled == b[0, 1]).all()


@cuda.jit
def item_of(a, out):
    out[0] = a.item()


def test_item_of_more_than_one_element_is_numpys_value_error():
    out = np.zeros(1)
    item_of[1, 1](np.array([[2.5]]), out)
    assert out[0] == 2.5
    with pytest.raises(ValueError, match="size 1"):
        item_of[1, 1](np.ones((2, 1)), out)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8])
def test_reshape_is_numpys(dtype):
    rng = make_rng(seed_of("reshape", dtype))
    for size, rows in ((24, 4), (24, 8), (7, 7), (0, 3)):
        a = (rng.uniform(-9, 9, size) * 10).astype(dtype)
        out = np.zeros((rows, size // rows), dtype)
        reshape_2d[1, 1](a, rows, out)
        np.testing.assert_array_equal(out, a.reshape((rows, -1)))
    a = np.arange(24).astype(dtype)
    out = np.zeros((2, 3, 4), dtype)
    reshape_3d_fortran[1, 1](a, 2, 3, 4, out)
    np.testing.assert_array_equal(out, a.reshape((2, 3, 4), order="F"))


def test_ravel_of_a_c_array_and_reshape_of_a_local_array():
    a = make_rng(3).standard_normal((5, 6))
    out = np.zeros(30)
    ravel_into[1, 1](a, out)
    np.testing.assert_array_equal(out, a.ravel())
    out = np.zeros(4, np.int64)
    reshape_local[1, 4](out)
    expected = [(np.arange(12) * 10 + t).reshape(3, 4) for t in range(4)]
    np.testing.assert_array_equal(out, [m[2, 1] + m[0, 3] for m in expected])


def test_view_reads_the_bytes_as_another_dtype():
    b = np.arange(256, dtype=np.uint8)
    out = np.zeros(1, np.int32)
    for start in range(0, 256, 4):
        view_as_int32[1, 1](b, start, start + 4, out)
        assert out[0] == b[start:start + 4].view(np.int32)[0]
    x = make_rng(4).standard_normal(9)
    got = np.zeros(18, np.uint32)
    view_as[1, 1](x, got)
    np.testing.assert_array_equal(got, x.view(np.uint32))


def test_bad_shape_is_numpys_value_error():
    with pytest.raises(ValueError, match="reshape"):
        reshape_2d[1, 1](np.arange(10.0), 3, np.zeros((3, 3)))


def test_reshape_of_a_strided_array_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="C-contiguous"):
        reshape_2d[1, 1](np.arange(20.0)[::2], 2, np.zeros((2, 5)))


PTX_CASES = [(reshape_2d, "void(float64[::1], int64, float64[:, :])"),
             (reshape_3d_fortran, "void(int32[::1], int64, int64, int64, int32[:, :, :])"),
             (ravel_into, "void(float32[:, ::1], float32[:])"), (reshape_local, "void(int64[:])"),
             (view_as_int32, "void(uint8[:], int64, int64, int32[:])"),
             (views, "void(float64[:, :], float64[:, :], float64[:], float64[:, :])")]


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("kernel, sig", PTX_CASES, ids=[k.__name__ for k, _ in PTX_CASES])
def test_ptxas_accepts_views_in_kernels(kernel, sig, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(8, 0))
    assert ptxas_errors(ptx, "sm_80", tmp_path, kernel.__name__) == ""
