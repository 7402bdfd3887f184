"""What Numba users read from a compiled function beside calling it:
signatures, overloads, nopython_signatures, stats, inspect_types(),
parallel_diagnostics(), recompile() and compile(sig). Results of calls are compared with
the Python function's."""
import io

import numpy as np
import pytest

import ruchey
from ruchey import njit, prange

from conftest import AS_NUMBA

pytestmark = pytest.mark.filterwarnings("ignore:.*prange loop runs serially:RuntimeWarning")
own_format = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own formats of these attributes")

OFFSET = 1.0


@njit
def shifted(x):
    y = x + OFFSET
    return y


@njit(parallel=True)
def energy(x, n):
    s = 0.0
    for i in prange(x.shape[0]):
        s += x[i] * x[i]
    t = 0
    for j in range(n):
        t += j
    for k in prange(n):
        if k > 3:
            break
    return s + t


def test_recompile_takes_the_globals_as_they_are_now():
    global OFFSET
    f = njit(shifted.py_func)
    assert f(1.0) == 2.0 and f(2) == 3.0
    try:
        OFFSET = 10.0
        assert f(1.0) == 2.0  # frozen at the first compile
        f.recompile()
        assert f(1.0) == f.py_func(1.0) == 11.0 and f(2) == 12.0
        assert len(f.signatures) == 2
    finally:
        OFFSET = 1.0


@own_format
def test_overloads_and_nopython_signatures_list_each_compiled_signature():
    f = njit(shifted.py_func)
    f(1.0), f(np.int32(3)), f(np.arange(3.0))
    assert list(f.overloads) == f.signatures and len(f.signatures) == 3
    for sig, result in f.overloads.items():
        assert result.signature == sig and isinstance(result.entry_point, int) and result.entry_point
    sigs = f.nopython_signatures
    assert [repr(s) for s in sigs] == ["float64(float64)", "float64(int32)",
                                       "array(float64, 1d, C)(array(float64, 1d, C))"]
    assert sigs[2].args[0] == ruchey.float64[::1] and sigs[0].return_type == ruchey.float64


def first_or_index(t, i):
    return t[i] if len(t) else i


def test_an_overloads_entry_point_calls_that_signature():
    """As Numba's: overloads[sig].entry_point(*args) runs that signature's code, each argument converted to
    its type (an int64 to an int32, a float to an int truncated, as a call that chose it converts)."""
    rng = np.random.default_rng(1517)
    f = njit(first_or_index)
    t = tuple(rng.integers(-9, 9, size=3).tolist())
    f(t, 1), f(tuple(float(x) for x in t), 2), f(np.arange(4.0), 3)
    for sig, result in f.overloads.items():
        assert result.entry_point and isinstance(result.entry_point, int)  # (still the code's address)
        for i in (0, 1, -1, 2):
            args = (t, i) if sig[0] != ruchey.float64[::1] else (np.arange(4.0) * i, i)
            want = first_or_index(*args)
            assert result.entry_point(*args) == want
    sig32 = (ruchey.types.UniTuple(ruchey.int32, 2), ruchey.int64)
    g = njit([sig32])(first_or_index)
    entry = g.overloads[sig32].entry_point
    for x, y in rng.integers(-2**31, 2**31, size=(3, 2)).tolist():
        assert entry((x, y), 1) == first_or_index((x, y), 1)
        assert entry((x, y), 1.7) == first_or_index((x, y), 1)  # (1.7 for an int64: truncated)
    with pytest.raises(IndexError):
        entry((1, 2), 2)


def test_an_entry_point_is_named_as_its_function_as_numba():
    def local(x):
        return x + 1

    for f in (njit(first_or_index), njit(local)):
        f((1, 2), 0) if f.py_func is first_or_index else f(1)
        [result] = f.overloads.values()
        entry = result.entry_point
        assert (entry.__module__, entry.__name__, entry.__qualname__) == \
            (f.py_func.__module__, f.py_func.__name__, f.py_func.__qualname__)


@own_format
def test_an_entry_point_refuses_what_its_signature_cannot_take():
    sig = (ruchey.types.UniTuple(ruchey.int32, 2),)
    f = njit([sig])(lambda t: t[0])
    entry = f.overloads[sig].entry_point
    with pytest.raises(ValueError, match=r"^size mismatch for tuple, expected 2 element\(s\) but got 3$"):
        entry((4, 5, 6))
    with pytest.raises(TypeError, match="entry point takes"):
        entry(np.arange(2))
    with pytest.raises(TypeError, match="entry point takes 1 arguments"):
        entry((1, 2), 3)
    assert entry((7, 8)) == 7


def test_a_function_called_only_from_compiled_code_lists_those_signatures():
    """As Numba compiles each function a caller calls: its signatures,
    overloads and code list the types its callers gave it, in the order they
    called it, and a later call of one from Python finds it compiled."""
    inner = njit(shifted.py_func)
    outer = njit(lambda x, a: inner(x) + inner(np.int32(2)) + inner(a)[0])
    xs = np.arange(4.0)
    assert outer(1.5, xs) == outer.py_func(1.5, xs)
    assert [tuple(sig) for sig in inner.signatures] == [
        (ruchey.float64,), (ruchey.int32,), (ruchey.float64[::1],)]
    assert list(inner.overloads) == inner.signatures
    assert [s.return_type for s in inner.nopython_signatures] == [ruchey.float64, ruchey.float64, ruchey.float64[::1]]
    assert len(inner.inspect_llvm()) == 3
    for x in (2.5, np.int32(-7), xs):
        np.testing.assert_array_equal(inner(x), inner.py_func(x))
    assert len(inner.signatures) == 3
    assert outer.signatures == [(ruchey.float64, ruchey.float64[::1])]


@own_format
def test_stats_without_a_cache_are_empty():
    shifted(1.0)
    st = shifted.stats
    assert st.cache_path is None and not st.cache_hits and not st.cache_misses


@own_format
def test_inspect_types_annotates_each_line_with_its_variables_types():
    energy(np.arange(4.0), 3)
    out = io.StringIO()
    energy.inspect_types(file=out)
    text = out.getvalue()
    assert "energy (array(float64, 1d, C), int64)" in text
    assert any(line.strip().startswith("s = 0.0") and line.endswith("# s: float64") for line in text.splitlines())
    assert any("t += j" in line and "t: int64, j: int64" in line for line in text.splitlines())
    assert "# return type: float64" in text


@own_format
def test_parallel_diagnostics_say_what_each_prange_became(capsys):
    energy(np.arange(4.0), 3)
    energy.parallel_diagnostics(level=1)
    text = capsys.readouterr().out
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if "for i in prange(x.shape[0])" in line)
    assert "runs in parallel" in lines[first + 1] and "s a reduction (+)" in lines[first + 1]
    assert "x shared" in lines[first + 1] and "i private" in lines[first + 1]
    last = next(i for i, line in enumerate(lines) if "for k in prange(n)" in line)
    assert "runs serially: a break out of the prange loop" in lines[last + 1]
    assert "for j in range(n)" not in text
    energy.parallel_diagnostics(level=2)
    assert "for j in range(n)" in capsys.readouterr().out


@own_format
def test_parallel_diagnostics_of_a_serial_function(capsys):
    shifted(1.0)
    shifted.parallel_diagnostics()
    assert "not compiled with parallel=True" in capsys.readouterr().out


def test_code_is_the_python_functions():
    """decoupler tells a compiled function by hasattr(f, "func_code"), as Numba's dispatchers have."""
    assert shifted.__code__ is shifted.py_func.__code__
    assert shifted.func_code is shifted.py_func.__code__


def test_results_match_python():
    a = np.arange(5.0)
    assert energy(a, 4) == energy.py_func(a, 4)


def test_compile_makes_a_signature_now_and_returns_what_to_call():
    f = njit(lambda x, y: x * y + OFFSET)
    g = f.compile("float64(float64, int64)")
    assert [tuple(map(str, s)) for s in f.signatures] == [("float64", "int64")]
    assert g(2.5, 3) == f.py_func(2.5, 3)
    f.compile((ruchey.types.int32, ruchey.types.int32))
    assert [tuple(map(str, s)) for s in f.signatures] == [("float64", "int64"), ("int32", "int32")]
    h = njit(lambda: np.arange(4) * OFFSET)
    np.testing.assert_array_equal(h.compile(())(), h.py_func())
    with pytest.raises(ruchey.TypingError):
        njit(lambda x: x.nothing).compile("(float64,)")


def test_a_jitted_function_on_a_class_binds_as_a_python_function():
    """Read through an instance it is a method (its instance the first argument), through the class
    the function itself, as a Python function and Numba's dispatcher are."""
    import collections

    def norm2(p):
        return p.x * p.x + p.y * p.y

    def scaled(p, k):
        return p.x * k, p.y * k

    def add(a, b):
        return a + b

    class Point(collections.namedtuple("Point", "x y")):
        norm = njit(norm2)
        times = njit(scaled)
        helper = staticmethod(njit(add))
    rng = np.random.default_rng(7)
    for x, y in rng.normal(size=(5, 2)):
        p = Point(x, y)
        assert p.norm() == Point.norm(p) == norm2(p)
        assert p.times(-2.5) == Point.times(p, -2.5) == scaled(p, -2.5)  # the instance first
        assert p.helper(x, y) == Point.helper(x, y) == add(x, y)
    with pytest.raises(TypeError):
        Point(1, 2).times(1, 2)  # one argument too many, as Python's
