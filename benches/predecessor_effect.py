#!/usr/bin/env python3
"""What the entry timed just before a sample does to it (issue 16, version 18).

In a `softmax-bench` run every round times the entries of a case in a shuffled order, one
after another on one stream. Where a case had one buffer set, each invocation started on the
buffers its predecessor had just read and written; at 4096x4096 a sample right after the
device-to-device memcpy ran 2.7 % faster than its entry's median. Version 18 gave every shape
at least two sets, and predicted that this help is gone. This script reads graph-replay
samples of the runs given and, per case, groups each sample by the kind of entry that ran just
before it in its round (the first of a round has none and is left out), then prints the median
of ln(sample / its entry's median in its run) for each kind, and the same for `fused` alone.

Kinds: `copy` (the memcpy), `copy-kernel`, candidates and copies with write-back stores
(a name with `-wb`), other candidates (`x-...`), the rule's `fused` or `fused-rms`, and other.

Usage: python3 benches/predecessor_effect.py RUN [RUN...]
"""

import collections
import json
import math
import statistics
import sys


def kind(variant):
    if variant == "copy":
        return "copy (memcpy)"
    if variant == "copy-kernel":
        return "copy-kernel"
    if variant in ("fused", "fused-rms"):
        return "fused or fused-rms"
    if variant.startswith("x-") and "-wb" in variant:
        return "x- with write-back stores"
    if variant.startswith("x-"):
        return "x- other"
    return "other"


def main(runs):
    by_case = collections.defaultdict(lambda: collections.defaultdict(list))
    fused = collections.defaultdict(lambda: collections.defaultdict(list))
    for run in runs:
        rows = [json.loads(line) for line in open(f"{run}/samples.jsonl")]
        rows = [r for r in rows if r["suite"] == "softmax-bench"]
        median = {}
        groups = collections.defaultdict(list)
        for r in rows:
            groups[(r["case"], r["variant"], r["mode"])].append(r["device_us"])
        median = {k: statistics.median(v) for k, v in groups.items()}
        at = {(r["case"], r["round"], r["order"]): r for r in rows}
        for r in rows:
            if r["mode"] != "graph":
                continue
            before = at.get((r["case"], r["round"], r["order"] - 1))
            if before is None:
                continue
            value = math.log(r["device_us"] / median[(r["case"], r["variant"], r["mode"])])
            by_case[r["case"]][kind(before["variant"])].append(value)
            if r["variant"] == "fused":
                fused[r["case"]][kind(before["variant"])].append(value)
    print("case | predecessor | samples (graph replay) | median ln(sample / entry median) % | fused's samples | fused's median %")
    for case in sorted(by_case):
        for k in sorted(by_case[case]):
            values, own = by_case[case][k], fused[case].get(k, [])
            own_text = f"{len(own)} | {100 * statistics.median(own):+.2f}" if own else "0 | -"
            print(f"{case} | {k} | {len(values)} | {100 * statistics.median(values):+.2f} | {own_text}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
