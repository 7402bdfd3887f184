"""cmath's exp, trigonometric, hyperbolic and inverse functions in code written for
Numba (ruchey registered as numba): Numba's own formulas (CPython's and
NumPy's algorithms written out from real functions), whose results are a
last bit from the C library's complex functions in about one case in two;
NumPy's ufuncs of complex128 take the same formulas, or NumPy's own written
out as Numba writes them (sinh, cosh, tanh, arccosh, log10, log2, expm1,
reciprocal).
ruchey's own functions keep cmath's values and errors."""
import cmath
import importlib.machinery
import math
import os
import pickle
import subprocess
import sys
import textwrap

import numpy
import pytest
import ruchey

from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="compiles ruchey's functions in numba mode")

FUNCTIONS = ("exp", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh")
UFUNCS = ("exp", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arcsinh", "arctanh", "sinh", "cosh", "tanh", "arccosh",
          "log10", "log2", "expm1", "reciprocal")


def for_numba(f):
    ruchey._core._numba_semantics(True)
    try:
        return ruchey.njit(f)
    finally:
        ruchey._core._numba_semantics(False)


def values(seed, count=1500):
    """Generated complex numbers, small and huge parts (past Numba's
    thresholds), and the special values."""
    rng = make_rng(seed)
    re = numpy.concatenate([rng.uniform(-3, 3, count), numpy.exp(rng.uniform(-40, 100, count)) * rng.choice([-1, 1], count),
                            [0, -0.0, 1, -1, math.inf, -math.inf, math.nan, 0, 2, 1e300, 1, 1e-300]])
    im = numpy.concatenate([rng.uniform(-3, 3, count), numpy.exp(rng.uniform(-40, 100, count)) * rng.choice([-1, 1], count),
                            [0, 0, math.inf, 0, 0, 1, 0, math.nan, -0.0, 1e300, 1e-30, 0]])
    z = numpy.empty(re.size, complex)  # (re + 1j * im would make an infinite im's real part NaN)
    z.real, z.imag = re, im
    return z


def same(got, want):
    got, want = numpy.asarray(got), numpy.asarray(want)
    parts = lambda a: numpy.stack([a.real, a.imag])
    g, w = parts(got), parts(want)
    return bool(numpy.all((g == w) | (numpy.isnan(g) & numpy.isnan(w))))


def tanh_by_numbas_formula(z):
    """CPython's c_tanh for finite parts, as Numba writes it."""
    x, y = z.real, z.imag
    tx, ty, cx = math.tanh(x), math.tan(y), 1.0 / math.cosh(x)
    txty = tx * ty
    denom = 1.0 + txty * txty
    return complex(tx * (1.0 + ty * ty) / denom, ((ty / denom) * cx) * cx)


def test_tanh_and_tan_are_numbas_formula():
    tanh = for_numba(lambda z: cmath.tanh(z))
    tan = for_numba(lambda z: cmath.tan(z))
    rng = make_rng(2200)
    for z in rng.uniform(-3, 3, 2000) + 1j * rng.uniform(-3, 3, 2000):
        z = complex(z)
        assert same(tanh(z), tanh_by_numbas_formula(z)), z
        r = tanh_by_numbas_formula(complex(-z.imag, z.real))
        assert same(tan(z), complex(r.imag, -r.real)), z


@pytest.mark.parametrize("name", FUNCTIONS)
def test_numba_formulas_stay_within_ulps_of_cmath(name):
    f = for_numba(eval(f"lambda z: cmath.{name}(z)"))
    rng = make_rng(2201)
    for z in rng.uniform(-3, 3, 1000) + 1j * rng.uniform(-3, 3, 1000):
        z = complex(z)
        try:
            want = getattr(cmath, name)(z)
        except (ValueError, OverflowError):
            continue
        got = f(z)
        assert cmath.isclose(got, want, rel_tol=1e-13, abs_tol=1e-300), (name, z, got, want)


def test_exp_of_infinite_parts_is_numbas():
    """Numba's exp of -inf with an infinite or NaN imaginary part is 0j, its
    +inf's an infinite real part beside NaN, a finite real part beside an
    infinite imaginary one NaNs (cmath raises there): not the C library's
    signed zeros."""
    f = for_numba(lambda z: cmath.exp(z))
    inf, nan = math.inf, math.nan
    for im in (inf, -inf, nan):
        got = f(complex(-inf, im))
        assert got == 0 and math.copysign(1, got.real) == 1 and math.copysign(1, got.imag) == 1, (im, got)
        assert same(f(complex(inf, im)), complex(inf, nan)), im
    for re in make_rng(2205).uniform(-3, 3, 20):
        assert same(f(complex(re, inf)), complex(nan, nan)), re


def numpy_tanh_by_numbas_formula(z):
    """NumPy's funcs.inc.src tanh, as Numba writes it."""
    x, y = z.real, z.imag
    si, ci, shr, chr_ = math.sin(y), math.cos(y), math.sinh(x), math.cosh(x)
    rs, is_, rc, ic = ci * shr, si * chr_, ci * chr_, si * shr
    inv_d = 1.0 / (rc * rc + ic * ic)
    return complex((rs * rc + is_ * ic) * inv_d, (is_ * rc - rs * ic) * inv_d)


def test_numpy_tanh_and_expm1_of_complex_are_numbas_formulas():
    f = for_numba(lambda a: (numpy.tanh(a), numpy.expm1(a)))
    rng = make_rng(2204)
    a = rng.uniform(-3, 3, 2000) + 1j * rng.uniform(-3, 3, 2000)
    tanh, expm1 = f(a)
    for i, z in enumerate(a):
        z = complex(z)
        assert same(tanh[i], numpy_tanh_by_numbas_formula(z)), z
        e = math.exp(z.real)  # (exp, not expm1, of the real part, as Numba's)
        assert same(expm1[i], complex(e * math.cos(z.imag) + -1.0, e * math.sin(z.imag))), z


@pytest.mark.parametrize("name", ["tan", "asin", "acosh", "atanh"])
def test_ruchey_functions_keep_cmaths_values_and_errors(name):
    f = ruchey.njit(eval(f"lambda z: cmath.{name}(z)"))
    for z in values(2202, 300):
        z = complex(z)
        try:
            want = f.py_func(z)
        except (ValueError, OverflowError) as exc:
            with pytest.raises(type(exc)):
                f(z)
            continue
        assert cmath.isclose(f(z), want, rel_tol=1e-14) or same(f(z), want), (name, z)


def numba_itself():
    return importlib.machinery.PathFinder.find_spec("numba") is not None


COMPARE = """
import cmath, pickle, sys
import numpy as np
if sys.argv[1] == "ruchey":
    import ruchey
    ruchey.install_as_numba()
import numba
z = pickle.loads(bytes.fromhex(sys.argv[2]))
out = {}
for name in %r:
    f = numba.njit(eval("lambda a: np.array([cmath.%%s(a[i]) for i in range(a.size)])" %% name))
    out[name] = f(z)
for name in %r:
    out["np." + name] = numba.njit(eval("lambda a: np.%%s(a)" %% name))(z)
sys.stdout.buffer.write(pickle.dumps(out))
""" % (FUNCTIONS, UFUNCS)


@pytest.mark.skipif(not numba_itself(), reason="needs Numba itself")
def test_cmath_and_its_ufuncs_equal_numbas_own_to_the_bit():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    z = pickle.dumps(values(2203, 1000)).hex()
    results = []
    for mode in ("numba", "ruchey"):
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(COMPARE), mode, z], capture_output=True,
                              timeout=600, env=env)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        results.append(pickle.loads(done.stdout))
    want, got = results
    for name in want:
        assert same(got[name], want[name]), name
