"""The peers of `claimcheck bench softmax`, timed like our kernels: on the same six shapes in
FP32, after checking each against an FP64 softmax, it writes JSONL records that
`claimcheck bench softmax --peer FILE` stores in the same evidence run.

Peers (variant names in the samples):
- `torch`: torch.softmax(x, -1), the plain softmax (compare with our `fused`);
- `torch-compile-rms`: torch.compile of the RMS-scaled softmax, x / sqrt(mean(x^2) + eps) then
  softmax (compare with our `fused-rms`);
- `liger`: Liger Kernel's Triton softmax (liger_kernel.ops.softmax), the plain softmax, when the
  package imports;
- `triton`: a plain Triton row kernel written here (one row per program holding the whole row,
  `BLOCK = next_power_of_2(cols)`, 4 warps up to 1024 columns, 8 up to 8192, 16 beyond; rows
  wider than 32768 loop over 32768-wide tiles, online max and sum, then a second pass), always
  timed as its own peer (issue 16: this 10-line kernel beat ours at three shapes).

Protocol (`graph-replay-events`, mode `graph`), the same as our graph mode: each peer call is
captured in a CUDA graph (torch.cuda.CUDAGraph) once per rotation set, and every sample is one
replay between two CUDA events (device time) with the host clock from before the replay to
after a synchronise (host time). Inputs rotate through at least two sets, more where one fits
in L2, by the rule claimcheck uses, and each replay, whatever its peer, takes the next set (recorded as
`"rotation": "per-invocation"`), so that no replay finds the data of the one before it in L2.
A warm-up replays every graph for at least 200 ms of busy GPU first, so that the clock has
risen; then 21 rounds, each peer once per round in a seeded shuffled
order. The seed is drawn afresh for each run unless `--seed` gives one, and recorded: a fixed
seed gave every run the same order, so that what one position in it does to a sample (the
replay before it, the state it leaves) was repeated in every run instead of averaged over runs.

Each line is {"meta": ...}, {"validation": ...} or {"sample": ...}; sample and validation
records have exactly the fields of claimcheck's SampleRecord and ValidationRecord.

Usage: python3 benches/torch_softmax.py OUT.jsonl [--rounds 21] [--warmup-ms 200] [--seed N]
"""

import argparse
import hashlib
import json
import math
import random
import time

import torch

SHAPES = [(4096, 4096), (4096, 128), (32768, 1024), (1024, 32768), (16384, 512), (8, 262144)]
TOLERANCE = 1e-5
EPS = 1e-6
PROTOCOL = "graph-replay-events"
ROTATION = "per-invocation"


def rotation_sets(bytes_per_set, l2_bytes):
    # Never fewer than two, as the harness: with one set a replay started on the data the replay
    # before it had just read and written, part of it still in L2.
    return max(2, min(32, math.ceil(3 * l2_bytes / max(1, bytes_per_set))))


def fixture(rows, cols, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    z = torch.randn(rows, cols, generator=g, device="cuda", dtype=torch.float64)
    return (z * (10.0 / z.abs().max())).float()


def rms_softmax(x):
    scale = torch.sqrt(torch.mean(x * x, dim=-1, keepdim=True) + EPS)
    return torch.softmax(x / scale, dim=-1)


def liger_softmax_fn():
    """Liger's softmax, or None and the reason when it does not import."""
    try:
        from liger_kernel.ops.softmax import LigerSoftmaxFunction

        return (lambda x: LigerSoftmaxFunction.apply(x)), None
    except Exception as e:  # noqa: BLE001 - any import failure is recorded
        return None, f"liger_kernel did not import ({type(e).__name__}: {e}); only the own Triton kernel runs"


def triton_softmax_fn():
    """The plain Triton row kernel written here."""
    import triton
    import triton.language as tl

    @triton.jit
    def one_tile(y_ptr, x_ptr, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        offs = tl.arange(0, BLOCK)
        mask = offs < n_cols
        x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf"))
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(y_ptr + row * n_cols + offs, e / tl.sum(e, axis=0), mask=mask)

    @triton.jit
    def tiled(y_ptr, x_ptr, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        offs = tl.arange(0, BLOCK)
        # fp32 scalars, typed as the loop's updates are (tl.float32(...) is not callable).
        m = tl.max(tl.full([BLOCK], float("-inf"), tl.float32), axis=0)
        d = tl.sum(tl.zeros([BLOCK], dtype=tl.float32), axis=0)
        for start in tl.range(0, n_cols, BLOCK):
            x = tl.load(x_ptr + row * n_cols + start + offs, mask=start + offs < n_cols, other=-float("inf"))
            new_m = tl.maximum(m, tl.max(x, axis=0))
            d = d * tl.exp(m - new_m) + tl.sum(tl.exp(x - new_m), axis=0)
            m = new_m
        for start in tl.range(0, n_cols, BLOCK):
            mask = start + offs < n_cols
            x = tl.load(x_ptr + row * n_cols + start + offs, mask=mask, other=-float("inf"))
            tl.store(y_ptr + row * n_cols + start + offs, tl.exp(x - m) / d, mask=mask)

    def run(x):
        rows, cols = x.shape
        y = torch.empty_like(x)
        block = min(triton.next_power_of_2(cols), 32768)
        warps = 16 if block > 8192 else 8 if block > 1024 else 4
        kernel = one_tile if cols <= block else tiled
        kernel[(rows,)](y, x, cols, BLOCK=block, num_warps=warps)
        return y

    return run


def validate(name, fn, x, ref, case, seed, lines):
    y = fn(x)
    torch.cuda.synchronize()
    finite = torch.isfinite(y)
    err = (y.double() - ref).abs()
    rel = err / ref.abs().clamp_min(1e-30)
    max_rel = float(rel[finite].max()) if bool(finite.any()) else float("inf")
    unwritten = int((~finite).sum())
    lines.append({"validation": {"suite": "softmax-bench", "case": case, "variant": name, "what": "y", "fixture": seed,
                                 "elements": x.numel(), "max_abs_err": float(err[finite].max()) if bool(finite.any()) else float("inf"),
                                 "max_rel_err": max_rel, "tolerance": TOLERANCE, "unwritten": unwritten,
                                 "pass": bool(unwritten == 0 and max_rel <= TOLERANCE)}})


def capture(fn, x):
    """One CUDA graph of fn(x), captured on a side stream after a warm-up call there."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        fn(x)
    torch.cuda.current_stream().wait_stream(stream)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn(x)
    graph.replay()
    torch.cuda.synchronize()
    return graph, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--warmup-ms", type=float, default=200.0)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    if args.seed is None:
        # 53 bits, so that every JSON reader holds it exactly.
        args.seed = random.SystemRandom().randrange(1 << 53)
    props = torch.cuda.get_device_properties(0)
    l2 = getattr(props, "L2_cache_size", 60 << 20)
    with open(__file__, "rb") as f:
        script_sha = hashlib.sha256(f.read()).hexdigest()
    liger_fn, liger_note = liger_softmax_fn()
    compiled = torch.compile(rms_softmax, dynamic=False, fullgraph=True)
    peers = [("torch", lambda x: torch.softmax(x, -1), False), ("torch-compile-rms", compiled, True)]
    if liger_fn is not None:
        peers.append(("liger", liger_fn, False))
    peers.append(("triton", triton_softmax_fn(), False))
    notes = [liger_note] if liger_note else []
    lines = []
    sets_by_case = {}
    rng = random.Random(args.seed)
    for rows, cols in SHAPES:
        case = f"{rows}x{cols}"
        seed = args.seed + rows * 7 + cols
        x = fixture(rows, cols, seed)
        ref_plain = torch.softmax(x.double(), -1)
        scale = torch.sqrt(torch.mean(x.double() ** 2, dim=-1, keepdim=True) + EPS)
        ref_rms = torch.softmax(x.double() / scale, -1)
        active = []
        for name, fn, rms in peers:
            try:
                validate(name, fn, x, ref_rms if rms else ref_plain, case, seed, lines)
                active.append((name, fn))
            except Exception as e:  # noqa: BLE001 - a peer that cannot run is recorded, not fatal
                notes.append(f"{case} {name}: did not run ({type(e).__name__}: {e})")
        del ref_plain, ref_rms
        sets = rotation_sets(3 * rows * cols * 4, l2)
        sets_by_case[case] = sets
        inputs = [fixture(rows, cols, seed + 1000 + i) for i in range(sets)]
        graphs = {}
        for name, fn in list(active):
            try:
                graphs[name] = [capture(fn, t) for t in inputs]
            except Exception as e:  # noqa: BLE001
                notes.append(f"{case} {name}: graph capture failed ({type(e).__name__}: {e})")
                active.remove((name, fn))
        names = [n for n, _ in active]
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t0 = time.perf_counter()
        while (time.perf_counter() - t0) * 1e3 < args.warmup_ms:
            for n in names:
                for g, _ in graphs[n]:
                    g.replay()
            torch.cuda.synchronize()
        # One cycle of sets for every replay, whatever the peer: with a cycle per peer, the peers
        # of one round replayed on the same set and found its input, read by the peer before,
        # still in L2 (ROTATION).
        nxt = 0
        for r in range(args.rounds):
            order = names[:]
            rng.shuffle(order)
            for pos, n in enumerate(order):
                g, _ = graphs[n][nxt]
                nxt = (nxt + 1) % sets
                t = time.perf_counter()
                start.record()
                g.replay()
                end.record()
                torch.cuda.synchronize()
                host_us = (time.perf_counter() - t) * 1e6
                lines.append({"sample": {"suite": "softmax-bench", "case": case, "variant": n, "mode": "graph", "round": r,
                                         "order": pos, "host_us": round(host_us, 3),
                                         "device_us": round(start.elapsed_time(end) * 1000.0, 3), "protocol": PROTOCOL}})
        del graphs, inputs
        torch.cuda.empty_cache()
    meta = {"peer": "torch", "peers": [n for n, _, _ in peers], "torch": torch.__version__, "cuda": torch.version.cuda,
            "device": props.name, "script": "benches/torch_softmax.py", "script_sha256": script_sha, "rounds": args.rounds,
            "warmup_ms": args.warmup_ms, "seed": args.seed, "protocol": PROTOCOL, "rotation": ROTATION, "rotation_sets": sets_by_case, "notes": notes}
    try:
        import triton

        meta["triton"] = triton.__version__
    except Exception:  # noqa: BLE001
        pass
    # Liger Kernel is carried as a wheel and may differ from call to call; its version is part
    # of what the `liger` peer was.
    try:
        from importlib.metadata import version

        meta["liger_kernel"] = version("liger-kernel")
    except Exception:  # noqa: BLE001
        pass
    with open(args.out, "w") as f:
        for line in [{"meta": meta}] + lines:
            f.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
