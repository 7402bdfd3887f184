"""Control flow: if/elif/else, for over range (1, 2, 3 args), while, early return."""
import ast
import ctypes.util
import inspect
import math
import platform
import re
import subprocess

import numpy
import pytest
import ruchey

from conftest import (AS_NUMBA, assert_same, float_array, int_array, make_rng, numba_deviation,
                      random_floats, random_ints, random_pairs, run_python_file)

# ---------------------------------------------------------------- if / elif / else


@ruchey.jit
def classify(x):
    if x < 0:
        return -1
    elif x == 0:
        return 0
    elif x < 10:
        return 1
    else:
        return 2


@ruchey.jit
def clamp(x, lo, hi):
    r = x
    if r < lo:
        r = lo
    if r > hi:
        r = hi
    return r


@ruchey.jit
def nested_if(a, b):
    if a > 0:
        if b > 0:
            r = a + b
        else:
            r = a - b
    else:
        if b > a:
            r = b * 2
        elif b == a:
            r = a - b
        else:
            r = a * b
    return r


@ruchey.jit
def select(flag, a, b):
    if flag:
        return a
    else:
        return b


@ruchey.jit
def truthiness(x):
    if x:
        return 1
    return 0


def test_if_elif_else_picks_first_true_branch():
    rng = make_rng(30)
    for x in random_ints(rng, 100, -100, 100) + [-1, 0, 1, 9, 10, 11]:
        assert_same(classify, x)
    for x in random_floats(rng, 100) + [9.999, 10.0, -0.0]:
        assert_same(classify, x)


def test_if_without_else_falls_through():
    rng = make_rng(31)
    for x in random_ints(rng, 200, -50, 50):
        assert_same(clamp, x, -10, 10)
    for x in random_floats(rng, 100, special=False):
        assert_same(clamp, x, -1.0, 1.0)


def test_nested_if_assigns_variable_on_every_path():
    rng = make_rng(32)
    values = random_ints(rng, 40, -100, 100)
    for a, b in random_pairs(rng, values, values, 300):
        assert_same(nested_if, a, b)
    floats = random_floats(rng, 40, special=False)
    for a, b in random_pairs(rng, floats, floats, 200):
        assert_same(nested_if, a, b)


def test_if_on_bool_argument():
    rng = make_rng(33)
    for a, b in random_pairs(rng, random_ints(rng, 20), random_ints(rng, 20), 20):
        assert_same(select, True, a, b)
        assert_same(select, False, a, b)
    assert_same(select, True, 1.5, -2.5)
    assert_same(select, False, 1.5, -2.5)


def test_if_on_int_and_float_uses_python_truthiness():
    for x in (0, 1, -1, 2**40, 0.0, -0.0, 0.5, -2.5, float("nan")):
        assert_same(truthiness, x)


# ---------------------------------------------------------------- for over range


@ruchey.jit
def sum_range1(n):
    s = 0
    for i in range(n):
        s += i * i - 3 * i
    return s


@ruchey.jit
def sum_range2(a, b):
    s = 0
    for i in range(a, b):
        s += i * 7 - 5
    return s


@ruchey.jit
def sum_range3(a, b, step):
    s = 0
    count = 0
    for i in range(a, b, step):
        s = (s * 3 + i % 1000) % 1000003
        count += 1
    return s * 1000 + count


@ruchey.jit
def countdown_weighted(n):
    s = 0
    for i in range(n, 0, -1):
        s = s * 2 % 1000000007 + i
    return s


@ruchey.jit
def nested_loops(n, m):
    s = 0
    for i in range(n):
        for j in range(i, m):
            s += i * j - j
    return s


@ruchey.jit
def float_accumulate(n, x):
    s = 0.0
    for i in range(n):
        s = s * x + i
    return s


@ruchey.jit
def reassign_loop_variable(n):
    s = 0
    for i in range(n):
        i = i * 10
        s += i
    return s


def test_for_range_one_arg_matches_python():
    for n in [0, 1, 2, 7, 1000, 100003, -1, -5] + random_ints(make_rng(34), 20, -10, 500):
        assert_same(sum_range1, n)


def test_for_range_two_args_matches_python():
    rng = make_rng(35)
    values = random_ints(rng, 40, -300, 300)
    for a, b in random_pairs(rng, values, values, 200):
        assert_same(sum_range2, a, b)
    assert sum_range2(5, 5) == 0 and sum_range2(5, 2) == 0


def test_for_range_three_args_positive_step_matches_python():
    rng = make_rng(36)
    values = random_ints(rng, 40, -300, 300)
    steps = [1, 2, 3, 7, 1000] + rng.integers(1, 50, size=20).tolist()
    for a, b in random_pairs(rng, values, values, 150):
        for step in steps[:8]:
            assert_same(sum_range3, a, b, step)
    for step in steps:
        assert_same(sum_range3, -17, 500, int(step))


def test_for_range_negative_step_counts_down():
    rng = make_rng(37)
    values = random_ints(rng, 40, -300, 300)
    steps = [-1, -2, -3, -7, -1000] + rng.integers(-50, 0, size=20).tolist()
    for a, b in random_pairs(rng, values, values, 150):
        for step in steps[:8]:
            assert_same(sum_range3, a, b, step)
    for step in steps:
        assert_same(sum_range3, 500, -17, int(step))
    for n in (0, 1, 2, 7, 1000, -3):
        assert_same(countdown_weighted, n)


def _sum_range3_in_subprocess(cases, directory):
    """Run compiled sum_range3 on ``cases`` in a fresh interpreter with a deadline:
    a loop whose counter wraps around at the int64 limit would never terminate."""
    code = ("import ruchey\n" + inspect.getsource(sum_range3.py_func)
            + f"\nresults = [sum_range3(*c) for c in {cases!r}]"
            + "\nprint([(type(r).__name__, int(r)) for r in results])\n")
    try:
        proc = run_python_file(code, directory, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"compiled range loop did not terminate for one of {cases}")
    assert proc.returncode == 0, proc.stderr[-4000:]
    results = ast.literal_eval(proc.stdout.strip().splitlines()[-1])
    for case, (type_name, value) in zip(cases, results):
        assert type_name in ("int", "int64"), (case, type_name)
        assert value == sum_range3.py_func(*case), case
    assert len(results) == len(cases)


def test_for_range_near_int64_limits_does_not_overflow(tmp_path):
    big = 2**62
    cases = [(big, -big, -(big // 5)), (0, 2**63 - 1, 2**61),
             (2**63 - 1, 2**63 - 10, -1), (2**63 - 10, 2**63 - 1, 1),
             (-(2**63), -(2**63) + 5, 2), (2**63 - 3, 2**63 - 1, 5),
             (-(2**63) + 4, -(2**63), -3)]
    _sum_range3_in_subprocess(cases, tmp_path)


@numba_deviation("range trip count overflows when stop - start exceeds int64")
def test_for_range_whose_span_exceeds_int64(tmp_path):
    big = 2**62
    cases = [(-big, big, big // 3), (-(2**63), 2**63 - 1, 2**62),
             (2**63 - 1, -(2**63), -(2**61))]
    _sum_range3_in_subprocess(cases, tmp_path)


def test_nested_for_loops_with_dependent_bounds():
    for n, m in [(0, 0), (1, 1), (7, 5), (5, 7), (60, 80), (-2, 4)]:
        assert_same(nested_loops, n, m)


def test_for_loop_float_accumulation_is_exact_in_serial_order():
    rng = make_rng(38)
    for n in (0, 1, 7, 1000):
        for x in rng.uniform(-1.1, 1.1, size=5).tolist():
            assert_same(float_accumulate, n, x)


def test_reassigning_loop_variable_does_not_change_iteration():
    for n in (0, 1, 7, 100):
        assert_same(reassign_loop_variable, n)


# ---------------------------------------------------------------- while


@ruchey.jit
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@ruchey.jit
def gcd(a, b):
    while b != 0:
        t = a % b
        a = b
        b = t
    return a


@ruchey.jit
def float_halvings(x):
    count = 0
    while x > 1.0:
        x = x / 2.0
        count += 1
    return count


@ruchey.jit
def while_false_never_runs(n):
    s = 5
    while n > 100:
        s = -1
        n -= 1
    return s


def test_while_loop_collatz_matches_python():
    for n in [1, 2, 3, 7, 27, 97, 871] + random_ints(make_rng(39), 50, 1, 10**6):
        assert_same(collatz_steps, n)


def test_while_loop_gcd_with_negative_operands_matches_python():
    rng = make_rng(40)
    values = random_ints(rng, 60, -10**9, 10**9)
    for a, b in random_pairs(rng, values, values, 300):
        assert_same(gcd, a, b)


def test_while_loop_with_float_condition():
    for x in random_floats(make_rng(41), 100, special=False) + [1e300, 1.0, 2.0]:
        assert_same(float_halvings, x)


def test_while_loop_whose_condition_is_initially_false_never_runs():
    for n in (0, 100, 101, 5000):
        assert_same(while_false_never_runs, n)


# ---------------------------------------------------------------- early return


@ruchey.jit
def smallest_divisor(n):
    d = 2
    while d * d <= n:
        if n % d == 0:
            return d
        d += 1
    return n


@ruchey.jit
def first_index_above(x, t):
    for i in range(len(x)):
        if x[i] > t:
            return i
    return -1


@ruchey.jit
def early_return_before_loop(n):
    if n <= 0:
        return -n
    s = 0
    for i in range(n):
        if i * i > n:
            return s
        s += i
    return s + 1000


def test_early_return_from_while_loop():
    for n in [2, 3, 4, 9, 25, 97, 1000003] + random_ints(make_rng(42), 80, 2, 10**7):
        assert_same(smallest_divisor, n)


def test_early_return_from_for_loop_over_array():
    rng = make_rng(43)
    for n in (0, 1, 7, 1000, 100003):
        x = float_array(rng, n)
        for t in (-1e9, 0.0, 150.0, 300.0, 1e9):
            assert_same(first_index_above, x, t)
        xi = int_array(rng, n)
        for t in (-2000, 0, 990, 2000):
            assert_same(first_index_above, xi, t)


def test_early_return_before_and_inside_loop():
    for n in (-5, 0, 1, 2, 3, 10, 1000):
        assert_same(early_return_before_loop, n)


# ---------------------------------------------------------------- ordered float sums

@ruchey.njit
def _dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@ruchey.njit
def _sum_of_exps(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += math.exp(a[i])
    return s


def test_ordered_float_sums_match_python_at_every_length():
    rng = make_rng(1950)
    for n in (0, 1, 3, 10, 31, 32, 33, 100, 1001):
        a, b = float_array(rng, n), float_array(rng, n)
        assert_same(_dot, a, b)
        assert_same(_sum_of_exps, numpy.clip(a, -5, 5))


@pytest.mark.skipif(AS_NUMBA, reason="inspects ruchey's LLVM IR")
def test_a_sum_of_cheap_terms_stays_scalar_and_a_sum_of_dear_ones_vectorises():
    """The adds of a float sum stay in order: a vector loop only helps when
    the terms cost more than the add (exp), not for a dot product, whose
    vector prologue short arrays would pay on every call."""
    _dot(numpy.ones(4), numpy.ones(4))
    _sum_of_exps(numpy.ones(4))
    assert not re.search(r"<\d+ x double>", next(iter(_dot.inspect_llvm().values())))
    if platform.machine() == "x86_64" and ctypes.util.find_library("mvec"):
        assert re.search(r"<\d+ x double>", next(iter(_sum_of_exps.inspect_llvm().values())))


def float_then_loop_variable(n):
    s = 0.0
    i = 0.5
    for i in range(n):
        s += i
    return s, i


def float_then_prange_variable(n):
    s = 0.0
    i = 0.5
    for i in ruchey.prange(n):
        s += i
    return s, i


@pytest.mark.parametrize("fn, opts", [(float_then_loop_variable, {}), (float_then_prange_variable, {"parallel": True})])
def test_a_loop_variable_first_assigned_a_float_takes_the_loops_values(fn, opts):
    # the variable is a float64 (Numba's unification of float and int): the
    # loop's ints are converted into it, not stored as raw bits
    f = ruchey.njit(**opts)(fn)
    for n in [0, 1, 3, 100]:
        assert f(n) == fn(n)


# ---------------------------------------------------------------- constant conditions

DEBUG = False
LEVEL = 0


@ruchey.jit
def dead_sides(a):
    x = a.no_such_attribute if False else a + 1
    y = a * 2 if 1 else "a str"
    if DEBUG:
        print(a.no_such_attribute)
    while False:
        x = "never"
    if LEVEL:
        return "a str"
    elif not DEBUG:
        return x + y
    return x


def make_drawer(line_width, scale):
    """As datashader builds its kernels: closure constants choose a helper,
    the other one None, and the branch calling None is pruned."""
    fancy = ruchey.njit(lambda v: v * scale) if line_width > 0.0 else None
    plain = None if line_width > 0.0 else ruchey.njit(lambda v: v + scale)

    def draw(v):
        if line_width > 0.0:
            return fancy(v)
        elif -1.5 <= line_width < 0:
            return "never typed" + v
        return plain(v)
    return draw


@pytest.mark.parametrize("line_width", [0, 0.0, 1.5, -1, 2 ** 53 + 1])
def test_comparisons_of_closure_number_constants_prune_the_side_not_taken(line_width):
    draw = make_drawer(line_width, 3)
    if -1.5 <= line_width < 0:
        with pytest.raises(ruchey.TypingError):
            ruchey.njit(draw)(2.0)
        return
    assert ruchey.njit(draw)(2.0) == draw(2.0)


def test_a_constant_condition_prunes_the_side_not_taken_before_typing():
    """As Numba: a literal or a frozen global decides the branch, and the
    dead side (which would not type) is never typed."""
    for a in (numpy.arange(3.0), 2, 1.5):
        assert_same(dead_sides, a)


def test_a_variable_holding_an_arrays_ndim_prunes_as_the_ndim_itself():
    """`num_dims = x.ndim` then branches on num_dims whose other branches
    give arrays of other dimensions (sktime's distance inputs), as Numba's
    rewrite of x.ndim to a constant prunes them."""
    @ruchey.njit
    def as_3d(x):
        num_dims = x.ndim
        if num_dims == 1:
            out = numpy.reshape(x, (x.shape[0], 1, 1))
        elif num_dims == 2:
            out = numpy.reshape(x, (x.shape[0], 1, x.shape[1]))
        else:
            out = x
        return out

    rng = make_rng(63)
    for shape in ((5,), (4, 3), (2, 3, 4)):
        x = rng.standard_normal(shape)
        got, want = as_3d(x), as_3d.py_func(x)
        assert got.shape == want.shape and numpy.array_equal(got, want)
@ruchey.njit
def first_set(flags, start=0, end=None, step=1):
    if end is None:
        end = len(flags)
    for i in range(start, end, step):
        if flags[i]:
            return i
    else:
        return -1


@ruchey.njit
def halve_until(n):
    while n > 1:
        n //= 2
        if n == 5:
            return -n
    else:
        return n


def test_a_loop_whose_else_returns_always_returns():
    """A loop without a break runs its else whenever it ends: a function
    ending in `for ...: ... else: return -1` returns an int, not an
    Optional (pysheds stores the result in an int array)."""
    rng = make_rng(5)
    out = numpy.zeros(3, numpy.int64)
    for _ in range(6):
        flags = rng.random(int(rng.integers(0, 7))) < 0.3
        assert_same(first_set, flags)
        assert_same(first_set, flags, len(flags) - 1, -1, -1)
        out[0] = first_set(flags)  # an int where the element is stored
    for n in (0, 1, 10, 11, 64, 1000):
        assert_same(halve_until, n)


@ruchey.njit
def busy(queue, name, k):
    n = 0
    while queue or k < 3:
        if queue:
            n += queue.pop()
        k += 1
    if not queue and (name or k > 10):
        n += 100
    return n


def test_and_or_in_conditions_take_each_operands_truth():
    """`while queue or k < n` of a typed list, a str in `and`: each operand's
    truth, as Python reads a condition (pysheds' priority flood)."""
    for items, name, k in (([], "", 0), ([3, 4], "x", 1), ([5], "", 5)):
        queue = ruchey.typed.List.empty_list(ruchey.int64)
        queue.extend(items)
        assert busy(queue, name, k) == busy.py_func(list(items), name, k)


@ruchey.njit
def add_to_bins(i, weights, where, bins):
    """where is a tuple of one or two index arrays: the branch for the other
    length would index past the tuple's end."""
    if len(where) == 1:
        bins[where[0][i]] += weights[i]
    elif len(where) == 2:
        bins[where[0][i], where[1][i]] += weights[i]
    return len(where) != 2


def test_the_len_of_a_tuple_prunes_the_branches_for_other_lengths():
    """As Numba's rewrite of len(tuple) to a constant: the branch written
    for tuples of another length is not typed (it would index out of the
    tuple's range)."""
    rng = make_rng(64)
    weights = rng.random(40)
    rows, cols = rng.integers(0, 5, 40), rng.integers(0, 3, 40)
    for where, shape in (((rows,), (5,)), ((rows, cols), (5, 3))):
        got, want = numpy.zeros(shape), numpy.zeros(shape)
        for i in range(40):
            assert add_to_bins(i, weights, where, got) == add_to_bins.py_func(i, weights, where, want)
        assert numpy.allclose(got, want, rtol=1e-12)


def test_an_item_of_a_constant_tuple_prunes_the_side_not_taken():
    """`a = (flag,)` then `b if a[0] else other` where the sides are
    tuples of different lengths: the item decides the branch before typing,
    so only the side taken is typed (Python's result; Numba refuses the
    unpacked form). An unknown condition between the two stays an error."""
    rng = make_rng(65)
    for _ in range(4):
        flag, k = int(rng.integers(0, 2)), int(rng.integers(-3, 4))
        src = ("def spread(x):\n"
               f"    a = ({flag}, {k})\n"
               "    b = (x, 2 * x, 3)\n"
               "    c = b if a[0] else (5, 6)\n"
               "    d = (*(b if a[-2] else (x,)),)\n"
               "    return c, d, (7 if a[1] > 0 else 8.5)\n")
        env = {}
        exec(compile(src, f"<spread{flag}{k}>", "exec"), env)
        x = int(rng.integers(-50, 50))
        assert_same(ruchey.njit(env["spread"]), x)

    @ruchey.njit
    def unknown(a):
        b = (3, 2, 4)
        return b if a[0] else (5, 6)

    with pytest.raises(ruchey.TypingError, match="cannot be unified"):
        unknown((1,))
