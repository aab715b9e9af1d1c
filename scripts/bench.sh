#!/usr/bin/env bash
# Against the limit and against sympy (issue 6): builds the Release tree with
# the benchmarks, runs bench_closed_form (5 repetitions, medians), the
# ratio table, the allocation counts and the sympy comparison. Results in
# reports/bench/: closed_form.json, closed_form_ratios.{md,json},
# allocations.json, sympy.json. Takes a few minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build=${NHS_BENCH_BUILD:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DNHS_BUILD_BENCH=ON -DNHS_BUILD_TESTS=ON
cmake --build "$build" -j2 --target bench_closed_form bench_rhs_breakdown bench_fixed_ad test_allocations nhs_cli
mkdir -p reports/bench
"$build"/bench/bench_closed_form --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out=reports/bench/closed_form.json --benchmark_out_format=json
/usr/bin/python3 bench/closed_form_ratios.py reports/bench/closed_form.json
NHS_ALLOC_JSON=reports/bench/allocations.json "$build"/tests/test_allocations
"$build"/bench/bench_rhs_breakdown --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out=reports/bench/breakdown.json --benchmark_out_format=json
"$build"/bench/bench_fixed_ad --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out=reports/bench/fixed_ad.json --benchmark_out_format=json
/usr/bin/python3 bench/sympy_compare.py --nhs "$build"/nhs --bench reports/bench/closed_form.json \
  --out reports/bench/sympy.json
