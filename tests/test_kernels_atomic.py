"""cuda.atomic.*: every operation numba-cuda has, on every element type it
allows, on global and shared arrays, under contention and applied one at a
time, checked against plain Python's arithmetic (and numba-cuda's rules for
NaN in max, min, nanmax and nanmin)."""
import math

import numpy
import pytest

import ruchey
from ruchey import cuda

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors

NUMBERS = [numpy.int32, numpy.int64, numpy.uint32, numpy.uint64, numpy.float32, numpy.float64]
INTEGERS = [numpy.int32, numpy.int64, numpy.uint32, numpy.uint64]
UNSIGNED = [numpy.uint32, numpy.uint64]


# ---------------------------------------------------------------- under contention


@cuda.jit
def contended(values, total, diff, lo, hi):
    i = cuda.grid(1)
    if i < values.size:
        cuda.atomic.add(total, 0, values[i])
        cuda.atomic.sub(diff, 0, values[i])
        cuda.atomic.max(hi, 0, values[i])
        cuda.atomic.min(lo, 0, values[i])


@pytest.mark.parametrize("dtype", NUMBERS)
def test_add_sub_max_min_under_contention(dtype):
    n = 5000
    values = (make_rng(1).integers(0, 100, size=n)).astype(dtype)
    total = numpy.zeros(1, dtype=dtype)
    diff = numpy.array([values.sum(dtype=numpy.float64) if dtype in (numpy.float32, numpy.float64)
                        else values.sum()], dtype=dtype)
    lo, hi = numpy.array([200], dtype=dtype), numpy.zeros(1, dtype=dtype)
    contended[(n + 127) // 128, 128](values, total, diff, lo, hi)
    assert total[0] == values.sum(dtype=numpy.float64 if total.dtype.kind == "f" else dtype)
    assert diff[0] == 0
    assert hi[0] == values.max() and lo[0] == values.min()


@cuda.jit
def bitwise(values, ands, ors, xors):
    i = cuda.grid(1)
    if i < values.size:
        cuda.atomic.and_(ands, 0, values[i])
        cuda.atomic.or_(ors, 0, values[i])
        cuda.atomic.xor(xors, 0, values[i])


@pytest.mark.parametrize("dtype", INTEGERS)
def test_and_or_xor_under_contention(dtype):
    n = 3000
    bits = numpy.iinfo(dtype).bits
    values = make_rng(2).integers(0, 1 << 30, size=n).astype(dtype)
    values |= dtype(1) << dtype(bits - 2)  # a high bit every value has
    ands = numpy.array([numpy.iinfo(dtype).max], dtype=dtype)
    ors, xors = numpy.zeros(1, dtype=dtype), numpy.zeros(1, dtype=dtype)
    bitwise[(n + 255) // 256, 256](values, ands, ors, xors)
    assert ands[0] == numpy.bitwise_and.reduce(values) & numpy.iinfo(dtype).max
    assert ors[0] == numpy.bitwise_or.reduce(values)
    assert xors[0] == numpy.bitwise_xor.reduce(values)


@cuda.jit
def counters(up, down, limit):
    i = cuda.grid(1)
    if i < 1000:
        cuda.atomic.inc(up, 0, limit)
        cuda.atomic.dec(down, 0, limit)


@pytest.mark.parametrize("dtype", UNSIGNED)
@pytest.mark.parametrize("limit", [7, 1000, 5000])
def test_inc_and_dec_wrap_at_the_limit(dtype, limit):
    up = numpy.zeros(1, dtype=dtype)
    down = numpy.array([3], dtype=dtype)
    counters[4, 256](up, down, limit)
    assert up[0] == 1000 % (limit + 1)
    assert down[0] == (3 - 1000) % (limit + 1)


@cuda.jit
def claim(slots, winners):
    i = cuda.grid(1)
    if i < winners.size:
        if cuda.atomic.compare_and_swap(slots, 0, i + 1) == 0:
            cuda.atomic.add(winners, 0, 1)
        if cuda.atomic.cas(slots, 1, 0, i + 1) == 0:
            cuda.atomic.add(winners, 1, 1)


@pytest.mark.order_dependent  # which thread wins
@pytest.mark.parametrize("dtype", INTEGERS)
def test_compare_and_swap_lets_one_thread_win(dtype):
    slots = numpy.zeros(2, dtype=dtype)
    winners = numpy.zeros(2, dtype=numpy.int64)
    claim[8, 128](slots, winners)
    numpy.testing.assert_array_equal(winners, [1, 1])
    assert 1 <= slots[0] <= 1024 and 1 <= slots[1] <= 1024


# ---------------------------------------------------------------- one at a time: the old value


def apply_model(op, old, val, kind):
    """The element after op, by numba-cuda's rules (NaN-aware for floats)."""
    nan = lambda v: kind == "f" and math.isnan(v)
    if op == "max":
        return old if nan(old) or nan(val) else max(old, val)
    if op == "min":
        return old if nan(old) or nan(val) else min(old, val)
    if op == "nanmax":
        return old if nan(val) else val if nan(old) else max(old, val)
    if op == "nanmin":
        return old if nan(val) else val if nan(old) else min(old, val)
    raise AssertionError(op)


def sequence_kernel(atomic_op):
    @cuda.jit
    def kernel(cell, values, olds):
        if cuda.grid(1) == 0:
            for k in range(values.size):
                olds[k] = atomic_op(cell, 0, values[k])
    return kernel


EXTREMA = {"max": cuda.atomic.max, "min": cuda.atomic.min, "nanmax": cuda.atomic.nanmax,
           "nanmin": cuda.atomic.nanmin}
_sequences = {}


@pytest.mark.parametrize("op", list(EXTREMA))
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("start", [0.5, math.nan])
def test_float_extrema_follow_numba_cudas_nan_rules_and_return_the_old_value(op, dtype, start):
    kernel = _sequences.setdefault(op, sequence_kernel(EXTREMA[op]))
    values = numpy.array([1.0, math.nan, -2.0, 3.0, math.nan, 2.5, -math.inf, math.inf], dtype=dtype)
    cell = numpy.array([start], dtype=dtype)
    olds = numpy.zeros_like(values)
    kernel[1, 1](cell, values, olds)
    expected, cur = [], dtype(start)
    for v in values:
        expected.append(cur)
        cur = dtype(apply_model(op, float(cur), float(v), "f"))
    numpy.testing.assert_array_equal(olds, numpy.array(expected, dtype=dtype))
    numpy.testing.assert_array_equal(cell, numpy.array([cur], dtype=dtype))


@pytest.mark.parametrize("op", list(EXTREMA))
@pytest.mark.parametrize("dtype", INTEGERS)
def test_integer_extrema_return_the_old_value(op, dtype):
    kernel = _sequences.setdefault(op, sequence_kernel(EXTREMA[op]))
    values = numpy.array([5, 3, 9, 0, 9, 12, 1], dtype=dtype)
    cell = numpy.array([4], dtype=dtype)
    olds = numpy.zeros_like(values)
    kernel[1, 1](cell, values, olds)
    cur, expected = 4, []
    for v in values.tolist():
        expected.append(cur)
        cur = apply_model(op, cur, v, "i")
    numpy.testing.assert_array_equal(olds, numpy.array(expected, dtype=dtype))
    assert cell[0] == cur


@cuda.jit
def each_returns_old(cells, olds):
    if cuda.grid(1) == 0:
        olds[0] = cuda.atomic.add(cells, 0, 5)
        olds[1] = cuda.atomic.sub(cells, 1, 5)
        olds[2] = cuda.atomic.and_(cells, 2, 6)
        olds[3] = cuda.atomic.or_(cells, 3, 6)
        olds[4] = cuda.atomic.xor(cells, 4, 6)
        olds[5] = cuda.atomic.exch(cells, 5, 6)
        olds[6] = cuda.atomic.inc(cells, 6, 10)
        olds[7] = cuda.atomic.dec(cells, 7, 10)
        olds[8] = cuda.atomic.cas(cells, 8, 12, 6)
        olds[9] = cuda.atomic.cas(cells, 9, 0, 6)
        olds[10] = cuda.atomic.compare_and_swap(cells, 17, 7)  # element 0, after the add


@pytest.mark.parametrize("dtype", UNSIGNED)
def test_every_operation_returns_the_value_it_found(dtype):
    cells = numpy.full(11, 12, dtype=dtype)
    olds = numpy.zeros(11, dtype=dtype)
    each_returns_old[1, 1](cells, olds)
    numpy.testing.assert_array_equal(olds, numpy.array([12] * 10 + [17], dtype=dtype))
    assert cells.tolist() == [7, 7, 12 & 6, 12 | 6, 12 ^ 6, 6, 0, 10, 6, 12, 12]


# ---------------------------------------------------------------- where the element is


@cuda.jit
def shared_histogram(x, bins):
    local = cuda.shared.array(16, numpy.int32)
    t = cuda.threadIdx.x
    if t < 16:
        local[t] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(local, x[i] % 16, 1)
        cuda.atomic.max(local, 15, 0)
    cuda.syncthreads()
    if t < 16:
        cuda.atomic.add(bins, t, local[t])


def test_atomics_on_shared_memory_then_global():
    x = make_rng(5).integers(0, 1000, size=10000)
    bins = numpy.zeros(16, dtype=numpy.int32)
    shared_histogram[(x.size + 255) // 256, 256](x, bins)
    numpy.testing.assert_array_equal(bins, numpy.bincount(x % 16, minlength=16))


@cuda.jit
def grid_cells(a):
    x, y = cuda.grid(2)
    if x < a.shape[0] and y < a.shape[1]:
        cuda.atomic.add(a, (x, y), 1)
        cuda.atomic.add(a, (-1, -1), 1)


def test_atomics_take_tuple_indices_and_negative_ones_wrap():
    a = numpy.zeros((5, 7), dtype=numpy.int64)
    grid_cells[(1, 1), (8, 8)](a)
    expected = numpy.ones((5, 7), dtype=numpy.int64)
    expected[-1, -1] += 35
    numpy.testing.assert_array_equal(a, expected)


# ---------------------------------------------------------------- errors


@cuda.jit
def and_on_floats(a):
    cuda.atomic.and_(a, 0, 1)


@cuda.jit
def inc_on_signed(a):
    cuda.atomic.inc(a, 0, 1)


@cuda.jit
def exch_on_floats(a):
    cuda.atomic.exch(a, 0, 1.0)


@cuda.jit
def add_on_int16(a):
    cuda.atomic.add(a, 0, 1)


@pytest.mark.parametrize("kernel, dtype, message", [
    (and_on_floats, numpy.float64, r"and_\(\) works on arrays of int32, int64, uint32 and uint64, not float64"),
    (inc_on_signed, numpy.int32, r"inc\(\) works on arrays of uint32 and uint64, not int32"),
    (exch_on_floats, numpy.float32, r"exch\(\) works on arrays of int32, int64, uint32 and uint64, not float32"),
    (add_on_int16, numpy.int16, r"add\(\) works on arrays of int32, int64, uint32, uint64, float32 and float64"),
])
def test_an_element_type_numba_cuda_refuses_is_a_typing_error(kernel, dtype, message):
    with pytest.raises(ruchey.TypingError, match=message):
        kernel[1, 1](numpy.zeros(4, dtype=dtype))


def test_compare_and_swap_needs_a_1d_array():
    @cuda.jit
    def kernel(a):
        cuda.atomic.compare_and_swap(a, 0, 1)

    with pytest.raises(ruchey.TypingError, match=r"works on a 1-d array, got 2-d"):
        kernel[1, 1](numpy.zeros((2, 2), dtype=numpy.int32))


def test_an_index_that_is_not_one_element_is_a_typing_error():
    @cuda.jit
    def kernel(a):
        cuda.atomic.add(a, 0, 1)

    with pytest.raises(ruchey.TypingError, match=r"must name one element of the 2-d array"):
        kernel[1, 1](numpy.zeros((2, 2), dtype=numpy.int32))


# ---------------------------------------------------------------- PTX


ATOMIC_KERNELS = [
    (contended, "void(float32[::1], float32[::1], float32[::1], float32[::1], float32[::1])"),
    (contended, "void(uint64[::1], uint64[::1], uint64[::1], uint64[::1], uint64[::1])"),
    (bitwise, "void(int32[::1], int32[::1], int32[::1], int32[::1])"),
    (counters, "void(uint32[::1], uint32[::1], uint32)"),
    (counters, "void(uint64[::1], uint64[::1], uint64)"),
    (claim, "void(int64[::1], int64[::1])"),
    (each_returns_old, "void(uint32[::1], uint32[::1])"),
    (shared_histogram, "void(int64[::1], int32[::1])"),
]


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_atomics_are_ptx_atom_instructions():
    ptx = "".join(cuda.compile_ptx(k.py_func, sig, cc=(8, 0))[0] for k, sig in ATOMIC_KERNELS)
    # (LLVM 19 makes inc and dec compare-and-swap loops)
    for instruction in ("atom.global.add.f32", "atom.global.and.b32", "atom.global.or.b32", "atom.global.xor.b32",
                        "atom.global.max.u64", "atom.global.cas.b64", "atom.shared.add.u32"):
        assert instruction in ptx, instruction


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_the_atomic_kernels(arch, tmp_path):
    for kernel, sig in ATOMIC_KERNELS + [(_sequences.setdefault("nanmax", sequence_kernel(cuda.atomic.nanmax)),
                                          "void(float64[::1], float64[::1], float64[::1])")]:
        ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(int(arch[3]), int(arch[4])))
        assert ptxas_errors(ptx, arch, tmp_path, kernel.__name__) == ""
