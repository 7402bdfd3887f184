"""Differential tests: random expressions and small loop programs, compiled with
``ruchey.njit`` and run against CPython.

Hypothesis generates the *programs* (a typed expression tree, or a function with
locals, ``for``/``while`` loops, ``if``/``else``, ``break``/``continue`` and early
returns) together with a seed; each generated function is compiled once and
then called on many operand tuples drawn from pools of edge values (0, +-1,
int64 extremes, NaN, +-inf, -0.0, subnormals, huge values, ...) and random
values, so that a run checks well over 10,000 cases in a bounded time.

The reference is CPython.  Every generated function comes with a *reference
twin*: the same Python code, run by CPython, in which

* every int-valued operation is reduced to int64 two's complement
  (``W(v) = ((v + 2**63) % 2**64) - 2**63``): ruchey's ints wrap, CPython's
  don't, and wrapping the final result only is wrong as soon as a wrapped value
  feeds ``//``, ``%``, ``>>``, a comparison or a conversion to float;
* a value is converted to the static type of the place it lands in (ruchey
  gives a variable, an ``and``/``or``, a conditional expression, ``min``/``max``
  and a function's return value one type: the unification bool < int < float).

Everything else (``//`` and ``%`` rounding, float semantics, NaN in min/max,
short-circuiting, ``ZeroDivisionError`` ...) is CPython's own behaviour.  When
neither wrapping nor a type conversion changed anything during a call, the
twin's result is also checked against the original function run by CPython
(``f.py_func``), so the reference itself is tested too.

Results compare exactly (type, value, NaN == NaN, sign of zero); a float ``**``
(only ever generated at the root of an expression) may differ by about an ulp.

Known ruchey bugs: a few operations are wrapped in the twin by helpers that
recognise a specific sub-case where ruchey is known to deviate from CPython
(see ``KNOWN_BUGS``); a mismatch in a call where such a sub-case occurred is
counted, not failed.  Each of those bugs has its own small strict-xfail test at
the end of this file, so fixing a bug makes that test XPASS (fail) and reminds
to drop it from ``KNOWN_BUGS``.  Any other mismatch fails the test.
"""
import ast
import collections
import itertools
import linecache
import math
import operator
import random
import struct

import pytest
import ruchey
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import AS_NUMBA, FUZZ_SCALE

pytestmark = pytest.mark.skipif(
    AS_NUMBA, reason="the generated programs rely on ruchey's typing rules (int ** int, "
                     "unification of returns); numba differs in known ways")

# ---------------------------------------------------------------- bookkeeping

MIN_CASES = 10_000

STATS = collections.Counter()          # checked, selfchecked, known:<bug>, functions
RAN = set()                            # names of the generating tests that ran

# Sub-cases where ruchey is known to differ from CPython.  A mismatch is
# tolerated only in a call in which one of these sub-cases actually occurred.
KNOWN_BUGS = {
}


class Trace:
    """What happened during one call of a reference twin."""
    __slots__ = ("adjusted", "bugs")

    def __init__(self):
        self.adjusted = False   # a wrap or a type conversion changed a value
        self.bugs = set()       # KNOWN_BUGS sub-cases that occurred


TRACE = Trace()

B, I, F = "B", "I", "F"                # static types: bool, int64, float64
N = "N"                                # an int64 argument used as a loop count (small)
RANK = {B: 0, I: 1, F: 2}
PYTYPE = {B: bool, I: int, F: float}


def unify(*types):
    return max(types, key=RANK.__getitem__)


# ---------------------------------------------------------------- twin helpers

def W(v):
    """int64 two's-complement reduction of an int result."""
    r = ((v + 2**63) % 2**64) - 2**63
    if r != v or type(v) is not int:
        TRACE.adjusted = True
    return r


def CI(v):
    """Convert (bool or int) to the int type of the place the value lands in."""
    if type(v) is not int:
        TRACE.adjusted = True
        return int(v)
    return v


def CF(v):
    """Convert to float (the unified type of a variable, branch or return)."""
    if type(v) is not float:
        TRACE.adjusted = True
        return float(v)
    return v


_CMP = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
        "==": operator.eq, "!=": operator.ne}


def CMPX(op, x, y):
    """A comparison between an int and a float: CPython compares exactly."""
    return _CMP[op](x, y)


def TDIV(x, y):
    """int / int: CPython divides exactly and rounds once."""
    return x / y


def INTF(x):
    """int(float): raises for NaN/inf (as CPython), and OverflowError beyond
    int64 (ruchey's rule, where CPython makes a larger int)."""
    v = int(x)  # raises ValueError / OverflowError for NaN / inf
    if not -2**63 <= v < 2**63:
        TRACE.adjusted = True  # CPython itself gives the larger int
        raise OverflowError("float too large to convert to int64")
    return v


def FPOW(x, y):
    """A float-valued **, as CPython computes it."""
    r = x ** y  # may raise OverflowError / ZeroDivisionError, as compiled code must
    assert type(r) is float, f"test bug: {x!r} ** {y!r} gives {r!r}"
    return r


TWIN_GLOBALS = {"W": W, "CI": CI, "CF": CF, "CMPX": CMPX, "TDIV": TDIV, "INTF": INTF,
                "FPOW": FPOW}

# ---------------------------------------------------------------- code generation
#
# An expression is generated as (type, source, twin source).  ``need`` says what
# static type the place of the expression accepts: "bool" (B), "int" (B or I) or
# "num" (anything).  The generators make their choices through ``draw``: a
# HypothesisChoices (every choice is a Hypothesis draw, so failures shrink) or,
# for the many expressions of a loop program, a RandomChoices seeded by one
# Hypothesis draw (much cheaper to generate).


class HypothesisChoices:
    def __init__(self, draw):
        self.draw = draw

    def integers(self, lo, hi):
        return self.draw(st.integers(lo, hi))

    def sampled_from(self, items):
        return self.draw(st.sampled_from(items))

    def booleans(self):
        return self.draw(st.booleans())


class RandomChoices:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def integers(self, lo, hi):
        return self.rng.randint(lo, hi)

    def sampled_from(self, items):
        return self.rng.choice(items)

    def booleans(self):
        return self.rng.random() < 0.5

INT_LITS = [0, 1, 2, 3, 5, 7, 10, 63, 64, 1000, -1, -2, -7, 2**31, 2**32 + 1,
            2**53 + 1, 2**62, 2**63 - 1, -(2**63 - 1)]
FLOAT_LITS = [0.0, -0.0, 0.5, 1.0, -1.0, 1.5, 2.0, 3.0, 0.1, -2.5, 1e-300, 1e300,
              5e-324, 1.7976931348623157e308, 1e16, 4503599627370495.5, -7.25]
POW_FLOAT_EXPS = [0.5, 1.5, -0.5, 2.0, 0.25, 3.0, -1.0, 1 / 3, 0.0, -2.5]


def const_truth(src):
    """The truth the compiler reads from a condition of literals alone, as
    its known_condition reads it (a literal, a negated int literal, not,
    and/or of these), pruning the branch it rules out; None for any other."""
    def truth(n):
        if isinstance(n, ast.Constant) and isinstance(n.value, (bool, int, float)):
            return bool(n.value)
        if (isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub) and isinstance(n.operand, ast.Constant)
                and type(n.operand.value) is int):
            return bool(n.operand.value)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            k = truth(n.operand)
            return None if k is None else not k
        if isinstance(n, ast.BoolOp):  # decided by a known operand after known ones only
            conj = isinstance(n.op, ast.And)
            for v in n.values:
                k = truth(v)
                if k is None or k != conj:
                    return k
            return conj
        return None
    return truth(ast.parse(src, mode="eval").body)


def fits(t, need):
    return need == "num" or t == B or (need == "int" and t == I)


def lit_src(v):
    s = repr(v)
    return f"({s})" if s.startswith("-") else s


class Gen:
    """Per-function generation state: the variables in scope and a counter."""

    def __init__(self, variables):
        self.vars = list(variables)     # [(name, type)]
        self.n = 0
        self.static_bugs = set()        # KNOWN_BUGS that can break the whole compile

    def temp(self):
        self.n += 1
        return f"_c{self.n}"


def conv(t_from, t_to, ref):
    """Twin source converting a value of type t_from (None: mixed) to t_to."""
    if t_from == t_to:
        return ref
    return f"CF({ref})" if t_to == F else f"CI({ref})"


def conv_src(t_from, t_to, src):
    """Source converting a value assigned to a local to the local's type, as
    the twin does: a name rebound to a value of another type is typed on its
    own where the values never meet (as in Numba), so the program converts
    explicitly to keep every local of one type."""
    if t_from == t_to:
        return src
    return f"float({src})" if t_to == F else f"int({src})"


def gen_leaf(draw, g, need):
    names = [(n, t) for n, t in g.vars if fits(t, need)]
    if names and draw.integers(0, 9) < 7:
        n, t = draw.sampled_from(names)
        return t, n, n
    choices = [B] if need == "bool" else [B, I, I, I] if need == "int" else [B, I, I, F, F, F]
    t = draw.sampled_from(choices)
    if t == B:
        v = draw.booleans()
    elif t == I:
        v = draw.sampled_from(INT_LITS)
    else:
        v = draw.sampled_from(FLOAT_LITS)
    s = lit_src(v)
    return t, s, s


KINDS = {
    "bool": ["compare", "compare", "not", "bool", "bitop", "boolop", "ifexp", "minmax"],
    "int": ["arith", "arith", "floordiv", "ipow", "bitop", "shift", "neg", "invert", "compare",
            "not", "boolop", "ifexp", "abs", "minmax", "int", "bool"],
    "num": ["arith", "arith", "arith", "truediv", "truediv", "floordiv", "floordiv", "ipow",
            "bitop", "shift", "neg", "invert", "compare", "compare", "not", "boolop", "ifexp",
            "abs", "minmax", "int", "float", "bool"],
}


def gen_compare_pair(op, lt, ls, rt, rs):
    """Twin source of one comparison of two already evaluated operands."""
    if {lt, rt} == {I, F}:
        return f"CMPX({op!r}, {ls}, {rs})"
    return f"({ls} {op} {rs})"


FOLDED_OPS = {"RESUME", "LOAD_CONST", "RETURN_VALUE", "RETURN_CONST", "NOP", "CACHE"}


def cpython_folded(src):
    """The int CPython's compiler folds src into where src is an operation on
    int literals alone (2 ** 63, 1 << 62); None for any other source."""
    import dis
    try:
        code = compile(src, "<folded>", "eval")
    except SyntaxError:
        return None
    if any(i.opname not in FOLDED_OPS for i in dis.get_instructions(code)):
        return None
    value = eval(code)
    return value if type(value) is int else None


def gen_expr(draw, g, depth, need="num", inner=0):
    """gen_node's expression, where it is an operation on int literals alone,
    as ruchey reads it: the constant CPython folds it into, exact (not
    wrapped at each step as the twin's ints are); one beyond int64 (a
    uint64 constant, as in Numba, or a TypingError) written as the int64
    it wraps to."""
    t, s, r = gen_node(draw, g, depth, need, inner)
    v = cpython_folded(s) if t == I and not s.lstrip("(-").isdigit() else None
    if v is None:
        return t, s, r
    if -2**63 <= v < 2**63:
        return t, s, lit_src(v)
    return t, lit_src(W(v)), lit_src(W(v))


def gen_node(draw, g, depth, need="num", inner=0):
    """An expression of at most ``depth`` levels whose top ``inner`` levels are
    not leaves."""
    if depth <= 0 or (inner <= 0 and draw.integers(0, 4) == 0):
        return gen_leaf(draw, g, need)
    kind = draw.sampled_from(KINDS[need])
    sub = lambda nd="num": gen_expr(draw, g, depth - 1, nd, inner - 1)  # noqa: E731
    child_need = "int" if need == "int" else "num"

    if kind == "arith":
        op = draw.sampled_from("+-*")
        (lt, ls, lr), (rt, rs, rr) = sub(child_need), sub(child_need)
        t = F if F in (lt, rt) else I
        ref = f"({lr} {op} {rr})"
        return t, f"({ls} {op} {rs})", (f"W{ref}" if t == I else ref)
    if kind == "truediv":
        (lt, ls, lr), (rt, rs, rr) = sub(), sub()
        ref = f"({lr} / {rr})" if F in (lt, rt) else f"TDIV({lr}, {rr})"
        return F, f"({ls} / {rs})", ref
    if kind == "floordiv":
        op = draw.sampled_from(["//", "%"])
        (lt, ls, lr), (rt, rs, rr) = sub(child_need), sub(child_need)
        t = F if F in (lt, rt) else I
        ref = f"({lr} {op} {rr})"
        return t, f"({ls} {op} {rs})", (f"W{ref}" if t == I else ref)
    if kind == "ipow":  # int ** (small non-negative int): exact, wraps
        bt, bs, br = sub("int")
        if draw.booleans():
            k = draw.integers(0, 7)
            es = er = str(k)
        else:
            et, es0, er0 = sub("int")
            k = draw.integers(1, 8)
            if draw.booleans():
                es, er = f"({es0} % {k})", f"({er0} % {k})"
            else:
                es, er = f"({es0} & 7)", f"({er0} & 7)"
        return I, f"({bs} ** {es})", f"W({br} ** {er})"
    if kind == "bitop":
        op = draw.sampled_from("&|^")
        nd = "bool" if need == "bool" else "int"
        (lt, ls, lr), (rt, rs, rr) = sub(nd), sub(nd)
        t = B if lt == rt == B else I
        ref = f"({lr} {op} {rr})"
        return t, f"({ls} {op} {rs})", (f"W{ref}" if t == I else ref)
    if kind == "shift":
        op = draw.sampled_from(["<<", ">>"])
        lt, ls, lr = sub("int")
        form = draw.integers(0, 4)
        if form <= 1:
            k = draw.integers(0, 63)
            cs = cr = str(k)
        else:  # counts 64..127 (from % 128) shift everything out, as in CPython
            mask = "& 63" if form <= 3 else "% 128"
            ct, cs0, cr0 = sub("int")
            cs, cr = f"({cs0} {mask})", f"({cr0} {mask})"
        return I, f"({ls} {op} {cs})", f"W({lr} {op} {cr})"
    if kind == "neg":
        op = draw.sampled_from("-+")
        t0, s0, r0 = sub(child_need)
        t = I if t0 == B else t0
        ref = f"({op}{r0})"
        return t, f"({op}{s0})", (f"W{ref}" if t == I else ref)
    if kind == "invert":
        t0, s0, r0 = sub("int")
        if t0 == B:  # ~bool is deprecated in CPython; invert ints only
            s0, r0 = f"int({s0})", f"int({r0})"
        return I, f"(~{s0})", f"W(~{r0})"
    if kind == "not":
        t0, s0, r0 = sub()
        return B, f"(not {s0})", f"(not {r0})"
    if kind == "compare":
        count = draw.integers(2, 3)
        ops = [draw.sampled_from(list(_CMP)) for _ in range(count - 1)]
        operands = [sub() for _ in range(count)]
        src = "(" + " ".join(
            x for (t, s, r), op in itertools.zip_longest(operands, ops)
            for x in ((s, op) if op else (s,))) + ")"
        # the twin: chain with the middle operands evaluated once, lazily
        parts = []
        prev_t, prev_r = operands[0][0], operands[0][2]
        for i, op in enumerate(ops):
            t, _, r = operands[i + 1]
            if i < len(ops) - 1:
                tmp = g.temp()
                parts.append(gen_compare_pair(op, prev_t, prev_r, t, f"({tmp} := {r})"))
                prev_r = tmp
            else:
                parts.append(gen_compare_pair(op, prev_t, prev_r, t, r))
            prev_t = t
        return B, src, "(" + " and ".join(parts) + ")"
    if kind == "boolop":
        op = draw.sampled_from(["and", "or"])
        items = [sub(need) for _ in range(draw.integers(2, 3))]
        # an operand known to decide (False for and, True for or) ends the typing: those after it are never typed
        decisive = next((i for i, x in enumerate(items) if const_truth(x[1]) == (op == "or")), len(items) - 1)
        typed = items[:decisive + 1]
        t = unify(*(x[0] for x in typed))
        src = "(" + f" {op} ".join(x[1] for x in items) + ")"
        ref = "(" + f" {op} ".join(x[2] for x in items) + ")"
        return t, src, (ref if all(x[0] == t for x in typed) else conv(None, t, ref))
    if kind == "ifexp":
        (ct, cs, cr) = sub()
        (at, as_, ar), (bt, bs, br) = sub(need), sub(need)
        known = const_truth(cs)  # a constant condition: only the branch taken is typed
        t = unify(at, bt) if known is None else at if known else bt
        ref = f"({ar} if {cr} else {br})"
        return t, f"({as_} if {cs} else {bs})", (ref if at == bt or known is not None else conv(None, t, ref))
    if kind == "abs":
        t0, s0, r0 = sub(child_need)
        if t0 == F:
            return F, f"abs({s0})", f"abs({r0})"
        return I, f"abs({s0})", f"W(abs({r0}))"
    if kind == "minmax":
        fn = draw.sampled_from(["min", "max"])
        items = [sub(need) for _ in range(draw.integers(2, 3))]
        t = unify(*(x[0] for x in items))
        src = f"{fn}(" + ", ".join(x[1] for x in items) + ")"
        ref = f"{fn}(" + ", ".join(x[2] for x in items) + ")"
        return t, src, (ref if all(x[0] == t for x in items) else conv(None, t, ref))
    if kind == "int":
        t0, s0, r0 = sub()
        return I, f"int({s0})", (f"INTF({r0})" if t0 == F else f"int({r0})")
    if kind == "float":
        t0, s0, r0 = sub()
        return F, f"float({s0})", f"float({r0})"
    if kind == "bool":
        t0, s0, r0 = sub()
        return B, f"bool({s0})", f"bool({r0})"
    raise AssertionError(kind)


def gen_root_pow(draw, g, depth):
    """A float-valued ``**`` at the root of an expression (libm pow: ~1 ulp)."""
    form = draw.integers(0, 2)
    bt, bs, br = gen_expr(draw, g, depth, inner=1)
    if form == 0:  # x ** small int literal (int base: negative literal gives a float)
        k = draw.integers(-3, 6)
        if bt != F and k >= 0:
            bs, br = f"float({bs})", f"float({br})"
        return F, f"({bs} ** {lit_src(k)})", f"FPOW({br}, {k})"
    if bt != F:
        bs, br = f"float({bs})", f"float({br})"
    if form == 1:  # abs(x) ** float literal
        e = draw.sampled_from(POW_FLOAT_EXPS)
        return F, f"(abs({bs}) ** {lit_src(e)})", f"FPOW(abs({br}), {e!r})"
    et, es, er = gen_expr(draw, g, depth)  # abs(x) ** y
    return F, f"(abs({bs}) ** {es})", f"FPOW(abs({br}), {er})"


ARG_TYPES = [I, I, I, F, F, F, B]


@st.composite
def expressions(draw):
    """(argument types, function source, twin source, return type, tolerant,
    static known bugs)."""
    draw = HypothesisChoices(draw)
    argtypes = [draw.sampled_from(ARG_TYPES) for _ in range(draw.integers(1, 3))]
    names = "abc"[:len(argtypes)]
    g = Gen(zip(names, argtypes))
    if draw.integers(0, 5) == 0:
        t, s, r = gen_root_pow(draw, g, 3)
        tolerant = True
    else:
        t, s, r = gen_expr(draw, g, 5, inner=2)
        tolerant = False
    params = ", ".join(names)
    src = f"def f({params}):\n    return {s}\n"
    ref = f"def ref({params}):\n    return {r}\n"
    return tuple(argtypes), src, ref, t, tolerant, frozenset(g.static_bugs)


# ---------------------------------------------------------------- programs
#
# def f(a, b, n):
#     s = <literal of s's type>; t = ...; g = 0      (every local has one type,
#     <statements: for / while / if / assignments>    fixed by its first literal)
#     return <expr>
# Every loop whose trip count is not small by construction starts with the
# guard ``g += 1; if g > GUARD: break`` (g counts across all loops).

GUARD = 40


class Prog:
    """Generation state of one program: its source and twin lines."""

    def __init__(self, draw):
        self.draw = draw
        self.src, self.ref = [], []
        self.locals = {}            # name -> type of assignable locals
        self.g = Gen([])
        self.loop_vars = 0
        self.whiles = 0
        self.returns = []           # (twin line index, type, twin expr) of the returns
        self.dead = 0               # inside a branch a constant condition rules out (never typed)

    def emit(self, indent, src, ref=None):
        self.src.append("    " * indent + src)
        self.ref.append("    " * indent + (src if ref is None else ref))

    def expr(self, scope, need="num", depth=3):
        self.g.vars = scope
        return gen_expr(RandomChoices(self.draw.integers(0, 2**32 - 1)), self.g, depth, need)

    NEED = {B: "bool", I: "int", F: "num"}

    def assign(self, indent, scope, name):
        t = self.locals[name]
        draw = self.draw
        form = draw.integers(0, 5)
        if form == 0:  # tuple assignment to both locals
            (s0, r0), (s1, r1) = [
                (lambda e, tt: (conv_src(e[0], tt, e[1]), conv(e[0], tt, e[2])))(self.expr(scope, self.NEED[tt]), tt)
                for tt in self.locals.values()]
            names = ", ".join(self.locals)
            self.emit(indent, f"{names} = {s0}, {s1}", f"{names} = {r0}, {r1}")
        elif t != B and form <= 2:  # augmented assignment
            ops = ["+", "-", "*", "//", "%"] + (["&", "|", "^", "<<", ">>", "**"] if t == I
                                                else ["/"])
            op = draw.sampled_from(ops)
            if op in ("<<", ">>", "**"):
                et, es, er = self.expr(scope, "int")
                mask = "% 4" if op == "**" else "& 63"
                es, er = f"({es} {mask})", f"({er} {mask})"
                self.emit(indent, f"{name} {op}= {es}", f"{name} = W({name} {op} {er})")
                return
            et, es, er = self.expr(scope, "int" if t == I else "num")
            rt = (F if F in (t, et) else B if op in "&|^" and t == et == B else I)
            ref = f"({name} {op} {er})"
            ref = f"W{ref}" if rt == I else ref
            self.emit(indent, f"{name} {op}= {es}", f"{name} = {conv(rt, t, ref)}")
        else:
            et, es, er = self.expr(scope, self.NEED[t])
            self.emit(indent, f"{name} = {conv_src(et, t, es)}", f"{name} = {conv(et, t, er)}")

    def emit_return(self, indent, t, s, r):
        if self.dead:  # not typed: its return type counts for nothing (its twin is never run either)
            self.emit(indent, f"return {s}", f"return {r}")
            return
        self.returns.append((len(self.ref), t, r))
        self.emit(indent, f"return {s}", "return <fixed up at the end>")

    def live_branch(self, live, indent, scope, depth, loops, in_loop):
        """A branch; one a constant condition rules out is generated dead."""
        self.dead += not live
        try:
            return self.branch(indent, scope, depth, loops, in_loop)
        finally:
            self.dead -= not live

    def guard(self, indent):
        self.emit(indent, "g += 1", "g = W(g + 1)")
        self.emit(indent, f"if g > {GUARD}:")
        self.emit(indent + 1, "break")

    def block(self, indent, scope, depth, loops, in_loop):
        """1-3 statements; ``depth``: compound statements that may still nest,
        ``loops``: loops that may still nest.  Returns whether the block ends
        in a jump on every path (an if/else whose branches all return, break or
        continue): nothing follows it, since code that cannot run is not typed
        (its returns would not count in the return type)."""
        draw = self.draw
        count = draw.integers(1, 3)
        for _ in range(count):
            kinds = ["assign", "assign"]
            if depth > 0:
                kinds += ["if"]
                if loops > 0:
                    kinds += ["for", "for", "while"]
            kind = draw.sampled_from(kinds)
            if kind == "assign":
                self.assign(indent, scope, draw.sampled_from(sorted(self.locals)))
            elif kind == "if":
                if self.if_(indent, scope, depth, loops, in_loop):
                    return True
            elif kind == "for":
                self.for_(indent, scope, depth, loops)
            else:
                self.while_(indent, scope, depth, loops)
        return False

    def if_(self, indent, scope, depth, loops, in_loop):
        """An if statement; whether it ends in a jump on every path the
        compiler keeps (a constant condition prunes the branch it rules out,
        as Numba does: not typed, and what follows a kept branch that jumps
        is not typed either)."""
        draw = self.draw
        _, cs, cr = self.expr(scope, depth=2)
        known = const_truth(cs)
        self.emit(indent, f"if {cs}:", f"if {cr}:")
        body = self.live_branch(known is not False, indent + 1, scope, depth, loops, in_loop)
        if not draw.booleans():
            return known is True and body
        self.dead += known is True
        try:
            rest = self.else_part(indent, scope, depth, loops, in_loop)
        finally:
            self.dead -= known is True
        return body and rest if known is None else body if known else rest

    def else_part(self, indent, scope, depth, loops, in_loop):
        """An if's elif and else, or its else; whether they end in a jump."""
        if self.draw.booleans():
            _, cs, cr = self.expr(scope, depth=2)
            known = const_truth(cs)
            self.emit(indent, f"elif {cs}:", f"elif {cr}:")
            taken = self.live_branch(known is not False, indent + 1, scope, depth, loops, in_loop)
            self.emit(indent, "else:")
            other = self.live_branch(known is not True, indent + 1, scope, depth, loops, in_loop)
            return taken and other if known is None else taken if known else other
        self.emit(indent, "else:")
        return self.branch(indent + 1, scope, depth, loops, in_loop)

    def branch(self, indent, scope, depth, loops, in_loop):
        """A block, then maybe a jump; whether it ends in one on every path."""
        draw = self.draw
        if self.block(indent, scope, depth - 1, loops, in_loop):
            return True
        ends = ["", "", ""] + (["break", "continue"] if in_loop else []) + ["return"]
        end = draw.sampled_from(ends)
        if end == "return":
            t, s, r = self.expr(scope, depth=2)
            self.emit_return(indent, t, s, r)
        elif end:
            self.emit(indent, end)
        return bool(end)

    def for_(self, indent, scope, depth, loops):
        draw = self.draw
        self.loop_vars += 1
        var = "ijkl"[self.loop_vars - 1] if self.loop_vars <= 4 else f"i{self.loop_vars}"
        form = draw.integers(0, 3)
        guarded = True
        if form == 0:
            rs = rr = "range(n)"
            guarded = False
        elif form == 1:
            rs = rr = f"range({draw.integers(0, 12)})"
            guarded = False
        elif form == 2:
            lo = self.expr(scope, "int", depth=2)
            hi = self.expr(scope, "int", depth=2)
            rs, rr = f"range({lo[1]}, {hi[1]})", f"range({lo[2]}, {hi[2]})"
        else:
            lo = self.expr(scope, "int", depth=1)
            hi = self.expr(scope, "int", depth=1)
            if draw.booleans():
                step = draw.sampled_from([1, 2, 3, -1, -2, -5, 2**62, -(2**62), 2**63 - 1,
                                             -(2**63 - 1)])
                st_s = st_r = lit_src(step)
            else:
                _, st_s, st_r = self.expr(scope, "int", depth=1)
            rs, rr = f"range({lo[1]}, {hi[1]}, {st_s})", f"range({lo[2]}, {hi[2]}, {st_r})"
        self.emit(indent, f"for {var} in {rs}:", f"for {var} in {rr}:")
        inner = scope + [(var, I)]
        if guarded:
            self.guard(indent + 1)
        self.block(indent + 1, inner, depth - 1, loops - 1, True)

    def while_(self, indent, scope, depth, loops):
        draw = self.draw
        self.whiles += 1
        k = f"w{self.whiles}"
        self.emit(indent, f"{k} = 0")
        inner = scope + [(k, I)]
        if draw.booleans():
            limit = draw.integers(0, 12)
            cond = self.expr(inner, depth=2)
            self.emit(indent, f"while {k} < {limit} and {cond[1]}:",
                      f"while {k} < {limit} and {cond[2]}:")
            self.emit(indent + 1, f"{k} += 1", f"{k} = W({k} + 1)")
            self.block(indent + 1, inner, depth - 1, loops - 1, True)
        else:
            cond = self.expr(inner, depth=2)
            self.emit(indent, f"while {cond[1]}:", f"while {cond[2]}:")
            self.emit(indent + 1, f"{k} += 1", f"{k} = W({k} + 1)")
            self.guard(indent + 1)
            dead = const_truth(cond[1]) is False  # a body that never runs is not typed
            self.dead += dead
            self.block(indent + 1, inner, depth - 1, loops - 1, True)
            self.dead -= dead


@st.composite
def programs(draw):
    """Like :func:`expressions`: (argument types, function source, twin source,
    return type, tolerant, static known bugs)."""
    draw = HypothesisChoices(draw)
    argtypes = (draw.sampled_from(ARG_TYPES), draw.sampled_from(ARG_TYPES), N)
    p = Prog(draw)
    p.locals = {"s": draw.sampled_from([I, I, F]), "t": draw.sampled_from([I, F, B])}
    for name, t in p.locals.items():
        lit = draw.sampled_from({B: ["False", "True"], I: ["0", "1", "-3", "7"],
                                    F: ["0.0", "1.0", "-0.0", "0.5"]}[t])
        p.emit(1, f"{name} = {lit}")
    p.emit(1, "g = 0")
    scope = [("a", argtypes[0]), ("b", argtypes[1]), ("n", I), ("s", p.locals["s"]),
             ("t", p.locals["t"]), ("g", I)]
    if not p.block(1, scope, 3, 2, False):
        t, s, r = p.expr(scope, depth=3)
        p.emit_return(1, t, s, r)
    # the return type is the unification of all returned expressions
    rtype = unify(*(t for _, t, _ in p.returns))
    for index, t, r in p.returns:
        indent = p.ref[index][:len(p.ref[index]) - len(p.ref[index].lstrip())]
        p.ref[index] = f"{indent}return {conv(t, rtype, r)}"
    src = "def f(a, b, n):\n" + "\n".join(p.src) + "\n"
    ref = "def ref(a, b, n):\n" + "\n".join(p.ref) + "\n"
    return argtypes, src, ref, rtype, False, frozenset(p.g.static_bugs)


# ---------------------------------------------------------------- operands

INT_EDGE = [0, 1, -1, 2, -2, 3, -3, 7, -7, 10, 63, 64, 2**31, -(2**31), 2**32 + 1,
            2**53, 2**53 + 1, -(2**53 + 1), 2**62, -(2**62), 2**63 - 1, -(2**63),
            -(2**63) + 1, 2**63 - 2, 3**39, -(5**27)]
FLOAT_EDGE = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.0, -2.0, 3.0, -7.0, 0.1, 1 / 3,
              math.nan, math.inf, -math.inf, 5e-324, -5e-324, 2.2250738585072014e-308,
              1e-300, -1e-300, 1e300, -1e300, 1.7976931348623157e308,
              -1.7976931348623157e308, 2.0**53, 2.0**53 + 2, 2.0**63, -(2.0**63), 2.0**64,
              1e16, 4503599627370495.5, 0.9999999999999999, 1.0000000000000002]


def draw_int(rng):
    r = rng.random()
    if r < 0.3:
        return rng.choice(INT_EDGE)
    if r < 0.6:
        return rng.randint(-20, 20)
    if r < 0.75:
        return rng.randint(-(2**31), 2**31)
    if r < 0.9:
        return rng.randint(-(2**63), 2**63 - 1)
    return max(-(2**63), min(2**63 - 1, rng.choice((1, -1)) * 2**rng.randint(0, 63)
                             + rng.randint(-2, 2)))


def draw_float(rng):
    r = rng.random()
    if r < 0.3:
        return rng.choice(FLOAT_EDGE)
    if r < 0.6:
        return rng.gauss(0, 1) * 10.0 ** rng.randint(-20, 20)
    if r < 0.75:
        return rng.randint(-40, 40) / 4
    if r < 0.85:
        return float(rng.randint(-(2**63), 2**63))
    return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]


def retype(v, t):
    if t == F:
        return float(v)
    if t == B:
        return bool(v)
    if isinstance(v, float):
        return int(v) if math.isfinite(v) and abs(v) < 2**63 else 0
    return int(v)


def operand_tuples(argtypes, seed, count):
    """``count`` argument tuples of the given types (N: a small loop count)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        vals = []
        for t in argtypes:
            if vals and t != N and rng.random() < 0.15:  # reuse a value: x == y, x - y == 0
                v = retype(rng.choice(vals), t)
            elif t == N:
                v = rng.randint(-2, 25)
            elif t == I:
                v = draw_int(rng)
            elif t == F:
                v = draw_float(rng)
            else:
                v = rng.random() < 0.5
            vals.append(v)
        out.append(tuple(vals))
    return out


# ---------------------------------------------------------------- running one function

_serial = itertools.count()


def define(src, name="f"):
    """exec ``src`` under a unique fake file name registered in linecache, so that
    ``inspect.getsource`` (which ruchey's frontend uses) finds the text."""
    filename = f"<ruchey-hypothesis-{next(_serial)}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    namespace = {}
    exec(compile(src, filename, "exec"), namespace)
    return namespace[name]


def make_twin(ref_src):
    namespace = dict(TWIN_GLOBALS)
    exec(compile(ref_src, f"<twin-{next(_serial)}>", "exec"), namespace)
    return namespace["ref"]


EXPECTED_ERRORS = (ZeroDivisionError, OverflowError, ValueError)


def outcome(fn, args, expected_only=False):
    try:
        return ("value", fn(*args))
    except EXPECTED_ERRORS as e:
        return ("raise", type(e))
    except Exception as e:  # noqa: BLE001 - a compiled function raising anything else
        if expected_only:
            raise
        return ("raise", type(e), str(e).splitlines()[0] if str(e) else "")


def same(exp, got, rtype, tolerant):
    if exp[0] != got[0]:
        return False
    if exp[0] == "raise":
        return exp[1] is got[1]
    e, v = exp[1], got[1]
    if rtype == B:
        return type(v) is bool and v == e
    if rtype == I:
        return (type(v) is int or type(v).__name__ == "int64") and v == e
    if type(v) is not float:
        return False
    if math.isnan(e):
        return math.isnan(v)
    if v != e and not (tolerant and math.isclose(v, e, rel_tol=1e-15)):
        return False
    return e != 0 or math.copysign(1, v) == math.copysign(1, e)


def show(o):
    return repr(o[1]) if o[0] == "value" else f"raises {o[1].__name__}" + (
        f" ({o[2]})" if len(o) > 2 and o[2] else "")


def compile_failure(got):
    """Did the call fail to compile (ruchey retries the compile at every call)?"""
    return got[0] == "raise" and (got[1] is RuntimeError and "internal error" in got[2]
                                  or got[1].__name__ == "TypingError")


def check_function(argtypes, src, ref_src, rtype, tolerant, static_bugs, seed, count):
    """Compile ``src`` with ruchey, call it on ``count`` operand tuples and
    compare each outcome with the reference twin (and with ``py_func``).

    ``static_bugs``: KNOWN_BUGS sub-cases present in the source, which excuse an
    internal compiler error (invalid LLVM IR) of the whole function."""
    f = ruchey.njit(define(src))
    twin = make_twin(ref_src)
    STATS["functions"] += 1
    failures = []
    for calls, args in enumerate(operand_tuples(argtypes, seed, count), 1):
        TRACE.adjusted, TRACE.bugs = False, set()
        exp = outcome(twin, args, expected_only=True)
        adjusted, bugs = TRACE.adjusted, TRACE.bugs
        if exp[0] == "value":
            assert type(exp[1]) is PYTYPE[rtype], f"test bug: twin type {exp!r}, {rtype}\n{ref_src}"
        if not adjusted and not bugs:
            py = outcome(f.py_func, args, expected_only=True)
            assert same(exp, py, rtype, False), (
                f"test bug: the twin disagrees with CPython on {args!r}: "
                f"{show(exp)} != {show(py)}\n{src}\n{ref_src}")
            STATS["selfchecked"] += 1
        got = outcome(f, args)
        if compile_failure(got):
            if not static_bugs or got[1] is not RuntimeError:
                failures.append(f"  f{args!r}: expected {show(exp)}, got {show(got)}")
                break
            bugs = bugs | static_bugs
        if same(exp, got, rtype, tolerant):
            STATS["checked"] += 1
        elif bugs:
            for bug in bugs:
                STATS["known:" + bug] += 1
        else:
            failures.append(f"  f{args!r}: expected {show(exp)}, got {show(got)}")
        if compile_failure(got):  # excused by a static known bug: no point in retrying
            for bug in static_bugs:
                STATS["known:" + bug] += count - calls
            break
    assert not failures, (f"ruchey differs from CPython in {len(failures)} of {count} calls of\n"
                          f"{src}\nreference twin:\n{ref_src}\n" + "\n".join(failures[:8]))


HYPOTHESIS = dict(deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))

EXPRESSION_FUNCTIONS, EXPRESSION_CALLS = 300 * FUZZ_SCALE, 64
PROGRAM_FUNCTIONS, PROGRAM_CALLS = 200 * FUZZ_SCALE, 40


@settings(max_examples=EXPRESSION_FUNCTIONS, **HYPOTHESIS)
@given(case=expressions(), seed=st.integers(0, 2**32 - 1))
def test_random_expressions_match_cpython(case, seed):
    RAN.add("expressions")
    check_function(*case, seed=seed, count=EXPRESSION_CALLS)


@settings(max_examples=PROGRAM_FUNCTIONS, **HYPOTHESIS)
@given(case=programs(), seed=st.integers(0, 2**32 - 1))
def test_random_loop_programs_match_cpython(case, seed):
    RAN.add("programs")
    check_function(*case, seed=seed, count=PROGRAM_CALLS)


def test_zz_enough_cases_were_checked():
    if RAN != {"expressions", "programs"}:
        pytest.skip("runs after the generating tests of this file only")
    tolerated = sum(v for k, v in STATS.items() if k.startswith("known:"))
    summary = ", ".join(f"{k}={v}" for k, v in sorted(STATS.items()))
    print(f"\nhypothesis differential tests: {summary}")
    assert STATS["checked"] >= MIN_CASES, summary
    assert STATS["selfchecked"] >= MIN_CASES // 4, summary
    # the known bugs excuse only a small part of the calls
    assert tolerated < STATS["checked"] // 10, summary


def test_generated_source_is_visible_to_inspect():
    import inspect
    src = "def f(a, b):\n    return (a + b) * 2\n"
    fn = define(src)
    assert inspect.getsource(fn) == src
    f = ruchey.njit(fn)
    assert f(3, 4) == 14 and f.py_func is fn


# ---------------------------------------------------------------- known ruchey bugs
#
# Minimal reproducers of the deviations from CPython that the generated tests
# found (the KNOWN_BUGS sub-cases above) or that came up while writing them.
# Strict xfails: when one is fixed, its test XPASSes and fails; then delete the
# mark and, where there is one, the KNOWN_BUGS entry.

def expect_python(src, args, expected):
    """Compile ``src`` (a function ``f``); check that CPython's outcome, an int
    reduced to int64, is ``expected`` (a value or an exception class), then
    that ruchey's is the same."""
    f = ruchey.njit(define(src))
    py = outcome(f.py_func, args)
    if py[0] == "value" and type(py[1]) is int:
        py = ("value", ((py[1] + 2**63) % 2**64) - 2**63)
    want = ("raise", expected) if isinstance(expected, type) else ("value", expected)
    rtype = {bool: B, int: I, float: F}[type(py[1])] if py[0] == "value" else None
    assert same(want, py, rtype, False), f"test bug: CPython gives {show(py)}"
    got = outcome(f, args)
    assert same(want, got, rtype, False), f"ruchey: expected {show(want)}, got {show(got)}"


def xfail_bug(reason):
    return pytest.mark.xfail(strict=True, reason="ruchey bug: " + reason)


@pytest.mark.parametrize("op, expected", [("==", False), ("!=", True), ("<=", False),
                                          (">", True)])
def test_int_float_comparison_is_exact(op, expected):
    # 2**53 + 1 is not a float: the comparison is exact, as in CPython
    expect_python(f"def f(a, b):\n    return a {op} b\n", (2**53 + 1, 2.0**53), expected)


def test_int_true_division_rounds_once():
    # exact 3002399751580331.0 (2**53 + 1 = 3 * 1000799917193443.6...); ruchey: ...330.5
    expect_python("def f(a, b):\n    return a / b\n", (2**53 + 1, 3), (2**53 + 1) / 3)


def test_zero_over_a_wide_int_is_zero_when_folded_too():
    # found by `make fuzz`: 0 / n with |n| > 2**53 divides in 128 bits; a zero
    # numerator shifted by 128 bits was poison, which folding made NaN
    for n in (2**53 + 1, -(2**53 + 1), 2**63 - 1):
        expect_python(f"def f(a):\n    return (0 / {n}) + a\n", (1.5,), 1.5)
        expect_python("def f(a, b):\n    return a / b\n", (0, n), 0 / n)
    expect_python("def f(a):\n    return (False / (9007199254740993 | False)) + a\n", (-0.0,), 0.0)


@pytest.mark.parametrize("args, expected", [((3, True), 3.0), ((True, 2), 0.5)])
def test_int_bool_true_division_is_a_float(args, expected):
    expect_python("def f(a, b):\n    return a / b\n", args, expected)


def test_int_bool_true_division_compiles_in_a_condition():
    expect_python("def f(a, b):\n    return 1.0 if a / b else 0.0\n", (3, True), 1.0)


@pytest.mark.parametrize("x, expected", [
    (math.nan, ValueError),
    (math.inf, OverflowError),
    (-math.inf, OverflowError),
], ids=["nan", "inf", "-inf"])
def test_int_of_nonfinite_float(x, expected):
    expect_python("def f(x):\n    return int(x)\n", (x,), expected)


def test_int_of_a_float_beyond_int64_raises_overflow_error():
    """CPython makes a larger int; compiled code, whose ints are int64, raises."""
    f = ruchey.njit(define("def f(x):\n    return int(x)\n"))
    assert f.py_func(1e19) == 10**19
    with pytest.raises(OverflowError, match="float too large to convert to int64"):
        f(1e19)


@pytest.mark.parametrize("src, args, expected", [
    ("def f(x, y):\n    return x ** y\n", (0.0, -1.0), ZeroDivisionError),
    ("def f(x, y):\n    return x ** y\n", (-0.0, -3), ZeroDivisionError),
    ("def f(x):\n    return x ** -2\n", (0,), ZeroDivisionError),
    ("def f(x, y):\n    return x ** y\n", (1e300, 2.0), OverflowError),
    ("def f(x):\n    return x ** 2\n", (1e300,), OverflowError),
], ids=["zero-neg", "negzero-int", "int-literal", "overflow", "overflow-int-literal"])
def test_float_power_errors(src, args, expected):
    expect_python(src, args, expected)


def test_int64_min_literal():
    expect_python("def f(a):\n    return -9223372036854775808 + a\n", (0,), -(2**63))


def test_unbound_local_raises():
    src = "def f(n):\n    for i in range(n):\n        pass\n    return i\n"
    expect_python(src, (3,), 2)
    expect_python(src, (0,), UnboundLocalError)
