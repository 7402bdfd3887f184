"""Kernels compiled to PTX (cuda.compile_ptx) and checked by the CUDA
toolkit's ptxas for sm_80 and sm_90. Needs no GPU; skipped without ptxas."""
import math
import os
import shutil
import subprocess

import numpy as np
import pytest

from ruchey import cuda, float32, float64, int32, int64


def find_ptxas():
    home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    path = os.path.join(home, "bin", "ptxas")
    return path if os.path.exists(path) else shutil.which("ptxas")


PTXAS = find_ptxas()
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="the CUDA toolkit's ptxas is not installed")


def seed(io_arr):
    thread_x = cuda.threadIdx.x
    thread_y = cuda.blockIdx.x
    block_width = cuda.blockDim.x
    t_position = thread_x + thread_y * block_width
    if t_position < io_arr.size:
        io_arr[t_position] *= 2


def grid_stride(x, y, a):
    start = cuda.grid(1)
    for i in range(start, x.shape[0], cuda.gridsize(1)):
        y[i] = a * x[i] + y[i]


def two_d(a):
    x, y = cuda.grid(2)
    if x < a.shape[0] and y < a.shape[1]:
        a[x, y] = math.sqrt(x * 1.0 + y) + math.exp(-a[x, y])


def three_d(a):
    x, y, z = cuda.grid(3)
    if x < a.shape[0] and y < a.shape[1] and z < a.shape[2]:
        a[x, y, z] = x + 10 * y + 100 * z


def block_reduce(x, out):
    sh = cuda.shared.array(256, float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    sh[tid] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            sh[tid] += sh[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, sh[0])


def matmul(A, B, C):
    sA = cuda.shared.array((16, 16), float32)
    sB = cuda.shared.array((16, 16), float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tmp = float32(0.0)
    for i in range(cuda.gridDim.x):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and tx + i * 16 < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * 16]
        if x < B.shape[1] and ty + i * 16 < B.shape[0]:
            sB[ty, tx] = B[ty + i * 16, x]
        cuda.syncthreads()
        for j in range(16):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


def histogram(x, bins):
    i = cuda.grid(1)
    if i >= x.size:
        return
    cuda.atomic.add(bins, x[i] % bins.size, 1)
    cuda.atomic.max(bins, 0, x[i])


def local_and_dynamic(x, out):
    tmp = cuda.local.array(4, int64)
    dyn = cuda.shared.array(0, float32)
    i = cuda.grid(1)
    for k in range(4):
        tmp[k] = i * k
    dyn[cuda.threadIdx.x] = x[i % x.size]
    cuda.syncthreads()
    out[i % out.size] = tmp[3] + dyn[0]


KERNELS = [
    (seed, "void(float64[:])"),
    (grid_stride, "void(float32[::1], float32[::1], float32)"),
    (two_d, "void(float64[:, :])"),
    (three_d, "void(int32[:, :, :])"),
    (block_reduce, "void(float64[::1], float64[::1])"),
    (matmul, "void(float32[:, ::1], float32[:, ::1], float32[:, ::1])"),
    (histogram, "void(int64[::1], int64[::1])"),
    (local_and_dynamic, "void(float32[::1], int64[::1])"),
]


def test_compile_ptx_returns_ptx_and_void():
    ptx, restype = cuda.compile_ptx(seed, "void(float64[:])", cc=(8, 0))
    assert ".target sm_80" in ptx and ".entry seed" in ptx
    assert repr(restype) == "none"


def test_newer_devices_get_sm_90_ptx():
    ptx, _ = cuda.compile_ptx(seed, "void(float64[:])", cc=(10, 0))
    assert ".target sm_90" in ptx


def test_barriers_shared_memory_and_libdevice_appear_in_the_ptx():
    ptx, _ = cuda.compile_ptx(block_reduce, "void(float64[::1], float64[::1])", cc=(8, 0))
    assert "bar.sync" in ptx and ".shared" in ptx and "atom" in ptx
    ptx, _ = cuda.compile_ptx(two_d, "void(float64[:, :])", cc=(8, 0))
    assert "sqrt.rn.f64" in ptx and "call" not in ptx.split(".entry")[1]  # libdevice's exp inlined


@needs_ptxas
@pytest.mark.parametrize("kernel, sig", KERNELS, ids=[k.__name__ for k, _ in KERNELS])
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_ptxas_accepts_every_kernel(kernel, sig, arch, tmp_path):
    ptx, _ = cuda.compile_ptx(kernel, sig, cc=(int(arch[3]), int(arch[4])))
    path = tmp_path / f"{kernel.__name__}.ptx"
    path.write_text(ptx)
    result = subprocess.run([PTXAS, f"-arch={arch}", str(path), "-o", str(tmp_path / "out.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
