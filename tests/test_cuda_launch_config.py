"""kernel[griddim, blockdim, stream, sharedmem] is a launch configuration, as
numba-cuda's: its griddim and blockdim as 3-tuples, stream, sharedmem and
dispatcher; its pre_launch_callbacks run as callback(kernel, config) before
each launch (kernel: overloads[the arguments' types]) and the launch's results
are the kernel's, compared with NumPy; it pickles (a kernel configured again),
except with callbacks, which numba-cuda's PicklingError refuses."""
import pickle

import numpy as np
import pytest

from ruchey import cuda, types

from conftest import AS_NUMBA, make_rng, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="numba-cuda's launches need a GPU under Numba")


@cuda.jit
def scaled(out, x, k):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * k


@pytest.mark.parametrize("grid, block", [(1, 32), ((2,), (16, 2)), ((3, 1), (8, 2, 2))])
def test_configuration_attributes(grid, block):
    cfg = scaled[grid, block]
    pad = lambda d: tuple(d if isinstance(d, tuple) else (d,)) + (1,) * (3 - len(d if isinstance(d, tuple) else (d,)))
    assert cfg.griddim == pad(grid) and cfg.blockdim == pad(block)
    assert cfg.dispatcher is scaled and cfg.stream == 0 and cfg.sharedmem == 0 and cfg.pre_launch_callbacks == []
    again = pickle.loads(pickle.dumps(cfg))
    assert (again.griddim, again.blockdim, again.stream, again.sharedmem) == \
        (cfg.griddim, cfg.blockdim, cfg.stream, cfg.sharedmem)


def test_pre_launch_callbacks_run_before_each_launch(request):
    rng = make_rng(seed_of(request))
    seen = []
    cfg = scaled[2, 32]

    def callback(kernel, config):
        seen.append((kernel.signature, config.griddim, config.blockdim))

    cfg.pre_launch_callbacks.append(callback)
    for dtype in (np.float64, np.int32):
        x = (rng.normal(size=64) * 10).astype(dtype)
        out = np.zeros_like(x)
        cfg(out, x, dtype(3))
        np.testing.assert_array_equal(out, x * dtype(3))
    assert [s[1:] for s in seen] == [((2, 1, 1), (32, 1, 1))] * 2
    assert seen[0][0] == (types.float64[::1], types.float64[::1], types.float64)
    assert seen[0][0] in scaled.overloads and seen[1][0] in scaled.overloads
    assert scaled[2, 32] is not cfg and scaled[2, 32].pre_launch_callbacks == []  # (its own callbacks only)
    with pytest.raises(pickle.PicklingError, match="Cannot pickle configured launches with pre-launch callbacks"):
        pickle.dumps(cfg)


def test_callback_error_stops_the_launch():
    cfg = scaled[1, 8]

    def refuse(kernel, config):
        raise RuntimeError("not now")

    cfg.pre_launch_callbacks.append(refuse)
    out = np.zeros(8)
    with pytest.raises(RuntimeError, match="not now"):
        cfg(out, np.ones(8), 2.0)
    assert not out.any()
