"""numba.threading_layer(): the name of the layer parallel loops run on,
which packages read to choose their nesting of parallel code (EVoC tests
for "tbb"). ruchey's pool is a work queue over pthreads: Numba's
"workqueue", before and after a parallel loop has run."""
import numpy as np
import pytest

import ruchey
from conftest import AS_NUMBA

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba names the layer it loaded")


def test_the_layer_is_the_work_queue_before_and_after_a_parallel_loop():
    assert ruchey.threading_layer() == "workqueue"

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


def test_it_is_part_of_the_api_numba_code_imports():
    assert "threading_layer" in ruchey.__all__
