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
    if isinstance(t, types.CPointer):  # (to records, a struct's: an address too)
        name = getattr(t.dtype, "name", None)
        return ctypes.c_void_p if t == types.voidptr or name not in _CTYPES else ctypes.POINTER(_CTYPES[name])
    if isinstance(t, types.Type) and not t.ndim and t.name in _CTYPES:
        return _CTYPES[t.name]
    raise _core.TypingError(f"a C callback takes integers, floats, bools and pointers to them (CPointer, "
                            f"voidptr), and returns a number or a bool, not {t!r}")


def _described(t):
    """A pointer travels to the compiler as a 1-d C array of its elements
    (lib/lower/cfunc.c makes it from the pointer, of no known length)."""
    if not isinstance(t, types.CPointer):
        return t.describe()
    return t.as_array().describe()


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
        self._disp = decorators._dispatcher(func, options)  # cache=True: its C function on disk
        self._args = tuple(_described(t) for t in sig.args)
        self.address, self._code = _core._cfunc(self._disp, self._args, sig.return_type.describe())
        if not any(isinstance(t, types.CPointer) for t in sig.args):  # passed to a FunctionType parameter
            self._function_type = types.FunctionType(sig).describe()
            self._disp._reports_failures = True  # there too its exceptions are unraisable, as Numba's
            self._disp._boxes_as = self  # and returned to Python it is this object (core/box.c)
        self.native_name = f"cfunc.{func.__module__}.{func.__qualname__}"
        self.ctypes = ctypes.CFUNCTYPE(self._restype, *self._argtypes)(self.address)
        self.py_func = func
        functools.update_wrapper(self, func)

    @property
    def cffi(self):
        """The callback as a cffi pointer (void *, as Numba's: cffi compares
        types by their names), which cffi functions take for a function
        pointer parameter."""
        import cffi
        return cffi.FFI().cast("void *", self.address)

    # the names Numba's CFunc gives these (a WrapperAddressProtocol object's __wrapper_address__ often
    # returns a cfunc's _wrapper_address)
    @property
    def _wrapper_address(self):
        return self.address

    @property
    def _pyfunc(self):
        return self.py_func

    @property
    def _sig(self):
        return self._signature

    def __call__(self, *args, **kwargs):
        """As in Numba, calling the object from Python runs the Python function."""
        return self.py_func(*args, **kwargs)

    # Numba's WrapperAddressProtocol (ruchey.native): compiled code calls a cfunc it finds as a
    # global or closure variable through its address, as Numba calls one
    def __wrapper_address__(self):
        return self.address

    def signature(self):
        return self._signature

    def inspect_llvm(self):
        """The callback's LLVM IR (compiled again: the JIT keeps only machine code)."""
        return _core._cfunc(self._disp, self._args, self._signature.return_type.describe(), True)

    def __repr__(self):
        return f"<ruchey.CFunc {self.py_func.__qualname__} {self._signature!r}>"


_wrappers = {}  # (compiled function, signature) -> the C callback made for it: kept, so its address stays valid


def _get_wrapper_address(func, sig):
    """Numba's ``numba.experimental.function_type._get_wrapper_address``:
    the address of a C function of signature sig running func (a cfunc, a
    compiled function, or an object of the wrapper address protocol), which
    packages keep in tables of functions that compiled code calls by address."""
    if getattr(type(func), "__wrapper_address__", None) is not None and not isinstance(func, type):
        address = func.__wrapper_address__()
    elif isinstance(func, _core.Dispatcher):
        key = (func, str(sig))
        if key not in _wrappers:
            _wrappers[key] = CFunc(func.py_func, sig, {})
        address = _wrappers[key].address
    else:
        raise NotImplementedError(f"the wrapper address of a {type(func).__name__} object with signature {sig!r}: "
                                  f"pass a compiled function, a cfunc or an object with __wrapper_address__")
    if not isinstance(address, int) or address <= 0:
        raise ValueError(f"the wrapper address of a {type(func).__name__} object must be a positive integer, "
                         f"got {address!r}")
    return address


def cfunc(sig, locals=None, cache=False, **options):
    """``@cfunc("float64(float64)")``: compile the function now as a C
    callback of that signature. ``nopython`` is accepted (ruchey compiles
    everything in nopython mode); ``cache=True`` keeps its machine code on
    disk, as ``@njit(cache=True)`` does."""
    options = dict(options)
    if options.get("forceobj"):  # (a C callback runs no Python)
        raise NotImplementedError("object mode is not supported by cfunc: its callback runs without Python")
    options.pop("forceobj", None)
    if locals:
        options["locals"] = locals
    if cache:
        options["cache"] = True
    options.pop("nopython", None)
    return lambda func: CFunc(func, sig, options)


# ---------------------------------------------------------------- carray, farray

def _python_array(ptr, shape, dtype, order):
    import numpy
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if isinstance(ptr, ctypes._Pointer):
        pointee = numpy.dtype(ptr._type_)
        if dtype is not None and numpy.dtype(dtype) != pointee:
            raise TypeError(f"mismatching dtype '{numpy.dtype(dtype)}' for pointer to {pointee}")
        dtype, address = pointee, ctypes.cast(ptr, ctypes.c_void_p).value
    elif isinstance(ptr, (ctypes.c_void_p, int)):
        if dtype is None:
            raise TypeError("carray/farray of a void pointer (or an address) needs a dtype")
        address = ptr.value if isinstance(ptr, ctypes.c_void_p) else ptr
    else:
        raise TypeError(f"carray/farray take a ctypes pointer, got {type(ptr).__name__}")
    dtype = numpy.dtype(dtype)
    count = int(numpy.prod(shape))
    buffer = (ctypes.c_char * (count * dtype.itemsize)).from_address(address)
    return numpy.frombuffer(buffer, dtype, count).reshape(shape, order=order)


def carray(ptr, shape, dtype=None):
    """A C-ordered array of the given shape over the memory ptr points at
    (as Numba's): in a @cfunc, of a CPointer argument; in Python, of a
    ctypes pointer (or a void pointer or address with a dtype). The array
    does not own the memory."""
    return _python_array(ptr, shape, dtype, "C")


def farray(ptr, shape, dtype=None):
    """The same as carray, Fortran-ordered."""
    return _python_array(ptr, shape, dtype, "F")


_address_casts = {}


def _address_cast(dtype):
    """An @intrinsic making an address (a uintp) a pointer to dtype's values:
    carray(p, shape, dtype) of a void pointer p reads them (one per dtype)."""
    if dtype not in _address_casts:
        from ruchey import intrinsics

        def typer(typingctx, address):
            def codegen(context, builder, sig, args):
                return builder.inttoptr(args[0], intrinsics._llvm_type(intrinsics._llvmlite_ir(), dtype).as_pointer())
            return types.CPointer(dtype)(types.uint64), codegen
        typer.__name__ = f"address_as_{dtype}_pointer"
        _address_casts[dtype] = intrinsics.intrinsic(typer)
    return _address_casts[dtype]


def _pointer_typer(fortran):
    def typer(ptr, shape, dtype=None):
        if not (isinstance(ptr, (types.Array, types.Record)) and ptr.ndim == 1):
            return None  # a pointer argument only (to numbers or records)
        if dtype is not None and dtype != types.none and repr(dtype) != f"dtype({ptr.dtype})":
            # a dtype: the pointer's own (scipy's LowLevelCallable examples name it), or any for a
            # void pointer (held as bytes, as a CPointer(uint8)), whose address is cast, as Numba's
            if not isinstance(dtype, types.NumberClass):
                return None
            if ptr.dtype != types.uint8:
                raise _core.TypingError(f"mismatching dtype '{dtype.dtype}' for pointer type '{ptr.dtype}*'")
            cast = _address_cast(dtype.dtype)
            if fortran:
                return lambda ptr, shape, dtype=None: farray(cast(ptr.ctypes.data), shape)
            return lambda ptr, shape, dtype=None: carray(cast(ptr.ctypes.data), shape)

        if isinstance(shape, types.Integer):
            return lambda ptr, shape, dtype=None: ptr[:shape]
        if not isinstance(shape, types.TupleType):
            return None
        if fortran:
            return lambda ptr, shape, dtype=None: ptr[:_count(shape)].reshape(shape[::-1]).T
        return lambda ptr, shape, dtype=None: ptr[:_count(shape)].reshape(shape)
    return typer


def _register():
    from ruchey import extending
    from ruchey.decorators import literal_unroll
    global _count

    @extending.register_jitable
    def _count(shape):
        n = 1
        for d in literal_unroll(shape):  # (unrolled: a C signature's sizes may mix int types)
            n *= d
        return n
    extending.overload(carray)(_pointer_typer(False))
    extending.overload(farray)(_pointer_typer(True))


_register()
