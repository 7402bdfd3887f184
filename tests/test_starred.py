"""*t in compiled code beyond calls of compiled functions: a builtin's
arguments (numpy.ndindex(*a.shape), max(*shape)) and an array method's
(a.sum(*args)), tuple displays
((1, *idx)), a builtin's shape written as a display with a spread
(numpy.zeros((n, *a.shape))) and indices (a[(..., *idx)]), each against
the Python original; what cannot be spread is a clear TypingError."""
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


def array_methods_of(a, *args):
    return a.sum(*args), a.cumsum(*args), a.argmax(*args), a.mean(*args)


def test_array_methods_take_a_spread_tuple():
    f = ruchey.njit(array_methods_of)
    a = make_rng(83).standard_normal((3, 4))
    for extra in ((), (0,), (1,), (-1,)):
        for got, want in zip(f(a, *extra), array_methods_of(a, *extra)):
            assert numpy.allclose(got, want, rtol=1e-12) and numpy.shape(got) == numpy.shape(want)


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


@ruchey.njit
def shapes_spread(a, n):
    z = numpy.zeros((n, *a.shape), dtype=a.dtype)
    for i in range(n):
        z[i] = a * (i + 1)
    e = numpy.full([*a.shape, 2], 0.5)
    return z, e, a.reshape((*a.shape, 1)).shape, numpy.ones((*a.shape[1:], n)).sum()


@ruchey.njit(parallel=True)
def shapes_spread_parallel(a, n):
    z = numpy.zeros((n, *a.shape), dtype=a.dtype)  # one slab per iteration, summed after the loop
    for i in ruchey.prange(n):
        z[i] = a * i
    return z.sum(axis=0)


def test_builtin_shapes_written_with_a_spread():
    rng = make_rng(82)
    for shape in ((3,), (2, 4), (2, 3, 2)):
        a = rng.standard_normal(shape)
        for n in (1, 3):
            got, want = shapes_spread(a, n), shapes_spread.py_func(a, n)
            for g, w in zip(got, want):
                numpy.testing.assert_array_equal(g, w)
            numpy.testing.assert_allclose(shapes_spread_parallel(a, n), shapes_spread_parallel.py_func(a, n),
                                          rtol=1e-12)
    ints = numpy.arange(6, dtype=numpy.int32).reshape(2, 3)
    assert shapes_spread(ints, 2)[0].dtype == shapes_spread.py_func(ints, 2)[0].dtype


def test_only_tuples_read_freely_are_spread():
    @ruchey.njit
    def of_array(a):
        return max(*a)
    with pytest.raises(ruchey.TypingError, match="only tuples are spread"):
        of_array(numpy.arange(3.0))

    @ruchey.njit
    def after_a_call(a):
        return a.sum() + max(*a[1:].sum(axis=0).shape, 1)
    with pytest.raises(ruchey.TypingError, match="assign it first"):
        after_a_call(numpy.ones((2, 3)))


def test_a_spread_expression_is_computed_once_before_the_statement():
    # numpy.multiply(*a.shape[-2:]) (ffpiv's windows), a call's tuple where the call is the
    # statement's first value: into a hidden variable, computed once
    @ruchey.njit
    def of_expressions(a):
        area = numpy.multiply(*a.shape[-2:])
        widest = max(*a.sum(axis=0).shape, 1)
        return area, widest, min(*a.shape[::-1])

    @ruchey.njit(parallel=True)
    def in_prange(a):
        out = numpy.empty(a.shape[0])
        for i in ruchey.prange(a.shape[0]):
            out[i] = a[i].sum() / numpy.multiply(*a[i].shape[-2:])
        return out

    rng = make_rng(86)
    for shape in ((2, 3), (4, 2, 5), (3, 1, 2, 2)):
        a = rng.standard_normal(shape)
        assert of_expressions(a) == of_expressions.py_func(a)
        if a.ndim > 2:
            numpy.testing.assert_allclose(in_prange(a), in_prange.py_func(a), rtol=1e-12)


def test_a_display_spreads_tuples_only():
    @ruchey.njit
    def shape_of_array(a):
        return numpy.zeros((2, *a))
    with pytest.raises(ruchey.TypingError, match=r"\*x of array\(int64, 1d, C\) in a tuple display: only tuples"):
        shape_of_array(numpy.arange(3))

    @ruchey.njit
    def display_of_number(x):
        return (1, *x)
    with pytest.raises(ruchey.TypingError, match="only tuples are spread"):
        display_of_number(2.0)


def test_an_array_method_takes_a_spread_of_an_expression():
    # x.reshape(*p.shape[:-1], 1) (numba-quaternion's inverse): the spread is
    # a slice of an attribute, read once, after a receiver that is a call's
    # result and an operand computed before it
    @ruchey.njit
    def inverse_like(p):
        return numpy.conjugate(p) / (numpy.abs(p) ** 2).sum(axis=-1).reshape(*p.shape[:-1], 1)

    @ruchey.njit
    def method_spreads(a):
        return a.reshape(*a.shape[::-1]).copy(), a.transpose(*a.shape[:0]).shape, a.sum(*(a.ndim - 1,))

    rng = make_rng(87)
    for shape in ((3, 2), (2, 4, 3), (1, 2, 2, 5)):
        p = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
        numpy.testing.assert_allclose(inverse_like(p), inverse_like.py_func(p), rtol=1e-12)
        a = rng.standard_normal(shape)
        got, want = method_spreads(a), method_spreads.py_func(a)
        numpy.testing.assert_array_equal(got[0], want[0])
        assert got[1] == want[1]
        numpy.testing.assert_allclose(got[2], want[2], rtol=1e-12)

    @ruchey.njit
    def spread_of_number(a):
        return a.reshape(*a.size)
    with pytest.raises(ruchey.TypingError, match="only tuples are spread"):
        spread_of_number(numpy.arange(3.0))
