"""Benchmarks: ruchey vs Numba vs NumPy vs C vs pure Python.

    python3 bench/bench.py [--quick] [--json PATH] [--png PATH] [--only K,...]

    --only takes kernel names, call-pair names and the sections 'calls' and
    'threads', e.g. `--only calls` runs just the calls section.

Kernels (bench/kernels.py, each written once as plain Python) are compiled
from the identical source by ruchey and by Numba and run beside a
NumPy-vectorised version (bench/specs.py), a C version (bench/kernels.c,
gcc -O3 -march=native, called through ctypes) and CPython itself.  Every
implementation's result is checked against pure Python (and NumPy) before it
is timed.  Measured:

  - steady state: median seconds per call after warm-up, per kernel;
  - first call: compile + run in a fresh interpreter, per kernel;
  - import time beyond NumPy, memory added by import + one compile;
  - call overhead for the common argument shapes;
  - calls between compiled functions: loops calling a small compiled helper
    per element against the same loops with the helper written inline, per
    JIT (kernels.py's call pairs; a section of its own, outside the
    steady-state geometric mean);
  - threads (bench/threads.py): a parallel prange reduction against its
    serial loop, first-call latency of parallel=True, the pool's wake-up +
    join cost and the overhead of a small prange.

Prints tables and PASS/FAIL against the performance targets, writes every
figure (raw samples, machine, failures with their error text) as JSON and a
PNG chart of the ratios.  A kernel a compiler fails on is a recorded failure,
not an abort.
"""
import argparse
import copy
import datetime
import importlib
import os
import platform
import sys
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path

# NumPy's matmul runs on OpenBLAS, whose threads busy-wait after each call;
# on a small shared machine they steal the CPU from whatever is timed next
# (matmul's figures swung 3x between runs).  One BLAS thread keeps every
# column steady; the choice is in the JSON's settings.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy  # noqa: E402 - after the environment above

import cbuild
import jitload
import report
import specs
import threads
from timing import REPO_ROOT, ChildError, geomean, round_robin, run_child

DEFAULT_JSON = REPO_ROOT / "bench" / "results" / "bench.json"
DEFAULT_PNG = REPO_ROOT / "bench" / "results" / "ratios.png"
JITS = ("ruchey", "numba")
IMPLEMENTATIONS = ("ruchey", "numba", "numpy", "c")   # timed at full size


@dataclass(frozen=True)
class Settings:
    kernel_budget_s: float = 4.0       # steady-state time per kernel, all columns
    min_rounds: int = 7
    max_rounds: int = 51
    python_repeats: int = 3
    first_call_repeats: int = 3
    import_repeats: int = 11
    memory_repeats: int = 3
    overhead_calls: int = 100_000
    overhead_samples: int = 7
    threads_budget_s: float = 8.0            # the 1e7 reduction, all columns
    threads_overhead_budget_s: float = 2.0   # each tiny-prange comparison
    threads_first_call_repeats: int = 5


QUICK = Settings(kernel_budget_s=1.0, min_rounds=5, max_rounds=21,
                 python_repeats=1, first_call_repeats=1, import_repeats=5,
                 memory_repeats=1, overhead_calls=20_000, overhead_samples=5,
                 threads_budget_s=3.0, threads_overhead_budget_s=0.5,
                 threads_first_call_repeats=3)


class Run:
    """Everything measured, and every failure, in one place."""

    def __init__(self, settings):
        self.settings = settings
        self.jits = {}            # label -> kernels module jitted by it
        self.missing = {}         # label -> why it is unavailable
        self.c_lib = None
        self.c_command = None
        self.failures = []        # dicts: kernel, implementation, phase, error
        self.kernels = []         # dicts, one per kernel
        self.processes = {}       # import_time / memory figures
        self.overhead = []        # dicts, one per argument shape
        self.calls = []           # dicts, one per call pair
        self.threads = {}         # bench/threads.py's section

    def fail(self, kernel, implementation, phase, error):
        self.failures.append(dict(kernel=kernel, implementation=implementation,
                                  phase=phase, error=error.strip()))
        print(f"  FAILED {kernel}/{implementation} ({phase}): "
              f"{error.strip().splitlines()[0]}", file=sys.stderr, flush=True)

    def failed(self, kernel, implementation):
        return any(f["kernel"] == kernel and f["implementation"] == implementation
                   for f in self.failures)


def error_text(exc):
    return f"{type(exc).__name__}: {exc}"


# --- steady state ------------------------------------------------------------

def fresh(args):
    """A deep copy, for kernels that update their array arguments."""
    return copy.deepcopy(args)


def implementations(run, kernel):
    """label -> callable, for everything that runs this kernel at full size."""
    impls = {}
    for label, module in run.jits.items():
        impls[label] = getattr(module, kernel.name)
    if kernel.numpy is not None:
        impls["numpy"] = kernel.numpy
    if run.c_lib is not None:
        impls["c"] = kernel.c(run.c_lib)
    return impls


def steady_kernel(run, kernel, python_module):
    s = run.settings
    name = kernel.name
    print(f"running {name} ...", file=sys.stderr, flush=True)
    small = kernel.make_args(kernel.python_size)
    full = kernel.make_args(kernel.size)
    reference_small = specs.outputs(*_call(getattr(python_module, name), small))
    reference_full = (specs.outputs(*_call(kernel.numpy, full))
                      if kernel.numpy is not None else None)
    if kernel.python_size == kernel.size:
        reference_full = reference_small

    timed = {}
    for label, fn in implementations(run, kernel).items():
        try:
            # checked at the reduced size against pure Python, at the full
            # size against NumPy (itself checked)
            problem = check(fn, small, reference_small, full, reference_full)
            if problem:
                run.fail(name, label, "check", "wrong result: " + problem)
                continue
        except Exception as exc:  # noqa: BLE001 - a failure is a table entry
            run.fail(name, label, "compile/run", error_text(exc)
                     if label not in JITS else _jit_error(exc))
            continue
        timed[label] = fn

    row = dict(kernel=name, size=kernel.describe(kernel.size),
               python_size=kernel.describe(kernel.python_size),
               numpy_note=kernel.numpy_note, values={}, samples={})
    if timed:
        calls = {label: (lambda fn=fn: fn(*full)) for label, fn in timed.items()}
        values, samples = round_robin(calls, s.kernel_budget_s, s.min_rounds,
                                      s.max_rounds)
        row["values"].update(values)
        row["samples"].update(samples)
        row["rounds"] = len(next(iter(samples.values())))

    # Pure Python at the reduced size, scaled by the work ratio.
    py_fn = getattr(python_module, name)
    scale = kernel.work(kernel.size) / kernel.work(kernel.python_size)
    values, samples = round_robin({"python": lambda: py_fn(*small)}, 0.0,
                                  s.python_repeats, s.python_repeats,
                                  warmup=False)
    row["values"]["python"] = values["python"] * scale
    row["samples"]["python"] = [t * scale for t in samples["python"]]
    row["python_scale"] = scale
    run.kernels.append(row)


def check(fn, small, reference_small, full=None, reference_full=None):
    """None if fn's outputs match the references, else what differs.  The
    first call compiles."""
    problem = specs.mismatch(specs.outputs(*_call(fn, small)), reference_small)
    if problem is None and reference_full is not None:
        problem = specs.mismatch(specs.outputs(*_call(fn, full)), reference_full)
        if problem:
            problem = "at full size: " + problem
    return problem


def _call(fn, args):
    args = fresh(args)
    return fn(*args), args


def _jit_error(exc):
    text = error_text(exc)
    if not str(exc).strip():
        text += "\n" + traceback.format_exc(limit=3)
    return text


# --- calls between compiled functions -------------------------------------------

VERSIONS = ("inline", "called")   # inline first: it checks the called one


def call_pair(run, pair, python_module):
    """Times both kernels of a call pair for each JIT, in the steady state's
    alternating rounds, after checking called == inline == pure Python."""
    s = run.settings
    print(f"calls: {pair.name} ...", file=sys.stderr, flush=True)
    small = pair.make_args(pair.python_size)
    full = pair.make_args(pair.size)
    reference = specs.outputs(*_call(getattr(python_module, pair.inline), small))
    problem = specs.mismatch(
        specs.outputs(*_call(getattr(python_module, pair.called), small)), reference)
    if problem:   # the pair itself is wrong: kernels.py's two loops differ
        run.fail(pair.called, "python", "check", "differs from the inline "
                 "loop: " + problem)
    calls = {}
    for label, module in run.jits.items():
        reference_full = None     # this JIT's inline result, once checked
        for version in VERSIONS:
            kernel = getattr(pair, version)
            fn = getattr(module, kernel)
            try:
                problem = check(fn, small, reference, full, reference_full)
            except Exception as exc:  # noqa: BLE001 - a failure is a table entry
                run.fail(kernel, label, "compile/run", _jit_error(exc))
                continue
            if problem:
                run.fail(kernel, label, "check", "wrong result: " + problem)
                continue
            if reference_full is None:
                reference_full = specs.outputs(*_call(fn, full))
            calls[(label, version)] = (lambda fn=fn: fn(*full))

    row = dict(pair=pair.name, called=pair.called, inline=pair.inline,
               call=pair.call, size=pair.describe(pair.size),
               values={}, samples={}, ratios={})
    if calls:
        # one kernel's budget for all four columns: the pair is one figure
        values, samples = round_robin(calls, s.kernel_budget_s, s.min_rounds,
                                      s.max_rounds)
        for label in run.jits:
            row["values"][label] = {v: values.get((label, v)) for v in VERSIONS}
            row["samples"][label] = {v: samples.get((label, v)) for v in VERSIONS}
            row["ratios"][label] = ratio(values.get((label, "called")),
                                         values.get((label, "inline")))
        row["rounds"] = len(next(iter(samples.values())))
    run.calls.append(row)


# --- first call in a fresh process ------------------------------------------

FIRST_CALL_CHILD = """\
import numpy
import {label}
import jitload, specs
kernel = specs.BY_NAME[{name!r}]
args = kernel.make_args(kernel.python_size)
fn = getattr(jitload.load({label!r}), {name!r})
start = time.perf_counter()
fn(*args)
done = time.perf_counter()
print(json.dumps(dict(first_call_s=done - start)))
"""


def first_calls(run):
    for row in run.kernels:
        name = row["kernel"]
        print(f"first call of {name} ...", file=sys.stderr, flush=True)
        row["first_call"], row["first_call_samples"] = {}, {}
        for label in run.jits:
            if run.failed(name, label):
                continue           # already recorded; it would fail again
            try:
                results = run_child(FIRST_CALL_CHILD.format(label=label, name=name),
                                    run.settings.first_call_repeats)
            except ChildError as exc:
                run.fail(name, label, "first call", str(exc))
                continue
            samples = [r["first_call_s"] for r in results]
            row["first_call_samples"][label] = samples
            row["first_call"][label] = sorted(samples)[len(samples) // 2]


# --- process figures ----------------------------------------------------------

IMPORT_CHILD = """\
start = time.perf_counter()
import numpy
numpy_done = time.perf_counter()
import {label}
module_done = time.perf_counter()
print(json.dumps(dict(numpy_s=numpy_done - start,
                      module_s=module_done - numpy_done)))
"""

MEMORY_CHILD = """\
import os, resource

# ru_maxrss survives execve on Linux: a child of this (large) suite starts
# with the suite's high-water mark.  A process forked here gets a fresh one,
# starting from this small interpreter's size.
pid = os.fork()
if pid:
    sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))

import numpy
import kernels

def max_rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

def status(field):   # VmRSS (now) and VmHWM (peak) of this address space
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024

x = numpy.random.default_rng(0).random(1000)
base_max, base, base_hwm = max_rss(), status("VmRSS"), status("VmHWM")
from {label} import njit
imported_max = max_rss()
f = njit(kernels.arr_sum)
f(x, x)
done_max, done, done_hwm = max_rss(), status("VmRSS"), status("VmHWM")
print(json.dumps(dict(import_max_rss=imported_max - base_max,
                      added_max_rss=done_max - base_max,
                      added_hwm=done_hwm - base_hwm, added_rss=done - base,
                      base_max_rss=base_max)), flush=True)
"""


def median(values):
    values = sorted(values)
    n = len(values)
    return (values[n // 2] + values[(n - 1) // 2]) / 2


def process_figures(run):
    s = run.settings
    imports, memory = {}, {}
    for label in run.jits:
        print(f"import time and memory of {label} ...", file=sys.stderr,
              flush=True)
        try:
            results = run_child(IMPORT_CHILD.format(label=label), s.import_repeats)
            imports[label] = dict(
                median_s=median([r["module_s"] for r in results]),
                samples=[r["module_s"] for r in results],
                numpy_median_s=median([r["numpy_s"] for r in results]))
        except ChildError as exc:
            run.fail("import", label, "import", str(exc))
        try:
            results = run_child(MEMORY_CHILD.format(label=label), s.memory_repeats)
            memory[label] = {key: median([r[key] for r in results])
                             for key in results[0] if key != "process_wall_s"}
            memory[label]["samples"] = [r["added_max_rss"] for r in results]
        except ChildError as exc:
            run.fail("memory", label, "import + compile arr_sum", str(exc))
    run.processes = dict(import_time=imports, memory=memory)


# --- call overhead ---------------------------------------------------------------

def overhead_shapes():
    a, b, c = (numpy.zeros(10) for _ in range(3))
    return [  # (label, function in kernels.py, arguments, keyword arguments)
        ("f()", "call_none", (), {}),
        ("f(1)", "call_int", (1,), {}),
        ("f(1.0, 2)", "call_float_int", (1.0, 2), {}),
        ("f(1.0, 2.0)", "call_keywords", (1.0, 2.0), {}),
        ("f(x=1.0, y=2.0)  keywords", "call_keywords", (), {"x": 1.0, "y": 2.0}),
        ("f(1.0, 1e-8, 2.0)", "call_defaults", (1.0, 1e-8, 2.0), {}),
        ("f(1.0)  two defaults", "call_defaults", (1.0,), {}),
        ("f(1.0, 2.0, 3.0)", "call_three_floats", (1.0, 2.0, 3.0), {}),
        ("f(t)  a 3-tuple of floats", "call_tuple", ((1.0, 2.0, 3.0),), {}),
        ("f(a)  one array", "call_array", (a,), {}),
        ("f(a, None)", "call_optional", (a, None), {}),
        ("f(a)  default None", "call_optional", (a,), {}),
        ("f(a, b, c)  three arrays", "call_three_arrays", (a, b, c), {}),
        ("f(a) -> new array", "call_array_out", (a,), {}),
        ("solver(fn, x)  fn argument", "call_solver", (KernelFunction("call_fn_square"), 1.0), {}),
        ("solver(x)  fn global", "call_solver_global", (1.0,), {}),
    ]


class KernelFunction(str):
    """An argument that is a function of kernels.py, compiled by the column's
    own compiler (a compiled function passed to a compiled function)."""


def _column_args(module, args):
    return tuple(getattr(module, a) if isinstance(a, KernelFunction) else a for a in args)


# keyword and default shapes, each against the same function called positionally
BINDING_SHAPES = {"f(x=1.0, y=2.0)  keywords": "f(1.0, 2.0)",
                  "f(1.0)  two defaults": "f(1.0, 1e-8, 2.0)",
                  "f(a)  default None": "f(a, None)"}


def call_overhead(run, python_module):
    s = run.settings
    print("call overhead ...", file=sys.stderr, flush=True)
    for shape, name, args, kwargs in overhead_shapes():
        calls = {}
        for label, module in list(run.jits.items()) + [("python", python_module)]:
            fn = getattr(module, name)
            column_args = _column_args(module, args)
            try:
                fn(*column_args, **kwargs)     # compile outside the timing
            except Exception as exc:  # noqa: BLE001
                run.fail(name, label, "call overhead", _jit_error(exc))
                continue
            calls[label] = (fn, column_args)
        # timeit-style: a loop of `overhead_calls` direct calls per sample,
        # samples alternating between columns; the same loop without the
        # call ("loop") is timed alongside and subtracted
        loops = {label: _overhead_loop(fn, args, kwargs) for label, (fn, args) in calls.items()}
        loops["loop"] = _overhead_loop(None, args, kwargs)
        samples = {label: [] for label in loops}
        for _ in range(s.overhead_samples):
            for label, loop in loops.items():
                samples[label].append(loop(s.overhead_calls) / s.overhead_calls)
        empty = median(samples.pop("loop"))
        run.overhead.append(dict(
            shape=shape, function=name, loop_s=empty,
            values={k: max(median(v) - empty, 0.0) for k, v in samples.items()},
            gross=({k: median(v) for k, v in samples.items()}),
            samples=samples))


def _overhead_loop(fn, args, kwargs):
    """A timer of n calls fn(*args, **kwargs), with the arguments as locals
    (no unpacking in the loop) and the keywords written out, as timeit
    compiles it; fn=None times the loop alone."""
    names = [f"a{i}" for i in range(len(args) + len(kwargs))]
    passed = names[:len(args)] + [f"{k}={v}" for k, v in zip(kwargs, names[len(args):])]
    args = tuple(args) + tuple(kwargs.values())
    body = f"fn({', '.join(passed)})" if fn is not None else "pass"
    source = (f"def loop(n, fn, {', '.join(names) + ', ' if names else ''}"
              f"perf_counter=__import__('time').perf_counter):\n"
              f"    start = perf_counter()\n"
              f"    for _ in range(n):\n"
              f"        {body}\n"
              f"    return perf_counter() - start\n")
    namespace = {}
    exec(source, namespace)
    loop = namespace["loop"]

    def timed(n):
        import gc
        enabled = gc.isenabled()
        gc.disable()
        try:
            return loop(n, fn, *args)
        finally:
            if enabled:
                gc.enable()
    return timed


# --- targets ---------------------------------------------------------------------

def ratio(top, bottom):
    return top / bottom if top is not None and bottom else None


def targets(run):
    """[(description, value, op, threshold, verdict, detail)]"""
    out = []

    def add(description, value, op, threshold, detail=""):
        if value is None:
            verdict = "n/a"
        else:
            ok = value <= threshold if op == "<=" else value >= threshold
            verdict = "PASS" if ok else "FAIL"
        out.append(dict(description=description, value=value, op=op,
                        threshold=threshold, verdict=verdict, detail=detail))

    n_kernels = len(specs.KERNELS)
    vs_numba = {r["kernel"]: ratio(r["values"].get("ruchey"), r["values"].get("numba"))
                for r in run.kernels}
    vs_c = {r["kernel"]: ratio(r["values"].get("ruchey"), r["values"].get("c"))
            for r in run.kernels}
    first = {r["kernel"]: ratio(r.get("first_call", {}).get("ruchey"),
                                r.get("first_call", {}).get("numba"))
             for r in run.kernels}

    def over(d):
        got = {k: v for k, v in d.items() if v is not None}
        return got, f"over {len(got)} of {n_kernels} kernels"

    got, detail = over(vs_numba)
    add("steady state: geometric mean <= 1.0x Numba", geomean(got.values()),
        "<=", 1.0, detail)
    got_c, detail_c = over(vs_c)
    add("steady state: geometric mean <= 1.05x C", geomean(got_c.values()),
        "<=", 1.05, detail_c)
    worst = max(got, key=got.get) if got else None
    add("steady state: no kernel worse than 1.2x Numba",
        got[worst] if worst else None, "<=", 1.2,
        f"worst: {worst}; {detail}" if worst else detail)
    got_f, detail_f = over(first)
    worst_f = max(got_f, key=got_f.get) if got_f else None
    add("first call: every kernel <= 1/10 of Numba's",
        got_f[worst_f] if worst_f else None, "<=", 0.1,
        f"worst: {worst_f}; {detail_f}" if worst_f else detail_f)
    shapes = {o["shape"]: ratio(o["values"].get("ruchey"), o["values"].get("numba"))
              for o in run.overhead}
    shapes = {k: v for k, v in shapes.items() if v is not None}
    worst_s = max(shapes, key=shapes.get) if shapes else None
    add("call overhead: <= 0.6x Numba's for every argument shape",
        shapes[worst_s] if worst_s else None, "<=", 0.6,
        f"worst: {worst_s}" if worst_s else "")
    net = {o["shape"]: o["values"].get("ruchey") for o in run.overhead}
    for shape, positional in BINDING_SHAPES.items():
        add(f"call overhead: {shape.split('  ')[0]} <= 2x {positional}",
            ratio(net.get(shape), net.get(positional)), "<=", 2.0,
            "keywords bound and defaults filled in C")
    add("call overhead: f(t) of a 3-tuple <= 1.5x f(1.0, 2.0, 3.0)",
        ratio(net.get("f(t)  a 3-tuple of floats"), net.get("f(1.0, 2.0, 3.0)")), "<=", 1.5,
        "the tuple's type from its items' types, unboxed onto the C stack")
    memory = run.processes.get("memory", {})
    add("memory added by import + one compile <= 0.5x Numba's",
        ratio(memory.get("ruchey", {}).get("added_max_rss"),
              memory.get("numba", {}).get("added_max_rss")), "<=", 0.5,
        "max RSS, fresh process, beyond numpy")
    imports = run.processes.get("import_time", {})
    add("import beyond numpy: <= 1/10 of Numba's",
        ratio(imports.get("ruchey", {}).get("median_s"),
              imports.get("numba", {}).get("median_s")), "<=", 0.1)
    arr_sum = next((r for r in run.kernels if r["kernel"] == "arr_sum"), None)
    if arr_sum:
        v = arr_sum["values"]
        add("arr_sum 1e6: >= 100x faster than pure Python",
            ratio(v.get("python"), v.get("ruchey")), ">=", 100)
        add("arr_sum 1e6: <= 1.1x NumPy x+y",
            ratio(v.get("ruchey"), v.get("numpy")), "<=", 1.1)
    if "ruchey" in run.jits:
        broken = sorted({f["kernel"] for f in run.failures
                         if f["implementation"] == "ruchey"
                         and f["kernel"] in specs.BY_NAME})
        add("every kernel compiles and matches the reference",
            float(n_kernels - len(broken)), ">=", float(n_kernels),
            f"failing: {', '.join(broken)}" if broken else "")
    called = {r["pair"]: r["ratios"].get("ruchey") for r in run.calls}
    called = {k: v for k, v in called.items() if v is not None}
    worst_c = max(called, key=called.get) if called else None
    detail = f"over {len(called)} of {len(specs.CALL_PAIRS)} pairs"
    add("calls: a helper called per element <= 1.1x inline",
        called[worst_c] if worst_c else None, "<=", 1.1,
        f"worst: {worst_c}; {detail}" if worst_c else detail)
    threads.targets(run, add, ratio)
    return out


# --- main ------------------------------------------------------------------------

def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_info(run):
    info = dict(cpu_model=cpu_model(), nproc=os.cpu_count(),
                usable_cpus=len(os.sched_getaffinity(0)),
                platform=platform.platform(), python=platform.python_version(),
                numpy=numpy.__version__, c_compiler=cbuild.compiler_version(),
                c_command=run.c_command)
    for label in JITS:
        module = sys.modules.get(label)
        info[label] = getattr(module, "__version__", "unknown") if module else None
    return info


def load(run, only):
    for label in JITS:
        try:
            importlib.import_module(label)
            run.jits[label] = jitload.load(label)
        except ImportError as exc:
            run.missing[label] = str(exc)
    try:
        run.c_lib, run.c_command = cbuild.build()
    except (RuntimeError, OSError) as exc:
        run.missing["c"] = str(exc)
    return select(only)


def select(only):
    """The kernels and call pairs to run: every one without --only, else
    those it names ('calls' naming every pair)."""
    if not only:
        return specs.KERNELS, specs.CALL_PAIRS
    unknown = (set(only) - set(specs.BY_NAME) - set(specs.PAIRS_BY_NAME)
               - {"calls", "threads"})
    if unknown:
        sys.exit("unknown kernel(s), pair(s) or section(s): "
                 + ", ".join(sorted(unknown)))
    kernels = [k for k in specs.KERNELS if k.name in only]
    pairs = [p for p in specs.CALL_PAIRS if "calls" in only or p.name in only]
    return kernels, pairs


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="fewer repeats and shorter time budgets "
                             "(same sizes)")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON,
                        help=f"output path (default: {DEFAULT_JSON})")
    parser.add_argument("--png", type=Path, default=DEFAULT_PNG,
                        help=f"chart path (default: {DEFAULT_PNG})")
    parser.add_argument("--only", type=lambda s: s.split(","), default=None,
                        help="comma-separated kernel and call-pair names, "
                             "'calls' or 'threads' for those sections "
                             "(default: all)")
    return parser.parse_args()


def main():
    args = parse_args()
    settings = QUICK if args.quick else Settings()
    run = Run(settings)
    start = datetime.datetime.now(datetime.timezone.utc)
    kernels, pairs = load(run, args.only)
    python_module = jitload.load(None)
    for kernel in kernels:
        steady_kernel(run, kernel, python_module)
    for pair in pairs:
        call_pair(run, pair, python_module)
    # these go with the kernels: when --only names sections alone
    # (`--only calls`, `--only threads`), just those sections run
    if not args.only or kernels:
        call_overhead(run, python_module)
        first_calls(run)
        process_figures(run)
    if not args.only or "threads" in args.only:
        threads.measure(run, {label: sys.modules[label] for label in run.jits})
    verdicts = targets(run)
    machine = machine_info(run)
    elapsed = (datetime.datetime.now(datetime.timezone.utc) - start).total_seconds()
    report.print_report(machine, run, verdicts)
    report.write_json(args.json, machine,
                      dict(asdict(settings), quick=args.quick,
                           OPENBLAS_NUM_THREADS=os.environ["OPENBLAS_NUM_THREADS"]),
                      run, verdicts, start, elapsed)
    print(f"\nJSON written to {args.json}")
    try:
        report.write_chart(args.png, run, verdicts)
        print(f"chart written to {args.png}")
    except ImportError as exc:
        print(f"no chart: {exc} (pip install matplotlib)")
    print(f"total {elapsed:.0f} s")


if __name__ == "__main__":
    main()
