"""Shared helpers for the ruchey test suite.

Every compiled behaviour is checked against the function's own Python original
(``f.py_func``) on generated inputs, see :func:`assert_same`.

Set ``RUCHEY_TEST_AS_NUMBA=1`` to run the suite with numba standing in for
ruchey (to validate the tests themselves).  Tests decorated with
:func:`numba_deviation` check spec behaviour where numba differs; in that mode
they are strict xfails.
"""
import enum
import gc
import math
import os
import re
import subprocess
import sys
import textwrap
import zlib

import numpy
import pytest

AS_NUMBA = os.environ.get("RUCHEY_TEST_AS_NUMBA") == "1"

# `make fuzz` runs the generated-program tests at this many times their usual
# count (a long run, not part of `make test`)
FUZZ_SCALE = int(os.environ.get("RUCHEY_FUZZ_SCALE", "1"))

# ruchey gives NumPy 2's results (dtypes, messages, rounding) with every
# NumPy; tests comparing with the installed NumPy where NumPy 1.x differs
# run on NumPy 2 only
NUMPY1 = numpy.lib.NumpyVersion(numpy.__version__) < "2.0.0"
numpy2_only = pytest.mark.skipif(NUMPY1, reason="NumPy 1.x differs here: ruchey gives NumPy 2's result")

if AS_NUMBA:
    os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")
    import numba
    import numba.core.errors

    numba.TypingError = numba.core.errors.TypingError
    sys.modules["ruchey"] = numba


def pytest_configure(config):
    if AS_NUMBA:  # numba's deprecation notices about reflected lists are noise here
        config.addinivalue_line(
            "filterwarnings", "ignore::numba.core.errors.NumbaPendingDeprecationWarning")
    for line in (
            "cpu_backend: tests behaviour only the CPU backend has; its kernels run there "
            "(RUCHEY_CUDA_BACKEND=cpu) even on a machine with a GPU",
            "no_gpu: describes a machine without a GPU; skipped where there is one",
            "order_dependent: its kernels' results depend on the order threads run in, so "
            "RUCHEY_CUDA_COMPARE does not compare them between the backends",
            "not_compared: the CPU backend does otherwise by design (it refuses the kernel, or "
            "prints its lines again), so RUCHEY_CUDA_COMPARE does not run it there too"):
        config.addinivalue_line("markers", line)


# The files that run longest (builds, subprocesses, big parametrizations),
# first. Under --dist loadfile a file is one worker's from start to end: one
# started last keeps the run waiting while the other workers idle. make test
# passes --no-loadscope-reorder, which keeps this order (pytest-xdist would
# otherwise order the files by their number of tests).
LONGEST_FIRST = ("test_install.py", "test_array_exprs.py", "test_interrupt.py", "test_indexing.py",
                 "test_math_poly_attrs.py", "test_sorting.py", "test_setops.py", "test_searching.py",
                 "test_arraymath.py", "test_sort_paths.py", "test_sets_more.py", "test_crashes.py", "test_dispatch.py")


# Collecting the suite builds a large heap (every test module, its generated
# inputs and the items), and each full collection of the cycle collector
# walked all of it again: half of collection's time (15 s of a worker's CPU,
# 7.5 s frozen), and the gc.collect() calls of tests walked it too. What is
# collected lives to the end of the run, so the collector is told to leave it.
def pytest_collectreport(report):
    gc.freeze()


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


# ---------------------------------------------------------------- backends

COMPARE = os.environ.get("RUCHEY_CUDA_COMPARE") == "1"


def _gpu_present():
    from ruchey import cuda
    return cuda.is_available()


@pytest.fixture(autouse=True)
def _cuda_backend(request, monkeypatch):
    """Applies the backend markers; with RUCHEY_CUDA_COMPARE=1 every GPU launch
    is run again on the CPU backend and the results compared."""
    if AS_NUMBA:
        yield
        return
    if request.node.get_closest_marker("cpu_backend"):
        monkeypatch.setenv("RUCHEY_CUDA_BACKEND", "cpu")
    if request.node.get_closest_marker("no_gpu") and _gpu_present():
        pytest.skip("describes a machine without a GPU")
    if COMPARE and not (request.node.get_closest_marker("order_dependent") or
                        request.node.get_closest_marker("not_compared")):
        from ruchey.cuda import kernels
        monkeypatch.setattr(kernels._LaunchConfiguration, "launch_gpu",
                            _compared_launch(kernels._LaunchConfiguration.launch_gpu))
    yield


def _host_copy(arg):
    from ruchey import cuda
    if type(arg) is tuple:
        return tuple(map(_host_copy, arg))
    if isinstance(arg, cuda.DeviceNDArray):
        return arg.copy_to_host()
    if hasattr(arg, "__cuda_array_interface__"):  # CuPy's, PyTorch's
        return cuda.as_cuda_array(arg).copy_to_host()
    return arg.copy() if isinstance(arg, numpy.ndarray) else arg


def _compared_launch(launch_gpu):
    def launch(self, args):
        cpu_args = [_host_copy(a) for a in args]
        launch_gpu(self, args)
        self.launch_cpu(cpu_args)
        for i, (arg, expected) in enumerate(zip(args, cpu_args)):
            if not isinstance(expected, numpy.ndarray):
                continue
            got = _host_copy(arg)
            what = f"{self.dispatcher.__name__}: argument {i} on the GPU vs the CPU backend"
            if expected.dtype.kind in "fc":  # libdevice's math and fused multiply-adds differ in ulps
                rtol = 1e-5 if expected.dtype in (numpy.float32, numpy.complex64) else 1e-12
                scale = numpy.max(numpy.abs(expected[numpy.isfinite(expected)]), initial=1.0)
                numpy.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * scale,
                                              err_msg=what)
            else:
                numpy.testing.assert_array_equal(got, expected, err_msg=what)
    return launch


def numba_deviation(reason):
    """Mark a test of spec behaviour that numba (the stand-in) does not follow."""
    return pytest.mark.xfail(AS_NUMBA, reason="numba deviates: " + reason, strict=True)


def math_domain_error(since_314):
    """The message of a math function's ValueError outside its domain, as a
    pattern for ``pytest.raises(match=...)``: Python 3.14's names the
    argument (since_314, the whole message), 3.10 to 3.13 say "math domain
    error"."""
    return "^" + re.escape(since_314) + "$" if sys.version_info >= (3, 14) else "math domain error"


# ---------------------------------------------------------------- inputs

SIZES = (0, 1, 7, 1000, 100003)


def make_rng(seed):
    return numpy.random.default_rng(seed)


def seed_of(*parts):
    """A seed from names and shapes, the same in every process (Python's
    hash() of a str is salted per process)."""
    return zlib.crc32(repr(parts).encode())


def random_ints(rng, count, lo=-(2**31), hi=2**31):
    """Python ints: edge values, small values and values spread over [lo, hi)."""
    edge = [v for v in (0, 1, -1, 2, -2, 3, -3, 7, -7, lo, hi - 1) if lo <= v < hi]
    small = rng.integers(max(lo, -20), min(hi, 21), size=count).tolist()
    wide = rng.integers(lo, hi, size=count).tolist()
    return [int(v) for v in edge + small + wide]


SPECIAL_FLOATS = (0.0, -0.0, 1.0, -1.0, 0.5, -1.5, 3.0, -7.0, 0.1, 1e300, -1e-300,
                  math.inf, -math.inf, math.nan)


def random_floats(rng, count, special=True):
    """Python floats of mixed magnitudes and signs, plus special values."""
    mags = 10.0 ** rng.integers(-6, 7, size=count)
    values = [float(v) for v in rng.standard_normal(count) * mags]
    return list(SPECIAL_FLOATS) + values if special else values


def random_pairs(rng, xs, ys, count):
    """``count`` pairs drawn from xs x ys (always including the first few of each)."""
    pairs = [(x, y) for x in xs[:14] for y in ys[:14]]
    ix = rng.integers(0, len(xs), size=count)
    iy = rng.integers(0, len(ys), size=count)
    return pairs + [(xs[i], ys[j]) for i, j in zip(ix.tolist(), iy.tolist())]


def float_array(rng, n):
    return rng.standard_normal(n) * 100.0


def int_array(rng, n, lo=-1000, hi=1000):
    return rng.integers(lo, hi, size=n, dtype=numpy.int64)


# ---------------------------------------------------------------- comparison

def _copy_arg(a):
    return a.copy() if isinstance(a, numpy.ndarray) else a


def assert_same_value(expected, got, rel=None, what="result"):
    """Compare a compiled result with the Python result: value and type.

    Arrays: ndarray, same dtype, shape and values (exactly, NaN == NaN).
    Tuples and Python lists: element by element; None: None; str, bytes, bytearray: an equal one.
    Scalars: bool -> bool; int -> Python int (or numpy.int64); float -> float
    (exactly, incl. the sign of zero, unless ``rel`` gives a relative tolerance).
    Enum members: the very member.
    """
    if expected is None:
        assert got is None, f"{what}: expected None, got {got!r}"
    elif isinstance(expected, enum.Enum):
        assert got is expected, f"{what}: {got!r} is not {expected!r}"
    elif isinstance(expected, str):
        assert type(got) is str and got == expected, f"{what}: {got!r} != {expected!r}"
    elif isinstance(expected, (bytes, bytearray)):
        assert type(got) is type(expected) and got == expected, f"{what}: {got!r} != {expected!r}"
    elif isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), f"{what}: {got!r} != {expected!r}"
        for i, (e, g) in enumerate(zip(expected, got)):
            assert_same_value(e, g, rel=rel, what=f"{what}[{i}]")
    elif type(expected) is list:  # (a reflected list's: a Python list again)
        assert type(got) is list and len(got) == len(expected), f"{what}: {got!r} != {expected!r}"
        for i, (e, g) in enumerate(zip(expected, got)):
            assert_same_value(e, g, rel=rel, what=f"{what}[{i}]")
    elif isinstance(expected, numpy.ndarray):
        assert isinstance(got, numpy.ndarray), f"{what}: expected ndarray, got {type(got)}"
        assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype} != {expected.dtype}"
        assert got.shape == expected.shape, f"{what}: shape {got.shape} != {expected.shape}"
        if rel is None:
            numpy.testing.assert_array_equal(got, expected, err_msg=what, strict=True)
        else:
            numpy.testing.assert_allclose(got, expected, rtol=rel, err_msg=what)
    elif isinstance(expected, (bool, numpy.bool_)):
        assert type(got) is bool, f"{what}: expected bool, got {type(got)} {got!r}"
        assert got == bool(expected), f"{what}: {got!r} != {expected!r}"
    elif isinstance(expected, (int, numpy.integer)):
        assert type(got) in (int, numpy.int64), f"{what}: expected int, got {type(got)} {got!r}"
        assert int(got) == int(expected), f"{what}: {got!r} != {expected!r}"
    elif isinstance(expected, (float, numpy.floating)):
        assert isinstance(got, float), f"{what}: expected float, got {type(got)} {got!r}"
        expected, got = float(expected), float(got)
        if math.isnan(expected):
            assert math.isnan(got), f"{what}: {got!r} != nan"
        elif rel is None:
            assert got == expected and math.copysign(1, got) == math.copysign(1, expected), \
                f"{what}: {got!r} != {expected!r}"
        else:
            assert got == pytest.approx(expected, rel=rel, abs=0), \
                f"{what}: {got!r} != {expected!r}"
    else:
        raise AssertionError(f"{what}: unexpected Python result type {type(expected)}")


def assert_same(f, *args, rel=None):
    """Call compiled ``f`` and ``f.py_func`` on (copies of) args and compare the
    results and the arrays passed in (which either may have modified)."""
    py_args = [_copy_arg(a) for a in args]
    jit_args = [_copy_arg(a) for a in args]
    with numpy.errstate(all="ignore"):  # numpy scalar overflow/NaN warnings
        expected = f.py_func(*py_args)
    got = f(*jit_args)
    context = f"{getattr(f.py_func, '__name__', f)}{tuple(args) if len(repr(args)) < 200 else ''}"
    assert_same_value(expected, got, rel=rel, what=context)
    for i, (pa, ja) in enumerate(zip(py_args, jit_args)):
        if isinstance(pa, numpy.ndarray):
            assert_same_value(pa, ja, what=f"{context}: argument {i} after the call")
    return got


# ---------------------------------------------------------------- PTX

def find_ptxas():
    """The CUDA toolkit's ptxas ($CUDA_HOME, the standard place, the PATH), or None."""
    import shutil
    home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    path = os.path.join(home, "bin", "ptxas")
    return path if os.path.exists(path) else shutil.which("ptxas")


PTXAS = find_ptxas()
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="the CUDA toolkit's ptxas is not installed")


def find_libdevice():
    """libdevice.10.bc where the compiler looks for it ($CUDA_HOME, then the standard place), or None."""
    for home in (os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        path = home and os.path.join(home, "nvvm", "libdevice", "libdevice.10.bc")
        if path and os.path.exists(path):
            return path
    return None


# PTX of kernels calling math functions links libdevice
needs_libdevice = pytest.mark.skipif(find_libdevice() is None, reason="the CUDA toolkit's libdevice is not installed")


def ptxas_errors(ptx, arch, directory, name="kernel"):
    """What ptxas says about ptx for arch (e.g. "sm_80"); "" when it accepts it."""
    path = os.path.join(str(directory), f"{name}.ptx")
    with open(path, "w") as fh:
        fh.write(ptx)
    result = subprocess.run([PTXAS, f"-arch={arch}", path, "-o", path + ".cubin"],
                            capture_output=True, text=True)
    return "" if result.returncode == 0 else result.stderr or f"ptxas exit {result.returncode}"


# ---------------------------------------------------------------- processes

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))


def run_python_file(code, directory, timeout=300):
    """Write ``code`` to a script in ``directory`` and run it in a fresh
    interpreter that imports ruchey the same way as this session (incl. the
    numba stand-in).  Returns the CompletedProcess."""
    prelude = f"import sys\nsys.path.insert(0, {TESTS_DIR!r})\nimport conftest\n"
    script = os.path.join(str(directory), "script_under_test.py")
    with open(script, "w") as fh:
        fh.write(prelude + textwrap.dedent(code))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return subprocess.run([sys.executable, script], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=str(directory))


def rss_bytes():
    """Resident set size of this process (Linux), or None."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None
