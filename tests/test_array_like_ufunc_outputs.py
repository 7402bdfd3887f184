"""NumPy's ufuncs of two outputs (divmod; frexp and modf where compiled
code has them) on a package's array-like type (a types.Buffer whose values stand for the array a member
holds, Numba's pandas-like Index): applied to the array, each output made
a value of the type again where its __array_wrap__ says so, as the ufuncs
of one output are (test_extension_types). Compared with the Python
original, whose __array_ufunc__ wraps each output alike."""
from test_extension_types import COLUMN_MODULE, run_fresh, shim_only


@shim_only
def test_ufuncs_of_two_outputs_of_an_array_like_type_are_both_wrapped(tmp_path):
    (tmp_path / "arraylike.py").write_text(COLUMN_MODULE)
    run_fresh("""
        import numpy as np
        from numba import njit
        from arraylike import Column

        def wrap_each(self, ufunc, method, *inputs, **kwargs):
            plain = [x._data if isinstance(x, Column) else x for x in inputs]
            out = getattr(ufunc, method)(*plain, **kwargs)
            return tuple(Column(o, self.scale) for o in out) if isinstance(out, tuple) else Column(out, self.scale)

        Column.__array_ufunc__ = wrap_each

        @njit
        def parts(c, a, k):
            q, r = np.divmod(c, a)
            return np.divmod(k, c) + (q, r) + np.divmod(c, c)

        rng = np.random.default_rng(11)
        for n in (1, 4, 9):
            for dtype in (np.int64, np.float64):
                c = Column((rng.normal(size=n) * 20).astype(dtype), float(rng.normal()))
                c._data[c._data == 0] = 3
                a, k = rng.normal(size=n) * 5 + 0.5, float(rng.integers(1, 9))
                got, want = parts(c, a, k), parts.py_func(c, a, k)
                assert len(got) == len(want) == 6
                for g, w in zip(got, want):
                    assert type(g) is Column and g.scale == w.scale
                    np.testing.assert_allclose(g._data, w._data, rtol=1e-15)
                    assert g._data.dtype == w._data.dtype
        print("ok")
    """, tmp_path)
