"""While loops that count: `while n < max_iter and ...: ...; n += 1` (a
Mandelbrot pixel's iterations) runs at most max_iter - n times from its
entry. Such a loop has a copy without the Ctrl-C poll of each iteration
for entries that leave it few iterations (lib/lower/stmt.c lo_while); each
form below gives Python's results, exits, else clauses and errors on
generated inputs, including entries on either side of the copies' limit
(2**16 iterations). Ctrl-C still stops such loops: test_interrupt.py."""
import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, make_rng

POLL_BLOCK = 2**16
ENTRIES = [(0, 0), (5, 3), (0, 1), (0, 100), (-7, 40), (3, POLL_BLOCK - 1), (0, POLL_BLOCK),
           (0, POLL_BLOCK + 1), (-1, POLL_BLOCK), (10, POLL_BLOCK + 10), (0, 3 * POLL_BLOCK),
           (-2**63, -2**63 + 3), (2**63 - 5, 2**63 - 1)]


def escape_count(cx, cy, max_iter):
    zx = 0.0
    zy = 0.0
    n = 0
    while n < max_iter and zx * zx + zy * zy <= 4.0:
        zx, zy = zx * zx - zy * zy + cx, 2.0 * zx * zy + cy
        n += 1
    return n


def counts_between(n, m):
    s = 0
    while n < m:
        s += n % 7
        n += 1
    return s


def counts_to_inclusive(n, m):
    s = 0
    while n <= m:
        s ^= n
        n = n + 1
    return s


def counts_below_reversed(n, m):
    s = 0.0
    while m > n:
        s += 0.5 * n
        n += 1
    return s


def counts_with_step(n, m):
    k = 0
    while n < m:
        n += 3
        k += 1
    return k


def counts_to_a_literal(n):
    s = 0
    while n < 100000:
        s += n & 3
        n += 1
    return s


def counter_second(x, n, m):
    while x > 0.0 and n < m:
        x -= 0.25
        n += 1
    return n, x


def breaks_or_else(x, n, m):
    s = 0.0
    while n < m:
        if x[n % x.shape[0]] > 0.9:
            s -= 1.0
            break
        s += x[n % x.shape[0]]
        n += 1
    else:
        s += 1000.0
    return s, n


def raises_inside(x, n, m):
    s = 0.0
    while n < m:
        s += 1.0 / float(x[n % x.shape[0]])
        n += 1
    return s


def counter_maybe_unbound(flag, m):
    if flag:
        n = 0
    s = 0
    while n < m:
        s += n
        n += 1
    return s


def in_a_loop_nest(width, height, max_iter):
    out = np.empty((height, width), dtype=np.int64)
    for j in range(height):
        cy = -1.0 + 2.0 * j / height
        for i in range(width):
            cx = -2.0 + 3.0 * i / width
            zx = 0.0
            zy = 0.0
            n = 0
            while n < max_iter and zx * zx + zy * zy <= 4.0:
                zx, zy = zx * zx - zy * zy + cx, 2.0 * zx * zy + cy
                n += 1
            out[j, i] = n
    return out


def compiled(f):
    return ruchey.njit(f)


@pytest.mark.parametrize("f", [counts_between, counts_to_inclusive, counts_below_reversed, counts_with_step])
@pytest.mark.parametrize("n, m", ENTRIES[:-2])
def test_counted_while_gives_pythons_result(f, n, m):
    assert compiled(f)(n, m) == f(n, m)


@pytest.mark.parametrize("n, m", ENTRIES[-2:])
def test_counted_while_near_the_ends_of_int64(n, m):
    assert compiled(counts_between)(n, m) == counts_between(n, m)


def test_counted_while_to_a_literal():
    c = compiled(counts_to_a_literal)
    for n in (-POLL_BLOCK, -5, 0, 99999, 100000, 200000, 100000 - POLL_BLOCK, 100000 - POLL_BLOCK - 1):
        assert c(n) == counts_to_a_literal(n)


def test_counter_in_the_second_term_of_the_condition():
    c = compiled(counter_second)
    r = make_rng(71)
    for _ in range(40):
        x, n = float(r.uniform(-1.0, 2e4)), int(r.integers(-10, 10))
        m = n + int(r.integers(-3, 3 * POLL_BLOCK))
        assert c(x, n, m) == counter_second(x, n, m)


def test_escape_counts_equal_pythons():
    c = compiled(escape_count)
    r = make_rng(72)
    for _ in range(200):
        cx, cy = r.uniform(-2.0, 1.0), r.uniform(-1.2, 1.2)
        max_iter = int(r.choice([0, 1, 5, 100, POLL_BLOCK + 3]))
        assert c(cx, cy, max_iter) == escape_count(cx, cy, max_iter)
    assert c(-0.1, 0.1, 3 * POLL_BLOCK) == escape_count(-0.1, 0.1, 3 * POLL_BLOCK)


def test_counted_while_in_a_loop_nest():
    c = compiled(in_a_loop_nest)
    for width, height, max_iter in ((24, 18, 60), (7, 5, POLL_BLOCK + 1), (0, 3, 10), (3, 2, 0)):
        assert np.array_equal(c(width, height, max_iter), in_a_loop_nest(width, height, max_iter))


def test_break_and_else_clause_as_pythons():
    c = compiled(breaks_or_else)
    r = make_rng(73)
    for size in (1, 5, 50):
        x = r.random(size)
        for n, m in ENTRIES[:-2]:
            assert c(x, n, m) == breaks_or_else(x, n, m)


def test_an_error_inside_raises_at_its_iteration():
    c = compiled(raises_inside)
    x = make_rng(74).random(13) + 0.5
    x[7] = 0.0
    for n, m in ((0, 7), (0, 8), (-6, POLL_BLOCK), (1, 3 * POLL_BLOCK)):
        try:
            expected = raises_inside(x, n, m)
        except ZeroDivisionError:
            with pytest.raises(ZeroDivisionError):
                c(x, n, m)
        else:
            assert c(x, n, m) == expected


def test_an_unbound_counter_raises_as_python():
    c = compiled(counter_maybe_unbound)
    assert c(True, 10) == counter_maybe_unbound(True, 10)
    for m in (5, POLL_BLOCK * 4):
        with pytest.raises(UnboundLocalError):
            counter_maybe_unbound(False, m)
        with pytest.raises(UnboundLocalError):
            c(False, m)


# ---------------------------------------------------------------- which while loops count

if not AS_NUMBA:
    from ruchey import _core
    from ruchey.types import float64, int64

    F64, I64 = float64.describe(), int64.describe()


def counted(func, *args):
    """The counted while loops' descriptions (`n < max_iter`)."""
    text = _core._analyses(func, tuple(args), False, False)
    return [line.partition(": ")[2] for line in text.splitlines() if line.startswith("while counted")]


def skips_with_continue(n, m):
    s = 0
    while n < m:
        if s > 3:
            s = 0
            continue
        s += 1
        n += 1
    return s


def steps_in_a_branch(n, m):
    while n < m:
        if n % 2 == 0:
            n += 1
        else:
            n += 2
    return n


def bound_moves(n, m):
    while n < m:
        n += 1
        m -= 1
    return n


def counter_of_floats(x, m):
    while x < m:
        x += 1.0
    return x


def either_term(x, n, m):
    while x > 0.0 or n < m:
        x -= 1.0
        n += 1
    return n


def holds_a_loop(n, m):
    s = 0
    while n < m:
        for k in range(n):
            s += k
        n += 1
    return s


def steps_down(n, m):
    while n < m:
        n -= 1
        if n < -10:
            break
    return n


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own analyses")
def test_while_loops_that_count():
    assert counted(escape_count, F64, F64, I64) == ["n < max_iter"]
    assert counted(in_a_loop_nest, I64, I64, I64) == ["n < max_iter"]
    assert counted(counts_to_inclusive, I64, I64) == ["n <= m"]
    assert counted(counts_below_reversed, I64, I64) == ["n < m"]
    assert counted(counts_to_a_literal, I64) == ["n < 100000"]
    assert counted(counter_second, F64, I64, I64) == ["n < m"]
    assert counted(counter_maybe_unbound, I64, I64) == ["n < m"]


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own analyses")
@pytest.mark.parametrize("func, args", [
    (skips_with_continue, ("I64", "I64")),   # a continue skips the step
    (steps_in_a_branch, ("I64", "I64")),     # stepped only in branches
    (bound_moves, ("I64", "I64")),           # the bound is assigned in the body
    (counter_of_floats, ("F64", "I64")),     # a float counter
    (either_term, ("F64", "I64", "I64")),    # an `or`: the counter does not bound it
    (holds_a_loop, ("I64", "I64")),          # a loop inside polls on its own terms
    (steps_down, ("I64", "I64")),            # the counter goes down
])
def test_while_loops_that_do_not_count(func, args):
    assert counted(func, *(globals()[a] for a in args)) == []
    assert compiled(func)(*[0.0 if a == "F64" else 0 for a in args[:-1]], 9) == \
        func(*[0.0 if a == "F64" else 0 for a in args[:-1]], 9)
