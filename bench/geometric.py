#!/usr/bin/python3
"""Geometric integrators against the adaptive steppers, on the test problems
of the literature (docs/numerics.md, "Geometric integrators").

For each problem and method:
  - the long-time run: the energy error and each conserved invariant's
    error, max |I(s) - I(0)| over s <= t, at t = 1e3, 1e4, 1e5 (--quick:
    1e2, 1e3), max |C|, RHS calls and wall time;
  - work-precision at t = 20 against closed forms (the contact oscillator
    with x frozen, McLachlan & Perlmutter's Ex. 5.2 with eps = 2; the knife
    edge turning on an incline, examples/knife-edge-incline.toml).
Methods: dla, nh-rattle, nh-midpoint at a fixed step; dopri5 and
Bulirsch-Stoer (second kind) with and without --project; dopri5 on the
first-kind field. The runs go through the Python module (System.run), two
at a time on threads (it releases the GIL).

Writes <out>/bench/geometric.json and .md (out: reports, or runs for a
quick report); scripts/report.py draws its figures in the report's section
"Geometric integrators".
Usage: PYTHONPATH=build/python /usr/bin/python3 bench/geometric.py [--quick] [--jobs N]
"""
import argparse
import concurrent.futures as cf
import json
import math
import os
import sys
import time

import numpy as np

import nhs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def problems():
    """(key, system, energy column, label): the energy column is the Jacobi
    integral: 'energy' (T + V) where T is quadratic, the file's invariant H
    for the non-reversible contact oscillator."""
    return [
        ("contact-oscillator", nhs.study("contact-oscillator"), "energy",
         "contact oscillator (McLachlan & Perlmutter Ex. 5.2), reversible"),
        ("contact-oscillator-nr",
         nhs.load(os.path.join(ROOT, "bench/geometric/contact-oscillator-nonreversible.toml")), "H",
         "contact oscillator, Modin & Verdier's non-reversible perturbation"),
        ("rolling-disc", nhs.study("rolling-disc"), "energy", "vertical rolling disc"),
        ("skate", nhs.study("skate"), "energy", "skate (Chaplygin sleigh without offset)"),
        ("chaplygin-sleigh", nhs.load(os.path.join(ROOT, "examples/chaplygin-sleigh.toml")), "energy",
         "Chaplygin sleigh"),
        ("n-trailer", nhs.study("n-trailer"), "energy", "N-trailer (N = 3)"),
    ]


def methods(step, rtol):
    """(name, run keyword arguments)."""
    return [
        ("dla", dict(stepper="dla", step=step)),
        ("nh-rattle", dict(stepper="nh-rattle", step=step)),
        ("nh-midpoint", dict(stepper="nh-midpoint", step=step)),
        ("dopri5", dict(stepper="dopri5", rtol=rtol, formulation="second-kind")),
        ("dopri5 --project", dict(stepper="dopri5", rtol=rtol, formulation="second-kind", project=True)),
        ("bulirsch-stoer", dict(stepper="bulirsch-stoer", rtol=rtol, formulation="second-kind")),
        ("bulirsch-stoer --project",
         dict(stepper="bulirsch-stoer", rtol=rtol, formulation="second-kind", project=True)),
        ("dopri5 first-kind", dict(stepper="dopri5", rtol=rtol, formulation="first-kind")),
    ]


def long_run(problem, method, t_end, dt_out, checkpoints):
    key, system, energy_col, _ = problem
    name, kw = method
    t0 = time.perf_counter()
    try:
        run = system.run(t_end=t_end, dt_out=dt_out, **kw)
    except nhs.Error as e:
        return {"problem": key, "method": name, "error": str(e).splitlines()[0][:200]}
    wall = time.perf_counter() - t0
    t = np.asarray(run.t, dtype=float)
    out = {"problem": key, "method": name, "rhs_calls": run.summary["rhs_calls"],
           "steps": run.summary["steps"], "wall_seconds": wall,
           "max_C": float(run.summary["max_C"]), "stepper": run.summary["stepper"]}
    columns = {"energy": energy_col}
    for inv, d in run.summary["invariants"].items():
        if d["conserved"] and inv != energy_col:
            columns[inv] = inv
    series = {}
    for label, col in columns.items():
        values = np.asarray(run[col], dtype=float)
        drift = np.abs(values - values[0])
        running = np.fmax.accumulate(np.nan_to_num(drift, nan=0.0))
        out[label] = {f"{c:g}": float(running[np.searchsorted(t, c, side="right") - 1]) for c in checkpoints}
        series[label] = drift
    out["series"] = envelope(t, series)
    return out


def envelope(t, series, points=300):
    """The series at about `points` log-spaced times, each value the largest
    over its bin (so that the drawn curve keeps every peak): the JSON stays
    small for runs of 1e4 samples."""
    edges = np.unique(np.searchsorted(t, np.geomspace(max(t[1], 1e-12), t[-1], points)))
    starts = np.concatenate(([1], edges[:-1] + 1))
    keep = [(a, b) for a, b in zip(starts, edges + 1) if b > a]
    out = {"t": [float(t[b - 1]) for a, b in keep]}
    for k, v in series.items():
        out[k] = [float(np.nanmax(v[a:b])) if np.any(np.isfinite(v[a:b])) else float("nan") for a, b in keep]
    return out


# Work-precision against the closed forms: each problem's special motion
# (docs/special-motions.md; a file's [[exact]] motion), run by
# System.run(motion=...), to t = 20 at most; the error is the run's
# max_error (max-norm over q and qdot at the outputs, every 0.5).
WP_MOTIONS = [
    ("contact-oscillator", "study", "contact-oscillator", 1),
    ("rolling-disc", "study", "rolling-disc", 1),
    ("skate", "study", "skate", 1),
    ("knife edge on an incline", "file", "examples/knife-edge-incline.toml", 1),
    ("chaplygin-sleigh", "file", "examples/chaplygin-sleigh.toml", 1),
    ("n-trailer", "study", "n-trailer", 2),
]


def work_precision_cases():
    out = []
    for label, kind, name, motion in WP_MOTIONS:
        system = nhs.study(name) if kind == "study" else nhs.load(os.path.join(ROOT, name))
        out.append((f"{label}: {system.motions()[motion - 1]}", system, motion))
    return out


def work_precision(case, name, kw):
    label, system, motion = case
    t0 = time.perf_counter()
    run = system.run(motion=motion, t_end=20, dt_out=0.5, **kw)
    wall = time.perf_counter() - t0
    return {"case": label, "method": name, "rhs_calls": run.summary["rhs_calls"],
            "error": float(run.summary["max_error"]), "wall_seconds": wall,
            **{k: v for k, v in kw.items() if k in ("step", "rtol")}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="to t = 1e3 (checkpoints 1e2, 1e3)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--step", type=float, default=0.05, help="the geometric steppers' step")
    ap.add_argument("--rtol", type=float, default=1e-6, help="the adaptive steppers' rtol = atol")
    ap.add_argument("--out", default=os.path.join(ROOT, "reports"))
    ap.add_argument("--wp-only", action="store_true",
                    help="rerun only the work-precision part, into the existing <out>/bench/geometric.json")
    args = ap.parse_args()
    command = "PYTHONPATH=build/python /usr/bin/python3 bench/geometric.py" + (" --quick" if args.quick else "")
    t_end = 1e3 if args.quick else 1e5
    checkpoints = [1e2, 1e3] if args.quick else [1e3, 1e4, 1e5]
    dt_out = 1.0 if args.quick else 10.0
    probs = problems()
    meths = methods(args.step, args.rtol)
    results = []
    if args.wp_only:
        with open(os.path.join(args.out, "bench", "geometric.json")) as f:
            previous = json.load(f)
        results, meta0 = previous["long_runs"], previous["meta"]
        t_end, checkpoints, dt_out = meta0["t_end"], meta0["checkpoints"], meta0["dt_out"]
        command = meta0["command"]
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        futures = [] if args.wp_only else \
            [pool.submit(long_run, p, m, t_end, dt_out, checkpoints) for p in probs for m in meths]
        for f in cf.as_completed(futures):
            r = f.result()
            results.append(r)
            print(f"{r['problem']:>22} {r['method']:<26} "
                  + (r.get("error") or f"E({checkpoints[-1]:g}) = {r['energy'][f'{checkpoints[-1]:g}']:.2e}, "
                     f"{r['rhs_calls']} RHS calls, {r['wall_seconds']:.1f} s"), file=sys.stderr)
    order = {(p[0], m[0]): i for i, (p, m) in enumerate((p, m) for p in probs for m in meths)}
    results.sort(key=lambda r: order.get((r["problem"], r["method"]), len(order)))

    wp = []
    steps = [0.2, 0.1, 0.05, 0.02, 0.01]
    tols = [1e-4, 1e-6, 1e-8, 1e-10, 1e-12]
    jobs = []
    for case in work_precision_cases():
        for name in ("dla", "nh-rattle", "nh-midpoint"):
            for h in steps:
                jobs.append((case, name, dict(stepper=name, step=h)))
        for name, kw in (("dopri5", dict(stepper="dopri5")), ("bulirsch-stoer", dict(stepper="bulirsch-stoer")),
                         ("dopri5 --project", dict(stepper="dopri5", project=True))):
            for tol in tols:
                jobs.append((case, name, dict(kw, rtol=tol, formulation="second-kind")))
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        wp = list(pool.map(lambda j: work_precision(*j), jobs))

    os.makedirs(os.path.join(args.out, "bench"), exist_ok=True)
    meta = {"command": command, "step": args.step, "rtol": args.rtol, "t_end": t_end,
            "checkpoints": checkpoints, "dt_out": dt_out,
            "work_precision_command": command.split(" bench/geometric.py")[0] + " bench/geometric.py --wp-only"
            if args.wp_only else command}
    with open(os.path.join(args.out, "bench", "geometric.json"), "w") as f:
        for r in results:  # 4 digits are what the figures draw
            if "series" in r and not args.wp_only:
                r["series"] = {k: [float(f"{x:.4g}") for x in v] for k, v in r["series"].items()}
        json.dump({"meta": meta, "long_runs": results, "work_precision": wp}, f, separators=(",", ":"))
    write_markdown(args, meta, probs, results, wp, checkpoints)


def fmt(x):
    return "-" if x is None else f"{x:.1e}"


def write_markdown(args, meta, probs, results, wp, checkpoints):
    lines = [f"# Geometric integrators: long runs and work-precision", "",
             f"Made by `{meta['command']}` (the table in reports/README.md, \"Geometric integrators\", "
             f"says what it shows). Fixed step {args.step} for dla, nh-rattle, nh-midpoint; rtol = atol = "
             f"{args.rtol} for the adaptive steppers; output every {meta['dt_out']:g}. Each figure is "
             f"max |I(s) - I(0)| over s <= t.", ""]
    for key, _, energy_col, label in probs:
        rows = [r for r in results if r["problem"] == key]
        invs = sorted({k for r in rows if "error" not in r for k in r if isinstance(r.get(k), dict)
                       and k not in ("series",)} - {"energy"})
        lines += [f"## {label} (`{key}`)", ""]
        head = ["method"] + [f"energy t={c:g}" for c in checkpoints] + \
               [f"{i} t={checkpoints[-1]:g}" for i in invs] + ["max abs C", "RHS calls", "wall s"]
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in rows:
            if "error" in r:
                lines.append(f"| {r['method']} | refused: {r['error']} |")
                continue
            cells = [r["method"]] + [fmt(r["energy"][f"{c:g}"]) for c in checkpoints] + \
                    [fmt(r[i][f"{checkpoints[-1]:g}"]) if i in r else "-" for i in invs] + \
                    [fmt(r["max_C"]), str(r["rhs_calls"]), f"{r['wall_seconds']:.1f}"]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["## Work-precision to t = 20 against the closed forms (special motions)", "",
              f"Made by `{meta['work_precision_command']}`.", "",
              "| case | method | step or rtol | RHS calls | max error (q, qdot) |", "|---|---|---|---|---|"]
    for r in wp:
        knob = f"h = {r['step']:g}" if "step" in r else f"rtol = {r['rtol']:g}"
        lines.append(f"| {r['case']} | {r['method']} | {knob} | {r['rhs_calls']} | {r['error']:.2e} |")
    with open(os.path.join(args.out, "bench", "geometric.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
