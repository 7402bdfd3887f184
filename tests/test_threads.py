"""The thread pool: get/set_num_threads, get_thread_id, RUCHEY_NUM_THREADS,
lazy start, fork safety, and lib/pool.c itself through tests/c/test_pool.c.

Parallel loops cannot be written in Python yet (no prange lowering), so the
pool is driven through ``ruchey._core._parallel_chunks(n)``: one empty
parallel loop over range(n) that reports its chunks as
(begin, end, chunk, get_thread_id() inside).
"""
import os
import shutil
import subprocess
import sys
import threading

import numpy
import pytest

from conftest import AS_NUMBA, TESTS_DIR, run_python_file

import ruchey

ROOT = os.path.dirname(TESTS_DIR)
ruchey_only = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own pool and environment")


def max_threads():
    if AS_NUMBA:
        return ruchey.config.NUMBA_NUM_THREADS
    return ruchey._core.max_threads()


def cpus():
    return len(os.sched_getaffinity(0))


@pytest.fixture(autouse=True)
def restore_thread_count():
    yield
    ruchey.set_num_threads(max_threads())


def chunk_count(n, threads):
    """lib/pool.c's rule: chunks of at least 256 iterations, 32 per thread at
    most, one per thread at least, one per iteration at most; one chunk for
    a loop run serially."""
    if n <= 0:
        return 0
    if threads <= 1:
        return 1
    return min(n, max(threads, min(n // 256, 32 * threads)))


def check_chunks(chunks, n, threads):
    """Contiguous chunks covering range(n), each run once by one of the
    loop's threads, sizes within 1."""
    k = chunk_count(n, threads)
    assert [c[2] for c in chunks] == list(range(k)), chunks
    assert all(0 <= c[3] < min(threads, k) for c in chunks), "get_thread_id() inside the chunk"
    bounds = [0] + [c[1] for c in chunks]
    assert [c[0] for c in chunks] == bounds[:-1] and bounds[-1] == n, chunks
    sizes = [c[1] - c[0] for c in chunks]
    assert not sizes or max(sizes) - min(sizes) <= 1, sizes


# ---------------------------------------------------------------- the Python API

def test_defaults():
    assert ruchey.get_num_threads() == max_threads() >= 1
    assert ruchey.get_thread_id() == 0


def test_set_num_threads():
    for n in range(1, max_threads() + 1):
        ruchey.set_num_threads(n)
        assert ruchey.get_num_threads() == n
    ruchey.set_num_threads(numpy.int64(1))
    assert ruchey.get_num_threads() == 1


@pytest.mark.parametrize("bad", [0, -1, "max+1", 2**70])
def test_set_num_threads_out_of_range(bad):
    before = ruchey.get_num_threads()
    n = max_threads() + 1 if bad == "max+1" else bad
    with pytest.raises(ValueError, match="number of threads must be between 1 and"):
        ruchey.set_num_threads(n)
    assert ruchey.get_num_threads() == before


def test_set_num_threads_not_an_integer():
    with pytest.raises(TypeError):
        ruchey.set_num_threads(1.0)


def test_set_num_threads_in_compiled_code():
    """As Numba's: compiled code sets the calling thread's count, which its
    parallel loops and later ones use; a count out of range is a ValueError,
    a non-integer a TypingError."""
    @ruchey.njit(parallel=True)
    def run(k, n):
        ruchey.set_num_threads(k)
        seen = numpy.zeros(n, numpy.int64)
        for i in ruchey.prange(n):
            seen[i] = ruchey.get_num_threads()
        return ruchey.get_num_threads(), seen

    for k in range(1, max_threads() + 1):
        count, seen = run(k, 4096)
        assert count == k and (seen == k).all() and ruchey.get_num_threads() == k
    before = ruchey.get_num_threads()
    for bad in (0, -3, max_threads() + 1):
        with pytest.raises(ValueError, match="number of threads must be between 1 and"):
            run(bad, 10)
        assert ruchey.get_num_threads() == before

    @ruchey.njit
    def by_float(x):
        ruchey.set_num_threads(x)

    with pytest.raises(ruchey.TypingError, match="must be an integer"):
        by_float(1.5)


def test_setting_is_per_thread():
    """As in Numba: set_num_threads affects the calling thread only."""
    seen = {}

    def other():
        seen["default"] = ruchey.get_num_threads()
        ruchey.set_num_threads(1)
        seen["set"] = ruchey.get_num_threads()

    ruchey.set_num_threads(max_threads())
    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen == {"default": max_threads(), "set": 1}
    assert ruchey.get_num_threads() == max_threads()


# ---------------------------------------------------------------- RUCHEY_NUM_THREADS

def run_with_threads(value, code):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    env.pop("RUCHEY_NUM_THREADS", None)
    if value is not None:
        env["RUCHEY_NUM_THREADS"] = value
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


@ruchey_only
@pytest.mark.parametrize("value,expected", [("3", 3), ("1", 1), (" 5", 5), ("12\n", 12)])
def test_env_sets_pool_size(value, expected):
    code = "import ruchey; print(ruchey.get_num_threads(), ruchey._core.max_threads())"
    assert run_with_threads(value, code) == f"{expected} {expected}"


@ruchey_only
@pytest.mark.parametrize("value", [None, "", "0", "-2", "abc", "3x", "1.5", "99999999999999999999"])
def test_env_invalid_gives_cpu_count(value):
    code = "import ruchey; print(ruchey.get_num_threads())"
    assert run_with_threads(value, code) == str(cpus())


# ---------------------------------------------------------------- no thread before the first loop

COUNT_THREADS = """
import os, threading
import numpy  # OpenBLAS starts its own threads: count after it
def count():
    return len(os.listdir("/proc/self/task")), threading.active_count()
before = count()
import ruchey
after_import = count()
ruchey.get_num_threads(); ruchey.set_num_threads(1); ruchey.get_thread_id()
after_api = count()
print(before == after_import == after_api, before, after_import, after_api)
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs /proc")
def test_import_starts_no_thread(tmp_path):
    proc = run_python_file(COUNT_THREADS, tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("True"), proc.stdout


@ruchey_only
@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs /proc")
def test_pool_starts_with_first_loop():
    code = """
import os, numpy, ruchey
count = lambda: len(os.listdir("/proc/self/task"))
before = count()
ruchey.set_num_threads(1); ruchey._core._parallel_chunks(100)
serial = count()
ruchey.set_num_threads(3); chunks = ruchey._core._parallel_chunks(100)
print(serial - before, count() - before, chunks)
"""
    out = run_with_threads("3", code)
    assert out.startswith("0 2 "), out  # a serial loop starts nothing; then 2 workers


# ---------------------------------------------------------------- parallel loops through the pool

@ruchey_only
@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 1000, 10**6 + 3])
def test_chunks(n):
    for threads in range(1, max_threads() + 1):
        ruchey.set_num_threads(threads)
        check_chunks(ruchey._core._parallel_chunks(n), n, threads)


@ruchey_only
def test_chunks_bigger_pool():
    code = """
import ruchey
for threads in range(1, 6):
    ruchey.set_num_threads(threads)
    for n in (0, 1, 2, 3, 4, 5, 6, 7, 1000, 1000003):
        print(threads, n, ruchey._core._parallel_chunks(n))
"""
    for line in run_with_threads("5", code).splitlines():
        threads, n, chunks = line.split(" ", 2)
        check_chunks(eval(chunks), int(n), int(threads))


@ruchey_only
def test_concurrent_callers():
    """Python threads running parallel loops at once (the GIL released)."""
    errors = []

    def caller(i):
        try:
            for r in range(200):
                n = 1000 + 7 * i + r
                check_chunks(ruchey._core._parallel_chunks(n), n, max_threads())
        except AssertionError as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=caller, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a parallel loop deadlocked"
    assert not errors, errors[0]


# ---------------------------------------------------------------- fork

FORK_SCRIPT = """
import multiprocessing, conftest
import ruchey

def child(q):
    out = [ruchey.get_num_threads(), ruchey.get_thread_id()]
    if not conftest.AS_NUMBA:
        out.append(ruchey._core._parallel_chunks(1000))
    q.put(out)

if __name__ == "__main__":
    if not conftest.AS_NUMBA:
        print("parent", ruchey._core._parallel_chunks(1000))  # the pool runs before the fork
    ctx = multiprocessing.get_context("fork")
    for _ in range(3):
        q = ctx.Queue()
        p = ctx.Process(target=child, args=(q,))
        p.start()
        print("child", q.get(timeout=60))
        p.join(60)
        assert p.exitcode == 0, p.exitcode
    if not conftest.AS_NUMBA:
        print("parent", ruchey._core._parallel_chunks(1000))  # and still works after
    print("done", ruchey.get_num_threads())
"""


@pytest.mark.skipif(sys.platform != "linux", reason="fork start method")
def test_fork(tmp_path):
    proc = run_python_file(FORK_SCRIPT, tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == f"done {max_threads()}"
    children = [eval(l.split(" ", 1)[1]) for l in lines if l.startswith("child")]
    assert len(children) == 3
    for c in children:
        assert c[:2] == [max_threads(), 0]
        if not AS_NUMBA:
            check_chunks(c[2], 1000, max_threads())
    for l in lines:
        if l.startswith("parent"):
            check_chunks(eval(l.split(" ", 1)[1]), 1000, max_threads())


# ---------------------------------------------------------------- lib/pool.c on its own

@pytest.mark.parametrize("threads", [None, "1", "3", "8"])
def test_pool_c(tmp_path, threads):
    """tests/c/test_pool.c against lib/pool.c: coverage, balance, nesting,
    concurrent callers, fork; prints the latency of an empty loop."""
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler")
    exe = str(tmp_path / "test_pool")
    build = subprocess.run(
        [cc, "-std=c11", "-O2", "-pthread", "-I", os.path.join(ROOT, "include"),
         os.path.join(ROOT, "lib", "pool.c"), os.path.join(ROOT, "tests", "c", "test_pool.c"),
         "-o", exe], capture_output=True, text=True, timeout=120,
        env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"})  # not the leak checker's
    assert build.returncode == 0, build.stderr
    env = dict(os.environ)
    env.pop("RUCHEY_NUM_THREADS", None)
    if threads:
        env["RUCHEY_NUM_THREADS"] = threads
    proc = subprocess.run([exe], capture_output=True, text=True, timeout=300, env=env)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
