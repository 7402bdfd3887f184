"""The cost of an array made and freed in compiled code: a loop calling a
helper that returns a 16-element array, in ns per call of thread CPU time
(best of several rounds), with tracemalloc off and, for comparison, on.

    python3 bench/alloc_cost.py [--calls N] [--rounds R]

Measures what the runtime's allocation path costs per array, as changes to
it (tracemalloc's hooks) are judged by.
"""
import argparse
import time
import tracemalloc

import numpy as np

import ruchey


@ruchey.njit
def sixteen(i):
    a = np.empty(16)
    a[0] = i
    return a


@ruchey.njit
def calls(n):
    total = 0.0
    for i in range(n):
        total += sixteen(i)[0]
    return total


def ns_per_call(n, rounds):
    best = float("inf")
    for _ in range(rounds):
        start = time.thread_time_ns()
        calls(n)
        best = min(best, (time.thread_time_ns() - start) / n)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2_000_000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    calls(10)  # (compiled before timing)
    off = ns_per_call(args.calls, args.rounds)
    tracemalloc.start()
    try:
        on = ns_per_call(args.calls // 10, max(3, args.rounds // 3))
    finally:
        tracemalloc.stop()
    print(f"tracemalloc off: {off:.2f} ns per array  |  on: {on:.1f} ns per array")


if __name__ == "__main__":
    main()
