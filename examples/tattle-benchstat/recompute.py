#!/usr/bin/env python3
"""Recomputes every number of tattle's benchstat table from the two raw `go test -bench`
outputs in evidence/, as claims/tattle-stats.toml binds them. Needs only Python 3's standard
library. A helper for writing the registry, not part of claimcheck.

Each median is printed twice: as claimcheck's `stat` check computes it (the mean of the two
middle samples, in nanoseconds) and as benchstat computes it (the same, in seconds, after
scaling each sample by 1e-9), because three of them are ties at the quoted precision that the
two computations round to different sides.

Each `± X%` is benchstat's 95 % confidence interval of the median, from order statistics,
its wider side as a percentage of the median; each p-value benchstat's two-sided Mann-Whitney
U test of the base file's samples against the new file's. Both are computed here from their
definitions (exact binomial and rank-sum counts in integers, `math.erfc` for the normal
distribution), independently of claimcheck's `stats::nonparametric`, which follows
go-moremath's floating-point steps.
"""

import math
import re
import sys
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILES = ["v0.1.3", "v1.0.0"]
# The table's rows as the article prints them: the medians, the intervals, the change and the
# p-value it quotes.
ROWS = [
    ("01CallOverhead-4", "0.3155", "4%", "0.2965", "6%", "-6.02%", "0.001"),
    ("02TatErrorsOnly-4", "2.240", "0%", "2.241", "0%", "~", "0.706"),
    ("03AddTaintCheck-4", "2.238", "0%", "2.240", "0%", "~", "0.224"),
    ("04StandardTemplate-4", "7.517", "1%", "7.533", "0%", "~", "0.923"),
    ("05TemplateLogVsLogf-4", "5.590", "0%", "5.604", "0%", "+0.24%", "0.021"),
    ("10HandCoded-4", "4.830", "1%", "4.824", "0%", "~", "0.796"),
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


def median_orders(n, confidence=0.95):
    """The 1-based order statistics bounding the median's interval, for n <= 30 (the exact
    binomial rule benchstat uses there): grow [l, r) from the lower mode of Bin(n, 1/2) towards
    the more probable neighbour, the left one on a tie, until it holds `confidence`. Exact
    fractions, so a tie is a tie; go-moremath's rounding leans right on some ties for some n
    from 22 to 30, but at n = 30 and 0.95 the interval is symmetric and no tie decides it."""
    assert n <= 30
    pmf = lambda k: Fraction(math.comb(n, k), 2 ** n) if 0 <= k <= n else Fraction(0)
    l = n // 2
    r = l + 1
    held = pmf(l)
    while held < Fraction(confidence) and (pmf(l - 1) > 0 or pmf(r) > 0):
        if pmf(l - 1) >= pmf(r):
            held += pmf(l - 1)
            l -= 1
        else:
            held += pmf(r)
            r += 1
    return l, r


def spread(xs, confidence=0.95):
    """benchstat's `± X%` before rounding: 100 * max(hi / median - 1, 1 - lo / median)."""
    s = sorted(xs)
    lo, hi = median_orders(len(s), confidence)
    m = median(s)
    return 100 * max(s[hi - 1] / m - 1, 1 - s[lo - 1] / m), (lo, hi, s[lo - 1], s[hi - 1])


def utest(base, new):
    """Two-sided Mann-Whitney U test of `base` against `new`, as benchstat runs it: exact when
    no value repeats and neither side has more than 50, or some value repeats and neither has
    more than 25; else the normal approximation with tie and continuity correction."""
    n1, n2 = len(base), len(new)
    pooled = sorted(base + new)
    groups, i = [], 0
    while i < len(pooled):
        j = i
        while j < len(pooled) and pooled[j] == pooled[i]:
            j += 1
        groups.append((pooled[i], j - i, i + j + 1))  # value, size, twice its mean rank
        i = j
    twice_rank = {v: m for v, _, m in groups}
    twice_u = sum(twice_rank[v] for v in base) - n1 * (n1 + 1)
    ties = any(t > 1 for _, t, _ in groups)
    if len(groups) == 1:
        return twice_u / 2, 1.0, "every value equal"
    if (not ties and max(n1, n2) <= 50) or (ties and max(n1, n2) <= 25):
        small = min(twice_u, 2 * n1 * n2 - twice_u)
        if twice_u == 2 * n1 * n2 - twice_u:
            return twice_u / 2, 1.0, "exact"
        ways = {(0, 0): 1}  # (values of base taken, twice their rank sum) -> arrangements
        for _, t, m in groups:
            nxt = {}
            for (k, s), c in ways.items():
                for r in range(min(t, n1 - k) + 1):
                    nxt[(k + r, s + r * m)] = nxt.get((k + r, s + r * m), 0) + c * math.comb(t, r)
            ways = nxt
        at_most = sum(c for (k, s), c in ways.items() if k == n1 and s - n1 * (n1 + 1) <= small)
        return twice_u / 2, float(Fraction(2 * at_most, math.comb(n1 + n2, n1))), "exact"
    big_n = n1 + n2
    tie_term = sum(t ** 3 - t for _, t, _ in groups)
    sigma = math.sqrt(n1 * n2 * ((big_n + 1) - tie_term / (big_n * (big_n - 1))) / 12)
    distance = twice_u / 2 - n1 * n2 / 2
    distance -= math.copysign(0.5, distance) if distance else 0
    below = math.erfc(-distance / sigma / math.sqrt(2)) / 2
    return twice_u / 2, 2 * min(below, 1 - below), "normal, tie-corrected" if ties else "normal"


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
    print("| Row | Column | Quoted | Recomputed | benchstat (ns) | n | Verdict |")
    print("|---|---|---|---|---|---|---|")
    medians = {f: [] for f in FILES}
    for row, old_q, old_ci, new_q, new_ci, delta, p_quoted in ROWS:
        name = "Benchmark" + row.rsplit("-", 1)[0]
        for f, quoted, ci_quoted in zip(FILES, (old_q, new_q), (old_ci, new_ci)):
            xs = data[f][name]
            ours, theirs = median(xs), median(xs, 1e-9)
            medians[f].append(ours)
            print(f"| {row} | {f} sec/op | {quoted} | {ours!r} | {theirs!r} | {len(xs)} | {verdict(quoted, ours)} |")
            pct, (lo, hi, x_lo, x_hi) = spread(xs)
            print(f"| {row} | {f} sec/op ± | {ci_quoted} | {pct:.4f} % (x({lo}) = {x_lo} to x({hi}) = {x_hi}) | | {len(xs)} | {verdict(ci_quoted, pct)} |")
        change = (median(data["v1.0.0"][name]) / median(data["v0.1.3"][name]) - 1) * 100
        shown = verdict(delta, change) if delta != "~" else "not bound (not significant)"
        print(f"| {row} | v1.0.0 sec/op vs base | {delta} | {change:+.4f} % | | | {shown} |")
        u, p, how = utest(data["v0.1.3"][name], data["v1.0.0"][name])
        print(f"| {row} | v1.0.0 sec/op vs base | p={p_quoted} | p = {p:.6f} (U = {u}, {how}) | | | {verdict(p_quoted, p)} |")
    geo = {f: math.prod(medians[f]) ** (1 / len(medians[f])) for f in FILES}
    _, old_q, new_q, delta = GEOMEAN
    for f, quoted in zip(FILES, (old_q, new_q)):
        print(f"| geomean | {f} sec/op | {quoted} | {geo[f]!r} | | | {verdict(quoted, geo[f])} |")
    change = (geo["v1.0.0"] / geo["v0.1.3"] - 1) * 100
    print(f"| geomean | v1.0.0 sec/op vs base | {delta} | {change:+.4f} % | | | {verdict(delta, change)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
