"""Loops each thread runs over a range of its own (grid-stride and
block-stride loops) in kernels split at barriers or shuffles: on the CPU
backend the block's threads run their iterations in step. Every thread
must still see its own iterations in its own order: checked against a
plain-Python model of each thread (partial warps, 2-d blocks, falling and
negative ranges, continue, the loop variable after the loop, threads that
returned, a zero step)."""
import numpy as np
import pytest

from ruchey import cuda, float64

from conftest import make_rng, seed_of

FULL = 0xFFFFFFFF


@cuda.jit
def grid_stride_partials(x, partial, total):
    v = 0.0
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v += x[i] * x[i]
    partial[cuda.grid(1)] = v
    for k in range(5):
        v += cuda.shfl_xor_sync(FULL, v, 1 << k)
    if cuda.laneid == 0:
        cuda.atomic.add(total, 0, v)


def thread_partials(x, nthreads, start_of, stop, step):
    out = np.zeros(nthreads)
    for t in range(nthreads):
        v = 0.0
        for i in range(start_of(t), stop, step):
            v += x[i] * x[i]
        out[t] = v
    return out


@pytest.mark.parametrize("n, blocks, threads", [(5000, 4, 64), (1000, 3, 100), (37, 2, 7), (0, 2, 32),
                                                (4096, 2, 1024), (300, 5, 96)])
def test_grid_stride_sums_match_each_threads_own_loop(n, blocks, threads):
    x = make_rng(seed_of("grid", n, blocks, threads)).random(n)
    partial, total = np.zeros(blocks * threads), np.zeros(1)
    grid_stride_partials[blocks, threads](x, partial, total)
    nthreads = blocks * threads
    np.testing.assert_array_equal(partial, thread_partials(x, nthreads, lambda t: t, n, nthreads))
    if threads % 32 == 0:  # a partial warp's lanes shuffle with lanes it lacks: their own values
        np.testing.assert_allclose(total[0], (x * x).sum(), rtol=1e-12)


@cuda.jit
def falling_and_negative(x, out):
    t = cuda.grid(1)
    s = cuda.gridsize(1)
    down = 0.0
    for i in range(x.size - 1 - t, -1, -s):  # falling
        down = down * 0.5 + x[i]
    wrapped = 0.0
    for i in range(t - 3, x.size, s):  # starts below 0: x[-3] is the third from the end
        wrapped = wrapped * 0.5 + x[i]
    cuda.syncthreads()
    out[t, 0] = down
    out[t, 1] = wrapped


def test_falling_ranges_and_negative_indices_keep_pythons_meaning():
    blocks, threads, n = 3, 40, 700
    x = make_rng(2).random(n)
    out = np.zeros((blocks * threads, 2))
    falling_and_negative[blocks, threads](x, out)
    s = blocks * threads
    for t in range(s):
        down = wrapped = 0.0
        for i in range(n - 1 - t, -1, -s):
            down = down * 0.5 + x[i]
        for i in range(t - 3, n, s):
            wrapped = wrapped * 0.5 + x[i]
        assert out[t, 0] == down and out[t, 1] == wrapped, t


@cuda.jit
def skip_and_last(x, stop, out, last):
    t = cuda.grid(1)
    i = -1
    v = 0.0
    for i in range(t, stop, cuda.gridsize(1)):
        if x[i] < 0.25:
            continue
        for j in range(3):  # a loop of its own inside
            v += x[i] * j
    v += cuda.shfl_down_sync(FULL, v, 1)
    out[t] = v
    last[t] = i


@pytest.mark.parametrize("stop", [0, 50, 333])
def test_continue_and_the_loop_variable_after_the_loop(stop):
    blocks, threads = 2, 64
    x = make_rng(seed_of("skip", stop)).random(400)
    out, last = np.zeros(blocks * threads), np.zeros(blocks * threads, np.int64)
    skip_and_last[blocks, threads](x, stop, out, last)
    s = blocks * threads
    own, ends = np.zeros(s), np.full(s, -1)
    for t in range(s):
        for i in range(t, stop, s):
            ends[t] = i
            if x[i] < 0.25:
                continue
            for j in range(3):
                own[t] += x[i] * j
    expected = own.copy()
    for t in range(s):  # shfl_down by 1 within each warp of 32
        if t % 32 != 31:
            expected[t] += own[t + 1]
        else:
            expected[t] += own[t]
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(last, ends)


@cuda.jit
def block_stride_tile(x, out):
    tile = cuda.shared.array(300, float64)
    t = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    for j in range(t, 300, cuda.blockDim.x * cuda.blockDim.y):
        tile[j] = x[cuda.blockIdx.x * 300 + j] * 2.0
    cuda.syncthreads()
    if t == 0:
        s = 0.0
        for j in range(300):
            s += tile[j] * (j + 1)
        out[cuda.blockIdx.x] = s


@pytest.mark.parametrize("block", [(32, 1), (8, 5), (16, 16), (3, 7)])
def test_block_stride_loads_of_shared_memory_on_2d_blocks(block):
    blocks = 3
    x = make_rng(seed_of("tile", block)).random(blocks * 300)
    out = np.zeros(blocks)
    block_stride_tile[blocks, block](x, out)
    weights = np.arange(1, 301)
    expected = [float(sum((x[b * 300 + j] * 2.0) * weights[j] for j in range(300))) for b in range(blocks)]
    np.testing.assert_allclose(out, expected, rtol=1e-13)


@cuda.jit
def after_returns(x, limit, out):
    t = cuda.grid(1)
    if t >= limit:
        return
    v = 0.0
    for i in range(t, x.size, limit):
        v += x[i]
    cuda.syncthreads()
    out[t] = v


def test_threads_that_returned_sit_out_the_loop():
    threads, limit = 64, 45
    x = make_rng(5).random(500)
    out = np.full(threads, -1.0)
    after_returns[1, threads](x, limit, out)
    for t in range(threads):
        expected = sum(x[i] for i in range(t, 500, limit)) if t < limit else -1.0
        assert out[t] == pytest.approx(expected, rel=1e-15, abs=0), t


@cuda.jit
def zero_step(x, step, out):
    v = 0.0
    for i in range(cuda.grid(1), x.size, step):
        v += x[i]
    cuda.syncthreads()
    out[cuda.grid(1)] = v


def test_a_zero_step_raises_value_error():
    x = np.ones(10)
    out = np.zeros(32)
    with pytest.raises(ValueError, match="must not be zero"):
        zero_step[1, 32](x, 0, out)
    zero_step[1, 32](x, 32, out)
    np.testing.assert_array_equal(out, np.r_[np.ones(10), np.zeros(22)])


@cuda.jit
def huge_ranges(base, stop, out):
    t = cuda.grid(1)
    total = 0
    for i in range(base + t, stop, cuda.gridsize(1)):
        total += i % 1000
    cuda.syncthreads()
    out[t] = total


@pytest.mark.parametrize("base, span", [(0, 5000), (2**61 - 40, 3000), (2**62, 3000), (2**63 - 2000, 1990)])
def test_ranges_near_the_top_of_int64_count_exactly(base, span):
    blocks, threads = 2, 48
    out = np.zeros(blocks * threads, np.int64)
    huge_ranges[blocks, threads](base, base + span, out)
    s = blocks * threads
    expected = [sum(i % 1000 for i in range(base + t, base + span, s)) for t in range(s)]
    np.testing.assert_array_equal(out, expected)
