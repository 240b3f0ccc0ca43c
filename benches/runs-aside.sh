#!/usr/bin/env bash
# Moves the committed runs out of the checkout for a device call, and back after it. A call
# sends the tracked tree, and evidence/runs (822 MB on 2026-12-08) is far over the 64 MiB a call
# may send; the benches need none of the old runs, and write their new run into an empty
# evidence/runs there. The runs go to a folder beside the checkout, never into /tmp, and
# `back` refuses to overwrite anything, so a run written meanwhile is never lost.
# Usage, from the repository root: bash benches/runs-aside.sh out | back
set -euo pipefail
aside=${RUNS_ASIDE:-../runs-aside}
case "${1:-}" in
  out)
    [ -e "$aside/runs" ] && { echo "$aside/runs exists already: bring it back first" >&2; exit 2; }
    mkdir -p "$aside"
    mv evidence/runs "$aside/runs"
    mkdir evidence/runs
    echo "evidence/runs moved to $aside/runs; run 'bash benches/runs-aside.sh back' after the call"
    ;;
  back)
    [ -d "$aside/runs" ] || { echo "nothing aside in $aside/runs" >&2; exit 2; }
    # Only an empty folder (or one holding nothing but the new runs unpacked after the call)
    # stands in the way; a run there is moved beside the old ones, never over one.
    for run in evidence/runs/*; do
      [ -e "$run" ] || continue
      name=$(basename "$run")
      [ -e "$aside/runs/$name" ] && { echo "$name is both aside and in evidence/runs: left as it is" >&2; exit 2; }
    done
    for run in evidence/runs/*; do
      [ -e "$run" ] && mv "$run" "$aside/runs/"
    done
    rmdir evidence/runs
    mv "$aside/runs" evidence/runs
    echo "evidence/runs is back"
    ;;
  *) echo "usage: bash benches/runs-aside.sh out | back" >&2; exit 2 ;;
esac
