"""``with objmode(y="float64"):`` — Python code inside a compiled function,
as Numba's ``numba.objmode``. The block runs in the interpreter with the
compiled function's variables it reads (and its closure's); the variables
named in the call come back into compiled code as the types given there
(names of ``ruchey.types``, as strings or objects). A variable the block
assigns that compiled code reads after it must be named so (else compiled
code would read its value from before the block). Outside compiled code
the block simply runs."""
import ast
import copy
import sys
import types as pytypes

_kept = []  # the blocks' functions, alive as long as the code calling them


class _ObjMode:
    """``with objmode(name=type, ...):`` runs its body in Python; the named
    variables are the block's results, of those types. ``with objmode:``
    (no call) is a block without results."""

    def __init__(self, types=None):
        self.types = types or {}

    def __call__(self, **types):
        return _ObjMode(types)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return "ruchey.objmode"

    def __reduce__(self):
        # the one ruchey.objmode by reference: a function pickled by value finds it in its globals,
        # where the frontend knows it by identity
        return "objmode" if self is objmode else (_ObjMode, (self.types,))


objmode = _ObjMode()

# statements opening a scope of their own: the names they bind inside are not the block's
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)


def _in_scope(node):
    """node and the nodes under it of its own scope (not inside a def, class,
    lambda or comprehension under it, but for what they read where they are
    written: decorators, defaults, bases, a comprehension's first iterable)."""
    yield node
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        outer = [*node.decorator_list, *node.args.defaults, *filter(None, node.args.kw_defaults)]
    elif isinstance(node, ast.ClassDef):
        outer = [*node.decorator_list, *node.bases, *node.keywords]
    elif isinstance(node, ast.Lambda):
        outer = [*node.args.defaults, *filter(None, node.args.kw_defaults)]
    elif isinstance(node, _SCOPES):
        outer = [node.generators[0].iter]
    else:
        outer = ast.iter_child_nodes(node)
    for child in outer:
        yield from _in_scope(child)


def _loaded(node):
    """The names node reads; in a def, lambda, class or comprehension under
    it, those it reads of the scope around it (the block's variables, as its
    closure); an augmented assignment's target is read too."""
    names = set()
    for n in _in_scope(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            names.add(n.id)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            names.add(n.target.id)
        if isinstance(n, _SCOPES):
            inside, own = _scope_parts(n)
            names |= set().union(*map(_loaded, inside)) - own
    return names


def _scope_parts(n):
    """(the nodes a nested scope runs in itself, the names of its own)."""
    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        a = n.args
        own = {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if x}
        body = [n.body] if isinstance(n, ast.Lambda) else n.body
        return body, own.union(*map(_bound, body))
    if isinstance(n, ast.ClassDef):
        return n.body, set().union(*map(_bound, n.body))
    first = n.generators[0].iter  # (evaluated in the scope around it)
    inside = [c for c in ast.iter_child_nodes(n) if c is not first and not isinstance(c, ast.comprehension)]
    for g in n.generators:
        inside += [g.iter, *g.ifs] if g.iter is not first else list(g.ifs)
    return inside, set().union(*(_bound(g.target) for g in n.generators))


def _bound(node):
    """The names node binds in its own scope: assignment, loop and with
    targets, defs and classes, imports, except ... as names."""
    names = set()
    for n in _in_scope(node):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            names.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            names |= {a.asname or a.name.partition(".")[0] for a in n.names}
        elif isinstance(n, ast.ExceptHandler) and n.name:
            names.add(n.name)
    return names


def _read(body):
    """The names the statements read before they assign them (a statement
    that does both reads first, as `y = y + 1`)."""
    return _flow(body, frozenset())[0]


def _flow(body, assigned):
    """(the names body reads before it assigns them, the names assigned
    once it has run: those given, and those it assigns on every path). A
    for loop's target is assigned before its body reads it (`for var in
    context: print(var)` reads no var of the compiled function); what a
    loop's body assigns is not taken as assigned after it, which may not
    run it; a name both branches of an if assign is."""
    read, assigned = set(), set(assigned)
    for s in body:
        if isinstance(s, (ast.For, ast.AsyncFor)):
            read |= _loaded(s.iter) - assigned
            read |= _flow(s.body + s.orelse, assigned | _bound(s.target))[0]
        elif isinstance(s, ast.While):
            read |= _loaded(s.test) - assigned
            read |= _flow(s.body, assigned)[0] | _flow(s.orelse, assigned)[0]
        elif isinstance(s, ast.If):
            read |= _loaded(s.test) - assigned
            (then, after_then), (other, after_other) = _flow(s.body, assigned), _flow(s.orelse, assigned)
            read |= then | other
            assigned = after_then & after_other
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            read |= set().union(*(_loaded(item.context_expr) for item in s.items)) - assigned
            assigned |= set().union(*(_bound(item.optional_vars) for item in s.items if item.optional_vars))
            inner, assigned = _flow(s.body, assigned)
            read |= inner
        elif isinstance(s, ast.Try):  # after it: what the body and else, and every handler, assign
            inner, completed = _flow(s.body + s.orelse, assigned)
            read |= inner
            for h in s.handlers:
                read |= (_loaded(h.type) if h.type else set()) - assigned
                inner, handled = _flow(h.body, assigned | ({h.name} if h.name else set()))
                read |= inner
                completed &= handled
            read |= _flow(s.finalbody, assigned)[0]  # (it runs after a raise too)
            assigned = _flow(s.finalbody, completed)[1]
        else:
            read |= _loaded(s) - assigned
            assigned |= _bound(s)
    return read, assigned


def _after(body, statement):
    """The statements that may run after statement, somewhere in body (a
    function's statements), in order: the rest of its own list, then, out
    of each statement around it, a loop again (its next iteration) and the
    rest of that one's list. None where statement is not in body (a nested
    function's)."""
    for i, s in enumerate(body):
        if s is statement:
            return list(body[i + 1:])
        if isinstance(s, _SCOPES):
            continue
        for inner in _statement_lists(s):
            rest = _after(inner, statement)
            if rest is not None:
                return rest + _then(s, inner) + list(body[i + 1:])
    return None


def _bound_before(body, statement, func):
    """The names that func's parameters, and the statements before
    statement somewhere in body (func's statements), bind: the earlier ones
    of each list around it, the targets of the for loops around it. Not
    what a loop's body binds later (compiled code may not have it the first
    time round), nor where statement is not in body (a nested function's)."""
    code = func.__code__
    count = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 4) + bool(code.co_flags & 8)
    earlier = _names_before(body, statement)
    return set() if earlier is None else earlier | set(code.co_varnames[:count])


def _names_before(body, statement):
    for i, s in enumerate(body):
        if s is statement:
            return set().union(*map(_bound, body[:i]))
        if isinstance(s, _SCOPES):
            continue
        for inner in _statement_lists(s):
            names = _names_before(inner, statement)
            if names is not None:
                target = _bound(s.target) if isinstance(s, (ast.For, ast.AsyncFor)) else set()
                return names | target | set().union(*map(_bound, body[:i]))
    return None


def _then(s, inner):
    """What of statement s runs after its statement list inner: a loop
    again (its next iteration); a try's else after its body, its finally
    after any other part."""
    if isinstance(s, (ast.For, ast.AsyncFor, ast.While)):
        return [s]
    if isinstance(s, ast.Try) and inner is not s.finalbody:
        return (s.orelse if inner is s.body else []) + s.finalbody
    return []


def _statement_lists(s):
    lists = [getattr(s, name, None) for name in ("body", "orelse", "finalbody")]
    lists += [h.body for h in getattr(s, "handlers", ())] + [c.body for c in getattr(s, "cases", ())]
    return [x for x in lists if isinstance(x, list)]


def _check_outputs(statement, function_body, known, outputs):
    """Numba's rules for the declared outputs: each is assigned by the
    block, and every variable the block assigns that compiled code reads
    after it is declared (a ValueError saying which)."""
    assigned = set().union(*map(_bound, statement.body))
    stray = [name for name in outputs if name not in assigned]
    if stray:
        raise ValueError(f"Invalid type annotation on non-outgoing variables: {stray}. An objmode block's outputs "
                         "are the variables it assigns; remove the annotation of the listed variables")
    after = _after(function_body, statement)
    if after is None:
        return
    live = _read(after)
    missing = [name for name in known if name in assigned and name in live and name not in outputs]
    if missing:
        raise ValueError(f"Missing type annotation on outgoing variable(s): {missing}: compiled code reads them after "
                         f"the block.\n\nExample code: with objmode({missing[0]}='<add_type_as_string_here>')")


def _check_flow(body):
    """return, yield or await in the block (of its own scope) would leave
    the compiled function from Python code: refused (a ValueError); a break
    or continue outside a loop of the block Python's compile refuses."""
    for s in body:
        for n in _in_scope(s):
            if isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await)):
                raise ValueError(f"'{type(n).__name__.lower()}' inside an objmode block is not supported: assign "
                                 "the value to a declared output and leave the block first")


def _closed_over(module, func):
    """The block's function from module's `def objmode_scope(): def
    objmode_block...`, its free variables func's closure cells (shared:
    it sees what the enclosing function assigns them later)."""
    namespace = {}
    exec(module, func.__globals__, namespace)
    code = next(c for c in namespace["objmode_scope"].__code__.co_consts
                if isinstance(c, pytypes.CodeType) and c.co_name == "objmode_block")
    cells = dict(zip(func.__code__.co_freevars, func.__closure__ or ()))
    return pytypes.FunctionType(code, func.__globals__, "objmode_block", None,
                                tuple(cells[name] for name in code.co_freevars))


def _block(statement, function_body, known, outputs, func, filename, line_offset):
    """The function running a with statement's block: its parameters the
    variables of the compiled function func (known) that the block reads,
    its result the tuple of the outputs. Returns (function, parameter
    names); a ValueError for a block that cannot be one."""
    _check_flow(statement.body)
    _check_outputs(statement, function_body, known, outputs)
    body = copy.deepcopy(list(statement.body))
    read, assigned = _flow(body, frozenset())
    # an output the block may leave unassigned keeps the value compiled code gave it (y = 0.5, then
    # `if c: y = 5.0` in the block), where compiled code may have given it one
    kept = (set(outputs) - assigned) & _bound_before(function_body, statement, func)
    inputs = [name for name in known if (name in read or name in kept) and not name.startswith("$")]
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in inputs], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])
    result = ast.Tuple(elts=[ast.Name(id=n, ctx=ast.Load()) for n in outputs], ctx=ast.Load())
    block = _def("objmode_block", args, body + [ast.Return(value=result)])
    # the enclosing function's free variables, bound in a scope around the block, become its cells
    free = func.__code__.co_freevars
    cells = [ast.Assign(targets=[ast.Name(id=n, ctx=ast.Store()) for n in free], value=ast.Constant(None))] if free else []
    no_args = ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    scope = _def("objmode_scope", no_args, cells + [block])
    module = ast.Module(body=[scope], type_ignores=[])
    for node in (scope, block, *cells):
        ast.copy_location(node, body[0])
    ast.fix_missing_locations(module)
    ast.increment_lineno(module, line_offset)
    try:
        code = compile(module, filename, "exec")
    except SyntaxError as e:
        raise ValueError(f"this objmode block cannot be made a Python function: {e}") from None
    made = _closed_over(code, func)
    _kept.append(made)
    return made, inputs


def _def(name, args, body):
    fn = ast.FunctionDef(name=name, args=args, body=body, decorator_list=[], returns=None, type_comment=None)
    if sys.version_info >= (3, 12):
        fn.type_params = []
    return fn


def _describe(t):
    """An output's type (a ruchey type, or its name as a string) as the
    extension reads types; a TypeError for anything else."""
    from ruchey import types
    from ruchey.experimental import InstanceType
    if isinstance(t, str):
        try:
            t = eval(t, {"__builtins__": {}}, types.namespace)  # the names are only ruchey types
        except Exception:
            raise TypeError(f"unknown type {t!r}") from None
    if isinstance(t, types.Optional) and not getattr(t.type, "ndim", 1):  # a number or None
        return ("optional", t.type.describe())
    if not isinstance(t, (types.Type, types.TupleType, types.ListType, types.DictType, InstanceType)):
        raise TypeError(f"not a ruchey type: {t!r}")
    return t.describe()


def _print(sep, end, *values):
    """print() of values compiled code does not write itself (sets, dicts,
    datetime64, arrays of complex numbers or of text...): the interpreter's,
    as Numba's print falls back to it for them."""
    print(*values, sep=sep, end=end)
    return ()


def _plain(x, in_dict=False):
    """x with the typed dicts in it as Python's own dicts, whose text
    CPython writes (a typed.Dict's repr names its type): compiled code's
    dict displays are typed Dicts, which are dicts in Python, and a list
    display among a dict's values a typed List, a list in Python. Its
    other lists are boxed as what they are already (a list display's a
    list, a typed.List one)."""
    from ruchey import typed
    if isinstance(x, (typed.Dict, dict)):
        return {_plain(k): _plain(v, True) for k, v in x.items()}
    if type(x) is list or (in_dict and isinstance(x, typed.List)):
        return [_plain(v, in_dict) for v in x]
    if type(x) is tuple:
        return tuple(_plain(v, in_dict) for v in x)
    return x


def _str(x):
    """str(x) of a value compiled code does not write itself (dicts, sets,
    lists of them...): CPython's text of it."""
    return (str(_plain(x)),)


def _repr(x):
    """repr(x) of such a value, as _str."""
    return (repr(_plain(x)),)
