#!/usr/bin/env python3
"""The scale benchmark: `claimcheck stats` against DuckDB and Polars (lazy) on the same JSONL
samples files, whole processes alternated, with `wc -l` for the speed of reading the file at
all. Prints a Markdown table (median time, ratio peer ÷ claimcheck, peak RSS, throughput) and
whether each target was met. `benches/scale/run.sh` prepares everything and calls this.

Values: claimcheck's rows must equal each peer's to the last bit. The peers' own quantiles
(DuckDB's `quantile_cont`, Polars' `median`/`quantile`) are what is timed; for the comparison
each peer also computes numpy's linear method itself (`peers.py --exact`), because DuckDB's
interpolation differs from numpy's by one ulp in some rows. Rows where a peer's own quantile
differs are counted and reported, with the largest difference in ulps.

Usage: compare.py --claimcheck BIN --python PY --peers peers.py --runs N --runs-large M FILE...
"""
import argparse
import json
import math
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time


def run(cmd):
    """Runs `cmd` as a whole process: (seconds, peak RSS in bytes, stdout). The peak is
    GNU time's `%M` of the command itself: the rusage of a child forked from Python would count
    the interpreter's own pages, copied at the fork, as the child's."""
    with tempfile.NamedTemporaryFile("r") as peak:
        start = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak.name] + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        seconds = time.perf_counter() - start
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.decode(errors='replace')[-2000:]}")
        kib = int(peak.read().split()[-1])
    return seconds, kib * 1024, p.stdout


def rows(output):
    table = {}
    for line in output.decode().splitlines():
        row = json.loads(line)
        key = (row.pop("field"),) + tuple(sorted((k, v) for k, v in row.items() if k not in ("n", "median", "p95")))
        table[key] = (row["n"], row["median"], row["p95"])
    return table


def bits(x):
    return struct.unpack("<q", struct.pack("<d", float(x)))[0]


def compare(ours, theirs):
    """(rows differing in any bit, largest difference in ulps), over all rows of both."""
    differing, worst = 0, 0
    for key in ours.keys() | theirs.keys():
        a, b = ours.get(key), theirs.get(key)
        if a is None or b is None or a[0] != b[0]:
            differing += 1
            worst = math.inf
            continue
        ulps = max(abs(bits(x) - bits(y)) for x, y in zip(a[1:], b[1:]))
        if ulps:
            differing += 1
            worst = max(worst, ulps)
    return differing, worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claimcheck", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--peers", required=True)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--runs-large", type=int, default=5, help="runs for files over 1 GB")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()

    tools = {
        "claimcheck": lambda f: [args.claimcheck, "stats", f],
        "DuckDB": lambda f: [args.python, args.peers, "duckdb", f],
        "Polars (lazy)": lambda f: [args.python, args.peers, "polars", f],
        "wc -l": lambda f: ["wc", "-l", f],
    }
    exact = {
        "DuckDB": lambda f: [args.python, args.peers, "duckdb", f, "--exact"],
        "Polars (lazy)": lambda f: [args.python, args.peers, "polars", f, "--exact"],
    }
    print(f"cores: {os.cpu_count()}; load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    table, verdicts, notes = [], [], []
    for f in args.files:
        size = os.path.getsize(f)
        with open(f, "rb") as fh:
            n_lines = sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 24), b""))
        # A CSV file's first line is its header, not a sample.
        n_lines -= f.endswith(".csv")
        runs = args.runs_large if size > 1 << 30 else args.runs
        # Values first: claimcheck against each peer's numpy-exact query, bit for bit.
        _, _, ours_out = run(tools["claimcheck"](f))
        ours = rows(ours_out)
        for peer, cmd in exact.items():
            differing, _ = compare(ours, rows(run(cmd(f))[2]))
            verdicts.append(f"{n_lines:.0e} samples, {peer} (numpy's formula): " + ("all %d rows equal claimcheck's to the last bit" % len(ours) if differing == 0 else f"{differing} of {len(ours)} rows DIFFER"))
        times = {t: [] for t in tools}
        rss = {t: 0 for t in tools}
        native = {}
        for r in range(runs):
            order = list(tools)
            order = order[r % len(order):] + order[: r % len(order)]
            for t in order:
                seconds, peak, out = run(tools[t](f))
                times[t].append(seconds)
                rss[t] = max(rss[t], peak)
                if t in exact and t not in native:
                    native[t] = rows(out)
        for peer, theirs in native.items():
            differing, worst = compare(ours, theirs)
            if differing:
                notes.append(f"{n_lines:.0e} samples, {peer}'s own quantile: {differing} of {len(ours)} rows differ from numpy's, by at most {worst} ulp")
            else:
                notes.append(f"{n_lines:.0e} samples, {peer}'s own quantile: all rows equal numpy's")
        ours_t = statistics.median(times["claimcheck"])
        for t in tools:
            m = statistics.median(times[t])
            table.append((n_lines, size, t, m, m / ours_t, rss[t], size / m, runs))
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| samples (file) | tool | time (median) | ratio peer ÷ claimcheck | peak RSS | throughput | runs |")
    print("|---|---|---|---|---|---|---|")
    for n, size, t, m, ratio, peak, tput, runs in table:
        ratio_s = "—" if t == "claimcheck" else f"{ratio:.2f}×"
        print(f"| {n:.0e} ({size / 1e6:.0f} MB) | {t} | {m:.3f} s | {ratio_s} | {peak / 2**20:.0f} MiB | {tput / 1e6:.0f} MB/s | {runs} |")
    print()
    for v in verdicts + notes:
        print(f"- {v}")
    print("\ntargets:")
    by_size = {}
    for n, size, t, m, ratio, peak, tput, runs in table:
        by_size.setdefault((n, size), {})[t] = (m, peak, tput)
    for (n, size), r in by_size.items():
        ours_m, ours_peak, ours_tput = r["claimcheck"]
        best = min(r["DuckDB"][0], r["Polars (lazy)"][0])
        speed = best / ours_m
        line = f"- {n:.0e}: {speed:.2f}× faster than the faster peer"
        if n >= 1e6:
            line += f" (target ≥ 2×: {'met' if speed >= 2 else 'MISSED'})"
            line += f"; peak RSS {ours_peak / 2**20:.0f} MiB of a {size / 2**20:.0f} MiB file ({'met' if ours_peak <= size else 'MISSED'})"
        wc = r["wc -l"][2] / ours_tput
        line += f"; `wc -l` is {wc:.1f}× claimcheck's throughput (target ≤ 10×: {'met' if wc <= 10 else 'MISSED'})"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
