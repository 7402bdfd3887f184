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
import builtins
import inspect
import linecache
import textwrap

import numpy as np

from ruchey import TypingError, extending, typeof, types
from ruchey.decorators import njit, prange

__all__ = ["stencil"]


_OPTIONS = ("neighborhood", "cval", "standard_indexing")


def stencil(func_or_mode="constant", **options):
    """``@stencil``, ``@stencil(kernel)``, ``stencil(func_or_mode=kernel)`` or
    ``@stencil("constant", neighborhood=((-1, 1),), cval=0.0,
    standard_indexing=("w",))``: the kernel as a function of whole arrays."""
    func, mode = (None, func_or_mode) if isinstance(func_or_mode, str) else (func_or_mode, "constant")
    if mode != "constant":
        raise _refused(f"stencil: func_or_mode={mode!r} is not supported (only 'constant', as Numba's)")
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise _refused(f"stencil: unknown option {sorted(unknown)[0]!r} (takes {', '.join(_OPTIONS)})")

    def make(kernel):
        return Stencil(kernel, options)
    make.__ruchey_compile_time__ = _made_in_compiled_code  # stencil(cval=1.0)(kernel) in compiled code
    return make(func) if func is not None else make


_MADE = {}  # (owner, where the node starts and ends) -> the stencil made there


def _made_in_compiled_code(node, body, namespace, owner):
    """The stencil that compiled code makes where node is: a call
    ``stencil(kernel, **options)`` (kernel a lambda, a nested def's name
    or a global) or a nested def decorated ``@stencil``/``@stencil(...)``;
    body: the enclosing function's statements, namespace: the names its
    code sees. Made once per place (owner: the function's code, or the
    function where it is a closure), so its loops compile once."""
    key = (owner, node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)  # (calls of calls start alike)
    if key not in _MADE:
        _MADE[key] = _made(node, body, namespace)
    return _MADE[key]


def _made(node, body, namespace):
    """What the call (or the decorated def) makes: its arguments evaluated
    in namespace, a lambda or a nested def's name made the kernel."""
    defs = {n.name: n for n in ast.walk(ast.Module(body, [])) if isinstance(n, ast.FunctionDef)}

    def value(expr):
        if isinstance(expr, ast.Lambda) or (isinstance(expr, ast.Name) and expr.id in defs):
            return _kernel_function(defs[expr.id] if isinstance(expr, ast.Name) else expr, namespace)
        try:
            return eval(compile(ast.fix_missing_locations(ast.Expression(expr)), "<stencil>", "eval"), namespace)
        except NameError as e:
            raise _refused(f"stencil: in compiled code its arguments are constants, globals or kernels ({e})")
    if isinstance(node, ast.FunctionDef):  # @stencil, @stencil(cval=1.0)
        call, kernel = node.decorator_list[0], _kernel_function(node, namespace)
    elif isinstance(node.func, ast.Call):  # stencil(cval=1.0)(kernel)
        if len(node.args) != 1 or node.keywords:
            raise _refused("stencil: the decorator stencil(...) makes takes the kernel alone")
        call, kernel = node.func, value(node.args[0])
    else:  # stencil(kernel, cval=1.0), or stencil(cval=1.0) itself
        call, kernel = node, None
    args, options = ([value(a) for a in call.args], {k.arg: value(k.value) for k in call.keywords}) \
        if isinstance(call, ast.Call) else ([], {})
    made = stencil(*args, **options)
    return made if kernel is None else made(kernel)


def _kernel_function(node, namespace):
    """The Python function of a lambda or nested def read from compiled
    code, its source kept where stencil reads it. Its names are the
    module's (and the closure's): a variable of the function it is made
    in has no value yet, so it is refused."""
    own = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)} | \
        {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    for name in (n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)):
        if name not in own and name not in namespace and not hasattr(builtins, name):
            raise _refused(f"stencil: the kernel reads '{name}', a variable of the function it is made in: "
                           "pass it to the kernel as an argument")
    if isinstance(node, ast.Lambda):
        return _source_function(f"__stencil_kernel = {ast.unparse(node)}\n", "__stencil_kernel", dict(namespace))
    fdef = ast.FunctionDef(node.name, node.args, node.body, [], node.returns, node.type_comment,
                           **({"type_params": []} if "type_params" in ast.FunctionDef._fields else {}))
    return _source_function(ast.unparse(ast.fix_missing_locations(fdef)) + "\n", node.name, dict(namespace))


stencil.__ruchey_compile_time__ = _made_in_compiled_code


def _refused(message):
    """The error for a kernel or an option Numba refuses: its NumbaValueError, a TypingError."""
    from ruchey.numba_shim import _TYPING_ERRORS  # (on this error's path only)
    return _TYPING_ERRORS["NumbaValueError"](message)


class _Relative(ast.NodeTransformer):
    """a[e0, e1] of a relatively indexed array -> a[__i0 + e0, __i1 + e1]
    (a slice's bounds moved alike), noting each offset per dimension: an
    int where the kernel's constants fold it, None where not."""

    def __init__(self, arrays, constants):
        self.arrays, self.constants, self.offsets, self.ndim, self.seen = arrays, constants, [], None, set()

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not (isinstance(node.value, ast.Name) and node.value.id in self.arrays):
            return node
        if isinstance(node.ctx, ast.Store):
            raise _refused(f"stencil: the kernel assigns to {node.value.id}, an array it indexes relatively")
        self.seen.add(node.value.id)
        parts = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if self.ndim is None:
            self.ndim = len(parts)
            self.offsets = [[] for _ in parts]
        elif len(parts) != self.ndim:
            raise _refused("stencil: every relative index takes the same number of dimensions")
        moved = [self._moved(d, part) for d, part in enumerate(parts)]
        node.slice = moved[0] if len(moved) == 1 else ast.Tuple(moved, ast.Load())
        return node

    def _moved(self, d, part):
        if not isinstance(part, ast.Slice):
            self.offsets[d].append(_folded(part, self.constants))
            return ast.BinOp(ast.Name(f"__i{d}", ast.Load()), ast.Add(), part)
        # a[-1:2] reads the elements at offsets -1 .. 1
        lower, upper = (_folded(b, self.constants) if b is not None else None for b in (part.lower, part.upper))
        self.offsets[d] += [lower, None if upper is None else upper - 1]
        bounds = [ast.BinOp(ast.Name(f"__i{d}", ast.Load()), ast.Add(), b) if b is not None else None
                  for b in (part.lower, part.upper)]
        return ast.Slice(*bounds, part.step)


_FOLDS = {ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__, ast.FloorDiv: int.__floordiv__}


def _folded(node, constants):
    """The int an index expression is, from literals and the kernel's
    constants (names assigned once, to such an expression); None if not."""
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) is int else None
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _folded(node.operand, constants)
        return None if value is None else -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _FOLDS:
        left, right = _folded(node.left, constants), _folded(node.right, constants)
        if left is None or right is None or (right == 0 and isinstance(node.op, ast.FloorDiv)):
            return None
        return _FOLDS[type(node.op)](left, right)
    return None


def _constants(fdef):
    """The kernel's names assigned exactly once, at its top level, an int
    constant expression (t = 1 in ``return a[t, 0]``)."""
    stores = {}
    for node in ast.walk(fdef):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            stores[node.id] = stores.get(node.id, 0) + 1
    constants = {}
    for stmt in fdef.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stores[stmt.targets[0].id] == 1:
            value = _folded(stmt.value, constants)
            if value is not None:
                constants[stmt.targets[0].id] = value
    return constants


def _definition(kernel):
    """A module of the kernel's def: its own, or one made of its lambda
    (``stencil(lambda a: a[-1] + a[1])``)."""
    if not inspect.isfunction(kernel):
        raise TypeError(f"stencil: the kernel must be a Python function, not {type(kernel).__name__}")
    if kernel.__name__ != "<lambda>":
        return ast.Module([ast.parse(textwrap.dedent(inspect.getsource(kernel))).body[0]], [])
    lam = _lambda_node(kernel)
    fdef = ast.FunctionDef(name="__stencil_lambda", args=lam.args, body=[ast.Return(lam.body)], decorator_list=[],
                           returns=None, type_comment=None)
    if "type_params" in ast.FunctionDef._fields:  # (Python 3.12 on)
        fdef.type_params = []
    return ast.Module([ast.fix_missing_locations(ast.copy_location(fdef, lam))], [])


def _lambda_node(kernel):
    """The syntax tree of a lambda, found in its file read whole (a line
    of a dict literal or of a call does not parse alone): of the lambdas
    on its first line with its parameters, the innermost that spans every
    instruction of its code (``left, right = stencil(lambda x: x[-1]),
    stencil(lambda x: x[1])``: each its own)."""
    lines, _ = inspect.findsource(kernel)
    code = kernel.__code__
    params = list(code.co_varnames[:code.co_argcount])
    # (Python 3.11 on: where each instruction came from; a span of none is the function's entry)
    spans = [(line, col, end_line, end_col) for line, end_line, col, end_col in getattr(code, "co_positions", tuple)()
             if line is not None and (end_line, end_col) > (line, col)]
    found = [node for node in ast.walk(ast.parse("".join(lines)))
             if isinstance(node, ast.Lambda) and node.lineno == code.co_firstlineno
             and [a.arg for a in node.args.args] == params
             and all((node.lineno, node.col_offset) <= (line, col) and (end_line, end_col) <= (node.end_lineno,
                                                                                               node.end_col_offset)
                     for line, col, end_line, end_col in spans)]
    if not spans:  # (Python 3.10: no columns) the lambdas whose code compiles to the kernel's
        found = [node for node in found if _compiles_to(node, code)]
    if not found:
        raise TypeError(f"stencil: cannot read the kernel {kernel.__name__}'s definition from its source")
    return min(found, key=lambda node: (node.end_lineno - node.lineno, node.end_col_offset - node.col_offset))


def _compiles_to(lam, code):
    """Whether the lambda's tree compiles to code's instructions, names and constants."""
    made = compile(ast.Expression(body=lam), code.co_filename, "eval")
    inner = next(c for c in made.co_consts if isinstance(c, type(code)))
    return (inner.co_code, inner.co_names, inner.co_consts) == (code.co_code, code.co_names, code.co_consts)


def _source_function(text, name, namespace):
    """The function `name` defined by text, its source kept where ruchey
    (and inspect) read it."""
    filename = f"<ruchey stencil {name} {id(text):x}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    exec(compile(text, filename, "exec"), namespace)
    return namespace[name]


class Stencil:
    """A stencil kernel: call it with arrays (from Python or compiled code),
    and ``out=`` an array to write into."""

    def __init__(self, kernel, options):
        self.kernel = kernel
        self.cval, self.cval_given = options.get("cval", 0), "cval" in options
        standard_indexing = options.get("standard_indexing", ())
        standard_indexing = (standard_indexing,) if isinstance(standard_indexing, str) else tuple(standard_indexing)
        self.__name__ = kernel.__name__
        self.__doc__ = kernel.__doc__
        self.__wrapped__ = kernel
        tree = _definition(kernel)
        fdef = tree.body[0]
        self.params = [a.arg for a in fdef.args.args]
        self._check_parameters(standard_indexing)
        relative = _Relative({p for p in self.params if p not in standard_indexing}, _constants(fdef))
        fdef.body = [relative.visit(s) for s in fdef.body]
        if relative.ndim is None:
            raise _refused(f"stencil {self.__name__}: no argument is indexed relatively")
        self.ndim = relative.ndim
        self.neighborhood = self._neighborhood(options.get("neighborhood"), relative.offsets)
        self.relative = [p for p in self.params if p in relative.seen]  # the first's shape is the output's
        self.first = self.relative[0]
        index = [f"__i{d}" for d in range(self.ndim)]
        fdef.name = "__stencil_kernel"
        fdef.decorator_list = []
        fdef.args.args += [ast.arg(i) for i in index]
        self._namespace = {**kernel.__globals__, **inspect.getclosurevars(kernel).nonlocals}
        self._kernel_at = njit(_source_function(ast.unparse(ast.fix_missing_locations(tree)), fdef.name,
                                                self._namespace))
        self._loops = {}
        # the overload's typing function takes the kernel's parameters (its calls bind by them) and out=
        params = ", ".join(self.params)
        typer = _source_function(f"def __stencil_types({params}, out=None):\n"
                                 f"    return __choose(({params},), out)\n",
                                 "__stencil_types", {"__choose": self._overload})
        extending.overload(self, strict=False)(typer)  # (ruchey's own: its module is none, as made by exec)

    def _check_parameters(self, standard_indexing):
        if "out" in self.params:
            raise _refused(f"stencil {self.__name__}: 'out' is reserved for the array a call writes into, "
                             "not a kernel's parameter")
        unknown = [name for name in standard_indexing if name not in self.params]
        if unknown:
            raise _refused(f"stencil {self.__name__}: standard_indexing names {unknown[0]!r}, "
                             "not a parameter of the kernel")
        if self.params and self.params[0] in standard_indexing:
            raise _refused(f"stencil {self.__name__}: the first argument must be indexed relatively, "
                             "not by standard indexing")

    def _neighborhood(self, given, offsets):
        if given is not None:
            if len(given) != self.ndim:
                raise _refused(f"stencil {self.__name__}: the neighborhood has {len(given)} dimensions, "
                                 f"the kernel's indices {self.ndim}")
            return tuple((int(lo), int(hi)) for lo, hi in given)
        if any(None in dim for dim in offsets):
            raise _refused(f"stencil {self.__name__}: stencil kernel index is not constant, 'neighborhood' "
                           "option required (neighborhood=((lo, hi), ...))")
        return tuple((min(min(dim), 0), max(max(dim), 0)) for dim in offsets)

    def _loop(self, argtypes, out=None):
        """The compiled loop for argument types (ruchey.types objects), and
        the type of out= (None: the loop makes the result)."""
        key = (tuple(map(repr, argtypes)), repr(out))
        if key not in self._loops:
            self._check_dimensions(argtypes, out)
            described = tuple(t.describe() for t in argtypes) + (types.int64.describe(),) * self.ndim
            self._kernel_at._compile(described, None)
            ret = next(s.return_type for s in self._kernel_at.nopython_signatures
                       if tuple(map(repr, s.args[:len(argtypes)])) == key[0])
            if np.iscomplexobj(self.cval) and "complex" not in ret.name:
                raise _refused(f"stencil {self.__name__}: cval type does not match stencil return type. "
                               f"(cval {self.cval!r}, result {ret.name})")
            loop = self._loops[key] = njit(self._loop_source(ret.name, out is not None))
            loop._inherits = True  # compiled with its caller's options: parallel=True's threads among them
        return self._loops[key]

    def _check_dimensions(self, argtypes, out):
        named = dict(zip(self.params, argtypes))
        for name in self.relative + (["out"] if out is not None else []):
            ndim = getattr(named.get(name, out), "ndim", 0)
            if ndim != self.ndim:
                raise TypingError(f"stencil {self.__name__}: {name} has {ndim} dimensions, the kernel's "
                                  f"relative indices {self.ndim}")

    def _loop_source(self, dtype, into_out):
        params = ", ".join(self.params)
        lines = [f"def __stencil_loop({params}, out=None):"]
        # the other arrays indexed relatively reach at least as far as the first, as Numba checks
        for name in self.relative[1:]:
            lines += [f"    for __d in range({self.ndim}):",
                      f"        if {name}.shape[__d] < {self.first}.shape[__d]:",
                      f"            raise ValueError('stencil: {name} is smaller than {self.first}')"]
        if not into_out:
            lines.append(f"    __out = numpy.full({self.first}.shape, __cval, __dtype)")
        else:  # out's border keeps its elements unless a cval is given
            lines.append("    __out = out")
            if self.cval_given:
                lines.append("    __out[...] = __cval")
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

    def _overload(self, argtypes, out):
        return self._loop(tuple(argtypes), None if out is None or isinstance(out, types.NoneType) else out)

    def __call__(self, *args, out=None):
        argtypes = tuple(map(typeof, args))
        return self._loop(argtypes, None if out is None else typeof(out))(*args, out=out)

    def __repr__(self):
        return f"<ruchey.stencil '{self.__name__}'>"
