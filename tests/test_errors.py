"""Code outside the supported subset raises ruchey.TypingError at the first call,
with a message naming the file and line and quoting the offending source line;
bad input never crashes the interpreter."""
import inspect
import math
import os
import re

import numpy
import pytest
import ruchey

from conftest import assert_same, float_array, make_rng, numba_deviation, run_python_file

MARK = "# <- unsupported"
THIS_FILE = os.path.basename(__file__)


def python_helper(a):
    return a + 1


def bytes_dict_key(x):
    s = {b"abc": x}  # <- unsupported
    return x


def set_of_arrays(x):
    a = {numpy.zeros(x)}  # <- unsupported
    return x


def with_statement(x):
    with open("no_such_file") as fh:  # <- unsupported
        x = x + 1
    return x


def except_as(x):
    y = x
    try:
        y = x + 1
    except Exception as e:  # <- unsupported (e used: Python unbinds an unused one, which compiles)
        y = e
    return y


def call_python_function(x):
    y = x * 2
    return python_helper(y)  # <- unsupported


def unknown_global(x):
    y = x + 1
    return y + name_that_is_not_defined_anywhere  # <- unsupported  # noqa: F821


def call_in_loop_body(n):
    s = 0
    for i in range(n):
        if i > 3:
            s += i
        else:
            s = s + python_helper(i)  # <- unsupported
    return s


def index_a_scalar(x):
    y = x
    return y[0]  # <- unsupported


CASES = [
    pytest.param(bytes_dict_key, id="bytes_dict_key",
                 marks=numba_deviation("a dict of bytes keys fails to lower (NotImplementedError)")),
    pytest.param(set_of_arrays, id="set_of_arrays",
                 marks=numba_deviation("its message does not quote the line")),
    pytest.param(with_statement, id="with_statement",
                 marks=numba_deviation("raises UnsupportedBytecodeError, not TypingError")),
    pytest.param(except_as, id="except_as",
                 marks=numba_deviation("raises UnsupportedError, not TypingError")),
    pytest.param(call_python_function, id="call_python_function"),
    pytest.param(unknown_global, id="unknown_global",
                 marks=numba_deviation("NameError message has no file/line/source")),
    pytest.param(call_in_loop_body, id="call_in_loop_body"),
    pytest.param(index_a_scalar, id="index_a_scalar"),
]


def offending_line(pyfunc):
    """(line number, source text without the marker comment) of the marked line."""
    lines, start = inspect.getsourcelines(pyfunc)
    for k, line in enumerate(lines):
        if MARK in line:
            return start + k, line.split("#")[0].strip()
    raise AssertionError(f"no marked line in {pyfunc.__name__}")


def assert_message_locates(error, pyfunc):
    lineno, code = offending_line(pyfunc)
    msg = str(error)
    assert THIS_FILE in msg, f"file name missing from message:\n{msg}"
    assert re.search(rf"(?<!\d){lineno}(?!\d)", msg), f"line {lineno} missing from message:\n{msg}"
    assert code in msg, f"source line {code!r} missing from message:\n{msg}"


def test_typing_error_is_an_exception_class():
    assert isinstance(ruchey.TypingError, type)
    assert issubclass(ruchey.TypingError, Exception)


@pytest.mark.parametrize("pyfunc", CASES)
def test_unsupported_code_raises_typing_error_naming_file_line_and_source(pyfunc):
    f = ruchey.jit(pyfunc)  # lazy: decorating does not raise
    with pytest.raises(ruchey.TypingError) as excinfo:
        f(3)
    assert_message_locates(excinfo.value, pyfunc)


@pytest.mark.parametrize("pyfunc", [call_python_function, call_in_loop_body, index_a_scalar])
def test_typing_error_is_raised_again_on_every_call(pyfunc):
    f = ruchey.jit(pyfunc)
    for _ in range(3):
        with pytest.raises(ruchey.TypingError):
            f(10)
    with pytest.raises(ruchey.TypingError):
        f(2.5)
    assert f.signatures == []


def test_dispatcher_still_works_for_good_inputs_after_typing_error():
    f = ruchey.jit(index_a_scalar)
    with pytest.raises(ruchey.TypingError) as excinfo:
        f(5)
    assert_message_locates(excinfo.value, index_a_scalar)
    rng = make_rng(160)
    for n in (1, 7, 1000):
        assert_same(f, float_array(rng, n))
    with pytest.raises(ruchey.TypingError):
        f(5.0)
    assert_same(f, numpy.arange(5, dtype=numpy.int64))


def test_unsupported_code_in_one_function_does_not_affect_others():
    bad = ruchey.jit(call_python_function)
    good = ruchey.jit(python_helper)
    with pytest.raises(ruchey.TypingError):
        bad(1)
    assert_same(good, 41)
    assert_same(good, -1.5)


NO_CRASH_SCRIPT = '''
import gc
import numpy
import ruchey


@ruchey.jit
def arr_sum(x, y):
    result_arr = numpy.empty_like(x)
    for i in range(len(x)):
        result_arr[i] = x[i] + y[i]
    return result_arr


@ruchey.jit
def scale(x, a):
    for i in range(len(x)):
        x[i] *= a
    return x


def helper(a):
    return a


def uses_string(x):
    s = "abc"
    return x


def uses_list(x):
    a = [x, x]
    return x


def uses_with(x):
    with open("no_such_file") as fh:
        x = x + 1
    return x


def uses_try(x):
    try:
        x = x + 1
    except Exception:
        x = 0
    return x


def uses_lambda(x):
    g = lambda a: a + 1
    return x


def uses_helper(x):
    return helper(x)


def uses_unknown(x):
    return x + not_defined_anywhere


bad_values = [None, object(), [1.0, 2.0, 3.0], "abc", 2**70, numpy.zeros((3, 3)),
              numpy.zeros(12)[::2], numpy.zeros(4, dtype=numpy.int32)]
outcomes = []
for b in bad_values:
    # a good partner array of the same length, so that nothing reads out of bounds
    good = numpy.ones(len(b) if isinstance(b, numpy.ndarray) else 3)
    for call in (lambda: arr_sum(good, b), lambda: scale(b, 2.0), lambda: scale(good, b)):
        try:
            call()
            outcomes.append("ok")
        except Exception as e:
            outcomes.append(type(e).__name__)
for pyfunc in (uses_string, uses_list, uses_with, uses_try, uses_lambda, uses_helper,
               uses_unknown):
    f = ruchey.jit(pyfunc)
    for arg in (1,):
        try:
            f(arg)
        except Exception as e:
            outcomes.append(type(e).__name__)
gc.collect()
x = numpy.arange(5.0)
r = arr_sum(x, x)
assert r.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0], r
print("SURVIVED", len(outcomes))
'''


def test_bad_arguments_and_unsupported_code_do_not_crash_the_interpreter(tmp_path):
    proc = run_python_file(NO_CRASH_SCRIPT, tmp_path)
    assert proc.returncode == 0, (f"interpreter died, rc={proc.returncode}\n"
                                  f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr[-4000:]}")
    assert "SURVIVED" in proc.stdout


def test_function_without_source_is_a_clear_typing_error():
    import subprocess
    import sys
    import marshal
    # code marshalled from this process: no text of it anywhere in the child
    # (a string or a syntax tree given to exec() or compile() would compile,
    # see test_source.py)
    made = marshal.dumps(compile("def f(x):\n    return x\n", "<gone>", "exec").co_consts[0])
    code = ("import marshal, types, ruchey\n"
            f"f = ruchey.njit(types.FunctionType(marshal.loads({made!r}), {{}}))\n"
            "try:\n    f(1)\nexcept ruchey.TypingError as e:\n    print('source' in str(e))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "True", out.stderr


def wide_names(中文, y):
    return 中文 + y + undefined_name  # noqa: F821


@numba_deviation("Numba's message has no column")
def test_error_column_counts_characters_not_utf8_bytes():
    with pytest.raises(ruchey.TypingError) as err:
        ruchey.njit(wide_names)(1, 2)
    line = inspect.getsourcelines(wide_names)[0][1].rstrip("\n")
    col = line.index("undefined_name")
    text = str(err.value)
    assert f"column {col + 1}:" in text, text
    shown = text.splitlines()
    caret = shown[-1]
    assert caret.index("^") - 4 == col and shown[-2][4:] == line, text


def misspelt_math(x):
    return math.sqrtt(x)


def misspelt_numpy_submodule(x):
    return numpy.linalg.sovle(x, x)


def undefined_function(x):
    return never_defined(x)  # noqa: F821


def misspelt_numpy_constant(x):
    return x * numpy.pi2


def unsupported_numpy_function(x):
    return numpy.polynomial.hermite.hermval(x, x)


@numba_deviation("Numba's messages differ")
@pytest.mark.parametrize("pyfunc, message", [
    (misspelt_math, "module 'math' has no attribute 'sqrtt' (did you mean 'sqrt'?)"),
    (misspelt_numpy_submodule, "module 'numpy.linalg' has no attribute 'sovle' (did you mean 'solve'?)"),
    (undefined_function, "name 'never_defined' is not defined"),
    (misspelt_numpy_constant, "module 'numpy' has no attribute 'pi2' (did you mean 'pi'?)"),
    (unsupported_numpy_function, "cannot call numpy.polynomial.hermite.hermval from compiled code"),
], ids=["math", "numpy.linalg", "undefined", "numpy.pi2", "numpy.hermval"])
def test_unknown_callees_are_named_as_python_names_them(pyfunc, message):
    """A callee the compiler does not know is named as Python would name it
    at run time, with the nearest existing name where one is close."""
    with pytest.raises(ruchey.TypingError) as err:
        ruchey.njit(pyfunc)(numpy.eye(2))
    assert message in str(err.value)
    if pyfunc is not unsupported_numpy_function:  # Python itself fails on the name
        with pytest.raises((AttributeError, NameError)):
            pyfunc(numpy.eye(2))


def misspelt_method(x):
    return x.sortt()


def swapped_method(x):
    return x.srot()


def misspelt_attribute(x):
    return x.ndm


def unknown_method(x):
    return x.zzzzzz()


@numba_deviation("Numba's messages differ")
@pytest.mark.parametrize("pyfunc, message", [
    (misspelt_method, "has no method 'sortt' in compiled code (did you mean 'sort'?)"),
    (swapped_method, "has no method 'srot' in compiled code (did you mean 'sort'?)"),
    (misspelt_attribute, "has no attribute 'ndm' in compiled code (did you mean 'ndim'?)"),
    (unknown_method, "has no method 'zzzzzz' in compiled code\n"),
], ids=["extra-letter", "swapped", "missing-letter", "nothing-near"])
def test_unknown_members_name_the_nearest_member(pyfunc, message):
    with pytest.raises(ruchey.TypingError) as err:
        ruchey.njit(pyfunc)(numpy.arange(3.0))
    assert message in str(err.value)


def misspelt_keyword(x):
    return numpy.sum(x, axsi=0)


def unsupported_keyword(x):
    return numpy.sum(x, where=x > 1)


@numba_deviation("Numba's messages differ")
def test_unsupported_keywords_name_the_nearest_keyword():
    with pytest.raises(ruchey.TypingError, match=r"keyword argument 'axsi' \(did you mean 'axis'\?\)"):
        ruchey.njit(misspelt_keyword)(numpy.arange(3.0))
    with pytest.raises(ruchey.TypingError) as err:
        ruchey.njit(unsupported_keyword)(numpy.arange(3.0))
    assert "unsupported keyword argument 'where'\n" in str(err.value)
