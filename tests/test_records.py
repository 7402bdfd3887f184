"""Records: NumPy structured dtypes in compiled code, as Numba supports
them. Arrays of records (1-D and 2-D, packed and aligned dtypes, fields of
every numeric type, complex and bool, nested records) and numpy.void
arguments; a[i].x and a[i]['x'] read and written; r = a[i] a view whose
writes reach the array; a['x'] and a.x strided views of one field, used by
loops, reductions and ufuncs; prange over records; dispatch by dtype; bad
input refused with clear errors. Compared with the function's Python
original (NumPy's void scalars have no attribute access, so functions that
write r.x are compared with a twin that writes r['x'])."""
import ctypes

import numpy as np
import pytest

import ruchey
from ruchey import njit, prange

from conftest import make_rng, rss_bytes, run_python_file, seed_of

NUMERIC = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16", "?"]


def dtype_of(codes, align):
    return np.dtype([(f"f{k}", c) for k, c in enumerate(codes)], align=align)


def filled(dt, shape, seed):
    """An array of records with every field given random values."""
    rng = np.random.default_rng(seed)
    a = np.zeros(shape, dt)
    for name in dt.names:
        t = dt.fields[name][0]
        if t.kind == "b":
            a[name] = rng.integers(0, 2, shape).astype(bool)
        elif t.kind in "iu":
            info = np.iinfo(t)
            a[name] = rng.integers(max(info.min, -100), min(info.max, 100), shape, endpoint=True).astype(t)
        elif t.kind == "c":
            a[name] = (rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(t)
        else:
            a[name] = rng.normal(size=shape).astype(t)
    return a


def same_records(a, b):
    """Equal dtypes and fields (an aligned dtype's padding bytes are not
    copied by NumPy, so are not compared)."""
    return a.dtype == b.dtype and a.shape == b.shape and all(
        np.array_equal(a[name], b[name], equal_nan=a.dtype.fields[name][0].kind in "fc") for name in a.dtype.names)


ALIGNS = [False, True]
PAIR_DTYPES = [dtype_of(["f8", "i4", "c16", "?"], al) for al in ALIGNS] + \
              [dtype_of(["u1", "f4", "i8", "c8", "i2"], al) for al in ALIGNS]


# ---------------------------------------------------------------- reading fields

@pytest.mark.parametrize("code", NUMERIC)
@pytest.mark.parametrize("align", ALIGNS)
def test_field_of_every_numeric_type_read(code, align):
    dt = dtype_of(["u1", code, "f8"], align)

    @njit
    def f(a, i):
        return a[i]["f1"]

    a = filled(dt, 7, 1)
    for i in range(7):
        got, want = f(a, i), f.py_func(a, i)
        assert got == want and type(got) is (np.float16 if code == "f2" else type(want.item()))


@pytest.mark.parametrize("dt", PAIR_DTYPES, ids=str)
def test_attribute_and_item_reads_agree_with_numpy(dt):
    @njit
    def by_attr(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i].f0 * 2 + a[i].f1
        return s

    @njit
    def by_item(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]["f0"] * 2 + a[i]["f1"]
        return s

    for seed in range(3):
        a = filled(dt, 11, seed)
        want = by_item.py_func(a)  # NumPy's scalars add float32 fields in float32, compiled code in float64
        assert by_attr(a) == pytest.approx(want, rel=1e-6)
        assert by_item(a) == pytest.approx(want, rel=1e-6)


def test_two_dimensional_array_of_records():
    dt = dtype_of(["f8", "i4"], False)

    @njit
    def f(a):
        s = 0.0
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                s += a[i, j]["f0"] * a[i, j]["f1"] - j
        return s

    for seed in range(3):
        a = filled(dt, (4, 5), seed)
        assert f(a) == pytest.approx(f.py_func(a), rel=1e-12)
        t = a.T  # Fortran order
        assert f(t) == pytest.approx(f.py_func(t), rel=1e-12)
        s = a[::2, 1::2]  # any strides
        assert f(s) == pytest.approx(f.py_func(s), rel=1e-12)


def test_record_view_from_an_element_and_iteration():
    dt = dtype_of(["f8", "i8", "c16"], True)

    @njit
    def f(a):
        s = 0.0
        for r in a:
            s += r["f0"] + r["f1"] + r["f2"].real
        r = a[1]
        return s + r["f2"].imag

    a = filled(dt, 9, 4)
    assert f(a) == pytest.approx(f.py_func(a), rel=1e-12)


def test_nested_record_field():
    inner = np.dtype([("p", "f8"), ("q", "i2")])
    dt = np.dtype([("k", "i4"), ("in", inner), ("w", "f4")])

    @njit
    def f(a):
        s = 0.0
        for i in range(len(a)):
            s += a[i]["in"]["p"] * a[i]["in"]["q"] + a[i]["k"] + a[i]["w"]
        return s

    a = np.zeros(6, dt)
    a["k"] = np.arange(6)
    a["in"]["p"] = np.linspace(0, 1, 6)
    a["in"]["q"] = np.arange(6) * 3
    a["w"] = 0.5
    assert f(a) == pytest.approx(f.py_func(a), rel=1e-12)


# ---------------------------------------------------------------- writing fields

@pytest.mark.parametrize("dt", PAIR_DTYPES, ids=str)
def test_writes_through_element_and_view(dt):
    @njit
    def by_attr(a):
        for i in range(len(a)):
            r = a[i]
            r.f0 = abs(r.f1) * 3 + i
            a[i].f1 += 2
            a[i]["f2"] = a[i]["f2"] * 2

    def twin(a):
        for i in range(len(a)):
            r = a[i]
            r["f0"] = abs(r["f1"]) * 3 + i
            a[i]["f1"] += 2
            a[i]["f2"] = a[i]["f2"] * 2

    @njit
    def by_item(a):
        twin_body(a)

    twin_body = njit(twin)
    for seed in range(3):
        a = filled(dt, 8, seed)
        b, c = a.copy(), a.copy()
        twin(a)
        by_attr(b)
        by_item(c)
        for name in dt.names:
            np.testing.assert_array_equal(b[name], a[name])
            np.testing.assert_array_equal(c[name], a[name])


def test_store_converts_as_numpy():
    dt = np.dtype([("i", "i2"), ("u", "u1"), ("f", "f4"), ("b", "?")])

    @njit
    def f(a, x):
        a[0]["i"] = x
        a[0]["u"] = x
        a[0]["f"] = x
        a[0]["b"] = x

    for x in [3.75, 2.5, 0.0, 7, 200.0]:  # (floats out of an int's range convert as the hardware does)
        a, b = np.zeros(1, dt), np.zeros(1, dt)
        f(a, x)
        b[0]["i"], b[0]["u"], b[0]["f"], b[0]["b"] = int(x), int(x), x, bool(x)
        assert same_records(a, b)


def test_whole_record_assigned_between_elements():
    dt = dtype_of(["f8", "i4", "?"], False)

    @njit
    def f(a):
        for i in range(len(a) - 1):
            a[i] = a[i + 1]

    a = filled(dt, 6, 2)
    b = a.copy()
    f(a)
    f.py_func(b)
    assert same_records(a, b)


def test_record_argument_numpy_void():
    dt = dtype_of(["f8", "i4", "c8"], True)
    a = filled(dt, 4, 5)

    @njit
    def f(r):
        return r["f0"] * r["f1"] + r["f2"].real

    for i in range(4):
        assert f(a[i]) == pytest.approx(f.py_func(a[i]), rel=1e-6)
    assert len(f.signatures) == 1


def test_sub_array_fields():
    dt = np.dtype([("k", "i4"), ("v", "f8", (3,)), ("m", "i2", (2, 2))])

    @njit
    def f(a):
        s = 0.0
        for i in range(len(a)):
            v = a[i]["v"]
            for j in range(v.shape[0]):
                s += v[j] * a[i]["k"]
            a[i]["v"][1] = -1.0
            a[i].m[0, 1] += 3
            s += a[i]["m"][1, 0]
        return s, a["v"], a["m"].sum(), a["v"][:, 2].sum(), a[0]["v"], a["m"][1:].shape

    def twin(a):
        s = 0.0
        for i in range(len(a)):
            v = a[i]["v"]
            for j in range(v.shape[0]):
                s += v[j] * a[i]["k"]
            a[i]["v"][1] = -1.0
            a[i]["m"][0, 1] += 3
            s += a[i]["m"][1, 0]
        return s, a["v"], a["m"].sum(), a["v"][:, 2].sum(), a[0]["v"], a["m"][1:].shape

    a = np.zeros(4, dt)
    a["k"], a["v"], a["m"] = np.arange(4), np.arange(12).reshape(4, 3) * 0.5, np.arange(16).reshape(4, 2, 2)
    b = a.copy()
    got, want = f(a), twin(b)
    assert got[0] == want[0] and got[2] == want[2] and got[3] == want[3] and got[5] == want[5]
    np.testing.assert_array_equal(got[1], want[1])
    np.testing.assert_array_equal(got[4], want[4])
    assert same_records(a, b)
    assert "v[type=nestedarray(float64, (3,));offset=4],m[type=nestedarray(int16, (2, 2));offset=28]" in \
        str(f.signatures[0])


# ---------------------------------------------------------------- field views

@pytest.mark.parametrize("dt", PAIR_DTYPES, ids=str)
def test_field_view_in_array_features(dt):
    @njit
    def f(a):
        x = a["f0"]
        y = a.f1
        return x.sum(), np.sqrt(np.abs(x)) + y, (x * 2 - y).max(), x.shape[0]

    def twin(a):
        x = a["f0"]
        y = a["f1"]
        return x.sum(), np.sqrt(np.abs(x)) + y, (x * 2 - y).max(), x.shape[0]

    for seed in range(3):
        a = filled(dt, 10, seed)
        got, want = f(a), twin(a)
        assert got[0] == pytest.approx(want[0], rel=1e-6)
        # (NumPy takes the square root of uint8 in float16, compiled code in float32)
        np.testing.assert_allclose(got[1], want[1], rtol=2e-3 if dt["f0"] == np.uint8 else 1e-6)
        assert got[2] == pytest.approx(want[2], rel=1e-6)
        assert got[3] == want[3]


def test_field_view_writes_reach_the_array_and_loops_over_it():
    dt = dtype_of(["f8", "i4"], False)

    @njit
    def f(a):
        x = a["f0"]
        for i in range(x.shape[0]):
            x[i] = i * 0.5
        a["f1"][:] = 7
        return a["f0"].sum()

    a = filled(dt, 5, 0)
    b = a.copy()
    assert f(a) == f.py_func(b)
    assert same_records(a, b)


def test_field_view_of_2d_array_returned():
    dt = dtype_of(["i2", "f8"], True)

    @njit
    def f(a):
        return a["f1"], a["f0"].sum(axis=0)

    a = filled(dt, (3, 4), 1)
    got, want = f(a), f.py_func(a)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


def test_copy_len_shape_of_record_array():
    dt = dtype_of(["f8", "u2"], False)

    @njit
    def f(a):
        b = a.copy()
        b[0]["f0"] = -1.0
        return b, len(a), a.shape, a.size, a.ndim, a.itemsize, a.nbytes, a[::2].strides

    a = filled(dt, 4, 3)
    got, want = f(a), f.py_func(a)
    assert same_records(got[0], want[0]) and got[1:] == want[1:]
    assert a["f0"][0] != -1.0


def test_views_and_selections_of_record_arrays_returned():
    dt = dtype_of(["f8", "i4", "c8"], False)

    @njit
    def f(a, idx):
        return a[1:], a[idx], a[::2]

    a = filled(dt, 7, 6)
    idx = np.array([4, 0, 4, 2])
    for got, want in zip(f(a, idx), f.py_func(a, idx)):
        assert same_records(got, want)


def test_record_passed_between_compiled_functions():
    dt = dtype_of(["f8", "i4"], True)

    @njit
    def g(r, k):
        r["f1"] = k
        return r["f0"] * 2

    @njit
    def f(a):
        s = 0.0
        for i in range(len(a)):
            s += g(a[i], i)
        return s

    a = filled(dt, 5, 8)
    b = a.copy()
    assert f(a) == f.py_func(b)
    assert same_records(a, b)


REC = np.dtype([("x", "f8"), ("y", "i4"), ("z", "c8")], align=True)
BAD = np.dtype([("x", "O"), ("y", "f8")])


def test_creation_with_a_structured_dtype_global():
    @njit
    def make(n):
        a = np.zeros(n, REC)
        b = np.empty((2, n), dtype=REC)
        for i in range(n):
            a[i]["x"] = i * 1.5
            a[i]["y"] = i - 2
            a[i]["z"] = 1j * i
            b[1, i] = a[i]
        return a, b[1], np.zeros_like(a), a["x"].sum()

    for n in (0, 1, 5):
        got, want = make(n), make.py_func(n)
        for g, w in zip(got[:3], want[:3]):
            assert same_records(g, w)
        assert got[3] == want[3]


@njit
def made_like(a, n):
    b = np.zeros(n, a.dtype)
    c = np.empty((n, 2), dtype=a.dtype)
    for i in range(n):
        b[i] = a[i % len(a)]
        c[i, 1] = a[-1]
    return a.dtype, b, c[:, 1]


@pytest.mark.parametrize("codes", [["f8", "i4", "c8"], ["i1", "?", "f4"], ["u2", "f2", "i8", "c16"]])
@pytest.mark.parametrize("align", [False, True])
def test_arrays_made_of_a_record_arrays_dtype(codes, align):
    a = filled(dtype_of(codes, align), 4, seed_of(codes))
    for n in (0, 3, 6):
        got, want = made_like(a, n), made_like.py_func(a, n)
        assert got[0] == want[0]
        assert same_records(got[1], want[1]) and same_records(got[2], want[2])


VIEW_DTYPES = [np.dtype([("a", "i1"), ("b", "i1")]), np.dtype([("u", "i2"), ("v", "i1")]),
               dtype_of(["f4", "i2"], True), np.dtype("i2"), np.dtype("u1")]


def viewed_as(dt):
    return njit(lambda a: a.view(dt))


def same_view_or_error(f, a, dt):
    try:
        want = a.view(dt)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            f(a)
        assert str(got.value) == str(e)
        return
    got = f(a)
    assert got.dtype == want.dtype and got.shape == want.shape and got.strides == want.strides
    assert np.array_equal(got, want)
    assert got.ctypes.data == a.ctypes.data  # the same memory


@pytest.mark.parametrize("dt", VIEW_DTYPES, ids=str)
def test_view_as_and_of_records_reads_the_same_bytes(dt):
    raw = np.random.default_rng(4).integers(-100, 100, size=48).astype(np.int8)
    arrays = [raw, raw.reshape(2, 24), raw.reshape(4, 12)[::-1], raw.reshape(6, 8).T, raw[:0]]
    arrays += [raw.view(d) for d in VIEW_DTYPES[:3]]  # records viewed as numbers or other records
    f = viewed_as(dt)
    for a in arrays:
        same_view_or_error(f, a, dt)


def test_structured_dtype_global_refused_where_not_supported():
    @njit
    def bad(n):
        return np.zeros(n, BAD)

    @njit
    def ones(n):
        return np.ones(n, REC)

    with pytest.raises(ruchey.TypingError, match="field 'x' has dtype object"):
        bad(3)
    with pytest.raises(ruchey.TypingError, match="numpy.ones.. does not support records"):
        ones(3)


# ---------------------------------------------------------------- parallel loops

def test_records_in_prange():
    dt = dtype_of(["f8", "f8", "i4"], True)

    @njit(parallel=True)
    def f(a):
        s = 0.0
        for i in prange(len(a)):
            a[i]["f1"] = a[i]["f0"] * 2 + a[i]["f2"]
            s += a[i]["f1"]
        return s

    a = filled(dt, 1000, 7)
    b = a.copy()
    assert f(a) == pytest.approx(f.py_func(b), rel=1e-12)
    assert same_records(a, b)


# ---------------------------------------------------------------- dispatch

def test_dispatch_by_dtype():
    @njit
    def f(a):
        return a[0]["x"]

    d1 = np.dtype([("x", "f8"), ("y", "i4")])
    d2 = np.dtype([("x", "i4"), ("y", "f8")])
    d1_again = np.dtype([("x", "f8"), ("y", "i4")])
    d1_aligned = np.dtype([("x", "f8"), ("y", "i4")], align=True)
    assert f(np.ones(2, d1)) == 1.0
    assert f(np.ones(2, d1_again)) == 1.0
    assert len(f.signatures) == 1
    assert f(np.ones(2, d2)) == 1
    assert len(f.signatures) == 2
    f(np.ones(2, d1_aligned))
    assert len(f.signatures) == 3
    assert "Record(x[type=float64;offset=0],y[type=int32;offset=8];12;False)" in str(f.signatures[0])


def test_an_aligned_struct_and_its_packed_twin_are_two_types():
    """Two dtypes of the same fields, offsets and size, one an aligned struct
    (align=True): NumPy calls them equal, Numba's Records of them are two
    types (the name says which), and so are ruchey's, in signatures too."""
    packed = np.dtype([("x", np.float16), ("y", np.float16)])
    aligned = np.dtype([("x", np.float16), ("y", np.float16)], align=True)
    assert packed == aligned and packed.itemsize == aligned.itemsize
    tp, ta = ruchey.typeof(np.zeros(1, packed)), ruchey.typeof(np.zeros(1, aligned))
    assert tp != ta and tp.dtype != ta.dtype and ta.dtype.aligned and not tp.dtype.aligned
    assert ruchey.types.from_dtype(aligned) == ta.dtype and ruchey.types.from_dtype(packed) == tp.dtype
    assert {tp: 1, ta: 2}[ruchey.typeof(np.ones(3, aligned))] == 2

    @njit
    def total(a):
        return a[0]["x"] + a[-1]["y"]

    rng = make_rng(seed_of("aligned_twin"))
    for dt in (packed, aligned):
        a = np.zeros(5, dt)
        a["x"], a["y"] = rng.normal(size=5), rng.normal(size=5)
        assert total(a) == total.py_func(a)
    assert len(total.signatures) == 2 and total.signatures[0] != total.signatures[1]


# ---------------------------------------------------------------- bad input

def test_unknown_field_names_field_and_dtype():
    dt = np.dtype([("x", "f8"), ("y", "i4")])

    @njit
    def f(a):
        return a[0].z

    @njit
    def g(a):
        return a[0]["zz"]

    @njit
    def h(a):
        return a["q"]

    for fn, name in [(f, "z"), (g, "zz"), (h, "q")]:
        with pytest.raises(ruchey.TypingError, match=rf"Record\(x\[type=float64.*has no field '{name}'"):
            fn(np.zeros(2, dt))


def test_refused_dtypes_at_dispatch():
    @njit
    def f(a):
        return len(a)

    cases = [
        (np.zeros(2, [("o", "O"), ("x", "f8")]), "field 'o' has dtype object"),
        (np.zeros(2, [("s", ">U3"), ("x", "f8")]), "field 's' has dtype >U3"),
        (np.zeros(2, [("v", "O", (3,))]), "field 'v' has dtype object"),
        (np.zeros(2, [("x", ">f8")]), "field 'x' has dtype >f8"),
    ]
    for a, why in cases:
        with pytest.raises(TypeError, match="structured dtype .*" + why):
            f(a)
    with pytest.raises(TypeError, match="field 'o' has dtype object"):
        f(np.zeros(2, [("o", "O"), ("x", "f8")])[0])
    assert f((np.zeros(2, [("x", "f8")])[0], 1)) == 2  # a record inside a tuple is taken (it was refused)


def test_records_refused_where_not_supported():
    dt = np.dtype([("x", "f8"), ("y", "i4")])
    a = np.zeros(3, dt)

    @njit
    def sums(a):
        return np.sum(a)

    @njit
    def returns(a):
        return a[0], 1

    @njit
    def adds(a):
        return a + 1

    @njit
    def stores(a):
        a[0]["x"] = 1j

    @njit
    def by_string(a):
        return a[0]["x"]["y"]

    @njit
    def maybe(a, k):
        if k > 0:
            return a[0]
        return None

    for fn in (sums, returns, adds, stores, by_string):
        with pytest.raises(ruchey.TypingError):
            fn(a)
    with pytest.raises(ruchey.TypingError, match="returns a record on some paths and None"):
        maybe(a, 1)


def test_bad_records_do_not_crash(tmp_path):
    code = """
    import numpy as np, ruchey
    from ruchey import njit
    dt = np.dtype([("x", "f8"), ("y", "i4")])
    @njit
    def f(a, i):
        r = a[i]
        return r["x"] + r.y
    a = np.zeros(3, dt)
    for bad in [np.zeros(3), np.zeros(3, [("x", "O")]), 1.0, (a[0],), np.zeros((2, 2), dt)]:
        try:
            f(bad, 0)
        except (TypeError, ruchey.TypingError):
            pass
    try:
        f(a, 5)
    except IndexError:
        pass
    print("ok", f(a, 1))
    """
    r = run_python_file(code, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "ok 0.0" in r.stdout


# ---------------------------------------------------------------- records returned

def same_record(got, want):
    """A returned record: a numpy.record (as Numba's) with the original's fields."""
    return type(got) is np.record and got.dtype.names == want.dtype.names and all(
        got[name] == want[name] or (got[name] != got[name] and want[name] != want[name]) for name in want.dtype.names)


@pytest.mark.parametrize("dt", PAIR_DTYPES, ids=str)
def test_record_returned_to_python_is_a_copy(dt):
    @njit
    def f(a, i):
        return a[i]

    a = filled(dt, 6, seed_of("returned", str(dt)))
    for i in range(6):
        got, want = f(a, i), f.py_func(a, i).copy()
        assert same_record(got, want)
        a[i] = a[(i + 1) % 6]
        assert same_record(got, want)  # a copy: later writes to the array do not reach it


def test_record_argument_returned_and_its_field_written():
    dt = dtype_of(["f8", "i4", "c8"], False)

    @njit
    def f(r, v):
        r.f0 = v
        r["f1"] += 1
        return r

    def twin(r, v):
        r["f0"] = v
        r["f1"] += 1
        return r

    a, b = filled(dt, 3, 9), filled(dt, 3, 9)
    for i, v in enumerate([0.5, -2.0, 1e300]):
        got, want = f(a[i], v), twin(b[i], v)
        assert same_record(got, want)
        assert same_records(a, b)  # the argument is a view: the writes reach the array


def test_record_of_an_array_made_inside_is_copied_out_before_it_is_freed():
    @njit
    def f(n, i):
        b = np.zeros(n, REC)
        for k in range(n):
            b[k]["x"] = k * 0.25
            b[k]["y"] = -k
            b[k]["z"] = 1j * k
        return b[i]

    for n, i in [(1, 0), (5, 3), (1000, 999)]:
        got, want = f(n, i), f.py_func(n, i)
        assert same_record(got, want)
    f(1000, 1)
    before = rss_bytes()
    for _ in range(2000):
        f(1000, 1)
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


def test_record_returned_between_compiled_functions():
    dt = dtype_of(["f8", "i4"], True)

    @njit
    def pick(a, i):
        return a[i]

    @njit
    def made(n):
        b = np.zeros(n, dt)
        b[n - 1]["f0"] = 2.5
        return b[n - 1]

    @njit
    def f(a):
        s = 0.0
        for i in range(len(a)):
            r = pick(a, i)
            s += r["f0"] * r["f1"]
        m = made(3)
        return s + m["f0"]

    @njit
    def g(n):
        return made(n)

    a = filled(dt, 7, seed_of("between"))
    assert f(a) == pytest.approx(f.py_func(a), rel=1e-12)
    assert same_record(g(4), g.py_func(4))


def test_nested_record_field_returned():
    inner = np.dtype([("p", "f8"), ("q", "i2")])
    dt = np.dtype([("k", "i4"), ("in", inner)])

    @njit
    def f(a, i):
        return a[i]["in"]

    a = np.zeros(3, dt)
    a["in"]["p"] = [1.5, 2.5, 3.5]
    a["in"]["q"] = [4, 5, 6]
    for i in range(3):
        got = f(a, i)
        assert got["p"] == a[i]["in"]["p"] and got["q"] == a[i]["in"]["q"] and type(got) is np.record


# ---------------------------------------------------------------- from_dtype of a structured dtype in signatures

SIG_DTYPE = np.dtype([("x", np.float64), ("n", np.int32)])


def weighted_total(arr):
    s = 0.0
    for r in arr:
        s += r["x"] * r["n"]
    return s


def record_weight(r):
    return r["x"] * r["n"]


def test_from_dtype_of_a_structured_dtype_types_signatures():
    rec = ruchey.types.from_dtype(SIG_DTYPE)
    assert rec == ruchey.types.from_dtype(SIG_DTYPE) and rec[:] == ruchey.types.Array(rec, 1, "A")
    rng = make_rng(1527)
    a = np.zeros(7, SIG_DTYPE)
    a["x"], a["n"] = rng.normal(size=7), rng.integers(-5, 5, size=7)
    f = njit((ruchey.types.Array(rec, 1, "A"),))(weighted_total)
    g = njit([(rec[::1],)])(weighted_total)
    h = njit((rec,))(record_weight)
    assert f(a) == g(a) == weighted_total(a)
    assert f(a[::2]) == weighted_total(a[::2])
    for r in a:
        assert h(r) == record_weight(r)
    with pytest.raises(TypeError):
        g(a[::2])  # compiled for contiguous arrays only
# ---------------------------------------------------------------- record types in signatures

def test_from_dtype_gives_a_record_type_with_numpys_layout():
    fields = [("x", "f8"), ("n", "i2"), ("v", "f4", (3, 2)), ("c", "c8")]
    dt = np.dtype(fields, align=True)
    rec = ruchey.types.from_dtype(dt)
    assert rec.size == dt.itemsize
    assert [name for name, _ in rec.members] == list(dt.names)
    for name in dt.names:
        assert rec.offset(name) == dt.fields[name][1]
    assert rec.typeof("x") == ruchey.float64 and rec.typeof("n") == ruchey.int16
    assert rec.typeof("v") == ruchey.float32[:, ::1]
    assert rec == ruchey.types.from_dtype(np.dtype(fields, align=True)) and rec.dtype == dt  # Numba's Record.dtype
    assert rec != ruchey.types.from_dtype(np.dtype(fields))
    assert ruchey.typeof(np.zeros(3, dt)) == rec[::1] and ruchey.typeof(np.zeros(3, dt)[0]) == rec
    assert ruchey.typeof(np.zeros((3, 2), dt, order="F")) == rec[::1, :]
    assert rec[:].dtype == rec and rec[:].ndim == 1 and rec[:].layout == "A"
    assert ruchey.types.Array(rec, 2, "F") == rec[::1, :] and isinstance(rec[:], ruchey.types.Array)
    assert isinstance(rec, ruchey.types.Record) and not isinstance(rec, (ruchey.types.Number, ruchey.types.Array))


def test_from_dtype_fields_hold_titles_as_numpys():
    dt = np.dtype([(("the first", "a"), "i4"), ("b", "f8")])
    rec = ruchey.types.from_dtype(dt)
    assert set(rec.fields) == set(dt.fields)
    assert rec.is_title("the first") and not rec.is_title("a") and not rec.is_title("b")


def add_through_titles_and_names(a, k):
    # a field read and written by its name and by its title alike (pyopencl's vector dtypes)
    for i in range(a.size):
        a[i]["s0"] = (i + k) * 2
        a[i]["x"] += -1
        a[i]["s1"] = a[i]["x"] * 3
        a[i]["y"] -= 2
        a[i]["z"] = a[i]["s0"] * 0.5 + a[i]["y"]
    return a, a["x"].sum(), a["s1"].sum(), a[-1]["s2"] - a[0]["z"]


@pytest.mark.parametrize("align", ALIGNS)
def test_fields_read_and_written_by_their_titles(align):
    titled = np.dtype([(("x", "s0"), "i4"), (("y", "s1"), "i8"), (("z", "s2"), "f8")], align=align)
    f = njit(add_through_titles_and_names)
    for n in (1, 6):
        for k in (-3, 0, 5):
            got, expected = f(np.zeros(n, titled), k), add_through_titles_and_names(np.zeros(n, titled), k)
            assert same_records(got[0], expected[0]) and got[1:] == expected[1:]
    rec = ruchey.types.from_dtype(titled)
    assert ruchey.typeof(np.zeros(2, titled)).dtype == rec and ";title=x]" in str(rec)
    untitled = np.dtype([("s0", "i4"), ("s1", "i8"), ("s2", "f8")], align=align)
    assert ruchey.typeof(np.zeros(2, untitled)).dtype != rec  # titles make another type, as Numba's
    with pytest.raises(ruchey.TypingError, match="has no field 'x'"):
        f(np.zeros(2, untitled), 1)


C_TYPES = {"int8": ctypes.c_int8, "uint8": ctypes.c_uint8, "int16": ctypes.c_int16, "int32": ctypes.c_int32,
           "uint32": ctypes.c_uint32, "int64": ctypes.c_int64, "uint64": ctypes.c_uint64,
           "float32": ctypes.c_float, "float64": ctypes.c_double}


@pytest.mark.parametrize("names", [
    ["int32", "float32"], ["int32", "int8", "float32"], ["int8", "float64", "int16"], ["uint8"],
    ["float64", "int8"], ["int16", "uint64", "uint8", "float32", "int8"],
])
def test_make_c_struct_lays_fields_out_as_c(names):
    pairs = [(f"f{k}", getattr(ruchey, name)) for k, name in enumerate(names)]
    rec = ruchey.types.Record.make_c_struct(pairs)
    ref = type("Ref", (ctypes.Structure,), {"_fields_": [(f"f{k}", C_TYPES[n]) for k, n in enumerate(names)]})
    assert len(rec) == len(names) and rec.size == ctypes.sizeof(ref) and rec.dtype.isalignedstruct
    for k in range(len(names)):
        assert rec.offset(f"f{k}") == getattr(ref, f"f{k}").offset and rec.typeof(f"f{k}") == pairs[k][1]

    @njit((rec[:],))
    def total(a):
        s = 0.0
        for i in range(a.size):
            a[i]["f0"] = i
            s += a[i]["f0"] + a[i][-1]
        return s

    a = filled(rec.dtype, 9, seed_of("c struct"))
    expected = total.py_func(a.copy())
    assert total(a) == expected


@pytest.mark.parametrize("seed", range(4))
def test_record_built_by_hand_from_fields_size_and_aligned_as_numbas(seed):
    """Numba's Record(fields, size, aligned): (name, {'type', 'offset'}) pairs
    at generated offsets (gaps and a size beyond the last field), keywords
    or positions; the type of a structured dtype of those fields, which an
    explicit signature compiles for."""
    rng = make_rng(seed)
    codes = list(rng.choice(NUMERIC, size=int(rng.integers(1, 6))))
    fields, offset = [], 0
    for k, code in enumerate(codes):
        fields.append((f"f{k}", {"type": ruchey.types.from_dtype(np.dtype(code)), "offset": offset}))
        offset += np.dtype(code).itemsize + int(rng.integers(0, 3))
    size = offset + int(rng.integers(0, 4))
    order = rng.permutation(len(fields))  # (given in any order: laid out by offset, as Numba's)
    rec = ruchey.types.Record(fields=[fields[i] for i in order], size=size, aligned=False)
    assert rec == ruchey.types.Record([fields[i] for i in order], size, False)
    dt = np.dtype(dict(names=[n for n, _ in fields], formats=codes, offsets=[f["offset"] for _, f in fields],
                       itemsize=size))
    assert rec.dtype == dt and rec.size == size and not rec.aligned and len(rec) == len(codes)
    assert rec == ruchey.types.from_dtype(dt)
    assert str(rec) == "Record(" + ",".join(f"f{k}[type={t['type']};offset={t['offset']}]" for k, (_, t) in
                                            enumerate(fields)) + f";{size};False)"

    @njit((rec[:], ruchey.types.intp))
    def ends(a, i):
        return a[i]["f0"], a[i][-1]

    a = filled(dt, 7, seed)
    for i in range(a.size):
        assert ends(a, i) == ends.py_func(a, i)


def test_record_built_by_hand_with_text_nested_array_and_title_fields():
    t = ruchey.types
    rec = t.Record([("name", {"type": t.UnicodeCharSeq(3), "offset": 0}),
                    ("code", {"type": t.CharSeq(2), "offset": 12}),
                    ("v", {"type": t.NestedArray(t.float32, (2,)), "offset": 16, "title": "values"})], 24, False)
    dt = np.dtype(dict(names=["name", "code", "v"], formats=["U3", "S2", ("f4", (2,))], offsets=[0, 12, 16],
                       titles=[None, None, "values"], itemsize=24))
    assert rec.dtype == dt and rec.is_title("values")
    a = np.zeros(3, dt)
    a["name"], a["code"], a["v"] = ["ab", "c", "xyz"], [b"q", b"rs", b""], np.arange(6).reshape(3, 2)

    @njit((rec[:], t.intp))
    def pick(a, i):
        return a[i]["name"], a[i]["code"], a[i]["v"][1]

    for i in range(3):
        assert pick(a, i) == pick.py_func(a, i)
    with pytest.raises(TypeError, match="an int size and a bool aligned"):
        t.Record(fields=[("x", {"type": t.int8, "offset": 0})], size="1", aligned=False)
    with pytest.raises(TypeError, match="a record field's type"):
        t.Record(fields=[("x", {"type": t.unicode_type, "offset": 0})], size=8, aligned=False)


def test_make_c_struct_of_a_complex_and_a_nested_array():
    pair = type("Pair", (ctypes.Structure,), {"_fields_": [("re", ctypes.c_double), ("im", ctypes.c_double)]})
    ref = type("Ref", (ctypes.Structure,), {"_fields_": [("n", ctypes.c_int32), ("z", pair)]})
    rec = ruchey.types.Record.make_c_struct([("n", ruchey.types.intc), ("z", ruchey.complex128)])
    assert (rec.offset("z"), rec.size) == (ref.z.offset, ctypes.sizeof(ref))
    data = np.arange(27 * 2, dtype=np.float64).reshape(27, 2)
    nested = ruchey.types.NestedArray(ruchey.float64, data.shape)
    assert nested.shape == (27, 2) and nested.ndim == 2 and nested.nitems == 54
    grid = ruchey.types.Record.make_c_struct([("k", ruchey.int8), ("data", nested)])
    assert grid.offset("data") == 8 and grid.size == 8 + data.nbytes
    arr = np.array([(3, data)], dtype=grid.dtype)
    np.testing.assert_array_equal(arr[0]["data"], data)
    total = njit(lambda a: a[0]["data"].sum() + a[0]["k"])
    assert total(arr) == total.py_func(arr)
    with pytest.raises(TypeError, match="Only Number and NestedArray types are supported"):
        ruchey.types.Record.make_c_struct([("s", ruchey.types.unicode_type)])


def test_from_dtype_of_a_sub_array_dtype_is_a_nested_array_whose_dimensions_follow_an_arrays():
    # as Numba's: an array of ('f8', (4,)) items is an array of float64 with one more dimension
    for dt, base, shape in [(np.dtype((np.float64, (4,))), np.float64, (4,)),
                            (np.dtype((np.int16, (2, 3))), np.int16, (2, 3)),
                            (np.dtype((np.dtype((np.float32, (5, 2))), (3, 6))), np.float32, (3, 6, 5, 2))]:
        t = ruchey.types.from_dtype(dt)
        assert isinstance(t, ruchey.types.NestedArray) and t.shape == shape and t.dtype == ruchey.types.from_dtype(base)
        for ndim in (1, 2):
            assert ruchey.types.Array(t, ndim, "C") == ruchey.types.Array(t.dtype, ndim + len(shape), "C")
        rec = ruchey.types.Record.make_c_struct([("n", ruchey.int8), ("v", t)])
        assert rec.dtype.fields["v"][0] == np.dtype((base, shape))


def first_field_and_last_item(rec):
    return rec["a"] + rec["v"][-1]


SUBTYPE_FIELDS = [("a", "f8"), ("v", "i4", (3,))]


@pytest.mark.parametrize("extra", [[("b", "f8")], [("b", "i1"), ("s", "U3")], [("c", [("x", "f4")])]])
def test_a_record_with_more_fields_after_is_taken_where_compiling_is_over(extra):
    # Numba's width subtyping: a record whose first fields are another's is one of its
    rng = make_rng(seed_of("record subtypes"))
    small, wide = np.zeros(3, SUBTYPE_FIELDS), np.zeros(3, SUBTYPE_FIELDS + extra)
    for a in (small, wide):
        a["a"], a["v"] = rng.normal(size=3), rng.integers(-9, 9, size=(3, 3))
    sig = ruchey.float64(ruchey.typeof(small[0]))
    for f in (njit(first_field_and_last_item), njit(sig)(first_field_and_last_item)):
        assert f(small[0]) == first_field_and_last_item(small[0])
        f.disable_compile()
        for r in wide:
            assert f(r) == first_field_and_last_item(r)
        assert len(f.signatures) == 1


@pytest.mark.parametrize("other", [
    [("a", "f8")],  # fewer fields
    [("a", "f4"), ("v", "i4", (3,)), ("b", "f8")],  # a field of another type
    [("a", "f8"), ("v", "i4", (2,)), ("b", "f8")],  # of another shape
    [("b", "f8"), ("v", "i4", (3,)), ("a", "f8")],  # another name
    [("a", "f8"), ("pad", "i4"), ("v", "i4", (3,))],  # another place
])
def test_a_record_unlike_the_compiled_one_is_refused_where_compiling_is_over(other):
    f = njit(lambda rec: rec["a"])
    f(np.zeros(1, SUBTYPE_FIELDS)[0])
    f.disable_compile()
    with pytest.raises(TypeError, match="no matching definition"):
        f(np.zeros(1, other)[0])


def test_a_record_with_more_fields_compiles_its_own_while_compiling_is_on():
    f = njit(lambda rec, flag=None: rec["a"] + (rec["b"] if flag is not None else 0.0))
    small, wide = np.ones(1, [("a", "f8")])[0], np.full(1, 2.0, [("a", "f8"), ("b", "f8")])[0]
    assert f(small) == 1.0 and f(wide, 1) == 4.0 and len(f.signatures) == 2
    f.disable_compile()
    assert f(wide) == 2.0  # the first one's code, reading its first field


def test_explicit_signature_of_record_arrays_and_records():
    dt = dtype_of(["f8", "i4", "c16"], False)
    rec = ruchey.types.from_dtype(dt)

    @njit((rec[:], ruchey.intp))
    def weighted(a, i):
        return a[i]["f0"] * a[i]["f1"] + a[i]["f2"].imag

    @njit(ruchey.float64(rec))
    def one(r):
        return r.f0 - r.f1

    @njit((rec[:, :],))
    def total(a):
        s = 0.0
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                s += a[i, j].f0
        return s

    a = filled(dt, 7, seed_of("signature records"))
    assert len(weighted.signatures) == 1 and len(one.signatures) == 1
    for i in range(7):
        assert weighted(a, i) == pytest.approx(weighted.py_func(a, i), rel=1e-12)
        assert one(a[i]) == pytest.approx(a[i]["f0"] - a[i]["f1"], rel=1e-12)
    grid = filled(dt, (4, 5), seed_of("signature records 2d"))
    assert total(grid) == pytest.approx(grid["f0"].sum(), rel=1e-12)
    assert total(np.asfortranarray(grid)) == pytest.approx(grid["f0"].sum(), rel=1e-12)
    assert len(weighted.signatures) == 1 and len(total.signatures) == 1
    with pytest.raises(TypeError, match="no matching definition"):
        weighted(filled(dtype_of(["f8", "i8", "c16"], False), 3, 1), 0)


def test_record_type_of_an_unsupported_dtype_is_refused_when_compiled():
    rec = ruchey.types.from_dtype(np.dtype([("s", ">U3"), ("x", "f8")]))
    with pytest.raises(TypeError, match="field 's' has dtype >U3"):
        njit((rec[:],))(lambda a: a[0].x)


# ---------------------------------------------------------------- whole fields assigned

def test_sub_array_field_assigned_an_array_or_a_number():
    dt = np.dtype([("k", "i4"), ("v", "f8", (3,)), ("m", "i2", (2, 2))])

    @njit
    def f(a, row, grid):
        for i in range(len(a)):
            a[i].v = row * i
            a[i]["m"] = grid[i % 2]
            if i == 2:
                a[i].v = 7.5
        r = a[0]
        r["m"] = 9
        return a

    def twin(a, row, grid):
        for i in range(len(a)):
            a[i]["v"] = row * i
            a[i]["m"] = grid[i % 2]
            if i == 2:
                a[i]["v"] = 7.5
        r = a[0]
        r["m"] = 9
        return a

    rng = np.random.default_rng(seed_of("sub-array fields assigned"))
    row, grid = rng.normal(size=3), rng.integers(-9, 9, (2, 2, 2))
    a, b = np.zeros(5, dt), np.zeros(5, dt)
    f(a, row, grid)
    assert same_records(a, twin(b, row, grid))
    with pytest.raises(ValueError):
        f(np.zeros(5, dt), rng.normal(size=4), grid)
    with pytest.raises(ValueError):
        twin(np.zeros(5, dt), rng.normal(size=4), grid)


def test_field_of_an_array_of_records_assigned_as_numpys():
    dt = np.dtype([("x", "f8"), ("v", "i4", (2,))])

    @njit
    def f(a, x, v):
        a["x"] = x
        a.v = v
        return a

    def twin(a, x, v):
        a["x"] = x
        a["v"] = v
        return a

    rng = np.random.default_rng(seed_of("record array fields assigned"))
    for x, v in [(rng.normal(size=6), rng.integers(0, 9, (6, 2))), (2.5, rng.integers(0, 9, 2)), (1.0, 3)]:
        assert same_records(f(np.zeros(6, dt), x, v), twin(np.zeros(6, dt), x, v))


# ---------------------------------------------------------------- str and bytes fields

TEXT_DTYPE = np.dtype([("x", "f8"), ("name", "<U5"), ("tag", "S3"), ("k", "i2")])
WORDS = ["", "a", "ab", "abcde", "héllo", "zz\u20ac"]
BLOBS = [b"", b"q", b"xy", b"xyz"]


def text_records(n, seed):
    rng = make_rng(seed)
    a = np.zeros(n, TEXT_DTYPE)
    a["x"] = rng.normal(size=n)
    a["name"] = [WORDS[i] for i in rng.integers(0, len(WORDS), n)]
    a["tag"] = [BLOBS[i] for i in rng.integers(0, len(BLOBS), n)]
    a["k"] = rng.integers(-50, 50, n)
    return a


def test_text_fields_read_as_str_and_bytes():
    @njit
    def read(a, i):
        r = a[i]
        return r["name"], r["tag"], a[i]["name"], len(r["name"]), r["name"] == "ab", r["tag"] < b"xy"

    a = text_records(12, seed_of("text fields read"))
    for i in range(len(a)):
        got = read(a, i)
        assert got == read.py_func(a, i)
        assert type(got[0]) is str and type(got[1]) is bytes


def test_text_fields_written_cut_or_padded_as_numpy():
    @njit
    def write(a, i, s, b):
        a[i]["name"] = s
        a[i].tag = b

    def write_py(a, i, s, b):
        a[i]["name"] = s
        a[i]["tag"] = b

    a = text_records(6, seed_of("text fields written"))
    want = a.copy()
    for i, (s, b) in enumerate([("", b""), ("abcdefgh", b"uvwxyz"), ("ok", b"o"), ("\u20ac\u20ac", b"\x00a")]):
        write(a, i, s, b)
        write_py(want, i, s, b)
    assert a.tobytes() == want.tobytes()


def test_text_fields_of_a_record_argument_and_a_record_returned():
    @njit
    def rename(r, s):
        r["name"] = s
        return r["name"] + "!"

    @njit
    def pick(a, i):
        return a[i]

    a = text_records(4, seed_of("text record argument"))
    assert rename(a[1], "new") == "new!" and a[1]["name"] == "new"
    r = pick(a, 2)
    assert r.tobytes() == a[2].tobytes() and r["name"] == a[2]["name"] and r["tag"] == a[2]["tag"]


def test_text_field_views_of_an_array_of_records():
    @njit
    def columns(a):
        out = 0
        for s in a["name"]:
            out += len(s)
        return a.tag, out

    a = text_records(9, seed_of("text field views"))
    tags, total_len = columns(a)
    assert tags.dtype == np.dtype("S3") and (tags == a["tag"]).all()
    assert total_len == sum(len(s) for s in a["name"])


def test_text_fields_refuse_other_values():
    @njit
    def number_into_str(r):
        r["name"] = 3

    @njit
    def str_into_bytes(r):
        r["tag"] = "abc"

    @njit
    def updated(r):
        r["name"] += "x"

    a = text_records(2, 1)
    with pytest.raises(ruchey.TypingError, match="cannot store int64 into field 'name'"):
        number_into_str(a[0])
    with pytest.raises(ruchey.TypingError, match="cannot store unicode_type into field 'tag'"):
        str_into_bytes(a[0])
    with pytest.raises(ruchey.TypingError, match="op= v of a str or bytes field"):
        updated(a[0])


# ---------------------------------------------------------------- fields named by constants

KEYED = np.dtype([("e", "f8"), ("f", "i4"), ("g", "<U4")])
KEYS = ("e", "f")


def keyed_records(n, seed):
    rng = make_rng(seed)
    a = np.zeros(n, KEYED)
    a["e"] = rng.normal(size=n)
    a["f"] = rng.integers(-9, 9, n)
    a["g"] = [WORDS[i][:4] for i in rng.integers(0, len(WORDS), n)]
    return a


def field_of_a_picked_name(r):
    names = ("e", "f")
    name = names[1]
    return r[name]


def fields_of_an_unrolled_tuple(r):
    out = 0.0
    for name in ruchey.literal_unroll(("e", "f")):
        out += r[name]
    return out


def fields_of_a_global_tuple(r):
    out = r[KEYS[0]]
    for name in ruchey.literal_unroll(KEYS):
        out += r[name]
    return out


def fields_by_position(r):
    return r[0], r[1], r[2], r[-1], r[-3]


def test_record_fields_named_by_constants_after_unrolling():
    a = keyed_records(6, seed_of("record keys"))
    for f in (field_of_a_picked_name, fields_of_an_unrolled_tuple, fields_of_a_global_tuple, fields_by_position):
        compiled = njit(f)
        for i in range(len(a)):
            assert compiled(a[i]) == f(a[i]), f.__name__


def test_record_fields_written_by_constant_names_and_positions():
    def write(r, x):
        for name in ruchey.literal_unroll(KEYS):
            r[name] = x
        r[2] = "longer"
        r[-3] = x / 2

    a = keyed_records(4, seed_of("record keys written"))
    want = a.copy()
    for i in range(len(a)):
        njit(write)(a[i], 3.75 * i)
        write(want[i], 3.75 * i)
    assert a.tobytes() == want.tobytes()


def test_array_of_records_by_a_constant_field_name():
    @njit
    def column_sum(a):
        name = KEYS[0]
        return a[name].sum(), a[1][name]

    a = keyed_records(7, seed_of("array keyed"))
    assert column_sum(a) == pytest.approx(column_sum.py_func(a), rel=1e-12)


def test_record_keys_that_are_not_constants_are_refused():
    @njit
    def by_argument(r, k):
        return r[k]

    @njit
    def past_the_end(r):
        return r[3]

    @njit
    def before_the_start(r):
        return r[-4]

    a = keyed_records(2, 5)
    with pytest.raises(ruchey.TypingError, match="a record is indexed by a field's name or position, a constant"):
        by_argument(a[0], 1)
    with pytest.raises(ruchey.TypingError, match="Requested index 3 is out of range"):
        past_the_end(a[0])
    with pytest.raises(ruchey.TypingError, match="Requested index -4 is out of range"):
        before_the_start(a[0])
    with pytest.raises(IndexError):
        past_the_end.py_func(a[0])


# ---------------------------------------------------------------- text types in signatures

def test_from_dtype_gives_char_sequences_for_text_fields():
    rec = ruchey.types.from_dtype(TEXT_DTYPE)
    assert rec.typeof("name") == ruchey.types.UnicodeCharSeq(5) and repr(rec.typeof("name")) == "[unichr x 5]"
    assert rec.typeof("tag") == ruchey.types.CharSeq(3) and repr(rec.typeof("tag")) == "[char x 3]"
    assert rec.typeof("name") != ruchey.types.CharSeq(5)
    assert "name[type=[unichr x 5];offset=8]" in repr(rec)


def test_explicit_signature_of_records_with_text_fields_and_of_text_arrays():
    rec = ruchey.types.from_dtype(TEXT_DTYPE)

    def names(a, n):
        out = ""
        for k in range(n):
            out += a[k]["name"]
        return out

    compiled = njit((rec[:], ruchey.types.intp))(names)
    a = text_records(5, seed_of("signature text"))
    assert compiled(a, 5) == names(a, 5)
    first = njit((ruchey.types.UnicodeCharSeq(5)[::1],))(lambda w: w[0] + "?")
    assert first(a["name"].copy()) == a["name"][0] + "?"
    with pytest.raises(TypeError, match=r"\[unichr x 5\] is a record field's or an array element's type"):
        njit((ruchey.types.UnicodeCharSeq(5),))(lambda s: s)


@pytest.mark.parametrize("layout", ["C", "A", "F"])
def test_array_of_char_sequences_in_a_signature_as_numbas(layout):
    """types.Array(CharSeq(n), ndim, layout): the type of a '|Sn' (or '<Un')
    array, as Numba's, that an explicit signature compiles for."""
    t = ruchey.types
    a = text_records(9, seed_of("charseq array " + layout))
    for dtype, values in ((t.UnicodeCharSeq(5), a["name"].copy()), (t.CharSeq(3), a["tag"].copy())):
        sig = t.Array(dtype, 1, layout)
        assert sig == (dtype[::1] if layout != "A" else dtype[:]) and sig.dtype == dtype
        longest = njit((sig,))(lambda w: max([len(x) for x in w]))
        assert longest(values) == longest.py_func(values)
        grid = t.Array(dtype, 2, layout)
        assert grid.ndim == 2 and grid.layout == layout
    with pytest.raises(ValueError, match="1 to 32 dimensions"):
        t.Array(t.CharSeq(3), 0, "C")


def test_aligned_records_of_a_recarray_and_of_its_dtype_are_one_type():
    dt = np.dtype([("x", "f8"), ("tag", "S3"), ("y", "f8")], align=True)
    rec = ruchey.types.from_dtype(dt)

    def total(a, n):
        out = 0.0
        for k in range(n):
            out += a[k]["x"] * len(a[k]["tag"]) + a[k]["y"]
        return out

    compiled = njit((rec[:], ruchey.types.intp))(total)
    a = np.recarray(4, dtype=dt)
    a.x, a.y, a.tag = np.arange(4.0), 0.5, [b"a", b"bb", b"", b"ccc"]
    plain = np.asarray(a).view(np.ndarray).astype(dt)
    assert compiled(np.asarray(a), 4) == total(a, 4)
    assert compiled(plain, 4) == total(plain, 4)
    assert len(compiled.signatures) == 1


def test_a_returned_record_is_a_copy_that_can_be_written():
    @njit
    def pick(a, i):
        return a[i]

    a = text_records(3, seed_of("returned record written"))
    r = pick(a, 1)
    assert type(r) is np.record and r == a[1]
    r.x = 123.5
    r.name = "other"
    assert r["x"] == 123.5 and r["name"] == "other"
    assert a[1]["x"] != 123.5 and a[1]["name"] != "other"


def test_typeof_arrays_of_text_and_text_scalars():
    typeof = ruchey.types.typeof
    assert typeof(np.array(["ab", "c"])) == ruchey.types.UnicodeCharSeq(2)[::1]
    assert typeof(np.array([b"abc"])) == ruchey.types.CharSeq(3)[::1]
    assert typeof(np.array(["ab", "c", "d"])[::2]).layout == "A"
    assert typeof(np.str_("ab")) == ruchey.types.unicode_type
    assert typeof(np.zeros(1, TEXT_DTYPE)[0]) == ruchey.types.from_dtype(TEXT_DTYPE)


# ---------------------------------------------------------------- records inside tuples

PAIR = np.dtype([("a", np.float64), ("b", np.int32)])
WIDER = np.dtype([("a", np.float64), ("b", np.int32), ("c", np.float32)])


@njit
def weigh_records(t, scale):
    total = 0.0
    for i in range(len(t)):
        total += t[i]["a"] * scale + t[i]["b"]
    return total


@njit
def bump_records(t):
    t[0]["a"] += 1.0
    t[1][1]["b"] = t[0]["b"] * 2
    return t[1][0]


def test_tuples_of_records_are_arguments_as_numbas():
    """A tuple holding records (Numba's Tuple(Record, ...)), of a record
    type or a subtype's; what the function writes into them reaches the
    records, as where a record is passed alone."""
    rng = make_rng(seed_of("tuples of records"))
    for dtype in (PAIR, WIDER):
        a = np.zeros(6, dtype)
        a["a"], a["b"] = rng.standard_normal(6), rng.integers(-50, 50, 6)
        for i in range(0, 6, 2):
            t = (a[i], a[i + 1], a[(i + 2) % 6])
            assert weigh_records(t, 0.5) == weigh_records.py_func(t, 0.5)
        expected = a.copy()
        assert bump_records((a[0], (7, a[1]))) == bump_records.py_func((expected[0], (7, expected[1])))
        np.testing.assert_array_equal(a, expected)
    with pytest.raises(ruchey.TypingError, match="heterogeneous tuple"):
        weigh_records((a[0], 1.5), 0.5)  # a float where a record was: indexed by a variable


ITEM = np.dtype([("a", np.int64), ("b", np.int32)])  # 12 bytes: unaligned items in the sub-array
NESTED = np.dtype([("flag", np.bool_), ("grid", ITEM, (2, 3)), ("items", [("w", np.float64)], 4)])


@njit
def nested_parts(x, i):
    r = x[i]
    total = 0.0
    for it in r["items"]:
        total += it["w"]
    return r["grid"][1, 2]["a"] + x[i]["grid"][0, 1]["b"], total, r["flag"]


@njit
def nested_record(x, i):
    return x[i]


@njit
def nested_write(x, i, v):
    x[i]["grid"][1, 0]["b"] = v
    x[i]["items"][3]["w"] = v * 0.5


def test_sub_arrays_of_records_are_read_and_written_as_numbas():
    """A field that is an array of records (Numba's NestedArray of a
    Record): indexed, iterated, written, and its record returned whole."""
    rng = make_rng(seed_of("sub-arrays of records"))
    x = np.zeros(5, NESTED)
    x["flag"] = rng.random(5) > 0.5
    x["grid"]["a"], x["grid"]["b"] = rng.integers(-99, 99, (5, 2, 3)), rng.integers(-99, 99, (5, 2, 3))
    x["items"]["w"] = rng.standard_normal((5, 4))
    for i in range(5):
        assert nested_parts(x, i) == nested_parts.py_func(x, i)
        assert nested_record(x, i) == nested_record.py_func(x, i)
        y = x.copy()
        nested_write(x, i, i + 7)
        nested_write.py_func(y, i, i + 7)
        np.testing.assert_array_equal(x, y)


def endtime(x):
    """strax's endtime: the field "endtime" where the dtype has one, else
    computed; the choice made in Python from the argument's type."""
    if "endtime" in x.dtype.fields:
        return x["endtime"]
    return x["time"] + x["length"] * x["dt"]


@ruchey.extending.overload(endtime)
def _endtime_overload(x):
    # typing functions see records and arrays of them as Numba's: .dtype.fields names the fields
    assert isinstance(x, ruchey.types.Record) and isinstance(x, ruchey.types.Array) == bool(x.ndim)
    if "endtime" in x.dtype.fields:
        return lambda x: x["endtime"]
    return lambda x: x["time"] + x["length"] * x["dt"]


@njit
def endtimes(a):
    each = np.empty(len(a), np.int64)
    for i, r in enumerate(a):
        each[i] = endtime(r)
    return endtime(a), each


INTERVALS = np.dtype([("time", np.int64), ("length", np.int32), ("dt", np.int16)])
ENDED = np.dtype([("time", np.int64), ("endtime", np.int64)])


@pytest.mark.parametrize("dt", [INTERVALS, ENDED, np.dtype(INTERVALS, align=True)])
def test_overloads_read_the_fields_of_records_and_of_arrays_of_them(dt):
    for n in (0, 1, 9):
        a = filled(dt, n, seed_of(dt) + n)
        whole, each = endtimes(a)
        np.testing.assert_array_equal(whole, endtime(a))
        np.testing.assert_array_equal(each, [endtime(r) for r in a])


@njit
def split_by(things, at):
    """strax's _split: a typed List of slices of an array of records."""
    parts = ruchey.typed.List()
    start = 0
    for i in at:
        parts.append(things[start:i])
        start = i
    parts.append(things[start:])
    parts.insert(0, things[:0])
    return parts


def test_typed_list_of_arrays_of_records():
    rng = make_rng(7)
    for n in (0, 1, 10, 40):
        a = filled(INTERVALS, n, n)
        at = np.sort(rng.integers(0, n + 1, 3))
        parts = split_by(a, at)
        want = [a[:0], *np.split(a, at)]
        assert len(parts) == len(want)
        for got, part in zip(parts, want):
            assert got.dtype == INTERVALS
            np.testing.assert_array_equal(got, part)


@njit
def halves(things, k):
    """A reflected list of arrays of records, made by a literal and grown."""
    parts = [things[:k], things[k:]]
    parts.append(things[1:])
    total = 0
    for p in parts:
        total += p["time"].sum()
    return parts, total


def test_reflected_list_of_arrays_of_records():
    for n in (0, 3, 11):
        a = filled(INTERVALS, n, n + 100)
        for k in (0, n // 2, n):
            (got, total), (want, want_total) = halves(a, k), halves.py_func(a, k)
            assert total == want_total and len(got) == len(want)
            for g, w in zip(got, want):
                np.testing.assert_array_equal(g, w)


def test_records_in_a_typed_list_are_refused():
    @njit
    def listed(a):
        parts = ruchey.typed.List()
        parts.append(a[0])
        return parts
    with pytest.raises(ruchey.TypingError, match="does not support records"):
        listed(filled(INTERVALS, 2, 0))
