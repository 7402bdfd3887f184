"""Benchmarks: ruchey vs Numba vs pure Python vs NumPy.

    python3 bench/bench.py [--quick] [--json PATH]

Prints a table of medians with ratios and PASS/FAIL against the project
targets, and writes every figure (with raw samples and machine info) as JSON.

To add a benchmark, write a function taking a Context and returning a list
of Rows, and decorate it with @benchmark; targets refer to rows by key.
"""
import argparse
import datetime
import importlib
import inspect
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_JSON = REPO_ROOT / "bench" / "results" / "bench.json"

# Let a source checkout find its in-tree ruchey; an installed ruchey still
# wins because the checkout is appended after site-packages.  Child scripts
# repeat this so they import the same ruchey as this process.
sys.path.append(str(REPO_ROOT))

COLUMNS = ("ruchey", "numba", "numpy", "python")
RATIOS = {  # name -> (numerator column, denominator column)
    "ruchey/numba": ("ruchey", "numba"),
    "ruchey/numpy": ("ruchey", "numpy"),
    "python/ruchey": ("python", "ruchey"),
}
STEADY_N = 1_000_000
FIRST_CALL_N = 1000


# --- the functions under test (also the source the child processes compile)

def arr_sum(x, y):
    result_arr = numpy.empty_like(x)
    for i in range(len(x)):
        result_arr[i] = x[i] + y[i]
    return result_arr


def add(a, b):
    return a + b


# --- configuration and results

@dataclass(frozen=True)
class Settings:
    import_repeats: int = 11
    first_call_repeats: int = 7
    steady_repeats: int = 51
    python_n: int = 100_000      # pure Python runs ~0.2 us/element
    python_repeats: int = 5
    overhead_calls: int = 100_000
    overhead_samples: int = 7


# Keeps the subprocess repeat counts at the required minimums (7 and 5).
QUICK = Settings(import_repeats=7, first_call_repeats=5, steady_repeats=15,
                 python_n=20_000, python_repeats=3, overhead_calls=20_000,
                 overhead_samples=5)


@dataclass
class Compiler:
    """A JIT under test: `module.decorator` is applied to plain functions."""
    label: str
    decorator: str
    module: object = None
    missing: str = None          # why the module could not be imported

    def jit(self, fn):
        return getattr(self.module, self.decorator)(fn)


@dataclass
class Row:
    key: str                     # stable id, used by targets and the JSON
    label: str                   # what the table shows
    values: dict                 # column -> median seconds (None = n/a)
    samples: dict = field(default_factory=dict)  # column -> raw seconds
    note: str = ""               # printed under the table

    def ratio(self, name):
        top, bottom = (self.values.get(c) for c in RATIOS[name])
        return top / bottom if top is not None and bottom else None


@dataclass
class Context:
    settings: Settings
    compilers: list
    errors: list = field(default_factory=list)

    def available(self):
        return [c for c in self.compilers if c.module is not None]


@dataclass(frozen=True)
class Target:
    description: str
    row_key: str
    ratio: str
    op: str                      # "<=" or ">="
    threshold: float

    def verdict(self, rows_by_key):
        row = rows_by_key.get(self.row_key)
        value = row.ratio(self.ratio) if row else None
        if value is None:
            return value, "n/a"
        ok = value <= self.threshold if self.op == "<=" else value >= self.threshold
        return value, "PASS" if ok else "FAIL"


TARGETS = [
    Target("arr_sum 1e6: >= 100x faster than pure Python",
           "arr_sum_steady", "python/ruchey", ">=", 100),
    Target("arr_sum 1e6: <= 1.1x NumPy x+y",
           "arr_sum_steady", "ruchey/numpy", "<=", 1.1),
    Target("first call: <= 1/10 of numba's",
           "first_call", "ruchey/numba", "<=", 0.1),
    Target("import beyond numpy: <= 1/10 of numba's",
           "import_time", "ruchey/numba", "<=", 0.1),
]


# --- shared timing helpers

def median_per_call(stmt, namespace, number, repeats):
    """Median seconds per execution of `stmt`, timeit-style (GC off)."""
    timer = timeit.Timer(stmt, globals=namespace)
    samples = [t / number for t in timer.repeat(repeat=repeats, number=number)]
    return statistics.median(samples), samples


def run_child(source, repeats):
    """Run `source` as a script in `repeats` fresh interpreters.

    The script is written to a file (not passed with -c) so that a JIT that
    reads function source through `inspect` works.  Each child prints one
    JSON object on its last stdout line; the parent adds the wall time of
    the whole process as "process_wall_s".
    """
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "child.py"
        script.write_text(source)
        results = []
        for _ in range(repeats):
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, str(script)],
                                  capture_output=True, text=True)
            wall = time.perf_counter() - start
            if proc.returncode != 0:
                # The last stderr line names the exception; enough for a table.
                last = (proc.stderr.strip().splitlines() or ["no stderr"])[-1]
                raise RuntimeError(f"child exited {proc.returncode}: {last}")
            result = json.loads(proc.stdout.strip().splitlines()[-1])
            result["process_wall_s"] = wall
            results.append(result)
        return results


def for_each_compiler(ctx, case, measure):
    """Return {label: measure(compiler)} for each importable JIT.

    A failure is recorded rather than raised, so one broken case does not
    hide the other figures while the compiler is under development.
    """
    results = {}
    for compiler in ctx.available():
        try:
            results[compiler.label] = measure(compiler)
        except Exception as exc:  # noqa: BLE001 - reported in output + JSON
            ctx.errors.append(f"{case}/{compiler.label}: {exc}")
    return results


def measure_each(ctx, case, measure):
    """Like for_each_compiler, for measure(compiler) -> (median, samples)."""
    results = for_each_compiler(ctx, case, measure)
    return ({label: r[0] for label, r in results.items()},
            {label: r[1] for label, r in results.items()})


def child_row(key, label, runs, result_key, note=""):
    """A Row of medians of `result_key` over each column's child results."""
    samples = {column: [r[result_key] for r in results]
               for column, results in runs.items()}
    values = {column: statistics.median(s) for column, s in samples.items()}
    return Row(key, label, values, samples, note)


def random_pair(n):
    rng = numpy.random.default_rng(0)
    return rng.random(n), rng.random(n)


# --- benchmark registry

BENCHMARKS = []


def benchmark(fn):
    BENCHMARKS.append(fn)
    return fn


IMPORT_CHILD = """\
import json, sys, time
sys.path.append({repo_root!r})
start = time.perf_counter()
import numpy
numpy_done = time.perf_counter()
import {module}
module_done = time.perf_counter()
print(json.dumps(dict(numpy_s=numpy_done - start,
                      module_s=module_done - numpy_done)))
"""


@benchmark
def import_time(ctx):
    runs = for_each_compiler(ctx, "import_time", lambda compiler: run_child(
        IMPORT_CHILD.format(repo_root=str(REPO_ROOT), module=compiler.label),
        ctx.settings.import_repeats))
    row = child_row("import_time", "import, beyond numpy (s)", runs,
                    "module_s",
                    note="import: fresh interpreter per sample; the numpy "
                         "column is numpy's own import time, for scale")
    numpy_samples = [r["numpy_s"] for results in runs.values() for r in results]
    if numpy_samples:
        row.values["numpy"] = statistics.median(numpy_samples)
        row.samples["numpy"] = numpy_samples
    return [row]


FIRST_CALL_CHILD = """\
import json, sys, time
sys.path.append({repo_root!r})
start = time.perf_counter()
import numpy
from {module} import {decorator}
imported = time.perf_counter()

@{decorator}
{function_source}
rng = numpy.random.default_rng(0)
x, y = rng.random({n}), rng.random({n})
call_start = time.perf_counter()
result = arr_sum(x, y)
call_done = time.perf_counter()
if not numpy.array_equal(result, x + y):
    sys.exit("arr_sum returned a wrong result")
print(json.dumps(dict(import_s=imported - start,
                      first_call_s=call_done - call_start,
                      total_s=call_done - start)))
"""


@benchmark
def first_call(ctx):
    def measure(compiler):
        source = FIRST_CALL_CHILD.format(
            repo_root=str(REPO_ROOT), module=compiler.label,
            decorator=compiler.decorator, n=FIRST_CALL_N,
            function_source=inspect.getsource(arr_sum))
        return run_child(source, ctx.settings.first_call_repeats)

    runs = for_each_compiler(ctx, "first_call", measure)
    return [
        child_row("first_call", f"arr_sum first call, n={FIRST_CALL_N} (s)",
                  runs, "first_call_s",
                  note="first call: fresh interpreter per sample; includes "
                       "compilation"),
        child_row("first_call_total", "import numpy+jit + first call (s)",
                  runs, "total_s"),
        child_row("first_call_process", "whole process wall time (s)",
                  runs, "process_wall_s",
                  note="process wall time: interpreter start to exit, "
                       "measured by the parent"),
    ]


@benchmark
def arr_sum_steady(ctx):
    s = ctx.settings
    x, y = random_pair(STEADY_N)
    expected = x + y

    def measure(compiler):
        fn = compiler.jit(arr_sum)
        # The first call compiles; it also proves the result is right.
        if not numpy.array_equal(fn(x, y), expected):
            raise RuntimeError("arr_sum returned a wrong result")
        return median_per_call("fn(x, y)", {"fn": fn, "x": x, "y": y},
                               1, s.steady_repeats)

    values, samples = measure_each(ctx, "arr_sum_steady", measure)
    values["numpy"], samples["numpy"] = median_per_call(
        "x + y", {"x": x, "y": y}, 1, s.steady_repeats)

    # Pure Python is linear in n: time a prefix and scale it up.
    scale = STEADY_N / s.python_n
    px, py = x[:s.python_n], y[:s.python_n]
    median, raw = median_per_call("fn(x, y)", {"fn": arr_sum, "x": px, "y": py},
                                  1, s.python_repeats)
    values["python"] = median * scale
    samples["python"] = [t * scale for t in raw]
    return [Row("arr_sum_steady", f"arr_sum n={STEADY_N:,} steady (s)",
                values, samples,
                note=f"arr_sum steady: python column timed at "
                     f"n={s.python_n:,} and scaled x{scale:g}")]


@benchmark
def call_overhead(ctx):
    s = ctx.settings
    x1, y1 = random_pair(1)

    def overhead_row(key, label, fn, args, numpy_stmt=None):
        namespace = {"fn": fn, "a": args[0], "b": args[1]}

        def measure(compiler):
            namespace["jitted"] = compiler.jit(fn)
            namespace["jitted"](*args)  # compile outside the timed loop
            return median_per_call("jitted(a, b)", namespace,
                                   s.overhead_calls, s.overhead_samples)

        values, samples = measure_each(ctx, key, measure)
        values["python"], samples["python"] = median_per_call(
            "fn(a, b)", namespace, s.overhead_calls, s.overhead_samples)
        if numpy_stmt:
            values["numpy"], samples["numpy"] = median_per_call(
                numpy_stmt, namespace, s.overhead_calls, s.overhead_samples)
        return Row(key, label, values, samples)

    return [
        overhead_row("call_add", "call add(1, 2) (s/call)", add, (1, 2)),
        overhead_row("call_arr_sum_1", "call arr_sum n=1 (s/call)",
                     arr_sum, (x1, y1), numpy_stmt="a + b"),
    ]


# --- machine info, output

def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_info(compilers):
    info = {
        "cpu_model": cpu_model(),
        "nproc": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
    }
    for c in compilers:
        info[c.label] = (getattr(c.module, "__version__", "unknown")
                         if c.module else None)
    return info


def load_compilers():
    compilers = []
    for label, decorator in (("ruchey", "jit"), ("numba", "njit")):
        compiler = Compiler(label, decorator)
        try:
            compiler.module = importlib.import_module(label)
        except ImportError as exc:
            compiler.missing = str(exc)
        compilers.append(compiler)
    return compilers


def fmt_seconds(seconds):
    if seconds is None:
        return "n/a"
    for scale, unit in ((1, "s"), (1e-3, "ms"), (1e-6, "us"), (1e-9, "ns")):
        shown = f"{seconds / scale:.3g}"
        # Compare the rounded figure so 999.7 ns shows as "1 us".
        if float(shown) >= 1 or unit == "ns":
            return f"{shown} {unit}"


def fmt_ratio(value):
    return "n/a" if value is None else f"{value:.3g}x"


def print_table(machine, rows, verdicts, ctx):
    print(f"machine: {machine['cpu_model']}, {machine['nproc']} cpus; "
          f"python {machine['python']}, numpy {machine['numpy']}, "
          f"ruchey {machine['ruchey'] or 'n/a'}, "
          f"numba {machine['numba'] or 'n/a'}")
    header = (f"{'benchmark':<36}" + "".join(f"{c:>10}" for c in COLUMNS)
              + "".join(f"{r:>15}" for r in RATIOS))
    print("\n" + header + "\n" + "-" * len(header))
    for row in rows:
        print(f"{row.label:<36}"
              + "".join(f"{fmt_seconds(row.values.get(c)):>10}" for c in COLUMNS)
              + "".join(f"{fmt_ratio(row.ratio(r)):>15}" for r in RATIOS))
    print("\nnotes:")
    for row in rows:
        if row.note:
            print(f"  {row.note}")
    for compiler in ctx.compilers:
        if compiler.missing:
            print(f"  {compiler.label}: n/a ({compiler.missing})")
    for error in ctx.errors:
        print(f"  ERROR {error}")
    print("\ntargets:")
    for target, (value, verdict) in verdicts:
        print(f"  {verdict:<5} {target.description:<46} "
              f"{target.ratio} = {fmt_ratio(value)} "
              f"(target {target.op} {target.threshold:g})")


def write_json(path, machine, settings, rows, verdicts, ctx):
    path.parent.mkdir(parents=True, exist_ok=True)
    report = {
        "timestamp": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "machine": machine,
        "settings": asdict(settings),
        "unit": "seconds (per call for call_* rows)",
        "rows": [dict(asdict(row), ratios={r: row.ratio(r) for r in RATIOS})
                 for row in rows],
        "targets": [dict(asdict(t), value=value, verdict=verdict)
                    for t, (value, verdict) in verdicts],
        "unavailable": {c.label: c.missing for c in ctx.compilers if c.missing},
        "errors": ctx.errors,
    }
    path.write_text(json.dumps(report, indent=2) + "\n")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="fewer repeats (subprocess minimums still apply)")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON,
                        help=f"output path (default: {DEFAULT_JSON})")
    return parser.parse_args()


def main():
    args = parse_args()
    settings = QUICK if args.quick else Settings()
    ctx = Context(settings, load_compilers())
    rows = []
    for bench in BENCHMARKS:
        print(f"running {bench.__name__} ...", file=sys.stderr, flush=True)
        rows += bench(ctx)
    rows_by_key = {row.key: row for row in rows}
    verdicts = [(t, t.verdict(rows_by_key)) for t in TARGETS]
    machine = machine_info(ctx.compilers)
    print_table(machine, rows, verdicts, ctx)
    write_json(args.json, machine, settings, rows, verdicts, ctx)
    print(f"\nJSON written to {args.json}")


if __name__ == "__main__":
    main()
