"""Constraint drift with and without projection (bench/drift.py).
"""
from collections import defaultdict

from .common import LogLines, bench_json, fmt, formulation_colors, plt


def section_drift(rep):
    d = bench_json(rep, "drift.json", "run `/usr/bin/python3 bench/drift.py --quick`", "No drift measurements.")
    if d is None:
        return
    runs = d.get("runs", [])
    cmd = d.get("command", "drift")
    rep.md(f"`{cmd}` ({d.get('generated', '?')}): each study's default state, double, "
           f"{d.get('stepper', 'dopri5')}, rtol = atol = {d.get('rtol')}, to t = {d.get('t_end')}; "
           f"without and with `--project` (projection of qdot onto C after every step). "
           f"Energy error = max |E - E0| over the samples (where energy is not a first "
           f"integral, e.g. the rolling disc with viscous torque, it measures the physical "
           f"change, not an error).")
    rep.md()
    rep.md("| study | formulation | max \\|C\\| | max \\|C\\| projected | energy error | "
           "energy error projected | RHS calls | RHS calls projected | wall [s] | wall projected [s] | status |")
    rep.md("|---|---|---|---|---|---|---|---|---|---|---|")
    pairs = defaultdict(dict)
    for r in runs:
        pairs[(r["study"], r["formulation"])][bool(r["project"])] = r
    for (study, form), p in sorted(pairs.items()):
        a, b = p.get(False, {}), p.get(True, {})
        status = "; ".join(sorted({x.get("status", "?") for x in (a, b) if x}))
        note = "" if all(x.get("energy_conserved", True) for x in (a, b) if x) else " (not conserved)"
        rep.md(f"| {study} | {form} | {fmt(a.get('max_C'))} | {fmt(b.get('max_C'))} | "
               f"{fmt(a.get('energy_error'))}{note} | {fmt(b.get('energy_error'))} | "
               f"{a.get('rhs_calls', '-')} | {b.get('rhs_calls', '-')} | {fmt(a.get('wall_s'))} | "
               f"{fmt(b.get('wall_s'))} | {status} |")
    rep.md()
    for s in d.get("skipped", []):
        rep.md(f"- not run: {s['study']} {s['formulation']}: {s['reason']}")
    rep.md()
    by_study = defaultdict(list)
    for r in runs:
        by_study[r["study"]].append(r)
    for study, rs in sorted(by_study.items()):
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 4))
        ll1, ll2 = LogLines(ax1), LogLines(ax2)
        _, colors = formulation_colors(rs)
        for r in sorted(rs, key=lambda r: (r["formulation"], r["project"])):
            s = r.get("series", {})
            if not s.get("t"):
                continue
            style = "--" if r["project"] else "-"
            lab = r["formulation"] + (" projected" if r["project"] else "")
            ll1.add(s["t"], s["C"], style, color=colors[r["formulation"]], lw=1, label=lab)
            ll2.add(s["t"], s["energy_error"], style, color=colors[r["formulation"]], lw=1, label=lab)
        ll1.draw()
        ll2.draw()
        ax1.set_title(f"{study}: max_a |C^a(t)|")
        ax2.set_title(f"{study}: |E(t) - E(0)|")
        for ax in (ax1, ax2):
            ax.set_xlabel("t")
        ax1.legend(fontsize=6, ncol=2)
        rep.figure(fig, f"drift-{study}.png",
                   f"{study}: constraint residual and energy error against time, default state, "
                   f"double, {d.get('stepper', 'dopri5')} at rtol = atol = {d.get('rtol')}, to t = {d.get('t_end')}; solid "
                   f"without, dashed with `--project`. Made by `{cmd}` "
                   f"(data bench/drift.json); exact zeros are drawn a decade below the smallest "
                   f"positive value.")
