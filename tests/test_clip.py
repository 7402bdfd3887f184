"""numpy.clip and ndarray.clip: a bound may be None (that side unbounded),
the bounds may be given by keyword, and the result may go to out (by
position or keyword), as NumPy and Numba take them."""
import numpy as np
import pytest

import ruchey
from conftest import numba_deviation, numpy2_only


@ruchey.njit
def clip3(a, lo, hi):
    return np.clip(a, lo, hi)


@ruchey.njit
def clip_upper_only(a, hi):
    return np.clip(a, None, hi)


@ruchey.njit
def clip_keywords(a, lo, hi):
    return np.clip(a, a_min=lo, a_max=hi)


@ruchey.njit
def clip_out(a, lo, hi, out):
    return np.clip(a, lo, hi, out)


@ruchey.njit
def clip_out_keyword(a, lo, hi, out):
    return np.clip(a, lo, hi, out=out)


@ruchey.njit
def method_lower_only(a, lo):
    return a.clip(lo)


@ruchey.njit
def method_max_keyword(a, hi):
    return a.clip(max=hi)


@ruchey.njit
def method_out(a, lo, hi, out):
    return a.clip(lo, hi, out)


@ruchey.njit
def method_out_keyword(a, hi, out):
    return a.clip(None, hi, out=out)


@ruchey.njit
def clip_min_max_keywords(a, lo, hi):
    return np.clip(a, min=lo, max=hi)


def inputs():
    rng = np.random.default_rng(7)
    floats = rng.normal(size=(4, 6))
    floats[1, 2] = np.nan
    ints = rng.integers(-20, 20, size=(3, 5))
    return [floats, floats.astype(np.float32), ints, ints.astype(np.int8), floats[:, ::2], floats.T]


def same(got, expected, dtype=False):
    """Values equal; dtypes too where the bounds are written in the source
    (a bound passed in is a float64 or int64 in compiled code, where NumPy
    takes a Python number weakly)."""
    if dtype:
        assert np.asarray(got).dtype == np.asarray(expected).dtype
    assert np.array_equal(got, expected, equal_nan=True)


@ruchey.njit
def literal_bounds(a):
    return np.clip(a, None, 3), np.clip(a, -2.5, None), a.clip(max=1), np.clip(a, a_min=None, a_max=2)


@pytest.mark.parametrize("a", inputs(), ids=lambda a: f"{a.dtype}-{a.shape}")
def test_clip_with_none_keeps_numpy_dtype_for_literal_bounds(a):
    for got, expected in zip(literal_bounds(a), literal_bounds.py_func(a)):
        same(got, expected, dtype=True)


@pytest.mark.parametrize("a", inputs(), ids=lambda a: f"{a.dtype}-{a.shape}")
@pytest.mark.parametrize("lo, hi", [(-0.5, 0.5), (None, 0.25), (-3, None), (2, -2), (np.nan, None)])
def test_clip_bounds_with_none_match_numpy(a, lo, hi):
    same(clip3(a, lo, hi), clip3.py_func(a, lo, hi))
    same(clip_keywords(a, lo, hi), clip_keywords.py_func(a, lo, hi))


@pytest.mark.parametrize("a", inputs(), ids=lambda a: f"{a.dtype}-{a.shape}")
def test_clip_bound_arrays_with_none(a):
    bound = np.linspace(-1, 1, a.shape[-1])
    same(clip3(a, bound, None), clip3.py_func(a, bound, None))
    same(clip_upper_only(a, bound), clip_upper_only.py_func(a, bound))


@pytest.mark.parametrize("x", [3, -4, 2.5, np.float32(-7.5), np.int16(9)])
def test_clip_of_a_number_with_none(x):
    same(clip3(x, None, 1), clip3.py_func(x, None, 1))
    same(clip3(x, -1, None), clip3.py_func(x, -1, None))
    same(clip_upper_only(x, 0.5), clip_upper_only.py_func(x, 0.5))


@pytest.mark.parametrize("a", inputs(), ids=lambda a: f"{a.dtype}-{a.shape}")
def test_array_clip_method_bounds_default_to_none(a):
    same(method_lower_only(a, 1), method_lower_only.py_func(a, 1))
    same(method_max_keyword(a, -1), method_max_keyword.py_func(a, -1))


@pytest.mark.parametrize("f", [clip_out, clip_out_keyword, method_out])
@pytest.mark.parametrize("lo, hi", [(-1, 1), (None, 0.5), (-0.5, None)])
def test_clip_into_out(f, lo, hi):
    a = inputs()[0]
    got, expected = np.zeros_like(a), np.zeros_like(a)
    result = f(a, lo, hi, got)
    f.py_func(a, lo, hi, expected)
    assert result is got
    same(got, expected)


def test_clip_method_out_keyword_with_none_bound():
    a = inputs()[2]
    got, expected = np.zeros_like(a), np.zeros_like(a)
    assert method_out_keyword(a, 4, got) is got
    method_out_keyword.py_func(a, 4, expected)
    same(got, expected)


@numpy2_only
@pytest.mark.parametrize("lo, hi", [(None, None), (-1, None), (None, 2), (-1, 2)])
def test_clip_min_max_keywords_as_numpy2(lo, hi):
    a = inputs()[0]
    same(clip_min_max_keywords(a, lo, hi), clip_min_max_keywords.py_func(a, lo, hi))
    same(clip3(a, None, None), clip3.py_func(a, None, None))


def test_clip_out_of_another_shape_raises_value_error():
    a = np.arange(5.0)
    buffer = np.full(8, 9.0)
    with pytest.raises(ValueError):
        clip_out(a, 0.0, 3.0, buffer[:3])
    assert np.array_equal(buffer, np.full(8, 9.0))


@ruchey.njit
def method_numba_keywords(a, lo, hi):
    return a.clip(a_min=lo, a_max=hi), a.clip(a_max=hi), (a * 2).clip(a_min=lo)


@pytest.mark.parametrize("a", inputs(), ids=lambda a: f"{a.dtype}-{a.shape}")
def test_array_clip_method_takes_numbas_a_min_a_max_keywords(a):
    # Numba's a.clip is (a_min=None, a_max=None, out=None), which real code
    # calls so (NumPy's own method has min= and max=): numpy.clip's values
    both, upper, lower = method_numba_keywords(a, -1, 2)
    same(both, np.clip(a, -1, 2))
    same(upper, np.clip(a, None, 2))
    same(lower, np.clip(a * 2, -1, None))


def test_array_clip_method_mixing_min_and_a_min_is_a_typing_error():
    @ruchey.njit
    def mixed(a, lo, hi):
        return a.clip(a_min=lo, max=hi)

    with pytest.raises(ruchey.TypingError, match="passing min or max"):
        mixed(np.arange(3.0), 0.0, 1.0)


def test_clip_missing_one_bound_is_a_typing_error():
    @ruchey.njit
    def only_a_max(a, hi):
        return np.clip(a, a_max=hi)

    with pytest.raises(TypeError):
        only_a_max.py_func(np.arange(3.0), 1.0)
    with pytest.raises(ruchey.TypingError, match="a_min"):
        only_a_max(np.arange(3.0), 1.0)


def test_clip_bound_given_twice_is_a_typing_error():
    @ruchey.njit
    def twice(a, lo):
        return a.clip(lo, min=lo)

    with pytest.raises(ruchey.TypingError, match="multiple values"):
        twice(np.arange(3.0), 1.0)


def test_clip_of_a_string_bound_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="arrays or numbers"):
        clip3(np.arange(3.0), "a", None)


BEYOND = [(0, 300), (-1000, 70000), (-5, 100), (3, 2**40), (-2**40, -2**35), (2**35, 2**36), (-1, 5)]
CLIP_LITERAL = {}
for _lo, _hi in BEYOND:
    exec(f"def _f(a):\n    return np.clip(a, {_lo}, {_hi})\n")
    CLIP_LITERAL[_lo, _hi] = ruchey.njit(_f)


@numpy2_only
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.uint64])
def test_clip_bounds_beyond_the_dtype_clip_nothing_there(dtype):
    # a Python int bound an int8 array cannot hold (300, -1000) is the
    # range's end on its own side, as NumPy takes it, not a wrapped value
    # (300 as int8 is 44); beyond the other end it is NumPy's OverflowError
    rng = np.random.default_rng(7)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, size=40, dtype=dtype, endpoint=True)
    a[:2] = info.min, info.max
    for (lo, hi), f in CLIP_LITERAL.items():
        try:
            expected = f.py_func(a)
        except OverflowError as e:
            with pytest.raises(OverflowError, match=str(e)):
                f(a)
            continue
        got = f(a)
        assert got.dtype == expected.dtype and np.array_equal(got, expected), (lo, hi)
        # the same bounds passed as arguments: the values NumPy gives (typed int64 there)
        assert np.array_equal(clip3(a, lo, hi), expected), (lo, hi)


@ruchey.njit
def clip_by_arguments(a, lo, hi):
    return np.clip(a, lo, hi), a.clip(lo), np.clip(a, None, hi)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.float32, np.float64])
def test_clip_by_python_number_arguments_keeps_the_array_dtype(dtype):
    # a Python int or float passed in is an int64 or float64 in compiled code,
    # which NumPy's and Numba's clip take as the array's dtype (not widened)
    rng = np.random.default_rng(3)
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else np.finfo(dtype)
    a = rng.integers(0, 100, size=(3, 7)).astype(dtype)
    a[0, :2] = info.min if np.issubdtype(dtype, np.integer) else -np.inf, info.max
    bounds = [(1, 50), (0, 0), (60, 20), (-0.5, 40.5)] if np.issubdtype(dtype, np.floating) else [(1, 50), (0, 0), (60, 20)]
    for lo, hi in bounds:
        for got, expected in zip(clip_by_arguments(a, lo, hi), clip_by_arguments.py_func(a, lo, hi)):
            same(got, expected, dtype=True)


@ruchey.njit
def where_with_literals(c, a):
    return np.where(c, a, 300), np.where(c, -129, a), np.where(c, a, 3), np.where(c, 2.5, a)


@numba_deviation("its where gives int64 (float64) for any int literal; NumPy keeps a dtype that holds it")
@pytest.mark.parametrize("dtype, wide", [(np.int8, np.int64), (np.uint8, np.int64), (np.int16, np.int16),
                                         (np.float32, np.float32)])
def test_where_with_an_int_literal_the_dtype_cannot_hold_is_int64_as_numba(dtype, wide):
    # NumPy's where wraps 300 into an int8 array's dtype (44); Numba gives the
    # values written, as int64; a literal that fits keeps the array's dtype
    a = np.arange(-3, 9).astype(dtype)
    c = a % 3 == 0
    got = where_with_literals(c, a)
    held = a.astype(wide)
    expected = (np.where(c, held, 300), np.where(c, -129, held), np.where(c, a, 3), np.where(c, 2.5, a))
    for g, e in zip(got, expected):
        same(g, e)
    assert got[0].dtype == got[1].dtype == wide
    assert got[2].dtype == a.dtype and got[3].dtype == np.result_type(a.dtype, np.float32 if dtype == np.float32 else np.float64)


@ruchey.njit
def clip_all_keywords(a, lo, hi):
    return np.clip(a=a, a_min=lo, a_max=hi)


@ruchey.njit
def clip_all_keywords_into(a, lo, hi):
    return np.clip(a=a, a_min=lo, a_max=hi, out=a)


@ruchey.njit
def clip_array_keyword_min_max(a, hi):
    return np.clip(a=a, a_max=hi, a_min=None), np.clip(a=a, max=hi)


def clip_keyword_min_max_expected(a, hi):
    """clip_array_keyword_min_max's result as NumPy 2.1 computes it (its
    min=/max= keywords, and both bounds None, are NumPy 2's; before 2.1 the
    same clips written positionally)."""
    if np.lib.NumpyVersion(np.__version__) >= "2.1.0":
        return clip_array_keyword_min_max.py_func(a, hi)
    clipped = a.copy() if hi is None else np.clip(a, None, hi)
    return clipped, clipped


@pytest.mark.parametrize("lo, hi", [(-1, 1), (None, 0.5), (-0.5, None), (0, 0)])
def test_clip_array_given_by_keyword(lo, hi):
    """numpy.clip(a=..., a_min=..., a_max=..., out=...) all by name, as
    LIANA+'s masked Spearman clips its correlations in place."""
    for a in inputs():
        same(clip_all_keywords(a, lo, hi), clip_all_keywords.py_func(a, lo, hi))
        for g, e in zip(clip_array_keyword_min_max(a, hi), clip_keyword_min_max_expected(a, hi)):
            same(g, e)
        if a.dtype.kind != "f":  # (a float bound into an int array: NumPy's casting error, tested above)
            continue
        got, expected = a.copy(), a.copy()
        assert clip_all_keywords_into(got, lo, hi) is got
        clip_all_keywords_into.py_func(expected, lo, hi)
        same(got, expected)


def test_clip_array_keyword_in_a_typed_signature():
    f = ruchey.njit("float32[:,:](float32[:,:])")(lambda a: np.clip(a=a, a_min=-1.0, a_max=1.0, out=a))
    a = np.random.default_rng(3).normal(0.0, 2.0, (5, 7)).astype(np.float32)
    expected = np.clip(a, -1.0, 1.0)
    same(f(a), expected, dtype=True)
