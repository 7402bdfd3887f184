"""@stencil, as Numba's: the kernel (relative indices) at every element
whose neighbourhood lies inside the array, the border cval. Checked
against the kernel's own Python function run at each inside element with
its arrays seen from there, from Python and from compiled code."""
import numpy as np
import pytest

import ruchey
from ruchey import stencil


class _Seen:
    """An array seen from an element: a[k] is the element k away."""

    def __init__(self, a, at):
        self.a, self.at = a, at

    def __getitem__(self, k):
        k = k if isinstance(k, tuple) else (k,)
        return self.a[tuple(i + d for i, d in zip(self.at, k))]


def reference(st, *args, lo, hi, cval=0, dtype=float, standard=()):
    """The stencil's result computed in Python by its own kernel."""
    shape = np.shape(args[0])
    out = np.full(shape, cval, dtype)
    for at in np.ndindex(*shape):
        if all(l <= i < n - h for i, n, l, h in zip(at, shape, lo, hi)):
            out[at] = st.__wrapped__(*(a if k in standard or np.ndim(a) == 0 else _Seen(a, at)
                                       for k, a in enumerate(args)))
    return out


@stencil
def cross_mean(a):
    return 0.25 * (a[0, 1] + a[1, 0] + a[0, -1] + a[-1, 0])


@stencil
def is_peak(x):
    return x[0] > x[-1] and x[0] >= x[1]


@stencil(cval=-1.0)
def forward_diff(x, scale):
    d = x[2] - x[0]
    if d < 0:
        d = -d
    return d * scale


@stencil(neighborhood=((-2, 0),))
def window_sum(x):
    s = 0.0
    for k in range(-2, 1):
        s += x[k]
    return s


@stencil(standard_indexing=("w",))
def weighted(x, w):
    return w[0] * x[-1] + w[1] * x[0] + w[2] * x[1]


@stencil(neighborhood=((-3, -1),))
def previous_three(x):
    s = 0.0
    for k in range(-3, 0):
        s += x[k]
    return s


def _cross_sum(a):
    return a[0, 1] + a[1, 0] + a[0, -1] + a[-1, 0] - 4 * a[0, 0]


cross_sum = stencil(func_or_mode=_cross_sum, cval=1.5)


@ruchey.njit
def smoothed_twice(a):
    return cross_mean(cross_mean(a))


@ruchey.njit
def peaks_in(x):
    return is_peak(x).sum()


RNG = np.random.default_rng(0)


@pytest.mark.parametrize("shape", [(5, 6), (2, 9), (1, 1), (3, 3)])
def test_two_dimensional_kernel(shape):
    a = RNG.random(shape)
    want = reference(cross_mean, a, lo=(1, 1), hi=(1, 1))
    np.testing.assert_allclose(cross_mean(a), want, rtol=0, atol=0)


def test_boolean_result_and_int_arrays():
    x = RNG.integers(0, 9, 40)
    got = is_peak(x)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, reference(is_peak, x, lo=(1,), hi=(1,), dtype=bool))


def test_scalars_statements_and_cval():
    x = RNG.random(20)
    np.testing.assert_array_equal(forward_diff(x, 3.0), reference(forward_diff, x, 3.0, lo=(0,), hi=(2,), cval=-1.0))


def test_a_given_neighbourhood_allows_variable_offsets():
    x = RNG.random(15)
    np.testing.assert_array_equal(window_sum(x), reference(window_sum, x, lo=(2,), hi=(0,)))


def test_standard_indexing_reads_absolute_indices():
    x, w = RNG.random(12), np.array([0.25, 0.5, 0.25])
    np.testing.assert_array_equal(weighted(x, w), reference(weighted, x, w, lo=(1,), hi=(1,), standard=(1,)))


def test_called_from_compiled_code():
    a = RNG.random((7, 8))
    once = reference(cross_mean, a, lo=(1, 1), hi=(1, 1))
    np.testing.assert_array_equal(smoothed_twice(a), reference(cross_mean, once, lo=(1, 1), hi=(1, 1)))
    x = RNG.random(50)
    assert peaks_in(x) == reference(is_peak, x, lo=(1,), hi=(1,), dtype=bool).sum()


def test_bad_kernels_are_refused_clearly():
    with pytest.raises(ruchey.TypingError, match="'neighborhood' option required"):
        @stencil
        def variable(x, k):
            return x[k]
    with pytest.raises(ruchey.TypingError, match="no argument is indexed relatively"):
        @stencil
        def none(x):
            return x
    with pytest.raises(ruchey.TypingError, match="func_or_mode") as refused:
        stencil(func_or_mode="reflect")
    assert refused.type.__name__ == "NumbaValueError"  # Numba's class, as numba.core.errors names it
    with pytest.raises(ruchey.TypingError, match="unknown option 'mode'"):
        stencil(mode="constant")


def test_a_neighbourhood_reaching_one_side_excludes_that_side_only():
    for n in (0, 1, 3, 4, 17):
        x = RNG.random(n)
        np.testing.assert_array_equal(previous_three(x), reference(previous_three, x, lo=(3,), hi=(0,)))


def test_kernel_given_as_func_or_mode_with_options():
    for shape in ((6, 5), (2, 2), (0, 3)):
        for dtype in (np.int32, np.float64):
            a = RNG.integers(-5, 5, shape).astype(dtype)
            want = reference(cross_sum, a, lo=(1, 1), hi=(1, 1), cval=1.5,
                             dtype=np.int64 if dtype == np.int32 else dtype)  # (Numba's int arithmetic: 64 bits)
            got = cross_sum(a)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)


def _parallel_and_serial(func):
    return ruchey.njit(parallel=True)(func), ruchey.njit(func)


def _calls_the_pool(disp):
    return "pool_parallel_for" in "".join(disp.inspect_llvm().values())


def test_parallel_functions_run_stencils_on_threads():
    parallel, serial = _parallel_and_serial(lambda a: cross_mean(a) + 1.0)
    for shape in ((300, 40), (1, 1), (2, 5)):
        a = RNG.random(shape)
        want = reference(cross_mean, a, lo=(1, 1), hi=(1, 1)) + 1.0
        np.testing.assert_array_equal(parallel(a), want)
        np.testing.assert_array_equal(serial(a), want)
    assert _calls_the_pool(parallel) and not _calls_the_pool(serial)


@stencil(neighborhood=((-1, 1),))
def median3(x):
    return np.median(x[-1:2])


@stencil
def folded_offsets(a):
    t = 1
    return a[t, 0] + a[1 + 0, -t] + a[-(2 - 1), 2 * 1]


def test_slices_and_folded_constant_offsets():
    for n in (0, 2, 3, 10):
        x = RNG.random(n)
        want = np.zeros(n)
        want[1:-1] = [np.median(x[i - 1:i + 2]) for i in range(1, n - 1)]
        np.testing.assert_array_equal(median3(x), want)
    a = RNG.random((6, 7))
    np.testing.assert_array_equal(folded_offsets(a), reference(folded_offsets, a, lo=(1, 1), hi=(1, 2)))


def test_out_keeps_its_border_unless_cval_is_given():
    a = RNG.integers(-9, 9, (5, 6))
    ring = np.ones(a.shape, bool)
    ring[1:-1, 1:-1] = False
    last_two = np.arange(a.shape[1]) >= a.shape[1] - 2
    for st, args, border, kept in ((cross_mean, (a,), ring, 7.0), (forward_diff, (a[0], 2.0), last_two, -1.0)):
        want = st(*args)
        out = np.full(want.shape, 7.0)
        got = st(*args, out=out)
        assert got is out
        np.testing.assert_array_equal(out[~border], want[~border])
        assert (out[border] == kept).all()  # (forward_diff gives cval=-1.0)
    into = ruchey.njit(lambda a, out: cross_mean(a, out=out))
    out = np.full(a.shape, 7.0)
    into(a, out)
    np.testing.assert_array_equal(out[1:-1, 1:-1], cross_mean(a)[1:-1, 1:-1])
    assert out[0, 0] == 7.0


@stencil
def two_arrays(a, b):
    return a[0, 1] + b[0, -1]


def test_arrays_of_other_shapes_are_refused():
    a = RNG.random((4, 5))
    np.testing.assert_array_equal(two_arrays(a, 2 * a), reference(two_arrays, a, 2 * a, lo=(0, 1), hi=(0, 1)))
    for b in (RNG.random((4, 4)), RNG.random((1, 1))):
        with pytest.raises(ValueError, match="smaller"):
            two_arrays(a, b)
    with pytest.raises(ruchey.TypingError, match="dimensions"):
        two_arrays(a, a[0])
    with pytest.raises(ruchey.TypingError, match="dimensions"):
        cross_mean(a[0])


mean_of_three = stencil(lambda a: (a[-1] + a[0] + a[1]) / 3)
scaled_right = stencil(lambda a, c: a[0, 1] * c, cval=-1.0)


def test_lambda_kernels():
    for n in (0, 1, 2, 9):
        x = RNG.random(n)
        np.testing.assert_array_equal(mean_of_three(x), reference(mean_of_three, x, lo=(1,), hi=(1,)))
    a = RNG.random((4, 3))
    want = reference(scaled_right, a, 2.5, lo=(0, 0), hi=(0, 1), cval=-1.0)
    np.testing.assert_array_equal(scaled_right(a, 2.5), want)
    np.testing.assert_array_equal(ruchey.njit(lambda a: scaled_right(a, 2.5))(a), want)
    with pytest.raises(TypeError, match="must be a Python function"):
        stencil(len)


left, right = stencil(lambda x: x[-1] * 2), stencil(lambda x: x[1] * 2)
_BY_NAME = {"outer": stencil(lambda x: (lambda y: y * 3)(x[1])), "wide": stencil(lambda x: x[-2] - x[2], cval=9)}


def test_lambda_kernels_sharing_a_line_each_keep_their_own():
    """Two lambdas on one line (their parameters alike), one in a dict
    literal's line (which does not parse alone), a lambda within one."""
    for n in (0, 1, 3, 8):
        x = RNG.integers(-50, 50, n)
        np.testing.assert_array_equal(left(x), reference(left, x, lo=(1,), hi=(0,), dtype=np.int64))
        np.testing.assert_array_equal(right(x), reference(right, x, lo=(0,), hi=(1,), dtype=np.int64))
        np.testing.assert_array_equal(_BY_NAME["outer"](x), reference(_BY_NAME["outer"], x, lo=(0,), hi=(1,),
                                                                      dtype=np.int64))
        np.testing.assert_array_equal(_BY_NAME["wide"](x), reference(_BY_NAME["wide"], x, lo=(2,), hi=(2,), cval=9,
                                                                     dtype=np.int64))


def test_kernel_reads_its_closure():
    for scale in (2.0, -1):
        @stencil
        def scaled(x):
            return scale * (x[1] - x[-1])
        x = RNG.random(9)
        np.testing.assert_array_equal(scaled(x), reference(scaled, x, lo=(1,), hi=(1,)))


def test_kernels_numba_refuses_are_refused():  # (with Numba's NumbaValueError, a TypingError)
    with pytest.raises(ruchey.TypingError, match="assigns to a"):
        @stencil
        def writes(a):
            a[0] = 1
            return a[1]
    with pytest.raises(ruchey.TypingError, match="reserved"):
        @stencil
        def takes_out(a, out):
            return a[0] * out
    with pytest.raises(ruchey.TypingError, match="not a parameter"):
        stencil(standard_indexing=("c",))(_cross_sum)
    with pytest.raises(ruchey.TypingError, match="first argument"):
        stencil(standard_indexing=("a",))(_cross_sum)
    with pytest.raises(ruchey.TypingError, match="cval"):
        stencil(cval=1j)(_cross_sum)(np.ones((3, 3)))


def test_range_takes_floats_as_numba_does():
    @ruchey.njit
    def down(a, b):
        s = 0
        for i in range(a, b, -1):
            s += i
        return s

    assert down(9.7, 2.2) == sum(range(9, 2, -1))  # truncated toward zero, as Numba's
    assert down(-1.5, -5.9) == sum(range(-1, -5, -1))
    assert down(float("nan"), 0.0) == 0  # no undefined value: nan saturates to 0


def _lambda_into_out(a):
    out = np.zeros(a.shape)
    ruchey.stencil(lambda x: 0.25 * (x[0, 1] + x[1, 0] + x[0, -1] + x[-1, 0]))(a, out=out)
    return out


def _named_nested_def(a):
    def sf(x):
        return x[0, 1] - 2 * x[-1, 0]
    return ruchey.stencil(sf)(a)


def _decorated_nested_defs(a):
    @stencil
    def shifted(x):
        c = 2
        return x[-c + 1, 0]

    @stencil(cval=-1.5, neighborhood=((-1, 1), (0, 0)))
    def column_sum(x):
        s = 0.0
        for k in range(-1, 2):
            s += x[k, 0]
        return s
    return shifted(a) + column_sum(a)


def _bound_once_called_twice(a, w):
    f = stencil(lambda x, w: x[0, -1] * w + x[1, 0], cval=-1.0)
    g = stencil(cval=0.5, neighborhood=((-1, 0), (0, 1)))(lambda x, w: x[-1, 1] - w)
    return f(a, w) + f(a + 1, -w) + g(a, w)


_MADE_IN_COMPILED_CODE = (_lambda_into_out, _named_nested_def, _decorated_nested_defs, _bound_once_called_twice)


@pytest.mark.parametrize("func", _MADE_IN_COMPILED_CODE, ids=lambda f: f.__name__)
def test_stencils_made_in_compiled_code(func):
    """stencil(kernel)(a), f = stencil(kernel), @stencil on a nested def:
    made once while the function compiles (Numba's njit and parallel=True
    paths both take them), equal to the function run in Python."""
    parallel, serial = _parallel_and_serial(func)
    extra = (2.5,) if func is _bound_once_called_twice else ()
    for shape in ((6, 5), (2, 2), (1, 1), (0, 3), (40, 3)):
        for dtype in (np.int64, np.float64, np.float32):
            a = (RNG.integers(-9, 9, shape) if dtype == np.int64 else RNG.standard_normal(shape)).astype(dtype)
            if dtype == np.float64 and a.size:
                a.flat[0] = np.nan
            want = func(a, *extra)
            for compiled in (parallel, serial):
                got = compiled(a, *extra)
                assert got.dtype == want.dtype
                np.testing.assert_allclose(got, want, rtol=1e-6 if dtype == np.float32 else 1e-15)


def _options_read_a_variable(a, w):
    return stencil(lambda x: x[-1] + x[1], neighborhood=((-w, w),))(a)


def _kernel_indexes_nothing(a):
    return stencil(lambda x: 1.0)(a)


def _kernel_reads_a_variable(a, t):
    return stencil(lambda x: t * x[1])(a)


def test_stencils_made_in_compiled_code_refuse_clearly():
    with pytest.raises(ruchey.TypingError, match="reads 't', a variable of the function"):
        ruchey.njit(_kernel_reads_a_variable)(np.ones(5), 2.0)
    with pytest.raises(ruchey.TypingError, match="constants, globals or kernels"):
        ruchey.njit(_options_read_a_variable)(np.ones(5), 1)
    with pytest.raises(ruchey.TypingError, match="no argument is indexed relatively"):
        ruchey.njit(_kernel_indexes_nothing)(np.ones(5))
