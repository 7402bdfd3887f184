"""Lists whose items may be None: a list literal holding None with other
items, and [None] given arrays or numbers by append() later, are lists of
Optionals as in Numba (the literal made with the variable's item type).
Each against the function's Python original on generated inputs."""
import numpy as np
import pytest
import ruchey
from ruchey import njit

from conftest import make_rng


def none_first(n):
    factors = [None]  # index 0 unused: factors[j] is the j-th matrix
    for j in range(1, n):
        factors.append(np.full((j, j), float(j)))
    total = 0.0
    for j in range(1, n):
        m = factors[j]
        total += m[j - 1, 0] * j
    return total, len(factors), factors[0] is None


def mixed_literal(x):
    items = [None, x, None, x * 2.0]
    count = 0
    total = 0.0
    for v in items:
        if v is None:
            count += 1
        else:
            total += v
    return count, total


def with_arrays(a):
    rows = [a, None, a[::-1]]
    out = 0.0
    for r in rows:
        if r is not None:
            out += r.sum() * r[0]
    return out


def replaced(n):
    slots = [None, np.zeros(2), None]
    slots[0] = np.arange(float(n))
    slots[1] = None
    total = 0.0
    for s in slots:
        if s is not None:
            total += s.sum()
    return total, slots[1] is None


def read_none(n):
    items = [1.5, None]
    return items[n] + 1.0


@pytest.mark.parametrize("func", [none_first, replaced])
def test_lists_of_optional_arrays(func):
    for n in (1, 2, 5, 9):
        assert njit(func)(n) == func(n)


def test_literals_mixing_none_and_values():
    rng = make_rng(11)
    for x in rng.uniform(-5, 5, 6):
        assert njit(mixed_literal)(x) == mixed_literal(x)
    for size in (1, 4, 30):
        a = rng.standard_normal(size)
        assert njit(with_arrays)(a) == pytest.approx(with_arrays(a), rel=1e-12)


def test_a_none_item_where_a_value_is_needed_is_a_type_error():
    f = njit(read_none)
    assert f(0) == read_none(0)
    with pytest.raises(TypeError):
        read_none(1)
    with pytest.raises(TypeError, match="None"):
        f(1)


def appended_nones(n):
    items = [1.0]
    for i in range(n):
        items.append(None if i % 3 == 0 else i * 0.5)
    items.insert(1, None)
    total, nones = 0.0, 0
    for v in items:
        if v is None:
            nones += 1
        else:
            total += v
    return total, nones, len(items)


def returned(n):
    factors = [None]
    factors.append(np.arange(float(n)))
    return factors


def test_none_appended_or_inserted_makes_the_items_optional():
    for n in (0, 1, 5, 12):
        assert njit(appended_nones)(n) == appended_nones(n)


def test_a_list_of_optionals_returned_to_python():
    got = njit(returned)(4)
    assert len(got) == 2 and got[0] is None
    np.testing.assert_array_equal(got[1], returned(4)[1])


def appended_optional_variable(n):
    items = [0.5]
    for i in range(n):
        x = None
        if i % 2:
            x = i * 1.5
        items.append(x)
    total = 0.0
    for v in items:
        if v is not None:
            total += v
    return len(items), total


def test_an_optional_variable_appended():
    for n in (0, 1, 6):
        assert njit(appended_optional_variable)(n) == appended_optional_variable(n)


def kept_argument(a):
    items = [None]
    items.append(a)
    return items


def test_an_argument_array_kept_in_a_returned_list_of_optionals():
    import gc
    f = njit(kept_argument)
    for i in range(50):
        got = f(np.arange(5.0) * 2.0)  # the argument's only other owner goes with the call
        # the call's own objects are young: a whole collection (a second in a
        # worker that has run thousands of tests) only first and last
        gc.collect(2 if i in (0, 49) else 0)
        assert got[0] is None
        np.testing.assert_array_equal(got[1], np.arange(5.0) * 2.0)
        del got
