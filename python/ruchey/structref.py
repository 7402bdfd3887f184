"""Numba's ``numba.experimental.structref``: native objects with named
fields whose types come from how each object is made::

    @structref.register
    class HeapType(types.StructRef):
        pass

    class Heap(structref.StructRefProxy):
        pass

    structref.define_proxy(Heap, HeapType, ["indices", "distances", "flags"])

after which ``Heap(a, b, c)``, from Python or compiled code, makes an
object whose fields hold a, b and c with their types. Compiled code reads
and writes its fields (``h.flags[i] = 1``, ``h.n = 3``), passes it to other
compiled functions by reference and returns it; Python gets a ``Heap``
(``isinstance(h, Heap)``) and may pass it back. ``@overload_method(HeapType,
"name")`` and ``@overload_attribute`` give such objects members, their
typing functions seeing a ``HeapType`` whose ``field_dict`` holds the
fields' types.

Each set of field types is a jitclass of its own: a class deriving from the
proxy class (so its properties and methods apply) holding the fields.
"""
from ruchey import _core, extending, types
from ruchey.types import StructRef
from ruchey.decorators import njit
from ruchey.experimental import InstanceType, _Allocator, _describe, _exec_functions, _field_accessors

__all__ = ["StructRef", "StructRefProxy", "register", "define_proxy", "define_constructor",
           "define_boxing", "define_attributes", "new"]


class _Definition:
    """What define_proxy tied together: the proxy class, the type class and
    the fields' names, and a jitclass for each set of field types seen."""

    def __init__(self, proxy, type_class, fields):
        self.proxy, self.type_class, self.fields = proxy, type_class, tuple(fields)
        self.made = {}  # the fields' types, described -> the class of such objects

    def specialised(self, argtypes):
        """The class of objects whose fields have these types, made on first use."""
        if len(argtypes) != len(self.fields):  # (a TypingError and a TypeError, as Numba's and Python's)
            missing = self.fields[len(argtypes):]
            why = f"missing a required argument: {missing[0]!r}" if missing else "too many arguments"
            raise _core.ArgumentTypeError(f"{self.proxy.__name__}() takes {len(self.fields)} arguments "
                                          f"({', '.join(self.fields)}), got {len(argtypes)}: {why}")
        struct_type = self.type_class(list(zip(self.fields, argtypes)))
        key = _fields_key(struct_type)  # (as the type class's preprocess_fields made them)
        if key not in self.made:
            self.made[key] = self._make(struct_type)
        return self.made[key]

    def _make(self, struct_type):
        name = self.proxy.__name__
        members, getters, setters = {}, {}, {}
        ns = {"__module__": self.proxy.__module__, "__qualname__": self.proxy.__qualname__, "__slots__": (),
              "__doc__": self.proxy.__doc__, "_ruchey_members": members, "_ruchey_getters": getters,
              "_ruchey_setters": setters, "_structref_type": struct_type}
        for field in self.fields:
            if not hasattr(self.proxy, field):  # the proxy's own properties win
                ns[field] = _field_accessors(name, field)
        box = type(name, (self.proxy, _core.JitObject), ns)
        instance_type = InstanceType(box)
        _core.jitclass_declare(box)
        # (before the fields are described: one may hold an object of this very type, a tree's parent)
        struct_type._instance_type = instance_type
        box._ruchey_instance_type = instance_type
        descs = tuple(_describe(_held_type(t), name, f) for f, t in struct_type._fields)
        instance_type.name = _core.jitclass_type(box, tuple(f for f, _ in struct_type._fields), descs)
        extending._named_types[instance_type.name] = struct_type
        box.ctor = njit(self._constructor_source(box))
        return box

    def _constructor_source(self, box):
        """A Python function making the object and setting its fields."""
        params = [f"__ruchey_field{i}" for i in range(len(self.fields))]
        body = "".join(f"    __ruchey_self.{f} = {p}\n" for f, p in zip(self.fields, params))
        source = (f"def {self.proxy.__name__}({', '.join(params)}):\n    __ruchey_self = __ruchey_new__()\n"
                  f"{body}    return __ruchey_self\n")
        ns = {"__ruchey_new__": _Allocator(box)}
        return _exec_functions(source, ns, f"<structref {self.proxy.__name__} constructor {len(self.made)}>")[
            self.proxy.__name__]

    def select(self, *argtypes):
        """The typing function of a construction in compiled code."""
        return self.specialised(tuple(_field_type(self.proxy, f, t) for f, t in zip(self.fields, argtypes))
                                if len(argtypes) == len(self.fields) else argtypes).ctor.py_func


# proxy class -> its definition
_definitions = {}
# StructRef class -> the proxy class its objects box to (define_boxing's)
_proxies = {}
# (StructRef class, field names) -> the definition structref.new makes its objects by
_news = {}


def _field_type(proxy, field, t):
    """A field's type as jitclass spec types say it (a structref's as its instance type)."""
    if isinstance(t, StructRef):
        return t._instance_type
    if isinstance(t, types.Described):
        raise _core.ArgumentTypeError(f"{proxy.__name__}(): field {field!r} is given a {t.name}, which a structref "
                        f"cannot hold (numbers, bools, arrays, tuples, strings and other structrefs)")
    return t


def _fields_key(struct_type):
    """The fields' types of struct_type, telling its objects' classes
    apart: a field of its own kind (Optional(self)) as "self", which is
    the same for every type of these fields (its name is its object's)."""
    def key(t):
        if t is struct_type:
            return "self"
        return ("optional", key(t.type)) if isinstance(t, types.Optional) else repr(t)
    return repr(tuple((name, key(t)) for name, t in struct_type._fields))


def _held_type(t):
    """A field's type as its object holds it: a structref type (in an
    Optional too: Optional(self) of a linked node) as its objects' type."""
    if isinstance(t, StructRef) and hasattr(t, "_instance_type"):
        return t._instance_type
    if isinstance(t, types.Optional):
        return types.Optional(_held_type(t.type))
    return t


def _python_type(proxy, field, value):
    """The type a field takes from a value given in Python."""
    if isinstance(value, _core.JitObject):  # another structref, or a jitclass instance
        cls = type(value)
        return cls._ruchey_instance_type if "_structref_type" in cls.__dict__ else cls.class_type.instance_type
    try:
        return types.typeof(value)
    except TypeError as exc:
        raise TypeError(f"{proxy.__name__}(): field {field!r}: {exc}") from None


class StructRefProxy:
    """The Python class of a structref's objects: subclass it and give the
    subclass to define_proxy. Calling the subclass makes an object."""

    __slots__ = ()

    def __new__(cls, *args):
        definition = _definition_of(cls)
        argtypes = tuple(_python_type(cls, f, v) for f, v in zip(definition.fields, args))
        if len(args) != len(definition.fields):
            argtypes = tuple(args)  # specialised() says what is wrong
        return definition.specialised(argtypes).ctor(*args)

    @property
    def _numba_type_(self):
        """The object's StructRef type (its fields' types in field_dict)."""
        return self._structref_type

    @property
    def _type(self):
        return self._structref_type


def _definition_of(cls):
    for klass in cls.__mro__:
        if klass in _definitions:
            return _definitions[klass]
    raise TypeError(f"{cls.__name__} has no constructor: structref.define_proxy({cls.__name__}, ...) "
                    f"or define_constructor names its fields")


def register(struct_type):
    """Registers a subclass of StructRef as a structref type (a decorator)."""
    _check_type_class(struct_type, "structref.register takes")
    return struct_type


def define_constructor(py_class, struct_typeclass, fields):
    """Makes ``py_class(*values)`` build an object whose fields, named fields, hold
    the values, from Python and from compiled code."""
    if not isinstance(py_class, type) or not issubclass(py_class, StructRefProxy):
        raise TypeError(f"the proxy class must derive from structref.StructRefProxy, got {py_class!r}")
    _check_type_class(struct_typeclass)
    fields = list(fields)
    for field in fields:
        if not isinstance(field, str) or not field.isidentifier():
            raise TypeError(f"{py_class.__name__}: field name {field!r} is not an identifier")
    if len(set(fields)) != len(fields):
        raise TypeError(f"{py_class.__name__}: a field is named twice in {fields!r}")
    definition = _definitions[py_class] = _Definition(py_class, struct_typeclass, fields)
    source = f"def {py_class.__name__}({', '.join(fields)}):\n    pass\n"
    signature = _exec_functions(source, {}, f"<structref {py_class.__name__} signature>")[py_class.__name__]
    overloads = extending._Overloads(py_class.__name__)
    overloads.typers.append((definition.select, {}, False))
    extending._callees[py_class] = extending._generic(signature, overloads)


def define_boxing(struct_typeclass, obj_class):
    """Makes objects of the type that structref.new makes instances of
    obj_class in Python (define_constructor's objects are its proxy's)."""
    _check_type_class(struct_typeclass)
    if not isinstance(obj_class, type) or not issubclass(obj_class, StructRefProxy):
        raise TypeError(f"the proxy class must derive from structref.StructRefProxy, got {obj_class!r}")
    _proxies[struct_typeclass] = obj_class


def define_attributes(struct_typeclass):
    """Numba's: compiled code reading and writing the fields; ruchey's objects
    always have it."""
    _check_type_class(struct_typeclass)


def _check_type_class(struct_typeclass, what="the type class must derive from"):
    if not isinstance(struct_typeclass, type) or not issubclass(struct_typeclass, StructRef):
        raise TypeError(f"{what} a subclass of types.StructRef, got {struct_typeclass!r}")
    if struct_typeclass is StructRef:  # (its objects' types are told apart by their subclass, as Numba's)
        raise ValueError("cannot register types.StructRef itself: register a subclass of it")


class _New:
    """structref.new(struct_type): in compiled code (an overload's
    implementation), a new object of struct_type, a StructRef instance the
    typing function made, its fields unset until the code sets them."""

    def __call__(self, struct_type):
        raise TypeError("structref.new(struct_type) is for compiled code (an overload's implementation)")

    def __ruchey_new_from__(self, struct_type):
        if not isinstance(struct_type, StructRef):
            raise TypeError(f"structref.new takes a StructRef type (HeapType([('a', types.int64)])), "
                            f"got {struct_type!r}")
        cls = type(struct_type)
        names = tuple(name for name, _ in struct_type._fields)
        proxy = _proxies.get(cls, StructRefProxy)
        definition = _definitions.get(proxy)
        if definition is None or definition.type_class is not cls or definition.fields != names:
            definition = _news.setdefault((cls, names), _Definition(proxy, cls, names))
        box = definition.specialised(tuple(_field_type(definition.proxy, name, t) for name, t in struct_type._fields))
        return _Allocator(box)


new = _New()


def define_proxy(py_class, struct_typeclass, fields):
    """define_constructor and define_boxing at once: the usual way."""
    define_constructor(py_class, struct_typeclass, fields)
    define_boxing(struct_typeclass, py_class)
