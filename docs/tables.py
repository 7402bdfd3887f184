"""Tables of the documentation made from the project's own data at each
build, so that they say what the installed ruchey does: the functions
compiled code may call (the compiler's table of builtins,
``ruchey._core.builtins()``) and the latest benchmark figures
(``bench/results/bench.json``)."""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What a row's flags mean to a user; the others (cheap, pure, ...) guide
# the compiler only.
NOTES = {
    "allocates": "returns a new array (reference-counted, freed with its last reference)",
    "raises": "raises as CPython does outside its domain",
    "parallel": "a parallel loop with `parallel=True`",
    "barrier": "a barrier: every thread of the block waits",
    "blas": "floats through SciPy's BLAS/LAPACK",
}

SECTIONS = [
    ("Python's builtins", lambda r: r[1] == "builtins"),
    ("`math`", lambda r: r[1] == "math"),
    ("NumPy functions", lambda r: r[1] in ("numpy", "numpy.lib.stride_tricks")),
    ("`numpy.linalg`", lambda r: r[1] == "numpy.linalg"),
    ("`numpy.polynomial`", lambda r: (r[1] or "").startswith("numpy.polynomial")),
    ("`numpy.random`", lambda r: r[1] == "numpy.random"),
    ("`random`", lambda r: r[1] == "random"),
    ("`numpy.random.Generator` methods", lambda r: r[0].startswith("Generator.")),
    ("`cmath`", lambda r: r[1] == "cmath"),
    ("Array methods and attributes", lambda r: r[3] in ("method", "attribute") and not r[0].startswith("Generator.")),
    ("ruchey", lambda r: r[1] == "ruchey"),
    ("CUDA kernels (`ruchey.cuda`)", lambda r: r[1] == "ruchey.cuda"),
]


def _arity(lo, hi):
    if lo == hi:
        return str(lo)
    return f"{lo} or more" if hi >= 64 else f"{lo}–{hi}"


def _name(row):
    name, module, attr, kind = row[:4]
    if name.startswith("Generator."):
        return f"`rng.{attr}()`"
    if kind == "method":
        return f"`a.{attr}()`"
    if kind == "attribute":
        return f"`a.{attr}`"
    prefix = {"builtins": "", "ruchey.cuda": "cuda."}.get(module, module + ".")
    return f"`{prefix}{attr}`"


def builtins_rows():
    """(section, name, arguments, notes) for every builtin users can name."""
    from ruchey import _core
    rows, seen = [], set()
    for title, belongs in SECTIONS:
        for row in _core.builtins():
            if row[2] is None or not belongs(row):  # the compiler's own rows
                continue
            if (title, row[3], row[2]) in seen:  # one row per receiver kind (complex64 and complex128's .real)
                continue
            seen.add((title, row[3], row[2]))
            args = "" if row[3] == "attribute" or "nocall" in row[6] else _arity(row[4], row[5])
            notes = "; ".join(text for flag, text in NOTES.items() if flag in row[6])
            rows.append((title, _name(row), args, notes))
    return rows


def builtins_markdown():
    out, section = [], None
    for title, name, args, notes in builtins_rows():
        if title != section:
            section = title
            out += ["", f"### {title}", "", "| name | arguments | notes |", "|---|---|---|"]
        out.append(f"| {name} | {args} | {notes} |")
    return "\n".join(out) + "\n"


def _time(s):
    for unit, scale in (("s", 1), ("ms", 1e3), ("µs", 1e6), ("ns", 1e9)):
        if s * scale >= 1:
            return f"{s * scale:.3g} {unit}"
    return f"{s * 1e9:.3g} ns"


def bench_markdown():
    with open(os.path.join(ROOT, "bench", "results", "bench.json")) as fh:
        bench = json.load(fh)
    m = bench["machine"]
    out = [f"Measured {bench['timestamp'][:10]} on {m['nproc']} cores of an {m['cpu_model']} "
           f"(Python {m['python']}, NumPy {m['numpy']}, Numba {m['numba']}, {m['c_compiler']}).",
           "", "| kernel | size | ruchey | Numba | C (gcc -O3) | ruchey / Numba | first call: ruchey | Numba |",
           "|---|---|---|---|---|---|---|---|"]
    for k in bench["kernels"]:
        v, first = k["values"], k.get("first_call", {})
        out.append(f"| {k['kernel']} | {k['size']} | {_time(v['ruchey'])} | {_time(v['numba'])} | "
                   f"{_time(v['c'])} | {v['ruchey'] / v['numba']:.2f}× | "
                   f"{_time(first['ruchey']) if 'ruchey' in first else ''} | "
                   f"{_time(first['numba']) if 'numba' in first else ''} |")
    out += ["", "| call | ruchey | Numba | Python |", "|---|---|---|---|"]
    for c in bench["call_overhead"]:
        v = c["values"]
        out.append(f"| `{c['shape']}` | {_time(v['ruchey'])} | {_time(v['numba'])} | {_time(v['python'])} |")
    imp = bench["process"]["import_time"]
    out += ["", f"`import ruchey` takes {_time(imp['ruchey']['median_s'])} beyond NumPy's "
            f"(Numba: {_time(imp['numba']['median_s'])})."]
    return "\n".join(out) + "\n"


def write_generated(directory):
    os.makedirs(directory, exist_ok=True)
    for name, text in (("builtins.md", builtins_markdown()), ("bench.md", bench_markdown())):
        with open(os.path.join(directory, name), "w") as fh:
            fh.write(text)
