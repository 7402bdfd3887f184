"""numpy.random.Generator in compiled code, the rest of its methods: beta,
f, standard_t, vonmises, zipf and the others Numba has, choice, float32
draws, shuffle and permutation along an axis; and the legacy functions'
checks of a -0.0 scale.

Every stream is checked equal, to the bit, to the same calls on a
Generator in Python from the same state, and the state after the calls
equal to Python's (the next double drawn); bad parameters raise NumPy's
errors with its messages."""
import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, seed_of
from test_random_generator import assert_same_error

# the streams are NumPy 2.4's (older NumPy draws some of these otherwise, and
# its binomial of tiny p and vonmises of a NaN kappa never return)
pytestmark = pytest.mark.skipif(tuple(int(v) for v in np.__version__.split(".")[:2]) < (2, 4),
                                reason="NumPy before 2.4 draws these streams otherwise")

BIT_GENERATORS = [np.random.PCG64, np.random.MT19937, np.random.SFC64]


def compiled_and_plain(body, args="rng"):
    """f(rng) returning body's draws and the state's next double; compiled and plain."""
    namespace = {"np": np}
    exec(f"def f({args}):\n    a = {body}\n    return a, rng.random()\n", namespace)
    return ruchey.njit(namespace["f"]), namespace["f"]


def assert_same_stream(got, expected):
    np.testing.assert_array_equal(got[0], expected[0])
    if isinstance(expected[0], np.ndarray):
        assert got[0].dtype == expected[0].dtype and got[0].shape == expected[0].shape
    assert got[1] == expected[1]  # the state moved on as NumPy's


# ---------------------------------------------------------------- the distributions

DRAWS = [
    "rng.beta(0.5, 0.5, 60)", "rng.beta(2.0, 3.0, 60)", "rng.beta(a=0.3, b=4.0, size=(3, 4))", "rng.beta(1.0, 1.0)",
    "rng.beta(1e-200, 1e-200, 20)", "rng.beta(0.002, 0.003, 100)",  # the tiny path; the powers underflowing
    "rng.f(3.0, 5.0, 60)", "rng.f(dfnum=0.5, dfden=2, size=7)", "rng.f(1, 1)",
    "rng.standard_t(4.0, 60)", "rng.standard_t(0.5, (2, 3))", "rng.standard_t(df=30)",
    "rng.vonmises(0.5, 2.0, 60)", "rng.vonmises(-3.0, 0.5, 60)", "rng.vonmises(0.0, 1e-9, 10)",
    "rng.vonmises(1.0, 1e-6, 30)", "rng.vonmises(3.0, 1e7, 60)", "rng.vonmises(mu=0.0, kappa=0.0)",
    "rng.vonmises(0.0, np.nan, 3)",
    "rng.zipf(2.0, 100)", "rng.zipf(1.1, 100)", "rng.zipf(a=3.5, size=(5, 2))", "rng.zipf(2000.0, 3)",
    "rng.standard_cauchy(60)", "rng.standard_cauchy()", "rng.standard_cauchy(size=(2, 2))",
    "rng.power(2.0, 60)", "rng.power(0.3)", "rng.wald(1.0, 2.0, 60)", "rng.wald(mean=0.5, scale=10.0, size=4)",
    "rng.noncentral_chisquare(3.0, 2.0, 60)", "rng.noncentral_chisquare(0.5, 2.0, 60)",
    "rng.noncentral_chisquare(3.0, 0.0, 5)", "rng.noncentral_chisquare(2.0, np.nan, 2)",
    "rng.noncentral_f(3.0, 5.0, 1.5, 60)", "rng.noncentral_f(dfnum=0.8, dfden=2.0, nonc=0.0, size=5)",
    "rng.logseries(0.9, 80)", "rng.logseries(0.1, 80)", "rng.logseries(0.0, 3)", "rng.logseries(p=0.999999, size=20)",
    "rng.negative_binomial(3, 0.4, 60)", "rng.negative_binomial(0.5, 0.9, 60)", "rng.negative_binomial(100, 0.01, 9)",
    "rng.negative_binomial(n=2.5, p=1.0, size=3)",
    "rng.binomial(2 * 10**18, 1e-17, 50)",  # q**n from log1p(-p): 1 - p rounds to 1
]
# where Numba's Generator keeps an older NumPy's algorithm (or none)
NUMBA_DIFFERS = {"vonmises", "1e-200", "0.002", "np.nan", "2000.0", "10**18"}


@pytest.mark.parametrize("body", DRAWS)
@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_the_distributions_are_numpys_stream(body, bit_generator):
    if AS_NUMBA and any(part in body for part in NUMBA_DIFFERS):
        pytest.skip("Numba's Generator has no vonmises and older algorithms for these")
    compiled, plain = compiled_and_plain(body)
    seed = seed_of(body, bit_generator.__name__)
    assert_same_stream(compiled(np.random.Generator(bit_generator(seed))),
                       plain(np.random.Generator(bit_generator(seed))))


# each distribution's parameters drawn over their range, with every kind of size
PARAMETERS = {
    "beta": lambda r: (r.uniform(0.05, 3.0), r.uniform(0.05, 3.0)),
    "f": lambda r: (r.uniform(0.1, 20.0), r.uniform(0.1, 20.0)),
    "standard_t": lambda r: (r.uniform(0.1, 50.0),),
    "vonmises": lambda r: (r.uniform(-10.0, 10.0), 10.0 ** r.uniform(-9.0, 8.0)),
    "zipf": lambda r: (r.uniform(1.01, 6.0),),
    "power": lambda r: (r.uniform(0.05, 5.0),),
    "wald": lambda r: (r.uniform(0.01, 10.0), r.uniform(0.01, 10.0)),
    "noncentral_chisquare": lambda r: (r.uniform(0.05, 10.0), r.uniform(0.0, 10.0)),
    "noncentral_f": lambda r: (r.uniform(0.05, 10.0), r.uniform(0.05, 10.0), r.uniform(0.0, 5.0)),
    "logseries": lambda r: (r.uniform(0.0, 0.99),),
    "negative_binomial": lambda r: (r.uniform(0.1, 50.0), r.uniform(0.05, 1.0)),
    "standard_cauchy": lambda r: (),
}
SIZES = [None, 0, 1, 37, (3, 5), (2, 0, 4)]


@pytest.mark.parametrize("method", sorted(PARAMETERS))
@pytest.mark.parametrize("case", range(6))
def test_generated_parameters_and_sizes_are_numpys_stream(method, case):
    if AS_NUMBA and method == "vonmises":
        pytest.skip("Numba's Generator has no vonmises")
    params = PARAMETERS[method](np.random.default_rng(seed_of(method, case)))
    size = SIZES[case]
    args = ", ".join(f"p{i}" for i in range(len(params)))
    namespace = {"np": np}
    exec(f"def f(rng, {args}{', ' if args else ''}size):\n"
         f"    a = rng.{method}({args}{', ' if args else ''}size=size)\n"
         f"    return a, rng.random()\n", namespace)
    seed = seed_of("stream", method, case)
    got = ruchey.njit(namespace["f"])(np.random.default_rng(seed), *params, size)
    assert_same_stream(got, namespace["f"](np.random.default_rng(seed), *params, size))


@pytest.mark.parametrize("body", [
    "rng.beta(0.0, 1.0)", "rng.beta(1.0, -1.0, 3)", "rng.f(0.0, 1.0)", "rng.f(1.0, -2.0)", "rng.standard_t(0.0)",
    "rng.standard_t(-1.0, 4)", "rng.vonmises(0.0, -1.0)", "rng.vonmises(0.0, -0.0)", "rng.zipf(1.0)", "rng.zipf(0.5, 3)",
    "rng.zipf(np.nan)", "rng.power(0.0)", "rng.power(-1.0)", "rng.wald(0.0, 1.0)", "rng.wald(1.0, 0.0)",
    "rng.noncentral_chisquare(0.0, 1.0)", "rng.noncentral_chisquare(1.0, -1.0)", "rng.noncentral_chisquare(1.0, -0.0)",
    "rng.noncentral_f(0.0, 1.0, 1.0)", "rng.noncentral_f(1.0, 0.0, 1.0)", "rng.noncentral_f(1.0, 1.0, -1.0)",
    "rng.logseries(1.0)", "rng.logseries(-0.1)", "rng.logseries(np.nan)", "rng.negative_binomial(0.0, 0.5)",
    "rng.negative_binomial(np.nan, 0.5)", "rng.negative_binomial(1.0, 0.0)", "rng.negative_binomial(1.0, 1.5)",
    "rng.negative_binomial(1e20, 1e-10)", "rng.standard_cauchy(-1)",
])
def test_bad_parameters_raise_numpys_errors(body):
    if AS_NUMBA and "vonmises" in body:
        pytest.skip("Numba's Generator has no vonmises")
    assert_same_error(body)


@ruchey.njit
def mixed_draws(rng, n):
    out = np.empty(n)
    ks = np.empty(n, np.int64)
    for i in range(n):
        out[i] = rng.beta(0.5, 2.0) + rng.standard_t(3.0) + rng.f(2.0, 7.0) + rng.wald(1.0, 1.0)
        ks[i] = rng.zipf(2.5) + rng.logseries(0.5) + rng.negative_binomial(2.0, 0.3)
    return out, ks


def test_a_compiled_loop_of_scalar_draws_keeps_step_with_numpy():
    got = mixed_draws(np.random.default_rng(9), 500)
    expected = mixed_draws.py_func(np.random.default_rng(9), 500)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])


@ruchey.njit
def draws_of_a_made_generator(seed):
    rng = np.random.default_rng(seed)
    return rng.beta(2.0, 2.0, 5), rng.zipf(3.0, 5), rng.vonmises(0.0, 4.0, 5), rng.choice(100, 5, replace=False)


@pytest.mark.skipif(AS_NUMBA, reason="Numba has no default_rng in compiled code")
def test_a_generator_made_in_compiled_code_draws_numpys_streams():
    for got, expected in zip(draws_of_a_made_generator(21), draws_of_a_made_generator.py_func(21)):
        np.testing.assert_array_equal(got, expected)


# ---------------------------------------------------------------- float32

FLOAT32_DRAWS = [
    "rng.random(dtype=np.float32)", "rng.random(50, np.float32)", "rng.random((3, 4), dtype=np.float32)",
    "rng.random(size=7, dtype=np.float64)",
    "rng.standard_normal(dtype=np.float32)", "rng.standard_normal(200_000, dtype=np.float32)",
    "rng.standard_normal((4, 5), np.float32)",
    "rng.standard_exponential(dtype=np.float32)", "rng.standard_exponential(200_000, dtype=np.float32)",
    "rng.standard_exponential(100, method='inv')", "rng.standard_exponential(100, np.float32, 'inv')",
    "rng.standard_exponential(size=9, dtype=np.float32, method='zig')",
    "rng.standard_gamma(0.5, 5000, np.float32)", "rng.standard_gamma(1.0, 50, dtype=np.float32)",
    "rng.standard_gamma(3.5, 5000, dtype=np.float32)", "rng.standard_gamma(0.0, 3, dtype=np.float32)",
    "rng.standard_gamma(shape=2.0, dtype=np.float32)", "rng.standard_gamma(1e-3, size=(20, 5), dtype=np.float32)",
]


@pytest.mark.parametrize("body", FLOAT32_DRAWS)
@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937])
def test_float32_draws_are_numpys_stream(body, bit_generator):
    # float32 has its own ziggurats (24-bit uniforms, 32-bit words): long
    # streams reach their wedges and tails
    compiled, plain = compiled_and_plain(body)
    seed = seed_of(body, bit_generator.__name__)
    got = compiled(np.random.Generator(bit_generator(seed)))
    expected = plain(np.random.Generator(bit_generator(seed)))
    assert_same_stream(got, expected)
    if isinstance(expected[0], np.ndarray) and expected[0].size > 100_000 and "normal" in body:
        assert abs(got[0]).max() > 3.6  # past the base layer's edge


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")
@pytest.mark.parametrize("body, message", [
    ("rng.random(dtype=np.int32)", "unsupported dtype int32"),
    ("rng.standard_normal(3, np.float16)", "float16"),
    ("rng.standard_exponential(method='ziggurat')", "method must be 'zig' or 'inv'"),
])
def test_bad_dtypes_and_methods_are_typing_errors(body, message):
    compiled, _ = compiled_and_plain(body)
    with pytest.raises(ruchey.TypingError, match=message):
        compiled(np.random.default_rng(1))


def test_float32_gamma_refuses_a_negative_shape():
    assert_same_error("rng.standard_gamma(-1.0, 3, dtype=np.float32)")
    assert_same_error("rng.standard_gamma(-0.0, dtype=np.float32)")


# ---------------------------------------------------------------- choice

CHOICES = [
    "rng.choice(10)", "rng.choice(10, 5)", "rng.choice(10, (2, 3))", "rng.choice(1, 4)", "rng.choice(0, 0)",
    "rng.choice(10, 5, replace=False)", "rng.choice(10, 10, False)", "rng.choice(10, 5, replace=False, shuffle=False)",
    "rng.choice(1000, 3, replace=False)", "rng.choice(2**40, 4, replace=False)", "rng.choice(2**40, 4)",
    "rng.choice(20000, 15000, replace=False)", "rng.choice(20000, 15000, replace=False, shuffle=False)",
    "rng.choice(20000, 300, replace=False)", "rng.choice(20000, 300, replace=False, shuffle=False)",
    "rng.choice(20000, 600, replace=False, shuffle=False)", "rng.choice(20000, 20000, replace=False)",
    "rng.choice(np.arange(5.0) * 2)", "rng.choice(np.arange(5.0) * 2, (2, 3))", "rng.choice(np.arange(12)[::3], 9)",
    "rng.choice(np.arange(7, dtype=np.int8), 7, replace=False)", "rng.choice(np.arange(5.0), 3, axis=0)",
    "rng.choice(np.arange(5.0), 3, axis=-1)", "rng.choice(np.zeros(0), 0)",
    "rng.choice(4, 10, p=np.array([0.1, 0.2, 0.3, 0.4]))", "rng.choice(4, p=np.array([0.1, 0.2, 0.3, 0.4]))",
    "rng.choice(4, 3, replace=False, p=np.array([0.1, 0.2, 0.3, 0.4]))",
    "rng.choice(5, 2, replace=False, p=np.array([0.0, 0.5, 0.0, 0.5, 0.0]))",
    "rng.choice(np.arange(4.0), (2, 2), p=np.array([0.7, 0.1, 0.1, 0.1], dtype=np.float32))",
    "rng.choice(3, 5, True, np.array([1.0, 0.0, 0.0]))", "rng.choice(6, size=4, replace=False, p=np.ones(6) / 6)",
]


@pytest.mark.skipif(AS_NUMBA, reason="Numba's Generator has no choice")
@pytest.mark.parametrize("body", CHOICES)
@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_choice_is_numpys_stream(body, bit_generator):
    # with replacement: integers' draws or uniforms searched in the weights;
    # without: Floyd's algorithm (then a shuffle), a shuffled tail of the
    # population past 10,000 for a large sample, or rounds of weighted draws
    compiled, plain = compiled_and_plain(body)
    seed = seed_of(body, bit_generator.__name__)
    assert_same_stream(compiled(np.random.Generator(bit_generator(seed))),
                       plain(np.random.Generator(bit_generator(seed))))


@pytest.mark.skipif(AS_NUMBA, reason="Numba's Generator has no choice")
@pytest.mark.parametrize("case", range(8))
def test_choice_of_generated_populations_and_weights_is_numpys_stream(case):
    r = np.random.default_rng(seed_of("choice", case))
    pop = int(r.integers(1, 30))
    a = r.normal(size=pop)
    p = r.random(pop)
    p[r.random(pop) < 0.3] = 0.0
    p[0] += 0.1
    p /= p.sum()
    size = int(r.integers(0, 1 + min(pop, int((p > 0).sum()))))

    def f(rng, a, p, size, replace):
        return rng.choice(a, size, replace, p), rng.choice(a, size, replace), rng.random()

    for replace in (True, False):
        seed = seed_of("choice stream", case, replace)
        got = ruchey.njit(f)(np.random.default_rng(seed), a, p, size, replace)
        expected = f(np.random.default_rng(seed), a, p, size, replace)
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g, e)


@pytest.mark.skipif(AS_NUMBA, reason="Numba's Generator has no choice")
@pytest.mark.parametrize("body", [
    "rng.choice(0)", "rng.choice(-3, 2)", "rng.choice(np.zeros(0))", "rng.choice(3, 4, replace=False)",
    "rng.choice(3, p=np.array([0.5, 0.5]))", "rng.choice(3, p=np.array([0.5, 0.5, np.nan]))",
    "rng.choice(3, p=np.array([0.5, 0.6, -0.1]))", "rng.choice(3, p=np.array([0.5, 0.6, 0.1]))",
    "rng.choice(3, 2, replace=False, p=np.array([1.0, 0.0, 0.0]))", "rng.choice(3, -1)",
    "rng.choice(3, p=np.array([0.3, 0.3, 0.4004], dtype=np.float32))",
])
def test_choice_errors_are_numpys(body):
    assert_same_error(body)


@pytest.mark.skipif(AS_NUMBA, reason="Numba's Generator has no choice")
def test_choice_of_an_array_with_a_bad_axis_is_numpys_index_error():
    def f(rng, a):
        return rng.choice(a, 2, axis=1)

    for g in (f, ruchey.njit(f)):
        with pytest.raises(IndexError, match="tuple index out of range"):
            g(np.random.default_rng(1), np.arange(4.0))


@pytest.mark.skipif(AS_NUMBA, reason="Numba's Generator has no choice")
def test_float32_weights_may_sum_to_1_within_float32s_tolerance():
    # NumPy allows float32 weights sqrt(float32's eps) off 1, float64 ones sqrt(float64's eps)
    compiled, plain = compiled_and_plain("rng.choice(3, 5, p=p)", "rng, p")
    p = np.array([0.3, 0.3, 0.4001], dtype=np.float32)
    assert_same_stream(compiled(np.random.default_rng(2), p), plain(np.random.default_rng(2), p))


# ---------------------------------------------------------------- shuffle and permutation along an axis

ARRAYS = [
    "np.arange(24.0).reshape(4, 6)", "np.arange(60).reshape(3, 4, 5)", "np.arange(48.0).reshape(6, 8)[::2, 1::3]",
    "np.arange(20).reshape(5, 4).T", "np.zeros((3, 0))", "np.zeros((0, 3))",
    "np.arange(10, dtype=np.int8)", "np.arange(30.0)[::-3]",
]


@pytest.mark.parametrize("make", ARRAYS)
@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_shuffle_and_permutation_along_an_axis_are_numpys(make, axis):
    ndim = eval(make, {"np": np}).ndim
    if axis >= ndim or axis < -ndim:
        pytest.skip("the axis errors are tested below")
    namespace = {"np": np}
    exec(f"def f(rng):\n    a = {make}\n    rng.shuffle(a, axis={axis})\n"
         f"    return a, rng.permutation({make}, axis={axis}), rng.permutation(5, axis={axis}), rng.random()\n",
         namespace)
    seed = seed_of(make, axis)
    got = ruchey.njit(namespace["f"])(np.random.default_rng(seed))
    expected = namespace["f"](np.random.default_rng(seed))
    for g, e in zip(got, expected):
        assert np.shape(g) == np.shape(e)
        np.testing.assert_array_equal(g, e)


def test_shuffle_along_an_axis_reaches_a_view():
    @ruchey.njit
    def f(rng, a):
        rng.shuffle(a[1:, ::2], axis=1)

    a, b = np.arange(42.0).reshape(6, 7), np.arange(42.0).reshape(6, 7)
    f(np.random.default_rng(4), a)
    np.random.default_rng(4).shuffle(b[1:, ::2], axis=1)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("body", [
    "rng.shuffle(np.zeros((2, 3)), axis=2)", "rng.shuffle(np.zeros(4), axis=-2)",
    "rng.permutation(np.zeros((2, 3)), axis=5)",
])
def test_an_axis_out_of_bounds_is_numpys_error(body):
    namespace = {"np": np}
    exec(f"def f(rng):\n    return {body}\n", namespace)
    for f in (namespace["f"], ruchey.njit(namespace["f"])):
        with pytest.raises((ValueError, IndexError), match="out of bounds" if f is namespace["f"] or not AS_NUMBA
                           else ""):
            f(np.random.default_rng(1))


# ---------------------------------------------------------------- the legacy functions' -0.0


@pytest.mark.parametrize("body, message", [
    ("np.random.normal(0.0, -0.0)", "scale < 0"), ("np.random.normal(0.0, -0.0, 3)", "scale < 0"),
    ("np.random.exponential(-0.0)", "scale < 0"), ("np.random.gamma(-0.0)", "shape < 0"),
    ("np.random.gamma(1.0, -0.0, 2)", "scale < 0"), ("np.random.standard_gamma(-0.0)", "shape < 0"),
    ("np.random.laplace(0.0, -0.0)", "scale < 0"), ("np.random.logistic(0.0, -0.0)", "scale < 0"),
    ("np.random.gumbel(0.0, -0.0)", "scale < 0"), ("np.random.rayleigh(-0.0)", "scale < 0"),
    ("np.random.lognormal(0.0, -0.0)", "sigma < 0"), ("np.random.weibull(-0.0)", "a < 0"),
    ("np.random.vonmises(0.0, -0.0)", "kappa < 0"),
])
def test_legacy_functions_refuse_a_negative_zero_as_numpy(body, message):
    namespace = {"np": np}
    exec(f"def f():\n    return {body}\n", namespace)
    for f in (namespace["f"], ruchey.njit(namespace["f"])):
        with pytest.raises(ValueError, match=message):
            f()


@pytest.mark.parametrize("body", [
    "np.random.normal(0.0, np.nan)", "np.random.vonmises(0.0, np.nan)", "np.random.exponential(0.0)",
    "np.random.normal(1.0, 0.0)",
])
def test_legacy_functions_let_nan_and_zero_through_as_numpy(body):
    namespace = {"np": np}
    exec(f"def f():\n    np.random.seed(3)\n    return {body}\n", namespace)
    np.testing.assert_array_equal(ruchey.njit(namespace["f"])(), namespace["f"]())


@pytest.mark.parametrize("body", [
    "np.random.choice(3, p=np.array([0.5, 0.5, np.nan]))", "np.random.choice(3, p=np.array([0.5, 0.6, 0.1]))",
    "np.random.choice(3, 4, replace=False, p=np.array([0.5, 0.6, 0.1]))",
])
def test_legacy_choice_checks_the_weights_first_as_numpy(body):
    # NaN weights refused (their sum is NaN), and the weights checked before the sample's size
    namespace = {"np": np}
    exec(f"def f():\n    return {body}\n", namespace)
    with pytest.raises(ValueError) as theirs:
        namespace["f"]()
    with pytest.raises(ValueError) as mine:
        ruchey.njit(namespace["f"])()
    assert str(mine.value) == str(theirs.value)
