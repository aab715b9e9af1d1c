"""The cost of the vector field: closed-form ratios, SymPy, bench_rhs.
"""
import os
from collections import defaultdict

from .common import fmt, gbench_rows, generic_table, read_json


def section_costs(rep):
    bench = os.path.join(rep.reports, "bench")
    found = False
    md = os.path.join(bench, "closed_form_ratios.md")
    js = os.path.join(bench, "closed_form_ratios.json")
    if os.path.exists(md):
        found = True
        rep.md("From `bench/closed_form_ratios.md`:")
        rep.md()
        with open(md) as f:
            rep.md(f.read().rstrip())
        rep.md()
    elif os.path.exists(js):
        found = True
        rep.md("From `bench/closed_form_ratios.json`:")
        rep.md()
        generic_table(rep, read_json(js))
    else:
        rep.missing.append("bench/closed_form_ratios.{md,json} (closed-form benchmarks)")
    sp = os.path.join(bench, "sympy.json")
    if os.path.exists(sp):
        found = True
        rep.md("From `bench/sympy.json`:")
        rep.md()
        generic_table(rep, read_json(sp))
    else:
        rep.missing.append("bench/sympy.json (SymPy comparison)")
    rhs = os.path.join(bench, "rhs.json")
    if os.path.exists(rhs):
        found = True
        rows = gbench_rows(read_json(rhs))
        table = defaultdict(dict)
        for b in rows:
            parts = b["name"].split("/")
            if len(parts) >= 4 and "error_occurred" not in b:
                table[(parts[1], parts[3])][parts[2]] = b.get("cpu_time", b.get("real_time"))
        forms = sorted({f for v in table.values() for f in v})
        rep.md("Acceleration cost per call from `bench/rhs.json` (`bench_rhs`), in the benchmark's "
               "time unit, with the ratio to second-kind in parentheses:")
        rep.md()
        rep.md("| study | precision | " + " | ".join(forms) + " |")
        rep.md("|---|---|" + "---|" * len(forms))
        for (study, prec), v in sorted(table.items()):
            base = v.get("second-kind")
            cells = [f"{fmt(v[f])} ({fmt(v[f] / base, 2)})" if f in v and base else fmt(v.get(f))
                     for f in forms]
            rep.md(f"| {study} | {prec} | " + " | ".join(cells) + " |")
        rep.md()
    else:
        rep.missing.append("bench/rhs.json (`./build/bench/bench_rhs --benchmark_out=reports/bench/rhs.json`)")
    if not found:
        rep.md("No cost measurements yet.")
