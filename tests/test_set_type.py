"""Numba's types.Set and the types typeof gives sets and slices: a Python
set is Set(items, reflected=True), a slice of both bounds slice2_type
or slice3_type (with a step); types.Set names a set's type in an explicit signature (an
argument, a result), and overload typing functions see a set argument as
a types.Set. A set of what no set holds, or a frozenset, is refused with
a clear error."""
import pickle

import numpy
import pytest
import ruchey
from ruchey import njit, types
from ruchey.extending import overload

from conftest import AS_NUMBA, make_rng

ours = pytest.mark.skipif(AS_NUMBA, reason="ruchey's errors (Numba's types.Set asserts)")


def generated_sets(rng, count):
    """Sets of ints, floats, bools and str drawn at random, with their item types."""
    for _ in range(count):
        n = int(rng.integers(1, 20))
        yield {int(v) for v in rng.integers(-50, 50, n)}, types.int64
        yield {float(v) for v in rng.normal(size=n)}, types.float64
        yield {"s%d" % v for v in rng.integers(0, 30, n)}, types.unicode_type
        yield {bool(v) for v in rng.integers(0, 2, n)}, types.boolean


def test_typeof_a_set_is_a_reflected_set_of_its_items():
    for s, item in generated_sets(make_rng(1), 5):
        t = ruchey.typeof(s)
        assert t == types.Set(item, reflected=True)
        assert isinstance(t, types.Set) and t.dtype == item and t.reflected


def test_set_types_are_interned_and_pickle():
    t = types.Set(types.float64)
    assert types.Set(types.float64) is t
    assert pickle.loads(pickle.dumps(t)) is t
    assert types.Set(types.float64, reflected=True) != t


def test_typeof_a_frozenset_or_an_empty_set_is_a_value_error():
    for v in (frozenset({1, 2}), set()):
        with pytest.raises(ValueError):
            ruchey.typeof(v)


def test_typeof_slices_of_both_bounds_is_slice2_or_slice3():
    rng = make_rng(2)
    for _ in range(20):
        start, stop = (int(v) for v in rng.integers(-3, 9, 2))
        assert ruchey.typeof(slice(start, stop)) is types.slice2_type
        step = int(rng.choice([-2, -1, 2, 3]))
        assert ruchey.typeof(slice(start, stop, step)) is types.slice3_type
        for s in (slice(None, stop), slice(start, None, step), slice(None, None, step)):
            assert isinstance(ruchey.typeof(s), types.SliceType)
    assert isinstance(types.slice2_type, types.SliceType) and isinstance(types.slice3_type, types.SliceType)


def set_sum(s):
    total = 0.0
    for v in s:
        total += v
    return total


def test_set_argument_in_an_explicit_signature():
    for item in (types.int64, types.float64):
        f = njit(types.float64(types.Set(item, reflected=True)))(set_sum)
        for s, t in generated_sets(make_rng(3), 6):
            if t == item:
                assert f(s) == pytest.approx(f.py_func(s))


def squares_below(n):
    s = set()
    for i in range(n):
        s.add(i * i % 7)
    return s


def test_set_result_in_an_explicit_signature():
    f = njit(types.Set(types.int64)(types.int64))(squares_below)
    for n in make_rng(4).integers(0, 40, 10):
        assert f(int(n)) == f.py_func(int(n))


@ours
def test_a_set_of_arrays_in_a_signature_is_a_type_error():
    with pytest.raises(TypeError):
        njit(types.float64(types.Set(types.float64[:])))(set_sum)


@ours
def test_a_set_needs_a_type_of_its_items():
    with pytest.raises(TypeError):
        types.Set(3)


def set_kind(s):
    raise NotImplementedError


@overload(set_kind)
def _set_kind(s):
    if isinstance(s, types.Set) and s.dtype == types.int64:
        return lambda s: 1
    if isinstance(s, types.Set):
        return lambda s: 2
    return lambda s: 0


def call_set_kind(s):
    return set_kind(s)


def test_an_overload_sees_a_set_argument_as_a_set():
    f = njit(call_set_kind)
    rng = make_rng(5)
    assert f({int(v) for v in rng.integers(0, 9, 5)}) == 1
    assert f({float(v) for v in rng.normal(size=5)}) == 2
    assert f(numpy.arange(3)) == 0

