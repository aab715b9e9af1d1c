#!/usr/bin/env python3
"""Writes the tool's numbers for every built-in study and example file into a folder,
so that two builds can be compared byte for byte (a refactor must change no number).

Usage: output_snapshot.py TOOL OUT [--quick]

For every built-in study, every example system file and the bundled bicycle:
  accel/<system>.<formulation>.<precision>.json   `nhs accel` (stdout, or the exit code and
                                                    message of a refusal), for every formulation
                                                    in double and mp50;
  run/<system>.<precision>.csv                     `nhs run --t-end 1 --dt-out 0.1` with the
                                                    default formulation and field, double and mp50
                                                    (--quick: double only);
  linearize/<system>.<family>.<precision>.json     `nhs linearize` of every [[steady]] family at
                                                    its parameters set to 1.5, double and mp50;
  sweep/<spec>.csv                                 `nhs sweep` of every examples/sweeps spec
                                                    (--quick: skipped), without the wall_time column.
Wall times are blanked; paths are written relative to the project root. Compare two
snapshots with `diff -r OLD NEW`. Run from the project root.
"""
import argparse
import csv
import io
import os
import re
import subprocess
import sys
import tempfile

FORMULATIONS = ["first-kind", "maggi", "gibbs-appell", "second-kind", "udwadia-kalaba",
                "lagrange-multipliers", "voronec", "naive-reduced"]
WALL = re.compile(r'("wall[a-z_]*"\s*:\s*)[^,\n}]+|(wall time )[0-9.]+ s')


def blank_walls(text):
    """The text with every wall-clock figure replaced by 'W'."""
    return WALL.sub(lambda m: (m.group(1) or m.group(2)) + "W", text)


def tool(argv):
    """(exit code, stdout, stderr) of the tool."""
    p = subprocess.run(argv, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def systems(nhs):
    """The built-in studies' ids, the example files and the bundled bicycle."""
    code, out, _ = tool([nhs, "list"])
    ids, in_studies = [], False
    for line in out.splitlines():
        if line.startswith("studies:"):
            in_studies = True
        elif line and not line.startswith(" "):
            in_studies = False
        elif in_studies and line.startswith("  ") and not line.startswith("   "):
            ids.append(line.split()[0])
    files = sorted(os.path.join("examples", f) for f in os.listdir("examples") if f.endswith(".toml"))
    return ids + files + ["whipple-bicycle"]


def label(system):
    return os.path.basename(system).removesuffix(".toml")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def outcome(code, out, err):
    """What a command answered: its stdout when it succeeded, else its code and message."""
    return blank_walls(out) if code == 0 else f"exit {code}\n{blank_walls(err)}"


def snapshot_accel(nhs, system, out):
    for f in FORMULATIONS:
        for p in ("double", "mp50"):
            r = tool([nhs, "accel", system, "--formulation", f, "--precision", p])
            write(f"{out}/accel/{label(system)}.{f}.{p}.json", outcome(*r))


def snapshot_run(nhs, system, out, precisions):
    with tempfile.TemporaryDirectory() as tmp:
        for p in precisions:
            csv_path = os.path.join(tmp, "run.csv")
            code, _, err = tool([nhs, "run", system, "--t-end", "1", "--dt-out", "0.1",
                                 "--precision", p, "--out", csv_path])
            text = open(csv_path).read() if code == 0 else f"exit {code}\n{blank_walls(err)}"
            write(f"{out}/run/{label(system)}.{p}.csv", text)


def steady_families(nhs, system):
    """[(family, [parameter names])] of the system's [[steady]] tables (files only)."""
    if not system.endswith(".toml") and system != "whipple-bicycle":
        return []
    path = system if system.endswith(".toml") else "examples/bicycle/whipple-bicycle.toml"
    text = open(path).read()
    found = re.findall(r'\[\[steady\]\]\s*name\s*=\s*"([^"]+)"\s*parameters\s*=\s*\[([^\]]*)\]', text)
    return [(name, re.findall(r'"([^"]+)"', params)) for name, params in found]


def snapshot_linearize(nhs, system, out):
    for family, params in steady_families(nhs, system):
        at = [a for p in params for a in ("--at", f"{p}=1.5")]
        for p in ("double", "mp50"):
            r = tool([nhs, "linearize", system, "--steady", family, "--precision", p] + at)
            write(f"{out}/linearize/{label(system)}.{family}.{p}.json", outcome(*r))


def without_wall_time(text):
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return text
    keep = [i for i, h in enumerate(rows[0]) if not h.startswith("wall")]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([[r[i] for i in keep if i < len(r)] for r in rows])
    return buf.getvalue()


def snapshot_sweeps(nhs, out):
    for spec in sorted(os.listdir("examples/sweeps")):
        text = open(os.path.join("examples/sweeps", spec)).read()
        system = re.search(r"nhs sweep (\S+)", text).group(1)
        with tempfile.TemporaryDirectory() as tmp:
            code, _, err = tool([nhs, "sweep", system, os.path.join("examples/sweeps", spec), "--out", tmp,
                                 "--jobs", "1"])
            cases = os.path.join(tmp, "cases.csv")
            rows = without_wall_time(open(cases).read()) if os.path.exists(cases) else ""
            write(f"{out}/sweep/{spec.removesuffix('.toml')}.csv", f"exit {code}\n{rows}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tool")
    ap.add_argument("out")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    nhs = os.path.abspath(a.tool)
    for system in systems(nhs):
        print(system, file=sys.stderr, flush=True)
        snapshot_accel(nhs, system, a.out)
        snapshot_run(nhs, system, a.out, ["double"] if a.quick else ["double", "mp50"])
        snapshot_linearize(nhs, system, a.out)
    if not a.quick:
        snapshot_sweeps(nhs, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
