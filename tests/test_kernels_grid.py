"""Cooperative groups: g = cuda.cg.this_grid() and g.sync(), a barrier for
every thread of the grid. Such a kernel is launched with all its blocks
running at once: on the GPU cooperatively (cuLaunchCooperativeKernel), on
the CPU backend with each block a fiber. Results are checked against NumPy
and plain Python."""
import platform

import numpy
import pytest

import ruchey
from ruchey import cuda, float32, float64, int32, int64

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, run_python_file, seed_of


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


@pytest.mark.skipif(AS_NUMBA, reason="numba-cuda's simulator marks no kernel cooperative")
def test_a_kernel_waiting_for_its_grid_is_cooperative():
    """overloads[sig].cooperative: whether the kernel waits for its whole grid
    (itself or in a device function it calls), as numba-cuda marks it; a block's
    barrier alone is not one."""
    @cuda.jit
    def block_barrier(x, out):
        i = cuda.grid(1)
        x[i] = i
        cuda.syncthreads()
        out[i] = x[i] + x[cuda.blockIdx.x * cuda.blockDim.x]

    out = numpy.zeros(8, dtype=numpy.int64)
    block_barrier[2, 4](numpy.zeros(8, dtype=numpy.int64), out)
    numpy.testing.assert_array_equal(out, numpy.arange(8) + numpy.repeat([0, 4], 4))
    syncs_in_a_device_function[2, 4](numpy.zeros(8, dtype=numpy.int64))
    sequential_rows[1, 4](numpy.zeros((3, 4), dtype=numpy.int32))
    for kernel, cooperative in ((syncs_in_a_device_function, True), (sequential_rows, True), (block_barrier, False)):
        assert [o.cooperative for o in kernel.overloads.values()] == [cooperative]
    sig = "void(int64[::1], int64[::1])"
    assert not cuda.jit(sig)(block_barrier.py_func).overloads[sig].cooperative


@cuda.jit
def takes_its_grid(out):
    cuda.cg.this_grid()  # (no sync: the grid group alone)
    i = cuda.grid(1)
    if i < out.size:
        out[i] = i * 3


@cuda.jit(device=True)
def grid_group():
    return cuda.cg.this_grid()


@cuda.jit
def takes_its_grid_in_a_device_function(out):
    grid_group()
    i = cuda.grid(1)
    if i < out.size:
        out[i] = i + 1


@pytest.mark.skipif(AS_NUMBA, reason="numba-cuda's simulator marks no kernel cooperative")
@pytest.mark.parametrize("n", [1, 7, 20])
def test_a_kernel_taking_its_grid_group_without_sync_is_cooperative(n):
    """cuda.cg.this_grid() alone makes the kernel numba-cuda's cooperative one
    (its grid group needs a cooperative launch), in it or in a device function."""
    for kernel, model in ((takes_its_grid, lambda i: i * 3), (takes_its_grid_in_a_device_function, lambda i: i + 1)):
        out = numpy.zeros(n, dtype=numpy.int64)
        kernel[(n + 3) // 4, 4](out)
        numpy.testing.assert_array_equal(out, [model(i) for i in range(n)])
        assert [o.cooperative for o in kernel.overloads.values()] == [True]


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


@cuda.jit
def uneven_steps(x, out, rounds):
    """Block b works b times longer than block 0 between barriers, so that
    pool threads finish their shares at different times and take others'."""
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    n = x.size
    for r in range(rounds):
        acc = 0.0
        for k in range(cuda.blockIdx.x * 20 + 1):
            acc += x[(i + k) % n]
        out[i] = acc
        g.sync()
        x[i] = out[(i + 5) % n] * 0.5
        g.sync()


def uneven_steps_reference(x, blocks, threads, rounds):
    x = x.copy()
    n = x.size
    idx = numpy.arange(n)
    for _ in range(rounds):
        out = numpy.zeros(n)
        for i in range(n):
            acc = 0.0
            for k in range((i // threads) * 20 + 1):
                acc += x[(i + k) % n]
            out[i] = acc
        x = out[(idx + 5) % n] * 0.5
    return x, out


@pytest.mark.parametrize("num_threads", [1, 2, "all"])
@pytest.mark.parametrize("blocks", [3, 40])
def test_uneven_blocks_between_grid_syncs_on_every_thread_count(blocks, num_threads):
    threads = 8
    rounds = 3
    x = make_rng(seed_of("uneven_steps", blocks)).random(blocks * threads)
    want_x, want_out = uneven_steps_reference(x, blocks, threads, rounds)
    before = ruchey.get_num_threads()
    count = before if num_threads == "all" else min(num_threads, ruchey.config.NUMBA_NUM_THREADS)
    ruchey.set_num_threads(count)
    try:
        out = numpy.zeros_like(x)
        uneven_steps[blocks, threads](x, out, rounds)
    finally:
        ruchey.set_num_threads(before)
    numpy.testing.assert_allclose(out, want_out, rtol=1e-12)
    numpy.testing.assert_allclose(x, want_x, rtol=1e-12)


@cuda.jit
def many_blocks_count(counts, rounds):
    g = cuda.cg.this_grid()
    b = cuda.blockIdx.x
    for r in range(rounds):
        if cuda.threadIdx.x == 0:
            counts[b] += 1
        g.sync()
        if cuda.threadIdx.x == 0 and counts[(b + 1) % counts.size] != r + 1:
            counts[b] = -1000000  # a block ran ahead of the grid
        g.sync()


def test_a_thousand_blocks_step_together():
    counts = numpy.zeros(1024, dtype=numpy.int64)
    many_blocks_count[1024, 2](counts, 7)
    numpy.testing.assert_array_equal(counts, numpy.full(1024, 7))


@cuda.jit
def print_between_syncs(rounds):
    g = cuda.cg.this_grid()
    for r in range(rounds):
        if cuda.threadIdx.x == 0:
            print("step", r, "block", cuda.blockIdx.x)
        g.sync()


def test_print_lines_come_out_step_by_step_in_block_order(capfd):
    print_between_syncs[12, 4](3)
    lines = capfd.readouterr().out.splitlines()
    assert lines == [f"step {r} block {b}" for r in range(3) for b in range(12)]


@cuda.jit
def carried_across_grid_syncs(xf, xi, out_f64, out_f32, out_i64, out_i32, out_b, rounds):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    tx = cuda.threadIdx.x
    n = xf.size
    sh = cuda.shared.array(64, float64)
    loc = cuda.local.array(3, int64)
    f64 = xf[i]
    f32 = float32(xf[i])
    k = xi[i]
    k32 = int32(i % 7)
    flag = i % 3 == 0
    base = cuda.blockIdx.x * 3 + 1  # the same in the whole block
    for j in range(3):
        loc[j] = i + j
    for r in range(rounds):
        left = xf[(i + n - 1) % n]
        right = xi[(i + 1) % n]
        sh[tx] = f64
        g.sync()
        f64 = f64 * 0.5 + left + sh[(tx + 1) % cuda.blockDim.x]
        f32 = f32 * float32(0.5) + float32(left)
        k = k + right + base
        k32 = int32((k32 * 3 + r) % 1000)
        flag = flag != (k % 2 == 0)
        loc[r % 3] += k
        xf[i] = f64 * 0.25
        xi[i] = k
        g.sync()
    out_f64[i] = f64
    out_f32[i] = f32
    out_i64[i] = k + loc[0] + loc[1] + loc[2]
    out_i32[i] = k32
    out_b[i] = flag


def carried_reference(xf, xi, threads, rounds):
    n = xf.size
    i = numpy.arange(n)
    block = i // threads
    neighbour = block * threads + (i % threads + 1) % threads
    f64 = xf.copy()
    f32 = xf.astype(numpy.float32)
    k = xi.copy()
    k32 = (i % 7).astype(numpy.int32)
    flag = i % 3 == 0
    loc = numpy.stack([i + j for j in range(3)])
    for r in range(rounds):
        left = xf[(i + n - 1) % n]
        right = xi[(i + 1) % n]
        f64 = f64 * 0.5 + left + f64[neighbour]
        f32 = f32 * numpy.float32(0.5) + left.astype(numpy.float32)
        k = k + right + block * 3 + 1
        k32 = ((k32.astype(numpy.int64) * 3 + r) % 1000).astype(numpy.int32)
        flag = flag != (k % 2 == 0)
        loc[r % 3] += k
        xf = f64 * 0.25
        xi = k
    return f64, f32, k + loc.sum(axis=0), k32, flag


@pytest.mark.parametrize("num_threads", [1, 2, "all"])
@pytest.mark.parametrize("blocks, threads", [(1024, 32), (4096, 1), (1000, 3), (7, 64)])
def test_large_grids_keep_every_live_value_across_many_grid_syncs(blocks, threads, num_threads):
    # values of every type, per thread, per block and in shared and local
    # arrays, across 2 * rounds barriers, whichever pool thread resumes a block
    rounds = 12
    rng = make_rng(seed_of("carried", blocks, threads))
    xf = rng.random(blocks * threads)
    xi = rng.integers(-1000, 1000, blocks * threads).astype(numpy.int64)
    want = carried_reference(xf, xi, threads, rounds)
    outs = [numpy.zeros(blocks * threads, dtype) for dtype in (numpy.float64, numpy.float32, numpy.int64, numpy.int32, numpy.bool_)]
    before = ruchey.get_num_threads()
    ruchey.set_num_threads(before if num_threads == "all" else min(num_threads, ruchey.config.NUMBA_NUM_THREADS))
    try:
        carried_across_grid_syncs[blocks, threads](xf, xi, *outs, rounds)
    finally:
        ruchey.set_num_threads(before)
    numpy.testing.assert_allclose(outs[0], want[0], rtol=1e-12)
    numpy.testing.assert_allclose(outs[1], want[1], rtol=1e-5)
    for got, expected in zip(outs[2:], want[2:]):
        numpy.testing.assert_array_equal(got, expected)


@cuda.jit
def rounds_through_a_device_function(x, out, rounds):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    n = x.size
    acc = 0.0
    for r in range(rounds):
        left = x[(i + n - 1) % n]
        wait_for_grid(g)
        acc = acc * 0.5 + left
        x[i] = acc + r
        wait_for_grid(g)
    out[i] = acc


@pytest.mark.parametrize("num_threads", [1, 2, "all"])
@pytest.mark.parametrize("blocks, threads", [(1024, 1), (300, 4), (5, 33)])
def test_large_grids_of_fibers_keep_their_values_across_grid_syncs(blocks, threads, num_threads):
    # a grid.sync() in a device function: each block's threads are fibers
    rounds = 10
    x = make_rng(seed_of("fiber rounds", blocks, threads)).random(blocks * threads)
    n = x.size
    want_x, want = x.copy(), numpy.zeros(n)
    for r in range(rounds):
        want = want * 0.5 + want_x[(numpy.arange(n) + n - 1) % n]
        want_x = want + r
    out = numpy.zeros(n)
    before = ruchey.get_num_threads()
    ruchey.set_num_threads(before if num_threads == "all" else min(num_threads, ruchey.config.NUMBA_NUM_THREADS))
    try:
        rounds_through_a_device_function[blocks, threads](x, out, rounds)
    finally:
        ruchey.set_num_threads(before)
    numpy.testing.assert_allclose(out, want, rtol=1e-12)
    numpy.testing.assert_allclose(x, want_x, rtol=1e-12)

BLOCK_BEYOND_ITS_STACK = """
import resource
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
import numpy
from ruchey import cuda, float64

@cuda.jit
def too_deep(out, rounds):
    g = cuda.cg.this_grid()
    deep = cuda.local.array(2000000, float64)  # 16 MB a thread: more than a block's stack
    for r in range(rounds):
        deep[r] = r
        g.sync()
    out[cuda.grid(1)] = deep[0] + deep[rounds - 1] + cuda.grid(1)

out = numpy.zeros(4)
too_deep[4, 1](out, 3)
print("RAN", out.tolist())
"""


@pytest.mark.skipif(platform.machine() != "x86_64", reason="grid.sync() runs blocks as fibers on x86-64 only")
def test_a_block_needing_more_than_its_stack_takes_its_storage_from_the_heap(tmp_path):
    # in a subprocess: were the storage on the block's stack, it would fault
    # at the guard page under it (rather than write over another block's)
    proc = run_python_file(BLOCK_BEYOND_ITS_STACK, tmp_path)
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr[-2000:])
    assert "RAN [2.0, 3.0, 4.0, 5.0]" in proc.stdout


@cuda.jit(device=True)
def wait_for_block():
    cuda.syncthreads()


@cuda.jit
def deep_locals_across_the_grid(x, out):
    """Blocks as fibers waiting for the grid, their threads fibers too (a
    barrier in a device function), each with 96 KB of local array."""
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    deep = cuda.local.array(12000, float64)
    for k in range(12000):
        deep[k] = x[i] + k
    if cuda.threadIdx.x < 1000:
        wait_for_block()
    g.sync()
    out[i] = deep[0] + deep[11999] + x[(i + 1) % x.size]


@pytest.mark.skipif(AS_NUMBA, reason="the CPU backend's storage")
def test_blocks_waiting_for_the_grid_keep_their_threads_big_stacks():
    x = make_rng(43).random(8 * 16)
    out = numpy.zeros_like(x)
    for _ in range(2):  # the second launch takes the stacks the first gave back
        deep_locals_across_the_grid[8, 16](x, out)
        numpy.testing.assert_allclose(out, 2 * x + 11999 + numpy.roll(x, -1), rtol=1e-13)


@cuda.jit
def fibers_in_a_big_grid(x, out):
    """1,024 blocks waiting for the grid, each with 32 fibers (a barrier in a
    device function): a set of stacks a block, all alive at the barrier."""
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    if cuda.threadIdx.x < 1000:
        wait_for_block()
    g.sync()
    out[i] = x[(i + 1) % x.size]


@pytest.mark.skipif(AS_NUMBA, reason="the CPU backend's stacks")
def test_a_thousand_blocks_of_fibers_wait_for_their_grid():
    x = make_rng(44).random(1024 * 32)
    out = numpy.zeros_like(x)
    for _ in range(2):  # the second launch takes the sets the first gave back
        fibers_in_a_big_grid[1024, 32](x, out)
        numpy.testing.assert_array_equal(out, numpy.roll(x, -1))
