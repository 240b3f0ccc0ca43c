#!/usr/bin/env python3
"""Recompute every number of the generated tables the VAMOS manuscript brings in with \\input.

Standard library only, independent of claimcheck.  Run from anywhere:

    python3 recompute_tables.py          # one line per number, then the counts

The tables (article/frameworks_*.tex and article/stats_*.tex, byte for byte from
https://github.com/NicolasRodriguezUribe/VAMOS at 7f2552d, MIT) were written by the paper's
scripts from the committed CSVs; what each computes is restated here from those scripts:

  frameworks_perf_*  paper/14_update_frameworks_perf_variant_tables_from_csv.py: per framework,
                     the median runtime_seconds of a family's runs pooled; Average the mean of
                     the row's family medians.
  frameworks_hv_*    paper/17_update_variant_hv_tables_from_csv.py and
  frameworks_igd_*   paper/16_update_igd_tables_from_csv.py: per problem, the median over its 30
                     seeds; per family (and Overall), the median and the interquartile range
                     (pandas' linear quantiles) of those problem medians.
  stats_*            paper/05_run_statistical_tests.py: per problem, each framework's median;
                     scipy.stats.wilcoxon of the 30 seed-paired values (defaults), Holm-adjusted
                     over the problems; Vargha-Delaney A12; the robustness table's median over
                     problems of each problem's interquartile range.

Statuses
  MATCH       the recomputed value, at the table's precision, is the cell (a `<0.0001` cell:
              the value is below 0.0001)
  HIST-MATCH  it is not, but the value from the CSV committed on 2026-01-29 (b32f2c6, staged
              under evidence/history/) is: the table was generated before the runs were redone
  MISMATCH    neither
Not recomputed: the equivalence tables (a paired bootstrap drawn from numpy's generator) and
the robustness table's "% seeds near-best" column.
"""
import csv
import math
import os
import re
import statistics
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
EV = os.path.join(HERE, "evidence", "experiments")
HIST = os.path.join(HERE, "evidence", "history", "b32f2c64ad75a35a1ccfe4d8c6d158ffbb2f4a5d", "experiments", "benchmark_paper.csv")
FAMS = {"ZDT": ["zdt1", "zdt2", "zdt3", "zdt4", "zdt6"], "DTLZ": ["dtlz%d" % i for i in range(1, 8)], "WFG": ["wfg%d" % i for i in range(1, 10)]}


def load(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def quantile(xs, p):
    """numpy's linear method (pandas' default)."""
    xs = sorted(xs)
    h = (len(xs) - 1) * p
    lo = int(math.floor(h))
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (h - lo)


def iqr(xs):
    return quantile(xs, 0.75) - quantile(xs, 0.25)


def tables(texfile):
    """(label, header cells, body rows) of every table in the file, markup taken off."""
    text = open(os.path.join(HERE, "article", texfile), encoding="utf-8").read()
    strip = lambda c: re.sub(r"\\textbf\{(.*)\}", r"\1", c.strip()).replace("\\textsuperscript{*}", "")
    out = []
    for chunk in text.split("\\begin{table")[1:]:
        label = re.search(r"\\label\{([^}]*)\}", chunk).group(1)
        head = chunk.split("\\toprule", 1)[1].split("\\midrule", 1)[0]
        body = chunk.split("\\midrule", 1)[1].split("\\bottomrule", 1)[0]
        rows = [[strip(c) for c in line.strip().rstrip("\\").split("&")] for line in body.strip().split("\n") if line.strip()]
        out.append((label, [strip(c) for c in head.strip().rstrip("\\").split("&")], rows))
    return out


def framework(name):
    return "VAMOS (numba)" if name.startswith("VAMOS") else name


def values(rows, fw, problem, field):
    picked = [r for r in rows if r["framework"] == fw and r["problem"] == problem]
    return [float(r[field]) for r in sorted(picked, key=lambda r: int(r["seed"]))]


def ranks(vals):
    order = sorted(range(len(vals)), key=lambda i: vals[i])
    r = [0.0] * len(vals)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and vals[order[j + 1]] == vals[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def signed_rank_p(x, y):
    """scipy.stats.wilcoxon(x, y) with its defaults (scipy >= 1.15) for n > 13: zero
    differences dropped, exact when no |difference| ties and none is zero, else the normal
    approximation with tie correction and no continuity correction."""
    d = [a - b for a, b in zip(x, y)]
    nz = [v for v in d if v != 0]
    if not nz:
        return float("nan")
    assert len(d) > 13, "the permutation test scipy uses up to 13 pairs is not restated here"
    n, absd = len(nz), [abs(v) for v in nz]
    rplus = sum(rk for rk, v in zip(ranks(absd), nz) if v > 0)
    if len(nz) == len(d) and len(set(absd)) == n and n <= 50:
        counts = [1] + [0] * (n * (n + 1) // 2)
        for k in range(1, n + 1):
            for s in range(len(counts) - 1, k - 1, -1):
                counts[s] += counts[s - k]
        r = int(round(rplus))
        return min(1.0, 2 * min(sum(counts[: r + 1]), sum(counts[r:])) / 2 ** n)
    var = n * (n + 1) * (2 * n + 1) / 24 - sum(t ** 3 - t for t in Counter(absd).values()) / 48
    return min(1.0, math.erfc(abs(rplus - n * (n + 1) / 4) / math.sqrt(var) / math.sqrt(2)))


def holm(ps):
    """The script's holm_adjust: NaN kept, the rest step-down, monotone, capped at 1."""
    order = sorted((i for i, p in enumerate(ps) if p == p), key=lambda i: ps[i])
    out, prev = [float("nan")] * len(ps), 0.0
    for k, i in enumerate(order):
        prev = max(prev, min(1.0, (len(order) - k) * ps[i]))
        out[i] = prev
    return out


def a12(x, y):
    return sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in x for b in y) / (len(x) * len(y))


RESULTS = []


def judge(where, written, value, old=None, digits=None):
    def shows(v):
        if v is None:
            return False
        if written.startswith("<"):
            return v < float(written[1:])
        return "%.*f" % (digits, v) == written
    status = "MATCH" if shows(value) else "HIST-MATCH" if shows(old) else "MISMATCH"
    RESULTS.append(status)
    print("%-10s %-60s %-10s %s" % (status, where, written, "%.6g" % value + ("" if old is None else "  (b32f2c6: %.6g)" % old)))


def frameworks_tables():
    specs = [("frameworks_perf_%s" % a, f, "runtime_seconds", 2) for a, f in (("nsgaii_ss", "benchmark_paper_nsgaii_ss.csv"), ("nsgaii_archive", "benchmark_paper_nsgaii_archive.csv"), ("smsemoa", "benchmark_paper_smsemoa.csv"), ("moead", "benchmark_paper_moead.csv"))]
    specs += [("frameworks_hv_nsgaii_ss", "benchmark_paper_nsgaii_ss.csv", "hypervolume", 3), ("frameworks_hv_nsgaii_archive", "benchmark_paper_nsgaii_archive.csv", "hypervolume", 3),
              ("frameworks_igd_nsgaii", "benchmark_paper.csv", "igd_plus", 4), ("frameworks_igd_smsemoa", "benchmark_paper_smsemoa.csv", "igd_plus", 4), ("frameworks_igd_moead", "benchmark_paper_moead.csv", "igd_plus", 4)]
    for name, csvf, field, nd in specs:
        rows = load(os.path.join(EV, csvf))
        for label, cols, body in tables(name + ".tex"):
            for cells in body:
                fw = framework(cells[0])
                if field == "runtime_seconds":
                    meds = {}
                    for col, written in zip(cols[1:], cells[1:]):
                        if col in FAMS:
                            meds[col] = statistics.median([float(r[field]) for r in rows if r["framework"] == fw and r["problem"] in FAMS[col]])
                            judge("%s %s %s" % (label, cells[0], col), written, meds[col], digits=nd)
                        else:
                            judge("%s %s %s" % (label, cells[0], col), written, sum(meds.values()) / len(meds), digits=nd)
                    continue
                per = {}
                for p in {r["problem"] for r in rows}:
                    xs = values(rows, fw, p, field)
                    if xs:
                        per[p] = statistics.median(xs)
                for col, written in zip(cols[1:], cells[1:]):
                    if written == "---":
                        continue
                    med, spread = re.fullmatch(r"([0-9.]+) \(([0-9.]+)\)", written).groups()
                    vals = [v for p, v in per.items() if col not in FAMS or p in FAMS[col]]
                    judge("%s %s %s median" % (label, cells[0], col), med, statistics.median(vals), digits=nd)
                    judge("%s %s %s IQR" % (label, cells[0], col), spread, iqr(vals), digits=nd)


def stats_tables():
    for algo, csvf in (("nsgaii", "benchmark_paper.csv"), ("smsemoa", "benchmark_paper_smsemoa.csv"), ("moead", "benchmark_paper_moead.csv")):
        sources = [load(os.path.join(EV, csvf))] + ([load(HIST)] if algo == "nsgaii" else [])
        for label, cols, body in tables("stats_%s.tex" % algo):
            if label.startswith("tab:stats_"):
                field, nd = ("hypervolume", 3) if "hypervolume" in label else ("igd_plus", 4)
                other = cols[2]
                computed = []
                for rows in sources:
                    problems = list(dict.fromkeys(r["problem"] for r in rows if values(rows, "VAMOS (numba)", r["problem"], field) and values(rows, other, r["problem"], field)))
                    raw = [signed_rank_p(values(rows, "VAMOS (numba)", p, field), values(rows, other, p, field)) for p in problems]
                    computed.append((rows, dict(zip(problems, holm(raw)))))
                for cells in body:
                    p = cells[0]
                    both = lambda f: [f(rows, adj) for rows, adj in computed] + [None] * (2 - len(computed))
                    for k, fw in ((1, "VAMOS (numba)"), (2, other)):
                        judge("%s %s %s" % (label, p, cols[k]), cells[k], *both(lambda rows, adj: statistics.median(values(rows, fw, p, field))), digits=nd)
                    judge("%s %s p-value" % (label, p), cells[3], *both(lambda rows, adj: adj[p]), digits=3)
                    judge("%s %s A12" % (label, p), cells[4], *both(lambda rows, adj: a12(values(rows, "VAMOS (numba)", p, field), values(rows, other, p, field))), digits=2)
            elif label.startswith("tab:hv_robustness"):
                for cells in body:
                    fw = framework(cells[0])
                    def robust(rows):
                        per = {}
                        for r in rows:
                            if r["framework"] == fw:
                                per.setdefault(r["problem"], []).append(float(r["hypervolume"]))
                        return statistics.median([iqr(v) for v in per.values()])
                    judge("%s %s Median IQR(HV)" % (label, cells[0]), cells[1], *[robust(rows) for rows in sources] + [None] * (2 - len(sources)), digits=3)


def main():
    frameworks_tables()
    stats_tables()
    counts = Counter(RESULTS)
    print("\n%d numbers: %s" % (len(RESULTS), ", ".join("%d %s" % (counts[s], s) for s in ("MATCH", "HIST-MATCH", "MISMATCH"))))


if __name__ == "__main__":
    main()
