#!/usr/bin/env python3
"""Recompute every bound number of net-mediate's docs/BENCHMARKS.md (article/BENCHMARKS.md).

Independent of claimcheck: Python's standard library only.

* BenchmarkDotNet's two tables of the same run, the GitHub report the CI appended (its method
  names HTML-escaped, `&#39;Command  Send&#39;`) and the table BenchmarkDotNet printed at the
  end of its console output (in the code block under "Full Console Output"): for each row, the
  case's `WorkloadResult` lines in evidence/net-mediate-0.15.8.log (BenchmarkDotNet's log: the
  same console output, lines 301-1253 of the document), each a time of
  `<ns> / <op>` nanoseconds per operation, and its `// GC:` line
  (`gen0 gen1 gen2 bytes operations`):
  - Mean, StdDev (over n - 1) of those times;
  - Error: t(0.9995, n - 1) * StdDev / sqrt(n), half of the 99.9 % confidence interval;
  - Gen0: gen0 * 1000 / operations, collections per 1000 operations;
  - Allocated: bytes / operations, rounded to a whole byte;
  each written with the table's decimals (a tie away from zero, as .NET rounds), beside the
  table's figure.
* The arithmetic of the document's own throughput table (Operations over Elapsed, "~" to the
  thousand), of its footnote (260,000 invocations/s times 3 items), of "3 measured
  iterations" (the `ShortRun` job's results a case), and what the CI thresholds of 500 msgs/s
  are as multiples of the document's own throughputs (for the "10-100x" judgment).

The t quantile is found here by integrating Student's t density with Simpson's rule and
bisecting on the tail, a different method from claimcheck's (the incomplete beta function's
continued fraction), so that the two check each other.

Usage: python3 recompute.py [--markdown]   (from anywhere; paths are relative to this file)
--markdown prints the rows of NOTES.md's table.
"""

import html
import math
import re
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
ARTICLE = HERE / "article" / "BENCHMARKS.md"
LOG = HERE / "evidence" / "net-mediate-0.15.8.log"

HEADER = re.compile(r"^// Benchmark: CoreDispatchBenchmarks\.('.*'): ([A-Za-z0-9-]+)(\(.*\))?$")
RESULT = re.compile(r"^WorkloadResult\s+(\d+): (\d+) op, ([0-9.]+) ns, [0-9.]+ ns/op$")
GC = re.compile(r"^// GC:\s+(\d+) (\d+) (\d+) (\d+) (\d+)$")


def t_density(x, df):
    """Student's t probability density with df degrees of freedom."""
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_c - (df + 1) / 2 * math.log1p(x * x / df))


def upper_tail(t, df, steps=20000):
    """P(T > t) for t >= 0: one half minus the integral of the density from 0 to t (Simpson)."""
    h = t / steps
    total = t_density(0.0, df) + t_density(t, df)
    for k in range(1, steps):
        total += (4 if k % 2 else 2) * t_density(k * h, df)
    return 0.5 - total * h / 3


def t_quantile(p, df):
    """The t with P(T <= t) = p, for p > 0.5, by bisection on the upper tail."""
    tail = 1.0 - p
    lo, hi = 0.0, 1.0
    while upper_tail(hi, df) > tail:
        lo, hi = hi, hi * 2
    for _ in range(60):
        mid = (lo + hi) / 2
        if upper_tail(mid, df) > tail:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def decimals(text):
    """How many decimals a figure is printed with (`69.85` has 2)."""
    digits = text.replace(",", "")
    return len(digits.split(".")[1]) if "." in digits else 0


def rounded(value, places):
    """`value` with `places` decimals, a tie away from zero, as .NET formats."""
    return str(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def cases():
    """Each case of the log, in order: (method, job) -> {"times": [...], "gc": (...), "lines": [...]}.
    A case's results are the `WorkloadResult` lines after its header; its `// GC:` line is the
    last one of its launch (one launch a case here, and no diagnostic run)."""
    out = {}
    current = None
    for number, line in enumerate(LOG.read_text().splitlines(), start=1):
        m = HEADER.match(line)
        if m:
            current = (m.group(1), m.group(2))
            out[current] = {"times": [], "gc": None, "lines": []}
            continue
        if current is None:
            continue
        m = RESULT.match(line)
        if m:
            out[current]["times"].append(float(m.group(3)) / int(m.group(2)))
            out[current]["lines"].append(number)
            continue
        m = GC.match(line)
        if m:
            out[current]["gc"] = tuple(int(g) for g in m.groups())
    return out


def tables():
    """BenchmarkDotNet's two tables in the article: (where, header, rows), each row its cells
    with HTML entities decoded (the report's `&#39;`)."""
    found = []
    lines = ARTICLE.read_text().splitlines()
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.startswith("| Method ") and k + 1 < len(lines) and set(lines[k + 1].replace("|", "").replace(" ", "")) <= {"-", ":"}:
            header = [c.strip() for c in line.strip().strip("|").split("|")]
            rows = []
            j = k + 2
            while j < len(lines) and lines[j].startswith("|"):
                rows.append((j + 1, [html.unescape(c.strip()) for c in lines[j].strip().strip("|").split("|")]))
                j += 1
            found.append(("report" if k + 1 < 1000 else "console", header, rows))
            k = j
        else:
            k += 1
    return found


def table_rows(markdown):
    """The recomputation of every cell of both tables."""
    data = cases()
    quantiles = {}
    out = []
    for where, header, rows in tables():
        for line, cells in rows:
            cell = dict(zip(header, cells))
            key = (cell["Method"], cell["Job"])
            case = data[key]
            times = case["times"]
            n = len(times)
            mean = sum(times) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in times) / (n - 1))
            if n - 1 not in quantiles:
                quantiles[n - 1] = t_quantile(0.9995, n - 1)
            gen0, _gen1, _gen2, allocated, operations = case["gc"]
            computed = {
                "Mean": mean,
                "Error": quantiles[n - 1] * sd / math.sqrt(n),
                "StdDev": sd,
                "Gen0": gen0 * 1000 / operations,
                "Allocated": allocated / operations,
            }
            for column in ["Mean", "Error", "StdDev", "Gen0", "Allocated"]:
                quoted = cell[column]
                value, unit = (quoted.split() + [""])[:2]
                shown = computed[column]
                text = rounded(shown, decimals(value))
                out.append((where, line, f"{key[0]}: {key[1]}", column, quoted, f"{text} {unit}".strip(), shown, n, text == value))
    return out


def arithmetic():
    """The document's own arithmetic: (what, quoted, recomputed text, exact, agrees)."""
    out = []
    text = ARTICLE.read_text()
    for kind, ops, elapsed, quoted in re.findall(r"^\| (\w+) \| `[^`]+` \| ([\d,]+) \| ([\d.]+) \| \*\*~([\d,]+) \w+/s\*\*", text, re.M):
        value = int(ops.replace(",", "")) / (float(elapsed) / 1000)
        thousands = round(value / 1000) * 1000
        out.append((f"Throughput, {kind}: {ops} / {elapsed} ms", quoted, f"{thousands:,}", value, f"{thousands:,}" == quoted))
    out.append(("Footnote: 260,000 invocations/s x 3 items", "780,000", f"{260000 * 3:,}", 260000 * 3, 260000 * 3 == 780000))
    unrounded = 3 * 10000 / (38.51 / 1000)
    out.append(("Footnote from the unrounded rate: 3 x 10,000 / 38.51 ms", "780,000", f"{round(unrounded / 1000) * 1000:,}", unrounded, False))
    data = cases()
    short = {k: len(v["times"]) for k, v in data.items() if k[1] == "ShortRun"}
    out.append(("ShortRun: measured iterations a case", "3", ", ".join(str(v) for v in short.values()), min(short.values()), set(short.values()) == {3}))
    for kind, rate in [("Command", 1246000), ("Notification", 1499000), ("Request", 1888000), ("Stream", 260000)]:
        out.append((f"{kind}'s throughput over the 500 msgs/s threshold", "10-100x", f"{rate / 500:,.0f}x", rate / 500, False))
    return out


def main():
    markdown = "--markdown" in sys.argv[1:]
    rows = table_rows(markdown)
    agree = sum(r[-1] for r in rows)
    for where, line, case, column, quoted, text, exact, n, ok in rows:
        if markdown:
            print(f"| {where} (line {line}) | {case} | {column} | {quoted} | {text} ({exact!r}) | {n} | {'MATCHES' if ok else 'DIFFERS'} |")
        else:
            print(f"{where:<8} {case:<52} {column:<9} {quoted:>10}   recomputed {text:<10} n={n:<2} {'agrees' if ok else 'DIFFERS'}")
    print()
    for what, quoted, text, exact, ok in arithmetic():
        if markdown:
            print(f"| {what} | {quoted} | {text} ({exact!r}) | {'MATCHES' if ok else 'see NOTES'} |")
        else:
            print(f"{what:<58} {quoted:>10}   recomputed {text:<12} ({exact!r})  {'agrees' if ok else 'see NOTES'}")
    if not markdown:
        print(f"\n{agree} of {len(rows)} table figures agree")


if __name__ == "__main__":
    main()
