"""bytes values in @njit code (Numba's Bytes): arguments and results,
constants in the source and as globals, len, indexing (an int), slicing (a
new bytes), iteration, truth, comparisons, `in`, tuples of them, calls
between compiled functions; numpy.frombuffer (a read-only view of bytes,
a writable one of a bytearray); bytearray, memoryview and array.array
arguments as arrays of their items (a memoryview's attributes as Python's;
slices of a bytearray or array.array, copies in Python, refused). Each behaviour is compared with the function's own
Python original on seeded random bytes, and bad input gives what Python
gives or a TypingError naming what is not supported."""
import gc

import numpy
import pytest
import ruchey
import ruchey.extending
from ruchey import cuda, njit, typed

from conftest import AS_NUMBA, assert_same, make_rng, numba_deviation, rss_bytes

RNG = make_rng(1959)


def random_bytes(lo=0, hi=24):
    return RNG.integers(0, 256, size=int(RNG.integers(lo, hi + 1)), dtype=numpy.uint8).tobytes()


SAMPLES = [b"", b"\x00", b"a", b"abc", b"\xff\x00\x7f\x80", b"hello world", b"x" * 40] + \
    [random_bytes() for _ in range(20)]
PAIRS = list(zip(SAMPLES, SAMPLES[1:] + SAMPLES[:1])) + [(b"abc", b"abc"), (b"ab", b"abc"), (b"abd", b"abc")]
GLOBAL_BYTES = b"\x01global\xfe"
GLOBAL_TUPLE = (b"one", 2, b"three")


# ---------------------------------------------------------------- values

@njit
def identity(b):
    return b


@njit
def measure(b):
    return len(b), len(b"const"), len(GLOBAL_BYTES)


@njit
def constants():
    return b"abc\x00\xff", GLOBAL_BYTES, GLOBAL_TUPLE[2], b""


@njit
def in_tuple(t):
    a, n, c = t
    return (c, n + 1, a), t[0]


def test_bytes_argument_and_result():
    for b in SAMPLES:
        assert_same(identity, b)
        if not AS_NUMBA:  # (Numba's is a copy)
            assert identity(b) is b  # the argument itself, as Python returns it
        assert_same(measure, b)


def test_bytes_constants_and_globals():
    assert_same(constants)


def test_bytes_in_tuples():
    for a, c in PAIRS:
        assert_same(in_tuple, (a, 7, c))


@njit
def middle(b):
    return b[1:-1]


@njit
def calls_another(b):
    inner = middle(b)
    return middle(inner), len(inner), identity(b)


def test_bytes_passed_between_compiled_functions():
    for b in SAMPLES:
        assert_same(calls_another, b)


@njit
def kinds(x):
    return isinstance(x, bytes), isinstance(x, (str, bytes)), isinstance(x, str)


def test_isinstance_of_bytes():
    for x in (b"abc", b"", "abc", 1, 2.5, numpy.zeros(2), (b"a",)):
        assert_same(kinds, x)


@njit
def maybe(b, keep):
    x = b if keep else None
    return -1 if x is None else len(x), x


def test_bytes_or_none():
    for b in SAMPLES[:5]:
        assert_same(maybe, b, True)
        assert_same(maybe, b, False)


def nominal_length(x):
    return -1


@ruchey.extending.overload(nominal_length)
def _nominal_length_typing(x):
    if isinstance(x, ruchey.types.Bytes):
        return lambda x: len(x) * 10
    return lambda x: -1


@njit
def via_overload(x):
    return nominal_length(x)


def test_overload_typing_sees_types_bytes():
    assert via_overload(b"abc") == 30 and via_overload(1.5) == -1
    assert ruchey.typeof(b"ab") == ruchey.types.Bytes(ruchey.types.uint8, 1, "C", readonly=True)


# ---------------------------------------------------------------- indexing, slicing, iteration

@njit
def item(b, i):
    return b[i]


@njit
def item_plus(b):
    return b[0] + 300, b[-1] - 300, b[0] * b[-1]


def test_bytes_index_is_an_int():
    for b in SAMPLES:
        for i in range(-len(b), len(b)):
            assert_same(item, b, i)
        if b:
            assert_same(item_plus, b)


@numba_deviation("an index far out of range reads past the bytes")
def test_bytes_index_out_of_range_raises_index_error():
    for b, i in [(b"", 0), (b"abc", 3), (b"abc", -4), (b"abc", 1 << 40)]:
        with pytest.raises(IndexError, match="index out of range"):
            item(b, i)
        with pytest.raises(IndexError):
            item.py_func(b, i)


@njit
def sliced(b, i, j, k):
    return b[i:j:k]


@njit
def sliced_parts(b, i, j):
    return b[i:], b[:j], b[::2], b[::-1], b[:], b[i:j], b[-3:]


@numba_deviation("a slice with a step other than 1 copies the wrong bytes")
def test_bytes_slices_are_bytes():
    bounds = [-30, -5, -1, 0, 1, 3, 7, 30]
    for b in SAMPLES:
        assert_same(sliced_parts, b, 2, -2)
        for _ in range(12):
            i, j = (int(RNG.choice(bounds)) for _ in range(2))
            k = int(RNG.choice([-3, -2, -1, 1, 2, 5]))
            assert_same(sliced, b, i, j, k)


def test_bytes_slice_step_zero_raises_value_error():
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        sliced(b"abc", 0, 2, 0)


@njit
def byte_sum(b):
    s = 0
    for c in b:
        s = (s * 31 + c) % 1000003
    return s


@njit
def weighted(b):
    s = 0
    for i, c in enumerate(b):
        s += i * c
    return s


def test_bytes_iteration():
    for b in SAMPLES:
        assert_same(byte_sum, b)
        assert_same(weighted, b)


@njit
def truth(b):
    return 1 if b else 0, not b


@numba_deviation("a bytes' truth is a TypingError")
def test_bytes_truth():
    for b in SAMPLES:
        assert_same(truth, b)


@njit
def folds(b):
    return min(b), max(b), sum(b), sum(b[1:], 10)


@njit
def as_lists(b):
    first = [7]
    first.extend(b)
    return list(b), sorted(b), first


@numba_deviation("sum() and sorted() of bytes are TypingErrors")
def test_bytes_items_in_builtins():
    for b in filter(None, SAMPLES):
        assert_same(folds, b)
        got, py = as_lists(b), as_lists.py_func(b)
        assert [list(x) for x in got] == list(py)


@njit
def empty_min(b):
    return min(b)


@numba_deviation("min() of empty bytes raises StopIteration")
def test_bytes_min_of_empty_raises_value_error():
    with pytest.raises(ValueError, match="empty"):
        empty_min(b"")


@njit
def show(a, b):
    print(a)
    print(a, b, (a, 1), (b,))


def test_print_of_bytes_writes_their_repr(capsys):
    for b in [b"", b"it's", b'say "hi"', b"both ' and \"", b"\x00\x7f\x80\xff\\\t\n\r abc"] + SAMPLES:
        capsys.readouterr()
        show(b, b[1:])
        got = capsys.readouterr().out
        show.py_func(b, b[1:])
        assert got == capsys.readouterr().out


# ---------------------------------------------------------------- comparisons and in

@njit
def compare(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b


@njit
def compare_other(a):
    return a == 1, a != 1, a == "abc", a == (1, 2)


@numba_deviation("bytes == bytes fails to lower")
def test_bytes_comparisons():
    for a, b in PAIRS:
        assert_same(compare, a, b)
        assert_same(compare, b, a)
        assert_same(compare_other, a)


@njit
def contains(b, v, sub):
    return v in b, v not in b, sub in b, b"" in b


@numba_deviation("an int in bytes is a TypingError")
def test_bytes_in():
    for b in SAMPLES:
        for v in (0, 97, 255, int(RNG.integers(0, 256))):
            assert_same(contains, b, v, b[1:3])
            assert_same(contains, b, v, b"zz\x00")


@numba_deviation("an int in bytes is a TypingError")
def test_bytes_in_out_of_range_raises_value_error():
    for v in (256, -1):
        with pytest.raises(ValueError, match=r"byte must be in range\(0, 256\)"):
            contains(b"abc", v, b"a")
        with pytest.raises(ValueError):
            contains.py_func(b"abc", v, b"a")


# ---------------------------------------------------------------- methods

SPACED = [b"", b"  ", b" a b ", b"\t\nab\x0b\x0c\r", b"-12", b"+7"] + \
    [bytes(RNG.choice(list(b" \t-+0aZ\xff"), size=int(RNG.integers(0, 10))).tolist()) for _ in range(20)]


@njit
def checks_of(b, sub):
    return b.isascii(), b.startswith(sub), b.endswith(sub)


@njit
def checks_within(b, sub, start, end):
    return b.startswith(sub, start), b.endswith(sub, start), b.startswith(sub, start, end), b.endswith(sub, None, end)


@njit
def stripped(b, chars):
    return b.strip(), b.lstrip(), b.rstrip(), b.strip(chars), b.lstrip(chars), b.rstrip(None)


@njit
def padded(b, width, fill):
    return b.ljust(width), b.rjust(width, fill), b.center(width), b.center(width, fill), b.zfill(width)


def test_bytes_methods():
    for b in SPACED + SAMPLES:
        for sub in (b"", b" ", b[:2], b[-2:], b"zz"):
            assert_same(checks_of, b, sub)
        for chars in (b" ", b"-+", b"", b"a\xff"):
            if b in SPACED:  # (test_bytes_strip_strips_ascii_whitespace_only: the others)
                assert_same(stripped, b, chars)
        for width in (-1, 0, 3, len(b) + 1, len(b) + 6):
            assert_same(padded, b, width, b"*")


@numba_deviation("strip() strips the Latin-1 spaces \\x85 and \\xa0 too")
def test_bytes_strip_strips_ascii_whitespace_only():
    for b in [b"\x85\xa0x\xa0", b"\xa0 \x85", b"\x1c\x1dx\x1e\x1f"] + SAMPLES:
        assert_same(stripped, b, b" ")


@numba_deviation("startswith and endswith take no start and end")
def test_bytes_startswith_within_bounds():
    for b in SPACED + SAMPLES:
        for sub in (b"", b" ", b[:2], b[-2:]):
            for start, end in [(0, 3), (-3, -1), (1, 100), (5, 2)]:
                assert_same(checks_within, b, sub, start, end)


@numba_deviation("a long fill is a ValueError")
def test_bytes_pad_with_a_long_fill_raises_type_error():
    with pytest.raises(TypeError) as py:
        padded.py_func(b"ab", 5, b"**")
    with pytest.raises(TypeError) as got:
        padded(b"ab", 5, b"**")
    if not AS_NUMBA:
        assert str(got.value) == str(py.value)


@njit
def searched(b, sub, start, end):
    return (b.find(sub), b.rfind(sub), b.count(sub), b.find(sub, start), b.rfind(sub, start, end),
            b.count(sub, start, end), b.find(sub, None, end), b.count(sub, start, None))


@njit
def cased_and_classed(b):
    return (b.upper(), b.lower(), b.isupper(), b.islower(), b.isdigit(), b.isalpha(), b.isalnum(), b.isspace())


@njit
def index_of(b, sub, start):
    return b.index(sub, start), b.rindex(sub, start)


CASED = [b"", b"ABC", b"abc", b"aBc", b"A1", b"12", b" \t", b"\xc9\xe9", b"A\xff", b"a_b"] + SAMPLES


@numba_deviation("Numba's bytes have find and rfind without start and end, and no count")
def test_bytes_find_rfind_and_count():
    for b in SPACED + SAMPLES:
        for sub in (b"", b" ", b"a", b[:2], b[-2:], b[1:3], b"zz"):
            for start, end in [(0, 3), (-3, -1), (1, 100), (5, 2), (-100, 0), (len(b), len(b) + 1)]:
                assert_same(searched, b, sub, start, end)


@numba_deviation("Numba's bytes have no case or class methods (its array items upper and isupper only)")
def test_bytes_case_and_class_methods_are_ascii():
    for b in CASED + SPACED:
        assert_same(cased_and_classed, b)


@numba_deviation("Numba's bytes have no index nor rindex")
def test_bytes_index_raises_value_error_where_find_finds_nothing():
    for b, sub, start in [(b"abcab", b"ab", 0), (b"abcab", b"ab", 1), (b"abc", b"", 3)]:
        assert_same(index_of, b, sub, start)
    for b, sub, start in [(b"abc", b"z", 0), (b"abcab", b"ab", 4), (b"abc", b"", 4)]:
        with pytest.raises(ValueError, match="subsection not found"):
            index_of(b, sub, start)
        with pytest.raises(ValueError, match="subsection not found"):
            index_of.py_func(b, sub, start)


@njit
def joined_and_repeated(a, b, n):
    c = a + b
    c += a
    return c, a * n, n * b, a + b"", b"" + b, a * True, (a + b) * 2


@numba_deviation("Numba's bytes (but its array items) take no + nor *")
def test_bytes_concatenation_and_repetition():
    for a, b in PAIRS:
        for n in (-2, 0, 1, 3):
            assert_same(joined_and_repeated, a, b, n)


@pytest.mark.skipif(AS_NUMBA, reason="measures ruchey's memory")
def test_bytes_made_by_operators_and_methods_are_released():
    @njit
    def churn_made(b, n):
        total = 0
        for i in range(n):
            t = b + b[i % 3:]
            t += b
            total += len(t * 2) + t.find(b"c", i % 5) + len(t.upper())
        return total
    assert_memory_steady(churn_made, 100)


@njit
def split_join(b, sep, maxsplit):
    parts = b.split()
    by_sep = b.split(sep)
    return parts, by_sep, b.split(None, maxsplit), b.split(sep, maxsplit), b"|".join(parts), sep.join(by_sep)


@njit
def split_keywords(b, sep):
    return b.split(sep=sep), b.split(maxsplit=1), b.split(sep=sep, maxsplit=2)


@numba_deviation("the join of one item is empty")
def test_bytes_split_and_join():
    for b in SPACED + SAMPLES:
        for sep in (b" ", b"-+", b"a", b"\xff"):
            for maxsplit in (-1, 0, 1, 3):
                assert_same(split_join, b, sep, maxsplit)
            assert_same(split_keywords, b, sep)


@njit
def joined_tuple(b):
    return b"-".join((b, b[1:], b"")), b.join(()), b.join((b,))


@numba_deviation("the join of an empty tuple is a TypingError")
def test_bytes_join_of_a_tuple():
    for b in SAMPLES:
        assert_same(joined_tuple, b)


def test_bytes_split_by_empty_separator_raises_value_error():
    with pytest.raises(ValueError, match="empty separator"):
        split_keywords(b"abc", b"")


@njit
def listed(b):
    parts = [b, b[1:]]
    for i in range(len(b)):
        parts.append(b[i:])
    total = 0
    for p in parts:
        total += len(p)
    return parts, total, parts[2] if len(parts) > 2 else b, b[1:] in parts, b"zz" in parts


@numba_deviation("bytes in a list of bytes fails to lower")
def test_lists_of_bytes():
    for b in SAMPLES:
        assert_same(listed, b)


# ---------------------------------------------------------------- typed Lists of bytes returned


@njit
def typed_list_of_pieces(b):
    out = typed.List()
    out.append(b)
    for i in range(len(b)):
        out.append(b[i:])
    out.append(b"end")
    return out


@njit
def typed_list_inserted_into(b):
    out = typed.List([b])
    out.insert(0, b"start")
    return out


@njit
def total_length(items):
    n = 0
    for x in items:
        n += len(x)
    return n


@pytest.mark.parametrize("f", [typed_list_of_pieces, typed_list_inserted_into])
def test_typed_list_of_bytes_returns_as_a_typed_list(f):
    """Numba returns its typed.List of bytes as a typed.List (and a list
    display of bytes as a Python list: test_lists_of_bytes)."""
    for b in SAMPLES:
        got, want = f(b), f.py_func(b)
        assert type(got) is typed.List and list(got) == list(want)
        assert all(type(x) is bytes for x in got)
        assert total_length(got) == sum(len(x) for x in want)


def test_typed_list_of_bytes_keeps_the_argument_bytes_it_holds():
    kept = []
    for i in range(300):
        b = bytes(RNG.integers(0, 256, size=i % 9).tolist())
        kept.append((typed_list_of_pieces(b + b"!"), b + b"!"))
    gc.collect()
    for got, b in kept:
        assert list(got) == list(typed_list_of_pieces.py_func(b))


@njit
def appended_to(items, b):
    items.append(b)
    return len(items)


def test_typed_list_of_bytes_made_in_python_passed_in_and_returned():
    items = typed.List([b"x", b"yy"])
    for b in SAMPLES[:8]:
        assert appended_to(items, b + b"?") == len(items)
    gc.collect()
    assert list(items) == [b"x", b"yy"] + [b + b"?" for b in SAMPLES[:8]]


# ---------------------------------------------------------------- array.tobytes


@njit
def to_bytes(a):
    b = a.tobytes()
    return b, len(b)


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.int16, numpy.float32, numpy.float64, numpy.complex128,
                                   numpy.bool_, numpy.int64])
def test_tobytes_gives_the_elements_bytes_in_c_order(dtype):
    base = (RNG.normal(size=(4, 6)) * 50).astype(dtype)
    for a in (base, numpy.asfortranarray(base), base[::2, ::-3], base[1], base[:0], base[2, 3:4].reshape(())):
        assert to_bytes(a) == to_bytes.py_func(a)


def test_tobytes_of_an_array_of_records_is_refused():
    a = numpy.zeros(2, dtype=[("x", "i4"), ("y", "f8")])
    with pytest.raises(ruchey.TypingError, match="tobytes"):
        to_bytes(a)


# ---------------------------------------------------------------- numpy.frombuffer

@njit
def as_uint8(b):
    return numpy.frombuffer(b, dtype=numpy.uint8)


@njit
def as_dtype_int16(b):
    return numpy.frombuffer(b, numpy.int16)


@njit
def as_float64(b):
    return numpy.frombuffer(b)


@njit
def as_part(b, count, offset):
    return numpy.frombuffer(b, dtype=numpy.uint8, count=count, offset=offset)


def test_frombuffer_of_bytes_is_a_read_only_view():
    for b in SAMPLES:
        assert_same(as_uint8, b)
        got = as_uint8(b)
        assert not got.flags.writeable
        if len(b) % 2 == 0:
            assert_same(as_dtype_int16, b)
        if len(b) % 8 == 0:
            assert_same(as_float64, b)
    b = bytes(range(40))
    for count, offset in [(-1, 0), (3, 0), (-1, 5), (10, 30), (0, 40), (-1, 40)]:
        assert_same(as_part, b, count, offset)


@njit
def as_complex(b):
    return numpy.frombuffer(b, dtype=numpy.complex128), numpy.frombuffer(b, numpy.complex64, offset=8)


def test_frombuffer_reads_complex_numbers():
    rng = make_rng(11)
    values = rng.standard_normal(6) + 1j * rng.standard_normal(6)
    for b in (values.tobytes(), bytearray(values.tobytes()), values.astype(numpy.complex64).tobytes() * 2):
        assert_same(as_complex, b)
    assert_same(as_complex, values)  # a C-contiguous array's memory


@numba_deviation("frombuffer's offset counts items, not bytes")
def test_frombuffer_bad_sizes_raise_value_error():
    for f, args in [(as_dtype_int16, (b"abc",)), (as_part, (b"abc", 4, 0)), (as_part, (b"abc", -1, 4)),
                    (as_part, (b"abc", -1, -1))]:
        with pytest.raises(ValueError) as py:
            f.py_func(*args)
        with pytest.raises(ValueError) as got:
            f(*args)
        if not AS_NUMBA:
            assert str(got.value) == str(py.value)


def test_frombuffer_write_is_a_typing_error():
    @njit
    def write(b):
        a = numpy.frombuffer(b, dtype=numpy.uint8)
        a[0] = 1
        return a

    with pytest.raises(ruchey.TypingError, match="read-only|readonly"):
        write(b"abc")


@njit
def fill_from(buf, v):
    a = numpy.frombuffer(buf, dtype=numpy.uint8)
    for i in range(a.size):
        a[i] = (int(a[i]) + v) & 255
    return a.sum()


def test_frombuffer_of_a_bytearray_writes_into_it():
    for b in SAMPLES:
        buf, py_buf = bytearray(b), bytearray(b)
        assert int(fill_from(buf, 5)) == int(fill_from.py_func(py_buf, 5))
        assert buf == py_buf == bytes((c + 5) & 255 for c in b)


# ---------------------------------------------------------------- bytearray and memoryview

@njit
def bump(buf):
    for i in range(len(buf)):
        buf[i] = (buf[i] * 3 + 1) & 255
    return buf


@njit
def read_buffer(buf):
    s = 0
    for i in range(len(buf)):
        s += buf[i] * (i + 1)
    return s, len(buf), buf[-1]


@numba_deviation("a bytearray cannot be returned")
def test_bytearray_argument_is_a_mutable_uint8_buffer():
    for b in SAMPLES:
        buf = bytearray(b)
        got = bump(buf)
        assert got is buf  # the argument itself, as Python returns it
        assert buf == bump.py_func(bytearray(b))
        if b:
            assert_same(read_buffer, bytearray(b))


@numba_deviation("a memoryview cannot be returned")
def test_memoryview_arguments():
    for b in filter(None, SAMPLES):
        assert_same(read_buffer, memoryview(b))
        view = memoryview(bytearray(b))
        assert bump(view) is view
        assert view.obj == bump.py_func(bytearray(b))
    floats = numpy.arange(5.0)
    assert_same(read_buffer, memoryview(floats))


def test_memoryview_of_bytes_is_read_only():
    with pytest.raises(ruchey.TypingError, match="read-only|readonly"):
        bump(memoryview(b"abc"))


@njit
def view_attributes(m):
    return (m.contiguous, m.c_contiguous, m.f_contiguous, m.readonly, m.ndim, m.shape, m.strides, m.itemsize,
            m.nbytes)


def test_memoryview_attributes_are_pythons():
    base = numpy.arange(24, dtype=numpy.int32).reshape(4, 6)
    frozen = base.copy()
    frozen.setflags(write=False)
    arrays = [base, base.T, base[::2], base[:, ::3], base[1], base[1, ::2], base[:1, ::2], base[:0, ::2], base[::2, :0],
              base[:, :1], frozen, numpy.zeros(()), numpy.arange(0.0), numpy.arange(4.0)[:0:2],
              RNG.normal(size=(3, 2, 5)).astype(numpy.float32)]
    views = [memoryview(a) for a in arrays] + [memoryview(b"xyz"), memoryview(bytearray(b"xyz"))]
    for m in views:
        assert view_attributes(m) == view_attributes.py_func(m)


@njit
def slice_attributes(m, step):
    v = m[1:]
    w = v[::step]
    total = 0
    while len(v) > 0:  # (a slice of a slice: the same type, a memoryview)
        total += v[0]
        v = v[1:]
    return w.readonly, w.contiguous, w.c_contiguous, w.f_contiguous, len(w), total


def test_slices_of_memoryviews_are_memoryviews():
    for b in filter(None, SAMPLES):
        for step in (1, 2, 3):
            for m in (memoryview(b), memoryview(bytearray(b)), memoryview(numpy.frombuffer(b, numpy.uint8).copy())):
                assert slice_attributes(m, step) == slice_attributes.py_func(m, step)


def test_memoryview_attributes_are_not_arrays():
    with pytest.raises(ruchey.TypingError, match=r"array\(int64, 1d, C\) has no attribute 'contiguous'"):
        view_attributes(numpy.arange(3))


# ---------------------------------------------------------------- array.array

PYTHON_ARRAYS = [("b", -3), ("B", 0), ("h", -5000), ("H", 40000), ("i", -100000), ("I", 1000000), ("l", -100000),
                 ("L", 1000000), ("q", -2**60), ("Q", 2**63 + 1), ("f", 1.5), ("d", -1.5)]


@njit
def walk_buffer(buf):
    total = 0.0
    for i, x in enumerate(buf):
        total = (total + x) * 0.5 + i
    return total, len(buf), buf[0], buf[-1]


@njit
def put(buf, i, v):
    buf[i] = v
    return buf


@njit
def slice_of(buf):
    return buf[1:3]


def test_python_array_arguments_are_buffers_of_their_items():
    import array
    for code, offset in PYTHON_ARRAYS:
        for n in (1, 2, 10):
            values = [offset + int(v) for v in RNG.integers(0, 100, size=n)]
            assert_same(walk_buffer, array.array(code, values))
            buf, py_buf = array.array(code, values), array.array(code, values)
            for i in range(n):
                v = buf[i] // 2 + 1
                assert put(buf, i, v) is buf  # the argument itself, as Python returns it
                put.py_func(py_buf, i, v)
                assert buf == py_buf


def test_slices_of_bytearrays_and_python_arrays_are_refused():
    import array
    for buf in (bytearray(b"abcde"), array.array("i", range(5))):
        with pytest.raises(ruchey.TypingError, match="a slice of a (bytearray|array.array) is a copy"):
            slice_of(buf)
    assert_same(slice_of, b"abcde")


# ---------------------------------------------------------------- memory

@njit
def churn(b, n):
    total = 0
    for i in range(n):
        s = b[i % 3:]
        t = s[::-1]
        if t == s or len(t) > 2:
            total += len(t)
    return total


def assert_memory_steady(f, rounds):
    """f(b, n) run many times grows the process by less than 8 MB (what it makes is released)."""
    f(b"abc" * 100, 10)
    before = rss_bytes()
    for _ in range(rounds):
        f(b"abcdefgh" * 256, 1000)
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


@pytest.mark.skipif(AS_NUMBA, reason="measures ruchey's memory")
def test_bytes_made_in_loops_are_released():
    assert_memory_steady(churn, 200)


@numba_deviation("hash() of bytes is a TypeError when compiling (of a bytes array's item it is taken)")
def test_hash_of_bytes_is_pythons():
    @njit
    def hashed(b):
        return hash(b), hash((b, 2))
    for b in [b"", b"abc", b"\xff\x00"] + [random_bytes() for _ in range(10)]:
        assert hashed(b) == hashed.py_func(b)


# ---------------------------------------------------------------- bad input

def typing_error(src_fn, *args, match):
    with pytest.raises(ruchey.TypingError, match=None if AS_NUMBA else match):  # (Numba's words differ)
        njit(src_fn)(*args)


UNSUPPORTED = [
    pytest.param(lambda b: b.decode(), b"abc", "decode", id="decode"),
    pytest.param(lambda b: b + "a", b"abc", "bytes take", id="concatenation with a str"),
    pytest.param(lambda b: b * 1.5, b"abc", "bytes take", id="repetition by a float"),
    pytest.param(lambda b: b.find("a"), b"abc", "must be bytes", id="find a str"),
    pytest.param(lambda b: b.count(b"a", 1.5), b"abc", "must be int", id="count from a float"),
    pytest.param(lambda b: b[1.5], b"abc", "byte indices must be integers", id="float index"),
    pytest.param(lambda b: 1.5 in b, b"abc", "bytes", id="float in"),
    pytest.param(lambda b: b < 1, b"abc", "orderings", id="order with an int"),
    pytest.param(lambda b: {b: 1}, b"abc", "bytes", id="dict key",
                 marks=numba_deviation("a dict of bytes keys fails to lower (NotImplementedError)")),
    pytest.param(lambda b: numpy.frombuffer(b, dtype=numpy.uint8, count=1.5), b"abc", "count", id="float count",
                 marks=numba_deviation("a float count is taken")),
    pytest.param(lambda x: numpy.frombuffer(x), 1.0, "frombuffer", id="frombuffer of a float"),
    pytest.param(lambda b: b.startswith("a"), b"abc", "must be bytes", id="startswith a str"),
    pytest.param(lambda b: b.ljust(2.5), b"abc", "must be int", id="ljust a float"),
    pytest.param(lambda b: {1: b}, b"abc", "dict values", id="dict of bytes values",
                 marks=numba_deviation("a dict of bytes values fails to lower")),
    pytest.param(lambda b: b if len(b) else "x", b"abc", "cannot be unified", id="bytes or str"),
    pytest.param(lambda b: b.split(1), b"abc", "'sep' must be bytes", id="split by an int"),
    pytest.param(lambda b: b.join((b, 1)), b"abc", "list or a tuple of bytes", id="join of a tuple with an int"),
]


@pytest.mark.parametrize("fn, arg, match", UNSUPPORTED)
def test_unsupported_bytes_operations_are_typing_errors(fn, arg, match):
    typing_error(fn, arg, match=match)


def test_bytes_in_kernels_index_but_call_no_runtime():
    @cuda.jit
    def first_items(out):
        k = b"\x01\x02\xff"
        i = cuda.grid(1)
        if i < len(k):
            out[i] = k[i] + k[-1]

    @cuda.jit
    def sliced_in_kernel(out):
        k = b"abc"
        out[0] = len(k[1:])

    out = numpy.zeros(3, numpy.int64)
    first_items[1, 4](out)
    assert out.tolist() == [256, 257, 510]
    if not AS_NUMBA:
        with pytest.raises(ruchey.TypingError, match="a slice of bytes is not supported in kernels"):
            sliced_in_kernel[1, 1](out)


def test_writing_into_bytes_is_a_typing_error():
    def write(b):
        b[0] = 1

    typing_error(write, b"abc", match="read-only|bytes")


@numba_deviation("a bytes subclass is taken as bytes")
def test_bytes_subclass_argument_is_a_type_error():
    class Sub(bytes):
        pass

    with pytest.raises(TypeError):
        identity(Sub(b"abc"))


# types.Bytes(...) as a global type object, as Numba takes it: the item type
# of a typed container, a signature's argument type
BYTES_TYPE = ruchey.types.Bytes(ruchey.types.uint8, 1, "C")


@njit
def bytes_list_of_global_type(items):
    x = typed.List.empty_list(BYTES_TYPE)
    for b in items:
        x.append(b)
    x.append(b"end")
    return x


@njit
def bytes_list_of_a_tuple(a, b):
    return typed.List((a, b, b"const"))


@njit
def list_of_a_tuple_of_bytes(a, b):
    return list((a, b))


def test_global_bytes_type_object_types_a_typed_list():
    for k in range(len(SAMPLES) - 2):
        items = typed.List.empty_list(BYTES_TYPE)
        for b in SAMPLES[k:k + 3]:
            items.append(b)
        got, want = bytes_list_of_global_type(items), bytes_list_of_global_type.py_func(items)
        assert type(got) is typed.List and list(got) == list(want) == SAMPLES[k:k + 3] + [b"end"]


def test_bytes_type_object_in_a_signature():
    length = njit(ruchey.types.int64(BYTES_TYPE))(lambda b: len(b))
    for b in SAMPLES:
        assert length(b) == len(b)
    with pytest.raises(TypeError):
        length("not bytes")
    if not AS_NUMBA:  # (Numba makes such a type, which nothing takes)
        with pytest.raises(TypeError, match="Bytes"):
            ruchey.types.Bytes(ruchey.types.uint16, 1, "C")


@pytest.mark.parametrize("a, b", PAIRS[:8])
def test_typed_list_of_a_tuple_of_bytes(a, b):
    got, want = bytes_list_of_a_tuple(a, b), bytes_list_of_a_tuple.py_func(a, b)
    assert type(got) is typed.List and list(got) == list(want)
    got, want = list_of_a_tuple_of_bytes(a, b), list_of_a_tuple_of_bytes.py_func(a, b)
    assert type(got) is list and got == want


@njit
def full_of_bytes(n):
    return numpy.full(n, b"ab")


@njit
def full_of_str(n):
    return numpy.full(n, "xy", numpy.str_)


@numba_deviation("Numba fills a '<U0' array with empty strings for a str fill value")
def test_numpy_full_of_text_is_a_typing_error():
    # Numba refuses bytes and fills '<U0' with empty strings for a str, where NumPy fills with the value
    with pytest.raises(ruchey.TypingError, match="numpy.full.. of a bytes fill value is not supported"):
        full_of_bytes(3)
    with pytest.raises(ruchey.TypingError, match="numpy.full.. of a str fill value is not supported"):
        full_of_str(3)
