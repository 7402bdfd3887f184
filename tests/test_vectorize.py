"""@vectorize: NumPy ufuncs whose loops are compiled functions of scalars.

Every result is compared with NumPy applying the function's Python
original elementwise (numpy.vectorize of py_func) on generated inputs of
several layouts, and with NumPy's own behaviour for the ufunc machinery
(broadcasting, out=, where=, reduce, casting, errors)."""
import math

import numpy as np
import pytest
import ruchey
from ruchey import njit, vectorize

from conftest import AS_NUMBA, make_rng, math_domain_error

SIGS = ["float64(float64, float64)", "float32(float32, float32)", "int64(int64, int64)"]
NARROW_FIRST = ["int64(int64, int64)", "float32(float32, float32)", "float64(float64, float64)"]


def axpb(a, b):
    return a * 2 + b


def clipped(a, b):
    if a > b:
        return a - b
    return b * 0.5


def int_div(a, b):
    return a // b


def domain(a):
    return math.sqrt(a) + 1.0


def reference(func, *args, otypes):
    """NumPy applying the Python function to each element."""
    return np.vectorize(func, otypes=otypes)(*args)


def layouts(rng, dtype, n=37):
    base = (rng.standard_normal(2 * n) * 50).astype(dtype)
    yield base[:n]                       # contiguous
    yield base[::2]                      # strided
    yield base[::-2]                     # reversed
    yield np.asfortranarray(base[:36].reshape(6, 6))  # 2-d, Fortran order


# ---------------------------------------------------------------- eager signatures

def test_eager_is_a_numpy_ufunc_with_a_loop_per_signature():
    f = vectorize(SIGS)(axpb)
    assert isinstance(f, np.ufunc)
    assert f.nin == 2 and f.nout == 1
    assert f.types == ["dd->d", "ff->f", "ll->l"]
    assert f.__name__ == "axpb"


def test_vectorize_of_a_compiled_function_is_of_its_python_one():
    compiled = njit(axpb)
    lazy, eager = vectorize(compiled), vectorize(SIGS)(compiled)
    x = np.linspace(-3.0, 3.0, 11)
    np.testing.assert_array_equal(lazy(x, 2.5), [axpb(v, 2.5) for v in x])
    np.testing.assert_array_equal(eager(x, 2.5), lazy(x, 2.5))


def first_safe_loop(sigs, *dtypes):
    """The dtype of the first signature every input casts to safely: the
    loop Numba's ufuncs take, in the order the signatures are listed."""
    for sig in sigs:
        ret, args = sig.rstrip(")").split("(")
        if all(np.can_cast(d, np.dtype(a.strip())) for d, a in zip(dtypes, args.split(","))):
            return np.dtype(ret)


@pytest.mark.parametrize("sigs", [SIGS, NARROW_FIRST], ids=["wide-first", "narrow-first"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8])
@pytest.mark.parametrize("func", [axpb, clipped])
def test_eager_matches_python_on_every_layout(func, dtype, sigs):
    f = vectorize(sigs)(func)
    loop = first_safe_loop(sigs, np.dtype(dtype), np.dtype(dtype))
    rng = make_rng(1)
    for a in layouts(rng, dtype):
        b = (rng.standard_normal(a.shape) * 50).astype(dtype)
        got = f(a, b)
        assert got.dtype == loop and got.shape == a.shape
        expected = reference(func, a.astype(loop), b.astype(loop), otypes=[loop])
        np.testing.assert_allclose(got, expected, rtol=1e-6 if loop == np.float32 else 1e-12)


def test_the_first_loop_taking_the_operands_safely_is_taken_as_numbas():
    """Numba's rule, not an exact match first: float64(float64) listed
    before float32(float32) computes float32 operands in float64, from
    Python and from compiled code alike."""
    wide = vectorize(["float64(float64)", "float32(float32)"])(lambda v: v / 3)
    narrow = vectorize(["float32(float32)", "float64(float64)"])(lambda v: v / 3)

    @njit
    def on(x):
        return wide(x), narrow(x), wide(x[0]), narrow(x[0])
    x = np.arange(1, 6, dtype=np.float32)
    for got in (on(x), (wide(x), narrow(x), wide(x[0]), narrow(x[0]))):
        assert got[0].dtype == np.float64 and got[1].dtype == np.float32
        np.testing.assert_array_equal(got[0], x.astype(np.float64) / 3)
        np.testing.assert_array_equal(got[1], x / np.float32(3))
        assert got[2] == np.float64(x[0]) / 3 and got[3] == x[0] / np.float32(3)  # (1/3 in each width)


def test_broadcasting_out_and_where():
    f = vectorize(SIGS)(axpb)
    rng = make_rng(2)
    a, b = rng.random((4, 1)), rng.random((1, 5))
    np.testing.assert_array_equal(f(a, b), reference(axpb, a, b, otypes=[np.float64]))
    out = np.full((4, 5), -1.0)
    assert f(a, b, out=out) is out
    np.testing.assert_array_equal(out, reference(axpb, a, b, otypes=[np.float64]))
    mask = rng.random((4, 5)) > 0.5
    out = np.full((4, 5), -1.0)
    f(a, b, out=out, where=mask)
    np.testing.assert_array_equal(out, np.where(mask, reference(axpb, a, b, otypes=[np.float64]), -1.0))


def test_scalars_give_scalars():
    f = vectorize(SIGS)(axpb)
    r = f(2.0, 3.5)
    assert isinstance(r, np.float64) and r == axpb(2.0, 3.5)
    r = f(np.float32(1.5), np.float32(2))  # the first loop taking them safely: float64, as Numba's
    assert isinstance(r, np.float64) and r == 5.0
    r = vectorize(NARROW_FIRST)(axpb)(np.float32(1.5), np.float32(2))
    assert isinstance(r, np.float32) and r == np.float32(5.0)
    assert f(3, 4) == 10  # NumPy takes the first loop the ints cast to safely: float64


def test_casting_follows_numpy_loop_search():
    f = vectorize(["float64(float64, float64)"])(axpb)
    ints = np.arange(5, dtype=np.int32)
    got = f(ints, ints)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, ints * 2.0 + ints)
    g = vectorize(["float32(float32, float32)", "float64(float64, float64)"])(axpb)
    assert g(np.ones(3, np.int8), np.ones(3, np.float32)).dtype == np.float32
    assert g(np.ones(3, np.int64), np.ones(3, np.float32)).dtype == np.float64


def test_unsupported_input_types_raise_numpy_type_error():
    f = vectorize(["float64(float64, float64)"])(axpb)
    with pytest.raises(TypeError, match="ufunc 'axpb' not supported for the input types"):
        f(np.ones(3, np.complex128), 1.0)
    with pytest.raises(TypeError):
        f(np.array(["a", "b"]), 1.0)


def test_reduce_and_accumulate_with_identity():
    add = vectorize(["float64(float64, float64)", "int64(int64, int64)"], identity=0)(lambda a, b: a + b)
    rng = make_rng(3)
    x = rng.random((6, 7))
    np.testing.assert_allclose(add.reduce(x), np.add.reduce(x))
    np.testing.assert_allclose(add.reduce(x, axis=1), np.add.reduce(x, axis=1))
    np.testing.assert_allclose(add.accumulate(x[0]), np.add.accumulate(x[0]))
    assert add.reduce(np.empty(0)) == 0.0
    assert add.identity == 0
    mx = vectorize(["float64(float64, float64)"], identity="reorderable")(lambda a, b: max(a, b))
    assert mx.reduce(x, axis=None) == x.max()
    with pytest.raises(ValueError):
        mx.reduce(np.empty(0))
    none = vectorize(["float64(float64, float64)"])(lambda a, b: a - b)
    assert none.identity is None
    np.testing.assert_allclose(none.reduce(x[0]), np.subtract.reduce(x[0]))


def test_unary_and_ternary():
    sq = vectorize(["float64(float64)"])(lambda a: a * a)
    x = np.arange(10.0)
    np.testing.assert_array_equal(sq(x), x * x)
    fma = vectorize(["float64(float64, float64, float64)"])(lambda a, b, c: a * b + c)
    np.testing.assert_array_equal(fma(x, x, 1.0), x * x + 1.0)
    assert fma.nin == 3


def test_bool_and_small_int_loops():
    both = vectorize(["boolean(float64, float64)"])(lambda a, b: a > b and b > 0)
    rng = make_rng(4)
    a, b = rng.standard_normal(50), rng.standard_normal(50)
    got = both(a, b)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, (a > b) & (b > 0))
    inc = vectorize(["uint8(uint8)"])(lambda a: a + 1)
    np.testing.assert_array_equal(inc(np.array([0, 254, 255], np.uint8)), np.array([1, 255, 0], np.uint8))


def test_errors_in_the_loop_give_numpys_values_as_numbas_do():
    """Numba compiles a ufunc's loops with NumPy's error model, as NumPy's own
    loops compute: x // 0 is 0, x / 0 inf, math.sqrt(-1.0) NaN, with NumPy's
    warnings, no exception."""
    f = vectorize(["int64(int64, int64)"])(int_div)
    a, b = np.arange(10), np.ones(10, np.int64)
    b[7] = 0
    got = f(a, b)
    assert got[7] == 0 and np.array_equal(np.delete(got, 7), np.delete(a, 7))
    g = vectorize(["float64(float64)"])(domain)
    assert np.isnan(g(np.array([1.0, 4.0, -1.0]))[2])
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        assert vectorize(["float64(float64, float64)"])(lambda x, y: x / y)(np.ones(3), np.zeros(3)).tolist() == [np.inf] * 3


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's error_model='python' in ufunc loops (Numba's are always NumPy's)")
def test_errors_in_the_loop_raise_python_exceptions_with_the_python_error_model():
    f = vectorize(["int64(int64, int64)"], error_model="python")(int_div)
    a = np.arange(10)
    np.testing.assert_array_equal(f(a, np.full(10, 3)), a // 3)
    b = np.ones(10, np.int64)
    b[7] = 0
    with pytest.raises(ZeroDivisionError):
        f(a, b)
    with pytest.raises(ZeroDivisionError):  # long enough for NumPy to release the GIL
        f(np.arange(100_000), np.zeros(100_000, np.int64))
    g = vectorize(["float64(float64)"], error_model="python")(domain)
    with pytest.raises(ValueError, match=math_domain_error("expected a nonnegative input, got -1.0")):
        g(np.array([1.0, 4.0, -1.0]))
    np.testing.assert_array_equal(g(np.array([1.0, 4.0])), [2.0, 3.0])


def test_error_model_numpy_gives_numpy_values():
    f = vectorize(["float64(float64, float64)"], error_model="numpy")(lambda a, b: a / b)
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(f(np.array([1.0, -1.0]), np.zeros(2)), [np.inf, -np.inf])


def test_bad_signatures_and_functions():
    with pytest.raises(TypeError):
        vectorize(["float64[:](float64)"])(lambda a: a)
    with pytest.raises(ruchey.TypingError):
        vectorize(["float64(float64)"])(lambda a: undefined_name(a))  # noqa: F821
    with pytest.raises(ValueError):
        vectorize(["float64(float64)"], target="gpu")(lambda a: a)
    with pytest.raises(TypeError):
        vectorize(["float64(float64)"], bogus=1)(lambda a: a)


def test_options_are_accepted():
    f = vectorize(["float64(float64)"], nopython=True, cache=True, fastmath=True)(lambda a: a + 1.0)
    np.testing.assert_array_equal(f(np.zeros(3)), np.ones(3))


def test_identity_is_numbas_choice_of_four():
    """0, 1, None or "reorderable" (no identity, yet reductions along several
    axes), as Numba's; any other value is a ValueError, as there."""
    def plus(a, b):
        return a + b

    x = np.arange(24.0).reshape(2, 3, 4)
    for identity, expected in ((0, 0), (1, 1), (None, None), ("reorderable", None)):
        for f in (vectorize(["float64(float64, float64)"], identity=identity)(plus),
                  vectorize(identity=identity)(plus)):
            assert f.identity == expected and type(f.identity) is type(expected)
            if identity in (0, "reorderable"):  # reduces along several axes at once
                np.testing.assert_array_equal(f.reduce(x, axis=(0, 2)), np.add.reduce(x, axis=(0, 2)))
    for bad in ("none", 2, -1.5):
        with pytest.raises(ValueError, match="identity"):
            vectorize(["float64(float64, float64)"], identity=bad)(axpb)
        with pytest.raises(ValueError, match="identity"):
            vectorize(identity=bad)(axpb)


# ---------------------------------------------------------------- lazy (dynamic) ufuncs

def test_lazy_compiles_a_loop_per_input_types():
    f = vectorize(axpb)
    assert isinstance(f, ruchey.DUFunc)
    assert f.types == []
    x = np.arange(6.0)
    np.testing.assert_array_equal(f(x, x), reference(axpb, x, x, otypes=[np.float64]))
    assert f.types == ["dd->d"]
    i = np.arange(6, dtype=np.int32)
    got = f(i, i)  # int32 casts safely to float64: NumPy's loop search takes the float64 loop
    assert got.dtype == np.float64
    f32 = np.arange(6, dtype=np.float32)
    assert f(f32, f32).dtype == np.float64
    assert f(2.0, 3.0) == 7.0
    assert f.py_func is axpb


def test_lazy_new_types_get_their_own_loop():
    f = vectorize()(clipped)
    a = np.arange(-5, 5, dtype=np.int64)
    got = f(a, a[::-1])
    np.testing.assert_array_equal(got, reference(clipped, a, a[::-1], otypes=[got.dtype]))
    assert f.ufunc.ntypes == 1
    b = np.linspace(-1, 1, 10, dtype=np.float32)
    f(b, b)
    assert f.ufunc.ntypes == 2


def test_lazy_ufunc_gets_the_loops_compiled_code_calls_it_with():
    # as Numba's DUFunc: a call from compiled code with new input types adds
    # their loop to the Python-side ufunc, which then takes them from Python
    def plus(a, b):
        return a + b

    f = vectorize(plus)
    f(1, 2)
    assert f.types == ["ll->l"]

    @njit
    def call(a, b):
        return f(a, b)

    rng = make_rng(17)
    for a, b in [(np.float32(1.5), np.float32(-2.0)), (rng.normal(size=5), 0.5), (np.int8(3), np.int8(-4)),
                 (3, 2.5)]:
        got, expected = call(a, b), call.py_func(a, b)
        np.testing.assert_array_equal(got, reference(plus, a, b, otypes=[np.asarray(expected).dtype]))
    # each new combination of input types gets the loop compiled for it, as Numba's
    assert f.types == ["ll->l", "ff->f", "dd->d", "bb->l", "ld->d"]
    assert f(np.float32(2.0), np.float32(1.0)).dtype == np.float32 and call(np.int8(1), np.int8(2)) == 3
    assert len(f.types) == 5
    f.disable_compile()

    @njit
    def call_complex(a):
        return f(a, a)

    with pytest.raises(ruchey.TypingError):
        call_complex(1j)
    assert len(f.types) == 5


def test_lazy_reduce_and_frozen():
    add = vectorize(identity=0)(lambda a, b: a + b)
    x = np.arange(10, dtype=np.float32)
    assert add.reduce(x) == 45
    np.testing.assert_array_equal(add.accumulate(x), np.cumsum(x))
    add.disable_compile()
    with pytest.raises(TypeError):
        add(np.ones(2), np.ones(2))  # float64 does not cast safely to float32


def over(a, b):
    """datashader's compositing operator: the top colour where it is opaque."""
    return a if (a >> 24) == 255 else b


def test_a_loop_compiled_for_numba_types_then_frozen():
    f = vectorize(over)
    f._compile_for_argtys((ruchey.uint32, ruchey.uint32))
    f._frozen = True
    rng = np.random.default_rng(5)
    a, b = (rng.integers(0, 2 ** 32, 50, dtype=np.uint64).astype(np.uint32) for _ in range(2))
    a[::3] |= np.uint32(0xFF000000)
    np.testing.assert_array_equal(f(a, b), np.array([over(x, y) for x, y in zip(a, b)], dtype=np.uint32))
    assert f.ufunc.types == ["II->I"]
    with pytest.raises(TypeError):
        f(np.ones(2), np.ones(2))  # no float64 loop, and none compiled
    with pytest.raises(ruchey.TypingError):  # nor from compiled code
        njit(lambda x, y: f(x, y))(1.5, 2.5)
    assert f._frozen
    with pytest.raises(ValueError):  # as Numba's: never unfrozen
        f._frozen = False
    g = vectorize(over)
    g._compile_for_argtys((ruchey.int64, ruchey.int64), ruchey.float64)
    assert g.ufunc.types == ["ll->d"] and g(np.int64(5) << 24, np.int64(7)) == 7.0


def test_lazy_unsupported_types():
    f = vectorize(axpb)
    with pytest.raises(TypeError, match="not supported for the input types"):
        f(np.zeros(2, "datetime64[D]"), np.zeros(2, "datetime64[D]"))


def test_a_function_of_no_arguments_is_taken_and_its_calls_raise():
    # Numba's vectorize takes it (libraries wrap every function of a module
    # so); NumPy calls no ufunc without operands, so a call is a TypeError
    def constant():
        return 1.5
    lazy, eager = vectorize(constant), vectorize(["float64()"])(constant)
    assert lazy.nin == eager.nin == 0 and lazy.py_func() == constant()
    for u in (lazy, eager):
        for args in ((), (np.ones(3),)):
            with pytest.raises(TypeError, match="takes no arguments"):
                u(*args)
        with pytest.raises(ruchey.TypingError):
            njit(lambda: u())()


# ---------------------------------------------------------------- from compiled code

eager_axpb = vectorize(SIGS)(axpb)
lazy_clipped = vectorize(clipped)


def test_called_from_njit_on_scalars():
    @njit
    def loop(x, y):
        out = np.empty_like(x)
        for i in range(x.shape[0]):
            out[i] = eager_axpb(x[i], y[i]) + lazy_clipped(x[i], y[i])
        return out
    rng = make_rng(5)
    x, y = rng.random(20), rng.random(20)
    np.testing.assert_allclose(loop(x, y), eager_axpb(x, y) + lazy_clipped(x, y))


@vectorize
def lazy_shifted_square(z):
    return z * z + 1.5


@vectorize(["complex128(complex128, float64)", "float64(float64, float64)"])
def eager_scaled(z, k):
    return z * k


@vectorize(["float64(float64)"])
def eager_half(x):
    return x / 2


def test_called_from_njit_on_complex_numbers_and_arrays():
    """rocket-fft's loggamma is a @vectorize function compiled code calls on
    complex numbers: scalars and arrays of complex64 and complex128 alike."""
    @njit
    def uses(z, a):
        out = np.empty(a.shape[0], dtype=np.complex128)
        for i in range(a.shape[0]):
            out[i] = lazy_shifted_square(a[i]) + eager_scaled(z, 2.0)
        return out, lazy_shifted_square(a), eager_scaled(a, -0.5), lazy_shifted_square(z)

    rng = make_rng(9)
    for dtype in (np.complex128, np.complex64):
        for n in (0, 1, 13):
            a = (rng.normal(size=n) + 1j * rng.normal(size=n)).astype(dtype)
            a[:n // 4] = complex(np.nan, 1.0)
            z = dtype(rng.normal() - 2j)
            for got, want in zip(uses(z, a), uses.py_func(z, a)):
                assert np.asarray(got).dtype == np.asarray(want).dtype
                np.testing.assert_allclose(got, want, rtol=1e-6 if dtype == np.complex64 else 1e-15)

    @njit
    def refused(z):
        return eager_half(z)
    with pytest.raises(ruchey.TypingError, match="not supported for the input types"):
        refused(1.0 + 2j)


eager_div = vectorize(["int64(int64, int64)"], error_model="python")(int_div)  # (its errors raise)


@pytest.mark.parametrize("parallel", [False, True])
def test_called_from_njit_on_arrays_is_elementwise(parallel):
    """On arrays a ufunc call inside compiled code broadcasts and fuses
    into the array expression around it, as NumPy's ufuncs do there."""
    @njit(parallel=parallel)
    def expr(x, y):
        return eager_axpb(x, y) * 2.0 + lazy_clipped(x[:, None], y[None, :])
    rng = make_rng(7)
    for n in (7, 40_000 if parallel else 300):
        x, y = rng.random(n), rng.random(n)
        if n > 1000:
            y = y[:50]
            x = x[:50]
        np.testing.assert_allclose(expr(x, y), eager_axpb(x, y) * 2.0 + lazy_clipped(x[:, None], y[None, :]))


def test_from_njit_the_loop_is_numpys_choice():
    @njit
    def on(x):
        return eager_axpb(x, x)
    for dtype in (np.int8, np.int32, np.float32, np.float64, np.int64):
        x = np.arange(5, dtype=dtype)
        got, expected = on(x), eager_axpb(x, x)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


narrowing = vectorize(["float32(float64)", "int8(int64)"])(lambda v: v * 3 + 0.25 if v > 0 else v * 3)


def test_from_njit_the_loops_declared_result_type_is_kept():
    """A loop declared to return a narrower type than its function computes
    gives that type from compiled code too, on arrays and on numbers, as
    NumPy's call of the ufunc does."""
    @njit
    def on(x, k):
        return narrowing(x), narrowing(k), narrowing(x[0])
    x = np.array([0.1, -2.0, 7.3])
    got, expected = on(x, 40), (narrowing(x), narrowing(40), narrowing(x[0]))
    assert got[0].dtype == np.float32 and np.array_equal(got[0], expected[0])
    assert got[1] == expected[1] and got[2] == expected[2]


def test_from_njit_errors_raise():
    @njit
    def on(x, y):
        return eager_div(x, y)
    np.testing.assert_array_equal(on(np.arange(6), np.full(6, 4)), np.arange(6) // 4)
    with pytest.raises(ZeroDivisionError):
        on(np.arange(6), np.array([1, 2, 3, 0, 1, 1]))


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's message")
def test_from_njit_no_loop_is_a_typing_error():
    @njit
    def on(x):
        return eager_div(x, 1.5)
    with pytest.raises(ruchey.TypingError, match="not supported for the input types"):
        on(np.arange(3))


# ---------------------------------------------------------------- targets

@pytest.mark.parametrize("target", ["parallel", "cuda"])
def test_parallel_targets_match_cpu(target):
    f = vectorize(["float64(float64, float64)"], target=target)(clipped)
    rng = make_rng(6)
    for n in (10, 100_000):
        a, b = rng.standard_normal(n), rng.standard_normal(n)
        np.testing.assert_array_equal(f(a, b), reference(clipped, a, b, otypes=[np.float64]))
    a = rng.standard_normal((300, 300))
    np.testing.assert_array_equal(f(a, a.T), reference(clipped, a, a.T, otypes=[np.float64]))


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's error_model='python' in ufunc loops")
def test_parallel_error_raises():
    f = vectorize(["int64(int64, int64)"], target="parallel", error_model="python")(int_div)
    b = np.ones(200_000, np.int64)
    b[123_456] = 0
    with pytest.raises(ZeroDivisionError):
        f(np.arange(200_000), b)


def sqrt_over(a, b):
    return math.sqrt(a) / b


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's error_model='python' in ufunc loops")
@pytest.mark.parametrize("n", [5, 1000, 100_000])
def test_first_failing_element_decides_the_exception(n):
    """Contiguous loops run first with their checks deferred (so that they
    vectorise), then again checked: the error is still the first element's."""
    f = vectorize(["float64(float64, float64)"], error_model="python")(sqrt_over)
    a, b = np.linspace(1.0, 2.0, n), np.linspace(1.0, 2.0, n)
    np.testing.assert_array_equal(f(a, b), reference(sqrt_over, a, b, otypes=[np.float64]))
    for bad_a, bad_b, exc in ((n // 3, n - 1, ValueError), (n - 1, n // 3, ZeroDivisionError)):
        x, y = a.copy(), b.copy()
        x[bad_a], y[bad_b] = -1.0, 0.0
        with pytest.raises(exc):
            f(x, y)
        with pytest.raises(exc):  # in place: the output is an input
            f(x, y, out=x)
        with pytest.raises(exc):  # strided
            f(np.repeat(x, 2)[::2], np.repeat(y, 2)[::2])


def checked_root(x):
    if x < 0.0:
        raise ValueError("Value must be positive")
    return x ** 0.5


def test_a_raising_element_leaves_its_output_and_the_others_are_computed():
    """As Numba's loops: every element but the failing ones is written, and
    the call raises the first failing element's exception."""
    f = vectorize(["float32(float32)", "float64(float64)"])(checked_root)  # no casts: no buffers
    rng = make_rng(23)
    for dtype in (np.float64, np.float32):
        for x in layouts(rng, dtype):
            good = x >= 0
            out = np.full(x.shape, -7.0, dtype)
            with pytest.raises(ValueError, match="Value must be positive"):
                f(x, out)
            np.testing.assert_array_equal(out[good], reference(checked_root, x[good], otypes=[dtype]))
            assert (out[~good] == -7.0).all()


def test_cuda_target_runs_a_kernel_on_host_and_device_arrays():
    from ruchey import cuda
    f = vectorize(["float64(float64, float64)", "float32(float32, float32)"], target="cuda")(clipped)
    assert f.types == ["dd->d", "ff->f"]
    rng = make_rng(8)
    a, b = rng.standard_normal((30, 1)), rng.standard_normal((1, 20))
    expected = reference(clipped, a, b, otypes=[np.float64])
    np.testing.assert_array_equal(f(a, b), expected)
    got = f(cuda.to_device(np.ascontiguousarray(np.broadcast_to(a, (30, 20)))), b)
    assert isinstance(got, cuda.DeviceNDArray)
    np.testing.assert_array_equal(got.copy_to_host(), expected)
    out = cuda.device_array((30, 20))
    assert f(a, b, out=out) is out
    np.testing.assert_array_equal(out.copy_to_host(), expected)
    a32 = a.astype(np.float32)
    assert f(a32, np.float32(0.5)).dtype == np.float32
    r = f(2.0, 1.0)
    assert isinstance(r, np.float64) and r == clipped(2.0, 1.0)
    with pytest.raises(TypeError, match="not supported for the input types"):
        f(np.ones(2, np.complex128), 1.0)


def test_cuda_vectorize_is_vectorize_for_the_cuda_target():
    from ruchey import cuda
    f = cuda.vectorize(["float64(float64, float64)"])(clipped)
    rng = make_rng(9)
    a, b = rng.standard_normal(50), rng.standard_normal(50)
    got = f(cuda.to_device(a), b)
    assert isinstance(got, cuda.DeviceNDArray)
    np.testing.assert_array_equal(got.copy_to_host(), reference(clipped, a, b, otypes=[np.float64]))


def test_cuda_ufunc_reduce_of_a_1d_array():
    from ruchey import cuda
    add = vectorize(["int32(int32, int32)", "float64(float64, float64)"], target="cuda")(lambda a, b: a + b)
    biggest = cuda.vectorize(["float64(float64, float64)"])(lambda a, b: max(a, b))
    rng = make_rng(10)
    for n in (1, 2, 7, 64, 1025):
        x = rng.integers(-1000, 1000, n).astype(np.int32)
        got = add.reduce(x)
        assert got.dtype == np.int32 and got == np.add.reduce(x)
        y = rng.standard_normal(n)
        assert biggest.reduce(cuda.to_device(y)) == y.max()
        np.testing.assert_allclose(add.reduce(y), y.sum(), rtol=1e-12)
    with pytest.raises(TypeError, match="empty"):
        add.reduce(np.zeros(0, np.int32))
    with pytest.raises(TypeError, match="1-d"):
        add.reduce(np.zeros((2, 2)))
    with pytest.raises(TypeError, match="two arguments"):
        vectorize(["float64(float64)"], target="cuda")(lambda a: -a).reduce(np.ones(3))


def test_cuda_target_infers_the_return_type_of_argument_types_alone():
    """A signature of argument types alone (a tuple), as numba-cuda's vectorize takes: the loop's result is the type
    the function returns for them."""
    from ruchey import from_dtype, types
    day = from_dtype(np.dtype("datetime64[D]"))
    timediff = vectorize([(day, day)], target="cuda")(lambda start, end: end - start)
    scaled = vectorize([(types.int16, types.int16), (types.float64, types.int64)], target="cuda")(
        lambda a, b: a * b + 1)
    assert timediff.types == ["MM->m"] and scaled.types[1] == "dl->d"
    rng = make_rng(11)
    start = np.datetime64("2005-02-01") + rng.integers(0, 5000, 300).astype("timedelta64[D]")
    end = start + rng.integers(-2000, 10000, 300).astype("timedelta64[D]")
    got = timediff(start, end)
    assert got.dtype == np.dtype("timedelta64[D]")
    np.testing.assert_array_equal(got, end - start)
    x, k = rng.standard_normal(200), rng.integers(-50, 50, 200)
    np.testing.assert_array_equal(scaled(x, k), reference(scaled.py_func, x, k, otypes=[np.float64]))
    i, j = rng.integers(-100, 100, (2, 64)).astype(np.int16)
    expected = njit(scaled.py_func)(np.int16(i[0]), np.int16(j[0]))
    assert scaled(i, j).dtype == np.asarray(expected).dtype
    np.testing.assert_array_equal(scaled(i, j), reference(scaled.py_func, i, j, otypes=[scaled(i, j).dtype]))
    with pytest.raises(TypeError, match="returns one"):
        vectorize([(types.float64,)], target="cuda")(lambda a: (a, a))
    with pytest.raises(ruchey.TypingError):
        vectorize([(day, types.complex128)], target="cuda")(lambda a, b: a - b)


def test_cuda_target_needs_signatures():
    with pytest.raises(TypeError):
        vectorize(target="cuda")(clipped)


def test_nopython_with_the_cuda_target_is_redundant_and_warns():
    """numba-cuda's RuntimeWarning: a CUDA ufunc is compiled in nopython mode anyway; it computes as without."""
    with pytest.warns(RuntimeWarning, match="nopython kwarg for cuda target is redundant"):
        f = vectorize(["float64(float64, float64)"], target="cuda", nopython=True)(clipped)
    rng = make_rng(12)
    a, b = rng.standard_normal(40), rng.standard_normal(40)
    np.testing.assert_array_equal(f(a, b), reference(clipped, a, b, otypes=[np.float64]))


def test_from_njit_an_error_frees_the_result_being_filled():
    import gc
    from conftest import rss_bytes

    @njit
    def on(x, y):
        return eager_div(x, y)

    x, y = np.arange(200000), np.ones(200000, dtype=np.int64)
    y[-1] = 0  # raises at the last element, after 1.6 MB of the result is filled
    with pytest.raises(ZeroDivisionError):
        on(x, y)
    gc.collect()
    before = rss_bytes()
    for _ in range(200):
        with pytest.raises(ZeroDivisionError):
            on(x, y)
    assert rss_bytes() - before < 64 * 2**20  # 320 MB if each result leaked


# ---------------------------------------------------------------- forceobj

def priced(s, k, kind):
    """A float64 and an int64 operand; raises for an unknown kind."""
    if kind == 1:
        return max(s - k, 0.0)
    if kind == -1:
        return max(k - s, 0.0)
    raise ValueError("unknown kind")


def test_forceobj_runs_the_python_function_per_element():
    u = vectorize(["float64(float64, float64, int64)"], forceobj=True)(priced)
    rng = make_rng(41)
    s, k = rng.uniform(50, 150, 30), rng.uniform(50, 150, 30)
    kinds = rng.choice([1, -1], 30)
    got = u(s, k, kinds)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, reference(priced, s, k, kinds, otypes=[np.float64]))
    assert u.types == ["dd" + np.dtype(np.int64).char + "->d"] and u.nin == 3 and u.__name__ == "priced"
    scalar = u(120.0, 100.0, 1)
    assert isinstance(scalar, np.float64) and scalar == 20.0
    out = np.empty(30)
    assert u(s, k[:1], kinds, out=out) is out
    np.testing.assert_array_equal(out, reference(priced, s, k[:1], kinds, otypes=[np.float64]))


def test_forceobj_errors_and_refusals():
    u = vectorize(["float64(float64, float64, int64)"], forceobj=True)(priced)
    with pytest.raises(ValueError, match="unknown kind"):
        u(np.ones(3), np.ones(3), np.array([1, 0, 1]))
    with pytest.raises(TypeError, match="not supported for the input types"):
        u(np.ones(3), np.ones(3), np.ones(3))  # float64 kinds do not cast safely to int64
    with pytest.raises(TypeError, match="needs signatures"):
        vectorize(forceobj=True)(priced)
    with pytest.raises(ValueError, match="nopython.*forceobj"):
        vectorize(["float64(float64, float64, int64)"], forceobj=True, nopython=True)(priced)
    with pytest.raises(TypeError, match="forceobj=True needs signatures"):  # (with them: test_guvectorize.py)
        ruchey.guvectorize("(n)->(n)", forceobj=True)(lambda a, out: None)


def checked_root(x):
    if x < 0.0:
        raise ValueError("Value must be positive")
    return x ** 0.5


def test_forceobj_an_element_that_raises_leaves_its_output_and_the_rest_run():
    """Numba's object-mode loop: each failing element keeps the output's value,
    the others are computed, and the exception is raised at the end; the
    output may be given by position, as a ufunc's."""
    u = vectorize(["float64(float64)"], forceobj=True)(checked_root)
    rng = make_rng(4412)
    for _ in range(3):
        x = rng.normal(size=12) * 10
        out = np.full_like(x, -1.0)
        with pytest.raises(ValueError, match="Value must be positive"):
            u(x, out)
        ok = x >= 0
        np.testing.assert_array_equal(out[ok], reference(checked_root, x[ok], otypes=[np.float64]))
        assert (out[~ok] == -1.0).all()
    x = np.abs(rng.normal(size=5))
    out = np.empty(5)
    assert u(x, out) is out
    np.testing.assert_array_equal(out, reference(checked_root, x, otypes=[np.float64]))
    with pytest.raises(TypeError, match="takes 1 arguments"):
        u(x, out, out)


# ---------------------------------------------------------------- u.reduce and u.at in compiled code

@vectorize
def lazy_plus(a, b):
    return a + b


@vectorize(["float64(float64, float64)", "int64(int64, int64)"], identity=0)
def eager_plus(a, b):
    return a + b


@vectorize
def lazy_minus(a, b):  # no identity, not associative: the order of the fold shows
    return a - b


@vectorize
def lazy_negate(a):
    return -a


@njit
def reduce_along(a, axis):
    return eager_plus.reduce(a, axis=axis)


@njit
def fold_along(a, axis):
    return lazy_minus.reduce(a, axis=axis)


@njit
def reduce_with_initial(a, start):
    return eager_plus.reduce(a, initial=start), eager_plus.reduce(a, axis=None)


@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 4), (3, 1, 2)])
def test_reduce_of_a_vectorize_ufunc_in_compiled_code_is_numpys(shape):
    rng = make_rng(len(shape))
    for a in (rng.integers(-50, 50, shape), rng.normal(size=shape), rng.normal(size=shape[::-1]).T):
        axes = list(range(-a.ndim, a.ndim)) + [(0,), tuple(range(a.ndim)), ()]
        if a.ndim > 2:
            axes += [(0, 2), (-1, 1)]
        for axis in axes:
            got, want = reduce_along(a, axis), eager_plus.reduce(a, axis=axis)
            assert np.shape(got) == np.shape(want) and np.asarray(got).dtype == np.asarray(want).dtype
            np.testing.assert_allclose(got, want, rtol=1e-12)
            if isinstance(axis, int):  # a fold from the left, as NumPy's
                np.testing.assert_allclose(fold_along(a, axis), lazy_minus.reduce(a, axis=axis), rtol=1e-12)
    if len(shape) > 1:
        with pytest.raises(ValueError, match="'lazy_minus' is not reorderable, so at most one axis"):
            fold_along(np.ones(shape), (0, 1))
    got = reduce_with_initial(np.arange(6.0).reshape(2, 3), 10.0)
    assert got[0].tolist() == np.add.reduce(np.arange(6.0).reshape(2, 3), initial=10.0).tolist()
    assert got[1] == 15.0


@vectorize("float64(float64, int64)", identity=0)
def add_ints_to_float(a, b):
    return a + b


@vectorize(["int64(int64, int64)", "float64(float64, float64)"])
def divide_left(a, b):  # the loop dtype= picks shows in the quotient
    return a / b


@njit
def add_ints_reduce(a, axis, dtype):
    return add_ints_to_float.reduce(a, axis=axis, dtype=dtype)


@njit
def divide_reduce(a, axis, dtype):
    return divide_left.reduce(a, axis=axis, dtype=dtype)


def test_reduce_with_dtype_takes_the_loop_of_dtype_and_the_items():
    """NumPy reduces with dtype= by the loop taking (dtype, the items' dtype)
    to dtype: a 'dl->d' ufunc sums int64 items with dtype=float64 (there
    is no 'dd->d' loop), a float dtype of an int array divides in floats."""
    rng = make_rng(8101)
    for shape in [(5,), (2, 2), (5, 4, 2), tuple(rng.integers(1, 6, 3))]:
        ints = rng.integers(1, 9, shape)
        for axis in range(ints.ndim):
            for f, u, a, dtype in ((add_ints_reduce, add_ints_to_float, ints, np.float64),
                                   (divide_reduce, divide_left, ints, np.float64),
                                   (divide_reduce, divide_left, ints.astype(np.float64), np.int64),
                                   (add_ints_reduce, add_ints_to_float, ints, None)):
                got, want = f(a, axis, dtype), f.py_func(a, axis, dtype)
                assert np.asarray(got).dtype == np.asarray(want).dtype, (u, dtype)
                np.testing.assert_allclose(got, want, rtol=1e-15)
    with pytest.raises(ruchey.TypingError, match="none of its loops"):
        add_ints_reduce(rng.normal(size=4), 0, np.float64)  # float items: no loop takes them, as NumPy's TypeError


def test_reduce_of_nothing_is_the_identity_or_numpys_error():
    assert reduce_with_initial(np.zeros(0), 2.5) == (2.5, 0.0)
    with pytest.raises(ValueError, match="zero-size array to reduction operation lazy_minus which has no identity"):
        fold_along(np.zeros(0), 0)
    assert fold_along(np.zeros((0, 3)), 1).shape == (0,)
    assert reduce_along(np.zeros((3, 0)), 1).tolist() == [0.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="Invalid axis"):
        reduce_along(np.zeros((2, 3)), 2)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        reduce_along(np.zeros((2, 3)), (1, -1))
    with pytest.raises(ruchey.TypingError, match="reduce only supported for binary functions"):
        njit(lambda a: lazy_negate.reduce(a))(np.ones(3))


@njit
def add_at(a, indices, b):
    lazy_plus.at(a, indices, b)


@njit
def negate_at(a, indices):
    lazy_negate.at(a, indices)


def test_at_of_a_vectorize_ufunc_in_compiled_code_is_numpys():
    rng = make_rng(5)
    for a in (rng.integers(0, 9, 10), rng.normal(size=10)):
        idx = rng.integers(-10, 10, 25)  # repeated and negative indices: each applies, in turn
        for b in (a.dtype.type(3), rng.integers(0, 5, 25).astype(a.dtype)):
            got, want = a.copy(), a.copy()
            add_at(got, idx, b)
            np.add.at(want, idx, b)
            np.testing.assert_array_equal(got, want)
        got, want = a.copy(), a.copy()
        negate_at(got, np.array([1, 1, 4]))
        np.negative.at(want, np.array([1, 1, 4]))
        np.testing.assert_array_equal(got, want)
    rows, want = np.arange(12.0).reshape(4, 3), np.arange(12.0).reshape(4, 3)
    add_at(rows, np.array([0, 2, 0]), np.array([1.0, 2.0, 3.0]))  # whole rows, b broadcast along them
    np.add.at(want, np.array([0, 2, 0]), np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(rows, want)
    cube, want = np.zeros((2, 3, 4)), np.zeros((2, 3, 4))
    picks = (np.array([0, 1, 1, -1]), np.array([2, 0, 0, 1]), np.array([3, 3, 3, 0]))
    add_at(cube, picks, 1.5)
    np.add.at(want, picks, 1.5)
    np.testing.assert_array_equal(cube, want)
    with pytest.raises(IndexError):
        add_at(np.zeros(3), np.array([3]), 1.0)
    with pytest.raises(ValueError, match="second operand needed"):
        add_at(np.zeros(3), np.array([0]), None)


def test_at_with_slices_masks_and_mixed_indices_in_compiled_code_is_numpys():
    """Whatever a[indices] takes: slices beside index arrays or integers,
    a boolean mask, () of a 0-d array; b broadcast to what they select."""
    rng = make_rng(8)
    dtype = np.float64
    cube = (rng.standard_normal((3, 4, 5)) * 10).astype(dtype)
    cases = [
        (cube, (slice(None), np.array([1, 3, 1])), rng.integers(-5, 5, (3, 3, 5)).astype(dtype)),
        (cube, (slice(None), np.array([2, -1, 2]), slice(1, 4)), dtype(2)),
        (cube, (np.array([0, 2, 0]), 1, slice(None, None, -2)), np.arange(3, dtype=dtype)),
        (cube, (1, slice(None), np.array([4, 4])), dtype(-1)),
        (cube, slice(1, None), dtype(3)),
        (cube, cube > 0, dtype(1)),
        (cube[:, ::2], (slice(None), slice(None), slice(None)), np.arange(5, dtype=dtype)),  # a strided view
        (cube[0, 0], cube[0, 0] < 0, dtype(7)),
        (cube[0], np.zeros((4, 5), bool), dtype(7)),  # selects nothing
        (np.array(dtype(4)), (), dtype(5)),
    ]
    for a, index, b in cases:
        got, want = a.copy(), a.copy()
        add_at(got, index, b)
        np.add.at(want, index, b)
        np.testing.assert_array_equal(got, want)
    strided = np.zeros((4, 6))
    add_at(strided[::2, 1::2], (slice(None), np.array([0, 0, 2])), 1.0)  # writes through the view
    expected = np.zeros((4, 6))
    np.add.at(expected[::2, 1::2], (slice(None), np.array([0, 0, 2])), 1.0)
    np.testing.assert_array_equal(strided, expected)
    with pytest.raises(IndexError):
        add_at(np.zeros((2, 3)), (slice(None), np.array([3])), 1.0)
    with pytest.raises(ValueError):  # b does not broadcast to the selection
        add_at(np.zeros((2, 3)), (slice(None), np.array([0, 1])), np.ones(3))


@njit
def runs_of(a, indices, axis):
    return eager_plus.reduceat(a, indices, axis=axis)


@njit
def runs_into(a, indices, out):
    return eager_plus.reduceat(a, indices, out=out)


def test_reduceat_of_a_vectorize_ufunc_in_compiled_code_is_numpys():
    rng = make_rng(8)
    for a in (rng.integers(-9, 9, 8), rng.normal(size=(6, 5)), rng.integers(0, 9, (3, 7, 2))):
        for axis in range(-a.ndim, a.ndim):
            n = a.shape[axis]
            for idx in (np.array([0]), np.array([0, n - 1]), rng.integers(0, n, 6), np.array([n - 1, 0, 0, 1])):
                got, want = runs_of(a, idx, axis), eager_plus.reduceat(a, idx, axis=axis)
                assert got.shape == want.shape and got.dtype == want.dtype
                np.testing.assert_allclose(got, want, rtol=1e-12)
    same, want = np.arange(4.0), np.arange(4.0)  # out= the array itself: each run reads what came before
    runs_into(same, np.array([0, 3, 1, 2]), same)
    eager_plus.reduceat(want, np.array([0, 3, 1, 2]), out=want)
    assert same.tolist() == want.tolist()
    with pytest.raises(IndexError, match="out-of-bounds"):
        runs_of(np.ones(3), np.array([3]), 0)
    with pytest.raises(ValueError, match="axis 2 is out of bounds for array of dimension 2"):
        runs_of(np.ones((2, 2)), np.array([0]), 2)
    with pytest.raises(ValueError, match="wrong shape"):
        runs_into(np.ones(4), np.array([0, 2]), np.zeros(3))


@njit
def outer_of(a, b):
    return eager_plus.outer(a, b), lazy_minus.outer(b * 1.0, a * 1.0)  # (lazy_minus has a float loop alone)


def test_outer_of_a_vectorize_ufunc_in_compiled_code_is_numpys():
    rng = make_rng(10)
    for a, b in ((rng.normal(size=(2, 3)), rng.normal(size=4)), (rng.integers(-9, 9, 5), rng.integers(-9, 9, (2, 2))),
                 (rng.integers(-9, 9, 3), rng.normal(size=(0, 2))), (np.arange(4.0)[::2], 2.5)):
        got, want = outer_of(a, b), (eager_plus.outer(a, b), lazy_minus.outer(b * 1.0, a * 1.0))
        for g, w in zip(got, want):
            assert np.shape(g) == np.shape(w) and np.asarray(g).dtype == np.asarray(w).dtype
            np.testing.assert_allclose(g, w, rtol=1e-15)


@njit
def plus_into(a, b, out):
    lazy_plus(a, b, out)  # the output as one more positional argument, as NumPy takes it
    return eager_plus(a, b, out=out)


def test_vectorize_ufunc_output_arguments_in_compiled_code():
    rng = make_rng(9)
    a, b = rng.normal(size=(3, 4)), rng.normal(size=4)  # b broadcast along a's rows
    out = np.zeros((3, 4))
    got = plus_into(a, b, out)
    assert got is out
    np.testing.assert_array_equal(out, a + b)
    ints = np.zeros((3, 4), np.int64)
    with pytest.raises(ruchey.TypingError, match="cannot cast .* from float64 to int64"):
        plus_into(a, b, ints)


@njit
def ufunc_properties():
    return (eager_plus.nin, eager_plus.nout, eager_plus.nargs, eager_plus.identity, eager_plus.__name__,
            lazy_negate.nin, lazy_negate.nargs)


def test_vectorize_ufunc_attributes_in_compiled_code():
    assert ufunc_properties() == (eager_plus.nin, eager_plus.nout, eager_plus.nargs, eager_plus.identity,
                                  "eager_plus", 1, 2)


def _row_product(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] * b[i] + 1.0


def test_fastmath_flag_sets_as_jit_takes_them():
    # Numba's set (or dict) of LLVM flags: the ufunc computes as the function
    # does; an unknown flag is a ValueError, as jit's
    def scaled(x, y):
        return x * y + 1.0

    x, y = np.linspace(-3, 3, 50), np.linspace(1, 2, 50)
    for fm in ({"nsz", "contract"}, {"reassoc": True, "nnan": False}, True):
        u = vectorize(["float64(float64, float64)"], fastmath=fm)(scaled)
        np.testing.assert_allclose(u(x, y), scaled(x, y), rtol=1e-15)
        g = ruchey.guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->(n)", fastmath=fm)(_row_product)
        np.testing.assert_allclose(g(x, y), scaled(x, y), rtol=1e-15)
    for make in (lambda: vectorize(["float64(float64, float64)"], fastmath={"bogus"})(scaled),
                 lambda: ruchey.guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->(n)",
                                            fastmath={"bogus"})(_row_product)):
        with pytest.raises(ValueError):
            make()


def weighted_count(x, n):
    s = 0.0
    for i in ruchey.prange(n):
        s += x * (i % 7)
    return s


def _row_sum(a, out):
    s = 0.0
    for i in ruchey.prange(a.shape[0]):
        s += a[i]
    out[0] = s


def test_parallel_option_compiles_the_kernels_prange_loops_as_jits():
    """vectorize(parallel=True) and guvectorize(..., parallel=True), as
    Numba's: the kernel is compiled as jit(parallel=True) compiles it, its
    prange loops' reductions giving what the Python original gives."""
    rng = make_rng(31)
    x, n = rng.standard_normal(9), rng.integers(0, 3000, 9)
    expected = np.array([weighted_count(a, b) for a, b in zip(x, n)])
    for u in (vectorize(parallel=True)(weighted_count),
              vectorize(["float64(float64, int64)"], parallel=True)(weighted_count),
              vectorize(["float64(float64, int64)"], target="parallel", parallel=True)(weighted_count)):
        np.testing.assert_allclose(u(x, n), expected, rtol=1e-12)
    rows = rng.standard_normal((4, 2500))
    g = ruchey.guvectorize(["void(float64[:], float64[:])"], "(n)->()", parallel=True)(_row_sum)
    np.testing.assert_allclose(g(rows), rows.sum(axis=1), rtol=1e-12)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's messages")
def test_parallel_option_is_refused_with_the_cuda_target():
    with pytest.raises(TypeError, match="not with target='cuda'"):
        vectorize(["float64(float64, int64)"], target="cuda", parallel=True)(weighted_count)
    with pytest.raises(TypeError, match="unsupported vectorize option"):
        vectorize(parallel_loops=True)(weighted_count)
