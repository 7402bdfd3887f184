"""A pickled compiled function's first result in a fresh worker process,
against a local first call.

    python3 bench/pickling.py [--rounds N]

Local: a fresh interpreter (ruchey and NumPy imported, not timed) calls the
function for the first time: its compile and the call. Worker: a fresh
process of a spawn pool (ruchey and NumPy imported, not timed) receives the
pickled function (by reference: bench/pickled_funcs.py; by value: a
function of __main__, through cloudpickle) and times the unpickling, the
compile and the call. Medians of N rounds; the target is worker / local at
most 1.5.
"""
import argparse
import concurrent.futures
import multiprocessing
import pickle
import statistics
import subprocess
import sys
import time

import numpy as np

from timing import BENCH_DIR, CHILD_PRELUDE

BODY = '''
def smooth(a, k):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        lo = max(i - k, 0)
        hi = min(i + k + 1, a.shape[0])
        s = 0.0
        for j in range(lo, hi):
            s += a[j]
        out[i] = s / (hi - lo)
    return out
'''

LOCAL = CHILD_PRELUDE + '''
import numpy as np
import ruchey
from ruchey import njit
exec(compile({body!r}, "<smooth>", "exec"))
smooth = njit(smooth)
a = np.arange(1000.0)
t = time.perf_counter()
smooth(a, 3)
print((time.perf_counter() - t) * 1e3)
'''


def smooth_by_value(a, k):  # the same as BODY's, in __main__: pickled by value
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        lo = max(i - k, 0)
        hi = min(i + k + 1, a.shape[0])
        s = 0.0
        for j in range(lo, hi):
            s += a[j]
        out[i] = s / (hi - lo)
    return out


def warm_up():
    import numpy  # noqa: F401
    import ruchey  # noqa: F401
    return True


def first_result(payload):
    import numpy as np
    t = time.perf_counter()
    f = pickle.loads(payload)
    f(np.arange(1000.0), 3)
    return (time.perf_counter() - t) * 1e3


def local_ms():
    out = subprocess.run([sys.executable, "-c", LOCAL.format(body=BODY)], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def worker_ms(payload):
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
        pool.submit(warm_up).result()
        return pool.submit(first_result, payload).result()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    import cloudpickle  # noqa: F401 - pickling by value needs it
    from ruchey import njit
    sys.path.insert(0, str(BENCH_DIR))
    by_value = njit(smooth_by_value)
    import pickled_funcs
    payloads = {"by reference": pickle.dumps(pickled_funcs.smooth), "by value": pickle.dumps(by_value)}
    local, worker = [], {name: [] for name in payloads}
    for _ in range(args.rounds):
        local.append(local_ms())
        for name, payload in payloads.items():
            worker[name].append(worker_ms(payload))
    base = statistics.median(local)
    print(f"local first call (compile + call): {base:.1f} ms (median of {args.rounds})")
    for name, times in worker.items():
        m = statistics.median(times)
        print(f"pickled {name}, first result in a fresh worker: {m:.1f} ms = {m / base:.2f}x local "
              f"(target at most 1.5x)")


if __name__ == "__main__":
    main()
