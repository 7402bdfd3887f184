"""Numba's experimental API: ``jitclass`` (and ``structref``, see ruchey.structref).

``@jitclass(spec)`` (spec a list of ``(name, type)`` pairs or a dict), or
``@jitclass`` with the fields' types in the class's annotations
(``x: float64``), makes a class whose instances are native objects with
those fields: ``__init__``, the methods and the properties are compiled
(nopython), and an instance is passed to compiled functions by reference
(what they change, the caller sees), made and returned by them, kept in
typed lists and in other jitclasses' fields (``Other.class_type.instance_type``),
or in fields of the class's own type through ``deferred_type()``.
From Python an instance's fields read and write the native fields, and its
methods call the compiled code; ``isinstance`` works, and
``MyClass.class_type.class_def`` is the undecorated class.
"""
import inspect
import itertools
import linecache
import typing

from ruchey import _core, extending, types
from ruchey.decorators import njit

__all__ = ["jitclass", "structref"]


def __getattr__(name):
    if name == "structref":  # ruchey.experimental.structref, made on first use
        from ruchey import structref
        return structref
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# what a class body holds besides its members
_CLASS_DUNDERS = {"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__",
                  "__annotations__", "__firstlineno__", "__static_attributes__"}
# the special methods compiled code calls for operators, builtins and indexing, as Numba's
_SPECIAL_METHODS = {f"__{name}__" for name in (
    "len abs bool float int hash str getitem setitem eq ne lt le gt ge "
    "add sub mul truediv floordiv mod pow lshift rshift and or xor "
    "radd rsub rmul rtruediv rfloordiv rmod rpow rlshift rrshift rand ror rxor "
    "iadd isub imul itruediv ifloordiv imod ipow ilshift irshift iand ior ixor").split()}
# special methods the box's own attribute access, life and pickling rest on: refused
_BOX_DUNDERS = {f"__{name}__" for name in (
    "getattr getattribute setattr delattr del new init_subclass class_getitem set_name "
    "reduce reduce_ex getstate setstate copy deepcopy").split()}
_generated = itertools.count()


class JitClassType(type):
    """The class of every jitclass (Numba's metaclass of the same name, in
    numba.experimental.jitclass.base): ``isinstance(Point, JitClassType)``,
    and annotations naming it (hftbacktest's ``NewType('Reader',
    JitClassType)``)."""


class InstanceType(types.ClassInstanceType):
    """The type of a jitclass's instances (Numba's ClassInstanceType): a
    field's type in another jitclass's spec, a typed List's item type, or
    an argument's in a signature."""

    def __init__(self, jitclass):
        self.jitclass = jitclass
        self.name = None  # set once the native type is made

    def __call__(self, *args):  # a signature returning an instance: Point.class_type.instance_type(float64)
        return types.Signature(self, args)

    @property
    def struct(self):
        """The fields' names and types in the order of the spec, as Numba's."""
        return self.jitclass.class_type.struct

    def describe(self):
        return ("class", self.jitclass)

    def __repr__(self):
        return self.name or f"instance.jitclass.{self.jitclass.__name__}"

    def __eq__(self, other):
        return isinstance(other, InstanceType) and other.jitclass is self.jitclass

    def __hash__(self):
        return hash(self.jitclass)

    def __reduce__(self):
        """Pickled as Numba's: loaded in this process, the type itself; in
        another, that of its class imported by name, or else (a class made
        in a function or in __main__) of its class made again from its
        definition and spec, pickled by value (through cloudpickle)."""
        from ruchey import serialize
        if serialize._importable_name(self.jitclass) is not None:
            return _instance_type_of, (self.jitclass,)
        class_type = self.jitclass.class_type
        sources = {name: serialize._source_lines(func) for name, func in _class_functions(class_type.class_def)}
        return _instance_type_again, (serialize._key(self),
                                      serialize.dumps((class_type.class_def, class_type.struct)), sources)


def _class_functions(class_def):
    """(name, function) of a class's methods, properties' and static methods' functions, which compile from source."""
    for name, value in vars(class_def).items():
        if isinstance(value, property):
            yield from ((f"{name}.{part}", getattr(value, part)) for part in ("fget", "fset")
                        if getattr(value, part) is not None)
        elif isinstance(value, staticmethod):
            yield name, value.__func__
        elif inspect.isfunction(value):
            yield name, value


def _instance_type_of(jitclass):
    return jitclass.class_type.instance_type


def _instance_type_again(key, payload, sources):
    """The instance type pickled under key: the one of this process, else
    that of its class made again from the pickled definition and spec, its
    functions given the source they were pickled with."""
    import pickle
    from ruchey import serialize
    with serialize._lock:
        found = serialize._by_key.get(key)
        if found is None:
            class_def, spec = pickle.loads(payload)
            for name, func in _class_functions(class_def):
                if sources.get(name):
                    serialize._give_source(func, key, sources[name])
            found = jitclass(class_def, spec).class_type.instance_type
            found.__dict__["_ruchey_key"] = key
            serialize._by_key[key] = found
        return found


class ClassType:
    """What ``MyClass.class_type`` holds, as Numba's: the undecorated class
    (class_def), the fields' types (struct), the methods and properties."""

    __ruchey_namespace__ = True  # compiled code reads Point.class_type.instance_type (typed.List.empty_list's)

    def __init__(self, class_def, struct, methods, props, static_methods, instance_type):
        self.class_def = class_def
        self.struct = struct
        self.methods = methods
        self.jit_props = props
        self.jit_static_methods = static_methods
        self.instance_type = instance_type
        self.name = class_def.__name__

    def __repr__(self):
        return f"jitclass.{self.name}"


class _Allocator:
    """What a jitclass's generated constructor calls to make the native
    object (the frontend reads its __ruchey_new__)."""

    def __init__(self, cls):
        self.__ruchey_new__ = cls


def _describe(t, owner, field):
    if isinstance(t, types.ListType):
        return ("list", _describe(t.item_type, owner, field))
    if isinstance(t, types.DictType):
        return ("dict", _describe(t.key_type, owner, field), _describe(t.value_type, owner, field))
    if isinstance(t, types.Optional):
        return ("optional", _describe(t.type, owner, field))
    if isinstance(t, types.DeferredType):
        return _describe(t.get(), owner, field)
    if isinstance(t, (types.Type, types.TupleType, InstanceType, types.FunctionType, types.MemInfoPointer)):
        return t.describe()
    if isinstance(t, types.CPointer):  # held as compiled code holds a pointer: a 1-d array of no known length
        return t.as_array().describe()
    raise TypeError(f"jitclass {owner}: field {field!r} has type {t!r}, which is not a ruchey type "
                    f"(ruchey.float64, ruchey.float64[:], types.ListType(...), Other.class_type.instance_type)")


def _undefined(t):
    """The deferred types not yet defined in a field's type."""
    if isinstance(t, types.DeferredType):
        return [] if t.defined else [t]
    if isinstance(t, types.ListType):
        return _undefined(t.item_type)
    if isinstance(t, types.DictType):
        return _undefined(t.key_type) + _undefined(t.value_type)
    if isinstance(t, types.Optional):
        return _undefined(t.type)
    return []


# Python's types in annotations, as Numba's as_numba_type reads them
_PYTHON_TYPES = {int: types.int64, float: types.float64, complex: types.complex128, bool: types.boolean,
                 str: types.unicode_type, type(None): types.none}


def _annotation_type(t, owner, field):
    """An annotation's ruchey type: a ruchey type as it is; int, float,
    complex, bool, str, and list[...], dict[...], tuple[...], Optional[...]
    of them as Numba's as_numba_type takes them."""
    if t in _PYTHON_TYPES:
        return _PYTHON_TYPES[t]
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is None:
        return t  # a ruchey type, or what _describe refuses with its message
    items = [_annotation_type(a, owner, field) for a in args]
    if origin is typing.Union and len(args) == 2 and type(None) in args:
        return types.Optional(items[args.index(type(None)) ^ 1])
    if origin is list and len(items) == 1:
        return types.ListType(items[0])
    if origin is dict and len(items) == 2:
        return types.DictType(*items)
    if origin is tuple and Ellipsis not in args:
        return types.Tuple(items)
    raise TypeError(f"jitclass {owner}: field {field!r} is annotated {t!r}, which has no ruchey type "
                    f"(a Union other than an Optional, or a generic ruchey does not type)")


def _spec_of(cls, spec):
    """The fields in order: the spec's, then the annotations' not in it.
    Annotations written as strings (``from __future__ import annotations``)
    are evaluated in the class's module, as Numba's typing.get_type_hints."""
    if spec is None:
        spec = []
    if isinstance(spec, dict):
        spec = list(spec.items())
    if not isinstance(spec, (list, tuple)) or not all(isinstance(p, (list, tuple)) and len(p) == 2 for p in spec):
        raise TypeError(f"jitclass {cls.__name__}: spec must be a list of (name, type) pairs or a dict, got {spec!r}")
    fields = dict(spec)
    for name, t in typing.get_type_hints(cls).items():
        if name not in fields:
            fields[name] = _annotation_type(t, cls.__name__, name)
    for name in fields:
        if not isinstance(name, str) or not name.isidentifier():
            raise TypeError(f"jitclass {cls.__name__}: field name {name!r} is not an identifier")
    # a private field (__x) is the name its methods read, as Python compiles self.__x in them: _Class__x
    owner = cls.__name__.lstrip("_")
    private = {name: f"_{owner}{name}" for name in fields
               if owner and name.startswith("__") and not name.endswith("__")}
    return {private.get(name, name): t for name, t in fields.items()}


def _exec_functions(source, namespace, filename):
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)  # for tracebacks and errors
    exec(compile(source, filename, "exec"), namespace)
    return namespace


def _field_accessors(name, field):
    """Compiled getter and setter of one field, for Python's attribute access."""
    source = (f"def get_{field}(self):\n    return self.{field}\n\n"
              f"def set_{field}(self, value):\n    self.{field} = value\n")
    ns = _exec_functions(source, {}, f"<jitclass {name}.{field}>")
    get, put = njit(ns[f"get_{field}"]), njit(ns[f"set_{field}"])
    return property(lambda self: get(self), lambda self, value: put(self, value), doc=f"field {field}")


def _constructor(name, box, init):
    """A compiled function taking __init__'s parameters (bar self) that makes
    the native object and runs __init__ on it."""
    ns = {"__ruchey_new__": _Allocator(box), "__ruchey_init__": init}
    params, passed = [], ["self"]
    if init is not None:
        params, passed = _parameters(name, init.py_func, ns, "__init__")
        params, passed[0] = params[1:], "self"
    # __init__ returning a value is Python's TypeError (Numba's TypingError)
    call = (f"    if __ruchey_init__({', '.join(passed)}) is not None:\n"
            f"        raise TypeError(\"jitclass {name}: __init__() should return None\")\n") if init is not None else ""
    source = f"def {name}({', '.join(params)}):\n    self = __ruchey_new__()\n{call}    return self\n"
    fn = _exec_functions(source, ns, f"<jitclass {name} constructor {next(_generated)}>")[name]
    return njit(fn)


def _parameters(name, func, ns, what):
    """func's parameters as a def writes them (defaults named in ns) and as a call passes them."""
    params, passed = [], []
    for i, p in enumerate(inspect.signature(func).parameters.values()):
        if p.kind == p.VAR_KEYWORD:
            raise TypeError(f"jitclass {name}: {what}'s parameter **{p.name} is not supported")
        if p.kind == p.KEYWORD_ONLY and not any(text.startswith("*") for text in params):
            params.append("*")
        text = p.name
        if p.default is not p.empty:
            ns[f"__default{i}"] = p.default
            text += f"=__default{i}"
        params.append(("*" if p.kind == p.VAR_POSITIONAL else "") + text)
        passed.append({p.VAR_POSITIONAL: f"*{p.name}", p.KEYWORD_ONLY: f"{p.name}={p.name}"}.get(p.kind, p.name))
    return params, passed


def _through_instance(name, attr, static):
    """A static method called through an instance (self.f(x) in compiled
    code): a compiled function taking the instance first, calling it."""
    ns = {"__ruchey_static__": static}
    params, passed = _parameters(name, static.py_func, ns, attr)
    source = (f"def {attr}(__ruchey_self__{''.join(', ' + p for p in params)}):\n"
              f"    return __ruchey_static__({', '.join(passed)})\n")
    return njit(_exec_functions(source, ns, f"<jitclass {name}.{attr} {next(_generated)}>")[attr])


def _python_method(disp, name):
    def method(self, *args, **kwargs):
        return disp(self, *args, **kwargs)
    method.__name__ = name
    method.__doc__ = disp.py_func.__doc__
    return method


def _box_class(cls, ns):
    """The jitclass: a subclass of the class, as Numba's (``Jit.mro()[1]`` is
    the class, which another jitclass may derive from), and of JitObject,
    whose instances hold the native object. A class whose metaclass or
    layout cannot be joined to JitObject's (an ABC's, one of __slots__)
    gives a jitclass deriving from JitObject alone."""
    try:
        return JitClassType(cls.__name__, (cls, _core.JitObject), ns)
    except TypeError:  # a metaclass conflict, or "multiple bases have instance lay-out conflict"
        return JitClassType(cls.__name__, (_core.JitObject,), ns)


def _register(cls, spec):
    name = cls.__name__
    fields = _spec_of(cls, spec)
    members, getters, setters, methods, props, statics = {}, {}, {}, {}, {}, {}
    ns = {"__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": cls.__doc__,
          "__slots__": (), "_ruchey_members": members, "_ruchey_getters": getters, "_ruchey_setters": setters}
    made = {}  # the constructor, once the class exists

    def __new__(cls_, *args, **kwargs):
        if "ctor" not in made:
            raise RuntimeError(f"jitclass {name}: a deferred_type in its spec is not defined yet "
                               f"(call its define(...) before making instances)")
        return made["ctor"](*args, **kwargs)

    def __init__(self, *args, **kwargs):
        pass  # __new__ ran the compiled __init__
    if inspect.isfunction(getattr(cls, "__init__", None)):
        __init__.__doc__ = cls.__init__.__doc__  # help() shows the class's own, as Numba's

    def __init_subclass__(cls_, **kwargs):  # its instances would be the jitclass's, not the subclass's
        raise TypeError(f"cannot subclass from a jitclass ({name})")
    ns.update(__new__=__new__, __init__=__init__, __init_subclass__=__init_subclass__)
    init = None
    # the members of its plain Python bases too, the class's own overriding theirs, as Numba gathers them
    gathered = {}
    for base in reversed(cls.__mro__[:-1]):
        gathered.update(vars(base))
    for attr, value in gathered.items():
        if attr in fields and not isinstance(value, (property, staticmethod)) and not inspect.isfunction(value):
            continue  # a class attribute naming a field's default: the field wins, as in Numba
        if attr == "__hash__" and value is None:
            continue  # Python's own, for a class defining __eq__
        if isinstance(value, property):
            if value.fget is None:
                raise TypeError(f"jitclass {name}: property {attr!r} has no getter")
            if value.fdel is not None:
                raise TypeError(f"jitclass {name}: property {attr!r} has a deleter, which is not supported (as in Numba)")
            getters[attr] = njit(value.fget)
            if value.fset is not None:
                setters[attr] = njit(value.fset)
            get, put = getters[attr], setters.get(attr)
            ns[attr] = property(lambda self, get=get: get(self),
                                None if put is None else (lambda self, v, put=put: put(self, v)), doc=value.__doc__)
            props[attr] = value
        elif isinstance(value, staticmethod):
            statics[attr] = njit(value.__func__)
            ns[attr] = staticmethod(statics[attr])  # not bound to an instance read through
            members[attr] = _through_instance(name, attr, statics[attr])
        elif isinstance(value, classmethod):
            raise TypeError(f"jitclass {name}: classmethod {attr!r} is not supported")
        elif inspect.isfunction(value):
            if attr == "__init__":
                init = njit(value)
                continue
            if attr in _BOX_DUNDERS:
                raise TypeError(f"jitclass {name}: special method {attr!r} is not supported (__init__, operators, "
                                f"comparisons, __len__, __getitem__, __setitem__, __abs__, __bool__, __float__, "
                                f"__int__, __hash__ and __str__ are; others such as __repr__ run in Python)")
            members[attr] = njit(value)
            methods[attr] = value
            # another special method (__repr__, __iter__): Python calls the original, reading the
            # fields through the box, as Numba's jitclass (a subclass of the original) does
            special = attr.startswith("__") and attr.endswith("__") and attr not in _SPECIAL_METHODS
            ns[attr] = value if special else _python_method(members[attr], attr)
        elif attr not in _CLASS_DUNDERS:
            raise TypeError(f"jitclass {name}: class attribute {attr!r} is not supported (only fields, methods, "
                            f"properties and static methods)")
    for field in fields:
        if field in ns:
            raise TypeError(f"jitclass {name}: {field!r} is both a field and a method or property")
        ns[field] = _field_accessors(name, field)
    box = _box_class(cls, ns)
    instance_type = InstanceType(box)
    instance_type.name = _core.jitclass_declare(box)
    box._numba_type_ = instance_type  # an instance's type, as Numba's boxes give it (List.empty_list(p._numba_type_))
    box.class_type = ClassType(cls, dict(fields), methods, props, statics, instance_type)
    ctor = _constructor(name, box, init)
    box.__signature__ = inspect.signature(ctor.py_func)
    extending._callees[box] = ctor  # Point(...) in compiled code (a TypingError until its fields are defined)

    def define():  # once every deferred type in the spec is defined
        if any(_undefined(t) for t in fields.values()) or "ctor" in made:
            return
        descs = tuple(_describe(t, name, f) for f, t in fields.items())
        instance_type.name = _core.jitclass_type(box, tuple(fields), descs)
        made["ctor"] = ctor
    for t in fields.values():
        for deferred in _undefined(t):
            deferred.when_defined(define)
    define()
    return box


def jitclass(cls_or_spec=None, spec=None):
    """Compiles a class (see the module's help): ``@jitclass``,
    ``@jitclass(spec)``, ``@jitclass(spec=spec)`` or ``jitclass(cls, spec)``."""
    if isinstance(cls_or_spec, type):
        return _register(cls_or_spec, spec)

    def wrap(cls):
        return _register(cls, cls_or_spec if spec is None else spec)
    return wrap
