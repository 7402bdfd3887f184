"""CUDA kernels on ruchey's CPU backend, against the same work as @njit
loops and against Numba's CUDA simulator (its only way to run kernels
without a GPU, timed at a small size in a fresh process).

    python3 bench/cuda_kernels.py
"""
import os
import subprocess
import sys
import textwrap
import time

import numpy as np

import ruchey
from ruchey import cuda, float64, njit


def median_time(fn, repeats=9):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return sorted(times)[repeats // 2]


@cuda.jit
def call_for_kernel(io_arr):
    thread_x = cuda.threadIdx.x
    thread_y = cuda.blockIdx.x
    block_width = cuda.blockDim.x
    t_position = thread_x + thread_y * block_width
    if t_position < io_arr.size:
        io_arr[t_position] *= 2


@njit
def double_loop(io_arr):
    for i in range(io_arr.size):
        io_arr[i] *= 2


@cuda.jit
def block_sum(x, out):
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
        out[cuda.blockIdx.x] = sh[0]


@njit
def block_sum_loop(x, out):
    for b in range(out.size):
        s = 0.0
        for t in range(256):
            i = b * 256 + t
            if i < x.size:
                s += x[i]
        out[b] = s


@cuda.jit
def tiled_matmul(A, B, C):
    sA = cuda.shared.array((16, 16), float64)
    sB = cuda.shared.array((16, 16), float64)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tmp = 0.0
    for i in range(cuda.gridDim.x):
        sA[ty, tx] = 0.0
        sB[ty, tx] = 0.0
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


@njit
def matmul_loop(A, B, C):
    for i in range(A.shape[0]):
        for j in range(B.shape[1]):
            s = 0.0
            for k in range(A.shape[1]):
                s += A[i, k] * B[k, j]
            C[i, j] = s


@cuda.jit
def mandelbrot(out, w, h, iters):
    x, y = cuda.grid(2)
    if x < w and y < h:
        cr = -2.0 + 3.0 * x / w
        ci = -1.0 + 2.0 * y / h
        zr = 0.0
        zi = 0.0
        n = 0
        while n < iters and zr * zr + zi * zi < 4.0:
            zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
            n += 1
        out[y, x] = n


@njit
def sum_loop(x):
    s = 0.0
    for i in range(x.size):
        s += x[i]
    return s


@cuda.jit
def warp_shuffle_sum(x, out):
    """One element per thread, summed down each warp by shuffles."""
    i = cuda.grid(1)
    v = x[i] if i < x.size else 0.0
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xFFFFFFFF, v, offset)
        offset //= 2
    if cuda.laneid == 0:
        cuda.atomic.add(out, 0, v)


@cuda.jit
def warp_shuffle_grid_stride_sum(x, out):
    """The usual form: a grid-stride sum per thread, then a butterfly of shuffles."""
    v = 0.0
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v += x[i]
    for k in range(5):
        v += cuda.shfl_xor_sync(0xFFFFFFFF, v, 1 << k)
    if cuda.laneid == 0:
        cuda.atomic.add(out, 0, v)


@cuda.jit
def grid_syncs(rounds, out):
    g = cuda.cg.this_grid()
    for _ in range(rounds):
        g.sync()
    out[cuda.grid(1)] = rounds


def grid_sync_cost(blocks, threads=32, rounds=2000):
    """Seconds per grid.sync(): a kernel of rounds barriers minus one of none."""
    out = np.zeros(blocks * threads, np.int64)
    grid_syncs[blocks, threads](rounds, out)
    full = median_time(lambda: grid_syncs[blocks, threads](rounds, out), repeats=5)
    empty = median_time(lambda: grid_syncs[blocks, threads](0, out), repeats=5)
    return (full - empty) / rounds


SIMULATOR = textwrap.dedent("""
    import time, numpy as np
    from numba import cuda
    @cuda.jit
    def call_for_kernel(io_arr):
        t = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
        if t < io_arr.size:
            io_arr[t] *= 2
    a = np.ones({n})
    call_for_kernel[{n} // 256, 256](a)
    start = time.perf_counter()
    call_for_kernel[{n} // 256, 256](a)
    print(time.perf_counter() - start)
""")


def simulator_seconds_per_thread(n=1024):
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    out = subprocess.run([sys.executable, "-c", SIMULATOR.format(n=n)], capture_output=True,
                         text=True, env=env, timeout=600)
    return float(out.stdout.split()[-1]) / n if out.returncode == 0 else None


def main():
    rows = []
    n = 1 << 20
    a = np.ones(n)
    seed = call_for_kernel[(n + 255) // 256, 256]
    seed(a)
    double_loop(a)
    t_kernel, t_loop = median_time(lambda: seed(a)), median_time(lambda: double_loop(a))
    rows.append(("seed kernel, 2**20 threads", t_kernel, "@njit loop", t_loop, 2.0))
    sim = simulator_seconds_per_thread()

    x = np.random.default_rng(1).random(n)
    out = np.zeros((n + 255) // 256)
    out2 = out.copy()
    block_sum[out.size, 256](x, out)
    block_sum_loop(x, out2)
    assert np.allclose(out, out2)
    rows.append(("shared-memory block sum", median_time(lambda: block_sum[out.size, 256](x, out)),
                 "@njit loop", median_time(lambda: block_sum_loop(x, out2)), 3.0))
    # the same kernel against the plain sum loop a user would write instead
    big = np.random.default_rng(4).random(1 << 22)
    partial = np.zeros(big.size // 256)
    block_sum[partial.size, 256](big, partial)
    assert np.isclose(partial.sum(), sum_loop(big))
    rows.append(("block sum 2**22", median_time(lambda: block_sum[partial.size, 256](big, partial), repeats=15),
                 "@njit sum", median_time(lambda: sum_loop(big), repeats=15), 1.5))

    m = 256
    A, B = np.random.default_rng(2).random((m, m)), np.random.default_rng(3).random((m, m))
    C, C2 = np.zeros((m, m)), np.zeros((m, m))
    grid = (m // 16, m // 16)
    tiled_matmul[grid, (16, 16)](A, B, C)
    matmul_loop(A, B, C2)
    assert np.allclose(C, C2)
    rows.append(("16x16 tiled matmul 256^2", median_time(lambda: tiled_matmul[grid, (16, 16)](A, B, C)),
                 "@njit triple loop", median_time(lambda: matmul_loop(A, B, C2)), 3.0))

    out1 = np.zeros(1)
    expected = sum_loop(x)
    for kernel, cfg in ((warp_shuffle_sum, ((n + 255) // 256, 256)), (warp_shuffle_grid_stride_sum, (64, 256))):
        def run():
            out1[0] = 0.0
            kernel[cfg](x, out1)
        run()
        assert np.isclose(out1[0], expected)
        rows.append((kernel.__name__.replace("_", " "), median_time(run), "@njit sum",
                     median_time(lambda: sum_loop(x)), 3.0))

    w, h = 800, 600
    img = np.zeros((h, w), np.int64)
    cfg = ((w + 15) // 16, (h + 15) // 16), (16, 16)
    mandelbrot[cfg](img, w, h, 200)
    threads = ruchey.get_num_threads()
    ruchey.set_num_threads(1)
    t_one = median_time(lambda: mandelbrot[cfg](img, w, h, 200))
    ruchey.set_num_threads(threads)
    t_all = median_time(lambda: mandelbrot[cfg](img, w, h, 200))

    print(f"CUDA kernels on the CPU backend ({threads} threads)")
    print(f"{'kernel':<30}{'ruchey':>10}   {'same work':<20}{'time':>10}{'ratio':>8}  target")
    for name, tk, other, to, target in rows:
        verdict = "PASS" if tk / to <= target else "FAIL"
        print(f"{name:<30}{tk * 1e3:>8.2f}ms   {other:<20}{to * 1e3:>8.2f}ms{tk / to:>7.2f}x  "
              f"<= {target:g}x {verdict}")
    per_thread = t_kernel / n
    print(f"seed kernel per CUDA thread: {per_thread * 1e9:.2f} ns", end="")
    if sim:
        verdict = "PASS" if sim / per_thread >= 1e4 else "FAIL"
        print(f"; Numba's simulator {sim * 1e6:.0f} us: {sim / per_thread:,.0f}x lower (>= 1e4 {verdict})")
    else:
        print("; Numba's simulator could not be run")
    for blocks in (2, 64):
        cost = grid_sync_cost(blocks)
        verdict = "PASS" if cost <= 20e-6 else "FAIL"
        print(f"grid.sync() of {blocks} blocks of 32 threads on {threads} threads: {cost * 1e6:.2f} us "
              f"per barrier (<= 20 us {verdict})")
    verdict = "PASS" if t_one / t_all >= 1.8 else "FAIL"
    print(f"mandelbrot kernel 800x600x200: 1 thread {t_one * 1e3:.1f} ms, {threads} threads "
          f"{t_all * 1e3:.1f} ms: {t_one / t_all:.2f}x (>= 1.8 {verdict})")


if __name__ == "__main__":
    main()
