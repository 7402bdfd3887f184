"""typed.List's room and immutability, as Numba's typed list has them:
``_allocated()`` is the room it holds, over-allocated as Numba's (and
CPython 3.7's list) over-allocate on growth and give back on shrinking,
exactly what ``List.empty_list(t, allocated=n)`` asked for at first;
``_make_immutable()`` makes every later change a ValueError ("list is
immutable") and ``_is_mutable()`` tells. Compiled code and Python share the
list, so each is checked against the function's py_func (which runs the
same typed.List from Python) on generated sequences of changes, and the
room against a model of Numba's over-allocation."""
import textwrap

import pytest

import ruchey
from ruchey import njit, typed

from conftest import make_rng, seed_of


def numba_room(allocated, size):
    """The room Numba's typed list has after resizing to size items from allocated."""
    if allocated >= size >= allocated >> 1:
        return allocated
    return size + (size >> 3) + (3 if size < 9 else 6) if size else 0


@njit
def rooms_while_changed(ops, values):
    lst = typed.List.empty_list(ruchey.int64)
    rooms = typed.List.empty_list(ruchey.int64)
    for k in range(len(ops)):
        op = ops[k]
        if op == 0:
            lst.append(values[k])
        elif op == 1 and len(lst):
            lst.pop()
        elif op == 2:
            lst.insert(values[k] % (len(lst) + 1), values[k])
        elif op == 3 and len(lst):
            del lst[values[k] % len(lst)]
        elif op == 4:
            lst.extend((values[k], values[k] + 1))
        rooms.append(lst._allocated())
    return rooms


def changes(seed, n):
    rng = make_rng(seed)
    return [int(v) for v in rng.choice(5, n, p=[0.45, 0.3, 0.1, 0.1, 0.05])], [int(v) for v in rng.integers(0, 100, n)]


@pytest.mark.parametrize("n", [1, 17, 60, 300])
def test_room_grows_and_shrinks_as_numbas(n):
    ops, values = changes(seed_of("room", n), n)
    got = list(rooms_while_changed(typed.List(ops), typed.List(values)))
    assert got == list(rooms_while_changed.py_func(typed.List(ops), typed.List(values)))
    size, room, model = 0, 0, []
    for op, v in zip(ops, values):  # each change resizes by one item, as Numba's list does
        for step in {0: [1], 1: [-1] if size else [], 2: [1], 3: [-1] if size else [], 4: [1, 1]}[op]:
            size += step
            room = numba_room(room, size)
        model.append(room)
    assert got == model


def test_appends_and_pops_from_python_keep_the_same_room():
    x = typed.List.empty_list(ruchey.int32)
    rooms = []
    for i in range(20):
        x.append(i)
        rooms.append(x._allocated())
    while len(x):
        x.pop()
        rooms.append(x._allocated())
    assert rooms[:17] == [4, 4, 4, 4, 8, 8, 8, 8, 16, 16, 16, 16, 16, 16, 16, 16, 25]
    assert rooms[-5:] == [8, 6, 5, 4, 0]


@pytest.mark.parametrize("allocated", [0, 1, 3, 8, 15, 100])
def test_empty_list_has_the_room_asked_for(allocated):
    @njit
    def made(n):
        return typed.List.empty_list(ruchey.int32, n)._allocated(), \
            typed.List.empty_list(ruchey.float64, allocated=n)._allocated()

    assert made(allocated) == (allocated, allocated)
    assert typed.List.empty_list(ruchey.int32, allocated)._allocated() == allocated
    assert typed.List.empty_list(ruchey.int32, allocated=allocated)._allocated() == allocated


def test_clear_gives_the_room_back():
    @njit
    def cleared(n):
        x = typed.List.empty_list(ruchey.int64)
        for i in range(n):
            x.append(i)
        before = x._allocated()
        x.clear()
        return before, x._allocated(), len(x)

    for n in (0, 3, 40):
        assert cleared(n) == cleared.py_func(n)
    assert cleared(40)[1:] == (0, 0)


# ---------------------------------------------------------------- immutability

CHANGES = ["lst.append(0)", "lst[0] = 0", "lst.pop()", "lst.pop(0)", "del lst[0]", "lst.extend((0,))",
           "lst.insert(0, 0)", "lst.clear()", "lst.reverse()", "lst.sort()", "lst.remove(1)", "lst[0:1] = lst",
           "del lst[:1]"]


def frozen_then(line):
    namespace = {"typed": typed}
    exec(textwrap.dedent(f"""
        def change(items):
            lst = typed.List()
            for v in items:
                lst.append(v)
            lst._make_immutable()
            {line}
            return lst
        """), namespace)
    return njit(namespace["change"])


@pytest.mark.parametrize("line", CHANGES)
def test_every_change_of_an_immutable_list_is_a_value_error(line):
    change = frozen_then(line)
    items = typed.List([1, 2, 3])
    for func in (change, change.py_func):
        with pytest.raises(ValueError, match="list is immutable"):
            func(items)
    assert list(items) == [1, 2, 3]


@pytest.mark.parametrize("n", [1, 4, 9])
def test_an_immutable_list_is_still_read(n):
    @njit
    def read(items):
        lst = typed.List()
        for v in items:
            lst.append(v)
        was = lst._is_mutable()
        lst._make_immutable()
        total = 0
        for v in lst:
            total += v
        return was, lst._is_mutable(), len(lst), lst[0], lst[-1], total, lst.count(lst[0]), lst.index(lst[-1]), \
            lst.copy()._is_mutable(), lst[1:]._is_mutable()

    items = typed.List([int(v) for v in make_rng(seed_of("read", n)).integers(-9, 9, n)])
    assert read(items) == read.py_func(items)
    assert read(items)[:2] == (True, False)


def test_a_list_made_immutable_in_compiled_code_stays_so_in_python():
    @njit
    def freeze(lst):
        lst._make_immutable()

    x = typed.List([1.5, 2.5])
    assert x._is_mutable()
    freeze(x)
    assert not x._is_mutable()
    for change in (lambda: x.append(1.0), lambda: x.__setitem__(0, 1.0), lambda: x.__delitem__(0), x.pop,
                   lambda: x.extend([1.0]), lambda: x.insert(0, 1.0), x.clear, x.reverse, x.sort,
                   lambda: x.remove(1.5), lambda: x.__setitem__(slice(0, 1), [3.0]), lambda: x.__iadd__([1.0])):
        with pytest.raises(ValueError, match="list is immutable"):
            change()
    assert list(x) == [1.5, 2.5] and x[0] == 1.5 and len(x) == 2
    y = x.copy()
    y.append(3.5)
    assert list(y) == [1.5, 2.5, 3.5] and y._is_mutable()
