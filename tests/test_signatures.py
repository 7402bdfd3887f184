"""Dispatcher.signatures as Numba lists them: a tuple of argument types per
compiled specialisation, each type a ruchey.types object (also equal to the
text "(int64, float64)" ruchey listed before, the keys of inspect_llvm)."""
from collections import namedtuple

import numpy as np
import pytest
import ruchey
from ruchey import njit
from ruchey.typed import List

from conftest import AS_NUMBA


def test_signatures_are_tuples_of_types():
    @njit
    def add(a, b):
        return a + b
    assert add(1, 2) == add.py_func(1, 2)
    assert add(1.5, 2) == add.py_func(1.5, 2)
    assert add.signatures == [(ruchey.int64, ruchey.int64), (ruchey.float64, ruchey.int64)]
    first = add.signatures[0]
    assert isinstance(first, tuple) and first[0] == ruchey.int64
    assert add.signatures[1][0].bitwidth == 64


def test_array_signature_items_are_array_types():
    @njit
    def total(a):
        return a.sum()
    x = np.arange(6.0)
    assert total(x) == total.py_func(x)
    assert total(x.reshape(2, 3)) == total.py_func(x.reshape(2, 3))
    assert total.signatures[0] == (ruchey.float64[::1],)
    assert total.signatures[1] == (ruchey.float64[:, ::1],)
    assert total.signatures[1][0].ndim == 2


def test_explicit_signatures_listed_as_types():
    @njit(["float64(float64)", "int32(int32)"])
    def half(x):
        return x // 2
    assert half.signatures == [(ruchey.float64,), (ruchey.int32,)]


def test_tuple_argument_listed_as_tuple_type():
    @njit
    def first(t):
        return t[0]
    assert first((1.0, 2.0)) == 1.0
    (arg,) = first.signatures[0]
    assert arg == ruchey.types.UniTuple(ruchey.float64, 2) if not AS_NUMBA else len(arg) == 2


def test_overloads_keyed_by_signatures():
    @njit
    def neg(x):
        return -x
    neg(3)
    neg(2.5)
    assert list(neg.overloads) == neg.signatures
    for sig in neg.signatures:
        assert neg.overloads[sig].entry_point


def test_overloads_found_by_a_tuple_of_types():
    from ruchey import types
    add = njit([(types.int32, types.int32), (types.float64, types.float64)])(lambda a, b: a + b)
    for sig, ret, args in [((types.int32, types.int32), types.int64, (3, 4)),
                           ((types.float64, types.float64), types.float64, (0.5, -2.0))]:
        assert sig in add.overloads and add.overloads.get(sig) == add.overloads[sig]
        assert add.overloads[sig].signature.args == sig
        assert add.overloads[sig].signature.return_type == ret
        assert add(*args) == add.py_func(*args)
    missing = (types.int8, types.int8)
    assert missing not in add.overloads and add.overloads.get(missing) is None
    with pytest.raises(KeyError):
        add.overloads[missing]


def test_signatures_still_equal_their_text():
    @njit
    def inc(x):
        return x + 1
    inc(1)
    inc(1.0)
    if not AS_NUMBA:
        assert inc.signatures == ["(int64,)", "(float64,)"]
        assert set(inc.inspect_llvm()) == set(inc.signatures)
        assert str(inc.signatures[0]) == "(int64,)"


# Explicit signatures: the one that takes the arguments with the least conversion, as
# Numba picks an overload (not merely the first that accepts them).
@ruchey.njit(["float32(float32)", "float64(float64)"])
def tenth(x):
    return x * 0.1


@ruchey.njit(["int16(int16)", "int64(int64)", "float32(float32)"])
def doubled(x):
    return x + x


@ruchey.njit
def tenth_inside(x):
    return tenth(x)


def test_the_closest_explicit_signature_is_chosen():
    assert tenth(3.0) == 3.0 * 0.1  # float64, not float32's 0.30000001192...
    assert tenth(np.float32(3.0)) == np.float32(3.0) * np.float32(0.1)
    assert tenth(3) == 3 * 0.1  # an int64 fits float64 better than float32
    assert doubled(20000) == 40000  # int64, not int16's wrapped -25536
    assert doubled(np.int16(20000)) == np.int16(-25536)
    with pytest.raises(TypeError, match="Ambiguous overloading"):
        doubled(True)  # as Numba: a bool converts as safely to int16 as to int64


def test_compiled_callers_choose_as_python_does():
    assert tenth_inside(3.0) == tenth_inside.py_func(3.0)
    # float32(float32), as a call from Python takes (NumPy 1.x's Python would give float64)
    assert tenth_inside(np.float32(3.0)) == tenth(np.float32(3.0)) == np.float32(3.0) * np.float32(0.1)


# compiled at decoration, before the module binds its name: its call of itself names the dispatcher
@njit("int64(int64)")
def countdown_sum(n):
    if n <= 0:
        return 0
    return n + countdown_sum(n - 1)


def test_a_function_calls_itself_under_an_explicit_signature():
    for n in (0, 1, 10, 57):
        assert countdown_sum(n) == countdown_sum.py_func(n)


def test_a_declared_tuple_return_converts_its_items():
    @njit(ruchey.types.Tuple((ruchey.int32[::1], ruchey.float64))(ruchey.int32[::1], ruchey.float32))
    def split(a, x):
        y = np.float32(x * np.float32(2.0))
        return a[1:], y
    a = np.arange(5, dtype=np.int32)
    got, want = split(a, np.float32(1.25)), split.py_func(a, np.float32(1.25))
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1] == want[1] and type(got[1]) is float


def test_a_typed_list_in_an_explicit_signature():
    from ruchey import typed
    item = ruchey.float32[::1]

    @njit(ruchey.float64(ruchey.types.ListType(item)))
    def total(xs):
        s = 0.0
        for x in xs:
            s += x.sum()
        return s
    @njit
    def run(sizes):  # a list built in compiled code, passed on as the signature's type
        xs = typed.List()
        for n in sizes:
            xs.append(np.arange(n).astype(np.float32))  # sums exact in float32 and float64
        return total(xs)
    sizes = np.array([3, 1, 4])
    assert run(sizes) == sum(float(np.arange(n).sum()) for n in sizes)  # py_func: Python's typed.List holds numbers only


def windows(x, sizes):
    """pyts' shape: typed lists of arrays returned in a tuple, declared as
    lists of A-layout arrays while the body makes C ones."""
    out, starts = List(), List()
    for w in sizes:
        out.append(np.copy(x[: len(x) - w + 1]))
        starts.append(np.arange(0, len(x) - w + 1))
    return out, starts


def test_typed_lists_declared_in_a_tuple_and_as_a_return_type():
    t = ruchey.types
    windows_sig = t.Tuple((t.ListType(t.float64[:]), t.ListType(t.int64[::1])))(t.float64[:], t.int64[:])
    f = njit(windows_sig)(windows)
    x, sizes = np.random.default_rng(3).standard_normal(12), np.array([2, 5, 12])
    got = f(x, sizes)
    want = ([np.copy(x[: len(x) - w + 1]) for w in sizes], [np.arange(0, len(x) - w + 1) for w in sizes])
    for g, w in zip(got, want):  # (py_func's typed.List takes no arrays in Python)
        assert len(g) == len(w)
        for a, b in zip(g, w):
            np.testing.assert_array_equal(a, b)

    @njit(t.ListType(t.int64)(t.int64))
    def evens(n):
        out = List()
        for i in range(0, n, 2):
            out.append(i)
        return out
    assert list(evens(9)) == list(evens.py_func(9))
    assert t.List(t.int64) == t.ListType(t.int64) and repr(t.List(t.int64)) == "List(int64, reflected=False)"


def test_a_declared_list_return_takes_only_items_of_its_own_representation():
    t = ruchey.types

    def ints(n):
        out = List()
        for i in range(n):
            out.append(i)
        return out
    with pytest.raises(ruchey.TypingError, match="declares ListType\\[float64\\]"):
        njit(t.ListType(t.float64)(t.int64))(ints)


def test_named_tuple_types_in_signatures():
    t = ruchey.types
    Seg = namedtuple("Seg", "a b c")
    P = namedtuple("P", "x n")

    @njit(ruchey.float64(t.NamedUniTuple(ruchey.float64, 3, Seg)))
    def total(s):
        return s.a + s.b * s.c
    pt = t.NamedTuple((ruchey.float64, ruchey.int64), P)

    @njit(pt(pt))
    def bump(p):
        return P(p.x + 1, p.n * 2)
    for s in (Seg(1.0, 2.0, 3.0), Seg(-0.5, 4.25, 2.0)):
        assert total(s) == total.py_func(s)
    got = bump(P(1.5, 3))
    assert got == bump.py_func(P(1.5, 3)) and type(got) is P
    with pytest.raises(TypeError, match="2 fields, not 3"):
        t.NamedUniTuple(ruchey.float64, 3, P)
    with pytest.raises(TypeError, match="named tuple class"):
        t.NamedTuple((ruchey.float64,), tuple)


def test_disable_compile_keeps_the_compiled_signatures_only():
    @njit
    def sq(x):
        return x * x
    assert sq(3) == 9
    sq.disable_compile()
    assert sq(np.int32(4)) == 16  # converted to the compiled int64 signature
    with pytest.raises(TypeError, match="no matching definition"):
        sq(np.arange(3.0))
    assert len(sq.signatures) == 1
    sq.disable_compile(False)
    assert sq(2.5) == 6.25 and len(sq.signatures) == 2


def test_compile_leaves_calls_free_to_compile_other_types():
    """Numba's compile(sig) adds a signature; a call with other types compiles
    its own (an int stays an int, not converted to the float32 compiled)."""
    @njit
    def ident(a):
        return a
    ident.compile("(float32,)")
    for value in (1, -7, 2**40, 2.5, True, 1 + 2j):
        got = ident(value)
        assert got == ident.py_func(value) and type(got) is type(value), value
    assert len(ident.signatures) == 5


def test_compile_after_disable_compile_raises_runtime_error():
    @njit(["(float32,)", "(int32,)"])
    def listed(a):
        return a
    @njit
    def disabled(a):
        return a
    disabled.compile("(float32,)")
    disabled.disable_compile()
    for f in (listed, disabled):
        count = len(f.signatures)
        with pytest.raises(RuntimeError, match="compilation disabled"):
            f.compile("(complex64,)")
        assert len(f.signatures) == count


def test_two_signatures_fitting_a_call_equally_are_ambiguous():
    """As Numba ranks them: fewer lossy conversions first, then fewer safe ones, then fewer promotions;
    a tie is a TypeError naming both, never a silent pick of one."""
    def pair(a, b):
        return a, b
    f = njit(["(float32, float64)", "(float64, float32)", "(int64, int64)"])(pair)
    for args in ((0.1, 0.2), (np.float64(-0.0), 1e300)):
        with pytest.raises(TypeError, match=r"Ambiguous overloading.*\n\(float32, float64\) -> .*\n\(float64, float32\)"):
            f(*args)
    with pytest.raises(TypeError, match=r"Ambiguous overloading.*\n\(float32, float64\) -> .*\n\(int64, int64\)"):
        f(1, 2.5)  # one lossy conversion each, and no other
    assert f(np.float32(0.1), 0.2) == (float(np.float32(0.1)), 0.2)  # exact beats a narrowing
    assert f(3, 4) == (3, 4)
    g = njit(["(float32,)", "(float64,)"])(lambda a: a)
    assert g(1) == 1.0 and g(np.uint64(3)) == 3.0 and g(0.1) == 0.1  # int64 to float64 is safe, to float32 lossy
    with pytest.raises(TypeError, match="Ambiguous overloading"):
        g(np.int16(3))  # safe to both
    h = njit(["(int16,)", "(uint16,)"])(lambda a: a)
    assert h(np.uint8(200)) == 200 and h(np.int8(-3)) == -3  # the promotion beats the safe conversion
    with pytest.raises(TypeError, match="Ambiguous overloading"):
        h(70000)  # lossy to both

    @njit
    def caller(x, y):
        return f(x, y)
    assert caller(0.1, 0.2) == f(np.float32(0.1), 0.2)  # compiled code takes the first of equals, as Numba's


@pytest.mark.skipif(AS_NUMBA, reason="Numba counts a layout change only once some call has needed one")
def test_an_array_layout_change_is_a_safe_conversion():
    # a C array for an [:] parameter beats an int wrapped into int8, as in Numba once it has made
    # such a layout change for any call (a fresh Numba takes the int8 signature: 300 becomes 44)
    f = njit(["(float64[::1], int8)", "(float64[:], int64)"])(lambda a, k: a[0] + k)
    for a in (np.arange(3.0), np.arange(6.0)[::2]):
        for k in (300, -7, 2**40):
            assert f(a, k) == a[0] + k
    g = njit(["(float64[:], int64)", "(float64[::1], float64)"])(lambda a, k: k)
    with pytest.raises(TypeError, match="Ambiguous overloading"):
        g(np.arange(3.0), 2)  # one safe conversion each
    assert g(np.arange(6.0)[::2], 2) == 2 and type(g(np.arange(6.0)[::2], 2)) is int


def test_a_signature_of_the_wrong_length_is_a_type_error():
    def add(a, b):
        return a + b
    for sig in ("()", "(intc,)", "(intc, intc, intc)", ["(int64, int64)", "(float64,)"]):
        with pytest.raises(TypeError, match=r"Signature mismatch: \d argument types given, but function takes 2"):
            njit(sig)(add)
    f = njit(add)
    with pytest.raises(TypeError, match="Signature mismatch"):
        f.compile("(float64,)")
    assert f(2, 3) == add(2, 3)


@pytest.mark.skipif(AS_NUMBA, reason="Numba compiles a voidptr argument that only compiled callers can pass")
def test_a_pointer_argument_in_a_jit_signature_is_a_typing_error():
    def same(a, b):
        return a == b
    for sig in [(ruchey.types.voidptr, ruchey.types.voidptr), (ruchey.types.CPointer(ruchey.float64), ruchey.int64),
                "(int64, CPointer(float32))"]:
        with pytest.raises(ruchey.TypingError, match="@cfunc callbacks"):
            njit(sig)(same)
    assert njit((ruchey.int64, ruchey.int64))(same)(3, 3) is True


def test_none_as_an_argument_type():
    @njit(["int64[:](int64[:, :], float64[:])", "int64[:](int64[:, :], none)"])
    def hard_vote(votes, weights):
        out = np.empty(votes.shape[0], dtype=np.int64)
        for i in range(votes.shape[0]):
            out[i] = np.argmax(np.bincount(votes[i], weights))
        return out
    votes = np.random.default_rng(5).integers(0, 4, (6, 5))
    weights = np.linspace(0.5, 2.0, 5)
    for w in (weights, None):
        np.testing.assert_array_equal(hard_vote(votes, w), hard_vote.py_func(votes, w))
    assert len(hard_vote.signatures) == 2


# ---------------------------------------------------------------- conversions to a declared signature

def steps_and_scale(n, x):
    total = 0.0
    for i in range(n):
        total += x * i
    return total


def test_a_float_for_a_declared_int_is_truncated_as_numba_converts_it():
    f = njit("float64(int64, float64)")(steps_and_scale)
    for n in (0.0, 3.0, 3.9, -2.5, 7.0):
        assert f(n, 1.5) == steps_and_scale(int(n), 1.5)
    assert f(np.float32(4.7), 2.0) == steps_and_scale(4, 2.0)
    assert f(5, 2) == steps_and_scale(5, 2.0)
    with pytest.raises(TypeError):
        f(1 + 2j, 1.0)  # no complex converts to an int
    with pytest.raises(TypeError):
        f("3", 1.0)


# ---------------------------------------------------------------- a type called on a value casts it, as Numba's

def casts_with_types(x, m):
    if x > ruchey.int16(m):
        return x - ruchey.int32(m) + ruchey.float32(0.5)
    return x + ruchey.int64(3) + ruchey.float64(m)


def test_scalar_type_called_on_a_number_casts_it_in_python_and_compiled_code():
    import enum

    class Code(enum.IntEnum):
        low = 200
        high = 450

    f = ruchey.njit(casts_with_types)
    for x in (100, 300, 500):
        for m in (Code.low, Code.high, 7):
            assert f(x, m) == casts_with_types(x, m)
    assert repr(ruchey.int16(Code.high)) == repr(np.int16(450))
    assert type(ruchey.complex64(2)) is np.complex64 and type(ruchey.boolean(0)) is bool  # (Numba: a bool)
    assert type(ruchey.uint8(np.int64(7))) is np.uint8
    assert isinstance(ruchey.float64(ruchey.int64), ruchey.types.Signature)  # a type: a signature still


def choose(flag, x):
    return x if flag else -x


def test_a_number_for_a_declared_bool_is_its_truth_as_numba_converts_it():
    f = njit("float64(boolean, float64)")(choose)
    rng = np.random.default_rng(7)
    for v in list(rng.integers(-3, 4, 8)) + [0, 0.0, -0.0, 2.5, float("nan"), np.float32(0.5), np.uint8(0), True]:
        assert f(v, 1.5) == choose(bool(v), 1.5), v
    with pytest.raises(TypeError):
        f(1j, 1.0)  # no complex converts to a bool
    with pytest.raises(TypeError):
        f("x", 1.0)


def test_a_scalar_type_called_with_a_value_casts_it():
    """types.uint64(3) is numpy.uint64(3), as Numba's Type.__call__ (a value, not a signature)."""
    import numpy
    from ruchey import types
    for name in ("int8", "int32", "int64", "uint16", "uint64", "float32", "float64", "complex128"):
        for v in (3, 7.0, True):
            got = getattr(types, name)(v)
            assert type(got) is getattr(numpy, name) and got == getattr(numpy, name)(v)
    assert types.boolean(2) is True and types.boolean(0) is False
    assert types.NPDatetime("D")("2020-01-02") == numpy.datetime64("2020-01-02", "D")
    assert isinstance(types.float64(types.int64), ruchey.types.Signature)
    with pytest.raises(TypeError):
        types.int64(types.float64, 3)


def test_a_tuple_type_of_one_type_not_in_a_list_is_a_typing_error():
    from collections import namedtuple
    from ruchey import types
    with pytest.raises(ruchey.TypingError, match="iterable"):
        types.Tuple(types.uint32)
    with pytest.raises(ruchey.TypingError, match="iterable"):
        types.NamedTuple(types.uint32, namedtuple("P", "x"))
    assert types.Tuple([types.int64, types.float64]) == types.Tuple((types.int64, types.float64))


@pytest.mark.skipif(AS_NUMBA, reason="float64[()] is ruchey's spelling of Numba's Array(float64, 0, 'C')")
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8, np.uint16, np.bool_, np.complex128])
def test_0d_arrays_in_explicit_signatures(dtype):
    t = ruchey.typeof(np.array(1, dtype))
    assert isinstance(t, ruchey.types.Array) and not isinstance(t, ruchey.types.Number) and t.ndim == 0
    assert t == ruchey.types.Array(t.dtype, 0, "C") == t.dtype[()] and repr(t) == f"array({t.dtype}, 0d, C)"

    def item_and_copy(a, b):
        return a[()], b.copy()

    f = njit([(t, ruchey.types.Array(t.dtype, 0, "A"))])(item_and_copy)
    rng = np.random.default_rng(7)
    for v in rng.integers(-3, 120, 5).astype(dtype):
        a, b = np.array(v), np.array(v)
        got, expected = f(a, b), f.py_func(a, b)
        assert got[0] == expected[0] and type(got[1]) is np.ndarray and got[1].shape == () and got[1] == expected[1]
        assert got[1].dtype == expected[1].dtype
    assert f.signatures == [(t, ruchey.types.Array(t.dtype, 0, "A"))]
    with pytest.raises(TypeError, match="no matching definition"):
        f(dtype(1), np.array(1, dtype))  # a number is no 0-d array


def test_a_0d_array_declared_returned_and_written():
    @njit(ruchey.float64[()](ruchey.float64[()], ruchey.float64))
    def store(a, x):
        a[()] = x
        return a

    z = np.array(0.0)
    assert store(z, -2.5) is z and z == -2.5
    readonly = np.array(1.0)
    readonly.setflags(write=False)
    assert repr(ruchey.typeof(readonly)) == "readonly array(float64, 0d, C)"
    with pytest.raises(TypeError, match="no matching definition"):
        store(readonly, 1.0)
    with pytest.raises(TypeError, match="indexed again"):
        ruchey.float64[()][:]


def test_array_type_copy_changes_the_properties_given():
    @njit
    def total(a):
        return a.sum()

    x = np.arange(12.0).reshape(3, 4)
    t = ruchey.typeof(x)
    assert t.copy() == t and t.copy(layout="A") == ruchey.float64[:, :] and t.copy(ndim=1) == ruchey.float64[::1]
    assert t.copy(dtype=ruchey.int32, readonly=True) == ruchey.types.Array(ruchey.int32, 2, "C", readonly=True)
    assert ruchey.typeof(np.array(1.0)).copy(layout="A") == ruchey.types.Array(ruchey.float64, 0, "A")
    f = njit([(t.copy(layout="A"),)])(total.py_func)
    assert f(x.T) == total.py_func(x.T) and f(x[::2]) == total.py_func(x[::2])
    with pytest.raises(AttributeError, match="no array type"):
        ruchey.float64.copy()


@pytest.mark.parametrize("make", [
    lambda: np.broadcast_to(np.arange(4.0), (3, 4)), lambda: np.broadcast_to(np.zeros(2, [("i", "i4")]), (3, 2))[1],
    lambda: np.array(["ab", "c"]), lambda: np.arange(6, dtype=np.int16).reshape(2, 3).T,
])
def test_typeof_a_readonly_array_is_readonly_and_its_signature_takes_it(make):
    a = make()
    a.flags.writeable = False  # (broadcast views are so already)
    t = ruchey.typeof(a)
    assert t.readonly and t == ruchey.typeof(a) and t != ruchey.typeof(a.copy())
    f = njit((t,))(lambda x: x.shape[0] + x.ndim)
    assert f(a) == f.py_func(a) and len(f.signatures) == 1


def test_numbas_short_and_c_names_of_scalar_types_are_top_level():
    from ruchey import c16, f4, f8, i1, i4, i8, int_, intc, long_, u1, u8, uint, uintc
    assert (f8, f4, i8, i4, i1, u8, u1, c16) == (ruchey.float64, ruchey.float32, ruchey.int64, ruchey.int32,
                                                 ruchey.int8, ruchey.uint64, ruchey.uint8, ruchey.complex128)
    assert (int_, intc, long_, uint, uintc) == (ruchey.int64, ruchey.int32, ruchey.int64, ruchey.uint64, ruchey.uint32)

    @njit(f8(f8[:], i4))
    def scaled(a, k):
        return a.sum() * k
    x = np.linspace(-1.0, 4.0, 7)
    assert scaled(x, 3) == scaled.py_func(x, 3)


def test_a_function_that_only_raises_takes_any_declared_return_type():
    """One whose every path raises (an unreachable return after its raise,
    or a raise on each branch) compiles under any declared return type, as
    Numba's; its callers see the exception Python raises."""
    @njit(ruchey.float64())
    def refuse():
        raise TypeError("must return a scalar")
        return 0.0  # noqa: unreachable, as in real code

    @njit(ruchey.int64(ruchey.int64))
    def sign_error(x):
        if x > 0:
            raise ValueError("positive")
        else:
            raise ValueError("not positive")

    @njit
    def checked(x):
        if x > 1.0:
            return refuse()
        return x * 2.0

    for x in (-3.0, 0.0, 0.5, 1.0, np.nan):
        assert checked(x) == checked.py_func(x) or (np.isnan(x) and np.isnan(checked(x)))
    with pytest.raises(TypeError, match="must return a scalar"):
        checked(2.0)
    for x in (-2, 0, 5):
        with pytest.raises(ValueError) as compiled:
            sign_error(x)
        with pytest.raises(ValueError) as python:
            sign_error.py_func(x)
        assert str(compiled.value) == str(python.value)
