"""Expressions of int constants are the ints CPython's compiler folds them
into before Numba reads the bytecode: 2 ** 63, 1 << 63, 2 ** 64 - 1 are
exact (a uint64 where int64 cannot hold them), not int64 arithmetic that
wraps; a folded constant that no 64-bit int holds is a TypingError, as
the literal written out is; what CPython leaves to run time (2 ** 70,
1 // 0, a negative shift) is computed there, as Numba computes it. Each
against the Python original."""
import numpy as np
import pytest

import ruchey
from ruchey import njit


def folded(x):
    return (1 << 63, 2 ** 64 - 1, 2 ** 63, -2 ** 63, 2 ** 62 + 2 ** 62, 10 ** 18 * 10, ~0, -(1 << 62) * 2,
            (2 ** 64 - 1) >> 60, 0xFFFF_FFFF_FFFF_FFFF ^ (1 << 63), 7 // -2, -7 % 3, +5 & 6 | 8)


def mixed(x):
    """(an int64 with a uint64 constant is an int64, as Numba types it: values where both agree)"""
    return x % 2 ** 32, x & (2 ** 63 - 1), x + 2 ** 62, (x * 3) >> 2 ** 2, x // (1 << 20)


def test_int_constant_expressions_are_folded_exactly():
    got, want = njit(folded)(0), folded(0)
    assert got == want and all(type(g) is int for g in got)
    compiled = njit(mixed)
    rng = np.random.default_rng(7)
    for x in [0, 1, -1, 12345, 2 ** 40, *map(int, rng.integers(-2 ** 40, 2 ** 40, 5))]:
        assert compiled(x) == mixed(x)


def test_constants_no_64_bit_int_holds_are_a_typing_error():
    @njit
    def too_big(x):
        return x % 2 ** 64

    @njit
    def negative_too_big(x):
        return x + -(2 ** 64)

    for f in (too_big, negative_too_big):
        with pytest.raises(ruchey.TypingError, match="does not fit in int64 or uint64"):
            f(3)


def test_what_cpython_leaves_to_run_time_runs_there():
    @njit
    def divided(x):
        return x + 1 // 0

    @njit
    def shifted(x):
        return x + (1 << -1)

    with pytest.raises(ZeroDivisionError):
        divided(1)
    with pytest.raises(ValueError):
        shifted(1)

    @njit
    def float_results(x):
        return x + 2 ** 0.5, 1 / 4, 2 ** -1

    assert float_results(1.0) == float_results.py_func(1.0)


def negative_powers(x):
    """(CPython folds an int to a negative int power into its float, so that
    Numba reads 1e-08, a float, where int64 arithmetic would give 0)"""
    sbc = 5.6697 * 10 ** -8
    return 10 ** -8, 2 ** -1, (-2) ** -3, -3 ** -2, 10 ** -8 / 2, x * 10 ** -3, sbc * x, 7 ** -1 * 7 + x


def test_an_int_to_a_negative_int_power_is_its_float():
    compiled = njit(negative_powers)
    for x in (0, 3, -12345, 2.5, -0.0, 1e300, np.nan):
        got, want = compiled(x), negative_powers(x)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert type(g) is float and (g == w or (np.isnan(g) and np.isnan(w))), (x, got, want)

    @njit
    def to_zero_power_minus_one(x):
        return x + 0 ** -1

    with pytest.raises(ZeroDivisionError):
        to_zero_power_minus_one(1)
