#!/usr/bin/env bash
# The H200 jobs, each in one call: environment, then either
#   measure N  — `run --suite all --repeat N` (one process per run), then N times the peers
#                (benches/torch_softmax.py) and `bench softmax --peer`, each a fresh process;
#   bench N    — N times the peers and `bench softmax --peer`, each a fresh process (replicates
#                of the benchmark alone, without the suites);
#   recheck N  — N times the peers and `recheck --gpu --peer`, each a fresh run;
#   bench-recheck N — `bench N`, then one `recheck` while the budget lasts (the two jobs of a
#                session in one call, which saves a machine's start);
# then every new run's manifest verified and all of them packed into $OUT/runs.tgz.
# A job stops starting new work once BUDGET_S seconds have passed (default 420), so that it
# ends inside the device's 10-minute limit with what it has.
# Usage (on the device machine, from the repository root):
#   bash benches/h200-job.sh measure 3
#   bash benches/h200-job.sh bench 6
#   bash benches/h200-job.sh recheck 2
#   BUDGET_S=480 bash benches/h200-job.sh bench-recheck 6
# Liger Kernel's wheel, if carried in .whl/, is installed for the peers first.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$(python3 -c "import nvidia.cudnn as m; print(list(m.__path__)[0]+'/lib')"):${LD_LIBRARY_PATH:-}
export PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/out}
BUDGET_S=${BUDGET_S:-420}
mkdir -p "$OUT"
bin=./target/release/claimcheck
source benches/h200-collect.sh
what=${1:-measure}
n=${2:-3}
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$OUT/nvidia-smi.txt"
before=$(ls evidence/runs 2>/dev/null | sort)
left() { [ "$SECONDS" -lt "$BUDGET_S" ]; }
# N benches, each with fresh peers, each a fresh process.
benches() {
  for i in $(seq 1 "$n"); do
    left || { echo "budget spent: stopping before bench $i" | tee -a "$OUT/bench.log"; break; }
    python3 benches/torch_softmax.py "/tmp/peer-$i.jsonl" 2>&1 | tee -a "$OUT/torch.log"
    $bin bench softmax --peer "/tmp/peer-$i.jsonl" 2>&1 | tee -a "$OUT/bench.log"
    pack_new_runs
  done
}
# N rechecks of the article, each with fresh peers, each a fresh run.
rechecks() {
  for i in $(seq 1 "$1"); do
    left || { echo "budget spent: stopping before recheck $i" | tee -a "$OUT/recheck.log"; break; }
    python3 benches/torch_softmax.py "/tmp/peer-r$i.jsonl" 2>&1 | tee -a "$OUT/torch.log"
    $bin recheck --gpu --peer "/tmp/peer-r$i.jsonl" 2>&1 | tee -a "$OUT/recheck.log"
    echo "recheck $i: exit ${PIPESTATUS[0]}" | tee -a "$OUT/recheck.log"
    pack_new_runs
  done
}
case "$what" in
  measure)
    $bin run --suite all --repeat "$n" 2>&1 | tee -a "$OUT/run.log"
    benches
    ;;
  bench)
    benches
    ;;
  recheck)
    rechecks "$n"
    ;;
  bench-recheck)
    benches
    rechecks 1
    ;;
  *) echo "unknown job $what"; exit 2 ;;
esac
collect_new_runs
echo "job $what took ${SECONDS}s"
ls -la "$OUT"
