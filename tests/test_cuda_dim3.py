"""cuda.threadIdx, cuda.blockIdx, cuda.blockDim and cuda.gridDim as values
(``t = cuda.threadIdx; t.x``), as numba-cuda types them (a Dim3 whose
attributes are the thread's registers), on the CPU backend against each
thread's own Python computation, and in PTX that ptxas accepts."""
import numpy as np
import pytest

from ruchey import cuda

from conftest import AS_NUMBA, make_rng, needs_ptxas, ptxas_errors


@cuda.jit
def positions(out):
    t = cuda.threadIdx
    b = cuda.blockIdx
    d = cuda.blockDim
    g = cuda.gridDim
    x = b.x * d.x + t.x
    y = b.y * d.y + t.y
    if x < out.shape[0] and y < out.shape[1]:
        out[x, y, 0] = t.x + 10 * t.y
        out[x, y, 1] = b.x + 10 * b.y
        out[x, y, 2] = d.x * d.y
        out[x, y, 3] = g.x * g.y


def expected_positions(shape, griddim, blockdim):
    """What each thread writes, computed thread by thread in Python."""
    out = np.zeros(shape + (4,), dtype=np.int64)
    for bx in range(griddim[0]):
        for by in range(griddim[1]):
            for tx in range(blockdim[0]):
                for ty in range(blockdim[1]):
                    x, y = bx * blockdim[0] + tx, by * blockdim[1] + ty
                    if x < shape[0] and y < shape[1]:
                        out[x, y] = (tx + 10 * ty, bx + 10 * by, blockdim[0] * blockdim[1],
                                     griddim[0] * griddim[1])
    return out


@pytest.mark.parametrize("seed", range(4))
def test_dim3_values_give_each_threads_registers(seed):
    rng = make_rng(seed)
    blockdim = tuple(int(v) for v in rng.integers(1, 6, size=2))
    griddim = tuple(int(v) for v in rng.integers(1, 4, size=2))
    shape = tuple(int(g * b - rng.integers(0, b)) for g, b in zip(griddim, blockdim))
    out = np.zeros(shape + (4,), dtype=np.int64)
    positions[griddim, blockdim](out)
    np.testing.assert_array_equal(out, expected_positions(shape, griddim, blockdim))


@cuda.jit
def passes_dim3(out):
    t = cuda.threadIdx
    out[t.x] = t.x * 2


def test_a_dim3_value_in_a_one_dimensional_launch():
    out = np.zeros(7, dtype=np.int64)
    passes_dim3[1, 7](out)
    np.testing.assert_array_equal(out, np.arange(7) * 2)


@needs_ptxas
@pytest.mark.skipif(AS_NUMBA, reason="ruchey's PTX")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_dim3_values(arch, tmp_path):
    ptx, _ = cuda.compile_ptx(positions.py_func, "void(int64[:, :, ::1])", cc=(int(arch[3]), int(arch[4])))
    assert "%tid.y" in ptx and "%ctaid.x" in ptx and "%nctaid.y" in ptx
    assert ptxas_errors(ptx, arch, tmp_path, "positions") == ""


@cuda.jit
def reads_no_such_register(out):
    t = cuda.threadIdx
    out[0] = t.w


def test_an_attribute_a_dim3_lacks_is_a_typing_error():
    from ruchey import TypingError
    with pytest.raises(TypingError, match=r"Unknown attribute 'w' of type Dim3(.|\n)*out\[0\] = t\.w"):
        reads_no_such_register[1, 1](np.zeros(1))


@cuda.jit
def reads_w_of_each_dim3(out, which):
    if which == 0:
        out[0] = cuda.blockIdx.w
    else:
        out[0] = cuda.gridDim.w


@cuda.jit
def calls_no_such_atomic(out):
    out[0] = cuda.atomic.nope(out, 0, 1)


@cuda.jit
def reads_no_such_atomic(out):
    f = cuda.atomic.nope
    out[0] = f(out, 0, 1)


def test_an_attribute_a_namespace_lacks_is_named():
    from ruchey import TypingError
    with pytest.raises(TypingError, match=r"Unknown attribute 'w' of type Dim3(.|\n)*cuda\.blockIdx\.w"):
        reads_w_of_each_dim3[1, 1](np.zeros(1), 0)
    with pytest.raises(TypingError, match=r"'cuda\.atomic' has no attribute 'nope'"):
        calls_no_such_atomic[1, 1](np.zeros(1))
    with pytest.raises(TypingError, match=r"'cuda\.atomic' has no attribute 'nope'(.|\n)*= cuda\.atomic\.nope"):
        reads_no_such_atomic[1, 1](np.zeros(1))
