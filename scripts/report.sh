#!/usr/bin/env bash
# Regenerates reports/REPORT.md and reports/figures/*.png: builds the tool and
# the measurement programs, runs `nhs verify`, bench/drift and
# bench/work_precision, then scripts/report.py.
#
#   bash scripts/report.sh --quick   # a few minutes on 2 cores: verify --quick in
#                                    # double (into reports/quick/), drift to t = 100,
#                                    # work-precision in double at 4 tolerances
#   bash scripts/report.sh           # full: nhs verify (both precisions, into
#                                    # reports/latest/), drift to t = 1e4,
#                                    # work-precision double 1e-6..1e-13 and mp50
#                                    # 1e-15..1e-45 (hours on 2 cores; reports/README.md)
#   --skip-verify                    # use the verify output already in reports/latest/
#
# A benchmark that fails keeps what it wrote, and the report is still made
# from whatever exists (missing inputs are listed in REPORT.md); the script
# then exits non-zero.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

quick=0
verify=1
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    --skip-verify) verify=0 ;;
    *) echo "usage: bash scripts/report.sh [--quick] [--skip-verify]" >&2; exit 2 ;;
  esac
done

bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DNHS_BUILD_BENCH=ON >/dev/null
cmake --build build -j"${NHS_JOBS:-$(nproc)}" --target nhs_cli drift work_precision

jobs="${NHS_JOBS:-$(nproc)}"
status=0
if [ "$quick" = 1 ]; then
  verify_dir=reports/quick
  verify_cmd=(./build/nhs verify --precision double --quick --out-dir "$verify_dir")
  drift_cmd=(./build/bench/drift --quick --jobs "$jobs")
  wp_cmd=(./build/bench/work_precision --quick --jobs "$jobs")
  what="bash scripts/report.sh --quick"
else
  verify_dir=reports/latest
  verify_cmd=(./build/nhs verify)
  drift_cmd=(./build/bench/drift --jobs "$jobs")
  wp_cmd=(./build/bench/work_precision --jobs "$jobs")
  what="bash scripts/report.sh"
fi
if [ "$verify" = 0 ]; then
  verify_dir=reports/latest
  what="$what --skip-verify"
else
  echo "report: ${verify_cmd[*]}" >&2
  "${verify_cmd[@]}" || status=$?
fi
if [ "$quick" = 1 ]; then
  findings_cmd=(./build/nhs findings --quick --out-dir "$verify_dir")
else
  findings_cmd=(./build/nhs findings --out-dir "$verify_dir")
fi
for cmd in findings_cmd drift_cmd wp_cmd; do
  declare -n c="$cmd"
  echo "report: ${c[*]}" >&2
  "${c[@]}" || status=$?
done
/usr/bin/python3 scripts/report.py --verify-dir "$verify_dir" --command "$what" || status=$?
exit "$status"
