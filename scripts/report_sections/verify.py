"""The sections from nhs verify's output: its summary table, the special
motions and the default motions' energy and residuals, the study curves.
"""
import glob
import os
import re
from collections import defaultdict

from .bipendulum import EXPECTED_STUDY_CSV
from .common import LogLines, plt, read_csv, read_json, verify_command


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
    for pattern, what, _ in EXPECTED_STUDY_CSV:
        if not any(glob.fnmatch.fnmatch(os.path.basename(p), pattern) for p in files):
            rep.missing.append(f"{rel}/{pattern}: {what}")
    if not files:
        rep.md(f"No study CSV files in `{rel}/` yet (expected: "
               + "; ".join(w for _, w, _ in EXPECTED_STUDY_CSV) + ").")
        return
    known = {p for p, _, _ in EXPECTED_STUDY_CSV}
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
