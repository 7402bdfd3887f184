"""An immutable typed.List keeps the room it had (``_allocated()``), and
refuses an append where it has room left, in compiled loops too; loops of
appends and item stores on mutable lists give what Python gives (their
checks stay out of the loop). Checked against py_func on generated lists."""
import pytest

import ruchey
from ruchey import njit, typed

from conftest import make_rng, seed_of


@njit
def frozen_room(n):
    x = typed.List.empty_list(ruchey.int64)
    for i in range(n):
        x.append(i)
    before = x._allocated()
    x._make_immutable()
    x._make_immutable()  # (a second time changes nothing)
    return before, x._allocated(), len(x)


@pytest.mark.parametrize("n", [0, 1, 5, 9, 40])
def test_an_immutable_list_keeps_its_room(n):
    assert frozen_room(n) == frozen_room.py_func(n)
    assert frozen_room(n)[0] == frozen_room(n)[1]


@njit
def append_after_freezing(n, k):
    x = typed.List.empty_list(ruchey.float64, n + k)
    for i in range(n):
        x.append(i * 0.5)
    x._make_immutable()
    for i in range(k):
        x.append(1.0)
    return len(x)


@pytest.mark.parametrize("n", [0, 3, 17])
def test_an_append_with_room_left_is_refused_once_immutable(n):
    for func in (append_after_freezing, append_after_freezing.py_func):
        with pytest.raises(ValueError, match="list is immutable"):
            func(n, 4)
    assert append_after_freezing(n, 0) == append_after_freezing.py_func(n, 0) == n


@njit
def running_sums(x, rounds):
    for r in range(rounds):
        for i in range(1, len(x)):
            x[i] = x[i - 1] + x[i] * 0.5
    out = typed.List.empty_list(ruchey.float64)
    for v in x:
        out.append(v * 2.0)
    return out


@pytest.mark.parametrize("n", [1, 7, 300])
def test_loops_of_stores_and_appends_give_pythons_results(n):
    values = [float(v) for v in make_rng(seed_of("sums", n)).normal(size=n)]
    got = running_sums(typed.List(values), 3)
    assert list(got) == list(running_sums.py_func(typed.List(values), 3))
