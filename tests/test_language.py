"""The nopython subset beyond the seed: dtypes, dimensions, layouts, views,
statements and expressions, each compared with the function's py_func."""
import math
import re

import numpy
import numpy as np
import pytest

import ruchey
from ruchey import njit

from conftest import (AS_NUMBA, assert_same, float_array, make_rng, math_domain_error, numba_deviation,
                      random_floats, random_ints, seed_of)

DTYPES = (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float32, np.float64)


@njit
def total_and_copy(a):
    out = np.empty_like(a)
    s = 0
    for i in range(a.shape[0]):
        out[i] = a[i]
        s += a[i]
    return s, out


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_dtype_reads_writes_and_sums(dtype):
    rng = make_rng(1)
    # small values: the sum fits every dtype (ruchey sums ints in 64 bits, as Numba)
    a = (rng.integers(0, 100, 37) % (2 if dtype is np.bool_ else 3)).astype(dtype)
    got_sum, got_copy = total_and_copy(a)
    exp_sum, exp_copy = total_and_copy.py_func(a)
    assert got_sum == exp_sum
    np.testing.assert_array_equal(got_copy, exp_copy, strict=True)


@njit
def sum2d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * (i + 1) - j
    return s


@pytest.mark.parametrize("make", [
    lambda a: a,                      # C
    lambda a: np.asfortranarray(a),   # F
    lambda a: a.T,                    # F view
    lambda a: a[::2, 1::3],           # strided
    lambda a: a[:, 1:2],              # a column block
], ids=["C", "F", "T", "strided", "column"])
def test_2d_layouts_index_like_numpy(make):
    a = make(float_array(make_rng(2), 12 * 9).reshape(12, 9))
    assert_same(sum2d, a)


def test_layouts_get_their_own_specialisations():
    @njit
    def first(a):
        return a[0, 0]
    a = np.arange(12.0).reshape(3, 4)
    for v in (a, np.asfortranarray(a), a[:, ::2]):  # not through assert_same: it copies
        assert first(v) == first.py_func(v)
    assert len(first.signatures) == 3


def test_three_dimensional_arrays_and_shape_tuples():
    @njit
    def cube(n):
        a = np.zeros((n, n + 1, 2), dtype=np.int32)
        d0, d1, d2 = a.shape
        for i in range(d0):
            for j in range(d1):
                for k in range(d2):
                    a[i, j, k] = i * 100 + j * 10 + k
        return a, a.ndim, a.size
    for n in (0, 1, 3):
        assert_same(cube, n)


def test_read_only_arrays_read_but_writing_is_a_typing_error():
    @njit
    def read(a):
        return a[1] * 2

    @njit
    def write(a):
        a[0] = 1.0
    a = np.arange(3.0)
    a.setflags(write=False)
    assert_same(read, a)
    with pytest.raises(ruchey.TypingError, match="read-only"):
        write(a)


def test_views_made_inside_slicing_like_python():
    @njit
    def views(a, i, j):
        s = 0.0
        b = a[i:j]
        for k in range(len(b)):
            s += b[k]
        return s, a[::-1], a[1:-1:2], a[j:i:-1], a[-3:]
    a = np.arange(10.0)
    for i, j in [(0, 10), (2, 5), (5, 2), (-4, -1), (0, 0), (-100, 100)]:
        assert_same(views, a, i, j)


def test_views_of_2d_rows_columns_and_blocks():
    @njit
    def parts(a):
        return a[1], a[1, :], a[:, 2], a[1:3, ::2], a[::-1, ::-1]
    assert_same(parts, np.arange(20.0).reshape(4, 5))


def test_writing_through_a_view_changes_the_base():
    @njit
    def fill_row(a, r, v):
        row = a[r]
        for j in range(len(row)):
            row[j] = v
        a[:, 0][r] = -v
    assert_same(fill_row, np.zeros((3, 4)), 1, 7.0)


def test_returned_view_of_a_local_array_keeps_its_memory():
    @njit
    def middle(n):
        a = np.arange(n)
        return a[1:n - 1]
    r = middle(1000)
    assert_same(middle, 1000)
    del middle
    assert r.sum() == sum(range(1, 999))


def test_tuple_build_unpack_index_and_return():
    @njit
    def tup(a, b):
        t = (a, b, a + b)
        x, y, z = t
        y, x = x, y
        return t[2], t[-1], x, y, z, (x, (y, z))
    assert_same(tup, 3, 4)
    assert_same(tup, 1.5, -2.0)


def test_break_continue_and_loop_else():
    @njit
    def search(a, target):
        found = -1
        for i in range(len(a)):
            if a[i] < 0:
                continue
            if a[i] == target:
                found = i
                break
        else:
            found = -2
        k = 0
        while k < 10:
            k += 1
            if k == 5:
                break
        else:
            k = 100
        return found, k
    a = np.array([3, -1, 5, 7, 5])
    for t in (5, 7, 9, -1):
        assert_same(search, a, t)


def test_several_returns_of_unifiable_types():
    @njit
    def sign(x):
        if x > 0:
            return 1
        elif x < 0:
            return -1.5
        return 0
    for x in (3, -2, 0):  # the returns unify to float64, as in Numba
        assert sign(x) == sign.py_func(x) and type(sign(x)) is float


def test_bit_operations_and_shifts_on_ints():
    @njit
    def bits(a, b):
        return a & b, a | b, a ^ b, ~a, a << (b & 31), a >> (b & 31), -a
    rng = make_rng(3)
    for a, b in zip(random_ints(rng, 40), random_ints(rng, 40)):
        assert_same(bits, a, abs(b))


def test_invert_of_a_bool_negates_it_as_numpy_and_numba():
    @njit
    def inverted(x, flags):
        link = x > 0
        return ~link, ~flags[0], (~link) * 2.5

    flags = np.array([True, False])
    for x in (-1.0, 0.0, 2.0):
        link = np.float64(x) > 0  # a NumPy bool, as an array's comparison gives
        assert inverted(x, flags) == (~link, ~flags[0], (~link) * 2.5)


def test_chained_comparisons_short_circuit_and_conditionals():
    @njit
    def logic(a, b, c):
        r1 = a < b <= c
        r2 = a == b or b > c and not c
        r3 = (a if a > b else b) if c else -1
        r4 = a and b
        r5 = a or c
        return r1, r2, r3, r4, r5
    vals = (-1, 0, 2)
    for a in vals:
        for b in vals:
            for c in vals:
                assert_same(logic, a, b, c)


def test_assert_raises_assertion_error_with_message():
    @njit
    def positive(x):
        assert x > 0, "x must be positive"
        assert x < 100
        return x
    assert_same(positive, 5)
    with pytest.raises(AssertionError, match="x must be positive"):
        positive(-1)
    with pytest.raises(AssertionError):
        positive(1000)


# (made by exec: pytest rewrites the asserts written in this file)
CHECKED = """
def checked(x):
    assert x != 1, f"x={x} is one"
    assert x < 100, "too big: " + str(x)
    assert x > -50, ("too small", x, x / 2)
    try:
        assert x != 7, f"{x} caught"
    except AssertionError:
        return -x
    return x
"""


def test_assert_messages_made_at_run_time_as_python():
    """The message is computed only where the assertion fails, then
    raised as AssertionError(message), with any value raise takes."""
    ns = {}
    exec(CHECKED, ns)
    checked = njit(ns["checked"])

    def outcome(f, x):
        try:
            return f(x)
        except AssertionError as e:
            return type(e), e.args

    for x in (0, 1, 7, 99, 100, 1000, -49, -50, -1234):
        assert outcome(checked, x) == outcome(checked.py_func, x), x


class MyError(Exception):
    pass


def test_raise_gives_the_exception_cpython_would():
    @njit
    def check(x):
        if x == 1:
            raise ValueError("one is not allowed")
        if x == 2:
            raise MyError("two")
        if x == 3:
            raise KeyError
        return x
    assert_same(check, 0)
    for x, exc, msg in ((1, ValueError, "one is not allowed"), (2, MyError, "two"), (3, KeyError, "")):
        with pytest.raises(exc) as info:
            check(x)
        with pytest.raises(exc) as py_info:
            check.py_func(x)
        assert str(info.value) == str(py_info.value) and msg in str(info.value)


@njit
def raise_assigned_exception(x):
    bad = ValueError("negative", 3)
    mine = MyError()
    if x < 0:
        raise bad
    if x == 0:
        raise mine
    return x


def test_raise_of_an_exception_assigned_before_gives_the_exception_cpython_would():
    assert_same(raise_assigned_exception, 5)
    for x, exc in ((-1, ValueError), (0, MyError)):
        with pytest.raises(exc) as info:
            raise_assigned_exception(x)
        with pytest.raises(exc) as py_info:
            raise_assigned_exception.py_func(x)
        assert info.value.args == py_info.value.args


@njit
def raise_exception_of_values_assigned_before(a, k):
    total = a.sum()
    err = IndexError("row", k, total, a.shape)
    k += 1  # the exception holds the values at its making
    total = -1.0
    if a.size < k:
        raise err
    return total + k


def test_raise_of_an_assigned_exception_of_values_gives_them_as_they_were_when_it_was_made():
    rng = make_rng(31)
    for n, k in ((3, 1), (2, 5), (0, 0), (4, 4)):
        a = rng.normal(size=n)
        try:
            want = raise_exception_of_values_assigned_before.py_func(a, k)
        except IndexError as e:
            with pytest.raises(IndexError) as info:
                raise_exception_of_values_assigned_before(a, k)
            assert info.value.args == e.args
        else:
            assert raise_exception_of_values_assigned_before(a, k) == want


@numba_deviation("numba's error or message differs")
def test_an_assigned_exception_used_as_a_value_or_assigned_twice_is_a_typing_error():
    def returned(x):
        e = ValueError("a")
        return e

    def twice(x):
        e = ValueError("a")
        if x:
            e = ValueError("b")
        raise e
    with pytest.raises(ruchey.TypingError, match="holds an exception"):
        njit(returned)(1)
    with pytest.raises(ruchey.TypingError, match="assigned an exception more than once"):
        njit(twice)(1)


@njit
def raise_with_tuples(a, k):
    if k == 0:
        raise ValueError("bad shape", a.shape)
    if k == 1:
        raise MyError((k, "two", (a.sum(), None)), ())
    if k == 2:
        raise IndexError(a.shape, len(a), (True,))
    return k


def test_exceptions_carry_tuples_among_their_arguments_as_python():
    rng = make_rng(12)
    for shape in ((3,), (2, 4), (0, 1, 2)):
        a = rng.standard_normal(shape)
        for k in range(3 if a.size else 1):
            with pytest.raises(Exception) as info:
                raise_with_tuples(a, k)
            with pytest.raises(Exception) as py_info:
                raise_with_tuples.py_func(a, k)
            assert type(info.value) is type(py_info.value) and info.value.args == py_info.value.args


@njit
def raise_deep(x):
    if x > 2:
        raise MyError("deep", x)
    return x


@njit
def raise_in_caller(x):
    y = raise_deep(x)
    if y == 1:
        raise ValueError(f"one {y}")
    assert y != 2, "two"
    try:
        raise KeyError(y)
    except KeyError:
        pass
    return y


def test_the_traceback_ends_at_the_compiled_raise_or_assert_as_python():
    import traceback

    def last_frames(f, x):
        with pytest.raises(Exception) as info:
            f(x)
        frames = traceback.extract_tb(info.value.__traceback__)
        message = str(info.value).split("\n")[0]  # (pytest writes more into a test module's assert messages)
        return [(fr.filename, fr.name, fr.lineno, fr.line) for fr in frames[-1:]], type(info.value), message

    for x in (1, 2, 3):
        assert last_frames(raise_in_caller, x) == last_frames(raise_in_caller.py_func, x)
    assert raise_in_caller(0) == 0  # a raise caught in compiled code leaves no frame behind
    with pytest.raises(ZeroDivisionError) as info:  # nor do runtime errors after it
        njit(lambda d: 1 // d)(0)
    assert traceback.extract_tb(info.value.__traceback__)[-1].name != "raise_in_caller"


def test_builtins_abs_min_max_int_float_bool_round():
    @njit
    def builtins(x, y):
        return abs(x), min(x, y), max(x, y, 0.5), int(x), float(y), bool(x), round(x), round(x, 2), round(y, -1)
    rng = make_rng(4)
    for x, y in zip(random_floats(rng, 30, special=False), random_floats(rng, 30, special=False)):
        assert_same(builtins, x, y)
    for x in (0.5, 1.5, 2.5, -0.5, -2.5, 3.7):
        assert_same(builtins, x, 1.0)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64])
def test_abs_of_an_int_keeps_its_type_as_numpy(dtype):
    """abs(int8(-128)) wraps to -128, as NumPy's scalar (and Numba) do."""
    @njit
    def absolute(x):
        return abs(x)

    info = np.iinfo(dtype)
    rng = make_rng(seed_of("abs", dtype.__name__))
    values = [info.min, info.max, 0, 1] + ([-1, info.min + 1] if info.min else []) + \
        list(rng.integers(info.min, info.max, 10, dtype=dtype, endpoint=True))
    for v in values:
        with np.errstate(over="ignore"):
            expected = abs(dtype(v))
        assert absolute(dtype(v)) == int(expected), (dtype, v)


@njit
def pow_mod(b, e, m):
    return pow(b, e, m)


def test_pow_with_a_modulus_as_python():
    """Squaring modulo |m| in 128 bits: exact for every int64; a negative
    exponent inverts the base; the result has the modulus's sign."""
    rng = make_rng(seed_of("pow_mod"))
    edges = [0, 1, -1, 2, -7, 10, 2**63 - 1, -2**63]
    bases = edges + random_ints(rng, 8, -10**12, 10**12)
    exponents = [0, 1, 2, 5, -1, -3, 2**63 - 1, -2**63] + random_ints(rng, 4, 0, 10**9)
    moduli = edges + random_ints(rng, 6, -10**15, 10**15)
    for b, e, m in zip(bases * 3, exponents * 3, moduli * 3):
        for args in ((b, e, m), (b, min(abs(e), 2**63 - 1), m), (b, e % 5, m)):
            try:
                expected = pow_mod.py_func(*args)
            except ValueError:
                with pytest.raises(ValueError):
                    pow_mod(*args)
                continue
            assert pow_mod(*args) == expected, args
    assert pow_mod(True, 2, np.int8(3)) == 1


def test_pow_with_a_modulus_needs_ints():
    with pytest.raises(TypeError):
        pow_mod.py_func(2.0, 3, 5)
    with pytest.raises(ruchey.TypingError, match="all arguments are integers"):
        pow_mod(2.0, 3, 5)
    with pytest.raises(ruchey.TypingError, match="not uint64"):  # (Python's answer past 2**63 needs more than int64)
        pow_mod(np.uint64(2**63 + 5), 2, 7)


MATH_1 = ["sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
          "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "gamma",
          "lgamma", "fabs", "floor", "ceil", "trunc", "isnan", "isinf", "isfinite", "degrees",
          "radians"]


def make_math(name, module):
    src = f"def f(x):\n    return {module}.{name}(x)\n"
    namespace = {module: math if module == "math" else np}
    code = compile(src, f"<{module}.{name}>", "exec")
    import linecache
    linecache.cache[f"<{module}.{name}>"] = (len(src), None, src.splitlines(True), f"<{module}.{name}>")
    exec(code, namespace)
    return njit(namespace["f"])


@pytest.mark.parametrize("name", MATH_1)
def test_math_functions_match_cpython_including_domain_errors(name):
    f = make_math(name, "math")
    values = [0.3, 0.9, 2.5, -0.7, -3.0, 0.0, -0.0, 1.0, 10.0, 1e-8, 700.0, math.inf, -math.inf, math.nan]
    for x in values:
        try:
            expected = f.py_func(x)
        except (ValueError, OverflowError) as exc:
            with pytest.raises(type(exc)):
                f(x)
            continue
        rel = None if name in ("fabs", "floor", "ceil", "trunc", "isnan", "isinf", "isfinite",
                               "sqrt") else 1e-14
        assert_same(f, x, rel=rel if isinstance(expected, float) and math.isfinite(expected) else None)


def test_math_two_argument_functions():
    @njit
    def two(x, y):
        return math.atan2(x, y), math.hypot(x, y), math.copysign(x, y), math.fmod(x, y), math.pow(x, y)
    for x, y in [(1.5, 2.0), (-3.0, 2.0), (2.0, -2.0), (0.0, 1.0), (-8.0, 3.0)]:
        assert_same(two, x, y, rel=1e-15)
    with pytest.raises(ValueError):
        two(-8.0, 0.5)
    assert math.pi == njit(lambda: math.pi)()  # constants of math are frozen


NUMPY_1 = ["sqrt", "exp", "log", "sin", "cos", "tanh", "arcsin", "floor", "ceil", "trunc", "rint",
           "absolute", "sign", "isnan", "isfinite", "cbrt"]


@pytest.mark.parametrize("name", NUMPY_1)
def test_numpy_scalar_functions_follow_numpy(name):
    f = make_math(name, "np")
    for x in (0.25, 2.0, -1.5, 0.0, -0.0, 4.0, math.inf, math.nan):
        with np.errstate(all="ignore"):
            expected = f.py_func(x)
        got = f(x)
        if isinstance(expected, np.bool_):
            assert got is bool(expected)
        else:
            assert (math.isnan(got) and math.isnan(expected)) or got == pytest.approx(float(expected), rel=1e-14)


def test_numpy_functions_keep_float32_and_integers():
    @njit
    def keep(x, k):
        return np.sqrt(x), np.absolute(k), np.sign(k), np.maximum(k, 3), np.minimum(x, x)
    r = keep(np.float32(2.0), -5)
    assert r[1:4] == (5, -1, 3)
    assert r[0] == pytest.approx(float(np.sqrt(np.float32(2.0))), rel=1e-7)


def test_float32_scalar_arithmetic_with_python_literals_is_float64_as_numbas():
    """A literal is a float64 (or an int64) in scalar arithmetic, as Numba
    types it and NumPy 1's scalars compute (NumPy 2, NEP 50, keeps float32
    there); an array expression keeps a float32 array float32, as both
    NumPys do."""
    @njit
    def scale(a):
        out = np.empty_like(a)
        for i in range(len(a)):
            out[i] = a[i] * 1.1 + 2
        return out, a[0] * 1.1, 1.0 - a[1], a * 1.1
    a = np.array([1.5, 2.25, -3.0, 0.1], dtype=np.float32)
    got, first, flux, whole = scale(a)
    np.testing.assert_array_equal(got, (a.astype(np.float64) * 1.1 + 2).astype(np.float32))
    assert first == float(a[0]) * 1.1 and flux == 1.0 - float(a[1])
    assert whole.dtype == np.float32
    np.testing.assert_array_equal(whole, a * np.float32(1.1))


def test_allocations_with_shapes_and_dtypes():
    @njit
    def alloc(n):
        a = np.zeros((n, 2), dtype=np.float32)
        b = np.ones(n, np.int16)
        c = np.empty((2, n))
        d = np.zeros_like(b, dtype=np.float64)
        e = np.ones_like(a)
        f = np.arange(n)
        g = np.arange(1, n, 2)
        h = np.arange(0.5, n, 0.25)
        i = np.arange(n, 0, -3, dtype=np.int8)
        return a, b, c.shape, d, e, f, g, h, i
    for n in (0, 1, 5):
        assert_same(alloc, n)
    with pytest.raises(ValueError, match="negative"):
        alloc(-1)


def test_dtype_from_an_array_allocates_alike():
    @njit
    def like(a):
        b = np.zeros(3, dtype=a.dtype)
        b[0] = a[0]
        return b
    assert_same(like, np.array([7], dtype=np.uint8))


def test_numpy_scalar_types_convert():
    @njit
    def conv(x):
        return np.float32(x), np.int32(x), np.uint8(x), np.float64(np.int64(x))
    assert conv(3.75) == (3.75, 3, 3, 3.0)


def test_calls_between_ruchey_functions_with_defaults_and_keywords():
    @njit
    def scaled(x, factor=2.0, offset=0):
        return x * factor + offset

    @njit
    def caller(x):
        return scaled(x) + scaled(x, 3.0) + scaled(x, offset=1) + scaled(offset=2, x=x, factor=0.5)
    for x in (0.0, 1.5, -4.0):
        assert_same(caller, x)
    assert len(scaled.signatures) == 1


def test_calls_pass_and_return_arrays():
    @njit
    def doubled(a):
        out = np.empty_like(a)
        for i in range(len(a)):
            out[i] = 2 * a[i]
        return out

    @njit
    def twice(a):
        return doubled(doubled(a))[1:]
    assert_same(twice, np.arange(6.0))


def test_self_recursion_where_a_plain_return_fixes_the_type():
    @njit
    def fib(n):
        if n < 2:
            return n
        return fib(n - 1) + fib(n - 2)

    @njit
    def fact(n):
        if n <= 1:
            return 1.0
        return n * fact(n - 1)
    for n in (0, 1, 2, 10, 20):
        assert_same(fib, n)
        assert_same(fact, n)


def test_recursion_without_a_base_type_is_a_typing_error():
    @njit
    def forever(n):
        return forever(n - 1)
    with pytest.raises(ruchey.TypingError, match="recursive"):
        forever(3)


G_INT = 7
G_FLOAT = 0.5
G_TUPLE = (2, 3.5)


def test_globals_are_frozen_at_compile_time():
    global G_INT

    @njit
    def use():
        return G_INT * G_FLOAT + G_TUPLE[0] * G_TUPLE[1], G_TUPLE
    assert_same(use)
    old = G_INT
    G_INT = 100
    try:
        assert use()[0] == old * G_FLOAT + 7.0  # compiled before the change
    finally:
        G_INT = old


def test_explicit_signatures_compile_eagerly():
    @njit("float64(float64[:], int64)")
    def weighted(a, k):
        s = 0.0
        for i in range(len(a)):
            s += a[i] * k
        return s
    assert len(weighted.signatures) == 1
    a = np.arange(5.0)
    assert_same(weighted, a, 3)
    assert weighted(a[::2], True) == weighted.py_func(a[::2], 1)  # 'A' accepts views; bool converts
    with pytest.raises(TypeError, match="no matching definition"):
        weighted(np.arange(5), 3)

    @njit([ruchey.int64(ruchey.int64), ruchey.float64(ruchey.float64)])
    def inc(x):
        return x + 1
    assert inc.signatures == ["(int64,)", "(float64,)"]
    assert_same(inc, 41)
    assert_same(inc, 0.5)


def test_error_model_numpy_gives_inf_and_nan():
    @njit(error_model="numpy")
    def div(a, b):
        return a / b, a // b, a % b

    @njit(error_model="numpy")
    def idiv(a, b):
        return a // b
    assert div(1.0, 0.0)[0] == math.inf
    assert math.isnan(div(0.0, 0.0)[0])
    assert idiv(7, 0) == 0
    with pytest.raises(ZeroDivisionError):
        njit(div.py_func)(1.0, 0.0)


def fm_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * x[i]
    return s


def fm_checked(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.sqrt(x[i])
    return s


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's IR")
def test_fastmath_reassociates_float_reductions():
    # the sum may be added in any order, so it vectorises unordered
    fast, plain = njit(fastmath=True)(fm_sum), njit(fm_sum)
    rng = make_rng(11)
    for n in (0, 1, 7, 1000, 100003):
        x = float_array(rng, n)
        assert fast(x) == pytest.approx(fm_sum(x), rel=1e-12, abs=1e-300)
        assert_same(plain, x)  # without fastmath: Python's order, exactly
    ir = list(fast.inspect_llvm().values())[0]
    assert re.search(r"fadd reassoc[a-z ]* <\d+ x double>", ir), "no vector partial sums"
    assert "reassoc" not in list(plain.inspect_llvm().values())[0]


@pytest.mark.skipif(AS_NUMBA, reason="Numba's fastmath assumes there are no NaNs or infinities")
def test_fastmath_keeps_nans_infinities_and_pythons_errors():
    # no "no NaNs" or "no infinities" assumptions: the checks still hold
    fast = njit(fastmath=True)(fm_sum)
    assert math.isnan(fast(np.array([1.0, np.nan, 2.0])))
    assert fast(np.array([1.0, np.inf])) == math.inf
    checked = njit(fastmath=True)(fm_checked)
    x = np.abs(float_array(make_rng(12), 1000))
    assert checked(x) == pytest.approx(fm_checked(x), rel=1e-12)
    x[500] = -1.0
    with pytest.raises(ValueError, match=math_domain_error("expected a nonnegative input, got -1.0")):
        checked(x)


def fm_cancel(x, y):
    return (x - y) + y


def test_fastmath_set_allows_only_the_flags_named():
    # Numba's fastmath={...}: reassociation with no signed zeros folds (x - y) + y to x, even for an
    # infinite y; reassociation alone does not, and leaves Python's result
    folded = njit(fastmath={"reassoc", "nsz"})(fm_cancel)
    as_dict = njit(fastmath={"reassoc": True, "nsz": True, "afn": False})(fm_cancel)
    kept = njit(fastmath={"reassoc"})(fm_cancel)
    rng = make_rng(13)
    xs = list(float_array(rng, 20)) + [0.0, -0.0, 1e308, -1e-310]
    ys = list(float_array(rng, 20) * 1e6) + [math.inf, -math.inf, 1e308, 0.0]
    for x, y in zip(xs, ys):
        assert folded(x, y) == x and as_dict(x, y) == x
        assert_same(kept, x, y)
    assert math.isnan(kept(0.5, math.inf))
    # ordered sums stay in Python's order unless reassociation is named
    x = float_array(rng, 1001)
    ordered = njit(fastmath={"nsz", "arcp", "contract", "afn"})(fm_sum)
    assert_same(ordered, x)
    assert njit(fastmath={"reassoc"})(fm_sum)(x) == pytest.approx(fm_sum(x), rel=1e-12)
    if not AS_NUMBA:
        ir = list(ordered.inspect_llvm().values())[0]
        assert "fadd nsz arcp contract afn double" in ir and "reassoc" not in ir


def test_fastmath_unknown_flags_and_values_raise_value_error():
    for bad in ({"spqr"}, {"spqr": False}, {"nsz", 3}, {"reassoc", "fastest"}):
        with pytest.raises(ValueError, match="Unrecognized fastmath flags"):
            njit(fastmath=bad)(fm_cancel)(1.0, 2.0)
    for bad in (1337, "fast", 2.5):
        with pytest.raises(ValueError, match="fastmath"):
            njit(fastmath=bad)(fm_cancel)(1.0, 2.0)


def test_boundscheck_raises_index_error_and_negative_indices_wrap():
    @njit(boundscheck=True)
    def get(a, i):
        return a[i]

    @njit
    def get_unchecked(a, i):
        return a[i]
    a = np.arange(5)
    for i in (0, 4, -1, -5):
        assert_same(get, a, i)
        assert_same(get_unchecked, a, i)
    for i in (5, -6, 100):
        with pytest.raises(IndexError):
            get(a, i)


def test_temporary_arrays_in_a_loop_run_in_bounded_memory():
    from conftest import rss_bytes

    @njit
    def churn(n):
        s = 0.0
        for i in range(n):
            t = np.empty(1000)
            t[0] = i
            s += t[0] + np.zeros(10)[3]
        return s
    churn(10)
    before = rss_bytes()
    assert churn(1_000_000) == churn.py_func(1000) + sum(range(1000, 1_000_000))
    if before is not None:
        assert rss_bytes() - before < 50 * 2**20  # 10^6 arrays of 8 kB would be 8 GB


UNSUPPORTED = {
    "dict": ("def f(x):\n    d = {1: range(x)}  # here\n    return x\n", "dict values"),
    "set": ("def f(x):\n    s = {numpy.ones(x)}  # here\n    return x\n", "sets"),
    "yield from": ("def f(x):\n    y = yield from range(x)  # here\n    yield y\n", "yield from"),
    "global": ("def f(x):\n    global G_INT  # here\n    G_INT = x\n    return x\n", "global"),
    "print": ("def f(x):\n    print(range(x))  # here\n    return x\n", "print"),
    "class": ("def f(x):\n    class C:  # here\n        pass\n    return x\n", "classes"),
    "bytes": ("def f(x):\n    s = {b'text': x}  # here\n    return x\n", "bytes"),
    "with": ("def f(x):\n    with x:  # here\n        pass\n    return x\n", "with"),
}


@pytest.mark.parametrize("name", sorted(UNSUPPORTED))
def test_unsupported_constructs_are_typing_errors_pointing_at_the_line(name, tmp_path):
    src, word = UNSUPPORTED[name]
    path = tmp_path / f"mod_{name}.py"
    path.write_text("import numpy\nG_INT = 1\n" + src)
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"mod_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    line = 2 + src.splitlines().index(next(l for l in src.splitlines() if "# here" in l)) + 1
    with pytest.raises(ruchey.TypingError) as info:
        njit(mod.f)(1)
    msg = str(info.value)
    assert word in msg and f"line {line}" in msg and "# here" in msg and str(path) in msg


def test_wrong_argument_types_list_signatures_and_the_type_seen():
    @njit
    def f(x):
        return x
    f(1)
    with pytest.raises(TypeError) as info:
        f(frozenset({1}))
    assert "frozenset" in str(info.value) and "(int64,)" in str(info.value)


def test_copy_transpose_and_assignment_into_views():
    @njit
    def rows(a, b):
        c = a.copy()
        c[0] = 5
        c[1, :] = b[0]
        c[2][1:3] = -1.0
        c[:, 3] = b[:, 0]
        return c, np.copy(a[::2]), a.T, a.T.copy()
    a = np.arange(12.0).reshape(3, 4)
    assert_same(rows, a, np.arange(12.0).reshape(3, 4) * 10)

    @njit
    def mismatch(a, b):
        a[0] = b
    with pytest.raises(ValueError):
        mismatch(np.zeros((2, 3)), np.zeros(4))


@njit
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@njit
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def test_mutual_recursion_where_a_plain_return_fixes_the_type():
    for n in (0, 1, 7, 10, 101):
        assert_same(is_even, n)
        assert_same(is_odd, n)


@njit
def even_by_ternary(n):
    return True if n == 0 else odd_by_ternary(n - 1)


@njit
def odd_by_ternary(n):
    return False if n == 0 else odd_by_ternary_flipped(n)


@njit
def odd_by_ternary_flipped(n):
    return even_by_ternary(n - 1) if n != 0 else False  # the recursive branch first


@njit
def collatz_steps(n, k):
    return k if n == 1 else (collatz_next(n // 2, k + 1) if n % 2 == 0 else collatz_next(3 * n + 1, k + 1))


@njit
def collatz_next(n, k):
    return collatz_steps(n, k)


def test_mutual_recursion_through_a_returned_conditional_expression():
    """The branch without a call types the function before the other
    branch's mutually recursive callee needs its type, as Numba infers it."""
    for n in (0, 1, 7, 10, 101):
        assert_same(even_by_ternary, n)
        assert_same(odd_by_ternary_flipped, n)
    def steps(n):  # collatz_steps.py_func would call the compiled collatz_next from Python: an entry
        k = 0        # without a typed return, refused as Numba refuses it ("runaway recursion")
        while n != 1:
            n, k = (n // 2 if n % 2 == 0 else 3 * n + 1), k + 1
        return k
    for n in make_rng(5).integers(1, 10**6, 20):
        assert collatz_steps(int(n), 0) == steps(int(n))


# ---------------------------------------------------------------- hasattr

@njit
def scaled_length(a):
    if hasattr(a, "shape"):
        return a.shape[0] * 1.0
    return a * 2.0


@njit
def members(a):
    return hasattr(a, "sum"), hasattr(a, "no_such_member"), hasattr(a, "real"), hasattr(a, "T"), hasattr(a, "x")


def test_hasattr_is_answered_by_the_type_and_prunes_the_branch_on_it():
    """As Numba: known at compile time, so the side a type has no attribute
    for is never typed."""
    from collections import namedtuple
    point = namedtuple("point", "x y")
    for a in (np.ones(3), np.zeros((2, 2), np.int32), 2.0, 3):
        assert_same(scaled_length, a)
    for a in (np.ones(3), 2.5, 3, point(1, 2)):
        assert members(a) == members.py_func(a)


@njit
def object_members(x):
    return hasattr(x, "__hash__"), hasattr(x, "__eq__"), hasattr(x, "__class__"), hasattr(x, "__not_a_member__")


def test_hasattr_of_what_every_object_has_is_true():
    """Every Python object has object's members (an unhashable one's
    __hash__ is None, which hasattr() counts)."""
    rng = make_rng(seed_of("object members"))
    values = [int(rng.integers(-9, 9)), float(rng.standard_normal()), (1, 2.5), "text", rng.standard_normal(3),
              ruchey.typed.List([1, 2]), np.int32(4), 1 + 2j]
    for x in values:
        assert object_members(x) == object_members.py_func(x)


@njit
def module_members(x):
    """Code written for several Pythons and NumPys asks the module."""
    f = math.factorial(5) if hasattr(math, "factorial") else 0
    return f, hasattr(np, "no_such_function"), hasattr(math, "gamma") and x > 0


def test_hasattr_of_a_module_is_answered_from_the_module():
    for x in (1.5, -2.0):
        assert module_members(x) == module_members.py_func(x)


@njit
def module_getattrs(x):
    cos = getattr(np, "cos")
    return getattr(np, "pi") * x, getattr(math, "no_such_constant", x), cos(x), getattr(math, "sqrt")(abs(x))


def test_getattr_of_a_module_is_its_member_or_the_default():
    """As Numba reads a module's constants; its functions too."""
    for x in make_rng(seed_of("module getattr")).standard_normal(4):
        # numpy.cos: NumPy 1.26's SIMD loops differ from libm in the last bit
        assert_same(module_getattrs, float(x), rel=1e-14)
    with pytest.raises(ruchey.TypingError, match="module 'numpy' has no attribute 'no_such_function'"):
        njit(lambda: getattr(np, "no_such_function"))()


def test_hasattr_of_a_name_made_at_run_time_is_a_typing_error():
    f = njit(lambda a, name: hasattr(a, name))
    with pytest.raises(ruchey.TypingError, match="must be a constant string"):
        f(1, "x")


# ---------------------------------------------------------------- zip() of nothing

@njit
def walk_zip_of_nothing(n):
    count = n
    for t in zip():
        count += len(t) + 1
    return count, len(list(zip()))


def test_zip_of_no_sequences_yields_nothing():
    for n in make_rng(seed_of("zip nothing")).integers(-5, 5, 3):
        assert_same(walk_zip_of_nothing, int(n))
