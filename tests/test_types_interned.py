"""Type objects are interned, as Numba's: a type made again, or pickled and
unpickled (as multiprocessing and Dask move signatures and typing
results), is the very object there was (`t2 is t`), for every type a
signature names: numbers, arrays of any dims and layout (0-d too),
records and arrays of them, tuples (nested, named), enum members and
classes, Optional, reflected and typed lists, typed dicts, str. Equal
types of different kinds stay apart (a reflected list is not a typed
List's type). A compiled function given an unpickled signature computes
what its Python original does."""
import collections
import enum
import gc
import itertools
import pickle

import numpy
import pytest
import ruchey
from ruchey import njit, types

from conftest import make_rng


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Shape(enum.IntEnum):
    CIRCLE = 1
    SQUARE = 2


Point = collections.namedtuple("Point", "x y")
SCALARS = (types.int8, types.int16, types.int32, types.int64, types.uint8, types.uint64, types.float32,
           types.float64, types.complex128, types.boolean)


def generated_types(rng, count):
    """Types of every kind a signature names, built from scalars drawn at random."""
    made = []
    for _ in range(count):
        a, b = (SCALARS[i] for i in rng.integers(0, len(SCALARS), 2))
        ndim, layout = int(rng.integers(0, 4)), "ACF"[int(rng.integers(0, 3))]
        made += [types.Array(a, ndim, layout), types.UniTuple(a, int(rng.integers(0, 5))), types.Tuple((a, b)),
                 types.Tuple((a, types.UniTuple(b, 2))), types.NamedTuple((a, b), Point),
                 types.NamedUniTuple(a, 2, Point), types.Optional(a), types.List(a), types.List(a, reflected=True),
                 types.ListType(a), types.DictType(a, b), types.EnumMember(Color, a),
                 types.IntEnumMember(Shape, a), types.EnumClass(Color, a), types.IntEnumClass(Shape, a)]
    record = types.from_dtype(numpy.dtype([("a", numpy.float64), ("b", numpy.int32), ("s", (numpy.str_, 5))]))
    return made + [record, record[:], record[:, ::1], types.unicode_type, types.float64[()], types.NPDatetime("ms"),
                   types.NPTimedelta("M")]


def test_a_type_made_again_is_the_same_object():
    first, again = generated_types(make_rng(1), 20), generated_types(make_rng(1), 20)
    for t, u in zip(first, again):
        assert u is t, t


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_an_unpickled_type_is_the_type_pickled(protocol):
    for t in generated_types(make_rng(2), 20):
        assert pickle.loads(pickle.dumps(t, protocol=protocol)) is t, t


def test_predefined_types_and_an_array_types_dtype_are_interned():
    for t in SCALARS + (types.unicode_type, types.none, types.void, types.bytes_type, types.ellipsis, types.npy_rng,
                        types.npy_bitgen, types.intp, types.float16, types.uint32):
        assert pickle.loads(pickle.dumps(t)) is t, t
    for t, dims in itertools.product(SCALARS, ((slice(None),), (slice(None),) * 2, (slice(None, None, 1),))):
        assert t[dims].dtype is t
        assert types.Array(t, len(dims), "A").dtype is t


def test_equal_types_of_different_kinds_stay_apart():
    assert types.List(types.int64) is not types.List(types.int64, reflected=True)
    assert types.List(types.int64) is not types.ListType(types.int64)
    assert types.EnumMember(Color, types.int64) is not types.EnumClass(Color, types.int64)
    assert types.EnumClass(Shape, types.int64) != types.IntEnumClass(Shape, types.int64)
    assert types.float64[()] is not types.float64
    assert types.Tuple((types.int64, types.int64)) is not types.NamedUniTuple(types.int64, 2, Point)


def test_an_unpickled_signature_compiles_as_the_original():
    sig = pickle.loads(pickle.dumps(types.float64(types.float64[:], types.UniTuple(types.int64, 2),
                                                  types.EnumMember(Color, types.int64))))

    @njit(sig)
    def weigh(a, t, c):
        return a.sum() * t[0] - t[1] * c.value

    rng = make_rng(3)
    for c, n in itertools.product(Color, (1, 5, 17)):
        a, t = rng.standard_normal(n), tuple(int(v) for v in rng.integers(-9, 9, 2))
        assert weigh(a, t, c) == weigh.py_func(a, t, c)


def test_typeof_an_enum_class_as_numba():
    assert ruchey.typeof(Color) is types.EnumClass(Color, types.int64)
    assert ruchey.typeof(Shape) is types.IntEnumClass(Shape, types.int64)
    assert ruchey.typeof(Color) != ruchey.typeof(Shape)
    assert ruchey.typeof(Color).member_type is ruchey.typeof(Color.RED)
    assert ruchey.typeof(Shape).member_type is ruchey.typeof(Shape.SQUARE)
    assert repr(ruchey.typeof(Color)) == "EnumClass<int64>(Color)"

    class Mixed(enum.Enum):
        A = 1.5
        B = 2j

    with pytest.raises(ValueError, match="Cannot type heterogeneous enum: got value types complex128, float64"):
        ruchey.typeof(Mixed)


def test_typeof_a_bit_generator_as_numba():
    rng = numpy.random.default_rng(4)
    assert ruchey.typeof(rng) is types.npy_rng
    for bits in (rng.bit_generator, numpy.random.Philox(5), numpy.random.MT19937(6)):
        assert ruchey.typeof(bits) is types.npy_bitgen


def test_an_enum_class_or_bit_generator_argument_is_a_clear_error():
    @njit
    def first(x):
        return 1

    for value in (Color, numpy.random.default_rng(7).bit_generator):
        with pytest.raises(TypeError, match="not supported"):
            first(value)
    for t in (types.EnumClass(Color, types.int64), types.npy_bitgen):
        with pytest.raises(TypeError, match="not supported as an argument of compiled code"):
            njit(types.int64(t))(lambda c: 1)


def test_typeof_an_array_tells_whether_it_is_aligned_as_numba():
    packed = numpy.dtype([("m", numpy.int32), ("n", "S5")])
    aligned = numpy.dtype([("m", numpy.int32), ("n", "S5")], align=True)
    for a in (numpy.arange(10), numpy.arange(10).reshape(2, 5).T, numpy.zeros(()), numpy.empty(4, aligned)):
        assert ruchey.typeof(a).aligned
    assert not ruchey.typeof(numpy.empty(4, packed)).aligned
    assert not types.from_dtype(packed).aligned and types.from_dtype(aligned).aligned


def test_typeof_a_masked_array_is_refused_as_the_dispatcher_refuses_it():
    with pytest.raises(ValueError, match="MaskedArray"):
        ruchey.typeof(numpy.ma.MaskedArray([1.0, 2.0], mask=[0, 1]))


def test_each_interned_type_has_a_number_of_its_own_as_numba():
    made = generated_types(make_rng(9), 5)
    codes = {t._code for t in made}
    assert len(codes) == len(set(map(id, made))) and all(c >= 0 for c in codes)
    assert all(pickle.loads(pickle.dumps(t))._code == t._code for t in made)
    first = types.Dummy("a type that dies")
    code = first._code
    del first
    gc.collect()
    assert types.Dummy("a type that dies")._code != code


def test_a_reflected_list_types_item_is_its_item_type_as_numba():
    for t in SCALARS + (types.float64[::1],):
        assert types.List(t)[0] is t
