#!/usr/bin/python3
"""Writes DIR/report.md and the figures DIR/figures/*.png for `nhs check`.

Usage: scripts/check_report.py DIR        (DIR: `nhs check --out-dir`, by
                                           default runs/check/<name>)

`nhs check` runs it by itself after writing its summary (unless
--no-report); it can be rerun by hand on the same directory.

Inputs (each optional; what is missing is listed in the report, never fatal):
  DIR/summary.json         every check (formulation, precision, run, kind,
                           value, tolerance, pass) and every run (its CSV and
                           the names of the CSV's columns); written by nhs
  DIR/summary.md           used only when summary.json is missing: its
                           table and command
  DIR/trajectories/*.csv   one per run: t, q, q_dot, energy, the constraint
                           residuals (named as the system's constraints), the
                           invariants, the margins to the singular sets, and
                           "error" (max-norm distance of (q, q_dot) to the
                           closed form) for an exact motion

Output: DIR/report.md (the command, the table of checks, per run its checks
against their tolerances and its figures) and, per run, precision and
quantity, one figure against t with one line per formulation on a log axis:
the error against the exact motion, max_a |C^a|, |E - E0| (where energy is
checked: no force does work) and |I - I0| for each invariant. Exact zeros are
drawn at a floor a decade below the smallest positive value; non-finite values
are skipped. Differences E - E0 and I - I0 are taken in decimal from the CSV's
full-precision text (an mp50 run's drift of 1e-40 survives).

Without matplotlib (Debian: python3-matplotlib) the report has the tables and
a line saying that the figures need it; the exit code is 0 either way. Exit
code 2: DIR is not a directory.
"""
import csv
import decimal
import glob
import json
import math
import os
import re
import sys
import traceback
from collections import OrderedDict

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: E402

    PLOT_ERROR = None
except Exception as e:  # ImportError, or a broken installation
    plt = None
    PLOT_ERROR = f"{type(e).__name__}: {e}"

decimal.getcontext().prec = 120  # beyond mp100's digits: differences are exact enough

LINESTYLES = ["-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1))]
KIND_ORDER = ["run completed", "error vs exact", "energy drift", "work-energy balance", "max |C|",
              "invariant drift"]


def slug(s):
    """The run's name as a file name part: lower case, runs of other
    characters as one '-' (as nhs names the CSVs)."""
    out = re.sub(r"[^a-z0-9.]+", "-", s.lower()).strip("-.")
    return out or "run"


def fmt(x):
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    if not math.isfinite(x):
        return "-"
    if x == 0:
        return "0"
    return f"{x:.3g}"


def md_cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def md_table(head, rows):
    out = ["| " + " | ".join(md_cell(h) for h in head) + " |",
           "|" + "---|" * len(head)]
    for r in rows:
        out.append("| " + " | ".join(md_cell(c) for c in r) + " |")
    return out


def to_float(text):
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def to_decimal(text):
    try:
        v = decimal.Decimal(text.strip())
    except (decimal.InvalidOperation, AttributeError, ValueError):
        return None
    return v if v.is_finite() else None


def read_csv_text(path):
    """Header and the rows as text (rows of another length are dropped)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return [], []
    header = rows[0]
    return header, [r for r in rows[1:] if len(r) == len(header)]


# --- inputs ------------------------------------------------------------------


def load_summary_json(d, missing):
    path = os.path.join(d, "summary.json")
    if not os.path.exists(path):
        missing.append("summary.json (written by `nhs check`; the report falls back to summary.md)")
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        missing.append(f"summary.json unreadable ({type(e).__name__}: {e})")
        return None


def summary_from_md(d, missing):
    """A minimal summary.json from summary.md: the command and the rows of
    its table; runs from the trajectory file names (columns guessed)."""
    data = {"command": None, "rows": [], "checks": [], "runs": [], "settings": [],
            "failures": [], "notes": [], "pass": None, "system": ""}
    path = os.path.join(d, "summary.md")
    if not os.path.exists(path):
        missing.append("summary.md (run `nhs check SYSTEM --out-dir DIR`)")
    else:
        with open(path) as f:
            text = f.read()
        m = re.search(r"by `([^`]*)`", text)
        if m:
            data["command"] = m.group(1)
        m = re.search(r"^# nhs (?:check|verify) ?(\S*): (.*)$", text, re.M)
        if m:
            data["system"] = m.group(1)
            data["pass"] = m.group(2).strip() == "all checks pass"
        keys = ["study", "formulation", "precision", "qddot_disagreement",
                "reaction_disagreement", "error_vs_exact", "energy_drift", "max_C",
                "invariant_drift", "seconds", "result"]
        for line in text.splitlines():
            if not line.startswith("| ") or line.startswith("| study"):
                continue
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if len(cells) == len(keys):
                row = dict(zip(keys, cells))
                row["negative_control"] = row["result"].startswith("negative control")
                data["rows"].append(row)
    for path in sorted(glob.glob(os.path.join(d, "trajectories", "*.csv"))):
        parts = os.path.basename(path)[:-4].split(".")
        if len(parts) < 4:
            continue
        data["runs"].append({"study": parts[0], "formulation": parts[1], "precision": parts[2],
                             "run": ".".join(parts[3:]).replace("-", " "),
                             "csv": os.path.relpath(path, d), "exact": None,
                             "energy_checked": None, "completed": None, "columns": None})
    return data


def guess_columns(header):
    """Columns of a CSV without summary.json: constraints named C<k>, the
    invariants between them and the first margin."""
    if "energy" not in header:
        return {"constraints": [], "invariants": [], "invariants_conserved": []}
    rest = header[header.index("energy") + 1:]
    stop = len(rest)
    for i, h in enumerate(rest):
        if h == "error" or h.startswith("sigma_min") or h.startswith("margin"):
            stop = i
            break
    rest = rest[:stop]
    cs = [h for h in rest if re.fullmatch(r"C\d+", h)]
    invs = [h for h in rest if h not in cs]
    return {"constraints": cs, "invariants": invs, "invariants_conserved": [True] * len(invs)}


# --- series ------------------------------------------------------------------


def series(d, run):
    """The quantities of one run against t: dict name -> (t list, y list),
    with the non-finite samples left out. Names: "error", "max |C|",
    "energy", "balance" (|E - E0 - W|, where the CSV has a work column) and
    "invariant <name>"."""
    header, rows = read_csv_text(os.path.join(d, run["csv"]))
    if not header or not rows or "t" not in header:
        return {}, header
    cols = run.get("columns") or guess_columns(header)
    idx = {h: i for i, h in enumerate(header)}
    ts = [to_float(r[idx["t"]]) for r in rows]
    out = {}

    def add(name, values):
        pts = [(t, v) for t, v in zip(ts, values) if t is not None and v is not None
               and math.isfinite(v)]
        if pts:
            out[name] = ([p[0] for p in pts], [p[1] for p in pts])

    if "error" in idx:
        add("error", [to_float(r[idx["error"]]) for r in rows])
    else:  # exact columns <coordinate>_exact (and _dot_exact), when a CSV has them
        pairs = [(h[:-len("_exact")], h) for h in header
                 if h.endswith("_exact") and h[:-len("_exact")] in idx]
        if pairs:
            vals = []
            for r in rows:
                diffs = [to_decimal(r[idx[a]]) for a, _ in pairs]
                exact = [to_decimal(r[idx[b]]) for _, b in pairs]
                if any(v is None for v in diffs + exact):
                    vals.append(None)
                else:
                    vals.append(float(max(abs(a - b) for a, b in zip(diffs, exact))))
            add("error", vals)
    cs = [c for c in cols.get("constraints", []) if c in idx]
    if cs:
        vals = []
        for r in rows:
            v = [to_float(r[idx[c]]) for c in cs]
            vals.append(None if any(x is None for x in v) else max(abs(x) for x in v))
        add("max |C|", vals)

    def drift(col):
        base = None
        vals = []
        for r in rows:
            v = to_decimal(r[idx[col]])
            if v is not None and base is None:
                base = v
            vals.append(None if v is None or base is None else float(abs(v - base)))
        return vals

    if "energy" in idx and run.get("energy_checked") is not False:
        add("energy", drift("energy"))
    if "energy" in idx and "work" in idx:  # the work-energy balance E - E0 - W
        E = [to_decimal(r[idx["energy"]]) for r in rows]
        W = [to_decimal(r[idx["work"]]) for r in rows]
        E0 = next((e for e in E if e is not None), None)
        add("balance", [None if e is None or w is None or E0 is None else float(abs(e - E0 - w))
                        for e, w in zip(E, W)])
    for name in cols.get("invariants", []):
        if name in idx:
            add("invariant " + name, drift(name))
    return out, header


QUANTITY_TEXT = {
    "error": ("error", "max-norm error of (q, q_dot) vs the exact motion", "error"),
    "max |C|": ("constraint", "constraint residual max_a |C^a|", "max_a |C^a|"),
    "energy": ("energy", "energy drift |E - E0|", "|E - E0|"),
    "balance": ("balance", "work-energy balance |E - E0 - W| (W: work of the forces and reactions)",
                "|E - E0 - W|"),
}


def quantity_text(q):
    """(file name part, caption text, y label) of a quantity of series()."""
    if q in QUANTITY_TEXT:
        return QUANTITY_TEXT[q]
    name = q[len("invariant "):]
    return ("invariant-" + slug(name), f"drift of the invariant {name}",
            f"|{name} - {name}(0)|")


# --- the report --------------------------------------------------------------


class Report:
    def __init__(self, d):
        self.dir = d
        self.figdir = os.path.join(d, "figures")
        self.lines = []
        self.missing = []
        self.problems = []
        self.figures = []
        self.figure_names = set()  # lower case: unique on case-insensitive file systems too

    def md(self, text=""):
        self.lines.append(text)

    def figure_name(self, name):
        """name, or name with "-2", "-3", ... before its extension when a
        figure of this report already has that name up to case: slug()
        lowers case, so invariants omega and OMEGA share a slug."""
        stem, ext = os.path.splitext(name)
        out, k = name, 1
        while out.lower() in self.figure_names:
            k += 1
            out = f"{stem}-{k}{ext}"
        self.figure_names.add(out.lower())
        return out

    def plot(self, name, title, ylabel, lines):
        """One figure: lines = [(label, t, y)], log y, zeros at a floor;
        saved under figure_name(name) (unique in the report)."""
        if plt is None:
            return None
        name = self.figure_name(name)
        pos = [v for _, _, y in lines for v in y if v > 0]
        floor = min(pos) / 10 if pos else 1e-16
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        try:
            for k, (label, t, y) in enumerate(lines):
                # colours and dash patterns both vary: formulations that agree
                # to the last digit draw the same curve, and all stay visible
                ax.semilogy(t, [max(abs(v), floor) for v in y], color=f"C{k % 10}",
                            linestyle=LINESTYLES[k % len(LINESTYLES)], lw=1.2, label=label)
            ax.set_xlabel("t")
            ax.set_ylabel(ylabel)
            ax.set_title(title, fontsize=9)
            ax.axhline(floor, color="0.8", lw=0.5, zorder=0)
            ax.legend(fontsize=6, ncol=2)
            os.makedirs(self.figdir, exist_ok=True)
            path = os.path.join(self.figdir, name)
            fig.savefig(path, dpi=90, bbox_inches="tight")
        finally:
            plt.close(fig)
        rel = os.path.relpath(path, self.dir)
        self.figures.append(rel)
        return rel, floor


def check_cell(c):
    if c["kind"] == "run completed":
        return "yes" if c.get("pass") else "**no**: " + c.get("detail", "")
    value, tol = c.get("value"), c.get("tolerance")
    ok = c.get("pass")
    rel = "<=" if ok else ">"
    text = f"{fmt(value)} {rel} {fmt(tol)}"
    return text if ok else f"**{text}**"


def section_checks(rep, data):
    rows = data.get("rows", [])
    if not rows:
        rep.md("No checks found.")
        return
    head = ["formulation", "precision", "max qddot disagreement", "max R, lambda disagreement",
            "error vs exact", "energy drift", "max |C|", "invariant drift", "time [s]", "result"]
    keys = ["formulation", "precision", "qddot_disagreement", "reaction_disagreement",
            "error_vs_exact", "energy_drift", "max_C", "invariant_drift", "seconds", "result"]
    table = []
    for r in rows:
        cells = [fmt(r.get(k)) if not isinstance(r.get(k), str) else r.get(k) for k in keys]
        if isinstance(r.get("seconds"), (int, float)):
            cells[8] = f"{r['seconds']:.1f}"
        if cells[-1] == "FAIL":
            cells[-1] = "**FAIL**"
        table.append(cells)
    studies = sorted({r.get("study", "") for r in rows})
    rep.md("Per formulation and precision, the largest figure over the random states and the "
           "runs (as in summary.md); the tolerances are in the settings below and, run by run, "
           "in the run's table" + (f" (system: {', '.join(studies)})." if studies else "."))
    rep.md()
    rep.lines += md_table(head, table)
    rep.md()
    settings = data.get("settings", [])
    if settings:
        rep.md("Thresholds and settings (absolute figures; the run bounds are these x (1 + the "
               "quantity's scale)):")
        rep.md()
        for s in settings:
            rep.md(f"- {s.get('precision')}: qddot agreement <= {fmt(s.get('qddot_agreement'))}; "
                   f"error vs exact <= {fmt(s.get('analytic_error'))} x (1 + max |exact|); "
                   f"energy, |C|, invariant drift <= {fmt(s.get('drift'))} x (1 + scale); "
                   f"stepper {s.get('stepper')}, rtol = {fmt(s.get('rtol'))}, "
                   f"{s.get('random_states')} random states" +
                   ("; QUICK: runs cut at t = 2" if s.get("quick") else ""))
        rep.md()
    agreement = [c for c in data.get("checks", []) if c.get("run") == "random states"]
    if agreement:
        rep.md("Agreement at the random states (qddot, and reactions/multipliers where two "
               "formulations define them), value against tolerance:")
        rep.md()
        table = []
        for c in agreement:
            note = "" if c.get("counts", True) else " (negative control: not a failure)"
            table.append([c.get("formulation"), c.get("precision"), c.get("kind"),
                          check_cell(c) + note])
        rep.lines += md_table(["formulation", "precision", "check", "value vs tolerance"], table)
        rep.md()
    digits = data.get("digits", [])
    if digits:
        rep.md("Digits reached (-log10 of the worst valid formulation's figure; '-': none):")
        rep.md()

        def dg(v):
            return "-" if v is None else v if isinstance(v, str) else f"{v:.1f}"

        rep.lines += md_table(["precision", "qddot agreement", "error vs exact", "drift"],
                              [[x.get("precision"), dg(x.get("cross")), dg(x.get("analytic")),
                                dg(x.get("drift"))] for x in digits])
        rep.md()


def section_runs(rep, data):
    runs = data.get("runs", [])
    if not runs:
        rep.missing.append("trajectories/*.csv (no run recorded)")
        rep.md("No runs found.")
        return
    precisions = [s.get("precision") for s in data.get("settings", [])]
    for r in runs:
        if r["precision"] not in precisions:
            precisions.append(r["precision"])
    by_run = OrderedDict()
    for r in runs:
        by_run.setdefault(r["run"], []).append(r)
    # exact motions first (in the file's order), the default state last
    names = sorted(by_run, key=lambda n: n == "default state")
    checks = data.get("checks", [])
    used_names = set()
    for name in names:
        rs = by_run[name]
        rep.md(f"### {name}")
        rep.md()
        first = rs[0]
        ends = sorted({fmt(r.get("t_end")) for r in rs if r.get("t_end") is not None})
        kind = ("exact motion" if first.get("exact") else
                "the default state" if name == "default state" else "motion")
        rep.md(f"{kind.capitalize()}" + (f", integrated to t = {', '.join(ends)}" if ends else "") +
               f"; data `trajectories/*.{slug(name)}.csv`.")
        rep.md()
        run_checks_table(rep, name, rs, checks)
        if plt is None:
            continue
        for prec in precisions:
            run_figures(rep, name, rs, prec, used_names)
        used_names.add(slug(name))


def run_checks_table(rep, name, rs, checks):
    """The checks of the run `name` (its records rs; checks: summary.json's): one row
    per formulation x precision, one column per kind; then the invariants drawn but
    not checked. Nothing when the run has no check."""
    mine = [c for c in checks if c.get("run") == name]
    if not mine:
        return
    kinds = []
    for c in mine:
        k = c["kind"] + (f" {c['invariant']}" if c.get("invariant") else "")
        if k not in kinds:
            kinds.append(k)
    kinds.sort(key=lambda k: next((i for i, p in enumerate(KIND_ORDER) if k.startswith(p)),
                                  len(KIND_ORDER)))
    cells = OrderedDict()
    for c in mine:
        key = (c.get("formulation"), c.get("precision"))
        k = c["kind"] + (f" {c['invariant']}" if c.get("invariant") else "")
        cells.setdefault(key, {})[k] = check_cell(c)
    rep.md("Checks (value against tolerance):")
    rep.md()
    rep.lines += md_table(["formulation", "precision"] + kinds,
                          [[f, p] + [v.get(k, "-") for k in kinds]
                           for (f, p), v in cells.items()])
    rep.md()
    not_checked = [n for r in rs for n, ok in zip(
        (r.get("columns") or {}).get("invariants", []),
        (r.get("columns") or {}).get("invariants_conserved", [])) if not ok]
    if not_checked:
        rep.md("Not conserved, drawn but not checked: " +
               ", ".join(sorted(set(not_checked))) + ".")
        rep.md()


def run_figures(rep, name, rs, prec, used_names):
    """The figures of the run `name` (its records rs) in precision prec, one per
    quantity, one line per formulation; used_names: the slugs of the runs drawn
    before, to keep file names apart."""
    pr = [r for r in rs if r["precision"] == prec]
    if not pr:
        return
    per_q = OrderedDict()
    energy_skipped = False
    for r in pr:
        try:
            s, _ = series(rep.dir, r)
        except Exception as e:
            rep.problems.append(f"{r['csv']}: {type(e).__name__}: {e}")
            continue
        if r.get("energy_checked") is False:
            energy_skipped = True
        for q, (t, y) in s.items():
            per_q.setdefault(q, []).append((r["formulation"], t, y))
    if not per_q:
        return
    rep.md(f"#### {name}, {prec}")
    rep.md()
    base = slug(name)
    if base in used_names:
        base += "-" + str(len(used_names))
    for q, lines in per_q.items():
        qslug, qtext, ylabel = quantity_text(q)
        fname = f"{base}.{slug(prec)}.{qslug}.png"
        try:
            made = rep.plot(fname, f"{name} ({prec}): {qtext}", ylabel, lines)
        except Exception as e:
            rep.problems.append(f"figure {fname}: {type(e).__name__}: {e}")
            traceback.print_exc()
            continue
        if made:
            rel, floor = made
            rep.md(f"![{qtext}, {name}, {prec}]({rel})")
            rep.md()
            rep.md(f"*{name}, {prec}: {qtext} against t, one line per formulation "
                   f"(exact zeros at {floor:.1e}).*")
            rep.md()
    if energy_skipped:
        rep.md("*Energy drift not drawn where energy is not a first integral (a force "
               "or a constraint's reaction does work; energy not checked, see the notes).*")
        rep.md()


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__, file=sys.stderr if len(argv) != 2 else sys.stdout)
        return 0 if len(argv) == 2 else 2
    d = os.path.abspath(argv[1])
    if not os.path.isdir(d):
        print(f"check_report.py: error: {argv[1]} is not a directory", file=sys.stderr)
        return 2
    rep = Report(d)
    data = load_summary_json(d, rep.missing)
    if data is None:
        data = summary_from_md(d, rep.missing)
    for old in glob.glob(os.path.join(rep.figdir, "*.png")):
        os.remove(old)

    for title, fn in (("Checks", section_checks), ("Runs", section_runs)):
        rep.md(f"## {title}")
        rep.md()
        try:
            fn(rep, data)
        except Exception as e:  # a broken input never stops the report
            rep.problems.append(f"{title}: {type(e).__name__}: {e}")
            rep.md(f"(section failed: `{type(e).__name__}: {e}`)")
            traceback.print_exc()
        rep.md()
    body = rep.lines

    system = data.get("system") or ", ".join(sorted({r.get("study", "") for r in data.get("rows", [])}))
    verdict = {True: "all checks pass", False: "FAILURES"}.get(data.get("pass"), "")
    command = data.get("command")
    head = [f"# nhs check {system or 'report'}" + (f": {verdict}" if verdict else ""), ""]
    made_by = (f"Made by `{command}`" if command else "Made by `nhs check`") + \
        (f" ({data['generated']})" if data.get("generated") else "") + \
        "; this report by `scripts/check_report.py " + argv[1] + "` from " + \
        ("summary.json" if data.get("tool") else "summary.md") + " and trajectories/*.csv."
    head += [made_by, ""]
    if plt is None:
        head += ["Figures need python3-matplotlib (Debian: `apt-get install python3-matplotlib`; "
                 f"here: {PLOT_ERROR}); the tables below are complete.", ""]
    else:
        head += [f"{len(rep.figures)} figures under `figures/`: per run and precision, one per "
                 "quantity against t, one line per formulation, log scale.", ""]
    if rep.missing:
        head += ["Inputs not found:", ""] + [f"- {m}" for m in rep.missing] + [""]
    if rep.problems:
        head += ["Problems (parts left out):", ""] + [f"- {p}" for p in rep.problems] + [""]
    if data.get("failures"):
        head += ["## Failures", ""] + [f"- {f}" for f in data["failures"]] + [""]
    tail = []
    if data.get("notes"):
        tail += ["## Notes", ""] + [f"- {n}" for n in data["notes"]] + [""]
    with open(os.path.join(d, "report.md"), "w") as f:
        f.write("\n".join(head + body + tail).rstrip() + "\n")
    print(f"check_report.py: wrote {os.path.join(d, 'report.md')} and {len(rep.figures)} figures",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
