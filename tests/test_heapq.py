"""The heapq module in compiled code: heapify, heappush, heappop,
heapreplace, heappushpop, nlargest and nsmallest on typed lists of numbers
and of tuples, each call leaving the list in CPython's order (checked after
every call against py_func on generated inputs), IndexError on an empty
heap, and a TypingError for items without an order."""
import heapq

import numpy as np
import pytest

import ruchey
from ruchey import njit, typed

from conftest import AS_NUMBA, make_rng, rss_bytes, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's typed lists (numba's reflected lists differ)")

PUSH, POP, REPLACE, PUSHPOP, APPEND, HEAPIFY = range(6)


def exact(items):
    """Items as comparable values that tell -0.0 from 0.0 (the heap's layout
    of equal items is checked, not just their values)."""
    return [repr(x) if isinstance(x, tuple) else repr(float(x)) if isinstance(x, float) else int(x) for x in items]


def apply(h, op, v, out):
    """One heap call on h (APPEND breaks the invariant for HEAPIFY to mend);
    what it gives and h's items afterwards logged into out."""
    if op == PUSH:
        heapq.heappush(h, v)
    elif op == POP:
        if len(h):
            out.append(heapq.heappop(h))
    elif op == REPLACE:
        if len(h):
            out.append(heapq.heapreplace(h, v))
    elif op == PUSHPOP:
        out.append(heapq.heappushpop(h, v))
    elif op == APPEND:
        h.append(v)
    else:
        heapq.heapify(h)
    for x in h:
        out.append(x)


apply_jit = njit(apply)


@njit
def run_numbers(vals, ops):
    h = [vals[0]]
    h.pop()
    out = [vals[0]]
    out.pop()
    for i in range(len(ops)):
        apply_jit(h, ops[i], vals[i], out)
    return h, out


def run_numbers_py(vals, ops):
    h, out = [], []
    for i in range(len(ops)):
        apply(h, ops[i], vals[i], out)
    return h, out


@njit
def run_tuples(a, b, ops):
    h = [(a[0], b[0])]
    h.pop()
    out = [(a[0], b[0])]
    out.pop()
    for i in range(len(ops)):
        apply_jit(h, ops[i], (a[i], b[i]), out)
    return h, out


def run_tuples_py(a, b, ops):
    h, out = [], []
    for i in range(len(ops)):
        apply(h, ops[i], (int(a[i]), float(b[i])), out)
    return h, out


def gen_ops(rng, n):
    """Mostly pushes, then pops and the rest; a heapify after appends."""
    return rng.choice(6, size=n, p=[0.35, 0.2, 0.12, 0.12, 0.15, 0.06]).astype(np.int64)


def gen_values(rng, kind, n):
    if kind == "ints":
        return rng.integers(-5, 6, size=n)  # duplicates
    if kind == "wide":
        return rng.integers(-(2**62), 2**62, size=n)
    v = rng.integers(-4, 5, size=n) * 0.5
    v[rng.random(n) < 0.2] = -0.0  # -0.0 and 0.0 equal: their places show the layout
    return v


@pytest.mark.parametrize("kind", ["ints", "wide", "floats"])
@pytest.mark.parametrize("n", [1, 2, 7, 40, 300])
def test_heap_calls_leave_cpythons_layout(kind, n):
    rng = make_rng(seed_of("heap", kind, n))
    for _ in range(3):
        vals, ops = gen_values(rng, kind, n), gen_ops(rng, n)
        h, out = run_numbers(vals, ops)
        eh, eout = run_numbers_py(vals.tolist(), ops.tolist())
        assert exact(h) == exact(eh)
        assert exact(out) == exact(eout)


@pytest.mark.parametrize("n", [1, 5, 60, 400])
def test_heaps_of_tuples_compare_lexicographically(n):
    rng = make_rng(seed_of("heap tuples", n))
    for _ in range(3):
        a, b, ops = rng.integers(0, 3, size=n), gen_values(rng, "floats", n), gen_ops(rng, n)
        h, out = run_tuples(a, b, ops)
        eh, eout = run_tuples_py(a, b, ops.tolist())
        assert exact(h) == exact(eh)
        assert exact(out) == exact(eout)


@njit
def run_named(prio, names, ops):
    h = [(prio[0], names[0])]
    h.pop()
    out = [(prio[0], names[0])]
    out.pop()
    for i in range(len(ops)):
        apply_jit(h, ops[i], (prio[i], names[i]), out)
    return h, out, heapq.nsmallest(3, h)


def run_named_py(prio, names, ops):
    h, out = [], []
    for i in range(len(ops)):
        apply(h, ops[i], (prio[i], names[i]), out)
    return h, out, heapq.nsmallest(3, h)


@pytest.mark.parametrize("n", [1, 6, 80, 500])
def test_heaps_of_priorities_and_strs(n):
    """(priority, name) items, the usual task queue: equal priorities
    ordered by their strs, as Python's tuples are."""
    rng = make_rng(seed_of("heap named", n))
    for _ in range(3):
        prio = gen_values(rng, "floats", n)
        names = typed.List(["n" + "x" * int(k) + str(int(j)) for k, j in zip(rng.integers(0, 3, n), rng.integers(0, 4, n))])
        ops = gen_ops(rng, n)
        h, out, best = run_named(prio, names, ops)
        eh, eout, ebest = run_named_py(prio.tolist(), list(names), ops.tolist())
        assert exact(h) == exact(eh)
        assert exact(out) == exact(eout)
        assert exact(best) == exact(ebest)


def test_heaps_of_strs_release_them():
    prio = np.arange(200.0) % 7
    names = typed.List([str(i) * 3 for i in range(200)])
    ops = np.array([PUSH, PUSH, POP, PUSHPOP, REPLACE] * 40)
    run_named(prio, names, ops)
    before = rss_bytes()
    for _ in range(300):
        run_named(prio, names, ops)
    assert rss_bytes() - before < 8 << 20


@njit
def heapify_list(x):
    heapq.heapify(x)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 10, 257, 3000, 10001])  # past 2500 CPython heapifies in another order
def test_heapify_of_a_typed_list_argument(n):
    rng = make_rng(seed_of("heapify", n))
    for vals in (rng.integers(-50, 50, size=n).tolist(), rng.standard_normal(n).tolist()):
        x = typed.List(vals)
        if not vals:
            x = typed.List.empty_list(ruchey.int64)
        heapify_list(x)
        heapq.heapify(vals)
        assert list(x) == vals


@njit
def push_all_pop_all(vals):
    h = [vals[0]]
    h.clear()
    for v in vals:
        heapq.heappush(h, v)
    first = h[0]
    out = []
    while len(h):
        out.append(heapq.heappop(h))
    return first, out


def test_pushing_then_popping_sorts():
    rng = make_rng(seed_of("heapsort"))
    vals = rng.standard_normal(1000)
    first, out = push_all_pop_all(vals)
    assert first == vals.min() and list(out) == sorted(vals.tolist())


@njit
def heap_from_empty_literal(vals):
    h = []
    for v in vals:
        heapq.heappush(h, v)
    return h


def test_a_heap_typed_by_its_first_push():
    vals = np.array([5, 3, 9, 1, 1, 7])
    assert list(heap_from_empty_literal(vals)) == heap_from_empty_literal.py_func(vals.tolist())


@njit
def nbest(k, vals):
    x = list(vals)
    return heapq.nlargest(k, x), heapq.nsmallest(k, x)


@njit
def nbest_tuples(k, a, b):
    x = [(a[i], b[i]) for i in range(len(a))]
    return heapq.nlargest(k, x), heapq.nsmallest(k, x)


@pytest.mark.parametrize("n", [0, 1, 5, 100])
def test_nlargest_and_nsmallest(n):
    rng = make_rng(seed_of("nbest", n))
    for vals in (rng.integers(-3, 4, size=n), gen_values(rng, "floats", n)):
        for k in (-1, 0, 1, 2, n - 1, n, n + 3):
            big, small = nbest(k, vals)
            assert exact(big) == exact(heapq.nlargest(k, vals.tolist()))
            assert exact(small) == exact(heapq.nsmallest(k, vals.tolist()))
    a, b = rng.integers(0, 3, size=n), gen_values(rng, "floats", n)
    pairs = [(int(x), float(y)) for x, y in zip(a, b)]
    for k in (0, 1, 3, n):
        big, small = nbest_tuples(k, a, b)
        assert exact(big) == exact(heapq.nlargest(k, pairs)) and exact(small) == exact(heapq.nsmallest(k, pairs))


@njit
def nbest_of(k, vals):
    return heapq.nlargest(k, vals), heapq.nsmallest(k, vals)


@njit
def nbest_of_range(k, n):
    return heapq.nlargest(k, range(n, -n, -3)), heapq.nsmallest(k, range(n, -n, -3))


@pytest.mark.parametrize("n", [0, 1, 6, 40])
def test_nlargest_and_nsmallest_of_any_iterable(n):
    """Of an array, a tuple, a range or a str too, as CPython's take any iterable."""
    rng = make_rng(seed_of("nbest of", n))
    vals = gen_values(rng, "floats", n)
    ints = rng.integers(-5, 6, size=n)
    for x in (vals, ints, tuple(ints[:8].tolist()) or (2, 1)):  # (an empty tuple has no item type)
        for k in (-2, 0, 1, 3, n, n + 2):
            big, small = nbest_of(k, x)
            want_big, want_small = nbest_of.py_func(k, x)
            assert exact(big) == exact(want_big) and exact(small) == exact(want_small)
            assert nbest_of_range(k, n) == nbest_of_range.py_func(k, n)
            assert nbest_of(k, "heapq"[:n]) == nbest_of.py_func(k, "heapq"[:n])


def test_nlargest_of_a_non_iterable_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="nlargest"):
        njit(lambda n: heapq.nlargest(2, n))(5)


@njit
def pop_empty(n):
    h = [1.5]
    for _ in range(n):
        heapq.heappop(h)


@njit
def replace_empty(n):
    h = [1]
    h.pop()
    return heapq.heapreplace(h, n)


@njit
def pushpop_empty(n):
    h = [1]
    h.pop()
    return heapq.heappushpop(h, n), len(h)


def test_an_empty_heap_raises_as_python():
    for f, arg in ((pop_empty, 2), (replace_empty, 3)):
        with pytest.raises(IndexError) as want:
            f.py_func(arg)
        with pytest.raises(IndexError) as got:
            f(arg)
        assert str(got.value) == str(want.value)
    pop_empty(1)
    assert pushpop_empty(4) == pushpop_empty.py_func(4) == (4, 0)


def test_items_without_an_order_are_typing_errors():
    def dict_heap(n):
        h = [{n: 1.0}]
        heapq.heappush(h, {2: 0.5})

    def list_heap(n):
        h = [[n]]
        heapq.heapify(h)

    def array_heap(n):
        h = [np.zeros(n)]
        return heapq.heappop(h)

    def array_nlargest(n):
        return heapq.nlargest(2, [np.ones(n)])

    for f in (dict_heap, list_heap, array_heap, array_nlargest):
        with pytest.raises(ruchey.TypingError, match="cannot be ordered"):
            njit(f)(2)


def test_bad_heaps_and_items_are_typing_errors():
    def not_a_list(n):
        heapq.heappush((n, 1), 2)

    def wrong_item(n):
        h = [n]
        heapq.heappush(h, 1.5)

    def bad_count(n):
        return heapq.nsmallest(1.5, [n])

    with pytest.raises(ruchey.TypingError, match="takes a typed list as its heap"):
        njit(not_a_list)(1)
    with pytest.raises(ruchey.TypingError, match="cannot put float64 into"):
        njit(wrong_item)(1)
    with pytest.raises(ruchey.TypingError, match="First argument 'n' must be an integer"):  # (Numba's words)
        njit(bad_count)(1)
    for x in (3, 2.5, True):
        with pytest.raises(ruchey.TypingError, match="Second argument 'iterable' must be iterable"):
            njit(lambda n, x: heapq.nsmallest(n, x))(1, x)
    with pytest.raises(TypeError, match="not iterable"):
        heapq.nsmallest(1, 3)


def test_a_heap_of_complex_numbers_is_refused_in_pythons_words():
    def complex_heap(n):
        h = [n + 1j, n - 1j]
        heapq.heapify(h)

    with pytest.raises(TypeError, match="'<' not supported between instances of 'complex' and 'complex'"):
        complex_heap(1)
    with pytest.raises(ruchey.TypingError, match="'<' not supported between instances of 'complex' and 'complex'"):
        njit(complex_heap)(1)


@njit
def str_heap(words):
    h = list(words)
    heapq.heapify(h)
    kept = heapq.heappushpop(h, "banana")
    return kept, heapq.heapreplace(h, "cherry"), heapq.heappop(h), h


def test_a_heap_of_strs():
    words = ["pear", "fig", "apple", "kiwi", "fig", "date"]
    kept, replaced, popped, h = str_heap(typed.List(words))
    assert (kept, replaced, popped, list(h)) == str_heap.py_func(list(words))


@njit
def replace_empty_with(s):
    h = ["a"]
    h.pop()
    return heapq.heapreplace(h, s + "!")  # a str of the call's own, owned by the heap call


def test_an_empty_heap_releases_the_item_it_refused():
    s = "x" * 100_000  # 400 kB a copy: 200 leaked copies would be 80 MB
    for _ in range(5):
        with pytest.raises(IndexError):
            replace_empty_with(s)
    before = rss_bytes()
    for _ in range(200):
        with pytest.raises(IndexError):
            replace_empty_with(s)
    after = rss_bytes()
    if before is not None:
        assert after - before < 20 * 2**20


def nested_orders(rows):
    by_sort = sorted(rows)
    backwards = list(rows)
    backwards.sort(reverse=True)
    heap = list(rows)
    heapq.heapify(heap)
    popped = [heapq.heappop(heap) for _ in range(min(3, len(heap)))]
    return by_sort, backwards, popped, heap, heapq.nsmallest(2, rows), min(rows), max(rows)


@pytest.mark.parametrize("n", [1, 2, 9, 40])
def test_tuples_holding_tuples_order_as_pythons(n):
    """(a, (b, c)) compares as Python's: field by field, the inner tuple's in its place."""
    rng = make_rng(seed_of("nested order", n))
    a, b, c = rng.integers(0, 3, n), rng.integers(0, 3, n), rng.integers(-2, 2, n) / 2
    words = [(int(x), (str(y), float(z))) for x, y, z in zip(a, b, c)]
    deep = [(int(x), ((int(y), float(z)), int(x + y))) for x, y, z in zip(a, b, c)]
    f = njit(nested_orders)
    for rows in (words, deep):
        assert f(list(rows)) == nested_orders(list(rows))


@njit
def heap_call(h, op, v):
    """One heap call; what it gives (heapify's and heappush's nothing as v)."""
    if op == PUSH:
        heapq.heappush(h, v)
    elif op == POP:
        return heapq.heappop(h)
    elif op == REPLACE:
        return heapq.heapreplace(h, v)
    elif op == PUSHPOP:
        return heapq.heappushpop(h, v)
    else:
        heapq.heapify(h)
    return v


def stores_into(items, op, v):
    """Whether Numba's heap step for op stores into a list of these items
    (heapify sifts from two items on, pop and replace always move an item,
    pushpop only where the smallest item is less than v): where it does, a
    list made immutable refuses the call."""
    if op == HEAPIFY:
        return len(items) > 1
    if op == PUSHPOP:
        return len(items) > 0 and items[0] < v
    return op == PUSH or len(items) > 0


@pytest.mark.parametrize("op", [PUSH, POP, REPLACE, PUSHPOP, HEAPIFY])
def test_an_immutable_typed_list_refuses_the_heap_steps_that_store(op):
    rng = make_rng(seed_of("immutable heap", op))
    for n in (0, 1, 2, 5, 12):
        for _ in range(4):
            items = [int(x) for x in rng.integers(-20, 20, n)]
            heapq.heapify(items)
            v = int(rng.integers(-25, 25))
            frozen = typed.List.empty_list(ruchey.types.int64)
            for x in items:
                frozen.append(x)
            frozen._make_immutable()
            if not items and op in (POP, REPLACE):
                with pytest.raises(IndexError):
                    heap_call(frozen, op, v)
            elif stores_into(items, op, v):
                with pytest.raises(ValueError, match="list is immutable"):
                    heap_call(frozen, op, v)
            else:
                want = list(items)
                assert heap_call(frozen, op, v) == heap_call.py_func(want, op, v)
                assert list(frozen) == want
            assert list(frozen) == items  # (refused before any item moved)
