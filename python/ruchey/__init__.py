"""ruchey: a just-in-time compiler for numeric Python, written in C on LLVM.

Its API is the core of Numba's, so ``import ruchey as numba`` runs existing
code. Importing it loads neither LLVM nor the compiler: the first call of a
compiled function does.
"""
from ruchey import _core, config
from ruchey._core import ArgumentTypeError, TypingError
# thread count of parallel loops, per calling thread as in Numba; these load
# the compiler library on first call but start no thread
from ruchey._core import get_num_threads, get_parallel_chunksize, get_thread_id, set_num_threads, set_parallel_chunksize
from ruchey.decorators import jit, jit_module, literal_unroll, literally, njit, pndindex, prange
from ruchey.types import (bool_, boolean, complex64, complex128, double, float16, float32, float64, from_dtype, int8,
                          int16, int32, int64, intp, typeof, uint8, uint16, uint32, uint64, uintp, void)
from ruchey.types import deferred_type, none, optional  # as numba.none, numba.optional and numba.deferred_type
# Numba's short and C names of the scalar types (from numba import f8, i4, intc)
from ruchey.types import (b1, byte, c8, c16, char, f4, f8, i1, i2, i4, i8, int_, intc, long_, longlong, short, size_t,
                          ssize_t, u1, u2, u4, u8, uchar, uint, uintc, ulong, ulonglong, ushort)
from ruchey.ufunc import DUFunc, guvectorize, vectorize
from ruchey.ccallback import carray, cfunc, farray
from ruchey import typed
from ruchey import _stdlib  # noqa: F401  (registers functools.reduce and its kin for compiled code)
from ruchey._objmode import objmode


def _register_polynomial():
    from ruchey import _polynomial
    _polynomial.register()


# numpy.polynomial.Polynomial: registered where a program first uses it (numpy imports that module on demand)
_core._value_class_later("numpy.polynomial.polynomial.Polynomial", _register_polynomial)

__version__ = "0.1.0"
__all__ = ["jit", "jit_module", "njit", "prange", "pndindex", "literal_unroll", "literally", "TypingError", "get_num_threads", "set_num_threads",
           "get_parallel_chunksize", "set_parallel_chunksize", "parallel_chunksize", "get_thread_id", "threading_layer", "vectorize", "guvectorize", "cfunc", "carray", "farray", "objmode", "stencil"]


def threading_layer():
    """The threading layer parallel code runs on, by Numba's name: ruchey's
    own thread pool, a work queue over pthreads, is Numba's "workqueue"
    (never "tbb" or "omp"). Before the pool is first needed (a parallel
    loop or ufunc, get_num_threads() or set_num_threads(); reading its size,
    config.NUMBA_NUM_THREADS, fixes it too) it is Numba's ValueError, as
    Numba has chosen no layer until it launches its threads (EVoC's nesting
    check expects that ValueError)."""
    if not _core.pool_sized():
        raise ValueError("Threading layer is not initialized.")
    return "workqueue"


class parallel_chunksize:
    """``with parallel_chunksize(n):`` the parallel loops this thread starts
    inside take chunks of n iterations, as Numba's (in compiled code too,
    where the block is read as set, try, restore)."""

    def __init__(self, size):
        self.size = size

    def __enter__(self):
        self._before = set_parallel_chunksize(self.size)

    def __exit__(self, *exc):
        set_parallel_chunksize(self._before)


def _follow_tracemalloc():
    """Arrays that compiled code makes are told to tracemalloc, as Numba's
    are, but only while it traces (told while it is off, each array cost 9 ns
    more): its start and stop, wrapped, tell the runtime, and so does a
    tracing already started (python -X tracemalloc)."""
    import sys

    import _tracemalloc
    from ruchey._core import _trace_memory

    def following(switch):
        def switched(*args):
            try:
                return switch(*args)
            finally:
                _trace_memory(_tracemalloc.is_tracing())
        switched.__name__, switched.__doc__, switched.__wrapped__ = switch.__name__, switch.__doc__, switch
        return switched
    for name in ("start", "stop"):
        switch = getattr(_tracemalloc, name)
        if not hasattr(switch, "__wrapped__"):  # (ruchey imported again after its module was dropped)
            setattr(_tracemalloc, name, following(switch))
        loaded = sys.modules.get("tracemalloc")  # (imported before ruchey: its names are _tracemalloc's own)
        if loaded is not None and getattr(loaded, name, None) is switch:
            setattr(loaded, name, getattr(_tracemalloc, name))
    _trace_memory(_tracemalloc.is_tracing())


_follow_tracemalloc()


def install_as_numba():
    """Registers ruchey as ``numba`` in this process, so that packages
    written for Numba import and run it (see ruchey.numba_shim)."""
    from ruchey.numba_shim import install_as_numba
    return install_as_numba()


def stencil(func_or_mode="constant", **options):
    """Numba's ``@stencil`` (see ruchey.stencils, imported on first use)."""
    from ruchey.stencils import stencil as make
    return make(func_or_mode, **options)


def _stencil_in_compiled_code(*args):
    """stencil(kernel) called in compiled code (see ruchey.stencils)."""
    from ruchey.stencils import stencil as make
    return make.__ruchey_compile_time__(*args)


stencil.__ruchey_compile_time__ = _stencil_in_compiled_code


def __getattr__(name):
    """ruchey.cuda and ruchey.experimental are imported on first use, keeping
    ``import ruchey`` fast."""
    if name in ("cuda", "experimental"):
        import importlib
        return importlib.import_module(f"ruchey.{name}")
    raise AttributeError(f"module 'ruchey' has no attribute {name!r}")
