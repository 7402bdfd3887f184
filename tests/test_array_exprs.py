"""Array expressions and NumPy's ufuncs on arrays in compiled code: the
operators between arrays and numbers, NumPy 2's dtypes (NEP 50's weak
Python numbers), broadcasting, every layout, in-place operators with
overlapping operands, ``out=``, NumPy's errors, and memory.

Each compiled function is compared with its own Python original run by
NumPy (``arraygen.check``: dtype, shape and values, and the arguments after
the call)."""
import gc
import re

import numpy as np
import pytest
import ruchey

from arraygen import DTYPES, array, check, define, values
from conftest import AS_NUMBA, NUMPY1, make_rng, rss_bytes, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="NumPy 2's promotion rules, which Numba does not follow")

RNG = make_rng(13)

BINARY = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"]
COMPARE = ["<", "<=", "==", "!=", ">", ">="]

# dtype pairs for every operator: each dtype with itself, and mixes of
# kinds and widths (signed with unsigned, ints with floats, bools)
MIXED = [(np.int8, np.uint8), (np.int16, np.uint32), (np.uint64, np.int64), (np.int32, np.float32),
         (np.int64, np.float32), (np.uint8, np.float32), (np.float32, np.float64), (np.bool_, np.int8),
         (np.bool_, np.float64), (np.int64, np.uint8), (np.uint16, np.int16)]
PAIRS = [(d, d) for d in DTYPES] + MIXED


def kind(dtype):
    return np.dtype(dtype).kind


def check_or_refused(f, *args, ulps=False):
    """check(f, *args), or, where NumPy has no loop for the operands' dtypes
    (a TypeError), ruchey's TypingError. With ulps, float results may differ
    in the last bits (NumPy's SIMD pow and exp are not libm's)."""
    try:
        with np.errstate(all="ignore"):
            expected = f.py_func(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    except TypeError:
        with pytest.raises(ruchey.TypingError):
            f(*args)
        return
    except OverflowError as e:  # a Python int the array's dtype cannot hold (NEP 50)
        with pytest.raises(OverflowError, match=re.escape(str(e))):
            f(*args)
        return
    if ulps and kind(expected.dtype) == "f":
        close_enough(expected, f(*args), f.py_func.__name__)
    else:
        check(f, *args)


def operands(op, da, db, shape=(23,)):
    """Values for a op b where NumPy's answer is defined: exponents and
    shift counts in range, everything else over the whole range (zero
    divisors included)."""
    a, b = values(RNG, da, shape), values(RNG, db, shape)
    if op == "**" and kind(db) in "iu":  # NumPy raises for negative integer powers
        b = (np.abs(b.astype(np.int64)) % 9).astype(db)
    if op in ("<<", ">>"):
        bits = 8 * max(np.dtype(da).itemsize, np.dtype(db).itemsize)
        b = (np.abs(b.astype(np.int64)) % (bits + 3)).astype(db)
    return a, b


def binary(op):
    return define(f"@ruchey.njit\ndef f(a, b):\n    return a {op} b\n")


BINARY_F = {op: binary(op) for op in BINARY + COMPARE}


@pytest.mark.parametrize("op", BINARY + COMPARE)
@pytest.mark.parametrize("da, db", PAIRS, ids=lambda d: np.dtype(d).name)
def test_operator_between_arrays_matches_numpy(op, da, db):
    f = BINARY_F[op]
    check_or_refused(f, *operands(op, da, db), ulps=op == "**")
    if op not in ("**", "<<", ">>"):
        check_or_refused(f, *operands(op, db, da)[::-1])


WEAK_SOURCES = {
    "int_literal": "a {op} 3",
    "int_literal_first": "3 {op} a",
    "float_literal": "a {op} 2.5",
    "bool_literal": "a {op} True",
    "negative_literal": "a {op} -2",
}


@pytest.mark.parametrize("source", list(WEAK_SOURCES))
@pytest.mark.parametrize("op", ["+", "-", "/", "//", "<"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_python_literals_are_weak(source, op, dtype):
    expr = WEAK_SOURCES[source].format(op=op)
    if kind(dtype) == "u" and "-2" in expr and NUMPY1 and op != "<":
        pytest.skip("NumPy 1.x casts -2 by its value to a signed dtype; ruchey raises NumPy 2's OverflowError")
    f = define(f"@ruchey.njit\ndef f(a):\n    return {expr}\n")
    check_or_refused(f, values(RNG, dtype, (17,)))


@pytest.mark.parametrize("value", [2, 2.5, True, 7])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_python_numbers_passed_as_arguments_are_weak(value, dtype):
    f = BINARY_F["*"]
    check(f, values(RNG, dtype, (9,)), value)
    check(f, value, values(RNG, dtype, (9,)))


OUT_OF_RANGE = [127, 128, 255, 256, 300, -1, -129, 65535, 70000, 2**31, -2**40, 2**62]


@pytest.mark.parametrize("op", ["+", "-", "*", "//", "&", "|", "max"] + COMPARE)
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint32, np.uint64], ids=lambda d: np.dtype(d).name)
def test_python_ints_a_small_dtype_cannot_hold(op, dtype):
    # NumPy 2 compares such an int whole (int8_array < 300 is all True) and
    # raises OverflowError for arithmetic (a wrapped 300 would be 44)
    expr = "np.maximum(a, {v})" if op == "max" else "a {op} {v}"
    f = define(f"@ruchey.njit\ndef f(a, n):\n    return {expr.format(op=op, v='n')}\n")
    a = values(RNG, dtype, (15,))
    a[:3] = np.array([0, 44, 127 if kind(dtype) == "i" else 255]).astype(dtype)
    for n in OUT_OF_RANGE:
        if NUMPY1 and op not in COMPARE:
            continue  # NumPy 1.x casts by the int's value to a wider dtype
        check_or_refused(f, a, n)
    for n in (300, -1, 70000):  # the same, written in the source
        if NUMPY1 and op not in COMPARE:
            continue
        lit = define(f"@ruchey.njit\ndef f(a, n):\n    return {expr.format(op=op, v=n)}\n")
        check_or_refused(lit, a, n)


def test_a_python_int_out_of_range_raises_before_the_in_place_update():
    f = define("@ruchey.njit\ndef f(a, n):\n    a += n\n    return a\n")
    a = np.arange(5, dtype=np.uint8)
    if not NUMPY1:
        check_or_refused(f, a, -1)
    with pytest.raises(OverflowError, match="Python integer 256 out of bounds for uint8"):
        f(a, 256)
    assert (a == np.arange(5)).all()
    check(f, a, 255)


WEAK_UFUNC_SOURCES = ["np.{f}(a, 3)", "np.{f}(2, a)", "np.{f}(a, 2.5)", "np.{f}(a, n)", "np.{f}(x, a)"]


@pytest.mark.parametrize("name", ["power", "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "copysign",
                                  "fmod", "logaddexp", "nextafter"])
@pytest.mark.parametrize("source", WEAK_UFUNC_SOURCES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.int64], ids=lambda d: np.dtype(d).name)
def test_python_numbers_yield_to_arrays_in_numpy_math_functions(name, source, dtype):
    f = define(f"@ruchey.njit\ndef f(a, n, x):\n    return {source.format(f=name)}\n")
    a = np.abs(values(RNG, dtype, (11,)))
    a[a == 0] = 1
    check_or_refused(f, a, 4, 1.5, ulps=True)


@pytest.mark.parametrize("name", ["power", "fmod", "maximum", "minimum", "fmax", "fmin"])
@pytest.mark.parametrize("da", [np.int8, np.int64, np.uint8], ids=lambda d: np.dtype(d).name)
def test_int_keeping_math_functions_of_signed_and_uint64_give_numpys_floats(name, da):
    # int8 or int64 with uint64 promote to float64: computed in floats, not ints
    f = define(f"@ruchey.njit\ndef f(a, b):\n    return np.{name}(a, b)\n")
    a = np.abs(values(RNG, da, (13,)))
    b = (np.abs(values(RNG, np.uint64, (13,)).astype(np.int64)) % 9).astype(np.uint64)
    check_or_refused(f, a, b, ulps=True)
    if not NUMPY1:  # (NumPy 1.x casts by the scalar's value: int8 with uint64(3) stays int8; NEP 50 makes it float64)
        check_or_refused(f, a, np.uint64(3), ulps=True)
    check_or_refused(f, b, a, ulps=True)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_unary_operators(dtype):
    neg = define("@ruchey.njit\ndef f(a):\n    return -a\n")
    inv = define("@ruchey.njit\ndef f(a):\n    return ~a\n")
    pos = define("@ruchey.njit\ndef f(a):\n    return +a\n")
    absolute = define("@ruchey.njit\ndef f(a):\n    return abs(a)\n")
    a = values(RNG, dtype, (4, 5))
    check(absolute, a)
    if kind(dtype) == "b":
        with pytest.raises(ruchey.TypingError, match="boolean negative"):
            neg(a)
    else:
        check(neg, a)
        check(pos, a)
    if kind(dtype) == "f":
        with pytest.raises(ruchey.TypingError):
            inv(a)
    else:
        check(inv, a)


def test_truth_of_an_array_is_numpys():
    """not a, and a condition on an array (fast_hdbscan's `if a[mask] >= x:`): its one element's truth; more
    elements (and, from NumPy 2.2 on, none) are NumPy's ValueError, as in Numba."""
    f = define("@ruchey.njit\ndef f(a):\n    return not a\n")
    g = define("@ruchey.njit\ndef f(a, x):\n    if a >= x:\n        return 1\n    return 0\n")
    for a in (np.ones(1), np.zeros(1), np.array([[2.5]]), np.array([True])):
        assert f(a) == f.py_func(a)
        assert g(a, 1.0) == g.py_func(a, 1.0)
    for a in (np.ones(3), np.ones((2, 2))):
        with pytest.raises(ValueError, match="more than one element is ambiguous"):
            f.py_func(a)
        with pytest.raises(ValueError, match="more than one element is ambiguous"):
            f(a)
        with pytest.raises(ValueError, match="more than one element is ambiguous"):
            g(a, 1.0)
    empty = np.ones(0)
    try:
        want = f.py_func(empty)
    except ValueError:
        with pytest.raises(ValueError, match="empty array is ambiguous"):
            f(empty)
    else:
        assert f(empty) == want


# ---------------------------------------------------------------- shapes and layouts

EXPR = define("@ruchey.njit\ndef f(a, b, c):\n    return a * b + c - 1.5\n")

BROADCASTS = [((5,), (5,), (5,)), ((3, 4), (4,), ()), ((3, 1), (1, 4), (4,)), ((2, 3, 4), (3, 1), (1, 1, 4)),
              ((0,), (1,), ()), ((3, 0), (0,), (3, 1)), ((1,), (6,), (1, 6)), ((), (), ()),
              ((4, 1, 3), (2, 1), (1,))]


@pytest.mark.parametrize("shapes", BROADCASTS, ids=str)
@pytest.mark.parametrize("layout", ["C", "F", "strided", "reversed"])
def test_broadcasting_every_layout(shapes, layout):
    args = [array(RNG, np.float64, s, layout) if s else np.float64(RNG.standard_normal()) for s in shapes]
    check(EXPR, *args)


@pytest.mark.parametrize("layout", ["C", "F", "strided", "reversed"])
def test_zero_dimensional_arrays(layout):
    check(EXPR, np.array(2.5), np.array(-1.0), array(RNG, np.float64, (3, 2), layout))


@ruchey.njit
def elementwise_results(a, b):
    return (a + b, np.sqrt(np.abs(a)), -b, a * 2.5, a < b, np.where(a > b, a, b), np.where(a > 0, 1.0, b), ~(a > 0),
            np.clip(a, -1, b))


@pytest.mark.parametrize("shape", [(4, 5), (3, 2, 6), (5, 1, 3)], ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_elementwise_results_of_fortran_operands_are_fortran_ordered(shape, dtype):
    # NumPy keeps its operands' order (order='K'): so does Numba where no operand is C-ordered
    a, b = (np.asfortranarray(values(RNG, dtype, shape)) for _ in range(2))
    got = check(elementwise_results, a, b, flags=True)
    assert all(r.flags.f_contiguous and not r.flags.c_contiguous for r in got)


@pytest.mark.parametrize("layouts", [("F", "C"), ("C", "F"), ("F", "strided"), ("strided", "reversed")])
def test_elementwise_results_with_other_operands_are_numpys_values(layouts):
    a, b = (array(RNG, np.float64, (6, 5), layout) for layout in layouts)
    got = elementwise_results(a, b)
    for g, want in zip(got, elementwise_results.py_func(a, b)):
        np.testing.assert_array_equal(g, want)
    # an F operand with a C one gives C, as Numba types it (NumPy's order='K' may keep F); with
    # a strided one F (Numba's 'A' yields)
    assert all(got[k].flags.c_contiguous == ("C" in layouts or "F" not in layouts) for k in (0, 4, 5))


@pytest.mark.parametrize("a, b", [((3,), (4,)), ((2, 3), (3, 2)), ((2, 1, 3), (4, 2))], ids=str)
def test_shapes_that_do_not_broadcast_raise_numpys_error(a, b):
    x, y = np.ones(a), np.ones(b)
    with pytest.raises(ValueError) as expected:
        x + y
    with pytest.raises(ValueError) as got:
        BINARY_F["+"](x, y)
    assert str(got.value) == str(expected.value)


FUSED = define("""
@ruchey.njit
def f(a, b, c, d, e):
    return a * b + c * d - e

@ruchey.njit
def g(x, y):
    return np.sqrt(x * x + y * y)

@ruchey.njit
def h(x, y):
    return np.where(x > y, np.exp(-x * x), (x - y) / 2)
""", name="f")


@pytest.mark.parametrize("n", [0, 1, 7, 1000, 100003])
def test_fused_expressions_equal_numpys_temporaries(n):
    ns = FUSED.py_func.__globals__
    args = [array(RNG, np.float64, (n,)) for _ in range(5)]
    check(ns["f"], *args)
    check(ns["g"], args[0], args[1])
    close_enough(ns["h"].py_func(args[0], args[1]), ns["h"](args[0], args[1]), "h")
    check(ns["g"], args[0].astype(np.float32), args[1].astype(np.float32))


def test_expression_of_2d_views_with_mixed_layouts():
    a = array(RNG, np.float64, (6, 8))
    f = define("@ruchey.njit\ndef f(a):\n    return a[1:, ::2] * a.T[::2, 1:].T + a[0]\n")
    with pytest.raises(ValueError):
        f.py_func(a)
    g = define("@ruchey.njit\ndef f(a):\n    return a[1:, ::2] * a.T[:4, :5].T + a[0, ::2]\n")
    check(g, a)
    check(g, np.asfortranarray(a))


# ---------------------------------------------------------------- in place


@pytest.mark.parametrize("op", ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"])
@pytest.mark.parametrize("da, db", PAIRS, ids=lambda d: np.dtype(d).name)
def test_augmented_assignment(op, da, db):
    f = define(f"@ruchey.njit\ndef f(a, b):\n    a {op}= b\n    return a\n")
    check_or_refused(f, *operands(op, da, db), ulps=op == "**")  # NumPy's same_kind rule, or no loop


OVERLAPS = {
    "shift_right": "a[1:] -= a[:-1]",
    "shift_left": "a[:-1] += a[1:]",
    "reversed": "a += a[::-1]",
    "itself": "a *= a",
    "transposed": "b += b.T",
    "strided_into_itself": "a[::2] += a[:(a.size + 1) // 2]",
}


@pytest.mark.parametrize("name", list(OVERLAPS))
def test_in_place_with_overlapping_operands_as_numpy(name):
    f = define(f"@ruchey.njit\ndef f(a, b):\n    {OVERLAPS[name]}\n    return a, b\n")
    check(f, array(RNG, np.float64, (10,)), array(RNG, np.float64, (4, 4)))
    check(f, np.arange(11), np.arange(16).reshape(4, 4))


def test_in_place_broadcasts_into_the_target_and_refuses_the_reverse():
    f = define("@ruchey.njit\ndef f(a, b):\n    a += b\n    return a\n")
    check(f, array(RNG, np.float64, (3, 4)), array(RNG, np.float64, (4,)))
    a, b = np.ones((1, 4)), np.ones((3, 4))
    with pytest.raises(ValueError) as expected:
        f.py_func(a.copy(), b)
    with pytest.raises(ValueError) as got:
        f(a, b)
    assert str(got.value) == str(expected.value)
    with pytest.raises(ruchey.TypingError, match="dimensions"):
        f(np.ones(4), np.ones((3, 4)))


def test_in_place_float_into_int_is_refused_as_numpy_same_kind():
    f = define("@ruchey.njit\ndef f(a, b):\n    a += b\n    return a\n")
    with pytest.raises(ruchey.TypingError, match="same_kind"):
        f(np.arange(3), np.ones(3))


# ---------------------------------------------------------------- ufuncs


def ufunc_rows():
    """The builtin table's NumPy functions that are elementwise NumPy ufuncs
    (not generalised ones such as matmul, whose tests are test_linalg.py's)."""
    names = set()
    for row in ruchey._core.builtins():
        name, module, path = row[0], row[1], row[2]
        u = getattr(np, path, None) if module == "numpy" else None
        if isinstance(u, np.ufunc) and u.signature is None:
            names.add(path)
    return sorted(names)


UFUNCS = ufunc_rows()
# dtypes whose float results NumPy makes float16, which ruchey has not: float32
HALF_INPUTS = {np.bool_, np.int8, np.uint8}


def ufunc_inputs(name, dtype, shape=(31,)):
    u = getattr(np, name)
    rng = make_rng(seed_of(name, np.dtype(dtype).name, shape))  # the same inputs in any order of the tests
    args = [values(rng, dtype, shape) for _ in range(u.nin)]
    if name in ("power", "float_power", "left_shift", "right_shift", "ldexp") and kind(dtype) in "iu":
        args[1] = (np.abs(args[1].astype(np.int64)) % 7).astype(dtype)
    return args


def close_enough(expected, got, what):
    assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype} != {expected.dtype}"
    assert got.shape == expected.shape
    if kind(expected.dtype) != "f":
        np.testing.assert_array_equal(got, expected, err_msg=what)
        return
    # libm's and NumPy's SIMD loops differ in the last bits of some functions
    ulps = np.finfo(expected.dtype).eps * 4
    np.testing.assert_allclose(got, expected, rtol=ulps, atol=0, equal_nan=True, err_msg=what)


def test_the_table_has_the_issues_ufuncs():
    wanted = {"sqrt", "exp", "log", "sin", "arctan2", "hypot", "floor", "ceil", "trunc", "rint", "sign",
              "isnan", "isinf", "isfinite", "maximum", "minimum", "fmax", "fmin", "power", "mod", "absolute",
              "negative", "square", "reciprocal", "logical_and", "logical_or", "logical_xor", "logical_not",
              "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "add", "subtract",
              "multiply", "divide", "floor_divide", "remainder", "greater", "less_equal", "equal", "invert"}
    assert wanted <= set(UFUNCS), sorted(wanted - set(UFUNCS))


@pytest.mark.parametrize("name", UFUNCS)
@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.int64, np.uint32, np.float32, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_ufunc_on_arrays_matches_numpy(name, dtype):
    u = getattr(np, name)
    params = ", ".join(f"x{i}" for i in range(u.nin))
    f = define(f"@ruchey.njit\ndef f({params}):\n    return np.{name}({params})\n")
    args = ufunc_inputs(name, dtype)
    try:
        with np.errstate(all="ignore"):
            expected = f.py_func(*args)
    except (TypeError, ValueError):
        with pytest.raises((ruchey.TypingError, ValueError)):
            f(*args)
        return
    outputs = expected if u.nout > 1 else (expected,)  # divmod's quotient and remainder
    if any(e.dtype == np.float16 for e in outputs):
        pytest.skip("NumPy's float16 result: ruchey has no float16 and gives float32")
    if NUMPY1 and name in ("floor", "ceil", "trunc") and np.dtype(dtype).kind in "iu":
        pytest.skip("NumPy 1.x rounds integers to floats: ruchey keeps their dtype, as NumPy 2")
    got = f(*args)
    assert len(got) == u.nout if u.nout > 1 else True
    for e, g in zip(outputs, got if u.nout > 1 else (got,)):
        close_enough(e, g, f"numpy.{name}({np.dtype(dtype).name})")


@pytest.mark.parametrize("name", ["sqrt", "add", "maximum", "logical_and", "sin", "less"])
def test_ufunc_out_argument(name):
    u = getattr(np, name)
    params = ", ".join(f"x{i}" for i in range(u.nin))
    f = define(f"@ruchey.njit\ndef f(out, {params}):\n    r = np.{name}({params}, out=out)\n    return r\n")
    args = [np.abs(array(RNG, np.float64, (4, 5))) for _ in range(u.nin)]
    out = np.zeros((4, 5), dtype=u(*args).dtype)
    got = f(out, *args)
    assert got is out or np.shares_memory(got, out)
    close_enough(u(*args), out, name)
    # broadcast into a larger output, and into a strided view
    out2 = np.zeros((3, 4, 5), dtype=out.dtype)
    f(out2, *args)
    close_enough(np.broadcast_to(u(*args), (3, 4, 5)), out2, name)
    big = np.zeros((8, 10), dtype=out.dtype)
    f(big[::2, ::2], *args)
    close_enough(u(*args), big[::2, ::2], name)


@pytest.mark.parametrize("name", ["sqrt", "add", "multiply", "logical_and", "sign", "arctan2", "less"])
def test_ufunc_output_given_by_position(name):
    u = getattr(np, name)
    params = ", ".join(f"x{i}" for i in range(u.nin))
    f = define(f"@ruchey.njit\ndef f(out, {params}):\n    r = np.{name}({params}, out)\n    return r\n")
    args = [np.abs(array(RNG, np.float64, (4, 5))) for _ in range(u.nin)]
    out = np.zeros((4, 5), dtype=u(*args).dtype)
    check_or_refused(f, out, *args, ulps=True)  # (arctan2: libm's and NumPy 1's SIMD loop differ in the last bit)
    assert f(out, *args) is out or np.shares_memory(f(out, *args), out)
    check_or_refused(f, np.zeros((2, 4, 5), dtype=out.dtype), *args, ulps=True)  # broadcast into a larger output
    # numbers into an array: each element of out set to the number's result
    check_or_refused(f, np.zeros(6, dtype=out.dtype), *[1.5] * u.nin, ulps=True)


def test_ufunc_output_by_position_errors():
    f = define("@ruchey.njit\ndef f(x, out):\n    return np.sign(x, out)\n")
    with pytest.raises(ruchey.TypingError, match="out= must be an array"):
        f(np.ones(3), 1.0)
    with pytest.raises(ValueError):
        f(np.ones(3), np.zeros(4))
    g = define("@ruchey.njit\ndef f(x, out):\n    return np.sign(x, out, out)\n")
    with pytest.raises(ruchey.TypingError, match="takes 1 argument"):
        g(np.ones(3), np.zeros(3))
    h = define("@ruchey.njit\ndef f(x, out):\n    return np.sign(x, out, out=out)\n")
    with pytest.raises(ruchey.TypingError):
        h(np.ones(3), np.zeros(3))


def test_out_may_be_an_input_and_may_be_of_a_wider_dtype():
    f = define("@ruchey.njit\ndef f(x, y):\n    np.multiply(x, 2.0, out=x)\n    np.add(x, y, out=y)\n    return y\n")
    x, y = array(RNG, np.float64, (9,)), array(RNG, np.float64, (9,))
    check(f, x, y)
    g = define("@ruchey.njit\ndef f(x, out):\n    return np.sqrt(x, out=out)\n")
    check(g, np.arange(5.0), np.zeros(5, np.float32))
    check(g, np.arange(5), np.zeros(5))


def test_out_errors_as_numpy():
    g = define("@ruchey.njit\ndef f(x, out):\n    return np.sqrt(x, out=out)\n")
    for x, out in [(np.ones(3), np.ones(4)), (np.ones((2, 3)), np.ones((1, 3)))]:
        with pytest.raises(ValueError) as expected:
            np.sqrt(x, out=out)
        with pytest.raises(ValueError) as got:
            g(x, out)
        assert str(got.value) == str(expected.value)
    with pytest.raises(ruchey.TypingError, match="same_kind"):
        g(np.ones(3), np.zeros(3, np.int64))
    with pytest.raises(ruchey.TypingError, match="out= must be an array"):
        g(np.ones(3), 1.0)
    h = define("@ruchey.njit\ndef f(x, m):\n    return np.sqrt(x, where=m)\n")
    with pytest.raises(ruchey.TypingError, match="where"):
        h(np.ones(3), np.ones(3, np.bool_))


def test_operator_ufuncs_on_numbers_follow_numpy():
    f = define("@ruchey.njit\ndef f(a, b):\n    return np.floor_divide(a, b), np.remainder(a, b), np.divide(a, b)\n")
    for a, b in [(7, 0), (-7, 2), (7.5, 0.0), (-1.0, 0.0), (0.0, 0.0)]:
        check(f, a, b)


def test_integers_to_negative_powers_raise_numpys_error():
    f = BINARY_F["**"]
    a, b = np.arange(1, 5), np.array([1, 2, -1, 0])
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        f(a, b)


@ruchey.njit
def powers(a, b):
    return a ** b, np.power(a, b), a ** b * 2.0, np.logspace(-2.0, 3.0, 50)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_powers_are_the_c_librarys_pow_bit_for_bit(dtype):
    """Each element is C's pow (powf) of its pair, as a NumPy scalar's
    power and Numba's code give, not a vector pow an ulp away."""
    rng = make_rng(41)
    a = (rng.random(3000) * 10).astype(dtype)
    b = (rng.random(3000) * 8 - 4).astype(dtype)
    a[::97], b[::89], a[::83], b[::83] = 0.0, np.nan, -2.0, 3.0
    with np.errstate(all="ignore"):
        expected = np.array([x ** y for x, y in zip(a, b)], dtype=dtype)
    got = powers(a, b)
    for k in range(2):
        assert got[k].tobytes() == expected.tobytes()
    assert got[2].tobytes() == (expected * dtype(2.0)).tobytes()
    assert got[3].tolist() == [10.0 ** x for x in np.linspace(-2.0, 3.0, 50).tolist()]
    assert powers(a[:0], b[:0])[0].size == 0


# ---------------------------------------------------------------- where arrays cannot be


def test_array_expressions_in_kernels_are_refused():
    from ruchey import cuda
    k = define("from ruchey import cuda\n@cuda.jit\ndef f(a, b):\n    b[:] = a * 2.0\n")
    with pytest.raises(ruchey.TypingError, match="kernel"):
        k[1, 1](np.ones(3), np.ones(3))
    assert cuda is not None


def test_arrays_of_other_types_are_refused_clearly():
    f = BINARY_F["+"]
    # a list is an argument (Numba's reflected list), but no array operand
    with pytest.raises(ruchey.TypingError, match=r"array expression is not supported on ListType\[int64\]"):
        f(np.ones(3), [1, 2])
    # a tuple is an argument (as in Numba), but no array operand
    with pytest.raises(ruchey.TypingError, match=r"array expression is not supported on \(int64, int64\)"):
        f(np.ones(3), (1, 2))


# ---------------------------------------------------------------- memory

MANY = define("""
@ruchey.njit
def f(a, n):
    s = 0.0
    for i in range(n):
        b = a * 2.0 + a
        s += (b - a)[0] + np.sqrt(b + 1.0)[1]
    return s

@ruchey.njit
def g(a, e):
    return a ** e
""")


def test_a_million_temporaries_run_in_flat_memory():
    a = np.ones(64)
    MANY(a, 1000)
    gc.collect()
    assert MANY(a, 1000) == MANY.py_func(a, 1000)
    before = rss_bytes()
    assert MANY(a, 10**6) == 1000 * MANY(a, 1000)
    after = rss_bytes()
    if before is not None:
        assert after - before < 16 * 2**20, f"memory grew by {(after - before) >> 20} MiB"


def test_an_element_that_raises_releases_the_result():
    g = MANY.py_func.__globals__["g"]
    a, e = np.arange(10_000), np.full(10_000, -1)
    e[:5000] = 1
    for _ in range(3):
        with pytest.raises(ValueError):
            g(a, e)
    gc.collect()
    before = rss_bytes()
    for _ in range(2000):  # 80 KB each if the result leaked
        with pytest.raises(ValueError):
            g(a, e)
    after = rss_bytes()
    if before is not None:
        assert after - before < 32 * 2**20, f"memory grew by {(after - before) >> 20} MiB"


def test_large_results_called_again_and_again_never_share_memory():
    """A freed large result's memory serves the next one of its size: never
    one still alive, and each holds its own values."""
    f = ruchey.njit(lambda x, y: np.sqrt(x * x + y * y))
    rng = make_rng(seed_of("large_results_again"))
    x, y = rng.random(10**6), rng.random(10**6)
    kept = []
    for step in range(6):
        r = f(x + step, y)
        assert np.array_equal(r, f.py_func(x + step, y))
        assert not any(np.shares_memory(r, k) for k in kept)
        if step % 2:
            kept.append(r)
    for step, k in zip((1, 3, 5), kept):
        assert np.array_equal(k, f.py_func(x + step, y))
    del kept
    gc.collect()
    before = rss_bytes()
    for step in range(50):
        f(x, y)
    after = rss_bytes()
    if before is not None:
        assert after - before < 32 * 2**20, f"memory grew by {(after - before) >> 20} MiB"
