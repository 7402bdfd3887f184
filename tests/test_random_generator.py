"""numpy.random.Generator in compiled code: its methods on an argument and
on one made by numpy.random.default_rng inside compiled code.

Every draw here is checked equal, to the bit, to the same calls on a
Generator in Python from the same state (each bit generator NumPy has),
and the Generator's state after the calls equal to Python's: the normals
and exponentials by NumPy's 256-layer ziggurats, gamma over them, the ints
by Lemire's rejection. Bad parameters raise NumPy's errors with its
messages."""
import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, run_python_file

BIT_GENERATORS = [np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64, np.random.PCG64DXSM]


def compiled_and_plain(body, args="rng"):
    """f(rng) returning body's draws and the state's next double; compiled and plain."""
    namespace = {"np": np}
    exec(f"def f({args}):\n    a = {body}\n    return a, rng.random()\n", namespace)
    return ruchey.njit(namespace["f"]), namespace["f"]


def assert_same(got, expected):
    assert type(got) is type(expected) or (np.ndim(got) == 0 and np.ndim(expected) == 0)
    assert np.shape(got) == np.shape(expected)
    if isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


# ---------------------------------------------------------------- the ziggurats and what draws over them

ZIGGURAT_DRAWS = [
    "rng.standard_normal()", "rng.standard_normal(10)", "rng.standard_normal((3, 4))", "rng.standard_normal(size=0)",
    "rng.normal()", "rng.normal(2.5)", "rng.normal(-1.0, 3.0)", "rng.normal(1, 2, 50)",
    "rng.normal(loc=4.0, scale=0.5, size=(2, 5))", "rng.normal(scale=2.0)", "rng.normal(0.0, 0.0, 3)",
    "rng.standard_exponential()", "rng.standard_exponential(40)", "rng.standard_exponential(size=(2, 2))",
    "rng.exponential()", "rng.exponential(3.0)", "rng.exponential(2, 30)", "rng.exponential(scale=0.5, size=7)",
    "rng.gamma(2.5)", "rng.gamma(0.5, 2.0, 40)", "rng.gamma(1.0, size=10)", "rng.gamma(0.0, 1.0, 3)",
    "rng.gamma(shape=9.0, scale=0.1, size=(3, 3))", "rng.standard_gamma(0.3, 25)", "rng.standard_gamma(4)",
]


@pytest.mark.parametrize("body", ZIGGURAT_DRAWS)
@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_ziggurat_draws_are_numpys_stream(body, bit_generator):
    compiled, plain = compiled_and_plain(body)
    mine, theirs = np.random.Generator(bit_generator(11)), np.random.Generator(bit_generator(11))
    got, expected = compiled(mine), plain(theirs)
    assert_same(got[0], expected[0])
    assert got[1] == expected[1]  # the state moved on as NumPy's
    assert mine.bit_generator.random_raw() == theirs.bit_generator.random_raw()


@pytest.mark.parametrize("seed", [0, 1, 7, 12345, 2**31, 2**40 + 9])
@pytest.mark.parametrize("method", ["standard_normal", "standard_exponential"])
def test_long_streams_reach_every_layer_and_the_tails(method, seed):
    # 2 * 10**5 draws: each of the 256 layers hundreds of times, the
    # rejections in the wedges and the base layer's tail among them
    n = 200_000
    namespace = {}
    exec(f"def f(rng, n):\n    return rng.{method}(n)\n", namespace)
    got = ruchey.njit(namespace["f"])(np.random.default_rng(seed), n)
    expected = getattr(np.random.default_rng(seed), method)(n)
    np.testing.assert_array_equal(got, expected)
    assert abs(got).max() > 3.6 if method == "standard_normal" else got.max() > 7.7  # past the base layer's edge


@ruchey.njit
def normal_loop(rng, n, loc, scale):
    out = np.empty(n)
    for i in range(n):
        out[i] = rng.normal(loc, scale)
    return out


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_a_loop_of_scalar_normals_is_the_stream_of_an_array_of_them(bit_generator):
    got = normal_loop(np.random.Generator(bit_generator(3)), 10_000, 1.5, 2.0)
    np.testing.assert_array_equal(got, np.random.Generator(bit_generator(3)).normal(1.5, 2.0, 10_000))


def test_a_nan_scale_draws_nan_as_numpy():
    compiled, plain = compiled_and_plain("rng.normal(0.0, np.nan, 3)")
    got, expected = compiled(np.random.default_rng(2)), plain(np.random.default_rng(2))
    np.testing.assert_array_equal(got[0], expected[0])
    assert got[1] == expected[1]


@pytest.mark.parametrize("body, message", [
    ("rng.normal(0.0, -1.0)", "scale < 0"),
    ("rng.normal(0.0, -1.0, 3)", "scale < 0"),
    ("rng.normal(0.0, -0.0)", "scale < 0"),  # NumPy tests the sign bit
    ("rng.exponential(-2.0)", "scale < 0"),
    ("rng.exponential(-0.0, 2)", "scale < 0"),
    ("rng.gamma(-1.0)", "shape < 0"),
    ("rng.gamma(1.0, -1.0)", "scale < 0"),
    ("rng.standard_gamma(-0.5, 4)", "shape < 0"),
    ("rng.standard_normal(-1)", "negative dimensions"),
])
def test_bad_parameters_raise_numpys_errors(body, message):
    compiled, plain = compiled_and_plain(body)
    for f in (plain, compiled):
        with pytest.raises(ValueError, match=message):
            f(np.random.default_rng(1))


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
@pytest.mark.parametrize("body, message", [
    ("rng.gamma()", "missing required argument 'shape'"),
    ("rng.normal(np.ones(3))", "arrays of parameters are not supported"),
    ("rng.normal(1j)", "complex"),
    ("rng.standard_normal(2.5)", "a shape must be an int or a tuple"),
])
def test_bad_arguments_are_typing_errors(body, message):
    compiled, _ = compiled_and_plain(body)
    with pytest.raises(ruchey.TypingError, match=message):
        compiled(np.random.default_rng(1))


# ---------------------------------------------------------------- default_rng in compiled code


@ruchey.njit
def made_and_drawn(seed):
    rng = np.random.default_rng(seed)
    return rng.normal(size=4), rng.integers(0, 100, 5), rng.random(), rng


@pytest.mark.skipif(AS_NUMBA, reason="Numba has no default_rng in compiled code")
@pytest.mark.parametrize("seed", [0, 1, 42, 2**32 - 1, 2**32, 2**40 + 3, 2**63 - 1])
def test_default_rng_made_in_compiled_code_is_numpys_pcg64_from_the_seed(seed):
    normals, ints, u, rng = made_and_drawn(seed)
    theirs = np.random.default_rng(seed)
    np.testing.assert_array_equal(normals, theirs.normal(size=4))
    np.testing.assert_array_equal(ints, theirs.integers(0, 100, 5))
    assert u == theirs.random()
    # returned: a numpy Generator on a PCG64 in the same state, drawing on
    assert isinstance(rng, np.random.Generator) and isinstance(rng.bit_generator, np.random.PCG64)
    assert rng.bit_generator.state == theirs.bit_generator.state
    np.testing.assert_array_equal(rng.standard_exponential(9), theirs.standard_exponential(9))


@ruchey.njit
def odd_ints_then_return(seed):
    rng = np.random.default_rng(seed)
    rng.integers(0, 10)  # a 32-bit draw: half of a word kept for the next
    return rng


@pytest.mark.skipif(AS_NUMBA, reason="Numba has no default_rng in compiled code")
def test_a_returned_generator_keeps_the_half_word_numpy_keeps():
    rng, theirs = odd_ints_then_return(5), np.random.default_rng(5)
    theirs.integers(0, 10)
    assert rng.bit_generator.state == theirs.bit_generator.state
    np.testing.assert_array_equal(rng.integers(0, 10, 5), theirs.integers(0, 10, 5))


@ruchey.njit
def drawn_by_a_callee(rng, n):
    return rng.standard_normal(n)


@ruchey.njit
def passed_to_a_callee(seed):
    rng = np.random.default_rng(seed)
    first = drawn_by_a_callee(rng, 3)
    return first, rng.standard_normal(3)


@pytest.mark.skipif(AS_NUMBA, reason="Numba has no default_rng in compiled code")
def test_a_made_generator_passed_to_a_compiled_function_moves_on_for_both():
    first, second = passed_to_a_callee(8)
    theirs = np.random.default_rng(8)
    np.testing.assert_array_equal(first, theirs.standard_normal(3))
    np.testing.assert_array_equal(second, theirs.standard_normal(3))


@ruchey.njit
def entropy_draws():
    return np.random.default_rng().random(), np.random.default_rng(None).random()


@pytest.mark.skipif(AS_NUMBA, reason="Numba has no default_rng in compiled code")
def test_default_rng_without_a_seed_draws_from_entropy():
    draws = {x for _ in range(20) for x in entropy_draws()}
    assert len(draws) == 40 and all(0.0 <= x < 1.0 for x in draws)


@ruchey.njit
def many_made(n):
    s = 0.0
    for i in range(n):
        rng = np.random.default_rng(i)
        other = rng  # two references to one block
        s += other.random()
    return s


@pytest.mark.skipif(AS_NUMBA, reason="Numba has no default_rng in compiled code")
def test_made_generators_sum_as_numpys():
    expected = 0.0
    for i in range(50):  # in order: Python 3.12's sum() of floats compensates
        expected += np.random.default_rng(i).random()
    assert many_made(50) == expected


@pytest.mark.skipif(AS_NUMBA, reason="Numba has no default_rng in compiled code")
def test_made_generators_are_freed(tmp_path):
    # a block per default_rng, freed with its last reference: a million of
    # them stay within a few megabytes
    code = """
import resource
import numpy as np
import ruchey

@ruchey.njit
def many(n):
    s = 0.0
    for i in range(n):
        s += np.random.default_rng(i).random()
    return s

@ruchey.njit
def returned(seed):
    return np.random.default_rng(seed)

many(10)
returned(1)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
many(1_000_000)
for i in range(100_000):
    returned(i)
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
assert grown < 20_000, grown
print("ok")
"""
    done = run_python_file(code, tmp_path)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr


@pytest.mark.skipif(AS_NUMBA, reason="Numba has no default_rng in compiled code")
def test_a_negative_seed_is_numpys_error():
    with pytest.raises(ValueError, match="expected non-negative integer"):
        np.random.default_rng(-1)
    with pytest.raises(ValueError, match="expected non-negative integer"):
        made_and_drawn(-1)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
def test_a_seed_that_is_not_an_int_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="the seed must be an int or None"):
        ruchey.njit(lambda: np.random.default_rng(1.5).random())()


def test_a_generator_argument_returned_is_itself():
    rng = np.random.default_rng(3)
    assert ruchey.njit(lambda r: r)(rng) is rng


# ---------------------------------------------------------------- integers' dtypes

INT_DTYPES = ["np.int8", "np.uint8", "np.int16", "np.uint16", "np.int32", "np.uint32", "np.int64", "np.uint64"]


@pytest.mark.parametrize("dtype", INT_DTYPES + ["np.bool_"])
@pytest.mark.parametrize("body", [
    "rng.integers(0, 2, 37, dtype={dt})", "rng.integers(0, 2, size=(3, 4), dtype={dt})",
    "rng.integers(0, 1, 9, dtype={dt}, endpoint=True)", "rng.integers(1, 1, dtype={dt}, endpoint=True)",
    "rng.integers(1, dtype={dt})", "rng.integers(0, 2, 5, {dt})", "rng.integers(0, 1, 5, {dt}, True)",
])
@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937, np.random.SFC64])
def test_integers_of_every_dtype_are_numpys_stream(body, dtype, bit_generator):
    # a narrow dtype's fill draws pieces of one 32-bit word (8 bools, 4
    # int8, 2 int16 a word), as NumPy's
    compiled, plain = compiled_and_plain(body.format(dt=dtype))
    got, expected = compiled(np.random.Generator(bit_generator(4))), plain(np.random.Generator(bit_generator(4)))
    np.testing.assert_array_equal(got[0], expected[0])
    if isinstance(expected[0], np.ndarray):
        assert got[0].dtype == expected[0].dtype
    assert got[1] == expected[1]


@pytest.mark.parametrize("body", [
    "rng.integers(-128, 128, 300, dtype=np.int8)", "rng.integers(0, 256, 300, dtype=np.uint8)",
    "rng.integers(-100, 100, 300, dtype=np.int8)", "rng.integers(0, 255, 300, dtype=np.uint8, endpoint=True)",
    "rng.integers(-2**15, 2**15, 300, dtype=np.int16)", "rng.integers(0, 2**16, 300, dtype=np.uint16)",
    "rng.integers(7, 1000, 300, dtype=np.uint16)", "rng.integers(0, 2**32, 300, dtype=np.uint32)",
    "rng.integers(-2**31, 2**31, 300, dtype=np.int32)", "rng.integers(3, 2**31 - 5, 300, dtype=np.int32)",
    "rng.integers(0, 2**63 - 1, 300, dtype=np.uint64)", "rng.integers(-2**63, 2**63 - 1, 300, dtype=np.int64)",
])
def test_full_and_odd_ranges_of_narrow_dtypes_are_numpys_stream(body):
    compiled, plain = compiled_and_plain(body)
    got, expected = compiled(np.random.default_rng(6)), plain(np.random.default_rng(6))
    np.testing.assert_array_equal(got[0], expected[0])
    assert got[0].dtype == expected[0].dtype and got[1] == expected[1]


@pytest.mark.parametrize("body", [
    "rng.integers(0, 0xFFFFFFFFFFFFFFFF, 300, dtype=np.uint64)",
    "rng.integers(0, 0xFFFFFFFFFFFFFFFE, 300, dtype=np.uint64)",
    "rng.integers(0, 0xFFFFFFFFFFFFFFFF, 300, dtype=np.uint64, endpoint=True)",
    "rng.integers(0x8000000000000000, 0xFFFFFFFFFFFFFFFF, 300, dtype=np.uint64, endpoint=True)",
    "rng.integers(0xFFFFFFFFFFFFFFFF, dtype=np.uint64)",
    "rng.integers(np.uint64(0x8000000000000005), np.uint64(0x8000000000000009), 300, dtype=np.uint64)",
    "rng.integers(np.uint8(0), np.int64(100), 300)", "rng.integers(False, True, 300, dtype=np.bool_)",
    "rng.integers(True, 2, 300, dtype=np.uint8, endpoint=True)",
])
def test_uint64_and_bool_bounds_are_numpys_stream(body):
    # a uint64 bound past INT64_MAX is the number it is, not its bits read as an int64
    compiled, plain = compiled_and_plain(body)
    got, expected = compiled(np.random.default_rng(6)), plain(np.random.default_rng(6))
    np.testing.assert_array_equal(got[0], expected[0])
    assert np.asarray(got[0]).dtype == np.asarray(expected[0]).dtype and got[1] == expected[1]


@pytest.mark.parametrize("body, message", [
    ("rng.integers(0, 0x8000000000000001, dtype=np.int64)", "high is out of bounds for int64"),
    ("rng.integers(0x8000000000000000, 0x8000000000000001, dtype=np.int64)", "high is out of bounds for int64"),
    ("rng.integers(0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF, dtype=np.uint64)", "low >= high"),
    ("rng.integers(-200, 5, dtype=np.int8)", "low is out of bounds for int8"),
    ("rng.integers(0, 300, dtype=np.int8)", "high is out of bounds for int8"),
    ("rng.integers(0, 128, dtype=np.int8, endpoint=True)", "high is out of bounds for int8"),
    ("rng.integers(-1, 3, dtype=np.uint8)", "low is out of bounds for uint8"),
    ("rng.integers(0, 2**16 + 1, 4, dtype=np.uint16)", "high is out of bounds for uint16"),
    ("rng.integers(-1, 3, dtype=np.uint64)", "low is out of bounds for uint64"),
    ("rng.integers(0, 3, dtype=np.bool_)", "high is out of bounds for bool"),
    ("rng.integers(3, 3, dtype=np.int16)", "low >= high"),
    ("rng.integers(3, 2, dtype=np.uint32, endpoint=True)", "low > high"),
])
def test_integers_bounds_errors_are_numpys(body, message):
    compiled, plain = compiled_and_plain(body)
    for f in (plain, compiled):
        with pytest.raises(ValueError, match=message):
            f(np.random.default_rng(1))


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
def test_a_float_dtype_for_integers_is_a_typing_error():
    compiled, _ = compiled_and_plain("rng.integers(0, 5, dtype=np.float64)")
    with pytest.raises(ruchey.TypingError, match="unsupported dtype float64 for integers"):
        compiled(np.random.default_rng(1))


# ---------------------------------------------------------------- shuffle, permutation


@pytest.mark.parametrize("make", [
    "np.arange(10.0)", "np.arange(7)", "np.arange(24).reshape(6, 4)", "np.arange(0.0)", "np.arange(1)",
    "np.arange(30)[::3]", "np.arange(5, dtype=np.int8)", "np.arange(60.0).reshape(3, 4, 5)",
])
@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937, np.random.SFC64])
def test_shuffle_and_permutation_are_numpys(make, bit_generator):
    namespace = {"np": np}
    exec(f"def f(rng):\n    a = {make}\n    rng.shuffle(a)\n"
         f"    return a, rng.permutation({make}), rng.permutation(9), rng.random()\n", namespace)
    got = ruchey.njit(namespace["f"])(np.random.Generator(bit_generator(2)))
    expected = namespace["f"](np.random.Generator(bit_generator(2)))
    for g, e in zip(got, expected):
        assert np.shape(g) == np.shape(e)
        np.testing.assert_array_equal(g, e)


def test_permutation_leaves_its_argument_alone_and_shuffle_reaches_a_view():
    @ruchey.njit
    def f(rng, a):
        p = rng.permutation(a)
        rng.shuffle(a[2:])
        return p

    a, b = np.arange(12.0), np.arange(12.0)
    p = f(np.random.default_rng(5), a)
    theirs = np.random.default_rng(5)
    np.testing.assert_array_equal(p, theirs.permutation(b))
    theirs.shuffle(b[2:])
    np.testing.assert_array_equal(a, b)


def generator_permutation_of_minus_one(rng):
    return rng.permutation(-1)


def legacy_permutation_of_minus_three():
    return np.random.permutation(-3)


def test_permutation_of_a_negative_int_is_empty_as_numpys():
    for f in (generator_permutation_of_minus_one, ruchey.njit(generator_permutation_of_minus_one)):
        assert f(np.random.default_rng(1)).shape == (0,)
    for f in (legacy_permutation_of_minus_three, ruchey.njit(legacy_permutation_of_minus_three)):
        assert f().shape == (0,)


# ---------------------------------------------------------------- poisson, binomial

DISCRETE_DRAWS = [
    "rng.poisson()", "rng.poisson(3.0, 100)", "rng.poisson(50.5, 300)", "rng.poisson(0.0, 3)",
    "rng.poisson(lam=1e6, size=(2, 3))", "rng.poisson(9.99, 50)", "rng.poisson(10, 50)",
    "rng.binomial(10, 0.3, 100)", "rng.binomial(1000, 0.6, 300)", "rng.binomial(100, 0.5)",
    "rng.binomial(0, 0.5, 3)", "rng.binomial(5, 1.0, 3)", "rng.binomial(5, 0.0, 3)",
    "rng.binomial(n=10**6, p=0.01, size=50)", "rng.binomial(60, 0.5, 40)", "rng.binomial(61, 0.99, 40)",
]


@pytest.mark.parametrize("body", DISCRETE_DRAWS)
@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937, np.random.SFC64])
def test_poisson_and_binomial_are_numpys_stream(body, bit_generator):
    compiled, plain = compiled_and_plain(body)
    got, expected = compiled(np.random.Generator(bit_generator(2))), plain(np.random.Generator(bit_generator(2)))
    np.testing.assert_array_equal(got[0], expected[0])
    if isinstance(expected[0], np.ndarray):
        assert got[0].dtype == expected[0].dtype
    assert got[1] == expected[1]


@pytest.mark.parametrize("body, message", [
    ("rng.poisson(-1.0)", "lam < 0 or lam is NaN"),
    ("rng.poisson(np.nan, 3)", "lam < 0 or lam is NaN"),
    ("rng.poisson(1e20)", "lam value too large"),
    ("rng.binomial(-1, 0.5)", "n < 0"),
    ("rng.binomial(3, 1.5, 2)", "p < 0, p > 1 or p is NaN"),
    ("rng.binomial(3, np.nan)", "p < 0, p > 1 or p is NaN"),
])
def test_poisson_and_binomial_errors_are_numpys(body, message):
    compiled, plain = compiled_and_plain(body)
    for f in (plain, compiled):
        with pytest.raises(ValueError, match=message):
            f(np.random.default_rng(1))


# ---------------------------------------------------------------- the rarer distributions

OTHER_DRAWS = [
    "rng.chisquare(3.0, 50)", "rng.chisquare(0.5)", "rng.lognormal(0.5, 2.0, 40)", "rng.lognormal()",
    "rng.laplace(1.0, 2.0, 60)", "rng.laplace()", "rng.logistic(0.0, 3.0, 60)", "rng.gumbel(2.0, 0.5, 60)",
    "rng.pareto(2.5, 60)", "rng.rayleigh(2.0, 60)", "rng.rayleigh()", "rng.weibull(1.5, 60)", "rng.weibull(0.0, 3)",
    "rng.triangular(0.0, 1.0, 4.0, 60)", "rng.triangular(-1, 2, 2, 200)", "rng.triangular(0, 0, 1, 50)",
    "rng.geometric(0.1, 60)", "rng.geometric(0.5, 60)", "rng.geometric(1e-12, 20)", "rng.geometric(1.0, 3)",
    "rng.geometric(p=0.3333, size=(2, 3))",
]


@pytest.mark.parametrize("body", OTHER_DRAWS)
@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937])
def test_the_rarer_distributions_are_numpys_stream(body, bit_generator):
    compiled, plain = compiled_and_plain(body)
    got, expected = compiled(np.random.Generator(bit_generator(2))), plain(np.random.Generator(bit_generator(2)))
    np.testing.assert_array_equal(got[0], expected[0])
    if isinstance(expected[0], np.ndarray):
        assert got[0].dtype == expected[0].dtype
    assert got[1] == expected[1]


@pytest.mark.parametrize("body", [
    "rng.chisquare(0.0)", "rng.chisquare(-1.0)", "rng.lognormal(0, -1.0)", "rng.lognormal(0, -0.0)",
    "rng.laplace(0, -1.0)", "rng.logistic(0, -0.0)", "rng.gumbel(0, -1.0)", "rng.pareto(0.0)", "rng.pareto(-1.0)",
    "rng.rayleigh(-1.0)", "rng.weibull(-1.0)", "rng.weibull(-0.0)", "rng.triangular(2, 1, 3)", "rng.triangular(0, 3, 2)",
    "rng.triangular(1, 1, 1)", "rng.geometric(0.0)", "rng.geometric(1.5)", "rng.geometric(np.nan)",
])
def test_the_rarer_distributions_errors_are_numpys(body):
    assert_same_error(body)


def assert_same_error(body):
    """rng.<body> raises NumPy's ValueError, with its message, compiled too."""
    namespace = {"np": np}
    exec(f"def f(rng):\n    return {body}\n", namespace)
    with pytest.raises(ValueError) as theirs:
        namespace["f"](np.random.default_rng(1))
    with pytest.raises(ValueError) as mine:
        ruchey.njit(namespace["f"])(np.random.default_rng(1))
    assert str(mine.value) == str(theirs.value)


def draw_from_each(gens, n):
    """One Generator per worker, passed in a tuple (as a bootstrap spawns them)."""
    out = np.empty((len(gens), n), np.uint64)
    for i in range(len(gens)):
        g = gens[i]
        out[i] = g.integers(0, n, size=n, dtype=np.uint64)
    return out, gens[-1].random()


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_generators_in_a_tuple_argument_draw_numpys_streams(bit_generator):
    compiled = ruchey.njit(draw_from_each)
    for seed in (3, 11):
        ours, theirs = (tuple(np.random.Generator(bit_generator(s)) for s in np.random.SeedSequence(seed).spawn(3))
                        for _ in range(2))
        got, want = compiled(ours, 17), draw_from_each(theirs, 17)
        np.testing.assert_array_equal(got[0], want[0])
        assert got[1] == want[1]
        assert ours[0].random() == theirs[0].random()  # the states advanced as Python's


# ---------------------------------------------------------------- the bit generator (Numba's generator_core)

@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_bit_generator_words_are_the_bit_generators_own(bit_generator):
    """rng.bit_generator handed to numba.np.random.generator_core's
    next_uint64/next_uint32/next_double/next_float, as Numba reads it: the
    bit generator's own words, its state moved on as in Python, and a
    helper taking the bit generator as an argument sees the same stream."""
    core = pytest.importorskip("numba.np.random.generator_core")
    next_uint64, next_uint32, next_double = core.next_uint64, core.next_uint32, core.next_double
    seed = int(np.random.default_rng().integers(0, 2 ** 32))

    @ruchey.njit
    def helper(bg):
        return next_double(bg)

    @ruchey.njit
    def words(rng, n):
        bg = rng.bit_generator
        out = np.empty((n, 4))
        for i in range(n):
            out[i, 0] = next_uint64(bg) >> 11
            out[i, 1] = next_uint32(rng.bit_generator)
            out[i, 2] = next_double(bg)
            out[i, 3] = helper(bg)
        return out, rng.random()

    n = int(np.random.default_rng(seed).integers(1, 40))
    got = words(np.random.Generator(bit_generator(seed)), n)
    plain = np.random.Generator(bit_generator(seed))
    ctypes = plain.bit_generator.ctypes
    want = np.empty((n, 4))
    for i in range(n):
        want[i] = (ctypes.next_uint64(ctypes.state) >> 11, ctypes.next_uint32(ctypes.state),
                   ctypes.next_double(ctypes.state), ctypes.next_double(ctypes.state))
    np.testing.assert_array_equal(got[0], want)
    assert got[1] == plain.random()


def test_next_float_is_numbas_float32_of_a_word():
    core = pytest.importorskip("numba.np.random.generator_core")
    next_float = core.next_float
    f = ruchey.njit(lambda rng: next_float(rng.bit_generator))
    seed = int(np.random.default_rng().integers(0, 2 ** 32))
    rng, bg = np.random.default_rng(seed), np.random.default_rng(seed).bit_generator
    plain = bg.ctypes  # (bg kept: its state lives as long as it does)
    for _ in range(5):
        word = plain.next_uint32(plain.state)
        assert f(rng) == np.float32(word >> 8) * np.float32(1.0 / 16777216.0)


def test_bit_generator_returned_is_its_generators_and_a_made_one_draws_numpys_stream():
    rng = np.random.default_rng(7)
    assert ruchey.njit(lambda g: g.bit_generator)(rng) is rng.bit_generator

    @ruchey.njit
    def made(seed):
        return np.random.default_rng(seed).bit_generator

    seed = int(np.random.default_rng().integers(0, 2 ** 32))
    bg = made(seed)
    assert isinstance(bg, np.random.PCG64)
    assert bg.random_raw() == np.random.default_rng(seed).bit_generator.random_raw()


def test_generator_core_functions_of_other_values_are_typing_errors():
    core = pytest.importorskip("numba.np.random.generator_core")
    next_double = core.next_double
    with pytest.raises(ruchey.TypingError, match="bit_generator"):
        ruchey.njit(lambda rng: next_double(rng))(np.random.default_rng(1))
    with pytest.raises(ruchey.TypingError, match="bit_generator"):
        ruchey.njit(lambda x: next_double(x))(1.5)


def test_generator_core_functions_of_the_numba_shim_run_compiled_and_in_python():
    """ruchey's own next_* (what numba.np.random.generator_core is under
    the numba shim): compiled, the same words as their Python meaning."""
    from ruchey.np_extensions import next_double, next_float, next_uint32, next_uint64

    def words(rng):
        bg = rng.bit_generator
        return next_uint64(bg), next_uint32(bg), next_double(bg), next_float(bg), rng.random()

    seed = int(np.random.default_rng().integers(0, 2 ** 32))
    for bit_generator in BIT_GENERATORS:
        got = ruchey.njit(words)(np.random.Generator(bit_generator(seed)))
        want = words(np.random.Generator(bit_generator(seed)))
        assert got == want
        assert [type(x) for x in got[:2]] == [int, int] and type(got[3]) is float
