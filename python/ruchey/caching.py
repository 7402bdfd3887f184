"""cache=True: compiled machine code kept on disk, loaded by later processes.

As Numba's cache: beside the source file, in its ``__pycache__`` folder, an
index per function (``<module>.<qualname>-<line>.py311.rbi``) records the
source file's modification time and size, and under which key each
specialisation's code was saved (``<...>.<key>.rbc``). The key covers what
the code was made from: the function's bytecode, constants, defaults and
the global values it reads (frozen at compile time), the same of every
compiled function it calls (their code is in its object file) with the
modification time of each one's source file, the argument types,
the options (for a kernel's PTX, the compute capability and CUDA's
libdevice), ruchey's build, NumPy's version, LLVM's version and the host
CPU with its features; for a function of ruchey.extending it calls, the
code of its typing functions (and so of the implementations they return),
and, where an argument is a package's value type, of every overload of an
operator (``overload(operator.add)``). Any change makes a miss: the
function compiles and its code is saved again. A damaged or truncated
file is a miss too.

Where the source folder cannot be written, the code goes to the user's
cache folder (``$XDG_CACHE_HOME/ruchey`` or ``~/.cache/ruchey``);
``RUCHEY_CACHE_DIR`` (or ``NUMBA_CACHE_DIR``) names another root. Functions
without a source file (typed at the prompt, made by ``exec``) and those
reading a global value the key cannot describe are compiled in each process,
as is code referring to this process's Python objects (an ``objmode`` block,
a jitclass or structref result): those warn once (RuntimeWarning), as Numba
warns that it cannot cache.
Files are written under a temporary name and renamed, so processes saving
at once never leave a partial file.
"""
import collections
import enum
import hashlib
import marshal
import os
import sys
import types
import warnings
import zipfile

from ruchey import _core, config

_MAGIC = b"RUCHEYC2"
_INDEX_VERSION = 1


class _Uncacheable(Exception):
    """A value the key cannot describe: the function is not cached."""


class _DeviceArrayCaptured(_Uncacheable):
    """A device array a kernel reads as a global or closure variable: its
    address is this process's, which no other may use."""


CAPTURED_DEVICE_ARRAY = ("Cannot serialize kernels or device functions referencing global device arrays. Pass the "
                         "array(s) as arguments to the kernel instead.")  # (numba-cuda's words)


# ---------------------------------------------------------------- the key

def _code_names(code, names):
    names.update(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _code_names(const, names)


def _code_digest(code, h):
    h.update(code.co_code)
    h.update(repr((code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars, code.co_argcount,
                   code.co_flags, code.co_firstlineno)).encode())
    h.update(getattr(code, "co_linetable", b"") or b"")
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _code_digest(const, h)
        elif isinstance(const, frozenset):
            h.update(repr(sorted(map(repr, const))).encode())
        else:
            h.update(repr((type(const).__name__, const)).encode())


def _is_dispatcher(value):
    return isinstance(value, _core.Dispatcher)


# modules whose contents change only with their version (NumPy's is in the
# key): their attributes are not described, only those that ruchey.extending
# registered
_LIBRARIES = {"numpy", "math", "cmath", "builtins", "operator", "ruchey", "scipy"}


def _describe(value, names, seen):
    """What compiled code may take from a global value; _Uncacheable for one
    the key cannot describe."""
    if isinstance(value, enum.Enum):  # frozen as its value: its class's members in the key
        return ("member", _describe(type(value), names, seen), value._name_)
    if isinstance(value, type) and issubclass(value, enum.Enum):
        return ("enum", value.__module__, value.__qualname__,
                tuple((name, _describe(m._value_, names, seen)) for name, m in value.__members__.items()))
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return (type(value).__name__, repr(value))
    extending = sys.modules.get("ruchey.extending")
    registered = extending and extending._registered_key(value, seen, _function_key, _dispatcher_key)
    if registered:  # a call binds by the function's own parameters: its defaults too
        return registered + (_describe(getattr(value, "__defaults__", None), names, seen),)
    if isinstance(value, tuple):
        return ("tuple",) + tuple(_describe(v, names, seen) for v in value)
    if _is_dispatcher(value):
        return _dispatcher_key(value, seen)
    if isinstance(value, types.ModuleType):
        return _module_key(value, names, seen)
    ruchey_types = sys.modules.get("ruchey.types")
    # ruchey's own types (numba.uint32 read from the module, numba.float64[:]): interned, as their description
    if ruchey_types and isinstance(value, ruchey_types.Type) and not isinstance(value.kind, str):
        return ("type", repr(value.describe()))
    if isinstance(value, type) or isinstance(value, (types.BuiltinFunctionType, types.BuiltinMethodType)):
        return ("object", getattr(value, "__module__", None), getattr(value, "__qualname__", repr(value)))
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        if isinstance(value, numpy.ndarray):
            data = numpy.ascontiguousarray(value)
            return ("array", data.dtype.str, data.shape, hashlib.sha256(data.tobytes()).hexdigest())
        if isinstance(value, numpy.generic):
            return ("scalar", value.dtype.str, value.tobytes().hex())
        if isinstance(value, numpy.dtype):
            return ("dtype", value.str)
        if isinstance(value, numpy.ufunc) and getattr(numpy, value.__name__, None) is value:
            return ("ufunc", value.__name__)  # NumPy's own, not one @vectorize made
    if _library_object(value):
        return ("object", value.__module__, value.__qualname__)
    if isinstance(value, types.FunctionType):
        return ("function", value.__qualname__, _function_key(value, seen))
    intrinsics = sys.modules.get("ruchey.intrinsics")
    if intrinsics and isinstance(value, intrinsics.Intrinsic) and _importable(value):
        # its IR is in the cached object code: the key holds the typing function and the codegen it nests
        return ("intrinsic", value.__module__, value.__qualname__, value._prefer_literal,
                _function_key(value._typer, seen))
    if hasattr(value, "__ruchey_captured__") or getattr(value, "__cuda_array_interface__", None) is not None:
        raise _DeviceArrayCaptured(type(value).__qualname__)
    raise _Uncacheable(type(value).__qualname__)


def refuse_captured_device_arrays(py_func):
    """pickle.PicklingError where py_func (a kernel with cache=True) or a function it
    calls reads a device array from a global or closure variable, as numba-cuda
    refuses to cache it: the array's address would be stale in another process."""
    try:
        _function_key(py_func, set())
    except _DeviceArrayCaptured:
        import pickle
        raise pickle.PicklingError(CAPTURED_DEVICE_ARRAY) from None
    except _Uncacheable:  # (compiled in each process: the cache warns)
        pass


def _importable(value, module=None):
    """Whether value is found under its own name in its own module (or in
    module): as Numba caches a function calling an @intrinsic, one made
    inside a function being this process's alone."""
    found = sys.modules.get(module or getattr(value, "__module__", None) or "")
    try:
        for part in value.__qualname__.split("."):
            found = getattr(found, part)
    except AttributeError:
        return False
    return found is value


def _library_object(value):
    """Whether value is a library's (NumPy's numpy.sum): found under its own
    name in its own module, one of _LIBRARIES."""
    module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if isinstance(value, types.MethodType):  # numpy.random.rand: a method of the module's generator
        module = getattr(type(value.__self__), "__module__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or module.partition(".")[0] not in _LIBRARIES:
        return False
    return isinstance(value, types.MethodType) or _importable(value, module)


def _module_key(module, names, seen):
    """A module the code reads attributes of: a library by its name (and
    what ruchey.extending registered in it), another module by each of its
    attributes the code may name."""
    if id(module) in seen:
        return ("module", module.__name__)
    seen.add(id(module))
    library = module.__name__.partition(".")[0] in _LIBRARIES
    extending = sys.modules.get("ruchey.extending")
    if library and not extending:
        return ("module", module.__name__)
    attrs = []
    present = set(dir(module))  # a name not listed is not probed: numba_shim's modules would make it up
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecated NumPy names
        for name in sorted(names & present):
            try:
                value = getattr(module, name)
            except Exception:  # noqa: BLE001 - not an attribute of this module
                continue
            if library:
                registered = extending._registered_key(value, seen, _function_key, _dispatcher_key)
                if registered:
                    attrs.append((name, registered))
            else:
                attrs.append((name, _describe(value, names, seen)))
    return ("module", module.__name__, tuple(attrs))


def _function_key(func, seen):
    """A Python function's bytecode and the global and closure values it reads."""
    if id(func) in seen:
        return ("recursive", func.__qualname__)
    seen.add(id(func))
    code = func.__code__
    h = hashlib.sha256()
    _code_digest(code, h)
    # ruchey compiles from source: an edit the bytecode does not show (a
    # local's annotation) still changes the file
    h.update(repr(_stamp(code.co_filename)).encode())
    names = set()
    _code_names(code, names)
    glob = func.__globals__
    builtins = glob.get("__builtins__", {})
    builtins = builtins if isinstance(builtins, dict) else vars(builtins)
    found = []
    for name in sorted(names):
        if name in glob:
            found.append((name, _describe(glob[name], names, seen)))
        elif name in builtins:
            found.append((name, _describe(builtins[name], names, seen)))
    # a call that leaves out an argument compiles in the default, which the
    # function object holds, not its code
    found.append(("defaults", _describe(func.__defaults__, names, seen),
                  _describe(tuple(sorted((func.__kwdefaults__ or {}).items())), names, seen)))
    for name, cell in zip(code.co_freevars, func.__closure__ or ()):
        try:
            found.append((name, _describe(cell.cell_contents, names, seen)))
        except ValueError:  # an empty cell
            found.append((name, "empty"))
    extending = sys.modules.get("ruchey.extending")
    if extending:  # methods and attributes registered under names the code reads
        found.append(("members", extending._members_key(names, seen, _function_key)))
    h.update(repr(found).encode())
    return h.hexdigest()


def _dispatcher_key(disp, seen):
    options = tuple(sorted(disp.__dict__.get("_ruchey_options", {}).items()))
    return ("jit", disp.py_func.__qualname__, options, _function_key(disp.py_func, seen))


_build = None


def _build_key():
    """What the code depends on beyond the function: ruchey's build, NumPy,
    LLVM and the host CPU."""
    global _build
    if _build is None:
        import numpy
        here = os.path.dirname(_core.__file__)
        files = []
        for name in (os.path.basename(_core.__file__), "libruchey_rt.so", "libruchey.so"):
            try:
                st = os.stat(os.path.join(here, name))
                files.append((name, st.st_mtime_ns, st.st_size))
            except OSError:
                files.append((name, None, None))
        _build = repr((sys.modules["ruchey"].__version__, tuple(files), numpy.__version__, _core._host_key()))
    return _build


def _ptx_target(target):
    """A kernel's PTX key beyond the CPU code's: the compute capability
    (C's ("ptx", cc); LLVM's version, in _build_key, sets the PTX version)
    and the libdevice its math functions were linked from, found where the
    compiler finds it ($CUDA_HOME, then /usr/local/cuda)."""
    for home in (os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        stamp = home and _stamp(os.path.join(home, "nvvm", "libdevice", "libdevice.10.bc"))
        if stamp:
            return target + (stamp,)
    return target


# ---------------------------------------------------------------- files

def _user_cache_root():
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(root, "ruchey")


def _usable(folder):
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    return os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK)


_folders = {}  # (source folder, cache root) -> the folder found for them


def _folder_for(source):
    """Where a source file's functions keep their code, as Numba chooses:
    the cache root named in the environment, else __pycache__ beside the
    source, else the user's cache folder; None if none can be written.
    Found once per folder: a module's functions share it."""
    here = os.path.dirname(os.path.abspath(source))
    root = config.CACHE_DIR or os.environ.get("RUCHEY_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")
    if (here, root) not in _folders:
        mirrored = here.lstrip(os.sep)
        if root:
            candidates = [os.path.join(root, mirrored)]
        else:
            candidates = [os.path.join(here, "__pycache__"), os.path.join(_user_cache_root(), mirrored)]
        _folders[here, root] = next((folder for folder in candidates if _usable(folder)), None)
    return _folders[here, root]


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _write(path, data):
    """Written under a temporary name, then renamed: readers see the whole
    file or the one before."""
    tmp = f"{path}.{os.getpid()}.{id(data):x}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False


def _archive_of(source):
    """The zip archive a module imported from one (by zipimport) has its
    source file in: a source path names a file inside it
    (app.zip/pkg/mod.py); None for any other path."""
    path = os.path.abspath(source)
    while True:
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent
        if os.path.isfile(path):
            return path if zipfile.is_zipfile(path) else None


def _stamp(source):
    """A source file's modification time and size; of its archive for a
    module imported from a zip (a new archive makes its code stale)."""
    try:
        st = os.stat(source)
    except OSError:
        archive = _archive_of(source)
        if archive is None:
            return None
        try:
            st = os.stat(archive)
        except OSError:
            return None
    return (st.st_mtime_ns, st.st_size)


def _class_of(symbol):
    """The exception class cached code names by symbol, if this process's
    class of that name is the one the symbol means."""
    if not symbol.startswith("exc:") or "#" in symbol:
        return None
    dotted = symbol[4:]
    parts = dotted.split(".")
    for i in range(len(parts) - 1, 0, -1):
        found = sys.modules.get(".".join(parts[:i]))
        if found is None:
            continue
        try:
            for part in parts[i:]:
                found = getattr(found, part)
        except AttributeError:
            return None
        if isinstance(found, type) and _core._class_symbol(found) == symbol:
            return found
        return None
    return None


class FunctionCache:
    """A compiled function's code on disk (the dispatcher's ``_cache``);
    the dispatcher calls load() on each new signature, save() after it
    compiled one, and hit() or miss() to count."""

    def __init__(self, py_func, options):
        self.py_func = py_func
        # (a function decorated after install_as_numba() has Numba's readings: other code)
        self.options = tuple(sorted(options.items())) + (("numba_semantics", _core._numba_semantics()),)
        self.hits = collections.Counter()
        self.misses = collections.Counter()
        self._prefix = False  # not yet located
        self._uncacheable = None  # why the key could not be made, once it could not
        self._warned = False

    def _path_prefix(self):
        if self._prefix is False:
            self._prefix = None
            code = self.py_func.__code__
            source = code.co_filename
            # (a module in a zip archive: the folder beside it cannot be written, so the user's cache folder)
            if os.path.isfile(source) or _archive_of(source):
                folder = _folder_for(source)
                if folder:
                    stem = os.path.splitext(os.path.basename(source))[0]
                    name = self.py_func.__qualname__.replace("<", "").replace(">", "")
                    self._prefix = os.path.join(
                        folder, f"{stem}.{name}-{code.co_firstlineno}.py{sys.version_info[0]}{sys.version_info[1]}")
        return self._prefix

    @property
    def cache_path(self):
        prefix = self._path_prefix()
        return os.path.dirname(prefix) if prefix else None

    def _key(self, signature):
        extending = sys.modules.get("ruchey.extending")
        try:
            fingerprint = _function_key(self.py_func, set())
            # a package's value type among the arguments: its operators
            # (a + b) are the package's overloads, which no name in the code reaches
            if extending and extending._names_value_type(signature[0]):
                fingerprint = (fingerprint, extending._operators_key(set(), _function_key))
        except _Uncacheable as exc:
            self._uncacheable = f"it reads a global value of type {exc}, which the cache's key cannot describe"
            return None
        target = _ptx_target(signature[2]) if isinstance(signature[2], tuple) else None
        text = repr((signature, self.options, fingerprint, _build_key(), target))
        return hashlib.sha256(text.encode()).hexdigest()

    def _index(self, prefix):
        """The index's entries (key -> file) for the source as it is now,
        and those of an index made for another version of it."""
        stamp = _stamp(self.py_func.__code__.co_filename)
        data = _read(prefix + ".rbi")
        try:
            version, saved_stamp, entries = marshal.loads(data)
            if version == _INDEX_VERSION and isinstance(entries, dict):
                return (entries, {}) if saved_stamp == stamp else ({}, entries)
        except Exception:  # noqa: BLE001 - missing or damaged: as if empty
            pass
        return {}, {}

    def load(self, signature):
        """(symbol, object code, externs, return type, warning, uses BLAS,
        a kernel's barrier) saved for this signature, or None."""
        prefix = self._path_prefix()
        key = prefix and self._key(signature)
        if not key:
            return None
        entries, _ = self._index(prefix)
        name = entries.get(key)
        data = _read(os.path.join(os.path.dirname(prefix), name)) if isinstance(name, str) else None
        if not data or data[:len(_MAGIC)] != _MAGIC:
            return None
        digest, payload = data[len(_MAGIC):len(_MAGIC) + 32], data[len(_MAGIC) + 32:]
        if hashlib.sha256(payload).digest() != digest:
            return None
        try:
            saved_key, symbol, obj, externs, ret, warning, blas, barrier = marshal.loads(payload)
        except Exception:  # noqa: BLE001 - damaged
            return None
        # (code this process holds already, a module imported again: ruchey's loader maps each load apart;
        # where the JIT's loads it instead, the symbol it defines already is a failed load, then compiled)
        if saved_key != key:
            return None
        classes = tuple((name, _class_of(name)) for name in externs)
        if any(cls is None for _, cls in classes):
            return None
        return (symbol, obj, classes, ret, warning, blas, barrier)

    def save(self, signature, symbol, obj, externs, ret, warning, blas, barrier):
        prefix = self._path_prefix()
        key = prefix and self._key(signature)
        if prefix and not key:
            return self.not_kept(signature, self._uncacheable, stacklevel=3)
        held = [name for name, cls in externs if _class_of(name) is not cls]
        if not key or held:
            return held and self.not_kept(signature, f"its code refers to {held[0]}, a Python object of this "
                                          "process, by address", stacklevel=3)
        payload = marshal.dumps((key, symbol, obj, tuple(name for name, _ in externs), ret, warning, bool(blas),
                                 bool(barrier)))
        name = f"{os.path.basename(prefix)}.{key[:20]}.rbc"
        folder = os.path.dirname(prefix)
        if not _usable(folder):  # found at the first load; removed since
            return
        if not _write(os.path.join(folder, name), _MAGIC + hashlib.sha256(payload).digest() + payload):
            return
        entries, stale = self._index(prefix)
        for old in set(stale.values()) - {name}:  # code of an older version of the source
            try:
                os.unlink(os.path.join(folder, old))
            except (OSError, TypeError, ValueError):
                pass
        entries[key] = name
        stamp = _stamp(self.py_func.__code__.co_filename)
        _write(prefix + ".rbi", marshal.dumps((_INDEX_VERSION, stamp, entries)))

    def not_kept(self, signature, reason, stacklevel=2):
        """Warns, once for the function, that its code is compiled in each
        process, not cached, and why (as Numba warns that it cannot cache);
        stacklevel: the caller's frame, past the save() that found it."""
        if not self._warned:
            self._warned = True
            warnings.warn(f"cannot cache {self.py_func.__qualname__} (cache=True): {reason}; it is compiled in each "
                          "process", RuntimeWarning, stacklevel=stacklevel)

    def hit(self, signature):
        self.hits[signature[0]] += 1

    def miss(self, signature):
        self.misses[signature[0]] += 1


class NullCache:
    """A dispatcher's ``_cache`` that keeps nothing (Numba's
    ``numba.core.caching.NullCache``): a package that sets it turns caching
    off for that function, which then compiles in each process."""

    cache_path = None

    def load(self, signature):
        return None

    def save(self, *entry):
        pass

    def not_kept(self, signature, reason, stacklevel=2):  # turned off on purpose: nothing to tell
        pass

    def hit(self, signature):
        pass

    def miss(self, signature):
        pass
