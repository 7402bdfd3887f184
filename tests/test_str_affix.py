"""str.removeprefix and str.removesuffix (Python 3.9) as Python's, on
generated strings and affixes, and a non-str affix a TypingError."""
import pytest
import ruchey
from ruchey import njit

from conftest import make_rng, numba_deviation

@njit
def remove_prefix(s, p):
    return s.removeprefix(p)


@njit
def remove_suffix(s, p):
    return s.removesuffix(p)


def generated_pairs(seed, count):
    rng = make_rng(seed)
    alphabet = list("ab\u00e9\u4e2d\U0001f600 ")
    pairs = [("", ""), ("abc", ""), ("", "a"), ("abc", "abc"), ("abc", "abcd")]
    for _ in range(count):
        s = "".join(rng.choice(alphabet, size=int(rng.integers(0, 8))))
        cut = int(rng.integers(0, len(s) + 1))
        pairs += [(s, s[:cut]), (s, s[cut:]), (s, "".join(rng.choice(alphabet, size=2)))]
    return pairs


@numba_deviation("numba has no str.removeprefix or removesuffix")
@pytest.mark.parametrize("s,p", generated_pairs(31, 20))
def test_removeprefix_and_removesuffix(s, p):
    assert remove_prefix(s, p) == remove_prefix.py_func(s, p)
    assert remove_suffix(s, p) == remove_suffix.py_func(s, p)


def test_affix_of_no_str_is_a_typing_error():
    with pytest.raises(ruchey.TypingError):
        remove_prefix("abc", 1)
