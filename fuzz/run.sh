#!/usr/bin/env bash
# Runs each fuzz target for a fixed time, one after another, one job each, and prints a table:
# executions, coverage (cov, ft) and crashes per target.
#
#   fuzz/run.sh [SECONDS] [TARGET...]      default: 600 seconds, every target
#
# Needs a nightly toolchain and cargo-fuzz (`rustup toolchain install nightly`,
# `cargo install cargo-fuzz`). Seeds are read from fuzz/seeds/<target>/ (the shipped files);
# what the fuzzer finds goes to fuzz/corpus/<target>/, crashes to fuzz/artifacts/<target>/,
# inputs are cut at 12 KiB (the large shipped seeds are read as their first 12 KiB),
# and the log of each run to fuzz/logs/<target>.log. A crash becomes a plain #[test] in the
# main crate feeding the input (see tests/fuzz_regressions.rs).
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-600}
shift || true
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(cargo +nightly fuzz list); fi
mkdir -p logs
# Built once, then each binary is run directly: `cargo fuzz run` would rebuild mid-run if the
# sources changed meanwhile.
cargo +nightly fuzz build >/dev/null
bin=target/x86_64-unknown-linux-gnu/release
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_odr_violation=0}
summary=()
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    before=$(ls "artifacts/$t" | wc -l)
    start=$(date +%s)
    # -jobs=1 runs the fuzzer in one worker whose output libFuzzer writes to fuzz-0.log.
    rm -f fuzz-0.log
    "$bin/$t" "corpus/$t" "seeds/$t" -artifact_prefix="artifacts/$t/" \
        -max_total_time="$secs" -jobs=1 -workers=1 -timeout=10 -rss_limit_mb=2048 -max_len=12288 \
        -print_final_stats=1 >/dev/null 2>&1 || true
    end=$(date +%s)
    mv -f fuzz-0.log "logs/$t.log" 2>/dev/null || true
    execs=$(grep -a 'stat::number_of_executed_units' "logs/$t.log" | tail -1 | awk '{print $2}')
    last=$(grep -aE '^#[0-9]+' "logs/$t.log" | tail -1)
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
    crashes=$(( $(ls "artifacts/$t" | wc -l) - before ))
    summary+=("$(printf '%-10s %12s %7s %7s %7s %7s' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$crashes" "$((end - start))")")
done
printf '%-10s %12s %7s %7s %7s %7s\n' target executions cov ft crashes seconds
printf '%s\n' "${summary[@]}"
