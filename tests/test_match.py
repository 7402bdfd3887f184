"""The match statement with the patterns Python compiles to comparisons
(literals, dotted names, None/True/False, captures, _, '|', 'as', guards),
as Numba compiles them from their bytecode: each against py_func on
generated inputs; other patterns are a clear compile error."""
import math

import numpy as np
import pytest

import ruchey
from ruchey import njit

from conftest import AS_NUMBA, make_rng, seed_of

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")


def reduce_by_name(name, a):
    match name:
        case "min":
            return a.min()
        case "max" | "largest":
            return a.max()
        case "sum" if a.size > 3:
            return a.sum()
        case _:
            return math.nan


def classify(k):
    match k % 7:
        case 0:
            r = 10.0
        case 1 | 2 as small:
            r = small * 1.5
        case 3 if k > 20:
            r = -1.0
        case other:
            r = other - 0.5
    return r


def flag(b):
    out = 0
    match b:
        case True:
            out = 1
        case False:
            out = 2
    return out


def pick(x):
    match x:
        case None:
            return -1.0
        case math.pi:
            return 0.0
    return x


def falls_through(k):
    match k:
        case 1:
            return 1
        case 2:
            return 4


@pytest.mark.parametrize("name", ["min", "max", "largest", "sum", "mean"])
@pytest.mark.parametrize("size", [2, 9])
def test_match_literal_strings_with_alternatives_and_a_guard(name, size):
    f = njit(reduce_by_name)
    a = make_rng(seed_of("match names", name, size)).standard_normal(size)
    expected, got = reduce_by_name(name, a), f(name, a)
    assert got == expected or (math.isnan(got) and math.isnan(expected))


def test_match_captures_as_and_guards_on_ints():
    f = njit(classify)
    for k in make_rng(seed_of("match ints")).integers(-30, 40, 60):
        assert f(int(k)) == classify(int(k))


def test_match_true_false_none_and_a_dotted_name():
    """case True is `b is True`: by value between bools in code written for
    Numba (as its bytecode's `is`), as test_identity's."""
    ruchey._core._numba_semantics(True)
    try:
        fb = njit(flag)
    finally:
        ruchey._core._numba_semantics(False)
    fp = njit(pick)
    assert [fb(b) for b in (True, False)] == [flag(b) for b in (True, False)]
    for x in (None, math.pi, *make_rng(seed_of("match pick")).standard_normal(5)):
        assert fp(x) == pick(x)


def test_a_match_no_case_takes_falls_through_to_none():
    f = njit(falls_through)
    assert [f(k) for k in range(4)] == [falls_through(k) for k in range(4)]


def match_subject_evaluated_once(a):
    n = 0
    match a.sum() + n:
        case 0.0:
            n = 1
        case _:
            n = 2
    return n


def test_a_match_subject_that_is_an_expression_is_evaluated_once():
    f = njit(match_subject_evaluated_once)
    for a in (np.zeros(3), make_rng(seed_of("match subject")).standard_normal(4)):
        assert f(a) == match_subject_evaluated_once(a)


def sequence_pattern(t):
    match t:
        case (a, b):
            return a + b
    return 0


def guard_reading_a_capture(k):
    match k:
        case x if x > 0:
            return x
    return 0


@ruchey_only
@pytest.mark.parametrize("py, arg, says", [(sequence_pattern, (1, 2), "MatchSequence pattern is not supported"),
                                           (guard_reading_a_capture, 3, "a guard of a case that binds names")])
def test_patterns_compiled_code_does_not_take_are_a_clear_error(py, arg, says):
    from ruchey import TypingError
    with pytest.raises(TypingError, match=says):
        njit(py)(arg)
