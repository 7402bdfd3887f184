"""cuda.jit: kernels, their launch configurations, and device functions."""
import collections.abc
import enum
import functools
import math
import numbers
import pickle
import sys
import threading
import warnings

import numpy as np

from ruchey import _core, decorators, extending, inspection, serialize, types
from ruchey.cuda.devicearray import (DeviceNDArray, DeviceRecord, _DeviceData, as_cuda_array, device_array_like,
                                     to_device)
from ruchey.cuda import launchconfig
from ruchey.cuda.runtime import CPUBackendDevice, CudaError, CudaSupportError, check_stream, stream_handle, use_gpu

MISSING_LAUNCH_CONFIG = """
Kernel launch configuration was not specified. Use the syntax:

kernel_function[blockspergrid, threadsperblock](arg0, arg1, ..., argn)

or kernel_function[blockspergrid, threadsperblock, stream, dynamic_shared_memory_bytes](...).
"""

_MAX_BLOCK = (CPUBackendDevice.MAX_BLOCK_DIM_X, CPUBackendDevice.MAX_BLOCK_DIM_Y,
              CPUBackendDevice.MAX_BLOCK_DIM_Z)
_MAX_GRID = (CPUBackendDevice.MAX_GRID_DIM_X, CPUBackendDevice.MAX_GRID_DIM_Y,
             CPUBackendDevice.MAX_GRID_DIM_Z)
_MAX_THREADS = CPUBackendDevice.MAX_THREADS_PER_BLOCK


def _dim3(dim, name, limits):
    """An int or a sequence of 1-3 ints as a 3-tuple padded with 1s, checked
    against CUDA's limits."""
    if dim is None:
        raise ValueError(MISSING_LAUNCH_CONFIG)
    dims = list(dim) if isinstance(dim, (tuple, list)) else [dim]
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"{name} must be a sequence of 1, 2 or 3 integers, got {dims!r}")
    for v in dims:
        if not isinstance(v, numbers.Integral) or isinstance(v, (bool, np.bool_)):
            raise TypeError(f"{name} must be a sequence of integers, got {dims!r}")
    dims = [int(v) for v in dims] + [1] * (3 - len(dims))
    for axis, v, limit in zip("xyz", dims, limits):
        if v <= 0:
            raise ValueError(f"{name} must be positive in every dimension, got "
                             f"{name}.{axis} = {v}")
        if v > limit:
            raise ValueError(f"{name}.{axis} = {v} exceeds CUDA's limit of {limit}")
    return tuple(dims)


def _plain(dim):
    return type(dim) is int or (type(dim) is tuple and all(type(v) is int for v in dim))


def _plain_config(config):
    """Whether kernel[...] was given ints and tuples of ints alone (the
    default stream, 0, among them)."""
    return all(map(_plain, config))


_checked_dims = {}  # (griddim, blockdim) of plain ints -> the checked 3-tuples


def normalize_kernel_dimensions(griddim, blockdim):
    """(griddim, blockdim) as two checked 3-tuples. Those written as ints or
    tuples of ints are checked once: a launch in a loop finds them here."""
    plain = _plain(griddim) and _plain(blockdim)
    if plain:
        dims = _checked_dims.get((griddim, blockdim))
        if dims is not None:
            return dims
    dims = _normalize(griddim, blockdim)
    if plain and len(_checked_dims) < 4096:
        _checked_dims[griddim, blockdim] = dims
    return dims


def _normalize(griddim, blockdim):
    if griddim is None or blockdim is None:
        raise ValueError(MISSING_LAUNCH_CONFIG)
    griddim = _dim3(griddim, "griddim", _MAX_GRID)
    blockdim = _dim3(blockdim, "blockdim", _MAX_BLOCK)
    threads = blockdim[0] * blockdim[1] * blockdim[2]
    if threads > _MAX_THREADS:
        raise ValueError(f"blockdim {blockdim} has {threads} threads; a block has at most "
                         f"{_MAX_THREADS}")
    return griddim, blockdim


_SCALARS = (int, float, complex, np.number, np.bool_, np.datetime64, np.timedelta64,
            enum.Enum)  # bool is an int; an enum member is its value


def _is_dtype(arg):
    """Whether arg is a NumPy scalar type or dtype (np.float64, np.dtype("int32")): a
    kernel takes it as a constant of its type (cuda.local.array(n, dtype) with it), as
    numba-cuda does; it is in no parameter at run time."""
    return isinstance(arg, np.dtype) or (isinstance(arg, type) and issubclass(arg, np.generic))


def _bad_argument(arg, index):
    return TypeError(
        f"kernel argument {index} has unsupported type {type(arg).__name__}: a kernel takes "
        "NumPy arrays, device arrays (cuda.to_device, cuda.device_array, or any array with "
        "__cuda_array_interface__ on a GPU), scalars (Python int, float, complex, bool, NumPy "
        "numbers, datetime64 and timedelta64), None, NumPy scalar types and dtypes (np.float32), and tuples "
        "(named or not) of these")


class ArgHint:
    """numba-cuda's hint of how a launch moves a host array: cuda.In, cuda.Out, cuda.InOut."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"{type(self).__name__}({self.value!r})"


class In(ArgHint):
    """A host array the kernel only reads: copied to the device, never back
    (the kernel's writes to it are lost, as in numba-cuda)."""


class Out(ArgHint):
    """A host array the kernel only writes: on the GPU not copied in, copied
    back after the launch."""


class InOut(ArgHint):
    """A host array copied in and back: what a launch does with one anyway."""


def wrap_arg(value, default=InOut):
    """value as an ArgHint: itself if it is one, else default(value) (numba-cuda's)."""
    return value if isinstance(value, ArgHint) else default(value)


def _hinted_cpu(arg):
    """What the CPU backend passes for a hinted array: In's a copy (writes to it are lost)."""
    if not isinstance(arg, In):
        return arg.value
    value = arg.value
    if isinstance(value, DeviceNDArray):
        return value
    return np.array(value, copy=True) if isinstance(value, np.ndarray) else value


def _hinted_gpu(arg, stream, back):
    """What a GPU launch passes for a hinted host array: a device array it made,
    copied in (In, InOut) and back after (Out, InOut); a device array as it is."""
    value = arg.value
    if not isinstance(value, np.ndarray) or isinstance(arg, InOut):
        return value  # (a host array: _gpu_args copies it in and back, as for any)
    if isinstance(arg, In):
        return to_device(np.array(value, order="K") if not (value.flags.c_contiguous or value.flags.f_contiguous)
                         else value, stream=stream)
    dev = device_array_like(value, stream=stream)
    back.append((value, dev))
    return dev


def _same_tuple(arg, items):
    """items as a tuple of arg's kind: a named tuple stays one (the kernel reads its fields)."""
    return type(arg)(*items) if hasattr(arg, "_fields") else items


def _cpu_args(args, back=None, index=None):
    """The arguments as the CPU backend takes them, and the GPU arrays among
    them with the host copies that stand in for them (copied back after).
    A tuple's items are taken the same way (index: the argument it is in)."""
    out, back = [], [] if back is None else back
    for i, arg in enumerate(args):
        if isinstance(arg, ArgHint):
            arg = _hinted_cpu(arg)
        if isinstance(arg, tuple):
            arg = _same_tuple(arg, _cpu_args(arg, back, i if index is None else index)[0])
        elif arg is None:
            pass
        elif isinstance(arg, DeviceRecord) and arg._mem is None:
            arg = arg._ary[()]  # the record itself, a view of its memory: taken by reference
        elif isinstance(arg, DeviceNDArray):
            if arg._mem is None:
                arg = arg._ary
            else:
                host = arg.copy_to_host()
                back.append((arg, host))
                arg = host
        elif isinstance(arg, np.ndarray):  # mapped and managed arrays too: the host reads them
            arg = arg.view(np.ndarray) if type(arg) is not np.ndarray else arg
        elif hasattr(arg, "__cuda_array_interface__"):
            raise TypeError(f"kernel argument {i if index is None else index} ({type(arg).__name__}) "
                            "is in a GPU's memory, and kernels run on the CPU backend here")
        elif not (isinstance(arg, (np.ndarray, np.void) + _SCALARS) or _is_dtype(arg)):  # a record: by reference
            raise _bad_argument(arg, i if index is None else index)
        out.append(arg)
    return tuple(out), back


def _gpu_args(args, stream, back=None, index=None):
    """The arguments as the GPU takes them, and the host arrays among them
    with the device copies that stand in for them: copied in now and back
    after the launch, as numba-cuda does. A tuple's items are taken the same
    way (index: the argument it is in)."""
    out, back = [], [] if back is None else back
    for i, arg in enumerate(args):
        if isinstance(arg, ArgHint):
            arg = _hinted_gpu(arg, stream, back)
        if isinstance(arg, tuple):
            arg = _same_tuple(arg, _gpu_args(arg, stream, back, i if index is None else index)[0])
        elif arg is None:
            pass
        elif isinstance(arg, DeviceRecord):
            raise TypeError(f"kernel argument {i if index is None else index} is a device record, which a kernel "
                            "takes on the CPU backend only: on the GPU, pass a structured device array (of one "
                            "element) and index it in the kernel")
        elif isinstance(arg, DeviceNDArray) and arg.on_gpu:
            pass
        elif isinstance(arg, np.ndarray) and getattr(arg, "_mem", None) is not None:
            arg = as_cuda_array(arg)  # mapped or managed: the GPU uses it where it is
        elif isinstance(arg, (np.ndarray, DeviceNDArray)):
            host = arg._ary if isinstance(arg, DeviceNDArray) else arg
            staged = host if host.flags.c_contiguous or host.flags.f_contiguous else \
                np.array(host, order="K")
            arg = to_device(staged, stream=stream)
            back.append((host, arg))
        elif hasattr(arg, "__cuda_array_interface__"):
            arg = as_cuda_array(arg)  # a CuPy array, a PyTorch tensor: used where it is
        elif isinstance(arg, np.void):
            raise TypeError(f"kernel argument {i if index is None else index} is a record (an element of a "
                            "structured array), which a kernel takes on the CPU backend only: on the GPU, pass "
                            "the structured array (or a slice of it) and index it in the kernel")
        elif not (isinstance(arg, _SCALARS) or _is_dtype(arg)):  # (a dtype: a parameter of no value)
            raise _bad_argument(arg, i if index is None else index)
        out.append(arg)
    return tuple(out), back


class _LaunchConfiguration:
    """kernel[griddim, blockdim, stream, sharedmem]: call it with the kernel's
    arguments to launch. ``pre_launch_callbacks`` (numba-cuda's): functions
    called as ``callback(kernel, launch_config)`` just before each launch,
    kernel being ``overloads[argument types]``; they must not launch work."""

    def __init__(self, dispatcher, griddim, blockdim, stream, sharedmem):
        self.dispatcher = dispatcher
        self.griddim = griddim
        self.blockdim = blockdim
        self.stream = stream
        self.sharedmem = sharedmem
        self.pre_launch_callbacks = []

    @property
    def args(self):
        """The arguments of this launch where it is compiling the kernel in this thread, else None."""
        config = launchconfig.current_launch_config()
        return config.args if config is not None and config.launch is self else None

    def __reduce__(self):
        if self.pre_launch_callbacks:
            raise pickle.PicklingError("Cannot pickle configured launches with pre-launch callbacks")
        return _configured, (self.dispatcher, self.griddim, self.blockdim, self.stream, self.sharedmem)

    def run_callbacks(self, args):
        """The pre-launch callbacks, each given the kernel for the arguments' types."""
        kernel = _Overload(self.dispatcher, _argument_types(args))
        for callback in list(self.pre_launch_callbacks):
            callback(kernel, self)

    def __call__(self, *args):
        args = self.dispatcher.with_defaults(args)
        if self.pre_launch_callbacks:
            self.run_callbacks(args)
        if self.dispatcher.array_params:
            args = _reread_arrays(args, self.dispatcher.array_params)
        writebacks = []
        if self.dispatcher.extensions:
            args = self.dispatcher.prepared_args(args, self.stream, writebacks)
        launch = self
        if self.dispatcher.watches_launches():
            launch = self.dispatcher.launch_for_config(self, args)
        if use_gpu() and not launch.dispatcher.checks_indices:
            launch.launch_gpu(args)
        else:
            launch.launch_cpu(args)
        for writeback in writebacks:
            writeback()

    def launch_cpu(self, args):
        """Run the kernel on the CPU backend: when it returns, every thread has."""
        if self.dispatcher.pointers:
            args = _pointed_arrays(args, self.dispatcher.pointers, False)
        args, back = _cpu_args(args)
        self.dispatcher._compiled()._launch(self.griddim, self.blockdim, self.sharedmem, args)
        for dev, host in back:
            dev.copy_to_device(host)

    def launch_gpu(self, args):
        """Launch the kernel on the GPU; it runs asynchronously unless host
        arrays have to be copied in and back, which the C dispatcher leaves
        to this function."""
        disp = self.dispatcher._compiled()
        if self.dispatcher.pointers:
            args = _pointed_arrays(args, self.dispatcher.pointers, True)
        stream = 0 if self.stream is None or type(self.stream) is int else stream_handle(self.stream)
        if disp._launch_gpu(self.griddim, self.blockdim, self.sharedmem, stream,
                            args) is not NotImplemented:
            return
        args, back = _gpu_args(args, self.stream)
        if disp._launch_gpu(self.griddim, self.blockdim, self.sharedmem, stream,
                            args) is NotImplemented:
            raise RuntimeError("internal error: a kernel argument is still not on the GPU")
        for host, dev in back:
            if host.flags.writeable:
                dev.copy_to_host(host)

    def __repr__(self):
        return (f"<launch of {self.dispatcher.__name__}[{self.griddim}, {self.blockdim}, "
                f"stream={self.stream!r}, sharedmem={self.sharedmem}]>")


def _configured(dispatcher, griddim, blockdim, stream, sharedmem):
    """A launch configuration unpickled: the kernel configured again."""
    return dispatcher.configure(griddim, blockdim, stream, sharedmem)


class CUDADispatcher:
    """A @cuda.jit kernel: launch it with ``kernel[griddim, blockdim](*args)``.

    It is compiled for the types of its arguments at the first launch with
    them: to PTX for the GPU when there is one, else for the CPU backend,
    where each thread of each block runs the function, with cuda.threadIdx,
    cuda.blockIdx, ... telling which. Kernels compiled with debug=True or
    boundscheck=True run on the CPU backend, which reports an out-of-range
    index with the thread and block that made it: a GPU thread could only
    stop the kernel, which leaves the GPU's context unusable.
    """

    def __init__(self, py_func, debug=False, boundscheck=False, fastmath=False, cache=False, launch_bounds=None,
                 shared_memory_carveout=None, signatures=None, extensions=None, one_signature=False,
                 lineinfo=False, opt=True):
        self.py_func = py_func
        # numba-cuda's launch extensions: each maps (type, value) of every argument before a launch
        self.extensions = list(extensions or ())
        # compiled for these alone (when first compiled): a launch converts its arguments to the
        # signature that takes them (a TypeError where none does), as numba-cuda's
        self.declared_signatures = None if signatures is None else list(signatures)
        # parameters a declared signature types CPointer(dtype): index -> dtype (a launch passes an address)
        self.pointers = {i: t.dtype for sig in self.declared_signatures or () if not isinstance(sig, tuple)
                         for i, t in enumerate(types.parse_signature(sig).args) if isinstance(t, types.CPointer)}
        # compiled for one signature alone (cuda.jit(signature), specialize()): numba-cuda launches such a kernel
        # with its arguments as they are, an array of another dtype read as the signature's (_reread_arrays)
        self.one_signature = bool(one_signature) and signatures is not None and len(signatures) == 1
        self.array_params = _array_params(signatures[0]) if self.one_signature else ()
        self.launch_bounds = _launch_bounds(launch_bounds)
        self.shared_memory_carveout = _carveout(shared_memory_carveout)
        self.debug = bool(debug)
        self.boundscheck = bool(boundscheck)
        self.fastmath = bool(fastmath)
        self.lineinfo = bool(lineinfo)  # its PTX with the source's lines (.file and .loc directives)
        self.opt = bool(opt)  # its PTX optimised (numba-cuda's opt=False: not, locals in local memory, no FMA)
        self.cache = bool(cache)  # the CPU backend's code and the PTX on disk, as @njit(cache=True)
        self.checks_indices = self.debug or self.boundscheck  # then it runs on the CPU backend
        self._disp = None
        self.specialized = signatures is not None  # compiled for signatures alone (cuda.jit's, or specialize's)
        self.specializations = {}  # argument types -> the kernel specialize() made for them
        self._device = None  # the device function compiled code calls (device_function)
        self._retired = []  # C dispatchers recompile() replaced
        self._configs = {}  # kernel[...] of plain ints and the default stream -> its launch
        # a compile marked launch-config sensitive (launchconfig): this kernel is for the first configuration
        # launched since, each other (grid, block, sharedmem) gets a kernel of its own
        self._launch_config_sensitive = False
        self._launch_config_key = None
        self._launch_config_specializations = {}
        self._sensitive_signatures = set()  # argument types compiled while marked sensitive
        self._lock = threading.RLock()  # (a kernel compiled for its signatures may call itself: device_function)
        functools.update_wrapper(self, py_func)

    def _compiled(self):
        """The C dispatcher (made at the first launch)."""
        disp = self._disp
        if disp is None:
            with self._lock:
                if self._disp is None:
                    options = dict(kernel=True, boundscheck=self.boundscheck, debug=self.debug,
                                   error_model="python" if self.debug else "numpy",
                                   launch_bounds=self.launch_bounds)
                    if self.fastmath:
                        options["fastmath"] = True
                    if self.lineinfo or self.debug:  # (numba-cuda's debug=True writes the lines too)
                        options["lineinfo"] = True
                    if not self.opt:
                        options["opt"] = False
                    disp = _core.Dispatcher(self.py_func, **options)
                    functools.update_wrapper(disp, self.py_func)
                    if self.cache:
                        from ruchey import caching
                        caching.refuse_captured_device_arrays(self.py_func)
                        disp._cache = caching.FunctionCache(self.py_func, options)
                    if self.declared_signatures is not None:
                        decorators._compile_only(disp, [_without_pointers(s) for s in self.declared_signatures])
                    self._disp = disp
                disp = self._disp
        return disp

    def watches_launches(self):
        """Whether a launch must see its compile (numba-cuda's launch configuration hook): the
        kernel's ``_compile_for_args`` was replaced, or a compile marked it launch-config sensitive."""
        return self._launch_config_sensitive or "_compile_for_args" in vars(self)

    def launch_for_config(self, launch, args):
        """The launch to run for a watched kernel: its own, or one of the kernel made for this
        launch's configuration where it is launch-config sensitive; compiled first, where it is not
        for these arguments' types, by ``_compile_for_args`` with the configuration current."""
        kernel, runs = self, launch
        key = (launch.griddim, launch.blockdim, launch.sharedmem)
        if self._launch_config_sensitive:
            if self._launch_config_key is None:
                self._launch_config_key = key
            elif key != self._launch_config_key:
                kernel = self._for_launch_config(key)
                runs = _LaunchConfiguration(kernel, launch.griddim, launch.blockdim, launch.stream, launch.sharedmem)
        argtypes = _argument_types(args)
        if kernel._disp is None or argtypes not in kernel._disp.signatures:
            config = launchconfig.LaunchConfig(kernel, launch, args)
            with launchconfig.launching(config):
                kernel._compile_for_args(*args)
                if config.sensitive or kernel is not self:  # (a configuration's own kernel is sensitive)
                    kernel._note_sensitive(argtypes, key)
        return runs

    def _for_launch_config(self, key):
        """The kernel, launch-config sensitive, for one configuration (grid, block, sharedmem)."""
        with self._lock:
            kernel = self._launch_config_specializations.get(key)
            if kernel is None:
                kernel = CUDADispatcher(self.py_func, debug=self.debug, boundscheck=self.boundscheck,
                                        fastmath=self.fastmath, cache=self.cache, launch_bounds=self.launch_bounds,
                                        shared_memory_carveout=self.shared_memory_carveout,
                                        signatures=self.declared_signatures, extensions=self.extensions,
                                        one_signature=self.one_signature, lineinfo=self.lineinfo, opt=self.opt)
                kernel._launch_config_sensitive = True
                kernel._launch_config_key = key
                self._launch_config_specializations[key] = kernel
            return kernel

    def _compile_for_args(self, *args):
        """The kernel compiled now for the types of args (a launch's arguments), as a launch that
        finds none compiled for them calls it (numba-cuda's hook: code wrapping it reads the
        launch's configuration, ``launchconfig.current_launch_config()``)."""
        argtypes = _argument_types(self.with_defaults(args))
        decorators._compile_signatures(self._compiled(), [types.void(*argtypes)])
        return _Overload(self, argtypes)

    def mark_launch_config_sensitive(self):
        """Marks the compile a launch of this kernel is making as depending on the launch's
        configuration (numba-cuda's): the kernel is compiled again for each other grid, block and
        dynamic shared memory it is launched with. A RuntimeError outside such a compile."""
        config = launchconfig.ensure_current_launch_config()
        if config.dispatcher is not self:
            raise RuntimeError("mark_launch_config_sensitive() must be called on the active launch "
                               "configuration's dispatcher")
        config.sensitive = True

    def _note_sensitive(self, argtypes, key):
        self._sensitive_signatures.add(argtypes)
        if not self._launch_config_sensitive:
            self._launch_config_sensitive = True
            self._launch_config_key = key

    def prepared_args(self, args, stream, writebacks):
        """The arguments as the extensions map them, the last extension first (numba-cuda's
        prepare_args(ty, val, stream=, retr=)); writebacks gets what they ask to run after the
        launch."""
        prepared = []
        for value in args:
            try:
                ty = types.typeof(value)
            except (TypeError, ValueError):
                ty = None
            for extension in reversed(self.extensions):
                ty, value = extension.prepare_args(ty, value, stream=stream, retr=writebacks)
            prepared.append(value)
        return tuple(prepared)

    def recompile(self):
        """Every specialisation compiled again, reading the globals anew (numba-cuda's
        recompile()); the launches after it run the new code."""
        with self._lock:
            compiled = self.signatures
            if self._disp is not None:  # kept: the GPU may still be running its code, queued on a stream
                self._retired.append(self._disp)
            self._disp = self._device = None
            disp = self._compiled()
            if not self.specialized and compiled:
                decorators._compile_signatures(disp, compiled)

    def compile(self, sig):
        """The kernel compiled now for sig's argument types (a signature, or a
        tuple of types; a kernel returns nothing), as numba-cuda's: its
        ``overloads[sig]``. A kernel compiled for its signatures alone gives
        its one compiled kernel."""
        parsed = types.parse_signature(_without_pointers(sig))
        if parsed.return_type is not None and not isinstance(parsed.return_type, types.NoneType):
            raise TypeError("CUDA kernel must have void return type.")
        if self.specialized:
            return _Overload(self, self.signatures[0])
        decorators._compile_signatures(self._compiled(), [types.void(*parsed.args)])
        return _Overload(self, tuple(parsed.args))

    def specialize(self, *args):
        """The kernel compiled for these arguments' types (or these types)
        alone, made once for each."""
        if self.specialized:
            raise RuntimeError("Dispatcher already specialized")
        argtypes = tuple(a if isinstance(a, types.Type) else types.typeof(a) for a in args)
        kernel = self.specializations.get(argtypes)
        if kernel is None:
            kernel = CUDADispatcher(self.py_func, debug=self.debug, boundscheck=self.boundscheck,
                                    fastmath=self.fastmath, cache=self.cache, launch_bounds=self.launch_bounds,
                                    shared_memory_carveout=self.shared_memory_carveout, signatures=[argtypes],
                                    extensions=self.extensions, one_signature=True, lineinfo=self.lineinfo,
                                    opt=self.opt)
            kernel._compiled()
            self.specializations[argtypes] = kernel
        return kernel

    def device_function(self):
        """The kernel's function as a device function (made when compiled
        code first calls the kernel), returning what the function returns."""
        with self._lock:
            if self._device is None:
                self._device = _device_function(self.py_func, self.debug, self.boundscheck, self.fastmath,
                                                opt=self.opt)
        return self._device

    def __reduce__(self):
        options = dict(debug=self.debug, boundscheck=self.boundscheck, fastmath=self.fastmath, cache=self.cache,
                       launch_bounds=self.launch_bounds, shared_memory_carveout=self.shared_memory_carveout,
                       signatures=self.declared_signatures, extensions=self.extensions,
                       one_signature=self.one_signature, lineinfo=self.lineinfo, opt=self.opt)
        return serialize.reduce(self, "cuda", options)

    def __call__(self, *args, **kwargs):
        raise ValueError(MISSING_LAUNCH_CONFIG)

    def with_defaults(self, args):
        """The launch's arguments with the parameters' defaults after them
        (``def kernel(a, scale=None)`` launched as ``kernel[g, b](a)``)."""
        defaults = self.py_func.__defaults__
        if not defaults:
            return args
        nparams = self.py_func.__code__.co_argcount
        missing = nparams - len(args)
        if missing <= 0 or missing > len(defaults):
            return args
        return args + defaults[len(defaults) - missing:]

    def __getitem__(self, config):
        try:  # a configuration launched before: kernel[blocks, threads] in a loop
            launch = self._configs.get(config)
        except TypeError:  # holding a list: unhashable
            launch = None
        if launch is not None and _plain_config(config) and not launch.pre_launch_callbacks:  # (4.0 == 4: refused)
            return launch
        if not isinstance(config, tuple) or len(config) not in (2, 3, 4):
            raise ValueError("must specify at least the griddim and blockdim: "
                             "kernel[griddim, blockdim], kernel[griddim, blockdim, stream] or "
                             "kernel[griddim, blockdim, stream, dynamic_shared_memory_bytes]")
        launch = self.configure(*config)
        if _plain_config(config) and len(self._configs) < 256:  # (replacing one given callbacks)
            self._configs[config] = launch
        return launch

    def configure(self, griddim, blockdim, stream=0, sharedmem=0):
        griddim, blockdim = normalize_kernel_dimensions(griddim, blockdim)
        if self.launch_bounds and math.prod(blockdim) > self.launch_bounds[0]:  # as the driver refuses it
            raise CudaError(f"CUDA_ERROR_INVALID_VALUE: blockdim {blockdim} has {math.prod(blockdim)} threads, more "
                            f"than the kernel's launch bounds allow ({self.launch_bounds[0]})")
        check_stream(stream)
        if not isinstance(sharedmem, numbers.Integral) or isinstance(sharedmem, bool):
            raise TypeError(f"the dynamic shared memory size must be an int (bytes), got "
                            f"{sharedmem!r}")
        if sharedmem < 0:
            raise ValueError(f"the dynamic shared memory size must be >= 0, got {sharedmem}")
        return _LaunchConfiguration(self, griddim, blockdim, stream, int(sharedmem))

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A 1-D launch of ``ntasks`` threads (the kernel checks ``cuda.grid(1) < ntasks``)."""
        if not isinstance(ntasks, numbers.Integral):
            raise ValueError(f"ntasks must be a non-negative int, got {ntasks!r}")
        if ntasks < 0:  # (numba-cuda's words)
            raise ValueError(f"Can't create ForAll with negative task count: {ntasks}")
        tpb = int(tpb) or 256
        if ntasks == 0:
            return lambda *args: None
        return self.configure((int(ntasks) + tpb - 1) // tpb, tpb, stream, sharedmem)

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0, signature=None):
        """The most blocks of ``blockdim`` threads (and ``dynsmemsize`` bytes of
        dynamic shared memory) a kernel that waits for its grid
        (``cuda.cg.this_grid().sync()``) may be launched with: on the GPU,
        as many as fit on it at once for the kernel compiled for
        ``signature`` (default: its first compiled one); on the CPU
        backend, where each block is a fiber, a fixed number."""
        threads = math.prod(blockdim) if isinstance(blockdim, (tuple, list)) else int(blockdim)
        if not use_gpu():
            return CPUBackendDevice.MAX_COOPERATIVE_BLOCKS
        described = None if signature is None else \
            tuple(t.describe() for t in types.parse_signature(signature).args)
        return self._compiled()._max_cooperative_blocks(described, threads, int(dynsmemsize))

    def _function_attribute(self, attr, signature):
        """The driver's CU_FUNC_ATTRIBUTE_* attr of the kernel compiled for
        signature's argument types (numba-cuda's get_regs_per_thread and
        kin): of its one signature when it was compiled for one alone, else
        a dict keyed by each GPU compile's signature."""
        if not use_gpu():
            raise CudaSupportError("the registers and memory of a kernel are what the CUDA driver reports of its "
                                   "GPU code, and kernels run on the CPU backend here")
        disp = self._compiled()
        if signature is None and self.specialized:
            signature = self.declared_signatures[0]
        if signature is not None:
            sig = _without_pointers(signature)
            args = sig if isinstance(sig, tuple) else types.parse_signature(sig).args
            return disp._function_attribute(tuple(t.describe() for t in args), attr)
        return inspection.BySignature((sig, disp._function_attribute(i, attr))
                                      for i, sig in enumerate(disp.gpu_signatures))

    def get_regs_per_thread(self, signature=None):
        """The registers each thread of the kernel uses (on the GPU)."""
        return self._function_attribute(4, signature)

    def get_const_mem_size(self, signature=None):
        """The kernel's bytes of constant memory (on the GPU)."""
        return self._function_attribute(2, signature)

    def get_shared_mem_per_block(self, signature=None):
        """The kernel's bytes of static shared memory per block (on the GPU)."""
        return self._function_attribute(1, signature)

    def get_local_mem_per_thread(self, signature=None):
        """The kernel's bytes of local memory per thread (on the GPU)."""
        return self._function_attribute(3, signature)

    def get_max_threads_per_block(self, signature=None):
        """The most threads a block of the kernel may have: the GPU's for its
        code; on the CPU backend, its launch bounds' or the backend's limit."""
        if use_gpu():
            return self._function_attribute(0, signature)
        most = self.launch_bounds[0] if self.launch_bounds else _MAX_THREADS
        if signature is not None or self.specialized:
            return most
        return inspection.BySignature((args, most) for args in self.signatures)

    @property
    def stats(self):
        """The on-disk cache's path and its hits and misses per signature
        (with cache=True), as an @njit function's."""
        return inspection.stats(self._compiled())

    @property
    def overloads(self):
        """numba-cuda's ``kernel.overloads[signature]``: the kernel compiled for
        a signature, here with its ``max_cooperative_grid_blocks``."""
        return _Overloads(self)

    @property
    def signatures(self):
        """The argument types of each compiled specialisation (declared ones
        compiled now if they are not yet: a kernel unpickled)."""
        if self._disp is None and self.declared_signatures is None:
            return []
        self._compiled()
        sigs = list(self._disp.signatures)
        return sigs + [s for s in self._disp.gpu_signatures if s not in sigs]

    def inspect_llvm(self, signature=None):
        """The LLVM IR of each compiled specialisation, as a dict (or that of
        ``signature``)."""
        if self._disp is None:
            return {} if signature is None else {}[signature]
        return self._disp.inspect_llvm(signature) if signature is not None else \
            inspection.BySignature(self._disp.inspect_llvm())

    def inspect_types(self, file=None):
        """The kernel's source annotated with the types of its variables, for
        each compiled specialisation, written to file (sys.stdout)."""
        if self._disp is not None or self.declared_signatures is not None:
            inspection.inspect_types(self._compiled(), file=file, kernel=True)

    def inspect_ptx(self, cc=(7, 5)):
        """The PTX of each compiled specialisation for compute capability cc,
        as a dict keyed by signature."""
        if self._disp is None:
            return {}
        return inspection.BySignature(self._disp.inspect_ptx(cc[0] * 10 + cc[1]))

    def inspect_asm(self, signature=None):
        """The PTX of each compiled specialisation for the current device's
        compute capability, as a dict (or that of ``signature``), as
        numba-cuda's: the GPU's code, also where kernels run on the CPU
        backend."""
        if self._disp is None:
            return {} if signature is None else {}[signature]
        return self._disp.inspect_asm(signature) if signature is not None else \
            inspection.BySignature(self._disp.inspect_asm())

    def inspect_sass(self, signature=None):
        """The SASS (the GPU's machine code) of each compiled specialisation
        for the current device, as a dict (or that of ``signature``), as
        numba-cuda's: its PTX assembled by the CUDA toolkit's ptxas and
        disassembled by its nvdisasm, with the source's lines."""
        if signature is not None:
            return _sass(self.inspect_asm(signature))
        return inspection.BySignature({sig: _sass(ptx) for sig, ptx in self.inspect_asm().items()})

    def __repr__(self):
        return f"<ruchey.cuda kernel {getattr(self, '__qualname__', self.py_func)}>"


class _Overload:
    """A kernel for one signature (numba-cuda's _Kernel, as far as it is used)."""

    def __init__(self, dispatcher, signature):
        self._dispatcher = dispatcher
        self.signature = signature

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        return self._dispatcher.max_cooperative_grid_blocks(blockdim, dynsmemsize, self.signature)

    @property
    def _type_annotation(self):
        """Numba's type annotation of the kernel: ``typemap``, each variable's type."""
        return inspection.TypeAnnotation(self._dispatcher._compiled(), self.signature, kernel=True)

    @property
    def launch_config_sensitive(self):
        """Whether its compile was marked as depending on its launch's configuration (launchconfig)."""
        return self._argtypes() in self._dispatcher._sensitive_signatures

    def _argtypes(self):
        sig = self.signature
        return tuple(sig) if isinstance(sig, tuple) else tuple(types.parse_signature(_without_pointers(sig)).args)

    def inspect_asm(self, cc=None):
        """Its PTX for compute capability cc (default: the current device's)."""
        if cc is None:
            return self._dispatcher.inspect_asm(self.signature)
        return self._dispatcher.inspect_ptx(cc)[self.signature]

    def inspect_sass(self):
        """Its SASS for the current device (ptxas and nvdisasm, as numba-cuda's)."""
        return _sass(self.inspect_asm())

    def inspect_llvm(self):
        """Its LLVM IR: the GPU's module, before optimisation (as numba-cuda's, the IR its NVVM is given)."""
        return self._dispatcher.inspect_llvm(self.signature)

    @property
    def cooperative(self):
        """Whether the kernel takes its grid group (cuda.cg.this_grid(), with or
        without its sync(), in it or in a device function it calls): numba-cuda's
        cooperative kernel, launched with all its blocks resident at once."""
        return _core._grid_sync(self._dispatcher.py_func, tuple(t.describe() for t in self._argtypes()))


class _Overloads(collections.abc.Mapping):
    """numba-cuda's ``kernel.overloads``: its compiled signatures (len, iter, in)
    and the kernel for each (``kernel.overloads[signature]``)."""

    def __init__(self, dispatcher):
        self._dispatcher = dispatcher

    def __getitem__(self, signature):
        types.parse_signature(signature)  # a TypeError now for what is no signature
        return _Overload(self._dispatcher, signature)

    def __len__(self):
        return len(self._dispatcher.signatures)

    def __iter__(self):
        return iter(self._dispatcher.signatures)

    def __contains__(self, signature):
        return tuple(signature) in self._dispatcher.signatures


# ---------------------------------------------------------------- cuda.jit

_IGNORED = {"forceinline", "max_registers", "lto"}  # (forceinline: read for device functions)
_CARVEOUTS = {"default": -1, "maxl1": 0, "maxshared": 100}


def _toolkit_program(name):
    """The CUDA toolkit's program name ($CUDA_HOME/bin, $CUDA_PATH/bin, the standard place, the PATH), or None."""
    import os
    import shutil
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        path = home and os.path.join(home, "bin", name)
        if path and os.access(path, os.X_OK):
            return path
    return shutil.which(name)


def _sass(ptx):
    """ptx assembled for its target by ptxas and disassembled by nvdisasm
    with its line information (numba-cuda's inspect_sass); a RuntimeError
    where the CUDA toolkit's programs are not found."""
    import os
    import re
    import subprocess
    import tempfile
    tools = {name: _toolkit_program(name) for name in ("nvdisasm", "ptxas")}
    for name, path in tools.items():
        if path is None:
            raise RuntimeError(f"{name} was not found: inspect_sass() assembles the PTX with the CUDA toolkit's "
                               "ptxas and disassembles it with its nvdisasm (install the toolkit or put them on the "
                               "PATH)")
    arch = re.search(r"^\.target\s+(sm_\w+)", ptx, re.M).group(1)
    with tempfile.TemporaryDirectory() as folder:
        source, cubin = os.path.join(folder, "kernel.ptx"), os.path.join(folder, "kernel.cubin")
        with open(source, "w") as fh:
            fh.write(ptx)
        done = subprocess.run([tools["ptxas"], f"-arch={arch}", source, "-o", cubin], capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"ptxas could not assemble the kernel's PTX: {done.stderr}")
        done = subprocess.run([tools["nvdisasm"], "-gi", cubin], capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"nvdisasm could not disassemble the kernel: {done.stderr}")
        return done.stdout


def _launch_bounds(bounds):
    """launch_bounds as a tuple: (max threads per block[, min blocks per
    multiprocessor[, max blocks per cluster]]); None for none. A launch of
    more threads per block is refused, as the driver refuses it; the GPU's
    code is compiled for them (its PTX's .maxntid and the others)."""
    if bounds is None:
        return None
    bounds = tuple(bounds) if isinstance(bounds, (tuple, list)) else (bounds,)
    if not 1 <= len(bounds) <= 3:
        raise ValueError(f"Got {len(bounds)} launch bounds: {bounds}. A maximum of three are supported: "
                         "(max_threads_per_block, min_blocks_per_sm, max_blocks_per_cluster)")
    if not all(isinstance(b, numbers.Integral) and not isinstance(b, bool) and b > 0 for b in bounds):
        raise ValueError(f"launch bounds must be positive integers, got {bounds}")
    return tuple(int(b) for b in bounds)


def _carveout(carveout):
    """shared_memory_carveout as numba-cuda reads it: a percentage of the
    unified L1/shared memory for shared memory (-1: the device's default),
    or "MaxL1", "MaxShared", "default"; None for none. A hint to the GPU's
    driver, which the CPU backend has no use for (and which the GPU launch
    does not pass on yet)."""
    if carveout is None:
        return None
    if isinstance(carveout, str):
        if carveout.lower() not in _CARVEOUTS:
            raise ValueError(f"Invalid carveout value: {carveout!r} (an int from -1 to 100, or 'MaxL1', "
                             "'MaxShared' or 'default')")
        return _CARVEOUTS[carveout.lower()]
    if not isinstance(carveout, numbers.Integral) or isinstance(carveout, bool) or not -1 <= carveout <= 100:
        raise ValueError(f"Carveout must be between -1 and 100, got {carveout!r}")
    return int(carveout)


def _is_function(obj):
    return callable(obj) and not isinstance(obj, (types.Type, types.NoneType))


def _without_pointers(sig):
    """sig with each CPointer(dtype) argument a 1-d C array of dtype: what the kernel
    takes for it (_pointed_arrays), of no known length (carray and farray shape it)."""
    if isinstance(sig, tuple):
        return sig
    parsed = types.parse_signature(sig)
    if not any(isinstance(t, types.CPointer) for t in parsed.args):
        return sig
    args = [t.dtype[::1] if isinstance(t, types.CPointer) else t for t in parsed.args]
    return (parsed.return_type or types.void)(*args)


def _address(arg, index):
    """A CPointer argument's address: an int, a ctypes pointer (POINTER(c_float), c_void_p: an
    array's device_ctypes_pointer)."""
    import ctypes
    if isinstance(arg, ctypes._Pointer):
        arg = ctypes.cast(arg, ctypes.c_void_p)
    value = arg.value if isinstance(arg, ctypes.c_void_p) else arg
    if value is None:  # (a NULL c_void_p)
        value = 0
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"kernel argument {index} is a pointer (CPointer in the signature): it takes an address "
                        f"(an int, or a ctypes pointer such as an array's device_ctypes_pointer), not "
                        f"{type(arg).__name__}")
    return int(value)


def _pointed_arrays(args, pointers, on_gpu):
    """The launch's arguments with each address given for a CPointer parameter made
    a 1-d array of its dtype at that address, of no known length: in the GPU's memory,
    or in this process's (the CPU backend's device arrays are)."""
    import ctypes  # (here: only a kernel with a pointer parameter needs it)
    args = list(args)
    for i, dtype in pointers.items():
        if i >= len(args):
            continue
        address, dtype = _address(args[i], i), np.dtype(str(dtype))
        length = (sys.maxsize // dtype.itemsize,)
        if on_gpu:  # memory another holds: the address stands for its owner, nothing is freed here
            mem = _core.DeviceMemory(0, address, address)
            args[i] = DeviceNDArray._wrap(np.asarray(_DeviceData(mem, address, length, (dtype.itemsize,), dtype)),
                                          0, mem)
        else:
            first = np.frombuffer((ctypes.c_char * dtype.itemsize).from_address(address), dtype, 1)
            args[i] = np.lib.stride_tricks.as_strided(first, length, (dtype.itemsize,))
    return tuple(args)


def _array_params(sig):
    """(index, NumPy dtype, ndim, layout) of each array parameter of numeric dtype in sig."""
    args = sig if isinstance(sig, tuple) else types.parse_signature(sig).args
    params = []
    for i, t in enumerate(args):
        if isinstance(t, types.Array):
            try:
                params.append((i, np.dtype(t.dtype.name), t.ndim, t.layout))
            except (TypeError, ValueError):  # (a record's: not reread)
                pass
    return tuple(params)


def _reread(ary, dtype, layout, index):
    """A contiguous array's memory read as dtype, as numba-cuda's kernel reads it: its
    pointer and shape, with its byte strides for an "A" parameter, or the strides a C
    or F array of dtype has (its code ignores the array's). A TypeError where that
    would read past the array's memory."""
    host = ary._ary if isinstance(ary, DeviceNDArray) else ary
    if not (host.flags.c_contiguous or host.flags.f_contiguous):
        return ary  # (the signature refuses it, as for any non-contiguous array)
    if layout in "CF":
        strides = tuple(dtype.itemsize * n for n in
                        _element_steps(host.shape[::-1] if layout == "C" else host.shape))
        strides = strides[::-1] if layout == "C" else strides
    else:
        strides = host.strides
    probe = np.lib.stride_tricks.as_strided(np.empty(1, dtype), host.shape, strides)  # (reads nothing)
    span = 0 if probe.size == 0 else sum((n - 1) * s for n, s in zip(host.shape, strides)) + dtype.itemsize
    if span > host.nbytes:
        raise TypeError(f"kernel argument {index} is an array of {host.dtype}, and the kernel's signature takes "
                        f"{dtype}: read as {dtype}, its memory is too short ({host.nbytes} bytes, {span} read)")
    view = np.asarray(_DeviceData(host, host.__array_interface__["data"][0], host.shape, strides, dtype))
    if not host.flags.writeable:
        view.flags.writeable = False
    return DeviceNDArray._wrap(view, ary.stream, ary._mem) if isinstance(ary, DeviceNDArray) else view


def _element_steps(shape):
    """Elements between consecutive indices of each axis, innermost axis first."""
    steps, step = [], 1
    for n in shape:
        steps.append(step)
        step *= max(n, 1)
    return steps


def _reread_arrays(args, params):
    """numba-cuda's launch of a kernel compiled for one signature alone: an array
    of another dtype (and the signature's number of dimensions) is passed as it
    is, its memory read as the signature's dtype (float64s read as float32s are
    their bytes' halves), not refused."""
    changed = None
    for i, dtype, ndim, layout in params:
        arg = args[i] if i < len(args) else None
        if isinstance(arg, (np.ndarray, DeviceNDArray)) and arg.dtype != dtype and arg.ndim == ndim:
            changed = changed or list(args)
            changed[i] = _reread(arg, dtype, layout, i)
    return args if changed is None else tuple(changed)


def _argument_types(args):
    """The types of a launch's arguments (an In/Out/InOut hint's: its array's)."""
    return tuple(types.typeof(a.value if isinstance(a, ArgHint) else a) for a in args)


def _check_kernel_signatures(sigs):
    """A kernel's signatures, checked (a kernel returns nothing); whether
    ruchey reads them all (one it cannot read yet leaves them all unused)."""
    readable = True
    for sig in sigs:
        try:
            parsed = types.parse_signature(sig)
        except TypeError:
            readable = False
            continue
        if parsed.return_type is not None and not isinstance(parsed.return_type, types.NoneType):
            raise TypeError("CUDA kernel must have void return type.")
    return readable


def _device_function(func, debug, boundscheck, fastmath, inline="never", opt=True, forceinline=False):
    """func as a device function: an njit function that kernels call, with
    numba-cuda's error model (Python's only with debug=True), whose
    inspect_asm() is its PTX (unoptimised without opt); with forceinline,
    always inlined into its callers on the GPU (LLVM's alwaysinline)."""
    options = dict(boundscheck=boundscheck or debug, error_model="python" if debug else "numpy", inline=inline)
    if fastmath:
        options["fastmath"] = True
    # compiled under RUCHEY_DISABLE_JIT too: kernels need them compiled
    disp = decorators._dispatcher(func, options, {} if opt else {"opt": False})
    disp._cuda_device = True
    disp._force_inline = bool(forceinline)
    return disp


def _inline_option(inline):
    """cuda.jit's inline= as numba-cuda checks it: "always", "never", a bool (True
    is "always"), or a cost model (a callable), which ruchey does not consult
    (LLVM decides what else to inline; the results are the same)."""
    if isinstance(inline, bool):
        return "always" if inline else "never"
    if (isinstance(inline, str) and inline in ("always", "never")) or (callable(inline) and not
                                                                        isinstance(inline, str)):
        return inline
    raise ValueError("kwarg 'inline' must be one of the strings 'always' or 'never', or it can be a callable "
                     f"that returns True/False. Found value {inline}")


serialize.register("cuda", CUDADispatcher)
# a kernel called from a kernel or a device function runs as a device function, as in numba-cuda
extending._register_callee_maker(CUDADispatcher, CUDADispatcher.device_function)

class ExternFunction:
    """What numba-cuda's cuda.declare_device returns: a device function written
    in CUDA C/C++ or PTX, its ``name`` and ``sig`` (a signature with a return
    type), the code to link (``link``), whether it needs a cooperative launch
    and its ABI ("numba" or "c"). Kernels on the CPU backend call it as a
    native function (Numba's WrapperAddressProtocol) of the host library its
    CUDA C/C++ sources compile to (ruchey.cuda.hostlink); a GPU kernel
    cannot call it (ruchey's PTX is not linked with other code)."""

    def __init__(self, name, sig, link, use_cooperative, abi):
        self.name, self.sig, self.link = name, sig, link
        self.use_cooperative, self.abi = use_cooperative, abi
        self._address = None

    def __repr__(self):
        return f"<ExternFunction {self.name!r} {self.sig}>"

    def __wrapper_address__(self):
        """The address of the host's C-ABI entry for the function: its own
        for abi="c", else one calling it with a slot for the result."""
        if self._address is None:
            from ruchey.cuda import hostlink
            c_abi = self.abi == "c"
            extra = "" if c_abi else hostlink.numba_abi_entry(self.name, self.sig)
            library = hostlink.load(self.link, extra)
            self._address = hostlink.address(library, self.name if c_abi else hostlink.ENTRY_PREFIX + self.name)
        return self._address

    def signature(self):
        return self.sig


def declare_device(name, sig, link=None, use_cooperative=False, abi="numba"):
    """numba-cuda's declaration of a device function written in CUDA C/C++ or
    PTX (its code linked in with ``link=``): an ExternFunction of that name and
    signature (a str or a signature, which must give the return type), which
    kernels cannot call here (see ExternFunction)."""
    if abi not in ("numba", "c"):
        raise NotImplementedError(f"Unsupported ABI: {abi}")
    link = () if link is None else tuple(link) if isinstance(link, (list, tuple, set)) else (link,)
    parsed = types.parse_signature(sig)
    if parsed.return_type is None:
        raise TypeError("Return type must be provided for device declarations")
    return ExternFunction(name, parsed, link, bool(use_cooperative), abi)


def _warn_debug_and_lineinfo():
    """numba-cuda's NumbaInvalidConfigWarning for debug=True with lineinfo=True
    (debug=True writes the lines already)."""
    from ruchey.numba_shim import _ERRORS  # (numba.core.errors' class, as code for Numba filters it)
    warnings.warn(_ERRORS["NumbaInvalidConfigWarning"](
        "debug and lineinfo are mutually exclusive. Use debug to get full debug info (this disables some "
        "optimizations), or lineinfo for line info only with code generation unaffected."), stacklevel=3)


def jit(func_or_sig=None, device=False, debug=None, boundscheck=None, fastmath=False, link=None,
        extensions=None, cache=False, launch_bounds=None, shared_memory_carveout=None, lineinfo=False,
        inline="never", opt=True, **kws):
    """Compile a function for CUDA: a kernel, or with ``device=True`` a
    device function that kernels call.

    ``@cuda.jit``, ``@cuda.jit(debug=True)``, ``@cuda.jit("void(float64[:])")``;
    kernels run on ruchey's CPU backend. ``debug=True`` checks for exceptions
    in the kernel (out-of-range indices raise IndexError naming the thread and
    block); ``boundscheck=True`` checks indices only. ``cache=True`` keeps the
    CPU backend's code and the PTX made for each compute capability on disk,
    as ``@njit(cache=True)`` does: a later process loads them without compiling.
    ``extensions`` (numba-cuda's): objects whose ``prepare_args(ty, val, stream=,
    retr=)`` maps each argument before a launch (the kernel's ``extensions`` list).
    ``lineinfo=True`` writes the source's lines into the kernel's PTX (its ``.file``
    and ``.loc`` directives, as ``inspect_asm()`` shows them), for profilers.
    ``opt=False`` leaves the PTX unoptimised, as numba-cuda's (locals in local
    memory, no fused multiply-adds); the CPU backend's code is the same.
    ``inline`` is ``"never"``, ``"always"`` (a device function compiled into each
    caller for its argument types), a bool, or a cost model (a callable); anything
    else is a ValueError, as in numba-cuda.
    """
    unknown = set(kws) - _IGNORED
    if unknown:
        raise TypeError(f"unsupported cuda.jit option(s): {', '.join(sorted(unknown))}")
    if link:
        raise NotImplementedError("cuda.jit(link=...) links CUDA C/C++ or PTX code, which the "
                                  "CPU backend cannot run")
    debug, boundscheck = bool(debug), bool(boundscheck)
    inline = _inline_option(inline)
    if debug and lineinfo:
        _warn_debug_and_lineinfo()

    if _is_function(func_or_sig):
        sigs = None
    elif func_or_sig is None:
        sigs = None
    else:
        sigs = list(func_or_sig) if isinstance(func_or_sig, list) else [func_or_sig]

    def wrap(func):
        if not _is_function(func):
            raise TypeError(f"cuda.jit compiles a function, not {func!r}")
        if device:
            device_function = _device_function(func, debug, boundscheck, fastmath, inline, opt,
                                               kws.get("forceinline", False))
            return device_function if sigs is None else decorators._compile_only(device_function, sigs)
        declared = sigs if sigs is not None and _check_kernel_signatures(sigs) else None
        kernel = CUDADispatcher(func, debug=debug, boundscheck=boundscheck, fastmath=fastmath, cache=cache,
                                launch_bounds=launch_bounds, shared_memory_carveout=shared_memory_carveout,
                                signatures=declared, extensions=extensions,
                                one_signature=not isinstance(func_or_sig, list), lineinfo=lineinfo, opt=opt)
        if declared is not None:
            kernel._compiled()  # now, as numba-cuda compiles them
        return kernel

    if _is_function(func_or_sig):
        return wrap(func_or_sig)
    return wrap
