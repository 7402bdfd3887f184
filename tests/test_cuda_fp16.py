"""float16 in CUDA kernels: float16 arrays as arguments, shared and local
arrays of float16, the operators, conversions and comparisons, shuffles,
and numba-cuda's cuda.fp16 intrinsics. On the CPU backend every result
is compared with NumPy's float16 computation (arithmetic rounded once to
float16, as the GPU's half instructions round), bit for bit, with
infinities, NaN, signed zeros and subnormals among the values; the
functions computed in float32 and rounded are compared with NumPy's
float32 within one float16 step. Compiled to PTX, each kernel is
assembled by ptxas for sm_90."""
import math

import numpy as np
import pytest

import ruchey
from ruchey import cuda, float16

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors

SPECIAL = [0.0, -0.0, 1.0, -1.0, 65504.0, -65504.0, 6.1e-5, 6e-8, -6e-8, np.inf, -np.inf, np.nan, 0.5, 2048.0]


def halves(seed, n=256, scale=20.0):
    rng = make_rng(seed)
    a = (rng.normal(size=n) * scale).astype(np.float16)
    a[: len(SPECIAL)] = SPECIAL
    rng.shuffle(a)
    return a


def same_bits(got, want):
    """Equal float16 bits, any NaN matching any NaN."""
    got, want = np.asarray(got, np.float16), np.asarray(want, np.float16)
    both_nan = np.isnan(got) & np.isnan(want)
    return got.shape == want.shape and bool(np.all(both_nan | (got.view(np.uint16) == want.view(np.uint16))))


def within_one_step(got, want):
    """float16 values at most one float16 step apart (NaN with NaN, infinities equal)."""
    got, want = np.asarray(got, np.float16), np.asarray(want, np.float16)
    nan = np.isnan(got) | np.isnan(want)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    g, w = got[~nan].astype(np.float64), want[~nan].astype(np.float64)
    differ = g != w
    g, w = g[differ], w[differ]
    step = np.spacing(np.maximum(np.abs(g), np.abs(w)).astype(np.float16)).astype(np.float64)
    return bool(np.all(np.isfinite(g) & np.isfinite(w) & (np.abs(g - w) <= step)))


def quiet(f, *args):
    with np.errstate(all="ignore"):
        return f(*args)


def launch(kernel, n, *args):
    kernel[(n + 63) // 64, 64](*args)


# ---------------------------------------------------------------- the intrinsics

@cuda.jit
def arithmetic(a, b, c, out):
    i = cuda.grid(1)
    if i < a.size:
        x, y, z = a[i], b[i], c[i]
        out[0, i] = cuda.fp16.hadd(x, y)
        out[1, i] = cuda.fp16.hsub(x, y)
        out[2, i] = cuda.fp16.hmul(x, y)
        out[3, i] = cuda.fp16.hdiv(x, y)
        out[4, i] = cuda.fp16.hfma(x, y, z)
        out[5, i] = cuda.fp16.hneg(x)
        out[6, i] = cuda.fp16.habs(x)


def arithmetic_numpy(a, b, c):
    fma = (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(np.float16)
    return [a + b, a - b, a * b, a / b, fma, -a, np.abs(a)]


@pytest.mark.parametrize("seed", range(4))
def test_arithmetic_intrinsics_round_as_numpy_float16(seed):
    a, b, c = halves(seed), halves(seed + 10, scale=3.0), halves(seed + 20, scale=50.0)
    out = np.zeros((7, a.size), np.float16)
    launch(arithmetic, a.size, a, b, c, out)
    for k, want in enumerate(quiet(arithmetic_numpy, a, b, c)):
        assert same_bits(out[k], want), ["hadd", "hsub", "hmul", "hdiv", "hfma", "hneg", "habs"][k]


def test_hfma_rounds_once():
    # 0.75 * 1.333984375 = 1 + 2**-11 exactly, halfway between two halves:
    # the tiny c decides the rounding, as a fused multiply-add does
    a = np.full(4, 0.75, np.float16)
    b = np.full(4, 1.333984375, np.float16)
    c = np.array([6e-8, -6e-8, 0.0, 2.0 ** -11], np.float16)
    out = np.zeros((7, 4), np.float16)
    launch(arithmetic, 4, a, b, c, out)
    want = (a.astype(np.float64) * b + c.astype(np.float64)).astype(np.float16)
    assert same_bits(out[4], want)
    assert out[4, 0] > 1.0 and out[4, 1] == 1.0 and out[4, 2] == 1.0


@cuda.jit
def functions(a, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        out[0, i] = cuda.fp16.hsqrt(x)
        out[1, i] = cuda.fp16.hrsqrt(x)
        out[2, i] = cuda.fp16.hrcp(x)
        out[3, i] = cuda.fp16.hfloor(x)
        out[4, i] = cuda.fp16.hceil(x)
        out[5, i] = cuda.fp16.hrint(x)
        out[6, i] = cuda.fp16.htrunc(x)
        out[7, i] = cuda.fp16.hsin(x)
        out[8, i] = cuda.fp16.hcos(x)
        out[9, i] = cuda.fp16.hlog(x)
        out[10, i] = cuda.fp16.hlog10(x)
        out[11, i] = cuda.fp16.hlog2(x)
        out[12, i] = cuda.fp16.hexp(x)
        out[13, i] = cuda.fp16.hexp10(x)
        out[14, i] = cuda.fp16.hexp2(x)


def functions_numpy(a):
    f = a.astype(np.float32)
    exact = [np.sqrt(f), np.float32(1) / np.sqrt(f), np.float32(1) / f, np.floor(f), np.ceil(f), np.rint(f), np.trunc(f)]
    rounded = [np.sin(f), np.cos(f), np.log(f), np.log10(f), np.log2(f), np.exp(f), np.power(np.float32(10), f),
               np.exp2(f)]
    return [x.astype(np.float16) for x in exact], [x.astype(np.float16) for x in rounded]


@pytest.mark.parametrize("seed, scale", [(0, 4.0), (1, 20.0), (2, 0.5)])
def test_function_intrinsics_as_numpy_float32_rounded(seed, scale):
    a = halves(seed, scale=scale)
    out = np.zeros((15, a.size), np.float16)
    launch(functions, a.size, a, out)
    exact, rounded = quiet(functions_numpy, a)
    for k, want in enumerate(exact):
        assert same_bits(out[k], want), k
    for k, want in enumerate(rounded, start=len(exact)):
        assert within_one_step(out[k], want), k


@cuda.jit
def comparisons(a, b, flags, out):
    i = cuda.grid(1)
    if i < a.size:
        x, y = a[i], b[i]
        flags[0, i] = cuda.fp16.heq(x, y)
        flags[1, i] = cuda.fp16.hne(x, y)
        flags[2, i] = cuda.fp16.hgt(x, y)
        flags[3, i] = cuda.fp16.hge(x, y)
        flags[4, i] = cuda.fp16.hlt(x, y)
        flags[5, i] = cuda.fp16.hle(x, y)
        out[0, i] = cuda.fp16.hmax(x, y)
        out[1, i] = cuda.fp16.hmin(x, y)


@pytest.mark.parametrize("seed", range(3))
def test_comparisons_and_max_min(seed):
    a, b = halves(seed, scale=2.0), halves(seed + 5, scale=2.0)
    b[::7] = a[::7]  # some equal pairs
    flags, out = np.zeros((6, a.size), np.bool_), np.zeros((2, a.size), np.float16)
    launch(comparisons, a.size, a, b, flags, out)
    for k, want in enumerate([a == b, a != b, a > b, a >= b, a < b, a <= b]):
        np.testing.assert_array_equal(flags[k], want)
    assert same_bits(out[0], np.where(a > b, a, b))  # numba-cuda's: a if a > b else b
    assert same_bits(out[1], np.where(a < b, a, b))


def test_intrinsics_take_other_numbers_as_float16():
    @cuda.jit
    def k(x, n, out):
        out[0] = cuda.fp16.hadd(x, n)
        out[1] = cuda.fp16.hmul(2, x)
        out[2] = cuda.fp16.hsqrt(n)
    out = np.zeros(3, np.float16)
    k[1, 1](1.1, 3, out)
    h = np.float16(1.1)
    assert same_bits(out, [h + np.float16(3), np.float16(2) * h, np.sqrt(np.float16(3))])


def test_intrinsics_in_device_functions():
    @cuda.jit(device=True)
    def axpy(a, x, y):
        return cuda.fp16.hfma(a, x, y)

    @cuda.jit
    def k(x, y, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = axpy(np.float16(1.5), x[i], y[i])
    x, y = halves(7, scale=4.0), halves(8, scale=4.0)
    out = np.zeros_like(x)
    launch(k, x.size, x, y, out)
    want = quiet(lambda: (1.5 * x.astype(np.float64) + y.astype(np.float64)).astype(np.float16))
    assert same_bits(out, want)


# ---------------------------------------------------------------- float16 without the intrinsics

@cuda.jit
def operators(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x, y = a[i], b[i]
        out[0, i] = x + y
        out[1, i] = x * y - x
        out[2, i] = x / y
        out[3, i] = -x
        out[4, i] = abs(x)
        out[5, i] = x if x > y else y
        s = x
        s += y
        out[6, i] = s


def test_operators_on_float16_round_each_result_as_numpy():
    a, b = halves(11), halves(12, scale=3.0)
    out = np.zeros((7, a.size), np.float16)
    launch(operators, a.size, a, b, out)
    want = quiet(lambda: [a + b, a * b - a, a / b, -a, np.abs(a), np.where(a > b, a, b), a + b])
    for k, w in enumerate(want):
        assert same_bits(out[k], w), k


@cuda.jit
def math_functions(a, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        out[0, i] = math.fabs(x)
        out[1, i] = math.trunc(x)
        out[2, i] = math.log2(x)
        out[3, i] = math.log10(x)
        out[4, i] = math.log(x)


@cuda.jit
def exp2_function(a, out):  # (math.exp2: Python 3.11 on)
    i = cuda.grid(1)
    if i < a.size:
        out[i] = math.exp2(a[i])


def positive_halves():
    """float16 values within each function's domain and range (outside, math raises CPython's errors)."""
    a = np.abs(halves(15, scale=4.0))
    return a[np.isfinite(a) & (a > 0) & (a < 15)]


def test_math_functions_of_float16_as_numpy_float16():
    a = positive_halves()
    out = np.zeros((5, a.size), np.float16)
    launch(math_functions, a.size, a, out)
    assert same_bits(out[0], np.fabs(a)) and same_bits(out[1], np.trunc(a))
    for k, f in enumerate([np.log2, np.log10, np.log], start=2):
        assert within_one_step(out[k], f(a)), k


@pytest.mark.skipif(not hasattr(math, "exp2"), reason="math.exp2 is Python 3.11's")
def test_math_exp2_of_float16_as_numpy_float16():
    a = positive_halves()
    out = np.zeros(a.size, np.float16)
    launch(exp2_function, a.size, a, out)
    assert within_one_step(out, np.exp2(a))


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's kernels keep CPython's math errors")
def test_math_functions_of_float16_outside_their_domain_raise():
    with pytest.raises(ValueError, match="math domain error|expected a positive input"):
        launch(math_functions, 1, np.array([-1.0], np.float16), np.zeros((5, 1), np.float16))


@cuda.jit
def conversions(a, f32, f64, ints, back):
    i = cuda.grid(1)
    if i < a.size:
        h = a[i]
        f32[i] = h
        f64[i] = float(h)
        ints[i] = int(h) if not math.isinf(h) and not math.isnan(h) else 0
        back[0, i] = np.float16(f64[i] * 3.0)
        back[1, i] = f32[i] * np.float32(0.1)


def test_conversions_to_and_from_float16():
    a = halves(13, scale=1000.0)
    f32, f64 = np.zeros(a.size, np.float32), np.zeros(a.size)
    ints, back = np.zeros(a.size, np.int64), np.zeros((2, a.size), np.float16)
    launch(conversions, a.size, a, f32, f64, ints, back)
    np.testing.assert_array_equal(f32, a.astype(np.float32))
    np.testing.assert_array_equal(f64, a.astype(np.float64))
    finite = np.isfinite(a)
    np.testing.assert_array_equal(ints[finite], a[finite].astype(np.int64))
    assert same_bits(back[0], quiet(lambda: (a.astype(np.float64) * 3.0).astype(np.float16)))
    assert same_bits(back[1], quiet(lambda: (a.astype(np.float32) * np.float32(0.1)).astype(np.float16)))


@cuda.jit
def numpy_int_casts(a, i32, u8, back):
    i = cuda.grid(1)
    if i < a.size:
        i32[i] = np.int32(a[i])
        u8[i] = np.uint8(a[i])
        back[i] = np.float16(i32[i])


def test_numpy_int_casts_of_float16_round_to_nearest_as_numba_cuda():
    a = halves(17, scale=50.0)  # numba-cuda's cvt.rni: to the nearest int, ties to even (int(h) truncates)
    a = np.concatenate([a[np.isfinite(a) & (np.abs(a) < 250)], np.float16([2.5, 3.5, -2.5, 0.5, 1.5, 254.5])])
    i32, u8, back = np.zeros(a.size, np.int32), np.zeros(a.size, np.uint8), np.zeros(a.size, np.float16)
    launch(numpy_int_casts, a.size, a, i32, u8, back)
    nearest = np.rint(a.astype(np.float64))
    np.testing.assert_array_equal(i32, nearest.astype(np.int32))
    keep = nearest >= 0
    np.testing.assert_array_equal(u8[keep], nearest[keep].astype(np.uint8))
    np.testing.assert_array_equal(back, nearest.astype(np.int32).astype(np.float16))


@cuda.jit
def shared_and_local(a, out):
    sh = cuda.shared.array(64, np.float16)
    loc = cuda.local.array(2, float16)
    t = cuda.threadIdx.x
    sh[t] = a[t]
    cuda.syncthreads()
    loc[0] = sh[63 - t]
    loc[1] = cuda.fp16.hadd(loc[0], sh[t])
    out[0, t] = loc[1]
    out[1, t] = cuda.shfl_down_sync(0xFFFFFFFF, loc[0], 1)
    out[2, t] = cuda.shfl_xor_sync(0xFFFFFFFF, loc[0], 3)


def test_shared_and_local_arrays_and_shuffles_of_float16():
    a = halves(14, n=64)
    out = np.zeros((3, 64), np.float16)
    shared_and_local[1, 64](a, out)
    r = a[::-1]
    assert same_bits(out[0], quiet(lambda: r + a))
    lanes = np.arange(64) % 32
    down = np.where(lanes + 1 < 32, np.roll(r, -1), r)
    assert same_bits(out[1], down)
    assert same_bits(out[2], r[(np.arange(64) - lanes) + (lanes ^ 3)])


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("call, message", [
    ("cuda.fp16.hadd(x, a)", r"cuda.fp16.hadd\(\) takes float16 numbers, got array"),
    ("cuda.fp16.hsin(True)", r"cuda.fp16.hsin\(\) takes float16 numbers, got bool"),
    ("cuda.fp16.hmax(x, 1j)", r"cuda.fp16.hmax\(\) does not support complex numbers"),
    ("cuda.fp16.heq(x, (x, x))", r"cuda.fp16.heq\(\) takes float16 numbers, got"),
    ("cuda.fp16.hfma(x, x)", r"hfma"),
    ("cuda.atomic.add(a, 0, x)", r"cuda.atomic.add\(\) does not support float16"),
    ("cuda.fp16.hpow(x, x)", r"'cuda.fp16' has no attribute 'hpow'"),
])
def test_bad_arguments_are_typing_errors(call, message):
    ns = {"cuda": cuda}
    exec(f"def k(a):\n    x = a[0]\n    a[1] = {call}\n", ns)
    kernel = cuda.jit(ns["k"])
    with pytest.raises(ruchey.TypingError, match=message):
        kernel[1, 1](np.zeros(4, np.float16))


def test_intrinsics_outside_kernels_raise():
    with pytest.raises(RuntimeError, match="only valid inside a @cuda.jit kernel"):
        cuda.fp16.hadd(np.float16(1), np.float16(2))


def test_float16_is_supported():
    assert cuda.is_float16_supported() is True


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's types")
def test_bfloat16_and_fp8_are_not_supported():
    assert cuda.is_bfloat16_supported() is False and cuda.is_fp8_supported() is False
    assert not hasattr(cuda, "bf16")


# ---------------------------------------------------------------- PTX

PTX_KERNELS = [
    (arithmetic, "void(float16[::1], float16[::1], float16[::1], float16[:, ::1])"),
    (functions, "void(float16[::1], float16[:, ::1])"),
    (comparisons, "void(float16[::1], float16[::1], boolean[:, ::1], float16[:, ::1])"),
    (operators, "void(float16[::1], float16[::1], float16[:, ::1])"),
    (math_functions, "void(float16[::1], float16[:, ::1])"),
    *([(exp2_function, "void(float16[::1], float16[::1])")] if hasattr(math, "exp2") else []),
    (conversions, "void(float16[::1], float32[::1], float64[::1], int64[::1], float16[:, ::1])"),
    (shared_and_local, "void(float16[::1], float16[:, ::1])"),
    (numpy_int_casts, "void(float16[::1], int32[::1], uint8[::1], float16[::1])"),
]


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("kernel, sig", PTX_KERNELS, ids=[k.__name__ for k, _ in PTX_KERNELS])
def test_ptxas_accepts_float16_kernels(kernel, sig, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0))
    assert ptxas_errors(ptx, "sm_90", tmp_path, kernel.__name__) == ""


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def half_to_int8(h):
    return np.int8(h)


def half_to_uint16(h):
    return np.uint16(h)


def half_to_int32(h):
    return np.int32(h)


def half_to_uint64(h):
    return np.uint64(h)


def number_to_half(v):
    return np.float16(v)


@pytest.mark.parametrize("convert, name, bits", [(half_to_int8, "int8", 8), (half_to_uint16, "uint16", 16),
                                                 (half_to_int32, "int32", 32), (half_to_uint64, "uint64", 64)])
def test_gpu_converts_float16_and_ints_in_one_cvt(convert, name, bits):
    kind = name[0] if name[0] == "u" else "s"  # numba-cuda's: to the nearest int (cvt.rni), as its PTX
    ptx, _ = cuda.compile_ptx(convert, (float16,), device=True)
    assert f"cvt.rni.{kind}{bits}.f16" in ptx
    ptx, _ = cuda.compile_ptx(number_to_half, (getattr(ruchey, name),), device=True)
    assert f"cvt.rn.f16.{kind}{bits}" in ptx


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_gpu_arithmetic_is_native_half_never_fused():
    ptx, _ = cuda.compile_ptx(arithmetic.py_func, PTX_KERNELS[0][1], cc=(9, 0))
    for insn in ("add.rn.f16", "sub.rn.f16", "mul.rn.f16", "fma.rn.f16", "neg.f16", "abs.f16"):
        assert insn in ptx, insn
    assert "ld.global.b16" in ptx or "ld.global.u16" in ptx
