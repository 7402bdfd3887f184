"""ruchey.cuda.random: numba-cuda's xoroshiro128+ generators, checked
against a plain-Python xoroshiro128+ and SplitMix64 written here from
their published definitions (and against numba-cuda's own CPU
initialisation when Numba is installed): the same states for a seed, the
same uniform streams bit for bit, the same normal draws."""
import math

import numpy
import pytest

from ruchey import cuda, float32, float64, from_dtype, int64
from ruchey.cuda.random import (create_xoroshiro128p_states, init_xoroshiro128p_states,
                                xoroshiro128p_dtype, xoroshiro128p_normal_float32,
                                xoroshiro128p_normal_float64, xoroshiro128p_uniform_float32,
                                xoroshiro128p_uniform_float64)

from conftest import AS_NUMBA, needs_ptxas, ptxas_errors

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="kernels run on ruchey's CPU backend (numba-cuda needs a GPU)")

MASK = (1 << 64) - 1


# ---------------------------------------------------------------- the model


def splitmix64(seed):
    z = (seed + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK


def step(s):
    """xoroshiro128+ (a=55, b=14, c=36): the output and the next state."""
    s0, s1 = s
    out = (s0 + s1) & MASK
    s1 ^= s0
    return out, (rotl(s0, 55) ^ s1 ^ ((s1 << 14) & MASK), rotl(s1, 36))


def jump(s):
    """2**64 steps ahead."""
    t0 = t1 = 0
    for word in (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922):
        for bit in range(64):
            if word >> bit & 1:
                t0 ^= s[0]
                t1 ^= s[1]
            _, s = step(s)
    return t0, t1


def model_states(n, seed, start=0):
    s = (splitmix64(seed % (1 << 64)),) * 2
    for _ in range(start):
        s = jump(s)
    states = [s]
    for _ in range(n - 1):
        states.append(jump(states[-1]))
    return states


def pairs(states):
    """An array of states (xoroshiro128p_dtype) as (s0, s1) pairs of ints."""
    return [(int(s["s0"]), int(s["s1"])) for s in states]


def unit64(x):
    return (x >> 11) * (1.0 / 2**53)


def unit32(x):
    return numpy.float32(unit64(x))


# ---------------------------------------------------------------- states


@pytest.mark.parametrize("seed", [0, 1, 42, 2**63 + 5, -1])
def test_states_are_splitmix_then_jumps_of_two_to_the_64(seed):
    states = create_xoroshiro128p_states(6, seed=seed).copy_to_host()
    assert states.dtype == xoroshiro128p_dtype and states.shape == (6,)
    assert pairs(states) == model_states(6, seed)


def test_subsequence_start_jumps_the_first_state():
    states = create_xoroshiro128p_states(3, seed=7, subsequence_start=2).copy_to_host()
    assert pairs(states) == model_states(3, 7, start=2)
    assert pairs(states) == model_states(5, 7)[2:]


def test_states_equal_numba_cudas():
    random = pytest.importorskip("numba.cuda.random")
    if random.__name__.startswith("ruchey"):  # numba is ruchey's shim here (install_as_numba in this process)
        pytest.skip("numba-cuda is not installed")
    theirs = numpy.empty(50, dtype=random.xoroshiro128p_dtype)
    random.init_xoroshiro128p_states_cpu(theirs, 12345, 0)
    ours = create_xoroshiro128p_states(50, seed=12345).copy_to_host()
    assert ours.dtype == theirs.dtype  # (the same record: s0, s1, aligned)
    numpy.testing.assert_array_equal(ours, theirs)


def test_device_arrays_of_the_state_dtype_can_be_initialised():
    states = cuda.device_array(4, dtype=xoroshiro128p_dtype)
    assert states.shape == (4,)
    init_xoroshiro128p_states(states, 99)
    assert pairs(states.copy_to_host()) == model_states(4, 99)


@pytest.mark.parametrize("shape, dtype", [(4, numpy.uint64), ((4, 2), numpy.uint64), ((4, 2), xoroshiro128p_dtype)])
def test_states_of_another_shape_or_dtype_are_refused(shape, dtype):
    with pytest.raises(TypeError, match=r"1-d array of xoroshiro128p_dtype"):
        init_xoroshiro128p_states(cuda.device_array(shape, dtype=dtype), 1)


def test_states_are_distinct_records():
    states = create_xoroshiro128p_states(10, seed=1).copy_to_host()
    assert len(numpy.unique(states)) == 10  # (numba-cuda's test_create: one record per state)


# ---------------------------------------------------------------- draws


@cuda.jit
def draws(states, u32, u64, n32, n64):
    i = cuda.grid(1)
    if i < states.shape[0]:
        for k in range(u32.shape[1]):
            u32[i, k] = xoroshiro128p_uniform_float32(states, i)
            u64[i, k] = xoroshiro128p_uniform_float64(states, i)
            n32[i, k] = xoroshiro128p_normal_float32(states, i)
            n64[i, k] = xoroshiro128p_normal_float64(states, i)


def model_draws(state, k):
    """Each thread's draws in the kernel's order: float32, float64, then two
    float32 for each normal (Box-Muller's cosine, as numba-cuda)."""
    u32, u64, n32, n64 = [], [], [], []
    for _ in range(k):
        out, state = step(state)
        u32.append(unit32(out))
        out, state = step(state)
        u64.append(unit64(out))
        for normals, f32 in ((n32, True), (n64, False)):
            o1, state = step(state)
            o2, state = step(state)
            a, b = unit32(o1), unit32(o2)
            if f32:
                normals.append(numpy.sqrt(numpy.float32(-2.0) * numpy.log(a)) *
                               numpy.cos(numpy.float32(2 * math.pi) * b))
            else:
                normals.append(math.sqrt(-2.0 * float(numpy.log(a))) * math.cos(2 * math.pi * float(b)))
    return u32, u64, n32, n64


def test_each_thread_draws_its_generators_stream():
    threads, k = 40, 5
    states = create_xoroshiro128p_states(threads, seed=2024)
    u32, n32 = numpy.zeros((threads, k), numpy.float32), numpy.zeros((threads, k), numpy.float32)
    u64, n64 = numpy.zeros((threads, k)), numpy.zeros((threads, k))
    draws[2, 32](states, u32, u64, n32, n64)
    for i, state in enumerate(model_states(threads, 2024)):
        e32, e64, en32, en64 = model_draws(state, k)
        numpy.testing.assert_array_equal(u32[i], numpy.array(e32, numpy.float32))
        numpy.testing.assert_array_equal(u64[i], e64)
        # the normals go through log and cos: libm's on the CPU, libdevice's on a GPU
        numpy.testing.assert_allclose(n32[i], numpy.array(en32, numpy.float32), rtol=2e-6)
        numpy.testing.assert_allclose(n64[i], en64, rtol=1e-6)
    assert (u32 >= 0).all() and (u32 <= 1).all() and (u64 >= 0).all() and (u64 < 1).all()


@cuda.jit
def monte_carlo_pi(states, hits, samples):
    i = cuda.grid(1)
    if i < states.shape[0]:
        inside = 0
        for _ in range(samples):
            x = xoroshiro128p_uniform_float32(states, i)
            y = xoroshiro128p_uniform_float32(states, i)
            if x * x + y * y <= 1.0:
                inside += 1
        hits[i] = inside


def test_a_monte_carlo_kernel_counts_what_the_streams_give():
    threads, samples = 64, 200
    states = create_xoroshiro128p_states(threads, seed=5)
    hits = numpy.zeros(threads, dtype=numpy.int64)
    monte_carlo_pi[2, 32](states, hits, samples)
    expected = []
    for state in model_states(threads, 5):
        inside = 0
        for _ in range(samples):
            ox, state = step(state)
            oy, state = step(state)
            x, y = unit32(ox), unit32(oy)
            inside += bool(x * x + y * y <= 1.0)
        expected.append(inside)
    numpy.testing.assert_array_equal(hits, expected)
    assert abs(4 * hits.sum() / (threads * samples) - math.pi) < 0.1


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_kernels_drawing_random_numbers(arch, tmp_path):
    states = from_dtype(xoroshiro128p_dtype)[::1]
    for kernel, args in [(draws, (states, float32[:, ::1], float64[:, ::1], float32[:, ::1], float64[:, ::1])),
                         (monte_carlo_pi, (states, int64[::1], int64))]:
        ptx, _ = cuda.compile_ptx(kernel.py_func, args, cc=(int(arch[3]), int(arch[4])))
        assert ptxas_errors(ptx, arch, tmp_path, kernel.__name__) == ""
