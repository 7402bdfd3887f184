"""str(), repr() and f-strings of dicts, sets, typed Dicts and lists and
tuples holding them: CPython's text of them (Numba writes its own
'<object type:...>'), made by the interpreter from the boxed values.
Every case against the function's own Python original on generated
inputs."""
import numpy

import pytest
import ruchey
from ruchey import njit, typed, types

from conftest import make_rng, numba_deviation, random_floats, random_ints

pytestmark = numba_deviation("numba writes '<object type:...>' for containers")


@njit
def dict_text(x, y):
    d = {1: x, 2: y}
    return str(d) + "|" + repr(d) + "|" + f"{d}" + "|" + f"{d!r}"


@njit
def set_text(k, m):
    s = set()
    for i in range(20):
        s.add((i * k) % m - m // 2)
    return str(s)


@njit
def nested_text(x):
    l = [[1, 2], [3, x]]
    t = ({1: x}, {2, 3})
    return str(l) + " " + str(t) + " " + f"{[{'a': x}]}" + " " + str(({1: 2},)) + " " + repr([{1}])


@njit
def typed_dict_text(d):
    return str(d) + f" {d}"


@njit
def optional_dict_text(x, flag):
    d = {"k": x} if flag else None
    return str(d)


@pytest.mark.parametrize("x", random_floats(make_rng(21), 6, special=False))
def test_dict_text_is_cpythons(x):
    assert dict_text(x, -x) == dict_text.py_func(x, -x)


@pytest.mark.parametrize("k", random_ints(make_rng(25), 6, 1, 1000))
def test_set_text_is_cpythons(k):
    assert set_text(k, 37) == set_text.py_func(k, 37)


@pytest.mark.parametrize("x", random_ints(make_rng(22), 6, -1000, 1000))
def test_nested_containers_text_is_cpythons(x):
    assert nested_text(x) == nested_text.py_func(x)


def test_typed_dict_argument_text():
    d = typed.Dict.empty(types.int64, types.float64)
    for k, v in zip(random_ints(make_rng(23), 5, 0, 100), random_floats(make_rng(24), 5, special=False)):
        d[k] = v
    assert typed_dict_text(d) == typed_dict_text.py_func(d)


@njit
def typed_list_text(x):
    l = typed.List()
    l.append(typed.List([1, x]))
    d = {1: [x, 2]}
    return str(l) + " " + str([l]) + " " + str(d) + " " + str(({2: [x]}, [l]))


@pytest.mark.parametrize("x", random_ints(make_rng(26), 4, -1000, 1000))
def test_typed_lists_written_as_python_writes_them(x):
    assert typed_list_text(x) == typed_list_text.py_func(x)


@pytest.mark.parametrize("flag", [True, False])
def test_optional_dict_text(flag):
    assert optional_dict_text(2.5, flag) == optional_dict_text.py_func(2.5, flag)


def test_dict_with_a_format_spec_is_a_typing_error():
    @njit
    def f(x):
        d = {1: x}
        return f"{d:>10}"
    with pytest.raises(ruchey.TypingError):
        f(1.0)
