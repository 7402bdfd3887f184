"""The builtins' table (``ruchey._core.builtins()``), tested row by row.

Every test here is generated from the table: a new row is tested without
editing this file, and a removed row is caught by the completeness test.

* ``math.*`` rows: a wrapper calling the function is compiled and compared
  with its own Python original (``f.py_func``, i.e. CPython's math module) on
  a fixed set of inputs: ordinary values, signed zeros, negatives, values
  outside the domain, huge values, infinities, NaN, ints and float32 scalars.
  Same result type, same value, or the same exception (type, and the message
  where CPython's is "math domain error" / "math range error", or from 3.14
  on one naming the argument, "expected a positive input, got -1.0"). Integer results
  (floor, ceil, trunc) are CPython's exact int where int64 holds it, and
  OverflowError beyond (ruchey's rule where CPython makes a larger int).
* ``numpy.*`` rows of numbers (the pure ones: ufuncs such as sqrt, clip):
  compared with NumPy's own function on NumPy scalars of
  float64, float32, int64 (and int16 for one-argument functions): the kind of
  the result (a float, int or bool NumPy result gives a Python float, int or
  bool), its value (NaN-aware; a float32 result must be a float32 value) or
  NumPy's exception. Allocating rows are compared on array arguments.
* Flags: every ``allocates`` row is refused inside a ``@cuda.jit`` kernel,
  every ``kernel`` row (ruchey.cuda's intrinsics) outside one.

Tolerances: results that are exact in IEEE arithmetic (``EXACT``: fabs,
floor, ceil, trunc, rint, sqrt, copysign, fmod, the predicates, degrees and
radians -- one multiplication by the same constant as CPython's --, sign,
absolute, minimum, maximum, and any zero, infinite or NaN result) must be
equal bit for bit, sign of zero included. Other (transcendental) results may
differ by ``ULPS64`` units in the last place of the expected float64 value
(CPython and ruchey both call the C library, NumPy may use its own SIMD
code), float32 ones by ``ULPS32`` float32 ulps (1 ulp is the most seen on
x86-64 with glibc and NumPy 2.4). CPython's gamma and lgamma are its own
approximations: see ``LANCZOS``.

Known deviations of ruchey are listed in ``KNOWN_MATH_BUGS``,
``KNOWN_NUMPY_BUGS`` and ``KNOWN_NUMPY_SUBCASES``; each is a strict xfail, so
fixing one makes its test XPASS (fail) as a reminder to drop it from the list.

The table is ruchey's, so the file is skipped with RUCHEY_TEST_AS_NUMBA=1.
"""
import importlib
import importlib.util
import inspect
import itertools
import linecache
import math
import re
import sys

import numpy as np
import pytest

import ruchey

from conftest import AS_NUMBA, assert_same_value, numpy2_only

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="generated from ruchey's builtins table "
                                "(ruchey._core.builtins()), which numba does not have")

if AS_NUMBA:
    TABLE = []
else:
    from ruchey import _core
    TABLE = _core.builtins()

ROWS = {}
for _row in TABLE:  # several rows may share a name (cuda.threadIdx.x/.y/.z): key by name and path
    ROWS[(_row[0], _row[2])] = _row


def rows(predicate):
    return [r for r in TABLE if predicate(r)]


def row_id(row):
    name, module, path = row[0], row[1], row[2]
    return f"{module}.{path}" if module else name


# ---------------------------------------------------------------- compiling generated wrappers

_serial = itertools.count()


def define(src, name="f"):
    """exec ``src`` under a unique fake file name registered in linecache, so that
    ``inspect.getsource`` (which ruchey's frontend uses) finds the text."""
    filename = f"<ruchey-builtins-{next(_serial)}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    namespace = {}
    exec(compile(src, filename, "exec"), namespace)
    return namespace[name]


def call_source(row, args):
    """The expression using ``row`` with the argument expressions ``args``,
    its module imported as ``mod``."""
    name, module, path, kind = row[:4]
    flags = row[6]
    if kind == "method":
        return f"{args[0]}.{path}({', '.join(args[1:])})"
    if kind == "attribute":
        return f"{args[0]}.{path}"
    target = f"mod.{path}"
    return target if "nocall" in flags else f"{target}({', '.join(args)})"


def wrapper(row, nargs):
    """A compiled function ``f(x0, x1, ...)`` returning the row applied to its
    parameters, e.g. ``import math as mod ... return mod.sqrt(x0)``."""
    params = [f"x{i}" for i in range(nargs)]
    src = (f"import ruchey\nimport {row[1]} as mod\n\n@ruchey.njit\n"
           f"def f({', '.join(params)}):\n    return {call_source(row, params)}\n")
    return define(src)


def outcome(fn, args):
    try:
        with np.errstate(all="ignore"):
            return ("value", fn(*args))
    except (ArithmeticError, ValueError, TypeError, ruchey.TypingError) as e:
        return ("raise", type(e), str(e))


# ---------------------------------------------------------------- comparing values

ULPS64 = 4
ULPS32 = 4

EXACT = {"ldexp", "frexp", "modf", "remainder", "nextafter", "ulp",
         "fabs", "floor", "ceil", "trunc", "rint", "sqrt", "copysign", "fmod", "isnan", "isinf",
         "isfinite", "degrees", "radians", "sign", "absolute", "minimum", "maximum"}

# CPython computes gamma and lgamma with its own Lanczos approximation
# (Modules/mathmodule.c), good to about 1e-14 relative away from lgamma's
# zeros at 1 and 2 and about 1e-15 absolute near them; ruchey calls the C
# library's tgamma/lgamma. (relative, absolute) tolerances for those:
LANCZOS = {"gamma": (1e-13, 0.0), "lgamma": (1e-13, 1e-15)}

PY_MESSAGES = ("math domain error", "math range error")
PY_314_MESSAGE = re.compile(r"expected [^,]*(, got \S+)?")  # the argument's repr after "got", for a float


def same_float(expected, got, exact, ulps=ULPS64, ulp=math.ulp):
    """got == expected, NaN == NaN, sign of zero kept; within ``ulps`` units in
    the last place of ``expected`` unless ``exact`` (or expected is 0 or inf)."""
    if math.isnan(expected):
        return math.isnan(got)
    if exact or expected == 0.0 or math.isinf(expected):
        return got == expected and math.copysign(1.0, got) == math.copysign(1.0, expected)
    return abs(got - expected) <= ulps * ulp(expected)


def describe(args):
    return "(" + ", ".join(repr(a) for a in args) + ")"


# ---------------------------------------------------------------- math.*: CPython

MATH_ROWS = rows(lambda r: r[1] == "math" and r[3] == "function")

MATH_FLOATS = [
    0.5, 1.5, 2.0, 3.7, 10.0, 100.25, 1e-10, 1e10, 123456.789,  # ordinary
    0.0, -0.0,
    -0.5, -1.0, -1.5, -2.0, -3.7, -100.25, -1e10,              # negative (log, sqrt, gamma poles)
    1.0, 0.99, -0.99, 1.01, -1.01,                             # asin, acos, atanh, acosh edges
    1e308, -1e308, 1e300, 710.0, -710.0, 1000.0, 171.5, 172.0, -171.5, 9.5e18, -1e19,  # huge
    5e-324, -5e-324, 2.2250738585072014e-308,                  # subnormal, smallest normal
    math.inf, -math.inf, math.nan,
]
MATH_INTS = [0, 1, -1, 2, -2, 7, -7, 1000, 10**6, -10**6, 2**53 + 1, 2**63 - 1, -2**63]
MATH_FLOAT32 = [np.float32(v) for v in (0.1, -2.5, 1.5, 3e38, -3e38, 1e-45, math.inf, math.nan)]

MATH_PAIR_VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e308, -1e308, 5e-324,
                    math.inf, -math.inf, math.nan, 2, -3, 0]


# Functions whose arguments are not all floats: their own inputs (factorial
# of 10**6 would take CPython seconds, of 2**63 - 1 forever; beyond, it
# raises OverflowError), floats among them for CPython's TypeError
MATH_INT_ARGS = [0, 1, 2, 5, 20, 21, 30, -1, -2**63, 2**63 - 1, True]
MATH_OWN_INPUTS = {
    "factorial": [(n,) for n in MATH_INT_ARGS if n < 1000] + [(1000,), (2.0,), (np.int8(5),), (np.uint64(2**64 - 1),)],
    "ldexp": [(x, i) for x in MATH_PAIR_VALUES for i in MATH_INT_ARGS + [-1075, 1024, -3, 1.0]],
}
# gcd and lcm of ints (and bools) of every width, a float refused; none
# whose answer passes int64 (Numba's wrap there)
GCD_ARGS = [0, 1, 12, 18, -30, 7, 2**40, True, np.int32(-6), np.uint16(300), np.int8(-128)]
MATH_OWN_INPUTS["gcd"] = MATH_OWN_INPUTS["lcm"] = list(itertools.product(GCD_ARGS, repeat=2)) + [(2.0, 4), (4, 2.5)]


def math_inputs(nargs, name=None):
    if name in MATH_OWN_INPUTS:
        return MATH_OWN_INPUTS[name]
    if nargs == 1:
        return [(x,) for x in MATH_FLOATS + MATH_INTS + MATH_FLOAT32]
    if nargs == 2:
        pairs = list(itertools.product(MATH_PAIR_VALUES, repeat=2))
        return pairs + [(np.float32(1.5), np.float32(-2.0)), (np.float32(3e38), 2.0)]
    raise AssertionError(f"no inputs for {nargs}-argument math functions: add them here")


# Sub-cases where ruchey is known to differ from CPython: a mismatch on such an
# input is not failed here; each has its own strict-xfail test below, which
# starts to XPASS (and so fails) once the bug is fixed, as a reminder to drop
# it from this table.
KNOWN_MATH_BUGS = {
}

# CPython's own answers that changed between the versions ruchey supports:
# ruchey gives the newest one on every Python.
PY310 = sys.version_info < (3, 11)
NEWER_PYTHON = {
    # 3.11: math.pow(0.0, -inf) is inf; 3.10 raised ValueError
    "pow": lambda x, y=None: PY310 and x == 0 and y == -math.inf,
}


def in_this_python(row):
    """Skips a row naming a function this Python or NumPy lacks (math.exp2
    and math.cbrt are 3.11's; numpy.row_stack left NumPy after 2.4), or
    Numba's where Numba is not installed (numba.np.random.generator_core's:
    code written for Numba calls them)."""
    if row[1] is None:
        return
    if row[1].split(".")[0] == "numba" and importlib.util.find_spec("numba") is None:
        pytest.skip(f"{row[1]} is Numba's, which is not installed")
    obj = importlib.import_module(row[1])
    for part in row[2].split("."):
        if not hasattr(obj, part):
            pytest.skip(f"{row[1]}.{row[2]} is not in Python {sys.version.split()[0]} with NumPy {np.__version__}")
        obj = getattr(obj, part)


def compare_math(row, f, args):
    """A description of the mismatch between f and f.py_func on args, or None.

    CPython's reference is computed on Python floats: its math functions take
    a float32 argument through __float__ (exactly), except math.trunc, which
    looks for a __trunc__ that numpy.float32 does not define."""
    py_args = [float(a) if isinstance(a, np.floating) else a for a in args]
    expected, got = outcome(f.py_func, py_args), outcome(f, args)
    what = f"{row[0]}{describe(args)}: expected {expected[1:]}, got {got[1:]}"
    if expected[0] == "raise":
        # a TypeError CPython raises on calling is ruchey's TypingError on compiling
        ok = got[0] == "raise" and (got[1] is expected[1] or
                                    (expected[1] is TypeError and got[1] is ruchey.TypingError))
        py_message = expected[2] in PY_MESSAGES or (expected[1] is ValueError and PY_314_MESSAGE.fullmatch(expected[2]))
        if not ok or (py_message and got[2] != expected[2]):
            return what
        return None
    e, g = expected[1], got[1]
    if isinstance(e, tuple):  # frexp, modf: each item as a result of its own
        if type(g) is not tuple or len(g) != len(e):
            return what
        bad = [compare_value(row, e[i], g[i], what) for i in range(len(e))]
        return next((b for b in bad if b), None)
    return compare_value(row, e, g, what, got[0])


def compare_value(row, e, g, what, got_kind="value"):
    if got_kind != "value" and not (isinstance(e, int) and not -2**63 <= e < 2**63):
        return what
    if isinstance(e, bool):
        return None if type(g) is bool and g == e else what
    if isinstance(e, int):
        if not -2**63 <= e < 2**63:  # beyond int64: OverflowError, ruchey's rule
            return None if got_kind == "raise" and g is OverflowError else what
        return None if type(g) is int and g == e else what
    if isinstance(e, float):
        if row[2] in LANCZOS and type(g) is float and math.isfinite(e) and e != 0.0:
            rel, abs_ = LANCZOS[row[2]]
            return None if abs(g - e) <= rel * abs(e) + abs_ else what
        ok = type(g) is float and same_float(e, g, row[2] in EXACT)
        return None if ok else what
    return f"{what}: unexpected CPython result {e!r}"


@pytest.mark.parametrize("row", MATH_ROWS, ids=row_id)
def test_math_function_matches_cpython(row):
    in_this_python(row)
    nargs = row[5]
    assert row[4] == nargs, f"{row[0]}: math functions take a fixed number of arguments"
    f = wrapper(row, nargs)
    known = KNOWN_MATH_BUGS.get(row[2], lambda *args: False)
    newer = NEWER_PYTHON.get(row[2], lambda *args: False)
    mismatches = [m for args in math_inputs(nargs, row[2])
                  if (m := compare_math(row, f, args)) and not known(*args) and not newer(*args)]
    assert not mismatches, f"{len(mismatches)} mismatches:\n" + "\n".join(mismatches[:30])


@pytest.mark.parametrize("x", [0.0, -0.0, 0])
def test_math_pow_of_zero_to_minus_infinity_is_infinity(x):
    f = wrapper(ROWS[("math.pow", "pow")], 2)
    if not PY310:  # 3.10's raised ValueError
        assert f.py_func(x, -math.inf) == math.inf
    assert f(x, -math.inf) == math.inf


def test_math_isclose_takes_cpythons_tolerances():
    f = define("import math\nimport ruchey\n\n@ruchey.njit\ndef f(a, b, r, t):\n"
               "    return math.isclose(a, b, rel_tol=r, abs_tol=t), math.isclose(a, b, abs_tol=t)\n")
    for args in itertools.product([1.0, 1.05, 0.0, -1e-12, math.inf, math.nan], [1.0, 0.0, math.inf],
                                  [1e-9, 0.1, 0.0], [0.0, 1e-9, 0.1]):
        assert f(*args) == f.py_func(*args), args
    for bad in [(1.0, 1.0, -0.1, 0.0), (1.0, 1.0, 0.1, -1.0)]:
        with pytest.raises(ValueError, match="tolerances must be non-negative"):
            f(*bad)


# Every function of the math module on numbers (the README promises "every
# math function").
MATH_PROMISED = ["sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
                 "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
                 "erf", "erfc", "gamma", "lgamma", "cbrt", "fabs", "floor", "ceil", "trunc",
                 "isnan", "isinf", "isfinite", "degrees", "radians", "atan2", "hypot", "copysign",
                 "fmod", "pow", "ldexp", "frexp", "modf", "remainder", "isclose", "factorial",
                 "nextafter", "ulp", "gcd", "lcm"]
MATH_ARITY = {"atan2": 2, "hypot": 2, "copysign": 2, "fmod": 2, "pow": 2, "ldexp": 2, "remainder": 2,
              "isclose": 2, "nextafter": 2, "gcd": 2, "lcm": 2}


@pytest.mark.parametrize("name", MATH_PROMISED)
def test_math_function_has_a_row(name):
    if not hasattr(math, name):
        pytest.skip(f"math.{name} is not in this Python")
    found = [r for r in MATH_ROWS if r[2] == name]
    assert found, f"math.{name} has no row in the builtins' table"
    arity = MATH_ARITY.get(name, 1)
    assert (found[0][4], found[0][5]) == (arity, arity), found[0]


@pytest.mark.parametrize("row", rows(lambda r: r[1] is not None), ids=row_id)
def test_row_names_an_existing_python_object(row):
    in_this_python(row)
    obj = importlib.import_module(row[1])
    for part in row[2].split("."):
        obj = getattr(obj, part)
    assert "nocall" in row[6] or callable(obj), row


def test_table_rows_are_well_formed():
    known_flags = {"pure", "raises", "cheap", "allocates", "kernel", "varies", "thread_index", "per_block",
                   "barrier", "block_memory", "per_thread", "nocall", "range", "parallel", "warp",
                   "strings", "grid", "none", "blas"}
    assert len(TABLE) > 0
    for row in TABLE:
        name, module, path, kind, lo, hi, flags = row
        assert kind in ("function", "method", "attribute"), row
        assert 0 <= lo <= hi, row
        assert set(flags) <= known_flags, row
        if kind == "attribute" or "nocall" in flags:
            assert lo == hi == 0, row
        if "per_block" in flags:
            assert "thread_index" in flags, row
    assert len(set((r[1], r[2], r[3]) for r in TABLE if r[1])) == len([r for r in TABLE if r[1]])


# ---------------------------------------------------------------- numpy.*: NumPy on scalars

# (rows without a path, "numpy.sum of complex" ..., are reached through their
# family's row, with complex arguments: tested in test_complex_reductions.py)
NUMPY_ALLOC_ROWS = rows(lambda r: "allocates" in r[6] and (r[1] == "numpy" or r[1] is None) and r[2] is not None)
# numpy's functions of numbers (ufuncs): the pure rows; the others are shape
# functions and views, tested in test_shapes.py and test_creation.py
NUMPY_SCALAR_ROWS = rows(lambda r: r[1] == "numpy" and r[3] == "function" and "pure" in r[6])

NUMPY_FLOATS = [0.5, 1.5, 2.0, 3.7, 10.0, 100.25, 1e-10, 123456.789, 0.0, -0.0, -0.5, -1.0, -1.5,
                -2.5, -100.25, 1.0, 0.99, -0.99, 1.01, 1e308, -1e308, 710.0, 1000.0, 89.0, 5e-324,
                math.inf, -math.inf, math.nan]
NUMPY_INT64 = [0, 1, -1, 2, -2, 3, 7, -7, 100, -1000, 10**6, 2**31, 2**62, -2**62, 2**63 - 1,
               -2**63]
# not -32768: ruchey does integer arithmetic in 64 bits (as Numba; see the
# README), so numpy.absolute(int16(-32768)) is 32768, not NumPy's wrapped -32768
NUMPY_INT16 = [0, 1, -1, 2, -2, 3, 7, -7, 100, -1000, 32767, -32767]
NUMPY_PAIR_FLOATS = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e308, 5e-324, math.inf, -math.inf,
                     math.nan]
NUMPY_PAIR_INTS = [0, 1, -1, 2, -3, 7, 62, 2**40, -2**63]

DTYPES = {"float64": np.float64, "float32": np.float32, "int64": np.int64, "int16": np.int16}


def scalars(dtype, values):
    with np.errstate(all="ignore"):  # 1e308 as float32 is inf
        return [DTYPES[dtype](v) for v in values]


def numpy_inputs(nargs, dtypes):
    if nargs == 1:
        dtype, = dtypes
        values = {"int64": NUMPY_INT64, "int16": NUMPY_INT16}.get(dtype, NUMPY_FLOATS)
        return [(x,) for x in scalars(dtype, values)]
    if nargs in (2, 3):
        pools = [scalars(d, NUMPY_PAIR_INTS if d.startswith("int") else NUMPY_PAIR_FLOATS)
                 for d in dtypes]
        return list(itertools.product(*pools))
    raise AssertionError(f"no inputs for {nargs}-argument numpy functions: add them here")


def numpy_dtype_cases(row):
    """(row, dtypes) for every combination of argument dtypes tested: of the
    row's required arguments (nan_to_num's keywords keep their defaults
    here; their own tests are test_numpy_more.py's)."""
    nargs = row[4]
    if nargs == 1:
        combos = [("float64",), ("float32",), ("int64",), ("int16",)]
    else:
        same = [(d,) * nargs for d in ("float64", "float32", "int64")]
        mixed = [("float32", "float64"), ("float32", "int64"), ("int64", "float64")]
        combos = same + [c for c in mixed if len(c) == nargs]
    return [(row, c) for c in combos]


# NumPy 2.3 on keeps ints ints in floor, ceil and trunc, as ruchey does; NumPy
# 1.x gave floats: a deviation only with such a NumPy
NUMPY_ROUNDS_INTS_TO_INTS = np.floor(np.int64(1)).dtype.kind == "i"
_ROUNDING_OF_INTS = ("ruchey deviation: numpy.{0} of an integer keeps the integer type (NumPy "
                     "2.3's rule); the installed NumPy gives a float")

# (path, dtypes) where ruchey is known to differ from NumPy: strict xfails, so a
# fix shows up as an XPASS.
KNOWN_NUMPY_BUGS = {
}
if not NUMPY_ROUNDS_INTS_TO_INTS:
    for _name in ("floor", "ceil", "trunc"):
        for _dtype in ("int64", "int16"):
            KNOWN_NUMPY_BUGS[(_name, (_dtype,))] = _ROUNDING_OF_INTS.format(_name)


# Sub-cases where ruchey is known to differ from NumPy; each has its own
# strict-xfail test below (see KNOWN_MATH_BUGS).
KNOWN_NUMPY_SUBCASES = {
}

# NumPy 1.x's fmin and fmax of opposite zeros give the other zero; its clip
# needs a_min and a_max, where NumPy 2's clip(x) is x (its bounds with None:
# tests/test_clip.py)
NUMPY1_DIFFERS = {"fmin", "fmax", "clip"}


def numpy_cases():
    cases = []
    for row in NUMPY_SCALAR_ROWS:
        for row_, dtypes in numpy_dtype_cases(row):
            marks = []
            reason = KNOWN_NUMPY_BUGS.get((row[2], dtypes))
            if reason:
                marks.append(pytest.mark.xfail(strict=True, reason=reason))
            if row[2] in NUMPY1_DIFFERS:
                marks.append(numpy2_only)
            cases.append(pytest.param(row_, dtypes, marks=marks, id=f"{row_id(row)}-{'-'.join(dtypes)}"))
    return cases


def numpy_on_arrays(np_fn):
    """np_fn applied to one-element arrays of its scalar arguments' dtypes."""
    def apply(*args):
        return np_fn(*[np.array([a]) for a in args])[0]
    return apply


def compare_numpy(row, f, args):
    """A description of the mismatch between f and NumPy's function on args, or None.

    NumPy's scalar and array code paths do not always agree
    (numpy.power(float64(-0.0), float64(0.5)) is -0.0 and numpy.power(-inf,
    0.5) nan on scalars -- a square root --, 0.0 and inf on arrays, as C's
    pow): where NumPy's scalar answer is not matched, its answer on
    one-element arrays is accepted too."""
    np_fn = getattr(np, row[2])
    got = outcome(f, args)
    mismatch = compare_numpy_outcome(row, args, outcome(np_fn, args), got)
    if mismatch and not compare_numpy_outcome(row, args, outcome(numpy_on_arrays(np_fn), args), got):
        return None
    return mismatch


def compare_numpy_outcome(row, args, expected, got):
    what = f"{row[0]}{describe(args)}: expected {expected[1:]}, got {got[1:]}"
    if expected[0] == "raise":
        # NumPy's TypeError for a dtype it has no loop for is ruchey's TypingError,
        # raised when the function is compiled
        no_loop = issubclass(expected[1], TypeError) and got[1] is ruchey.TypingError  # NumPy's _UFuncNoLoopError too
        return None if got[0] == "raise" and (got[1] is expected[1] or no_loop) else what
    e, g = expected[1], got[1]
    if got[0] != "value" and not (isinstance(e, int) and not -2**63 <= e < 2**63):
        return what
    kind = np.asarray(e).dtype.kind
    if kind == "b":
        return None if type(g) is bool and g == bool(e) else what
    if kind in "iu":
        return None if type(g) is int and g == int(e) else what
    if kind != "f":
        return f"{row[0]}{describe(args)}: unexpected NumPy result {e!r}"
    if type(g) is not float:
        return what
    exact = row[2] in EXACT
    if np.asarray(e).dtype == np.float32:
        # NumPy's float32 degrees/radians multiply by 180f/pi_f and pi_f/180f,
        # computed in float32 (57.295776 where float32(180/pi) is 57.29578)
        exact = exact and row[2] not in ("degrees", "radians")
        if float(np.float32(g)) != g and not math.isnan(g):
            return what + " (not a float32 value)"
        ulp32 = lambda v: float(np.spacing(np.float32(abs(v))))  # noqa: E731
        return None if same_float(float(e), g, exact, ULPS32, ulp32) else what
    return None if same_float(float(e), g, exact) else what


@pytest.mark.parametrize("row, dtypes", numpy_cases())
def test_numpy_function_matches_numpy_on_scalars(row, dtypes):
    nargs = row[4]
    f = wrapper(row, nargs)
    known = KNOWN_NUMPY_SUBCASES.get(row[2], lambda *args: False)
    mismatches = [m for args in numpy_inputs(nargs, dtypes)
                  if (m := compare_numpy(row, f, args)) and not known(*args)]
    assert not mismatches, f"{len(mismatches)} mismatches:\n" + "\n".join(mismatches[:30])


@pytest.mark.parametrize("name, x, y", [("minimum", -0.0, 0.0), ("maximum", 0.0, -0.0)])
def test_numpy_minimum_maximum_of_opposite_zeros_give_the_second_argument(name, x, y):
    f = wrapper(ROWS[(f"numpy.{name}", name)], 2)
    np_fn = getattr(np, name)
    for a, b in [(x, y), (np.float32(x), np.float32(y))]:
        expected = np_fn(a, b)
        assert math.copysign(1, np_fn(np.array([a]), np.array([b]))[0]) == math.copysign(1, expected)
        assert math.copysign(1, f(a, b)) == math.copysign(1, expected), (a, b)


# ---------------------------------------------------------------- allocating rows

# Rows whose arguments the rules of alloc_args cannot make: skipped, by name,
# with the reason (none at present).
ALLOC_NOT_GENERATED = {
}


# Rows whose arguments no rule of alloc_args fits, by name: their argument
# expressions.
ALLOC_ARGS = {
    "array.astype": ["a", "numpy.float32"],
    "array.repeat": ["a", "2"],
    "numpy.linspace": ["0.0", "1.0", "n"],
    "numpy.lexsort": ["(a, a[::-1])"],
    "numpy.concatenate": ["(a, a)"],
    "numpy.stack": ["(a, a)"],
    "numpy.hstack": ["(a, a)"],
    "numpy.vstack": ["(a, a)"],
    "numpy.row_stack": ["(a, a)"],
    "numpy.column_stack": ["(a, a)"],
    "numpy.roll": ["a", "2"],
    "numpy.tile": ["a", "2"],
    "numpy.repeat": ["a", "2"],
    "numpy.where": ["a", "a", "0.0"],
    "numpy.nonzero": ["a"],
    "numpy.partition": ["a", "2"],
    "numpy.argpartition": ["a", "2"],
    "array.argpartition": ["a", "2"],
    "array.searchsorted": ["a", "2.5"],
    "numpy.digitize": ["a", "a"],
    "numpy.interp": ["a", "a", "a"],
    "numpy.bincount": ["numpy.arange(n)"],
    "numpy.cross": ["a[:3]", "a[3:]"],
    "numpy.vander": ["a"],
    "numpy.trapezoid": ["a"],
    "numpy.correlate": ["a", "a[:2]"],
    "numpy.matmul": ["a", "a"],
    "numpy.cov": ["a"],
    "numpy.corrcoef": ["a"],
    "numpy.dot": ["a", "a"],
    "numpy.inner": ["a", "a"],
    "numpy.vdot": ["a", "a"],
    "numpy.outer": ["a", "a"],
    "array.dot": ["a", "a"],
    "numpy.dstack": ["(a, a)"],
    "numpy.tril": ["a"],
    "numpy.triu": ["a"],
    "numpy.tril_indices_from": ["numpy.ones((n, n + 1))"],
    "numpy.triu_indices_from": ["numpy.ones((n, n + 1))"],
    "numpy.diag": ["a"],
    "numpy.take": ["a", "numpy.arange(n)"],
    "array.take": ["a", "numpy.arange(n)"],
    "numpy.take_along_axis": ["a", "numpy.argsort(a)", "0"],
    "numpy.resize": ["a", "(n, 2)"],
    "numpy.logspace": ["0.0", "3.0", "4"],  # powers of 10 exact in every pow (test_numpy_more.py: the others)
    "numpy.geomspace": ["1.0", "1000.0", "4"],  # the same (test_math_poly_attrs.py: the others)
    "numpy.unwrap": ["a"],
    "numpy.roots": ["numpy.array([2.0, 4.0, 0.0])"],  # an exact root (test_math_poly_attrs.py: the others)
    "numpy.select": ["[numpy.ones(n + 1, numpy.bool_)]", "[a]"],
    "numpy.indices": ["(n, 2)"],
    "numpy.delete": ["a", "1"],
    "numpy.insert": ["a", "1", "2.5"],
}


def numpy_parameters(path):
    """The names of NumPy's function's required parameters, or [] where it has no signature."""
    try:
        parameters = inspect.signature(getattr(np, path)).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in parameters if p.default is inspect.Parameter.empty]


def alloc_args(row):
    """Argument expressions for an allocating row, from the names ``a`` (a
    float64 array) and ``n`` (an int), or None when no rule fits.

    A row named in ALLOC_ARGS takes its arguments from there; a method is
    called on ``a``; a function named ``*_like`` or ``copy``, or whose first
    parameter NumPy names ``a`` or ``a1`` (sum, isclose, array_equal ...)
    takes ``a`` first, any other (empty, zeros, ones, full, arange) a size
    ``n``; further required arguments are ``a`` for a second array (``b``,
    ``a2``), 0.25 for a quantile ``q``, else 2.5 (full's fill value);
    required are the row's and NumPy's."""
    name, module, path, kind, lo, hi, flags = row
    if name in ALLOC_ARGS:
        return ALLOC_ARGS[name]
    if kind == "method" and lo == 0:
        return ["a"]
    if kind == "function" and 1 <= hi and lo <= 2:
        params = numpy_parameters(path) if module == "numpy" else []
        first = "a" if path.endswith("_like") or path == "copy" or params[:1] in (["a"], ["a1"]) else "n"
        more = {"b": "a", "a2": "a", "q": "0.25"}
        return [first] + [more.get(p, "2.5") for p in (params + [""] * lo)[1:max(lo, len(params), 1)]]
    return None


# NumPy 1.x has no numpy.trapezoid (it is trapz there) and gives meshgrid's
# arrays as a list (NumPy 2: a tuple, as ruchey)
ALLOC_NUMPY1_DIFFERS = {"numpy.trapezoid", "numpy.meshgrid"}


def alloc_cases():
    cases = []
    for row in NUMPY_ALLOC_ROWS:
        reason = ALLOC_NOT_GENERATED.get(row[0])
        marks = [pytest.mark.skip(reason=f"arguments not generated: {reason}")] if reason else []
        if row[0] in ALLOC_NUMPY1_DIFFERS:
            marks.append(numpy2_only)
        cases.append(pytest.param(row, marks=marks, id=row_id(row) if row[1] else row[0]))
    return cases


def alloc_source(row, decorator, store):
    """A function of (out, a, n) using the row; ``store`` says what to do with
    its result ``r``."""
    args = alloc_args(row)
    assert args is not None, (f"{row[0]}: no rule makes its arguments; add one to alloc_args "
                              f"or name the row in ALLOC_NOT_GENERATED")
    module = row[1]
    src = (f"import ruchey\nimport numpy\nfrom ruchey import cuda\n"
           + (f"import {module} as mod\n" if module else "")
           + f"\n@{decorator}\ndef f(out, a, n):\n    r = {call_source(row, args)}\n{store}")
    return define(src)


@pytest.mark.parametrize("row", alloc_cases())
def test_allocating_row_matches_numpy(row):
    in_this_python(row)
    f = alloc_source(row, "ruchey.njit", "    return r\n")
    out, a, n = np.zeros(1), np.arange(6.0) * 1.5 - 2.0, 5
    expected, got = f.py_func(out, a.copy(), n), f(out, a, n)
    if not isinstance(expected, np.ndarray):  # a reduction's number, numpy.nonzero's tuple
        assert_same_value(expected, got, what=row[0])
        return
    assert isinstance(got, np.ndarray) and got.dtype == expected.dtype and got.shape == expected.shape
    if "empty" not in row[2]:  # numpy.empty* leave the values undefined
        np.testing.assert_array_equal(got, expected, strict=True)
    if row[2] == "copy":
        got[0] = 42.0
        assert a[0] == -2.0, "a copy shares no memory with its original"


@pytest.mark.cpu_backend
@pytest.mark.parametrize("row", alloc_cases())
def test_allocating_row_is_refused_in_a_kernel(row):
    in_this_python(row)
    kernel = alloc_source(row, "cuda.jit", "    out[0] = 1.0\n")
    with pytest.raises(ruchey.TypingError, match="cannot allocate"):
        kernel[1, 1](np.zeros(1), np.arange(6.0), 5)


@pytest.mark.parametrize("row", alloc_cases())
def test_allocating_row_is_refused_in_a_kernel_compiled_for_the_gpu(row):
    from ruchey import cuda
    in_this_python(row)
    kernel = alloc_source(row, "cuda.jit", "    out[0] = 1.0\n")
    with pytest.raises(ruchey.TypingError, match="cannot allocate"):
        cuda.compile_ptx(kernel.py_func, "void(float64[::1], float64[::1], int64)")


# ---------------------------------------------------------------- kernel rows (ruchey.cuda)

KERNEL_ROWS = rows(lambda r: "kernel" in r[6])

# Rows whose arguments the rules of kernel_args cannot make: skipped, by name,
# with the reason.
KERNEL_NOT_GENERATED = {
    "cuda.const.array_like": "takes a NumPy array global to the module (test_kernels_memory.py)",
    "cuda.atomic.inc": "works on uint32 and uint64 arrays, the rules make int64 (test_kernels_atomic.py)",
    "cuda.atomic.dec": "works on uint32 and uint64 arrays, the rules make int64 (test_kernels_atomic.py)",
}


def kernel_args(row):
    """Argument expressions for a kernel intrinsic, from ``a`` (an int64
    array), or None when no rule fits: none for an index read without a call
    (cuda.threadIdx.x), a shape and a dtype for shared/local arrays, the
    constant 1 for cuda.grid/gridsize, an array, an index and values for the
    atomics and the cache-hinted loads and stores, a full member mask then
    1s for the warp collectives, 1s for the pure intrinsics of several
    numbers (fma, selp), a grid for its sync(), an element of ``a`` for a
    number's method (x.bit_count())."""
    name, module, path, kind, lo, hi, flags = row
    if kind == "method" and "grid" in flags:
        return ["cuda.cg.this_grid()"]
    if kind == "method" and hi == 0:
        return ["a[0]"]
    if "nocall" in flags or hi == 0:
        return []
    if "warp" in flags:
        return ["0xFFFFFFFF"] + ["1"] * (lo - 1) if lo else []
    if lo == hi and lo >= 2 and "pure" in flags:
        return ["1"] * lo
    if "block_memory" in flags:
        return ["4", "numpy.int64"]
    if lo == hi == 1:
        return ["1"]
    if lo == hi and lo >= 2:
        return ["a", "0"] + ["1"] * (lo - 2)
    return None


def kernel_cases():
    cases = []
    for row in KERNEL_ROWS:
        reason = KERNEL_NOT_GENERATED.get(row[0])
        marks = [pytest.mark.skip(reason=f"arguments not generated: {reason}")] if reason else []
        cases.append(pytest.param(row, marks=marks, id=row_id(row)))
    return cases


def kernel_imports(row):
    return "import ruchey\nimport numpy\nfrom ruchey import cuda\n" + (f"import {row[1]} as mod\n" if row[1] else "")


@pytest.mark.parametrize("row", kernel_cases())
def test_kernel_row_is_refused_outside_a_kernel(row):
    args = kernel_args(row)
    assert args is not None, (f"{row[0]}: no rule makes its arguments; add one to kernel_args "
                              f"or name the row in KERNEL_NOT_GENERATED")
    src = (kernel_imports(row) + f"\n@ruchey.njit\ndef f(a):\n"
           f"    {call_source(row, args)}\n    return 0\n")
    f = define(src)
    with pytest.raises(ruchey.TypingError, match=r"only valid inside a @cuda\.jit kernel"):
        f(np.zeros(4, np.int64))


@pytest.mark.cpu_backend
@pytest.mark.parametrize("row", kernel_cases())
def test_kernel_row_is_accepted_in_a_kernel(row):
    """The same use as above compiles and runs in a kernel (so the refusal
    above is about the place, not the arguments)."""
    from ruchey import cuda  # noqa: F401
    args = kernel_args(row)
    src = kernel_imports(row) + f"\n@cuda.jit\ndef f(a):\n    {call_source(row, args)}\n"
    kernel = define(src)
    kernel[1, 1](np.zeros(4, np.int64))
