"""cuda.compile, compile_all and compile_ptx: kernels and device functions
as PTX text through LLVM's NVPTX backend, as in numba-cuda. Works without a
GPU or the CUDA driver."""
from ruchey import _core, types
from ruchey.cuda.kernels import _launch_bounds


def _return_type(described):
    if described == "none":
        return types.void
    if isinstance(described, tuple):
        return types.Type(*described)
    return described  # a tuple type, by name


def _compute_capability(cc):
    """(75 for (7, 5), whether for its architecture-specific features): cc
    as numba-cuda takes it, (major, minor) or with a suffix, (9, 0, "a")
    (that architecture's own features: sm_90a) or (10, 0, "f") (its
    family's, which LLVM's NVPTX has no target for: sm_90 code, as for
    any cc past 9.0)."""
    if cc is None:
        return 75, False
    if not (isinstance(cc, tuple) and len(cc) in (2, 3) and all(isinstance(v, int) for v in cc[:2])
            and (len(cc) == 2 or cc[2] in ("a", "f"))):
        raise ValueError(f"cc must be (major, minor) or (major, minor, 'a' or 'f'), got {cc!r}")
    return cc[0] * 10 + cc[1], cc[2:] == ("a",)


def compile(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None, opt=None, abi="c",
            abi_info=None, output="ptx", forceinline=False, launch_bounds=None):
    """(code, return type) of pyfunc compiled for the argument types of sig,
    for compute capability cc (default (7, 5); LLVM emits up to sm_90,
    which newer GPUs run through the driver's JIT), as numba-cuda's
    cuda.compile: by default a device function with the C ABI.

    A device function is a ``.func`` taking its arguments and returning its
    result as values (the C ABI), named after the function or
    ``abi_info["abi_name"]``; its return type is inferred unless sig
    declares one, to which the result is converted. A kernel
    (``device=False``, ``abi="numba"``) is an ``.entry`` taking each array
    as its data pointer, shape and strides in bytes; its ``launch_bounds``
    (as cuda.jit takes them) are written as its ``.maxntid``,
    ``.minnctapersm`` and (from sm_90) ``.maxclusterrank`` directives.
    A ``CPointer`` argument is a bare pointer in either (indexed as a 1-d
    array of no known length). ``lineinfo`` (or ``debug``) puts the source's lines in the PTX: its
    ``.file`` and ``.loc`` directives, for profilers and debuggers (a line
    table only: no variables' locations). ``opt=False`` leaves it unoptimised (locals in
    local memory, no fused multiply-adds), as numba-cuda's.

    ``output`` is ``"ptx"``: LTO-IR (``"ltoir"``) is NVIDIA's NVVM's
    format, and ruchey makes its PTX with LLVM's NVPTX backend instead."""
    if output not in ("ptx", "ltoir"):
        raise NotImplementedError(f"Unsupported output type: {output}")
    if forceinline and output != "ltoir":
        raise ValueError("Can only designate forced inlining in LTO-IR")
    if abi not in ("numba", "c"):
        raise NotImplementedError(f"Unsupported ABI: {abi}")
    if abi == "c" and not device:
        raise NotImplementedError("The C ABI is not supported for kernels")
    if output == "ltoir":
        raise NotImplementedError("LTO-IR output needs NVIDIA's NVVM, which ruchey does not use (its PTX comes "
                                  "from LLVM's NVPTX backend): compile with output='ptx' and link the PTX")
    name = (abi_info or {}).get("abi_name") if abi == "c" else None
    if name is not None and not isinstance(name, str):
        raise TypeError(f"abi_info's abi_name must be a str, got {name!r}")
    sig = types.parse_signature(sig)
    declared = sig.return_type
    if not device and declared is not None and not isinstance(declared, types.NoneType):
        raise TypeError("a kernel's signature must return void")
    number, arch_specific = _compute_capability(cc)
    # (a device function's result converted to its signature's type, as numba-cuda's)
    ret = declared.describe() if device and declared is not None and not isinstance(declared, types.NoneType) \
        else None
    # (a CPointer argument is a bare pointer in the PTX, a 1-d array of no known length in the body)
    args = tuple((t.dtype[::1] if isinstance(t, types.CPointer) else t).describe() for t in sig.args)
    pointers = sum(1 << i for i, t in enumerate(sig.args) if isinstance(t, types.CPointer) and i < 64)
    ptx, restype = _core.compile_ptx(getattr(pyfunc, "py_func", pyfunc), args, number,
                                     bool(device), bool(fastmath), ret, _launch_bounds(launch_bounds), name,
                                     bool(lineinfo or debug), pointers, opt is not False, arch_specific)
    return ptx, _return_type(restype)


def compile_all(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None, opt=None, abi="c",
                abi_info=None, output="ltoir", forceinline=False, launch_bounds=None):
    """([code], return type): compile's code as a list, as numba-cuda's
    compile_all returns that of the function and of the CUDA C files it
    links (which ruchey's cuda.jit does not take). Its default output,
    LTO-IR, is refused as compile refuses it: give output="ptx"."""
    code, restype = compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath, cc=cc,
                            opt=opt, abi=abi, abi_info=abi_info, output=output, forceinline=forceinline,
                            launch_bounds=launch_bounds)
    return [code], restype


def compile_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, opt=None,
                               abi="c", abi_info=None, output="ptx", forceinline=False, launch_bounds=None):
    """compile for the current device's compute capability."""
    from ruchey.cuda.runtime import get_current_device
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                   cc=get_current_device().compute_capability, opt=opt, abi=abi, abi_info=abi_info, output=output,
                   forceinline=forceinline, launch_bounds=launch_bounds)


def compile_ptx(pyfunc, sig, debug=False, lineinfo=False, device=False, fastmath=False, cc=None,
                opt=True, abi="numba", abi_info=None, forceinline=False, launch_bounds=None):
    """compile's PTX, by default of a kernel (device=False): (ptx, return
    type). A device function has the C ABI whichever ``abi`` is given."""
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath, cc=cc, opt=opt,
                   abi=abi, abi_info=abi_info, output="ptx", forceinline=forceinline, launch_bounds=launch_bounds)


def compile_ptx_for_current_device(pyfunc, sig, debug=False, lineinfo=False, device=False,
                                   fastmath=False, opt=True, abi="numba", abi_info=None, forceinline=False,
                                   launch_bounds=None):
    """compile_ptx for the current device's compute capability."""
    from ruchey.cuda.runtime import get_current_device
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                       fastmath=fastmath, cc=get_current_device().compute_capability, opt=opt,
                       abi=abi, abi_info=abi_info, forceinline=forceinline, launch_bounds=launch_bounds)
