"""numpy.atleast_1d, atleast_2d and atleast_3d of one array in compiled
code: views with axes of length 1 where NumPy adds them, against NumPy on
arrays of every dimension and layout; writes through the view reach the
array; numbers and tuples are arrays, as NumPy reads them; a str is a clear TypingError."""
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


@njit
def of_numbers(x, i):
    return (numpy.atleast_1d(x), numpy.atleast_2d(i), numpy.atleast_3d(True), numpy.atleast_1d(x, (1, 2), [i, i]),
            numpy.expand_dims(x, 0), numpy.expand_dims(i, (0, -1)))


def test_numbers_and_tuples_are_arrays_as_numpy_reads_them():
    for x, i in ((1.5, 7), (numpy.float32(-2.5), numpy.int8(-3)), (complex(1, 2), numpy.uint16(9))):
        got, want = of_numbers(x, i), of_numbers.py_func(x, i)
        flat = lambda t: [y for v in t for y in (v if isinstance(v, (tuple, list)) else (v,))]  # (lists: NumPy 1.x)
        for g, w in zip(flat(got), flat(want)):
            assert g.dtype == w.dtype and g.shape == w.shape and g.flags.writeable and numpy.array_equal(g, w)


def test_a_str_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="needs an array"):
        two("a")


@njit
def several(a, b, c):
    return numpy.atleast_1d(a, b), numpy.atleast_2d(a, b, c), numpy.atleast_3d(c, a)


@pytest.mark.parametrize("shapes", [((), (3,), (2, 3)), ((4,), (1, 2), (2, 1, 3)), ((0,), (), (3, 0))])
def test_several_arrays_give_a_tuple_of_each_ones(shapes):
    rng = make_rng(11)
    a, b, c = (rng.standard_normal(s) for s in shapes)
    got, expected = several(a, b, c), several.py_func(a, b, c)
    assert type(got) is tuple and [type(g) for g in got] == [tuple] * 3
    for g, e in zip(got, expected):
        assert len(g) == len(e)  # (a list in NumPy 1.x, a tuple in NumPy 2)
        for x, y in zip(g, e):
            assert x.shape == y.shape and numpy.array_equal(x, y)


def test_several_arrays_are_views():
    a, b = numpy.zeros(3), numpy.zeros((2, 2))
    u, v = njit(lambda a, b: numpy.atleast_2d(a, b))(a, b)
    u[0, 1] = 5.0
    v[1, 0] = 6.0
    assert a[1] == 5.0 and b[1, 0] == 6.0
