"""A range loop counting up from a constant start of 0 or more (`range(n)`,
`range(3, n, 2)`) whose body calls compiled helpers with loops of their
own (a heap's sift loops): its variable is known not negative, so its own
indexing needs no wrap-around; indices computed from it (`i - 5`) still
wrap as Python's. Each function is checked against its Python original on
generated inputs."""
import numpy as np
import pytest

import ruchey

from conftest import make_rng, seed_of


@ruchey.njit
def sift_up(heap, n, value):
    i = n
    heap[i] = value
    while i > 0:
        parent = (i - 1) // 2
        if heap[parent] >= heap[i]:
            break
        heap[parent], heap[i] = heap[i], heap[parent]
        i = parent
    return n + 1


@ruchey.njit
def sift_down(heap, n):
    top = heap[0]
    n -= 1
    heap[0] = heap[n]
    i = 0
    while True:
        left = 2 * i + 1
        if left >= n:
            break
        big = left
        if left + 1 < n and heap[left + 1] > heap[left]:
            big = left + 1
        if heap[i] >= heap[big]:
            break
        heap[i], heap[big] = heap[big], heap[i]
        i = big
    return top


@ruchey.njit
def k_smallest(x, k):
    heap = np.empty(k)
    n = 0
    for i in range(x.shape[0]):
        if n < k:
            n = sift_up(heap, n, x[i])
        elif x[i] < heap[0]:
            sift_down(heap, n)
            sift_up(heap, n - 1, x[i])
    out = np.empty(n)
    while n > 0:
        out[n - 1] = sift_down(heap, n)
        n -= 1
    return out


@ruchey.njit
def lagged_heap_sum(x, lag, k):
    heap = np.empty(k)
    n = 0
    s = 0.0
    for i in range(3, x.shape[0], 2):
        s += x[i - lag]
        if n < k:
            n = sift_up(heap, n, x[i])
        elif x[i] < heap[0]:
            sift_down(heap, n)
            sift_up(heap, n - 1, x[i])
    return s + heap[:n].sum()


def python_of(f):
    """f's Python original, its compiled helpers called as Python too."""
    g = f.py_func
    return lambda *args: type(g)(g.__code__, dict(g.__globals__, sift_up=sift_up.py_func,
                                                   sift_down=sift_down.py_func))(*args)


@pytest.mark.parametrize("size", [0, 1, 5, 100, 5000])
@pytest.mark.parametrize("k", [1, 3, 16])
def test_k_smallest_of_a_stream(size, k):
    x = make_rng(seed_of("stream", size, k)).random(size) - 0.5
    np.testing.assert_array_equal(k_smallest(x, k), python_of(k_smallest)(x, k))


@pytest.mark.parametrize("size", [9, 10, 300])
@pytest.mark.parametrize("lag", [0, 2, 5, 8])
def test_an_index_below_the_loop_variable_wraps(size, lag):
    x = make_rng(seed_of("lag", size, lag)).random(size)
    assert lagged_heap_sum(x, lag, 4) == pytest.approx(python_of(lagged_heap_sum)(x, lag, 4), rel=1e-12, abs=0)
