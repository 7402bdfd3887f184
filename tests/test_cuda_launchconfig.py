"""cuda.launchconfig, as numba-cuda's: a launch that compiles its kernel calls
the kernel's _compile_for_args with the launch's configuration current in
the launching thread (current_launch_config(): dispatcher, griddim,
blockdim, stream, sharedmem, args); capture_compile_config notes it; a
compile that calls mark_launch_config_sensitive() makes the kernel compile
again for each other configuration launched. The kernels' results are
compared with their Python originals run thread by thread."""
import threading

import numpy as np
import pytest

from ruchey import cuda
from ruchey.cuda import launchconfig

from conftest import AS_NUMBA, make_rng, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's launch configuration hook")


def scale(out, x, k):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] * k


def scale_by_python(out, x, k):
    """scale's py_func, run for each thread of a grid covering out."""
    for i in range(out.size):
        out[i] = x[i] * k


def inputs(*parts, n=100):
    rng = make_rng(seed_of("launchconfig", *parts))
    return rng.standard_normal(n), float(rng.uniform(-3, 3))


def checked_launch(kernel, grid, block, n, *parts):
    x, k = inputs(*parts, n=n)
    out, want = np.zeros(n), np.zeros(n)
    kernel[grid, block](out, x, k)
    scale_by_python(want, x, k)
    np.testing.assert_array_equal(out, want)


def noting_compiles(kernel, mark=False):
    """kernel's _compile_for_args replaced by one that notes each launch configuration it is called under."""
    seen = []
    compile_for_args = kernel._compile_for_args

    def noting(*args):
        config = launchconfig.ensure_current_launch_config()
        seen.append(config)
        if mark:
            config.dispatcher.mark_launch_config_sensitive()
        return compile_for_args(*args)

    kernel._compile_for_args = noting
    return seen


def test_no_launch_config_outside_a_launch():
    assert launchconfig.current_launch_config() is None
    with pytest.raises(RuntimeError, match="No launch config set for this thread"):
        launchconfig.ensure_current_launch_config()


def test_a_compiling_launch_gives_its_configuration():
    kernel = cuda.jit(scale)
    seen = noting_compiles(kernel)
    x, k = inputs("configuration")
    out = np.zeros(x.size)
    launch = kernel[(4, 1), 32, 0, 16]
    launch(out, x, k)
    assert len(seen) == 1
    config = seen[0]
    assert config.dispatcher is kernel and config.launch is launch
    assert (config.griddim, config.blockdim, config.sharedmem) == ((4, 1, 1), (32, 1, 1), 16)
    assert config.args[1] is x and config.args[2] == k
    np.testing.assert_array_equal(out, x * k)
    assert launchconfig.current_launch_config() is None and launch.args is None
    checked_launch(kernel, 4, 32, 100, "again")  # the same types: compiled already
    checked_launch(kernel, 2, 64, 100, "other block")  # another configuration, not sensitive: no compile
    assert len(seen) == 1
    kernel[1, 8](np.zeros(3, np.float32), np.ones(3, np.float32), 2.0)  # new types compile
    assert len(seen) == 2 and seen[1].blockdim == (8, 1, 1)


def test_capture_compile_config_notes_and_restores():
    kernel = cuda.jit(scale)
    own = kernel._compile_for_args
    with launchconfig.capture_compile_config(kernel) as seen:
        checked_launch(kernel, 3, 48, 120, "capture")
    assert seen["config"].griddim == (3, 1, 1) and seen["config"].blockdim == (48, 1, 1)
    assert "_compile_for_args" not in vars(kernel)
    assert kernel._compile_for_args.__func__ is own.__func__
    with pytest.raises(TypeError, match="dispatcher is required"):
        with launchconfig.capture_compile_config(None):
            pass


@pytest.mark.parametrize("configs", [[(1, 128), (4, 32), (2, 64)], [(2, 64), (2, 64), (1, 128)]])
def test_a_sensitive_compile_is_made_again_for_each_configuration(configs):
    kernel = cuda.jit(scale)
    seen = noting_compiles(kernel, mark=True)
    for i, (grid, block) in enumerate(configs + configs):
        checked_launch(kernel, grid, block, 128, i)
    first, *others = dict.fromkeys((grid, block) for grid, block in configs)
    assert [(c.griddim[0], c.blockdim[0]) for c in seen] == [first]  # the kernel's own compile
    assert next(iter(kernel.overloads.values())).launch_config_sensitive
    made = kernel._launch_config_specializations  # a kernel of its own for each other configuration
    assert sorted(made) == sorted(((g, 1, 1), (b, 1, 1), 0) for g, b in others)
    for each in made.values():
        assert len(each.signatures) == 1 and each.signatures == kernel.signatures
        assert next(iter(each.overloads.values())).launch_config_sensitive


def test_an_unmarked_kernel_is_not_launch_config_sensitive():
    kernel = cuda.jit(scale)
    checked_launch(kernel, 1, 64, 64, "unmarked")
    assert not next(iter(kernel.overloads.values())).launch_config_sensitive


def test_marking_outside_a_launching_compile_is_an_error():
    kernel = cuda.jit(scale)
    with pytest.raises(RuntimeError, match="No launch config set"):
        kernel.mark_launch_config_sensitive()
    other = cuda.jit(scale)

    def marking_another(*args):
        other.mark_launch_config_sensitive()

    kernel._compile_for_args = marking_another
    with pytest.raises(RuntimeError, match="active launch configuration's dispatcher"):
        kernel[1, 1](np.zeros(1), np.zeros(1), 1.0)


def test_each_thread_sees_its_own_launch():
    kernel = cuda.jit(scale)
    launch = kernel[1, 32]
    both_inside = threading.Barrier(2)
    seen, errors = {}, []
    compile_for_args = kernel._compile_for_args

    def noting(*args):
        config = launchconfig.ensure_current_launch_config()
        both_inside.wait(timeout=10)  # the two compiles at once
        seen[threading.get_ident()] = config.args[0]
        return compile_for_args(*args)

    kernel._compile_for_args = noting
    outs = [np.zeros(16), np.zeros(16)]
    x = np.arange(16.0)

    def run(out):
        try:
            launch(out, x, 2.0)
            seen[("out", threading.get_ident())] = out
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(out,)) for out in outs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert errors == []
    for t in threads:
        assert seen[t.ident] is seen[("out", t.ident)]
    for out in outs:
        np.testing.assert_array_equal(out, x * 2.0)
    assert launch.args is None
