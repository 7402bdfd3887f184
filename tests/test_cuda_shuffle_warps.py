"""Shuffles and lane tests on the CPU backend where a block's rows hold
whole warps (blockDim.x a multiple of 32): those statements run warp by
warp, lane by lane, and must give what PTX's shfl.sync gives, as the
thread-by-thread loops do for other shapes. Checked against a plain-Python
model of a block, for 1-, 2- and 3-d blocks, rows of whole warps and not."""
import numpy as np
import pytest

from ruchey import cuda

from conftest import make_rng

FULL = 0xFFFFFFFF
SHAPES = [(32,), (64,), (256,), (32, 3), (64, 2, 2), (96, 1, 3), (48,), (40, 2), (16, 4), (33, 3)]


def shfl_model(values, op, d):
    """shfl_{op}_sync(FULL, value, d) for each thread of one block (values in linear order)."""
    n = len(values)
    out = np.array(values, copy=True)
    for t in range(n):
        lane, base = t % 32, t - t % 32
        j = {"down": lane + (d & 31), "up": lane - (d & 31), "xor": lane ^ (d & 31)}[op]
        if 0 <= j <= 31 and base + j < n:
            out[t] = values[base + j]
    return out


def linear(shape):
    return int(np.prod(shape))


@cuda.jit
def butterfly_then_lane0(x, out, lanes):
    t = cuda.threadIdx.x + cuda.blockDim.x * (cuda.threadIdx.y + cuda.blockDim.y * cuda.threadIdx.z)
    v = x[t]
    for k in range(5):
        v += cuda.shfl_xor_sync(FULL, v, 1 << k)
    out[t] = v
    if cuda.laneid == 0:
        lanes[t // 32] = v
    lanes[t // 32 + 64] = cuda.laneid


@pytest.mark.parametrize("shape", SHAPES)
def test_butterfly_in_place_and_lane_zero(shape):
    n = linear(shape)
    x = make_rng(n).random(n)
    out, lanes = np.zeros(n), np.full(128, -1.0)
    butterfly_then_lane0[1, shape](x, out, lanes)
    v = x.copy()
    for k in range(5):
        v = v + shfl_model(v, "xor", 1 << k)
    np.testing.assert_allclose(out, v, rtol=1e-14)
    warps = (n + 31) // 32
    np.testing.assert_allclose(lanes[:warps], v[::32], rtol=1e-14)
    np.testing.assert_array_equal(lanes[64:64 + warps], (np.arange(warps) * 32 + 31).clip(max=n - 1) % 32)


@cuda.jit
def down_and_up(x, d, out):
    t = cuda.threadIdx.x + cuda.blockDim.x * (cuda.threadIdx.y + cuda.blockDim.y * cuda.threadIdx.z)
    v = x[t]
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(FULL, v, offset)
        offset //= 2
    w = x[t] * 3
    w = cuda.shfl_up_sync(FULL, w, d)
    u = cuda.shfl_xor_sync(FULL, w, d)
    out[t, 0] = v
    out[t, 1] = w
    out[t, 2] = u


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("d", [1, 3, 16, 35])
def test_down_reduction_and_shuffles_by_any_delta(shape, d):
    n = linear(shape)
    x = make_rng(n + d).random(n)
    out = np.zeros((n, 3))
    down_and_up[1, shape](x, d, out)
    v = x.copy()
    for off in (16, 8, 4, 2, 1):
        v = v + shfl_model(v, "down", off)
    w = shfl_model(x * 3, "up", d)
    np.testing.assert_allclose(out[:, 0], v, rtol=1e-14)
    np.testing.assert_array_equal(out[:, 1], w)
    np.testing.assert_array_equal(out[:, 2], shfl_model(w, "xor", d))


@cuda.jit
def grid_of_warp_sums(x, out):
    i = cuda.grid(1)
    v = x[i] if i < x.size else 0
    for k in range(4, -1, -1):
        v += cuda.shfl_down_sync(FULL, v, 1 << k)
    if cuda.laneid == 0:
        cuda.atomic.add(out, 0, v)


@pytest.mark.parametrize("blocks, threads", [(40, 256), (7, 96), (5, 100)])
def test_warp_sums_of_a_grid_add_up(blocks, threads):
    x = make_rng(blocks).integers(-1000, 1000, 9000)
    out = np.zeros(1, np.int64)
    grid_of_warp_sums[blocks, threads](x, out)
    want, x = 0, np.concatenate([x, np.zeros(max(0, blocks * threads - x.size), x.dtype)])
    for b in range(blocks):  # a partial warp's lanes past the block shuffle in their own values
        v = x[b * threads:(b + 1) * threads].copy()
        for k in range(4, -1, -1):
            v = v + shfl_model(v, "down", 1 << k)
        want += v[::32].sum()
    assert out[0] == want
