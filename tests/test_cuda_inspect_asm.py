"""A kernel's and a device function's inspect_asm() is their PTX, as
numba-cuda's: the code the GPU backend makes for each compiled signature,
for the current device's compute capability, also where kernels run on the
CPU backend (which does not change what they compute: each kernel here is
compared with NumPy on generated inputs first). The dict form is keyed by
signature and found by the tuple of argument types; ptxas assembles each
PTX. cuda.jit(lineinfo=True) puts the source's lines in it; inline= takes
numba-cuda's values and refuses others with its ValueError."""
import re

import numpy as np
import pytest

import ruchey
from ruchey import cuda, types

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba-cuda's inspect_asm() needs a GPU under Numba")


def target(ptx):
    """The sm_XX the PTX was made for (what ptxas assembles it for)."""
    return re.search(r"^\.target\s+(sm_\d+)", ptx, re.M).group(1)


def assembles(ptx, tmp_path, name):
    return ptxas_errors(ptx, target(ptx), tmp_path, name)


def make_axpy():
    @cuda.jit
    def axpy(out, a, x, y):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a * cuda.ldcs(x, i) + y[i]
    return axpy


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_kernel_asm_is_its_ptx_per_signature(dtype, request):
    rng = make_rng(seed_of(request))
    axpy = make_axpy()
    n = int(rng.integers(1, 300))
    x, y = (rng.normal(size=n) * 50).astype(dtype), (rng.normal(size=n) * 50).astype(dtype)
    a = dtype(rng.integers(-5, 6))
    out = np.zeros(n, dtype)
    axpy[(n + 63) // 64, 64](out, a, x, y)
    np.testing.assert_array_equal(out, (a * x + y).astype(dtype))
    asm = axpy.inspect_asm()
    assert len(asm) == 1
    sig = (types.typeof(out), types.typeof(a), types.typeof(x), types.typeof(y))
    ptx = axpy.inspect_asm(sig)
    assert ptx == asm[sig] == next(iter(asm.values()))
    assert ".entry axpy" in ptx and "ld.global.cs" in ptx and "\t.cfi_startproc" not in ptx
    assert ".loc" not in ptx  # (no lineinfo)


def test_kernel_asm_of_each_signature():
    axpy = make_axpy()
    for dtype in (np.float32, np.int64):
        x = np.arange(8, dtype=dtype)
        out = np.zeros(8, dtype)
        axpy[1, 8](out, dtype(2), x, x)
        np.testing.assert_array_equal(out, 3 * x)
    asm = axpy.inspect_asm()
    assert len(asm) == 2 and all(".entry axpy" in ptx for ptx in asm.values())
    f32 = axpy.inspect_asm((types.float32[::1], types.float32, types.float32[::1], types.float32[::1]))
    i64 = axpy.inspect_asm((types.int64[::1], types.int64, types.int64[::1], types.int64[::1]))
    assert "fma.rn.f32" in f32 or "mul.rn.f32" in f32
    assert "f32" not in i64 and "mul.lo.s64" in i64
    with pytest.raises(KeyError):
        axpy.inspect_asm((types.int8[::1], types.int8, types.int8[::1], types.int8[::1]))


def test_declared_kernel_asm():
    @cuda.jit("void(float32[:, ::1], float32)")
    def scale(m, s):
        i, j = cuda.grid(2)
        if i < m.shape[0] and j < m.shape[1]:
            m[i, j] *= s
    m = make_rng(3).normal(size=(5, 7)).astype(np.float32)
    expected = m * np.float32(1.5)
    scale[(1, 1), (8, 8)](m, 1.5)
    np.testing.assert_array_equal(m, expected)
    (ptx,) = scale.inspect_asm().values()
    assert ".entry scale" in ptx and "mul.rn.f32" in ptx


def test_device_function_asm_is_a_func(request):
    @cuda.jit("float64(float64, float64)", device=True)
    def hypot2(a, b):
        return a * a + b * b

    @cuda.jit
    def apply(out, x, y):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = hypot2(x[i], y[i])

    rng = make_rng(seed_of(request))
    x, y = rng.normal(size=50), rng.normal(size=50)
    out = np.zeros(50)
    apply[1, 64](out, x, y)
    np.testing.assert_allclose(out, [hypot2.py_func(a, b) for a, b in zip(x, y)], rtol=1e-15)
    ptx = hypot2.inspect_asm((types.float64, types.float64))
    assert ".func" in ptx and "hypot2" in ptx and ".entry" not in ptx
    assert list(hypot2.inspect_asm().values()) == [ptx]


def test_compile_device_gives_the_compile_result_its_gpu_code_is_named_by(request):
    """numba-cuda's compile_device(args): the device function compiled for
    args now (callable from kernels as before), its compile result's
    fndesc.mangled_name the name its LLVM and PTX define it by."""
    @cuda.jit(device=True)
    def scaled_sum(x, y):
        return x + 2 * y

    @cuda.jit
    def apply(out, x, y):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = scaled_sum(x[i], y[i])

    i32 = (types.int32, types.int32)
    cres = scaled_sum.compile_device(i32)
    assert cres.argtypes == i32 and cres.return_type == types.int64 and scaled_sum.signatures == [i32]
    assert cres.fndesc.mangled_name == "scaled_sum" and cres.fndesc.qualname.endswith("scaled_sum")
    assert re.search(r"define .*@scaled_sum\(", scaled_sum.inspect_llvm(i32))
    assert re.search(r"\.func .*scaled_sum\(", scaled_sum.inspect_asm(i32))
    f32 = scaled_sum.compile_device((types.float32, types.float32), types.float32)
    assert f32.return_type == types.float32 and len(scaled_sum.signatures) == 2
    rng = make_rng(seed_of(request))
    x, y = rng.integers(-1000, 1000, 40).astype(np.int32), rng.integers(-1000, 1000, 40).astype(np.int32)
    out = np.zeros(40, np.int64)
    apply[1, 64](out, x, y)
    np.testing.assert_array_equal(out, [scaled_sum.py_func(a, b) for a, b in zip(x, y)])
    with pytest.raises(TypeError, match="not a cuda.jit\\(device=True\\) function"):
        ruchey.njit(lambda a: a).compile_device((types.int64,))


def test_njit_asm_stays_the_hosts():
    @ruchey.njit
    def twice(x):
        return x * 2
    assert twice(21) == twice.py_func(21)
    asm = twice.inspect_asm((types.int64,))
    assert ".visible" not in asm and ".target" not in asm


@pytest.mark.parametrize("lineinfo", [True, False])
def test_lineinfo_puts_the_lines_in_the_ptx(lineinfo, request):
    @cuda.jit(lineinfo=lineinfo)
    def cumulative(out, x):
        i = cuda.grid(1)
        if i < out.size:
            total = 0.0
            for j in range(i + 1):
                total += x[j]
            out[i] = total

    x = make_rng(seed_of(request)).normal(size=40)
    out = np.zeros(40)
    cumulative[2, 32](out, x)
    np.testing.assert_allclose(out, np.cumsum(x), rtol=1e-12)
    (ptx,) = cumulative.inspect_asm().values()
    assert (".loc" in ptx and ".file" in ptx) == lineinfo
    if lineinfo:
        first = cumulative.py_func.__code__.co_firstlineno
        lines = {int(n) for n in re.findall(r"\.loc\s+\d+\s+(\d+)", ptx)} - {0}  # (0: code of no line)
        assert lines and min(lines) >= first and max(lines) <= first + 7


def cost_model(expr, caller_info, callee_info):
    return True


@pytest.mark.parametrize("inline", ["always", "never", True, False, cost_model])
def test_inline_values(inline, request):
    @cuda.jit(device=True, inline=inline)
    def clamp(v, lo, hi):
        return min(max(v, lo), hi)

    @cuda.jit
    def clamp_all(out, x, lo, hi):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = clamp(x[i], lo, hi)

    rng = make_rng(seed_of(request))
    for dtype in (np.int32, np.float64):
        x = (rng.normal(size=30) * 10).astype(dtype)
        out = np.zeros_like(x)
        clamp_all[1, 32](out, x, dtype(-3), dtype(4))
        np.testing.assert_array_equal(out, [clamp.py_func(v, dtype(-3), dtype(4)) for v in x])


@pytest.mark.parametrize("inline", ["sometimes", "", 1, 0.5, None])
def test_inline_refuses_other_values(inline):
    with pytest.raises(ValueError, match="kwarg 'inline' must be one of the strings 'always' or 'never'"):
        cuda.jit(inline=inline)
    with pytest.raises(ValueError, match="kwarg 'inline'"):
        cuda.jit(device=True, inline=inline)(lambda x: x)


def launched_asm(kind):
    """A kernel (or device function) of each kind above, launched, and its inspect_asm() texts."""
    if kind == "device":
        @cuda.jit("int64(int64)", device=True)
        def triple(v):
            return 3 * v

        @cuda.jit
        def call(out):
            out[cuda.grid(1)] = triple(cuda.grid(1))
        out = np.zeros(32, np.int64)
        call[1, 32](out)
        np.testing.assert_array_equal(out, [triple.py_func(i) for i in range(32)])
        return list(triple.inspect_asm().values()) + list(call.inspect_asm().values())
    kernel = make_axpy() if kind == "plain" else cuda.jit(lineinfo=True)(make_axpy().py_func)
    for dtype in (np.float16, np.float32, np.float64, np.int8, np.uint64):
        x = np.arange(16).astype(dtype)
        out = np.zeros_like(x)
        kernel[1, 16](out, dtype(2), x, x)
        np.testing.assert_array_equal(out, (dtype(2) * x + x).astype(dtype))
    return list(kernel.inspect_asm().values())


@needs_ptxas
@pytest.mark.parametrize("kind", ["plain", "lineinfo", "device"])
def test_ptxas_assembles_the_asm(kind, tmp_path):
    texts = launched_asm(kind)
    assert texts
    for i, ptx in enumerate(texts):
        assert assembles(ptx, tmp_path, f"{kind}{i}") == ""


def test_compile_gives_the_kernel_of_a_signature(request):
    @cuda.jit(lineinfo=True)
    def shift(x, k):
        i = cuda.grid(1)
        if i < x.size:
            x[i] = x[i] + k

    sig = (types.float64[::1], types.int64)
    kernel = shift.compile(sig)
    assert list(shift.signatures) == [sig] and sig in shift.overloads
    ptx = kernel.inspect_asm()
    assert ptx == shift.inspect_asm(sig) and ".loc" in ptx
    assert ".target sm_80" in kernel.inspect_asm((8, 0))
    assert "define" in kernel.inspect_llvm() and "@shift" in kernel.inspect_llvm()  # (compiled again: new names)
    x = make_rng(seed_of(request)).normal(size=20)
    expected = x + 3
    shift[1, 32](x, 3)
    np.testing.assert_array_equal(x, expected)
    assert len(shift.signatures) == 1  # (the launch used the kernel compiled)
    with pytest.raises(TypeError, match="void return type"):
        shift.compile("float64(float64[::1], int64)")


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_kernel_llvm_is_the_gpus_module(dtype, request):
    """inspect_llvm() of a kernel or a device function is the GPU's module
    before optimisation (numba-cuda's: the IR its NVVM is given): NVPTX's
    triple, the thread's registers and warp intrinsics, the device function
    called by name."""
    @cuda.jit(device=True)
    def rotated(v, k):
        return cuda.shfl_sync(0xFFFFFFFF, v, (cuda.laneid + k) % 32)

    @cuda.jit
    def rotate(out, x, k):
        i = cuda.grid(1)
        out[i] = rotated(x[i], k)

    rng = make_rng(seed_of(request))
    x = (rng.normal(size=32) * 100).astype(dtype)
    k = int(rng.integers(0, 32))
    out = np.zeros_like(x)
    rotate[1, 32](out, x, k)
    np.testing.assert_array_equal(out, np.roll(x, -k))
    sig = (types.typeof(out), types.typeof(x), types.int64)
    ir = rotate.inspect_llvm(sig)
    assert ir == rotate.inspect_llvm()[sig] == rotate.overloads[sig].inspect_llvm()
    assert 'target triple = "nvptx64-nvidia-cuda"' in ir and "@llvm.nvvm.shfl.sync." in ir
    assert "@llvm.nvvm.read.ptx.sreg.tid.x" in ir and "x86" not in ir

    @cuda.jit(device=True)
    def twice(v):
        return v + v

    device_sig = (types.typeof(x[0]),)
    twice.compile(device_sig)
    device_ir = twice.inspect_llvm(device_sig)
    assert "nvptx64" in device_ir and "define" in device_ir and "@twice" in device_ir
    njit_ir = ruchey.njit(lambda a: a + 1)
    njit_ir(1)
    assert "nvptx" not in next(iter(njit_ir.inspect_llvm().values()))  # (an @njit function's: the host's)


def make_add():
    @cuda.jit(lineinfo=True)
    def add(x, y):
        i = cuda.grid(1)
        if i < len(x):
            x[i] += y[i]
    return add


def launched_add(request):
    add = make_add()
    rng = make_rng(seed_of(request.node.name))
    x, y = rng.normal(size=40).astype(np.float32), rng.integers(-9, 9, 40).astype(np.int32)
    expected = (x.astype(np.float64) + y).astype(np.float32)  # (the kernel adds in float64, stores float32)
    add[2, 32](x, y)
    np.testing.assert_array_equal(x, expected)
    return add, (types.float32[::1], types.int32[::1])


def fake_toolkit(tmp_path, monkeypatch, with_nvdisasm):
    """A CUDA toolkit of the real ptxas and, where asked, an nvdisasm that
    says what it was given (an ELF cubin) instead of disassembling it."""
    import os
    import shutil
    from conftest import PTXAS
    tools = tmp_path / "toolkit" / "bin"
    tools.mkdir(parents=True)
    (tools / "ptxas").symlink_to(PTXAS)
    if with_nvdisasm:
        (tools / "nvdisasm").write_text('#!/bin/sh\nprintf "flags=%s " "$1"; head -c 4 "$2" | tail -c 3; echo\n')
        (tools / "nvdisasm").chmod(0o755)
    monkeypatch.setenv("CUDA_HOME", str(tools.parent))
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.setenv("PATH", os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                                               if not (shutil.which("nvdisasm", path=p))))


@needs_ptxas
def test_inspect_sass_disassembles_the_ptx_assembled_by_ptxas(tmp_path, monkeypatch, request):
    add, sig = launched_add(request)
    fake_toolkit(tmp_path, monkeypatch, with_nvdisasm=True)
    assert add.inspect_sass(sig) == "flags=-gi ELF\n"  # (the cubin ptxas made, with line information asked)
    every = add.inspect_sass()
    assert len(every) == 1 and every[sig] == "flags=-gi ELF\n"
    assert add.overloads[sig].inspect_sass() == "flags=-gi ELF\n"


@needs_ptxas
def test_inspect_sass_without_nvdisasm_is_a_runtime_error(tmp_path, monkeypatch, request):
    add, sig = launched_add(request)
    fake_toolkit(tmp_path, monkeypatch, with_nvdisasm=False)
    with pytest.raises(RuntimeError, match="nvdisasm was not found"):
        add.inspect_sass(sig)


def test_inspect_sass_of_a_device_function_is_refused():
    @cuda.jit(device=True)
    def twice(v):
        return v + v

    twice.compile((types.int32,))
    with pytest.raises(RuntimeError, match="Cannot inspect SASS of a device function"):
        twice.inspect_sass((types.int32,))
    with pytest.raises(TypeError, match="not a kernel"):
        ruchey.njit(twice.py_func).inspect_sass()
