"""Typed dicts compared with == and != (equal where they hold the same
entries, in any order; keys of one kind of number compare across widths,
values by ==; never equal to another kind of value), and d.get(k, None),
d.pop(k, None): an Optional, None where k is missing. Each against the
function's Python original on generated dicts."""
import numpy as np
import pytest

from ruchey import TypingError, njit
from conftest import assert_same, make_rng


def entries(seed, count=12):
    """(keys, values) pairs of arrays: empty, repeated keys, negative and NaN values."""
    rng = make_rng(seed)
    out = [([], []), ([0], [float("nan")]), ([1, 2], [-0.0, 0.0])]
    for _ in range(count):
        n = int(rng.integers(0, 6))
        out.append((rng.integers(-4, 4, size=n), rng.integers(-3, 3, size=n).astype(float)))
    return [(np.asarray(k, dtype=np.int64), np.asarray(v, dtype=float)) for k, v in out]


@njit
def compare(ak, av, bk, bv):
    a = {0: 0.0}
    a.clear()
    b = {np.int32(0): np.float32(0)}
    b.clear()
    for i in range(len(ak)):
        a[ak[i]] = av[i]
    for i in range(len(bk)):
        b[np.int32(bk[i])] = np.float32(bv[i])
    return a == b, a != b, a == a, b != b, a == 1, a != (1,)


def test_equality_of_dicts_matches_python():
    cases = entries(1)
    for ak, av in cases:
        for bk, bv in cases[:6]:
            assert compare(ak, av, bk, bv) == compare.py_func(ak, av, bk, bv)


@njit
def mixed_kinds(n):
    a = {k: str(k) for k in range(n)}
    b = {str(k): k for k in range(n)}
    c = {k: k for k in range(n)}
    return a == b, a == c, a != c


def test_dicts_of_other_key_or_value_kinds_are_equal_only_when_empty():
    for n in range(3):
        assert mixed_kinds(n) == mixed_kinds.py_func(n)


@njit
def str_values(words, other):
    a = {i: w for i, w in enumerate(words)}
    b = {i: w for i, w in enumerate(other)}
    return a == b


def test_str_values_compare_by_content():
    words = ["a", "bb", "", "a"]
    for other in (words, words[:3], ["a", "bb", "", "b"], list(reversed(words))):
        assert str_values(words, other) == str_values.py_func(words, other)


@njit
def none_defaults(keys, vals, target):
    d = {0: 0.0}
    d.clear()
    for k, v in zip(keys, vals):
        d[k] = v
    got = d.get(target, None)
    popped = d.pop(target, None)
    again = d.pop(target, None)
    return got, popped, again, len(d)


def test_get_and_pop_with_none_default_are_optional():
    for keys, vals in entries(2):
        for target in set(keys.tolist()) | {-9}:
            assert_same(none_defaults, keys, vals, target)


def test_ordering_and_array_values_are_typing_errors():
    @njit
    def less(a):
        d = {1: a}
        return d < d

    @njit
    def arrays(a):
        d = {1: a}
        return d == d

    with pytest.raises(TypingError, match="only compared with == and !="):
        less(1.0)
    with pytest.raises(TypingError, match="are not compared"):
        arrays(np.zeros(2))
