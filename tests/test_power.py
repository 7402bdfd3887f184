"""float ** int by multiplication: within 1 ulp of CPython's pow, with its errors."""
import math
import re

import numpy
import pytest
import ruchey

from conftest import AS_NUMBA, assert_same, make_rng, numba_deviation, numpy2_only

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="inspects ruchey's LLVM IR")


@ruchey.njit
def power(x, n):
    return x ** n


@ruchey.njit
def powers(x, n):
    out = numpy.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] ** n
    return out


@ruchey.njit
def square(x):
    return x ** 2


@ruchey.njit
def cube_float_literal(x):
    return x ** 3.0


@ruchey.njit
def square_float_literal(x):
    return x ** 2.0


@ruchey.njit
def zeroth(x):
    return x ** 0


@ruchey.njit
def sum_of_squares(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += (x[i] - y[i]) ** 2
    return s


@ruchey.njit
def minkowski(x, y, p):
    s = 0.0
    for i in range(x.shape[0]):
        s += abs(x[i] - y[i]) ** p
    return s ** (1.0 / p)


def within_one_ulp(got, expected):
    got, expected = numpy.asarray(got, dtype=float), numpy.asarray(expected, dtype=float)
    return numpy.all(numpy.abs(got - expected) <= numpy.spacing(numpy.abs(expected)))


def bases_for(n, rng, count=4000):
    """Bases whose n-th power neither overflows nor underflows."""
    span = 700.0 / max(abs(n), 1)
    x = numpy.exp(rng.uniform(-span, span, count)) * rng.choice([-1.0, 1.0], count)
    near_one = min(0.1, span / 2)
    wide = min(10.0, math.exp(span))
    return numpy.concatenate([x, rng.uniform(1 - near_one, 1 + near_one, count // 4),
                              rng.uniform(math.exp(-span), wide, count // 4) * rng.choice([-1.0, 1.0], count // 4)])


@pytest.mark.parametrize("n", list(range(-12, 13)) + [17, -17, 31, 64, -64, 100, 1000, 1024, 1025, -2000, 5001])
def test_runtime_int_exponent_within_one_ulp_of_python(n):
    x = bases_for(n, make_rng(1900 + abs(n)))
    expected = numpy.array([power.py_func(float(v), n) for v in x])
    assert within_one_ulp(powers(x, n), expected)
    for v, e in zip(x[:50], expected[:50]):
        got = power(float(v), n)
        assert type(got) is float and abs(got - e) <= math.ulp(e), (v, n, got, e)


@pytest.mark.parametrize("f", [square, cube_float_literal, square_float_literal, zeroth],
                         ids=lambda f: f.py_func.__name__)
def test_literal_exponents_within_one_ulp_of_python(f):
    x = bases_for(3, make_rng(1919))
    for v in x:
        v = float(v)
        got, expected = f(v), f.py_func(v)
        assert type(got) is float and abs(got - expected) <= math.ulp(expected), (v, got, expected)


def test_square_is_exactly_the_product():
    for v in bases_for(2, make_rng(1920), 500):
        assert square(float(v)) == float(v) * float(v)


@pytest.mark.parametrize("x", [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 10.0, 1e-300, 1e300, 5e-324,
                               math.inf, -math.inf, math.nan])
@pytest.mark.parametrize("n", [0, 1, 2, 3, -1, -2, -3, 4, 5, -5, 1025, -1025, 400, -400, 310, -310])
def test_edge_values_and_errors_as_python(x, n):
    """Zeros, infinities, NaN, overflow and underflow (subnormal results
    included) are what CPython's pow gives, or its exception."""
    try:
        expected = power.py_func(x, n)
    except (ZeroDivisionError, OverflowError) as exc:
        with pytest.raises(type(exc)):
            power(x, n)
        return
    got = power(x, n)
    if math.isnan(expected):
        assert math.isnan(got)
    else:
        assert (got == expected or abs(got - expected) <= math.ulp(expected)) and math.copysign(1, got) == math.copysign(1, expected), \
            (x, n, got, expected)


@pytest.mark.parametrize("f, x", [(square, 1e200), (cube_float_literal, -1e110), (square_float_literal, 1e155)])
def test_literal_power_overflow_raises(f, x):
    with pytest.raises(OverflowError):
        f.py_func(x)
    with pytest.raises(OverflowError):
        f(x)


def test_zero_to_negative_literal_raises():
    @ruchey.njit
    def inverse_square(x):
        return x ** -2
    with pytest.raises(ZeroDivisionError):
        inverse_square(0.0)
    assert_same(inverse_square, 3.0)


def test_overflow_inside_a_reduction_loop_raises():
    x, y = numpy.zeros(100), numpy.zeros(100)
    x[57] = 1e200
    with pytest.raises(OverflowError):
        sum_of_squares(x, y)


def test_distance_kernels_match_python():
    rng = make_rng(1921)
    x, y = rng.uniform(-1, 1, 1000), rng.uniform(-1, 1, 1000)
    assert_same(sum_of_squares, x, y, rel=1e-12)
    for p in (1, 2, 3, 4, 7):
        assert_same(minkowski, x, y, p, rel=1e-12)



@ruchey.njit
def power_sum(x, n):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] ** n
    return s


@ruchey.njit
def nested_power_sums(m, n):
    s = 0.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            s += m[i, j] ** n
    return s


@ruchey.njit
def reassigned_exponent(x, n):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] ** n
    n = n - 1
    for i in range(x.shape[0]):
        s += x[i] ** n
    return s


EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 1e-300, 1e300, 5e-324, math.inf, -math.inf, math.nan, 1e155, -1e103]


def python_sum(x, n, times=1):
    """power_sum (times=2: reassigned_exponent) on Python floats: CPython's
    pow, where NumPy's scalars would give inf for 0.0 ** -1."""
    s = 0.0
    for k in range(times):
        for v in numpy.ravel(x):
            s += float(v) ** (n - k)
    return s


def same_or_raises_as_python(f, x, n, expect):
    try:
        expected = expect(x, n)
    except (ZeroDivisionError, OverflowError) as exc:
        with pytest.raises(type(exc)):
            f(x, n)
        return
    got = f(x, n)
    with numpy.errstate(invalid="ignore"):  # inf - inf
        assert within_one_ulp(got, expected) or numpy.array_equal(got, expected, equal_nan=True), (x, n, got, expected)


@pytest.mark.parametrize("n", [-3, -2, -1, 0, 1, 2, 3, 4, 7])
def test_a_loops_version_per_exponent_gives_pythons_values_and_errors(n):
    """A loop raising to a fixed int parameter runs a version per exponent
    of 1 to 3: each gives pow's values, overflow and zero division as the
    others do, in a deferred loop (powers writes an array) and not."""
    each = lambda x, n: numpy.array([float(v) ** n for v in x])
    twice = lambda x, n: python_sum(x, n, 2)
    for v in EDGES:
        x = numpy.array([0.5, v, -3.0])
        same_or_raises_as_python(powers, x, n, each)
        same_or_raises_as_python(power_sum, x, n, python_sum)
        same_or_raises_as_python(nested_power_sums, x.reshape(1, 3), n, python_sum)
        same_or_raises_as_python(reassigned_exponent, x, n, twice)
    x = bases_for(n, make_rng(1923 + n), 400)[:500]
    same_or_raises_as_python(powers, x, n, each)
    assert math.isclose(power_sum(x, n), python_sum(x, n), rel_tol=1e-12)
    assert math.isclose(nested_power_sums(x.reshape(20, 25), n), python_sum(x, n), rel_tol=1e-12)
    assert power_sum(numpy.empty(0), n) == 0.0


def test_a_loops_version_per_exponent_takes_narrow_int_exponents():
    x = make_rng(1924).uniform(-2, 2, 100)
    for n in (1, 2, 3, 5):
        for t in (numpy.int8, numpy.int32, numpy.uint16):
            assert_same(power_sum, x, t(n), rel=1e-15)


@numpy2_only  # NumPy 1: float32 ** a Python int is float64 (value-based casting)
def test_float32_base():
    x = make_rng(1922).uniform(0.5, 2.0, 200).astype(numpy.float32)
    for n in (2, 3, 5, -4):
        got = powers(x, n)
        expected = numpy.array([v ** n for v in x])
        assert got.dtype == expected.dtype
        assert numpy.allclose(got, expected, rtol=1e-6)


@ruchey_only
def test_a_literal_square_is_a_multiply():
    sum_of_squares(numpy.ones(8), numpy.ones(8))
    ir = next(iter(sum_of_squares.inspect_llvm().values()))
    assert not re.search(r"call .*pow", ir), ir


@pytest.mark.parametrize("f, k", [(square, 2), (cube_float_literal, 3)], ids=["square", "cube"])
def test_literal_power_overflows_exactly_where_python_does(f, k):
    """Around the least base whose power overflows, both signs."""
    top = math.sqrt(1.7976931348623157e308) if k == 2 else 5.643803094122362e102
    x = top * (1 - 1e-13)
    for _ in range(3000):
        for v in (x, -x):
            try:
                expected = f.py_func(v)
            except OverflowError:
                with pytest.raises(OverflowError):
                    f(v)
                continue
            assert abs(f(v) - expected) <= math.ulp(expected)
        x = math.nextafter(x, math.inf)


@ruchey.njit
def squares_of(x):
    out = numpy.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] ** 2 + abs(x[i] ** 3)
    return out


def test_literal_powers_in_a_deferred_loop_raise_where_python_does():
    """A loop writing a new array runs with its checks noted first: an
    overflow still raises, an infinite or NaN base does not."""
    x = numpy.linspace(-3.0, 3.0, 101)
    assert_same(squares_of, x, rel=1e-14)
    x[40], x[41] = math.inf, math.nan
    assert_same(squares_of, x, rel=1e-14)
    x[77] = 1e120
    with pytest.raises(OverflowError):  # as Python floats do (NumPy's scalars give inf)
        float(x[77]) ** 3
    with pytest.raises(OverflowError):
        squares_of(x)


# A loop whose only checks are literal powers' overflows, each in a term
# added to a float sum, runs first unchecked and again checked only where a
# sum ends not finite (analysis/defer.c an_checked_by_sums).

@ruchey.njit
def squared_distance(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += (x[i] - y[i]) ** 2
    return s


@ruchey.njit
def two_sums_and_state(x, y, s, t):
    d = 0.0
    for i in range(x.shape[0]):
        d = x[i] - y[i]
        s += d ** 2
        t -= 0.5 * d ** 3.0 + y[i]
    return s, t, d, i


def sum_inputs(dtype):
    """Generated pairs of arrays, of lengths around an unrolled loop's
    step (a remainder of every size)."""
    rng = make_rng(21)
    for n in (0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 33, 1000, 1003):
        yield (rng.standard_normal(n) * 100).astype(dtype), (rng.standard_normal(n) * 100).astype(dtype)


def test_sums_of_literal_powers_match_python():
    for x, y in sum_inputs(numpy.float64):
        assert_same(squared_distance, x, y)
        if len(x):  # d ** 3.0 as d * d * d: within 1 ulp of pow's, summed
            assert_same(two_sums_and_state, x, y, 0.25, -3.0, rel=1e-13)


def test_float32_sums_of_squares_add_float32_squares_in_order():
    # NumPy 2 would keep py_func's sum a float32 (NEP 50); ruchey's is a
    # float64 (Numba's typing), as NumPy 1.x's
    for x, y in sum_inputs(numpy.float32):
        s = 0.0
        for a, b in zip(x, y):
            d = numpy.float32(a - b)
            s += float(d * d)
        assert squared_distance(x, y) == s


def test_sums_of_literal_powers_not_finite_without_an_error_match_python():
    """An infinite or NaN input, a sum that overflows by its additions alone
    and a sum that starts infinite raise nothing: the checked rerun finds
    no overflowing power, and gives Python's values (variables after the
    loop included)."""
    for x, y in sum_inputs(numpy.float64):
        for where in {0, len(x) // 2, len(x) - 1} if len(x) else ():
            for bad in (math.inf, -math.inf, math.nan):
                a = x.copy()
                a[where] = bad
                assert_same(squared_distance, a, y)
                assert_same(two_sums_and_state, a, y, 0.25, -3.0, rel=1e-13)
            a = x.copy()
            a[where] = 1e154  # its square is finite, the sum past float64's largest after 2 of them
            a[-1] = 1e154
            assert_same(squared_distance, a, y)
        if len(x):
            assert_same(two_sums_and_state, x, y, math.inf, -3.0, rel=1e-13)
            assert_same(two_sums_and_state, x, y, 0.25, math.nan, rel=1e-13)


@numba_deviation("a float power that overflows is inf")
def test_sums_of_literal_powers_raise_where_a_power_overflows():
    big = 1e200
    with pytest.raises(OverflowError):  # as Python floats do (NumPy's scalars give inf)
        (big - 0.5) ** 2
    for x, y in sum_inputs(numpy.float64):
        for where in {0, len(x) // 2, len(x) - 1} if len(x) else ():
            a = x.copy()
            a[where] = big
            with pytest.raises(OverflowError, match="Numerical result out of range"):
                squared_distance(a, y)
            with pytest.raises(OverflowError, match="Numerical result out of range"):
                two_sums_and_state(a, y, 0.25, -3.0)
            if where < len(x) - 1:
                a[-1] = math.nan  # a later NaN does not hide the overflow
                with pytest.raises(OverflowError):
                    squared_distance(a, y)


@numba_deviation("a float power that overflows is inf")
def test_a_cube_overflowing_where_the_square_does_not_raises():
    x, y = numpy.zeros(9), numpy.zeros(9)
    x[4] = 1e120  # d**2 = 1e240 is finite, 0.5 * d**3 overflows
    with pytest.raises(OverflowError):
        float(x[4]) ** 3.0
    with pytest.raises(OverflowError):
        two_sums_and_state(x, y, 0.0, 0.0)


@numba_deviation("Numba lets LLVM rewrite pow(2.0**n, y) as exp2(n * y)")
def test_constant_power_of_two_bases_are_pow_exactly():
    # found by `make fuzz`: LLVM rewrote pow(2.0**31, y) as exp2(31 * y), about
    # 30 ulps from CPython's pow; the call is libm's pow, as CPython's
    @ruchey.njit
    def big(y):
        return 2147483648.0 ** y

    @ruchey.njit
    def small(y):
        return 0.125 ** y, math.pow(1024.0, y), numpy.power(65536.0, y)

    rng = make_rng(31)
    for y in list(rng.uniform(-30, 30, 300)) + [-14.7, 0.3, 1.0 / 3.0, -0.0, 1e-300]:
        y = float(y)
        assert big(y) == 2147483648.0 ** y, y
        # (NumPy's own power may use SIMD code a few ulps from libm's pow, which ruchey calls)
        assert small(y) == (0.125 ** y, math.pow(1024.0, y), 65536.0 ** y), y


def test_one_to_a_signalling_nan_is_one_as_in_python():
    # found by `make fuzz`: CPython answers 1.0 ** y and x ** 0.0 before calling
    # pow, whose result for a signalling NaN is NaN
    import struct
    snan = struct.unpack("<d", bytes.fromhex("c2b7bc725ef5f07f"))[0]

    @ruchey.njit
    def f(x, y):
        return x ** y, math.pow(x, y)

    for x, y in ((1.0, snan), (snan, 0.0), (1.0, math.nan), (math.nan, -0.0), (2.0, 0.5)):
        got, expected = f(x, y), (x ** y, math.pow(x, y))
        assert got == expected or (math.isnan(got[0]) and math.isnan(expected[0])), (x, y, got, expected)


@ruchey_only
def test_a_half_power_is_a_square_root_with_pows_special_values():
    # (pow would cost its call where real code writes d ** 0.5 per distance)
    @ruchey.njit
    def half(x):
        return x ** 0.5, math.pow(x, 0.5)

    values = [4.0, 2.0, -0.0, 0.0, math.inf, -math.inf, math.nan, 1e-310, 123.456, 1e308]
    values += [float(v) for v in make_rng(5).uniform(0, 1e6, 2000)]
    for x in values:
        got = half(x)
        e = x ** 0.5
        for g in got:
            # the correctly rounded root: within 1 ulp of pow's, which is not always
            assert g == e or (math.isnan(g) and math.isnan(e)) or abs(g - e) <= math.ulp(e), (x, got)
            assert math.copysign(1, g) == math.copysign(1, e) or math.isnan(e), x
    asm = list(half.inspect_asm().values())[0]
    assert "sqrt" in asm and not re.search(r"\bpow\b", asm)  # ("power" in an error message is no call)
