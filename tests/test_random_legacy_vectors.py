"""numpy.random.multinomial and numpy.random.dirichlet in compiled code.

Each draws NumPy's RandomState stream: after numpy.random.seed(s) in
compiled code, the same counts and fractions, to the bit, as the same calls
in Python after the same seed (a legacy binomial per cell but the last;
legacy gammas over their sum), and the state after them where Python's is
(the next double drawn equal). Bad parameters raise NumPy's ValueError with
its message; a bad type is a TypingError."""
import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, numba_deviation, seed_of

SEEDS = [0, 12345, 2**32 - 1]


def compiled_and_plain(expr):
    """f(s, p) seeding with s, returning expr (of p) and the next double drawn; compiled and plain."""
    namespace = {"np": np}
    exec(f"def f(s, p):\n    np.random.seed(s)\n    a = {expr}\n    return a, np.random.random()\n", namespace)
    return ruchey.njit(namespace["f"]), namespace["f"]


def assert_same_stream(got, expected):
    assert got[0].dtype == expected[0].dtype and got[0].shape == expected[0].shape
    np.testing.assert_array_equal(got[0], expected[0])
    assert got[1] == expected[1]  # the state moved on as NumPy's


# Numba draws multinomials with its own binomial and dirichlets with its own gamma
numba_gamma_differs = numba_deviation("its gamma draws another stream")


def probabilities(rng, d, dtype=np.float64):
    p = rng.random(d)
    return (p / p.sum()).astype(dtype)


MULTINOMIALS = [
    "np.random.multinomial(20, p)", "np.random.multinomial(20, p, 7)", "np.random.multinomial(1000, p, (2, 3))",
    "np.random.multinomial(n=5, pvals=p, size=4)",
    "np.random.multinomial(10**6, p, 5)",  # BTPE past n * p = 30
]


@pytest.mark.parametrize("expr", MULTINOMIALS)
@pytest.mark.parametrize("d", [1, 2, 5, 40])
@pytest.mark.parametrize("s", SEEDS)
def test_multinomial_follows_randomstates_stream(expr, d, s):
    p = probabilities(np.random.default_rng(seed_of(expr, d, s)), d)
    compiled, plain = compiled_and_plain(expr)
    assert_same_stream(compiled(s, p), plain(s, p))


@numba_deviation("its binomial of n or p 0 draws a number")
@pytest.mark.parametrize("s", SEEDS)
def test_multinomial_of_no_items_draws_nothing(s):
    p = probabilities(np.random.default_rng(s), 5)
    compiled, plain = compiled_and_plain("np.random.multinomial(0, p, 3)")
    assert_same_stream(compiled(s, p), plain(s, p))


@numba_deviation("its binomial of n or p 0 draws a number")
def test_multinomial_of_float32_and_uneven_pvals():
    rng = np.random.default_rng(3)
    for p in (probabilities(rng, 6, np.float32), np.array([0.0, 1.0, 0.0]), np.array([0.3, 0.3, 0.3]),
              np.array([0.9, 0.2]), np.array([1e-300, 0.5, 0.5])):
        compiled, plain = compiled_and_plain("np.random.multinomial(500, p, 9)")
        assert_same_stream(compiled(4, p), plain(4, p))


DIRICHLETS = [
    "np.random.dirichlet(p)", "np.random.dirichlet(p, 7)", "np.random.dirichlet(p, (2, 3))",
    "np.random.dirichlet(alpha=p, size=4)", "np.random.dirichlet(p * 100.0, 5)", "np.random.dirichlet(p * 0.05, 6)",
]


@numba_gamma_differs
@pytest.mark.parametrize("expr", DIRICHLETS)
@pytest.mark.parametrize("d", [1, 3, 30])
@pytest.mark.parametrize("s", SEEDS)
def test_dirichlet_follows_randomstates_stream(expr, d, s):
    p = np.random.default_rng(seed_of(expr, d, s)).uniform(0.1, 5.0, d)
    compiled, plain = compiled_and_plain(expr)
    assert_same_stream(compiled(s, p), plain(s, p))


@numba_gamma_differs
@pytest.mark.parametrize("expr", ["np.random.multinomial(30, p, 4)", "np.random.dirichlet(p, (2, 3))",
                                  "np.random.dirichlet(p)", "np.random.multinomial(7, p)"])
@pytest.mark.parametrize("d", [1, 4])
def test_pvals_and_alpha_given_as_tuples_and_lists_are_read_as_arrays(expr, d):
    # as NumPy and Numba take any sequence of numbers
    p = probabilities(np.random.default_rng(seed_of(expr, d)), d)
    compiled, plain = compiled_and_plain(expr)
    for given in (tuple(p), list(p), tuple(int(v) + 1 for v in p * 2) if "dirichlet" in expr else tuple(p)):
        assert_same_stream(compiled(5, given), plain(5, given))
    with pytest.raises(ruchey.TypingError):
        compiled(5, ("a",) * d)  # no numbers


def test_pvals_and_alpha_written_as_literals():
    expr = "(np.random.dirichlet((1.0, 2, 0.5), 3), np.random.multinomial(9, [0.25, 0.75]))"
    compiled, plain = compiled_and_plain(expr)
    got, expected = compiled(2, None), plain(2, None)
    for g, e in zip(got[0], expected[0]):
        np.testing.assert_array_equal(g, e)
    assert got[1] == expected[1]


@numba_gamma_differs
def test_vectors_equal_randomstates_own():
    """The stream is RandomState's: np.random.seed's, and a RandomState's of the same seed."""
    p = np.array([0.2, 0.3, 0.5])
    compiled, _ = compiled_and_plain("np.random.multinomial(100, p, 50)")
    np.testing.assert_array_equal(compiled(7, p)[0], np.random.RandomState(7).multinomial(100, p, 50))
    compiled, _ = compiled_and_plain("np.random.dirichlet(p, 50)")
    np.testing.assert_array_equal(compiled(7, p)[0], np.random.RandomState(7).dirichlet(p, 50))


@numba_gamma_differs
def test_empty_pvals_and_alpha_draw_nothing():
    compiled, plain = compiled_and_plain("np.random.multinomial(5, p, 3)")
    assert_same_stream(compiled(1, np.zeros(0)), plain(1, np.zeros(0)))
    compiled, plain = compiled_and_plain("np.random.dirichlet(p, 3)")
    assert_same_stream(compiled(1, np.zeros(0)), plain(1, np.zeros(0)))


ERRORS = [
    ("np.random.multinomial(-1, p)", np.array([0.5, 0.5]), "n < 0"),
    ("np.random.multinomial(5, p)", np.array([0.5, 1.5]), "pvals < 0, pvals > 1 or pvals contains NaNs"),
    ("np.random.multinomial(5, p, 3)", np.array([-0.1, 0.5]), "pvals < 0, pvals > 1"),
    ("np.random.multinomial(5, p)", np.array([np.nan, 0.5]), "contains NaNs"),
    ("np.random.multinomial(5, p)", np.array([0.6, 0.6, 0.1]), "sum\\(pvals\\[:-1\\]\\) > 1.0"),
    ("np.random.multinomial(5, p)", np.array([0.6, 0.40001, 0.0], np.float32), "astype\\(np.float64\\)"),
    ("np.random.multinomial(-1, p)", np.array([0.6, 0.6, 0.1]), "sum\\(pvals"),  # pvals checked before n
    ("np.random.dirichlet(p)", np.array([1.0, 0.0]), "alpha <= 0"),
    ("np.random.dirichlet(p, 4)", np.array([1.0, -2.0]), "alpha <= 0"),
]


@numba_deviation("its messages differ")
@pytest.mark.parametrize("expr, p, message", ERRORS)
def test_bad_parameters_raise_randomstates_value_error(expr, p, message):
    compiled, plain = compiled_and_plain(expr)
    with pytest.raises(ValueError, match=message):
        plain(1, p)
    with pytest.raises(ValueError, match=message):
        compiled(1, p)


@numba_deviation("its messages differ")
@pytest.mark.parametrize("expr, p", [("np.random.multinomial(2.5, p)", np.ones(2) / 2),
                                     ("np.random.multinomial(np.arange(3), p)", np.ones(2) / 2),
                                     ("np.random.multinomial(3, 0.5)", 0.5),
                                     ("np.random.dirichlet(p)", np.ones((2, 2)))])
def test_bad_types_are_typing_errors(expr, p):
    compiled, _ = compiled_and_plain(expr)
    with pytest.raises(ruchey.TypingError, match="must be"):
        compiled(1, p)
