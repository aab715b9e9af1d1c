"""The n-trailer scaling benchmark (bench_scaling, bench/fit_scaling.py).
"""
import glob
import os
import re
from collections import defaultdict

from .common import gbench_rows, generic_table, plt, read_json


def section_scaling(rep):
    # Google Benchmark JSON from bench/bench_scaling: names `<group>/<series>/N=<N>`
    # with the counters N and n (= N + 3 for the n-trailer); scaling_fit.json
    # (bench/fit_scaling.py) is a table, not benchmark output.
    files = [p for p in sorted(glob.glob(os.path.join(rep.reports, "bench", "scaling*.json")))
             if not p.endswith("_fit.json")]
    if not files:
        rep.missing.append("bench/scaling*.json (n-trailer scaling benchmark)")
        rep.md("No scaling measurements yet.")
        return
    for path in files:
        d = read_json(path)
        rows = gbench_rows(d) if isinstance(d, dict) else []
        series = defaultdict(list)
        for b in rows:
            m = re.match(r"(.*?)/N=(\d+)$", b.get("name", ""))
            if m:
                n = int(b.get("n", int(m.group(2)) + 3))
                series[m.group(1)].append((n, b.get("cpu_time")))
        name = os.path.basename(path)
        if not series:
            rep.md(f"`{name}`: format not recognised (expected Google Benchmark JSON with names "
                   f"`<series>/N=<N>`); raw:")
            generic_table(rep, d)
            continue
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for label, pts in sorted(series.items()):
            pts.sort()
            style = "o-" if label.startswith("scaling/") else "s--"
            ax.loglog([p[0] for p in pts], [p[1] for p in pts], style, ms=3, lw=1, label=label)
        unit = rows[0].get("time_unit", "")
        ax.set_xlabel("n (coordinates; N trailers, n = N + 3)")
        ax.set_ylabel(f"CPU time per call [{unit}]")
        ax.legend(fontsize=6)
        ctx = d.get("context", {})
        rep.figure(fig, f"scaling-{name[:-5]}.png",
                   f"Scaling: CPU time of one RHS (and of its parts) against n on the n-trailer, "
                   f"double, from `bench/{name}` (`bench_scaling --benchmark_out=...`, "
                   f"{ctx.get('date', '')}, load average {ctx.get('load_avg', '?')}).")
    fit = os.path.join(rep.reports, "bench", "scaling_fit.md")
    if os.path.exists(fit):
        with open(fit) as f:
            text = f.read()
        rep.md("Fitted exponents p (cost proportional to n^p), from `bench/scaling_fit.md` "
               "(`bench/fit_scaling.py`):")
        rep.md()
        rep.md(re.sub(r"^# .*\n", "", text).rstrip())
        rep.md()
