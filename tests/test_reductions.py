"""NumPy's reductions in compiled code: sum, prod, mean, std, var, min, max,
ptp, argmin, argmax, any, all, count_nonzero, the nan* forms, average,
median, percentile, quantile, cumsum, cumprod, diff, isclose, allclose and
array_equal, as functions and as array methods.

Every call is compiled from a small generated function ``f(a, ...)`` whose
Python original (NumPy itself) gives the expected outcome: the same dtype
and value (floats bit for bit where ruchey sums in NumPy's order, which is
everywhere but where noted), or the same exception type and message. Inputs
are generated for every dtype (bool, int8..uint64, float32, float64), for
shapes including empty ones, 0-d arrays and plain numbers, for C, Fortran
and strided layouts, and with NaN among the floats.
"""
import itertools
import linecache
import warnings

import numpy as np
import pytest

import ruchey

from conftest import AS_NUMBA, NUMPY1, assert_same_value, make_rng, numpy2_only, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba's reductions differ in dtypes and errors "
                                "(np.sum of int8 is int64 in NumPy, errors at run time)")

# ---------------------------------------------------------------- compiling

_compiled = {}


def compiled(expr, params="a"):
    """``def f(params): return expr``, compiled (once per expression), its
    source registered with linecache so that ruchey can read it."""
    key = (expr, params)
    if key not in _compiled:
        src = f"import numpy as np\nimport ruchey\n\n@ruchey.njit\ndef f({params}):\n    return {expr}\n"
        filename = f"<ruchey-reductions-{len(_compiled)}>"
        linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
        namespace = {}
        exec(compile(src, filename, "exec"), namespace)
        _compiled[key] = namespace["f"]
    return _compiled[key]


def outcome(f, args):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "value", f(*args)
    except (ValueError, TypeError, IndexError, ZeroDivisionError) as e:
        return "raise", e


def describe(args):
    return ", ".join(f"array({a.dtype}, shape={a.shape}, strides={a.strides})" if isinstance(a, np.ndarray)
                     else repr(a) for a in args)


def check(expr, *args, params="a", rel=None):
    """expr compiled and run on args: NumPy's value (dtype included) or its exception."""
    f = compiled(expr, params)
    (ek, expected), (gk, got) = outcome(f.py_func, args), outcome(f, args)
    what = f"{expr} on {describe(args)}"
    if ek == "raise":
        assert gk == "raise", f"{what}: expected {expected!r}, got {got!r}"
        same_type = type(got) is type(expected) or (
            isinstance(expected, np.exceptions.AxisError) and type(got) is ValueError)
        assert same_type and str(got) == str(expected), f"{what}: expected {expected!r}, got {got!r}"
    else:
        assert gk == "value", f"{what}: expected {expected!r}, got {got!r}"
        assert_same_value(expected, got, rel=rel, what=what)


def check_refused(expr, *args, match, params="a"):
    with pytest.raises(ruchey.TypingError, match=match):
        compiled(expr, params)(*args)


# ---------------------------------------------------------------- inputs

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float32, np.float64]
DTYPE_IDS = [np.dtype(d).name for d in DTYPES]


def values(rng, dtype, shape):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.kind == "u":
        return rng.integers(0, 60, size=shape).astype(dtype)
    if dtype.kind == "i":
        return rng.integers(-60, 60, size=shape).astype(dtype)
    return (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, size=shape)).astype(dtype)


def with_nans(rng, a, fraction=0.2):
    a = a.copy()
    a[rng.random(a.shape) < fraction] = np.nan
    return a


def layouts(rng, dtype, shape):
    """The same values in a C array, a Fortran one, and strided views (every
    other element of the last dimension; the rows reversed)."""
    base = values(rng, dtype, shape)
    yield base
    if len(shape) >= 2:
        yield np.asfortranarray(base)
    wide = values(rng, dtype, shape[:-1] + (2 * shape[-1],))
    yield wide[..., ::2]
    if len(shape) >= 2:
        yield base[::-1]


ONE_D = [(0,), (1,), (7,), (130,), (1000,)]
SHAPES = [(5, 7), (0, 3), (3, 0), (40, 30), (3, 4, 5)]

# ---------------------------------------------------------------- the reductions, all elements

REDUCTIONS = ["np.sum(a)", "np.prod(a)", "np.mean(a)", "np.std(a)", "np.var(a)", "np.min(a)", "np.max(a)",
              "np.amin(a)", "np.amax(a)", "np.ptp(a)", "np.argmin(a)", "np.argmax(a)", "np.any(a)",
              "np.all(a)", "np.count_nonzero(a)", "np.nansum(a)", "np.nanprod(a)", "np.nanmean(a)",
              "np.nanstd(a)", "np.nanvar(a)", "np.nanmin(a)", "np.nanmax(a)", "np.nanargmin(a)",
              "np.nanargmax(a)", "np.median(a)", "np.average(a)", "np.cumsum(a)", "np.cumprod(a)",
              "np.percentile(a, 30)", "np.quantile(a, 0.7)", "np.diff(a)"]
METHODS = ["a.sum()", "a.prod()", "a.mean()", "a.std()", "a.var()", "a.min()", "a.max()", "a.argmin()",
           "a.argmax()", "a.any()", "a.all()", "a.cumsum()", "a.cumprod()"]

# where NumPy raises TypeError for a dtype, ruchey refuses to compile
REFUSED = {("np.ptp(a)", "bool"): "boolean subtract", ("np.percentile(a, 30)", "bool"): "boolean subtract",
           ("np.quantile(a, 0.7)", "bool"): "boolean subtract"}


# where NumPy 1.x differs from NumPy 2: percentile and quantile of float32
# (computed in float64), the message of nanargmin/nanargmax of nothing but
# NaN, AxisError's message
NUMPY1_DIFFERS = {"np.percentile": ("float32",), "np.quantile": ("float32",), "np.nanargmin": None,
                  "np.nanargmax": None, "np.average": None}


def skip_where_numpy1_differs(expr, dtype):
    name = expr.split("(")[0]
    if NUMPY1 and name in NUMPY1_DIFFERS and NUMPY1_DIFFERS[name] in (None, (np.dtype(dtype).name,)):
        pytest.skip(f"NumPy 1.x differs from NumPy 2 in {name}: ruchey gives NumPy 2's result")


@pytest.mark.parametrize("dtype", DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("expr", REDUCTIONS)
def test_reduction_of_1d_arrays_matches_numpy(expr, dtype):
    skip_where_numpy1_differs(expr, dtype)
    rng = make_rng(seed_of(expr, np.dtype(dtype).name))
    refused = REFUSED.get((expr, np.dtype(dtype).name))
    if refused:
        check_refused(expr, values(rng, dtype, (5,)), match=refused)
        return
    for shape in ONE_D:
        check(expr, values(rng, dtype, shape))


# the reductions whose integer forms take other paths than their float ones
INTEGER_PATHS = ["np.sum(a)", "np.mean(a)", "np.max(a)", "np.argmin(a)", "np.any(a)", "np.cumsum(a)",
                 "np.median(a)", "np.diff(a)"]


@pytest.mark.parametrize("expr, dtype", [(e, np.float64) for e in REDUCTIONS] + [(e, np.uint8) for e in INTEGER_PATHS],
                         ids=[f"{e}-float64" for e in REDUCTIONS] + [f"{e}-uint8" for e in INTEGER_PATHS])
def test_reduction_of_any_layout_matches_numpy(expr, dtype):
    skip_where_numpy1_differs(expr, dtype)
    rng = make_rng(seed_of(expr, "layouts"))
    for shape in [(0,), (9,), (1000,)] + SHAPES:
        for a in layouts(rng, dtype, shape):
            check(expr, a)


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.bool_], ids=["float64", "int64", "bool"])
@pytest.mark.parametrize("expr", METHODS)
def test_array_method_matches_numpy(expr, dtype):
    rng = make_rng(7)
    for shape in [(0,), (1,), (9,), (130,), (6, 5)]:
        for a in layouts(rng, dtype, shape) if dtype == np.float64 else [values(rng, dtype, shape)]:
            check(expr, a)


@pytest.mark.parametrize("expr", [e for e in REDUCTIONS if not e.startswith("np.diff")])
def test_reduction_of_numbers_and_0d_arrays_matches_numpy(expr):
    for x in [2.5, -3, True, np.array(1.5)]:
        if (expr, "bool") in REFUSED and isinstance(x, bool):
            continue
        check(expr, x)


# ---------------------------------------------------------------- NaN

NAN_REDUCTIONS = ["np.sum(a)", "np.mean(a)", "np.std(a)", "np.min(a)", "np.max(a)", "np.ptp(a)",
                  "np.argmin(a)", "np.argmax(a)", "np.any(a)", "np.all(a)", "np.count_nonzero(a)",
                  "np.nansum(a)", "np.nanprod(a)", "np.nanmean(a)", "np.nanstd(a)", "np.nanvar(a)",
                  "np.nanmin(a)", "np.nanmax(a)", "np.nanargmin(a)", "np.nanargmax(a)", "np.median(a)",
                  "np.percentile(a, 30)", "np.cumsum(a)", "np.diff(a)"]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("expr", NAN_REDUCTIONS)
def test_reduction_of_arrays_with_nan_matches_numpy(expr, dtype):
    skip_where_numpy1_differs(expr, dtype)
    rng = make_rng(seed_of(expr, "nan"))
    for shape in [(1,), (9,), (40,), (1000,), (6, 5)]:
        for fraction in (0.02, 0.3, 1.0):
            for a in layouts(rng, dtype, shape) if dtype == np.float64 else [values(rng, dtype, shape)]:
                check(expr, with_nans(rng, a, fraction))
    check(expr, np.array([np.nan, 1.0, np.inf, -np.inf, np.nan], dtype))
    check(expr, np.array([-np.inf, -np.inf, np.inf], dtype))


def test_argmin_and_argmax_give_the_first_nan():
    a = np.zeros(100)
    a[[37, 61]] = np.nan
    check("np.argmax(a)", a)
    check("np.argmin(a)", a)
    a[3] = 5.0
    check("np.nanargmax(a)", a)
    check("np.argmax(a)", a[::-1])


def test_nanargmin_of_only_nan_raises_numpys_value_error():
    check("np.nanargmin(a)", np.full(20, np.nan))
    check("np.nanargmax(a, axis=0)", np.array([[np.nan, 1.0], [np.nan, 2.0]]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_nanargmin_and_nanargmax_read_nan_as_the_losing_infinity(dtype):
    # NumPy replaces NaN by -inf (nanargmax) or +inf (nanargmin): a NaN before an equal infinity is the one found
    rng = make_rng(seed_of("nanarg", dtype))
    pool = np.array([np.nan, np.inf, -np.inf, 1.0], dtype)
    for n in (2, 3, 7, 17, 64, 301):
        for _ in range(6):
            a = rng.choice(pool, n)
            for expr in ("np.nanargmax(a)", "np.nanargmin(a)"):
                check(expr, a)
                check(expr.replace("(a)", "(a, axis=0)"), a.reshape(-1, 1) if n % 2 else a.reshape(2, -1))
                check(expr.replace("(a)", "(a, axis=1)"), np.stack([a, a[::-1]]))


ARRAYLIKE_REDUCTIONS = ["np.sum", "np.prod", "np.mean", "np.std", "np.var", "np.min", "np.max", "np.ptp", "np.argmin",
                        "np.argmax", "np.any", "np.all", "np.count_nonzero", "np.nansum", "np.nanmin", "np.nanmax",
                        "np.nanmean", "np.nanargmax", "np.cumsum", "np.cumprod", "np.copy"]


@pytest.mark.parametrize("func", ARRAYLIKE_REDUCTIONS)
def test_reductions_of_tuples_and_lists_are_those_of_their_arrays(func):
    rng = make_rng(seed_of(func, "arraylike"))
    bools = [[True, False, True]] if func != "np.ptp" else []  # (ptp of bools: a TypingError, tested apart)
    for values in [[1, -4, 2], list(rng.standard_normal(6)), [np.nan, 1.5, -2.0]] + bools:
        check(f"{func}(a)", list(values))  # a list argument
        check(f"{func}(a)", tuple(values))
    check(f"{func}((1.5, -2.0, 3.0))")  # written out: a tuple, and a list
    check(f"{func}([2, 7, -1, 0])")
    check(f"{func}(((1.0, 2.0), (3.0, -4.0)))")
    check(f"{func}((a, a[::-1]))", rng.standard_normal((2, 3)))  # a tuple of arrays: them stacked


# ---------------------------------------------------------------- along an axis

AXIS_REDUCTIONS = ["np.sum(a, axis=k)", "np.prod(a, axis=k)", "np.mean(a, axis=k)", "np.std(a, axis=k)",
                   "np.var(a, axis=k)", "np.min(a, axis=k)", "np.max(a, axis=k)", "np.ptp(a, axis=k)",
                   "np.argmin(a, axis=k)", "np.argmax(a, axis=k)", "np.any(a, axis=k)", "np.all(a, axis=k)",
                   "np.count_nonzero(a, axis=k)", "np.nansum(a, axis=k)", "np.nanmean(a, axis=k)",
                   "np.nanstd(a, axis=k)", "np.nanmin(a, axis=k)", "np.nanmax(a, axis=k)",
                   "np.nanargmax(a, axis=k)", "np.average(a, axis=k)", "np.cumsum(a, axis=k)",
                   "np.cumprod(a, axis=k)", "np.diff(a, axis=k)", "a.sum(k)", "a.argmin(axis=k)"]


# the dtypes whose code differs from float64's, by reduction
AXIS_DTYPES = {"np.sum": (np.int16, np.float32, np.bool_), "np.mean": (np.int16, np.float32),
               "np.std": (np.float32,), "np.min": (np.int16,), "np.max": (np.uint64,), "np.prod": (np.uint64,),
               "np.argmin": (np.int16, np.float32), "np.any": (np.int16, np.bool_), "np.ptp": (np.int16,),
               "np.count_nonzero": (np.bool_,), "np.cumsum": (np.int16,), "np.diff": (np.uint64,)}


def axis_cases():
    """Every reduction on float64; on other dtypes where their code differs."""
    cases = []
    for expr in AXIS_REDUCTIONS:
        for dtype in (np.float64,) + AXIS_DTYPES.get(expr.split("(")[0], ()):
            cases.append(pytest.param(expr, dtype, id=f"{expr}-{np.dtype(dtype).name}"))
    return cases


@pytest.mark.parametrize("expr, dtype", axis_cases())
def test_reduction_along_an_axis_matches_numpy(expr, dtype):
    skip_where_numpy1_differs(expr, dtype)
    if ("ptp" in expr or "diff" in expr) and dtype == np.bool_:
        return
    rng = make_rng(seed_of(expr, np.dtype(dtype).name, "axis"))
    for shape in SHAPES + [(35, 37)]:
        for a in layouts(rng, dtype, shape):
            if a.ndim == 3 and not a.flags.c_contiguous:
                continue
            if np.dtype(dtype).kind == "f" and "nan" in expr:
                a = with_nans(rng, a, 0.1)
            for k in range(-a.ndim - 1, a.ndim + 1):
                check(expr, a, k, params="a, k")


@pytest.mark.parametrize("expr", ["np.sum(a, axis=0)", "a.mean(axis=1)", "np.min(a, axis=-1)",
                                  "np.argmax(a, 0)", "np.cumsum(a, axis=1)", "np.diff(a, axis=0)",
                                  "np.diff(a, 2, 1)", "a.std(axis=0, ddof=1)", "np.all(a, axis=1)"])
def test_reduction_along_a_constant_axis_matches_numpy(expr):
    rng = make_rng(3)
    for dtype in (np.float64, np.int32, np.bool_):
        for shape in [(4, 6), (0, 5), (50, 70), (2, 3, 4)]:
            for a in layouts(rng, dtype, shape):
                if dtype == np.bool_ and ("std" in expr or "diff(a, 2" in expr):
                    continue
                check(expr, a)


def test_running_sums_along_an_axis_keep_a_fortran_arrays_order():
    """cumsum and cumprod along an axis fill an array like a (NumPy's
    order='K'): of a Fortran array a Fortran one; flattened, 1-d."""
    f = compiled("np.cumsum(a, axis=k), a.cumprod(k), np.nancumsum(a, k), np.cumsum(a)", "a, k")
    rng = make_rng(12)
    for dtype in (np.float64, np.int16, np.complex128):
        for shape in [(3, 4), (2, 3, 4), (0, 3)]:
            for a in layouts(rng, dtype, shape):
                for k in range(-a.ndim, a.ndim):
                    for got, expected in zip(f(a, k), f.py_func(a, k)):
                        assert got.dtype == expected.dtype and got.shape == expected.shape
                        np.testing.assert_allclose(got, expected, rtol=1e-6)
                        assert got.flags.f_contiguous == expected.flags.f_contiguous or not a.flags.forc
                        assert got.flags.c_contiguous == expected.flags.c_contiguous or not a.flags.forc


def test_a_constant_axis_out_of_bounds_is_numpys_axis_error_when_the_call_runs():
    """as Numba checks it (test_axis_bounds_at_run_time.py has the rest); an axis of another type is refused"""
    with pytest.raises(ValueError, match="axis 2 is out of bounds for array of dimension 2"):
        compiled("np.sum(a, axis=2)", "a")(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="axis -3 is out of bounds for array of dimension 2"):
        compiled("a.max(-3)", "a")(np.zeros((2, 2)))
    check_refused("np.sum(a, axis=1.5)", np.zeros((2, 2)), match="axis must be an integer")


# ---------------------------------------------------------------- accuracy

@numpy2_only  # NumPy 1.x's SIMD sum groups the elements otherwise
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_float_sums_are_numpys_pairwise_sums(dtype):
    """Bit for bit where the elements are read in NumPy's order: contiguous
    arrays (Fortran ones in memory order), 1-d views, rows of an axis."""
    rng = make_rng(11)
    for n in (8, 127, 128, 129, 1000, 4097, 100003, 10**6):
        a = values(rng, dtype, (n,))
        for expr in ("np.sum(a)", "np.mean(a)", "np.var(a)", "np.std(a)", "np.nansum(a)"):
            check(expr, a)
        check("np.sum(a)", a[::3])
        check("np.sum(a, dtype=np.float64)", a)
    m = values(rng, dtype, (300, 500))
    for a in (m, np.asfortranarray(m)):
        for expr in ("np.sum(a)", "np.mean(a)", "np.sum(a, axis=0)", "np.sum(a, axis=1)", "np.std(a, axis=1)"):
            check(expr, a)


def test_float_sum_of_a_strided_2d_array_is_as_accurate_as_numpys():
    """Read in C order through a buffer: NumPy's sum, but for rounding."""
    rng = make_rng(12)
    a = values(rng, np.float64, (700, 900))[:, ::3]
    exact = float(np.sum(a.astype(np.longdouble)))
    got, numpys = compiled("np.sum(a)")(a), np.sum(a)
    assert abs(got - exact) <= 4 * abs(numpys - exact) + 1e-9 * np.sum(np.abs(a))
    check("np.sum(a)", a, rel=1e-12)


# ---------------------------------------------------------------- expressions as arguments

@pytest.mark.parametrize("expr", ["np.sum(a * b)", "np.max(np.abs(a - b))", "np.mean(a + 1)",
                                  "np.std(a * 2.0)", "np.argmax(a - b)", "np.any(a > b)",
                                  "np.count_nonzero(a >= b)", "np.cumsum(a * b)", "np.median(a - b)",
                                  "np.var(a - b, ddof=1)", "np.sum(a * b, axis=0)", "np.prod(a / b)"])
def test_reduction_of_an_array_expression_matches_numpy(expr):
    rng = make_rng(5)
    for shape in [(0,), (1,), (17,), (1000,), (20, 30)]:
        a, b = values(rng, np.float64, shape), values(rng, np.float64, shape)
        if "axis" in expr and a.ndim == 1:
            continue
        check(expr, a, b, params="a, b")
        if a.ndim == 2:  # not contiguous: streamed
            check(expr, a[:, ::2], b[:, ::2], params="a, b", rel=1e-12)
            if "axis" not in expr:  # broadcast
                check(expr, a, b[0], params="a, b", rel=1e-12)


def test_reduction_of_an_integer_expression_keeps_numpys_dtypes():
    rng = make_rng(6)
    a, b = values(rng, np.int8, (300,)), values(rng, np.uint8, (300,))
    for expr in ("np.sum(a * b)", "np.sum(a + a)", "np.max(a - b)", "np.mean(a * b)", "np.cumsum(a + b)"):
        check(expr, a, b, params="a, b")


# ---------------------------------------------------------------- dtype=, ddof=

@pytest.mark.parametrize("expr", ["np.sum(a, dtype=np.float32)", "np.sum(a, dtype=np.int8)",
                                  "np.prod(a, dtype=np.float64)", "np.mean(a, dtype=np.float32)",
                                  "a.sum(dtype=np.int32)", "np.cumsum(a, dtype=np.float64)",
                                  "np.cumprod(a, dtype=np.int16)", "np.std(a, dtype=np.float64)",
                                  "np.var(a, 0, np.float32)", "np.nansum(a, dtype=np.float32)",
                                  "np.sum(a, dtype=np.bool_)", "np.mean(a, axis=0, dtype=np.float64)"])
def test_dtype_argument_matches_numpy(expr):
    """Floats converted to an integer dtype=: in range (NumPy's casts of
    others are C's undefined behaviour, tested on x86 in test_shapes.py)."""
    rng = make_rng(8)
    for dtype in (np.int16, np.float32, np.float64, np.bool_):
        for a in (values(rng, dtype, (0,)), values(rng, dtype, (30,)), values(rng, dtype, (1000,))):
            if np.dtype(dtype).kind == "f":
                a = np.clip(a, -100, 100)
            if "np.var(a, 0" in expr and dtype == np.float64:
                continue
            check(expr, a)


@pytest.mark.parametrize("expr", ["np.std(a, ddof=d)", "np.var(a, ddof=d)", "a.var(ddof=d)",
                                  "np.nanvar(a, ddof=d)", "np.nanstd(a, ddof=d)", "np.var(a, axis=0, ddof=d)"])
def test_ddof_matches_numpy(expr):
    rng = make_rng(9)
    for dtype in (np.float64, np.int64):
        for shape in [(1,), (2,), (5,), (40, 3)]:
            a = values(rng, dtype, shape)
            if np.dtype(dtype).kind == "f":
                a = with_nans(rng, a, 0.2)
            for d in (0, 1, 2, 5, 1.5):
                check(expr, a, d, params="a, d")


# ---------------------------------------------------------------- None, keywords, errors

def test_axis_none_and_dtype_none_are_the_defaults():
    rng = make_rng(10)
    a = values(rng, np.float64, (4, 5))
    for expr in ("np.sum(a, axis=None)", "a.mean(axis=None, dtype=None)", "np.argmax(a, axis=None)",
                 "np.cumsum(a, axis=None)", "np.std(a, dtype=None, ddof=1)"):
        check(expr, a)


@pytest.mark.parametrize("expr, keyword", [("np.sum(a, keepdims=True)", "keepdims"), ("a.min(out=a)", "out"),
                                           ("np.mean(a, where=a > 0)", "where"), ("np.std(a, correction=1)", "correction"),
                                           ("np.median(a, axis=0)", "axis"), ("np.percentile(a, 5, weights=a)", "weights"),
                                           ("np.average(a, returned=True)", "returned"), ("np.cumsum(a, out=a)", "out")])
def test_unsupported_keyword_is_a_typing_error_naming_it(expr, keyword):
    name = expr.split("(")[0].replace("np.", "numpy.").replace("a.", "array.")
    check_refused(expr, np.ones((2, 2)), match=rf"{name}\(\) got an unsupported keyword argument '{keyword}'")


@pytest.mark.parametrize("expr, match", [
    ("np.sum('text')", r"numpy.sum\(\) needs an array or a number"),
    ("np.sum(a, dtype=3)", "dtype must be a NumPy scalar type"),
    ("np.std(a, ddof=a)", "ddof must be a number"),
    ("np.diff(a[0, 0])", "at least one dimensional"),
    ("np.diff(a, -1)", "order must be non-negative but got -1"),
    ("np.percentile(a > 0, 5)", "boolean subtract"),
    ("np.average(a, axis=0, weights=a)", "axis together with weights"),
    ("np.average(a, weights=a[0])", "Axis must be specified when shapes of a and weights differ"),
    ("np.isclose(a, a, rtol=a)", "rtol must be a number"),
])
def test_bad_arguments_are_typing_errors(expr, match):
    check_refused(expr, np.ones((2, 2)), match=match)


def test_runtime_errors_are_numpys():
    check("np.diff(a, n)", np.arange(5.0), -2, params="a, n")
    check("np.sum(a, axis=k)", np.ones(3), 1, params="a, k")
    check("np.sum(a, axis=k)", np.ones(3), -1, params="a, k")
    check("np.sum(a, axis=k)", np.ones((2, 3)), 5, params="a, k")
    check("np.cumsum(a, axis=k)", np.ones(3), -2, params="a, k")
    check("np.percentile(a, q)", np.ones(3), 101.0, params="a, q")
    check("np.quantile(a, q)", np.ones(3), -0.5, params="a, q")
    check("np.quantile(a, q)", np.ones(3), float("nan"), params="a, q")
    check("np.percentile(a, 50)", np.ones(0))
    check("np.max(a, axis=1)", np.ones((3, 0)))
    check("np.argmin(a, axis=0)", np.ones((0, 0)))


# ---------------------------------------------------------------- average, percentile, diff

@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint64, np.float32, np.float64],
                         ids=["bool", "int8", "uint64", "float32", "float64"])
def test_weighted_average_matches_numpy(dtype):
    rng = make_rng(13)
    for shape in [(1,), (9,), (1000,), (6, 7)]:
        for a in layouts(rng, dtype, shape) if dtype == np.float64 else [values(rng, dtype, shape)]:
            w = np.abs(values(rng, np.float64, shape)) + 1
            check("np.average(a, weights=w)", a, w, params="a, w")
        a = values(rng, dtype, shape)
        for wtype in (np.float32, np.int64, np.bool_):
            w = np.abs(values(rng, wtype, shape)) + (wtype != np.bool_)
            check("np.average(a, weights=w)", a, np.asfortranarray(w), params="a, w")
    check("np.average(a, weights=w)", np.ones(3), np.zeros(3), params="a, w")
    check("np.average(a, weights=w)", np.ones(3), np.ones(4), params="a, w")
    check("np.average(a, weights=w)", np.ones(0), np.ones(0), params="a, w")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8], ids=["float64", "float32", "int64", "uint8"])
def test_percentile_and_quantile_match_numpy(dtype):
    skip_where_numpy1_differs("np.percentile", dtype)
    rng = make_rng(14)
    qs = [0, 0.5, 25, 33.3, 50, 99.9, 100]
    for shape in [(1,), (2,), (7,), (100,), (5, 6)]:
        for a in layouts(rng, dtype, shape):
            for q in qs:
                check("np.percentile(a, q)", a, q, params="a, q")
                check("np.quantile(a, q)", a, q / 100, params="a, q")
            check("np.percentile(a, q)", a, np.array(qs), params="a, q")
            check("np.quantile(a, q)", a, np.array([[0.1, 0.9], [0.5, 1.0]]), params="a, q")
            check("np.quantile(a, 1)", a)
            check("np.quantile(a, 0)", a)
            check("np.median(a)", a)


def test_percentile_at_the_ends_with_infinities_matches_numpy():
    for a in (np.array([1.0, np.inf]), np.array([-np.inf, 2.0, np.inf]), np.array([np.inf, np.inf])):
        for q in (0.0, 50.0, 100.0):
            check("np.percentile(a, q)", a, q, params="a, q")


@pytest.mark.parametrize("expr", ["np.diff(a)", "np.diff(a, 2, 0)", "np.diff(a, 0)"])
def test_differences_are_in_a_fortran_arrays_order_as_numpy(expr):
    """NumPy's differences follow a's order: Fortran of a Fortran-ordered array
    (running sums: test_running_sums_along_an_axis_keep_a_fortran_arrays_order)"""
    rng = make_rng(18)
    f = compiled(expr, "a")
    for a in (rng.random((4, 5)), np.asfortranarray(rng.random((4, 5))), rng.random((2, 3, 4)).T,
              np.asfortranarray(rng.integers(0, 9, (3, 4))), np.asfortranarray(np.zeros((0, 3)))):
        got, expected = f(a), f.py_func(a)
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == \
            (expected.flags.c_contiguous, expected.flags.f_contiguous), f"{expr} of {a.shape}"
        assert_same_value(expected, got, what=expr)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint64, np.float32], ids=["bool", "int8", "uint64", "float32"])
def test_diff_matches_numpy(dtype):
    rng = make_rng(15)
    for shape in [(0,), (1,), (2,), (9,), (5, 6), (3, 4, 5)]:
        for a in layouts(rng, dtype, shape):
            for n in range(0, 4):
                for axis in range(-a.ndim, a.ndim):
                    check("np.diff(a, n, axis)", a, n, axis, params="a, n, axis")


# ---------------------------------------------------------------- isclose, allclose, array_equal

CLOSE_FLOATS = [0.0, -0.0, 1.0, 1.0 + 1e-9, 1.0 + 1e-4, 1e-9, -1e-7, 1e300, np.inf, -np.inf, np.nan]


@pytest.mark.parametrize("expr", ["np.isclose(a, b)", "np.allclose(a, b)", "np.isclose(a, b, equal_nan=True)",
                                  "np.allclose(a, b, 1e-3, 1e-5, True)", "np.isclose(a, b, rtol=0.0, atol=0.0)",
                                  "np.isclose(b, a, atol=1e-3)"])
def test_isclose_and_allclose_match_numpy(expr):
    pairs = list(itertools.product(CLOSE_FLOATS, CLOSE_FLOATS))
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    with np.errstate(over="ignore"):  # 1e300 as float32 is inf
        a32, b32 = a.astype(np.float32), b.astype(np.float32)
    check(expr, a, b, params="a, b")
    check(expr, a32, b, params="a, b")
    check(expr, a32, b32, params="a, b")
    ints = np.arange(-3, 6)
    check(expr, ints, ints + 1e-6, params="a, b")
    check(expr, ints, ints, params="a, b")
    check(expr, np.ones((3, 4)), np.ones(4), params="a, b")
    check(expr, a[::3], b[::3], params="a, b")
    for x, y in pairs[::7]:
        check(expr, x, y, params="a, b")
    check(expr, 1.0, b, params="a, b")
    check("np.allclose(a, b)", np.ones(3), np.ones(4), params="a, b")


CLOSE_COMPLEX = [0j, 1 + 1j, 1 + 1j + 1e-9, 1 + 1.0001j, 1e-9j, complex(np.inf, 0), complex(np.inf, 1),
                 complex(np.nan, 0), complex(1, np.nan)]


@pytest.mark.parametrize("expr", ["np.isclose(a, b)", "np.allclose(a, b)", "np.isclose(a, b, equal_nan=True)",
                                  "np.allclose(a, b, 1e-3, 1e-5, True)", "np.isclose(b, a, atol=1e-3)"])
@numpy2_only  # (NumPy 1.x compares complex infinities otherwise)
def test_isclose_and_allclose_of_complex_numbers_match_numpy(expr):
    """the magnitudes |a - b| and |b| (b finite where both its parts are); NaN in either part"""
    pairs = list(itertools.product(CLOSE_COMPLEX, CLOSE_COMPLEX))
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check(expr, a, b, params="a, b")
        check(expr, a.astype(np.complex64), b.astype(np.complex64), params="a, b")
        check(expr, a, b.real.copy(), params="a, b")
        check(expr, a[1:4], a[1:4] + 1e-12, params="a, b")
        check(expr, a.astype(np.complex64), 1 + 1j, params="a, b")
        for x, y in pairs[::5]:
            check(expr, x, y, params="a, b")


@pytest.mark.parametrize("expr", ["np.isclose(a, 1.0)", "np.isclose(a, 1)", "np.isclose(2, a)"])
def test_isclose_with_python_numbers_matches_numpy(expr):
    for a in (np.array([1.0, 1.000001, 2.0, np.nan]), np.array([1, 2, 3]), np.array([1.0, 1.0001], np.float32)):
        check(expr, a)


def test_array_equal_matches_numpy():
    rng = make_rng(16)
    for dtype in DTYPES:
        a = values(rng, dtype, (5, 4))
        check("np.array_equal(a, b)", a, a.copy(), params="a, b")
        check("np.array_equal(a, b)", a, np.asfortranarray(a), params="a, b")
        b = a.copy()
        b[2, 3] = not b[2, 3] if dtype == np.bool_ else b[2, 3] + 1
        check("np.array_equal(a, b)", a, b, params="a, b")
        check("np.array_equal(a, b)", a, a[:, :3].copy(), params="a, b")
        check("np.array_equal(a, b)", a, a[0].copy(), params="a, b")
    n = np.array([1.0, np.nan])
    for expr in ("np.array_equal(a, b)", "np.array_equal(a, b, equal_nan=True)", "np.array_equal(a, b, True)"):
        check(expr, n, n.copy(), params="a, b")
        check(expr, n, n.astype(np.float32), params="a, b")
        check(expr, np.arange(3), np.arange(3.0), params="a, b")
        check(expr, 2.0, 2, params="a, b")
        check(expr, np.array(2.0), 2.0, params="a, b")


def test_array_equal_of_complex_numbers_matches_numpy():
    """with equal_nan, elements with a NaN in either part are equal (NumPy's isnan of complex)"""
    rng = make_rng(17)
    a = (values(rng, np.float64, (4, 3)) + 1j * values(rng, np.float64, (4, 3)))
    a[0, 0], a[1, 1] = complex(np.nan, 1), complex(2, np.nan)
    b = a.copy()
    b[1, 1] = complex(np.nan, 5)
    c = a.copy()
    c[3, 2] += 1j
    for expr in ("np.array_equal(a, b)", "np.array_equal(a, b, equal_nan=True)"):
        for x, y in [(a, a.copy()), (a, b), (a, c), (a, np.asfortranarray(a)), (a, a[:2].copy()),
                     (a.astype(np.complex64), a), (a.real.copy(), a.real + 0j), (1 + 2j, np.array(1 + 2j))]:
            check(expr, x, y, params="a, b")


# ---------------------------------------------------------------- in a kernel

def test_reductions_along_an_axis_are_refused_in_a_cuda_kernel():
    """(They make an array; of the whole array, tests/test_kernels_reductions.py.)"""
    from ruchey import cuda

    src = ("import numpy as np\nfrom ruchey import cuda\n\n@cuda.jit\ndef k(a):\n    a[0, 0] = np.sum(a, axis=0)[0]\n")
    filename = "<ruchey-reductions-kernel>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    namespace = {}
    exec(compile(src, filename, "exec"), namespace)
    with pytest.raises(ruchey.TypingError, match="cannot allocate"):
        cuda.compile_ptx(namespace["k"].py_func, "void(float64[:, ::1])")

