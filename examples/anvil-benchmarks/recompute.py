#!/usr/bin/env python3
"""Recompute every number of article/anvil-benchmarks.md from evidence/output.json.

Helper for whoever writes the claims registry; not part of claimcheck. Needs numpy.
Run from anywhere:  python3 examples/anvil-benchmarks/recompute.py [--markdown]

evidence/output.json is the stdout of `cargo criterion --message-format=json` (one JSON
message per line). Each `benchmark-complete` message carries the raw samples:
`measured_values[i]` (ns, `unit`) for `iteration_count[i]` iterations. The per-iteration
time of sample i is measured_values[i] / iteration_count[i]. Every iteration_count here is
1 (flat sampling, `slope` is null), so criterion's `typical` estimate is the plain mean of
the samples; the script checks that too. criterion-table prints `typical` with two
decimals and the speed-up as typical(first column) / typical(this column).

A quoted value MATCHES when the recomputed value rounded to the quoted number of decimals
equals it; otherwise it DISAGREES and the right value is printed.
"""
import json
import pathlib
import re
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent
ARTICLE = ROOT / "article" / "anvil-benchmarks.md"
EVIDENCE = ROOT / "evidence" / "output.json"
UNIT = {"s": 1e9, "ms": 1e6, "us": 1e3, "µs": 1e3, "ns": 1.0}


def load():
    bench = {}
    for line in EVIDENCE.read_text().splitlines():
        if not line.strip():
            continue
        msg = json.loads(line)
        if msg["reason"] != "benchmark-complete":
            continue
        assert msg["unit"] == "ns"
        x = np.array(msg["measured_values"], dtype=float) / np.array(msg["iteration_count"], dtype=float)
        assert abs(x.mean() - msg["typical"]["estimate"]) < 1e-3 and msg["slope"] is None
        bench[msg["id"]] = (x, msg)
    return bench


def tables():
    """Yield (section, row label, column label, time string, unit, ratio string)."""
    sec = None
    header = None
    for line in ARTICLE.read_text().splitlines():
        if line.startswith("### "):
            sec = line[4:].strip()
        elif line.startswith("|") and not line.startswith("| :"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] == "":
                header = [c.strip("`") for c in cells]
                continue
            row = cells[0].strip("*`")
            for col, cell in zip(header[1:], cells[1:]):
                m = re.match(r"`([\d.]+) (\w+)` \(\S+ \*\*([\d.]+)x(?: faster)?\*\*\)", cell)
                assert m, cell
                yield sec, row, col, m.group(1), m.group(2), m.group(3)


def verdict(quoted, value):
    dec = len(quoted.split(".")[1]) if "." in quoted else 0
    if abs(round(value, dec) - float(quoted)) < 1e-9:
        return "MATCHES", dec
    return f"DISAGREES (right value {value:.{dec}f})", dec


def main():
    md = "--markdown" in sys.argv
    bench = load()
    rows = []
    n_ok = n_bad = 0
    table = list(tables())
    for sec, row, col, t, unit, ratio in table:
        bid = f"{sec}/{col}/{row}"
        x, _ = bench[bid]
        base_col = [c for s, r, c, *_ in table if s == sec and r == row][0]
        xb, _ = bench[f"{sec}/{base_col}/{row}"]
        mean = x.mean() / UNIT[unit]
        v, dec = verdict(t, mean)
        rows.append((f"{sec} / {row} / {col} (time)", f"{t} {unit}", f'id == "{bid}"',
                     "measured_values/iteration_count (ns)", f"mean, in {unit}", f"{mean:.{dec + 3}f}", v))
        r = xb.mean() / x.mean()
        v2, dec2 = verdict(ratio, r)
        rows.append((f"{sec} / {row} / {col} (speed-up)", f"{ratio}x", f'id == "{sec}/{base_col}/{row}" ÷ id == "{bid}"',
                     "measured_values/iteration_count (ns)", "ratio of means", f"{r:.{dec2 + 3}f}", v2))
        for verd in (v, v2):
            if verd == "MATCHES":
                n_ok += 1
            else:
                n_bad += 1
    if md:
        print("| Cell (section / row / column) | Quoted | Records | Field | Statistic | Recomputed | Verdict |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        for r in rows:
            print("  ".join(r))
    print(f"\ntable numbers: {n_ok + n_bad}, MATCHES {n_ok}, DISAGREES {n_bad}")

    print("\n# Prose numbers")
    counts = sorted({len(x) for x, _ in bench.values()})
    iters = sorted({int(sum(m["iteration_count"])) for _, m in bench.values()})
    print(f"benchmarks: {len(bench)}; samples per benchmark (count of measured_values): {counts}; "
          f"sum of iteration_count per benchmark: {iters}")
    print("\n# 'ethers-reth is not only faster, but it is also more consistent' (Sequential Simulation)")
    for col in ("Local_Http", "Ipc", "ethers-reth"):
        x, _ = bench[f"Sequential Simulation/{col}/Blocks 14,556,786 -> 14,556,795"]
        print(f"{col:12s} mean {x.mean() / 1e9:.3f} s  stddev {x.std(ddof=1) / 1e9:.3f} s  "
              f"cv {x.std(ddof=1) / x.mean():.4f}  p99-p50 {(np.quantile(x, .99) - np.median(x)) / 1e9:.3f} s  "
              f"max-min {(x.max() - x.min()) / 1e9:.3f} s")


if __name__ == "__main__":
    main()
