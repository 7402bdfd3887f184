"""Typed lists and dicts inside compiled code: ruchey vs Numba vs pure Python.

    python3 bench/containers.py [--n N]

Three small functions, each compiled by ruchey and by Numba and run
uncompiled by Python: N (10**6) ints appended to a list made inside the
function; N int keys inserted into a dict, then each looked up; and the
same dict insert with its lookup from a ruchey.typed.Dict / numba.typed.Dict
passed in (cleared first); and a dict keyed by strings (str(i % 1000) made
for each of N/10 words, counted); and N/10 ints pushed onto a heapq heap,
then popped. Numba compiles `[]` as its reflected list and `{}`
is not typable there, so its dict versions start from numba.typed.Dict.empty.
Every result is checked against Python's first. Prints the median
milliseconds per call (bench/timing.py's round robin).

Target (issue 15): typed list append and dict insert/lookup of 10**6 ints
at least as fast as Numba.
"""
import argparse
import heapq

from timing import print_timed_row


def append_ints(n):
    out = []
    for i in range(n):
        out.append(i * 7)
    return len(out) + out[n // 2]


def insert_lookup(n):
    d = {}
    for i in range(n):
        d[i * 7919] = i
    s = 0
    for i in range(n):
        s += d[i * 7919]
    return s


def insert_lookup_passed(d, n):
    d.clear()
    for i in range(n):
        d[i * 7919] = i
    s = 0
    for i in range(n):
        s += d[i * 7919]
    return s


def count_words(n):
    d = {}
    for i in range(n):
        w = str(i % 1000)
        d[w] = d.get(w, 0) + 1
    return len(d) + d["7"]


def heap_push_pop(n):
    h = [0]
    h.pop()
    x = 1
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        heapq.heappush(h, x)
    s = 0
    while len(h):
        s = (s * 31 + heapq.heappop(h)) % 1000000007
    return s


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**6)
    args = parser.parse_args()
    n = args.n
    import ruchey
    try:
        import numba
        from numba import typed as nbtyped
        from numba import types as nbtypes
    except ImportError:
        numba = None
        print("numba is not installed: Numba could not be measured")
    print(f"{'':22s}{'python':>10s}{'ruchey':>10s}{'numba':>10s}   (ms, n = {n})")

    calls = {"python": lambda: append_ints(n), "ruchey": lambda r=ruchey.njit(append_ints): r(n)}
    if numba is not None:
        calls["numba"] = lambda nb=numba.njit(append_ints): nb(n)
    report("list append", calls, append_ints(n))

    calls = {"python": lambda: insert_lookup(n), "ruchey": lambda r=ruchey.njit(insert_lookup): r(n)}
    if numba is not None:
        def nb_insert_lookup(n):
            d = nbtyped.Dict.empty(nbtypes.int64, nbtypes.int64)
            for i in range(n):
                d[i * 7919] = i
            s = 0
            for i in range(n):
                s += d[i * 7919]
            return s
        calls["numba"] = lambda nb=numba.njit(nb_insert_lookup): nb(n)
    report("dict insert+lookup", calls, insert_lookup(n))

    rd = ruchey.typed.Dict.empty(ruchey.int64, ruchey.int64)
    calls = {"python": lambda d={}: insert_lookup_passed(d, n),
             "ruchey": lambda r=ruchey.njit(insert_lookup_passed): r(rd, n)}
    if numba is not None:
        nd = nbtyped.Dict.empty(nbtypes.int64, nbtypes.int64)
        calls["numba"] = lambda nb=numba.njit(insert_lookup_passed): nb(nd, n)
    report("typed.Dict passed in", calls, insert_lookup(n))

    m = n // 10
    calls = {"python": lambda: count_words(m), "ruchey": lambda r=ruchey.njit(count_words): r(m)}
    if numba is not None:
        def nb_count_words(n):
            d = nbtyped.Dict.empty(nbtypes.unicode_type, nbtypes.int64)
            for i in range(n):
                w = str(i % 1000)
                d[w] = d.get(w, 0) + 1
            return len(d) + d["7"]
        calls["numba"] = lambda nb=numba.njit(nb_count_words): nb(m)
    report("str-keyed dict", calls, count_words(m))

    calls = {"python": lambda: heap_push_pop(m), "ruchey": lambda r=ruchey.njit(heap_push_pop): r(m)}
    if numba is not None:
        calls["numba"] = lambda nb=numba.njit(heap_push_pop): nb(m)
    report("heapq push+pop", calls, heap_push_pop(m))


def report(name, calls, expected):
    for label, fn in calls.items():
        got = fn()
        assert got == expected, f"{name}: {label} gave {got}, Python {expected}"
    print_timed_row(name, calls)


if __name__ == "__main__":
    main()
