"""float16 in compiled code: arrays (loads, stores, creation, copies and
conversions), numpy.float16 scalars and arguments, arithmetic as NumPy's
half loops do it (each operation in float32, its result rounded to
float16), NumPy's promotions, conversions rounded once (not truncated, not
rounded twice through float32), reductions (sums and products accumulate
in float32, as NumPy's) and the NumPy functions that take float16; the
others refuse it with a TypingError. Each compared bit for bit with NumPy
or the function's Python original on generated values, with infinities,
NaN, signed zeros and subnormals among them."""
import numpy as np
import pytest

import ruchey
from ruchey import njit, prange

from arraygen import LAYOUTS, array, check, compiled
from conftest import NUMPY1, numpy2_only, run_python_file

SPECIAL = [0.0, -0.0, 1.0, -1.0, 65504.0, -65504.0, 6.1e-5, 6e-8, -6e-8, np.inf, -np.inf, np.nan, 0.5, 1024.0]


def halves(seed, n=200, scale=30.0, special=True):
    rng = np.random.default_rng(seed)
    a = (rng.normal(size=n) * scale).astype(np.float16)
    if special:
        a[: len(SPECIAL)] = SPECIAL
        rng.shuffle(a)
    return a


def same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    return got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want, equal_nan=True)


def quiet(f, *args):
    with np.errstate(all="ignore"):
        return f(*args)


# ---------------------------------------------------------------- arithmetic

@pytest.mark.parametrize("op", ["+", "-", "*", "/", "//", "%", "**"])
def test_array_operators_round_as_numpy(op):
    ns = {}
    exec(f"def f(a, b):\n    return a {op} b\n", ns)
    f = njit(ns["f"])
    for seed in range(3):
        a, b = halves(seed), halves(seed + 10, scale=3.0)
        if op == "**":
            a = np.abs(a)
        want = quiet(ns["f"], a, b)
        assert want.dtype == np.float16
        assert same(quiet(f, a, b), want)


def test_loop_of_scalar_operations_rounds_each_result():
    @njit
    def f(a, b):
        out = np.empty_like(a)
        for i in range(a.shape[0]):
            out[i] = a[i] * b[i] + a[i] - b[i] / np.float16(3)
        return out

    for seed in range(3):
        a, b = halves(seed), halves(seed + 5, scale=2.0)
        assert same(quiet(f, a, b), quiet(f.py_func, a, b))


def test_accumulating_in_a_float16_variable():
    @njit
    def f(a):
        s = np.float16(0)
        for v in a:
            s += v
        return s

    a = np.linspace(0, 1, 300).astype(np.float16)
    got, want = f(a), f.py_func(a)
    assert type(got) is np.float16 and got == want


@pytest.mark.parametrize("other", ["f2", "f4", "f8", "i1", "u1", "i2", "i4", "i8", "?"])
def test_promotion_with_other_dtypes_as_numpy(other):
    @njit
    def f(a, b):
        return a + b, b * a, a - 2.5, a * 3

    a = halves(1, n=20, special=False)
    b = (np.arange(20) % 5).astype(other)
    for g, w in zip(f(a, b), f.py_func(a, b)):
        assert same(g, w), (g.dtype, w.dtype)


def test_scalar_arguments_and_results():
    @njit
    def f(x, y):
        return x + y, x > y, -x, x / y, x * 2.5

    xs = [np.float16(v) for v in (1.5, -0.0, 65504.0, 6e-8, 3.0, np.inf)]
    for x in xs:
        for y in xs[2:]:  # (x / 0 raises ZeroDivisionError, as Numba's scalars, below)
            got, want = quiet(f, x, y), quiet(f.py_func, x, y)
            for g, w in zip(got[:4], want[:4]):
                assert type(g) is type(w.item()) if isinstance(w, np.bool_) else type(g) is type(w)
                assert same(g, w)
            # a float literal yields to a float16, as NumPy 2's (NEP 50); NumPy 1's scalars give float64
            assert type(got[4]) is (float if NUMPY1 else np.float16) and same(got[4], want[4])
    assert [str(s) for s in f.signatures] == ["(float16, float16)"]
    with pytest.raises(ZeroDivisionError):
        f(np.float16(1), np.float16(0))


@pytest.mark.parametrize("expr", ["a * 3", "3 * a", "a / 7", "a - 0.1", "a // 0.7", "a % 3", "a ** 1.5", "2 ** a",
                                  "a * 70000", "-3 * a + 1000.5"])
def test_float16_with_a_literal_number_stays_float16(expr):
    """A number written in the source yields to a float16 scalar or 0-d
    array, as NumPy 2's weak Python scalars (NumPy 1 promotes to float64)."""
    ns = {"np": np}
    exec(f"def f(a):\n    return {expr}\n", ns)
    f = njit(ns["f"])
    power = "**" in expr  # (a power that overflows raises OverflowError, as CPython's: tested elsewhere)
    for v in halves(7, n=60, scale=3.0 if power else 30.0, special=not power):
        for x in (v, np.array(v)):
            if NUMPY1 and expr == "a ** 1.5" and v < 0:  # (NumPy 1: a float64 power, which keeps CPython's error,
                with pytest.raises(ValueError, match="fractional power"):  # as a float64 argument's does)
                    f(x)
                continue
            got, want = quiet(f, x), quiet(ns["f"], x)
            assert type(got) is (float if NUMPY1 else np.float16) and same(got, want), (expr, v)


def test_float16_variable_multiplied_in_place_by_a_literal_stays_float16():
    @njit
    def f(a, n):
        x = a
        for i in range(n):
            x *= 3
        return x

    for v in halves(8, n=20, special=False):
        got, want = quiet(f, v, 4), quiet(f.py_func, v, 4)
        assert type(got) is (float if NUMPY1 else np.float16) and same(got, want)


def test_explicit_float16_signature_rounds_arguments():
    @njit("f2(f2, f2)")
    def f(x, y):
        return x / y

    assert f(1.0, 3.0) == np.float16(1.0) / np.float16(3.0)
    assert type(f(1.0, 3.0)) is np.float16
    assert f(1 + 2**-11 + 2**-40, 1.0) == np.float16(1 + 2**-10)  # rounded once, from the double


def test_dispatch_float16_apart_from_float32():
    @njit
    def f(a):
        return a[0]

    f(np.ones(2, np.float16))
    f(np.ones(2, np.float32))
    f(np.ones(3, np.float16))
    assert len(f.signatures) == 2


# ---------------------------------------------------------------- conversions

def test_double_to_half_rounds_once():
    @njit
    def f(x):
        return np.float16(x)

    rng = np.random.default_rng(0)
    cases = [1 + 2**-11 + 2**-40, 1 + 2**-11, 1 + 3 * 2**-11, 65504.0, 65519.99, 65520.0, 2.0**-24, 2.0**-25,
             2.0**-25 + 2.0**-60, 3 * 2.0**-26, -0.0, np.inf, np.nan, 1e300, -1e-300]
    cases += list(rng.normal(size=200) * 10.0 ** rng.integers(-9, 6, 200))
    for x in cases:
        got, want = quiet(f, x), quiet(np.float16, x)
        assert same(got, want), x


def test_conversions_of_arrays_as_numpy():
    @njit
    def f(a, d):
        return a.astype(np.float32), a.astype(np.float64), d.astype(np.float16), a.astype(np.int32)

    a = halves(2, special=False)
    rng = np.random.default_rng(3)
    d = np.concatenate([rng.normal(size=300) * 100, [1 + 2**-11 + 2**-40, 65520.0, 1e-9, -np.inf, np.nan]])
    for g, w in zip(quiet(f, a, d), quiet(f.py_func, a, d)):
        assert same(g, w)


def test_int_float_and_round_of_a_half():
    @njit
    def f(a, i):
        return float(a[i]), int(a[i]), round(a[i]), np.float32(a[i]), np.float64(a[i])

    a = halves(4, special=False)
    for i in range(len(a)):
        got, want = f(a, i), f.py_func(a, i)
        assert got[:3] == want[:3] and got[3] == want[3] and got[4] == want[4]


# ---------------------------------------------------------------- arrays

def test_creation_and_copies():
    @njit
    def f(n, a):
        return (np.zeros(n, np.float16), np.ones((2, n), dtype=np.float16), np.full(n, 1.1, np.float16),
                np.arange(n, dtype=np.float16), np.zeros_like(a), a.copy(), np.asarray(a), a[::2], a.T)

    a = halves(5, n=20)
    for g, w in zip(f(20, a), f.py_func(20, a)):
        assert same(g, w)


def test_two_dimensional_and_strided_arrays():
    @njit
    def f(a):
        s = np.float16(0)
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                a[i, j] = a[i, j] * np.float16(0.5) + np.float16(j)
                s = max(s, a[i, j])
        return s

    a = halves(6, n=48, special=False).reshape(6, 8)
    for view in (lambda x: x, lambda x: x.T, lambda x: x[::2, 1::3]):
        b, c = a.copy(), a.copy()
        assert f(view(b)) == f.py_func(view(c))
        assert same(b, c)


@pytest.mark.parametrize("name", ["sqrt", "exp", "log", "sin", "cos", "absolute", "floor", "ceil", "negative",
                                  "isnan", "isinf", "isfinite"])
def test_elementwise_functions_as_numpy(name):
    ns = {"np": np}
    exec(f"def f(a):\n    return np.{name}(a)\n", ns)
    f = njit(ns["f"])
    for seed in range(2):
        a = halves(seed, scale=3.0)
        assert same(quiet(f, a), quiet(ns["f"], a))


@pytest.mark.parametrize("name", ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "maximum",
                                  "minimum", "fmax", "fmin", "square", "sign", "signbit", "positive"])
def test_comparisons_picks_and_signs_as_numpy(name):
    """Bit for bit (NaN's own bits too), with NaN, infinities and zeros of
    both signs against each other, a float16, a Python float and an int."""
    nin = getattr(np, name).nin
    f = compiled(f"np.{name}(a{', b' if nin == 2 else ''})", "a, b")
    rng = np.random.default_rng(len(name))
    for layout in LAYOUTS:
        a, b = array(rng, np.float16, (9, 9), layout), array(rng, np.float16, (9, 9), layout)
        edge = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 6e-8, 65504.0], np.float16)
        a[0, :], b[:, 0], a[1, :], b[1, :] = edge, edge, edge[::-1], edge
        for other in (b, np.float16(0.5), 2.5, 3):
            got, want = quiet(f, a, other), quiet(f.py_func, a, other)
            assert got.dtype == want.dtype and got.shape == want.shape
            if got.dtype == np.float16:
                got, want = got.view(np.int16), want.view(np.int16)
            np.testing.assert_array_equal(got, want)


def test_where_and_clip():
    @njit
    def f(a):
        return np.where(a > 0, a, np.float16(0)), np.clip(a, -1, 1)

    a = halves(7)
    for g, w in zip(quiet(f, a), quiet(f.py_func, a)):
        assert same(g, w)


# shapes, views and copies move float16 elements as their bytes; the truth
# of each element (zero and -0.0 false, NaN true) is NumPy's
MOVED = [
    "np.moveaxis(c, 0, -1)", "np.swapaxes(b, 0, 1)", "b.swapaxes(1, 0)", "np.transpose(c, (1, 0, 2))",
    "b.transpose()", "b.reshape(4, 3)", "np.reshape(b, (2, 6))", "b.ravel()", "np.ravel(c)", "b.flatten()",
    "np.squeeze(b[:1], axis=0)", "b[:, :1].squeeze(axis=1)", "np.expand_dims(b, 1)", "np.atleast_1d(a)",
    "np.atleast_2d(a)", "np.atleast_3d(b)", "np.concatenate((b, b[::-1]), axis=1)", "np.stack((b, b), axis=2)",
    "np.vstack((b, b))", "np.hstack((b, b))", "np.dstack((b, b))", "np.column_stack((a, a))",
    "np.append(b, b, axis=0)", "np.flip(b)", "np.fliplr(b)", "np.flipud(b)", "np.rot90(b)", "np.roll(b, 2)",
    "np.roll(b, -1, axis=1)", "np.repeat(a, 2)", "b.repeat(2, axis=0)", "np.tile(a, 2)",
    "np.broadcast_to(a, (2, 4))", "np.resize(a, 7)", "np.diag(b)", "np.diag(a, 1)", "np.diagflat(a)",
    "np.tril(b)", "np.triu(b, 1)", "np.take(b, np.array([0, 2, -1]))", "np.take(b, np.array([0, 2]), axis=1)",
    "a.take(np.array([3, 0]))", "np.ascontiguousarray(b)", "np.asfortranarray(b)", "c[0].copy().view(np.int16)",
    "np.nonzero(b)", "b.nonzero()", "np.argwhere(b)", "np.flatnonzero(b)", "np.count_nonzero(b)", "np.any(b)",
    "np.all(b)", "b.any()", "a.all()",
]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("expr", MOVED)
def test_shape_and_view_functions_move_elements_as_numpy(expr, layout):
    f = compiled(expr, "a, b, c")
    rng = np.random.default_rng(len(expr))
    for zeros in (False, True):
        a, b, c = (array(rng, np.float16, shape, layout) for shape in ((4,), (3, 4), (2, 3, 4)))
        if zeros:  # some zeros (of both signs) among NaN and infinities
            a[::2], b[::2] = 0.0, -0.0
        check(f, a, b, c)  # (their contiguity is each function's, the same for every dtype)


def test_fill_of_a_float16_array():
    @njit
    def f(a, v):
        a.fill(v)
        return a

    rng = np.random.default_rng(3)
    for layout in LAYOUTS:
        for v in (1.1, np.float16(-2.5), 7, np.nan):
            check(f, array(rng, np.float16, (3, 4), layout), v)


def test_nditer_over_float16():
    @njit
    def f(a):
        out = []
        for x in np.nditer(a):
            out.append(x[()])
        return out

    rng = np.random.default_rng(4)
    for shape in ((3, 4), (5,), ()):
        a = array(rng, np.float16, shape)
        got, want = f(a), f.py_func(a)
        assert len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))


def test_prange_over_float16():
    @njit(parallel=True)
    def f(a, b):
        out = np.empty_like(a)
        for i in prange(a.shape[0]):
            out[i] = a[i] * b[i] + np.float16(1)
        return out

    a, b = halves(8, n=5000, special=False), halves(9, n=5000, scale=1.0, special=False)
    assert same(f(a, b), f.py_func(a, b))


# ---------------------------------------------------------------- reductions

@pytest.mark.parametrize("n", [1, 7, 8, 9, 100, 128, 129, 1000, 10000])
def test_sum_and_prod_accumulate_in_float32(n):
    @njit
    def f(a):
        return np.sum(a), a.sum(), np.prod(a[:20] / np.float16(8) + np.float16(1))

    a = halves(n, n=n, scale=1.0, special=False)
    got, want = f(a), f.py_func(a)
    for g, w in zip(got, want):
        assert type(g) is np.float16 and same(g, w)


def test_sums_along_an_axis_round_as_numpys():
    """Along the axis innermost in memory a float32 sum rounded once; along an
    outer one (columns) a float16 add per row, as NumPy's loops do there."""
    @njit
    def f(a, k):
        return np.sum(a, axis=k), a.prod(axis=k), np.mean(a, axis=k)

    rng = np.random.default_rng(12)
    for a in (rng.random((3, 101)), rng.random((101, 3)), np.asfortranarray(rng.random((7, 101))), rng.random((4, 5, 6))):
        a = (a + 0.5).astype(np.float16)
        for k in range(a.ndim):
            for g, w in zip(f(a, k), f.py_func(a, k)):
                assert g.dtype == w.dtype and same(g, w), (a.shape, k)


def test_mean_max_min_argmax():
    @njit
    def f(a):
        return np.mean(a), a.max(), np.min(a), np.argmax(a), a.argmin()

    for seed in range(4):
        a = halves(seed, n=333, scale=5.0, special=False)
        got, want = f(a), f.py_func(a)
        assert type(got[0]) is np.float16
        assert abs(float(got[0]) - float(want[0])) <= float(np.spacing(abs(want[0])))  # the division rounds twice
        assert got[1] == want[1] and got[2] == want[2] and got[3] == want[3] and got[4] == want[4]


def test_record_with_float16_field():
    dt = np.dtype([("h", "f2"), ("x", "f8")])

    @njit
    def f(a):
        for i in range(len(a)):
            a[i]["h"] = a[i]["h"] * np.float16(2) + a[i]["x"]
        return a["h"].sum()

    a = np.zeros(5, dt)
    a["h"], a["x"] = np.linspace(0, 1, 5), np.arange(5) / 3
    b = a.copy()
    assert f(a) == f.py_func(b)
    assert same(a["h"], b["h"])


# ---------------------------------------------------------------- refused

def test_functions_not_checked_for_float16_refuse_it():
    a = halves(1, n=10, special=False)
    for body in ["np.sort(a)", "np.dot(a, a)", "np.median(a)", "np.hypot(a, a)", "np.cumsum(a)", "np.arctan2(a, a)",
                 # NumPy's half reductions add in float32 as far as each inner loop runs: not folded per element
                 "np.add.reduce(a, initial=1.5)", "np.multiply.reduce(a)"]:
        ns = {"np": np}
        exec(f"def f(a):\n    return {body}\n", ns)
        with pytest.raises(ruchey.TypingError, match="does not support float16"):
            njit(ns["f"])(a)


def test_float16_typed_containers_refused(tmp_path):
    code = """
    import numpy as np, ruchey
    from ruchey import njit, typed
    njit(lambda x: x)(1)  # (typed.List of a NumPy scalar before any compile is another matter)
    try:
        typed.List([np.float16(1)])
    except TypeError as e:
        print("refused", e)
    @njit
    def f(a):
        return np.sort(a)
    try:
        f(np.ones(3, np.float16))
    except ruchey.TypingError:
        print("typing error")
    """
    r = run_python_file(code, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "refused" in r.stdout and "typing error" in r.stdout


# ---------------------------------------------------------------- typed containers made in compiled code

@njit
def half_containers(a):
    items = [a[0]]
    items.append(a[1])
    items.insert(0, a[2])
    every = [x for x in a]
    every.sort()
    by_index = {i: a[i] for i in range(len(a))}
    by_index[-1] = a[0] * a[1]  # arithmetic in float32, rounded to float16
    picked = sorted(every[: len(a) // 2], reverse=True)
    return (items[1] + by_index[1], items, every, by_index, a[3] in every, every.index(a[3]), picked,
            max(every), min(items), by_index.pop(2), every.pop())


def test_float16_items_of_lists_and_values_of_dicts_agree_with_python():
    for seed in range(4):
        a = halves(seed + 40, n=12, special=False)  # (no NaN: sorts with NaN differ from Python's)
        got, want = half_containers(a), half_containers.py_func(a)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            if isinstance(w, (list, dict)):
                g = dict(g.items()) if isinstance(w, dict) else list(g)
                assert g == w and all(type(x) is np.float16 for x in (g.values() if isinstance(g, dict) else g))
            else:
                assert g == w and type(g) is type(w)


@njit
def append_half(items, x):
    items.append(x)
    return len(items), items[-1]


def test_float16_list_made_in_compiled_code_passes_back_in():
    items = half_containers(halves(7, n=6, special=False))[1]
    assert type(items) is list  # a list display: a Python list, as Numba's reflected lists are
    assert append_half(items, np.float16(2.5)) == (4, np.float16(2.5))  # taken back, changed in place
    assert len(items) == 4 and type(items[-1]) is np.float16
    with pytest.raises(TypeError, match="heterogeneous"):
        append_half([np.float16(1), 2.0], np.float16(2.5))


@njit
def half_key(a):
    return {a[0]: 1}


def test_float16_dict_keys_refused():
    with pytest.raises(ruchey.TypingError, match="float16 dict keys are not supported"):
        half_key(np.ones(2, np.float16))


def test_item_of_a_float16_array_is_a_python_float():
    @njit
    def f(a):
        return a.item()

    @njit
    def twice(a):
        return a.item() * 2

    for x in halves(11, n=40):
        for a in (np.array(x), np.array([x]), np.full((1, 1), x, order="F")[:, ::-1]):
            for g in (f, twice):
                got, want = g(a), g.py_func(a)
                assert type(got) is type(want) is float
                assert same(got, want)
    with pytest.raises(ValueError, match="size 1"):
        f(halves(3, n=2, special=False))
