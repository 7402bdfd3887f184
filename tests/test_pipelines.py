"""Which optimisation a compiled function gets: code without loops (run once
a call) is optimised by a lighter pipeline than code with loops or
recursion. The results must not depend on it: each kind is checked against
its Python original, on generated inputs with edge values.
"""
import math

import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, assert_same, make_rng, random_floats, random_ints


@ruchey.njit
def _straight_line(x, n):
    # branches, error paths, a tuple, complex arithmetic and a callee, no loop
    if n == 0:
        return (0.0, x, 1.0)
    q = n // 3 if n > 0 else -(n % 7)
    z = complex(x, q) * complex(q, x) / (x + 2j)
    return (math.copysign(abs(x) ** 0.5, x) + _helper(q), z.real, z.imag)


@ruchey.njit
def _helper(q):
    return q * 0.5 if q % 2 else float(q)


@ruchey.njit
def _is_even(n):
    return True if n == 0 else _is_odd(n - 1)


@ruchey.njit
def _is_odd(n):
    return False if n == 0 else _is_even(n - 1)


@ruchey.njit
def _fact(n):
    return 1 if n <= 1 else n * _fact(n - 1)


def _row_stats(a):
    # loop-free over its argument: NumPy calls only
    if a.size == 0:
        return 0.0, 0.0
    return a.sum(), np.sort(a)[a.size // 2]


def test_straight_line_code_gives_python_results():
    rng = make_rng(17)
    xs = random_floats(rng, 40)
    for x, n in zip(xs, random_ints(rng, 40, -50, 50)):
        assert_same(_straight_line, x, n)
    for x in (0.0, -0.0, 1.0, -3.5, math.inf, -math.inf, math.nan):
        for n in (0, 1, -1, 3, -7):
            assert_same(_straight_line, x, n)


def test_recursion_without_loops_gives_python_results():
    for n in (0, 1, 2, 7, 20, 101):
        assert_same(_is_even, n)
        assert_same(_fact, n)


def test_array_calls_without_loops_give_numpy_results():
    f = ruchey.njit(_row_stats)
    rng = make_rng(18)
    for n in (0, 1, 2, 9, 100):
        a = rng.standard_normal(n)
        if n > 2:
            a[1] = np.nan
        assert_same(f, a)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's generated code")
def test_loop_free_scalar_code_is_as_short_as_before():
    # the lighter pipeline leaves a small scalar function's machine code as
    # O3 made it: a multiply-add, no branch
    @ruchey.njit
    def scale(x, y):
        return x * 3.0 + y

    scale(1.0, 2.0)
    asm = next(iter(scale.inspect_asm().values()))
    body = [line for line in asm.splitlines() if line.startswith("\t") and not line.startswith("\t.")]
    assert not any(line.split()[0].startswith("j") for line in body), asm
