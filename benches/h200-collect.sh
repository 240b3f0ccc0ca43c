# Sourced by the H200 job scripts (h200-job.sh, h200-explore.sh); needs `bin` (the claimcheck
# binary), `before` (the sorted listing of evidence/runs before the job) and `OUT`.

# The runs the job has written so far, one name a line.
new_runs() {
  comm -13 <(echo "$before") <(ls evidence/runs | sort) | grep -v '^\.' || true
}

# Packs the new runs into $OUT/runs.tgz (again after each bench or recheck, so that a job cut
# short still brings back what it wrote).
pack_new_runs() {
  local new
  new=$(new_runs)
  [ -n "$new" ] && tar czf "$OUT/runs.tgz" $(for r in $new; do echo "evidence/runs/$r"; done)
}

# After the job: every new run's manifest verified, each benchmark run reported alone, then all
# of them pooled as replicates (the targets are judged over runs), then the runs packed.
collect_new_runs() {
  local new benches r
  new=$(new_runs)
  for r in $new; do
    case "$r" in *softmax-bench) $bin bench-report "evidence/runs/$r" 2>&1 | tee -a "$OUT/bench-report.txt";; esac
    (cd "evidence/runs/$r" && sha256sum -c --quiet MANIFEST.sha256 && echo "$r: manifest verifies")
  done
  benches=$(for r in $new; do case "$r" in *softmax-bench) echo "evidence/runs/$r";; esac; done)
  [ "$(echo "$benches" | grep -c .)" -gt 1 ] && $bin bench-report $benches 2>&1 | tee -a "$OUT/bench-report.txt"
  pack_new_runs
}
