"""str values in @njit code (Numba's unicode_type): arguments, constants,
defaults and results; operators, indexing, slicing, iteration; the methods
of Numba's unicode subset; str(), ord(), chr(), int() and float() of a str;
f-strings; print() of strings. Every behaviour is compared with the
function's own Python original on generated strings (ASCII and not, empty
ones too), and bad input raises what Python raises."""
import math

import numpy
import pytest
import ruchey
from ruchey import njit

from conftest import AS_NUMBA, assert_same, make_rng, numba_deviation, random_ints, rss_bytes, seed_of

RNG = make_rng(2024)
ASCII = "abcXYZ019 ,.-_\t"
WIDE = ASCII + "éßЖж中😀"


def random_string(alphabet, lo=0, hi=12):
    n = int(RNG.integers(lo, hi + 1))
    return "".join(alphabet[int(k)] for k in RNG.integers(0, len(alphabet), size=n))


def strings(alphabet=WIDE, count=25):
    return ["", " ", "a", "abc", "  padded  ", "a,b,,c", "ABC def", "x" * 20] + \
        [random_string(alphabet) for _ in range(count)]


WIDE_STRINGS = strings()
ASCII_STRINGS = strings(ASCII)
PAIRS = [(a, b) for a, b in zip(WIDE_STRINGS, WIDE_STRINGS[1:] + WIDE_STRINGS[:1])] + [("abc", "abc"), ("ab", "abc")]


def raises_same(f, *args):
    """Calls f and f.py_func, which must raise the same class with the same message."""
    with pytest.raises(Exception) as py:
        f.py_func(*args)
    with pytest.raises(type(py.value)) as got:
        f(*args)
    assert str(got.value) == str(py.value)


# ---------------------------------------------------------------- values and operators

@njit
def concat(a, b):
    return a + b, b + a + "!", a * 3, 2 * b, a * -1


@njit
def compare(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b, "" < a <= a + b


@njit
def measure(s):
    return len(s), len(s + s), "ab" in s, s in "xabcx", "" in s


@pytest.mark.parametrize("a,b", PAIRS)
def test_operators_as_python(a, b):
    assert_same(concat, a, b)
    assert_same(compare, a, b)
    assert_same(measure, a)


@njit
def every_index(s):
    out = ""
    for i in range(-len(s), len(s)):
        out += s[i]
    return out


@njit
def sliced(s, a, b, c):
    return s[a:b:c], s[a:], s[:b], s[::c], s[a:b]


@pytest.mark.parametrize("s", WIDE_STRINGS)
def test_indexing_and_slicing_as_python(s):
    assert_same(every_index, s)
    for _ in range(8):
        a, b = (int(v) for v in RNG.integers(-15, 15, size=2))
        c = int(RNG.choice([-3, -2, -1, 1, 2, 3]))
        assert_same(sliced, s, a, b, c)


@njit
def char_at(s, i):
    return s[i]


@njit
def step_slice(s, k):
    return s[::k]


def test_index_out_of_range_and_zero_step_raise_as_python():
    for s, i in [("", 0), ("abc", 3), ("abc", -4), ("é", 1)]:
        raises_same(char_at, s, i)
    raises_same(step_slice, "abc", 0)


@njit
def walk(s):
    codes = 0
    seen = ""
    for ch in s:
        codes = codes * 31 % 1000003 + ord(ch)
        if ch != " ":
            seen = ch + seen
    return codes, seen


@njit
def chars(n):
    s = ""
    for i in range(n):
        s += chr(0x41 + i % 26) + chr(0x430 + i % 32)
    return s


@pytest.mark.parametrize("s", WIDE_STRINGS)
def test_iteration_ord_and_chr_as_python(s):
    assert_same(walk, s)


def test_chr_builds_strings():
    assert_same(chars, 0)
    assert_same(chars, 40)


@njit
def one_ord(s):
    return ord(s)


@njit
def one_chr(i):
    return chr(i)


def test_ord_and_chr_errors_as_python():
    raises_same(one_ord, "ab")
    raises_same(one_ord, "")
    raises_same(one_chr, -1)
    raises_same(one_chr, 0x110000)
    assert one_chr(0x1F600) == "😀"


@njit
def truth(s):
    n = 0
    if s:
        n += 1
    if not s:
        n += 10
    while s:
        s = s[1:]
        n += 100
    return n


@pytest.mark.parametrize("s", ["", "a", "abc", "é"])
def test_truth_of_a_string(s):
    assert_same(truth, s)


# ---------------------------------------------------------------- arguments, defaults, constants, results

@njit
def ranked(x, method="average"):
    if method == "average":
        return x * 0.5
    elif method == "max":
        return x * 2.0
    return -1.0


def test_string_default_selects_a_branch():
    for m in ["average", "max", "min"]:
        assert_same(ranked, 3.0, m)
    assert ranked(4.0) == 2.0


GREETING = "hello"


@njit
def greet(name):
    return GREETING + ", " + name + "!"


@njit
def twice(s):
    return greet(s) + greet(s)


def test_global_constants_and_calls_between_compiled_functions():
    for s in WIDE_STRINGS[:10]:
        assert_same(greet, s)
        assert_same(twice, s)


@njit
def nul_and_wide():
    return "a\x00b", "中文", "😀", len("a\x00b😀")


def test_constants_keep_every_character():
    assert_same(nul_and_wide)


@njit
def pick(flag):
    s = "yes" if flag else "no"
    t = s
    s = "maybe"
    return s, t


def test_reassigned_variables():
    assert_same(pick, True)
    assert_same(pick, False)


# ---------------------------------------------------------------- methods

@njit
def cases(s):
    return s.upper(), s.lower(), s.swapcase(), s.capitalize(), s.title()


@njit
def classes(s):
    return (s.isdigit(), s.isalpha(), s.isspace(), s.isalnum(), s.isupper(), s.islower(), s.isdecimal(),
            s.isnumeric(), s.isascii(), s.istitle())


@pytest.mark.parametrize("s", ASCII_STRINGS + ["123", "Hello World", "HELLO", "hello", " \t\n", "a1", "Ab Cd"])
def test_case_and_class_methods_as_python(s):
    assert_same(cases, s)
    assert_same(classes, s)


@njit
def more_cases(s):
    return s.casefold(), s.upper().lower(), s.title().swapcase()


# every alphabet's cased letters, special casings (ß, ligatures, İ, ǅ), final
# sigma among case-ignorable characters, other scripts' digits and numerals
SPECIAL = ["Straße", "ﬁx ﬂy", "İstanbul", "ǅa ǈb ǋc", "ΌΣΟΣ Σ.Σ ΑΣ\u0301 b", "Σ", "aΣ", "AΣ'",
           "١٢٣", "½²³", "Ⅻ", "ǰ", "\u00a0\u2003", "ΐ", "ŉ", "Ꭰꭰ", "𐐀𐐨"]


def unicode_strings(count):
    rng = make_rng(77)
    pool = [chr(c) for c in range(0x3000) if not 0xD800 <= c < 0xE000] + [chr(c) for c in range(0x10400, 0x10500)]
    return ["".join(pool[int(k)] for k in rng.integers(0, len(pool), size=int(rng.integers(0, 7))))
            for _ in range(count)]


def test_case_and_class_methods_of_any_character_as_python():
    for s in SPECIAL + unicode_strings(1500):
        assert cases(s) == cases.py_func(s), s
        assert more_cases(s) == more_cases.py_func(s), s
        assert classes(s) == classes.py_func(s), s


@njit
def identifier(s):
    return s.isidentifier(), s.isprintable()


@njit
def identifier_classes(points):
    first = numpy.empty(len(points), numpy.bool_)
    later = numpy.empty(len(points), numpy.bool_)
    printable = numpy.empty(len(points), numpy.bool_)
    for i in range(len(points)):
        first[i] = chr(points[i]).isidentifier()
        later[i] = ("a" + chr(points[i])).isidentifier()
        printable[i] = chr(points[i]).isprintable()
    return first, later, printable


def test_isidentifier_and_isprintable_of_every_code_point_as_python():
    points = numpy.array([c for c in range(0x110000) if not 0xD800 <= c < 0xE000], dtype=numpy.int64)
    got, want = identifier_classes(points), identifier_classes.py_func(points)
    assert all(numpy.array_equal(g, w) for g, w in zip(got, want))
    for s in ["", "_", "_1", "1_", "if", "a b", "x\u00b7", "\u00b7x", "\u2118", "\u212e", "a\u0301", "\u0301",
              "\U0001d518\U0001d52b", "a\U000e0100", "\U000e0100",
              "a\n", "\t", "\x7f", "\u00a0", " "]:
        assert identifier(s) == identifier.py_func(s), s


@njit
def searches(s, sub, a, b):
    return (s.find(sub), s.rfind(sub), s.count(sub), s.startswith(sub), s.endswith(sub),
            s.find(sub, a), s.find(sub, a, b), s.rfind(sub, a, b), s.count(sub, a, b),
            s.startswith(sub, a), s.endswith(sub, a, b))


@pytest.mark.parametrize("s", WIDE_STRINGS)
def test_search_methods_as_python(s):
    for sub in ["", "a", "ab", s[1:3], s, s + "x", "é"]:
        a, b = (int(v) for v in RNG.integers(-6, 14, size=2))
        assert_same(searches, s, sub, a, b)


@njit
def tuple_searches(s, p, q, a, b):
    return (s.startswith((p, q)), s.endswith((p, q)), s.startswith((p, q), a), s.endswith((p, q), a, b),
            s.startswith((p,), a, b), s.endswith((q, p, "")), s.endswith(("z", "é")))


@pytest.mark.parametrize("s", WIDE_STRINGS)
def test_startswith_and_endswith_of_a_tuple_as_python(s):
    for p, q in [("", "x"), ("a", "b"), (s[:2], "q"), ("q", s[-2:]), (s, s + "x"), ("é", "😀")]:
        a, b = (int(v) for v in RNG.integers(-6, 14, size=2))
        assert_same(tuple_searches, s, p, q, a, b)


@njit
def starts_with_none_of(s):
    return s.startswith(()), s.endswith(())


@numba_deviation("Numba types no empty tuple of prefixes")
def test_startswith_of_an_empty_tuple_is_false():
    for s in ("", "abc"):
        assert_same(starts_with_none_of, s)


@njit
def starts_with(s, prefix):
    return s.startswith(prefix)


@njit
def starts_between(s, a):
    return s.startswith(("a", "b"), a)


@numba_deviation("numba's messages differ")
def test_startswith_of_a_non_str_is_a_typing_error():
    for bad in (3, (1, 2), ("x", 2), 1.5):
        with pytest.raises(ruchey.TypingError, match="first arg must be str or a tuple of str"):
            starts_with("abc", bad)
        with pytest.raises(TypeError):
            starts_with.py_func("abc", bad)
    with pytest.raises(ruchey.TypingError, match="slice indices must be integers"):
        starts_between("abc", 1.5)


@njit
def expanded(s, n):
    return s.expandtabs(), s.expandtabs(n), s.expandtabs(tabsize=n)


@pytest.mark.parametrize("s", WIDE_STRINGS + ["\t", "a\tb\tc", "ab\n\tc\r\t\td", "\t\t\t"])
def test_expandtabs_as_python(s):
    for n in (8, 1, 0, -3, 4, int(RNG.integers(2, 20))):
        assert_same(expanded, s, n)


@njit
def expanded_by(s, n):
    return s.expandtabs(n)


@numba_deviation("Numba takes any int64 tabsize and tries to make the string")
def test_expandtabs_bad_sizes_raise_as_python():
    raises_same(expanded_by, "a\tb", 2**40)
    with pytest.raises(ruchey.TypingError, match="must be int"):
        expanded_by("a\tb", 1.5)


@njit
def counted_by(s, n):
    return s.splitlines(n), s.split(" ", n), s.rsplit(None, n), s.replace("a", "b", n)


def test_counts_and_keepends_take_ints_not_none():
    for s in ("", "a b\nc a", "a\r\na  b\n"):
        for n in (0, 1, -1, 2, True):
            assert_same(counted_by, s, n)
    for bad in (None, "None", 1.5):
        with pytest.raises(TypeError):
            counted_by.py_func("a b", bad)
        with pytest.raises(ruchey.TypingError, match="must be int"):
            counted_by("a b", bad)


@njit
def index_of(s, sub):
    return s.index(sub), s.rindex(sub)


def test_index_raises_value_error_as_python():
    assert_same(index_of, "abcabc", "bc")
    raises_same(index_of, "abc", "x")


@njit
def strips(s, chars):
    return s.strip(), s.lstrip(), s.rstrip(), s.strip(chars), s.lstrip(chars), s.rstrip(chars)


@njit
def pads(s, w, fill):
    return s.center(w), s.ljust(w), s.rjust(w), s.center(w, fill), s.ljust(w, fill), s.rjust(w, fill), s.zfill(w)


@pytest.mark.parametrize("s", WIDE_STRINGS + ["-12", "+7", "  \t x \n"])
def test_strip_and_pad_as_python(s):
    assert_same(strips, s, "ax ")
    for w in [0, 1, len(s), len(s) + 1, len(s) + 4]:
        assert_same(pads, s, w, "*")
        assert_same(pads, s, w, "é")


@njit
def bad_fill(s):
    return s.center(10, "ab")


def test_pad_with_a_long_fill_raises_as_python():
    raises_same(bad_fill, "x")


@njit
def replaced(s, old, new, n):
    return s.replace(old, new), s.replace(old, new, n)


@pytest.mark.parametrize("s", WIDE_STRINGS)
def test_replace_as_python(s):
    for old, new in [("a", "XY"), ("", "-"), ("ab", ""), (s[:2], "é"), ("zz", "q")]:
        for n in [-1, 0, 1, 2]:
            assert_same(replaced, s, old, new, n)


@njit
def splits(s, sep, k):
    a = s.split()
    b = s.split(sep)
    c = s.split(sep, k)
    d = s.split(None, k)
    e = s.split(maxsplit=k)
    return "|".join(a), "|".join(b), "|".join(c), "|".join(d), "|".join(e), len(a) + len(b)


@pytest.mark.parametrize("s", WIDE_STRINGS)
def test_split_and_join_as_python(s):
    for sep in [",", " ", "ab", "é"]:
        for k in [-1, 0, 1, 2]:
            assert_same(splits, s, sep, k)


@njit
def rsplits(s, sep, k):
    a = s.rsplit()
    b = s.rsplit(sep)
    c = s.rsplit(sep, k)
    d = s.rsplit(None, k)
    e = s.rsplit(maxsplit=k)
    return "|".join(a), "|".join(b), "|".join(c), "|".join(d), "|".join(e), len(c) + len(d)


@pytest.mark.parametrize("s", WIDE_STRINGS)
def test_rsplit_as_python(s):
    for sep in [",", " ", "ab", "é", "aa"]:
        for k in [-1, 0, 1, 2]:
            assert_same(rsplits, s, sep, k)


@njit
def partitions_and_lines(s, sep):
    lines = s.splitlines()
    kept = s.splitlines(True)
    return s.partition(sep), s.rpartition(sep), "|".join(lines), "|".join(kept), len(s.splitlines(keepends=True))


LINES = ["", "a", "a\nb", "a\r\nb\r\n", "\n\n", "x\ry\x0bz\x0cw\x1cv\x85u\u2028t\u2029", "\r", "end\r\r\n"]


@pytest.mark.parametrize("s", WIDE_STRINGS + LINES)
def test_partition_rpartition_and_splitlines_as_python(s):
    for sep in [",", " ", "a", "\n", s[1:3] or "q"]:
        assert_same(partitions_and_lines, s, sep)
    mixed = s + "\n" + s[::-1] + "\r\n" + s
    assert_same(partitions_and_lines, mixed, "\r")


@njit
def partition_empty(s):
    return s.rpartition("")


def test_partition_with_empty_separator_raises_as_python():
    raises_same(partition_empty, "abc")
    raises_same(empty_sep, "abc")


@njit
def empty_sep(s):
    return s.split("")


def test_split_with_empty_separator_raises_as_python():
    raises_same(empty_sep, "abc")


@njit
def joined(a, b, c):
    return "-".join([a, b, c]), "".join((a, b)), ", ".join([a])


def test_join_of_lists_and_tuples_as_python():
    for a, b in PAIRS:
        assert_same(joined, a, b, a + b)


@njit
def joined_characters(sep, s):
    return sep.join(s), s.join(sep + sep)


def test_join_of_a_str_joins_its_characters_as_python():
    for a, b in PAIRS:
        assert_same(joined_characters, a, b)
        assert_same(joined_characters, b, a)


@njit
def split_result(s):
    return s.split(",")


def test_a_list_of_str_returns_to_python():
    got = split_result("a,é,,c")
    assert list(got) == ["a", "é", "", "c"]
    assert list(got) == ["a", "é", "", "c"]  # reading items again: the list still holds them


# ---------------------------------------------------------------- conversions

@njit
def to_text(i, x, b):
    return str(i), str(x), str(b), str(), str("s")


NUMBERS = [0, -1, 7, 2**63 - 1, -2**63] + [int(v) for v in RNG.integers(-10**12, 10**12, size=10)]
FLOATS = [0.0, -0.0, 1.0, 0.1, -1.5, 1e16, 1e-5, 123456.789, 1e300, math.inf, -math.inf, math.nan, 5e-324] + \
    [float(v) for v in RNG.standard_normal(10) * 10.0 ** RNG.integers(-20, 20, size=10)]


@pytest.mark.parametrize("i,x", list(zip(NUMBERS, FLOATS)))
def test_str_of_numbers_as_python(i, x):
    assert_same(to_text, i, x, i % 2 == 0)


def test_str_and_sum_take_their_first_arguments_by_name_as_python():
    @njit
    def named(i, x, a):
        return str(object=i), str(object=x), sum(a, start=i), sum(a, start=x), sum(range(i % 7), start=2)

    for i, x in list(zip(NUMBERS, FLOATS))[5:]:
        if not math.isfinite(x):
            continue  # (nan != nan)
        a = RNG.integers(-100, 100, 5)
        assert named(i, x, a) == named.py_func(i, x, a)


@njit
def parse(s):
    return int(s), float(s)


@njit
def parse_float(s):
    return float(s)


@pytest.mark.parametrize("s", ["0", "-12", " +7 ", "1_000", "\t42\n", "007"])
def test_int_and_float_of_str_as_python(s):
    assert_same(parse, s)


@pytest.mark.parametrize("s", ["1.5", "-2.5e-3", " 1e10 ", "inf", "-Infinity", "nan", "1_0.5", ".5", "5."])
def test_float_of_str_as_python(s):
    assert_same(parse_float, s)


@pytest.mark.parametrize("s", ["", "x", "1.5", "1__0", "_1", "0x10", "1 2", "é"])
def test_bad_numbers_raise_value_error_as_python(s):
    raises_same(parse, s)


@pytest.mark.parametrize("s", ["", "x", "1e", "0x1p3", "1__0", "--1"])
def test_bad_floats_raise_value_error_as_python(s):
    raises_same(parse_float, s)


# ---------------------------------------------------------------- str() and repr() of tuples and lists

@njit
def texts_of_compounds(i, x, s, b):
    t = (i, x, s, b, None)
    lst = [i, i // 3]
    floats = [x, x / 3]
    strs = [s, s + "'"]
    flags = [b, not b]
    empty = [i for i in range(0)]
    return (str(t), repr(t), str((i,)), str(()), str(((i, s), (x,))), str(lst), repr(floats), str(strs),
            repr(strs), str(flags), str(empty), str(None), str(complex(x, i)), f"{t} / {lst} / {strs}",
            format(floats), str((lst, s)), f"{None}|{complex(x, i)}|{complex(i, -x)!s}", format(None))


@numba_deviation("numba writes '<object type:...>' for tuples and lists")
@pytest.mark.parametrize("i,x,s", list(zip(NUMBERS[:8], FLOATS[:8], WIDE_STRINGS[:8] + ["it's", 'say "hi"'])))
def test_str_and_repr_of_tuples_and_lists_as_python(i, x, s):
    assert_same(texts_of_compounds, i, x, s, i % 2 == 0)


@njit
def texts_of_optionals(x, s, flag):
    a = None if flag else x
    b = s if flag else None
    return str(a), repr(a), f"{a}|{b}", str(b), repr(b)


@numba_deviation("numba writes '<object type:...>' for optional values")
@pytest.mark.parametrize("x,s", list(zip(FLOATS[:6], WIDE_STRINGS[:5] + ["it's"])))
def test_str_and_repr_of_optional_values_as_python(x, s):
    for flag in (True, False):
        assert_same(texts_of_optionals, x, s, flag)


@numba_deviation("numba writes '<object type:...>' for lists")
def test_str_of_list_arguments_as_python():
    @njit
    def text(a):
        return str(a), repr(a), f"{a}"

    rng = make_rng(7)
    for n in (1, 5):
        for items in (rng.integers(-2**63, 2**63, n).tolist(), (rng.standard_normal(n) * 1e10).tolist(),
                      [math.nan, -0.0, math.inf][:n], (rng.random(n) < 0.5).tolist(), WIDE_STRINGS[:n]):
            assert text(items) == text.py_func(items)


@numba_deviation("numba writes '<object type:...>' for any value")
def test_str_of_nested_lists_and_dicts_as_python():
    @njit
    def nested_lists(a):
        return str([[a], [a]])

    @njit
    def dict_text(k):
        return repr({k: 1})
    for k in random_ints(make_rng(8), 4, -1000, 1000):
        assert nested_lists(k) == nested_lists.py_func(k)
        assert dict_text(k) == dict_text.py_func(k)


def test_str_of_unsupported_values_is_a_typing_error():
    @njit
    def range_text(n):
        return str(range(n))
    with pytest.raises(ruchey.TypingError, match="str"):
        range_text(3)


# ---------------------------------------------------------------- f-strings

@njit
def fmt(n, x, s):
    return (f"{n}", f"{x}", f"{s}", f"{n:5d}|{n:<5d}|{n:^7}|{n:+d}|{n:05d}|{n:,}|{n:x}|{n:b}",
            f"{x:.3f}|{x:10.2f}|{x:e}|{x:.2e}|{x:g}|{x:.1%}|{x:+.1f}|{x:,.2f}",
            f"[{s:>8}][{s:<8}][{s:^8}][{s:*^9}][{s:.2}]", f"{n}{x}{s}", f"no fields", f"{n!s}")


@pytest.mark.parametrize("n,x,s", list(zip(NUMBERS[:5] + [1234567, -42], FLOATS[:7], WIDE_STRINGS[:7])))
def test_f_strings_as_python(n, x, s):
    assert_same(fmt, n, x, s)


@njit
def in_bases(n):
    return (hex(n), oct(n), bin(n), f"{n:#x}|{n:#010X}|{n:+#o}|{n:>#12b}|{n:#_x}|{n:_b}|{n:_o}|{n:#d}|{n:#}",
            format(n, "#b"))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.int32, numpy.int64, numpy.uint8, numpy.uint64, bool])
def test_hex_oct_bin_and_alternate_forms_as_python(dtype):
    rng = make_rng(seed_of("bases", dtype.__name__))
    if dtype is bool:
        values = [False, True]
    else:
        info = numpy.iinfo(dtype)
        values = [info.min, info.max, 0, 1] + list(rng.integers(info.min, info.max, 12, dtype=dtype, endpoint=True))
    for v in values:
        assert in_bases(dtype(v)) == in_bases.py_func(int(v)), v


def test_hex_of_a_float_and_bad_alternate_forms_are_refused():
    with pytest.raises(TypeError):
        hex(1.5)
    with pytest.raises(ruchey.TypingError, match="cannot be interpreted as an integer"):
        njit(lambda x: hex(x))(1.5)
    for spec_of in (lambda x: f"{x:,x}", lambda x: f"{x:,b}"):
        with pytest.raises(ValueError):
            spec_of(255)
        with pytest.raises(ruchey.TypingError, match="format spec"):
            njit(spec_of)(255)
    for spec_of in (lambda x: f"{x:#x}", lambda x: f"{x:#}"):
        with pytest.raises(ValueError):
            spec_of("a")
        with pytest.raises(ruchey.TypingError, match="format spec"):
            njit(spec_of)("a")


@njit
def formatted(n, x, s):
    return ("{}-{}".format(n, s), "{0:.2f}|{1!r}|{0}|{1!s:>6}|{2:+05d}".format(x, s, n), "{a}={b:^9}".format(a=s, b=x),
            "{{}} {} {{x}}".format(n), "{:.3e}".format(x * 2), "no fields".format(), f"{x!s:>12}|{s!r:<9}",
            "{0}{0}".format(n))


@pytest.mark.parametrize("n,x,s", list(zip(NUMBERS[:5] + [1234567, -42], FLOATS[:7], WIDE_STRINGS[:7])))
def test_str_format_of_a_constant_template_as_python(n, x, s):
    assert_same(formatted, n, x, s)


@njit
def percent_formatted(n, x, s):
    return ("%d-%s" % (n, s), "%5d|%-5d|%05d|%+d|% d|%x|%#X|%o|%#o|%i|%u" % (n, n, n, n, n, n, n, n, n, n, n),
            "%s|%r|%10s|%-10s|%.2s|%5.1s" % (s, s, s, s, s, s), "%d%%" % x, "%s" % x, "no conversions" % (),
            "%.2f|%10.3e|%g|%-8.1f|%+.0f|%08.2f|%E|%G" % (x, x, x, x, x, x, x, x), "%5s|%-6r" % (x, n > 0))


@pytest.mark.parametrize("n,x,s", list(zip(NUMBERS[:5] + [1234567, -42], FLOATS[:7], WIDE_STRINGS[:7])))
def test_percent_format_of_a_constant_template_as_python(n, x, s):
    assert_same(percent_formatted, n, x, s)


def test_percent_formats_it_cannot_read_are_refused():
    def values_in_a_variable(t, n):
        return "%s %s" % t

    def too_few(t, n):
        return "%s %s" % (n,)

    def too_many(t, n):
        return "%s" % (n, n)

    def mapping(t, n):
        return "%(x)s" % t

    def star_width(t, n):
        return "%*d" % (n, n)

    for f in (values_in_a_variable, too_few, too_many, mapping, star_width):
        with pytest.raises(ruchey.TypingError, match="%-format"):
            njit(f)((1, 2), 3)


def test_str_format_fields_it_cannot_read_are_refused():
    def computed_spec(x, w):
        return "{:{w}}".format(x, w=w)

    def attribute(x, w):
        return "{0.real}".format(x)

    def missing(x, w):
        return "{}{}".format(x)

    def evaluated_twice(x, w):
        return "{0}{0}".format(x * w)

    for f in (computed_spec, attribute, missing, evaluated_twice):
        with pytest.raises(ruchey.TypingError, match="str.format"):
            njit(f)(1.5, 3)


def test_unsupported_format_specs_are_refused_by_name():
    def bad_spec(x):
        return f"{x:q}"

    def computed_spec(x, w):
        return f"{x:{w}}"

    def ascii_conversion(x):
        return f"{x!a}"
    with pytest.raises(ruchey.TypingError, match="format spec 'q'"):
        njit(bad_spec)(1.5)
    with pytest.raises(ruchey.TypingError, match="computed at run time"):
        njit(computed_spec)(1.5, 3)
    with pytest.raises(ruchey.TypingError, match="!a"):
        njit(ascii_conversion)("é")


@njit
def repr_conversions(x, s):
    return f"{s!r} is {x!r}, padded {s!r:>12}|{x!s}"


@pytest.mark.parametrize("s", ["it's", 'say "hi"', "tab\t", "é\u2028", ""])
def test_f_string_repr_conversion_as_python(s):
    for x in (1.5, 7, True, 0.1):
        assert_same(repr_conversions, x, s)


# ---------------------------------------------------------------- print

@njit
def show(s, n):
    print(s, n, s.upper(), "const")
    print(s + "!")


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's print")
@pytest.mark.parametrize("s", WIDE_STRINGS[:8])
def test_print_of_strings_as_python(capsys, s):
    capsys.readouterr()
    show(s, 3)
    got = capsys.readouterr().out
    show.py_func(s, 3)
    assert got == capsys.readouterr().out


@njit
def show_tuple(s, n):
    print((s, n), (s,), ((s + "'", n), s + '"'), s)


@pytest.mark.skipif(AS_NUMBA, reason="ruchey's print")
@pytest.mark.parametrize("s", WIDE_STRINGS[:8] + ["it's", 'say "hi"', "both ' and \"", "back\\slash", "nul\x00"])
def test_print_of_tuples_of_strings_writes_their_repr(capsys, s):
    capsys.readouterr()
    show_tuple(s, 3)
    got = capsys.readouterr().out
    show_tuple.py_func(s, 3)
    assert got == capsys.readouterr().out


# ---------------------------------------------------------------- bad input

@numba_deviation("numba's messages differ")
def test_unsupported_method_names_it():
    def f(s):
        return s.translate({})
    with pytest.raises(ruchey.TypingError, match="translate"):
        njit(f)("a")


@numba_deviation("numba's messages differ")
def test_str_mixed_with_numbers_is_a_typing_error():
    def add(s):
        return s + 1

    def less(s):
        return s < 1

    def method_arg(s):
        return s.find(1)
    with pytest.raises(ruchey.TypingError, match="unicode_type and int64"):
        njit(add)("a")
    with pytest.raises(ruchey.TypingError, match="not supported between"):
        njit(less)("a")
    with pytest.raises(ruchey.TypingError, match="must be str"):
        njit(method_arg)("a")


@njit
def eq_number(s):
    return s == 1, s != 1.5


def test_equality_with_a_number_is_false_as_python():
    assert_same(eq_number, "1")


@njit
def churn(s, n):
    total = 0
    for i in range(n):
        t = (s + str(i)).upper()
        parts = t.split("1")
        total += len(",".join(parts)) + len(f"{i:5d}{t}") + t.find("A")
        if t[1:] == s:
            total += 1
    return total


@pytest.mark.skipif(AS_NUMBA, reason="measures ruchey's memory")
def test_strings_made_in_loops_are_released():
    churn("abc", 1000)
    before = rss_bytes()
    for _ in range(200):
        churn("abcdefgh" * 8, 1000)
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


# ---------------------------------------------------------------- lists and dicts of str

@njit
def word_counts(s):
    counts = {}
    for w in s.split():
        counts[w] = counts.get(w, 0) + 1
    keys = [k for k in counts]
    keys.sort()
    return ",".join([k + "=" + str(counts[k]) for k in keys])


@pytest.mark.parametrize("s", WIDE_STRINGS + ["the cat the dog a cat the"])
def test_str_keys_as_python(s):
    assert_same(word_counts, s)


@njit
def str_values(a, b):
    d = {"x": a, "y": b}
    d["x"] = d["x"] + "!"
    d["z"] = "new"
    t = ""
    for k, v in d.items():
        t += k + v + ";"
    for v in d.values():
        t += v
    del d["y"]
    p = d.pop("z")
    return t, p, d.get("x", "?"), d.get("q", "dflt"), d.setdefault("w", a), d.setdefault("x", b), len(d), "x" in d


def test_str_values_as_python():
    for a, b in PAIRS[:10]:
        assert_same(str_values, a, b)


@njit
def str_list_ops(a, b):
    x = [a, b, "c"]
    x.append(a + b)
    x.insert(0, "first")
    x[1] = "second"
    y = x.copy()
    y.extend(x)
    last = y.pop()
    y.sort()
    z = [s for s in y if s]
    z.reverse()
    return "|".join(z), last, y.index("c"), y.count("c"), "c" in y, len(y)


def test_lists_of_str_as_python():
    for a, b in PAIRS[:10]:
        assert_same(str_list_ops, a, b)


@njit
def missing_key(k):
    d = {"a": 1}
    return d[k]


def test_missing_str_key_raises_key_error_as_python():
    raises_same(missing_key, "b")
    raises_same(missing_key, "é")


@njit
def add_entries(d, lst, k, v):
    d[k] = v
    lst.append(k + v)
    return len(d) + len(lst)


def test_typed_containers_of_str_pass_both_ways():
    d = ruchey.typed.Dict.empty(ruchey.types.unicode_type, ruchey.types.unicode_type)
    d["a"] = "1"
    lst = ruchey.typed.List(["x", "é"])
    assert add_entries(d, lst, "b", "2") == 5
    assert add_entries(d, lst, "a", "3") == 6
    assert dict(d.items()) == {"a": "3", "b": "2"}
    assert list(lst) == ["x", "é", "b2", "a3"]
    lst[0] = "y"
    del lst[1]
    assert lst.pop() == "a3"
    assert list(lst) == ["y", "b2"] and d.pop("a") == "3" and d.get("b") == "2"
    del d["b"]
    assert len(d) == 0


def make_containers():
    d = {"key": "value"}
    x = ["item"]
    d["k2"] = "v2"
    x.append("i2")
    return d, x


kept_constants = njit(make_containers)


def test_containers_keep_constants_beyond_the_code():
    import gc
    f = njit(make_containers)
    d, x = f()
    del f  # the compiled code goes with its dispatcher; the containers keep their own copies
    gc.collect()
    make_containers.__code__.replace()  # allocations in between
    assert dict(d.items()) == {"key": "value", "k2": "v2"} and list(x) == ["item", "i2"]


@njit
def container_churn(n):
    d = {}
    for i in range(n):
        k = str(i % 50)
        d[k] = d.get(k, "") + "x"
        if len(d[k]) > 5:
            del d[k]
    words = " ".join([k for k in d]).split(" ")
    return len(words)


@pytest.mark.skipif(AS_NUMBA, reason="measures ruchey's memory")
def test_containers_of_str_are_released():
    container_churn(1000)
    before = rss_bytes()
    for _ in range(300):
        container_churn(2000)
        kept_constants()
    after = rss_bytes()
    if before is not None:
        assert after - before < 8 << 20, f"RSS grew by {(after - before) >> 20} MB"


# ---------------------------------------------------------------- NumPy str arrays ('<Un')


def str_array(rng, n, shape=None):
    """A '<Un' array of words of several scripts, empty ones and ones that fill the width."""
    alphabet = list("abcxyz é日本😀") + ["\x00a"]
    words = ["", "ab", "a" * 6] + ["".join(rng.choice(alphabet, size=int(rng.integers(0, 6)))) for _ in range(n)]
    a = numpy.array(words)
    return a.reshape(shape) if shape else a


@njit
def joined_items(a):
    s = ""
    for x in a:
        s += x + "|"
    return s


@njit
def str_items_compared(a, i, j):
    x, y = a[i], a[j]
    return x == y, x < y, x + y, len(x), x[::-1], len(a)


@njit
def str_grid_item(a, i, j):
    return a[i, j] + a[-1, -1]


@njit
def longest_item(a):
    best = a[0]
    for i in range(1, len(a)):
        if len(a[i]) > len(best):
            best = a[i]
    return best


@pytest.mark.parametrize("seed", range(3))
def test_items_of_a_numpy_str_array_read_as_str(seed):
    rng = make_rng(seed)
    a = str_array(rng, 20)
    assert joined_items(a) == joined_items.py_func(a)
    assert joined_items(a[::-3]) == joined_items.py_func(a[::-3])
    assert longest_item(a) == longest_item.py_func(a)
    for i, j in rng.integers(-len(a), len(a), size=(20, 2)).tolist():
        got, want = str_items_compared(a, i, j), str_items_compared.py_func(a, i, j)
        assert got == tuple(want) and all(type(v) is type(w) or isinstance(w, str) for v, w in zip(got, want))
    g = str_array(rng, 9, (3, 4))
    for arr in (g, numpy.asfortranarray(g), g.T):
        assert str_grid_item(arr, 1, 2) == str_grid_item.py_func(arr, 1, 2)


@njit
def str_tail_view(a):
    return a[1:]


def test_a_str_array_view_comes_back_with_its_dtype():
    a = numpy.array(["ab", "cd", "e"])
    got = str_tail_view(a)
    assert got.dtype == a.dtype and got.tolist() == ["cd", "e"] and got.base is not None


@njit
def str_windows(a, size, step):
    n, m = a.shape
    s0, s1 = a.strides
    return numpy.lib.stride_tricks.as_strided(a, shape=(n, (m - size + step) // step, size),
                                              strides=(s0, step * s1, s1))


@njit
def str_sliding(a, size):
    return numpy.lib.stride_tricks.sliding_window_view(a, size)


@pytest.mark.parametrize("seed", range(2))
def test_windows_of_a_str_array_are_views_with_its_dtype(seed):
    g = str_array(make_rng(seed), 13, (4, 4))
    for size, step in [(2, 1), (3, 1), (2, 2)]:
        got, want = str_windows(g, size, step), str_windows.py_func(g, size, step)
        assert got.dtype == want.dtype and got.tolist() == want.tolist()
    row = g[1].copy()
    got, want = str_sliding(row, 3), str_sliding.py_func(row, 3)
    assert got.dtype == want.dtype and got.tolist() == want.tolist()


@njit
def str_sum_of(a):
    return a.sum()


@njit
def str_store_number(a):
    a[0] = 1


@njit
def str_store_items(a, words):
    for i in range(len(words)):
        a[i % len(a)] = words[i]
    return a


@pytest.mark.parametrize("seed", range(3))
def test_storing_into_a_str_array_cuts_or_pads_as_numpy(seed):
    rng = make_rng(seed)
    a = str_array(rng, 10)
    words = ruchey.typed.List(str_array(rng, 14).tolist()[::-1])
    got, want = str_store_items(a.copy(), words), str_store_items.py_func(a.copy(), list(words))
    assert got.dtype == want.dtype and got.tolist() == want.tolist()
    strided, want = a.copy()[::-2], a.copy()[::-2]
    str_store_items(strided, words)
    str_store_items.py_func(want, list(words))
    assert strided.tolist() == want.tolist()


def test_str_arrays_errors_are_clear():
    a = numpy.array(["ab", "cd"])
    checked = njit(boundscheck=True)(str_items_compared.py_func)
    with pytest.raises(IndexError, match="out of bounds"):  # (boundscheck's message, as Numba's)
        checked(a, 5, 0)
    with pytest.raises(ruchey.TypingError, match=r"does not support arrays of str"):
        str_sum_of(a)
    with pytest.raises(ruchey.TypingError, match=r"cannot store int64 into an element.*only a str"):
        str_store_number(a)
    with pytest.raises(TypeError, match=r"big-endian"):
        joined_items(a.astype(">U2"))
