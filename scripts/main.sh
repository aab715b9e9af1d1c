#!/usr/bin/env bash
# Builds the nhs tool and runs the main job, `nhs verify`: every study x
# formulation x precision; writes runs/latest/summary.md and the
# trajectories, prints the table; then makes runs/REPORT.md and
# runs/figures/ with the quick benchmarks (scripts/report.sh --quick
# --skip-verify: drift to t = 100, work-precision in double) over that
# verify output. runs/ is ignored by git: the committed reference in
# reports/ is rewritten only by `bash scripts/report.sh --reference`.
# Exits non-zero if a check or the report fails.
# Extra arguments go to `nhs verify` (e.g. --precision double --quick: the
# whole job then takes a few minutes on 2 cores).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DNHS_BUILD_BENCH=ON
cmake --build build -j"${NHS_JOBS:-$(nproc)}" --target nhs_cli
status=0
./build/nhs verify --out-dir runs/latest "$@" || status=$?
bash scripts/report.sh --quick --skip-verify || { [ "$status" -ne 0 ] || status=$?; }
exit "$status"
