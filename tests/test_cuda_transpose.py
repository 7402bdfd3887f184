"""The transpose of a 2-D device array: DeviceNDArray.T and .transpose()
and cuda.transpose (numba-cuda's numba.cuda.kernels.transpose.transpose)
give a new C-contiguous array holding it, a copy as in numba-cuda, for
every dtype (records and bools too), checked against NumPy's .T. On the GPU
the copy is a kernel over the items as unsigned words: run here on the CPU
backend on word views, compiled to PTX and checked by ptxas, and launched
through the fake driver."""
import shutil

import numpy as np
import pytest

from ruchey import cuda

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's device arrays")

RECORD = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])


def arrays(rng):
    """2-D host arrays of several dtypes and shapes (empty, one row, odd sizes, a strided view)."""
    for shape in ((5, 6), (1, 7), (17, 16), (0, 3), (33, 1)):
        yield rng.standard_normal(shape)
        yield rng.integers(-100, 100, shape).astype(np.int16)
        yield rng.integers(0, 2, shape).astype(np.bool_)
        yield (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
    records = np.zeros((4, 3), RECORD)
    records["i"] = np.arange(12).reshape(4, 3)
    records["j"] = rng.standard_normal((4, 3, 3, 2))
    yield records
    yield rng.standard_normal((10, 12))[::2, ::3]
    yield np.array([[np.nan, -np.inf], [-0.0, 1.0]])


def test_the_transpose_is_a_contiguous_copy_holding_numpys_transpose():
    for host in arrays(make_rng(1)):
        dense = np.ascontiguousarray(host)
        d = cuda.to_device(dense)
        for t in (d.T, d.transpose(), d.transpose((1, 0)), cuda.transpose(d), cuda.transpose(dense)):
            assert t.shape == host.T.shape and t.dtype == host.dtype and t.is_c_contiguous()
            np.testing.assert_array_equal(t.copy_to_host(), host.T, strict=True)
        t = d.T
        if t.size:
            t[0, 0] = host.flat[1]  # a copy: the original is left as it was
            np.testing.assert_array_equal(d.copy_to_host(), host)


def test_transpose_into_a_given_array_and_of_a_view():
    rng = make_rng(2)
    host = rng.standard_normal((10, 12))
    d_view = cuda.to_device(host)[::2, ::2]
    out = cuda.device_array((6, 5))
    assert cuda.transpose(d_view, out) is out
    np.testing.assert_array_equal(out.copy_to_host(), host[::2, ::2].T)
    assert d_view.T.strides == (40, 8)


def test_identity_axes_give_the_array_and_bad_transposes_raise():
    d = cuda.to_device(np.arange(6.0).reshape(2, 3))
    assert d.transpose((0, 1)) is d
    with pytest.raises(ValueError, match="invalid axes"):
        d.transpose((0, 2))
    with pytest.raises(NotImplementedError, match="non-2D"):
        cuda.to_device(np.zeros((2, 3, 4))).T
    with pytest.raises(ValueError, match="goes into a device array of shape"):
        cuda.transpose(d, cuda.device_array((2, 3)))
    with pytest.raises(ValueError, match="goes into a device array of shape"):
        cuda.transpose(d, cuda.device_array((3, 2), np.float32))


def test_the_gpus_word_kernel_transposes_items_as_words():
    """The kernel the GPU runs (on the CPU backend here): (rows, cols, words) arrays."""
    from ruchey.cuda.transposed import _transpose_words
    rng = make_rng(3)
    for rows, cols, words, dtype in ((5, 7, 1, np.uint64), (40, 70, 3, np.uint32), (1, 1, 7, np.uint8)):
        src = rng.integers(0, 200, (cols, rows, words)).astype(dtype)
        dst = np.zeros((rows, cols, words), dtype)
        _transpose_words[(2, 2), (32, 8)](src, dst)  # fewer threads than items: the grid strides
        np.testing.assert_array_equal(dst, src.transpose(1, 0, 2))


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_the_word_kernel(arch, tmp_path):
    from ruchey.cuda.transposed import _transpose_words
    for word in ("uint8", "uint64"):
        ptx, _ = cuda.compile_ptx(_transpose_words.py_func, f"void({word}[:, :, :], {word}[:, :, :])",
                                  cc=(int(arch[3]), int(arch[4])))
        assert ptxas_errors(ptx, arch, tmp_path, "transpose_words") == ""


from test_cudadrv import PRELUDE, fake_driver, on_fake  # noqa: E402,F401  (fixtures)


@pytest.mark.skipif(not shutil.which("cc"), reason="ruchey's driver layer, tested with a C compiler")
def test_a_gpu_transpose_launches_the_word_kernel_on_the_arrays_stream(on_fake):
    on_fake("""
        s = cuda.stream()
        d = cuda.to_device(numpy.zeros((100, 40), numpy.float32), stream=s)
        t = d.T
        assert t.shape == (40, 100) and t.strides == (400, 4) and t.on_gpu
        info = launch(0)
        assert "transpose_words" in info["name"]
        assert info["grid"] == (4, 5, 1) and info["block"] == (32, 8, 1) and info["stream"] == s.handle
        # src, dst: (rows, cols, words) of 4-byte words, one word an item
        assert [i64(b) for b in info["params"][1:4]] == [100, 40, 1]
        assert [i64(b) for b in info["params"][8:11]] == [40, 100, 1]
    """)
