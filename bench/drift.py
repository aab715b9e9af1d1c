#!/usr/bin/env python3
"""Constraint drift as sweeps (docs/sweeps.md): max |C| and the energy error
max |E - E0| along the motion from each study's default state (default
parameters), for every study x formulation, in double with rtol = atol =
1e-12 and the default stepper (--stepper), without and with the projection onto C after every step
(--project). Each case also keeps its series ([sweep] series) of |C| and
|E - E0| at the samples, `--samples` evenly spaced times, for the report's
figures. Left out, with the reason: the negative control, formulations
that do not apply, and those that cannot follow the default motion (`nhs
list STUDY` says which).

One spec per study is written to --specs-dir and run by `nhs sweep`
(threads, or MPI ranks with --mpi N); the rows and series become the JSON
that scripts/report.py reads.

  /usr/bin/python3 bench/drift.py --quick   # t = 100 (the quick report)
  /usr/bin/python3 bench/drift.py           # t = 1e4 (see reports/README.md for the cost)
  options: --nhs PATH (build/nhs), --t-end T, --out FILE (reports/bench/drift.json),
           --specs-dir DIR (reports/bench/sweeps), --runs-dir DIR (runs/drift), --jobs N,
           --mpi N, --samples N (200), --study NAME, --formulation NAME (repeatable),
           --stepper NAME (auto: nhs run's default for the formulation and tolerance),
           --restart (discard the sweeps' rows in --runs-dir; without it a sweep resumes)
"""
import argparse
import csv
import json
import os
import re
import sys
import time

from sweep_driver import common_arguments, listing, run_sweep, sections, studies_and_formulations


def left_out(nhs, study, negative):
    """{formulation: reason} of those that do not apply or cannot follow the
    default motion, from `nhs list STUDY`."""
    out = dict(negative)
    for name, rest in sections(listing(nhs, study)).get("formulations", []):
        if rest.startswith("not applicable: "):
            out.setdefault(name, rest[len("not applicable: "):])
        else:
            m = re.match(r"^applies \(cannot follow the motion from the default state: (.*)\)$", rest)
            if m:
                out.setdefault(name, m.group(1))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    common_arguments(p, "reports/bench/drift.json", "runs/drift")
    p.add_argument("--t-end", type=float, default=None)
    p.add_argument("--samples", type=int, default=200)
    p.add_argument("--study", action="append", default=[])
    p.add_argument("--formulation", action="append", default=[])
    p.add_argument("--stepper", default="auto")
    args = p.parse_args()
    t_end = args.t_end or (100.0 if args.quick else 1e4)
    if not t_end > 0 or args.samples < 1:
        p.error("--t-end and --samples must be positive")
    command = "bench/drift.py " + " ".join(sys.argv[1:])
    studies, formulations, negative = studies_and_formulations(args.nhs)
    for s in args.study:
        if s not in studies:
            p.error(f"--study: unknown '{s}' (known: {', '.join(studies)})")
    os.makedirs(args.specs_dir, exist_ok=True)
    os.makedirs(args.runs_dir, exist_ok=True)
    doc = {"command": command, "generated": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "engine": f"nhs sweep, {'mpirun -n %d' % args.mpi if args.mpi else '%s threads' % (args.jobs or os.cpu_count())}",
           "quick": args.quick, "t_end": t_end, "samples": args.samples, "precision": "double",
           "rtol": 1e-12, "atol": 1e-12, "stepper": args.stepper,
           "state": "each study's default state and default parameters", "skipped": [], "runs": []}
    t_all = time.monotonic()
    for study in (args.study or studies):
        skip = left_out(args.nhs, study, negative)
        chosen = [f for f in formulations if (not args.formulation or f in args.formulation)]
        doc["skipped"] += [{"study": study, "formulation": f, "reason": skip[f]} for f in chosen if f in skip]
        run = [f for f in chosen if f not in skip]
        if not run:
            continue
        spec = os.path.join(args.specs_dir, f"drift-{study}.toml")
        with open(spec, "w") as f:
            f.write("\n".join([
                f"# Constraint drift of {study}, written by bench/drift.py.",
                f"# Run: nhs sweep {study} {spec} --out DIR", "[run]", "precision = \"double\"",
                "# Each formulation's own code (not the studies' generated fields): what is compared.",
                "library = true", f"stepper = \"{args.stepper}\"", "tol = 1e-12", f"t_end = {t_end!r}",
                f"dt_out = {t_end / args.samples!r}", "",
                "[[axis]]", "name = \"formulation\"", "values = [" + ", ".join(f'"{x}"' for x in run) + "]", "",
                "[[axis]]", "name = \"project\"", "values = [false, true]", "",
                "[sweep]", "series = true",
                "metrics = [\"t_reached\", \"steps\", \"rhs_calls\", \"max_C\", \"energy_drift\", \"wall_time\"]", ""]))
        out = os.path.join(args.runs_dir, study)
        run_sweep(args.nhs, study, spec, out, args.jobs, args.mpi, args.restart, "drift")
        with open(os.path.join(out, "cases.csv")) as f:
            for row in csv.DictReader(f):
                series = {"t": [], "C": [], "energy_error": []}
                path = os.path.join(out, "series", row["case"] + ".csv")
                if os.path.exists(path):
                    with open(path) as s:
                        for x in csv.DictReader(s):
                            series["t"].append(float(x["t"]))
                            series["C"].append(float(x["max_C"]) if x["max_C"] else None)
                            series["energy_error"].append(float(x["energy_error"]) if x["energy_error"] else None)
                doc["runs"].append({
                    "study": study, "formulation": row["formulation"], "precision": "double",
                    "stepper": args.stepper, "project": row["project"] == "true", "t_end": t_end,
                    "t_reached": float(row["t_reached"]) if row["t_reached"] else None,
                    "max_C": float(row["max_C"]) if row["max_C"] else None,
                    # Empty where the energy is not a first integral: then the
                    # series' |E - E0| is the physical change, as before.
                    "energy_error": float(row["energy_drift"]) if row["energy_drift"] else
                    (max((e for e in series["energy_error"] if e is not None), default=None)),
                    "energy_conserved": bool(row["energy_drift"]) or row["status"] != "ok",
                    "rhs_calls": int(row["rhs_calls"]) if row["rhs_calls"] else None,
                    "steps": int(row["steps"]) if row["steps"] else None,
                    "wall_s": float(row["wall_s"]) if row["wall_s"] else None,
                    "status": "ok" if row["status"] == "ok" else f"failed: {row['reason']}",
                    "series": series})
        doc["wall_s"] = time.monotonic() - t_all
        with open(args.out + ".tmp", "w") as f:
            json.dump(doc, f)
        os.replace(args.out + ".tmp", args.out)
    print(f"drift: wrote {args.out} ({time.monotonic() - t_all:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
