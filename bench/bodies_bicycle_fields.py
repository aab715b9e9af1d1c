#!/usr/bin/python3
"""The Whipple bicycle written as bodies against the sympy-generated file:
the per-call cost of their traced fields (issue 59's bound: the bodies
file's second-kind field at most 1.5x the generated file's).

Both files describe the same bicycle in the same coordinates (the test
SystemFileRolling.TheBicycleAsBodiesHasTheGeneratedFilesAccelerations).
Each field (second-kind, first-kind) is evaluated `--calls` times in a C++
loop (Field._bench_cpp: the traced field as `nhs run` calls it, no
Python in the loop) at the generated file's default state; the four
measurements are interleaved, --repeats rounds, and the ratio
bodies / generated is quoted per round (median, min, max). The machine is
shared and noisy: only ratios from one run are compared.

Output: <out-dir>/bodies_bicycle_fields.md and .json, with the command.

Usage (from the repository root, with the module built):
  PYTHONPATH=build/python /usr/bin/python3 bench/bodies_bicycle_fields.py [--out-dir reports/bench]
"""
import argparse
import json
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "build", "python"))
import nhs  # noqa: E402

FILES = {"generated": "examples/bicycle/whipple-bicycle-generated.toml",
         "bodies": "examples/bicycle/whipple-bicycle.toml"}
FORMULATIONS = ("second-kind", "first-kind")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out-dir", default="reports/bench")
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=7)
    a = ap.parse_args()
    systems = {k: nhs.System(v) for k, v in FILES.items()}
    state = systems["generated"].accel()
    q, qdot = [float(v) for v in state.q], [float(v) for v in state.qdot]
    # Both fields take x = (q, qdot) (System.field), on C at the default state.
    x = {f: np.array(q + qdot) for f in FORMULATIONS}
    fields = {(k, f): s.field(formulation=f) for k, s in systems.items() for f in FORMULATIONS}
    for f in FORMULATIONS:  # the same bicycle: the same field values at the same state
        a_, b_ = fields[("generated", f)](0.0, x[f]), fields[("bodies", f)](0.0, x[f])
        if not np.allclose(a_, b_, rtol=1e-10, atol=1e-10):
            sys.exit("bodies_bicycle_fields: the two files' %s fields differ: %s vs %s" % (f, a_, b_))
    per = {key: [] for key in fields}
    ratios = {f: [] for f in FORMULATIONS}
    for _ in range(a.repeats):
        for key, field in fields.items():
            per[key].append(field._bench_cpp(x[key[1]], a.calls))
        for f in FORMULATIONS:
            ratios[f].append(per[("bodies", f)][-1] / per[("generated", f)][-1])
    command = "PYTHONPATH=build/python /usr/bin/python3 bench/bodies_bicycle_fields.py"
    rows = ["# The bicycle's traced fields: bodies file against generated file", "",
            "Command: `%s` (%d calls per measurement, %d interleaved rounds)." % (command, a.calls, a.repeats), "",
            "| field | generated (µs/call, median) | bodies (µs/call, median) | ratio bodies/generated: median (min, max) |",
            "|---|---|---|---|"]
    result = {"command": command, "calls": a.calls, "repeats": a.repeats, "fields": {}}
    for f in FORMULATIONS:
        g, b = statistics.median(per[("generated", f)]) * 1e6, statistics.median(per[("bodies", f)]) * 1e6
        r = ratios[f]
        rows.append("| %s | %.2f | %.2f | %.2f (%.2f, %.2f) |" % (f, g, b, statistics.median(r), min(r), max(r)))
        result["fields"][f] = {"generated_us": g, "bodies_us": b, "ratios": r}
    os.makedirs(a.out_dir, exist_ok=True)
    with open(os.path.join(a.out_dir, "bodies_bicycle_fields.md"), "w") as out:
        out.write("\n".join(rows) + "\n")
    with open(os.path.join(a.out_dir, "bodies_bicycle_fields.json"), "w") as out:
        json.dump(result, out, indent=1)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
