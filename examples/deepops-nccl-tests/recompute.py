#!/usr/bin/env python3
"""Recomputes the nccl-tests tables of the two DeepOps guides, and writes their registries.

A helper for writing this example's registries, not part of claimcheck; standard library only.

    python3 recompute.py                 # prints every recomputation, row by row
    python3 recompute.py --registry NAME # prints the claims of claims/NAME.toml's tables

nccl-tests computes, for an all-reduce of S bytes over n ranks that took t microseconds
(its doc/PERFORMANCE.md and src/all_reduce.cu):

    algbw = S / t / 1000          in GB/s (decimal), as S / 1e9 / (t / 1e6)
    busbw = algbw * 2 * (n - 1) / n

and prints t to four or five significant places, algbw and busbw to two decimals. Each value is
recomputed here from the printed size and time, the time standing for every value that rounds to
it (claimcheck's `~`), and compared with the printed value at its precision. The footer's
`Avg bus bandwidth` is the mean of every busbw of the table, out-of-place and in-place.
"""

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The ranks of each run: 4 DGX A100 nodes of 8 GPUs, and 2 of 8 (the prose says so, and the
# registries check it from the ratio of busbw to algbw).
DOCS = {
    "slurm-perf-cluster": ("article/slurm-perf-cluster.md", 32),
    "nvidia-network-operator": ("article/nvidia-network-operator.md", 16),
}

ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+(\w+)\s+(\w+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$")


def rows(path):
    """The result rows of the one nccl-tests table in `path`, as printed."""
    out = []
    for line in (HERE / path).read_text().splitlines():
        m = ROW.match(line)
        if m:
            size, _count, _type, _op, t1, a1, b1, e1, t2, a2, b2, e2 = m.groups()
            out.append({"size": size, "out": (t1, a1, b1, e1), "in": (t2, a2, b2, e2)})
    return out


def decimals(text):
    return len(text.split(".")[1]) if "." in text else 0


def half(text):
    return 0.5 * 10 ** -decimals(text)


def matches(quoted, low, high):
    """Whether any value from low to high rounds to the quoted text."""
    q = float(quoted)
    nearest = min(max(q, low), high)
    return abs(nearest - q) <= half(quoted) + 1e-12


def report():
    for name, (path, n) in DOCS.items():
        table = rows(path)
        print(f"{name}: {len(table)} rows, {n} ranks")
        busbws = []
        for r in table:
            size = int(r["size"])
            for place in ("out", "in"):
                t, a, b, _e = r[place]
                lo_t, hi_t = float(t) - half(t), float(t) + half(t)
                alg = (size / hi_t / 1000, size / lo_t / 1000)
                bus = tuple(x * 2 * (n - 1) / n for x in alg)
                busbws.append(b)
                print(
                    f"  {size:>11} {place:>3}  t={t:>8}  algbw {a:>7} from {alg[0]:.4f}..{alg[1]:.4f} {'ok' if matches(a, *alg) else 'DIFFERS'}"
                    f"  busbw {b:>7} from {bus[0]:.4f}..{bus[1]:.4f} {'ok' if matches(b, *bus) else 'DIFFERS'}"
                )
        total = sum(float(b) for b in busbws)
        spread = sum(half(b) for b in busbws)
        print(f"  mean busbw over {len(busbws)} values: {(total - spread) / len(busbws):.4f}..{(total + spread) / len(busbws):.4f}")


def claim(id, row, column, verdict, finding, labels=None, number=None, expr=None):
    """One claim of a table cell: a judgment with its labels, or a check of it by `expr`."""
    text = f'''[[claim]]
id = "{id}"
cell = {{ row = "{row}", column = "{column}" }}
verdict = "{verdict}"
finding = "{finding}"
'''
    if labels is not None:
        text += f'labels = ["{labels}"]\n'
    if expr is not None:
        text += f'''
  [[claim.check]]
  kind = "arith"
  number = "{number}"
  expr = "{expr}"
'''
    return text


def registry(name):
    path, n = DOCS[name]
    out = []
    busbws = []
    for r in rows(path):
        size = r["size"]
        for place, label in (("out", "out-of-place"), ("in", "in-place")):
            t, a, b, e = r[place]
            busbws.append(b)
            algbw = f"{size} / ~{t} / 1000"
            out.append(
                claim(
                    f"{place}-time-{size}",
                    size,
                    f"{label} time",
                    "judgment",
                    f"The {label} all-reduce of {size} bytes as nccl-tests timed it, the mean of its iterations in µs; no raw timings are published. The algbw and busbw beside it are checked against it.",
                    labels=t,
                )
                + "\n"
                + claim(f"{place}-algbw-{size}", size, f"{label} algbw", "retain", f"The bytes over the time: {size} B in {t} µs, in decimal GB/s.", number=a, expr=algbw)
                + "\n"
                + claim(
                    f"{place}-busbw-{size}",
                    size,
                    f"{label} busbw",
                    "retain",
                    f"The algorithm bandwidth times an all-reduce's 2(n - 1)/n for n = {n} ranks, from the size and time.",
                    number=b,
                    expr=f"{algbw} * 2 * ({n} - 1) / {n}",
                )
                + "\n"
                + claim(
                    f"{place}-error-{size}",
                    size,
                    f"{label} error",
                    "judgment",
                    "The largest relative error nccl-tests' validation found in the result, as printed; the footer's out-of-bounds count is 0.",
                    labels=e,
                )
            )
    terms = " + ".join(f"~{b}" for b in busbws)
    out.append(
        claim(
            "avg-bus-bandwidth",
            "Run",
            "Avg bus bandwidth",
            "retain",
            f"The mean of the table's {len(busbws)} bus bandwidths, out-of-place and in-place, each standing for every value that rounds to it.",
            number=avg_of(path),
            expr=f"({terms}) / {len(busbws)}",
        )
    )
    print("\n".join(out), end="")


def avg_of(path):
    for line in (HERE / path).read_text().splitlines():
        if line.startswith("# Avg bus bandwidth"):
            return line.split(":")[1].split()[0]
    raise SystemExit(f"{path}: no footer")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--registry":
        registry(sys.argv[2])
    else:
        report()
