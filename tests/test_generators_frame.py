"""Generators whose state lives in the consumer's frame: a generator made
by a call and only resumed where it is made (a for loop over gen(...),
next() on a local) keeps its state in the frame, one that escapes
(returned, passed on) the heap object; both in one function; errors
raised in the generator's body, an early break and a return out of the
consuming loop, a reassigned generator variable: each releases what the
generator's frame holds (arrays it made, its array arguments). Each
against the functions' Python originals on generated inputs."""
import sys

import numpy as np
import pytest

from ruchey import njit

from conftest import AS_NUMBA, assert_same, float_array, make_rng, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own generator objects")


@njit
def lcg(n):
    x = 1
    for _ in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        yield x


@njit
def sieve(n):
    """The primes below n; an array made in the generator's frame."""
    marks = np.ones(max(n, 0), dtype=np.bool_)
    for i in range(2, n):
        if marks[i]:
            yield i
            for j in range(i * i, n, i):
                marks[j] = False


@njit
def scaled(a, k):
    """Each element of the array argument times k, from a copy kept across yields."""
    b = a * k
    for i in range(len(b)):
        yield b[i]


@njit
def checked(a, limit):
    for i in range(len(a)):
        if a[i] > limit:
            raise ValueError("over the limit")
        yield a[i]


@njit
def lcg_sum(n):
    s = 0
    for x in lcg(n):
        s += x
    return s


@njit
def count_primes(n):
    c = 0
    for _ in sieve(n):
        c += 1
    return c


@njit
def scaled_total(a, k):
    s = 0.0
    for x in scaled(a, k):
        s += x
    return s


@njit
def first_primes_over(n, m):
    """Breaks out of the loop with the generator suspended, its array alive."""
    for p in sieve(n):
        if p > m:
            return p
    return -1


@njit
def primes_until(n, m):
    c = 0
    for p in sieve(n):
        if p > m:
            break
        c += p
    return c


@njit
def nexts(n):
    g = lcg(n)
    a = next(g, -1)
    b = next(g, -1)
    return a + b


@njit
def rows_of_primes(n, rows):
    """A generator variable reassigned in a loop: the state before dropped."""
    t = 0
    for r in range(rows):
        for p in sieve(n + r):
            if p > n // 2:
                break
            t += p * (r + 1)
    return t


@njit
def make_lcg(n):
    return lcg(n)


@njit
def summed(g):
    s = 0
    for x in g:
        s += x
    return s


@njit
def made_elsewhere(n):
    """A generator returned by one function and consumed by another."""
    g = make_lcg(n)
    s = 0
    for x in g:
        s += x
    return s + summed(make_lcg(n // 2))


@njit
def kept_and_escaping(n):
    """One generator consumed here, one passed to a compiled function."""
    s = 0
    for x in sieve(n):
        s += x
    return s + summed(lcg(n))


@njit
def checked_total(a, limit):
    s = 0.0
    for x in checked(a, limit):
        s += x
    return s


@njit
def zipped(n, a):
    s = 0.0
    for p, x in zip(sieve(n), scaled(a, 2.0)):
        s += p * x
    return s


@njit
def enumerated(n):
    s = 0
    for i, p in enumerate(sieve(n)):
        s += i * p
    return s


@pytest.mark.parametrize("n", [0, 1, 2, 100, 10007])
def test_generator_consumed_where_it_is_made(n):
    assert_same(lcg_sum, n)
    assert_same(count_primes, n)


@pytest.mark.parametrize("n", [0, 1, 33, 1000])
def test_generator_with_array_argument_and_array_local(n):
    a = float_array(make_rng(seed_of("frame scaled", n)), n)
    before = sys.getrefcount(a)
    for k in (0.5, -3.0):
        assert_same(scaled_total, a, k, rel=1e-12)
    assert sys.getrefcount(a) == before


@pytest.mark.parametrize("n, m", [(0, 5), (10, 5), (100, 50), (1000, 997), (1000, 2000)])
def test_early_break_and_return_out_of_the_consuming_loop(n, m):
    assert_same(first_primes_over, n, m)
    assert_same(primes_until, n, m)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_next_on_a_local_generator(n):
    assert_same(nexts, n)


@pytest.mark.parametrize("n, rows", [(10, 3), (50, 7), (2, 4)])
def test_generator_variable_reassigned_in_a_loop(n, rows):
    assert_same(rows_of_primes, n, rows)


@pytest.mark.parametrize("n", [0, 1, 30])
def test_escaping_generators_keep_the_heap_object(n):
    assert list(make_lcg(n)) == list(make_lcg.py_func(n))
    assert made_elsewhere(n) == sum(lcg.py_func(n)) + sum(lcg.py_func(n // 2))
    assert kept_and_escaping(n) == sum(sieve.py_func(n)) + sum(lcg.py_func(n))


def test_error_in_the_generator_propagates_and_releases_its_arrays():
    a = np.arange(12.0)
    before = sys.getrefcount(a)
    assert_same(checked_total, a, 100.0)
    for _ in range(200):
        with pytest.raises(ValueError, match="over the limit"):
            checked_total(a, 5.0)
    with pytest.raises(ValueError, match="over the limit"):
        checked_total.py_func(a, 5.0)
    assert sys.getrefcount(a) == before


@pytest.mark.parametrize("n", [0, 3, 40])
def test_zip_and_enumerate_of_local_generators(n):
    a = float_array(make_rng(seed_of("frame zip", n)), n // 2)
    assert_same(zipped, n, a, rel=1e-12)
    assert_same(enumerated, n)


def test_suspended_generators_release_their_frame_arrays():
    a = np.ones(1000)
    before = sys.getrefcount(a)
    for _ in range(2000):
        assert first_primes_over(1000, 3) == 5
        assert scaled_total(a, 2.0) == 2000.0
    assert sys.getrefcount(a) == before
