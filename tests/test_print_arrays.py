"""print() of arrays in @njit code: the lines NumPy's str(a) makes (its
default options: precision 8, 75 characters a line, summarised past 1000
elements), compared with the Python function's own print on generated
arrays of every dtype and on the corners of the float layout (scientific
notation, nan and inf, negative zero, wrapping, summaries)."""
import numpy as np
import pytest
import ruchey

from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's print")

RNG = make_rng(7)


@ruchey.njit
def show(a):
    print(a)


@ruchey.njit
def show_with(label, a, n):
    print(label, a, n)


def printed(capsys, f, *args):
    capsys.readouterr()
    f(*args)
    return capsys.readouterr().out


def same_print(capsys, *args):
    assert printed(capsys, show, *args) == printed(capsys, show.py_func, *args)


FLOAT_CASES = [
    [1.5, 2.25, -3.0], [1.0, 2.0], [0.1, 1 / 3], [1e-5, 1.0], [1e9, 2.5], [123456789.0, 1.0], [-0.0, 0.0],
    [np.nan, 1.0, -np.inf], [np.nan], [np.inf, 1e10], [0.0, 0.0], [1e-300, 1e300], [5e-324], [999.9999999],
    [0.5, 1001.0], [1e7, 99999999.0],
]


@pytest.mark.parametrize("values", FLOAT_CASES, ids=[str(v) for v in FLOAT_CASES])
def test_float_arrays_print_as_numpy(capsys, values):
    same_print(capsys, np.array(values))
    with np.errstate(over="ignore"):  # 1e300 as a float32 is inf
        single = np.array(values, dtype=np.float32)
    same_print(capsys, single)


@pytest.mark.parametrize("scale", [1e-8, 1e-3, 1.0, 1e3, 1e6, 1e12])
def test_random_float_arrays_print_as_numpy(capsys, scale):
    for shape in [(1,), (7,), (40,), (3, 4), (6, 9), (2, 3, 4)]:
        a = RNG.standard_normal(shape) * scale
        same_print(capsys, a)
        same_print(capsys, a.astype(np.float32))
        same_print(capsys, np.round(a, 2))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64])
def test_int_arrays_print_as_numpy(capsys, dtype):
    info = np.iinfo(dtype)
    for shape in [(5,), (30,), (4, 6), (2, 2, 3)]:
        same_print(capsys, RNG.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True))
        same_print(capsys, RNG.integers(0, 10, size=shape).astype(dtype))


def test_bool_and_empty_and_0d_arrays_print_as_numpy(capsys):
    same_print(capsys, RNG.integers(0, 2, size=9).astype(bool))
    same_print(capsys, RNG.integers(0, 2, size=(3, 3)).astype(bool))
    same_print(capsys, np.array([], dtype=np.float64))
    same_print(capsys, np.zeros((0, 3)))
    same_print(capsys, np.array(1.5))
    same_print(capsys, np.array(7))


def test_large_arrays_are_summarised_as_numpy(capsys):
    same_print(capsys, np.arange(2000))
    same_print(capsys, np.arange(3000.0).reshape(1000, 3) / 7)
    same_print(capsys, RNG.standard_normal((50, 50)))
    same_print(capsys, np.arange(1001 * 2).reshape(2, 1001))


def test_strided_views_print_as_numpy(capsys):
    a = RNG.standard_normal((6, 8))
    same_print(capsys, a[::2, 1::3])
    same_print(capsys, a.T)


def test_arrays_among_other_values(capsys):
    a = np.arange(6).reshape(2, 3)
    assert printed(capsys, show_with, "a is", a, 3) == printed(capsys, show_with.py_func, "a is", a, 3)


def test_arrays_of_complex_numbers_print_as_numpy_writes_them(capsys):
    for a in (np.zeros(2, dtype=np.complex128), np.array([1 + 2j, -1j, np.nan]), np.ones((2, 2), np.complex64) * 1.5j):
        same_print(capsys, a)


def test_tuples_holding_arrays_print_as_python(capsys):
    @ruchey.njit
    def in_tuple(a, s):
        print((a, s))
    for a in (np.zeros(2), np.arange(4.0).reshape(2, 2)):
        assert printed(capsys, in_tuple, a, "x") == printed(capsys, in_tuple.py_func, a, "x")
