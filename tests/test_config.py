"""ruchey.config: settings from RUCHEY_* (or Numba's NUMBA_*) environment
variables, each run in a fresh interpreter; and the type functions of
Numba's surface (typeof, from_dtype, types.Array)."""
import collections
import os
import subprocess
import sys

import numpy as np
import pytest
import ruchey

from conftest import AS_NUMBA

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's own settings")


def run_with(env, code):
    full = dict(os.environ)
    for k in list(full):
        if k.startswith(("RUCHEY_", "NUMBA_")) and k not in ("RUCHEY_CUDA_BACKEND",):
            del full[k]
    full.update(env)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


DISABLED = """
import ruchey
from ruchey import cuda
import numpy as np

@ruchey.njit
def f(x):
    return x + 1

@ruchey.njit("float64(float64)")
def g(x):
    return x * 2

@cuda.jit(device=True)
def twice(x):
    return 2 * x

@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = twice(a[i])

a = np.arange(4.0)
k[1, 4](a)
print(type(f).__name__, type(g).__name__, f(1), g(2.0), a.sum(),
      ruchey.config.DISABLE_JIT)
"""


@pytest.mark.parametrize("name", ["RUCHEY_DISABLE_JIT", "NUMBA_DISABLE_JIT"])
def test_disable_jit_gives_the_python_functions(name):
    out = run_with({name: "1"}, DISABLED)
    assert out == ["function", "function", "2", "4.0", "12.0", "True"]


def test_jit_is_on_by_default():
    assert run_with({}, DISABLED)[:2] == ["Dispatcher", "Dispatcher"]


BOUNDS = """
import ruchey, numpy as np

@ruchey.njit
def get(a, i):
    return a[i]

@ruchey.njit(boundscheck=True)
def checked(a, i):
    return a[i]

try:
    get(np.arange(3.0), 10 ** 6)
    print("unchecked")
except IndexError:
    print("IndexError")
try:
    checked(np.arange(3.0), 10 ** 6)
    print("unchecked")
except IndexError:
    print("IndexError")
"""


@pytest.mark.parametrize("name", ["RUCHEY_BOUNDSCHECK", "NUMBA_BOUNDSCHECK"])
def test_boundscheck_everywhere_from_the_environment(name):
    assert run_with({name: "1"}, BOUNDS) == ["IndexError", "IndexError"]


def test_boundscheck_zero_turns_every_check_off_and_a_bad_value_warns():
    code = BOUNDS.replace("10 ** 6", "3")  # one past the end: reads without a crash
    assert run_with({"RUCHEY_BOUNDSCHECK": "0"}, code) == ["unchecked", "unchecked"]
    r = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", "import ruchey"],
                       capture_output=True, text=True, env=dict(os.environ, RUCHEY_BOUNDSCHECK="yes"))
    assert r.returncode != 0 and "RUCHEY_BOUNDSCHECK (or NUMBA_BOUNDSCHECK) is 0 or 1" in r.stderr


@pytest.mark.parametrize("name", ["RUCHEY_NUM_THREADS", "NUMBA_NUM_THREADS"])
def test_thread_count_from_the_environment(name):
    out = run_with({name: "3"}, "import ruchey; print(ruchey.config.NUM_THREADS, ruchey.get_num_threads())")
    assert out == ["3", "3"]


def test_default_thread_count_is_the_cpus_whatever_the_setting():
    """Numba's NUMBA_DEFAULT_NUM_THREADS: the CPUs this process may use,
    the pool's size unless NUM_THREADS says otherwise (csrgraph compares them)."""
    code = ("import ruchey; ruchey.install_as_numba(); import numba; "
            "print(ruchey.config.DEFAULT_NUM_THREADS, numba.config.NUMBA_DEFAULT_NUM_THREADS, "
            "numba.config.NUMBA_NUM_THREADS)")
    cpus = str(len(os.sched_getaffinity(0)))
    default, as_numba, size = run_with({}, code)
    assert default == as_numba == cpus and int(size) == min(int(cpus), int(size))
    assert run_with({"NUMBA_NUM_THREADS": "1"}, code) == [cpus, cpus, "1"]


def test_importing_config_does_not_load_the_compiler():
    out = run_with({}, "import sys, ruchey; ruchey.config.DISABLE_JIT; "
                       "print(any('libruchey' in l for l in open('/proc/self/maps')))")
    assert out == ["False"]


@pytest.mark.parametrize("value, expected", [
    (np.ones((2, 3)), "array(float64, 2d, C)"),
    (np.ones((2, 3), np.float32).T, "array(float32, 2d, F)"),
    (np.ones((4, 4), np.int8)[::2], "array(int8, 2d, A)"),
    (np.arange(5)[::-1], "array(int64, 1d, A)"),
    (np.zeros(3, bool), "array(bool, 1d, C)"),
    (7, "int64"), (2.5, "float64"), (True, "bool"), (np.float32(1), "float32"), (np.uint16(3), "uint16"),
    (None, "none"), (((None,), (None, None)), "((none,), (none, none))"),  # interpolation's option tuples
])
def test_typeof_gives_the_type_a_call_compiles_for(value, expected):
    assert repr(ruchey.typeof(value)) == expected


RECORD = np.dtype([("count", np.int32), ("weight", np.float64)])
Point = collections.namedtuple("Point", ["x", "tag"])


@pytest.mark.parametrize("value", [
    np.zeros(3, RECORD), np.zeros(3, RECORD)[0], np.zeros((2, 2), RECORD).T, Point(1.5, "a"),
    Point(np.ones(2), (1, 2)), [1.0, 2.0], [np.ones(2)], {3, 4}, slice(1, 5), slice(None, None, 2),
], ids=lambda v: type(v).__name__)
def test_typeof_of_records_named_tuples_lists_sets_slices_is_what_a_call_compiles_for(value):
    # as numba.typeof, for the values compiled code takes besides numbers and arrays
    # (numba.typeof(record_array) builds signatures and typed containers' types)
    @ruchey.njit
    def takes(x):
        return 1

    takes(value)
    if isinstance(value, (np.ndarray, np.void)):  # a Record type: what signatures take
        assert ruchey.njit((ruchey.typeof(value),))(takes.py_func)(value) == 1
    else:
        assert repr(ruchey.typeof(value)) == repr(takes.signatures[-1][0])
    if isinstance(value, Point):
        assert ruchey.typeof(value) == ruchey.types.NamedTupleType([ruchey.typeof(v) for v in value], Point)


def test_typeof_of_dtypes_and_scalar_classes_is_numbas():
    types = ruchey.types
    for name in ("int8", "uint16", "int32", "int64", "float32", "float64", "complex128", "bool_"):
        t = getattr(types, "boolean" if name == "bool_" else name)
        assert ruchey.typeof(np.dtype(name)) == types.DType(t) == types.NumberClass(t)
        assert ruchey.typeof(getattr(np, name)) == types.NumberClass(t)
        assert types.NumberClass(t).dtype == t
    assert ruchey.typeof(RECORD) == types.DType(ruchey.from_dtype(RECORD))


def test_typeof_of_a_generator_is_npy_rng_and_a_signatures_type():
    types = ruchey.types
    assert ruchey.typeof(np.random.default_rng(3)) == types.npy_rng

    def draw(rng, n):
        return rng.random() * n

    draws = ruchey.njit(types.float64(types.npy_rng, types.int64))(draw)
    for seed in (0, 1, 99):
        assert draws(np.random.default_rng(seed), 3) == draw(np.random.default_rng(seed), 3)


def test_typeof_of_an_object_naming_its_type_is_that_type():
    types = ruchey.types

    class Named:  # Numba's _numba_type_: the type an object names itself
        def __init__(self, t):
            self._numba_type_ = t

    for t in (types.UniTuple(types.boolean, 42), types.Tuple((types.int64, types.float32[:])), types.float64[:, ::1],
              types.optional(types.int32), types.int16):
        assert ruchey.typeof(Named(t)) == t
    with pytest.raises(TypeError, match="no type for"):  # (not a type: as an object without one)
        ruchey.typeof(Named("float64"))


def test_array_types_say_whether_compiled_code_may_write_them():
    a = np.arange(6.0).reshape(2, 3)
    assert ruchey.typeof(a).mutable and ruchey.typeof(a.T).mutable
    a.setflags(write=False)
    assert not ruchey.typeof(a).mutable and not ruchey.typeof(np.broadcast_to(1.0, (2, 2))).mutable


def test_typeof_of_buffers_is_what_a_call_compiles_for():
    import array

    @ruchey.njit
    def takes(x):
        return 1

    for value in (bytearray(b"ab"), memoryview(np.ones((2, 3))), memoryview(b"ab"), array.array("d", [1.5]),
                  array.array("h")):
        takes(value)
        assert repr(ruchey.typeof(value)) == repr(takes.signatures[-1][0])


def test_typeof_and_from_dtype_refuse_what_has_no_type():
    with pytest.raises(TypeError, match=r"no type for dict values .*typed\.Dict"):
        ruchey.typeof({1: 2.0})
    with pytest.raises(TypeError, match="no type for"):
        ruchey.typeof(object())
    for value in (object(), [{1: 2}], frozenset([1])):  # a ValueError too, as Numba's typeof raises
        with pytest.raises(ValueError):
            ruchey.typeof(value)
    assert ruchey.typeof(b"text") == ruchey.types.Bytes()  # as numba.typeof: a bytes argument's type
    assert ruchey.typeof("text") == ruchey.types.unicode_type  # as numba.typeof: a str argument's type
    with pytest.raises(TypeError, match="byte order"):
        ruchey.from_dtype(np.dtype(">f8"))
    with pytest.raises(TypeError, match="no type for the dtype"):
        ruchey.from_dtype("datetime64[10s]")  # a multiple of a unit
    assert ruchey.from_dtype("f4") is ruchey.float32 and ruchey.from_dtype(bool) is ruchey.boolean


def test_array_types_in_signatures():
    Array = ruchey.types.Array
    sig = Array(ruchey.float64, 1, "C")(Array(ruchey.float64, 2, "A"), ruchey.types.intp)

    @ruchey.njit(sig)
    def row(a, i):
        return a[i] * 2.0

    a = np.arange(12.0).reshape(3, 4)[:, ::2]
    np.testing.assert_array_equal(row(a, 1), row.py_func(a, 1))
    assert Array(ruchey.int8, 2, "F") == ruchey.int8[::1, :] and ruchey.types.size_t == ruchey.uint64
    with pytest.raises(ValueError, match="layout"):
        Array(ruchey.float64, 2, "X")
    with pytest.raises(TypeError, match="scalar type"):
        Array(ruchey.float64[:], 2)
