"""NumPy's functions of complex64 in code written for Numba (ruchey registered
as numba): Numba computes them from float32 parts (cosf, expf, hypotf and
float32 products), in float64 only where its formula mixes in a float
literal; code written for Numba gives Numba's bits, not complex128's rounded.
ruchey's own functions keep NumPy's values."""
import importlib.machinery
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

UFUNCS = ("sqrt", "exp", "log", "log10", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
          "arcsinh", "arccosh", "arctanh", "exp2", "log2", "log1p", "expm1", "reciprocal", "sign", "rint")


def for_numba(f):
    ruchey._core._numba_semantics(True)
    try:
        return ruchey.njit(f)
    finally:
        ruchey._core._numba_semantics(False)


def values(seed, count=3000):
    """Generated complex64 numbers: small parts, parts past Numba's
    thresholds, and the special values."""
    rng = make_rng(seed)
    big = lambda: numpy.exp(rng.uniform(-20, 60, count)) * rng.choice([-1, 1], count)
    re = numpy.concatenate([rng.uniform(-3, 3, count), big(), [0, -0.0, 1, -1, numpy.inf, -numpy.inf, numpy.nan, 1, 1]])
    im = numpy.concatenate([rng.uniform(-3, 3, count), big(), [0, 0, numpy.inf, 0, 0, 1, 0, 1e-30, -0.0]])
    z = numpy.empty(re.size, numpy.complex64)
    z.real, z.imag = re, im
    return z


def same(got, want):
    parts = lambda a: numpy.stack([a.real, a.imag])
    g, w = parts(numpy.asarray(got)), parts(numpy.asarray(want))
    return bool(numpy.all((g == w) | (numpy.isnan(g) & numpy.isnan(w))))


@pytest.mark.parametrize("name", UFUNCS)
def test_complex64_functions_stay_complex64_and_near_numpys(name):
    f = for_numba(eval(f"lambda a: numpy.{name}(a)"))
    z = values(2300, 1000)[:1000]  # (small parts: no overflow)
    got = f(z)
    assert got.dtype == numpy.complex64
    with numpy.errstate(all="ignore"):
        want = f.py_func(z)
    numpy.testing.assert_allclose(got, want, rtol=5e-6, atol=1e-6)


def test_complex64_reciprocal_is_float32_smiths_division():
    f = for_numba(lambda a: numpy.reciprocal(a))
    z = values(2301, 2000)[:2000]
    got = f(z)
    one, zero = numpy.float32(1), numpy.float32(0)
    for i, w in enumerate(z):
        x, y = w.real, w.imag  # numpy.float32 scalars: each step rounded to float32
        if abs(y) <= abs(x):
            r = y / x
            d = one / (x + y * r)
            want = (d, (zero - r) * d)
        else:
            r = x / y
            d = one / (x * r + y)
            want = (r * d, zero - d)
        assert (got[i].real, got[i].imag) == want, w


def test_complex64_scalars_take_the_same_formulas():
    f = for_numba(lambda a: numpy.exp(a[0]) + numpy.tan(a[1]))
    g = for_numba(lambda a: numpy.exp(a)[0] + numpy.tan(a)[1])
    rng = make_rng(2302)
    for _ in range(200):
        z = (rng.uniform(-3, 3, 2) + 1j * rng.uniform(-3, 3, 2)).astype(numpy.complex64)
        assert same(f(z), g(z)), z


def test_ruchey_functions_of_complex64_keep_numpys_values():
    f = ruchey.njit(lambda a: (numpy.exp(a), numpy.sin(a), numpy.log10(a)))
    z = values(2303, 1000)[:1000]
    for got, want in zip(f(z), f.py_func(z)):
        assert got.dtype == want.dtype == numpy.complex64
        numpy.testing.assert_allclose(got, want, rtol=2e-7)


def numba_itself():
    return importlib.machinery.PathFinder.find_spec("numba") is not None


COMPARE = """
import pickle, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
if sys.argv[1] == "ruchey":
    import ruchey
    ruchey.install_as_numba()
import numba
z = pickle.loads(bytes.fromhex(sys.argv[2]))
out = {}
for name in %r:
    out[name] = numba.njit(eval("lambda a: np.%%s(a)" %% name))(z)
sys.stdout.buffer.write(pickle.dumps(out))
""" % (UFUNCS,)


@pytest.mark.skipif(not numba_itself(), reason="needs Numba itself")
def test_complex64_functions_equal_numbas_own_to_the_bit():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    z = pickle.dumps(values(2304)).hex()
    results = []
    for mode in ("numba", "ruchey"):
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(COMPARE), mode, z], capture_output=True,
                              timeout=600, env=env)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        results.append(pickle.loads(done.stdout))
    want, got = results
    for name in want:
        assert got[name].dtype == want[name].dtype == numpy.complex64, name
        assert same(got[name], want[name]), name
