#!/usr/bin/env python3
"""Recompute every number of article/llmperf-leaderboard.md from evidence/raw_data/.

Helper for whoever writes the claims registry; not part of claimcheck. Needs numpy.
Run from anywhere:  python3 examples/llmperf-leaderboard/recompute.py [--markdown]

Quantiles are numpy's default (method="linear", the same as pandas' Series.quantile,
which LLMPerf itself uses). A quoted value MATCHES when the recomputed value rounded
half-to-even to the quoted number of decimals equals it (|diff| <= half a unit of the
last quoted digit); otherwise it DISAGREES and the right value is printed.
"""
import json
import math
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent
ARTICLE = ROOT / "article" / "llmperf-leaderboard.md"
IND = ROOT / "evidence" / "raw_data" / "individual"
SUM = ROOT / "evidence" / "raw_data" / "summary"
SIZES = {"70B Models": "70b", "13B Models": "13b"}
QUANT = {"Median": 0.5, "P25": 0.25, "P75": 0.75, "P95": 0.95, "P99": 0.99}


def load(provider, size):
    return json.loads((IND / f"{provider}_{size}.json").read_text())


def stat(x, col):
    if col == "Mean":
        return float(np.mean(x))
    if col == "Min":
        return float(np.min(x))
    if col == "Max":
        return float(np.max(x))
    return float(np.quantile(x, QUANT[col]))  # numpy default: linear interpolation


def tables():
    """Yield (section, subsection, provider, {column: quoted string}) for every table row."""
    sec = sub = None
    header = None
    for line in ARTICLE.read_text().splitlines():
        if line.startswith("### "):
            sec = line[4:].strip()
        elif line.startswith("#### "):
            sub = line[5:].strip()
        elif line.startswith("|") and not line.startswith(("|:", "|-")):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] == "Framework":
                header = cells
                continue
            yield sec, sub, cells[0], dict(zip(header[2:], cells[2:]))


def binding(section, provider):
    """The binding that reproduces the table (see NOTES.md), as (field, derived?, filter)."""
    if section.startswith("Time to First Token"):
        return "ttft_s", False, "error_code == null"
    if provider == "groq":
        return "request_output_throughput_token_per_s", False, "error_code == null"
    if provider == "bedrock":
        return "number_output_tokens / end_to_end_latency_s", True, "all records"
    return "number_output_tokens / end_to_end_latency_s", True, "error_code == null"


def values(records, field, derived, filt):
    rs = records if filt == "all records" else [r for r in records if r["error_code"] is None]
    if derived:
        return np.array([r["number_output_tokens"] / r["end_to_end_latency_s"] for r in rs]), len(rs)
    return np.array([r[field] for r in rs], dtype=float), len(rs)


METHODS = ("lower", "higher", "nearest", "midpoint", "hazen", "weibull", "median_unbiased", "normal_unbiased")


def verdict(quoted, value, x=None, col=None):
    dec = len(quoted.split(".")[1]) if "." in quoted else 0
    q = float(quoted)
    if abs(round(value, dec) - q) < 1e-9:
        tie = abs(abs(value * 10**dec - math.trunc(value * 10**dec)) - 0.5) < 1e-6
        return "MATCHES" + (" (rounding tie)" if tie else ""), dec
    trunc = math.floor(value * 10**dec) / 10**dec
    note = f"DISAGREES (right value {value:.{dec}f})"
    if abs(trunc - q) < 1e-9:
        note += "; truncation, not rounding, gives the quoted value"
    if x is not None and col in QUANT:
        other = [m for m in METHODS if abs(round(float(np.quantile(x, QUANT[col], method=m)), dec) - q) < 1e-9]
        if other:
            note += "; numpy methods that give it: " + ", ".join(other)
    return note, dec


def main():
    md = "--markdown" in sys.argv
    rows = []
    counts = {"MATCHES": 0, "DISAGREES": 0}
    for sec, sub, prov, cells in tables():
        size = SIZES[sub]
        recs = load(prov, size)
        field, derived, filt = binding(sec, prov)
        x, n = values(recs, field, derived, filt)
        unit = "tokens/s" if sec.startswith("Output") else "s"
        for col, quoted in cells.items():
            v = stat(x, col)
            verd, dec = verdict(quoted, v, x, col)
            counts[verd.split()[0]] += 1
            stat_name = col.lower() if col in ("Mean", "Min", "Max", "Median") else col.lower() + " (numpy linear)"
            rows.append((f"{sec.split(' (')[0]} / {sub} / {prov} / {col}", f"{quoted} {unit}",
                         f"individual/{prov}_{size}.json", f"{filt} (n={n})",
                         ("derive " if derived else "") + field, stat_name, f"{v:.{dec + 3}f}", verd))
    if md:
        print("| Cell (section / table / row / column) | Quoted | File | Records | Field | Statistic | Recomputed | Verdict |")
        print("|---|---|---|---|---|---|---|---|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        for r in rows:
            print("  ".join(r))
    print(f"\ntable cells: {sum(counts.values())}, MATCHES {counts['MATCHES']}, DISAGREES {counts['DISAGREES']}")

    print("\n# Alternative bindings (why the ones above were chosen)")
    for prov, size in (("groq", "70b"), ("bedrock", "70b"), ("bedrock", "13b")):
        recs = load(prov, size)
        ok = [r for r in recs if r["error_code"] is None]
        d_ok = np.array([r["number_output_tokens"] / r["end_to_end_latency_s"] for r in ok])
        f_ok = np.array([r["request_output_throughput_token_per_s"] for r in ok])
        for name, x in (("derived, error_code == null", d_ok), ("request_output_throughput_token_per_s, error_code == null", f_ok)):
            print(f"{prov}_{size} throughput {name}: " + ", ".join(
                f"{c}={stat(x, c):.2f}" for c in ("Median", "Mean", "Min", "Max", "P25", "P75", "P95", "P99")))
    recs = load("bedrock", "70b")
    t_all = np.array([r["ttft_s"] for r in recs])
    print("bedrock_70b TTFT over all 150 records (errors included): " + ", ".join(
        f"{c}={stat(t_all, c):.2f}" for c in ("Median", "Mean", "Min", "Max", "P25", "P75", "P95", "P99")))
    recs = load("together", "13b")
    big = sorted(r["ttft_s"] for r in recs if r["error_code"] is None)[-3:]
    print(f"together_13b: largest ttft_s of non-error records: {[round(b, 3) for b in big]}")
    n = sum(r["error_code"] is None for r in recs)
    above = n - 1 - math.floor(0.99 * (n - 1))  # values that can lie above a linear-interpolated P99
    bound = ((n - above) * 0.81 + above * 0.91) / n
    print(f"together_13b TTFT as quoted (P99 0.81, Max 0.91, n={n}): at most {above} values above P99, "
          f"so the mean is at most {bound:.3f}; quoted Mean 0.89 is impossible")

    print("\n# Prose numbers")
    for f in sorted(IND.glob("*.json")):
        recs = json.loads(f.read_text())
        s = json.loads((SUM / f.name).read_text())
        ok = sum(r["error_code"] is None for r in recs)
        inp = sorted({r["number_input_tokens"] for r in recs})
        print(f"{f.name:20s} records={len(recs):3d} error_code==null={ok:3d} number_input_tokens={inp} "
              f"summary: num_concurrent_requests={s['num_concurrent_requests']} mean_input_tokens={s['mean_input_tokens']} "
              f"stddev_input_tokens={s['stddev_input_tokens']} mean_output_tokens={s['mean_output_tokens']} "
              f"stddev_output_tokens={s['stddev_output_tokens']}")


if __name__ == "__main__":
    main()
