"""literally() and literal types: a function compiled per value of an
argument, and overloads' typing functions given the values of constants
(Numba's literal dispatch: types.IntegerLiteral, StringLiteral,
BooleanLiteral and their literal_value)."""
import inspect
import io

import numpy as np
import pytest

import ruchey
from ruchey import literally, njit, types
from ruchey.extending import SentryLiteralArgs, overload, overload_method, sentry_literal_args

from conftest import numba_deviation


def scale(x, how):
    """The Python meaning of the overload below."""
    if how == "square":
        return x * x
    if how == "negate":
        return -x
    return x * how


seen = []  # the types the typing function was given, in order


@overload(scale)
def ol_scale(x, how):
    seen.append(how)
    if not isinstance(how, types.Literal):
        return None  # only for a known value: the literal types are tried next
    value = how.literal_value
    if value == "square":
        return lambda x, how: x * x
    if value == "negate":
        return lambda x, how: -x
    if isinstance(how, types.IntegerLiteral):
        return lambda x, how: x * value  # the value, a constant of the implementation
    return None


@njit
def scaled(x, how):
    return scale(x, literally(how))


def test_a_function_is_compiled_for_each_value_of_a_literally_argument():
    rng = np.random.default_rng(0)
    for x in rng.standard_normal(6):
        for how in ("square", "negate", 3, -7):
            assert scaled(x, how) == scaled.py_func(x, how)
    assert sorted(map(str, scaled.signatures)) == [
        "(float64, Literal[int](-7))", "(float64, Literal[int](3))",
        "(float64, Literal[str](negate))", "(float64, Literal[str](square))"]


def test_the_same_value_reuses_its_specialisation_and_1_true_differ():
    @njit
    def times(x, k):
        return x * literally(k)

    for k in (2, 5, 2, 5, True, 1):
        assert times(1.5, k) == times.py_func(1.5, k)
    assert len(times.signatures) == 4  # 2, 5, True and 1: True is a bool literal, not 1


def test_signatures_and_overloads_give_the_frozen_arguments_literal_types():
    @njit
    def times(x, k):
        return x * literally(k)

    for k in (3, -7, True):
        assert times(2.5, k) == times.py_func(2.5, k)
    firsts = [sig[0] for sig in times.signatures]
    assert firsts == [types.float64] * 3
    lits = [sig[1] for sig in times.signatures]
    assert [type(t) for t in lits] == [types.IntegerLiteral, types.IntegerLiteral, types.BooleanLiteral]
    assert [t.literal_value for t in lits] == [3, -7, True]
    assert [t.literal_value for t, in (key[1:] for key in times.overloads)] == [3, -7, True]

    @njit
    def named(s):
        return len(literally(s))

    assert named("abc") == 3
    [(t,)] = named.signatures
    assert isinstance(t, types.StringLiteral) and t.literal_value == "abc"
    text = io.StringIO()
    named.inspect_types(file=text)  # (inspected as its plain type)
    assert "Literal[str](abc)" in text.getvalue()


def offset(x, by):
    return x + by


offsets = []  # the types the typing function was given, in order


@overload(offset)
def ol_offset(x, by):
    offsets.append(by)
    if isinstance(by, types.Literal):
        value = by.literal_value if isinstance(by, types.IntegerLiteral) else len(by.literal_value)
        return lambda x, by: x + value
    return None


def test_typing_functions_see_plain_types_first_then_literals():
    @njit
    def twice(x):
        return offset(x, "abc") + offset(x, 4)

    assert twice(3.0) == 3.0 + 3 + 3.0 + 4
    assert [isinstance(t, types.Literal) for t in offsets] == [False, True, False, True]
    assert isinstance(offsets[0], types.UnicodeType) and isinstance(offsets[2], types.Integer)
    assert offsets[1].literal_value == "abc" and offsets[3].literal_value == 4
    assert isinstance(offsets[3], types.Integer) and types.unliteral(offsets[3]) == types.int64


def mode_of(x, mode):
    return x + len(mode)


modes = []


@overload(mode_of, prefer_literal=True)
def ol_mode_of(x, mode):
    modes.append(mode)
    n = len(mode.literal_value) if isinstance(mode, types.StringLiteral) else 0
    return lambda x, mode: x + n


def test_prefer_literal_gives_the_literal_type_first():
    modes.clear()

    @njit
    def f(x):
        label = "three"  # a variable bound once to a constant is one
        return mode_of(x, label)

    assert f(1) == f.py_func(1) == 6
    assert modes == [types.literal("three")]


def shifted_by(a, by):
    """The Python meaning of the methods below: a constant 1 picks a branch of its own."""
    return a.sum() + (1000 if by == 1 else 100 * by)


def ol_shifted(a, by):
    if isinstance(by, types.IntegerLiteral):  # (reached with prefer_literal only)
        n = by.literal_value
        return lambda a, by: a.sum() + (1000 if n == 1 else 100 * n)
    return lambda a, by: a.sum() + 100 * by


overload_method(types.Array, "shifted_literal", prefer_literal=True)(ol_shifted)
overload_method(types.Array, "shifted_plain")(ol_shifted)


def test_overload_method_prefer_literal_gives_the_literal_type_first():
    @njit
    def f(a, by):
        return a.shifted_literal(1), a.shifted_literal(2), a.shifted_literal(by), a.shifted_plain(1), a.shifted_plain(by)

    for a in (np.arange(4.0), np.array([-1.5, np.nan]), np.zeros(0, np.int32)):
        for by in (1, -3):
            # a variable is no constant: the plain types' branch, as for prefer_literal=False
            want = (shifted_by(a, 1), shifted_by(a, 2), a.sum() + 100 * by, a.sum() + 100, a.sum() + 100 * by)
            np.testing.assert_array_equal(f(a, by), want)


def test_a_caller_passing_its_own_parameter_is_compiled_per_value_too():
    @njit
    def outer(x, how):
        return scaled(x, how) + 1.0

    @njit
    def constants(x):
        return scaled(x, "square") - scaled(x, "negate")

    for how in ("square", "negate", 4):
        assert outer(2.5, how) == outer.py_func(2.5, how)
    assert len(outer.signatures) == 3
    assert constants(2.5) == constants.py_func(2.5)


def test_a_literal_parameter_in_ordinary_control_flow():
    @njit
    def pick(x, kind):
        k = literally(kind)
        total = 0.0
        for i in range(3):
            if k == "sum":
                total += x[i]
            elif k == "max":
                total = max(total, x[i])
        return total

    x = np.array([1.5, -2.0, 4.0])
    for kind in ("sum", "max", "none"):
        assert pick(x, kind) == pick.py_func(x, kind)


@numba_deviation("an omitted argument is refused as a literal (LiteralTypingError)")
def test_a_default_argument_is_frozen_to_its_value():
    @njit
    def defaulted(x, how="negate"):
        return scale(x, literally(how))

    assert defaulted(2.0) == defaulted.py_func(2.0) == -2.0
    assert defaulted(2.0, "square") == 4.0


@numba_deviation("its messages: 'No implementation of function literally', 'Cannot request literal type'")
def test_literally_of_a_value_computed_in_the_body_is_a_typing_error():
    @njit
    def computed(x):
        y = x + 1
        return literally(y)

    with pytest.raises(ruchey.TypingError, match="Invalid use of non-Literal type in literally"):
        computed(1)

    @njit
    def passes_computed(x, k):
        return scaled(x, k + 1)

    with pytest.raises(ruchey.TypingError, match="takes literally\\(\\) of this argument"):
        passes_computed(1.0, 2)


def test_values_that_cannot_be_literals_are_a_type_error():
    @njit
    def times(x, k):
        return x * literally(k)

    with pytest.raises((TypeError, ruchey.TypingError), match="(?i)literal"):
        times(1.0, 2.5)
    with pytest.raises((TypeError, ruchey.TypingError), match="(?i)literal"):
        times(1.0, 2**70)
    assert times(1.0, 3) == 3.0  # still usable


def test_a_value_that_cannot_be_a_literal_is_a_typing_error_too():
    # Numba raises its LiteralTypingError, a TypingError: code catching TypingError catches it
    @njit
    def inner(x, y):
        return x + literally(y)

    @njit
    def outer(a, b, c):
        return inner(a, c)

    for bad, kind in ((np.arange(3), "numpy.ndarray"), (2.5, "float"), ((1, 2), "tuple"), (2**70, "int")):
        with pytest.raises(ruchey.TypingError, match=f"a {kind}\\) cannot be a literal"):
            outer(1, 2, bad)
    assert outer(1, 2, 3) == outer.py_func(1, 2, 3)


def test_an_explicit_signature_cannot_give_a_literal_value():
    with pytest.raises(Exception, match="(?i)literal"):  # (Numba's ForceLiteralArg)
        @njit("float64(float64, int64)")
        def sig(x, k):
            return x * literally(k)


def test_inspection_of_literal_specialisations():
    @njit
    def times(x, k):
        return x * literally(k)

    times(1.0, 3)
    times(1.0, 4)
    texts = times.inspect_llvm()
    assert set(map(str, texts)) == {"(float64, Literal[int](3))", "(float64, Literal[int](4))"}


def test_literal_types_in_python():
    assert types.literal(3) == types.IntegerLiteral(3) != types.literal(True)
    assert isinstance(types.literal("a"), types.Literal) and types.literal("a").literal_value == "a"
    assert types.unliteral(types.literal("a")) == types.unicode_type
    assert types.unliteral(types.literal(False)) == types.boolean
    assert types.unliteral(types.float64) == types.float64
    assert types.maybe_literal(1.5) is None
    with pytest.raises((TypeError, ruchey.TypingError)):
        types.literal(1.5)
    assert literally(5) == 5


@njit
def pick_item(t, i):
    i = literally(i)
    return t[i]


@njit
def pick_bound_once(t):
    k = -2
    return t[k], t[literally(1)]


def test_a_heterogeneous_tuple_indexed_by_a_literal_or_a_bound_constant():
    """Numba types such an index as a literal: the item of its own type."""
    rng = np.random.default_rng(23)
    t = (int(rng.integers(-99, 99)), float(rng.standard_normal()), "text", (1, 2.5), rng.standard_normal(2))
    for i in list(range(-len(t), len(t))):
        got, expected = pick_item(t, i), pick_item.py_func(t, i)
        assert type(got) is type(expected) and str(got) == str(expected)
    assert pick_bound_once(t[:4]) == pick_bound_once.py_func(t[:4])
    with pytest.raises(ruchey.TypingError, match="tuple index out of range"):
        pick_item(t, len(t))
    with pytest.raises(ruchey.TypingError, match="constant integer"):
        njit(lambda t, i: t[i])(t, 1)


def picked(x, mode):
    """The Python meaning of the overload below."""
    return x * 2 if mode == "double" else -x if mode == "negate" else x


@overload(picked)
def ol_picked(x, mode):
    if isinstance(mode, types.StringLiteral):
        how = mode.literal_value
        if how == "double":
            return lambda x, mode: x * 2
        if how == "negate":
            return lambda x, mode: -x
        return lambda x, mode: x
    return lambda x, mode: literally(mode)  # Numba's idiom: the call typed again with mode's literal type


def test_an_implementation_asking_literally_gets_the_literal_types_choice():
    @njit
    def given(x, mode):
        return picked(x, mode)

    @njit
    def constants(x):
        return picked(x, "double"), picked(x, "negate"), picked(x, "same")

    for x in (3, -2.5, 0):
        for mode in ("double", "negate", "same"):
            assert given(x, mode) == given.py_func(x, mode)
        assert constants(x) == constants.py_func(x)


def unit_scale(unit):
    """The Python meaning of the overload below."""
    return {"m": 1.0, "km": 1000.0}[unit]


@overload(unit_scale)
def ol_unit_scale(unit):
    if not isinstance(unit, types.StringLiteral):
        return None  # only for a known unit
    factor = {"m": 1.0, "km": 1000.0}[unit.literal_value]
    return lambda unit: factor


@njit
def in_metres(x, unit="km"):
    return x * unit_scale(unit)


def test_a_callee_given_constants_sees_them_as_literals_where_plain_types_fail():
    """As Numba types a call's constants as literal types: a callee whose
    overload takes a literal alone compiles for a constant argument or
    default, passed on from callee to callee too."""
    @njit
    def callers(x):
        return in_metres(x), in_metres(x, "m"), in_metres(x, unit="km"), passed_on(x, "m")

    @njit
    def passed_on(x, unit):
        return in_metres(x, unit)

    rng = np.random.default_rng(1)
    py = in_metres.py_func
    for x in [0.0, -2.5, *rng.standard_normal(3)]:
        assert callers(x) == (py(x), py(x, "m"), py(x, unit="km"), py(x, "m"))

    @njit
    def not_known(x, unit):
        return in_metres(x, unit)

    with pytest.raises(ruchey.TypingError, match="unit_scale"):
        not_known(1.0, "m")  # (from Python: its type alone, as Numba's)


def test_an_omitted_argument_is_its_defaults_literal_from_python_too():
    """Numba types an argument left to its default as the default's literal
    type: where the plain type fails, the call compiles for the default's
    value, and from then on for each value given."""
    @njit
    def in_units(x, unit="km"):
        return x * unit_scale(unit)

    py = in_units.py_func
    for x in (0.0, -2.5, 3.0):
        assert in_units(x) == py(x)
        assert in_units(x, "m") == py(x, "m") and in_units(x, unit="km") == py(x, unit="km")
    assert sorted(str(sig) for sig in in_units.signatures) == [
        "(float64, Literal[str](km))", "(float64, Literal[str](m))"]
    with pytest.raises(KeyError, match="cm"):
        in_units(1.0, "cm")  # (the overload's own error for a unit it lacks, through unchanged as Numba's)

    @njit
    def broken(x, unit="km"):
        return x + unit  # (no value of unit helps: the first error stays)

    with pytest.raises(ruchey.TypingError, match="between float64 and unicode_type"):
        broken(1.0)
    assert broken.signatures == []


def test_a_callee_failing_with_its_constants_too_reports_its_first_error():
    @njit
    def added(x, s):
        return x + s

    @njit
    def caller(x):
        return added(x, "a")

    with pytest.raises(ruchey.TypingError, match="between float64 and unicode_type"):
        caller(1.0)
    with pytest.raises(TypeError):
        added.py_func(1.0, "a")


def shifted(x, by):
    """The Python meaning of the overload below."""
    return x + by * 10


@overload(shifted)
def ol_shifted(x, by):
    SentryLiteralArgs(["by"]).for_function(ol_shifted).bind(x, by)  # Numba's request for by's literal type
    offset = by.literal_value * 10  # (known here: a constant of the implementation)
    return lambda x, by: x + offset


def test_sentry_literal_args_asks_for_a_constant_or_the_callers_parameter():
    @njit
    def given(x, by):
        return shifted(x, by)

    @njit
    def constant(x):
        return shifted(x, 3), shifted(x, by=-2)

    rng = np.random.default_rng(5)
    for x in [0, -4, *map(int, rng.integers(-100, 100, 3))]:
        for by in (0, 7, -3):
            assert given(x, by) == shifted(x, by)
        assert constant(x) == (shifted(x, 3), shifted(x, -2))
    assert all(isinstance(sig[1], types.IntegerLiteral) for sig in given.signatures)

    @njit
    def computed(x, by):
        return shifted(x, by + 1)  # (no value known when compiling: a TypingError, as Numba's)

    with pytest.raises(ruchey.TypingError, match="literally"):
        computed(1, 2)

    pysig = inspect.signature(ol_shifted)
    assert sentry_literal_args(pysig, ["by"], (types.int64, types.literal(3)), {}) is None
    with pytest.raises(Exception, match="by"):
        sentry_literal_args(pysig, ["by"], (types.int64, types.int64), {})
