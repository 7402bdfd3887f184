"""min() and max() with key= and default=, as Python's: the first item
whose key is least (greatest) is kept, over lists, tuples, ranges, arrays
and several arguments; key= a compiled function or a lambda, one reading
the function's variables too; default= what an empty iterable gives (its
type unified with the items', None an Optional). Numba has neither
keyword. Every case against the function's own Python original on
generated inputs."""
import numpy as np
import pytest
import ruchey
from ruchey import njit, typed, types

from conftest import AS_NUMBA, assert_same, make_rng, numba_deviation, random_floats, random_ints, rss_bytes

pytestmark = numba_deviation("numba's min and max take no key= or default=")


@njit
def by_keys(xs, c):
    return (min(xs, key=lambda x: abs(x - c)), max(xs, key=lambda x: abs(x - c)),
            min(xs, key=lambda x: (x % 3, -x)), max(xs, key=abs))


def test_min_max_by_key_keep_the_first_best_as_python():
    rng = make_rng(71)
    for n in (1, 2, 7, 40):
        ints = random_ints(rng, n, -20, 20)  # ties: the first of equal keys is kept
        assert_same(by_keys, ints, 3)
        assert_same(by_keys, np.array(ints, dtype=np.int32), -2)
        floats = random_floats(rng, n, special=False)
        assert_same(by_keys, floats, 0.5)
        assert_same(by_keys, np.array(floats), 0.5)
        assert_same(by_keys, tuple(ints[:12]), 1)


@njit
def index_of_best(a):
    return max(range(len(a)), key=lambda i: a[i]), min(range(len(a)), key=lambda i: a[i])


@njit
def by_second(pairs):
    return max(pairs, key=lambda p: p[1]), min(pairs, key=lambda p: p[1])


@njit
def longest(words):
    return max(words, key=len), min(words, key=len), max(words, default="none"), min(words, key=len, default="")


def test_keys_of_indices_tuples_and_strs():
    rng = make_rng(72)
    a = np.array(random_ints(rng, 30, 0, 10))
    assert_same(index_of_best, a)
    pairs = list(zip(random_ints(rng, 12, 0, 5), random_floats(rng, 12, special=False)))
    assert_same(by_second, pairs)
    assert_same(longest, ["ab", "c", "déf", "gh", "xyz"])
    assert_same(longest, ["", "é"])


@njit
def several(a, b, c):
    return min(a, b, c, key=lambda x: x * x), max(a, b, key=abs), max(a, b, c, key=lambda x: -x)


def test_several_arguments_by_key():
    rng = make_rng(73)
    for a, b, c in zip(random_ints(rng, 20, -5, 5), random_ints(rng, 20, -5, 5), random_ints(rng, 20, -9, 9)):
        assert_same(several, a, b, c)
        assert_same(several, a / 4, b / 2, c * 1.5)


@njit
def with_defaults(xs, d):
    return (min(xs, default=d), max(xs, default=d), max(xs, default=None), min(xs, key=lambda x: -x, default=d),
            max(xs, key=None, default=d))


def test_default_is_what_an_empty_iterable_gives():
    rng = make_rng(74)
    for n in (0, 1, 5):
        assert_same(with_defaults, np.array(random_ints(rng, n, -9, 9)[-n:] if n else [], dtype=np.int64), 7)
        assert_same(with_defaults, np.array(random_floats(rng, n, special=False)), -1.5)
    items = typed.List.empty_list(types.float64)
    assert with_defaults(items, 0.5) == with_defaults.py_func([], 0.5)
    items.append(2.5)
    assert with_defaults(items, 0.5) == with_defaults.py_func([2.5], 0.5)


def test_an_empty_iterable_without_default_raises_value_error():
    with pytest.raises(ValueError):
        by_keys.py_func([], 1)
    with pytest.raises(ValueError, match="empty sequence"):
        by_keys(np.zeros(0, dtype=np.int64), 1)


def test_bad_keys_and_defaults_are_typing_errors():
    def default_with_several(a, b):
        return min(a, b, default=3)

    def key_not_a_function(xs):
        return max(xs, key=3)

    def key_of_arrays(xs):
        return max(xs, key=lambda x: np.zeros(x))

    with pytest.raises(TypeError):
        default_with_several(1, 2)
    with pytest.raises(ruchey.TypingError, match="Cannot specify a default"):
        njit(default_with_several)(1, 2)
    with pytest.raises(ruchey.TypingError, match="key="):
        njit(key_not_a_function)([1, 2])
    with pytest.raises(ruchey.TypingError, match="key function"):
        njit(key_of_arrays)([1, 2])


@pytest.mark.skipif(AS_NUMBA, reason="measures ruchey's memory")
def test_str_items_and_defaults_are_released():
    words = ["alpha" * 20, "be" * 30, "c" * 90]
    longest(words)
    before = rss_bytes()
    for _ in range(20000):
        longest(words)
        longest(["x" * 50])
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"
