"""Typed lists, dicts and Python lists whose items are tuples holding
jitclass instances ((Order, int64) as hftbacktest's order bus keeps them,
((Order, int64), str), (Order, array, typed List)): built, changed,
popped and returned, each checked against the function's Python original
on generated inputs; the references the tuples hold counted (the
instances keep an argument array alive exactly as long as they live)."""
import gc
import sys

import numpy as np
import pytest

from conftest import seed_of
from ruchey import njit, typed, types
from ruchey.experimental import jitclass


@jitclass([("oid", types.int64), ("qty", types.float64), ("book", types.float64[:])])
class Order:
    def __init__(self, oid, qty, book):
        self.oid = oid
        self.qty = qty
        self.book = book


OrderType = Order.class_type.instance_type
Timed = types.Tuple((OrderType, types.int64))


def summary(bus):
    return [(o.oid, o.qty, t) for o, t in bus]


# ---------------------------------------------------------------- lists

@njit
def order_bus(book, qtys, stamps):
    bus = [(Order(0, 0.0, book), 0)]
    bus.pop()
    for i in range(len(qtys)):
        bus.append((Order(i, qtys[i], book), stamps[i]))
        if stamps[i] % 3 == 0 and len(bus) > 1:
            order, stamp = bus.pop(0)  # the order outlives its place in the list
            order.qty += stamp
            bus.insert(len(bus) // 2, (order, stamp + 1))
        if stamps[i] % 5 == 0:
            bus[len(bus) - 1] = (Order(-i, 1.5, book), -stamps[i])
    if len(bus) > 2:
        del bus[1]
        bus.reverse()
        bus.extend(bus[:2])
    copy = bus.copy()
    copy.append((Order(99, 9.0, book), 99))
    total = 0.0
    for order, stamp in bus + copy:
        total += order.qty * stamp + order.book[0]
    return [(o.oid, o.qty, t) for o, t in bus], total, len(copy)


@pytest.mark.parametrize("n", (0, 1, 2, 7, 40))
def test_lists_of_instance_tuples_agree_with_python(n):
    rng = np.random.default_rng(seed_of("order bus", n))
    book, qtys, stamps = rng.normal(size=3), rng.normal(size=n), rng.integers(-20, 20, n)
    assert order_bus(book, qtys, stamps) == order_bus.py_func(book, qtys, stamps)


@njit
def nested_bus(book, n):
    bus = typed.List.empty_list(types.Tuple((Timed, types.unicode_type)))
    for i in range(n):
        bus.append(((Order(i, i * 0.5, book), i), "o" + str(i)))
    return bus


def test_tuples_in_tuples_of_instances_box_back():
    book = np.ones(2)
    got = nested_bus(book, 5)
    assert [(o.oid, o.qty, t, s) for (o, t), s in got] == [(i, i * 0.5, i, "o" + str(i)) for i in range(5)]


# ---------------------------------------------------------------- dicts

@njit
def order_book(book, keys, qtys):
    d = {}
    for i in range(len(keys)):
        d[keys[i]] = (Order(i, qtys[i], book), "k" + str(keys[i]))
    got = d.get(-1, (Order(-1, 0.0, book), "none"))
    if len(keys) > 1:
        d.pop(keys[1])
    e = d.copy()
    e.setdefault(100, (Order(100, 1.0, book), "set"))
    return [(k, v[0].oid, v[0].qty, v[1]) for k, v in e.items()], got[1], len(d)


@pytest.mark.parametrize("n", (0, 1, 3, 30))
def test_dicts_of_instance_tuples_agree_with_python(n):
    rng = np.random.default_rng(seed_of("order book", n))
    book, keys, qtys = rng.normal(size=2), rng.integers(0, 2 * n + 1, n), rng.normal(size=n)
    assert order_book(book, keys, qtys) == order_book.py_func(book, keys, qtys)


# ---------------------------------------------------------------- from and back to Python

@njit
def drain(bus):
    total = 0.0
    while len(bus) > 1:
        order, stamp = bus.pop()
        total += order.qty * stamp
    bus.append((Order(7, 7.0, bus[0][0].book), 7))
    return total


def test_typed_and_python_lists_of_instance_tuples_pass_both_ways():
    book = np.zeros(1)
    made = typed.List.empty_list(Timed)
    plain = []
    for i in range(6):
        made.append((Order(i, i + 0.5, book), i))
        plain.append((Order(i, i + 0.5, book), i))
    expected = drain.py_func([(Order(i, i + 0.5, book), i) for i in range(6)])
    assert drain(made) == expected
    assert drain(plain) == expected
    assert summary(made) == summary(plain) == [(0, 0.5, 0), (7, 7.0, 7)]


# ---------------------------------------------------------------- lifetimes

@njit
def churn(book, n):
    bus = typed.List.empty_list(Timed)
    kept = {0: (Order(0, 0.0, book), 0)}
    for i in range(n):
        bus.append((Order(i, 1.0, book), i))
        if i % 3 == 2:
            order, stamp = bus.pop(0)
            kept[i % 11] = (order, stamp)
    bus.clear()
    return kept


def test_instances_in_tuples_live_as_long_as_their_containers():
    book = np.arange(3.0)
    base = sys.getrefcount(book)
    for _ in range(50):
        churn(book, 300)
    gc.collect()
    assert sys.getrefcount(book) == base  # every instance freed: none keeps the array
    kept = churn(book, 300)
    assert sys.getrefcount(book) > base
    assert sorted((k, v[0].oid, v[1]) for k, v in kept.items()) == \
        sorted((k, v[0].oid, v[1]) for k, v in churn.py_func(book, 300).items())
    del kept
    gc.collect()
    assert sys.getrefcount(book) == base


# ---------------------------------------------------------------- refused

@njit
def too_many_instances(book, n):
    o = Order(0, 0.0, book)
    return [(o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, o, i) for i in range(n)]  # 17: one past the bound


def test_tuples_of_too_many_instances_or_wrong_items_are_clear_errors():
    import ruchey
    with pytest.raises(ruchey.TypingError, match="lists of .* are not supported"):
        too_many_instances(np.zeros(1), 2)
    bus = typed.List.empty_list(Timed)
    with pytest.raises(TypeError):
        bus.append((1, 2))
    with pytest.raises(TypeError):
        bus.append((Order(1, 1.0, np.zeros(1)),))
    assert len(bus) == 0


# ---------------------------------------------------------------- values got and stored back

@njit
def regrouped(book, keys, missing):
    orders = {}
    for i in range(len(keys)):
        orders[keys[i]] = Order(keys[i], i * 0.5, book)
    ladders = typed.Dict.empty(types.int64, types.DictType(types.int64, OrderType))
    for i in range(len(keys) + missing):
        order = orders.get(i)  # an Optional, a reference of its own
        if order is None:
            continue
        ladder = ladders.setdefault(i % 3, typed.Dict.empty(types.int64, OrderType))
        ladder[i] = order  # the Optional's value
    if missing:
        ladders.setdefault(-1, typed.Dict.empty(types.int64, OrderType))[0] = orders.get(-1)  # None: TypeError
    return sorted([(p, i, o.qty) for p, ladder in ladders.items() for i, o in ladder.items()])


@njit
def regrouped_mistyped(book, keys):
    # hftbacktest's: an empty dict of dicts written where a dict of orders is stored takes the value type, as
    # Numba casts one dict type to another (Python's typed.Dict refuses it: compared with regrouped's)
    orders = {}
    for i in range(len(keys)):
        orders[keys[i]] = Order(keys[i], i * 0.5, book)
    ladders = typed.Dict.empty(types.int64, types.DictType(types.int64, OrderType))
    for i in range(len(keys)):
        ladders.setdefault(i % 3, typed.Dict.empty(types.int64, types.DictType(types.int64, OrderType)))[i] = orders[i]
    return sorted([(p, i, o.qty) for p, ladder in ladders.items() for i, o in ladder.items()])


def test_optional_values_got_are_owned_and_stored_unwrapped():
    book = np.zeros(2)
    base = sys.getrefcount(book)
    for n in (0, 1, 4, 25):
        keys = np.random.default_rng(seed_of("regrouped", n)).permutation(n)
        assert regrouped(book, keys, 0) == regrouped.py_func(book, keys, 0) == regrouped_mistyped(book, keys)
        if n:
            with pytest.raises(TypeError):
                regrouped(book, keys, 1)
    gc.collect()
    assert sys.getrefcount(book) == base


# ---------------------------------------------------------------- instances that may be None

@njit
def maybe_orders(book, n):
    bus = []
    for i in range(n):
        bus.append((Order(i, i * 1.5, book) if i % 3 else None, i))
    total = 0.0
    for order, stamp in bus:
        if order is not None:
            total += order.qty * stamp
    if n > 1:
        bus.pop(0)
        bus.pop()
    return total, bus


def test_tuples_of_optional_instances_box_back_with_their_nones():
    book = np.ones(1)
    base = sys.getrefcount(book)
    for n in (0, 1, 2, 9, 40):
        got, expected = maybe_orders(book, n), maybe_orders.py_func(book, n)
        assert got[0] == expected[0]
        assert [(o if o is None else (o.oid, o.qty), t) for o, t in got[1]] == \
            [(o if o is None else (o.oid, o.qty), t) for o, t in expected[1]]
    del got, expected
    gc.collect()
    assert sys.getrefcount(book) == base


@njit
def instances_or_nones(book, n):
    items = []
    for i in range(n):
        items.append(Order(i, 0.5 * i, book) if i % 2 else None)  # a list of Optional instances, as Numba's
    items.insert(0, None)
    last = items.pop()
    kept = [o.qty for o in items if o is not None]
    return kept, last is None, items


def test_lists_of_optional_instances_hold_their_nones():
    book = np.zeros(1)
    base = sys.getrefcount(book)
    for n in (1, 2, 7, 30):
        got, expected = instances_or_nones(book, n), instances_or_nones.py_func(book, n)
        assert got[:2] == expected[:2]
        assert [o if o is None else o.oid for o in got[2]] == [o if o is None else o.oid for o in expected[2]]
    del got, expected
    gc.collect()
    assert sys.getrefcount(book) == base


def test_dict_values_of_tuples_holding_lists_of_arrays_agree_with_python():
    """{k: ([arrays], n)}: a tuple holding a list of arrays is a dict value
    (it was refused as one), its list's arrays counted while the dict holds
    them."""
    @njit
    def weighted(x):
        d = {1: ([np.ones(x)], 1)}
        d[2] = ([np.zeros(2), np.arange(float(x))], 5)
        for k in range(3, 3 + x):
            d[k] = ([np.full(k, 0.5)], k)
        s = 0.0
        for k in d:
            arrays, n = d[k]
            for a in arrays:
                s += a.sum() * n
        return s, len(d)

    for x in (0, 1, 4, 30):
        assert weighted(x) == weighted.py_func(x)
