"""The kernels CUDA tutorials teach, written the way their readers write
them with numba.cuda: block reductions in shared memory and with warp
shuffles, stencils with halos, tiled matrix multiplication, histograms
with atomics (global and privatised in shared memory), Monte Carlo with
cuda.random, prefix sums across blocks, an all-pairs n-body step, a
transpose through a padded tile, grid-stride loops, a critical section
under a spin lock, a grid-wide sync, device ufuncs and reductions, copies
and launches on streams. Each is run (on the
CPU backend where there is no GPU) on generated inputs and checked
against NumPy."""
import math

import numpy as np
import pytest

from ruchey import cuda
from ruchey.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float64

from conftest import make_rng, seed_of

TPB = 128  # threads per block of the 1-d kernels
WARP = 32


def blocks_for(n, tpb=TPB):
    return max(1, (n + tpb - 1) // tpb)


# ---------------------------------------------------------------- reductions


@cuda.jit
def block_sum_shared(x, partial):
    """Tree reduction of each block's elements in shared memory; thread 0
    writes the block's sum."""
    cache = cuda.shared.array(TPB, dtype=np.float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    cache[tid] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    stride = cuda.blockDim.x // 2
    while stride > 0:
        if tid < stride:
            cache[tid] += cache[tid + stride]
        cuda.syncthreads()
        stride //= 2
    if tid == 0:
        partial[cuda.blockIdx.x] = cache[0]


@cuda.jit
def total_by_atomics(x, total):
    """Each block reduces in shared memory, then one atomic add per block."""
    cache = cuda.shared.array(TPB, dtype=np.int64)
    tid = cuda.threadIdx.x
    acc = 0
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc += x[i]
    cache[tid] = acc
    cuda.syncthreads()
    stride = TPB // 2
    while stride > 0:
        if tid < stride:
            cache[tid] += cache[tid + stride]
        cuda.syncthreads()
        stride //= 2
    if tid == 0:
        cuda.atomic.add(total, 0, cache[0])


@cuda.jit
def warp_shuffle_sum(x, total):
    """Each warp sums its lanes with shfl_down_sync; lane 0 adds the warp's
    sum to the total."""
    i = cuda.grid(1)
    value = x[i] if i < x.size else 0.0
    offset = WARP // 2
    while offset > 0:
        value += cuda.shfl_down_sync(0xFFFFFFFF, value, offset)
        offset //= 2
    if cuda.laneid == 0:
        cuda.atomic.add(total, 0, value)


@cuda.jit
def dot_product(a, b, out):
    cache = cuda.shared.array(TPB, dtype=np.float64)
    tid = cuda.threadIdx.x
    acc = 0.0
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        acc += a[i] * b[i]
    cache[tid] = acc
    cuda.syncthreads()
    stride = TPB // 2
    while stride > 0:
        if tid < stride:
            cache[tid] += cache[tid + stride]
        cuda.syncthreads()
        stride //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, cache[0])


@cuda.jit
def max_abs(x, best):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.max(best, 0, abs(x[i]))


@cuda.jit
def first_index_of(x, value, where):
    """The first index holding value[0]: the smallest by atomic.min."""
    i = cuda.grid(1)
    if i < x.size and abs(x[i]) == value[0]:
        cuda.atomic.min(where, 0, i)


@pytest.mark.parametrize("n", [1, 127, 128, 1000, 65537])
def test_block_sums_in_shared_memory(n):
    x = make_rng(seed_of("block_sum", n)).standard_normal(n)
    partial = np.zeros(blocks_for(n))
    block_sum_shared[blocks_for(n), TPB](x, partial)
    padded = np.zeros(blocks_for(n) * TPB)
    padded[:n] = x
    np.testing.assert_allclose(partial, padded.reshape(-1, TPB).sum(axis=1), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(partial.sum(), x.sum(), rtol=1e-10)


@pytest.mark.parametrize("n", [0, 5, 4096, 100003])
def test_grid_stride_sum_with_one_atomic_per_block(n):
    x = make_rng(seed_of("atomic_sum", n)).integers(-10**6, 10**6, size=n)
    total = np.zeros(1, dtype=np.int64)
    total_by_atomics[16, TPB](x, total)
    assert total[0] == x.sum()


@pytest.mark.parametrize("n", [1, 31, 32, 1000, 20001])
def test_warp_shuffle_sum(n):
    x = make_rng(seed_of("warp_sum", n)).standard_normal(n)
    total = np.zeros(1)
    warp_shuffle_sum[blocks_for(n), TPB](x, total)
    np.testing.assert_allclose(total[0], x.sum(), rtol=1e-10, atol=1e-12)


def test_dot_product_on_device_arrays():
    rng = make_rng(seed_of("dot"))
    a, b = rng.standard_normal(50000), rng.standard_normal(50000)
    out = cuda.to_device(np.zeros(1))
    dot_product[32, TPB](cuda.to_device(a), cuda.to_device(b), out)
    np.testing.assert_allclose(out.copy_to_host()[0], a @ b, rtol=1e-10)


@pytest.mark.parametrize("n", [1, 300, 10000])
def test_max_abs_and_its_first_index(n):
    x = make_rng(seed_of("maxabs", n)).standard_normal(n)
    x[n // 2], x[n // 3] = 9.5, -9.5  # a tie (where n > 2): the first index must win
    best = np.zeros(1)
    max_abs[blocks_for(n), TPB](x, best)
    where = np.full(1, n, dtype=np.int64)
    first_index_of[blocks_for(n), TPB](x, best, where)
    assert best[0] == np.abs(x).max()
    assert where[0] == np.argmax(np.abs(x))


# ---------------------------------------------------------------- stencils

HALO_TPB = 64


@cuda.jit
def smooth_1d(x, out):
    """A 3-point average with the block's tile and its two halo cells in
    shared memory; the ends copy through."""
    tile = cuda.shared.array(HALO_TPB + 2, dtype=np.float64)
    i = cuda.grid(1)
    t = cuda.threadIdx.x + 1
    n = x.size
    if i < n:
        tile[t] = x[i]
        if t == 1 and i > 0:
            tile[0] = x[i - 1]
        if t == HALO_TPB or i == n - 1:
            if i + 1 < n:
                tile[t + 1] = x[i + 1]
    cuda.syncthreads()
    if i < n:
        if i == 0 or i == n - 1:
            out[i] = x[i]
        else:
            out[i] = (tile[t - 1] + tile[t] + tile[t + 1]) / 3.0


TILE = 16


@cuda.jit
def jacobi_step(u, out):
    """One Jacobi sweep of Laplace's equation: each interior point becomes
    the mean of its four neighbours, read from a shared tile with a halo of
    one; the boundary is kept."""
    tile = cuda.shared.array((TILE + 2, TILE + 2), dtype=np.float64)
    row, col = cuda.grid(2)
    ty, tx = cuda.threadIdx.x + 1, cuda.threadIdx.y + 1
    rows, cols = u.shape
    inside = row < rows and col < cols
    if inside:
        tile[ty, tx] = u[row, col]
        if ty == 1 and row > 0:
            tile[0, tx] = u[row - 1, col]
        if (ty == TILE or row == rows - 1) and row + 1 < rows:
            tile[ty + 1, tx] = u[row + 1, col]
        if tx == 1 and col > 0:
            tile[ty, 0] = u[row, col - 1]
        if (tx == TILE or col == cols - 1) and col + 1 < cols:
            tile[ty, tx + 1] = u[row, col + 1]
    cuda.syncthreads()
    if inside:
        if row == 0 or col == 0 or row == rows - 1 or col == cols - 1:
            out[row, col] = u[row, col]
        else:
            out[row, col] = 0.25 * (tile[ty - 1, tx] + tile[ty + 1, tx] + tile[ty, tx - 1] + tile[ty, tx + 1])


def jacobi_numpy(u):
    out = u.copy()
    out[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 64, 65, 1000])
def test_three_point_smoothing_with_halo(n):
    x = make_rng(seed_of("smooth", n)).standard_normal(n)
    out = np.empty_like(x)
    smooth_1d[blocks_for(n, HALO_TPB), HALO_TPB](x, out)
    expected = x.copy()
    expected[1:-1] = (x[:-2] + x[1:-1] + x[2:]) / 3.0
    np.testing.assert_allclose(out, expected, rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("shape", [(16, 16), (17, 33), (50, 40), (3, 100)])
def test_jacobi_iterations_with_shared_tiles(shape):
    u = np.zeros(shape)
    u[0, :] = 1.0  # a hot edge
    u[:, -1] = make_rng(seed_of("jacobi", shape)).random(shape[0])
    grid = ((shape[0] + TILE - 1) // TILE, (shape[1] + TILE - 1) // TILE)
    d_a, d_b = cuda.to_device(u), cuda.device_array_like(u)
    expected = u
    for _ in range(10):
        jacobi_step[grid, (TILE, TILE)](d_a, d_b)
        d_a, d_b = d_b, d_a
        expected = jacobi_numpy(expected)
    np.testing.assert_allclose(d_a.copy_to_host(), expected, rtol=1e-13, atol=1e-15)


# ---------------------------------------------------------------- matrix multiplication


@cuda.jit
def matmul_tiled(a, b, c):
    """C = A @ B by TILE x TILE tiles of A and B staged in shared memory;
    sizes need not be multiples of the tile."""
    sa = cuda.shared.array((TILE, TILE), dtype=np.float64)
    sb = cuda.shared.array((TILE, TILE), dtype=np.float64)
    x, y = cuda.grid(2)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    acc = 0.0
    for k0 in range(0, a.shape[1], TILE):
        sa[tx, ty] = a[x, k0 + ty] if x < a.shape[0] and k0 + ty < a.shape[1] else 0.0
        sb[tx, ty] = b[k0 + tx, y] if k0 + tx < b.shape[0] and y < b.shape[1] else 0.0
        cuda.syncthreads()
        for k in range(TILE):
            acc += sa[tx, k] * sb[k, ty]
        cuda.syncthreads()
    if x < c.shape[0] and y < c.shape[1]:
        c[x, y] = acc


@cuda.jit
def matmul_naive_f32(a, b, c):
    i, j = cuda.grid(2)
    if i < c.shape[0] and j < c.shape[1]:
        acc = np.float32(0.0)
        for k in range(a.shape[1]):
            acc += a[i, k] * b[k, j]
        c[i, j] = acc


@pytest.mark.parametrize("m,k,n", [(16, 16, 16), (1, 5, 1), (33, 17, 40), (100, 64, 70)])
def test_tiled_matmul(m, k, n):
    rng = make_rng(seed_of("matmul", m, k, n))
    a, b = rng.standard_normal((m, k)), rng.standard_normal((k, n))
    c = np.empty((m, n))
    matmul_tiled[((m + TILE - 1) // TILE, (n + TILE - 1) // TILE), (TILE, TILE)](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-12, atol=1e-12)


def test_naive_matmul_float32():
    rng = make_rng(seed_of("matmul32"))
    a = rng.standard_normal((45, 30)).astype(np.float32)
    b = rng.standard_normal((30, 21)).astype(np.float32)
    c = cuda.device_array((45, 21), dtype=np.float32)
    matmul_naive_f32[(3, 2), (16, 16)](a, b, c)
    got = c.copy_to_host()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, a @ b, rtol=1e-4, atol=1e-4)


# ---------------------------------------------------------------- histograms

BINS = 64


@cuda.jit
def histogram_global(x, lo, width, hist):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        b = int((x[i] - lo) / width)
        if 0 <= b < hist.size:
            cuda.atomic.add(hist, b, 1)


@cuda.jit
def histogram_privatised(x, lo, width, hist):
    """Each block counts into its own shared histogram, then adds it to the
    global one: one global atomic per bin per block."""
    local = cuda.shared.array(BINS, dtype=np.int32)
    for b in range(cuda.threadIdx.x, BINS, cuda.blockDim.x):
        local[b] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        b = int((x[i] - lo) / width)
        if 0 <= b < BINS:
            cuda.atomic.add(local, b, 1)
    cuda.syncthreads()
    for b in range(cuda.threadIdx.x, BINS, cuda.blockDim.x):
        cuda.atomic.add(hist, b, local[b])


def expected_histogram(x, lo, width):
    b = np.trunc((x - lo) / width)  # as int() does: values just below lo land in bin 0
    b = b[(b >= 0) & (b < BINS)].astype(np.int64)
    return np.bincount(b, minlength=BINS)


@pytest.mark.parametrize("kernel", [histogram_global, histogram_privatised])
@pytest.mark.parametrize("n", [0, 1, 1000, 200001])
def test_histogram_with_atomics(kernel, n):
    x = make_rng(seed_of("hist", n)).standard_normal(n) * 2.0
    lo, width = -3.0, 6.0 / BINS  # values outside [-3, 3) are dropped
    hist = np.zeros(BINS, dtype=np.int32)
    kernel[8, TPB](x, lo, width, hist)
    np.testing.assert_array_equal(hist, expected_histogram(x, lo, width))


# ---------------------------------------------------------------- Monte Carlo with cuda.random


@cuda.jit
def pi_darts(states, per_thread, draws, hits):
    """Each thread throws per_thread darts at the unit square, keeps them
    (for the check) and counts those inside the quarter circle."""
    t = cuda.grid(1)
    if t >= hits.size:
        return
    inside = 0
    for k in range(per_thread):
        x = xoroshiro128p_uniform_float64(states, t)
        y = xoroshiro128p_uniform_float64(states, t)
        draws[t, k, 0] = x
        draws[t, k, 1] = y
        if x * x + y * y <= 1.0:
            inside += 1
    hits[t] = inside


def test_monte_carlo_pi_with_xoroshiro():
    threads, per_thread = 1000, 200
    draws = np.empty((threads, per_thread, 2))
    hits = np.zeros(threads, dtype=np.int64)
    states = create_xoroshiro128p_states(threads, seed=42)
    pi_darts[blocks_for(threads), TPB](states, per_thread, draws, hits)
    assert ((draws >= 0.0) & (draws < 1.0)).all()
    np.testing.assert_array_equal(hits, ((draws ** 2).sum(axis=2) <= 1.0).sum(axis=1))
    n = threads * per_thread
    estimate = 4.0 * hits.sum() / n
    assert abs(estimate - math.pi) < 5 * 4.0 * math.sqrt(math.pi / 4 * (1 - math.pi / 4) / n)
    # the same seed gives the same darts; the threads' streams differ
    again = np.empty_like(draws)
    pi_darts[blocks_for(threads), TPB](create_xoroshiro128p_states(threads, seed=42), per_thread, again, hits)
    np.testing.assert_array_equal(again, draws)
    assert len(np.unique(draws[:, 0, 0])) == threads


# ---------------------------------------------------------------- prefix sums

SCAN_TPB = 256


@cuda.jit
def scan_blocks(x, out, block_sums):
    """Inclusive scan of each block (Hillis-Steele, double-buffered in
    shared memory); each block's total goes to block_sums."""
    buf = cuda.shared.array((2, SCAN_TPB), dtype=np.int64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[0, tid] = x[i] if i < x.size else 0
    cuda.syncthreads()
    src = 0
    offset = 1
    while offset < SCAN_TPB:
        dst = 1 - src
        if tid >= offset:
            buf[dst, tid] = buf[src, tid] + buf[src, tid - offset]
        else:
            buf[dst, tid] = buf[src, tid]
        cuda.syncthreads()
        src = dst
        offset *= 2
    if i < x.size:
        out[i] = buf[src, tid]
    if tid == SCAN_TPB - 1:
        block_sums[cuda.blockIdx.x] = buf[src, tid]


@cuda.jit
def add_block_offsets(out, offsets):
    i = cuda.grid(1)
    if i < out.size and cuda.blockIdx.x > 0:
        out[i] += offsets[cuda.blockIdx.x - 1]


def device_cumsum(x):
    """A scan of any length: scan the blocks, scan their totals (recursively),
    add each block's offset."""
    blocks = blocks_for(x.size, SCAN_TPB)
    out = cuda.device_array(x.size, dtype=np.int64)
    sums = cuda.device_array(blocks, dtype=np.int64)
    scan_blocks[blocks, SCAN_TPB](x, out, sums)
    if blocks > 1:
        offsets = device_cumsum(sums)
        add_block_offsets[blocks, SCAN_TPB](out, offsets)
    return out


@pytest.mark.parametrize("n", [1, 255, 256, 257, 5000, 300000])
def test_prefix_sum_across_blocks(n):
    x = make_rng(seed_of("scan", n)).integers(-1000, 1000, size=n)
    np.testing.assert_array_equal(device_cumsum(cuda.to_device(x)).copy_to_host(), np.cumsum(x))


# ---------------------------------------------------------------- n-body

BODY_TILE = 64
SOFTENING = 1e-3


@cuda.jit(device=True)
def pull(xi, yi, zi, xj, yj, zj, mj):
    dx, dy, dz = xj - xi, yj - yi, zj - zi
    r2 = dx * dx + dy * dy + dz * dz + SOFTENING * SOFTENING
    s = mj / (r2 * math.sqrt(r2))
    return dx * s, dy * s, dz * s


@cuda.jit
def accelerations(pos, mass, acc):
    """All-pairs gravity: the bodies pass through shared memory a tile at a
    time; each thread sums the pulls on its own body."""
    tile = cuda.shared.array((BODY_TILE, 4), dtype=np.float64)
    i = cuda.grid(1)
    n = pos.shape[0]
    xi = pos[i, 0] if i < n else 0.0
    yi = pos[i, 1] if i < n else 0.0
    zi = pos[i, 2] if i < n else 0.0
    ax = ay = az = 0.0
    for start in range(0, n, BODY_TILE):
        j = start + cuda.threadIdx.x
        for c in range(3):
            tile[cuda.threadIdx.x, c] = pos[j, c] if j < n else 0.0
        tile[cuda.threadIdx.x, 3] = mass[j] if j < n else 0.0
        cuda.syncthreads()
        for k in range(min(BODY_TILE, n - start)):
            px, py, pz = pull(xi, yi, zi, tile[k, 0], tile[k, 1], tile[k, 2], tile[k, 3])
            ax += px
            ay += py
            az += pz
        cuda.syncthreads()
    if i < n:
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az


@cuda.jit
def leapfrog(pos, vel, acc, dt):
    i = cuda.grid(1)
    if i < pos.shape[0]:
        for c in range(3):
            vel[i, c] += dt * acc[i, c]
            pos[i, c] += dt * vel[i, c]


def accelerations_numpy(pos, mass):
    d = pos[None, :, :] - pos[:, None, :]
    r2 = (d ** 2).sum(axis=2) + SOFTENING ** 2
    return (d * (mass[None, :] / (r2 * np.sqrt(r2)))[:, :, None]).sum(axis=1)


@pytest.mark.parametrize("n", [1, 63, 64, 200])
def test_nbody_steps(n):
    rng = make_rng(seed_of("nbody", n))
    pos, vel, mass = rng.standard_normal((n, 3)), rng.standard_normal((n, 3)) * 0.1, rng.random(n)
    d_pos, d_vel, d_mass = cuda.to_device(pos), cuda.to_device(vel), cuda.to_device(mass)
    d_acc = cuda.device_array((n, 3))
    for _ in range(3):
        accelerations[blocks_for(n, BODY_TILE), BODY_TILE](d_pos, d_mass, d_acc)
        leapfrog[blocks_for(n, BODY_TILE), BODY_TILE](d_pos, d_vel, d_acc, 0.01)
        acc = accelerations_numpy(pos, mass)
        vel = vel + 0.01 * acc
        pos = pos + 0.01 * vel
    np.testing.assert_allclose(d_pos.copy_to_host(), pos, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(d_vel.copy_to_host(), vel, rtol=1e-10, atol=1e-12)


# ---------------------------------------------------------------- transpose, grid-stride loops, local arrays


@cuda.jit
def transpose_padded(a, out):
    """Through a TILE x (TILE + 1) tile: the padding column keeps a warp's
    reads of a tile column on different shared-memory banks."""
    tile = cuda.shared.array((TILE, TILE + 1), dtype=np.float32)
    bx, by = cuda.blockIdx.x * TILE, cuda.blockIdx.y * TILE
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    if by + ty < a.shape[0] and bx + tx < a.shape[1]:
        tile[ty, tx] = a[by + ty, bx + tx]
    cuda.syncthreads()
    if bx + ty < out.shape[0] and by + tx < out.shape[1]:
        out[bx + ty, by + tx] = tile[tx, ty]


@cuda.jit
def saxpy_grid_stride(a, x, y, out):
    start, step = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, x.size, step):
        out[i] = a * x[i] + y[i]


@cuda.jit
def median_of_five_windows(x, out):
    """Each thread sorts its window of five in a local array (insertion
    sort) and keeps the middle one: a median filter."""
    i = cuda.grid(1)
    if i + 5 <= x.size:
        w = cuda.local.array(5, dtype=np.float64)
        for k in range(5):
            w[k] = x[i + k]
        for k in range(1, 5):
            v = w[k]
            j = k - 1
            while j >= 0 and w[j] > v:
                w[j + 1] = w[j]
                j -= 1
            w[j + 1] = v
        out[i] = w[2]


@cuda.jit
def mandelbrot_counts(xs, ys, limit, counts):
    i, j = cuda.grid(2)
    if i < ys.size and j < xs.size:
        c = complex(xs[j], ys[i])
        z = 0j
        k = 0
        while k < limit and (z.real * z.real + z.imag * z.imag) <= 4.0:
            z = z * z + c
            k += 1
        counts[i, j] = k


@pytest.mark.parametrize("shape", [(16, 16), (1, 40), (37, 53), (100, 3)])
def test_transpose_through_padded_tile(shape):
    a = make_rng(seed_of("transpose", shape)).standard_normal(shape).astype(np.float32)
    out = np.zeros(shape[::-1], dtype=np.float32)
    transpose_padded[((shape[1] + TILE - 1) // TILE, (shape[0] + TILE - 1) // TILE), (TILE, TILE)](a, out)
    np.testing.assert_array_equal(out, a.T)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_saxpy_grid_stride(dtype):
    rng = make_rng(seed_of("saxpy", dtype.__name__))
    x, y = (rng.standard_normal(100001).astype(dtype) for _ in range(2))
    out = np.empty_like(x)
    saxpy_grid_stride[7, 96](dtype(2.5), x, y, out)
    np.testing.assert_allclose(out, dtype(2.5) * x + y, rtol=1e-6 if dtype == np.float32 else 1e-15)


def test_median_filter_with_local_arrays():
    x = make_rng(seed_of("median")).standard_normal(1000)
    out = np.zeros(996)
    median_of_five_windows[blocks_for(996), TPB](x, out)
    np.testing.assert_array_equal(out, np.median(np.lib.stride_tricks.sliding_window_view(x, 5), axis=1))


def test_mandelbrot_escape_counts():
    xs, ys = np.linspace(-2.0, 0.6, 90), np.linspace(-1.2, 1.2, 70)
    counts = np.zeros((70, 90), dtype=np.int32)
    mandelbrot_counts[(5, 6), (16, 16)](xs, ys, 100, counts)
    c = xs[None, :] + 1j * ys[:, None]
    z = np.zeros_like(c)
    expected = np.zeros(c.shape, dtype=np.int32)
    for _ in range(100):
        alive = (z.real * z.real + z.imag * z.imag) <= 4.0
        z[alive] = z[alive] * z[alive] + c[alive]
        expected += alive
    np.testing.assert_array_equal(counts, expected)


# ---------------------------------------------------------------- locks, grid sync, ufuncs, streams


@cuda.jit(device=True)
def acquire(lock):
    while cuda.atomic.cas(lock, 0, 0, 1) != 0:
        pass
    cuda.threadfence()


@cuda.jit(device=True)
def release(lock):
    cuda.threadfence()
    cuda.atomic.exch(lock, 0, 0)


@cuda.jit
def block_stats_under_lock(x, lock, stats):
    """Each block reduces its elements in shared memory; its thread 0 then
    updates the sum, the maximum and the count of blocks (three values no
    single atomic covers) in a critical section under a spin lock."""
    total = cuda.shared.array(TPB, dtype=np.float64)
    most = cuda.shared.array(TPB, dtype=np.float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    total[tid] = x[i] if i < x.size else 0.0
    most[tid] = x[i] if i < x.size else -np.inf
    cuda.syncthreads()
    stride = TPB // 2
    while stride > 0:
        if tid < stride:
            total[tid] += total[tid + stride]
            most[tid] = max(most[tid], most[tid + stride])
        cuda.syncthreads()
        stride //= 2
    if tid == 0:
        acquire(lock)
        stats[0] += total[0]
        stats[1] = max(stats[1], most[0])
        stats[2] += 1.0
        release(lock)


@cuda.jit
def normalise_in_one_launch(x, total, out):
    """Sums x into total, waits for the whole grid, then divides by it: a
    cooperative launch's grid.sync() between the two phases."""
    grid = cuda.cg.this_grid()
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        cuda.atomic.add(total, 0, x[i])
    grid.sync()
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = x[i] / total[0]


@pytest.mark.parametrize("n", [1, 129, 20000])
def test_critical_section_under_a_spin_lock(n):
    x = make_rng(seed_of("lock", n)).standard_normal(n)
    stats = np.array([0.0, -np.inf, 0.0])
    block_stats_under_lock[blocks_for(n), TPB](x, np.zeros(1, dtype=np.int32), stats)
    np.testing.assert_allclose(stats[0], x.sum(), rtol=1e-10, atol=1e-12)
    assert stats[1] == x.max() and stats[2] == blocks_for(n)


@pytest.mark.parametrize("n", [1, 1000, 50000])
def test_grid_sync_between_two_phases(n):
    x = make_rng(seed_of("gridsync", n)).random(n) + 0.5
    total, out = np.zeros(1), np.empty(n)
    normalise_in_one_launch[4, TPB](x, total, out)
    np.testing.assert_allclose(total[0], x.sum(), rtol=1e-10)
    np.testing.assert_allclose(out, x / x.sum(), rtol=1e-10)


@cuda.reduce
def sum_of(a, b):
    return a + b


def test_vectorized_ufunc_and_reduction_on_the_device():
    rng = make_rng(seed_of("ufunc"))
    x, y = rng.standard_normal(10000), rng.standard_normal(10000)

    from ruchey import vectorize

    @vectorize(["float64(float64, float64)"], target="cuda")
    def hypot_scaled(a, b):
        return math.sqrt(a * a + b * b) * 0.5

    np.testing.assert_allclose(hypot_scaled(x, y), np.hypot(x, y) * 0.5, rtol=1e-15)
    np.testing.assert_allclose(sum_of(x), x.sum(), rtol=1e-10)
    assert sum_of(np.arange(1000, dtype=np.int64)) == 499500


def test_async_copies_and_launches_on_streams():
    """The overlap tutorials' pattern: chunks copied in on streams, a kernel
    launched on each stream, copied back into pinned memory."""
    x = make_rng(seed_of("streams")).standard_normal(8 * 4096)
    out = cuda.pinned_array(x.shape, dtype=np.float64)
    streams = [cuda.stream() for _ in range(4)]
    for k, chunk in enumerate(np.split(x, 8)):
        stream = streams[k % 4]
        d_in = cuda.to_device(chunk, stream=stream)
        d_out = cuda.device_array_like(d_in, stream=stream)
        saxpy_grid_stride[8, TPB, stream](2.0, d_in, d_in, d_out)
        d_out.copy_to_host(out[k * 4096:(k + 1) * 4096], stream=stream)
    for stream in streams:
        stream.synchronize()
    np.testing.assert_allclose(out, 3.0 * x, rtol=1e-15)
