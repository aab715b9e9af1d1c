#!/bin/bash
# `nhs check` writes report.md (scripts/check_report.py) beside its summary:
# report.md names every formulation of the summary's table; where the
# interpreter nhs uses can import matplotlib, the figures it links exist and
# are non-empty PNGs. A few seconds (double, --quick).
#
# Usage: check_report_test.sh NHS SYSTEM_FILE
set -u
nhs=$1
system=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/nhs_check_report_XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

"$nhs" check "$system" --precision double --quick --jobs 2 --out-dir "$dir/out" >"$dir/stdout" 2>"$dir/stderr"
code=$?
[ "$code" -eq 0 ] || { cat "$dir/stdout" "$dir/stderr"; fail "nhs check exited with $code"; }
grep -q "nhs: warning" "$dir/stderr" && fail "warning: $(grep 'nhs: warning' "$dir/stderr")"
out=$dir/out
[ -s "$out/summary.md" ] || fail "no summary.md"
[ -s "$out/summary.json" ] || fail "no summary.json"
[ -s "$out/report.md" ] || fail "no report.md"
grep -q "report in .*report.md" "$dir/stdout" || fail "the last line does not name report.md"

# Every formulation of the summary's results table (11 columns: 13 fields split on
# "|"; the digits table has fewer) in report.md.
formulations=$(awk -F'|' 'NF == 13 && /^\| / && $2 !~ /study|---/ { gsub(/ /, "", $3); print $3 }' \
  "$out/summary.md" | sort -u)
[ -n "$formulations" ] || fail "no formulation in summary.md's table"
for f in $formulations; do
  grep -q -- "| $f |" "$out/report.md" || fail "report.md does not name formulation $f"
done
echo "report.md names $(echo "$formulations" | wc -w) formulations"

# The figures, when the interpreter nhs runs has matplotlib.
if [ -n "${NHS_PYTHON:-}" ]; then py=$NHS_PYTHON
elif [ -x /usr/bin/python3 ]; then py=/usr/bin/python3
else py=python3; fi
if "$py" -c "import matplotlib" 2>/dev/null; then
  n=0
  for png in $(grep -o 'figures/[^)]*\.png' "$out/report.md" | sort -u); do
    [ -s "$out/$png" ] || fail "$png is linked from report.md but missing or empty"
    head -c 8 "$out/$png" | od -An -c | grep -q 'P   N   G' || fail "$png is not a PNG"
    n=$((n + 1))
  done
  # skate.toml: one exact motion and the default state; error, |C|, energy, omega
  [ "$n" -ge 4 ] || fail "only $n figures"
  echo "$n figures"
else
  grep -q "python3-matplotlib" "$out/report.md" || fail "report.md does not say figures need matplotlib"
  echo "matplotlib not importable by $py: tables only (checked)"
fi
echo "1 passed, 0 failed"
