"""structref (ruchey.experimental.structref, as numba.experimental.structref):
objects with named fields whose types come from how each object is made,
built in Python or in compiled code, their fields read and written by
compiled code, passed by reference and returned; members through
overload_method and overload_attribute on the type class. Every behaviour
is compared with the function's py_func, where the proxy class builds the
same object through Python, on generated inputs."""
from types import SimpleNamespace

import numpy as np
import pytest

import ruchey
from ruchey import njit, typed, types
from ruchey.experimental import structref
from ruchey.extending import overload, overload_attribute, overload_method

from conftest import AS_NUMBA, make_rng, seed_of

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")


@structref.register
class HeapType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class Heap(structref.StructRefProxy):
    @property
    def indices(self):
        return heap_indices(self)

    @property
    def distances(self):
        return heap_distances(self)

    @property
    def flags(self):
        return heap_flags(self)


@njit
def heap_indices(h):
    return h.indices


@njit
def heap_distances(h):
    return h.distances


@njit
def heap_flags(h):
    return h.flags


structref.define_proxy(Heap, HeapType, ["indices", "distances", "flags"])


@structref.register
class CounterType(types.StructRef):
    pass


class Counter(structref.StructRefProxy):
    count = property(lambda self: counter_count(self))
    scale = property(lambda self: counter_scale(self))
    on = property(lambda self: counter_on(self))


@njit
def counter_count(c):
    return c.count


@njit
def counter_scale(c):
    return c.scale


@njit
def counter_on(c):
    return c.on


structref.define_proxy(Counter, CounterType, ["count", "scale", "on"])


@structref.register
class PlainType(types.StructRef):
    pass


class Plain(structref.StructRefProxy):
    pass  # no properties: ruchey gives the fields' own, Numba none


structref.define_proxy(Plain, PlainType, ["count", "scale", "on"])


@overload_method(HeapType, "push")
def heap_push(h, row, index, distance):
    if isinstance(h, HeapType) and isinstance(h.field_dict["distances"], types.Array):
        def impl(h, row, index, distance):
            if distance >= h.distances[row, 0]:
                return 0
            h.distances[row, 0] = distance
            h.indices[row, 0] = index
            h.flags[row, 0] = 1
            return 1
        return impl


@overload_attribute(HeapType, "n_points")
def heap_n_points(h):
    return lambda h: h.indices.shape[0]


def make_heap(n, k):
    return Heap(np.full((n, k), -1, np.int32), np.full((n, k), np.inf, np.float32), np.zeros((n, k), np.uint8))


def heap_arrays(h):
    return h.indices.copy(), h.distances.copy(), h.flags.copy()


def assert_same_heaps(a, b):
    for x, y in zip(heap_arrays(a), heap_arrays(b)):
        np.testing.assert_array_equal(x, y)
        assert x.dtype == y.dtype


# ---------------------------------------------------------------- making objects

def test_made_in_python_holds_its_arguments():
    rng = make_rng(seed_of("test_made_in_python_holds_its_arguments"))
    i, d, f = rng.integers(0, 9, (3, 4)).astype(np.int32), rng.random((3, 4)).astype(np.float32), np.ones((3, 4), np.uint8)
    h = Heap(i, d, f)
    assert isinstance(h, Heap)
    assert h.indices is not None and np.shares_memory(h.indices, i)
    np.testing.assert_array_equal(h.distances, d)
    np.testing.assert_array_equal(h.flags, f)


def test_made_in_compiled_code_is_a_proxy():
    @njit
    def make(n, k):
        return Heap(np.full((n, k), -1, np.int32), np.full((n, k), np.inf, np.float32), np.zeros((n, k), np.uint8))
    for n, k in [(1, 1), (5, 3), (17, 8)]:
        got, want = make(n, k), make.py_func(n, k)
        assert isinstance(got, Heap)
        assert_same_heaps(got, want)


def test_scalar_fields_take_the_arguments_types():
    @njit
    def make(count, scale, on):
        return Counter(count, scale, on)
    rng = make_rng(seed_of("test_scalar_fields_take_the_arguments_types"))
    for _ in range(5):
        count, scale, on = int(rng.integers(-99, 99)), float(rng.random()), bool(rng.integers(0, 2))
        got, want = make(count, scale, on), make.py_func(count, scale, on)
        assert (got.count, got.scale, got.on) == (want.count, want.scale, want.on)
        assert type(got.count) is int and type(got.scale) is float and type(got.on) is bool


@pytest.mark.skipif(AS_NUMBA, reason="Numba's proxies read fields only through their own properties")
def test_numba_type_names_the_fields_types():
    c = Counter(np.int32(3), 1.5, True)
    t = c._numba_type_
    assert isinstance(t, CounterType)
    assert t.field_dict == {"count": types.int32, "scale": types.float64, "on": types.boolean}


@ruchey_only
def test_a_proxy_without_properties_reads_and_writes_fields_from_python():
    p = Plain(3, 0.5, True)
    p.count = 10
    assert (p.count, p.scale, p.on) == (10, 0.5, True)


# ---------------------------------------------------------------- compiled code using them

def test_compiled_code_reads_and_writes_fields():
    @njit
    def fill(h, value):
        for r in range(h.indices.shape[0]):
            h.indices[r, 0] = r
            h.distances[r, 0] = value * r
            h.flags[r, 0] = 1
        return h.distances.sum()
    rng = make_rng(seed_of("test_compiled_code_reads_and_writes_fields"))
    for n in (1, 4, 9):
        a, b = make_heap(n, 3), make_heap(n, 3)
        value = float(rng.random())
        assert fill(a, value) == pytest.approx(fill.py_func(b, value), rel=1e-6)
        assert_same_heaps(a, b)


def test_a_field_set_in_compiled_code_is_seen_by_python():
    @njit
    def bump(c, times):
        for _ in range(times):
            c.count = c.count + 1
            c.scale = c.scale * 2.0
        c.on = not c.on
    a, b = Counter(1, 0.5, False), SimpleNamespace(count=1, scale=0.5, on=False)  # py_func's: a plain object
    bump(a, 5)
    bump.py_func(b, 5)
    assert (a.count, a.scale, a.on) == (b.count, b.scale, b.on)


def test_passed_to_other_compiled_functions_by_reference():
    @njit
    def set_row(h, r, v):
        h.distances[r, :] = v

    @njit
    def set_all(h):
        for r in range(h.distances.shape[0]):
            set_row(h, r, r + 0.5)
        return h
    a, b = make_heap(6, 2), make_heap(6, 2)
    got = set_all(a)
    set_all.py_func(b)
    assert_same_heaps(a, b)
    assert isinstance(got, Heap)
    assert_same_heaps(got, b)


def test_an_object_made_in_compiled_code_passed_back_in():
    @njit
    def make(n):
        return Counter(n, 0.25, True)

    @njit
    def scaled(c):
        return c.count * c.scale
    rng = make_rng(seed_of("test_an_object_made_in_compiled_code_passed_back_in"))
    for n in rng.integers(0, 100, 5):
        assert scaled(make(int(n))) == scaled.py_func(make.py_func(int(n)))


def test_a_structref_in_another_structrefs_field():
    @njit
    def wrap(h):
        return Counter(h, 2.0, True)

    @njit
    def reach(c):
        return c.count.distances.shape[0] * c.scale
    h = make_heap(3, 2)
    assert reach(wrap(h)) == reach.py_func(wrap.py_func(h))


# ---------------------------------------------------------------- members registered on the type

def test_overload_method_on_the_type_class():
    @njit
    def push_all(h, rows, ids, ds):
        pushed = 0
        for j in range(rows.shape[0]):
            pushed += h.push(rows[j], ids[j], ds[j])
        return pushed
    rng = make_rng(seed_of("test_overload_method_on_the_type_class"))
    rows, ids = rng.integers(0, 5, 30), rng.integers(0, 100, 30).astype(np.int32)
    ds = rng.random(30).astype(np.float32)
    a, b = make_heap(5, 2), make_heap(5, 2)
    assert push_all(a, rows, ids, ds) == push_all.py_func(b, rows, ids, ds)  # py_func: Heap has push below
    assert_same_heaps(a, b)


def test_overload_attribute_on_the_type_class():
    @njit
    def n_points(h):
        return h.n_points
    for n in (1, 7):
        assert n_points(make_heap(n, 2)) == n


# ---------------------------------------------------------------- bad input

@ruchey_only
def test_wrong_number_of_arguments_is_a_type_error():
    with pytest.raises(TypeError, match=r"Heap\(\) takes 3 arguments \(indices, distances, flags\), got 2"):
        Heap(np.zeros(2), np.zeros(2))
    # a TypingError too, as Numba's (its constructor compiled), naming what is missing
    with pytest.raises(ruchey.TypingError, match="missing a required argument: 'flags'"):
        Heap(np.zeros(2), np.zeros(2))
    with pytest.raises(ruchey.TypingError, match="too many arguments"):
        Heap(np.zeros(2), np.zeros(2), np.zeros(2, np.bool_), 1)


@ruchey_only
def test_a_field_value_without_a_type_is_a_type_error():
    with pytest.raises(TypeError, match="field 'scale'"):
        Counter(1, object(), True)


@ruchey_only
def test_a_proxy_without_a_constructor_says_so():
    class Loose(structref.StructRefProxy):
        pass
    with pytest.raises(TypeError, match="define_proxy"):
        Loose(1)


@ruchey_only
def test_define_proxy_checks_its_classes():
    with pytest.raises(TypeError, match="StructRefProxy"):
        structref.define_proxy(object, HeapType, ["a"])
    with pytest.raises(TypeError, match="identifier"):
        structref.define_proxy(Counter, CounterType, ["not a name"])


def _python_push(self, row, index, distance):  # what the overload compiles, for py_func
    if distance >= self.distances[row, 0]:
        return 0
    self.distances[row, 0] = distance
    self.indices[row, 0] = index
    self.flags[row, 0] = 1
    return 1


Heap.push = _python_push


# ---------------------------------------------------------------- structref.new in an overload

def make_counter(count, scale):
    raise NotImplementedError  # compiled code only: the overload below


@overload(make_counter)
def make_counter_overload(count, scale):
    counter_type = CounterType([("count", count), ("scale", scale), ("on", types.boolean)])

    def impl(count, scale):
        c = structref.new(counter_type)
        c.count = count
        c.scale = scale
        c.on = True
        return c
    return impl


def test_structref_new_in_an_overloads_implementation():
    @njit
    def make(count, scale):
        c = make_counter(count, scale)
        c.count += 1
        return c
    rng = make_rng(seed_of("structref.new"))
    for _ in range(4):
        count, scale = int(rng.integers(-50, 50)), float(rng.random())
        c = make(count, scale)
        assert isinstance(c, Counter)
        assert (c.count, c.scale, c.on) == (count + 1, scale, True)


@ruchey_only
def test_structref_new_of_something_else_is_a_typing_error():
    from ruchey import TypingError

    def not_a_type():
        pass

    @overload(not_a_type)
    def not_a_type_overload():
        wrong = types.int64

        def impl():
            return structref.new(wrong)
        return impl

    @njit
    def f():
        return not_a_type()
    with pytest.raises(TypingError, match="structref.new takes a StructRef type"):
        f()


# ---------------------------------------------------------------- identity and checks

@njit
def identities(c, d, pick):
    e = c if pick else d  # the same object under another name
    made = Counter(1, 2.0, True)
    return c is c, c is d, e is c, e is not d, made is c, c is not made


def test_is_tells_one_object_from_another():
    c, d = Counter(3, 1.5, False), Counter(3, 1.5, False)
    for pick in (True, False):
        got = identities(c, d, pick)
        assert got == identities.py_func(c, d, pick), (pick, got)
    assert identities(c, c, False)[:4] == (True, True, True, False)


def test_types_and_fields_are_checked_as_numbas():
    assert types.StructRef([("a", types.int64), ("b", types.float64[:])]).field_dict["b"] == types.float64[:]
    with pytest.raises(ValueError, match="expecting a str for field name"):
        CounterType([(1, types.int64)])
    with pytest.raises(ValueError, match="expecting a Numba Type for field type"):
        CounterType([("a", 123)])
    with pytest.raises(ValueError, match="cannot register"):
        structref.register(types.StructRef)
    with pytest.raises(ValueError, match="cannot register"):
        structref.define_boxing(types.StructRef, Counter)
    assert isinstance(CounterType([("a", types.Any)]).field_dict["a"], types.Type)  # (a field not known yet)


# ---------------------------------------------------------------- a structref holding its own kind

@structref.register
class LinkType(types.StructRef):
    def preprocess_fields(self, fields):
        self.name = f"LinkType#{id(self)}"  # (Numba's way: a name before Optional(self) shows it)
        return (("value", types.Optional(types.int64)), ("parent", types.Optional(self)))


@njit
def link_value(n):
    return n.value


@njit
def link_parent(n):
    return n.parent


@njit
def set_link_parent(n, p):
    n.parent = p


class Link(structref.StructRefProxy):
    value = property(lambda self: link_value(self))
    parent = property(lambda self: link_parent(self), lambda self, p: set_link_parent(self, p))


structref.define_proxy(Link, LinkType, ["value", "parent"])


@njit
def chain_walk(values):
    node = Link(None, None)  # the root holds no value
    for v in values:
        child = Link(v, None)
        child.parent = node
        node = child
    total, depth = 0, 0
    walk = node
    while walk is not None:
        if walk.value is not None:
            total += walk.value
        walk = walk.parent
        depth += 1
    return total, depth, node.value


def test_a_structref_holding_an_optional_of_its_own_type():
    rng = make_rng(seed_of("structref links"))
    for n in (0, 1, 6):
        values = rng.integers(-50, 50, n)
        assert chain_walk(values) == chain_walk.py_func(values)


@ruchey_only
def test_a_typed_dict_of_structrefs_refuses_one_of_other_field_types():
    d = typed.Dict()
    d["a"] = Counter(1, 2.5, True)
    assert d["a"].count == 1 and d["a"].scale == 2.5
    with pytest.raises(TypeError, match=r"typed container of .*Counter<count:int64,scale:float64.* cannot hold Counter \(.*Counter<count:float64"):
        d["b"] = Counter(2.5, 1.0, True)
