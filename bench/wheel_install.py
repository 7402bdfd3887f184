"""The wheel's install time: `pip install` of the wheel `make wheel` built
(dist/) into a fresh virtual environment, `import ruchey` and a first
compile, as a user on a machine without LLVM meets them.

    python3 bench/wheel_install.py [--repeats N]

Prints each repeat's wall-clock seconds and their median, with the
figure to beat (5 s). The wall clock: pip's unpacking and Python's
start are most of it, which CPU time of this process would miss; so a
busy machine lengthens it, and the median of a quiet run is the figure.
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAG = f"cp{sys.version_info[0]}{sys.version_info[1]}"
FIGURE = 5.0
SCRIPT = """import ruchey, numpy
@ruchey.njit
def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s
assert total(numpy.arange(10.0)) == 45.0
"""


def install_import_and_compile(wheel):
    """Seconds from pip install into a fresh venv (NumPy from this Python's
    site-packages) to the first compiled call's result."""
    with tempfile.TemporaryDirectory() as tmp:
        venv = os.path.join(tmp, "venv")
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
        python = os.path.join(venv, "bin", "python")
        start = time.perf_counter()
        subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--ignore-installed",
                        "--disable-pip-version-check", wheel], check=True)
        subprocess.run([python, "-c", SCRIPT], check=True, cwd=tmp)
        return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    wheels = sorted(glob.glob(os.path.join(ROOT, "dist", f"ruchey-*-{TAG}-{TAG}-*manylinux_2_28_x86_64.whl")))
    if not wheels:
        sys.exit(f"no wheel for {TAG} in dist/: make wheel builds it")
    times = [install_import_and_compile(wheels[-1]) for _ in range(args.repeats)]
    median = statistics.median(times)
    print(f"{os.path.basename(wheels[-1])}: install + import + first compile "
          f"{', '.join(f'{t:.2f}' for t in times)} s; median {median:.2f} s "
          f"({'within' if median < FIGURE else 'over'} the {FIGURE:.0f} s figure)")


if __name__ == "__main__":
    main()
