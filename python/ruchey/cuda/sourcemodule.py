"""Raw CUDA C kernels: PyCUDA's SourceModule and CuPy's RawKernel.

    mod = SourceModule('''
    __global__ void scale(float *a, float s, int n) {
        int i = threadIdx.x + blockIdx.x * blockDim.x;
        if (i < n) a[i] *= s;
    }''')
    scale = mod.get_function("scale")
    scale(d_a, numpy.float32(2), numpy.int32(n), block=(256, 1, 1), grid=(n // 256 + 1, 1))

    k = RawKernel('extern "C" __global__ void scale(float *a, float s, int n) {...}', "scale")
    k((blocks,), (256,), (d_a, numpy.float32(2), numpy.int32(n)))

The source is compiled to PTX by NVRTC (loaded at the first compile: the
library named by $RUCHEY_NVRTC, the CUDA toolkit's, or the nvidia-cuda-nvrtc
wheel's), once per source, options and compute capability, and loaded
once per device. A compile error is a CompileError carrying NVRTC's log.
Arguments are matched to the kernel's parameters as its PTX declares them:
device arrays, NumPy arrays (copied to the GPU and back) and objects with
__cuda_array_interface__ pass their address; NumPy scalars their bytes
(of the parameter's size); Python ints and floats are converted to the
parameter's type. CUDA C has no CPU backend: without a GPU, a launch raises
CudaSupportError.
"""
import glob
import os
import re
import struct
import sys
import threading

import numpy as np

from ruchey import _core
from ruchey.cuda import devicearray
from ruchey.cuda.runtime import (CudaSupportError, get_current_device, gpu_problem, stream_handle,
                                 use_gpu)


class CompileError(RuntimeError):
    """NVRTC could not compile a raw kernel's source; ``log`` is its message."""

    def __init__(self, message, log):
        super().__init__(f"{message}\n{log}" if log else message)
        self.log = log


# ---------------------------------------------------------------- NVRTC

def _nvrtc_candidates():
    """Where NVRTC may be, in the order tried."""
    names = []
    if os.environ.get("RUCHEY_NVRTC"):
        return [os.environ["RUCHEY_NVRTC"]]
    homes = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    for home in filter(None, homes):
        names += sorted(glob.glob(os.path.join(home, "lib64", "libnvrtc.so*")))
    for site in sys.path:  # the nvidia-cuda-nvrtc wheel's
        for sub in ("nvidia/cu*/lib", "nvidia/cuda_nvrtc/lib"):
            names += sorted(glob.glob(os.path.join(site, sub, "libnvrtc.so*")), reverse=True)
    return [n for n in names if "builtins" not in n] + \
        ["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"]


_lock = threading.Lock()
_nvrtc_version = None


def _load_nvrtc():
    global _nvrtc_version
    with _lock:
        if _nvrtc_version is None:
            problems = []
            for path in _nvrtc_candidates():
                try:
                    _nvrtc_version = _core.nvrtc_load(path)
                    break
                except OSError as exc:
                    problems.append(str(exc))
            else:
                raise CudaSupportError(
                    "NVRTC, the CUDA C compiler raw kernels need, was not found: install the CUDA "
                    "toolkit or `pip install nvidia-cuda-nvrtc`, or name the library in "
                    "$RUCHEY_NVRTC (tried: " + "; ".join(problems[-3:]) + ")")
    return _nvrtc_version


_code_cache = {}  # (source, options, arch, cubin) -> PTX or cubin


def _arch(arch):
    """NVRTC's virtual architecture: the current GPU's, else arch (sm_80,
    compute_80 or (8, 0)), else compute_75 (the oldest CUDA 13 compiles for)."""
    if arch is None:
        cc = get_current_device().compute_capability if not gpu_problem() else (7, 5)
        return f"compute_{cc[0]}{cc[1]}"
    if isinstance(arch, tuple):
        return f"compute_{arch[0]}{arch[1]}"
    return "compute_" + str(arch).split("_")[-1]


def compile_cuda_c(source, options=(), arch=None, name="kernel.cu", cubin=False):
    """CUDA C source compiled by NVRTC (cached): its PTX, or with cubin the
    machine code for the architecture's real GPU (sm_90 for compute_90)."""
    _load_nvrtc()
    options = tuple(options)
    key = (source, options, _arch(arch), cubin)
    code = _code_cache.get(key)
    if code is None:
        target = key[2].replace("compute_", "sm_") if cubin else key[2]
        code, log, error = _core.nvrtc_compile(source, name, (f"--gpu-architecture={target}",) + options,
                                               cubin)
        if code is None:
            raise CompileError(f"NVRTC could not compile {name} ({error})", log.strip())
        _code_cache[key] = code = code if cubin else code.rstrip(b"\0")
    return code


# ---------------------------------------------------------------- parameters

_ENTRY = re.compile(rb"\.entry\s+([\w$]+)\s*\(([^)]*)\)")
_PARAM = re.compile(rb"\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)")


def _entries(ptx):
    """Each kernel's parameter types, as the PTX declares them (u32, f64, ...)."""
    return {m.group(1).decode(): [p.decode() for p in _PARAM.findall(m.group(2))]
            for m in _ENTRY.finditer(ptx)}


_INTS = {1: "b", 2: "h", 4: "i", 8: "q"}  # signed; the capital letter is the unsigned


def _pack(value, ptype, index, copies, stream):
    """The bytes of one argument for a parameter of PTX type ptype."""
    size = int(re.sub(r"\D", "", ptype) or 64) // 8
    if isinstance(value, devicearray.DeviceNDArray) and value.on_gpu:
        return struct.pack("<Q", value.device_ctypes_pointer.value)
    if isinstance(value, np.ndarray):
        dev = devicearray.to_device(np.ascontiguousarray(value), stream=stream)
        if value.flags.writeable:
            copies.append((value, dev))
        return struct.pack("<Q", dev.device_ctypes_pointer.value)
    if hasattr(value, "__cuda_array_interface__"):
        return struct.pack("<Q", value.__cuda_array_interface__["data"][0])
    if isinstance(value, (np.generic,)):
        raw = value.tobytes()
        if len(raw) != size:
            raise TypeError(f"argument {index} is a {value.dtype} of {len(raw)} bytes, the kernel's "
                            f"parameter {index} takes {size} (.{ptype})")
        return raw
    if isinstance(value, (bool, int)) and not ptype.startswith("f") and size in _INTS:
        for code in (_INTS[size], _INTS[size].upper()):
            try:
                return struct.pack("<" + code, value)
            except struct.error:
                pass
        raise TypeError(f"argument {index}, {value}, does not fit the kernel's parameter {index} (.{ptype})")
    if isinstance(value, (int, float)) and ptype in ("f32", "f64"):
        return struct.pack("<f" if ptype == "f32" else "<d", value)
    raise TypeError(f"argument {index} of type {type(value).__name__} cannot be passed to the kernel's "
                    f"parameter {index} (.{ptype}): pass device arrays, NumPy arrays or scalars")


def _launch(module, name, params, args, grid, block, shared, stream):
    if len(args) != len(params):
        raise TypeError(f"kernel {name} takes {len(params)} arguments, got {len(args)}")
    grid, block = _dim3(grid, "grid"), _dim3(block, "block")
    copies = []
    packed = tuple(_pack(a, t, i, copies, stream) for i, (a, t) in enumerate(zip(args, params)))
    _core.cuda_launch_raw(module.function(name), grid, block, int(shared), stream_handle(stream), packed)
    for host, dev in copies:
        dev.copy_to_host(host)


def _dim3(dims, what):
    dims = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if not 1 <= len(dims) <= 3 or not all(isinstance(d, (int, np.integer)) and d > 0 for d in dims):
        raise ValueError(f"{what} must be 1 to 3 positive ints, got {dims!r}")
    return tuple(int(d) for d in dims) + (1,) * (3 - len(dims))


def _need_gpu():
    if not use_gpu():
        raise CudaSupportError("raw CUDA C kernels run only on a GPU (ruchey's CPU backend runs "
                               f"@cuda.jit kernels): {gpu_problem() or 'RUCHEY_CUDA_BACKEND=cpu'}")


# ---------------------------------------------------------------- modules


class _Loaded:
    """A module's code loaded on each device that launched from it: the
    machine code NVRTC makes for the device, or its PTX where it makes none."""

    def __init__(self, source, options, ptx):
        self.source, self.options, self.ptx = source, options, ptx
        self.entries = _entries(ptx)
        self._modules = {}    # device -> module handle
        self._functions = {}  # (device, name) -> function handle

    def function(self, name):
        device = _core.cuda_current_device()
        fn = self._functions.get((device, name))
        if fn is None:
            module = self._modules.get(device)
            if module is None:
                code = self.ptx + b"\0"
                if _core.nvrtc_makes_cubins():
                    code = compile_cuda_c(self.source, self.options, cubin=True)
                module = self._modules[device] = _core.cuda_module_load(code)
            fn = self._functions[device, name] = _core.cuda_module_function(module, name)
        return fn


_loaded = {}  # (source, options) -> _Loaded


def _load(source, options, arch=None):
    key = (source, tuple(options), _arch(arch))
    loaded = _loaded.get(key)
    if loaded is None:
        loaded = _loaded[key] = _Loaded(source, tuple(options), compile_cuda_c(source, options, arch))
    return loaded


class SourceModule:
    """CUDA C source compiled by NVRTC (PyCUDA's SourceModule): its kernels
    are ``get_function(name)``. As in PyCUDA, the source is wrapped in
    ``extern "C"`` (so kernels keep their names) unless no_extern_c."""

    def __init__(self, source, nvcc=None, options=None, keep=False, no_extern_c=False, arch=None,
                 code=None, cache_dir=None, include_dirs=()):
        if not no_extern_c:
            source = 'extern "C" {\n' + source + "\n}\n"
        opts = list(options or []) + [f"-I{d}" for d in include_dirs]
        self.source = source
        self._loaded = _load(source, opts, arch)

    @property
    def ptx(self):
        return self._loaded.ptx.decode()

    def get_function(self, name):
        if name not in self._loaded.entries:
            raise LookupError(f"no kernel named {name!r} in this module (it has "
                              f"{', '.join(sorted(self._loaded.entries)) or 'none'})")
        return Function(self._loaded, name)


class Function:
    """A kernel of a SourceModule, launched as PyCUDA launches:
    ``f(*args, block=(x, y, z), grid=(x, y), shared=0, stream=None)``."""

    def __init__(self, loaded, name):
        self._loaded = loaded
        self.name = name
        self.params = loaded.entries[name]

    def __call__(self, *args, block=(1, 1, 1), grid=(1, 1), shared=0, stream=None, **unused):
        _need_gpu()
        _launch(self._loaded, self.name, self.params, args, grid, block, shared, stream)

    def __repr__(self):
        return f"<ruchey.cuda.Function {self.name}({', '.join(self.params)})>"


class RawKernel:
    """CuPy's RawKernel: ``RawKernel(code, name)`` called as
    ``k(grid, block, args, shared_mem=0, stream=None)``. The code is not
    wrapped: declare the kernel ``extern "C"`` to find it by its name."""

    def __init__(self, code, name, options=(), backend="nvrtc", translate_cucomplex=False):
        self.code = code
        self.name = name
        self.options = tuple(options)
        self._loaded = None

    def _module(self):
        if self._loaded is None:
            self._loaded = _load(self.code, self.options)
            if self.name not in self._loaded.entries:
                raise LookupError(f"no kernel named {self.name!r} in the code (declare it extern \"C\"; "
                                  f"it has {', '.join(sorted(self._loaded.entries)) or 'none'})")
        return self._loaded

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        _need_gpu()
        loaded = self._module()
        _launch(loaded, self.name, loaded.entries[self.name], tuple(args), grid, block, shared_mem, stream)

    @property
    def ptx(self):
        return self._module().ptx.decode()
