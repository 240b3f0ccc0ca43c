#!/usr/bin/env bash
# The scale benchmark: claimcheck `stats` against DuckDB and Polars on 10^5, 10^6 and 10^7
# samples (see benches/README.md). Everything it makes stays under target/: the release
# binary, the samples files (target/scale-data/, from the benches' own generator and seed),
# and a virtual environment with DuckDB, Polars and numpy from PyPI (target/scale-venv/).
# Usage: bash benches/scale/run.sh [SIZES] — SIZES defaults to "1e5 1e6 1e7".
# FORMAT=csv runs it on the same samples written as CSV (DuckDB's read_csv, Polars' scan_csv).
# RUNS (default 10) and RUNS_LARGE (default 5, for the 10^7 file) set the runs per tool.
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes=${1:-"1e5 1e6 1e7"}
cargo build --release --quiet --bin claimcheck --example generate-samples
# CLAIMCHECK names another build to measure (a copy, so that a rebuild during the run cannot
# swap the binary between runs).
bin=${CLAIMCHECK:-./target/release/claimcheck}
mkdir -p target/scale-data
files=()
for n in $sizes; do
    f=target/scale-data/samples-$n.${FORMAT:-jsonl}
    [ -f "$f" ] || ./target/release/examples/generate-samples "$n" "$f"
    files+=("$f")
done
venv=target/scale-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import duckdb, polars" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet duckdb polars numpy
fi
"$venv/bin/python" -c "import duckdb, polars, sys; print(f'python {sys.version.split()[0]}, DuckDB {duckdb.__version__}, Polars {polars.__version__}')"
"$venv/bin/python" benches/scale/compare.py --claimcheck "$bin" --python "$venv/bin/python" \
    --peers benches/scale/peers.py --runs "${RUNS:-10}" --runs-large "${RUNS_LARGE:-5}" "${files[@]}"
