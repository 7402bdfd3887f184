"""cuda.jit(device=True, forceinline=True), as numba-cuda's: on the GPU the
device function's definition carries LLVM's alwaysinline (NVVM's forced
inlining), so no call of it is left in the kernel's PTX; without it the
definition has none. The kernels' results are their Python originals'."""
import re

import numpy as np
import pytest

from ruchey import cuda, types

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's LLVM IR")


def polynomial(x):
    acc = 0.0
    for k in range(12):  # (big enough that LLVM alone may leave the call)
        acc = acc * x + (k % 5) - 2.0 * (k % 3)
        if acc > 1e6:
            acc = acc / 3.0
    return acc


def make_kernel(forceinline):
    device = cuda.jit(device=True, forceinline=forceinline)(polynomial)

    def apply(out, x):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = device(x[i]) + device(x[i] * 0.5)

    return cuda.jit((types.float64[::1], types.float64[::1]))(apply)


def definition_attributes(ir, name):
    """The attributes LLVM IR's definition of the function named name* has (its #N group's)."""
    line = next(l for l in ir.splitlines() if l.startswith("define") and re.search(rf"@{name}\w*\(", l))
    group = re.search(r"#(\d+) \{$", line)
    if group is None:
        return ""
    return re.search(rf"^attributes #{group.group(1)} = \{{(.*)\}}$", ir, re.M).group(1)


@pytest.mark.parametrize("forceinline", [True, False])
def test_forceinline_marks_the_device_function(forceinline, request):
    kernel = make_kernel(forceinline)
    x = make_rng(seed_of(request)).uniform(-3, 3, 40)
    out = np.zeros_like(x)
    kernel[2, 32](out, x)
    np.testing.assert_allclose(out, [polynomial(v) + polynomial(v * 0.5) for v in x], rtol=1e-12)
    ir = kernel.inspect_llvm(kernel.signatures[0])
    assert ("alwaysinline" in definition_attributes(ir, "polynomial")) == forceinline
    assert "alwaysinline" not in definition_attributes(ir, "apply")


@needs_ptxas
def test_a_forced_inline_leaves_no_call_in_the_ptx(tmp_path):
    kernel = make_kernel(True)
    ptx = kernel.inspect_asm(kernel.signatures[0])
    assert not re.search(r"^\s*call", ptx, re.M)
    assert ptxas_errors(ptx, "sm_80", tmp_path, "forced") == ""
