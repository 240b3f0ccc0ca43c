#!/usr/bin/env python3
"""Recompute the numbers of dtaralla/hash_funsies' README from criterion's saved samples.

A helper for reading NOTES.md, not part of claimcheck. Needs Python 3 only. Prints, for each of
the fifteen benchmarks, the mean of its per-iteration times (the estimate criterion prints in
flat sampling) beside the bounds of criterion's own interval from its estimates.json, then the
ratios the prose quotes. With --bootstrap N it also draws N bootstrap resamples of each mean
(seeded, so the same every time) and prints their 2.5 and 97.5 percentiles, which differ from
criterion's in the last digits, as two draws of one bootstrap do.
"""
import json
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).parent / "evidence" / "criterion"
GROUPS = ["hashes", "inserts", "reads"]
BENCHES = ["vanilla", "crc", "fib", "ahash", "id"]


def per_iteration(group, bench):
    sample = json.loads((ROOT / group / bench / "new" / "sample.json").read_text())
    assert sample["sampling_mode"] == "Flat"
    return [t / i for t, i in zip(sample["times"], sample["iters"])]


def percentile(sorted_values, p):
    """numpy's linear method, which criterion's Percentiles::at also uses."""
    rank = p / 100 * (len(sorted_values) - 1)
    lo = int(rank)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (rank - lo)


def show(ns):
    return f"{ns / 1e6:.5g} ms" if ns >= 1e6 else f"{ns / 1e3:.5g} µs"


def main():
    resamples = int(sys.argv[sys.argv.index("--bootstrap") + 1]) if "--bootstrap" in sys.argv else 0
    means = {}
    for group in GROUPS:
        for bench in BENCHES:
            values = per_iteration(group, bench)
            mean = statistics.fmean(values)
            means[group, bench] = mean
            ci = json.loads((ROOT / group / bench / "new" / "estimates.json").read_text())["mean"]["confidence_interval"]
            line = f"{group}/{bench}: mean {show(mean)}; criterion's interval [{show(ci['lower_bound'])} {show(ci['upper_bound'])}]"
            if resamples:
                rng = random.Random(20240614)
                draws = sorted(statistics.fmean(rng.choices(values, k=len(values))) for _ in range(resamples))
                line += f"; {resamples} resamples drawn here [{show(percentile(draws, 2.5))} {show(percentile(draws, 97.5))}]"
            print(line)
    m = lambda group, bench: means[group, bench]
    print()
    print(f"hashes: ahash / fib = {m('hashes', 'ahash') / m('hashes', 'fib'):.3f}  (\"around 2x\")")
    print(f"hashes: ahash / id = {m('hashes', 'ahash') / m('hashes', 'id'):.3f}  (\"around 2x\")")
    print(f"hashes: vanilla / fib = {m('hashes', 'vanilla') / m('hashes', 'fib'):.3f}  (\"roughly 14x\", \"14x faster to hash\")")
    print(f"hashes: crc / fib = {m('hashes', 'crc') / m('hashes', 'fib'):.3f}  (\"16x\")")
    nearest = min(m("inserts", b) for b in BENCHES if b != "ahash")
    print(f"inserts: min(others) / ahash = {nearest / m('inserts', 'ahash'):.3f}  (\"at least 1.5x faster than all\")")
    a, c = m("reads", "vanilla") / m("reads", "fib"), m("reads", "crc") / m("reads", "fib")
    print(f"reads: vanilla / fib = {a:.3f}, crc / fib = {c:.3f}, average {(a + c) / 2:.3f}  (\"3.5x slower than Fib on average\")")


if __name__ == "__main__":
    main()
