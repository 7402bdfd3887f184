"""numba.threading_layer(): the name of the layer parallel loops run on,
which packages read to choose their nesting of parallel code (EVoC tests
for "tbb", catching the ValueError of a layer not chosen yet). ruchey's
pool is a work queue over pthreads: Numba's "workqueue" once the pool is
first needed (a parallel loop, get_num_threads(), set_num_threads()), as
Numba chooses its layer when it launches its threads; before that, Numba's
ValueError."""
import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA, run_python_file

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba names the layer it loaded")


def test_the_layer_is_the_work_queue_after_a_parallel_loop():
    @ruchey.njit(parallel=True)
    def total(x):
        s = 0.0
        for i in ruchey.prange(x.shape[0]):
            s += x[i]
        return s

    x = np.random.default_rng(1).random(10_000)
    assert total(x) == pytest.approx(total.py_func(x), rel=1e-12)
    assert ruchey.threading_layer() == "workqueue"
    assert "tbb" not in ruchey.threading_layer()


@pytest.mark.parametrize("start", ["", "ruchey.get_num_threads()", "ruchey.set_num_threads(1)",
                                   "total(np.arange(100.0))",
                                   "ruchey.vectorize(['float64(float64)'], target='parallel')(lambda x: 2 * x)"])
def test_before_the_pool_is_needed_it_is_numbas_value_error(tmp_path, start):
    """Numba launches its threads for a parallel loop's run, get_num_threads(),
    set_num_threads() and the building of a parallel ufunc; not for a
    parallel function defined and not yet called."""
    r = run_python_file(f"""
        import numpy as np
        import ruchey

        @ruchey.njit(parallel=True)
        def total(x):
            s = 0.0
            for i in ruchey.prange(x.shape[0]):
                s += x[i]
            return s

        {start}
        try:
            print(ruchey.threading_layer())
        except ValueError as e:
            print("ValueError:", e)
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    expected = "ValueError: Threading layer is not initialized." if not start else "workqueue"
    assert r.stdout.strip() == expected


def test_it_is_part_of_the_api_numba_code_imports():
    assert "threading_layer" in ruchey.__all__
