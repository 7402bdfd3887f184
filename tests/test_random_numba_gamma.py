"""numpy.random's gammas in code written for Numba (ruchey registered as
numba): Numba draws them by its own sampler, CPython's
random.gammavariate over numpy.random.random(), not NumPy's legacy one,
and so the distributions it draws from gammas (standard_gamma, beta,
chisquare, f, standard_t, negative_binomial, noncentral_chisquare,
dirichlet). Functions decorated with Numba's readings draw that stream:
the same numbers, to the bit, as the algorithm below written in Python
over NumPy's legacy uniforms and normals after the same seed, and the
state after them where its is. ruchey's own functions keep NumPy's."""
import math

import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba itself stands in for ruchey")

SEEDS = [0, 7, 2**32 - 1]
SHAPES = [0.05, 0.5, 0.999, 1.0, 1.0001, 2.5, 30.0, 1e4]


def gammavariate(alpha, beta=1.0):
    """CPython's gammavariate (Cheng; exponential; Kennedy and Gentle's GS),
    as Numba's np.random.gamma draws it, over numpy.random.random()."""
    if alpha > 1.0:
        ainv = math.sqrt(2.0 * alpha - 1.0)
        bbb, ccc = alpha - math.log(4.0), alpha + ainv
        while True:
            u1 = np.random.random()
            if not 1e-7 < u1 < .9999999:
                continue
            u2 = 1.0 - np.random.random()
            v = math.log(u1 / (1.0 - u1)) / ainv
            x = alpha * math.exp(v)
            z = u1 * u1 * u2
            r = bbb + ccc * v - x
            if r + 1.0 + math.log(4.5) - 4.5 * z >= 0.0 or r >= math.log(z):
                return x * beta
    if alpha == 1.0:
        return -math.log(1.0 - np.random.random()) * beta
    while True:
        u = np.random.random()
        b = (math.e + alpha) / math.e
        p = b * u
        x = p ** (1.0 / alpha) if p <= 1.0 else -math.log((b - p) / alpha)
        u1 = np.random.random()
        if (u1 <= x ** (alpha - 1.0)) if p > 1.0 else (u1 <= math.exp(-x)):
            return x * beta


def numba_beta(a, b):
    y = gammavariate(a)
    return 0.0 if y == 0.0 else y / (y + gammavariate(b))


def numba_chisquare(df):
    return 2.0 * gammavariate(df / 2.0)


def numba_f(dfnum, dfden):
    num = numba_chisquare(dfnum) * dfden
    return num / (numba_chisquare(dfden) * dfnum)


def numba_standard_t(df):
    n = np.random.standard_normal()
    return math.sqrt(df / 2.0) * n / math.sqrt(gammavariate(df / 2.0))


def numba_negative_binomial(n, p):
    return np.random.poisson(gammavariate(n, (1.0 - p) / p))


def numba_noncentral_chisquare(df, nonc):
    if 1 < df:
        chi2 = numba_chisquare(df - 1)
        z = np.random.standard_normal() + math.sqrt(nonc)
        return chi2 + z * z
    return numba_chisquare(df + 2 * np.random.poisson(nonc / 2.0))


def numba_dirichlet(alpha, rows):
    out = np.empty((rows, len(alpha)))
    for r in range(rows):
        for k, w in enumerate(alpha):
            out[r, k] = gammavariate(w)
        out[r] /= out[r].sum()
    return out


def for_numba(f):
    """f compiled as code written for Numba is: with Numba's readings."""
    ruchey._core._numba_semantics(True)
    try:
        return ruchey.njit(f)
    finally:
        ruchey._core._numba_semantics(False)


def then_next(seed, draw):
    """draw() after numpy.random.seed(seed) in plain Python, and the next double."""
    np.random.seed(seed)
    return draw(), np.random.random()


@for_numba
def gammas(s, shape, scale):
    np.random.seed(s)
    one = np.random.gamma(shape, scale)
    return one, np.random.gamma(shape, scale, 5), np.random.standard_gamma(shape), np.random.random()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", SHAPES)
def test_gamma_draws_numbas_gammavariate_stream(seed, shape):
    for scale in (1.0, 0.25, 3.0):
        def expected():
            return (gammavariate(shape, scale), np.array([gammavariate(shape, scale) for _ in range(5)]),
                    gammavariate(shape))
        want, after = then_next(seed, expected)
        *got, got_after = gammas(seed, shape, scale)
        assert got[0] == want[0] and got[2] == want[2]
        np.testing.assert_array_equal(got[1], want[1])
        assert got_after == after


def test_gamma_of_generated_parameters_in_a_loop():
    @for_numba
    def loop(s, shapes, scales):
        np.random.seed(s)
        out = np.empty(len(shapes))
        for i in range(len(shapes)):
            out[i] = np.random.gamma(shapes[i], scales[i])
        return out

    rng = np.random.default_rng(11)
    shapes = rng.uniform(0.01, 12.0, 400)
    scales = rng.uniform(0.1, 5.0, 400)
    np.random.seed(5)
    want = np.array([gammavariate(a, b) for a, b in zip(shapes, scales)])
    np.testing.assert_array_equal(loop(5, shapes, scales), want)


CASES = [  # (the draw in compiled code, the same draw by Numba's algorithm in Python)
    ("np.random.beta(0.3, 0.7)", "numba_beta(0.3, 0.7)"),
    ("np.random.beta(2.5, 4.0)", "numba_beta(2.5, 4.0)"),
    ("np.random.chisquare(3.0)", "numba_chisquare(3.0)"),
    ("np.random.chisquare(0.7)", "numba_chisquare(0.7)"),
    ("np.random.f(4.0, 9.0)", "numba_f(4.0, 9.0)"),
    ("np.random.standard_t(5.0)", "numba_standard_t(5.0)"),
    ("np.random.negative_binomial(3.5, 0.4)", "numba_negative_binomial(3.5, 0.4)"),
    ("np.random.noncentral_chisquare(3.0, 2.0)", "numba_noncentral_chisquare(3.0, 2.0)"),
    ("np.random.noncentral_chisquare(0.5, 1.5)", "numba_noncentral_chisquare(0.5, 1.5)"),
    ("np.random.noncentral_chisquare(3.0, 0.0)", "numba_noncentral_chisquare(3.0, 0.0)"),
]


def drawing(expr):
    """f(s, n): n draws of expr after seeding with s, and the next double."""
    namespace = dict(globals())
    exec(f"def f(s, n):\n    np.random.seed(s)\n    out = np.empty(n)\n    for i in range(n):\n"
         f"        out[i] = {expr}\n    return out, np.random.random()\n", namespace)
    return namespace["f"]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_distributions_drawn_from_gammas_follow_numbas(seed, case):
    compiled, reference = for_numba(drawing(case[0])), drawing(case[1])
    got, after = compiled(seed, 50)
    want, want_after = reference(seed, 50)
    np.testing.assert_array_equal(got, want)
    assert after == want_after


@pytest.mark.parametrize("seed", SEEDS)
def test_sized_draws_follow_numbas(seed):
    @for_numba
    def sized(s):
        np.random.seed(s)
        return (np.random.beta(0.5, 2.0, (2, 3)), np.random.chisquare(4.0, 6), np.random.f(2.0, 3.0, 4),
                np.random.standard_t(3.0, 4), np.random.negative_binomial(2, 0.3, 5))

    np.random.seed(seed)
    want = (np.array([numba_beta(0.5, 2.0) for _ in range(6)]).reshape(2, 3),
            np.array([numba_chisquare(4.0) for _ in range(6)]), np.array([numba_f(2.0, 3.0) for _ in range(4)]),
            np.array([numba_standard_t(3.0) for _ in range(4)]),
            np.array([numba_negative_binomial(2, 0.3) for _ in range(5)]))
    for g, w in zip(sized(seed), want):
        np.testing.assert_array_equal(g, w)
        assert g.shape == w.shape


@pytest.mark.parametrize("seed", SEEDS)
def test_dirichlet_divides_numbas_gammas_by_their_sum(seed):
    @for_numba
    def dirichlet(s, alpha, rows):
        np.random.seed(s)
        return np.random.dirichlet(alpha, rows)

    alpha = np.array([0.2, 1.0, 3.5, 40.0])
    np.random.seed(seed)
    want = numba_dirichlet(alpha, 7)
    np.testing.assert_array_equal(dirichlet(seed, alpha, 7), want)


def test_ruchey_functions_keep_numpys_legacy_gammas():
    @ruchey.njit
    def plain(s):
        np.random.seed(s)
        return np.random.gamma(2.5, 1.5, 8), np.random.beta(0.3, 0.4, 8), np.random.dirichlet(np.ones(3), 2)

    for g, w in zip(plain(3), plain.py_func(3)):
        np.testing.assert_array_equal(g, w)


def test_nan_shape_is_nan_not_an_endless_loop():
    @for_numba
    def nan_gamma(s):
        np.random.seed(s)
        return np.random.gamma(np.nan, 1.0), np.random.beta(np.nan, 1.0)

    assert all(math.isnan(x) for x in nan_gamma(1))


@pytest.mark.parametrize("shape, scale", [(0.0, 1.0), (-1.0, 1.0), (2.0, 0.0), (2.0, -0.5)])
def test_gamma_of_a_shape_or_scale_not_above_0_is_numbas_value_error(shape, scale):
    @for_numba
    def bad(shape, scale):
        return np.random.gamma(shape, scale)

    with pytest.raises(ValueError, match=r"^gammavariate: alpha and beta must be > 0\.0$"):
        bad(shape, scale)


def test_dirichlet_of_an_alpha_not_above_0_is_numbas_value_error():
    @for_numba
    def bad(alpha):
        return np.random.dirichlet(alpha)

    with pytest.raises(ValueError, match=r"^dirichlet: alpha must be > 0\.0$"):
        bad(np.array([1.0, 0.0]))
