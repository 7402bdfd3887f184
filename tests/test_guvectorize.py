"""@guvectorize: generalized NumPy ufuncs of compiled functions, compared
with the Python function applied to each outer element, and with NumPy's
own results (a @ x, sums) where there is one."""
import re

import numpy as np
import pytest
from ruchey import guvectorize, vectorize

from conftest import AS_NUMBA, NUMPY1, make_rng, numpy2_only


def add_scalar(x, y, out):
    for i in range(x.shape[0]):
        out[i] = x[i] + y


def matvec(a, x, out):
    for i in range(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j] * x[j]
        out[i] = s


def total(x, out):
    s = 0
    for i in range(x.shape[0]):
        s += x[i]
    out[0] = s


def test_is_a_generalized_numpy_ufunc():
    g = guvectorize(["void(float64[:], float64, float64[:])", "void(int64[:], int64, int64[:])"],
                    "(n),()->(n)")(add_scalar)
    assert isinstance(g, np.ufunc)
    assert g.signature == "(n),()->(n)"
    assert g.nin == 2 and g.nout == 1
    assert g.types == ["dd->d", "ll->l"]


def test_identity_is_kept_and_checked_as_numbas():
    def plus(a, b, out):
        for i in range(a.shape[0]):
            out[i] = a[i] + b[i]

    for identity, expected in ((0, 0), (1, 1), (None, None), ("reorderable", None)):
        for g in (guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->(n)", identity=identity)(plus),
                  guvectorize("(n),(n)->(n)", identity=identity)(plus)):
            assert g.identity == expected and type(g.identity) is type(expected)
    with pytest.raises(ValueError, match="identity"):
        guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->(n)", identity=2)(plus)
    with pytest.raises(ValueError, match="identity"):
        guvectorize("(n),(n)->(n)", identity="none")(plus)


@numpy2_only  # NumPy 1 picks the float64 loop for an int64 array and a Python int
def test_add_scalar_broadcasts_over_outer_dimensions():
    g = guvectorize(["void(float64[:], float64, float64[:])", "void(int64[:], int64, int64[:])"],
                    "(n),()->(n)")(add_scalar)
    rng = make_rng(1)
    x = rng.random((4, 5, 6))
    y = rng.random((4, 1))
    got = g(x, y)
    np.testing.assert_array_equal(got, x + y[:, :, None])
    xi = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(g(xi, 10), xi + 10)
    assert g(xi, np.int64(10)).dtype == np.int64  # the loop of the very dtypes
    np.testing.assert_array_equal(g(x[:, ::2, ::-1], 2.0), x[:, ::2, ::-1] + 2.0)  # strided core and outer
    out = np.zeros((4, 5, 6))
    g(x, 1.0, out=out)
    np.testing.assert_array_equal(out, x + 1.0)


def test_matvec_two_core_dimensions():
    g = guvectorize(["void(float64[:, :], float64[:], float64[:])"], "(m,n),(n)->(m)")(matvec)
    rng = make_rng(2)
    a, x = rng.random((7, 3, 4)), rng.random(4)
    got = g(a, x)
    expected = np.empty((7, 3))
    for k in range(7):
        matvec(a[k], x, expected[k])
    np.testing.assert_allclose(got, expected, rtol=1e-14)
    np.testing.assert_allclose(got, a @ x, rtol=1e-12)
    np.testing.assert_allclose(g(np.asfortranarray(a[0]), x), a[0] @ x, rtol=1e-12)
    with pytest.raises(ValueError):
        g(a, np.ones(5))  # core dimension n differs: NumPy's error


def test_scalar_output_is_a_one_element_array():
    g = guvectorize(["void(int64[:], int64[:])", "void(float64[:], float64[:])"], "(n)->()")(total)
    x = np.arange(20).reshape(4, 5)
    got = g(x)
    assert got.shape == (4,) and got.dtype == np.int64
    np.testing.assert_array_equal(got, x.sum(axis=1))
    np.testing.assert_allclose(g(np.ones((2, 3))), [3.0, 3.0])


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's error_model='python' in gufunc loops")
def test_errors_raise_from_the_loop():
    def checked(x, out):
        for i in range(x.shape[0]):
            out[i] = 10 // x[i]
    g = guvectorize(["void(int64[:], int64[:])"], "(n)->(n)", error_model="python")(checked)
    np.testing.assert_array_equal(g(np.array([[1, 2], [5, 10]])), [[10, 5], [2, 1]])
    with pytest.raises(ZeroDivisionError):
        g(np.array([[1, 2], [0, 10]]))


def test_bad_layouts_and_signatures():
    with pytest.raises(ValueError):
        guvectorize(["void(float64[:], float64[:])"], "(n)(n)")(total)
    for layout in (")-:", "(n)->"):
        with pytest.raises(ValueError, match="bad token in signature"):
            guvectorize(["void(float64[:], float64[:])"], layout)(total)
    with pytest.raises(NameError, match="undefined output symbols: m,p"):  # no input gives their sizes
        guvectorize(["void(float64[:], float64[:,:,:])"], "(n)->(p,n,m)")(total)
    with pytest.raises(NameError, match="undefined output symbols: m"):
        guvectorize("(n)->(m)")(total)
    fixed = guvectorize(["void(float64[:], float64[:])"], "(n)->(3)")(total)  # a fixed size needs no input
    assert fixed(np.ones((2, 4))).shape == (2, 3)
    with pytest.raises(TypeError):
        guvectorize(["void(float64, float64[:])"], "(n)->()")(total)  # scalar for a core dimension
    with pytest.raises(TypeError):
        guvectorize(["void(float64[:])"], "(n)->()")(total)  # too few arguments
    with pytest.raises(TypeError):
        g = guvectorize(["void(float64[:], float64[:])"], "(n)->()")(total)
        g(np.ones(3, np.complex128))


def test_a_layout_alone_compiles_a_loop_per_dtypes_called_with():
    g = guvectorize("(n),()->(n)")(add_scalar)  # Numba's dynamic gufunc: outputs are given
    x = make_rng(5).uniform(-5, 5, (4, 6))
    out = np.empty_like(x)
    g(x, 1.5, out)
    np.testing.assert_array_equal(out, x + 1.5)
    if not NUMPY1:  # NumPy 1 picks the float64 loop for an int64 array and an int64 scalar (test_..._numpy2 below)
        outi = np.empty((3, 4), np.int64)
        g(np.arange(12).reshape(3, 4), np.int64(7), outi)  # the float64 loop's results do not cast to int64
        np.testing.assert_array_equal(outi, np.arange(12).reshape(3, 4) + 7)
        assert g.ufunc.types == ["dd->d", "ll->l"]
    x32 = x.astype(np.float32)
    out32 = np.empty_like(x32)
    g(x32, np.float32(0.5), out32)  # as Numba: float32 runs in the float64 loop, its results cast back
    np.testing.assert_array_equal(out32, (x32.astype(np.float64) + 0.5).astype(np.float32))
    assert g.ufunc.signature == "(n),()->(n)"
    scalar_out = np.empty(3)
    guvectorize("(n)->()")(total)(np.ones((3, 5)), scalar_out)
    np.testing.assert_array_equal(scalar_out, [5.0, 5.0, 5.0])


def square_plus(x, k, out):
    for i in range(x.shape[0]):
        out[i] = x[i] * x[i] + k


def per_row(f, out, *args):
    """f applied as the gufunc's loop: to each outer element, into out."""
    for index in np.ndindex(out.shape[:-1]):
        f(*(a[index] if np.ndim(a) > 1 else a for a in args), out[index])


@numpy2_only  # NumPy 1 picks the float64 loop for an int64 array and a Python int, whose output int64 refuses
def test_a_dynamic_gufunc_compiles_only_where_no_loop_takes_the_operands():
    """As Numba's: integers given with a float64 output run in the float64
    loop made first (in floats: no wrap-around); integer outputs, which the
    float loop's results cannot cast to, get an integer loop."""
    g = guvectorize("(n),()->(n)")(square_plus)
    x = make_rng(8).uniform(-3, 3, (3, 4))
    out, expected = np.empty_like(x), np.empty_like(x)
    g(x, 0.5, out)
    per_row(g.py_func, expected, x, 0.5)
    np.testing.assert_array_equal(out, expected)
    big = np.array([[3037000500, 7], [-5, 2**40]], np.int64)  # squares past int64
    out = np.empty(big.shape)
    g(big, 3, out)
    assert g.types == ["dd->d"]
    per_row(g.py_func, expected := np.empty(big.shape), big.astype(np.float64), 3.0)
    np.testing.assert_array_equal(out, expected)
    out_int = np.empty_like(big)
    g(big, np.int64(3), out_int)  # (a Python 3 would have NumPy pick the float64 loop, and refuse its output)
    assert g.types == ["dd->d", "ll->l"]
    with np.errstate(over="ignore"):
        wrapped = np.array([[int(np.int64(v) * np.int64(v) + 3) for v in row] for row in big])
    np.testing.assert_array_equal(out_int, wrapped)


def test_a_dynamic_gufunc_takes_its_outputs_by_name():
    g = guvectorize("(n),()->(n)")(add_scalar)
    x = make_rng(9).uniform(-5, 5, (4, 6))
    expected = np.empty_like(x)
    per_row(g.py_func, expected, x, 1.25)
    for give in (lambda out: {"out": out}, lambda out: {"out": (out,)}):
        out = np.empty_like(x)
        g(x, 1.25, **give(out))
        np.testing.assert_array_equal(out, expected)
    with pytest.raises(TypeError, match="give all 3 arguments"):
        g(x, 1.25, np.empty_like(x), out=np.empty_like(x))


def test_a_dynamic_gufunc_answers_as_a_ufunc_before_its_first_call():
    g = guvectorize("(m,n),(n)->(m)")(matvec)
    assert (g.nin, g.nout, g.nargs, g.signature, g.types, g.ntypes, g.identity, g.is_dynamic) == \
        (2, 1, 3, "(m,n),(n)->(m)", [], 0, None, True)
    a, x = make_rng(10).random((5, 2, 3)), make_rng(11).random(3)
    out = np.empty((5, 2))
    g(a, x, out)
    np.testing.assert_allclose(out, a @ x, rtol=1e-12)
    assert g.types == ["dd->d"] and g.ntypes == 1


def test_numbas_builders_add_loops_by_signature():
    """numba.np.ufunc.GUVectorize and Vectorize: loops added with add(sig),
    then build_ufunc(); a GUVectorize without is_dynamic compiles no more
    loops then, and is called as its ufunc (outputs optional); pickled, it
    keeps its loops."""
    import pickle
    from ruchey.ufunc import GUVectorize, Vectorize
    rng = make_rng(31)
    a, x = rng.random((3, 2, 4)).astype(np.float32), rng.random((3, 4)).astype(np.float32)
    builder = GUVectorize(matvec, "(m,n),(n)->(m)")
    builder.add("void(float32[:,:], float32[:], float32[:])")
    g = builder.build_ufunc()
    expected = np.einsum("kij,kj->ki", a, x)
    np.testing.assert_allclose(g(a, x), expected, rtol=1e-6)
    assert g._frozen and g.types == ["ff->f"]
    with pytest.raises(TypeError):
        g(a.astype(np.complex128), x)  # no loop takes them, and none is compiled
    again = pickle.loads(pickle.dumps(g))
    assert again._frozen and again.types == ["ff->f"]
    np.testing.assert_array_equal(again(a, x), g(a, x))
    dynamic = GUVectorize(add_scalar, "(n),()->(n)", is_dynamic=True)
    rows, out = a[:, 0].astype(np.float64), np.empty((3, 4))
    dynamic(rows, 2.0, out)
    np.testing.assert_array_equal(out, rows + 2.0)
    assert not dynamic._frozen and dynamic.build_ufunc() is dynamic
    v = Vectorize(lambda p, q: p * q + 1)
    v.add("float32(float32, float32)")
    u = v.build_ufunc()
    np.testing.assert_array_equal(u(x, x), x * x + 1)
    assert u.types == ["ff->f"]


def test_a_dynamic_gufunc_takes_every_argument():
    g = guvectorize("(n),()->(n)")(add_scalar)
    with pytest.raises(TypeError, match="Too few arguments for function 'add_scalar'.* give all 3 arguments"):
        g(np.ones(3), 1.0)
    with pytest.raises(TypeError, match="Too many arguments for function 'add_scalar'"):
        g(np.ones(3), 1.0, np.empty(3), np.empty(3))
    with pytest.raises(TypeError, match="dtype"):
        g(np.array(["a"]), 1.0, np.empty(1))


@pytest.mark.parametrize("target", ["parallel", "cuda"])
def test_targets_match_cpu(target):
    g = guvectorize(["void(float64[:, :], float64[:], float64[:])"], "(m,n),(n)->(m)", target=target)(matvec)
    rng = make_rng(3)
    a, x = rng.random((3000, 3, 4)), rng.random((3000, 4))
    np.testing.assert_allclose(g(a, x), np.einsum("kij,kj->ki", a, x), rtol=1e-12)
    np.testing.assert_allclose(g(a[0], x[0]), a[0] @ x[0], rtol=1e-12)


def test_cuda_target_takes_and_gives_device_arrays():
    """As numba-cuda's: a device array among the arguments gives device
    arrays; out= (a device array, on a stream) is written and returned."""
    from ruchey import cuda
    g = cuda.guvectorize(["void(float64[:, :], float64[:], float64[:])"], "(m,n),(n)->(m)")(matvec)
    rng = make_rng(4)
    a, x = rng.random((50, 3, 4)), rng.random((50, 4))
    expected = np.einsum("kij,kj->ki", a, x)
    got = g(cuda.to_device(a), x)
    assert isinstance(got, cuda.DeviceNDArray)
    np.testing.assert_allclose(got.copy_to_host(), expected, rtol=1e-12)
    stream = cuda.stream()
    out = cuda.device_array((50, 3), stream=stream)
    assert g(cuda.to_device(a, stream), cuda.to_device(x, stream), out=out, stream=stream) is out
    np.testing.assert_allclose(out.copy_to_host(stream=stream), expected, rtol=1e-12)
    host_out = np.zeros((50, 3))
    assert g(a, x, host_out) is host_out  # the output by position
    np.testing.assert_allclose(host_out, expected, rtol=1e-12)
    assert isinstance(g(a, x), np.ndarray) and g.__name__ == "matvec" and g.types == ["dd->d"]


def test_cuda_target_gufunc_pickles_by_value():
    import pickle

    def shifted(x, k, out):
        for i in range(x.shape[0]):
            out[i] = x[i] + k
    g = guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)", target="cuda")(shifted)
    h = pickle.loads(pickle.dumps(g))
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(h(x, 1.5), x + 1.5)
    assert type(h) is type(g) and h.types == g.types


def elapsed(start, end, out):
    for i in range(start.shape[0]):
        out[i] = end[i] - start[i]


def shifted_days(day, step, out):
    out[0] = day + step


@pytest.mark.skipif(AS_NUMBA, reason="Numba's gufuncs find no loop for a datetime of a unit (NumPy's resolver)")
@pytest.mark.parametrize("target", ["cpu", "parallel", "cuda"])
@pytest.mark.parametrize("unit", ["D", "h", "s", "ns"])
def test_datetime_signatures_take_datetimes_of_their_units(target, unit):
    """A loop of datetimes of a unit takes arrays of it (and of coarser units,
    cast as NumPy's safe rule allows), as numba-cuda's gufuncs do."""
    from ruchey import from_dtype
    day, delta = from_dtype(np.dtype(f"M8[{unit}]")), from_dtype(np.dtype(f"m8[{unit}]"))
    g = guvectorize([(day[:], day[:], delta[:])], "(n),(n)->(n)", target=target)(elapsed)
    h = guvectorize([(day, delta, day[:])], "(),()->()", target=target)(shifted_days)
    rng = make_rng(11)
    start = np.datetime64("2001-01-01", unit) + rng.integers(0, 10 ** 6, (7, 5)).astype(f"m8[{unit}]")
    end = start + rng.integers(-10 ** 6, 10 ** 6, (7, 5)).astype(f"m8[{unit}]")
    expected = np.empty((7, 5), f"m8[{unit}]")
    for k in range(7):
        elapsed(start[k], end[k], expected[k])
    got = g(start, end)
    assert got.dtype == np.dtype(f"m8[{unit}]")
    np.testing.assert_array_equal(got, expected)
    step = rng.integers(-500, 500, 5).astype(f"m8[{unit}]")
    got = h(start, step)
    assert got.dtype == np.dtype(f"M8[{unit}]")
    np.testing.assert_array_equal(got, start + step)
    coarse = start.astype("M8[D]")
    np.testing.assert_array_equal(g(coarse, coarse + np.timedelta64(3, "D")), np.timedelta64(3, "D"))
    if unit != "D":  # (days to hours is safe: the reverse is not)
        return
    with pytest.raises(TypeError):
        g(start.astype("M8[h]"), end.astype("M8[h]"))
    with pytest.raises(TypeError):
        g(start.view(np.int64), end.view(np.int64))


def test_cuda_target_casts_a_number_to_its_loops_type():
    def scale(k, x, out):
        for i in range(x.shape[0]):
            out[i] = k * x[i]
    g = guvectorize(["void(int32, int32[:], int32[:])"], "(),(t)->(t)", target="cuda")(scale)
    x = np.arange(10, dtype=np.int32)
    for k in (np.int64(3), 3, -2):
        got = g(k, x)
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, k * x)


def test_cuda_target_argument_errors():
    g = guvectorize(["void(float64[:, :], float64[:], float64[:])"], "(m,n),(n)->(m)", target="cuda")(matvec)
    with pytest.raises(TypeError, match="gufunc accepts 2 positional arguments.* or 3 .*Got 1 positional argument"):
        g(np.ones((2, 2)))
    out = np.zeros(2)
    with pytest.raises(ValueError, match="cannot specify argument 'out' as both positional and keyword"):
        g(np.ones((2, 2)), np.ones(2), out, out=out)


def test_cuda_target_has_no_object_mode():
    guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", target="cuda", nopython=True)(lambda x, y: None)
    for build in (lambda: guvectorize(["void(float64[:], float64[:])"], "(n)->(n)", target="cuda", nopython=False),
                  lambda: vectorize(["float64(float64)"], target="cuda", nopython=False)):
        with pytest.raises(TypeError, match="nopython flag must be True"):
            build()


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_a_signature_returning_a_value_is_refused(target):
    with pytest.raises(TypeError, match="guvectorized functions cannot return values.*int32 return type"):
        guvectorize(["int32(int32[:], int32[:])"], "(m)->(m)", target=target)(lambda x, y: None)


def test_parallel_errors_raise():
    def checked(x, out):
        for i in range(x.shape[0]):
            out[i] = 10 // x[i]
    g = guvectorize(["void(int64[:], int64[:])"], "(n)->(n)", target="parallel", error_model="python")(checked)
    x = np.ones((5000, 3), np.int64)
    x[4321, 1] = 0
    with pytest.raises(ZeroDivisionError):
        g(x)


def test_a_gufunc_keeps_its_compiled_loops_after_its_function_is_gone():
    import gc

    def make():
        @guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)")
        def shift(x, k, out):
            for i in range(x.shape[0]):
                out[i] = x[i] + k
        return shift

    shift = make()
    gc.collect()  # nothing but the gufunc holds the compiled function now
    x = np.arange(12.0).reshape(3, 4)
    for k in range(50):
        np.testing.assert_array_equal(shift(x, float(k)), x + k)


@guvectorize(["void(float64[:], float64[:])"], "(n)->()")
def named_total(x, out):
    out[0] = x.sum()


@vectorize(["float64(float64)"])
def named_twice(x):
    return 2.0 * x


@pytest.mark.skipif(np.lib.NumpyVersion(np.__version__) < "2.2.0",
                    reason="NumPy before 2.2 has no attributes on ufuncs: they stay unnamed there")
def test_ufuncs_carry_their_functions_module_name_and_docstring():
    """As Numba's: pickle finds them by name in their module (it no longer
    searches every module, asking the numba shim for names it lacks)."""
    import pickle
    for u, name in ((named_total, "named_total"), (named_twice, "named_twice")):
        assert (u.__module__, u.__qualname__, u.__name__) == (__name__, name, name)
        assert pickle.loads(pickle.dumps(u)) is u

    @guvectorize(["void(int64[:], int64, int64[:])"], "(n),()->(n)")
    def documented(x, y, res):
        "docstring for gufunc"
        for i in range(x.shape[0]):
            res[i] = x[i] + y

    @vectorize(["int64(int64)"])
    def documented_v(x):
        "docstring for ufunc"
        return x

    assert (documented.__doc__, documented_v.__doc__) == ("docstring for gufunc", "docstring for ufunc")
    assert documented.__qualname__ == "test_ufuncs_carry_their_functions_module_name_and_docstring.<locals>.documented"
    np.testing.assert_array_equal(named_total(np.ones((2, 3))), [3.0, 3.0])


# ---------------------------------------------------------------- calls from compiled code

def mean_distance_py(obs, members, out):  # a "()" input taken as an array of one element
    s = 0.0
    for x in members:
        s += abs(x - obs[0])
    out[0] = s / members.shape[0]


mean_distance = guvectorize(["void(float64[:], float64[:], float64[:])", "void(float32[:], float32[:], float32[:])"],
                            "(),(n)->()")(mean_distance_py)


@guvectorize("(),(n)->()")
def mean_distance_dynamic(obs, members, out):  # a dynamic gufunc's "()" input is a number
    s = 0.0
    for x in members:
        s += abs(x - obs)
    out[0] = s / members.shape[0]


matvec_gufunc = guvectorize(["void(float64[:, :], float64[:], float64[:])"], "(m,n),(n)->(m)")(matvec)


def mean_distances_in_python(obs, members):
    out = np.empty(obs.shape, members.dtype)
    for index in np.ndindex(obs.shape):
        one = np.empty(1, members.dtype)
        mean_distance_py(np.array([obs[index]]), members[index], one)
        out[index] = one[0]
    return out


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_compiled_code_calls_a_gufunc_with_its_outputs(dtype):
    from ruchey import njit

    @njit
    def scores(obs, members):
        out = np.empty(obs.shape, members.dtype)
        mean_distance(obs, members, out)
        return out

    rng = make_rng(12)
    obs, members = rng.normal(size=(3, 4)).astype(dtype), rng.normal(size=(3, 4, 7)).astype(dtype)
    got = scores(obs, members)
    assert got.dtype == dtype
    np.testing.assert_allclose(got, mean_distances_in_python(obs, members), rtol=1e-6 if dtype == np.float32 else 1e-15)
    np.testing.assert_array_equal(got, scores.py_func(obs, members))  # the gufunc's own loop, called from Python


def test_compiled_code_calls_a_dynamic_gufunc_for_its_dtypes():
    from ruchey import njit

    @njit
    def scores(obs, members):
        out = np.empty(obs.shape)
        mean_distance_dynamic(obs, members, out)
        return out

    rng = make_rng(13)
    members = rng.normal(size=(5, 6))
    for obs in (rng.normal(size=5), np.arange(5)):
        expected = np.empty(5)
        for i in range(5):
            mean_distance_dynamic.py_func(obs[i], members[i], expected[i:i + 1])
        np.testing.assert_allclose(scores(obs, members), expected, rtol=1e-15)


def test_compiled_code_casts_inputs_to_the_loop_that_takes_them():
    """As Numba: integers into the float64 loop (the gufunc has no integer
    loop); the inputs' outer dimensions are the loop's first ones."""
    from ruchey import njit

    @njit
    def apply(a, x, out):
        matvec_gufunc(a, x, out)
        return out

    rng = make_rng(14)
    a, x = rng.integers(-9, 9, (4, 2, 3)), rng.random((4, 3))
    np.testing.assert_allclose(apply(a, x, np.empty((4, 2))), apply.py_func(a, x, np.empty((4, 2))), rtol=1e-12)
    x1 = rng.random(3)  # fewer outer dimensions: the loop's first ones (none)
    np.testing.assert_allclose(apply(a * 1.0, x1, np.empty((4, 2))), np.einsum("kij,j->ki", a, x1), rtol=1e-12)


def test_compiled_gufunc_calls_refuse_mismatched_shapes_and_types():
    from ruchey import TypingError, njit

    @njit
    def apply(a, x, out):
        matvec_gufunc(a, x, out)

    @njit
    def no_output(a, x):
        return matvec_gufunc(a, x)

    rng = make_rng(15)
    a = rng.random((4, 2, 3))
    with pytest.raises(ValueError, match="core dimension n"):
        apply(a, rng.random((4, 5)), np.empty((4, 2)))
    with pytest.raises(ValueError, match="Loop and array shapes are incompatible"):
        apply(a, rng.random((5, 3)), np.empty((4, 2)))
    with pytest.raises(TypingError, match="no loop"):
        apply(a, rng.random((4, 3)), np.empty((4, 2), np.int64))
    with pytest.raises(TypingError, match="missing argument 'out'"):
        no_output(a, rng.random((4, 3)))


def test_mismatches_are_told_in_numbas_words_with_the_layout_as_written():
    from ruchey import TypingError, njit

    @guvectorize("(n),(n) -> ()")
    def dot(x, y, res):
        s = 0.0
        for i in range(x.shape[0]):
            s += x[i] * y[i]
        res[0] = s

    @njit
    def call(x, y, res):
        dot(x, y, res)

    x, y = np.ones((5, 2)), np.ones(2)
    res = np.zeros(5)
    call(x, y, res)
    np.testing.assert_array_equal(res, x @ y)
    with pytest.raises(ValueError, match=re.escape("Input operand 1 has a mismatch in its core dimension 0, with "
                                                   "gufunc signature (n),(n) -> () (size 3 is different from 2)")):
        dot(x, np.ones(3), res)
    with pytest.raises(TypingError, match=re.escape("dot: Input operand 0 does not have enough dimensions (has 0, "
                                                    "gufunc core with signature (n),(n) -> () requires 1)")):
        call(1.0, y, res)
    with pytest.raises(ValueError, match="Operand has a mismatch in one of its core dimensions"):
        call(x, np.ones(3), res)

    @guvectorize("(n),(m) -> (n)")
    def first_plus_sum(x, y, res):
        for i in range(x.shape[0]):
            res[i] = x[i] + y.sum()

    @njit
    def call_first_plus_sum(x, y, res):
        first_plus_sum(x, y, res)

    with pytest.raises(ValueError, match="core dimension n"):  # told before the outer dimensions' mismatch
        call_first_plus_sum(np.ones((5, 3, 2)), np.ones(3), np.zeros((5, 3)))
    res = np.zeros((5, 2))
    call_first_plus_sum(np.ones((5, 2)), np.arange(3.0), res)
    np.testing.assert_array_equal(res, np.full((5, 2), 4.0))


def every_fourth_is_one(x, out):
    for i in range(x.shape[0]):
        if i % 4 == 0:
            out[i] = 1


@pytest.mark.parametrize("out_dtype", [np.uint8, np.int8, np.float64, np.int64])
def test_outputs_keep_the_elements_the_function_leaves(out_dtype):
    # NumPy casts the int8, float64 and int64 outputs through a uint8 buffer:
    # the buffer starts with the output's values, as the output itself does
    g = guvectorize(["void(float64[:], uint8[:])"], "(n)->(n)")(every_fourth_is_one)
    rng = make_rng(2)
    for shape in [(10, 5), (3, 9), (0, 4), (7,)]:
        x = rng.random(shape)
        out = rng.integers(0, 100, shape).astype(out_dtype)
        expected = out.copy()
        for row in expected.reshape(-1, shape[-1]):
            every_fourth_is_one(np.empty(shape[-1]), row)
        g(x, out)
        np.testing.assert_array_equal(out, expected)


def double_in_place(x, out):
    for i in range(x.shape[0]):
        x[i] *= 2
    out[0] = x.shape[0]


@pytest.mark.parametrize("writable", [("x",), (0,)])
def test_writable_args_are_written_back_through_a_cast(writable):
    g = guvectorize(["void(float64[:], int64[:])"], "(n)->()", writable_args=writable)(double_in_place)
    rng = make_rng(3)
    for dtype in [np.float64, np.float32]:  # a float32 x goes through a float64 buffer
        x = rng.standard_normal((4, 6)).astype(dtype)
        expected = x * 2
        counts = g(x)
        np.testing.assert_array_equal(x, expected)
        np.testing.assert_array_equal(counts, np.full(4, 6))


def test_writable_args_name_inputs():
    """As Numba's checks: a name the function lacks is a RuntimeError, a
    position outside the inputs a ValueError, and target='cuda' takes none."""
    with pytest.raises(RuntimeError):
        guvectorize(["void(float64[:], int64[:])"], "(n)->()", writable_args=("y",))(double_in_place)
    for bad in ((1,), (-1,), (0, 1, 2)):
        with pytest.raises(ValueError):
            guvectorize(["void(float64[:], int64[:])"], "(n)->()", writable_args=bad)(double_in_place)
    with pytest.raises(TypeError, match="writable_args"):
        guvectorize(["void(float64[:], int64[:])"], "(n)->()", writable_args=(0,), target="cuda")(double_in_place)


# ---------------------------------------------------------------- forceobj: the Python function per element

class Scale:
    """A Python object the function makes, as object-mode code does (Numba's forceobj)."""

    def __init__(self, k):
        self.k = k


def scaled_sum(a, b, out):
    s = Scale(2)
    for i in range(a.shape[0]):
        out[i] = s.k * a[i] + b


def checked_double(x, n, out):
    for i in range(x.shape[0]):
        if x[i] < 0:
            raise ValueError("negative")
        out[i] = x[i] * n[0]


def test_forceobj_gufunc_matches_the_compiled_one_on_broadcast_operands():
    sig = ["void(float64[:], float64, float64[:])", "void(int64[:], int64, int64[:])"]
    objmode = guvectorize(sig, "(n),()->(n)", forceobj=True)(scaled_sum)
    compiled = guvectorize(sig, "(n),()->(n)")(add_twice)
    rng = make_rng(4411)
    for shape, bshape in (((7,), ()), ((3, 5), (3,)), ((2, 1, 4), (3,))):
        a, b = rng.normal(size=shape), rng.normal(size=bshape)
        got = objmode(a, b)
        assert got.dtype == np.float64
        np.testing.assert_array_equal(got, compiled(a, b))
        ai, bi = rng.integers(-99, 99, size=shape), rng.integers(-99, 99, size=bshape)
        assert objmode(ai, bi).dtype == compiled(ai, bi).dtype
        np.testing.assert_array_equal(objmode(ai, bi), compiled(ai, bi))
    out = np.empty((3, 5))
    a, b = rng.normal(size=(3, 5)), rng.normal(size=3)
    assert objmode(a, b, out) is out and objmode(a, b, out=out) is out
    np.testing.assert_array_equal(out, compiled(a, b))
    assert objmode.types == ["dd->d", "ll->l"] and objmode.nin == 2 and objmode.nout == 1


def add_twice(a, b, out):
    for i in range(a.shape[0]):
        out[i] = 2 * a[i] + b


def test_forceobj_gufunc_an_exception_stops_the_loop_there():
    """Numba's: the outputs given keep what was written before the error."""
    f = guvectorize(["void(int32[:], int32[:], int32[:])"], "(n),()->(n)", forceobj=True)(checked_double)
    x = np.array([1, 2, -3, 4], dtype=np.int32)
    out = np.zeros_like(x)
    with pytest.raises(ValueError, match="negative"):
        f(x, 2, out)
    assert out.tolist() == [2, 4, 0, 0]
    ok = np.arange(8, dtype=np.int32).reshape(2, 4)
    expected = np.empty_like(ok)
    for row, e in zip(ok, expected):
        checked_double(row, np.array([3]), e)
    np.testing.assert_array_equal(f(ok, 3), expected)


def test_forceobj_gufunc_bad_operands_are_clear_errors():
    f = guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->(n)", forceobj=True)(
        lambda a, b, out: None)
    with pytest.raises(ValueError, match="core dimension n"):
        f(np.ones(3), np.ones(4))
    with pytest.raises(TypeError, match="not supported for the input types"):
        f(np.ones(3, dtype=complex), np.ones(3))
    with pytest.raises(TypeError, match="takes 2 inputs"):
        f(np.ones(3))
    with pytest.raises(ValueError, match="needs 1"):
        f(np.float64(1.0), np.ones(1))
    with pytest.raises(TypeError, match="layout"):
        guvectorize(["void(float64[:], float64[:])"], "(n),(n)->(n)", forceobj=True)(lambda a, out: None)
