"""Products and norms of vectors by BLAS's vector routines, as NumPy and
Numba compute them: numpy.dot, inner, vdot and @ of two vectors by BLAS's
dot (gemv sums the same products in another order, a last bit apart in one
result in four: enough to flip an arccos of an almost-1 into 0 and reorder
a dual mesh's nodes), and, in code written for Numba, numpy.linalg.norm of
a vector by BLAS's nrm2, which scales as it sums (NumPy's is the square
root of a dot product, Numba's is nrm2's).

The exact checks compare with SciPy's BLAS routine itself (the one ruchey
and Numba call; NumPy's bundled BLAS may be another build), the rest with
the Python original."""

import numpy as np
import pytest
from scipy.linalg import blas

import ruchey
from conftest import AS_NUMBA, make_rng, run_python_file

shim_only = pytest.mark.skipif(AS_NUMBA, reason="numba itself stands in for ruchey")

KINDS = [np.float32, np.float64, np.complex64, np.complex128]
DOTU = {np.float32: blas.sdot, np.float64: blas.ddot, np.complex64: blas.cdotu, np.complex128: blas.zdotu}


@ruchey.njit
def np_dot(a, b):
    return np.dot(a, b)


@ruchey.njit
def matmul_operator(a, b):
    return a @ b


@ruchey.njit
def np_inner(a, b):
    return np.inner(a, b)


@ruchey.njit
def np_vdot(a, b):
    return np.vdot(a, b)


@ruchey.njit
def unit_dots(x, y):
    """uxarray's dual-mesh ordering: the cosine of the angle between two
    3-vectors, a row of x and one of y, by dot products alone."""
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = np.dot(x[i], y[i]) / np.sqrt(np.dot(x[i], x[i]) * np.dot(y[i], y[i]))
    return out


def vector(rng, n, kind, step=1):
    v = rng.standard_normal(n * step) * 10.0 ** rng.integers(-3, 4, n * step)
    if np.dtype(kind).kind == "c":
        v = v + 1j * rng.standard_normal(n * step)
    return v.astype(kind)[::step]


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: np.dtype(k).name)
@pytest.mark.parametrize("n", [1, 2, 3, 7, 33, 1000])
@pytest.mark.parametrize("step", [1, 3])
def test_vector_products_are_blas_dot(kind, n, step):
    """Contiguous vectors bit for bit as SciPy's dot; strided ones (passed
    to BLAS with their stride, as NumPy's, where SciPy's wrapper copies
    them first and its BLAS sums in another order) within rounding."""
    rng = make_rng(n * 10 + step)
    a, b = vector(rng, n, kind, step), vector(rng, n, kind, step)
    expected = DOTU[kind](a, b)
    for fn in (np_dot, matmul_operator, np_inner):
        got = fn(a, b)
        assert got == expected or step > 1, (fn.__name__, got, expected)
        np.testing.assert_allclose(got, fn.py_func(a, b), rtol=1e-5 if kind in (np.float32, np.complex64) else 1e-12)
    got = np_vdot(a, b)
    assert got == DOTU[kind](np.conj(a), b) or step > 1
    np.testing.assert_allclose(got, np_vdot.py_func(a, b), rtol=1e-5 if kind in (np.float32, np.complex64) else 1e-12)


def test_reversed_and_broadcast_vectors_still_agree():
    """Strides BLAS's dot does not take (negative, zero) keep the general
    product: the result agrees with NumPy's within a dot product's rounding."""
    rng = make_rng(5)
    a, b = rng.standard_normal(50), rng.standard_normal(50)
    np.testing.assert_allclose(np_dot(a[::-1], b), np_dot.py_func(a[::-1], b), rtol=1e-12)
    zero = np.broadcast_to(np.float64(1.5), (50,))
    np.testing.assert_allclose(np_dot(zero, b), np_dot.py_func(zero, b), rtol=1e-12)
    assert np_dot(np.empty(0), np.empty(0)) == 0.0


def test_dot_products_of_rows_match_python_bit_for_bit():
    """Three-term dots of rows, where gemv's order differed from NumPy's."""
    rng = make_rng(7)
    x, y = rng.standard_normal((20000, 3)), rng.standard_normal((20000, 3))
    x[:, 2] *= 1e-3
    expected = np.array([blas.ddot(p, q) / np.sqrt(blas.ddot(p, p) * blas.ddot(q, q)) for p, q in zip(x, y)])
    np.testing.assert_array_equal(unit_dots(x, y), expected)
    np.testing.assert_allclose(unit_dots(x, y), unit_dots.py_func(x, y), rtol=1e-14)


@ruchey.njit
def vector_norm(v, two):
    return np.linalg.norm(v, 2) if two else np.linalg.norm(v)


@pytest.mark.parametrize("kind", KINDS + [np.int64])
def test_vector_norm_is_the_root_of_blas_dot_of_the_elements_in_a_row(kind):
    """ruchey's own norm of a vector (ord None or 2) is NumPy's formula: the
    square root of BLAS's dot of its elements, laid out in a row first
    (a strided or reversed vector copied, as NumPy's ravel does), a complex
    one's real and imaginary parts' dots added in their precision."""
    rng = make_rng(41)
    real = {np.complex64: np.float32, np.complex128: np.float64, np.int64: np.float64}.get(kind, kind)
    dot = blas.sdot if real == np.float32 else blas.ddot
    for n in (0, 1, 2, 7, 100, 3001):
        for step in (1, 2, -1, -3):
            w = rng.standard_normal(n * abs(step)) * 10.0 ** rng.integers(-3, 4, n * abs(step))
            if np.dtype(kind).kind == "c":
                w = w + 1j * rng.standard_normal(n * abs(step))
            v = w.astype(kind)[::step]
            row = np.ascontiguousarray(v).astype(np.result_type(kind, np.float32))
            parts, inc = row.view(real), 2 if np.dtype(kind).kind == "c" else 1
            squares = [real(dot(parts, parts, n=n, offx=k, incx=inc, offy=k, incy=inc)) if n else real(0)
                       for k in range(inc)]
            expected = np.sqrt(squares[0] + squares[1] if len(squares) == 2 else squares[0])
            for two in (False, True):
                got = vector_norm(v, two)
                assert got == expected, (kind, n, step, two, got, expected)
                assert np.isclose(got, vector_norm.py_func(v, two), rtol=1e-5 if real == np.float32 else 1e-13, atol=0)


def test_mismatched_vectors_raise():
    with pytest.raises(ValueError, match="aligned"):
        np_dot(np.ones(3), np.ones(4))


@shim_only
def test_vector_norm_in_numba_code_is_blas_nrm2(tmp_path):
    """Numba's norm of a vector (ord None or 2) is BLAS's nrm2: functions
    decorated after install_as_numba() give nrm2's result bit for bit (and
    NumPy's within an ulp or two); ruchey's own keep NumPy's formula."""
    done = run_python_file("""
        import numpy as np
        from scipy.linalg import blas
        import ruchey

        @ruchey.njit
        def own(v):
            return np.linalg.norm(v)

        numba = ruchey.install_as_numba()

        @numba.njit
        def norm(v):
            return np.linalg.norm(v)

        @numba.njit
        def norm2(v):
            return np.linalg.norm(v, 2)

        @numba.njit
        def norm1(v):
            return np.linalg.norm(v, 1)

        @numba.njit
        def row_norms(x):
            out = np.empty(x.shape[0])
            for i in range(x.shape[0]):
                out[i] = np.linalg.norm(x[i])
            return out

        nrm2 = {np.float32: blas.snrm2, np.float64: blas.dnrm2, np.complex64: blas.scnrm2,
                np.complex128: blas.dznrm2}
        rng = np.random.default_rng(3)
        differs = 0
        for kind, routine in nrm2.items():
            for n in (0, 1, 3, 17, 500):
                for step in (1, 2):
                    v = rng.standard_normal(n * step) * 10.0 ** rng.integers(-5, 6, n * step)
                    if np.dtype(kind).kind == "c":
                        v = v + 1j * rng.standard_normal(n * step)
                    w = v.astype(kind)
                    v = w[::step]
                    # nrm2 of the elements in place, with their stride (as Numba's)
                    expected = routine(w, n=n, offx=0, incx=step) if n else 0.0
                    tol = 1e-6 if kind in (np.float32, np.complex64) else 1e-14
                    for fn in (norm, norm2):
                        got = fn(v)
                        assert got == expected, (kind, n, step, got, expected)
                        assert np.isclose(got, fn.py_func(v), rtol=tol, atol=0)
                    assert np.isclose(norm1(v), norm1.py_func(v), rtol=tol)
                    assert np.isclose(own(v), own.py_func(v), rtol=tol, atol=0)
                    differs += norm(v) != norm.py_func(v)
        x = rng.standard_normal((5000, 3))
        rows = row_norms(x)
        assert np.array_equal(rows, [blas.dnrm2(r) for r in x])
        assert np.allclose(rows, row_norms.py_func(x), rtol=1e-15)
        print("ok", differs > 0, (rows != row_norms.py_func(x)).sum() > 0)
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok True True")
