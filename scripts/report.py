#!/usr/bin/python3
"""Regenerates reports/REPORT.md and the figures under reports/figures/ from
the outputs of `nhs verify` and of the measurement programs.

Inputs (each optional; missing ones are listed in the report, never fatal):
  <verify-dir>/summary.md                 nhs verify's table (cross-validation)
  <verify-dir>/trajectories/*.csv         nhs verify's runs, named
                                          <study>.<formulation>.<precision>.<motion>.csv,
                                          columns t, q, q_dot, energy, the constraint
                                          residuals (the system's constraint names:
                                          C1..Cr for the built-in studies),
                                          invariants, margins[, error]
  <verify-dir>/summary.json               which of those columns are constraints,
                                          invariants and margins (per run)
  <verify-dir>/studies/*.csv              study-specific curves (t or x first
                                          column, then named series), e.g. the
                                          bipendulum's special motions; see EXPECTED_STUDY_CSV
  <verify-dir>/studies/bipendulum_findings.json
                                          the parameters each findings CSV was made with
                                          (`nhs findings`), read by the captions
  reports/bench/drift.json                bench/drift.py (nhs sweep; max |C|, energy error,
                                          with and without --project)
  reports/bench/work_precision.json       bench/work_precision.py (nhs sweep)
  reports/bench/rhs.json                  bench_rhs (Google Benchmark JSON)
  reports/bench/closed_form_ratios.{md,json}, reports/bench/sympy.json
  reports/bench/scaling*.json             scaling benchmark (Google Benchmark JSON)

Usage: scripts/report.py [--verify-dir DIR] [--reports DIR]
Runs with Debian's python3 and python3-matplotlib (Agg backend).
Raises nothing on missing or malformed inputs: each section catches its own
errors and reports them in REPORT.md.
"""
import argparse
import csv
import glob
import json
import math
import os
import re
import sys
import traceback
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Study CSV files the lead adds under <verify-dir>/studies/ (glob patterns
# and what they show). The report plots every CSV found there and lists
# the expected ones that are missing.
# Written by `nhs findings` (apps/nhs/findings.cpp); plotted by
# section_bipendulum. The bipendulum's special motions come with every other
# study's from verify's trajectories.
EXPECTED_STUDY_CSV = [
    ("bipendulum_symmetric_pendulum.csv", "symmetric bipendulum against the simple pendulum"),
    ("bipendulum_near_singular.csv", "digits kept per precision near the singular turning point"),
    ("bipendulum_epsilon_circle.csv", "the epsilon-limit of the circle of eq. 89"),
    ("bipendulum_epsilon_circle_paths.csv", "P1's paths for each epsilon"),
    ("bipendulum_linear_nonlinear.csv", "linear vs non-linear bipendulum (Hertz's limit)"),
    ("bipendulum_energy_separation.csv", "energy separation T_k + V_k, eqs. 85-86"),
]
FINDINGS_CMD = "nhs findings"
BICYCLE_CMD = ("nhs stability examples/bicycle/whipple-bicycle.toml --steady upright --from 0 --to 10 "
               "--points 201 --csv bench/bicycle_stability.csv > bench/bicycle_stability.json")

TINY = 1e-300  # floor for log plots (exact zeros)


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


def clamp(values):
    return [max(abs(v), TINY) if v == v else float("nan") for v in values]


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


# --- trajectories of nhs verify ---------------------------------------------


def trajectory_files(verify_dir):
    out = []
    for path in sorted(glob.glob(os.path.join(verify_dir, "trajectories", "*.csv"))):
        base = os.path.basename(path)[:-4]
        parts = base.split(".")
        if len(parts) < 4:
            continue
        # the motion slug may contain dots (e.g. "incline-g-2.5")
        study, formulation, precision = parts[0], parts[1], parts[2]
        motion = ".".join(parts[3:])
        out.append(dict(path=path, study=study, formulation=formulation, precision=precision,
                        motion=motion))
    return out


def run_columns(verify_dir):
    """csv path -> the CSV's column roles from summary.json ({"constraints",
    "invariants", "margins"}); empty when summary.json is missing."""
    try:
        data = read_json(os.path.join(verify_dir, "summary.json"))
    except (OSError, ValueError):
        return {}
    return {os.path.join(verify_dir, r["csv"]): r.get("columns", {}) for r in data.get("runs", [])
            if "csv" in r}


def split_columns(header, roles):
    """The constraint and invariant columns of a trajectory CSV: from
    summary.json's roles, else C<k> after energy as constraints and the
    columns before the margins (sigma_min_dC_dqdot, margin_*) as invariants."""
    if roles:
        return ([h for h in roles.get("constraints", []) if h in header],
                [h for h in roles.get("invariants", []) if h in header])
    rest = header[header.index("energy") + 1:]
    cs = [h for h in rest if re.fullmatch(r"C\d+", h)]
    invs = []
    for h in rest[len(cs):]:
        if h == "error" or h.startswith("sigma_min") or h.startswith("margin"):
            break
        invs.append(h)
    return cs, invs


def section_special_motions(rep):
    files = [f for f in trajectory_files(rep.verify_dir) if f["motion"] != "default-state"]
    cmd = verify_command(rep.verify_dir) or "nhs verify"
    if not files:
        rep.missing.append(f"{rep.verify_dir}/trajectories/*.csv (run `nhs verify`)")
        rep.md("No trajectories found.")
        return
    by_motion = defaultdict(list)
    for f in files:
        by_motion[(f["study"], f["motion"])].append(f)
    for (study, motion), fs in sorted(by_motion.items()):
        # Path of the first two coordinates for one run; error against the
        # closed form for every formulation x precision.
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
        ref = next((f for f in fs if f["precision"] == "double"), fs[0])
        header, cols = read_csv(ref["path"])
        if len(header) < 3:
            plt.close(fig)
            continue
        ax1.plot(cols[header[1]], cols[header[2]], "-", lw=1)
        ax1.set_xlabel(header[1])
        ax1.set_ylabel(header[2])
        ax1.set_title(f"{study}: {motion} ({ref['formulation']}, {ref['precision']})")
        ax1.set_aspect("equal", adjustable="datalim")
        ll = LogLines(ax2)
        for f in sorted(fs, key=lambda f: (f["precision"], f["formulation"])):
            h, c = read_csv(f["path"])
            if "error" not in c:
                continue
            ll.add(c["t"], c["error"], "-" if f["precision"] == "double" else "--",
                   lw=1, label=f"{f['formulation']} {f['precision']}")
        ll.draw()
        ax2.set_xlabel("t")
        ax2.set_ylabel("max-norm error vs closed form")
        ax2.set_title("error along the motion")
        ax2.legend(fontsize=6, ncol=2)
        precisions = sorted({f["precision"] for f in fs})
        rep.figure(fig, f"special-{study}-{motion}.png",
                   f"{study}, special motion '{motion}': path ({header[1]}, {header[2]}) and the "
                   f"max-norm error of (q, qdot) against the closed form at the output samples, "
                   f"every formulation, precisions {', '.join(precisions)}. Made by `{cmd}` "
                   f"(double: dopri5, rtol = atol = 1e-14; mp50: bulirsch-stoer, 1e-36; see the "
                   f"summary's settings); data {os.path.relpath(rep.verify_dir, rep.reports)}"
                   f"/trajectories/{study}.*.{motion}.csv.")


def section_energy(rep):
    files = trajectory_files(rep.verify_dir)
    cmd = verify_command(rep.verify_dir) or "nhs verify"
    if not files:
        rep.md("No trajectories found.")
        return
    by_study = defaultdict(list)
    for f in files:
        if f["motion"] == "default-state":
            by_study[f["study"]].append(f)
    for study, fs in sorted(by_study.items()):
        fig, axes = plt.subplots(1, 3, figsize=(15, 4))
        lls = [LogLines(ax) for ax in axes]
        inv_names = []
        roles = run_columns(rep.verify_dir)
        for f in sorted(fs, key=lambda f: (f["precision"], f["formulation"])):
            header, c = read_csv(f["path"])
            if "energy" not in c or not c["t"]:
                continue
            style = "-" if f["precision"] == "double" else "--"
            lab = f"{f['formulation']} {f['precision']}"
            E0 = c["energy"][0]
            lls[0].add(c["t"], [e - E0 for e in c["energy"]], style, lw=1, label=lab)
            cs, invs = split_columns(header, roles.get(f["path"]))
            inv_names = invs
            cmax = [max(abs(c[h][k]) for h in cs) if cs else 0 for k in range(len(c["t"]))]
            lls[1].add(c["t"], cmax, style, lw=1, label=lab)
            if invs:
                dev = [max(abs(c[h][k] - c[h][0]) for h in invs) for k in range(len(c["t"]))]
                lls[2].add(c["t"], dev, style, lw=1, label=lab)
        for ll in lls:
            ll.draw()
        axes[0].set_title(f"{study}: |E(t) - E(0)|")
        axes[1].set_title("max_a |C^a(t)|")
        axes[2].set_title("max |I(t) - I(0)| over the invariants" +
                          (f" ({', '.join(inv_names)})" if inv_names else " (none)"))
        for ax in axes:
            ax.set_xlabel("t")
        axes[0].legend(fontsize=6, ncol=2)
        rep.figure(fig, f"energy-{study}.png",
                   f"{study}, default state: energy error |E - E0|, constraint residual max |C| "
                   f"and the drift of the study's invariants (separate energies and momenta where "
                   f"the study defines them; some are not conserved, e.g. with friction) against "
                   f"time, every formulation and precision (solid: double, dashed: mp50; exact "
                   f"zeros are drawn a decade below the smallest positive value). Made "
                   f"by `{cmd}`; data {os.path.relpath(rep.verify_dir, rep.reports)}"
                   f"/trajectories/{study}.*.default-state.csv.")


def section_study_csv(rep):
    d = os.path.join(rep.verify_dir, "studies")
    files = sorted(glob.glob(os.path.join(d, "*.csv")))
    rel = os.path.relpath(d, rep.reports)
    for pattern, what in EXPECTED_STUDY_CSV:
        if not any(glob.fnmatch.fnmatch(os.path.basename(p), pattern) for p in files):
            rep.missing.append(f"{rel}/{pattern}: {what}")
    if not files:
        rep.md(f"No study CSV files in `{rel}/` yet (expected: "
               + "; ".join(w for _, w in EXPECTED_STUDY_CSV) + ").")
        return
    known = {p for p, _ in EXPECTED_STUDY_CSV}
    for path in files:
        if os.path.basename(path) in known:
            continue  # plotted by section_bipendulum
        header, c = read_csv(path)
        if len(header) < 2:
            continue
        series = header[1:7]
        fig, ax = plt.subplots(figsize=(7, 4))
        positive = all(v > 0 for h in series for v in c[h] if v == v)
        for h in series:
            (ax.semilogy if positive else ax.plot)(c[header[0]], c[h], lw=1, label=h)
        ax.set_xlabel(header[0])
        ax.legend(fontsize=7)
        name = os.path.basename(path)[:-4]
        ax.set_title(name)
        rep.figure(fig, f"study-{name}.png",
                   f"{name}: columns {', '.join(series)} against {header[0]}, from "
                   f"{rel}/{os.path.basename(path)} (see the study's documentation for the "
                   f"command, precision and tolerance that made it).")


# --- bipendulum findings ---------------------------------------------------------


def _pos(v):
    return [x if x == x and x > 0 else float("nan") for x in v]


FINDINGS_META = "bipendulum_findings.json"


class FindingParameters:
    """The parameters one findings CSV was made with, as `nhs findings` wrote
    them into bipendulum_findings.json next to the CSVs (text values: "0.8",
    "(1.2, 0.3)", "1e-13"). A missing key reads "?" and is listed once in the
    report's problems, so that a caption never states a figure the data did
    not carry."""

    def __init__(self, rep, name, values):
        self.rep, self.name, self.values = rep, name, values

    def __getitem__(self, key):
        if key in self.values:
            return self.values[key]
        self.rep.problems.append(f"bipendulum findings: {self.name} carries no parameter '{key}'")
        return "?"

    def point(self, key):
        """A point "(x, y)" as floats, or None."""
        try:
            x, y = self.values[key].strip("()").split(",")
            return float(x), float(y)
        except (KeyError, ValueError):
            return None


def read_finding_parameters(rep, d):
    """{csv name: FindingParameters} from <d>/bipendulum_findings.json ({} when
    missing or malformed: the captions then show "?")."""
    path = os.path.join(d, FINDINGS_META)
    try:
        tables = read_json(path)["tables"]
        return {f: FindingParameters(rep, f, t.get("parameters", {})) for f, t in tables.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        rep.problems.append(f"bipendulum findings: {path} unreadable ({type(e).__name__}: {e})")
        return {}


def section_bipendulum(rep):
    d = os.path.join(rep.verify_dir, "studies")
    rel = os.path.relpath(d, rep.reports)
    params = read_finding_parameters(rep, d)

    def load(name):
        path = os.path.join(d, name)
        if not os.path.exists(path):
            rep.md(f"`{rel}/{name}` missing (run `{FINDINGS_CMD} --out-dir {rep.verify_dir}`).")
            rep.md()
            return None, None, None
        return (*read_csv(path), params.get(name, FindingParameters(rep, name, {})))

    rep.md("Made by `" + FINDINGS_CMD + "` (apps/nhs/findings.cpp, "
           "studies/bipendulum_findings.cpp); the same library functions, from the same setups, "
           "are asserted in tests/test_bipendulum.cpp. Every figure in the captions below is "
           f"read from {rel}/{FINDINGS_META}, written with the data.")
    rep.md()
    h, c, p = load("bipendulum_symmetric_pendulum.csv")
    if h:
        fig, (a0, a1) = plt.subplots(1, 2, figsize=(10, 3.6))
        a0.plot(c["t_over_quarter_period"], c["theta_exact"], lw=1)
        a0.set_xlabel("t / (T/4)")
        a0.set_ylabel("theta (exact, Jacobi sn)")
        a1.semilogy(c["t_over_quarter_period"], _pos(c["error_double"]), lw=1,
                    label=f"max error vs pendulum ({p['precision']})")
        a1.semilogy(c["t_over_quarter_period"], _pos(c["sigma_min_dC_dqdot"]), lw=1,
                    label="sigma_min(dC/dqdot)")
        a1.axvline(1.0, color="k", lw=0.5, ls=":")
        a1.set_xlabel("t / (T/4)")
        a1.legend(fontsize=7)
        rep.figure(fig, "bipendulum-symmetric-pendulum.png",
                   f"Symmetric bipendulum (m1 = m2 = {p['m']}, g = {p['g']}, l = {p['l']}, "
                   f"amplitude {p['amplitude']} rad) against the exact pendulum "
                   "theta(t) = 2 asin(k sn(omega t | k)), up to "
                   f"{p['fraction']} T/4 (T/4 = {p['quarter_period']}): the error and the margin "
                   "sigma_min(dC/dqdot), which vanishes at the turning point T/4 (v = 0, eq. 72c: "
                   f"the motion meets the singular set). {p['formulation']}, {p['precision']}, "
                   f"rtol = atol = {p['rtol']}. Data {rel}/bipendulum_symmetric_pendulum.csv.")
    h, c, p = load("bipendulum_near_singular.csv")
    if h:
        x = c["one_minus_fraction"]
        fig, ax = plt.subplots(figsize=(6.5, 4))
        ax.loglog(x, _pos(c["error_double"]), "o-", lw=1,
                  label=f"error, double (rtol {p['rtol.double']})")
        ax.loglog(x, _pos(c["error_mp50"]), "s-", lw=1,
                  label=f"error, mp50 (rtol {p['rtol.mp50']})")
        ax.loglog(x, _pos(c["sigma_min_double"]), ":", lw=1, label="sigma_min(dC/dqdot)")
        ax.set_xlabel("1 - t / (T/4)")
        ax.invert_xaxis()
        ax.legend(fontsize=7)
        rep.figure(fig, "bipendulum-near-singular.png",
                   "Accuracy of the symmetric motion (m1 = m2 = "
                   f"{p['m']}, g = {p['g']}, l = {p['l']}, amplitude {p['amplitude']} rad) as it "
                   "approaches the singular turning point: max error against the exact pendulum "
                   f"at t = (1 - x) T/4, x = {p['one_minus_fraction']}, per precision "
                   f"({p['precisions']}; {p['formulation']}). "
                   f"Data {rel}/bipendulum_near_singular.csv.")
    h, c, p = load("bipendulum_epsilon_circle.csv")
    if h:
        fig, ax = plt.subplots(figsize=(6.5, 4))
        t_end = p["t_end"]
        ax.loglog(c["epsilon"], c["distance_from_eq89"], "o-",
                  label=f"|P1({t_end}) - P1_89({t_end})|")
        ax.loglog(c["epsilon"], c["radial_distance"], "s-", label="radial distance from the circle")
        ax.loglog(c["epsilon"], c["min_sigma_dC_dqdot"], "^-", label="min sigma_min(dC/dqdot)")
        ax.set_xlabel("epsilon (v2(0) = (0, epsilon))")
        ax.legend(fontsize=7)
        rep.figure(fig, "bipendulum-epsilon-circle.png",
                   "The circle of 000 eq. 89 as the epsilon -> 0 limit of regular motions (m1 = "
                   f"{p['m1']}, m2 = {p['m2']}, g = {p['g']}, x2 = 0, P2 = P0 = {p['P0']}, "
                   f"v2 = (0, epsilon), P1 = {p['P1']}, w1 = {p['w1']}): distances at t = {t_end} "
                   "and the margin to the singular set, all linear in epsilon. "
                   f"{p['formulation']}, {p['precision']}, rtol = atol = {p['rtol']}. "
                   f"Data {rel}/bipendulum_epsilon_circle.csv.")
    h, c, p = load("bipendulum_epsilon_circle_paths.csv")
    if h:
        fig, ax = plt.subplots(figsize=(5, 5))
        eps = sorted(set(c["epsilon"]), reverse=True)
        for e in eps:
            idx = [i for i, v in enumerate(c["epsilon"]) if v == e]
            ax.plot([c["x1"][i] for i in idx], [c["y1"][i] for i in idx], lw=1,
                    label=f"P1, epsilon = {e:g}")
        p1, p0 = p.point("P1"), p.point("P0")
        if p1 and p0:
            th = [2 * math.pi * k / 200 for k in range(201)]
            r = math.hypot(p1[0] - p0[0], p1[1] - p0[1])
            ax.plot([p0[0] + r * math.cos(t) for t in th], [p0[1] + r * math.sin(t) for t in th],
                    "k:", lw=0.8, label="circle of eq. 89")
        ax.set_aspect("equal")
        ax.legend(fontsize=7)
        rep.figure(fig, "bipendulum-epsilon-circle-paths.png",
                   f"P1's path over t in [0, {p['t_end']}] from P1 = {p['P1']} for each epsilon, "
                   f"and the circle of eq. 89 about P0 = {p['P0']}. {p['precision']}. "
                   f"Data {rel}/bipendulum_epsilon_circle_paths.csv.")
    h, c, p = load("bipendulum_linear_nonlinear.csv")
    if h:
        fig, (a0, a1) = plt.subplots(1, 2, figsize=(10, 3.6))
        a0.plot(c["t"], c["distance_P1"], lw=1, label="|P1 linear - P1 bipendulum|")
        a0.plot(c["t"], c["distance_P2"], lw=1, label="|P2 linear - P2 bipendulum|")
        a0.set_xlabel("t")
        a0.legend(fontsize=7)
        a1.plot(c["t"], c["y0_bipendulum"], lw=1, label="y0, bipendulum (eq. 75)")
        a1.plot(c["t"], c["y0_linear_m0_1"], lw=1, label="y0, linear, m0 = 1")
        a1.plot(c["t"], c["y0_linear_m0_1e-8"], "--", lw=1, label="y0, linear, m0 = 1e-8")
        a1.set_xlabel("t")
        a1.legend(fontsize=7)
        rep.figure(fig, "bipendulum-linear-vs-nonlinear.png",
                   "Finding: Hertz's limit m0 -> 0 does not give the bipendulum. From the common "
                   f"state of docs/special-motions.md (a) (m1 = {p['setup.m1']}, m2 = "
                   f"{p['setup.m2']}, g = {p['setup.g']}, P1 = {p['setup.P1']}, P2 = "
                   f"{p['setup.P2']}, z = {p['setup.z']}; y0, y0d from the bipendulum at t = 0), "
                   "the linear bipendulum's constraints do not contain y0d, so no reaction acts on "
                   "P0: y0 moves uniformly and the motion is the same for every m0 > 0 (the "
                   f"m0 = {p['m0']} curves coincide), while the bipendulum's P0 does not move "
                   f"uniformly. {p['formulation']}, {p['precision']}, rtol = atol = {p['rtol']}, "
                   f"to t = {p['t_end']}. Data {rel}/bipendulum_linear_nonlinear.csv.")
    h, c, p = load("bipendulum_energy_separation.csv")
    if h:
        fig, ax = plt.subplots(figsize=(7, 4))
        for k in h[1:]:
            ax.semilogy(c["t"], _pos(c[k]), lw=1, label=k)
        ax.set_xlabel("t")
        ax.set_ylabel("|E_k(t) - E_k(0)|")
        ax.legend(fontsize=6)

        def case(pre):
            return (f"m1 = {p[pre + 'm1']}, m2 = {p[pre + 'm2']}, g = {p[pre + 'g']}, "
                    f"k = {p[pre + 'k']}, P1 = {p[pre + 'P1']}, P2 = {p[pre + 'P2']}, "
                    f"z = {p[pre + 'z']}")

        rep.figure(fig, "bipendulum-energy-separation.png",
                   "Energy separation (000 eqs. 85-86): T_k + V_k of each point is constant, not "
                   f"only the sum, on the incline ({case('incline.')}: state (a), to t = "
                   f"{p['incline.t_end']}) and under a harmonic pull k/2 |P_k|^2 "
                   f"({case('harmonic.')}, to t = {p['harmonic.t_end']}); {p['formulation']} at "
                   f"the default tolerances: the incline in {p['incline.precisions']} (rtol "
                   f"{p['rtol.double']}), the harmonic pull in double ({p['rtol.double']}) and "
                   f"mp50 ({p['rtol.mp50']}, to t = {p['harmonic.t_end_mp50']}). "
                   f"Data {rel}/bipendulum_energy_separation.csv.")


# --- drift ------------------------------------------------------------------


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


# --- work-precision ---------------------------------------------------------


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


# --- cost tables ------------------------------------------------------------


def gbench_rows(d):
    return [b for b in d.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]


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


def section_file_field(rep):
    """A system file's traced field (codegen::Interpreter) against the
    build-time generated code of the same study: reports/bench/file_field.json
    (bench/bench_file_field.cpp)."""
    d = bench_json(rep, "file_field.json", "`./build/bench/bench/bench_file_field "
                   "--benchmark_out=reports/bench/file_field.json`")
    if d is None:
        return
    times, ops, load = {}, {}, {}
    for b in gbench_rows(d):
        parts = b["name"].split("/")
        if "error_occurred" in b:
            continue
        if parts[0] == "field" and len(parts) == 5:
            _, kind, study, form, prec = parts
            times[(study, form, prec, kind)] = b.get("cpu_time", b.get("real_time"))
            ops[(study, form, kind)] = b.get("operations")
        elif parts[0] == "load-and-trace":
            load[parts[1]] = (b.get("cpu_time", b.get("real_time")), b.get("time_unit", ""))
    keys = sorted({(s, f) for (s, f, _, _) in times}, key=lambda k: (ops.get((k[0], k[1], "generated")) or 0, k))
    precs = [p for p in ("double", "mp50") if any(k[2] == p for k in times)]
    rep.md("One field evaluation at the default state: the study's build-time generated C++ against "
           "the same study written as a system file (`studies/files/`), traced at load and run by "
           "`codegen::Interpreter`; ratio = traced / generated, one run of `bench_file_field` "
           "(goals: double within 3x, mp50 within 1.2x).")
    rep.md()
    rep.md("| study / field | operations | " + " | ".join(f"{p}: generated, traced, ratio" for p in precs) + " |")
    rep.md("|---|---|" + "---|" * len(precs))
    ratios = {p: [] for p in precs}
    for study, form in keys:
        cells = []
        for p in precs:
            g, t = times.get((study, form, p, "generated")), times.get((study, form, p, "traced-file"))
            if g and t:
                ratios[p].append((f"{study}\n{form}", t / g))
                cells.append(f"{g:.3g} ns, {t:.3g} ns, {t / g:.2f}" if max(g, t) < 1e3
                             else f"{g / 1e3:.3g} us, {t / 1e3:.3g} us, {t / g:.2f}")
            else:
                cells.append("-")
        o = ", ".join(str(int(v)) if v is not None else "-"
                      for v in (ops.get((study, form, "generated")), ops.get((study, form, "traced-file"))))
        rep.md(f"| {study} / {form} | {o} | " + " | ".join(cells) + " |")
    rep.md()
    for name, (v, unit) in sorted(load.items()):
        goal = " (goal: under 100 ms)" if name.startswith("n_trailer") else ""
        rep.md(f"- Load, check and trace the second kind of `{name}`: {fmt(v)} {unit}{goal}.")
    rep.md()
    cpath = os.path.join(rep.reports, "bench", "file_field_compiled.json")
    if os.path.exists(cpath):
        ct = {}
        for b in gbench_rows(read_json(cpath)):
            parts = b["name"].split("/")
            if parts[0] == "field" and len(parts) == 5 and "error_occurred" not in b:
                ct[(parts[2], parts[3], parts[1])] = b.get("cpu_time", b.get("real_time"))
        ckeys = sorted({(s_, f_) for (s_, f_, _) in ct}, key=lambda k: (ops.get((k[0], k[1], "generated")) or 0, k))
        rep.md("With `--compiled` (the trace compiled at run time by the system's C++ compiler, "
               "double; another run, `bench/file_field_compiled.json`), ratios to the generated code:")
        rep.md()
        rep.md("| study / field | generated | traced | compiled |")
        rep.md("|---|---|---|---|")
        for study, form in ckeys:
            g = ct.get((study, form, "generated"))
            cells = [f"{g:.3g} ns" if g else "-"]
            for kind in ("traced-file", "compiled-file"):
                v = ct.get((study, form, kind))
                cells.append(f"{v:.3g} ns ({v / g:.2f})" if v and g else "-")
            rep.md(f"| {study} / {form} | " + " | ".join(cells) + " |")
        rep.md()
    if not any(ratios.values()):
        return
    fig, axes = plt.subplots(1, len(precs), figsize=(5.5 * len(precs), 3.8), squeeze=False)
    for ax, p, goal in zip(axes[0], precs, (3.0, 1.2)):
        labels = [k for k, _ in ratios[p]]
        ax.bar(range(len(labels)), [r for _, r in ratios[p]], color="tab:blue")
        ax.axhline(goal if p == "double" else 1.2, color="tab:red", ls="--", lw=1, label="goal")
        ax.axhline(1.0, color="grey", lw=0.6)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, fontsize=7, rotation=35, ha="right")
        ax.set_ylabel("traced / generated")
        ax.set_title(p)
        ax.legend(fontsize=8)
    rep.figure(fig, "file-field-ratios.png",
               "A system file's traced field over the generated code of the same study, per field "
               "evaluation (bench/file_field.json); dashed: the goal.")


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


def section_verify(rep):
    path = os.path.join(rep.verify_dir, "summary.md")
    if not os.path.exists(path):
        rep.missing.append(f"{os.path.relpath(path, rep.reports)} (run `nhs verify`)")
        rep.md("No verify summary.")
        return
    with open(path) as f:
        text = f.read()
    # Headings one level down, so that the report keeps its own outline.
    text = re.sub(r"^# ", "### ", text, flags=re.M)
    rep.md(f"From `{os.path.relpath(path, rep.reports)}`:")
    rep.md()
    rep.md(text.rstrip())


# --- geometric integrators ----------------------------------------------------


def section_geometric(rep):
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
    wp = d.get("work_precision", [])
    if wp:
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


# Figures under reports/figures/ that another program draws.
FIGURES_OF_OTHER_PROGRAMS = {"peer_compare.png"}


def section_bicycle(rep):
    """Meijaard et al. (2007) Figure 3: the Whipple bicycle's eigenvalues
    against the forward speed, with the crossings nhs finds (docs/bicycle.md)."""
    base = os.path.join(rep.reports, "bench", "bicycle_stability")
    if not (os.path.exists(base + ".csv") and os.path.exists(base + ".json")):
        rep.missing.append("bench/bicycle_stability.csv, .json (" + BICYCLE_CMD + ")")
        rep.md("(no input)")
        return
    header, cols = read_csv(base + ".csv")
    crossings = read_json(base + ".json").get("crossings", [])
    rep.md("The Carvallo-Whipple bicycle of Meijaard, Papadopoulos, Ruina and Schwab, Proc. R. Soc. A 463 "
           "(2007) 1955-1982 (examples/bicycle/whipple-bicycle.toml): the eigenvalues of upright running "
           "against the forward speed v, from the linearization of the non-linear model, as the paper's "
           "Figure 3. Command: `" + BICYCLE_CMD + "`.")
    rep.md()
    rep.md("| crossing | kind | v [m/s] | Meijaard Table 2 |")
    rep.md("| --- | --- | --- | --- |")
    printed = {"complex pair": ("weave", "4.29238253634111"), "real": ("capsize", "6.02426201538837")}
    for c in crossings:
        name, ref = printed.get(c["kind"], ("", ""))
        rep.md(f"| {name} | {c['kind']} | {c['at']} | {ref} |")
    rep.md()
    v = cols["v"]
    k = 1
    fig, ax = plt.subplots(figsize=(7, 4.5))
    while f"re_{k}" in header:
        re, im = cols[f"re_{k}"], [abs(x) for x in cols[f"im_{k}"]]
        ax.plot(v, re, "k.", ms=2, label="real part" if k == 1 else None)
        ax.plot(v, im, ".", color="tab:blue", ms=2, label="|imaginary part|" if k == 1 else None)
        k += 1
    for c in crossings:
        ax.axvline(float(c["at"]), color="tab:red", lw=0.8, ls="--")
        ax.annotate(f"{c['kind']}\nv = {float(c['at']):.6f}", (float(c["at"]), 8), fontsize=8,
                    ha="center", color="tab:red")
    ax.axhline(0, color="gray", lw=0.5)
    ax.set_ylim(-10, 10)
    ax.set_xlabel("forward speed v [m/s]")
    ax.set_ylabel("eigenvalue [1/s]")
    ax.legend(loc="lower left", fontsize=8)
    rep.figure(fig, "bicycle_eigenvalues.png",
               "The bicycle's eigenvalues against speed (Meijaard Figure 3); dashed: the weave and capsize "
               "crossings nhs refines, between which upright running is asymptotically stable.")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--reports", default=os.path.join(root, "reports"))
    ap.add_argument("--verify-dir", default=None,
                    help="nhs verify's --out-dir (default: <reports>/latest)")
    ap.add_argument("--command", default="bash scripts/report.sh --reference",
                    help="the command that regenerated everything, for the report's header")
    a = ap.parse_args()
    verify_dir = os.path.abspath(a.verify_dir or os.path.join(a.reports, "latest"))
    rep = Report(os.path.abspath(a.reports), verify_dir)
    # This script's own figures are made anew; those other programs draw
    # (bench/peer_compare.py) are kept.
    for old in glob.glob(os.path.join(rep.figdir, "*.png")):
        if os.path.basename(old) not in FIGURES_OF_OTHER_PROGRAMS:
            os.remove(old)

    rep.section("Cross-validation (nhs verify)", lambda: section_verify(rep))
    rep.section("Special motions", lambda: section_special_motions(rep))
    rep.section("Energy, separate energies and constraint residuals along the default motions",
                lambda: section_energy(rep))
    rep.section("The bipendulum: findings", lambda: section_bipendulum(rep))
    rep.section("Study curves", lambda: section_study_csv(rep))
    rep.section("Constraint drift with and without projection onto C", lambda: section_drift(rep))
    rep.section("Work-precision", lambda: section_work_precision(rep))
    rep.section("Geometric integrators", lambda: section_geometric(rep))
    rep.section("Cost of the vector field", lambda: section_costs(rep))
    rep.section("System files: the traced field against the generated code", lambda: section_file_field(rep))
    rep.section("Scaling", lambda: section_scaling(rep))
    rep.section("The Whipple bicycle: eigenvalues against speed", lambda: section_bicycle(rep))

    head = [
        "# nhs report",
        "",
        f"Regenerated by `{a.command}` (scripts/report.py over the JSON/CSV outputs; "
        f"verify data from `{os.path.relpath(verify_dir, rep.reports)}/`). "
        f"{len(rep.figures)} figures under `figures/`.",
        "",
    ]
    if rep.missing:
        head += ["Inputs not found (their sections are empty or partial):", ""]
        head += [f"- {m}" for m in rep.missing] + [""]
    if rep.problems:
        head += ["Sections that failed:", ""] + [f"- {p}" for p in rep.problems] + [""]
    head += ["Figures:", ""] + [f"- [{os.path.basename(f)}]({f})" for f in rep.figures] + [""]
    with open(os.path.join(rep.reports, "REPORT.md"), "w") as f:
        f.write("\n".join(head + rep.lines).rstrip() + "\n")
    print(f"report.py: wrote {os.path.join(rep.reports, 'REPORT.md')} and "
          f"{len(rep.figures)} figures", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
