"""numpy.random.Generator in compiled code: hypergeometric, the draws of
vectors (multinomial, dirichlet, multivariate_normal), permuted, and out=
of the standard draws.

Every stream is checked equal, to the bit, to the same calls on a
Generator in Python from the same state, and the state after the calls
equal to Python's (the next double drawn); multivariate_normal's to a
tolerance (its decomposition may differ from NumPy's in the last bits).
Bad parameters raise NumPy's errors with its messages."""
import warnings

import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, seed_of

pytestmark = [
    pytest.mark.skipif(tuple(int(v) for v in np.__version__.split(".")[:2]) < (2, 4),
                       reason="NumPy before 2.4 draws these streams otherwise"),
    pytest.mark.skipif(AS_NUMBA, reason="Numba's Generator has none of these"),
]

BIT_GENERATORS = [np.random.PCG64, np.random.MT19937, np.random.SFC64]


def compiled_and_plain(body):
    """f(rng, *a) returning body's draws and the state's next double; compiled and plain."""
    namespace = {"np": np}
    exec(f"def f(rng, *a):\n    r = {body}\n    return r, rng.random()\n", namespace)
    return ruchey.njit(namespace["f"]), namespace["f"]


def assert_same_stream(body, seed, *args, bit_generator=np.random.PCG64):
    compiled, plain = compiled_and_plain(body)
    got = compiled(np.random.Generator(bit_generator(seed)), *args)
    expected = plain(np.random.Generator(bit_generator(seed)), *args)
    assert np.shape(got[0]) == np.shape(expected[0])
    if isinstance(expected[0], np.ndarray):
        assert got[0].dtype == expected[0].dtype
    np.testing.assert_array_equal(got[0], expected[0])
    assert got[1] == expected[1]  # the state moved on as NumPy's


def assert_same_error(body, *args):
    """rng.<body> raises NumPy's error, with its message, compiled too."""
    compiled, plain = compiled_and_plain(body)
    with pytest.raises(ValueError) as theirs:
        plain(np.random.default_rng(1), *args)
    with pytest.raises(ValueError) as mine:
        compiled(np.random.default_rng(1), *args)
    assert str(mine.value) == str(theirs.value)


# ---------------------------------------------------------------- hypergeometric

HYPERGEOMETRIC = [
    "rng.hypergeometric(10, 5, 4, 50)",  # item by item
    "rng.hypergeometric(5, 10, 12, 50)",  # more than half: the items left out
    "rng.hypergeometric(100, 200, 50, 60)",  # the ratio of uniforms
    "rng.hypergeometric(20000, 1000, 5000, (3, 4))",  # more good than bad
    "rng.hypergeometric(500, 600, 1090, 20)",  # the sample's complement
    "rng.hypergeometric(300, 3, 250, 20)", "rng.hypergeometric(0, 7, 5, 5)", "rng.hypergeometric(7, 0, 5, 5)",
    "rng.hypergeometric(10**8, 10**8, 10**7, 30)",  # Stirling's series past the table
    "rng.hypergeometric(ngood=15, nbad=15, nsample=15)", "rng.hypergeometric(4, 4, 0, 3)",
    "rng.hypergeometric(4, 4, 8, 3)", "rng.hypergeometric(5.9, 5, 3, 10)",  # truncated, as NumPy's int64 cast
]


@pytest.mark.parametrize("body", HYPERGEOMETRIC)
@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_hypergeometric_is_numpys_stream(body, bit_generator):
    assert_same_stream(body, seed_of(body, bit_generator.__name__), bit_generator=bit_generator)


@pytest.mark.parametrize("case", range(12))
def test_hypergeometric_of_generated_parameters_is_numpys_stream(case):
    r = np.random.default_rng(seed_of("hypergeometric", case))
    good, bad = (int(v) for v in 10 ** r.uniform(0, 6 if case % 2 else 2, 2))
    sample = int(r.integers(0, good + bad + 1))
    size = [None, 0, 7, (2, 3)][case % 4]
    assert_same_stream("rng.hypergeometric(a[0], a[1], a[2], a[3])", seed_of("stream", case), good, bad, sample, size)


@pytest.mark.parametrize("body", [
    "rng.hypergeometric(5, 5, 11)", "rng.hypergeometric(-1, 5, 3)", "rng.hypergeometric(5, -1, 3)",
    "rng.hypergeometric(5, 5, -1)", "rng.hypergeometric(10**9, 5, 3)", "rng.hypergeometric(5, 10**9, 3, 4)",
    "rng.hypergeometric(-1, 5, 10)",  # the sample's bound before the signs, as NumPy
    "rng.hypergeometric(5, 5, 3, -1)",
])
def test_hypergeometric_errors_are_numpys(body):
    assert_same_error(body)


# ---------------------------------------------------------------- multinomial

P3 = np.array([0.2, 0.3, 0.5])
MULTINOMIAL = [
    ("rng.multinomial(20, a[0])", (P3,)),
    ("rng.multinomial(1000, a[0], 5)", (P3,)),  # the binomials' BTPE
    ("rng.multinomial(n=7, pvals=a[0], size=(2, 3))", (P3,)),
    ("rng.multinomial(0, a[0], 4)", (P3,)),
    ("rng.multinomial(50, a[0], 3)", (np.array([0.6, 0.4, 0.0]),)),  # 0.4 / (1 - 0.6) rounds past 1
    ("rng.multinomial(50, a[0], 3)", (np.array([1.0, 0.0, 0.0]),)),
    ("rng.multinomial(50, a[0], 3)", (np.array([0.0, 0.0, 1.0]),)),
    ("rng.multinomial(50, a[0], 3)", (np.array([0.3, 0.3, 0.9]),)),  # the last's weight is what is left
    ("rng.multinomial(9, a[0], 2)", (np.array([1.0]),)),
    ("rng.multinomial(40, a[0], 6)", (np.array([0.25, 0.25, 0.5], np.float32),)),
    ("rng.multinomial(a[1], a[0])", (P3, np.array([[5, 100], [3000, 0]]))),
    ("rng.multinomial(a[1], a[0], (3, 2))", (P3, np.array([5, 100], np.int32))),
    ("rng.multinomial(a[1], a[0], (3, 2, 4))", (P3, np.array([[7], [8], [9]])[::2])),
    ("rng.multinomial(a[1], a[0], 4)", (P3, np.array(12))),
]


@pytest.mark.parametrize("case", range(len(MULTINOMIAL)))
@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_multinomial_is_numpys_stream(case, bit_generator):
    body, args = MULTINOMIAL[case]
    assert_same_stream(body, seed_of(body, case, bit_generator.__name__), *args, bit_generator=bit_generator)


@pytest.mark.parametrize("case", range(12))
def test_multinomial_of_generated_parameters_is_numpys_stream(case):
    r = np.random.default_rng(seed_of("multinomial", case))
    weights = r.uniform(0, 1, int(r.integers(1, 12))) ** 3
    pvals = weights / weights.sum()
    n = int(10 ** r.uniform(0, 5))
    size = [None, 0, 9, (2, 3)][case % 4]
    assert_same_stream("rng.multinomial(a[0], a[1], a[2])", seed_of("stream", case), n, pvals, size)


@pytest.mark.parametrize("case", [
    ("rng.multinomial(5, a[0])", (np.array([0.5, 1.5]),)),
    ("rng.multinomial(5, a[0])", (np.array([-0.1, 0.5]),)),
    ("rng.multinomial(5, a[0])", (np.array([np.nan, 0.5]),)),
    ("rng.multinomial(5, a[0])", (np.array([0.6, 0.6, 0.1]),)),
    ("rng.multinomial(5, a[0])", (np.array([0.6, 0.6, 0.1], np.float32),)),
    ("rng.multinomial(5, a[0])", (np.array([], np.float64),)),
    ("rng.multinomial(-5, a[0])", (P3,)),
    ("rng.multinomial(a[1], a[0])", (P3, np.array([3, -1]))),
    ("rng.multinomial(a[1], a[0], (3, 3))", (P3, np.array([5, 100]))),  # no broadcast
    ("rng.multinomial(a[1], a[0], (1, 2))", (P3, np.array([[5, 100], [1, 2]]))),  # broadcast past size
    ("rng.multinomial(a[1], a[0], 2)", (P3, np.array([[5, 100], [1, 2]]))),
], ids=lambda c: c if isinstance(c, str) else None)
def test_multinomial_errors_are_numpys(case):
    assert_same_error(case[0], *case[1])


# ---------------------------------------------------------------- dirichlet

DIRICHLET = [
    ("rng.dirichlet(a[0])", np.array([0.5, 1.5, 3.0])),
    ("rng.dirichlet(a[0], 10)", np.array([0.5, 1.5, 3.0])),
    ("rng.dirichlet(alpha=a[0], size=(2, 3))", np.array([2.0, 0.3])),
    ("rng.dirichlet(a[0], 10)", np.array([0.01, 0.05, 0.02])),  # the small branch: betas
    ("rng.dirichlet(a[0], (2, 3))", np.array([0.01, 0.0, 0.02, 0.0])),  # stopped where the rest is 0
    ("rng.dirichlet(a[0], 4)", np.array([0.0, 0.0])),  # all 0: zeros
    ("rng.dirichlet(a[0], 4)", np.array([0.0, 0.5])),
    ("rng.dirichlet(a[0], 4)", np.array([], np.float64)),
    ("rng.dirichlet(a[0], 4)", np.array([3, 1, 2])),
    ("rng.dirichlet(a[0], 5)", np.array([0.05, 0.09], np.float32)),
    ("rng.dirichlet(a[0], 5)", np.array([1e-3, 1e-300])),
    ("rng.dirichlet(a[0], 3)", np.arange(12.0)[::3] + 0.5),
]


@pytest.mark.parametrize("case", range(len(DIRICHLET)))
@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_dirichlet_is_numpys_stream(case, bit_generator):
    body, alpha = DIRICHLET[case]
    assert_same_stream(body, seed_of(body, case, bit_generator.__name__), alpha, bit_generator=bit_generator)


@pytest.mark.parametrize("case", range(12))
def test_dirichlet_of_generated_parameters_is_numpys_stream(case):
    r = np.random.default_rng(seed_of("dirichlet", case))
    alpha = 10 ** r.uniform(-3 if case % 2 else -1.5, 1 if case % 2 else -1.0, int(r.integers(1, 9)))
    size = [None, 0, 9, (2, 3)][case % 4]
    assert_same_stream("rng.dirichlet(a[0], a[1])", seed_of("stream", case), alpha, size)


@pytest.mark.parametrize("alpha", [[-1.0, 0.5], [0.5, -0.0, -2.0]], ids=["negative", "second"])
def test_dirichlet_errors_are_numpys(alpha):
    assert_same_error("rng.dirichlet(a[0])", np.array(alpha))


# ---------------------------------------------------------------- permuted

def permuted_inputs():
    a = np.arange(24).reshape(4, 6)
    return {
        "1d": np.arange(17.0), "1d-strided": np.arange(40)[::3], "c": a, "f": np.asfortranarray(a),
        "transposed-view": np.arange(48).reshape(4, 12)[:, ::2].T, "3d": np.arange(60.0).reshape(3, 4, 5),
        "3d-mixed": np.arange(60.0).reshape(3, 4, 5).transpose(1, 0, 2), "3d-f": np.asfortranarray(np.ones((2, 3, 4))),
        "int8": np.arange(30, dtype=np.int8).reshape(5, 6), "complex": (np.arange(12) * 1j).reshape(3, 4),
        "bool": np.arange(10) % 3 == 0, "empty": np.zeros((0, 4)), "one-row": np.arange(7.0).reshape(1, 7),
    }


PERMUTED_INPUTS = permuted_inputs()


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("name", sorted(PERMUTED_INPUTS))
def test_permuted_is_numpys_stream(name, axis):
    x = PERMUTED_INPUTS[name]
    if axis is not None and axis >= x.ndim:
        pytest.skip("the axis errors are tested below")
    body = "rng.permuted(a[0])" if axis is None else f"rng.permuted(a[0], axis={axis})"
    assert_same_stream(body, seed_of(name, axis), x)
    assert np.array_equal(x, permuted_inputs()[name])  # x itself untouched


@pytest.mark.parametrize("axis", [None, 1])
@pytest.mark.parametrize("layout", ["c", "f", "strided"])
def test_permuted_into_out_is_numpys_stream_and_returns_out(layout, axis):
    x = np.arange(24.0).reshape(4, 6)
    outs = {"c": lambda: np.zeros((4, 6)), "f": lambda: np.zeros((6, 4)).T, "strided": lambda: np.zeros((8, 12))[::2, ::2]}
    mine, theirs = outs[layout](), outs[layout]()
    body = "rng.permuted(a[0], out=a[1])" if axis is None else f"rng.permuted(a[0], axis={axis}, out=a[1])"
    compiled, plain = compiled_and_plain(body)
    got = compiled(np.random.default_rng(seed_of(layout, axis)), x, mine)
    expected = plain(np.random.default_rng(seed_of(layout, axis)), x, theirs)
    np.testing.assert_array_equal(mine, theirs)
    np.testing.assert_array_equal(got[0], mine)
    assert got[1] == expected[1]


def test_permuted_casts_into_a_wider_out():
    x, mine, theirs = np.arange(10, dtype=np.int32), np.zeros(10), np.zeros(10)
    compiled, plain = compiled_and_plain("rng.permuted(a[0], out=a[1])")
    compiled(np.random.default_rng(4), x, mine)
    plain(np.random.default_rng(4), x, theirs)
    np.testing.assert_array_equal(mine, theirs)


@pytest.mark.parametrize("body, args", [
    ("rng.permuted(a[0], axis=2)", (np.zeros((2, 3)),)),
    ("rng.permuted(a[0], axis=-3)", (np.zeros((2, 3)),)),
    ("rng.permuted(a[0], out=a[1])", (np.zeros((2, 3)), np.zeros((3, 2)))),
], ids=["axis-past", "axis-before", "out-shape"])
def test_permuted_errors_are_numpys(body, args):
    assert_same_error(body, *args)


@pytest.mark.parametrize("body, message", [
    ("rng.permuted(a[0], out=a[2])", "cannot cast x's float64 to out's int64 safely"),
    ("rng.permuted(a[0], out=1)", "out must be a numpy array"),
    ("rng.permuted(a[0], axis=1.5)", "axis must be an int or None"),
    ("rng.permuted(1.5)", "x must be an array"),
    ("rng.multinomial(5.5, a[0])", "n must be an int or an array of ints"),
    ("rng.multinomial(5, a[1])", "pvals must be a 1-dimensional array of numbers"),
    ("rng.dirichlet(a[1])", "alpha must be a 1-dimensional array of numbers"),
])
def test_bad_arguments_are_typing_errors(body, message):
    compiled, _ = compiled_and_plain(body)
    with pytest.raises(ruchey.TypingError, match=message):
        compiled(np.random.default_rng(1), np.zeros(3), np.zeros((2, 2)), np.zeros(3, np.int64))


# ---------------------------------------------------------------- out= of random and the standard draws

OUTS = {
    "c": lambda dtype: np.zeros((3, 4), dtype), "f": lambda dtype: np.zeros((4, 3), dtype).T,
    "1d": lambda dtype: np.zeros(1000, dtype), "empty": lambda dtype: np.zeros((0, 3), dtype),
    "strided": lambda dtype: np.zeros((4, 6), dtype)[:, ::2], "int64": lambda dtype: np.zeros(5, np.int64),
    "other-float": lambda dtype: np.zeros(5, np.float32 if dtype == np.float64 else np.float64),
}
OUT_DRAWS = [
    "rng.random(out=o)", "rng.random(out=o, dtype=np.float32)", "rng.random(None, np.float64, o)",
    "rng.standard_normal(out=o)", "rng.standard_normal(dtype=np.float32, out=o)",
    "rng.standard_exponential(out=o)", "rng.standard_exponential(out=o, method='inv')",
    "rng.standard_exponential(None, np.float32, 'inv', o)", "rng.standard_exponential(dtype=np.float32, out=o)",
    "rng.standard_gamma(2.5, out=o)", "rng.standard_gamma(0.5, out=o, dtype=np.float32)",
    "rng.standard_gamma(-0.5, out=o)",
]


@pytest.mark.parametrize("layout", sorted(OUTS))
@pytest.mark.parametrize("body", OUT_DRAWS)
def test_out_is_filled_as_numpy_fills_it_and_returned(body, layout):
    dtype = np.float32 if "float32" in body else np.float64
    namespace = {"np": np}
    exec(f"def f(rng, o):\n    r = {body}\n    return r, rng.random()\n", namespace)
    plain, compiled = namespace["f"], ruchey.njit(namespace["f"])
    mine, theirs = OUTS[layout](dtype), OUTS[layout](dtype)
    seed = seed_of(body, layout)
    try:
        expected = plain(np.random.default_rng(seed), theirs)
    except (TypeError, ValueError) as e:  # a layout, dtype or parameter NumPy refuses: the same error
        with pytest.raises(type(e)) as mine_error:
            compiled(np.random.default_rng(seed), mine)
        assert str(mine_error.value) == str(e)
        return
    assert expected[0] is theirs
    got = compiled(np.random.default_rng(seed), mine)
    np.testing.assert_array_equal(mine, theirs)
    np.testing.assert_array_equal(got[0], mine)
    assert got[1] == expected[1]


@pytest.mark.parametrize("size", ["(3, 4)", "12", "(4, 3)", "(3, 4, 1)"])
def test_size_with_out_must_be_its_shape(size):
    namespace = {"np": np}
    exec(f"def f(rng, o):\n    return rng.random({size}, out=o)\n", namespace)
    plain, compiled = namespace["f"], ruchey.njit(namespace["f"])
    if size == "(3, 4)":
        mine, theirs = np.zeros((3, 4)), np.zeros((3, 4))
        compiled(np.random.default_rng(2), mine)
        plain(np.random.default_rng(2), theirs)
        np.testing.assert_array_equal(mine, theirs)
        return
    with pytest.raises(ValueError, match="size must match out.shape when used together"):
        plain(np.random.default_rng(2), np.zeros((3, 4)))
    with pytest.raises(ValueError, match="size must match out.shape when used together"):
        compiled(np.random.default_rng(2), np.zeros((3, 4)))


def test_a_read_only_out_is_numpys_error():
    out = np.zeros(3)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="must be contiguous, writable"):
        np.random.default_rng(1).random(out=out)
    with pytest.raises(ValueError, match="must be contiguous, writable"):
        ruchey.njit(lambda rng, o: rng.random(out=o))(np.random.default_rng(1), out)


def test_out_that_is_not_an_array_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="out must be an array"):
        ruchey.njit(lambda rng: rng.random(out=1.0))(np.random.default_rng(1))


# ---------------------------------------------------------------- multivariate_normal

def covariance(r, n):
    a = r.normal(size=(n, n))
    return a @ a.T + n * np.eye(n) * r.uniform(0.01, 1.0)


def assert_close_stream(body, seed, *args):
    """body's draws NumPy's within rounding (the factor's last bits may
    differ from NumPy's), the state moved on exactly as NumPy's."""
    compiled, plain = compiled_and_plain(body)
    got = compiled(np.random.default_rng(seed), *args)
    expected = plain(np.random.default_rng(seed), *args)
    assert got[0].dtype == expected[0].dtype and got[0].shape == expected[0].shape
    np.testing.assert_allclose(got[0], expected[0], rtol=1e-9, atol=1e-9 * max(1.0, np.abs(expected[0]).max(initial=0)))
    assert got[1] == expected[1]


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
@pytest.mark.parametrize("case", range(8))
def test_multivariate_normal_is_numpys_within_rounding(case, method):
    r = np.random.default_rng(seed_of("multivariate_normal", case))
    n = int(r.integers(1, 7))
    mean, cov = r.uniform(-5, 5, n), covariance(r, n)
    size = [None, 0, 1, 25, (3, 4), (2, 0, 3), 100, (5,)][case]
    assert_close_stream(f"rng.multivariate_normal(a[0], a[1], a[2], method='{method}')", seed_of(case, method),
                        mean, cov, size)


@pytest.mark.parametrize("body", [
    "rng.multivariate_normal(mean=a[0], cov=a[1], size=7)", "rng.multivariate_normal(a[0], a[1], 7, 'raise', 1e-6)",
    "rng.multivariate_normal(a[0], a[1], 7, check_valid='ignore', tol=0.1, method='eigh')",
])
def test_multivariate_normal_keywords_are_numpys(body):
    r = np.random.default_rng(seed_of(body))
    assert_close_stream(body, seed_of("stream", body), r.normal(size=3), covariance(r, 3))


def test_multivariate_normal_of_ints_and_strided_arrays():
    cov = np.array([[4, 1, 0], [1, 3, 1], [0, 1, 2]])
    assert_close_stream("rng.multivariate_normal(a[0], a[1], 6)", 5, np.arange(6)[::2], cov)
    assert_close_stream("rng.multivariate_normal(a[0], a[1], 6)", 5, np.arange(3.0), np.asfortranarray(cov * 1.5))
    assert_close_stream("rng.multivariate_normal(a[0], a[1], 6)", 5, np.ones(3, np.float32), cov.astype(np.float32))


NOT_PSD = np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]])


@pytest.mark.parametrize("method", ["svd", "eigh"])
def test_a_covariance_not_positive_semidefinite_warns_as_numpy(method):
    body = f"rng.multivariate_normal(a[0], a[1], 5, method='{method}')"
    compiled, plain = compiled_and_plain(body)
    with pytest.warns(RuntimeWarning, match="covariance is not symmetric positive-semidefinite.") as theirs:
        expected = plain(np.random.default_rng(3), np.zeros(3), NOT_PSD)
    with pytest.warns(RuntimeWarning, match="covariance is not symmetric positive-semidefinite.") as mine:
        got = compiled(np.random.default_rng(3), np.zeros(3), NOT_PSD)
    assert len(mine) == len(theirs) == 1
    np.testing.assert_allclose(got[0], expected[0], rtol=1e-9, atol=1e-9)
    assert got[1] == expected[1]


def test_a_warning_made_an_error_by_a_filter_raises_it():
    compiled, _ = compiled_and_plain("rng.multivariate_normal(a[0], a[1])")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning, match="covariance is not symmetric positive-semidefinite."):
            compiled(np.random.default_rng(3), np.zeros(3), NOT_PSD)


@pytest.mark.parametrize("case", [
    ("rng.multivariate_normal(a[0], a[1], 4, check_valid='raise')", NOT_PSD),
    ("rng.multivariate_normal(a[0], a[1], 4, 'raise', method='eigh')", NOT_PSD),
    ("rng.multivariate_normal(a[0], a[1], 4, 'nope')", NOT_PSD),
    ("rng.multivariate_normal(a[0], a[1], 4, method='nope')", NOT_PSD),
    ("rng.multivariate_normal(a[0], a[1], 4)", np.ones((3, 2))),
    ("rng.multivariate_normal(a[0][:2], a[1], 4)", np.eye(3)),
    ("rng.multivariate_normal(a[0][:0], a[1][:0, :0], 4)", np.eye(3)),
], ids=lambda c: c if isinstance(c, str) else None)
def test_multivariate_normal_errors_are_numpys(case):
    assert_same_error(case[0], np.zeros(3), case[1])


def test_cholesky_of_a_matrix_not_positive_definite_is_numpys_linalg_error():
    compiled, plain = compiled_and_plain("rng.multivariate_normal(a[0], a[1], method='cholesky')")
    for f in (plain, compiled):
        with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
            f(np.random.default_rng(1), np.zeros(3), NOT_PSD)


@pytest.mark.parametrize("body, message", [
    ("rng.multivariate_normal(a[1], a[1])", "mean must be a 1-dimensional array of numbers"),
    ("rng.multivariate_normal(a[0], a[0])", "cov must be a 2-dimensional array of numbers"),
    ("rng.multivariate_normal(a[0], a[1], check_valid=a[2])", "check_valid must be a constant string"),
])
def test_bad_multivariate_normal_arguments_are_typing_errors(body, message):
    compiled, _ = compiled_and_plain(body)
    with pytest.raises(ruchey.TypingError, match=message):
        compiled(np.random.default_rng(1), np.zeros(3), np.eye(3), "warn")


@pytest.mark.parametrize("body", ["rng.dirichlet(a[0], 3)", "rng.multinomial(12, a[0], 2)",
                                  "rng.multivariate_normal(a[0], ((1.0, 0.0, 0.0), (0.0, 2.0, 0.0), (0, 0, 1.0)), 2)"])
@pytest.mark.parametrize("seq", [tuple, list])
def test_vectors_of_tuples_and_lists_are_numpys_stream(body, seq):
    # a sequence of numbers is read as the array NumPy makes of it
    assert_same_stream(body, seed_of(body), seq((0.25, 0.5, 0.25)))
