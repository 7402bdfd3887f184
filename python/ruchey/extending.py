"""Numba's extension API: functions written in Python that compiled code
calls as if they were built in.

- ``@register_jitable`` (or ``@register_jitable(**jit_options)``): a plain
  Python function that compiled code may call; it is compiled for each
  caller's argument types. Called from Python it stays the Python function.
- ``@overload(func)``: a typing function taking the argument types of a
  call of ``func`` (``ruchey.types`` objects: ``isinstance(a, types.Array)``,
  ``a.dtype``, ``a.ndim``, ``isinstance(x, types.Float)``) and returning an
  implementation, a Python function with ``func``'s parameters, compiled for
  those types; or None, leaving the types to another overload. ``func`` may
  be a function of your own or one of a library's (a NumPy function
  ruchey lacks); a function ruchey already compiles keeps its own.
- ``@overload_method(types.Array, "name")`` and
  ``@overload_attribute(types.Float, "name")``: the same for a method
  (``a.name(...)``) or an attribute (``x.name``) of a kind of value; the
  typing function and the implementation take the value first.

- ``@intrinsic``: a typing function returning (signature, codegen), codegen
  writing the call's LLVM IR with llvmlite.ir, for numbers and bools (see
  ruchey.intrinsics).

The implementations are ordinary compiled functions: as fast as any, and
inlined where LLVM sees fit.
"""
import collections
import inspect
import itertools
import operator

from ruchey import _core, types
from ruchey.decorators import jit
from ruchey.intrinsics import intrinsic
from ruchey.native import get_cython_function_address

__all__ = ["register_jitable", "overload", "overload_method", "overload_classmethod", "overload_attribute", "is_jitted",
           "get_cython_function_address", "intrinsic", "SentryLiteralArgs", "sentry_literal_args"]

# a function compiled code may call -> the dispatcher it calls
_callees = {}
# a class whose objects compiled code calls -> the function giving the dispatcher for one (_register_callee_maker)
_callee_makers = {}
_generated = itertools.count()  # numbers the generated implementations' source names
# (name, is an attribute) -> [(type class, dispatcher of the member's overloads)]
_members = {}
# the names of native types that have a type object of their own (a structref's, bytes') -> that object
_named_types = {types.bytes_type.name: types.bytes_type}
# the named tuple classes holding a package's value types (ruchey._values) -> the package's type object
_named_values = {}


def is_jitted(func):
    """Whether func is a compiled function (a ruchey dispatcher)."""
    return isinstance(func, _core.Dispatcher)


def register_jitable(*args, **jit_options):
    """Lets compiled code call a Python function: compiled for each caller's
    argument types, with these jit options. Returns the function itself."""
    def register(func):
        _callees[func] = jit(**jit_options)(func)
        return func
    if len(args) == 1 and callable(args[0]) and not jit_options:
        return register(args[0])
    if args:
        raise TypeError("register_jitable takes a function, or keyword options only")
    return register


def _type_of(desc):
    if isinstance(desc, dict):  # a constant's: its literal type
        return types.literal(desc["literal"])
    if isinstance(desc, tuple) and desc[0] == "namedtuple":  # a package's value type: its own type object
        return _named_values.get(desc[1]) or types.NamedTupleType([_type_of(d) for d in desc[2]], desc[1])
    if isinstance(desc, tuple) and desc[0] == "litdict":  # a literal dict: its keys, its values' types
        return types.LiteralStrKeyDict(desc[1], [_type_of(d) for d in desc[2]])
    if isinstance(desc, tuple) and desc[0] == "meminfo":
        return types.MemInfoPointer(types.voidptr)
    if isinstance(desc, tuple):
        return types.described_type(desc)
    if isinstance(desc, list):  # a tuple type
        return types.TupleType([_type_of(d) for d in desc])
    if desc == "none":
        return types.none
    if desc == "omitted":  # an argument the call leaves to its default None: the typer sees None, as Numba's
        return None
    # (a typed List's or Dict's by its name: isinstance(t, types.DictType) holds)
    t = _named_types.get(desc) or types.described_dtype(desc) or types._type_named(desc) or types.Described(desc)
    # ruchey holds a Python list as it holds a typed List: its type is Numba's List (a Python
    # list's, which typing functions test for) and its ListType (a typed List's) alike
    return types.List(t.item_type) if type(t) is types.ListType else t


class _Overloads:
    """The typing functions registered for one function (or member), and
    the implementation chosen for each argument types, compiled."""

    def __init__(self, name, variadic=False, star=False):
        self.name = name
        self.typers = []   # (typing function, jit options, prefer_literal), the first registered first
        self.targets = {}  # a typing function for one target alone ("cuda", "cpu") -> that target
        self.strict = set()  # typing functions whose implementations must take their parameters (overload's strict)
        self.chosen = {}   # argument types' descriptions (constants' values too) -> the implementation's dispatcher
        self.by_types = {}  # the same for choices no value decided, by the plain types' descriptions alone
        self.variadic = variadic  # calls bind *args: each typer takes the arguments its parameters bind
        self.star = star  # the stub's last parameter is *args: its tuple's items go to the typers one each
        self.names = ()  # the parameters calls bind by (the generic dispatcher's), for typers taking **kwargs

    def select(self, descs, device=False):
        """The implementation for a call with these arguments (descriptions)
        from CPU code or, device true, from CUDA code."""
        key = (device, repr(descs))  # tuple types are described as lists
        if key not in self.chosen:
            # (an omitted argument stays one: its typing function and implementation differ from a given one's)
            plain_key = (device, repr([d if _omitted(d) or not isinstance(d, dict) else d["type"] for d in descs]))
            if plain_key in self.by_types:  # as Numba's: one implementation for every value of the constants
                self.chosen[key] = self.by_types[plain_key]
            else:
                self.chosen[key], by_value = self._choose(descs, "cuda" if device else "cpu")
                if not by_value:
                    self.by_types[plain_key] = self.chosen[key]
        return self.chosen[key]

    def _for_target(self, target):
        """The typing functions a call compiled for target may use: those
        registered for it alone first (a "cuda" overload wins over a generic
        one in a kernel), then the generic ones."""
        own = [t for t in self.typers if self.targets.get(t[0]) == target]
        return own + [t for t in self.typers if t[0] not in self.targets]

    def _choose(self, descs, target):
        """The implementation for these arguments, and whether constants'
        values may have decided it: unless the first typing function that
        takes them chose it from the plain types, not preferring literals."""
        literal = tuple(_type_of(d) for d in descs)
        if self.variadic:  # one tuple of every argument's type
            literal = literal[0].items
        elif self.star and literal:  # def f(func, *args): a typer's *args gets the types one each, as Numba's
            literal = literal[:-1] + tuple(literal[-1].items)
        plain = tuple(types.unliteral(t) for t in literal)
        given = len(plain) if self.variadic or self.star else _given_count(descs)
        first = True
        for typer, jit_options, prefer_literal in self._for_target(target):
            if self.variadic and not _binds(typer, len(plain)):
                continue  # an overload for another number of arguments
            # as Numba's: the typing function is given the arguments the call gives, its own defaults the rest
            short = given < len(plain) and _binds(typer, given)
            typer_literal, typer_plain = (literal[:given], plain[:given]) if short else (literal, plain)
            try:
                impl, attempt = _typed(typer, (typer_literal, typer_plain) if prefer_literal
                                       else (typer_plain, typer_literal), self.names)
            except _LiteralsWanted as wanted:  # (their values are not known here: the caller's are asked for)
                return self._asking_literally(typer, wanted.names, jit_options, wanted), True
            if impl is None:
                first = False
                continue
            asks = _asks_literally(impl)
            if asks and attempt == 0 and literal != plain:  # as Numba retypes the call with the constants' literal types
                impl = _typed(typer, (typer_literal,), self.names)[0] or impl
            by_value = not first or prefer_literal or attempt > 0 or asks
            inherits = getattr(impl, "_inherits", False)  # (a stencil's loop: compiled as its caller is)
            impl = getattr(impl, "py_func", impl) if is_jitted(impl) else impl  # a compiled function: its Python one
            if not callable(impl) or not hasattr(impl, "__code__"):
                raise _core.TypingError(f"the overload of {self.name} for {plain} returned {impl!r}, "
                                f"not a Python function")
            if typer in self.strict:
                _check_parameters(self.name, typer, impl)
            chosen = jit(**jit_options)(impl)
            chosen._inherits = inherits
            if short and _binds(impl, given) and not _defaults_as_bound(impl, descs, given):
                chosen = self._given_only(chosen, len(plain), given)
            return (_spread(chosen) if self.variadic else chosen), by_value
        return None, True

    def _given_only(self, impl, nargs, given):
        """impl called with the first given of a call's nargs arguments, the
        rest being the callee's defaults that impl's parameters leave out
        (def impl(a, b) for f(a, b, subset=0)), as Numba compiles an
        implementation for the arguments a call gives."""
        params = [f"a{i}" for i in range(nargs)]
        source = f"def given_only({', '.join(params)}):\n    return impl({', '.join(params[:given])})\n"
        from ruchey.experimental import _exec_functions
        ns = _exec_functions(source, {"impl": impl}, f"<omitted arguments of {self.name} {next(_generated)}>")
        forward = jit(ns["given_only"])
        forward._inherits = impl._inherits
        return forward

    def _asking_literally(self, typer, names, jit_options, wanted):
        """An implementation calling the overloaded function again with
        literally() of the parameters SentryLiteralArgs asked for, whose
        values the call does not have: as Numba's ForceLiteralArg, the
        caller is compiled for their values (a parameter of its own), and
        the typing function then sees their literal types."""
        params = inspect.signature(typer).parameters.values()
        if self.variadic or self.star or any(p.kind is not p.POSITIONAL_OR_KEYWORD for p in params):
            raise wanted
        names_in = [p.name for p in params]
        passed = ", ".join(f"literally({n})" if n in names else n for n in names_in)
        source = f"def asking_literally({', '.join(names_in)}):\n    return overloaded({passed})\n"
        from ruchey.decorators import literally
        from ruchey.experimental import _exec_functions
        ns = _exec_functions(source, {"overloaded": self.generic, "literally": literally},
                             f"<literal request of {self.name} {next(_generated)}>")
        return jit(**jit_options)(ns["asking_literally"])


def _check_parameters(name, typer, impl):
    """Numba's strict overload: the implementation takes the typing
    function's parameters, the same names in the same order (where it ends
    in *args, those before it), the same *args where the typing function
    has one, the same keywords with the same defaults; a TypingError saying
    which differ otherwise. (ruchey's typing functions may take **kwargs:
    those are left as they are.)"""
    typing_sig, impl_sig = inspect.signature(typer), inspect.signature(impl)
    if any(p.kind is p.VAR_KEYWORD for p in (*typing_sig.parameters.values(), *impl_sig.parameters.values())):
        return
    typing_plain, typing_keywords, typing_star = _parameter_groups(typing_sig)
    impl_plain, impl_keywords, impl_star = _parameter_groups(impl_sig)
    both = f"Typing signature:         {typing_sig}\nImplementation signature: {impl_sig}"
    differ = f"the overload of {name}: Typing and implementation arguments differ in "
    if typing_star and not impl_star:
        raise _core.TypingError(f"the overload of {name}: the VAR_POSITIONAL (e.g. *args) argument kind (offending "
                                f"argument name is '{typing_star}') found in the typing function signature is not in "
                                f"the implementing function signature.\n{both}")
    if impl_star and not typing_star:  # the implementation's *args takes the rest of the typing function's
        impl_plain = impl_plain[:impl_plain.index(impl_star)]
        names = [p.name for p in typing_plain]
        if impl_plain and impl_plain[-1].name not in names:
            raise _core.TypingError(f"{differ}argument names.\n{both}\nFirst difference: '{impl_plain[-1]}'")
        typing_plain = typing_plain[:names.index(impl_plain[-1].name) + 1] if impl_plain else []
    if typing_plain != impl_plain:
        raise _core.TypingError(f"{differ}argument names.\n{both}\n{_difference(typing_plain, impl_plain)}")
    if [p.name for p in typing_keywords] != [p.name for p in impl_keywords]:
        raise _core.TypingError(f"{differ}keyword argument names.\n{both}\n"
                                f"{_difference(typing_keywords, impl_keywords)}")
    if [p.default for p in typing_keywords] != [p.default for p in impl_keywords]:
        raise _core.TypingError(f"{differ}keyword argument default values.\n{both}\n"
                                f"{_difference(typing_keywords, impl_keywords)}")


def _parameter_groups(sig):
    """A signature's parameters without defaults (*args among them), those with, and its *args or None."""
    plain = [p for p in sig.parameters.values() if p.default is p.empty]
    star = next((p for p in plain if p.kind is p.VAR_POSITIONAL), None)
    return plain, [p for p in sig.parameters.values() if p.default is not p.empty], star


def _difference(typing, impl):
    return f"Difference: {set(typing) ^ set(impl)}"


class _LiteralsWanted(_core.NumbaError):
    """SentryLiteralArgs' request from a typing function: the literal types
    of these parameters (Numba's ForceLiteralArg, one of its errors)."""

    def __init__(self, names):
        super().__init__(f"the literal values of {', '.join(names)} are needed (SentryLiteralArgs)")
        self.names = tuple(names)


def sentry_literal_args(pysig, literal_args, args, kwargs):
    """Numba's: in an overload's typing function, asks for the literal types
    of the parameters named in literal_args where the arguments bound by
    pysig lack them: the call is typed again with their values (a constant
    the call gives, or its caller's parameter, compiled for each value)."""
    bound = pysig.bind(*args, **kwargs)
    missing = [name for name, t in bound.arguments.items() if name in literal_args and not isinstance(t, types.Literal)]
    if missing:
        raise _LiteralsWanted(missing)


class SentryLiteralArgs(collections.namedtuple("SentryLiteralArgs", ["literal_args"])):
    """Numba's: SentryLiteralArgs(["x"]).for_function(typer).bind(x, y) in
    an overload's typing function asks for x's literal type (sentry_literal_args)."""

    def for_function(self, func):
        return self.for_pysig(inspect.signature(func))

    def for_pysig(self, pysig):
        return _BoundLiteralArgs(pysig, self.literal_args)


class _BoundLiteralArgs(collections.namedtuple("BoundLiteralArgs", ["pysig", "literal_args"])):
    def bind(self, *args, **kwargs):
        return sentry_literal_args(self.pysig, self.literal_args, args, kwargs)


def _typed(typer, attempts, names=()):
    """What typer returns for the first of the attempts' argument types
    that gives an implementation, as Numba tries the plain and literal
    types in turn (the same once only), and that attempt's index; the
    first attempt's error where none does. An exception not of the
    compiler's (a ValueError the typer raises on a bad constant) ends the
    typing there, and reaches the caller unchanged, as in Numba."""
    error = None
    for i, argtypes in enumerate(attempts):
        if i and argtypes == attempts[0]:
            break
        try:
            impl = _call_typer(typer, argtypes, names)
        except _core.NumbaError as exc:  # the other attempt may succeed, as in Numba
            error = error or exc
            continue
        if impl is not None:
            return impl, i
    if error is not None:
        raise error
    return None, None


def _call_typer(typer, argtypes, names):
    """typer given the argument types of parameters names: by position, and
    those past its own positional parameters by name where it takes them
    as **kwargs (def ol(a, **kws) for f(a, kw=None)), as Numba binds them.
    None (no implementation) where its parameters cannot take them (a
    typer of four parameters for a call of the function's five): Numba
    rejects that candidate, and the call is a TypingError, not the
    TypeError of calling the typer."""
    try:
        signature = inspect.signature(typer)
    except (TypeError, ValueError):
        return typer(*argtypes)
    params = signature.parameters.values()
    positional = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
    by_name = any(p.kind is p.VAR_KEYWORD for p in params) and not any(p.kind is p.VAR_POSITIONAL for p in params)
    args, kwargs = argtypes, {}
    if by_name and len(argtypes) > positional and len(names) == len(argtypes):
        args, kwargs = argtypes[:positional], dict(zip(names[positional:], argtypes[positional:]))
    try:
        signature.bind(*args, **kwargs)
    except TypeError:
        return None
    return typer(*args, **kwargs)


def _asks_literally(impl):
    """Whether an implementation calls literally() itself (lambda x, mode:
    literally(mode)): Numba types the call again with the constants'
    literal types once it asks, so the choice is the typing function's
    for those types, made for each value."""
    from ruchey.decorators import literally
    func = getattr(impl, "py_func", impl)
    code, glob = getattr(func, "__code__", None), getattr(func, "__globals__", {})
    return code is not None and any(glob.get(name) is literally for name in code.co_names)


def _omitted(desc):
    """Whether an argument's description is of one the call omits (its default bound in its place)."""
    return desc == "omitted" or (isinstance(desc, dict) and desc.get("omitted", False))


def _given_count(descs):
    """How many of a call's arguments it gives: those before its omitted last ones."""
    given = len(descs)
    while given and _omitted(descs[given - 1]):
        given -= 1
    return given


def _defaults_as_bound(impl, descs, given):
    """Whether impl's parameters past the given arguments default to the
    values the call bound there (the stub's defaults), so that calling it
    with them all is calling it with the given ones alone."""
    try:
        params = list(inspect.signature(impl).parameters.values())[:len(descs)]
    except (TypeError, ValueError):
        return False
    if len(params) < len(descs) or any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
        return False
    bound = [None if d == "omitted" else d["literal"] for d in descs[given:]]
    return all(type(p.default) is type(v) and p.default == v for p, v in zip(params[given:], bound))


def _binds(func, nargs):
    """Whether func's parameters take nargs positional arguments."""
    try:
        inspect.signature(func).bind(*range(nargs))
        return True
    except TypeError:
        return False


def _spread(disp):
    """The implementation of a call binding *args: disp called with them."""
    def spread(*args):
        return disp(*args)
    return jit(spread)


def _variadic_stub(*args):
    """The parameters of a function overloaded for several numbers of arguments."""


def _generic(signature_func, overloads):
    """A dispatcher standing for an overloaded function in compiled code: a
    call binds its arguments by signature_func's parameters, then compiles
    the implementation chosen for their types."""
    disp = _core.Dispatcher(signature_func)
    try:
        overloads.names = tuple(inspect.signature(signature_func).parameters)
    except (TypeError, ValueError):
        overloads.names = ()
    disp.__qualname__ = overloads.name
    disp._select = overloads.select
    disp._overloads = overloads
    overloads.generic = disp  # (what an implementation asking for literals calls again)
    return disp


def overload(func, jit_options=None, strict=True, inline="never", prefer_literal=False, target="generic",
             **kwargs):
    """Registers a typing function for calls of func in compiled code (see
    the module's help). target "cuda" limits it to CUDA code (kernels and
    device functions), "cpu" to the rest; "generic" (the default) serves both."""
    target = _overload_target(target)
    def register(typer):
        disp = _callees.get(func)
        if disp is None or "_overloads" not in disp.__dict__:
            name = getattr(func, "__qualname__", None) or getattr(func, "__name__", repr(func))
            # (a bound method, random.gammavariate, binds as its typing function: its own takes self)
            plain = hasattr(func, "__code__") and hasattr(func, "__defaults__") and not inspect.ismethod(func)
            signature = func if plain else typer
            disp = _callees[func] = _generic(signature, _Overloads(name, star=_ends_in_star(signature)))
        disp._overloads.typers.append((typer, dict(jit_options or {}), prefer_literal))
        if target != "generic":
            disp._overloads.targets[typer] = target
        if strict and (getattr(typer, "__module__", None) or "").split(".")[0] != "ruchey":
            disp._overloads.strict.add(typer)  # a program's overload, as Numba checks them
        _bind_by_typers(func, disp)
        return typer
    return register


def _overload_target(target):
    """overload's target as "generic", "cpu" or "cuda" (Numba's spellings)."""
    name = str(target).lower()
    if name not in ("generic", "cpu", "cuda", "gpu"):
        raise ValueError(f"overload's target must be 'generic', 'cpu' or 'cuda', got {target!r}")
    return "cuda" if name == "gpu" else name


def _ends_in_star(func):
    """Whether func's last parameter is *args (its calls bind the rest into one tuple)."""
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return False
    return bool(params) and params[-1].kind is params[-1].VAR_POSITIONAL


def _bind_by_typers(func, disp):
    """A stub without parameters (def f(): pass) or with *args only binds
    a call as its typing functions' parameters do, as Numba's: where they
    all have the same ones, by name and default (keywords too); else each
    typer takes the positional arguments of its own arity. The generic
    dispatcher is made again where that changes."""
    code = getattr(func, "__code__", None)
    if not hasattr(func, "__defaults__") or code is None or code.co_argcount or code.co_kwonlyargcount:
        return
    overloads = disp._overloads
    shared = {str(inspect.signature(typer)) for typer, _, _ in overloads.typers}
    first = inspect.signature(overloads.typers[0][0]).parameters.values()
    plain = all(p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in first)
    signature = overloads.typers[0][0] if len(shared) == 1 and plain else _variadic_stub
    if getattr(disp, "py_func", None) is signature and overloads.variadic == (signature is _variadic_stub):
        return
    overloads.variadic = signature is _variadic_stub
    overloads.star = _ends_in_star(signature)
    overloads.chosen.clear()
    overloads.by_types.clear()
    _callees[func] = _generic(signature, overloads)


def _overload_member(type_class, name, attribute, jit_options, prefer_literal=False):
    if not isinstance(type_class, type):
        raise TypeError(f"the first argument is a class of types (types.Array, types.Float), got {type_class!r}")

    def register(typer):
        overloads = _Overloads(f"{type_class.__name__}.{name}")
        overloads.typers.append((typer, dict(jit_options or {}), prefer_literal))
        _members.setdefault((name, attribute), []).append((type_class, _generic(typer, overloads)))
        return typer
    return register


def overload_method(type_class, name, jit_options=None, prefer_literal=False, **kwargs):
    """Registers a typing function for value.name(...) where value's type is
    an instance of type_class; it and its implementation take the value first.
    prefer_literal: as overload's, the typing function sees constants'
    literal types first."""
    return _overload_member(type_class, name, False, jit_options, prefer_literal)


def overload_call(type_class, typer, jit_options=None):
    """Registers typer for value(...) where value's type is an instance of
    type_class (Numba's __call__ through a typing template, which clifford's
    MultiVector has): as a method's, it and its implementation take the
    value first; a typer taking *args is given the arguments' own types."""
    if not isinstance(type_class, type):
        raise TypeError(f"the first argument is a class of types, got {type_class!r}")
    variadic = any(p.kind is p.VAR_POSITIONAL for p in inspect.signature(typer).parameters.values())
    overloads = _Overloads(f"{type_class.__name__}.__call__", variadic=variadic)
    overloads.typers.append((typer, dict(jit_options or {}), False))
    _members.setdefault(("__call__", False), []).append(
        (type_class, _generic(_variadic_stub if variadic else typer, overloads)))


def overload_attribute(type_class, name, jit_options=None, **kwargs):
    """Registers a typing function for value.name where value's type is an
    instance of type_class; its implementation (value) -> the attribute."""
    return _overload_member(type_class, name, True, jit_options)


class _TypeRef:
    """What an overload_classmethod's typing function gets first: Numba's
    TypeRef of the class, whose instance_type is the class."""

    def __init__(self, instance_type):
        self.instance_type = instance_type

    def __repr__(self):
        return f"typeref[{getattr(self.instance_type, '__name__', self.instance_type)}]"


def overload_classmethod(type_class, name, jit_options=None, prefer_literal=False, **kwargs):
    """Registers a typing function for ``type_class.name(...)`` in compiled
    code, type_class (a class of types: a StructRef's, types.Array or a
    subclass) read as a global (radiomesh's ``StructUvwTile.from_uvw(u, v,
    w)``). The typing function takes the class first (a TypeRef of it, as
    Numba's), then the arguments' types; its implementation takes the class
    first too (None in compiled code). Registered for one class, neither its
    bases nor its subclasses have the name (a TypingError there), as Numba
    keys the method by the TypeRef of that class alone."""
    if not isinstance(type_class, type):
        raise TypeError(f"the first argument is a class of types (types.Array, a StructRef), got {type_class!r}")

    def register(typer):
        stub = _without_first_parameter(typer, f"{type_class.__name__}.{name}")
        held = vars(type_class).get(name)
        disp = held.value if isinstance(held, _OwnClassAttribute) else None
        if disp is None:
            disp = _generic(stub, _Overloads(f"{type_class.__name__}.{name}", star=_ends_in_star(stub)))
            setattr(type_class, name, _OwnClassAttribute(type_class, name, disp))
        disp._overloads.typers.append((_class_typer(type_class, typer), dict(jit_options or {}), prefer_literal))
        # compiled code reads type_class.name as it reads a namespace's member: the dispatcher
        if "__ruchey_namespace__" not in vars(type_class):
            type_class.__ruchey_namespace__ = _OwnClassAttribute(type_class, "__ruchey_namespace__", True)
        return typer
    return register


class _OwnClassAttribute:
    """An attribute of one class alone: its subclasses and its instances
    (the types it makes) lack it, as a classmethod overloaded for a class
    is no subclass's, and a subclass is no namespace for compiled code."""

    def __init__(self, owner, name, value):
        self.owner, self.name, self.value = owner, name, value

    def __get__(self, instance, owner):
        if instance is None and owner is self.owner:
            return self.value
        raise AttributeError(f"{owner.__name__ if instance is None else instance!r} has no attribute {self.name!r}")


def _without_first_parameter(func, name):
    """A function with func's parameters less the first (a classmethod's cls): what calls bind by."""
    from ruchey.experimental import _exec_functions, _parameters
    ns = {}
    params = _parameters(name, func, ns, "the classmethod")[0][1:]
    source = f"def classmethod_call({', '.join(params)}):\n    pass\n"
    return _exec_functions(source, ns, f"<classmethod {name} {next(_generated)}>")["classmethod_call"]


def _class_typer(type_class, typer):
    """A typing function of the call's arguments alone: typer given the
    class first, its implementation given None for it."""
    def class_typer(*argtypes):
        impl = typer(_TypeRef(type_class), *argtypes)
        return None if impl is None else _class_call(getattr(impl, "py_func", impl))
    return class_typer


def _class_call(impl):
    """A function of impl's parameters less the first, calling impl with None there."""
    from ruchey.experimental import _exec_functions, _parameters
    ns = {"__classmethod_impl": jit(impl)}
    params, passed = _parameters(impl.__name__, impl, ns, "the classmethod's implementation")
    source = (f"def classmethod_impl({', '.join(params[1:])}):\n"
              f"    return __classmethod_impl(None{''.join(', ' + p for p in passed[1:])})\n")
    return _exec_functions(source, ns, f"<classmethod implementation {next(_generated)}>")["classmethod_impl"]


# ---------------------------------------------------------------- for the extension and the cache

def _register_callee_maker(cls, make):
    """Lets compiled code call the objects of class cls: make(obj) gives the
    dispatcher a call runs (a CUDA kernel's: its device function)."""
    _callee_makers[cls] = make


def _callee(obj):
    """The dispatcher compiled code calls for obj, or None."""
    try:
        disp = _callees.get(obj)
    except TypeError:  # unhashable
        return None
    make = _callee_makers.get(type(obj)) if disp is None else None
    if disp is None and make is None and isinstance(obj, type) and _core._value_register_later(obj):
        return _callees.get(obj)  # a class registered where first used (numpy.polynomial.Polynomial)
    return make(obj) if make is not None else disp


def _member(desc, name, attribute):
    """The dispatcher of a member registered for the type described, or None:
    the latest registration whose type class holds it. "operator.mul" (an
    operator with an operand of a package's value type, or its subscript:
    "operator.getitem") is what overload(operator.mul) registered; none
    registered, a dispatcher that takes no arguments (a TypingError, not
    the operator of the tuple ruchey holds such a value as). del x[i] of
    one is operator.delitem's."""
    t = _type_of(desc)
    is_value = isinstance(t, types.Type) and isinstance(t.kind, str)
    if name == "__delitem__" and not attribute and is_value:
        name = "operator.delitem"
    if name.startswith("operator."):
        func = getattr(operator, name[len("operator."):], None)
        return (_callee(func) or _no_overload(name)) if is_value else None
    for type_class, disp in reversed(_members.get((name, attribute), ())):
        if isinstance(t, type_class):
            return disp
    return None


def _no_overload(name):
    """A dispatcher of operator's function name with no typing function: a
    call of it is a TypingError naming it and the argument types."""
    disp = _no_overloads.get(name)
    if disp is None:
        disp = _no_overloads[name] = _generic(_variadic_stub, _Overloads(name, variadic=True))
    return disp


# operator's function name -> its dispatcher without typing functions (_no_overload's)
_no_overloads = {}


def _typers_key(disp, seen, function_key):
    return tuple((function_key(typer, seen), tuple(sorted(options.items())), prefer_literal)
                 for typer, options, prefer_literal in disp._overloads.typers)


def _registered_key(value, seen, function_key, dispatcher_key):
    """What the cache's key takes from a registered function: the code of its
    typing functions (and so of the implementations they hold), or None."""
    disp = _callee(value)
    if disp is None:
        return None
    if "_overloads" in disp.__dict__:
        return ("overload", disp._overloads.name, _typers_key(disp, seen, function_key))
    return ("jitable", dispatcher_key(disp, seen))


def _operators_key(seen, function_key):
    """The same for the overloads of operator's functions, which compiled
    code reaches through its operators on a package's value type (a + b),
    not through a name it reads."""
    return tuple((func.__name__, _typers_key(disp, seen, function_key))
                 for func, disp in sorted(list(_callees.items()), key=lambda item: str(getattr(item[0], "__name__", "")))
                 if getattr(operator, getattr(func, "__name__", ""), None) is func and "_overloads" in disp.__dict__)


def _names_value_type(signature_text):
    """Whether the text of a signature names a package's value type."""
    return any(f"{shadow.__name__}(" in signature_text for shadow in list(_named_values))


def _members_key(names, seen, function_key):
    """The same for the members registered under names the code reads."""
    found = []
    for (name, attribute), entries in sorted(_members.items()):
        if name in names:
            found.append((name, attribute, tuple((cls.__qualname__, _typers_key(disp, seen, function_key))
                                                 for cls, disp in entries)))
    return tuple(found)
