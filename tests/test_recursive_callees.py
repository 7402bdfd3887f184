"""Recursive functions called by compiled code on the caller's behalf: a
sort's key function (sort(key=f), sorted(x, key=f)) and a @vectorize
function inside an array expression of a compiled function. Each takes the
stack guard a recursive body is given, so it runs, and runs out of stack as
RecursionError (in a subprocess: a failure there must not take the test
run with it). Compared with py_func on generated inputs."""
import numpy as np
import pytest

from ruchey import njit, vectorize

from conftest import AS_NUMBA, make_rng, run_python_file, seed_of


@njit
def digit_sum(n):
    if n < 10:
        return n
    return n % 10 + digit_sum(n // 10)


@njit
def sorted_by_digit_sum(x):
    return sorted(x, key=digit_sum)


@njit
def sort_in_place_by_digit_sum(x):
    out = list(x)
    out.sort(key=digit_sum, reverse=True)
    return out


@pytest.mark.parametrize("f", [sorted_by_digit_sum, sort_in_place_by_digit_sum], ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [0, 1, 9, 60])
def test_recursive_sort_key_matches_python(f, n):
    x = make_rng(seed_of("digit sum", f.__name__, n)).integers(0, 10**6, size=n)
    assert list(f(x)) == list(f.py_func(x))


@vectorize
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@njit
def fib_of_array(a):
    return fib(a) + 1


@pytest.mark.skipif(AS_NUMBA, reason="a recursive @vectorize function calling itself on scalars is ruchey's")
@pytest.mark.parametrize("n", [0, 1, 12])
def test_recursive_vectorize_inside_compiled_code(n):
    a = make_rng(seed_of("fib", n)).integers(0, 15, size=n)
    want = np.array([fib.py_func(int(v)) + 1 for v in a], dtype=np.int64)
    np.testing.assert_array_equal(fib_of_array(a), want)


ENDLESS = """
import numpy as np
from ruchey import njit, vectorize

@njit
def endless(n):
    if n < 0:  # never: the recursion has no end
        return 0
    return endless(n + 1) + 1

@njit
def sorted_endlessly(x):
    return sorted(x, key=endless)

@vectorize
def endless_elem(n):
    if n < 0:
        return 0
    return endless_elem(n + 1) + 1

@njit
def vectorized_endlessly(a):
    return endless_elem(a)

for f in (sorted_endlessly, vectorized_endlessly):
    try:
        f(np.arange(3))
    except RecursionError:
        print("RecursionError", f.__name__)
"""


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's RecursionError from compiled code")
def test_endless_recursion_in_a_key_or_element_function_is_a_recursion_error(tmp_path):
    proc = run_python_file(ENDLESS, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[:2] == ["RecursionError sorted_endlessly", "RecursionError vectorized_endlessly"]


@njit
def fill_leaves(tree, order, node, n_leaves):
    """shap's shape: a tree walk whose base case returns nothing, its
    results written into an array, the recursion's value unused."""
    if node < n_leaves:
        order[order[-1]] = node
        order[-1] += 1
        return
    fill_leaves(tree, order, tree[node - n_leaves, 0], n_leaves)
    fill_leaves(tree, order, tree[node - n_leaves, 1], n_leaves)


@pytest.mark.parametrize("n_leaves", [1, 2, 5, 33])
def test_recursion_whose_base_case_returns_nothing(n_leaves):
    rng = make_rng(seed_of(n_leaves))
    pool, tree = list(range(n_leaves)), []
    while len(pool) > 1:  # a random binary tree over the leaves, as a linkage matrix
        a, b = (pool.pop(int(rng.integers(len(pool)))) for _ in range(2))
        tree.append((a, b))
        pool.append(n_leaves + len(tree) - 1)
    tree = np.array(tree or [(0, 0)], dtype=np.int64)
    got, want = (np.zeros(n_leaves + 1, dtype=np.int64) for _ in range(2))
    assert fill_leaves(tree, got, pool[0], n_leaves) is None
    fill_leaves.py_func(tree, want, pool[0], n_leaves)
    np.testing.assert_array_equal(got, want)
