"""The benchmark kernels, each written once as plain Python.

Every function here is run as it is by CPython (the reference), and compiled
from this identical source by ruchey and by Numba: `jitload.load()` executes
this file once per compiler as a fresh module and replaces each function by
its jitted version, so calls between functions (fib's recursion, the
helpers of the call pairs) and `prange` resolve to the compiler under test.
Nothing here may depend on either compiler; `prange` is plain `range` until
a compiler's is substituted.

The NumPy-vectorised versions, the inputs and the sizes are in specs.py, the
C versions in kernels.c.
"""
import math

import numpy

prange = range

# jit options per function (everything else gets the defaults of njit)
JIT_OPTIONS = {"prange_reduce": {"parallel": True}}


# --- kernels -------------------------------------------------------------

def arr_sum(x, y):
    result_arr = numpy.empty_like(x)
    for i in range(len(x)):
        result_arr[i] = x[i] + y[i]
    return result_arr


def mandelbrot(xmin, xmax, ymin, ymax, width, height, max_iter):
    counts = numpy.empty((height, width), dtype=numpy.int64)
    dx = (xmax - xmin) / width
    dy = (ymax - ymin) / height
    for j in range(height):
        cy = ymin + j * dy
        for i in range(width):
            cx = xmin + i * dx
            zx = 0.0
            zy = 0.0
            n = 0
            while n < max_iter and zx * zx + zy * zy <= 4.0:
                zx, zy = zx * zx - zy * zy + cx, 2.0 * zx * zy + cy
                n += 1
            counts[j, i] = n
    return counts


def nbody_step(pos, vel, mass, dt, eps):
    """One leapfrog-style step of n bodies (pos, vel: n x 3), in place."""
    n = pos.shape[0]
    acc = numpy.zeros((n, 3))
    for i in range(n):
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(n):
            dx = pos[j, 0] - pos[i, 0]
            dy = pos[j, 1] - pos[i, 1]
            dz = pos[j, 2] - pos[i, 2]
            r2 = dx * dx + dy * dy + dz * dz + eps * eps
            inv = mass[j] / (r2 * math.sqrt(r2))
            ax += dx * inv
            ay += dy * inv
            az += dz * inv
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az
    for i in range(n):
        for k in range(3):
            vel[i, k] += dt * acc[i, k]
            pos[i, k] += dt * vel[i, k]
    return acc


def jacobi(u0, sweeps):
    """`sweeps` Jacobi sweeps of Laplace's equation; the border stays fixed."""
    ny, nx = u0.shape
    a = u0.copy()
    b = u0.copy()
    for _ in range(sweeps):
        for i in range(1, ny - 1):
            for j in range(1, nx - 1):
                b[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j]
                                  + a[i, j - 1] + a[i, j + 1])
        a, b = b, a
    return a


def matmul(a, b):
    n, m = a.shape
    p = b.shape[1]
    c = numpy.zeros((n, p))
    for i in range(n):
        for k in range(m):
            aik = a[i, k]
            for j in range(p):
                c[i, j] += aik * b[k, j]
    return c


def histogram(x, lo, hi, nbins):
    counts = numpy.zeros(nbins, dtype=numpy.int64)
    scale = nbins / (hi - lo)
    for i in range(x.shape[0]):
        v = x[i]
        if v >= lo and v < hi:
            counts[int((v - lo) * scale)] += 1
    return counts


def prime_sieve(n):
    """The number of primes <= n."""
    is_prime = numpy.ones(n + 1, dtype=numpy.bool_)
    is_prime[0] = False
    is_prime[1] = False
    i = 2
    while i * i <= n:
        if is_prime[i]:
            for j in range(i * i, n + 1, i):
                is_prime[j] = False
        i += 1
    count = 0
    for i in range(n + 1):
        if is_prime[i]:
            count += 1
    return count


def prefix_sum(x):
    out = numpy.empty_like(x)
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i]
        out[i] = total
    return out


def pairwise_distances(points):
    n, d = points.shape
    dist = numpy.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(d):
                t = points[i, k] - points[j, k]
                s += t * t
            dist[i, j] = math.sqrt(s)
    return dist


def black_scholes(price, strike, t, rate, vol):
    """European call and put prices, the normal CDF through math.erf."""
    n = price.shape[0]
    call = numpy.empty(n)
    put = numpy.empty(n)
    for i in range(n):
        sqrt_t = math.sqrt(t[i])
        d1 = ((math.log(price[i] / strike[i]) + (rate + 0.5 * vol * vol) * t[i])
              / (vol * sqrt_t))
        d2 = d1 - vol * sqrt_t
        cdf1 = 0.5 * (1.0 + math.erf(d1 / math.sqrt(2.0)))
        cdf2 = 0.5 * (1.0 + math.erf(d2 / math.sqrt(2.0)))
        discounted = strike[i] * math.exp(-rate * t[i])
        call[i] = price[i] * cdf1 - discounted * cdf2
        put[i] = discounted * (1.0 - cdf2) - price[i] * (1.0 - cdf1)
    return call, put


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def prange_reduce(x):
    """sum(exp(-x**2)) with the loop spread over threads (parallel=True)."""
    total = 0.0
    for i in prange(x.shape[0]):
        total += math.exp(-x[i] * x[i])
    return total


# --- calls between compiled functions --------------------------------------
# Pairs of kernels, each the same loop twice: once calling a small helper
# per element (the helper is compiled too, so the call is one between
# compiled functions), once with the helper's body written inline.  A JIT
# that inlines the helper runs both alike; one that calls it through a
# pointer pays a call per element and loses the optimisations across it.

def sqdist_term(a, b):
    d = a - b
    return d * d


def sqdist_called(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += sqdist_term(x[i], y[i])
    return s


def sqdist_inline(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        d = x[i] - y[i]
        s += d * d
    return s


def row(m, i):
    """A helper returning an array: row i of m, a view."""
    return m[i]


def rows_called(m):
    s = 0.0
    for i in range(m.shape[0]):
        r = row(m, i)
        s += r[0] * r[0] + r[1] * r[1] + r[2] * r[2]
    return s


def rows_inline(m):
    s = 0.0
    for i in range(m.shape[0]):
        r = m[i]
        s += r[0] * r[0] + r[1] * r[1] + r[2] * r[2]
    return s


def row_pair(m, i):
    """A helper returning two arrays: rows i and i + 1 of m, views."""
    return m[i], m[i + 1]


def row_pairs_called(m):
    s = 0.0
    for i in range(m.shape[0] - 1):
        a, b = row_pair(m, i)
        s += a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    return s


def row_pairs_inline(m):
    s = 0.0
    for i in range(m.shape[0] - 1):
        a, b = m[i], m[i + 1]
        s += a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    return s


def logistic_step(a, r):
    return r * a * (1.0 - a)


def logistic_called(a, r, n):
    """n steps of the logistic map: each step needs the last one's result,
    so the call (or the inlined body) is on the loop's critical path."""
    for _ in range(n):
        a = logistic_step(a, r)
    return a


def logistic_inline(a, r, n):
    for _ in range(n):
        a = r * a * (1.0 - a)
    return a


# --- call overhead: the smallest functions of each argument shape ---------

def call_none():
    return 0


def call_int(a):
    return a


def call_float_int(a, b):
    return a + b


def call_keywords(x, y):
    return x + y


def call_defaults(a, tol=1e-8, scale=2.0):
    return a * scale + tol


def call_three_floats(x, y, z):
    return x + y + z


def call_tuple(t):
    return t[0] + t[1] + t[2]


def call_array(a):
    return a.shape[0]


def call_optional(a, out=None):
    if out is None:
        return a.shape[0]
    return out.shape[0] + 1


def call_three_arrays(a, b, c):
    return a.shape[0] + b.shape[0] + c.shape[0]


def call_fn_square(x):
    return x * x


def call_solver(fn, x):
    return fn(x) + 1.0


def call_solver_global(x):
    return call_fn_square(x) + 1.0


def call_array_out(a):
    out = numpy.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i]
    return out
