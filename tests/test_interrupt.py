"""Ctrl-C (SIGINT) stops compiled loops with KeyboardInterrupt, as it stops
Python's: serial loops of every shape, parallel loops on the pool, CPU
kernels, nogil functions; the interpreter is usable afterwards. Each case
runs in a fresh interpreter that is sent SIGINT while it runs a loop that
would never end (so finishing at all is the proof)."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import AS_NUMBA, TESTS_DIR

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="Numba does not interrupt compiled loops")

# Python installs its SIGINT handler only where SIGINT is not ignored, and a
# suite started in the background (a shell's `&`, some CI runners) hands
# its processes an ignored SIGINT: the handler is installed here, as an
# interactive interpreter has it, or each case would wait out its timeout.
PRELUDE = f"""
import sys, signal, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, {TESTS_DIR!r})
import conftest
import numpy as np
from ruchey import njit, prange, cuda

@njit
def bounded(n):
    s = 0.0
    for i in range(n):
        s += i * 0.5
    return s
"""


def interrupt(tmp_path, body, setup="", env=None):
    """Runs setup (compiling what body calls), prints "ready", runs body;
    SIGINT once "ready" is read. Returns the lines printed after it."""
    script = tmp_path / "loop.py"
    script.write_text(PRELUDE + textwrap.dedent(setup) + "\nprint('ready', flush=True)\n" + textwrap.dedent(body))
    full = dict(os.environ, **(env or {}))
    full["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=full, cwd=str(tmp_path))
    try:
        assert p.stdout.readline().strip() == "ready", p.stderr.read()
        time.sleep(0.3)  # well inside the loop
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 0, err
    return out.split()


AFTER = """
except KeyboardInterrupt:
    print("KeyboardInterrupt", bounded(10), flush=True)
"""


@pytest.mark.parametrize("loop", [
    # a while loop that never ends
    """
    @njit
    def run(x):
        while x > 0:
            x += 1.0
        return x
    """,
    # one long innermost loop over a range (run in blocks)
    """
    @njit
    def run(x):
        s = 0.0
        for i in range(int(x) * 2**62):  # run(-1.0): empty
            s += np.sqrt(i * x)
        return s
    """,
    # nested loops: the outer one polls
    """
    @njit
    def run(x):
        s = 0
        for i in range(int(x) * 10**9):
            for j in range(10**9):
                s += i ^ j
        return s
    """,
    # a long loop in a callee, called from a loop (a callee's short loops run unblocked)
    """
    @njit
    def inner(x):
        s = 0.0
        for i in range(int(x) * 2**62):
            s += np.sqrt(i * x)
        return s

    @njit
    def run(x):
        t = 0.0
        for k in range(3):
            t += inner(x)
        return t
    """,
    # a loop holding arrays it allocated (released on the way out)
    """
    @njit
    def run(x):
        t = 0.0
        while True:
            a = np.full(100, x)
            t += a.sum()
            if t < 0:
                break
        return t
    """,
    # a while loop that counts to a bound too far for its copy without polls
    """
    @njit
    def run(x):
        n = 0
        m = int(x) * 2**62
        s = 0.0
        while n < m:
            s += n * x
            n += 1
        return s
    """,
    # short counted while loops (no poll of their own), in a loop that polls
    """
    @njit
    def run(x):
        t = 0
        for k in range(int(x) * 2**62):
            n = 0
            while n < 1000 and x > 0.0:
                t += n ^ k
                n += 1
        return t
    """,
    # nogil: the loop runs without the GIL
    """
    @njit(nogil=True)
    def run(x):
        while x > 0:
            x = x * 1.0000001
        return x
    """,
])
def test_ctrl_c_stops_serial_loops(tmp_path, loop):
    out = interrupt(tmp_path, "try:\n    run(1.0)\n" + AFTER, setup=textwrap.dedent(loop) + "run(-1.0)\n")
    assert out == ["KeyboardInterrupt", str(sum(i * 0.5 for i in range(10)))]


def test_ctrl_c_stops_a_parallel_loop_on_every_thread(tmp_path):
    setup = """
    @njit(parallel=True)
    def run(n):
        s = 0.0
        for i in prange(n):
            s += np.sin(i * 1.0)
        return s
    run(10)
    """
    out = interrupt(tmp_path, "try:\n    run(2**62)\n" + AFTER, setup=setup)
    assert out[0] == "KeyboardInterrupt"


def test_ctrl_c_stops_a_cpu_kernel_launch(tmp_path):
    setup = """
    @cuda.jit
    def run(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = a[i] * 2.0 + 1.0
    run[1, 32](np.zeros(4))
    """
    out = interrupt(tmp_path, "try:\n    run[2**30, 256](np.zeros(1))\n" + AFTER, setup=setup,
                    env={"RUCHEY_CUDA_BACKEND": "cpu"})
    assert out[0] == "KeyboardInterrupt"


def test_a_handler_of_the_users_runs_and_the_loop_still_stops(tmp_path):
    # a handler set before compiling; one that does not raise cannot resume
    # the loop: KeyboardInterrupt follows it
    setup = """
    seen = []
    signal.signal(signal.SIGINT, lambda *a: seen.append("handler"))
    @njit
    def run(x):
        while x > 0:
            x += 1.0
        return x
    run(-1.0)
    """
    out = interrupt(tmp_path, "try:\n    run(1.0)\nexcept KeyboardInterrupt:\n    print(seen[0], 'KeyboardInterrupt')\n",
                    setup=setup)
    assert out == ["handler", "KeyboardInterrupt"]


def test_a_ctrl_c_python_handled_does_not_stop_a_later_loop(tmp_path):
    body = """
    try:
        time.sleep(30)
    except KeyboardInterrupt:
        print("sleep interrupted", bounded(10**7) == sum(i * 0.5 for i in range(10**7)) or bounded(10**7) > 0, flush=True)
    """
    out = interrupt(tmp_path, body, setup="bounded(1)\n")
    assert out == ["sleep", "interrupted", "True"]


def test_only_the_main_threads_work_stops(tmp_path):
    # another thread's compiled loop runs to its end; the main thread,
    # waiting for it (in sleep: an interrupted join() loses track of the
    # thread in Python 3.11), gets the KeyboardInterrupt
    setup = """
    @njit(nogil=True)
    def count(n):
        c = 0
        x = 1.0
        for i in range(n):
            x = x * 1.0000001 + 1e-9
            c += 1
        return c, x
    count(10)
    result = []
    def work():
        result.append(count(3 * 10**9)[0])
    t = threading.Thread(target=work)
    t.start()
    """
    body = """
    try:
        while not result:
            time.sleep(0.02)
    except KeyboardInterrupt:
        print("main interrupted", flush=True)
    while not result:
        time.sleep(0.02)
    print(result[0], flush=True)
    """
    out = interrupt(tmp_path, body, setup=setup)
    assert out == ["main", "interrupted", str(3 * 10**9)]


def test_a_loop_nest_polling_with_the_flag_up_keeps_its_values(tmp_path):
    # another thread's loop nest polls on every iteration of its middle
    # loops while the flag is up, each poll a call that returns 0 (go on):
    # every value held across those calls is intact, the result that of
    # the same call before the Ctrl-C
    setup = """
    @njit(nogil=True)
    def nest(a, b, reps):
        n, m = a.shape
        p = b.shape[1]
        c = np.zeros((n, p))
        for r in range(reps):
            for i in range(n):
                for k in range(m):
                    aik = a[i, k] * (r + 1)
                    for j in range(p):
                        c[i, j] += aik * b[k, j]
        return c
    rng = np.random.default_rng(5)
    a, b = rng.random((37, 41)), rng.random((41, 43))
    expected = nest(a, b, 60000)
    result = []
    def work():
        result.append(nest(a, b, 60000))
    t = threading.Thread(target=work)
    t.start()
    """
    body = """
    try:
        while not result:
            time.sleep(0.02)
    except KeyboardInterrupt:
        print("main interrupted", flush=True)
    while not result:
        time.sleep(0.02)
    print(np.array_equal(result[0], expected), flush=True)
    """
    out = interrupt(tmp_path, body, setup=setup)
    assert out == ["main", "interrupted", "True"]


CATCHING = """
@njit
def run(x, n):
    caught = 0
    try:
        while x > 0:
            x += 1.0
    except {clause}:
        caught = 1
    s = 0.0
    for i in range(n):  # polls as it goes: the interrupt caught is no longer up
        s += i * 0.5
    return caught, s
run(-1.0, 10)
"""


@pytest.mark.parametrize("clause", ["", "KeyboardInterrupt", "BaseException", "(ValueError, KeyboardInterrupt)"],
                         ids=["bare", "KeyboardInterrupt", "BaseException", "tuple"])
def test_an_except_clause_that_catches_ctrl_c_consumes_it(tmp_path, clause):
    # as in Python: the loops after the clause run to their end, and no
    # KeyboardInterrupt comes later from the signal the clause consumed
    body = """
    caught, s = run(1.0, 10**7)
    print(caught, s == bounded(10**7), flush=True)
    time.sleep(0.5)
    print("after", flush=True)
    """
    assert interrupt(tmp_path, body, setup=CATCHING.format(clause=clause)) == ["1", "True", "after"]


@pytest.mark.parametrize("clause", ["Exception", "ValueError"])
def test_an_except_clause_for_errors_lets_ctrl_c_through(tmp_path, clause):
    out = interrupt(tmp_path, "try:\n    run(1.0, 10)\n" + AFTER, setup=CATCHING.format(clause=clause))
    assert out == ["KeyboardInterrupt", str(sum(i * 0.5 for i in range(10)))]


def test_ctrl_c_raised_again_from_a_bare_except_is_a_keyboard_interrupt(tmp_path):
    setup = """
    @njit
    def run(x):
        try:
            while x > 0:
                x += 1.0
        except:
            x = -x
            raise
        return x
    run(-1.0)
    """
    assert interrupt(tmp_path, "try:\n    run(1.0)\n" + AFTER, setup=setup)[0] == "KeyboardInterrupt"
