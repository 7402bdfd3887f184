"""Timing helpers: in-process medians and fresh child interpreters."""
import gc
import json
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent

# Child scripts start with this, so they import the same modules as the
# parent: bench/ first (kernels, jitload, specs), an in-tree ruchey last
# (an installed ruchey wins, as in the parent).
CHILD_PRELUDE = f"""\
import json, sys, time
sys.path.insert(0, {str(BENCH_DIR)!r})
sys.path.append({str(REPO_ROOT)!r})
"""


def round_robin(calls, budget_s, min_rounds, max_rounds, min_sample_s=0.002,
                warmup=True):
    """Median seconds per call of each zero-argument callable in `calls`.

    Each callable is called once as a warm-up and once to estimate its time;
    a sample is `number` back-to-back calls (enough to last min_sample_s),
    and the samples of all callables are taken in alternating rounds, so a
    noisy neighbour slows them all alike instead of one.  Each round takes
    the callables in a new order (a seeded shuffle), so none always follows
    the same one: an OpenMP pool still spinning after its loop (C's,
    Numba's) takes a core from whichever callable comes next.  The number of
    rounds fits `budget_s`, within [min_rounds, max_rounds].
    With warmup=False (slow pure Python) there are exactly min_rounds
    samples of one call each, and no extra calls.
    Returns ({label: median}, {label: [samples]}).
    """
    number = {label: 1 for label in calls}
    cost = 0.0
    for label, fn in calls.items() if warmup else ():
        fn()
        start = time.perf_counter()
        fn()
        estimate = max(time.perf_counter() - start, 1e-7)
        number[label] = max(1, math.ceil(min_sample_s / estimate))
        cost += number[label] * estimate
    rounds = min_rounds
    if warmup:
        rounds = max(min_rounds, min(max_rounds, int(budget_s / max(cost, 1e-9))))
    samples = {label: [] for label in calls}
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        order = random.Random(0)
        labels = list(calls)
        for _ in range(rounds):
            order.shuffle(labels)
            for label in labels:
                fn, n = calls[label], number[label]
                start = time.perf_counter()
                for _ in range(n):
                    fn()
                samples[label].append((time.perf_counter() - start) / n)
    finally:
        if gc_was_enabled:
            gc.enable()
    return {label: statistics.median(s) for label, s in samples.items()}, samples


class ChildError(RuntimeError):
    pass


def run_child(source, repeats, timeout_s=300, retries=1):
    """Run `source` as a script in `repeats` fresh interpreters.

    The script is a file (not -c), so JITs that read source through
    `inspect` work.  Each child prints one JSON object on its last stdout
    line; "process_wall_s" (interpreter start to exit, measured here) is
    added.  A failing child is run again up to `retries` times (the
    installed ruchey may be mid-reinstall by a concurrent `make build`), then
    raises ChildError with the end of its stderr.
    """
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "child.py"
        script.write_text(CHILD_PRELUDE + source)
        results = []
        while len(results) < repeats:
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, str(script)],
                                  capture_output=True, text=True,
                                  timeout=timeout_s)
            wall = time.perf_counter() - start
            if proc.returncode != 0:
                if retries > 0:
                    retries -= 1
                    continue
                tail = "\n".join(proc.stderr.strip().splitlines()[-12:])
                raise ChildError(f"child exited {proc.returncode}:\n{tail}")
            result = json.loads(proc.stdout.strip().splitlines()[-1])
            result["process_wall_s"] = wall
            results.append(result)
        return results


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def print_timed_row(name, calls, width=22):
    """Times calls ("python", "ruchey", "numba": those present) round-robin
    and prints one row: each median in ms, then ruchey/numba."""
    med, _ = round_robin(calls, budget_s=6, min_rounds=3, max_rounds=20)
    cols = "".join(f"{med[k] * 1e3:10.2f}" if k in med else f"{'-':>10s}" for k in ("python", "ruchey", "numba"))
    ratio = f"   ruchey/numba {med['ruchey'] / med['numba']:.2f}" if "numba" in med else ""
    print(f"{name:{width}s}{cols}{ratio}")
