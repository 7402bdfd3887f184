"""jit's options beyond the compiler's switches, as Numba has them:
locals={...} (declared variable types: what is assigned is converted),
debug=True (accepted, changes no result: Numba's adds debug information),
forceobj=True (object mode: the Python function runs) and looplift (taken,
changing no result: Numba ignores it in nopython mode, and ruchey's object
mode runs the loops in Python); and explicit signatures seen from other
compiled functions."""
import pickle

import numpy as np
import pytest

import ruchey
from ruchey import njit

from conftest import AS_NUMBA, assert_same, float_array, make_rng, numba_deviation


# ---------------------------------------------------------------- locals

def float32_sum(a, x):
    """The reference: x and every step's sum rounded to float32 (as a float32
    variable holds them), the arithmetic in float64 (a[i] is a float64)."""
    s = np.float32(0.0)
    x = float(np.float32(x))
    for v in a:
        s = np.float32(float(s) + float(v) * x)
    return float(s)


@njit(locals={"s": ruchey.float32, "x": ruchey.float32})
def declared_sum(a, x):
    s = 0.0
    for i in range(a.size):
        s += a[i] * x
    return s


def test_locals_declares_a_float32_accumulator():
    rng = make_rng(1511)
    for n in (0, 1, 10, 1000):
        a = float_array(rng, n)
        for x in (3, 0.1, 1e-3):
            got = declared_sum(a, x)
            assert type(got) is float and got == float32_sum(a, x), (n, x)
    assert declared_sum.inspect_llvm()  # compiled, not run by the interpreter


@njit(locals={"y": ruchey.int8, "z": ruchey.uint16})
def wrapped(x):
    y = x * 100
    z = -x
    return y, z


def test_locals_converts_integers_as_numba_does():
    for x in (0, 1, 3, -2, 127, 1000):
        y, z = wrapped(x)
        assert y == int(np.array([x * 100]).astype(np.int8)[0]), x
        assert z == int(np.array([-x]).astype(np.uint16)[0]), x


@njit(locals={"out": ruchey.float64[::1]})
def declared_array(x):
    out = x * 2.0
    return out


def test_locals_declares_an_array():
    rng = make_rng(1512)
    for n in (0, 5):
        assert_same(declared_array, float_array(rng, n))


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")
def test_locals_that_cannot_hold_a_value_is_a_typing_error():
    @njit(locals={"y": ruchey.float64[:]})
    def f(x):
        y = x
        return y

    with pytest.raises(ruchey.TypingError, match="'y' is declared array.*cannot hold int64"):
        f(3)

    @njit(locals={"x": ruchey.float32})
    def g(x):
        return x

    with pytest.raises(ruchey.TypingError, match="parameter 'x' is declared float32"):
        g(np.zeros(3))
    assert g(3) == 3.0 and type(g(3)) is float


@pytest.mark.skipif(AS_NUMBA, reason="ruchey checks locals when decorating")
def test_locals_must_map_names_to_types():
    with pytest.raises(TypeError, match="locals must be a dict"):
        njit(locals=[("x", ruchey.float32)])(lambda x: x)
    with pytest.raises(TypeError, match="ruchey type"):
        njit(locals={"x": "float32x"})(lambda x: x)


def test_locals_names_not_in_the_function_are_ignored():
    @njit(locals={"nothing_here": ruchey.float32})
    def f(x):
        return x + 1

    assert_same(f, 4)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's pickling by value")
def test_locals_travel_with_a_pickled_function():
    g = pickle.loads(pickle.dumps(wrapped))
    assert g(3) == wrapped(3) == (44, 65533)


# ---------------------------------------------------------------- debug, forceobj, looplift

@njit(debug=True)
def element(a, i):
    return a[i] * 2


def test_debug_is_accepted():
    rng = make_rng(1513)
    a = float_array(rng, 5)
    for i in (0, 2, -1):
        assert_same(element, a, i)

    @njit(debug=True, boundscheck=True)
    def checked(a, i):
        return a[i]

    with pytest.raises(IndexError):
        checked(a, 5)


def test_forceobj_runs_the_python_function():
    @ruchey.jit(forceobj=True)
    def objects(x):
        return [x, str(x)], {"k": x}

    assert objects(3) == ([3, "3"], {"k": 3})
    assert objects.py_func(3) == objects(3)
    assert objects.nopython_signatures == []  # (Numba's: those compiled in nopython mode)


def test_forceobj_method_binds_its_instance():
    class Scaled:
        def __init__(self, x0):
            self.x0 = x0

        @ruchey.jit(forceobj=True)
        def times(self, x):
            a = np.empty(5, np.float32)
            for i in range(a.shape[0]):
                a[i] = self.x0 * x + i
            return a

    rng = np.random.default_rng(5)
    for x0, x in rng.integers(-50, 50, (4, 2)):
        s = Scaled(int(x0))
        np.testing.assert_array_equal(s.times(int(x)), Scaled.times.py_func(s, int(x)))
        np.testing.assert_array_equal(Scaled.times(s, int(x)), s.times(int(x)))  # unbound, called with its instance
    assert Scaled.__dict__["times"].__get__(None, Scaled) is Scaled.__dict__["times"]


def test_forceobj_with_signatures_runs_the_python_function():
    def pairs(x, n):
        return [(x, k) for k in range(n)]

    f = ruchey.jit("(float64, int64)", forceobj=True)(pairs)
    g = ruchey.jit(["(int64, int64)", (ruchey.float32, ruchey.int32)], forceobj=True)(pairs)
    rng = make_rng(1514)
    for x, n in zip(rng.normal(size=4), rng.integers(0, 5, size=4)):
        assert f(x, int(n)) == g(x, int(n)) == f.py_func(x, int(n))


def test_forceobj_reads_enclosing_variables_as_they_were_when_compiled():
    """As Numba's object mode (and nopython mode): a closure's variables are fixed when the function is
    compiled (at its signatures, else at its first call); its module's globals are read at each call."""
    rng = make_rng(1515)
    for y, shift in zip(rng.integers(-50, 50, size=4).tolist(), rng.integers(1, 9, size=4).tolist()):
        def add_y(x):
            return x + y + OFFSET_READ_LIVE

        eager = ruchey.jit("(int64,)", forceobj=True)(add_y)
        lazy = ruchey.jit(forceobj=True)(add_y)
        want = add_y(1)
        assert lazy(1) == want  # compiled at this first call
        y += shift
        assert add_y(1) == want + shift
        assert eager(1) == want and lazy(1) == want
        again = ruchey.jit("(int64,)", forceobj=True)(add_y)  # compiled again: y as it is now
        assert again(1) == want + shift
        globals()["OFFSET_READ_LIVE"] += 1
        assert eager(1) == want + 1 and again(1) == want + shift + 1


OFFSET_READ_LIVE = 0


def test_forceobj_has_numbas_overloads_and_disable_compile():
    def twice(x):
        return 2 * x

    f = ruchey.jit("(int64,)", forceobj=True)(twice)
    f.disable_compile()
    results = f.overloads
    assert list(results) == f.signatures and results[f.signatures[0]].objectmode
    rng = make_rng(1516)
    for x in rng.integers(-9, 9, size=4).tolist() + [2.5, "ab"]:  # (object mode takes any object)
        assert f(x) == results[f.signatures[0]].entry_point(x) == twice(x)


def test_forceobj_with_a_bad_signature_is_a_type_error():
    with pytest.raises(TypeError):
        ruchey.jit("(float64, nosuchtype)", forceobj=True)(lambda x, y: x)
    for sig in ("(float64,)", "(int64, int64, int64)", ["(int64, int64)", "(int64,)"]):
        with pytest.raises(TypeError, match="Signature mismatch"):
            ruchey.jit(sig, forceobj=True)(lambda x, y: x + y)
    with pytest.raises(TypeError, match="Signature mismatch"):
        ruchey.jit("(int64, int64, int64)", forceobj=True)(lambda x, *rest: x + sum(rest))  # *rest: one tuple
    f = ruchey.jit("()", forceobj=True)(lambda x, y: x + y)  # an empty signature is taken, as Numba's
    assert f(2, 3.5) == f.py_func(2, 3.5)


@pytest.mark.skipif(AS_NUMBA, reason="Numba's own runtime switch")
def test_nrt_option_is_taken_and_changes_nothing():
    # Numba's switch for its runtime: ruchey's code always has its own (arrays, exceptions with values)
    def scaled_or_raise(a, k):
        if k < 0:
            raise ValueError("negative", k)
        return a * k

    a = float_array(make_rng(1515), 6)
    for nrt in (True, False):
        f = ruchey.njit(_nrt=nrt)(scaled_or_raise)
        np.testing.assert_array_equal(f(a, 3), f.py_func(a, 3))
        with pytest.raises(ValueError) as got:
            f(a, -2)
        with pytest.raises(ValueError) as want:
            f.py_func(a, -2)
        assert got.value.args == want.value.args


def test_looplift_is_taken_and_changes_no_result():
    def summed_rows(a, label):
        total = 0.0
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                total += a[i, j] * (i - j)
        return total

    def described(a, label):  # a dict and str formatting: object mode
        return {label: summed_rows(a, label)}

    a = float_array(make_rng(1516), (4, 3))
    for options in (dict(looplift=True), dict(nopython=True, looplift=True), dict(looplift=False)):
        f = ruchey.jit(**options)(summed_rows)
        assert f(a, "x") == summed_rows(a, "x")
    g = ruchey.jit(forceobj=True, looplift=True)(described)
    assert g(a, "x") == described(a, "x")


def test_forceobj_with_signatures_runs_the_python_function_for_any_types():
    def halves(x):
        return x / 2, type(x).__name__

    f = ruchey.jit("float64(int64)", forceobj=True)(halves)
    g = ruchey.jit([(ruchey.int32,), (ruchey.float64,)], forceobj=True)(halves)
    for v in (3, 2.5, "not a number"[:0] or 7):
        assert f(v) == halves(v) == g(v)
    with pytest.raises(TypeError, match="cannot parse signature"):
        ruchey.jit("float64(no_such_type)", forceobj=True)(halves)


def test_forceobj_with_nopython_is_a_value_error():
    with pytest.raises(ValueError, match="nopython.*forceobj"):
        ruchey.jit(nopython=True, forceobj=True)(lambda x: x)
    with pytest.raises(ValueError, match="nopython.*forceobj"):  # at once, before a function is given
        ruchey.jit(nopython=True, forceobj=True)


def test_njit_ignores_forceobj_and_nopython_with_a_warning():
    def objects(x):
        return object(), x

    def doubled(a):
        return a * 2

    for name in ("forceobj", "nopython"):
        with pytest.warns(RuntimeWarning, match=f"{name} is set for njit and is ignored"):
            decorate = ruchey.njit(**{name: True})
        f = decorate(doubled)
        a = np.random.default_rng(3).random(6)
        np.testing.assert_array_equal(f(a), f.py_func(a))
        assert len(f.signatures) == 1  # compiled: nopython mode, not the interpreter
        with pytest.warns(RuntimeWarning, match=f"{name} is set for njit"):
            g = ruchey.njit(objects, **{name: True})
        with pytest.raises(ruchey.TypingError):  # object(): nopython mode refuses it
            g(3)


# ---------------------------------------------------------------- explicit signatures from compiled code

@njit("i4(i8[:])")
def narrow(a):
    return a[0]


@njit
def calls_narrow(a):
    return narrow(a)


@njit("f8(f8, i8)")
def scaled(x, n):
    return x * n


@njit
def calls_scaled(x):
    return scaled(x, 2), scaled(3, True)


def test_an_explicit_signature_holds_for_compiled_callers():
    a = np.array([2**40 + 5, 7])
    assert narrow(a) == 5
    assert calls_narrow(a) == 5  # truncated to int32 both ways
    for x in (1.5, -2.0):
        assert calls_scaled(x) == calls_scaled.py_func(x)
    assert type(calls_scaled(1.5)[0]) is float


@numba_deviation("Numba's message differs")
def test_a_call_no_explicit_signature_accepts_is_a_typing_error():
    @njit
    def bad(x):
        return narrow(x)

    with pytest.raises(ruchey.TypingError, match="no compiled signature"):
        bad(np.zeros(3))


@njit(["void(float32[:], int32[:], int32, int32)", "void(float64[:], int64[:], int64, int64)"], inline="always")
def lower_bounds(bound, components, start, end):
    """fast_hdbscan's update_component_bounds_from_block: signatures of its
    own, called with others (an int64 array beside int32 bounds)."""
    for i in range(start, end):
        c = components[i]
        if i < bound[c]:
            bound[c] = i


@njit
def calls_lower_bounds(bound, components, start):
    lower_bounds(bound, components, start, np.int32(len(components)))
    return bound


def test_inline_always_compiles_for_compiled_callers_types():
    """Numba inlines an inline="always" function before typing: its
    signatures bind calls from Python only."""
    bound = np.full(4, np.inf, dtype=np.float32)
    components = np.array([3, 1, 1, 0, 3], dtype=np.int64)
    want = bound.copy()
    lower_bounds.py_func(want, components, 1, len(components))
    np.testing.assert_array_equal(calls_lower_bounds(bound.copy(), components, np.int32(1)), want)
    with pytest.raises(TypeError):
        lower_bounds(bound, components, 0, 5)  # from Python: no signature takes these
