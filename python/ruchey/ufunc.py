"""@vectorize and @guvectorize: NumPy ufuncs of compiled functions.

With signatures @vectorize gives a ``numpy.ufunc`` with one compiled loop
per signature, tried in order as NumPy tries a ufunc's loops. Without, it is
a DUFunc: a ufunc that compiles a loop for the dtypes of each call that no
loop takes, as Numba's. The loops themselves are C (ruchey._core): the
scalar function inlined into a walk over NumPy's strided arguments.
@guvectorize gives a generalized ufunc whose loop calls the compiled
function once per outer element, on arrays of the core dimensions.
"""
import copyreg
import functools
import linecache
import re
import warnings

import numpy as np

from ruchey import _core, types

try:  # NumPy's "no loop takes these dtypes" error
    from numpy._core._exceptions import _UFuncNoLoopError
except ImportError:  # NumPy 1
    from numpy.core._exceptions import _UFuncNoLoopError


def _no_loop(exc):
    # a ufunc without loops says so with its own class; one whose loops
    # all refuse the operands with a plain TypeError
    return isinstance(exc, _UFuncNoLoopError) or "not supported for the input types" in str(exc)

_TARGETS = ("cpu", "parallel", "cuda")
_IDENTITIES = {0, 1, None, "reorderable"}  # None: no identity; "reorderable": none, yet reduces along several axes
_OPTIONS = ("target", "identity", "nopython", "forceobj", "cache", "fastmath", "boundscheck",
            "error_model", "nogil", "writable_args", "parallel")


def _named(u, func):
    """u (a numpy.ufunc) named by func's module and qualified name, and
    documented by its docstring, as Numba's ufunc objects are: pickle finds
    it there (without them it searches every module for it, asking the
    numba shim for names it lacks). NumPy's ufuncs take attributes from 2.2
    on; older ones stay unnamed, their docs NumPy's call signature first."""
    try:
        u.__module__ = func.__module__
        u.__qualname__ = getattr(func, "__qualname__", func.__name__)
        if func.__doc__ is not None:
            u.__doc__ = func.__doc__
    except AttributeError:
        pass
    return u


def _pickled_by_value(u, func, remake, *args):
    """u (a numpy.ufunc of func's loops) pickled as Numba's ufunc objects
    are, where its name does not give it (a local function, or bound to
    another name: ``double_v = vectorize(sigs)(double)``): by value, as
    remake(func, *args) in the receiver (NumPy's older than 2.2, whose
    ufuncs take no attributes, pickle it by name alone)."""
    try:
        u._ruchey_remake = (func, remake, args)
    except AttributeError:
        return u
    _pickle_ufuncs_by_value()
    return u


def _pickle_ufuncs_by_value():
    """Puts _reduce_ufunc before NumPy's pickling of every numpy.ufunc
    (pickle, and cloudpickle for Dask, ask copyreg for it)."""
    numpy_reduce = copyreg.dispatch_table[np.ufunc]
    if getattr(numpy_reduce, "func", None) is not _reduce_ufunc:  # (once)
        copyreg.pickle(np.ufunc, functools.partial(_reduce_ufunc, numpy_reduce))


def _reduce_ufunc(numpy_reduce, u):
    remake = getattr(u, "_ruchey_remake", None)
    if remake is None:  # NumPy's own ufuncs, and others'
        return numpy_reduce(u)
    from ruchey import serialize
    func, make, args = remake
    return serialize.reduce_remade(u, make, *args, func=func)


def _check_options(options, object_mode=False):
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise types.KeyTypeError(f"unsupported vectorize option(s) (Numba: Unrecognized options): "
                                 f"{', '.join(sorted(unknown))}")
    target = options.get("target", "cpu")
    if target not in _TARGETS:
        raise ValueError(f"vectorize target must be one of {', '.join(_TARGETS)}, not {target!r}")
    if options.get("writable_args") and target == "cuda":  # a kernel's inputs are not copied back
        raise TypeError("writable_args are not supported with target='cuda'")
    if options.get("parallel") and target == "cuda":
        raise TypeError("parallel=True compiles a CPU kernel's prange loops for the thread pool: not with "
                        "target='cuda'")
    if options.get("nopython") is False and target == "cuda":  # (no object mode to fall back to: numba-cuda's words)
        raise TypeError("nopython flag must be True")
    if options.get("forceobj") and options.get("nopython"):
        raise ValueError("Only one of 'nopython' or 'forceobj' can be True.")
    if options.get("identity") not in _IDENTITIES:
        raise ValueError(f"Invalid identity value {options['identity']!r}: a ufunc's identity is 0, 1, None or "
                         "\"reorderable\", as Numba's")
    if options.get("forceobj") and not object_mode:
        raise TypeError("forceobj=True needs signatures: ruchey has no object mode to compile a loop per "
                        "call's dtypes in (vectorize and guvectorize given signatures run the function so)")


# the loops' errors (x / 0, math.sqrt(-1.0)) give NumPy's inf, NaN and 0 and
# its warnings, as NumPy's own loops and Numba's ufuncs give them;
# error_model="python" raises the first failing element's exception instead
def _error_model(options):
    return options.get("error_model", "numpy")


def _fastmath(options):
    """fastmath= as jit takes it: True, or Numba's set or dict of LLVM flags."""
    from ruchey.decorators import fastmath_option
    return fastmath_option(options.get("fastmath"))


def _kernel_settings(options):
    """The compile options of a ufunc's kernel: parallel=True, as jit's,
    runs the prange loops inside it on the thread pool (Numba's
    vectorize(parallel=True) passes it to the kernel's jit alike)."""
    settings = {"fastmath": _fastmath(options), "error_model": _error_model(options)}
    if options.get("parallel"):  # (only then: a cache's key of a serial kernel stays as it was)
        settings["parallel"] = True
    return settings


def _scalar_dispatcher(func, options):
    func = func.py_func if isinstance(func, _core.Dispatcher) else func  # vectorize(njit(f)) is vectorize(f)
    if not callable(func) or not hasattr(func, "__code__"):
        raise TypeError(f"vectorize needs a Python function, not {func!r}")
    settings = _kernel_settings(options)
    disp = _core.Dispatcher(func, **settings)
    disp._scalars_only = True  # from compiled code: called per element, with one of the loops' types
    if options.get("cache"):  # the inner loops' code, on disk
        from ruchey import caching
        disp._cache = caching.FunctionCache(func, settings)
    return disp


def _describe(t):
    if not isinstance(t, types.Type) or t.ndim:
        raise TypeError(f"a ufunc's signature takes and returns scalars, not {t!r}")
    return t.describe()


class _WithoutOperands:
    """The ufunc of a function of no arguments. Numba's vectorize takes such
    a function (fluids' and ht's vectorized modules wrap each function of
    theirs, those of no arguments too), but NumPy calls no ufunc without an
    operand to find its loop by: a call raises TypeError."""
    nin, nout, nargs, ntypes, types = 0, 1, 1, 0, []

    def __init__(self, name):
        self.__name__ = name

    def __repr__(self):
        return f"<ruchey ufunc '{self.__name__}' of no arguments>"

    def __call__(self, *args, **kwargs):
        raise TypeError(f"ufunc '{self.__name__}' cannot be called: its function takes no arguments, and NumPy "
                        "calls no ufunc without an operand")


class _Loops:
    """The compiled loops of one function, and the ufunc built from them."""

    def __init__(self, func, options):
        _check_options(options)
        self.func, self.options = func, options
        self.disp = _scalar_dispatcher(func, options)
        self.nin = func.__code__.co_argcount
        self.loops = []       # (address, NumPy type numbers)
        self.keys = set()     # the argument type numbers compiled
        self.sigs = []        # the signature of each loop, to make them again where pickled

    def add(self, sig):
        sig = types.parse_signature(sig)
        ret = sig.return_type
        args = tuple(_describe(t) for t in sig.args)
        rdesc = None if ret is None else _describe(ret)
        address, nums = _core._ufunc_loop(self.disp, args, rdesc)
        if nums[:-1] not in self.keys:
            self.keys.add(nums[:-1])
            self.loops.append((address, nums))
            self.sigs.append(sig)

    def build(self):
        if not self.nin:
            return _WithoutOperands(self.func.__name__)
        identity = self.options.get("identity")
        doc = self.func.__doc__ or ""
        parallel = self.options.get("target", "cpu") == "parallel"
        if parallel:
            _launch_pool()
        u = _core._make_ufunc(self.func.__name__, doc, self.nin, identity, list(self.loops), parallel,
                              self.disp)
        return _named(u, self.func)


def _launch_pool():
    """Numba launches its threads when it builds a parallel ufunc (its
    threading_layer() is chosen from then): the pool's size is fixed here,
    though no thread starts before a loop long enough to split."""
    _core.get_num_threads()


def _dtype_of(value):
    if isinstance(value, (np.ndarray, np.generic)):
        return value.dtype
    if isinstance(value, bool):
        return np.dtype(np.bool_)
    if isinstance(value, int):
        return np.dtype(np.int64)
    if isinstance(value, float):
        return np.dtype(np.float64)
    return np.asarray(value).dtype


def _type_of_dtype(dtype):
    try:
        return types.namespace[dtype.name]
    except KeyError:
        return None


_ndarray_ufunc = np.ndarray.__array_ufunc__


class DUFunc:
    """A ufunc that compiles a loop for each new combination of input dtypes.

    ``ufunc`` is the numpy.ufunc of the loops compiled so far (for calls
    from Python and from compiled code, as Numba's); calls, its methods
    (reduce, accumulate, outer, at, reduceat) and its attributes go to it,
    compiling first where no loop takes the operands.
    """

    _ruchey_scalar_function = None  # the compiled function of scalars, for calls from compiled code

    def __init__(self, func, targetoptions=None, **options):
        # (Numba's DUFunc(func, identity=, cache=, targetoptions={...}) too)
        self._loops = _Loops(func, {**(targetoptions or {}), **options})
        self._ruchey_scalar_function = self._loops.disp
        # the argument types compiled code called the function with that no loop took (noted by the compile)
        self._loops_wanted = self._loops.disp._loops_wanted = []
        self._no_more_loops = False
        self._ufunc = self._loops.build()
        self.py_func = func
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__
        self.__wrapped__ = func

    def __repr__(self):
        return f"<ruchey.DUFunc '{self.__name__}'>"

    def __reduce__(self):  # as Numba's, for multiprocessing and Dask
        from ruchey import serialize
        return serialize.reduce_remade(self, _remade_dufunc, self._loops.options, self._loops.sigs, self._frozen)

    def disable_compile(self):
        """No more loops: calls that none takes raise NumPy's TypeError."""
        self._no_more_loops = True
        self._loops.disp._sealed = True  # from compiled code too

    @property
    def _frozen(self):
        return self._no_more_loops

    @_frozen.setter
    def _frozen(self, frozen):
        """Numba's: set True, as disable_compile (datashader freezes its
        operators so); never unset."""
        if not frozen and self._no_more_loops:
            raise ValueError("a frozen DUFunc compiles no more loops: _frozen cannot be unset")
        if frozen:
            self.disable_compile()

    @property
    def ufunc(self):
        if self._loops_wanted:
            wanted = list(self._loops_wanted)
            del self._loops_wanted[:]
            for descs in wanted:
                self._add_wanted(tuple(types.described_type(d) for d in descs))
        return self._ufunc

    def _add_wanted(self, argtypes):
        """The loop of argtypes, which compiled code called the function
        with (and compiled for them: Numba's DUFunc adds it so)."""
        try:
            self._loops.add(argtypes)
        except (TypeError, _core.TypingError):  # compiled code got no loop for those either
            return
        self._ufunc = self._loops.build()

    def add(self, sig):
        """Compiles a loop for a signature now."""
        self._loops.add(sig)
        self._ufunc = self._loops.build()

    def build_ufunc(self):
        """Numba's builder's last step (numba.np.ufunc.Vectorize): itself."""
        return self

    def _compile_for_argtys(self, argtys, return_type=None):
        """Numba's: compiles the loop for these argument types now (datashader
        compiles its operators so, then sets _frozen)."""
        self.add(tuple(argtys) if return_type is None else return_type(*argtys))

    def _compile_for(self, dtypes):
        argtypes = [_type_of_dtype(np.dtype(d)) for d in dtypes]
        if any(t is None for t in argtypes):
            names = ", ".join(repr(np.dtype(d).name) for d in dtypes)
            raise TypeError(f"ufunc '{self.__name__}' not supported for the input types ({names}): ruchey "
                            "compiles bool, int8-64, uint8-64, float32, float64, complex64 and complex128")
        nums = tuple(np.dtype(d).num for d in dtypes)
        if nums in self._loops.keys:
            return False
        self.add(tuple(argtypes))
        return True

    def _compile_or_raise(self, exc, operands):
        """After exc from a call of the ufunc: compiles the loop of the
        operands' dtypes where none took them, else raises exc again
        (frozen, another error, or that loop was there)."""
        if self._frozen or not _no_loop(exc) or not self._compile_for([_dtype_of(v) for v in operands]):
            raise exc

    def _retry(self, method, operands, args, kwargs):
        try:
            return method(self.ufunc)(*args, **kwargs)
        except TypeError as exc:
            self._compile_or_raise(exc, operands)
        return method(self.ufunc)(*args, **kwargs)

    def __call__(self, *args, **kwargs):
        # an operand's __array_ufunc__ (NEP 13: Dask, xarray, pint) gets the
        # DUFunc, as Numba's, rather than the ufunc of its loops so far: it
        # pickles, and compiles the loops a receiver needs
        for arg in args + tuple(kwargs.values()) if kwargs else args:
            kind = type(arg)
            if kind is not np.ndarray and getattr(kind, "__array_ufunc__", _ndarray_ufunc) is not _ndarray_ufunc:
                done = arg.__array_ufunc__(self, "__call__", *args, **kwargs)
                if done is not NotImplemented:
                    return done
        try:  # (not through _retry: a call is the hot path)
            return self.ufunc(*args, **kwargs)
        except TypeError as exc:
            self._compile_or_raise(exc, args[:self.nin])
        return self.ufunc(*args, **kwargs)

    def _binary(self, name, array, args, kwargs):
        if self.nin != 2:
            return getattr(self.ufunc, name)(array, *args, **kwargs)
        dt = _dtype_of(array)
        return self._retry(lambda u: getattr(u, name), (np.empty(0, dt), np.empty(0, dt)), (array,) + args, kwargs)

    def reduce(self, array, *args, **kwargs):
        return self._binary("reduce", array, args, kwargs)

    def accumulate(self, array, *args, **kwargs):
        return self._binary("accumulate", array, args, kwargs)

    def reduceat(self, array, *args, **kwargs):
        return self._binary("reduceat", array, args, kwargs)

    def outer(self, a, b, **kwargs):
        return self._retry(lambda u: u.outer, (a, b), (a, b), kwargs)

    def at(self, a, indices, *args, **kwargs):
        return self._retry(lambda u: u.at, (a,) + args, (a, indices) + args, kwargs)

    def __getattr__(self, name):
        if name.startswith("__") or name == "ufunc":
            raise AttributeError(name)
        return getattr(self.ufunc, name)

    @property
    def types(self):
        return self.ufunc.types

    @property
    def nin(self):
        return self._loops.nin


_FAILED = object()  # an object-mode element whose call raised


class ObjectModeUFunc:
    """``@vectorize([...], forceobj=True)``: Numba's object-mode ufunc calls
    the Python function once per element, on the elements boxed as Python
    objects (a float64 as a float, an int64 as an int), and stores each
    result as its signature's return type. ruchey has no object mode, so it
    runs the function through NumPy's frompyfunc: the operands cast to the
    signature of their own dtypes, else the first that takes them all
    safely (as NumPy picks a ufunc's loop), the results to that signature's
    return type.  An element whose call raises is skipped (its output keeps
    its value) and the first exception is raised once every element ran,
    as Numba's object-mode loop does."""

    def __init__(self, func, sigs):
        self.py_func = func
        self.nin, self.nout = func.__code__.co_argcount, 1
        self._loops = []  # (the arguments' dtypes, the result's dtype)
        for sig in sigs:
            sig = types.parse_signature(sig)
            if sig.return_type is None:
                raise TypeError(f"vectorize(forceobj=True) needs each signature's return type: {sig!r}")
            if len(sig.args) != self.nin:
                raise TypeError(f"the signature has {len(sig.args)} arguments, the function {self.nin}")
            for t in sig.args + (sig.return_type,):
                _describe(t)  # scalars only
            self._loops.append((tuple(np.dtype(t.name) for t in sig.args), np.dtype(sig.return_type.name)))
        functools.update_wrapper(self, func)

    @property
    def types(self):
        return ["".join(d.char for d in args) + "->" + ret.char for args, ret in self._loops]

    def _loop(self, operands):
        k = _chosen_loop(operands, [args for args, _ in self._loops])
        if k is not None:
            return self._loops[k]
        seen = ", ".join(repr(_dtype_of(v).name) for v in operands)
        raise TypeError(f"ufunc '{self.__name__}' not supported for the input types ({seen}): "
                        f"none of its loops {self.types} takes them safely")

    def __call__(self, *args, out=None):
        if len(args) == self.nin + 1 and out is None:  # the output given by position, as a ufunc takes it
            *args, out = args
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} arguments ({len(args)} given)")
        operands = [np.asarray(v) for v in args]
        dtypes, ret = self._loop(args)
        failed = []
        result = self._elements(failed)(*[v.astype(d, copy=False) for v, d in zip(operands, dtypes)])
        result = np.asarray(result, dtype=object)
        done = np.array([r is not _FAILED for r in result.flat], dtype=bool).reshape(result.shape)
        result[~done] = 0
        values = result.astype(ret)
        if out is not None:
            out = out[0] if isinstance(out, tuple) else out
            np.copyto(out, values, where=done)
        if failed:
            raise failed[0]
        if out is not None:
            return out
        return values[()] if not values.ndim else values  # all operands scalars: a NumPy scalar, as a ufunc's

    def _elements(self, failed):
        """The function over the elements, as Numba's object-mode loop runs
        it: an element whose call raises keeps its output as it was, and
        the loop goes on; the first exception is raised at the end."""
        func = self.py_func

        def element(*values):
            try:
                return func(*values)
            except Exception as exc:  # noqa: BLE001 - any, as the loop goes on past it
                failed.append(exc)
                return _FAILED
        return np.frompyfunc(element, self.nin, 1)

    def __repr__(self):
        return f"<ruchey.ObjectModeUFunc '{self.__name__}'>"


_NUMPY2 = int(np.__version__.split(".")[0]) >= 2


def _chosen_loop(operands, loops):
    """The index of the loop (its inputs' dtypes) NumPy would run for the
    operands: one of their own dtypes, else the first they cast to safely
    (a Python number by its value); None if none takes them."""
    def takes(value, dtype):
        if isinstance(value, (np.ndarray, np.generic)):
            return np.can_cast(value.dtype, dtype)
        return np.can_cast(np.min_scalar_type(value), dtype)
    # NumPy 1 reads a 0-d operand beside arrays by its value (value-based casting)
    by_value = not _NUMPY2 and any(np.ndim(v) > 0 for v in operands)
    own = [np.min_scalar_type(v) if by_value and np.ndim(v) == 0 else _dtype_of(v) for v in operands]
    for k, dtypes in enumerate(loops):
        if list(dtypes[:len(own)]) == own:
            return k
    for k, dtypes in enumerate(loops):
        if all(takes(v, d) for v, d in zip(operands, dtypes)):
            return k
    return None


class ObjectModeGUFunc:
    """``@guvectorize([...], layout, forceobj=True)``: Numba's object-mode
    gufunc calls the Python function once per element of the broadcast outer
    dimensions, on views of each operand's core dimensions (an input of
    "()" as a number, or a 1-element array where its signature says an
    array), the outputs given or made by the layout's sizes. The operands
    are cast to the first signature that takes the inputs safely. An
    exception stops the loop there and reaches the caller, what was
    written before it staying in the outputs given, as in Numba."""

    def __init__(self, func, sigs, layout):
        self.py_func = func
        self._ins, self._outs = _parse_layout(layout)
        self.nin, self.nout = len(self._ins), len(self._outs)
        if func.__code__.co_argcount != self.nin + self.nout:
            raise TypeError(f"{func.__name__}() takes {func.__code__.co_argcount} arguments, the layout "
                            f"{layout!r} {self.nin + self.nout}")
        self.signature = layout.replace(" ", "")
        self._loops = []  # (each argument's dtype, (scalar?, core dimensions' indices) per argument)
        for sig in sigs:
            sig = types.parse_signature(sig)
            if len(sig.args) != self.nin + self.nout:
                raise TypeError(f"the signature {sig!r} has {len(sig.args)} arguments, the layout "
                                f"{self.nin + self.nout}")
            dtypes = tuple(np.dtype((t.dtype if t.ndim else t).name) for t in sig.args)
            self._loops.append((dtypes, _loop_arguments(sig, self._ins + self._outs, self.nin)))
        functools.update_wrapper(self, func)

    @property
    def types(self):
        return ["".join(d.char for d in dtypes[:self.nin]) + "->" + "".join(d.char for d in dtypes[self.nin:])
                for dtypes, _ in self._loops]

    def __call__(self, *args, out=None):
        if len(args) not in (self.nin, self.nin + self.nout) or (out is not None and len(args) != self.nin):
            raise TypeError(f"{self.__name__}() takes {self.nin} inputs and {self.nout} outputs "
                            f"({len(args)} arguments given{', and out=' if out is not None else ''})")
        given = list(args[self.nin:]) or ([] if out is None else list(out) if isinstance(out, tuple) else [out])
        inputs = args[:self.nin]
        k = _chosen_loop(inputs, [dtypes for dtypes, _ in self._loops])
        if k is None:
            seen = ", ".join(repr(_dtype_of(v).name) for v in inputs)
            raise TypeError(f"ufunc '{self.__name__}' not supported for the input types ({seen}): "
                            f"none of its loops {self.types} takes them safely")
        dtypes, hows = self._loops[k]
        inputs = [np.asarray(v, dtype=d) for v, d in zip(inputs, dtypes)]
        sizes = self._core_sizes(inputs + [np.asarray(g) for g in given], self._ins + self._outs[:len(given)])
        outer = np.broadcast_shapes(*(a.shape[:a.ndim - len(dims)] for a, dims in zip(inputs, self._ins)))
        outputs = given or [np.zeros(outer + tuple(sizes[d] for d in dims), dtype=d)
                            for dims, d in zip(self._outs, dtypes[self.nin:])]
        operands = [np.broadcast_to(a, outer + a.shape[a.ndim - len(dims):]) for a, dims in zip(inputs, self._ins)]
        for index in np.ndindex(*outer):
            self.py_func(*(self._core(a, index, how) for a, how in zip(operands + outputs, hows)))
        return outputs[0] if self.nout == 1 else tuple(outputs)

    def _core_sizes(self, arrays, cores):
        """Each core dimension's size, from the operands holding it (a ValueError where they disagree)."""
        sizes = {d: int(d) for dims in self._ins + self._outs for d in dims if d.isdigit()}
        for k, (a, dims) in enumerate(zip(arrays, cores)):
            if a.ndim < len(dims):
                raise ValueError(f"{self.__name__}: operand {k} has {a.ndim} dimensions, its core "
                                 f"({','.join(dims)}) needs {len(dims)}")
            for d, n in zip(dims, a.shape[a.ndim - len(dims):]):
                if sizes.setdefault(d, n) != n:
                    raise ValueError(f"{self.__name__}: core dimension {d} is {sizes[d]} and {n} in operand {k}")
        return sizes

    @staticmethod
    def _core(a, index, how):
        scalar, dims = how
        if scalar:
            return a[index]
        return a[index + (np.newaxis,)] if dims == (-1,) else a[index]

    def __repr__(self):
        return f"<ruchey.ObjectModeGUFunc '{self.__name__}'>"


def _remade_dufunc(func, options, sigs=(), frozen=False):
    """A DUFunc as pickled: its loops so far, frozen if it was, as Numba's."""
    u = DUFunc(func, **options)
    for sig in sigs:
        u.add(sig)
    if frozen:
        u.disable_compile()
    return u


def vectorize(ftylist_or_function=(), **options):
    """Compile a function of scalars into a NumPy ufunc, as Numba's @vectorize.

    ``@vectorize(["float64(float64, float64)", ...])`` builds a numpy.ufunc
    with one compiled loop per signature at once; ``@vectorize`` alone, or
    with no signatures, a DUFunc that compiles a loop for each new
    combination of input dtypes. Options: target ("cpu", "parallel":
    long loops split over the thread pool, "cuda": a CUDA kernel per call,
    on the GPU or the CPU backend; signatures needed),
    identity (0, 1, None or "reorderable": what ``reduce`` of an empty
    array gives, and whether it reduces along several axes at once), fastmath, error_model, parallel (the
    kernel's prange loops on the thread pool, as jit's); nopython and cache are accepted.
    """
    if callable(ftylist_or_function) and hasattr(ftylist_or_function, "__code__"):
        return vectorize((), **options)(ftylist_or_function)
    sigs = ftylist_or_function
    if sigs is None:
        sigs = []
    elif isinstance(sigs, (str, types.Signature)):
        sigs = [sigs]
    sigs = list(sigs)
    _check_options(options, object_mode=True)

    def wrap(func):
        if options.get("forceobj"):
            if not sigs:
                raise TypeError("vectorize(forceobj=True) needs signatures: ruchey has no object mode to "
                                "compile a loop per call's dtypes in")
            return ObjectModeUFunc(func, sigs)
        if options.get("target") == "cuda":
            if not sigs:
                raise TypeError("vectorize(target='cuda') needs signatures")
            if "nopython" in options:  # (a CUDA ufunc has no other mode: numba-cuda's warning)
                warnings.warn("nopython kwarg for cuda target is redundant", RuntimeWarning, stacklevel=2)
            from ruchey.cuda.ufuncs import CUDAUFunc  # imports ruchey.cuda only when used
            return CUDAUFunc(func, sigs)
        if not sigs:
            return DUFunc(func, **options)
        loops = _Loops(func, options)
        for sig in sigs:
            loops.add(sig)
        loops.disp._sealed = True  # compiled code calls it with one of these loops' types
        return _pickled_by_value(loops.build(), func, _remade_vectorize, sigs, options)
    return wrap


def _remade_vectorize(func, sigs, options):
    return vectorize(sigs, **options)(func)


# ---------------------------------------------------------------- guvectorize

def _parse_layout(layout):
    """"(m,n),(n)->(m)" as ([["m", "n"], ["n"]], [["m"]]). As in Numba, a
    layout without "->" has no outputs: the function writes into an input."""
    text = layout.replace(" ", "")
    ins, arrow, outs = text.partition("->")
    groups, bad = [], False
    for part in (ins, outs):
        found = re.findall(r"\(([^()]*)\)", part)
        bad = bad or ",".join(f"({g})" for g in found) != part or bool(arrow and not found)
        groups.append([[d for d in g.split(",") if d] for g in found])
    if bad or (not groups[0] and not groups[1]):
        raise ValueError(f"bad token in signature: {layout!r} is not a gufunc layout (write it as \"(m,n),(n)->(m)\")")
    unknown = {d for dims in groups[1] for d in dims if not d.isdigit()} - {d for dims in groups[0] for d in dims}
    if unknown:  # the inputs give no size for them (Numba's NameError; NumPy's fixed sizes, "(3)", need none)
        raise NameError(f"undefined output symbols: {','.join(sorted(unknown))}")
    return groups


def _loop_arguments(sig, core, nin):
    """Per argument (scalar?, its core dimensions' indices): a scalar for
    an input of "()", a 1-element array (index -1) for an array of "()"."""
    names = []
    for dims in core:
        names.extend(d for d in dims if d not in names)
    how = []
    for k, (t, dims) in enumerate(zip(sig.args, core)):
        if not isinstance(t, types.Type):
            raise TypeError(f"not a type in a gufunc signature: {t!r}")
        if t.ndim == 0 and not dims and k < nin:
            how.append((True, ()))
        elif t.ndim == len(dims) and dims:
            how.append((False, tuple(names.index(d) for d in dims)))
        elif t.ndim == 1 and not dims:
            how.append((False, (-1,)))
        else:
            raise TypeError(f"argument {k + 1} of {sig!r} is {t!r}, its layout ({','.join(dims)}): "
                            f"an array needs one dimension per core dimension" +
                            (", and an output must be an array" if k >= nin else ""))
    return tuple(how)


def guvectorize(*args, **options):
    """Compile a function of arrays into a generalized NumPy ufunc, as
    Numba's @guvectorize.

    ``@guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)")``
    builds a numpy.ufunc with that layout and one loop per signature: the
    function gets each argument's core dimensions as an array (a "()" input
    as a number) and writes its outputs. NumPy broadcasts the other
    dimensions and calls it once per element of them. Options as vectorize's:
    target="parallel" splits the outer elements over the thread pool,
    "cuda" runs as "cpu" does, taking and giving device arrays too
    (ruchey.cuda.ufuncs.CUDAGUFunc).
    """
    if len(args) == 1 and isinstance(args[0], str):  # a layout alone: loops compiled as called
        _check_options(options)
        return lambda func: GUFunc(func, args[0], options)
    if len(args) != 2:
        raise TypeError("guvectorize takes signatures and a layout: @guvectorize([sig, ...], \"(n)->(n)\")")
    sigs, layout = args
    sigs = [sigs] if isinstance(sigs, (str, types.Signature)) else list(sigs)
    _check_options(options, object_mode=True)

    def build(func):
        if options.get("forceobj"):
            return ObjectModeGUFunc(func, sigs, layout)
        disp = _gufunc_dispatcher(func, layout, options)
        u = _build_gufunc(func, disp, sigs, layout, options)
        ins, outs = _parse_layout(layout)
        hows = [_loop_arguments(types.parse_signature(sig), ins + outs, len(ins)) for sig in sigs]
        if options.get("target") == "cuda":  # (device arrays in and out; not called from compiled code)
            from ruchey.cuda.ufuncs import CUDAGUFunc
            return CUDAGUFunc(u, func, _remade_guvectorize, sigs, layout, options)
        _callable_from_compiled_code(u, disp, layout, dict(zip(u.types, hows)))
        return _pickled_by_value(u, func, _remade_guvectorize, sigs, layout, options)
    return build


def _remade_guvectorize(func, sigs, layout, options):
    return guvectorize(sigs, layout, **options)(func)


def _gufunc_dispatcher(func, layout, options):
    ins, outs = _parse_layout(layout)
    if func.__code__.co_argcount != len(ins) + len(outs):
        raise TypeError(f"{func.__name__}() takes {func.__code__.co_argcount} arguments, the layout "
                        f"{layout!r} {len(ins) + len(outs)}")
    return _core.Dispatcher(func, **_kernel_settings(options))


def _build_gufunc(func, disp, sigs, layout, options):
    """The numpy.ufunc of layout with a loop for each signature, compiled from disp."""
    ins, outs = _parse_layout(layout)
    core = ins + outs
    loops = []
    for sig in sigs:
        sig = types.parse_signature(sig)
        if len(sig.args) != len(core):
            raise TypeError(f"the signature {sig!r} has {len(sig.args)} arguments, the layout {len(core)}")
        if sig.return_type is not None and not isinstance(sig.return_type, types.NoneType):
            raise TypeError(f"guvectorized functions cannot return values: the signature {sig!r} specifies "
                            f"{sig.return_type} return type")
        how = _loop_arguments(sig, core, len(ins))
        address, dtypes = _core._gufunc_loop(disp, tuple(t.describe() for t in sig.args))
        loops.append((address, dtypes, how))
    parallel = options.get("target", "cpu") == "parallel"
    if parallel:
        _launch_pool()
    return _named(_core._make_gufunc(func.__name__, func.__doc__ or "", len(ins), len(outs), layout,
                                     options.get("identity"), loops, parallel,
                                     disp, _writable_inputs(func, options.get("writable_args", ()))), func)


def _writable_inputs(func, writable_args):
    """writable_args (input names or positions) as positions."""
    names = func.__code__.co_varnames[:func.__code__.co_argcount]
    try:
        return tuple(a if isinstance(a, int) else names.index(a) for a in writable_args)
    except ValueError:  # (Numba's RuntimeError)
        raise RuntimeError(f"writable_args {tuple(writable_args)!r}: {func.__qualname__}() takes {names!r}") from None


class GUFunc:
    """A generalized ufunc compiled for the dtypes it is called with, as
    Numba's dynamic gufuncs (``@guvectorize("(n),()->(n)")`` without
    signatures): every argument is given, the outputs too, and a call that
    no loop so far takes adds a loop for its dtypes. ``ufunc`` is the
    numpy.ufunc of the loops so far (none at first). Numba's builder
    (numba.np.ufunc.GUVectorize) makes one too, its loops added by
    signature; once frozen, it is called as its ufunc is."""

    is_dynamic = True  # Numba's flag: a @guvectorize with signatures is a plain numpy.ufunc here

    def __init__(self, func, layout, options):
        self._disp = _gufunc_dispatcher(func, layout, options)
        self._layout, self._options, self._sigs = layout, options, {}  # dtypes called with -> signature
        self._no_more_loops = False
        ins, outs = _parse_layout(layout)
        self._core, self._nin = ins + outs, len(ins)
        self.ufunc = _build_gufunc(func, self._disp, [], layout, options)  # no loops yet: its nin, types... answer
        self.py_func = self.__wrapped__ = func
        self.__name__ = func.__name__
        self.__qualname__ = getattr(func, "__qualname__", func.__name__)
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__
        _callable_from_compiled_code(self, self._disp, layout, None)

    def __repr__(self):
        return f"<ruchey.GUFunc '{self.__name__}'>"

    def __reduce__(self):  # as Numba's, for multiprocessing and Dask
        from ruchey import serialize
        added = [sig for key, sig in self._sigs.items() if not isinstance(key, tuple)]
        return serialize.reduce_remade(self, _remade_gufunc, self._layout, self._options, added,
                                       self.is_dynamic, self._no_more_loops)

    def add(self, sig):
        """Compiles a loop for a signature now, as Numba's GUVectorize."""
        self._sigs[str(types.parse_signature(sig))] = sig
        self.ufunc = _build_gufunc(self.py_func, self._disp, list(self._sigs.values()), self._layout, self._options)

    def build_ufunc(self):
        """Numba's builder's last step: a GUVectorize without is_dynamic
        compiles no more loops."""
        if not self.is_dynamic:
            self.disable_compile()
        return self

    def disable_compile(self):
        self._no_more_loops = True

    @property
    def _frozen(self):
        return self._no_more_loops

    def _signature(self, dtypes):
        """void(...) of the arguments' dtypes, each with its layout's core dimensions."""
        argtypes = []
        for k, (dtype, dims) in enumerate(zip(dtypes, self._core)):
            t = _type_of_dtype(dtype)
            if t is None:
                raise TypeError(f"{self.__name__}: argument {k + 1} has dtype {dtype.name}, which "
                                "compiled code does not take")
            if dims or k >= self._nin:  # an output of "()" is written through a 1-element array
                t = t[(slice(None),) * max(len(dims), 1)]
            argtypes.append(t)
        return types.void(*argtypes)

    def __call__(self, *args, **kwargs):
        if self._no_more_loops:
            return self.ufunc(*args, **kwargs)
        if "out" in kwargs:  # as Numba's: outputs given by name follow the inputs
            out = kwargs.pop("out")
            args += tuple(out) if isinstance(out, tuple) else (out,)
        if len(args) != len(self._core):
            raise TypeError(f"Too {'few' if len(args) < len(self._core) else 'many'} arguments for function "
                            f"'{self.__name__}'. It compiles for the types it is called with: give all "
                            f"{len(self._core)} arguments, its outputs too, as Numba's dynamic gufuncs take them")
        dtypes = tuple(_dtype_of(a) for a in args)
        # Numba compiles only where no loop so far takes the operands, and
        # NumPy picks the loop among them all: integers given after a float
        # loop run in it, in floats, unless an output cannot take its result
        if _matching_loop(self.ufunc.types, self._nin, dtypes) is None:
            sigs = list(self._sigs.values()) + [self._signature(dtypes)]
            self.ufunc = _build_gufunc(self.py_func, self._disp, sigs, self._layout, self._options)
            self._sigs[dtypes] = sigs[-1]
        return self.ufunc(*args, **kwargs)

    def __getattr__(self, name):
        if name.startswith("__") or name == "ufunc":
            raise AttributeError(name)
        return getattr(self.ufunc, name)


def _remade_gufunc(func, layout, options, sigs, is_dynamic, frozen):
    g = GUVectorize(func, layout, is_dynamic=is_dynamic, **options)
    for sig in sigs:
        g.add(sig)
    if frozen:
        g.disable_compile()
    return g


def GUVectorize(func, signature, is_dynamic=False, **options):
    """numba.np.ufunc.GUVectorize: a GUFunc of layout signature, its loops
    added with add(sig) before build_ufunc(); is_dynamic=True also compiles
    as called, as @guvectorize(layout) does."""
    _check_options(options)
    g = GUFunc(func, signature, options)
    g.is_dynamic = is_dynamic
    return g


def Vectorize(func, **options):
    """numba.np.ufunc.Vectorize: a DUFunc, its loops added with add(sig)
    (build_ufunc() gives it back)."""
    return DUFunc(func, **options)


def _matching_loop(loops, nin, dtypes):
    """The first of a ufunc's loops ("dd->d") that takes operands of these
    dtypes, outputs included, as Numba decides it (its
    ufunc_find_matching_loop), or None: each input casts to the loop's
    safely (any integer to a float or complex where the inputs mix the two
    kinds, as Numba lets float32 loops take integers beside float32 arrays),
    the loop's outputs to the given ones within their kind."""
    ins, outs = dtypes[:nin], dtypes[nin:]
    mixed = any(d.kind in "iu" for d in ins) and any(d.kind in "fc" for d in ins)

    def casts(a, b, rule):
        return (mixed and a.kind in "iu" and b.kind in "fc") or np.can_cast(a, b, rule)

    for loop in loops:
        loop_ins, _, loop_outs = loop.partition("->")
        if (all(casts(d, np.dtype(c), "safe") for d, c in zip(ins, loop_ins)) and
                all(casts(np.dtype(c), d, "same_kind") for d, c in zip(outs, loop_outs))):
            return loop
    return None


# ---------------------------------------------------------------- calls from compiled code

def _callable_from_compiled_code(u, disp, layout, hows):
    """Lets compiled code call the gufunc u as Numba's does: u(a, b, out)
    with its outputs given, a loop over the first output's outer dimensions
    calling the compiled function disp on each element's core arrays; an
    input's outer dimensions are the loop's first ones (no broadcasting).
    hows: a static gufunc's loops ("dd->d": how its function takes each
    argument), the first that takes the operands running with its inputs
    cast to its dtypes; None for a dynamic gufunc, compiled for the
    operands' own dtypes."""
    from ruchey import extending  # (not at import: no gufunc may ever be called so)
    ins, outs = _parse_layout(layout)
    params = ", ".join(disp.py_func.__code__.co_varnames[:len(ins) + len(outs)])
    space = {"_ruchey_typer": lambda *argtypes: _compiled_call(u, disp, layout, len(ins), argtypes, hows)}
    # the typer takes the gufunc's arguments as its function does
    exec(f"def {u.__name__}({params}):\n    return _ruchey_typer({params},)\n", space)
    extending.overload(u, strict=False)(space[u.__name__])  # (ruchey's own: its module is none, as made by exec)


def _compiled_call(u, disp, layout, nin, argtypes, hows):
    """The implementation of a call of u from compiled code with these
    argument types: Python source of its loop nest, compiled as the caller's."""
    from ruchey import TypingError
    name = u.__name__
    ins, outs = _parse_layout(layout)
    core = ins + outs
    for k, (t, dims) in enumerate(zip(argtypes, core)):
        if not isinstance(t, types.Type) or (k >= nin and not t.ndim and not dims):
            raise TypingError(f"{name}: argument {k + 1} is {t}: compiled code gives a gufunc "
                              "numbers or arrays, and every output as an array")
        if t.ndim < len(dims):  # Numba's words
            operand = f"Input operand {k}" if k < nin else f"Output operand {k - nin}"
            raise TypingError(f"{name}: {operand} does not have enough dimensions (has {t.ndim}, gufunc core "
                              f"with signature {layout} requires {len(dims)})")
    dtypes = [np.dtype(t.dtype.name) for t in argtypes]
    if hows is None:  # a dynamic gufunc: its "()" inputs are numbers
        how, loop_dtypes = [(not dims and k < nin, ()) for k, dims in enumerate(core)], dtypes
    else:
        loop = _static_loop(u.types, nin, dtypes)
        if loop is None:
            raise TypingError(f"{name} has no loop for {', '.join(map(str, argtypes))} (its loops: {u.types})")
        how, loop_dtypes = hows[loop], [np.dtype(c) for c in loop.replace("->", "")]
    body = _shape_checks(name, core, nin, argtypes)
    values = []
    for k, (t, dims) in enumerate(zip(argtypes, core)):
        value = f"a{k}"
        if dtypes[k] != loop_dtypes[k]:  # an input cast to its loop's dtype, as Numba's does
            kind = loop_dtypes[k].type.__name__
            body.append(f"c{k} = np.{kind}(a{k})" if not t.ndim else f"c{k} = a{k}.astype(np.{kind})")
            value = f"c{k}"
        values.append(_element(value, t.ndim, t.ndim - len(dims), bool(dims), how[k][0]))
    loop_ndim = argtypes[nin].ndim - len(core[nin])
    for d in range(loop_ndim):
        body.append(f"{'    ' * d}for i{d} in range(a{nin}.shape[{d}]):")
    body.append(f"{'    ' * loop_ndim}kernel({', '.join(values)})")
    params = ", ".join(f"a{k}" for k in range(len(core)))
    text = f"def {name}({params}):\n" + "".join(f"    {line}\n" for line in body)
    filename = f"<ruchey gufunc call {name} {', '.join(map(str, argtypes))}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    space = {"np": np, "kernel": disp}
    exec(compile(text, filename, "exec"), space)
    return space[name]


def _static_loop(loops, nin, dtypes):
    """The loop of a static gufunc that compiled code runs for these dtypes:
    the loop of these very dtypes, else the first that takes the inputs as
    Numba's does and writes the outputs' own dtypes (its function writes
    into them)."""
    chars = "".join(d.char for d in dtypes)
    exact = chars[:nin] + "->" + chars[nin:]
    if exact in loops:
        return exact
    return _matching_loop([loop for loop in loops if loop.endswith("->" + chars[nin:])], nin, dtypes)


def _shape_checks(name, core, nin, argtypes):
    """Lines raising ValueError where a core dimension's name has two
    sizes, or else the arguments' outer dimensions are not the loop's (the
    first output's) first ones, as Numba's (in that order)."""
    lines = []
    first = {}
    for k, (t, dims) in enumerate(zip(argtypes, core)):
        for j, d in enumerate(dims if t.ndim else ()):
            axis = f"a{k}.shape[{t.ndim - len(dims) + j}]"
            if d in first:
                message = (f"{name}: Operand has a mismatch in one of its core dimensions (the core dimension {d} "
                           "differs between the arguments)")
                lines.append(f"if {axis} != {first[d]}:\n        raise ValueError({message!r})")
            first.setdefault(d, axis)
    outer = [(k, t.ndim - len(core[k])) for k, t in enumerate(argtypes) if t.ndim and k != nin]
    loop_ndim = argtypes[nin].ndim - len(core[nin])
    if any(r > loop_ndim for _, r in outer):
        lines.append("raise ValueError('Loop and array shapes are incompatible')")
    checks = [f"a{k}.shape[{d}] != a{nin}.shape[{d}]" for k, r in outer if r <= loop_ndim for d in range(r)]
    if checks:
        lines.append(f"if {' or '.join(checks)}:\n        raise ValueError('Loop and array shapes are incompatible')")
    return lines


def _element(value, ndim, outer, has_core, as_number):
    """What the function gets of an argument at the loop's indices i0, i1...:
    its core array, a number (a "()" input taken so), or a view of one
    element (a "()" taken as an array of one element, outputs always)."""
    index = ", ".join(f"i{d}" for d in range(outer))
    if not ndim:
        return value if as_number else f"np.full(1, {value})"
    if has_core or as_number:
        return f"{value}[{index or '()'}]" if as_number or outer else value
    head = "".join(f"i{d}, " for d in range(outer - 1))
    return f"{value}[{head}i{outer - 1}:i{outer - 1} + 1]" if outer else f"{value}.reshape(1)"
