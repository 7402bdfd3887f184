"""Enum members in compiled code, as Numba takes them (its EnumMember and
IntEnumMember): members of enum.Enum, enum.Flag and enum.IntEnum classes
as arguments (alone, in tuples and named tuples) and results (the very
member), members named through their class in compiled code (Color.RED,
Color["RED"], closure and global constants), m.value, == and != between
members of one class, `is` and `is not`, `in` a tuple; IntEnum members
are their ints wherever a number is needed. Against the Python original
on generated members; what Numba refuses is a clear error."""
import enum
import itertools
import math
from collections import namedtuple

import numpy
import pytest
import ruchey
from ruchey import cuda, njit

from conftest import AS_NUMBA, assert_same, make_rng, numba_deviation


def says(pattern):
    """A TypingError's message as ruchey words it (Numba's differ)."""
    return None if AS_NUMBA else pattern


class Color(enum.Enum):
    RED = 1
    GREEN = 2
    BLUE = 3


class Other(enum.Enum):
    A = 1
    B = 2


class Shape(enum.IntEnum):
    SQUARE = 3
    CIRCLE = 4
    LINE = -7


class Weight(enum.Enum):
    LIGHT = 0.5
    HEAVY = -1.25


class Switch(enum.Enum):
    ON = True
    OFF = False


class Label(enum.Enum):
    ALPHA = "alpha"
    BETA = "béta ∂"
    EMPTY = ""


class Perm(enum.Flag):
    R = 1
    W = 2
    X = 4


class Bits(enum.IntFlag):
    LOW = 1
    HIGH = 8


class Combination(enum.Enum):  # as datashader's AntialiasCombination
    SUM_1AGG = 1
    SUM_2AGG = 2
    MIN = 3
    MAX = 4
    FIRST = 5
    LAST = 6


Stage2 = namedtuple("Stage2", "combination zero n_reduction")


def generated_enum(seed, kind, base=enum.Enum):
    """A class of a few members whose values are generated numbers of one kind."""
    rng = make_rng(seed)
    count = int(rng.integers(2, 6))
    if kind == "int":
        values = rng.choice(numpy.arange(-50, 50), count, replace=False).tolist()
    elif kind == "float":
        values = sorted(set(rng.standard_normal(count).round(3).tolist()))
    else:
        values = [True, False][:count]
    return base(f"Gen{seed}", {f"M{i}": v for i, v in enumerate(values)})


GENERATED = [generated_enum(seed, kind) for seed, kind in
             [(1, "int"), (2, "float"), (3, "bool"), (4, "int"), (5, "float")]]
INT_GENERATED = [generated_enum(seed, "int", enum.IntEnum) for seed in (6, 7, 8)]
def generated_labels(seed):
    """A class of a few members whose values are generated strs."""
    rng = make_rng(seed)
    words = {"".join(rng.choice(list("abcxyzé€ "), int(rng.integers(0, 12)))) for _ in range(5)}
    return enum.Enum(f"Labels{seed}", {f"L{i}": w for i, w in enumerate(sorted(words))})


STR_GENERATED = [generated_labels(seed) for seed in (9, 10)]
# Numba 0.68 corrupts its heap with str-valued members: its run of these tests leaves them out
STR_CLASSES = [] if AS_NUMBA else [Label] + STR_GENERATED
CLASSES = [Color, Shape, Weight, Switch, Perm] + GENERATED + INT_GENERATED + STR_CLASSES


def members(*classes):
    return [m for cls in classes for m in cls]


# ---------------------------------------------------------------- arguments and results

@njit
def same(m):
    return m


@njit
def value_of(m):
    return m.value


@njit
def in_tuple(t):
    return t[0], t[1] * 2.0, t


@pytest.mark.parametrize("m", members(*CLASSES), ids=repr)
def test_member_argument_returns_the_very_member(m):
    assert same(m) is m
    assert_same(same, m)


@pytest.mark.parametrize("m", members(*CLASSES), ids=repr)
def test_value_of_a_member(m):
    assert_same(value_of, m)


@pytest.mark.parametrize("m", members(Color, Shape, Weight, Switch, *STR_CLASSES), ids=repr)
def test_members_in_tuples_as_arguments_and_results(m):
    assert_same(in_tuple, (m, 1.5))
    assert_same(in_tuple, (m, -2.0))


@njit
def stage2_kind(s):
    if s.combination == Combination.MAX:
        return 1.0, s
    elif s.combination in (Combination.SUM_1AGG, Combination.SUM_2AGG):
        return s.zero + 2.0, s
    return math.nan, Stage2(Combination.LAST, s.zero, s.n_reduction + 1)


@pytest.mark.parametrize("c", list(Combination), ids=repr)
def test_members_in_named_tuples_as_datashader_passes_them(c):
    assert_same(stage2_kind, Stage2(c, 0.0, 0))
    assert_same(stage2_kind, Stage2(c, -1.0, 3))


@njit
def passed_on(m):
    return same(m), same(Color.BLUE)


def test_members_passed_to_other_compiled_functions():
    for m in Color:
        assert_same(passed_on, m)


@njit
def maybe_member(flag, m):
    x = None
    if flag:
        x = m
    return x


def test_optional_member():
    for m, flag in itertools.product(Color, [True, False]):
        assert_same(maybe_member, flag, m)


# ---------------------------------------------------------------- comparisons

@njit
def compare(a, b):
    return a == b, a != b, a is b, a is not b


@njit
def identity(a, b):
    return a is b, a is not b


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_equality_and_identity_within_a_class(cls):
    for a, b in itertools.product(cls, cls):
        assert_same(compare, a, b)


def test_identity_across_classes_is_false():
    for a, b in itertools.product(members(Color, Shape, Weight), members(Other, Shape)):
        assert_same(identity, a, b)


@njit
def member_in(m):
    return m in (Color.RED, Color.BLUE), m not in (Color.GREEN,)


def test_in_a_tuple_of_members():
    for m in Color:
        assert_same(member_in, m)


@njit
def member_in_mixed(m):
    return m in (Other.A, Shape.SQUARE, 1, Color.GREEN)


@numba_deviation("Numba refuses == between members of different classes inside `in` too")
def test_in_a_tuple_of_other_classes_and_numbers_is_equality_as_python():
    for m in members(Color, Other):
        assert_same(member_in_mixed, m)


def test_equality_across_classes_is_a_typing_error_as_numba():
    with pytest.raises(ruchey.TypingError, match=says("compare")):
        compare(Color.RED, Other.A)


def test_equality_with_a_number_is_a_typing_error_as_numba():
    @njit
    def with_number(m):
        return m == 1

    with pytest.raises(ruchey.TypingError, match=says("compare")):
        with_number(Color.RED)


def test_order_is_a_typing_error_as_numba():
    @njit
    def less(a, b):
        return a < b

    with pytest.raises(ruchey.TypingError, match=says("only compared with")):
        less(Color.RED, Color.GREEN)


@numba_deviation("Numba compares other values by identity too")
def test_is_between_other_values_stays_a_typing_error():
    @njit
    def same_number(a, b):
        return a is b

    with pytest.raises(ruchey.TypingError, match=says("only supported with None, between enum members")):
        same_number(1, 2)


def test_is_between_dtypes_is_their_identity_as_numpy():
    """arr.dtype is np.dtype(np.float64), as xsdba's quantiles choose their
    NaN handling: NumPy's builtin dtypes are one object each."""
    @njit
    def kind_of(arr):
        if arr.dtype is numpy.dtype(numpy.float64) or arr.dtype is numpy.dtype(numpy.float32):
            return 1
        if arr.dtype is not numpy.dtype(numpy.int64):
            return 2
        return 3

    @njit
    def same_dtype(a, b):
        return a.dtype is b.dtype, a.dtype is not b.dtype

    dtypes = (numpy.float64, numpy.float32, numpy.int64, numpy.int8, numpy.uint64, numpy.complex128, numpy.bool_)
    rng = make_rng(7)
    arrays = [(rng.standard_normal((2, 3)) * 10).astype(dt) for dt in dtypes] + [numpy.empty(0), numpy.empty((0, 2))]
    for a in arrays:
        assert kind_of(a) == kind_of.py_func(a)
        for b in arrays:
            assert same_dtype(a, b) == same_dtype.py_func(a, b)


def test_is_with_ellipsis_is_its_identity_as_python():
    """Ellipsis is one object: `x is ...` of an Ellipsis argument is true, of
    any other value false (Numba's test_operators test_is_ellipsis); a
    signature names its type types.ellipsis."""
    @njit
    def is_dots(x, y):
        return x is y, x is not y, y is x

    rng = make_rng(8)
    values = [..., int(rng.integers(-9, 9)), float(rng.standard_normal()), rng.standard_normal(3), (1, ...), None]
    for x in values:
        assert is_dots(..., x) == is_dots.py_func(..., x)
        assert is_dots(x, ...) == is_dots.py_func(x, ...)
    declared = njit((ruchey.types.ellipsis, ruchey.types.ellipsis))(is_dots.py_func)
    assert declared(..., ...) == (True, False, True) and ruchey.typeof(...) == ruchey.types.ellipsis
    with pytest.raises(TypeError, match="no matching definition"):
        declared(1, ...)


# ---------------------------------------------------------------- the class in compiled code

@njit
def named_members():
    return Color.RED, Color["GREEN"], Shape.LINE, Weight["HEAVY"], Color.BLUE.value, Shape["CIRCLE"] + 1


def test_members_named_through_their_class():
    assert_same(named_members)


GLOBAL_PAIR = (Combination.MAX, Combination.LAST)


@njit
def in_global_tuple(c):
    return c in GLOBAL_PAIR, GLOBAL_PAIR


def test_global_tuple_of_members_is_frozen():
    for c in Combination:
        assert_same(in_global_tuple, c)


def make_kernel(combination):
    """datashader's style: the combination a closure constant, tested in the kernel."""
    @njit
    def accumulate(out, x):
        for i in range(x.shape[0]):
            if combination == Combination.MAX:
                out[i] = max(out[i], x[i])
            elif combination is Combination.MIN:
                out[i] = min(out[i], x[i])
            elif combination in (Combination.SUM_1AGG, Combination.SUM_2AGG):
                out[i] += x[i]
            else:
                out[i] = x[i]
        return out
    return accumulate


@pytest.mark.parametrize("c", list(Combination), ids=repr)
def test_closure_member_selects_a_branch(c):
    rng = make_rng(len(c.name))
    assert_same(make_kernel(c), rng.standard_normal(9), rng.standard_normal(9))


def make_class_user(cls):
    @njit
    def first_and_last():
        return cls.RED, cls["BLUE"]
    return first_and_last


def test_class_as_closure_variable():
    assert_same(make_class_user(Color))


@pytest.mark.parametrize("source", [
    "len(Color)", "[c for c in Color]", "Color.__members__",
])
def test_class_as_a_value_is_a_typing_error_as_numba(source):
    f = njit(eval(f"lambda: {source}"))
    with pytest.raises(ruchey.TypingError, match=says("enum class 'Color'")):
        f()


def test_calling_the_class_is_a_typing_error_as_numba():
    @njit
    def call():
        return Color(2)

    with pytest.raises(ruchey.TypingError, match=says("enum class 'Color' cannot be called")):
        call()


def test_unknown_member_is_a_typing_error():
    @njit
    def missing():
        return Color.PURPLE

    with pytest.raises(ruchey.TypingError, match=says("enum class 'Color' has no member 'PURPLE'")):
        missing()

    @njit
    def missing_item():
        return Color["PURPLE"]

    with pytest.raises(ruchey.TypingError, match=says("enum class 'Color' has no member 'PURPLE'")):
        missing_item()


def test_item_of_a_variable_name_is_a_typing_error_as_numba():
    @njit
    def by_name(s):
        return Color[s]

    with pytest.raises(ruchey.TypingError, match=says("constant str")):
        by_name("RED")


def test_name_is_a_typing_error_as_numba():
    @njit
    def name(m):
        return m.name

    with pytest.raises(ruchey.TypingError, match=says("no attribute 'name'")):
        name(Color.RED)


# ---------------------------------------------------------------- IntEnum members as ints

@njit
def arithmetic(s):
    return s + 1, s * 2, -s, s // 2, s - Shape.SQUARE, abs(s)


@njit
def with_floats(s):
    return s * 1.5, s / 2, float(s), int(s), bool(s)


@njit
def comparisons(s, k):
    return s == 3, s < Shape.CIRCLE, s >= k, s == Shape.SQUARE, s != k


@njit
def as_index(s, a):
    total = 0
    for i in range(s if s > 0 else 0):
        total += i
    return a[s % a.shape[0]], total, numpy.zeros((s % 3 + 1, 2)).shape, hash(s)


@pytest.mark.parametrize("s", members(Shape, *INT_GENERATED), ids=repr)
def test_intenum_member_is_its_int_in_arithmetic(s):
    assert_same(arithmetic, s)


@numba_deviation("Numba cannot lower an IntEnum member with a float, nor take int(), float() or bool() of one")
def test_intenum_member_is_its_int_with_floats_and_conversions():
    for s in members(Shape, *INT_GENERATED):
        assert_same(with_floats, s)


@pytest.mark.parametrize("s", members(Shape, *INT_GENERATED), ids=repr)
def test_intenum_member_is_its_int_in_comparisons(s):
    for k in (-7, 3, 4, 10):
        assert_same(comparisons, s, k)


@pytest.mark.parametrize("s", members(Shape, *INT_GENERATED), ids=repr)
def test_intenum_member_as_index_range_and_shape(s):
    assert_same(as_index, s, make_rng(5).standard_normal(11))


@njit
def int_or_member(flag, s):
    return s if flag else 5


@njit
def kept(s):
    t = s
    t += 1
    return s, t


def test_intenum_member_with_an_int_unifies_to_int_as_numba():
    for s, flag in itertools.product(Shape, [True, False]):
        got = int_or_member(flag, s)
        assert type(got) is int and got == int_or_member.py_func(flag, s)
        assert_same(kept, s)


# ---------------------------------------------------------------- flags

@njit
def flag_parts(p):
    return p.value, p == Perm.W, p is Perm.R, p


def test_flag_members_act_as_enum_members_as_numba():
    for p in Perm:
        assert_same(flag_parts, p)


def test_flag_or_is_a_typing_error_as_numba():
    @njit
    def union(a, b):
        return a | b

    with pytest.raises(ruchey.TypingError, match=says("not supported")):
        union(Perm.R, Perm.W)


def test_intflag_arguments_are_ints_as_numba():
    @njit
    def bits(b):
        return b | 8, b + 1, b

    for b in Bits:
        assert bits(b) == (int(b | Bits.HIGH), int(b) + 1, int(b))
        assert all(type(x) is int for x in bits(b))


@numba_deviation("Numba types an IntFlag member named through its class as an Enum member")
def test_intflag_members_named_in_compiled_code_are_ints():
    @njit
    def high(b):
        return b | Bits.HIGH

    for b in Bits:
        assert high(b) == int(b | Bits.HIGH) and type(high(b)) is int


# ---------------------------------------------------------------- classes compiled code cannot hold

class Mixed(enum.Enum):
    ONE = 1
    HALF = 0.5


class Pair(enum.Enum):
    A = (1, 2)
    B = (3, 4)


def test_members_of_a_class_of_mixed_value_types_are_refused_clearly():
    with pytest.raises((TypeError, ruchey.TypingError), match=says("enum class 'Mixed'.*differ in type")):
        same(Mixed.ONE)


def test_mixed_class_named_in_compiled_code_is_a_typing_error():
    @njit
    def named():
        return Mixed.HALF

    with pytest.raises(ruchey.TypingError, match="differ in type|heterogeneous"):
        named()


class Wide(enum.IntEnum):
    HIGH = 2**63 + 5
    HIGHER = 2**64 - 1


@njit
def wide_parts(w):
    return w.value, w, Wide.HIGH.value, w == Wide.HIGHER


def test_members_of_uint64_values_as_numba_types_them():
    for w in Wide:
        assert_same(wide_parts, w)


class Huge(enum.Enum):
    A = 2**70


def test_members_of_values_past_64_bits_are_refused_clearly():
    with pytest.raises((TypeError, ruchey.TypingError), match=says("fits in neither int64 nor uint64")):
        same(Huge.A)


class Planet(enum.Enum):  # Python's own example of Enum
    MERCURY = (3.303e+23, 2.4397e6)
    VENUS = (4.869e+24, 6.0518e6)
    EARTH = (5.976e+24, 6.37814e6)


class Nested(enum.Enum):
    A = ((1, 2), 3)
    B = ((4, 5), 6)


class Tagged(enum.Enum):
    A = ("a", 1)
    B = ("b", 2)


def generated_pairs(seed):
    """A class of a few members whose values are generated pairs of floats."""
    rng = make_rng(seed)
    return enum.Enum(f"Pairs{seed}", {f"P{i}": tuple(rng.standard_normal(2).round(4).tolist()) for i in range(4)})


@njit
def tuple_member_parts(m, n, t):
    mass, radius = m.value
    return (m == n, m != n, m is n, m is not n, 6.673e-11 * mass / (radius * radius), m if mass > 1e24 else n,
            t[0].value[1] + t[1], Planet.EARTH.value[0], Planet.VENUS)


@pytest.mark.parametrize("cls", [Planet, generated_pairs(11), generated_pairs(12)], ids=lambda c: c.__name__)
def test_members_with_tuple_values_as_numba_holds_them(cls):
    for a, b in itertools.product(cls, cls):
        got, expected = tuple_member_parts(a, b, (b, 2.5)), tuple_member_parts.py_func(a, b, (b, 2.5))
        assert got == expected and got[5] is expected[5] and got[8] is Planet.VENUS
    for a in list(Pair) + list(Nested):
        assert same(a) is a and value_of(a) == a.value


@numba_deviation("Numba holds enum members whose values are tuples holding strs")
def test_members_with_tuple_values_holding_strs_are_refused_clearly():
    with pytest.raises(TypeError, match="enum class 'Tagged'.*tuple"):
        same(Tagged.A)


# ---------------------------------------------------------------- str values

numba_crashes = pytest.mark.skipif(AS_NUMBA, reason="Numba corrupts its heap with str-valued enum members")


@njit
def label_parts(m, t):
    v = m.value
    w = t[0].value
    return m == t[0], m != t[0], m is t[0], len(v) + len(w), v + "!", t[0]


@njit
def label_constants():
    return Label["BETA"], Label.EMPTY.value, Label.ALPHA == Label.ALPHA


@numba_crashes
@pytest.mark.parametrize("cls", [Label] + STR_GENERATED, ids=lambda c: c.__name__)
def test_members_with_str_values(cls):
    for a, b in itertools.product(cls, cls):
        assert_same(label_parts, a, (b, 1.5))


@numba_crashes
def test_str_members_named_in_compiled_code():
    assert_same(label_constants)


@njit
def str_member_in(m):
    return m in (Label.ALPHA, Label.EMPTY)


@numba_crashes
def test_str_member_in_a_tuple():
    for m in Label:
        assert_same(str_member_in, m)


@numba_crashes
def test_str_members_are_released():
    from conftest import rss_bytes

    @njit
    def churn(m, t):
        x = t[0].value
        return len(m.value) + len(x), t[0] == m, t[0] is m, m

    big = enum.Enum("Big", {"A": "a" * 5000, "B": "b" * 5000})
    churn(big.A, (big.B,))
    before = rss_bytes()
    for _ in range(20000):
        churn(big.A, (big.B,))
    if before is not None:
        assert rss_bytes() - before < 20_000_000  # 20,000 calls leaking a 20 kB str would be 400 MB


# ---------------------------------------------------------------- lists of members

@njit
def gathered(m, n):
    members = [m]
    for i in range(n):
        members.append(Color.RED if i % 2 else Color.BLUE)
    reds = 0
    for x in members:
        if x == Color.RED:
            reds += 1
    return members[-1], reds, Color.GREEN in members, members.count(Color.BLUE), len(members)


def test_lists_of_members_made_in_compiled_code():
    for m, n in itertools.product(Color, [0, 1, 4]):
        assert_same(gathered, m, n)


@njit
def rewritten(members):
    members.append(Color.GREEN)
    members[0] = members[-1]
    return members[1], len(members)


def test_python_list_of_members_is_reflected_as_numba():
    rng = make_rng(11)
    for n in (1, 3, 6):
        given = [list(Color)[k] for k in rng.integers(0, 3, n)]
        expected = list(given)
        assert rewritten(given) == rewritten.py_func(expected)
        assert given == expected and all(type(m) is Color for m in given)


def test_typed_list_of_members():
    items = ruchey.typed.List([Color.BLUE, Color.RED])
    assert rewritten(items) == (Color.RED, 3)
    assert list(items) == [Color.GREEN, Color.RED, Color.GREEN]
    with pytest.raises((TypeError, ruchey.TypingError)):  # (Numba's, a TypingError)
        items.append(1)


# ---------------------------------------------------------------- kernels

def make_cuda_kernel(combination):
    @cuda.jit
    def combine(out, x, level):
        i = cuda.grid(1)
        if i < x.size:
            if combination == Combination.MAX:
                out[i] = max(out[i], x[i])
            elif combination is Combination.SUM_1AGG:
                out[i] += x[i] * level.value
            else:
                out[i] = level.value if level is Color.GREEN else -1.0
    return combine


@pytest.mark.parametrize("c", [Combination.MAX, Combination.SUM_1AGG, Combination.LAST], ids=repr)
def test_members_in_kernels_as_constants_and_arguments(c):
    rng = make_rng(3)
    x, out = rng.standard_normal(40), rng.standard_normal(40)
    expected = out.copy()
    for i in range(40):
        if c == Combination.MAX:
            expected[i] = max(expected[i], x[i])
        elif c is Combination.SUM_1AGG:
            expected[i] += x[i] * Color.GREEN.value
        else:
            expected[i] = Color.GREEN.value
    make_cuda_kernel(c)[2, 32](out, x, Color.GREEN)
    numpy.testing.assert_array_equal(out, expected)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX parameters")
def test_kernel_takes_a_member_as_one_parameter_its_value():
    kernel = make_cuda_kernel(Combination.LAST)
    kernel[1, 8](numpy.zeros(8), numpy.zeros(8), Color.RED)
    (ptx,) = kernel.inspect_ptx().values()
    assert ptx.count(".param .u64") == 3 + 3 + 1  # two arrays (data, shape, stride) and the member's int64


@njit
def store_members(out, x, take):
    for i in range(x.size):
        if take:
            out[i] = Shape.LINE if x[i] < 0 else Shape["CIRCLE"]
        else:
            s = Shape.CIRCLE if x[i] > 3 else Shape.SQUARE
            out[i] = s


@cuda.jit
def store_members_in_a_kernel(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = Shape.SQUARE if x[i] == 3 else Shape.CIRCLE


@pytest.mark.parametrize("dtype", [numpy.int64, numpy.int16, numpy.float64])
def test_an_intenum_member_stored_into_an_array_is_its_int(dtype):
    x = numpy.array([3, 4, -1, 4, 3], numpy.int64)
    for take in (True, False):
        got, want = numpy.zeros(5, dtype), numpy.zeros(5, dtype)
        store_members(got, x, take)
        store_members.py_func(want, x, take)
        numpy.testing.assert_array_equal(got, want)
    got = numpy.zeros(5, dtype)
    store_members_in_a_kernel[1, 8](got, x)
    numpy.testing.assert_array_equal(got, [3, 4, 4, 4, 3])


def test_an_enum_member_stored_into_an_array_stays_a_typing_error():
    @njit
    def store(out):
        out[0] = Color.RED

    with pytest.raises(ruchey.TypingError, match="cannot store"):
        store(numpy.zeros(1, numpy.int64))


# ---------------------------------------------------------------- types and signatures

def test_typeof_a_member_as_numba():
    assert repr(ruchey.typeof(Color.RED)) == "Enum<int64>(Color)"
    assert repr(ruchey.typeof(Shape.CIRCLE)) == "IntEnum<int64>(Shape)"
    assert repr(ruchey.typeof(Weight.HEAVY)) == "Enum<float64>(Weight)"
    assert ruchey.typeof(Color.RED) == ruchey.types.EnumMember(Color, ruchey.types.int64)
    assert ruchey.typeof(Shape.LINE) == ruchey.types.IntEnumMember(Shape, ruchey.types.int64)


def test_typeof_a_member_of_mixed_value_types_is_refused_as_numba():
    for member in Mixed:  # (as the dispatcher refuses it)
        with pytest.raises(ValueError, match="Cannot type heterogeneous enum: got value types float64, int64"):
            ruchey.typeof(member)


def test_explicit_signature_of_members():
    types = ruchey.types

    @njit(types.int64(types.IntEnumMember(Shape, types.int64), types.EnumMember(Color, types.int64)))
    def scaled(s, c):
        return s * c.value

    for s, c in itertools.product(Shape, Color):
        assert scaled(s, c) == scaled.py_func(s, c)
    with pytest.raises(TypeError):
        scaled(3, Color.RED)


# ---------------------------------------------------------------- members that are ints, floats or strs besides

class Code(str, enum.Enum):
    OK = "ok"
    FAIL = "fail"


class Count(int, enum.Enum):
    ONE = 1
    TWO = 2


class Ratio(float, enum.Enum):
    HALF = 0.5


@njit
def plain_values(c, n, r):
    return c == "ok", c + "!", n + 1, r * 2.0


def test_members_that_are_values_besides_are_those_values_as_numba():
    for c, n in itertools.product(Code, Count):
        got = plain_values(c, n, Ratio.HALF)
        assert got == plain_values.py_func(c, n, Ratio.HALF)
        assert [type(x) for x in got] == [bool, str, int, float]
    assert repr(ruchey.typeof(Code.OK)) == "unicode_type" and repr(ruchey.typeof(Count.ONE)) == "int64"


@pytest.mark.skipif(not hasattr(enum, "StrEnum"), reason="enum.StrEnum is Python 3.11's")
def test_strenum_members_are_strs_as_numba():
    Mode = enum.StrEnum("Mode", {"FAST": "fast", "SLOW": "slow"})

    @njit
    def shout(m):
        return m + "!", m == "fast"

    for m in Mode:
        assert shout(m) == (m.value + "!", m.value == "fast")


@numba_deviation("Numba compares a member of str values with a str")
def test_str_valued_member_against_a_str_is_a_typing_error():
    @njit
    def against(m):
        return m == "alpha"

    with pytest.raises(ruchey.TypingError, match=says("cannot compare")):
        against(Label.ALPHA)


# ---------------------------------------------------------------- print()

class Tint(enum.Enum):
    WARM = 1
    COLD = 2
    HOT = 1  # an alias: Python prints Tint.WARM


@njit
def prints_members(c, s, t):
    print(Color.RED, Shape.LINE)
    print(c, "and", s)
    print(t, Tint.HOT, Switch.ON)
    return 0


def test_print_writes_enum_members_as_python_does(capsys):
    for c, s, t in itertools.product(Color, Shape, Tint):
        prints_members(c, s, t)
        compiled = capsys.readouterr().out
        prints_members.py_func(c, s, t)
        assert compiled == capsys.readouterr().out


def test_print_of_a_float_valued_member_is_a_typing_error():
    @njit
    def prints_weight():
        print(Weight.LIGHT)
    with pytest.raises(ruchey.TypingError, match=says("print")):
        prints_weight()


# ---------------------------------------------------------------- IntEnum members returned where a number is declared

def shape_of(x):
    if x < 0:
        return Shape.CIRCLE
    if x > 10:
        return Shape.SQUARE
    return Shape.CIRCLE if x % 2 else Shape.SQUARE


def test_vectorize_returning_intenum_members_gives_their_ints():
    a = make_rng(1523).integers(-20, 20, size=17)
    want = numpy.array([int(shape_of(x)) for x in a])
    lazy, eager = ruchey.vectorize(shape_of), ruchey.vectorize(["int64(int64)"])(shape_of)
    numpy.testing.assert_array_equal(lazy(a), want)
    numpy.testing.assert_array_equal(eager(a), want)

    @njit
    def inside(a):
        return lazy(a) * 2

    numpy.testing.assert_array_equal(inside(a), want * 2)


def test_signature_declaring_a_number_takes_intenum_returns():
    as_int = njit("int64(int64)")(shape_of)
    as_float = njit("float64(int64)")(shape_of)
    for x in make_rng(1524).integers(-20, 20, size=9):
        assert as_int(x) == int(shape_of(x)) and type(as_int(x)) is int
        assert as_float(x) == float(shape_of(x)) and type(as_float(x)) is float
