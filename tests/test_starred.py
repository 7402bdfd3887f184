"""*t in compiled code beyond calls of compiled functions: a builtin's
arguments (numpy.ndindex(*a.shape), max(*shape)), tuple displays
((1, *idx)) and indices (a[(..., *idx)]), each against the Python
original; what cannot be spread is a clear TypingError."""
import numpy
import pytest
import ruchey

from conftest import make_rng


@ruchey.njit
def walk_all(a):
    s = 0.0
    for idx in numpy.ndindex(*a.shape):
        s += a[idx] * (idx[0] + 1)
    shape = a.shape
    return s, max(*shape), min(0, *shape), numpy.empty(shape).shape


def test_builtins_take_a_spread_tuple():
    rng = make_rng(81)
    for shape in ((3, 4), (2, 3, 2)):
        a = rng.standard_normal(shape)
        got, want = walk_all(a), walk_all.py_func(a)
        assert got[0] == pytest.approx(want[0], rel=1e-12) and got[1:] == want[1:]


@ruchey.njit
def displays_and_indices(a, idx):
    t = (1, *idx)
    u = (*idx, *idx)
    return a[(..., *idx)], a[(0, *idx[1:])], t, u, a[(*idx,)]


def test_tuple_displays_and_indices_with_a_spread():
    a = numpy.arange(24.0).reshape(2, 3, 4)
    for idx in ((1, 2), (0, -1), (1, 1)):
        got, want = displays_and_indices(a, idx), displays_and_indices.py_func(a, idx)
        for g, w in zip(got, want):
            numpy.testing.assert_array_equal(g, w)


def test_only_tuples_read_freely_are_spread():
    @ruchey.njit
    def of_array(a):
        return max(*a)
    with pytest.raises(ruchey.TypingError, match="only tuples are spread"):
        of_array(numpy.arange(3.0))

    @ruchey.njit
    def of_call(a):
        return max(*a.sum(axis=0).shape, 1)
    with pytest.raises(ruchey.TypingError, match="assign it first"):
        of_call(numpy.ones((2, 3)))
