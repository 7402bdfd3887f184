"""Warp shuffles whose value is a variable kept per thread, read on the CPU
backend straight from that variable (no gathering): the variable assigned
by the shuffle's own statement (shfl_down reads lanes at or above its
own), assigned elsewhere, partial warps, threads that returned, every
element type. Checked against a plain-Python model of PTX's shfl.sync."""
import numpy as np
import pytest

from ruchey import cuda, float32, int32

from conftest import make_rng

FULL = 0xFFFFFFFF


def shfl_model(values, op, d, nthreads, alive=None):
    """What each thread of one block gets from shfl_{op}_sync(FULL, value, d)."""
    out = np.array(values, copy=True)
    for t in range(nthreads):
        lane, base = t % 32, t - t % 32
        dd = d & 31
        j = {"down": lane + dd, "up": lane - dd, "xor": lane ^ dd, "idx": dd}[op]
        src = base + j
        if 0 <= j <= 31 and src < nthreads and (alive is None or alive[src]):
            out[t] = values[src]
    return out


@cuda.jit
def reduce_down_in_place(x, out):
    t = cuda.threadIdx.x
    v = x[cuda.grid(1)]
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(FULL, v, offset)
        offset //= 2
    out[cuda.grid(1)] = v


@pytest.mark.parametrize("threads", [32, 64, 100, 7])
def test_in_place_shfl_down_reduction_partial_warps(threads):
    blocks = 3
    x = make_rng(1).random(blocks * threads)
    out = np.zeros_like(x)
    reduce_down_in_place[blocks, threads](x, out)
    for b in range(blocks):
        v = x[b * threads:(b + 1) * threads].copy()
        for off in (16, 8, 4, 2, 1):
            v = v + shfl_model(v, "down", off, threads)
        np.testing.assert_allclose(out[b * threads:(b + 1) * threads], v, rtol=1e-14)


@cuda.jit
def shuffle_into_another(x, d, out_up, out_xor, out_idx):
    i = cuda.grid(1)
    v = x[i] * 2
    w = cuda.shfl_up_sync(FULL, v, d)
    u = cuda.shfl_xor_sync(FULL, v, d)
    out_idx[i] = cuda.shfl_sync(FULL, v, d + 1)
    out_up[i] = w
    out_xor[i] = u


@pytest.mark.parametrize("threads, d", [(64, 1), (70, 3), (96, 16), (40, 5)])
def test_shuffles_assigning_other_variables(threads, d):
    x = make_rng(2).random(threads)
    outs = [np.zeros(threads) for _ in range(3)]
    shuffle_into_another[1, threads](x, d, *outs)
    v = x * 2
    np.testing.assert_array_equal(outs[0], shfl_model(v, "up", d, threads))
    np.testing.assert_array_equal(outs[1], shfl_model(v, "xor", d, threads))
    np.testing.assert_array_equal(outs[2], shfl_model(v, "idx", d + 1, threads))


@cuda.jit
def up_in_place(x, d, out):
    i = cuda.grid(1)
    v = x[i]
    v = cuda.shfl_up_sync(FULL, v, d)   # reads lanes below: gathered first
    v += cuda.shfl_xor_sync(FULL, v, d)
    out[i] = v


def test_in_place_shfl_up_and_xor_still_see_the_old_values():
    threads = 80
    x = make_rng(3).random(threads)
    out = np.zeros(threads)
    up_in_place[1, threads](x, 2, out)
    v = shfl_model(x, "up", 2, threads)
    v = v + shfl_model(v, "xor", 2, threads)
    np.testing.assert_array_equal(out, v)


@cuda.jit
def with_returns(x, limit, out):
    i = cuda.grid(1)
    if i >= limit:
        return
    v = x[i] + 1
    out[i] = cuda.shfl_down_sync(FULL, v, 4)
    v += cuda.shfl_down_sync(FULL, v, 1)
    out[i + x.size] = v


def test_shuffles_after_some_threads_returned():
    threads, limit = 64, 45
    x = make_rng(4).random(threads)
    out = np.zeros(2 * threads)
    with_returns[1, threads](x, limit, out)
    alive = np.arange(threads) < limit
    v = x + 1
    first = shfl_model(v, "down", 4, threads, alive)
    second = v + shfl_model(v, "down", 1, threads, alive)
    np.testing.assert_array_equal(out[:limit], first[:limit])
    np.testing.assert_array_equal(out[threads:threads + limit], second[:limit])


@pytest.mark.parametrize("dtype, nbtype", [(np.int32, int32), (np.float32, float32), (np.int64, None),
                                           (np.uint8, None)])
def test_in_place_shfl_down_of_every_width(dtype, nbtype):
    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        v = x[i]
        v += cuda.shfl_down_sync(FULL, v, 2)
        out[i] = v
    threads = 48
    x = (make_rng(5).random(threads) * 50).astype(dtype)
    out = np.zeros_like(x)
    k[1, threads](x, out)
    np.testing.assert_array_equal(out, (x + shfl_model(x, "down", 2, threads)).astype(dtype))
