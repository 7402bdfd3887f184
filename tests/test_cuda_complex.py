"""complex64 and complex128 in CUDA kernels: arrays and scalar arguments,
arithmetic, abs, .real/.imag/.conjugate(), and the cmath functions
numba-cuda allows. On the CPU backend each result is checked against the
same computation in Python's cmath / NumPy; compiled to PTX, checked by
ptxas (in kernels cmath is computed inline, the same on both backends)."""
import cmath
import math

import numpy as np
import pytest

from ruchey import cuda

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, needs_libdevice


def points(n, seed, dtype=np.complex128):
    """Complex numbers in every quadrant, near the axes and the branch cuts too."""
    rng = make_rng(seed)
    z = (rng.uniform(-3, 3, n) + 1j * rng.uniform(-3, 3, n))
    z[: n // 8] = rng.uniform(-3, 3, n // 8)                  # real
    z[n // 8: n // 4] = 1j * rng.uniform(-3, 3, n // 4 - n // 8)  # imaginary
    return z.astype(dtype)


@cuda.jit
def arithmetic(a, b, s, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x + y * s
        out[i, 1] = x * y - s
        out[i, 2] = x / y
        out[i, 3] = -x + abs(y)
        out[i, 4] = x.conjugate() * 2
        out[i, 5] = complex(x.real, y.imag)
        out[i, 6] = x * 3 + 1.5


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_arithmetic_on_complex_arrays_and_scalars(dtype):
    n = 200
    a, b = points(n, 1, dtype), points(n, 2, dtype) + dtype(0.25 + 0.5j)
    s = dtype(1.5 - 0.5j)
    out = np.zeros((n, 7), dtype)
    arithmetic[(n + 63) // 64, 64](a, b, s, out)
    expected = np.stack([a + b * s, a * b - s, a / b, -a + np.abs(b), a.conjugate() * 2,
                         a.real + 1j * b.imag, a * 3 + 1.5], axis=1)
    rtol = 1e-12 if dtype == np.complex128 else 2e-6
    np.testing.assert_allclose(out, expected, rtol=rtol, atol=rtol)


@cuda.jit
def parts(z, re, im, mag):
    i = cuda.grid(1)
    if i < z.size:
        re[i] = z[i].real
        im[i] = z[i].imag
        mag[i] = abs(z[i])


@pytest.mark.parametrize("dtype, real", [(np.complex128, np.float64), (np.complex64, np.float32)])
def test_real_imag_abs(dtype, real):
    z = points(100, 3, dtype)
    re, im, mag = np.zeros(100, real), np.zeros(100, real), np.zeros(100, real)
    parts[2, 64](z, re, im, mag)
    np.testing.assert_array_equal(re, z.real)
    np.testing.assert_array_equal(im, z.imag)
    np.testing.assert_allclose(mag, np.abs(z), rtol=1e-6 if real is np.float32 else 1e-15)


@cuda.jit
def complex_accumulate(z, out):
    """A complex scalar kept in a variable across a loop and a barrier."""
    sh = cuda.shared.array(64, np.complex128)
    t = cuda.threadIdx.x
    acc = 0j
    for k in range(t + 1):
        acc += z[k] * 1j
    sh[t] = acc
    cuda.syncthreads()
    out[t] = sh[63 - t]


def test_complex_across_a_barrier_and_shared_memory():
    z = points(64, 4)
    out = np.zeros(64, np.complex128)
    complex_accumulate[1, 64](z, out)
    np.testing.assert_allclose(out, (np.cumsum(z) * 1j)[::-1], rtol=1e-12)


CMATH = ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan",
         "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]


def cmath_kernel(name):
    fn = getattr(cmath, name)

    def kernel(z, out):
        i = cuda.grid(1)
        if i < z.size:
            out[i] = fn(z[i])
    kernel.__name__ = f"cmath_{name}"
    return cuda.jit(kernel)


CMATH_KERNELS = {name: cmath_kernel(name) for name in CMATH}


@pytest.mark.parametrize("name", CMATH)
def test_cmath_functions_in_kernels(name):
    z = points(256, 5)
    if name in ("log", "log10"):
        z = z[z != 0]
    if name in ("atanh",):
        z = z[np.abs(np.abs(z) - 1) > 1e-3]
    if name in ("atan",):
        z = z[np.abs(np.abs(z) - 1) > 1e-3]
    out = np.zeros(z.size, np.complex128)
    CMATH_KERNELS[name][(z.size + 63) // 64, 64](z, out)
    expected = np.array([getattr(cmath, name)(complex(v)) for v in z])
    np.testing.assert_allclose(out, expected, rtol=1e-11, atol=1e-12, err_msg=name)


# cmath's functions whose result numba-cuda types complex128 for a complex64
# too (its overloads, as Numba's, go on in float64); the rest give complex64
WIDE = ("tanh", "acosh", "log10")


def cmath_result(name, dtype):
    """The result type of cmath.name of a dtype in a kernel, as numba-cuda types it."""
    return np.complex64 if dtype in (np.complex64, np.float32) and name not in WIDE else np.complex128


@pytest.mark.parametrize("name", CMATH)
@pytest.mark.parametrize("dtype", [np.complex64, np.float32, np.complex128, np.float64])
def test_cmath_result_type_is_numba_cudas(name, dtype):
    from ruchey import from_dtype
    fn = getattr(cmath, name)
    _, restype = cuda.compile_ptx(lambda z: fn(z), (from_dtype(np.dtype(dtype)),), device=True)
    assert restype == from_dtype(np.dtype(cmath_result(name, dtype)))


@pytest.mark.parametrize("name", ["sqrt", "exp", "log", "sin", "cos", "tanh", "asinh", "atan", "log10"])
def test_cmath_of_complex64_and_of_float32_is_pythons_rounded_to_its_type(name):
    z = points(64, 6, np.complex64)
    z = z[z != 0]
    x = np.linspace(0.1, 0.9, 16, dtype=np.float32)
    for values in (z, x):
        out = np.zeros(values.size, np.complex128)
        CMATH_KERNELS[name][1, 64](values, out)
        result = cmath_result(name, values.dtype.type)
        expected = np.array([getattr(cmath, name)(v.item()) for v in values])
        if result is np.complex64:  # computed in float64, then rounded once to complex64
            np.testing.assert_array_equal(out, out.astype(np.complex64))
            np.testing.assert_allclose(out, expected.astype(np.complex64), rtol=2e-7, atol=1e-30)
        else:
            np.testing.assert_allclose(out, expected, rtol=1e-11, atol=1e-12)


def test_cmath_at_large_arguments_and_special_points():
    z = np.array([30 + 0.5j, -30 - 2j, 400 + 1j, 0j, 1 + 0j, -1 + 0j, 1e-9 + 1e-9j, -2 + 0j, 2j, -1e3 + 1j])
    for name in ("tanh", "tan", "sqrt", "asinh", "acosh", "exp"):
        zz = z if name != "tan" else z * 1j
        if name == "exp":
            zz = zz[np.abs(zz.real) < 300]
        out = np.zeros(zz.size, np.complex128)
        CMATH_KERNELS[name][1, 16](zz, out)
        expected = np.array([getattr(cmath, name)(complex(v)) for v in zz])
        np.testing.assert_allclose(out, expected, rtol=1e-9, atol=1e-12, err_msg=name)


def same_parts(got, want):
    """Equal within 1e-12 relative, NaN matching NaN, zeros and infinities with their signs."""
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        if math.isnan(w) or math.isnan(g):
            if not (math.isnan(w) and math.isnan(g)):
                return False
        elif g == w == 0 or math.isinf(w):
            if g != w or math.copysign(1, g) != math.copysign(1, w):
                return False
        elif abs(g - w) > 1e-12 * abs(w):
            return False
    return True


@pytest.mark.parametrize("name", CMATH)
def test_cmath_where_a_part_is_infinite_nan_or_a_signed_zero_is_pythons(name):
    parts = [-math.inf, -2.5, -0.75, -0.0, 0.0, 0.75, 2.5, math.inf, math.nan]
    z = np.array([complex(a, b) for a in parts for b in parts])
    for dtype in (np.complex128, np.complex64):
        zz = z.astype(dtype)
        out = np.zeros(zz.size, np.complex128)
        CMATH_KERNELS[name][(zz.size + 63) // 64, 64](zz, out)
        for v, got in zip(zz, out):
            try:
                want = complex(cmath_result(name, dtype)(getattr(cmath, name)(complex(v))))
            except (ValueError, OverflowError):  # (a kernel gives an infinity or NaN there)
                continue
            assert same_parts(complex(got), want), (name, complex(v), complex(got), want)


def hard_points():
    """Finite arguments where the textbook formulas lose accuracy: near the
    branch points +-1 and +-i, tiny and huge parts (a square would
    underflow or overflow), and every mix of them."""
    mags = [1e-300, 1e-150, 1e-20, 1e-10, 1e-5, 0.5, 1 - 1e-12, 1.0, 1 + 1e-12, 2.0, 10.0, 1e5, 1e10, 1e20,
            1e150, 1e155, 1e300]
    return np.array([complex(sa * a, sb * b) for a in mags for b in mags + [0.0] for sa in (1, -1) for sb in (1, -1)]
                    + [complex(sb * b, sa * a) for a in mags for b in mags + [0.0] for sa in (1, -1) for sb in (1, -1)])


@pytest.mark.parametrize("name", CMATH)
def test_cmath_keeps_its_accuracy_near_branch_points_and_for_tiny_and_huge_parts(name):
    z = hard_points()
    out = np.zeros(z.size, np.complex128)
    CMATH_KERNELS[name][(z.size + 63) // 64, 64](z, out)
    for v, got in zip(z, out):
        try:
            want = getattr(cmath, name)(complex(v))
        except (ValueError, OverflowError):
            continue
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            if math.isinf(w) or math.isnan(w):
                assert g == w or (math.isnan(g) and math.isnan(w)), (name, v, got, want)
            else:  # each part within a few ulps of its own size
                assert abs(g - w) <= 4e-15 * abs(w) or abs(g - w) < 1e-307, (name, v, got, want)


@cuda.jit
def polar_phase_rect(z, out):
    i = cuda.grid(1)
    if i < z.size:
        r, phi = cmath.polar(z[i])
        out[i, 0] = r + cmath.phase(z[i]) * 1j
        out[i, 1] = cmath.rect(r, phi)
        out[i, 2] = cmath.isnan(z[i]) + 2 * cmath.isinf(z[i]) + 4 * cmath.isfinite(z[i])
        out[i, 3] = cmath.log(z[i], 2.0)


def test_polar_phase_rect_predicates_and_log_with_a_base():
    z = points(64, 7)
    z = z[z != 0]
    z[0], z[1] = complex(math.nan, 1), complex(1, math.inf)
    out = np.zeros((z.size, 4), np.complex128)
    polar_phase_rect[1, 64](z, out)
    for k, v in enumerate(z):
        v = complex(v)
        r, phi = cmath.polar(v)
        np.testing.assert_allclose(out[k, 0], r + phi * 1j, rtol=1e-15)
        assert out[k, 2] == cmath.isnan(v) + 2 * cmath.isinf(v) + 4 * cmath.isfinite(v)
        if k >= 2:
            np.testing.assert_allclose(out[k, 1], cmath.rect(r, phi), rtol=1e-14, atol=1e-14)
            np.testing.assert_allclose(out[k, 3], cmath.log(v, 2.0), rtol=1e-12, atol=1e-14)


@cuda.jit(device=True)
def rotate(z, angle):
    return z * cmath.exp(1j * angle)


@cuda.jit
def rotate_all(z, angle, out):
    i = cuda.grid(1)
    if i < z.size:
        out[i] = rotate(z[i], angle)


def test_complex_through_a_device_function():
    z = points(50, 8)
    out = np.zeros(50, np.complex128)
    rotate_all[1, 64](z, 0.75, out)
    np.testing.assert_allclose(out, z * np.exp(0.75j), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_a_complex_types_underlying_float_types_a_device_function(dtype):
    from ruchey import types
    tp = types.complex64 if dtype == np.complex64 else types.complex128
    assert tp.underlying_float == getattr(types, np.real(np.zeros(1, dtype)).dtype.name)
    imag = cuda.jit(tp.underlying_float(tp), device=True)(lambda z: z.imag)

    @cuda.jit
    def imaginary_parts(z, out):
        i = cuda.grid(1)
        if i < z.size:
            out[i] = imag(z[i])

    z = points(40, 9, dtype)
    out = np.zeros(40, np.real(z).dtype)
    imaginary_parts[1, 64](z, out)
    np.testing.assert_array_equal(out, z.imag)
    with pytest.raises(AttributeError):
        types.float32.underlying_float


# ---------------------------------------------------------------- PTX

PTX_CASES = [
    (arithmetic, "void(complex128[::1], complex128[::1], complex128, complex128[:, ::1])"),
    (arithmetic, "void(complex64[::1], complex64[::1], complex64, complex64[:, ::1])"),
    (parts, "void(complex64[::1], float32[::1], float32[::1], float32[::1])"),
    (complex_accumulate, "void(complex128[::1], complex128[::1])"),
    (polar_phase_rect, "void(complex128[::1], complex128[:, ::1])"),
    (rotate_all, "void(complex128[::1], float64, complex128[::1])"),
] + [(CMATH_KERNELS[name], "void(complex128[::1], complex128[::1])") for name in CMATH] + [
    (CMATH_KERNELS["exp"], "void(complex64[::1], complex128[::1])"),
    (CMATH_KERNELS["sqrt"], "void(complex64[::1], complex64[::1])"),
    (CMATH_KERNELS["acos"], "void(float32[::1], complex64[::1])"),
    (polar_phase_rect, "void(complex64[::1], complex64[:, ::1])"),
]


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("kernel, sig", PTX_CASES, ids=[f"{k.__name__}-{i}" for i, (k, _) in enumerate(PTX_CASES)])
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_complex_kernels(kernel, sig, arch, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(int(arch[3]), int(arch[4])))
    assert ptxas_errors(ptx, arch, tmp_path, kernel.__name__) == ""


@needs_libdevice
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_cmath_in_ptx_calls_libdevice_not_the_runtime():
    ptx, _ = cuda.compile_ptx(CMATH_KERNELS["asinh"].py_func, "void(complex128[::1], complex128[::1])", cc=(8, 0))
    assert "rt_cmath" not in ptx and ".entry" in ptx
