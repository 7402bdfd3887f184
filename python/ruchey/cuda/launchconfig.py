"""numba-cuda's ``cuda.launchconfig``: the launch configuration a kernel is
being compiled for, where a launch compiles it.

A launch that finds no compiled kernel for its arguments' types calls the
kernel's ``_compile_for_args(*args)`` with the launch's configuration
current in the launching thread (``current_launch_config()``): code that
wraps that method (``capture_compile_config``) or runs inside it reads
the grid, the block, the stream, the dynamic shared memory and the
arguments. A compile whose result depends on them calls
``config.dispatcher.mark_launch_config_sensitive()``: the kernel is then
compiled again for each other configuration it is launched with.

ruchey's own compiler reads no launch configuration: a kernel is watched
this way only where its ``_compile_for_args`` was replaced or it was marked
sensitive, so that other launches pay nothing for it."""
import contextlib
import functools
import threading
import types as pytypes

_current = threading.local()


class LaunchConfig:
    """One launch's configuration, as numba-cuda's: the kernel launched
    (``dispatcher``), ``griddim`` and ``blockdim`` (3-tuples), ``stream``,
    ``sharedmem`` (dynamic shared memory in bytes) and ``args`` (the
    launch's arguments); ``sensitive``: whether the compile was marked as
    depending on them (``dispatcher.mark_launch_config_sensitive()``);
    ``launch``: the ``kernel[griddim, blockdim, ...]`` called."""

    __slots__ = ("dispatcher", "griddim", "blockdim", "stream", "sharedmem", "args", "sensitive", "launch")

    def __init__(self, dispatcher, launch, args):
        self.dispatcher = dispatcher
        self.launch = launch
        self.griddim = launch.griddim
        self.blockdim = launch.blockdim
        self.stream = launch.stream
        self.sharedmem = launch.sharedmem
        self.args = args
        self.sensitive = False

    def __repr__(self):
        return (f"<LaunchConfig of {self.dispatcher.__name__}[{self.griddim}, {self.blockdim}, "
                f"stream={self.stream!r}, sharedmem={self.sharedmem}]>")


def current_launch_config():
    """The configuration of the launch compiling a kernel in this thread, or None."""
    return getattr(_current, "config", None)


def ensure_current_launch_config():
    """current_launch_config(), or a RuntimeError where no launch is compiling in this thread."""
    config = current_launch_config()
    if config is None:
        raise RuntimeError("No launch config set for this thread")
    return config


@contextlib.contextmanager
def launching(config):
    """config current in this thread while the block runs (a launch's compile)."""
    before = current_launch_config()
    _current.config = config
    try:
        yield config
    finally:
        _current.config = before


@contextlib.contextmanager
def capture_compile_config(dispatcher):
    """``with capture_compile_config(kernel) as seen:`` -- ``seen["config"]``
    is the configuration of the last launch inside the block that compiled
    the kernel (None where none did). The kernel's own ``_compile_for_args``
    is back as it was after the block."""
    if dispatcher is None:
        raise TypeError("dispatcher is required")
    seen = {"config": None}
    own = vars(dispatcher).get("_compile_for_args")
    compile_for_args = dispatcher._compile_for_args

    @functools.wraps(compile_for_args)
    def noting(self, *args, **kwargs):
        seen["config"] = current_launch_config()
        return compile_for_args(*args, **kwargs)

    dispatcher._compile_for_args = pytypes.MethodType(noting, dispatcher)
    try:
        yield seen
    finally:
        if own is None:
            del dispatcher._compile_for_args
        else:
            dispatcher._compile_for_args = own


__all__ = ["LaunchConfig", "current_launch_config", "ensure_current_launch_config", "capture_compile_config"]
