"""Prints the PM-sampling series of every kernel in an Nsight Compute report as text.

`ncu --page raw` prints each PM-sampling metric's summary but not its samples; the report's
Python interface (ncu_report, shipped with Nsight Compute) holds them. For each profiled
kernel: its name, grid and duration, then one line per sample with the time since the first
sample and every `pmsampling:` metric's value at it, so that idle stretches (no DRAM traffic, no
active SM) can be placed within the kernel.

Usage (where Nsight Compute is installed): python3 benches/ncu_pm.py REPORT.ncu-rep
"""

import glob
import os
import sys

for pattern in ("/usr/local/cuda*/nsight-compute*/extras/python", "/opt/nvidia/nsight-compute/*/extras/python", "/usr/local/cuda/nsight-compute*/extras/python"):
    sys.path.extend(glob.glob(pattern))
ncu = os.path.realpath(os.popen("command -v ncu").read().strip() or "/usr/local/cuda/bin/ncu")
sys.path.extend(glob.glob(os.path.join(os.path.dirname(ncu), "..", "nsight-compute*", "extras", "python")))
sys.path.extend(glob.glob(os.path.join(os.path.dirname(ncu), "extras", "python")))

import ncu_report  # noqa: E402


def value(metric, i=None):
    """A metric's value (or its i-th instance's) as a number, or None."""
    try:
        return metric.as_double(i) if i is not None else metric.as_double()
    except Exception:
        try:
            return metric.as_uint64(i) if i is not None else metric.as_uint64()
        except Exception:
            return None


def main(path):
    ctx = ncu_report.load_report(path)
    for r in range(ctx.num_ranges()):
        rng = ctx.range_by_idx(r)
        for a in range(rng.num_actions()):
            act = rng.action_by_idx(a)
            names = list(act.metric_names())
            grid = value(act.metric_by_name("launch__grid_size")) if "launch__grid_size" in names else None
            dur = value(act.metric_by_name("gpu__time_duration.sum")) if "gpu__time_duration.sum" in names else None
            print(f"## {act.name()} grid={grid} duration_ns={dur}")
            pm = sorted(n for n in names if n.startswith("pmsampling:"))
            series = {}
            stamps = None
            for n in pm:
                m = act.metric_by_name(n)
                k = m.num_instances()
                if k <= 1:
                    continue
                series[n] = [value(m, i) for i in range(k)]
                if stamps is None:
                    try:
                        c = m.correlation_ids()
                        stamps = [value(c, i) for i in range(c.num_instances())]
                    except Exception:
                        stamps = None
            if not series:
                print("   (no sampled series)")
                continue
            cols = list(series)
            print("   t_ns " + " ".join(c.replace("pmsampling:", "") for c in cols))
            k = max(len(v) for v in series.values())
            t0 = stamps[0] if stamps else 0
            for i in range(k):
                t = (stamps[i] - t0) if stamps and i < len(stamps) and stamps[i] is not None else i
                row = []
                for c in cols:
                    v = series[c][i] if i < len(series[c]) else None
                    row.append("-" if v is None else f"{v:.4g}")
                print(f"   {t:.0f} " + " ".join(row))


if __name__ == "__main__":
    main(sys.argv[1])
