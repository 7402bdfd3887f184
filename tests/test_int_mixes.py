"""Arithmetic and bit operations on every pair of integer dtypes (and bool,
and Python int literals), compared with CPython's arithmetic on the values
converted to the result type Numba's integer typing gives:

- two integers operate in 64 bits, unsigned only when both are unsigned
  (uint64 with int64 is int64, where NumPy 2 gives float64);
- a shift has its left operand's signedness; its count keeps its own sign
  (a negative count raises ValueError, a count past 63 shifts everything out);
- bool & | ^ bool is a bool;
- a Python int literal yields to the other operand's type (NEP 50, where Numba
  makes every literal an int64), except a negative literal with an unsigned
  operand, which is signed as in Numba and CPython (NumPy 2 refuses it).

Run with RUCHEY_TEST_AS_NUMBA=1 to check the reference against Numba itself:
it agrees on every pair's type and value, and differs where ruchey follows
CPython (a negative shift count raises; int64 min // -1 wraps to itself
rather than 0; unary operators on small unsigned ints are 64-bit) and on
the yielding literals."""
import operator

import numpy as np
import pytest

from ruchey import njit

from conftest import AS_NUMBA, make_rng, numba_deviation

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
    if AS_NUMBA and lit not in (-2, True):
        pytest.skip("Numba makes a literal int64; ruchey's yields (NEP 50)")
    rng = make_rng(21)
    right = compile_op(op, "a[i] {op} " + repr(lit))
    left = compile_op(op, repr(lit) + " {op} a[i]")
    litarr = np.array([lit])
    for t in DTYPES:
        a = values(t, rng)
        yields = lit is not True and lit >= 0 and t is not np.bool_
        lt = np.bool_ if lit is True else t if yields else np.int64
        check(right, op, a, litarr, result_dtype(op, t, lt))
        # a yielding literal on the left of a shift takes the count's type
        rt = result_dtype(op, t if yields else lt, t)
        check(left, op, a, litarr, rt, swap=True)


@pytest.mark.parametrize("op", ["~", "-", "+"])
def test_unary_operators_on_every_dtype(op):
    f = njit(eval(f"lambda a, i: {op}a[i]"))
    rng = make_rng(22)
    for t in INTS:
        a = values(t, rng)
        rt = np.uint64 if unsigned(t) else np.int64
        for i in range(len(a)):
            exp = wrap({"~": operator.invert, "-": operator.neg, "+": operator.pos}[op](int(a[i])), rt)
            got = f(a, i)
            assert type(got) is int and got == exp, (op, t, a[i], got, exp)


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
