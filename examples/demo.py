"""ruchey demo: JIT-compile a plain Python loop and compare it with pure
Python, NumPy and Numba on 1,000,000 float64 elements; then run the seed's
CUDA kernel, on the CPU backend when there is no GPU.

Run with `make demo` or `python3 examples/demo.py`.
"""
import os
import platform
import statistics
import sys
import time
from pathlib import Path

# Let a source checkout find its in-tree ruchey; an installed ruchey still
# wins because the checkout is appended after site-packages.
sys.path.append(str(Path(__file__).resolve().parents[1]))

import numpy
from ruchey import cuda, get_num_threads, jit


@jit
def arr_sum(x, y):
    result_arr = numpy.empty_like(x)
    for i in range(len(x)):
        result_arr[i] = x[i] + y[i]
    return result_arr


@cuda.jit
def call_for_kernel(io_arr):
    thread_x = cuda.threadIdx.x
    thread_y = cuda.blockIdx.x
    block_width = cuda.blockDim.x
    t_position = thread_x + thread_y * block_width
    if t_position < io_arr.size:
        io_arr[t_position] *= 2


@jit
def double_loop(io_arr):
    for i in range(io_arr.size):
        io_arr[i] *= 2


N = 1_000_000
REPEATS = 21            # compiled and NumPy runs take ~1 ms each
PY_N = 100_000          # pure Python needs ~0.1 us per element: keep it short
PY_REPEATS = 3


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def median_time(fn, repeats):
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def first_call_time(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def fmt(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} us"


def compare(ruchey_time, other_time):
    """Phrase ruchey's speed relative to another implementation."""
    if other_time >= ruchey_time:
        return f"{other_time / ruchey_time:.2f}x faster"
    return f"{ruchey_time / other_time:.2f}x slower"


def load_numba():
    try:
        import numba
    except ImportError:
        return None
    return numba


def check_exact(name, result, expected):
    if not numpy.array_equal(result, expected):
        sys.exit(f"check: {name}(x, y) != x + y -- result is WRONG")


def main():
    rng = numpy.random.default_rng(42)
    x = rng.random(N)
    y = rng.random(N)
    expected = x + y
    numba = load_numba()

    print(f"ruchey demo: arr_sum(x, y) over {N:,} float64 elements")
    print(f"machine : {cpu_name()}, {os.cpu_count()} cores, "
          f"{platform.system()} {platform.machine()}")
    print(f"software: Python {platform.python_version()}, "
          f"NumPy {numpy.__version__}, "
          f"Numba {numba.__version__ if numba else 'not installed'}")

    ruchey_first, result = first_call_time(arr_sum, x, y)
    check_exact("arr_sum", result, expected)
    print("check   : arr_sum(x, y) == x + y exactly: OK")

    # (label, steady-state seconds at N elements); ruchey first for the ratios.
    rows = [("ruchey @jit", median_time(lambda: arr_sum(x, y), REPEATS)),
            ("NumPy x + y", median_time(lambda: x + y, REPEATS))]

    first_calls = f"ruchey {fmt(ruchey_first)}"
    if numba is None:
        first_calls += ", Numba skipped (not importable)"
    else:
        numba_sum = numba.njit(arr_sum.py_func)
        try:
            numba_first, result = first_call_time(numba_sum, x, y)
        except Exception as exc:  # noqa: BLE001 - an installed Numba that cannot compile here
            first_calls += f", Numba failed ({type(exc).__name__}: {str(exc)[:80]})"
        else:
            check_exact("numba arr_sum", result, expected)
            first_calls += f", Numba {fmt(numba_first)}"
            rows.append(("Numba @njit",
                         median_time(lambda: numba_sum(x, y), REPEATS)))

    # Pure Python is timed on a slice and scaled: the loop is linear in size.
    px, py = x[:PY_N], y[:PY_N]
    scale = N / PY_N
    rows.append(("pure Python *", scale * median_time(
        lambda: arr_sum.py_func(px, py), PY_REPEATS)))

    print(f"\nfirst call (compile + run): {first_calls}")
    print(f"\nsteady state, median of {REPEATS} runs:")
    print(f"  {'implementation':<16}{'time':>11}   ruchey is")
    ruchey_label, ruchey_time = rows[0]
    print(f"  {ruchey_label:<16}{fmt(ruchey_time):>11}   (baseline)")
    for label, seconds in rows[1:]:
        print(f"  {label:<16}{fmt(seconds):>11}   {compare(ruchey_time, seconds)}")
    print(f"  * pure Python timed on {PY_N:,} elements "
          f"(median of {PY_REPEATS}) and scaled x{scale:g}")
    if numba is None:
        print("  Numba: skipped (numba is not importable)")


def kernel_demo():
    n = 1 << 20
    a = numpy.arange(n, dtype=numpy.float64)
    launch = call_for_kernel[(n + 255) // 256, 256]
    first = time.perf_counter()
    launch(a)
    first = time.perf_counter() - first
    check_exact("call_for_kernel", a, numpy.arange(n, dtype=numpy.float64) * 2)
    where = ("a GPU" if cuda.is_available() else
             f"the CPU backend, {get_num_threads()} threads")
    print(f"\nthe seed's CUDA kernel, {n:,} threads in blocks of 256, on {where}: OK")
    kernel_time = median_time(lambda: launch(a), REPEATS)
    double_loop(a)
    loop_time = median_time(lambda: double_loop(a), REPEATS)
    print(f"  first launch (compile + run) {fmt(first)}; steady state {fmt(kernel_time)} "
          f"({kernel_time / n * 1e9:.2f} ns per CUDA thread); the same @jit loop {fmt(loop_time)}")


if __name__ == "__main__":
    main()
    kernel_demo()
