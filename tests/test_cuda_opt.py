"""cuda.jit(opt=False) and compile_ptx(opt=False), as numba-cuda's: the PTX
is left unoptimised (a kernel's locals stay in its local memory depot, and
no multiply and add fuse into an FMA); what a kernel computes is the same.
Each kernel is first compared with NumPy on generated inputs; ptxas
assembles each PTX."""
import math
import re

import numpy as np
import pytest

from ruchey import cuda, float32, float64, types

from conftest import AS_NUMBA, make_rng, needs_libdevice, needs_ptxas, ptxas_errors, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba-cuda's inspect_asm() needs a GPU under Numba")


def target(ptx):
    return re.search(r"^\.target\s+(sm_\d+)", ptx, re.M).group(1)


def store_one(x):
    x[0] = 1


def fused(x, y, z):
    return x * y + z


def make_scaled(opt):
    @cuda.jit(device=True, opt=opt)
    def scaled(a, b, c):
        return a * b + c

    @cuda.jit(opt=opt)
    def kernel(out, a, x, y):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = scaled(a, x[i], y[i])
    return kernel


@pytest.mark.parametrize("opt", [True, False])
def test_unoptimised_kernel_computes_the_same(opt, request):
    rng = make_rng(seed_of(request.node.name))
    n = int(rng.integers(1, 500))
    x, y = rng.normal(size=n) * 100, rng.normal(size=n) * 100
    a = float(rng.normal())
    out = np.zeros(n)
    kernel = make_scaled(opt)
    kernel[(n + 31) // 32, 32](out, a, x, y)
    np.testing.assert_allclose(out, a * x + y, rtol=1e-15, atol=1e-12)


@needs_ptxas
@pytest.mark.parametrize("eager", [True, False])
def test_unoptimised_kernel_keeps_its_locals_in_local_memory(eager, tmp_path):
    sig = (float64[::1],)
    ptxs = {}
    for opt in (True, False):
        kernel = cuda.jit(sig, opt=opt)(store_one) if eager else cuda.jit(opt=opt)(store_one)
        x = np.zeros(1)
        kernel[1, 1](x)
        assert x[0] == 1
        ptxs[opt] = kernel.inspect_asm(sig)
        assert ptxas_errors(ptxs[opt], target(ptxs[opt]), tmp_path, f"store_{opt}") == ""
    assert "__local_depot0" not in ptxs[True]
    assert "__local_depot0" in ptxs[False]


@needs_ptxas
def test_unoptimised_device_function_fuses_nothing(tmp_path):
    sig = (float64, float64, float64)
    optimised = cuda.jit(sig, device=True)(fused).inspect_asm(sig)
    unoptimised = cuda.jit(sig, device=True, opt=False)(fused).inspect_asm(sig)
    assert "fma.rn.f64" in optimised
    assert "fma.rn.f64" not in unoptimised and re.search(r"\bmul(\.rn)?\.f64", unoptimised)
    for name, ptx in (("opt", optimised), ("noopt", unoptimised)):
        assert ptxas_errors(ptx, target(ptx), tmp_path, name) == ""


@needs_ptxas
@needs_libdevice
@pytest.mark.parametrize("fastmath", [False, True])
def test_compile_ptx_unoptimised_with_libdevice_and_barriers(fastmath, tmp_path):
    @cuda.jit(device=True)
    def curve(a):
        return math.sin(a) + math.exp(a)

    def kernel(x, y):
        i = cuda.grid(1)
        tile = cuda.shared.array(32, float32)
        tile[cuda.threadIdx.x] = x[i]
        cuda.syncthreads()
        if i < x.size:
            y[i] = curve(tile[cuda.threadIdx.x]) + math.pow(x[i], float32(2.5))

    ptx, _ = cuda.compile_ptx(kernel, (float32[::1], float32[::1]), opt=False, fastmath=fastmath)
    assert "__nvvm_reflect" not in ptx  # (resolved though no optimisation pass ran)
    assert ptxas_errors(ptx, target(ptx), tmp_path, f"curve_{fastmath}") == ""
    plain, _ = cuda.compile_ptx(fused, (float32, float32, float32), device=True, opt=False)
    assert "fma.rn.f32" not in plain
    assert "fma.rn.f32" in cuda.compile_ptx(fused, (float32, float32, float32), device=True)[0]


def test_unoptimised_specialisation_keeps_the_option():
    kernel = cuda.jit(opt=False)(store_one)
    special = kernel.specialize(np.zeros(3))
    assert special.opt is False
    x = np.zeros(3)
    special[1, 1](x)
    np.testing.assert_array_equal(x, [1, 0, 0])
    assert "__local_depot0" in special.inspect_asm((types.float64[::1],))
