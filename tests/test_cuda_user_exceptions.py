"""A raise statement in a kernel compiled with debug=True: the exception
reaches the launch with numba-cuda's debug-mode message, "In function 'f',
file F, line N, tid=[z, y, x] ctaid=[z, y, x]" and then ": " and its first
argument where it has one (the other arguments kept), naming the thread
that raised. Checked against the thread each launch's own Python model
picks, on generated launch shapes."""
import inspect

import numpy as np
import pytest

from ruchey import cuda

from conftest import AS_NUMBA, make_rng

pytestmark = pytest.mark.skipif(AS_NUMBA, reason="kernels run on ruchey's CPU backend (numba-cuda needs a GPU)")


class KernelError(Exception):
    pass


def raises(which):
    if which == 1:
        raise KernelError
    elif which == 2:
        raise KernelError("foo")
    elif which == 3:
        raise KernelError("foo", which)


LINE = inspect.getsourcelines(raises)[1]
FILE = inspect.getsourcefile(raises)


@pytest.mark.parametrize("which, line, args", [(1, LINE + 2, ()), (2, LINE + 4, ("foo",)),
                                               (3, LINE + 6, ("foo", 3))])
def test_the_message_names_the_function_file_line_and_thread(which, line, args):
    kernel = cuda.jit("void(int32)", debug=True, opt=False)(raises)
    kernel[1, 1](0)  # no raise
    with pytest.raises(KernelError) as info:
        kernel[1, 1](which)
    prefix = f"In function 'raises', file {FILE}, line {line}, tid=[0, 0, 0] ctaid=[0, 0, 0]"
    with pytest.raises(KernelError) as expected:
        raises(which)
    assert expected.value.args == args  # (the Python function's own exception, which the message extends)
    assert info.value.args == ((f"{prefix}: {args[0]}",) + args[1:] if args else (prefix,))


@cuda.jit(debug=True)
def raises_in_one_thread(chosen):
    t = (cuda.threadIdx.x, cuda.threadIdx.y, cuda.threadIdx.z)
    b = (cuda.blockIdx.x, cuda.blockIdx.y, cuda.blockIdx.z)
    if t[0] == chosen[0] and t[1] == chosen[1] and t[2] == chosen[2] and \
            b[0] == chosen[3] and b[1] == chosen[4] and b[2] == chosen[5]:
        raise ValueError(chosen[0] + 10 * chosen[3])


@pytest.mark.parametrize("seed", range(5))
def test_the_thread_named_is_the_one_that_raised(seed):
    rng = make_rng(seed)
    blockdim = tuple(int(v) for v in rng.integers(1, 4, size=3))
    griddim = tuple(int(v) for v in rng.integers(1, 3, size=3))
    tid = [int(rng.integers(0, n)) for n in blockdim]
    ctaid = [int(rng.integers(0, n)) for n in griddim]
    chosen = np.array(tid + ctaid, dtype=np.int64)
    with pytest.raises(ValueError) as info:
        raises_in_one_thread[griddim, blockdim](chosen)
    # numba-cuda's order on a GPU: z, y, x
    thread = f"tid=[{tid[2]}, {tid[1]}, {tid[0]}] ctaid=[{ctaid[2]}, {ctaid[1]}, {ctaid[0]}]"
    assert str(info.value).endswith(f"{thread}: {tid[0] + 10 * ctaid[0]}")
    assert str(info.value).startswith("In function 'raises_in_one_thread', file ")


def test_without_debug_the_exception_is_the_one_raised():
    kernel = cuda.jit("void(int32)")(raises)
    with pytest.raises(KernelError) as info:
        kernel[1, 1](3)
    assert info.value.args == ("foo", 3)


class TwoNumbers(Exception):
    """An exception whose arguments must be numbers: the message cannot be
    put in front of them, and it is raised as it was."""

    def __init__(self, a, b):
        super().__init__(int(a), int(b))


@cuda.jit(debug=True)
def raises_two_numbers(x):
    raise TwoNumbers(x, 2)


def test_an_exception_that_refuses_a_message_is_kept_as_raised():
    with pytest.raises(TwoNumbers) as info:
        raises_two_numbers[1, 1](7)
    assert info.value.args == (7, 2)
