"""Settings read from the environment at import, as Numba's numba.config.

Each is ``RUCHEY_<NAME>``, or ``NUMBA_<NAME>`` for code and scripts written
for Numba (``RUCHEY_<NAME>`` wins where both are set):

- ``DISABLE_JIT=1``: ``@jit``/``@njit`` return the Python function itself, to
  step through it in a debugger (``prange`` is ``range``);
- ``NUM_THREADS=n``: the thread pool's size (the CPUs by default,
  ``DEFAULT_NUM_THREADS``), read by the pool when it starts;
- ``BOUNDSCHECK=1`` checks every index of every compiled function (IndexError
  instead of a wild read), 0 checks none, unset leaves it to each function's
  ``boundscheck=`` option;
- ``CACHE_DIR=path``: where ``cache=True`` keeps compiled code, instead of
  each source file's ``__pycache__`` folder;
- ``CUDA_NVRTC_EXTRA_SEARCH_PATHS=dir:dir``: where the ``#include``s of CUDA
  C/C++ device functions (``cuda.declare_device(..., link=...)``) are found.
"""
import os
import warnings

from ruchey import _core


def _setting(name):
    for prefix in ("RUCHEY_", "NUMBA_"):
        value = os.environ.get(prefix + name, "").strip()
        if value:
            return value
    return None


def _flag(name):
    value = _setting(name)
    if value is None:
        return None
    if value in ("0", "1"):
        return value == "1"
    warnings.warn(f"RUCHEY_{name} (or NUMBA_{name}) is 0 or 1, not {value!r}: ignored", RuntimeWarning, stacklevel=2)
    return None


DISABLE_JIT = bool(_flag("DISABLE_JIT"))
CACHE_DIR = _setting("CACHE_DIR") or ""  # cache=True's root folder instead of __pycache__
BOUNDSCHECK = _flag("BOUNDSCHECK")
CUDA_NVRTC_EXTRA_SEARCH_PATHS = _setting("CUDA_NVRTC_EXTRA_SEARCH_PATHS") or ""


def _cpus():
    """The CPUs this process may run on, as the pool counts them when no
    NUM_THREADS is set (csrgraph compares its own thread count with it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity masks (macOS)
        return max(1, os.cpu_count() or 1)


DEFAULT_NUM_THREADS = NUMBA_DEFAULT_NUM_THREADS = _cpus()


def __getattr__(name):
    """NUM_THREADS: the pool's size, as the pool reads the setting (asked
    only when wanted: it loads the compiler library)."""
    if name in ("NUM_THREADS", "NUMBA_NUM_THREADS"):
        return _core.max_threads()
    raise AttributeError(f"module 'ruchey.config' has no attribute {name!r}")
