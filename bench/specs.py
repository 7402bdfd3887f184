"""What the suite runs for each kernel of kernels.py: inputs, sizes, the
NumPy-vectorised version (where natural) and the ctypes wrapper of the C
version (kernels.c).

A Kernel's `make_args(size)` builds fresh inputs (deterministic); `size` is
the one number that scales the problem, `work(size)` is proportional to the
work done, so a pure-Python time measured at `python_size` scales to the full
size by work(size) / work(python_size).
"""
import math
from dataclasses import dataclass
from typing import Callable, Optional

import numpy


def ptr(a):
    return a.ctypes.data


@dataclass(frozen=True)
class Kernel:
    name: str
    size: int                    # full size, timed for every implementation
    python_size: int             # pure Python is timed here and scaled
    make_args: Callable          # size -> tuple of arguments
    describe: Callable           # size -> short text for the table
    work: Callable               # size -> relative amount of work
    numpy: Optional[Callable] = None   # same signature and result
    c: Optional[Callable] = None       # lib -> callable with that signature
    numpy_note: str = ""         # why there is no NumPy version


def rng():
    return numpy.random.default_rng(12345)


# --- arr_sum

def arr_sum_args(n):
    r = rng()
    return r.random(n), r.random(n)


def arr_sum_np(x, y):
    return x + y


def arr_sum_c(lib):
    def run(x, y):
        out = numpy.empty_like(x)
        lib.arr_sum(ptr(x), ptr(y), ptr(out), x.shape[0])
        return out
    return run


# --- mandelbrot: size is the width, height = 3/4 of it, 100 iterations

def mandelbrot_args(width):
    return -2.0, 1.0, -1.0, 1.0, width, width * 3 // 4, 100


def mandelbrot_np(xmin, xmax, ymin, ymax, width, height, max_iter):
    cx = xmin + numpy.arange(width) * ((xmax - xmin) / width)
    cy = ymin + numpy.arange(height) * ((ymax - ymin) / height)
    cx, cy = numpy.meshgrid(cx, cy)
    zx = numpy.zeros_like(cx)
    zy = numpy.zeros_like(cx)
    counts = numpy.zeros(cx.shape, dtype=numpy.int64)
    active = numpy.ones(cx.shape, dtype=bool)
    for _ in range(max_iter):
        active &= zx * zx + zy * zy <= 4.0
        if not active.any():
            break
        zx, zy = (numpy.where(active, zx * zx - zy * zy + cx, zx),
                  numpy.where(active, 2.0 * zx * zy + cy, zy))
        counts += active
    return counts


def mandelbrot_c(lib):
    def run(xmin, xmax, ymin, ymax, width, height, max_iter):
        counts = numpy.empty((height, width), dtype=numpy.int64)
        lib.mandelbrot(xmin, xmax, ymin, ymax, width, height, max_iter,
                       ptr(counts))
        return counts
    return run


# --- n-body step (in place on pos and vel; returns the accelerations)

def nbody_args(n):
    r = rng()
    return (r.standard_normal((n, 3)), r.standard_normal((n, 3)) * 0.1,
            r.random(n) / n, 0.001, 0.01)


def nbody_np(pos, vel, mass, dt, eps):
    d = pos[None, :, :] - pos[:, None, :]            # d[i, j] = pos[j] - pos[i]
    r2 = (d * d).sum(axis=2) + eps * eps
    inv = mass[None, :] / (r2 * numpy.sqrt(r2))
    acc = (d * inv[:, :, None]).sum(axis=1)
    vel += dt * acc
    pos += dt * vel
    return acc


def nbody_c(lib):
    def run(pos, vel, mass, dt, eps):
        acc = numpy.empty_like(pos)
        lib.nbody_step(ptr(pos), ptr(vel), ptr(mass), dt, eps, pos.shape[0],
                       ptr(acc))
        return acc
    return run


# --- Jacobi sweeps of Laplace's equation: size x size grid, 10 sweeps

def jacobi_args(n):
    u = numpy.zeros((n, n))
    u[0, :] = 1.0                                   # hot top edge
    u[:, 0] = numpy.linspace(1.0, 0.0, n)
    return u, 10


def jacobi_np(u0, sweeps):
    a = u0.copy()
    b = u0.copy()
    for _ in range(sweeps):
        b[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1]
                                + a[1:-1, :-2] + a[1:-1, 2:])
        a, b = b, a
    return a


def jacobi_c(lib):
    def run(u0, sweeps):
        a = u0.copy()
        b = u0.copy()
        which = lib.jacobi(ptr(a), ptr(b), u0.shape[0], u0.shape[1], sweeps)
        return b if which else a
    return run


# --- matrix multiply

def matmul_args(n):
    r = rng()
    return r.random((n, n)), r.random((n, n))


def matmul_np(a, b):
    return a @ b


def matmul_c(lib):
    def run(a, b):
        c = numpy.empty((a.shape[0], b.shape[1]))
        lib.matmul(ptr(a), ptr(b), ptr(c), a.shape[0], a.shape[1], b.shape[1])
        return c
    return run


# --- histogram: n values into 100 bins

def histogram_args(n):
    return rng().random(n), 0.0, 1.0, 100


def histogram_np(x, lo, hi, nbins):
    # bincount, not numpy.histogram: the same bin formula as the loop, so the
    # counts agree exactly (histogram() also compares against its bin edges)
    inside = x[(x >= lo) & (x < hi)]
    return numpy.bincount(((inside - lo) * (nbins / (hi - lo))).astype(numpy.int64),
                          minlength=nbins)


def histogram_c(lib):
    def run(x, lo, hi, nbins):
        counts = numpy.empty(nbins, dtype=numpy.int64)
        lib.histogram(ptr(x), x.shape[0], lo, hi, nbins, ptr(counts))
        return counts
    return run


# --- prime sieve

def sieve_args(n):
    return (n,)


def sieve_np(n):
    is_prime = numpy.ones(n + 1, dtype=bool)
    is_prime[:2] = False
    for i in range(2, math.isqrt(n) + 1):
        if is_prime[i]:
            is_prime[i * i::i] = False
    return int(is_prime.sum())


def sieve_c(lib):
    return lambda n: lib.prime_sieve(n)


# --- prefix sum

def prefix_args(n):
    return (rng().random(n),)


def prefix_np(x):
    return numpy.cumsum(x)


def prefix_c(lib):
    def run(x):
        out = numpy.empty_like(x)
        lib.prefix_sum(ptr(x), ptr(out), x.shape[0])
        return out
    return run


# --- pairwise distances: n x 3 points -> n x n

def pairwise_args(n):
    return (rng().random((n, 3)),)


def pairwise_np(points):
    d = points[:, None, :] - points[None, :, :]
    return numpy.sqrt((d * d).sum(axis=2))


def pairwise_c(lib):
    def run(points):
        dist = numpy.empty((points.shape[0], points.shape[0]))
        lib.pairwise_distances(ptr(points), points.shape[0], points.shape[1],
                               ptr(dist))
        return dist
    return run


# --- Black-Scholes

def black_scholes_args(n):
    r = rng()
    return (r.uniform(5.0, 30.0, n), r.uniform(1.0, 100.0, n),
            r.uniform(0.25, 10.0, n), 0.02, 0.3)


def black_scholes_c(lib):
    def run(price, strike, t, rate, vol):
        call = numpy.empty_like(price)
        put = numpy.empty_like(price)
        lib.black_scholes(ptr(price), ptr(strike), ptr(t), rate, vol,
                          price.shape[0], ptr(call), ptr(put))
        return call, put
    return run


# --- fib

def fib_args(n):
    return (n,)


def fib_calls(n):
    """How many calls fib(n) makes, for scaling."""
    a, b = 1, 1                                     # calls for fib(0), fib(1)
    for _ in range(n - 1):
        a, b = b, a + b + 1
    return b if n else a


def fib_c(lib):
    return lambda n: lib.fib(n)


# --- prange reduction

def prange_args(n):
    return (rng().standard_normal(n),)


def prange_np(x):
    return numpy.exp(-x * x).sum()


def prange_c(lib):
    return lambda x: lib.prange_reduce(ptr(x), x.shape[0])


def linear(n):
    return n


def square(n):
    return n * n


KERNELS = [
    Kernel("arr_sum", 1_000_000, 100_000, arr_sum_args,
           lambda n: f"n={n:,}", linear, arr_sum_np, arr_sum_c),
    Kernel("mandelbrot", 400, 100, mandelbrot_args,
           lambda n: f"{n}x{n * 3 // 4}x100", square, mandelbrot_np,
           mandelbrot_c),
    Kernel("nbody_step", 1000, 100, nbody_args,
           lambda n: f"{n} bodies", square, nbody_np, nbody_c),
    Kernel("jacobi", 500, 100, jacobi_args,
           lambda n: f"{n}x{n} x10 sweeps", lambda n: (n - 2) ** 2, jacobi_np,
           jacobi_c),
    Kernel("matmul", 200, 50, matmul_args,
           lambda n: f"{n}x{n}", lambda n: n ** 3, matmul_np, matmul_c),
    Kernel("histogram", 1_000_000, 100_000, histogram_args,
           lambda n: f"n={n:,}, 100 bins", linear, histogram_np, histogram_c),
    Kernel("prime_sieve", 2_000_000, 200_000, sieve_args,
           lambda n: f"n={n:,}", lambda n: n * math.log(math.log(n)),
           sieve_np, sieve_c),
    Kernel("prefix_sum", 1_000_000, 100_000, prefix_args,
           lambda n: f"n={n:,}", linear, prefix_np, prefix_c),
    Kernel("pairwise_distances", 1000, 100, pairwise_args,
           lambda n: f"{n}x3 -> {n}x{n}", square, pairwise_np, pairwise_c),
    Kernel("black_scholes", 1_000_000, 20_000, black_scholes_args,
           lambda n: f"n={n:,}", linear, None, black_scholes_c,
           numpy_note="NumPy has no vectorised erf"),
    Kernel("fib", 25, 25, fib_args, lambda n: f"fib({n})", fib_calls,
           None, fib_c, numpy_note="recursion does not vectorise"),
    Kernel("prange_reduce", 4_000_000, 100_000, prange_args,
           lambda n: f"n={n:,}, parallel", linear, prange_np, prange_c),
]

BY_NAME = {k.name: k for k in KERNELS}


def outputs(result, args):
    """What a run produced: its result and its (possibly updated) array
    arguments, flattened to a list for comparison."""
    parts = list(result) if isinstance(result, tuple) else [result]
    return parts + [a for a in args if isinstance(a, numpy.ndarray)]


def mismatch(got, expected):
    """None if every output is allclose to the reference, else a message."""
    if len(got) != len(expected):
        return f"{len(got)} outputs, expected {len(expected)}"
    for i, (g, e) in enumerate(zip(got, expected)):
        g, e = numpy.asarray(g), numpy.asarray(e)
        if g.shape != e.shape:
            return f"output {i}: shape {g.shape}, expected {e.shape}"
        if not numpy.allclose(g, e, rtol=1e-7, atol=1e-9):
            bad = ~numpy.isclose(g, e, rtol=1e-7, atol=1e-9)
            where = numpy.argwhere(bad)[0] if g.ndim else ()
            return (f"output {i}: {int(bad.sum())} of {bad.size} values differ, "
                    f"first at {tuple(int(w) for w in where)}: "
                    f"{g[tuple(where)]!r} vs {e[tuple(where)]!r}")
    return None


# --- calls between compiled functions: the pairs of bench.py's calls section
# Not in KERNELS: each pair times a JIT against itself (the loop calling a
# helper / the same loop with the helper inline), and the steady-state
# geometric mean over KERNELS must stay comparable with earlier runs.

@dataclass(frozen=True)
class CallPair:
    name: str
    called: str                  # kernels.py: the loop calling a helper
    inline: str                  # kernels.py: the same loop, helper inline
    call: str                    # the call in the loop, for the table's note
    size: int                    # timed
    python_size: int             # checked against pure Python
    make_args: Callable          # size -> tuple of arguments
    describe: Callable           # size -> short text for the table


def rows_args(n):
    return (rng().random((n, 3)),)


def logistic_args(n):
    # r = 3.5: the map settles on a stable 4-cycle, so a rounding difference
    # (a fused multiply-add, a reordered product) dies out instead of growing
    # as it would at a chaotic r, and every implementation ends on one value
    return 0.5, 3.5, n


CALL_PAIRS = [
    CallPair("sqdist", "sqdist_called", "sqdist_inline",
             "s += sqdist_term(x[i], y[i])", 1_000_000, 100_000, arr_sum_args,
             lambda n: f"n={n:,}"),
    CallPair("rows", "rows_called", "rows_inline",
             "r = row(m, i), a view of m[i]", 1_000_000, 100_000, rows_args,
             lambda n: f"{n:,}x3"),
    CallPair("row_pairs", "row_pairs_called", "row_pairs_inline",
             "a, b = row_pair(m, i), views of m[i] and m[i + 1]", 1_000_000, 100_000, rows_args,
             lambda n: f"{n:,}x3"),
    CallPair("logistic", "logistic_called", "logistic_inline",
             "a = logistic_step(a, r)", 1_000_000, 100_000, logistic_args,
             lambda n: f"{n:,} steps"),
]

PAIRS_BY_NAME = {p.name: p for p in CALL_PAIRS}
