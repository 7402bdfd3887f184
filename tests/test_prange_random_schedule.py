"""A prange loop whose body draws random numbers (itself or in a function
it calls) runs on Numba's static schedule: thread i runs the i-th block of
the iterations (the first n % k blocks one longer), whatever the machine's
load, so each thread's random state (its own, seeded per thread as
Numba's) draws for the same iterations on every run: a seeded run repeats
itself, and its draws are Numba's. Other loops keep the pool's dynamic
chunks."""
import importlib.machinery
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import ruchey
from ruchey import njit, prange

from conftest import AS_NUMBA

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's pool schedule")


@njit
def draw_one():
    return np.random.random()


@njit(parallel=True)
def seed_threads(base):
    for t in prange(ruchey.get_num_threads()):
        np.random.seed(base + t)


@njit(parallel=True)
def draws_and_threads(n):
    out = np.empty(n)
    tid = np.empty(n, np.int64)
    for i in prange(n):
        out[i] = np.random.random()
        tid[i] = ruchey.get_thread_id()
    return out, tid


@njit(parallel=True)
def draws_through_a_call(n):
    out = np.empty(n)
    tid = np.empty(n, np.int64)
    for i in prange(n):
        out[i] = draw_one() + np.float64(i) * 0.0
        tid[i] = ruchey.get_thread_id()
    return out, tid


@njit(parallel=True)
def sum_of_draws(n):
    s = 0.0
    for i in prange(n):
        s += np.random.standard_normal()
    return s


def blocks(n, k):
    """Numba's static schedule: thread of each iteration."""
    k = min(k, n)
    sizes = [n // k + (i < n % k) for i in range(k)]
    return np.repeat(np.arange(k), sizes)


@pytest.mark.parametrize("f", [draws_and_threads, draws_through_a_call])
def test_each_thread_runs_its_fixed_block(f):
    k = ruchey.get_num_threads()
    for n in (1, 2, 3, 5, 17, 1000, 4099):
        _, tid = f(n)
        assert (tid == blocks(n, k)).all(), n


@pytest.mark.parametrize("f", [draws_and_threads, draws_through_a_call])
def test_seeded_threads_draw_the_same_on_every_run(f):
    for n in (7, 1000, 4099):
        seed_threads(42)
        first, _ = f(n)
        seed_threads(42)
        again, _ = f(n)
        assert (first == again).all(), n
    seed_threads(42)
    total = sum_of_draws(5000)
    seed_threads(42)
    assert sum_of_draws(5000) == total


def test_each_block_draws_its_threads_seeded_stream():
    k = ruchey.get_num_threads()
    n = 1001
    seed_threads(7)
    got, tid = draws_and_threads(n)
    for t in range(min(k, n)):
        want = np.random.RandomState(7 + t).random_sample((tid == t).sum())
        assert (got[tid == t] == want).all(), t


def numba_itself():
    return importlib.machinery.PathFinder.find_spec("numba") is not None


COMPARE = """
import pickle, sys
import numpy as np
if sys.argv[1] == "ruchey":
    import ruchey
    ruchey.install_as_numba()
import numba
from numba import prange

@numba.njit
def sample(maximum, reject):
    while True:
        j = np.random.randint(maximum)
        if j != reject:
            return j

@numba.njit(parallel=True)
def seed_threads(base):
    for t in prange(numba.get_num_threads()):
        np.random.seed(base + t)

@numba.njit(parallel=True)
def pairs(n, m):
    out = np.empty((n, m), np.int64)
    for i in prange(n):
        for k in range(m):
            out[i, k] = sample(n, i)
    return out

@numba.njit(parallel=True)
def normals(n):
    out = np.empty(n)
    for i in prange(n):
        out[i] = np.random.standard_normal() + np.random.uniform(0.0, 1.0)
    return out

out = []
for n in (3, 300, 1001):
    seed_threads(11)
    out.append(pairs(n, 6))
    out.append(normals(n))
sys.stdout.buffer.write(pickle.dumps(out))
"""


@pytest.mark.skipif(not numba_itself(), reason="needs Numba itself")
def test_seeded_parallel_draws_equal_numbas():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p), NUMBA_NUM_THREADS="2",
               RUCHEY_NUM_THREADS="2")
    results = []
    for mode in ("numba", "ruchey"):
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(COMPARE), mode], capture_output=True,
                              timeout=600, env=env)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        results.append(pickle.loads(done.stdout))
    want, got = results
    for w, g in zip(want, got):
        assert (w == g).all()
