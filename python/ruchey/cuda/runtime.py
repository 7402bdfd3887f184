"""Devices, streams, events and the choice of backend.

Kernels run on a CUDA GPU when the driver (libcuda.so.1, loaded on first
use) finds one, otherwise on ruchey's CPU backend; ``RUCHEY_CUDA_BACKEND``
(read at each launch) overrides: ``cpu`` forces the CPU backend, ``gpu``
requires a GPU. On the CPU backend a launch returns when every thread has
finished, so streams and events keep numba-cuda's API with nothing to wait
for; on the GPU they are the driver's.
"""
import collections
import contextlib
import functools
import itertools
import os
import platform
import time

from ruchey import _core


class CudaSupportError(RuntimeError):
    """The requested CUDA support (a GPU backend) is not available."""


CudaError = _core.CudaError  # an error reported by the CUDA driver

_BACKEND_VAR = "RUCHEY_CUDA_BACKEND"


def backend():
    """The backend $RUCHEY_CUDA_BACKEND asks for (read at each launch): "cpu",
    "gpu", or "" (unset: the GPU if there is one)."""
    raw = _core.cuda_backend_variable()
    if not raw:
        return ""
    value = raw.strip().lower()
    if value not in ("", "cpu", "gpu"):
        raise ValueError(f"{_BACKEND_VAR} must be 'cpu' or 'gpu', got {raw!r}")
    return value


@functools.lru_cache(maxsize=None)
def gpu_problem():
    """Why kernels cannot run on a GPU ("" when they can): the driver is
    loaded and asked for devices once per process."""
    try:
        _core.cuda_driver()
        if _core.cuda_device_count() == 0:
            return "the CUDA driver found no GPU"
        _core.cuda_current_device()  # the first device's context, made current
    except CudaError as exc:
        return str(exc)
    return ""


def use_gpu():
    """Whether the next launch or allocation goes to the GPU; raises
    CudaSupportError when RUCHEY_CUDA_BACKEND=gpu but no GPU can be used."""
    choice = backend()
    if choice == "cpu":
        return False
    problem = gpu_problem()
    if choice == "gpu" and problem:
        raise CudaSupportError(
            f"{_BACKEND_VAR}=gpu, but no GPU can be used: {problem}. Unset {_BACKEND_VAR} "
            f"(or set it to 'cpu') to run kernels on the CPU backend")
    return not problem


def is_available():
    """Whether kernels can run: on a CUDA GPU (a driver and a device were
    found), or on the CPU backend chosen on purpose (RUCHEY_CUDA_BACKEND=cpu,
    as Numba's simulator, NUMBA_ENABLE_CUDASIM=1, says True)."""
    try:
        if backend() == "cpu":
            return True
    except ValueError:  # an invalid choice: its launches raise, not this question
        pass
    return not gpu_problem()


def synchronize():
    """Wait for every launch and copy to finish (on the CPU backend they
    already have)."""
    if not gpu_problem():
        _core.cuda_synchronize()


# ---------------------------------------------------------------- streams

_handles = itertools.count(1)


class Stream:
    """A CUDA stream (cuda.stream()). On the GPU, launches and copies queue
    on it; on the CPU backend work completes before the call that queued it
    returns, so it has nothing to wait for. ``handle`` is the driver's
    handle on the GPU (0: the default stream)."""

    def __init__(self, handle=None, kind="user"):
        self._owned = handle is None and use_gpu()
        if self._owned:
            handle = _core.cuda_stream_create()
        self._gpu = self._owned or (kind == "external" and use_gpu())  # a driver's stream, ours or not
        self.handle = next(_handles) if handle is None else handle
        self._kind = kind

    def __del__(self):
        if getattr(self, "_owned", False):
            with contextlib.suppress(Exception):  # at exit the driver may be gone
                _core.cuda_stream_destroy(self.handle)

    def __repr__(self):
        what = "stream" if self._kind == "user" else f"{self._kind} stream"
        where = "on the GPU" if self._gpu else "on the ruchey CPU backend"
        return f"<CUDA {what} {self.handle:#x} {where}>"

    def synchronize(self):
        """Wait until the work queued on this stream is done."""
        if self._gpu:
            _core.cuda_stream_synchronize(self.handle)
        elif self.handle == 0 and not gpu_problem():
            _core.cuda_stream_synchronize(0)

    @contextlib.contextmanager
    def auto_synchronize(self):
        """A context that synchronizes the stream when it exits."""
        yield self
        self.synchronize()

    def add_callback(self, callback, arg=None):
        """Call ``callback(stream, status, arg)`` once the queued work is done:
        after synchronizing, with status None (success)."""
        self.synchronize()
        callback(self, None, arg)


_default_stream = Stream(0, "default")
_legacy_default_stream = Stream(0, "legacy default")
_per_thread_default_stream = Stream(0, "per-thread default")


def stream():
    """A new stream, for launches (kernel[griddim, blockdim, stream]) and copies."""
    return Stream()


def external_stream(ptr):
    """A Stream for a stream made elsewhere (CuPy's, PyTorch's): the driver's
    handle ``ptr``, used and never destroyed here (on the CPU backend a name
    for it: work there completes as it is queued)."""
    if not isinstance(ptr, int) or isinstance(ptr, bool) or ptr < 0:
        raise TypeError(f"external_stream takes a stream's handle (an int), got {ptr!r}")
    return Stream(ptr, "external")


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


def stream_handle(stream):
    """The driver's handle of a launch's or copy's stream (0: the default)."""
    return stream.handle if isinstance(stream, Stream) and stream._gpu else 0


# ---------------------------------------------------------------- events

class Event:
    """A CUDA event (cuda.event()). On the GPU it is the driver's; on the CPU
    backend it records the host time at record()."""

    def __init__(self, timing=True):
        self.timing = bool(timing)
        self._time = None
        self._handle = _core.cuda_event_create(self.timing) if use_gpu() else None

    def __del__(self):
        if getattr(self, "_handle", None) is not None:
            with contextlib.suppress(Exception):
                _core.cuda_event_destroy(self._handle)

    def record(self, stream=0):
        check_stream(stream)
        self._time = time.perf_counter()
        if self._handle is not None:
            _core.cuda_event_record(self._handle, stream_handle(stream))

    def synchronize(self):
        """Wait for the event to complete."""
        if self._handle is not None:
            _core.cuda_event_synchronize(self._handle)

    def wait(self, stream=0):
        """Make ``stream`` wait for this event."""
        check_stream(stream)
        if self._handle is not None:
            _core.cuda_stream_wait_event(stream_handle(stream), self._handle)

    def query(self):
        """Whether the work before the event is done."""
        return True if self._handle is None else _core.cuda_event_query(self._handle)

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
    if evtstart._handle is not None and evtend._handle is not None:
        return _core.cuda_event_elapsed_time(evtstart._handle, evtend._handle)
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
    MAX_COOPERATIVE_BLOCKS = 4096  # a grid that waits for itself: each block a fiber (fiber.c)
    # one engine, one address space: code that keeps a stream per copy engine
    # (frbb's fit) gets one stream; the launches and copies run in turn
    ASYNC_ENGINE_COUNT = 1
    CONCURRENT_KERNELS = 1
    UNIFIED_ADDRESSING = 1
    # (numba-cuda's: the narrow float types kernels compute in on it; ruchey has float16 alone)
    supports_float16 = True
    supports_bfloat16 = False
    supports_fp8 = False

    @property
    def name(self):
        return f"ruchey CPU backend ({cpu_model()})"

    @property
    def MULTIPROCESSOR_COUNT(self):
        return num_threads()

    def reset(self):
        """Release the device's resources (there are none to release)."""

    def __enter__(self):  # with cuda.gpus[0]: the one device, always current
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return f"<CUDA device {self.id} '{self.name}'>"


class GPUDevice:
    """A CUDA GPU as numba-cuda's Device describes it: id, name,
    compute_capability, total memory and the driver's attributes."""

    def __init__(self, ordinal):
        info = _core.cuda_device_info(ordinal)
        self.id = ordinal
        self.name = info.pop("name")
        self.compute_capability = info.pop("compute_capability")
        self.total_memory = info.pop("total_memory")
        for key, value in info.items():
            setattr(self, key, value)

    @property
    def supports_float16(self):
        """Whether kernels compute in float16 on it (half arithmetic: sm_53 and newer)."""
        return self.compute_capability >= (5, 3)

    supports_bfloat16 = supports_fp8 = False  # (types ruchey does not have, on any device)

    def reset(self):
        """Wait for the device's work (its memory is freed with its arrays)."""
        _core.cuda_synchronize()

    def __enter__(self):
        """with cuda.gpus[i]: kernels and arrays go to this GPU until the block ends."""
        self._previous = _core.cuda_current_device()
        select_device(self.id)
        return self

    def __exit__(self, *exc):
        select_device(self._previous)
        return False

    def __repr__(self):
        return f"<CUDA device {self.id} '{self.name}'>"


_device = CPUBackendDevice()


@functools.lru_cache(maxsize=None)
def _gpu_device(ordinal):
    return GPUDevice(ordinal)


def get_current_device():
    """The device kernels run on: the current GPU, or the CPU backend."""
    if use_gpu():
        return _gpu_device(_core.cuda_current_device())
    return _device


MemoryInfo = collections.namedtuple("MemoryInfo", "free total")


class _Deallocations:
    """numba-cuda defers freeing device memory; ruchey frees an array's
    memory when the array goes, so there is nothing pending to clear."""

    def clear(self):
        """Free the pending deallocations (there are none)."""

    def __len__(self):
        return 0


class Context:
    """The current device's context, as numba-cuda's current_context()
    gives it: memory information, synchronisation and reset."""

    def __init__(self, device):
        self.device = device
        self.deallocations = _Deallocations()

    def get_memory_info(self):
        """(free, total) bytes of the device's memory: the GPU's, or on the
        CPU backend the host's (its available and physical memory)."""
        if isinstance(self.device, GPUDevice):
            return MemoryInfo(*_core.cuda_mem_info())
        page = os.sysconf("SC_PAGE_SIZE")
        return MemoryInfo(os.sysconf("SC_AVPHYS_PAGES") * page, os.sysconf("SC_PHYS_PAGES") * page)

    def synchronize(self):
        """Wait for the device's work."""
        synchronize()

    def defer_cleanup(self):
        """numba-cuda's context in which freeing device memory waits until
        it ends; here the same as cuda.defer_cleanup()."""
        return defer_cleanup()

    def reset(self):
        """Release the device's resources."""
        self.device.reset()

    def __repr__(self):
        return f"<CUDA context for {self.device!r}>"


def current_context(devnum=None):
    """The context of the current device (or of device devnum, made current)."""
    return Context(select_device(devnum) if devnum is not None else get_current_device())


def select_device(device_id=0):
    """Select the device kernels run on: a GPU by its number, or 0 for the
    CPU backend when there is no GPU."""
    if use_gpu():
        _core.cuda_select_device(device_id)
        return _gpu_device(device_id)
    if device_id != 0:
        raise CudaSupportError(f"no device {device_id!r}: kernels run on the CPU backend "
                               "(device 0)")
    return _device


def list_devices():
    """The CUDA GPUs found."""
    if gpu_problem():
        return []
    return [_gpu_device(i) for i in range(_core.cuda_device_count())]


class _Gpus:
    """cuda.gpus: the devices kernels can run on (the GPUs, or the CPU
    backend alone), each a context manager that makes it current."""

    def _devices(self):
        return list_devices() if use_gpu() else [_device]

    def __getitem__(self, index):
        return self._devices()[index]

    def __len__(self):
        return len(self._devices())

    def __iter__(self):
        return iter(self._devices())

    @property
    def current(self):
        return get_current_device()

    def __repr__(self):
        return f"<cuda.gpus: {self._devices()!r}>"


gpus = _Gpus()


def profile_start():
    """Start the CUDA profiler's collection (nothing on the CPU backend)."""
    if use_gpu():
        _core.cuda_profiler(True)


def profile_stop():
    """Stop the CUDA profiler's collection (nothing on the CPU backend)."""
    if use_gpu():
        _core.cuda_profiler(False)


@contextlib.contextmanager
def profiling():
    """A context in which the CUDA profiler collects."""
    profile_start()
    try:
        yield
    finally:
        profile_stop()


@contextlib.contextmanager
def defer_cleanup():
    """numba-cuda's context that holds deallocations until it ends. ruchey
    frees an array's memory when the array goes and keeps no queue to
    hold, so the block runs as it is."""
    yield


def close():
    """Wait for the device's work; memory is freed with its arrays."""
    synchronize()


def summary():
    """Lines that say where kernels run, for detect() and python -m ruchey -s."""
    try:
        gpu = use_gpu()
    except (ValueError, CudaSupportError) as exc:
        return [str(exc)]
    if gpu:
        dev = get_current_device()
        return [f"kernels run on the GPU: device {dev.id}, {dev.name}"]
    lines = [f"kernels run on the CPU backend with {num_threads()} threads ({cpu_model()})"]
    if backend() != "cpu" and gpu_problem():
        lines.append(f"no GPU: {gpu_problem()}")
    return lines


def detect():
    """Print the CUDA devices found (name, compute capability, memory,
    multiprocessors) and where kernels run. Returns whether a supported GPU
    was found."""
    devices = list_devices()
    print(f"Found {len(devices)} CUDA devices")
    for dev in devices:
        major, minor = dev.compute_capability
        print(f"id {dev.id}    {dev.name!r:<40} [SUPPORTED]")
        print(f"{'Compute Capability':>40}: {major}.{minor}")
        print(f"{'Memory':>40}: {dev.total_memory / 2**30:.1f} GiB")
        print(f"{'Multiprocessors':>40}: {dev.MULTIPROCESSOR_COUNT}")
    for line in summary():
        print(line[0].upper() + line[1:])
    print("Summary:")
    print(f"\t{len(devices)}/{len(devices)} devices are supported")
    return bool(devices)
