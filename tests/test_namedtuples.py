"""Named tuples in compiled code, as Numba takes them: instances of
collections.namedtuple and typing.NamedTuple classes as arguments, p.x and
p[i], unpacking, len, iteration and comparison as any tuple, instances
made by calling the class (positional and keyword arguments, the class's
defaults) and returned to Python as that same class. Against the Python
original on generated inputs; bad uses are clear errors."""
from collections import namedtuple
from typing import NamedTuple

import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import AS_NUMBA, assert_same, make_rng

Point = namedtuple("Point", "x y")
Span = namedtuple("Span", ["lo", "hi", "step"], defaults=[1])
Result = namedtuple("Result", "x fun success nit simplex")


ORIGIN = Point(0.5, -1.5)


class Particle(NamedTuple):
    pos: float
    vel: float
    mass: float = 1.0


@njit
def length(p):
    return (p.x ** 2 + p.y ** 2) ** 0.5


@njit
def by_index(p):
    return p[0] - p[1], p[-1], len(p)


@njit
def unpacked(p):
    x, y = p
    return x * 10 + y


@njit
def iterate(p):
    s = 0.0
    for v in p:
        s += v
    return s


@njit
def shifted(p, d):
    return Point(p.x + d, y=p.y - d)


@njit
def span_items(lo, hi):
    s = Span(lo, hi)
    t = Span(hi=hi, lo=lo, step=2)
    return s.lo + s.hi + s.step, t.step, s, t


@njit
def step(p, dt):
    return Particle(p.pos + p.vel * dt, p.vel, p.mass)


@njit
def energy(p):
    return 0.5 * p.mass * p.vel ** 2


@njit
def kept_in_variable(a, flag):
    if flag:
        r = Point(a, 1)
    else:
        r = Point(a, 2)
    return r


@njit
def optimiser_result(x0, n):
    x = x0.copy()
    for _ in range(n):
        x = x * 0.5
    return Result(x, -(x ** 2).sum(), n < 100, n, numpy.vstack((x, x0)))


@njit
def equal(p, q):
    return p == q, p != q, p < q


@njit
def nested(p, q):
    return (p, q), Point(p, q)


@njit
def concat(p):
    return p + (3.0,)


@njit
def from_origin(p):
    return Point(p.x - ORIGIN.x, p[1] - ORIGIN[1]), ORIGIN


def points(seed, n=8):
    rng = make_rng(seed)
    return [Point(float(a), float(b)) for a, b in rng.uniform(-10, 10, (n, 2))]


@pytest.mark.parametrize("seed", range(4))
def test_argument_items(seed):
    for p in points(seed):
        assert_same(length, p)
        assert_same(by_index, p)
        assert_same(unpacked, p)
        assert_same(iterate, p)


@pytest.mark.parametrize("seed", range(4))
def test_made_and_returned_as_the_class(seed):
    for p in points(seed):
        d = float(make_rng(seed).uniform(-1, 1))
        got = shifted(p, d)
        assert type(got) is Point
        assert_same(shifted, p, d)


@pytest.mark.parametrize("lo,hi", [(0, 5), (-3, 3), (7, 1)])
def test_keywords_and_defaults(lo, hi):
    got = span_items(lo, hi)
    assert type(got[2]) is Span and type(got[3]) is Span
    assert_same(span_items, lo, hi)


@pytest.mark.parametrize("seed", range(4))
def test_typing_namedtuple(seed):
    rng = make_rng(seed)
    p = Particle(float(rng.uniform(-5, 5)), float(rng.uniform(-5, 5)), float(rng.uniform(0.5, 3)))
    got = step(p, 0.1)
    assert type(got) is Particle
    assert_same(step, p, 0.1)
    assert_same(energy, p)
    assert_same(energy, Particle(1.0, 2.0))


@pytest.mark.parametrize("flag", [True, False])
def test_one_class_in_a_variable(flag):
    assert_same(kept_in_variable, 2.5, flag)
    assert type(kept_in_variable(2.5, flag)) is Point


@pytest.mark.parametrize("seed", range(4))
def test_arrays_inside(seed):
    x0 = make_rng(seed).standard_normal(3)
    got = optimiser_result(x0, 5)
    assert type(got) is Result
    expected = optimiser_result.py_func(x0, 5)
    for name in Result._fields:
        numpy.testing.assert_allclose(getattr(got, name), getattr(expected, name), rtol=1e-14)


@pytest.mark.parametrize("seed", range(3))
def test_a_global_named_tuple_is_frozen_with_its_class(seed):
    for p in points(seed, 4):
        got = from_origin(p)
        assert type(got[0]) is Point and type(got[1]) is Point
        assert_same(from_origin, p)


def test_comparisons_and_nesting():
    p, q = Point(1.0, 2.0), Point(1.0, 3.0)
    assert_same(equal, p, q)
    assert_same(equal, p, p)
    got = nested(1.5, 2.5)
    assert got == nested.py_func(1.5, 2.5) and type(got[1]) is Point
    assert concat(p) == concat.py_func(p) and type(concat(p)) is tuple


def test_different_classes_are_different_types():
    Other = namedtuple("Other", "x y")
    assert length(Point(3.0, 4.0)) == 5.0
    assert length(Other(3.0, 4.0)) == 5.0
    assert len(length.signatures) == 2


def test_unknown_attribute_is_a_typing_error():
    @njit
    def bad(p):
        return p.z
    with pytest.raises(ruchey.TypingError, match="has no attribute 'z'"):
        bad(Point(1.0, 2.0))


@njit
def made_by_its_type(p, items, d):
    a = type(p)(*items)
    b = type(p)(items[1] * d, items[0])
    return a, b, type(p)(p.x + d, p.y)


@pytest.mark.parametrize("seed", range(3))
def test_type_of_a_named_tuple_makes_one_of_its_class(seed):
    rng = make_rng(seed)
    for p in points(seed):
        items = (int(rng.integers(-9, 9)), float(rng.normal()))
        d = float(rng.uniform(-1, 1))
        got = made_by_its_type(p, items, d)
        assert all(type(g) is Point for g in got)
        assert got == made_by_its_type.py_func(p, items, d)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_type_of_a_named_tuple_given_too_many_items_is_a_typing_error():
    @njit
    def too_many(p):
        return type(p)(1, 2, 3)
    with pytest.raises(ruchey.TypingError, match=r"Point\(\) takes 2 arguments, got 3"):
        too_many(Point(1.0, 2.0))


def test_bad_constructions_are_typing_errors():
    @njit
    def too_many(a):
        return Point(a, a, a)

    @njit
    def unknown_keyword(a):
        return Point(a, w=a)

    @njit
    def missing(a):
        return Point(a)

    @njit
    def twice(a):
        return Point(a, x=a)
    for f, message in ((too_many, "positional arguments"), (unknown_keyword, "unexpected keyword"),
                       (missing, "missing required argument 'y'"), (twice, "multiple values")):
        with pytest.raises(ruchey.TypingError, match=message):
            f(1.0)


def test_a_plain_tuple_subclass_is_refused():
    class Pair(tuple):
        pass
    with pytest.raises(TypeError):
        length(Pair((1.0, 2.0)))


def test_immutable():
    @njit
    def assign(p):
        p.x = 3.0
        return p
    with pytest.raises(ruchey.TypingError):
        assign(Point(1.0, 2.0))


@njit
def shift_all(points, dx):
    total = 0.0
    for i in range(len(points)):
        p = points[i]
        total += p.x
        points[i] = Point(p.x + dx, p.y)
    points.append(Point(total, -1.0))
    return total


@pytest.mark.parametrize("n", [1, 2, 7])
def test_lists_of_named_tuples_are_arguments_reflected_as_named_tuples(n):
    rng = make_rng(n)
    made = [Point(float(x), float(y)) for x, y in rng.normal(size=(n, 2))]
    got, want = list(made), list(made)
    assert shift_all(got, 0.25) == shift_all.py_func(want, 0.25)
    assert got == want and all(type(p) is Point for p in got)
    kept = [Particle(1.0, 2.0)]  # untouched: the same objects after the call
    first = kept[0]
    length_of_all = njit(lambda ps: sum([p.pos for p in ps]))
    assert length_of_all(kept) == 1.0 and kept[0] is first


def test_a_list_mixing_named_tuple_classes_is_refused():
    with pytest.raises(TypeError, match="heterogeneous list"):
        shift_all([Point(1.0, 2.0), Particle(1.0, 2.0, 3.0)[:2]], 1.0)
