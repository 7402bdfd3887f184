"""kernel.overloads[sig]._type_annotation.typemap, as Numba's: each variable
of the compiled kernel by name with its type (a local or shared array's
dtype is the one asked for, given as a NumPy type, a ruchey type or a
string); the kernel's results are those of its Python original run thread
by thread."""
import numpy as np
import pytest

from ruchey import cuda, types

from conftest import AS_NUMBA, make_rng, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's kernels")

DTYPES = [(np.float32, types.float32), (types.int16, types.int16), ("float64", types.float64),
          (np.uint8, types.uint8), ("complex64", types.complex64)]


def make_kernel(dtype):
    def staged(out, x):
        loc = cuda.local.array(4, dtype=dtype)
        sh = cuda.shared.array((8, 2), dtype=dtype)
        i = cuda.grid(1)
        if i < x.size:
            loc[0] = x[i]
            sh[i % 8, 0] = loc[0]
            out[i] = sh[i % 8, 0]
    return staged


@pytest.mark.parametrize("dtype, expected", DTYPES)
def test_typemap_gives_each_variables_type(dtype, expected):
    staged = make_kernel(dtype)
    kernel = cuda.jit(staged)
    np_dtype = np.dtype(str(expected))
    x = (make_rng(seed_of("annotation", str(expected))).uniform(0, 100, 8)).astype(np_dtype)
    out = np.zeros_like(x)
    kernel[1, 8](out, x)
    want = np.zeros_like(x)
    for i in range(x.size):  # each thread's own work, as the original does it
        want[i] = x[i]
    np.testing.assert_array_equal(out, want)
    typemap = next(iter(kernel.overloads.values()))._type_annotation.typemap
    assert typemap["loc"] == types.Array(expected, 1, "C") and typemap["loc"].dtype == expected
    assert typemap["sh"].dtype == expected and typemap["sh"].ndim == 2
    assert typemap["x"] == kernel.signatures[0][1] and typemap["i"] == types.int64


def test_each_signature_has_its_own_typemap():
    kernel = cuda.jit(make_kernel(np.float64))
    for dtype in (np.float32, np.int64):
        kernel[1, 8](np.zeros(8, dtype), np.arange(8, dtype=dtype))
    maps = {sig[1].dtype: kernel.overloads[sig]._type_annotation.typemap for sig in kernel.signatures}
    assert maps[types.float32]["x"].dtype == types.float32 and maps[types.int64]["x"].dtype == types.int64
    assert all(m["loc"].dtype == types.float64 for m in maps.values())
