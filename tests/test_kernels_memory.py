"""Memory and constants in kernels: shared and local arrays shaped by
module-level constants and constant expressions (TPB + 1), shared and local
arrays inside device functions, NumPy arrays global to the module (frozen
into the code, as numba-cuda copies them to constant memory) and
cuda.const.array_like, annotated assignments, and print() in kernels."""
import numpy
import pytest

import ruchey
from ruchey import cuda, float32, float64, int32, int64

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, seed_of

TPB = 16
SHAPE = (4, 6)


# ---------------------------------------------------------------- shapes


@cuda.jit
def shaped_by_constants(out):
    padded = cuda.shared.array((TPB, TPB + 1), float32)
    halves = cuda.local.array(TPB // 2, int64)
    tiles = cuda.local.array(SHAPE, float64)
    powers = cuda.shared.array(2 ** 3 + (1 << 2) - TPB % 5, int64)
    i = cuda.grid(1)
    if i == 0:
        out[0] = padded.shape[0]
        out[1] = padded.shape[1]
        out[2] = halves.size
        out[3] = tiles.shape[0] * 10 + tiles.shape[1]
        out[4] = powers.size


def test_shapes_from_module_constants_and_constant_expressions():
    out = numpy.zeros(5, dtype=numpy.int64)
    shaped_by_constants[1, 4](out)
    numpy.testing.assert_array_equal(out, [TPB, TPB + 1, TPB // 2, 46, 2 ** 3 + (1 << 2) - TPB % 5])


@cuda.jit
def padded_transpose(a, out):
    tile = cuda.shared.array((TPB, TPB + 1), float64)  # the extra column avoids bank conflicts
    x, y = cuda.grid(2)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    if x < a.shape[1] and y < a.shape[0]:
        tile[ty, tx] = a[y, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TPB + tx
    y = cuda.blockIdx.x * TPB + ty
    if x < a.shape[0] and y < a.shape[1]:
        out[y, x] = tile[tx, ty]


def test_a_padded_shared_tile_transposes():
    a = make_rng(4).standard_normal((40, 35))
    out = numpy.zeros((35, 40))
    padded_transpose[(3, 3), (TPB, TPB)](a, out)
    numpy.testing.assert_array_equal(out, a.T)


@cuda.jit
def shaped_by_local_constants(a, out):
    n = 64
    rows = n // 16
    sm = cuda.shared.array(n, float64)
    tile = cuda.local.array((rows, rows + 1), int64)
    i = cuda.grid(1)
    if i < n:
        sm[i] = a[i] * 2
    cuda.syncthreads()
    tile[rows - 1, rows] = tile.size
    if i < n:
        out[i] = sm[n - 1 - i] + tile[rows - 1, rows]


def test_shapes_from_local_variables_assigned_a_constant_once():
    a = make_rng(4).standard_normal(64)
    out = numpy.zeros(64)
    shaped_by_local_constants[1, 64](a, out)
    numpy.testing.assert_array_equal(out, a[::-1] * 2 + 4 * 5)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_a_shape_from_a_local_variable_assigned_twice_is_a_typing_error():
    @cuda.jit
    def kernel(out):
        n = 4
        if out[0] > 0:
            n = 8
        tmp = cuda.local.array(n, float64)
        out[0] = tmp.size

    with pytest.raises(ruchey.TypingError, match="must be constant integers"):
        kernel[1, 1](numpy.zeros(1))


def test_a_shape_that_is_not_constant_is_a_typing_error():
    @cuda.jit
    def kernel(out, n):
        tmp = cuda.local.array(n + 1, float64)
        out[0] = tmp.size

    with pytest.raises(ruchey.TypingError, match="must be constant integers: literals, module globals"):
        kernel[1, 1](numpy.zeros(1), 3)


# ---------------------------------------------------------------- in device functions


@cuda.jit(device=True)
def block_total(v):
    partial = cuda.shared.array(TPB * 4, float64)
    t = cuda.threadIdx.x
    partial[t] = v
    cuda.syncthreads()
    step = cuda.blockDim.x // 2
    while step > 0:
        if t < step:
            partial[t] += partial[t + step]
        cuda.syncthreads()
        step //= 2
    total = partial[0]
    cuda.syncthreads()  # before the next call overwrites it
    return total


@cuda.jit
def twice_reduced(x, sums, squares):
    i = cuda.grid(1)
    sums[i] = block_total(x[i])
    squares[i] = block_total(x[i] * x[i])


def test_a_device_functions_shared_array_is_its_blocks():
    x = make_rng(6).integers(-100, 100, size=4 * 64).astype(numpy.float64)
    sums, squares = numpy.zeros_like(x), numpy.zeros_like(x)
    twice_reduced[4, 64](x, sums, squares)
    per_block = x.reshape(4, 64)
    numpy.testing.assert_array_equal(sums, numpy.repeat(per_block.sum(axis=1), 64))
    numpy.testing.assert_array_equal(squares, numpy.repeat((per_block ** 2).sum(axis=1), 64))


@cuda.jit(device=True)
def scratch_sum(a, i):
    tmp = cuda.local.array(3, float32)
    for k in range(3):
        tmp[k] = a[i] * k
    return tmp[0] + tmp[1] + tmp[2]


@cuda.jit
def through_scratch(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = scratch_sum(a, i)


@cuda.jit(device=True)
def wait():
    cuda.syncthreads()


@cuda.jit
def local_across_a_barrier(out):
    tmp = cuda.local.array(2, int64)
    i = cuda.grid(1)
    tmp[0] = i
    tmp[1] = -i
    wait()  # a barrier in a device function: the threads run as fibers
    out[i] = tmp[0] * 10 + tmp[1]


def test_local_arrays_in_device_functions_and_in_fiber_kernels_are_each_threads():
    a = numpy.arange(40, dtype=numpy.float32)
    out = numpy.zeros_like(a)
    through_scratch[2, 32](a, out)
    numpy.testing.assert_array_equal(out, a * 3)
    out = numpy.zeros(64, dtype=numpy.int64)
    local_across_a_barrier[2, 32](out)
    numpy.testing.assert_array_equal(out, numpy.arange(64) * 9)


@pytest.mark.cpu_backend
def test_dynamic_shared_memory_in_a_device_function_is_a_typing_error_on_the_cpu_backend():
    @cuda.jit(device=True)
    def dynamic():
        return cuda.shared.array(0, float64)[0]

    @cuda.jit
    def kernel(out):
        out[0] = dynamic()

    with pytest.raises(ruchey.TypingError, match="dynamic shared memory"):
        kernel[1, 1, 0, 64](numpy.zeros(1))


@cuda.jit(device=True)
def shaped_histogram(keys, shape, dtype):
    tile = cuda.shared.array(shape, dtype)
    i = cuda.threadIdx.x * cuda.blockDim.y + cuda.threadIdx.y
    row, col = i // shape[1], i % shape[1]
    tile[row, col] = 0
    cuda.syncthreads()
    k = keys[i] % (shape[0] * shape[1])
    cuda.atomic.add(tile, (k // shape[1], k % shape[1]), 1)
    cuda.syncthreads()
    count = tile[row, col]
    cuda.syncthreads()  # before the next call overwrites it
    return count


@cuda.jit
def histograms_of_two_shapes(keys, wide, tall):
    i = cuda.threadIdx.x * cuda.blockDim.y + cuda.threadIdx.y
    shape = (2, 16)
    wide[i] = shaped_histogram(keys, shape, int32)
    tall[i] = shaped_histogram(keys, (8, 4), float64)


def test_a_device_function_sizes_a_shared_array_with_a_tuple_its_caller_passes():
    rng = make_rng(seed_of("tuple shapes"))
    for keys in (rng.integers(-100, 100, 32), numpy.zeros(32, numpy.int64), numpy.arange(32)):
        wide, tall = numpy.zeros(32, numpy.int32), numpy.zeros(32)
        histograms_of_two_shapes[1, (4, 8)](keys, wide, tall)
        expected = numpy.bincount(keys % 32, minlength=32)
        numpy.testing.assert_array_equal(wide, expected)
        numpy.testing.assert_array_equal(tall, expected)


@cuda.jit(device=True)
def shifted_counts(keys, shape, dtype, column_of, wrap):
    """numba-cuda's atomics tests' helper: the column an int that wrap=True
    alone makes a float (uint64 % int64), so it types only with wrap's
    constant False (the branch pruned), besides the shape's."""
    row, col = cuda.threadIdx.x, cuda.threadIdx.y
    tile = cuda.shared.array(shape, dtype)
    tile[row, col] = 0
    cuda.syncthreads()
    at = (row, column_of(col))
    if wrap:
        at = (at[0] % shape[0], at[1] % shape[1])
    cuda.atomic.sub(tile, at, 1)
    cuda.syncthreads()
    return tile[row, col]


@cuda.jit(device=True)
def as_uint64(x):
    return ruchey.uint64(x)


@cuda.jit
def counts_of_a_pruned_branch(out):
    out[cuda.threadIdx.x, cuda.threadIdx.y] = shifted_counts(out, (4, 8), int32, as_uint64, False)


def test_a_device_function_typed_with_its_shape_and_then_with_its_other_constants():
    out = numpy.zeros((4, 8), numpy.int32)
    counts_of_a_pruned_branch[1, (4, 8)](out)
    numpy.testing.assert_array_equal(out, numpy.full((4, 8), -1))


@cuda.jit
def histogram_of_a_run_time_shape(keys, out):
    out[0] = shaped_histogram(keys, (keys.shape[0], 1), int32)


def test_a_tuple_shape_known_only_at_run_time_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="sizes a local or shared array with it" if not AS_NUMBA else ""):
        histogram_of_a_run_time_shape[1, 1](numpy.zeros(4, numpy.int64), numpy.zeros(1, numpy.int32))


# ---------------------------------------------------------------- alignment=

ALIGNMENTS = (None, 8, 16, 64, 128, 256)


def aligned_kernel(alignment, dtype, fibers):
    """Shared and local arrays of the alignment asked for: in a kernel, in a
    device function, and with fibers, in a kernel whose threads run as
    fibers (a barrier in a device function; else loops split at barriers)."""
    @cuda.jit(device=True)
    def scratch_sum(x, i):
        tmp = cuda.local.array(3, dtype, alignment=alignment)
        tile = cuda.shared.array(5, dtype=dtype, alignment=alignment)
        for k in range(3):
            tmp[k] = x[i] * k
        tile[cuda.threadIdx.x % 5] = 0
        return tmp[0] + tmp[1] + tmp[2], tmp.ctypes.data, tile.ctypes.data

    @cuda.jit(device=True)
    def wait():
        cuda.syncthreads()

    @cuda.jit
    def kernel(x, out, addresses):
        i = cuda.grid(1)
        tile = cuda.shared.array((4, 3), dtype, alignment=alignment)
        odd = cuda.local.array(shape=5, dtype=dtype, alignment=alignment)
        tile[cuda.threadIdx.x % 4, 0] = x[i]
        for k in range(5):
            odd[k] = x[i] + k
        if fibers:
            wait()
        else:
            cuda.syncthreads()
        total, local_at, shared_at = scratch_sum(x, i)
        out[i] = odd[4] + total
        addresses[i, 0] = odd.ctypes.data
        addresses[i, 1] = tile.ctypes.data
        addresses[i, 2] = local_at
        addresses[i, 3] = shared_at

    return kernel


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.float32, numpy.int64])
def test_shared_and_local_arrays_start_at_a_multiple_of_their_alignment(dtype):
    x = make_rng(seed_of("alignment", dtype.__name__)).integers(0, 50, 64).astype(dtype)
    for alignment in ALIGNMENTS:
        for fibers in (False, True):
            out, addresses = numpy.zeros_like(x), numpy.zeros((64, 4), numpy.uint64)
            aligned_kernel(alignment, dtype, fibers)[2, 32](x, out, addresses)
            numpy.testing.assert_array_equal(out, x + dtype(4) + x * dtype(3))
            assert (addresses % numpy.uint64(alignment or 1) == 0).all(), (alignment, fibers)
            assert len(set(addresses[:, 0])) == 64 or fibers  # each thread's own (a fiber's: on its stack)


PADDED = numpy.dtype([("a", numpy.uint8), ("b", numpy.int32), ("c", numpy.float64)], align=True)


@pytest.mark.parametrize("alignment", ALIGNMENTS)
def test_record_arrays_are_aligned_and_give_their_data_address(alignment):
    @cuda.jit
    def kernel(addresses):
        shared = cuda.shared.array(3, dtype=PADDED, alignment=alignment)
        local = cuda.local.array((2, 2), dtype=PADDED, alignment=alignment)
        i = cuda.grid(1)
        addresses[i, 0] = shared.ctypes.data
        addresses[i, 1] = local.ctypes.data

    addresses = numpy.zeros((16, 2), numpy.uint64)
    kernel[2, 8](addresses)
    assert (addresses % numpy.uint64(alignment or PADDED.alignment) == 0).all()

    @ruchey.njit
    def data_addresses(a):
        return a.ctypes.data, a[1:].ctypes.data

    a = numpy.zeros(5, PADDED)
    assert data_addresses(a) == (a.ctypes.data, a[1:].ctypes.data)


@pytest.mark.parametrize("alignment, message", [
    (0, "power of 2"), (3, "power of 2"), (4, "multiple of 8"), (-16, "power of 2"),
    (1.5, "constant integer"), ("16", "constant integer"), (True, "constant integer"),
])
def test_an_alignment_that_is_no_power_of_2_times_8_is_a_typing_error(alignment, message):
    @cuda.jit
    def local(out):
        out[0] = cuda.local.array(4, float64, alignment=alignment)[0]

    @cuda.jit
    def shared(out):
        out[0] = cuda.shared.array(4, float64, alignment=alignment)[0]

    for kernel in (local, shared):
        with pytest.raises(ruchey.TypingError, match=message if not AS_NUMBA else ""):
            kernel[1, 1](numpy.zeros(1))


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_ptxas_accepts_aligned_arrays_and_the_ptx_asks_for_the_alignment(tmp_path):
    for alignment in (16, 256):
        kernel = aligned_kernel(alignment, numpy.float32, False)
        ptx, _ = cuda.compile_ptx(kernel.py_func, "void(float32[::1], float32[::1], uint64[:, ::1])", cc=(8, 0))
        assert f".shared .align {alignment} .b8" in ptx and f".local .align {alignment} .b8" in ptx
        assert ptxas_errors(ptx, "sm_80", tmp_path, f"aligned{alignment}") == ""


# ---------------------------------------------------------------- constant strs and bytes into arrays

WORD = "héllo wörld, été"  # (code points past ASCII: a '<Un' item holds code points)


@cuda.jit
def label_threads(words, raw):
    i = cuda.grid(1)
    if i < words.size - 1:  # (the last item keeps what it held)
        if i % 3 == 0:
            words[i] = WORD
        elif i % 3 == 1:
            words[i] = "XYZ"
        else:
            words[i] = ""
        raw[i] = b"\x00ab\xffcd"


@pytest.mark.parametrize("width", [1, 3, 12, 40])
def test_constant_strs_and_bytes_stored_into_items_cut_or_padded_as_numpy(width):
    words, raw = numpy.full(20, "old", f"<U{width}"), numpy.full(20, b"old", f"S{width}")
    label_threads[3, 8](words, raw)
    expected_words, expected_raw = words.copy(), raw.copy()
    for i in range(19):  # NumPy's own assignment: cut to the width, NUL-padded (trailing NULs read as nothing)
        expected_words[i] = (WORD, "XYZ", "")[i % 3]
        expected_raw[i] = b"\x00ab\xffcd"
    numpy.testing.assert_array_equal(words, expected_words)
    numpy.testing.assert_array_equal(raw, expected_raw)
    assert words[19] == "old"[:width] and raw[19] == b"old"[:width]


LABELLED = numpy.dtype([("x", numpy.int32), ("name", "<U5"), ("tag", "S3")])


@cuda.jit
def label_records(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i]["x"] = i
        if i % 2:
            a[i]["name"] = WORD
            a[i].tag = b"abcdef"
        else:
            a[i].name = "Q"
            a[i]["tag"] = b""


def test_constant_strs_and_bytes_stored_into_record_fields():
    a = numpy.zeros(7, LABELLED)
    a["tag"] = b"old"
    label_records[1, 8](a)
    expected = numpy.zeros(7, LABELLED)
    for i in range(7):
        expected[i] = (i, WORD, b"abcdef") if i % 2 else (i, "Q", b"")
    numpy.testing.assert_array_equal(a, expected)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_constant_text_stores_call_no_runtime_function_on_the_gpu():
    for kernel, sig in ((label_threads, (ruchey.from_dtype(numpy.dtype("<U12"))[::1],
                                         ruchey.from_dtype(numpy.dtype("S5"))[::1])),
                        (label_records, (ruchey.from_dtype(LABELLED)[::1],))):
        ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(8, 0))
        assert ".extern" not in ptx and "rt_" not in ptx


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")
def test_strs_made_or_read_in_a_kernel_are_typing_errors():
    @cuda.jit
    def made(words, n):
        w = "ab"
        if n > 1:
            w = "cd"  # a str chosen as the kernel runs
        words[0] = w

    @cuda.jit
    def read(words, out):
        out[0] = len(words[0])

    with pytest.raises(ruchey.TypingError, match="takes a constant str alone"):
        made[1, 1](numpy.zeros(2, "<U4"), 2)
    with pytest.raises(ruchey.TypingError, match="a constant one can be stored"):
        read[1, 1](numpy.zeros(2, "<U4"), numpy.zeros(1, numpy.int64))


# ---------------------------------------------------------------- global arrays


LUT = numpy.array([0.5, 1.5, 2.5, 3.5, 4.5])
WEIGHTS = numpy.arange(12, dtype=numpy.int32).reshape(3, 4)
STRIDED = numpy.arange(20.0)[::3]
FLAGS = numpy.array([True, False, True])


@cuda.jit
def reads_globals(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = LUT[i % LUT.size]
        out[i, 1] = WEIGHTS[i % 3, i % 4] + WEIGHTS.shape[1]
        out[i, 2] = STRIDED[i % STRIDED.size]
        out[i, 3] = FLAGS[i % 3]


def test_module_global_arrays_are_read_in_kernels():
    out = numpy.zeros((10, 4))
    reads_globals[1, 16](out)
    i = numpy.arange(10)
    expected = numpy.stack([LUT[i % 5], WEIGHTS[i % 3, i % 4] + 4, STRIDED[i % STRIDED.size],
                            FLAGS[i % 3]], axis=1)
    numpy.testing.assert_array_equal(out, expected)


@cuda.jit
def with_const_memory(out):
    table = cuda.const.array_like(LUT)
    i = cuda.grid(1)
    if i < out.size:
        out[i] = table[i % table.size] * 2


def test_const_array_like_gives_the_global_array():
    out = numpy.zeros(8)
    with_const_memory[1, 8](out)
    numpy.testing.assert_array_equal(out, LUT[numpy.arange(8) % 5] * 2)


COMPLEX3D = (make_rng(9).standard_normal((2, 3, 4, 2)) @ [1, 1j]).astype(numpy.complex64)
COMPLEX3D[0, 0, :2] = [complex(numpy.nan, 1), complex(-numpy.inf, -0.0)]


@cuda.jit
def with_complex_const_memory(out, scaled):
    table = cuda.const.array_like(COMPLEX3D)
    i, j, k = cuda.grid(3)
    if i < out.shape[0] and j < out.shape[1] and k < out.shape[2]:
        out[i, j, k] = table[i, j, k]
        scaled[i, j, k] = table[i, j, k].conjugate() * 2


def test_const_array_like_of_complex_numbers():
    out, scaled = numpy.zeros_like(COMPLEX3D), numpy.zeros_like(COMPLEX3D)
    with_complex_const_memory[1, (2, 3, 4)](out, scaled)
    numpy.testing.assert_array_equal(out, COMPLEX3D)
    numpy.testing.assert_array_equal(scaled, COMPLEX3D.conjugate() * 2)


RECORDS = numpy.array([(i, 0.25 * i - 3, -i) for i in range(40)],
                      dtype=numpy.dtype([("a", numpy.uint8), ("b", numpy.float64), ("c", numpy.int16)], align=True))
NO_RECORDS = numpy.empty(0, dtype=[("x", numpy.float64)])


@cuda.jit
def with_record_const_memory(out, count):
    table = cuda.const.array_like(RECORDS)
    empty = cuda.const.array_like(NO_RECORDS)
    i = cuda.grid(1)
    if i < out.size:
        out[i] = table[i]["a"] + table[i].b * table[i].c
    if i == 0:
        count[0] = len(empty)


def test_const_array_like_of_records():
    out, count = numpy.zeros(40), numpy.full(1, -1)
    with_record_const_memory[2, 32](out, count)
    numpy.testing.assert_array_equal(out, RECORDS["a"] + RECORDS["b"] * RECORDS["c"])
    assert count[0] == 0


NESTED = numpy.dtype([("i", numpy.int32), ("j", numpy.float32, (3, 2))])


@cuda.jit
def records_through_shared_and_local_memory(x, y):
    chunk = cuda.shared.array(16, dtype=NESTED)
    mine = cuda.local.array(2, dtype=ruchey.from_dtype(NESTED))
    tx = cuda.threadIdx.x
    i = cuda.blockIdx.x * cuda.blockDim.x + tx
    if i < len(x):
        chunk[tx] = x[i]
    cuda.syncthreads()
    if i < len(x):
        mine[1] = chunk[cuda.blockDim.x - 1 - tx]
        mine[1].i += 1000
        y[i] = mine[1]


def test_shared_and_local_arrays_of_records():
    x = numpy.zeros(64, dtype=NESTED)
    x["i"] = make_rng(6).integers(-100, 100, 64)
    x["j"] = make_rng(7).standard_normal((64, 3, 2))
    y = numpy.zeros_like(x)
    records_through_shared_and_local_memory[4, 16](x, y)
    want = x.reshape(4, 16)[:, ::-1].reshape(64).copy()
    want["i"] += 1000
    numpy.testing.assert_array_equal(y, want)


def test_global_arrays_are_frozen_when_compiled():
    values = numpy.array([1.0, 2.0])
    globals()["CHANGING"] = values

    @ruchey.njit
    def first():
        return CHANGING[0]  # noqa: F821 (set above)

    assert first() == 1.0
    values[0] = 5.0
    assert first() == 1.0  # as Numba: the elements were copied at compile time
    assert first.py_func() == 5.0


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_writing_a_global_array_is_a_typing_error():
    @cuda.jit
    def kernel():
        LUT[0] = 1.0

    with pytest.raises(ruchey.TypingError, match="read-only array"):
        kernel[1, 1]()


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_const_array_like_of_an_argument_is_a_typing_error():
    @cuda.jit
    def kernel(a):
        t = cuda.const.array_like(a)
        a[0] = t[1]

    with pytest.raises(ruchey.TypingError, match="takes a NumPy array global to the module"):
        kernel[1, 1](numpy.zeros(2))


def test_global_arrays_in_njit_functions():
    @ruchey.njit
    def weighted(i, j):
        return WEIGHTS[i, j] * LUT[j] + WEIGHTS.copy()[0, 1]

    for i in range(3):
        for j in range(4):
            assert weighted(i, j) == weighted.py_func(i, j)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_global_arrays_are_in_constant_memory_on_the_gpu():
    ptx, _ = cuda.compile_ptx(with_const_memory.py_func, "void(float64[::1])", cc=(8, 0))
    assert ".const .align 16 .b8 frozen" in ptx and "ld.const.f64" in ptx


# ---------------------------------------------------------------- annotated assignments


@cuda.jit
def annotated(a, out):
    i: int = cuda.grid(1)
    scale: float
    if i < a.size:
        v: float = a[i] * 2
        out[i] = v


def test_annotated_assignments_assign_and_bare_annotations_do_nothing():
    a = numpy.arange(10.0)
    out = numpy.zeros(10)
    annotated[1, 16](a, out)
    numpy.testing.assert_array_equal(out, a * 2)

    @ruchey.njit
    def total(n):
        s: float = 0.0
        count: int
        for k in range(n):
            s += k
        return s

    assert total(10) == total.py_func(10) == 45.0


# ---------------------------------------------------------------- print


def lines_printed(capfd):
    return capfd.readouterr().out.splitlines()


@cuda.jit
def prints(a):
    i = cuda.grid(1)
    if i < a.size:
        print("thread", i, "holds", a[i], a[i] > 1, "of 100%")


@pytest.mark.not_compared
@pytest.mark.skipif(AS_NUMBA, reason="numba-cuda's format")
def test_print_in_a_kernel_formats_as_numba_cuda(capfd):
    prints[2, 4](numpy.array([0.5, 1.5, 2.25], dtype=numpy.float32))
    cuda.synchronize()
    assert sorted(lines_printed(capfd)) == ["thread 0 holds 0.500000 False of 100%",
                                            "thread 1 holds 1.500000 True of 100%",
                                            "thread 2 holds 2.250000 True of 100%"]


@pytest.mark.cpu_backend  # a GPU's printf buffer orders warps as they ran
@pytest.mark.skipif(AS_NUMBA, reason="numba-cuda's format")
def test_print_in_a_kernel_comes_out_block_by_block_in_thread_order(capfd):
    a = numpy.arange(100, dtype=numpy.int64)
    prints[4, 32](a)
    expected = [f"thread {i} holds {i} {i > 1} of 100%" for i in range(100)]
    assert lines_printed(capfd) == expected
    prints[1, 3](numpy.array([0.5, 1.5, -2.25]))
    assert lines_printed(capfd) == ["thread 0 holds 0.500000 False of 100%",
                                    "thread 1 holds 1.500000 True of 100%",
                                    "thread 2 holds -2.250000 False of 100%"]


@cuda.jit(device=True)
def report(i, v):
    print(i, v)


@cuda.jit
def prints_through_a_device_function(a):
    i = cuda.grid(1)
    if i < a.size:
        report(i, a[i])


@pytest.mark.not_compared
@pytest.mark.skipif(AS_NUMBA, reason="numba-cuda's format")
def test_print_in_a_device_function(capfd):
    prints_through_a_device_function[1, 8](numpy.array([3, 252, 5], dtype=numpy.uint8))
    cuda.synchronize()
    assert sorted(lines_printed(capfd)) == ["0 3", "1 252", "2 5"]


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")
def test_print_of_an_array_is_a_typing_error_in_kernels_not_in_njit(capfd):
    @cuda.jit
    def kernel(a):
        print(a)

    with pytest.raises(ruchey.TypingError, match="print\\(\\) prints numbers, bools, None, tuples of them and constant strings"):
        kernel[1, 1](numpy.zeros(2))

    @ruchey.njit
    def host(x):
        print(x)

    x = numpy.array([1 + 2j, -0.5j])  # (every array prints outside kernels: test_print_arrays.py)
    host(x)
    got = capfd.readouterr().out
    host.py_func(x)
    assert got == capfd.readouterr().out


# ---------------------------------------------------------------- PTX


MEMORY_KERNELS = [
    (shaped_by_constants, "void(int64[::1])"),
    (padded_transpose, "void(float64[:, ::1], float64[:, ::1])"),
    (shaped_by_local_constants, "void(float64[::1], float64[::1])"),
    (twice_reduced, "void(float64[::1], float64[::1], float64[::1])"),
    (histograms_of_two_shapes, "void(int64[::1], int32[::1], float64[::1])"),
    (label_threads, (ruchey.from_dtype(numpy.dtype("<U12"))[::1], ruchey.from_dtype(numpy.dtype("S5"))[::1])),
    (label_records, (ruchey.from_dtype(LABELLED)[::1],)),
    (reads_globals, "void(float64[:, ::1])"),
    (with_const_memory, "void(float64[::1])"),
    (with_complex_const_memory, "void(complex64[:, :, ::1], complex64[:, :, ::1])"),
    (with_record_const_memory, "void(float64[::1], int64[::1])"),
    (records_through_shared_and_local_memory, (ruchey.from_dtype(NESTED)[::1], ruchey.from_dtype(NESTED)[::1])),
    (annotated, "void(float64[::1], float64[::1])"),
    (prints, "void(float32[::1])"),
    (prints_through_a_device_function, "void(uint8[::1])"),
]


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_the_memory_kernels(arch, tmp_path):
    for kernel, sig in MEMORY_KERNELS:
        ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(int(arch[3]), int(arch[4])))
        assert ptxas_errors(ptx, arch, tmp_path, kernel.__name__) == ""


# ---------------------------------------------------------------- local arrays beyond a stack

DEEP = 20000  # float64 a thread: 160 KB, more than a fiber's usual stack; times 64 threads, more than a thread's


@cuda.jit
def deep_local_with_barriers(x, out, rounds):
    """A local array per thread, a barrier in a loop (threads as loops, their
    storage side by side for the block)."""
    t = cuda.threadIdx.x
    deep = cuda.local.array(DEEP, float64)
    for i in range(DEEP):
        deep[i] = x[cuda.grid(1)] * i
    for r in range(rounds):
        deep[r] += t
        cuda.syncthreads()
    s = 0.0
    for i in range(DEEP):
        s += deep[i]
    out[cuda.grid(1)] = s


@cuda.jit(device=True)
def wait_for_the_block():
    cuda.syncthreads()


@cuda.jit
def deep_local_in_fibers(x, out, limit):
    """The same with the barrier in a device function under a condition:
    each thread a fiber, the local array on its stack."""
    t = cuda.threadIdx.x
    deep = cuda.local.array(DEEP, float64)
    for i in range(DEEP):
        deep[i] = x[cuda.grid(1)] * i
    if t < limit:
        wait_for_the_block()
    deep[t] += t
    s = 0.0
    for i in range(DEEP):
        s += deep[i]
    out[cuda.grid(1)] = s


def deep_expected(x, extra):
    return x * (DEEP * (DEEP - 1) / 2) + extra


@pytest.mark.skipif(AS_NUMBA, reason="the CPU backend's storage")
def test_local_arrays_of_a_block_bigger_than_a_threads_stack():
    x = make_rng(41).random(2 * 64)
    out = numpy.zeros_like(x)
    deep_local_with_barriers[2, 64](x, out, 3)
    t = numpy.tile(numpy.arange(64), 2)
    numpy.testing.assert_allclose(out, deep_expected(x, 3 * t), rtol=1e-12)


@pytest.mark.skipif(AS_NUMBA, reason="the CPU backend's storage")
def test_local_arrays_bigger_than_a_fibers_stack():
    x = make_rng(42).random(3 * 32)
    out = numpy.zeros_like(x)
    deep_local_in_fibers[3, 32](x, out, 1000)
    t = numpy.tile(numpy.arange(32), 3)
    numpy.testing.assert_allclose(out, deep_expected(x, t), rtol=1e-12)
    # a smaller kernel after it reuses the stacks; a bigger block grows them
    out64 = numpy.zeros(64)
    deep_local_in_fibers[1, 64](x[:64], out64, 1000)
    numpy.testing.assert_allclose(out64, deep_expected(x[:64], numpy.arange(64)), rtol=1e-12)


# ---------------------------------------------------------------- dtypes by name

LOCAL_DTYPE = "int16"  # a global naming the dtype, read when the kernel compiles


def named_dtypes(x, out):
    i = cuda.grid(1)
    if i < x.size:
        small = cuda.local.array(2, dtype=LOCAL_DTYPE)
        tile = cuda.shared.array(256, "float32")
        small[0] = x[i]
        tile[cuda.threadIdx.x] = x[i] * 0.5
        out[i] = small[0] + tile[cuda.threadIdx.x]


def test_shared_and_local_arrays_take_a_dtypes_name():
    x = make_rng(seed_of("named dtypes")).integers(-40000, 40000, 300)
    out = numpy.zeros(300)
    cuda.jit(named_dtypes)[2, 256](x, out)
    expected = numpy.zeros(300)
    for i in range(300):
        expected[i] = float(numpy.array(x[i]).astype(numpy.int16)) + float(numpy.float32(x[i] * 0.5))
    numpy.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("maker", ["local", "shared"])
def test_an_unknown_dtype_name_is_a_typing_error_naming_it(maker):
    source = f"def bad(x):\n    a = cuda.{maker}.array(10, dtype='int33')\n    a[0] = x[0]\n    x[0] = a[0]\n"
    namespace = {"cuda": cuda}
    exec(compile(source, f"<bad_{maker}>", "exec"), namespace)
    with pytest.raises(ruchey.TypingError, match="Invalid NumPy dtype specified: 'int33'"):
        cuda.jit("void(int32[::1])")(namespace["bad"])
