"""Native functions compiled code calls, as Numba calls them: a ctypes
function pointer whose ``restype`` and ``argtypes`` are set, an object
of Numba's ``WrapperAddressProtocol`` (``__wrapper_address__()`` gives the
address, ``signature()`` the types), the way packages reach SciPy's special
functions through ``get_cython_function_address``, and a cffi function: a
function of an in-line library (``ffi.dlopen(...).f``, a cdata function
pointer) or of an out-of-line module's ``lib`` (its module's ``ffi`` gives
its type and address, with no registration needed). The arguments and the
result are numbers, bools or addresses (c_void_p, and POINTER(...) or C
pointer arguments: an integer, an array's ``a.ctypes``, ``ffi.from_buffer(a)``;
a POINTER(...) or CPointer result is Numba's CPointer, which carray reads);
the frontend asks ``describe`` for the address and the scalar kinds.
A ctypes function taking Python objects (py_object arguments, a callback
into the interpreter) is called as Python calls it, under the GIL
(``python_object_call``), its arguments boxed, as Numba passes them.
"""
import ctypes
import importlib
import sys

from ruchey import _core

__all__ = ["get_cython_function_address", "WrapperAddressProtocol"]

_KINDS = {name: kind for kind, name in enumerate(_core.SCALAR_NAMES)}
# ctypes' types by size and signedness (c_int, c_long, c_size_t... are aliases of these)
# c_void_p is an address held as a uintp, as Numba types it: an integer or an
# array's a.ctypes (a.ctypes.data) passed, a uintp returned
_CTYPES = {ctypes.c_bool: "bool", ctypes.c_float: "float32", ctypes.c_double: "float64", ctypes.c_void_p: "uint64"}
for _bits, (_signed, _unsigned) in {8: (ctypes.c_int8, ctypes.c_uint8), 16: (ctypes.c_int16, ctypes.c_uint16),
                                   32: (ctypes.c_int32, ctypes.c_uint32),
                                   64: (ctypes.c_int64, ctypes.c_uint64)}.items():
    _CTYPES[_signed], _CTYPES[_unsigned] = f"int{_bits}", f"uint{_bits}"
for _c in (ctypes.c_byte, ctypes.c_ubyte, ctypes.c_short, ctypes.c_ushort, ctypes.c_int, ctypes.c_uint,
           ctypes.c_long, ctypes.c_ulong, ctypes.c_longlong, ctypes.c_ulonglong, ctypes.c_size_t, ctypes.c_ssize_t):
    _CTYPES[_c] = f"{'u' if _c(-1).value > 0 else ''}int{ctypes.sizeof(_c) * 8}"


def from_ctypes(ctype):
    """Numba's ctypes_utils.from_ctypes: the type of a ctypes type (None:
    none, c_void_p: voidptr, POINTER(t): CPointer of t's)."""
    from ruchey import types
    if ctype is None:
        return types.none
    if ctype is ctypes.c_void_p:
        return types.voidptr
    if isinstance(ctype, type) and issubclass(ctype, ctypes._Pointer):
        return types.CPointer(from_ctypes(ctype._type_))
    if ctype not in _CTYPES:
        raise TypeError(f"Unsupported ctypes type: {ctype!r}")
    return types.Type(_KINDS[_CTYPES[ctype]])


def to_ctypes(t):
    """Numba's ctypes_utils.to_ctypes: the ctypes type of a number, bool or
    pointer type (None for none)."""
    from ruchey import types
    if isinstance(t, types.NoneType):
        return None
    if isinstance(t, types.CPointer):
        return ctypes.c_void_p if t == types.voidptr else ctypes.POINTER(to_ctypes(t.dtype))
    for ctype, name in _CTYPES.items():  # (the fixed-size names come first: c_int32, not c_int)
        if ctype is not ctypes.c_void_p and type(t) is types.Type and not t.ndim and t.name == name:
            return ctype
    raise TypeError(f"Cannot convert Numba type '{t!r}' to ctypes type")


class WrapperAddressProtocol:
    """Numba's protocol of a native function: a subclass defines
    ``__wrapper_address__(self)``, the function's address, and
    ``signature(self)``, its types (``float64(float64, int32)``)."""

    def __wrapper_address__(self):
        raise NotImplementedError

    def signature(self):
        raise NotImplementedError


def get_cython_function_address(module_name, function_name):
    """The address of a Cython module's exported C function (its
    ``__pyx_capi__``), as Numba's ``numba.extending`` gives it: for
    ``scipy.special.cython_special``'s functions, wrapped in a ctypes
    function type or a WrapperAddressProtocol object."""
    module = importlib.import_module(module_name)
    capi = getattr(module, "__pyx_capi__", None)
    if capi is None or function_name not in capi:
        raise ValueError(f"no function {function_name!r} exported by {module_name}")
    capsule = capi[function_name]
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return get_pointer(capsule, get_name(capsule))


def _pointer(items):
    """A typed pointer argument's kind: an address (uint64), with the kind
    of the items it points at (compiled code refuses an array of others)."""
    return (_KINDS["uint64"], -1 if items is None else _KINDS[items])


def _ctypes_kind(t, what):
    if t is None and what == "result":
        return -1
    name = _CTYPES.get(t)
    if name is None and isinstance(t, type) and issubclass(t, ctypes._Pointer):
        # POINTER(c_double): an address too, an array's a.ctypes (Numba's CPointer); a result
        # is a CPointer of its items (an address where they are no number: POINTER(c_void_p))
        return _pointer(_CTYPES.get(t._type_) if t._type_ is not ctypes.c_void_p else None)
    if name is None:
        raise TypeError(f"a native function's {what} of ctypes type {getattr(t, '__name__', t)} is not supported "
                        "in compiled code (numbers, bools, c_void_p and POINTER arguments and results are)")
    return _KINDS[name]


def _ruchey_kind(t, what):
    from ruchey import types  # (types names WrapperAddressProtocol: imported after this module)
    if isinstance(t, types.NoneType) and what == "result":
        return -1
    if isinstance(t, types.MemInfoPointer):
        return "meminfo"  # passed borrowed; a result is a new reference
    if isinstance(t, types.CPointer):  # an address: an integer, an array's a.ctypes, a voidptr value
        items = getattr(t.dtype, "name", None)  # (none for a pointer to pointers: any address)
        return _KINDS["uint64"] if t == types.voidptr else _pointer(items if items in _CTYPES.values() else None)
    if type(t) is not types.Type or t.ndim or t.name not in _CTYPES.values():
        raise TypeError(f"a native function's {what} of type {t!r} is not supported in compiled code "
                        "(numbers, bools, pointers and MemInfoPointers are)")
    return t.kind


_cffi_modules = {}  # id(lib) -> the out-of-line module register_module was given (held there)


def _cffi_function(obj):
    """The cdata function pointer of a cffi function (itself, or the
    address of an out-of-line lib's function through its module's ffi);
    None for any other object."""
    backend = sys.modules.get("_cffi_backend")
    if backend is None:  # (no cffi object can exist before cffi is imported)
        return None
    if isinstance(obj, backend._CDataBase):
        return obj if backend.typeof(obj).kind == "function" else None
    lib = getattr(obj, "__self__", None)
    if not isinstance(lib, backend.Lib):
        return None
    module = _cffi_modules.get(id(lib)) or sys.modules.get(getattr(obj, "__module__", None))
    if getattr(module, "lib", None) is not lib:
        raise TypeError(f"the cffi function {obj.__name__!r} is not of an imported out-of-line module's lib "
                        "(its module's ffi gives its type): register_module(module) names it")
    return module.ffi.addressof(lib, obj.__name__)


def register_module(module):
    """Numba's cffi_utils.register_module: compiled code finds an
    out-of-line module's functions by their module (sys.modules) already;
    one imported under another name is found once registered."""
    _cffi_modules[id(module.lib)] = module


def register_type(cffi_type, numba_type):
    """Numba's cffi_utils.register_type, which lets a pointer to a struct
    match a pointer to numba_type's items: compiled code passes pointers as
    addresses, whatever their items, so there is nothing to record."""


def _cffi_scalar_name(ctype):
    """The scalar type name of a cffi primitive type, as Numba maps them
    (char is int8); None for another (long double, a struct...)."""
    if ctype.kind != "primitive" or ctype.cname == "long double":
        return None
    name = {"_Bool": "bool", "float": "float32", "double": "float64", "char": "int8"}.get(ctype.cname)
    if name is None:
        backend = sys.modules["_cffi_backend"]
        signed = int(backend.cast(ctype, -1)) < 0
        name = f"{'' if signed else 'u'}int{backend.sizeof(ctype) * 8}"
    return name


def _cffi_dtype(ctype):
    """The NumPy dtype of a cffi number, C array or struct type (a struct's
    fields at their offsets), as Numba maps a struct to a record."""
    import numpy
    if ctype.kind == "array":
        return numpy.dtype((_cffi_dtype(ctype.item), (ctype.length,)))
    if ctype.kind == "struct":
        names, formats, offsets = [], [], []
        for name, field in ctype.fields:
            for what, value in (("bitshift", field.bitshift), ("flags", field.flags), ("bitsize", field.bitsize)):
                if value != (0 if what == "flags" else -1):
                    raise ValueError(f"field {name!r} has {what}, this is not supported")
            names.append(name)
            formats.append(_cffi_dtype(field.type))
            offsets.append(field.offset)
        aligned = all(offset % f.alignment == 0 for offset, f in zip(offsets, formats))
        backend = sys.modules["_cffi_backend"]
        return numpy.dtype({"names": names, "formats": formats, "offsets": offsets,
                            "itemsize": backend.sizeof(ctype)}, align=aligned)
    name = _cffi_scalar_name(ctype)
    if name is None:
        raise TypeError(f"cffi type {ctype.cname} has no NumPy dtype")
    return numpy.dtype(name)


def map_type(cffi_type, use_record_dtype=False):
    """Numba's cffi_utils.map_type: the type of a cffi type (a function's:
    its signature; a pointer: CPointer of its item's, voidptr for void *;
    with use_record_dtype, a struct's: the record of its fields, and a C
    array's a NestedArray)."""
    from ruchey import types
    kind = cffi_type.kind
    if kind == "function":
        if cffi_type.ellipsis:
            raise TypeError("vararg function is not supported")
        return types.Signature(map_type(cffi_type.result, use_record_dtype),
                               [map_type(a, use_record_dtype) for a in cffi_type.args])
    if kind == "pointer":
        item = cffi_type.item
        return types.voidptr if item.kind == "void" else types.CPointer(map_type(item, use_record_dtype))
    if kind == "struct" and use_record_dtype:
        return types.from_dtype(_cffi_dtype(cffi_type))
    if kind == "array":
        return types.NestedArray(map_type(cffi_type.item, use_record_dtype), (cffi_type.length,))
    if kind == "void":
        return types.none
    name = _cffi_scalar_name(cffi_type)
    if name is None:
        raise TypeError(f"cffi type {cffi_type.cname} has no type in compiled code")
    return getattr(types, name)


def _cffi_kind(ctype, what):
    """The kind of a cffi type: a number's or bool's, uint64 for a pointer
    (an address), -1 for a void result."""
    if ctype.kind == "void" and what == "result":
        return -1
    if ctype.kind == "pointer" and what != "result":
        return _pointer(_cffi_scalar_name(ctype.item))
    name = _cffi_scalar_name(ctype)
    if name is None:
        raise TypeError(f"a cffi function's {what} of C type {ctype.cname} is not supported in compiled code "
                        "(numbers, bools and pointer arguments are)")
    return _KINDS[name]


def _cffi_describe(pointer):
    backend = sys.modules["_cffi_backend"]
    ctype = backend.typeof(pointer)
    if ctype.ellipsis:
        raise TypeError(f"the cffi function of type {ctype.cname} takes variable arguments: a vararg function "
                        "is not supported in compiled code")
    address = int(backend.cast(backend.new_primitive_type("uintptr_t"), pointer))
    return (address, _cffi_kind(ctype.result, "result"),
            tuple(_cffi_kind(a, f"argument {i + 1}") for i, a in enumerate(ctype.args)))


def describe(obj):
    """(address, result kind (-1: none), argument kinds) of a native
    function; None for any other object; TypeError for a native function
    whose types compiled code cannot pass."""
    pointer = _cffi_function(obj)
    if pointer is not None:
        return _cffi_describe(pointer)
    if isinstance(obj, ctypes._CFuncPtr):
        if obj.argtypes is None:
            raise TypeError(f"the ctypes function {getattr(obj, '__name__', obj)!r} has no argtypes: "
                            "set them, so compiled code knows what to pass")
        address = ctypes.cast(obj, ctypes.c_void_p).value
        return (address, _ctypes_kind(obj.restype, "result"),
                tuple(_ctypes_kind(a, f"argument {i + 1}") for i, a in enumerate(obj.argtypes)))
    wrapper = getattr(type(obj), "__wrapper_address__", None)
    if wrapper is None or isinstance(obj, type):
        return None
    sig = obj.signature()
    address = obj.__wrapper_address__()
    if not isinstance(address, int) or not address:
        raise TypeError(f"{obj!r}.__wrapper_address__() gave {address!r}, not a function's address")
    return (address, _ruchey_kind(sig.return_type, "result"),
            tuple(_ruchey_kind(a, f"argument {i + 1}") for i, a in enumerate(sig.args)))


_python_callers = {}  # id(obj) -> (obj, the block calling it): obj held, so that its id stays its own


def python_object_call(obj):
    """For a ctypes function taking Python objects (a py_object argument, a
    callback into the interpreter: CFUNCTYPE(c_int, py_object)(f)): the
    block compiled code runs it as, under the GIL as an objmode block, which
    calls it with the arguments boxed and gives its result as a 1-tuple
    (none: an empty tuple), and the kind of that result (-1: none); None
    for any other object. The other arguments are numbers, bools or
    addresses, the result a number, a bool or none (a TypeError says so)."""
    if not isinstance(obj, ctypes._CFuncPtr) or not obj.argtypes or ctypes.py_object not in obj.argtypes:
        return None
    name = f"the ctypes function {obj.__name__!r}" if getattr(obj, "__name__", None) else "a ctypes callback"
    for i, t in enumerate(obj.argtypes):
        if t is not ctypes.py_object and t not in _CTYPES:
            raise TypeError(f"{name} takes Python objects (py_object arguments): its argument {i + 1}, of ctypes "
                            f"type {getattr(t, '__name__', t)}, must be a py_object, number, bool or c_void_p")
    result = _CTYPES.get(obj.restype)
    if obj.restype is not None and (result is None or obj.restype is ctypes.c_void_p):
        raise TypeError(f"{name} takes Python objects (py_object arguments): its result, of ctypes type "
                        f"{getattr(obj.restype, '__name__', obj.restype)}, must be a number, bool or None in "
                        f"compiled code")
    held = _python_callers.get(id(obj))
    if held is None:
        if obj.restype is None:
            def call_python_object_function(*args):
                obj(*args)
                return ()
        else:
            def call_python_object_function(*args):
                return (obj(*args),)
        held = _python_callers[id(obj)] = (obj, call_python_object_function)
    return held[1], -1 if obj.restype is None else _KINDS[result]


def _signature(obj):
    """The signature of a native function passed as a value: a
    WrapperAddressProtocol object's signature(), a ctypes function
    pointer's from its restype and argtypes; None for any other object."""
    from ruchey import types
    pointer = _cffi_function(obj)
    if pointer is not None:
        _, result, args = _cffi_describe(pointer)
        scalar = lambda k: types.none if k == -1 else types.Type(k[0] if isinstance(k, tuple) else k)  # noqa: E731
        return types.Signature(scalar(result), [scalar(k) for k in args])  # (a pointer: its address)
    if isinstance(obj, ctypes._CFuncPtr):
        if obj.argtypes is None:
            return None
        scalar = lambda t: types.none if t is None else types.Type(_KINDS[_CTYPES[t]])  # noqa: E731
        return types.Signature(scalar(obj.restype), [scalar(a) for a in obj.argtypes])
    if isinstance(obj, type) or getattr(type(obj), "__wrapper_address__", None) is None:
        return None
    return obj.signature()


def wrapper_function_type(obj):
    """The description of the first-class function type (FunctionType of
    its signature) of a native function passed as a value, or None where
    obj is none or its signature cannot be one."""
    from ruchey import types
    try:
        sig = _signature(obj)
        return None if sig is None else types.FunctionType(sig).describe()
    except Exception:  # (its types are not a first-class function's: the argument is refused)
        return None


_wrapper_callers = {}  # id(obj) -> (obj, its caller): obj held, so that its id stays its own


def wrapper_dispatcher(obj):
    """The compiled function a native function passed as a first-class
    function runs as: one calling obj, which its body finds as a global and
    calls through its address (as a global's call is), made once per
    object."""
    held = _wrapper_callers.get(id(obj))
    if held is None:
        from ruchey import decorators
        params = ", ".join(f"a{i}" for i in range(len(_signature(obj).args)))
        namespace = {"target": obj}
        exec(f"def call_native({params}):\n    return target({params})\n", namespace)
        caller = decorators.njit(namespace["call_native"])
        caller._boxes_as = obj  # what it is returned to Python as (core/box.c)
        held = _wrapper_callers[id(obj)] = (obj, caller)
    return held[1]
