"""Loads that move with the block (`x[cuda.grid(1)]` in a kernel split at
barriers): on the CPU backend the lines the next block will read are
prefetched before each block's segment runs. A prefetch is a hint, so each
kernel here is checked against a plain Python model of its threads on
generated inputs where the next block's span lies past the array's end,
runs backwards (a reversed view, an index that falls as the block rises),
strides over a non-contiguous view or a 2-d array, comes from a variable
the same in the whole block, or where threads return before a barrier."""
import numpy as np
import pytest

from ruchey import cuda, float64

from conftest import make_rng, seed_of


@cuda.jit
def block_sum(x, out):
    sh = cuda.shared.array(256, float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    sh[tid] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            sh[tid] += sh[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        out[cuda.blockIdx.x] = sh[0]


def block_sum_model(x, blocks, threads):
    out = np.zeros(blocks)
    for b in range(blocks):
        sh = [x[b * threads + t] if b * threads + t < x.size else 0.0 for t in range(threads)]
        s = threads // 2
        while s > 0:
            for t in range(s):
                sh[t] += sh[t + s]
            s //= 2
        out[b] = sh[0]
    return out


@pytest.mark.parametrize("threads", [1, 7, 32, 100, 256])
@pytest.mark.parametrize("size", [1, 256, 1000, 4096])
@pytest.mark.parametrize("view", ["whole", "reversed", "strided"])
def test_block_sums_of_views(threads, size, view):
    base = make_rng(seed_of("sum", threads, size, view)).random(size * 2)
    x = {"whole": base[:size], "reversed": base[:size][::-1], "strided": base[::2]}[view]
    blocks = (size + threads - 1) // threads
    out = np.zeros(blocks)
    block_sum[blocks, threads](x, out)
    np.testing.assert_allclose(out, block_sum_model(x, blocks, threads), rtol=1e-12, atol=0)


@cuda.jit
def mirrored_neighbours(x, n, out):
    sh = cuda.shared.array(128, float64)
    tid = cuda.threadIdx.x
    j = n - 1 - cuda.blockIdx.x * cuda.blockDim.x - tid
    sh[tid] = x[j] if j >= 0 else 0.0
    cuda.syncthreads()
    nxt = tid + 1
    if nxt == cuda.blockDim.x:
        nxt = 0
    out[cuda.grid(1)] = sh[tid] - sh[nxt]


def mirrored_model(x, n, blocks, threads):
    out = np.zeros(blocks * threads)
    for b in range(blocks):
        sh = [x[n - 1 - b * threads - t] if n - 1 - b * threads - t >= 0 else 0.0 for t in range(threads)]
        for t in range(threads):
            out[b * threads + t] = sh[t] - sh[(t + 1) % threads]
    return out


@pytest.mark.parametrize("threads", [1, 16, 100, 128])
@pytest.mark.parametrize("size", [5, 128, 999])
def test_an_index_falling_as_the_block_rises(threads, size):
    x = make_rng(seed_of("mirror", threads, size)).random(size)
    blocks = (size + threads - 1) // threads
    out = np.zeros(blocks * threads)
    mirrored_neighbours[blocks, threads](x, size, out)
    np.testing.assert_array_equal(out, mirrored_model(x, size, blocks, threads))


@cuda.jit
def rows_reversed(a, out):
    sh = cuda.shared.array(64, float64)
    tx = cuda.threadIdx.x
    sh[tx] = a[cuda.blockIdx.x, tx]
    cuda.syncthreads()
    out[cuda.blockIdx.x, tx] = sh[cuda.blockDim.x - 1 - tx]


@pytest.mark.parametrize("order", ["C", "F", "columns"])
@pytest.mark.parametrize("shape", [(1, 1), (3, 64), (50, 17)])
def test_rows_of_a_two_dimensional_array(order, shape):
    rng = make_rng(seed_of("rows", order, shape))
    if order == "columns":
        a = rng.random((shape[0], shape[1] * 3))[:, ::3]
    else:
        a = np.asarray(rng.random(shape), order=order)
    out = np.zeros(shape)
    rows_reversed[shape[0], shape[1]](a, out)
    np.testing.assert_array_equal(out, a[:, ::-1])


@cuda.jit
def offset_window(x, start, out):
    sh = cuda.shared.array(64, float64)
    tid = cuda.threadIdx.x
    i = start + cuda.grid(1)
    if i >= x.size:
        return
    sh[tid] = x[i]
    cuda.syncthreads()
    if tid == 0:
        s = 0.0
        for t in range(cuda.blockDim.x):
            if start + cuda.blockIdx.x * cuda.blockDim.x + t < x.size:
                s += sh[t]
        out[cuda.blockIdx.x] = s


def offset_window_model(x, start, blocks, threads):
    out = np.zeros(blocks)
    for b in range(blocks):
        if start + b * threads < x.size:
            out[b] = sum(x[start + b * threads + t] for t in range(threads) if start + b * threads + t < x.size)
    return out


@pytest.mark.parametrize("threads", [1, 8, 64])
@pytest.mark.parametrize("start", [0, 3, 70])
def test_threads_returning_before_a_barrier(threads, start):
    x = make_rng(seed_of("window", threads, start)).random(300)
    blocks = (x.size + threads - 1) // threads
    out = np.zeros(blocks)
    offset_window[blocks, threads](x, start, out)
    np.testing.assert_allclose(out, offset_window_model(x, start, blocks, threads), rtol=1e-12, atol=0)
