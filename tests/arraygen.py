"""Generated arrays for the tests of NumPy functions in compiled code
(test_creation.py, test_shapes.py): every dtype, and the layouts an array
argument can have -- C-contiguous, Fortran-ordered, strided (a view with
steps), empty, 0-d.

``define`` compiles a function from generated source (registered with
linecache, where ruchey's frontend reads source), for functions that differ
only in a constant such as a dtype's spelling.
"""
import itertools
import linecache

import numpy as np

from conftest import assert_same_value

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float32, np.float64]

LAYOUTS = ("C", "F", "strided", "reversed")


def values(rng, dtype, shape):
    return np.asarray(_values(rng, dtype, shape), dtype=dtype)


def _values(rng, dtype, shape):
    """Random values of dtype: the whole range of ints, floats of several
    magnitudes with a NaN and infinities among them where there is room."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    v = np.asarray(rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, size=shape)).astype(dtype)
    flat = v.reshape(-1)
    for i, special in zip(range(0, flat.size, 7), (np.nan, np.inf, -np.inf, -0.0)):
        flat[i] = special
    return v


def array(rng, dtype, shape, layout="C"):
    """An array of the shape with the given layout: "C", "F" (Fortran order),
    "strided" (every second element of a larger array along each axis),
    "reversed" (the last axis walked backwards)."""
    if layout == "strided" and shape:
        big = values(rng, dtype, tuple(2 * s for s in shape))
        return big[tuple(slice(None, None, 2) for _ in shape)]
    a = values(rng, dtype, shape)
    if layout == "F":
        return np.asfortranarray(a)
    if layout == "reversed" and a.ndim:
        return a[..., ::-1]
    return a


def shapes(ndim_max=3, empty=True):
    """A few shapes of each number of dimensions up to ndim_max, 0-d included."""
    out = [(), (5,), (1,), (3, 4), (4, 1), (2, 3, 4)]
    if empty:
        out += [(0,), (3, 0), (0, 2, 3)]
    return [s for s in out if len(s) <= ndim_max]


def layout_flags(a):
    return (a.flags.c_contiguous, a.flags.f_contiguous)


def assert_same_array(expected, got, what="", flags=False):
    """Same type, dtype, shape and values (NaN-aware); with flags, the same
    contiguity (NumPy's C and Fortran flags)."""
    assert isinstance(got, np.ndarray), f"{what}: expected an ndarray, got {type(got)}"
    assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype} != {expected.dtype}"
    assert got.shape == expected.shape, f"{what}: shape {got.shape} != {expected.shape}"
    np.testing.assert_array_equal(got, expected, err_msg=what, strict=True)
    if flags:
        assert layout_flags(got) == layout_flags(expected), \
            f"{what}: C/F-contiguous {layout_flags(got)} != {layout_flags(expected)}"


def assert_same_result(expected, got, what="", flags=False):
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), f"{what}: {got!r} != {expected!r}"
        for i, (e, g) in enumerate(zip(expected, got)):
            assert_same_result(e, g, f"{what}[{i}]", flags)
    elif isinstance(expected, np.ndarray):
        assert_same_array(expected, got, what, flags)
    else:
        assert_same_value(expected, got, what=what)


def clone(a):
    """A copy of a with a's strides (a strided view's copy is such a view)."""
    if not isinstance(a, np.ndarray):
        return a
    if a.flags.c_contiguous or a.flags.f_contiguous:
        return a.copy(order="K")
    base = a
    while isinstance(base.base, np.ndarray):
        base = base.base
    offset = a.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return np.ndarray(a.shape, a.dtype, buffer=base.copy(order="K"), offset=offset, strides=a.strides)


def check(f, *args, flags=False):
    """f and f.py_func on copies of args (of the same layouts): the same
    results (and contiguity, with flags) and the same changes to the
    arguments."""
    py_args = [clone(a) for a in args]
    jit_args = [clone(a) for a in args]
    with np.errstate(all="ignore"):
        expected = f.py_func(*py_args)
        got = f(*jit_args)
    what = f"{f.py_func.__name__}{tuple(getattr(a, 'dtype', a) for a in args)}"
    assert_same_result(expected, got, what, flags)
    for pa, ja in zip(py_args, jit_args):
        if isinstance(pa, np.ndarray):
            assert_same_array(pa, ja, what + ": an argument after the call")
    return got


_serial = itertools.count()


def define(src, name="f", env=None):
    """Compiles the functions in src (with ``import numpy as np`` and
    ``import ruchey`` before it) and returns the one called name."""
    src = "import numpy as np\nimport ruchey\n\n" + src
    filename = f"<ruchey-arraygen-{next(_serial)}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    namespace = dict(env or {})
    exec(compile(src, filename, "exec"), namespace)
    return namespace[name]


_compiled = {}


def compiled(expr, params="a"):
    """A function of params returning expr, compiled once per (expr, params)
    for the whole run (each test file asks for many of the same)."""
    key = (expr, params)
    if key not in _compiled:
        _compiled[key] = define(f"@ruchey.njit\ndef f({params}):\n    return {expr}\n")
    return _compiled[key]
