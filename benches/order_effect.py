#!/usr/bin/env python3
"""How much of a sample's time its place in the shuffled order decides (issue 16, version 17).

The harness shuffles each round's entries from the run's seed, and the peer script shuffles its
peers from its own. Until 2026-12-05 every run used the seed 20261202, so runs with the same
entries ran them in the same order, round by round. This script groups the accepted runs that
share an order (the same seed, the same entries of a case; for the peers, the same seed and
peer list) and, per group, splits the spread of a sample around its entry's median (natural log)
into a part its place in the order fixes, the same in every run of the group, and a part that
changes from run to run:

    slot variance  = var over places of the mean over runs − (mean within-place variance) / runs
    within variance = the mean over places of the variance over runs

"slot share" is slot ÷ (slot + within). Where it is above zero, pooling runs of one order does
not average the place's part out: it is in every run. The median of 21 samples, each off by a
place's part of spread s, is off by about 1.25 s / √21 ≈ 0.27 s; the difference between two
entries of one order by about √2 times that ("bias sd" below), in every run alike.

At shapes of several buffer sets, runs that took their sets per entry (no `rotation` in
`meta.json`) also fixed which samples found their input in L2 (version 16), and that is in the
place's part too. Only groups of three or more runs are shown.

Usage: python3 benches/order_effect.py [RUNS_FOLDER]   (default evidence/runs)
"""

import collections
import glob
import json
import math
import os
import statistics
import sys

PEERS = {"torch", "triton", "liger", "torch-compile-rms", "cudnn"}


def groups(folder):
    """(kind, suite, case, order key) -> runs, for accepted runs with samples."""
    out = collections.defaultdict(list)
    for run in sorted(glob.glob(f"{folder}/*")):
        try:
            meta = json.load(open(f"{run}/meta.json"))
        except (OSError, ValueError):
            continue
        if meta.get("status") != "accepted" or not os.path.exists(f"{run}/samples.jsonl"):
            continue
        seed = (meta.get("settings") or {}).get("seed")
        for case in meta.get("cases", []):
            key = (seed, tuple(case["variants"]), tuple(case["modes"]))
            out[("ours", case["suite"], case["case"], key)].append(run)
            if case["suite"] == "softmax-bench":
                for record in meta.get("peers", []):
                    peer_key = (record.get("seed"), tuple(record.get("peers", [])))
                    out[("peers", case["suite"], case["case"], peer_key)].append(run)
    return out


def split(runs, kind, suite, case, cache):
    """Slot and within variances of log(sample / entry median) over the places all runs share."""
    places = collections.defaultdict(dict)
    for run in runs:
        if run not in cache:
            cache[run] = [json.loads(line) for line in open(f"{run}/samples.jsonl")]
        rows = [s for s in cache[run] if s["suite"] == suite and s["case"] == case and (s["variant"] in PEERS) == (kind == "peers")]
        by_entry = collections.defaultdict(list)
        for s in rows:
            by_entry[(s["variant"], s["mode"])].append(s["device_us"])
        median = {e: statistics.median(v) for e, v in by_entry.items()}
        for s in rows:
            places[(s["round"], s["order"], s["mode"])][run] = math.log(s["device_us"] / median[(s["variant"], s["mode"])])
    shared = [p for p in places.values() if len(p) == len(runs)]
    if len(shared) < 20:
        return None
    within = statistics.mean(statistics.variance(list(p.values())) for p in shared)
    slot = statistics.pvariance([statistics.mean(p.values()) for p in shared]) - within / len(runs)
    return len(shared), max(slot, 0.0), within


def main(argv):
    folder = argv[0] if argv else "evidence/runs"
    cache = {}
    print("kind | suite | case | runs of one order | places | slot share | slot sd % | within sd % | bias sd of a ratio of two medians %")
    for (kind, suite, case, key), runs in sorted(groups(folder).items(), key=lambda kv: (kv[0][:3], -len(kv[1]))):
        if len(runs) < 3:
            continue
        got = split(runs, kind, suite, case, cache)
        if got is None:
            continue
        n, slot, within = got
        bias = math.sqrt(2) * 1.2533 * math.sqrt(slot) / math.sqrt(21)
        print(f"{kind} | {suite} | {case} | {len(runs)} | {n} | {slot / (slot + within):.2f} | {100 * math.sqrt(slot):.2f} | {100 * math.sqrt(within):.2f} | {100 * bias:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
