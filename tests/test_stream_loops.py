"""Loops that stream over whole arrays (`out[i] = x[i] + y[i]`): on AVX-512
hosts their runs of more than 32 KB an array have vectors 256 bits wide,
which stream from the caches beyond the first faster than 512-bit ones
(lib/jit.c, jit_stream_vector_bits); shorter runs keep 512 bits.
How many lanes a vector has changes which elements the scalar remainder
computes, never a result: each is Python's, at every length around the
vector loop's steps and the blocks a loop polls Ctrl-C between, and an
index past an operand's end is still Python's IndexError."""
import numpy
import pytest
import ruchey

from conftest import AS_NUMBA, assert_same, make_rng, seed_of

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own analyses and LLVM IR")

if not AS_NUMBA:
    from ruchey import _core
    from ruchey.types import float32, float64, int8, int64

    F64, ARR, ARR32, ARR_I8, ARR_I64 = (float64.describe(), float64[::1].describe(), float32[::1].describe(),
                                         int8[::1].describe(), int64[::1].describe())


def arr_sum(x, y):
    out = numpy.empty_like(x)
    for i in range(len(x)):
        out[i] = x[i] + y[i]
    return out


def axpy_into(a, x, y, out):
    for i in range(x.shape[0]):
        out[i] = a * x[i] - y[i]


def two_stores(x, y, out, other):
    for i in range(1, x.shape[0]):
        out[i] = -x[i] * y[i]
        other[i] = x[i] - y[i] * y[i]


def wraps(x, y):
    out = numpy.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] * y[i] + x[i]
    return out


def awkward(rng, n, dtype):
    x = ((rng.random(n) - 0.5) * 1e3).astype(dtype)
    big = numpy.finfo(dtype).max
    for k, v in enumerate([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1e-310, big]):
        if k * 5 < n:
            x[k * 5] = v
    return x


LENGTHS = [0, 1, 3, 4, 5, 15, 16, 17, 31, 32, 33, 63, 100, 1001, 4095, 4096, 4097, 8193, 32769, 65536 + 37]


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_float_streams_match_python(n, dtype):
    rng = make_rng(seed_of("streams", n, dtype))
    x, y = awkward(rng, n, dtype), awkward(rng, n, dtype)
    assert_same(ruchey.njit(arr_sum), x, y)
    out = numpy.zeros(n, dtype)
    assert_same(ruchey.njit(axpy_into), numpy.dtype(dtype).type(1.5), x, y, out)
    assert_same(ruchey.njit(two_stores), x, y, out, numpy.zeros(n, dtype))


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", ["int64", "int8", "uint16"])
def test_integer_streams_match_python(n, dtype):
    rng = make_rng(seed_of("streams_int", n, dtype))
    info = numpy.iinfo(dtype)
    x = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    y = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    with numpy.errstate(over="ignore"):
        assert_same(ruchey.njit(arr_sum), x, y)
        assert_same(ruchey.njit(wraps), x, y)


@pytest.mark.parametrize("n", [1, 17, 1001, 65536 + 37])
def test_with_boundscheck_an_operand_too_short_is_an_index_error(n):
    x, y = numpy.ones(n), numpy.ones(n - 1)
    with pytest.raises(IndexError):
        arr_sum(x, y)
    with pytest.raises(IndexError):
        ruchey.njit(boundscheck=True)(arr_sum)(x, y)
    assert_same(ruchey.njit(boundscheck=True)(arr_sum), x, numpy.arange(n, 0, -1.0))


def divides(x, y, out):
    for i in range(x.shape[0]):
        out[i] = x[i] / y[i]


def calls(x, out):
    for i in range(x.shape[0]):
        out[i] = numpy.sin(x[i])


def converts(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * 2.0


def strided(x, out):
    for i in range(0, x.shape[0], 2):
        out[i] = x[i] + 1.0


def nested(x, out):
    for j in range(3):
        for i in range(x.shape[0]):
            out[i] = x[i] + 1.0


def sums(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s


def streams_said(func, *args):
    """The element bits the analyses found each streaming loop to move."""
    text = _core._analyses(func, tuple(args), False, False)
    return [int(line.split(":")[1]) for line in text.splitlines() if line.startswith("streams:")]


@ruchey_only
def test_loops_that_stream_over_whole_arrays():
    assert streams_said(arr_sum, ARR, ARR) == [64]
    assert streams_said(arr_sum, ARR32, ARR32) == [32]
    assert streams_said(axpy_into, F64, ARR, ARR, ARR) == [64]
    assert streams_said(two_stores, ARR, ARR, ARR, ARR) == [64]
    assert streams_said(wraps, ARR_I8, ARR_I8) == []  # int8 * int8 is an int64, converted as it is stored


@ruchey_only
@pytest.mark.parametrize("func, args", [
    (divides, ["ARR", "ARR", "ARR"]), (calls, ["ARR", "ARR"]), (converts, ["ARR", "ARR_I64"]),
    (strided, ["ARR", "ARR"]), (nested, ["ARR", "ARR"]), (sums, ["ARR"]),
], ids=["division", "call", "conversion-on-store", "step", "nested", "reduction"])
def test_loops_that_do_more_than_stream(func, args):
    assert streams_said(func, *[globals()[a] for a in args]) == []


def avx512_host():
    features = getattr(numpy, "_core", getattr(numpy, "core", None))._multiarray_umath.__cpu_features__
    return features.get("AVX512F", False)


@ruchey_only
@pytest.mark.skipif(AS_NUMBA or not avx512_host(), reason="the width is chosen for AVX-512 hosts")
def test_a_streaming_loop_is_256_bits_wide_on_avx512():
    f = ruchey.njit(arr_sum)
    f(numpy.ones(40), numpy.ones(40))
    ir = f.inspect_llvm()[f.signatures[0]]
    assert "<4 x double>" in ir and "<8 x double>" in ir  # runs of up to 32 KB an array keep 512 bits
    g = ruchey.njit(nested)
    g(numpy.ones(40), numpy.ones(40))
    ir = g.inspect_llvm()[g.signatures[0]]
    assert "<8 x double>" in ir and "<4 x double>" not in ir
