"""Optional in explicit signatures (optional(f8), types.Optional), and
Optional narrowing in conditions; each against py_func."""
import numpy as np
import pytest

import ruchey
from ruchey import njit, types

from conftest import AS_NUMBA, make_rng, numba_deviation, seed_of


def scaled_sum(a, x):
    if x is None:
        return a.sum()
    return a.sum() * x


@pytest.mark.parametrize("sig", ["f8(f8[:], optional(f8))", types.float64(types.float64[:], types.Optional(types.float64)),
                                 (types.float64[:], types.optional(types.float64))])
def test_optional_argument_in_an_explicit_signature(sig):
    f = njit(sig)(scaled_sum)
    rng = make_rng(0)
    for _ in range(5):
        a = rng.standard_normal(int(rng.integers(0, 9)))
        for x in (None, float(rng.standard_normal()), 3):
            assert f(a, x) == scaled_sum(a, x)
    with pytest.raises(TypeError):
        f(a, "x")


def pick(x, y):
    if x is None and y is None:
        return 0
    if x is None or y is None:
        return 1
    return x + y


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own signature expansion")
def test_two_optional_arguments_and_signatures():
    f = njit("i8(optional(i8), optional(i8))")(pick)
    for x in (None, 2):
        for y in (None, 5):
            assert f(x, y) == pick(x, y)
    assert len(f.signatures) == 4


def test_optional_return_type_in_a_signature_is_inferred():
    def half_or_none(x):
        if x > 0:
            return x / 2
        return None
    f = njit("optional(f8)(f8)")(half_or_none)
    assert f(3.0) == 1.5 and f(-1.0) is None


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own message")
def test_optional_elsewhere_is_a_clear_type_error():
    with pytest.raises(TypeError):
        ruchey.vectorize(["f8(optional(f8))"])(lambda x: x)


def narrowing(x, y):
    o = None
    if x > 0:
        o = x
    n = 0
    if o is None and y > 0:
        n += 1
    if o is not None and o > 1.5:
        n += 10
    if o is None or o < 0.5:
        n += 100
    while o is not None and o < 100.0:
        o = o * 2.0 + 1.0
        n += 1000
    if o:
        n += 5
    return n


@pytest.mark.parametrize("seed", range(6))
def test_optional_in_boolean_conditions_as_python(seed):
    rng = make_rng(seed)
    f = njit(narrowing)
    for _ in range(6):
        x, y = (float(v) for v in rng.integers(-3, 4, size=2))
        assert f(x, y) == narrowing(x, y)


def truth_of_none_or_value(x, o=None):
    y = 1.5 if o else -2.0
    z = not o
    while o:
        y += x
        o = None
    assert not o
    return y, z


def truth_of_an_optional(x, flag):
    o = None
    if flag:
        o = x
    return (3 if o else 4), not o, (x if not o else -x)


def test_truth_of_none_and_optional_in_if_expressions_and_not():
    f, g = njit(truth_of_none_or_value), njit(truth_of_an_optional)
    rng = make_rng(4)
    for _ in range(6):
        x = float(rng.integers(-2, 3))
        for o in (None, 0.0, x, 2):
            assert f(x, o) == truth_of_none_or_value(x, o)
        assert f(x) == truth_of_none_or_value(x)
        for flag in (True, False):
            assert g(x, flag) == truth_of_an_optional(x, flag)
            assert g(int(x), flag) == truth_of_an_optional(int(x), flag)


# ---------------------------------------------------------------- tuples holding a value or None


def membership(n, with_dists):
    """A tuple of arrays, one None unless asked for (umap's
    compute_membership_strengths returns (rows, cols, vals, dists))."""
    vals = np.zeros(n, dtype=np.float32)
    if with_dists:
        dists = np.zeros(n, dtype=np.float32)
    else:
        dists = None
    for i in range(n):
        vals[i] = np.float32(i) * np.float32(0.5)
        if with_dists:
            dists[i] = i * 2
    return vals, dists


def optional_items(flag, x):
    t = (1, None if flag else x)
    a, b = t
    u = t + (3,)
    return t, t[1], b is None, u, ((t, 2), a), t == (1, x), t != (1, None), (1, None) == t


def optional_items_in_containers(n, k):
    items = [(i, None if i % k == 0 else float(i)) for i in range(n)]
    items.append((n, None))
    d = {}
    for i, v in items:
        d[i] = (v, i)
    total = 0.0
    for i, v in items:
        if v is not None:
            total += v
    return items, d, total


def test_tuples_keep_their_none_items():
    f = njit(membership)
    for n in (0, 1, 5):
        for with_dists in (True, False):
            got, expected = f(n, with_dists), membership(n, with_dists)
            np.testing.assert_array_equal(got[0], expected[0])
            assert (got[1] is None) == (expected[1] is None)
            if expected[1] is not None:
                np.testing.assert_array_equal(got[1], expected[1])
    f = njit(optional_items)
    rng = make_rng(5)
    for flag in (True, False):
        for x in (float(rng.standard_normal()), 2.5):
            assert f(flag, x) == optional_items(flag, x)


def test_tuples_with_none_items_in_lists_and_dicts():
    f = njit(optional_items_in_containers)
    for n in (0, 1, 7):
        for k in (1, 2, 3):
            items, d, total = f(n, k)
            e_items, e_d, e_total = optional_items_in_containers(n, k)
            assert list(items) == e_items and dict(d) == e_d and total == e_total


def test_ordering_tuples_with_none_items_is_a_typing_error():
    def less(flag):
        return (1, None if flag else 2.0) < (1, 3.0)

    with pytest.raises(ruchey.TypingError, match="cannot compare"):
        njit(less)(True)


# ---------------------------------------------------------------- fluids' Newton solver, as thermo compiles it

@njit
def newton_like(x0, n, fprime2=None):
    """What fluids' newton does with its options: `fprime2 == True` of a
    None default (False, as Python says), a flag assigned once and branched
    on (the branch not taken never typed: it unpacks three values from a
    pair, and reads a name defined nowhere), and p1 None at first, a float
    after the loop's first pass."""
    fprime2_included = fprime2 == True  # noqa: E712
    p0 = 1.0 * x0
    p1 = None
    it = 0
    while it < n:
        if fprime2_included:
            fval, fder, fcurv = (p0, 1.0)
        else:
            fval, fder = (p0 * p0 - 2.0, 2.0 * p0)
        if fprime2 is None or np.isnan(fcurv):
            step = fval / fder
        else:
            step = 0.0
        guess = p0 - step if p1 is None else p1 + (p0 - p1) * 0.5 - step
        p0, p1 = guess, p0
        it += 1
    return p0, None == fprime2, fprime2 != 1.5


def test_options_of_a_newton_solver_compile_as_numba_compiles_them():
    for x0, n in ((1.0, 5), (3.0, 8), (0.5, 1)):
        assert newton_like(x0, n) == newton_like.py_func(x0, n)


def test_a_name_defined_nowhere_is_an_error_where_typing_reaches_it():
    @njit
    def reaches(x):
        return x + fcurv  # noqa: F821

    with pytest.raises(ruchey.TypingError, match="name 'fcurv' is not defined"):
        reaches(1.0)

    @njit
    def none_plus(x):
        y = None
        return x + y

    with pytest.raises(ruchey.TypingError, match="not supported between float64 and none"):
        none_plus(1.0)


def test_an_explicit_signature_returning_a_tuple_with_optional_items():
    """dcor declares (float64, float64[::1], optional(float64)) results:
    each Optional item holds the number or None the body returns there."""
    sig = types.Tuple((types.float64, types.float64[::1], types.optional(types.float64)))(types.float64[::1],
                                                                                         types.boolean)

    @njit(sig)
    def terms(x, with_mean):
        if with_mean:
            return x.sum(), x * 2, x.mean()
        return x.sum(), x * 2, None

    rng = make_rng(71)
    for flag in (True, False):
        x = rng.standard_normal(9)
        got, want = terms(x, flag), terms.py_func(x, flag)
        assert got[0] == pytest.approx(want[0], rel=1e-12) and np.array_equal(got[1], want[1])
        assert got[2] == (None if want[2] is None else pytest.approx(want[2], rel=1e-12))


@numba_deviation("it takes an Optional array among a tuple type's items")
def test_a_tuple_type_takes_optional_numbers_only():
    with pytest.raises(TypeError, match="Optional"):
        types.Tuple((types.float64, types.optional(types.float64[:])))


# ---------------------------------------------------------------- a None bound again in a loop, read before that

@njit
def rolled_sums(a, start, end):
    """claspy's k-NN loop: prev is None before the loop, read as prev[dim]
    on every pass but the first, and bound to an array at the pass's end."""
    prev = None
    rolled = a.copy()
    total = 0.0
    for order in range(start, end):
        for dim in range(a.shape[0]):
            if order > start:
                rolled[dim] = np.roll(prev[dim], 1) + a[dim] * order
            total += rolled[dim].sum() * (dim + 1)
        prev = rolled
    return total, rolled


def test_a_none_read_as_an_array_before_the_loop_binds_it_compiles_as_an_optional():
    rng = make_rng(20)
    for shape in ((1, 4), (3, 7), (5, 1), (2, 0)):
        a = rng.standard_normal(shape)
        for start, end in ((0, 0), (0, 1), (2, 9), (-3, 4)):
            got, want = rolled_sums(a, start, end), rolled_sums.py_func(a, start, end)
            np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
            np.testing.assert_array_equal(got[1], want[1])


def test_a_none_never_bound_to_an_array_still_cannot_be_indexed():
    def reads(n):
        prev = None
        s = 0.0
        for i in range(n):
            s += prev[i]
            prev = None
        return s

    with pytest.raises(ruchey.TypingError, match="none cannot be indexed"):
        njit(reads)(3)


# ---------------------------------------------------------------- unpacking what may be None

def pair_or_none(x):
    if x < 0.0:
        return x, 2.0 * x
    elif x < 1.0:
        return 1.0 - x, x * x


@njit
def pair_or_none_jit(x):
    if x < 0.0:
        return x, 2.0 * x
    elif x < 1.0:
        return 1.0 - x, x * x


def unpack_pair(x):
    a, b = pair_or_none_jit(x)
    return a - b


def unpack_pair_in_a_loop(xs):
    total = 0.0
    for i in range(xs.shape[0]):
        a, b = pair_or_none_jit(xs[i])
        total += a * b
    return total


def unpack_pair_bound_first(x):
    pair = pair_or_none_jit(x)
    a, b = pair
    return a + b


@pytest.mark.parametrize("py", [unpack_pair, unpack_pair_bound_first])
def test_unpacking_a_tuple_a_function_may_not_return_takes_its_value(py):
    f = njit(py)
    for x in make_rng(seed_of("unpack optional", py.__name__)).uniform(-3.0, 1.0, 20):
        assert f(x) == py(x)


def test_unpacking_a_tuple_that_may_be_none_in_a_loop():
    f = njit(unpack_pair_in_a_loop)
    xs = make_rng(seed_of("unpack optional loop")).uniform(-2.0, 1.0, 50)
    assert f(xs) == pytest.approx(unpack_pair_in_a_loop(xs), rel=1e-15)


@pytest.mark.parametrize("py", [unpack_pair, unpack_pair_bound_first])
def test_unpacking_none_is_a_type_error_as_in_python(py):
    f = njit(py)
    with pytest.raises(TypeError):
        py(2.0)
    with pytest.raises(TypeError):
        f(2.0)
