"""numba.core.entrypoints under install_as_numba(): the packages' Numba
extensions (the ``numba_extensions`` entry points named init), run once
when the first function is decorated, as Numba runs them. Like Numba's,
the module's _already_initialized may be reset to run them again."""
import warnings

_already_initialized = False


def _init_entry_points():
    import importlib.metadata  # (only here: it is slow to import, and ruchey's import stays fast)
    eps = importlib.metadata.entry_points()
    if hasattr(eps, "select"):
        return eps.select(group="numba_extensions", name="init")
    return [e for e in eps.get("numba_extensions", ()) if e.name == "init"]  # the mapping of older interfaces


def init_all():
    """Runs each installed package's ``numba_extensions`` entry point named
    init, once: packages register their types with numba.extending there
    (vector's objects). One that fails is a warning, in Numba's words."""
    global _already_initialized
    if _already_initialized:
        return
    _already_initialized = True  # (before running them: their own decorations come back here)
    for entry in _init_entry_points():
        try:
            entry.load()()
        except Exception as exc:  # noqa: BLE001 - as Numba, a broken extension does not stop the program
            warnings.warn(f"Numba extension module '{entry.module}' failed to load due to "
                          f"'{type(exc).__name__}({exc})'.", stacklevel=3)
