"""range(...) as a value: stored in a variable (chosen on a branch, as real
code picks a forward or a backward range), returned by a function, iterated
later (alone, with zip and enumerate), len(), list(), indexing (negative
indices, IndexError) — each
compared with the function's Python original on generated bounds and
steps."""
import numpy
import pytest

from ruchey import TypingError, njit

from conftest import make_rng, seed_of


@njit
def walk(start, stop, step, backwards):
    if backwards:
        r = range(stop, start, -step)
    else:
        r = range(start, stop, step)
    total, count, last = 0, 0, -1
    for i in r:
        total = (total * 7 + i) % 1000003
        count += 1
        last = i
    return total, count, last, len(r)


@njit
def index(start, stop, step, i):
    r = range(start, stop, step)
    return r[i]


@njit
def zipped(n, m):
    r = range(1, n, 2)
    s = 0
    for a, b in zip(r, range(m)):
        s += a * b
    for j, v in enumerate(r):
        s += j - v
    return s


def test_ranges_in_variables_iterate_as_python():
    rng = make_rng(7)
    cases = [(0, 0, 1), (0, 10, 1), (3, 40, 4), (-20, 20, 7), (5, 0, 1), (10, -10, -3)]
    cases += [tuple(int(x) for x in rng.integers(-60, 60, 2)) + (int(rng.integers(1, 9)),) for _ in range(40)]
    for start, stop, step in cases:
        for backwards in (False, True):
            assert walk(start, stop, step, backwards) == walk.py_func(start, stop, step, backwards), \
                (start, stop, step, backwards)


def test_range_indexing_as_python():
    rng = make_rng(8)
    for _ in range(200):
        start, stop = (int(x) for x in rng.integers(-50, 50, 2))
        step = int(rng.choice([-7, -3, -1, 1, 2, 5]))
        i = int(rng.integers(-30, 30))
        try:
            expected = index.py_func(start, stop, step, i)
        except IndexError:
            with pytest.raises(IndexError, match="range object index out of range"):
                index(start, stop, step, i)
            continue
        assert index(start, stop, step, i) == expected


def test_zip_and_enumerate_over_a_range_variable():
    for n in range(0, 15):
        for m in (0, 3, 20):
            assert zipped(n, m) == zipped.py_func(n, m)


def test_a_zero_step_raises_where_the_range_is_made():
    with pytest.raises(ValueError, match="range\\(\\) arg 3 must not be zero"):
        index(0, 5, 0, 1)


@njit
def row_range(indptr, i):
    return range(indptr[i], indptr[i + 1])


@njit
def picked(n, how):
    if how == 0:
        return range(n)
    if how == 1:
        return range(n, -n, -3)
    return range(2, n, 2)


@njit
def through_results(indptr, values, n, how):
    """xugrid's nzrange: a CSR row's range(indptr[i], indptr[i + 1]) made
    by a helper, walked by its caller; a range chosen by a function, kept,
    measured, listed, sorted and summed."""
    total = 0.0
    for i in range(len(indptr) - 1):
        for k in row_range(indptr, i):
            total += values[k] * (i + 1)
    r = picked(n, how)
    items = list(r)
    return total, len(r), len(items), sum(r), sorted(r)[0] if len(r) else 0, items[-1] if len(r) else 0


def test_ranges_returned_by_functions_as_python():
    rng = make_rng(9)
    indptr = numpy.sort(rng.integers(0, 50, 11))
    indptr[0], indptr[-1] = 0, 50
    values = rng.random(50)
    for n in (0, 1, 5, 12):
        for how in (0, 1, 2):
            got, want = through_results(indptr, values, n, how), through_results.py_func(indptr, values, n, how)
            assert got[0] == pytest.approx(want[0], rel=1e-12) and got[1:] == want[1:], (n, how)


def test_a_range_returned_to_python_is_a_range():
    for n in (0, 4, 9):
        for how in (0, 1, 2):
            assert picked(n, how) == picked.py_func(n, how)
    assert row_range(numpy.array([3, 8]), 0) == range(3, 8)


def test_a_slice_of_a_range_is_a_typing_error():
    @njit
    def sliced(n):
        r = range(n)
        return r[1:2][0]

    with pytest.raises(TypingError, match="slices of a range are not supported"):
        sliced(3)


@njit
def recurrence_and_wrap(x, alpha, lo):
    """A recurrence over range(1, n) (out[i - 1] is the value just stored),
    then loops of step -1 and 1 whose index reaches below 0 (x[i - 1] at
    i = 0 and x[i] from a negative lo wrap around, as Python's)."""
    out = x.copy()
    for i in range(1, x.shape[0]):
        out[i] = alpha * x[i] + (1.0 - alpha) * out[i - 1]
    back = 0.0
    for i in range(x.shape[0] - 1, -1, -1):
        back = back * 0.5 + x[i - 1]
    fwd = 0.0
    for i in range(lo, x.shape[0]):
        fwd = fwd * 0.25 + x[i]
    return out, back, fwd


@pytest.mark.parametrize("n", [1, 2, 7, 64, 70_000])
def test_unit_step_loops_index_as_python(n):
    import numpy
    x = make_rng(n).random(n)
    for lo in (0, -1, -n):
        got, want = recurrence_and_wrap(x, 0.3, lo), recurrence_and_wrap.py_func(x, 0.3, lo)
        assert numpy.array_equal(got[0], want[0]) and got[1:] == want[1:]



@njit
def strided_marks(x, start, stop, step):
    """Loops whose step is known only at run time index x with their
    values: a sieve's marking, a strided sum, a break, and the variable's
    last value; negative starts wrap around, as Python's."""
    marks = numpy.zeros(x.shape[0], dtype=numpy.int64)
    for j in range(start, stop, step):
        marks[j] += 1
    s = 0.0
    last = -7
    for j in range(start, stop, step):
        if x[j] > 0.97:
            break
        s += x[j]
        last = j
    return marks, s, last


@pytest.mark.parametrize("n", [1, 5, 64, 70_000])
def test_loops_with_a_runtime_step_index_as_python(n):
    x = make_rng(seed_of("strided", n)).random(n)
    cases = [(0, n, 1), (0, n, 3), (n // 3, n, 7), (-n, n, 2), (-1, n, 5), (n - 1, -1, -2), (n - 1, -n - 1, -3),
             (2, 1, 1), (n, 0, 4), (0, n, n + 1)]
    for start, stop, step in cases:
        got, want = strided_marks(x, start, stop, step), strided_marks.py_func(x, start, stop, step)
        assert numpy.array_equal(got[0], want[0]) and got[1:] == want[1:], (start, stop, step)


@njit
def contains(v, start, stop, step):
    r = range(start, stop, step)
    return v in r, v not in range(start, stop, step), v in range(stop)


def test_in_a_range_is_arithmetic_as_python():
    """v in range(...): within the bounds and on a step, for either
    direction, ints of every width, bools, floats (whole ones only; NaN, the
    infinities and floats past int64 never) and complex numbers (a zero
    imaginary part), each compared with the Python original."""
    import numpy
    rng = make_rng(9)
    ranges = [(0, 10, 1), (1, 10, 3), (10, -10, -3), (5, 5, 1), (-9, 9, -1), (0, 10, 2 ** 62)]
    ranges += [tuple(int(x) for x in rng.integers(-40, 40, 2)) + (int(rng.choice([-7, -2, -1, 1, 3, 5])),)
               for _ in range(30)]
    values = [0, 1, -2, 7, 9, 10, -10, 2 ** 63 - 1, True, False, 3.0, 3.5, -4.0, float("nan"), float("inf"), 1e300,
              9.3e18, 2 + 0j, 2 + 1j, numpy.uint64(2 ** 64 - 1), numpy.uint64(4), numpy.int8(-5), numpy.float32(4.0),
              numpy.complex64(6)]
    values += [int(x) for x in rng.integers(-45, 45, 20)]
    for start, stop, step in ranges:
        for v in values:
            assert contains(v, start, stop, step) == contains.py_func(v, start, stop, step), (v, start, stop, step)


def test_in_a_range_spanning_int64():
    """Python walks a range for what is not exactly an int (too long here):
    the expected answers are written out."""
    import numpy
    lo, hi = -(2 ** 63), 2 ** 63 - 1
    for v in (0, 1, 2, lo, lo + 1, lo + 3, hi - 1, hi - 2, hi, -7, 9):  # distances past int64 too
        for a, b, step in ((lo, hi, 1), (lo, hi, 3), (lo + 1, hi, 7), (hi, lo, -1), (hi, lo, -5), (hi, lo, lo)):
            assert contains(v, a, b, step) == contains.py_func(v, a, b, step), (v, a, b, step)
    assert contains(True, lo, hi, 1) == contains(numpy.uint64(1), lo, hi, 1) == (True, False, True)
    assert contains(numpy.uint64(2 ** 64 - 1), lo, hi, 1) == (False, True, False)
    for v, inside in ((3.0, True), (3.5, False), (-9.2e18, True), (9.3e18, False), (float("nan"), False),
                      (float("-inf"), False), (5 + 0j, True), (5 + 1e-9j, False)):
        assert contains(v, lo, hi, 1)[:2] == (inside, not inside), v
        assert contains(v, lo, hi, 2)[0] == (inside and int(v.real) % 2 == 0), v


def test_what_is_no_number_is_never_in_a_range():
    @njit
    def has(s, n):
        return s in range(n)

    assert has("a", 3) is False and has.py_func("a", 3) is False


def test_in_a_range_with_a_zero_step_raises_as_python():
    with pytest.raises(ValueError, match="range\\(\\) arg 3 must not be zero"):
        contains(1, 0, 5, 0)


def test_an_array_in_a_range_is_a_typing_error():
    import numpy

    @njit
    def has(a, n):
        return a in range(n)

    with pytest.raises(TypingError, match="'in' a range needs a number"):
        has(numpy.arange(3), 3)


@njit
def parts(start, stop, step, backwards):
    r = range(stop, start, -step) if backwards else range(start, stop, step)
    return r.start, r.stop, r.step, range(stop).start, range(start, stop).step


def test_start_stop_and_step_of_a_range_as_python():
    rng = make_rng(31)
    for _ in range(40):
        start, stop = (int(v) for v in rng.integers(-20, 20, 2))
        step = int(rng.integers(1, 5))
        backwards = bool(rng.integers(0, 2))
        assert parts(start, stop, step, backwards) == parts.py_func(start, stop, step, backwards)
    with pytest.raises(ValueError):
        parts(1, 2, 0, False)  # range() arg 3 must not be zero, before its parts are read


@njit
def unpacked_range(start, stop, step):
    a, b, c = range(start, stop, step)
    return a, b, c


@njit
def unpacked_range_var(n):
    r = range(n)
    x, y = r
    return x * 10 + y


def test_unpacking_a_range_takes_its_numbers():
    """a, b, c = range(...): its numbers, Python's ValueError where it holds another count."""
    rng = make_rng(17)
    cases = [(0, 3, 1), (5, -1, -2), (2, 9, 3), (0, 2, 1), (0, 4, 1), (3, 3, 1)]
    cases += [tuple(int(v) for v in rng.integers(-6, 7, size=2)) + (int(rng.choice([-3, -1, 1, 2])),) for _ in range(20)]
    for args in cases:
        try:
            want = unpacked_range.py_func(*args)
        except ValueError as e:
            with pytest.raises(ValueError, match=str(e).replace("(", r"\(").replace(")", r"\)")):
                unpacked_range(*args)
        else:
            assert unpacked_range(*args) == want
    for n in (1, 2, 3):
        try:
            want = unpacked_range_var.py_func(n)
        except ValueError:
            with pytest.raises(ValueError):
                unpacked_range_var(n)
        else:
            assert unpacked_range_var(n) == want
