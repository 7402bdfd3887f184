"""What one grid.sync() costs on the CPU backend: a kernel of many grid
barriers minus the same kernel with none, per barrier, over grids of
several sizes and blocks of several widths; the median of several runs.

    python3 bench/cuda_grid_sync.py [runs]
"""
import statistics
import sys

import numpy as np

import ruchey
from ruchey import cuda

from cuda_kernels import grid_syncs, median_time  # the bench's own row: barriers alone


@cuda.jit
def grid_steps(rounds, x):
    """A step of work between barriers, as a Jacobi sweep has."""
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    n = x.size
    for _ in range(rounds):
        v = x[i] + x[(i + 1) % n]
        g.sync()
        x[i] = v * 0.5
        g.sync()


def per_barrier(kernel, blocks, threads, rounds, arg, barriers_per_round=1):
    kernel[blocks, threads](rounds, arg)
    full = median_time(lambda: kernel[blocks, threads](rounds, arg), repeats=5)
    empty = median_time(lambda: kernel[blocks, threads](0, arg), repeats=5)
    return (full - empty) / (rounds * barriers_per_round)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    threads = ruchey.get_num_threads()
    print(f"grid.sync() on the CPU backend, {threads} pool threads, median of {runs} runs (each a median of 5)")
    for kernel, per_round in ((grid_syncs, 1), (grid_steps, 2)):
        for blocks, width in ((64, 1), (64, 32), (1024, 1), (1024, 32)):
            rounds = max(500, 200000 // blocks)
            if kernel is grid_syncs:
                arg = np.zeros(blocks * width, np.int64)
            else:
                arg = np.random.default_rng(0).random(blocks * width)
            costs = [per_barrier(kernel, blocks, width, rounds, arg, per_round) for _ in range(runs)]
            print(f"{kernel.__name__:<11}{blocks:>5} blocks x {width:>2} threads: "
                  f"{statistics.median(costs) * 1e6:7.2f} us per barrier "
                  f"(runs {', '.join(f'{c * 1e6:.1f}' for c in costs)})")


if __name__ == "__main__":
    main()
