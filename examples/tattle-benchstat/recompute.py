#!/usr/bin/env python3
"""Recomputes every number of tattle's benchstat table from the two raw `go test -bench`
outputs in evidence/, as claims/tattle-stats.toml binds them. Needs only Python 3's standard
library. A helper for writing the registry, not part of claimcheck.

Each median is printed twice: as claimcheck's `stat` check computes it (the mean of the two
middle samples, in nanoseconds) and as benchstat computes it (the same, in seconds, after
scaling each sample by 1e-9), because three of them are ties at the quoted precision that the
two computations round to different sides.
"""

import math
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILES = ["v0.1.3", "v1.0.0"]
# The table's rows as the article prints them, with the medians, changes and sample counts it quotes.
ROWS = [
    ("01CallOverhead-4", "0.3155", "0.2965", "-6.02%"),
    ("02TatErrorsOnly-4", "2.240", "2.241", "~"),
    ("03AddTaintCheck-4", "2.238", "2.240", "~"),
    ("04StandardTemplate-4", "7.517", "7.533", "~"),
    ("05TemplateLogVsLogf-4", "5.590", "5.604", "+0.24%"),
    ("10HandCoded-4", "4.830", "4.824", "~"),
]
GEOMEAN = ("geomean", "2.617", "2.592", "-0.96%")
LINE = re.compile(r"^(Benchmark\S*?)(?:-(\d+))?\s+(\d+)\s+(\S+) ns/op")


def samples(name):
    """Every result line's ns/op, by the benchmark's name without its -N suffix."""
    out = {}
    for line in (HERE / "evidence" / name).read_text().splitlines():
        m = LINE.match(line)
        if m:
            out.setdefault(m.group(1), []).append(float(m.group(4)))
    return out


def median(xs, scale=1.0):
    """The median as numpy computes it, of the samples multiplied by `scale`, divided back."""
    s = sorted(x * scale for x in xs)
    n = len(s)
    mid = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    return mid / scale


def decimals(text):
    digits = text.rstrip("%").lstrip("+-")
    return len(digits.split(".")[1]) if "." in digits else 0


def shown(quoted, value):
    return f"{value:.{decimals(quoted)}f}" == quoted.lstrip("+").rstrip("%") or f"{value:+.{decimals(quoted)}f}" == quoted.rstrip("%")


def verdict(quoted, value):
    """claimcheck's matching rule: the value written with the quote's decimals is the quote, or
    the value sits on a half-unit boundary to within eight units in the last place (a decimal
    tie that binary arithmetic nudged to one side), and the quote is one of its neighbours."""
    if shown(quoted, value):
        return "MATCHES"
    scale = 10.0 ** decimals(quoted)
    x = value * scale
    below = round(x - 0.5)
    if abs(x - (below + 0.5)) <= 8 * sys.float_info.epsilon * max(abs(x), 1.0):
        if shown(quoted, below / scale) or shown(quoted, (below + 1) / scale):
            return "MATCHES (tie)"
    return "DIFFERS"


def main():
    data = {f: samples(f) for f in FILES}
    print("| Row | Column | Quoted | claimcheck (ns) | benchstat (ns) | n | Verdict |")
    print("|---|---|---|---|---|---|---|")
    medians = {f: [] for f in FILES}
    for row, old_q, new_q, delta in ROWS:
        name = "Benchmark" + row.rsplit("-", 1)[0]
        for f, quoted in zip(FILES, (old_q, new_q)):
            xs = data[f][name]
            ours, theirs = median(xs), median(xs, 1e-9)
            medians[f].append(ours)
            print(f"| {row} | {f} sec/op | {quoted} | {ours!r} | {theirs!r} | {len(xs)} | {verdict(quoted, ours)} |")
        change = (median(data["v1.0.0"][name]) / median(data["v0.1.3"][name]) - 1) * 100
        shown = verdict(delta, change) if delta != "~" else "not bound (not significant)"
        print(f"| {row} | v1.0.0 vs base | {delta} | {change:+.4f} % | | | {shown} |")
    geo = {f: math.prod(medians[f]) ** (1 / len(medians[f])) for f in FILES}
    _, old_q, new_q, delta = GEOMEAN
    for f, quoted in zip(FILES, (old_q, new_q)):
        print(f"| geomean | {f} sec/op | {quoted} | {geo[f]!r} | | | {verdict(quoted, geo[f])} |")
    change = (geo["v1.0.0"] / geo["v0.1.3"] - 1) * 100
    print(f"| geomean | v1.0.0 vs base | {delta} | {change:+.4f} % | | | {verdict(delta, change)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
