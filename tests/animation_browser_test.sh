#!/usr/bin/env bash
# ctest-labels: unit;cli;browser
# `nhs animate` in a real browser (issue 60; docs/animation.md): writes the
# animation of a short rattleback run, opens it in headless Chromium (WebGL
# by SwiftShader, the network blocked at the host resolver, virtual time: no
# wall-clock limit) and asserts that the page loads nothing from the
# network, holds one scene object per body, draws different pixels at two
# times, and reports at three sample times the poses that `nhs run --poses`
# writes at the same t, to 1e-9 (1 + |value|). The same comparison on a
# copy of data.js with the body shifted by 1e-6 must fail: the check can
# tell. An eigenmode's animation (`nhs linearize --animate`: the bicycle's
# weave) loads offline too, one object per body. A support-function surface
# (the rounded rattleback) is a mesh whose vertices are data.js's. An animation of a 1e5-sample run must load within 600 frames of
# virtual time (10 s at 60 frames per second). A run stopped at a singular
# set writes what it integrated, the reason on its page, and exits 3. Also
# the refusals: --out a file (exit 2), a system without bodies (exit 2), an
# unwritable folder (exit 5), and nothing half-written.
# Usage: animation_browser_test.sh NHS_CLI SOURCE_DIR
set -euo pipefail
nhs="$1"
src="$2"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "animation_browser_test: no chromium: run scripts/setup.sh (Debian package chromium)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
system="$src/examples/bodies/rattleback.toml"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Chromium on page $1 with the network blocked; further arguments appended.
chrome() {
  local page="$1"; shift
  # --no-sandbox: Chromium refuses to run as root without it (CI runs as root).
  "$browser" --headless --no-sandbox --disable-dev-shm-usage --user-data-dir="$tmp/profile" \
    --use-gl=swiftshader --enable-unsafe-swiftshader --ignore-gpu-blocklist \
    --host-resolver-rules="MAP * ~NOTFOUND" --virtual-time-budget=10000 "$@" "file://$page" 2>/dev/null
}

"$nhs" animate "$system" --t-end 2 --fps 10 --out "$tmp/rb" >"$tmp/out.txt" 2>"$tmp/err.txt" ||
  { code=$?; cat "$tmp/err.txt" >&2; fail "nhs animate exited $code"; }
for f in index.html data.js three.min.js OrbitControls.js; do [ -s "$tmp/rb/$f" ] || fail "no $tmp/rb/$f"; done
if grep -Eq '(src|href)="(https?:)?//' "$tmp/rb/index.html"; then fail "the page loads something from the network"; fi
"$nhs" run "$system" --t-end 2 --dt-out 0.1 --poses --out "$tmp/run.csv" 2>/dev/null || fail "nhs run --poses exited $?"

# The poses themselves, independently of the scene program: R of the
# rattleback's shell is Rz(psi) Rx(phi) Ry(theta) (its file's rotations), its
# centre is at (x, y) and its contact point on the floor (z = 0), at every row.
python3 - "$tmp/run.csv" <<'PY'
import csv, math, sys
def Rx(a): c, s = math.cos(a), math.sin(a); return [[1, 0, 0], [0, c, -s], [0, s, c]]
def Ry(a): c, s = math.cos(a), math.sin(a); return [[c, 0, s], [0, 1, 0], [-s, 0, c]]
def Rz(a): c, s = math.cos(a), math.sin(a); return [[c, -s, 0], [s, c, 0], [0, 0, 1]]
def mul(A, B): return [[sum(A[i][k] * B[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
worst = 0.0
rows = list(csv.DictReader(open(sys.argv[1])))
for row in rows:
    v = {k: float(x) for k, x in row.items() if x != ""}
    R = mul(mul(Rz(v["psi"]), Rx(v["phi"])), Ry(v["theta"]))
    errs = [abs(R[i][j] - v[f"shell_R{i + 1}{j + 1}"]) for i in range(3) for j in range(3)]
    errs += [abs(v["shell_x"] - v["x"]), abs(v["shell_y"] - v["y"]), abs(v["contact_point_z"])]
    worst = max(worst, max(errs))
if not rows or worst > 1e-12:
    sys.exit(f"the rattleback's poses are not its frame's: max error {worst}")
print(f"{len(rows)} rows: R = Rz(psi) Rx(phi) Ry(theta), centre at (x, y), contact on the floor (max error {worst:.2g})")
PY

# A tree of frames with up = -z (the Whipple bicycle written as bodies): each
# R a rotation (R^T R = I, det R = 1), both contact points on the floor z =
# 0, each wheel's centre a radius (0.3 m rear, 0.35 m front) from its
# contact point and above the floor, at every row.
"$nhs" run "$src/examples/bicycle/whipple-bicycle.toml" --t-end 2 --dt-out 0.1 --poses --out "$tmp/bike.csv" \
  2>/dev/null || fail "nhs run --poses of the bicycle exited $?"
python3 - "$tmp/bike.csv" <<'PY'
import csv, sys
worst, rows = 0.0, list(csv.DictReader(open(sys.argv[1])))
for row in rows:
    v = {k: float(x) for k, x in row.items() if x != ""}
    for b in "RBHF":
        R = [[v[f"{b}_R{i + 1}{j + 1}"] for j in range(3)] for i in range(3)]
        for i in range(3):
            for j in range(3):
                worst = max(worst, abs(sum(R[k][i] * R[k][j] for k in range(3)) - (i == j)))
        det = (R[0][0] * (R[1][1] * R[2][2] - R[1][2] * R[2][1]) - R[0][1] * (R[1][0] * R[2][2] - R[1][2] * R[2][0])
               + R[0][2] * (R[1][0] * R[2][1] - R[1][1] * R[2][0]))
        worst = max(worst, abs(det - 1))
    for wheel, contact, radius in (("R", "rear", 0.3), ("F", "front", 0.35)):
        worst = max(worst, abs(v[f"{contact}_point_z"]))
        d = [v[f"{wheel}_{a}"] - v[f"{contact}_point_{a}"] for a in "xyz"]
        worst = max(worst, abs(sum(x * x for x in d) ** 0.5 - radius), max(d[2], 0.0))  # up = -z: centre above
if not rows or worst > 1e-12:
    sys.exit(f"the bicycle's poses are not rigid or not on the floor: max error {worst}")
print(f"{len(rows)} rows of the bicycle: 4 rotations, 2 contacts on the floor, the wheels' centres a radius "
      f"from them (max error {worst:.2g})")
PY

# Compares the poses the page at $1 reports at the times of CSV rows 5, 13
# and 20 with the CSV's columns; exits 1 on a difference.
compare() {
  local dir="$1" k t
  : >"$tmp/doms"
  for k in 5 13 20; do
    t=$(python3 -c "import csv,sys; print(list(csv.DictReader(open(sys.argv[1])))[int(sys.argv[2])]['t'])" "$tmp/run.csv" "$k")
    chrome "$dir/index.html?t=$t" --dump-dom >"$tmp/dom-$k.html"
    echo "$k $tmp/dom-$k.html" >>"$tmp/doms"
  done
  python3 - "$tmp/run.csv" "$tmp/doms" "$dir/data.js" <<'PY'
import csv, html, json, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
data = json.loads(open(sys.argv[3]).read().split("=", 1)[1].strip().rstrip(";"))
worst, checked = 0.0, 0
for line in open(sys.argv[2]):
    k, path = line.split()
    dom = open(path, encoding="utf-8").read()
    m = re.search(r'<pre id="nhs-poses"[^>]*>(.*?)</pre>', dom, re.S)
    body = re.search(r"<body([^>]*)>", dom).group(1)
    if not m or 'data-nhs-ready="1"' not in body:
        sys.exit(f"row {k}: the page reported no poses (WebGL or script failed)")
    n = re.search(r'data-nhs-bodies="(\d+)"', body)
    if not n or int(n.group(1)) != len(data["bodies"]):
        sys.exit(f"row {k}: {n.group(1) if n else 'no'} scene objects for {len(data['bodies'])} bodies")
    page, row = json.loads(html.unescape(m.group(1))), rows[int(k)]
    if page["t"] != float(row["t"]):
        sys.exit(f"row {k}: the page is at t = {page['t']}, the row at {row['t']}")
    for b in page["bodies"]:
        pairs = [(b[a], b["name"] + "_" + a) for a in "xyz"]
        pairs += [(b["R"][3 * i + j], f"{b['name']}_R{i + 1}{j + 1}") for i in range(3) for j in range(3)]
        for c in page["contacts"]:
            pairs += [(c[a], c["name"] + "_point_" + a) for a in "xyz"]
        for got, col in pairs:
            want = float(row[col])
            err = abs(got - want)
            worst = max(worst, err / (1 + abs(want)))
            checked += 1
            if err > 1e-9 * (1 + abs(want)):
                sys.exit(f"row {k} (t = {row['t']}): {col} = {got} on the page, {want} in the CSV")
print(f"{checked} pose values at 3 times agree, max |page - csv| / (1 + |csv|) = {worst:.3g}")
PY
}
compare "$tmp/rb" || fail "the page's poses are not the run's"

# A page with the body shifted by 1e-6 in x must fail the comparison.
cp -r "$tmp/rb" "$tmp/shifted"
python3 - "$tmp/shifted/data.js" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
data = json.loads(text.split("=", 1)[1].strip().rstrip(";"))
stride = 12 * len(data["bodies"]) + 3 * len(data["contacts"])
for s in range(len(data["t"])):
    data["poses"][s * stride] += 1e-6
open(sys.argv[1], "w").write("window.NHS_ANIMATION = " + json.dumps(data) + ";\n")
PY
if compare "$tmp/shifted" 2>"$tmp/shifted.txt"; then fail "a page with a shifted body passed the comparison"; fi
echo "shifted page refused: $(tail -1 "$tmp/shifted.txt")"

# An eigenmode (`nhs linearize --animate`): the bicycle's weave at 4 m/s,
# written as an animation is, opens offline with one scene object per body
# and reports at t = 1 (sample 30 at 30 per second) the poses of its data.js.
"$nhs" linearize "$src/examples/bicycle/whipple-bicycle.toml" --steady upright --at v=4 --animate "$tmp/weave" \
  >/dev/null 2>"$tmp/weave.txt" || fail "nhs linearize --animate exited $?: $(cat "$tmp/weave.txt")"
for f in index.html data.js three.min.js OrbitControls.js; do [ -s "$tmp/weave/$f" ] || fail "no $tmp/weave/$f"; done
if grep -Eq '(src|href)="(https?:)?//' "$tmp/weave/index.html"; then fail "the mode's page loads something from the network"; fi
chrome "$tmp/weave/index.html?t=1" --dump-dom >"$tmp/weave.html"
python3 - "$tmp/weave.html" "$tmp/weave/data.js" <<'PY'
import html, json, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(open(sys.argv[2]).read().split("=", 1)[1].strip().rstrip(";"))
body = re.search(r"<body([^>]*)>", dom).group(1)
m = re.search(r'<pre id="nhs-poses"[^>]*>(.*?)</pre>', dom, re.S)
if not m or 'data-nhs-ready="1"' not in body:
    sys.exit("the weave's page reported no poses (WebGL or script failed)")
n = re.search(r'data-nhs-bodies="(\d+)"', body)
if not n or int(n.group(1)) != len(data["bodies"]) or len(data["bodies"]) != 4:
    sys.exit(f"{n.group(1) if n else 'no'} scene objects for the bicycle's {len(data['bodies'])} bodies")
page, k = json.loads(html.unescape(m.group(1))), data["t"].index(1.0)
stride = 12 * len(data["bodies"]) + 3 * len(data["contacts"])
for i, b in enumerate(page["bodies"]):
    want = data["poses"][k * stride + 12 * i: k * stride + 12 * i + 12]
    got = [b["x"], b["y"], b["z"]] + b["R"]
    if max(abs(g - w) for g, w in zip(got, want)) > 1e-12:
        sys.exit(f"body {b['name']} at t = 1: {got} on the page, {want} in data.js")
print(f"the weave's page: {n.group(1)} bodies, mode {data['mode']['index']}, lambda = {data['mode']['re']} "
      f"+- {data['mode']['im']} i, its poses at t = 1 as in data.js")
PY

# A support-function surface (the rounded rattleback) is drawn as a mesh:
# one scene object per body, and the page's mesh holds data.js's vertices
# grad h(u_k) (in single precision, as drawn), on the UV sphere's 24 x 12 grid.
"$nhs" animate "$src/examples/bodies/rounded-rattleback.toml" --t-end 0.5 --fps 4 --out "$tmp/rounded" >/dev/null \
  2>"$tmp/rounded.txt" || fail "nhs animate of the rounded rattleback exited $?: $(cat "$tmp/rounded.txt")"
chrome "$tmp/rounded/index.html?t=0.25" --dump-dom >"$tmp/rounded.html"
python3 - "$tmp/rounded.html" "$tmp/rounded/data.js" <<'PY'
import html, json, re, struct, sys
dom = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(open(sys.argv[2]).read().split("=", 1)[1].strip().rstrip(";"))
body = re.search(r"<body([^>]*)>", dom).group(1)
m = re.search(r'<pre id="nhs-meshes"[^>]*>(.*?)</pre>', dom, re.S)
if not m or 'data-nhs-ready="1"' not in body:
    sys.exit("the rounded rattleback's page reported no meshes (WebGL or script failed)")
n = re.search(r'data-nhs-bodies="(\d+)"', body)
if not n or int(n.group(1)) != len(data["bodies"]) or len(data["bodies"]) != 1:
    sys.exit(f"{n.group(1) if n else 'no'} scene objects for the rounded rattleback's {len(data['bodies'])} bodies")
b, meshes = data["bodies"][0], json.loads(html.unescape(m.group(1)))
if b["shape"] != "mesh" or len(b["size"]) != 3 + 3 * (2 + 11 * 24):
    sys.exit(f"the rounded rattleback is drawn as {b['shape']} of {len(b['size'])} sizes, not a 24 x 12 mesh")
f32 = lambda x: struct.unpack("f", struct.pack("f", x))[0]
want = [f32(v) for v in b["size"][3:]]
if meshes[0] != want:
    sys.exit(f"the page's mesh ({len(meshes[0] or [])} values) is not data.js's vertices ({len(want)} values)")
print(f"the rounded rattleback: 1 body drawn as a mesh of {len(want) // 3} vertices, as in data.js")
PY

# Two times, two different pictures.
chrome "$tmp/rb/index.html?t=0.1" --window-size=640,480 --screenshot="$tmp/a.png" >/dev/null
chrome "$tmp/rb/index.html?t=1.9" --window-size=640,480 --screenshot="$tmp/b.png" >/dev/null
[ -s "$tmp/a.png" ] && [ -s "$tmp/b.png" ] || fail "no screenshot"
if cmp -s "$tmp/a.png" "$tmp/b.png"; then fail "t = 0.1 and t = 1.9 give the same pixels"; fi
echo "screenshots at t = 0.1 and 1.9 differ ($(stat -c %s "$tmp/a.png") and $(stat -c %s "$tmp/b.png") bytes)"

# A 1e5-sample animation loads within 600 frames of virtual time.
"$nhs" animate "$system" --t-end 100 --fps 1000 --out "$tmp/big" >/dev/null 2>&1 || fail "the 1e5-sample animate exited $?"
samples=$(python3 -c "import json,sys; print(len(json.loads(open(sys.argv[1]).read().split('=',1)[1].strip().rstrip(';'))['t']))" "$tmp/big/data.js")
[ "$samples" -ge 100000 ] || fail "the large animation has $samples samples"
chrome "$tmp/big/index.html?t=100" --dump-dom >"$tmp/big.html"
grep -q 'data-nhs-ready="1"' "$tmp/big.html" || fail "the $samples-sample animation did not load within 600 frames"
echo "$samples samples ($(stat -c %s "$tmp/big/data.js") bytes of data.js) loaded within 600 frames"

# A run that stops at a singular set (a disc falling flat, stopped 0.05 from
# it): the animation of what was integrated, the reason on the page, exit 3.
set +e
"$nhs" animate "$src/examples/bodies/rolling-disc.toml" --q 0,0,0.3,0,0 --z 0,0,0 --singular-margin 0.05 \
  --t-end 10 --out "$tmp/fall" >/dev/null 2>"$tmp/fall.txt"; code=$?
set -e
[ "$code" = 3 ] || fail "a run stopped at a singular set: exit $code: $(cat "$tmp/fall.txt")"
chrome "$tmp/fall/index.html" --dump-dom >"$tmp/fall.html"
grep -q '<div id="message">The run stopped at t = [0-9.]*: singular state: rolling contact' "$tmp/fall.html" ||
  fail "the stopped run's page does not say why"
echo "a disc falling flat: exit 3, its page says: $(grep -o 'The run stopped at t = [0-9.]*' "$tmp/fall.html" | head -1)"

# Refusals, nothing half-written, nothing of the user's deleted; an animation replaced.
"$nhs" animate "$system" --t-end 1 --fps 5 --out "$tmp/rb/" >/dev/null 2>&1 || fail "replacing an animation exited $?"
python3 -c "import json,sys; d=json.loads(open(sys.argv[1]).read().split('=',1)[1].strip().rstrip(';')); sys.exit(len(d['t']) != 6)" \
  "$tmp/rb/data.js" || fail "the animation in $tmp/rb was not replaced"
set +e
"$nhs" animate "$system" --out "$src/README.md" 2>"$tmp/e1.txt"; c1=$?
"$nhs" animate "$src/tests/systems/integrable.toml" --out "$tmp/none" 2>"$tmp/e2.txt"; c2=$?
"$nhs" animate "$system" --t-end 0.5 --out /proc/nhs-animation 2>"$tmp/e3.txt"; c3=$?
"$nhs" animate "$system" --t-end 1e6 --out "$tmp/huge" 2>"$tmp/e5.txt"; c5=$?
"$nhs" animate "$system" --t-end 50000 --out "$tmp/huge" 2>"$tmp/e6.txt"; c6=$?
mkdir "$tmp/mine" && echo "keep me" >"$tmp/mine/notes.txt"
"$nhs" animate "$system" --t-end 0.5 --out "$tmp/mine" 2>"$tmp/e4.txt"; c4=$?
set -e
[ "$c4" = 2 ] && grep -q "other files than an animation" "$tmp/e4.txt" && [ -s "$tmp/mine/notes.txt" ] ||
  fail "a folder of other files: exit $c4: $(cat "$tmp/e4.txt")"
[ "$c1" = 2 ] && grep -q "exists and is not a directory" "$tmp/e1.txt" || fail "--out a file: exit $c1: $(cat "$tmp/e1.txt")"
[ "$c2" = 2 ] && grep -q "has no bodies to draw" "$tmp/e2.txt" || fail "no bodies: exit $c2: $(cat "$tmp/e2.txt")"
[ ! -e "$tmp/none" ] || fail "a refused animation left $tmp/none"
[ "$c5" = 2 ] && grep -q "30000001 samples exceed the animation's bound of 2000000" "$tmp/e5.txt" &&
  [ "$c6" = 2 ] && grep -q "1500001 samples of 2 bodies and contacts exceed" "$tmp/e6.txt" && [ ! -e "$tmp/huge" ] ||
  fail "the size bound: exit $c5, $c6: $(cat "$tmp/e5.txt" "$tmp/e6.txt")"
[ "$c3" = 5 ] || fail "an unwritable folder: exit $c3: $(cat "$tmp/e3.txt")"
if ls -a "$tmp" | grep -q "nhs-tmp"; then fail "a temporary folder was left"; fi
echo "animation_browser_test: passed"
