"""Where the test suite's CPU goes: each test's CPU, in its process and in the
subprocesses it waited for, summed per file.

    PYTHONPATH=bench python -m pytest -p suite_cpu -n 2 --dist loadfile tests/
    python bench/suite_cpu.py [suite_cpu.tsv] [--top N]

The plugin appends one line per test to the file SUITE_CPU_TSV names
(suite_cpu.tsv by default): its id, wall seconds, the test process's CPU
seconds, its subprocesses' CPU seconds (collecting and starting the
workers are in no test's). Every xdist worker appends to the
same file; remove it before a run. The CPU time of a test changes little
on a busy machine, unlike its wall time, so files and tests can be
compared between runs at any load. Run as a script, it prints the files
by CPU, the longest tests, and what the subprocesses took.
"""
import argparse
import collections
import os
import resource
import time

TSV = os.environ.get("SUITE_CPU_TSV", "suite_cpu.tsv")
_started = {}
_config = None


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pytest_configure(config):
    global _config
    _config = config


def pytest_runtest_logstart(nodeid, location):
    # xdist's controller hears of its workers' tests without running them
    if not _config.pluginmanager.hasplugin("dsession"):
        _started[nodeid] = (time.perf_counter(), time.process_time(), _children_cpu())


def pytest_runtest_logfinish(nodeid, location):
    if nodeid not in _started:
        return
    wall, cpu, children = _started.pop(nodeid)
    with open(TSV, "a") as out:  # a line a write: the workers' lines do not mix
        out.write(f"{nodeid}\t{time.perf_counter() - wall:.4f}\t{time.process_time() - cpu:.4f}\t"
                  f"{_children_cpu() - children:.4f}\n")


def read(path):
    """(test id, wall, cpu, children's cpu) for each line of a run's file."""
    with open(path) as f:
        for line in f:
            nodeid, wall, cpu, children = line.rstrip("\n").split("\t")
            yield nodeid, float(wall), float(cpu), float(children)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tsv", nargs="?", default=TSV)
    ap.add_argument("--top", type=int, default=30)
    options = ap.parse_args()
    rows = list(read(options.tsv))
    files = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for nodeid, _, cpu, children in rows:
        entry = files[nodeid.split("::")[0]]
        entry[0] += 1
        entry[1] += cpu
        entry[2] += children
    total = sum(cpu + children for _, _, cpu, children in rows)
    print(f"{len(rows)} tests, {total:.1f} s CPU, {sum(r[3] for r in rows):.1f} s of it in subprocesses\n")
    print(f"{'file':48s} {'tests':>6s} {'CPU s':>8s} {'subproc s':>9s} {'share':>6s}")
    ranked = sorted(files.items(), key=lambda item: -(item[1][1] + item[1][2]))
    for name, (count, cpu, children) in ranked[:options.top]:
        print(f"{name:48s} {count:6d} {cpu:8.1f} {children:9.1f} {100 * (cpu + children) / total:5.1f}%")
    print(f"\nthe {options.top} tests of most CPU:")
    for nodeid, _, cpu, children in sorted(rows, key=lambda r: -(r[2] + r[3]))[:options.top]:
        print(f"{cpu + children:8.2f} s ({children:6.2f} s subprocesses) {nodeid[:110]}")


if __name__ == "__main__":
    main()
