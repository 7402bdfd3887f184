"""cache=True: the first call in a fresh process, with the cache empty
(cold: compile and save) and filled (warm: load), for one function and
for ten, under ruchey and (where installed) Numba.

    python3 bench/cache.py [--rounds N] [--numba]

Each measurement is a new `python -c` process that imports the module of
cached functions and times its first calls (perf_counter, import of the
module excluded); the median of N rounds. Targets: warm at most 2 ms for
one function and 10 ms for ten.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap

BODY = '''
@njit(cache=True)
def f{i}(a, k):
    s = 0.0
    for j in range(a.shape[0]):
        s += a[j] * k + {i}.0
    return s
'''

TIMER = '''
import time
import numpy as np
import {module}
a = np.ones(10)
t = time.perf_counter()
for i in range({count}):
    getattr({module}, "f%d" % i)(a, 2.0)
print((time.perf_counter() - t) * 1e3)
'''


def write_module(folder, name, count, jit):
    head = f"from {jit} import njit\n"
    with open(os.path.join(folder, name + ".py"), "w") as f:
        f.write(head + "".join(BODY.format(i=i) for i in range(count)))


def first_calls_ms(folder, module, count):
    env = dict(os.environ, PYTHONPATH=folder)
    env.pop("RUCHEY_CACHE_DIR", None)
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", TIMER.format(module=module, count=count)], cwd=folder, env=env,
                         capture_output=True, text=True, check=True).stdout
    return float(out.split()[-1])


def measure(jit, count, rounds):
    folder = tempfile.mkdtemp()
    try:
        module = f"cached_{count}"
        write_module(folder, module, count, jit)
        cold = []
        for _ in range(rounds):
            shutil.rmtree(os.path.join(folder, "__pycache__"), ignore_errors=True)
            cold.append(first_calls_ms(folder, module, count))
        warm = [first_calls_ms(folder, module, count) for _ in range(rounds)]
        return statistics.median(cold), statistics.median(warm)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--numba", action="store_true", help="measure Numba's cache too")
    args = parser.parse_args()
    jits = ["ruchey"] + (["numba"] if args.numba else [])
    print(f"{'compiler':<8} {'functions':>9} {'cold ms':>9} {'warm ms':>9}")
    for jit in jits:
        for count in (1, 10):
            cold, warm = measure(jit, count, args.rounds)
            print(f"{jit:<8} {count:>9} {cold:>9.2f} {warm:>9.2f}")


if __name__ == "__main__":
    main()
