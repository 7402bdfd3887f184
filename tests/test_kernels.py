"""@cuda.jit kernels launched on the GPU when there is one, else on the CPU
backend, checked against NumPy.

Each kernel is numba-cuda code, unchanged: thread and block indices, grid-
stride loops, 2-D and 3-D grids, device functions, shared memory with
syncthreads (static and dynamic), local arrays, atomics under contention,
early returns, and debug=True bounds errors that name the thread and block.

RUCHEY_TEST_AS_NUMBA=1 NUMBA_ENABLE_CUDASIM=1 runs them on numba's CUDA
simulator (slowly), to check the tests themselves.
"""
import math
import re

import numpy
import pytest

import ruchey
from ruchey import cuda, float32, float64, int64  # numba-cuda code imports these from numba

from conftest import AS_NUMBA, make_rng, needs_ptxas, numba_deviation, ptxas_errors

# ---------------------------------------------------------------- the seed kernel


@cuda.jit
def call_for_kernel(io_arr):
    thread_x = cuda.threadIdx.x
    thread_y = cuda.blockIdx.x
    block_width = cuda.blockDim.x
    t_position = thread_x + thread_y * block_width
    if t_position < io_arr.size:
        io_arr[t_position] *= 2


SEED_SIZES = (1, 1000, 2**16)


@pytest.mark.parametrize("n", SEED_SIZES)
def test_seed_kernel_on_host_array(n):
    arr = make_rng(n).standard_normal(n) * 100.0
    expected = arr * 2
    assert call_for_kernel[(n + 255) // 256, 256](arr) is None
    numpy.testing.assert_array_equal(arr, expected, strict=True)


@pytest.mark.parametrize("n", SEED_SIZES)
def test_seed_kernel_on_device_array(n):
    host = make_rng(n + 1).standard_normal(n)
    d_arr = cuda.to_device(host)
    call_for_kernel[(n + 255) // 256, 256](d_arr)
    numpy.testing.assert_array_equal(d_arr.copy_to_host(), host * 2, strict=True)
    call_for_kernel[(n + 255) // 256, 256](d_arr)  # the data stays on the device
    cuda.synchronize()
    numpy.testing.assert_array_equal(d_arr.copy_to_host(), host * 4, strict=True)


@pytest.mark.parametrize("dtype", [numpy.int64, numpy.int32, numpy.float32, numpy.uint8])
def test_seed_kernel_specialises_on_dtype(dtype):
    arr = (numpy.arange(300) % 100).astype(dtype)
    expected = (arr * 2).astype(dtype)
    call_for_kernel[2, 256](arr)
    numpy.testing.assert_array_equal(arr, expected, strict=True)


def test_seed_kernel_with_more_threads_than_elements_and_tuple_config():
    arr = numpy.arange(10.0)
    call_for_kernel[(3,), (64,)](arr)  # 192 threads, 10 elements
    numpy.testing.assert_array_equal(arr, numpy.arange(10.0) * 2)


def test_seed_kernel_on_a_device_array_slice():
    d = cuda.to_device(numpy.arange(20.0))
    call_for_kernel[1, 32](d[5:10])
    expected = numpy.arange(20.0)
    expected[5:10] *= 2
    numpy.testing.assert_array_equal(d.copy_to_host(), expected)


def test_seed_kernel_with_stream_and_compiled_once():
    s = cuda.stream()
    d = cuda.to_device(numpy.ones(100), stream=s)
    for _ in range(3):
        call_for_kernel[1, 128, s](d)
    s.synchronize()
    numpy.testing.assert_array_equal(d.copy_to_host(stream=s), numpy.full(100, 8.0))


@pytest.mark.parametrize("n", [0, 1, 1000])
def test_forall_launches_one_thread_per_task(n):
    arr = numpy.arange(n, dtype=numpy.float64)
    call_for_kernel.forall(n)(arr)
    numpy.testing.assert_array_equal(arr, numpy.arange(n) * 2.0)
    call_for_kernel.forall(n, tpb=64)(arr)
    numpy.testing.assert_array_equal(arr, numpy.arange(n) * 4.0)


def test_forall_of_a_negative_or_non_int_count_is_a_value_error():
    with pytest.raises(ValueError, match="Can't create ForAll with negative task count"):
        call_for_kernel.forall(-1)
    with pytest.raises(ValueError, match="non-negative int"):
        call_for_kernel.forall(2.5)


@pytest.mark.cpu_backend  # inspect_llvm shows the CPU code
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's dispatcher")
def test_kernel_signatures_after_launch():
    @cuda.jit
    def fill(a, v):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = v

    a = numpy.zeros(5)
    fill[1, 8](a, 3.0)
    fill[1, 8](a, 4.0)
    assert len(fill.signatures) == 1
    fill[1, 8](numpy.zeros(5, dtype=numpy.int64), 1)
    assert len(fill.signatures) == 2
    assert isinstance(fill.inspect_llvm(), dict) and len(fill.inspect_llvm()) == 2


# ---------------------------------------------------------------- grids


@cuda.jit
def grid_stride_add(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]


@pytest.mark.parametrize("n, blocks, threads", [(10000, 4, 64), (7, 4, 64), (0, 1, 32),
                                                (4097, 1, 1), (65536, 32, 1024)])
def test_grid_stride_loop(n, blocks, threads):
    rng = make_rng(n)
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    out = numpy.full(n, numpy.nan)
    grid_stride_add[blocks, threads](x, y, out)
    numpy.testing.assert_array_equal(out, x + y, strict=True)


@cuda.jit
def record_grid_1d(ids, sizes):
    i = cuda.grid(1)
    if i < ids.size:
        ids[i] = i
        sizes[i] = cuda.gridsize(1)


def test_grid_1d_numbers_every_thread_once():
    n = 5 * 96
    ids = numpy.full(n, -1, dtype=numpy.int64)
    sizes = numpy.zeros(n, dtype=numpy.int64)
    record_grid_1d[5, 96](ids, sizes)
    numpy.testing.assert_array_equal(ids, numpy.arange(n))
    numpy.testing.assert_array_equal(sizes, numpy.full(n, n))


@cuda.jit
def twice_plus_index_2d(a, out):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = a[i, j] * 2 + i - j


@pytest.mark.parametrize("shape, block", [((37, 53), (8, 16)), ((16, 16), (16, 16)),
                                          ((1, 300), (1, 128)), ((100, 1), (32, 1))])
def test_grid_2d(shape, block):
    a = make_rng(shape[0]).integers(-1000, 1000, size=shape).astype(numpy.float64)
    out = numpy.zeros(shape)
    grid = ((shape[0] + block[0] - 1) // block[0], (shape[1] + block[1] - 1) // block[1])
    twice_plus_index_2d[grid, block](a, out)
    i, j = numpy.indices(shape)
    numpy.testing.assert_array_equal(out, a * 2 + i - j, strict=True)


@cuda.jit
def grid_stride_2d(out):
    x0, y0 = cuda.grid(2)
    sx, sy = cuda.gridsize(2)
    for x in range(x0, out.shape[0], sx):
        for y in range(y0, out.shape[1], sy):
            out[x, y] += x * 1000 + y


def test_grid_stride_2d_visits_every_element_once():
    out = numpy.zeros((50, 70), dtype=numpy.int64)
    grid_stride_2d[(2, 3), (4, 8)](out)
    i, j = numpy.indices(out.shape)
    numpy.testing.assert_array_equal(out, i * 1000 + j)


@cuda.jit
def fill_3d(out):
    x, y, z = cuda.grid(3)
    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:
        out[x, y, z] = x * 10000 + y * 100 + z


def test_grid_3d():
    shape = (9, 10, 11)
    out = numpy.full(shape, -1, dtype=numpy.int64)
    block = (4, 4, 4)
    fill_3d[tuple((s + b - 1) // b for s, b in zip(shape, block)), block](out)
    i, j, k = numpy.indices(shape)
    numpy.testing.assert_array_equal(out, i * 10000 + j * 100 + k)


@cuda.jit
def record_ids_3d(out):
    x = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    y = cuda.threadIdx.y + cuda.blockIdx.y * cuda.blockDim.y
    z = cuda.threadIdx.z + cuda.blockIdx.z * cuda.blockDim.z
    out[z, y, x, 0] = cuda.threadIdx.x
    out[z, y, x, 1] = cuda.threadIdx.y
    out[z, y, x, 2] = cuda.threadIdx.z
    out[z, y, x, 3] = cuda.blockIdx.x
    out[z, y, x, 4] = cuda.blockIdx.y
    out[z, y, x, 5] = cuda.blockIdx.z
    out[z, y, x, 6] = cuda.blockDim.x
    out[z, y, x, 7] = cuda.blockDim.y
    out[z, y, x, 8] = cuda.blockDim.z
    out[z, y, x, 9] = cuda.gridDim.x
    out[z, y, x, 10] = cuda.gridDim.y
    out[z, y, x, 11] = cuda.gridDim.z


@pytest.mark.parametrize("grid, block", [((2, 3, 4), (5, 3, 2)), ((3, 1, 1), (7, 1, 1)),
                                         ((1, 2, 1), (1, 1, 3))])
def test_every_index_intrinsic_in_3d(grid, block):
    gx, gy, gz = grid
    bx, by, bz = block
    out = numpy.full((gz * bz, gy * by, gx * bx, 12), -1, dtype=numpy.int64)
    record_ids_3d[grid, block](out)
    z, y, x = numpy.indices(out.shape[:3])
    expected = numpy.stack([x % bx, y % by, z % bz, x // bx, y // by, z // bz,
                            numpy.full_like(x, bx), numpy.full_like(x, by), numpy.full_like(x, bz),
                            numpy.full_like(x, gx), numpy.full_like(x, gy), numpy.full_like(x, gz)],
                           axis=-1)
    numpy.testing.assert_array_equal(out, expected)


# ---------------------------------------------------------------- device functions


@cuda.jit(device=True)
def clamp_square(v, lo, hi):
    r = v * v
    if r < lo:
        return lo
    if r > hi:
        return hi
    return r


@cuda.jit("float64(float64, float64)", device=True)
def hypot_dev(a, b):
    return (a * a + b * b) ** 0.5


@cuda.jit
def apply_device_functions(x, y, out, out2, lo, hi):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = clamp_square(x[i], lo, hi)
        out2[i] = hypot_dev(x[i], y[i])


def test_kernel_calls_device_functions_returning_values():
    rng = make_rng(7)
    n = 1000
    x, y = rng.standard_normal(n) * 3, rng.standard_normal(n)
    out, out2 = numpy.zeros(n), numpy.zeros(n)
    apply_device_functions[(n + 127) // 128, 128](x, y, out, out2, 0.5, 4.0)
    numpy.testing.assert_array_equal(out, numpy.clip(x * x, 0.5, 4.0), strict=True)
    numpy.testing.assert_allclose(out2, numpy.hypot(x, y), rtol=1e-15)


@cuda.jit(device=True)
def global_thread_index():
    return cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x


@cuda.jit
def write_index_via_device_function(out):
    i = global_thread_index()
    if i < out.size:
        out[i] = i


def test_device_function_uses_thread_intrinsics():
    out = numpy.full(300, -1, dtype=numpy.int64)
    write_index_via_device_function[3, 128](out)
    numpy.testing.assert_array_equal(out, numpy.arange(300))


# ---------------------------------------------------------------- shared memory


@cuda.jit
def block_sum(x, partial):
    sh = cuda.shared.array(256, float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < x.size:
        sh[tid] = x[i]
    else:
        sh[tid] = 0.0
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            sh[tid] += sh[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = sh[0]


def tree_reduce_reference(x, blocks, threads):
    """The kernel's own summation order, in NumPy: bitwise equal results."""
    v = numpy.zeros(blocks * threads)
    v[:x.size] = x
    v = v.reshape(blocks, threads)
    s = threads // 2
    while s > 0:
        v[:, :s] += v[:, s:2 * s]
        s //= 2
    return v[:, 0].copy()


@pytest.mark.parametrize("n, threads", [(1, 256), (1000, 256), (2**16, 256), (300, 64),
                                        (5000, 128)])
def test_shared_memory_tree_reduction(n, threads):
    x = make_rng(n).standard_normal(n)
    blocks = (n + threads - 1) // threads
    partial = numpy.full(blocks, numpy.nan)
    block_sum[blocks, threads](x, partial)
    numpy.testing.assert_array_equal(partial, tree_reduce_reference(x, blocks, threads),
                                     strict=True)
    assert partial.sum() == pytest.approx(x.sum(), rel=1e-9, abs=1e-9)


def test_shared_memory_reduction_on_device_arrays():
    n, threads = 10000, 256
    blocks = (n + threads - 1) // threads
    x = make_rng(3).integers(-100, 100, size=n).astype(numpy.float64)
    d_x = cuda.to_device(x)
    d_partial = cuda.device_array(blocks, dtype=numpy.float64)
    block_sum[blocks, threads](d_x, d_partial)
    assert d_partial.copy_to_host().sum() == x.sum()


@cuda.jit
def shared_is_per_block(out):
    sh = cuda.shared.array(1, numpy.int64)
    if cuda.threadIdx.x == 0:
        sh[0] = cuda.blockIdx.x * 1000
    cuda.syncthreads()
    out[cuda.grid(1)] = sh[0] + cuda.threadIdx.x


def test_each_block_has_its_own_shared_memory():
    out = numpy.zeros(8 * 32, dtype=numpy.int64)
    shared_is_per_block[8, 32](out)
    i = numpy.arange(out.size)
    numpy.testing.assert_array_equal(out, (i // 32) * 1000 + i % 32)


TPB = 16


@cuda.jit
def matmul_tiled(A, B, C):
    sA = cuda.shared.array((TPB, TPB), numpy.float64)
    sB = cuda.shared.array((TPB, TPB), numpy.float64)
    row, col = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    n = A.shape[1]
    tmp = 0.0
    for t in range((n + TPB - 1) // TPB):
        k = t * TPB + ty
        if row < A.shape[0] and k < n:
            sA[tx, ty] = A[row, k]
        else:
            sA[tx, ty] = 0.0
        k = t * TPB + tx
        if k < n and col < B.shape[1]:
            sB[tx, ty] = B[k, col]
        else:
            sB[tx, ty] = 0.0
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[tx, j] * sB[j, ty]
        cuda.syncthreads()
    if row < C.shape[0] and col < C.shape[1]:
        C[row, col] = tmp


@pytest.mark.parametrize("m, k, n", [(16, 16, 16), (64, 48, 32), (50, 37, 45), (1, 1, 1),
                                     (17, 33, 5)])
def test_tiled_matmul_with_two_shared_arrays(m, k, n):
    rng = make_rng(m * 10000 + k * 100 + n)
    # small integers: every product and partial sum is exact in float64
    A = rng.integers(-8, 8, size=(m, k)).astype(numpy.float64)
    B = rng.integers(-8, 8, size=(k, n)).astype(numpy.float64)
    C = numpy.full((m, n), numpy.nan)
    grid = ((m + TPB - 1) // TPB, (n + TPB - 1) // TPB)
    matmul_tiled[grid, (TPB, TPB)](A, B, C)
    numpy.testing.assert_array_equal(C, A @ B, strict=True)


def test_tiled_matmul_random_floats_on_device():
    rng = make_rng(11)
    A, B = rng.standard_normal((40, 70)), rng.standard_normal((70, 30))
    d_C = cuda.device_array((40, 30))
    matmul_tiled[(3, 2), (TPB, TPB)](cuda.to_device(A), cuda.to_device(B), d_C)
    numpy.testing.assert_allclose(d_C.copy_to_host(), A @ B, rtol=1e-12, atol=1e-12)


@cuda.jit
def reverse_each_block(x):
    dyn = cuda.shared.array(0, float32)
    tid = cuda.threadIdx.x
    base = cuda.blockIdx.x * cuda.blockDim.x
    dyn[tid] = x[base + tid]
    cuda.syncthreads()
    x[base + tid] = dyn[cuda.blockDim.x - 1 - tid]


@pytest.mark.parametrize("blocks, threads", [(1, 128), (6, 128), (3, 1024), (4, 1)])
def test_dynamic_shared_memory(blocks, threads):
    x = numpy.arange(blocks * threads, dtype=numpy.float32)
    reverse_each_block[blocks, threads, 0, threads * 4](x)
    expected = numpy.arange(blocks * threads, dtype=numpy.float32).reshape(blocks, threads)
    numpy.testing.assert_array_equal(x, expected[:, ::-1].ravel(), strict=True)


def fast_kernel(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = numpy.sqrt(x[i]) / y[i] + numpy.sin(x[i]) * numpy.exp(y[i])


def math_kernel(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.sin(x[i]) * math.exp(x[i]) + math.sqrt(x[i]) + math.log(x[i])


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_math_functions_in_kernels_compute_in_the_arrays_precision(dtype):
    # float32 math stays float32 in kernels, as numba-cuda (float64 on a GPU is slow)
    x = make_rng(4).uniform(0.1, 3.0, 4099).astype(dtype)
    out = numpy.zeros_like(x)
    cuda.jit(math_kernel)[17, 256](x, out)
    x64 = x.astype(numpy.float64)
    expected = numpy.sin(x64) * numpy.exp(x64) + numpy.sqrt(x64) + numpy.log(x64)
    # a few roundings of terms up to about 20, which can cancel to near 0
    if dtype == numpy.float32:
        numpy.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-5)
    else:
        numpy.testing.assert_allclose(out, expected, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("fastmath", [False, True])
def test_fastmath_kernels_stay_close_to_the_exact_result(fastmath):
    # on a GPU fastmath takes the hardware's approximations (a few ulps)
    rng = make_rng(3)
    n = 10007
    x = rng.uniform(0.5, 3.0, n).astype(numpy.float32)
    y = rng.uniform(0.5, 2.0, n).astype(numpy.float32)
    out = numpy.zeros(n, numpy.float32)
    cuda.jit(fastmath=fastmath)(fast_kernel)[(n + 255) // 256, 256](x, y, out)
    x64, y64 = x.astype(numpy.float64), y.astype(numpy.float64)
    expected = numpy.sqrt(x64) / y64 + numpy.sin(x64) * numpy.exp(y64)
    numpy.testing.assert_allclose(out, expected, rtol=1e-5 if fastmath else 1e-6, atol=1e-6)


@cuda.jit
def reverse_in_shared(x):
    # one block: every thread moves its share of x through shared memory
    dyn = cuda.shared.array(0, float64)
    n = x.shape[0]
    for i in range(cuda.threadIdx.x, n, cuda.blockDim.x):
        dyn[i] = x[i]
    cuda.syncthreads()
    for i in range(cuda.threadIdx.x, n, cuda.blockDim.x):
        x[i] = dyn[n - 1 - i]


@pytest.mark.parametrize("n", [6144, 12800, 28000])  # 48 KiB, 100 KiB, 219 KiB
def test_dynamic_shared_memory_beyond_48_kib(n):
    # on a GPU a launch over 48 KiB opts in, as cudaFuncSetAttribute does in CUDA C
    x = make_rng(n).standard_normal(n)
    expected = x[::-1].copy()
    reverse_in_shared[1, 256, 0, n * 8](x)
    numpy.testing.assert_array_equal(x, expected, strict=True)


def test_dynamic_shared_memory_with_a_stream():
    x = cuda.to_device(numpy.arange(64, dtype=numpy.float32))
    reverse_each_block[2, 32, cuda.stream(), 32 * 4](x)
    numpy.testing.assert_array_equal(
        x.copy_to_host(), numpy.arange(64, dtype=numpy.float32).reshape(2, 32)[:, ::-1].ravel())


DTYPE_SPELLINGS = [(f"{mod.__name__}.{name}", getattr(mod, name), getattr(numpy, name))
                   for name in ("float64", "float32", "int32", "int64") for mod in (numpy, ruchey)]


def make_shared_local_kernel(dt):
    @cuda.jit
    def kernel(x, out):
        sh = cuda.shared.array(shape=(2, 32), dtype=dt)
        loc = cuda.local.array(shape=2, dtype=dt)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        loc[0] = x[i]
        loc[1] = x[i] + 1
        sh[0, t] = loc[0]
        sh[1, t] = loc[1]
        cuda.syncthreads()
        out[i] = sh[0, 31 - t] + sh[1, 31 - t]
    return kernel


@pytest.mark.parametrize("spelling, dt, np_dtype", DTYPE_SPELLINGS,
                         ids=[d[0] for d in DTYPE_SPELLINGS])
def test_shared_and_local_array_dtype_spellings(spelling, dt, np_dtype):
    """shape= and dtype= as keywords, dtype a NumPy type or numba's (ruchey's) type."""
    kernel = make_shared_local_kernel(dt)
    x = numpy.arange(64).astype(np_dtype)
    out = numpy.zeros(64, dtype=np_dtype)
    kernel[2, 32](x, out)
    rev = x.reshape(2, 32)[:, ::-1].ravel()
    numpy.testing.assert_array_equal(out, (rev + rev + 1).astype(np_dtype), strict=True)


# ---------------------------------------------------------------- local memory


@cuda.jit
def reverse_digits(x, out):
    i = cuda.grid(1)
    if i < x.size:
        loc = cuda.local.array(4, int64)
        v = x[i]
        for k in range(4):
            loc[k] = v % 10
            v //= 10
        acc = 0
        for k in range(4):
            acc = acc * 10 + loc[k]
        out[i] = acc


def test_local_array_is_private_to_each_thread():
    x = make_rng(5).integers(0, 10000, size=3000)
    out = numpy.zeros_like(x)
    reverse_digits[(x.size + 255) // 256, 256](x, out)
    d = [(x // 10**p) % 10 for p in range(4)]
    numpy.testing.assert_array_equal(out, d[0] * 1000 + d[1] * 100 + d[2] * 10 + d[3])


# ---------------------------------------------------------------- atomics


@cuda.jit
def count_threads(counter):
    cuda.atomic.add(counter, 0, 1)


def test_atomic_add_int64_counter_across_blocks():
    counter = numpy.zeros(1, dtype=numpy.int64)
    count_threads[64, 256](counter)
    assert counter[0] == 64 * 256
    d = cuda.to_device(counter)
    count_threads[(4, 4), (8, 8, 4)](d)
    assert d.copy_to_host()[0] == 64 * 256 + 16 * 256


@cuda.jit
def histogram(x, hist, whist, w):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.size, stride):
        b = x[i] % hist.size
        cuda.atomic.add(hist, b, 1)
        cuda.atomic.add(whist, b, w[i])


@pytest.mark.parametrize("bins", [1, 16, 1000])
def test_atomic_add_histograms_under_contention(bins):
    n = 100000
    rng = make_rng(bins)
    x = rng.integers(0, 1 << 30, size=n)
    w = rng.integers(0, 8, size=n) * 0.25  # binary fractions: exact float sums
    hist = numpy.zeros(bins, dtype=numpy.int64)
    whist = numpy.zeros(bins, dtype=numpy.float64)
    histogram[32, 128](x, hist, whist, w)
    numpy.testing.assert_array_equal(hist, numpy.bincount(x % bins, minlength=bins))
    numpy.testing.assert_array_equal(whist, numpy.bincount(x % bins, weights=w, minlength=bins))


@cuda.jit
def take_tickets(counter, tickets):
    i = cuda.grid(1)
    if i < tickets.size:
        tickets[i] = cuda.atomic.add(counter, 0, 1)


@pytest.mark.order_dependent
def test_atomic_add_returns_the_old_value():
    n = 20000
    counter = numpy.zeros(1, dtype=numpy.int64)
    tickets = numpy.full(n, -1, dtype=numpy.int64)
    take_tickets[(n + 255) // 256, 256](counter, tickets)
    assert counter[0] == n
    numpy.testing.assert_array_equal(numpy.sort(tickets), numpy.arange(n))


@cuda.jit
def atomic_sub_kernel(icounter, fcounter):
    cuda.atomic.sub(icounter, 0, 3)
    cuda.atomic.sub(fcounter, 0, 0.5)


def test_atomic_sub_int64_and_float64():
    icounter = numpy.array([100000], dtype=numpy.int64)
    fcounter = numpy.array([1000.0])
    atomic_sub_kernel[10, 100](icounter, fcounter)
    assert icounter[0] == 100000 - 3 * 1000
    assert fcounter[0] == 1000.0 - 0.5 * 1000


@cuda.jit
def atomic_extrema(x, imax, imin, fmax, fmin, fx):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.max(imax, 0, x[i])
        cuda.atomic.min(imin, 0, x[i])
        cuda.atomic.max(fmax, 0, fx[i])
        cuda.atomic.min(fmin, 0, fx[i])


def test_atomic_max_min():
    rng = make_rng(9)
    n = 50000
    x = rng.integers(-(2**40), 2**40, size=n)
    fx = rng.standard_normal(n) * 1e6
    imax = numpy.array([numpy.iinfo(numpy.int64).min])
    imin = numpy.array([numpy.iinfo(numpy.int64).max])
    fmax, fmin = numpy.array([-numpy.inf]), numpy.array([numpy.inf])
    atomic_extrema[(n + 255) // 256, 256](x, imax, imin, fmax, fmin, fx)
    assert imax[0] == x.max() and imin[0] == x.min()
    assert fmax[0] == fx.max() and fmin[0] == fx.min()


@cuda.jit
def atomic_max_returns_old(a, olds):
    i = cuda.grid(1)
    if i < olds.size:
        olds[i] = cuda.atomic.max(a, 0, i)


@pytest.mark.order_dependent
def test_atomic_max_returns_the_old_value():
    n = 4096
    a = numpy.array([-1], dtype=numpy.int64)
    olds = numpy.zeros(n, dtype=numpy.int64)
    atomic_max_returns_old[n // 128, 128](a, olds)
    assert a[0] == n - 1
    i = numpy.arange(n)
    assert numpy.all((olds >= -1) & (olds < n) & (olds != i))
    # the threads that raised the maximum, in the order they did, each saw the previous one
    raised = i[olds < i]
    assert raised[-1] == n - 1
    numpy.testing.assert_array_equal(olds[raised], numpy.append(-1, raised[:-1]))


@cuda.jit
def atomic_exchange_chain(slot, olds):
    i = cuda.grid(1)
    if i < olds.size:
        olds[i] = cuda.atomic.exch(slot, 0, i)


@pytest.mark.order_dependent
def test_atomic_exch_forms_a_chain():
    n = 10000
    slot = numpy.array([-1], dtype=numpy.int64)
    olds = numpy.zeros(n, dtype=numpy.int64)
    atomic_exchange_chain[(n + 255) // 256, 256](slot, olds)
    # every value written is read back exactly once, by the next exchange or at the end
    seen = numpy.sort(numpy.append(olds, slot[0]))
    numpy.testing.assert_array_equal(seen, numpy.arange(-1, n))


@cuda.jit
def atomic_claim(slots, winners):
    i = cuda.grid(1)
    if i < winners.size:
        old = cuda.atomic.cas(slots, i % slots.size, 0, i + 1)
        if old == 0:
            winners[i] = 1


@pytest.mark.order_dependent
def test_atomic_cas_has_one_winner_per_slot():
    k, n = 37, 20000
    slots = numpy.zeros(k, dtype=numpy.int64)
    winners = numpy.zeros(n, dtype=numpy.int64)
    atomic_claim[(n + 255) // 256, 256](slots, winners)
    assert winners.sum() == k
    won = numpy.flatnonzero(winners)
    numpy.testing.assert_array_equal(numpy.sort(won % k), numpy.arange(k))
    numpy.testing.assert_array_equal(slots[won % k], won + 1)


@cuda.jit
def atomic_cas_increment(counter):
    # a CAS loop: the classic way to build any atomic update
    old = counter[0]
    while True:
        seen = cuda.atomic.cas(counter, 0, old, old + 1)
        if seen == old:
            break
        old = seen


def test_atomic_cas_loop_counts_exactly():
    counter = numpy.zeros(1, dtype=numpy.int64)
    atomic_cas_increment[16, 64](counter)
    assert counter[0] == 16 * 64


# ---------------------------------------------------------------- control flow


@cuda.jit
def early_return(x):
    i = cuda.grid(1)
    if i >= x.size:
        return
    if x[i] < 0:
        x[i] = 0
        return
    x[i] = x[i] * 2


def test_kernel_with_early_returns():
    x = make_rng(1).integers(-100, 100, size=1000)
    expected = numpy.where(x < 0, 0, x * 2)
    early_return[8, 256](x)  # 2048 threads for 1000 elements
    numpy.testing.assert_array_equal(x, expected, strict=True)


@cuda.jit
def return_in_loop(x, out):
    i = cuda.grid(1)
    if i < x.size:
        for k in range(x[i]):
            if k * k >= x[i]:
                out[i] = k
                return
        out[i] = -1


def test_kernel_returning_from_inside_a_loop():
    x = numpy.arange(500, dtype=numpy.int64)
    out = numpy.zeros(500, dtype=numpy.int64)
    return_in_loop[4, 128](x, out)
    expected = numpy.array([next((k for k in range(v) if k * k >= v), -1) for v in x])
    numpy.testing.assert_array_equal(out, expected)


@cuda.jit
def scalar_args(out, a, b, flag):
    i = cuda.grid(1)
    if i < out.size:
        if flag:
            out[i] = a * i + b
        else:
            out[i] = -1.0


def test_scalar_arguments():
    out = numpy.zeros(100)
    scalar_args[1, 128](out, 2, 0.5, True)
    numpy.testing.assert_array_equal(out, 2 * numpy.arange(100) + 0.5)
    scalar_args[1, 128](out, numpy.float32(1.5), numpy.int64(3), False)
    numpy.testing.assert_array_equal(out, numpy.full(100, -1.0))


@cuda.jit
def dates_around(dates, target, delta, matches, shifted):
    for i in range(cuda.grid(1), matches.size, cuda.gridsize(1)):
        matches[i] = dates[i] == target
        shifted[i] = dates[i] - delta


@pytest.mark.parametrize("unit", ["D", "s", "ms"])
def test_datetime64_and_timedelta64_scalar_arguments(unit):
    dates = numpy.arange(0, 400, 7).astype(f"datetime64[{unit}]")
    dates[3] = numpy.datetime64("NaT")
    for target, delta in ((dates[5], dates[6] - dates[5]), (dates[3], numpy.timedelta64(-2, unit))):
        matches = numpy.zeros(dates.size, numpy.bool_)
        shifted = numpy.zeros_like(dates)
        dates_around[2, 16](dates, target, delta, matches, shifted)
        numpy.testing.assert_array_equal(matches, dates == target)  # NaT equals nothing, as NumPy's
        numpy.testing.assert_array_equal(shifted, dates - delta)


@cuda.jit
def float_division(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] / y[i]


@pytest.mark.skipif(AS_NUMBA, reason="the simulator runs Python's error model")
def test_kernels_use_numpy_error_model_by_default():
    x = numpy.array([1.0, -1.0, 0.0, 6.0])
    y = numpy.array([0.0, 0.0, 0.0, 3.0])
    out = numpy.zeros(4)
    float_division[1, 32](x, y, out)  # numba-cuda: no exception without debug=True
    numpy.testing.assert_array_equal(out, [numpy.inf, -numpy.inf, numpy.nan, 2.0])


@cuda.jit
def rounded_to_digits(x, digits, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        for j in range(digits.size):
            out[i, j] = round(x[i], digits[j])


def round_inputs(dtype, rng):
    """Random values, values halfway between two of the rounded ones (0.3425
    in float32 is a little above its half), exact halves of tens, specials."""
    halves = numpy.concatenate([(numpy.arange(-20, 20) + 0.5) / 10.0 ** nd for nd in range(5)])
    special = [0.0, -0.0, numpy.nan, numpy.inf, -numpy.inf, 0.3425, 2.675, 0.125, -0.375, 250.0, -150.0, 3e38]
    return numpy.concatenate([rng.uniform(-1000, 1000, 200), halves, special]).astype(dtype)


def test_round_to_digits_of_float32_in_kernels_rounds_the_value_of_x_as_python():
    """round(float32, nd) scales x in double, as numba-cuda: it is exact
    there, so the answer is CPython's for x's value (0.3425f to 3 digits is
    0.343, not the 0.342 of scaling in float32)."""
    x, digits = round_inputs(numpy.float32, make_rng(31)), numpy.arange(-3, 7)
    out = numpy.zeros((x.size, digits.size), numpy.float32)
    rounded_to_digits[4, 64](x, digits, out)
    expected = [[round(float(v), int(nd)) if numpy.isfinite(v) else v for nd in digits] for v in x]
    numpy.testing.assert_array_equal(out, numpy.array(expected, numpy.float32))
    assert out[list(x).index(numpy.float32(0.3425)), 6] == numpy.float32(0.343)


def test_round_to_digits_of_float64_in_kernels_where_scaling_is_exact():
    x = numpy.concatenate([make_rng(32).uniform(-1000, 1000, 200), [0.125, -0.375, 2.5, 1234.5, 1e308, -0.0]])
    digits = numpy.array([-2, -1, 0, 1, 2, 3, 6])
    out = numpy.zeros((x.size, digits.size))
    rounded_to_digits[4, 64](x, digits, out)
    numpy.testing.assert_array_equal(out, [[round(float(v), int(nd)) for nd in digits] for v in x])


# ---------------------------------------------------------------- debug


@cuda.jit(debug=True)
def write_every_thread(x):
    i = cuda.grid(1)
    x[i] = 1.0


@cuda.jit(debug=True)
def write_out_of_bounds_from_one_thread(x):
    i = cuda.grid(1)
    if cuda.threadIdx.x == 3 and cuda.blockIdx.x == 1:
        x[x.size + i] = 1.0
    elif i < x.size:
        x[i] = 2.0


@numba_deviation("the simulator reports tid=[..] ctaid=[..]")
def test_debug_out_of_bounds_write_raises_index_error_naming_thread_and_block():
    x = numpy.zeros(10)
    with pytest.raises(IndexError) as info:
        write_every_thread[2, 8](x)  # threads 10..15 write past the end
    msg = str(info.value)
    assert "thread" in msg and "block" in msg, msg


@numba_deviation("the simulator reports tid=[..] ctaid=[..]")
def test_debug_error_names_the_failing_thread_and_block():
    x = numpy.zeros(64)
    with pytest.raises(IndexError) as info:
        write_out_of_bounds_from_one_thread[4, 16](x)
    msg = str(info.value)
    assert re.search(r"thread\D{0,20}3\b", msg) and re.search(r"block\D{0,20}1\b", msg), msg


def test_debug_kernel_in_bounds_runs_normally():
    x = numpy.zeros(16)
    write_every_thread[2, 8](x)
    numpy.testing.assert_array_equal(x, numpy.ones(16))


@numba_deviation("numba-cuda refuses boundscheck for CUDA")
def test_boundscheck_kernel_raises_index_error():
    @cuda.jit(boundscheck=True)
    def oob(x):
        x[cuda.grid(1)] = 1.0

    with pytest.raises(IndexError):
        oob[1, 32](numpy.zeros(8))


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's backend choice")
def test_cpu_backend_chosen_explicitly(monkeypatch):
    monkeypatch.setenv("RUCHEY_CUDA_BACKEND", "cpu")
    x = numpy.arange(10.0)
    call_for_kernel[1, 32](x)
    numpy.testing.assert_array_equal(x, numpy.arange(10.0) * 2)
    assert cuda.is_available()  # the CPU backend chosen on purpose runs kernels
    if not ruchey.cuda.runtime.gpu_problem():  # a GPU is present
        return
    monkeypatch.setenv("RUCHEY_CUDA_BACKEND", "gpu")
    with pytest.raises(cuda.CudaSupportError, match="no GPU can be used"):
        call_for_kernel[1, 32](x)
    numpy.testing.assert_array_equal(x, numpy.arange(10.0) * 2)  # nothing ran


# ---------------------------------------------------------------- barriers the fission cannot reach: fibers

@cuda.jit(device=True)
def _block_total(sh, tid, n):
    cuda.syncthreads()
    s = n // 2
    while s > 0:
        if tid < s:
            sh[tid] += sh[tid + s]
        cuda.syncthreads()
        s //= 2
    return sh[0]


@cuda.jit
def _sums_through_device_function(x, out):
    sh = cuda.shared.array(128, float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    sh[tid] = x[i] if i < x.size else 0.0
    t = _block_total(sh, tid, cuda.blockDim.x)
    if tid == 0:
        out[cuda.blockIdx.x] = t


@pytest.mark.parametrize("n", [1, 128, 1000])
def test_syncthreads_inside_a_device_function(n):
    x = numpy.random.default_rng(n).random(n)
    blocks = (n + 127) // 128
    out = numpy.zeros(blocks)
    _sums_through_device_function[blocks, 128](x, out)
    numpy.testing.assert_allclose(out, [x[b * 128:(b + 1) * 128].sum() for b in range(blocks)])


def test_barrier_under_a_condition_only_known_at_run_time():
    @cuda.jit
    def reverse_if_positive(a, out):
        tid = cuda.threadIdx.x
        sh = cuda.shared.array(32, float64)
        sh[tid] = a[tid]
        if a[0] > 0:  # the same in every thread, which the compiler cannot prove
            cuda.syncthreads()
            out[tid] = sh[31 - tid]
    a = numpy.arange(1.0, 33.0)
    out = numpy.zeros(32)
    reverse_if_positive[1, 32](a, out)
    numpy.testing.assert_array_equal(out, a[::-1])


@pytest.mark.cpu_backend  # a GPU need not count exited threads at a barrier
def test_fiber_threads_that_return_early_count_as_arrived():
    @cuda.jit
    def early(a, out):
        tid = cuda.threadIdx.x
        sh = cuda.shared.array(16, float64)
        if tid >= a.size:
            return
        sh[tid] = a[tid]
        if a[0] >= 0:
            cuda.syncthreads()
        out[tid] = sh[(tid + 1) % a.size]
    a = numpy.arange(10.0)
    out = numpy.zeros(10)
    early[1, 16](a, out)
    numpy.testing.assert_array_equal(out, numpy.roll(a, -1))


@pytest.mark.cpu_backend  # on a GPU divergent barriers are undefined
def test_threads_waiting_at_different_barriers_raise_instead_of_hanging():
    @cuda.jit
    def split(a):
        tid = cuda.threadIdx.x
        if tid < a[0]:
            cuda.syncthreads()
        else:
            cuda.syncthreads()
        a[tid + 1] = tid
    with pytest.raises(RuntimeError, match="only some threads"):
        split[1, 8](numpy.array([4.0] + [0.0] * 8))


# ---------------------------------------------------------------- the PTX of every kernel above


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_every_kernel_launched_above(arch, tmp_path):
    """Each signature the tests above launched (on the CPU backend), compiled
    to PTX and checked by ptxas: the GPU would run the same kernels."""
    kernels = [k for k in globals().values() if isinstance(k, cuda.CUDADispatcher)]
    checked = 0
    for kernel in kernels:
        for sig, ptx in kernel.inspect_ptx(cc=(int(arch[3]), int(arch[4]))).items():
            assert ptxas_errors(ptx, arch, tmp_path, kernel.__name__) == "", (kernel.__name__, sig)
            checked += 1
    assert checked >= len(kernels) // 2 or cuda.is_available()
