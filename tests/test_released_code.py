"""Code of a dropped dispatcher, kept a while for an equal module compiled later:
a function defined anew (a closure made on each call) compiles to code equal to
its last one, which it takes; what it computes and raises is its Python original's."""
import gc

import numpy as np
import pytest
from ruchey import njit

from conftest import AS_NUMBA, assert_same, float_array, int_array, make_rng, run_python_file


def _make_scaled_sum(k):
    def scaled_sum(x):
        s = 0.0
        for i in range(x.shape[0]):
            s += x[i] * k
        return s
    return njit(scaled_sum)


def _make_checked(k):
    def checked(x, i):
        if x[i] < 0:
            raise ValueError("negative item")
        return x[i] + k
    return njit(boundscheck=True)(checked)


def test_closure_made_anew_computes_as_python():
    rng = make_rng(7)
    for _ in range(3):
        for k in (1.5, -2.0, 3, 0):
            x = float_array(rng, int(rng.integers(0, 40)))
            f = _make_scaled_sum(k)
            assert_same(f, x)
            assert_same(f, int_array(rng, 9))
            del f
            gc.collect()


def test_closure_made_anew_raises_as_python():
    rng = make_rng(8)
    for _ in range(3):
        for k in (1, 2.5):
            x = int_array(rng, 6)
            x[:2] = (-3, 4)
            f = _make_checked(k)
            for i in range(-6, 6):
                if x[i] >= 0:
                    assert_same(f, x, i)
                    continue
                with pytest.raises(ValueError, match="negative item"):
                    f.py_func(x, i)
                with pytest.raises(ValueError, match="negative item"):
                    f(x, i)
            for i in (6, -7, 100):
                with pytest.raises(IndexError):
                    f.py_func(x, i)
                with pytest.raises(IndexError):
                    f(x, i)
            del f
            gc.collect()


def test_equal_functions_alive_together_and_after():
    rng = make_rng(9)
    x = float_array(rng, 17)
    kept = [_make_scaled_sum(2.0) for _ in range(3)]
    for f in kept:
        assert_same(f, x)
    del kept
    gc.collect()
    assert_same(_make_scaled_sum(2.0), x)
    assert_same(_make_scaled_sum(-1.0), x)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own JIT memory")
def test_the_same_function_compiled_again_and_dropped_holds_no_more_memory(tmp_path):
    # each dispatcher takes the code kept from the last one: none may keep it for good
    r = run_python_file("""
        import gc, os
        import numpy as np
        import ruchey

        def rss():
            with open("/proc/self/statm") as f:
                return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

        def make():
            def f(x, y):
                s = 0.0
                for k in range(x.shape[0]):
                    s += x[k] * 3.0 + y
                return s
            return ruchey.njit(f)

        a = np.ones(10)
        for i in range(200):
            assert make()(a, 1.0) == 40.0
        gc.collect()
        before = rss()
        for i in range(1000):
            f = make()
            assert f(a, 1.0) == 40.0
            del f
        gc.collect()
        print((rss() - before) / 1000)
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert float(r.stdout.split()[-1]) < 512, r.stdout
