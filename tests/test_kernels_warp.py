"""Warp-level intrinsics in @cuda.jit kernels: lanes, shuffles, votes,
matches, activemask, syncwarp, syncthreads_count/_and/_or, fences, and
CUDA's bit and arithmetic intrinsics (popc, brev, clz, ffs, fma, cbrt,
selp), checked against a plain-Python model of PTX's definitions
(shfl.sync, vote.sync, match.sync, bar.red).

On the CPU backend a warp is 32 consecutive threads of a block run in
step: a collective at the top of a kernel runs by loop fission, one inside
a device function or under a condition that differs between threads by
fibers. Each collective is tested both ways (``via``: the kernel itself, or
a device function it calls).
"""
import math
from fractions import Fraction

import numpy
import pytest

import ruchey
from ruchey import cuda

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors, needs_libdevice

FULL = 0xFFFFFFFF
WARP = 32

# ---------------------------------------------------------------- the model


def lanes(n):
    """Each thread's lane and the first thread of its warp, for n threads."""
    t = numpy.arange(n)
    return t % WARP, t - t % WARP


def shuffle_model(mode, values, b):
    """What shfl.sync gives each of len(values) threads (one block), with
    numba-cuda's clamps: only b's low five bits count, and a source lane out
    of the warp (or beyond the block) gives the thread its own value."""
    n = values.size
    lane, base = lanes(n)
    d = b & 31
    if mode == "idx":
        j = numpy.full(n, d)
    elif mode == "up":
        j = numpy.where(lane - d >= 0, lane - d, lane)
    elif mode == "down":
        j = numpy.where(lane + d <= 31, lane + d, lane)
    else:
        j = lane ^ d
    src = base + j
    return values[numpy.where(src < n, src, numpy.arange(n))]


def warp_members(n, mask):
    """Per thread: the lanes of its warp named in mask that exist."""
    lane, base = lanes(n)
    present = numpy.array([(1 << min(WARP, n - b)) - 1 for b in base], dtype=numpy.int64)
    return mask & present


def ballot_model(n, mask, pred):
    members = warp_members(n, mask)
    _, base = lanes(n)
    out = numpy.zeros(n, dtype=numpy.int64)
    for t in range(n):
        for j in range(WARP):
            if members[t] >> j & 1 and pred[base[t] + j]:
                out[t] |= 1 << j
    return out, members


# ---------------------------------------------------------------- kernels


SHUFFLES = {"idx": cuda.shfl_sync, "up": cuda.shfl_up_sync, "down": cuda.shfl_down_sync,
            "xor": cuda.shfl_xor_sync}


def shuffle_kernel(shfl, via):
    """out[i] = shfl(FULL, a[i], b), in the kernel or in a device function."""
    if via == "kernel":
        @cuda.jit
        def kernel(a, out, b):
            i = cuda.grid(1)
            out[i] = shfl(0xFFFFFFFF, a[i], b)
        return kernel

    @cuda.jit(device=True)
    def move(v, b):
        return shfl(0xFFFFFFFF, v, b)

    @cuda.jit
    def kernel(a, out, b):
        i = cuda.grid(1)
        out[i] = move(a[i], b)
    return kernel


_shuffle_kernels = {}


def check_shuffles(mode, via, dtype, sizes):
    key = (mode, via)
    if key not in _shuffle_kernels:
        _shuffle_kernels[key] = shuffle_kernel(SHUFFLES[mode], via)
    kernel = _shuffle_kernels[key]
    rng = make_rng(7)
    for n in sizes:
        a = (rng.standard_normal(n) * 1e6).astype(dtype)
        for b in (0, 1, 5, 17, 31, 32, 33, -1):
            out = numpy.zeros(n, dtype=dtype)
            kernel[1, n](a, out, b)
            numpy.testing.assert_array_equal(out, shuffle_model(mode, a, b), err_msg=f"n={n} b={b}")


@pytest.mark.parametrize("via", ["kernel", "device function"])
@pytest.mark.parametrize("mode", list(SHUFFLES))
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.int64, numpy.float32, numpy.float64])
def test_shuffles_give_the_source_lanes_value(mode, via, dtype):
    check_shuffles(mode, via, dtype, (64, 96))


@pytest.mark.cpu_backend  # a GPU leaves a shuffle from a lane beyond the block undefined
@pytest.mark.parametrize("via", ["kernel", "device function"])
@pytest.mark.parametrize("mode", list(SHUFFLES))
def test_a_shuffle_from_beyond_the_block_gives_the_lanes_own_value(mode, via):
    check_shuffles(mode, via, numpy.int64, (40,))  # a last warp of 8 lanes


def test_64_bit_shuffles_move_every_bit():
    kernel = shuffle_kernel(cuda.shfl_xor_sync, "kernel")
    a = numpy.array([(1 << 62) + 12345 * k for k in range(WARP)] * 2, dtype=numpy.int64)
    a[::3] = -a[::3]
    out = numpy.zeros_like(a)
    kernel[1, a.size](a, out, 16)
    numpy.testing.assert_array_equal(out, shuffle_model("xor", a, 16))


@cuda.jit
def warp_sums(x, out):
    i = cuda.grid(1)
    v = x[i] if i < x.size else 0
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xFFFFFFFF, v, offset)
        offset //= 2
    if cuda.laneid == 0:
        out[i // 32] = v


@pytest.mark.parametrize("n, blocks, threads", [(1000, 4, 256), (64, 1, 64), (2000, 2, 1024)])
def test_warp_reduction_with_shfl_down_sums_each_warp(n, blocks, threads):
    x = make_rng(n).integers(-1000, 1000, size=n)
    out = numpy.zeros(blocks * threads // WARP, dtype=numpy.int64)
    warp_sums[blocks, threads](x, out)
    padded = numpy.zeros(blocks * threads, dtype=numpy.int64)
    padded[:n] = x
    numpy.testing.assert_array_equal(out, padded.reshape(-1, WARP).sum(axis=1))


@cuda.jit(device=True)
def warp_total(v):
    for k in range(5):
        v += cuda.shfl_xor_sync(0xFFFFFFFF, v, 1 << k)
    return v


@cuda.jit
def block_sums(x, out):
    partial = cuda.shared.array(32, numpy.int64)
    i = cuda.grid(1)
    lane = cuda.threadIdx.x % cuda.warpsize
    warp = cuda.threadIdx.x // cuda.warpsize
    v = warp_total(x[i] if i < x.size else 0)
    if lane == 0:
        partial[warp] = v
    cuda.syncthreads()
    if warp == 0:
        v = warp_total(partial[lane] if lane < cuda.blockDim.x // cuda.warpsize else 0)
        if lane == 0:
            out[cuda.blockIdx.x] = v


def test_block_reduction_through_a_warp_reducing_device_function():
    x = make_rng(3).integers(-10**6, 10**6, size=3000)
    out = numpy.zeros(12, dtype=numpy.int64)
    block_sums[12, 256](x, out)
    padded = numpy.zeros(12 * 256, dtype=numpy.int64)
    padded[:x.size] = x
    numpy.testing.assert_array_equal(out, padded.reshape(12, 256).sum(axis=1))


# ---------------------------------------------------------------- votes and matches


@cuda.jit
def votes(p, mask, all_, any_, eq, ballot):
    i = cuda.grid(1)
    all_[i] = cuda.all_sync(mask, p[i])
    any_[i] = cuda.any_sync(mask, p[i])
    eq[i] = cuda.eq_sync(mask, p[i])
    ballot[i] = cuda.ballot_sync(mask, p[i])


@cuda.jit(device=True)
def vote_all(mask, p):
    return cuda.all_sync(mask, p), cuda.any_sync(mask, p), cuda.eq_sync(mask, p), cuda.ballot_sync(mask, p)


@cuda.jit
def votes_in_a_device_function(p, mask, all_, any_, eq, ballot):
    i = cuda.grid(1)
    all_[i], any_[i], eq[i], ballot[i] = vote_all(mask, p[i])


@pytest.mark.parametrize("kernel", [votes, votes_in_a_device_function])
@pytest.mark.parametrize("mask", [FULL, 0x0000FFFF, 0x80000001, 0])
@pytest.mark.parametrize("n", [64, pytest.param(45, marks=pytest.mark.cpu_backend)])  # lanes beyond the block: the CPU backend's rule
def test_votes_combine_the_predicates_of_the_lanes_in_the_mask(kernel, mask, n):
    rng = make_rng(n)
    p = rng.integers(0, 2, size=n)
    p[:WARP] = 1  # one warp where every predicate holds
    all_, any_, eq = (numpy.zeros(n, dtype=numpy.bool_) for _ in range(3))
    ballot = numpy.zeros(n, dtype=numpy.uint32)
    kernel[1, n](p, mask, all_, any_, eq, ballot)
    expected, members = ballot_model(n, mask, p)
    numpy.testing.assert_array_equal(ballot, expected.astype(numpy.uint32))
    numpy.testing.assert_array_equal(all_, expected == members)
    numpy.testing.assert_array_equal(any_, expected != 0)
    numpy.testing.assert_array_equal(eq, (expected == 0) | (expected == members))


@cuda.jit
def matches(v, any_, all_mask, all_pred):
    i = cuda.grid(1)
    any_[i] = cuda.match_any_sync(0xFFFFFFFF, v[i])
    m, p = cuda.match_all_sync(0xFFFFFFFF, v[i])
    all_mask[i] = m
    all_pred[i] = p


@pytest.mark.parametrize("dtype", [numpy.int32, numpy.int64, numpy.float32, numpy.float64])
def test_matches_name_the_lanes_holding_the_same_value(dtype):
    n = 96
    v = (numpy.arange(n) % 5).astype(dtype)
    v[64:] = 7  # the third warp agrees
    any_ = numpy.zeros(n, dtype=numpy.uint32)
    all_mask = numpy.zeros(n, dtype=numpy.uint32)
    all_pred = numpy.zeros(n, dtype=numpy.bool_)
    matches[1, n](v, any_, all_mask, all_pred)
    lane, base = lanes(n)
    for t in range(n):
        same = sum(1 << j for j in range(WARP) if v[base[t] + j] == v[t])
        assert any_[t] == same
        agree = t >= 64
        assert (all_mask[t], all_pred[t]) == ((FULL, True) if agree else (0, False))


@cuda.jit
def lane_numbers(lane, size, below):
    i = cuda.grid(1)
    lane[i] = cuda.laneid
    size[i] = cuda.warpsize
    below[i] = cuda.lanemask_lt()


def test_lanes_count_linear_thread_indices_modulo_32():
    lane, size, below = (numpy.zeros((4, 20), dtype=numpy.int64) for _ in range(3))
    below = numpy.zeros((4, 20), dtype=numpy.uint32)

    @cuda.jit
    def two_d(lane, size, below):
        x, y = cuda.threadIdx.x, cuda.threadIdx.y
        lane[y, x] = cuda.laneid
        size[y, x] = cuda.warpsize
        below[y, x] = cuda.lanemask_lt()

    two_d[1, (20, 4)](lane, size, below)
    linear = numpy.arange(80).reshape(4, 20) % WARP
    numpy.testing.assert_array_equal(lane, linear)
    numpy.testing.assert_array_equal(size, numpy.full((4, 20), 32))
    numpy.testing.assert_array_equal(below, ((1 << linear) - 1).astype(numpy.uint32))


@cuda.jit
def active_lanes(out):
    i = cuda.grid(1)
    out[i] = cuda.activemask()


def test_activemask_names_every_lane_of_a_converged_warp():
    out = numpy.zeros(70, dtype=numpy.uint32)
    active_lanes[1, 70](out)
    numpy.testing.assert_array_equal(out, warp_members(70, FULL).astype(numpy.uint32))


@cuda.jit
def divergent_lanes(a, out, mask):
    i = cuda.grid(1)
    if a[i] % 3 == 0:
        out[i] = cuda.shfl_xor_sync(0x49249249, a[i], 3)
        mask[i] = cuda.activemask()
    else:
        out[i] = -a[i]
        mask[i] = cuda.activemask()


@pytest.mark.cpu_backend  # which lanes a GPU runs together after a branch is up to it
def test_activemask_in_a_branch_names_the_lanes_that_took_it():
    n = 64
    a = numpy.arange(n, dtype=numpy.int64)
    out = numpy.zeros(n, dtype=numpy.int64)
    mask = numpy.zeros(n, dtype=numpy.uint32)
    divergent_lanes[1, n](a, out, mask)
    lane, base = lanes(n)
    took = a % 3 == 0
    for t in range(n):
        same = sum(1 << j for j in range(WARP) if took[base[t] + j] == took[t])
        assert mask[t] == same
        source = base[t] + (lane[t] ^ 3)  # a lane that did not take the branch gives nothing
        assert out[t] == (-a[t] if not took[t] else a[source] if took[source] else a[t])


@cuda.jit
def block_votes(p, count, all_, any_):
    i = cuda.grid(1)
    count[i] = cuda.syncthreads_count(p[i])
    all_[i] = cuda.syncthreads_and(p[i])
    any_[i] = cuda.syncthreads_or(p[i] > 0)


@pytest.mark.parametrize("threads", [64, 100, 1])
def test_syncthreads_count_and_or_combine_the_whole_block(threads):
    blocks = 3
    p = make_rng(threads).integers(0, 2, size=blocks * threads)
    p[:threads] = 1
    count, all_, any_ = (numpy.zeros(blocks * threads, dtype=numpy.int32) for _ in range(3))
    block_votes[blocks, threads](p, count, all_, any_)
    per_block = p.reshape(blocks, threads)
    numpy.testing.assert_array_equal(count, numpy.repeat(per_block.sum(axis=1), threads))
    numpy.testing.assert_array_equal(all_, numpy.repeat(per_block.all(axis=1), threads))
    numpy.testing.assert_array_equal(any_, numpy.repeat(per_block.any(axis=1), threads))


@cuda.jit
def count_early_returns(p, count):
    i = cuda.grid(1)
    if cuda.threadIdx.x >= 40:
        return
    count[i] = cuda.syncthreads_count(p[i])


@pytest.mark.cpu_backend  # on a GPU a barrier after some threads exited is undefined
def test_syncthreads_count_counts_the_threads_that_did_not_return():
    p = numpy.ones(64, dtype=numpy.int64)
    count = numpy.zeros(64, dtype=numpy.int32)
    count_early_returns[1, 64](p, count)
    numpy.testing.assert_array_equal(count, [40] * 40 + [0] * 24)


@cuda.jit
def fenced(a, out):
    i = cuda.grid(1)
    a[i] = i
    cuda.threadfence_block()
    cuda.threadfence()
    cuda.threadfence_system()
    cuda.nanosleep(100)
    cuda.syncwarp()
    cuda.syncwarp(0xFFFF)
    out[i] = a[i ^ 1]


def test_fences_nanosleep_and_syncwarp_order_a_warps_memory():
    a = numpy.zeros(64, dtype=numpy.int64)
    out = numpy.zeros(64, dtype=numpy.int64)
    fenced[1, 64](a, out)
    numpy.testing.assert_array_equal(out, numpy.arange(64) ^ 1)


# ---------------------------------------------------------------- where collectives sit


@cuda.jit
def nested_collectives(a, out, flag):
    i = cuda.grid(1)
    out[i] = 2 * a[i] + cuda.shfl_xor_sync(0xFFFFFFFF, a[i], 1) * cuda.shfl_sync(0xFFFFFFFF, a[i], 0)
    evens = cuda.popc(cuda.ballot_sync(0xFFFFFFFF, a[i] % 2 == 0))
    if cuda.any_sync(0xFFFFFFFF, a[i] == 5):
        flag[i] = evens


@cuda.jit
def conditional_collective(a, out):
    i = cuda.grid(1)
    out[i] = a[i] > 100 or cuda.all_sync(0xFFFFFFFF, a[i] >= 0)


def test_collectives_inside_expressions_and_conditions():
    a = numpy.arange(64, dtype=numpy.int64)
    out = numpy.zeros(64, dtype=numpy.int64)
    flag = numpy.zeros(64, dtype=numpy.int64)
    nested_collectives[1, 64](a, out, flag)
    _, base = lanes(64)
    numpy.testing.assert_array_equal(out, 2 * a + shuffle_model("xor", a, 1) * a[base])
    numpy.testing.assert_array_equal(flag, [16] * 32 + [0] * 32)  # 5 is in the first warp


def test_a_collective_some_evaluations_skip_still_combines_the_lanes_reaching_it():
    a = numpy.arange(64, dtype=numpy.int64)
    a[40] = -1
    out = numpy.zeros(64, dtype=numpy.bool_)
    conditional_collective[1, 64](a, out)
    numpy.testing.assert_array_equal(out, [True] * 32 + [False] * 32)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own analyses")
def test_collectives_run_by_fission_unless_only_some_evaluations_reach_them():
    from ruchey import _core
    from ruchey.types import int64
    arr = int64[::1].describe()

    def plan(f, *args):
        text = _core._analyses(f.py_func, args, False, True)
        return [line for line in text.splitlines() if line.startswith("kernel:")][0]

    assert plan(nested_collectives, arr, arr, arr) == "kernel: fission"
    assert plan(warp_sums, arr, arr) == "kernel: fission"
    assert plan(conditional_collective, int64[::1].describe(), ruchey.types.boolean[::1].describe()) \
        == "kernel: fibers"
    assert plan(block_sums, arr, arr) == "kernel: fibers"  # through a device function
    assert plan(divergent_lanes, arr, arr, ruchey.types.uint32[::1].describe()) == "kernel: fibers"


# ---------------------------------------------------------------- bits and arithmetic


def as_unsigned(x, bits):
    return x & ((1 << bits) - 1)


@cuda.jit
def bit_intrinsics(a, u, popc, clz, ffs, brev):
    i = cuda.grid(1)
    if i < a.size:
        popc[i] = cuda.popc(a[i])
        clz[i] = cuda.clz(a[i])
        ffs[i] = cuda.ffs(a[i])
        brev[i] = cuda.brev(u[i])


@pytest.mark.parametrize("dtype, bits", [(numpy.int64, 64), (numpy.int32, 32), (numpy.uint32, 32),
                                         (numpy.uint64, 64)])
def test_bit_intrinsics_count_and_reverse_bits(dtype, bits):
    info = numpy.iinfo(dtype)
    a = numpy.array([0, 1, 2, 12, 255, info.max, info.min, info.max // 3, 1 << (bits - 2)], dtype=dtype)
    u = a.astype(numpy.uint64 if bits == 64 else numpy.uint32)
    popc, clz = numpy.zeros_like(a), numpy.zeros_like(a)
    ffs = numpy.zeros(a.size, dtype=numpy.uint32)
    brev = numpy.zeros_like(u)
    bit_intrinsics[1, 16](a, u, popc, clz, ffs, brev)
    for k, x in enumerate(a.tolist()):
        ux = as_unsigned(x, bits)
        assert popc[k] == bin(ux).count("1")
        assert clz[k] == bits - ux.bit_length()
        assert ffs[k] == (ux & -ux).bit_length()
        assert brev[k] == int(format(ux, f"0{bits}b")[::-1], 2)


@cuda.jit
def bit_counts(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i].bit_count()


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.int16, numpy.int32, numpy.int64,
                                   numpy.uint8, numpy.uint16, numpy.uint32, numpy.uint64])
def test_bit_count_method_is_popc_of_the_receivers_bits(dtype):
    info = numpy.iinfo(dtype)
    rng = make_rng(5)
    a = numpy.concatenate([[0, 1, info.max, info.min, info.max // 3],
                           rng.integers(info.min, info.max, size=40, endpoint=True, dtype=dtype)]).astype(dtype)
    out = numpy.zeros(a.size, dtype=numpy.int64)
    bit_counts[2, 32](a, out)
    bits = numpy.dtype(dtype).itemsize * 8
    assert out.tolist() == [bin(as_unsigned(x, bits)).count("1") for x in a.tolist()]


def test_bit_count_outside_cuda_code_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="bit_count"):
        ruchey.njit(lambda x: x.bit_count())(numpy.uint8(3))


@cuda.jit
def arithmetic_intrinsics(x, y, z, fma, cbrt, selp):
    i = cuda.grid(1)
    if i < x.size:
        fma[i] = cuda.fma(x[i], y[i], z[i])
        cbrt[i] = cuda.cbrt(x[i])
        selp[i] = cuda.selp(x[i] > y[i], x[i], y[i])


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
def test_fma_rounds_once_and_cbrt_and_selp(dtype):
    rng = make_rng(11)
    x = numpy.concatenate([[1 + 2.0**-30, -8.0, 27.0, 0.0, -0.0], rng.standard_normal(27) * 1e3]).astype(dtype)
    y = numpy.concatenate([[1 - 2.0**-30, 2.0, 3.0, 5.0, 1.0], rng.standard_normal(27)]).astype(dtype)
    z = numpy.concatenate([[-1.0, 1.0, 2.0, 3.0, 4.0], rng.standard_normal(27)]).astype(dtype)
    fma, cbrt, selp = (numpy.zeros_like(x) for _ in range(3))
    arithmetic_intrinsics[1, 32](x, y, z, fma, cbrt, selp)
    exact = [Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)) for a, b, c in zip(x, y, z)]
    numpy.testing.assert_array_equal(fma, numpy.array([float(e) for e in exact]).astype(dtype)
                                     if dtype == numpy.float64 else
                                     numpy.array([numpy.float32(float(e)) for e in exact]))
    reference = numpy.array([math.copysign(abs(float(v)) ** (1 / 3), float(v)) for v in x])
    numpy.testing.assert_allclose(cbrt, reference.astype(dtype), rtol=1e-6 if dtype == numpy.float32 else 1e-15)
    numpy.testing.assert_array_equal(selp, numpy.where(x > y, x, y))


@cuda.jit
def intrinsic_types(out32, out64, outf):
    i = cuda.grid(1)
    if i == 0:
        out32[0] = cuda.popc(numpy.int32(-1))
        out64[0] = cuda.brev(numpy.uint64(1))
        outf[0] = cuda.fma(numpy.float32(0.1), numpy.float32(3.0), numpy.float32(0.2))


def test_intrinsics_keep_numba_cudas_result_types():
    out32 = numpy.zeros(1, dtype=numpy.int64)
    out64 = numpy.zeros(1, dtype=numpy.uint64)
    outf = numpy.zeros(1, dtype=numpy.float64)
    intrinsic_types[1, 1](out32, out64, outf)
    assert out32[0] == 32 and out64[0] == 1 << 63
    f = numpy.float32
    assert outf[0] == float(f(Fraction(float(f(0.1))) * 3 + Fraction(float(f(0.2)))))


# ---------------------------------------------------------------- errors


def test_shuffling_an_array_is_a_typing_error_naming_the_line():
    @cuda.jit
    def bad(a):
        a[0] = cuda.shfl_sync(0xFFFFFFFF, a, 0)

    with pytest.raises(ruchey.TypingError, match=r"shfl_sync\(\) shuffles integers and floats"):
        bad[1, 32](numpy.zeros(4))


def test_a_float_member_mask_is_a_typing_error():
    @cuda.jit
    def bad(a):
        a[0] = cuda.ballot_sync(1.5, a[0] > 0)

    with pytest.raises(ruchey.TypingError, match=r"Mask type must be an integer, got float64"):
        bad[1, 32](numpy.zeros(4))


def test_popc_of_a_float_is_a_typing_error():
    @cuda.jit
    def bad(a):
        a[0] = cuda.popc(a[0])

    with pytest.raises(ruchey.TypingError, match=r"popc\(\) takes an integer, got float64"):
        bad[1, 1](numpy.zeros(4))


def test_warp_intrinsics_outside_kernels_are_typing_errors():
    @ruchey.njit
    def host(x):
        return cuda.shfl_sync(0xFFFFFFFF, x, 0)

    with pytest.raises(ruchey.TypingError, match="only valid inside a @cuda.jit kernel"):
        host(1.0)


# ---------------------------------------------------------------- PTX


WARP_KERNELS = [
    (warp_sums, "void(int64[::1], int64[::1])"),
    (block_sums, "void(int64[::1], int64[::1])"),
    (votes, "void(int64[::1], uint32, boolean[::1], boolean[::1], boolean[::1], uint32[::1])"),
    (matches, "void(float64[::1], uint32[::1], uint32[::1], boolean[::1])"),
    (lane_numbers, "void(int64[::1], int64[::1], uint32[::1])"),
    (active_lanes, "void(uint32[::1])"),
    (block_votes, "void(int64[::1], int32[::1], int32[::1], int32[::1])"),
    (fenced, "void(int64[::1], int64[::1])"),
    (nested_collectives, "void(int64[::1], int64[::1], int64[::1])"),
    (bit_intrinsics, "void(int64[::1], uint32[::1], int64[::1], int64[::1], uint32[::1], uint32[::1])"),
    (bit_counts, "void(uint16[::1], int64[::1])"),
    (arithmetic_intrinsics, "void(float32[::1], float32[::1], float32[::1], float32[::1], "
                            "float32[::1], float32[::1])"),
]


@needs_libdevice
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
def test_warp_intrinsics_are_ptx_instructions():
    ptx = "".join(cuda.compile_ptx(k.py_func, sig, cc=(8, 0))[0] for k, sig in WARP_KERNELS)
    for instruction in ("shfl.sync.down.b32", "shfl.sync.bfly.b32", "vote.sync.all.pred",
                        "vote.sync.ballot.b32", "vote.sync.uni.pred", "match.any.sync.b64",
                        "match.all.sync.b64", "activemask.b32", "%lanemask_lt", "bar.red.popc.u32",
                        "bar.red.and.pred", "bar.warp.sync", "membar.gl", "membar.cta", "membar.sys", "nanosleep.u32",
                        "popc.b64", "clz.b64", "brev.b32", "fma.rn.f32"):
        assert instruction in ptx, instruction


def test_nanosleep_takes_an_integer():
    def sleeps(out):
        cuda.nanosleep(1.5)
        out[0] = 1
    with pytest.raises(ruchey.TypingError, match="nanosleep.*integer"):
        cuda.jit(sleeps)[1, 1](numpy.zeros(1))


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_the_warp_kernels(arch, tmp_path):
    for kernel, sig in WARP_KERNELS:
        ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(int(arch[3]), int(arch[4])))
        assert ptxas_errors(ptx, arch, tmp_path, kernel.__name__) == ""
