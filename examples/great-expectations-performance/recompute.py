#!/usr/bin/env python3
"""Recompute every number of article/great-expectations-performance.md from
evidence/results/*.json.

Helper for whoever writes the claims registry; not part of claimcheck. Needs only Python 3's
standard library. Run from anywhere:

    python3 examples/great-expectations-performance/recompute.py [--markdown]

Each evidence file is what `pytest tests/performance/test_bigquery_benchmarks.py
--benchmark-json=FILE` wrote for one run of great_expectations' 24 taxi-trip benchmarks
(tests/performance/run_benchmark_multiple_times.sh ran it three times before the change,
`initial_baseline_run_{1,2,3}`, and three times after it, `minimal_multithreading_run_{1,2,3}`):
a `benchmarks` array, one object per benchmark, with the time of each round in `stats.data`
(seconds). Each benchmark ran one round of one iteration, so each file holds one time per
benchmark.

The article's two tables are pytest-benchmark's console output (its `TableResults`): per row,
Min, Max, Mean, StdDev, Median, IQR in the header's unit (`Name (time in s)`), four decimals;
Outliers as `stddev_outliers;iqr_outliers`; OPS = 1 / Mean; Rounds; Iterations. In the table of
`pytest-benchmark compare`, each value is followed by its ratio to the best of its column
(`compute_baseline_scale`: `(1.0)` for a value equal to the best, else value / best with two
decimals; for OPS the best is the largest).

This script reads the tables from the article, then recomputes each number from the baseline
runs the second table's command names (`initial_baseline`: the files of that stem): the
median over the three runs of the statistic of each run, as the registry's `pool` does. A
quoted value MATCHES when the recomputed value rounded to the quoted number of decimals equals
it; otherwise it DISAGREES and the right value is printed. A row whose run is in no file
(`2114_work`) has NO EVIDENCE. The prose claims follow.
"""
import json
import pathlib
import re
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parent
ARTICLE = ROOT / "article" / "great-expectations-performance.md"
EVIDENCE = ROOT / "evidence" / "results"
TIME_COLUMNS = ["Min", "Max", "Mean", "StdDev", "Median", "IQR"]
RUNS = "initial_baseline_run_{1,2,3}.json"


def load(kind):
    """[{benchmark name: [round times]}] of the three runs of `kind`, run 1 first."""
    runs = []
    for r in (1, 2, 3):
        doc = json.loads((EVIDENCE / f"{kind}_run_{r}.json").read_text())
        runs.append({b["name"]: b["stats"]["data"] for b in doc["benchmarks"]})
    return runs


def quartiles(data):
    """numpy's linear quartiles, as claimcheck computes `p25` and `p75`."""
    s = sorted(data)

    def q(p):
        h = (len(s) - 1) * p
        lo = int(h)
        return s[lo] + (s[min(lo + 1, len(s) - 1)] - s[lo]) * (h - lo)

    return q(0.25), q(0.75)


def stats(data):
    """pytest-benchmark's columns of one run's rounds (its stdev is 0 for one round)."""
    q1, q3 = quartiles(data)
    mean = statistics.fmean(data)
    return {
        "Min": min(data),
        "Max": max(data),
        "Mean": mean,
        "StdDev": statistics.stdev(data) if len(data) > 1 else 0.0,
        "Median": statistics.median(data),
        "IQR": q3 - q1,
        "OPS": 1 / mean,
        "Rounds": len(data),
    }


def pooled(runs, name):
    """Each column: the median over the runs of the run's value."""
    each = [stats(run[name]) for run in runs]
    return {k: statistics.median(s[k] for s in each) for k in each[0]}, each


def tables():
    """Yield (table, row name, {column: cell text}) for each row of the article's tables."""
    table = -1
    header = None
    for line in ARTICLE.read_text().splitlines():
        if line.startswith("Name (time in "):
            table += 1
            header = re.split(r"\s{2,}", line.strip())[1:]
            continue
        if header is None:
            continue
        if line.strip() == "" or line.startswith("```"):
            header = None
            continue
        if set(line.strip()) <= {"-"}:
            continue
        m = re.match(r"(\S+(?: \([^)]*\))?)\s{2,}(.*)$", line)
        if not m:
            continue
        cells = re.findall(r"\d+;\d+|[\d,.]+(?: \([^)]*\))?", m.group(2))
        yield table, m.group(1), dict(zip(header, cells))


def decimals(text):
    return len(text.split(".")[1]) if "." in text else 0


def judge(quoted, value):
    """MATCHES or DISAGREES, with the value at the quoted precision."""
    shown = f"{value:.{decimals(quoted)}f}"
    return ("MATCHES" if shown == quoted else "DISAGREES"), shown


def main():
    markdown = "--markdown" in sys.argv
    base = load("initial_baseline")
    multi = load("minimal_multithreading")
    rows = []
    for table, row, cells in tables():
        name, _, run = row.partition(" (")
        run = run.rstrip(")")
        where = f"table {table + 1} / `{row}`"
        if run and not run.startswith("initial_base"):
            for col, cell in cells.items():
                for number in re.findall(r"[\d.]+", cell):
                    rows.append((where, col, number, f"run `{run}`: in no evidence file", "—", "NO EVIDENCE"))
            continue
        p, each = pooled(base, name)
        compared = bool(run)
        for col, cell in cells.items():
            value, _, ratio = cell.partition(" (")
            ratio = ratio.rstrip(")")
            if col in TIME_COLUMNS or col == "OPS":
                per_run = ", ".join(f"{s[col]:.4f}" for s in each)
                verdict, shown = judge(value, p[col])
                what = f"time_s, {col.lower()}" if col in TIME_COLUMNS else "time_s, 1 / mean"
                rows.append((where, col, value, f"{RUNS}, name = `{name}`; {what}; runs {per_run}, median of the runs", shown, verdict))
                if compared:
                    # The other row of the compared table is the uncommitted 2114_work run; its
                    # quoted value stands in for it.
                    other = {"StdDev": 0.0, "IQR": 0.0, "OPS": 0.1546}.get(col, 6.4675)
                    if col == "OPS":
                        r = p[col] / max(p[col], other)
                    elif p[col] == min(p[col], other):
                        r = 1.0 if p[col] == other or p[col] == 0 else p[col] / min(p[col], other)
                    else:
                        r = p[col] / other
                    verdict, shown = judge(ratio, r)
                    rows.append((where, f"{col} ratio", ratio, f"the {col} above over the best of its column (the other row: its quoted {other})", shown, verdict))
            elif col == "Outliers":
                doc = json.loads((EVIDENCE / "initial_baseline_run_1.json").read_text())
                bench = next(b for b in doc["benchmarks"] if b["name"] == name)
                got = f"{bench['stats']['stddev_outliers']};{bench['stats']['iqr_outliers']}"
                rows.append((where, col, value, f"initial_baseline_run_1.json, `{name}`: pytest-benchmark's stats.stddev_outliers;iqr_outliers", got, "MATCHES" if got == value else "DISAGREES"))
            elif col == "Rounds":
                verdict, shown = judge(value, p["Rounds"])
                rows.append((where, col, value, f"{RUNS}, name = `{name}`; time_s, count; median of the runs", shown, verdict))
            elif col == "Iterations":
                docs = [json.loads((EVIDENCE / f"initial_baseline_run_{r}.json").read_text()) for r in (1, 2, 3)]
                its = statistics.median(next(b for b in d["benchmarks"] if b["name"] == name)["stats"]["iterations"] for d in docs)
                verdict, shown = judge(value, its)
                rows.append((where, col, value, f"{RUNS}, name = `{name}`; iterations, median; median of the runs", shown, verdict))
    if markdown:
        print("| Cell (table / row / column) | Quoted | Evidence, statistic | Recomputed | Verdict |")
        print("|---|---|---|---|---|")
        for where, col, quoted, how, shown, verdict in rows:
            print(f"| {where} / {col} | {quoted} | {how} | {shown} | {verdict} |")
    else:
        for where, col, quoted, how, shown, verdict in rows:
            print(f"{verdict:11} {where} / {col}: quoted {quoted}, recomputed {shown} ({how})")

    print()
    print("Prose:")
    med = {n: statistics.median(run[n][0] for run in base) for n in base[0]}
    mmed = {n: statistics.median(run[n][0] for run in multi) for n in multi[0]}
    guide = "test_taxi_trips_benchmark[1-True-V3]"
    order = sorted(med, key=med.get)
    print(f"  fastest by the median of the baseline runs: {order[0]} ({med[order[0]]:.4f} s), then {order[1]} ({med[order[1]]:.4f} s)")
    for r, run in enumerate(base, 1):
        first = min(run, key=lambda n: run[n][0])
        print(f"  baseline run {r}: fastest {first} ({run[first][0]:.4f} s); {guide} {run[guide][0]:.4f} s")
    hundred = [n for n in med if "[100-" in n]
    lo = min(run[n][0] for run in base for n in hundred)
    hi = max(run[n][0] for run in base for n in hundred)
    ratios = ", ".join(f"{med[n] / med[guide]:.1f}" for n in hundred)
    print(f"  100-table benchmarks: {lo:.4f} to {hi:.4f} s a run; medians over {guide}'s: {ratios}")
    speed = {n: med[n] / mmed[n] for n in med}
    one = [speed[n] for n in speed if "[1-" in n]
    more = [speed[n] for n in speed if "[1-" not in n]
    print(f"  multi-threaded speed-up (median baseline / median multi-threaded): 1 table {min(one):.2f} to {max(one):.2f}, 2 to 100 tables {min(more):.2f} to {max(more):.2f}")
    for n in ("test_taxi_trips_benchmark[100-True-V2]", "test_taxi_trips_benchmark[100-False-V2]", guide):
        print(f"    {n}: {speed[n]:.2f} ({med[n]:.4f} s / {mmed[n]:.4f} s)")


if __name__ == "__main__":
    main()
