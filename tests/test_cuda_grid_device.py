"""grid.sync() inside device functions called from a kernel, and in kernels
whose threads run as fibers (a cuda.syncthreads() in a device function, a
barrier under a condition that differs between threads). On the CPU
backend the thread waits for its block, then the block for the grid.
Results are checked against NumPy."""
import numpy as np
import pytest

from ruchey import cuda, float64

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors


@cuda.jit(device=True)
def grid_barrier():
    cuda.cg.this_grid().sync()


@cuda.jit(device=True)
def shift_round(a, b, r):
    """b from a, rotated by one more each round; then the grid waits."""
    i = cuda.grid(1)
    b[i] = a[(i + r) % a.size] + 1.0
    grid_barrier()


@cuda.jit
def rounds(a, b, nrounds):
    i = cuda.grid(1)
    for r in range(nrounds):
        if r % 2 == 0:
            shift_round(a, b, r)
        else:
            shift_round(b, a, r)


def rounds_reference(a, b, nrounds):
    a, b = a.copy(), b.copy()
    for r in range(nrounds):
        src, dst = (a, b) if r % 2 == 0 else (b, a)
        dst[:] = np.roll(src, -(r % src.size)) + 1.0
    return a, b


@pytest.mark.parametrize("blocks, threads, nrounds", [(2, 32, 5), (8, 64, 6), (16, 1, 3), (3, 96, 4)])
def test_grid_sync_in_nested_device_functions(blocks, threads, nrounds):
    a = make_rng(1).random(blocks * threads)
    b = np.zeros_like(a)
    ea, eb = rounds_reference(a, b, nrounds)
    rounds[blocks, threads](a, b, nrounds)
    np.testing.assert_array_equal(a, ea)
    np.testing.assert_array_equal(b, eb)


@cuda.jit(device=True)
def block_then_grid(sh, partial, x):
    """A block barrier and a grid barrier in one device function."""
    t = cuda.threadIdx.x
    sh[t] = x[cuda.grid(1)]
    cuda.syncthreads()
    if t == 0:
        s = 0.0
        for k in range(cuda.blockDim.x):
            s += sh[k]
        partial[cuda.blockIdx.x] = s
    cuda.cg.this_grid().sync()


@cuda.jit
def two_level_sum(x, partial, total):
    sh = cuda.shared.array(128, float64)
    block_then_grid(sh, partial, x)
    if cuda.grid(1) == 0:
        s = 0.0
        for k in range(partial.size):
            s += partial[k]
        total[0] = s


@pytest.mark.parametrize("blocks", [1, 4, 33])
def test_block_and_grid_barriers_in_a_device_function(blocks):
    x = make_rng(2).random(blocks * 128)
    partial, total = np.zeros(blocks), np.zeros(1)
    two_level_sum[blocks, 128](x, partial, total)
    np.testing.assert_allclose(partial, x.reshape(blocks, 128).sum(axis=1), rtol=1e-12)
    assert total[0] == pytest.approx(x.sum(), rel=1e-12)


@cuda.jit(device=True)
def wait_for(g):
    g.sync()


@cuda.jit
def divergent_then_grid(out, counts):
    """Threads reach the same grid.sync() down branches that differ
    between them (so they run as fibers), and some return early."""
    i = cuda.grid(1)
    g = cuda.cg.this_grid()
    if i >= out.size:
        return
    if i % 2 == 0:
        out[i] = 2 * i
        wait_for(g)
    else:
        out[i] = 2 * i + 1
        wait_for(g)
    counts[i] = out[(i + 7) % out.size]


def test_grid_sync_with_threads_run_as_fibers():
    out = np.zeros(100, np.int64)
    counts = np.zeros(100, np.int64)
    divergent_then_grid[4, 32](out, counts)
    expected = np.arange(100) * 2 + np.arange(100) % 2
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(counts, np.roll(expected, -7))


@cuda.jit(device=True)
def sync_everything(g):
    cuda.syncthreads()
    g.sync()


@cuda.jit
def histogram_steps(x, hist, steps):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    for s in range(steps.size):
        if i < x.size:
            cuda.atomic.add(hist, (x[i] + s) % hist.size, 1)
        sync_everything(g)
        if i == 0:
            t = 0
            for k in range(hist.size):
                t += hist[k]
            steps[s] = t
        sync_everything(g)


def test_counts_seen_after_each_grid_barrier():
    x = make_rng(3).integers(0, 1000, 300).astype(np.int64)
    hist = np.zeros(10, np.int64)
    steps = np.zeros(4, np.int64)
    histogram_steps[5, 64](x, hist, steps)
    np.testing.assert_array_equal(steps, 300 * np.arange(1, 5))
    expected = np.zeros(10, np.int64)
    for s in range(4):
        np.add.at(expected, (x + s) % 10, 1)
    np.testing.assert_array_equal(hist, expected)


@pytest.mark.skipif(AS_NUMBA, reason="the CPU backend's limit")
def test_a_grid_too_large_is_refused_with_grid_sync_in_a_device_function():
    limit = rounds.max_cooperative_grid_blocks(1)
    a = np.zeros(limit + 1)
    with pytest.raises(RuntimeError, match="CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"):
        rounds[limit + 1, 1](a, a.copy(), 1)


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_grid_sync_in_device_functions(arch, tmp_path):
    for kernel, sig in ((rounds, "void(float64[::1], float64[::1], int64)"),
                        (two_level_sum, "void(float64[::1], float64[::1], float64[::1])")):
        ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(int(arch[3]), int(arch[4])))
        assert "atom" in ptx and "bar.sync" in ptx
        assert ptxas_errors(ptx, arch, tmp_path, kernel.__name__) == ""
