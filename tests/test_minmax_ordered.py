"""min() and max() of values Python orders other than numbers: strs (by
code points) and tuples of numbers (item by item), as arguments
(`max("a", s)`) and as the items of a list, a tuple or a str; the first
of equals kept, ValueError for no items, a TypingError for values that
do not compare. Compared with the function's py_func on generated inputs."""
import numpy
import pytest

from ruchey import TypingError, njit, typed

from conftest import assert_same, make_rng, numba_deviation, seed_of

ALPHABET = "abcXYZ019 é中😀"


def random_strs(rng, count, hi=6):
    return ["".join(ALPHABET[int(k)] for k in rng.integers(0, len(ALPHABET), int(rng.integers(0, hi + 1))))
            for _ in range(count)]


@njit
def of_strs(a, b, c):
    return max(a, b), min(a, b), max(a, b, c), min(c, a, b), max("m", a), min(a, "m"), max(a + b, c)


@numba_deviation("Numba's min/max of several arguments take numbers only")
def test_min_max_of_str_arguments():
    rng = make_rng(seed_of("minmax strs"))
    for _ in range(40):
        assert_same(of_strs, *random_strs(rng, 3))
    assert_same(of_strs, "", "", "")
    assert_same(of_strs, "ab", "ab", "a")


@njit
def of_str_items(words, s):
    listed = [w for w in words]
    return max(listed), min(listed), max(s), min(s), max(s.split(" ")), min(("q", s, "b"))


def test_min_max_of_lists_tuples_and_strs_of_strs():
    rng = make_rng(seed_of("minmax str items"))
    for n in (1, 2, 9):
        words = random_strs(rng, n)
        s = " ".join(random_strs(rng, 3)) or "x"
        assert_same(of_str_items, tuple(words), s)


@njit
def of_tuples(a, b, c, d):
    t = ((a, b), (c, d), (b, a))
    return max((a, b), (c, d)), min((a, b), (c, d)), max(t), min(t), min(((a, b), (a, b)))


@njit
def of_mixed_tuples(a, b, c, d):
    return max((a, 1.5), (c, d)), min((a, b), (c, 0.5))


@numba_deviation("Numba's min/max of several arguments take numbers only")
def test_min_max_of_tuples_compare_item_by_item():
    rng = make_rng(seed_of("minmax tuples"))
    for a, b, c, d in rng.integers(-3, 3, (60, 4)):
        assert_same(of_tuples, int(a), int(b), int(c), int(d))
        # the tuples' fields unified (ints and floats: floats), as Numba's
        assert of_mixed_tuples(int(a), int(b), int(c), int(d)) == of_mixed_tuples.py_func(int(a), int(b), int(c), int(d))


@njit
def of_tuple_list(n, k):
    items = [(i % k, (i * 7) % 5, -i) for i in range(n)]
    return max(items), min(items)


def test_min_max_of_a_list_of_tuples():
    for n, k in ((1, 1), (5, 2), (40, 3), (100, 7)):
        assert_same(of_tuple_list, n, k)


@njit
def best_of(x):
    return max(x), min(x)


def test_min_max_of_a_typed_list_of_tuples_and_of_strs_from_python():
    rng = make_rng(seed_of("minmax typed lists"))
    pairs = typed.List([(int(i), float(f)) for i, f in zip(rng.integers(0, 4, 20), rng.normal(size=20))])
    assert best_of(pairs) == best_of.py_func(list(pairs))
    words = typed.List(random_strs(rng, 15, 3))
    assert best_of(words) == best_of.py_func(list(words))


def of_list_rows(n, k, seed):
    """min and max of lists (of numbers, of strs): Python's list order, an empty list first;
    a list made of a list of lists and [[]] (its empty list typed by the other's)."""
    rows = [[(i * seed) % k, -(i % 2)] for i in range(n)] + [[]]
    rows[-1].append(k)
    words = [[str(i % k), "a"] for i in range(n)]
    words.append(["0"])
    return min(rows), max(rows), min(words), max(words), rows


def test_min_max_of_lists_of_lists():
    f = njit(of_list_rows)
    for n, k, seed in ((1, 1, 3), (5, 2, 7), (30, 4, 5)):
        assert f(n, k, seed) == of_list_rows(n, k, seed)


@njit
def of_no_strs(n):
    words = ["x"] * n
    return max(words)


@numba_deviation("Numba raises another error for an empty list of str")
def test_min_max_of_no_items_is_value_error():
    with pytest.raises(ValueError, match=r"max\(\) arg is an empty sequence"):
        of_no_strs(0)
    with pytest.raises(ValueError):
        of_no_strs.py_func(0)


@njit
def greatest(a, b):
    return max(a, b)


@numba_deviation("Numba's messages differ")
def test_values_that_do_not_compare_are_typing_errors():
    for a, b in (("a", 1), ((1, 2), 1), ((1, 2), (1, 2, 3)), ((1, "a"), ("b", 1))):  # tuples holding strs compare
                                                                                     # field by field (test_tuple_strings)
        with pytest.raises(TypingError, match=r"max\(\)"):
            greatest(a, b)
    with pytest.raises(TypeError):
        greatest.py_func("a", 1)
    with pytest.raises(TypingError, match=r"max\(\)"):
        best_of(((1, 2), "a"))


@njit
def of_0d_arrays(a, b, c):
    grown = [a, b]
    grown.append(c)
    return max([a, b]), min([a, b]), max((b, a, c)), min((c, b)), max(grown), min(grown)


def test_min_max_of_0d_arrays_order_by_their_elements_and_give_the_array():
    """max([lrec, lsrc]) of 0-d arrays (layer numbers): the array holding
    the greatest element, a 0-d array still, the first of equals (and of
    NaNs) kept, as Python's comparisons of 0-d arrays do."""
    rng = make_rng(seed_of("minmax 0-d arrays"))
    for dtype in ("int64", "int32", "uint8", "float64", "float32"):
        for _ in range(8):
            values = rng.integers(0, 5, 3).astype(dtype)
            assert_same(of_0d_arrays, *(numpy.array(v) for v in values))
    for triple in ((numpy.nan, 1.0, 2.0), (1.0, numpy.nan, -1.0), (-0.0, 0.0, numpy.nan)):
        assert_same(of_0d_arrays, *(numpy.array(v) for v in triple))


def test_min_max_of_arrays_with_elements_or_complex_ones_are_typing_errors():
    with pytest.raises(TypingError, match=r"max\(\)"):
        best_of((numpy.zeros(2), numpy.ones(2)))
    with pytest.raises(TypingError, match=r"max\(\)"):
        best_of((numpy.array(1j), numpy.array(2j)))
