#!/usr/bin/env python3
"""Work-precision as sweeps (docs/sweeps.md): for every study with special
motions (docs/special-motions.md), the error of (q, qdot) against the
motion's closed form and the cost (RHS calls, steps, wall time), over a
tolerance sweep (rtol = atol = tol), for every formulation (the negative
control left out; those a motion excludes or that do not apply are
recorded as skipped, with the reason) x stepper (dopri5, fehlberg78,
verner87, bulirsch-stoer). One sweep spec per study and precision is
written to --specs-dir and run by `nhs sweep` (threads, or MPI ranks with
--mpi N); the rows become the JSON that scripts/report.py reads.

The error is taken at the samples t = 0 and t_end only (dt_out > t_end),
so it is the error at t_end. A run over the RHS budget skips the tighter
tolerances of its study x motion x formulation x stepper
(stop_after_budget = "tol"): dopri5 cannot reach 1e-40 in mp50.

  /usr/bin/python3 bench/work_precision.py --quick     # double, tol 1e-6 ... 1e-12 (every 2
                                                       # decades), the longest motion per study
  /usr/bin/python3 bench/work_precision.py             # double 1e-6 ... 1e-13 (every decade),
                                                       # mp50 1e-15 ... 1e-45 (every 5), every motion
  options: --nhs PATH (build/nhs), --out FILE (reports/bench/work_precision.json),
           --specs-dir DIR (reports/bench/sweeps), --runs-dir DIR (runs/work-precision),
           --precision double|mp50|all, --study NAME (repeatable), --stepper NAME (repeatable),
           --max-rhs-calls N (default 2e6 double, 3e5 mp50), --longest-motion, --jobs N (threads),
           --mpi N (mpirun -n N on this machine, loopback and shared memory only),
           --keep-other FILE (copy from an earlier JSON the runs of every study x precision
           not run now, each with "from": that file's command)

A sweep interrupted (Ctrl-C, a kill) keeps its rows in --runs-dir: the same
command resumes it (--restart discards them; a changed spec is refused). The JSON is rewritten after every study.
"""
import argparse
import csv
import json
import math
import os
import re
import sys
import time

from sweep_driver import common_arguments, listing, run_sweep, studies_and_formulations

STEPPERS = ["dopri5", "fehlberg78", "verner87", "bulirsch-stoer"]


def motions_of(nhs, study):
    """[(number, name, t_end text)] from `nhs list STUDY`."""
    out = []
    for line in listing(nhs, study).splitlines():
        m = re.match(r"^  (\d+): (.*) \(t <= ([^)]*)\)$", line)
        if m:
            out.append((int(m.group(1)), m.group(2), m.group(3)))
    return out


def toml_list(items):
    return "[" + ", ".join(json.dumps(x) if isinstance(x, str) else str(x) for x in items) + "]"


def write_spec(path, study, precision, motions, formulations, steppers, tols, max_rhs):
    # No command line in the file: the same sweep, resumed with other
    # options of this script (--jobs, --mpi), keeps its fingerprint.
    lines = [f"# Work-precision sweep of {study} in {precision}, written by bench/work_precision.py.",
             f"# Run: nhs sweep {study} {path} --out DIR",
             "[run]", f"precision = \"{precision}\"", f"max_rhs_calls = {max_rhs}",
             "# Each formulation's own code (not the studies' generated fields): what is compared.",
             "library = true", "",
             "# Samples at t = 0 and t_end only (dt_out beyond every t_end): the error is the error at t_end.",
             "dt_out = 1e9", "",
             "[[axis]]", "name = \"motion\"", f"values = {toml_list([m[0] for m in motions])}", "",
             "[[axis]]", "name = \"formulation\"", f"values = {toml_list(formulations)}", "",
             "[[axis]]", "name = \"stepper\"", f"values = {toml_list(steppers)}", "",
             "[[axis]]", "name = \"tol\"", f"values = {toml_list(tols)}", "",
             "[sweep]", "stop_after_budget = \"tol\"",
             "metrics = [\"t_reached\", \"steps\", \"rhs_calls\", \"error\", \"wall_time\"]", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def rows_to_runs(csv_path, study, precision, motions):
    """The sweep's rows as the report's runs and skipped entries."""
    names = {str(m[0]): (m[1], m[2]) for m in motions}
    runs, skipped = [], []
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            motion, t_end = names[row["motion"]]
            if row["status"] == "refused" and ("does not apply" in row["reason"] or "cannot follow" in row["reason"]):
                skipped.append({"study": study, "motion": motion, "formulation": row["formulation"],
                                "precision": precision, "stepper": row["stepper"], "tol": row["tol"],
                                "reason": row["reason"]})
                continue
            status = {"ok": "ok", "skipped": "skipped: a looser tolerance exceeded the RHS budget"}.get(
                row["status"], "failed: " + row["reason"])
            tol = row["tol"]
            runs.append({"study": study, "motion": motion, "formulation": row["formulation"],
                         "precision": precision, "stepper": row["stepper"], "tol": tol,
                         "log10_tol": round(math.log10(float(tol))), "t_end": float(t_end),
                         "status": status,
                         # Over the samples reached: for a case that failed, only t = 0.
                         "error": float(row["max_error"]) if row["max_error"] and row["status"] == "ok" else None,
                         "rhs_calls": int(row["rhs_calls"]) if row["rhs_calls"] else None,
                         "steps": int(row["steps"]) if row["steps"] else None,
                         "wall_s": float(row["wall_s"]) if row["wall_s"] else None,
                         "case": int(row["case"])})
    return runs, skipped


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    common_arguments(p, "reports/bench/work_precision.json", "runs/work-precision")
    p.add_argument("--longest-motion", action="store_true")
    p.add_argument("--precision", default=None, choices=["double", "mp50", "all"])
    p.add_argument("--study", action="append", default=[])
    p.add_argument("--stepper", action="append", default=[])
    p.add_argument("--max-rhs-calls", type=int, default=None)
    p.add_argument("--keep-other", default=None)
    args = p.parse_args()
    precision = args.precision or ("double" if args.quick else "all")
    for s in args.stepper:
        if s not in STEPPERS:
            p.error(f"--stepper: unknown '{s}' (known: {', '.join(STEPPERS)})")
    steppers = args.stepper or STEPPERS
    command = "bench/work_precision.py " + " ".join(sys.argv[1:])
    tols = {"double": ["1e-6", "1e-8", "1e-10", "1e-12"] if args.quick else [f"1e-{k}" for k in range(6, 14)],
            "mp50": ["1e-15", "1e-25"] if args.quick else [f"1e-{k}" for k in range(15, 50, 5)]}
    budget = {"double": args.max_rhs_calls or 2000000, "mp50": args.max_rhs_calls or 300000}
    studies, formulations, negative = studies_and_formulations(args.nhs)
    formulations = [f for f in formulations if f not in negative]
    unknown = [s for s in args.study if s not in studies]
    if unknown:
        p.error(f"--study: unknown {', '.join(unknown)} (known: {', '.join(studies)})")
    os.makedirs(args.specs_dir, exist_ok=True)
    os.makedirs(args.runs_dir, exist_ok=True)
    doc = {"command": command, "generated": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "engine": f"nhs sweep, {'mpirun -n %d' % args.mpi if args.mpi else '%s threads' % (args.jobs or os.cpu_count())}",
           "quick": args.quick, "longest_motion_only": args.quick or args.longest_motion,
           "error": "max-norm of (q, qdot) minus the closed form at t_end",
           "tolerance": "rtol = atol = tol", "max_rhs_calls": budget, "runs": [], "skipped": [], "sweeps": []}
    kept = []
    if args.keep_other:
        with open(args.keep_other) as f:
            old = json.load(f)
        for key in ("runs", "skipped"):
            for r in old.get(key, []):
                kept.append((key, dict(r, **({"from": old.get("command", args.keep_other)} if "from" not in r else {}))))
    t_all = time.monotonic()
    done = set()
    for prec in (["double", "mp50"] if precision == "all" else [precision]):
        for study in (args.study or studies):
            motions = motions_of(args.nhs, study)
            if not motions:
                continue
            if args.quick or args.longest_motion:
                motions = [max(motions, key=lambda m: float(m[2]))]
            spec = os.path.join(args.specs_dir, f"{study}-{prec}.toml")
            out = os.path.join(args.runs_dir, f"{study}-{prec}")
            write_spec(spec, study, prec, motions, formulations, steppers, tols[prec], budget[prec])
            wall = run_sweep(args.nhs, study, spec, out, args.jobs, args.mpi, args.restart, "work_precision")
            runs, skipped = rows_to_runs(os.path.join(out, "cases.csv"), study, prec, motions)
            doc["runs"] += runs
            doc["skipped"] += skipped
            done.add((study, prec))
            others = [(k, r) for k, r in kept if (r["study"], r["precision"]) not in done]
            doc["kept_from_earlier"] = sorted({(r["study"], r["precision"]) for _, r in others})
            doc["sweeps"].append({"study": study, "precision": prec, "spec": spec, "out": out, "wall_s": wall,
                                  "cases": len(runs) + len(skipped),
                                  "cpu_s": sum(r["wall_s"] or 0 for r in runs)})
            doc["wall_s"] = time.monotonic() - t_all
            out_doc = dict(doc)
            for k in ("runs", "skipped"):
                out_doc[k] = doc[k] + [r for kk, r in others if kk == k]
            with open(args.out + ".tmp", "w") as f:
                json.dump(out_doc, f, indent=1)
            os.replace(args.out + ".tmp", args.out)
    print(f"work_precision: wrote {args.out} ({time.monotonic() - t_all:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
