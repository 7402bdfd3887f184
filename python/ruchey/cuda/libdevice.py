"""cuda.libdevice: NVIDIA's libdevice functions in kernels, as numba-cuda names them.

Every function of libdevice is here under its name without the ``__nv_``
prefix (``libdevice.sin``, ``libdevice.cosf``, ``libdevice.float2int_rn``,
``libdevice.popc``...), typed as numba-cuda types it: arguments of the
function's types (other numbers are converted to them), outputs returned
after the result (``sincos(x)`` gives ``(sin, cos)``, ``frexp(x)`` gives
``(m, e)``), unsigned values as int32/int64 bits. On the GPU a call is
libdevice's own function; on the CPU backend the C library's or the same
arithmetic (see docs/cuda.md for where the results may differ).

    from ruchey.cuda import libdevice

    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        out[i] = libdevice.rsqrt(x[i])

The names come from the compiler's table of them (loaded on first import).
"""
from ruchey import _core
from ruchey.cuda.intrinsics import _Intrinsic


def _names():
    prefix = "libdevice."
    return [path[len(prefix):] for _, module, path, *_ in _core.builtins()
            if module == "ruchey.cuda" and path and path.startswith(prefix)]


__all__ = _names()
globals().update({name: _Intrinsic(f"libdevice.{name}", f"libdevice.{name}: libdevice's __nv_{name}.")
                  for name in __all__})
