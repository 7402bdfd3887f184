"""Kernels and device functions compiled to PTX (cuda.compile_ptx) and
checked by the CUDA toolkit's ptxas for sm_80 and sm_90. Needs no GPU;
skipped without ptxas. (test_kernels.py checks the PTX of its own kernels.)"""
import math
import re

import numpy as np
import pytest

import ruchey
from ruchey import cuda, float32, float64, int32, int64

from conftest import AS_NUMBA, needs_ptxas, ptxas_errors, needs_libdevice

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")


def seed(io_arr):
    thread_x = cuda.threadIdx.x
    thread_y = cuda.blockIdx.x
    block_width = cuda.blockDim.x
    t_position = thread_x + thread_y * block_width
    if t_position < io_arr.size:
        io_arr[t_position] *= 2


def grid_stride(x, y, a):
    start = cuda.grid(1)
    for i in range(start, x.shape[0], cuda.gridsize(1)):
        y[i] = a * x[i] + y[i]


def two_d(a):
    x, y = cuda.grid(2)
    if x < a.shape[0] and y < a.shape[1]:
        a[x, y] = math.sqrt(x * 1.0 + y) + math.exp(-a[x, y])


def three_d(a):
    x, y, z = cuda.grid(3)
    if x < a.shape[0] and y < a.shape[1] and z < a.shape[2]:
        a[x, y, z] = x + 10 * y + 100 * z


def block_reduce(x, out):
    sh = cuda.shared.array(256, float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    sh[tid] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            sh[tid] += sh[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, sh[0])


def matmul(A, B, C):
    sA = cuda.shared.array((16, 16), float32)
    sB = cuda.shared.array((16, 16), float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tmp = float32(0.0)
    for i in range(cuda.gridDim.x):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and tx + i * 16 < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * 16]
        if x < B.shape[1] and ty + i * 16 < B.shape[0]:
            sB[ty, tx] = B[ty + i * 16, x]
        cuda.syncthreads()
        for j in range(16):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


def histogram(x, bins):
    i = cuda.grid(1)
    if i >= x.size:
        return
    cuda.atomic.add(bins, x[i] % bins.size, 1)
    cuda.atomic.max(bins, 0, x[i])


def local_and_dynamic(x, out):
    tmp = cuda.local.array(4, int64)
    dyn = cuda.shared.array(0, float32)
    i = cuda.grid(1)
    for k in range(4):
        tmp[k] = i * k
    dyn[cuda.threadIdx.x] = x[i % x.size]
    cuda.syncthreads()
    out[i % out.size] = tmp[3] + dyn[0]


@cuda.jit(device=True)
def clamp_square(v, lo, hi):
    r = v * v
    if r < lo:
        return lo
    if r > hi:
        return hi
    return r


@cuda.jit(device=True)
def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


@cuda.jit(device=True)
def block_total(sh, tid, n):
    cuda.syncthreads()
    s = n // 2
    while s > 0:
        if tid < s:
            sh[tid] += sh[tid + s]
        cuda.syncthreads()
        s //= 2
    return sh[0]


@cuda.jit(device=True)
def thread_index_and_scratch(a):
    tmp = cuda.local.array(3, float32)
    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    for k in range(3):
        tmp[k] = a[i % a.size] * k
    return i, tmp[2] + math.sin(tmp[1])


def calls_device_functions(x, out, lo, hi):
    sh = cuda.shared.array(128, float64)
    i = cuda.grid(1)
    tid = cuda.threadIdx.x
    sh[tid] = x[i] if i < x.size else 0.0
    t = block_total(sh, tid, cuda.blockDim.x)
    if i < x.size:
        out[i] = clamp_square(x[i], lo, hi) + t + factorial(i % 7)


def calls_a_device_function_with_arrays(a, out):
    i, v = thread_index_and_scratch(a)
    if i < out.size:
        out[i] = v


def every_scalar_type(out, b, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64):
    if cuda.grid(1) == 0 and b:
        out[0] = i8 + i16 + i32 + i64 + u8 + u16 + u32 + u64 + f32 + f64


KERNELS = [
    (seed, "void(float64[:])"),
    (grid_stride, "void(float32[::1], float32[::1], float32)"),
    (two_d, "void(float64[:, :])"),
    (three_d, "void(int32[:, :, :])"),
    (block_reduce, "void(float64[::1], float64[::1])"),
    (matmul, "void(float32[:, ::1], float32[:, ::1], float32[:, ::1])"),
    (histogram, "void(int64[::1], int64[::1])"),
    (local_and_dynamic, "void(float32[::1], int64[::1])"),
    (calls_device_functions, "void(float64[::1], float64[::1], float64, float64)"),
    (calls_a_device_function_with_arrays, "void(float32[:], float32[::1])"),
    (every_scalar_type, "void(float64[::1], boolean, int8, int16, int32, int64, uint8, uint16, "
                        "uint32, uint64, float32, float64)"),
]


def test_compile_ptx_returns_ptx_and_void():
    ptx, restype = cuda.compile_ptx(seed, "void(float64[:])", cc=(8, 0))
    assert ".target sm_80" in ptx and ".entry seed" in ptx
    assert repr(restype) == "none"


def test_newer_devices_get_sm_90_ptx():
    ptx, _ = cuda.compile_ptx(seed, "void(float64[:])", cc=(10, 0))
    assert ".target sm_90" in ptx


@needs_libdevice
def test_barriers_shared_memory_and_libdevice_appear_in_the_ptx():
    ptx, _ = cuda.compile_ptx(block_reduce, "void(float64[::1], float64[::1])", cc=(8, 0))
    assert "bar.sync" in ptx and ".shared" in ptx and "atom" in ptx
    ptx, _ = cuda.compile_ptx(two_d, "void(float64[:, :])", cc=(8, 0))
    assert "sqrt.rn.f64" in ptx and "call" not in ptx.split(".entry")[1]  # libdevice's exp inlined


def test_multiply_then_add_becomes_one_fused_multiply_add():
    # as nvcc and numba-cuda do by default; the CPU backend rounds twice
    ptx, _ = cuda.compile_ptx(grid_stride, "void(float64[::1], float64[::1], float64)", cc=(8, 0))
    body = ptx.split(".entry")[1]
    assert "fma.rn.f64" in body and "mul.rn.f64" not in body
    ptx, _ = cuda.compile_ptx(grid_stride, "void(float32[::1], float32[::1], float32)", cc=(8, 0))
    assert "fma.rn.f32" in ptx.split(".entry")[1]


def fast_math(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = np.sqrt(x[i]) / y[i] + np.sin(x[i]) * np.exp(y[i])


FAST_SIG = "void(float32[::1], float32[::1], float32[::1])"


def math_f32(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.sin(x[i]) * math.exp(x[i]) + math.sqrt(x[i])


@needs_libdevice
def test_fastmath_math_functions_keep_their_checks():
    # math.* checks its domain (a trap on the GPU): with fastmath too
    ptx, _ = cuda.compile_ptx(math_f32, "void(float32[::1], float32[::1])", cc=(8, 0),
                              fastmath=True)
    assert "sqrt.approx.ftz.f32" in ptx and "sin.approx.ftz.f32" in ptx and "trap" in ptx


@needs_libdevice
def test_math_on_float32_stays_float32_in_kernels():
    # as numba-cuda: __nv_sinf, not a float64 sin between two conversions
    ptx, _ = cuda.compile_ptx(math_f32, "void(float32[::1], float32[::1])", cc=(8, 0))
    body = ptx.split(".entry")[1]
    assert "sqrt.rn.f32" in body and "cvt.f64.f32" not in body and "sqrt.rn.f64" not in body


@needs_libdevice
def test_fastmath_uses_the_hardware_approximations():
    # as numba-cuda's fastmath: approximate float32 division, square root and
    # libdevice's fast functions, denormals flushed to zero
    fast = cuda.compile_ptx(fast_math, FAST_SIG, cc=(8, 0), fastmath=True)[0]
    exact = cuda.compile_ptx(fast_math, FAST_SIG, cc=(8, 0))[0]
    for op in ("div.approx.ftz.f32", "sqrt.approx.ftz.f32", "sin.approx.ftz.f32"):
        assert op in fast, op
    assert "div.rn.f32" in exact and "sqrt.rn.f32" in exact and "sin.approx" not in exact


def tanh_f32(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.tanh(x[i])


@needs_ptxas
def test_fastmath_tanh_of_float32_is_the_hardware_tanh_from_sm_75(tmp_path):
    # as numba-cuda's fastmath (libdevice has no fast tanh); the exact one is libdevice's. sm_75's PTX is
    # version 7.0 at least (LLVM's own choice there, 6.3, has no tanh.approx)
    sig = "void(float32[::1], float32[::1])"
    for cc in ((7, 5), (8, 0), (9, 0)):
        fast = cuda.compile_ptx(tanh_f32, sig, cc=cc, fastmath=True)[0]
        exact = cuda.compile_ptx(tanh_f32, sig, cc=cc)[0]
        assert "tanh.approx.f32" in fast and "tanh.approx" not in exact
        version = re.search(r"^\.version (\d+)\.(\d+)$", fast, re.M).groups()
        assert tuple(map(int, version)) >= (7, 0)
        assert ptxas_errors(fast, f"sm_{cc[0]}{cc[1]}", tmp_path, "tanh_f32") == ""
    x = np.linspace(-6, 6, 1001).astype(np.float32)  # on the CPU backend: the C library's
    out = np.zeros_like(x)
    cuda.jit(fastmath=True)(tanh_f32)[4, 256](x, out)
    np.testing.assert_allclose(out, np.tanh(x.astype(np.float64)), rtol=1e-3, atol=1e-6)


def builtin_min_max(x, y, lo, hi):
    i = cuda.grid(1)
    if i < lo.size:
        lo[i] = min(x[i], y[i])
        hi[i] = max(x[i], y[i])


@needs_ptxas
@pytest.mark.parametrize("xt, yt", [("float32", "float32"), ("float32", "float64"), ("float64", "float32"),
                                    ("float64", "float64")])
def test_min_max_of_two_floats_are_the_gpu_min_max(xt, yt, tmp_path):
    # as numba-cuda's (libdevice's fminf/fmax): one min.f32/max.f64 each, in the wider of the two types
    wide = "f32" if xt == yt == "float32" else "f64"
    out = "float32" if wide == "f32" else "float64"
    sig = f"void({xt}[::1], {yt}[::1], {out}[::1], {out}[::1])"
    ptx = cuda.compile_ptx(builtin_min_max, sig)[0]
    assert f"min.{wide}" in ptx and f"max.{wide}" in ptx and "selp" not in ptx
    assert ptxas_errors(ptx, "sm_75", tmp_path, "builtin_min_max") == ""
    rng = np.random.default_rng(7)  # on the CPU backend: Python's min and max
    x, y = rng.normal(size=300).astype(xt), rng.normal(size=300).astype(yt)
    y[::7] = x[::7]
    lo, hi = np.zeros(300, out), np.zeros(300, out)
    cuda.jit(builtin_min_max)[2, 256](x, y, lo, hi)
    ref_lo, ref_hi = np.zeros(300, out), np.zeros(300, out)
    for i in range(300):
        ref_lo[i], ref_hi[i] = min(x[i], y[i]), max(x[i], y[i])
    np.testing.assert_array_equal(lo, ref_lo)
    np.testing.assert_array_equal(hi, ref_hi)


def min_max_mixed(x, n, out):
    out[0] = min(x[0], n)
    out[1] = max(x[0], x[1], x[2])


@needs_ptxas
def test_min_max_beyond_two_floats_keep_python_order_on_the_gpu(tmp_path):
    # a float with an int, or three floats: Python's comparisons (numba-cuda's fminf is for two floats)
    ptx = cuda.compile_ptx(min_max_mixed, "void(float32[::1], int64, float64[::1])")[0]
    assert "min.f" not in ptx and "max.f" not in ptx
    assert ptxas_errors(ptx, "sm_75", tmp_path, "min_max_mixed") == ""


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_fastmath_kernels(arch, tmp_path):
    ptx, _ = cuda.compile_ptx(fast_math, FAST_SIG, cc=(int(arch[3]), int(arch[4])), fastmath=True)
    assert ptxas_errors(ptx, arch, tmp_path, "fast_math") == ""


@needs_ptxas
@pytest.mark.parametrize("kernel, sig", KERNELS, ids=[k.__name__ for k, _ in KERNELS])
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_every_kernel(kernel, sig, arch, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel, sig, cc=(int(arch[3]), int(arch[4])))
    assert ptxas_errors(ptx, arch, tmp_path, kernel.__name__) == ""


# ---------------------------------------------------------------- line tables

def loc_lines(ptx):
    """The source lines of the PTX's .loc directives (0: no line) and its .file names."""
    rows = [row.split() for row in ptx.splitlines() if row.strip()]
    return {int(row[2]) for row in rows if row[0] == ".loc"}, [row[2].strip('"') for row in rows if row[0] == ".file"]


@pytest.mark.parametrize("kernel, sig", KERNELS, ids=[k.__name__ for k, _ in KERNELS])
def test_lineinfo_puts_the_kernels_lines_in_the_ptx(kernel, sig):
    import inspect
    source, first = inspect.getsourcelines(kernel)
    body = set(range(first + 1, first + len(source)))
    plain, _ = cuda.compile_ptx(kernel, sig, cc=(8, 0))
    assert loc_lines(plain) == (set(), [])
    for options in ({"lineinfo": True}, {"debug": True}):
        lines, files = loc_lines(cuda.compile_ptx(kernel, sig, cc=(8, 0), **options)[0])
        assert lines & body and files == [__file__]
        assert all(0 <= line <= len(open(__file__).readlines()) for line in lines)


def test_lineinfo_of_a_device_function_alone():
    import inspect
    ptx, _ = cuda.compile_ptx(clamp_square.py_func, "float64(float64, float64, float64)", device=True, lineinfo=True)
    source, first = inspect.getsourcelines(clamp_square.py_func)
    lines, _ = loc_lines(ptx)
    assert lines - {0} and lines - {0} <= set(range(first, first + len(source)))


@needs_ptxas
@pytest.mark.parametrize("kernel, sig", KERNELS, ids=[k.__name__ for k, _ in KERNELS])
def test_ptxas_accepts_every_kernel_with_lineinfo(kernel, sig, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel, sig, cc=(9, 0), lineinfo=True)
    assert ptxas_errors(ptx, "sm_90", tmp_path, kernel.__name__) == ""


# ---------------------------------------------------------------- device functions

def test_a_kernel_holds_the_device_functions_it_calls():
    ptx, _ = cuda.compile_ptx(calls_device_functions,
                              "void(float64[::1], float64[::1], float64, float64)", cc=(8, 0))
    assert ptx.count(".entry") == 1 and "bar.sync" in ptx


def test_kernel_parameters_are_data_shape_strides_then_scalars():
    ptx, _ = cuda.compile_ptx(every_scalar_type, KERNELS[-1][1], cc=(8, 0))
    params = ptx.split(".entry every_scalar_type(")[1].split(")")[0]
    types = [line.split()[1] for line in params.strip().splitlines()]
    assert types == [".u64", ".u64", ".u64",  # out: data, shape[0], strides[0]
                     ".u8", ".u8", ".u16", ".u32", ".u64", ".u8", ".u16", ".u32", ".u64",
                     ".f32", ".f64"]


def test_compile_ptx_of_a_device_function_gives_a_func_and_its_return_type():
    ptx, restype = cuda.compile_ptx(clamp_square, "(float64, float64, float64)", device=True,
                                    cc=(8, 0))
    assert ".visible .func" in ptx and "clamp_square" in ptx and ".entry" not in ptx
    assert restype == ruchey.float64
    ptx, restype = cuda.compile_ptx(factorial, "int64(int64)", device=True, cc=(9, 0))
    assert restype == ruchey.int64 and ".target sm_90" in ptx


def test_compile_ptx_of_a_device_function_converts_to_a_declared_return_type():
    # as numba-cuda's (and @njit's with a signature): the result converted to the declared type
    # (float64 to int32 truncated, int32 + int32's int64 back to int32); what cannot be is a TypingError
    ptx, restype = cuda.compile_ptx(clamp_square, "int32(float64, float64, float64)", device=True)
    assert restype == ruchey.int32 and "cvt.rzi.s32.f64" in ptx and "func_retval0" in ptx
    _, restype = cuda.compile_ptx(lambda a, b: a + b, "int32(int32, int32)", device=True)
    assert restype == ruchey.int32
    with pytest.raises(ruchey.TypingError, match="returns .*but its signature declares int32"):
        cuda.compile_ptx(lambda a, b: (a, b), "int32(int32, int32)", device=True)


def test_device_function_returning_nothing_gives_void():
    def store(a, v):
        a[0] = v
    _, restype = cuda.compile_ptx(store, "(float32[::1], float32)", device=True)
    assert restype is ruchey.void


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_device_functions(arch, tmp_path):
    for func, sig in [(clamp_square, "(float64, float64, float64)"), (factorial, "(int64,)"),
                      (block_total, "(float64[::1], int64, int64)")]:
        ptx, _ = cuda.compile_ptx(func, sig, device=True, cc=(int(arch[3]), int(arch[4])))
        assert ptxas_errors(ptx, arch, tmp_path, func.__name__) == ""


def test_device_function_allocating_an_array_is_a_typing_error_on_the_gpu():
    @cuda.jit(device=True)
    def scratch(n):
        return np.zeros(n)[0]

    def kernel(out):
        out[0] = scratch(3)

    with pytest.raises(ruchey.TypingError, match="cannot allocate arrays"):
        cuda.compile_ptx(kernel, "void(float64[::1])")


@cuda.jit(device=True)
def ping(n):
    return 0 if n <= 0 else pong(n - 1)


@cuda.jit(device=True)
def pong(n):
    return 1 if n <= 0 else ping(n - 1)


def test_mutual_recursion_of_device_functions_is_a_typing_error_on_the_gpu():
    def kernel(out):
        out[0] = ping(5)

    with pytest.raises(ruchey.TypingError, match="mutual recursion"):
        cuda.compile_ptx(kernel, "void(int64[::1])")
