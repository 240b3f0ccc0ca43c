#!/usr/bin/env python3
"""Recompute the numbers of the staged VAMOS manuscript excerpt from the raw CSVs.

Standard library only.  Run from anywhere:

    python3 recompute.py            # human-readable report, one line per number token
    python3 recompute.py --markdown # same checks as a Markdown table (the table in NOTES.md)

Source: https://github.com/NicolasRodriguezUribe/VAMOS @ 7f2552d28ad788decf69fa80588399354968e61c
paper/manuscript/main.tex (here article/main.tex, whole and byte for byte) and
experiments/*.csv (here under evidence/experiments/).  Two older committed versions of two CSVs are staged under
evidence/history/<commit>/ to explain claims that the HEAD data no longer support.

Statuses
  MATCH          recomputed value, formatted at the paper's precision, equals the written text
  MISMATCH       it does not (the recomputed value is shown)
  HIST-MATCH     does not match HEAD data but matches an older committed version of the CSV
  APPROX         a round number ("30 s") whose data straddle it at the implied integer precision
  COUNT-MATCH    a protocol count (seeds, evaluations, sizes) that the CSV rows confirm
  NOT-IN-DATA    a number the staged evidence cannot confirm or refute
  NON-MEASURE    a number that is not a measurement (layout, identifiers, math notation)
Bold markers (\\textbf) in the tables are checked against the generator's rule as well.
"""
import csv
import math
import os
import re
import statistics
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
TEX = os.path.join(HERE, "article", "main.tex")
EV = os.path.join(HERE, "evidence", "experiments")
HIST_BP = os.path.join(HERE, "evidence", "history",
                       "b32f2c64ad75a35a1ccfe4d8c6d158ffbb2f4a5d", "experiments", "benchmark_paper.csv")
HIST_MOEAD = os.path.join(HERE, "evidence", "history",
                          "71dc9c47c4cad678ab70ec6128317c2ef3a0e740", "experiments", "benchmark_paper_moead.csv")

with open(TEX, encoding="utf-8") as fh:
    LINES = fh.read().split("\n")


def tex(n):
    return LINES[n - 1]


def load(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def family(problem):
    for pre, fam in (("zdt", "ZDT"), ("dtlz", "DTLZ"), ("wfg", "WFG")):
        if problem.startswith(pre):
            return fam
    return "Other"


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def mean_skipnan(xs):
    xs = [x for x in xs if not math.isnan(x)]
    return sum(xs) / len(xs) if xs else float("nan")


def fmt(v, nd):
    return f"{v:.{nd}f}"  # same formatting call as the paper's table generator


RESULTS = []


def record(line, written, unit, recomputed, status, how, evidence):
    if written not in tex(line):
        raise SystemExit(f"line {line}: {written!r} not found in: {tex(line)[:120]!r}")
    RESULTS.append(dict(line=line, written=written, unit=unit, recomputed=recomputed,
                        status=status, how=how, evidence=evidence))


def value(line, written, unit, v, nd, how, evidence, hist=None):
    """Numeric claim: compare fmt(v, nd) with the number inside `written`."""
    num = re.search(r"-?\d+(?:\.\d+)?|nan", written).group(0)
    rec = fmt(v, nd)
    if rec == num:
        status = "MATCH"
    elif hist is not None and fmt(hist, nd) == num:
        status, rec = "HIST-MATCH", f"{rec} (HEAD); {fmt(hist, nd)} (history)"
    else:
        status = "MISMATCH"
    record(line, written, unit, rec, status, how, evidence)


# --------------------------------------------------------------------------- data
BP = load(os.path.join(EV, "benchmark_paper.csv"))            # NSGA-II, 30 seeds
SC = load(os.path.join(EV, "scaling_vectorization.csv"))      # population sweep, 5 seeds
MEM = load(os.path.join(EV, "memory_benchmark.csv"))
SPEA2 = load(os.path.join(EV, "benchmark_paper_spea2.csv"))
MOEAD = load(os.path.join(EV, "benchmark_paper_moead.csv"))
CONV = load(os.path.join(EV, "convergence_paper.csv"))
BP_OLD = load(HIST_BP) if os.path.exists(HIST_BP) else []
MOEAD_OLD = load(HIST_MOEAD) if os.path.exists(HIST_MOEAD) else []

F_BP = "evidence/experiments/benchmark_paper.csv"


def by(rows, keyf, field="runtime_seconds"):
    d = defaultdict(list)
    for r in rows:
        d[keyf(r)].append(float(r[field]))
    return d


def fam_medians(rows):
    g = by(rows, lambda r: (r["framework"], family(r["problem"])))
    return {k: median(v) for k, v in g.items()}


def prob_medians(rows):
    g = by(rows, lambda r: (r["framework"], r["problem"]))
    return {k: median(v) for k, v in g.items()}


FAM = fam_medians(BP)
PROB = prob_medians(BP)
FAMS = ["ZDT", "DTLZ", "WFG"]


def cells(line):
    body = tex(line).split("\\\\")[0]
    out = []
    for c in body.split("&")[1:]:
        c = c.strip()
        m = re.fullmatch(r"\\textbf\{(.*)\}", c)
        out.append((m.group(1) if m else c, bool(m)))
    return out


def table_rows(first, last, label_map, colkeys, compute, bold_rule, how, nd=2):
    """Check every numeric cell of a generated table and its bold marker."""
    vals = {}
    for ln in range(first, last + 1):
        label = tex(ln).split("&")[0].strip()
        label = re.sub(r"\\textbf\{(.*)\}", r"\1", label)
        if label not in label_map:
            continue
        vals[label_map[label]] = {ck: compute(label_map[label], ck) for ck in colkeys}
    bold = bold_rule(vals)
    for ln in range(first, last + 1):
        label = re.sub(r"\\textbf\{(.*)\}", r"\1", tex(ln).split("&")[0].strip())
        if label not in label_map:
            continue
        row = label_map[label]
        for (text, is_bold), ck in zip(cells(ln), colkeys):
            v = vals[row][ck]
            if text == "-":
                st = "MATCH" if math.isnan(v) else "MISMATCH"
                record(ln, "-", "placeholder", "missing" if math.isnan(v) else fmt(v, nd), st,
                       f"{row}/{ck}: no runs in CSV -> generator prints '-'", F_BP)
                continue
            rec = fmt(v, nd)
            st = "MATCH" if rec == text else "MISMATCH"
            want_bold = bold.get((row, ck), False)
            if want_bold != is_bold:
                st += " (bold differs)"
            record(ln, text, "s", rec + (" [bold]" if want_bold else ""), st, how(row, ck), F_BP)


# ------------------------------------------------------------ line 120 (abstract)
def ratio_range(fam_med, comps, fams, base="VAMOS (numba)"):
    if isinstance(comps, str):
        comps = [comps]
    rs = [fam_med[(c, f)] / fam_med[(base, f)] for c in comps for f in fams if (c, f) in fam_med]
    return (min(rs), max(rs)) if rs else (float("nan"), float("nan"))


OBJECT_CENTRIC = ["jMetalPy", "DEAP", "Platypus"]   # HEAD data only has jMetalPy
FAM_OLD = fam_medians(BP_OLD) if BP_OLD else {}


def int_range_status(now, old, want):
    r = lambda t: (round(t[0]), round(t[1]))
    if r(now) == want:
        return "MATCH"
    return "HIST-MATCH" if old and r(old) == want else "MISMATCH"


now, old = ratio_range(FAM, OBJECT_CENTRIC, FAMS), ratio_range(FAM_OLD, OBJECT_CENTRIC, FAMS)
record(120, "$4$--$12\\times$", "x",
       f"{now[0]:.2f}-{now[1]:.2f} (HEAD, jMetalPy only); {old[0]:.2f}-{old[1]:.2f} (b32f2c6, jMetalPy+DEAP+Platypus)",
       int_range_status(now, old, (4, 12)),
       "runtime ratio (object-centric framework family pooled median) / (VAMOS (numba) family pooled median) "
       "over ZDT,DTLZ,WFG; min-max rounded to integers. The b32f2c6 CSV was the committed one when the "
       "abstract sentence was written (2026-02-16/18)", F_BP)
now, old = ratio_range(FAM, "pymoo", FAMS), ratio_range(FAM_OLD, "pymoo", FAMS)
st = "MATCH" if (fmt(now[0], 1), fmt(now[1], 1)) == ("1.1", "1.2") else (
    "HIST-MATCH" if (fmt(old[0], 1), fmt(old[1], 1)) == ("1.1", "1.2") else "MISMATCH")
record(120, "$1.1$--$1.2\\times$", "x", f"{now[0]:.2f}-{now[1]:.2f} (HEAD); {old[0]:.2f}-{old[1]:.2f} (b32f2c6)",
       st, "pymoo/VAMOS(numba) family pooled-median ratio over ZDT,DTLZ,WFG; min-max at 1 decimal", F_BP)

# ------------------------------------------------------ Table tab:backends (428-430)
BACKEND = {"Numba": "VAMOS (numba)", "MooCore": "VAMOS (moocore)", "NumPy": "VAMOS (numpy)"}


def fam_cell(fw, ck):
    if ck == "Average":
        return mean_skipnan([FAM.get((fw, f), float("nan")) for f in FAMS])
    return FAM.get((fw, ck), float("nan"))


def col_min_bold(vals):
    out = {}
    for ck in FAMS + ["Average"]:
        col = [(r, v[ck]) for r, v in vals.items() if not math.isnan(v[ck])]
        m = min(v for _, v in col)
        for r, v in col:
            out[(r, ck)] = abs(v - m) < 1e-9
    return out


def fam_how(fw, ck):
    if ck == "Average":
        return (f"framework={fw!r}: mean of its family-level medians, NaN families skipped "
                "(pandas mean skipna)")
    n = sum(1 for r in BP if r["framework"] == fw and family(r["problem"]) == ck)
    return (f"framework={fw!r}, problem family {ck} (problem prefix): median of runtime_seconds "
            f"pooled over all {n} runs (problems x seeds); 'nan' = no runs")


table_rows(428, 430, BACKEND, FAMS + ["Average"], fam_cell, col_min_bold, fam_how)
record(434, "3 values", "count", "3 for Numba; 2 for MooCore/NumPy (no WFG runs)", "MISMATCH",
       "footnote: Average = mean of family-level medians; MooCore/NumPy have only 2 families", F_BP)
record(434, "21 problems", "count", str(len({r["problem"] for r in BP})), "COUNT-MATCH",
       "distinct problem values in benchmark_paper.csv", F_BP)

# -------------------------------------------------- scaling section (439, 444, 448)
F_SC = "evidence/experiments/scaling_vectorization.csv"
POP = [r for r in SC if r["experiment"] == "population"]
record(439, "50{,}000", "evaluations", ",".join(sorted({r["n_evals"] for r in POP})), "COUNT-MATCH",
       "n_evals of experiment=population rows", F_SC)
seeds = {(r["problem"], r["engine"], r["pop_size"]): set() for r in POP}
for r in POP:
    seeds[(r["problem"], r["engine"], r["pop_size"])].add(r["seed"])
record(439, "5 independent seeds", "count", str(sorted({len(s) for s in seeds.values()})), "COUNT-MATCH",
       "distinct seeds per (problem, engine, pop_size)", F_SC)
pops = sorted({int(r["pop_size"]) for r in POP})
record(439, "range from 50 to 800", "population size", f"{pops[0]}..{pops[-1]} ({pops})", "COUNT-MATCH",
       "pop_size values of experiment=population", F_SC)
record(444, "across 5 seeds", "count", "5", "COUNT-MATCH", "as line 439", F_SC)

S = by(POP, lambda r: (r["problem"], r["engine"], int(r["pop_size"])))
SM = {k: median(v) for k, v in S.items()}
probs = ["zdt4", "dtlz2", "wfg2"]
r50 = {p: SM[(p, "numpy", 50)] / SM[(p, "numba", 50)] for p in probs}
record(448, "$N=50$", "population size", "50", "COUNT-MATCH",
       "N=50: median s numpy/numba " + ", ".join(f"{p} {SM[(p,'numpy',50)]:.2f}/{SM[(p,'numba',50)]:.2f}"
                                                  for p in probs)
       + " -> 'perform similarly' holds for zdt4 only (numpy/numba = "
       + ", ".join(f"{r50[p]:.2f}" for p in probs) + "); 'NumPy marginally faster on ZDT4' holds", F_SC)
record(448, "$N=800$", "population size", "800", "COUNT-MATCH", "largest pop_size", F_SC)
np800 = [SM[(p, "numpy", 800)] for p in probs]
record(448, "30\\,s", "s", "medians " + ", ".join(f"{v:.2f}" for v in np800) + " -> all round to "
       + ",".join(fmt(v, 0) for v in np800),
       "MATCH" if all(fmt(v, 0) == "30" for v in np800) else (
           "APPROX" if all(abs(v - 30) < 5 for v in np800) else "MISMATCH"),
       "engine=numpy, pop_size=800, each of zdt4,dtlz2,wfg2: median runtime_seconds over 5 seeds, "
       "rounded to integer ('requires 30 s on all three problems')", F_SC)
nb800 = [SM[(p, "numba", 800)] for p in probs]
nb800_max = max(max(S[(p, "numba", 800)]) for p in probs)
record(448, "12\\,s", "s", "medians " + ", ".join(f"{v:.2f}" for v in nb800)
       + f"; max single run {nb800_max:.2f}",
       "MATCH" if nb800_max < 12 else "MISMATCH",
       "engine=numba(warm), pop_size=800: 'stays below 12 s' = upper bound on medians (and all runs)", F_SC)
sp = [SM[(p, "numpy", 800)] / SM[(p, "numba", 800)] for p in probs]
record(448, "$3\\text{--}5\\times$", "x", ", ".join(f"{v:.2f}" for v in sp)
       + f" -> {round(min(sp))}-{round(max(sp))}",
       "MATCH" if (round(min(sp)), round(max(sp))) == (3, 5) else "MISMATCH",
       "pop_size=800: median(numpy)/median(numba) per problem; min-max rounded to integers", F_SC)
nv = {p: sorted({r["n_var"] for r in POP if r["problem"] == p}) for p in probs}
record(448, "$n_{\\text{var}}=10$", "variables", ",".join(nv["zdt4"]), "COUNT-MATCH",
       "n_var column for zdt4", F_SC)
record(448, "12, and 24", "variables", f"dtlz2 {','.join(nv['dtlz2'])}; wfg2 {','.join(nv['wfg2'])}",
       "COUNT-MATCH" if nv["dtlz2"] == ["12"] and nv["wfg2"] == ["24"] else "MISMATCH",
       "n_var column for dtlz2 and wfg2 (two numbers: 12 and 24)", F_SC)

# ------------------------------------------------------ convergence (455, 459)
F_CV = "evidence/experiments/convergence_paper.csv"
ev = sorted({int(r["n_evals"]) for r in CONV})
step = sorted({b - a for a, b in zip(ev, ev[1:])})
cseeds = {(r["framework"], r["problem"]): set() for r in CONV}
for r in CONV:
    cseeds[(r["framework"], r["problem"])].add(r["seed"])
for ln in (455, 459):
    w = "50{,}000 evaluations" if ln == 455 else "50{,}000-evaluation budget"
    record(ln, w, "evaluations", str(ev[-1]), "COUNT-MATCH", "max n_evals in convergence trace", F_CV)
    record(ln, "30 seeds", "count", str(sorted({len(s) for s in cseeds.values()})), "COUNT-MATCH",
           "distinct seeds per (framework, problem)", F_CV)
    for w in ("3 objectives, 12 variables", "2 objectives, 30 variables"):
        record(ln, w, "count", "-", "NOT-IN-DATA",
               "problem definition (DTLZ2 / ZDT1 standard sizes); the CSV has no n_obj/n_var column", F_CV)
record(459, "1{,}000-evaluation intervals", "evaluations", f"step {step}, first {ev[0]}", "COUNT-MATCH",
       "differences between successive n_evals checkpoints", F_CV)

# --------------------------------------------- Table tab:frameworks_perf (486-488)
FRAMEWORK = {"VAMOS": "VAMOS (numba)", "pymoo": "pymoo", "jMetalPy": "jMetalPy"}
table_rows(486, 488, FRAMEWORK, FAMS + ["Average"], fam_cell, col_min_bold, fam_how)

# -------------------------------------------------------------- prose at 493, 498
lo, hi = ratio_range(FAM, "jMetalPy", FAMS)
pr = [PROB[("jMetalPy", p)] / PROB[("VAMOS (numba)", p)] for (fw, p) in PROB if fw == "jMetalPy"]
lo_o, hi_o = ratio_range(fam_medians(BP_OLD), "jMetalPy", FAMS) if BP_OLD else (float("nan"),) * 2
record(493, "$3\\text{--}11\\times$", "x",
       f"family ratios {lo:.2f}-{hi:.2f}; per-problem ratios {min(pr):.2f}-{max(pr):.2f} (HEAD); "
       f"family ratios {lo_o:.2f}-{hi_o:.2f} (b32f2c6)", int_range_status((lo, hi), (lo_o, hi_o), (3, 11)),
       "jMetalPy/VAMOS(numba) runtime ratio (family pooled medians, as the sentence defines the bars)", F_BP)
record(493, "$n=24$", "variables", "24 (wfg n_var in scaling CSV)", "COUNT-MATCH",
       "WFG dimensionality; benchmark_paper.csv has no n_var, scaling_vectorization.csv has wfg2 n_var=24", F_SC)
lo, hi = ratio_range(FAM, "pymoo", ["ZDT", "DTLZ"])
lo_o, hi_o = ratio_range(fam_medians(BP_OLD), "pymoo", ["ZDT", "DTLZ"]) if BP_OLD else (float("nan"),) * 2
w_h = FAM[("pymoo", "WFG")] / FAM[("VAMOS (numba)", "WFG")]
w_o = (fam_medians(BP_OLD)[("pymoo", "WFG")] / fam_medians(BP_OLD)[("VAMOS (numba)", "WFG")]) if BP_OLD else float("nan")
ok_old = (fmt(lo_o, 1), fmt(hi_o, 1)) == ("1.1", "1.2")
record(493, "$1.1\\text{--}1.2\\times$", "x",
       f"ZDT/DTLZ {lo:.2f}-{hi:.2f}, WFG {w_h:.2f} (HEAD); ZDT/DTLZ {lo_o:.2f}-{hi_o:.2f}, WFG {w_o:.2f} (b32f2c6)",
       "HIST-MATCH" if ok_old else "MISMATCH",
       "pymoo/VAMOS(numba) family pooled-median ratio on ZDT and DTLZ, 1 decimal. The b32f2c6 CSV was the "
       "committed one when this sentence was written (dd553ed, 2026-02-06); there WFG does NOT widen", F_BP)
for ln, w in ((493, "$2^0=1$"), (498, "$2^0=1$"), (498, "$\\log_2$")):
    record(ln, w, "-", "-", "NON-MEASURE", "math notation (log2 axis, parity line)", "-")
nev = sorted({r["n_evals"] for r in BP})
nse = sorted({len(v) for v in by(BP, lambda r: (r["framework"], r["problem"])).values()})
record(498, "50{,}000 evaluations", "evaluations", ",".join(nev), "COUNT-MATCH", "n_evals column", F_BP)
record(498, "30 seeds", "count", str(nse), "COUNT-MATCH", "rows per (framework, problem)", F_BP)
for ln in (443, 454, 465, 497):
    record(ln, "0.9", "fraction of \\textwidth", "-", "NON-MEASURE", "figure width", "-")

for ln, w in ((466, "2-objective"), (466, "3-objective"), (470, "2D Pareto"), (470, "(3D Pareto"),
              (470, "The 3D DTLZ2")):
    record(ln, w, "-", "-", "NON-MEASURE", "problem-dimension descriptor in caption/prose, not a measurement", "-")

# ------------------------------------------------------------- memory (513)
F_M = "evidence/experiments/memory_benchmark.csv"
mm = by(MEM, lambda r: r["framework"], "peak_memory_mb")
mv, mp, mj = (median(mm[k]) for k in ("VAMOS (numba)", "pymoo", "jMetalPy"))
record(513, "50{,}000 evaluations", "evaluations", ",".join(sorted({r["n_evals"] for r in MEM})),
       "COUNT-MATCH", "n_evals column", F_M)
ms = sorted({len(v) for v in by(MEM, lambda r: (r["framework"], r["problem"])).values()})
probs_fw = {fw: sorted({r["problem"] for r in MEM if r["framework"] == fw}) for fw in mm}
record(513, "5 seeds per framework", "count", f"{ms} per (framework, problem); problems {probs_fw}",
       "COUNT-MATCH", "note: pymoo has no wfg4 rows (10 runs, not 15)", F_M)
how_m = "framework={}: median of peak_memory_mb pooled over all its runs ({} runs)"
value(513, "0.28\\,MB", "MB", mv, 2, how_m.format("VAMOS (numba)", len(mm["VAMOS (numba)"])), F_M)
value(513, "0.84\\,MB", "MB", mp, 2, how_m.format("pymoo", len(mm["pymoo"])), F_M)
value(513, "0.50\\,MB", "MB", mj, 2, how_m.format("jMetalPy", len(mm["jMetalPy"])), F_M)
value(513, "$3\\times$", "x", mp / mv, 0, "ratio of pooled medians pymoo/VAMOS, integer", F_M)
value(513, "$1.8\\times$", "x", mj / mv, 1, "ratio of pooled medians jMetalPy/VAMOS, 1 decimal", F_M)

# --------------------------------------------------------------- SPEA2 (564)
F_S = "evidence/experiments/benchmark_paper_spea2.csv"
record(564, "11 problems", "count", str(len({r["problem"] for r in SPEA2})), "COUNT-MATCH",
       "distinct problems", F_S)
sh = by(SPEA2, lambda r: r["framework"], "hypervolume")
sr = by(SPEA2, lambda r: r["framework"])
value(564, "0.966", "normalized HV", median(sh["VAMOS (numba)"]), 3,
      "framework=VAMOS (numba): median hypervolume pooled over 330 runs", F_S)
value(564, "0.967", "normalized HV", median(sh["jMetalPy"]), 3,
      "framework=jMetalPy: median hypervolume pooled over 330 runs", F_S)
value(564, "46.7\\,s", "s", median(sr["VAMOS (numba)"]), 1,
      "framework=VAMOS (numba): median runtime_seconds pooled over 330 runs "
      "(median of per-problem medians would give "
      f"{median([median(v) for k, v in by(SPEA2, lambda r: (r['framework'], r['problem'])).items() if k[0] == 'VAMOS (numba)']):.2f})",
      F_S)
value(564, "14.6\\,s", "s", median(sr["jMetalPy"]), 1,
      "framework=jMetalPy: median runtime_seconds pooled over 330 runs", F_S)
record(564, "50{,}000 selection", "evaluations", ",".join(sorted({r["n_evals"] for r in SPEA2})),
       "COUNT-MATCH", "n_evals column", F_S)

# --------------------------------------------------------------- MOEA/D (578)
F_D = "evidence/experiments/benchmark_paper_moead.csv (+ history/71dc9c4.../benchmark_paper_moead.csv)"
md_now = fam_medians(MOEAD)
md_old = fam_medians(MOEAD_OLD) if MOEAD_OLD else {}
for w, fw in (("8.34\\,s", "jMetalPy"), ("11.12\\,s", "VAMOS (numba)")):
    now = md_now.get((fw, "WFG"), float("nan"))
    old = md_old.get((fw, "WFG"), float("nan"))
    num = re.search(r"\d+\.\d+", w).group(0)
    st = "MATCH" if fmt(now, 2) == num else ("HIST-MATCH" if fmt(old, 2) == num else "MISMATCH")
    record(578, w, "s", f"HEAD: no WFG rows ({fmt(now, 2)}); 71dc9c4: {fmt(old, 2)}", st,
           f"algorithm=MOEA/D, framework={fw!r}, WFG family: median runtime_seconds pooled over 270 runs. "
           "HEAD CSV (and Table frameworks_perf_moead) has only ZDT/DTLZ", F_D)

# ---------------------------------- appendix Table tab:detailed_backends (666-686, 688)
PROBLEMS = sorted({r["problem"] for r in BP})
ROWMAP = {p: p for p in PROBLEMS}
ROWMAP["Average"] = "Average"


def prob_cell(fw_map):
    def f(row, ck):
        fw = fw_map[ck]
        if row == "Average":
            return mean_skipnan([PROB.get((fw, p), float("nan")) for p in PROBLEMS])
        return PROB.get((fw, row), float("nan"))
    return f


def row_min_bold(vals):
    out = {}
    for r, v in vals.items():
        good = [x for x in v.values() if not math.isnan(x)]
        m = min(good)
        for ck, x in v.items():
            out[(r, ck)] = (not math.isnan(x)) and abs(x - m) < 1e-9
    return out


def prob_how(fw_map):
    def h(row, ck):
        fw = fw_map[ck]
        if row == "Average":
            n = sum(1 for p in PROBLEMS if (fw, p) in PROB)
            return f"framework={fw!r}: arithmetic mean of its {n} per-problem medians"
        return f"framework={fw!r}, problem={row!r}: median runtime_seconds over 30 seeds"
    return h


BK = {"Numba": "VAMOS (numba)", "MooCore": "VAMOS (moocore)", "NumPy": "VAMOS (numpy)"}
table_rows(664, 688, ROWMAP, ["Numba", "MooCore", "NumPy"], prob_cell(BK), row_min_bold, prob_how(BK))
FWK = {"VAMOS": "VAMOS (numba)", "pymoo": "pymoo", "jMetalPy": "jMetalPy"}
table_rows(700, 724, ROWMAP, ["VAMOS", "pymoo", "jMetalPy"], prob_cell(FWK), row_min_bold, prob_how(FWK))

# ---------------------------------------------------------------------- output
def main():
    md = "--markdown" in sys.argv
    if md:
        print("| tex line | written | unit | recomputed | status | records / field / statistic | evidence |")
        print("|---|---|---|---|---|---|---|")
        for r in RESULTS:
            w = r["written"].replace("|", "\\|")
            print(f"| {r['line']} | `{w}` | {r['unit']} | {r['recomputed']} | {r['status']} | "
                  f"{r['how']} | {r['evidence']} |")
        return
    print("Recompute of VAMOS manuscript numbers (article/main.tex = paper/manuscript/main.tex @ 7f2552d) from committed CSVs")
    print("=" * 100)
    for r in RESULTS:
        print(f"L{r['line']:<4} {r['written']:<28} {r['unit']:<12} -> {r['recomputed']:<40} {r['status']}")
    print("=" * 100)
    tally = defaultdict(int)
    for r in RESULTS:
        tally[r["status"]] += 1
    print(f"{len(RESULTS)} number tokens checked:")
    for k in sorted(tally):
        print(f"  {k:<28} {tally[k]}")


if __name__ == "__main__":
    main()
