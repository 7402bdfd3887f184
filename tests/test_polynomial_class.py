"""numpy.polynomial.Polynomial in compiled code: built of coefficients (and
a domain and window), its .coef/.domain/.window, passed in, returned and
called, each checked against the function's own Python original."""
import numpy as np
import pytest
from numpy.polynomial import polynomial as poly

import ruchey
from conftest import make_rng

DTYPES = [np.int64, np.int32, np.float64, np.float32, np.complex128]


def same_polynomial(got, want):
    assert type(got) is type(want)
    for name in ("coef", "domain", "window"):
        g, w = getattr(got, name), getattr(want, name)
        assert g.dtype == w.dtype, name
        np.testing.assert_array_equal(g, w)


def coefficients(rng, dtype, n):
    c = rng.integers(-5, 6, n) + (1j * rng.integers(-5, 6, n) if np.dtype(dtype).kind == "c" else 0)
    return c.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_polynomial_of_coefficients_matches_numpy(dtype):
    @ruchey.njit
    def make(c):
        return poly.Polynomial(c)

    rng = make_rng(1)
    for n in (1, 2, 5):
        c = coefficients(rng, dtype, n)
        same_polynomial(make(c), make.py_func(c))


@pytest.mark.parametrize("dtype", DTYPES)
def test_polynomial_with_domain_and_window(dtype):
    @ruchey.njit
    def make(c, d, w):
        return np.polynomial.Polynomial(c, d, w)

    rng = make_rng(2)
    for _ in range(4):
        c = coefficients(rng, dtype, int(rng.integers(1, 6)))
        d, w = np.sort(rng.integers(-4, 5, 2)).astype(dtype), rng.random(2)
        same_polynomial(make(c, d, w), make.py_func(c, d, w))


def test_polynomial_of_lists_tuples_and_numbers():
    @ruchey.njit
    def make(c):
        return poly.Polynomial(c)

    for c in ([1, 2, 3], (1.5, -2.0), 3, 2.5):
        same_polynomial(make(c), make.py_func(c))


def test_polynomial_members_of_an_argument():
    @ruchey.njit
    def members(p):
        return p.coef * 2, p.domain, p.window

    rng = make_rng(3)
    for dtype in (np.float64, np.complex128):
        p = poly.Polynomial(coefficients(rng, dtype, 4), rng.random(2), rng.random(2))
        for got, want in zip(members(p), members.py_func(p)):
            np.testing.assert_array_equal(got, want)


def test_len_of_a_polynomial_is_its_coefficients_count():
    @ruchey.njit
    def count(p):
        return len(p), len((1, 2, 3)), len(p.coef)

    for n in (1, 3, 6):
        p = poly.Polynomial(np.arange(n, dtype=np.float64))
        assert count(p) == count.py_func(p)


@pytest.mark.parametrize("source", ["p + p", "p[0]", "-p", "p == p"])
def test_polynomial_operators_are_a_typing_error_not_the_tuples(source):
    f = ruchey.njit(eval(f"lambda p: {source}"))
    with pytest.raises(ruchey.TypingError):
        f(poly.Polynomial([1.0, 2.0]))


def test_polynomial_argument_returned():
    @ruchey.njit
    def same(p):
        return p

    p = poly.Polynomial([1.0, 2.0, 3.0], [0, 2], [1, 5])
    same_polynomial(same(p), p)


def test_calling_a_polynomial_maps_its_domain_to_its_window():
    @ruchey.njit
    def call(p, x):
        return p(x)

    @ruchey.njit
    def build_and_call(c, d, w, x):
        return poly.Polynomial(c, d, w)(x)

    rng = make_rng(4)
    for _ in range(5):
        c, d, w = rng.normal(size=int(rng.integers(1, 6))), np.sort(rng.normal(size=2)), rng.normal(size=2)
        x = rng.normal(size=int(rng.integers(0, 7)))
        p = poly.Polynomial(c, d, w)
        np.testing.assert_allclose(call(p, x), call.py_func(p, x), rtol=1e-12)
        np.testing.assert_allclose(call(p, x[:1].sum()), call.py_func(p, x[:1].sum()), rtol=1e-12)
        np.testing.assert_allclose(build_and_call(c, d, w, x), build_and_call.py_func(c, d, w, x), rtol=1e-12)


def test_polynomial_domain_and_window_need_two_numbers():
    @ruchey.njit
    def make(c, d, w):
        return poly.Polynomial(c, d, w)

    two, three = np.array([1, 2]), np.array([1, 2, 3])
    for d, w, what in ((three, two, "Domain"), (two, three, "Window")):
        with pytest.raises(ValueError, match=f"{what} has wrong number of elements."):
            make(two, d, w)
        with pytest.raises(ValueError, match=f"{what} has wrong number of elements."):
            make.py_func(two, d, w)


def test_polynomial_bad_coefficients():
    @ruchey.njit
    def make(c):
        return poly.Polynomial(c)

    with pytest.raises(ruchey.TypingError, match="Coefficient array is not 1-d"):
        make(np.arange(4.0).reshape(2, 2))
    with pytest.raises(ValueError, match="Coefficient array is empty"):
        make(np.zeros(0))
    with pytest.raises(ValueError, match="Coefficient array is empty"):
        make.py_func(np.zeros(0))


def test_polynomial_argument_first_in_a_fresh_process():
    """import ruchey leaves numpy.polynomial unimported (where NumPy does); a Polynomial passed
    before compiled code names the class is taken all the same."""
    import subprocess
    import sys
    code = ("import sys, numpy\n"
            "by_numpy = 'numpy.polynomial' in sys.modules\n"  # (NumPy 1 imports it itself)
            "import ruchey\n"
            "assert by_numpy or 'numpy.polynomial' not in sys.modules\n"
            "from numpy.polynomial import Polynomial\n"
            "f = ruchey.njit(lambda p: p.coef.sum() + p.window[1])\n"
            "print(f(Polynomial([1.0, 2.0])))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert float(out) == 4.0
