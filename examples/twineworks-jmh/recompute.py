#!/usr/bin/env python3
"""Recompute every number of JMH's table in twineworks/collections' benchmarks README.

Independent of claimcheck: Python's standard library only. For each row of the table in
article/benchmarks-readme.md it takes the raw iteration scores of the same benchmark from
evidence/jmh-result.json (JMH's -rf json output, one fork of ten iterations), and prints

* Cnt: how many raw values there are;
* Score: their mean, which JMH prints as the score of every mode;
* Error: t(0.9995, n - 1) * s / sqrt(n), JMH's 99.9 % half-width (AbstractStatistics.
  getMeanErrorAt), with s the standard deviation over n - 1;

each with JMH's three decimals, beside the README's figure, and whether they agree. The t
quantile is found here by integrating Student's t density with Simpson's rule and bisecting
on the tail, a different method from claimcheck's (the incomplete beta function's continued
fraction), so that the two check each other.

Usage: python3 recompute.py   (from this folder or anywhere; paths are relative to this file)
"""

import json
import math
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROW = re.compile(r"^(\S+)\s+avgt\s+(\d+)\s+(\d+\.\d+) ± (\d+\.\d+)\s+ns/op\s*$")


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


def main():
    results = json.loads((HERE / "evidence" / "jmh-result.json").read_text())
    by_name = {r["benchmark"]: r for r in results}
    quantiles = {}
    rows = [ROW.match(line) for line in (HERE / "article" / "benchmarks-readme.md").read_text().splitlines()]
    rows = [m for m in rows if m]
    agree = 0
    print(f"{'row':<60} {'Cnt':>3} {'mean (ns)':>20} {'JMH error (ns)':>20}  README")
    for m in rows:
        label, cnt, score, error = m.groups()
        # JMH prints the benchmarks without the package every one of them shares.
        full = [b for b in by_name if b.endswith("." + label)]
        assert len(full) == 1, (label, full)
        raw = [x for fork in by_name[full[0]]["primaryMetric"]["rawData"] for x in fork]
        n = len(raw)
        mean = sum(raw) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in raw) / (n - 1))
        if n - 1 not in quantiles:
            quantiles[n - 1] = t_quantile(0.9995, n - 1)
        err = quantiles[n - 1] * sd / math.sqrt(n)
        ok = (str(n), f"{mean:.3f}", f"{err:.3f}") == (cnt, score, error)
        agree += ok
        print(f"{label:<60} {n:>3} {mean:>20.12f} {err:>20.12f}  {cnt} {score} ± {error}  {'MATCHES' if ok else 'DIFFERS'}")
    for df, t in sorted(quantiles.items()):
        print(f"t(0.9995, {df}) = {t:.12f}")
    print(f"{agree} of {len(rows)} rows agree in Cnt, Score and Error")


if __name__ == "__main__":
    main()
