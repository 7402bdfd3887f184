"""ruchey.cuda: numba-cuda's API for CUDA kernels.

``from ruchey import cuda`` (or ``import ruchey as numba; from numba import
cuda``) runs numba-cuda code unchanged::

    @cuda.jit
    def double(io_arr):
        i = cuda.grid(1)
        if i < io_arr.size:
            io_arr[i] *= 2

    double[(n + 255) // 256, 256](arr)

Kernels run on an NVIDIA GPU when the CUDA driver finds one (compiled to PTX,
loaded and launched through the driver API), otherwise on ruchey's CPU
backend (every thread of every block, on ruchey's thread pool).
``RUCHEY_CUDA_BACKEND`` (read at each launch) overrides the choice: ``cpu``
forces the CPU backend, ``gpu`` requires a GPU. Device arrays
(cuda.to_device, cuda.device_array) live in the chosen device's memory behind
the same API.

This module is imported by the compiler the first time it compiles a function
(it recognises cuda.threadIdx.x and the like by identity), so it stays light.
"""
from ruchey.cuda.devicearray import (DeviceNDArray, as_cuda_array, device_array,
                                     device_array_like, from_cuda_array_interface, is_cuda_array,
                                     managed_array, mapped, mapped_array, mapped_array_like, open_ipc_array, pinned,
                                     pinned_array, pinned_array_like, to_device)
from ruchey.cuda.intrinsics import (activemask, all_sync, any_sync, atomic, ballot_sync, blockDim,
                                    blockIdx, brev, cbrt, cg, clz, const, eq_sync, ffs, fma, fp16, grid, gridDim,
                                    gridsize, laneid, lanemask_lt, ldca, ldcg, ldcs, ldcv, ldlu, local,
                                    match_all_sync, nanosleep,
                                    match_any_sync, popc, selp, shared, shfl_down_sync, shfl_sync,
                                    shfl_up_sync, shfl_xor_sync, syncthreads, syncthreads_and,
                                    stcg, stcs, stwb, stwt, syncthreads_count, syncthreads_or, syncwarp,
                                    threadfence,
                                    threadfence_block, threadfence_system, threadIdx, warpsize)
from ruchey.cuda.kernels import ArgHint, CUDADispatcher, In, InOut, Out, declare_device, jit, wrap_arg
from ruchey.cuda import cudadrv  # (numba-cuda's path to its device arrays: cuda.cudadrv.devicearray)
from ruchey.cuda.cudadrv.linkable_code import LTOIR, Archive, Cubin, CUSource, Fatbin, Object, PTXSource
from ruchey import config  # (numba-cuda's numba.cuda.config: CUDA_NVRTC_EXTRA_SEARCH_PATHS)
from ruchey.decorators import literal_unroll  # (numba-cuda's numba.cuda has it too)
from ruchey.cuda.ptx import compile, compile_all, compile_for_current_device, compile_ptx, compile_ptx_for_current_device
from ruchey.cuda.reduction import Reduce, reduce
from ruchey.cuda.sourcemodule import CompileError, RawKernel, SourceModule
from ruchey.cuda.runtime import (CPUBackendDevice, CudaError, CudaSupportError, Event, GPUDevice,
                                 Context, MemoryInfo, current_context,
                                 Stream, close, gpus, profile_start, profile_stop, profiling,
                                 default_stream, defer_cleanup, detect, event, event_elapsed_time, external_stream,
                                 get_current_device, is_available, legacy_default_stream,
                                 list_devices, per_thread_default_stream, select_device, stream,
                                 synchronize)

__all__ = [
    "jit", "declare_device", "CUSource", "PTXSource", "Fatbin", "Cubin", "Archive", "Object", "LTOIR",
    "CUDADispatcher", "compile", "compile_all", "compile_for_current_device", "compile_ptx",
    "compile_ptx_for_current_device",
    "threadIdx", "blockIdx", "blockDim", "gridDim", "grid", "gridsize", "syncthreads",
    "shared", "local", "const", "cg", "atomic", "syncthreads_count", "syncthreads_and", "syncthreads_or",
    "threadfence", "threadfence_block", "threadfence_system", "nanosleep",
    "warpsize", "laneid", "syncwarp", "shfl_sync", "shfl_up_sync", "shfl_down_sync",
    "shfl_xor_sync", "all_sync", "any_sync", "eq_sync", "ballot_sync", "match_any_sync",
    "match_all_sync", "activemask", "lanemask_lt",
    "popc", "brev", "clz", "ffs", "fma", "cbrt", "selp", "ldca", "ldcg", "ldcs", "ldlu", "ldcv", "stcg", "stcs",
    "stwb", "stwt", "fp16", "is_float16_supported", "is_bfloat16_supported",
    "is_fp8_supported", "is_supported_version",
    "to_device", "device_array", "device_array_like", "DeviceNDArray", "is_cuda_array",
    "as_cuda_array", "from_cuda_array_interface",
    "pinned_array", "pinned_array_like", "mapped_array", "mapped_array_like", "managed_array", "pinned", "mapped", "open_ipc_array",
    "synchronize", "stream", "Stream", "default_stream", "legacy_default_stream", "external_stream",
    "per_thread_default_stream", "event", "Event", "event_elapsed_time",
    "is_available", "detect", "get_current_device", "select_device", "list_devices", "close",
    "CPUBackendDevice", "GPUDevice", "CudaSupportError", "CudaError",
    "SourceModule", "RawKernel", "CompileError", "reduce", "Reduce", "gpus", "profile_start", "profile_stop", "profiling",
    "current_context", "Context", "MemoryInfo", "vectorize", "guvectorize", "transpose", "In", "Out", "InOut",
    "ArgHint", "wrap_arg", "literal_unroll",
]


def vectorize(ftylist_or_function=(), target="cuda", **options):
    """numba-cuda's cuda.vectorize: ruchey.vectorize with target="cuda" unless told otherwise."""
    import ruchey
    return ruchey.vectorize(ftylist_or_function, target=target, **options)


def guvectorize(*args, target="cuda", **options):
    """numba-cuda's cuda.guvectorize: ruchey.guvectorize with target="cuda" unless told otherwise."""
    import ruchey
    return ruchey.guvectorize(*args, target=target, **options)


def is_supported_version():
    """numba-cuda's check that the CUDA toolkit is a version it was tested with:
    True, as ruchey needs no toolkit (its PTX is loaded by whatever driver
    there is, older architectures refused when the kernel loads) and kernels
    run on the CPU backend without one."""
    return True


def is_float16_supported():
    """float16 compiles in kernels on both backends (on the GPU, half arithmetic needs sm_53,
    below the oldest architecture supported)."""
    return True


def is_bfloat16_supported():
    """False: ruchey has no bfloat16 type (numba-cuda's cuda.bf16), on either backend;
    code that asks takes its other path."""
    return False


def is_fp8_supported():
    """False: ruchey has no 8-bit float types (numba-cuda's cuda.fp8)."""
    return False


# numba-cuda's numba.cuda holds its types module and every type in it (cuda.float32, cuda.void),
# and whether Numba's CPU API is there beside it: ruchey's always is
from ruchey import types  # noqa: E402
HAS_NUMBA = True


def __getattr__(name):
    """cuda.random and cuda.libdevice, imported when first named (random makes device
    functions, libdevice reads the compiler's table), cuda.transpose (it makes a kernel), the vector types
    (cuda.float32x4, cuda.double2: vector_types.py) and the types, as numba-cuda's
    numba.cuda has them (cuda.float32)."""
    if name in ("random", "libdevice"):
        import importlib
        return importlib.import_module(f"ruchey.cuda.{name}")
    if name == "transpose":  # (numba-cuda's numba.cuda.kernels.transpose.transpose)
        from ruchey.cuda.transposed import transpose
        return transpose
    if isinstance(types.namespace.get(name), (types.Type, types.NoneType)):
        return types.namespace[name]
    if name[-1:] in ("1", "2", "3", "4"):  # (every vector type's name ends so: float32x4, double2)
        from ruchey.cuda import vector_types
        found = vector_types.vector_types.get(name) or vector_types.aliases.get(name)
        if found:
            return found
    raise AttributeError(f"module 'ruchey.cuda' has no attribute {name!r}")
