"""Optional in explicit signatures (optional(f8), types.Optional), and
Optional narrowing in conditions; each against py_func."""
import numpy as np
import pytest

import ruchey
from ruchey import njit, types

from conftest import AS_NUMBA, make_rng


def scaled_sum(a, x):
    if x is None:
        return a.sum()
    return a.sum() * x


@pytest.mark.parametrize("sig", ["f8(f8[:], optional(f8))", types.float64(types.float64[:], types.Optional(types.float64)),
                                 (types.float64[:], types.optional(types.float64))])
def test_optional_argument_in_an_explicit_signature(sig):
    f = njit(sig)(scaled_sum)
    rng = make_rng(0)
    for _ in range(5):
        a = rng.standard_normal(int(rng.integers(0, 9)))
        for x in (None, float(rng.standard_normal()), 3):
            assert f(a, x) == scaled_sum(a, x)
    with pytest.raises(TypeError):
        f(a, "x")


def pick(x, y):
    if x is None and y is None:
        return 0
    if x is None or y is None:
        return 1
    return x + y


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own signature expansion")
def test_two_optional_arguments_and_signatures():
    f = njit("i8(optional(i8), optional(i8))")(pick)
    for x in (None, 2):
        for y in (None, 5):
            assert f(x, y) == pick(x, y)
    assert len(f.signatures) == 4


def test_optional_return_type_in_a_signature_is_inferred():
    def half_or_none(x):
        if x > 0:
            return x / 2
        return None
    f = njit("optional(f8)(f8)")(half_or_none)
    assert f(3.0) == 1.5 and f(-1.0) is None


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own message")
def test_optional_elsewhere_is_a_clear_type_error():
    with pytest.raises(TypeError):
        ruchey.vectorize(["f8(optional(f8))"])(lambda x: x)


def narrowing(x, y):
    o = None
    if x > 0:
        o = x
    n = 0
    if o is None and y > 0:
        n += 1
    if o is not None and o > 1.5:
        n += 10
    if o is None or o < 0.5:
        n += 100
    while o is not None and o < 100.0:
        o = o * 2.0 + 1.0
        n += 1000
    if o:
        n += 5
    return n


@pytest.mark.parametrize("seed", range(6))
def test_optional_in_boolean_conditions_as_python(seed):
    rng = make_rng(seed)
    f = njit(narrowing)
    for _ in range(6):
        x, y = (float(v) for v in rng.integers(-3, 4, size=2))
        assert f(x, y) == narrowing(x, y)


def truth_of_none_or_value(x, o=None):
    y = 1.5 if o else -2.0
    z = not o
    while o:
        y += x
        o = None
    assert not o
    return y, z


def truth_of_an_optional(x, flag):
    o = None
    if flag:
        o = x
    return (3 if o else 4), not o, (x if not o else -x)


def test_truth_of_none_and_optional_in_if_expressions_and_not():
    f, g = njit(truth_of_none_or_value), njit(truth_of_an_optional)
    rng = make_rng(4)
    for _ in range(6):
        x = float(rng.integers(-2, 3))
        for o in (None, 0.0, x, 2):
            assert f(x, o) == truth_of_none_or_value(x, o)
        assert f(x) == truth_of_none_or_value(x)
        for flag in (True, False):
            assert g(x, flag) == truth_of_an_optional(x, flag)
            assert g(int(x), flag) == truth_of_an_optional(int(x), flag)
