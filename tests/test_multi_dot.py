"""numpy.linalg.multi_dot against NumPy's on generated chains: two to seven
arrays of random dimensions (zero among them), every dtype and mixes of
them, a vector at either end, C, Fortran, strided and reversed layouts;
tuples, lists written out, and lists built in compiled code; and bad
chains (too short, a vector inside, misaligned neighbours, not arrays).

Both multiply through BLAS in the cheapest order, so values agree to a
few ulps of the dtype times the chain's size."""
import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, make_rng, seed_of
from test_linalg_decomp import LAYOUTS, ids, laid_out

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba has no numpy.linalg.multi_dot")

DTYPES = [np.float64, np.float32, np.complex128, np.complex64, np.int64, np.int32, np.uint8, np.bool_]


def random_array(rng, dtype, shape):
    if np.dtype(dtype).kind == "b":
        return rng.random(shape) < 0.5
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 5, shape).astype(dtype)
    values = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        values = values + 1j * rng.standard_normal(shape)
    return values.astype(dtype)


def chain(rng, count, dtypes, first_vector=False, last_vector=False, zero=False):
    """count arrays whose neighbours agree, of the dtypes in turn"""
    dims = [int(d) for d in rng.integers(1, 9, count + 1)]
    if zero:
        dims[int(rng.integers(int(first_vector), count + 1 - int(last_vector)))] = 0  # not a vector's row
    arrays = [random_array(rng, dtypes[i % len(dtypes)], (dims[i], dims[i + 1])) for i in range(count)]
    if first_vector:
        arrays[0] = arrays[0][0]
    if last_vector:
        arrays[-1] = arrays[-1][:, 0]
    return arrays


@ruchey.njit
def multi_dot2(a, b):
    return np.linalg.multi_dot((a, b))


@ruchey.njit
def multi_dot3(a, b, c):
    return np.linalg.multi_dot([a, b, c])


@ruchey.njit
def multi_dot4(a, b, c, d):
    return np.linalg.multi_dot((a, b, c, d))


@ruchey.njit
def multi_dot7(a, b, c, d, e, f, g):
    return np.linalg.multi_dot([a, b, c, d, e, f, g])


CALLERS = {2: multi_dot2, 3: multi_dot3, 4: multi_dot4, 7: multi_dot7}


def tolerance(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


def check(arrays):
    expected = np.linalg.multi_dot(arrays)
    got = CALLERS[len(arrays)](*arrays)
    if np.ndim(expected):
        assert isinstance(got, np.ndarray) and got.shape == expected.shape and got.dtype == expected.dtype
    else:  # a number, boxed as compiled numbers are (numpy.dot's too)
        assert isinstance(got, (bool, int, float, complex, np.generic))
    rtol = tolerance(np.asarray(expected).dtype)
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * 10)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("count", sorted(CALLERS))
@pytest.mark.parametrize("ends", ["matrices", "row first", "column last", "both vectors"])
def test_multi_dot_matches_numpy(dtype, count, ends):
    rng = make_rng(seed_of("multi_dot", ids(dtype), count, ends))
    for _ in range(4):
        check(chain(rng, count, [dtype], first_vector=ends in ("row first", "both vectors"),
                    last_vector=ends in ("column last", "both vectors")))


@pytest.mark.parametrize("dtypes", [(np.float32, np.float64), (np.int32, np.float32), (np.int64, np.complex64),
                                    (np.bool_, np.uint8, np.int32), (np.float32, np.complex64)],
                         ids=lambda ds: "-".join(ids(d) for d in ds))
def test_multi_dot_of_mixed_dtypes_promotes_as_numpy(dtypes):
    rng = make_rng(seed_of("mixed", [ids(d) for d in dtypes]))
    for count in sorted(CALLERS):
        check(chain(rng, count, list(dtypes)))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.int64], ids=ids)
def test_multi_dot_of_any_layout_matches_numpy(layout, dtype):
    rng = make_rng(seed_of("layout", layout, ids(dtype)))
    for count in sorted(CALLERS):
        for ends in [(False, False), (True, True)]:
            arrays = chain(rng, count, [dtype], *ends)
            check([laid_out(a, layout) for a in arrays])


@pytest.mark.parametrize("count", sorted(CALLERS))
def test_multi_dot_of_empty_dimensions_matches_numpy(count):
    rng = make_rng(seed_of("empty", count))
    for _ in range(6):
        for ends in [(False, False), (True, False), (False, True)]:
            check(chain(rng, count, [np.float64], *ends, zero=True))


def test_multi_dot_orders_the_chain_cheapest_first():
    # (10 x 1000)(1000 x 5)(5 x 1000)(1000 x 10): NumPy's order multiplies the
    # big pairs first; both orders agree to the dtype's precision
    rng = make_rng(seed_of("order"))
    arrays = [rng.standard_normal(s) for s in [(10, 1000), (1000, 5), (5, 1000), (1000, 10)]]
    check(arrays)
    ints = [rng.integers(-3, 4, a.shape) for a in arrays]
    assert np.array_equal(multi_dot4(*ints), np.linalg.multi_dot(ints))


@ruchey.njit
def power_chain(a, n):
    chain = [a]
    for _ in range(n - 1):
        chain.append(a)
    return np.linalg.multi_dot(chain)


@pytest.mark.parametrize("n", [2, 3, 6])
def test_multi_dot_of_a_list_built_in_compiled_code(n):
    a = make_rng(seed_of("list", n)).standard_normal((5, 5)) / 3
    np.testing.assert_allclose(power_chain(a, n), np.linalg.multi_dot([a] * n), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(power_chain(a.T, n), np.linalg.multi_dot([a.T] * n), rtol=1e-10, atol=1e-12)


def test_multi_dot_of_a_list_of_two_vectors_is_their_dot():
    v = make_rng(seed_of("vectors")).standard_normal(7)
    assert power_chain(v, 2) == pytest.approx(np.linalg.multi_dot([v, v]), rel=1e-12)


def test_multi_dot_of_a_list_too_short_or_of_three_vectors_raises_numpys_errors():
    with pytest.raises(ValueError, match="Expecting at least two arrays"):
        power_chain(np.eye(3), 1)
    with pytest.raises(np.linalg.LinAlgError, match="1-dimensional array given. Array must be two-dimensional"):
        power_chain(np.ones(3), 3)


@pytest.mark.parametrize("shapes", [[(2, 3), (4, 5)], [(2, 3), (3, 4), (5, 6)], [(3,), (3, 4), (5,)],
                                    [(4,), (3,)], [(2, 3), (3, 4), (4, 5), (6, 2)]], ids=str)
def test_multi_dot_of_misaligned_arrays_raises_numpys_value_error(shapes):
    arrays = [np.ones(s) for s in shapes]
    with pytest.raises(ValueError, match="not aligned"):
        np.linalg.multi_dot(arrays)
    with pytest.raises(ValueError, match=r"shapes \(.*\) and \(.*\) not aligned: \d+ \(dim \d\) != \d+ \(dim 0\)"):
        CALLERS[len(arrays)](*arrays)


@pytest.mark.parametrize("src, message", [
    ("np.linalg.multi_dot((a,))", "Expecting at least two arrays"),
    ("np.linalg.multi_dot((a, v, a))", "1-dimensional array given. Array must be two-dimensional"),
    ("np.linalg.multi_dot((a, a.reshape(2, 2, 1)))", "3-dimensional array given"),
    ("np.linalg.multi_dot((a, 2.0))", "multiplies arrays of numbers"),
    ("np.linalg.multi_dot(a)", "needs a tuple or list of arrays"),
    ("np.linalg.multi_dot((a, a), out=a)", "out"),
])
def test_multi_dot_of_bad_arguments_is_a_typing_error(src, message):
    from arraygen import define
    f = ruchey.njit(define(f"def f(a, v):\n    return {src}\n", env={"np": np}))
    with pytest.raises(ruchey.TypingError, match=message):
        f(np.eye(2), np.ones(2))
