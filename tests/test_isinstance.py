"""isinstance() in compiled code, as Numba's: decided from the value's type
when the function is compiled, the branch it rules out pruned (not typed),
so one function serves a number or an array; each checked against the
function's own Python."""
import numpy as np
import pytest

import ruchey
from ruchey import njit, typed
from ruchey.experimental import jitclass

from conftest import assert_same, make_rng


@njit
def kind(x):
    if isinstance(x, int):
        return 1
    elif isinstance(x, float):
        return 2
    elif isinstance(x, (tuple, list)):
        return 3
    elif isinstance(x, str):
        return 4
    elif isinstance(x, (complex, np.float32)):
        return 5
    return 0


@pytest.mark.parametrize("value", [7, 2.5, (1, 2.0), "text", 1j, np.float32(1.5)])
def test_kinds_of_values(value):
    assert kind(value) == kind.py_func(value)


@pytest.mark.parametrize("value", [True, np.int32(3), np.uint64(3)])
def test_int_names_int64_exactly(value):
    """Numba's rule: int is int64 (a bool or an int32 is not an int), where
    Python says True for a bool and NumPy's ints are not ints at all."""
    assert kind(value) == 0


@njit
def total(x):
    if isinstance(x, float):
        return x  # the other branch would not type for a float
    s = 0.0
    for v in x:
        s += v
    return s


def test_pruned_branch_is_never_typed():
    rng = make_rng(1)
    assert_same(total, float(rng.random()))
    assert_same(total, rng.random(5))


@njit
def in_a_list_and_typed_list(l):
    inner = [1, 2]
    return isinstance(l, typed.List), isinstance(inner, list), isinstance(l, dict), isinstance(l, (int, typed.List))


def test_containers():
    l = typed.List([1.0, 2.0])
    assert in_a_list_and_typed_list(l) == in_a_list_and_typed_list.py_func(l) == (True, True, False, True)


@njit
def list_or_typed_list(x):
    return isinstance(x, list), isinstance(x, typed.List), isinstance(x, (list, typed.List)), isinstance(x, tuple)


@njit
def lists_made_here(n):
    shown = [i * 0.5 for i in range(n)]
    made = typed.List(shown)
    return (list_or_typed_list(shown), list_or_typed_list(made), list_or_typed_list(made[:1]),
            list_or_typed_list(shown[:1]), list_or_typed_list(made.copy()), list_or_typed_list(list(made)))


@njit
def length_unless_a_list(x):
    if isinstance(x, list):
        return -1
    return len(x)


def test_a_list_and_a_typed_list_are_told_apart_as_in_python():
    # compiled code holds both as one list type: which one a value is, is read from it
    rng = make_rng(1601)
    for n in (1, 4):
        items = [float(v) for v in rng.normal(size=n)]
        for x in (items, typed.List(items)):
            assert list_or_typed_list(x) == list_or_typed_list.py_func(x)
            assert length_unless_a_list(x) == length_unless_a_list.py_func(x)
        assert lists_made_here(n) == lists_made_here.py_func(n)
    assert list_or_typed_list((1, 2)) == (False, False, False, True)
    assert not isinstance(typed.List(), list)


@jitclass([("x", ruchey.float64)])
class Point:
    def __init__(self, x):
        self.x = x


@jitclass([("n", ruchey.int64)])
class Counter:
    def __init__(self, n):
        self.n = n


@njit
def value_of(p):
    if isinstance(p, Point):
        return p.x
    return float(p.n)


def test_jitclass_instances():
    assert value_of(Point(2.5)) == value_of.py_func(Point(2.5)) == 2.5
    assert value_of(Counter(3)) == value_of.py_func(Counter(3)) == 3.0


@njit
def of_an_expression(x):
    return isinstance(x + 1, int), isinstance(x * 0.5, int)


def test_of_an_expression_evaluates_it():
    assert of_an_expression(3) == of_an_expression.py_func(3) == (True, False)


def test_unsupported_classes_are_typing_errors():
    @njit
    def of_ndarray(x):
        return isinstance(x, np.ndarray)

    with pytest.raises(ruchey.TypingError, match="isinstance.. of <class 'numpy.ndarray'> is not supported"):
        of_ndarray(np.zeros(2))

    @njit
    def of_optional(x, flag):
        y = x if flag else None
        return isinstance(y, float)

    with pytest.raises(ruchey.TypingError, match="cannot take an Optional"):
        of_optional(1.0, True)

    @njit
    def wrong_arity(x):
        return isinstance(x)

    with pytest.raises(ruchey.TypingError, match="takes 2 arguments"):
        wrong_arity(1)


@njit
def of_none():
    y = None
    return isinstance(y, float), isinstance(y, (int, str))


def test_none_is_no_instance():
    assert of_none() == of_none.py_func() == (False, False)


@njit
def part_or_label(a):
    if isinstance(a, complex):
        return a.imag, "complex"  # (None has no .imag: a branch pruned for a None argument)
    elif isinstance(a, (int, float)):
        return a * 2.0, "number"
    return -1.0, "other"


@pytest.mark.parametrize("value", [None, 3, 2.5, 1 - 4j])
def test_a_none_argument_prunes_the_branches_of_other_classes(value):
    assert part_or_label(value) == part_or_label.py_func(value)


@njit
def unsupported_in_a_pruned_branch(x):
    if isinstance(x, float):
        return x
    return name_never_defined(x) + np.polyval(x, 1.0)  # noqa: F821


def test_a_call_compiled_code_cannot_make_is_an_error_only_where_typed():
    """As Python raises NameError only when the line runs, and Numba only
    types what its pruning keeps."""
    assert unsupported_in_a_pruned_branch(2.5) == 2.5
    with pytest.raises(ruchey.TypingError, match="name 'name_never_defined' is not defined"):
        unsupported_in_a_pruned_branch(3)


@njit
def weighted(x, w):
    return x * w


@njit
def weigh(x):
    if isinstance(x, tuple):
        return weighted(*x)
    return weighted(x)  # one argument short: an error only where typed


def test_a_call_with_arguments_that_do_not_bind_is_an_error_only_where_typed():
    rng = make_rng(8)
    for a, b in rng.uniform(-5, 5, (5, 2)):
        assert weigh((a, b)) == weigh.py_func((a, b))
    with pytest.raises(ruchey.TypingError, match="missing argument 'w'"):
        weigh(2.0)
    with pytest.raises(TypeError):
        weigh.py_func(2.0)


@njit
def as_array(x, n):
    """A number made an array of n copies of itself under its own name."""
    if isinstance(x, (int, float)):
        x = np.ones(n) * x
    return x.sum() + x[0]


@njit
def as_array_else(x, n):
    if not isinstance(x, float) and not isinstance(x, int):
        x = x * 2.0
    else:
        x = np.full(n, x)
    return x


@njit
def rebound_first(x, n):
    x = np.arange(n) * 1.0  # x is no longer the parameter: its isinstance is typing's
    if isinstance(x, float):
        x = 1.0
    return x.sum()


@pytest.mark.parametrize("seed", range(3))
def test_a_parameter_rebound_to_another_type_in_a_pruned_branch(seed):
    """Numba prunes the branch before typing, so the name after the if holds
    the branch's value alone (a number becomes an array of it)."""
    rng = make_rng(seed)
    n = int(rng.integers(1, 9))
    for x in (float(rng.normal()), int(rng.integers(-5, 5)), rng.normal(size=n)):
        assert_same(as_array, x, n)
        assert_same(as_array_else, x, n)
    assert_same(rebound_first, 2.5, n)


def test_a_branch_not_decided_by_types_still_unifies():
    @njit
    def f(x, flag):
        if flag:
            x = np.ones(3) * x
        return x

    with pytest.raises(ruchey.TypingError, match="cannot be unified"):
        f(1.0, True)
