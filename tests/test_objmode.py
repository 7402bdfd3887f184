"""`with objmode(name=type, ...):` blocks, as Numba's numba.objmode: the
block runs in the interpreter with the compiled function's variables it
reads, and the names declared come back into compiled code as numbers,
bools or arrays of the types given (strings or ruchey.types objects). Against the
Python original on generated inputs; a Python exception inside is raised
from the compiled call; bad blocks are clear TypingErrors."""
import subprocess
import sys
import textwrap
import warnings

import numpy
import pytest
import ruchey
from ruchey import njit, objmode

from conftest import make_rng


def python_only_sum(a):
    return float(sum(a.tolist()))


@njit
def mixed(x, a):
    y = x * 2.0
    with objmode(z="float64", k="int64"):
        z = python_only_sum(a) + y
        k = len(repr(z))
    return z + 1.0, k


@njit
def types_as_objects(n):
    total = 0.0
    for i in range(n):
        with objmode(s=ruchey.float64, flag=ruchey.boolean):
            s = float(i) ** 0.5
            flag = i % 2 == 0
        if flag:
            total += s
    return total


@njit
def updates_a_variable(x):
    y = x
    with objmode(y="float64"):
        y = y * 3.0 + 1.0
    return y


@njit
def no_outputs(x):
    with objmode():
        warnings.warn("from an objmode block", UserWarning)
    return x + 1


@njit
def int32_output(x):
    with objmode(r="int32"):
        r = int(x) * 2
    return r


@njit
def raises_inside(x):
    with objmode(r="float64"):
        r = 1.0 / x
    return r


@pytest.mark.parametrize("seed", range(5))
def test_inputs_and_outputs(seed):
    rng = make_rng(seed)
    x = float(rng.uniform(-10, 10))
    a = rng.standard_normal(int(rng.integers(0, 20)))
    assert mixed(x, a) == mixed.py_func(x, a)
    n = int(rng.integers(0, 30))
    assert types_as_objects(n) == pytest.approx(types_as_objects.py_func(n), rel=1e-15)
    assert updates_a_variable(x) == updates_a_variable.py_func(x)


def test_output_type_conversion():
    assert int32_output(21.7) == 42 and type(int32_output(21.7)) is int


def test_no_outputs_runs_the_block():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert no_outputs(2) == 3
    assert [str(w.message) for w in caught] == ["from an objmode block"]


def report(items, scale, context=None):
    """A block whose loop variable and branch locals are its own (PySDM's
    warn()): only scale is the compiled function's."""
    with objmode(total="float64"):
        total = 0.0
        if context is not None:
            for var in context:
                total += var * scale
        else:
            for k in range(items):
                part = k * scale
                total += part
    return total


def test_names_a_block_assigns_before_reading_are_its_own():
    f = njit(report)
    for items, scale in zip(range(5), make_rng(21).uniform(-2, 2, 5)):
        assert f(items, scale) == report(items, scale)


def test_exception_inside_is_raised():
    with pytest.raises(ZeroDivisionError):
        raises_inside.py_func(0.0)
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        raises_inside(0.0)
    assert raises_inside(4.0) == 0.25


def test_wrong_result_is_a_type_error():
    @njit
    def not_a_number():
        with objmode(r="float64"):
            r = "text"
        return r
    with pytest.raises(TypeError):
        not_a_number()


def correlated(x, y):
    with objmode(a="float64[:]", n="int64"):
        a = numpy.correlate(x, y, mode="full")
        n = len(a)
    return a.max(), n, a, a[::2].sum()


def fresh_arrays_summed(k, size):
    s = 0.0
    for i in range(k):
        with objmode(a="float64[::1]"):
            a = numpy.ones(size) * i
        s += a.sum()
    return s


def test_array_outputs_come_back_owned():
    """An array made in the block lives on in compiled code (the block's
    reference gone) and is returned as it is."""
    f = njit(correlated)
    rng = make_rng(11)
    for _ in range(5):
        x = rng.standard_normal(int(rng.integers(1, 40)))
        y = rng.standard_normal(int(rng.integers(1, 40)))
        got, expected = f(x, y), correlated(x, y)
        assert got[:2] == expected[:2] and got[3] == expected[3]
        numpy.testing.assert_array_equal(got[2], expected[2])
    g = njit(fresh_arrays_summed)
    assert g(50, 100) == fresh_arrays_summed(50, 100)


def test_an_array_output_of_another_dtype_or_layout_is_a_type_error():
    @njit
    def ints_for_floats(x):
        with objmode(a="float64[:]"):
            a = x.astype(numpy.int64)
        return a

    @njit
    def strided_for_contiguous(x):
        with objmode(a="float64[::1]"):
            a = x[::2]
        return a

    @njit
    def list_for_array(x):
        with objmode(a="float64[:]"):
            a = [1.0]
        return a

    for f in (ints_for_floats, strided_for_contiguous, list_for_array):
        with pytest.raises(TypeError, match="output 1 is declared"):
            f(numpy.arange(4.0))


def test_a_tuple_output_is_a_typing_error():
    @njit
    def tuple_out():
        with objmode(r=ruchey.types.UniTuple(ruchey.types.float64, 2)):
            r = (1.0, 2.0)
        return r
    with pytest.raises(ruchey.TypingError, match="objmode output"):
        tuple_out()


def test_unknown_type_is_a_typing_error():
    @njit
    def unknown():
        with objmode(r="float65"):
            r = 1.0
        return r
    with pytest.raises(ruchey.TypingError, match="type"):
        unknown()


def test_other_with_statements_are_refused():
    @njit
    def other():
        with open("x") as f:
            pass
    with pytest.raises(ruchey.TypingError, match="'with' is not supported"):
        other()


def test_refused_with_parallel():
    @njit(parallel=True)
    def par(x):
        with objmode(r="float64"):
            r = x + 1.0
        return r
    with pytest.raises(ruchey.TypingError, match="parallel"):
        par(1.0)


def test_runs_outside_compiled_code():
    assert mixed.py_func(1.0, numpy.ones(2)) == (5.0, 3)


def test_numba_objmode_is_ruchey_objmode():
    code = textwrap.dedent("""
        import ruchey
        ruchey.install_as_numba()
        import numba
        from numba import njit, objmode
        assert objmode is ruchey.objmode

        @njit
        def f(x):
            with objmode(y="float64"):
                y = x * 2
            return y
        print(f(2.5))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["5.0"], out.stderr


def test_never_cached(tmp_path):
    (tmp_path / "mod.py").write_text(textwrap.dedent("""
        from ruchey import njit, objmode

        @njit(cache=True)
        def f(x):
            with objmode(y="float64"):
                y = x * 2
            return y

        print(f(2.0))
    """))
    for _ in range(2):  # the second run would load what the first stored
        out = subprocess.run([sys.executable, "mod.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0 and out.stdout.split() == ["4.0"], out.stderr
    assert not list(tmp_path.glob("__pycache__/*.rbc"))


@njit
def seed_or_drawn(seed):
    if seed is None:
        with objmode(seed="optional(uint8)"):
            seed = int(python_only_sum(numpy.arange(4.0)))
    return seed


@njit
def maybe_none(x):
    with objmode(r="optional(float64)"):
        r = None if x < 0 else x * 2.0
    return r


def test_optional_outputs_come_back_as_a_value_or_none():
    assert seed_or_drawn(None) == seed_or_drawn.py_func(None) == 6
    assert seed_or_drawn(300) == 300  # a given seed is the argument itself
    for x in (-1.0, 0.0, 2.5):
        assert maybe_none(x) == maybe_none.py_func(x)


def test_optional_array_outputs_are_refused():
    @njit
    def arrays():
        with objmode(r="optional(float64[:])"):
            r = None
        return r

    with pytest.raises(ruchey.TypingError, match="objmode output"):
        arrays()


def made_inputs_read_in_python(n):
    total = 0.0
    for i in range(n):
        made = numpy.arange(10.0) * i  # an array compiled code owns
        label = str(i) + "x"  # a str it owns
        with objmode(r="float64", k="int64"):
            r = float(made.sum())
            k = len(label)
        total += r + k + made[1]
    return total


def test_values_compiled_code_made_are_lent_to_the_block_not_given():
    """Arrays and strs the function made are boxed for the block with a
    reference of their own: the function still holds them after it."""
    f = njit(made_inputs_read_in_python)
    for n in (1, 5, 300):
        assert f(n) == made_inputs_read_in_python(n)
