"""A name rebound to a value of another type, as Numba allows: each web of a
variable (the assignments whose values some read may find together) is
typed on its own, so `x = 1; use(x); x = "a"; use(x)` or stumpy's
`I = I[0, :, ::-1]` compile; where two assignments reach one read (an
if/else, a loop, a try) their types unify as before, and a TypingError
naming the variable says where they cannot. Every case against the
function's own Python original on generated inputs."""
import numpy
import pytest

import ruchey
from ruchey import cuda, njit, objmode, prange

from conftest import AS_NUMBA, assert_same, make_rng, random_floats, random_ints


# ---------------------------------------------------------------- straight-line rebinding

@njit
def scalar_then_array(n):
    x = n + 1
    a = x * 2
    x = numpy.arange(abs(n) % 50)
    return a, x.sum()


@njit
def scalar_then_string(n):
    x = n * 3
    a = x - 1
    x = "ab" if n > 0 else "xyz"
    return a, len(x)


@njit
def float_then_int(v):
    x = v * 0.5
    a = x + 1.0
    x = 7
    return a, x // 2


@pytest.mark.parametrize("f", [scalar_then_array, scalar_then_string])
def test_int_rebound_to_another_type(f):
    for n in random_ints(make_rng(1), 20, -1000, 1000):
        assert_same(f, n)


def test_float_rebound_to_int_stays_an_int():
    for v in random_floats(make_rng(2), 20):
        assert_same(float_then_int, v)


@njit
def stumpy_reversed_rows(n, m):
    I = numpy.zeros((2, n, m), dtype=numpy.int64)
    for i in range(n):
        for j in range(m):
            I[0, i, j] = i * m + j
    I = I[0, :, ::-1]
    return I


def test_array_rebound_to_a_view_of_another_ndim_and_layout():
    for n, m in [(1, 1), (3, 4), (5, 2), (0, 3)]:
        assert_same(stumpy_reversed_rows, n, m)


@njit
def transposed_and_flattened(x):
    a = x.copy()
    a = a.T
    s = a[0].sum()
    a = a.ravel()
    return s, a


def test_array_rebound_to_other_layouts_and_ndim():
    rng = make_rng(3)
    for shape in [(2, 3), (4, 1), (5, 5)]:
        assert_same(transposed_and_flattened, rng.standard_normal(shape))


# ---------------------------------------------------------------- parameters

@njit
def parameter_rebound(x, k):
    total = x.sum()
    x = total * k
    k = numpy.full(3, x)
    return k


@njit
def parameter_rebound_in_a_branch(x, c):
    if c > 0:
        x = x.sum()
        return x * 2.0
    return x[0]


def test_parameter_rebound_to_another_type():
    rng = make_rng(4)
    for k in random_ints(rng, 10, -100, 100):
        assert_same(parameter_rebound, rng.standard_normal(5), k)


def test_parameter_rebound_in_a_branch_that_returns():
    rng = make_rng(5)
    for c in (-1, 0, 1, 3):
        assert_same(parameter_rebound_in_a_branch, rng.standard_normal(4), c)


# ---------------------------------------------------------------- branches and loops

@njit
def branches_that_do_not_meet(n):
    if n > 0:
        y = n * 2
        r = y + 1.5
    else:
        y = numpy.ones(3)
        r = y.sum() - n
    return r


@njit
def loop_unifies_int_and_float(n):
    x = 0
    for i in range(n):
        x = x + 0.5
    return x


@njit
def rebound_after_a_loop(n):
    acc = 0
    for i in range(n):
        acc += i
    i = acc * 0.25
    acc = numpy.arange(3) + acc
    return i, acc


@njit
def rebound_inside_a_loop_body(x):
    out = numpy.empty_like(x)
    for i in range(x.shape[0]):
        t = x[i]
        t = t > 0.0
        out[i] = 1.0 if t else -1.0
    return out


def test_branches_that_do_not_meet():
    for n in random_ints(make_rng(6), 10, -100, 100):
        assert_same(branches_that_do_not_meet, n)


@njit
def branches_that_meet_unify(c):
    if c > 0:
        x = c
    else:
        x = c * 0.5
    y = x + 1
    x = "done"
    return y, len(x)


def test_branches_that_meet_unify_to_float():
    for c in random_ints(make_rng(12), 10, -100, 100):  # int ∪ float64 = float64, as Numba
        y, k = branches_that_meet_unify(c)
        py_y, py_k = branches_that_meet_unify.py_func(c)
        assert type(y) is float and y == py_y and k == py_k


@njit
def branch_values_as_array(c, a, b):
    if c:
        x = a
    else:
        x = b
    return numpy.full(1, x)


NUMBER_DTYPES = [numpy.int8, numpy.int16, numpy.int32, numpy.int64, numpy.uint8, numpy.uint16, numpy.uint32,
                 numpy.uint64, numpy.float16, numpy.float32, numpy.float64]


@pytest.mark.parametrize("first", NUMBER_DTYPES)
def test_numbers_that_meet_unify_by_numpy_promotion(first):
    rng = make_rng(13)
    for second in NUMBER_DTYPES:  # int16 with uint8 an int16, uint64 with a signed int a float64, as Numba
        a, b = first(rng.integers(0, 100)), second(rng.integers(0, 100))
        for c in (True, False):
            got = branch_values_as_array(c, a, b)
            assert got.dtype == numpy.promote_types(first, second), (first, second)
            assert got[0] == branch_values_as_array.py_func(c, a, b)[0]


def test_loop_unifies_assignments_that_meet():
    for n in (0, 1, 2, 9):  # one type, float64, even where the loop does not run (as Numba)
        got = loop_unifies_int_and_float(n)
        assert type(got) is float and got == loop_unifies_int_and_float.py_func(n)


def test_loop_variable_and_accumulator_rebound_after_the_loop():
    for n in (1, 2, 9):
        assert_same(rebound_after_a_loop, n)


def test_rebound_inside_a_loop_body():
    assert_same(rebound_inside_a_loop_body, make_rng(7).standard_normal(50))


@njit
def rebound_around_try(x, i):
    v = 0
    try:
        if i >= x.shape[0]:
            raise ValueError("past the end")
        v = x[i]
    except ValueError:
        v = -1.0
    w = v * 2
    v = "done"
    return w, len(v)


def test_try_assignments_meet_and_rebind_after():
    x = make_rng(8).standard_normal(4)
    for i in (0, 3, 4, -2, 10):
        assert_same(rebound_around_try, x, i)


# ---------------------------------------------------------------- where they meet: errors

def meet_in_if_else(c):
    if c:
        x = 1
    else:
        x = numpy.zeros(3)
    return x


def meet_in_loop(n):
    x = 1
    for i in range(n):
        n = n + x
        x = numpy.zeros(3)
    return n


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's own message")
@pytest.mark.parametrize("f", [meet_in_if_else, meet_in_loop])
def test_assignments_that_meet_with_incompatible_types_name_the_variable(f):
    with pytest.raises(ruchey.TypingError, match="variable 'x' is assigned both"):
        njit(f)(3)


# ---------------------------------------------------------------- unbound reads

@njit
def maybe_unbound_then_rebound(c):
    if c:
        y = 1
    r = y + 1
    y = numpy.zeros(2)
    return r, y.sum()


def test_unbound_local_error_survives_the_split():
    assert_same(maybe_unbound_then_rebound, 1)
    with pytest.raises(UnboundLocalError):
        maybe_unbound_then_rebound(0)


# ---------------------------------------------------------------- closures, objmode, options

@njit
def lambda_sees_the_current_value(n):
    x = n
    g = lambda t: t + x
    a = g(2)
    x = numpy.arange(3) * 1.5
    b = g(1.0)
    return a, b


def test_lambda_reads_the_web_live_at_its_call():
    for n in (0, 5, -3):
        assert_same(lambda_sees_the_current_value, n)


@njit
def objmode_rebinds(n):
    x = n * 2
    with objmode(x="float64"):
        x = x / 4.0
    return x


def test_objmode_output_rebinds_its_variable():
    for n in (0, 3, -7):
        assert_same(objmode_rebinds, n)


@pytest.mark.skipif(AS_NUMBA, reason="Numba refuses the second int")
def test_declared_locals_apply_to_every_web():
    @njit(locals={"x": ruchey.float64})
    def declared(n):
        x = n
        a = x / 2
        x = n + 1
        return a, x

    assert declared(3) == (1.5, 4.0)
    assert type(declared(3)[1]) is float


@njit(parallel=True)
def prange_rebinds(x):
    s = 0.0
    for i in prange(x.shape[0]):
        t = x[i]
        t = t * t
        s += t
    s = numpy.full(2, s)
    return s


def test_prange_body_and_result_rebound():
    x = make_rng(9).standard_normal(1000)
    got = prange_rebinds(x)
    numpy.testing.assert_allclose(got, prange_rebinds.py_func(x), rtol=1e-12)


@cuda.jit
def kernel_rebinds(out):
    i = cuda.grid(1)
    if i < out.size:
        v = i * 3
        w = v + 1
        v = w * 0.5
        out[i] = v


def test_kernel_variable_rebound():
    out = numpy.zeros(37)
    kernel_rebinds[2, 32](out)
    numpy.testing.assert_array_equal(out, (numpy.arange(37) * 3 + 1) * 0.5)


@njit
def rebound_through_finally(x, n):
    v = 0.0
    for i in range(n):
        try:
            if x[i] > 0.5:
                break
            if x[i] < -0.5:
                continue
            v = x[i]
        finally:
            v = v + 1
    r = v * 2
    v = "end"
    return r, len(v)


def test_finally_assignments_reach_past_break_and_continue():
    rng = make_rng(10)
    for n in (0, 1, 5, 20):
        assert_same(rebound_through_finally, rng.standard_normal(20), n)


@njit
def finally_on_break(n):
    x = n
    while True:
        try:
            a = x + 1
            break
        finally:
            x = n * 10
    return a, x


@njit
def finally_on_return_path(n):
    x = n
    try:
        if n > 0:
            return x
        x = -n
    finally:
        x = x * 3
    return x


def test_a_break_through_finally_sees_its_assignments():
    for n in random_ints(make_rng(11), 5, -50, 50):
        assert_same(finally_on_break, n)
        assert_same(finally_on_return_path, n)


# ---------------------------------------------------------------- writes where only writable arrays reach

@njit
def pad_key(key, width):
    """A read-only view of bytes in one branch, a writable array written in
    another: the name's one type is read-only, its writes are not."""
    n = len(key)
    if n == width:
        k = numpy.frombuffer(key, numpy.uint8)
    elif n < width:
        k = numpy.zeros(width, numpy.uint8)
        k[:n] = numpy.frombuffer(key, numpy.uint8)
        k[n] += 1
    else:
        k = numpy.frombuffer(key[:width], numpy.uint8)
    return k.sum(), k.shape[0]


@njit
def written_after_join(key, width):
    if len(key) >= width:
        k = numpy.frombuffer(key, numpy.uint8)
    else:
        k = numpy.zeros(width, numpy.uint8)
    k[0] = 1
    return k.sum()


@njit
def read_only_param_or_copy(a, copy):
    b = a
    if copy:
        b = a.copy()
        b[0] = -1.0
    return b.sum()


def test_write_reached_only_by_writable_array():
    rng = make_rng(31)
    for _ in range(20):
        n, width = int(rng.integers(0, 12)), int(rng.integers(1, 10))
        key = bytes(rng.integers(0, 256, n).astype(numpy.uint8))
        assert_same(pad_key, key, width)


def test_write_reached_by_read_only_array_is_refused():
    with pytest.raises(ruchey.TypingError, match="read-only"):
        written_after_join(b"abcdef", 3)


def test_write_to_copy_of_read_only_parameter():
    a = make_rng(32).standard_normal(9)
    a.flags.writeable = False
    for copy in (False, True):
        assert_same(read_only_param_or_copy, a, copy)
    assert a[0] != -1.0


@njit
def written_before_rebound_in_loop(key, n):
    k = numpy.zeros(4, numpy.uint8)
    for i in range(n):
        k[0] = i
        k = numpy.frombuffer(key, numpy.uint8)
    return k.sum()


def test_write_reached_round_a_loop_by_read_only_array_is_refused():
    with pytest.raises(ruchey.TypingError, match="read-only"):
        written_before_rebound_in_loop(b"abcd", 3)
