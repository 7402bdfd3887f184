"""@cfunc: a compiled function as a C callback.

``@cfunc("float64(float64)")`` compiles the function at once into a plain C
function of that signature (lib/lower/cfunc.c): ``.address`` is its
address, ``.ctypes`` a ctypes function pointer to it, and
``scipy.LowLevelCallable(f.ctypes)`` hands it to SciPy (``quad`` and
friends then call machine code, never the interpreter). The callback
touches no Python object, so C code may call it without the GIL.

An exception inside the callback cannot reach its caller, which is C code:
as in Numba it is written out through ``sys.unraisablehook`` ("Exception
ignored in ...") and the callback returns zero.
"""
import ctypes
import functools

from ruchey import _core, decorators, types

_CTYPES = {
    "bool": ctypes.c_bool, "int8": ctypes.c_int8, "int16": ctypes.c_int16, "int32": ctypes.c_int32,
    "int64": ctypes.c_int64, "uint8": ctypes.c_uint8, "uint16": ctypes.c_uint16, "uint32": ctypes.c_uint32,
    "uint64": ctypes.c_uint64, "float32": ctypes.c_float, "float64": ctypes.c_double,
}


def _ctype(t):
    if isinstance(t, types.NoneType):
        return None
    if isinstance(t, types.Type) and not t.ndim and t.name in _CTYPES:
        return _CTYPES[t.name]
    raise _core.TypingError(f"a C callback takes and returns integers, floats and bools, not {t!r}")


class CFunc:
    """The compiled C callback of a function (what ``@cfunc(sig)`` returns)."""

    def __init__(self, func, signature, options):
        sig = types.parse_signature(signature)
        if sig.return_type is None:
            raise _core.TypingError(f"cfunc {func.__name__}: the signature needs a return type, "
                                    f"as in \"float64(float64)\", got {signature!r}")
        self._signature = sig
        self._argtypes = tuple(_ctype(t) for t in sig.args)
        self._restype = _ctype(sig.return_type)
        self._disp = decorators._dispatcher(func, options)
        self._args = tuple(t.describe() for t in sig.args)
        self.address, self._code = _core._cfunc(self._disp, self._args, sig.return_type.describe())
        self.native_name = f"cfunc.{func.__module__}.{func.__qualname__}"
        self.ctypes = ctypes.CFUNCTYPE(self._restype, *self._argtypes)(self.address)
        self.py_func = func
        functools.update_wrapper(self, func)

    def __call__(self, *args, **kwargs):
        """As in Numba, calling the object from Python runs the Python function."""
        return self.py_func(*args, **kwargs)

    def inspect_llvm(self):
        """The callback's LLVM IR (compiled again: the JIT keeps only machine code)."""
        return _core._cfunc(self._disp, self._args, self._signature.return_type.describe(), True)

    def __repr__(self):
        return f"<ruchey.CFunc {self.py_func.__qualname__} {self._signature!r}>"


def cfunc(sig, locals=None, cache=False, **options):
    """``@cfunc("float64(float64)")``: compile the function now as a C
    callback of that signature. ``nopython`` is accepted (ruchey compiles
    everything in nopython mode); ``cache`` is accepted and the callback is
    compiled again in each process."""
    options = dict(options)
    if locals:
        options["locals"] = locals
    options.pop("nopython", None)
    return lambda func: CFunc(func, sig, options)
