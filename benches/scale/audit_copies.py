#!/usr/bin/env python3
"""How the audit scales with registries that share their evidence: the shipped repository
against a copy of it under target/audit-copies/ whose claims/ holds 10 copies of the shipped
registries (new names, the same manuscripts and evidence, each copy locked by `accept`).
Whole processes, alternated; medians. With --baseline BIN the shipped audit is also timed with
another build (an older claimcheck) in the same run. An older build may not read today's
registries (a key it does not know); --baseline-root DIR then names a checkout of its own commit
(`git worktree add DIR COMMIT`), whose shipped root both builds audit, so that the two are timed
on the same input, and the older build audits only that root.

Usage: audit_copies.py --claimcheck BIN [--baseline BIN [--baseline-root DIR]] [--runs N]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time


def timed(cmd):
    start = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.decode(errors='replace')[-1000:]}")
    return seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claimcheck", required=True)
    ap.add_argument("--baseline")
    ap.add_argument("--baseline-root")
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    ten = "target/audit-copies/ten"
    shutil.rmtree(ten, ignore_errors=True)
    # Every tracked file: checks read the kernels and the sources as well as the evidence.
    files = subprocess.run(["git", "ls-files", "-z"], capture_output=True, text=True, check=True).stdout.split("\0")
    files = [f for f in files if f and os.path.isfile(f)]
    for f in files:
        os.makedirs(os.path.join(ten, os.path.dirname(f)), exist_ok=True)
        shutil.copy(f, os.path.join(ten, f))
    registries = [f for f in os.listdir(os.path.join(ten, "claims")) if f.endswith(".toml")]
    for name in registries:
        for copy in range(2, 11):
            shutil.copy(os.path.join(ten, "claims", name), os.path.join(ten, "claims", f"copy{copy}-{name}"))
    subprocess.run([args.claimcheck, "accept", "--root", ten], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    cases = {"one copy (the shipped root)": [args.claimcheck, "audit"], "10 copies": [args.claimcheck, "audit", "--root", ten]}
    if args.baseline and args.baseline_root:
        cases["the baseline's shipped root, this build"] = [args.claimcheck, "audit", "--root", args.baseline_root]
        cases["the baseline's shipped root, baseline build"] = [args.baseline, "audit", "--root", args.baseline_root]
    elif args.baseline:
        cases["one copy, baseline build"] = [args.baseline, "audit"]
        cases["10 copies, baseline build"] = [args.baseline, "audit", "--root", ten]
    times = {c: [] for c in cases}
    for r in range(args.runs):
        order = list(cases)
        order = order[r % len(order):] + order[: r % len(order)]
        for c in order:
            times[c].append(timed(cases[c]))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.runs} runs each, alternated")
    for c, t in times.items():
        print(f"- {c}: median {statistics.median(t) * 1e3:.1f} ms (min {min(t) * 1e3:.1f}, max {max(t) * 1e3:.1f})")
    one, many = statistics.median(times["one copy (the shipped root)"]), statistics.median(times["10 copies"])
    print(f"- 10 copies ÷ one copy: {many / one:.2f}× (target ≤ 2×: {'met' if many / one <= 2 else 'MISSED'})")
    if args.baseline and args.baseline_root:
        same = statistics.median(times["the baseline's shipped root, this build"])
        base = statistics.median(times["the baseline's shipped root, baseline build"])
        print(f"- the baseline's shipped root: this build {base / same:.2f}× faster than the baseline build (target ≥ 2×: {'met' if base / same >= 2 else 'MISSED'})")
        print(f"- each build on its own shipped root: this build {base / one:.2f}× faster than the baseline build")
    elif args.baseline:
        b1, b10 = statistics.median(times["one copy, baseline build"]), statistics.median(times["10 copies, baseline build"])
        print(f"- baseline: 10 copies ÷ one copy {b10 / b1:.2f}×; shipped audit {b1 / one:.2f}× faster than the baseline (target ≥ 2×: {'met' if b1 / one >= 2 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
