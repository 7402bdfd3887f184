"""Arithmetic and bit operations on every pair of integer dtypes (and bool,
and Python int literals), compared with CPython's arithmetic on the values
converted to the result type Numba's integer typing gives:

- two integers operate in 64 bits, unsigned only when both are unsigned
  (uint64 with int64 is int64, where NumPy 2 gives float64);
- a shift has its left operand's signedness; its count keeps its own sign
  (a negative count raises ValueError, a count past 63 shifts everything out);
- bool & | ^ bool is a bool;
- a Python int literal is an int64, as in Numba (so uint16 & 0x3FFF is an
  int64, where NumPy 2's NEP 50 would keep uint16).

Run with RUCHEY_TEST_AS_NUMBA=1 to check the reference against Numba itself:
it agrees on every pair's type and value, and differs where ruchey follows
CPython (a negative shift count raises; int64 min // -1 wraps to itself
rather than 0; -int8(-128) is 128). -x and ~x of a small unsigned int wrap in
its own width and widen to uint64 (~uint8(0) is 255, as NumPy's scalar and
Numba give it). Random expression trees over several dtypes (and
stores of them into arrays of every dtype) check the rules nested."""
import collections
import linecache
import operator
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ruchey
from ruchey import njit

from conftest import AS_NUMBA, FUZZ_SCALE, make_rng, numba_deviation

INTS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
DTYPES = (np.bool_,) + INTS
OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
       "%": operator.mod, "&": operator.and_, "|": operator.or_, "^": operator.xor,
       "<<": operator.lshift, ">>": operator.rshift}
SHIFTS = ("<<", ">>")


def unsigned(dt):
    return np.dtype(dt).kind == "u"


def result_dtype(op, ta, tb):
    if op in ("&", "|", "^") and ta is np.bool_ and tb is np.bool_:
        return np.bool_
    if op in SHIFTS:
        return np.uint64 if unsigned(ta) else np.int64
    return np.uint64 if unsigned(ta) and unsigned(tb) else np.int64


def wrap(v, dt):
    bits = 64
    v &= (1 << bits) - 1
    if not unsigned(dt) and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def reference(op, x, ta, y, tb, rt):
    """(value or exception type) of x op y under Numba's typing, by CPython."""
    if rt is np.bool_:
        return bool(OPS[op](bool(x), bool(y)))
    a = wrap(int(x), rt)
    if op in SHIFTS:
        n = int(y)
        if n < 0:
            return ValueError
        return wrap(OPS[op](a, min(n, 200)), rt)
    b = wrap(int(y), rt)
    if op in ("//", "%") and b == 0:
        return ZeroDivisionError
    if op == "//" and b == -1 and a == np.iinfo(rt).min:
        return 0  # the machine division overflows: Numba's quotient is 0
    return wrap(OPS[op](a, b), rt)


def values(dt, rng):
    """Edge values of dt and random ones; shift counts near the width too."""
    if dt is np.bool_:
        return np.array([False, True], dtype=dt)
    info = np.iinfo(dt)
    edge = [info.min, info.max, 0, 1, 2, 7, 63, 64, 65, info.max // 2 + 1]
    if info.min < 0:
        edge += [-1, -2, -64]
    rand = rng.integers(info.min, info.max, 6, dtype=dt, endpoint=True)
    return np.concatenate([np.array([e for e in edge if info.min <= e <= info.max], dtype=dt), rand])


def compile_op(op, src):
    ns = {}
    exec(f"def f(a, b, i, j):\n    return {src.format(op=op)}\n", ns)
    return njit(ns["f"])


def check(f, op, a, b, rt, swap=False):
    for i in range(len(a)):
        for j in range(len(b)):
            x, y = (b[j], a[i]) if swap else (a[i], b[j])
            tx, ty = (b.dtype.type, a.dtype.type) if swap else (a.dtype.type, b.dtype.type)
            exp = reference(op, x, tx, y, ty, rt)
            if isinstance(exp, type):
                with pytest.raises(exp):
                    f(a, b, i, j)
                continue
            got = f(a, b, i, j)
            assert type(got) is (bool if rt is np.bool_ else int), (op, tx, ty, got)
            assert got == exp, (op, x, tx, y, ty, got, exp)


@pytest.mark.parametrize("op", list(OPS), ids=list(OPS))
def test_every_pair_of_integer_dtypes(op):
    f = compile_op(op, "a[i] {op} b[j]")
    rng = make_rng(20)
    for ta in DTYPES:
        a = values(ta, rng)
        for tb in DTYPES:
            check(f, op, a, values(tb, rng), result_dtype(op, ta, tb))


@pytest.mark.parametrize("op", list(OPS), ids=list(OPS))
@pytest.mark.parametrize("lit", [3, -2, 0, True])
def test_integer_dtypes_with_python_literals(op, lit):
    if AS_NUMBA and op in SHIFTS:
        pytest.skip("a negative shift count raises ValueError here (CPython), where Numba shifts")
    rng = make_rng(21)
    right = compile_op(op, "a[i] {op} " + repr(lit))
    left = compile_op(op, repr(lit) + " {op} a[i]")
    litarr = np.array([lit])
    for t in DTYPES:
        a = values(t, rng)
        lt = np.bool_ if lit is True else np.int64
        check(right, op, a, litarr, result_dtype(op, t, lt))
        check(left, op, a, litarr, result_dtype(op, lt, t), swap=True)


def unary_value(op, v, t):
    """(value, dtype) of op v for v of dtype t: 64 bits, of the sign of t; an unsigned v
    negated or inverted in its own width first."""
    rt = np.uint64 if unsigned(t) else np.int64
    v = {"~": operator.invert, "-": operator.neg, "+": operator.pos}[op](v)
    if unsigned(t):
        v &= (1 << (8 * np.dtype(t).itemsize)) - 1
    return wrap(v, rt), rt


@pytest.mark.parametrize("op", ["~", "-", "+"])
def test_unary_operators_on_every_dtype(op):
    f = njit(eval(f"lambda a, i: {op}a[i]"))
    rng = make_rng(22)
    for t in INTS:
        a = values(t, rng)
        for i in range(len(a)):
            exp = unary_value(op, int(a[i]), t)[0]
            got = f(a, i)
            assert type(got) is int and got == exp, (op, t, a[i], got, exp)


def test_unsigned_element_with_literals_is_signed_as_in_numba():
    @njit
    def f(a):
        return -(16384 - (a[0] & 0x3FFF)), a[0] + 1, 5 - a[0], 1 << a[1]

    a = np.array([16379, 3], np.uint16)
    assert f(a) == (-5, 16380, -16374, 8)
    assert f(np.array([65535, 63], np.uint16))[3] == -2**63


def test_mixed_bit_operations_from_the_report():
    @njit
    def mixed(a, b):
        return a[0] ^ b[0], a[0] | b[0], a[0] & b[0]

    a, b = np.array([5], np.uint64), np.array([-3], np.int64)
    assert mixed(a, b) == (5 ^ -3, 5 | -3, 5 & -3)

    @njit
    def scalars():
        return (np.uint16(7) + np.uint16(9)) ^ (np.int8(-128) % 7)

    assert scalars() == 21

    @njit
    def stored(out):
        out[0] = (np.uint16(7) + np.uint16(9)) ^ (np.int8(-128) % 7)

    out = np.zeros(1, np.int64)
    stored(out)
    assert out[0] == 21


def test_a_variable_holding_uint64_and_int64_is_a_float():
    # Numba unifies numbers by NumPy's promotion: {uint64, int64} is float64
    @njit
    def either(a, b, first):
        x = a[0] if first else b[0]
        return x

    assert type(either(np.array([5], np.uint64), np.array([-3], np.int64), True)) is float


@numba_deviation("Numba compares uint64 with a signed int as int64 or float64")
@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
def test_comparisons_of_every_pair_are_exact(op):
    f = compile_op(op, "a[i] {op} b[j]")
    rng = make_rng(23)
    cmp = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
           ">": operator.gt, ">=": operator.ge}[op]
    for ta in DTYPES:
        a = values(ta, rng)
        for tb in DTYPES:
            b = values(tb, rng)
            for i in range(len(a)):
                for j in range(len(b)):
                    assert f(a, b, i, j) is cmp(int(a[i]), int(b[j])), (op, a[i], b[j])


# ---------------------------------------------------------------- random expressions

# Trees of the operators above over elements of arrays of random integer
# dtypes and literals, nested (`(a0[0] + a1[0]) ^ (a2[0] % 7)`), evaluated by
# the same rules: every intermediate value has its type, a literal int64;
# an operation on literals alone is the constant CPython folds it into (a
# uint64 past int64, a TypingError past uint64: `64 << 63`), as Numba reads it.

def gen_expr(rng, nargs, depth):
    if depth == 0 or rng.random() < 0.25:
        if rng.random() < 0.3:
            return ("lit", rng.choice([0, 1, 2, 3, 7, 9, 63, 64, -1, -2, -7]))
        return ("arg", rng.randrange(nargs))
    if rng.random() < 0.12:
        return ("unary", rng.choice("-~"), gen_expr(rng, nargs, depth - 1))
    return ("bin", rng.choice(list(OPS)), gen_expr(rng, nargs, depth - 1), gen_expr(rng, nargs, depth - 1))


def expr_source(e):
    if e[0] == "lit":
        return repr(e[1]) if e[1] >= 0 else f"({e[1]})"
    if e[0] == "arg":
        return f"a{e[1]}[0]"
    if e[0] == "unary":
        return f"({e[1]}{expr_source(e[2])})"
    return f"({expr_source(e[2])} {e[1]} {expr_source(e[3])})"


class NoIntHolds(Exception):
    """A folded constant no 64-bit int holds: the compile's TypingError."""


def folded(e):
    """The int CPython's compiler folds e into where e is made of literals
    alone (what Numba reads from the bytecode): a product or a shift of at
    most 128 bits; None where e has other leaves or the fold fails (1 // 0)."""
    if e[0] == "lit":
        return e[1]
    if e[0] not in ("unary", "bin"):
        return None
    if e[0] == "unary":
        v = folded(e[2])
        return None if v is None else -v if e[1] == "-" else ~v
    op, x, y = e[1], folded(e[2]), folded(e[3])
    if x is None or y is None:
        return None
    if op == "*" and x and y and x.bit_length() + y.bit_length() > 128:
        return None
    if op == "<<" and x and y > 0 and (y > 128 or x.bit_length() > 128 - y):
        return None
    try:
        return OPS[op](x, y)
    except (ValueError, ZeroDivisionError):
        return None


def folded_value(e):
    """(value, dtype) of e where CPython folds it into a constant (int64, else uint64), else None."""
    v = folded(e)
    if v is None:
        return None
    if not -2**63 <= v < 2**64:
        raise NoIntHolds
    return v, np.int64 if v < 2**63 else np.uint64


def compiles(e):
    """Whether every constant CPython folds in e fits a 64-bit int (else compiling e is a TypingError)."""
    try:
        folded_value(e)
    except NoIntHolds:
        return False
    return all(compiles(x) for x in e[2:] if isinstance(x, tuple))


def evaluate(e, args):
    """(value, dtype) of e on args (1-element arrays); raises as CPython."""
    constant = folded_value(e)
    if constant is not None:
        return constant
    if e[0] == "arg":
        return int(args[e[1]][0]), args[e[1]].dtype.type
    if e[0] == "unary":
        return unary_value(e[1], *evaluate(e[2], args))
    op, left, right = e[1:]
    x, tx = evaluate(left, args)
    y, ty = evaluate(right, args)
    rt = result_dtype(op, tx, ty)
    r = reference(op, x, tx, y, ty, rt)
    if isinstance(r, type):
        raise r()
    return r, rt


def int_values(dt, rng):
    info = np.iinfo(dt)
    edge = [v for v in (info.min, info.max, 0, 1, 2, 3, 7, 63, 64, -1, -2) if info.min <= v <= info.max]
    return rng.choice(edge) if rng.random() < 0.5 else rng.randint(info.min, info.max)


def compile_expr(name, params, body):
    text = f"def f({params}):\n{body}"
    filename = f"<{name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    ns = {}
    exec(compile(text, filename, "exec"), ns)
    return njit(ns["f"])


@numba_deviation("negative shift counts")
@pytest.mark.parametrize("seed", [2020, 7, 99])
def test_random_expressions_of_mixed_integer_dtypes(seed):
    rng = random.Random(seed)
    for program in range(150):
        dts = [rng.choice(INTS) for _ in range(rng.randint(1, 4))]
        e = gen_expr(rng, len(dts), rng.randint(1, 4))
        params = ", ".join(f"a{i}" for i in range(len(dts)))
        f = compile_expr(f"mixes-{seed}-{program}", params, f"    return {expr_source(e)}\n")
        for _ in range(20):
            args = [np.array([int_values(dt, rng)], dtype=dt) for dt in dts]
            if not compiles(e):
                with pytest.raises(ruchey.TypingError, match="does not fit"):
                    f(*args)
                continue
            try:
                exp = evaluate(e, args)[0]
            except (ValueError, ZeroDivisionError) as exc:
                with pytest.raises(type(exc)):
                    f(*args)
                continue
            got = f(*args)
            assert type(got) is int and got == exp, (expr_source(e), args, got, exp)


@numba_deviation("negative shift counts")
def test_random_expressions_stored_into_arrays_of_every_dtype():
    rng = random.Random(2021)
    for program in range(150):
        dts = [rng.choice(INTS) for _ in range(rng.randint(1, 3))]
        out_dt = rng.choice(INTS + (np.float64,))
        e = gen_expr(rng, len(dts), rng.randint(1, 3))
        params = "out, " + ", ".join(f"a{i}" for i in range(len(dts)))
        src = expr_source(e)
        f = compile_expr(f"stores-{program}", params, f"    out[0] = {src}\n    out[1] += {src}\n")
        for _ in range(10):
            args = [np.array([int_values(dt, rng)], dtype=dt) for dt in dts]
            out = np.array([5, 5], dtype=out_dt)
            if not compiles(e):
                with pytest.raises(ruchey.TypingError, match="does not fit"):
                    f(out, *args)
                continue
            try:
                v = evaluate(e, args)[0]
            except (ValueError, ZeroDivisionError) as exc:
                with pytest.raises(type(exc)):
                    f(out, *args)
                continue
            f(out, *args)
            if out_dt is np.float64:
                exp = [float(v), 5.0 + float(v)]
            else:  # wrapped at 64 bits, then to the element's width: wrapped once
                bits = np.iinfo(out_dt).bits
                exp = [int(np.array(w % 2**bits, dtype=f"u{bits // 8}").astype(out_dt)) for w in (v, 5 + v)]
            assert out.tolist() == exp, (src, args, out_dt, out.tolist(), exp)


# ---------------------------------------------------------------- generated loop programs

# Hypothesis draws (and shrinks) loop programs over arrays of small integer
# dtypes, Python int literals and a Python int argument: an expression of the
# k-th elements, folded into an int64 accumulator and stored into an output
# array of any integer dtype or float64, in a loop.  The reference applies the
# rules above element by element; a ZeroDivisionError or ValueError at any k
# must be raised by the compiled code too.

LEAVES = st.one_of(st.tuples(st.just("lit"), st.sampled_from([0, 1, 2, 3, 7, 9, 63, 64, 255, -1, -2, -7])),
                   st.tuples(st.just("arg"), st.integers(0, 2)),
                   st.tuples(st.just("scalar")))
TREES = st.recursive(LEAVES, lambda sub: st.one_of(
    st.tuples(st.just("unary"), st.sampled_from("-~"), sub),
    st.tuples(st.just("bin"), st.sampled_from(list(OPS)), sub, sub)), max_leaves=6)
FOLDS = ("+", "-", "^", "|", "&")
PROGRAMS = collections.Counter()  # generated loop programs compiled, and their calls checked


def tree_source(e):
    if e[0] == "scalar":
        return "c"
    if e[0] == "arg":
        return f"a{e[1]}[k]"
    if e[0] in ("unary", "bin"):
        parts = [tree_source(x) if isinstance(x, tuple) else x for x in e[1:]]
        return f"({parts[0]}{parts[1]})" if e[0] == "unary" else f"({parts[1]} {parts[0]} {parts[2]})"
    return expr_source(e)


def tree_value(e, arrays, c, k):
    """(value, dtype) of e at index k, by the rules above."""
    if e[0] == "scalar":
        return c, np.int64
    if e[0] == "arg":
        return int(arrays[e[1]][k]), arrays[e[1]].dtype.type
    constant = folded_value(e)
    if constant is not None:
        return constant
    if e[0] == "unary":
        return unary_value(e[1], *tree_value(e[2], arrays, c, k))
    op, left, right = e[1:]
    x, tx = tree_value(left, arrays, c, k)
    y, ty = tree_value(right, arrays, c, k)
    rt = result_dtype(op, tx, ty)
    r = reference(op, x, tx, y, ty, rt)
    if isinstance(r, type):
        raise r()
    return r, rt


def stored(v, dt):
    if dt is np.float64:
        return float(v)
    bits = np.iinfo(dt).bits
    return int(np.array(v % 2**bits, dtype=f"u{bits // 8}").astype(dt))


def program_reference(e, fold, arrays, c, out_dt):
    """(s, out) the loop program gives, or the exception type it raises."""
    if not compiles(e):
        return ruchey.TypingError
    s, out = 0, []
    for k in range(len(arrays[0])):
        try:
            x, tx = tree_value(e, arrays, c, k)
        except (ValueError, ZeroDivisionError) as exc:
            return type(exc)
        s = reference(fold, s, np.int64, x, tx, result_dtype(fold, np.int64, tx))
        out.append(stored(x, out_dt))
    return s, out


@st.composite
def int_programs(draw):
    e = draw(TREES)
    dts = [draw(st.sampled_from(INTS)) for _ in range(3)]
    out_dt = draw(st.sampled_from(INTS + (np.float64,)))
    return e, draw(st.sampled_from(FOLDS)), dts, out_dt, draw(st.integers(0, 2**32 - 1))


@numba_deviation("negative shift counts")
@settings(max_examples=150 * FUZZ_SCALE, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(case=int_programs())
def test_generated_loop_programs_of_small_integer_dtypes(case):
    e, fold, dts, out_dt, seed = case
    body = (f"    s = 0\n    for k in range(out.shape[0]):\n        x = {tree_source(e)}\n"
            f"        s = s {fold} x\n        out[k] = x\n    return s\n")
    f = compile_expr(f"int-program-{seed}", "out, a0, a1, a2, c", body)
    PROGRAMS["programs"] += 1
    rng = random.Random(seed)
    for _ in range(4):
        n = rng.randint(0, 6)
        arrays = [np.array([int_values(dt, rng) for _ in range(n)], dtype=dt) for dt in dts]
        c = rng.choice([0, 1, -1, 3, 64, 2**31, -(2**63), 2**63 - 1])
        exp = program_reference(e, fold, arrays, c, out_dt)
        PROGRAMS["calls"] += 1
        out = np.full(n, 5, dtype=out_dt)
        if isinstance(exp, type):
            with pytest.raises(exp):
                f(out, *arrays, c)
            continue
        got = f(out, *arrays, c)
        assert type(got) is int and got == exp[0], (body, arrays, c, got, exp)
        assert out.tolist() == exp[1], (body, arrays, c, out.tolist(), exp)


def test_zz_generated_programs_ran():
    if not PROGRAMS["programs"]:
        pytest.skip("runs after the generating test of this file only")
    print(f"\ngenerated integer programs: {PROGRAMS['programs']}, calls checked: {PROGRAMS['calls']}")


def test_a_literal_above_int64_is_a_uint64_as_in_numba():
    @njit
    def mix(x):  # splitmix64's finaliser, as hashing code writes it
        x = x + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        return x ^ (x >> np.uint64(31)) ^ 0xFFFFFFFFFFFFFFFF
    mask = (1 << 64) - 1
    for x in (0, 1, 12345, 2**63 + 7):
        want = (x + 0x9E3779B97F4A7C15) & mask
        want = ((want ^ (want >> 30)) * 0xBF58476D1CE4E5B9) & mask
        want = want ^ (want >> 31) ^ 0xFFFFFFFFFFFFFFFF
        got = mix(np.uint64(x))
        assert int(got) == want and isinstance(got, (int, np.uint64))


def test_int_of_an_integer_keeps_its_type_as_in_numba():
    # Numba types int(x) of an integer as x's own type (other types give
    # int64): the value is Python's, and an array made of it has that dtype
    @njit
    def int_and_full(a, i):
        x = int(a[i])
        return x, np.full(2, x)
    rng = make_rng(41)
    for dt in DTYPES + (np.float32, np.float64):
        if dt is np.bool_:
            a = np.array([True, False])
        elif np.issubdtype(dt, np.integer):
            info = np.iinfo(dt)
            a = np.concatenate([np.array([info.min, info.max, 0], dtype=dt), rng.integers(info.min, info.max, 20, dtype=dt)])
        else:
            a = np.concatenate([[-2.5, 0.0, -0.0, 1e9], rng.normal(0, 1e6, 20)]).astype(dt)
        want_dt = np.dtype(dt) if np.issubdtype(dt, np.integer) else np.dtype(np.int64)
        for i in range(len(a)):
            x, full = int_and_full(a, i)
            want = int_and_full.py_func(a, i)[0]
            assert type(x) is int and x == want, (dt, a[i], x)
            assert full.dtype == want_dt and full.tolist() == [want, want], (dt, a[i], full)
    with pytest.raises(ruchey.TypingError, match="int"):
        int_and_full(np.array([1 + 2j]), 0)
