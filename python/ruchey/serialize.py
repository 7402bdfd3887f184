"""Pickling compiled functions, for multiprocessing, joblib and Dask.

A compiled function (an ``@jit`` dispatcher or a ``@cuda.jit`` kernel)
pickles by reference where its module can be imported and holds it under
its name, as a plain function does. Otherwise (defined in ``__main__``,
inside another function, or by ``exec``) it pickles by value: its Python
function through cloudpickle, with its options; the receiver compiles it
again at its first call. A process that unpickles the same compiled
function many times (a worker running many tasks) gets one object, which
compiles once.

At its end, what ``numba.core.serialize`` gives packages written for Numba
(``dumps``, ``is_serializable``, ``disable_pickling``, ``ReduceMixin``).
"""
import functools
import importlib
import inspect
import linecache
import pickle
import sys
import threading
import weakref

# key -> the compiled function of that key in this process (made here, or
# rebuilt from a pickle)
_by_key = weakref.WeakValueDictionary()
# held while a function is rebuilt: one that names itself (recursion) is
# found under its key before it is complete, and no other thread sees it so
_lock = threading.RLock()
_classes = {}  # kind -> the class of the compiled functions of that kind


def register(kind, cls):
    """cls(func, **options) makes the compiled functions of this kind."""
    _classes[kind] = cls


def _importable_name(obj):
    """obj's qualified name if importing its module and following the name
    gives obj itself (never for __main__: a worker has another one)."""
    module, name = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if not module or not name or module == "__main__" or "<" in name:
        return None
    try:
        found = sys.modules.get(module) or importlib.import_module(module)
        for part in name.split("."):
            found = getattr(found, part)
    except Exception:  # noqa: BLE001 - whatever fails, it is not found by name
        return None
    return name if found is obj else None


def _key(obj):
    import uuid  # here, not at import: only pickling by value needs it
    with _lock:
        key = obj.__dict__.get("_ruchey_key")
        if key is None:
            key = obj.__dict__["_ruchey_key"] = uuid.uuid4().hex
            _by_key[key] = obj
    return key


def _function_bytes(func):
    try:
        import cloudpickle  # noqa: F401  (dumps pickles by value through it)
    except ImportError:
        raise pickle.PicklingError(
            f"{func.__qualname__} is compiled in __main__ or inside a function: pickling it by value "
            "needs cloudpickle (pip install cloudpickle); or define it at the top of an importable module"
        ) from None
    return dumps(func)


def _source_lines(func):
    """The lines of func's file up to the end of its definition, those
    before it blank (ruchey compiles from source; cloudpickle keeps the
    code, not its file name), or None where inspect finds no source."""
    try:
        block, first = inspect.getsourcelines(func)
    except (OSError, TypeError):
        return None
    return ["\n"] * (first - 1) + block


def _give_source(func, key, lines):
    """Where ruchey and inspect find func's source here: a file name of its own."""
    name = f"<pickled {key[:12]} {func.__qualname__}>"
    linecache.cache[name] = (sum(map(len, lines)), None, lines, name)
    func.__code__ = func.__code__.replace(co_filename=name)


def reduce(obj, kind, options):
    """obj's pickled form: its name, or what rebuilds it from its function."""
    name = _importable_name(obj)
    if name is not None:
        return name
    key = _key(obj)
    if obj.__dict__.get("_ruchey_pickling"):  # its function's globals name it again
        return _existing, (key,)
    obj.__dict__["_ruchey_pickling"] = True
    try:
        payload = _function_bytes(obj.py_func)
    finally:
        del obj.__dict__["_ruchey_pickling"]
    return _rebuild, (kind, key, payload, options, _source_lines(obj.py_func))


def _existing(key):
    return _by_key[key]


def reduce_remade(obj, remake, *args, func=None):
    """The pickled form of an object made from a Python function (a
    @vectorize or @guvectorize ufunc, func or else obj.py_func): its name
    where importable, else remake(its function, *args) in the receiver,
    which compiles its loops again."""
    name = _importable_name(obj)
    if name is not None:
        return name
    func = obj.py_func if func is None else func
    return _remade, (remake, _function_bytes(func), _source_lines(func), args)


def _remade(remake, payload, lines, args):
    import uuid
    func = pickle.loads(payload)
    if lines:
        _give_source(func, uuid.uuid4().hex, lines)
    return remake(func, *args)


def _rebuild(kind, key, payload, options, lines):
    with _lock:
        obj = _by_key.get(key)
        if obj is not None:
            return obj
        # made first from a stand-in, so that the function's own pickle,
        # which may name it again, finds it under its key
        obj = _classes[kind](_stand_in, **options)
        obj.__dict__["_ruchey_key"] = key
        _by_key[key] = obj
        func = pickle.loads(payload)
        if lines:
            _give_source(func, key, lines)
        obj.__init__(func, **options)
        functools.update_wrapper(obj, func)
        obj.__dict__["_ruchey_options"] = options  # sent again if it is pickled again
        return obj


def _stand_in():
    pass


# ---------------------------------------------------------------- numba.core.serialize's helpers

_not_pickled = set()  # the classes disable_pickling named


def disable_pickling(cls):
    """numba.core.serialize.disable_pickling: dumps() and is_serializable()
    refuse cls's instances (a package marks its compiled-code-only values
    so). Returns cls, to decorate it."""
    _not_pickled.add(cls)
    return cls


def _pickler_class():
    try:
        import cloudpickle
        from cloudpickle import CloudPickler as base
    except ImportError:
        cloudpickle, base = None, pickle.Pickler
    # the state setter cloudpickle gives a class it pickles by value (its attributes)
    class_setstate = getattr(getattr(cloudpickle, "cloudpickle", None), "_class_setstate", None)

    class Pickler(base):
        def reducer_override(self, obj):
            if type(obj) in _not_pickled:
                raise pickle.PicklingError(f"{type(obj).__name__} objects are not picklable")
            reduced = super().reducer_override(obj) if hasattr(base, "reducer_override") else NotImplemented
            if isinstance(obj, type) and isinstance(reduced, tuple) and len(reduced) == 6 \
                    and class_setstate is not None and reduced[5] is class_setstate:
                _known_classes.add(obj)
                make, args, state, items, dict_items, _ = reduced
                return _dynamic_class, (make, args), state, items, dict_items, _set_class_state
            return reduced
    return Pickler


# the classes pickled by value that this process has (pickled from here, or made by an unpickling), and
# those an unpickling found already here, whose attributes stay as this process has set them since
_known_classes = weakref.WeakSet()
_reused_classes = weakref.WeakSet()


def _dynamic_class(make, args):
    """The class cloudpickle's skeleton maker gives: a new one, or the one
    this process already has under the id the pickle carries."""
    cls = make(*args)
    if cls in _known_classes:
        _reused_classes.add(cls)
    _known_classes.add(cls)
    return cls


def _set_class_state(cls, state):
    """cloudpickle's setting of the attributes, except on a class already
    here: loading a pickle made before ``Klass.x = 100`` leaves 100 (as
    numba.core.serialize's own cloudpickle does), where cloudpickle's would
    set the pickled value again."""
    if cls not in _reused_classes:
        import cloudpickle
        cloudpickle.cloudpickle._class_setstate(cls, state)
    return cls


def dumps(obj):
    """numba.core.serialize.dumps: obj pickled, by value where cloudpickle
    is installed and obj is not importable (functions and classes of
    __main__ or a function's scope), protocol 4 as Numba's."""
    import io
    with io.BytesIO() as buf:
        _pickler_class()(buf, protocol=4).dump(obj)
        return buf.getvalue()


def is_serializable(obj):
    """numba.core.serialize.is_serializable: whether dumps() takes obj."""
    try:
        dumps(obj)
    except Exception:  # noqa: BLE001 - whatever fails, it does not pickle
        return False
    return True


class ReduceMixin:
    """numba.core.serialize.ReduceMixin: a class pickled as its
    _reduce_states() (a dict), rebuilt by its class's _rebuild(**states)."""

    def _reduce_states(self):
        raise NotImplementedError

    @classmethod
    def _rebuild(cls, **kwargs):
        raise NotImplementedError

    def _reduce_class(self):
        return self.__class__

    def __reduce__(self):
        return _rebuilt, (self._reduce_class(), self._reduce_states())


def _rebuilt(cls, states):
    return cls._rebuild(**states)
