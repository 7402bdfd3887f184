"""cuda.libdevice in kernels: every function of the table (the rows named
``cuda.libdevice.*`` in ``ruchey._core.builtins()``) run on the CPU backend
over generated inputs and compared with NumPy, SciPy or exact rational
arithmetic (the *_rd/_ru/_rz rows, rounded in their direction); outputs
returned after the result as numba-cuda returns them (sincos, frexp, modf,
remquo); a call with arguments of the wrong kind or count is a
TypingError; a sample of kernels compiled to PTX is accepted by ptxas."""
import functools
import itertools
import linecache
import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.special as sp

import ruchey
from ruchey import cuda
from ruchey.cuda import libdevice

from conftest import AS_NUMBA, make_rng, needs_libdevice, needs_ptxas, ptxas_errors, seed_of

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="ruchey's table of libdevice rows")

DTYPES = {"f": np.float32, "d": np.float64, "h": np.int16, "i": np.int32, "l": np.int64}


def table_rows():
    """name -> the builtins' row of libdevice.name"""
    rows = [r for r in ruchey._core.builtins() if r[2] and r[2].startswith("libdevice.")]
    return {r[2][len("libdevice."):]: r for r in rows}


ROWS = table_rows()
N = 96

# ---------------------------------------------------------------- inputs

def floats(rng, lo, hi, n=N):
    return rng.uniform(lo, hi, n)


DOMAINS = {
    "any": lambda rng: np.concatenate([floats(rng, -10, 10, N - 8), [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.5, 100.25]]),
    "nonzero": lambda rng: np.concatenate([floats(rng, 0.1, 10, N // 2), floats(rng, -10, -0.1, N - N // 2)]),
    "unit": lambda rng: np.concatenate([floats(rng, -1, 1, N - 3), [0.0, 1.0, -1.0]]),
    "open_unit": lambda rng: floats(rng, -0.999, 0.999),
    "prob": lambda rng: floats(rng, 0.001, 0.999),
    "two": lambda rng: floats(rng, 0.001, 1.999),
    "pos": lambda rng: floats(rng, 0.01, 50),
    "ge1": lambda rng: floats(rng, 1, 50),
    "exp": lambda rng: floats(rng, -30, 30),
    "gamma": lambda rng: floats(rng, 0.1, 20),
    "wide": lambda rng: np.concatenate([floats(rng, -1e9, 1e9, N - 6), [0.5, 1.5, 2.5, -0.5, -1.5, 3e9]]),
}


def ints(rng, bits, n=N):
    lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1)
    v = rng.integers(lo, hi, n, dtype=np.int64) if bits < 64 else rng.integers(lo, hi - 1, n, dtype=np.int64)
    v[:4] = [0, -1, lo, hi - 1]
    return v


def inputs(name, letters, rng, domain):
    args = []
    for k, c in enumerate(letters):
        dt = DTYPES[c]
        if c in "fd":
            d = domain[k] if isinstance(domain, tuple) else domain
            args.append(DOMAINS[d](rng).astype(dt))
        elif name in ("ldexp", "ldexpf", "scalbn", "scalbnf"):
            args.append(rng.integers(-60, 60, N).astype(dt))
        elif name in ("powi", "powif"):
            args.append(rng.integers(-8, 9, N).astype(dt))
        elif name in ("jn", "jnf", "yn", "ynf"):
            args.append(rng.integers(0, 5, N).astype(dt))
        elif c == "h":
            args.append((rng.normal(size=N) * 100).astype(np.float16).view(np.int16))
        else:
            args.append(ints(rng, 8 * np.dtype(dt).itemsize).astype(dt))
    return args


# ---------------------------------------------------------------- references

def fmap(f):
    """f applied to Python numbers element by element."""
    def apply(*arrays):
        return np.array([f(*(x.item() for x in xs)) for xs in zip(*arrays)])
    return apply


def u32(x):
    return x & 0xFFFFFFFF


def s32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= 1 << 31 else x


def s64(x):
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >= 1 << 63 else x


def mul24(x, y, signed):
    def low(v):
        v &= 0xFFFFFF
        return v - (1 << 24) if signed and v >= 1 << 23 else v
    return s32(low(x) * low(y))


def byte_perm(x, y, s):
    both = u32(x) | (u32(y) << 32)
    return s32(sum(((both >> (8 * ((s >> (4 * n)) & 7))) & 0xFF) << (8 * n) for n in range(4)))


def ffs(x, bits):
    x &= (1 << bits) - 1
    return (x & -x).bit_length()


def clz(x, bits):
    return bits - (x & ((1 << bits) - 1)).bit_length()


def brev(x, bits):
    v = int(format(x & ((1 << bits) - 1), f"0{bits}b")[::-1], 2)
    return s32(v) if bits == 32 else s64(v)


def to_int(rounding, bits, unsigned):
    lo, hi = (0, 2 ** bits - 1) if unsigned else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)

    def convert(x):
        if math.isnan(x):
            return 0
        r = rounding(x) if math.isfinite(x) else x
        v = lo if r < lo else hi if r > hi else int(r)
        return (s32(v) if bits == 32 else s64(v)) if unsigned else v
    return fmap(convert)


def half_away(x):
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)


EXACT_RATIONAL = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b, "rcp": lambda a: 1 / a, "fma": lambda a, b, c: a * b + c, "conv": lambda a: a,
}


def directed(op, dtype, mode):
    """The exact result of op rounded to dtype downward, upward or toward zero."""
    dtype = np.dtype(dtype).type

    def compute(*xs):
        if op == "sqrt":
            x = xs[0]
            c = dtype(np.sqrt(np.float64(x)) if dtype is np.float32 else np.sqrt(x))
            above = Fraction(float(c)) ** 2 > Fraction(float(x))
            below = Fraction(float(c)) ** 2 < Fraction(float(x))
            sign = 1
        else:
            exact = EXACT_RATIONAL[op](*(Fraction(int(x)) if isinstance(x, (int, np.integer)) else Fraction(float(x))
                                         for x in xs))
            c = dtype(float(exact))
            above, below, sign = Fraction(float(c)) > exact, Fraction(float(c)) < exact, (exact > 0) - (exact < 0)
        if mode == "rd" and above or mode == "rz" and above and sign > 0:
            c = np.nextafter(c, dtype(-np.inf))
        if mode == "ru" and below or mode == "rz" and below and sign < 0:
            c = np.nextafter(c, dtype(np.inf))
        return c
    return fmap(compute)


def np1(f):
    return lambda x: f(x.astype(np.float64))


def np2(f):
    return lambda x, y: f(x.astype(np.float64), y.astype(np.float64))


def sincos_pi(x):
    r = np.remainder(x.astype(np.float64), 2.0)  # exact: pi * x would round x's large multiples
    return np.sin(np.pi * r), np.cos(np.pi * r)


def remquo(x, y):
    q = round(Fraction(x) / Fraction(y))  # to nearest, ties to even, as remainder's quotient
    return math.remainder(x, y), int(math.copysign(abs(q) & 7, x / y))


def bits_of(x):
    return x.view(np.int64) if x.dtype == np.float64 else x.view(np.int32)


# name (float64 row, or the row itself) -> (reference, input domain, tolerance):
# tolerance "exact" (bit for bit, NaN with NaN), or (ulps, absolute)
FLOAT_REFS = {
    "acos": (np1(np.arccos), "unit", (4, 0)), "acosh": (np1(np.arccosh), "ge1", (4, 0)),
    "asin": (np1(np.arcsin), "unit", (4, 0)), "asinh": (np1(np.arcsinh), "any", (4, 0)),
    "atan": (np1(np.arctan), "any", (4, 0)), "atan2": (np2(np.arctan2), "any", (4, 0)),
    "atanh": (np1(np.arctanh), "open_unit", (4, 0)), "cbrt": (np1(np.cbrt), "any", (4, 0)),
    "ceil": (np.ceil, "any", "exact"), "copysign": (np.copysign, "any", "exact"),
    "cos": (np1(np.cos), "any", (4, 0)), "cosh": (np1(np.cosh), "any", (4, 0)),
    "cospi": (lambda x: sincos_pi(x)[1], "any", (4, 1e-15)), "erf": (np1(sp.erf), "any", (4, 0)),
    "erfc": (np1(sp.erfc), "any", (256, 0)), "erfcinv": (np1(sp.erfcinv), "two", (16, 1e-15)),
    "erfcx": (np1(sp.erfcx), ("any"), (64, 0)), "erfinv": (np1(sp.erfinv), "open_unit", (16, 1e-15)),
    "exp": (np1(np.exp), "exp", (4, 0)), "exp10": (np1(lambda x: 10.0 ** x), "exp", (4, 0)),
    "exp2": (np1(np.exp2), "exp", (4, 0)), "expm1": (np1(np.expm1), "exp", (4, 0)),
    "fabs": (np.abs, "any", "exact"), "fdim": (np2(lambda x, y: np.where(x > y, x - y, 0.0)), "any", (1, 0)),
    "floor": (np.floor, "any", "exact"), "fmax": (np.fmax, "any", "exact"), "fmin": (np.fmin, "any", "exact"),
    "fmod": (np.fmod, "any", "exact"), "hypot": (np2(np.hypot), "any", (2, 0)),
    "j0": (np1(sp.j0), "pos", (64, 1e-14)), "j1": (np1(sp.j1), "pos", (64, 1e-14)),
    "y0": (np1(sp.y0), "pos", (64, 1e-14)), "y1": (np1(sp.y1), "pos", (64, 1e-14)),
    "lgamma": (np1(sp.gammaln), "gamma", (16, 1e-15)), "tgamma": (np1(sp.gamma), "gamma", (16, 0)),
    "log": (np1(np.log), "pos", (4, 0)), "log10": (np1(np.log10), "pos", (4, 0)),
    "log1p": (np1(np.log1p), "pos", (4, 0)), "log2": (np1(np.log2), "pos", (4, 0)),
    "logb": (np1(lambda x: np.floor(np.log2(np.abs(x)))), "pos", "exact"),
    "nearbyint": (np.rint, "any", "exact"), "rint": (np.rint, "any", "exact"),
    "round": (fmap(lambda x: float(half_away(x))), "any", "exact"),
    "nextafter": (np.nextafter, "any", "exact"), "normcdf": (np1(sp.ndtr), "any", (16, 1e-16)),
    "normcdfinv": (np1(sp.ndtri), "prob", (16, 1e-15)),
    "pow": (np2(np.power), ("pos", "any"), (4, 0)), "rcbrt": (np1(lambda x: 1 / np.cbrt(x)), "any", (4, 0)),
    "remainder": (fmap(math.remainder), ("any", "nonzero"), "exact"), "rsqrt": (np1(lambda x: 1 / np.sqrt(x)), "pos", (2, 0)),
    "sin": (np1(np.sin), "any", (4, 0)), "sinh": (np1(np.sinh), "any", (4, 0)),
    "sinpi": (lambda x: sincos_pi(x)[0], "any", (4, 1e-15)), "sqrt": (np.sqrt, "pos", "exact"),
    "tan": (np1(np.tan), "any", (4, 0)), "tanh": (np1(np.tanh), "any", (4, 0)),
    "trunc": (np.trunc, "any", "exact"),
    "fma": (lambda a, b, c: np.array([float(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
                                      for x, y, z in zip(a, b, c)]), "any", (1, 0)),
    "sincos": (lambda x: (np.sin(x.astype(np.float64)), np.cos(x.astype(np.float64))), "any", (4, 0)),
    "sincospi": (sincos_pi, "any", (4, 1e-15)),
    "frexp": (lambda x: np.frexp(x), "any", "exact"), "modf": (lambda x: np.modf(x), "any", "exact"),
    "remquo": (lambda x, y: tuple(np.array(v) for v in zip(*map(remquo, x.tolist(), y.tolist()))), ("any", "nonzero"),
               "exact"),
    "frsqrt_rn": (np1(lambda x: 1 / np.sqrt(x)), "pos", (2, 0)), "ldexp": (np.ldexp, "any", "exact"), "scalbn": (np.ldexp, "any", "exact"),
    "ilogb": (np1(lambda x: np.floor(np.log2(np.abs(x))).astype(np.int32)), "pos", "exact"),
    "powi": (lambda x, n: x.astype(np.float64) ** n.astype(np.float64), "any", (16, 0)),
    "jn": (lambda n, x: sp.jv(n, x.astype(np.float64)), "pos", (256, 1e-13)),
    "yn": (lambda n, x: sp.yv(n, x.astype(np.float64)), "pos", (256, 1e-12)),
    "saturatef": (lambda x: np.clip(x, 0, 1), "any", "exact"),
    "fdividef": (np.divide, ("any", "nonzero"), "exact"),
}

ROUNDINGS = {"rn": np.rint, "rd": np.floor, "ru": np.ceil, "rz": np.trunc}
ROUND_PY = {"rn": lambda x: float(np.rint(x)), "rd": math.floor, "ru": math.ceil, "rz": math.trunc}


def row_reference(name):
    """(reference, domain, tolerance) of a row, from its own entry, its
    float64 twin's, or the patterns of the rounding and conversion rows."""
    _, _, path, _, nargs, _, _ = ROWS[name]
    base = name[len("fast_"):] if name.startswith("fast_") else name
    if name in INT_REFS:
        return INT_REFS[name]
    if base in FLOAT_REFS:
        return FLOAT_REFS[base]
    if base.endswith("f") and base[:-1] in FLOAT_REFS:
        return FLOAT_REFS[base[:-1]]
    stem, _, mode = base.rpartition("_")
    if mode in ROUNDINGS:
        return rounding_reference(stem, mode)
    raise KeyError(f"no reference for libdevice.{name}: add one to FLOAT_REFS or INT_REFS")


def rounding_reference(stem, mode):
    ops = {"dadd": ("add", np.float64), "ddiv": ("div", np.float64), "dmul": ("mul", np.float64),
           "fadd": ("add", np.float32), "fsub": ("sub", np.float32), "fmul": ("mul", np.float32),
           "fdiv": ("div", np.float32), "drcp": ("rcp", np.float64), "frcp": ("rcp", np.float32),
           "dsqrt": ("sqrt", np.float64), "fsqrt": ("sqrt", np.float32), "fma": ("fma", np.float64),
           "fmaf": ("fma", np.float32), "double2float": ("conv", np.float32), "int2float": ("conv", np.float32),
           "uint2float": ("uconv", np.float32), "ll2double": ("conv", np.float64), "ll2float": ("conv", np.float32),
           "ull2double": ("uconv", np.float64), "ull2float": ("uconv", np.float32), "int2double": ("conv", np.float64),
           "uint2double": ("uconv", np.float64)}
    if stem in ops:
        op, dt = ops[stem]
        if op == "uconv":  # the argument's bits as an unsigned integer
            conv = directed("conv", dt, mode)
            return (lambda x: conv(x.astype(np.uint64) if x.dtype == np.int64 else x.view(np.uint32)),
                    "any", "exact")
        domain = "pos" if op == "sqrt" else "nonzero" if op == "rcp" else ("any", "nonzero") if op == "div" else "any"
        return (directed(op, dt, mode), domain, "exact")
    source, _, target = stem.partition("2")
    bits = {"int": 32, "uint": 32, "ll": 64, "ull": 64}[target]
    return (to_int(ROUND_PY[mode], bits, target.startswith("u")), "wide", "exact")


INT_REFS = {
    "abs": (fmap(lambda x: s32(abs(x))), None, "exact"), "llabs": (fmap(lambda x: s64(abs(x))), None, "exact"),
    "brev": (fmap(lambda x: brev(x, 32)), None, "exact"), "brevll": (fmap(lambda x: brev(x, 64)), None, "exact"),
    "byte_perm": (fmap(byte_perm), None, "exact"),
    "clz": (fmap(lambda x: clz(x, 32)), None, "exact"), "clzll": (fmap(lambda x: clz(x, 64)), None, "exact"),
    "ffs": (fmap(lambda x: ffs(x, 32)), None, "exact"), "ffsll": (fmap(lambda x: ffs(x, 64)), None, "exact"),
    "popc": (fmap(lambda x: bin(x & 0xFFFFFFFF).count("1")), None, "exact"),
    "popcll": (fmap(lambda x: bin(x & (2 ** 64 - 1)).count("1")), None, "exact"),
    "hadd": (fmap(lambda x, y: (x + y) >> 1), None, "exact"),
    "rhadd": (fmap(lambda x, y: (x + y + 1) >> 1), None, "exact"),
    "uhadd": (fmap(lambda x, y: s32((u32(x) + u32(y)) >> 1)), None, "exact"),
    "urhadd": (fmap(lambda x, y: s32((u32(x) + u32(y) + 1) >> 1)), None, "exact"),
    "max": (np.maximum, None, "exact"), "min": (np.minimum, None, "exact"),
    "llmax": (np.maximum, None, "exact"), "llmin": (np.minimum, None, "exact"),
    "umax": (fmap(lambda x, y: s32(max(u32(x), u32(y)))), None, "exact"),
    "umin": (fmap(lambda x, y: s32(min(u32(x), u32(y)))), None, "exact"),
    "ullmax": (fmap(lambda x, y: s64(max(x % 2 ** 64, y % 2 ** 64))), None, "exact"),
    "ullmin": (fmap(lambda x, y: s64(min(x % 2 ** 64, y % 2 ** 64))), None, "exact"),
    "mul24": (fmap(lambda x, y: mul24(x, y, True)), None, "exact"),
    "umul24": (fmap(lambda x, y: mul24(x, y, False)), None, "exact"),
    "mulhi": (fmap(lambda x, y: s32((x * y) >> 32)), None, "exact"),
    "umulhi": (fmap(lambda x, y: s32((u32(x) * u32(y)) >> 32)), None, "exact"),
    "mul64hi": (fmap(lambda x, y: s64((x * y) >> 64)), None, "exact"),
    "umul64hi": (fmap(lambda x, y: s64(((x % 2 ** 64) * (y % 2 ** 64)) >> 64)), None, "exact"),
    "sad": (fmap(lambda x, y, z: s32(abs(x - y) + u32(z))), None, "exact"),
    "usad": (fmap(lambda x, y, z: s32(abs(u32(x) - u32(y)) + u32(z))), None, "exact"),
    "double2hiint": (lambda x: (x.view(np.int64) >> 32).astype(np.int32), "any", "exact"),
    "double2loint": (lambda x: x.view(np.int64).astype(np.int32), "any", "exact"),
    "hiloint2double": (lambda h, lo: ((h.astype(np.int64) << 32) | (lo.astype(np.int64) & 0xFFFFFFFF)).view(np.float64),
                       None, "exact"),
    "double_as_longlong": (bits_of, "any", "exact"), "float_as_int": (bits_of, "any", "exact"),
    "longlong_as_double": (lambda x: x.view(np.float64), None, "exact"),
    "int_as_float": (lambda x: x.view(np.float32), None, "exact"),
    "float2half_rn": (lambda x: x.astype(np.float16).view(np.int16), "wide", "exact"),
    "half2float": (lambda h: h.view(np.float16).astype(np.float32), None, "exact"),
    "isfinited": (lambda x: np.isfinite(x).astype(np.int32), "any", "exact"),
    "finitef": (lambda x: np.isfinite(x).astype(np.int32), "any", "exact"),
    "isinfd": (lambda x: np.isinf(x).astype(np.int32), "any", "exact"),
    "isinff": (lambda x: np.isinf(x).astype(np.int32), "any", "exact"),
    "isnand": (lambda x: np.isnan(x).astype(np.int32), "any", "exact"),
    "isnanf": (lambda x: np.isnan(x).astype(np.int32), "any", "exact"),
    "signbitd": (lambda x: np.signbit(x).astype(np.int32), "any", "exact"),
    "signbitf": (lambda x: np.signbit(x).astype(np.int32), "any", "exact"),
    "llrint": (to_int(ROUND_PY["rn"], 64, False), "wide", "exact"),
    "llrintf": (to_int(ROUND_PY["rn"], 64, False), "wide", "exact"),
    "llround": (to_int(half_away, 64, False), "wide", "exact"),
    "llroundf": (to_int(half_away, 64, False), "wide", "exact"),
}


# ---------------------------------------------------------------- kernels

_serial = itertools.count()


def define(src, name):
    filename = f"<ruchey-libdevice-{next(_serial)}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    namespace = {}
    exec(compile(src, filename, "exec"), namespace)
    return namespace[name]


def row_kernel(name, nargs, nresults):
    ins = [f"x{k}" for k in range(nargs)]
    outs = [f"o{k}" for k in range(nresults)]
    body = f"        r = libdevice.{name}({', '.join(x + '[i]' for x in ins)})\n"
    if nresults == 1:
        body += "        o0[i] = r\n"
    else:
        body += "".join(f"        o{k}[i] = r[{k}]\n" for k in range(nresults))
    src = ("from ruchey import cuda\nfrom ruchey.cuda import libdevice\n\n@cuda.jit\n"
           f"def k({', '.join(ins + outs)}):\n    i = cuda.grid(1)\n    if i < x0.size:\n" + body)
    return define(src, "k")


@functools.lru_cache(maxsize=None)
def arg_letters(name):
    """The row's argument types as letters, read from the TypingError an
    array argument gets (it names the types the row takes)."""
    names = {"float32": "f", "float64": "d", "int16": "h", "int32": "i", "int64": "l"}
    nargs = ROWS[name][4]
    src = ("from ruchey import cuda\nfrom ruchey.cuda import libdevice\n\n@cuda.jit\n"
           f"def k(a):\n    libdevice.{name}({', '.join(['a'] * nargs)})\n")
    with pytest.raises(ruchey.TypingError, match=rf"cuda\.libdevice\.{name}\(\) takes \(") as info:
        define(src, "k")[1, 1](np.zeros(1))
    types = str(info.value).split("takes (")[1].split(")")[0].split(", ")
    return "".join(names[t] for t in types)


def single(name, letters):
    return "f" in letters and "d" not in letters or name.endswith("f") and "d" not in letters


def compare(name, got, want, tol, eps):
    want = np.asarray(want)
    if tol == "exact" or want.dtype.kind in "iu":
        w = want.astype(got.dtype)
        same = (got == w) | (np.isnan(got) & np.isnan(w)) if got.dtype.kind == "f" else got == w
        assert same.all(), (name, got[~same][:5], w[~same][:5])
        return
    ulps, atol = tol
    w = want.astype(np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(w)), name
    finite = np.isfinite(w)
    err = np.abs(got[finite] - w[finite])
    bound = ulps * eps * np.abs(w[finite]) + atol
    bound += np.finfo(np.float32).tiny if eps > 1e-10 else 0  # float32's subnormals keep fewer digits
    assert (err <= bound).all(), (name, got[finite][err > bound][:5], w[finite][err > bound][:5])
    assert np.array_equal(got[~finite & ~np.isnan(w)], w[~finite & ~np.isnan(w)]), name


@pytest.mark.cpu_backend
@pytest.mark.parametrize("name", sorted(ROWS))
def test_row_on_the_cpu_backend_as_the_reference(name):
    letters = arg_letters(name)
    ref, domain, tol = row_reference(name)
    rng = make_rng(seed_of("libdevice", name))
    args = inputs(name, letters, rng, domain or "any")
    with np.errstate(all="ignore"):
        want = ref(*args)
    want = want if isinstance(want, tuple) else (want,)
    outs = [np.zeros(N, np.float64 if np.asarray(w).dtype.kind == "f" else np.int64) for w in want]
    row_kernel(name, len(args), len(outs))[1, N](*args, *outs)
    precision = np.float32 if single(name, letters) else np.float64
    with np.errstate(all="ignore"):  # a float32 row's reference rounded as its result is
        want = [np.asarray(w).astype(precision) if np.asarray(w).dtype.kind == "f" else w for w in want]
    for got, w in zip(outs, want):
        compare(name, got, w, tol, np.finfo(precision).eps)


# ---------------------------------------------------------------- typing, names

@pytest.mark.parametrize("call, message", [
    ("libdevice.sin(a)", r"cuda\.libdevice\.sin\(\) takes \(float64\), got array"),
    ("libdevice.powi(1.0, (1, 2))", r"cuda\.libdevice\.powi\(\) takes \(float64, int32\), got .*for argument 2"),
    ("libdevice.sinf(1j)", r"cuda\.libdevice\.sinf\(\) does not support complex numbers"),
    ("libdevice.sincos(1.0, 2.0)", r"libdevice\.sincos"),
    ("libdevice.atan2(1.0)", r"libdevice\.atan2"),
    ("libdevice.sine(1.0)", r"has no attribute 'sine'"),
])
def test_wrong_arguments_are_typing_errors(call, message):
    src = f"from ruchey import cuda\nfrom ruchey.cuda import libdevice\n\n@cuda.jit\ndef k(a):\n    {call}\n"
    with pytest.raises(ruchey.TypingError, match=message):
        define(src, "k")[1, 1](np.zeros(2))


def test_names_are_numba_cudas():
    for name in ("sin", "cosf", "powi", "fast_sinf", "rsqrt", "sincos", "float2int_rn", "popc", "brev",
                 "ull2double_rz", "byte_perm", "normcdfinvf"):
        assert name in libdevice.__all__
    assert len(libdevice.__all__) == len(ROWS)
    with pytest.raises(RuntimeError, match="only valid inside a @cuda.jit kernel"):
        libdevice.sin(1.0)


@pytest.mark.cpu_backend
def test_imported_names_and_the_numba_spelling():
    from ruchey import numba_shim
    numba = numba_shim.install_as_numba()
    try:
        from numba.cuda.libdevice import sincos
        from numba.cuda import libdevice as numba_libdevice
        assert numba_libdevice is libdevice and sincos is libdevice.sincos
    finally:
        import sys
        for m in [m for m in sys.modules if m == "numba" or m.startswith("numba.")]:
            del sys.modules[m]
        ruchey._core._numba_semantics(False)  # Numba's readings stay with this test

    @cuda.jit
    def k(x, s, c):
        i = cuda.grid(1)
        if i < x.size:
            s[i], c[i] = sincos(x[i])

    x = np.linspace(-4, 4, 50)
    s, c = np.zeros_like(x), np.zeros_like(x)
    k[1, 64](x, s, c)
    assert np.allclose(s, np.sin(x), rtol=1e-15, atol=0) and np.allclose(c, np.cos(x), rtol=1e-15, atol=1e-16)


@pytest.mark.cpu_backend
def test_directed_rounding_brackets_the_exact_sum():
    @cuda.jit
    def k(x, y, lo, hi, near):
        i = cuda.grid(1)
        if i < x.size:
            lo[i] = libdevice.dadd_rd(x[i], y[i])
            hi[i] = libdevice.dadd_ru(x[i], y[i])
            near[i] = x[i] + y[i]

    rng = make_rng(seed_of("libdevice", "bracket"))
    x, y = rng.normal(size=200), rng.normal(size=200) * 1e-9
    lo, hi, near = np.zeros_like(x), np.zeros_like(x), np.zeros_like(x)
    k[4, 64](x, y, lo, hi, near)
    exact = [Fraction(a) + Fraction(b) for a, b in zip(x.tolist(), y.tolist())]
    assert all(Fraction(a) <= e <= Fraction(b) for a, b, e in zip(lo.tolist(), hi.tolist(), exact))
    assert np.all((hi == lo) | (hi == np.nextafter(lo, np.inf)))
    assert x.tolist() and np.all((near == lo) | (near == hi))
    assert x[0] + y[0] == near[0]  # the mode is restored after each call


# ---------------------------------------------------------------- PTX

PTX_SAMPLE = ["sin", "cosf", "powi", "fast_sinf", "rsqrt", "sincos", "sincospif", "frexp", "modff", "remquo",
              "float2int_rn", "double2ull_rz", "ll2float_ru", "dadd_rd", "fmaf_rz", "popc", "brevll", "byte_perm",
              "float2half_rn", "half2float", "erfcinv", "normcdff", "isnand", "mulhi", "umul64hi", "jn", "saturatef"]


@needs_ptxas
@needs_libdevice
@pytest.mark.parametrize("name", PTX_SAMPLE)
def test_ptxas_accepts_libdevice_calls(name, tmp_path):
    letters = arg_letters(name)
    nresults = 2 if name in ("sincos", "sincospif", "frexp", "modff", "remquo") else 1
    kernel = row_kernel(name, len(letters), nresults)
    names = {"f": "float32", "d": "float64", "h": "int16", "i": "int32", "l": "int64"}
    outs = ["float64[::1]"] * nresults
    sig = f"void({', '.join([names[c] + '[::1]' for c in letters] + outs)})"
    ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0))
    assert ".extern" not in ptx  # libdevice's function linked in, none left to resolve
    assert ptxas_errors(ptx, "sm_90", tmp_path, name) == ""
