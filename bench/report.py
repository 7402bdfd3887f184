"""Output of the suite: printed tables, JSON, and a PNG chart of the ratios."""
import json
import math
import os

import threads

STEADY_COLUMNS = ("ruchey", "numba", "numpy", "c", "python")
JITS = ("ruchey", "numba")


def fmt_seconds(seconds):
    if seconds is None:
        return "n/a"
    for scale, unit in ((1, "s"), (1e-3, "ms"), (1e-6, "us"), (1e-9, "ns")):
        shown = f"{seconds / scale:.3g}"
        # compare the rounded figure so 999.7 ns shows as "1 us"
        if float(shown) >= 1 or unit == "ns":
            return f"{shown} {unit}"


def fmt_ratio(value):
    return "n/a" if value is None else f"{value:.3g}x"


def fmt_mib(value):
    return "n/a" if value is None else f"{value / 2**20:.1f} MiB"


def ratio(top, bottom):
    return top / bottom if top is not None and bottom else None


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _cell(row, column, failed):
    if column in failed:
        return "FAILED"
    value = row["values"].get(column)
    if column == "numpy" and value is None and row.get("numpy_note"):
        return "-"
    text = fmt_seconds(value)
    if column == "python" and row.get("python_scale", 1) != 1:
        text += "*"
    return text


def print_report(machine, run, verdicts):
    print(f"\nmachine: {machine['cpu_model']}, {machine['nproc']} cpus "
          f"({machine['usable_cpus']} usable); python {machine['python']}, "
          f"numpy {machine['numpy']}, ruchey {machine['ruchey'] or 'n/a'}, "
          f"numba {machine['numba'] or 'n/a'}; C: {machine['c_command']} "
          f"({machine['c_compiler']})")
    failed, failed_first = {}, {}   # kernel -> implementations that failed
    for f in run.failures:
        target = failed_first if f["phase"] == "first call" else failed
        target.setdefault(f["kernel"], set()).add(f["implementation"])

    # a section that did not run (--only) prints no empty table
    if run.kernels:
        _print_steady(run, failed)
        _print_first_calls(run, failed, failed_first)
    if run.processes:
        _print_process(run)
    if run.overhead:
        _print_overhead(run)
    _print_calls(run, failed)

    for label, why in run.missing.items():
        print(f"\n{label}: n/a ({why})")
    if run.failures:
        print(f"\nfailures ({len(run.failures)}):")
        for f in run.failures:
            print(f"  {f['kernel']} / {f['implementation']} ({f['phase']}):")
            for text in f["error"].splitlines():
                print(f"      {text}")

    threads.print_section(run, fmt_seconds, fmt_ratio, ratio)

    print("\ntargets:")
    for t in verdicts:
        value = (f"{t['value']:.3g}" if t["value"] is not None else "n/a")
        detail = f"  [{t['detail']}]" if t["detail"] else ""
        print(f"  {t['verdict']:<5} {t['description']:<56} = {value:>6} "
              f"(target {t['op']} {t['threshold']:g}){detail}")


def _print_steady(run, failed):
    print("\nsteady state: median time per call after warm-up "
          "(rounds alternate between columns)")
    header = (f"{'kernel':<19}{'size':<22}"
              + "".join(f"{'C' if c == 'c' else c:>10}" for c in STEADY_COLUMNS)
              + f"{'r/numba':>9}{'r/C':>8}{'r/numpy':>9}{'py/r':>8}")
    print(header + "\n" + "-" * len(header))
    for row in run.kernels:
        v = row["values"]
        cells = "".join(f"{_cell(row, c, failed.get(row['kernel'], ())):>10}"
                        for c in STEADY_COLUMNS)
        print(f"{row['kernel']:<19}{row['size']:<22}{cells}"
              f"{fmt_ratio(ratio(v.get('ruchey'), v.get('numba'))):>9}"
              f"{fmt_ratio(ratio(v.get('ruchey'), v.get('c'))):>8}"
              f"{fmt_ratio(ratio(v.get('ruchey'), v.get('numpy'))):>9}"
              f"{fmt_ratio(ratio(v.get('python'), v.get('ruchey'))):>8}")
    gm = {key: geomean(ratio(r["values"].get(a), r["values"].get(b))
                       for r in run.kernels)
          for key, (a, b) in (("numba", ("ruchey", "numba")),
                              ("c", ("ruchey", "c")),
                              ("numba_c", ("numba", "c")))}
    print(f"{'geometric mean':<41}{'':>50}{fmt_ratio(gm['numba']):>9}"
          f"{fmt_ratio(gm['c']):>8}   (numba/C {fmt_ratio(gm['numba_c'])})")
    scaled = [r for r in run.kernels if r.get("python_scale", 1) != 1]
    if scaled:
        print("  * pure Python timed at a reduced size and scaled by the work "
              "ratio: " + "; ".join(f"{r['kernel']} at {r['python_size']} "
                                    f"x{r['python_scale']:.3g}" for r in scaled))
    print(f"  - NumPy's BLAS (matmul) on "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'default')}"
          f" thread(s); prange_reduce runs on every core for ruchey, numba "
          f"and C (OpenMP)")
    notes = [f"{r['kernel']}: {r['numpy_note']}" for r in run.kernels
             if r.get("numpy_note")]
    if notes:
        print("  - no NumPy version: " + "; ".join(notes))


def _print_first_calls(run, failed, failed_first):
    print("\nfirst call in a fresh process: compile + run at the reduced size "
          f"(median of {run.settings.first_call_repeats})")
    header = f"{'kernel':<19}{'ruchey':>10}{'numba':>10}{'r/numba':>9}"
    print(header + "\n" + "-" * len(header))
    for row in run.kernels:
        fc = row.get("first_call", {})
        bad = failed.get(row["kernel"], set()) | failed_first.get(row["kernel"], set())
        cells = "".join(f"{'FAILED' if c in bad else fmt_seconds(fc.get(c)):>10}"
                        for c in ("ruchey", "numba"))
        print(f"{row['kernel']:<19}{cells}"
              f"{fmt_ratio(ratio(fc.get('ruchey'), fc.get('numba'))):>9}")


def _print_process(run):
    print("\nprocess (fresh interpreters)")
    header = f"{'figure':<44}{'ruchey':>12}{'numba':>12}{'r/numba':>9}"
    print(header + "\n" + "-" * len(header))
    imports = run.processes.get("import_time", {})
    memory = run.processes.get("memory", {})

    def line(label, key, source, fmt):
        r = source.get("ruchey", {}).get(key)
        n = source.get("numba", {}).get(key)
        print(f"{label:<44}{fmt(r):>12}{fmt(n):>12}{fmt_ratio(ratio(r, n)):>9}")
    line("import, beyond numpy", "median_s", imports, fmt_seconds)
    line("max RSS added by import", "import_max_rss", memory, fmt_mib)
    line("max RSS added by import + compile arr_sum", "added_max_rss", memory,
         fmt_mib)
    line("  same, VmHWM of /proc/self/status", "added_hwm", memory, fmt_mib)
    line("  same, current RSS (VmRSS)", "added_rss", memory, fmt_mib)


def _print_overhead(run):
    loops = [o["loop_s"] for o in run.overhead]
    print("\ncall overhead: time per call, median of timeit-style loops, net "
          "of the empty loop"
          + (f" ({fmt_seconds(min(loops))}-{fmt_seconds(max(loops))} per "
             "iteration, subtracted)" if loops else ""))
    header = (f"{'call':<28}{'ruchey':>10}{'numba':>10}{'python':>10}"
              f"{'r/numba':>9}")
    print(header + "\n" + "-" * len(header))
    for o in run.overhead:
        v = o["values"]
        print(f"{o['shape']:<28}"
              + "".join(f"{fmt_seconds(v.get(c)):>10}"
                        for c in ("ruchey", "numba", "python"))
              + f"{fmt_ratio(ratio(v.get('ruchey'), v.get('numba'))):>9}")


def _print_calls(run, failed):
    if not run.calls:
        return
    print("\ncalls between compiled functions: median time per call after "
          "warm-up (rounds alternate between columns)\nof a loop calling a "
          "small compiled helper per element (called) and of the same loop "
          "with the helper's\nbody written inline; ratio = called / inline")
    groups = f"{'':<26}" + "".join(f"  {f' {label} ':-^28}" for label in JITS)
    header = (f"{'pair':<10}{'size':<16}"
              + f"{'called':>10}{'inline':>10}{'ratio':>10}" * len(JITS))
    print(groups + "\n" + header + "\n" + "-" * len(header))
    for row in run.calls:
        cells = ""
        for label in JITS:
            times = row["values"].get(label, {})
            for version in ("called", "inline"):   # row[version]: the kernel
                bad = label in failed.get(row[version], ())
                cells += f"{'FAILED' if bad else fmt_seconds(times.get(version)):>10}"
            cells += f"{fmt_ratio(row['ratios'].get(label)):>10}"
        print(f"{row['pair']:<10}{row['size']:<16}{cells}")
    print("  the calls: " + "; ".join(f"{r['pair']}: {r['call']}"
                                      for r in run.calls))


def write_json(path, machine, settings, run, verdicts, start, elapsed):
    path.parent.mkdir(parents=True, exist_ok=True)
    kernels = []
    for row in run.kernels:
        v, fc = row["values"], row.get("first_call", {})
        kernels.append(dict(row, ratios={
            "ruchey/numba": ratio(v.get("ruchey"), v.get("numba")),
            "ruchey/c": ratio(v.get("ruchey"), v.get("c")),
            "numba/c": ratio(v.get("numba"), v.get("c")),
            "ruchey/numpy": ratio(v.get("ruchey"), v.get("numpy")),
            "python/ruchey": ratio(v.get("python"), v.get("ruchey")),
            "first_call ruchey/numba": ratio(fc.get("ruchey"), fc.get("numba")),
        }))
    report = {
        "timestamp": start.isoformat(),
        "elapsed_s": elapsed,
        "machine": machine,
        "settings": settings,
        "units": "seconds (times), bytes (memory)",
        "kernels": kernels,
        "process": run.processes,
        "call_overhead": [dict(o, ratio=ratio(o["values"].get("ruchey"),
                                              o["values"].get("numba")))
                          for o in run.overhead],
        "calls": run.calls,
        "threads": run.threads,
        "targets": verdicts,
        "failures": run.failures,
        "unavailable": run.missing,
    }
    path.write_text(json.dumps(report, indent=2) + "\n")


def write_chart(path, run, verdicts):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(3, 1, figsize=(11, 12), layout="constrained")

    def bars(ax, labels, series, lines, title):
        width = 0.8 / len(series)
        for i, (name, values) in enumerate(series.items()):
            xs = [j + (i - (len(series) - 1) / 2) * width for j in range(len(labels))]
            heights = [v if v is not None else float("nan") for v in values]
            ax.bar(xs, heights, width, label=name)
            for x, v in zip(xs, values):
                if v is None:   # x in data, y in axes coordinates
                    ax.text(x, 0.03, "n/a", rotation=90, ha="center",
                            va="bottom", fontsize=7, color="red",
                            transform=ax.get_xaxis_transform())
        for i, (value, style, text) in enumerate(lines):
            ax.axhline(value, color="k", linestyle=style, linewidth=0.8)
            ax.text(0.005 if i % 2 == 0 else 0.6, value, text, va="bottom",
                    ha="left", fontsize=7, transform=ax.get_yaxis_transform())
        ax.set_yscale("log")
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.legend(fontsize=8, loc="upper right")
        ax.grid(axis="y", which="both", alpha=0.3)

    names = [r["kernel"] for r in run.kernels]
    bars(axes[0], names, {
        "ruchey / numba": [ratio(r["values"].get("ruchey"), r["values"].get("numba"))
                           for r in run.kernels],
        "ruchey / C": [ratio(r["values"].get("ruchey"), r["values"].get("c"))
                       for r in run.kernels],
        "numba / C": [ratio(r["values"].get("numba"), r["values"].get("c"))
                      for r in run.kernels],
    }, [(1.0, "-", "1"), (1.2, "--", "1.2 (worst allowed vs numba)")],
        "steady state time ratio (lower is better for ruchey)")
    bars(axes[1], names, {
        "first call ruchey / numba": [
            ratio(r.get("first_call", {}).get("ruchey"),
                  r.get("first_call", {}).get("numba")) for r in run.kernels],
    }, [(0.1, "--", "0.1 target")], "first call in a fresh process")
    memory = run.processes.get("memory", {})
    imports = run.processes.get("import_time", {})
    labels = [o["shape"] for o in run.overhead] + ["import time", "memory"]
    values = [ratio(o["values"].get("ruchey"), o["values"].get("numba"))
              for o in run.overhead]
    values.append(ratio(imports.get("ruchey", {}).get("median_s"),
                        imports.get("numba", {}).get("median_s")))
    values.append(ratio(memory.get("ruchey", {}).get("added_max_rss"),
                        memory.get("numba", {}).get("added_max_rss")))
    bars(axes[2], labels, {"ruchey / numba": values},
         [(0.6, "--", "0.6 call overhead target"), (0.5, ":", "0.5 memory target"),
          (0.1, "-.", "0.1 import target")],
         "call overhead and process figures")
    passed = sum(t["verdict"] == "PASS" for t in verdicts)
    fig.suptitle(f"ruchey vs numba and C — targets passed: {passed}/{len(verdicts)}")
    fig.savefig(path, dpi=110)
    plt.close(fig)
