"""sum, prod, min, max, any and all along a tuple of axes (a.sum(axis=(0,
2)), numpy.max(a, (1, -1))), the tuple written out or passed in, as NumPy
and Numba take it: the result has that many dimensions less; an axis out
of bounds or given twice (more of them than dimensions too) is NumPy's
ValueError; other reductions (mean,
argmax) refuse a tuple (TypingError). An empty tuple reduces along no
axis: a copy in the result's dtype, in the array's order (NumPy's
order='K': a Fortran array gives one)."""
import itertools

import numpy as np
import pytest

import ruchey
from conftest import NUMPY1, make_rng


def sum_method(a, axes):
    return a.sum(axis=axes)


def sum_function(a, axes):
    return np.sum(a, axes)


def prod_method(a, axes):
    return a.prod(axes)


def max_function(a, axes):
    return np.max(a, axis=axes)


def min_method(a, axes):
    return a.min(axis=axes)


def any_function(a, axes):
    return np.any(a, axis=axes)


def all_method(a, axes):
    return a.all(axis=axes)


def sum_with_dtype(a, axes):
    return a.sum(axis=axes, dtype=np.float32)


FUNCTIONS = [sum_method, sum_function, prod_method, max_function, min_method, any_function, all_method,
             sum_with_dtype]


def arrays():
    rng = make_rng(2024)
    floats = rng.standard_normal((3, 4, 5))
    ints = rng.integers(-3, 4, size=(2, 3, 4, 2)).astype(np.int32)
    return [floats, floats.transpose(2, 0, 1), floats[:, ::2, 1:], ints, ints > 0, np.ones((2, 0, 3)),
            rng.standard_normal((4, 3)).astype(np.float32)]


def every_axes(ndim):
    axes = range(-ndim, ndim)
    return [t for r in range(1, ndim + 1) for t in itertools.permutations(axes, r)
            if len({x % ndim for x in t}) == r]


def assert_same(got, expected):
    """The same shape and values; an array's dtype too (a number comes back
    a Python int, float or bool, as from Numba)."""
    assert np.shape(got) == np.shape(expected)
    if np.ndim(expected):
        assert got.dtype == expected.dtype
    if np.asarray(expected).dtype.kind in "fc":
        assert np.allclose(got, expected, rtol=1e-5 if np.asarray(expected).dtype == np.float32 else 1e-12,
                           equal_nan=True)
    else:
        assert np.array_equal(got, expected)


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("a", arrays(), ids=lambda a: f"{a.dtype}-{a.shape}-{'C' if a.flags.c_contiguous else 'A'}")
def test_reduction_along_a_tuple_of_axes_matches_numpy(f, a):
    if f in (max_function, min_method) and a.size == 0:
        pytest.skip("NumPy's error for an empty reduction: tested in test_reductions.py")
    compiled = ruchey.njit(f)
    for axes in every_axes(a.ndim):
        assert_same(compiled(a, axes), f(a, axes))


def _finite(rng, dt, shape):
    """Finite values of several magnitudes (arraygen's NaNs and infinities
    would make most sums NaN, whose bits say nothing of the order)."""
    return (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)).astype(dt)


def _views(rng, dt, shape):
    """Arrays of shape on the layouts NumPy walks differently: C, Fortran,
    strided (every second element of a larger array), reversed (the last
    axis, the first), transposed and two axes swapped."""
    a = _finite(rng, dt, shape)
    yield a
    yield np.asfortranarray(a)
    yield _finite(rng, dt, tuple(2 * n for n in shape))[tuple(slice(None, None, 2) for _ in shape)]
    yield a[..., ::-1]
    yield a[::-1]
    yield _finite(rng, dt, shape[::-1]).T
    yield np.swapaxes(_finite(rng, dt, (shape[1], shape[0]) + shape[2:]), 0, 1)


def _same_bits(got, want, magnitude):
    """The same bits as NumPy 2's sum; NumPy 1.x groups its buffered sums
    otherwise, so there the same sum within the rounding of adding up
    numbers of that magnitude (the sum of their absolute values)."""
    if NUMPY1:
        eps = np.finfo(want.dtype).eps
        return np.shape(got) == np.shape(want) and np.allclose(got, want, rtol=0, atol=np.max(magnitude, initial=0) * 64 * eps)
    if np.ndim(want):
        return got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()
    return np.float64(got).tobytes() == np.float64(want).tobytes()  # (a number comes back a Python float)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(5, 7, 3), (4, 9, 20), (2, 300, 40), (3, 1, 17), (2, 3, 4, 5), (2, 3, 1, 4000),
                                   (4, 0, 3)])
def test_float_sums_along_several_axes_and_all_are_numpys_to_the_bit(dt, shape):
    """NumPy sums several axes in one pass as its iterator walks them (the
    axes ordered by their steps in memory, lanes summed pairwise, its buffer
    of 8192 elements where no one step walks them), not one axis after
    another: the same bits on every layout."""
    f = ruchey.njit(sum_function)
    g = ruchey.njit(lambda a: (a.sum(), np.add.reduce(a, axis=None)))
    for a in _views(make_rng(len(shape) + shape[-1]), dt, shape):
        for axes in every_axes(a.ndim):
            if len(axes) > 1:
                assert _same_bits(f(a, axes), sum_function(a, axes), np.abs(a).sum(axes, np.float64)), (a.strides, axes)
        got, magnitude = g(a), np.abs(a).sum(dtype=np.float64)
        assert _same_bits(got[0], a.sum(), magnitude), a.strides
        assert _same_bits(got[1], np.add.reduce(a, axis=None), magnitude), a.strides


def literal_axes(a):
    return a.sum(axis=(0, 2)), a.prod(axis=(-1, 0)), np.max(a, (1, 2)), a.any((0, 1, 2)), np.sum(a, axis=(2,))


def test_axes_written_out_match_numpy():
    a = make_rng(5).integers(-2, 3, size=(3, 2, 4))
    for got, expected in zip(ruchey.njit(literal_axes)(a), literal_axes(a)):
        assert_same(got, expected)


@pytest.mark.parametrize("axes", [(0, 3), (-4,), (1, 1), (0, -3), (2, -1, 0)])
def test_bad_axes_raise_numpys_value_error(axes):
    a = np.arange(24.0).reshape(2, 3, 4)
    compiled = ruchey.njit(sum_method)
    with pytest.raises(ValueError) as expected:
        sum_method(a, axes)
    with pytest.raises(ValueError) as got:
        compiled(a, axes)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("f", [sum_method, max_function], ids=lambda f: f.__name__)
def test_an_axis_out_of_bounds_is_numpys_axis_error(f):
    a = np.ones((2, 3))
    compiled = ruchey.njit(f)
    for axes in [(0, 2), (-3,), 5]:
        with pytest.raises(np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError) as got:
            compiled(a, axes)
        with pytest.raises(type(got.value)) as expected:
            f(a, axes)
        assert str(got.value) == str(expected.value)


def mean_along_axes(a, axes):
    return a.mean(axis=axes)


def test_reductions_not_along_one_axis_after_another_refuse_a_tuple():
    with pytest.raises(ruchey.TypingError, match="axis must be an integer"):
        ruchey.njit(mean_along_axes)(np.ones((2, 3)), (0, 1))


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_an_empty_tuple_of_axes_converts_each_element_as_numpy(f):
    compiled = ruchey.njit(f)
    for a in arrays() + [np.asfortranarray(arrays()[0]), np.array([np.nan, 0.0, -1.5]), np.array(3.5)]:
        before = a.copy()
        got, expected = compiled(a, ()), f(a, ())
        assert_same(got, expected)
        if np.ndim(expected) and got.size:
            assert got.flags.f_contiguous == expected.flags.f_contiguous
            got[(0,) * got.ndim] = 7  # a copy, not a view of a
            assert np.array_equal(a, before, equal_nan=True)


def literal_empty_axes(a):
    return a.sum(axis=()), np.max(a, ()), a.all(axis=())


def test_an_empty_tuple_written_out_matches_numpy():
    a = np.asfortranarray(make_rng(6).integers(-2, 3, size=(3, 4)))
    for got, expected in zip(ruchey.njit(literal_empty_axes)(a), literal_empty_axes(a)):
        assert_same(got, expected)
        assert got.flags.f_contiguous


@pytest.mark.parametrize("axes", [(0, 1, 0), (1, -1, 0, 2), (0, 1, -2, -1)])
def test_more_axes_than_dimensions_raise_numpys_value_error(axes):
    a = np.ones((2, 3))
    with pytest.raises(ValueError) as expected:
        sum_method(a, axes)
    with pytest.raises(ValueError) as got:
        ruchey.njit(sum_method)(a, axes)
    assert str(got.value) == str(expected.value)
