"""The cost of a call taking a Python list: ruchey vs Numba's reflected lists.

    python3 bench/reflected_lists.py [--rounds R]

For lists of 10 and of 1,000 floats: `first(l)` (reads one item: the call
is all copying the list in and checking it after), `total(l)` (reads every
item) and `bump(l)` (writes one item, so the list is written back), each
called from Python on the same list again and again; and `add(1.0, 2.0)`
as the call of a function without lists, for scale. Prints the median
microseconds per call of R round-robin rounds (bench/timing.py) and
ruchey/numba.
"""
import argparse
import warnings

from timing import round_robin


def first(l):
    return l[0]


def total(l):
    s = 0.0
    for x in l:
        s += x
    return s


def bump(l):
    l[0] += 1.0
    return l[0]


def add(a, b):
    return a + b


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    import ruchey
    try:
        import numba
        warnings.simplefilter("ignore", numba.NumbaPendingDeprecationWarning)
    except ImportError:
        numba = None
        print("numba is not installed: Numba could not be measured")
    print(f"{'':22s}{'ruchey':>10s}{'numba':>10s}   (µs per call, medians of {args.rounds} rounds)")
    rows = [("add(1.0, 2.0)", add, (1.0, 2.0))]
    for n in (10, 1000):
        items = [float(i) for i in range(n)]
        rows += [(f"first, {n} floats", first, (items,)), (f"total, {n} floats", total, (items,)),
                 (f"bump, {n} floats", bump, (list(items),))]
    for name, f, fargs in rows:
        calls = {"ruchey": lambda r=ruchey.njit(f), a=fargs: r(*a)}
        if numba is not None:
            calls["numba"] = lambda nb=numba.njit(f), a=fargs: nb(*a)
        med, _ = round_robin(calls, budget_s=3, min_rounds=args.rounds, max_rounds=args.rounds)
        cols = "".join(f"{med[k] * 1e6:10.2f}" if k in med else f"{'-':>10s}" for k in ("ruchey", "numba"))
        ratio = f"   ruchey/numba {med['ruchey'] / med['numba']:.2f}" if "numba" in med else ""
        print(f"{name:22s}{cols}{ratio}")


if __name__ == "__main__":
    main()
