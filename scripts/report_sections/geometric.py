"""The geometric integrators against the adaptive ones (bench/geometric.py).
"""
from .common import LogLines, bench_json, fmt, plt


def section_geometric(rep):
    """bench/geometric.json: per problem, the table of invariant errors at the
    checkpoints, then the energy and work-precision figures."""
    d = bench_json(rep, "geometric.json", "run `PYTHONPATH=build/python /usr/bin/python3 bench/geometric.py`",
                   "No geometric-integrator measurements.")
    if d is None:
        return
    meta = d.get("meta", {})
    cks = [f"{c:g}" for c in meta.get("checkpoints", [])]
    rep.md(f"`{meta.get('command', 'bench/geometric.py')}`: the fixed-step discrete Lagrange-d'Alembert "
           f"steppers (dla, nh-rattle, nh-midpoint; step {meta.get('step')}) against dopri5 and "
           f"Bulirsch-Stoer on the second kind with and without `--project`, and dopri5 on the first "
           f"kind (rtol = atol = {meta.get('rtol')}), from each problem's default state to t = "
           f"{meta.get('t_end'):g}, double. Each figure is max |I(s) - I(0)| over s <= t for the energy "
           f"(the Jacobi integral: T + V, or the file's H where T has a term linear in qdot) and each "
           f"conserved invariant; docs/numerics.md, \"Geometric integrators\", says what the methods are.")
    rep.md()
    runs = d.get("long_runs", [])
    problems = list(dict.fromkeys(r["problem"] for r in runs))
    for prob in problems:
        rs = [r for r in runs if r["problem"] == prob]
        invs = sorted({k for r in rs for k, v in r.items() if isinstance(v, dict) and k not in ("series", "energy")})
        rep.md(f"**{prob}**")
        rep.md()
        head = ["method"] + [f"energy t={c}" for c in cks] + [f"{i} t={c}" for i in invs for c in cks] + \
               ["max \\|C\\|", "RHS calls", "wall [s]"]
        rep.md("| " + " | ".join(head) + " |")
        rep.md("|" + "---|" * len(head))
        for r in rs:
            if "error" in r:
                rep.md(f"| {r['method']} | refused: {r['error']} |" + " |" * (len(head) - 2))
                continue
            cells = [r["method"]] + [fmt(r["energy"].get(c)) for c in cks] + \
                    [fmt(r[i].get(c)) if i in r else "-" for i in invs for c in cks] + \
                    [fmt(r.get("max_C")), str(r.get("rhs_calls")), fmt(r.get("wall_seconds"))]
            rep.md("| " + " | ".join(cells) + " |")
        rep.md()
    if problems:
        energy_figure(rep, meta, runs, problems)
    wp = d.get("work_precision", [])
    if wp:
        work_precision_figure(rep, meta, wp)


def energy_figure(rep, meta, runs, problems):
    """The energy error of every long run against time, one panel per problem
    (geometric.json's long_runs with their series; meta: its settings)."""
    cols = 2
    rows = (len(problems) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(13, 3.6 * rows), squeeze=False)
    for ax, prob in zip(axes.flat, problems):
        ll = LogLines(ax, loglog=True)
        for r in runs:
            if r["problem"] != prob or "series" not in r:
                continue
            t, e = r["series"]["t"], r["series"]["energy"]
            style = "-" if r["method"] in ("dla", "nh-rattle", "nh-midpoint") else "--"
            ll.add(t[1:], e[1:], style, lw=1, label=r["method"])
        ll.draw()
        ax.set_title(f"{prob}: |E(t) - E(0)|", fontsize=9)
        ax.set_xlabel("t")
    for ax in list(axes.flat)[len(problems):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=6, ncol=2)
    rep.figure(fig, "geometric-energy.png",
               f"Energy error against time, double, to t = {meta.get('t_end'):g}: solid, the "
               f"geometric steppers at step {meta.get('step')}; dashed, the adaptive ones at rtol "
               f"{meta.get('rtol')}. Made by `{meta.get('command')}` (data bench/geometric.json).")


def work_precision_figure(rep, meta, wp):
    """Error against RHS calls to t = 20, one panel per case, one line per method
    (geometric.json's work_precision rows; meta: its settings)."""
    cases = list(dict.fromkeys(r["case"] for r in wp))
    cols = min(3, len(cases))
    rows = (len(cases) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6 * cols, 4.2 * rows), squeeze=False)
    for ax in list(axes.flat)[len(cases):]:
        ax.axis("off")
    for ax, case in zip(axes.flat, cases):
        ll = LogLines(ax, loglog=True)
        for name in dict.fromkeys(r["method"] for r in wp):
            pts = sorted((r["rhs_calls"], r["error"]) for r in wp if r["case"] == case and r["method"] == name)
            if pts:
                ll.add([p[0] for p in pts], [p[1] for p in pts], "o-", ms=3, lw=1, label=name)
        ll.draw()
        ax.set_xlabel("RHS calls (geometric steppers: evaluations of their equations)")
        ax.set_ylabel("max error (q, qdot) to t = 20")
        ax.set_title(case, fontsize=9)
        ax.legend(fontsize=6)
    rep.figure(fig, "geometric-work-precision.png",
               "Work-precision to t = 20 against the closed forms: each problem's special motion "
               "(docs/special-motions.md; a file's [[exact]] motion), run by `System.run(motion=...)`; "
               "the geometric steppers at steps 0.2 to 0.01, the adaptive ones at rtol 1e-4 to 1e-12. "
               f"Made by `{meta.get('work_precision_command', meta.get('command'))}`.")
