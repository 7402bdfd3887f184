"""Device functions written in CUDA C/C++ (``cuda.declare_device(name, sig,
link=...)``) on the CPU backend: their sources are compiled for the host by
its C++ compiler (``$CXX``, else ``c++``, ``g++`` or ``clang++``) as plain
C++, CUDA's function qualifiers (``__device__``, ``__forceinline__``...)
defined away, into a shared library whose functions the kernels call as
native functions. Code that needs the GPU (``threadIdx``, ``__syncthreads``,
warp intrinsics, CUDA's headers) does not compile there: the compiler's
message says why. PTX, cubins, fatbins, archives and LTO-IR hold GPU code
only, which the CPU cannot run.

A function of numba-cuda's ABI (``abi="numba"``) takes a pointer to its
result first and returns a status; a C-ABI one (``abi="c"``) takes and
returns the signature's values. Kernels call either through a C-ABI entry
of the signature's types, for the former a small function compiled beside
the sources that passes a slot for the result.
"""
import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile

from ruchey import types

# Compiled ahead of each source: the CUDA keywords the host compiler lacks
_PRELUDE = """#include <math.h>
#include <stddef.h>
#include <stdint.h>
#define __device__
#define __host__
#define __global__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
"""

_C_TYPES = {"bool": "bool", "float32": "float", "float64": "double",
            **{f"{u}int{bits}": f"{u}int{bits}_t" for u in ("", "u") for bits in (8, 16, 32, 64)}}

# Compiled libraries by what went into them: each is loaded once a process
_LIBRARIES = {}

ENTRY_PREFIX = "ruchey_entry_"


class HostCompileError(RuntimeError):
    """The host's C++ compiler refused a device function's CUDA C/C++ source;
    ``log`` holds its messages."""

    def __init__(self, message, log):
        super().__init__(f"{message}\n{log}" if log else message)
        self.log = log


def c_type(t):
    """The C type of a number, bool or pointer type of a device function's
    signature (a pointer passed as void *, whatever it points to)."""
    if isinstance(t, types.CPointer):
        return "void *"
    name = str(t)
    if name not in _C_TYPES:
        raise TypeError(f"a device function written in CUDA C/C++ takes and returns numbers, bools and "
                        f"pointers on the CPU backend, not {name}")
    return _C_TYPES[name]


def _is_void(t):
    return t is None or str(t) in ("none", "void")


def numba_abi_entry(name, sig):
    """C++ of a C-ABI function (ENTRY_PREFIX + name) calling name, a function
    of numba-cuda's ABI (int name(T *result, args...)), with sig's arguments;
    compiled apart from the sources, so name's declaration here (its result
    as void *) need not spell theirs."""
    params = [f"{c_type(t)} a{i}" for i, t in enumerate(sig.args)]
    args = "".join(f", a{i}" for i in range(len(sig.args)))
    void = _is_void(sig.return_type)
    result = "int64_t" if void else c_type(sig.return_type)
    return (f'extern "C" int {name}(void *{"".join(", " + c_type(t) for t in sig.args)});\n'
            f'extern "C" {"void" if void else result} {ENTRY_PREFIX}{name}({", ".join(params)}) {{\n'
            f"  {result} r = 0;\n  {name}(&r{args});\n" + ("" if void else "  return r;\n") + "}\n")


def _source_of(item):
    """(file name, C++ text) of one thing to link: a CUSource (from memory) or
    the path of a .cu file; anything else is GPU code the CPU cannot run."""
    kind = type(item).__name__
    if kind == "CUSource":
        data = item.data.decode() if isinstance(item.data, bytes) else item.data
        return getattr(item, "name", None) or "<unnamed-cu>", data
    if isinstance(item, (str, os.PathLike)) and os.fspath(item).endswith(".cu"):
        with open(item) as f:
            return os.fspath(item), f.read()
    what = kind if kind != "str" else os.path.splitext(item)[1] or item
    raise NotImplementedError(f"cannot link {what} ({item!r}) into a kernel on the CPU backend: it holds GPU code "
                              "(PTX, a cubin, fatbin, archive or LTO-IR) that only a GPU runs; CUDA C/C++ sources "
                              "(.cu files, cuda.CUSource) are compiled for the host")


def _compiler():
    found = os.environ.get("CXX") or next(filter(None, map(shutil.which, ("c++", "g++", "clang++"))), None)
    if not found:
        raise HostCompileError("a device function written in CUDA C/C++ runs on the CPU backend once compiled by "
                               "the host's C++ compiler, and none was found (set CXX, or install g++ or clang++)", "")
    return found


def _include_dirs():
    """Where the sources' #includes are found: config.CUDA_NVRTC_EXTRA_SEARCH_PATHS
    (':'-separated), as numba-cuda gives them to NVRTC."""
    from ruchey import config
    return [p for p in config.CUDA_NVRTC_EXTRA_SEARCH_PATHS.split(":") if p]


def load(link, extra):
    """The shared library (a ctypes.CDLL) of the sources to link compiled for
    the host, with extra (C++ text) beside them; compiled once a process."""
    sources = [_source_of(item) for item in link]
    includes = _include_dirs()
    key = hashlib.sha256(repr((sources, extra, includes)).encode()).hexdigest()
    if key not in _LIBRARIES:
        _LIBRARIES[key] = _compile(sources, extra, includes)
    return _LIBRARIES[key]


def _compile(sources, extra, includes):
    with tempfile.TemporaryDirectory(prefix="ruchey-cu-") as folder:
        prelude = os.path.join(folder, "prelude.h")
        files = []
        for i, (_, text) in enumerate([*sources, ("<entries>", extra)]):
            files.append(os.path.join(folder, f"source{i}.cpp"))
            with open(files[-1], "w") as f:
                f.write(text)
        with open(prelude, "w") as f:
            f.write(_PRELUDE)
        out = os.path.join(folder, "device.so")
        command = [_compiler(), "-shared", "-fPIC", "-O2", "-include", prelude,
                   *(f"-I{d}" for d in includes), *files, "-o", out]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode:
            log = done.stderr
            for path, (name, _) in zip(files, sources):
                log = log.replace(path, name)
            raise HostCompileError("the host's C++ compiler could not compile the CUDA C/C++ to link "
                                   f"({', '.join(name for name, _ in sources)})", log.strip())
        return ctypes.CDLL(out)  # (loaded: the file may go)


def address(library, symbol):
    return ctypes.cast(getattr(library, symbol), ctypes.c_void_p).value
