#!/usr/bin/env python3
"""The audit of `stat` checks over one large samples file (JSONL, or CSV by its name): a root under target/stat-checks/
whose article quotes a median, a p95 and a mean for each of four configurations of the file,
each bound to a `stat` check of the file (12 checks, one select of strings each), audited
whole, as a user's `claimcheck audit` runs. The quoted numbers are those `claimcheck stats`
prints for the same file, so every check must pass; the audit's verdicts are checked before
anything is timed. Whole processes, alternated with a baseline build where one is given;
medians, and peak RSS (GNU time's %M).

Usage: stat_checks.py --claimcheck BIN [--baseline BIN] [--runs N] FILE
"""
import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

CONFIGS = [
    ("softmax", "1024x32768", "fused", "graph"),
    ("softmax", "4096x4096", "cudnn", "stream"),
    ("pointwise", "8x262144", "fused", "graph"),
    ("softmax-bench", "32768x1024", "three-kernel", "stream"),
]


def quoted(value):
    # Enough digits that the check compares at full precision: 6 significant digits, which the
    # sentence then states (the check rounds the evidence to the digits the sentence gives).
    return f"{value:.6g}"


def build_root(bin_, samples, root):
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(f"{root}/evidence")
    os.makedirs(f"{root}/claims")
    os.makedirs(f"{root}/article")
    name = "evidence/samples" + os.path.splitext(samples)[1]
    os.link(samples, f"{root}/{name}") if os.stat(samples).st_dev == os.stat(root).st_dev else shutil.copy(samples, f"{root}/{name}")
    out = subprocess.run([bin_, "stats", samples, "--field", "host_us"], capture_output=True, text=True, check=True).stdout
    rows = {(r["suite"], r["case"], r["variant"], r["mode"]): r for r in map(json.loads, out.splitlines())}
    lines, claims = ["# Stat checks at scale", ""], []
    means = means_of(samples, CONFIGS)
    for i, key in enumerate(CONFIGS):
        row = rows.get(key)
        if row is None:
            sys.exit(f"{samples} has no samples of {key}")
        values = {"median": row["median"], "p95": row["p95"], "mean": means[key]}
        sentence = f"Configuration {i + 1} has median {quoted(values['median'])} µs, p95 {quoted(values['p95'])} µs and mean {quoted(values['mean'])} µs."
        lines.append(sentence)
        lines.append("")
        select = ", ".join(f'{k} = "{v}"' for k, v in zip(["suite", "case", "variant", "mode"], key))
        checks = "".join(
            f'\n  [[claim.check]]\n  kind = "stat"\n  samples = "{name}"\n  select = {{ {select} }}\n'
            f'  field = "host_us"\n  unit = "us"\n  statistic = "{stat}"\n  number = "{quoted(v)} µs"\n'
            for stat, v in values.items()
        )
        claims.append(f'[[claim]]\nid = "c{i + 1}"\nquote = "Configuration {i + 1} has"\nverdict = "retain"\nfinding = "recomputed from the samples"\n{checks}')
    article = "\n".join(lines)
    with open(f"{root}/article/a.md", "w") as f:
        f.write(article)
    sha = hashlib.sha256(article.encode()).hexdigest()
    with open(f"{root}/claims/a.toml", "w") as f:
        f.write(f'[manuscript]\npath = "article/a.md"\nsha256 = "{sha}"\n\n[policy]\nunbound = "warn"\n\n' + "\n".join(claims))


def means_of(samples, keys):
    # The means as the check computes them: each configuration's values in file order, summed
    # left to right; one pass over the file for all of them.
    totals = {k: [0.0, 0] for k in keys}
    with open(samples) as f:
        if samples.endswith(".csv"):
            header = f.readline().rstrip("\n").split(",")
            rows = (dict(zip(header, line.rstrip("\n").split(","))) for line in f)
        else:
            rows = map(json.loads, f)
        for r in rows:
            t = totals.get((r["suite"], r["case"], r["variant"], r["mode"]))
            if t is not None:
                t[0] += float(r["host_us"])
                t[1] += 1
    return {k: t[0] / t[1] for k, t in totals.items()}


def timed(cmd):
    start = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    return seconds, int(p.stderr.strip().splitlines()[-1]), p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claimcheck", required=True)
    ap.add_argument("--baseline")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("file")
    args = ap.parse_args()
    root = "target/stat-checks"
    os.makedirs(root, exist_ok=True)
    build_root(args.claimcheck, args.file, root)
    tools = {"claimcheck": args.claimcheck}
    if args.baseline:
        tools["baseline"] = args.baseline
    for name, bin_ in tools.items():
        _, _, p = timed([bin_, "audit", "--root", root])
        summary = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr
        if "12 checks: 12 passed" not in summary:
            sys.exit(f"{name}: {summary}")
    times = {n: [] for n in tools}
    rss = {n: [] for n in tools}
    for r in range(args.runs):
        order = list(tools)[r % len(tools):] + list(tools)[: r % len(tools)]
        for name in order:
            s, m, _ = timed([tools[name], "audit", "--root", root])
            times[name].append(s)
            rss[name].append(m)
    size = os.path.getsize(args.file)
    print(f"{args.file}: {size / 1e6:.0f} MB, 12 stat checks, {args.runs} runs each")
    base = statistics.median(times["claimcheck"])
    for name in tools:
        med = statistics.median(times[name])
        print(f"  {name:10} {med:8.3f} s  ({med / base:5.2f}× claimcheck)  peak RSS {max(rss[name]) / 1024:7.0f} MiB")


if __name__ == "__main__":
    main()
