"""Functions of Python's standard library that compiled code calls,
written as the Python they compute and compiled for each caller's
argument types (as extending.overload's implementations are).

functools.reduce(function, iterable[, initial]): an initial of None is
taken as no initial, as Numba takes it (CPython would start from None,
which no compiled function adds to).
"""
import functools
import math
import random

from ruchey import extending, types


def _reduce_from(function, iterable, initial=None):
    value = initial
    for item in iterable:
        value = function(value, item)
    return value


def _reduce_first(function, iterable, initial=None):
    items = iter(iterable)
    try:
        value = next(items)
    except StopIteration:
        raise TypeError("reduce() of empty iterable with no initial value")
    for item in items:
        value = function(value, item)
    return value


@extending.overload(functools.reduce)
def _reduce(function, iterable, initial=None):
    return _reduce_first if initial is None or isinstance(initial, types.NoneType) else _reduce_from



@extending.register_jitable
def _sum_of_arrays(iterable, start):
    """sum() of arrays (builtins/lists.c's sum_of_arrays): start + x0 + x1 + ...,
    each sum a new array, as Python's sum makes them (start is not changed)."""
    total = start
    for item in iterable:
        total = total + item
    return total

# ---------------------------------------------------------------- the random module's other draws
#
# CPython's own algorithms (Lib/random.py) on the draws compiled code makes
# from its Python stream (random.random, random.normalvariate,
# random.getrandbits), so that after random.seed(s) they give what Python
# gives after the same seed, as Numba's do.

_LOG4 = math.log(4.0)
_SG_MAGICCONST = 1.0 + math.log(4.5)
_TWOPI = 2.0 * math.pi


@extending.register_jitable
def _gammavariate(alpha, beta):
    if alpha <= 0.0 or beta <= 0.0:
        raise ValueError("gammavariate: alpha and beta must be > 0.0")
    if alpha > 1.0:  # Cheng's rejection method
        ainv = math.sqrt(2.0 * alpha - 1.0)
        bbb = alpha - _LOG4
        ccc = alpha + ainv
        while True:
            u1 = random.random()
            if not 1e-7 < u1 < 0.9999999:
                continue
            u2 = 1.0 - random.random()
            v = math.log(u1 / (1.0 - u1)) / ainv
            x = alpha * math.exp(v)
            z = u1 * u1 * u2
            r = bbb + ccc * v - x
            if r + _SG_MAGICCONST - 4.5 * z >= 0.0 or r >= math.log(z):
                return x * beta
    if alpha == 1.0:
        return -math.log(1.0 - random.random()) * beta
    while True:  # Ahrens and Dieter's method for 0 < alpha < 1
        u = random.random()
        b = (math.e + alpha) / math.e
        p = b * u
        x = p ** (1.0 / alpha) if p <= 1.0 else -math.log((b - p) / alpha)
        u1 = random.random()
        if p > 1.0:
            if u1 <= x ** (alpha - 1.0):
                break
        elif u1 <= math.exp(-x):
            break
    return x * beta


def _betavariate(alpha, beta):
    y = _gammavariate(alpha, 1.0)
    if y:
        return y / (y + _gammavariate(beta, 1.0))
    return 0.0


def _lognormvariate(mu, sigma):
    return math.exp(random.normalvariate(mu, sigma))


def _paretovariate(alpha):
    u = 1.0 - random.random()
    return u ** (-1.0 / alpha)


def _weibullvariate(alpha, beta):
    u = 1.0 - random.random()
    return alpha * (-math.log(u)) ** (1.0 / beta)


def _triangular(low=0.0, high=1.0, mode=None):
    u = random.random()
    if mode is not None and high == low:  # (CPython's ZeroDivisionError, caught: low)
        return low
    c = 0.5 if mode is None else (mode - low) / (high - low)
    if u > c:
        u = 1.0 - u
        c = 1.0 - c
        low, high = high, low
    return low + (high - low) * math.sqrt(u * c)


def _vonmisesvariate(mu, kappa):
    if kappa <= 1e-6:
        return _TWOPI * random.random()
    s = 0.5 / kappa
    r = s + math.sqrt(1.0 + s * s)
    while True:
        u1 = random.random()
        z = math.cos(math.pi * u1)
        d = z / (r + z)
        u2 = random.random()
        if u2 < 1.0 - d * d or u2 <= (1.0 - d) * math.exp(d):
            break
    q = 1.0 / r
    f = (q + z) / (1.0 + q * z)
    u3 = random.random()
    if u3 > 0.5:
        return (mu + math.acos(f)) % _TWOPI
    return (mu - math.acos(f)) % _TWOPI


@extending.register_jitable
def _randbelow(n):
    """[0, n) as CPython's: getrandbits of n's bit length until below n."""
    k, m = 0, n
    while m:
        k += 1
        m >>= 1
    r = random.getrandbits(k)
    while r >= n:
        r = random.getrandbits(k)
    return r


def _shuffle_items(x):
    for i in range(len(x) - 1, 0, -1):
        j = _randbelow(i + 1)
        x[i], x[j] = x[j], x[i]


def _shuffle_rows(x):
    for i in range(len(x) - 1, 0, -1):
        j = _randbelow(i + 1)
        row = x[i].copy()  # (a view would see the row written over it)
        x[i] = x[j]
        x[j] = row


# (each typing function takes the draw's own parameters, which bind the calls)
@extending.overload(random.gammavariate)
def _ol_gammavariate(alpha, beta):
    return _gammavariate


@extending.overload(random.betavariate)
def _ol_betavariate(alpha, beta):
    return _betavariate


@extending.overload(random.lognormvariate)
def _ol_lognormvariate(mu, sigma):
    return _lognormvariate


@extending.overload(random.paretovariate)
def _ol_paretovariate(alpha):
    return _paretovariate


@extending.overload(random.weibullvariate)
def _ol_weibullvariate(alpha, beta):
    return _weibullvariate


@extending.overload(random.triangular)
def _ol_triangular(low=0.0, high=1.0, mode=None):
    return _triangular


@extending.overload(random.vonmisesvariate)
def _ol_vonmisesvariate(mu, kappa):
    return _vonmisesvariate


@extending.overload(random.shuffle)
def _shuffle(x):
    if isinstance(x, types.Array) and x.ndim > 1:
        return _shuffle_rows
    return _shuffle_items
