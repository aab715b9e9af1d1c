#!/bin/bash
# `bash scripts/report.sh --quick` in a fresh copy of the checkout, where
# runs/ does not exist (a new user's clone): it must exit 0 and write
# runs/REPORT.md, its figures and the quick benchmarks' results. The copy
# holds the files git tracks, as they are in the working tree; the tool and
# the Python module come from the build under test (NHS_BUILD_DIR), so
# nothing is compiled. A few minutes on 2 cores (label slow; CI runs the
# same through `scripts/main.sh --precision double --quick` on its clone).
#
# Usage: report_fresh_clone_test.sh SOURCE_DIR BUILD_DIR
set -u
src=$1
build=$(cd "$2" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/nhs_report_clone_XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
[ -x "$build/nhs" ] || fail "no tool at $build/nhs"
# Without the Python module (no pybind11 found), no report can be made: skipped.
[ -d "$build/python/nhs" ] || { echo "no Python module under $build/python: skipped"; exit 77; }

clone=$dir/clone
mkdir "$clone"
(cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$clone") || fail "cannot copy the checkout"
[ -e "$clone/runs" ] && fail "the copy has a runs/ directory"

(cd "$clone" && NHS_BUILD_DIR=$build NHS_JOBS=2 bash scripts/report.sh --quick) >"$dir/log" 2>&1
code=$?
[ "$code" -eq 0 ] || { tail -n 60 "$dir/log"; fail "scripts/report.sh --quick exited with $code"; }
[ -s "$clone/runs/REPORT.md" ] || fail "no runs/REPORT.md"
for f in drift.json work_precision.json; do
  [ -s "$clone/runs/bench/$f" ] || fail "no runs/bench/$f"
done
ls "$clone"/runs/figures/*.png >/dev/null 2>&1 || fail "no figures in runs/figures/"
# Every figure REPORT.md links exists.
for png in $(grep -o 'figures/[A-Za-z0-9_.-]*\.png' "$clone/runs/REPORT.md" | sort -u); do
  [ -s "$clone/runs/$png" ] || fail "REPORT.md links $png, which is missing"
done
echo "report.sh --quick in a fresh copy: exit 0, runs/REPORT.md and $(ls "$clone"/runs/figures/*.png | wc -l) figures"
