"""numpy.nditer(a) of one array as a for loop's iterable in compiled code:
each element a 0-d read-only view (x.item(), x[()]), in memory order
where the array is contiguous (C or Fortran order) and C order otherwise,
as Numba's (NumPy's order='K' also walks a strided array in memory order:
the reversed arrays below are compared with order='C'). Compared with the
Python original on generated arrays of every dtype, layout and shape;
zero-sized arrays raise NumPy's ValueError; bad uses are TypingErrors."""
import numpy as np
import pytest

import ruchey
from arraygen import DTYPES, LAYOUTS, array, shapes
from conftest import make_rng, numba_deviation


@ruchey.njit
def items(a):
    out = np.empty(a.size, a.dtype)
    i = 0
    for x in np.nditer(a):
        out[i] = x.item()
        i += 1
    return out


@ruchey.njit
def through_index(a):
    total = 0.0
    for x in np.nditer(a):
        total = total * 0.5 + x[()]
    return total


def in_c_order(a):
    return np.array([x.item() for x in np.nditer(a, order="C")], a.dtype)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_nditer_yields_each_element_as_numpy(dtype, layout):
    rng = make_rng(hash((np.dtype(dtype).str, layout)) % 2**32)
    for shape in shapes(empty=False):
        a = array(rng, dtype, shape, layout)
        want = in_c_order(a) if layout == "reversed" else items.py_func(a)
        np.testing.assert_array_equal(items(a), want, strict=True)


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_nditer_zero_d_views_read_as_numbers(layout):
    rng = make_rng(11)
    for shape in shapes(empty=False):
        a = array(rng, np.float64, shape, layout)
        got, want = through_index(a), through_index.py_func(a)
        assert got == want or (np.isnan(got) and np.isnan(want))


@numba_deviation("numba iterates nothing")
def test_nditer_of_a_zero_sized_array_is_numpys_error():
    for a in (np.zeros(0), np.zeros((3, 0))):
        with pytest.raises(ValueError, match="zero-sized operands"):
            items.py_func(a)
        with pytest.raises(ValueError, match="zero-sized operands"):
            items(a)


@numba_deviation("numba writes through nditer's views")
def test_nditer_views_are_read_only():
    @ruchey.njit
    def write(a):
        for x in np.nditer(a):
            x[()] = 1.0
    with pytest.raises(ruchey.TypingError, match="read-only|readonly"):
        write(np.zeros(3))


@pytest.mark.parametrize("call", [
    pytest.param("np.nditer((a, a))", marks=numba_deviation("numba's messages differ")),
    pytest.param("np.nditer(a, flags=['c_index'])", marks=numba_deviation("numba's messages differ")),
    "np.nditer(a, a)",
    pytest.param("np.nditer(3.0)", marks=numba_deviation("numba's messages differ"))])
def test_nditer_other_than_one_array_is_refused(call):
    ns = {"np": np}
    exec(f"def f(a):\n    for x in {call}:\n        pass\n", ns)
    with pytest.raises(ruchey.TypingError, match="nditer"):
        ruchey.njit(ns["f"])(np.zeros(3))


def test_item_of_an_array_of_one_element():
    @ruchey.njit
    def item(a):
        return a.item()
    for a in (np.array(2.5), np.array([7], np.int32), np.ones((1, 1, 1), np.float32)):
        assert item(a) == item.py_func(a)
    with pytest.raises(ValueError, match="can only convert an array of size 1"):
        item(np.zeros(3))
