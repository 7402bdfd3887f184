"""Value types of a package's own, made with Numba's extension API
(``numba.extending``; its documentation's "Interval" example)::

    class IntervalType(types.Type): ...              # the package's type class
    @typeof_impl.register(Interval)                   # Interval objects are of it
    @register_model(IntervalType)                     # a StructModel of members
    make_attribute_wrapper(IntervalType, "lo", "lo")  # compiled code reads i.lo
    @unbox(IntervalType) / @box(IntervalType)         # llvmlite code through c.pyapi
    @type_callable(Interval) + @lower_builtin(Interval, types.Float, types.Float)

ruchey has no llvmlite data models: such a type is a named tuple of its
members (one class made per type, whose fields are the wrapped attributes'
names), which compiled code holds, reads and returns as any. What the
package's llvmlite code does is learnt by running it once on stand-ins of
Numba's ``c`` (pyapi, builder, context) that record what it asks for: its
unbox, which attribute of the object feeds which member and how it is
converted (``object_getattr_string``, then ``float_as_double``, ``c.unbox``
or ``unbox_array``); its box, which Python callable it calls with which
members (``call_function_objargs``); a constructor's lowering, which
argument each member is set from. A function that does anything else is
refused with a NotImplementedError naming what it did, when compiled code
first needs the type. overload_method and overload_attribute of the type
work as for ruchey's own types: their typing functions see the package's
type object.

clifford's MultiVector adds: objects typed by their class's _numba_type_;
OpaqueModel members (one pointer-sized member, null; a box returning the
object its type holds, context.add_dynamic_addr); globals frozen as their type's
lower_constant sets the members (context.get_constant_generic); an
@intrinsic filling the struct from its arguments, read as a constructor.
An unbox or box may call a function compiled for constants
(pyapi.call_jit_code): an OpaqueModel value's pointer, or the number a box
gives, is its result, the call made each time the unbox or box runs.
"""
import collections
import contextlib
import keyword
import operator
import types as pytypes

import numpy

from ruchey import _core, extending, types
from ruchey.experimental import _exec_functions

# what the package registered, by its classes
_typeofs = {}      # Python class -> typeof function (obj, context) -> its type object
_models = {}       # type class -> model class (StructModel or OpaqueModel subclass)
_wrappers = {}     # type class -> [(member, attribute)]
_unboxers = {}     # type class -> unbox function (typ, obj, c)
_boxers = {}       # type class -> box function (typ, val, c)
_constructors = {}  # Python class -> _Constructor
_constant_lowerings = {}  # type class -> lower_constant function (context, builder, typ, pyval)
_array_lowerings = {}  # type class -> lower_builtin('__array__', cls) function: which member holds its array
_array_wrap_typers = []  # type_callable('__array_wrap__') typers: (input type, ufunc's array type) -> result type
_array_wraps = {}  # type class -> lower_builtin('__array_wrap__', cls, types.Array) function: how the result is built
_casts = {}        # type class -> [(type or class of types converted to, lower_cast function)]
# what ruchey made of them
_values = {}       # (type class, type key) -> _Value
_by_shadow = {}    # named tuple class -> _Value


class UnsupportedLowering(NotImplementedError):
    """The package's llvmlite code did something the stand-ins cannot follow."""


def _unreadable(kind, what):
    return UnsupportedLowering(f"ruchey (registered as numba) reads a package's {kind} only where it moves members "
                       f"between attributes, arguments and Python calls; this one called {what}")


def _registered(table, type_class):
    for klass in type_class.__mro__:
        if klass in table:
            return table[klass]
    return None


# ---------------------------------------------------------------- the registrations (numba.extending's)

class _TypeofRegistry:
    """numba.extending.typeof_impl: ``@typeof_impl.register(cls)``, or
    ``typeof_impl.register(cls, func)`` as functools.singledispatch (Numba's
    typeof_impl) takes it."""

    def register(self, cls, func=None):
        if not isinstance(cls, type):
            raise TypeError(f"typeof_impl.register takes a class, got {cls!r}")

        def keep(func):
            _typeofs[cls] = func
            _core._value_class(cls, _convert)
            return func
        return keep if func is None else keep(func)

    def __call__(self, val, c=None):
        func = _registered(_typeofs, type(val))
        return func(val, c) if func else types.typeof(val)


typeof_impl = _TypeofRegistry()


class _AsNumbaType:
    """numba.extending.as_numba_type: ``as_numba_type.register(cls, type)``
    (the type annotations of a jitclass read; kept)."""

    def __init__(self):
        self.table = {}

    def register(self, cls, numba_type):
        self.table[cls] = numba_type

    def __call__(self, cls):
        return self.table[cls]


as_numba_type = _AsNumbaType()


def _type_class_register(table, name):
    def register(type_class):
        if not isinstance(type_class, type):
            raise TypeError(f"{name} takes a class of types, got {type_class!r}")

        def keep(func):
            table[type_class] = func
            return func
        return keep
    return register


register_model = _type_class_register(_models, "register_model")
unbox = _type_class_register(_unboxers, "unbox")
box = _type_class_register(_boxers, "box")
lower_constant = _type_class_register(_constant_lowerings, "lower_constant")



def make_attribute_wrapper(type_class, struct_attr, python_attr):
    """Compiled code reads member struct_attr of type_class's values as python_attr."""
    if not isinstance(type_class, type):
        raise TypeError(f"make_attribute_wrapper takes a class of types, got {type_class!r}")
    _wrappers.setdefault(type_class, []).append((struct_attr, python_attr))


class NativeValue:
    """What an unbox function returns: the native value, and its error flag."""

    def __init__(self, value, is_error=None, cleanup=None):
        self.value, self.is_error, self.cleanup = value, is_error, cleanup


class _DataModelManager:
    """The dmm a model's __init__ is given."""


class StructModel:
    """numba.extending.models.StructModel: a value of named members."""

    def __init__(self, dmm, fe_type, members):
        self._members = [(name, t) for name, t in members]
        self.fe_type = fe_type


class OpaqueModel:
    """numba.extending.models.OpaqueModel: a value compiled code only passes
    on; here, as Numba's pointer, one pointer-sized member: 0 where its
    unbox or lower_constant gives context.get_dummy_value(), what a
    function compiled for it returns where its unbox calls one
    (pyapi.call_jit_code), which its box may read (builder.ptrtoint); or
    its box gives an object its type holds, as clifford's Layout's."""

    def __init__(self, dmm, fe_type):
        self._members = [(OPAQUE_MEMBER, types.intp)]
        self.fe_type = fe_type


OPAQUE_MEMBER = "ruchey_opaque_pointer"


# numba.extending.models, as packages reach the model classes
models = pytypes.SimpleNamespace(StructModel=StructModel, OpaqueModel=OpaqueModel)


# ---------------------------------------------------------------- stand-ins of Numba's lowering objects

class _Symbol:
    """A value the package's code is given or makes."""

    def __init__(self, what, **parts):
        self.what = what
        self.__dict__.update(parts)

    def __repr__(self):
        return f"<{self.what}>"


class _Recorder:
    """A stand-in whose every other attribute is unreadable; _kind names
    the package's function it is given to (unbox, box, constructor)."""

    _kind = "code"

    def __init__(self, kind="code"):
        self.__dict__["_kind"] = kind

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise _unreadable(self._kind, f"{type(self).__name__.strip('_').lower()}.{name}")


class _Builder(_Recorder):
    def load(self, ptr):
        if getattr(ptr, "what", None) != "slot":
            raise _unreadable(self._kind, f"builder.load of {ptr!r}")
        return ptr.value

    def store(self, val, ptr):
        """A value kept in a slot (cgutils.alloca_once's), which load gives back."""
        if getattr(ptr, "what", None) != "slot":
            raise _unreadable(self._kind, f"builder.store into {ptr!r}")
        ptr.value = val

    def not_(self, val):
        return _Symbol("flag", of=val)

    @contextlib.contextmanager
    def if_then(self, pred, likely=None):
        """The branch a box takes where a function compiled for it
        succeeded (not is_error): always, where it is read, since a
        failure raises in Python before."""
        if getattr(pred, "what", None) not in ("flag", "error flag"):
            raise _unreadable(self._kind, f"builder.if_then on {pred!r}")
        yield

    def ptrtoint(self, val, typ):
        """An OpaqueModel value's pointer as an integer: its one member."""
        if getattr(val, "what", None) != "value":
            raise _unreadable(self._kind, f"builder.ptrtoint of {val!r}")
        return _Symbol("member", name=OPAQUE_MEMBER)

    def bitcast(self, val, typ):
        """A Python object's pointer cast to PyObject* (clifford's box casts its class's address)."""
        if getattr(val, "what", None) != "python object":
            raise _unreadable(self._kind, f"builder.bitcast of {val!r}")
        return val


class _Context(_Recorder):
    enable_boundscheck = False

    def __init__(self, kind="code", known=()):
        super().__init__(kind)
        self.__dict__["_known"] = known  # what the package's function may name by address (add_dynamic_addr)

    def cast(self, builder, val, fromty, toty):
        return val  # members are converted to their declared types when the value is built

    def get_value_as_data(self, builder, ty, val):
        return val

    def get_constant(self, ty, value):
        return _Symbol("constant", value=value)

    def get_constant_generic(self, builder, ty, value):
        """A lower_constant's member of the global's own value (an array, a number, a value type's object)."""
        return _Symbol("constant", value=value)

    def get_dummy_value(self):
        """What an OpaqueModel type's unbox and lower_constant give: no members."""
        return _Symbol("dummy")

    def add_dynamic_addr(self, builder, intaddr, info=None):
        """The address of a Python object, id(obj), baked into the code (a box
        returning its type's object, or calling a class): the object, where
        the function or its type object names it (its globals, closure or
        attributes), so that no address is ever read as an object."""
        for obj in _named_objects(self._known):
            if id(obj) == intaddr:
                return _Symbol("python object", obj=obj)
        raise _unreadable(self._kind, f"context.add_dynamic_addr of an address ({info}) of no object its function "
                                      f"or type names")


def _named_objects(known):
    """The objects a package's function and its type object name: each
    itself, a function's globals and closure, an object's attributes."""
    for thing in known:
        yield thing
        if isinstance(thing, pytypes.FunctionType):
            yield from thing.__globals__.values()
            yield from (cell.cell_contents for cell in thing.__closure__ or () if cell.cell_contents is not None)
        else:
            yield from getattr(thing, "__dict__", {}).values()


# unbox: pyapi calls converting an attribute's object to a native number, by the Python conversion each does
_TO_NATIVE = {"float_as_double": float, "long_as_longlong": int, "long_as_ulonglong": int, "long_as_long": int,
              "number_as_ssize_t": int, "object_istrue": bool}
# box: pyapi calls making an object of a native number, by the Python type each makes
_FROM_NATIVE = {"float_from_double": float, "long_from_longlong": int, "long_from_ulonglong": int,
                "long_from_long": int, "long_from_ssize_t": int, "bool_from_bool": bool, "long_from_signed_int": int,
                "long_from_unsigned_int": int}


class _PyApi(_Recorder):
    """c.pyapi: what an unbox or a box may ask of Python's C API."""

    def object_getattr_string(self, obj, name):
        if getattr(obj, "what", None) != "object" or not isinstance(name, str):
            raise _unreadable(self._kind, f"object_getattr_string of {obj!r}")
        return _Symbol("attribute", name=name)

    def __getattr__(self, name):
        if name in _TO_NATIVE:
            def to_native(obj, *rest):
                if getattr(obj, "what", None) != "attribute":
                    raise _unreadable(self._kind, f"pyapi.{name} of {obj!r}")
                return _Symbol("native", attribute=obj.name, convert=_TO_NATIVE[name])
            return to_native
        if name in _FROM_NATIVE:
            def from_native(val, *rest):
                if getattr(val, "what", None) not in ("member", "constant", "jit call"):
                    raise _unreadable(self._kind, f"pyapi.{name} of {val!r}")
                return _Symbol("object of", source=val, convert=_FROM_NATIVE[name])
            return from_native
        return super().__getattr__(name)

    def to_native_value(self, typ, obj):
        """Numba's other spelling of c.unbox(typ, obj) (vector's unbox of a
        vector object reads its coordinates object this way)."""
        return _unboxed(self._kind, typ, obj)

    def from_native_value(self, typ, val, env_manager=None):
        """Numba's other spelling of c.box(typ, val)."""
        return _boxed(self._kind, val)

    def decref(self, obj):
        pass

    incref = decref

    def err_occurred(self):
        return _Symbol("error flag")

    def serialize_object(self, obj):
        return _Symbol("serialized", obj=obj)

    def unserialize(self, obj):
        if getattr(obj, "what", None) != "serialized":
            raise _unreadable(self._kind, f"pyapi.unserialize of {obj!r}")
        return _Symbol("python object", obj=obj.obj)

    def call_function_objargs(self, callee, args):
        if getattr(callee, "what", None) != "python object":
            raise _unreadable(self._kind, f"pyapi.call_function_objargs of {callee!r}")
        for a in args:
            if getattr(a, "what", None) not in ("object of", "python object"):
                raise _unreadable(self._kind, f"pyapi.call_function_objargs with {a!r}")
        return _Symbol("call", callee=callee.obj, args=tuple(args))

    def make_none(self):
        return _Symbol("python object", obj=None)

    def call_jit_code(self, func, sig, args):
        """func (a Python function) compiled for sig and called with args
        (constants): its result, and its error flag (in Python, its
        exception propagates from the unbox or box that calls it)."""
        for a in args:
            if getattr(a, "what", None) != "constant":
                raise _unreadable(self._kind, f"pyapi.call_jit_code with {a!r}")
        return _Symbol("error flag"), _Symbol("jit call", call=_JitCall(func, sig, [a.value for a in args]))

    get_null_object = make_none

    pyobj = _Symbol("PyObject*")  # the LLVM type a box casts an object's address to


class _JitCall:
    """A call of a function compiled for a signature, with constant
    arguments (pyapi.call_jit_code's): made each time an unbox or box
    runs, so that what it raises is raised there."""

    def __init__(self, func, sig, args):
        from ruchey import njit
        self.compiled = njit(func)
        self.args = [numpy.dtype(t.name).type(a) if isinstance(t, types.Type) and t.name else a
                     for t, a in zip(sig.args, args)]
        self.pointer = isinstance(sig.return_type, types.CPointer)  # a voidptr result: an address, an int

    def __call__(self):
        result = self.compiled(*self.args)
        return int(result) if self.pointer else result


class _BoxContext:
    """c, the object Numba gives an unbox or box function."""

    def __init__(self, kind, known=()):
        self.pyapi, self.builder, self.context = _PyApi(kind), _Builder(kind), _Context(kind, known)

    def unbox(self, typ, obj):
        return _unboxed(self.pyapi._kind, typ, obj)

    def box(self, typ, val):
        return _boxed(self.pyapi._kind, val)


def _unboxed(kind, typ, obj):
    """c.unbox(typ, obj) on the stand-ins: an attribute of the object, converted to typ."""
    if getattr(obj, "what", None) != "attribute":
        raise _unreadable(kind, f"c.unbox of {obj!r}")
    return NativeValue(_Symbol("native", attribute=obj.name, convert=typ))


def _boxed(kind, val):
    """c.box(typ, val) on the stand-ins: an object made of a member."""
    if getattr(val, "what", None) != "member":
        raise _unreadable(kind, f"c.box of {val!r}")
    return _Symbol("object of", source=val)


def unbox_array(typ, obj, c):
    """numba.core.boxing.unbox_array, in an unbox ruchey reads."""
    if not isinstance(c, _BoxContext):
        raise NotImplementedError("numba.core.boxing.unbox_array is not supported by ruchey outside the unbox "
                                  "functions of value types it reads")
    return c.unbox(typ, obj)


def box_array(typ, val, c):
    """numba.core.boxing.box_array, in a box ruchey reads."""
    if not isinstance(c, _BoxContext):
        raise NotImplementedError("numba.core.boxing.box_array is not supported by ruchey outside the box "
                                  "functions of value types it reads")
    return c.box(typ, val)


class _Struct:
    """cgutils.create_struct_proxy(typ)(context, builder[, value]): its
    members set (an unbox, a constructor) or read (a box)."""

    def __init__(self, value_type, value=None):
        self.__dict__.update(_value=value_type, _set={}, _given=value)

    def __setattr__(self, name, val):
        if name not in self._value.member_types:
            raise _unreadable("code", f"a struct proxy's unknown member {name!r}")
        self._set[name] = val

    def __getattr__(self, name):
        if name.startswith("_") and name not in self._value.member_types:
            raise AttributeError(name)
        if self._given is None or name not in self._value.member_types:
            raise _unreadable("code", f"a read of member {name!r} of a struct proxy it made")
        return _Symbol("member", name=name)

    def _getvalue(self):
        return _Symbol("struct", struct=self)

    def _get_ptr_by_name(self, name):
        """A member's address (an __array__ lowering's: the array it holds)."""
        if self._given is None or name not in self._value.member_types:
            raise _unreadable("code", f"the address of member {name!r} of a struct proxy it made")
        return _Symbol("member", name=name)


def create_struct_proxy(typ, kind="value"):
    """numba.core.cgutils.create_struct_proxy, in code ruchey reads."""
    def make(context, builder, value=None, ref=None):
        if not isinstance(context, _Context):
            raise NotImplementedError("numba.core.cgutils.create_struct_proxy is not supported by ruchey outside "
                                      "the unbox, box and constructor lowerings of value types it reads")
        value = ref if ref is not None else value  # (a reference to the value: its members read alike)
        if value is not None and getattr(value, "what", None) not in ("value", "argument"):
            raise _unreadable("code", f"create_struct_proxy of {value!r}")
        return _Struct(_realise(typ), value)
    return make


def alloca_once_value(builder, value, name="", zfill=False):
    """numba.core.cgutils.alloca_once_value: in an unbox ruchey reads, a
    slot builder.load gives back (fast_array_utils' keeps its error flag
    there); in an @intrinsic's codegen, stack memory holding value."""
    if isinstance(builder, _Builder):
        return _Symbol("slot", value=value)
    from ruchey import intrinsics
    return intrinsics.alloca_once_value(builder, value, name=name, zfill=zfill)


def alloca_once(builder, ty, size=None, name="", zfill=False):
    """numba.core.cgutils.alloca_once: in a box ruchey reads, a slot
    builder.store fills; in an @intrinsic's codegen, stack memory."""
    if isinstance(builder, _Builder):
        return _Symbol("slot", value=_Symbol("null"))
    from ruchey import intrinsics
    return intrinsics.alloca_once(builder, ty, size=size, name=name, zfill=zfill)


def is_not_null(builder, val):
    """numba.core.cgutils.is_not_null, in code ruchey reads."""
    if not isinstance(builder, _Builder):
        raise NotImplementedError("numba.core.cgutils.is_not_null is not supported by ruchey outside the unbox "
                                  "functions of value types it reads")
    return _Symbol("flag", of=val)


# ---------------------------------------------------------------- a type realised

def _ruchey_type(t, owner, name):
    """A member's type as ruchey holds it: a number, an array, or another
    value type (its named tuple's)."""
    if isinstance(t, types.Type) and isinstance(t.kind, str):
        return _realise(t).named_tuple_type()
    if isinstance(t, types.Type) and t.name not in ("unicode_type",) and t.unit is None:
        return t
    if isinstance(t, types.TupleType) and all(isinstance(i, types.Type) and not i.ndim for i in t.items):
        return t
    raise TypeError(f"{owner}: member {name!r} is a {t!r}; ruchey holds members that are numbers, arrays, "
                    f"tuples of numbers or other value types registered with register_model")


# a named tuple's own names, which no field may take
_NAMED_TUPLE_OWN = frozenset(("_fields", "_field_defaults", "_make", "_replace", "_asdict"))


def _field_name(member, attribute, taken):
    """The named tuple's field for a member: its attribute's name where
    make_attribute_wrapper gives one (a private one, _data, too), else a
    name compiled code never reads."""
    name = attribute if attribute and attribute.isidentifier() and not keyword.iskeyword(attribute) and \
        attribute not in _NAMED_TUPLE_OWN else f"ruchey_member_{len(taken)}"
    return name if name not in taken else f"ruchey_member_{len(taken)}"


def _named_tuple_class(name, fields):
    """A named tuple class of these fields. collections.namedtuple refuses
    private names (a pandas-like Index's _data): it is made with stand-ins
    for them, then given their names, in _fields (which compiled code
    reads) and as properties."""
    cls = collections.namedtuple(name, [f"ruchey_private_{i}" if f.startswith("_") else f
                                        for i, f in enumerate(fields)], module=__name__)
    for i, f in enumerate(fields):
        if f.startswith("_"):
            setattr(cls, f, property(operator.itemgetter(i)))
    cls._fields = tuple(fields)
    return cls


class _Value:
    """A package's type object as ruchey holds its values: members, the
    named tuple class of them, and how its objects are converted and boxed."""

    def __init__(self, typ):
        self.typ = typ
        cls = type(typ)
        model = _registered(_models, cls)
        if model is None:
            raise TypeError(f"{typ!r} ({cls.__name__}) has no data model: register_model({cls.__name__}) "
                            f"is needed before compiled code takes its values")
        made = model(_DataModelManager(), typ)
        self.opaque = isinstance(made, OpaqueModel)
        if not isinstance(made, (StructModel, OpaqueModel)):
            raise NotImplementedError(f"register_model({cls.__name__}): ruchey takes StructModel and OpaqueModel "
                                      f"subclasses, got {model.__name__}")
        self.members = [m for m, _ in made._members]
        self.member_types = {m: _ruchey_type(t, typ.name, m) for m, t in made._members}
        wrapped = {}
        for klass in reversed(cls.__mro__):
            for member, attribute in _wrappers.get(klass, ()):
                if member not in self.member_types:
                    raise TypeError(f"make_attribute_wrapper({cls.__name__}, {member!r}, {attribute!r}): "
                                    f"{typ.name} has no member {member!r} (members: {self.members})")
                wrapped[member] = attribute
        fields = []
        for m in self.members:
            fields.append(_field_name(m, wrapped.get(m), fields))
        self.fields = dict(zip(self.members, fields))
        self.shadow = _named_tuple_class(typ.name if typ.name.isidentifier() else cls.__name__, fields)
        self.shadow.__qualname__ = f"{typ.name} (the members ruchey holds of it)"
        self.unboxing = None  # [(attribute, conversion)] for each member, read on first use
        self.array_field = None  # an array-like type's: the field holding the array (read from __array__'s lowering)
        self.boxer = None

    def named_tuple_type(self):
        return types.NamedTupleType([self.member_types[m] for m in self.members], self.shadow)

    # -------- unbox

    def _read_unbox(self):
        func = _registered(_unboxers, type(self.typ))
        if func is None:
            raise TypeError(f"{self.typ.name} has no unbox function: @unbox({type(self.typ).__name__}) is needed "
                            f"for compiled code to take its objects")
        c = _BoxContext("unbox", (func, self.typ))
        result = func(self.typ, _Symbol("object"), c)
        value = getattr(result, "value", None)
        if self.opaque and getattr(value, "what", None) == "dummy":  # an OpaqueModel's: nothing to read
            return [(None, lambda: 0)]
        if self.opaque and getattr(value, "what", None) == "jit call":  # its pointer made by compiled code
            return [(None, value.call)]
        if not self.members and getattr(value, "what", None) == "dummy":
            return []
        struct = getattr(value, "struct", None)
        if not isinstance(result, NativeValue) or getattr(value, "what", None) != "struct":
            raise _unreadable("unbox", f"return of {value!r}, not NativeValue(struct._getvalue())")
        missing = [m for m in self.members if m not in struct._set]
        if missing:
            raise _unreadable("unbox", f"members {missing} left unset")
        steps = []
        for m in self.members:
            v = struct._set[m]
            if getattr(v, "what", None) != "native":
                raise _unreadable("unbox", f"member {m!r} set from {v!r}, not from an attribute")
            steps.append((v.attribute, v.convert))
        return steps

    def convert(self, obj):
        """obj's members as the named tuple compiled code takes."""
        if self.unboxing is None:
            self.unboxing = self._read_unbox()
        items = []
        for m, (attribute, conversion) in zip(self.members, self.unboxing):
            if attribute is None:  # a member made of nothing the object holds
                items.append(conversion())
                continue
            try:
                v = getattr(obj, attribute)
            except AttributeError:
                raise TypeError(f"{type(obj).__name__} object has no attribute {attribute!r}, which the unbox "
                                f"of {self.typ.name} reads") from None
            items.append(self._member(m, attribute, v, conversion, obj))
        return self.shadow(*items)

    def _member(self, member, attribute, v, conversion, obj):
        where = f"{self.typ.name}'s member {member!r} (attribute {attribute!r})"
        if conversion in (float, int, bool):
            try:
                v = conversion(v)
            except (TypeError, ValueError) as exc:
                raise TypeError(f"{where}: {exc}") from None
        want = self.member_types[member]
        v = self._member_value(member, v, where, _Value.convert,
                               lambda a: not ((want.layout == "C" and not a.flags.c_contiguous) or
                                              (want.layout == "F" and not a.flags.f_contiguous)))
        if isinstance(v, numpy.ndarray) and getattr(obj, attribute) is not v:  # compiled code borrows the object's array
            raise TypeError(f"{where}: the attribute makes a new array each time it is read; ruchey needs "
                            f"the object to hold its array")
        return v

    def _member_value(self, member, v, where, nested, fits_layout):
        """v as member's item of the named tuple: an object of a nested value
        type as nested (convert or constant) makes it, an array of the
        member's dtype and dimensions that fits_layout as it is, a number as
        the member's dtype; a TypeError naming where otherwise."""
        want = self.member_types[member]
        if isinstance(want, types.NamedTupleType) and want.cls in _by_shadow:
            value = _by_shadow[want.cls]
            found = _package_type(v)
            if found is None or _realise(found) is not value:
                raise TypeError(f"{where}: expected an object of {value.typ.name}, got {type(v).__name__}")
            return nested(value, v)
        if isinstance(want, types.TupleType):  # (a named tuple's class makes it: vector's coordinates)
            items = tuple(numpy.dtype(t.name).type(x) for t, x in zip(want.items, v))
            return want.cls(*items) if isinstance(want, types.NamedTupleType) else items
        if want.ndim:
            if not isinstance(v, numpy.ndarray) or v.dtype != numpy.dtype(want.name) or v.ndim != want.ndim or \
                    not fits_layout(v):
                raise TypeError(f"{where}: expected {want!r}, got {_describe(v)}")
            return v
        try:
            return numpy.dtype(want.name).type(v)
        except (TypeError, ValueError, OverflowError) as exc:
            raise TypeError(f"{where}: expected {want!r}, got {v!r} ({exc})") from None

    # -------- lower_constant

    def constant(self, obj):
        """obj, a global, as the named tuple its type's lower_constant makes:
        read on the stand-ins given obj itself, each member the global's own
        value it sets (context.get_constant_generic), or no member at all
        (an OpaqueModel's context.get_dummy_value())."""
        func = _registered(_constant_lowerings, type(self.typ))
        if func is None and isinstance(self.typ, types.Dummy) and (self.opaque or not self.members):
            return self._dummy()  # (Numba lowers every Dummy type's constant as its dummy value)
        if func is None:
            raise TypeError(f"{type(obj).__name__} objects (of {self.typ.name}) are read in compiled code as "
                            f"globals only through a lower_constant({type(self.typ).__name__}), as under Numba; "
                            f"none is registered")
        result = func(_Context("lower_constant", (func, self.typ)), _Builder("lower_constant"), self.typ, obj)
        if (self.opaque or not self.members) and getattr(result, "what", None) == "dummy":
            return self._dummy()
        if getattr(result, "what", None) != "struct":
            raise _unreadable("lower_constant", f"return of {result!r}, not struct._getvalue() or "
                                                f"context.get_dummy_value()")
        items = []
        for m in self.members:
            v = result.struct._set.get(m)
            if getattr(v, "what", None) != "constant":
                raise _unreadable("lower_constant", f"member {m!r} set from {v!r}, not "
                                                    f"context.get_constant_generic of a value")
            items.append(self._constant_member(m, v.value))
        return self.shadow(*items)

    def _dummy(self):
        """context.get_dummy_value() as the named tuple: an OpaqueModel's null pointer, else no members."""
        return self.shadow(0) if self.opaque else self.shadow()

    def _constant_member(self, member, v):
        # an array as it is: frozen, as any global array (Numba's constant arrays are its code's too)
        return self._member_value(member, v, f"the lower_constant of {self.typ.name}: member {member!r}",
                                  _Value.constant, lambda a: True)

    # -------- box

    def _read_box(self):
        func = _registered(_boxers, type(self.typ))
        if func is None:
            message = f"{self.typ.name} has no box function: @box({type(self.typ).__name__}) is needed to return it"
            return _refusing(TypeError(message))
        c = _BoxContext("box", (func, self.typ))
        try:
            result = func(self.typ, _Symbol("value"), c)
        except UnsupportedLowering:
            raise
        except Exception as exc:  # noqa: BLE001 - the package's own refusal (numba_progress' TypeError)
            return _refusing(exc)
        if getattr(result, "what", None) == "python object":  # an object the type holds (clifford's Layout)
            return lambda *items, obj=result.obj: obj
        if getattr(result, "what", None) == "object of":  # a number: a member's, or a compiled function's result
            return self._number_boxer(result)
        if getattr(result, "what", None) != "call":
            raise _unreadable("box", f"return of {result!r}, not a call of a Python object")
        callee, sources = result.callee, []
        for a in result.args:
            if a.what == "python object":
                sources.append((None, a.obj))
            elif getattr(a.source, "what", None) == "constant":
                sources.append((None, a.source.value))
            else:
                sources.append((self.members.index(a.source.name), None))

        def boxer(*items):
            return callee(*[items[i] if i is not None else const for i, const in sources])
        return boxer

    def _number_boxer(self, result):
        source, convert = result.source, getattr(result, "convert", None)
        if convert is None:
            raise _unreadable("box", f"return of {result!r}, not a call of a Python object or a number")
        if source.what == "jit call":
            return lambda *items: convert(source.call())
        if source.what == "constant":
            return lambda *items: convert(source.value)
        index = self.members.index(source.name)
        return lambda *items: convert(items[index])

    def box(self, *items):
        if self.boxer is None:
            self.boxer = self._read_box()
        return self.boxer(*items)


def _refusing(exc):
    def boxer(*items):
        raise exc
    return boxer


def _describe(v):
    if isinstance(v, numpy.ndarray):
        layout = "C" if v.flags.c_contiguous else "F" if v.flags.f_contiguous else "A"
        return f"array({v.dtype}, {v.ndim}d, {layout})"
    return type(v).__name__


def _realise(typ):
    """The _Value of a package's type object, made on first use."""
    if not isinstance(typ, types.Type) or not isinstance(typ.kind, str):
        raise TypeError(f"expected a type object of a package's own (a subclass of types.Type), got {typ!r}")
    key = typ._key()  # its class and key, as Numba tells types apart
    value = _values.get(key)
    if value is None:
        value = _values[key] = _Value(typ)
        _by_shadow[value.shadow] = value
        _core._value_boxer(value.shadow, value.box)
        extending._named_values[value.shadow] = typ
    return value


def _convert(obj):
    """An object of a class typeof_impl registered, as its members' named tuple (values.c calls it)."""
    typ = _registered(_typeofs, type(obj))(obj, None)
    if typ is None:
        raise TypeError(f"the typeof function registered for {type(obj).__name__} returned None")
    return _realise(typ).convert(obj)


def _package_type(obj):
    """obj's type object where it is of a package's value type: by the
    typeof_impl registered for its class, or its _numba_type_ (Numba's
    undocumented typeof, which clifford's MultiVector and Layout have); None
    where it is neither."""
    func = _registered(_typeofs, type(obj))
    if func is not None:
        return func(obj, None)
    typ = getattr(obj, "_numba_type_", None)
    if isinstance(typ, types.Type) and isinstance(typ.kind, str) and _registered(_models, type(typ)) is not None:
        return typ
    return None


def _convert_by_numba_type(obj):
    """An object whose class has _numba_type_, as its members' named tuple;
    None where that is no value type of a package's (values.c calls it)."""
    typ = _package_type(obj)
    return None if typ is None else _realise(typ).convert(obj)


def _constant(obj):
    """A global or closure object of a package's value type, as the named
    tuple compiled code freezes: what its type's lower_constant sets each
    member to (values.c calls it; None: obj is of no such type)."""
    typ = _package_type(obj)
    return None if typ is None else _realise(typ).constant(obj)


_core._value_hooks(_convert_by_numba_type, _constant)


def describe(typ):
    """A package's type object as the dispatcher describes types."""
    return _realise(typ).named_tuple_type().describe()


# ---------------------------------------------------------------- constructors in compiled code

class _Signature:
    def __init__(self, return_type, args):
        self.return_type, self.args = return_type, tuple(args)


class _TypingContext:
    """The context a type_callable function and an @intrinsic's typing
    function are given (numba.core.typing.Context)."""

    def can_convert(self, fromty, toty):
        return True

    def resolve_value_type(self, val):
        return types.typeof(val)

    def unify_pairs(self, first, second):
        """The type of a variable holding values of both types, as compiled
        code unifies them (numbers by NumPy's promotion, None and a value an
        Optional, tuples item by item); None where none holds both."""
        from ruchey import inspection
        described = _core.unify_described(first.describe(), second.describe())
        return None if described is None else inspection._type_of(described)

    def unify_types(self, *typelist):
        """The types unified in turn, narrower numbers first (as Numba's, so
        that the order they are given in does not change the result)."""
        ordered = sorted(typelist, key=lambda t: getattr(t, "bitwidth", 0))
        unified = ordered[0]
        for t in ordered[1:]:
            unified = self.unify_pairs(unified, t)
            if unified is None:
                break
        return unified


class _Constructor:
    """Cls(...) in compiled code, typed by type_callable's function and built
    by lower_builtin's (read as which argument sets which member)."""

    def __init__(self, cls):
        self.cls, self.typer, self.lowerings = cls, None, []

    def typed(self, func):
        self.typer = func(_TypingContext())
        if not callable(self.typer):
            raise TypeError(f"type_callable({self.cls.__name__}): the function returned {self.typer!r}, not a typer")
        overloads = extending._Overloads(self.cls.__name__)
        overloads.typers.append((self.choose, {}, False))
        extending._callees[self.cls] = extending._generic(self.typer, overloads)

    def choose(self, *argtypes):
        """The typing function of a construction: the package's typer's own
        exception reaches the caller unchanged, as Numba's; its lowering's
        failures are compile errors, as Numba's LoweringError."""
        typ = self.typer(*argtypes)
        if typ is None:
            return None
        try:
            value = _realise(typ)
            impl = self._lowering(argtypes)
            if impl is None:
                raise TypeError(f"{self.cls.__name__}{argtypes}: no lower_builtin({self.cls.__name__}, ...) takes "
                                f"these types")
            return _read_construction(value, impl, _Signature(typ, argtypes), "constructor")
        except Exception as exc:  # noqa: BLE001 - whatever the package's lowering raised
            raise _core.TypingError(f"{type(exc).__name__}: {exc}") from exc

    def _lowering(self, argtypes):
        for sig, impl in self.lowerings:
            if len(sig) == len(argtypes) and all(_matches(a, s) for a, s in zip(argtypes, sig)):
                return impl
        return None


def _read_construction(value, impl, sig, kind):
    """A compiled function building value of sig's arguments as lowering impl
    (a constructor's, an @intrinsic's codegen) sets its members."""
    struct = impl(_Context(kind), _Builder(kind), sig, [_Symbol("argument", index=i) for i in range(len(sig.args))])
    if getattr(struct, "what", None) != "struct":
        raise _unreadable(kind, f"return of {struct!r}, not struct._getvalue()")
    parts = []
    for m in value.members:
        v = struct.struct._set.get(m)
        if getattr(v, "what", None) == "argument":
            parts.append((v.index, None))
        elif getattr(v, "what", None) == "constant":
            parts.append((None, v.value))
        else:
            raise _unreadable(kind, f"member {m!r} set from {v!r}")
    return _construction(value, parts, len(sig.args))


def is_value_type(t):
    """Whether t is a type object of a package's own (a types.Type subclass's, named by a str kind)."""
    return isinstance(t, types.Type) and isinstance(t.kind, str)


def intrinsic_construction(name, sig, codegen):
    """An @intrinsic returning a package's value type, as Numba's that fill a
    struct proxy of it from their arguments (fast_array_utils' sparse copy):
    the ruchey function doing so."""
    from ruchey import njit
    return njit(_read_construction(_realise(sig.return_type), codegen, sig, f"intrinsic {name}'s codegen"))


def impl_ret_borrowed(context, builder, typ, value):
    """numba.core.imputils.impl_ret_borrowed (and impl_ret_new_ref,
    impl_ret_untracked): the value a lowering returns, as it is. Numba adds
    a reference to a borrowed one; ruchey counts the members of a value it
    builds itself, and an intrinsic's own IR returns numbers."""
    return value


def _matches(t, s):
    """Whether a lowering's declared type s takes argument type t (types.Any,
    or types.Type, the class of every type under Numba: any)."""
    if s is types.Any or s is types.Type:
        return True
    return isinstance(t, s) if isinstance(s, type) else t == s


def _construction(value, parts, nargs):
    """A compiled function making value's named tuple of the arguments, each
    member converted to its type."""
    params = [f"a{i}" for i in range(nargs)]
    ns = {"__shadow__": value.shadow}
    items = []
    for k, (m, (index, const)) in enumerate(zip(value.members, parts)):
        want = value.member_types[m]
        item = params[index] if index is not None else f"__const{k}__"
        if index is None:
            ns[f"__const{k}__"] = const
        if isinstance(want, types.Type) and not want.ndim:
            ns[f"__as{k}__"] = getattr(numpy, want.name)
            item = f"__as{k}__({item})"
        items.append(item)
    source = f"def construct({', '.join(params)}):\n    return __shadow__({', '.join(items)})\n"
    return _exec_functions(source, ns, f"<constructor of {value.typ.name} {len(_values)}>")["construct"]


def type_callable(cls, func):
    """type_callable(cls) of a class typeof_impl knows: cls(...) in compiled code."""
    _constructors.setdefault(cls, _Constructor(cls)).typed(func)


def lower_constructor(cls, argtypes, impl):
    _constructors.setdefault(cls, _Constructor(cls)).lowerings.append((tuple(argtypes), impl))


# ---------------------------------------------------------------- array-like value types

def lower_array(type_class, func):
    """lower_builtin('__array__', cls): cls's values (an ArrayCompatible
    type's, a pandas-like Index) stand for the array one of their members
    holds, as Numba's array code reads them through it: len(x) and x[i]
    are the array's, an array taken by x[i] (a slice) made a value of x's
    type again, holding it in that member, as Numba's Buffer types are."""
    _array_lowerings[type_class] = func
    if not _array_overloads:
        _array_overloads.extend((extending.overload(len)(_array_len),
                                 extending.overload(operator.getitem)(_array_getitem)))
        _array_overloads.extend(extending.overload(u)(_ufunc_typer(u)) for u in vars(numpy).values()
                                if isinstance(u, numpy.ufunc) and u.signature is None and u.nout in (1, 2) and
                                u.nin in (1, 2))


_array_overloads = []


def array_field(typ):
    """The field of typ's named tuple holding the array its values stand
    for (its __array__ lowering returns that member's address); None where
    typ is no array-like type of a package's."""
    if not is_value_type(typ) or not isinstance(typ, types.ArrayCompatible):
        return None
    func = _registered(_array_lowerings, type(typ))
    if func is None:
        return None
    value = _realise(typ)
    if value.array_field is None:
        got = func(_Context("__array__ lowering"), _Builder("__array__ lowering"), _Signature(typ.as_array, (typ,)),
                   [_Symbol("value")])
        if getattr(got, "what", None) != "member":
            raise _unreadable("__array__ lowering", f"return of {got!r}, not the address of a member")
        value.array_field = value.fields[got.name]
    return value.array_field


def _array_function(source, name, typ):
    ns = {"__shadow__": _realise(typ).shadow}
    return _exec_functions(source, ns, f"<{name} of {typ.name}>")["impl"]


def _array_len(x):
    field = array_field(x)
    if field is not None:
        return _array_function(f"def impl(x):\n    return len(x.{field})\n", "len", x)


def _takes_an_item(typ, index):
    """Whether x[index] of an array of typ's dimensions is one item (an int per dimension)."""
    ints = index.items if isinstance(index, types.TupleType) else (index,)
    return len(ints) == typ.ndim and all(isinstance(i, types.Integer) for i in ints)


def _array_getitem(x, index):
    field = array_field(x)
    if field is None:
        return None
    if _takes_an_item(x, index):
        return _array_function(f"def impl(x, index):\n    return x.{field}[index]\n", "getitem", x)
    # a view: a value of x's type holding it, the other members x's
    items = ", ".join("taken" if f == field else f"x.{f}" for f in _realise(x).fields.values())
    source = f"def impl(x, index):\n    taken = x.{field}[index]\n    return __shadow__({items})\n"
    return _array_function(source, "getitem", x)


def type_array_wrap(func):
    """type_callable('__array_wrap__'): the type a ufunc's result on an array-like value is made (Numba's
    pandas-like Index stays an Index, of the result's dtype)."""
    _array_wrap_typers.append(func(_TypingContext()))


def lower_array_wrap(type_class, func):
    """lower_builtin('__array_wrap__', cls, types.Array): how that value is built of the input and the array."""
    _array_wraps[type_class] = func


def _ufunc_typer(u):
    """An overload of the ufunc u for array-like values: as Numba's, applied to the arrays they stand for, each
    result (of divmod, frexp, modf: the two) made a value of the first one's type again where its __array_wrap__
    says so (else the array)."""
    if u.nin == 1:
        def typer(x):
            return _array_ufunc(u, (x,))
    else:
        def typer(x1, x2):
            return _array_ufunc(u, (x1, x2))
    return typer


def _array_ufunc(u, argtypes):
    fields = [array_field(t) for t in argtypes]
    if not any(fields):
        return None
    k = next(i for i, f in enumerate(fields) if f)
    params = [f"a{i}" for i in range(len(argtypes))]
    operands = ", ".join(f"a{i}.{f}" if f else f"a{i}" for i, f in enumerate(fields))
    ns = {"__ufunc__": u}
    results = _ufunc_results(u, argtypes) or [None] * u.nout
    outputs = []  # each output: the array the ufunc gives, or a value of argument k's type holding it
    for i, result in enumerate(results):
        wrapped = _wrapped_type(argtypes[k], result) if result is not None else None
        if wrapped is None:
            outputs.append(f"taken{i}")
        else:
            ns[f"__shadow{i}__"] = _realise(wrapped).shadow
            outputs.append(f"__shadow{i}__({_read_array_wrap(argtypes[k], wrapped, result, k, f'taken{i}')})")
    taken = ", ".join(f"taken{i}" for i in range(u.nout))
    given = outputs[0] if u.nout == 1 else f"({', '.join(outputs)})"  # (NumPy's tuple of a ufunc's outputs)
    body = f"    {taken} = __ufunc__({operands})\n    return {given}\n"
    source = f"def impl({', '.join(params)}):\n{body}"
    return _exec_functions(source, ns, f"<{u.__name__} of {argtypes[k].name}>")["impl"]


def _ufunc_results(u, argtypes):
    """The array types of u's outputs for these operands (NumPy's loop for their dtypes, the arrays' dims); None
    where an operand is neither an array-like value, an array nor a number."""
    dtypes, ndim = [], 0
    for t in argtypes:
        t = t.as_array if is_value_type(t) else types.unliteral(t)
        if not isinstance(t, types.Type) or isinstance(t.kind, str) or t.unit is not None:
            return None
        dtypes.append(numpy.dtype(t.dtype.name))
        ndim = max(ndim, t.ndim)
    with numpy.errstate(all="ignore"):
        try:
            out = u(*[numpy.zeros(1, d) for d in dtypes])
        except TypeError:  # no loop for these dtypes: the call's own error, as for the arrays
            return None
    return [types.Array(types.from_dtype(o.dtype), ndim, "C") for o in (out if u.nout > 1 else (out,))]


def _wrapped_type(typ, result):
    """The type __array_wrap__'s typer makes u's result on typ (None: the array itself)."""
    if _registered(_array_wraps, type(typ)) is None:
        return None
    for typer in _array_wrap_typers:
        wrapped = typer(typ, result)
        if wrapped is not None:
            return wrapped
    return None


def _read_array_wrap(typ, wrapped, result, k, taken):
    """The items of wrapped's named tuple as __array_wrap__'s lowering sets its members: the ufunc's array
    (the variable named taken), or a member of the input (argument k)."""
    func = _registered(_array_wraps, type(typ))
    kind = "__array_wrap__ lowering"
    got = func(_Context(kind), _Builder(kind), _Signature(wrapped, (typ, result)),
               [_Symbol("value"), _Symbol("argument", index=1)])
    if getattr(got, "what", None) != "struct":
        raise _unreadable(kind, f"return of {got!r}, not struct._getvalue()")
    source, dest, items = _realise(typ), _realise(wrapped), []
    for m in dest.members:
        v = got.struct._set.get(m)
        if getattr(v, "what", None) == "argument":
            items.append(taken)
        elif getattr(v, "what", None) == "member" and v.name in source.fields:
            items.append(f"a{k}.{source.fields[v.name]}")
        else:
            raise _unreadable(kind, f"member {m!r} set from {v!r}")
    return ", ".join(items)


# ---------------------------------------------------------------- implicit conversions to numbers

# the operators whose number operands a package's value converts to implicitly, as Numba's typing of them tries
# its own number signatures (with the type's can_convert_to) before a package's overloads
_NUMBER_OPERATORS = (operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
                     operator.pow, operator.iadd, operator.isub, operator.imul, operator.itruediv,
                     operator.ifloordiv, operator.imod, operator.ipow, operator.eq, operator.ne, operator.lt,
                     operator.le, operator.gt, operator.ge)


def lower_cast(type_class, to, func):
    """lower_cast(cls, types.Number): cls's values are numbers where an
    operator takes them (a + b, operator.add(a, b)), as under Numba: the
    number func's lowering gives (read on the stand-ins: a constant, or a
    member), where the type's can_convert_to says it converts. Numba tries
    its number signatures first, so these come before a package's own
    overloads of the operator."""
    _casts.setdefault(type_class, []).append((to, func))
    if _cast_overloads:
        return
    for op in _NUMBER_OPERATORS:
        _cast_overloads.append(extending.overload(op)(_number_operator_typer(op)))
        typers = extending._callees[op]._overloads.typers
        typers.insert(0, typers.pop())


_cast_overloads = []


def _number_operator_typer(op):
    def typer(lhs, rhs):
        return _number_operator(op, (lhs, rhs))
    return typer


def _number_operator(op, argtypes):
    """op of operands that are numbers or values converting to one (at least one such value): op of the
    numbers, the values converted to the other operand's number type (int64 between two values)."""
    numbers = [types.unliteral(t) for t in argtypes if _is_number(types.unliteral(t))]
    target = numbers[0] if numbers else types.int64
    items, ns = [], {"__op__": op}
    for i, t in enumerate(argtypes):
        if _is_number(types.unliteral(t)):
            items.append(f"a{i}")
            continue
        converted = _converted(t, target, i, ns)
        if converted is None:
            return None
        items.append(converted)
    if len(numbers) == len(argtypes):
        return None
    source = f"def impl(a0, a1):\n    return __op__({', '.join(items)})\n"
    return _exec_functions(source, ns, f"<{op.__name__} of {argtypes[0]!r}, {argtypes[1]!r}>")["impl"]


def _is_number(t):
    return isinstance(t, types.Number) and not getattr(t, "ndim", 0)


def _converted(t, target, i, ns):
    """Operand i, of type t, as an expression of the number type target; None where t does not convert."""
    if not is_value_type(t):
        return None
    convertible = getattr(t, "can_convert_to", None)
    func = next((f for to, f in _registered(_casts, type(t)) or () if _matches(target, to)), None)
    if func is None or convertible is None or convertible(_TypingContext(), target) is None:
        return None
    kind = "lower_cast"
    got = func(_Context(kind), _Builder(kind), t, target, _Symbol("value"))
    if getattr(got, "what", None) == "constant":
        ns[f"__as{i}__"], ns[f"__const{i}__"] = numpy.dtype(target.name).type, got.value
        return f"__as{i}__(__const{i}__)"
    raise _unreadable(kind, f"return of {got!r}, not a constant")

