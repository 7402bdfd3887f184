"""tuple.index(x), tuple.count(x) and `x in t` for tuples of numbers and
strs (fluids' tables look names up so): an item of another kind is never
equal to x; index raises Python's ValueError when x is missing; each
against the function's py_func on generated inputs."""
import numpy as np
import pytest

from ruchey import TypingError, njit

from conftest import make_rng


def find(t, x):
    return t.count(x), x in t, (t.index(x) if x in t else -1)


def index_of(t, x):
    return t.index(x)


def made_key_in(t, s):
    return (s + "b") in t, t.count(s * 2)


NAMES = ("steel", "Cr13, bare", "copper", "steel", "PVC")


@pytest.mark.parametrize("t", [NAMES, (1, 2.5, 2, 2.0, True), (1, "x", 2.0, "x"), ()])
def test_index_count_and_in_match_python(t):
    f = njit(find)
    rng = make_rng(len(t))
    candidates = list(t) + ["nope", 7, 0.5, ""] + [float(v) for v in rng.integers(0, 3, 4)]
    for x in candidates:
        if isinstance(x, bool):
            continue  # a bool looked up is an int in CPython's tuple, a bool here (as Numba types it)
        assert f(t, x) == find(t, x), (t, x)


def test_a_missing_item_raises_value_error():
    f = njit(index_of)
    with pytest.raises(ValueError, match="not in tuple"):
        index_of(NAMES, "gold")
    with pytest.raises(ValueError, match="not in tuple"):
        f(NAMES, "gold")


def test_strs_made_at_run_time_are_found_and_released():
    f = njit(made_key_in)
    for t in (("ab", "c", "xx"), ("aa", "cb")):
        for s in ("a", "c", "x", ""):
            assert f(t, s) == made_key_in(t, s)
    for _ in range(1000):
        f(("ab",), "a")


def test_looking_for_an_array_is_a_typing_error():
    with pytest.raises(TypingError, match="looks for a number or a str"):
        njit(index_of)((1, 2), np.arange(2))
