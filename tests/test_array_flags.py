"""a.flags in compiled code as a value (Numba's ArrayFlags): f = a.flags
holds the array, and f.c_contiguous, f.f_contiguous and f.contiguous read
its strides as a.flags.c_contiguous... does, compared with the function's
own Python on generated arrays of several dtypes and every layout."""
import numpy as np
import pytest

import ruchey
from arraygen import LAYOUTS, array, check, shapes
from conftest import make_rng

RNG = make_rng(4775)
DTYPES = (np.bool_, np.int8, np.uint32, np.float32, np.float64, np.complex128)


@ruchey.njit
def flags_held(a):
    f = a.flags
    return f.c_contiguous, f.f_contiguous, f.contiguous


@ruchey.njit
def flags_outlive_name(a):
    f = a.flags
    a = None  # the flags keep the array they describe
    return f.f_contiguous, f.c_contiguous


@ruchey.njit
def flags_chosen(a, b, first):
    f = a.flags if first else b.flags
    return f.c_contiguous


@ruchey.njit
def flags_statement(a):
    a.flags  # a value unused, as Numba's issue 4775 had in a jitclass method
    return a.size


def generated():
    for dtype in DTYPES:
        for shape in shapes():
            for layout in LAYOUTS:
                yield array(RNG, dtype, shape, layout)


@pytest.mark.parametrize("f", [flags_held, flags_outlive_name, flags_statement])
def test_flags_as_a_value_read_the_arrays_strides(f):
    for a in generated():
        check(f, a)


def test_flags_of_either_array_by_a_condition():
    c = np.ones((3, 4))
    for first in (True, False):
        check(flags_chosen, c, c.T, first)
        check(flags_chosen, c[:, ::2], c, first)


def test_flags_in_a_jitclass_method():
    @ruchey.experimental.jitclass([])
    class Reader:
        def __init__(self):
            pass

        def contiguous(self, x):
            x.flags
            f = x.flags
            return f.c_contiguous

    r = Reader()
    assert r.contiguous(np.ones(4))
    assert not r.contiguous(np.ones((4, 4))[:, ::2])


def test_flags_cannot_be_returned_to_python():
    with pytest.raises(TypeError, match="ArrayFlags"):
        ruchey.njit(lambda a: a.flags)(np.ones(3))


def test_flags_unknown_field_is_a_typing_error():
    def f(a):
        g = a.flags
        return g.owndata

    with pytest.raises(ruchey.TypingError, match="owndata"):
        ruchey.njit(f)(np.ones(3))


@ruchey.njit
def writeable_flags(a):
    f = a.flags
    v = np.broadcast_to(a, (2,) + a.shape)
    return f.writeable, a.flags.writeable, v.flags.writeable, np.ones(3).flags.writeable, a.copy().flags.writeable


def test_writeable_flag_as_numpy_says():
    for a in generated():
        check(writeable_flags, a)
        frozen = a.copy()
        frozen.flags.writeable = False  # (passed as it is: check() would pass writeable copies)
        assert writeable_flags(frozen) == writeable_flags.py_func(frozen) == (False, False, False, True, True)


@ruchey.njit
def flags_read(f):
    return f.c_contiguous, f.f_contiguous, f.contiguous, f.writeable


@ruchey.njit
def flags_passed(a):
    f = a.flags
    return flags_read(f), flags_read(a.flags), flags_read(np.broadcast_to(a, (2,) + a.shape).flags)


def test_flags_passed_to_another_compiled_function_read_the_same():
    """The callee gets the flags (Numba's ArrayFlags argument) of the
    array they describe, a read-only view's too; NumPy's flags of each
    array are the expected values (Python cannot pass a flags object to a
    compiled function)."""
    def expected(x):
        return x.flags.c_contiguous, x.flags.f_contiguous, x.flags.c_contiguous, x.flags.writeable

    for a in generated():
        want = expected(a)
        assert flags_passed(a) == (want, want, expected(np.broadcast_to(a, (2,) + a.shape)))
