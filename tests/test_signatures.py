"""Dispatcher.signatures as Numba lists them: a tuple of argument types per
compiled specialisation, each type a ruchey.types object (also equal to the
text "(int64, float64)" ruchey listed before, the keys of inspect_llvm)."""
import numpy as np
import ruchey
from ruchey import njit

from conftest import AS_NUMBA


def test_signatures_are_tuples_of_types():
    @njit
    def add(a, b):
        return a + b
    assert add(1, 2) == add.py_func(1, 2)
    assert add(1.5, 2) == add.py_func(1.5, 2)
    assert add.signatures == [(ruchey.int64, ruchey.int64), (ruchey.float64, ruchey.int64)]
    first = add.signatures[0]
    assert isinstance(first, tuple) and first[0] == ruchey.int64
    assert add.signatures[1][0].bitwidth == 64


def test_array_signature_items_are_array_types():
    @njit
    def total(a):
        return a.sum()
    x = np.arange(6.0)
    assert total(x) == total.py_func(x)
    assert total(x.reshape(2, 3)) == total.py_func(x.reshape(2, 3))
    assert total.signatures[0] == (ruchey.float64[::1],)
    assert total.signatures[1] == (ruchey.float64[:, ::1],)
    assert total.signatures[1][0].ndim == 2


def test_explicit_signatures_listed_as_types():
    @njit(["float64(float64)", "int32(int32)"])
    def half(x):
        return x // 2
    assert half.signatures == [(ruchey.float64,), (ruchey.int32,)]


def test_tuple_argument_listed_as_tuple_type():
    @njit
    def first(t):
        return t[0]
    assert first((1.0, 2.0)) == 1.0
    (arg,) = first.signatures[0]
    assert arg == ruchey.types.UniTuple(ruchey.float64, 2) if not AS_NUMBA else len(arg) == 2


def test_overloads_keyed_by_signatures():
    @njit
    def neg(x):
        return -x
    neg(3)
    neg(2.5)
    assert list(neg.overloads) == neg.signatures
    for sig in neg.signatures:
        assert neg.overloads[sig].entry_point


def test_signatures_still_equal_their_text():
    @njit
    def inc(x):
        return x + 1
    inc(1)
    inc(1.0)
    if not AS_NUMBA:
        assert inc.signatures == ["(int64,)", "(float64,)"]
        assert set(inc.inspect_llvm()) == set(inc.signatures)
        assert str(inc.signatures[0]) == "(int64,)"


# Explicit signatures: the one that takes the arguments with the least conversion, as
# Numba picks an overload (not merely the first that accepts them).
@ruchey.njit(["float32(float32)", "float64(float64)"])
def tenth(x):
    return x * 0.1


@ruchey.njit(["int16(int16)", "int64(int64)", "float32(float32)"])
def doubled(x):
    return x + x


@ruchey.njit
def tenth_inside(x):
    return tenth(x)


def test_the_closest_explicit_signature_is_chosen():
    assert tenth(3.0) == 3.0 * 0.1  # float64, not float32's 0.30000001192...
    assert tenth(np.float32(3.0)) == np.float32(3.0) * np.float32(0.1)
    assert tenth(3) == 3 * 0.1  # an int64 fits float64 better than float32
    assert doubled(20000) == 40000  # int64, not int16's wrapped -25536
    assert doubled(np.int16(20000)) == np.int16(-25536)
    assert doubled(True) == 2


def test_compiled_callers_choose_as_python_does():
    assert tenth_inside(3.0) == tenth_inside.py_func(3.0)
    # float32(float32), as a call from Python takes (NumPy 1.x's Python would give float64)
    assert tenth_inside(np.float32(3.0)) == tenth(np.float32(3.0)) == np.float32(3.0) * np.float32(0.1)
