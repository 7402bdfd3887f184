"""What a list compiled code returns is in Python, as Numba 0.68 gives it:
a list display, a comprehension, list(), sorted() or a slice of such a
list (Numba's reflected list) comes back a Python list, whatever its items
(numbers, tuples, strs, arrays, compiled functions); one typed.List made
(typed.List(), typed.List.empty_list(), a typed.List's copy or slice)
comes back a typed.List, whatever its items (arrays too). Each result is
compared with the function's py_func on generated inputs, the container's
class included."""
import numpy as np
import pytest

import ruchey
from ruchey import njit, typed

from conftest import make_rng, numba_deviation, seed_of


def assert_same_list(got, expected, what="result"):
    """The same class of container (list or typed.List) holding equal items,
    lists and arrays in it compared in turn."""
    assert type(got) is type(expected), f"{what}: {type(got).__name__} != {type(expected).__name__}"
    if isinstance(expected, (list, typed.List)):
        assert len(got) == len(expected), f"{what}: {list(got)!r} != {list(expected)!r}"
        for i, (g, e) in enumerate(zip(got, expected)):
            assert_same_list(g, e, f"{what}[{i}]")
    elif isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype, what
        np.testing.assert_array_equal(got, expected, err_msg=what)
    else:
        assert got == expected, f"{what}: {got!r} != {expected!r}"


def same(f, *args):
    got = f(*args)
    assert_same_list(got, f.py_func(*args))
    return got


@njit
def square(x):
    return x * x


@njit
def cube(x):
    return x * x * x


@njit
def display_of_a_function():
    return [square]


@njit
def display_of_functions():
    return [square, cube]


@njit
def display_of_numbers(a, b):
    return [a, b]


@njit
def comprehension(n):
    return [i * i for i in range(n)]


@njit
def of_tuples(n):
    return [(i, i / 2) for i in range(n)]


@njit
def of_strs(n):
    return [str(i) for i in range(n)]


@njit
def sorted_and_sliced(n):
    x = [(i * 7) % 5 for i in range(n)]
    return sorted(x), x[1:], list(x)


@njit
def of_arrays(n):
    return [np.arange(i + 1.0) for i in range(n)]


@njit
def of_lists(n):
    return [[j for j in range(i)] for i in range(n)]


def test_a_display_of_a_compiled_function_is_a_python_list():
    got = same(display_of_a_function)
    assert got[0] is square or got[0].py_func is square.py_func


@numba_deviation("Numba cannot type a list of two functions not compiled yet (imprecise UndefinedFunctionType)")
def test_a_display_of_compiled_functions_is_a_python_list():
    x = int(make_rng(seed_of("functions")).integers(-50, 50))
    assert [f(x) for f in same(display_of_functions)] == [x * x, x * x * x]


@pytest.mark.parametrize("n", [0, 1, 5, 100])
def test_displays_and_comprehensions_are_python_lists(n):
    rng = make_rng(seed_of("displays", n))
    same(display_of_numbers, int(rng.integers(-99, 99)), int(rng.integers(-99, 99)))
    same(display_of_numbers, float(rng.normal()), float(rng.normal()))
    same(comprehension, n)
    same(of_tuples, n)
    same(of_strs, n)
    same(sorted_and_sliced, n)
    same(of_arrays, n)
    same(of_lists, n)


@njit
def typed_of_arrays(n):
    x = typed.List()
    for i in range(n):
        x.append(np.arange(i, 2 * i + 1))
    return x


@njit
def typed_of_numbers(n):
    x = typed.List.empty_list(ruchey.int64)
    for i in range(n):
        x.append(i * 3)
    return x


@njit
def typed_copy(n):
    x = typed.List()
    for i in range(n):
        x.append(np.full(2, i))
    return x.copy()


@njit
def typed_slice(x):
    return x[::2]


@njit
def typed_of_typed(n):
    outer = typed.List()
    for i in range(n):
        inner = typed.List.empty_list(ruchey.int64)
        inner.append(i)
        outer.append(inner)
    return outer


@njit
def display_of_typed(n):
    inner = typed.List.empty_list(ruchey.float64)
    for i in range(n):
        inner.append(i / 4)
    return [inner, inner]


@pytest.mark.parametrize("n", [1, 4, 50])  # (Numba's empty typed.List() made in Python has no item type)
def test_a_typed_list_stays_a_typed_list_whatever_its_items(n):
    same(typed_of_arrays, n)
    same(typed_of_numbers, n)
    same(typed_copy, n)
    same(typed_slice, typed_of_numbers(n))
    same(typed_of_typed, n)
    same(display_of_typed, n)


@njit
def keep(x, a):
    x.append(a)
    return x


def test_a_typed_list_of_arrays_shares_the_arrays_passed():
    a = make_rng(seed_of("shared")).normal(size=5)
    x = keep(typed.List.empty_list(ruchey.float64[::1]), a)
    assert isinstance(x, typed.List) and x[0] is a or np.shares_memory(x[0], a)
    a[0] = 42.0
    assert x[0][0] == 42.0
    del a
    assert x[0][0] == 42.0  # the list keeps the array alive


@njit
def appended_to(x, v):
    x.append(v)
    return x


@pytest.mark.parametrize("n", [1, 3])
def test_a_list_argument_changed_in_place_is_returned_as_itself(n):
    rng = make_rng(seed_of("reflected", n))
    x = [rng.normal(size=2) for _ in range(n)]
    got = appended_to(x, np.zeros(2))
    assert got is x and len(x) == n + 1 and type(x) is list
    y = [float(v) for v in rng.normal(size=n)]
    assert appended_to(y, 1.5) is y and y[-1] == 1.5
