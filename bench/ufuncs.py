"""@vectorize ufuncs against the same loop under @njit, and target="parallel".

    python3 bench/ufuncs.py [--n N]

  1. a memory-bound body (a * b + 1.0) and a compute-bound one
     (sqrt(a) * sin(b) + exp(-a)) over N float64 (10^6): the ufunc called on
     whole arrays (output allocated by NumPy) against the @njit loop that
     allocates its output and computes the same body written inline per
     element; the ratio ufunc / loop (target: at most 1.1);
  2. the compute-bound ufunc with target="parallel" against target="cpu"
     (target: at least 1.8x faster on 2 cores).

Medians over alternating rounds (timing.round_robin).
"""
import argparse
import math

import numpy as np

from timing import round_robin

import ruchey


def light(a, b):
    return a * b + 1.0


def heavy(a, b):
    return math.sqrt(a) * math.sin(b) + math.exp(-a)


@ruchey.njit
def light_loop(x, y):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] * y[i] + 1.0
    return out


@ruchey.njit
def heavy_loop(x, y):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = math.sqrt(x[i]) * math.sin(y[i]) + math.exp(-x[i])
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=1_000_000)
    n = p.parse_args().n
    rng = np.random.default_rng(0)
    x, y = rng.random(n) + 0.5, rng.random(n)
    sig = ["float64(float64, float64)"]
    failed = False
    for body, loop in ((light, light_loop), (heavy, heavy_loop)):
        uf = ruchey.vectorize(sig)(body)
        assert np.allclose(uf(x, y), loop(x, y))
        t, _ = round_robin({"ufunc": lambda: uf(x, y), "njit": lambda: loop(x, y)}, 3.0, 5, 200)
        ratio = t["ufunc"] / t["njit"]
        ok = ratio <= 1.1
        failed |= not ok
        print(f"{body.__name__:6s} n={n}: ufunc {t['ufunc'] * 1e3:.3f} ms, njit loop {t['njit'] * 1e3:.3f} ms, "
              f"ratio {ratio:.3f} {'PASS' if ok else 'FAIL'} (<= 1.1)")
    cpu = ruchey.vectorize(sig)(heavy)
    par = ruchey.vectorize(sig, target="parallel")(heavy)
    assert np.allclose(cpu(x, y), par(x, y))
    t, _ = round_robin({"cpu": lambda: cpu(x, y), "parallel": lambda: par(x, y)}, 3.0, 5, 200)
    speedup = t["cpu"] / t["parallel"]
    ok = speedup >= 1.8
    failed |= not ok
    print(f"heavy  n={n}: target=cpu {t['cpu'] * 1e3:.3f} ms, parallel {t['parallel'] * 1e3:.3f} ms "
          f"on {ruchey.get_num_threads()} threads, speed-up {speedup:.2f} {'PASS' if ok else 'FAIL'} (>= 1.8)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
