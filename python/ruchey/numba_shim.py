"""ruchey registered as ``numba``, for running existing Numba-based packages
unchanged: ``ruchey.install_as_numba()`` before they are imported, or
``python -m ruchey.numba_shim script.py [args...]`` (``-m module`` too).

``import numba`` then gives a module of ruchey's API, and the submodules
such code imports resolve (``numba.core.types``, ``numba.core.errors``,
``numba.extending``, ``numba.typed``, ``numba.np.numpy_support``,
``numba.config``, ``numba.cuda``...): each holds what ruchey has under
Numba's name. A name ruchey lacks (``numba.core.cgutils.pack_array``...) resolves to a
placeholder, so that importing a package does not fail on an API it may
never call: decorating with a placeholder works, and calling it, or what
it decorated, raises NotImplementedError naming it. A value type of a
package's own (``typeof_impl.register``, ``register_model`` of a
StructModel, ``make_attribute_wrapper``, ``unbox``, ``box``, a class's
``type_callable`` and ``lower_builtin``, ``lower_constant``) is read by
ruchey._values; a call of its values through a typing template
(``make_overload_attribute_template`` and ``infer_getattr``) by
ruchey._templates.
``missing()`` lists
the placeholders handed out, which tells what a package needs that ruchey
lacks. Packages that register themselves with Numba through the
``numba_extensions`` entry point (vector, rocket-fft) are registered by
``install_as_numba()`` (``numba.core.entrypoints.init_all``), as Numba
registers them before its first compile.
"""
import builtins
import collections
import collections.abc
import ctypes
import importlib.abc
import importlib.machinery
import pickle
import runpy
import struct
import sys
import types as pytypes
import warnings

import numpy

import ruchey
from ruchey import _core, np_extensions, types

# the Numba whose API ruchey follows, for packages that check it: 0.61.2 is 0.61's
# patch release (its API unchanged), the least pandas 3 takes for its numba engine
VERSION = "0.61.2"

_missing = []


def missing():
    """The Numba names a program asked for that ruchey lacks, in order."""
    return list(_missing)


class _Placeholder:
    """What a name ruchey lacks resolves to. Used as a decorator it returns
    a function that raises when called; as a base class it is a class."""

    def __init__(self, name):
        self._numba_name = name

    def _refuse(self, *args, **kwargs):
        raise NotImplementedError(f"{self._numba_name} is not supported by ruchey (registered as numba)")

    def __call__(self, *args, **kwargs):
        # (keyed by a function, a class, or a name: type_callable("__array_wrap__"))
        if self._numba_name.rpartition(".")[2] in _FUNCTION_REGISTRIES and args and \
                (callable(args[0]) or isinstance(args[0], str)):
            return self._registration(*args)
        if len(args) == 1 and callable(args[0]) and not isinstance(args[0], type) and not kwargs:  # @placeholder
            return self._decorated(args[0])
        if self._numba_name.endswith(".lower_cast") and len(args) == 2 and isinstance(args[0], type) and \
                not kwargs:
            return self._cast_lowering(*args)
        # a class of the package's own first is a registration for its type (register_model(T),
        # box(T), typeof_impl.register(cls), make_attribute_wrapper(T, "a", "a")), made at import:
        # it returns the decorator, and what compiled code would need of the type is what fails;
        # Python's and NumPy's classes are what helpers take (from_dtype(numpy.float64)): those raise
        if args and isinstance(args[0], type) and args[0].__module__.partition(".")[0] not in ("builtins", "numpy"):
            return self._decorated
        if not args:  # @placeholder(options...)
            return self._decorated
        return self._refuse()

    def _decorated(self, func):
        def refuse(*args, **kwargs):
            self._refuse()
        refuse.__name__ = getattr(func, "__name__", "function")
        # named for what it stands for, in a TypingError if compiled code calls it
        refuse.__qualname__ = f"{refuse.__name__} (made by {self._numba_name}, which ruchey lacks)"
        refuse.__wrapped__ = func
        return refuse

    def _registration(self, key, *argtypes):
        """type_callable(func) and its kin: a decorator keeping what it
        decorates, registering nothing; compiled code calling func is then
        told why it cannot (func itself stays a Python function). Called
        otherwise it refuses, as what a placeholder decorated does (the
        decorator written bare, @lower_builtin, made func that). Of a
        package's own class, they make its constructor (ruchey._values)."""
        registry = self._numba_name.rpartition(".")[2]
        if registry == "lower_builtin" and key in ("__array__", "__array_wrap__") and argtypes and \
                isinstance(argtypes[0], type):
            return self._array_lowering(key, argtypes[0])
        if registry == "type_callable" and key == "__array_wrap__":
            return self._array_lowering(key, None)
        if isinstance(key, type) and key.__module__.partition(".")[0] not in ("builtins", "numpy") and \
                registry in ("type_callable", "lower_builtin", "lower"):
            return self._constructor(key, registry, argtypes)
        if not isinstance(key, type):
            try:
                key.__ruchey_unsupported__ = f"its typing or lowering is registered by {self._numba_name}, which ruchey lacks"
            except (AttributeError, TypeError):  # a builtin's or a C function's: compiled code refuses it anyway
                pass

        def keep(*args, **kwargs):
            if len(args) == 1 and callable(args[0]) and not kwargs:
                if self._numba_name.endswith(".lower_builtin") and not isinstance(key, type):
                    try:  # read by ruchey._lowerings where it is an atomic update of an array element
                        key.__ruchey_lowering__ = args[0]
                    except (AttributeError, TypeError):
                        pass
                return args[0]
            self._refuse()
        return keep

    @staticmethod
    def _constructor(cls, registry, argtypes):
        from ruchey import _values

        def keep(func):
            if registry == "type_callable":
                _values.type_callable(cls, func)
            else:
                _values.lower_constructor(cls, argtypes, func)
            return func
        return keep

    @staticmethod
    def _cast_lowering(from_class, to):
        """lower_cast(T, types.Number): T's values convert to numbers where an operator needs them
        (ruchey._values.lower_cast)."""
        from ruchey import _values

        def keep(func):
            _values.lower_cast(from_class, to, func)
            return func
        return keep

    @staticmethod
    def _array_lowering(key, type_class):
        """lower_builtin('__array__', cls): cls's values stand for an array (ruchey._values.lower_array);
        type_callable('__array_wrap__') and lower_builtin('__array_wrap__', cls, types.Array): a ufunc's
        result on them is a value of their kind again."""
        from ruchey import _values

        def keep(func):
            if key == "__array__":
                _values.lower_array(type_class, func)
            elif type_class is None:
                _values.type_array_wrap(func)
            else:
                _values.lower_array_wrap(type_class, func)
            return func
        return keep

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _placeholder(f"{self._numba_name}.{name}")

    def __mro_entries__(self, bases):  # class X(placeholder): a plain class
        return (type(self._numba_name.rpartition(".")[2], (), {}),)

    def __repr__(self):
        return f"<ruchey placeholder for {self._numba_name}>"


# Numba's registries keyed by a function or class, whose typing or lowering is written against
# Numba's internals (llvmlite IR, its typing templates): type_callable(func), lower_builtin(func,
# *types), lower(func, *types), infer_global(func[, type]). Called at a package's import (numba_progress's
# atomic_add, which harmonica imports when it is installed): that must not fail where nothing
# registered is ever compiled, so each returns a decorator that keeps what it decorates; a
# lower_builtin implementation is kept on the function too, which ruchey runs where it reads as
# an atomic update of an array element (ruchey/_lowerings.py: PySDM's atomic_add)
_FUNCTION_REGISTRIES = ("type_callable", "lower_builtin", "lower", "infer_global")


def _placeholder(name):
    if name not in _missing:
        _missing.append(name)
    return _Placeholder(name)


class _Module(pytypes.ModuleType):
    """A numba submodule: its own names, then its sources', then placeholders."""

    def __init__(self, name, names=None, sources=()):
        super().__init__(name)
        self.__dict__.update(names or {})
        self.__dict__["_sources"] = sources

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        for source in self._sources:
            if hasattr(source, name):
                return getattr(source, name)
        if f"{self.__name__}.{name}" in _SUBMODULES:  # from numba.core import types
            return importlib.import_module(f"{self.__name__}.{name}")
        return _placeholder(f"{self.__name__}.{name}")

    def __setattr__(self, name, value):
        # importing a submodule binds it on its parent; where the parent's name is a function of the
        # same name (numba.experimental.jitclass, a decorator and a package), Numba's __init__ rebinds
        # it to the function after, so `from numba.experimental import jitclass` stays the decorator
        if isinstance(value, _Module) and value.__name__ == f"{self.__name__}.{name}" and \
                any(hasattr(source, name) and not isinstance(getattr(source, name), pytypes.ModuleType)
                    for source in self._sources):
            return
        super().__setattr__(name, value)


# ---------------------------------------------------------------- what the submodules hold

class _CgutilsValues:
    """numba.core.cgutils' LLVM types and constants (voidptr_t, int32_t,
    true_bit...), ruchey.intrinsics' own, made when first read."""

    def __getattr__(self, name):
        if name not in ruchey.intrinsics.CGUTILS_VALUES:
            raise AttributeError(name)
        return getattr(ruchey.intrinsics, name)


class NumbaWarning(Warning):
    pass


class NumbaPerformanceWarning(NumbaWarning):
    pass


class NumbaDeprecationWarning(NumbaWarning, DeprecationWarning):
    pass


class NumbaPendingDeprecationWarning(NumbaWarning, PendingDeprecationWarning):
    pass


class NumbaParallelSafetyWarning(NumbaWarning):
    pass


class NumbaExperimentalFeatureWarning(NumbaWarning):
    pass


class NumbaTypeSafetyWarning(NumbaWarning):
    """Numba's warning of a key or value cast into a typed container (ruchey casts as Numba, silently)."""


NumbaError = _core.NumbaError  # ruchey.TypingError's base


class LoweringError(NumbaError):
    """Numba's, for a failure after typing; ruchey reports those as TypingError
    or TypeError, so code catching it (with the others) still runs."""


class UnsupportedParforsError(NumbaError):
    """Numba's, where its platform has no parallel loops; ruchey's always has them."""


# the rest of numba.core.errors' classes, each under its base as in Numba, for code that raises
# them (from a typing function), catches them or subclasses them; ruchey raises none of them
_OTHER_ERRORS = (("IRError", "NumbaError"), ("RedefinedError", "IRError"), ("NotDefinedError", "IRError"),
                 ("VerificationError", "IRError"), ("DeprecationError", "NumbaError"),
                 ("ForbiddenConstruct", "LoweringError"), ("UntypedAttributeError", "TypingError"),
                 ("ByteCodeSupportError", "NumbaError"), ("CompilerError", "NumbaError"),
                 ("ConstantInferenceError", "NumbaError"), ("InternalError", "NumbaError"),
                 ("InternalTargetMismatchError", "InternalError"), ("NonexistentTargetError", "InternalError"),
                 ("RequireLiteralValue", "TypingError"), ("ForceLiteralArg", "NumbaError"),
                 ("NumbaRuntimeError", "NumbaError"), ("UnsupportedBytecodeError", "Exception"),
                 ("UnsupportedRewriteError", "TypingError"),  # UnsupportedError's: ruchey's TypingError
                 ("NumbaInvalidConfigWarning", "NumbaWarning"), ("NumbaPedanticWarning", "NumbaWarning"),
                 ("NumbaIRAssumptionWarning", "NumbaPedanticWarning"), ("NumbaDebugInfoWarning", "NumbaWarning"),
                 ("NumbaSystemWarning", "NumbaWarning"))


def _other_errors(known):
    made = {}
    for name, base in _OTHER_ERRORS:
        made[name] = type(name, (made.get(base) or known.get(base) or getattr(builtins, base),),
                          {"__module__": "numba.core.errors"})
    return made


def _ensure_parallel_support():
    """numba.parfors.parfor.ensure_parallel_support: ruchey runs prange on
    its own thread pool on every platform it builds on, so it never raises
    (PyMPDATA and PySDM ask before they compile parallel code)."""


# the typing errors Numba raises under Python's names (TypingError's kin, as in Numba), for packages
# raising them from their typing functions (stingray's overloads)
_TYPING_ERRORS = {name: type(name, (ruchey.TypingError,), {"__module__": "numba.core.errors"})
                  for name in ("NumbaTypeError", "NumbaValueError", "NumbaAttributeError", "NumbaAssertionError",
                               "NumbaNotImplementedError", "NumbaIndexError", "NumbaKeyError")}

_ERRORS = dict(**_TYPING_ERRORS, NumbaWarning=NumbaWarning, NumbaPerformanceWarning=NumbaPerformanceWarning,
               NumbaDeprecationWarning=NumbaDeprecationWarning,
               NumbaPendingDeprecationWarning=NumbaPendingDeprecationWarning,
               NumbaParallelSafetyWarning=NumbaParallelSafetyWarning,
               NumbaExperimentalFeatureWarning=NumbaExperimentalFeatureWarning,
               NumbaTypeSafetyWarning=NumbaTypeSafetyWarning, NumbaError=NumbaError,
               TypingError=ruchey.TypingError, UnsupportedError=ruchey.TypingError,
               LiteralTypingError=ruchey.ArgumentTypeError,  # an argument literally() asks for that cannot be one
               UnsupportedParforsError=UnsupportedParforsError, LoweringError=LoweringError)
_ERRORS.update(_other_errors(_ERRORS))


def as_dtype(t):
    """numba.np.numpy_support.as_dtype: the NumPy dtype of a scalar type (a record type's: its structured dtype)."""
    if isinstance(t, types.UnicodeCharSeq) and not t.ndim:  # (CharSeq too) '<Un', '|Sn'
        return numpy.dtype(f"{t._code}{t.count}")
    if not isinstance(t, types.Type):
        raise NotImplementedError(f"{t!r} cannot be converted to a NumPy dtype")
    return t.np_dtype if isinstance(t, types.Record) else numpy.dtype(t.dtype.name)


class _NoTypeForDtype(_TYPING_ERRORS["NumbaNotImplementedError"], TypeError):
    """What from_dtype raises for a dtype ruchey has no type for (float128,
    complex256, a swapped byte order): Numba's NumbaNotImplementedError,
    which code for Numba catches, and ruchey's TypeError."""


def from_dtype(dtype):
    """numba.np.numpy_support.from_dtype: the type of a NumPy dtype."""
    try:
        return types.from_dtype(dtype)
    except TypeError as exc:
        raise _NoTypeForDtype(str(exc)) from None


def _config():
    bits = struct.calcsize("P") * 8  # Numba's MACHINE_BITS: a pointer's (which code reads to pick 32- or 64-bit values)
    return dict(THREADING_LAYER="workqueue", THREADING_LAYER_PRIORITY=["tbb", "omp", "workqueue"],
                DEBUG=0, OPT=3, DISABLE_JIT=ruchey.config.DISABLE_JIT, CACHE_DIR=ruchey.config.CACHE_DIR,
                MACHINE_BITS=bits, IS_32BITS=bits == 32)


def _top_names():
    names = {name: getattr(ruchey, name) for name in dir(ruchey) if not name.startswith("_")}
    names.update(types.namespace)
    parts = tuple(map(int, VERSION.split(".")))
    # Numba's version_info's fields, which packages compare (version_info.short >= (0, 57))
    fields = "major minor patch short full string tuple git_revision"
    names.update(__version__=VERSION, typed=ruchey.typed,
                 version_info=collections.namedtuple("version_info", fields)(
                     *parts, parts[:2], parts, VERSION, tuple(VERSION.split(".")), None))
    names.update(_ERRORS)
    # (from numba import * takes the API, the types and the errors, as Numba's __all__ lists them)
    names["__all__"] = sorted(name for name in names if not name.startswith("_") and name != "version_info")
    return names


def _cloudpickle():
    """The cloudpickle package, as numba.cloudpickle's other names, where it is installed."""
    try:
        import cloudpickle
    except ImportError:
        return ()
    return (cloudpickle,)


def _submodules():
    """name -> (own names, sources) of each numba module given."""
    import ruchey.caching
    import ruchey.experimental
    from ruchey import _helperlib, _lowerings, _templates, _values, native
    import ruchey.extending
    import ruchey.intrinsics
    import ruchey.serialize
    import ruchey.structref
    import ruchey.unsafe
    _VALUE_TYPES.update(_value_type_names())
    modules = {
        "numba": (_top_names(), (ruchey,)),
        "numba.core": ({}, ()),
        # the random states compiled code draws from, by address (ruchey._helperlib)
        "numba._helperlib": ({}, (_helperlib,)),
        "numba.core.types": (dict(types.namespace), (types,)),
        "numba.types": (dict(types.namespace), (types,)),
        "numba.np.types": (dict(types.namespace), (types,)),  # NumPy's own types (NPDatetime, NPTimedelta)
        # numba.core.types' own submodules, where packages import a class from (types.misc.NoneType), also
        # under numba.types, the same module in Numba (codex-africanus' numba.types.npytypes.Array)
        **{f"{types_module}.{part}": (dict(types.namespace), (types,))
           for types_module in ("numba.core.types", "numba.types")
           for part in ("abstract", "common", "containers", "functions", "misc", "npytypes", "scalars")},
        "numba.core.errors": (dict(_ERRORS), ()),
        "numba.errors": (dict(_ERRORS), ()),
        "numba.core.config": (_config(), (ruchey.config,)),
        "numba.config": (_config(), (ruchey.config,)),
        "numba.extending": (dict(_VALUE_TYPES), (ruchey.extending,)),
        "numba.core.extending": (dict(_VALUE_TYPES), (ruchey.extending,)),
        # a value type's unbox and box, read by ruchey._values
        "numba.core.typing.typeof": (dict(typeof_impl=_values.typeof_impl, typeof=ruchey.typeof), ()),
        "numba.core.datamodel": (dict(models=_values.models, register_default=_values.register_model), ()),
        "numba.core.datamodel.models": (dict(StructModel=_values.StructModel, OpaqueModel=_values.OpaqueModel), ()),
        "numba.core.boxing": (dict(unbox_array=_values.unbox_array, box_array=_values.box_array), ()),
        "numba.core.pythonapi": (dict(NativeValue=_values.NativeValue), ()),
        # a value type's globals (lower_constant, read by ruchey._values) and the results lowerings return
        "numba.core.imputils": (dict(lower_constant=_values.lower_constant, impl_ret_borrowed=_values.impl_ret_borrowed,
                                     impl_ret_new_ref=_values.impl_ret_borrowed,
                                     impl_ret_untracked=_values.impl_ret_borrowed), ()),
        # a type's methods, attributes and call through templates (ruchey._templates)
        # signature(return_type, *args): what a typer (an @intrinsic's) returns
        "numba.core.typing": (dict(signature=_templates.signature, Signature=types.Signature,
                                   Context=_values._TypingContext), ()),
        "numba.core.typing.templates": (
            {name: getattr(_templates, name) for name in (
                "signature", "AbstractTemplate", "_OverloadAttributeTemplate", "_OverloadMethodTemplate",
                "make_overload_attribute_template", "make_overload_method_template", "infer_getattr")}
            | dict(Signature=types.Signature), ()),
        "numba.core.typing.ctypes_utils": (dict(from_ctypes=native.from_ctypes, to_ctypes=native.to_ctypes), ()),
        # cffi's types and out-of-line modules as compiled code reads them (ruchey.native)
        "numba.core.typing.cffi_utils": (dict(map_type=native.map_type, register_module=native.register_module,
                                              register_type=native.register_type), ()),
        "numba.typed": ({}, (ruchey.typed,)),
        "numba.typed.typedlist": ({}, (ruchey.typed,)),
        "numba.typed.typeddict": ({}, (ruchey.typed,)),
        "numba.typed.typedset": ({}, (ruchey.typed,)),
        # Numba's list implementation module: new_list(item_type, allocated) is typed.List.empty_list
        "numba.typed.listobject": (dict(new_list=ruchey.typed.List.empty_list), ()),
        # and its dict implementation module: new_dict(key_type, value_type, n_keys) is typed.Dict.empty
        "numba.typed.dictobject": (dict(new_dict=ruchey.typed.Dict.empty), ()),
        # and its set implementation module: new_set(key_type) is typed.Set.empty
        "numba.typed.setobject": (dict(new_set=ruchey.typed.Set.empty), ()),
        "numba.np": ({}, ()),
        # numpy_version: (major, minor) of the installed NumPy, which packages branch on
        # (from_struct_dtype: a structured dtype's record type; map_arrayscalar_type: a scalar's type;
        # carray and farray live there, numba.carray names them again)
        "numba.np.numpy_support": (dict(as_dtype=as_dtype, from_dtype=from_dtype, carray=ruchey.carray, farray=ruchey.farray,
                                        from_struct_dtype=types.from_dtype, map_arrayscalar_type=types.typeof,
                                        numpy_version=tuple(map(int, numpy.__version__.split(".")[:2]))), ()),
        # what a lowering finding an array's element uses, for those ruchey reads (ruchey._lowerings)
        "numba.np.arrayobj": (dict(make_array=_lowerings.make_array, normalize_indices=_lowerings.normalize_indices,
                                   basic_indexing=_lowerings.basic_indexing), ()),
        "numba.np.unsafe": ({}, ()),
        "numba.np.unsafe.ndarray": (dict(to_fixed_tuple=ruchey.unsafe.to_fixed_tuple), ()),
        "numba.np.extensions": (dict(cross2d=np_extensions.cross2d), ()),
        "numba.np.random": ({}, ()),
        "numba.np.random.generator_core": ({name: getattr(np_extensions, name) for name in
                                            ("next_uint64", "next_uint32", "next_double", "next_float")}, ()),
        "numba.np.ufunc": (dict(vectorize=ruchey.vectorize, guvectorize=ruchey.guvectorize,
                                Vectorize=ruchey.ufunc.Vectorize, GUVectorize=ruchey.ufunc.GUVectorize), ()),
        # (where Numba defines them)
        "numba.np.ufunc.decorators": (dict(vectorize=ruchey.vectorize, guvectorize=ruchey.guvectorize,
                                           Vectorize=ruchey.ufunc.Vectorize, GUVectorize=ruchey.ufunc.GUVectorize), ()),
        "numba.np.ufunc.gufunc": (dict(GUFunc=numpy.ufunc), ()),  # ruchey's gufuncs are NumPy's
        "numba.np.ufunc.dufunc": (dict(DUFunc=ruchey.ufunc.DUFunc), ()),  # what @vectorize makes without signatures
        # where Numba's thread index was before numba.get_thread_id (pecanpy imports it from there)
        "numba.np.ufunc.parallel": (dict(get_thread_id=ruchey.get_thread_id, _get_thread_id=ruchey.get_thread_id), ()),
        "numba.parfors": ({}, ()),
        "numba.parfors.parfor": (dict(ensure_parallel_support=_ensure_parallel_support), ()),
        "numba.experimental": ({}, (ruchey.experimental,)),
        "numba.experimental.structref": ({}, (ruchey.structref,)),
        # the C wrapper's address of a compiled function (nucs' and cre's tables of functions called by address)
        "numba.experimental.function_type": (dict(_get_wrapper_address=ruchey.ccallback._get_wrapper_address), ()),
        # the package of Numba's jitclass (its name on numba.experimental is the decorator)
        "numba.experimental.jitclass": (dict(jitclass=ruchey.experimental.jitclass), ()),
        "numba.experimental.jitclass.base": (dict(JitClassType=ruchey.experimental.JitClassType), ()),
        # the class of what @cfunc makes, which packages check callbacks against (QuSpin's user_basis;
        # numba.ccallback before Numba 0.49)
        "numba.core.ccallback": (dict(CFunc=ruchey.ccallback.CFunc), ()),
        "numba.ccallback": (dict(CFunc=ruchey.ccallback.CFunc), ()),
        "numba.core.cgutils": (dict(get_or_insert_function=ruchey.intrinsics.get_or_insert_function,
                                    alloca_once=_values.alloca_once, unpack_tuple=_lowerings.unpack_tuple,
                                    create_struct_proxy=_values.create_struct_proxy, is_not_null=_values.is_not_null,
                                    alloca_once_value=_values.alloca_once_value),
                               (_CgutilsValues(),)),
        "numba.core.caching": (dict(NullCache=ruchey.caching.NullCache), ()),
        # pickling helpers packages call (dumps, is_serializable; disable_pickling and ReduceMixin of their types)
        "numba.core.serialize": (dict(dumps=ruchey.serialize.dumps, is_serializable=ruchey.serialize.is_serializable,
                                      disable_pickling=ruchey.serialize.disable_pickling, pickle=pickle,
                                      ReduceMixin=ruchey.serialize.ReduceMixin), ()),
        # Numba's own copy of cloudpickle (from numba.cloudpickle import dumps, loads), which keeps the attributes a
        # class pickled by value has in the process loading it again: ruchey.serialize's dumps, cloudpickle's rest
        "numba.cloudpickle": (dict(dumps=ruchey.serialize.dumps, loads=pickle.loads), _cloudpickle()),
        # where numba.objmode and numba.parallel_chunksize are defined, under their names there
        "numba.core.withcontexts": (dict(objmode_context=ruchey.objmode, parallel_chunksize=ruchey.parallel_chunksize), ()),
        # the Python running, which code for Numba compares (utils.PYVERSION >= (3, 12))
        "numba.core.utils": (dict(PYVERSION=sys.version_info[:2]), ()),
        "numba.cpython": ({}, ()),
        "numba.cpython.unsafe": ({}, ()),
        "numba.cpython.unsafe.tuple": (dict(tuple_setitem=ruchey.unsafe.tuple_setitem), ()),
        # the class of what @njit returns, for isinstance checks of functions as arguments
        "numba.core.registry": (dict(CPUDispatcher=_core.Dispatcher, cpu_target=_CpuTarget()), ()),
        "numba.core.dispatcher": (dict(Dispatcher=_core.Dispatcher), ()),  # the same, by its base class's name
        "numba.core.unsafe": ({}, ()),
        "numba.core.unsafe.nrt": (dict(NRT_get_api=ruchey.intrinsics.NRT_get_api), ()),
        "numba.core.runtime": ({}, ()),
        "numba.core.runtime.nrt": ({}, ()),
        "numba.core.runtime._nrt_python": (dict(c_helpers=_NrtHelpers()), ()),
        # (_already_initialized: the flag a package's tests reset to register again, as Numba's)
        "numba.core.entrypoints": (dict(init_all=init_all, _already_initialized=False), ()),
    }
    # numba-cuda's own homes of Numba's names (from numba.cuda import types; numba.cuda.extending,
    # whose overloads serve CUDA code alone)
    modules.update({f"numba.cuda.{name}": modules[f"numba.{numba_name}"] for name, numba_name in _CUDA_HOMES})
    names, sources = modules["numba.extending"]
    modules["numba.cuda.extending"] = (names | dict(overload=_cuda_overload), sources)
    return modules


# numba-cuda's modules holding what Numba's do: (its name under numba.cuda, Numba's under numba)
_CUDA_HOMES = (("types", "types"), ("core", "core"), ("core.errors", "core.errors"), ("core.config", "core.config"),
               ("np", "np"), ("np.numpy_support", "np.numpy_support"), ("typing", "core.typing"),
               ("typing.templates", "core.typing.templates"), ("typing.typeof", "core.typing.typeof"))


def _cuda_overload(func, *args, target="cuda", **kwargs):
    """numba.cuda.extending.overload: for CUDA code unless told otherwise."""
    return ruchey.extending.overload(func, *args, target=target, **kwargs)


def init_all():
    """Numba's numba.core.entrypoints.init_all: calls, once, each installed
    package's ``numba_extensions`` entry point named ``init`` (vector's
    register_numba, which makes its types known to compiled code). One
    that fails is a warning naming it, as Numba's."""
    import importlib.metadata
    module = importlib.import_module("numba.core.entrypoints")
    if module._already_initialized:
        return
    module._already_initialized = True  # (before loading: an extension may call init_all itself)
    found = importlib.metadata.entry_points()
    if hasattr(found, "select"):
        found = found.select(group="numba_extensions", name="init")
    else:  # a mapping of groups, as importlib_metadata's before 3.6 (and a package's tests' stand-ins)
        found = [e for e in found.get("numba_extensions", ()) if e.name == "init"]
    for entry_point in found:
        try:
            entry_point.load()()
        except Exception as exc:  # noqa: BLE001 - one package's failure leaves the others registered
            warnings.warn(f"Numba extension module '{entry_point.module}' failed to load due to "
                          f"'{type(exc).__name__}({exc})'.", stacklevel=2)


def _value_type_names():
    from ruchey import _templates, _values
    return dict(typeof_impl=_values.typeof_impl, as_numba_type=_values.as_numba_type,
                register_model=_values.register_model, models=_values.models,
                make_attribute_wrapper=_values.make_attribute_wrapper, unbox=_values.unbox, box=_values.box,
                NativeValue=_values.NativeValue, infer_getattr=_templates.infer_getattr)


class _NrtHelpers(collections.abc.Mapping):
    """numba.core.runtime._nrt_python.c_helpers: the addresses of the C
    functions Numba's table names, for C libraries handed them through
    ctypes (rocket-fft's rf_set_nrt_api(c_helpers["get_api"]())). "get_api"
    is lib/nrt.c's rt_nrt_api, which returns ruchey's NRT_api_functions
    table; Numba's other helpers (its MemInfo's internals) ruchey has not.
    Looked up when read, so that the runtime library loads then, not at
    install_as_numba()."""

    _SYMBOLS = {"get_api": "rt_nrt_api"}

    def __getitem__(self, name):
        from ruchey._helperlib import runtime_library
        return ctypes.cast(getattr(runtime_library(), self._SYMBOLS[name]), ctypes.c_void_p).value

    def __iter__(self):
        return iter(self._SYMBOLS)

    def __len__(self):
        return len(self._SYMBOLS)


class _CpuTarget:
    """numba.core.registry.cpu_target: packages read its contexts to make
    Numba set its CPU target up (numba-kdtree); ruchey's compiler needs no
    such step, so they are plain objects with nothing to use."""

    typing_context = target_context = type("CPUContext", (), {"__doc__": "ruchey's CPU target needs no context"})()


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds every numba.* module: those given above, and for the rest an
    empty module whose names are placeholders."""

    def find_spec(self, fullname, path, target=None):
        if fullname == "numba" or fullname.startswith("numba."):
            # located at this file, as Numba's modules are at theirs: packages read numba.__file__
            # (and find_spec("numba").origin) for the folder of Numba's files
            spec = importlib.machinery.ModuleSpec(fullname, self, origin=__file__, is_package=True)
            spec.has_location = True
            return spec
        return None

    def create_module(self, spec):
        if spec.name in ("numba.cuda", "numba.cuda.libdevice", "numba.cuda.random", "numba.cuda.cudadrv",
                         "numba.cuda.cudadrv.devicearray", "numba.cuda.cudadrv.driver", "numba.cuda.cudadrv.nvrtc",
                         "numba.cuda.launchconfig"):
            return importlib.import_module("ruchey" + spec.name[len("numba"):])
        names, sources = _SUBMODULES.get(spec.name, ({}, ()))
        if spec.name not in _SUBMODULES:
            _missing.append(spec.name)
        return _Module(spec.name, names, sources)

    def exec_module(self, module):
        if isinstance(module, _Module):
            module.__path__ = []
            if module.__name__ == "numba":
                module.types = importlib.import_module("numba.types")
                module.config = importlib.import_module("numba.config")
                module.core = importlib.import_module("numba.core")
                module.extending = importlib.import_module("numba.extending")
                module.np = importlib.import_module("numba.np")


_SUBMODULES = {}
# numba.extending's names for value types of a package's own (ruchey._values)
_VALUE_TYPES = {}


def install_as_numba():
    """Registers ruchey as ``numba`` in this process: later ``import numba``
    (and its submodules) get ruchey. Call it before importing the package
    that uses Numba. A numba already imported is replaced. Functions
    decorated from then on read a variable not assigned on the path taken
    as Numba's code does: as its type's zero (an array: an empty one),
    where Python raises UnboundLocalError."""
    if not _SUBMODULES:
        _SUBMODULES.update(_submodules())
    # code written for Numba may read a variable its path did not assign (scanpy's normalize_total
    # returns one): from now on such a read gives the type's zero, as under Numba
    _core._numba_semantics(True)
    for name in [m for m in sys.modules if m == "numba" or m.startswith("numba.")]:
        del sys.modules[name]
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
    numba = importlib.import_module("numba")
    init_all()
    return numba


def main(argv=None):
    """python -m ruchey.numba_shim script.py [args...] | -m module [args...]"""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: python -m ruchey.numba_shim script.py [args...] | -m module [args...]", file=sys.stderr)
        return 2
    install_as_numba()
    if argv[0] == "-m" and len(argv) > 1:
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
