"""Views of a variable's array passed straight to a compiled call (m[k],
a[1:]) borrow the variable's reference for the call: whatever the callee
does with its parameter (returns it, rebinds it, fails), the memory lives
as long as Python's would and nothing leaks."""
import numpy
import pytest
import ruchey

from conftest import AS_NUMBA, assert_same, make_rng, rss_bytes, seed_of

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="inspects ruchey's LLVM IR")


@ruchey.njit
def _dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@ruchey.njit
def dot_rows(m, v, calls):
    t = 0.0
    for k in range(calls):
        t += _dot(m[k % m.shape[0]], v)
    return t


@ruchey.njit
def first_above(a, limit):
    for i in range(a.shape[0]):
        if a[i] > limit:
            return i
    return -1


@ruchey.njit
def firsts_above(m, limit):
    t = 0
    for k in range(m.shape[0]):
        t += first_above(m[k], limit)
    return t


@pytest.mark.parametrize("n", [0, 1, 3, 7, 8, 9, 10, 17, 65535, 65536, 65537, 200003])
def test_a_callees_loop_matches_python_short_and_past_one_poll_block(n):
    """A callee's counted loop has a plain copy for trip counts of one
    poll block (2**16) and a blocked one beyond: both, and the edges."""
    rng = make_rng(seed_of("callee loop", n))
    m, v = rng.standard_normal((3, n)), rng.standard_normal(n)
    assert_same(dot_rows, m, v, 7, rel=1e-12)
    assert_same(dot_rows, m[:, ::-1], v, 5, rel=1e-12)
    limit = 2.5 if n < 1000 else 4.0
    assert_same(firsts_above, m, limit)


@ruchey.njit
def _same(a):
    return a


@ruchey.njit
def row_outlives_its_matrix(n):
    m = numpy.arange(n * 3.0).reshape(n, 3)
    r = _same(m[n - 1])
    m = numpy.zeros((1, 1))
    return r, m


@ruchey.njit
def _doubled_sum(a):
    a = a * 2.0
    return a.sum()


@ruchey.njit
def rebinding_callee(m):
    t = 0.0
    for k in range(m.shape[0]):
        t += _doubled_sum(m[k, 1:])
    return t


@ruchey.njit(boundscheck=True)  # an index past the row raises IndexError, as in Python
def _at(a, i):
    return a[i]


@ruchey.njit
def failing_callee(m, i):
    t = 0.0
    for k in range(m.shape[0]):
        try:
            t += _at(m[k], i)
        except IndexError:
            t -= 1.0
    return t


@pytest.mark.parametrize("rows,cols", [(1, 1), (3, 10), (64, 10), (5, 0)], ids=["1x1", "3x10", "64x10", "5x0"])
def test_rows_passed_to_a_helper_match_python(rows, cols):
    rng = make_rng(seed_of("call_views", rows, cols))
    m, v = rng.random((rows, cols)), rng.random(cols)
    assert_same(dot_rows, m, v, 300)
    assert_same(dot_rows, numpy.asfortranarray(m), v, 7)
    assert_same(dot_rows, m[:, ::-1], v, 7)


def test_a_returned_view_outlives_the_variable_it_came_from():
    r, m = row_outlives_its_matrix(4)
    assert numpy.array_equal(r, [9.0, 10.0, 11.0]) and m.shape == (1, 1)


def test_a_callee_rebinding_or_failing_on_the_view_matches_python():
    m = make_rng(seed_of("call_views_rebind")).random((6, 5))
    assert_same(rebinding_callee, m)
    assert_same(failing_callee, m, 2)
    assert_same(failing_callee, m, 9)


def test_views_passed_to_calls_do_not_leak():
    m = numpy.ones((8, 200000 // 8))
    failing_callee(m, 10**6)
    rebinding_callee(m)
    before = rss_bytes()
    for _ in range(20):
        failing_callee(m, 10**6)
        rebinding_callee(m)
        r, _ = row_outlives_its_matrix(10000)
    if before is not None:
        assert rss_bytes() - before < 20 * 2**20


@ruchey_only
def test_a_row_passed_to_a_helper_takes_no_reference():
    m, v = numpy.ones((4, 3)), numpy.ones(3)
    dot_rows(m, v, 2)
    assert "atomicrmw" not in dot_rows.inspect_llvm()[dot_rows.signatures[0]]
