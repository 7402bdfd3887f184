"""@stencil, as Numba's: a kernel written with relative indices
(``a[-1] + a[0] + a[1]``) is applied at every element whose neighbourhood
lies inside the array; the elements of the border are ``cval``. The
result has the arguments' shape and the kernel's result type.

The kernel's syntax tree is rewritten into two functions compiled as any:
the kernel at an absolute index (``a[i0 - 1] + a[i0] + a[i0 + 1]``) and a
loop over the inside, made for each argument types once the kernel's
result type is known. Compiled code calls a stencil through an overload
(ruchey.extending) that picks that loop.
"""
import ast
import inspect
import linecache
import textwrap

import numpy as np

from ruchey import _core, extending, types
from ruchey.decorators import njit, prange

__all__ = ["stencil"]


_OPTIONS = ("neighborhood", "cval", "standard_indexing")


def stencil(func_or_mode="constant", **options):
    """``@stencil``, ``@stencil(kernel)``, ``stencil(func_or_mode=kernel)`` or
    ``@stencil("constant", neighborhood=((-1, 1),), cval=0.0,
    standard_indexing=("w",))``: the kernel as a function of whole arrays."""
    func, mode = (None, func_or_mode) if isinstance(func_or_mode, str) else (func_or_mode, "constant")
    if mode != "constant":
        raise ValueError(f"stencil: func_or_mode={mode!r} is not supported (only 'constant', as Numba's)")
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise ValueError(f"stencil: unknown option {sorted(unknown)[0]!r} (takes {', '.join(_OPTIONS)})")

    def make(kernel):
        return Stencil(kernel, options.get("neighborhood"), options.get("cval", 0),
                       tuple(options.get("standard_indexing", ())))
    return make(func) if func is not None else make


class _Relative(ast.NodeTransformer):
    """a[e0, e1] of a relatively indexed array -> a[__i0 + e0, __i1 + e1],
    noting each constant offset per dimension."""

    def __init__(self, arrays):
        self.arrays, self.offsets, self.ndim = arrays, [], None

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not (isinstance(node.value, ast.Name) and node.value.id in self.arrays):
            return node
        parts = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if self.ndim is None:
            self.ndim = len(parts)
            self.offsets = [[] for _ in parts]
        elif len(parts) != self.ndim:
            raise ValueError("stencil: every relative index takes the same number of dimensions")
        for d, part in enumerate(parts):
            try:
                self.offsets[d].append(int(ast.literal_eval(part)))
            except (ValueError, TypeError, SyntaxError):
                self.offsets[d].append(None)  # not a constant: the neighbourhood must be given
        moved = [ast.BinOp(ast.Name(f"__i{d}", ast.Load()), ast.Add(), part) for d, part in enumerate(parts)]
        node.slice = moved[0] if len(moved) == 1 else ast.Tuple(moved, ast.Load())
        return node


def _source_function(text, name, namespace):
    """The function `name` defined by text, its source kept where ruchey
    (and inspect) read it."""
    filename = f"<ruchey stencil {name} {id(text):x}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    exec(compile(text, filename, "exec"), namespace)
    return namespace[name]


class Stencil:
    """A stencil kernel: call it with arrays (from Python or compiled code)."""

    def __init__(self, kernel, neighborhood, cval, standard_indexing):
        self.kernel, self.cval = kernel, cval
        self.__name__ = kernel.__name__
        self.__doc__ = kernel.__doc__
        self.__wrapped__ = kernel
        tree = ast.parse(textwrap.dedent(inspect.getsource(kernel)))
        fdef = tree.body[0]
        if not isinstance(fdef, ast.FunctionDef):
            raise TypeError("@stencil decorates a function")
        self.params = [a.arg for a in fdef.args.args]
        arrays = [p for p in self.params if p not in standard_indexing]
        relative = _Relative(set(arrays))
        fdef.body = [relative.visit(s) for s in fdef.body]
        if relative.ndim is None:
            raise ValueError(f"stencil {self.__name__}: no argument is indexed relatively")
        self.ndim = relative.ndim
        self.neighborhood = self._neighborhood(neighborhood, relative.offsets)
        self.first = next(p for p in self.params if p in arrays)  # its shape is the output's
        index = [f"__i{d}" for d in range(self.ndim)]
        fdef.name = "__stencil_kernel"
        fdef.decorator_list = []
        fdef.args.args += [ast.arg(i) for i in index]
        self._namespace = dict(kernel.__globals__)
        self._kernel_at = njit(_source_function(ast.unparse(ast.fix_missing_locations(tree)), fdef.name,
                                                self._namespace))
        self._loops = {}
        # the overload's typing function takes the kernel's parameters (its calls bind by them)
        params = ", ".join(self.params)
        typer = _source_function(f"def __stencil_types({params}):\n    return __choose(({params},))\n",
                                 "__stencil_types", {"__choose": self._overload})
        extending.overload(self)(typer)

    def _neighborhood(self, given, offsets):
        if given is not None:
            if len(given) != self.ndim:
                raise ValueError(f"stencil {self.__name__}: the neighborhood has {len(given)} dimensions, "
                                 f"the kernel's indices {self.ndim}")
            return tuple((int(lo), int(hi)) for lo, hi in given)
        if any(None in dim for dim in offsets):
            raise ValueError(f"stencil {self.__name__}: an index that is not a constant needs "
                             "neighborhood=((lo, hi), ...)")
        return tuple((min(min(dim), 0), max(max(dim), 0)) for dim in offsets)

    def _loop(self, argtypes):
        """The compiled loop for argument types (ruchey.types objects)."""
        key = tuple(map(repr, argtypes))
        if key not in self._loops:
            described = tuple(t.describe() for t in argtypes) + (types.int64.describe(),) * self.ndim
            self._kernel_at._compile(described, None)
            ret = next(s.return_type for s in self._kernel_at.nopython_signatures
                       if tuple(map(repr, s.args[:len(argtypes)])) == key)
            loop = self._loops[key] = njit(self._loop_source(ret.name))
            loop._inherits = True  # compiled with its caller's options: parallel=True's threads among them
        return self._loops[key]

    def _loop_source(self, dtype):
        params = ", ".join(self.params)
        lines = [f"def __stencil_loop({params}):",
                 f"    __out = numpy.full({self.first}.shape, __cval, __dtype)"]
        # a neighbourhood reaching only forwards (or only backwards) excludes nothing behind (ahead);
        # the outer loop runs on threads where a parallel function calls the stencil
        for d, (lo, hi) in enumerate(self.neighborhood):
            loop = "prange" if d == 0 else "range"
            lines.append("    " * (d + 1) + f"for __i{d} in {loop}({-min(lo, 0)}, {self.first}.shape[{d}] - {max(hi, 0)}):")
        index = ", ".join(f"__i{d}" for d in range(self.ndim))
        lines.append("    " * (self.ndim + 1) + f"__out[{index}] = __kernel_at({params}, {index})")
        lines.append("    return __out")
        namespace = {"numpy": np, "prange": prange, "__cval": self.cval, "__dtype": np.dtype(dtype),
                     "__kernel_at": self._kernel_at}
        return _source_function("\n".join(lines) + "\n", "__stencil_loop", namespace)

    def _overload(self, argtypes):
        return self._loop(tuple(argtypes))

    def __call__(self, *args):
        argtypes = []
        for a in args:
            value = np.asarray(a)
            t = types.namespace.get(value.dtype.name)
            if t is None:
                raise TypeError(f"stencil {self.__name__}: an argument of dtype {value.dtype} cannot be compiled")
            argtypes.append(t[(slice(None),) * value.ndim] if value.ndim else t)
        return self._loop(tuple(argtypes))(*args)

    def __repr__(self):
        return f"<ruchey.stencil '{self.__name__}'>"
