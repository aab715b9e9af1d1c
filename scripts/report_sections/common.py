"""The report's page (Report) and what its sections share: readers of
JSON, CSV and Google Benchmark files, number formatting, log-scale lines.
"""
import csv
import json
import os
import re
import traceback

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


class Report:
    def __init__(self, reports, verify_dir):
        self.reports = reports
        self.verify_dir = verify_dir
        self.figdir = os.path.join(reports, "figures")
        os.makedirs(self.figdir, exist_ok=True)
        self.lines = []
        self.missing = []
        self.problems = []
        self.figures = []

    def md(self, text=""):
        self.lines.append(text)

    def figure(self, fig, name, caption):
        path = os.path.join(self.figdir, name)
        fig.savefig(path, dpi=90, bbox_inches="tight")
        plt.close(fig)
        rel = os.path.relpath(path, self.reports)
        self.figures.append(rel)
        self.md(f"![{name}]({rel})")
        self.md()
        self.md(f"*{caption}*")
        self.md()

    def section(self, title, fn):
        self.md(f"## {title}")
        self.md()
        try:
            fn()
        except Exception as e:  # a broken input never stops the report
            self.problems.append(f"{title}: {type(e).__name__}: {e}")
            self.md(f"(section failed: `{type(e).__name__}: {e}`)")
            traceback.print_exc()
        self.md()


def read_json(path):
    with open(path) as f:
        return json.load(f)


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return [], {}
    header = rows[0]
    cols = {h: [] for h in header}
    for r in rows[1:]:
        if len(r) != len(header):
            continue
        for h, v in zip(header, r):
            try:
                cols[h].append(float(v))
            except ValueError:
                cols[h].append(float("nan"))
    return header, cols


def fmt(x, digits=3):
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    if x == 0:
        return "0"
    return f"{x:.{digits}g}"


class LogLines:
    """Buffers semilogy/loglog lines of one axes; draw() puts exact zeros
    (and values below it) at a floor a decade under the smallest positive
    value, so that they do not stretch the axis to 1e-300."""

    def __init__(self, ax, loglog=False):
        self.ax, self.loglog, self.lines = ax, loglog, []

    def add(self, x, y, *args, **kw):
        self.lines.append((list(x), [abs(v) for v in y], args, kw))

    def draw(self):
        pos = [v for _, y, _, _ in self.lines for v in y if v > 0 and v == v]
        floor = min(pos) / 10 if pos else 1e-16
        for x, y, args, kw in self.lines:
            f = self.ax.loglog if self.loglog else self.ax.semilogy
            f(x, [max(v, floor) if v == v else float("nan") for v in y], *args, **kw)
        return floor


def bench_json(rep, name, hint, absent=None):
    """reports/bench/<name> read as JSON, or None where it is missing: then
    "bench/<name> (<hint>)" is added to rep.missing and `absent`, when
    given, written in the report in place of the section."""
    path = os.path.join(rep.reports, "bench", name)
    if not os.path.exists(path):
        rep.missing.append(f"bench/{name} ({hint})")
        if absent is not None:
            rep.md(absent)
        return None
    return read_json(path)


def formulation_colors(runs):
    """The formulations of `runs` (dicts with "formulation"), sorted, and one
    tab10 colour for each, in that order."""
    forms = sorted({r["formulation"] for r in runs})
    return forms, {f: plt.cm.tab10(i % 10) for i, f in enumerate(forms)}


def verify_command(verify_dir):
    path = os.path.join(verify_dir, "summary.md")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        for line in f:
            m = re.search(r"by `([^`]*)`", line)
            if m:
                return m.group(1)
    return None


def gbench_rows(d):
    return [b for b in d.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]


def generic_table(rep, d):
    rows = d if isinstance(d, list) else d.get("rows") or d.get("runs") or d.get("results")
    if isinstance(d, dict) and rows is None:
        rows = [dict(key=k, **(v if isinstance(v, dict) else {"value": v})) for k, v in d.items()]
    if not rows or not isinstance(rows[0], dict):
        rep.md("```")
        rep.md(json.dumps(d, indent=1)[:3000])
        rep.md("```")
        return
    keys = []
    for r in rows:
        for k, v in r.items():
            if k not in keys and not isinstance(v, (list, dict)):
                keys.append(k)
    rep.md("| " + " | ".join(keys) + " |")
    rep.md("|" + "---|" * len(keys))
    for r in rows:
        rep.md("| " + " | ".join(fmt(r.get(k)) if isinstance(r.get(k), float) else str(r.get(k, "-"))
                                 for k in keys) + " |")
    rep.md()
