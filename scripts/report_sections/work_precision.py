"""Work-precision diagrams and the cheapest runs (bench/work_precision.py).
"""
import re
from collections import defaultdict

from .common import bench_json, fmt, formulation_colors, plt


def section_work_precision(rep):
    d = bench_json(rep, "work_precision.json", "run `/usr/bin/python3 bench/work_precision.py --quick`",
                   "No work-precision measurements.")
    if d is None:
        return
    runs = d.get("runs", [])
    cmd = d.get("command", "work_precision")
    rep.md(f"`{cmd}` ({d.get('generated', '?')}): error = {d.get('error')}; {d.get('tolerance')}; "
           f"RHS budget per run {d.get('max_rhs_calls')}.")
    kept = defaultdict(set)
    for r in runs:
        if r.get("from"):
            kept[r["from"]].add(f"{r['study']} {r['precision']}")
    for src, which in sorted(kept.items()):
        rep.md()
        rep.md(f"Rows kept from an earlier run ({', '.join(sorted(which))}): made by `{src}`.")
    rep.md()
    groups = defaultdict(list)
    for r in runs:
        groups[(r["study"], r["motion"])].append(r)
    steppers = ["dopri5", "fehlberg78", "bulirsch-stoer"]
    for (study, motion), rs in sorted(groups.items()):
        for xkey, xlabel, tag in (("rhs_calls", "RHS evaluations", "rhs"), ("wall_s", "wall time [s]", "wall")):
            fig, axes = plt.subplots(1, 3, figsize=(15, 4), sharey=True)
            forms, colors = formulation_colors(rs)
            precs = sorted({r["precision"] for r in rs})
            for ax, stp in zip(axes, steppers):
                for f in forms:
                    for prec in precs:
                        pts = sorted((r[xkey], r["error"]) for r in rs
                                     if r["stepper"] == stp and r["formulation"] == f
                                     and r["precision"] == prec and r.get("status") == "ok"
                                     and r.get("error") is not None and r.get(xkey))
                        if not pts:
                            continue
                        ax.loglog([p[0] for p in pts], [max(p[1], 1e-60) for p in pts],
                                  "o-" if prec == "double" else "s--", ms=3, lw=1,
                                  color=colors[f], label=f"{f} {prec}")
                ax.set_title(f"{stp}")
                ax.set_xlabel(xlabel)
            axes[0].set_ylabel(f"error at t = {fmt(rs[0].get('t_end'))}")
            axes[0].legend(fontsize=6)
            fig.suptitle(f"{study}: {motion}")
            tols = sorted({r["tol"] for r in rs}, key=lambda t: -float(t))
            safe = re.sub(r"[^A-Za-z0-9.-]+", "-", motion).strip("-")
            rep.figure(fig, f"wp-{tag}-{study}-{safe}.png",
                       f"Work-precision, {study} '{motion}': error of (q, qdot) at t_end against "
                       f"{xlabel}, one line per formulation, one panel per stepper, tolerances "
                       f"rtol = atol in {', '.join(tols)} ({', '.join(precs)}). Made by `{cmd}` "
                       f"(data bench/work_precision.json).")
    # Summary: cheapest formulation x stepper reaching a target error, per
    # precision present (double 1e-8, mp50 1e-40: the analytic bound).
    for prec, target in (("double", 1e-8), ("mp50", 1e-40)):
        mine = [r for r in runs if r["precision"] == prec]
        if not mine:
            continue
        rep.md(f"Cheapest run reaching error <= {target:g} in {prec}, per study "
               "(RHS evaluations; wall time):")
        rep.md()
        rep.md("| study | motion | formulation | stepper | tol | error | RHS calls | wall [s] |")
        rep.md("|---|---|---|---|---|---|---|---|")
        for (study, motion), rs in sorted(groups.items()):
            if not any(r["precision"] == prec for r in rs):
                continue
            ok = [r for r in rs if r.get("status") == "ok" and r["precision"] == prec
                  and r.get("error") is not None and r["error"] <= target]
            if not ok:
                rep.md(f"| {study} | {motion} | - | - | - | - | - | - |")
                continue
            b = min(ok, key=lambda r: r["rhs_calls"])
            rep.md(f"| {study} | {motion} | {b['formulation']} | {b['stepper']} | {b['tol']} | "
                   f"{fmt(b['error'])} | {b['rhs_calls']} | {fmt(b['wall_s'])} |")
        rep.md()
    failed = [r for r in runs if r.get("status", "ok") != "ok"]
    if failed:
        rep.md(f"{len(failed)} runs did not finish (RHS budget or failure); e.g. "
               + "; ".join(f"{r['study']} {r['formulation']} {r['precision']} {r['stepper']} "
                           f"tol {r['tol']}: {r['status'][:80]}" for r in failed[:5]) + ".")
