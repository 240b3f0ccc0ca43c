"""The torch peer of `claimcheck bench softmax`: times torch.softmax(x, -1) in FP32 on the same
six shapes, after checking it against an FP64 softmax, and writes JSONL records that
`claimcheck bench softmax --peer FILE` stores in the same evidence run as variant `torch`.

Each line is {"meta": ...}, {"validation": ...} or {"sample": ...}; sample and validation
records have exactly the fields of claimcheck's SampleRecord and ValidationRecord.

Timing follows the run's protocol: warm-up calls, then 21 rounds; each sample is one call
between two CUDA events (device time) and the host clock from before the call to after a
synchronise (host time). Inputs rotate through several copies when one fits in L2, by the
same rule claimcheck uses.

Usage: python3 benches/torch_softmax.py OUT.jsonl [--rounds 21] [--warmup 5] [--seed N]
"""

import argparse
import hashlib
import json
import math
import time

import torch

SHAPES = [(4096, 4096), (4096, 128), (32768, 1024), (1024, 32768), (16384, 512), (8, 262144)]
TOLERANCE = 1e-5


def rotation_sets(bytes_per_set, l2_bytes):
    return max(1, min(32, math.ceil(3 * l2_bytes / max(1, bytes_per_set))))


def fixture(rows, cols, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    z = torch.randn(rows, cols, generator=g, device="cuda", dtype=torch.float64)
    return (z * (10.0 / z.abs().max())).float()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--seed", type=int, default=20261202)
    args = ap.parse_args()
    props = torch.cuda.get_device_properties(0)
    l2 = getattr(props, "L2_cache_size", 60 << 20)
    with open(__file__, "rb") as f:
        script_sha = hashlib.sha256(f.read()).hexdigest()
    lines = [{"meta": {"peer": "torch", "torch": torch.__version__, "cuda": torch.version.cuda, "device": props.name,
                       "script": "benches/torch_softmax.py", "script_sha256": script_sha, "rounds": args.rounds,
                       "warmup": args.warmup, "seed": args.seed}}]
    for rows, cols in SHAPES:
        case = f"{rows}x{cols}"
        seed = args.seed + rows * 7 + cols
        x = fixture(rows, cols, seed)
        y = torch.softmax(x, -1)
        ref = torch.softmax(x.double(), -1)
        finite = torch.isfinite(y)
        err = (y.double() - ref).abs()
        rel = err / ref.abs().clamp_min(1e-30)
        max_rel = float(rel[finite].max()) if bool(finite.any()) else float("inf")
        unwritten = int((~finite).sum())
        lines.append({"validation": {"suite": "softmax-bench", "case": case, "variant": "torch", "what": "y", "fixture": seed,
                                     "elements": rows * cols, "max_abs_err": float(err[finite].max()), "max_rel_err": max_rel,
                                     "tolerance": TOLERANCE, "unwritten": unwritten,
                                     "pass": bool(unwritten == 0 and max_rel <= TOLERANCE)}})
        sets = rotation_sets(3 * rows * cols * 4, l2)
        inputs = [fixture(rows, cols, seed + 1000 + i) for i in range(sets)]
        for _ in range(args.warmup):
            for t in inputs:
                torch.softmax(t, -1)
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        for r in range(args.rounds):
            t = inputs[r % sets]
            t0 = time.perf_counter()
            start.record()
            torch.softmax(t, -1)
            end.record()
            torch.cuda.synchronize()
            host_us = (time.perf_counter() - t0) * 1e6
            lines.append({"sample": {"suite": "softmax-bench", "case": case, "variant": "torch", "mode": "stream", "round": r,
                                     "order": 0, "host_us": round(host_us, 3), "device_us": round(start.elapsed_time(end) * 1000.0, 3)}})
    with open(args.out, "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
