#!/usr/bin/env bash
# `nhs worksheet` in a real browser (issue 37's done-when command): writes
# the worksheets of the bipendulum, the n-trailer and an example file, opens each page in
# headless Chromium (Debian's chromium, installed by scripts/setup.sh),
# lets MathJax run (virtual time: no wall-clock limit), and asserts from the
# rendered DOM that MathJax finished, that every formula the page holds
# (<body data-formulas>) was typeset and that none failed (TeX parse
# errors, math processing errors, files that failed to load). Then the same
# check on a copy of the page with one formula broken must fail: the
# check can tell. Also: the page loads nothing from the network, and the
# Markdown version has the same sections.
# Usage: worksheet_browser_test.sh NHS_CLI SOURCE_DIR
set -euo pipefail
nhs="$1"
src="$2"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "worksheet_browser_test: no chromium: run scripts/setup.sh (Debian package chromium)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The rendered <body> attributes of page $1: a line "formulas rendered
# errors done", then the first error's message.
rendered() {
  # --no-sandbox: Chromium refuses to run as root without it (CI runs as root).
  "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$tmp/profile" \
    --virtual-time-budget=120000 --dump-dom "file://$1" 2>/dev/null >"$tmp/dom.html"
  python3 - "$tmp/dom.html" <<'PY'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
body = re.search(r"<body([^>]*)>", dom)
attrs = dict(re.findall(r'([a-z-]+)="([^"]*)"', body.group(1) if body else ""))
print(attrs.get("data-formulas", "-"), attrs.get("data-mathjax-rendered", "-"),
      attrs.get("data-mathjax-errors", "-"), attrs.get("data-mathjax", "-"))
print(attrs.get("data-mathjax-first-error", ""))
PY
}

check_page() {
  local system="$1" dir="$tmp/$2"
  "$nhs" worksheet "$system" --out "$dir" >"$tmp/out.txt" 2>"$tmp/err.txt" || {
    echo "FAIL: nhs worksheet $system exited $?" >&2; cat "$tmp/err.txt" >&2; exit 1; }
  for f in index.html worksheet.md mathjax/MathJax.js; do
    [ -s "$dir/$f" ] || { echo "FAIL: $system: no $dir/$f" >&2; exit 1; }
  done
  if grep -Eq '(src|href)="(https?:)?//' "$dir/index.html"; then
    echo "FAIL: $system: the page loads something from the network" >&2; exit 1
  fi
  { read -r formulas typeset errors done; read -r first_error; } < <(rendered "$dir/index.html")
  echo "$system: $formulas formulas, $typeset typeset, $errors errors, MathJax $done ${first_error:+(first: $first_error)}"
  if [ "$done" != done ] || [ "$errors" != 0 ] || [ "$formulas" = - ] || [ "$formulas" -lt 5 ] ||
     [ "$typeset" != "$formulas" ]; then
    echo "FAIL: $system: not every formula rendered" >&2; exit 1
  fi
  for section in "## The system" "## Constraint classification" "## Symbolic cross-checks"; do
    grep -qF "$section" "$dir/worksheet.md" || { echo "FAIL: $system: worksheet.md has no '$section'" >&2; exit 1; }
  done
}

check_page bipendulum bipendulum
# The largest page: its KKT block is 30 KB of TeX (MathJax's MAXBUFFER).
check_page n-trailer n-trailer
check_page "$src/examples/chaplygin-sleigh.toml" sleigh
# Legal names with several underscores, '_' alone and at either end, and a
# constraint key with underscores (docs/equations.md, "Names"): valid TeX.
cat >"$tmp/underscores.toml" <<'TOML'
title = "a blade with underscored names"
coordinates = ["q_a_b_2", "y_", "_"]
quasi_velocities = ["u_1_1", "w"]
dependent_velocities = ["y_"]
[parameters]
m_1_x = { default = "2", meaning = "mass" }
J = { default = "0.3", meaning = "inertia" }
[dynamics]
kinetic_energy = "m_1_x/2*(q_a_b_2_dot^2 + y__dot^2) + J/2*__dot^2"
potential = "m_1_x*q_a_b_2"
[constraints]
K_n_1 = "q_a_b_2_dot*sin(_) - y__dot*cos(_)"
[parametrization]
q_a_b_2_dot = "u_1_1*cos(_)"
y__dot = "u_1_1*sin(_)"
__dot = "w"
[chart]
u_1_1 = "q_a_b_2_dot*cos(_) + y__dot*sin(_)"
w = "__dot"
[initial]
q = ["0", "0", "0.1"]
z = ["0.8", "0.2"]
[[bodies]]
mass = "m_1_x"
position = ["q_a_b_2", "y_"]
angular_velocity = "__dot"
inertia = "J"
TOML
check_page "$tmp/underscores.toml" underscores

# A system with bodies: the page links its default motion (a "Motion"
# section), drawn into DIR/animation as `nhs animate SYSTEM` draws it: the
# same folder byte for byte, data.js's command aside. Without bodies, or
# with --no-animation: no folder and no section.
disc="$src/examples/bodies/rolling-disc.toml"
check_page "$disc" disc
grep -qF '<a href="animation/index.html">The default motion in 3-D</a>' "$tmp/disc/index.html" ||
  { echo "FAIL: the disc's page does not link its animation" >&2; exit 1; }
grep -qF '[The default motion in 3-D](animation/index.html)' "$tmp/disc/worksheet.md" ||
  { echo "FAIL: the disc's worksheet.md does not link its animation" >&2; exit 1; }
"$nhs" animate "$disc" --out "$tmp/disc-animate" >/dev/null
diff -r -x data.js "$tmp/disc/animation" "$tmp/disc-animate" >&2 ||
  { echo "FAIL: the worksheet's animation is not nhs animate's" >&2; exit 1; }
python3 - "$tmp/disc/animation/data.js" "$tmp/disc-animate/data.js" <<'PY' || exit 1
import json, sys
def data(path):
    text = open(path, encoding="utf-8").read()
    d = json.loads(text[text.index("{"):text.rindex("}") + 1])
    d.pop("command")
    return d
a, b = data(sys.argv[1]), data(sys.argv[2])
if a != b or len(a["t"]) < 2:
    sys.exit("FAIL: the worksheet's data.js differs from nhs animate's (command aside)")
PY
"$nhs" worksheet "$disc" --out "$tmp/disc-plain" --no-animation >/dev/null
"$nhs" worksheet "$src/tests/systems/integrable.toml" --out "$tmp/no-bodies" >/dev/null
for d in disc-plain no-bodies; do
  if [ -e "$tmp/$d/animation" ] || grep -qF "## Motion" "$tmp/$d/worksheet.md"; then
    echo "FAIL: $d: an animation or a Motion section" >&2; exit 1
  fi
done

# A broken formula must show: the first display formula cut short.
python3 - "$tmp/bipendulum/index.html" "$tmp/bipendulum/broken.html" <<'PY'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
k = page.index('<div class="math">\\[') + len('<div class="math">\\[')
open(sys.argv[2], "w", encoding="utf-8").write(page[:k] + "\\frac{1}{" + page[k:])
PY
{ read -r formulas typeset errors done; read -r first_error; } < <(rendered "$tmp/bipendulum/broken.html")
echo "broken page: $formulas formulas, $typeset typeset, $errors errors, MathJax $done (first: $first_error)"
if [ "$errors" = 0 ] || [ "$errors" = - ]; then
  echo "FAIL: a broken formula was not reported" >&2; exit 1
fi
echo "worksheet_browser_test: passed"
