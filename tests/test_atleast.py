"""numpy.atleast_1d, atleast_2d and atleast_3d of one array in compiled
code: views with axes of length 1 where NumPy adds them, against NumPy on
arrays of every dimension and layout; writes through the view reach the
array; a number is a clear TypingError."""
import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import assert_same, make_rng


@njit
def one(a):
    return numpy.atleast_1d(a)


@njit
def two(a):
    return numpy.atleast_2d(a)


@njit
def three(a):
    return numpy.atleast_3d(a)


@njit
def lower_column(b):
    return numpy.atleast_2d(b)[:, 0]


@njit
def write_through(a):
    v = numpy.atleast_3d(a)
    v[0, 0, 0] = 42.0
    return v.shape


SHAPES = [(), (1,), (5,), (0,), (3, 4), (4, 1), (2, 3, 4), (2, 1, 3, 2)]


@pytest.mark.parametrize("shape", SHAPES)
def test_against_numpy(shape):
    a = make_rng(len(shape)).standard_normal(shape)
    for f in (one, two, three):
        assert_same(f, a)
        assert_same(f, numpy.asfortranarray(a))
        if a.ndim >= 1 and a.shape[-1] > 1:
            assert_same(f, a[..., ::2])


@pytest.mark.parametrize("seed", range(3))
def test_bounds_column(seed):
    b = make_rng(seed).standard_normal((4, 2))
    assert_same(lower_column, b)
    assert_same(lower_column, numpy.array([[], []]).T)


@pytest.mark.parametrize("shape", [(3,), (2, 2)])
def test_a_view(shape):
    a = numpy.zeros(shape)
    assert write_through(a) == numpy.atleast_3d(a).shape
    assert a.flat[0] == 42.0


def test_a_number_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="needs an array"):
        two(1.5)
