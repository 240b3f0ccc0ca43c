#!/usr/bin/env python3
"""Recompute every number of the four BenchmarkDotNet reports in article/.

Independent of claimcheck: Python's standard library only. For each row of each report
(article/<Type>-report-github.md, the Markdown BenchmarkDotNet 0.14.0 wrote) it takes the
measurements of the same run from evidence/<namespace>.<Type>-measurements.csv (its
CsvMeasurementsExporter), keeps the rows BenchmarkDotNet's statistics are computed from
(Measurement_IterationMode Workload, Measurement_IterationStage Result: overhead subtracted,
upper outliers already removed), and prints

* Mean, StdDev (over n - 1), Min and Max of Measurement_Nanoseconds / Measurement_Operations;
* Error: t(0.9995, n - 1) * StdDev / sqrt(n), half of the 99.9 % confidence interval;
* Gen0 and Gen1: Gen_k * 1000 / Measurement_Operations, collections per 1000 operations;
* Allocated: Allocated_Bytes (per operation) in BenchmarkDotNet's binary units (1 KB = 1024 B);

* Code Size: the sum of the case's `; Total bytes of code N` lines in the disassembler's report,
  evidence/<namespace>.<Type>-asm.md (one `## ` section a case, in the table's order, its first
  code block naming the benchmark's method), in bytes;

each with the report's decimals (a tie away from zero, as .NET rounds), beside the report's figure, and whether they agree.
The t quantile is found here by integrating Student's t density with Simpson's rule and
bisecting on the tail, a different method from claimcheck's (the incomplete beta function's
continued fraction), so that the two check each other.

Usage: python3 recompute.py [--markdown]   (from anywhere; paths are relative to this file)
--markdown prints the same as the rows of NOTES.md's table.
"""

import csv
import math
import sys
from decimal import ROUND_HALF_UP, Decimal
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAMESPACE = "Chrysalis.Cbor.Benchmark.Benchmarks.Deserializers"
TYPES = ["AlonzoBenchmarks", "AlonzoDuplicateKeyBenchmarks", "BabbageBenchmarks", "ConwayBenchmarks"]
SCALE = {"ns": 1.0, "us": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9}
SIZES = {"B": 1, "KB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3}


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
    for _ in range(80):
        mid = (lo + hi) / 2
        if upper_tail(mid, df) > tail:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def decimals(text):
    """How many decimals a figure is printed with (`4.081` has 3)."""
    digits = text.replace(",", "")
    return len(digits.split(".")[1]) if "." in digits else 0


def rounded(value, places):
    """`value` with `places` decimals, a tie away from zero, as .NET's `N4` and `F3` format
    (Python's own formatting breaks a tie to even: 66.40625 would print 66.4062)."""
    return str(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def table(path):
    """The report's header and rows, each a list of trimmed cells."""
    lines = [line for line in path.read_text().splitlines() if line.startswith("|")]
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    return cells[0], cells[2:]


def code_sizes(path):
    """Each case's code size in the disassembly report: method name -> the sum of its section's
    sizes. A section's first block opens with `; Namespace.Type.Method()`."""
    sizes = {}
    for section in path.read_text().split("\n## "):
        lines = section.splitlines()
        names = [line[2:] for i, line in enumerate(lines) if i > 0 and lines[i - 1] == "```assembly"]
        totals = [int(line[len("; Total bytes of code "):]) for line in lines if line.startswith("; Total bytes of code ")]
        if names:
            method = names[0].split("(")[0].rsplit(".", 1)[1]
            sizes[method] = sum(totals)
    return sizes


def main():
    markdown = "--markdown" in sys.argv[1:]
    quantiles = {}
    agree = checked = 0
    for type_name in TYPES:
        header, rows = table(HERE / "article" / f"{type_name}-report-github.md")
        records = list(csv.DictReader(open(HERE / "evidence" / f"{NAMESPACE}.{type_name}-measurements.csv", newline="")))
        sizes = code_sizes(HERE / "evidence" / f"{NAMESPACE}.{type_name}-asm.md")
        if not markdown:
            print(f"\n{type_name}")
        for row in rows:
            cell = dict(zip(header, row))
            method = cell["Method"]
            kept = [r for r in records if r["Target_Method"] == method and r["Measurement_IterationMode"] == "Workload" and r["Measurement_IterationStage"] == "Result"]
            times = [float(r["Measurement_Nanoseconds"]) / float(r["Measurement_Operations"]) for r in kept]
            n = len(times)
            mean = sum(times) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in times) / (n - 1))
            if n - 1 not in quantiles:
                quantiles[n - 1] = t_quantile(0.9995, n - 1)
            ops = float(kept[0]["Measurement_Operations"])
            computed = {
                "Mean": mean,
                "Error": quantiles[n - 1] * sd / math.sqrt(n),
                "StdDev": sd,
                "Min": min(times),
                "Max": max(times),
            }
            for column in ["Mean", "Error", "StdDev", "Min", "Max", "Gen0", "Gen1", "Allocated"]:
                quoted = cell[column]
                if quoted == "-":
                    if markdown:
                        print(f"| {type_name} | {method} | {column} | - | none | {n} | not a number |")
                    else:
                        print(f"  {method:<4} {column:<9} {quoted:>12}   (none: no collection of that generation)")
                    continue
                if column in computed:
                    value, unit = quoted.split()
                    shown = computed[column] / SCALE[unit]
                elif column == "Allocated":
                    value, unit = quoted.split()
                    shown = float(kept[0]["Allocated_Bytes"]) / SIZES[unit]
                else:
                    value, unit = quoted, ""
                    shown = float(kept[0][column.replace("Gen", "Gen_")]) * 1000 / ops
                text = rounded(shown, decimals(value))
                ok = text == value.replace(",", "")
                checked += 1
                agree += ok
                if markdown:
                    print(f"| {type_name} | {method} | {column} | {quoted} | {text} {unit} ({shown!r}) | {n} | {'MATCHES' if ok else 'DIFFERS'} |")
                else:
                    print(f"  {method:<4} {column:<9} {quoted:>12}   recomputed {text} {unit:<2} n={n}  {'agrees' if ok else 'DIFFERS'}")
            quoted = cell["Code Size"]
            value, unit = quoted.split()
            text = f"{sizes[method]:,}"
            ok = unit == "B" and text == value
            checked += 1
            agree += ok
            if markdown:
                print(f"| {type_name} | {method} | Code Size | {quoted} | {text} B ({sizes[method]}) | 1 | {'MATCHES' if ok else 'DIFFERS'} |")
            else:
                print(f"  {method:<4} {'Code Size':<9} {quoted:>12}   recomputed {text} B  (the disassembler's)  {'agrees' if ok else 'DIFFERS'}")
    if not markdown:
        print(f"\n{agree} of {checked} figures agree")


if __name__ == "__main__":
    main()
