"""compile_ptx's targets and checks, as numba-cuda's: cc with an architecture
suffix ((9, 0, "a"): sm_90a, which ptxas assembles), the compute capability
for a device (cuda.cudadrv.nvrtc.find_closest_arch, what
compile_for_current_device targets), and a kernel whose body returns a value
(a TypeError, "must have void return type", from compile_ptx and from a
launch alike). Device functions' results are compared with py_func."""
import re

import numpy as np
import pytest

from ruchey import cuda, float16, float32, float64, int32, types

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")


def axpy(a, x, y):
    return a * x + y


def first_sum(x, y):
    return x[0] + y[0]


def target_of(ptx):
    return re.search(r"^\.target (\S+)$", ptx, re.M).group(1)


@needs_ptxas
@pytest.mark.parametrize("device", [True, False])
def test_arch_specific_cc_targets_sm_90a(device, tmp_path):
    if device:
        ptx, restype = cuda.compile_ptx(axpy, (float32, float32, float32), device=True, cc=(9, 0, "a"))
        assert restype == float32
    else:
        ptx, restype = cuda.compile_ptx(lambda a: None, (float64[::1],), cc=(9, 0, "a"))
        assert restype == types.void
    assert target_of(ptx) == "sm_90a"
    assert ptxas_errors(ptx, "sm_90a", tmp_path, "arch_specific") == ""


@needs_ptxas
@pytest.mark.parametrize("cc, target", [((8, 0, "a"), "sm_80"), ((10, 0, "a"), "sm_90"), ((10, 0, "f"), "sm_90"),
                                        ((12, 0), "sm_90"), ((9, 0), "sm_90")])
def test_suffixes_llvm_has_no_target_for_are_plain_ccs(cc, target, tmp_path):
    ptx, _ = cuda.compile_ptx(axpy, (float64, float64, float64), device=True, cc=cc)
    assert target_of(ptx) == target
    assert ptxas_errors(ptx, target, tmp_path, "plain") == ""


@pytest.mark.parametrize("cc", [(9, 0, "b"), (9,), "sm_90", (9.0, 0), (9, 0, "a", 1)])
def test_a_malformed_cc_is_a_value_error(cc):
    with pytest.raises(ValueError, match="cc must be"):
        cuda.compile_ptx(axpy, (float32, float32, float32), device=True, cc=cc)


@pytest.mark.parametrize("cc, closest", [((7, 5), (7, 5)), ((8, 6), (8, 6)), ((9, 0), (9, 0)), ((6, 0), (7, 5)),
                                         ((10, 0), (9, 0)), ((12, 1), (9, 0))])
def test_find_closest_arch_is_the_cc_compiled_for(cc, closest):
    assert cuda.cudadrv.nvrtc.find_closest_arch(cc) == closest
    ptx, _ = cuda.compile_ptx(axpy, (float32, float32, float32), device=True, cc=cc)
    assert target_of(ptx) == "sm_%d%d" % closest


def test_find_closest_arch_takes_a_pair():
    with pytest.raises(TypeError, match="compute capability"):
        cuda.cudadrv.nvrtc.find_closest_arch("sm_80")


def test_compile_for_current_device_targets_the_closest_arch():
    cc = cuda.cudadrv.nvrtc.find_closest_arch(cuda.get_current_device().compute_capability)
    for compile_function in (cuda.compile_for_current_device, cuda.compile_ptx_for_current_device):
        ptx, restype = compile_function(axpy, (float32, float32, float32), device=True)
        assert target_of(ptx) == "sm_%d%d" % cc and restype == float32


def test_device_functions_still_return_values(request):
    rng = make_rng(seed_of(request))
    x, y = rng.integers(0, 1000, 8).astype(np.uint32), rng.integers(0, 1000, 8).astype(np.uint32)
    ptx, restype = cuda.compile_ptx(first_sum, (types.uint32[::1], types.uint32[::1]), device=True)
    assert restype == types.uint64 and ".func" in ptx  # (Numba adds integers in 64 bits)
    summed = cuda.jit(device=True)(first_sum)

    @cuda.jit
    def kernel(out, x, y):
        out[0] = summed(x, y)

    out = np.zeros(1, np.uint64)
    kernel[1, 1](out, x, y)
    assert out[0] == first_sum(x, y)


def test_a_kernel_returning_a_value_is_a_type_error():
    for compile_function in (cuda.compile_ptx, lambda f, sig: cuda.compile_all(f, sig, device=False, abi="numba",
                                                                                 output="ptx")):
        with pytest.raises(TypeError, match="must have void return type") as raised:
            compile_function(first_sum, (types.uint32[::1], types.uint32[::1]))
        assert "first_sum" in str(raised.value) and "line" in str(raised.value)
    launched = cuda.jit(first_sum)
    with pytest.raises(TypeError, match="must have void return type"):
        launched[1, 1](np.zeros(2, np.int32), np.zeros(2, np.int32))
    with pytest.raises(TypeError, match="must have void return type"):
        cuda.jit((int32[::1], int32[::1]))(first_sum)


def as_float(x):
    return float(x)


def add_sub_as_float(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = (float(x[i]) + y[i]) - y[i]


@needs_ptxas
@pytest.mark.parametrize("argty", [float16, float32])
def test_float_of_a_float_keeps_its_type_in_cuda_code_written_for_numba(argty, tmp_path):
    """float(x) of a float32 (or float16) in CUDA code written for Numba is x
    itself, as numba-cuda types it (its PTX stores 32 or 16 bits); in ruchey's
    own code a float64, as Python's float()."""
    import ruchey
    rng = make_rng(seed_of("float_keeps"))
    x = rng.normal(size=100).astype(np.float32)
    y = rng.uniform(1, 3, size=100).astype(np.float32)
    out = np.zeros(100, np.float32)
    ruchey._core._numba_semantics(True)
    try:
        ptx, restype = cuda.compile_ptx(as_float, (argty,), device=True)
        cuda.jit(add_sub_as_float)[4, 32](x, y, out)  # (compiled at its first launch)
    finally:
        ruchey._core._numba_semantics(False)
    assert restype == argty and ptxas_errors(ptx, "sm_75", tmp_path, "as_float") == ""
    assert re.search(r"st\.param\.[bf]%d" % argty.bitwidth, ptx)
    assert cuda.compile_ptx(as_float, (argty,), device=True)[1] == float64
    expected = (x + y) - y  # in float32, as Numba's (in float64 it would be x again)
    assert not np.array_equal(expected, x)
    np.testing.assert_array_equal(out, expected)
