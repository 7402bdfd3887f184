"""Dispatcher: decorator forms, lazy compilation, one specialisation per tuple of
argument types, .py_func, .signatures, inspect_llvm/inspect_asm, bad argument types."""
import gc
import subprocess
import sys
import textwrap
import re

import numpy
import pytest
import ruchey
from ruchey import jit, njit

from conftest import AS_NUMBA, assert_same, assert_same_value, float_array, int_array, make_rng, numba_deviation, run_python_file


def _poly(a, b):
    t = a * 3 - b
    return t * t + a // 2


def _decorate(form):
    if form == "jit":
        return jit(_poly)
    if form == "jit()":
        return jit()(_poly)
    if form == "njit":
        return njit(_poly)
    if form == "njit()":
        return njit()(_poly)
    if form == "jit(nopython=True)":
        return jit(nopython=True)(_poly)
    if form == "ruchey.jit":
        return ruchey.jit(_poly)
    raise AssertionError(form)


DECORATOR_FORMS = ["jit", "jit()", "njit", "njit()", "jit(nopython=True)", "ruchey.jit"]


@pytest.mark.parametrize("form", DECORATOR_FORMS)
def test_decorator_forms_compile_and_keep_py_func(form):
    f = _decorate(form)
    assert f.py_func is _poly
    assert f.signatures == []
    rng = make_rng(150)
    for a, b in zip(rng.integers(-1000, 1000, 30).tolist(), rng.integers(-1000, 1000, 30).tolist()):
        assert_same(f, a, b)
    assert len(f.signatures) == 1


def test_decorator_syntax_with_and_without_parentheses():
    @jit
    def f1(x):
        return x + 1

    @jit()
    def f2(x):
        return x + 2

    @njit
    def f3(x):
        return x + 3

    @jit(nopython=True)
    def f4(x):
        return x + 4

    assert (f1(10), f2(10), f3(10), f4(10)) == (11, 12, 13, 14)
    assert f1.py_func(10) == 11 and f4.py_func.__name__ == "f4"


def test_compilation_is_lazy_until_first_call():
    def uses_unsupported_code(x):
        return undefined_global_in_lazy_test + x  # noqa: F821

    f = jit(uses_unsupported_code)  # must not raise: nothing is compiled yet
    assert f.signatures == []
    g = jit(_poly)
    assert g.signatures == []
    assert g(2, 1) == _poly(2, 1)
    assert len(g.signatures) == 1


def test_one_specialisation_per_argument_type_tuple():
    @jit
    def f(a, b):
        return a + b

    assert f.signatures == []
    assert_same(f, 1, 2)
    assert len(f.signatures) == 1
    assert_same(f, -5, 7)  # same types: no new specialisation
    assert len(f.signatures) == 1
    assert_same(f, 1.5, 2.5)
    assert len(f.signatures) == 2
    assert_same(f, 1, 2.5)
    assert_same(f, 2.5, 1)
    assert len(f.signatures) == 4
    assert_same(f, True, False)
    assert len(f.signatures) == 5
    assert_same(f, 3, 4)
    assert_same(f, 0.5, 0.25)
    assert len(f.signatures) == 5
    assert len(set(f.signatures)) == 5


def passed_on(h, k):
    return h, (h, k)[0] == h, h & 255, k


def test_a_python_int_past_int64_is_a_uint64_as_numba_types_it():
    f = jit(passed_on)
    for h in (2**63, 2**64 - 1, 0xcbf29ce484222325, 2**63 + 12345):
        for k in (0, 1, 2**40):
            assert f(h, k) == passed_on(h, k), (h, k)
    assert str(f.signatures[0][0]) == "uint64" and ruchey.typeof(2**64 - 1) == ruchey.uint64
    assert ruchey.typeof(2**63 - 1) == ruchey.int64 == ruchey.typeof(-2**63)
    for h in (2**64, -2**63 - 1, 10**30):
        with pytest.raises(OverflowError):
            f(h, 1)


def test_array_specialisations_by_dtype_not_by_length():
    @jit
    def first_or_zero(x):
        if len(x) > 0:
            return x[0] * 2
        return 0

    rng = make_rng(151)
    for n in (1, 7, 1000):
        assert_same(first_or_zero, float_array(rng, n))
    assert len(first_or_zero.signatures) == 1
    for n in (1, 7):
        assert_same(first_or_zero, int_array(rng, n))
    assert len(first_or_zero.signatures) == 2


def test_results_are_correct_for_every_specialisation_after_growth():
    @jit
    def f(a, b):
        return a * 2 - b

    rng = make_rng(152)
    args = [(3, 4), (1.5, -2.0), (3, 0.5), (True, 2), (-7, 2**40), (0.25, True)]
    for _ in range(3):
        for a, b in args:
            assert_same(f, a, b)
        rng.shuffle(args)
    assert len(f.signatures) == 5


def test_inspect_llvm_has_one_ir_text_per_signature():
    @jit
    def f(a, b):
        return a * b + 1

    f(2, 3)
    f(2.0, 3.0)
    llvm = f.inspect_llvm()
    assert isinstance(llvm, dict)
    assert set(llvm) == set(f.signatures) and len(llvm) == 2
    for sig, text in llvm.items():
        assert isinstance(text, str) and "define" in text


def test_inspect_llvm_for_array_function():
    @jit
    def f(x, y):
        out = numpy.empty_like(x)
        for i in range(len(x)):
            out[i] = x[i] + y[i]
        return out

    f(numpy.ones(3), numpy.ones(3))
    (text,) = f.inspect_llvm().values()
    assert "define" in text


def test_inspect_asm_has_one_assembly_text_per_signature():
    @jit
    def f(a):
        return a - 1

    f(5)
    f(5.0)
    asm = f.inspect_asm()
    assert isinstance(asm, dict)
    assert set(asm) == set(f.signatures) and len(asm) == 2
    for text in asm.values():
        assert isinstance(text, str) and text.strip()


def test_inspect_llvm_and_asm_of_one_signature():
    """Numba's inspect_llvm(signature) and inspect_asm(signature): the text
    of that signature alone (an item of .signatures), the same as the
    dict's; a signature not compiled is a KeyError."""
    @jit
    def f(a):
        return a * 3

    f(5)
    f(5.0)
    for inspect in (f.inspect_llvm, f.inspect_asm):
        texts = inspect()
        for sig in f.signatures:  # (each compile numbers its symbols anew)
            one, named = inspect(sig), inspect(signature=sig)
            assert isinstance(one, str) and one.strip()
            assert re.sub(r"\d+", "", one) == re.sub(r"\d+", "", named) == re.sub(r"\d+", "", texts[sig])
        with pytest.raises(KeyError):
            inspect((ruchey.int8,))


BAD_ARGUMENTS = [[object(), object()], frozenset({1}), object()]  # a list of numbers is taken (Numba's reflected list), as bytes are (its Bytes)
BAD_IDS = ["list", "frozenset", "object"]
# None is an argument type (tests/test_optional.py): where the function
# cannot use it, the TypingError says so, as Numba's does


@jit
def add_one(x):
    return x + 1


@jit
def array_total(x):
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s


@numba_deviation("raises TypingError (not a TypeError) or accepts lists/str/None")
@pytest.mark.parametrize("bad", BAD_ARGUMENTS, ids=BAD_IDS)
def test_unsupported_argument_type_raises_type_error_scalar_function(bad):
    with pytest.raises(TypeError):
        add_one(bad)


@numba_deviation("raises TypingError (not a TypeError) or accepts lists/str/None")
@pytest.mark.parametrize("bad", BAD_ARGUMENTS, ids=BAD_IDS)
def test_unsupported_argument_type_raises_type_error_array_function(bad):
    with pytest.raises(TypeError):
        array_total(bad)


LONGDOUBLE = numpy.dtype(numpy.longdouble) != numpy.dtype(numpy.float64)


@pytest.mark.parametrize("make", [
    lambda: numpy.arange(4, dtype=numpy.longdouble), lambda: numpy.array([1.0, None]), lambda: object(),
    lambda: numpy.longdouble(2.5)], ids=["float128_array", "object_array", "object", "float128"])
def test_unsupported_arguments_raise_a_typing_error_as_numba(make):
    """Numba raises a TypingError for an argument it cannot type, which
    packages catch to convert the argument and call again; ruchey's error is
    that TypingError and a TypeError too."""
    bad = make()
    if isinstance(bad, (numpy.ndarray, numpy.longdouble)) and bad.dtype == numpy.longdouble and not LONGDOUBLE:
        pytest.skip("long double is float64 here")
    with pytest.raises(ruchey.TypingError, match="argument"):
        array_total(bad) if isinstance(bad, numpy.ndarray) else add_one(bad)
    if not AS_NUMBA:
        with pytest.raises(TypeError, match="argument 1"):
            add_one(bad)


def test_a_package_falls_back_on_the_typing_error():
    def total(a):
        try:
            return array_total(a)
        except ruchey.TypingError:
            return array_total(a.astype(float))

    data = numpy.linspace(0, 1, 7)
    assert total(data.astype(numpy.longdouble)) == array_total.py_func(data)
    assert total(numpy.array(list(data), dtype=object)) == array_total.py_func(data)


def test_none_where_a_number_is_needed_is_a_typing_error():
    from ruchey import TypingError
    with pytest.raises(TypingError, match="none"):
        add_one(None)
    with pytest.raises(TypingError, match="None"):
        array_total(None)


@numba_deviation("raises TypingError (not a TypeError)")
def test_unsupported_argument_in_second_position_raises_type_error():
    @jit
    def f(a, b):
        return a + b

    assert f(1, 2) == 3
    with pytest.raises(TypeError):
        f(1, object())
    with pytest.raises(ruchey.TypingError, match="int64 and none"):
        f(1, None)


class OwnIndexing(numpy.ndarray):
    def __getitem__(self, i):
        return 42


class OwnStores(numpy.ndarray):
    def __setitem__(self, i, v):
        pass


class Tagged(numpy.ndarray):
    """A subclass that indexes as its base does."""


@numba_deviation("Numba takes subclasses as plain arrays, ignoring their indexing")
@pytest.mark.parametrize("make, name", [
    (lambda: numpy.ma.array([1.0, 2.0], mask=[True, False]), r"numpy\.ma\.(core\.)?MaskedArray"),  # numpy.ma.core in NumPy 1
    (lambda: numpy.matrix([[1.0, 2.0]]), "numpy.matrix"),
    (lambda: numpy.arange(3.0).view(OwnIndexing), "OwnIndexing"),
    (lambda: numpy.arange(3.0).view(OwnStores), "OwnStores"),
], ids=["masked", "matrix", "getitem", "setitem"])
def test_array_subclasses_with_their_own_indexing_are_refused_by_name(make, name):
    with pytest.raises(TypeError, match=rf"argument 1 is a [\w.]*{name}, an ndarray subclass with its own indexing"):
        array_total(make())


def test_array_subclasses_that_index_as_arrays_are_taken(tmp_path):
    a = numpy.arange(4.0)
    assert array_total(a.view(Tagged)) == array_total.py_func(a)
    m = numpy.memmap(tmp_path / "data", dtype=numpy.float64, mode="w+", shape=(4,))
    m[:] = a
    assert array_total(m) == array_total.py_func(a)


@numba_deviation("Numba's message names no dtype")
@pytest.mark.parametrize("a, text", [
    (numpy.array([1, 2], ">i8"), "dtype int64 ('>i8', big-endian)"),
    (numpy.array([1.0], ">f8"), "dtype float64 ('>f8', big-endian)"),
    (numpy.array(["2020-01-01"], ">M8[D]"), "dtype datetime64[D] ('>M8[D]', big-endian)"),
    (numpy.array([1j], ">c16"), "dtype complex128 ('>c16', big-endian)"),
    (numpy.array([1.0], ">f2"), "dtype float16 ('>f2', big-endian)"),
    (numpy.zeros(2, "V3"), "dtype void24 ('|V3', no byte order)"),
], ids=["big-int64", "big-float64", "datetime64", "complex128", "float16", "void"])
def test_unsupported_dtypes_are_named_with_their_byte_order(a, text):
    with pytest.raises(TypeError, match=re.escape(text)):
        array_total(a)


def test_wrong_number_of_arguments_raises_type_error():
    @jit
    def f(a, b):
        return a + b

    with pytest.raises(TypeError):
        f(1)
    with pytest.raises(TypeError):
        f(1, 2, 3)
    assert f(1, 2) == 3


def test_dispatcher_still_works_after_bad_arguments():
    @jit
    def f(x):
        s = 0.0
        for i in range(len(x)):
            s += x[i] * 2.0
        return s

    rng = make_rng(153)
    assert_same(f, float_array(rng, 7))
    for bad in BAD_ARGUMENTS + [None, 1, 2.5]:
        try:
            f(bad)
        except Exception:
            pass
    for n in (0, 1, 7, 1000):
        assert_same(f, float_array(rng, n))
    for bad in BAD_ARGUMENTS + [None]:
        try:
            add_one(bad)
        except Exception:
            pass
    assert_same(add_one, 41)
    assert_same(add_one, 4.5)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own JIT memory")
def test_dropped_dispatchers_give_their_machine_code_back(tmp_path):
    # 1000 distinct functions compiled, called and dropped: each kept about
    # 8 KiB of code and JIT bookkeeping for good before it was released
    r = run_python_file("""
        import gc, os
        import numpy as np
        import ruchey

        def rss():
            with open("/proc/self/statm") as f:
                return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

        def make(i):
            ns = {}
            src = f"def f{i}(x, y):\\n    s = 0.0\\n    for k in range(x.shape[0]):\\n        s += x[k] * {i} + y\\n    return s\\n"
            exec(compile(src, f"<gen{i}>", "exec"), ns)
            return ruchey.njit(ns[f"f{i}"])

        a = np.ones(10)
        for i in range(100):
            assert make(i)(a, 1.0) == 10.0 * i + 10.0
        gc.collect()
        before = rss()
        for i in range(1000):
            f = make(i)
            assert f(a, 1.0) == 10.0 * i + 10.0
            del f
        gc.collect()
        print((rss() - before) / 1000)
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert float(r.stdout.split()[-1]) < 2048, r.stdout


def _scaled_sum(x, k):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * k
    return s


@pytest.mark.parametrize("dropped", ["first", "second"])
def test_dispatchers_of_one_function_keep_working_when_the_other_is_dropped(dropped):
    # two dispatchers of one function compile equal code (which ruchey
    # compiles once and shares): either may go first, the other still runs
    rng = make_rng(1902)
    x = float_array(rng, 100)
    first, second = njit(_scaled_sum), njit(_scaled_sum)
    assert_same(first, x, 3)
    assert_same(second, x, 3)
    if dropped == "first":
        del first
        kept = second
    else:
        del second
        kept = first
    gc.collect()
    for n in (0, 1, 7, 1000):
        assert_same(kept, float_array(rng, n), 2)


# ---------------------------------------------------------------- keywords and defaults

@jit
def _scaled_distance(x, y, scale=2.0, tol=1e-8):
    s = 0.0
    for i in range(x.shape[0]):
        d = abs(x[i] - y[i])
        if d > tol:
            s += d * scale
    return s


@jit
def _add(x, y):
    return x + y


def test_keyword_and_default_calls_match_python():
    rng = make_rng(1901)
    x, y = float_array(rng, 50), float_array(rng, 50)
    calls = [((x, y), {}), ((x,), {"y": y}), ((), {"y": y, "x": x}), ((x, y, 3.0), {}),
             ((x, y), {"tol": 0.5}), ((x,), {"tol": 0.1, "y": y, "scale": 0.5}), ((x, y, 1.5, 0.25), {})]
    for args, kwargs in calls:
        assert _scaled_distance(*args, **kwargs) == _scaled_distance.py_func(*args, **kwargs)
    for a, b in ((1, 2), (1.5, -2.0), (True, 3)):
        assert _add(x=a, y=b) == _add.py_func(x=a, y=b)
        assert _add(a, y=b) == _add.py_func(a, y=b)
        assert _add(**{"y": b, "x": a}) == _add.py_func(**{"y": b, "x": a})


@pytest.mark.parametrize("args, kwargs", [
    ((1.0,), {"x": 2.0}), ((1.0,), {"z": 2.0}), ((1.0,), {}), ((1.0, 2.0, 3.0), {}), ((), {}),
    ((), {"x": 1.0, "y": 2.0, "w": 3.0}), ((1.0, 2.0), {"y": 3.0}),
], ids=["duplicate", "unknown", "missing", "too-many", "none", "extra", "duplicate-last"])
def test_binding_errors_are_pythons_type_errors(args, kwargs):
    with pytest.raises(TypeError) as py_error:
        _add.py_func(*args, **kwargs)
    with pytest.raises(TypeError) as jit_error:
        _add(*args, **kwargs)
    assert str(jit_error.value) == str(py_error.value)


def test_binding_errors_name_missing_parameters_with_defaults_filled():
    x = numpy.ones(3)
    with pytest.raises(TypeError) as py_error:
        _scaled_distance.py_func(tol=1.0)
    with pytest.raises(TypeError) as jit_error:
        _scaled_distance(tol=1.0)
    assert str(jit_error.value) == str(py_error.value)
    assert _scaled_distance(x, x) == 0.0  # still callable afterwards


def test_changed_defaults_are_seen_at_the_next_call():
    @jit
    def f(a, b=1.0):
        return a * b

    assert f(3.0) == 3.0
    f.py_func.__defaults__ = (4.0,)
    assert f(3.0) == 12.0
    f.py_func.__defaults__ = (2,)  # a new type: a new specialisation
    assert f(3.0) == f.py_func(3.0) == 6.0


# A function of no parameters is called straight after its first call (its
# entry noted): each kind of result, raising, nogil, recompile() and f(1)
# must behave as the first call did.
_NULLARY_SCALE = 3


def _nullary_int():
    return 7 * _NULLARY_SCALE


def _nullary_array():
    return numpy.arange(5.0) * _NULLARY_SCALE


def _nullary_text():
    return "ab" * _NULLARY_SCALE


def _nullary_tuple():
    return (1.5, _NULLARY_SCALE, None)


def _nullary_raises():
    raise ValueError("no value")


def _nullary_gen():
    for i in range(_NULLARY_SCALE):
        yield i


@pytest.mark.parametrize("fn", [_nullary_int, _nullary_array, _nullary_text, _nullary_tuple, _nullary_gen],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("nogil", [False, True])
def test_calls_without_arguments_match_python_after_the_first(fn, nogil):
    f = njit(nogil=nogil)(fn)
    for _ in range(3):
        if fn is _nullary_gen:
            assert_same_value(list(f.py_func()), list(f()))
        else:
            assert_same(f)


def test_calls_without_arguments_keep_raising():
    f = njit(_nullary_raises)
    for _ in range(3):
        with pytest.raises(ValueError, match="no value"):
            f()
    with pytest.raises(TypeError):
        f(1)


def test_calls_without_arguments_see_recompile():
    global _NULLARY_SCALE
    f = njit(_nullary_int)
    assert f() == f.py_func()
    _NULLARY_SCALE = 5
    try:
        assert f() == 21  # the global was frozen at compile time
        f.recompile()
        assert f() == f.py_func() == 35
    finally:
        _NULLARY_SCALE = 3


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own table of builtins")
def test_builtins_of_modules_imported_after_the_first_compile(tmp_path):
    """The first compile imports no module of the builtins' table (heapq,
    numpy.polynomial...); their functions compile once the program imports
    them."""
    script = tmp_path / "late_imports.py"
    script.write_text(textwrap.dedent("""
        import math, sys
        import numpy as np
        import ruchey

        # those this NumPy does not import itself (NumPy 1 imports numpy.polynomial)
        late = [m for m in ("heapq", "cmath", "numpy.polynomial.polynomial") if m not in sys.modules]

        @ruchey.njit
        def first(x):
            return math.cos(x) + abs(x)

        assert first(0.5) == first.py_func(0.5)
        assert not [m for m in late if m in sys.modules], [m for m in late if m in sys.modules]

        import cmath, heapq
        from numpy.polynomial import polynomial as P

        @ruchey.njit
        def later(h, c, x):
            heapq.heapify(h)
            return heapq.heappop(h), cmath.sqrt(c), P.polyval(x, np.array([1.0, 2.0, 3.0]))

        args = ([5, 1, 4], -4 + 0j, np.linspace(0.0, 1.0, 5))
        got, want = later(*args[:1] + args[1:]), later.py_func([5, 1, 4], *args[1:])
        assert got[:2] == want[:2] and np.allclose(got[2], want[2]), (got, want)
        print("ok")
    """))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
