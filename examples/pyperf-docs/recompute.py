#!/usr/bin/env python3
"""Recompute every number of pyperf's doc/analyze.rst from the result files pyperf commits.

A helper for reading NOTES.md, not part of claimcheck. Needs Python 3 only (the standard
library: json, gzip, statistics, math). It reads the five files under evidence/ as pyperf reads
them (format version "1.0": each run's "values" are already per loop iteration; a run with no
values, the calibration run, is left out of every statistic), computes each statistic by
pyperf's own rules (pyperf 2.10.0 at ab7fd04: _bench.py, _utils.py, _cli.py, _compare.py,
_formatter.py), prints it beside the figure the page quotes, and prints each console block as
pyperf would lay it out, then says whether the page holds that block's lines verbatim.
"""
import collections
import datetime
import gzip
import json
import math
import re
import statistics
from pathlib import Path

HERE = Path(__file__).parent
EVIDENCE = HERE / "evidence"
ARTICLE = (HERE / "article" / "analyze.rst").read_text()


def load(path):
    """The suite's one benchmark (or each named benchmark) as pyperf's Benchmark sees it."""
    raw = (EVIDENCE / path).read_bytes()
    data = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    assert data["version"] == "1.0", data["version"]
    suite_md = data.get("metadata", {})
    out = {}
    for bench in data["benchmarks"]:
        md = dict(suite_md, **bench.get("metadata", {}))
        runs = []
        for run in bench["runs"]:
            run_md = dict(md, **run.get("metadata", {}))
            runs.append({"values": run.get("values", []), "warmups": run.get("warmups", []), "md": run_md})
        out[md["name"]] = {"runs": runs, "md": md}
    return out


def values(bench):
    return [v for run in bench["runs"] for v in run["values"]]


# --- pyperf's formatting (_formatter.py) -------------------------------------------------

UNITS = ("sec", "ms", "us", "ns")


def format_timedeltas(vals):
    """pyperf's: the first value picks the unit and 3 significant digits; the rest follow it."""
    ref = abs(vals[0])
    for i in range(2, -9, -1):
        if ref >= 10.0 ** i:
            break
    else:
        i = -9
    precision = 2 - i % 3
    k = -(i // 3) if i < 0 else 0
    fmt = "%%.%sf %s" % (precision, UNITS[k])
    return tuple(fmt % (v * 10 ** (k * 3)) for v in vals)


def fmt1(v):
    return format_timedeltas((v,))[0]


def format_seconds(seconds):
    mins, secs = divmod(seconds, 60.0)
    parts = []
    if int(mins):
        parts.append("%.0f min" % int(mins))
    parts.append("%.1f sec" % secs)
    return " ".join(parts)


def format_number(n):
    if isinstance(n, int) and n > 8192:
        pow2, x = 0, n
        while x >= 2:
            x, r = divmod(x, 2)
            pow2 += 1
            if r:
                break
        if not r:
            return "2^%s" % pow2
    return str(n)


# --- pyperf's statistics (_utils.py, _bench.py) ------------------------------------------

def percentile(vals, p):
    """pyperf's percentile: linear between the two order statistics at (n - 1) * p."""
    vals = sorted(vals)
    k = (len(vals) - 1) * p
    f, c = math.floor(k), math.ceil(k)
    if f != c:
        return vals[f] * (c - k) + vals[c] * (k - f)
    return vals[int(k)]


def median_abs_dev(vals):
    med = float(statistics.median(vals))
    return statistics.median([abs(med - v) for v in vals])


def tscore(a, b):
    """pyperf's two-sample t-score (pooled variance, equal sizes)."""
    assert len(a) == len(b)
    df = len(a) + len(b) - 2
    ma, mb = statistics.mean(a), statistics.mean(b)
    pooled = (math.fsum((x - ma) ** 2 for x in a) + math.fsum((x - mb) ** 2 for x in b)) / df
    return (ma - mb) / math.sqrt(pooled / len(a) * 2), df


def critical(df):
    """pyperf's tdist95conf_level for the degrees of freedom met here (118: 1.984)."""
    assert 100 <= df < 200, df
    return 1.984


def normalized(mean_changed, mean_ref):
    norm = mean_changed / mean_ref
    return ("%.2fx faster" % (1 / norm)) if norm < 1 else ("%.2fx slower" % norm)


# --- the page's blocks --------------------------------------------------------------------

results = []


def show(label, value, quoted):
    results.append((label, value, quoted))
    print(f"  {label:58s} {value:<26} quoted {quoted}")


def block(title, lines):
    """Print pyperf's lines and whether the page holds each one verbatim (4-space indent)."""
    page = set(l[4:] for l in ARTICLE.split("\n") if l.startswith("    "))
    missing = [l for l in lines if l and l not in page]
    print(f"\n{title}: {len(lines)} lines as pyperf prints them; "
          + ("all on the page verbatim" if not missing else f"{len(missing)} not on the page:"))
    for l in lines:
        print(("  = " if l in page or not l else "  ! ") + l)


def outliers():
    bench = load("doc/outliers.json.gz")["timeit"]
    vals = values(bench)
    n = len(vals)
    mean, stdev = statistics.mean(vals), statistics.stdev(vals)
    median, mad = statistics.median(vals), median_abs_dev(vals)
    loops = bench["md"]["loops"]
    raw = [v * loops for v in vals]
    print("doc/outliers.json.gz (timeit '[1,2]*1000', %s, pyperf %s): %d values"
          % (bench["md"]["python_version"], bench["md"]["perf_version"], n))

    # The `timeit` warning and result (lines 45-55 of the page).
    pct_max = (max(vals) - mean) * 100.0 / mean
    show("maximum", "%r" % max(vals), "6.02 us")
    show("(max - mean) / mean, %", "%.4f" % pct_max, "39%")
    show("mean", "%r" % mean, "4.34 us")
    show("stdev (n - 1)", "%r" % stdev, "0.31 us")
    block("pyperf timeit warning, as pyperf 0.9.7 printed it (HEAD warns only from 50 %)", [
        "* the maximum (%s) is %.0f%% greater than the mean (%s)" % (fmt1(max(vals)), pct_max, fmt1(mean)),
        "Mean +- std dev: %s +- %s" % format_timedeltas((mean, stdev)),
    ])

    # `pyperf stats outliers.json -q` (lines 60-89).
    runs = bench["runs"]
    durations = [r["md"]["duration"] for r in runs]
    starts = [datetime.datetime.fromisoformat(r["md"]["date"]) for r in runs]
    ends = [s + datetime.timedelta(seconds=int(math.ceil(d))) for s, d in zip(starts, durations)]
    ncal = sum(1 for r in runs if not r["values"])
    q1, q3 = percentile(vals, 0.25), percentile(vals, 0.75)
    lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    nout = sum(not (lo <= v <= hi) for v in vals)
    show("total duration (sum of each run's metadata duration), s", "%.4f" % math.fsum(durations), "11.6 sec")
    show("raw value minimum (value x loops), s", "%r" % min(raw), "135 ms")
    show("raw value maximum, s", "%r" % max(raw), "197 ms")
    show("calibration runs / runs with values / runs", "%d / %d / %d" % (ncal, len(runs) - ncal, len(runs)), "1 / 20 / 21")
    show("warmups per run / values per run", "%s / %s" % (set(len(r["warmups"]) for r in runs if r["values"]),
                                                             set(len(r["values"]) for r in runs if r["values"])), "1 / 3")
    show("loops", "%d" % loops, "2^15")
    show("median", "%r" % median, "4.25 us")
    show("MAD (median of |x - median|)", "%r" % mad, "0.05 us")
    for p, q in ((5, "4.15 us"), (25, "4.21 us"), (50, "4.25 us"), (75, "4.30 us"), (95, "4.84 us")):
        v = percentile(vals, p / 100)
        show("percentile %d; its distance from the mean, %%" % p, "%r; %+.3f" % (v, (v - mean) * 100 / mean), q)
    show("outlier fences q1 - 1.5 IQR .. q3 + 1.5 IQR", "%r .. %r" % (lo, hi), "4.07 us..4.44 us")
    show("values outside the fences", "%d" % nout, "9")
    lines = [
        "Total duration: %s" % format_seconds(math.fsum(durations)),
        "Start date: %s" % min(starts).replace(microsecond=0).isoformat(" "),
        "End date: %s" % max(ends).replace(microsecond=0).isoformat(" "),
        "Raw value minimum: %s" % fmt1(min(raw)),
        "Raw value maximum: %s" % fmt1(max(raw)),
        "",
        "Number of calibration run: %d" % ncal,
        "Number of run with values: %d" % (len(runs) - ncal),
        "Total number of run: %d" % len(runs),
        "",
        "Number of warmup per run: 1",
        "Number of value per run: 3",
        "Loop iterations per value: %s" % format_number(loops),
        "Total number of values: %d" % n,
        "",
        "Minimum:         %s" % fmt1(min(vals)),
        "Median +- MAD:   %s +- %s" % format_timedeltas((median, mad)),
        "Mean +- std dev: %s +- %s" % format_timedeltas((mean, stdev)),
        "Maximum:         %s" % fmt1(max(vals)),
        "",
    ]
    names = {0: "minimum", 25: "Q1", 50: "median", 75: "Q3", 100: "maximum"}
    for p in (0, 5, 25, 50, 75, 95, 100):
        v = percentile(vals, p / 100.0)
        text = "%3sth percentile: %s (%+.0f%% of the mean)" % (p, fmt1(v), (v - mean) * 100.0 / mean)
        lines.append(text + (" -- %s" % names[p] if p in names else ""))
    lines += ["", "Number of outlier (out of %s..%s): %d" % (format_timedeltas((lo, hi)) + (nout,))]
    block("pyperf stats outliers.json -q", lines)

    # `pyperf hist outliers.json -q` (lines 93-113): pyperf's format_histogram, whose bins
    # follow the terminal (bins = lines - 3 up to 25); 19 bins is a terminal of 22 lines.
    bins = 19
    k = (max(vals) - min(vals)) / bins
    counter = collections.Counter(int(v / k) for v in vals)
    hist = []
    for b in range(int(min(vals) / k), int(max(vals) / k) + 1):
        hist.append("%s: %2d" % (fmt1(b * k), counter.get(b, 0)))
    page_rows = ["%s: %2d" % (m.group(1), int(m.group(2)))
                 for m in re.finditer(r"^    (\d\.\d\d us): +(\d+) ", ARTICLE, re.M)]
    print("\npyperf hist outliers.json -q, %d bins of %r s (bars left out):" % (bins, k))
    for row in hist:
        print(("  = " if row in page_rows else "  ! ") + row)
    edges_ok = all(int(v / k) == math.floor(round(v * 1e7, 9)) for v in vals)
    print("  every value falls in the bin its 0.1 us label starts (label <= value < label + 0.1 us):", edges_ok)

    # The sentence after the histogram (lines 116-118).
    low = [v for v in vals if v < 5e-6]
    high = [v for v in vals if v > 5e-6]
    show("values below 5 us (the gap between the two groups)", "%d, from %r to %r" % (len(low), min(low), max(low)), "57 in [4.12 us; 4.84 us]")
    show("values above 5 us", "%d, from %r to %r" % (len(high), min(high), max(high)), "3 in [5.17 us; 6.02 us]")
    show("values in [4.12 us; 4.84 us] as quoted", "%d" % sum(4.12e-6 <= v <= 4.84e-6 for v in vals), "57")


def compare_py2_py3():
    py2 = load("doc/py2.json.gz")["timeit"]
    py3 = load("doc/py3.json.gz")["timeit"]
    a, b = values(py2), values(py3)
    print("\ndoc/py2.json.gz: %s, %d values; doc/py3.json.gz: %s, %d values (the page calls them py36 and py38)"
          % (py2["md"]["python_version"], len(a), py3["md"]["python_version"], len(b)))
    for name, v, q in (("py2", a, "4.70 us +- 0.18 us"), ("py3", b, "4.22 us +- 0.08 us")):
        show("%s mean, stdev" % name, "%.6g, %.6g us" % (statistics.mean(v) * 1e6, statistics.stdev(v) * 1e6), q)
    ratio = statistics.mean(a) / statistics.mean(b)
    t, df = tscore(a, b)
    show("mean(py2) / mean(py3)", "%.5f" % ratio, "1.11x faster")
    show("(mean(py3) / mean(py2) - 1) x 100", "%.3f" % ((statistics.mean(b) / statistics.mean(a) - 1) * 100), "-10%")
    show("t-score (pooled), df; pyperf's critical value", "%.2f, %d; %.3f" % (t, df, critical(df)), "a change printed")
    block("pyperf timeit -o py36.json / py38.json and compare_to (HEAD prints no percentage)", [
        "Mean +- std dev: %s +- %s" % format_timedeltas((statistics.mean(a), statistics.stdev(a))),
        "Mean +- std dev: %s +- %s" % format_timedeltas((statistics.mean(b), statistics.stdev(b))),
        "Mean +- std dev: [py36] %s +- %s -> [py38] %s +- %s: %s (%+.0f%%)"
        % (format_timedeltas((statistics.mean(a), statistics.stdev(a)))
           + format_timedeltas((statistics.mean(b), statistics.stdev(b)))
           + (normalized(statistics.mean(b), statistics.mean(a)), (statistics.mean(b) / statistics.mean(a) - 1) * 100)),
    ])


def compare_mult_list():
    ref = load("pyperf/tests/mult_list_py36.json")
    chg = load("pyperf/tests/mult_list_py38.json")
    print("\npyperf/tests/mult_list_py36.json against mult_list_py38.json:")
    rows, norms, hidden = [], [], []
    for name in ref:
        a, b = values(ref[name]), values(chg[name])
        ma, mb = statistics.mean(a), statistics.mean(b)
        t, df = tscore(a, b)
        significant = abs(t) >= critical(df)
        norms.append(mb / ma)
        show("%s: means, ratio, t (df %d)" % (name, df), "%s %s %.4f t=%.2f" % (fmt1(ma), fmt1(mb), ma / mb if mb < ma else mb / ma, t),
             "significant" if significant else "not significant")
        if significant:
            rows.append("| %-14s | %-14s | %-21s |" % (name, fmt1(ma), "%s: %s" % (fmt1(mb), normalized(mb, ma))))
        else:
            hidden.append(name)
    geo = statistics.geometric_mean(norms)
    shown = statistics.geometric_mean([n for name, n in zip(ref, norms) if name not in hidden])
    show("geometric mean of the 3 ratios (the hidden one included)", "%.5f -> %s" % (1 / geo, normalized(geo, 1.0)), "1.09x faster")
    show("geometric mean of the 2 rows shown", "%.5f" % (1 / shown), "(not printed)")
    rows.append("| %-14s | %-14s | %-21s |" % ("Geometric mean", "(ref)", normalized(geo, 1.0)))
    block("pyperf compare_to mult_list_py36.json mult_list_py38.json --table", rows + [
        "Benchmark hidden because not significant (%d): %s" % (len(hidden), ", ".join(hidden))])


if __name__ == "__main__":
    outliers()
    compare_py2_py3()
    compare_mult_list()
