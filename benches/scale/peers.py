#!/usr/bin/env python3
"""The peers of `claimcheck stats` in the scale benchmark: DuckDB and Polars (lazy), each
reading the samples file itself (JSONL with DuckDB's `read_json` and Polars' `scan_ndjson`; a
`.csv` file with DuckDB's `read_csv` and Polars' `scan_csv`) and printing the lines `claimcheck stats` prints (one
JSON object a line, groups in sorted order, field by field: the `by` fields, `field`, `n`,
`median`, `p95`).

Usage: peers.py duckdb|polars FILE [--exact] [--by suite,case,variant,mode] [--field host_us ...]

Without --exact each peer uses its own quantile (DuckDB's `quantile_cont`, Polars' `median`
and `quantile(…, "linear")`): that is what is timed. With --exact each computes numpy's linear
method itself, from the sorted values of each group (h = (n − 1)·p, then numpy's `_lerp`: from
the lower neighbour below the midpoint, from the upper one at or above it): DuckDB in SQL,
Polars in expressions. That is what is compared with claimcheck to the last bit, because the
peers' own interpolation can differ from numpy's by one ulp.
"""
import argparse
import json
import sys


def duckdb_rows(path, by, fields, exact):
    import duckdb

    con = duckdb.connect()
    con.execute("CREATE MACRO np_lerp(a, b, t) AS CASE WHEN t >= 0.5 THEN b - (b - a) * (1 - t) ELSE a + (b - a) * t END")
    # h = (n - 1)·p in doubles, as numpy computes it: a literal 0.95 is a DECIMAL in DuckDB,
    # whose exact arithmetic would give another t.
    con.execute("CREATE MACRO np_h(l, p) AS CAST(len(l) - 1 AS DOUBLE) * CAST(p AS DOUBLE)")
    con.execute(
        "CREATE MACRO np_quantile(l, p) AS np_lerp("
        "l[CAST(floor(np_h(l, p)) AS BIGINT) + 1], "
        "l[least(CAST(floor(np_h(l, p)) AS BIGINT) + 2, len(l))], "
        "np_h(l, p) - floor(np_h(l, p)))"
    )
    keys = ", ".join(f'CAST("{k}" AS VARCHAR) AS "{k}"' for k in by)
    group = ", ".join(f'"{k}"' for k in by)
    out = []
    if path.endswith(".csv"):
        source = f"read_csv('{path}', header = true)"
    else:
        source = f"read_json('{path}', format = 'newline_delimited')"
    for field in fields:
        if exact:
            sql = (
                f"SELECT {group}, len(l) AS n, np_quantile(l, 0.5) AS median, np_quantile(l, 0.95) AS p95 FROM ("
                f'SELECT {keys}, list_sort(list(CAST("{field}" AS DOUBLE))) AS l FROM {source} GROUP BY ALL'
                f") ORDER BY {group}"
            )
        else:
            sql = (
                f'SELECT {keys}, count(*) AS n, quantile_cont(CAST("{field}" AS DOUBLE), 0.5) AS median, '
                f'quantile_cont(CAST("{field}" AS DOUBLE), 0.95) AS p95 FROM {source} GROUP BY ALL ORDER BY {group}'
            )
        for row in con.execute(sql).fetchall():
            out.append(dict(zip(by, row[: len(by)])) | {"field": field, "n": row[-3], "median": row[-2], "p95": row[-1]})
    return out


def polars_rows(path, by, fields, exact):
    import polars as pl

    frame = pl.scan_csv(path) if path.endswith(".csv") else pl.scan_ndjson(path)
    aggs = []
    for field in fields:
        col = pl.col(field).cast(pl.Float64)
        if exact:
            s = col.sort()
            n = pl.len()

            def q(p, s=s, n=n):
                h = (n - 1).cast(pl.Float64) * p
                lo = h.floor()
                t = h - lo
                a = s.get(lo.cast(pl.Int64))
                b = s.get(pl.min_horizontal(lo.cast(pl.Int64) + 1, n.cast(pl.Int64) - 1))
                return pl.when(t >= 0.5).then(b - (b - a) * (1 - t)).otherwise(a + (b - a) * t)

            aggs += [q(0.5).alias(f"{field}\0median"), q(0.95).alias(f"{field}\0p95")]
        else:
            aggs += [col.median().alias(f"{field}\0median"), col.quantile(0.95, "linear").alias(f"{field}\0p95")]
    keys = [pl.col(k).cast(pl.String) for k in by]
    result = frame.group_by(keys).agg([pl.len().alias("\0n")] + aggs).sort(by).collect()
    out = []
    rows = result.rows(named=True)
    for field in fields:
        for row in rows:
            out.append({k: row[k] for k in by} | {"field": field, "n": row["\0n"], "median": row[f"{field}\0median"], "p95": row[f"{field}\0p95"]})
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("peer", choices=["duckdb", "polars"])
    parser.add_argument("file")
    parser.add_argument("--exact", action="store_true")
    parser.add_argument("--by", default="suite,case,variant,mode")
    parser.add_argument("--field", action="append", dest="fields")
    args = parser.parse_args()
    by = args.by.split(",")
    fields = args.fields or ["host_us", "device_us"]
    rows = (duckdb_rows if args.peer == "duckdb" else polars_rows)(args.file, by, fields, args.exact)
    write = sys.stdout.write
    for row in rows:
        write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
