"""Generator functions (yield) in compiled code: consumed by for loops,
next(), iter(), list(), sorted(), sum(), min() and max() in compiled code,
iter() and next() of arrays, tuples, ranges, lists, dicts and strings,
and iterated from Python; yields in loops and branches, several yields, a
return ending the generator, scalars, tuples and arrays yielded, locals
kept across yields. Each against the functions' Python originals on
generated inputs; StopIteration, errors raised in the body, and a
TypingError for what compiled generators refuse (yield from, send(),
throw(), a yield's value, a returned value, a yield inside a try statement
with a finally clause, which a generator dropped early would not run);
yields inside try/except, whose handlers catch what the body raises after
a resumption."""
import gc

import numpy as np
import pytest

import ruchey
from ruchey import njit

from conftest import AS_NUMBA, assert_same, assert_same_value, float_array, make_rng, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own generator objects and messages")


@njit
def fibonacci(n):
    a, b = 0, 1
    for _ in range(n):
        yield a
        a, b = b, a + b


@njit
def windows(a, w):
    """The sums of a's windows of w elements, sliding by one."""
    for i in range(len(a) - w + 1):
        yield a[i:i + w].sum()


@njit
def primes(n):
    """The primes below n, by a sieve kept across yields."""
    sieve = np.ones(max(n, 0), dtype=np.bool_)
    for i in range(2, n):
        if sieve[i]:
            yield i
            for j in range(i * i, n, i):
                sieve[j] = False


@njit
def tree_walk(left, right, values):
    """A binary tree's values in preorder, by a stack."""
    stack = [0]
    while len(stack) > 0:
        i = stack.pop()
        yield values[i]
        if right[i] >= 0:
            stack.append(right[i])
        if left[i] >= 0:
            stack.append(left[i])


@njit
def doubled_rows(a):
    for i in range(a.shape[0]):
        yield a[i] * 2.0


@njit
def branches(n, stop):
    """Tuples from two yields in branches; a return ends it early."""
    for i in range(n):
        if i % 3 == 0:
            yield i, 0.5
        else:
            yield i * 10, i / 4
        if i == stop:
            return
    yield -1, -1.0


@njit
def numbers(k):
    """Several yields in a row, an int and a float unified as float64."""
    yield k
    yield k / 2
    while k > 1:
        k = k // 2 if k % 2 == 0 else 3 * k + 1
        yield k


@njit
def nested_primes(n):
    for p in primes(n):
        for q in primes(p):
            yield p * q


@njit
def fib_sum(n):
    s = 0
    for x in fibonacci(n):
        s += x
    return s


@njit
def window_total(a, w):
    t = 0.0
    for s in windows(a, w):
        t += s
    return t


@njit
def primes_below(n, limit):
    """The sum of the primes below n up to limit: a break leaves the generator suspended."""
    s = 0
    for p in primes(n):
        if p > limit:
            break
        s += p
    return s


@njit
def walk_sum(left, right, values):
    s = 0.0
    for v in tree_walk(left, right, values):
        s = s * 0.5 + v
    return s


@njit
def rows_total(a):
    t = np.zeros(a.shape[1])
    for r in doubled_rows(a):
        t += r
    return t


@njit
def branch_pairs(n, stop):
    s = 0.0
    k = 0
    for i, x in branches(n, stop):
        s += i * x
        k += 1
    return s, k


@njit
def number_list(k):
    out = [0.0]
    for x in numbers(k):
        out.append(x)
    return len(out), out[-1], sum(numbers(k))


@njit
def consumers(n):
    return sum(fibonacci(n)), len(list(fibonacci(n))), max(fibonacci(n + 1)), min(primes(n + 3)), sorted(primes(n + 3))[-1]


@njit
def with_next(n):
    g = fibonacci(n)
    first = next(g, -1)
    second = next(g, -1)
    rest = 0
    while True:
        x = next(g, -1)
        if x < 0:
            break
        rest += x
    return first, second, rest


@njit
def three_nexts(n):
    g = fibonacci(n)
    h = iter(g)
    return next(h), next(g), next(h)


@njit
def total(g):
    s = 0
    for x in g:
        s += x
    return s


@njit
def pass_generator(n):
    return total(fibonacci(n))


def tree(rng, n):
    """A random binary tree of n nodes: children's indices (-1: none)."""
    left, right = -np.ones(n, dtype=np.int64), -np.ones(n, dtype=np.int64)
    for child in range(1, n):
        while True:
            parent = int(rng.integers(0, child))
            side = left if rng.random() < 0.5 else right
            if side[parent] < 0:
                side[parent] = child
                break
    return left, right, rng.standard_normal(n)


@pytest.mark.parametrize("n", [0, 1, 2, 10, 50, 88])
def test_fibonacci_generator_consumed_by_for_loop(n):
    assert_same(fib_sum, n)


@pytest.mark.parametrize("n", [0, 1, 5, 100, 1000])
@pytest.mark.parametrize("w", [1, 3, 8, 33])
def test_sliding_window_generator_over_array(n, w):
    a = float_array(make_rng(seed_of("windows", n, w)), n)
    assert_same(window_total, a, w, rel=1e-12)


@pytest.mark.parametrize("n", [0, 2, 3, 30, 1000])
def test_prime_sieve_generator_keeps_its_array_across_yields(n):
    for limit in (0, 5, 97, n):
        assert_same(primes_below, n, limit)


@pytest.mark.parametrize("n", [1, 2, 9, 200])
def test_tree_walk_generator_with_a_stack(n):
    left, right, values = tree(make_rng(seed_of("tree", n)), n)
    assert_same(walk_sum, left, right, values)


def test_generator_yielding_arrays():
    a = make_rng(seed_of("rows")).standard_normal((5, 3))
    assert_same(rows_total, a)


@pytest.mark.parametrize("stop", [-1, 0, 4, 20])
def test_yields_in_branches_and_return_ending_the_generator(stop):
    assert_same(branch_pairs, 12, stop)


@pytest.mark.parametrize("k", [1, 6, 27, 97])
def test_several_yields_unified_to_float(k):
    assert_same(number_list, k)


@pytest.mark.parametrize("n", [0, 1, 20])
def test_generator_consuming_generators(n):
    assert list(nested_primes(n)) == list(nested_primes.py_func(n))


@pytest.mark.parametrize("n", [1, 2, 12])
def test_list_sorted_sum_min_max_of_generators(n):
    assert_same(consumers, n)


@pytest.mark.parametrize("n", [0, 1, 2, 10])
def test_next_with_default_runs_to_the_end(n):
    assert_same(with_next, n)


def test_iter_of_a_generator_is_the_generator():
    assert_same(three_nexts, 6)


def test_next_of_exhausted_generator_raises_stop_iteration():
    with pytest.raises(StopIteration):
        three_nexts(2)
    with pytest.raises(StopIteration):
        three_nexts.py_func(2)


def test_generator_passed_to_a_compiled_function():
    for n in (0, 1, 30):
        assert pass_generator(n) == sum(fibonacci.py_func(n))


@njit
def yields_inside_try(a, bad):
    for i in range(a.size):
        try:
            if a[i] == bad:
                raise ValueError("bad item")
            yield a[i] * 2
            if a[i] < 0:
                raise KeyError(i)
        except ValueError:
            yield -1.0
        except KeyError:
            try:
                yield 100.0 + i
            except Exception:
                pass
    try:
        yield 10 // (a.size - 3)
    except ZeroDivisionError:
        return


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_yields_inside_try_except_catch_what_runs_after_the_resumption(dtype):
    rng = make_rng(seed_of("yields_inside_try"))
    for n in (0, 3, 8):
        a = rng.integers(-4, 5, n).astype(dtype)
        bad = a[n // 2] if n else 0
        assert list(yields_inside_try(a, bad)) == list(yields_inside_try.py_func(a, bad))


def test_errors_raised_in_the_body_propagate():
    @njit
    def risky(n):
        for i in range(n):
            yield 10 // (3 - i)

    @njit
    def consume(n):
        s = 0
        for x in risky(n):
            s += x
        return s

    assert consume(3) == consume.py_func(3)
    with pytest.raises(ZeroDivisionError):
        consume(5)
    with pytest.raises(ZeroDivisionError):
        list(risky(5))


@njit
def iterate_three(x):
    it = iter(x)
    a = next(it)
    b = next(it, a)
    s = a
    for v in it:
        s += v
    return a, b, s


@pytest.mark.parametrize("make", [
    lambda rng: rng.standard_normal(6),
    lambda rng: rng.integers(-50, 50, size=2),
    lambda rng: tuple(rng.integers(-50, 50, size=4).tolist()),
    lambda rng: (float(rng.standard_normal()),),
], ids=["float array", "int array", "tuple of ints", "tuple of one float"])
def test_iter_and_next_of_arrays_and_tuples(make):
    x = make(make_rng(seed_of("iterate", repr(make))))
    assert_same(iterate_three, x, rel=1e-12)


@njit
def rows_of_iter(a):
    """list(iter(a)) of an array of 2 or more dimensions: its rows, views
    that write through to a, as list(a)'s."""
    rows = list(iter(a))
    if len(rows):
        rows[-1][0] = 7
    return rows, a


def test_list_of_iter_of_an_nd_array_is_its_rows():
    rng = make_rng(seed_of("iterate", "rows"))
    base = rng.integers(-50, 50, size=(4, 3, 2))
    for dtype in (np.float64, np.int32, np.bool_):
        x = base.astype(dtype)
        for a in (x[:, :, 0], np.asfortranarray(x[:, :, 1]), x[::-1, ::2], x, x[:0]):
            assert_same(rows_of_iter, a)
            rows, _ = rows_of_iter(a)
            assert all(r.dtype == a.dtype and r.strides == a.strides[1:] and r.base is not None for r in rows)


@njit
def iterate_range(start, stop, step):
    it = iter(range(start, stop, step))
    return next(it, -99), next(it, -99), next(it, -99)


@pytest.mark.parametrize("start, stop, step", [(0, 0, 1), (2, 7, 3), (10, -5, -4), (-3, 3, 1)])
def test_iter_and_next_of_ranges(start, stop, step):
    assert_same(iterate_range, start, stop, step)


@njit
def iterate_containers(n, s):
    squares = [i * i for i in range(n)]
    d = {}
    for i in range(n):
        d[3 * i] = 0.5 * i
    lst, keys, chars = iter(squares), iter(d), iter(s)
    return next(lst, -1) + next(lst, -1), next(keys, -1), next(keys, -1), next(chars, "?") + next(chars, "?")


@pytest.mark.parametrize("n, s", [(0, ""), (1, "a"), (5, "xyz")])
def test_iter_and_next_of_lists_dicts_and_strings(n, s):
    assert_same(iterate_containers, n, s)


def test_next_of_exhausted_iterator_raises_stop_iteration():
    @njit
    def second(n):
        it = iter(range(n))
        next(it)
        return next(it)

    assert second(2) == 1
    with pytest.raises(StopIteration):
        second(1)
    with pytest.raises(StopIteration):
        second.py_func(1)


@njit
def preorder(left, right, values, i):
    """A binary tree's values in preorder, by recursive generators."""
    yield values[i]
    if left[i] >= 0:
        for v in preorder(left, right, values, left[i]):
            yield v
    if right[i] >= 0:
        for v in preorder(left, right, values, right[i]):
            yield v


@njit
def preorder_sum(left, right, values):
    s = 0.0
    for v in preorder(left, right, values, 0):
        s = s * 0.5 + v
    return s


@pytest.mark.parametrize("n", [1, 2, 9, 60])
def test_recursive_generator_walks_a_tree(n):
    left, right, values = tree(make_rng(seed_of("preorder", n)), n)
    assert_same(preorder_sum, left, right, values)
    assert list(preorder(left, right, values, 0)) == list(preorder.py_func(left, right, values, 0))


@njit
def row_sums(a):
    for i in range(a.shape[0]):
        yield a[i].sum()


@njit
def over_temporaries(a):
    s = 0.0
    for r in row_sums(a * 2.0 + 1.0):
        s += r
    for r in row_sums(a[1:, ::2]):
        s += r
    return s


def test_generator_keeps_temporary_and_view_arguments():
    a = make_rng(seed_of("temporaries")).standard_normal((4, 5))
    assert_same(over_temporaries, a, rel=1e-12)


@njit(parallel=True)
def parallel_sums(a):
    for k in range(3):
        s = 0.0
        for i in ruchey.prange(a.shape[0]):
            s += a[i] * k
        yield s


def test_generator_with_prange_loops_between_yields():
    a = make_rng(seed_of("parallel")).standard_normal(1000)
    got, want = list(parallel_sums(a)), list(parallel_sums.py_func(a))
    assert got == pytest.approx(want, rel=1e-12)


@njit
def enumerated(n, start):
    s = 0
    for i, x in enumerate(fibonacci(n), start):
        if x == 1:
            continue
        if i > 40:
            break
        s = s * 3 % 1000003 + i * x
    return s


@pytest.mark.parametrize("n", [0, 1, 2, 10, 60])
@pytest.mark.parametrize("start", [0, -3, 7])
def test_enumerate_over_a_generator(n, start):
    assert_same(enumerated, n, start)


@njit
def numbered(a, start):
    return [(i, x) for i, x in enumerate(a, start)], [i for i, _ in enumerate(a, start=start)]


def test_enumerate_starts_at_an_int_as_python():
    rng = make_rng(seed_of("numbered"))
    for _ in range(10):
        a = float_array(rng, int(rng.integers(0, 6)))
        for start in (int(rng.integers(-5, 5)), True, np.int16(rng.integers(-100, 100)), np.uint8(250)):
            assert numbered(a, start) == numbered.py_func(a, start)
    with pytest.raises(ruchey.TypingError):
        numbered(np.ones(2), 1.5)  # Python's TypeError: a float is no start
    with pytest.raises(TypeError):
        numbered.py_func(np.ones(2), 1.5)


@njit
def zipped(a, n, m):
    s = 0.0
    for v, x in zip(a, fibonacci(n)):
        s = s * 0.5 + v * x
    for i, (x, p) in enumerate(zip(fibonacci(n), primes(m))):
        s = s * 0.5 + i * x - p
    return s


@pytest.mark.parametrize("size, n, m", [(0, 5, 5), (3, 10, 30), (10, 4, 100), (8, 8, 2)])
def test_zip_over_sequences_and_generators(size, n, m):
    a = float_array(make_rng(seed_of("zipped", size)), size)
    assert_same(zipped, a, n, m, rel=1e-12)


# ---------------------------------------------------------------- from Python

@pytest.mark.parametrize("n", [0, 1, 15])
def test_generator_called_from_python_is_an_iterator(n):
    g = fibonacci(n)
    assert iter(g) is g
    assert list(g) == list(fibonacci.py_func(n))
    assert list(g) == []
    assert [x for x in primes(n * 3)] == list(primes.py_func(n * 3))


def test_generator_from_python_yields_tuples_arrays_and_none():
    for got, want in zip(branches(8, 5), branches.py_func(8, 5)):
        assert_same_value(want, got)
    a = make_rng(seed_of("rows", "python")).standard_normal((4, 2))
    got, want = list(doubled_rows(a)), list(doubled_rows.py_func(a))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same_value(w, g)

    @njit
    def bare(n):
        for _ in range(n):
            yield

    assert list(bare(3)) == [None, None, None]


def test_next_from_python_and_stop_iteration():
    g = primes(10)
    assert (next(g), next(g)) == (2, 3)
    assert list(g) == [5, 7]
    with pytest.raises(StopIteration):
        next(g)
    assert next(g, "done") == "done"


@pytest.mark.parametrize("w", [2, 8, 16, 33])
def test_generator_from_python_keeps_vector_locals_aligned(w):
    a = float_array(make_rng(seed_of("aligned", w)), 200)
    assert list(windows(a, w)) == pytest.approx(list(windows.py_func(a, w)), rel=1e-12)


def test_generator_from_python_keeps_its_array_argument_alive():
    a = np.arange(20.0)
    g = windows(a, 4)
    want = list(windows.py_func(a.copy(), 4))
    del a
    gc.collect()
    junk = [np.full(20, 7.0) for _ in range(50)]
    assert list(g) == want
    del junk


def test_abandoned_generators_release_their_arrays():
    @njit
    def first_row(a):
        for r in doubled_rows(a):
            return r.sum()
        return 0.0

    a = np.ones((3, 1000))
    for _ in range(2000):
        assert first_row(a) == 2000.0
        g = doubled_rows(a)
        next(g)
        del g


# ---------------------------------------------------------------- what is refused

def refused_yield_from(n):
    x = yield from range(n)
    yield x


def refused_yield_value(n):
    x = yield n
    yield x


def refused_return_value(n):
    yield n
    return 5


def refused_yield_in_try_finally(n):
    try:
        yield n
    except ValueError:
        pass
    finally:
        n += 1


def refused_send(n):
    g = fibonacci(n)
    g.send(None)
    return 1


def refused_throw(n):
    g = fibonacci(n)
    g.throw(ValueError)
    return 1


def refused_close(n):
    g = fibonacci(n)
    g.close()
    return 1


def yield_in_prange(n):
    for i in ruchey.prange(n):
        yield i


def next_of_int(n):
    return next(n)


def iter_of_int(n):
    return iter(n)


def len_of_generator(n):
    return len(fibonacci(n))


def zip_else(n):
    for _ in zip(range(n), fibonacci(n)):
        pass
    else:
        return 1
    return 0


@pytest.mark.parametrize("f, message", [
    (refused_yield_from, "yield from"),
    (refused_yield_value, "values of yield expressions"),
    (refused_return_value, "generator returning a value"),
    (refused_yield_in_try_finally, "yield inside a try statement with a finally clause"),
    (refused_send, r"send\(\) is not supported"),
    (refused_throw, "'ValueError' of Python type 'type' cannot be used in compiled code"),
    (refused_close, r"close\(\) is not supported"),
    (yield_in_prange, "yield inside a prange loop"),
    (next_of_int, r"next\(\) of int64"),
    (iter_of_int, r"len\(\) of int64 is not supported"),
    (len_of_generator, "a generator has no len"),
    (zip_else, "cannot have an else clause"),
])
def test_unsupported_generator_code_is_a_typing_error(f, message):
    with pytest.raises(ruchey.TypingError, match=message):
        njit(f)(3)


def test_generator_that_ends_refuses_a_signature_returning_a_value():
    """As Numba reads it, a signature's return type is that of the value
    the generator ends with, None."""
    def gen(n):
        yield n

    with pytest.raises(ruchey.TypingError, match="ends with None, but its signature declares int64"):
        njit("int64(int64)")(gen)(3)


def endless(n):
    i = 1
    while i <= n:
        yield i
        i += 1
    while True:
        yield -1


@pytest.mark.parametrize("seed", range(3))
def test_generator_that_never_ends_takes_a_signature(seed):
    """Compiled when decorated (porespy's SimpleGenerator), called as any generator."""
    n = int(make_rng(seed).integers(0, 6))
    gen = njit("int64(int64)")(endless)
    assert gen.signatures
    got, expected = gen(n), endless(n)
    assert [next(got) for _ in range(n + 3)] == [next(expected) for _ in range(n + 3)]


# ---------------------------------------------------------------- generator expressions read whole

@njit
def generator_expressions_read_whole(n, a):
    return (sum(i * i for i in range(n)), max(x for x in a if x < 0.5), min(abs(x - 0.5) for x in a),
            sorted(int(x * 10) for x in a), list(i for i in range(n) if i % 2), sorted(set(i % 3 for i in range(n))),
            ",".join(str(i) for i in range(n)), sum(x * y for x in range(3) for y in range(n)))


@njit
def generator_expression_kept_lazy(n):
    g = (i for i in range(n))
    return g


def test_generator_expressions_as_the_argument_of_a_whole_reader():
    rng = make_rng(seed_of("generator expressions"))
    for n in (1, 2, 7):
        a = rng.random(9)
        a[0] = 0.1  # max() of the filtered items is never empty
        got, want = generator_expressions_read_whole(n, a), generator_expressions_read_whole.py_func(n, a)
        assert [list(v) if hasattr(v, "__len__") and not isinstance(v, str) else v for v in got] == \
               [list(v) if hasattr(v, "__len__") and not isinstance(v, str) else v for v in want]
    with pytest.raises(ValueError):
        generator_expressions_read_whole(1, np.ones(3))  # max() of nothing, as Python's
    with pytest.raises(ruchey.TypingError, match="generator expressions are not supported"):
        generator_expression_kept_lazy(3)
