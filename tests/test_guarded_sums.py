"""`if c: s += t` in a loop, t costly (a division): the add leaves the
branch (t, or -0.0 where c fails) so that the loop vectorises as an ordered
reduction; the sum stays Python's to the bit, signed zeros, NaNs and
infinities included, and t's errors are raised only where c holds."""
import numpy
import pytest
import ruchey

from conftest import AS_NUMBA, assert_same, make_rng, seed_of

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="inspects ruchey's LLVM IR")


@ruchey.njit
def canberra(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        d = abs(x[i]) + abs(y[i])
        if d > 0:
            s += abs(x[i] - y[i]) / d
    return s


@ruchey.njit
def canberra_branching(x, y):
    """canberra with an else: a branch that stays a branch (the reference
    for float32, whose typing differs from Python's scalars as Numba's)."""
    s = 0.0
    for i in range(x.shape[0]):
        d = abs(x[i]) + abs(y[i])
        if d > 0:
            s += abs(x[i] - y[i]) / d
        else:
            pass
    return s


@ruchey.njit
def from_negative_zero(x, y):
    s = -0.0
    for i in range(x.shape[0]):
        if x[i] > 0.5:
            s += x[i] / y[i]
    return s


@ruchey.njit
def reciprocals(x):
    s = 0.0
    for i in range(x.shape[0]):
        if x[i] >= 0:
            s += 1.0 / x[i]
    return s


@ruchey.njit
def int_terms(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        if b[i] != 0:
            s += a[i] // b[i] / 3
    return s


def awkward(rng, n, dtype):
    x = (rng.random(n) - 0.5).astype(dtype)
    for k, v in enumerate([0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1e-310]):
        if k * 7 < n:
            x[k * 7] = v
    return x


@pytest.mark.parametrize("n", [0, 1, 7, 8, 33, 100, 1001])
def test_canberra_matches_python_to_the_bit(n):
    rng = make_rng(seed_of("guarded", n))
    assert_same(canberra, awkward(rng, n, "float64"), awkward(rng, n, "float64"))
    assert_same(canberra, rng.random(n), rng.random(n))
    z = numpy.zeros(n)
    assert_same(canberra, z, -z)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 33, 100, 1001])
def test_float32_terms_sum_as_the_branching_loop(n):
    rng = make_rng(seed_of("guarded32", n))
    for x, y in [(awkward(rng, n, "float32"), awkward(rng, n, "float32")),
                 (rng.random(n).astype("float32"), rng.random(n).astype("float32"))]:
        got, want = canberra(x, y), canberra_branching(x, y)
        assert repr(got) == repr(want)


@pytest.mark.parametrize("n", [0, 5, 64, 300])
def test_a_sum_no_guard_admits_keeps_its_negative_zero(n):
    rng = make_rng(seed_of("guarded_zero", n))
    x = rng.random(n) * 0.5
    assert_same(from_negative_zero, x, rng.random(n))
    assert_same(from_negative_zero, rng.random(n), rng.random(n))


def test_the_terms_errors_are_raised_only_where_the_guard_holds():
    x = numpy.array([1.0, -2.0, 4.0, 0.0, 8.0])
    with pytest.raises(ZeroDivisionError):
        reciprocals(x)
    assert_same(reciprocals, numpy.array([1.0, -0.0 - 2.0, 4.0, -3.0] * 20))
    a, b = numpy.arange(-50, 50), numpy.arange(100) % 7
    assert_same(int_terms, a, b)


@ruchey_only
def test_canberra_vectorises():
    x = numpy.ones(40)
    canberra(x, x)
    assert "vector.reduce.fadd" in canberra.inspect_llvm()[canberra.signatures[0]]
