"""The threads section of the suite: prange loops on each JIT's thread pool.

  1. a compute-bound reduction, s += sqrt(x[i]) * sin(x[i]) over 1e7
     float64: parallel=True vs the same loop under plain njit, for ruchey and
     Numba, and each one's speed-up (serial time / parallel time); and what
     the CPUs allow: ruchey's serial loop pinned to each CPU in turn. On a
     shared virtual machine the CPUs need not be equally fast (one may share
     its core with another tenant), so the attainable speed-up is the serial
     time over 1 / sum(1 / time pinned to CPU k), not the CPU count;
  2. the first call (compile + pool start) of a small parallel=True prange
     function in a fresh interpreter;
  3. the cost of waking the pool and joining it: an (almost) empty
     prange(2) on 2 threads, per call, also net of the same loop compiled
     serially; and a small prange(16) net of its serial loop.

The functions are compiled from this file's source by both JITs: `prange` is
rebound to each compiler's own (both resolve it by identity).  Figures are
medians over rounds that alternate between the columns (timing.round_robin),
so a noisy neighbour slows all columns alike.
"""
import math
import os
import sys
import types

import numpy

from timing import ChildError, round_robin, run_child

JITS = ("ruchey", "numba")
SUM_N = 10_000_000        # elements of the reduction
FIRST_CALL_N = 1000
WAKE_N = 2                # iterations of the almost empty prange, on 2 threads
SMALL_N = 16              # iterations of the small prange, on every thread

prange = range            # rebound per compiler by with_prange()


def par_sum(x):
    s = 0.0
    for i in prange(len(x)):
        s += math.sqrt(x[i]) * math.sin(x[i])
    return s


def par_tiny(x, out):
    for i in prange(len(x)):
        out[i] = x[i] * 2.0 + 1.0


CPUS = sorted(os.sched_getaffinity(0))


def pinned(cpu, fn, *args):
    """fn(*args) with the calling thread held to one CPU."""
    os.sched_setaffinity(0, {cpu})
    try:
        return fn(*args)
    finally:
        os.sched_setaffinity(0, CPUS)


def with_prange(fn, module):
    """fn with its global `prange` bound to module.prange (same code object,
    so the same source for inspect)."""
    namespace = dict(fn.__globals__, prange=module.prange)
    return types.FunctionType(fn.__code__, namespace, fn.__name__,
                              fn.__defaults__, fn.__closure__)


def max_threads(label, module):
    if label == "numba":
        return module.config.NUMBA_NUM_THREADS
    return module._core.max_threads()


def compiled(module, fn, parallel):
    fn = with_prange(fn, module)
    return module.njit(parallel=True)(fn) if parallel else module.njit(fn)


class _Threads:
    """Sets each JIT's thread count for the calling thread, then restores it."""

    def __init__(self, jits, count):
        self.jits, self.count, self.before = jits, count, {}

    def __enter__(self):
        for label, module in self.jits.items():
            self.before[label] = module.get_num_threads()
            module.set_num_threads(max(1, min(self.count(label, module),
                                              max_threads(label, module))))
        return {label: module.get_num_threads() for label, module in self.jits.items()}

    def __exit__(self, *exc):
        for label, module in self.jits.items():
            module.set_num_threads(self.before[label])


# --- 1. the reduction ------------------------------------------------------------

def reduction(run, jits, section):
    s = run.settings
    x = numpy.random.default_rng(0).random(SUM_N)
    check = x[:1000]
    expected = par_sum(check)
    calls = {}
    for label, module in jits.items():
        for parallel in (True, False):
            key = (label, parallel)
            try:
                fn = compiled(module, par_sum, parallel)
                got = fn(check)               # compiles; checks the result
                if not math.isclose(got, expected, rel_tol=1e-12):
                    raise RuntimeError(f"par_sum returned {got!r}, expected {expected!r}")
            except Exception as exc:  # noqa: BLE001 - a failure is a table entry
                run.fail("threads sum", f"{label} {'parallel' if parallel else 'serial'}",
                         "compile/run", f"{type(exc).__name__}: {exc}")
                continue
            calls[key] = (lambda fn=fn: fn(x))
            if label == "ruchey" and not parallel:
                for cpu in CPUS:
                    calls[("cpu", cpu)] = (lambda fn=fn, cpu=cpu: pinned(cpu, fn, x))
    with _Threads(jits, max_threads) as used:
        values, samples = round_robin(calls, s.threads_budget_s, s.min_rounds,
                                      s.max_rounds)
    par = {label: values.get((label, True)) for label in jits}
    ser = {label: values.get((label, False)) for label in jits}
    speedup = {label: ser[label] / par[label] if par[label] and ser[label] else None
               for label in jits}
    section["threads_used"] = used
    cpu_rows = [dict(key=f"sum_cpu{cpu}", label=f"  serial njit pinned to CPU {cpu}", unit="s",
                     values={"ruchey": values.get(("cpu", cpu))},
                     samples={"ruchey": samples.get(("cpu", cpu))}) for cpu in CPUS]
    pinned_times = [values.get(("cpu", cpu)) for cpu in CPUS]
    attainable = (ser["ruchey"] * sum(1 / t for t in pinned_times)
                  if ser.get("ruchey") and all(pinned_times) else None)
    share = {label: speedup[label] / attainable if speedup[label] and attainable else None
             for label in jits}
    section["rows"] += [
        dict(key="sum_parallel", label=f"sqrt*sin sum n={SUM_N:.0e}, parallel",
             unit="s", values=par,
             samples={label: samples.get((label, True)) for label in jits}),
        dict(key="sum_serial", label="  same loop, serial njit", unit="s", values=ser,
             samples={label: samples.get((label, False)) for label in jits}),
        dict(key="sum_speedup", label="  speed-up: serial / parallel", unit="x",
             values=speedup),
        *cpu_rows,
        dict(key="sum_attainable", label="  attainable: serial * sum(1 / pinned)", unit="x",
             values={"ruchey": attainable}),
        dict(key="sum_share", label="  speed-up / attainable", unit="x", values=share),
    ]


# --- 2. first call in a fresh process ---------------------------------------------

FIRST_CALL_CHILD = """\
import math
import numpy
import {label}
import threads
fn = threads.compiled({label}, threads.par_sum, parallel=True)
x = numpy.random.default_rng(0).random({n})
start = time.perf_counter()
got = fn(x)
done = time.perf_counter()
if not math.isclose(got, threads.par_sum(x), rel_tol=1e-12):
    sys.exit(f"par_sum returned {{got!r}}")
print(json.dumps(dict(first_call_s=done - start)))
"""


def first_call(run, jits, section):
    values, samples = {}, {}
    for label in jits:
        print(f"first call of a parallel prange, {label} ...", file=sys.stderr,
              flush=True)
        try:
            results = run_child(FIRST_CALL_CHILD.format(label=label, n=FIRST_CALL_N),
                                run.settings.threads_first_call_repeats)
        except ChildError as exc:
            run.fail("threads first call", label, "first call", str(exc))
            continue
        samples[label] = [r["first_call_s"] for r in results]
        values[label] = sorted(samples[label])[len(samples[label]) // 2]
    section["rows"].append(dict(
        key="first_call", label=f"prange first call, n={FIRST_CALL_N}", unit="s",
        values={label: values.get(label) for label in jits}, samples=samples))


# --- 3. wake-up + join, small loops -----------------------------------------------

def overhead(run, jits, section, n, threads):
    s = run.settings
    x, out = numpy.random.default_rng(0).random(n), numpy.empty(n)
    calls = {}
    for label, module in jits.items():
        for parallel in (True, False):
            try:
                fn = compiled(module, par_tiny, parallel)
                out[:] = 0.0
                fn(x, out)
                if not numpy.array_equal(out, x * 2.0 + 1.0):
                    raise RuntimeError("par_tiny wrote a wrong result")
            except Exception as exc:  # noqa: BLE001
                run.fail(f"threads prange({n})",
                         f"{label} {'parallel' if parallel else 'serial'}",
                         "compile/run", f"{type(exc).__name__}: {exc}")
                continue
            calls[(label, parallel)] = (lambda fn=fn: fn(x, out))
    with _Threads(jits, threads) as used:
        values, samples = round_robin(calls, s.threads_overhead_budget_s, s.min_rounds,
                                      s.max_rounds, min_sample_s=0.01)
    if "numba" in jits:
        section["numba_threading_layer"] = jits["numba"].threading_layer()
    par = {label: values.get((label, True)) for label in jits}
    net = {label: par[label] - values[(label, False)]
           if par[label] is not None and (label, False) in values else None
           for label in jits}
    return par, net, samples, used


def overheads(run, jits, section):
    two = lambda label, module: 2  # noqa: E731
    par, net, samples, used = overhead(run, jits, section, WAKE_N, two)
    section["rows"] += [
        dict(key="wake_call", label=f"prange({WAKE_N}) on {min(used.values(), default=2)} "
             "threads, per call", unit="s", values=par,
             samples={label: samples.get((label, True)) for label in jits}),
        dict(key="wake_net", label="  wake-up + join: minus serial call", unit="s",
             values=net),
    ]
    par, net, samples, used = overhead(run, jits, section, SMALL_N, max_threads)
    section["rows"] += [
        dict(key="small_net", label=f"prange({SMALL_N}) minus serial loop, per call",
             unit="s", values=net,
             samples={label: samples.get((label, True)) for label in jits}),
    ]
    section["small_threads_used"] = used


# --- the section -----------------------------------------------------------------

def measure(run, jit_modules):
    """Fills run.threads; jit_modules: label -> the imported JIT module."""
    jits = {label: jit_modules[label] for label in JITS if label in jit_modules}
    section = dict(rows=[], load_average=os.getloadavg(), cpus=len(os.sched_getaffinity(0)))
    run.threads = section
    if not jits:
        return
    print("threads: prange reduction ...", file=sys.stderr, flush=True)
    reduction(run, jits, section)
    print("threads: prange wake-up and small loops ...", file=sys.stderr, flush=True)
    overheads(run, jits, section)
    first_call(run, jits, section)


def row(run, key):
    return next((r for r in getattr(run, "threads", {}).get("rows", ())
                 if r["key"] == key), None)


def targets(run, add, ratio):
    """Adds this section's targets through bench.targets' add()."""
    speedup = row(run, "sum_speedup")
    add("prange sum 1e7: ruchey parallel >= 1.85x its serial",
        speedup["values"].get("ruchey") if speedup else None, ">=", 1.85,
        "threads: " + ", ".join(f"{k} {v}" for k, v in
                                run.threads.get("threads_used", {}).items())
        if speedup else "")
    first = row(run, "first_call")
    add("prange first call: <= 1/10 of Numba's",
        ratio(first["values"].get("ruchey"), first["values"].get("numba"))
        if first else None, "<=", 0.1, "parallel=True, fresh process")


def print_section(run, fmt_seconds, fmt_ratio, ratio):
    section = getattr(run, "threads", None)
    if not section or not section["rows"]:
        return
    used = ", ".join(f"{k} {v}" for k, v in section.get("threads_used", {}).items())
    layer = section.get("numba_threading_layer")
    load = section.get("load_average")
    print(f"\nthreads: prange on each JIT's pool (threads: {used or 'n/a'}"
          + (f"; numba threading layer {layer}" if layer else "")
          + (f"; load average {load[0]:.2f} on {section.get('cpus')} cpus at the start"
             if load else "") + ")")
    header = f"{'figure':<44}{'ruchey':>12}{'numba':>12}{'r/numba':>9}"
    print(header + "\n" + "-" * len(header))
    for r in section["rows"]:
        v = r["values"]
        if r["unit"] == "x":
            cells = "".join(f"{fmt_ratio(v.get(c)):>12}" for c in JITS)
        else:
            cells = "".join(f"{_fmt_signed(v.get(c), fmt_seconds):>12}" for c in JITS)
        rel = ratio(v.get("ruchey"), v.get("numba"))
        if r["key"].endswith("_net") and rel is not None and rel < 0:
            rel = None  # a negative difference: no meaningful ratio
        print(f"{r['label']:<44}{cells}{fmt_ratio(rel):>9}")
    print("  medians of rounds alternating between the columns; 'minus serial' "
          "subtracts the same loop compiled without parallel=True; first call: "
          "fresh interpreter per sample, compile + pool start; a loaded machine\n"
          "  (load average >= cpus - 1) has no idle core for the pool: speed-ups "
          "and wake-up costs then measure the scheduler")


def _fmt_signed(value, fmt_seconds):
    if value is not None and value < 0:
        return "-" + fmt_seconds(-value)
    return fmt_seconds(value)
