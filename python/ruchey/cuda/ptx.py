"""cuda.compile_ptx: kernels as PTX text through LLVM's NVPTX backend, as in
numba-cuda. Works without a GPU or the CUDA driver."""
from ruchey import _core, types


def compile_ptx(pyfunc, sig, debug=False, lineinfo=False, device=False, fastmath=False, cc=None,
                opt=True, abi="numba"):
    """(ptx, return type) of pyfunc compiled as a kernel for the argument
    types of sig, for compute capability cc (default (7, 5); LLVM emits up
    to sm_90, which newer GPUs run through the driver's JIT)."""
    if device:
        raise NotImplementedError("compile_ptx(device=True) is not supported yet: compile the kernel")
    sig = types.parse_signature(sig)
    if sig.return_type is not None and not isinstance(sig.return_type, types.NoneType):
        raise TypeError("a kernel's signature must return void")
    major, minor = cc if cc is not None else (7, 5)
    ptx, restype = _core.compile_ptx(getattr(pyfunc, "py_func", pyfunc),
                                     tuple(t.describe() for t in sig.args), major * 10 + minor)
    return ptx, types.void if restype == "none" else restype


def compile_ptx_for_current_device(pyfunc, sig, debug=False, lineinfo=False, device=False,
                                   fastmath=False, opt=True, abi="numba"):
    """compile_ptx for the current device's compute capability."""
    from ruchey.cuda.runtime import get_current_device
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                       fastmath=fastmath, cc=get_current_device().compute_capability, opt=opt,
                       abi=abi)
