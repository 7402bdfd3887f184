"""ruchey.typed.Set (numba.typed.Set): a set whose items have one declared
type, so that compiled code knows it while the set is empty. Compiled code
takes it as any set (changes written back), makes one with
Set.empty(key_type), and removes or finds items of other widths by value;
each compared with the function's py_func on generated inputs."""
import numpy as np
import pytest

import ruchey
from ruchey import TypingError, njit
from ruchey.typed import Set

from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's typed.Set")


def grow_and_shrink(s, add, drop):
    for x in add:
        s.add(x)
    for x in drop:
        s.discard(x)
    return len(s), sorted([x in s for x in add + drop])


@pytest.mark.parametrize("seed", range(4))
def test_typed_set_argument_changed_as_python_changes_it(seed):
    rng = make_rng(seed)
    start, add, drop = (rng.integers(-20, 20, n).tolist() for n in (int(rng.integers(0, 6)), 8, 8))
    for key_type in (ruchey.int32, ruchey.int64, ruchey.float64):
        s, expected = Set.empty(key_type), set()
        for x in start:
            s.add(x)
            expected.add(x)
        assert njit(grow_and_shrink)(s, add, drop) == grow_and_shrink(expected, add, drop)
        assert s == expected and type(s) is Set and s.key_type is key_type


def made_in_compiled_code(n):
    s = Set.empty(ruchey.int32)
    for i in range(n):
        s.add(i % 7 - 3)
    s.discard(2)
    return sorted(s), len(s), -3 in s


def test_set_empty_in_compiled_code():
    f = njit(made_in_compiled_code)
    for n in (0, 1, 5, 30):
        assert f(n) == f.py_func(n)


def remove_by_value(a, x):
    s = set(a)
    s.discard(x)
    t = set(a)
    try:
        t.remove(x)
        removed = True
    except KeyError:
        removed = False
    return sorted(s), sorted(t), removed


def test_discard_and_remove_of_other_widths_match_python():
    f = njit(remove_by_value)
    rng = make_rng(3)
    for dtype in (np.int8, np.int32, np.uint8, np.float32):
        a = rng.integers(0, 100, 10).astype(dtype)
        for x in (int(a[0]), int(a[1]) + 256, int(a[2]) + 2**32, 1000, -1):
            assert f(a, x) == f.py_func(a, x), (dtype, x)
    with pytest.raises(TypingError, match="not an item type"):  # a float from ints: as a dict's keys
        f(np.array([1, 3], np.int32), 3.0)


def empty_of(t):
    return Set.empty(t)


def test_set_empty_of_a_non_type_is_a_typing_error():
    with pytest.raises(TypingError, match="Set.empty"):
        njit(empty_of)(3)


def remove(a, x):
    s = set(a)
    s.remove(x)


def test_remove_of_a_missing_wider_item_names_it():
    with pytest.raises(KeyError) as missing:
        njit(remove)(np.array([1, 2], np.int8), 257)  # (257 as an int8 is 1, which is there)
    assert missing.value.args == (257,)
