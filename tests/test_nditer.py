"""numpy.nditer(a) of an array or a number, and numpy.nditer((a, b, ...))
of arrays and numbers (complex ones too) broadcast together, as a for loop's iterable in compiled code:
each element a 0-d read-only view (x.item(), x[()]), in NumPy's
order='K': memory order, the axes by their strides and a reversed one
walked backwards (code written for Numba walks as Numba's: memory order
where the array is C- or Fortran-contiguous, C order otherwise; see
test_numba_shim.py). Compared with the Python original on generated arrays
of every dtype, layout and shape; zero-sized arrays raise NumPy's
ValueError; bad uses are TypingErrors. Several operands are walked in the
order NumPy's strides give their broadcast shape (C order where they
disagree)."""
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


@pytest.mark.parametrize("layout", [pytest.param(layout, marks=numba_deviation("numba walks a reversed array in C order"))
                                    if layout == "reversed" else layout for layout in LAYOUTS])
@pytest.mark.parametrize("dtype", DTYPES)
def test_nditer_yields_each_element_as_numpy(dtype, layout):
    rng = make_rng(hash((np.dtype(dtype).str, layout)) % 2**32)
    for shape in shapes(empty=False):
        a = array(rng, dtype, shape, layout)
        np.testing.assert_array_equal(items(a), items.py_func(a), strict=True)


def views(a):
    """Views of a walked in orders of their own by NumPy's order='K'."""
    yield from (a.T, a[::-1], a[:, ::-1], a[::-1, ::-1], a[:, ::2], a[::2, ::-1], a.T[::-1], a.T[:, ::2])
    f = np.asfortranarray(a)
    yield from (f[::2], f[::-1], f[:, ::-1], f.T[::-1], f[1:, 1:])
    if a.ndim == 3:
        yield from (a.transpose(1, 0, 2), a.transpose(2, 0, 1)[::-1], a[:, ::-1, ::2], f.transpose(0, 2, 1)[:, ::-1])


@numba_deviation("numba walks arrays that are neither C- nor Fortran-contiguous in C order")
@pytest.mark.parametrize("shape", [(5, 6), (4, 3, 5)])
def test_nditer_walks_strided_and_reversed_arrays_in_memory_order_as_numpy(shape):
    rng = make_rng(len(shape))
    a = small(rng, shape)
    for v in views(a):
        assert listed(v) == listed.py_func(v), (v.shape, v.strides)
        np.testing.assert_array_equal(items(v), items.py_func(v), strict=True)
    b = np.arange(float(shape[-1]))
    for v in views(a):
        for w in views(small(rng, shape)):
            if w.shape == v.shape:
                assert pairs(v, w) == pairs.py_func(v, w), (v.strides, w.strides)
        if v.shape[-1] == b.size:
            for x in (b, b[::-1]):
                assert pairs(v, x) == pairs.py_func(v, x) and pairs(x, v) == pairs.py_func(x, v), v.strides
        assert pairs(v, 2.5) == pairs.py_func(v, 2.5)


@numba_deviation("numba walks a reversed array in C order")
def test_nditer_walks_one_axis_backwards_where_no_operand_runs_forwards():
    x = small(make_rng(9), 12)
    for a, b in ((x[::-1], x[::-1]), (x[::-1], x), (x[::-3], x[::-3].copy()), (x[::-2], 1.5), (x[::-2], x[:1]),
                 (x[::2], x[::-2])):
        assert pairs(a, b) == pairs.py_func(a, b) and pairs(b, a) == pairs.py_func(b, a)
        assert listed(a) == listed.py_func(a)


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
    pytest.param("np.nditer((a, 'x'))", marks=numba_deviation("numba's messages differ")),
    pytest.param("np.nditer(())", marks=numba_deviation("numba's messages differ")),
    pytest.param("np.nditer(a, flags=['c_index'])", marks=numba_deviation("numba's messages differ")),
    "np.nditer(a, a)",
    pytest.param("np.nditer('ab')", marks=numba_deviation("numba's messages differ"))])
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


@ruchey.njit
def pairs(a, b):
    out = []
    for x, y in np.nditer((a, b)):
        out.append(x.item() * 1000.0 + y[()])
    return out


@ruchey.njit
def triples(a, b, c):
    s = 0.0
    for x, y, z in np.nditer((a, b, c)):
        s = s * 0.75 + x.item() - 2.0 * y.item() + z[()]
    return s


@ruchey.njit
def one_in_a_tuple(a):
    return [x.item() for x in np.nditer((a,))]


def small(rng, shape, dtype=np.float64):
    return (rng.integers(-9, 10, size=shape)).astype(dtype)


@pytest.mark.parametrize("seed", range(3))
def test_nditer_of_several_operands_broadcasts_them(seed):
    rng = make_rng(seed)
    a = small(rng, (3, 4))
    for b in (small(rng, 4), small(rng, (3, 4), np.int32), small(rng, (2, 3, 4)), np.float64(rng.integers(9)), 7,
              a.T.copy().T, a[:, ::-1], small(rng, (3, 4)).T.copy().T):
        for first, second in ((a, b), (b, a)):
            assert pairs(first, second) == pairs.py_func(first, second)
    assert one_in_a_tuple(a) == one_in_a_tuple.py_func(a)
    b = small(rng, 4)
    for c in (2.5, small(rng, (2, 3, 4)), np.int64(3)):
        assert triples(a, b, c) == triples.py_func(a, b, c)


@ruchey.njit
def listed(a):
    return [x.item() for x in np.nditer(a)]


@ruchey.njit
def listed_pairs(a, b):
    return [(x.item(), y.item()) for x, y in np.nditer((a, b))]


def test_nditer_of_a_number_and_of_complex_operands():
    rng = make_rng(6)
    for x in (3.5, np.float32(1.5), 7, np.int16(-2), True, 2 - 1j, np.complex64(1j)):
        assert listed(x) == listed.py_func(x)
    z = small(rng, (2, 3)) + 1j * small(rng, (2, 3))
    assert listed(z) == listed.py_func(z)
    for a, b in ((z, small(rng, 3)), (small(rng, (2, 3)), 1 + 2j), (2.5j, z.astype(np.complex64)), (1j, 3)):
        assert listed_pairs(a, b) == listed_pairs.py_func(a, b)


@numba_deviation("numba broadcasts by leading dimensions only, not a length 1 stretched")
@pytest.mark.parametrize("seed", range(2))
def test_nditer_stretches_dimensions_of_length_one(seed):
    rng = make_rng(seed)
    a, col, b = small(rng, (3, 4)), small(rng, (3, 1)), small(rng, 4)
    assert pairs(a, col) == pairs.py_func(a, col)
    assert triples(a, b, col) == triples.py_func(a, b, col)
    assert triples(col, b, 1.5) == triples.py_func(col, b, 1.5)
    row = small(rng, (2, 1, 4))
    assert triples(a, b, row) == triples.py_func(a, b, row)


def test_nditer_of_fortran_operands_walks_fortran_order_as_numba():
    rng = make_rng(5)
    f, g = np.asfortranarray(small(rng, (3, 4))), np.asfortranarray(small(rng, (3, 4)))
    assert pairs(f, g) == pairs.py_func(f, g)          # both Fortran: memory order, NumPy's too
    v = small(rng, 4)
    assert pairs(f, v) == pairs.py_func(f, v)          # a 1-d one counts as both
    c = small(rng, (3, 4))
    want = [x.item() * 1000.0 + y.item() for x, y in np.nditer((f, c), order="C")]
    assert pairs(f, c) == want                          # one each: C order


@numba_deviation("numba iterates nothing")
def test_nditer_of_several_operands_errors_as_numpy():
    a = np.zeros((3, 4))
    for b in (np.zeros(3), np.zeros((2, 4))):
        with pytest.raises(ValueError, match="could not be broadcast"):
            pairs.py_func(a, b)
        with pytest.raises(ValueError, match="could not be broadcast"):
            pairs(a, b)
    with pytest.raises(ValueError, match="zero-sized operands"):
        pairs(np.zeros((0, 4)), np.zeros(4))
