"""Compile time of functions over long tuples (300 items by default): a
display of int expressions returned, one held in a variable and returned,
one walked by a for loop, and a callee's long result read by its caller.
Each compiled once in a fresh interpreter (its first call), so that every
row is a whole compile.

    python3 bench/long_tuples.py [N]
"""
import subprocess
import sys

SOURCES = {
    "display returned": "def f(x):\n    return ({items},)\n",
    "variable returned": "def f(x):\n    t = ({items},)\n    return t\n",
    "variable walked": "def f(x):\n    t = ({items},)\n    s = 0\n    for v in t:\n        s += v\n    return s\n",
    "callee's result read": "def g(x):\n    return ({items},)\n\n"
                            "def f(x):\n    t = G(x)\n    return t[0] + t[-1], t\n",
}

CHILD = """
import time
from ruchey import njit
src = {src!r}
space = {{}}
exec(src, space)
if "g" in space:
    space["G"] = njit(space["g"])
f = njit(space["f"])
t0 = time.perf_counter()
f(3)
print(time.perf_counter() - t0)
"""


def compile_seconds(src):
    out = subprocess.run([sys.executable, "-c", CHILD.format(src=src)], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    items = ", ".join(f"x * {i} + {i % 7}" for i in range(n))
    print(f"| {n}-item tuple | compile + first call (s) |\n|---|---:|")
    for name, src in SOURCES.items():
        print(f"| {name} | {compile_seconds(src.format(items=items)):.2f} |")


if __name__ == "__main__":
    main()
