"""How NumPy functions in compiled code take their arguments, as NumPy and
Numba do: a list of numbers (a Python list argument, a typed List) where
an array-like goes, None given by position to an optional parameter as
its default; and the results NumPy gives on inputs its algorithms are
not made for (interp's and searchsorted's points out of order, partition
of an empty array), which Numba follows step by step.

Each compiled function is checked against its own Python original on
generated inputs.
"""
import numpy as np
import pytest

import ruchey
from ruchey import typed

from arraygen import check, compiled
from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own messages")


def ints(rng, n, hi=9):
    return [int(v) for v in rng.integers(0, hi, n)]


def floats(rng, n):
    return [float(v) for v in np.round(rng.normal(0, 3, n), 1)]


# ---------------------------------------------------------------- lists as array-likes

LIST_CALLS = [
    ("np.bincount(a)", lambda rng: (ints(rng, 12),)),
    ("np.bincount(a, b)", lambda rng: (ints(rng, 7), floats(rng, 7))),
    ("np.digitize(a, b)", lambda rng: (floats(rng, 9), sorted(floats(rng, 5)))),
    ("np.searchsorted(a, b)", lambda rng: (sorted(floats(rng, 8)), floats(rng, 6))),
    ("np.interp(a, b, c)", lambda rng: (floats(rng, 6), sorted(floats(rng, 5)), floats(rng, 5))),
    ("np.flipud(a)", lambda rng: (floats(rng, 5),)),
    ("np.fliplr(a)", lambda rng: ([tuple(floats(rng, 3)) for _ in range(4)],)),
    ("np.diagflat(a)", lambda rng: (ints(rng, 4),)),
    ("np.extract(a, b)", lambda rng: ([bool(v) for v in rng.integers(0, 2, 8)], floats(rng, 8))),
    ("np.partition(a, 2)[2]", lambda rng: (floats(rng, 7),)),
    ("np.partition(np.arange(9.0)[::-1], a)[4]", lambda rng: ([1, 4, 6],)),
    ("np.argpartition(a, b)[3]", lambda rng: ([float(v) for v in rng.permutation(7)], [0, 3])),
    ("np.roll(a, 3)", lambda rng: (floats(rng, 6),)),
    ("np.repeat(a, 2)", lambda rng: (ints(rng, 5),)),
    ("np.intersect1d(a, b)", lambda rng: (ints(rng, 8), ints(rng, 8))),
    ("np.isin(a, b)", lambda rng: (ints(rng, 8), ints(rng, 4))),
    ("np.delete(a, b)", lambda rng: (floats(rng, 6), [0, 2])),
]


@pytest.mark.parametrize("expr,make", LIST_CALLS, ids=[c[0] for c in LIST_CALLS])
def test_numpy_function_takes_a_list_of_numbers(expr, make):
    f = compiled(expr, "a, b=None, c=None")
    for seed in range(3):
        args = make(make_rng(seed))
        check(f, *[list(a) for a in args])


def test_split_of_a_list():
    f = compiled("np.split(a, 3)[1]")  # (NumPy's split asks a list its shape: Numba's takes it)
    g = compiled("np.array_split(a, b)[-1]", "a, b")
    rng = make_rng(4)
    values = floats(rng, 9)
    assert np.array_equal(f(values), np.split(np.array(values), 3)[1])
    check(g, floats(rng, 10), 4)


def test_typed_list_is_an_array_like():
    f = compiled("np.bincount(a) + np.flipud(a)[0]")
    rng = make_rng(5)
    values = ints(rng, 10)
    assert np.array_equal(f(typed.List(values)), f.py_func(values))


def test_list_of_non_numbers_is_refused():
    f = compiled("np.flipud(a)")
    with pytest.raises(ruchey.TypingError):
        f(["ab", "cd"])


def test_a_number_is_not_made_an_array_where_one_is_asked_for():
    f = compiled("np.vander(a, b)", "a, b")
    rng = make_rng(6)
    check(f, np.round(rng.normal(0, 2, 4), 1), 3)


# ---------------------------------------------------------------- None by position: the default

def test_trailing_none_is_the_default():
    vander = compiled("np.vander(a, b)", "a, b")
    tri = compiled("np.tri(a, b)", "a, b")
    tri_k = compiled("np.tri(a, b, 1)", "a, b")
    x = np.round(make_rng(7).normal(0, 2, 4), 1)
    for n in (None, 2, 5):
        check(vander, x, n)
    for m in (None, 2, 4):
        check(tri, 3, m)
        check(tri_k, 4, m)


def test_none_written_by_position_is_the_default():
    f = compiled("np.vander(a, None)")
    g = compiled("a.max(None) + a.sum(None)")
    check(f, np.arange(4.0))
    check(g, np.arange(6.0).reshape(2, 3))


def test_none_where_numpy_reads_a_value():
    f = compiled("np.repeat(a, 2, None)")  # (axis=None: flat, the default too)
    check(f, np.arange(6.0).reshape(2, 3))


def test_none_before_another_argument():
    check(compiled("np.vander(a, None, True)"), np.arange(3.0))  # N=None: NumPy's default, read as it
    f = compiled("np.trace(a, 0, None, 1)")  # (NumPy's TypeError: an axis is no None)
    with pytest.raises(ruchey.TypingError, match="does not take None here"):
        f(np.arange(9.0).reshape(3, 3))


# ---------------------------------------------------------------- NumPy's algorithms followed

def test_interp_of_points_out_of_order_is_numpys():
    f = compiled("np.interp(a, b, c)", "a, b, c")
    rng = make_rng(8)
    for n in (1, 2, 4, 5, 9, 40, 300):
        xp = np.sort(rng.uniform(0, 10, n))
        fp = rng.normal(0, 1, n)
        x = rng.uniform(-1, 11, 2 * n + 3)
        check(f, x, xp, fp)
        rng.shuffle(x)
        check(f, x, xp, fp)
        rng.shuffle(xp)
        check(f, x, xp, fp)
        x[::4] = np.nan
        xp[::5] = np.inf
        fp[::3] = -np.inf
        check(f, x, xp, fp)
        x[1::5] = -np.inf
        xp[::3] = np.nan  # (a NaN point: NumPy's search answers its comparisons as they fall)
        check(f, x, xp, fp)
        check(f, x.reshape(-1, 1)[:, 0], xp.astype(np.float32), fp)


def test_interp_one_point():
    f = compiled("np.interp(a, b, c)", "a, b, c")
    x = np.array([np.nan, -1.0, 3.0, 5.0, np.inf])
    check(f, x, np.array([3.0]), np.array([7.5]))
    check(f, 2.5, np.array([3]), np.array([7.5]))


@pytest.mark.skipif(np.lib.NumpyVersion(np.__version__) >= "2.5.0",
                    reason="NumPy 2.5 searches an array that is not sorted otherwise")
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_of_an_array_out_of_order_is_numpys(side):
    f = compiled(f"np.searchsorted(a, b, side='{side}')", "a, b")
    rng = make_rng(9)
    pool = np.array(list(range(-5, 30)) + [np.nan] * 4 + [np.inf, -np.inf] * 2)
    for i in range(60):
        a = rng.choice(pool, int(rng.choice([5, 10, 25])))
        v = rng.choice(pool, 3 + i % 7)
        check(f, a, v)
        check(f, np.sort(a), v)
        check(f, a, v.reshape(1, -1))
        check(f, a, 7.0)


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 4), (2, 0, 3)])
def test_partition_of_an_empty_array_takes_any_kth(shape):
    f = compiled("np.partition(a, b)", "a, b")
    g = compiled("np.argpartition(a, b)", "a, b")
    for kth in (0, 5, -9):
        check(f, np.empty(shape), kth)
        check(g, np.empty(shape), kth)


def test_partition_kth_out_of_bounds_still_raises():
    f = compiled("np.partition(a, b)", "a, b")
    with pytest.raises(ValueError, match="out of bounds"):
        f(np.arange(3.0), 3)


@pytest.mark.parametrize("seed", range(3))
def test_partition_kth_of_two_dimensions_or_more_is_numpys_value_error(seed):
    """NumPy reads such a kth as too deep when the call runs: a ValueError
    whatever the array (empty too) and the kth's values, every form of call"""
    rng = make_rng(seed)
    forms = [compiled("np.partition(a, b)", "a, b"), compiled("np.argpartition(a, b, axis=0)", "a, b"),
             compiled("np.partition(a, b, axis=None)", "a, b"), compiled("a.argpartition(b)", "a, b")]
    for shape in [(int(rng.integers(1, 9)),), (0,), (3, int(rng.integers(1, 5)))]:
        a = rng.normal(size=shape)
        for kshape in [(2, 2), (0, 1), (1, 1, 1)]:
            kth = rng.integers(-2, 2, kshape).astype(rng.choice([np.int64, np.int32, np.uint8]))
            for f in forms:
                with pytest.raises(ValueError) as want:
                    f.py_func(a.copy(), kth)
                with pytest.raises(ValueError) as got:
                    f(a.copy(), kth)
                assert str(got.value) == str(want.value) == "object too deep for desired array"


# ---------------------------------------------------------------- append's axis, None's type questions

@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_append_along_an_axis_is_concatenate(axis):
    f = compiled("np.append(a, b, axis=c)", "a, b, c")
    g = compiled("np.append(a, b, c)", "a, b, c")
    rng = make_rng(10)
    a = rng.normal(size=(3, 4))
    b = rng.normal(size=(3, 4)) if axis is not None else rng.integers(0, 5, 7)
    check(f, a, b, axis)
    check(g, a.astype(np.float32), b, axis)


def test_append_of_mismatched_shapes_raises_numpys_error():
    f = compiled("np.append(a, b, axis=0)", "a, b")
    with pytest.raises(ValueError, match="must match exactly"):
        f(np.ones((2, 3)), np.ones((2, 2)))


def test_concatenate_flattened_is_refused_not_joined_along_0():
    f = compiled("np.concatenate((a, a), axis=None)")
    with pytest.raises(ruchey.TypingError, match="axis=None"):
        f(np.ones((2, 2)))


@pytest.mark.parametrize("name", ["isscalar", "iscomplexobj", "isrealobj"])
def test_type_questions_of_none(name):
    f = compiled(f"np.{name}(a)")
    for x in (None, 1.5, 2j, np.arange(3)):
        assert f(x) == f.py_func(x)


@pytest.mark.parametrize("name", ["isscalar", "iscomplexobj", "isrealobj"])
def test_type_questions_of_an_optional_answer_for_what_it_holds(name):
    src = f"def f(x, held):\n    y = x if held else None\n    return np.{name}(y), np.{name}(x if held else None)\n"
    env = {"np": np}
    exec(src, env)
    f = ruchey.njit(env["f"])
    for x in (2, 1.5, 2j, np.arange(3), np.zeros(2, np.complex64)):
        for held in (True, False):
            assert f(x, held) == f.py_func(x, held), (x, held)


# ---------------------------------------------------------------- flags known when the function runs

def test_digitize_right_known_when_it_runs():
    f = compiled("np.digitize(a, b, c)", "a, b, c")
    rng = make_rng(11)
    x = np.round(rng.normal(0, 3, 40))
    for bins in (np.array([-2.0, 0, 1, 3]), np.array([3.0, 1, 0, -2]), np.array([1.0, 1, 1]), np.array([])):
        for right in (True, False, 0, 1):
            check(f, x, bins, right)
            check(f, 1.0, bins, right)


def test_digitize_right_of_another_type_is_refused():
    f = compiled("np.digitize(a, b, c)", "a, b, c")
    with pytest.raises(ruchey.TypingError, match="right must be True or False"):
        f(np.zeros(3), np.arange(3.0), 0.5)


def test_isin_takes_numpys_positions_and_flags_known_when_it_runs():
    rng = make_rng(12)
    a, b = rng.integers(0, 9, 15), rng.integers(0, 9, 5)
    by_position = compiled("np.isin(a, b, c)", "a, b, c")  # (the third is assume_unique, as NumPy's)
    check(by_position, a, b, True)
    check(by_position, a, b, False)
    all_four = compiled("np.isin(a, b, False, c)", "a, b, c")
    by_keyword = compiled("np.isin(a, b, invert=c)", "a, b, c")
    for invert in (True, False, 1, 0):
        check(all_four, a, b, invert)
        check(by_keyword, a.reshape(3, 5), b, invert)
        check(by_keyword, 4, b, invert)


@pytest.mark.parametrize("x", [5, 2.5, True])
def test_roll_of_a_number_is_of_its_0d_array(x):
    f = compiled("np.roll(a, b)", "a, b")
    for shift in (0, 1, -3):
        check(f, x, shift)
