"""numpy.random and Python's random module in compiled code.

Compiled code has generators of its own (one Mersenne Twister per thread
for numpy.random and one for random), seeded by numpy.random.seed(n) and
random.seed(n) called in compiled code. From the same seed every
numpy.random function here draws exactly NumPy's legacy stream
(numpy.random.seed(n) and the same calls in Python); the random module's
functions draw as Numba's do: doubles, gauss and getrandbits from a state
seeded as NumPy seeds, which these tests rebuild from NumPy's words.
Draws without a seed (each thread's state from the system's entropy, a
prange loop's threads among them) are checked by their moments, with
bounds tens of standard errors wide: never flaky."""
import math
import os
import random

import numpy as np
import pytest

import ruchey
from ruchey import _helperlib
from conftest import AS_NUMBA, numba_deviation, run_python_file

SEED = 12345

# ---------------------------------------------------------------- numpy.random: NumPy's stream


def compiled_and_plain(expr):
    """f() seeding compiled code's generator, then evaluating expr; and the same in Python."""
    namespace = {"np": np}
    exec(f"def f():\n    np.random.seed({SEED})\n    return {expr}\n", namespace)
    return ruchey.njit(namespace["f"]), namespace["f"]


differs_in_numba = numba_deviation("its gamma, beta, chisquare and vonmises draw another stream than NumPy's")

SAME_STREAM = [
    "np.random.random()", "np.random.random(7)", "np.random.random((3, 4))", "np.random.random_sample(5)",
    "np.random.sample(size=5)", "np.random.ranf(3)", "np.random.rand()", "np.random.rand(3)",
    "np.random.rand(2, 3)", "np.random.randn()", "np.random.randn(2, 5)",
    "np.random.uniform()", "np.random.uniform(-2.0, 3.0)", "np.random.uniform(1, 2, (2, 3))",
    "np.random.uniform(high=4.0, size=5)",
    "np.random.normal()", "np.random.normal(1.5, 2.0)", "np.random.normal(size=9)",
    "np.random.normal(scale=3.0, size=(3, 3))", "np.random.standard_normal()", "np.random.standard_normal(7)",
    "np.random.randint(10)", "np.random.randint(-5, 5)", "np.random.randint(0, 2**40)",
    "np.random.randint(-2**62, 2**62, size=6)", "np.random.randint(3, size=(2, 4))",
    "np.random.randint(0, 2**32, size=5)", "np.random.randint(7, 8, size=3)",
    "np.random.exponential()", "np.random.exponential(2.5, 6)", "np.random.standard_exponential(4)",
    "np.random.poisson()", "np.random.poisson(3.5, 8)", "np.random.poisson(45.0, 8)", "np.random.poisson(0.0, 3)",
    "np.random.binomial(10, 0.3, 8)", "np.random.binomial(1000, 0.3, 8)", "np.random.binomial(1000, 0.8, 8)",
    "np.random.binomial(7, 0.9, 8)", "np.random.binomial(0, 0.5)", "np.random.binomial(5, 1.0, 3)",
    "np.random.geometric(0.5, 8)", "np.random.geometric(0.05, 8)", "np.random.geometric(1.0)",
    "np.random.lognormal(size=5)", "np.random.lognormal(1.0, 0.5, 5)",
    "np.random.laplace(size=6)", "np.random.laplace(2.0, 3.0, 6)", "np.random.logistic(size=6)",
    "np.random.gumbel(1.0, 2.0, 6)", "np.random.pareto(2.0, 6)", "np.random.rayleigh(size=6)",
    "np.random.rayleigh(3.0, 6)", "np.random.weibull(1.5, 6)", "np.random.weibull(0.0, 3)",
    "np.random.triangular(0.0, 1.0, 3.0, 6)", "np.random.triangular(0.0, 0.0, 1.0, 4)",
    "np.random.choice(10)", "np.random.choice(10, 6)", "np.random.choice(10, (2, 3))",
    "np.random.choice(10, 6, replace=False)", "np.random.choice(10, 10, False)",
    "np.random.choice(4, 8, p=np.array([0.1, 0.2, 0.3, 0.4]))",
    "np.random.choice(5, 3, replace=False, p=np.array([0.1, 0.2, 0.3, 0.2, 0.2]))",
    "np.random.choice(4, p=np.array([0.0, 0.5, 0.0, 0.5]))",
    "np.random.choice(np.arange(10.0) * 2, 4)", "np.random.choice(np.arange(10.0) * 2)",
    "np.random.choice(np.arange(20)[::3], 4, replace=False)",
    "np.random.permutation(10)", "np.random.permutation(0)", "np.random.permutation(np.arange(6.0))",
    "np.random.permutation(np.arange(12).reshape(4, 3))",
    # every argument by its keyword
    "np.random.randint(low=1, high=9, size=5)", "np.random.randint(low=7)", "np.random.randint(-3, high=3, size=4)",
    "np.random.choice(a=7, size=4)", "np.random.choice(a=np.arange(5.0), size=3, replace=False)",
    "np.random.choice(a=5, p=np.array([0.1, 0.2, 0.3, 0.2, 0.2]))",
] + [pytest.param(e, marks=differs_in_numba) for e in (
    "np.random.standard_gamma(2.5, 8)", "np.random.standard_gamma(0.5, 8)", "np.random.standard_gamma(1.0, 8)",
    "np.random.gamma(3.0, 2.0, 8)", "np.random.gamma(0.3)", "np.random.beta(0.5, 0.5, 8)",
    "np.random.beta(2.0, 3.0, 8)", "np.random.chisquare(3.0, 8)", "np.random.vonmises(1.0, 2.0, 8)",
    "np.random.vonmises(0.0, 1e-6, 8)", "np.random.vonmises(-1.0, 50.0, 8)")]


@pytest.mark.parametrize("expr", SAME_STREAM)
def test_numpy_random_draws_numpys_legacy_stream(expr):
    compiled, plain = compiled_and_plain(expr)
    got, expected = compiled(), plain()
    assert np.shape(got) == np.shape(expected)
    if isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


SIZE_EMPTY_TUPLE = [
    "np.random.random(())", "np.random.uniform(1.0, 2.0, size=())",
    pytest.param("np.random.normal(size=())", marks=numba_deviation("its normal() refuses size=()")),
    "np.random.standard_normal(())", "np.random.randint(0, 5, size=())", "np.random.poisson(3.0, ())",
    "np.random.binomial(10, 0.5, ())", "np.random.choice(5, ())",
    "rng.random(())", "rng.random((), dtype=np.float32)", "rng.normal(size=())", "rng.integers(0, 9, size=())",
    "rng.integers(0, 9, size=(), dtype=np.int8)", "rng.poisson(2.0, ())",
    pytest.param("rng.choice(5, ())", marks=numba_deviation("its Generator has no choice()")),
]


@pytest.mark.parametrize("expr", SIZE_EMPTY_TUPLE)
def test_size_of_an_empty_tuple_draws_a_0d_array(expr):
    namespace = {"np": np}
    exec(f"def f(rng):\n    np.random.seed({SEED})\n    return {expr}\n", namespace)
    got = ruchey.njit(namespace["f"])(np.random.default_rng(SEED))
    expected = namespace["f"](np.random.default_rng(SEED))
    assert type(got) is np.ndarray and got.shape == () and got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@ruchey.njit
def seeds_and_bounds_by_keyword(s):
    np.random.seed(seed=s)
    random.seed(a=s)
    return (np.random.random(), random.randint(a=1, b=100), random.randrange(start=3, stop=50, step=4),
            random.randrange(start=-5, stop=5), np.random.default_rng(s).choice(a=9, size=2)[1])


@ruchey.njit
def seeds_and_bounds_by_position(s):
    np.random.seed(s)
    random.seed(s)
    return (np.random.random(), random.randint(1, 100), random.randrange(3, 50, 4),
            random.randrange(-5, 5), np.random.default_rng(s).choice(9, 2)[1])


@numba_deviation("its Generator has no choice()")
@pytest.mark.parametrize("s", [0, 1, 77])
def test_seeds_and_bounds_by_keyword_draw_as_by_position(s):
    assert seeds_and_bounds_by_keyword(s) == seeds_and_bounds_by_position(s)


LOOP_DRAWS = [
    ("np.random.random()", "np.random.random()"),
    ("np.random.normal(0.5, 2.0)", "np.random.normal(0.5, 2.0)"),
    ("np.random.uniform(-1.0, 1.0)", "np.random.uniform(-1.0, 1.0)"),
    ("np.random.randint(0, 1000)", "np.random.randint(0, 1000)"),
    ("np.random.poisson(12.0)", "np.random.poisson(12.0)"),
    ("np.random.binomial(500, 0.4)", "np.random.binomial(500, 0.4)"),
    pytest.param("np.random.gamma(2.5, 1.0)", "np.random.gamma(2.5, 1.0)", marks=differs_in_numba),
]


@pytest.mark.parametrize("draw, plain_draw", LOOP_DRAWS)
def test_a_loop_of_single_draws_follows_numpys_stream(draw, plain_draw):
    """Thousands of draws: past the state's regeneration, through rejections."""
    namespace = {"np": np}
    exec(f"def f(n):\n    np.random.seed({SEED})\n    out = np.empty(n)\n    for i in range(n):\n"
         f"        out[i] = {draw}\n    return out\n", namespace)
    got = ruchey.njit(namespace["f"])(5000)
    np.random.seed(SEED)
    expected = np.array([eval(plain_draw) for _ in range(5000)], dtype=float)
    np.testing.assert_array_equal(got, expected)


@ruchey.njit
def shuffled(a, seed):
    np.random.seed(seed)
    np.random.shuffle(a)


@pytest.mark.parametrize("a", [np.arange(10), np.arange(0), np.arange(1.0, 2.0), np.arange(24.0).reshape(6, 4),
                               np.arange(20)[::2], np.arange(10)[::-1], np.arange(30, dtype=np.int8)])
def test_shuffle_shuffles_in_place_as_numpy(a):
    got, expected = a.copy(), a.copy()
    shuffled(got, 7)
    np.random.seed(7)
    np.random.shuffle(expected)
    np.testing.assert_array_equal(got, expected)


@ruchey.njit
def draw_after_seeds(np_seed, py_seed):
    np.random.seed(np_seed)
    random.seed(py_seed)
    a = np.random.random()
    random.random()
    return a, np.random.random()


def test_compiled_states_are_apart_from_numpys_and_each_other():
    np.random.seed(1)
    before = np.random.get_state()[1].copy()
    a, b = draw_after_seeds(SEED, 99)
    np.testing.assert_array_equal(np.random.get_state()[1], before)  # NumPy's own generator untouched
    np.random.seed(SEED)
    assert (a, b) == (np.random.random(), np.random.random())  # random's draw did not advance numpy's


# ---------------------------------------------------------------- Python's random module


def raw_words(seed, count):
    """The 32-bit words of the Mersenne Twister seeded with init_genrand(seed), as NumPy draws them."""
    np.random.seed(seed)
    return [int(w) for w in np.random.randint(0, 2**32, size=count, dtype=np.uint64)]


def randbelow(words, n):
    """Python's _randbelow(n) over the words: getrandbits(n.bit_length()) until below n."""
    k = n.bit_length()
    while True:
        if k <= 32:
            r = next(words) >> (32 - k)
        else:
            low = next(words)
            r = (next(words) >> (64 - k)) << 32 | low
        if r < n:
            return r


@ruchey.njit
def py_floats(seed, n, kind):
    random.seed(seed)
    out = np.empty(n)
    for i in range(n):
        if kind == 0:
            out[i] = random.random()
        elif kind == 1:
            out[i] = random.uniform(-3.0, 5.0)
        elif kind == 2:
            out[i] = random.gauss(1.0, 2.0)
        elif kind == 3:
            out[i] = random.normalvariate(0.0, 1.0)
        else:
            out[i] = random.expovariate(1.5)
    return out


@pytest.mark.parametrize("kind, numpy_draw", [
    (0, lambda: np.random.random()),
    (1, lambda: -3.0 + 8.0 * np.random.random()),
    (2, lambda: np.random.normal(1.0, 2.0)),
    (3, lambda: np.random.normal()),
    (4, lambda: -math.log(1.0 - np.random.random()) / 1.5),
])
def test_python_random_draws_from_a_state_seeded_as_numpys(kind, numpy_draw):
    got = py_floats(SEED, 3000, kind)
    np.random.seed(SEED)
    np.testing.assert_array_equal(got, [numpy_draw() for _ in range(3000)])


@ruchey.njit
def py_ints(seed, n, low, high, kind):
    random.seed(seed)
    out = np.empty(n, np.int64)
    for i in range(n):
        if kind == 0:
            out[i] = random.randint(low, high)
        elif kind == 1:
            out[i] = random.randrange(low, high)
        else:
            out[i] = random.randrange(high)
    return out


@pytest.mark.parametrize("low, high", [(0, 1000), (0, 1023), (0, 1024), (-7, 7), (3, 3), (0, 2**40),
                                       (-2**45, 2**45 + 17)])
def test_python_randint_and_randrange_draw_as_randbelow(low, high):
    words = iter(raw_words(SEED, 20000))
    assert list(py_ints(SEED, 500, low, high, 0)) == [low + randbelow(words, high - low + 1) for _ in range(500)]
    if high > low:
        words = iter(raw_words(SEED, 20000))
        assert list(py_ints(SEED, 500, low, high, 1)) == [low + randbelow(words, high - low) for _ in range(500)]
        words = iter(raw_words(SEED, 20000))
        assert list(py_ints(SEED, 500, low, high, 2)) == [randbelow(words, high) for _ in range(500)] or high <= 0


@ruchey.njit
def py_bits(seed, k):
    random.seed(seed)
    return random.getrandbits(k), random.getrandbits(k)


@pytest.mark.parametrize("k", [1, 20, 32, 33, 40, 63, 64])
def test_python_getrandbits_fills_the_low_word_first(k):
    w = raw_words(SEED, 4)
    if k <= 32:
        expected = (w[0] >> (32 - k), w[1] >> (32 - k))
    else:
        expected = ((w[1] >> (64 - k)) << 32 | w[0], (w[3] >> (64 - k)) << 32 | w[2])
    assert py_bits(SEED, k) == expected


@numba_deviation("its getrandbits(0) and of a negative k raise OverflowError")
def test_python_getrandbits_follows_pythons_stream_to_64_bits_and_refuses_more():
    got = [py_bits(SEED, k) for k in range(0, 65)]
    expected = []
    for k in range(0, 65):
        r = python_random_following(SEED)
        expected.append((r.getrandbits(k), r.getrandbits(k)))
    assert got == expected
    with pytest.raises(OverflowError, match="limited to 64 bits"):
        py_bits(SEED, 65)
    with pytest.raises(ValueError, match="non-negative"):
        py_bits(SEED, -1)


def python_random_following(seed):
    """A Python Random in the state compiled code's random.seed(seed) leaves (seeded as NumPy seeds)."""
    keys, pos = np.random.RandomState(seed).get_state()[1:3]
    r = random.Random()
    r.setstate((3, tuple(int(k) for k in keys) + (int(pos),), None))
    return r


def variates(r, a, b):
    return [r.gammavariate(a, b), r.betavariate(a, b), r.paretovariate(a), r.weibullvariate(a, b), r.triangular(),
            r.triangular(a, a + b), r.triangular(a, a + b, a + b / 3), r.triangular(b, a, a), r.triangular(a, a, a),
            r.vonmisesvariate(a, b), r.vonmisesvariate(a, 0.0), r.random()]


def compiled_variates(seed, a, b):
    random.seed(seed)
    return [random.gammavariate(a, b), random.betavariate(a, b), random.paretovariate(a),
            random.weibullvariate(a, b), random.triangular(), random.triangular(a, a + b),
            random.triangular(a, a + b, a + b / 3), random.triangular(b, a, a), random.triangular(a, a, a),
            random.vonmisesvariate(a, b), random.vonmisesvariate(a, 0.0), random.random()]


@pytest.mark.parametrize("a, b", [(0.5, 2.0), (1.0, 1.0), (3.5, 0.25), (0.05, 7.0), (20.0, 3.0), (0.3, 0.1)])
def test_python_variates_follow_cpythons_algorithms_on_the_compiled_stream(a, b):
    # gamma (all three of CPython's methods), beta, pareto, weibull, triangular and von Mises, as Numba's
    f = ruchey.njit(compiled_variates)
    for seed in (0, 7, SEED):
        assert f(seed, a, b) == variates(python_random_following(seed), a, b)


@ruchey.njit
def py_lognormal(seed, mu, sigma):
    random.seed(seed)
    return random.lognormvariate(mu, sigma), random.lognormvariate(mu, sigma)


def test_python_lognormvariate_is_the_exp_of_its_normalvariate_as_numbas():
    # (normalvariate is the gauss NumPy draws, in Numba and here: so is lognormvariate's normal)
    for mu, sigma in [(0.0, 1.0), (2.0, 0.5), (-2.0, 0.5)]:
        r = np.random.RandomState(SEED)
        assert py_lognormal(SEED, mu, sigma) == (r.lognormal(mu, sigma), r.lognormal(mu, sigma))


@ruchey.njit
def py_shuffled(seed, x):
    random.seed(seed)
    random.shuffle(x)
    return x


@pytest.mark.parametrize("n", [0, 1, 2, 5, 64, 1000])
def test_python_shuffle_swaps_as_cpythons_on_the_compiled_stream(n):
    expected = list(range(n))
    python_random_following(SEED).shuffle(expected)
    assert list(py_shuffled(SEED, np.arange(n))) == expected
    assert list(py_shuffled(SEED, ruchey.typed.List([float(v) for v in range(n)] or [0.0])[:n])) == expected
    rows = np.arange(3 * n).reshape(n, 3)
    np.testing.assert_array_equal(py_shuffled(SEED, rows.copy()), rows[expected] if n else rows)


@pytest.mark.parametrize("alpha, beta", [(0.0, 1.0), (1.0, 0.0), (-0.5, 1.0), (1.0, -0.5)])
def test_python_gamma_and_beta_variates_of_bad_parameters_raise_as_python(alpha, beta):
    f = ruchey.njit(lambda a, b: (random.gammavariate(a, b), random.betavariate(a, b)))
    with pytest.raises(ValueError, match="gammavariate: alpha and beta must be > 0.0"):
        f(alpha, beta)


@ruchey.njit
def py_stepped(seed, n, start, stop, step):
    random.seed(seed)
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = random.randrange(start, stop, step)
    return out


@pytest.mark.parametrize("start, stop, step", [(0, 100, 7), (100, 0, -3), (5, 6, 10), (-50, 50, 3), (-1, -40, -13),
                                               (0, 2**40, 2**20 + 1), (3, 4, 1)])
def test_python_randrange_with_a_step_draws_an_index_of_the_range(start, stop, step):
    count = len(range(start, stop, step))
    words = iter(raw_words(SEED, 20000))
    got = list(py_stepped(SEED, 300, start, stop, step))
    assert got == [start + step * randbelow(words, count) for _ in range(300)]
    assert all(x in range(start, stop, step) for x in py_stepped.py_func(SEED, 50, start, stop, step))


@pytest.mark.parametrize("start, stop, step, message", [(0, 10, 0, "zero step"), (0, 10, -1, "empty range"),
                                                        (10, 0, 2, "empty range"), (4, 4, 3, "empty range")])
def test_python_randrange_with_a_bad_step_is_a_value_error(start, stop, step, message):
    with pytest.raises(ValueError):
        py_stepped.py_func(SEED, 1, start, stop, step)
    with pytest.raises(ValueError, match=message):
        py_stepped(SEED, 1, start, stop, step)


def test_python_randrange_step_must_be_an_int_after_a_stop():
    @ruchey.njit
    def float_step(x):
        return random.randrange(0, 10, x)

    @ruchey.njit
    def step_without_stop():
        return random.randrange(10, None, 2)

    with pytest.raises(ruchey.TypingError, match="step must be an int"):
        float_step(1.5)
    with pytest.raises(ruchey.TypingError, match="a step needs a stop"):
        step_without_stop()


def test_python_randint_of_an_empty_range_is_a_value_error():
    with pytest.raises(ValueError, match="empty range"):
        py_ints(SEED, 1, 5, 4, 0)
    with pytest.raises(ValueError, match="empty range"):
        py_ints(SEED, 1, 5, 5, 1)


# ---------------------------------------------------------------- the states by address (numba._helperlib)


@ruchey.njit
def numpy_stream(n):
    return np.random.random(n), np.random.normal(1.0, 2.0, n), np.random.randint(-9, 2**40, n)


@pytest.mark.parametrize("seed, skip", [(7, 0), (2**32 - 1, 1), (0, 623)])
def test_a_randomstate_copied_into_the_numpy_state_draws_its_stream(seed, skip):
    r = np.random.RandomState(seed)
    r.random_sample(skip)  # an index in the middle of the words
    ints, index = r.get_state()[1:3]
    _helperlib.rnd_set_state(_helperlib.rnd_get_np_state_ptr(), (index, [int(x) for x in ints]))
    got = numpy_stream(700)
    expected = r.random_sample(700), r.normal(1.0, 2.0, 700), r.randint(-9, 2**40, 700)
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)
    assert _helperlib.rnd_get_state(_helperlib.rnd_get_np_state_ptr()) == (r.get_state()[2], list(r.get_state()[1]))


@ruchey.njit
def python_stream(n):
    out = np.empty(n)
    for i in range(n):
        out[i] = random.random()
    return out, random.randrange(10**12), random.getrandbits(40)


def test_a_python_random_copied_into_the_random_state_draws_its_stream():
    r = random.Random(99)
    r.random()
    words = r.getstate()[1]
    _helperlib.rnd_set_state(_helperlib.rnd_get_py_state_ptr(), (words[-1], list(words[:-1])))
    out, below, bits = python_stream(1000)
    assert list(out) == [r.random() for _ in range(1000)]
    assert (below, bits) == (r.randrange(10**12), r.getrandbits(40))


@pytest.mark.parametrize("seed", [0, 1, 125, 2**32 - 5])
def test_rnd_seed_of_an_int_is_numpys_seeding(seed):
    ptr = _helperlib.rnd_get_py_state_ptr()
    _helperlib.rnd_seed(ptr, seed)
    ints, index = np.random.RandomState(seed).get_state()[1:3]
    assert _helperlib.rnd_get_state(ptr) == (index, [int(x) for x in ints])


def test_rnd_seed_of_bytes_perturbs_and_rnd_shuffle_twists_as_cpython():
    ptr = _helperlib.rnd_get_py_state_ptr()
    states = set()
    for _ in range(5):
        _helperlib.rnd_seed(ptr, 0)
        _helperlib.rnd_seed(ptr, os.urandom(64))
        states.add(tuple(_helperlib.rnd_get_state(ptr)[1]))
    assert len(states) == 5
    r = random.Random(5)  # at the end of its words: CPython twists them on its next draw
    words = r.getstate()[1]
    _helperlib.rnd_set_state(ptr, (words[-1], list(words[:-1])))
    r.random()
    _helperlib.rnd_shuffle(ptr)
    assert _helperlib.rnd_get_state(ptr)[1] == list(r.getstate()[1][:-1])


def test_rnd_set_state_of_a_bad_state_is_a_value_error():
    ptr = _helperlib.rnd_get_np_state_ptr()
    with pytest.raises(ValueError):
        _helperlib.rnd_set_state(ptr, (0, [1, 2, 3]))


# ---------------------------------------------------------------- unseeded draws, threads


@ruchey.njit
def unseeded_uniforms(n):
    return np.random.random(n)


def test_unseeded_draws_are_uniform_and_fresh():
    a, b = unseeded_uniforms(10**5), unseeded_uniforms(10**5)
    assert not np.array_equal(a, b)
    for x in (a, b):
        assert 0.0 <= x.min() and x.max() < 1.0
        assert abs(x.mean() - 0.5) < 0.02 and abs(x.var() - 1 / 12) < 0.01


def test_each_process_seeds_from_the_system(tmp_path):
    code = """
        import numpy as np, ruchey
        f = ruchey.njit(lambda: np.random.random())
        print(repr(f()))
    """
    outs = [run_python_file(code, tmp_path) for _ in range(2)]
    assert all(o.returncode == 0 for o in outs), outs[0].stderr
    assert outs[0].stdout != outs[1].stdout


@ruchey.njit(parallel=True)
def parallel_draws(n):
    out = np.empty((n, 3))
    for i in ruchey.prange(n):
        out[i, 0] = np.random.random()
        out[i, 1] = np.random.normal(0.0, 1.0)
        out[i, 2] = np.random.randint(0, 10)
    return out


def test_prange_threads_draw_from_their_own_states():
    n = 400000
    out = parallel_draws(n)
    u, g, k = out[:, 0], out[:, 1], out[:, 2]
    assert 0.0 <= u.min() and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.01
    assert len(np.unique(u)) > n - 10  # threads sharing a state (or a race) repeat values
    assert abs(g.mean()) < 0.03 and abs(g.std() - 1.0) < 0.03
    assert set(np.unique(k)) == set(range(10))


@ruchey.njit(parallel=True)
def parallel_seeded(n):
    out = np.empty(n)
    for i in ruchey.prange(n):
        np.random.seed(i)
        out[i] = np.random.random()
    return out


def test_seeding_in_a_prange_loop_seeds_that_threads_state():
    got = parallel_seeded(64)
    expected = []
    for i in range(64):
        np.random.seed(i)
        expected.append(np.random.random())
    np.testing.assert_array_equal(got, expected)


# ---------------------------------------------------------------- moments of each distribution


def moments_case(expr, mean, var):
    return pytest.param(expr, mean, var, id=expr.split("(")[0])


@pytest.mark.parametrize("expr, mean, var", [
    moments_case("np.random.random(N)", 0.5, 1 / 12),
    moments_case("np.random.uniform(2.0, 5.0, N)", 3.5, 9 / 12),
    moments_case("np.random.normal(1.0, 2.0, N)", 1.0, 4.0),
    moments_case("np.random.exponential(2.0, N)", 2.0, 4.0),
    moments_case("np.random.gamma(3.0, 2.0, N)", 6.0, 12.0),
    moments_case("np.random.standard_gamma(0.4, N)", 0.4, 0.4),
    moments_case("np.random.beta(2.0, 5.0, N)", 2 / 7, 10 / (49 * 8)),
    moments_case("np.random.chisquare(4.0, N)", 4.0, 8.0),
    moments_case("np.random.lognormal(0.0, 0.5, N)", math.exp(0.125), (math.exp(0.25) - 1) * math.exp(0.25)),
    moments_case("np.random.laplace(1.0, 2.0, N)", 1.0, 8.0),
    moments_case("np.random.logistic(0.0, 1.0, N)", 0.0, math.pi**2 / 3),
    moments_case("np.random.gumbel(0.0, 1.0, N)", 0.5772156649, math.pi**2 / 6),
    moments_case("np.random.pareto(5.0, N)", 0.25, 5 / (16 * 3)),
    moments_case("np.random.rayleigh(2.0, N)", 2.0 * math.sqrt(math.pi / 2), (4 - math.pi) / 2 * 4),
    moments_case("np.random.weibull(2.0, N)", math.gamma(1.5), 1 - math.gamma(1.5)**2),
    moments_case("np.random.triangular(0.0, 1.0, 4.0, N)", 5 / 3, (16 + 1 - 4) / 18),
    moments_case("np.random.poisson(7.0, N)", 7.0, 7.0),
    moments_case("np.random.poisson(300.0, N)", 300.0, 300.0),
    moments_case("np.random.binomial(40, 0.3, N)", 12.0, 8.4),
    moments_case("np.random.binomial(5000, 0.6, N)", 3000.0, 1200.0),
    moments_case("np.random.geometric(0.2, N)", 5.0, 20.0),
    moments_case("np.random.randint(-3, 9, N)", 2.5, (12**2 - 1) / 12),
])
def test_distribution_moments(expr, mean, var):
    """Seeded: the same numbers every run; the bounds are 8 standard errors."""
    namespace = {"np": np}
    exec(f"def f(N):\n    np.random.seed({SEED})\n    return {expr}\n", namespace)
    n = 200000
    x = ruchey.njit(namespace["f"])(n).astype(float)
    assert abs(x.mean() - mean) < 8 * math.sqrt(var / n)
    assert abs(x.var() / var - 1) < 0.05


@ruchey.njit
def vonmises_draws(n):
    np.random.seed(SEED)
    return np.random.vonmises(0.5, 4.0, n)


def test_vonmises_mean_direction_and_range():
    x = vonmises_draws(100000)
    assert -math.pi <= x.min() and x.max() <= math.pi
    assert abs(math.atan2(np.sin(x).mean(), np.cos(x).mean()) - 0.5) < 0.01


# ---------------------------------------------------------------- errors


ERRORS = [
    ("np.random.normal(0.0, -1.0)", "scale < 0"),
    ("np.random.normal(0.0, -1.0, 3)", "scale < 0"),
    ("np.random.exponential(-1.0)", "scale < 0"),
    ("np.random.gamma(-1.0)", "shape < 0"),
    ("np.random.beta(0.0, 1.0)", "a <= 0"),
    ("np.random.chisquare(0.0)", "df <= 0"),
    ("np.random.poisson(-1.0)", "lam < 0"),
    ("np.random.poisson(1e20)", "lam value too large"),
    ("np.random.binomial(-1, 0.5)", "n < 0"),
    ("np.random.binomial(3, 1.5)", "p < 0, p > 1"),
    ("np.random.geometric(0.0)", "p <= 0"),
    ("np.random.triangular(2.0, 1.0, 3.0)", "left > mode"),
    ("np.random.triangular(1.0, 1.0, 1.0)", "left == right"),
    ("np.random.randint(5, 5)", "low >= high"),
    ("np.random.randint(3, 1, size=4)", "low >= high"),
    ("np.random.choice(3, 5, replace=False)", "larger sample than population"),
    ("np.random.choice(0, 2)", "a must be greater than 0"),
    ("np.random.choice(np.arange(0.0), 2)", "'a' cannot be empty"),
    ("np.random.choice(3, 2, p=np.array([0.5, 0.5]))", "same size"),
    ("np.random.choice(3, 2, p=np.array([0.5, 0.6, -0.1]))", "non-negative"),
    ("np.random.choice(3, 2, p=np.array([0.5, 0.6, 0.1]))", "do not sum to 1"),
    ("np.random.choice(3, 2, replace=False, p=np.array([0.0, 0.0, 1.0]))", "Fewer non-zero entries"),
    ("np.random.random(-1)", "negative"),
]


@pytest.mark.parametrize("low, high", [(0.0, np.inf), (-np.inf, 1.0), (np.nan, 1.0), (0.0, np.nan),
                                       (-1e308, 1e308), (np.inf, np.inf)])
def test_uniform_of_an_infinite_range_is_numpys_overflow_error(low, high):
    for size in ("", ", 3"):
        compiled, plain = compiled_and_plain(f"np.random.uniform({low!r}, {high!r}{size})".replace("nan", "np.nan")
                                             .replace("inf", "np.inf"))
        for f in (plain, compiled):
            with pytest.raises(OverflowError, match="Range exceeds valid bounds"):
                f()


@pytest.mark.parametrize("expr, message", ERRORS)
def test_bad_parameters_raise_numpys_value_error(expr, message):
    compiled, plain = compiled_and_plain(expr)
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        plain()
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        compiled()


@ruchey.njit
def seed_with(s):
    np.random.seed(s)


@pytest.mark.parametrize("s", [-1, 2**32])
def test_a_seed_out_of_range_is_a_value_error(s):
    with pytest.raises(ValueError, match="Seed must be between 0 and 2\\*\\*32 - 1"):
        seed_with(s)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
@pytest.mark.parametrize("expr, message", [
    ("np.random.normal(0.0, 1.0, foo=3)", "unsupported keyword argument 'foo'"),
    ("np.random.normal(np.zeros(3))", "arrays of parameters are not supported"),
    ("np.random.gamma()", "missing required argument 'shape'"),
    ("np.random.random(2.5)", "a shape must be an int or a tuple"),
    ("np.random.seed(1.5)", "the seed must be an int"),
    ("np.random.shuffle(3)", "x must be an array"),
    ("np.random.choice(np.zeros((2, 2)))", "1-dimensional array"),
    ("np.random.choice(3, p=np.array([1, 2, 3]))", "p must be a 1-dimensional array of floats"),
    ("np.random.randint(1.5)", "low must be an int"),
])
def test_unsupported_calls_are_typing_errors(expr, message):
    compiled, _ = compiled_and_plain(expr)
    with pytest.raises(ruchey.TypingError, match=message):
        compiled()


# ---------------------------------------------------------------- numpy.random.Generator arguments

GENERATOR_DRAWS = [
    "rng.random()", "rng.random(5)", "rng.random((2, 3))", "rng.random(size=4)",
    "rng.uniform()", "rng.uniform(2.0, 5.0)", "rng.uniform(1, 2, 4)", "rng.uniform(high=3.0, size=(2, 2))",
    "rng.integers(10)", "rng.integers(-5, 5, 6)", "rng.integers(0, 2**40, size=5)",
    "rng.integers(3, 7, size=(2, 3), endpoint=True)", "rng.integers(0, 2**32, size=5)",
    "rng.integers(0, 2**32 - 1, size=5)", "rng.integers(-2**63, 2**63 - 1, size=3)",
    "rng.integers(5, 5, endpoint=True)", "rng.integers(low=1, high=1000, size=7)",
]


@pytest.mark.parametrize("expr", GENERATOR_DRAWS)
@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937, np.random.Philox])
def test_generator_methods_draw_numpys_stream_and_advance_its_state(expr, bit_generator):
    namespace = {"np": np}
    exec(f"def f(rng):\n    a = {expr}\n    return a, {expr}\n", namespace)
    mine, theirs = np.random.Generator(bit_generator(5)), np.random.Generator(bit_generator(5))
    got, expected = ruchey.njit(namespace["f"])(mine), namespace["f"](theirs)
    for g, e in zip(got, expected):
        assert np.shape(g) == np.shape(e)
        np.testing.assert_array_equal(g, e)
    assert mine.random() == theirs.random()  # the argument's own state moved on


@ruchey.njit
def generator_loop(rng, n):
    s = 0.0
    for _ in range(n):
        s += rng.random()
    return s


def test_a_loop_over_a_default_rng_draws_its_doubles():
    got, rng = generator_loop(np.random.default_rng(9), 1000), np.random.default_rng(9)
    total = 0.0
    for _ in range(1000):  # in order, as the loop adds (not sum(): CPython 3.12's compensates)
        total += rng.random()
    assert got == total


@pytest.mark.parametrize("expr, error, message", [
    ("rng.integers(5, 5)", ValueError, "low >= high"),
    ("rng.integers(5, 4, endpoint=True)", ValueError, "low > high"),
    ("rng.uniform(2.0, 1.0)", ValueError, "high - low < 0"),
    ("rng.uniform(0.0, np.inf)", OverflowError, "high - low range exceeds valid bounds"),
    ("rng.random(-1)", ValueError, "negative dimensions"),
])
def test_generator_errors_are_numpys(expr, error, message):
    namespace = {"np": np}
    exec(f"def f(rng):\n    return {expr}\n", namespace)
    for f in (namespace["f"], ruchey.njit(namespace["f"])):
        with pytest.raises(error, match=message):
            f(np.random.default_rng(1))


def test_a_generator_argument_returned_is_the_argument_itself():
    rng = np.random.default_rng(1)
    assert ruchey.njit(lambda rng: rng)(rng) is rng


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
def test_unknown_generator_methods_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="has no method 'multivariate_hypergeometric'"):
        ruchey.njit(lambda rng: rng.multivariate_hypergeometric(np.array([5, 5]), 3))(np.random.default_rng(1))
