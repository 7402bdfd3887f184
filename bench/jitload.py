"""Load bench/kernels.py with every function jitted by one compiler.

    mod = load("ruchey")        # or "numba"; load(None) gives plain Python

The source file is executed as a fresh module per compiler (named
`_bench_kernels_<label>`), and each function it defines is replaced in the
module's namespace by `<compiler>.njit(**JIT_OPTIONS.get(name, {}))(fn)`,
before any call, so global references inside kernels (recursion, prange)
resolve to the jitted versions at compile time.  Used by the parent process
and by the fresh child processes that measure first-call latency and memory.
"""
import importlib
import importlib.util
import sys
from pathlib import Path

KERNELS_PATH = Path(__file__).resolve().with_name("kernels.py")


def _exec_kernels(name):
    spec = importlib.util.spec_from_file_location(name, KERNELS_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # so inspect.getmodule() finds it
    spec.loader.exec_module(module)
    return module


def functions(module):
    """name -> function, for the functions kernels.py itself defines."""
    return {name: value for name, value in vars(module).items()
            if callable(value) and getattr(value, "__module__", None)
            == module.__name__ and not name.startswith("_")
            and not isinstance(value, type)}


def load(label):
    """kernels.py as a module whose functions are jitted by `label`."""
    module = _exec_kernels(f"_bench_kernels_{label or 'python'}")
    if label is None:
        return module
    jit_module = importlib.import_module(label)
    module.prange = jit_module.prange
    for name, fn in functions(module).items():
        options = module.JIT_OPTIONS.get(name, {})
        setattr(module, name, jit_module.njit(**options)(fn))
    return module
