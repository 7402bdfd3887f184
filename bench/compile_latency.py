"""Compile latency: the CPU time of each bench kernel's first call, in one process.

    python3 bench/compile_latency.py [--repeats N] [--json PATH]

Each repeat makes a fresh dispatcher of the kernel (bench/kernels.py) and
times its first call on small arguments: typing, lowering, LLVM's
optimisation and code generation, loading, and a run too short to count.
The time is the calling thread's CPU time, not the wall clock, so other
processes on a busy machine change it little; the median of the repeats
is printed per kernel, with the geometric mean. Unlike bench.py's first
call, it leaves out starting an interpreter, importing and starting LLVM.
The previous dispatcher is dropped before the next is made, so its code is
not shared with the next (jit.c shares equal modules' code while a
dispatcher holds it).
"""
import argparse
import copy
import gc
import json
import math
import time

import ruchey

import jitload
import specs

SMALL = 64  # the arguments' size: enough for every kernel's loops to run


def first_call_cpu(module, name, args):
    """CPU seconds of a fresh dispatcher's first call of kernel `name`."""
    fn = getattr(module, name)
    dispatcher = ruchey.njit(**module.JIT_OPTIONS.get(name, {}))(fn)
    setattr(module, name, dispatcher)  # a recursive kernel calls itself compiled
    args = copy.deepcopy(args)
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
    medians = {}
    for kernel in specs.KERNELS:
        args = kernel.make_args(min(kernel.python_size, SMALL))
        samples = sorted(first_call_cpu(module, kernel.name, args) for _ in range(options.repeats))
        medians[kernel.name] = samples[len(samples) // 2]
        print(f"{kernel.name:22s} {medians[kernel.name] * 1e3:7.2f} ms", flush=True)
    mean = math.exp(sum(math.log(t) for t in medians.values()) / len(medians))
    print(f"{'geometric mean':22s} {mean * 1e3:7.2f} ms")
    if options.json:
        with open(options.json, "w") as f:
            json.dump({"ms": {k: v * 1e3 for k, v in medians.items()}, "geomean_ms": mean * 1e3}, f, indent=1)


if __name__ == "__main__":
    main()
