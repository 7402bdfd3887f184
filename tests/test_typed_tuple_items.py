"""typed.List and typed.Dict made from Python whose items are tuples
holding typed containers (Numba's
List.empty_list(Tuple((ListType(int64), int64)))): filled from Python,
changed by compiled code, read back; the inner containers shared, not
copied, as Numba's. Each compiled function checked against its py_func on
generated inputs; items of another type are TypeErrors."""
import gc
import sys

import pytest

from ruchey import njit, typed, types

from conftest import AS_NUMBA, make_rng, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's typed containers")

PAIR = types.Tuple((types.ListType(types.int64), types.int64))


def pairs_of(rng, n):
    """A typed List of (typed List of ints, int) and its plain twin."""
    out = typed.List.empty_list(PAIR)
    plain = []
    for _ in range(n):
        xs = rng.integers(-20, 20, size=int(rng.integers(0, 6))).tolist()
        k = int(rng.integers(-5, 5))
        out.append((typed.List.empty_list(types.int64) if not xs else typed.List(xs), k))
        plain.append((list(xs), k))
    return out, plain


@njit
def weigh_and_grow(pairs):
    s = 0
    for xs, k in pairs:
        for x in xs:
            s += x * k
        xs.append(k)
    pairs.append(([s], len(pairs)))
    return s


def as_plain(pairs):
    return [(list(xs), k) for xs, k in pairs]


@pytest.mark.parametrize("n", [0, 1, 4, 13])
def test_a_list_of_pairs_holding_lists_matches_python(n):
    rng = make_rng(seed_of("tuple items", n))
    pairs, plain = pairs_of(rng, n)
    assert weigh_and_grow(pairs) == weigh_and_grow.py_func(plain)
    assert as_plain(pairs) == plain


def test_inner_lists_are_shared_with_their_python_objects():
    rng = make_rng(seed_of("tuple items shared"))
    xs = typed.List(rng.integers(0, 9, size=4).tolist())
    pairs = typed.List.empty_list(PAIR)
    pairs.append((xs, 2))
    xs.append(99)
    assert list(pairs[0][0]) == list(xs)
    weigh_and_grow(pairs)
    assert list(xs)[-1] == 2
    before = sys.getrefcount(xs)
    for _ in range(50):
        pairs[0]
    assert sys.getrefcount(xs) == before
    del xs
    gc.collect()
    assert list(pairs[0][0])[-1] == 2


@njit
def value_sums(d):
    out = 0.0
    for k, (inner, tag) in d.items():
        for v in inner.values():
            out += v * k
        out += len(tag)
    return out


def test_a_dict_of_tuples_holding_dicts_and_strs_matches_python():
    rng = make_rng(seed_of("tuple values"))
    value = types.Tuple((types.DictType(types.int64, types.float64), types.unicode_type))
    d = typed.Dict.empty(types.int64, value)
    plain = {}
    for k in rng.integers(0, 50, size=8).tolist():
        inner = typed.Dict.empty(types.int64, types.float64)
        for j in rng.integers(0, 9, size=3).tolist():
            inner[j] = float(rng.normal())
        tag = "t" * int(rng.integers(0, 4))
        d[k] = (inner, tag)
        plain[k] = (dict(inner), tag)
    assert value_sums(d) == pytest.approx(value_sums.py_func(plain), rel=1e-12)


def test_items_of_another_type_are_type_errors():
    pairs = typed.List.empty_list(PAIR)
    with pytest.raises(TypeError, match="cannot hold"):
        pairs.append((1, 2))
    with pytest.raises(TypeError, match="cannot hold"):
        pairs.append(([1, 2], 2))  # a Python list is no typed List


def test_tuples_of_more_held_references_than_items_hold_are_refused():
    many = types.Tuple(tuple([types.ListType(types.int64)] * 17))
    with pytest.raises(TypeError, match="not such a type"):
        typed.List.empty_list(many)
