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

# Figure names are unique in a report, also up to case: slug() lowers case,
# so invariants omega and OMEGA once both wrote ...invariant-omega.png and
# report.md showed one figure twice. A copy of the system with its first
# invariant doubled under its upper-case name; the report is drawn with a
# stand-in for matplotlib that writes a placeholder per figure (names are
# what is checked, and this runs without matplotlib too).
script=$(dirname "$0")/../scripts/check_report.py
"$py" - "$system" "$dir/case.toml" <<'PY' || fail "could not derive a case-colliding copy of $system"
import re, sys
lines = open(sys.argv[1]).read().split("\n")
i = lines.index("[invariants]")
m = re.match(r'([A-Za-z_][A-Za-z0-9_]*) = "(.*)"$', lines[i + 1])
assert m and m.group(1).upper() != m.group(1), "the first invariant needs a lower-case letter"
lines.insert(i + 2, f'{m.group(1).upper()} = "2*({m.group(2)})"')
open(sys.argv[2], "w").write("\n".join(lines))
PY
"$nhs" check "$dir/case.toml" --precision double --quick --jobs 2 --no-report --out-dir "$dir/case" \
  >"$dir/case.stdout" 2>&1 || { cat "$dir/case.stdout"; fail "nhs check of the case-colliding copy failed"; }
"$py" - "$script" "$dir/case" <<'PY' || fail "figure names collide"
import importlib.util, os, re, sys
spec = importlib.util.spec_from_file_location("check_report", sys.argv[1])
cr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cr)

class Stub:  # matplotlib's figure, axes and pyplot: every call a no-op
    def __getattr__(self, name):
        return lambda *a, **k: None
    def subplots(self, *a, **k):
        return Figure(), Stub()

class Figure(Stub):
    def savefig(self, path, **k):
        with open(path, "wb") as f:
            f.write(b"\x89PNG placeholder")

cr.plt = Stub()
assert cr.main(["check_report.py", sys.argv[2]]) == 0
report = open(os.path.join(sys.argv[2], "report.md")).read()
links = re.findall(r"\]\((figures/[^)]*\.png)\)", report)
lower = [l.lower() for l in links]
dup = sorted({l for l in lower if lower.count(l) > 1})
assert not dup, f"figures linked more than once (up to case): {dup}"
files = os.listdir(os.path.join(sys.argv[2], "figures"))
assert len(files) == len(links), f"{len(files)} figure files for {len(links)} links"
inv = [l for l in links if "invariant-" in l]
names = {m for l in inv for m in re.findall(r"invariant-([^./]*)", l)}
assert len(inv) >= 4 and len(names) >= 2, f"expected distinct figures per invariant: {inv}"
print(f"{len(links)} figure names, unique up to case ({len(inv)} invariant figures)")
PY
echo "1 passed, 0 failed"
