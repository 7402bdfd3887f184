"""Real-code patterns: the shapes of loop that Numba functions in the wild
are made of, each written once as plain Python and compiled from this same
source by ruchey and by Numba (bench/real_code.py times them).

Every function here is compiled, helpers included, so a call from one to
another is a call between compiled functions.
"""
import numpy


# --- a distance with a helper per element ------------------------------------

def huber_term(a, b):
    d = abs(a - b)
    if d < 1.0:
        return 0.5 * d * d
    return d - 0.5


def huber_distance(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += huber_term(x[i], y[i])
    return s


# --- a loop calling a compiled function that returns a new array -------------

def smooth_step(a):
    out = numpy.empty_like(a)
    n = a.shape[0]
    for i in range(n):
        out[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[(i + 1) % n]
    return out


def smooth_many(a, steps):
    for _ in range(steps):
        a = smooth_step(a)
    return a


# --- powers: a runtime integer exponent, a literal square ---------------------

def minkowski(x, y, p):
    s = 0.0
    for i in range(x.shape[0]):
        s += abs(x[i] - y[i]) ** p
    return s ** (1.0 / p)


def squared_euclidean(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += (x[i] - y[i]) ** 2
    return s


# --- a reduction guarded by a branch ------------------------------------------

def canberra(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        d = abs(x[i]) + abs(y[i])
        if d > 0:
            s += abs(x[i] - y[i]) / d
    return s


# --- a binary heap on a small array: the k smallest of a stream ----------------

def heap_push(heap, n, value):
    i = n
    heap[i] = value
    while i > 0:
        parent = (i - 1) // 2
        if heap[parent] >= heap[i]:
            break
        heap[parent], heap[i] = heap[i], heap[parent]
        i = parent
    return n + 1


def heap_pop(heap, n):
    top = heap[0]
    n -= 1
    heap[0] = heap[n]
    i = 0
    while True:
        left = 2 * i + 1
        if left >= n:
            break
        big = left
        if left + 1 < n and heap[left + 1] > heap[left]:
            big = left + 1
        if heap[i] >= heap[big]:
            break
        heap[i], heap[big] = heap[big], heap[i]
        i = big
    return top


def k_smallest_sum(x, k):
    """Keeps the k smallest values seen in a max-heap of k slots."""
    heap = numpy.empty(k)
    n = 0
    for i in range(x.shape[0]):
        if n < k:
            n = heap_push(heap, n, x[i])
        elif x[i] < heap[0]:
            heap_pop(heap, n)
            heap_push(heap, n - 1, x[i])
    s = 0.0
    while n > 0:
        s += heap_pop(heap, n)
        n -= 1
    return s


# --- an exponential moving average --------------------------------------------

def ema(x, alpha):
    out = numpy.empty_like(x)
    out[0] = x[0]
    for i in range(1, x.shape[0]):
        out[i] = alpha * x[i] + (1.0 - alpha) * out[i - 1]
    return out


# --- a rejection sampler with a xorshift step ---------------------------------

def xorshift32(state):
    state ^= (state << 13) & 0xFFFFFFFF
    state ^= state >> 17
    state ^= (state << 5) & 0xFFFFFFFF
    return state


def pi_by_rejection(n, seed):
    """Draws points in the unit square until n fall inside the quarter disc."""
    state = seed
    inside = 0
    drawn = 0
    while inside < n:
        state = xorshift32(state)
        u = state / 4294967296.0
        state = xorshift32(state)
        v = state / 4294967296.0
        drawn += 1
        if u * u + v * v < 1.0:
            inside += 1
    return 4.0 * inside / drawn


# --- a 10-element dot product called from a compiled loop ---------------------

def dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def dot_rows(m, v, calls):
    t = 0.0
    rows = m.shape[0]
    for k in range(calls):
        t += dot(m[k % rows], v)
    return t
