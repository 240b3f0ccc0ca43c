#!/usr/bin/env python3
"""Recompute every number of article/dasel-benchmarks.md and article/dasel-readme.md from
evidence/data/*.json.

Helper for whoever writes the claims registry; not part of claimcheck. Needs only Python 3's
standard library (`statistics`; numpy is not installed on the machine this was written on, and
nothing here needs it: the mean, the sample standard deviation, min and max are exact sums and
comparisons). Run from anywhere:  python3 examples/dasel-benchmarks/recompute.py [--markdown]

Each evidence file is what `hyperfine --warmup 10 --runs 100 --export-json=FILE` wrote for one
section of the benchmarks README (benchmark/run.sh in the dasel repository): a `results` array,
one object per command, with the raw wall-clock time of each of its 100 runs in `times`
(seconds). The same hyperfine call wrote the section's table with `--export-markdown`:

    | Command | Mean [ms] | Min [ms] | Max [ms] | Relative |
    | `cmd`   | mean ± stddev | min | max | ratio ± ratio_stddev |

in milliseconds with one decimal, and the ratio to the fastest command's mean with two; the
fastest command's own row says `1.00` and no spread. hyperfine's `stddev` is the sample
standard deviation (n − 1), and its ratio's spread propagates both commands' relative
deviations as if they were independent:

    ratio_stddev = ratio × sqrt((stddev / mean)² + (fastest stddev / fastest mean)²)

A quoted value MATCHES when the recomputed value rounded to the quoted number of decimals
equals it; otherwise it DISAGREES and the right value is printed.
"""
import json
import math
import pathlib
import re
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parent
ARTICLE = ROOT / "article" / "dasel-benchmarks.md"
EVIDENCE = ROOT / "evidence" / "data"


def load():
    """{file stem: {command: [times in ms]}} in the order hyperfine wrote them."""
    out = {}
    for path in sorted(EVIDENCE.glob("*.json")):
        doc = json.loads(path.read_text())
        out[path.stem] = {r["command"]: [t * 1e3 for t in r["times"]] for r in doc["results"]}
    return out


def tables():
    """Yield (heading, file stem, command, mean, sd, min, max, ratio, ratio sd or None)."""
    heading = stem = None
    for line in ARTICLE.read_text().splitlines():
        if line.startswith("### "):
            heading = line[4:].strip()
        m = re.match(r'<img src="diagrams/(\w+)\.jpg"', line)
        if m:
            stem = m.group(1)
        if line.startswith("| `"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            command = cells[0][1:-1].replace("\\|", "|")
            mean, sd = cells[1].split(" ± ")
            ratio, _, ratio_sd = cells[4].partition(" ± ")
            yield heading, stem, command, mean, sd, cells[2], cells[3], ratio, ratio_sd or None


def verdict(quoted, value):
    dec = len(quoted.split(".")[1]) if "." in quoted else 0
    if f"{value:.{dec}f}" == quoted:
        return "MATCHES", dec
    return f"DISAGREES (right value {value:.{dec}f})", dec


def main():
    md = "--markdown" in sys.argv
    data = load()
    rows = []
    n_ok = n_bad = 0
    for heading, stem, command, mean, sd, lo, hi, ratio, ratio_sd in tables():
        runs = data[stem]
        t = runs[command]
        fastest = min(runs.values(), key=statistics.fmean)
        m, s = statistics.fmean(t), statistics.stdev(t)
        mf, sf = statistics.fmean(fastest), statistics.stdev(fastest)
        r = m / mf
        r_sd = r * math.sqrt((s / m) ** 2 + (sf / mf) ** 2)
        sel = f'evidence/data/{stem}.json, command == "{command}"'
        wanted = [
            ("Mean [ms] (mean)", mean, m, "time_s, mean, in ms"),
            ("Mean [ms] (± stddev)", sd, s, "time_s, sample stdev (n − 1), in ms"),
            ("Min [ms]", lo, min(t), "time_s, min, in ms"),
            ("Max [ms]", hi, max(t), "time_s, max, in ms"),
            ("Relative", ratio, r, "mean over the fastest command's mean"),
        ]
        if ratio_sd is not None:
            wanted.append(("Relative (±)", ratio_sd, r_sd, "ratio × √((sd/mean)² + (sd_f/mean_f)²)"))
        for column, quoted, value, how in wanted:
            v, dec = verdict(quoted, value)
            rows.append((f"{heading} / `{command}` / {column}", quoted, sel, how, f"{value:.{dec + 3}f}", v))
            if v == "MATCHES":
                n_ok += 1
            else:
                n_bad += 1
    if md:
        print("| Cell (section / row / column) | Quoted | Records | Field, statistic | Recomputed | Verdict |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |")
    else:
        for r in rows:
            print("  ".join(r))
    print(f"\ntable numbers: {n_ok + n_bad}, MATCHES {n_ok}, DISAGREES {n_bad}")

    print("\n# Runs per command")
    print(sorted({len(t) for runs in data.values() for t in runs.values()}), "runs;",
          sum(len(runs) for runs in data.values()), "commands in", len(data), "files")

    print("\n# dasel-readme.md: 'up to 3x faster than jq and 15x faster than yq'")
    for tool in ("jq", "yq"):
        for dasel in ("dasel ", "daselv2 "):
            ratios = []
            for stem, runs in data.items():
                base = next(t for c, t in runs.items() if c.startswith(dasel))
                other = next(t for c, t in runs.items() if c.startswith(tool + " "))
                ratios.append((statistics.fmean(other) / statistics.fmean(base), stem))
            hi, lo = max(ratios), min(ratios)
            print(f"{tool} mean over {dasel.strip()} mean: max {hi[0]:.3f} ({hi[1]}), min {lo[0]:.3f} ({lo[1]})")


if __name__ == "__main__":
    main()
