"""Functions as values: a compiled function passed as an argument to another
and called there (a type per function, as Numba's first-class dispatchers:
the call is compiled in, and inlined), compiled functions named as globals
or closure variables, lambdas defined and called inside a compiled function
or passed on with the constants they read frozen, and imports inside its body. Each against the Python original on generated
inputs; bad uses are clear errors."""
import math

import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import AS_NUMBA, assert_same, assert_same_value, make_rng, numba_deviation


@njit
def square(x):
    return x * x


@njit
def cube(x):
    return x * x * x


@njit
def shifted(x, by=1.0):
    return x + by


@njit
def solver(fn, x):
    return fn(x) + 1.0


@njit
def newton(f, df, x0, n):
    x = x0
    for _ in range(n):
        x = x - f(x) / df(x)
    return x


@njit
def poly(x):
    return x * x * x - 2.0 * x - 5.0


@njit
def dpoly(x):
    return 3.0 * x * x - 2.0


def floats(seed, n=30):
    return [float(v) for v in make_rng(seed).uniform(-50, 50, n)]


# ---------------------------------------------------------------- dispatchers as arguments


def test_solver_takes_each_function_as_argument():
    for x in floats(1):
        assert_same(solver, square, x)
        assert_same(solver, cube, x)
    assert_same(solver, square, 3)  # int argument: its own specialisation


@numba_deviation("numba spells its signatures otherwise")
def test_one_specialisation_per_function():
    solver(square, 2.0)
    solver(cube, 2.0)
    sigs = solver.signatures
    assert "(function(square), float64)" in sigs and "(function(cube), float64)" in sigs
    assert solver(square, 2.0) == 5.0 and solver(cube, 2.0) == 9.0


@numba_deviation("numba spells its signatures otherwise")
def test_call_through_argument_is_inlined():
    solver(square, 2.0)
    ir = solver.inspect_llvm()["(function(square), float64)"]
    assert "fmul" in ir and not [line for line in ir.splitlines() if " call " in line]


def test_newton_with_function_and_derivative():
    for x0 in floats(2, 20):
        if abs(x0) < 1:
            continue
        assert_same(newton, poly, dpoly, x0, 30)


def test_function_argument_passed_on_and_from_compiled_code():
    @njit
    def twice(fn, x):
        return solver(fn, x) + solver(fn, -x)

    @njit
    def with_global(x):
        return solver(cube, x) + twice(square, x)
    for x in floats(3, 10):
        assert_same(twice, cube, x)
        assert_same(with_global, x)


def test_function_argument_in_parallel_loop():
    @njit(parallel=True)
    def map_in_parallel(fn, a):
        out = numpy.empty_like(a)
        for i in ruchey.prange(a.shape[0]):
            out[i] = fn(a[i])
        return out
    a = make_rng(4).uniform(-3, 3, 1000)
    assert_same(map_in_parallel, square, a)


def test_defaults_of_function_argument_are_bound():
    @njit
    def call_positional(fn, x):
        return fn(x, 2.0)
    for x in floats(5, 5):
        assert_same(call_positional, shifted, x)


def test_omitted_arguments_through_a_function_argument_take_its_defaults():
    @njit
    def call_with_default(fn, x):
        return fn(x) + fn(x, 0.5)

    for x in floats(5, 6):
        assert_same(call_with_default, shifted, x)


@njit
def optional_shift(x, by=None):
    return x if by is None else x + by


def test_keywords_through_a_function_argument_bind_as_python():
    @njit
    def call_with_keywords(fn, x):
        return fn(x, by=3.0) + fn(by=x, x=0.5) + fn(x=x)

    for fn in (shifted, optional_shift):
        for x in floats(7, 6):
            assert_same(call_with_keywords, fn, x)


def test_none_through_a_function_argument_is_a_value():
    @njit
    def call_with_none(fn, x):
        return fn(x, None) + fn(x, by=None)

    for x in floats(8, 4):
        assert_same(call_with_none, optional_shift, x)


def test_a_bad_call_through_a_function_argument_is_pythons_error():
    @njit
    def call_missing(fn):
        return fn()

    with pytest.raises(ruchey.TypingError, match="missing argument 'x'"):
        call_missing(shifted)


# ---------------------------------------------------------------- globals and closures


def test_compiled_function_as_global_and_closure():
    def make(k):
        @njit
        def inner(x):
            return square(x) * k + cube(x)
        return inner
    for k in (1, 3):
        f = make(k)
        for x in floats(6, 5):
            assert_same(f, x)

    def make_caller(fn):
        @njit
        def caller(x):
            return solver(fn, x)
        return caller
    g = make_caller(cube)
    for x in floats(7, 5):
        assert_same(g, x)


def make_per_dimension(fns):
    """A closure over a tuple of compiled functions and Nones (one per
    dimension, as PyMPDATA's formulae), spread into a call and indexed."""
    @njit
    def first_and_rest(a, b, c, x):
        return a(x) + (0.0 if b is None else b(x)) + (0.0 if c is None else c(x))

    @njit
    def apply(x):
        return first_and_rest(*fns, x) + fns[0](x) * 2.0
    return apply


def test_closure_tuple_of_functions_and_none_spread_and_indexed():
    for fns in ((square, cube, None), (cube, None, None), (square, square, shifted)):
        f = make_per_dimension(fns)
        for x in floats(8, 5):
            assert_same(f, x)


def make_indexed(fns, which):
    @njit
    def call_item(x):
        return fns[which](x)
    return call_item


def test_item_of_a_global_tuple_of_functions_called_directly():
    fns = (square, cube, shifted)
    for which in range(3):
        f = make_indexed(fns, which)
        for x in floats(9, 4):
            assert_same(f, x)


@njit
def variadic_sum(x, *more):
    return x + more[0] * 2.0 + more[-1] * len(more)


@njit
def call_with_three(f, a, b, c):
    return f(a, b, c)


@njit
def through_variadic(a, b, c):
    return call_with_three(variadic_sum, a, b, c)


def test_star_args_function_through_a_function_argument_packs_once():
    for a, b, c in zip(floats(10, 4), floats(11, 4), range(4)):
        assert_same(through_variadic, a, b, c)


@njit
def extremes(a, b, c):
    return call_with_three(min, a, b, c), call_with_three(max, a, b, c), solver(abs, a)


def test_min_and_max_as_values_take_every_argument():
    """min and max passed to a compiled function take as many arguments as
    the call gives, as Numba's builtins' function types do (PyMPDATA's
    extremum(a, b, c)); Python's own builtins give the expected values."""
    for a, b, c in zip(floats(12, 6), floats(13, 6), range(-3, 3)):
        assert extremes(a, b, c) == (min(a, b, c), max(a, b, c), abs(a) + 1.0)


# ---------------------------------------------------------------- lambdas


def lambdas(x, k):
    f = lambda a: a * k + 1  # noqa: E731
    g = lambda a, b: a - b  # noqa: E731
    return f(x) + g(x, 2) + g(b=x, a=k) + (lambda z: z * 2)(x)


def lambda_reads_array(a, scale):
    at = lambda i: a[i] * scale  # noqa: E731
    s = 0.0
    for i in range(a.shape[0]):
        s += at(i)
    return s


def lambda_sees_current_values(n):
    k = 1
    add_k = lambda v: v + k  # noqa: E731
    total = 0
    for i in range(n):
        k = i * 2
        total += add_k(i)
    return total


@numba_deviation("numba fails on keyword arguments to a lambda")
def test_lambdas_defined_and_called_inside():
    f = njit(lambdas)
    for x, k in zip(floats(8, 10), floats(9, 10)):
        assert_same(f, x, k)
    assert_same(f, 3, 5)


def test_lambda_reading_variables_of_its_function():
    f, g = njit(lambda_reads_array), njit(lambda_sees_current_values)
    for n in (0, 1, 7):
        assert_same(f, make_rng(n).uniform(-1, 1, n), 2.5)
        assert_same(g, n)


def test_lambda_in_closures_sees_each_closures_variables():
    def make(k):
        @njit
        def scaled(x):
            f = lambda a: a * k  # noqa: E731
            return f(x)
        return scaled
    assert [make(k)(2.0) for k in (1.0, 3.0, 5.0)] == [2.0, 6.0, 10.0]


def test_lambda_passed_as_value():
    @njit
    def through_solver(x):
        h = lambda a: a * 10.0  # noqa: E731
        return solver(h, x) + solver(lambda a: a - 1.0, x)
    for x in floats(10, 10):
        assert through_solver(x) == (x * 10.0 + 1.0) + (x - 1.0 + 1.0)


def test_lambda_compiled_with_its_functions_error_model():
    def divide(a, b):
        d = lambda p, q: p / q  # noqa: E731
        return d(a, b)
    assert njit(error_model="numpy")(divide)(1.0, 0.0) == math.inf
    with pytest.raises(ZeroDivisionError):
        njit(divide)(1.0, 0.0)


def nested_defaults(a, k):
    def weighted(i, w=0.5, *, shift=1.0):
        return a[i] * w * k + shift

    scaled = lambda v, by=2.0: v * by + k  # noqa: E731
    s = 0.0
    for i in range(a.shape[0]):
        s += weighted(i) + weighted(i, 3.0) + weighted(i, shift=-k) + scaled(a[i]) + scaled(a[i], -1.0)
    return s


def made_with_defaults():
    def add(x, y=1.5):
        return x + y
    return add


def test_nested_function_and_lambda_with_defaults_and_keyword_only():
    f = njit(nested_defaults)
    rng = make_rng(1522)
    for n in (0, 1, 6):
        assert_same(f, rng.normal(size=n), float(rng.normal()))
    made = njit(made_with_defaults)

    @njit
    def called_after(x):
        return made()(x), made()(x, 4)

    assert called_after(4) == called_after.py_func(4) == (5.5, 8)


def nested_defs(a, k):
    def term(i):
        t = a[i] * k
        return t * t

    def halve(x):
        return x / 2.0
    s = 0.0
    for i in range(a.shape[0]):
        s += halve(x=term(i))
    return s


@numba_deviation("numba fails on keyword arguments to an inner function")
def test_nested_def_called_where_defined():
    f = njit(nested_defs)
    rng = make_rng(12)
    for n in (0, 1, 9):
        assert_same(f, rng.uniform(-2, 2, n), float(rng.uniform(-3, 3)))


def test_nested_def_passed_as_value():
    @njit
    def pass_nested(x):
        def twice(v):
            return 2.0 * v
        return solver(twice, x)
    for x in floats(13, 5):
        assert pass_nested(x) == 2.0 * x + 1.0


@numba_deviation("numba's error or message differs")
def test_recursive_nested_def_refused():
    def recursive(x):
        def fact(n):
            return 1 if n <= 1 else n * fact(n - 1)
        return fact(x)
    with pytest.raises(ruchey.TypingError, match="calls itself"):
        njit(recursive)(5)


@numba_deviation("numba's error or message differs")
def test_decorated_nested_def_refused():
    def decorated(x):
        @njit
        def h(y):
            return y
        return h(x)
    with pytest.raises(ruchey.TypingError, match="cannot have decorators"):
        njit(decorated)(1)


# ---------------------------------------------------------------- imports


def imports_inside(x):
    import math
    import numpy as np
    from math import sqrt
    from math import cos as c
    import numpy.linalg  # noqa: F401 (binds numpy)
    return sqrt(abs(x)) + math.sin(x) + np.exp(-abs(x)) + c(x) + numpy.float64(1.0)


@numba_deviation("numba refuses import statements in compiled code (IMPORT_NAME)")
def test_imports_inside_the_function():
    f = njit(imports_inside)
    for x in floats(11, 20):
        assert_same(f, x)


@numba_deviation("numba refuses import statements in compiled code (IMPORT_NAME)")
def test_import_of_compiled_function_inside():
    @njit
    def local_import(x):
        from test_function_values import cube as c3
        return c3(x) + 1
    assert local_import(2.0) == 9.0


# ---------------------------------------------------------------- clear errors


@numba_deviation("numba's error or message differs")
def test_calling_a_number_is_a_typing_error():
    def not_callable(x):
        y = x + 1
        return y(2)
    with pytest.raises(ruchey.TypingError, match="'y' is not a function"):
        njit(not_callable)(1)


@numba_deviation("numba's error or message differs")
def test_unknown_keyword_through_a_function_argument_is_a_typing_error():
    @njit
    def by_keyword(fn, x):
        return fn(x, y=x)
    with pytest.raises(ruchey.TypingError, match="unexpected or repeated keyword argument 'y'"):
        by_keyword(shifted, 1.0)

    @njit
    def twice(fn, x):
        return fn(x, 1.0, by=x)
    with pytest.raises(ruchey.TypingError, match="unexpected or repeated keyword argument 'by'"):
        twice(shifted, 1.0)


@numba_deviation("numba's error or message differs")
def test_function_argument_with_wrong_arity_refused():
    @njit
    def two_args(fn, x):
        return fn(x, x)
    with pytest.raises(ruchey.TypingError, match="too many arguments in call to square"):
        two_args(square, 1.0)


def test_returning_a_function_gives_its_dispatcher():
    @njit
    def give_back(fn):
        return fn
    assert give_back(square) is square
    assert give_back(cube) is give_back.py_func(cube)


@njit
def apply_each(fns, x):
    total = 0.0
    for i in range(len(fns)):
        total += fns[i](x)
    return total


def closures_leaving(solver):
    """Inner functions and lambdas reading constants of the function they
    are in, passed to other compiled functions: each takes them frozen, as
    Numba compiles such a closure. Made with the compiled helpers or their
    Python originals."""
    def leave(x):
        k = 3
        scale = -1.5
        cut = 0.25

        def shift(a):
            return a * scale + k

        def clipped(a, lo=0.5):  # a default
            return max(a * scale, lo) + cut

        def pi_times(a):
            return a * numpy.pi
        return (solver(shift, x), solver(lambda a: a * k - cut, x), solver(clipped, x),
                shift(x) + solver(shift, x + 1.0), solver(pi_times, x))
    return leave


def test_closures_reading_constants_pass_on_as_python():
    compiled = njit(closures_leaving(solver))
    python = closures_leaving(solver.py_func)
    rng = make_rng(43)
    for x in [0.0, -0.0, math.inf, math.nan, *rng.standard_normal(6)]:
        assert_same_value(python(x), compiled(x), what=f"leave({x})")


THRESHOLD = 0.25


def tuple_closure_leaving(solver, apply_each):
    def leave(x):
        offsets = (1.0, -2)
        cut = THRESHOLD

        def shift(a):
            return a + offsets[0] * offsets[1] - cut

        def twice(a):  # a sibling it calls
            return shift(shift(a))
        return solver(twice, x), apply_each((shift, twice, lambda a: a * cut), x)
    return leave


@numba_deviation("numba freezes only literal scalars, not a tuple, a global's value or a sibling closure, "
                 "and indexes no tuple of different functions")
def test_closure_reading_a_tuple_a_global_and_a_sibling_passes_on():
    compiled = njit(tuple_closure_leaving(solver, apply_each))
    python = tuple_closure_leaving(solver.py_func, apply_each.py_func)
    for x in make_rng(45).standard_normal(4):
        assert_same_value(python(float(x)), compiled(float(x)))


@njit
def star_closures(x, k):
    def total(*values):  # reads k, takes any number of arguments
        s = k
        for v in values:
            s += v
        return s

    def first_and_count(first, *rest, scale=2.0):
        return first * scale + len(rest)
    count = lambda *t: len(t)  # noqa: E731
    return (total(), total(x), total(x, x, 1.0), first_and_count(x), first_and_count(x, k, k, scale=k),
            count(), count(x, k))


@numba_deviation("numba's inlined closure binds *args to one argument, and refuses keyword-only defaults")
def test_inner_functions_with_star_args_as_python():
    rng = make_rng(46)
    for x, k in zip([0.0, -0.0, math.nan, *rng.standard_normal(4)], [0.0, 1.0, -2.5, *rng.standard_normal(4)]):
        assert_same(star_closures, x, k)


def star_closure_leaving(solver):
    def leave(x):
        base = 10.0

        def total(*values):
            return base + numpy.sum(numpy.asarray(values))
        return solver(total, x)
    return leave


def test_inner_function_with_star_args_passes_on():
    compiled = njit(star_closure_leaving(solver))
    python = star_closure_leaving(solver.py_func)
    for x in make_rng(47).standard_normal(4):
        assert_same_value(python(float(x)), compiled(float(x)))


@numba_deviation("numba's error or message differs")
def test_inner_function_with_star_kwargs_refused():
    def keywords(x):
        def inner(a, **options):
            return a
        return inner(x)
    with pytest.raises(ruchey.TypingError, match=r"nested function with \*\*kwargs is not supported"):
        njit(keywords)(1.0)


def closures_passed_on_from_inner_functions(solver):
    def passed_on(x):
        k = 1.5
        count = 0

        def shift(a):
            return a + k

        def via_solver(a):  # passes on its sibling, which reads a constant of the function
            return solver(shift, a) + solver(lambda b: b * k, a)

        def bump():
            nonlocal count
            count += 1

        def counted(a):  # reads a variable a sibling assigns: passed each call, never frozen
            return a + count
        bump()
        first = counted(x)
        bump()
        return via_solver(x), first, counted(x)
    return passed_on


def test_closures_passed_on_from_inner_functions_as_python():
    compiled = njit(closures_passed_on_from_inner_functions(solver))
    python = closures_passed_on_from_inner_functions(solver.py_func)
    for x in [0.0, -0.0, math.nan, *make_rng(48).standard_normal(4)]:
        assert_same_value(python(x), compiled(x), what=f"passed_on({x})")


@numba_deviation("numba freezes the value it had before the nested function assigned it: a wrong result")
def test_closure_reading_a_variable_assigned_nonlocal_as_value_refused():
    def leak(x):
        k = 1.0

        def bump():
            nonlocal k
            k += 1.0

        def f(a):
            return a + k
        bump()
        return solver(f, x)
    with pytest.raises(ruchey.TypingError, match="Cannot capture the non-constant value associated with variable 'k'"):
        njit(leak)(1.0)


@njit
def defaults_of_the_function(x, k):
    base = 4

    def shifted(a, by=base, scale=k * 2.0):  # evaluated where the def runs, as Python does
        return a * scale + by

    def keyword_only(a, *, step=x + 1.0):
        return a - step
    total = 0.0
    for i in range(3):
        term = lambda a, i=i: a * i  # noqa: E731  (the loop's value bound now)
        total += term(x)
    k = -1.0  # (after the def: its default keeps the value it had)
    return (shifted(x), shifted(x, 1), shifted(x, scale=0.5), keyword_only(x), keyword_only(x, step=2.0), total,
            (lambda a, b=x: a + b)(1.0), k)


@numba_deviation("numba refuses keyword-only defaults in a closure")
def test_defaults_read_from_the_function_as_python():
    rng = make_rng(49)
    for x, k in zip([0.0, -0.0, math.nan, *rng.standard_normal(4)], [1.0, -2.0, 0.5, *rng.standard_normal(4)]):
        assert_same(defaults_of_the_function, x, k)


def constant_default_leaving(solver):
    def leave(x):
        base = 4

        def shifted(a, by=base):
            return a + by
        return solver(shifted, x)
    return leave


def test_constant_default_passes_on_frozen():
    compiled = njit(constant_default_leaving(solver))
    python = constant_default_leaving(solver.py_func)
    for x in make_rng(50).standard_normal(3):
        assert_same_value(python(float(x)), compiled(float(x)))


@numba_deviation("numba's error or message differs")
def test_default_from_a_parameter_passed_on_refused():
    def leak(x):
        def shifted(a, by=x):
            return a + by
        return solver(shifted, x)
    with pytest.raises(ruchey.TypingError, match="default of parameter 'by'"):
        njit(leak)(1.0)


@njit
def containers_filled_by_closures(n, k):
    seen = []
    counts = {}

    def visit(i):  # its value used: read in place of the call, so that it types the empty list
        seen.append(i * k)
        return len(seen)

    def tally(key):
        counts[key] = key * 0.5
        return len(counts)
    total = 0
    for i in range(n):
        total += visit(i)
        last = tally(i % 3)
    if n == 0:
        return total, seen, 0, 0
    return total, seen, last, tally(0)


def test_closures_filling_empty_containers_as_python():
    for n, k in [(0, 1), (1, 2), (5, -1), (9, 3)]:
        assert_same(containers_filled_by_closures, n, k)


@njit
def scaler():
    factor = 2.5

    def scaled(a):
        return a * factor
    return scaled


def test_returned_closure_takes_its_constants_along():
    scaled = scaler()
    for x in make_rng(44).standard_normal(4):
        assert_same_value(scaler.py_func()(float(x)), scaled(float(x)))


def test_closure_reading_a_parameter_as_value_refused():
    def leak(x, k):
        f = lambda a: a + k  # noqa: E731
        return solver(f, x)
    with pytest.raises(ruchey.TypingError, match="Cannot capture the non-constant value associated with variable 'k'"):
        njit(leak)(1.0, 2.0)


def test_closure_reading_a_variable_assigned_twice_as_value_refused():
    def leak(x):
        k = 1.0
        if x > 0:
            k = 2.0

        def f(a):
            return a + k
        return solver(f, x)
    with pytest.raises(ruchey.TypingError, match="Cannot capture a constant value for variable 'k'"):
        njit(leak)(1.0)


@numba_deviation("numba's error or message differs")
def test_closure_assigning_nonlocal_as_value_refused():
    def leak(x):
        k = 1.0

        def f(a):
            nonlocal k
            k = a
            return a
        return solver(f, x) + k
    with pytest.raises(ruchey.TypingError, match="nonlocal k.*not used as a value"):
        njit(leak)(1.0)


@njit
def closure_aliases(x, k):
    def shift(a):
        return a + k
    f = shift  # another name for the closure, called as it is
    g = lambda a: a * k  # noqa: E731
    h = g
    return f(x), h(f(x)), [f(v) for v in range(3)]


def test_a_closure_under_another_name_is_called_as_python():
    rng = make_rng(31)
    for x, k in zip(rng.standard_normal(5), rng.integers(-5, 5, 5)):
        assert_same(closure_aliases, float(x), int(k))


@njit
def sibling_closures(x, k):
    z = x + k

    def shift(a):
        return a + z
    scale = lambda a: a * k  # noqa: E731
    again = shift

    def both(a):  # calls its siblings, which read the function's variables
        return shift(a) + scale(a) + again(a)

    def outermost(a):  # and through another sibling that calls them
        return both(a) - shift(a) * k
    return outermost(x), both(2.0), shift(x)


def test_an_inner_function_calls_sibling_closures_as_python():
    rng = make_rng(41)
    for x, k in zip(rng.standard_normal(6), rng.integers(-5, 5, 6)):
        assert_same(sibling_closures, float(x), int(k))
    assert_same(sibling_closures, 0.0, 0)


@njit
def closures_passed_to_inner_functions(x, k):
    z = x * k

    def shift(a):
        return a + z
    square_plus = lambda a: a * a + k  # noqa: E731

    def apply_twice(f, a, extra=1.0):
        return f(f(a)) + extra

    def compose(f, g, a):
        return f(g(a)) + z

    def doubled(f, a):
        shift = 2.0  # its own variable, named like the function passed
        return f(a) * shift
    return (apply_twice(shift, x), apply_twice(square_plus, 0.5, 3.0), compose(shift, square_plus, x),
            compose(square_plus, shift, -x), doubled(shift, x))


def test_closures_passed_to_inner_functions_as_python():
    rng = make_rng(42)
    for x, k in zip(rng.uniform(-2, 2, 6), rng.integers(-4, 4, 6)):
        assert_same(closures_passed_to_inner_functions, float(x), int(k))


@numba_deviation("numba's error or message differs")
def test_python_function_argument_refused_clearly():
    with pytest.raises(TypeError, match="argument 1 of type 'function' is not supported"):
        solver(lambda v: v, 1.0)


@numba_deviation("numba's error or message differs")
def test_import_of_missing_module_refused():
    def bad(x):
        import no_such_module_anywhere  # noqa: F401
        return x
    with pytest.raises(ruchey.TypingError, match="cannot import"):
        njit(bad)(1)


@numba_deviation("numba's error or message differs")
def test_kernel_as_value_refused():
    from ruchey import cuda

    @cuda.jit
    def kernel(a):
        a[0] = 1.0
    with pytest.raises(TypeError):
        solver(kernel, 1.0)


@njit
def local_names_of_builtins(x, a):
    """chemicals' IAPWS-95 binds math's functions to local names for speed
    (_sqrt, _exp = sqrt, exp); Numba compiles them as the functions."""
    _sqrt, _exp = math.sqrt, math.exp
    sine = numpy.sin
    log = math.log
    s = 0.0
    for i in range(3):
        s += _sqrt(x + i) * _exp(-x) + log(x + i + 1.0)
    return s, sine(a)


def test_local_names_bound_to_builtins_are_the_builtins():
    rng = make_rng(61)
    for x in rng.uniform(0.1, 5.0, 20):
        a = rng.standard_normal(4)
        got, want = local_names_of_builtins(x, a), local_names_of_builtins.py_func(x, a)
        assert got[0] == pytest.approx(want[0], rel=1e-15)
        numpy.testing.assert_array_equal(got[1], want[1])


def test_a_name_bound_to_a_builtin_and_to_something_else_is_a_variable():
    @njit
    def rebound(x, flag):
        f = math.sqrt
        if flag:
            f = 2.0
        return f

    with pytest.raises(ruchey.TypingError, match="sqrt"):
        rebound(4.0, True)


@njit
def local_names_of_modules(a, x):
    """A module bound to a local name (xp = numpy, as array-API-style code
    picks its namespace): the name is the module (Numba types it a Module)."""
    xp = numpy
    m = math
    return xp.sum(xp.sqrt(xp.abs(a))), xp.arange(len(a)) * x, m.sqrt(abs(x)) + m.pi, xp.float32(x) / 2


def test_local_names_bound_to_modules_are_the_modules():
    rng = make_rng(62)
    for n in (1, 5, 12):
        a, x = rng.standard_normal(n), float(rng.standard_normal())
        got, want = local_names_of_modules(a, x), local_names_of_modules.py_func(a, x)
        assert got[0] == pytest.approx(want[0], rel=1e-14) and got[2] == pytest.approx(want[2], rel=1e-15)
        numpy.testing.assert_allclose(got[1], want[1], rtol=1e-15)
        assert got[3] == want[3]


@numba_deviation("numba's error or message differs")
def test_a_name_bound_to_two_modules_is_a_clear_typing_error():
    @njit
    def either(x, flag):
        m = numpy
        if flag:
            m = math
        return m.sqrt(x)

    with pytest.raises(ruchey.TypingError, match=r"assigned both Module\(numpy\) and Module\(math\)"):
        either(4.0, True)


OLD_NUMPY = False  # a flag a module sets once, as sktime's NUMPY1


@njit
def by_version_flag(y):
    """sktime's ClaSP picks numpy.trapz or numpy.trapezoid by a global
    flag; the branch not taken names a function the NumPy it runs with
    lacks."""
    if OLD_NUMPY:
        total = numpy.removed_long_ago
    else:
        total = numpy.sum
    if not OLD_NUMPY:
        largest = numpy.max
    return total(y), largest(y)


def test_a_name_bound_to_a_builtin_in_the_branch_a_global_flag_takes_is_the_builtin():
    rng = make_rng(62)
    for _ in range(5):
        y = rng.standard_normal(20)
        got, want = by_version_flag(y), by_version_flag.py_func(y)
        assert got == pytest.approx(want, rel=1e-12)


@numba_deviation("its message: Unknown attribute 'no_such_function' of type Module(numpy)")
def test_a_module_attribute_that_does_not_exist_is_an_error_where_it_is_reached():
    @njit
    def missing(flag):
        if flag:
            return numpy.trapz_removed_long_ago(1.0)
        return 0.0

    @njit
    def read(x):
        f = numpy.no_such_function
        return x

    with pytest.raises(ruchey.TypingError, match="has no attribute 'trapz_removed_long_ago'"):
        missing(True)
    with pytest.raises(ruchey.TypingError, match="has no attribute 'no_such_function'"):
        read(1.0)


def make_partial_sum(compiled):
    """dcor's pattern: one body for the compiled and the Python function,
    choosing its helper by a closure's flag."""
    def partial_sum(x):
        helper = doubled_compiled if compiled else doubled_python
        return helper(x) + 1.0
    return partial_sum


def doubled_python(x):
    return 2.0 * x


doubled_compiled = njit(doubled_python)


def test_a_python_function_in_the_branch_a_closure_flag_prunes_is_never_typed():
    compiled = njit(make_partial_sum(True))
    plain = make_partial_sum(False)
    for x in make_rng(64).standard_normal(5):
        assert compiled(x) == plain(x)
    with pytest.raises(ruchey.TypingError, match="doubled_python"):
        njit(make_partial_sum(False))(1.0)


@njit
def along_columns(func1d, a):
    out = numpy.empty(a.shape[1], dtype=a.dtype)
    for j in range(a.shape[1]):
        out[j] = func1d(a[:, j])
    return out


@njit
def column_extremes(a):
    return along_columns(numpy.amin, a), along_columns(numpy.amax, a), along_columns(numpy.sum, a)


@njit
def through_math(x):
    return solver(math.sqrt, x) + solver(math.floor, x)


def test_numpy_and_math_functions_pass_as_values_to_compiled_functions():
    rng = make_rng(5)
    for dtype in (numpy.float64, numpy.float32, numpy.int64):
        a = (rng.random((4, 3)) * 10).astype(dtype)
        expected_all = [along_columns.py_func(f, a) for f in (numpy.amin, numpy.amax, numpy.sum)]
        for got, expected in zip(column_extremes(a), expected_all):
            assert got.dtype == expected.dtype and numpy.allclose(got, expected)
    for x in (0.0, 2.25, 10.5):
        assert through_math(x) == solver.py_func(math.sqrt, x) + solver.py_func(math.floor, x)


# ---------------------------------------------------------------- nonlocal declarations in a nested def

def reads_nonlocal(s, k, r, flip):
    if flip:
        s, k = k, s

    def value(x, power):
        nonlocal r, k  # read only: as reading them without the declaration
        return (x - k) ** power * math.exp(-r)
    return value(s, 2) + value(s * 0.5, 1)


def writes_nonlocal(x):
    count = 0

    def bump(step):
        nonlocal count
        count = count + step
        return count
    bump(x)
    return count


def test_a_nested_def_reading_nonlocal_variables():
    rng = make_rng(12)
    f = njit(reads_nonlocal)
    for s, k, r in rng.uniform(0.5, 3.0, (6, 3)):
        for flip in (False, True):
            assert f(s, k, r, flip) == pytest.approx(reads_nonlocal(s, k, r, flip), rel=1e-13)


def writes_in_expressions(x):
    y = x + 1
    z = 0

    def inner(v):
        nonlocal z
        z += v * v
        return z + y
    # each call's new z is seen by what Python evaluates after it, not before
    return inner(x) + inner(x) + z, z + inner(1), (z, inner(2), z)


def writes_several_and_returns_early(a):
    count = 0
    total = a[:0].sum()
    last = -1

    def add(i):
        nonlocal count, total, last
        if a[i] < 0:
            return False
        count += 1
        total += a[i]
        last = i

    kept = 0
    for i in range(a.size):
        if add(i) is None:
            kept += 1
    return count, total, last, kept


def assigns_twice():
    x = 0

    def bar():
        nonlocal x
        x = 1
        x = 2
    bar()
    return x


@numba_deviation("it reads a nonlocal variable written before a call after the call")
def test_a_nested_def_assigning_nonlocal_variables_in_an_expression_keeps_python_order():
    for x in (-3, 0, 2, 7):
        assert njit(writes_in_expressions)(x) == writes_in_expressions(x)


def test_a_nested_def_assigning_nonlocal_variables_matches_python():
    rng = make_rng(13)
    for x in (-3, 0, 2, 7):
        assert njit(writes_nonlocal)(x) == writes_nonlocal(x)
        assert njit(nonlocal_writer_in_a_condition)(x) == nonlocal_writer_in_a_condition(x)
    for dtype in (numpy.int64, numpy.float64):
        for n in (0, 1, 9):
            a = (rng.standard_normal(n) * 10).astype(dtype)
            assert njit(writes_several_and_returns_early)(a) == writes_several_and_returns_early(a)


@numba_deviation("it refuses a nonlocal variable assigned twice")
def test_a_nonlocal_variable_assigned_twice_keeps_the_last_value():
    assert njit(assigns_twice)() == assigns_twice()


def collects_through_a_closure(a):
    found = []
    seen = {}
    best = -1.0
    where = -1

    def visit(i, v):
        nonlocal best, where
        if v > 0:
            found.append(i)
            seen[i] = v
        if v > best:
            best = v
            where = i
    for i in range(a.size):
        visit(i, a[i])
    return found, len(seen), best, where


def test_a_nested_def_called_as_a_statement_fills_containers_made_empty_outside():
    rng = make_rng(14)
    for dtype in (numpy.float64, numpy.int64):
        for n in (0, 1, 9):
            a = (rng.standard_normal(n) * 5).astype(dtype)
            assert njit(collects_through_a_closure)(a) == collects_through_a_closure(a)


def nonlocal_writer_in_a_condition(n):
    i = 0

    def step():
        nonlocal i
        i += 1
        return i
    while step() < n:
        pass
    return i, step() if n > 2 else -1, n > 0 and step() > 0 and step()


def nonlocal_writer_from_a_sibling(n):
    i = 0

    def step():
        nonlocal i
        i += 1

    def twice():
        step()
        step()
    twice()
    return i


def nonlocal_writer_as_a_key(a):
    calls = 0

    def key(v):
        nonlocal calls
        calls += 1
        return -v
    return sorted(a, key=key), calls


def nonlocal_generator(n):
    i = 0

    def gen():
        nonlocal i
        for k in range(n):
            i += 1
            yield k
    return sum(gen()), i


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")
@pytest.mark.parametrize("f, arg, match", [
    (nonlocal_writer_from_a_sibling, 3, "not from another nested function"),
    (nonlocal_writer_as_a_key, [3, 1, 2], "not as a key"),
    (nonlocal_generator, 3, "nested generator"),
])
def test_a_nested_def_assigning_a_nonlocal_where_its_values_cannot_come_back_is_a_typing_error(f, arg, match):
    with pytest.raises(ruchey.TypingError, match=match):
        njit(f)(arg)


# ---------------------------------------------------------------- a name bound to one function or another

@njit
def lambda_by_condition(x, flag):
    if flag:
        f = lambda v: v + 1  # noqa: E731
    else:
        f = lambda v: v - 1  # noqa: E731
    return f(x)


@njit
def def_redefined_by_mode(x, mode):
    def op(a, b):
        return a + b
    if mode == 1:
        def op(a, b):  # noqa: F811
            return a * b
    elif mode == 2:
        op = lambda a, b: a - b  # noqa: E731
    return op(x, 3)


@njit
def lambda_rebound_in_a_loop(n):
    f = lambda v: v + 1  # noqa: E731
    s = 0
    for i in range(n):
        s += f(i)  # the first lambda on the first pass, the second after
        f = lambda v: v * 2  # noqa: E731
    return s


def test_a_name_bound_to_one_function_or_another_calls_the_one_it_holds():
    """Functions that read no variable of the function, bound to one name
    in several places, are values the variable holds, as Numba's are."""
    rng = make_rng(4417)
    for x in (*rng.normal(size=3), 0, -7, 2**40):
        for flag in (True, False):
            assert_same(lambda_by_condition, x, flag)
        for mode in (0, 1, 2, 3):
            assert_same(def_redefined_by_mode, x, mode)
    for n in (0, 1, 2, 9):
        assert_same(lambda_rebound_in_a_loop, n)


def test_a_name_bound_to_a_closure_and_another_function_is_a_typing_error():
    @njit
    def rebound(x, k):
        f = lambda v: v + k  # noqa: E731
        if x > 0:
            f = lambda v: v - 1  # noqa: E731
        return f(x)

    with pytest.raises(ruchey.TypingError, match="more than once|Cannot capture"):
        rebound(2, 5)
