"""Compile latency: the CPU time of each bench kernel's first call, in one process.

    python3 bench/compile_latency.py [--repeats N] [--json PATH]

Each repeat makes a fresh dispatcher of the kernel (bench/kernels.py) and
times its first call on small arguments: typing, lowering, LLVM's
optimisation and code generation, loading, and a run too short to count.
The time is the calling thread's CPU time, not the wall clock, so other
processes on a busy machine change it little; the median of the repeats
is printed per kernel, with the geometric mean. Unlike bench.py's first
call, it leaves out starting an interpreter, importing and starting LLVM.
Before each repeat the kernel's code from the last one is pushed out of
the code jit.c keeps for equal modules compiled later (J.released): as many
other functions are compiled and dropped, so each repeat compiles anew.
The second column is the first call of a dispatcher made again just after
the last was dropped, as a closure made anew is: it takes the code kept.
"""
import argparse
import copy
import gc
import itertools
import json
import math
import time

import ruchey

import jitload
import specs

SMALL = 64  # the arguments' size: enough for every kernel's loops to run
RELEASED_KEPT = 64  # the dropped dispatchers' code jit.c keeps (the size of J.released)
_fillers = itertools.count()


def forget_released_code():
    """Compiles and drops RELEASED_KEPT functions unlike any before (each
    adds its own constant), pushing the code kept so far out."""
    for _ in range(RELEASED_KEPT):
        k = next(_fillers)
        ruchey.njit(lambda x: x + k)(1)
    gc.collect()


def first_call_cpu(module, name, args, anew=True):
    """CPU seconds of a fresh dispatcher's first call of kernel `name`,
    compiled anew or (anew False) given the code kept from the last one."""
    fn = getattr(module, name)
    dispatcher = ruchey.njit(**module.JIT_OPTIONS.get(name, {}))(fn)
    setattr(module, name, dispatcher)  # a recursive kernel calls itself compiled
    args = copy.deepcopy(args)
    if anew:
        forget_released_code()
    start = time.thread_time()
    dispatcher(*args)
    spent = time.thread_time() - start
    setattr(module, name, fn)
    del dispatcher
    gc.collect()
    return spent


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--json", default=None)
    options = ap.parse_args()
    module = jitload.load(None)
    module.prange = ruchey.prange  # as jitload.load("ruchey") sets it
    ruchey.njit(lambda x: x + 1)(1)  # LLVM started outside the timing
    medians, again = {}, {}
    for kernel in specs.KERNELS:
        args = kernel.make_args(min(kernel.python_size, SMALL))
        samples = sorted(first_call_cpu(module, kernel.name, args) for _ in range(options.repeats))
        medians[kernel.name] = samples[len(samples) // 2]
        samples = sorted(first_call_cpu(module, kernel.name, args, anew=False) for _ in range(options.repeats))
        again[kernel.name] = samples[len(samples) // 2]
        print(f"{kernel.name:22s} {medians[kernel.name] * 1e3:7.2f} ms {again[kernel.name] * 1e3:7.2f} ms",
              flush=True)
    mean, mean_again = (math.exp(sum(math.log(t) for t in ms.values()) / len(ms)) for ms in (medians, again))
    print(f"{'geometric mean':22s} {mean * 1e3:7.2f} ms {mean_again * 1e3:7.2f} ms")
    if options.json:
        with open(options.json, "w") as f:
            json.dump({"ms": {k: v * 1e3 for k, v in medians.items()}, "geomean_ms": mean * 1e3,
                       "again_ms": {k: v * 1e3 for k, v in again.items()}, "again_geomean_ms": mean_again * 1e3},
                      f, indent=1)


if __name__ == "__main__":
    main()
