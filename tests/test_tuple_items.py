"""A tuple's fields as items: list(t), sorted(t), min(t), max(t) and
sum(t) of tuples of numbers (their unified type) and of strs; and a list
literal of str constants given to str.join, list() and sorted() (a str,
not a dtype's name). Compared with the function's py_func on generated
inputs."""
import numpy as np
import pytest

from ruchey import TypingError, njit

from conftest import AS_NUMBA, make_rng, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's typed lists come back as typed.List")


def as_python(v):
    if isinstance(v, tuple):
        return tuple(as_python(x) for x in v)
    return list(v) if hasattr(v, "item_type") else v


@njit
def folds(t):
    return min(t), max(t), sum(t), sorted(t), sorted(t, reverse=True), list(t)


@pytest.mark.parametrize("n", [1, 2, 5])
def test_tuple_of_ints_as_items(n):
    t = tuple(make_rng(seed_of("tuple ints", n)).integers(-9, 9, size=n).tolist())
    assert as_python(folds(t)) == folds.py_func(t)


def test_tuple_of_mixed_numbers_is_unified_to_float():
    t = (3, 1.5, 2)
    got = as_python(folds(t))
    assert got == tuple(x if not isinstance(x, list) else [float(v) for v in x] for x in folds.py_func(t))
    assert all(type(v) is float for v in got[3])


@njit
def str_items(x):
    t = ("b", x, "a")
    return sorted(t), list(t), sorted(("q", "p")), ",".join(["a", "b", x]), "-".join(("c", x))


@pytest.mark.parametrize("x", ["z", "", "a"])
def test_tuples_and_list_literals_of_strs(x):
    assert as_python(str_items(x)) == str_items.py_func(x)


def test_tuples_that_are_not_items_are_typing_errors():
    def empty(x):
        return max(())

    def mixed(x):
        return sorted((1, "a"))

    for f in (empty, mixed):
        with pytest.raises(TypingError, match="a tuple of numbers"):
            njit(f)(1)


def none_first(x):
    return None, x, 7


def none_between(t):
    return t[1] * 2, (t[0], None, t[2])


def nested_nones(x, a):
    pairs = [(None, x, 1), (None, x + 1, 2)]
    return pairs[1], ((None, x), (a.dtype, 3)), (a.dtype, x)


@pytest.mark.parametrize("x", [0.0, 2.5, -1e300])
def test_tuples_holding_none_or_a_dtype_keep_their_other_items(x):
    """None and a dtype take no bytes in a tuple: the items after them are
    where the boxing reads them (they were read at the wrong offsets)."""
    a = np.arange(3, dtype=np.float32)
    assert njit(none_first)(x) == none_first(x)
    assert njit(none_between)((x, 4.5, 3)) == none_between((x, 4.5, 3))
    assert njit(none_between)((None, x, 3)) == none_between((None, x, 3))
    assert njit(nested_nones)(x, a) == nested_nones(x, a)


LONG_FLOATS = tuple(float(x) for x in np.linspace(0.5, 2.0, 300))
LONG_INTS = tuple(range(100, 200))


def make_decay(deltas):
    """pandas' ewm: a closure over a tuple as long as the data, read by index."""
    def decay(n, factor):
        w, above = 1.0, 0
        for i in range(n):
            w *= factor ** deltas[i]
        for x in deltas:
            above += x > 1.0
        return w, len(deltas), above, deltas[-1], 1.25 in deltas
    return decay


def long_ints(k):
    return LONG_INTS[k] + len(LONG_INTS), 150 in LONG_INTS, 99 in LONG_INTS, LONG_INTS[-k - 1]


@pytest.mark.parametrize("n", [0, 1, 50, 300])
def test_long_global_tuples_read_as_sequences(n):
    deltas = LONG_FLOATS + tuple(np.float64(x) for x in (0.25, 3.0))  # numpy.float64 items too
    decay = make_decay(deltas)
    assert njit(decay)(n, 0.9) == decay(n, 0.9)
    assert njit(long_ints)(n % 100) == long_ints(n % 100)


def test_long_global_tuples_used_as_tuples():
    def concat():
        return LONG_FLOATS + (1.0,)

    def sliced():
        return LONG_INTS[1:3], MIXED[-3:]

    def mixed(i):
        return MIXED[i]
    for f in (concat, sliced):
        assert njit(f)() == f()
    with pytest.raises(TypingError, match="heterogeneous tuple"):  # its items' types differ, as Numba's
        njit(mixed)(0)


MIXED = tuple([1, 2.5] * 40)
