"""cuda.compile_ptx: kernels and device functions as PTX text through LLVM's
NVPTX backend, as in numba-cuda. Works without a GPU or the CUDA driver."""
from ruchey import _core, types
from ruchey.cuda.kernels import _launch_bounds


def _return_type(described):
    if described == "none":
        return types.void
    if isinstance(described, tuple):
        return types.Type(*described)
    return described  # a tuple type, by name


def compile_ptx(pyfunc, sig, debug=False, lineinfo=False, device=False, fastmath=False, cc=None,
                opt=True, abi="numba", launch_bounds=None):
    """(ptx, return type) of pyfunc compiled for the argument types of sig,
    for compute capability cc (default (7, 5); LLVM emits up to sm_90, which
    newer GPUs run through the driver's JIT).

    A kernel (the default) is an ``.entry`` taking each array as its data
    pointer, shape and strides in bytes; with ``device=True`` the function
    is a ``.func`` taking its arguments and returning its result as values
    (the C ABI of numba-cuda's ``abi="c"``), its return type inferred unless
    sig declares one. A kernel's ``launch_bounds`` (as cuda.jit takes them)
    are written as its ``.maxntid``, ``.minnctapersm`` and (from sm_90)
    ``.maxclusterrank`` directives."""
    sig = types.parse_signature(sig)
    declared = sig.return_type
    if not device and declared is not None and not isinstance(declared, types.NoneType):
        raise TypeError("a kernel's signature must return void")
    major, minor = cc if cc is not None else (7, 5)
    # (a device function's result converted to its signature's type, as numba-cuda's)
    ret = declared.describe() if device and declared is not None and not isinstance(declared, types.NoneType) \
        and declared is not types.void else None
    ptx, restype = _core.compile_ptx(getattr(pyfunc, "py_func", pyfunc),
                                     tuple(t.describe() for t in sig.args), major * 10 + minor,
                                     bool(device), bool(fastmath), ret, _launch_bounds(launch_bounds))
    return ptx, _return_type(restype)


def compile_ptx_for_current_device(pyfunc, sig, debug=False, lineinfo=False, device=False,
                                   fastmath=False, opt=True, abi="numba", launch_bounds=None):
    """compile_ptx for the current device's compute capability."""
    from ruchey.cuda.runtime import get_current_device
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                       fastmath=fastmath, cc=get_current_device().compute_capability, opt=opt,
                       abi=abi, launch_bounds=launch_bounds)
