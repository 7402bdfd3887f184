"""Where compile time goes, step by step: a summary of the lines
RUCHEY_COMPILE_LOG makes libruchey write, one per module generated.

    RUCHEY_COMPILE_LOG=compile.tsv python -m pytest -q tests/test_loops.py
    python bench/compile_stages.py compile.tsv

Each line is a module's symbol, how its code was made (the optimisation
pipeline, or "shared": the code of an equal module compiled before), the
hash of its bitcode, its instructions before optimisation and the calling thread's CPU milliseconds
in each step (lowering, the equal-module key, verifying and choosing the
pipeline, optimisation, code generation with loading). The summary gives,
per way, the modules, their mean size and each step's total, and the
modules optimised again though an equal one had been before (its code
no longer kept).
"""
import argparse
import collections

STEPS = ("lower", "key", "check", "optimise", "codegen")


def read(path):
    """(symbol, how, bitcode hash, instructions, {step: ms}) for each line."""
    with open(path) as f:
        for line in f:
            symbol, how, key, instructions, *ms = line.rstrip("\n").split("\t")
            yield symbol, how, key, int(instructions), dict(zip(STEPS, map(float, ms)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    options = ap.parse_args()
    ways = collections.defaultdict(lambda: [0, 0, collections.Counter()])
    seen, again, again_ms = set(), 0, 0.0
    for _, how, key, instructions, ms in read(options.log):
        if how != "shared" and key in seen:
            again += 1
            again_ms += ms["optimise"] + ms["codegen"]
        seen.add(key)
        way = ways[how]
        way[0] += 1
        way[1] += instructions
        way[2].update(ms)
    total = sum(sum(way[2].values()) for way in ways.values())
    print(f"{'way':14s} {'modules':>7s} {'instrs':>7s} " + " ".join(f"{s:>9s}" for s in STEPS) +
          f" {'total ms':>9s} {'share':>6s}")
    for how, (count, instructions, ms) in sorted(ways.items(), key=lambda w: -sum(w[1][2].values())):
        spent = sum(ms.values())
        print(f"{how:14s} {count:7d} {instructions / count:7.0f} " + " ".join(f"{ms[s]:9.1f}" for s in STEPS) +
              f" {spent:9.1f} {100 * spent / total:5.1f}%")
    print(f"\n{again} modules optimised again, equal to one before: {again_ms:.1f} ms")


if __name__ == "__main__":
    main()
