"""Strings inside tuple arguments: f(("a", "bc")), f((3, "x")), nested
tuples holding strs, such tuples as defaults, returned and passed on to
other compiled functions. The strs are unboxed for the call and released
after it (and when unboxing fails part way). Each result is compared with
the function's py_func on generated inputs."""
import random

import numpy as np
import pytest

import ruchey
from ruchey import njit, types

from conftest import AS_NUMBA, make_rng, rss_bytes

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages and signatures")


def same(f, *args):
    """f compiled against f itself; returns the result."""
    got, expected = njit(f)(*args), f(*args)
    assert got == expected, f"{got!r} != {expected!r}"
    assert type(got) is type(expected)
    return got


def words(rng, n, alphabet="abcxyzé€𝄞 "):
    """n strs of 0 to 6 characters, some outside Latin-1 and the BMP."""
    return ["".join(rng.choice(list(alphabet), int(rng.integers(0, 7)))) for _ in range(n)]


# ---------------------------------------------------------------- functions

def lengths(t):
    return len(t[0]) + 10 * len(t[1])


def joined(t):
    return t[0] + "|" + t[1]


def number_and_word(t):
    return t[1] * t[0]


def nested(t):
    n, (a, (b, x)) = t
    return a + b * n, x * n


def echo(t):
    return t


def swapped(t):
    return t[1], t[0]


def compared(t):
    return t[0] == t[1], t[0] < t[1], t[0] in t[1]


def loop_items(t):
    out = ""
    for w in t:
        out += w.upper()
    return out


def count_in(t, w):
    n = 0
    for x in t:
        if x == w:
            n += 1
    return n


def first_word(t):
    return t[0]


joined_jit, first_word_jit = njit(joined), njit(first_word)


def passes_on(t):
    return joined_jit(t) + first_word_jit(t)


def with_default(x, t=("lo", ("hi", 2))):
    return t[0] * x + t[1][0] * t[1][1]


def mixed(t):
    s, a, k = t
    return s + str(int(a.sum()) + k)


# ---------------------------------------------------------------- against py_func

def test_pairs_of_strs():
    rng = make_rng(1)
    ws = words(rng, 60)
    for a, b in zip(ws[::2], ws[1::2]):
        same(lengths, (a, b))
        same(joined, (a, b))
        same(swapped, (a, b))
        same(compared, (a, b))
        same(echo, (a, b))


def test_a_number_and_a_str():
    rng = make_rng(2)
    for w, n in zip(words(rng, 40), rng.integers(-2, 5, 40)):
        same(number_and_word, (int(n), w))
        same(echo, (int(n), w))


def test_nested_tuples_holding_strs():
    rng = make_rng(3)
    ws = words(rng, 40)
    for a, b, n in zip(ws[::2], ws[1::2], rng.integers(0, 4, 20)):
        same(nested, (int(n), (a, (b, float(n) / 2))))
        same(echo, (int(n), (a, (b, float(n) / 2))))


def test_homogeneous_tuples_of_strs_iterate():
    rng = make_rng(4)
    ws = words(rng, 30, alphabet="ab")
    for i in range(0, 27, 3):
        t = tuple(ws[i:i + 3])
        same(loop_items, t)
        same(count_in, t, ws[i])


def test_passed_on_to_other_compiled_functions():
    rng = make_rng(6)
    ws = words(rng, 20)
    for a, b in zip(ws[::2], ws[1::2]):
        same(passes_on, (a, b))


def test_with_an_array():
    rng = make_rng(5)
    for w in words(rng, 10):
        a = rng.integers(0, 9, 5).astype(np.float64)
        same(mixed, (w, a, 3))


def test_defaults_holding_strs():
    f = njit(with_default)
    for x in range(4):
        assert f(x) == with_default(x)
        assert f(x, ("a", ("b", 3))) == with_default(x, ("a", ("b", 3)))
        assert f(x, t=("", ("𝄞", 1))) == with_default(x, t=("", ("𝄞", 1)))


def test_named_tuples_holding_strs():
    from collections import namedtuple
    P = namedtuple("P", "name x")
    got = njit(echo)(P("ab", 2))
    assert got == P("ab", 2) and type(got) is P
    assert njit(number_and_word)((3, P("q", 1).name)) == "qqq"


def test_typeof():
    assert ruchey.typeof(("a", (1, "b"))) == types.Tuple(
        [types.unicode_type, types.Tuple([types.int64, types.unicode_type])])


# ---------------------------------------------------------------- bad input

@ruchey_only
def test_unsupported_items_still_refused():
    with pytest.raises(TypeError, match="item 1 of type 'object' is not supported"):
        njit(lengths)(("a", object()))
    with pytest.raises(TypeError, match="item 1 is a tuple whose item 0 of type 'object' is not supported"):
        njit(echo)(("a", (object(),)))


@ruchey_only
def test_a_failed_unboxing_releases_the_strs_made():
    f = njit("int64(Tuple([unicode_type, Tuple([unicode_type, int64])]))")(lambda t: len(t[0]) + len(t[1][0]) + t[1][1])
    assert f(("abc", ("de", 4))) == 9
    big = "x" * 10000
    for _ in range(2000):  # warm up
        with pytest.raises(OverflowError):
            f((big, (big, 2**70)))
    before = rss_bytes()
    for _ in range(100_000):
        with pytest.raises(OverflowError):
            f((big, (big, 2**70)))
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"
    with pytest.raises(TypeError, match="no matching definition"):
        f(("abc", ("de",)))
    g = njit("int64(Tuple([unicode_type, int64]), int64)")(lambda t, k: len(t[0]) + t[1] + k)
    assert g(("ab", 1), 2) == 5
    before = rss_bytes()
    for _ in range(100_000):  # the tuple's str made, then the next argument fails
        with pytest.raises(OverflowError):
            g((big, 1), 2**70)
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


def test_repeated_calls_leak_nothing():
    fs = njit(lengths), njit(echo), njit(nested), njit(with_default), njit(first_word)
    big = "y" * 1000
    args = [((big, "b"),), ((big, (1, "z")),), ((2, (big, ("c", 1.5))),), (3,), ((big, "q"),)]
    for f, a in zip(fs, args):
        f(*a)
    before = rss_bytes()
    for _ in range(100_000):
        for f, a in zip(fs, args):
            f(*a)
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


# ---------------------------------------------------------------- min() and max() of tuples holding strs

@njit
def extremes(a, b, s):
    x = max((a, s), (b, "y"), (a, "q" + s))
    y = min((a, s), (b, "y"))
    return x, y, max(s, "m", s + "z"), min(s + "a", s), max((1, s + "x"), (1, s))[1]


@pytest.mark.skipif(AS_NUMBA, reason="Numba refuses max() of tuples holding strs")
def test_min_and_max_of_tuples_holding_strs_order_as_python():
    rng = random.Random(4)
    for _ in range(200):
        a, b = rng.randrange(-2, 3), rng.randrange(-2, 3)
        s = "".join(rng.choice("amqyz") for _ in range(rng.randrange(0, 4)))
        assert extremes(a, b, s) == extremes.py_func(a, b, s)


@pytest.mark.skipif(AS_NUMBA, reason="Numba refuses max() of tuples holding strs")
def test_min_and_max_of_tuples_holding_strs_leak_nothing():
    assert extremes(1, 2, "abc") == extremes.py_func(1, 2, "abc")
    before = rss_bytes()
    for _ in range(100000):
        extremes(1, 2, "abc" * 20)
    if before is not None:
        assert rss_bytes() - before < 8 << 20


@njit
def extremes_of_list(n, s):
    rows = [(i % 3, s + str(i)) for i in range(n)]
    return max(rows), min(rows)


@pytest.mark.skipif(AS_NUMBA, reason="Numba refuses max() of tuples holding strs")
def test_min_and_max_of_a_list_of_tuples_holding_strs_order_as_python():
    for n in range(1, 12):
        assert extremes_of_list(n, "k") == extremes_of_list.py_func(n, "k")
    with pytest.raises(ValueError, match="empty"):
        extremes_of_list(0, "k")
    before = rss_bytes()
    for _ in range(50000):
        extremes_of_list(10, "x" * 30)
    if before is not None:
        assert rss_bytes() - before < 8 << 20


def test_max_of_tuples_of_a_str_and_a_list_orders_them_as_python():
    """Tuples holding a list compare as Python's: the list in its place, item by item."""
    @njit
    def pick(s, n):
        return max((s, [1, n]), (s, [1])), min((s, [n]), (s, [n, 0]))
    for s, n in (("a", 0), ("", -3), ("é", 5)):
        assert pick(s, n) == pick.py_func(s, n)
