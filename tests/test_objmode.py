"""`with objmode(name=type, ...):` blocks, as Numba's numba.objmode: the
block runs in the interpreter with the compiled function's variables it
reads, and the names declared come back into compiled code as numbers,
bools or arrays of the types given (strings or ruchey.types objects). Against the
Python original on generated inputs; a Python exception inside is raised
from the compiled call; bad blocks are clear TypingErrors."""
import os
import subprocess
import sys
import textwrap
import warnings

import numpy
import pytest
import ruchey
from ruchey import njit, objmode
from ruchey.experimental import jitclass

from conftest import AS_NUMBA, make_rng


def python_only_sum(a):
    return float(sum(a.tolist()))


@njit
def mixed(x, a):
    y = x * 2.0
    with objmode(z="float64", k="int64"):
        z = python_only_sum(a) + y
        k = len(repr(z))
    return z + 1.0, k


@njit
def types_as_objects(n):
    total = 0.0
    for i in range(n):
        with objmode(s=ruchey.float64, flag=ruchey.boolean):
            s = float(i) ** 0.5
            flag = i % 2 == 0
        if flag:
            total += s
    return total


@njit
def updates_a_variable(x):
    y = x
    with objmode(y="float64"):
        y = y * 3.0 + 1.0
    return y


@njit
def no_outputs(x):
    with objmode():
        warnings.warn("from an objmode block", UserWarning)
    return x + 1


@njit
def int32_output(x):
    with objmode(r="int32"):
        r = int(x) * 2
    return r


@njit
def raises_inside(x):
    with objmode(r="float64"):
        r = 1.0 / x
    return r


@pytest.mark.parametrize("seed", range(5))
def test_inputs_and_outputs(seed):
    rng = make_rng(seed)
    x = float(rng.uniform(-10, 10))
    a = rng.standard_normal(int(rng.integers(0, 20)))
    assert mixed(x, a) == mixed.py_func(x, a)
    n = int(rng.integers(0, 30))
    assert types_as_objects(n) == pytest.approx(types_as_objects.py_func(n), rel=1e-15)
    assert updates_a_variable(x) == updates_a_variable.py_func(x)


def test_output_type_conversion():
    assert int32_output(21.7) == 42 and type(int32_output(21.7)) is int


def test_no_outputs_runs_the_block():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert no_outputs(2) == 3
    assert [str(w.message) for w in caught] == ["from an objmode block"]


def report(items, scale, context=None):
    """A block whose loop variable and branch locals are its own (PySDM's
    warn()): only scale is the compiled function's."""
    with objmode(total="float64"):
        total = 0.0
        if context is not None:
            for var in context:
                total += var * scale
        else:
            for k in range(items):
                part = k * scale
                total += part
    return total


def test_names_a_block_assigns_before_reading_are_its_own():
    f = njit(report)
    for items, scale in zip(range(5), make_rng(21).uniform(-2, 2, 5)):
        assert f(items, scale) == report(items, scale)


def test_exception_inside_is_raised():
    with pytest.raises(ZeroDivisionError):
        raises_inside.py_func(0.0)
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        raises_inside(0.0)
    assert raises_inside(4.0) == 0.25


def test_wrong_result_is_a_type_error():
    @njit
    def not_a_number():
        with objmode(r="float64"):
            r = "text"
        return r
    with pytest.raises(TypeError):
        not_a_number()


def correlated(x, y):
    with objmode(a="float64[:]", n="int64"):
        a = numpy.correlate(x, y, mode="full")
        n = len(a)
    return a.max(), n, a, a[::2].sum()


def fresh_arrays_summed(k, size):
    s = 0.0
    for i in range(k):
        with objmode(a="float64[::1]"):
            a = numpy.ones(size) * i
        s += a.sum()
    return s


def test_array_outputs_come_back_owned():
    """An array made in the block lives on in compiled code (the block's
    reference gone) and is returned as it is."""
    f = njit(correlated)
    rng = make_rng(11)
    for _ in range(5):
        x = rng.standard_normal(int(rng.integers(1, 40)))
        y = rng.standard_normal(int(rng.integers(1, 40)))
        got, expected = f(x, y), correlated(x, y)
        assert got[:2] == expected[:2] and got[3] == expected[3]
        numpy.testing.assert_array_equal(got[2], expected[2])
    g = njit(fresh_arrays_summed)
    assert g(50, 100) == fresh_arrays_summed(50, 100)


def test_an_array_output_of_another_dtype_or_layout_is_a_type_error():
    @njit
    def ints_for_floats(x):
        with objmode(a="float64[:]"):
            a = x.astype(numpy.int64)
        return a

    @njit
    def strided_for_contiguous(x):
        with objmode(a="float64[::1]"):
            a = x[::2]
        return a

    @njit
    def list_for_array(x):
        with objmode(a="float64[:]"):
            a = [1.0]
        return a

    for f in (ints_for_floats, strided_for_contiguous, list_for_array):
        with pytest.raises(TypeError, match="output 1 is declared"):
            f(numpy.arange(4.0))


PAIR = ruchey.types.UniTuple(ruchey.types.float64, 2)  # a type object: a global (or closure) variable names it


def made_in_python(n):
    with objmode(pair=PAIR, text="unicode_type",
                 mixed="Tuple((float64[:], unicode_type, int64, UniTuple(int32, 2)))",
                 items="ListType(int64)", table="DictType(unicode_type, int64)"):
        pair = (n / 2, -n)              # ints for floats, converted
        text = "ab" * n
        mixed = (numpy.arange(n) * 0.5, str(n), n * 1.5, (n, 2.0))  # 1.5n truncated, 2.0 an int32
        items = ruchey.typed.List.empty_list(ruchey.types.int64)
        items.extend(range(n))
        squares = [float(k * k) for k in range(n)]  # the block's own
        table = ruchey.typed.Dict.empty(ruchey.types.unicode_type, ruchey.types.int64)
        for k in range(n):
            table[str(k)] = int(squares[k])
    items.append(-1)
    table["end"] = len(text)
    return pair, text + "!", mixed, items, table


def test_str_tuple_and_typed_container_outputs():
    f = njit(made_in_python)
    for n in (0, 1, 4):
        (pair, text, (arr, s, i, small), items, table) = f(n)
        assert pair == (n / 2, -n) and text == "ab" * n + "!" and s == str(n) and small == (n, 2)
        assert i == int(n * 1.5) and type(i) is int
        numpy.testing.assert_array_equal(arr, numpy.arange(n) * 0.5)
        assert list(items) == list(range(n)) + [-1] and type(items) is ruchey.typed.List
        assert dict(table) == {**{str(k): k * k for k in range(n)}, "end": 2 * n}


@jitclass([("value", ruchey.types.int64), ("data", ruchey.types.float64[:])])
class Counter:
    def __init__(self, value):
        self.value = value
        self.data = numpy.zeros(value)

    def bump(self, k):
        self.value += k
        self.data += k
        return self.value


@jitclass([("x", ruchey.types.float64)])
class Other:
    def __init__(self, x):
        self.x = x


COUNTER = Counter(1)._numba_type_  # an instance's type, as Numba's jitclass instances give it


def counters_through_python(n, c):
    with objmode(made=COUNTER, same=COUNTER):
        made = Counter(n)
        made.bump(2)
        c.bump(1)  # the caller's instance, lent to the block
        same = c
    made.bump(1)
    return made, same, made.value + same.value


def test_jitclass_instance_outputs():
    assert COUNTER is Counter.class_type.instance_type
    f = njit(counters_through_python)
    for n in (0, 1, 6):
        mine, theirs = Counter(n + 3), Counter(n + 3)
        made, same, total = f(n, mine)
        made_py, same_py, total_py = counters_through_python(n, theirs)  # the block run by Python alone
        assert (made.value, same.value, total) == (made_py.value, same_py.value, total_py)
        numpy.testing.assert_array_equal(made.data, made_py.data)
        numpy.testing.assert_array_equal(mine.data, theirs.data)
        assert mine.value == theirs.value == same.value
        if not AS_NUMBA:  # (ruchey's references to the native objects)
            assert made._meminfo_refcount() == 1 and mine._meminfo_refcount() == 2  # mine's box and same's
            del same
            assert mine._meminfo_refcount() == 1

    @njit
    def another_class():
        with objmode(r=COUNTER):
            r = Other(1.0)
        return r

    if not AS_NUMBA:  # (Numba reads another class's instance unchecked)
        with pytest.raises(TypeError, match="output 1 is declared instance.jitclass.Counter"):
            another_class()


def test_a_container_or_tuple_output_of_another_type_is_a_type_error():
    @njit
    def floats_for_ints():
        with objmode(r="ListType(int64)"):
            r = ruchey.typed.List([1.5])
        return r

    @njit
    def three_for_two():
        with objmode(r="UniTuple(int64, 2)"):
            r = (1, 2, 3)
        return r

    @njit
    def python_list():  # a typed List is declared: a Python list is not one, as in Numba
        with objmode(r="ListType(int64)"):
            r = [1, 2]
        return r

    for f in (floats_for_ints, three_for_two, python_list):
        with pytest.raises(TypeError, match="output 1 is declared"):
            f()
    with pytest.raises(TypeError, match="got a Python list: can't unbox a <class 'list'>"):
        python_list()


def test_an_optional_str_output_is_a_typing_error():
    @njit
    def maybe_text():
        with objmode(r="optional(unicode_type)"):
            r = None
        return r
    with pytest.raises(ruchey.TypingError, match="objmode output"):
        maybe_text()


def test_unknown_type_is_a_typing_error():
    @njit
    def unknown():
        with objmode(r="float65"):
            r = 1.0
        return r
    with pytest.raises(ruchey.TypingError, match="unknown type 'float65'"):
        unknown()

    @njit
    def computed():
        with objmode(r=ruchey.types.UniTuple(ruchey.types.float64, 2)):  # a call: not read when compiling
            r = (1.0, 2.0)
        return r
    with pytest.raises(ruchey.TypingError, match="global or closure variable"):
        computed()


def test_other_with_statements_are_refused():
    @njit
    def other():
        with open("x") as f:
            pass
    with pytest.raises(ruchey.TypingError, match="'with' is not supported"):
        other()


def centred_in_parallel(a):
    with objmode(m="float64"):
        m = float(numpy.median(a))
    out = numpy.empty_like(a)
    for i in ruchey.prange(a.size):
        with objmode(d="float64"):  # on the pool's threads, each taking the GIL in turn
            d = float(a[i]) - m
        out[i] = d
    return out


def test_blocks_in_parallel_functions_and_their_prange_loops():
    f = njit(parallel=True)(centred_in_parallel)
    for n in (1, 6, 1001):
        a = make_rng(n).standard_normal(n)
        numpy.testing.assert_array_equal(f(a), centred_in_parallel(a))

    @njit(parallel=True)
    def inverted(a):
        out = numpy.empty_like(a)
        for i in ruchey.prange(a.size):
            with objmode(r="float64"):
                r = 1.0 / float(a[i])
            out[i] = r
        return out

    with pytest.raises(ZeroDivisionError, match="division by zero"):
        inverted(numpy.array([1.0, 2.0, 0.0, 4.0] * 50))


@njit
def doubled_in_python(x):
    with objmode(y="float64"):
        y = x * 2.0
    return y


@njit(parallel=True)
def doubled_in_parallel(a):
    out = numpy.empty_like(a)
    for i in ruchey.prange(a.size):
        out[i] = doubled_in_python(a[i])
    return out


@njit
def called_holding_the_gil(a):
    return doubled_in_parallel(a).sum()


def test_blocks_in_a_prange_loop_called_by_compiled_code_holding_the_gil():
    """The thread starting the loop lets go of the GIL while it runs: a
    chunk's block on another thread waited for it forever."""
    code = textwrap.dedent("""
        import numpy
        from test_objmode import called_holding_the_gil
        a = numpy.arange(2000.0)
        print(called_holding_the_gil(a) == called_holding_the_gil.py_func(a))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=os.path.dirname(__file__))
    assert out.stdout.split() == ["True"], out.stderr


def test_runs_outside_compiled_code():
    assert mixed.py_func(1.0, numpy.ones(2)) == (5.0, 3)


def test_numba_objmode_is_ruchey_objmode():
    code = textwrap.dedent("""
        import ruchey
        ruchey.install_as_numba()
        import numba
        from numba import njit, objmode
        from numba.core.withcontexts import objmode_context, parallel_chunksize
        assert objmode is ruchey.objmode is objmode_context
        assert parallel_chunksize is ruchey.parallel_chunksize

        @njit
        def f(x):
            with objmode(y="float64"):
                y = x * 2
            with objmode_context:
                print("bare")
            with numba.objmode:
                print("attribute")
            return y
        print(f(2.5))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["bare", "attribute", "5.0"], out.stderr


def test_never_cached(tmp_path):
    (tmp_path / "mod.py").write_text(textwrap.dedent("""
        from ruchey import njit, objmode

        @njit(cache=True)
        def f(x):
            with objmode(y="float64"):
                y = x * 2
            return y

        print(f(2.0))
    """))
    for _ in range(2):  # the second run would load what the first stored
        out = subprocess.run([sys.executable, "mod.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0 and out.stdout.split() == ["4.0"], out.stderr
    assert not list(tmp_path.glob("__pycache__/*.rbc"))


@njit
def seed_or_drawn(seed):
    if seed is None:
        with objmode(seed="optional(uint8)"):
            seed = int(python_only_sum(numpy.arange(4.0)))
    return seed


@njit
def maybe_none(x):
    with objmode(r="optional(float64)"):
        r = None if x < 0 else x * 2.0
    return r


def test_optional_outputs_come_back_as_a_value_or_none():
    assert seed_or_drawn(None) == seed_or_drawn.py_func(None) == 6
    assert seed_or_drawn(300) == 300  # a given seed is the argument itself
    for x in (-1.0, 0.0, 2.5):
        assert maybe_none(x) == maybe_none.py_func(x)


def test_optional_array_outputs_are_refused():
    @njit
    def arrays():
        with objmode(r="optional(float64[:])"):
            r = None
        return r

    with pytest.raises(ruchey.TypingError, match="objmode output"):
        arrays()


def made_inputs_read_in_python(n):
    total = 0.0
    for i in range(n):
        made = numpy.arange(10.0) * i  # an array compiled code owns
        label = str(i) + "x"  # a str it owns
        with objmode(r="float64", k="int64"):
            r = float(made.sum())
            k = len(label)
        total += r + k + made[1]
    return total


def test_values_compiled_code_made_are_lent_to_the_block_not_given():
    """Arrays and strs the function made are boxed for the block with a
    reference of their own: the function still holds them after it."""
    f = njit(made_inputs_read_in_python)
    for n in (1, 5, 300):
        assert f(n) == made_inputs_read_in_python(n)


def halve_in_python(arr):
    arr //= 2


def doubled_in_place(a):
    a += 1
    with objmode:  # no outputs: objmode uncalled, as numba.objmode is written
        a[...] = a * 2  # (a *= 2 would assign a: an output to declare)
    with objmode():
        halve_in_python(a)
    return a.sum()


@pytest.mark.parametrize("dtype", ["int64", "int32", "float64"])
def test_bare_objmode_and_no_outputs_change_arrays_in_place(dtype):
    f = njit(doubled_in_place)
    for seed, shape in enumerate([(0,), (7,), (3, 4)]):
        a = (make_rng(seed).integers(-50, 50, shape)).astype(dtype)
        b = a.copy()
        assert f(a) == doubled_in_place(b)
        numpy.testing.assert_array_equal(a, b)


def scaled_by_closure(k):
    offset = 0.5

    def scale(v):  # a function of the enclosing scope, read by the block
        return v * k + offset

    @njit
    def f(x):
        with objmode(y="float64"):
            y = scale(x)
        return y
    return f


def test_block_reads_the_closure_of_the_function():
    for k, x in zip(make_rng(3).uniform(-4, 4, 6), make_rng(4).uniform(-9, 9, 6)):
        f = scaled_by_closure(k)
        assert f(x) == f.py_func(x)


def test_block_sees_closure_variables_reassigned_later():
    def make():
        level = 1

        @njit
        def f(x):
            with objmode(y="int64"):
                y = x * level
            return y

        def set_level(v):
            nonlocal level
            level = v
        return f, set_level

    f, set_level = make()
    assert f(3) == 3
    set_level(5)
    assert f(3) == f.py_func(3) == 15


def defines_and_imports(x):
    with objmode(y="float64", n="int64"):
        import math as m

        def twice(v):
            return 2 * v

        class Box:
            value = x
        y = twice(m.sqrt(abs(Box.value)))
        n = len([k for k in range(int(abs(x)))])
    return y + n


def test_block_defines_functions_classes_and_imports():
    f = njit(defines_and_imports)
    for x in make_rng(5).uniform(-20, 20, 8):
        assert f(x) == defines_and_imports(x)


def test_variable_assigned_in_block_and_read_after_must_be_declared():
    @njit
    def undeclared(x):
        y = 1
        with objmode():
            y = x + 5
        return y

    with pytest.raises(ruchey.TypingError, match=r"Missing type annotation on outgoing variable\(s\): \['y'\]"):
        undeclared(3)

    @njit
    def read_next_iteration(n):
        total = 0
        for i in range(n):
            total += i
            with objmode():
                total = total * 2
        return 0

    with pytest.raises(ruchey.TypingError, match="outgoing variable.*'total'"):
        read_next_iteration(3)

    @njit
    def read_in_finally(x):
        t = 0
        try:
            with objmode():
                t = x + 1
        finally:
            x = t
        return x

    with pytest.raises(ruchey.TypingError, match="outgoing variable.*'t'"):
        read_in_finally(3)


def assigned_again_before_read(x, flag):
    s = 0
    for j in range(3):
        with objmode(s="int64"):
            t = x + j  # the block's own: compiled code assigns t again before reading it
            s = s + t
            scratch = [t]
            u = t
        if flag:
            t = 1
        else:
            t = 2
        scratch = t
        s += scratch
        try:
            u = 10 // (x + 3)
        except ZeroDivisionError:
            u = -1
        s += u
    return s


def test_variables_assigned_again_before_read_need_no_declaration():
    f = njit(assigned_again_before_read)
    for x in range(-3, 4):
        for flag in (True, False):
            assert f(x, flag) == assigned_again_before_read(x, flag)


def maybe_assigned(x, items):
    y = 0.5
    for k in range(3):
        with objmode(y="float64", first="int64"):
            if x > k:     # else y keeps its value, from before the block or the last time round
                y = x * 2.0 + k
            for first in items:  # assigned where items has one: the block's own name otherwise
                break
            else:
                first = -1
        y += first
    return y


def test_an_output_the_block_may_leave_unassigned_keeps_its_value():
    f = njit(maybe_assigned)
    for x in (-1.0, 0.5, 1.5, 7.0):
        for items in (numpy.array([], numpy.int64), numpy.array([3, 4])):
            assert f(x, items) == maybe_assigned(x, items)


def test_declared_output_the_block_does_not_assign_is_a_typing_error():
    @njit
    def never_assigned(x):
        with objmode(k="float64[:]"):
            print(x)
        return x

    with pytest.raises(ruchey.TypingError, match=r"Invalid type annotation on non-outgoing variables: \['k'\]"):
        never_assigned(1)


def test_return_inside_a_block_is_a_typing_error():
    @njit
    def returns_inside(x):
        with objmode(x="int64"):
            x = 4
            return x
        return x

    with pytest.raises(ruchey.TypingError, match="'return' inside an objmode block"):
        returns_inside(1)

    @njit
    def breaks_out(x):
        for i in range(3):
            with objmode(x="int64"):
                x += 1
                if x > 4:
                    break
        return x

    with pytest.raises(ruchey.TypingError, match="'break' outside loop"):
        breaks_out(1)


def converted(x):
    with objmode(i="int64", j="int32", f="float64", b="boolean", c="complex128", o="optional(int64)"):
        i = x * 2.5         # a float for an int: truncated
        j = numpy.float32(x)
        f = int(x)          # an int for a float
        b = [x] if x > 0 else []  # a bool is the value's truth
        c = x
        o = x * 1.5 if x > 0 else None
    return i, j, f, b, c, o


def test_outputs_converted_to_their_declared_numbers_as_numba():
    f = njit(converted)
    for x in (-3, 0, 1, 7):
        got = f(x)
        want = (int(x * 2.5), int(numpy.float32(x)), float(x), bool(x > 0), complex(x), int(x * 1.5) if x > 0 else None)
        assert got == want and [type(v) for v in got] == [int, int, float, bool, complex, type(want[-1])]


def test_text_for_a_float_output_is_a_type_error():
    @njit
    def text():
        with objmode(r="float64"):
            r = "1.5"
        return r
    with pytest.raises(TypeError):
        text()


def lists_mutated_in_block(values, z):
    values[0] = z
    made = [z, z + 1]
    with objmode():
        values.append(len(values))
        values[1] = 2 * z
        made.insert(0, -1)
    return len(values) + values[1] + sum(made)


def appended_then_raised(values, n):
    try:
        with objmode():
            values.append(n)
            if n > 2:
                raise ValueError("after the append")
    except ValueError:
        n = -n
    return len(values) + n


def test_lists_mutated_in_a_block_are_seen_by_compiled_code():
    g = njit(appended_then_raised)
    for n in range(5):
        given, expected = [1, 2], [1, 2]
        assert g(given, n) == appended_then_raised(expected, n) and given == expected

    f = njit(lists_mutated_in_block)
    for seed in range(4):
        values = [int(v) for v in make_rng(seed).integers(-9, 9, 3 + seed)]
        given, expected = list(values), list(values)
        assert f(given, seed) == lists_mutated_in_block(expected, seed)
        assert given == expected  # the argument reflects what the block did, as Python's list


TABLE = {0: 1.0}


def sets_mutated_in_block(given, z):
    made = {z, z + 1}
    with objmode():
        given.add(z * 10)
        given.discard(1)
        made.update(range(z))
    total = 0
    for v in made:  # in Python's order
        total = total * 3 + v
    return total + len(given)


def test_sets_mutated_in_a_block_are_seen_by_compiled_code():
    f = njit(sets_mutated_in_block)
    for seed in range(4):
        values = {int(v) for v in make_rng(seed).integers(-9, 9, 3 + seed)}
        given, expected = set(values), set(values)
        assert f(given, seed) == sets_mutated_in_block(expected, seed)
        assert given == expected


def raises_in_block(key):
    with objmode(v="float64"):
        if key == 1:
            raise ValueError("several", 1.5, None, True, -7)
        v = TABLE[key] if key >= 0 else float(open("/nonexistent/" + str(key)).read())
    return v


def test_exceptions_of_a_block_keep_their_arguments():
    """KeyError('2') stays that (not KeyError("'2'"), its message's), a
    builtin exception's numbers, strs, bools and None too; an OSError, whose
    file name is no argument, keeps its message."""
    f = njit(raises_in_block)
    for key in (-1, 1, 5):
        with pytest.raises(Exception) as want:
            raises_in_block(key)
        with pytest.raises(type(want.value)) as got:
            f(key)
        assert str(got.value) == str(want.value)
        assert got.value.args == want.value.args or key < 0
