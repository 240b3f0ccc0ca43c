"""Issue 16: from a `bench softmax` run with candidates (CLAIMCHECK_SOFTMAX_CANDIDATES), the
fused form to dispatch per shape, printed as a CLAIMCHECK_SOFTMAX_DISPATCH list.

Per shape, among the dispatched form (`fused`, `fused-rms`) and every candidate `x-F`,
`x-F-rms` whose validation records all pass, the form with the smallest sum of the plain and
RMS-scaled graph-replay medians. Shapes without candidates are left to the rule.
Usage: python3 benches/pick_dispatch.py evidence/runs/<run>  (prints e.g. 1024x32768=pipe;...)
"""
import json
import statistics
import sys
from collections import defaultdict

run = sys.argv[1]
times = defaultdict(list)
for line in open(f"{run}/samples.jsonl"):
    r = json.loads(line)
    r = r.get("sample", r)
    if r.get("suite") == "softmax-bench" and r.get("mode") == "graph":
        times[(r["case"], r["variant"])].append(r["device_us"])
failed = set()
for line in open(f"{run}/validation.jsonl"):
    r = json.loads(line)
    r = r.get("validation", r)
    if not r.get("pass", False):
        failed.add((r["case"], r["variant"]))
med = {k: statistics.median(v) for k, v in times.items()}
picks = []
for case in sorted({c for c, _ in med}):
    forms = {"": (med.get((case, "fused")), med.get((case, "fused-rms")))}
    for (c, v), m in med.items():
        if c == case and v.startswith("x-") and not v.endswith("-rms"):
            forms[v[2:]] = (m, med.get((case, v + "-rms")))
    if len(forms) == 1:
        continue
    ok = {}
    for f, (p, q) in forms.items():
        names = ("fused", "fused-rms") if f == "" else (f"x-{f}", f"x-{f}-rms")
        if p is None or q is None or any((case, n) in failed for n in names):
            continue
        ok[f] = p + q
    for f, t in sorted(ok.items(), key=lambda kv: kv[1]):
        print(f"{case} {f or '(rule)'}: plain {forms[f][0]:.2f} + rms {forms[f][1]:.2f} = {t:.2f} us", file=sys.stderr)
    best = min(ok, key=ok.get) if ok else ""
    if best:
        picks.append(f"{case}={best}")
print(";".join(picks))
