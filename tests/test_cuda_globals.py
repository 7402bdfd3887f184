"""Device arrays global to a kernel's module (or closed over): captured by
reference, as numba-cuda captures them, so that the kernel reads and writes
their memory as it is at each launch (NumPy arrays are frozen as copies).
Checked against NumPy on generated data; the PTX against ptxas."""
import numpy as np
import pytest

import ruchey
from ruchey import cuda

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, seed_of

TABLE = cuda.to_device(np.arange(12, dtype=np.float64).reshape(3, 4))
COUNTS = cuda.to_device(np.zeros(8, np.int64))


@cuda.jit
def scale_rows(out, x):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = x[i, j] * TABLE[i % TABLE.shape[0], j % TABLE.shape[1]]
        cuda.atomic.add(COUNTS, (i * out.shape[1] + j) % COUNTS.size, 1)


@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (5, 7), (6, 8)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_a_global_device_array_is_read_and_written_where_it_is(shape, dtype):
    rng = make_rng(seed_of("captured", shape, np.dtype(dtype).name))
    x = rng.integers(-20, 20, shape).astype(dtype)
    for table in (rng.normal(size=(3, 4)), np.arange(12.0).reshape(3, 4)):
        TABLE.copy_to_device(table)  # seen by the next launch: no copy was frozen into the kernel
        COUNTS.copy_to_device(np.zeros(8, np.int64))
        out = np.zeros(shape)
        scale_rows[(max(1, shape[0]), 1), (1, max(1, shape[1]))](out, x)
        rows, cols = np.indices(shape)
        np.testing.assert_array_equal(out, x * table[rows % 3, cols % 4])
        np.testing.assert_array_equal(COUNTS.copy_to_host(), np.bincount(np.arange(x.size) % 8, minlength=8))


def test_a_device_array_in_a_closure_and_a_strided_view():
    rng = make_rng(seed_of("captured closure"))
    base = rng.normal(size=(6, 5))
    strided = cuda.to_device(base)[::2, 1:4]  # a view: its own strides

    @cuda.jit
    def gather(out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = strided[i // 3, i % 3]

    out = np.zeros(9)
    gather[1, 16](out)
    np.testing.assert_array_equal(out, base[::2, 1:4].ravel())


@cuda.jit(device=True)
def table_item(i):
    return TABLE[i % TABLE.shape[0], i % TABLE.shape[1]]


@pytest.mark.skipif(AS_NUMBA, reason="numba-cuda's simulator keeps no cache")
def test_cache_refuses_a_kernel_capturing_a_device_array():
    """cache=True on a kernel that reads a device array from a global (itself or
    through a device function it calls) or a closure variable is numba-cuda's
    PicklingError at its first launch: the array's address would be stale in
    another process. Without cache=True the same kernel runs."""
    import pickle
    rng = make_rng(seed_of("captured cache"))
    closed = cuda.to_device(rng.normal(size=5))

    def through_device(out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = table_item(i)

    def through_closure(out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = closed[i] * 2

    table = rng.normal(size=(3, 4))
    TABLE.copy_to_device(table)
    idx = np.arange(5)
    for func, expected in ((through_device, table[idx % 3, idx % 4]), (through_closure, closed.copy_to_host() * 2)):
        cached = cuda.jit(cache=True)(func)
        for _ in range(2):  # (refused at each launch: nothing was compiled)
            with pytest.raises(pickle.PicklingError, match="referencing global device arrays"):
                cached[1, 8](np.zeros(5))
        out = np.zeros(5)
        cuda.jit(func)[1, 8](out)
        np.testing.assert_array_equal(out, expected)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_a_device_array_global_in_cpu_code_is_a_typing_error():
    @ruchey.njit
    def reads_table():
        return TABLE[0, 0]

    with pytest.raises(ruchey.TypingError, match="CUDA kernels and device functions only"):
        reads_table()


class _GpuArray:
    """Stands for a device array in a GPU's memory at a made-up address (the
    PTX is only assembled, never run)."""

    def __init__(self, like):
        self.like = like

    def __ruchey_captured__(self):
        return self.like, 0x7F0000000000, True


GPU_TABLE = _GpuArray(np.zeros((3, 4)))


def reads_gpu_table(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = GPU_TABLE[i % 3, i % 4]
        GPU_TABLE[0, 0] = 1.0


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_a_gpu_device_array_on_the_cpu_backend_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="in a GPU's memory"):
        cuda.jit(reads_gpu_table)[1, 1](np.zeros(4))


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_a_captured_device_array(arch, tmp_path):
    ptx, _ = cuda.compile_ptx(reads_gpu_table, "void(float64[::1])", cc=(int(arch[3]), int(arch[4])))
    assert str(0x7F0000000000) in ptx  # its address, no copy of its elements
    assert ptxas_errors(ptx, arch, tmp_path) == ""
