"""Random numbers inside compiled code: ruchey vs Numba vs NumPy itself.

    python3 bench/random_draws.py [--n N]

numpy.random.random(N) (10**6) as one call, and a compiled loop drawing
numpy.random.normal() N times into an array (NumPy: numpy.random.normal(size=N),
its own loop in C), each written once as a small function, compiled by
ruchey and by Numba. Every function seeds first, so each result is checked
against NumPy's legacy stream from the same seed. Then the same for a
numpy.random.Generator passed in (numpy.random.default_rng(1), made anew
for each call): a loop of rng.normal() N times, rng.standard_normal(N) as
one call, a loop of rng.beta(2.0, 3.0) N times (two gammas a draw),
rng.standard_normal(N, dtype=float32) (the float32 ziggurat) and
rng.choice(N, N // 2, replace=False) (a shuffled tail), rng.hypergeometric(100,
200, 50, N) (the ratio of uniforms), rng.multinomial(100, [0.2, 0.3, 0.5], N // 10),
rng.dirichlet([0.5, 1.5, 3.0], N // 10) and rng.permuted of N values along
rows of 100 (Numba's Generator has none of the last five); checked against the
Generator's own stream. Prints the median
milliseconds per call (bench/timing.py's round robin).

Target (issue 14): all at least as fast as Numba.
"""
import argparse

import numpy as np

from timing import round_robin


def random_array(n):
    np.random.seed(1)
    return np.random.random(n)


def normal_loop(n):
    np.random.seed(1)
    out = np.empty(n)
    for i in range(n):
        out[i] = np.random.normal()
    return out


def numpy_normal(n):
    np.random.seed(1)
    return np.random.normal(size=n)


def generator_normal_loop(rng, n):
    out = np.empty(n)
    for i in range(n):
        out[i] = rng.normal()
    return out


def generator_normal_array(rng, n):
    return rng.standard_normal(n)


def numpy_generator_normal(rng, n):
    return rng.normal(size=n)


def generator_beta_loop(rng, n):
    out = np.empty(n)
    for i in range(n):
        out[i] = rng.beta(2.0, 3.0)
    return out


def numpy_generator_beta(rng, n):
    return rng.beta(2.0, 3.0, n)


def generator_normal_f32(rng, n):
    return rng.standard_normal(n, dtype=np.float32)


def generator_choice(rng, n):
    return rng.choice(n, n // 2, replace=False)


def generator_hypergeometric(rng, n):
    return rng.hypergeometric(100, 200, 50, n)


def generator_multinomial(rng, n):
    return rng.multinomial(100, np.array([0.2, 0.3, 0.5]), n // 10)


def generator_dirichlet(rng, n):
    return rng.dirichlet(np.array([0.5, 1.5, 3.0]), n // 10)


def generator_permuted(rng, n):
    return rng.permuted(np.arange(n).reshape(-1, 100), axis=1)


NUMBA_HAS_NONE = {generator_choice, generator_hypergeometric, generator_multinomial, generator_dirichlet,
                  generator_permuted}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**6)
    args = parser.parse_args()
    import ruchey
    try:
        import numba
    except ImportError:
        numba = None
    n = args.n
    print(f"{'':16s}{'numpy':>10s}{'ruchey':>10s}{'numba':>10s}   (ms, n = {n})")
    for f, plain in ((random_array, random_array), (normal_loop, numpy_normal)):
        calls = {"numpy": lambda p=plain: p(n), "ruchey": (lambda r=ruchey.njit(f): r(n))}
        if numba is not None:
            calls["numba"] = lambda nb=numba.njit(f): nb(n)
        expected = plain(n)
        for name, call in calls.items():
            assert np.array_equal(call(), expected), name
        report(f.__name__, calls)
    for f, plain in ((generator_normal_loop, numpy_generator_normal), (generator_normal_array, generator_normal_array),
                     (generator_beta_loop, numpy_generator_beta), (generator_normal_f32, generator_normal_f32),
                     (generator_choice, generator_choice), (generator_hypergeometric, generator_hypergeometric),
                     (generator_multinomial, generator_multinomial), (generator_dirichlet, generator_dirichlet),
                     (generator_permuted, generator_permuted)):
        fresh = lambda: np.random.default_rng(1)  # noqa: E731
        calls = {"numpy": lambda p=plain: p(fresh(), n), "ruchey": (lambda r=ruchey.njit(f): r(fresh(), n))}
        if numba is not None and f not in NUMBA_HAS_NONE:
            calls["numba"] = lambda nb=numba.njit(f): nb(fresh(), n)
        expected = plain(fresh(), n)
        for name, call in calls.items():
            assert np.array_equal(call(), expected), name
        report(f.__name__.replace("generator_", "rng_"), calls)


def report(name, calls):
    med, _ = round_robin(calls, budget_s=6, min_rounds=5, max_rounds=30)
    cols = "".join(f"{med[k] * 1e3:10.2f}" if k in med else f"{'-':>10s}" for k in ("numpy", "ruchey", "numba"))
    print(f"{name:16s}{cols}")


if __name__ == "__main__":
    main()
