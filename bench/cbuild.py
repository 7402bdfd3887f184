"""Build bench/kernels.c into a shared library and load it with ctypes.

The library goes to a private temporary directory (removed at exit), so
concurrent runs of the suite do not overwrite each other's build.
"""
import atexit
import ctypes
import shutil
import subprocess
import tempfile
from pathlib import Path

SOURCE = Path(__file__).resolve().with_name("kernels.c")
CC = "gcc"
# -O3 -march=native as the issue asks.  -std=c11 (ISO C rather than GNU C)
# turns off gcc's contraction of a*b+c into FMA across statements, which
# Python, NumPy and both JITs do not do: with it, mandelbrot's escape counts
# differ from the reference on boundary pixels.  -fopenmp only affects
# prange_reduce, the one kernel whose Python version is parallel=True.
CFLAGS = ["-std=c11", "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC"]

P, I64, F64 = ctypes.c_void_p, ctypes.c_int64, ctypes.c_double
SIGNATURES = {  # name -> (restype, argtypes)
    "arr_sum": (None, [P, P, P, I64]),
    "mandelbrot": (None, [F64, F64, F64, F64, I64, I64, I64, P]),
    "nbody_step": (None, [P, P, P, F64, F64, I64, P]),
    "jacobi": (ctypes.c_int, [P, P, I64, I64, I64]),
    "matmul": (None, [P, P, P, I64, I64, I64]),
    "histogram": (None, [P, I64, F64, F64, I64, P]),
    "prime_sieve": (I64, [I64]),
    "prefix_sum": (None, [P, P, I64]),
    "pairwise_distances": (None, [P, I64, I64, P]),
    "black_scholes": (None, [P, P, P, F64, F64, I64, P, P]),
    "fib": (I64, [I64]),
    "prange_reduce": (F64, [P, I64]),
}


def compiler_version():
    try:
        out = subprocess.run([CC, "--version"], capture_output=True, text=True)
        return out.stdout.splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def build():
    """Compile and load the library; returns (ctypes.CDLL, command line)."""
    tmp = Path(tempfile.mkdtemp(prefix="ruchey-bench-c-"))
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    lib_path = tmp / "libbenchkernels.so"
    cmd = [CC, *CFLAGS, str(SOURCE), "-o", str(lib_path), "-lm"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    lib = ctypes.CDLL(str(lib_path))
    for name, (restype, argtypes) in SIGNATURES.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    return lib, " ".join([CC, *CFLAGS, SOURCE.name])
