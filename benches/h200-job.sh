#!/usr/bin/env bash
# The whole H200 job in one call: environment, the GPU suites, the torch peer, the softmax
# benchmark, the report, and an archive of the new runs for the caller to bring back.
# Usage (on the device machine, from the repository root):
#   bash benches/h200-job.sh [extra arguments for run and bench, e.g. --rounds 3]
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$(python3 -c "import nvidia.cudnn as m; print(list(m.__path__)[0]+'/lib')"):${LD_LIBRARY_PATH:-}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
bin=./target/release/claimcheck
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$OUT/nvidia-smi.txt"
before=$(ls evidence/runs 2>/dev/null | sort)
$bin run --suite all "$@" 2>&1 | tee "$OUT/run.log"
python3 benches/torch_softmax.py /tmp/torch-peer.jsonl 2>&1 | tee "$OUT/torch.log"
$bin bench softmax --peer /tmp/torch-peer.jsonl "$@" 2>&1 | tee "$OUT/bench.log"
after=$(ls evidence/runs | sort)
new=$(comm -13 <(echo "$before") <(echo "$after") | grep -v '^\.' || true)
for r in $new; do
  case "$r" in *softmax-bench) $bin bench-report "evidence/runs/$r" 2>&1 | tee "$OUT/bench-report.txt";; esac
  (cd "evidence/runs/$r" && sha256sum -c --quiet MANIFEST.sha256 && echo "$r: manifest verifies")
done
tar czf "$OUT/runs.tgz" $(for r in $new; do echo "evidence/runs/$r"; done)
ls -la "$OUT"
# Optional: memory and race checks of the kernels on small, short runs (SANITIZE=1).
if [ "${SANITIZE:-0}" = 1 ]; then
  for tool in memcheck racecheck; do
    for suite in scheduling pointwise; do
      rm -rf /tmp/sanitize && mkdir -p /tmp/sanitize
      echo "=== $tool $suite" >> "$OUT/sanitize.log"
      timeout 150 compute-sanitizer --tool $tool --print-limit 20 $bin run --suite $suite --rounds 2 --warmup 0 --fixtures 1 --root /tmp/sanitize >> "$OUT/sanitize.log" 2>&1
      echo "sanitize $tool $suite: exit $?"
    done
  done
fi
