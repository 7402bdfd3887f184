"""jit_module(**options): a module compiles every function it defines,
those it imported left as they are. Results are compared with the Python
functions'."""
import importlib.util
import logging
import sys
import textwrap

import numpy as np
import pytest

from conftest import AS_NUMBA

MODULE = textwrap.dedent("""
    import numpy as np
    from math import hypot
    from ruchey import jit, jit_module

    def inc(x):
        return x + 1

    def add(x, y):
        return x + y

    def inc_add(x):
        return add(x, inc(x))

    def total(a):
        s = 0
        for v in a:
            s += v
        return s

    def share(x, y):
        return x / y

    @jit(error_model="python")
    def ratio(x, y):
        return x / y

    scale = lambda x: 2 * x

    mean = np.mean

    class Point:
        pass

    jit_module({options})
""")


def load_module(tmp_path, name, **options):
    path = tmp_path / f"{name}.py"
    path.write_text(MODULE.format(options=", ".join(f"{k}={v!r}" for k, v in options.items())))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # where Numba's jit_module looks for it
    spec.loader.exec_module(module)
    return module


def test_jit_module_compiles_the_functions_the_module_defines(tmp_path):
    m = load_module(tmp_path, "jitted_defaults")
    for f in (m.inc, m.add, m.inc_add, m.total, m.share, m.scale):
        assert f.py_func.__module__ == "jitted_defaults" and f.py_func is not f
    assert m.mean is np.mean and m.hypot.__module__ == "math" and isinstance(m.Point, type)
    for x in (1, -3, 1.7, 2**40, -0.0, np.float32(0.25)):
        assert m.inc(x) == m.inc.py_func(x) and m.inc_add(x) == m.inc_add.py_func(x)
        assert m.add(x, 2.5) == m.add.py_func(x, 2.5) and m.scale(x) == m.scale.py_func(x)
    for a in (np.arange(7.0), np.array([], dtype=np.int64), np.array([3, -2, 5], dtype=np.int32)):
        assert m.total(a) == m.total.py_func(a)
    assert len(m.inc.signatures) == 3  # int64, float64 and float32


def test_jit_module_options_apply_and_decorated_functions_keep_theirs(tmp_path):
    m = load_module(tmp_path, "jitted_numpy_errors", nopython=True, error_model="numpy")
    assert m.share(1.0, 0.0) == np.inf and np.isnan(m.share(0.0, 0.0))  # NumPy's error model
    with pytest.raises(ZeroDivisionError):
        m.share.py_func(1.0, 0.0)
    with pytest.raises(ZeroDivisionError):
        m.ratio(1.0, 0.0)  # its own jit(error_model="python")
    assert m.ratio(3.0, 4.0) == m.ratio.py_func(3.0, 4.0)


def test_jit_module_logs_each_function_at_debug_level(tmp_path, caplog):
    with caplog.at_level(logging.DEBUG):
        load_module(tmp_path, "jitted_logged", error_model="numpy")
    text = caplog.text
    assert "Auto decorating function" in text and "from module jitted_logged" in text
    assert "{'error_model': 'numpy'}" in text and "ratio" not in text


@pytest.mark.skipif(AS_NUMBA, reason="Numba refuses an unknown option at the first call")
def test_jit_module_with_an_unknown_option_raises_type_error(tmp_path):
    with pytest.raises(TypeError, match="nonsense"):
        load_module(tmp_path, "jitted_badly", nonsense=True)
