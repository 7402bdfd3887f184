"""datetime64 and timedelta64: arguments, results, array elements, the
operators with NumPy's unit rules and NaT, numpy.isnat, reductions and
array expressions, each against the function's own Python on generated
values (random dates and durations in several units, NaT among them)."""
import warnings

import numpy as np
import pytest

import ruchey
from ruchey import njit, TypingError, types

from conftest import NUMPY1

UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"]
LINEAR = UNITS[2:]


def dates(rng, unit, n, nat=0.2):
    # within what nanoseconds hold (1678-2262), where a pair of units may meet: NumPy 2.5 raises
    # OverflowError converting a date beyond them, as compiled code does not check
    span = {"Y": 200, "M": 2400, "W": 10**4, "D": 10**5}.get(unit, 10**6)
    v = rng.integers(-span, span, n).astype(f"M8[{unit}]")
    v[rng.random(n) < nat] = np.datetime64("NaT")
    return v


def deltas(rng, unit, n, nat=0.2):
    v = rng.integers(-10**4, 10**4, n).astype(f"m8[{unit}]")
    v[rng.random(n) < nat] = np.timedelta64("NaT")
    return v


def numpy_result(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns of NaT and zero divisors
        return f(*args)


def same(expected, got):
    """One value as NumPy gives it: the same dtype (unit included) and value, NaT as NaT."""
    e, g = np.asarray(expected), np.asarray(got)
    assert e.shape == g.shape
    if e.dtype.kind in "Mm":
        assert g.dtype == e.dtype, (e.dtype, g.dtype)
        np.testing.assert_array_equal(np.isnat(g), np.isnat(e))
        np.testing.assert_array_equal(g[~np.isnat(g)], e[~np.isnat(e)])
    else:
        np.testing.assert_array_equal(g, e)


# ---------------------------------------------------------------- arguments and results


@njit
def identity(x):
    return x


@njit
def element(a, i):
    return a[i]


@njit
def store(a, i, v):
    a[i] = v


@pytest.mark.parametrize("unit", UNITS + ["ps", "fs", "as"])
def test_scalars_and_arrays_go_in_and_come_back_with_their_unit(unit):
    rng = np.random.default_rng(1)
    for v in (dates(rng, unit, 5), deltas(rng, unit, 5)):
        out = identity(v)
        assert out.dtype == v.dtype
        same(v, out)
        for i in range(len(v)):
            r = element(v, i)
            assert type(r) is type(v[i]) and np.datetime_data(r.dtype) == (unit, 1)
            same(element.py_func(v, i), r)


def test_generic_unit_and_nat_scalars():
    for v in (np.datetime64("NaT"), np.timedelta64("NaT"), np.timedelta64(5)):
        r = identity(v)
        assert type(r) is type(v) and r.dtype == v.dtype
        same(v, r)


def test_arrays_of_any_layout():
    rng = np.random.default_rng(2)
    a = dates(rng, "s", 24).reshape(4, 6)
    for view in (a, a.T, a[::2, 1::3], a[1]):
        same(identity.py_func(view), identity(view))
        same(element.py_func(view, 1), element(view, 1))


def test_elements_are_stored_in_the_arrays_unit():
    a = np.array(["2020-01-01T05", "NaT"], dtype="M8[h]")
    b = a.copy()
    store(a, 1, np.datetime64("2021-03-04"))
    store.py_func(b, 1, np.datetime64("2021-03-04"))
    same(b, a)
    a = np.array(["2020-01-01"], dtype="M8[D]")
    b = a.copy()
    store(a, 0, np.datetime64("2021-03-04T23:59", "m"))  # floored to the day, as NumPy's cast
    store.py_func(b, 0, np.datetime64("2021-03-04T23:59", "m"))
    same(b, a)


def test_typeof_and_types():
    assert repr(ruchey.typeof(np.datetime64("2020-01-01"))) == "datetime64[D]"
    assert repr(ruchey.typeof(np.zeros(3, "m8[ns]"))) == "array(timedelta64[ns], 1d, C)"
    assert repr(types.NPDatetime("")) == "datetime64"
    assert ruchey.from_dtype("M8[ms]") == types.NPDatetime("ms")
    assert repr(types.NPTimedelta("s")[:, ::1]) == "array(timedelta64[s], 2d, C)"
    with pytest.raises(ValueError, match="no such unit"):
        types.NPDatetime("days")


def kinds_of(a):
    return (isinstance(a, np.datetime64), isinstance(a, np.timedelta64), isinstance(a, complex),
            isinstance(a, (int, np.timedelta64)), isinstance(a, (float, np.datetime64)))


def test_isinstance_of_datetime64_and_timedelta64_holds_for_every_unit():
    f = njit(kinds_of)
    values = [np.datetime64(1, "ns"), np.datetime64("2020-02", "M"), np.datetime64("NaT"), np.timedelta64(3, "D"),
              np.timedelta64(3), np.timedelta64("NaT", "s"), 1.5, 3, 2j]
    for x in values:
        assert f(x) == kinds_of(x), x


def test_explicit_signatures():
    @njit(types.NPTimedelta("h")(types.NPDatetime("h")[:], types.NPDatetime("h")))
    def since(a, t):
        return a[0] - t

    a = np.array(["2020-01-02T03"], dtype="M8[h]")
    t = np.datetime64("2020-01-01T00", "h")
    same(since.py_func(a, t), since(a, t))
    with pytest.raises(TypeError):
        since(a, np.datetime64("2020-01-01"))  # another unit: no conversion, as Numba


def test_multiples_of_a_unit_are_refused_by_name():
    with pytest.raises(TypeError, match=r"datetime64\[10s\]"):
        identity(np.zeros(2, "M8[10s]"))


def test_frozen_globals():
    day = np.datetime64("2020-05-05")
    hours = np.array([1, 2, "NaT"], dtype="m8[h]")

    def shifted():
        return day + hours

    same(shifted(), njit(shifted)())


@njit
def as_int(x):
    return int(x)


def test_int_of_nanosecond_datetimes_is_their_count():
    rng = np.random.default_rng(41)
    values = np.concatenate([dates(rng, "ns", 50, nat=0), deltas(rng, "ns", 50, nat=0).astype("M8[ns]")])
    for v in list(values) + list(deltas(rng, "ns", 50, nat=0)):
        assert as_int(v) == as_int.py_func(v)
    for nat in (np.datetime64("NaT", "ns"), np.timedelta64("NaT", "ns")):
        with pytest.raises(TypeError):
            as_int.py_func(nat)
        with pytest.raises(TypeError, match="NaT"):
            as_int(nat)


@pytest.mark.parametrize("value", [np.datetime64("2014", "Y"), np.timedelta64(3, "D"), np.datetime64(3, "us")])
def test_int_of_other_units_is_refused(value):
    with pytest.raises(TypeError):
        as_int.py_func(value)
    with pytest.raises(TypingError, match=r"only datetime64\[ns\] and timedelta64\[ns\]"):
        as_int(value)


@njit
def time_sums(a):
    return np.sum(a), a.sum(), np.mean(a), a.mean(), np.median(a), np.any(a), np.all(a)


@njit
def time_sums_along(a, k):
    return np.sum(a, axis=k), a.mean(axis=k), np.cumsum(a, axis=k)


@njit
def time_cumsum(a):
    return np.cumsum(a), a.cumsum()


@pytest.mark.parametrize("n", [0, 1, 2, 3, 10, 37, 4000])
@pytest.mark.parametrize("nat", [0, 0.05, 1])
def test_timedelta_sums_means_and_medians_are_numpys(n, nat):
    """NaT where a NaT is summed (NumPy's add), means truncated as NumPy's
    timedelta / int, NaT for none; the median NaT where a NaT is among them."""
    rng = np.random.default_rng(n)
    for unit in ("s", "D", "ns"):
        a = deltas(rng, unit, n, nat)
        for got, expected in zip(time_sums(a), numpy_result(time_sums.py_func, a)):
            same(expected, got)
        for got, expected in zip(time_cumsum(a), time_cumsum.py_func(a)):
            same(expected, got)


def test_timedelta_sums_along_an_axis_are_numpys():
    rng = np.random.default_rng(7)
    a = deltas(rng, "ms", 6 * 35, 0.05).reshape(6, 35)
    for x in (a, np.asfortranarray(a), a[::2, ::-3], a[:0]):
        for k in (0, 1):
            for got, expected in zip(time_sums_along(x, k), numpy_result(time_sums_along.py_func, x, k)):
                same(expected, got)


def test_datetime_sums_are_refused_as_numpy_refuses_them():
    d = dates(np.random.default_rng(3), "D", 5)
    for f in (lambda a: a.sum(), lambda a: np.mean(a), lambda a: np.median(a), lambda a: np.cumsum(a),
              lambda a: np.cumprod(a.view("m8[D]"))):
        with pytest.raises(TypeError):  # NumPy's UFuncTypeError
            f(d)
        with pytest.raises(TypingError):
            njit(f)(d)
    one = njit(lambda v: (np.sum(v), np.mean(v), np.median(v), np.any(v), np.all(v)))
    for v in (np.timedelta64(5, "D"), np.timedelta64(-3, "s"), np.timedelta64("NaT", "ms"), np.timedelta64(0, "h")):
        for got, expected in zip(one(v), numpy_result(one.py_func, v)):
            same(expected, got)


@njit
def extremes(a, b):
    return np.maximum(a, b), np.minimum(a, b), np.fmax(a, b), np.fmin(a, b)


@pytest.mark.parametrize("units", [("s", "ms"), ("D", "h"), ("ns", "ns"), ("Y", "M")])
def test_maximum_minimum_fmax_fmin_of_datetimes_are_numpys(units):
    """In the finer unit; NaT wins maximum and minimum, loses fmax and fmin."""
    rng = np.random.default_rng(len(units[0]) * 7 + len(units[1]))
    for make in (dates, deltas):
        a, b = make(rng, units[0], 40), make(rng, units[1], 40)
        for x, y in ((a, b), (a, b[3]), (a[5], b[6]), (a.reshape(5, 8), b[:8])):
            for got, expected in zip(extremes(x, y), numpy_result(extremes.py_func, x, y)):
                same(expected, got)


def test_sign_of_timedeltas_is_numpys():
    sign = njit(lambda v: np.sign(v))
    d = deltas(np.random.default_rng(5), "us", 30)
    for v in (d, d[0], d[1], np.timedelta64("NaT", "s"), np.timedelta64(0, "D")):
        same(sign.py_func(v), sign(v))  # (NaT's sign is int64's least value's: -1)
    with pytest.raises(TypingError):
        sign(np.datetime64("2020-01-01"))


def test_extremes_without_a_common_unit_or_kind_are_refused():
    for x, y in ((np.timedelta64(5, "Y"), np.timedelta64(3, "D")), (np.datetime64("2020-01-01"), np.timedelta64(3, "s"))):
        with pytest.raises(TypeError):  # NumPy's UFuncTypeError
            extremes.py_func(x, y)
        with pytest.raises(TypingError, match="no common unit or kind"):
            extremes(x, y)


def test_shape_ndim_and_size_of_datetimes_are_numpys():
    shape_of = njit(lambda v: (np.shape(v), np.ndim(v), np.size(v)))
    rng = np.random.default_rng(9)
    for v in (dates(rng, "D", 6).reshape(2, 3), deltas(rng, "s", 4), np.datetime64("2020-01-01"),
              np.timedelta64("NaT", "ms")):
        assert shape_of(v) == shape_of.py_func(v)



def test_dtype_type_of_a_zero_d_datetime_array_is_its_item():
    item = njit(lambda x: x.dtype.type(x))
    rng = np.random.default_rng(10)
    for v in (*dates(rng, "D", 3), *deltas(rng, "h", 3), *dates(rng, "ns", 2), np.timedelta64("NaT", "s")):
        x = np.array(v)
        got, want = item(x), item.py_func(x)
        assert type(got) is type(want) and got.dtype == want.dtype
        assert (np.isnat(got) and np.isnat(want)) or got == want


def test_dtype_type_refuses_another_units_datetime():
    other = njit(lambda a, x: a.dtype.type(x))
    with pytest.raises(TypingError, match="datetimes keep their own type"):
        other(np.zeros(2, "M8[D]"), np.array(np.datetime64(5, "s")))



def days_between(d, n):
    return ((d - d[0]) // np.timedelta64(1, "D"), np.timedelta64(n, "h") + np.timedelta64(30, "m"),
            np.datetime64(n, "D"), np.datetime64("2020-02-29") + np.timedelta64(n, "D"), np.timedelta64("NaT"),
            np.timedelta64(n), np.datetime64("NaT", "s"))


@pytest.mark.parametrize("n", [0, 3, -40, 2**40])
def test_datetime64_and_timedelta64_made_in_compiled_code(n):
    rng = np.random.default_rng(11)
    d = dates(rng, "m", 8, nat=0.25)
    got, want = njit(days_between)(d, n), days_between(d, n)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(g, w)


def test_datetime64_and_timedelta64_refuse_what_numpy_refuses():
    with pytest.raises(TypingError, match="cannot be interpreted as an integer"):
        njit(lambda x: np.timedelta64(x, "D"))(1.5)  # NumPy: a float count is refused
    with pytest.raises(TypingError, match="numpy.datetime64"):
        njit(lambda: np.datetime64("2020-13-01"))()
    with pytest.raises(TypingError, match="constant unit"):
        njit(lambda s: np.datetime64(s))("2020-01-01")


# ---------------------------------------------------------------- operators


def sub(a, b):
    return a - b


def add(a, b):
    return a + b


def mul(a, b):
    return a * b


def div(a, b):
    return a / b


def floordiv(a, b):
    return a // b


def mod(a, b):
    return a % b


def lt(a, b):
    return a < b


def le(a, b):
    return a <= b


def eq(a, b):
    return a == b


def ne(a, b):
    return a != b


def gt(a, b):
    return a > b


COMPARE = [lt, le, eq, ne, gt]
JIT = {f: njit(f) for f in [sub, add, mul, div, floordiv, mod] + COMPARE}


def unit_pairs(units):
    return [(a, b) for a in units for b in units]


def check_scalars(f, xs, ys):
    for x in xs:
        for y in ys:
            same(numpy_result(f, x, y), JIT[f](x, y))


@pytest.mark.parametrize("ua, ub", unit_pairs(["Y", "M", "D", "h", "s", "ns"]))
def test_datetime_minus_datetime_in_the_finer_unit(ua, ub):
    rng = np.random.default_rng(3)
    check_scalars(sub, dates(rng, ua, 6), dates(rng, ub, 6))


@pytest.mark.parametrize("f", COMPARE)
@pytest.mark.parametrize("ua, ub", unit_pairs(["Y", "M", "W", "D", "ms"]))
def test_datetime_comparisons_across_units_nat_false(f, ua, ub):
    rng = np.random.default_rng(4)
    a, b = dates(rng, ua, 6), dates(rng, ub, 6)
    b[:3] = a[:3].astype(b.dtype)  # equal values too
    check_scalars(f, a, b)


@pytest.mark.parametrize("ua, ub", [(a, b) for a in UNITS for b in LINEAR] + unit_pairs(["Y", "M"]))
def test_datetime_plus_and_minus_timedelta(ua, ub):
    rng = np.random.default_rng(5)
    d, t = dates(rng, ua, 5), deltas(rng, ub, 5)
    check_scalars(add, d, t)
    check_scalars(add, t, d)
    check_scalars(sub, d, t)


@pytest.mark.parametrize("f", [add, sub, div, floordiv, mod] + COMPARE)
@pytest.mark.parametrize("ua, ub", unit_pairs(["W", "D", "h", "us"]) + unit_pairs(["Y", "M"]))
def test_timedelta_with_timedelta(f, ua, ub):
    rng = np.random.default_rng(6)
    a, b = deltas(rng, ua, 6), deltas(rng, ub, 6)
    b[0] = np.timedelta64(0, ub)  # a zero divisor: NaT for %, 0 for //, inf or nan for /
    check_scalars(f, a, b)


@pytest.mark.parametrize("f", [mul, div, floordiv])
def test_timedelta_scaled_by_numbers(f):
    rng = np.random.default_rng(7)
    t = deltas(rng, "s", 8)
    numbers = [3, -2, 0, np.int32(5), 2.5, -0.75, np.float32(1.5), float("nan"), float("inf")]
    check_scalars(f, t, numbers)
    if f is mul:
        check_scalars(f, numbers, t)


def test_unary_minus_and_abs_keep_nat():
    def neg_abs(t):
        return -t, abs(t), +t

    rng = np.random.default_rng(8)
    for t in deltas(rng, "ms", 10, nat=0.3):
        for e, g in zip(neg_abs(t), njit(neg_abs)(t)):
            same(e, g)


def test_loops_over_datetimes():
    def total_since_first(a):
        s = a[0] - a[0]
        for i in range(a.shape[0]):
            if not np.isnat(a[i]):
                s = s + (a[i] - a[0])
        return s

    a = dates(np.random.default_rng(9), "h", 50, nat=0.1)
    a[0] = np.datetime64("2020-01-01T00")
    same(total_since_first(a), njit(total_since_first)(a))


def test_a_variable_holding_two_units_takes_the_finer():
    def pick(a, b, first):
        v = a
        if not first:
            v = b
        return v

    a, b = np.datetime64("2020-01-01"), np.datetime64("2020-01-01T05", "h")
    for first in (True, False):
        got = njit(pick)(a, b, first)
        assert got.dtype == np.dtype("M8[h]") and got == pick(a, b, first)


# ---------------------------------------------------------------- arrays


@pytest.mark.parametrize("f", [sub, lt, eq, ne])
def test_array_expressions_of_datetimes(f):
    rng = np.random.default_rng(10)
    a, b = dates(rng, "D", 30), dates(rng, "h", 30)
    same(numpy_result(f, a, b), JIT[f](a, b))
    same(numpy_result(f, a.reshape(5, 6), b[:6]), JIT[f](a.reshape(5, 6), b[:6]))  # broadcast
    same(numpy_result(f, a, b[3]), JIT[f](a, b[3]))


@pytest.mark.parametrize("f", [add, sub, div, floordiv, mod, lt])
def test_array_expressions_of_timedeltas(f):
    rng = np.random.default_rng(11)
    t, u = deltas(rng, "s", 40), deltas(rng, "ms", 40)
    same(numpy_result(f, t, u), JIT[f](t, u))
    same(numpy_result(f, t[::2], u[1::2]), JIT[f](t[::2], u[1::2]))


def test_array_expressions_of_datetimes_and_timedeltas():
    rng = np.random.default_rng(12)
    d, t = dates(rng, "D", 30), deltas(rng, "h", 30)
    same(d + t, JIT[add](d, t))
    same(d - t, JIT[sub](d, t))
    same(numpy_result(mul, t, 3), JIT[mul](t, 3))
    same(numpy_result(mul, t, 0.5), JIT[mul](t, 0.5))
    same(numpy_result(floordiv, t, 4), JIT[floordiv](t, 4))


def test_numpy_ufuncs_of_timedeltas():
    def f(t, d):
        return np.negative(t), np.absolute(t), np.abs(t), np.add(d, t), np.subtract(d, d)

    rng = np.random.default_rng(13)
    t, d = deltas(rng, "us", 20), dates(rng, "us", 20)
    for e, g in zip(f(t, d), njit(f)(t, d)):
        same(e, g)


def test_isnat():
    def f(a):
        return np.isnat(a), np.isnat(a[0]), a[~np.isnat(a)]

    rng = np.random.default_rng(14)
    for a in (dates(rng, "ns", 20), deltas(rng, "D", 20)):
        a[0] = np.array("NaT", dtype=a.dtype)
        for e, g in zip(f(a), njit(f)(a)):
            same(e, g)


TIME_UFUNCS = [
    ("np.multiply(a, 3)", "md"), ("np.multiply(2.5, a)", "md"), ("np.multiply(a, b)", "mi"),
    ("np.true_divide(a, b)", "mm"), ("np.divide(a, 4)", "md"), ("np.floor_divide(a, b)", "mm"),
    ("np.floor_divide(a, 3)", "md"), ("np.remainder(a, b)", "mm"), ("np.mod(a, b)", "mm"),
    ("np.equal(a, b)", "mm"), ("np.not_equal(a, b)", "MM"), ("np.less(a, b)", "MM"), ("np.less_equal(a, b)", "mm"),
    ("np.greater(a, b)", "mm"), ("np.greater_equal(a, b)", "MM"), ("np.positive(a)", "m"),
    ("np.add(a, b, np.zeros(a.shape, 'M8[s]'))", "Mm"), ("np.subtract(a, b, out=np.zeros(a.shape, 'm8[ms]'))", "MM"),
    ("np.negative(a, np.zeros(a.shape, 'm8[ms]'))", "m"), ("np.absolute(a, out=np.zeros(a.shape, 'm8[ms]'))", "m"),
]


@pytest.mark.parametrize("source, kinds", TIME_UFUNCS)
def test_numpy_operator_ufuncs_of_datetimes_as_the_operators(source, kinds):
    f = njit(eval(f"lambda a, b: {source}"))
    rng = np.random.default_rng(len(source))
    make = {"m": lambda u: deltas(rng, u, 16), "M": lambda u: dates(rng, u, 16), "d": lambda u: 2.5,
            "i": lambda u: 3}
    for units in (("s", "s"), ("s", "ms"), ("D", "h")):
        args = [make[k](u) for k, u in zip(kinds, units)] + [None] * (2 - len(kinds))
        if kinds == "mi":
            args[1] = rng.integers(-5, 5, 16)
        same(numpy_result(f.py_func, *args), f(*args))


def test_numpy_ufuncs_refuse_what_numpy_refuses_of_datetimes():
    rng = np.random.default_rng(16)
    for source in ("np.multiply(a, 2)", "np.true_divide(a, 2)", "np.positive(a)", "np.floor_divide(a, a)"):
        f = njit(eval(f"lambda a: {source}"))
        with pytest.raises(TypeError):
            f.py_func(dates(rng, "D", 4))
        with pytest.raises(ruchey.TypingError):
            f(dates(rng, "D", 4))


@pytest.mark.parametrize("name", ["isnan", "isinf", "isfinite"])
def test_numpy_float_predicates_of_datetimes_take_nat_as_nan(name):
    f = njit(eval(f"lambda a: (np.{name}(a), np.{name}(a[0]), np.{name}(a[1:3]))"))
    rng = np.random.default_rng(18)
    for a in (dates(rng, "D", 12, nat=0.4), deltas(rng, "ns", 12, nat=0.4)):
        a[0] = np.array("NaT", dtype=a.dtype)
        for e, g in zip(f.py_func(a), f(a)):
            same(e, g)


def test_array_types_of_datetimes_keep_their_units_in_signatures():
    from ruchey import types
    m_s, big_d = types.Array(types.NPTimedelta("s"), 1, "C"), types.Array(types.NPDatetime("D"), 1, "A")
    assert m_s == types.from_dtype("m8[s]")[::1] and big_d == types.from_dtype("M8[D]")[:]

    @njit((big_d, m_s))
    def shifted(d, m):
        return d + m

    rng = np.random.default_rng(17)
    d, m = dates(rng, "D", 9), deltas(rng, "s", 9)
    same(shifted.py_func(d, m), shifted(d, m))
    assert len(shifted.signatures) == 1


def test_isnat_writes_an_out_array_given_by_position_or_keyword():
    @njit
    def into(a, out):
        np.isnat(a, out)
        return out

    @njit
    def into_kw(a, out):
        return np.isnat(a, out=out)

    rng = np.random.default_rng(15)
    for a in (dates(rng, "s", 12), deltas(rng, "ms", 12)):
        a[3] = np.array("NaT", dtype=a.dtype)
        for f in (into, into_kw):
            same(f.py_func(a, np.zeros(12, bool)), f(a, np.zeros(12, bool)))
    with pytest.raises(ruchey.TypingError, match="out= must be an array"):
        into(a, 1)


def smallest(a):
    return np.min(a)


def largest(a):
    return a.max()


def first_smallest(a):
    return np.argmin(a)


def first_largest(a):
    return a.argmax()


@pytest.mark.parametrize("f", [smallest, largest, first_smallest, first_largest])
def test_reductions_find_nat_as_numpy(f):
    g = njit(f)
    rng = np.random.default_rng(15)
    for n in (1, 3, 8, 33, 100):
        for nat in (0, 0.05, 1):
            for a in (dates(rng, "s", n, nat), deltas(rng, "ms", n, nat)):
                same(f(a), g(a))


def test_reductions_along_an_axis():
    def f(a):
        return np.max(a, axis=0), a.min(axis=1), np.argmax(a, axis=0)

    a = dates(np.random.default_rng(16), "m", 60, nat=0.05).reshape(6, 10)
    for e, g in zip(f(a), njit(f)(a)):
        same(e, g)


def sorted_copy(a):
    return np.sort(a)


def sorted_stably_along_0(a):
    return np.sort(a, axis=0, kind="stable")


def sorted_flat(a):
    return np.sort(a, axis=None)


def sorted_in_place(a):
    a.sort()
    return a


def sorting_indices(a):
    return np.argsort(a, kind="stable"), a.argsort(axis=0, kind="stable"), np.argsort(a, axis=None, kind="stable")


@pytest.mark.parametrize("f", [sorted_copy, sorted_stably_along_0, sorted_flat, sorted_in_place, sorting_indices])
def test_sorting_puts_nat_last_as_numpy(f):
    rng = np.random.default_rng(18)
    for n in (0, 1, 2, 7, 64, 1000):
        for a in (dates(rng, "s", n, 0.2), deltas(rng, "us", n, 0.2), dates(rng, "D", n, 1)):
            check_sorted(f, a)
    a = dates(rng, "h", 60).reshape(6, 10)
    check_sorted(f, a)
    check_sorted(f, a[:, ::2].T)


def check_sorted(f, a):
    e, g = f(a.copy()), njit(f)(a.copy() if f is sorted_in_place else a)
    for x, y in zip(e, g) if f is sorting_indices else [(e, g)]:
        same(x, y)


def searches(a, v):
    return np.searchsorted(a, v), np.searchsorted(a, v, side="right"), a.searchsorted(v, "right")


@pytest.mark.parametrize("make, ua, uv", [(dates, "s", "s"), (dates, "h", "m"), (dates, "D", "h"), (dates, "M", "D"),
                                          (deltas, "us", "us"), (deltas, "ms", "s"), (deltas, "s", "ns")])
def test_searchsorted_finds_places_in_the_finer_unit_nat_last_as_numpy(make, ua, uv):
    rng = np.random.default_rng(19)
    f = njit(searches)
    for n in (0, 1, 5, 40):
        for nat in (0.0, 0.3):
            a = np.sort(make(rng, ua, n, nat))
            v = make(rng, uv, 6, 0.3)
            for needles in (v, v[:0], v[0], v.reshape(2, 3), np.concatenate([a, a]).astype(v.dtype)):
                if NUMPY1 and np.ndim(needles) == 0 and np.isnat(needles) and ua != uv:
                    continue  # (NumPy 1.x places a NaT scalar of another unit before the last item: NumPy 2 sorts it last)
                for e, g in zip(searches(a, needles), f(a, needles)):
                    same(e, g)


def test_searchsorted_of_datetimes_and_other_values_is_a_typing_error():
    f = njit(searches)
    for a, v in [(np.zeros(3, "M8[s]"), np.timedelta64(1, "s")), (np.arange(3), np.datetime64(1, "s")),
                 (np.zeros(3, "m8[D]"), 2.5), (np.zeros(3, "m8[M]"), np.timedelta64(1, "D"))]:
        with pytest.raises(TypingError):
            f(a, v)


def views_of(a):
    return a.view(np.int64), a.view(np.uint64), a.view("M8[ms]"), a.view(np.dtype("m8[us]")), a.view(a.dtype)


def counts_viewed_as(b):
    return b.view("M8[s]"), b.view("m8[D]"), b.view("datetime64[ns]")


@pytest.mark.parametrize("make, unit", [(dates, "s"), (dates, "D"), (deltas, "ms"), (deltas, "h")])
def test_views_of_datetime_arrays_as_counts_and_other_units_as_numpy(make, unit):
    rng = np.random.default_rng(20)
    f, g = njit(views_of), njit(counts_viewed_as)
    for n in (0, 1, 9):
        a = make(rng, unit, n)
        for x in (a, a[::2], a.reshape(-1, 1) if n else a):
            for e, w in zip(views_of(x), f(x)):
                same(e, w)
        b = a.view(np.int64)
        for e, w in zip(counts_viewed_as(b), g(b)):
            same(e, w)


def distinct_values(a):
    return np.unique(a), np.unique(a, return_counts=True)


@pytest.mark.parametrize("make, unit", [(dates, "s"), (dates, "M"), (deltas, "us")])
def test_unique_of_datetimes_sorts_and_keeps_one_nat_as_numpy(make, unit):
    rng = np.random.default_rng(21)
    f = njit(distinct_values)
    for n in (0, 1, 12, 200):
        for nat in (0.0, 0.3, 1.0):
            a = make(rng, unit, n, nat)
            a = np.concatenate([a, a[: n // 2]])  # repeats
            e, g = distinct_values(a), f(a)
            same(e[0], g[0])
            same(e[1][0], g[1][0])
            same(e[1][1], g[1][1])


def test_creation_with_datetime_dtypes():
    seconds = np.dtype("M8[s]")

    def f(n):
        return np.empty(n, dtype="datetime64[ns]"), np.zeros(n, seconds), np.zeros((2, n), "m8[D]")

    def like(a):
        return np.empty_like(a), np.zeros_like(a)

    for e, g in zip(f(3), njit(f)(3)):
        assert e.dtype == g.dtype and e.shape == g.shape
    same(f(3)[1], njit(f)(3)[1])
    a = np.zeros((2, 3), "M8[us]")
    for e, g in zip(like(a), njit(like)(a)):
        assert e.dtype == g.dtype and e.shape == g.shape
    same(like(a)[1], njit(like)(a)[1])


def test_shapes_and_views():
    def f(a):
        return a.reshape((2, 3)), a.reshape((2, 3)).T, a.ravel(), a[::-1].copy(), np.where(np.isnat(a), a[0], a)

    a = deltas(np.random.default_rng(17), "h", 6)
    for e, g in zip(f(a), njit(f)(a)):
        same(e, g)


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize("f, x, y", [
    (add, np.datetime64("2020-01-01"), np.datetime64("2020-01-02")),  # datetime + datetime
    (sub, np.timedelta64(1, "D"), np.datetime64("2020-01-02")),
    (add, np.datetime64("2020-01-01"), np.timedelta64(1, "M")),  # months to days: NumPy cannot cast
    (add, np.timedelta64(1, "Y"), np.timedelta64(1, "D")),  # no common unit
    (lt, np.timedelta64(1, "M"), np.timedelta64(1, "D")),
    (lt, np.datetime64("2020-01-01"), np.timedelta64(1, "D")),
    (mul, np.datetime64("2020-01-01"), 2),
    (mul, np.timedelta64(1, "D"), np.timedelta64(1, "D")),
    (div, 2, np.timedelta64(1, "D")),
    (mod, np.timedelta64(1, "D"), 2),
])
def test_what_numpy_refuses_is_a_typing_error(f, x, y):
    with pytest.raises(Exception):
        numpy_result(f, x, y)
    with pytest.raises(TypingError):
        njit(f)(x, y)


FINE_UNITS = ["W", "D", "h", "s", "ms", "us", "ns", "ps", "fs", "as"]


def store_first(a, b):
    b[0] = a[0]
    return b


@pytest.mark.parametrize("f, kind", [(add, "m8"), (lt, "m8"), (sub, "M8"), (lt, "M8"), (store_first, "m8")])
def test_units_whose_common_unit_overflows_are_refused_as_numpy_refuses_them(f, kind):
    """Weeks and attoseconds (or years of dates and femtoseconds) have no
    common unit within int64: NumPy raises OverflowError; compiled code
    refuses them at typing, and computes every pair that fits as NumPy."""
    for ua in (["Y", "M"] if kind == "M8" else []) + FINE_UNITS:
        for ub in FINE_UNITS:
            a, b = np.array([3], f"{kind}[{ua}]"), np.array([2], f"{kind}[{ub}]")
            try:
                expected = numpy_result(f, a, b.copy())
            except OverflowError:
                with pytest.raises(TypingError, match="no common unit.*overflows"):
                    njit(f)(a, b.copy())
                continue
            same(expected, njit(f)(a, b.copy()))


def test_mixing_with_plain_numbers_is_refused_as_numba():
    with pytest.raises(TypingError, match="unsupported operand types"):
        njit(add)(np.timedelta64(1, "D"), 1)
    with pytest.raises(TypingError, match="cannot compare"):
        njit(eq)(np.timedelta64(1, "D"), 1)


def test_builtins_not_made_for_datetimes_refuse_them():
    with pytest.raises(TypingError, match="does not support timedelta64"):
        njit(lambda a: a.prod())(np.zeros(3, "m8[D]"))
    with pytest.raises(TypingError, match="does not support datetime64"):
        njit(lambda a: np.std(a))(np.zeros(3, "M8[D]"))
    with pytest.raises(TypingError, match="does not support datetime64"):
        njit(lambda a: np.abs(a))(np.zeros(3, "M8[D]"))
    with pytest.raises(TypingError, match="bad operand type"):
        njit(lambda a: -a)(np.datetime64("2020-01-01"))


DAY = np.timedelta64(1, "D")


def list_work(a):
    items = [a[0], a[-1]]
    for v in a:
        items.append(v)
    items.insert(0, a[0] + DAY)
    last = items.pop()
    total = a[0] - a[0]
    for v in items:
        if not np.isnat(v):
            total = total + (v - a[0])
    return len(items), items[0], last, total, items.index(a[-1]), items.count(a[0])


def test_typed_lists_made_in_compiled_code_hold_datetimes():
    rng = np.random.default_rng(19)
    for a in (dates(rng, "D", 9), dates(rng, "ns", 3)):
        a[0] = np.datetime64("2020-01-01")
        for e, g in zip(list_work(a), njit(list_work)(a)):
            same(e, g)
    made = njit(lambda a: [v for v in a])(a)
    assert type(made) is list  # a comprehension: a Python list, as Numba's reflected list
    same(list(a), made)
    assert njit(lambda items: items[1])(made) == a[1]  # passed back in, its unit kept
    made = njit(lambda a: ruchey.typed.List(a))(a)
    assert type(made).__name__ == "List" and repr(made).startswith("ListType[datetime64[ns]]")
    same(list(a), list(made))
    assert njit(lambda items: items[1])(made) == a[1]
    made.append(a[0])  # from Python too, in the list's unit
    same(a[0], made[-1])


def test_dicts_made_in_compiled_code_refuse_datetime_values():
    def listed(a):
        d = ruchey.typed.Dict()
        d[0] = a[0]
        return d

    with pytest.raises(TypingError, match="not supported"):
        njit(listed)(np.zeros(2, "M8[D]"))


# ---------------------------------------------------------------- the on-disk cache

CACHED = '''
import numpy as np
from ruchey import njit

@njit(cache=True)
def since(a, t):
    return a - t
'''

CACHE_CALLS = '''
import numpy as np
import cached
a = np.array(["2020-01-01", "NaT"], dtype="M8[D]")
t = np.datetime64("2019-12-31T12", "h")
r = cached.since(a, t), cached.since(a[0], t)
assert r[0].dtype == np.dtype("m8[h]") and r[0][0] == np.timedelta64(12, "h") and np.isnat(r[0][1])
assert r[1] == np.timedelta64(12, "h") and r[1].dtype == np.dtype("m8[h]")
print(sum(cached.since.stats.cache_hits.values()), sum(cached.since.stats.cache_misses.values()))
'''


def test_a_second_process_loads_datetime_code_from_the_cache(tmp_path):
    import os
    import subprocess
    import sys
    (tmp_path / "cached.py").write_text(CACHED)
    environ = {k: v for k, v in os.environ.items() if k not in ("RUCHEY_CACHE_DIR", "NUMBA_CACHE_DIR")}
    environ.update(PYTHONPATH=str(tmp_path), PYTHONDONTWRITEBYTECODE="1")

    def hits_misses():
        r = subprocess.run([sys.executable, "-c", CACHE_CALLS], cwd=tmp_path, env=environ, capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr
        return tuple(int(x) for x in r.stdout.split()[-2:])

    assert hits_misses() == (0, 2)
    assert hits_misses() == (2, 0)  # the results' units come back from the cache


# ---------------------------------------------------------------- prange


def parallel_total(a):
    s = a[0] - a[0]
    for i in ruchey.prange(a.shape[0]):
        s += a[i] - a[0]
    return s


def parallel_latest(a):
    m = a[0]
    for i in ruchey.prange(a.shape[0]):
        m = max(m, a[i])
    return m


@pytest.mark.parametrize("f", [parallel_total, parallel_latest])
def test_prange_reductions_keep_nat(f):
    g = njit(parallel=True)(f)
    rng = np.random.default_rng(20)
    for nat in (0, 0.01):
        a = dates(rng, "s", 2000, nat)
        a[0] = np.datetime64("2000-01-01T00:00:00")
        same(f(a), g(a))


# ---------------------------------------------------------------- dict keys and set items


def count_by(a):
    d = {}
    for x in a:
        d[x] = d.get(x, 0) + 1
    return d


def distinct(a):
    s = set()
    for x in a:
        s.add(x)
    return len(s), a[0] in s, a[-1] + (a[-1] - a[-1]) in s, s


def first_seen(a):
    d = {a[0]: 0}
    for i in range(1, len(a)):
        d.setdefault(a[i], i)
    return d, set(a), {a[0], a[-1]}


def keyed_lookup(a, i):
    d = {}
    for k in range(3):
        d[a[k]] = k
    return d[a[i]]


@pytest.mark.parametrize("unit", ["D", "s", "ms"])
def test_datetimes_and_timedeltas_as_dict_keys_and_set_items(unit):
    rng = np.random.default_rng(40)
    f, g, h = njit(count_by), njit(distinct), njit(first_seen)
    for a in (dates(rng, unit, 20, nat=0), deltas(rng, unit, 30, nat=0)):
        a = np.concatenate([a, a[:7]])  # repeated keys
        got, want = f(a), count_by(a)
        assert list(got.keys()) == list(want.keys()) and list(got.values()) == list(want.values())
        assert all(type(k) is type(a[0]) and k.dtype == a.dtype for k in got.keys())
        got_s, want_s = g(a), distinct(a)
        assert got_s[:3] == want_s[:3] and got_s[3] == want_s[3]
        (gd, gs, gl), (wd, ws, wl) = h(a), first_seen(a)
        assert dict(gd) == wd and gs == ws and gl == wl


def test_a_datetime_key_missing_raises_numpys_key_error():
    a = np.array(["2020-01-01", "2020-01-02", "2020-01-03", "2021-05-06"], dtype="M8[D]")
    g = njit(keyed_lookup)
    assert g(a, 1) == keyed_lookup(a, 1)
    with pytest.raises(KeyError) as got:
        g(a, 3)
    with pytest.raises(KeyError) as want:
        keyed_lookup(a, 3)
    assert got.value.args == want.value.args and str(got.value) == str(want.value)
    s = njit(lambda a: {a[0]}.remove(a[1]))
    with pytest.raises(KeyError, match=r"np.datetime64\('2020-01-02'\)|numpy.datetime64"):
        s(a)


def test_nat_keys_are_one_key_as_numbas():
    """NaT != NaT, but a dict or set holds one NaT key, as Numba's (compared by their counts);
    Python's dict of NaT objects holds each object."""
    a = np.array(["2020-01-01", "NaT", "2020-01-02", "NaT", "2020-01-01"], dtype="M8[D]")
    d = njit(count_by)(a)
    assert len(d) == 3 and d[np.datetime64("NaT", "D")] == 2 and d[np.datetime64("2020-01-01")] == 2
    n, has_first, _, s = njit(distinct)(a)
    assert n == 3 and has_first and len(s) == 3


def test_a_datetime_keyed_dict_from_compiled_code_is_read_in_python():
    a = np.array([10, 20, 10], dtype="m8[s]")
    d = njit(count_by)(a)
    assert d[np.timedelta64(10, "s")] == 2 and np.timedelta64(20, "s") in d
    with pytest.raises(KeyError):  # another value in another unit, as a Python dict of them
        d[np.timedelta64(10, "ms")]
    assert [(k, k.dtype) for k in d] == [(np.timedelta64(10, "s"), np.dtype("m8[s]")),
                                         (np.timedelta64(20, "s"), np.dtype("m8[s]"))]


def raise_with_dates(x, y):
    raise ValueError("between", x, y)


def test_an_exception_keeps_datetime_arguments():
    x, y = np.datetime64("2020-01-01T10:00"), np.timedelta64(3, "ms")
    with pytest.raises(ValueError) as got:
        njit(raise_with_dates)(x, y)
    with pytest.raises(ValueError) as want:
        raise_with_dates(x, y)
    assert got.value.args == want.value.args and str(got.value) == str(want.value)
