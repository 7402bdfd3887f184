"""Raw CUDA C kernels (ruchey.cuda.SourceModule, RawKernel) with the real
NVRTC, where one is installed (the CUDA toolkit's or the nvidia-cuda-nvrtc
wheel's): compiled here, launched on a GPU when there is one and checked
against NumPy, refused with CudaSupportError without one. (The launch path
is tested against a fake driver and a fake NVRTC in test_cudadrv.py.)"""
import numpy
import pytest

from ruchey import cuda

from conftest import AS_NUMBA

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's raw kernels")

SOURCE = """
__global__ void axpy(float *y, const float *x, float a, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) y[i] += a * x[i];
}
"""


@pytest.fixture(scope="module")
def nvrtc():
    from ruchey.cuda import sourcemodule
    try:
        return sourcemodule._load_nvrtc()
    except cuda.CudaSupportError as exc:
        pytest.skip(str(exc))


def test_nvrtc_compiles_a_module_and_names_its_kernels_parameters(nvrtc):
    mod = cuda.SourceModule(SOURCE)
    f = mod.get_function("axpy")
    assert f.params == ["u64", "u64", "f32", "u32"]
    assert ".visible .entry axpy(" in mod.ptx


def test_a_compile_error_carries_nvrtcs_log(nvrtc):
    with pytest.raises(cuda.CompileError, match="NVRTC_ERROR_COMPILATION") as info:
        cuda.SourceModule("__global__ void bad(int *a) { a[0] = not_declared; }")
    assert '"not_declared" is undefined' in info.value.log


def test_nvrtc_makes_machine_code_for_a_gpus_architecture(nvrtc):
    from ruchey.cuda import sourcemodule
    cubin = sourcemodule.compile_cuda_c('extern "C"' + SOURCE, (), (9, 0), cubin=True)
    assert cubin[:4] == b"\x7fELF"


@pytest.mark.no_gpu
def test_without_a_gpu_a_raw_kernel_is_a_cuda_support_error(nvrtc):
    f = cuda.SourceModule(SOURCE).get_function("axpy")
    with pytest.raises(cuda.CudaSupportError, match="raw CUDA C kernels run only on a GPU"):
        f(numpy.zeros(4, numpy.float32), numpy.ones(4, numpy.float32), numpy.float32(1), numpy.int32(4))


@pytest.mark.skipif(not cuda.is_available(), reason="needs a GPU")
def test_raw_kernels_run_on_the_gpu(nvrtc):
    n = 1000
    x = numpy.arange(n, dtype=numpy.float32)
    y = numpy.ones(n, dtype=numpy.float32)
    d_y = cuda.to_device(y)
    f = cuda.SourceModule(SOURCE).get_function("axpy")
    f(d_y, x, numpy.float32(2.0), numpy.int32(n), block=(256, 1, 1), grid=((n + 255) // 256, 1))
    numpy.testing.assert_array_equal(d_y.copy_to_host(), y + 2 * x)
    k = cuda.RawKernel('extern "C"' + SOURCE, "axpy")
    k(((n + 127) // 128,), (128,), (d_y, cuda.to_device(x), numpy.float32(-1.0), n))
    numpy.testing.assert_array_equal(d_y.copy_to_host(), y + x)
    host = y.copy()  # a host array: copied in and back
    f(host, x, 1.0, n, block=(128, 1, 1), grid=((n + 127) // 128, 1))
    numpy.testing.assert_array_equal(host, y + x)
