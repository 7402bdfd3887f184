"""cuda.random: numba-cuda's random numbers for kernels, the same streams.

Each thread draws from its own xoroshiro128+ generator (Blackman and Vigna,
http://xoroshiro.di.unimi.it/). The generators of an array of states are
one sequence cut 2**64 steps apart: the first state comes from the seed by
SplitMix64 (both of its words the same value, as numba-cuda seeds them),
each next one is the one before it jumped ahead 2**64 steps. So for the same
seed and thread index a kernel draws the same numbers as under numba-cuda.

A state is two uint64 words, the fields s0 and s1 of a record:
``xoroshiro128p_dtype``, numba-cuda's (an array of n states is a 1-d
array of it, ``cuda.device_array(n, dtype=xoroshiro128p_dtype)``).

    rng_states = create_xoroshiro128p_states(threads, seed=1)

    @cuda.jit
    def monte_carlo(rng_states, out):
        i = cuda.grid(1)
        x = xoroshiro128p_uniform_float32(rng_states, i)

The draws are device functions (they also run in @njit code: the states
are initialised on the host with them, as numba-cuda does).
"""
import numpy as np

from ruchey.cuda import devicearray
from ruchey.cuda.kernels import jit

xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)

# Constants beyond int64 are frozen arrays (an int literal must fit int64).
_SPLITMIX = np.array([0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB], dtype=np.uint64)
_JUMP = np.array([0xBEAC0467EBA5FACB, 0xD86B048B86AA9922], dtype=np.uint64)
_TWO_PI = 2 * np.pi  # a literal in compiled code: typed by the other operand (NEP 50) unless cast


@jit(device=True)
def init_xoroshiro128p_state(states, index, seed):
    """states[index] from a 64-bit seed, by SplitMix64."""
    z = np.uint64(seed) + _SPLITMIX[0]
    z = (z ^ (z >> 30)) * _SPLITMIX[1]
    z = (z ^ (z >> 27)) * _SPLITMIX[2]
    z = z ^ (z >> 31)
    states[index]["s0"] = z
    states[index]["s1"] = z


@jit(device=True)
def _rotl(x, k):
    bits = np.uint64(k)  # uint64 with int64 would be float64, as in NumPy
    return (x << bits) | (x >> (np.uint64(64) - bits))


@jit(device=True)
def xoroshiro128p_next(states, index):
    """The next uint64 of states[index]'s generator, advancing it."""
    s0 = states[index]["s0"]
    s1 = states[index]["s1"]
    result = s0 + s1
    s1 ^= s0
    states[index]["s0"] = _rotl(s0, 55) ^ s1 ^ (s1 << 14)
    states[index]["s1"] = _rotl(s1, 36)
    return result


@jit(device=True)
def xoroshiro128p_jump(states, index):
    """Advances states[index] by 2**64 steps (xoroshiro128+'s jump polynomial)."""
    s0 = np.uint64(0)
    s1 = np.uint64(0)
    for word in range(2):
        for bit in range(64):
            if (_JUMP[word] >> np.uint64(bit)) & np.uint64(1):
                s0 ^= states[index]["s0"]
                s1 ^= states[index]["s1"]
            xoroshiro128p_next(states, index)
    states[index]["s0"] = s0
    states[index]["s1"] = s1


@jit(device=True)
def uint64_to_unit_float64(x):
    """The top 53 bits of x as a float64 in [0, 1)."""
    return (x >> 11) * (1.0 / 9007199254740992.0)


@jit(device=True)
def uint64_to_unit_float32(x):
    """As float64, then rounded to float32, as numba-cuda does."""
    return np.float32(uint64_to_unit_float64(x))


@jit(device=True)
def xoroshiro128p_uniform_float32(states, index):
    """A float32 in [0, 1) from states[index], advancing it."""
    return uint64_to_unit_float32(xoroshiro128p_next(states, index))


@jit(device=True)
def xoroshiro128p_uniform_float64(states, index):
    """A float64 in [0, 1) from states[index], advancing it."""
    return uint64_to_unit_float64(xoroshiro128p_next(states, index))


@jit(device=True)
def xoroshiro128p_normal_float32(states, index):
    """A standard normal float32 (Box-Muller, the cosine of two float32
    draws; the sine is dropped), advancing states[index] twice."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return np.sqrt(np.float32(-2.0) * np.log(u1)) * np.cos(np.float32(_TWO_PI) * u2)


@jit(device=True)
def xoroshiro128p_normal_float64(states, index):
    """A standard normal float64 from two float32 draws, as numba-cuda."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return np.sqrt(np.float64(-2.0) * np.log(u1)) * np.cos(np.float64(_TWO_PI) * u2)


@jit(device=True)
def init_xoroshiro128p_states_cpu(states, seed, subsequence_start):
    """Every state of states (n,) on the host: the first from the seed,
    jumped subsequence_start times, each next the one before jumped once."""
    n = states.shape[0]
    if n >= 1:
        init_xoroshiro128p_state(states, 0, seed)
        for _ in range(subsequence_start):
            xoroshiro128p_jump(states, 0)
        for i in range(1, n):
            states[i]["s0"] = states[i - 1]["s0"]
            states[i]["s1"] = states[i - 1]["s1"]
            xoroshiro128p_jump(states, i)


def _states_shape(states):
    shape = tuple(states.shape)
    if len(shape) != 1 or np.dtype(states.dtype) != xoroshiro128p_dtype:
        raise TypeError(f"random states are a 1-d array of xoroshiro128p_dtype, "
                        f"got {np.dtype(states.dtype)} of shape {shape}")
    return shape


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Initialise the random states of a device array (n,) for seed: state
    i is state 0 jumped i * 2**64 steps ahead, state 0 the seed's jumped
    subsequence_start * 2**64 steps. Computed on the host, then copied."""
    host = np.empty(_states_shape(states), dtype=xoroshiro128p_dtype)
    init_xoroshiro128p_states_cpu(host, np.uint64(int(seed) % 2**64), int(subsequence_start))
    states.copy_to_device(host, stream=stream)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A new device array of n random states initialised for seed."""
    states = devicearray.device_array(int(n), dtype=xoroshiro128p_dtype, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states
