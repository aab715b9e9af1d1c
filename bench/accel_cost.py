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


def seeded_states(system, count):
    """count states on C near the default one, as System.accel admits them."""
    rng = random.Random(61)
    q0 = [float(v) for v in system.accel().q]
    m = len(system.quasi_velocities)
    out = []
    while len(out) < count:
        try:
            a = system.accel(q=[v + 0.05 * rng.gauss(0, 1) for v in q0], z=[rng.gauss(0, 1) for _ in range(m)])
        except nhs.Error:
            continue
        out.append(([float(v) for v in a.q], [float(v) for v in a.qdot]))
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
    turn = itertools.cycle(states)
    q, qd = states[0]
    field = system.field()
    x = np.array(q + qd)

    def in_turn():
        s = next(turn)
        system.accel(q=s[0], qdot=s[1])

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
