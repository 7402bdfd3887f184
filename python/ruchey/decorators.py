"""The decorators: thin glue that hands a function to the C dispatcher."""
import copyreg
import functools
import inspect
import types as pytypes
import warnings

from ruchey import _core, config, serialize, types

# _nrt (Numba's switch for its runtime, which its own tests pass) is taken and changes nothing:
# ruchey's compiled code always has its runtime (arrays, exceptions with runtime arguments)
_OPTIONS = ("nopython", "nogil", "parallel", "cache", "fastmath", "boundscheck", "error_model",
            "inline", "forceobj", "looplift", "locals", "debug", "_nrt")
# options only numba.cuda's jit takes: Numba's CUDA target compiles a CPU
# dispatcher that a kernel calls as a device function, its options kept
_CUDA_OPTIONS = ("device",)


class ObjectModeFunction:
    """``@jit(forceobj=True)``: Numba's object mode runs the function in the
    interpreter; ruchey lifts no loops out of it, so it calls the Python
    function itself (``py_func``), with the same results. As Numba's, it
    reads the variables of enclosing functions as they were when it was
    compiled (at its first call, or when its signatures were given) and
    its module's globals as they are at each call."""

    def __init__(self, func):
        self.py_func = func
        self.signatures = []
        self.nopython_signatures = []  # (Numba's: those compiled in nopython mode, none here)
        self._compiled = None  # py_func with its closure's values as they were at compile time
        functools.update_wrapper(self, func)

    def __call__(self, *args, **kwargs):
        return self._compile()(*args, **kwargs)

    def _compile(self):
        if self._compiled is None:
            self._compiled = _closure_frozen(self.py_func)
        return self._compiled

    def disable_compile(self, val=True):
        """Taken, as Numba's: it changes no call here, where the interpreter runs whatever it is given
        (Numba's object mode takes any Python objects under its one signature of pyobjects)."""

    @property
    def overloads(self):
        """Each signature's compile result, in object mode (``.objectmode`` true, as Numba's)."""
        return {sig: _ObjectModeResult(sig, self) for sig in self.signatures}

    def __get__(self, obj, objtype=None):
        """A method of a class (obj.method(x)) binds obj, as the function itself and Numba's dispatcher do."""
        return self if obj is None else pytypes.MethodType(self, obj)

    def __reduce__(self):  # by name, or by value (a closure's, __main__'s) as a compiled function pickles
        return serialize.reduce(self, "forceobj", {})


class _ObjectModeResult:
    """What an object-mode function's overloads hold per signature: its argument types, and the
    function that runs them as entry_point."""
    objectmode = True

    def __init__(self, signature, function):
        self.signature = self.argtypes = signature
        self.entry_point = function


def _closure_frozen(func):
    """func with each variable it reads from enclosing functions fixed at its value now (a cell
    not yet assigned stays the enclosing function's: read when called)."""
    if not func.__closure__:
        return func
    cells = []
    for cell in func.__closure__:
        try:
            cells.append(pytypes.CellType(cell.cell_contents))
        except ValueError:
            cells.append(cell)
    frozen = pytypes.FunctionType(func.__code__, func.__globals__, func.__name__, func.__defaults__, tuple(cells))
    frozen.__kwdefaults__ = func.__kwdefaults__
    return frozen


def _declared_locals(locals_):
    """locals={"x": ruchey.float32, "a": ruchey.float64[:]} as the dispatcher
    takes it: each type described."""
    if not isinstance(locals_, dict):
        raise TypeError(f"locals must be a dict of variable names to ruchey types, got {locals_!r}")
    declared = {}
    for name, t in locals_.items():
        if not isinstance(name, str) or not isinstance(t, types.Type):
            raise TypeError(f"locals: {name!r} must name a variable and map to a ruchey type "
                            f"(ruchey.float32, ruchey.int64[:]), got {t!r}")
        declared[name] = t.describe()
    return declared


def fastmath_option(value):
    """fastmath= as the dispatcher takes it, in an order of its own (the
    on-disk cache's key): True or False, the names of the LLVM flags a set
    allows (Numba's fastmath={"nsz", "reassoc"}) sorted, or a dict of names
    to whether each is on, sorted by name. The dispatcher refuses unknown
    names and other values with ValueError."""
    if isinstance(value, (bool, type(None))):
        return bool(value)
    if isinstance(value, dict):
        return dict(sorted(value.items(), key=lambda item: str(item[0])))
    if isinstance(value, (set, frozenset, list, tuple)):
        return sorted(value, key=str)
    return value


def _object_mode(options):
    """Whether forceobj asks for object mode (refusing what cannot be).
    looplift changes no result: in nopython mode Numba ignores it, and
    ruchey's object mode runs the whole Python function, loops included
    (Numba's compiles the loops it can lift)."""
    if options.get("forceobj") and options.get("nopython"):
        raise ValueError("Only one of 'nopython' or 'forceobj' can be True.")
    return bool(options.get("forceobj"))


def _refusing(func, message):
    """func decorated with options ruchey lacks, under install_as_numba():
    Numba takes any option when decorating and refuses one its CPU target
    lacks when the function is first compiled, so that a module decorating
    CUDA device functions with njit(device=True) imports (clifford.tools.g3c's
    object_clustering); calling it raises."""
    def refuse(*args, **kwargs):
        raise TypeError(message)
    functools.update_wrapper(refuse, func)
    refuse.__qualname__ = f"{func.__qualname__} (decorated with {message})"
    return refuse


def _called_by_kernels(refused, func, options):
    """Lets compiled code call refused, func decorated with CUDA's options
    (njit(device=True)): as func made a device function, as Numba's CUDA
    target compiles it for the kernels of clifford.tools.g3c.cuda that call
    it. (Numba's CPU code cannot call it; ruchey's can.)"""
    from ruchey import extending
    from ruchey.cuda import kernels
    extending._callees[refused] = kernels._device_function(
        func, bool(options.get("debug")), bool(options.get("boundscheck")), bool(options.get("fastmath")))
    return refused


def _dispatcher(func, options, core_settings=None):
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        message = f"unsupported jit option(s): {', '.join(sorted(unknown))}"
        if not _core._numba_semantics():
            raise TypeError(message)
        if unknown <= set(_CUDA_OPTIONS):
            return _called_by_kernels(_refusing(func, message), func, options)
        return _refusing(func, message)
    if _object_mode(options):
        return ObjectModeFunction(func)
    # debug=True is accepted and changes no result (Numba's emits debug info, and checks no more bounds)
    boundscheck = options.get("boundscheck") if config.BOUNDSCHECK is None else config.BOUNDSCHECK
    settings = dict(
        boundscheck=bool(boundscheck),
        fastmath=fastmath_option(options.get("fastmath")),
        error_model=options.get("error_model", "python"),
        nogil=bool(options.get("nogil")),
        parallel=bool(options.get("parallel")),
    )
    if options.get("locals"):
        settings["locals"] = _declared_locals(options["locals"])
    settings.update(core_settings or {})  # (the CUDA target's own: a device function's opt=False)
    disp = _core.Dispatcher(func, **settings)
    functools.update_wrapper(disp, func)
    disp._ruchey_options = settings  # what pickling by value sends
    # Numba inlines an inline="always" function before typing: compiled callers' types, not its signatures
    disp._inline_always = options.get("inline") == "always"
    if options.get("cache"):
        from ruchey import caching
        disp._cache = caching.FunctionCache(func, settings)
    return disp


def _reduce_dispatcher(disp):
    kind = "cuda_device" if disp._cuda_device else "jit"  # (a device function is rebuilt as one)
    return serialize.reduce(disp, kind, disp.__dict__.get("_ruchey_options", {}))


def _cuda_device_function(func, **settings):
    """A cuda.jit(device=True) function rebuilt from its pickle: its dispatcher's settings, a device function."""
    disp = _core.Dispatcher(func, **settings)
    disp._cuda_device = True
    return disp


serialize.register("jit", _core.Dispatcher)
serialize.register("cuda_device", _cuda_device_function)
serialize.register("forceobj", ObjectModeFunction)
copyreg.pickle(_core.Dispatcher, _reduce_dispatcher)


def _check_signature_length(func, args):
    """Object mode reads a signature without compiling it: one of the wrong
    length is still a TypeError, as the compiler's (an empty one is taken,
    as Numba's object mode takes it)."""
    code = func.__code__
    takes = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & inspect.CO_VARARGS)  # *args: a tuple
    if args and len(args) != takes:
        raise TypeError(f"Signature mismatch: {len(args)} argument types given, but function takes {takes} arguments")


def _refuse_pointer_arguments(sig):
    """A C pointer (voidptr, CPointer) is an argument of a @cfunc, which C
    calls, or a kernel's: a compiled function called from Python or
    compiled code takes arrays and numbers instead."""
    for t in sig.args:
        if isinstance(t, types.CPointer):
            raise _core.TypingError(f"{t!r} arguments are taken by @cfunc callbacks and CUDA kernels, not by jit's "
                                    f"signatures: pass an array instead")


def _compile_signatures(disp, signatures):
    """Compiles each signature now; calls still compile other argument types."""
    if isinstance(disp, pytypes.FunctionType):  # refused options under install_as_numba: raises when called
        return disp
    if isinstance(disp, ObjectModeFunction):  # the interpreter runs it whatever the types: each only read
        for sig in signatures:
            args = types.parse_signature(sig).args
            _check_signature_length(disp.py_func, args)
            disp.signatures.append(args)
        disp._compile()
        return disp
    for sig in signatures:
        sig = types.parse_signature(sig)
        _refuse_pointer_arguments(sig)
        ret = sig.return_type
        ret = ret.describe() if ret is not None and not isinstance(ret, types.Optional) else None  # Optional: inferred
        for k, args in enumerate(types.described_alternatives(sig.args)):
            try:
                disp._compile(args, ret)
            except _core.TypingError:
                # None for an Optional argument that the function cannot take (y[0] of an
                # optional(int32[:])): as Numba, a call with None fails, here as no signature matches
                if k == 0:
                    raise
    return disp


def _compile_only(disp, signatures):
    """jit's signatures: compiled now, and no others (a call converts its
    arguments to one of them, or raises TypeError), as Numba's."""
    disp = _compile_signatures(disp, signatures)
    if hasattr(disp, "disable_compile"):
        disp.disable_compile()
    return disp


def jit(signature_or_function=None, **options):
    """Compile a function to machine code at its first call.

    ``@jit``, ``@jit(...)`` and ``@njit`` all compile in nopython mode: the
    function runs without the interpreter, or is refused with a TypingError.
    With signatures (``@njit("float64(float64[:], int64)")`` or a list of
    them) the function is compiled at once, for those types only.
    """
    _object_mode(options)  # (nopython with forceobj refused at once, as Numba's jit refuses it)
    if config.DISABLE_JIT:  # RUCHEY_DISABLE_JIT=1: the Python function itself
        if callable(signature_or_function) and not isinstance(signature_or_function, (types.Type, types.TupleType, types.NoneType)):
            return signature_or_function
        return lambda func: func
    if callable(signature_or_function) and not isinstance(signature_or_function, (types.Type, types.TupleType, types.NoneType)):
        return _dispatcher(signature_or_function, options)
    if signature_or_function is None:
        return lambda func: _dispatcher(func, options)
    sigs = signature_or_function
    sigs = list(sigs) if isinstance(sigs, list) else [sigs]
    return lambda func: _compile_only(_dispatcher(func, options), sigs)


def njit(signature_or_function=None, **options):
    """jit in nopython mode, whatever the options say: forceobj and nopython
    are ignored with a RuntimeWarning, as Numba's njit ignores them."""
    for name in ("nopython", "forceobj"):
        if name in options:
            warnings.warn(f"{name} is set for njit and is ignored", RuntimeWarning, stacklevel=2)
            del options[name]
    return jit(signature_or_function, **options)


def jit_module(**options):
    """Numba's: called at the end of a module, compiles each function the
    module defines (not those it imported) with jit(**options), replacing
    it in the module. Functions decorated already keep their own options."""
    import logging
    import sys
    namespace = sys._getframe(1).f_globals
    module = namespace.get("__name__")
    logger = logging.getLogger(__name__)
    for name, value in list(namespace.items()):
        if isinstance(value, pytypes.FunctionType) and value.__module__ == module:
            logger.debug("Auto decorating function %s from module %s with jit and options: %s", value, module, options)
            namespace[name] = jit(value, **options)


def prange(*args):
    """range() that ``parallel=True`` functions may run on several threads."""
    return range(*args)


def pndindex(*shape):
    """numpy.ndindex whose loop ``parallel=True`` functions may run on
    several threads (Numba's pndindex): the index tuples of the shape, in
    C order in Python."""
    import numpy
    return numpy.ndindex(*shape)


def literally(value):
    """Numba's: in compiled code, the function is compiled for the value of
    this argument (a parameter), not only its type, so that the calls it
    makes see it as a literal (an overload's typing function reads
    ``t.literal_value``); in Python, value itself."""
    return value


def literal_unroll(container):
    """Numba's: ``for x in literal_unroll(t)`` over a tuple of items of different
    types compiles the loop's body once per item; in Python, t itself."""
    return container
