"""cmath's functions of complex64 (and float32) values are complex64's, as
Numba types them: Numba computes them from float32 parts (float32's C
functions, float64 where a formula brings in a float literal), so code
written for Numba (ruchey registered as numba) gets its results to the
bit; tanh, acosh and log10 carry float64 on to a complex128, as Numba's.
phase and polar of a complex64 are float32s, rect of two float32s a
complex64. ruchey's own functions keep cmath's values and errors, rounded
to the result's type."""
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

FUNCTIONS = ("sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
             "asinh", "acosh", "atanh")
WIDE = ("tanh", "acosh", "log10")  # Numba's formulas end in float64
OF_REALS = ("sqrt", "exp", "log", "sin", "cos", "tan", "asin", "acos", "atan", "asinh", "atanh")  # Numba's of reals too


def values(seed, count=800):
    """Generated complex64 numbers, small and huge parts (past Numba's
    thresholds), and the special values."""
    rng = make_rng(seed)
    re = numpy.concatenate([rng.uniform(-3, 3, count), numpy.exp(rng.uniform(-40, 88, count)) * rng.choice([-1, 1], count),
                            [0, -0.0, 1, -1, math.inf, -math.inf, math.nan, 0, 2, 3e38, 1, 1e-30]])
    im = numpy.concatenate([rng.uniform(-3, 3, count), numpy.exp(rng.uniform(-40, 88, count)) * rng.choice([-1, 1], count),
                            [0, 0, math.inf, 0, 0, 1, 0, math.nan, -0.0, 3e38, 1e-30, 0]])
    z = numpy.empty(re.size, numpy.complex64)
    z.real, z.imag = re, im
    return z


def same(got, want):
    got, want = numpy.asarray(got), numpy.asarray(want)
    if got.dtype != want.dtype:
        return False
    parts = lambda a: numpy.stack([a.real, a.imag]) if a.dtype.kind == "c" else a
    g, w = parts(got), parts(want)
    return bool(numpy.all((g == w) | (numpy.isnan(g) & numpy.isnan(w))))


def cmath_of(name):
    return ruchey.njit(eval(f"lambda z: cmath.{name}(z)"))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_types_of_complex64_and_float32_arguments_are_numbas(name):
    want = "complex128" if name in WIDE else "complex64"
    for arg in (numpy.complex64(0.5 + 0.25j), numpy.float32(0.5)):
        f = cmath_of(name)
        f(arg)
        assert str(f.nopython_signatures[0].return_type) == want, (name, arg)
    f = cmath_of(name)
    f(numpy.int64(3))
    assert str(f.nopython_signatures[0].return_type) == "complex128"


def test_phase_polar_rect_and_log_with_a_base_keep_float32():
    z = numpy.complex64(0.3 + 0.7j)
    for f, args, want in [(ruchey.njit(lambda z: cmath.phase(z)), (z,), "float32"),
                          (ruchey.njit(lambda z: cmath.polar(z)[0]), (z,), "float32"),
                          (ruchey.njit(lambda z: cmath.polar(z)[1]), (z,), "float32"),
                          (ruchey.njit(lambda r, p: cmath.rect(r, p)), (numpy.float32(2), numpy.float32(0.5)), "complex64"),
                          (ruchey.njit(lambda r, p: cmath.rect(r, p)), (numpy.float32(2), 0.5), "complex128"),
                          (ruchey.njit(lambda z, b: cmath.log(z, b)), (z, z), "complex64"),
                          (ruchey.njit(lambda z, b: cmath.log(z, b)), (z, 2 + 0j), "complex128"),
                          (ruchey.njit(lambda z: cmath.phase(z)), (0.5 + 1j,), "float64")]:
        f(*args)
        assert str(f.nopython_signatures[0].return_type) == want, (f.py_func, args)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_ruchey_functions_give_cmaths_values_rounded_and_its_errors(name):
    f = cmath_of(name)
    for z in values(3200, 150):
        try:
            want = f.py_func(z)
        except (ValueError, OverflowError) as exc:
            with pytest.raises(type(exc)):
                f(z)
            continue
        got = f(z)
        with numpy.errstate(over="ignore"):
            rounded = complex(numpy.complex64(want)) if name not in WIDE else want
        assert cmath.isclose(got, rounded, rel_tol=2e-7 if name not in WIDE else 1e-14) or same(got, rounded), \
            (name, z, got, want)


def test_ruchey_phase_polar_and_rect_of_float32_round_cmaths():
    phase, polar = ruchey.njit(lambda z: cmath.phase(z)), ruchey.njit(lambda z: cmath.polar(z))
    rect = ruchey.njit(lambda r, p: cmath.rect(r, p))
    rng = make_rng(3201)
    for z in values(3201, 200):
        assert phase(z) == numpy.float32(phase.py_func(z)) or math.isnan(phase(z))
        r, p = polar(z)
        want = polar.py_func(z) if numpy.isfinite(z) else (abs(complex(z)), phase.py_func(z))
        with numpy.errstate(over="ignore"):
            assert (r, p) == tuple(numpy.float32(want)) or numpy.isnan(want).any()
    for r, p in zip(*rng.uniform(-10, 10, (2, 300)).astype(numpy.float32)):
        assert rect(r, p) == complex(numpy.complex64(rect.py_func(r, p)))
    with pytest.raises(ValueError):
        rect(numpy.float32(1), numpy.float32(math.inf))


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
    f = numba.njit(eval("lambda a: [cmath.%%s(a[i]) for i in range(a.size)]" %% name))
    out[name] = np.array(f(z))
    if name in %r:
        out[name + " of float32"] = np.array(f(z.real.copy()))
out["phase"] = numba.njit(lambda a: np.array([cmath.phase(a[i]) for i in range(a.size)]))(z)
out["polar"] = numba.njit(lambda a: [cmath.polar(a[i]) for i in range(a.size)])(z)
out["polar"] = np.array(out["polar"], dtype=np.dtype(type(out["polar"][0][0])))
out["log base"] = numba.njit(lambda a: np.array([cmath.log(a[i], a[-i]) for i in range(a.size)]))(z)
out["rect"] = numba.njit(lambda a: np.array([cmath.rect(a[i].real, a[i].imag) for i in range(a.size)]))(z)
sys.stdout.buffer.write(pickle.dumps(out))
""" % (FUNCTIONS, OF_REALS)


@pytest.mark.skipif(not numba_itself(), reason="needs Numba itself")
def test_cmath_of_complex64_equals_numbas_own_to_the_bit():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    z = pickle.dumps(values(3202)).hex()
    results = []
    for mode in ("numba", "ruchey"):
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(COMPARE), mode, z], capture_output=True,
                              timeout=900, env=env)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        results.append(pickle.loads(done.stdout))
    want, got = results
    for name in want:
        assert same(got[name], want[name]), (name, got[name].dtype, want[name].dtype)
