#!/usr/bin/env python3
"""Issue 16, version 12: when each block of a softmax kernel runs, and on which SM.

Nsight Compute (version 11) put the mixed form's loss at 1024x32768 in SMs that hold no block,
but its sampled timeline could not be read, so it could not say when that happens. This script
asks the kernels themselves. It compiles `kernels/softmax.cu` with CuPy's NVRTC, with
TRACE_MARK defined so that thread 0 of each block stamps `%globaltimer` at the file's marks,
and wraps the dispatched kernels (and the copy) in kernels that also stamp the block's start,
its end (after a barrier) and its SM. Each kernel runs in a CUDA graph of LAUNCHES launches
over rotated buffers, as the benchmark times them, once traced and once not, so that what the
stamps cost is measured too. The last launch's stamps are analysed here and written, with the
summary, as JSON to $OUT (default /tmp/out).

Before the kernels it times one meeting of the slot form alone (`meet_*`: 256 blocks, each
row's 32 publishing a tagged word and polling the row's 32, nothing else running). With CLEAN=1
it also traces each slot and mixed kernel with the L2 emptied before every launch. Each graph's
outputs are poisoned before it and its last launch's output checked against an FP64 softmax
(rows sampled; infinity where an element was not written).

This is a diagnostic, not evidence: nothing it writes goes under `evidence/`, and the figures
it prints are quoted in `kernels/NOTES.md` (version 12) as such. The variants timed with it in
version 12 (pauses between polls, a line a slot, bulk stores, a store gate; bulk stores for the
first block on each SM) were refuted and removed; they are in the history at commits 83cde07
and 9a70765.

Usage (device machine, repository root; the device returns at most 8 files, so pack them):
    python3 benches/trace_blocks.py && tar czf /tmp/trace.tgz -C $OUT . && rm $OUT/* && mv /tmp/trace.tgz $OUT/
"""
import json
import os
import pathlib
import sys
import time

import cupy as cp
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = pathlib.Path(os.environ.get("OUT", "/tmp/out"))
LAUNCHES = 20
REPLAYS = 15
EPS = 1e-6
REC = 8  # words a block: smid, start, mark 2, mark 3, mark 4, end, clock64 at start, at end

TRACE = r"""
__shared__ unsigned long long* trace_rec;
__device__ __forceinline__ unsigned long long trace_now() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
#define TRACE_MARK(k) do { if (threadIdx.x == 0) trace_rec[k] = trace_now(); } while (0)
"""

WRAPPERS = r"""
__device__ __forceinline__ void trace_open(unsigned long long* tr, unsigned block) {
    if (threadIdx.x == 0) {
        unsigned sm;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        trace_rec = tr + (size_t)block * 8;
        trace_rec[0] = sm;
        trace_rec[6] = clock64();
        trace_rec[1] = trace_now();
    }
}
__device__ __forceinline__ void trace_close() {
    __syncthreads();
    if (threadIdx.x == 0) {
        trace_rec[5] = trace_now();
        trace_rec[7] = clock64();
    }
}
extern "C" __global__ void trace_copy(const float4* __restrict__ x, float4* __restrict__ y, long long n4, unsigned long long* tr) {
    trace_open(tr, blockIdx.x);
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n4) __stcs(y + i, __ldcs(x + i));
    trace_close();
}
// A dispatched kernel's body between the block's first and last stamps.
#define TRACED(NAME, THREADS, MINB, PARAMS, CALL)                                                     \
    extern "C" __global__ void __launch_bounds__(THREADS, MINB) NAME(PARAMS, unsigned long long* tr) { \
        trace_open(tr, blockIdx.x);                                                                   \
        CALL;                                                                                         \
        trace_close();                                                                                \
    }
#define MIX_PARAMS const float* x, float* y, float* st, int cols, float eps
#define SLOT_PARAMS const float* x, float* y, float* st, unsigned long long* slots, int rows, int cols, int split, float eps
TRACED(trace_mix_plain, 512, 2, MIX_PARAMS, (fused_mix_row<false, 8, 8, 512, 1>(x, y, st, eps)))
TRACED(trace_mix_rms, 1024, 2, MIX_PARAMS, (fused_mix_row<true, 2, 6, 1024, 1>(x, y, st, eps)))
TRACED(trace_slot_plain, 512, 2, SLOT_PARAMS, (fused_slot_row<false, 4>(x, y, st, slots, rows, cols, split, eps, blockIdx.x)))
TRACED(trace_slot_rms, 512, 2, SLOT_PARAMS, (fused_slot_row<true, 4>(x, y, st, slots, rows, cols, split, eps, blockIdx.x)))
// Between two launches of a `clean` graph: reads a buffer larger than the L2 (every line it had
// is evicted, and the dirty ones are written back now rather than during the next launch).
extern "C" __global__ void evict_l2(const float4* __restrict__ buf, long long n4, float* sink) {
    float acc = 0.f;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
        float4 v = buf[i];
        acc += v.x + v.y + v.z + v.w;
    }
    if (acc == 12345.f) *sink = acc;
}
extern "C" __global__ void trace_tick(unsigned long long* out, int n) {
    if (threadIdx.x == 0) {
        for (int i = 0; i < n; ++i) out[i] = trace_now();
    }
}
"""


# The meeting alone (version 12): each block of a row publishes a tagged word and polls its
# row-mates' until all carry the round's tag, `rounds` times, with nothing else in the memory
# system. Tags only grow, so a block already in round r + 1 counts as having passed round r.
MEET = r"""
template <int NAP, int STRIDE>
__device__ void meet_rounds(unsigned long long* slots, int split, int rounds, unsigned long long* tr) {
    __shared__ unsigned base;
    const int row = blockIdx.x / split, piece = blockIdx.x % split, lane = threadIdx.x & 31;
    unsigned long long* a = slots + (size_t)row * split * STRIDE;
    if (threadIdx.x == 0) base = (unsigned)(ld_slot(a + piece * STRIDE) >> 32);
    __syncthreads();
    const unsigned long long t0 = trace_now();
    for (int r = 1; r <= rounds; ++r) {
        if (threadIdx.x < 32) {
            if (lane == 0) st_slot(a + piece * STRIDE, base + r, 1.f);
            for (;;) {
                bool ok = true;
                for (int i = lane; i < split; i += 32) ok = ok && (int)((unsigned)(ld_slot(a + i * STRIDE) >> 32) - (base + r)) >= 0;
                if (__all_sync(0xffffffffu, ok)) break;
                if (NAP) __nanosleep(NAP);
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        tr[2 * blockIdx.x] = t0;
        tr[2 * blockIdx.x + 1] = trace_now();
    }
}
#define MEET_KERNEL(NAP, STRIDE) \
    extern "C" __global__ void __launch_bounds__(512, 2) meet_n##NAP##_s##STRIDE(unsigned long long* slots, int split, int rounds, unsigned long long* tr) { \
        meet_rounds<NAP, STRIDE>(slots, split, rounds, tr); \
    }
MEET_KERNEL(0, 1)
MEET_KERNEL(100, 1)
MEET_KERNEL(0, 16)
MEET_KERNEL(100, 16)
"""
MEET_VARIANTS = [(0, 1), (100, 1), (0, 16), (100, 16)]


def meeting_alone(load):
    """Microseconds a meeting of 32 blocks takes with nothing else running, for each variant:
    the median over the 256 blocks of (end - start) / rounds."""
    rounds, out = 200, {}
    for nap, stride in MEET_VARIANTS:
        k = load(f"meet_n{nap}_s{stride}")
        slots = cp.zeros(8 * 32 * stride, dtype=cp.uint64)
        tr = cp.zeros(2 * 256, dtype=cp.uint64)
        k((256,), (512,), (slots, np.int32(32), np.int32(rounds), tr))
        k((256,), (512,), (slots, np.int32(32), np.int32(rounds), tr))
        cp.cuda.Device().synchronize()
        t = cp.asnumpy(tr).astype(np.int64).reshape(-1, 2)
        per = (t[:, 1] - t[:, 0]) / rounds / 1000
        out[f"n{nap}_s{stride}"] = {"median_us": float(np.median(per)), "max_us": float(per.max())}
    return out


def modules():
    """Two modules: the file as the tool compiles it (its options, no marks), whose kernels are
    the untraced ones, and the file with the marks defined and the wrappers added. Only the
    wrappers set a block's record, so no other kernel of the second module may be launched."""
    cu = (ROOT / "kernels" / "softmax.cu").read_text()
    opts = ("-std=c++17", "-I/usr/local/cuda/include")
    traced_src = TRACE + cu + WRAPPERS + MEET
    plain = lambda name: cp.RawKernel(cu, name, options=opts)
    traced = lambda name: cp.RawKernel(traced_src, name, options=opts)
    return plain, traced


class Case:
    """One kernel at one shape: its plain and traced launches, with their own buffers."""

    def __init__(self, loads, l2, label, plain, traced, rows, cols, block, grid, smem=0, split=0):
        self.label, self.rows, self.cols, self.block, self.grid, self.smem, self.split = label, rows, cols, block, grid, smem, split
        self.plain, self.traced = loads[0](plain), loads[1](traced)
        for k in (self.plain, self.traced):
            if smem:
                k.max_dynamic_shared_size_bytes = smem
                k.preferred_shared_memory_carveout = 100
        n = rows * cols
        # Enough rotated inputs that a launch finds its input outside the L2: the tool's rule
        # (`rotation_sets` in src/gpu/common.rs, 3 x L2 over a set's bytes), but never fewer
        # than two, so that no launch reads the input the previous one has just read.
        self.sets = max(2, -(-3 * l2 // (8 * n)))
        rng = np.random.default_rng(20261204)
        self.x = [cp.asarray(rng.standard_normal((rows, cols), dtype=np.float32) * 3) for _ in range(self.sets)]
        self.y = [cp.full((rows, cols), np.nan, dtype=cp.float32) for _ in range(self.sets)]
        self.st = cp.zeros(3 * rows, dtype=cp.float32)
        self.slots = [cp.zeros(3 * rows * max(split, 1), dtype=cp.uint64) for _ in range(2)]
        self.tr = [cp.zeros(grid * REC, dtype=cp.uint64) for _ in range(LAUNCHES)]

    def args(self, i, traced):
        x, y = self.x[i % self.sets], self.y[i % self.sets]
        if self.label.startswith("copy"):
            a = [x, y, np.int64(self.rows * self.cols // 4)]
        elif self.split:
            a = [x, y, self.st, self.slots[traced], np.int32(self.rows), np.int32(self.cols), np.int32(self.split), np.float32(EPS)]
        else:
            a = [x, y, self.st, np.int32(self.cols), np.float32(EPS)]
        return tuple(a + [self.tr[i]]) if traced else tuple(a)

    def graph(self, traced, evict=None):
        stream = cp.cuda.Stream(non_blocking=True)
        k = self.traced if traced else self.plain
        with stream:
            stream.begin_capture()
            for i in range(LAUNCHES):
                if evict is not None:
                    evict()
                k((self.grid,), (self.block,), self.args(i, traced), shared_mem=self.smem)
            g = stream.end_capture()
        if hasattr(g, "upload"):
            g.upload(stream)
        return stream, g

    def time(self, traced, evict=None):
        stream, g = self.graph(traced, evict)
        for _ in range(3):
            g.launch(stream)
        a, b = cp.cuda.Event(), cp.cuda.Event()
        per = []
        for _ in range(REPLAYS):
            a.record(stream)
            g.launch(stream)
            b.record(stream)
            b.synchronize()
            per.append(cp.cuda.get_elapsed_time(a, b) * 1000 / LAUNCHES)
        return float(np.median(per))

    def poison(self):
        for y in self.y:
            y.fill(np.nan)

    def check(self):
        """The last launch's output against an FP64 softmax (on the host), rows sampled."""
        i = LAUNCHES - 1
        x, y = self.x[i % self.sets], self.y[i % self.sets]
        if not bool(cp.isfinite(y).all()):
            return float("inf")  # an element the launch did not write (poisoned) or a NaN
        if self.label.startswith("copy"):
            return float(cp.abs(y - x).max())
        rows = np.unique(np.linspace(0, self.rows - 1, min(self.rows, 64)).astype(int))
        x, y = cp.asnumpy(x[rows]).astype(np.float64), cp.asnumpy(y[rows]).astype(np.float64)
        if "rms" in self.label:
            x = x / np.sqrt(np.mean(x * x, axis=1, keepdims=True) + EPS)
        e = np.exp(x - x.max(axis=1, keepdims=True))
        ref = e / e.sum(axis=1, keepdims=True)
        return float(np.max(np.abs(y - ref) / np.maximum(ref, 1e-30)))


def busy_union(intervals):
    """Total length covered by a list of (start, end) intervals."""
    total, cur_s, cur_e = 0, None, None
    for s, e in sorted(intervals):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    if cur_e is not None:
        total += cur_e - cur_s
    return total


def analyse(case, rec, sms):
    """What one traced launch did, in ns from its first block's start."""
    rec = rec.reshape(-1, REC).astype(np.int64)
    sm, start, end = rec[:, 0], rec[:, 1], rec[:, 5]
    t0, t1 = int(start.min()), int(end.max())
    span = t1 - t0
    # Per SM: its blocks' union in global time (for idle time at the start, at the end and
    # between), and the gaps between its blocks in its own clock64 cycles, which do not depend
    # on the global timer's step (SM clocks need not agree with each other, so only gaps
    # within an SM are taken from them).
    c0, c1 = rec[:, 6], rec[:, 7]
    idle, idle_start, idle_end, gaps_cycles = [], [], [], []
    for s in range(sms):
        on = np.nonzero(sm == s)[0]
        if len(on) == 0:
            idle.append(span)
            idle_start.append(span)
            idle_end.append(0)
            continue
        idle.append(span - busy_union(list(zip(start[on], end[on]))))
        idle_start.append(int(start[on].min() - t0))
        idle_end.append(int(t1 - end[on].max()))
        gaps_cycles.append(int(c1[on].max() - c0[on].min()) - busy_union(list(zip(c0[on], c1[on]))))
    idle, idle_start, idle_end = np.array(idle), np.array(idle_start), np.array(idle_end)
    # Blocks resident, and SMs holding at least one, over time in bins of 250 ns.
    resident, sms_busy = [], []
    for b in np.arange(0, span, 250):
        on = (start - t0 < b + 250) & (end - t0 > b)
        resident.append(int(on.sum()))
        sms_busy.append(int(len(np.unique(sm[on]))))
    out = {
        "kernel": case.label,
        "shape": f"{case.rows}x{case.cols}",
        "blocks": int(len(start)),
        "span_us": span / 1000,
        "last_block_start_us": (int(start.max()) - t0) / 1000,
        "sm_idle_mean_us": float(idle.mean()) / 1000,
        "sm_idle_at_start_mean_us": float(idle_start.mean()) / 1000,
        "sm_idle_at_end_mean_us": float(idle_end.mean()) / 1000,
        "sm_idle_between_mean_us": float((idle - idle_start - idle_end).mean()) / 1000,
        "first_sm_done_us": float(span - idle_end.max()) / 1000,
        "sm_gaps_between_mean_cycles": float(np.mean(gaps_cycles)),
        "sms_busy_per_250ns": sms_busy,
        "blocks_resident_per_250ns": resident,
        "block_us": {"median": float(np.median(end - start)) / 1000, "p90": float(np.percentile(end - start, 90)) / 1000},
    }
    m2, m3, m4 = rec[:, 2], rec[:, 3], rec[:, 4]
    if case.label.startswith("mix"):
        # Phases of each block: loads until its data has arrived, statistics, stores; for the
        # first wave, the middle and the blocks that start in the last fifth of the span.
        groups = {
            "first_wave": start - t0 < 1000,
            "middle": (start - t0 >= 1000) & (start - t0 < 0.8 * span),
            "last_fifth": start - t0 >= 0.8 * span,
        }
        out["phases_us"] = {
            g: {
                "blocks": int(sel.sum()),
                "load": float(np.median((m2 - start)[sel])) / 1000,
                "stats": float(np.median((m3 - m2)[sel])) / 1000,
                "store": float(np.median((end - m3)[sel])) / 1000,
            }
            for g, sel in groups.items()
            if sel.any()
        }
        # The last 16 blocks to end: when each started and its phases.
        last = np.argsort(end)[-16:]
        out["last_blocks"] = [
            {"row": int(b), "sm": int(sm[b]), "start_us": (start[b] - t0) / 1000, "load_us": (m2[b] - start[b]) / 1000, "stats_us": (m3[b] - m2[b]) / 1000, "store_us": (end[b] - m3[b]) / 1000}
            for b in last
        ]
    if case.split:
        # Each row's pieces: when the last of them had its piece reduced (mark 2), when the
        # first and the last saw the row's statistics (mark 3, and 4 for the second meeting of
        # the RMS-scaled form), and when the last ended.
        rows = []
        final = m4 if "rms" in case.label else m3
        for r in range(case.rows):
            sel = slice(r * case.split, (r + 1) * case.split)
            rows.append({
                "row": r,
                "first_start_us": (start[sel].min() - t0) / 1000,
                "last_start_us": (start[sel].max() - t0) / 1000,
                "first_arrived_us": (m2[sel].min() - t0) / 1000,
                "last_arrived_us": (m2[sel].max() - t0) / 1000,
                "first_met_us": (m3[sel].min() - t0) / 1000,
                "last_met_us": (m3[sel].max() - t0) / 1000,
                "last_final_us": (final[sel].max() - t0) / 1000,
                "last_end_us": (end[sel].max() - t0) / 1000,
            })
        out["rows"] = rows
    return out


def meeting_summary(a):
    """Per row of a slot form: the first and the last block's sight of the row's statistics
    after its last piece arrived, and (RMS-scaled) of the second meeting after the last block
    saw the first; µs, as min-max over the rows."""
    rows = a["rows"]
    first = [r["first_met_us"] - r["last_arrived_us"] for r in rows]
    last = [r["last_met_us"] - r["last_arrived_us"] for r in rows]
    out = {"span": round(a["span_us"], 3), "reads_end": round(max(r["last_arrived_us"] for r in rows), 3),
           "met_first": [round(min(first), 2), round(max(first), 2)], "met_last": [round(min(last), 2), round(max(last), 2)]}
    if "rms" in a["kernel"]:
        second = [r["last_final_us"] - r["last_met_us"] for r in rows]
        out["second_last"] = [round(min(second), 2), round(max(second), 2)]
    return out


def tick_granularity(load):
    k = load("trace_tick")
    out = cp.zeros(4096, dtype=cp.uint64)
    k((1,), (32,), (out, np.int32(4096)))
    t = cp.asnumpy(out).astype(np.int64)
    d = np.diff(t)
    return {"distinct_steps_ns": sorted(set(int(v) for v in d if v > 0))[:8], "reads": 4096, "span_ns": int(t[-1] - t[0])}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    dev = cp.cuda.Device()
    props = cp.cuda.runtime.getDeviceProperties(dev.id)
    sms, l2 = props["multiProcessorCount"], props["l2CacheSize"]
    began = time.time()
    loads = modules()
    report = {"device": props["name"].decode(), "sms": sms, "launches": LAUNCHES, "replays": REPLAYS}
    report["globaltimer"] = tick_granularity(loads[1])
    print("globaltimer:", report["globaltimer"], flush=True)
    report["meeting_alone"] = meeting_alone(loads[1])
    print("meeting alone:", json.dumps(report["meeting_alone"]), flush=True)
    cases = [
        Case(loads, l2, "copy-1024x32768", "copy_f4", "trace_copy", 1024, 32768, 256, 1024 * 32768 // 4 // 256),
        Case(loads, l2, "mix-plain-8-8x512", "fused_mix_plain_8_8_512_1", "trace_mix_plain", 1024, 32768, 512, 1024, smem=8 * 512 * 16),
        Case(loads, l2, "mix-rms-2-6x1024", "fused_mix_rms_2_6_1024_1", "trace_mix_rms", 1024, 32768, 1024, 1024, smem=6 * 1024 * 16),
        Case(loads, l2, "copy-8x262144", "copy_f4", "trace_copy", 8, 262144, 256, 8 * 262144 // 4 // 256),
        Case(loads, l2, "slot-plain-4x512", "fused_slot_plain_4_512", "trace_slot_plain", 8, 262144, 512, 256, split=32),
        Case(loads, l2, "slot-rms-4x512", "fused_slot_rms_4_512", "trace_slot_rms", 8, 262144, 512, 256, split=32),
    ]
    report["cases"] = []
    for c in cases:
        # Outputs poisoned before each of the two graphs, and each graph's last output checked.
        c.poison()
        plain_us = c.time(False)
        err_plain = c.check()
        c.poison()
        traced_us = c.time(True)
        err = max(err_plain, c.check())
        rec = cp.asnumpy(c.tr[LAUNCHES - 1])
        a = analyse(c, rec, sms)
        a.update({"graph_us_untraced": plain_us, "graph_us_traced": traced_us, "max_error": err})
        report["cases"].append(a)
        np.save(OUT / f"trace-{c.label}.npy", rec.reshape(-1, REC))
        brief = {k: (float(f"{v:.4g}") if isinstance(v, float) else v) for k, v in a.items() if not isinstance(v, (list, dict))}
        print(json.dumps(brief), flush=True)
        if "phases_us" in a:
            print("  phases:", json.dumps(a["phases_us"]), flush=True)
        if "rows" in a:
            for r in a["rows"]:
                print("  row", json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()}), flush=True)
        tail = a["sms_busy_per_250ns"]
        print("  SMs busy, first 3 us:", tail[:12], flush=True)
        print("  SMs busy, last 8 us:", tail[-32:], flush=True)
    # The same launches with the L2 emptied before each (a read of 256 MB), traced only: if the
    # meetings are slow because the previous launch's dirty lines are written back under them,
    # they are fast here.
    report["clean"] = []
    if os.environ.get("CLEAN"):
        flush = cp.zeros(64 * 1024 * 1024, dtype=cp.float32)
        sink = cp.zeros(1, dtype=cp.float32)
        evict_k = loads[1]("evict_l2")
        evict = lambda: evict_k((2 * sms,), (1024,), (flush, np.int64(flush.size // 4), sink))
    for c in cases if os.environ.get("CLEAN") else []:
        if not c.split and not c.label.startswith("mix"):
            continue
        c.time(True, evict)
        a = analyse(c, cp.asnumpy(c.tr[LAUNCHES - 1]), sms)
        entry = {"kernel": c.label, "span_us": a["span_us"], "sm_idle_at_end_mean_us": a["sm_idle_at_end_mean_us"]}
        if c.split:
            entry["meetings"] = meeting_summary(a)
            normal = next(x for x in report["cases"] if x["kernel"] == c.label)
            entry["meetings_back_to_back"] = meeting_summary(normal)
        else:
            entry["phases_us"] = a["phases_us"]
        report["clean"].append(entry)
        print("clean:", json.dumps(entry), flush=True)
    report["seconds"] = time.time() - began
    (OUT / "trace.json").write_text(json.dumps(report, indent=1))
    print(f"trace done in {report['seconds']:.0f} s", flush=True)


if __name__ == "__main__":
    sys.exit(main())
