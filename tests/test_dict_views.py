"""d.keys(), d.values() and d.items() as values in compiled code (not only
as a for loop's sequence): list(), sorted(), len() and `in` of them, held
in a variable and iterated later, and list(d), sorted(d), sum(d) of a
dict's keys. Each compared with the function's py_func on generated
inputs. Held in a variable, a view follows its dict as Numba's and
Python's do: an insert after it was made is seen by len(), for loops,
list() and `in`."""
import pytest

from ruchey import TypingError, njit

from conftest import AS_NUMBA, make_rng, seed_of
from test_typed import plain, same, tdict

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's typed containers (numba's reflected lists differ)")


def random_dict(rng, n):
    keys = rng.integers(-50, 50, size=n).tolist()
    return tdict("int64", "float64", [(k, round(float(rng.normal()), 3)) for k in keys])


@njit
def items_list(d):
    return list(d.items())


@njit
def keys_list(d):
    return list(d.keys())


@njit
def values_list(d):
    return list(d.values())


@njit
def sorted_items(d):
    return sorted(d.items())


@njit
def sorted_keys(d):
    return sorted(d)


@njit
def plain_list(d):
    return list(d)


@njit
def key_sum(d):
    return sum(d), sum(d.values(), 0.0)


def key_sum_in_order(d):
    """key_sum as compiled code adds: in order (as Numba, and CPython before
    3.12, whose sum() of floats compensates its rounding errors since)"""
    total = 0.0
    for v in d.values():
        total = total + v
    return sum(d), total


@njit
def view_lengths(d):
    return len(d.items()), len(d.keys()), len(d.values())


@njit
def items_held_then_walked(d):
    its = d.items()
    total = 0.0
    for k, v in its:
        total += k * v
    vals = d.values()
    for v in vals:
        total -= v
    return total


@njit
def pair_in_items(d, k, v):
    return (k, v) in d.items(), k in d.keys(), v in d.values()


@njit
def items_comprehension(d):
    return [k * 2 for k, v in d.items() if v > 0]


@njit
def min_max_of_views(d):
    return min(d.keys()), max(d.values()), min(d)


VIEWS = [items_list, keys_list, values_list, sorted_items, sorted_keys, plain_list, key_sum, view_lengths,
         items_held_then_walked, items_comprehension]


@pytest.mark.parametrize("f", VIEWS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [0, 1, 7, 40])
def test_dict_views_as_values_match_python(f, n):
    rng = make_rng(seed_of("views", f.__name__, n))
    d = random_dict(rng, n)
    if f is key_sum:
        assert key_sum(d) == key_sum_in_order(d)
    else:
        same(f, d)


@pytest.mark.parametrize("seed", range(3))
def test_pair_in_items_matches_python(seed):
    rng = make_rng(seed_of("pair in items", seed))
    d = random_dict(rng, 12)
    pairs = list(d.items())
    for k, v in pairs[:4]:
        same(pair_in_items, d, k, v)
        same(pair_in_items, d, k, v + 1.0)
        same(pair_in_items, d, k + 1000, v)


def test_min_max_of_views_match_python():
    rng = make_rng(seed_of("minmax views"))
    same(min_max_of_views, random_dict(rng, 9))


def test_min_of_empty_keys_raises_value_error():
    with pytest.raises(ValueError):
        min_max_of_views(tdict("int64", "float64", []))


@njit
def str_keys_sorted(words):
    d = {}
    for w in words.split(" "):
        d[w] = d.get(w, 0) + 1
    return sorted(d), list(d.items()), list(d.keys())


@pytest.mark.parametrize("words", ["b a c a b a d", "", "one"])
def test_str_keys_and_counts_match_python(words):
    assert plain(str_keys_sorted(words)) == str_keys_sorted.py_func(words)


@njit
def view_follows_its_dict(d, k, v):
    ks, vs, its = d.keys(), d.values(), d.items()
    before = len(ks)
    d[k] = v
    total = 0.0
    for x in vs:
        total += x
    walked = [a for a, b in its]
    return before, len(ks), len(vs), len(its), list(ks), sorted(vs), total, walked, k in ks, (k, v) in its, v in vs


@pytest.mark.parametrize("n", [0, 1, 5, 30])
def test_view_held_in_a_variable_follows_its_dict(n):
    rng = make_rng(seed_of("live views", n))
    d = random_dict(rng, n)
    for k in rng.integers(-60, 60, size=3).tolist():
        v = round(float(rng.normal()), 3)
        expected = view_follows_its_dict.py_func(dict(d), k, v)
        assert plain(view_follows_its_dict(d, k, v)) == plain(expected)
        assert plain(d) == {**plain(d), k: v}


@njit
def keys_of(d):
    return d.keys()


@njit
def view_made_by_a_callee(d, k):
    ks = keys_of(d)
    d[k] = 2.5
    total = 0
    for x in ks:
        total += x
    return total, len(ks)


def test_view_returned_by_a_compiled_callee_follows_its_dict():
    rng = make_rng(seed_of("callee view"))
    for n in (0, 3, 12):
        d = random_dict(rng, n)
        k = int(rng.integers(100, 200))
        grown = {**plain(d), k: 2.5}  # what the callee's view sees once the caller inserts k
        assert view_made_by_a_callee(d, k) == (sum(grown), len(grown))


@njit
def views_of(d):
    return d.keys(), d.values(), d.items()


def test_views_returned_to_python_are_the_dicts_parts():
    rng = make_rng(seed_of("boxed views"))
    d = random_dict(rng, 8)
    ks, vs, its = views_of(d)
    assert list(ks) == list(d.keys()) and list(vs) == list(d.values()) and list(its) == list(d.items())


@njit
def next_of_items(d):
    it = iter(d.items())
    return next(it)


def test_iter_of_a_view_walks_its_dict():
    rng = make_rng(seed_of("iter view"))
    d = random_dict(rng, 5)
    assert next_of_items(d) == next_of_items.py_func(dict(d))


@njit
def view_indexed(d):
    return d.keys()[0]


def test_a_view_cannot_be_indexed():
    with pytest.raises(TypingError, match="not subscriptable"):
        view_indexed(tdict("int64", "float64", [(1, 1.0)]))


@njit
def list_zip(a, b):
    return list(zip(a, b))


@njit
def list_enumerate(a):
    return list(enumerate(a))


def test_list_of_zip_and_enumerate():
    rng = make_rng(seed_of("zip enumerate"))
    a = rng.integers(0, 9, size=6)
    b = rng.normal(size=4)
    assert list(list_zip(a, b)) == list_zip.py_func(a, b)
    assert list(list_enumerate(b)) == list_enumerate.py_func(b)


@njit
def items_of_empty_untyped():
    d = {}
    return len(d.items())


def test_views_of_a_dict_never_typed_are_refused():
    with pytest.raises(TypingError, match="empty dict"):
        items_of_empty_untyped()
