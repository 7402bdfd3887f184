"""A for loop over a dict or a set whose body changes its size: Python's
iterator raises RuntimeError at the next item (also at the one that would
end the loop, before an else clause), as Numba's typed dict does; a
change of values only, or a break before the next item, raises nothing.
Over the dict itself, its keys(), values(), items(), a view held in a
variable, under enumerate() and zip(), and over sets. Each compared with
the function's py_func (on a Python dict or set) on generated inputs."""
import pytest

from ruchey import njit

from conftest import AS_NUMBA, make_rng, seed_of
from test_typed import tdict

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's typed containers")


@njit
def grow_walking_keys(d, limit):
    seen = 0
    for k in d:
        seen += k
        if len(d) < limit:
            d[k + 1000] = seen
    return seen


@njit
def delete_walking_items(d, bad):
    total = 0.0
    for k, v in d.items():
        if k == bad:
            del d[k]
        total += v
    return total


@njit
def pop_walking_values(d, at):
    count = 0
    for v in d.values():
        count += 1
        if count == at:
            d.popitem()
    return count


@njit
def grow_in_enumerate(d, at):
    total = 0
    for i, k in enumerate(d):
        total += i * k
        if i == at:
            d[k + 5000] = 1.0
    return total


@njit
def grow_in_zip(d, n, at):
    total = 0
    for k, j in zip(d, range(n)):
        total += k * j
        if j == at:
            d[-k - 7000] = 2.0
    return total


@njit
def grow_a_held_view(d, at):
    keys = d.keys()
    total = 0
    for k in keys:
        total += k
        if total > at:
            d[k + 9000] = 0.5
    return total


@njit
def grow_then_break(d):
    for k in d:
        d[k + 3000] = 1.0
        break
    return len(d)


@njit
def grow_with_else(d, at):
    total = 0
    for k in d:
        total += k
        if k == at:
            d[k + 11000] = 3.0
    else:
        total = -total
    return total


@njit
def change_values_only(d):
    for k in d:
        d[k] = d[k] * 2.0 + k
    return d


@njit
def grow_a_made_dict(n, at):
    d = {}
    for i in range(n):
        d[i * 3] = float(i)
    count = 0
    for k, v in d.items():
        count += 1
        if count == at:
            d[-1 - k] = v
    return count


@njit
def change_walked_set(s, at, remove):
    total = 0
    for x in s:
        total += x
        if x == at:
            if remove:
                s.discard(x)
            else:
                s.add(x + 100000)
    return total


def outcome(f, *args):
    """f's result with its first argument afterwards, or its exception's class and message."""
    try:
        return ("returned", f(*args), args[0] if isinstance(args[0], (dict, set)) else None)
    except Exception as e:  # noqa: BLE001 (the outcome compared is the exception)
        return ("raised", type(e), str(e))


def both(f, pairs, *args):
    """f on a typed Dict of pairs and f.py_func on a Python dict of them."""
    want = outcome(f.py_func, dict(pairs), *args)
    got_dict = tdict("int64", "float64", pairs)
    got = outcome(f, got_dict, *args)
    if want[0] == "returned":
        got = (got[0], got[1], dict(got_dict.items()) if got[0] == "returned" else None)
    assert got == want


def random_pairs(rng, n):
    keys = rng.choice(200, size=n, replace=False).tolist()
    return [(k, round(float(v), 3)) for k, v in zip(keys, rng.normal(size=n))]


@pytest.mark.parametrize("n", [0, 1, 2, 5, 12])
def test_a_dict_changing_size_in_its_loop_raises_runtime_error(n):
    rng = make_rng(seed_of("dict walk", n))
    pairs = random_pairs(rng, n)
    keys = [k for k, _ in pairs]
    picks = keys[: 2] + [-1]
    for limit in (0, n, n + 1, n + 4):
        both(grow_walking_keys, pairs, limit)
    for bad in picks:
        both(delete_walking_items, pairs, bad)
        both(grow_with_else, pairs, bad)
    for at in (0, 1, n, n + 2):
        both(pop_walking_values, pairs, at)
        both(grow_in_enumerate, pairs, at)
        both(grow_in_zip, pairs, max(n - 1, 0), at)
        both(grow_in_zip, pairs, n + 3, at)
        both(grow_a_held_view, pairs, at * 50)
    both(grow_then_break, pairs)
    both(change_values_only, pairs)


@pytest.mark.parametrize("n", [1, 4, 9])
def test_a_dict_made_in_the_function_and_grown_in_its_loop_raises(n):
    for at in range(n + 2):
        want = outcome(grow_a_made_dict.py_func, n, at)
        assert outcome(grow_a_made_dict, n, at) == want


def test_the_message_is_pythons():
    with pytest.raises(RuntimeError, match="^dictionary changed size during iteration$"):
        grow_walking_keys(tdict("int64", "float64", [(1, 1.0), (2, 2.0)]), 10)
    with pytest.raises(RuntimeError, match="^Set changed size during iteration$"):
        change_walked_set({1, 2, 3}, 1, False)


@pytest.mark.parametrize("n", [1, 3, 8])
def test_a_set_changing_size_in_its_loop_raises_runtime_error(n):
    rng = make_rng(seed_of("set walk", n))
    items = rng.choice(1000, size=n, replace=False).tolist()
    for at in items[:3] + [-5]:
        for remove in (False, True):
            want = outcome(change_walked_set.py_func, set(items), at, remove)
            got = outcome(change_walked_set, set(items), at, remove)
            assert got[0] == want[0] and got[1] == want[1]
            if want[0] == "raised":
                assert got[2] == want[2]
