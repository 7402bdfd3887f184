"""numpy.frexp and numpy.modf, NumPy's ufuncs of two outputs that split a
float into parts: on numbers and on arrays of every float dtype (float16
too) and of ints and bools (in NumPy's float for them), of every layout,
written into outputs given by position or as out=, each compiled function
against its py_func on generated inputs."""
import numpy as np
import pytest

import ruchey

from arraygen import DTYPES, LAYOUTS, array, assert_same_result, shapes
from arraygen import check as check_arrays
from conftest import make_rng

FLOATS = [np.float16, np.float32, np.float64]


def half_scalars(r):
    """r with float16 numbers as 0-d arrays: compiled code gives a float16
    number as a numpy.float16 (no Python float holds only its values)"""
    if isinstance(r, tuple):
        parts = tuple(map(half_scalars, r))
        return r if all(p is q for p, q in zip(parts, r)) else parts
    return np.asarray(r) if isinstance(r, np.float16) else r


def check(f, *args):
    """f against f.py_func (arraygen's check), float16 numbers compared as
    0-d arrays: their dtype, value and sign of zero"""
    with np.errstate(all="ignore"):
        want = f.py_func(*[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
    if half_scalars(want) is want:
        check_arrays(f, *args)
    else:
        assert_same_result(half_scalars(want), half_scalars(f(*args)))


@ruchey.njit
def parts(x):
    return np.frexp(x), np.modf(x)


@ruchey.njit
def parts_of_expression(x):
    m, e = np.frexp(x * 3)  # computed once, read by both parts
    f, i = np.modf(x - 1)
    return m, e, f + i


@ruchey.njit
def parts_into(x, m, e, f, i):
    return np.frexp(x, m, e), np.modf(x, out=(f, i))


@ruchey.njit
def parts_into_keyword(x, m, e):
    np.frexp(x, out=(m, e))


@ruchey.njit
def mantissa_sum(x):
    return np.frexp(x)[0].sum() + np.modf(x)[1].sum()


def special_values(dtype):
    """zeros of both signs, subnormals, the extremes, infinities and NaN"""
    info = np.finfo(dtype)
    return np.array([0.0, -0.0, info.tiny, info.tiny / 4, -info.tiny / 8, info.max, -info.max, info.eps,
                     1.0, -1.0, 0.5, 2.5, -7.75, np.inf, -np.inf, np.nan], dtype=dtype)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS + DTYPES, ids=lambda d: np.dtype(d).name)
def test_frexp_and_modf_of_arrays_match_numpy(dtype, layout):
    rng = make_rng(sum(map(ord, np.dtype(dtype).name + layout)))
    for shape in shapes():
        check(parts, array(rng, dtype, shape, layout))
        if shape:  # (x * 3 of a 0-d array is a number, typed as ruchey types numbers)
            check(parts_of_expression, array(rng, dtype, shape, layout))


@pytest.mark.parametrize("dtype", FLOATS)
def test_frexp_and_modf_of_special_values_match_numpy(dtype):
    a = special_values(dtype)
    check(parts, a)
    check(parts, a[::-3])
    for x in a:
        check(parts, x)  # a NumPy scalar of the dtype


@pytest.mark.parametrize("x", [2.5, -0.0, 1e-310, -3, 0, True, float("inf"), float("nan")])
def test_frexp_and_modf_of_python_numbers_match_numpy(x):
    check(parts, x)


def test_frexp_and_modf_of_numbers_give_numpys_types():
    (m, e), (f, i) = parts(np.float32(-3.75))
    assert (m, e, f, i) == (-0.9375, 2, -0.75, -3.0)
    assert type(e) is int and float(np.float32(m)) == m


@pytest.mark.parametrize("dtype", FLOATS + [np.int16, np.bool_])
def test_frexp_and_modf_write_into_their_outputs(dtype):
    rng = make_rng(7)
    for shape in shapes(empty=False):
        x = array(rng, dtype, shape)
        float_out = parts.py_func(x)[0][0].dtype if shape else np.frexp(x)[0].dtype
        for m_dtype, e_dtype in ((float_out, np.int32), (np.float64, np.int64), (np.float64, np.float64)):
            outs = [np.zeros(shape, m_dtype), np.zeros(shape, e_dtype), np.zeros(shape, m_dtype),
                    np.zeros(shape, np.float64)]
            check(parts_into, x, *outs)
            check(parts_into_keyword, x, *outs[:2])


def test_frexp_and_modf_outputs_broadcast_a_smaller_input():
    rng = make_rng(3)
    x = array(rng, np.float64, (4,))
    outs = [np.zeros((3, 4)), np.zeros((3, 4), np.int32), np.zeros((3, 4)), np.zeros((3, 4))]
    check(parts_into, x, *outs)
    check(parts_into, 2.5, *outs)


def test_frexp_and_modf_in_an_expression_match_numpy():
    rng = make_rng(11)
    for dtype in FLOATS:
        check(mantissa_sum, array(rng, dtype, (3, 5), "strided"))


@ruchey.njit
def frexp_one_output(x, m):
    return np.frexp(x, m)


@ruchey.njit
def modf_both_ways(x, f, i):
    return np.modf(x, f, out=(f, i))


@ruchey.njit
def frexp_out_not_a_tuple(x, m):
    return np.frexp(x, out=m)


@ruchey.njit
def frexp_into(x, m, e):
    return np.frexp(x, m, e)


def test_bad_frexp_and_modf_calls_are_typing_errors():
    x = np.arange(3.0)
    with pytest.raises(ruchey.TypingError, match="both of its outputs or neither"):
        frexp_one_output(x, np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="both a positional and keyword"):
        modf_both_ways(x, np.zeros(3), np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="tuple of its two outputs"):
        frexp_out_not_a_tuple(x, np.zeros(3))
    with pytest.raises(ruchey.TypingError, match="complex"):
        parts(np.ones(2, np.complex128))
    with pytest.raises(ruchey.TypingError, match="str"):
        parts(np.array(["a"]))
    with pytest.raises(ruchey.TypingError, match="cast"):  # (NumPy's casting rule 'same_kind')
        frexp_into(x, np.zeros(3, np.int64), np.zeros(3, np.int32))


def test_frexp_outputs_of_another_shape_raise_numpys_value_error():
    x = np.arange(4.0)
    with pytest.raises(ValueError):
        frexp_into.py_func(x, np.zeros(3), np.zeros(3, np.int32))
    with pytest.raises(ValueError):
        frexp_into(x, np.zeros(3), np.zeros(3, np.int32))


@ruchey.cuda.jit
def frexp_kernel(x, m, e):
    i = ruchey.cuda.grid(1)
    if i < x.size:
        m[i], e[i] = np.frexp(x[i])


def test_frexp_of_numbers_in_a_kernel_matches_numpy():
    x = special_values(np.float64)
    m, e = np.zeros_like(x), np.zeros(x.size, np.int32)
    frexp_kernel[1, 32](x, m, e)
    assert_same_result(np.frexp(x), (m, e))
