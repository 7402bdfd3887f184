"""numpy.random's rarer legacy functions in compiled code: f, standard_t,
standard_cauchy, power, wald, noncentral_chisquare, noncentral_f, zipf,
logseries, negative_binomial and hypergeometric.

Each draws NumPy's RandomState stream: after numpy.random.seed(s) in
compiled code, the same numbers, to the bit, as the same calls in Python
after the same seed (NumPy's legacy samplers: legacy_gauss with its kept
second value, the legacy gamma, chi-square and Poisson), and the state
after them where Python's is (the next double drawn equal). Bad
parameters raise NumPy's ValueError with its message."""
import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, numba_deviation, seed_of

SEEDS = [0, 12345, 2**32 - 1]


def compiled_and_plain(expr):
    """f(s) seeding with s, returning expr and the next double drawn; compiled and plain."""
    namespace = {"np": np}
    exec(f"def f(s):\n    np.random.seed(s)\n    a = {expr}\n    return a, np.random.random()\n", namespace)
    return ruchey.njit(namespace["f"]), namespace["f"]


def assert_same_stream(got, expected):
    np.testing.assert_array_equal(got[0], expected[0])
    if isinstance(expected[0], np.ndarray):
        assert got[0].dtype == expected[0].dtype and got[0].shape == expected[0].shape
    else:
        assert np.ndim(got[0]) == 0 and isinstance(got[0], int) == isinstance(expected[0], int)
    assert got[1] == expected[1]  # the state moved on as NumPy's


# Numba draws its own gammas (and so chi-squares and what is made of them)
# and hypergeometrics, its binomial of p 0 draws nothing, its messages
# differ: the cases below draw or raise otherwise under Numba
numba_differs = numba_deviation("its gamma, hypergeometric and binomial of p 0 draw other streams; other messages")
# Numba's zipf of a NaN a and negative_binomial of a NaN n or p never return
numba_hangs = pytest.mark.skipif(AS_NUMBA, reason="Numba's draw never returns")

STREAMS = [
    "np.random.f(3.0, 5.0)", "np.random.f(3.0, 5.0, 60)", "np.random.f(dfnum=0.5, dfden=2, size=(3, 4))",
    "np.random.f(1, 1, 20)",
    "np.random.standard_t(4.0)", "np.random.standard_t(4.0, 60)", "np.random.standard_t(0.5, (2, 3))",
    "np.random.standard_t(df=30, size=9)", "np.random.standard_t(1, 40)",
    "np.random.standard_cauchy()", "np.random.standard_cauchy(61)", "np.random.standard_cauchy(size=(2, 2))",
    "np.random.power(2.0)", "np.random.power(2.0, 60)", "np.random.power(0.3, 20)", "np.random.power(a=1, size=5)",
    "np.random.wald(1.0, 2.0)", "np.random.wald(1.0, 2.0, 60)", "np.random.wald(mean=0.5, scale=10.0, size=4)",
    "np.random.wald(3.0, 0.01, 30)",
    "np.random.noncentral_chisquare(3.0, 2.0)", "np.random.noncentral_chisquare(3.0, 2.0, 60)",
    "np.random.noncentral_chisquare(0.5, 2.0, 60)", "np.random.noncentral_chisquare(1.0, 30.0, 30)",
    "np.random.noncentral_chisquare(0.5, 0.0, 20)", "np.random.noncentral_chisquare(3.0, 0.0, 5)",
    "np.random.noncentral_chisquare(df=0.01, nonc=0.5, size=(4, 5))",
    "np.random.noncentral_chisquare(0.5, np.nan, 3)",  # the Poisson and chi-square still drawn, NaN returned
    "np.random.noncentral_chisquare(2.0, np.nan, 3)",
    "np.random.noncentral_f(3.0, 5.0, 1.5)", "np.random.noncentral_f(3.0, 5.0, 1.5, 60)",
    "np.random.noncentral_f(dfnum=0.8, dfden=2.0, nonc=0.0, size=5)", "np.random.noncentral_f(0.5, 0.7, 3.0, 30)",
    "np.random.zipf(2.0)", "np.random.zipf(2.0, 100)", "np.random.zipf(a=3.5, size=(5, 2))",
    "np.random.zipf(1.0001, 20)", "np.random.zipf(1.05, 50)",  # near 1: most candidates past int64, drawn again
    "np.random.zipf(1020.0, 5)",
    "np.random.logseries(0.9)", "np.random.logseries(0.9, 80)", "np.random.logseries(0.1, 80)",
    "np.random.logseries(0.0, 3)", "np.random.logseries(1e-300, 10)", "np.random.logseries(1e-12, 10)",
    "np.random.logseries(p=0.999999, size=(4, 5))", "np.random.logseries(1 - 2**-53, 40)",
    "np.random.negative_binomial(3, 0.4)", "np.random.negative_binomial(3, 0.4, 60)",
    "np.random.negative_binomial(0.5, 0.9, 60)", "np.random.negative_binomial(100, 0.01, 9)",
    "np.random.negative_binomial(n=2.5, p=1.0, size=3)", "np.random.negative_binomial(1.0, 0.3, 20)",
    "np.random.negative_binomial(np.nan, 0.5, 3)",  # NumPy lets a NaN n through: a Poisson of NaN, 0
    "np.random.hypergeometric(15, 15, 15)", "np.random.hypergeometric(15, 15, 15, 100)",
    "np.random.hypergeometric(100, 3, 5, 60)", "np.random.hypergeometric(3, 100, 10, 60)",
    "np.random.hypergeometric(5, 1000, 700, 60)", "np.random.hypergeometric(1000, 20, 11, 60)",
    "np.random.hypergeometric(ngood=7, nbad=0, nsample=7, size=(2, 3))", "np.random.hypergeometric(0, 9, 4, 5)",
    "np.random.hypergeometric(10**8, 10**8, 10**6, 20)",
    "np.random.binomial(0, 0.5)", "np.random.binomial(5, 0.0, 3)",  # the legacy inversion draws even then
]
NUMBA_DEVIATES = {
    'np.random.binomial(5, 0.0, 3)',
    'np.random.f(1, 1, 20)',
    'np.random.f(3.0, 5.0)',
    'np.random.f(3.0, 5.0, 60)',
    'np.random.f(dfnum=0.5, dfden=2, size=(3, 4))',
    'np.random.hypergeometric(10**8, 10**8, 10**6, 20)',
    'np.random.hypergeometric(1000, 20, 11, 60)',
    'np.random.hypergeometric(15, 15, 15)',
    'np.random.hypergeometric(15, 15, 15, 100)',
    'np.random.hypergeometric(5, 1000, 700, 60)',
    'np.random.logseries(0.0, 3)',
    'np.random.negative_binomial(0.5, 0.9, 60)',
    'np.random.negative_binomial(1.0, 0.3, 20)',
    'np.random.negative_binomial(100, 0.01, 9)',
    'np.random.negative_binomial(3, 0.4)',
    'np.random.negative_binomial(3, 0.4, 60)',
    'np.random.negative_binomial(n=2.5, p=1.0, size=3)',
    'np.random.noncentral_chisquare(0.5, 0.0, 20)',
    'np.random.noncentral_chisquare(0.5, 2.0, 60)',
    'np.random.noncentral_chisquare(1.0, 30.0, 30)',
    'np.random.noncentral_chisquare(3.0, 0.0, 5)',
    'np.random.noncentral_chisquare(df=0.01, nonc=0.5, size=(4, 5))',
    'np.random.noncentral_f(0.5, 0.7, 3.0, 30)',
    'np.random.noncentral_f(3.0, 5.0, 1.5)',
    'np.random.noncentral_f(3.0, 5.0, 1.5, 60)',
    'np.random.noncentral_f(dfnum=0.8, dfden=2.0, nonc=0.0, size=5)',
    'np.random.standard_t(0.5, (2, 3))',
    'np.random.standard_t(1, 40)',
    'np.random.standard_t(4.0)',
    'np.random.standard_t(4.0, 60)',
    'np.random.standard_t(df=30, size=9)',
    'np.random.noncentral_chisquare(0.5, np.nan, 3)',
    'np.random.noncentral_chisquare(2.0, np.nan, 3)',
}
NUMBA_DEVIATES_IN_LOOPS = {'f', 'hypergeometric', 'negative_binomial', 'noncentral_chisquare', 'noncentral_f', 'standard_t'}
NUMBA_ERRORS_DIFFER = {
    'np.random.f(0.0, 1.0)',
    'np.random.f(1.0, -2.0, 3)',
    'np.random.hypergeometric(-1, 5, 3)',
    'np.random.hypergeometric(2, 3, 6)',
    'np.random.hypergeometric(5, -1, 3, 2)',
    'np.random.hypergeometric(5, 5, 0)',
    'np.random.logseries(-0.1, 2)',
    'np.random.logseries(np.nan)',
    'np.random.negative_binomial(2, 1.5, 3)',
    'np.random.noncentral_chisquare(1.0, -0.0, 3)',
    'np.random.noncentral_f(0.0, 1.0, 1.0)',
    'np.random.noncentral_f(1.0, 0.0, 1.0)',
    'np.random.noncentral_f(1.0, 1.0, -1.0, 2)',
    'np.random.standard_t(-1.0, 4)',
    'np.random.standard_t(0.0)',
    'np.random.zipf(1.0)',
    'np.random.logseries(1.0)',
}


def marks_for(expr, deviates):
    if "np.nan" in expr and ("negative_binomial" in expr or "zipf" in expr):
        return [numba_hangs]
    return [numba_differs] if expr in deviates else []


def streams():
    for expr in STREAMS:
        for s in SEEDS:
            yield pytest.param(expr, s, marks=marks_for(expr, NUMBA_DEVIATES), id=f"{expr}-{s}")


@pytest.mark.parametrize("expr, s", list(streams()))
def test_legacy_draws_follow_randomstates_stream(expr, s):
    compiled, plain = compiled_and_plain(expr)
    assert_same_stream(compiled(s), plain(s))


@numba_differs
def test_legacy_draws_equal_randomstates_own():
    """The stream is RandomState's: np.random.seed's, and a RandomState's of the same seed."""
    compiled, _ = compiled_and_plain("np.random.standard_t(3.0, 40)")
    rs = np.random.RandomState(7)
    np.testing.assert_array_equal(compiled(7)[0], rs.standard_t(3.0, 40))


# ---------------------------------------------------------------- many parameters in one loop

LOOPS = [
    ("np.random.f(a, b)", lambda rng, n: (rng.uniform(0.05, 20, n), rng.uniform(0.05, 20, n))),
    ("np.random.standard_t(a)", lambda rng, n: (rng.uniform(0.05, 50, n), rng.random(n))),
    ("np.random.standard_cauchy()", lambda rng, n: (rng.random(n), rng.random(n))),
    ("np.random.power(a)", lambda rng, n: (rng.uniform(0.01, 10, n), rng.random(n))),
    ("np.random.wald(a, b)", lambda rng, n: (rng.uniform(0.01, 10, n), rng.uniform(0.01, 10, n))),
    ("np.random.noncentral_chisquare(a, b)", lambda rng, n: (rng.uniform(0.01, 4, n), rng.uniform(0, 30, n))),
    ("np.random.noncentral_f(a, b, a + b)", lambda rng, n: (rng.uniform(0.05, 4, n), rng.uniform(0.05, 9, n))),
    ("np.random.zipf(1.0 + a)", lambda rng, n: (rng.uniform(0.01, 6, n), rng.random(n))),
    ("np.random.logseries(a)", lambda rng, n: (rng.uniform(0, 0.9999, n), rng.random(n))),
    ("np.random.negative_binomial(a, b)", lambda rng, n: (rng.uniform(0.01, 40, n), rng.uniform(0.01, 1, n))),
    ("np.random.hypergeometric(int(a), int(b), 1 + int(a + b) // 2)",
     lambda rng, n: (rng.integers(0, 300, n).astype(float), rng.integers(1, 300, n).astype(float))),
]


@pytest.mark.parametrize("draw, params", [
    pytest.param(d, p, marks=marks_for(d.split("(")[0].split(".")[-1], NUMBA_DEVIATES_IN_LOOPS),
                 id=d.split("(")[0].split(".")[-1]) for d, p in LOOPS])
def test_a_loop_over_many_parameters_follows_randomstates_stream(draw, params):
    """Thousands of draws, each of its own parameters: every path of each sampler, past the state's regeneration."""
    namespace = {"np": np}
    exec(f"def f(s, pa, pb):\n    np.random.seed(s)\n    out = np.empty(len(pa))\n"
         f"    for i in range(len(pa)):\n        a = pa[i]\n        b = pb[i]\n        out[i] = {draw}\n"
         f"    return out\n", namespace)
    f = namespace["f"]
    pa, pb = params(np.random.default_rng(seed_of(draw)), 3000)
    np.testing.assert_array_equal(ruchey.njit(f)(5, pa, pb), f(5, pa, pb))


# ---------------------------------------------------------------- errors

ERRORS = [
    ("np.random.f(0.0, 1.0)", "dfnum <= 0"), ("np.random.f(1.0, -2.0, 3)", "dfden <= 0"),
    ("np.random.standard_t(0.0)", "df <= 0"), ("np.random.standard_t(-1.0, 4)", "df <= 0"),
    ("np.random.power(0.0)", "a <= 0"), ("np.random.power(-0.5, 3)", "a <= 0"),
    ("np.random.wald(0.0, 1.0)", "mean <= 0"), ("np.random.wald(1.0, 0.0, 2)", "scale <= 0"),
    ("np.random.noncentral_chisquare(0.0, 1.0)", "df <= 0"), ("np.random.noncentral_chisquare(1.0, -1.0)", "nonc < 0"),
    ("np.random.noncentral_chisquare(1.0, -0.0, 3)", "nonc < 0"),  # the sign bit, as NumPy tests it
    ("np.random.noncentral_f(0.0, 1.0, 1.0)", "dfnum <= 0"), ("np.random.noncentral_f(1.0, 0.0, 1.0)", "dfden <= 0"),
    ("np.random.noncentral_f(1.0, 1.0, -1.0, 2)", "nonc < 0"),
    ("np.random.zipf(1.0)", "a <= 1 or a is NaN"), ("np.random.zipf(np.nan, 3)", "a <= 1 or a is NaN"),
    ("np.random.logseries(1.0)", "p < 0, p >= 1 or p is NaN"), ("np.random.logseries(-0.1, 2)", "p < 0, p >= 1"),
    ("np.random.logseries(np.nan)", "p is NaN"),
    ("np.random.negative_binomial(0, 0.5)", "n <= 0"), ("np.random.negative_binomial(2, 1.5, 3)", "p < 0, p > 1"),
    ("np.random.negative_binomial(2, np.nan)", "p is NaN"),
    ("np.random.hypergeometric(2, 3, 6)", "ngood \\+ nbad < nsample"), ("np.random.hypergeometric(-1, 5, 3)", "ngood < 0"),
    ("np.random.hypergeometric(5, -1, 3, 2)", "nbad < 0"), ("np.random.hypergeometric(5, 5, 0)", "nsample < 1"),
]


@pytest.mark.parametrize("expr, message", [pytest.param(e, m, marks=marks_for(e, NUMBA_ERRORS_DIFFER)) for e, m in ERRORS])
def test_bad_parameters_raise_randomstates_value_error(expr, message):
    compiled, plain = compiled_and_plain(expr)
    with pytest.raises(ValueError, match=message):
        plain(1)
    with pytest.raises(ValueError, match=message):
        compiled(1)
