"""print() in @njit functions: the line the Python function prints, through
sys.stdout (so in order with the interpreter's own output), for every
number type on generated values."""
import collections
import contextlib
import io
import math

import numpy as np
import pytest
import ruchey

from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's formatting of floats")

RNG = make_rng(11)

SPECIAL = [0.0, -0.0, 1.0, -1.5, 0.1, 1e-4, 9.999e-5, 1e-5, 1e15, 1e16, 9999999999999998.0, 1e300, -1e-300,
           5e-324, 2.0 ** 52, 2.0 ** 53 + 2, 123456.789, math.pi, math.inf, -math.inf, math.nan, 1e22, 1e21]


@ruchey.njit
def show(x):
    print(x)


@ruchey.njit
def show_many(a, b, c, d):
    print("values:", a, b, c, d, "end")


@ruchey.njit
def show_each(a):
    for i in range(a.shape[0]):
        print(i, a[i])
    print()


def printed(capsys, f, *args):
    capsys.readouterr()
    f(*args)
    return capsys.readouterr().out


def random_floats(n):
    mant = RNG.standard_normal(n)
    return list(mant * 10.0 ** RNG.integers(-30, 30, size=n)) + list(RNG.integers(-10**6, 10**6, size=n) / 8.0)


@pytest.mark.parametrize("x", SPECIAL + random_floats(40))
def test_a_float_prints_as_python_writes_it(capsys, x):
    assert printed(capsys, show, float(x)) == printed(capsys, show.py_func, float(x))


@pytest.mark.parametrize("x", SPECIAL[:-4] + random_floats(20) + [1e7, 9999999.0, 999999.9, 1e6, 16777216.0, 3.4e38, 1.2e-38, 1.00012e-4])
def test_a_float32_prints_as_numpy_writes_it(capsys, x):
    with np.errstate(all="ignore"):
        v = np.float32(x)
    assert printed(capsys, show, v) == printed(capsys, show.py_func, v)


@pytest.mark.parametrize("x", [0, -1, 2**63 - 1, -2**63, True, False, np.uint64(2**64 - 1), np.int8(-128),
                               np.uint16(65535)] + [int(v) for v in RNG.integers(-2**62, 2**62, size=10)])
def test_ints_and_bools_print_as_python_writes_them(capsys, x):
    assert printed(capsys, show, x) == printed(capsys, show.py_func, x)


def test_several_arguments_strings_and_empty_lines(capsys):
    args = (3, 2.5, True, np.float32(0.25))
    assert printed(capsys, show_many, *args) == printed(capsys, show_many.py_func, *args)
    a = RNG.standard_normal(5)
    assert printed(capsys, show_each, a) == printed(capsys, show_each.py_func, a)


def test_compiled_lines_come_in_order_with_the_interpreters(capsys):
    def both():
        print("before")
        show(1.5)
        print("after")
    both()
    assert capsys.readouterr().out == "before\n1.5\nafter\n"


def test_print_in_a_parallel_loop_writes_whole_lines(capsys):
    @ruchey.njit(parallel=True)
    def each(n):
        for i in ruchey.prange(n):
            print("line", i)

    each(200)
    lines = capsys.readouterr().out.splitlines()
    assert sorted(lines) == sorted(f"line {i}" for i in range(200))


@ruchey.njit
def show_boxed(n, day, a, rec, words, h):
    s = {n, 1, n // 2}
    d = {"a": n, "b": -n}
    print("start", n)
    print(s, d, sep=" ; ", end="|\n")
    print(day, (day, n, "x"), a * 1j, h, (h, n))
    print([s, s], rec, rec[0], words, words[::-1])
    print("end", n, np.array([1.5]))


def test_values_print_c_does_not_write_are_printed_by_the_interpreter(capsys):
    """Sets, dicts, datetime64 and float16 values, arrays of complex numbers, text, datetimes or records, records:
    printed by the interpreter (as Numba's print boxes them), in order with the lines printed here."""
    rec = np.zeros(2, dtype=[("x", "f8"), ("y", "i4")])
    rec["x"] = [1.5, -2.0]
    for n in (0, 7, -12):
        for day in (np.datetime64("2020-02-29"), np.datetime64("NaT", "s"), np.datetime64("1969-12-31T23:59", "m")):
            args = (n, day, np.arange(3.0) - n, rec, np.array(["ab", "c", "é"]), np.float16(n / 3))
            assert printed(capsys, show_boxed, *args) == printed(capsys, show_boxed.py_func, *args)


Point = collections.namedtuple("Point", "x y")


@ruchey.njit
def show_named(p, n):
    print(p, (p, n), Point(n, p))


def test_named_tuples_print_as_python_writes_them(capsys):
    """A named tuple, alone or in a tuple, as Python (and Numba's boxing print) writes it: Point(x=1, y=2.5)."""
    for x, n in ((1.5, 0), (-0.0, 7), (float("nan"), -3)):
        p = Point(x, n)
        assert printed(capsys, show_named, p, n) == printed(capsys, show_named.py_func, p, n)


@ruchey.njit(parallel=True)
def show_boxed_in_prange(n, k):
    d = {1: 2.5, k: 0.0}
    total = 0.0
    print("before", d, (np.arange(2), n))
    for i in ruchey.prange(n):
        a = np.arange(i % 3 + 1) * 0.5
        print((a, i), np.float16(i / 4), a * 1j, sep=" | ")
        total += a.sum()
    print("after", {n}, d)
    return total


def test_values_for_the_interpreter_are_printed_in_parallel_loops_too(capsys):
    """Tuples of arrays, sets, dicts, float16 values, complex
    arrays in a function compiled with parallel=True, in its prange loop's
    threads too: each a whole line the interpreter writes (taking the GIL),
    as Numba prints them."""
    for n in (0, 1, 40):
        got, want = printed(capsys, show_boxed_in_prange, n, -3), printed(capsys, show_boxed_in_prange.py_func, n, -3)
        got, want = got.splitlines(), want.splitlines()
        assert got[0] == want[0] and got[-1] == want[-1]  # before and after the loop: in order
        assert sorted(got[1:-1]) == sorted(want[1:-1])  # the loop's lines, whole, in any order


@ruchey.njit
def show_tuples(x, n, flag):
    print((x, n), (x,), (), ((n, flag), None), None, "end")


@pytest.mark.parametrize("x", SPECIAL[:8] + random_floats(5))
def test_tuples_and_none_print_as_python_writes_them(capsys, x):
    for n, flag in [(0, True), (-7, False), (2**62, True)]:
        assert printed(capsys, show_tuples, float(x), n, flag) == printed(capsys, show_tuples.py_func, float(x), n,
                                                                             flag)


@ruchey.njit
def show_tuples_of_strings(x, n):
    print(("a", n), "float64", ("int32", x, ("f8", "")), ("float32",))


def test_strings_in_tuples_print_as_strings_not_dtypes(capsys):
    for x, n in [(1.5, 2), (-0.0, -3)]:
        assert printed(capsys, show_tuples_of_strings, x, n) == printed(capsys, show_tuples_of_strings.py_func, x, n)


@ruchey.njit
def show_lists(x, n, s):
    print([x, x / 3], [n], [s, s + "'"], ([n, n // 2], s), [True, n > 0], [n for n in range(0)])


@pytest.mark.parametrize("x", SPECIAL[:8] + random_floats(5))
def test_lists_print_as_python_writes_them(capsys, x):
    for n, s in [(0, ""), (-7, "it's"), (2**62, "é\t")]:
        assert printed(capsys, show_lists, float(x), n, s) == printed(capsys, show_lists.py_func, float(x), n, s)


@ruchey.njit
def show_optionals(x, n, s, flag):
    a = None if flag else x
    b = n if flag else None
    c = None if n > 0 else s
    print(a, b, c, "end")


@pytest.mark.parametrize("x", SPECIAL[:6] + random_floats(3))
def test_optional_values_print_none_or_their_value(capsys, x):
    for n, s, flag in [(0, "", True), (-7, "it's", False), (2**62, "é", True), (3, "s", False)]:
        args = (float(x), n, s, flag)
        assert printed(capsys, show_optionals, *args) == printed(capsys, show_optionals.py_func, *args)


def test_a_tuple_holding_an_array_prints_as_python(capsys):
    @ruchey.njit
    def f(a):
        print((1, a))

    for a in (np.zeros(2), np.arange(6).reshape(2, 3)):
        assert printed(capsys, f, a) == printed(capsys, f.py_func, a)


@ruchey.njit
def show_classes(x, a):
    print("classes", type(x), type(a[0]), np.float32, type(x + 0.5))


def test_number_classes_print_their_names_as_numba(capsys):
    """Numba prints a number class (type(x), numpy.float32) by its name,
    where Python would write "<class 'int'>" (porespy prints type(x))."""
    out = printed(capsys, show_classes, np.int32(3), np.ones(2, np.float32))
    assert out == "classes int32 float32 float32 float64\n"


@ruchey.njit
def show_delta(d):
    print(d)
    print("took", d, -d, "in all")


@pytest.mark.parametrize("unit", ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"])
def test_timedelta64_prints_as_numpy_writes_it(capsys, unit):
    counts = make_rng(len(unit) * 7 + ord(unit[0])).integers(-10**6, 10**6, 3).tolist() + [0, 1]
    for count in counts:
        d = np.timedelta64(count, unit)
        assert printed(capsys, show_delta, d) == printed(capsys, show_delta.py_func, d)
    nat = np.timedelta64("NaT", unit)
    assert printed(capsys, show_delta, nat) == printed(capsys, show_delta.py_func, nat)


def test_timedelta64_in_a_printed_tuple_prints_its_repr():
    f = ruchey.njit(lambda d: print((d, 1)))
    for d in (np.timedelta64(3, "D"), np.timedelta64(-5, "ms"), np.timedelta64("NaT", "s")):
        assert printed_by(f, d) == printed_by(f.py_func, d)


def printed_by(f, *args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        f(*args)
    return out.getvalue()


@ruchey.njit
def show_separated(a, b, s):
    print(a, b, s, sep="")
    print(a, b, s, sep=", ", end="|")
    print(a, end="")
    print(s, b, sep="%d%%", end=" é\n")
    print(sep="-", end="!\n")
    print(a, b, sep=None, end=None)


def test_sep_and_end_as_python(capsys):
    for a, b, s in zip(RNG.integers(-99, 99, 5).tolist(), RNG.normal(size=5).tolist(), ["", "x", "ab c", "%s", "ü"]):
        assert printed(capsys, show_separated, a, b, s) == printed(capsys, show_separated.py_func, a, b, s)


def test_sep_and_end_made_at_run_time_are_refused():
    @ruchey.njit
    def separated_by(a, sep):
        print(a, a, sep=sep)

    with pytest.raises(ruchey.TypingError, match="sep= must be a constant string"):
        separated_by(1, ",")
