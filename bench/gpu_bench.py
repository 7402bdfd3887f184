"""Kernels on a GPU: ruchey against the same kernels in CUDA C (nvcc -O3,
bench/gpu_kernels.cu) and in numba-cuda. Needs a GPU; run by
bench/gpu_check.sh.

    python3 bench/gpu_bench.py [--nvcc BINARY] [--json FILE] [--ptx FILE]

numba-cuda runs in a process of its own (this file with --numba-only),
with NUMBA_PYTHONPATH, when set, first on its path: numba-cuda may need an
older NumPy than the one ruchey was built for.

Kernel time is the median of CUDA-event-timed launches on device arrays;
launch overhead the host time of one launch of an empty kernel taking 0 to
4 arrays (kernel[1, 1](...) each time, as users write it). Targets: kernel
time at most 1.1x nvcc's (the warp-shuffle reduction and the xoroshiro128+
Monte Carlo kernel included, both also in the CUDA C file), launch overhead
below numba-cuda's; nvcc's vector_add as a SourceModule (NVRTC) within
1.02x of nvcc, its launch at most numba-cuda's. A kernel
whose result is wrong is reported and still timed. --ptx writes the PTX
each JIT made of the four kernels, to compare.
"""
import argparse
import json
import os
import subprocess
import sys
import time
import warnings

import numpy as np

NUMBA_ONLY = "--numba-only" in sys.argv
if NUMBA_ONLY:
    os.environ.setdefault("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS", "0")
    warnings.simplefilter("ignore")
    from numba import cuda, float32
    from numba.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32
else:
    from ruchey import cuda, float32
    from ruchey.cuda.random import create_xoroshiro128p_states, xoroshiro128p_uniform_float32

N = 1 << 26        # vector kernels: 256 MiB of float32, several times the L2
M = 2048           # matmul: M x M
REPEATS = 20
LAUNCHES = 3000
TPB = 16
MC_THREADS = 1 << 16  # Monte Carlo: generators (threads) ...
MC_SAMPLES = 1024     # ... and points each


def seed(io_arr):
    thread_x = cuda.threadIdx.x
    thread_y = cuda.blockIdx.x
    block_width = cuda.blockDim.x
    t_position = thread_x + thread_y * block_width
    if t_position < io_arr.size:
        io_arr[t_position] *= 2


def vector_add(a, b, c):
    i = cuda.grid(1)
    if i < c.size:
        c[i] = a[i] + b[i]


def matmul(A, B, C):
    sA = cuda.shared.array((TPB, TPB), float32)
    sB = cuda.shared.array((TPB, TPB), float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tmp = float32(0.0)
    for i in range(cuda.gridDim.x):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and tx + i * TPB < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and ty + i * TPB < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


def reduce(x, out):
    sh = cuda.shared.array(256, float32)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    sh[tid] = x[i] if i < x.size else float32(0.0)
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if tid < s:
            sh[tid] += sh[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        cuda.atomic.add(out, 0, sh[0])


def warp_reduce(x, out):
    """A grid-stride sum per thread, then shuffles down each warp."""
    v = float32(0.0)
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        v += x[i]
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xFFFFFFFF, v, offset)
        offset //= 2
    if cuda.laneid == 0:
        cuda.atomic.add(out, 0, v)


def monte_carlo(states, samples, hits):
    """Points in the unit square from each thread's xoroshiro128+ stream."""
    i = cuda.grid(1)
    inside = 0
    for _ in range(samples):
        x = xoroshiro128p_uniform_float32(states, i)
        y = xoroshiro128p_uniform_float32(states, i)
        if x * x + y * y <= float32(1.0):
            inside += 1
    cuda.atomic.add(hits, 0, inside)


def args0():
    pass


def args1(a):
    pass


def args2(a, b):
    pass


def args3(a, b, c):
    pass


def args4(a, b, c, d):
    pass


KERNELS = (seed, vector_add, matmul, reduce, warp_reduce, monte_carlo)
EMPTY = (args0, args1, args2, args3, args4)


# ---------------------------------------------------------------- this process's cuda module

def median_ms(launch):
    start, stop = cuda.event(), cuda.event()
    launch()
    cuda.synchronize()
    times = []
    for _ in range(REPEATS):
        start.record()
        launch()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return sorted(times)[len(times) // 2]


def launch_us(launch):
    launch()
    cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(LAUNCHES):
        launch()
    t1 = time.perf_counter()
    cuda.synchronize()
    return (t1 - t0) / LAUNCHES * 1e6


def check(name, ok, problems):
    if not ok:
        print(f"WRONG RESULT: {name}", file=sys.stderr)
        problems.append(name)


def cuda_c_kernel(name):
    """A kernel of bench/gpu_kernels.cu, its source cut out of the file."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpu_kernels.cu")) as fh:
        text = fh.read()
    start = text.index(f"__global__ void {name}(")
    return text[start:text.index("\n}\n", start) + 3]


def source_module_measure(d_a, d_b, d_c):
    """ruchey.cuda.SourceModule: nvcc's vector_add compiled by NVRTC, its time
    and the host time of one launch; None where it cannot run."""
    if NUMBA_ONLY:
        return None
    try:
        f = cuda.SourceModule(cuda_c_kernel("vector_add")).get_function("vector_add")
    except Exception as exc:  # no NVRTC on this machine
        print(f"SourceModule: {exc}", file=sys.stderr)
        return None
    blocks = (N + 255) // 256
    f(d_a, d_b, d_c, N, block=(256, 1, 1), grid=(blocks, 1))
    cuda.synchronize()
    ok = np.array_equal(d_c.copy_to_host(), d_a.copy_to_host() + d_b.copy_to_host())
    ms = median_ms(lambda: f(d_a, d_b, d_c, N, block=(256, 1, 1), grid=(blocks, 1)))
    us = launch_us(lambda: f(d_a, d_b, d_c, 1, block=(1, 1, 1), grid=(1, 1)))
    return {"vector_add_ms": ms, "launch_us": us, "right": ok}


def measure():
    """With this process's cuda module (ruchey's or numba-cuda's): kernel
    times (ms), launch overheads (µs), the first launch of each kernel (ms,
    compiling included), the kernels whose result was wrong, and the PTX of
    each kernel."""
    seed_k, add_k, mm_k, red_k, warp_k, mc_k = kernels = [cuda.jit(f) for f in KERNELS]
    rng = np.random.default_rng(1)
    x64 = rng.standard_normal(N)
    a, b = rng.random(N, dtype=np.float32), rng.random(N, dtype=np.float32)
    A, B = rng.random((M, M), dtype=np.float32), rng.random((M, M), dtype=np.float32)
    d_io, d_a, d_b = cuda.to_device(x64), cuda.to_device(a), cuda.to_device(b)
    d_c, d_out = cuda.device_array(N, np.float32), cuda.to_device(np.zeros(1, np.float32))
    d_A, d_B, d_C = cuda.to_device(A), cuda.to_device(B), cuda.device_array((M, M), np.float32)
    blocks, mgrid = (N + 255) // 256, ((M + TPB - 1) // TPB,) * 2
    d_sum = cuda.to_device(np.zeros(1, np.float32))
    states = create_xoroshiro128p_states(MC_THREADS, seed=1)
    d_hits = cuda.to_device(np.zeros(1, np.int64))

    launches = {
        "seed": lambda: seed_k[blocks, 256](d_io),
        "vector_add": lambda: add_k[blocks, 256](d_a, d_b, d_c),
        "matmul": lambda: mm_k[mgrid, (TPB, TPB)](d_A, d_B, d_C),
        "reduce": lambda: red_k[blocks, 256](d_a, d_out),
        "warp_reduce": lambda: warp_k[1024, 256](d_a, d_sum),
        "monte_carlo": lambda: mc_k[MC_THREADS // 256, 256](states, MC_SAMPLES, d_hits),
    }
    first = {}
    for name, launch in launches.items():
        t0 = time.perf_counter()
        launch()
        cuda.synchronize()
        first[name] = (time.perf_counter() - t0) * 1e3
    problems = []
    check("seed", np.array_equal(d_io.copy_to_host(), x64 * 2), problems)
    check("vector_add", np.array_equal(d_c.copy_to_host(), a + b), problems)
    C = d_C.copy_to_host()
    check("matmul", np.linalg.norm(C - A.astype(np.float64) @ B) / np.linalg.norm(C) < 1e-5,
          problems)
    check("reduce", abs(d_out.copy_to_host()[0] / a.astype(np.float64).sum() - 1) < 1e-4,
          problems)
    check("warp_reduce", abs(d_sum.copy_to_host()[0] / a.astype(np.float64).sum() - 1) < 1e-4,
          problems)
    hits = int(d_hits.copy_to_host()[0])  # the same streams under either JIT: the same count
    check("monte_carlo", abs(4 * hits / (MC_THREADS * MC_SAMPLES) - np.pi) < 1e-3, problems)

    times = {name: median_ms(launch) for name, launch in launches.items()}
    empties = [cuda.jit(f) for f in EMPTY]
    arrays = [cuda.device_array(16, np.float32) for _ in range(4)]
    overheads = [launch_us(lambda k=k, n=n: k[1, 1](*arrays[:n]))
                 for n, k in enumerate(empties)]
    cc = cuda.get_current_device().compute_capability
    ptx = {f.__name__: "\n".join(k.inspect_ptx(cc).values() if not NUMBA_ONLY else
                                 k.inspect_asm().values())
           for f, k in zip(KERNELS, kernels)}
    return {"kernel_ms": times, "launch_us": overheads, "first_launch_ms": first,
            "wrong": problems, "ptx": ptx, "monte_carlo_hits": hits,
            "source_module": source_module_measure(d_a, d_b, d_c)}


def numba_measure():
    """numba-cuda's numbers from a process of its own, or None."""
    env = dict(os.environ)
    if os.environ.get("NUMBA_PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (os.environ["NUMBA_PYTHONPATH"],
                                                          env.get("PYTHONPATH"))))
    r = subprocess.run([sys.executable, __file__, "--numba-only"], capture_output=True,
                       text=True, env=env)
    if r.returncode:
        print(f"numba-cuda failed:\n{r.stderr[-4000:]}", file=sys.stderr)
        return None
    return json.loads(r.stdout.strip().splitlines()[-1])


def nvcc_measure(binary):
    if not binary or not os.path.exists(binary):
        return None
    out = subprocess.run([binary, str(N), str(M), str(REPEATS)], capture_output=True, text=True,
                         check=True).stdout
    data = json.loads(out)
    return {"kernel_ms": {k: data[k] for k in ("seed", "vector_add", "matmul", "reduce",
                                               "warp_reduce", "monte_carlo") if k in data},
            "launch_us": data["launch_us"], "monte_carlo_hits": data.get("monte_carlo_hits")}


def ratio(a, b):
    return f"{a / b:5.2f}x" if a is not None and b else "   - "


def fmt(v, spec):
    return format(v, spec) if v is not None else "-".rjust(len(format(0.0, spec)))


def get(res, key, index):
    return res[key][index] if res else None


def report(dev, ours, theirs, numba):
    print(f"\n{dev.name}, compute capability {dev.compute_capability}; N={N}, matmul {M}x{M}")
    print(f"{'kernel time (ms)':<18}{'ruchey':>10}{'nvcc':>10}{'numba':>10}{'ruchey/nvcc':>13}"
          f"{'ruchey/numba':>14}")
    for name, r in ours["kernel_ms"].items():
        c, n = get(theirs, "kernel_ms", name), get(numba, "kernel_ms", name)
        print(f"{name:<18}{fmt(r, '10.4f')}{fmt(c, '10.4f')}{fmt(n, '10.4f')}{ratio(r, c):>13}"
              f"{ratio(r, n):>14}")
    print(f"{'launch (µs)':<18}{'ruchey':>10}{'nvcc':>10}{'numba':>10}{'ruchey/nvcc':>13}"
          f"{'ruchey/numba':>14}")
    for k, r in enumerate(ours["launch_us"]):
        c, n = get(theirs, "launch_us", k), get(numba, "launch_us", k)
        print(f"{f'{k} arrays':<18}{fmt(r, '10.2f')}{fmt(c, '10.2f')}{fmt(n, '10.2f')}"
              f"{ratio(r, c):>13}{ratio(r, n):>14}")
    print(f"{'first launch (ms)':<18}{'ruchey':>10}{'':>10}{'numba':>10}{'':>13}{'ruchey/numba':>14}")
    for name, r in ours["first_launch_ms"].items():
        n = get(numba, "first_launch_ms", name)
        print(f"{name:<18}{fmt(r, '10.1f')}{'':>10}{fmt(n, '10.1f')}{'':>13}{ratio(r, n):>14}")
    sm = ours.get("source_module")
    if sm:
        c, n = get(theirs, "kernel_ms", "vector_add"), get(numba, "launch_us", 3)
        print(f"SourceModule vector_add (nvcc's source): {sm['vector_add_ms']:.4f} ms, nvcc {fmt(c, '.4f')} "
              f"({ratio(sm['vector_add_ms'], c).strip()}); one launch {sm['launch_us']:.2f} µs, numba-cuda's "
              f"with 3 arrays {fmt(n, '.2f')} ({ratio(sm['launch_us'], n).strip()})"
              f"{'' if sm['right'] else ' WRONG RESULT'}")
    for who, res in (("nvcc", theirs), ("numba-cuda", numba)):
        if res and res.get("monte_carlo_hits") is not None:
            same = res["monte_carlo_hits"] == ours["monte_carlo_hits"]
            print(f"monte_carlo: {ours['monte_carlo_hits']} hits, {who} "
                  f"{res['monte_carlo_hits']}: {'the same streams' if same else 'DIFFERENT STREAMS'}")
    for who, res in (("ruchey", ours), ("numba-cuda", numba)):
        if res and res["wrong"]:
            print(f"{who}: WRONG RESULTS from {', '.join(res['wrong'])}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nvcc", help="bench/gpu_kernels.cu built by nvcc")
    parser.add_argument("--json", help="write the numbers here")
    parser.add_argument("--ptx", help="write the kernels' PTX here")
    parser.add_argument("--numba-only", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if not cuda.is_available():
        print("no GPU: nothing to time")
        return 1
    if opts.numba_only:
        print(json.dumps(measure()))
        return 0
    dev = cuda.get_current_device()
    ours = measure()
    theirs = nvcc_measure(opts.nvcc)
    numba = numba_measure()
    report(dev, ours, theirs, numba)
    if opts.ptx:
        with open(opts.ptx, "w") as fh:
            for who, res in (("ruchey", ours), ("numba-cuda", numba)):
                for name, ptx in (res["ptx"] if res else {}).items():
                    fh.write(f"// ======== {who}: {name}\n{ptx}\n")
    for res in (ours, numba):
        if res:
            del res["ptx"]
    result = {"device": dev.name, "compute_capability": list(dev.compute_capability),
              "sizes": {"N": N, "M": M, "repeats": REPEATS, "launches": LAUNCHES},
              "ruchey": ours, "nvcc": theirs, "numba_cuda": numba}
    if opts.json:
        with open(opts.json, "w") as fh:
            json.dump(result, fh, indent=1)
    return 1 if ours["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
