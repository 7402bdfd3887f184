"""Compiling from several Python threads: one compilation per signature,
correct results, and LLVM's work done without the GIL."""
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ruchey import njit


def test_eight_threads_calling_a_new_function_get_one_compilation():
    @njit
    def scaled_sum(a):
        s = 0.0
        for i in range(len(a)):
            s += a[i] * 2
        return s
    a = np.arange(1000.0)
    start = threading.Barrier(8)

    def call(_):
        start.wait()
        return scaled_sum(a)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(call, range(8)))
    assert results == [scaled_sum.py_func(a)] * 8
    assert len(scaled_sum.signatures) == 1


def test_different_functions_compile_from_different_threads():
    def make(k):
        @njit
        def f(x):
            t = 0
            for i in range(x):
                t += i * k
            return t
        return f
    funcs = [make(k) for k in range(6)]
    with ThreadPoolExecutor(3) as pool:
        results = list(pool.map(lambda f: f(100), funcs))
    assert results == [f.py_func(100) for f in funcs]
    assert all(len(f.signatures) == 1 for f in funcs)


def test_a_signature_compiled_while_others_call_existing_ones():
    @njit
    def ident(x):
        return x
    ident(1)
    stop = threading.Event()
    errors = []

    def hammer():
        while not stop.is_set():
            if ident(5) != 5:
                errors.append("wrong result")
    threads = [threading.Thread(target=hammer) for _ in range(2)]
    for t in threads:
        t.start()
    try:
        assert ident(2.5) == 2.5 and ident(True) is True
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert not errors and len(ident.signatures) == 3
