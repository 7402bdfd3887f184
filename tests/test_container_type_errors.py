"""Typing errors of typed containers say what Numba's say, after ruchey's
own words: a key or value of another type than a typed dict's cannot be
cast safely to it ("cannot safely cast complex128 to int32"), sets of two
item types are not combined ("All Sets must be of the same type"), and
heapq's functions take a list as their heap ("heap argument must be a
list"). Each is a TypingError naming the line, never a crash."""
import heapq

import pytest

import ruchey
from ruchey import njit, typed, types


@pytest.mark.parametrize("line,words", [
    ("d[1j] = 7.0", "complex128 is not a key type of DictType[int32,float64]: cannot safely cast complex128 to int32"),
    ("d.get(2.5)", "float64 is not a key type of DictType[int32,float64]: cannot safely cast float64 to int32"),
    ("d[1] = 1j", "cannot store complex128 as a value of DictType[int32,float64]: cannot safely cast complex128 to "
                  "float64"),
    ("d.setdefault(1, 2j)", "cannot safely cast complex128 to float64"),
])
def test_a_key_or_value_of_another_type_cannot_be_cast_safely(line, words):
    namespace = {"typed": typed, "types": types}
    exec(f"def f():\n    d = typed.Dict.empty(types.int32, types.float64)\n    {line}\n    return len(d)\n", namespace)
    with pytest.raises(ruchey.TypingError, match=words.replace("[", r"\[").replace("]", r"\]")):
        njit(namespace["f"])()


def test_sets_of_two_item_types_are_not_combined():
    @njit
    def mixed(a, b):
        return a | b

    with pytest.raises(ruchey.TypingError, match="All Sets must be of the same type"):
        mixed({1, 2}, {"a"})
    assert mixed({1, 2}, {3}) == mixed.py_func({1, 2}, {3})


def test_heapq_takes_a_list_as_its_heap():
    @njit
    def pushed(heap, x):
        heapq.heappush(heap, x)
        return heap

    with pytest.raises(ruchey.TypingError, match="heap argument must be a list"):
        pushed((1, 2, 3), 4)
    assert list(pushed(typed.List([1, 5, 3]), 2)) == pushed.py_func([1, 5, 3], 2)
