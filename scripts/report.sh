#!/usr/bin/env bash
# Makes a report (REPORT.md and figures/*.png): builds the tool, the
# measurement programs and the Python module, runs `nhs verify`, `nhs
# findings`, bench/drift.py and bench/work_precision.py (sweeps) and bench/geometric.py (the
# geometric integrators: to t = 1e3 quick, 1e5 reference), animates the
# bodies examples into runs/animations/ (nhs animate, with a still frame
# each; docs/animation.md), then scripts/report.py.
#
#   bash scripts/report.sh --quick   # a few minutes on 2 cores, into runs/ (ignored by
#                                    # git): verify --quick in double (runs/quick/),
#                                    # drift to t = 100, work-precision in double at 4
#                                    # tolerances; the benchmarks not rerun here are
#                                    # taken from the reference in reports/bench/
#   bash scripts/report.sh --reference
#                                    # the committed reference, into reports/: nhs verify
#                                    # (reports/latest/), drift to t = 1e4, work-precision
#                                    # double 1e-6..1e-13 and mp50 1e-15..1e-45 (hours on
#                                    # 2 cores; reports/README.md)
#   --skip-verify                    # use the verify output already there
#                                    # (runs/latest/ or reports/latest/)
#
# NHS_BUILD_DIR=DIR: use the tool and the Python module already built in
# DIR (an absolute path) and build nothing (tests/report_fresh_clone_test.sh
# runs a fresh clone's report this way).
#
# Only --reference writes into reports/: the main job and quick reports
# never overwrite the committed results. A benchmark that fails keeps what
# it wrote, and the report is still made from whatever exists (missing
# inputs are listed in REPORT.md); the script then exits non-zero.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

quick=-1
verify=1
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    --reference) quick=0 ;;
    --skip-verify) verify=0 ;;
    *) quick=-2 ;;
  esac
done
if [ "$quick" -lt 0 ]; then
  echo "usage: bash scripts/report.sh --quick|--reference [--skip-verify]" >&2
  exit 2
fi

build=${NHS_BUILD_DIR:-build}
if [ -z "${NHS_BUILD_DIR:-}" ]; then
  bash scripts/setup.sh
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DNHS_BUILD_BENCH=ON >/dev/null
  cmake --build build -j"${NHS_JOBS:-$(nproc)}" --target nhs_cli nhs_python
fi
nhs=$build/nhs

jobs="${NHS_JOBS:-$(nproc)}"
status=0
if [ "$quick" = 1 ]; then
  out=runs
  mkdir -p "$out/bench"
  # The benchmarks a quick report does not rerun: the reference's.
  # Files only: reports/bench/sweeps/ holds the reference's sweep specs,
  # which the quick benchmarks write anew into $out/bench/sweeps.
  for f in reports/bench/*; do
    [ -f "$f" ] || continue
    [ -e "$out/bench/$(basename "$f")" ] || cp "$f" "$out/bench/"
  done
  verify_dir=$out/quick
  verify_cmd=("$nhs" verify --precision double --quick --out-dir "$verify_dir")
  drift_cmd=(/usr/bin/python3 bench/drift.py --nhs "$nhs" --quick --jobs "$jobs" --out "$out/bench/drift.json"
             --specs-dir "$out/bench/sweeps" --runs-dir runs/drift-quick --restart)
  wp_cmd=(/usr/bin/python3 bench/work_precision.py --nhs "$nhs" --quick --jobs "$jobs" --out "$out/bench/work_precision.json"
          --specs-dir "$out/bench/sweeps" --runs-dir runs/work-precision-quick --restart)
  findings_cmd=("$nhs" findings --quick --out-dir "$verify_dir")
  geo_cmd=(env PYTHONPATH="$build/python" /usr/bin/python3 bench/geometric.py --quick --jobs "$jobs" --out "$out")
  what="bash scripts/report.sh --quick"
else
  out=reports
  verify_dir=$out/latest
  verify_cmd=("$nhs" verify --out-dir "$verify_dir")
  drift_cmd=(/usr/bin/python3 bench/drift.py --nhs "$nhs" --jobs "$jobs" --out "$out/bench/drift.json"
             --specs-dir "$out/bench/sweeps" --runs-dir runs/drift)
  wp_cmd=(/usr/bin/python3 bench/work_precision.py --nhs "$nhs" --jobs "$jobs" --out "$out/bench/work_precision.json"
          --specs-dir "$out/bench/sweeps" --runs-dir runs/work-precision)
  findings_cmd=("$nhs" findings --out-dir "$verify_dir")
  geo_cmd=(env PYTHONPATH="$build/python" /usr/bin/python3 bench/geometric.py --jobs "$jobs" --out "$out")
  what="bash scripts/report.sh --reference"
fi
if [ "$verify" = 0 ]; then
  verify_dir=$out/latest
  findings_cmd[-1]=$verify_dir
  what="$what --skip-verify"
else
  echo "report: ${verify_cmd[*]}" >&2
  "${verify_cmd[@]}" || status=$?
fi
for cmd in findings_cmd drift_cmd wp_cmd geo_cmd; do
  declare -n c="$cmd"
  echo "report: ${c[*]}" >&2
  "${c[@]}" || status=$?
done
# Meijaard et al. (2007) Figure 3: the bicycle's eigenvalues against speed (seconds).
bicycle=(stability examples/bicycle/whipple-bicycle.toml --steady upright --from 0 --to 10 --points 201
         --csv "$out/bench/bicycle_stability.csv")
echo "report: $nhs ${bicycle[*]} > $out/bench/bicycle_stability.json" >&2
"$nhs" "${bicycle[@]}" > "$out/bench/bicycle_stability.json" || status=$?
# One animation per bodies example (nhs animate, docs/animation.md) under
# runs/animations/ (not committed), each with a still frame by headless
# Chromium: the list, t_end, fps and the still's time are
# scripts/report_sections/animations.py's, which links them from REPORT.md.
mkdir -p runs/animations
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || echo "report: no chromium (scripts/setup.sh): no still frames (REPORT.md lists them missing)" >&2
while read -r name system t_end fps still; do
  echo "report: $nhs animate $system --t-end $t_end --fps $fps --out runs/animations/$name" >&2
  "$nhs" animate "$system" --t-end "$t_end" --fps "$fps" --out "runs/animations/$name" >/dev/null ||
    { status=$?; continue; }
  [ -n "$browser" ] || continue
  rm -f "runs/animations/$name.png"
  "$browser" --headless --no-sandbox --disable-dev-shm-usage --user-data-dir="$PWD/runs/animations/.chromium" \
    --use-gl=swiftshader --enable-unsafe-swiftshader --ignore-gpu-blocklist \
    --host-resolver-rules="MAP * ~NOTFOUND" --virtual-time-budget=10000 --window-size=900,600 \
    --screenshot="$PWD/runs/animations/$name.png" "file://$PWD/runs/animations/$name/index.html?t=$still" \
    >/dev/null 2>&1 && [ -s "runs/animations/$name.png" ] || status=1
done < <(/usr/bin/python3 scripts/report_sections/animations.py --list)
rm -rf runs/animations/.chromium
/usr/bin/python3 scripts/report.py --reports "$out" --verify-dir "$verify_dir" --command "$what" ||
  status=$?
echo "report: $out/REPORT.md" >&2
exit "$status"
