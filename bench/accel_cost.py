"""System.accel's cost on the Whipple bicycle against its traced field, in one process.

Prints one JSON line: µs per call of System.accel (second kind, default
field) over 20 seeded states in turn (each call a new state) and at one
state repeated, the traced second-kind field's q̈ in its C++ loop
(Field._bench_cpp) in the same process, and their ratios (issue 61: accel
≤ 30 × the traced field). Medians of --rounds interleaved rounds. To compare
two builds, run it with each build's module in turn, e.g.

    for k in 1 2 3; do
      PYTHONPATH=/tmp/before/python /usr/bin/python3 bench/accel_cost.py --label before
      PYTHONPATH=build/python /usr/bin/python3 bench/accel_cost.py --label after
    done
"""
import argparse
import itertools
import json
import os
import random
import statistics
import sys
import time

import numpy as np

import nhs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BICYCLE = os.path.join(ROOT, "examples", "bicycle", "whipple-bicycle.toml")


def seeded_states(system, count, q0=None):
    """count states on C near q0 (default: the default state's q), seeded: q0 + 0.05 N(0, 1)
    and z ~ N(0, 1), as System.accel admits them: (q, qdot) lists."""
    rng = random.Random(61)
    q0 = q0 or [float(v) for v in system.accel().q]
    m = len(system.quasi_velocities)
    out = []
    while len(out) < count:
        try:
            a = system.accel(q=[v + 0.05 * rng.gauss(0, 1) for v in q0], z=[rng.gauss(0, 1) for _ in range(m)])
        except nhs.Error:
            continue
        out.append(([float(v) for v in a.q], [float(v) for v in a.qdot]))
    return out


def accel_in_turn(system, states, formulation=None):
    """A callable: System.accel at the next of `states` on each call (every call a new
    state: nothing of the last one's is reused)."""
    it = itertools.cycle(states)

    def call():
        q, qd = next(it)
        return system.accel(q=q, qdot=qd, formulation=formulation)
    return call


def ratios_over_traced_field(T):
    """System.accel (from Python and its C++ loop) and every field's C++ loop, each over the
    traced second kind's field in its C++ loop (issue 61: accel <= 30x, the first kind's
    Field <= the second kind's), from bicycle_vs_sympy.py's timings T of one run."""
    field = [k for k in T if k.startswith("nhs field second-kind (traced)") and k.endswith("C++ loop")]
    if not field:
        return {}
    ref = T[field[0]]["median_s"]
    out = {"traced_field_cpp_s": ref, "goal_accel": 30.0}
    for k, r in T.items():
        if k.startswith("nhs System.accel") or (k.startswith("nhs field") and "C++ loop" in k):
            out[k] = {"median_s": r["median_s"], "over_traced_field": r["median_s"] / ref}
    return out


def per_call(f, calls):
    t0 = time.perf_counter()
    for _ in range(calls):
        f()
    return (time.perf_counter() - t0) / calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", default="")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=40)
    args = ap.parse_args()
    system = nhs.System(BICYCLE)
    states = seeded_states(system, 20)
    in_turn = accel_in_turn(system, states)
    q, qd = states[0]
    field = system.field()
    x = np.array(q + qd)

    samples = {"accel_in_turn_s": [], "accel_repeated_s": [], "traced_field_cpp_s": []}
    for _ in range(args.rounds):
        samples["accel_in_turn_s"].append(per_call(in_turn, args.calls))
        samples["accel_repeated_s"].append(per_call(lambda: system.accel(q=q, qdot=qd), args.calls))
        samples["traced_field_cpp_s"].append(field._bench_cpp(x, 20000))
    out = {"label": args.label, "load": os.getloadavg()[0]}
    out.update({k: statistics.median(v) for k, v in samples.items()})
    out["accel_in_turn_over_field"] = out["accel_in_turn_s"] / out["traced_field_cpp_s"]
    out["accel_repeated_over_field"] = out["accel_repeated_s"] / out["traced_field_cpp_s"]
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
