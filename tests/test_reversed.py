"""reversed() in compiled code, as Python's: a range's items backwards
(any start, stop and step, empty ones too), and a list's, an array's, a
str's, a tuple's and bytes' items backwards, in for loops, comprehensions,
list() and join(). Numba has no reversed(). Every case against the
function's own Python original on generated inputs."""
import numpy as np
import pytest
import ruchey
from ruchey import njit, typed, types

from conftest import assert_same, make_rng, numba_deviation, random_ints

pytestmark = numba_deviation("numba has no reversed()")


@njit
def backwards_ranges(start, stop, step):
    out = []
    for i in reversed(range(stop)):
        out.append(i)
    for i in reversed(range(start, stop)):
        out.append(i)
    for i in reversed(range(start, stop, step)):
        out.append(i)
    r = reversed(range(start, stop, step))
    return out, [i * 2 for i in r], list(reversed(range(start, stop, step)))


def test_reversed_ranges_as_python():
    rng = make_rng(81)
    bounds = random_ints(rng, 6, -30, 30)
    for start in bounds:
        for stop in bounds:
            for step in (1, 2, 3, 7, -1, -2, -5):
                assert_same(backwards_ranges, start, stop, step)


def test_a_zero_step_raises_value_error():
    with pytest.raises(ValueError):
        backwards_ranges.py_func(0, 3, 0)
    with pytest.raises(ValueError):
        backwards_ranges(0, 3, 0)


@njit
def backwards_items(a, items, s, t, b):
    total = 0
    for x in reversed(a):
        total = total * 3 + x
    firsts = [x for x in reversed(a[0:2])]
    return (total, firsts, list(reversed(items)), "".join(reversed(s)), [c for c in reversed(s)],
            [x for x in reversed(t)], [x for x in reversed(b)])


def test_reversed_sequences_as_python():
    rng = make_rng(82)
    for n in (1, 2, 9):
        ints = random_ints(rng, n, -9, 9)[:n]
        a = np.array(ints, dtype=np.int64)
        assert_same(backwards_items, a, [x / 2 for x in ints], "héllo wörld"[:n], (1, 5, 2), b"abc"[:n])
        assert_same(backwards_items, a[::-1], [float(n)], "", (3,), b"")
    grid = np.arange(12).reshape(3, 4)
    rows = njit(lambda g: [r.sum() for r in reversed(g)])
    assert rows(grid) == rows.py_func(grid)


def test_reversed_of_what_has_no_order_is_a_typing_error():
    d = typed.Dict.empty(types.int64, types.int64)
    d[1] = 2
    with pytest.raises(ruchey.TypingError, match="reversed"):
        njit(lambda d: [k for k in reversed(d)])(d)
    with pytest.raises(ruchey.TypingError, match="reversed"):
        njit(lambda x: [k for k in reversed(x)])(3)
