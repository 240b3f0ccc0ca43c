#!/usr/bin/env python3
"""Recompute every number of article/itsy-bitsy-readme.md from evidence/results/*.json.

Helper for whoever writes the claims registry; not part of claimcheck. Needs only Python 3's
standard library (`statistics`, `json`). Run from anywhere:

    python3 examples/itsy-bitsy-benchmarks/recompute.py           # one line per number
    python3 examples/itsy-bitsy-benchmarks/recompute.py --toml    # the registry's claims

The article is the "Benchmarks" section of itsy.bitsy's README: two Google Benchmark console
tables pasted in code blocks, one per standard library,

    Benchmark                            Time             CPU   Iterations
    is_sorted_by_hand                 2842 ns         2888 ns       248889

where a run without `--benchmark_repetitions` prints, for each benchmark, one measurement: the
wall-clock (`Time`) and CPU time of one iteration, averaged over `Iterations` iterations.

The evidence is what the same suite wrote with `--benchmark_repetitions=30
--benchmark_out_format=json`, committed as "Current numbers and benchmarks" (8d0feb8,
2019-08-25): for each benchmark 30 `"run_type": "iteration"` rows (one a repetition, each with
the same iteration count) and Google Benchmark's own mean, median and stddev rows. Each quoted
time is compared with the mean of the 30 repetitions' times (`real_time`, `cpu_time`, in ns),
each count with the repetitions' iteration count. A repetition with `"error_occurred": true`
measured nothing (its times are written as 0) and is left out; a benchmark all of whose
repetitions failed has no time to compare.

A quoted value MATCHES when the recomputed value written with the quoted number of decimals
(Python's `format`, which rounds the exact binary value half to even, as claimcheck does) is
the quoted value; otherwise it DISAGREES and the recomputed value is printed.
"""
import json
import pathlib
import re
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parent
ARTICLE = ROOT / "article" / "itsy-bitsy-readme.md"
EVIDENCE = {
    "GCC": ("libstdc++", "evidence/results/libstdc++.itsy.bitsy.benchmarks.json"),
    "Visual C++": ("vc++", "evidence/results/vc++.itsy.bitsy.benchmarks.json"),
}
ROW = re.compile(r"^(\S+)\s+(\S+) (ns)\s+(\S+) (ns)\s+(\d+)\s*$")


def tables():
    """(section, [(name, time, cpu, iterations), ...]) for each console table, as written."""
    section, out, rows, in_code = None, [], None, False
    for line in ARTICLE.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif line.startswith("```"):
            in_code = not in_code
            if in_code:
                rows = []
            else:
                out.append((section, rows))
        elif in_code:
            m = ROW.match(line)
            if m:
                rows.append((m[1], m[2], m[4], m[6]))
    return out


def repetitions(rel):
    """run_name -> its iteration rows, in file order."""
    doc = json.loads((ROOT / rel).read_text(encoding="utf-8"))
    runs = {}
    for row in doc["benchmarks"]:
        if row.get("run_type", "iteration") == "iteration":
            runs.setdefault(row["run_name"], []).append(row)
    return runs


def decimals(quoted):
    return len(quoted.split(".")[1]) if "." in quoted else 0


def matches(value, quoted):
    return format(value, f".{decimals(quoted)}f") == quoted


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def results():
    """One entry per number of the article: where it is, what it says, what the evidence says."""
    out = []
    for section, rows in tables():
        lib, rel = EVIDENCE[section]
        runs = repetitions(rel)
        for name, time, cpu, iters in rows:
            reps = runs[name]
            good = [r for r in reps if not r.get("error_occurred")]
            for column, quoted, field, key in (("Time", time, "real_time_ns", "real_time"), ("CPU", cpu, "cpu_time_ns", "cpu_time")):
                value = statistics.fmean(r[key] for r in good) if good else None
                out.append(dict(section=section, lib=lib, rel=rel, name=name, column=column, quoted=quoted + " ns",
                                field=field, statistic="mean", value=value, n=len(good), failed=len(reps) - len(good)))
            counts = sorted({r["iterations"] for r in good})
            value = statistics.median(r["iterations"] for r in good) if good else statistics.median(r["iterations"] for r in reps)
            out.append(dict(section=section, lib=lib, rel=rel, name=name, column="Iterations", quoted=iters,
                            field="iterations", statistic="median", value=value, n=len(good), failed=len(reps) - len(good),
                            counts=counts))
    return out


def report():
    agree = disagree = missing = 0
    for r in results():
        where = f"{r['section']} › {r['name']} › {r['column']}"
        if r["column"] != "Iterations" and r["value"] is None:
            missing += 1
            print(f"NO TIME    {where}: {r['quoted']}; all {r['failed']} repetitions failed")
            continue
        ok = matches(r["value"], r["quoted"].removesuffix(" ns"))
        agree += ok
        disagree += not ok
        print(f"{'MATCHES   ' if ok else 'DISAGREES '} {where}: {r['quoted']} vs {r['statistic']} {r['value']:.6g} of {r['n']} repetitions")
    print(f"\n{agree} match, {disagree} disagree, {missing} have no evidence")


def finding(r):
    lib = r["lib"]
    if r["column"] == "Iterations":
        if r["n"] == 0:
            return (f"Every one of the {r['failed']} committed repetitions ({lib}, 2019-08-25) failed "
                    f"(\"bad benchmark result\") after 1 iteration; the table's {r['quoted']} iterations are from another run, not committed.")
        same = "each ran" if len(r["counts"]) == 1 else "they ran a median of"
        verdict = "as the table says" if matches(r["value"], r["quoted"]) else f"not the table's {r['quoted']}, which is from another run, not committed"
        return f"The {r['n']} committed repetitions ({lib}, 2019-08-25): {same} {r['value']:,.0f} iterations, {verdict}."
    kind = "wall-clock" if r["column"] == "Time" else "CPU"
    value = f"{r['value']:,.1f}" if r["value"] >= 100 else f"{r['value']:.4g}".replace("e-0", "e-")
    if matches(r["value"], r["quoted"].removesuffix(" ns")):
        return f"The mean {kind} time of one iteration over the {r['n']} committed repetitions ({lib}, 2019-08-25) is {value} ns, which the table's {r['quoted']} rounds."
    return (f"The mean {kind} time of one iteration over the {r['n']} committed repetitions ({lib}, 2019-08-25) is {value} ns, "
            f"not the table's {r['quoted']}: the table is from a later run that was not committed.")


def toml():
    seen = set()
    for r in results():
        if r["column"] != "Iterations" and r["value"] is None:
            continue
        ident = f"{'gcc' if r['lib'] == 'libstdc++' else 'vc'}-{slug(r['name'])}-{slug(r['column'])}"
        assert ident not in seen, ident
        seen.add(ident)
        ok = matches(r["value"], r["quoted"].removesuffix(" ns"))
        print("[[claim]]")
        print(f"id = \"{ident}\"")
        print(f"cell = {{ row = \"{r['name']}\", column = \"{r['column']}\", section = \"{r['section']}\" }}")
        print(f"verdict = \"{'retain' if ok else 'correct'}\"")
        escaped = finding(r).replace("\\", "\\\\").replace('"', '\\"')
        print(f"finding = \"{escaped}\"")
        print()
        print("  [[claim.check]]")
        print("  kind = \"stat\"")
        print(f"  samples = \"{r['rel']}\"")
        print("  format = \"google-benchmark\"")
        print(f"  select = {{ name = \"{r['name']}\" }}")
        print(f"  field = \"{r['field']}\"")
        print(f"  statistic = \"{r['statistic']}\"")
        if not ok:
            print("  expect = \"mismatch\"")
        print()


if __name__ == "__main__":
    toml() if "--toml" in sys.argv else report()
