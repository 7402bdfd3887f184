"""A ctypes function taking Python objects (a py_object argument: a
callback into the interpreter, CFUNCTYPE(c_int, py_object)(f)) is called
from compiled code as Numba calls it: each argument boxed (an array, a
str, a number, a tuple), under the GIL (in nogil functions and from many
threads too), its number or bool result given back (None where it has
none). Argument or result types such a call cannot pass are a
TypingError."""
import threading
from ctypes import CFUNCTYPE, c_bool, c_char_p, c_double, c_int, c_int64, py_object

import numpy as np
import pytest
import ruchey
from ruchey import njit

from conftest import AS_NUMBA, make_rng

LOOKUP = {"what": 1232121, "else": -7}


def lookup(arr):
    return LOOKUP[arr[0].decode("ascii")]


lookup_callback = CFUNCTYPE(c_int, py_object)(lookup)
weighted_callback = CFUNCTYPE(c_double, py_object, c_int64, py_object)(
    lambda x, k, label: float(np.sum(x)) * k + len(label))
is_sorted_callback = CFUNCTYPE(c_bool, py_object)(lambda t: list(t) == sorted(t))


def call_lookup(a):
    return lookup_callback(a)


def weighted_sum(x, k, label):
    total = 0.0
    for i in range(k):
        total += weighted_callback(x[i:], i, label)
    return total


def tuple_sorted(a, b, c):
    return is_sorted_callback((a, b, c))


def test_an_array_passed_to_a_python_callback():
    f = njit(call_lookup)
    for key in ("what", "else"):
        arr = np.array([key], dtype="S10")
        assert f(arr) == f.py_func(arr)


def test_arrays_numbers_and_strs_passed_in_a_loop():
    f = njit(weighted_sum)
    rng = make_rng(1)
    for _ in range(10):
        x = rng.normal(size=int(rng.integers(1, 20)))
        k = int(rng.integers(0, len(x) + 1))
        label = "s" * int(rng.integers(0, 5))
        assert f(x, k, label) == pytest.approx(f.py_func(x, k, label), rel=1e-12)


def test_a_tuple_passed_and_a_bool_result():
    f = njit(tuple_sorted)
    for a, b, c in make_rng(2).integers(-5, 5, (20, 3)):
        assert f(int(a), int(b), int(c)) == f.py_func(int(a), int(b), int(c))


def call_lookup_repeatedly(a, repeat):
    out = 0
    for _ in range(repeat):
        out += lookup_callback(a)
    return out


def test_nogil_callers_on_many_threads():
    f = njit(nogil=True)(call_lookup_repeatedly)
    arr = np.array(["what"], dtype="S10")
    expected = f.py_func(arr, 200)
    outputs = []
    threads = [threading.Thread(target=lambda: outputs.append(f(arr, 200))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outputs == [expected] * 4


SEEN = []
record_callback = CFUNCTYPE(None, py_object)(SEEN.append)
text_callback = CFUNCTYPE(c_int, py_object, c_char_p)(lambda o, s: 0)
text_result_callback = CFUNCTYPE(c_char_p, py_object)(lambda o: b"x")


def record_all(x, label):
    got = record_callback(x)
    for i in range(len(x)):
        record_callback((x[i], label))
    return got


def test_a_callback_of_no_result_is_none_and_sees_each_value():
    f = njit(record_all)
    rng = make_rng(3)
    for _ in range(5):
        x = rng.integers(-9, 9, int(rng.integers(0, 6)))
        label = "k%d" % rng.integers(0, 9)
        SEEN.clear()
        expected = f.py_func(x, label), list(SEEN)
        SEEN.clear()
        got = f(x, label), list(SEEN)
        assert got[0] is None and expected[0] is None
        assert len(got[1]) == len(expected[1])
        assert np.array_equal(got[1][0], expected[1][0]) and got[1][1:] == expected[1][1:]


def call_text(v):
    return text_callback(v, b"x")


def call_text_result(v):
    return text_result_callback(v)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's errors (Numba's: a TypeError)")
def test_results_and_arguments_it_cannot_pass_are_typing_errors():
    with pytest.raises(ruchey.TypingError, match="argument 2, of ctypes type c_char_p"):
        njit(call_text)(1)
    with pytest.raises(ruchey.TypingError, match="its result, of ctypes type c_char_p"):
        njit(call_text_result)(1)
