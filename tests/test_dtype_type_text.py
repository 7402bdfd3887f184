"""a.dtype.type(x) of an array of str or bytes ('<Un', '|Sn'): numpy.str_
or numpy.bytes_ of a 0-d array's element, or of a str or bytes, which is
that str or bytes (Numba's test_casting converts a 0-d '<U3' array so).
Other values (an array of more dims, bytes for a str dtype) are a
TypingError."""
import sys

import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import AS_NUMBA, make_rng, numba_deviation


def generated_text(rng, count, alphabet="abcXYZ \u00e9\u4e2d", least=0):
    for _ in range(count):
        n = int(rng.integers(least, 8))
        yield "".join(rng.choice(list(alphabet), n))


@njit
def as_own_type(x):
    return x.dtype.type(x)


@njit
def as_type_of(a, v):
    return a.dtype.type(v)


def test_a_0d_str_array_as_its_dtype_type_is_its_str():
    for s in generated_text(make_rng(1), 40):
        x = numpy.array(s, dtype=f"<U{max(len(s), 1)}")
        assert as_own_type(x) == as_own_type.py_func(x)


@numba_deviation("it reads a '<Un' item beyond the BMP short")
def test_a_0d_str_array_beyond_the_bmp():
    for s in generated_text(make_rng(5), 40, alphabet="a\u00e9\U0001f600\U00010348", least=1):
        x = numpy.array(s)
        assert as_own_type(x) == as_own_type.py_func(x)


@numba_deviation("it has no cast of a 0-d '|Sn' array to its item")
def test_a_0d_bytes_array_as_its_dtype_type_is_its_bytes():
    for s in generated_text(make_rng(2), 40, alphabet="abcXYZ 019", least=1):
        x = numpy.array(s.encode(), dtype=f"S{len(s) + int(make_rng(len(s)).integers(0, 3))}")
        # (NumPy's bytes_ of a 0-d array keeps the NUL bytes that pad it to its width: its item, as Numba's test
        # compares, has them stripped, as a '|Sn' item read anywhere)
        assert as_own_type(x) == x[()] == as_own_type.py_func(x).rstrip(b"\0")
    empty = numpy.array(b"", dtype="S2")
    assert as_own_type(empty) == empty[()] == b""


@numba_deviation("its str dtype's type() takes no str")
def test_a_str_given_to_a_str_dtype_is_that_str_whatever_the_width():
    a = numpy.array(["ab", "c"], dtype="<U2")
    for s in generated_text(make_rng(3), 40):
        before = sys.getrefcount(s)
        for _ in range(50):
            got = as_type_of(a, s)
        assert got == as_type_of.py_func(a, s)
        del got
        assert sys.getrefcount(s) == before


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's errors")
def test_other_values_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="0-d array"):
        as_own_type(numpy.array(["a", "b"]))
    with pytest.raises(ruchey.TypingError, match="takes a str"):
        as_type_of(numpy.array(["a"]), b"x")
    with pytest.raises(ruchey.TypingError, match="takes a bytes"):
        as_type_of(numpy.array([b"a"]), "x")
