"""None and Optional, as Numba: None as an argument and a default, `is None`
and `is not None`, a branch on a value known to be None (or known not to be)
pruned at typing, variables and returns that hold a value on some paths and
None on others (OptionalType), and a TypeError where such a None is used as
a value. Every function is compared with its own Python original on
generated inputs."""
import numpy as np
import pytest

import ruchey
from ruchey import njit

from conftest import AS_NUMBA, assert_same, float_array, int_array, make_rng, numba_deviation, run_python_file

SIZES = (0, 1, 7, 64)


# ---------------------------------------------------------------- None arguments and defaults

@njit
def doubled(x, out=None):
    if out is None:
        out = np.empty_like(x)
    for i in range(x.size):
        out[i] = x[i] * 2
    return out


def test_out_none_pattern_allocates_or_fills_the_given_array():
    rng = make_rng(1501)
    for n in SIZES:
        for x in (float_array(rng, n), int_array(rng, n), float_array(rng, n).astype(np.float32)):
            assert_same(doubled, x)
            assert_same(doubled, x, np.zeros_like(x))
            assert_same(doubled, x, None)
            buf = np.zeros_like(x)
            assert n == 0 or (doubled(x, buf) is buf and doubled(x, out=buf) is buf)
    assert len(doubled.signatures) >= 6  # None and arrays are specialised apart


@njit
def total(x, start=None, scale=None):
    if start is None:
        start = 0.0
    for v in x:
        start += v
    if scale is not None:
        return start * scale
    return start


def test_scalar_defaults_none_or_given():
    rng = make_rng(1502)
    for n in SIZES:
        x = float_array(rng, n)
        for args in ((), (None,), (1.5,), (None, 2.0), (3.0, None), (2.5, 3)):
            assert_same(total, x, *args)
        assert total(x, scale=4.0) == total.py_func(x, scale=4.0)


@njit
def first_or_default(x, default=None):
    if x.size > 0:
        return x[0]
    return default


def test_default_none_returned_or_replaced():
    rng = make_rng(1503)
    for n in (0, 3):
        x = float_array(rng, n)
        assert_same(first_or_default, x)
        assert_same(first_or_default, x, -1.0)


@njit
def calls_with_and_without(x, buf):
    a = doubled(x)
    b = doubled(x, buf)
    c = doubled(x, None)
    return a.sum() + b.sum() + c.sum()


def test_compiled_callers_pass_none_and_rely_on_the_default():
    rng = make_rng(1504)
    for n in SIZES:
        x = float_array(rng, n)
        assert_same(calls_with_and_without, x, np.zeros(n), rel=1e-12)  # Numba's sum is not NumPy's


# ---------------------------------------------------------------- is None

@njit
def none_checks(x):
    return x is None, x is not None, None is x, not (x is None)


def test_is_none_on_every_kind_of_value():
    for v in (None, 0, 3.5, True, np.float32(2), np.arange(3), np.zeros((2, 2))):
        assert_same(none_checks, v)


@njit
def none_in_conditional_expression(x, y=None):
    z = x if y is None else y
    w = None if x < 0 else x
    if w is None:
        return z
    return z + w


def test_is_none_in_conditional_expressions():
    for x in (-2.0, 0.0, 3.5):
        for y in (None, 1.25):
            assert_same(none_in_conditional_expression, x, y)


@njit
def or_defaults(x, tol=None, name=None, n=None, a=None):
    tol = tol or 1e-8
    name = name or "unnamed"
    n = n or len(x)
    first = a or None or x  # the first true operand, else the last
    none_and = a and name  # None: the falsy operand given back
    count = n and n + 1
    return x[0] + tol, name + "!", n, first.sum(), none_and, count


def test_or_and_of_none_strs_and_arrays_give_the_operand_python_gives():
    """`v = v or default`, Python's idiom for a None default, and its kin:
    the operand Python's and/or give back, of None, strs, ints and arrays,
    as Numba compiles them."""
    rng = make_rng(4242)
    x = float_array(rng, 5)
    for tol in (None, 0.0, 0.5):
        for name in (None, "", "dt"):
            for n in (None, 0, 3):
                assert_same(or_defaults, x, tol, name, n)


@njit
def or_of_a_call(x):
    return str(x) or "zero"


def test_or_of_a_value_read_twice_asks_for_a_variable():
    with pytest.raises(ruchey.TypingError, match="assign it to a variable first"):
        or_of_a_call(3)


# ---------------------------------------------------------------- Optional variables and returns

@njit
def positive_or_none(x):
    if x > 0:
        return x
    return None


@njit
def last_negative(x):
    found = None
    for v in x:
        if v < 0:
            found = v
    return found


@njit
def returns_by_falling_off(x):
    if x > 1:
        return x * 2


def test_a_value_on_some_paths_and_none_on_others():
    rng = make_rng(1505)
    for v in (-3, 0, 5, -2.5, 7.25, np.float32(1.5), np.int8(-4)):
        assert_same(positive_or_none, v)
        assert_same(returns_by_falling_off, v)
    for n in SIZES:
        assert_same(last_negative, float_array(rng, n))
        assert_same(last_negative, np.abs(float_array(rng, n)))


@njit
def uses_optional(x):
    r = positive_or_none(x)
    if r is None:
        return -1
    return r * 10


@njit
def optional_array(x, flag):
    a = None
    if flag:
        a = x + 1
    if a is not None:
        return a.sum()
    return 0.0


def test_optional_values_used_after_a_check():
    rng = make_rng(1506)
    for v in (-4, 0, 4, 2.5):
        assert_same(uses_optional, v)
    for n in SIZES:
        x = float_array(rng, n)
        assert_same(optional_array, x, True, rel=1e-12)
        assert_same(optional_array, x, False)


@njit
def none_plus_one(x):
    y = None
    if x > 0:
        y = x
    return y + 1


@njit
def index_of_optional_array(x, flag):
    a = None
    if flag:
        a = x
    return a[0]


def test_none_used_as_a_value_raises_type_error():
    assert_same(none_plus_one, 3)
    with pytest.raises(TypeError, match="expected int64, got None"):
        none_plus_one(-3)
    x = np.arange(3.0)
    assert_same(index_of_optional_array, x, True)
    with pytest.raises(TypeError, match="got None"):
        index_of_optional_array(x, False)
    assert none_plus_one(5) == 6  # a failed call leaves nothing behind


@njit
def by_kind(x, kind):
    if kind == 0:
        return x * x
    elif kind == 1:
        return abs(x)  # no else: kind 2 falls off the end, None


@njit
def stores_optionals(x, kinds, out):
    for i in range(x.size):
        out[i] = by_kind(x[i], kinds[i])
    return out


@njit
def stores_optional_2d(x, flag):
    out = np.zeros((2, x.size), np.float32)
    for i in range(x.size):
        out[1, i] = positive_or_none(x[i]) if flag else x[i]
    return out


def test_an_optional_stored_into_an_array_element_is_its_value():
    rng = make_rng(1502)
    for n in SIZES:
        kinds = rng.integers(0, 2, n)
        for x, out in ((float_array(rng, n), np.zeros(n)), (float_array(rng, n).astype(np.float32), np.zeros(n, np.int64)),
                       (int_array(rng, n), np.zeros(n, np.float32))):
            assert_same(stores_optionals, x, kinds, out.copy())
        x = np.abs(float_array(rng, n)) + 1.0
        assert_same(stores_optional_2d, x, True)
        assert_same(stores_optional_2d, x, False)
    with pytest.raises(TypeError, match="expected float64, got None"):
        stores_optionals(np.ones(3), np.array([0, 2, 1]), np.zeros(3))
    with pytest.raises(TypeError, match="expected float64, got None"):
        stores_optional_2d(np.array([1.0, -1.0]), True)


@njit
def columns_or_fill(x, scale, fill=None):
    rows, cols = x.shape
    out = np.zeros((rows, cols))
    if scale == 1:
        if fill is None:
            fill = np.ones(rows) / rows
        for j in range(cols):
            s = np.sum(np.abs(x[:, j]))
            out[:, j] = x[:, j] / s if s > 1.0 else fill
    if scale == 2:  # (fill is None or an array here: an Optional)
        if fill is None:
            fill = np.zeros(rows)
        for j in range(cols):
            s = np.sqrt(np.sum(x[:, j] ** 2))
            if s > 1.0:
                out[:, j] = x[:, j] / s
            else:
                out[:, j] = fill
    return out


@njit
def fills_row_or_none(x, flag):
    row = None
    if flag:
        row = np.full(x.shape[1], 7.0)
    x[0, :] = row
    return x


def test_an_optional_array_stored_into_a_view_is_its_value():
    rng = make_rng(1503)
    for rows, cols in ((1, 1), (3, 5), (6, 40)):
        x = float_array(rng, rows * cols).reshape(rows, cols) * rng.uniform(0.1, 3.0, cols)
        for scale in (1, 2, 3):
            assert_same(columns_or_fill, x, scale)
            assert_same(columns_or_fill, x, scale, float_array(rng, rows))
        assert_same(fills_row_or_none, x.copy(), True)
    # (NumPy stores None into a float view as NaN; Numba unwraps the Optional, TypeError if None)
    with pytest.raises(TypeError, match="got None"):
        fills_row_or_none(np.zeros((2, 3)), False)


@njit
def passes_optional(x):
    return describe(positive_or_none(x))


@njit
def describe(v):
    if v is None:
        return 0.0
    return v + 0.5


def test_an_optional_passed_to_another_compiled_function():
    for v in (-1.0, 2.0, 0.0):
        assert_same(passes_optional, v)


@njit
def returns_nothing(x):
    x[0] = 1.0
    return None


def test_explicit_return_none():
    x = np.zeros(2)
    assert returns_nothing(x) is None and x[0] == 1.0


# ---------------------------------------------------------------- pruning

@njit
def pruned(x, scale=None):
    if scale is None:
        return x.sum()
    return x.sum() * scale


@njit
def pruned_else(x, mask=None):
    if mask is not None:
        s = 0.0
        for i in range(x.size):
            if mask[i]:
                s += x[i]
    else:
        s = x.sum()
    return s


def test_the_branch_not_taken_is_not_typed():
    # with scale None, `x.sum() * scale` cannot be typed: Numba prunes it too
    rng = make_rng(1507)
    for n in SIZES:
        x = float_array(rng, n)
        assert_same(pruned, x, rel=1e-12)
        assert_same(pruned, x, 2.0, rel=1e-12)
        assert_same(pruned_else, x, rel=1e-12)
        assert_same(pruned_else, x, x > 0)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's signature names")
def test_pruned_specialisations_keep_no_runtime_check():
    # f(a) with out None: the variable is an Optional that the code always
    # fills, so no check of it remains; f(a, buf) has no Optional at all
    x = np.arange(4.0)
    doubled(x)
    doubled(x, np.zeros(4))
    ir = doubled.inspect_llvm()
    assert any("none" in sig for sig in ir)
    for text in ir.values():
        assert "got None" not in text


# ---------------------------------------------------------------- errors

@numba_deviation("Numba compares other values by identity too")
def test_is_between_two_values_is_a_clear_typing_error():
    @njit
    def same(a, b):
        return a is b

    with pytest.raises(ruchey.TypingError, match="only supported with None"):
        same(1, 2)


def test_none_where_a_builtin_needs_a_number_is_a_typing_error():
    @njit
    def root(x):
        return np.sqrt(x)

    @njit
    def length(x):
        return len(x)

    with pytest.raises(ruchey.TypingError, match="(?i)none"):
        root(None)
    with pytest.raises(ruchey.TypingError, match="(?i)none"):
        length(None)


def test_optional_that_cannot_unify_is_a_typing_error():
    @njit
    def mixed(x):
        y = None
        if x > 0:
            y = np.zeros(3)
        else:
            y = 1.0
        return y

    with pytest.raises(ruchey.TypingError, match="(?i)cannot (be )?unif"):
        mixed(1)


def test_bad_none_uses_never_crash(tmp_path):
    out = run_python_file("""
import numpy as np
from ruchey import njit

@njit
def f(x, flag):
    a = None
    if flag:
        a = x
    s = 0.0
    for i in range(3):
        s += a[i]
    return s

for flag in (True, False, False):
    try:
        print(f(np.arange(3.0), flag))
    except TypeError as e:
        print("TypeError", e)
""", tmp_path)
    assert out.stdout.split("\n")[:3] == ["3.0", "TypeError expected array(float64, 1d, C), got None",
                                   "TypeError expected array(float64, 1d, C), got None"]


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's type objects")
def test_optional_and_none_type_objects():
    from ruchey import types
    t = types.Optional(types.float64)
    assert repr(t) == "OptionalType(float64)" and t == types.Optional(types.float64)
    assert repr(types.none) == "none"
    assert types.typeof(None) is types.none
    with pytest.raises(TypeError):
        types.Optional(3)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's dispatcher")
def test_calls_with_none_leave_no_python_objects_behind():
    import sys

    @njit
    def size(a, out=None):
        if out is None:
            return a.shape[0]
        return out.shape[0]

    a = np.zeros(10)
    for _ in range(100):  # compiled, caches warm
        size(a, None), size(a)
    before = sys.getallocatedblocks()
    for _ in range(20000):
        size(a, None)
        size(a)
    assert sys.getallocatedblocks() - before < 20


@njit
def sorted_along(a, axis=None):
    return np.sort(a, axis=axis)


def test_a_none_default_passed_on_to_numpy_is_its_none():
    rng = make_rng(1508)
    a = float_array(rng, 12).reshape(3, 4)
    for args in ((), (None,), (0,), (1,)):
        assert_same(sorted_along, a, *args)


# ---------------------------------------------------------------- a call whose Optional result is unused

@njit
def maybe_twice(x):
    if x % 3 == 0:
        return x * 2
    if x % 3 == 1:
        return None


@njit
def calls_for_effect(xs):
    n = 0
    for x in xs:
        maybe_twice(x)  # None on some paths: not a value needed, so no TypeError
        n += 1
    return n


@njit
def calls_in_try(x):
    try:
        maybe_twice(x)
    except TypeError:
        return -1
    return x


def test_a_call_statement_returning_none_is_no_error():
    xs = make_rng(1516).integers(-20, 20, size=12)
    assert calls_for_effect(xs) == calls_for_effect.py_func(xs)
    for x in xs:
        assert calls_in_try(int(x)) == calls_in_try.py_func(int(x))


@njit
def countdown_catches(x, log):
    # a recursive call's result is an Optional (None falling off the end, 12 returned):
    # its None is no error, so only the raise of x == 1 is caught, once
    if x > 0:
        try:
            countdown_catches(x - 1, log)
        except ValueError:
            log.append(x)
            return 12
    if x == 1:
        raise ValueError("one")


@njit
def recursive_optional(x):
    if x <= 0:
        return None
    if x == 1:
        return 1
    r = recursive_optional(x - 2)
    return x if r is None else r + x


def test_recursive_call_of_a_function_returning_none_on_a_path():
    for n in (0, 2, 3, 7, 10):
        got, want = ruchey.typed.List.empty_list(ruchey.int64), ruchey.typed.List.empty_list(ruchey.int64)
        assert countdown_catches(n, got) == countdown_catches.py_func(n, want)
        assert list(got) == list(want) == ([] if n == 0 else [2])
    with pytest.raises(ValueError, match="one"):  # nothing above x == 1 to catch it
        countdown_catches(1, ruchey.typed.List.empty_list(ruchey.int64))
    for n in range(-1, 9):
        assert recursive_optional(n) == recursive_optional.py_func(n)


# ---------------------------------------------------------------- `is None` of a call: the call still runs

@njit
def fills_first(a, v):
    a[0] = v


@njit
def first_or_none(a):
    if a.size:
        return a[0]


@njit
def checks_a_call_for_none(a, v):
    if fills_first(a, v) is not None:  # never: its type is none, but it runs
        return -1.0
    if first_or_none(a) is None:
        return -2.0
    return a[0] + v


def test_is_none_of_a_call_keeps_the_calls_effects():
    rng = make_rng(1517)
    for n in (0, 1, 5):
        v = float(rng.normal())
        got, want = np.zeros(max(n, 1)), np.zeros(max(n, 1))
        assert checks_a_call_for_none(got, v) == checks_a_call_for_none.py_func(want, v)
        np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------- an explicit optional(...) the function cannot take None for

def first_item(y):
    return y[0]


def test_optional_signature_whose_none_cannot_be_typed_refuses_none_at_the_call():
    f = njit("(optional(int32[:]),)")(first_item)
    y = make_rng(1525).integers(-50, 50, size=4).astype(np.int32)
    assert f(y) == first_item(y)
    with pytest.raises(TypeError):  # as Numba: a TypeError for None, the array's specialisation kept
        f(None)
    assert f(y[::2]) == first_item(y[::2])


@njit
def names_compared(i, j, other):
    a = None if i % 3 == 0 else ("x" if i % 3 == 1 else "yz")
    b = None if j % 3 == 0 else ("x" if j % 3 == 1 else "yz")
    return a == b, a != b, b == a, a == other, other != b


def test_optional_strs_compare_equal_as_python_none_to_none_alone():
    for i in range(3):
        for j in range(3):
            for other in ("x", "yz", ""):
                assert names_compared(i, j, other) == names_compared.py_func(i, j, other), (i, j, other)


# ---------------------------------------------------------------- a variable None on one path, a container on another

@njit
def list_or_none(n, flag):
    xs = None
    if flag:
        xs = [i * 1.5 for i in range(n)]
    if xs is not None:
        xs.append(-1.0)
        return len(xs), xs[-1], xs
    return -1, 0.0, xs


@njit
def typed_list_or_none(n, flag):
    xs = None
    if flag:
        xs = ruchey.typed.List([i - 2 for i in range(n + 1)])
    if xs is None:
        return -1, 0
    return len(xs), xs[0]


@njit
def dict_or_none(n, flag):
    d = None
    if flag:
        d = {i: i * i for i in range(n + 1)}
    if d is None:
        return -1
    return d[n] + len(d)


@njit
def set_or_none(n, flag):
    s = None
    if flag:
        s = {i % 3 for i in range(n)}
    return -1 if s is None else len(s)


@njit
def best_pair(values):
    best = None
    for i in range(len(values)):
        if best is None or values[i] > best[0]:
            best = [values[i], float(i)]
    return best


def test_containers_assigned_to_a_variable_that_may_be_none_keep_their_items():
    # the container was taken for the Optional itself: its items were lost (a
    # typed list read as None) or read from a wrong address (a crash)
    rng = make_rng(1531)
    for n in (0, 1, 4):
        for flag in (True, False):
            assert_same(dict_or_none, n, flag)
            assert typed_list_or_none(n, flag) == typed_list_or_none.py_func(n, flag)
    for size in (1, 2, 6):
        values = [float(v) for v in rng.normal(size=size)]
        assert_same(best_pair, values)


@numba_deviation("a comprehension's list or a set stored where None may be is an internal error or a TypingError")
def test_comprehensions_and_sets_assigned_to_a_variable_that_may_be_none():
    for n in (0, 1, 4):
        for flag in (True, False):
            assert_same(list_or_none, n, flag)
            assert_same(set_or_none, n, flag)
