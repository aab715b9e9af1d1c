"""System.accel's answers, written out exactly, to compare two builds bit for bit.

Every built-in study and every system file under examples/ (sweeps left out),
in double and mp50, with every formulation that applies and its default field
(plus the library's, field="library"): System.accel at the default state, at
three seeded states (q0 + 0.1 N(0, 1), z ~ N(0, 1), for a system with
quasi-velocities), and at the default state with the first parameter times
1.25. The calls run in that order in one process, so that a build that keeps
an admitted model between calls (System.accel since the `accel` change)
answers from it: the same formulation reused, another one, another field,
another parameter. Each answer is written as its exact decimal strings
(AccelResult.strings: every digit of double, 50 of mp50) or as the error's
type and message.

    PYTHONPATH=build/python /usr/bin/python3 bench/accel_reuse_compare.py OUT.json
    PYTHONPATH=/tmp/before/python /usr/bin/python3 bench/accel_reuse_compare.py BEFORE.json
    cmp OUT.json BEFORE.json     # identical: the same numbers, the same refusals

Options: --systems a,b (only these), --quick (double only, no library field).
"""
import argparse
import glob
import json
import os
import random
import sys

import nhs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def systems():
    """Built-in study ids, then the example files (paths relative to ROOT)."""
    files = sorted(p for p in glob.glob(os.path.join(ROOT, "examples", "**", "*.toml"), recursive=True)
                   if os.sep + "sweeps" + os.sep not in p)
    return list(nhs.studies()) + [os.path.relpath(p, ROOT) for p in files]


def answer(system, **kw):
    """AccelResult.strings of system.accel(**kw), or the error's type and message."""
    try:
        a = system.accel(**kw)
        out = dict(a.strings)
        out["formulation"], out["field"] = a.formulation, a.field
        return out
    except nhs.Error as e:
        return {"error": type(e).__name__, "message": str(e)}


def states(system, rng):
    """The states of one system: (label, accel keyword arguments)."""
    out = [("default", {})]
    try:
        a = system.accel()
    except nhs.Error:
        return out
    m = len(system.quasi_velocities)
    if m:
        q0 = [float(v) for v in a.q]
        for k in range(3):
            q = ["%.6f" % (v + 0.1 * rng.gauss(0, 1)) for v in q0]
            z = ["%.6f" % rng.gauss(0, 1) for _ in range(m)]
            out.append(("seeded %d" % k, {"q": q, "z": z}))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--systems", default="")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    os.chdir(ROOT)
    names = args.systems.split(",") if args.systems else systems()
    precisions = ["double"] if args.quick else ["double", "mp50"]
    fields = [None] if args.quick else [None, "library"]
    result = {}
    for name in names:
        rng = random.Random(20261207)
        system = nhs.System(name)
        params = system.parameters
        first = next(iter(params), None)
        plan = states(system, rng)
        for precision in precisions:
            for formulation in system.formulations():
                for field in fields:
                    key = "%s|%s|%s|%s" % (name, precision, formulation, field or "default")
                    kw = dict(formulation=formulation, precision=precision, field=field)
                    for label, st in plan:
                        result[key + "|" + label] = answer(system, **kw, **st)
                    if first is not None:
                        scaled = {first: float(params[first]) * 1.25}
                        result[key + "|param"] = answer(system, **kw, params=scaled)
        print("%-45s %d answers" % (name, len(result)), file=sys.stderr, flush=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=0, sort_keys=True)
    errors = sum(1 for v in result.values() if "error" in v)
    print("%d answers (%d refusals) -> %s" % (len(result), errors, args.out), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
