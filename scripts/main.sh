#!/usr/bin/env bash
# Builds the nhs tool and runs the main job, `nhs verify`: every study x
# formulation x precision; writes reports/latest/summary.md and the
# trajectories, prints the table, exits non-zero if a check fails.
# Extra arguments go to `nhs verify` (e.g. --precision double, --quick).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"${NHS_JOBS:-$(nproc)}" --target nhs_cli
./build/nhs verify "$@"
