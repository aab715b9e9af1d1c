#!/usr/bin/env python3
"""The measurement behind `auto`'s choice in double (nhs/stepper.hpp,
docs/numerics.md "Why auto switches at 1e-7"): `nhs run` with --stepper
dopri5 and verner87 on the motions of bench/peer_compare.py (rolling-disc
circle, co-axial discs orbit, skate on the incline), as a user runs it
(default field, output at t_end, singular-set scan on), to t = 20 and 200,
rtol = atol = 1e-5 ... 1e-13. Prints a Markdown table: RHS calls and the
max-norm error of (q, qdot) at t_end against the closed form (mpmath).

Usage: bench/auto_stepper.py [--nhs build/nhs] [--precision double]
Needs Debian's python3-mpmath (and what peer_compare.py imports).
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_compare as pc  # noqa: E402  (its motions, command line and closed forms)


def run(nhs, motion, t_end, tol, precision, stepper):
    cmd = pc.nhs_command(nhs, motion, t_end, tol, precision) + ["--stepper", stepper]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        return None, None, out.stderr.strip().splitlines()[-1]
    calls = int(re.search(r"(\d+) RHS calls", out.stderr).group(1))
    n = len(motion["q0"])
    last = out.stdout.strip().splitlines()[-1].split(",")
    return calls, pc.error_against_exact(motion, t_end, last[1:1 + 2 * n]), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nhs", default=os.path.join(os.path.dirname(__file__), "..", "build", "nhs"))
    ap.add_argument("--precision", default="double")
    a = ap.parse_args()
    tols = ["1e-5", "1e-7", "1e-9", "1e-11", "1e-13"] if a.precision == "double" else \
        ["1e-7", "1e-11", "1e-15", "1e-17"]
    print("| motion | t_end | rtol | dopri5 RHS calls | dopri5 error | verner87 RHS calls | "
          "verner87 error | calls dopri5 / verner87 |")
    print("|---|---|---|---|---|---|---|---|")
    for m in pc.MOTIONS:
        for t_end in ("20", "200"):
            for tol in tols:
                d = run(a.nhs, m, t_end, tol, a.precision, "dopri5")
                v = run(a.nhs, m, t_end, tol, a.precision, "verner87")
                cells = []
                for calls, err, fail in (d, v):
                    cells += [str(calls), "%.1e" % err] if fail is None else ["failed", fail]
                ratio = "%.2f" % (d[0] / v[0]) if d[0] and v[0] else ""
                print("| %s | %s | %s | %s | %s |" % (m["key"], t_end, tol, " | ".join(cells), ratio))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
