"""Ctrl-C: how long a compiled loop takes to stop after SIGINT.

    python3 bench/interrupt.py [--rounds R]

Each case runs in a fresh interpreter: it compiles a loop that would never
end, says it is ready, and runs it; SIGINT comes 0.3 s later and the child
prints when KeyboardInterrupt reached Python (time.perf_counter, the same
monotonic clock in both processes). Printed: the median and the worst of R
rounds per case, in ms (target: under 100 ms).
"""
import argparse
import os
import signal
import statistics
import subprocess
import sys
import time

CHILD = """
import sys, time
import numpy as np
from ruchey import njit, prange, cuda

@njit
def spin(x):
    while x > 0:
        x += 1.0
    return x

@njit
def long_for(x):
    s = 0.0
    for i in range(int(x) * 2**62):
        s += np.sqrt(i * x)
    return s

@njit
def nested(x):
    s = 0
    for i in range(int(x) * 10**9):
        for j in range(10**9):
            s += i ^ j
    return s

@njit(parallel=True)
def par(x):
    s = 0.0
    for i in prange(int(x) * 2**62):
        s += np.sin(i * 1.0)
    return s

@cuda.jit
def kern(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * 2.0 + 1.0

def launch(x):
    kern[2**30 if x > 0 else 1, 256](np.zeros(1))

run = {"while": spin, "for": long_for, "nested": nested, "prange": par, "kernel": launch}[sys.argv[1]]
run(-1.0)  # compiles; returns at once
print("ready", flush=True)
try:
    run(1.0)
except KeyboardInterrupt:
    print(time.perf_counter(), flush=True)
"""

CASES = ["while", "for", "nested", "prange", "kernel"]


def latency_ms(case):
    p = subprocess.Popen([sys.executable, "-c", CHILD, case], stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ, RUCHEY_CUDA_BACKEND="cpu"))
    try:
        assert p.stdout.readline().strip() == "ready"
        time.sleep(0.3)
        sent = time.perf_counter()
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=30)
        return (float(out.split()[0]) - sent) * 1e3
    finally:
        p.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"{'loop':10s} {'median ms':>10s} {'worst ms':>10s}")
    for case in CASES:
        ms = [latency_ms(case) for _ in range(args.rounds)]
        print(f"{case:10s} {statistics.median(ms):10.2f} {max(ms):10.2f}")


if __name__ == "__main__":
    main()
