"""Literal lists: a list written out whose items have no one type
([1, 'a', 2.5]) is Numba's LiteralList: read by constant indices, len,
`in`, count(), copy(), passed to other functions, walked by
literal_unroll, returned as the Python list it is; any change to it, a
variable index, a slice, index() and a plain for loop over it are
TypingErrors. literal_unroll also takes a list written out (of one type
or not), as Numba's makes it a tuple. Each against the Python original on
generated items."""
import numpy as np
import pytest

import ruchey
from ruchey import literal_unroll, njit
from conftest import assert_same, make_rng, numba_deviation


def items(seed, count=8):
    """(int, float, str) triples: negative, zero and positive numbers, an empty str."""
    rng = make_rng(seed)
    words = ["", "a", "cat", "b"]
    return [(int(rng.integers(-50, 50)), float(rng.normal()) * 10, words[int(rng.integers(0, len(words)))])
            for _ in range(count)] + [(0, 0.0, ""), (-1, -0.0, "a")]


@njit
def reads(i, x, s):
    l = [i, s, x, s, 'cat']
    c = l.copy()
    return (l[0] + l[2], l[1], l[-1], c[3], len(l), l.count(s), l.count('cat'), s in l, 'zzz' in l, i in l,
            x in l, 3 in l)


@numba_deviation("Numba's LiteralList of items known only at run time fails to lower count() and `in`")
def test_literal_list_reads_by_constant_index_len_in_count_copy():
    for i, x, s in items(1):
        assert_same(reads, i, x, s)


@njit
def first_doubled(l):
    return l[0] * 2, l[1], len(l)


@njit
def passes_on(i, s, a):
    return first_doubled([i, s, a])


def test_literal_list_passed_to_another_function():
    rng = make_rng(2)
    for i, _, s in items(2):
        a = rng.normal(size=int(rng.integers(0, 4)))
        assert passes_on(i, s, a) == first_doubled.py_func([i, s, a])


@njit
def returns(i, x, s):
    return [i, s, x]


@numba_deviation("Numba cannot box a LiteralList")
def test_returned_literal_list_is_a_python_list():
    for i, x, s in items(3):
        assert_same(returns, i, x, s)


@njit
def nested(i, s):
    inner = [s, i]
    l = [i, inner, [1, 2, 3], s]
    return l[1][0], l[1][1] + l[0], l[2][2], len(l[2]), l[3]


def test_literal_list_holds_lists_and_literal_lists():
    for i, _, s in items(4):
        assert_same(nested, i, s)


@njit
def branches(k, s):
    if k > 3:
        l = [s, k]
    else:
        l = ['other', -k]
    return l[0], l[1]


def test_literal_lists_of_one_type_unify_across_branches():
    for k in (-100, 0, 3, 4, 100):
        assert_same(branches, k, "x")


@njit
def unrolled_mixed(i, x):
    acc = 0.0
    n = 0
    for v in literal_unroll([1, 'a', 2.5, 'bc', True]):
        if isinstance(v, str):
            n += len(v)
        else:
            acc += v * i + x
    return acc, n


@njit
def unrolled_named(i):
    z = [12, 12.7, 3j, 4]
    acc = 0j  # complex from the start, as the compiled variable (every item's type at once)
    for a in literal_unroll(z):
        acc += a * i
        if acc.real > 30:
            break
    return acc.real, acc.imag, z[0], len(literal_unroll(z))


@njit
def unrolled_len_loop():
    z = ['apple', 'orange', 'banana']
    out = []
    for k in range(len(literal_unroll(z))):
        out.append(z[k])
    return out


def test_literal_unroll_walks_a_list_written_out():
    for i, x, _ in items(5):
        assert_same(unrolled_mixed, i, x)
        assert_same(unrolled_named, i)
    assert_same(unrolled_len_loop)


@njit
def shows(i, s):
    l = [i, s, 2.5]
    print(l)


@numba_deviation("Numba cannot print a LiteralList")
def test_literal_list_prints_as_a_list(capsys):
    for i, _, s in items(6, count=3):
        shows(i, s)
        got = capsys.readouterr().out
        shows.py_func(i, s)
        assert got == capsys.readouterr().out


def mutators():
    def append():
        l = ['a', 1]
        l.append(2j)

    def extend():
        l = ['a', 1]
        l.extend([2j, 3j])

    def insert():
        l = ['a', 1]
        l.insert(0, 2j)

    def remove():
        l = ['a', 1]
        l.remove('a')

    def pop():
        l = ['a', 1]
        l.pop()

    def clear():
        l = ['a', 1]
        l.clear()

    def sort():
        l = ['a', 1]
        l.sort()

    def reverse():
        l = ['a', 1]
        l.reverse()

    def setitem():
        l = ['a', 1]
        l[0] = 'b'

    def delitem():
        l = ['a', 1]
        del l[0]

    return [append, extend, insert, remove, pop, clear, sort, reverse, setitem, delitem]


@pytest.mark.parametrize("f", mutators(), ids=lambda f: f.__name__)
def test_changing_a_literal_list_is_a_typing_error(f):
    with pytest.raises(ruchey.TypingError, match="Cannot mutate a literal list"):
        njit(f)()


def variable_index(k):
    l = ['a', 1]
    return l[k]


def sliced(k):
    l = ['a', 'b', 1]
    return l[:2]


def index_of(k):
    l = ['a', 1]
    return l.index('a')


def looped(k):
    n = 0
    for v in ['a', 1]:
        n += 1
    return n


def not_unified(k):
    if k > 3:
        l = ['a', 1, 2j]
    else:
        l = ['b', 2]
    return l[0]


@pytest.mark.parametrize("f, message", [
    (variable_index, "Cannot __getitem__ on a literal list"),
    (sliced, "Cannot __getitem__ on a literal list"),
    (index_of, "list.index is unsupported for literal lists"),
    (looped, "iteration over the literal list|Invalid use of getiter"),
    (not_unified, "LiteralList"),
], ids=lambda p: getattr(p, "__name__", ""))
def test_reading_a_literal_list_by_what_it_lacks_is_a_typing_error(f, message):
    with pytest.raises(ruchey.TypingError, match=message):
        njit(f)(1)
