"""numpy.fft in compiled code: the transforms (over lib/pocketfft.c), fftshift,
ifftshift, fftfreq and rfftfreq, each checked against its Python original on
generated inputs of every layout; bad arguments give NumPy's exceptions."""
import numpy as np
import pytest

import ruchey
from arraygen import define as arraygen_define
from conftest import AS_NUMBA, make_rng, numpy2_only, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="Numba has no numpy.fft of its own (rocket-fft adds it)")

ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_AXES = ["fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn", "irfftn"]
REAL_INPUT = {"rfft", "ihfft", "rfft2", "rfftn"}
DTYPES = [np.float32, np.float64, np.complex64, np.complex128, np.int32]


def define(src, **env):
    """src compiled as a file of its own (arraygen's: a name of its own in
    linecache), its function f"""
    return arraygen_define(src, env=env)


def values(rng, dtype, shape):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return rng.integers(-50, 50, size=shape).astype(dtype)
    x = rng.standard_normal(shape)
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def layouts(rng, dtype, allowed_complex=True):
    """1-d, 2-d and 3-d inputs: C, Fortran, strided and reversed; lines
    more than a batch (8) of them deep, and not a multiple of it."""
    base = values(rng, dtype, (7, 6, 5))
    yield "1d", values(rng, dtype, 9)
    yield "1d-even", values(rng, dtype, 8)
    yield "2d-C", values(rng, dtype, (5, 6))
    yield "2d-wide", values(rng, dtype, (4, 19))
    yield "3d-wide-strided", values(rng, dtype, (3, 4, 22))[:, ::-1, 1:]
    yield "2d-F", np.asfortranarray(values(rng, dtype, (6, 5)))
    yield "2d-reversed", values(rng, dtype, (5, 7))[::-1, ::-1]
    yield "3d-strided", base[::2, 1:, ::2]
    yield "3d-F", np.asfortranarray(base)


def close(expected, got, what):
    """The dtype NumPy gives, values within an FFT's rounding: a few ulps of
    the result's size times the transform's depth (pocketfft's C and NumPy 2's
    C++ round differently in the last bits; float32 NumPy 2 computes in single
    precision, ruchey in double rounded to single)."""
    expected, got = np.asarray(expected), np.asarray(got)
    assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype} != {expected.dtype}"
    assert got.shape == expected.shape, f"{what}: shape {got.shape} != {expected.shape}"
    if expected.size == 0:
        return
    eps = np.finfo(expected.dtype).eps
    scale = max(1.0, float(np.abs(expected).max()))
    depth = np.log2(max(expected.shape) + 2)
    np.testing.assert_allclose(got, expected, rtol=16 * eps, atol=16 * eps * depth * scale, err_msg=what)


def lengths(m):
    """n=None, an odd n below the axis's length and an even one above it"""
    return [None, max(1, m - 2) | 1, 2 * m + 2]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ONE_AXIS)
def test_one_axis_transform_matches_numpy(name, dtype):
    if name in REAL_INPUT and np.dtype(dtype).kind == "c":
        pytest.skip("real input only")
    f = define(f"@ruchey.njit\ndef f(a, n, axis):\n    return np.fft.{name}(a, n, axis)\n")
    rng = make_rng(seed_of("fft", name, np.dtype(dtype).name))
    for what, a in layouts(rng, dtype):
        for axis in ([-1, 0] if a.ndim > 1 else [0]):
            for n in lengths(a.shape[axis]):
                if n is None and name in ("irfft", "hfft") and a.shape[axis] == 1:
                    continue
                close(f.py_func(a, n, axis), f(a, n, axis), f"{name} {what} n={n} axis={axis}")


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
@pytest.mark.parametrize("name", ONE_AXIS + N_AXES)
def test_every_norm(name, norm):
    f = define(f"@ruchey.njit\ndef f(a):\n    return np.fft.{name}(a, norm={norm!r})\n")
    rng = make_rng(seed_of("norm", name, norm))
    dtype = np.float64 if name in REAL_INPUT else np.complex128
    for shape in [(6, 5), (5, 8)]:
        a = values(rng, dtype, shape)
        close(f.py_func(a), f(a), f"{name} norm={norm} {shape}")


# s and axes as NumPy's n-d functions take them (s without axes: the last len(s) axes)
ND_CASES = [
    ("", ()),
    ("s=s", ("s",)),
    ("axes=axes", ("axes",)),
    ("s=s, axes=axes", ("s", "axes")),
]


@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.int64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", N_AXES)
def test_n_axes_transform_matches_numpy(name, dtype):
    if name in REAL_INPUT and np.dtype(dtype).kind == "c":
        pytest.skip("real input only")
    rng = make_rng(seed_of("fftn", name, np.dtype(dtype).name))
    for call, params in ND_CASES:
        if name.endswith("n") and params == ("s",):
            continue  # NumPy 2 deprecates s without axes for fftn and kin (fft2's default axes stay)
        sig = ", ".join(("a",) + params)
        f = define(f"@ruchey.njit\ndef f({sig}):\n    return np.fft.{name}(a{', ' if call else ''}{call})\n")
        for what, a in layouts(rng, dtype):
            if a.ndim < 2:
                continue
            for axes in [(0, 1), (-1, 0), (1, 0)] if a.ndim == 2 else [(0, 2), (2, 1, 0), (-1, -2)]:
                if params == ("s",) and len(axes) != 2:
                    continue  # fft2's s without axes: its two last axes
                args = {"s": tuple(a.shape[ax] + d for ax, d in zip(axes, (1, -1, 2))), "axes": axes}
                got_args = [args[p] for p in params]
                close(f.py_func(a, *got_args), f(a, *got_args), f"{name}({call}) {what} {got_args}")


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float32, np.complex128])
def test_fftshift_matches_numpy(name, dtype):
    rng = make_rng(seed_of("shift", name, np.dtype(dtype).name))
    for call in ["", "axes=0", "axes=-1", "axes=(0, -1)", "axes=(1, 1)"]:
        f = define(f"@ruchey.njit\ndef f(a):\n    return np.fft.{name}(a{', ' if call else ''}{call})\n")
        for what, a in layouts(rng, dtype):
            if a.ndim == 1 and call not in ("", "axes=0", "axes=-1"):
                continue
            got, expected = f(a), f.py_func(a)
            assert got.dtype == expected.dtype
            np.testing.assert_array_equal(got, expected, err_msg=f"{name}({call}) {what}")


@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_fftfreq_matches_numpy(name):
    f = define(f"@ruchey.njit\ndef f(n, d):\n    return np.fft.{name}(n, d)\n")
    g = define(f"@ruchey.njit\ndef f(n):\n    return np.fft.{name}(n)\n")
    for n in range(1, 12):
        np.testing.assert_array_equal(g(n), g.py_func(n))
        for d in (1.0, 0.25, 3, -0.1):
            got, expected = f(n, d), f.py_func(n, d)
            assert got.dtype == expected.dtype
            np.testing.assert_array_equal(got, expected)


def test_inside_prange():
    @ruchey.njit(parallel=True)
    def f(a):
        out = np.empty((a.shape[0], a.shape[1] // 2 + 1), dtype=np.complex128)
        for i in ruchey.prange(a.shape[0]):
            out[i] = np.fft.rfft(a[i]) + np.fft.fft(a[i])[: a.shape[1] // 2 + 1]
        return out

    a = make_rng(3).standard_normal((64, 30))
    close(f.py_func(a), f(a), "prange")


def test_round_trip_in_compiled_code():
    @ruchey.njit
    def f(a):
        return np.fft.ifftn(np.fft.fftn(a)).real, np.fft.irfft(np.fft.rfft(a[0]), a.shape[1])

    a = make_rng(4).standard_normal((6, 9))
    x, y = f(a)
    np.testing.assert_allclose(x, a, atol=1e-13)
    np.testing.assert_allclose(y, a[0], atol=1e-13)


@numpy2_only
def test_minus_one_in_s_is_the_axis_length():
    f = define("@ruchey.njit\ndef f(a, s):\n    return np.fft.irfftn(a, s, axes=(0, 1)), np.fft.fftn(a, s, axes=(1, 0))\n")
    a = values(make_rng(5), np.complex128, (3, 5))
    for s in [(-1, 6), (4, -1), (-1, -1)]:
        for got, expected in zip(f(a, s), f.py_func(a, s)):
            close(expected, got, f"s={s}")


def test_bool_and_unsigned_inputs():
    f = define("@ruchey.njit\ndef f(a):\n    return np.fft.fft(a), np.fft.rfft2(a), np.fft.fftshift(a)\n")
    rng = make_rng(6)
    for a in (rng.integers(0, 2, (4, 5)).astype(np.bool_), rng.integers(0, 200, (5, 3)).astype(np.uint8)):
        for got, expected in zip(f(a), f.py_func(a)):
            close(expected, got, str(a.dtype)) if expected.dtype.kind == "c" else np.testing.assert_array_equal(got, expected)


# ---------------------------------------------------------------- bad arguments

def raises_as_numpy(f, *args):
    with pytest.raises(Exception) as expected:
        f.py_func(*args)
    with pytest.raises(expected.type) as got:
        f(*args)
    assert str(got.value) == str(expected.value)


def test_bad_lengths_raise_numpys_value_error():
    f = define("@ruchey.njit\ndef f(a, n):\n    return np.fft.fft(a, n)\n")
    g = define("@ruchey.njit\ndef f(a):\n    return np.fft.irfft(a)\n")
    h = define("@ruchey.njit\ndef f(a, s):\n    return np.fft.rfftn(a, s, axes=(0, 1))\n")
    a = np.ones(4)
    for n in (0, -1, -7):
        raises_as_numpy(f, a, n)
    raises_as_numpy(f, np.ones(0), None)
    raises_as_numpy(g, np.ones(1, np.complex128))
    raises_as_numpy(h, np.ones((3, 3)), (0, 2))


def test_lengths_past_memory_are_memory_errors():
    f = define("@ruchey.njit\ndef f(a, n):\n    return np.fft.rfft(a, n)\n")
    g = define("@ruchey.njit\ndef f(n):\n    return np.fft.fftfreq(n)\n")
    for n in (2**62, 2**59 + 3):
        with pytest.raises(MemoryError):
            f(np.ones(3), n)
    with pytest.raises(MemoryError):
        g(2**62)


def test_bad_axes_raise_value_error():
    f = define("@ruchey.njit\ndef f(a, axis):\n    return np.fft.fft(a, axis=axis)\n")
    g = define("@ruchey.njit\ndef f(a):\n    return np.fft.fftn(a, s=(3, 3), axes=(0,))\n")
    h = define("@ruchey.njit\ndef f(a):\n    return np.fft.fft2(a)\n")
    k = define("@ruchey.njit\ndef f(a, axes):\n    return np.fft.fftshift(a, axes)\n")
    for axis in (2, -3, 100):
        with pytest.raises(ValueError, match="out of bounds"):
            f(np.ones((2, 3)), axis)
    raises_as_numpy(g, np.ones((3, 3)))
    with pytest.raises(ValueError, match="out of bounds"):
        h(np.ones(4))
    with pytest.raises(ValueError, match="out of bounds"):
        k(np.ones((2, 3)), (0, 2))


def test_bad_norm_raises_numpys_value_error():
    f = define("@ruchey.njit\ndef f(a):\n    return np.fft.fft(a, norm='sideways')\n")
    raises_as_numpy(f, np.ones(4))


def test_fftfreq_bad_arguments():
    f = define("@ruchey.njit\ndef f(n, d):\n    return np.fft.fftfreq(n, d)\n")
    g = define("@ruchey.njit\ndef f(n, d):\n    return np.fft.rfftfreq(n, d)\n")
    raises_as_numpy(f, 0, 1.0)
    raises_as_numpy(f, 4, 0.0)
    raises_as_numpy(f, -3, 1.0)
    for n in (-1, -2, -3):
        np.testing.assert_array_equal(g(n, 1.0), g.py_func(n, 1.0))
    with pytest.raises(ruchey.TypingError, match="n should be an integer"):
        define("@ruchey.njit\ndef f(n):\n    return np.fft.fftfreq(n)\n")(2.5)


def test_wrong_types_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="real input"):
        define("@ruchey.njit\ndef f(a):\n    return np.fft.rfft(a)\n")(np.ones(4, np.complex128))
    with pytest.raises(ruchey.TypingError, match="n must be an integer"):
        define("@ruchey.njit\ndef f(a):\n    return np.fft.fft(a, 2.5)\n")(np.ones(4))
    with pytest.raises(ruchey.TypingError, match="axes must be a tuple"):
        define("@ruchey.njit\ndef f(a):\n    return np.fft.fftn(a, axes=1)\n")(np.ones((4, 4)))
    with pytest.raises(ruchey.TypingError, match="array of 1 dimension or more"):
        define("@ruchey.njit\ndef f(a):\n    return np.fft.fft(a)\n")(np.ones(()))


# ---------------------------------------------------------------- scipy.fft

@pytest.mark.parametrize("name", ONE_AXIS + N_AXES)
def test_scipy_fft_matches_scipy(name):
    sfft = pytest.importorskip("scipy.fft")
    one = name in ONE_AXIS
    call = "a, n, axis, norm='ortho'" if one else "a, s, axes, norm='forward'"
    f = define(f"@ruchey.njit\ndef f(a, {'n, axis' if one else 's, axes'}):\n"
               f"    return sfft.{name}({call}, overwrite_x=False, workers=2)\n", sfft=sfft)
    rng = make_rng(seed_of("scipy", name))
    for dtype in (np.float32, np.float64, np.complex64, np.int16):
        if name in REAL_INPUT and np.dtype(dtype).kind == "c":
            continue
        for what, a in layouts(rng, dtype):
            if one:
                for n in lengths(a.shape[-1]):
                    if n is None and name in ("irfft", "hfft") and a.shape[-1] == 1:
                        continue
                    close(f.py_func(a, n, -1), f(a, n, -1), f"scipy {name} {what} {np.dtype(dtype)} n={n}")
            elif a.ndim > 1:
                axes = (0, -1)
                s = (a.shape[0] + 1, -1)
                close(f.py_func(a, s, axes), f(a, s, axes), f"scipy {name} {what} {np.dtype(dtype)}")


def test_scipy_next_fast_len_matches_scipy():
    """rocket-fft pads to scipy.fft.next_fast_len(n, True) in compiled code:
    the least 5-smooth (real) or 11-smooth (complex) length at or above n."""
    sfft = pytest.importorskip("scipy.fft")
    f = define("@ruchey.njit\ndef f(ns, real):\n    out = np.empty(ns.size, dtype=np.int64)\n"
               "    for i in range(ns.size):\n        out[i] = sfft.next_fast_len(ns[i], real)\n    return out\n",
               sfft=sfft)
    rng = make_rng(seed_of("next_fast_len"))
    limit = (2**64 - 1) // 11 + 1  # the largest target SciPy takes
    ns = np.concatenate([np.arange(0, 600), rng.integers(600, 10**9, 300), rng.integers(0, 10**17, 40),
                         [2**40 + 1, 3**30, limit - 1, limit]])
    for real in (False, True, 1):
        np.testing.assert_array_equal(f(ns, real), [sfft.next_fast_len(int(n), bool(real)) for n in ns])
    g = define("@ruchey.njit\ndef f(n):\n    return sfft.next_fast_len(target=n, real=True), "
               "sfft.next_fast_len(np.int32(n))\n", sfft=sfft)
    assert g(97) == g.py_func(97) == (100, 98)
    for bad, message in ((-1, "Target length must be positive"), (limit + 1, "too large to perform an FFT")):
        with pytest.raises(ValueError, match=message):
            sfft.next_fast_len(bad)
        with pytest.raises(ValueError, match=message):
            g(bad)
    with pytest.raises(ruchey.TypingError, match="cannot be interpreted as an integer"):
        g(2.5)


def test_scipy_fft_errors_are_scipys():
    sfft = pytest.importorskip("scipy.fft")
    f = define("@ruchey.njit\ndef f(a, axes):\n    return sfft.fftn(a, axes=axes)\n", sfft=sfft)
    g = define("@ruchey.njit\ndef f(a, n):\n    return sfft.rfft(a, n)\n", sfft=sfft)
    h = define("@ruchey.njit\ndef f(a):\n    return sfft.fftn(a, s=(2, 2, 2))\n", sfft=sfft)
    k = define("@ruchey.njit\ndef f(a):\n    return sfft.ifft(a, norm='sideways')\n", sfft=sfft)
    m = define("@ruchey.njit\ndef f(a):\n    return sfft.fft(a, plan=1)\n", sfft=sfft)
    a = np.ones((3, 4))
    raises_as_numpy(f, a, (0, 0))
    raises_as_numpy(f, a, (0, 2))
    raises_as_numpy(g, a, 0)
    raises_as_numpy(h, a)
    raises_as_numpy(k, a)
    with pytest.raises(ruchey.TypingError, match="plan is not supported"):
        m(a)
    with pytest.raises(ruchey.TypingError, match="real sequence"):
        g(np.ones(3, np.complex128), 3)
