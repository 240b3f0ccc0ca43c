#!/usr/bin/env python3
"""Which samples of older benchmark runs found their input in L2 (issue 16, version 16).

Runs that record no `rotation` in `meta.json` gave each (variant, mode) entry its own cycle
through the buffer sets: every cycle advanced once a round, so the entries of one round took
one or two sets between them, and a sample timed right after another on the same set ran with
that set's data still in L2. This script recomputes the set of every sample of our own entries
from what the run records (the entry order is the case's `variants`, each timed on the stream
and as a graph; each cycle starts at `settings.warmup` plus the round-robin invocations of the
warm-up, `clocks.warmup_invocations`, which reached the first entries once more than the rest)
and reports, per shape and variant, the share of graph-replay samples that followed a sample
on the same set and the ratio of the other samples' median to theirs.

The peer script kept all its cycles in step and did not advance them in its warm-up, so every
peer sample of a round ran on the same set and only the first of each round (`order` 0)
followed another set; those are the peers' cold samples.

With `--cold` it also estimates, from the cold samples alone, what the benchmark's ratios
would have been had every invocation taken a fresh set: per run the median of each variant's
cold samples, then the median over runs. Only shapes whose one set is larger than the L2 are
estimated: there the set before was evicted by the one invocation between, while at smaller
sets a sample after another set may still find its own data from two or three invocations
back (8x262144: sets of 25 MB, 60 MB of L2). That is an estimate read after the fact, not a
verdict: a later run under the per-invocation rotation judges it.

Usage: python3 benches/rotation_warmth.py [--cold] RUN_DIR...   (accepted softmax-bench runs
that record clocks; others are skipped with a line on stderr)
"""

import json
import statistics
import sys
from collections import defaultdict

OURS = ("copy", "copy-kernel", "fused", "fused-rms")
PEERS = ("cudnn", "torch", "triton", "liger", "torch-compile-rms")


def read(run):
    meta = json.load(open(f"{run}/meta.json"))
    samples = [json.loads(line) for line in open(f"{run}/samples.jsonl")]
    return meta, samples


def classify(meta, samples):
    """Yields (case, sets, variant, warm, device_us) for our graph samples and the peers'."""
    warmup = meta["settings"]["warmup"]
    for case in meta["cases"]:
        name, sets = case["case"], case["rotation_sets"]
        rows = [s for s in samples if s["case"] == name]
        timed = {(s["variant"], s["mode"]) for s in rows}
        entries = [(v, m) for v in case["variants"] for m in ("stream", "graph") if (v, m) in timed]
        index = {e: i for i, e in enumerate(entries)}
        extra = case["clocks"]["warmup_invocations"] - len(entries) * warmup
        start = [warmup + extra // len(entries) + (1 if i < extra % len(entries) else 0) for i in range(len(entries))]
        ours = sorted((s for s in rows if (s["variant"], s["mode"]) in index), key=lambda s: (s["round"], s["order"]))
        previous = None
        for s in ours:
            taken = (start[index[(s["variant"], s["mode"])]] + s["round"]) % sets
            if s["mode"] == "graph":
                yield name, sets, s["variant"], previous == taken, s["device_us"]
            previous = taken
        for s in rows:
            if (s["variant"], s["mode"]) not in index:
                yield name, sets, s["variant"], s["order"] != 0 or sets == 1, s["device_us"]


def main(argv):
    cold_only = "--cold" in argv
    runs = [a.rstrip("/") for a in argv if a != "--cold"]
    share = defaultdict(list)
    ratio = defaultdict(list)
    cold_medians = defaultdict(lambda: defaultdict(list))
    for run in runs:
        meta, samples = read(run)
        if meta.get("status") != "accepted" or not all(c.get("clocks") for c in meta.get("cases", [])) or any("rotation" in c for c in meta["cases"]):
            print(f"{run}: skipped (not accepted, no clocks, or already recording its rotation)", file=sys.stderr)
            continue
        by = defaultdict(lambda: ([], []))
        for case, sets, variant, warm, us in classify(meta, samples):
            by[(case, sets, variant)][0 if warm else 1].append(us)
        larger_than_l2 = {c["case"] for c in meta["cases"] if c["bytes_per_set"] > meta["device"]["l2_bytes"]}
        for (case, sets, variant), (warm, cold) in by.items():
            if sets > 1 and variant in OURS:
                share[(case, sets, variant)].append(len(warm) / (len(warm) + len(cold)))
                if len(warm) >= 3 and len(cold) >= 3:
                    ratio[(case, sets, variant)].append(statistics.median(cold) / statistics.median(warm))
            if cold and sets > 1 and case in larger_than_l2:
                cold_medians[case][variant].append(statistics.median(cold))
    print("shape (sets) | variant | share of samples after the same set: median (range) | median after another set / after the same set")
    for key in sorted(share):
        case, sets, variant = key
        s, r = share[key], ratio.get(key, [])
        shown = f"{statistics.median(r):.3f}" if r else "-"
        print(f"{case} ({sets}) | {variant} | {statistics.median(s):.2f} ({min(s):.2f}-{max(s):.2f}) | {shown}")
    if cold_only:
        print()
        print("estimate from cold samples (median over runs of each run's cold median), not a verdict")
        for case in sorted(cold_medians):
            v = {name: statistics.median(m) for name, m in cold_medians[case].items()}
            copies = [v[c] for c in ("copy", "copy-kernel") if c in v]
            if not copies:
                continue
            copy = min(copies)
            line = [f"{case}: copy {copy:.2f} us"]
            for ours in ("fused", "fused-rms"):
                if ours in v:
                    line.append(f"{ours} {v[ours]:.2f} us ({100 * copy / v[ours]:.1f} % of copy)")
            for peer in PEERS:
                if peer in v:
                    line.append(f"{peer} {v[peer]:.2f} us (n runs {len(cold_medians[case][peer])})")
            print("; ".join(line))


if __name__ == "__main__":
    main(sys.argv[1:])
