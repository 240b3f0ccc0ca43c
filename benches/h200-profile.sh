#!/usr/bin/env bash
# Issue 16, version 11: hardware counters for the two shapes that miss their copy targets.
# Nsight Compute (`ncu`, with `--clock-control none` so that the card's clocks are left alone)
# profiles one `bench softmax` process of 2 rounds and 1 fixture, limited to the dispatched
# kernels at 1024x32768 and 8x262144 and the copy kernel at every shape. Each kernel is
# profiled once per launch configuration, after skipping its first launch (the validation's),
# with the caches flushed before it (`--cache-control all`, so its input comes from DRAM as in
# the bench's rotated buffers). The PM-sampling section records DRAM and SM activity over the
# kernel's duration, which places the time the memory idles (between a row's reads and its
# writes, or at the end of the kernel) without in-kernel clocks.
# The bench's own run goes to a scratch root: it is a profiled process, not evidence.
# Brings back the report, its details and its raw metrics (with every sampled instance) as
# text, and the log.
# Usage (device machine, repository root): bash benches/h200-profile.sh
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$(python3 -c "import nvidia.cudnn as m; print(list(m.__path__)[0]+'/lib')"):${LD_LIBRARY_PATH:-}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/prof-root
CARRY=${CARRY:-.whl}
bin=$CARRY/claimcheck
[ -x "$bin" ] || { xz -dc "$CARRY/claimcheck.xz" > "$bin" && chmod +x "$bin"; }
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU ($($NCU --version | tail -1))" | tee "$OUT/profile.log"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee -a "$OUT/profile.log"
kernels='regex:^(copy_f4|fused_mix_plain_8_8_512_1|fused_mix_rms_2_6_1024_1|fused_slot_plain_4_512|fused_slot_rms_4_512)$'
timeout 420 $NCU --clock-control none --cache-control all --graph-profiling node \
  -k "$kernels" --filter-mode per-launch-config --launch-skip 1 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
  --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section PmSampling \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,gpu__time_duration.sum \
  -f -o "$OUT/prof" "$bin" bench softmax --root /tmp/prof-root --rounds 2 --warmup 1 --fixtures 1 2>&1 | tail -60 | tee -a "$OUT/profile.log"
echo "ncu exit ${PIPESTATUS[0]} after ${SECONDS}s" | tee -a "$OUT/profile.log"
if [ -f "$OUT/prof.ncu-rep" ]; then
  $NCU -i "$OUT/prof.ncu-rep" --page details --print-details all > "$OUT/details.txt" 2>&1
  $NCU -i "$OUT/prof.ncu-rep" --page raw --csv --print-metric-instances values > "$OUT/raw.csv" 2>&1
  gzip -f "$OUT/raw.csv" "$OUT/details.txt"
fi
echo "job took ${SECONDS}s"
ls -la "$OUT"
