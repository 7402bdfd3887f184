"""The attributes of a compiled function that Numba users read beside
calling it, where speed does not matter (the dispatcher's C type finds them
here): ``stats``, ``overloads``, ``nopython_signatures``,
``inspect_types()``, ``parallel_diagnostics()``, ``compile()`` and ``signatures``.
``inspect_llvm()``, ``inspect_asm()`` and ``recompile()`` are the C type's own.
"""
import ast
import collections
import inspect
import sys
import textwrap

from ruchey import _core

Stats = collections.namedtuple("Stats", ("cache_path", "cache_hits", "cache_misses"))
# what Dispatcher.overloads holds per signature: Numba's compile result, its
# parts that a program reads
CompileResult = collections.namedtuple("CompileResult", ("signature", "entry_point", "argtypes", "return_type"))


class Signature(collections.namedtuple("Signature", ("args", "return_type"))):
    """A compiled signature: the argument types and the return type."""

    def __repr__(self):
        return f"{self.return_type!r}({', '.join(map(repr, self.args))})"


class ArgTypes(tuple):
    """A compiled signature's argument types, as Numba's ``signatures``
    lists them: a tuple of types. It also equals, and hashes as, its text
    ``"(int64, float64)"``, the keys of ``inspect_llvm()``."""

    def __new__(cls, items, text):
        self = super().__new__(cls, items)
        self._text = text
        return self

    def __eq__(self, other):
        if isinstance(other, str):
            return self._text == other
        return tuple.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._text)

    def __repr__(self):
        return self._text

    __str__ = __repr__


def signature_text(argtypes):
    """A tuple of argument types spelt as the compiled signatures' texts are: "(int64, float64)"."""
    return "(" + ", ".join(map(str, argtypes)) + ("," if len(argtypes) == 1 else "") + ")"


class BySignature(dict):
    """What a dict of results per compiled signature (inspect_llvm()'s) is, keyed by
    their texts: a tuple of types finds its entry too, as in Numba, whose keys they are."""

    def __missing__(self, key):
        if isinstance(key, tuple) and not isinstance(key, ArgTypes) and dict.__contains__(self, signature_text(key)):
            return self[signature_text(key)]
        raise KeyError(key)

    def __contains__(self, key):
        if isinstance(key, tuple) and not isinstance(key, ArgTypes):
            key = signature_text(key)
        return dict.__contains__(self, key)

    def get(self, key, default=None):
        return self[key] if key in self else default


class CompiledSignature(ArgTypes):
    """A compile result's signature: its ArgTypes, with Numba's ``args`` and
    ``return_type`` (``f.overloads[sig].signature.return_type``)."""

    def __new__(cls, items, text, return_type):
        self = super().__new__(cls, items, text)
        self.return_type = return_type
        return self

    @property
    def args(self):
        return tuple(self)


def _type_of(desc):
    from ruchey import extending, types
    if isinstance(desc, tuple) and desc[0] == "literal":  # an argument literally() froze: its literal type
        return types.literal(desc[1])
    if isinstance(desc, tuple) and desc[0] == "namedtuple":  # a package's value type: its own type object
        return extending._named_values.get(desc[1]) or types.NamedTupleType([_type_of(d) for d in desc[2]], desc[1])
    if isinstance(desc, tuple):
        return types.described_type(desc)
    if isinstance(desc, list):
        items = [_type_of(d) for d in desc]
        if any(isinstance(t, _Named) for t in items):  # (a record among them: the tuple by its name too)
            return _Named(f"({', '.join(map(str, items))}{',' if len(items) == 1 else ''})")
        return types.TupleType(items)
    if desc == "none":
        return types.none
    return types._type_named(desc) or _Named(desc)


class _Named(str):
    """A type ruchey.types has no object for, by its name."""

    def __repr__(self):
        return str(self)


def stats(disp):
    """The on-disk cache's path and its hits and misses per signature
    (empty without ``cache=True``)."""
    cache = disp.__dict__.get("_cache")
    if cache is None:
        return Stats(None, collections.Counter(), collections.Counter())
    return Stats(cache.cache_path, collections.Counter(cache.hits), collections.Counter(cache.misses))


def signatures(disp):
    """The argument types of each compiled specialisation (ArgTypes)."""
    return [ArgTypes(map(_type_of, args), sig) for sig, _, args, _ in disp._entries()]


class Overloads(dict):
    """Dispatcher.overloads: ArgTypes -> compile result, found by a tuple of
    types too (``f.overloads[(int32, int32)]``, as in Numba), which equals
    its ArgTypes key but hashes otherwise (an ArgTypes hashes as its text)."""

    def _key(self, key):
        return next((k for k in self if k == key), None)

    def __missing__(self, key):
        found = self._key(key)
        if found is None:
            raise KeyError(key)
        return dict.__getitem__(self, found)

    def __contains__(self, key):
        return dict.__contains__(self, key) or self._key(key) is not None

    def get(self, key, default=None):
        return self[key] if key in self else default


class EntryPoint(int):
    """A compiled signature's entry point: the machine code's address, and
    callable as Numba's (``overloads[sig].entry_point(*args)``): that
    signature run on args converted to its types (a tuple of another length
    is Numba's ValueError, another type a TypeError)."""

    def __new__(cls, address, disp, index):
        self = super().__new__(cls, address)
        self._disp, self._index = disp, index
        # named as the function it runs, as Numba's entry point (a function of that module and name) is
        py_func = getattr(disp, "py_func", None)
        for name in ("__module__", "__name__", "__qualname__"):
            if hasattr(py_func, name):
                setattr(self, name, getattr(py_func, name))
        return self

    def __call__(self, *args):
        return self._disp._call_entry(self._index, args)

    def __reduce__(self):  # the address alone: this process's
        return int, (int(self),)


def overloads(disp):
    """signature (ArgTypes) -> its compile result (signature, entry_point:
    the machine code's address, callable; argtypes, return_type)."""
    result = Overloads()
    for index, (sig, entry, args, ret) in enumerate(disp._entries()):
        argtypes, ret = tuple(map(_type_of, args)), _type_of(ret)
        result[ArgTypes(argtypes, sig)] = CompileResult(CompiledSignature(argtypes, sig, ret),
                                                        EntryPoint(entry, disp, index), argtypes, ret)
    return result


def nopython_signatures(disp):
    """Every compiled signature, all of them nopython (ruchey has no object mode)."""
    return [Signature(tuple(map(_type_of, args)), _type_of(ret)) for _, _, args, ret in disp._entries()]


def inspect_sass(disp, signature=None):
    """A compiled function's SASS: a kernel's is its CUDADispatcher's; a
    cuda.jit(device=True) function has none of its own (numba-cuda's
    RuntimeError), nor has an @njit function."""
    if disp._cuda_device:
        raise RuntimeError("Cannot inspect SASS of a device function")
    raise TypeError(f"{disp.py_func!r} is not a kernel: only a kernel's GPU code has SASS")


def compile(disp, sig):  # noqa: A001 (Numba's method name)
    """Compiles the signature sig now (its text, a tuple of argument types
    or a Signature), as Numba's Dispatcher.compile(sig); returns what to
    call: the dispatcher, which holds that specialisation from then on."""
    from ruchey.decorators import _compile_signatures
    return _compile_signatures(disp, [sig])


# numba-cuda's function descriptor of a device function's compile result: mangled_name is the name its GPU code
# (inspect_llvm(), inspect_asm()) defines it by
FunctionDescriptor = collections.namedtuple("FunctionDescriptor", ("qualname", "modname", "mangled_name", "argtypes",
                                                                   "restype"))


class DeviceCompileResult(CompileResult):
    """A cuda.jit(device=True) function's compile result, with numba-cuda's ``fndesc``."""

    @property
    def fndesc(self):
        func = self.entry_point._disp.py_func
        return FunctionDescriptor(func.__qualname__, func.__module__, func.__code__.co_name, self.argtypes,
                                  self.return_type)


def compile_device(disp, args, return_type=None):
    """numba-cuda's compile_device(args, return_type=None): a
    cuda.jit(device=True) function compiled now for the argument types args
    (its result converted to return_type where given); its compile result."""
    if not disp._cuda_device:
        raise TypeError(f"{disp.py_func.__qualname__} is not a cuda.jit(device=True) function: compile_device "
                        "compiles device functions")
    args = tuple(args)
    compile(disp, return_type(*args) if return_type is not None else args)
    return DeviceCompileResult(*next(result for sig, result in overloads(disp).items() if sig == args))


def _describable(args):
    return all(isinstance(a, tuple) for a in args)


def _unliteral(args):
    """The argument types of an _entries() row, those literally() froze as their plain types."""
    return tuple(a[2] if isinstance(a, tuple) and a[0] == "literal" else a for a in args)


def _chosen(disp, signature):
    rows = disp._entries()
    if signature is None:
        return rows
    wanted = str(signature)
    chosen = [row for row in rows if row[0] == wanted or repr(Signature(tuple(map(_type_of, row[2])), None).args)
              == repr(signature)]
    if not chosen:
        raise ValueError(f"{disp.py_func.__qualname__} has no compiled signature {signature!r}; "
                         f"compiled: {[row[0] for row in rows]}")
    return chosen


def _source(func):
    """(first line number, the function's source lines), or None."""
    try:
        lines, first = inspect.getsourcelines(func)
    except (OSError, TypeError):
        return None
    return first, lines


def _names_by_line(lines, first):
    """line number -> the names the line's code reads or writes, in order."""
    try:
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except SyntaxError:
        return {}
    found = collections.defaultdict(list)
    for node in ast.walk(tree):
        name = node.id if isinstance(node, ast.Name) else node.arg if isinstance(node, ast.arg) else None
        if name is not None and name not in found[node.lineno]:
            found[node.lineno].append(name)
    return {first + line - 1: names for line, names in found.items()}


def inspect_types(disp, file=None, signature=None, pretty=False, kernel=False, **kwargs):
    """Print the function's source for each compiled signature, each line
    annotated with the types of the variables it names (kernel: a CUDA
    kernel's)."""
    out = file or sys.stdout
    func = disp.py_func
    source = _source(func)
    parallel = bool(disp.__dict__.get("_ruchey_options", {}).get("parallel"))
    for sig, _, args, ret in _chosen(disp, signature):
        args = _unliteral(args)
        print(f"{func.__qualname__} {sig}", file=out)
        print("-" * 80, file=out)
        if not _describable(args):
            print("# (these argument types cannot be inspected)", file=out)
            continue
        variables, ret_name = _core._typed_variables(func, tuple(args), parallel, kernel)
        typed = dict(variables)
        if source is None:
            for name, type_name in variables:
                print(f"# {name}: {type_name}", file=out)
        else:
            first, lines = source
            print(f"# File: {func.__code__.co_filename}", file=out)
            names = _names_by_line(lines, first)
            width = min(max(len(line.rstrip()) for line in lines), 72) + 2
            for number, line in enumerate(lines, first):
                text = line.rstrip()
                here = [f"{n}: {typed[n]}" for n in names.get(number, ()) if n in typed]
                print(f"{text:<{width}}# {', '.join(here)}" if here else text, file=out)
        print(f"# return type: {ret_name}", file=out)
        print("=" * 80, file=out)


class TypeAnnotation:
    """The types a compile gave a function's variables, as Numba's type
    annotation holds them: ``typemap`` maps each variable's name to its
    type (a ruchey type, or its name where ruchey.types has no object for
    it)."""

    def __init__(self, disp, signature, kernel=False):
        (_, _, args, _), = _chosen(disp, signature)
        args = _unliteral(args)
        if not _describable(args):
            raise TypeError(f"the variables of {disp.py_func.__qualname__} compiled for {signature} cannot be "
                            "inspected")
        parallel = bool(disp.__dict__.get("_ruchey_options", {}).get("parallel"))
        variables, _ = _core._typed_variables(disp.py_func, tuple(args), parallel, kernel)
        self.typemap = {name: _type_of(type_name) for name, type_name in variables}

    def __repr__(self):
        return f"<TypeAnnotation {self.typemap!r}>"


def _loop_lines(func):
    """The line number of each for loop, in the order the compiler meets
    them (the source's order, outer loops before inner ones)."""
    source = _source(func)
    if source is None:
        return None, None
    first, lines = source
    try:
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except SyntaxError:
        return None, None
    found = []

    def visit(node):
        if isinstance(node, ast.For):
            found.append(first + node.lineno - 1)
        for child in ast.iter_child_nodes(node):
            visit(child)
    visit(tree)
    return found, {first + i: line.strip() for i, line in enumerate(lines)}


def _loops(text):
    """The analyses' text as one entry per loop: (deferrable?, prange line or None)."""
    loops = []
    for line in text.splitlines():
        if line == "loop" or line.startswith("deferrable loop"):
            loops.append([line, None])
        elif line.startswith("prange") and loops:
            loops[-1][1] = line
    return loops


def _prange_said(line):
    if line.startswith("prange serial: "):
        return "runs serially: " + line[len("prange serial: "):]
    said = []
    for part in line[len("prange parallel:"):].split():
        name, _, role = part.partition("=")
        said.append(f"{name} {role.replace('reduction(', 'a reduction (')}")
    return "runs in parallel on the thread pool" + (": " + ", ".join(said) if said else "")


def parallel_diagnostics(disp, signature=None, level=1):
    """Print what each prange loop became for each compiled signature: run in
    parallel (each variable shared, private or a reduction) or serially, and
    why. Level 2 and above lists the function's other loops too."""
    func = disp.py_func
    if not disp.__dict__.get("_ruchey_options", {}).get("parallel"):
        print(f"{func.__qualname__} is not compiled with parallel=True: its loops run serially", file=sys.stdout)
        return
    lines, text_of = _loop_lines(func)
    for sig, _, args, _ in _chosen(disp, signature):
        args = _unliteral(args)
        print("=" * 80)
        print(f" Parallel diagnostics: {func.__qualname__} {sig}, {func.__code__.co_filename} "
              f"({func.__code__.co_firstlineno})")
        print("=" * 80)
        if not _describable(args):
            print("(these argument types cannot be inspected)")
            continue
        loops = _loops(_core._analyses(func, tuple(args), True))
        if lines is not None and len(lines) != len(loops):
            lines = None  # loops the source does not show one for one
        shown = 0
        for i, (kind, prange) in enumerate(loops):
            if prange is None and level < 2:
                continue
            where = f"line {lines[i]}: {text_of[lines[i]]}" if lines else f"loop #{i + 1}"
            print(where)
            print("    " + (_prange_said(prange) if prange else "a serial loop"
                           + (" (its assignments deferred)" if kind.startswith("deferrable") else "")))
            shown += 1
        if not shown:
            print("no prange loops")
