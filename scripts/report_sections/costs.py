"""The cost of the vector field: closed-form ratios, SymPy, bench_rhs.
"""
import os
from collections import defaultdict

from .common import fmt, gbench_rows, generic_table, read_json


def json_table(rep, bench, name):
    """bench/<name> as a table (generic_table) under "From `bench/<name>`:"; False
    when the file does not exist."""
    path = os.path.join(bench, name)
    if not os.path.exists(path):
        return False
    rep.md(f"From `bench/{name}`:")
    rep.md()
    generic_table(rep, read_json(path))
    return True


def rhs_table(rep, path):
    """The acceleration cost per call of bench_rhs's JSON at path: one row per study
    and precision, one column per formulation, with the ratio to second-kind."""
    rows = gbench_rows(read_json(path))
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


def section_costs(rep):
    """The closed-form ratios (their Markdown, else their JSON), the SymPy comparison
    and bench_rhs's costs, each named among the missing inputs when absent."""
    bench = os.path.join(rep.reports, "bench")
    found = False
    md = os.path.join(bench, "closed_form_ratios.md")
    if os.path.exists(md):
        found = True
        rep.md("From `bench/closed_form_ratios.md`:")
        rep.md()
        with open(md) as f:
            rep.md(f.read().rstrip())
        rep.md()
    elif json_table(rep, bench, "closed_form_ratios.json"):
        found = True
    else:
        rep.missing.append("bench/closed_form_ratios.{md,json} (closed-form benchmarks)")
    if json_table(rep, bench, "sympy.json"):
        found = True
    else:
        rep.missing.append("bench/sympy.json (SymPy comparison)")
    rhs = os.path.join(bench, "rhs.json")
    if os.path.exists(rhs):
        found = True
        rhs_table(rep, rhs)
    else:
        rep.missing.append("bench/rhs.json (`./build/bench/bench_rhs --benchmark_out=reports/bench/rhs.json`)")
    if not found:
        rep.md("No cost measurements yet.")
