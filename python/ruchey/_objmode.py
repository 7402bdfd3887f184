"""``with objmode(y="float64"):`` — Python code inside a compiled function,
as Numba's ``numba.objmode``. The block runs in the interpreter with the
compiled function's variables it reads; the variables named in the call
come back into compiled code as the types given there (names of
``ruchey.types``, as strings or objects). Outside compiled code the block
simply runs."""
import ast
import copy
import sys

_kept = []  # the blocks' functions, alive as long as the code calling them


class objmode:
    """``with objmode(name=type, ...):`` runs its body in Python; the named
    variables are the block's results, of those types."""

    def __init__(self, **types):
        self.types = types

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _names(node, loads):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) == loads}


def _read(body, assigned=frozenset()):
    """The names the statements read before they assign them (a statement
    that does both reads first, as `y = y + 1`). A for loop's target is
    assigned before its body reads it (`for var in context: print(var)`
    reads no var of the compiled function); what a branch or a loop's body
    assigns is not taken as assigned after it, which may not run it."""
    read, assigned = set(), set(assigned)
    for s in body:
        if isinstance(s, (ast.For, ast.AsyncFor)):
            read |= _names(s.iter, True) - assigned
            read |= _read(s.body + s.orelse, assigned | _names(s.target, False))
        elif isinstance(s, (ast.If, ast.While)):
            read |= _names(s.test, True) - assigned
            read |= _read(s.body, assigned) | _read(s.orelse, assigned)
        else:
            read |= _names(s, True) - assigned
            assigned |= _names(s, False)
    return read


def _block(body, known, outputs, globals_, filename, line_offset):
    """The function running a with block's statements: its parameters the
    variables of the compiled function (known) that the block reads, its
    result the tuple of the outputs. Returns (function, parameter names)."""
    body = copy.deepcopy(list(body))
    read = _read(body)
    inputs = [name for name in known if name in read and not name.startswith("$")]
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in inputs], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])
    result = ast.Tuple(elts=[ast.Name(id=n, ctx=ast.Load()) for n in outputs], ctx=ast.Load())
    fn = ast.FunctionDef(name="objmode_block", args=args, body=body + [ast.Return(value=result)],
                         decorator_list=[], returns=None, type_comment=None)
    if sys.version_info >= (3, 12):
        fn.type_params = []
    module = ast.Module(body=[fn], type_ignores=[])
    ast.copy_location(fn, body[0])
    ast.fix_missing_locations(module)
    ast.increment_lineno(module, line_offset)
    namespace = {}
    exec(compile(module, filename, "exec"), globals_, namespace)
    block = namespace["objmode_block"]
    _kept.append(block)
    return block, inputs


def _describe(t):
    """An output's type (a ruchey type, or its name as a string) as the
    extension reads types; a TypeError for anything else."""
    from ruchey import types
    if isinstance(t, str):
        try:
            t = eval(t, {"__builtins__": {}}, types.namespace)  # the names are only ruchey types
        except Exception:
            raise TypeError(f"unknown type {t!r}") from None
    if isinstance(t, types.Optional) and not getattr(t.type, "ndim", 1):  # a number or None
        return ("optional", t.type.describe())
    if not isinstance(t, types.Type):
        raise TypeError(f"not a ruchey type: {t!r}")
    return t.describe()


def _print(sep, end, *values):
    """print() of values compiled code does not write itself (sets, dicts,
    datetime64, arrays of complex numbers or of text...): the interpreter's,
    as Numba's print falls back to it for them."""
    print(*values, sep=sep, end=end)
    return ()
