"""jitclass (ruchey.experimental.jitclass, as numba.experimental.jitclass):
native objects with typed fields, compiled __init__, methods and
properties; made in Python or in compiled code, passed by reference,
kept in typed lists and in other jitclasses' fields. Every behaviour is
compared with the undecorated class (MyClass.class_type.class_def) on
generated inputs."""
import gc
import sys

import numpy as np
import pytest

import ruchey
from ruchey import float64, int32, int64, njit, typed, types
from ruchey.experimental import jitclass

from conftest import AS_NUMBA, make_rng, rss_bytes, run_python_file, seed_of

ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="ruchey's native objects and messages")


# ---------------------------------------------------------------- the classes

@jitclass([("x", float64), ("y", float64)])
class Point:
    def __init__(self, x, y=0.0):
        self.x = x
        self.y = y

    def norm2(self):
        return self.x * self.x + self.y * self.y

    def scaled(self, k, shift=0.0):
        self.x = self.x * k + shift
        self.y = self.y * k + shift
        return self.norm2()

    def dot(self, other):
        return self.x * other.x + self.y * other.y


@jitclass
class Stack:
    """A stack of floats that grows its array, as real code writes one."""
    data: float64[:]
    n: int64

    def __init__(self, capacity):
        self.data = np.empty(capacity)
        self.n = 0

    def push(self, v):
        if self.n == self.data.shape[0]:
            grown = np.empty(2 * self.data.shape[0] + 1)
            grown[:self.n] = self.data[:self.n]
            self.data = grown
        self.data[self.n] = v
        self.n += 1

    def pop(self):
        self.n -= 1
        return self.data[self.n]

    def reserve(self, n):
        if self.data.shape[0] < n:
            grown = np.empty(self.capacity_for(n))  # a static method through the instance
            grown[:self.n] = self.data[:self.n]
            self.data = grown
        return self.data.shape[0]

    @property
    def size(self):
        return self.n

    @property
    def top(self):
        return self.data[self.n - 1]

    @top.setter
    def top(self, v):
        self.data[self.n - 1] = v

    @staticmethod
    def capacity_for(n):
        return 2 * n + 1


@jitclass([("count", int64), ("mean", float64), ("m2", float64), ("lo", float64), ("hi", float64)])
class RunningStats:
    """Welford's running mean and variance."""

    def __init__(self):
        self.count = 0
        self.mean = 0.0
        self.m2 = 0.0
        self.lo = np.inf
        self.hi = -np.inf

    def add(self, x):
        self.count += 1
        delta = x - self.mean
        self.mean += delta / self.count
        self.m2 += delta * (x - self.mean)
        self.lo = min(self.lo, x)
        self.hi = max(self.hi, x)

    def add_all(self, xs):
        for x in xs:
            self.add(x)

    @property
    def variance(self):
        return self.m2 / (self.count - 1) if self.count > 1 else 0.0


@jitclass([("pos", float64[:, :]), ("vel", float64[:, :]), ("mass", float64[:]), ("steps", int64)])
class Particles:
    def __init__(self, pos, vel, mass):
        self.pos = pos  # the caller's arrays, not copies
        self.vel = vel
        self.mass = mass
        self.steps = 0

    def step(self, dt, g=-9.81):
        for i in range(self.pos.shape[0]):
            self.vel[i, 1] += g * dt
            for d in range(self.pos.shape[1]):
                self.pos[i, d] += self.vel[i, d] * dt
        self.steps += 1

    def energy(self):
        e = 0.0
        for i in range(self.pos.shape[0]):
            v2 = 0.0
            for d in range(self.vel.shape[1]):
                v2 += self.vel[i, d] ** 2
            e += 0.5 * self.mass[i] * v2
        return e


@jitclass([("origin", Point.class_type.instance_type), ("stats", RunningStats.class_type.instance_type)])
class Track:
    def __init__(self, x, y):
        self.origin = Point(x, y)
        self.stats = RunningStats()

    def visit(self, p):
        d = ((p.x - self.origin.x) ** 2 + (p.y - self.origin.y) ** 2) ** 0.5
        self.stats.add(d)
        return d


@jitclass([("items", types.ListType(float64)), ("index", types.DictType(types.unicode_type, int64)),
           ("pair", types.Tuple((int64, float64))), ("name", types.unicode_type),
           ("last", ruchey.optional(float64))])
class Bag:
    """Fields of typed containers, a tuple, a str and an Optional."""

    def __init__(self, name):
        self.items = typed.List.empty_list(float64)
        self.index = typed.Dict.empty(types.unicode_type, int64)
        self.pair = (0, 1.0)
        self.name = name
        self.last = None

    def add(self, key, v):
        self.index[key] = len(self.items)
        self.items.append(v)
        self.pair = (self.pair[0] + 1, self.pair[1] * v)
        self.name += key
        self.last = v

    def get(self, key):
        return self.items[self.index[key]]

    def taken(self, values):
        values.append(self.pair[1])
        return values


@jitclass([("x", float64), ("y", float64)])
class Vec:
    """Special methods: operators, comparisons, len, indexing."""

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    def __rmul__(self, k):
        return Vec(k * self.x, k * self.y)

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y

    def __lt__(self, other):
        return self.x < other.x or (self.x == other.x and self.y < other.y)

    def __abs__(self):
        return (self.x * self.x + self.y * self.y) ** 0.5

    def __len__(self):
        return 2

    def __getitem__(self, i):
        return self.x if i == 0 else self.y

    def __setitem__(self, i, v):
        if i == 0:
            self.x = v
        else:
            self.y = v


def plain(cls):
    return cls.class_type.class_def


# ---------------------------------------------------------------- fields, methods, properties

def test_instance_made_in_python_reads_and_writes_fields():
    rng = make_rng(seed_of("fields"))
    for x, y in rng.normal(size=(20, 2)):
        p, q = Point(x, y), plain(Point)(x, y)
        assert (p.x, p.y) == (q.x, q.y)
        assert p.norm2() == q.norm2()
        p.x = q.x = y * 3
        p.y = q.y = 7  # an int stored in a float64 field, converted
        assert (p.x, p.y) == (q.x, q.y)
        assert isinstance(p.y, float)
        assert isinstance(p, Point) and not isinstance(q, Point)


def test_methods_with_defaults_and_keywords_match_python():
    rng = make_rng(seed_of("methods"))
    for x, y, k, s in rng.normal(size=(20, 4)):
        p, q = Point(x, y), plain(Point)(x, y)
        assert p.scaled(k) == q.scaled(k)
        assert p.scaled(k, s) == q.scaled(k, s)
        assert p.scaled(shift=s, k=k) == q.scaled(shift=s, k=k)
        assert (p.x, p.y) == (q.x, q.y)
        assert Point(y=s, x=k).y == plain(Point)(y=s, x=k).y
        assert Point(x).y == plain(Point)(x).y


def test_method_takes_another_instance():
    p, q = Point(1.5, -2.0), Point(3.0, 4.0)
    assert p.dot(q) == plain(Point)(1.5, -2.0).dot(plain(Point)(3.0, 4.0))


def test_stack_with_properties_and_static_method():
    rng = make_rng(seed_of("stack"))
    values = rng.normal(size=50)
    s, t = Stack(1), plain(Stack)(1)
    for v in values:
        s.push(v)
        t.push(v)
        assert s.size == t.size and s.top == t.top
    s.top = t.top = 99.0
    assert s.pop() == t.pop() == 99.0
    popped = [(s.pop(), t.pop()) for _ in range(10)]
    assert all(a == b for a, b in popped)
    assert np.array_equal(s.data[:s.n], t.data[:t.n])
    assert Stack.capacity_for(7) == plain(Stack).capacity_for(7) == s.capacity_for(7)
    assert s.reserve(100) == t.reserve(100)
    assert np.array_equal(s.data[:s.n], t.data[:t.n])


def test_running_stats_match_python():
    rng = make_rng(seed_of("stats"))
    xs = rng.normal(3.0, 2.0, size=1000)
    a, b = RunningStats(), plain(RunningStats)()
    a.add_all(xs)
    b.add_all(xs)
    assert a.count == b.count
    assert a.mean == pytest.approx(b.mean, rel=1e-12)
    assert a.variance == pytest.approx(b.variance, rel=1e-12)
    assert (a.lo, a.hi) == (b.lo, b.hi)


def test_particle_system_steps_like_python():
    rng = make_rng(seed_of("particles"))
    pos, vel, mass = rng.normal(size=(16, 3)), rng.normal(size=(16, 3)), rng.uniform(1, 2, size=16)
    a = Particles(pos.copy(), vel.copy(), mass.copy())
    b = plain(Particles)(pos.copy(), vel.copy(), mass.copy())
    for _ in range(25):
        a.step(0.01)
        b.step(0.01)
    a.step(0.02, g=0.0)
    b.step(0.02, g=0.0)
    assert a.steps == b.steps == 26
    assert np.allclose(a.pos, b.pos, rtol=1e-13) and np.allclose(a.vel, b.vel, rtol=1e-13)
    assert a.energy() == pytest.approx(b.energy(), rel=1e-13)


def test_fields_of_containers_tuples_strs_and_optionals():
    rng = make_rng(seed_of("bag"))
    values = rng.normal(size=12)
    a, b = Bag("bag"), plain(Bag)("bag")
    assert a.last is None
    for i, v in enumerate(values):
        a.add(str(i), v)
        b.add(str(i), v)
    assert list(a.items) == b.items and dict(a.index) == b.index
    assert (a.pair, a.name, a.last) == (b.pair, b.name, b.last)
    assert a.get("7") == b.get("7")
    a.last = b.last = None
    assert a.last is None


@njit
def bag_in_njit(n):
    b = Bag("x")
    for i in range(n):
        b.add(str(i), i * 0.5)
    return b.get(str(n - 1)), b.name, len(b.items)


def test_container_fields_in_compiled_code():
    assert bag_in_njit(6) == (2.5, "x012345", 6)


@njit
def bag_filled_by_constants(b, v):
    b.add("f8", v)  # strs that name NumPy dtypes, given to methods as strs
    b.add("b", v * 2)
    b.add(key="int32", v=v + 1)
    pair = ("a", v - 1)
    b.add(*pair)
    return b.get("b") + b.get("int32"), b.name, b.taken([v, 1.0])  # a list, not a tuple


def test_constant_arguments_of_methods_in_compiled_code_are_read_as_written():
    for v in (0.5, -3.0, 0.0):
        a, b = Bag("x"), plain(Bag)("x")
        total, name, values = bag_filled_by_constants(a, v)
        assert (total, name, list(values)) == bag_filled_by_constants.py_func(b, v)
        assert list(a.items) == b.items and dict(a.index) == b.index


@jitclass([("a", float64), ("b", float64), ("best", ruchey.optional(float64))])
class Pair:
    def __init__(self, a, b):
        self.a, self.b = a, b  # unpacked into fields
        self.best = None

    def swap(self):
        self.a, self.b = self.b, self.a
        return self.a

    def improve(self, v):
        if self.best is None:
            self.best = v
        else:
            self.best += v  # an Optional field updated
        return self.best


def test_fields_unpacked_into_and_optional_updated():
    rng = make_rng(seed_of("pair"))
    for a, b, v in rng.normal(size=(10, 3)).tolist():
        p, q = Pair(a, b), plain(Pair)(a, b)
        assert p.swap() == q.swap() and (p.a, p.b) == (q.a, q.b)
        assert p.improve(v) == q.improve(v) and p.improve(v) == q.improve(v)


def test_array_field_shares_memory_with_the_array_given():
    a = np.arange(5.0)
    p = Particles(a.reshape(5, 1), a.reshape(5, 1), a)
    p.mass[0] = 42.0
    assert a[0] == 42.0
    a[1] = -1.0
    assert p.mass[1] == -1.0


# more references than a container's item may hold: hftbacktest's backtester keeps twenty arrays
_MANY = [(f"a{i}", float64[:]) for i in range(12)] + [("names", types.ListType(types.unicode_type)),
                                                     ("pair", types.Tuple((float64[:], types.unicode_type))),
                                                     ("count", int64)]


@jitclass(_MANY)
class ManyArrays:
    def __init__(self, base, n):
        self.a0 = base * 0; self.a1 = base * 1; self.a2 = base * 2; self.a3 = base * 3
        self.a4 = base * 4; self.a5 = base * 5; self.a6 = base * 6; self.a7 = base * 7
        self.a8 = base * 8; self.a9 = base * 9; self.a10 = base * 10; self.a11 = base
        self.names = typed.List(["n" + str(i) for i in range(n)])
        self.pair = (base[:n], "p" * n)
        self.count = n

    def total(self):
        return (self.a0.sum() + self.a1.sum() + self.a2.sum() + self.a3.sum() + self.a4.sum() + self.a5.sum() +
                self.a6.sum() + self.a7.sum() + self.a8.sum() + self.a9.sum() + self.a10.sum() + self.a11.sum() +
                self.pair[0].sum() + len(self.pair[1]) + len(self.names) + self.count)


@njit
def many_arrays_total(base, n):
    objs = [ManyArrays(base, k) for k in range(n)]
    return sum([o.total() for o in objs]), objs[-1] if n else None


def test_instances_holding_many_references_free_them_all():
    for n in (1, 3, 9):
        base = make_rng(seed_of("many arrays", n)).normal(size=n + 2)
        before = sys.getrefcount(base)
        got, last = many_arrays_total(base, n)
        expected = sum(ManyArrays(base, k).total() for k in range(n))
        assert got == pytest.approx(expected, rel=1e-12)
        assert np.array_equal(last.a11, base) and last.pair[1] == "p" * (n - 1)
        assert list(last.names) == ["n" + str(i) for i in range(n - 1)]
        del last
        gc.collect()
        assert sys.getrefcount(base) == before


@jitclass([("weights", float64[:]), ("grid", int64[:, :])])
class Weighted:
    def __init__(self, weights, grid):
        self.weights = weights
        self.grid = grid

    def weighted_row(self, i):
        total = 0.0
        for j in range(self.grid.shape[1]):
            total += self.weights[j] * self.grid[i, j]
        return total

    def uniform(self):
        return self.weights.strides == (0,)


@njit
def make_weighted(weights, grid):
    w = Weighted(weights, grid)
    return w.weighted_row(0) + w.weighted_row(grid.shape[0] - 1), w.uniform()


def test_readonly_arrays_fit_writable_array_fields():
    # as in Numba, a readonly array (a broadcast, a frozen array) may be kept
    # in a field of the writable array type, and read through it
    rng = make_rng(seed_of("readonly fields"))
    for n in (1, 3, 7):
        grid = rng.integers(-5, 5, size=(4, n))
        grid.setflags(write=False)
        frozen = rng.normal(size=n)
        frozen.setflags(write=False)
        for weights in (np.broadcast_to(0.5, n), frozen, frozen[::-1]):
            w, q = Weighted(weights, grid), plain(Weighted)(weights, grid)
            assert [w.weighted_row(i) for i in range(4)] == [q.weighted_row(i) for i in range(4)]
            assert w.uniform() == q.uniform() == (weights.strides == (0,))
            np.testing.assert_array_equal(w.weights, weights)
            assert make_weighted(weights, grid) == make_weighted.py_func(weights, grid)


@ruchey_only
def test_readonly_array_of_another_dtype_is_refused_by_an_array_field():
    grid = np.zeros((2, 3), dtype=np.int64)
    with pytest.raises(ruchey.TypingError, match="field 'weights' of jitclass Weighted"):
        Weighted(np.broadcast_to(np.int64(1), 3), grid)


# ---------------------------------------------------------------- in compiled code

@njit
def move(p, dx):
    p.x += dx
    p.y -= dx
    return p.norm2()


def test_instance_passed_to_njit_is_mutated_in_place():
    rng = make_rng(seed_of("move"))
    for dx in rng.normal(size=10):
        p, q = Point(1.0, 2.0), plain(Point)(1.0, 2.0)
        assert move(p, dx) == move.py_func(q, dx)
        assert (p.x, p.y) == (q.x, q.y)


@njit
def make_points(n, k):
    total = 0.0
    last = Point(0.0)
    for i in range(n):
        p = Point(i * 1.0, y=-i * 0.5)
        total += p.scaled(k)
        last = p
    return total, last


def test_instances_made_and_returned_by_njit():
    for n, k in [(0, 1.0), (1, 2.0), (17, -0.5)]:
        total, last = make_points(n, k)
        t2, l2 = make_points.py_func(n, k)
        assert total == t2
        assert isinstance(last, Point)
        assert (last.x, last.y) == (l2.x, l2.y)


@njit
def stack_ops(values, pops):
    s = Stack(Stack.capacity_for(0))
    s.reserve(3)
    for v in values:
        s.push(v)
    s.top = s.top * 2
    total = 0.0
    for _ in range(pops):
        total += s.pop()
    return total, s.size, s


def test_stack_in_compiled_code():
    rng = make_rng(seed_of("stack njit"))
    for n in (1, 5, 100):
        values = rng.normal(size=n)
        pops = n // 2
        t, size, s = stack_ops(values, pops)
        t2, size2, s2 = stack_ops.py_func(values, pops)
        assert t == pytest.approx(t2, rel=1e-13) and size == size2
        assert np.array_equal(s.data[:s.n], s2.data[:s2.n])


@njit
def track_walk(xs, ys):
    t = Track(0.5, -0.5)
    for i in range(xs.shape[0]):
        t.visit(Point(xs[i], ys[i]))
    return t.stats.mean, t.stats.variance, t.stats.count, t


def test_jitclass_fields_of_other_jitclasses():
    rng = make_rng(seed_of("track"))
    xs, ys = rng.normal(size=40), rng.normal(size=40)
    m, v, c, t = track_walk(xs, ys)
    m2, v2, c2, t2 = track_walk.py_func(xs, ys)
    assert c == c2 and m == pytest.approx(m2, rel=1e-12) and v == pytest.approx(v2, rel=1e-12)
    assert t.origin.x == 0.5 and t.stats.count == 40
    t.origin.x = 3.0  # the field's object itself, not a copy
    assert t.origin.x == 3.0


@njit
def particle_list(n):
    lst = typed.List()
    for i in range(n):
        lst.append(Point(i * 1.0, i * 2.0))
    total = 0.0
    for p in lst:
        p.scaled(2.0)
        total += p.x
    return total, lst


def test_instances_in_typed_lists():
    for n in (0, 1, 9):
        total, lst = particle_list(n)
        assert total == sum(2.0 * i for i in range(n))
        assert [(p.x, p.y) for p in lst] == [(2.0 * i, 4.0 * i) for i in range(n)]



@njit
def shift_all(lst, dx):
    total = 0.0
    for p in lst:
        p.x += dx
        total += p.norm2()
    lst.append(Point(dx, -dx))
    return total


point_type = Point.class_type.instance_type  # as Numba's compiled code names it


@njit
def points_of(xs):
    lst = typed.List.empty_list(point_type)
    for x in xs:
        lst.append(Point(x, 2.0 * x))
    return lst


@njit
def points_by_key(keys):
    d = typed.Dict.empty(types.int64, point_type)
    for k in keys:
        d[k] = Point(k, 0.0)
    total = 0.0
    for k in keys:
        d[k].y += 1.0
        total += d[k].x * d[k].y
    return total


@njit
def array_of_points():
    return np.empty(3, Point.class_type.instance_type)  # (ruchey reads it through the class too)


def twin_lists(values, empty):
    def make():
        lst = typed.List.empty_list(Point.class_type.instance_type) if empty else typed.List()
        for x, y in values:
            lst.append(Point(x, y))
        return lst
    return make(), make()


def test_typed_list_of_instances_from_python_mutated_in_compiled_code():
    rng = make_rng(seed_of("point-list"))
    for n, empty in ((1, False), (5, True), (40, False), (0, True)):
        values = rng.normal(size=(n, 2))
        a, b = twin_lists(values, empty)
        dx = rng.normal()
        assert shift_all(a, dx) == shift_all.py_func(b, dx)
        assert [(p.x, p.y) for p in a] == [(p.x, p.y) for p in b]  # the instances themselves changed
        assert len(a) == n + 1 and a[-1].y == -dx


def test_typed_list_of_instances_returned_to_python():
    rng = make_rng(seed_of("point-list-returned"))
    xs = rng.normal(size=12)
    lst = points_of(xs)
    assert isinstance(lst, typed.List) and len(lst) == 12
    assert [(p.x, p.y) for p in lst] == [(p.x, p.y) for p in points_of.py_func(xs)]
    assert all(isinstance(p, Point) for p in lst)
    lst[0].y = 7.5  # the instance in the list, not a copy
    assert lst[0].y == 7.5
    lst[1] = Point(1.0, 1.0)
    p = lst.pop()
    del lst[2]
    assert (lst[1].x, p.x, len(lst)) == (1.0, xs[-1], 10)
    before = [(q.x, q.y) for q in lst]
    assert shift_all(lst, 1.0) == pytest.approx(sum((x + 1.0) ** 2 + y ** 2 for x, y in before), rel=1e-12)
    assert [(lst[i].x, lst[i].y) for i in range(10)] == [(x + 1.0, y) for x, y in before] and len(lst) == 11
    keys = rng.integers(0, 5, size=9)
    d, total = {}, 0.0  # points_by_key in Python (whose typed.Dict takes numbers only)
    for k in keys:
        d[k] = plain(Point)(k, 0.0)
    for k in keys:
        d[k].y += 1.0
        total += d[k].x * d[k].y
    assert points_by_key(keys) == total
    c = typed.List()
    c.extend([Point(2.0, 3.0), Point(4.0, 5.0)])
    d = typed.List([Point(2.0, 3.0), Point(4.0, 5.0)])
    assert shift_all(c, 0.5) == shift_all.py_func(d, 0.5)


@ruchey_only
def test_typed_list_of_instances_holds_references():
    p = Point(1.0, 2.0)
    lst = typed.List()
    lst.append(p)
    lst.insert(0, p)
    assert p._meminfo_refcount() == 3
    del lst[0]
    assert p._meminfo_refcount() == 2
    q = lst.pop()
    assert q.x == 1.0 and p._meminfo_refcount() == 2  # q's box and p's
    del q
    lst.append(p)
    lst[0] = Point(0.0, 0.0)
    assert p._meminfo_refcount() == 1
    lst.append(p)
    del lst
    assert p._meminfo_refcount() == 1
    before = rss_bytes()
    for _ in range(2000):
        big = points_of(np.ones(50))
        shift_all(big, 1.0)
        big.clear()
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


@ruchey_only
def test_typed_list_of_instances_refuses_other_items():
    lst = typed.List.empty_list(Point.class_type.instance_type)
    with pytest.raises(TypeError, match="cannot hold Stack"):
        lst.append(Stack(1))
    with pytest.raises(TypeError, match="cannot hold float"):
        lst.append(1.0)
    lst.append(Point(1.0, 1.0))
    with pytest.raises(TypeError, match="cannot hold int"):
        lst[0] = 3
    with pytest.raises(TypeError, match="cannot hold"):
        lst.insert(0, None)
    assert len(lst) == 1 and lst[0].x == 1.0
    floats = typed.List([1.0])
    with pytest.raises(TypeError, match="not Point"):
        floats.append(Point(1.0, 1.0))
    with pytest.raises(ruchey.TypingError, match="dtype must be a NumPy dtype"):
        array_of_points()  # an item type of typed containers, not a dtype


@ruchey_only
def test_numba_shim_gives_jitclass(tmp_path):
    code = """
        import ruchey
        ruchey.install_as_numba()
        import numpy as np
        from numba import float64, int32
        from numba.experimental import jitclass

        @jitclass([("value", int32), ("array", float64[:])])
        class Bag:
            def __init__(self, value):
                self.value = value
                self.array = np.zeros(value, dtype=np.float64)

            @property
            def size(self):
                return self.array.size

            def increment(self, val):
                for i in range(self.size):
                    self.array[i] += val
                return self.array

        bag = Bag(21)
        print(isinstance(bag, Bag), bag.size, bag.increment(3.0).sum())
    """
    r = run_python_file(code, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "21", "63.0"]


def test_spec_as_dict_and_class_type():
    @jitclass({"a": int64, "b": float64})
    class AB:
        def __init__(self, a):
            self.a = a
            self.b = a / 2

        def both(self):
            return self.a + self.b

    x = AB(5)
    assert (x.a, x.b, x.both()) == (5, 2.5, 7.5)
    assert AB.class_type.class_def.__name__ == "AB"
    assert set(AB.class_type.struct) == {"a", "b"}


def test_instance_type_struct_lists_the_fields_in_spec_order():
    @jitclass([("z", int32), ("a", float64[:]), ("m", types.ListType(float64))])
    class Listed:
        def __init__(self):
            pass

    @jitclass
    class Annotated:
        b: float
        a: int

        def __init__(self):
            pass
    assert list(Listed.class_type.instance_type.struct.items()) == [
        ("z", int32), ("a", float64[:]), ("m", types.ListType(float64))]
    assert list(Annotated.class_type.instance_type.struct.items()) == [("b", float64), ("a", int64)]


@njit
def vec_ops(ax, ay, bx, by, k):
    a, b = Vec(ax, ay), Vec(bx, by)
    c = a + b * k
    d = k * c
    d[1] = d[0] - 1.0
    return d[0], d[1], len(d), abs(c), a == b, a < b, c > a, b < a


def test_special_methods_in_compiled_code():
    rng = make_rng(seed_of("vec"))
    for ax, ay, bx, by, k in rng.normal(size=(20, 5)).tolist():  # Python floats: a NumPy scalar * Vec is NumPy's
        V = plain(Vec)
        a, b = V(ax, ay), V(bx, by)
        c = a + b * k
        d = k * c
        d[1] = d[0] - 1.0
        expected = (d[0], d[1], len(d), abs(c), a == b, a < b, c > a, b < a)
        assert vec_ops(ax, ay, bx, by, k) == expected


def test_special_methods_from_python():
    a, b = Vec(1.0, 2.0), Vec(0.5, -1.0)
    assert ((a + b).x, (a * 2.0).y, (3.0 * a).x) == (1.5, 4.0, 3.0)
    assert (len(a), a[1], abs(Vec(3.0, 4.0)), a == Vec(1.0, 2.0), b < a) == (2, 2.0, 5.0, True, True)
    a[0] = 7.0
    assert a.x == 7.0


@jitclass([("n", int64), ("data", float64[:])])
class Tally:
    """Unary operators, truth, `in`, complex() and != through __eq__."""

    def __init__(self, n):
        self.n = n
        self.data = np.arange(float(n))

    def __neg__(self):
        return Tally(self.n + 1)

    def __pos__(self):
        return self.n * 10

    def __invert__(self):
        return ~self.n

    def __bool__(self):
        return self.n % 2 == 1

    def __contains__(self, v):
        return v in self.data

    def __complex__(self):
        return complex(self.n, -self.n)

    def __eq__(self, other):
        return self.n == other.n


@jitclass([("n", int64)])
class Sized:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n


@jitclass([("n", int64)])
class Bare:
    def __init__(self, n):
        self.n = n


def bag_ops(n, m, v):
    a, b, s, t = Tally(n), Tally(m), Sized(n), Bare(n)
    truth = (1 if a else 0) + (2 if not b else 0) + (4 if s else 0) + (8 if t else 0)
    return ((-a).n, +a, ~a, bool(a), bool(s), bool(t), truth, v in a, v not in b, complex(a),
            a != b, a == b, a != a)


@ruchey_only  # Numba has no truth for a class without __bool__, nor __pos__ or __invert__
def test_unary_truth_in_complex_and_not_equal_call_the_special_methods():
    """The same function on the jitclasses compiled and on their plain
    Python classes: a class without __ne__ inverts __eq__, one without
    __bool__ is true by __len__, one without either is always true."""
    compiled = njit(bag_ops)
    on_plain = type(bag_ops)(bag_ops.__code__, dict(bag_ops.__globals__, Tally=plain(Tally), Sized=plain(Sized),
                                                    Bare=plain(Bare)))
    rng = make_rng(seed_of("bag"))
    for n, m in rng.integers(0, 5, size=(12, 2)).tolist():
        for v in (0.0, 2.0, 3.5):
            assert compiled(n, m, v) == on_plain(n, m, v)


# ---------------------------------------------------------------- memory

@ruchey_only
def test_fields_keep_arrays_alive_and_release_them():
    a = np.ones(1000)
    before = sys.getrefcount(a)
    p = Particles(a.reshape(1000, 1), a.reshape(1000, 1), a)
    assert sys.getrefcount(a) > before
    view = p.mass
    del p
    gc.collect()
    assert view.sum() == 1000.0  # the field's array outlives the object
    del view
    gc.collect()
    assert sys.getrefcount(a) == before


@ruchey_only
def test_passing_to_njit_leaves_the_reference_count():
    p = Point(1.0, 2.0)

    @njit
    def same(q):
        r = q
        return r

    for _ in range(100):
        assert same(p)._meminfo_refcount() >= 2
    assert p._meminfo_refcount() == 1


@njit
def churn(n, a):
    t = 0.0
    for i in range(n):
        p = Particles(a.reshape(a.shape[0], 1), np.ones((3, 1)), a)
        s = Stack(4)
        s.push(i * 1.0)
        t += p.mass[0] + s.pop()
    return t


@ruchey_only
def test_creating_instances_repeatedly_leaks_nothing():
    a = np.ones(100)
    refs = sys.getrefcount(a)
    churn(100, a)
    for _ in range(100):
        Point(1.0, 2.0)
        Stack(10).push(1.0)
    before = rss_bytes()
    for _ in range(50):
        churn(2000, a)
    for _ in range(20000):
        Particles(a.reshape(100, 1), a.reshape(100, 1), a)
        Track(1.0, 2.0).visit(Point(0.0, 0.0))
    for _ in range(200):
        bag_in_njit(50)
    after = rss_bytes()
    assert sys.getrefcount(a) == refs
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


# ---------------------------------------------------------------- errors

@njit
def read_missing(p):
    return p.z


@njit
def store_wrong_type(p):
    p.x = "text"


@njit
def store_new_field(p):
    p.z = 1.0


@njit
def length_of(p):
    return len(p)


@ruchey_only
def test_unknown_attribute_names_the_class():
    with pytest.raises(ruchey.TypingError, match="jitclass Point has no attribute 'z'"):
        read_missing(Point(1.0))


@ruchey_only
def test_assigning_a_wrong_type_names_the_field():
    with pytest.raises(ruchey.TypingError, match="field 'x' of jitclass Point"):
        store_wrong_type(Point(1.0))
    with pytest.raises(ruchey.TypingError, match="field 'x' of jitclass Point"):
        Point(1.0).x = "text"


@ruchey_only
def test_field_missing_from_the_spec():
    with pytest.raises(ruchey.TypingError, match="jitclass Point has no field 'z'"):
        store_new_field(Point(1.0))

    @jitclass([("x", float64)])
    class Partial:
        def __init__(self):
            self.x = 1.0
            self.w = 2.0

    with pytest.raises(ruchey.TypingError, match="jitclass Partial has no field 'w'"):
        Partial()
    with pytest.raises(AttributeError):
        Point(1.0).z = 3.0


@ruchey_only
def test_unsupported_dunders_are_refused():
    with pytest.raises(ruchey.TypingError, match="len"):
        length_of(Point(1.0))
    with pytest.raises(ruchey.TypingError, match="jitclass Vec needs its method __sub__"):
        njit(lambda a: a - a)(Vec(1.0, 2.0))


@ruchey_only
def test_calling_an_instance_is_python_s_alone():
    """__call__ runs in Python (Numba refuses to box such a class); compiled
    code calling an instance is a TypingError."""
    @jitclass([("x", float64)])
    class Calls:
        def __init__(self, x):
            self.x = x

        def __call__(self, other):
            return self.x + other

    c = Calls(2.0)
    assert c(3.0) == 5.0
    with pytest.raises(ruchey.TypingError, match="is not a function"):
        njit(lambda c: c(1.0))(c)


@ruchey_only
def test_bad_specs_are_refused():
    with pytest.raises(TypeError, match="field 'x' has type"):
        @jitclass([("x", float)])
        class NotAType:
            pass
    with pytest.raises(TypeError, match="spec"):
        @jitclass(42)
        class NotASpec:
            pass


def test_constructor_argument_errors():
    with pytest.raises(TypeError):
        Point()
    with pytest.raises(TypeError):
        Point(1.0, 2.0, 3.0)


@ruchey_only
def test_property_without_setter_cannot_be_assigned():
    @njit
    def set_size(s):
        s.size = 3

    with pytest.raises(ruchey.TypingError, match="property 'size' of jitclass Stack has no setter"):
        set_size(Stack(2))


def test_other_special_methods_run_in_python_as_numbas():
    """__repr__ (and special methods compiled code has no operator for) are
    Python's for Python's calls, reading the fields through the instance,
    and compiled methods for compiled code's explicit calls; those the
    instance's own attribute access rests on are refused."""
    @jitclass([("d", float64), ("n", int64)])
    class Coil:
        def __init__(self, d, n):
            self.d = d
            self.n = n

        def __repr__(self):
            return f"Coil(d={self.d}, n={self.n})"

        def __contains__(self, k):
            return 0 <= k < self.n

        def length(self):
            return self.d * self.n

    c = Coil(0.5, 4)
    assert repr(c) == "Coil(d=0.5, n=4)" and 3 in c and 4 not in c

    @njit
    def made(d):
        c = Coil(d, 3)
        return c.length(), c.__contains__(2)

    assert made(2.0) == (6.0, True)
    if not AS_NUMBA:
        with pytest.raises(TypeError, match="special method '__getattr__' is not supported"):
            @jitclass([("x", float64)])
            class Shadow:
                def __init__(self, x):
                    self.x = x

                def __getattr__(self, name):
                    return 0.0


# ---------------------------------------------------------------- signatures naming instances; 0-d arrays into fields

@jitclass([("ok", types.boolean), ("count", int64), ("total", float64), ("label", types.unicode_type),
           ("values", float64[:])])
class Outcome:
    def __init__(self, ok, count, total, label, values):
        self.ok = ok
        self.count = count
        self.total = total
        self.label = label
        self.values = values


def summarize(a, label):
    ok = np.empty((), np.bool_)  # filled as a C library fills its out-parameters
    count = np.empty((), np.int32)
    total = np.zeros((), np.float64)
    ok[()] = a.sum() > 0
    count[()] = (a > 0).sum()
    total[()] = a.sum()
    return Outcome(ok, count, total, label, a * 2)


summarize_jit = njit(Outcome.class_type.instance_type(float64[:], types.unicode_type))(summarize)


def test_a_signature_may_return_an_instance_and_0d_arrays_store_into_number_fields():
    assert len(summarize_jit.signatures) == 1  # compiled at once, for the signature's types
    rng = make_rng(seed_of("outcome"))
    for n in (0, 1, 7, 40):
        a = rng.normal(size=n)
        got = summarize_jit(a, "run")
        want = plain(Outcome)(*_outcome_fields(a, "run"))
        assert (got.ok, got.count, got.total, got.label) == (bool(want.ok), int(want.count), float(want.total), "run")
        assert isinstance(got.ok, bool) and isinstance(got.count, int) and isinstance(got.total, float)
        np.testing.assert_array_equal(got.values, want.values)


def _outcome_fields(a, label):
    return np.array(a.sum() > 0), np.array((a > 0).sum(), np.int32), np.array(a.sum()), label, a * 2


def test_a_0d_array_into_an_array_field_or_a_non_0d_into_a_number_field_is_refused():
    @njit
    def into_values(x):
        return Outcome(True, 1, x, "x", np.zeros(()))

    @njit
    def into_total(a):
        return Outcome(True, 1, a, "x", a)

    with pytest.raises(ruchey.TypingError, match="field 'values'"):
        into_values(1.0)
    with pytest.raises(ruchey.TypingError, match="field 'total'"):
        into_total(np.zeros(3))


# ---------------------------------------------------------------- instances inside tuple arguments and *args

def _first_norm(pair):
    return pair[0].norm2() + pair[1]


def _norms(scale, *points):
    total = 0.0
    for i in range(len(points)):
        total += scale * points[i].norm2()
    return total


def _forward(k, *points):  # *args spread on into another function's
    return _norms_jit(k, *points)


first_norm, _norms_jit, forward = njit(_first_norm), njit(_norms), njit(_forward)


def test_instances_in_tuple_arguments_and_star_args_are_passed_by_reference():
    rng = make_rng(seed_of("tuple instances"))
    for x, y, k in rng.normal(size=(5, 3)):
        p, q = Point(x, y), Point(y, k)
        assert first_norm((p, k)) == _first_norm((p, k))
        assert _norms_jit(k, p, q) == _norms(k, p, q)
        assert forward(k, p, q, p) == _forward(k, p, q, p)
        stats = RunningStats()
        record = njit(lambda t: t[1].add(t[0]))
        record((x, stats))
        assert (stats.count, stats.mean) == (1, x)  # the instance inside the tuple is the caller's


# ---------------------------------------------------------------- plain Python bases, and what is refused

class Scaled:
    """A plain base: its methods are the jitclass's, its own overriding them, as Numba gathers them."""

    def scaled(self, k):
        return self.total() * k

    def total(self):
        return -1.0


@jitclass([("a", float64), ("b", float64)])
class SumPair(Scaled):
    def __init__(self, a, b):
        self.a = a
        self.b = b

    def total(self):
        return self.a + self.b


@njit
def sum_pair_scaled(a, b, k):
    return SumPair(a, b).scaled(k)


def test_methods_of_a_plain_base_class_are_compiled():
    rng = make_rng(1518)
    for a, b, k in rng.normal(size=(5, 3)):
        plain = SumPair.class_type.class_def(a, b)
        assert SumPair(a, b).scaled(k) == plain.scaled(k) == sum_pair_scaled(a, b, k)
        assert SumPair(a, b).total() == plain.total()


def test_subclassing_a_jitclass_is_a_type_error():
    with pytest.raises(TypeError, match="cannot subclass from a jitclass"):
        class More(SumPair):
            pass


@ruchey_only  # Numba's is a TypingError, at compile time; Python's and ruchey's a TypeError
def test_init_returning_a_value_is_a_type_error():
    @jitclass([("n", int64)])
    class Counted:
        def __init__(self, n):
            self.n = n
            if n < 0:
                return n

    assert Counted(3).n == 3
    with pytest.raises(TypeError, match=r"__init__\(\) should return None"):
        Counted(-3)
    with pytest.raises(TypeError, match=r"__init__\(\) should return None"):
        Counted.class_type.class_def(-3)


def test_property_with_a_deleter_is_a_type_error():
    class Held:
        def __init__(self):
            pass

        @property
        def value(self):
            return 1

        @value.deleter
        def value(self):
            pass

    with pytest.raises(TypeError, match="deleter"):
        jitclass(Held)


# ---------------------------------------------------------------- a slice written as a key

@jitclass([("data", float64[:])])
class Window:
    def __init__(self, n):
        self.data = np.arange(n) * 1.5

    def __getitem__(self, s):
        start, stop, step = s.indices(self.data.shape[0])
        total = 0.0
        for i in range(start, stop, step):
            total += self.data[i]
        return total

    def __setitem__(self, s, v):
        self.data[s] = v


@njit
def window_reads(w):
    return w[1:5], w[::2], w[:3], w[4:], w[5:1:-1], w[:]


@njit
def window_writes(w, v):
    w[2:6:2] = v
    w[:1] = -v
    return w.data


def test_slice_keys_reach_getitem_and_setitem_as_slice_values():
    rng = make_rng(1519)
    for n in (3, 8, 11):
        v = float(rng.normal())
        plain = Window.class_type.class_def(n)
        assert window_reads(Window(n)) == window_reads.py_func(plain)
        np.testing.assert_array_equal(window_writes(Window(n), v), window_writes.py_func(plain, v))


# ---------------------------------------------------------------- keyword-only and *args parameters of __init__

@jitclass([("a", int64), ("b", int64), ("n", int64)])
class Keyed:
    def __init__(self, a, *, b=2, n):
        self.a = a
        self.b = b
        self.n = n


@jitclass([("a", float64), ("count", int64), ("total", float64)])
class Gathered:
    def __init__(self, a, *rest):
        self.a = a
        self.count = len(rest)
        self.total = 0.0
        for r in rest:
            self.total += r


@njit
def made_with_keywords(x, y):
    k, g = Keyed(x, n=y), Gathered(x * 0.5, y * 1.0, 1.5, x * 2.0)
    return k.a, k.b, k.n, g.a, g.count, g.total


def test_init_with_keyword_only_and_star_parameters():
    rng = make_rng(1520)
    for x, y in rng.integers(-9, 9, size=(4, 2)):
        x, y = int(x), int(y)
        k, pk = Keyed(x, b=y, n=1), Keyed.class_type.class_def(x, b=y, n=1)
        assert (k.a, k.b, k.n) == (pk.a, pk.b, pk.n)
        g, pg = Gathered(x, float(y), 2.5), Gathered.class_type.class_def(x, float(y), 2.5)
        assert (g.a, g.count, g.total) == (pg.a, pg.count, pg.total)
        assert made_with_keywords(x, y) == made_with_keywords.py_func(x, y)
    with pytest.raises(TypeError):
        Keyed(1, 2, 3)  # b and n are keyword-only


def test_init_with_var_keywords_is_a_type_error():
    class Loose:
        def __init__(self, **options):
            pass

    with pytest.raises(TypeError, match=r"\*\*options"):
        jitclass(Loose)


# ---------------------------------------------------------------- private names (self.__x), as Python mangles them

@jitclass([("__level", float64), ("_hint", float64), ("__tag__", int64)])
class Guarded:
    def __init__(self, level):
        self.__level = level
        self._hint = level / 2
        self.__tag__ = 7

    def __scaled(self, k):
        return self.__level * k

    @property
    def __doubled(self):
        return self.__level * 2

    def report(self, k):
        return self.__scaled(k) + self.__doubled + self._hint + self.__tag__

    def bump(self, by):
        self.__level += by
        return self.__level


class Reader:
    """A plain class whose method compiles a function reading a private name: mangled with Reader."""

    def make(self):
        @njit
        def read(g):
            return g.__level
        return read


def test_private_names_are_mangled_as_python_mangles_them():
    rng = make_rng(1521)
    for level, k in rng.normal(size=(4, 2)):
        g, p = Guarded(level), Guarded.class_type.class_def(level)
        assert g.report(k) == p.report(k)
        assert g.bump(k) == p.bump(k)
        assert g._Guarded__level == p._Guarded__level
    with pytest.raises(ruchey.TypingError, match="_Reader__level"):
        Reader().make()(Guarded(1.0))


# ---------------------------------------------------------------- number conversions falling back as Python's

@jitclass([("v", float64)])
class FloatOnly:
    def __init__(self, v):
        self.v = v

    def __float__(self):
        return self.v


@jitclass([("k", int64)])
class IndexOnly:
    def __init__(self, k):
        self.k = k

    def __index__(self):
        return self.k


@jitclass([("k", int64)])
class IntAndIndex:
    def __init__(self, k):
        self.k = k

    def __int__(self):
        return self.k * 10

    def __index__(self):
        return self.k


@njit
def as_complex(x):
    return complex(x)


@njit
def as_float(x):
    return float(x)


@njit
def as_int(x):
    return int(x)


def test_conversions_fall_back_on_float_and_index_as_python():
    """complex() of a class without __complex__ calls __float__, else
    __index__; float() falls back on __index__; int() on __index__."""
    rng = make_rng(seed_of("jitclass number fallbacks"))
    for v in (*rng.normal(size=3), 0.0, -2.5, np.inf):
        for f in (as_complex, as_float):
            got, want = f(FloatOnly(v)), f.py_func(FloatOnly(v))
            assert got == want and type(got) is type(want)
    for k in (*rng.integers(-10**6, 10**6, 3), 0, -1, 2**62):
        for obj in (IndexOnly(int(k)), IntAndIndex(int(k))):
            for f in (as_complex, as_float, as_int):
                got, want = f(obj), f.py_func(obj)
                assert got == want and type(got) is type(want), (f, obj)


@jitclass([("k", int64)])
class IntOnly:
    def __init__(self, k):
        self.k = k

    def __int__(self):
        return self.k


def test_conversion_without_a_method_to_fall_back_on_is_a_typing_error():
    for f, obj in [(as_int, FloatOnly(1.5)), (as_complex, IntOnly(3)), (as_float, IntOnly(3))]:
        with pytest.raises(TypeError):
            f.py_func(obj)
        with pytest.raises(ruchey.TypingError, match=f.py_func.__name__[3:]):
            f(obj)


@jitclass([("v", float64)])
class Documented:
    "Class docstring"

    def __init__(self, v):
        "init docstring"
        self.v = v

    def scaled(self, k):
        "method docstring"
        return self.v * k

    @property
    def doubled(self):
        "property docstring"
        return self.v * 2


def test_docstrings_of_the_class_and_its_members_are_pythons():
    assert Documented.__doc__ == "Class docstring"
    assert Documented.__init__.__doc__ == "init docstring"
    assert Documented.scaled.__doc__ == "method docstring"
    assert Documented.doubled.__doc__ == "property docstring"
    d = Documented(1.5)
    assert d.scaled(2.0) == 3.0 and d.doubled == 3.0


@jitclass([("k", float64)])
class Scaler:
    def __init__(self, k):
        self.k = k

    def scaled(self, a, *rest):
        return self.k * a, rest


@njit
def scaled_spread(s, *args):
    return s.scaled(*args)


def test_a_method_called_with_a_spread_tuple_binds_its_items():
    plain = Scaler.class_type.class_def
    for k, args in ((2.0, (1.5,)), (-0.5, (3.0, 4, 5)), (0.0, (np.nan, 1))):
        got, want = scaled_spread(Scaler(k), *args), plain(k).scaled(*args)
        np.testing.assert_equal(got, want)
        assert len(got[1]) == len(args) - 1


@jitclass([("flag", types.boolean)])
class Flagged:
    def __init__(self, v):
        self.flag = v  # skglm's Cox(method) stores a str here

    def refill(self, n):
        self.flag = [1.5] * n
        listed = self.flag
        self.flag = np.ones(1) * n
        return listed, self.flag


@njit
def flagged(v, n):
    f = Flagged(v)
    return (f.flag,) + f.refill(n)


def test_a_bool_field_stores_the_truth_of_a_str_a_list_or_an_array():
    """A bool field given a value that is no number holds its truth, as
    Numba casts it (and Python's bool() reads it)."""
    plain = Flagged.class_type.class_def
    rng = make_rng(seed_of("bool field truth"))
    for v in ["", "efron", "breslow", "x" * int(rng.integers(1, 40))]:
        for n in (0, 1, int(rng.integers(2, 9))):
            want = plain(v)
            want = (want.flag,) + want.refill(n)
            assert flagged(v, n) == tuple(bool(w) for w in want)
            assert Flagged(v).flag is bool(v)
    with pytest.raises(ruchey.TypingError, match="field 'flag'"):
        Flagged(None)


@jitclass([("blocks", types.DictType(int64, float64[:, :])), ("scale", float64)])
class BlockCache:
    def __init__(self, scale):
        # hftbacktest's reader: an empty dict of C arrays for a field of any layout's
        self.blocks = typed.Dict.empty(int64, np.empty((0, 0), np.float64))
        self.scale = scale

    def add(self, k, a):
        self.blocks[k] = a * self.scale

    def total(self):
        return sum([v.sum() for v in self.blocks.values()])


def test_an_empty_dict_of_arrays_of_another_layout_is_made_of_the_fields_type():
    rng = make_rng(seed_of("block cache"))
    for scale in (0.0, -1.5, 2.0):
        cache, plain = BlockCache(scale), []
        for k in range(int(rng.integers(0, 6))):
            a = rng.standard_normal((3, 4))
            a = a[:, ::2] if k % 2 else a  # an 'A' array beside C ones
            cache.add(k, a)
            plain.append(a * scale)
        assert cache.total() == pytest.approx(sum(p.sum() for p in plain), rel=1e-12)


def test_typeof_a_jitclass_instance_is_its_class_instance_type():
    """A spec may name a field's type by an instance (hftbacktest's
    ('asset_type', typeof(asset_type)))."""
    held = Flagged("x")
    assert ruchey.typeof(held) == Flagged.class_type.instance_type

    @jitclass([("inner", ruchey.typeof(held)), ("n", int64)])
    class Holder:
        def __init__(self, inner, n):
            self.inner = inner
            self.n = n

    h = Holder(Flagged(""), 3)
    assert h.inner.flag is False and h.n == 3


_GROWTH_SPEC = [(f"a{i}", float64[::1]) for i in range(12)] + [
    ("kind", types.unicode_type), ("geometry", types.DictType(types.unicode_type, float64)),
    ("arrays", types.ListType(float64[::1])), ("total", float64)]


@jitclass(_GROWTH_SPEC)
class _ManyHeld:
    """Fifteen fields holding arrays, a str, a dict and a list (py-fatigue's
    crack growth keeps nine), each released with the instance."""
    def __init__(self, base, kind, geometry):
        self.a0 = base.copy()
        self.a1 = base * 2.0
        self.a2 = base + 1.0
        self.a3 = base - 1.0
        self.a4 = base * base
        self.a5 = -base
        self.a6 = base / 2.0
        self.a7 = base * 3.0
        self.a8 = base + 2.0
        self.a9 = base + 3.0
        self.a10 = base + 4.0
        self.a11 = base + 5.0
        self.kind = kind
        self.geometry = geometry
        self.arrays = typed.List([self.a0, self.a11])
        self.total = 0.0

    def add_up(self):
        self.total = (self.a0.sum() + self.a1.sum() + self.a2.sum() + self.a3.sum() + self.a4.sum() + self.a5.sum()
                      + self.a6.sum() + self.a7.sum() + self.a8.sum() + self.a9.sum() + self.a10.sum()
                      + self.a11.sum() + self.geometry["depth"] * len(self.kind) + self.arrays[1][0])
        return self.total


def test_more_than_eight_fields_holding_arrays_strs_and_containers():
    @njit
    def made_and_summed(base, kind, depth):
        geometry = typed.Dict.empty(types.unicode_type, float64)
        geometry["depth"] = depth
        return _ManyHeld(base, kind, geometry).add_up()

    rng = make_rng(seed_of("many held"))
    for n, kind in ((1, "surface"), (5, "hollow cylinder"), (300, "é")):
        base = rng.standard_normal(n)
        depth = float(rng.uniform(0.5, 3.0))
        got = made_and_summed(base, kind, depth)
        want = sum(arr.sum() for arr in (base, base * 2, base + 1, base - 1, base * base, -base, base / 2, base * 3,
                                          base + 2, base + 3, base + 4, base + 5)) + depth * len(kind) + base[0] + 5
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12)
    obj = _ManyHeld(np.arange(4.0), "cyl", typed.Dict.empty(types.unicode_type, float64))
    assert obj.a11[3] == 8.0 and obj.kind == "cyl" and len(obj.arrays) == 2
    before = rss_bytes()
    for _ in range(2000):  # each instance releases all it holds
        made_and_summed(np.ones(500), "ring", 1.0)
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


@jitclass([("node", float64[:, :]), ("scale", float64[:]), ("_p", types.Array(int32, 1, "C", readonly=True))])
class Factors:
    """A dataclass of arrays that functions compiled with explicit
    signatures update in place (tsdate's EPFactors)."""

    def __init__(self, n, parents):
        self.node = np.zeros((n, 2))
        self.scale = np.ones(n)
        self._p = parents


factors_type = Factors.class_type.instance_type


@njit(types.void(factors_type, float64[::1]))
def add_to_parents(factors, values):
    factors.node[:, 0] += values[factors._p] * factors.scale


@njit(float64(factors_type, int64))
def weighted_total(factors, k):
    return factors.node.sum() * k + factors.scale[k]


def test_a_signature_takes_a_jitclass_instance_type():
    """void(Cls.class_type.instance_type): compiled when declared, as
    Numba's, and called with an instance; another type is refused."""
    assert add_to_parents.signatures and weighted_total.signatures
    rng = make_rng(seed_of("factors signature"))
    for n in (1, 4, 9):
        parents = rng.integers(0, n, n).astype(np.int32)
        parents.setflags(write=False)
        values = rng.standard_normal(n)
        got = Factors(n, parents)
        expected_node = np.zeros((n, 2))
        for _ in range(3):
            add_to_parents(got, values)
            expected_node[:, 0] += values[parents]
        assert np.array_equal(got.node, expected_node)
        k = int(rng.integers(0, n))
        assert weighted_total(got, k) == weighted_total.py_func(got, k)
    with pytest.raises(TypeError):
        add_to_parents(Point(1.0, 2.0), np.zeros(1))


# more array fields than eight (pytreegrav's Octree has nine), each a
# reference the object holds and drops: the last is the argument itself
@jitclass([("f%d" % i, float64[:]) for i in range(12)] + [("count", int64)])
class TwelveArrays:
    def __init__(self, base):
        for_each = base * 1.0
        self.f0, self.f1, self.f2, self.f3 = for_each + 0, for_each + 1, for_each + 2, for_each + 3
        self.f4, self.f5, self.f6, self.f7 = for_each + 4, for_each + 5, for_each + 6, for_each + 7
        self.f8, self.f9, self.f10, self.f11 = for_each + 8, for_each + 9, for_each + 10, base
        self.count = base.shape[0]

    def total(self):
        return (self.f0.sum() + self.f1.sum() + self.f2.sum() + self.f3.sum() + self.f4.sum() + self.f5.sum() +
                self.f6.sum() + self.f7.sum() + self.f8.sum() + self.f9.sum() + self.f10.sum() + self.f11.sum())


@njit
def twelve_arrays_total(base):
    return TwelveArrays(base).total()


@ruchey_only
def test_a_class_with_more_than_eight_array_fields_holds_and_drops_each():
    rng = make_rng(seed_of("twelve arrays"))
    plain = TwelveArrays.class_type.class_def
    for n in (0, 1, 7, 100):
        base = rng.standard_normal(n)
        assert twelve_arrays_total(base) == pytest.approx(plain(base).total(), rel=1e-12, abs=1e-12)
        made = TwelveArrays(base)
        assert made.count == n and made.f11 is base and np.array_equal(made.f10, base + 10)
    a = rng.standard_normal(5)
    refs = sys.getrefcount(a)
    made = [TwelveArrays(a) for _ in range(3)]
    assert sys.getrefcount(a) == refs + 3
    del made
    gc.collect()
    assert sys.getrefcount(a) == refs


# ---------------------------------------------------------------- a jitclass is a subclass of its class

@jitclass([("x", float64)])
class Wrapped:
    def __init__(self, x):
        self.x = x

    def __add__(self, other):
        return Wrapped(self.x + other.x)

    def __mul__(self, other):
        return Wrapped(self.x * other.x)

    def half(self):
        return self.x / 2


def test_a_jitclass_derives_from_its_class_as_numbas():
    original = Wrapped.mro()[1]
    assert original is Wrapped.class_type.class_def
    assert issubclass(Wrapped, original)
    assert isinstance(Wrapped(1.0), Wrapped)


def test_a_jitclass_of_a_jitclasss_python_class_inherits_its_methods():
    """Numba's tests make in-place operators so: a jitclass deriving from
    another one's mro()[1], adding __iadd__ and __isub__ (its __mul__ is
    the base's)."""
    @jitclass([("x", float64)])
    class Updated(Wrapped.mro()[1]):
        def __init__(self, x):
            self.x = x

        def __iadd__(self, other):
            return Updated(self.x + 2.5 * other.x)

        def __isub__(self, other):
            return Updated(self.x - 0.5 * other.x)

    @jitclass([("p", Updated.class_type.instance_type), ("n", int64)])
    class Holder:
        def __init__(self, p):
            self.p = p
            self.n = 0

    plain = Updated.mro()[1]

    def update(a, b):
        a += b
        a -= b
        c = a * b
        return a.x, c.x

    def update_field(h, b):
        h.p += b
        h.n += 1
        return h.p.x, h.n

    compiled, compiled_field = njit(update), njit(update_field)
    rng = make_rng(2031)
    for x, y in rng.normal(size=(6, 2)):
        expected = update(Updated(x), Updated(y))  # the Python function, calling the compiled methods
        assert compiled(Updated(x), Updated(y)) == expected
        assert expected == ((x + 2.5 * y) - 0.5 * y, ((x + 2.5 * y) - 0.5 * y) * y)  # the methods' own sums
        assert compiled_field(Holder(Updated(x)), Updated(y)) == update_field(Holder(Updated(x)), Updated(y))
        assert Updated(x).half() == plain(x).half() == Wrapped(x).half()


def test_an_in_place_operator_falls_back_to_the_operator():
    """a += b of a class without __iadd__ is a = a + b (its __add__), as Python's."""
    def grow(a, b):
        a += b
        a *= b
        return a.x

    compiled = njit(grow)
    rng = make_rng(2033)
    for x, y in rng.normal(size=(6, 2)):
        assert compiled(Wrapped(x), Wrapped(y)) == grow(Wrapped(x), Wrapped(y))


@ruchey_only
def test_an_in_place_operator_the_class_lacks_is_a_typing_error():
    def floor_it(a, b):
        a //= b
        return a.x

    with pytest.raises(ruchey.TypingError, match="__floordiv__"):
        njit(floor_it)(Wrapped(1.0), Wrapped(2.0))


def test_instances_take_no_attribute_beyond_the_fields():
    w = Wrapped(2.0)
    w.x = 3.0
    assert w.x == 3.0
    with pytest.raises(AttributeError):
        w.z = 1.0
    with pytest.raises(AttributeError):
        del w.x
    assert not hasattr(w, "z")


def test_a_class_whose_metaclass_cannot_be_joined_is_still_a_jitclass():
    class Meta(type):
        pass

    class Base(metaclass=Meta):
        def twice(self):
            return 2 * self.x

    @jitclass([("x", int64)])
    class Counter(Base):
        def __init__(self, x):
            self.x = x

    rng = make_rng(2032)
    for x in rng.integers(-1000, 1000, size=5):
        assert Counter(x).twice() == Counter.class_type.class_def(x).twice() == 2 * int(x)
# ---------------------------------------------------------------- methods as values

@njit
def applied_twice(f, x):
    return f(x) + f(x + 1.0)


@njit
def nested_draws(depth, draw, shift):
    """Hands the bound methods on to itself, as mrg32k3a-numba's gamma helper does."""
    if depth == 0:
        return shift(draw(), 1.0)
    return nested_draws(depth - 1, draw, shift) + draw()


def nested_draws_python(depth, draw, shift):
    """nested_draws' py_func calls the dispatcher: its Python twin recurses in Python."""
    if depth == 0:
        return shift(draw(), 1.0)
    return nested_draws_python(depth - 1, draw, shift) + draw()


@jitclass([("k", float64), ("seen", float64[:])])
class Accumulator:
    def __init__(self, k, n):
        self.k = k
        self.seen = np.zeros(n)

    def scale(self, x):
        self.k += 1.0
        self.seen[0] += x
        return self.k * x

    def draw(self):
        self.k = self.k * 1.5 - 0.25
        return self.k

    def shift(self, a, b=0.5):
        return a - b

    def use(self, x):
        return applied_twice(self.scale, x)

    def nested(self, depth):
        return nested_draws(depth, self.draw, self.shift)

    def owner_of(self):
        f = self.scale
        return f.__self__.k


@njit
def bound_outside(acc, x):
    f = acc.scale
    return applied_twice(f, x), f.__self__.k


@njit
def bound_of_a_new_object(k, x):
    return applied_twice(Accumulator(k, 3).scale, x)


def test_bound_methods_are_values_handed_to_functions_that_call_them():
    """obj.method not called (Numba's BoundFunction) is a value: passed to a
    compiled function, which calls it on the same object (its field writes
    seen by the caller), recursively, and read back through __self__."""
    rng = make_rng(seed_of("bound methods"))
    plain = Accumulator.class_type.class_def
    for _ in range(8):
        k, x, depth = rng.uniform(0.5, 3.0), rng.uniform(-2.0, 2.0), int(rng.integers(0, 5))
        a, b = Accumulator(k, 3), plain(k, 3)
        assert a.use(x) == applied_twice.py_func(b.scale, x)
        assert a.k == b.k and a.seen[0] == b.seen[0]
        assert a.nested(depth) == nested_draws_python(depth, b.draw, b.shift)
        assert a.k == b.k
        assert a.owner_of() == b.k
        assert bound_outside(a, x) == (applied_twice.py_func(b.scale, x), b.k)  # (its py_func calls the dispatcher)
        assert a.k == b.k and a.seen[0] == b.seen[0]
        assert bound_of_a_new_object(k, x) == applied_twice.py_func(plain(k, 3).scale, x)


@njit
def missing_bound(acc):
    return applied_twice(acc.nothing, 1.0)


@njit
def spread_bound(acc, xs):
    f = acc.shift
    return f(*xs)


@njit
def keyword_bound(acc, x):
    f = acc.shift
    return f(b=x, a=2.0 * x) + f(x)


def test_a_bound_method_binds_star_args_keywords_and_defaults_as_the_method():
    rng = make_rng(seed_of("bound star args"))
    plain = Accumulator.class_type.class_def
    for _ in range(4):
        xs = tuple(rng.uniform(-3.0, 3.0, int(rng.integers(1, 3))))
        assert spread_bound(Accumulator(1.0, 2), xs) == spread_bound.py_func(plain(1.0, 2), xs)
        assert keyword_bound(Accumulator(1.0, 2), xs[0]) == keyword_bound.py_func(plain(1.0, 2), xs[0])


@ruchey_only
def test_a_method_that_is_not_there_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match="jitclass Accumulator has no attribute 'nothing'"):
        missing_bound(Accumulator(1.0, 2))
