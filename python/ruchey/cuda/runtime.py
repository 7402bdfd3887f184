"""Devices, streams, events and the choice of backend.

Kernels run on ruchey's CPU backend, one launch at a time and synchronously:
a launch returns when every thread has finished, so streams and events keep
numba-cuda's API but have nothing to wait for.
"""
import contextlib
import functools
import itertools
import os
import platform
import time


class CudaSupportError(RuntimeError):
    """The requested CUDA support (a GPU backend) is not available."""


_BACKEND_VAR = "RUCHEY_CUDA_BACKEND"


def backend():
    """The backend kernels run on, from $RUCHEY_CUDA_BACKEND (read at each launch):
    "cpu" (the default) or "gpu"."""
    value = os.environ.get(_BACKEND_VAR, "").strip().lower() or "cpu"
    if value not in ("cpu", "gpu"):
        raise ValueError(f"{_BACKEND_VAR} must be 'cpu' or 'gpu', got "
                         f"{os.environ.get(_BACKEND_VAR)!r}")
    return value


def check_backend():
    """Raise unless kernels can run on the backend $RUCHEY_CUDA_BACKEND asks for."""
    if backend() == "gpu":
        raise CudaSupportError(
            f"{_BACKEND_VAR}=gpu, but the GPU backend is not available in this build: "
            f"unset {_BACKEND_VAR} (or set it to 'cpu') to run kernels on the CPU backend")


def is_available():
    """Whether a CUDA GPU can run kernels: never in this build (kernels run on
    the CPU backend)."""
    return False


def synchronize():
    """Wait for every launch and copy to finish: they already have (the CPU
    backend runs them synchronously)."""


# ---------------------------------------------------------------- streams

_handles = itertools.count(1)


class Stream:
    """A CUDA stream (cuda.stream()). Work on the CPU backend completes before
    the call that queued it returns, so a stream has nothing to wait for."""

    def __init__(self, handle=None, kind="user"):
        self.handle = next(_handles) if handle is None else handle
        self._kind = kind

    def __repr__(self):
        what = "stream" if self._kind == "user" else f"{self._kind} stream"
        return f"<CUDA {what} {self.handle} on the ruchey CPU backend>"

    def synchronize(self):
        """Wait until the work queued on this stream is done (it is)."""

    @contextlib.contextmanager
    def auto_synchronize(self):
        """A context that synchronizes the stream when it exits."""
        yield self
        self.synchronize()

    def add_callback(self, callback, arg=None):
        """Call ``callback(stream, status, arg)`` once the queued work is done:
        now, with status None (success)."""
        callback(self, None, arg)


_default_stream = Stream(0, "default")
_legacy_default_stream = Stream(0, "legacy default")
_per_thread_default_stream = Stream(0, "per-thread default")


def stream():
    """A new stream, for launches (kernel[griddim, blockdim, stream]) and copies."""
    return Stream()


def default_stream():
    return _default_stream


def legacy_default_stream():
    return _legacy_default_stream


def per_thread_default_stream():
    return _per_thread_default_stream


def check_stream(stream):
    """The stream of a launch or copy: 0, None or a Stream."""
    if stream is None or isinstance(stream, Stream):
        return stream
    if type(stream) is int and stream == 0:
        return stream
    raise TypeError(f"a stream must be a Stream (cuda.stream()) or 0, got {stream!r}")


# ---------------------------------------------------------------- events

class Event:
    """A CUDA event (cuda.event()): records the host time at record()."""

    def __init__(self, timing=True):
        self.timing = bool(timing)
        self._time = None

    def record(self, stream=0):
        check_stream(stream)
        self._time = time.perf_counter()

    def synchronize(self):
        """Wait for the event to complete (it has, once recorded)."""

    def wait(self, stream=0):
        """Make ``stream`` wait for this event (it has nothing to wait for)."""
        check_stream(stream)

    def query(self):
        """Whether the work before the event is done: always."""
        return True

    def elapsed_time(self, evtend):
        """Milliseconds between this event and ``evtend``."""
        return event_elapsed_time(self, evtend)


def event(timing=True):
    return Event(timing)


def event_elapsed_time(evtstart, evtend):
    """Milliseconds between two recorded events."""
    for e in (evtstart, evtend):
        if not isinstance(e, Event):
            raise TypeError(f"not a cuda.event(): {e!r}")
        if not e.timing:
            raise RuntimeError("elapsed time of an event made with timing=False")
        if e._time is None:
            raise RuntimeError("elapsed time of an event that was never recorded")
    return (evtend._time - evtstart._time) * 1000.0


# ---------------------------------------------------------------- the device

@functools.lru_cache(maxsize=None)
def cpu_model():
    """The host CPU's model name."""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Hardware", "Processor", "cpu model"):
                    if value.strip():
                        return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def num_threads():
    """The threads kernels run on (those of ruchey's thread pool, as parallel loops)."""
    from ruchey import _core
    return _core.get_num_threads()


class CPUBackendDevice:
    """The device kernels run on: ruchey's CPU backend, described with the
    attributes of a CUDA device (numba-cuda's Device)."""

    id = 0
    compute_capability = (6, 0)  # float64 atomics; no GPU behind it
    uuid = "CPU-00000000-0000-0000-0000-000000000000"
    MAX_THREADS_PER_BLOCK = 1024
    MAX_BLOCK_DIM_X = 1024
    MAX_BLOCK_DIM_Y = 1024
    MAX_BLOCK_DIM_Z = 64
    MAX_GRID_DIM_X = 2**31 - 1
    MAX_GRID_DIM_Y = 65535
    MAX_GRID_DIM_Z = 65535
    MAX_SHARED_MEMORY_PER_BLOCK = 48 * 1024
    WARP_SIZE = 32

    @property
    def name(self):
        return f"ruchey CPU backend ({cpu_model()})"

    @property
    def MULTIPROCESSOR_COUNT(self):
        return num_threads()

    def reset(self):
        """Release the device's resources (there are none to release)."""

    def __repr__(self):
        return f"<CUDA device {self.id} '{self.name}'>"


_device = CPUBackendDevice()


def get_current_device():
    """The device kernels run on: the CPU backend."""
    return _device


def select_device(device_id=0):
    """Select the device kernels run on: only 0, the CPU backend."""
    if device_id != 0:
        raise CudaSupportError(f"no device {device_id!r}: kernels run on the CPU backend "
                               "(device 0) in this build")
    return _device


def list_devices():
    """The CUDA GPUs found: none (this build has no GPU backend)."""
    return []


def close():
    """Release the current context: nothing to release on the CPU backend."""


def summary():
    """Lines that say where kernels run, for detect() and python -m ruchey -s."""
    lines = [f"kernels run on the CPU backend with {num_threads()} threads ({cpu_model()})"]
    try:
        if backend() == "gpu":
            lines.append(f"{_BACKEND_VAR}=gpu: the GPU backend is not available in this build, "
                         "launches will raise CudaSupportError")
    except ValueError as exc:
        lines.append(str(exc))
    return lines


def detect():
    """Print the CUDA devices found (none) and where kernels run. Returns
    whether a supported GPU was found: False."""
    devices = list_devices()
    print(f"Found {len(devices)} CUDA devices")
    for line in summary():
        print(line[0].upper() + line[1:])
    print("Summary:")
    print(f"\t0/{len(devices)} devices are supported")
    return False
