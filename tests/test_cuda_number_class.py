"""A scalar type as a kernel argument in an explicit signature: NumberClass
(numba's type of numpy.float32 passed as a value), in cuda.jit's signatures,
compile_ptx's and inspect_asm's. The kernel converts with it and sizes local
arrays by it; the results are compared with the Python function run per
thread on generated inputs. In PTX such a parameter is no parameter (its
type is its value), and ptxas assembles it."""
import re

import numpy as np
import pytest

from ruchey import cuda, types

from conftest import AS_NUMBA, PTXAS, make_rng, ptxas_errors, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's kernels on the CPU backend")

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.uint8]


def convert(out, x, dt):
    i = cuda.grid(1)
    if i < out.size:
        tmp = cuda.local.array(2, dt)
        tmp[0] = dt(x[i])
        tmp[1] = dt(x[i] * 2)
        out[i] = tmp[0] + tmp[1]


def expected(x, dt):
    """convert's result for each x, in Python: dt(v) + dt(v * 2), as dt."""
    with np.errstate(over="ignore"):
        return np.array([dt(dt(v) + dt(v * 2)) for v in x], dtype=dt)


def signature(dt):
    scalar = types.typeof(dt(0))
    return (scalar[::1], types.float64[::1], types.NumberClass(scalar))


@pytest.mark.parametrize("dt", DTYPES)
def test_declared_number_class_parameter(dt, request):
    kernel = cuda.jit(signature(dt))(convert)
    x = make_rng(seed_of(request)).uniform(0, 100, size=70)
    out = np.zeros(70, dt)
    kernel[3, 32](out, x, dt)
    np.testing.assert_array_equal(out, expected(x, dt))
    assert kernel.signatures == [(types.typeof(dt(0))[::1], types.float64[::1], types.NumberClass(types.typeof(dt(0))))]


def test_void_signature_with_a_number_class():
    sig = types.void(*signature(np.float32))
    kernel = cuda.jit(sig)(convert)
    out = np.zeros(4, np.float32)
    kernel[1, 4](out, np.arange(4.0), np.float32)
    np.testing.assert_array_equal(out, expected(np.arange(4.0), np.float32))


def test_number_class_of_a_record_is_refused():
    rec = types.from_dtype(np.dtype([("a", np.int32), ("b", np.float64)]))
    with pytest.raises(TypeError):
        cuda.compile_ptx(convert, (types.int32[::1], types.float64[::1], types.DType(rec)))


@pytest.mark.parametrize("dt", DTYPES)
def test_number_class_in_ptx(dt, tmp_path):
    ptx, restype = cuda.compile_ptx(convert, signature(dt))
    params = re.findall(r"\.param \.\w+ convert_param_\d+", ptx)
    assert len(params) == 3 + 3  # (out and x as data, shape, stride; dt none)
    kernel = cuda.jit(signature(dt))(convert)
    assert ".entry convert" in kernel.inspect_asm(signature(dt))
    if PTXAS is None:
        pytest.skip("the CUDA toolkit's ptxas is not installed")
    arch = re.search(r"^\.target\s+(sm_\d+)", ptx, re.M).group(1)
    assert ptxas_errors(ptx, arch, tmp_path, "convert") == ""
