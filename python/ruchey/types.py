"""Numba-style type objects for explicit signatures.

``ruchey.float64``, ``ruchey.int64[:]``, ``ruchey.float32[:, ::1]`` and
``ruchey.float64(ruchey.float64[:], ruchey.int64)`` work as in Numba, and so do
the same written as strings: ``@njit("float64(float64[:], int64)")``.
A type is described to the dispatcher as (scalar kind, ndim, layout); the
scalar kinds are numbered in the compiler's order, which _core exports.
"""
import builtins
import enum
import functools
import itertools
import math
import types as pytypes
import weakref

from ruchey import _core
from ruchey.native import WrapperAddressProtocol


# types by (class, key), as Numba interns its types: making or unpickling a type equal to one that exists gives that
# one, so `is` holds between equal types (clifford compares its LayoutType objects with `is`) and a type unpickled is
# the type pickled (pickle.loads(pickle.dumps(t)) is t)
_INTERNED = weakref.WeakValueDictionary()
# ruchey's own Type classes interned by what they describe (Type's scalars and arrays; 0-d arrays, records and str,
# added once they are defined)
_DESCRIBED_INTERNED = set()


# Numba's Type._code: each interned type's own number in this process, never given again (code written against
# Numba's internals reads it as a type's identity)
_CODES = itertools.count()


def _interned(made):
    """The type equal to made made first (made itself where it is the first)."""
    try:
        found = _INTERNED.setdefault(made._intern_key(), made)
        if found is made:  # (an unpickled type's number, another process's, replaced)
            made.__dict__["_code"] = next(_CODES)
        return found
    except (TypeError, AttributeError, RecursionError):
        # a key holding what has no hash (a package's own key), none yet (a structref's type while its
        # preprocess_fields makes Optional(self)) or none that ends (that Optional, of a type holding it): the type
        # is not interned
        return made


class _Interning(type):
    """Type's metaclass: an instance of a package's own subclass (named, as
    Numba's Type(name)) is the one made first of its class and key; so is a
    scalar, array or record type, as Numba's types are interned (an array
    type's dtype is types.float64 itself: `t.dtype is types.float64` holds)."""

    def __call__(cls, *args, **kwargs):
        made = super().__call__(*args, **kwargs)
        return _interned(made) if isinstance(made.kind, str) or cls in _DESCRIBED_INTERNED else made


class _InterningByKey(type):
    """The metaclass of ruchey's type classes outside Type (tuples, enum
    members, Optional, lists, dicts): each instance is the one made first of
    its class and key (_Interned)."""

    def __call__(cls, *args, **kwargs):
        return _interned(super().__call__(*args, **kwargs))


class _InternalMark:
    """Numba's Type.is_internal, which an overload may read to take the
    compiler's own types alone: whether the type's class is ruchey's, not
    a package's subclass."""

    @property
    def is_internal(self):
        return type(self).__module__.split(".")[0] == "ruchey"


class _Interned(_InternalMark, metaclass=_InterningByKey):
    """A type interned by its class and _key() (the values its equality
    compares), pickled as its state and unpickled as the interned one."""

    def _intern_key(self):
        return (type(self), self._key())

    def __reduce_ex__(self, protocol):
        return _unpickled, (type(self), self.__dict__)


class _OneOfItsKind(_Interned):
    """A type its class makes one of (none, bytes, npy_rng, npy_bitgen, ellipsis): made again or unpickled, that one."""

    def _key(self):
        return ()


def _unpickled(cls, state):
    """A type unpickled: the interned one where it exists."""
    made = cls.__new__(cls)
    if hasattr(made, "__setstate__"):
        made.__setstate__(state)
    else:
        made.__dict__.update(state)
    return _interned(made)


def _comparable(key):
    """Whether a package's type key holds values only: a function in it
    (what a Numba name ruchey lacks makes, types.DType(t) where it is a
    placeholder) differs on each call, so the name tells the types apart."""
    if isinstance(key, tuple):
        return all(_comparable(k) for k in key)
    return not isinstance(key, (pytypes.FunctionType, pytypes.MethodType))


@functools.total_ordering
class Type(_InternalMark, metaclass=_Interning):
    """A scalar type, or an array type when ndim > 0."""

    unit = None  # a datetime64's or timedelta64's: "D", "ns", "" (generic)
    # Numba's Array.aligned: whether the items lie at their ABI alignment, as an array's do unless they are records
    # of a packed structured dtype (Record's says so); a class attribute, which a package's subclass may set
    aligned = True

    def __init__(self, kind=None, ndim=0, layout="C", readonly=False, unit=None, name=None):
        if name is not None:  # Numba's Type(name=...), called by a package's own subclass (numba_progress's)
            kind = name
        if layout.endswith("R"):  # as described: "CR" is a readonly C array
            layout, readonly = layout[:-1], True
        self.kind, self.ndim, self.layout, self.readonly = kind, ndim, layout, builtins.bool(readonly and ndim)
        if unit is not None:
            self.unit = unit

    @property
    def name(self):
        if isinstance(self.kind, str):  # a package's own subclass, named as Numba's Type(name)
            return self.kind
        name = _core.SCALAR_NAMES[self.kind]
        return f"{name}[{self.unit}]" if self.unit else name

    @name.setter
    def name(self, name):
        """A package's own subclass may rename its type after Type.__init__ (vector's momentum types)."""
        if not isinstance(self.kind, str):
            raise AttributeError(f"the name of {self!r} cannot be changed")
        self.kind = name

    def __getitem__(self, dims):
        """float64[:] (any layout), float64[::1] (C), float64[::1, :] (F);
        float64[()] a 0-d array."""
        if self.ndim:
            raise TypeError("an array type cannot be indexed again")
        if dims == ():
            return ZeroDimArray(self)
        return Type(self.kind, *_array_dims(dims), unit=self.unit)

    def __call__(self, *args):
        """float64(int64, float64[:]) is a signature; a scalar type called on
        one value that is no type casts it, as Numba's types do in Python
        (int16(x) is numpy.int16(x); bool: a bool; a datetime's unit kept,
        NPDatetime("D")("2020-01-02") as numpy.datetime64 reads it)."""
        if len(args) == 1 and not self.ndim and not isinstance(self.kind, str) and not _is_type(args[0]):
            import numpy
            if self.name == "bool":
                return builtins.bool(args[0])
            scalar = numpy.dtype(self.name).type
            return scalar(args[0], self.unit) if self.unit else scalar(args[0])
        return Signature(self, args)

    def describe(self):
        if isinstance(self.kind, str):  # a package's own value type: the named tuple of its members
            from ruchey import _values
            return _values.describe(self)
        layout = self.layout + ("R" if self.readonly else "")
        return (self.kind, self.ndim, layout) if self.unit is None else (self.kind, self.ndim, layout, self.unit)

    @property
    def key(self):
        """Numba's: what identifies the type, its name (numpy.iinfo(t.key) of an int type); a
        package's own subclass may define its own."""
        return self.name

    # not a property: a package's own subclass may set its dtype in
    # __init__, as Numba's Type (which has none) lets it (fast_array_utils'
    # sparse matrix types do)
    @functools.cached_property
    def dtype(self):
        """An array type's element type (a scalar's: itself)."""
        return Type(self.kind, unit=self.unit)

    @property
    def mutable(self):
        """Numba's Array.mutable: whether compiled code may write the array."""
        return not self.readonly

    def copy(self, dtype=None, ndim=None, layout=None, readonly=None):
        """Numba's Array.copy(): this array type with the properties given changed."""
        if not isinstance(self, Array):
            raise AttributeError(f"{self!r} is no array type: only those have copy()")
        return Array(self.dtype if dtype is None else dtype, self.ndim if ndim is None else ndim,
                     self.layout if layout is None else layout, self.readonly if readonly is None else readonly)

    @property
    def bitwidth(self):
        """A scalar's width in bits (bool: 8)."""
        name = self.name
        return 8 if name == "bool" else int("".join(c for c in name if c.isdigit()))

    @property
    def signed(self):
        return self.name.startswith(("int", "float"))

    @property
    def underlying_float(self):
        """A complex type's parts' type, as Numba's Complex.underlying_float (complex64: float32)."""
        if not self.ndim and self.name in ("complex64", "complex128"):
            return _SCALARS["float32" if self.name == "complex64" else "float64"]
        raise AttributeError(f"{self!r} is no complex type: only those have underlying_float")

    @property
    def minval(self):
        """Numba's Integer.minval: the least value of an int type."""
        return self._int_info().min

    @property
    def maxval(self):
        """Numba's Integer.maxval: the greatest value of an int type."""
        return self._int_info().max

    def _int_info(self):
        if not isinstance(self, Integer):
            raise AttributeError(f"{self!r} is no integer type: only those have minval and maxval")
        import numpy
        return numpy.iinfo(self.name)

    def _key(self):
        # a package's own type, by its class and its key, as Numba's: its name, or what its class's key property
        # gives (clifford's MultiVectorType's layout and array types, fast_array_utils' dtypes under one name);
        # describing it makes its values' class
        if not isinstance(self.kind, str):
            return self.describe()
        own = getattr(type(self), "key", None)
        key = self.key if isinstance(own, property) else self.kind
        return (type(self), key if _comparable(key) else self.kind)

    def _intern_key(self):
        # (a ruchey subclass's description may equal Type's: a 0-d array's, unicode_type's)
        return self._key() if type(self) is Type or isinstance(self.kind, str) else (type(self), self._key())

    def __eq__(self, other):
        return isinstance(other, Type) and self._key() == other._key()

    def __reduce_ex__(self, protocol):
        if type(self) is Type and not isinstance(self.kind, str):  # unpickled as the interned one
            return Type, (self.kind, self.ndim, self.layout, self.readonly, self.unit)
        if not isinstance(self.kind, str) and type(self) not in _DESCRIBED_INTERNED:
            return super().__reduce_ex__(protocol)
        getstate = getattr(self, "__getstate__", None)  # (a package's own, or Python 3.11's object.__getstate__)
        state = getstate() if getstate else None
        return _unpickled, (type(self), self.__dict__ if state is None else state)

    def __hash__(self):
        return hash(self._key())

    def _family(self):
        """The number types a number type is ordered among (Numba's): ints of its sign, floats, complexes."""
        if self.ndim or isinstance(self.kind, str) or self.unit is not None:
            return None
        return next((f for f in ("uint", "int", "float", "complex") if self.name.startswith(f)), None)

    def __lt__(self, other):
        """Numba's order of number types of one family, by width (sorted(types.signed_domain))."""
        family = self._family()
        if family is None or not isinstance(other, Type) or other._family() != family:
            return NotImplemented
        return self.bitwidth < other.bitwidth

    def __repr__(self):
        if not self.ndim:
            return self.name
        return f"{'readonly ' if self.readonly else ''}array({self.name}, {self.ndim}d, {self.layout})"


_DESCRIBED_INTERNED.add(Type)


def _array_dims(dims):
    """(ndim, layout) of an array type written t[:], t[::1], t[::1, :]."""
    dims = dims if isinstance(dims, tuple) else (dims,)
    if not all(isinstance(d, slice) and d.start is None and d.stop is None and d.step in (None, 1)
               for d in dims):
        raise KeyTypeError(f"Can only index numba types with slices with no start or stop, got {dims!r}: array "
                           f"dimensions are written ':' or '::1'")
    unit = [d.step == 1 for d in dims]
    layout = "A"
    if unit[-1] and not any(unit[:-1]):
        layout = "C"
    elif unit[0] and not any(unit[1:]) and len(dims) > 1:
        layout = "F"
    return len(dims), layout


class ZeroDimArray(Type):
    """A 0-d array of a scalar type: Numba's Array(float64, 0, "C"), also
    written float64[()]; what typeof gives for numpy.array(2.5). Its ndim
    is 0 as a number's is: isinstance(t, Array) tells them apart."""

    def __init__(self, dtype, layout="C", readonly=False):
        if layout.endswith("R"):
            layout, readonly = layout[:-1], True
        # a 0-d array is C and F contiguous at once: compiled code knows it as C
        super().__init__(dtype.kind, 0, "C" if layout == "F" else layout, unit=dtype.unit)
        self.readonly = builtins.bool(readonly)

    def __getitem__(self, dims):
        raise TypeError("an array type cannot be indexed again")

    def __call__(self, *args):
        return Signature(self, args)

    def describe(self):
        return ("0d", self.dtype.describe(), self.layout + ("R" if self.readonly else ""))

    def _family(self):
        return None

    def __repr__(self):
        return f"{'readonly ' if self.readonly else ''}array({self.name}, 0d, {self.layout})"


def described_type(desc):
    """The type a description (a tuple, as the compiler gives it) stands for."""
    if desc[0] == "0d":
        return ZeroDimArray(described_type(desc[1]), desc[2])
    if desc[0] == "record":  # ("record", its structured dtype, ndim, layout)
        return Record(*desc[1:])
    if len(desc) == 4:  # (kind, ndim, layout, unit): a datetime64's or timedelta64's
        return Type(*desc[:3], unit=desc[3])
    return Type(*desc)


def _is_numba_record_fields(fields):
    """Whether fields is Numba's Record fields: (name, {'type': t, 'offset': n, ...}) pairs."""
    return isinstance(fields, (list, tuple)) and all(
        isinstance(f, (list, tuple)) and len(f) == 2 and isinstance(f[1], dict) for f in fields)


def _field_dtype(t):
    """The NumPy dtype of a record field's type: a number's, a record's, a str's or bytes' ('<Un', '|Sn'), a
    sub-array's (its dtype and shape)."""
    import numpy
    if isinstance(t, UnicodeCharSeq) and not t.ndim:
        return numpy.dtype(f"{t._code}{t.count}")
    if isinstance(t, NestedArray):
        return numpy.dtype((numpy.dtype(t.dtype.name), t.shape))
    if isinstance(t, Record) and not t.ndim:
        return t.np_dtype
    try:  # a number's, a bool's, a datetime's, by its name
        if isinstance(t, Type) and _is_scalar(t):
            return numpy.dtype(t.name)
    except TypeError:
        pass
    raise TypeError(f"a record field's type is a number, a record, a str, bytes or a NestedArray, got {t!r}")


def _dtype_of_record_fields(fields, size, aligned):
    """The structured dtype Numba's Record(fields, size, aligned) describes: each field at its offset (a title
    kept), size bytes in all, an aligned struct where aligned says so."""
    import numpy
    if not isinstance(size, int) or not isinstance(aligned, (builtins.bool, numpy.bool_)):
        raise TypeError(f"Record(fields, size, aligned) takes an int size and a bool aligned, got {size!r}, {aligned!r}")
    names, formats, offsets, titles = [], [], [], []
    for name, info in sorted(fields, key=lambda f: (f[1]["offset"], f[0])):  # (Numba's order: by offset, then name)
        names.append(name)
        formats.append(_field_dtype(info["type"]))
        offsets.append(info["offset"])
        titles.append(info.get("title"))
    spec = dict(names=names, formats=formats, offsets=offsets, itemsize=size, aligned=builtins.bool(aligned))
    if any(titles):
        spec["titles"] = titles
    return numpy.dtype(spec)


class Record(Type):
    """Numba's Record: the type of a structured dtype's records (what
    from_dtype(dtype) gives), or with ndim an array of them (record[:]),
    for explicit signatures; compiled code reads the fields from the dtype
    itself, so equal dtypes are one type."""

    def __init__(self, dtype=None, ndim=0, layout="C", readonly=False, *, fields=None, size=None, aligned=None):
        import numpy
        if fields is not None or _is_numba_record_fields(dtype):  # Numba's Record(fields, size, aligned)
            dtype = _dtype_of_record_fields(dtype if fields is None else fields, ndim if size is None else size,
                                            layout if aligned is None else aligned)
            ndim, layout, readonly = 0, "C", False
        if layout.endswith("R"):
            layout, readonly = layout[:-1], True
        self.kind, self.np_dtype = None, numpy.dtype(dtype)
        self.ndim, self.layout, self.readonly = ndim, layout, builtins.bool(readonly and ndim)

    @property
    def name(self):
        fields = ",".join(f"{n}[type={self.typeof(n)!r};offset={self.offset(n)}{self._title_part(n)}]"
                          for n in self.np_dtype.names)
        return f"Record({fields};{self.size};{self.np_dtype.isalignedstruct})"

    def __getitem__(self, dims):
        if self.ndim:
            raise TypeError("an array type cannot be indexed again")
        return Record(self.np_dtype, *_array_dims(dims))

    def describe(self):
        return ("record", self.np_dtype, self.ndim, self.layout + ("R" if self.readonly else ""))

    @functools.cached_property
    def dtype(self):
        """An array of records' element type; a record's own: its structured dtype, as Numba's."""
        return Record(self.np_dtype) if self.ndim else self.np_dtype

    @classmethod
    def make_c_struct(cls, name_types):
        """Numba's: the record of (name, type) pairs laid out as a C struct
        lays them out, each field at its type's alignment (NumPy's aligned
        dtype); the types are numbers and NestedArray's."""
        import numpy
        fields = []
        for name, t in name_types:
            if isinstance(t, NestedArray):
                fields.append((name, numpy.dtype(t.dtype.name), t.shape))
            elif isinstance(t, Number):
                fields.append((name, numpy.dtype(t.name)))
            else:
                raise TypeError(f"Only Number and NestedArray types are supported, found: {t!r}. ")
        return cls(numpy.dtype(fields, align=True))

    def __len__(self):
        """How many fields, a title counted as one more, as Numba's."""
        return len(self.np_dtype.fields)

    @property
    def size(self):
        """A record's size in bytes."""
        return self.np_dtype.itemsize

    @property
    def aligned(self):
        """Numba's Record.aligned (and an array of records'): whether the dtype is an aligned struct."""
        return self.np_dtype.isalignedstruct

    @property
    def fields(self):
        """Each field's name (and title) -> (its type, its offset), as NumPy's dtype.fields and Numba's."""
        return {name: (self.typeof(name), self.offset(name)) for name in self.np_dtype.fields}

    def _title_part(self, name):
        entry = self.np_dtype.fields[name]
        return f";title={entry[2]}" if len(entry) > 2 and isinstance(entry[2], str) else ""

    def is_title(self, key):
        """Whether key is a field's title (the other name NumPy gives a field), not its name."""
        entry = self.np_dtype.fields[key]
        return len(entry) > 2 and entry[2] == key

    @property
    def members(self):
        return [(name, self.typeof(name)) for name in self.np_dtype.names]

    def typeof(self, name):
        """A field's type: a scalar's, a nested record's, or a C array's for a subarray field."""
        field = self.np_dtype.fields[name][0]
        if field.subdtype is not None:
            base, shape = field.subdtype
            return from_dtype(base)[(slice(None),) * (len(shape) - 1) + (slice(None, None, 1),)]
        return from_dtype(field)

    def offset(self, name):
        return self.np_dtype.fields[name][1]

    def _key(self):
        # (NumPy's equal dtypes may differ in whether they are aligned structs, which the name tells: two types,
        # as Numba's Records of them)
        return self.describe() + (self.np_dtype.isalignedstruct,)

    def _intern_key(self):
        return (Record, self._key())

    def __repr__(self):
        return self.name if not self.ndim else Type.__repr__(self)


class NestedArray(Type):
    """Numba's NestedArray(dtype, shape): a record's sub-array field
    ('v', 'f8', (3, 2)), which compiled code reads as a C array of dtype;
    its shape kept, for Record.make_c_struct."""

    def __init__(self, dtype, shape):
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if isinstance(dtype, NestedArray):  # a sub-array of sub-arrays: their dimensions, outer first
            dtype, shape = dtype.dtype, shape + dtype.shape
        if not isinstance(dtype, Type) or dtype.ndim or not shape:
            raise TypeError(f"NestedArray() takes a scalar type and a shape, got {dtype!r}, {shape!r}")
        super().__init__(dtype.kind, len(shape), "C", unit=dtype.unit)
        self.shape = shape

    @property
    def nitems(self):
        return math.prod(self.shape)

    def _key(self):
        return ("nestedarray", self.describe(), self.shape)

    def __repr__(self):
        return f"nestedarray({self.name}, {self.shape})"


class UnicodeCharSeq:
    """Numba's UnicodeCharSeq(n): the type of a '<Un' record field or
    array element (compiled code reads one as a str), and with ndim an
    array of them (UnicodeCharSeq(5)[:]) for explicit signatures."""

    _code, _item = "U", "unichr"

    def __init__(self, count, ndim=0, layout="C", readonly=False):
        if layout.endswith("R"):
            layout, readonly = layout[:-1], True
        self.count, self.ndim, self.layout, self.readonly = count, ndim, layout, builtins.bool(readonly and ndim)

    @property
    def name(self):
        return f"[{self._item} x {self.count}]"

    @property
    def dtype(self):
        return type(self)(self.count)

    def __getitem__(self, dims):
        if self.ndim:
            raise TypeError("an array type cannot be indexed again")
        return type(self)(self.count, *_array_dims(dims))

    def describe(self):
        return ("text", self._code, self.count, self.ndim, self.layout + ("R" if self.readonly else ""))

    def __eq__(self, other):
        return type(other) is type(self) and other.describe() == self.describe()

    def __hash__(self):
        return hash(self.describe())

    def __repr__(self):
        if not self.ndim:
            return self.name
        return f"{'readonly ' if self.readonly else ''}array({self.name}, {self.ndim}d, {self.layout})"


class CharSeq(UnicodeCharSeq):
    """Numba's CharSeq(n): a '|Sn' field's or element's type (read as bytes)."""

    _code, _item = "S", "char"


class Described(_InternalMark):
    """A type ruchey.types has no class for (a function value's, a
    jitclass's), by its name: what typing functions are given for it."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, Described) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


def _is_instance_type(t):
    """Whether t is a jitclass's instance type (Point.class_type.instance_type,
    of ruchey.experimental, which imports this module): hftbacktest's
    Tuple((order_ty, int64))."""
    return hasattr(t, "jitclass") and callable(getattr(t, "describe", None))


class TupleType(_Interned):
    """A tuple type: Tuple([int64, float64]), or UniTuple(float64, 3) of one item type."""

    def __init__(self, items):
        if not hasattr(items, "__iter__"):  # Tuple(int64), not Tuple([int64]): a TypingError, as Numba's
            raise _core.TypingError(f"a tuple type takes an iterable of item types, got {items!r}")
        for t in items:
            if not isinstance(t, (Type, TupleType, NoneType, ListType, DictType, Described, FunctionType, EnumMember)) and \
                    not (isinstance(t, Optional) and isinstance(t.type, Type) and not t.type.ndim) and \
                    not _is_instance_type(t):
                raise TypeError(f"a tuple's items are ruchey types (an Optional of a number), got {t!r}")
        self.items = tuple(items)

    def __call__(self, *args):
        return Signature(self, args)

    def describe(self):
        # (an Optional number among a returned tuple's items: dcor's (float64, ..., optional(float64)))
        return [("optional", t.type.describe()) if isinstance(t, Optional) else t.describe() for t in self.items]

    def __eq__(self, other):
        return isinstance(other, TupleType) and self.items == other.items

    def _key(self):
        return self.items

    def __hash__(self):
        return hash(self.items)

    def __repr__(self):
        return f"({', '.join(map(repr, self.items))}{',' if len(self.items) == 1 else ''})"

    # what Numba's tuple types tell typing functions (@overload's)
    @property
    def types(self):
        return self.items

    @property
    def count(self):
        return len(self.items)

    @property
    def dtype(self):
        """A tuple of one item type's: that type (Numba's UniTuple.dtype)."""
        if not _homogeneous(self):
            raise AttributeError(f"{self!r} has items of several types: no dtype")
        return self.items[0]

    def __len__(self):
        return len(self.items)

    def __iter__(self):
        return iter(self.items)

    def __getitem__(self, i):
        return self.items[i]


def _homogeneous(t):
    return len(t.items) > 0 and all(item == t.items[0] for item in t.items)


class _TupleCategory(type):
    """A class of tuple types, as Numba's: isinstance(t, types.UniTuple)
    asks whether t's items share one type; calling it makes a type."""

    def __instancecheck__(cls, t):
        return isinstance(t, TupleType) and cls._holds(t)


class BaseTuple(metaclass=_TupleCategory):
    """The class of every tuple type."""

    @staticmethod
    def _holds(t):
        return True


class Tuple(BaseTuple):
    """Numba's Tuple([int64, float64[:]]): a tuple of these item types; and
    the class of tuple types whose items differ (one item type: UniTuple)."""

    def __new__(cls, items):
        return TupleType(items)

    @staticmethod
    def _holds(t):
        return not _homogeneous(t)


class NamedTupleType(TupleType):
    """A named tuple's type: its items' types and its class (a
    collections.namedtuple or typing.NamedTuple)."""

    def __init__(self, items, cls):
        super().__init__(items)
        if not (isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")):
            raise TypeError(f"a named tuple type takes a named tuple class, got {cls!r}")
        if len(cls._fields) != len(self.items):
            raise TypeError(f"{cls.__name__} has {len(cls._fields)} fields, not {len(self.items)}")
        self.cls = cls

    @property
    def instance_class(self):
        """The class, by Numba's name for it (vector's typing picks its coordinate systems by it)."""
        return self.cls

    def describe(self):
        return ("namedtuple", self.cls, super().describe())

    def __eq__(self, other):
        return isinstance(other, NamedTupleType) and (self.items, self.cls) == (other.items, other.cls)

    def __hash__(self):
        return hash((self.items, self.cls))

    def _key(self):
        return (self.items, self.cls)

    def __repr__(self):
        return f"{self.cls.__name__}({', '.join(map(repr, self.items))})"


def _count_of_items(count, name):
    if not isinstance(count, int) or count < 0:
        raise ValueError(f"{name}() takes a count of items, got {count!r}")
    return count


class EnumMember(_Interned):
    """Numba's EnumMember(Color, int64): a member of the enum class cls,
    whose values are of type dtype (IntEnumMember: of an enum.IntEnum)."""

    def __init__(self, cls, dtype):
        if not (isinstance(cls, type) and issubclass(cls, enum.Enum)):
            raise TypeError(f"an enum member type takes an enum class, got {cls!r}")
        self.instance_class = cls
        self.dtype = dtype

    def __call__(self, *args):
        return Signature(self, args)

    def describe(self):
        return ("enum", self.instance_class)

    def __eq__(self, other):
        return isinstance(other, EnumMember) and self._key() == other._key()

    def _key(self):
        return (self.instance_class, self.dtype)

    def __hash__(self):
        return hash((self.instance_class, self.dtype))

    def __repr__(self):
        return f"{type(self).__name__[:-6]}<{self.dtype!r}>({self.instance_class.__name__})"


class IntEnumMember(EnumMember):
    """Numba's IntEnumMember(Shape, int64): a member of an enum.IntEnum class."""


class EnumClass(_Interned):
    """Numba's EnumClass(Color, int64): the type of an enum class itself,
    whose members' values are of type dtype (IntEnumClass: of an
    enum.IntEnum class), what typeof() gives for the class. Compiled code
    reads an enum class as a global (Color.red), not as an argument."""

    member_class = EnumMember

    def __init__(self, cls, dtype):
        if not (isinstance(cls, type) and issubclass(cls, enum.Enum)):
            raise TypeError(f"an enum class type takes an enum class, got {cls!r}")
        self.instance_class = cls
        self.dtype = dtype

    @property
    def member_type(self):
        """The type of the class's members (Numba's EnumClass.member_type)."""
        return self.member_class(self.instance_class, self.dtype)

    def describe(self):
        raise TypeError(f"{self!r} is not supported as an argument of compiled code: read the enum class as a global")

    def __eq__(self, other):
        return isinstance(other, EnumClass) and type(self) is type(other) and self._key() == other._key()

    def _key(self):
        return (self.instance_class, self.dtype)

    def __hash__(self):
        return hash((type(self), self._key()))

    def __repr__(self):
        return f"{type(self).__name__[:-5]}Class<{self.dtype!r}>({self.instance_class.__name__})"


class IntEnumClass(EnumClass):
    """Numba's IntEnumClass(Shape, int64): the type of an enum.IntEnum class."""

    member_class = IntEnumMember


class UniTuple(BaseTuple):
    """Numba's UniTuple(float64, 3): a tuple of count items of one type; and
    the class of such tuple types."""

    def __new__(cls, dtype, count):
        return TupleType((dtype,) * _count_of_items(count, "UniTuple"))

    @staticmethod
    def _holds(t):
        return _homogeneous(t)


class NamedTuple(BaseTuple):
    """Numba's NamedTuple([int64, float64], Point): a Point of these item
    types; and the class of named tuple types whose items differ."""

    def __new__(cls, items, tuple_class):
        return NamedTupleType(items, tuple_class)

    @staticmethod
    def _holds(t):
        return isinstance(t, NamedTupleType) and not _homogeneous(t)


class NamedUniTuple(BaseTuple):
    """Numba's NamedUniTuple(float64, 3, Segment): a Segment of count items
    of one type; and the class of such named tuple types."""

    def __new__(cls, dtype, count, tuple_class):
        return NamedTupleType((dtype,) * _count_of_items(count, "NamedUniTuple"), tuple_class)

    @staticmethod
    def _holds(t):
        return isinstance(t, NamedTupleType) and _homogeneous(t)


class StarArgTuple(BaseTuple):
    """Numba's type of the tuple a typing function taking *args may be
    given them packed in; ruchey gives such a function the arguments' own
    types, one each, so no type is one."""

    @staticmethod
    def _holds(t):
        return False


class StarArgUniTuple(StarArgTuple):
    """The same, of items of one type."""


class Dummy(Type):
    """Numba's base of the types whose values hold nothing compiled code
    reads (a package's own, clifford's LayoutType, with an OpaqueModel)."""


class Opaque(Dummy):
    """Numba's Opaque: the same."""


class Phantom(Dummy):
    """Numba's type of no value, types.Any's: what a lowering's declared
    argument types (lower_builtin(f, types.Any)) and a structref type's
    fields not known yet name."""


Any = Phantom("any")


class ArrayCompatible(Type):
    """Numba's base of the types of array-like values: a package's own
    subclass (a pandas-like Series type) gives as_array, the array type its
    values stand for, whose ndim, layout and dtype it reports. Its values
    are a package's own value type like any other (its data model's
    members), not arrays."""

    array_priority = 0.0

    def __init__(self, name):
        super().__init__(name=name)
        del self.ndim, self.layout  # (as_array's, read when asked: set after this, as Numba's Buffer does)

    @functools.cached_property
    def ndim(self):
        return self.as_array.ndim

    @functools.cached_property
    def layout(self):
        return self.as_array.layout

    @functools.cached_property
    def dtype(self):
        return self.as_array.dtype

    def __repr__(self):
        return self.name


class Buffer(ArrayCompatible):
    """Numba's base of the types of buffer-like values, made of a dtype, a
    number of dimensions and a layout: a package's own subclass (a
    pandas-like Index type)."""

    def __init__(self, dtype, ndim, layout, readonly=False, name=None):
        if layout not in ("C", "F", "A"):
            raise ValueError(f"a buffer's layout is 'C', 'F' or 'A', got {layout!r}")
        if name is None:
            name = f"{'readonly ' if readonly else ''}{type(self).__name__.lower()}({dtype}, {ndim}d, {layout})"
        super().__init__(name)
        self.dtype, self.ndim, self.layout, self.readonly = unliteral(dtype), ndim, layout, builtins.bool(readonly)

    @property
    def as_array(self):
        return self

    def copy(self, dtype=None, ndim=None, layout=None):
        return type(self)(self.dtype if dtype is None else dtype, self.ndim if ndim is None else ndim,
                          self.layout if layout is None else layout)


class Callable(Type):
    """Numba's base of the types of callable values: a package's own
    subclass names the type of a class its code calls."""


class NoneType(_OneOfItsKind):
    """The return type of a function that returns nothing."""

    def __call__(self, *args):
        return Signature(self, args)

    def describe(self):
        return "none"

    def __repr__(self):
        return "none"


class Optional(_Interned):
    """Numba's OptionalType: a value of the type, or None. Compiled code
    gives it to variables and returns that hold a value on some paths and
    None on others; using one where a value is needed checks at run time
    (TypeError if it is None)."""

    def __init__(self, type_):
        # a jitclass's or a deferred type, or a structref's (a tree's node holding Optional(self))
        if not isinstance(type_, (Type, StructRef)) and not hasattr(type_, "describe"):
            raise TypeError(f"Optional() takes a ruchey type, got {type_!r}")
        self.type = type_

    def __call__(self, *args):
        """optional(float64)(float64) is a signature returning an Optional."""
        return Signature(self, args)

    def describe(self):
        raise TypeError(f"{self!r} is only supported among the arguments of a @jit signature")

    def __eq__(self, other):
        return isinstance(other, Optional) and self.type == other.type

    def _key(self):
        return self.type

    def __hash__(self):
        return hash(("optional", self.type))

    def __repr__(self):
        return f"OptionalType({self.type!r})"


def described_alternatives(args):
    """The argument types of a signature as the compiler takes them: an
    Optional argument is compiled for its type and for None, one
    specialisation each, so that a call with either finds its own."""
    choices = [(a.type.describe(), "none") if isinstance(a, Optional) else (a.describe(),) for a in args]
    return list(itertools.product(*choices))


class CPointer:
    """Numba's CPointer(float64): a C pointer to values of a scalar type, an
    argument of a @cfunc. Compiled code reads it with ``carray(p, shape)``
    or ``farray``, or indexes it (``p[i]``); ``voidptr`` is a pointer to
    bytes."""

    def __init__(self, dtype, _name=None):
        if not (isinstance(dtype, Type) and not dtype.ndim or isinstance(dtype, CPointer)):
            raise TypeError(f"CPointer() takes a scalar type or a pointer type, got {dtype!r}")
        self.dtype, self._name = dtype, _name

    def as_array(self):
        """The type compiled code holds the pointer as: a 1-d C array of its
        items, of no known length. A pointer to pointers (float32**) is
        only a native function's parameter, which takes an address."""
        if isinstance(self.dtype, CPointer):
            raise TypeError(f"a pointer to pointers ({self!r}) is taken by a native function's parameter (an "
                            "address), but compiled code holds no value of it (a @cfunc's argument, a field)")
        return self.dtype[::1] if isinstance(self.dtype, Record) else Type(self.dtype.kind, 1, "C")

    def __call__(self, *args):
        """CPointer(float64)(int64): a signature returning a pointer (an @intrinsic's)."""
        return Signature(self, args)

    def __eq__(self, other):
        return isinstance(other, CPointer) and (self.dtype, self._name) == (other.dtype, other._name)

    def __hash__(self):
        return hash(("CPointer", self.dtype, self._name))

    def __repr__(self):
        return self._name or f"{self.dtype!r}*"


class MemInfoPointer:
    """Numba's MemInfoPointer(voidptr): a reference-counted pointer to
    memory a C library made through the NRT table (``NRT_get_api()``),
    with the destructor the library gave. Compiled code holds it in a
    variable or a structref's field (a copy takes a reference, the end of
    its life drops one, the last running the destructor), passes it to
    ``ExternalFunction``s and reads its data in an @intrinsic
    (``context.nrt.meminfo_data``). ruchey has one such type whatever it
    points to."""

    def __init__(self, dtype):
        self.dtype = dtype

    def __call__(self, *args):
        """MemInfoPointer(voidptr)(voidptr, ...): a signature returning one (an ExternalFunction's)."""
        return Signature(self, args)

    def describe(self):
        return ("meminfo", "none")

    def __eq__(self, other):
        return isinstance(other, MemInfoPointer)

    def __hash__(self):
        return hash("MemInfoPointer")

    def __repr__(self):
        return f"MemInfoPointer({self.dtype!r})"


class ExternalFunction:
    """Numba's ExternalFunction(symbol, signature): a C function of this
    process (a library loaded with llvmlite.binding.load_library_permanently
    or ctypes with RTLD_GLOBAL) that compiled code calls by its symbol.
    Arguments and results are numbers, bools, pointers (voidptr, CPointer:
    an address, an array's ``a.ctypes``, a voidptr an @intrinsic gave) and
    MemInfoPointers (one returned is a new reference)."""

    def __init__(self, symbol, sig):
        if not isinstance(symbol, str) or not isinstance(sig, Signature):
            raise TypeError(f"ExternalFunction takes a symbol and a signature, got {symbol!r}, {sig!r}")
        self.symbol, self.sig = symbol, sig

    def __repr__(self):
        return f"ExternalFunction({self.symbol!r}, {self.sig!r})"

    def __wrapper_address__(self):
        """The symbol's address in this process (Numba's LLVM finds it
        among the libraries loaded with RTLD_GLOBAL, as llvmlite loads them)."""
        import ctypes
        try:
            return ctypes.cast(getattr(ctypes.CDLL(None), self.symbol), ctypes.c_void_p).value
        except AttributeError:
            pass
        try:
            from llvmlite import binding
            address = binding.address_of_symbol(self.symbol)
        except ImportError:
            address = None
        if not address:
            raise TypeError(f"ExternalFunction {self.symbol!r}: no such symbol in this process "
                            "(load its library with llvmlite.binding.load_library_permanently)")
        return address

    def signature(self):
        return self.sig

    def __call__(self, *args):
        raise TypeError(f"ExternalFunction {self.symbol!r} is called from compiled code only")


class NumberClass(Described):
    """Numba's NumberClass: the type of a scalar type used as a value
    (``numpy.float64`` passed to a function), described "dtype(float64)";
    its ``dtype`` is the scalar type. Made of that description or, as
    Numba's, of the scalar type (``NumberClass(float64)``)."""

    def __init__(self, name):
        super().__init__(name if isinstance(name, str) else f"dtype({name!r})")

    @property
    def dtype(self):
        return _SCALARS[self.name[len("dtype("):-1]]

    def describe(self):
        """What the compiler reads it as in a signature (a kernel taking numpy.float32)."""
        return ("dtype", self.dtype.describe())


class DType(NumberClass):
    """Numba's types.DType(float64): the type of a NumPy dtype object of a
    scalar type (numpy.dtype("f8") as a value), which ruchey types as the
    scalar type's NumberClass, "dtype(float64)", and equal to it
    (fast_array_utils' sparse matrix types keep their dtypes so)."""

    def __init__(self, dtype):
        super().__init__(f"dtype({dtype!r})")
        self._dtype = dtype  # (any type, as Numba's takes; compiled code takes a scalar type's alone)

    @property
    def dtype(self):
        return self._dtype

    def __getitem__(self, dims):
        """An array type of the dtype's scalar or record type, as Numba's
        (typeof(numpy.dtype(...))[::1] in a signature)."""
        return self._dtype[dims]


def described_dtype(desc):
    """A NumberClass for a description "dtype(<scalar>)", else None."""
    if desc.startswith("dtype(") and desc.endswith(")") and desc[len("dtype("):-1] in _SCALARS:
        return NumberClass(desc)
    return None


def _is_type(a):
    """Whether a is what a signature takes: a ruchey type, or a jitclass's
    instances' (Point.class_type.instance_type, defined where jitclasses are)."""
    return isinstance(a, (Type, TupleType, Optional, CPointer, ListType, Set, DictType, FunctionType, Dispatcher, NoneType,
                          EnumMember, EnumClass, NumberClass, MemInfoPointer, Bytes, UnicodeCharSeq,
                          NumPyRandomGeneratorType, NumPyRandomBitGeneratorType, EllipsisType, ClassInstanceType))


class ClassInstanceType:
    """The base of a jitclass's (or structref's) instance type, which a
    signature takes as an argument's, as Numba's (tsdate's
    void(EPFactors.class_type.instance_type)); ruchey.experimental makes them."""


class Signature:
    """Argument types and a return type (None: inferred)."""

    def __init__(self, return_type, args):
        for a in args:
            if not _is_type(a):
                raise TypeError(f"not a ruchey type in a signature: {a!r}")
        self.return_type, self.args = return_type, tuple(args)

    def __repr__(self):
        return f"{self.return_type!r}({', '.join(map(repr, self.args))})"

    def __eq__(self, other):
        """As Numba's: the same argument types and return type."""
        return isinstance(other, Signature) and (self.return_type, self.args) == (other.return_type, other.args)

    def __hash__(self):
        return hash((self.return_type, self.args))

    def as_type(self):
        """Numba's: the first-class function type of this signature (a parameter's, a jitclass field's)."""
        return FunctionType(self)


_TIME_NAMES = ("datetime64", "timedelta64")  # NPDatetime(unit), NPTimedelta(unit): no plain scalar types
_SCALARS = {name: Type(kind) for kind, name in enumerate(_core.SCALAR_NAMES) if name not in _TIME_NAMES}
_UNITS = ("Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as", "")


def _time_type(name, unit):
    if unit not in _UNITS:
        raise ValueError(f"{name}: no such unit {unit!r} (NumPy's are {', '.join(u for u in _UNITS if u)}, or '')")
    return Type(_core.SCALAR_NAMES.index(name), unit=unit)


def NPDatetime(unit):
    """Numba's NPDatetime('D'): the type of numpy.datetime64 values of that
    unit ('' for the generic unit); NPDatetime('ns')[:] is an array type."""
    return _time_type("datetime64", unit)


def NPTimedelta(unit):
    """Numba's NPTimedelta('s'): the type of numpy.timedelta64 values of that unit."""
    return _time_type("timedelta64", unit)

_ALIASES = {
    "boolean": "bool", "bool_": "bool", "b1": "bool",
    "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64", "intp": "int64", "intc": "int32",
    "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64", "uintp": "uint64",
    "f2": "float16", "half": "float16", "f4": "float32", "f8": "float64", "float_": "float64", "double": "float64", "size_t": "uint64",
    "c8": "complex64", "c16": "complex128",
    # C's names, as Numba gives them on 64-bit Linux
    "int_": "int64", "uint": "uint64", "uintc": "uint32", "byte": "uint8", "char": "int8", "uchar": "uint8",
    "short": "int16", "ushort": "uint16", "long_": "int64", "ulong": "uint64", "longlong": "int64",
    "ulonglong": "uint64", "ssize_t": "int64",
}
class _HashableCategory(_Interning):
    """Hashable's metaclass, a Type's too (UnicodeType derives from both):
    isinstance(t, Hashable) asks t's kind; other classes' checks are type's."""

    def __instancecheck__(cls, t):
        if cls is not Hashable:
            return super().__instancecheck__(t)
        if isinstance(t, (TupleType, UnicodeType)):
            return True
        return isinstance(t, Type) and not isinstance(t.kind, str) and not isinstance(t, Record) and _is_scalar(t)


class Hashable(metaclass=_HashableCategory):
    """Numba's Hashable, the class of the types whose values hash: numbers,
    bool, datetimes, str and tuples (isinstance(types.unicode_type,
    types.Hashable) holds, as an overload's typing function may ask); a
    base of UnicodeType, as in Numba."""


class UnicodeType(Type, Hashable):
    """str, Numba's types.unicode_type: an argument type, and the item, key
    or value type of a ruchey.typed.List or Dict."""

    name = "unicode_type"

    def __init__(self):
        super().__init__(_core.STR_KIND)

    def __getitem__(self, dims):
        raise TypeError("there are no arrays of unicode_type in compiled code")

    def __repr__(self):
        return "unicode_type"


_DESCRIBED_INTERNED.update((ZeroDimArray, Record, UnicodeType))


class Bytes(Described, _OneOfItsKind):
    """bytes, Numba's types.Bytes: the type of bytes values, a read-only
    C-contiguous array of uint8 (Bytes(uint8, 1, "C", readonly=True), the
    one form there is); what typing functions are given for a bytes
    argument."""

    def __init__(self, dtype=None, ndim=1, layout="C", readonly=True):
        if (dtype is not None and getattr(dtype, "name", None) != "uint8") or (ndim, layout, readonly) != (1, "C", True):
            raise TypeError("bytes are Bytes(uint8, 1, 'C', readonly=True) alone")
        super().__init__("readonly bytes(uint8, 1d, C)")

    def describe(self):
        return self.name  # (libruchey's name of it: a global type object, a signature's, a typed container's items)

    dtype = property(lambda self: _SCALARS["uint8"])
    ndim = 1
    layout = "C"
    mutable = False


class NumPyRandomGeneratorType(Described, _OneOfItsKind):
    """Numba's NumPyRandomGeneratorType (types.npy_rng): the type of a
    numpy.random.Generator, which compiled code draws from (a signature's
    too)."""

    def __init__(self, name="rng"):
        super().__init__("Generator")

    def describe(self):
        return self.name  # (libruchey's name of it)


npy_rng = NumPyRandomGeneratorType()


class NumPyRandomBitGeneratorType(Described, _OneOfItsKind):
    """Numba's NumPyRandomBitGeneratorType (types.npy_bitgen): the type of a
    numpy.random.BitGenerator (PCG64, Philox...), what typeof() gives for
    one; compiled code draws from the Generator that holds it."""

    def __init__(self, name="NumPyRandomBitGeneratorType"):
        super().__init__(name)

    def describe(self):
        raise TypeError(f"{self!r} is not supported as an argument of compiled code: pass the numpy.random.Generator "
                        "that holds it")


npy_bitgen = NumPyRandomBitGeneratorType()


class EllipsisType(Described, _OneOfItsKind):
    """Numba's EllipsisType (types.ellipsis): the type of Ellipsis (``...``),
    an index item or a value compared with ``is`` (a signature's too)."""

    def __init__(self):
        super().__init__("ellipsis")

    def describe(self):
        return self.name  # (libruchey's name of it)


ellipsis = EllipsisType()


class DeferredType:
    """Numba's deferred_type(): a type named before it exists, defined
    once later (define), so that a jitclass's spec can name the class
    itself: ("next", optional(node_type)), then
    node_type.define(Node.class_type.instance_type)."""

    def __init__(self):
        self._defined = None
        self._waiting = []  # what runs once it is defined (a jitclass's fields made)

    @property
    def defined(self):
        return self._defined is not None

    def get(self):
        if self._defined is None:
            raise RuntimeError("deferred type not defined")
        return self._defined

    def when_defined(self, then):
        """Runs then() once the type is defined (a jitclass's fields made)."""
        self._waiting.append(then)

    def define(self, typ):
        if self._defined is not None:
            raise TypeError("deferred type already defined")
        if not hasattr(typ, "describe"):
            raise TypeError(f"arg is not a Type; got: {type(typ)}")
        self._defined = typ
        waiting, self._waiting = self._waiting, []
        for then in waiting:
            then()

    def describe(self):
        return self.get().describe()

    @property
    def jitclass(self):
        """The jitclass whose instance type it was defined as: compiled code
        reads typed.List.empty_list(node_type) as that type's."""
        return self.get().jitclass

    def __eq__(self, other):
        return self is other or (self._defined is not None and self._defined == other)

    def __hash__(self):
        return id(self)

    def __repr__(self):
        return f"DeferredType#{id(self)}"


deferred_type = DeferredType
unicode_type = UnicodeType()
bytes_type = Bytes()
namespace = dict(_SCALARS)
namespace["unicode_type"] = namespace["string"] = unicode_type  # Numba's types.string is its unicode_type
namespace["Bytes"] = Bytes
namespace.update({alias: _SCALARS[name] for alias, name in _ALIASES.items()})
void = none = NoneType()
optional = Optional
voidptr = CPointer(_SCALARS["uint8"], "void*")
namespace.update(NPDatetime=NPDatetime, NestedArray=NestedArray, NPTimedelta=NPTimedelta, void=void, none=none, Tuple=Tuple, UniTuple=UniTuple, NamedTuple=NamedTuple,
                 NamedUniTuple=NamedUniTuple, BaseTuple=BaseTuple, optional=Optional, CPointer=CPointer,
                 EnumMember=EnumMember, IntEnumMember=IntEnumMember, EnumClass=EnumClass, IntEnumClass=IntEnumClass,
                 deferred_type=DeferredType, voidptr=voidptr, WrapperAddressProtocol=WrapperAddressProtocol,
                 MemInfoPointer=MemInfoPointer, ExternalFunction=ExternalFunction, StarArgTuple=StarArgTuple,
                 StarArgUniTuple=StarArgUniTuple, Dummy=Dummy, Opaque=Opaque, Phantom=Phantom, Any=Any, Callable=Callable,
                 ArrayCompatible=ArrayCompatible, Buffer=Buffer, DType=DType, Record=Record)
# a numpy.random.Generator's type, Numba's types.npy_rng
namespace.update(npy_rng=npy_rng, NumPyRandomGeneratorType=NumPyRandomGeneratorType, npy_bitgen=npy_bitgen,
                 NumPyRandomBitGeneratorType=NumPyRandomBitGeneratorType)
namespace.update(ellipsis=ellipsis, EllipsisType=EllipsisType)


def _domain(*names):
    return frozenset(_SCALARS[name] for name in names)


# Numba's sets of number types, which @overload code tests a type's membership of
# (`if a.dtype in types.integer_domain`); np_ and py_ spell the same sets
_DOMAINS = dict(signed_domain=_domain("int8", "int16", "int32", "int64"),
                unsigned_domain=_domain("uint8", "uint16", "uint32", "uint64"),
                real_domain=_domain("float32", "float64"),
                complex_domain=_domain("complex64", "complex128"))
_DOMAINS["integer_domain"] = _DOMAINS["signed_domain"] | _DOMAINS["unsigned_domain"]
_DOMAINS["number_domain"] = _DOMAINS["integer_domain"] | _DOMAINS["real_domain"] | _DOMAINS["complex_domain"]
namespace.update(_DOMAINS)
namespace.update({prefix + name: domain for name, domain in _DOMAINS.items() for prefix in ("np_", "py_")})
globals().update(namespace)


class ListType(_Interned):
    """The type of a ruchey.typed.List of item_type (as numba.types.ListType)."""

    def __init__(self, item_type):
        self.item_type = item_type

    def __call__(self, *args):
        return Signature(self, args)

    def describe(self):
        return ("list", self.item_type.describe())

    def __eq__(self, other):
        return isinstance(other, ListType) and self.item_type == other.item_type

    def _key(self):
        return self.item_type

    def __hash__(self):
        return hash(("ListType", self.item_type))

    def __repr__(self):
        return f"ListType[{self.item_type!r}]"


class List(ListType):
    """Numba's List(int64): the type of a Python list passed to or returned
    from compiled code (a reflected list); compiled code holds it as it
    holds a typed List of the same items."""

    def __init__(self, dtype, reflected=False):
        super().__init__(dtype)
        self.dtype, self.reflected = dtype, reflected

    def _key(self):
        return (self.item_type, self.reflected)

    def __getitem__(self, index):
        """The items' type, as Numba's List gives it for any index."""
        return self.dtype

    def __repr__(self):
        return f"List({self.item_type!r}, reflected={self.reflected})"


class Set(_Interned):
    """Numba's Set(int64): the type of a set, a Python set passed to compiled
    code (reflected=True, as typeof gives it) or one made there; compiled
    code holds both alike, so an explicit signature takes either."""

    def __init__(self, dtype, reflected=False):
        if not _is_type(dtype):
            raise TypeError(f"types.Set() takes a type of its items, got {dtype!r}")
        self.dtype, self.reflected = dtype, reflected

    def __call__(self, *args):
        return Signature(self, args)

    def describe(self):
        return ("set", self.dtype.describe())

    def _key(self):
        return (self.dtype, self.reflected)

    def __eq__(self, other):
        return isinstance(other, Set) and self._key() == other._key()

    def __hash__(self):
        return hash(("Set", self._key()))

    def __repr__(self):
        return f"Set({self.dtype!r}, reflected={self.reflected})"


class FunctionType:
    """Numba's first-class function type: FunctionType(float64(float64,
    float64)) is a parameter (or variable) holding any compiled function
    of that signature, chosen at run time. An @njit function passed for it
    is compiled for the signature (now, if it has none of its own), a
    @cfunc of the signature is taken as it is; the body calls it through
    its address, and what it raises reaches the caller as from a direct
    call."""

    def __init__(self, signature):
        if not isinstance(signature, Signature) or signature.return_type is None:
            raise TypeError(f"FunctionType() takes a signature with its return type, as float64(float64), "
                            f"got {signature!r}")
        self.signature = signature

    def describe(self):
        return ("function", [a.describe() for a in self.signature.args], self.signature.return_type.describe())

    @property
    def name(self):
        return f"FunctionType[{self.signature!r}]"

    def __eq__(self, other):
        return isinstance(other, FunctionType) and repr(self.signature) == repr(other.signature)

    def __hash__(self):
        return hash(("FunctionType", repr(self.signature)))

    def __repr__(self):
        return self.name


class ExternalFunctionPointer(FunctionType):
    """Numba's ExternalFunctionPointer: what typeof() gives for a ctypes or
    cffi function, a first-class function of its signature (sig) to
    compiled code; get_pointer(f) is such a function's address. Functions
    of one signature and kind (ctypes, cffi) are of one type."""

    def __init__(self, sig, get_pointer, cconv=None):
        super().__init__(sig)
        self.get_pointer, self.cconv = get_pointer, cconv

    @property
    def sig(self):
        return self.signature

    def __eq__(self, other):
        return isinstance(other, ExternalFunctionPointer) and FunctionType.__eq__(self, other) and \
            (self.get_pointer, self.cconv) == (other.get_pointer, other.cconv)

    def __hash__(self):
        return hash((FunctionType.__hash__(self), self.get_pointer, self.cconv))


def _ctypes_address(func):
    """A ctypes function's address (an ExternalFunctionPointer's get_pointer)."""
    import ctypes
    return ctypes.cast(func, ctypes.c_void_p).value


@functools.cache
def _cffi():
    import cffi
    return cffi.FFI()


def _cffi_address(func):
    """A cffi function's address (an ExternalFunctionPointer's get_pointer)."""
    return int(_cffi().cast("uintptr_t", func))


def _external_function_type(value):
    """typeof() of a ctypes or cffi function, as Numba's; None for any other value."""
    import ctypes
    if isinstance(value, ctypes._CFuncPtr):
        get_pointer = _ctypes_address
    elif type(value).__module__ == "_cffi_backend":
        get_pointer = _cffi_address
    else:
        return None
    try:
        described = _core.typeof_described(value)  # "FunctionType[float64(float64)]", as the dispatcher types it
    except TypeError:
        return None
    if not isinstance(described, str) or not described.startswith("FunctionType["):
        return None
    return ExternalFunctionPointer(parse_signature(described[len("FunctionType["):-1]), get_pointer)


class Dispatcher:
    """Numba's types.Dispatcher(f): the type of the compiled function f as
    a value, one type per function (what typeof(f) gives). In an explicit
    signature the parameter takes f alone, and calls through it are calls
    of f, compiled in; a FunctionType parameter takes any function of its
    signature instead."""

    def __init__(self, dispatcher):
        if not isinstance(dispatcher, _core.Dispatcher):
            raise TypeError(f"types.Dispatcher() takes a compiled function, got {type(dispatcher).__name__}")
        self.dispatcher = dispatcher

    def describe(self):
        return ("dispatcher", self.dispatcher)

    @property
    def name(self):
        return f"type(CPUDispatcher({self.dispatcher.py_func!r}))"

    def __eq__(self, other):
        return isinstance(other, Dispatcher) and other.dispatcher is self.dispatcher

    def __hash__(self):
        return hash(("Dispatcher", id(self.dispatcher)))

    def __repr__(self):
        return self.name


class DictType(_Interned):
    """The type of a ruchey.typed.Dict (as numba.types.DictType)."""

    def __init__(self, key_type, value_type):
        self.key_type, self.value_type = key_type, value_type

    def __call__(self, *args):
        return Signature(self, args)

    def describe(self):
        return ("dict", self.key_type.describe(), self.value_type.describe())

    def __eq__(self, other):
        return isinstance(other, DictType) and self._key() == other._key()

    def _key(self):
        return (self.key_type, self.value_type)

    def __hash__(self):
        return hash(("DictType", self.key_type, self.value_type))

    def __repr__(self):
        return f"DictType[{self.key_type!r},{self.value_type!r}]"


namespace.update(ListType=ListType, DictType=DictType)  # as type strings name them ("ListType(int64)")


class LiteralStrKeyDict:
    """Numba's LiteralStrKeyDict: the type of a dict written out with
    constant str keys whose values have no one type ({'a': 1, 'b': 'x'}),
    as an overload's typing function is given it: literal_value maps each
    key's literal type to its value's type, in the keys' order; types are
    the values' types. (No tuple type, as in Numba.)"""

    def __init__(self, keys, value_types):
        self.literal_value = {literal(k): t for k, t in zip(keys, value_types)}
        self.types = tuple(value_types)
        self.count = len(self.types)
        self.name = f"LiteralStrKey[Dict]({{{', '.join(f'{k!r}: {t!r}' for k, t in zip(keys, value_types))}}})"

    def __len__(self):
        return self.count

    def __iter__(self):
        return iter(self.types)

    def __eq__(self, other):
        return isinstance(other, LiteralStrKeyDict) and other.literal_value == self.literal_value

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return self.name


def _field_pair(pair):
    """A structref field's (name, type), checked as Numba's StructRef checks it."""
    name, t = pair
    if not isinstance(name, str):
        raise ValueError(f"expecting a str for field name, got {name!r}")
    if not (_is_type(t) or isinstance(t, (StructRef, Described, DeferredType)) or hasattr(t, "describe")):
        raise ValueError(f"expecting a Numba Type for field type, got {t!r}")
    return name, t


class StructRef:
    """The type of a structref's objects (Numba's types.StructRef): made
    with the fields as (name, type) pairs, passed through
    preprocess_fields. Subclass it for each kind of structref."""

    def __init__(self, fields):
        self._fields = tuple(map(_field_pair, self.preprocess_fields(tuple(map(_field_pair, fields)))))
        self.name = f"{type(self).__name__}({', '.join(f'{n}: {t!r}' for n, t in self._fields)})"

    def preprocess_fields(self, fields):
        """What a subclass may override: the fields as given, changed (Numba's
        usual one drops literal types, which ruchey has not)."""
        return fields

    @property
    def field_dict(self):
        return dict(self._fields)

    def get_data_type(self):
        return self

    def __eq__(self, other):
        return type(other) is type(self) and other._fields == self._fields

    def __hash__(self):
        return hash((type(self), self._fields))

    def __repr__(self):
        return self.name


class Literal:
    """Numba's literal types: the type of a value known when the function is
    compiled (an int, bool or str constant, a parameter frozen by
    literally()), its value in literal_value. An overload's typing function
    is given them for such arguments (with prefer_literal=True first, else
    when the plain types found no implementation); isinstance(t, types.Integer)
    and the like hold as for the plain type."""

    literal_value = None

    @property
    def literal_type(self):
        return unliteral(self)

    def __eq__(self, other):
        return (type(other) is type(self) and type(other.literal_value) is type(self.literal_value) and
                other.literal_value == self.literal_value)

    def __hash__(self):
        return hash((type(self), self.literal_value))

    def __repr__(self):
        return f"Literal[{type(self.literal_value).__name__}]({self.literal_value})"


class IntegerLiteral(Literal, Type):
    def __init__(self, value):
        super().__init__(_SCALARS["int64"].kind)
        self.literal_value = value


class BooleanLiteral(Literal, Type):
    def __init__(self, value):
        super().__init__(_SCALARS["bool"].kind)
        self.literal_value = value


class StringLiteral(Literal, UnicodeType):
    def __init__(self, value):
        super().__init__()
        self.literal_value = value


def literal(value):
    """Numba's: the literal type of a value (an int, bool or str)."""
    if isinstance(value, builtins.bool):
        return BooleanLiteral(value)
    if isinstance(value, int):
        return IntegerLiteral(value)
    if isinstance(value, str):
        return StringLiteral(value)
    raise TypeError(f"{type(value).__name__} cannot be used as a literal")


def maybe_literal(value):
    """Numba's: the literal type of value, or None where it cannot have one."""
    try:
        return literal(value)
    except TypeError:
        return None


def unliteral(t):
    """Numba's: the type without its literal value."""
    if isinstance(t, StringLiteral):
        return unicode_type
    if isinstance(t, Literal):
        return Type(t.kind)
    return t


def parse_signature(sig):
    """A signature from a string, a Signature, or a tuple of argument types."""
    if isinstance(sig, str):
        try:
            sig = eval(sig, {"__builtins__": {}}, namespace)  # the names are only ruchey types
        except Exception as exc:
            raise TypeError(f"cannot parse signature {sig!r}: {exc}") from None
    if isinstance(sig, Type):
        sig = (sig,)
    if isinstance(sig, tuple):
        sig = Signature(None, sig)
    if not isinstance(sig, Signature):
        raise TypeError(f"not a signature: {sig!r}")
    return sig


class _Category(type):
    """A class of types, as Numba's: isinstance(t, types.Array) asks which
    kind of type t is (the typing functions of ruchey.extending do)."""

    def __instancecheck__(cls, t):
        # (a package's own type, named by a str, is of none of these; a record type is of Array alone, as an array's)
        return isinstance(t, Type) and not isinstance(t.kind, str) and (cls is Array or not isinstance(t, Record)) \
            and cls._holds(t)


class Array(metaclass=_Category):
    """Numba's Array(float64, 2, "C"): an array type of a scalar type; and
    the class of array types, isinstance(t, types.Array)."""

    def __new__(cls, dtype, ndim, layout="A", readonly=False):
        if isinstance(dtype, NestedArray):  # a sub-array dtype's: its dimensions after the array's, as NumPy's
            return Array(dtype.dtype, ndim + dtype.ndim, layout, readonly)
        text = isinstance(dtype, UnicodeCharSeq) and not dtype.ndim  # Array(CharSeq(n), 1, "C"), as Numba's
        if not text and (not isinstance(dtype, Type) or dtype.ndim or isinstance(dtype, ZeroDimArray)):
            raise TypeError(f"Array() takes a scalar type, got {dtype!r}")
        lowest = 1 if text else 0  # (a 0-d array of text is no type of ruchey's)
        if not isinstance(ndim, int) or not lowest <= ndim <= 32:
            raise ValueError(f"Array() takes {lowest} to 32 dimensions, got {ndim!r}")
        if layout not in ("C", "F", "A"):
            raise ValueError(f"an array's layout is 'C', 'F' or 'A', got {layout!r}")
        if text:
            return type(dtype)(dtype.count, ndim, "C" if ndim == 1 and layout == "F" else layout, readonly)
        if not ndim and not isinstance(dtype, Record):
            return ZeroDimArray(dtype, layout, readonly)
        layout = "C" if ndim == 1 and layout == "F" else layout
        if isinstance(dtype, Record):
            return Record(dtype.np_dtype, ndim, layout, readonly)
        return Type(dtype.kind, ndim, layout, readonly, unit=dtype.unit)

    @staticmethod
    def _holds(t):
        return t.ndim > 0 or isinstance(t, ZeroDimArray)


def _is_scalar(t):
    return not t.ndim and not isinstance(t, ZeroDimArray)


class Number(metaclass=_Category):
    """The class of number types: integers and floats (not bool)."""

    @staticmethod
    def _holds(t):
        return t._family() is not None  # (not str, bool, a datetime or a 0-d array)


class Integer(metaclass=_Category):
    """The class of integer types, signed and unsigned."""

    @staticmethod
    def _holds(t):
        return _is_scalar(t) and "int" in t.name

    @staticmethod
    def from_bitwidth(bitwidth, signed=True):
        """Numba's: the int type of that width and sign (from_bitwidth(8, signed=False) is uint8)."""
        name = f"{'' if signed else 'u'}int{bitwidth}"
        if name not in _SCALARS:
            raise ValueError(f"no integer type of {bitwidth!r} bits")
        return _SCALARS[name]


class Float(metaclass=_Category):
    """The class of float types."""

    @staticmethod
    def _holds(t):
        return _is_scalar(t) and t.name.startswith("float")


class Complex(metaclass=_Category):
    """The class of complex types."""

    @staticmethod
    def _holds(t):
        return _is_scalar(t) and t.name.startswith("complex")


class Boolean(metaclass=_Category):
    """The class of the bool type."""

    @staticmethod
    def _holds(t):
        return _is_scalar(t) and t.name == "bool"


class _SliceCategory(type):
    def __instancecheck__(cls, t):
        return isinstance(t, Described) and t.name.startswith("slice<")


class SliceType(metaclass=_SliceCategory):
    """Numba's SliceType, the class of slices' types: isinstance(t,
    types.SliceType) holds for the type a typing function is given for a
    slice (x[1:], slice(a, b)), which ruchey describes by name (slice<a:b>)."""


# Numba's types of slices without and with a step: typeof gives a slice of both bounds one of them (ruchey compiles for
# the parts given: slice(None, 2) is a slice<:b>, of their class SliceType too)
slice2_type = Described("slice<a:b>")
slice3_type = Described("slice<a:b:c>")


class Omitted(metaclass=_Category):
    """The class of Numba's type for a parameter a call leaves out (its
    default given). ruchey binds a default as its value, so an overload's
    typing function never sees one: isinstance(t, types.Omitted) is false."""

    @staticmethod
    def _holds(t):
        return False


def from_dtype(dtype):
    """The scalar type of a NumPy dtype (numpy.float32, "f8", numpy.dtype(bool))."""
    import numpy
    dt = numpy.dtype(dtype)
    if dt.names is not None:  # a structured dtype (numpy.void's or numpy.record's)
        return Record(dt)
    if dt.subdtype is not None:  # ('f8', (4,)): a C array of its base
        return NestedArray(from_dtype(dt.subdtype[0]), dt.subdtype[1])
    if dt.kind in "Mm" and dt.isnative:
        unit, count = numpy.datetime_data(dt)
        if count == 1 and unit in _UNITS or unit == "generic":
            return (NPDatetime if dt.kind == "M" else NPTimedelta)("" if unit == "generic" else unit)
    if dt.names is not None:  # a structured dtype: its records
        return Record(dt)
    if dt.kind in "US" and dt.itemsize:  # '<U5', '|S3': Numba's UnicodeCharSeq(5), CharSeq(3)
        return UnicodeCharSeq(dt.itemsize // 4) if dt.kind == "U" else CharSeq(dt.itemsize)
    name = "bool" if dt.kind == "b" else dt.name
    if name not in _SCALARS or not dt.isnative:
        raise TypeError(f"ruchey has no type for the dtype {dt!r} (byte order {dt.byteorder!r})")
    return _SCALARS[name]


def _top_level_split(text):
    """text's parts between the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in "([" and 1 or c in ")]" and -1 or 0
        if c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    return parts + [text[start:].strip()]


def _type_named(name):
    """The type of a typed container's items from the name it gives them
    (List.item_type, Dict.key_type, value_type): a number, a datetime64 or
    timedelta64 of its unit, unicode_type, an array, a tuple of these, a typed
    List or Dict, a scalar type's NumberClass (typeof(numpy.dtype("f8"))
    names it "dtype(float64)"); None for others."""
    if name in _SCALARS or name == "unicode_type":
        return _SCALARS.get(name, unicode_type)
    for time, make in (("datetime64", NPDatetime), ("timedelta64", NPTimedelta)):
        if name == time or name.startswith(time + "[") and name.endswith("]"):  # datetime64[D], of its unit
            return make(name[len(time) + 1:-1])
    if name.startswith("array(") and name.endswith(")"):
        dtype, ndim, layout = _top_level_split(name[len("array("):-1])[:3]
        return Type(_SCALARS[dtype].kind, int(ndim[:-1]), layout) if dtype in _SCALARS else None
    if name.startswith("(") and name.endswith(")"):
        fields = [_type_named(n) for n in _top_level_split(name[1:-1]) if n]
        return TupleType(fields) if fields and None not in fields else None
    if name.startswith("ListType[") and name.endswith("]"):
        item = _type_named(name[len("ListType["):-1])
        return item and ListType(item)
    if name.startswith("set(") and name.endswith(")"):  # a set's (the compiler's set(int64)): a Python set's, as
        item = _type_named(name[len("set("):-1])         # Numba's typeof gives it (reflected)
        return item and Set(item, reflected=True)
    if name.startswith("DictType[") and name.endswith("]"):
        parts = [_type_named(n) for n in _top_level_split(name[len("DictType["):-1])]
        return DictType(*parts) if len(parts) == 2 and None not in parts else None
    if name.startswith("slice<"):  # a slice's: slice2_type or slice3_type where it has both bounds
        return next((t for t in (slice2_type, slice3_type) if t.name == name), None) or Described(name)
    if name == npy_rng.name:
        return npy_rng
    if name == ellipsis.name:
        return ellipsis
    return described_dtype(name)  # a scalar type or dtype as a value: its NumberClass


def _typed_container_type(value):
    """A typed.List's ListType, a typed.Dict's DictType, as Numba's typeof gives them."""
    names = [value.item_type] if isinstance(value, _core.List) else [value.key_type, value.value_type]
    if None in names:
        raise TypeError(f"an empty {type(value).__name__} of no item type has no type yet (Numba: cannot type an "
                        f"empty typed container): make it with List.empty_list(type) or Dict.empty(key, value)")
    types = [_type_named(n) for n in names]
    if None in types:
        raise TypeError(f"ruchey has no type object for a typed container of {', '.join(names)}")
    return ListType(*types) if isinstance(value, _core.List) else DictType(*types)


def typeof(value):
    """The type ruchey compiles a function for when it is given this value."""
    import numpy
    if value is None:
        return none
    if isinstance(value, (_core.List, _core.Dict)):
        return _typed_container_type(value)
    if isinstance(value, numpy.ndarray):
        if type(value) is not numpy.ndarray:  # a subclass the dispatcher refuses (a masked array): NoTypeError
            _typeof_described(value)
        t = from_dtype(value.dtype)
        if value.ndim == 0:
            return t if isinstance(t, (Record, UnicodeCharSeq)) else ZeroDimArray(t, readonly=not value.flags.writeable)
        layout = "C" if value.flags.c_contiguous else "F" if value.flags.f_contiguous else "A"
        readonly = not value.flags.writeable  # (as the dispatcher types it: a broadcast view's, a frozen array's)
        if isinstance(t, Record):
            return Record(t.np_dtype, value.ndim, layout, readonly)
        if isinstance(t, UnicodeCharSeq):  # (CharSeq too) an array of '<Un' or '|Sn'
            return type(t)(t.count, value.ndim, layout, readonly)
        return Type(t.kind, value.ndim, layout, readonly, unit=t.unit)
    if isinstance(value, (builtins.bool, numpy.bool_)):  # "bool" here is ruchey's type
        return _SCALARS["bool"]
    if isinstance(value, enum.IntEnum) or (isinstance(value, enum.Enum) and not isinstance(value, (int, float, str))):
        # (a member that is an int, float or str besides, IntFlag's and StrEnum's: that value)
        member = IntEnumMember if isinstance(value, enum.IntEnum) else EnumMember
        return member(type(value), _enum_value_type(type(value)))
    if isinstance(value, type) and issubclass(value, enum.Enum):  # an enum class itself, as Numba's typeof
        return (IntEnumClass if issubclass(value, enum.IntEnum) else EnumClass)(value, _enum_value_type(value))
    if isinstance(value, numpy.random.BitGenerator):
        return npy_bitgen
    if isinstance(value, int):  # int64, else uint64 where it holds the value (2**64 - 1), as Numba's
        return _SCALARS["uint64" if 2**63 <= value < 2**64 else "int64"]
    if isinstance(value, float):
        return _SCALARS["float64"]
    if isinstance(value, complex) and not isinstance(value, numpy.generic):
        return _SCALARS["complex128"]
    if isinstance(value, numpy.generic) and not isinstance(value, (numpy.str_, numpy.bytes_)):
        return from_dtype(value.dtype)
    if isinstance(value, numpy.dtype) and value.names:  # a structured dtype as a value: of its record type
        return DType(from_dtype(value))
    if type(value) is tuple:
        return TupleType([typeof(v) for v in value])
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return NamedTupleType([typeof(v) for v in value], type(value))
    if type(value) is str or isinstance(value, enum.Enum) and isinstance(value, str):  # (a StrEnum member: its str)
        return unicode_type
    if type(value) is bytes:
        return bytes_type
    if hasattr(value, "_function_type"):  # a @cfunc (ruchey.ccallback): a first-class function of its signature
        return FunctionType(value._signature)
    if isinstance(value, _core.Dispatcher):
        return Dispatcher(value)
    instance_type = getattr(getattr(type(value), "class_type", None), "instance_type", None)
    if instance_type is not None:  # a jitclass's instance: hftbacktest's spec ('asset_type', typeof(asset_type))
        return instance_type
    own = getattr(value, "_numba_type_", None)  # the type a value names itself (cuda's device arrays), as in Numba
    external = _external_function_type(value) if own is None else None
    if external is not None:
        return external
    if _is_type(own):  # (a tuple type too: UniTuple(boolean, 42))
        return own
    return _typeof_described(value)


def _enum_value_type(cls):
    """The one type of an enum class's values, which compiled code holds its
    members as; NoTypeError for a class whose values differ in type, as
    the dispatcher refuses them (Numba's typeof too)."""
    found = {repr(typeof(member._value_)): typeof(member._value_) for member in cls}
    if len(found) > 1:
        raise NoTypeError(f"Cannot type heterogeneous enum: got value types {', '.join(sorted(found))}")
    return next(iter(found.values()))


class KeyTypeError(TypeError, KeyError):
    """A name or index an API takes none of (an array type written int32[0], an option vectorize has not): a
    TypeError, and the KeyError Numba raises there, which code written for Numba catches; its message as written."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


class NoTypeError(TypeError, ValueError):
    """typeof() of a value compiled code takes no such value as: a
    TypeError, and the ValueError Numba's typeof raises, which code written
    for Numba catches to tell what it may pass."""


def _typeof_described(value):
    """What compiled code takes besides (Python lists, sets, slices): the
    type it compiles for, as signatures name it."""
    from ruchey import inspection
    try:
        described = _core.typeof_described(value)
    except TypeError as e:
        raise NoTypeError(str(e)) from None
    return inspection._type_of(described)
