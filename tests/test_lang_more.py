"""Builtins Numba compiles that read a value's Python identity: hash(x)
equal to CPython's hash of the same value, repr(x) as Python writes it, and
getattr(x, "name"[, default]) resolved by x's type at compile time. Every
case against the function's own Python original on generated inputs."""
import collections
import math
import os
import re
import subprocess
import sys

import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import make_rng, random_floats, random_ints


@njit
def hash_of(x):
    return hash(x)


def random_words(rng, count):
    """str of one, two and four bytes a character (CPython hashes those bytes), empty and long."""
    alphabets = ["abcxyz ;:", "àéîõü\xff", "αβγδЖЯ€", "日本語", "😀🐍\U0001f600", "a\x00b"]
    words = ["", "a", "\x02", "x" * 1000, "é" * 333, "😀" * 65]
    for _ in range(count):
        chars = "".join(alphabets[i] for i in rng.choice(len(alphabets), size=rng.integers(1, 3), replace=False))
        words.append("".join(rng.choice(list(chars), size=int(rng.integers(1, 40)))))
    return words


@pytest.mark.parametrize("seed", range(3))
def test_hash_of_ints_is_pythons(seed):
    rng = make_rng(seed)
    for x in random_ints(rng, 40, -(2**63), 2**63) + [2**61 - 1, 2**61, -(2**61), -(2**61) + 1]:
        assert hash_of(x) == hash_of.py_func(x), x


@pytest.mark.parametrize("seed", range(3))
def test_hash_of_floats_is_pythons(seed):
    rng = make_rng(seed)
    for x in random_floats(rng, 60) + [2.0**61, 2.0**62 + 2.0**40, 5e-324, -1.0, float(2**53 + 1)]:
        if math.isnan(x):
            continue  # CPython hashes each NaN object by its identity
        assert hash_of(x) == hash_of.py_func(x), x


def test_hash_of_nan_varies_as_numbas():
    """As Numba 0.68's (and in the spirit of CPython 3.10+, which hashes each NaN object by
    its identity): NaNs hash apart, so a set or dict of many NaNs does not probe quadratically."""
    assert len({hash_of(x) for x in [math.nan, -math.nan] * 5}) > 1
    many = numpy.full(200_000, numpy.nan)
    many[::7] = 1.5
    assert njit(lambda a: len(set(a)))(many) == len(set(many.tolist()))  # (n**2 probes would take minutes)


@pytest.mark.parametrize("value", [True, False, numpy.int8(-1), numpy.int32(-7), numpy.uint64(2**64 - 1),
                                   numpy.uint32(2**32 - 1), numpy.float32(0.1), numpy.float32(-2.5),
                                   1 + 2j, -0.5j, complex(-1.0, 0.0), numpy.complex64(3 - 1j)])
def test_hash_of_bools_and_numpy_scalars_is_pythons(value):
    assert hash_of(value) == hash_of.py_func(value)


@pytest.mark.parametrize("seed", range(3))
def test_hash_of_str_is_the_interpreters(seed):
    for s in random_words(make_rng(seed), 40):
        assert hash_of(s) == hash_of.py_func(s), s


@njit
def hash_of_constants():
    return hash("b"), hash("f8"), hash("int32"), hash(("i", 1))  # strs, though NumPy dtypes' names


def test_hash_of_constant_strs_is_the_interpreters():
    assert hash_of_constants() == hash_of_constants.py_func()


@pytest.mark.parametrize("seed", range(3))
def test_hash_of_tuples_is_pythons(seed):
    rng = make_rng(seed)
    ints, floats, words = random_ints(rng, 8), random_floats(rng, 8, special=False), random_words(rng, 8)
    for i in range(8):
        for t in [(ints[i],), (ints[i], floats[i]), (words[i], ints[i], True), ((ints[i], words[i]), (floats[i],)),
                  (), (1 + 1j, -1)]:
            assert hash_of(t) == hash_of.py_func(t), t


def numbas_time_hash(x):
    """Numba's hash of a datetime64 or timedelta64: its count of units (-1 taken as -2, as CPython's
    hashes never are -1); NumPy 2.2 hashes them as datetime objects instead, which Numba does not follow."""
    count = int(x.astype("int64"))
    return -2 if count == -1 else count


@pytest.mark.parametrize("seed", range(2))
def test_hash_of_datetimes_and_timedeltas_is_numbas(seed):
    rng = make_rng(seed)
    counts = random_ints(rng, 12, -(2**40), 2**40) + [0, -1, 1, -2]
    for unit in ("Y", "M", "W", "D", "h", "s", "ms", "us", "ns"):
        for c in counts:
            for x in (numpy.datetime64(c, unit), numpy.timedelta64(c, unit)):
                assert hash_of(x) == numbas_time_hash(x), x
        nat = numpy.datetime64("NaT", unit)
        assert hash_of(nat) == numbas_time_hash(nat)
    day, delta = numpy.datetime64("2020-02-29"), numpy.timedelta64(-1, "s")
    assert hash_of((day, delta, 3)) == hash((numbas_time_hash(day), numbas_time_hash(delta), 3))


@pytest.mark.parametrize("seed", range(2))
def test_hash_of_a_generic_timedelta_is_numpys_and_numbas(seed):
    """A timedelta64 without a unit equals every unit's: NumPy 2.2 refuses to hash it, and Numba under it
    raises the same ValueError when called; NumPy before 2.2 hashes its count, as Numba then does."""
    counts = random_ints(make_rng(seed), 8, -(2**40), 2**40) + [0, -1, 1, -2]
    for c in counts:
        for x in (numpy.timedelta64(c), (numpy.timedelta64(c), c)):
            if numpy.lib.NumpyVersion(numpy.__version__) >= "2.2.0":
                with pytest.raises(ValueError, match="^Can't hash generic timedelta64$"):
                    hash_of.py_func(x)
                with pytest.raises(ValueError, match="^Can't hash generic timedelta64$"):
                    hash_of(x)
            else:
                assert hash_of(x) == hash_of.py_func(x)


@njit
def dunder_hash_of(x):
    return x.__hash__()


@pytest.mark.parametrize("value", [0, -1, 2**62, 2.5, -0.0, True, 1 + 2j, "", "abé", b"xy", (1, "a", 2.5), ((), (3,)),
                                   numpy.int8(-3), numpy.uint64(2**64 - 1), numpy.float32(1.5), numpy.complex64(-1j)])
def test_dunder_hash_method_is_hash(value):
    assert dunder_hash_of(value) == dunder_hash_of.py_func(value) == hash_of(value)


def test_hash_of_str_follows_the_interpreters_key():
    """The key is read from the interpreter running the code: PYTHONHASHSEED changes it."""
    code = ("from ruchey import njit\n"
            "f = njit(lambda s: hash(s))\n"
            "print(f('ruchey') == hash('ruchey'), f(('a', 1)) == hash(('a', 1)), hash('ruchey'))\n")
    seen = set()
    for seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        words = out.stdout.split()
        assert words[:2] == ["True", "True"], out.stderr
        seen.add(words[2])
    assert len(seen) == 2


@njit
def hash_of_array(a):
    return hash(a)


def test_hash_of_an_array_is_a_typing_error():
    with pytest.raises(ruchey.TypingError, match=r"hash\(\) of array"):
        hash_of_array(numpy.zeros(3))


@njit
def repr_of(x):
    return repr(x)


@njit
def repr_in_fstring(x, s):
    return "got " + repr(s) + " and " + repr(x)


@pytest.mark.parametrize("seed", range(3))
def test_repr_is_pythons(seed):
    rng = make_rng(seed)
    values = random_ints(rng, 10) + random_floats(rng, 10) + [True, False] + random_words(rng, 20)
    values += ["it's", 'say "hi"', "both ' and \"", "tab\there\nnew", "\\", "\x7f\x80", "\u2028", "\ud7ff"]
    for x in values:
        assert repr_of(x) == repr_of.py_func(x), x
    assert repr_in_fstring(1.5, "q'") == repr_in_fstring.py_func(1.5, "q'")


@pytest.mark.parametrize("seed", range(3))
def test_repr_of_an_array_is_numpys(seed):
    rng = make_rng(seed)
    for shape in [(0,), (3,), (2, 3), (1, 2, 2)]:
        for a in [rng.standard_normal(shape), rng.integers(-50, 50, shape), rng.integers(0, 2, shape).astype(bool)]:
            assert repr_of(a) == repr_of.py_func(a), a


Point = collections.namedtuple("Point", ["x", "y"])


@njit
def shape_and_size(a):
    return getattr(a, "shape"), getattr(a, "ndim"), getattr(a, "size")


@njit
def field_or_default(p):
    return getattr(p, "x", -1.0) + getattr(p, "z", 100.0)


@njit
def attribute_of_number(x):
    return getattr(x, "real"), getattr(x, "imag"), getattr(x, "shape", (0,))


@pytest.mark.parametrize("seed", range(3))
def test_getattr_with_a_constant_name_is_the_attribute(seed):
    rng = make_rng(seed)
    for shape in [(3,), (2, 4), (1, 2, 3)]:
        a = rng.standard_normal(shape)
        assert shape_and_size(a) == shape_and_size.py_func(a)
    for x, y in zip(random_floats(rng, 5), random_floats(rng, 5)):
        p = Point(x, y)
        assert repr(field_or_default(p)) == repr(field_or_default.py_func(p))
    for z in [1.5, -3.0, 2 + 5j]:
        assert attribute_of_number(z) == attribute_of_number.py_func(z)


@njit
def attribute_or_none(x, default):
    return getattr(x, "real", None), getattr(x, "no_such_attribute", None), getattr(x, "nope", default)


def test_getattr_with_a_default_of_none_as_python():
    rng = make_rng(6)
    for x, d in zip(random_floats(rng, 4), (None, 3, "text", None)):
        assert attribute_or_none(x, d) == attribute_or_none.py_func(x, d)


@njit
def record_field(r):
    return getattr(r, "b") * 2 + getattr(r, "missing", 0)


def test_getattr_of_a_record_field():
    a = numpy.rec.array(numpy.zeros(3, dtype=[("a", numpy.int32), ("b", numpy.float64)]))
    a["b"] = [1.5, -2.0, 3.25]
    for r in a:  # numpy.record: fields read as attributes in Python too
        assert record_field(r) == record_field.py_func(r)


@ruchey.experimental.jitclass([("value", ruchey.float64)])
class Box:
    def __init__(self, value):
        self.value = value


@njit
def jitclass_field(v):
    b = Box(v)
    return getattr(b, "value") + getattr(b, "other", 1.0)


def test_getattr_of_a_jitclass_field():
    for v in [0.5, -3.0]:
        assert jitclass_field(v) == jitclass_field.py_func(v)


@njit
def unknown_attribute(a):
    return getattr(a, "no_such_attribute")


@njit
def name_made_at_run_time(a, name):
    return getattr(a, name)


def test_getattr_errors_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="no_such_attribute"):
        unknown_attribute(numpy.zeros(2))
    with pytest.raises(ruchey.TypingError, match="must be a constant string"):
        name_made_at_run_time(numpy.zeros(2), "shape")


@njit
def missing_attribute(x):
    return getattr(x, "__not_a_valid_attr__")


@njit
def calls_missing_attribute(x):
    return missing_attribute(x)


def test_getattr_of_a_missing_name_is_an_attribute_error_as_python():
    # Python raises AttributeError where the name is missing; Numba raises it when compiling, naming the type
    rng = make_rng(7)
    for x in [random_floats(rng, 1)[0], 3, (5, 6), numpy.zeros(2), "text"]:
        with pytest.raises(AttributeError):
            missing_attribute.py_func(x)
        with pytest.raises(AttributeError, match=re.escape(f"'{ruchey.typeof(x)}' has no attribute '__not_a_valid_attr__'")) as info:
            njit(missing_attribute.py_func)(x)
        assert isinstance(info.value, ruchey.TypingError)
        assert "\x05" not in str(info.value)
    with pytest.raises(ruchey.TypingError, match="in the function called here") as info:
        calls_missing_attribute(1.5)
    assert "'float64' has no attribute" in str(info.value) and "\x05" not in str(info.value)


def test_hash_in_a_cuda_kernel_is_a_typing_error():
    from ruchey import cuda

    @cuda.jit
    def hashes(out):
        i = cuda.grid(1)
        out[i] = hash(i)
    with pytest.raises(ruchey.TypingError, match=r"hash\(\) is not supported in CUDA kernels"):
        hashes[1, 4](numpy.zeros(4, numpy.int64))


@ruchey.njit
def truths(items, keyed, text, a):
    return (bool([1]), bool([i for i in items if i > 2]), bool(items), bool(keyed), bool(text), bool(text[:0]),
            bool(a), bool({1, 2}), bool(len(items)))


@pytest.mark.parametrize("n", [0, 1, 5])
def test_bool_of_strs_containers_and_arrays_as_python(n):
    """bool(x) reads x's truth as a condition does: a container's or a str's
    emptiness, an array's one element (NumPy's ValueError for more)."""
    from ruchey import typed
    items = typed.List.empty_list(ruchey.types.int64)
    keyed = typed.Dict.empty(ruchey.types.int64, ruchey.types.float64)
    for i in range(n):
        items.append(i)
        keyed[i] = 0.5
    a = numpy.full(1, float(n))
    assert truths(items, keyed, "x" * n, a) == truths.py_func(list(items), dict(keyed), "x" * n, a)
    with pytest.raises(ValueError, match="truth value of an array with more than one element"):
        truths(items, keyed, "x", numpy.ones(2))
