"""jitclass: ruchey vs Numba vs pure Python.

    python3 bench/jitclass.py [--n N]

The same class decorated by each (and left plain for Python): a running
statistics accumulator fed N (10**6) numbers by a compiled loop calling its
method (field updates through the object); N/100 small objects made and
dropped inside compiled code (allocation and release); a linked list of
N/10 nodes (a field of the class's own type, through deferred_type) built
and walked in compiled code, each node freed as the walk leaves it; and, from Python,
one method call and one field read of a boxed instance (the call overhead,
N/100 calls). Every result is checked against Python's first. Prints the
median milliseconds per call (bench/timing.py's round robin).
"""
import argparse

import numpy as np

from timing import print_timed_row

SOURCE = '''
@jitclass([("count", int64), ("mean", float64), ("m2", float64)])
class Stats:
    def __init__(self):
        self.count = 0
        self.mean = 0.0
        self.m2 = 0.0

    def add(self, x):
        self.count += 1
        delta = x - self.mean
        self.mean += delta / self.count
        self.m2 += delta * (x - self.mean)

    def variance(self):
        return self.m2 / (self.count - 1)


@njit
def feed(xs):
    s = Stats()
    for x in xs:
        s.add(x)
    return s.variance()


@njit
def churn(n):
    t = 0.0
    for i in range(n):
        s = Stats()
        s.add(i * 1.0)
        t += s.mean
    return t


node_type = deferred_type()


@jitclass([("data", int64), ("next", optional(node_type))])
class Node:
    def __init__(self, data, next):
        self.data = data
        self.next = next


node_type.define(Node.class_type.instance_type)


@njit
def chain(n):
    head = None
    for i in range(n):
        head = Node(i, head)
    s = 0
    while head is not None:
        s += head.data
        head = head.next
    return s


def calls_from_python(s, n):
    t = 0.0
    for i in range(n):
        s.add(1.0)
        t += s.mean
    return t
'''


def build(jitclass, njit, int64, float64, deferred_type, optional):
    ns = {"jitclass": jitclass, "njit": njit, "int64": int64, "float64": float64, "deferred_type": deferred_type,
          "optional": optional}
    exec(compile(SOURCE, "<bench jitclass>", "exec"), ns)
    return ns


class _PlainDeferred:
    def define(self, typ):
        pass


def _plain_class(spec):
    def wrap(cls):
        cls.class_type = type("ClassType", (), {"instance_type": None})
        return cls
    return wrap


def plain_build():
    return build(_plain_class, lambda f: f, None, None, _PlainDeferred, lambda t: t)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**6)
    args = parser.parse_args()
    n = args.n
    import ruchey
    from ruchey.experimental import jitclass
    kinds = {"python": plain_build(),
             "ruchey": build(jitclass, ruchey.njit, ruchey.int64, ruchey.float64, ruchey.deferred_type, ruchey.optional)}
    try:
        import numba
        from numba.experimental import jitclass as nb_jitclass
        kinds["numba"] = build(nb_jitclass, numba.njit, numba.int64, numba.float64, numba.deferred_type,
                               numba.optional)
    except ImportError:
        print("numba is not installed: Numba could not be measured")
    xs = np.random.default_rng(1).normal(size=n)
    print(f"{'':26s}{'python':>10s}{'ruchey':>10s}{'numba':>10s}   (ms, n = {n})")
    report("method calls in a loop", {k: (lambda ns=ns: ns["feed"](xs)) for k, ns in kinds.items()}, rel=1e-9)
    report("objects made and dropped", {k: (lambda ns=ns: ns["churn"](n // 100)) for k, ns in kinds.items()})
    report("linked list built, walked", {k: (lambda ns=ns: ns["chain"](n // 10)) for k, ns in kinds.items()})
    boxes = {k: ns["Stats"]() for k, ns in kinds.items()}
    report("calls from Python", {k: (lambda ns=ns, s=boxes[k]: ns["calls_from_python"](s, n // 100))
                                 for k, ns in kinds.items()}, check=False)


def report(name, calls, rel=0.0, check=True):
    expected = calls["python"]()
    for label, fn in calls.items():
        got = fn()
        assert not check or abs(got - expected) <= rel * abs(expected), f"{name}: {label} gave {got}, Python {expected}"
    print_timed_row(name, calls, width=26)


if __name__ == "__main__":
    main()
