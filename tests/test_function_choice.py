"""One of several compiled functions chosen at run time: fns[i] of a tuple
of them with a variable index (PyMPDATA's atv[dim](...)), a loop over the
tuple, a variable assigned different functions (g = f if c else h), such a
value passed on, to a FunctionType parameter too, and returned. Numba
unifies such functions into one first-class function type; ruchey calls the
one the value is through a switch with a direct call in each case, each
function compiled for the call's arguments. Each against the Python
original on generated inputs; the bad inputs are Python's errors (an index
out of range) or TypingErrors naming the functions that cannot share one
signature."""
import numpy
import pytest
import ruchey
from ruchey import njit, prange, typed, types

from conftest import AS_NUMBA, assert_same, make_rng, numba_deviation, random_floats

# Numba unifies functions compiled for one signature alone (with an explicit
# one: compiling more is disabled), so the tuples' functions have one.


@njit("float64(float64)")
def square(x):
    return x * x


@njit("float64(float64)")
def cube(x):
    return x * x * x


@njit("float64(float64)")
def halve(x):
    return x / 2.0


@njit("int64(float64)")
def truncate(x):
    return int(x)


FNS = (square, cube, halve)


def floats(seed, count=12):
    return [x for x in random_floats(make_rng(seed), count, special=False)] + [0.0, -1.5, 2.0]


# ---------------------------------------------------------------- an index known at run time


@njit
def pick(i, x):
    return FNS[i](x)


def test_item_at_a_run_time_index_of_a_global_tuple_is_called():
    for i in range(-3, 3):
        for x in floats(1):
            assert_same(pick, i, x)


def make_closure(fns):
    @njit
    def call(i, x):
        return fns[i](x) + fns[len(fns) - 1 - i](x)
    return call


def test_item_of_a_closure_tuple_at_run_time_index():
    for fns in ((square, cube), (cube, halve, square), (halve, halve, cube)):  # (a function twice too)
        f = make_closure(fns)
        for i in range(len(fns)):
            for x in floats(2, 5):
                assert_same(f, i, x)


@njit
def pick_from(fns, i, x):
    return fns[i](x)


def test_tuple_of_functions_passed_as_argument_indexed_at_run_time():
    for fns in ((square, cube), (halve, square, cube)):
        for i in range(len(fns)):
            for x in floats(3, 5):
                assert_same(pick_from, fns, i, x)


@njit
def table(x):
    out = numpy.empty((len(FNS), x.size))
    for i in range(len(FNS)):
        for j in range(x.size):
            out[i, j] = FNS[i](x[j])
    return out


def test_every_item_over_an_array_in_a_loop():
    assert_same(table, make_rng(4).standard_normal(11))


@njit(parallel=True)
def table_parallel(x, which):
    out = numpy.empty(x.size)
    for j in prange(x.size):
        out[j] = FNS[which[j]](x[j])
    return out


def test_chosen_per_element_in_a_parallel_loop():
    rng = make_rng(5)
    x, which = rng.standard_normal(40), rng.integers(0, 3, 40)
    numpy.testing.assert_array_equal(table_parallel(x, which), table_parallel.py_func(x, which))


# ---------------------------------------------------------------- loops, conditions, values passed on


@njit
def total(x):
    s = 0.0
    for f in FNS:
        s += f(x)
    return s


def test_loop_over_a_tuple_of_functions():
    for x in floats(6):
        assert_same(total, x)


@njit
def chosen(c, x):
    g = square if c else cube
    return g(x)


@njit
def chosen_in_branches(k, x):
    if k > 0:
        g = square
    elif k < 0:
        g = cube
    else:
        g = halve
    return g(x) * 2.0


def test_function_chosen_by_a_run_time_condition():
    for x in floats(7, 6):
        for c in (True, False):
            assert_same(chosen, c, x)
        for k in (-2, 0, 3):
            assert_same(chosen_in_branches, k, x)


PAIR = (cube, square)


@njit
def widened(i, k, x):
    g = halve  # then one of (cube, square): g holds one of (halve, cube, square), each number carried over
    if k <= 1:
        g = PAIR[i]
    return g(x)


def test_one_of_some_functions_assigned_where_one_of_more_is_held():
    for i in (0, 1, -1):
        for k in (0, 2):
            for x in floats(18, 4):
                assert_same(widened, i, k, x)


@njit
def apply(f, x):
    return f(x) + 1.0


@njit
def passed_on(i, x):
    return apply(FNS[i], x)


def test_chosen_function_passed_to_a_compiled_function():
    for i in range(3):
        for x in floats(8, 5):
            assert_same(passed_on, i, x)


ONE_ARG = types.FunctionType(types.float64(types.float64))


@njit(types.float64(ONE_ARG, types.float64))
def through_pointer(f, x):
    return f(x) - x


@njit
def to_function_type(i, x):
    return through_pointer(FNS[i], x)


def test_chosen_function_passed_for_a_function_type_parameter():
    for i in range(3):
        for x in floats(9, 5):
            assert_same(to_function_type, i, x)


@njit
def give(c):
    return square if c else cube


@njit
def give_and_call(c, x):
    return give(c)(x)


def test_chosen_function_returned_to_python_and_to_compiled_code():
    assert give(True) is square and give(False) is cube
    for c in (True, False):
        for x in floats(10, 5):
            assert_same(give_and_call, c, x)


# ---------------------------------------------------------------- functions compiled for the call


@njit
def lazy_a(x, k=2.0):
    return x * k


@njit
def lazy_b(x, k=3.0):
    return x - k


LAZY = (lazy_a, lazy_b)


@njit
def lazy_pick(i, x):
    return LAZY[i](x) + LAZY[i](x, k=0.5)


@numba_deviation("numba unifies only functions compiled already, with compiling disabled")
def test_functions_without_signature_compiled_for_the_call_with_their_defaults():
    for i in range(2):
        for x in floats(11, 5):
            assert_same(lazy_pick, i, x)


@njit
def running(x):
    out = x.copy()
    for k in range(1, x.size):
        out[k] += out[k - 1]
    return out


@njit
def doubled(x):
    return x * 2.0


ARRAY_FNS = (running, doubled)


@njit
def arrays_chosen(x, which):
    acc = numpy.zeros_like(x)
    for w in which:
        acc += ARRAY_FNS[w](x)
    return acc


@numba_deviation("numba unifies only functions compiled already, with compiling disabled")
def test_functions_returning_arrays_chosen_in_a_loop():
    rng = make_rng(12)
    x, which = rng.standard_normal(9), rng.integers(0, 2, 7)
    assert_same(arrays_chosen, x, which)


@njit
def at_point(focus, arr, i, j=0):
    return arr[focus[0] + i, focus[1] + j]


@njit
def at_point_t(focus, arr, j, i=0):
    return arr[focus[0] + i, focus[1] + j]


AXES = (at_point, at_point_t)


@njit
def spread(dim, focus_arr, arr_shift):
    return AXES[dim](*focus_arr, arr_shift)


@numba_deviation("numba unifies only functions compiled already, with compiling disabled")
def test_spread_arguments_through_a_chosen_function():
    arr = make_rng(13).standard_normal((5, 6))
    for dim in (0, 1):
        for shift in (-1, 0, 2):
            assert_same(spread, dim, ((2, 3), arr), shift)


@njit
def raising(x):
    if x < 0.0:
        raise ValueError("negative", x)
    return x


RAISING = (raising, lazy_a)


@njit
def call_raising(i, x):
    return RAISING[i](x)


@numba_deviation("numba unifies only functions compiled already, with compiling disabled")
def test_exception_of_the_chosen_function_reaches_python():
    assert call_raising(0, 2.0) == 2.0
    with pytest.raises(ValueError, match="negative"):
        call_raising(0, -1.0)
    assert call_raising(1, -1.0) == call_raising.py_func(1, -1.0)


# ---------------------------------------------------------------- bad inputs


def test_index_out_of_range_is_index_error():
    for i in (3, -4, 100):
        with pytest.raises(IndexError, match="tuple index out of range"):
            pick(i, 1.0)
        with pytest.raises(IndexError):
            pick.py_func(i, 1.0)


MIXED = (square, truncate)


@njit
def mixed(i, x):
    return MIXED[i](x)


def test_functions_of_different_results_refused_naming_them():
    with pytest.raises(ruchey.TypingError, match=None if AS_NUMBA else "square and truncate .* return float64 and int64"):
        mixed(0, 1.5)


@njit
def one_arg(x):
    return x


@njit
def two_args(x, y):
    return x + y


ARITIES = (one_arg, two_args)


@njit
def arities(i, x):
    return ARITIES[i](x)


def test_function_that_cannot_take_the_arguments_refused_naming_it():
    with pytest.raises(ruchey.TypingError, match=None if AS_NUMBA else "two_args"):
        arities(0, 1.5)


@njit
def not_functions(i, x):
    t = (x, square)
    return t[i](x)


def test_tuple_of_a_function_and_a_number_refused():
    with pytest.raises(ruchey.TypingError):
        not_functions(1, 2.0)


@njit
def scaled(x, k=2.0, offset=None):
    return x * k if offset is None else x * k + offset


@njit
def shifted(x, k=1.0, offset=None):
    return x + k if offset is None else x + k + offset


SCALINGS = (scaled, shifted)


@njit
def keywords_bound_per_function(i, x):
    return SCALINGS[i](x, offset=None) + SCALINGS[i](x, k=0.5) + SCALINGS[i](x, 3.0, 1.0)


@numba_deviation("numba unifies only functions compiled already, with compiling disabled")
def test_keywords_and_defaults_bound_for_each_function():
    for i in range(2):
        for x in floats(14, 5):
            assert_same(keywords_bound_per_function, i, x)


@njit
def listed(i, x):
    fs = [square, cube]
    fs.append(halve)
    s = 0.0
    for f in fs:
        s += f(x)
    return s + fs[i](x) * len(fs)


def test_list_of_functions_looped_indexed_and_appended_to():
    for i in (-1, 0, 2):
        for x in floats(15, 5):
            assert_same(listed, i, x)


# ---------------------------------------------------------------- types.Dispatcher in signatures


@njit
def plain_square(x):
    return x * x


@njit
def plain_cube(x):
    return x * x * x


def test_typeof_a_compiled_function_is_its_dispatcher_type():
    assert ruchey.typeof(plain_square) == types.Dispatcher(plain_square)
    assert ruchey.typeof(plain_square) != types.Dispatcher(plain_cube)


def test_dispatcher_type_in_an_explicit_signature_takes_that_function_alone():
    @njit(types.float64(types.Dispatcher(plain_square), types.float64))
    def apply_square(f, x):
        return f(x) + 1.0

    @njit(types.float64(ruchey.typeof(plain_cube), types.float64))
    def apply_cube(f, x):
        return f(x) - 1.0

    for x in floats(16, 5):
        assert_same(apply_square, plain_square, x)
        assert_same(apply_cube, plain_cube, x)
    with pytest.raises(TypeError, match=None if AS_NUMBA else "no matching definition"):
        apply_square(plain_cube, 2.0)


@numba_deviation("numba's types.Dispatcher() takes any object, failing where it is used")
def test_dispatcher_type_of_something_else_refused():
    with pytest.raises(TypeError, match="takes a compiled function"):
        types.Dispatcher(lambda x: x)


# ---------------------------------------------------------------- in kernels

from ruchey import cuda  # noqa: E402


@cuda.jit(device=True)
def device_square(x):
    return x * x


@cuda.jit(device=True)
def device_cube(x):
    return x * x * x


DEVICE_FNS = (device_square, device_cube)


@cuda.jit
def per_thread(out, x, which):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = DEVICE_FNS[which[i]](x[i])


@pytest.mark.cpu_backend
@pytest.mark.skipif(AS_NUMBA, reason="numba's kernels need a GPU or its simulator")
def test_device_function_chosen_per_thread_in_a_kernel():
    rng = make_rng(17)
    x, which = rng.standard_normal(40), rng.integers(0, 2, 40)
    out = numpy.zeros(40)
    per_thread[2, 32](out, x, which)
    want = numpy.where(which == 0, x * x, x * x * x)
    numpy.testing.assert_array_equal(out, want)


# ---------------------------------------------------------------- a list of one function


@njit
def one_listed(i, x):
    fs = [plain_square]
    return fs[i](x)


@njit
def one_looped(x):
    s = 0.0
    for f in [plain_square]:
        s += f(x)
    return s


@njit
def one_appended(x):
    fs = []
    fs.append(plain_square)
    return fs[0](x) + len(fs)


@njit
def one_in_typed_lists(x):
    made = typed.List([plain_square])
    grown = typed.List()
    grown.append(plain_cube)
    return made[0](x) + grown[-1](x)


@pytest.mark.parametrize("f", [one_looped, one_appended, one_in_typed_lists])
def test_list_of_one_function_called(f):
    for x in floats(21, 6):
        assert_same(f, x)


def test_list_of_one_function_indexed_and_out_of_range():
    for x in floats(22, 4):
        for i in (0, -1):
            assert_same(one_listed, i, x)
    for i in (1, -2):
        with pytest.raises(IndexError):
            one_listed(i, 2.0)


@njit
def one_then_another(x):
    fs = [plain_square]
    fs.append(plain_cube)
    s = 0.0
    for f in fs:
        s += f(x)
    return s, len(fs)


@numba_deviation("numba calls the first function for both items of the widened list")
def test_list_of_one_function_widened_by_an_append():
    for x in floats(23, 4):
        assert_same(one_then_another, x)


@njit
def first_of(fs, x):
    return fs[0](x)


@njit
def sum_over(fs, x):
    s = 0.0
    for f in fs:
        s += f(x)
    return s


def test_typed_list_of_a_function_made_in_python_passed_in():
    fs = typed.List([plain_square])
    fs.append(plain_square)
    for x in floats(24, 6):
        assert_same(first_of, fs, x)
        assert_same(sum_over, fs, x)
    assert list(fs) == [plain_square, plain_square] and fs[1] is plain_square


@njit
def made_and_returned():
    return typed.List([plain_cube])


def test_typed_list_of_a_function_returned_holds_the_dispatcher():
    assert list(made_and_returned()) == [plain_cube]


@numba_deviation("numba stores the other function, cast with a NumbaTypeSafetyWarning")
def test_typed_list_of_a_function_refuses_another_function():
    fs = typed.List([plain_square])
    with pytest.raises(TypeError, match="cannot hold"):
        fs.append(plain_cube)
    with pytest.raises(TypeError, match="cannot hold"):
        fs[0] = plain_cube
    assert list(fs) == [plain_square]


@njit
def append_another(fs, x):
    fs.append(plain_cube)
    return fs[-1](x)


@numba_deviation("numba's messages differ")
def test_list_given_to_a_function_is_not_widened_by_another_function():
    with pytest.raises(ruchey.TypingError, match="fixed where the list is made"):
        append_another(typed.List([plain_square]), 2.0)
