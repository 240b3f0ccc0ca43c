#!/usr/bin/env python3
"""The peer of `claimcheck stats`: medians and p95s of a JSONL samples file per group, with
pandas reading and grouping and numpy computing the quantiles (its default linear method).

Usage: python3 benches/peers/stats.py FILE [--by suite,case,variant,mode] [--field host_us ...]

Prints one JSON object a line, in sorted group order, for every field in turn: the same lines
`claimcheck stats` prints, so that the benchmark can compare the values one by one.
"""
import argparse
import json
import sys

import numpy as np
import pandas as pd


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--by", default="suite,case,variant,mode")
    parser.add_argument("--field", action="append", dest="fields")
    args = parser.parse_args()
    by = args.by.split(",")
    fields = args.fields or ["host_us", "device_us"]
    # precise_float: the default parser is not correctly rounded (24.577 reads as
    # 24.576999999999998), and the medians must be those of the numbers in the file.
    frame = pd.read_json(args.file, lines=True, dtype=False, precise_float=True)
    out = sys.stdout
    for field in fields:
        for key, group in frame.groupby(by, sort=True):
            values = group[field].to_numpy(dtype=np.float64)
            median, p95 = np.percentile(values, [50, 95])
            row = dict(zip(by, (str(k) for k in key)))
            row.update({"field": field, "n": int(values.size), "median": float(median), "p95": float(p95)})
            out.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
