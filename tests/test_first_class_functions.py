"""First-class functions (Numba's types.FunctionType): a parameter of an
explicit signature that holds any compiled function of a signature, chosen
at run time and called through its address. An @njit function passed for it
is compiled for the signature (now, where it has no signature of its own);
a @cfunc of the signature is taken as it is. Each against the Python
original on generated inputs; what the callee raises reaches Python as from
a direct call (a @cfunc's is written out as unraisable, and zero taken, as
its C entry does); functions that do not fit are clear errors."""
import math
import sys

import numpy
import pytest
import ruchey
from ruchey import cfunc, njit, prange, types

from conftest import AS_NUMBA, assert_same, make_rng, numba_deviation

DIST = types.FunctionType(types.float64(types.float64, types.float64))


def _cost(x, y, dist):
    out = numpy.empty((x.size, y.size))
    for i in range(x.size):
        for j in range(y.size):
            out[i, j] = dist(numpy.float64(x[i]), numpy.float64(y[j]))
    return out


cost = njit([types.float64[:, :](types.float64[:], types.float64[:], DIST),
             types.float64[:, :](types.int64[:], types.int64[:], DIST)])(_cost)


@njit("float64(float64, float64)")
def square(a, b):
    return (a - b) ** 2


@njit
def absolute(a, b):  # no signature of its own: compiled for DIST when passed
    return abs(a - b)




@cfunc("float64(float64, float64)")
def c_sum(a, b):
    return a + b


def test_function_type_is_numbas_type():
    assert repr(DIST) == "FunctionType[float64(float64, float64)]"
    assert DIST == types.FunctionType(types.float64(types.float64, types.float64))


def test_cfunc_is_a_function_of_its_signature():
    assert ruchey.typeof(c_sum) == DIST


@pytest.mark.parametrize("dist", [square, absolute, c_sum], ids=lambda f: f.__name__)
def test_each_compiled_function_through_one_specialisation(dist):
    rng = make_rng(31)
    x, y = rng.standard_normal(7) * 3, rng.standard_normal(5) * 3
    assert_same(cost, x, y, dist)
    assert_same(cost, rng.integers(-9, 9, 6), rng.integers(-9, 9, 4), dist)
    assert len(cost.signatures) == 2  # no specialisation per function passed


def test_function_without_signature_compiled_for_the_type():
    @njit
    def product(a, b):
        return a * b
    rng = make_rng(32)
    assert_same(cost, rng.standard_normal(4), rng.standard_normal(3), product)
    assert ("float64", "float64") in [tuple(str(t) for t in sig) for sig in product.signatures]


def test_function_returning_an_int_compiled_for_the_type_converts_it():
    @njit
    def truncated(a, b):
        return int(a * b)
    x = make_rng(38).standard_normal(5) * 4
    expected = cost.py_func(x, x, truncated.py_func)  # (truncated itself not compiled before it is passed)
    numpy.testing.assert_array_equal(cost(x, x, truncated), expected)
    assert isinstance(truncated(2.5, 1.0), float)  # compiled as the type declares, as Numba compiles it


def test_function_compiled_before_with_another_result_refused():
    @njit
    def truncated(a, b):
        return int(a * b)
    assert truncated(2.5, 1.0) == 2
    with pytest.raises(TypeError, match="mismatch of return type: int64 vs float64"):
        cost(numpy.arange(3.0), numpy.arange(2.0), truncated)


def test_call_with_ints_converts_to_the_signature():
    @njit(types.float64(DIST, types.int64, types.int64))
    def call_ints(f, a, b):
        return f(a, b) + f(a, 1.5)
    for a, b in [(3, 4), (-2, 7), (0, 0)]:
        assert_same(call_ints, square, a, b)


def test_array_arguments_and_results():
    scale = types.FunctionType(types.float64[:](types.float64[:], types.float64))

    @njit(types.float64(scale, types.float64[:]))
    def total(f, x):
        s = 0.0
        for k in range(3):
            s += f(x, k * 0.5).sum()
        return s

    @njit
    def scaled(v, c):
        return v * c + 1.0

    assert_same(total, scaled, make_rng(33).standard_normal(11))


def test_called_in_parallel_loop():
    @njit(types.float64[:](types.float64[:], DIST), parallel=True)
    def each(x, f):
        out = numpy.empty(x.size)
        for i in prange(x.size):
            out[i] = f(x[i], 0.5)
        return out
    x = make_rng(34).standard_normal(1000)
    assert_same(each, x, square)
    assert_same(each, x, absolute)


def test_passed_on_to_a_function_without_signature():
    @njit
    def apply(f, a):
        return f(a, 2.0)

    @njit(types.float64(DIST, types.float64))
    def outer(f, a):
        return apply(f, a) * 2.0
    assert_same(outer, square, 5.0)
    assert_same(outer, c_sum, -1.5)


def test_compiled_function_named_in_compiled_code():
    @njit
    def both(x, y):
        return cost(x, y, square) + cost(x, y, absolute)
    rng = make_rng(35)
    assert_same(both, rng.standard_normal(5), rng.standard_normal(4))


def test_compiled_function_passed_on_from_compiled_code():
    @njit
    def through(x, f):
        return cost(x, x, f)
    x = make_rng(36).standard_normal(6)
    assert_same(through, x, square)
    assert_same(through, x, absolute)


def test_compiled_function_of_other_result_named_in_compiled_code_converts_it():
    @njit
    def truncated(a, b):
        return int(a * b)

    @njit
    def ints(x):
        return cost(x, x, truncated)
    assert_same(ints, make_rng(37).standard_normal(4) * 4)


def test_compiled_function_of_array_result_named_in_compiled_code_refused():
    @njit
    def pair(a, b):
        return numpy.array([a, b])

    @njit
    def arrays(x):
        return cost(x, x, pair)
    with pytest.raises(ruchey.TypingError, match=None if AS_NUMBA else "returns array"):
        arrays(numpy.arange(3.0))


def test_cfunc_to_function_without_signature():
    @njit
    def apply(f, a, b):
        return f(a, b) - f(b, a)
    assert_same(apply, c_sum, 1.25, 3.0)


@njit
def picky(a, b):
    if a > 2.0:
        raise ValueError("too big", a)
    return a


def test_exception_of_callee_reaches_python():
    x = numpy.arange(5.0)
    with pytest.raises(ValueError) as got:
        cost(x, x, picky)
    with pytest.raises(ValueError) as expected:
        cost.py_func(x, x, picky)
    assert got.value.args == expected.value.args


@cfunc("float64(float64, float64)")
def c_picky(a, b):
    if a > 2.0:
        raise ValueError("too big")
    return a


def test_exception_of_cfunc_is_unraisable_and_zero_as_its_c_entrys(monkeypatch):
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: seen.append(u.exc_type))
    x = numpy.arange(5.0)
    got = cost(x, x[:1], c_picky)
    expected = numpy.where(x > 2.0, 0.0, x)[:, None]
    numpy.testing.assert_array_equal(got, expected)
    assert seen == [ValueError, ValueError]


def test_zero_division_in_callee_reaches_python():
    @njit
    def ratio(a, b):
        return a / b
    with pytest.raises(ZeroDivisionError):
        cost(numpy.arange(3.0), numpy.zeros(2), ratio)


def test_python_function_refused():
    x = numpy.arange(3.0)
    with pytest.raises(TypeError):
        cost(x, x, lambda a, b: a)
    with pytest.raises(TypeError):
        cost(x, x, math.hypot)


def test_number_refused():
    x = numpy.arange(3.0)
    with pytest.raises(TypeError):
        cost(x, x, 3)


@numba_deviation("it compiles a signature the function's own signatures exclude")
def test_function_with_other_signatures_refused():
    @njit("int64(int64, int64)")
    def ints(a, b):
        return a + b
    with pytest.raises(TypeError, match="no compiled signature"):
        cost(numpy.arange(3.0), numpy.arange(2.0), ints)


def test_function_of_other_arity_refused():
    @njit
    def one(a):
        return a
    with pytest.raises(TypeError, match="takes 1 arguments"):
        cost(numpy.arange(3.0), numpy.arange(2.0), one)


@numba_deviation("its errors here are ValueErrors and UnsupportedErrors, raised while typing")
@pytest.mark.parametrize("body, message", [
    ("f(1.0, 2.0, 3.0)", "mismatch of arguments number: 3 vs 2"),
    ("f(1j, 2.0)", "mismatch of argument types: complex128 vs float64"),
    ("f(a=1.0, b=2.0)", None),
])
def test_bad_call_through_function_type_is_typing_error(body, message):
    namespace = {}
    exec(f"def g(f):\n    return {body}\n", namespace)
    with pytest.raises(ruchey.TypingError, match=message):
        njit(types.float64(DIST))(namespace["g"])


@numba_deviation("an AttributeError")
def test_function_type_needs_a_signature_with_result():
    with pytest.raises(TypeError):
        types.FunctionType(types.float64)


# ---------------------------------------------------------------- a jitclass field of a FunctionType

from ruchey.experimental import jitclass  # noqa: E402


@jitclass([("f", DIST), ("scale", types.float64)])
class Scaled:
    """Holds a function of DIST's signature, given to its constructor."""

    def __init__(self, f, scale):
        self.f = f
        self.scale = scale

    def at(self, x, y):
        return self.scale * self.f(x, y)

    def swap(self, g):
        self.f = g


def _scaled_sum(x, y, k):
    s = Scaled(square, k)
    total = 0.0
    for i in range(x.size):
        total += s.at(x[i], y[i])
    s.swap(absolute)
    for i in range(x.size):
        total += s.at(x[i], y[i])
    return total


scaled_sum = njit(_scaled_sum)


def test_a_compiled_function_stored_into_a_function_type_field():
    rng = make_rng(31)
    x, y = rng.normal(size=9), rng.normal(size=9)

    class Plain:  # the jitclass's Python original, called with the plain functions
        def __init__(self, f, scale):
            self.f, self.scale = f, scale

        def at(self, a, b):
            return self.scale * self.f(a, b)

    want = sum(2.5 * square.py_func(a, b) for a, b in zip(x, y)) + sum(2.5 * absolute.py_func(a, b) for a, b in zip(x, y))
    assert scaled_sum(x, y, 2.5) == pytest.approx(want, rel=1e-12)
    s = Scaled(square, 3.0)  # made in Python: the function converts as in compiled code
    assert s.at(1.5, 0.25) == Plain(square.py_func, 3.0).at(1.5, 0.25)


# ---------------------------------------------------------------- tuples mixing cfuncs and compiled functions

@cfunc("float64(float64)")
def plus_one(x):
    return x + 1.0


@njit
def squared(x):
    return x * x


@njit
def composition(funcs, x):
    r = x
    for f in funcs[::-1]:
        r = f(r)
    return r


def test_a_tuple_of_cfuncs_and_compiled_functions_is_one_function_type():
    """Numba's reference example: the compiled functions of a tuple that
    holds cfuncs are taken as the cfuncs' FunctionType, so it iterates."""
    rng = make_rng(8812)
    for funcs in [(plus_one, squared, squared, plus_one), (squared, plus_one), (plus_one,), (squared, plus_one, squared)]:
        python = tuple(getattr(f, "py_func", None) or f._pyfunc for f in funcs)
        for x in (*rng.normal(size=3), 0.0, -1.0, numpy.inf, numpy.nan):
            numpy.testing.assert_equal(composition(funcs, x), composition.py_func(python, x))


@cfunc("int64()")
def two():
    return 2


@cfunc("int64()")
def three():
    return 3


def test_cfunc_globals_chosen_as_values_and_returned():
    @njit
    def chosen(arg):
        f = two if arg else three
        return f()

    @njit
    def picked(k):
        return (two, three)[k]()

    @njit
    def returned():
        return three

    for arg in (True, False):
        assert chosen(arg) == chosen.py_func(arg)
    for k in (0, 1):
        assert picked(k) == picked.py_func(k)
    assert returned() is three


@njit
def plus_two(i):
    return i + 2


@njit
def halved(i):
    return i // 2


@cfunc("int64(int64)")
def times_three(i):
    return i * 3


@cfunc("int64(int64)")
def minus_one(i):
    return i - 1


def mixed(f, x, c):
    """A FunctionType argument f mixed with compiled functions and a cfunc
    global in compiled code (made one FunctionType, as Numba unifies them):
    a tuple iterated, a conditional expression, a variable assigned one or
    the other, either first."""
    r = 0
    for g in (f, plus_two, times_three, halved):
        r = r + g(x + r)
    h = f if c else halved
    k = plus_two
    if c > 1:
        k = f
    m = f
    if c > 2:
        m = times_three
    return r, h(x), k(x), m(x)


def test_function_type_mixed_with_compiled_functions_in_compiled_code():
    compiled = njit(mixed)
    rng = make_rng(8813)
    for f in (times_three, minus_one):
        for x, c in zip([0, -7, 2**40, *rng.integers(-100, 100, 3)], [0, 1, 2, 3, 3, 1]):
            assert compiled(f, int(x), c) == mixed(f._pyfunc, int(x), c), (f, x, c)


@numba_deviation("numba's error or message differs")
def test_function_type_mixed_with_a_function_of_other_signature_refused():
    @njit
    def mixed(f, x):
        g = f if x > 0 else _wrong_arity
        return g(x)
    with pytest.raises(ruchey.TypingError, match="cannot be passed as FunctionType"):
        mixed(inc_c, 1)


@njit
def _wrong_arity(a, b):
    return a + b


# ---------------------------------------------------------------- first-class functions returned to Python

INT_FUNC = types.FunctionType(types.int64(types.int64))


@cfunc("int64(int64)")
def inc_c(i):
    return i + 1


@njit
def inc_j(i):
    return i + 1


@njit(types.Tuple((INT_FUNC, types.int64))(INT_FUNC, types.int64))
def called_and_returned(f, x):
    return f, f(x)


@njit
def item_of(fs, k):
    return fs[k]


def test_a_function_type_value_returned_is_the_function_passed():
    """As Numba returns it: the cfunc or compiled function passed in, the
    same object (after calls through it)."""
    for f in (inc_c, inc_j):
        for x in (0, -5, 2**40):
            back, y = called_and_returned(f, x)
            assert back is f and y == x + 1
    for k, f in enumerate((inc_c, inc_j)):
        assert item_of((inc_c, inc_j), k) is f


@numba_deviation("Numba returns the compiled function")
def test_a_function_type_value_made_in_compiled_code_is_not_returned():
    @njit
    def made():
        return called_and_returned(inc_j, 1)[0]

    with pytest.raises(TypeError, match="made in compiled code"):
        made()


# ---------------------------------------------------------------- typed Lists of a FunctionType

from ruchey import typed  # noqa: E402

UNARY = types.FunctionType(types.float64(types.float64))


@njit
def halve(x):
    return x / 2.0


@njit
def cube(x):
    return x * x * x


@cfunc("float64(float64)")
def minus_three(x):
    return x - 3.0


@njit
def apply_each(fs, x):
    out = numpy.empty(len(fs))
    for i in range(len(fs)):
        out[i] = fs[i](x)
    return out


@njit
def chained(x):
    fs = typed.List.empty_list(UNARY)
    fs.append(halve)
    fs.insert(0, cube)
    fs.append(halve)
    fs[2] = cube
    r = x
    for f in fs:
        r = f(r)
    return r, len(fs)


def test_a_typed_list_of_a_function_type_holds_compiled_functions_and_cfuncs():
    """Numba's List.empty_list(FunctionType(sig)): any compiled function of
    the signature (compiled for it as it is stored) or @cfunc, filled in
    Python or in compiled code, each called through its entry."""
    fs = typed.List.empty_list(UNARY)
    for f in (halve, minus_three, cube, halve):
        fs.append(f)
    assert len(fs) == 4 and fs[0] is halve and fs[1] is minus_three
    python = (halve.py_func, minus_three._pyfunc, cube.py_func, halve.py_func)
    for x in make_rng(5).normal(size=6) * 10:
        assert numpy.array_equal(apply_each(fs, x), [f(x) for f in python])
        r = x
        for f in (cube.py_func, halve.py_func, cube.py_func):
            r = f(r)
        assert chained(x) == (r, 3)
    assert len(apply_each(typed.List.empty_list(UNARY), 1.0)) == 0


def test_a_typed_list_of_a_function_type_refuses_what_is_no_such_function():
    fs = typed.List.empty_list(UNARY)
    with pytest.raises((TypeError, ruchey.TypingError)):  # (Numba's: a TypingError)
        fs.append(3.5)
    assert len(fs) == 0

    @njit
    def two(a, b):
        return a + b

    @njit
    def store_two():
        fs = typed.List.empty_list(UNARY)
        fs.append(two)
        return len(fs)

    with pytest.raises((ruchey.TypingError, TypeError)):  # (ruchey's: "cannot be passed as"; Numba's: a TypeError)
        store_two()


@njit
def by_name(x):
    table = typed.Dict.empty(types.unicode_type, UNARY)
    table["half"] = halve
    table["cube"] = cube
    table["c"] = minus_three
    return table["half"](x) + table["cube"](x) - table["c"](x), len(table)


def test_a_typed_dict_of_function_type_values():
    for x in make_rng(6).normal(size=5):
        assert by_name(x) == (halve.py_func(x) + cube.py_func(x) - minus_three._pyfunc(x), 3)
    made = typed.Dict.empty(types.int64, UNARY)
    made[4] = cube
    made[-1] = minus_three
    assert made[4] is cube and apply_each(typed.List([made[-1], made[4]]), 2.0).tolist() == [-1.0, 8.0]
