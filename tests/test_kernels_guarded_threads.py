"""A kernel's statement `if threadIdx.x < e:` between barriers (a tree
reduction's halving step, `if tid < s: sh[tid] += sh[tid + s]`): on the CPU
backend its loop over the block's threads ends at e, the threads from e on
doing nothing in it. Each kernel here is checked against a plain Python
model of its threads on generated inputs, for block sizes that are and are
not powers of two, bounds beyond the block and below zero, and 2-d blocks."""
import numpy as np
import pytest

from ruchey import cuda, float64

from conftest import make_rng


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


@cuda.jit
def first_k_scaled(x, k):
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    cuda.syncthreads()
    if tid < k:
        x[i] *= 2.0
    cuda.syncthreads()


@cuda.jit
def first_five_scaled(x):
    i = cuda.grid(1)
    cuda.syncthreads()
    if cuda.threadIdx.x < 5:
        x[i] *= 3.0
    cuda.syncthreads()


def first_k_model(x, threads, k, factor):
    x = x.copy()
    for b in range(x.size // threads):
        for t in range(min(max(k, 0), threads)):
            x[b * threads + t] *= factor
    return x


@cuda.jit
def row_tree_sums(x, out):
    sh = cuda.shared.array((4, 64), float64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    sh[ty, tx] = x[cuda.blockIdx.x, ty, tx]
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tx < s:
            sh[ty, tx] += sh[ty, tx + s]
        cuda.syncthreads()
        s //= 2
    if tx == 0:
        out[cuda.blockIdx.x, ty] = sh[ty, 0]


def row_tree_sums_model(x):
    out = np.zeros(x.shape[:2])
    for b in range(x.shape[0]):
        for y in range(x.shape[1]):
            out[b, y] = block_sum_model(x[b, y], 1, x.shape[2])[0]
    return out


@pytest.mark.parametrize("threads", [1, 2, 3, 32, 48, 100, 256])
@pytest.mark.parametrize("size", [1, 300, 1000])
def test_tree_reduction_per_block(threads, size):
    x = make_rng(threads * 7919 + size).random(size)
    blocks = (size + threads - 1) // threads
    out = np.zeros(blocks)
    block_sum[blocks, threads](x, out)
    assert np.array_equal(out, block_sum_model(x, blocks, threads))


@pytest.mark.parametrize("threads", [1, 5, 8, 64])
@pytest.mark.parametrize("k", [-3, 0, 1, 4, 5, 63, 64, 1000])
def test_a_bound_from_an_argument(threads, k):
    x = make_rng(threads * 31 + k + 5).random(threads * 3)
    y = x.copy()
    first_k_scaled[3, threads](y, k)
    assert np.array_equal(y, first_k_model(x, threads, k, 2.0))


@pytest.mark.parametrize("threads", [1, 4, 5, 6, 32])
def test_a_literal_bound(threads):
    x = make_rng(threads).random(threads * 4)
    y = x.copy()
    first_five_scaled[4, threads](y)
    assert np.array_equal(y, first_k_model(x, threads, 5, 3.0))


@pytest.mark.parametrize("tx, ty", [(64, 4), (16, 3), (7, 2), (1, 4)])
def test_rows_of_a_two_dimensional_block(tx, ty):
    x = make_rng(tx * 10 + ty).random((5, ty, tx))
    out = np.zeros((5, ty))
    row_tree_sums[5, (tx, ty)](x, out)
    assert np.array_equal(out, row_tree_sums_model(x))
