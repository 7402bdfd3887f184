"""`is` and `is not` between numbers in compiled code, as Numba answers
them: a number (a bool included) and a value of another type are never
one object, so `x is False` of an int, a float, a str or an array is
false, known from the types;
numbers of one type are compared by value in code written for Numba
(ruchey registered as numba), and refused in ruchey's own, where
CPython's answer depends on which objects the values are."""
import itertools

import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import AS_NUMBA, numba_deviation


def says(pattern):
    """A TypingError's message as ruchey words it (Numba's differ)."""
    return None if AS_NUMBA else pattern


@njit
def identities(x):
    return x is False, x is True, x is not False, False is x, x is None


@njit
def identical(a, b):
    return a is b, a is not b


# one value of each kind, its edges included: each is compared with
# the values of the other kinds alone
NUMBERS = [
    [0, 1, -1, 2**63 - 1],
    [numpy.int32(0), numpy.int32(-7)],
    [numpy.uint8(0), numpy.uint8(255)],
    [0.0, 1.0, -0.0, numpy.nan, numpy.inf],
    [numpy.float32(0.0), numpy.float32(numpy.nan)],
    [0j, 1 + 0j, complex(numpy.nan, 0)],
]


def test_numbers_are_never_the_bools():
    for x in itertools.chain(*NUMBERS):
        assert identities(x) == identities.py_func(x), x


def test_numbers_of_different_types_are_never_one_object():
    for kind_a, kind_b in itertools.permutations(NUMBERS + [[True, False]], 2):
        for a, b in itertools.product(kind_a, kind_b):
            assert identical(a, b) == identical.py_func(a, b) == (False, True), (a, b)


def test_other_values_are_never_the_bools_or_numbers():
    for x in ("", "False", numpy.zeros(0), numpy.array([True]), (1, 2), (False,)):
        assert identities(x) == identities.py_func(x), x
        for number in (False, True, 0, 1.0):
            assert identical(x, number) == identical.py_func(x, number) == (False, True), (x, number)


@numba_deviation("Numba compares numbers of one type by value with 'is'")
def test_numbers_of_one_type_stay_a_typing_error_in_ruchey_code():
    @njit
    def same_number(a, b):
        return a is b

    for a in (1, 1.5, 1j, True):
        with pytest.raises(ruchey.TypingError, match=says("a number and a value of another type")):
            same_number(a, a)


@pytest.mark.skipif(AS_NUMBA, reason="numba itself stands in for ruchey")
def test_numbers_of_one_type_compare_by_value_in_code_written_for_numba():
    ruchey._core._numba_semantics(True)
    try:
        @njit
        def same(a, b):
            return a is b, a is not b
    finally:
        ruchey._core._numba_semantics(False)
    for kind in NUMBERS + [[True, False]]:
        for a, b in itertools.product(kind, repeat=2):
            assert same(a, b) == (a == b, a != b), (a, b)  # Numba's answer: ==


@njit
def optional_identities(flag, v):
    y = v if flag else None
    return y is False, False is y, y is not True, y is None, y is not None


def test_an_optional_variable_is_a_value_of_another_type_or_none_as_python():
    """y = v if c else None: y is False is false whether y holds None or v
    (not the TypeError of None read as v's value)."""
    for flag, v in itertools.product([True, False], [0, 7, -2.5, 1.0]):
        assert optional_identities(flag, v) == optional_identities.py_func(flag, v), (flag, v)


@pytest.mark.skipif(AS_NUMBA, reason="numba itself stands in for ruchey")
def test_strs_are_never_one_object_in_code_written_for_numba():
    """CPython's answer depends on interning; Numba's is always False."""
    ruchey._core._numba_semantics(True)
    try:
        @njit
        def same_str(a, b):
            c = "a"
            return a is b, a is not b, c is c, a is not c
    finally:
        ruchey._core._numba_semantics(False)
    for a, b in [("a", "a"), ("", ""), ("a", "b"), ("é", "é")]:
        assert same_str(a, b) == (False, True, False, True), (a, b)


@numba_deviation("Numba answers False for two strs")
def test_strs_stay_a_typing_error_in_ruchey_code():
    @njit
    def same_str(a, b):
        return a is b

    with pytest.raises(ruchey.TypingError, match=says("use == or !=")):
        same_str("a", "a")
