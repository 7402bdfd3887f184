"""Kernels on other libraries' GPU arrays (CuPy arrays, PyTorch CUDA
tensors) through the CUDA Array Interface, and ruchey's device arrays used
by those libraries, all without copies. Needs a GPU and the library:
skipped without them (bench/gpu_check.sh runs them on a GPU machine; the
interface itself is tested against a fake driver in test_cudadrv.py)."""
import numpy
import pytest

from ruchey import cuda

from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA or not cuda.is_available(), reason="needs a GPU")


@cuda.jit
def scale_add(a, b, k):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * k + b[i]


@cuda.jit
def transpose_into(src, dst):
    x, y = cuda.grid(2)
    if x < dst.shape[0] and y < dst.shape[1]:
        dst[x, y] = src[y, x]


def small_ints(rng, shape):
    """Floats whose products and sums are exact, fused or not."""
    return rng.integers(-1000, 1000, size=shape).astype(numpy.float64)


@pytest.fixture
def cupy():
    return pytest.importorskip("cupy")


@pytest.fixture
def torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    return torch


@pytest.mark.parametrize("n", [1, 1000, 100003])
def test_kernels_run_on_cupy_arrays(cupy, n):
    rng = make_rng(n)
    a, b = small_ints(rng, n), small_ints(rng, n)
    da, db = cupy.asarray(a), cupy.asarray(b)
    scale_add[(n + 255) // 256, 256](da, db, 3.0)
    assert numpy.array_equal(cupy.asnumpy(da), a * 3.0 + b)
    assert cuda.as_cuda_array(da).device_ctypes_pointer.value == da.data.ptr


@pytest.mark.parametrize("n", [1, 1000, 100003])
def test_kernels_run_on_torch_tensors(torch, n):
    rng = make_rng(n)
    a, b = small_ints(rng, n), small_ints(rng, n)
    ta, tb = torch.tensor(a, device="cuda"), torch.tensor(b, device="cuda")
    scale_add[(n + 255) // 256, 256](ta, tb, 3.0)
    assert numpy.array_equal(ta.cpu().numpy(), a * 3.0 + b)


def test_strided_torch_tensors_keep_their_strides(torch):
    src = small_ints(make_rng(1), (37, 53))
    t = torch.tensor(src, device="cuda").t()  # a transposed view: strides (8, 424)
    out = cuda.device_array((37, 53))
    transpose_into[(3, 4), (16, 16)](t, out)
    assert numpy.array_equal(out.copy_to_host(), src)


def test_device_arrays_are_used_by_cupy_and_torch(cupy, torch):
    host = small_ints(make_rng(2), 1000)
    d = cuda.to_device(host)
    c = cupy.asarray(d)  # no copy: cupy writes into ruchey's memory
    c *= 2
    assert numpy.array_equal(d.copy_to_host(), host * 2)
    t = torch.as_tensor(d, device="cuda")
    t += 1
    assert numpy.array_equal(d.copy_to_host(), host * 2 + 1)
    assert c.data.ptr == t.data_ptr() == d.device_ctypes_pointer.value
