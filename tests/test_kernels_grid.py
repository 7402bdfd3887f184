"""Cooperative groups: g = cuda.cg.this_grid() and g.sync(), a barrier for
every thread of the grid. Such a kernel is launched with all its blocks
running at once: on the GPU cooperatively (cuLaunchCooperativeKernel), on
the CPU backend with each block a fiber. Results are checked against NumPy
and plain Python."""
import numpy
import pytest

import ruchey
from ruchey import cuda, int32, int64

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors


@cuda.jit
def sequential_rows(M):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    rows = M.shape[0]
    cols = M.shape[1]
    for row in range(1, rows):
        opposite = cols - col - 1
        # each row's elements are one greater than the previous row's, mirrored
        M[row, col] = M[row - 1, opposite] + 1
        g.sync()


def test_numba_cudas_grid_sync_example():
    A = numpy.zeros((256, 256), dtype=numpy.int32)
    blockdim = 32
    griddim = A.shape[1] // blockdim
    assert sequential_rows.max_cooperative_grid_blocks(blockdim) >= griddim
    sequential_rows[griddim, blockdim](A)
    numpy.testing.assert_array_equal(A, numpy.tile(numpy.arange(256), (256, 1)).T)


@cuda.jit
def two_pass_sum(x, partial, total):
    """Each block sums its part, the grid waits, then block 0 adds the parts."""
    shared = cuda.shared.array(128, numpy.float64)
    g = cuda.cg.this_grid()
    t = cuda.threadIdx.x
    acc = 0.0
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc += x[i]
    shared[t] = acc
    cuda.syncthreads()
    step = cuda.blockDim.x // 2
    while step > 0:
        if t < step:
            shared[t] += shared[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = shared[0]
    g.sync()
    if cuda.grid(1) == 0:
        s = 0.0
        for b in range(partial.size):
            s += partial[b]
        total[0] = s


@pytest.mark.parametrize("blocks", [1, 3, 16])
def test_blocks_see_each_others_writes_after_the_grid_sync(blocks):
    x = make_rng(blocks).integers(-1000, 1000, size=10000).astype(numpy.float64)
    partial = numpy.zeros(blocks)
    total = numpy.zeros(1)
    two_pass_sum[blocks, 128](x, partial, total)
    assert total[0] == x.sum()


@cuda.jit
def ping_pong(a, b, rounds):
    """Every round reads what another block wrote in the round before."""
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    n = a.size
    for r in range(rounds):
        if r % 2 == 0:
            b[i] = a[(i + 37) % n] + 1
        else:
            a[i] = b[(i + 37) % n] * 2
        g.sync()


def test_many_grid_syncs_in_a_loop_over_a_2d_grid():
    n = 4 * 64
    a = numpy.arange(n, dtype=numpy.int64)
    b = numpy.zeros(n, dtype=numpy.int64)
    ra, rb = a.copy(), b.copy()
    for r in range(9):
        if r % 2 == 0:
            rb = numpy.roll(ra, -37) + 1
        else:
            ra = numpy.roll(rb, -37) * 2
    ping_pong[4, 64](a, b, 9)
    numpy.testing.assert_array_equal(a, ra)
    numpy.testing.assert_array_equal(b, rb)


@cuda.jit(device=True)
def wait_for_grid(g):
    g.sync()


@cuda.jit
def syncs_in_a_device_function(out):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    out[i] = 1
    wait_for_grid(g)
    v = out[i] + out[(i + 4) % out.size]
    wait_for_grid(g)  # every thread has read before any writes
    out[i] = v


@pytest.mark.not_compared
def test_grid_sync_in_a_device_function():
    out = numpy.zeros(8, dtype=numpy.int64)
    syncs_in_a_device_function[2, 4](out)  # test_cuda_grid_device.py has more
    numpy.testing.assert_array_equal(out, numpy.full(8, 2))


@pytest.mark.cpu_backend
@pytest.mark.skipif(AS_NUMBA, reason="the CPU backend's limit")
def test_a_grid_too_large_to_run_at_once_is_refused_on_the_cpu_backend():
    limit = sequential_rows.max_cooperative_grid_blocks(1)
    assert limit == cuda.get_current_device().MAX_COOPERATIVE_BLOCKS
    assert sequential_rows.overloads[(int32[:, ::1],)].max_cooperative_grid_blocks((4, 4)) == limit
    with pytest.raises(RuntimeError, match="CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"):
        sequential_rows[limit + 1, 1](numpy.zeros((2, limit + 1), dtype=numpy.int32))


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's analyses")
def test_a_grid_sync_kernel_runs_its_blocks_as_fibers():
    from ruchey import _core
    text = _core._analyses(sequential_rows.py_func, (int32[:, ::1].describe(),), False, True)
    assert "kernel: fission" in text


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_grid_sync_is_a_barrier_in_global_memory_in_the_ptx():
    ptx, _ = cuda.compile_ptx(sequential_rows.py_func, "void(int32[:, ::1])", cc=(8, 0))
    assert ".global .align 4 .u32 ruchey_$_grid_$_barrier" in ptx
    assert "atom.global.add.u32" in ptx and "ld.volatile.global.u32" in ptx and "bar.sync" in ptx


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_the_grid_kernels(arch, tmp_path):
    for kernel, sig in [(sequential_rows, "void(int32[:, ::1])"),
                        (two_pass_sum, "void(float64[::1], float64[::1], float64[::1])"),
                        (ping_pong, "void(int64[::1], int64[::1], int64)"),
                        (syncs_in_a_device_function, "void(int64[::1])")]:
        ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(int(arch[3]), int(arch[4])))
        assert ptxas_errors(ptx, arch, tmp_path, kernel.__name__) == ""
