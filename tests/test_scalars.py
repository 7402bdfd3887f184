"""Scalar arithmetic, comparisons and division semantics, checked against CPython."""
import itertools
import math

import pytest
import ruchey

from conftest import assert_same, make_rng, random_floats, random_ints, random_pairs


@ruchey.jit
def add(a, b):
    return a + b


@ruchey.jit
def sub(a, b):
    return a - b


@ruchey.jit
def mul(a, b):
    return a * b


@ruchey.jit
def truediv(a, b):
    return a / b


@ruchey.jit
def floordiv(a, b):
    return a // b


@ruchey.jit
def mod(a, b):
    return a % b


@ruchey.jit
def power(a, b):
    return a ** b


@ruchey.jit
def neg(a):
    return -a


@ruchey.jit
def lt(a, b):
    return a < b


@ruchey.jit
def le(a, b):
    return a <= b


@ruchey.jit
def gt(a, b):
    return a > b


@ruchey.jit
def ge(a, b):
    return a >= b


@ruchey.jit
def eq(a, b):
    return a == b


@ruchey.jit
def ne(a, b):
    return a != b


COMPARISONS = [lt, le, gt, ge, eq, ne]

# |values| < 2**31 so that products fit in int64 and ints convert exactly to float
INTS = random_ints(make_rng(10), 200)
INTS_NONZERO = [v for v in INTS if v != 0]
FLOATS = random_floats(make_rng(11), 300)
FLOATS_NONZERO = [v for v in FLOATS if v != 0.0]

INT_PAIRS = random_pairs(make_rng(12), INTS, INTS, 300)
INT_PAIRS_NONZERO = random_pairs(make_rng(13), INTS, INTS_NONZERO, 300)
FLOAT_PAIRS = random_pairs(make_rng(14), FLOATS, FLOATS, 300)
FLOAT_PAIRS_NONZERO = random_pairs(make_rng(15), FLOATS, FLOATS_NONZERO, 300)
INT_FLOAT_PAIRS = random_pairs(make_rng(16), INTS, FLOATS_NONZERO, 200)
FLOAT_INT_PAIRS = random_pairs(make_rng(17), FLOATS, INTS_NONZERO, 200)


def _by_name(fs):
    return pytest.mark.parametrize("f", fs, ids=lambda f: f.py_func.__name__)


# ---------------------------------------------------------------- int arithmetic

@_by_name([add, sub, mul])
def test_int_add_sub_mul_match_python(f):
    for a, b in INT_PAIRS:
        assert_same(f, a, b)


@_by_name([add, sub])
def test_int_add_sub_exact_near_int64_limits(f):
    values = random_ints(make_rng(20), 100, -(2**62), 2**62)
    for a, b in random_pairs(make_rng(21), values, values, 200):
        assert_same(f, a, b)


def test_int64_overflow_wraps_around():
    assert add(2**63 - 1, 1) == -(2**63)
    assert sub(-(2**63), 1) == 2**63 - 1
    assert mul(2**62, 4) == 0
    assert mul(2**32 + 1, 2**32 + 1) == 2**33 + 1


def test_int_true_division_returns_float():
    assert_same(truediv, 7, 2)
    assert_same(truediv, -7, 2)
    assert_same(truediv, 4, 2)
    assert type(truediv(4, 2)) is float
    for a, b in INT_PAIRS_NONZERO:
        assert_same(truediv, a, b)


def test_floordiv_negative_rounds_down():
    assert floordiv(-7, 2) == -4
    assert floordiv(7, -2) == -4
    assert floordiv(-7, -2) == 3
    assert floordiv(-1, 1000) == -1
    for a, b in INT_PAIRS_NONZERO:
        assert_same(floordiv, a, b)


def test_int_modulo_takes_sign_of_divisor():
    assert mod(-7, 2) == 1
    assert mod(7, -2) == -1
    assert mod(-7, -2) == -1
    assert mod(-1, 1000) == 999
    for a, b in INT_PAIRS_NONZERO:
        assert_same(mod, a, b)


def test_int_floordiv_and_mod_satisfy_division_identity():
    for a, b in INT_PAIRS_NONZERO:
        q, r = floordiv(a, b), mod(a, b)
        assert q * b + r == a
        assert abs(r) < abs(b) and (r == 0 or (r < 0) == (b < 0))


def test_int_power_with_nonnegative_exponent_is_exact():
    rng = make_rng(22)
    bases = list(range(-12, 13)) + rng.integers(-50, 51, size=40).tolist()
    for a in bases:
        for b in range(0, 11):
            assert_same(power, int(a), b)
    assert_same(power, 0, 0)
    assert_same(power, 2, 62)
    assert_same(power, -2, 63)


# ---------------------------------------------------------------- float arithmetic

@_by_name([add, sub, mul])
def test_float_add_sub_mul_are_exact_ieee(f):
    for a, b in FLOAT_PAIRS:
        assert_same(f, a, b)


def test_float_true_division_is_exact_ieee():
    for a, b in FLOAT_PAIRS_NONZERO:
        assert_same(truediv, a, b)


def test_float_floordiv_rounds_toward_negative_infinity():
    assert floordiv(-7.5, 2.0) == -4.0
    assert floordiv(7.5, -2.0) == -4.0
    assert floordiv(-0.5, 3.0) == -1.0
    for a, b in FLOAT_PAIRS_NONZERO:
        assert_same(floordiv, a, b)


def test_float_modulo_takes_sign_of_divisor():
    assert mod(-7.5, 2.0) == 0.5
    assert mod(7.5, -2.0) == -0.5
    for a, b in FLOAT_PAIRS_NONZERO:
        assert_same(mod, a, b)


def test_float_power_matches_python():
    # pow is a libm call, not a single IEEE operation: allow a few ulps
    rng = make_rng(23)
    bases = rng.uniform(0.01, 100.0, size=300).tolist() + [1.0, 0.5, 2.0]
    exps = rng.uniform(-5.0, 5.0, size=300).tolist() + [0.0, 1.0, 2.0, -1.0, 0.5]
    for a, b in random_pairs(rng, bases, exps, 300):
        assert_same(power, a, b, rel=1e-14)


def test_float_power_with_int_exponent_matches_python():
    # CPython computes pow(a, float(b)); repeated multiplication is also fine
    rng = make_rng(24)
    bases = rng.uniform(-10.0, 10.0, size=200).tolist() + [1.0, -1.0, 2.0, -0.5]
    for a in bases:
        if a != 0.0:
            for b in range(-6, 7):
                assert_same(power, a, b, rel=1e-14)


@pytest.mark.parametrize("a", [0.0, -0.0, 0])
def test_zero_to_minus_infinity_is_infinity(a):
    assert_same(power, a, -math.inf)


def test_unary_minus_matches_python():
    for a in INTS + [2**63 - 1, -(2**63) + 1]:
        assert_same(neg, a)
    for a in FLOATS:  # includes 0.0 -> -0.0 and -0.0 -> 0.0
        assert_same(neg, a)


# ---------------------------------------------------------------- mixed int/float

@_by_name([add, sub, mul, truediv, floordiv, mod])
def test_mixed_int_float_arithmetic_promotes_to_float(f):
    for a, b in INT_FLOAT_PAIRS + FLOAT_INT_PAIRS:
        r = assert_same(f, a, b)
        assert isinstance(r, float)


# ---------------------------------------------------------------- comparisons

@_by_name(COMPARISONS)
def test_comparisons_return_bool_matching_python(f):
    for a, b in INT_PAIRS + FLOAT_PAIRS + INT_FLOAT_PAIRS:
        assert_same(f, a, b)
    for a in INTS[:30]:
        assert_same(f, a, a)
        assert_same(f, a, float(a))


def test_comparisons_with_nan_are_false_except_not_equal():
    nan = math.nan
    for x in (nan, 1.0, -math.inf):
        assert (lt(nan, x), le(nan, x), gt(nan, x), ge(nan, x), eq(nan, x)) == (False,) * 5
        assert (lt(x, nan), le(x, nan), gt(x, nan), ge(x, nan), eq(x, nan)) == (False,) * 5
        assert ne(nan, x) is True and ne(x, nan) is True


# ---------------------------------------------------------------- bools

def test_bool_arguments_compare_like_python():
    for f in (lt, eq, ne):
        for a, b in itertools.product([False, True], repeat=2):
            assert_same(f, a, b)


def test_bool_arguments_promote_to_int_in_arithmetic():
    for f in (add, sub, mul):
        for a, b in itertools.product([False, True], repeat=2):
            assert_same(f, a, b)
    assert_same(neg, True)
    assert_same(add, True, 1.5)
    assert_same(mul, False, -2.5)


# ---------------------------------------------------------------- locals and expressions

@ruchey.jit
def expression_with_locals(x, y):
    t = x * x - 3 * y
    u = -t * 2 + t // 4 - y % 5 * 2 + (x - y) * (x + y)
    v = u + x / (t * t + 1)
    return v - u % 7


@ruchey.jit
def augmented_locals(a, b):
    s = a
    s += b
    s *= 3
    s -= a
    s //= 2
    s %= 1000
    s = -s + b
    return s


def test_expression_with_locals_follows_python_precedence():
    rng = make_rng(25)
    for a, b in random_pairs(rng, random_ints(rng, 60, -1000, 1000),
                             random_ints(rng, 60, -1000, 1000), 100):
        assert_same(expression_with_locals, a, b)
    small = random_floats(rng, 60, special=False)
    for a, b in random_pairs(rng, small, small, 100):
        assert_same(expression_with_locals, a, b)


def test_augmented_assignment_on_locals_matches_python():
    rng = make_rng(26)
    for a, b in INT_PAIRS:
        assert_same(augmented_locals, a, b)
    floats = random_floats(rng, 100, special=False)
    for a, b in random_pairs(rng, floats, floats, 200):
        assert_same(augmented_locals, a, b)


@ruchey.jit
def to_int(x):
    return int(x)


def test_int_of_floats_beyond_int64_raises_overflow_error():
    """int(x) is Python's exact int where int64 holds it; beyond, where
    Python would make a larger int, OverflowError. Every exponent from 2**52
    up, both signs, and the edges of int64's range."""
    rng = make_rng(63)
    values = [2.0**63, -2.0**63, 2.0**64, -2.0**64, 2.0**63 - 1024, -2.0**63 + 1024, 1.7e308, -5e-324]
    values += [math.copysign(float(rng.uniform(1, 2)) * 2.0**e, float(rng.choice([-1, 1])))
               for e in range(52, 1024) for _ in range(8)]
    for x in values:
        if -2**63 <= int(x) < 2**63:
            assert to_int(x) == int(x), x
        else:
            with pytest.raises(OverflowError, match="float too large to convert to int64"):
                to_int(x)
    for x in rng.uniform(-2.0**63, 2.0**63, 1000).tolist():
        assert to_int(x) == to_int.py_func(x)


# ---------------------------------------------------------------- floats against int literals

@pytest.mark.parametrize("literal", ["0", "1", "-3", "9007199254740992", "9007199254740993",
                                     "-9007199254740993", "9223372036854775807"])
@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "==", "!="])
def test_float_compared_with_int_literal_matches_python(op, literal):
    """A literal a double holds exactly compares as that double; larger ones
    keep the exact int-float comparison."""
    from arraygen import define
    f = ruchey.njit(define(f"def f(x):\n    return x {op} {literal}, {literal} {op} x\n"))
    values = [0.0, -0.0, 1.0, -1.0, 0.5, -3.0, 2.0**53, 2.0**53 + 2, -(2.0**53) - 2, 2.0**63, 9.3e18,
              math.inf, -math.inf, math.nan] + random_floats(make_rng(1930), 50)
    for v in values:
        assert_same(f, v)


def test_a_numpy_scalars_view_reads_its_bits_as_another_type_of_its_size():
    import numpy as np

    @ruchey.njit
    def bits(u, i, x, b):
        return (u.view(np.float32), i.view(np.uint64), x.view(np.int64), np.float32(x).view(np.int32),
                b.view(np.uint8), u.view(dtype=np.int32))

    rng = make_rng(41)
    for u, i, x in zip(rng.integers(0, 2**32, 20, dtype=np.uint32), rng.integers(-2**62, 2**62, 20),
                       rng.standard_normal(20) * 1e3):
        b = np.bool_(i % 2)
        got, want = bits(u, i, np.float64(x), b), bits.py_func(u, i, np.float64(x), b)
        assert all(g == w or (g != g and w != w) for g, w in zip(got, want)), (u, i, x)
    with pytest.raises(ruchey.TypingError, match="changes the item size"):
        ruchey.njit(lambda x: x.view(np.int32))(np.float64(1.0))
    with pytest.raises(ruchey.TypingError, match="needs a dtype"):
        ruchey.njit(lambda x: x.view())(np.int32(1))
