"""numba._helperlib's random-state functions, over ruchey's states.

Compiled code draws numpy.random's and the random module's numbers from
Mersenne Twister states of its own, one pair per thread (lib/random.c).
Numba lets Python reach the calling thread's states by address: code
that keeps compiled draws in step with a NumPy RandomState or a Python
random.Random copies that generator's state in (``rnd_set_state``) and
reads it back (``rnd_get_state``), as Numba's own tests do. The addresses
are ruchey's states', read and written by the runtime's functions.
"""
import ctypes
import functools
import os

from ruchey import _core

_N = 624  # MT19937's words
_KEY = ctypes.c_uint32 * _N
_NUMPY, _PYTHON = 0, 1


@functools.cache
def runtime_library():
    """libruchey_rt, the library compiled code calls: the copy _core loads
    (dlopen of the same path gives the same one)."""
    lib = ctypes.CDLL(os.path.join(os.path.dirname(_core.__file__), "libruchey_rt.so"))
    lib.rt_random_state.restype = ctypes.c_void_p
    lib.rt_random_state.argtypes = [ctypes.c_int32]
    lib.rt_random_state_read.restype = ctypes.c_int32
    lib.rt_random_state_read.argtypes = [ctypes.c_void_p, _KEY]
    lib.rt_random_state_write.restype = None
    lib.rt_random_state_write.argtypes = [ctypes.c_void_p, ctypes.c_int32, _KEY]
    lib.rt_random_state_seed.restype = None
    lib.rt_random_state_seed.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
    lib.rt_random_state_seed_words.restype = None
    lib.rt_random_state_seed_words.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32), ctypes.c_int64]
    lib.rt_random_state_twist.restype = None
    lib.rt_random_state_twist.argtypes = [ctypes.c_void_p]
    return lib


def rnd_get_np_state_ptr():
    """The address of this thread's numpy.random state."""
    return runtime_library().rt_random_state(_NUMPY)


def rnd_get_py_state_ptr():
    """The address of this thread's random-module state."""
    return runtime_library().rt_random_state(_PYTHON)


def rnd_get_state(ptr):
    """(index, [624 ints]): the state's position and words, as NumPy's get_state()[2], [1]."""
    key = _KEY()
    index = runtime_library().rt_random_state_read(ptr, key)
    return index, list(key)


def rnd_set_state(ptr, state):
    """Sets the state from (index, 624 ints), as rnd_get_state gives it."""
    if not isinstance(state, tuple) or len(state) != 2:
        raise TypeError("rnd_set_state() argument 2 must be a tuple (index, list of ints)")
    index, ints = state
    index = int(index)
    if len(ints) != _N:
        raise ValueError(f"list object has wrong size: {len(ints)} (expected {_N})")
    if not 0 <= index <= _N:
        raise ValueError(f"invalid state index {index}")
    runtime_library().rt_random_state_write(ptr, index, _KEY(*(int(x) & 0xFFFFFFFF for x in ints)))


def rnd_seed(ptr, seed):
    """Seeds the state: an int as NumPy seeds one (init_genrand), bytes as
    their 32-bit words mixed in by init_by_array (as Numba takes os.urandom's)."""
    lib = runtime_library()
    if isinstance(seed, int):
        if not 0 <= seed <= 0xFFFFFFFF:
            raise OverflowError("seed must be between 0 and 2**32 - 1")
        lib.rt_random_state_seed(ptr, seed)
        return
    data = bytes(memoryview(seed))
    count = len(data) // 4
    if not count:
        raise ValueError("seed bytes must hold at least one 32-bit word")
    words = (ctypes.c_uint32 * count).from_buffer_copy(data[:count * 4])
    lib.rt_random_state_seed_words(ptr, words, count)


def rnd_shuffle(ptr):
    """The state's words twisted into the next 624 (its index kept)."""
    runtime_library().rt_random_state_twist(ptr)
