"""@vectorize(..., target="cuda"): a ufunc that runs as a CUDA kernel;
@guvectorize(..., target="cuda"): a generalized ufunc taking device arrays.

As numba-cuda's: the function becomes a device function, and a kernel of
one thread per element applies it to the broadcast, flattened operands,
cast to the dtypes of the loop NumPy's rules pick (a loop of the very
dtypes, else the first the inputs cast to safely). Host arrays give a host
array, device arrays (or ``out=`` one) a device array. It runs wherever
kernels run: on the GPU, or on the CPU backend's threads.
"""
import itertools
import linecache

import numpy as np

from ruchey import types
from ruchey.cuda import devicearray
from ruchey.cuda.intrinsics import grid as cuda_grid
from ruchey.cuda.kernels import jit

_THREADS = 256
_serial = itertools.count()


def _elementwise_kernel(fn, nin):
    """out[i] = fn(a0[i], a1[i], ...) for each thread i of the grid."""
    args = ", ".join(f"a{k}" for k in range(nin))
    elems = ", ".join(f"a{k}[i]" for k in range(nin))
    src = (f"def ufunc_kernel(out, {args}):\n"
           f"    i = cuda_grid(1)\n"
           f"    if i < out.size:\n"
           f"        out[i] = fn({elems})\n")
    filename = f"<ruchey-cuda-ufunc-{next(_serial)}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    namespace = {"cuda_grid": cuda_grid, "fn": fn}
    exec(compile(src, filename, "exec"), namespace)
    return jit(namespace["ufunc_kernel"])


def _dtype(t):
    return np.dtype(t.name)


def _inferred_return(device, args):
    """The type device returns for arguments of these types (a signature of
    argument types alone, as numba-cuda's vectorize takes: compiled for them)."""
    device.compile(tuple(args))
    described = tuple(t.describe() for t in args)
    ret = next(ret for _, _, given, ret in device._entries() if given == described)
    return types.described_type(ret) if isinstance(ret, tuple) else None


class CUDAUFunc:
    """A ufunc of one loop per signature, each run as a kernel."""

    def __init__(self, func, signatures):
        self.py_func = func
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self.nin = func.__code__.co_argcount
        self.nout = 1
        self._signatures = list(signatures)  # (made again from them where pickled by value)
        self._loops = []
        device = jit(device=True)(func)
        for sig in signatures:
            sig = types.parse_signature(sig)
            if len(sig.args) != self.nin or any(t.ndim for t in sig.args):
                raise TypeError(f"a ufunc's signature takes {self.nin} scalars and returns one, got {sig!r}")
            ret = _inferred_return(device, sig.args) if sig.return_type is None else sig.return_type
            if not isinstance(ret, types.Type) or ret.ndim:
                raise TypeError(f"a ufunc's signature takes {self.nin} scalars and returns one, got {sig!r}")
            self._loops.append((tuple(_dtype(t) for t in sig.args), _dtype(ret)))
        self._kernel = _elementwise_kernel(device, self.nin)

    @property
    def types(self):
        return ["".join(d.char for d in ins) + "->" + ret.char for ins, ret in self._loops]

    def __reduce__(self):
        """By its name where importable, else its function and signatures (for
        multiprocessing and Dask): the receiver compiles its loops again."""
        from ruchey import serialize
        return serialize.reduce_remade(self, CUDAUFunc, self._signatures)

    def _loop_for(self, dtypes):
        for rule in ("no", "safe"):
            for ins, ret in self._loops:
                if all(np.can_cast(d, want, rule) for d, want in zip(dtypes, ins)):
                    return ins, ret
        names = ", ".join(str(d) for d in dtypes)
        raise TypeError(f"ufunc '{self.__name__}' not supported for the input types ({names}), and the inputs "
                        "could not be safely coerced to any supported types")

    def reduce(self, arg, stream=0):
        """numba-cuda's reduce of a binary ufunc over a 1-d array, in its
        order: the two halves combined elementwise into the first, again
        until one element is left, an odd count's last element combined
        with the rest's result. The result has arg's dtype."""
        if self.nin != 2:
            raise TypeError(f"reduce needs a ufunc of two arguments, {self.__name__} takes {self.nin}")
        host = arg.copy_to_host(stream=stream) if isinstance(arg, devicearray.DeviceNDArray) else np.array(arg)
        if host.ndim != 1:
            raise TypeError(f"reduce needs a 1-d array, got {host.ndim} dimensions")
        if not host.size:
            raise TypeError("Reduction on an empty array.")
        return host[0] if host.size == 1 else self._halved(host, stream)[0]

    def _halved(self, x, stream):
        """x (two elements or more, a host array) reduced into its first element; x[:1]."""
        n = x.shape[0]
        if n % 2:
            first = self._halved(x[:n - 1], stream)
            return self(first, x[n - 1:], out=first, stream=stream)
        left = self(x[:n // 2], x[n // 2:], out=x[:n // 2], stream=stream)
        return self._halved(left, stream) if n > 2 else left

    def __call__(self, *args, out=None, stream=0):
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes {self.nin} arguments ({len(args)} given)")
        on_device = any(isinstance(a, devicearray.DeviceNDArray) for a in args)
        host = [a.copy_to_host(stream=stream) if isinstance(a, devicearray.DeviceNDArray) else np.asarray(a)
                for a in args]
        scalar = all(h.ndim == 0 for h in host) and out is None and not on_device
        ins, ret = self._loop_for([h.dtype for h in host])
        shape = np.broadcast_shapes(*(h.shape for h in host))
        flat = [np.ascontiguousarray(np.broadcast_to(h, shape), dtype=d).reshape(-1) for h, d in zip(host, ins)]
        result = np.empty(int(np.prod(shape, dtype=np.int64)), dtype=ret)
        if result.size:
            self._kernel[(result.size + _THREADS - 1) // _THREADS, _THREADS, stream](result, *flat)
        result = result.reshape(shape)
        if scalar:
            return result[()]
        if out is None:
            return devicearray.to_device(result, stream=stream) if on_device else result
        if isinstance(out, devicearray.DeviceNDArray):
            out.copy_to_device(np.ascontiguousarray(np.broadcast_to(result, out.shape), dtype=out.dtype),
                               stream=stream)
        else:
            out[...] = result
        return out


class CUDAGUFunc:
    """numba-cuda's generalized ufunc for target="cuda": the compiled NumPy
    gufunc (``ufunc``) run on the host's copies of device arrays. Given a
    device array (an input or out=) it returns device arrays, as numba-cuda's
    does; a number is cast to the type of the first loop that takes the
    arrays, where NumPy would find no loop for it (numba-cuda's casting)."""

    def __init__(self, ufunc, func, remake, *args):
        self.ufunc = ufunc
        self.py_func = func
        self._remake = (remake, args)  # remake(func, *args) makes it again (pickled by value)
        self.__name__ = ufunc.__name__
        self.__doc__ = ufunc.__doc__
        self.nin, self.nout = ufunc.nin, ufunc.nout
        self.signature = ufunc.signature

    @property
    def types(self):
        return self.ufunc.types

    def __reduce__(self):
        from ruchey import serialize
        remake, args = self._remake
        return serialize.reduce_remade(self, remake, *args, func=self.py_func)

    def __call__(self, *args, out=None, stream=0):
        if len(args) > self.nin and out is not None:
            raise ValueError("cannot specify argument 'out' as both positional and keyword")
        if not self.nin <= len(args) <= self.nin + self.nout:
            raise TypeError(f"gufunc accepts {self.nin} positional arguments for its inputs, or "
                            f"{self.nin + self.nout} positional arguments for its inputs and outputs. "
                            f"Got {len(args)} positional argument{'s' if len(args) != 1 else ''}.")
        outs = list(args[self.nin:]) or ([] if out is None else list(out) if isinstance(out, tuple) else [out])
        ins = [_on_host(a, stream) for a in args[:self.nin]]
        on_device = any(isinstance(a, devicearray.DeviceNDArray) for a in (*args, *outs))
        results = self.ufunc(*self._cast_numbers(ins))
        results = results if isinstance(results, tuple) else (results,)
        for given, result in zip(outs, results):
            _fill(given, result, stream)
        if outs:
            got = tuple(outs)
        elif on_device:
            got = tuple(devicearray.to_device(np.ascontiguousarray(r), stream=stream) for r in results)
        else:
            got = results
        return got if len(got) > 1 else got[0]

    def _cast_numbers(self, ins):
        """ins, each number cast to the first loop whose array inputs ins' cast to safely."""
        numbers = [np.ndim(a) == 0 and not isinstance(a, np.ndarray) for a in ins]
        if not any(numbers):
            return ins
        for loop in self.ufunc.types:
            wanted = [np.dtype(c) for c in loop.split("->")[0]]
            if all(number or np.can_cast(np.asarray(a).dtype, w, "safe")
                   for a, w, number in zip(ins, wanted, numbers)):
                return [np.asarray(a).astype(w)[()] if number else a for a, w, number in zip(ins, wanted, numbers)]
        return ins  # (NumPy's error then)


def _on_host(a, stream):
    return a.copy_to_host(stream=stream) if isinstance(a, devicearray.DeviceNDArray) else a


def _fill(given, result, stream):
    """Writes a result into the output array given (a device array or a host one)."""
    if isinstance(given, devicearray.DeviceNDArray):
        given.copy_to_device(np.ascontiguousarray(np.broadcast_to(result, given.shape), dtype=given.dtype),
                             stream=stream)
    else:
        given[...] = result
