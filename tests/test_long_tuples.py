"""Tuples of more than 64 items (65, 100, 300), as Numba compiles them:
built, indexed, unpacked, iterated, passed and returned, hashed and
compared, spread into calls and gathered by *args; named tuples and
explicit signatures of them too. Each result is compared with the
function's Python original; a tuple past ruchey's bound is a clear error."""
import collections

import numpy
import pytest

import ruchey
from ruchey import njit

from conftest import AS_NUMBA, make_rng

LENGTHS = (65, 100, 300)
# where LLVM's optimiser still takes seconds over 300 items (to_fixed_tuple)
SHORTER = (65, 100)


def _function(source, **names):
    """A function made by exec, as generated code makes one of many items."""
    space = dict(names)
    exec(source, space)
    return space["f"]


def _tuples(n):
    """Tuples of n items: ints (negative too), floats (NaN and inf among
    them), and mixed ints and floats."""
    rng = make_rng(n)
    ints = tuple(int(x) for x in rng.integers(-10**6, 10**6, n))
    floats = tuple(float(x) for x in rng.standard_normal(n))
    floats = (float("nan"), float("-inf")) + floats[2:]
    mixed = tuple(x if i % 2 else float(x) for i, x in enumerate(ints))
    return ints, floats, mixed


def _same(got, want):
    assert type(got) is type(want) and len(got) == len(want)
    assert all(g == w or (g != g and w != w) for g, w in zip(got, want))  # NaN where NaN


@njit
def identity(t):
    return t


@njit
def at(t, i):
    return t[i]


@njit
def total(t):
    s = 0.0
    for x in t:
        s += x
    return s


@njit
def weighted(t):
    s = 0.0
    for i, x in enumerate(t):
        s += i * x
    return s


@njit
def comparisons(t, u):
    return t == u, t != u, t < u, t <= u, t > u, t >= u


@njit
def hashed(t):
    return hash(t)


@njit
def pieces(t):
    return t[1:-1:3], t + t[:5], t[:2] * 40, len(t)


@njit
def nested(t):
    return (t, (t[0], t))


@njit
def star_sum(*args):
    s = 0
    for a in args:
        s += a
    return s, len(args)


@pytest.mark.parametrize("n", LENGTHS)
def test_passed_returned_and_indexed(n):
    for t in _tuples(n):
        _same(identity(t), identity.py_func(t))
        for i in (0, 1, n // 2, n - 1, -1, -n):
            if isinstance(t[0], type(t[1])):  # a variable index: homogeneous tuples only, as Numba
                assert at(t, i) == at.py_func(t, i) or t[i] != t[i]
        got, want = nested(t), nested.py_func(t)
        _same(got[0], want[0])
        _same(got[1][1], want[1][1])


@pytest.mark.parametrize("n", LENGTHS)
def test_iterated_enumerated_and_summed(n):
    ints, floats, mixed = _tuples(n)
    assert total(ints) == total.py_func(ints)
    assert weighted(ints) == weighted.py_func(ints)
    numpy.testing.assert_equal(total(floats), total.py_func(floats))
    assert numpy.isclose(weighted(floats[2:] * 1), weighted.py_func(floats[2:]))


@pytest.mark.parametrize("n", SHORTER)
def test_hashed_and_compared(n):
    ints, floats, _ = _tuples(n)
    assert hashed(ints) == hashed.py_func(ints)
    assert hashed(floats[2:]) == hashed.py_func(floats[2:])
    for other in (ints, ints[:-1] + (ints[-1] + 1,), ints[:-1] + (ints[-1] - 1,), (ints[0] - 1,) + ints[1:]):
        assert comparisons(ints, other) == comparisons.py_func(ints, other)


@njit
def equalities(t, u):
    return t == u, t != u, u == t


@pytest.mark.parametrize("n", LENGTHS)
def test_equality_of_long_tuples_item_by_item(n):
    # (an `and` of the items' equalities: the chain of selects it was took LLVM seconds over 300 items)
    ints, floats, mixed = _tuples(n)
    for t in (ints, floats[2:], mixed):
        for i in (0, len(t) // 2, len(t) - 1):
            changed = t[:i] + (t[i] + 1,) + t[i + 1:]
            assert equalities(t, changed) == equalities.py_func(t, changed)
        assert equalities(t, t) == equalities.py_func(t, t)
    assert equalities(floats, floats) == (False, True, False)  # NaN equals nothing, as Python's (different objects)


@pytest.mark.parametrize("n", LENGTHS)
def test_sliced_concatenated_and_repeated(n):
    ints, floats, mixed = _tuples(n)
    for t in (ints, mixed):
        got, want = pieces(t), pieces.py_func(t)
        for g, w in zip(got[:3], want[:3]):
            _same(g, w)
        assert got[3] == want[3]


@pytest.mark.parametrize("n", LENGTHS)
def test_built_and_unpacked_in_compiled_code(n):
    names = [f"a{i}" for i in range(n)]
    build = njit(_function(f"def f(x):\n    return ({', '.join(f'x * {i} - {i % 7}' for i in range(n))})\n"))
    unpack = njit(_function(f"def f(t):\n    {', '.join(names)} = t\n    return {names[-1]} - {names[0]} * {names[n // 2]}\n"))
    for x in (0, 3, -5):
        _same(build(x), build.py_func(x))
    _same(build(2.5), build.py_func(2.5))
    ints, floats, mixed = _tuples(n)
    for t in (ints, mixed):
        assert unpack(t) == unpack.py_func(t)


@pytest.mark.parametrize("n", LENGTHS)
def test_star_args_and_spread_calls(n):
    ints = _tuples(n)[0]
    assert star_sum(*ints) == star_sum.py_func(*ints)
    spread = njit(_function("def f(t):\n    return star_sum(*t)\n", star_sum=star_sum))
    assert spread(ints) == spread.py_func(ints)
    if n <= 256:  # a compiled function's parameters (ruchey's bound; Numba has none)
        names = [f"a{i}" for i in range(n)]
        many = njit(_function(f"def f({', '.join(names)}):\n    return {names[-1]} * 2 - {names[0]}\n"))
        calls = njit(_function("def f(t):\n    return many(*t)\n", many=many))
        assert calls(ints) == calls.py_func(ints)


@pytest.mark.parametrize("n", LENGTHS)
def test_named_tuples_and_signatures(n):
    Row = collections.namedtuple("Row", [f"f{i}" for i in range(n)])
    row = Row(*_tuples(n)[0])
    last = njit(_function(f"def f(r):\n    return r.f{n - 1} - r[0], r\n"))
    got, want = last(row), last.py_func(row)
    assert got[0] == want[0] and got[1] == want[1] and type(got[1]) is Row
    signed = njit(ruchey.types.float64(ruchey.types.UniTuple(ruchey.types.float64, n)))(total.py_func)
    floats = _tuples(n)[1][2:] + (1.0, 2.0)
    assert signed(floats) == total.py_func(floats)


@pytest.mark.parametrize("n", SHORTER)
def test_to_fixed_tuple_and_arrays(n):
    from ruchey.unsafe import to_fixed_tuple
    fixed = njit(_function(f"def f(a):\n    return to_fixed_tuple(a, {n})\n", to_fixed_tuple=to_fixed_tuple))
    a = make_rng(n).standard_normal(n + 2)
    assert fixed(a) == tuple(a[:n])
    of_arrays = tuple(numpy.arange(3.0) * i for i in range(n))
    pick = njit(lambda t, i: t[i].sum())
    assert pick(of_arrays, n - 1) == pick.py_func(of_arrays, n - 1)
    as_array = njit(lambda t: numpy.array(t))
    numpy.testing.assert_array_equal(as_array(_tuples(n)[0]), as_array.py_func(_tuples(n)[0]))


@pytest.mark.parametrize("n", LENGTHS)
def test_global_tuple(n):
    ints = _tuples(n)[0]
    whole = njit(_function("def f():\n    return G, hash(G)\n", G=ints))
    assert whole() == whole.py_func()


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's bound; Numba has none")
def test_beyond_the_bound_is_a_clear_error():
    with pytest.raises(ruchey.TypingError, match="more than 1000"):
        njit(lambda t: t * 4)(tuple(range(300)))
    with pytest.raises(TypeError, match="at most 1000"):
        identity(tuple(range(1001)))  # (Numba's bound on an argument too)
    with pytest.raises(ruchey.TypingError, match="a shape must be"):  # no array has 65 dimensions
        njit(lambda s: numpy.zeros(s))((1,) * 65)


@njit
def _long_pair(x):
    return _long_items(x), x


@njit
def _long_items_read(x):
    t, y = _long_pair(x)
    u = t
    return u[0] + u[299] * y, u[300], u[150]


_long_items = njit(_function("def f(x):\n    t = (" + ", ".join(f"x * {i} - {i % 7}" for i in range(300))
                             + ", numpy.float32(x) / 4)\n    return t\n", numpy=numpy))


def test_long_results_of_callees_and_variables_match_python():
    # a result of many fields goes back through memory the caller gives (no insertvalue chain to optimise)
    rng = make_rng(300)
    for x in [int(v) for v in rng.integers(-50, 50, size=3)] + [float(rng.normal()), 0]:
        _same(_long_items(x), _long_items.py_func(x))
        _same(_long_pair(x), _long_pair.py_func(x))
        assert _long_items_read(x) == _long_items_read.py_func(x)
