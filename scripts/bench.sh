#!/usr/bin/env bash
# Every benchmark of issue 6, one command. Builds the Release tree with the
# benchmarks and writes reports/bench/:
#   rhs.json                      bench_rhs: one acceleration, study x formulation x precision
#   closed_form.json, closed_form_ratios.{md,json}
#                                 bench_closed_form: generic and generated vs hand-written closed form
#   allocations.json              test_allocations: heap allocations per call (double)
#   breakdown.json, fixed_ad.json where the time of one RHS goes; fixed-size AD prototype
#   sympy.json                    bench/sympy_compare.py: sympy.physics.mechanics (Kane)
#   scaling.json, scaling_fit.{json,md}
#                                 bench_scaling on the n-trailer (N = 1..100), fitted exponents
#   drift.json                    bench/drift.py (nhs sweep): max |C| and energy error, with and without --project
#   work_precision.json           bench/work_precision.py (nhs sweep): error at t = 20 against cost
#
#   bash scripts/bench.sh           # full: drift to t = 1e4, work-precision double and mp50 (hours)
#   bash scripts/bench.sh --quick   # drift to t = 100, work-precision in double (~30 min on 2 cores)
#
# Then `/usr/bin/python3 scripts/report.py` makes reports/REPORT.md from them.
# A benchmark that fails keeps what it wrote; the script goes on and exits
# non-zero at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    *) echo "usage: bash scripts/bench.sh [--quick]" >&2; exit 2 ;;
  esac
done
bash scripts/setup.sh
build=${NHS_BENCH_BUILD:-build}
jobs=${NHS_JOBS:-$(nproc)}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNHS_BUILD_BENCH=ON -DNHS_BUILD_TESTS=ON
cmake --build "$build" -j"$jobs" --target bench_rhs bench_closed_form bench_rhs_breakdown bench_fixed_ad \
  bench_scaling test_allocations nhs_cli
mkdir -p reports/bench
out=reports/bench
status=0
run() { echo "bench: $*" >&2; "$@" || status=$?; }
gb=(--benchmark_out_format=json)
run "$build"/bench/bench_closed_form --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out=$out/closed_form.json "${gb[@]}"
run /usr/bin/python3 bench/closed_form_ratios.py $out/closed_form.json
run env NHS_ALLOC_JSON=$out/allocations.json "$build"/tests/test_allocations
run "$build"/bench/bench_rhs_breakdown --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out=$out/breakdown.json "${gb[@]}"
run "$build"/bench/bench_fixed_ad --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out=$out/fixed_ad.json "${gb[@]}"
run /usr/bin/python3 bench/sympy_compare.py --nhs "$build"/nhs --bench $out/closed_form.json \
  --out $out/sympy.json
run "$build"/bench/bench_rhs --benchmark_min_time=0.1 --benchmark_out=$out/rhs.json "${gb[@]}"
run "$build"/bench/bench_scaling --benchmark_out=$out/scaling.json "${gb[@]}"
run /usr/bin/python3 bench/fit_scaling.py $out/scaling.json
if [ "$quick" = 1 ]; then
  run /usr/bin/python3 bench/drift.py --quick --jobs "$jobs" --nhs "$build"/nhs --restart --runs-dir runs/drift-quick
  run /usr/bin/python3 bench/work_precision.py --quick --jobs "$jobs" --nhs "$build"/nhs --restart \
    --runs-dir runs/work-precision-quick
else
  run /usr/bin/python3 bench/drift.py --jobs "$jobs" --nhs "$build"/nhs
  run /usr/bin/python3 bench/work_precision.py --jobs "$jobs" --nhs "$build"/nhs
fi
exit "$status"
